"""`make mutants`: would the engine's tests notice a wrong rule? Mutation testing of engine/
against tests/engine with mutmut, outside CI.

mutmut copies engine/ and tests/ into mutants/, makes every mutant of engine/ (a ``<`` turned
``<=``, a number or a string changed, an argument dropped, ``and`` turned ``or``...) and runs,
for each, only the tests of tests/engine that call the mutated function (mutmut's own test
selection, pyproject's ``[tool.mutmut]``), stopping at the first failure. A mutant that every
one of its tests lets through survived: a test is missing, or the change cannot change what
the engine does (an equivalent mutant).

A whole run takes hours on a shared 2-core machine, so ``MUTANTS_SAMPLE=N`` runs N mutants
drawn with ``MUTANTS_SEED`` (default 62) from the sorted list of every mutant; 0 runs them all.
``MUTANTS_NAMES="a b"`` runs those mutants only (to check again the survivors of a run).
A mutant an earlier run killed stays killed; the others are checked again
(``MUTANTS_AGAIN=1`` checks every chosen one again).
The figures, and each surviving mutant's diff, go to benchmarks/results/DATE-engine-mutants.md
(``--out FILE`` elsewhere), for the reason of each survivor to be written beside it.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import os
import pathlib
import platform
import random
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
MUTMUT = str(pathlib.Path(sys.executable).parent / "mutmut")
CHILDREN = "2"
#: mutmut's words for a mutant's fate, in the order the figures give them.
FATES = ("killed", "survived", "timeout", "no tests", "suspicious", "segfault", "not checked")


def mutmut(*args: str) -> str:
    """Run mutmut in the project's root; its standard output."""
    done = subprocess.run([MUTMUT, *args], cwd=ROOT, capture_output=True, text=True)
    if done.returncode not in (0, 1):
        sys.exit(f"mutmut {' '.join(args[:2])} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done.stdout


def fates() -> dict[str, str]:
    """Every mutant mutmut has made, with its fate so far."""
    out: dict[str, str] = {}
    for line in mutmut("results", "--all", "true").splitlines():
        name, sep, fate = line.strip().rpartition(": ")
        if sep and name.startswith("engine."):
            out[name] = fate
    return out


def choose(names: list[str], sample: int, seed: int) -> list[str]:
    """``sample`` of ``names`` drawn with ``seed`` (all of them for 0), sorted. The names are
    shuffled with the seed and the first ``sample`` taken, so a smaller sample of one seed is
    part of every bigger one."""
    order = sorted(names)
    random.Random(seed).shuffle(order)
    return sorted(order if sample <= 0 else order[:sample])


def report(chosen: list[str], after: dict[str, str], seconds: float, how: str) -> str:
    """The dated result: what was run, the figures, and each survivor's diff."""
    counts = collections.Counter(after.get(n, "not checked") for n in chosen)
    made = len(chosen)
    killed = counts["killed"]
    lines = [
        "# engine/ mutants (make mutants)", "",
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {platform.machine()}, "
        f"{os.cpu_count()} cores shared with other work, Python {platform.python_version()}, "
        f"mutmut {mutmut('--version').split()[-1]}, {CHILDREN} children under nice -n 10.", "",
        how, "",
        "| made | killed | survived | timed out | other | time |", "|---|---|---|---|---|---|",
        f"| {made} | {killed} ({100 * killed / max(made, 1):.1f}%) | {counts['survived']} | "
        f"{counts['timeout']} | {made - killed - counts['survived'] - counts['timeout']} | "
        f"{seconds / 60:.1f} min |", "",
    ]
    others = {f: n for f, n in counts.items() if f not in ("killed", "survived", "timeout")}
    if others:
        lines += ["Other fates: " + ", ".join(f"{f} {n}" for f, n in sorted(others.items())), ""]
    survivors = [n for n in chosen if after.get(n) != "killed"]
    if survivors:
        lines += ["## Mutants not killed", ""]
        for name in survivors:
            diff = mutmut("show", name).strip().splitlines()[1:]
            lines += [f"### {name} ({after.get(name, 'not checked')})", "", "Reason: ", "",
                      "```diff", *diff, "```", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=None)
    args = parser.parse_args()
    sample = int(os.environ.get("MUTANTS_SAMPLE", "0"))
    seed = int(os.environ.get("MUTANTS_SEED", "62"))
    # mutmut makes every mutant and maps tests to functions on any run: run it on the few
    # mutants of a function that one test calls, to have the list of them all.
    mutmut("run", "--max-children", CHILDREN, "engine.errors.x_reject_unknown_keys*")
    every = fates()
    named = os.environ.get("MUTANTS_NAMES", "").split()
    chosen = sorted(named) if named else choose(list(every), sample, seed)
    if named:
        how = f"The {len(chosen)} mutants named in MUTANTS_NAMES, of {len(every)} made."
    elif len(chosen) < len(every):
        how = (f"A sample of {len(chosen)} of the {len(every)} mutants made, drawn with seed "
               f"{seed} (MUTANTS_SAMPLE={sample} MUTANTS_SEED={seed}).")
    else:
        how = f"Every one of the {len(every)} mutants made."
    # A mutant an earlier run killed stays killed (tests are only ever added); every other one
    # is checked (again): MUTANTS_AGAIN=1 checks every chosen one again.
    again = os.environ.get("MUTANTS_AGAIN") == "1"
    todo = [n for n in chosen if again or every.get(n) != "killed"]
    if len(todo) < len(chosen):
        how += f" {len(chosen) - len(todo)} of them were killed by an earlier run."
    start = time.monotonic()
    ran = mutmut("run", "--max-children", CHILDREN, *todo) if todo else ""
    seconds = time.monotonic() - start
    after = fates()
    if all(after.get(n, "not checked") == "not checked" for n in chosen):
        sys.exit(f"mutmut checked none of the mutants:\n{ran[-3000:]}")
    text = report(chosen, after, seconds, how)
    out = args.out or ROOT / "benchmarks" / "results" / (
        f"{datetime.date.today():%Y-%m-%d}-engine-mutants.md")
    out.write_text(text + "\n")
    print(text.split("## Mutants not killed")[0])
    print(f"written to {out}")


if __name__ == "__main__":
    main()
