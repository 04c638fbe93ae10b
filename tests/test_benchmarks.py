"""Smoke run of the benchmarks: each script runs with ``--quick`` (tiny counts) and prints
its tables.  Not a measurement: speed is read from the full runs, never asserted here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = sorted((Path(__file__).parent.parent / "benchmarks").glob("bench_*.py"))


@pytest.mark.parametrize("script", BENCHMARKS, ids=[s.stem for s in BENCHMARKS])
def test_benchmark_runs_quickly_and_prints_its_tables(script: Path) -> None:
    if "--quick" not in script.read_text(encoding="utf-8"):
        pytest.skip(f"{script.name} does not take --quick yet (a full run is too long here)")
    done = subprocess.run(
        [sys.executable, str(script), "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=script.parent,
        env={**os.environ, "PYTHONPATH": str(script.parent)},
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    version = ".".join(map(str, sys.version_info[:2]))
    assert f"(Python {version}" in out, out  # every table names the Python it measured
    assert "--quick: not a measurement" in out
    assert re.search(r"\n  -+  -+", out), out  # a table, with its rule under the header
