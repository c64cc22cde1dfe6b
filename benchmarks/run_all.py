"""`make bench`: run every benchmarks/bench_*.py in turn; each prints its own figures.

Benchmarks measure, they never assert: this machine is shared and noisy, so figures are
medians or ratios, and a slow run is information, not a failure.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys

# as `bidou-table` does (firmware/cli.py): one BLAS thread, set before numpy is loaded
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = pathlib.Path(__file__).resolve().parent


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    only = sys.argv[1:]
    for path in sorted(HERE.glob("bench_*.py")):
        if only and not any(word in path.stem for word in only):
            continue
        print(f"== {path.stem}", flush=True)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
