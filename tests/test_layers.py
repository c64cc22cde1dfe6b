"""The layers import only downward, without circles, and say why when they import late.

docs/architecture.md: engine < vision < simulator < hardware < firmware < venue < league < web
< table_server < venue_screen < league_screen; a module imports only from its own layer or the
ones below. Beside the product stand the model lab (``vision_lab``: training and scoring the
dice reader) and the benchmarks: nothing in the product imports them, the lab leans only on the
layers up to the simulator, and the benchmarks may measure anything. Read from the source
(``ast``), so an import hidden in a function counts as much as one at the top.
``firmware/cli/dispatch.py`` names its subcommands' modules as strings (``importlib``, chosen at run
time): that is dispatch, not an import, and it is checked apart (every name must be a real
module).

No module imports another round a circle either, in any package, late imports counted: a
circle means two modules that are one job, or a piece both need that belongs in a third. And
no file of any package is over 400 lines, so that a file keeps one job a reader can hold.
"""

from __future__ import annotations

import ast
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: ``league`` (the league's store, ingester, ratings and NATS cluster) stands on the venue (its
#: entry format and store) and under the table's server (a table's referee console may read
#: the roster copy); ``league_screen`` (its screen and JSON API) is the top, above the venue's
#: screen, whose serving and pages it may reuse.
LAYERS = ("engine", "vision", "simulator", "hardware", "firmware", "venue", "league", "web",
          "table_server", "venue_screen", "league_screen")
RANK = {name: i for i, name in enumerate(LAYERS)}
#: The packages beside the product, and what each may import besides itself.
APART = {"vision_lab": ("engine", "vision", "simulator"),
         "benchmarks": (*LAYERS, "vision_lab")}
PACKAGES = (*LAYERS, *APART)
LATE_MARK = "# lazy:"
#: Most lines a file of a package may have.
MAX_LINES = 400


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_imports(path: pathlib.Path | str) -> list[tuple[ast.stmt, str, bool]]:
    """(statement, imported module, inside a function) for every project import in ``path``
    (a file, or source text). A file of a folder that is no package (benchmarks/) imports its
    neighbours by their bare names (``from bench_venue import ...``): those count as
    ``benchmarks.bench_venue``."""
    text = path.read_text(encoding="utf-8") if isinstance(path, pathlib.Path) else path
    tree = ast.parse(text)
    found: list[tuple[ast.stmt, str, bool]] = []
    folder = path.parent if isinstance(path, pathlib.Path) else None

    def named(module: str) -> str:
        top = module.split(".")[0]
        if folder is None or top in PACKAGES or not (folder / f"{top}.py").exists():
            return module
        where = folder.relative_to(ROOT).parts if folder.is_relative_to(ROOT) else (folder.name,)
        return ".".join((*where, module))

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
            if isinstance(child, ast.Import):
                found.extend((child, named(a.name), in_function) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child, named(child.module), in_function))
                # "from firmware import views": the names may be modules themselves
                found.extend((child, f"{child.module}.{a.name}", in_function)
                             for a in child.names
                             if (ROOT / child.module.replace(".", "/") / f"{a.name}.py").exists())
            visit(child, inner)

    visit(tree, False)
    return [(s, name, f) for s, name, f in found if name.split(".")[0] in PACKAGES]


def sources(*packages: str) -> list[pathlib.Path]:
    return sorted(p for package in packages for p in (ROOT / package).rglob("*.py"))


def may_import(package: str, other: str) -> bool:
    """Whether a module of ``package`` may import one of ``other`` (both top-level names)."""
    if package == other:
        return True
    if package in APART:
        return other in APART[package]
    return other in RANK and RANK[other] < RANK[package]


def upward(path: pathlib.Path | str, package: str) -> list[str]:
    """The imports in ``path`` (of ``package``) it may not make: a higher layer, or, from the
    product, a package that stands apart."""
    return [f"line {s.lineno}: {name}" for s, name, _ in project_imports(path)
            if not may_import(package, name.split(".")[0])]


def unexplained(path: pathlib.Path | str) -> list[str]:
    """The imports inside a function with no ``# lazy: reason`` on their line or above."""
    text = path.read_text(encoding="utf-8") if isinstance(path, pathlib.Path) else path
    lines = ["", *text.splitlines()]
    return [f"line {s.lineno}: {name}" for s, name, in_function in project_imports(text)
            if in_function and LATE_MARK not in lines[s.lineno] + lines[s.lineno - 1]]


