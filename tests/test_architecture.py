"""The package's layers: the data model and renderers at the bottom, the views and the IPython
wiring on top, and no module that imports another that imports it back."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import ipy_istring

PACKAGE_DIR = Path(ipy_istring.__file__).parent

# What a user may import outside a notebook: none of it may pull in a view or a frontend.
PURE_MODULES = [
    "ipy_istring",
    "ipy_istring.template",
    "ipy_istring.rewrite",
    "ipy_istring.fields",
    "ipy_istring.registry",
    "ipy_istring.shell",
    "ipy_istring.sql",
    "ipy_istring.html",
    "ipy_istring.sql_connections",
    "ipy_istring.check",
]
VIEW_OR_FRONTEND = (
    "IPython",
    "ipywidgets",
    "ipykernel",
    "ipy_istring.display",
    "ipy_istring.html_view",
    "ipy_istring.text_view",
    "ipy_istring.view_model",
    "ipy_istring.widget",
)


def _module_names() -> list[str]:
    return ["ipy_istring"] + [
        info.name for info in pkgutil.walk_packages([str(PACKAGE_DIR)], prefix="ipy_istring.")
    ]


def _source_path(module: str) -> Path:
    relative = Path(*module.split(".")[1:])
    package_init = PACKAGE_DIR / relative / "__init__.py"
    return package_init if package_init.exists() else (PACKAGE_DIR / relative).with_suffix(".py")


def _imports(module: str) -> set[str]:
    """The ipy_istring modules that ``module`` imports, at any level (functions included)."""
    path = _source_path(module)
    if not path.exists():  # a C extension (ipy_istring._speedups): it imports none of ours
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_package = path.name == "__init__.py"
    package = module if is_package else module.rpartition(".")[0]
    # (A C extension counts whether it is built here or not: ``from . import _speedups``
    # imports it, not the package.)
    known = {*_module_names(), *(f"ipy_istring.{c.stem}" for c in PACKAGE_DIR.glob("*.c"))}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # ``from . import display`` imports the module ipy_istring.display; ``from .sql
            # import sql`` imports ipy_istring.sql.
            names = [
                f"{stem}.{alias.name}" if f"{stem}.{alias.name}" in known else stem
                for alias in node.names
            ]
        else:
            continue
        found.update(name for name in names if name in known and name != module)
    return found


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_modules_import_no_view_and_no_frontend(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        f"bad = sorted(m for m in sys.modules if m.startswith({VIEW_OR_FRONTEND!r}))\n"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"import {module} pulled in {result.stdout.strip()}"


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = {module: _imports(module) for module in _module_names()}
    cycles = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done

    def visit(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target, [*path, target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize(
    "module", [m for m in _module_names() if not m.endswith("__main__")]
)
def test_every_module_says_what_is_public(module: str) -> None:
    """A module lists its public names in ``__all__``; every other function or class it defines
    has a leading underscore, so a reader can tell the API from the helpers."""
    import importlib
    import inspect

    loaded = importlib.import_module(module)
    public = set(getattr(loaded, "__all__", ()))
    assert hasattr(loaded, "__all__"), f"{module} has no __all__"
    undeclared = sorted(
        name
        for name, value in vars(loaded).items()
        if not name.startswith("_")
        and name not in public
        and (inspect.isfunction(value) or inspect.isclass(value))
        and value.__module__ == module
    )
    assert not undeclared, f"{module}: public names outside __all__: {undeclared}"
