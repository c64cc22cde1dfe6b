"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its own figures, and each
run is appended, dated and with the machine named, to benchmarks/results/FAMILY.md (``bench_engine``
-> ``engine.md``), so that the figures the docs quote can be traced to a run. A bench that keeps
its own results file (``RESULTS``: bench_venue's table of runs) is left to write it.

Benchmarks measure, they never assert: this machine is shared and noisy, so figures are
medians or ratios, and a slow run is information, not a failure.

``python benchmarks/run_all.py [WORD...] [--no-record]``: only the benches whose name holds one
of the words; ``--no-record`` prints without appending (a trial run).
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.util
import io
import os
import pathlib
import platform
import sys
from typing import TextIO

# as `bidou-table` does (firmware/cli/dispatch.py): one BLAS thread, set before numpy is loaded
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = pathlib.Path(__file__).resolve().parent
RESULTS = HERE / "results"


class Tee(io.TextIOBase):
    """Writes to the terminal and keeps a copy."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.kept = io.StringIO()

    def write(self, text: str) -> int:
        self.kept.write(text)
        return self.out.write(text)

    def flush(self) -> None:
        self.out.flush()


def machine() -> str:
    """The machine in words: architecture, CPU, cores, memory, system and Python."""
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kb = int(pathlib.Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kb / 2**20:.0f} GiB"
    return (f"{platform.machine()}, {cpu}, {os.cpu_count()} cores{memory}, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}")


def record(family: str, printed: str, when: datetime.datetime,
           results: pathlib.Path) -> pathlib.Path:
    """Append one run's printed figures to ``results/FAMILY.md``; the file it wrote."""
    results.mkdir(exist_ok=True)
    path = results / f"{family}.md"
    head = "" if path.exists() else (f"# {family}: `make bench` runs, newest last\n\nWritten by "
                                     "benchmarks/run_all.py; each run as it printed.\n")
    with path.open("a", encoding="utf-8") as out:
        out.write(f"{head}\n## {when:%Y-%m-%d %H:%M} UTC\n\n{machine()}\n\n```\n"
                  f"{printed.rstrip()}\n```\n")
    return path


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    keep = "--no-record" not in args
    only = [a for a in args if a != "--no-record"]
    sys.path.insert(0, str(HERE.parent))
    for path in sorted(HERE.glob("bench_*.py")):
        if only and not any(word in path.stem for word in only):
            continue
        print(f"== {path.stem}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        when = datetime.datetime.now(datetime.UTC)
        tee = Tee(sys.stdout)
        with contextlib.redirect_stdout(tee):
            spec.loader.exec_module(module)
            # a bench that keeps its own results file (bench_venue: RESULTS, main(record_to=))
            own = getattr(module, "RESULTS", None)
            if own is not None and not keep:
                module.main(record_to=None)
            else:
                module.main()
        if own is not None:
            print(f"(its own results: {pathlib.Path(own).relative_to(HERE.parent)})")
        elif keep:
            written = record(path.stem.removeprefix("bench_"), tee.kept.getvalue(), when, RESULTS)
            print(f"(appended to {written.relative_to(HERE.parent)})")
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
