"""Shared fixtures: a real InteractiveShell with the extension, and the real services.

Services (PostgreSQL, Chromium) are set up by ``scripts/test``.  Run outside it, a test that
needs one is skipped and says why; under CI (``CI=true``) a missing service is a failure, so a
broken set-up can never pass as a run of skipped tests.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

# Property tests explore at random on a developer's machine (and remember what failed in
# .hypothesis/), but CI must give the same verdict every time: scripts/test selects "ci" under
# CI=true.  A failure found locally is kept as an @example in the test, not in a database.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile("ci" if IN_CI else "dev")


def require(condition: bool, why: str) -> None:
    """Skip when a service is missing on a developer's machine, fail when it is missing in CI."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{why} (CI must provide it: see scripts/test)")
    pytest.skip(why)


@pytest.fixture(scope="session")
def _shell_instance() -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance()


@pytest.fixture
def ishell(_shell_instance: Any) -> Iterator[Any]:
    """A real IPython InteractiveShell with ``%load_ext ipy_istring`` done, reset afterwards."""
    shell = _shell_instance
    shell.run_line_magic("load_ext", "ipy_istring")
    try:
        yield shell
    finally:
        shell.run_line_magic("unload_ext", "ipy_istring")
        shell.reset(new_session=False)


def write_notebook(path: Path, cells: list[str]) -> Path:
    """A notebook of these code cells, written by nbformat at ``path``; returns ``path``."""
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(notebook, path)
    return path


def run(shell: Any, cell: str) -> Any:
    """Run a cell in the shell; return its result, re-raising any error it raised."""
    result = shell.run_cell(cell, store_history=False)
    if result.error_before_exec is not None:
        raise result.error_before_exec
    if result.error_in_exec is not None:
        raise result.error_in_exec
    return result.result


@pytest.fixture
def display_options() -> Iterator[Any]:
    """The display options (change them with ``set_options``), put back after the test."""
    from ipy_istring.display_options import options, set_options

    with set_options(**vars(options)):
        yield options


@pytest.fixture(scope="session")
def postgres_dsn() -> str:
    """libpq connection string of the PostgreSQL server started by scripts/test."""
    dsn = os.environ.get("IPY_ISTRING_PG_DSN", "")
    require(bool(dsn), "no PostgreSQL server: IPY_ISTRING_PG_DSN is not set")
    return dsn


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Path of Debian's Chromium, which Playwright drives through executable_path."""
    path = os.environ.get("IPY_ISTRING_CHROMIUM") or shutil.which("chromium") or ""
    require(bool(path) and os.path.exists(path), "no Chromium found (apt-get install chromium)")
    return path


# Flags that keep headless Chromium off the network (this machine has none to offer).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
