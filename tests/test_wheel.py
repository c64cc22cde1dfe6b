"""The table's install carries the product and nothing else: the wheel built from this tree holds
exactly the product's packages (every module of each, its templates and the dice reader's
weights) and no ``vision_lab`` (training), ``benchmarks``, tests, nor the ``venue-data/`` folder
that ``make venue`` leaves in the tree. pyproject.toml names the packages one by one for this.

The wheel is built offline (``pip wheel --no-build-isolation --no-index``, with the venv's own
setuptools) from a copy of the tree, so the build's own folders never land in the checkout.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the product's top-level packages (the layers of tests/test_layers.py), where they exist
PRODUCT = ("engine", "vision", "simulator", "hardware", "firmware", "venue", "league", "web",
           "table_server", "venue_screen", "league_screen")
#: left out of the copy: git's and the venvs' folders, caches, earlier builds, and the
#: leave-one-set-out models (ignored by git, never shipped)
NOT_COPIED = shutil.ignore_patterns(".git", ".venv*", ".pi-check", "__pycache__", "build",
                                    "*.egg-info", ".pytest_cache", ".ruff_cache", ".mypy_cache",
                                    ".hypothesis", "test-artifacts", "venue-data", "without-*",
                                    "*.db", "*.db-wal", "*.db-shm")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, set[str]]:
    """(the copied tree, the names in the wheel built from it)."""
    top = tmp_path_factory.mktemp("wheel")
    tree = top / "tree"
    shutil.copytree(ROOT, tree, ignore=NOT_COPIED)
    # what `make venue` leaves behind: a table's settings and a PostgreSQL cluster's files
    (tree / "venue-data" / "pg").mkdir(parents=True)
    (tree / "venue-data" / "t1.toml").write_text("[venue]\nname = 't1'\n")
    (tree / "venue-data" / "pg" / "postgresql.conf").write_text("port = 5432\n")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--quiet", "--wheel-dir", str(top / "out"), str(tree)],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, (
        f"pip wheel failed (the test extra brings setuptools>=70.1): {done.stderr[-2000:]}")
    (built,) = (top / "out").glob("bidou_table-*.whl")
    with zipfile.ZipFile(built) as z:
        return tree, set(z.namelist())


def test_the_wheel_holds_exactly_the_products_packages(
        wheel: tuple[pathlib.Path, set[str]]) -> None:
    _, names = wheel
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    expected = {p for p in PRODUCT if (ROOT / p / "__init__.py").exists()}
    assert tops == expected, (f"the wheel's top-level folders are {sorted(tops)}, not the "
                              f"product's {sorted(expected)}: name the packages in "
                              f"pyproject.toml's [tool.setuptools.packages.find] include")


def test_every_module_of_the_product_is_in_the_wheel(
        wheel: tuple[pathlib.Path, set[str]]) -> None:
    tree, names = wheel
    modules = {p.relative_to(tree).as_posix() for top in PRODUCT if (tree / top).is_dir()
               for p in (tree / top).rglob("*.py")}
    missing = sorted(modules - names)
    assert not missing, f"modules left out of the wheel (a subpackage not included?): {missing}"


def test_the_dice_readers_weights_and_the_pages_templates_are_in_the_wheel(
        wheel: tuple[pathlib.Path, set[str]]) -> None:
    tree, names = wheel
    data = {p.relative_to(tree).as_posix() for p in (tree / "vision").rglob("*")
            if p.suffix in (".onnx", ".npz", ".json")}
    data |= {p.relative_to(tree).as_posix()
             for p in (tree / "table_server" / "templates").glob("*.html")}
    assert any(n.endswith(".onnx") for n in data), "the tree has no model file to check"
    missing = sorted(data - names)
    assert not missing, f"files the table reads that the wheel leaves out: {missing}"
