"""`make bench` keeps its figures: each run of a bench family is appended to
benchmarks/results/FAMILY.md, dated, with the machine it ran on, after the runs before it."""

from __future__ import annotations

import contextlib
import datetime
import importlib.util
import pathlib
import sys
from types import ModuleType

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def run_all() -> ModuleType:  # benchmarks/ is a folder of scripts, not a package
    spec = importlib.util.spec_from_file_location("run_all", ROOT / "benchmarks" / "run_all.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_run_is_appended_dated_with_its_machine_after_the_earlier_ones(
        tmp_path: pathlib.Path) -> None:
    bench = run_all()
    first = datetime.datetime(2026, 12, 4, 22, 5, tzinfo=datetime.UTC)
    second = datetime.datetime(2026, 12, 5, 2, 30, tzinfo=datetime.UTC)
    path = bench.record("engine", "two-hand: 4100 games/s\n", first, tmp_path)
    bench.record("engine", "two-hand: 4200 games/s\n", second, tmp_path)
    text = path.read_text()
    assert path == tmp_path / "engine.md"
    assert text.count("# engine") == 1
    assert text.index("## 2026-12-04 22:05 UTC") < text.index("4100 games/s") \
        < text.index("## 2026-12-05 02:30 UTC") < text.index("4200 games/s")
    assert text.count(bench.machine()) == 2 and "cores" in bench.machine()


def test_what_a_bench_prints_is_both_shown_and_kept(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = run_all()
    tee = bench.Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        print("median 1.2 ms")
    assert tee.kept.getvalue() == "median 1.2 ms\n"
    assert capsys.readouterr().out == "median 1.2 ms\n"
