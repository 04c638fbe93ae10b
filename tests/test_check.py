"""The static check for formatted strings flowing into shells and SQL."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import run

from ipy_istring.check import UnsafeFormatWarning, find_unsafe_calls, main

UNSAFE = {
    "os.system(f'cat {file}')": ("os.system", "shell", "an f-string"),
    "os.popen('ls %s' % d)": ("os.popen", "shell", "%-formatting"),
    "subprocess.run(f'rm {x}', shell=True)": ("subprocess.run", "shell", "an f-string"),
    "subprocess.check_output('grep ' + pat, shell=True)": (
        "subprocess.check_output",
        "shell",
        "concatenation",
    ),
    "cur.execute(f'select {col} from t')": ("cur.execute", "sql", "an f-string"),
    "con.execute('select * from t where a = {}'.format(a))": (
        "con.execute",
        "sql",
        "str.format()",
    ),
    "db.cursor().executemany(f'insert into {t} values (?)', rows)": (
        "db.cursor().executemany",
        "sql",
        "an f-string",
    ),
    "pd.read_sql(f'select * from {table}', con)": ("pd.read_sql", "sql", "an f-string"),
    "duckdb.sql(f'select {c} from t')": ("duckdb.sql", "sql", "an f-string"),
}

SAFE = [
    "os.system('ls -l')",
    "os.system(sh(i'cat {file}'))",
    "subprocess.run(argv(i'rm {x}'))",
    "subprocess.run(['rm', x])",
    "subprocess.run(f'rm {x}')",  # no shell: one program name, not a command line
    "cur.execute('select * from t where id = ?', (x,))",
    "cur.execute(*sql(i'select * from t where id = {x}'))",
    "cur.execute('select ' + 'a')",
    "print(f'{x}')",
    "log.info(f'ran {cmd}')",
    "system = f'{x}'",
]


@pytest.mark.parametrize("code", list(UNSAFE))
def test_finds_formatted_strings_in_sinks(code: str) -> None:
    (finding,) = find_unsafe_calls(code)
    assert (finding.call, finding.destination, finding.how) == UNSAFE[code]
    assert finding.line == 1
    message = finding.message()
    assert "injection" in message
    assert ("sh(i'...')" if finding.destination == "shell" else "*sql(i'...')") in message


@pytest.mark.parametrize("code", SAFE)
def test_leaves_safe_calls_alone(code: str) -> None:
    assert find_unsafe_calls(code) == []


def test_follows_a_name_assigned_a_formatted_string() -> None:
    code = "cmd = f'cat {file}'\nx = 1\nos.system(cmd)\n"
    (finding,) = find_unsafe_calls(code)
    assert (finding.line, finding.column, finding.how) == (3, 11, "an f-string")


def test_a_rebound_name_is_forgotten() -> None:
    assert find_unsafe_calls("cmd = f'cat {f}'\ncmd = 'ls'\nos.system(cmd)\n") == []


def test_functions_are_their_own_scope() -> None:
    code = (
        "q = f'select {c} from t'\n"
        "def f(q):\n"
        "    return cur.execute(q)\n"
        "def g():\n"
        "    q = 'select {} from t'.format(c)\n"
        "    cur.execute(q)\n"
    )
    (finding,) = find_unsafe_calls(code)
    assert finding.line == 6


def test_cells_warn_as_they_run(ishell: Any) -> None:
    run(ishell, "import os\nclass Cur:\n    def execute(self, q): return q\ncur = Cur()")
    with pytest.warns(UnsafeFormatWarning, match=r"cur\.execute\(\) gets a string built by"):
        # (a value the check cannot know: `col = 'a'` would be a constant, and safe)
        run(ishell, "col = os.environ.get('COL', 'a')\ncur.execute(f'select {col} from t')")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        run(ishell, "cur.execute('select 1')")  # no warning: nothing formatted


def test_cell_check_can_be_turned_off(ishell: Any) -> None:
    run(ishell, "%config IStringExtension.check_cells = False")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        run(ishell, "class C:\n    def execute(self, q): pass\nC().execute(f'{1}')")
    run(ishell, "%config IStringExtension.check_cells = True")
    with pytest.warns(UnsafeFormatWarning):
        run(ishell, "C().execute(f'{1}')")


def test_command_line_checks_files_and_notebooks(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("import os\nos.system(f'rm {path}')\nos.system(sh(i'rm {path}'))\n")
    notebook = tmp_path / "nb.ipynb"
    cells = [
        {"cell_type": "markdown", "source": "os.system(f'{x}')", "metadata": {}},
        {"cell_type": "code", "source": ["%load_ext ipy_istring\n", "!ls\n"], "metadata": {}},
        {"cell_type": "code", "source": "%%bash\necho {x}", "metadata": {}},
        {"cell_type": "code", "source": ["q = f'select {c}'\n", "db.execute(q)\n"]},
    ]
    notebook.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}))
    result = subprocess.run(
        [sys.executable, "-m", "ipy_istring.check", str(script), str(notebook)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{script}:2:11: os.system() gets a string built by an f-string")
    assert lines[1].startswith(f"{notebook}[cell 4]:2:12: db.execute()")


def test_command_line_clean_and_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "ok.py"
    clean.write_text("os.system('ls')\n")
    assert main([str(clean)]) == 0
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text("cur.execute('select %s' % x)\n")
    assert main([str(tmp_path)]) == 1
    assert "pkg/bad.py:1:13: cur.execute() gets a string built by %-formatting" in (
        capsys.readouterr().out
    )