@pytest.mark.parametrize("path", sources(*PACKAGES), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_module_imports_only_its_own_layer_or_lower(path: pathlib.Path) -> None:
    package = path.relative_to(ROOT).parts[0]
    found = upward(path, package)
    assert not found, (f"{path.relative_to(ROOT)} ({package}) imports a higher layer, or one "
                       f"that stands apart from the product (vision_lab, benchmarks): {found}")


@pytest.mark.parametrize("path", sources(*PACKAGES), ids=lambda p: str(p.relative_to(ROOT)))
def test_an_import_inside_a_function_says_why(path: pathlib.Path) -> None:
    found = unexplained(path)
    assert not found, (f"{path.relative_to(ROOT)} imports inside a function without a "
                       f"'{LATE_MARK} reason' comment: {found}")


def module_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports at its top level (what runs on import)."""
    known = {module_name(p) for p in sources(*PACKAGES)}
    graph: dict[str, set[str]] = {}
    for path in sources(*PACKAGES):
        me = module_name(path)
        graph[me] = {name for _, name, in_function in project_imports(path)
                     if not in_function and name in known and name != me}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_imports_itself_round_a_circle() -> None:
    # a package's __init__ importing its own submodules is how packages work, not a circle
    graph = {m: {n for n in deps if not m or not n.startswith(m + ".")}
             for m, deps in module_graph().items()}
    assert find_cycle(graph) is None, f"import circle: {' -> '.join(find_cycle(graph) or [])}"


def package_graph() -> dict[str, set[str]]:
    """Module -> the modules of its own package it imports anywhere, in a function too (a late
    import still ties the two modules together); a package's __init__ importing its own
    submodules left out, as above."""
    known = {module_name(p) for p in sources(*PACKAGES)}
    graph: dict[str, set[str]] = {}
    for path in sources(*PACKAGES):
        me = module_name(path)
        graph[me] = {name for _, name, _ in project_imports(path)
                     if name in known and name != me and name.split(".")[0] == me.split(".")[0]
                     and not name.startswith(me + ".")}
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Every group of modules that import one another round a circle (the strongly connected
    components of more than one module, Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def unknown_circles(graph: dict[str, set[str]],
                    known: tuple[frozenset[str], ...]) -> list[str]:
    """The circles in ``graph`` not within one of the ``known`` ones, each as a sentence."""
    out = []
    for group in circles(graph):
        if not any(group <= k for k in known):
            inner = {m: sorted(graph[m] & group) for m in sorted(group)}
            out.append("; ".join(f"{m} imports {', '.join(n)}" for m, n in inner.items()))
    return out


def test_no_module_imports_another_of_its_package_round_a_circle() -> None:
    graph = package_graph()
    found = unknown_circles(graph, ())
    assert not found, ("import circles inside a package (late imports counted; move what "
                       "both need into a third module): " + " | ".join(found))


def line_count(path: pathlib.Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def long_files(root: pathlib.Path, paths: list[pathlib.Path]) -> list[str]:
    """The files over MAX_LINES (paths relative to ``root``), each as "path: N lines"."""
    return [f"{p.relative_to(root)}: {n} lines" for p in paths
            if (n := line_count(p)) > MAX_LINES]


def test_no_file_is_over_400_lines() -> None:
    found = long_files(ROOT, sources(*PACKAGES))
    assert not found, (f"files over {MAX_LINES} lines (split each into pieces with one job): "
                       f"{found}")


def test_the_checks_would_catch_a_circle_an_upward_import_and_an_unexplained_late_one(
        tmp_path: pathlib.Path) -> None:
    """Each search above must be able to fail: planted faults are found."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    graph = {"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c": {"p.d"}, "p.d": {"p.e"}, "p.e": {"p.c"},
             "p.f": {"p.a"}}
    assert sorted(map(sorted, circles(graph))) == [["p.a", "p.b"], ["p.c", "p.d", "p.e"]]
    known = (frozenset({"p.a", "p.b", "p.x"}),)
    assert unknown_circles(graph, known) == [
        "p.c imports p.d; p.d imports p.e; p.e imports p.c"]
    long, short = tmp_path / "long.py", tmp_path / "short.py"
    long.write_text("x = 1\n" * (MAX_LINES + 1))
    short.write_text("x = 1\n" * MAX_LINES)
    assert long_files(tmp_path, [long, short]) == [f"long.py: {MAX_LINES + 1} lines"]
    planted = "import os\n\ndef f():\n    from table_server.app import create_app\n"
    assert upward(planted, "firmware") == ["line 4: table_server.app"]
    assert upward(planted, "table_server") == []
    assert upward(planted, "vision_lab") == ["line 4: table_server.app"]
    assert upward(planted, "benchmarks") == []
    lab = "from vision_lab.evaluate import Score\n"
    assert upward(lab, "engine") == ["line 1: vision_lab.evaluate"]
    assert upward(lab, "venue_screen") == ["line 1: vision_lab.evaluate"]
    assert upward(lab, "benchmarks") == []
    assert upward("import benchmarks.bench_engine\n", "vision_lab") == [
        "line 1: benchmarks.bench_engine"]
    (tmp_path / "benchmarks").mkdir()
    bench = tmp_path / "benchmarks" / "bench_a.py"
    (tmp_path / "benchmarks" / "bench_b.py").write_text("x = 1\n")
    bench.write_text("from bench_b import x\nimport json\n")
    assert [name for _, name, _ in project_imports(bench)] == ["benchmarks.bench_b"]
    assert unexplained(planted) == ["line 4: table_server.app"]
    assert unexplained(planted.replace("    from", "    # lazy: planted\n    from")) == []


def test_cli_dispatches_to_modules_that_exist() -> None:
    from firmware.cli.dispatch import (  # lazy: the module under test, imported where it is read
        COMMANDS,
    )

    for name, (module, _) in COMMANDS.items():
        assert importlib.util.find_spec(module) is not None, f"{name}: no module {module}"
