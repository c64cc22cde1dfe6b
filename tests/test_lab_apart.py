"""The table never runs what builds and measures models: no product package imports
``vision_lab`` (training, corpus, evaluation), and ``vision_lab`` leans only on ``engine``,
``vision`` and ``simulator`` (its rendered scenes). Read from the source, as
tests/test_layers.py reads the layers."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PRODUCT = ("engine", "vision", "simulator", "hardware", "firmware", "table_server", "venue",
           "venue_screen")


def imported(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every absolute import in ``path``, nested ones too."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


@pytest.mark.parametrize("path", sorted(p for pkg in PRODUCT for p in (ROOT / pkg).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_part_of_the_table_imports_the_model_lab(path: pathlib.Path) -> None:
    found = [line for line, top in imported(path) if top == "vision_lab"]
    assert not found, f"{path.relative_to(ROOT)} imports vision_lab on lines {found}"


def test_the_lab_leans_only_on_the_engine_and_vision() -> None:
    allowed = {"engine", "vision", "simulator", "vision_lab"}
    others = {top for top in (*PRODUCT, "benchmarks")} - allowed
    found = [f"{p.relative_to(ROOT)}:{line} {top}" for p in sorted((ROOT / "vision_lab").rglob(
        "*.py")) for line, top in imported(p) if top in others]
    assert not found, f"vision_lab imports a part of the table above vision: {found}"
