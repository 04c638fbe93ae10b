"""pytest plugin loaded by scripts/test: tests marked ``e2e`` run on one Python only.

The end-to-end tests (a real JupyterLab driven in Chromium) are slow and test the same
thing on every Python, so scripts/test runs them on one version and sets
``IPY_ISTRING_E2E=0`` for the others.  Deselecting here, rather than with ``-m "not e2e"``,
leaves ``-m`` free for the user's own selection (``scripts/test -m sql``).
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("IPY_ISTRING_E2E", "1") != "0":
        return
    keep = [item for item in items if item.get_closest_marker("e2e") is None]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i.get_closest_marker("e2e")])
        items[:] = keep
