"""Sinks the check did not know, or knew only in one spelling.

- ibis's ``con.raw_sql(...)`` (its backends run the text as SQL): no finding at all;
- ``pty.spawn(["sh", "-c", f"..."])``: a shell's code in the words a program runs, as with
  ``subprocess.run`` without ``shell=True`` (a list of words with no shell in it, or one
  string, is the program's argv: no finding);
- a maker imported by name and called in the chain (``from fabric import Connection``, then
  ``Connection(host).run(f"...")``): only ``c = Connection(host)`` first, or
  ``fabric.Connection(host).run``, was read as fabric's.

The positive control runs ``pty.spawn`` for real: the value's ``;`` starts a second command
in the shell it spawns (a marker file in ``tmp_path``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ipy_istring.check import find_unsafe_calls

HEAD = "import sys\nx = sys.argv[1]\n"

FINDINGS = {
    "ibis raw_sql": "import ibis\ncon = ibis.duckdb.connect()\ncon.raw_sql(f'select * from {x}')",
    "pty.spawn of sh -c": "import pty\npty.spawn(['sh', '-c', f'ls {x}'])",
    "pty.spawn of bash -lc, by keyword": "import pty\npty.spawn(argv=['bash', '-lc', 'ls ' + x])",
    "fabric Connection called in the chain": "from fabric import Connection\n"
    "Connection('h').run(f'ls {x}')",
    "pony Database called in the chain": "from pony.orm import Database\n"
    "Database().select(f'select * from {x}')",
}


@pytest.mark.parametrize("case", list(FINDINGS))
def test_a_formatted_string_to_the_sink_is_a_finding(case: str) -> None:
    assert len(find_unsafe_calls(HEAD + FINDINGS[case])) == 1


NO_FINDINGS = {
    "ibis raw_sql of a constant": "import ibis\nibis.duckdb.connect().raw_sql('select 1')",
    "pty.spawn of words": "import pty\npty.spawn(['ls', x])",
    "pty.spawn of one string": "import pty\npty.spawn(f'ls {x}')",
    "pty.spawn of sh -c, constant": "import pty\npty.spawn(['sh', '-c', 'ls'])",
    "fabric, a constant command": "from fabric import Connection\nConnection('h').run('ls')",
}


@pytest.mark.parametrize("case", list(NO_FINDINGS))
def test_look_alikes_are_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + NO_FINDINGS[case]) == []


def test_pty_spawn_runs_a_value_s_shell_code(tmp_path: Path) -> None:
    """The control: ``pty.spawn(["sh", "-c", f"ls {x}"])`` runs what ``x`` adds after ``;``;
    as a word of its own (``["ls", x]``) it is only a name ``ls`` looks for."""
    marker = tmp_path / "SPAWNED"
    x = f"{tmp_path}; touch {marker}"
    script = "import pty, sys\npty.spawn(sys.argv[1:])\n"
    run = [sys.executable, "-c", script]
    quiet = {"capture_output": True, "stdin": subprocess.DEVNULL, "timeout": 30}
    subprocess.run([*run, "ls", x], cwd=tmp_path, check=False, **quiet)  # type: ignore[call-overload]
    assert not marker.exists()
    subprocess.run([*run, "sh", "-c", f"ls {x}"], cwd=tmp_path, check=False, **quiet)  # type: ignore[call-overload]
    assert marker.exists()
