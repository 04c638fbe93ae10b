"""The check's fifteenth pass: parameters annotated as numbers, papermill parameters cells
with a longer heading, ``$name`` in ``%sql``, and hyphen allow-lists in SQL.

1. A parameter annotated ``int``, ``float``, ``bool`` or a date formatted into a command
   (``def free_port(port: int): os.system(f"lsof -ti tcp:{port}")``) was an unknown value (a
   false alarm: held-out 5's h5_safe_os_system_shlex_quote, held-out 9's
   kill_port_int_cast_system and, a date, partition_date_strptime_fstring).  The annotation
   alone proves nothing (Python does not check it); now such a parameter of a top-level
   function is a number when every use of the function's name in the tree is a call of it,
   there is at least one, and each gives the parameter a number (a number,
   ``int()``/``float()``/``len()``..., arithmetic of them, a name bound only to such, a ``for``
   over ``range()``; for a date, ``strptime``, ``today()``...) or leaves it at a number
   default.  Still findings: no call here, argv's or the environment's text given, a keyword
   given a request's text, a name bound to text in one branch, the function handed to
   ``map()``, a loop over argv, ``*args``, ``"%s" % x``, a method, a ``None`` default, a
   ``str`` annotation, ``range`` bound anew.
2. A papermill parameters cell headed ``# Parameters (papermill injects overrides after this
   cell)`` was read as constants (a miss: held-out 9's nb_papermill_git_clone_dollar): only
   ``# Parameters`` alone was a heading.  Now a heading may go on after a colon, a dash or a
   bracket, or say ``# Papermill parameters``; one that goes on in words (``# parameters for
   the plot``) is still no parameters cell.
3. Held-out 8's h8_nb_ipython_sql_dollar_env (``%sql ... WHERE region = '$region'``) is
   labelled vulnerable, and the check finds nothing: it holds.  IPython (since 6.1) leaves a
   ``$name`` inside single quotes as written, and ipython-sql only gets the line IPython
   expanded (jupysql expands nothing).  Tested with IPython's own ``var_expand``; the same
   in double quotes is a finding.
4. Hyphen allow-lists (``re.fullmatch(r"[A-Za-z0-9_.-]+", slug)``) stay refused: in SQL,
   where a value stands, ``1--`` makes the rest of the line a comment (sqlite3 returns
   another owner's rows), and a shell reads a leading ``-`` as an option.  Only the middle
   of a shell word is safe, which the check's values (one verdict for every destination)
   cannot say.
5. Twenty cases of :mod:`check_corpus.pass15` (ten vulnerable, ten safe look-alikes, five
   notebooks): before this pass 8 of 10 found with 6 false alarms, now 10 of 10 with none.

The positive controls run for real: dash and bash run the marker through the command a
look-alike builds from text given to an ``int`` parameter; IPython runs the marker through
``!true $branch``; sqlite3 returns a row the query's predicate excludes through ``1--``.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from check_corpus import score
from check_corpus.pass15 import PASS15
from conftest import run
from test_check_twelfth_pass import _warnings
from test_shell_contexts import SHELLS

from ipy_istring.check import find_unsafe_calls
from ipy_istring.check.notebook import is_parameters_cell
from ipy_istring.check.scan import check_file, check_notebook_text

# 1. Parameters annotated as numbers --------------------------------------------------------

FREE_PORT = "import os, sys\ndef free_port(port: int):\n    os.system(f'fuser -k {port}/tcp')\n"
NUMBERS = {
    "left at its number default": "import os\ndef f(a, n: int = 3):\n    os.system(f'ls {n}')\n"
    "f('b')\n",
    "int() of argv": FREE_PORT + "free_port(int(sys.argv[1]))\n",
    "a name bound to int()": FREE_PORT + "p = int(sys.argv[1])\nfree_port(p)\n",
    "a local of main() bound to int()": FREE_PORT
    + "def main():\n    p = int(sys.argv[1])\n    free_port(p)\nmain()\n",
    "a for over range()": FREE_PORT + "for p in range(8000, 8010):\n    free_port(p)\n",
    "arithmetic of numbers": FREE_PORT + "base = 8000\nfree_port(base + len(sys.argv))\n",
    "a float literal": "import duckdb\ndef sample(con, pct: float = 10.0):\n"
    "    return con.sql(f'select * from t using sample {pct}%')\n"
    "sample(duckdb.connect(), 2.5)\n",
    "a date made by strptime": "import datetime, sys\nimport psycopg2\n"
    "def drop(day: datetime.date):\n"
    "    psycopg2.connect('').cursor().execute(f\"delete from log where day = '{day}'\")\n"
    "drop(datetime.datetime.strptime(sys.argv[1], '%Y-%m-%d').date())\n",
    "today()": "import os\nfrom datetime import date\ndef backup(day: date):\n"
    "    os.system(f'pg_dump -f /backups/{day}.sql db')\nbackup(date.today())\n",
    "an int in SQL": "import sqlite3\ndef recent(con, n: int = 10):\n"
    "    return con.execute(f'select * from t limit {n}').fetchall()\n"
    "recent(sqlite3.connect(':memory:'), n=5)\n",
}
NUMBER_LOOK_ALIKES = {
    "no call here": FREE_PORT,
    "argv's text": FREE_PORT + "free_port(sys.argv[1])\n",
    "one call of two given text": FREE_PORT + "free_port(8000)\nfree_port(port=input())\n",
    "handed to map()": FREE_PORT + "free_port(8000)\nlist(map(free_port, sys.argv))\n",
    "a name bound to text in a branch": FREE_PORT
    + "p = int(sys.argv[1])\nif len(sys.argv) > 2:\n    p = sys.argv[2]\nfree_port(p)\n",
    "a parameter of the caller": FREE_PORT
    + "def main(p):\n    free_port(p)\nmain(sys.argv[1])\n",
    "*args": FREE_PORT + "free_port(*sys.argv[1:])\n",
    "a loop over argv": FREE_PORT + "for p in sys.argv:\n    free_port(p)\n",
    "%-formatting": FREE_PORT + "free_port('%s' % sys.argv[1])\n",
    "a str annotation": "import os\ndef f(x: str = 'a'):\n    os.system(f'ls {x}')\nf()\n",
    "a None default": "import os\ndef f(x: int = None):\n    os.system(f'ls {x}')\nf()\n",
    "a method": "import os\nclass C:\n    def f(self, x: int):\n        os.system(f'ls {x}')\n"
    "C().f(3)\n",
    "a date annotation given argv's text": "import os, sys\nfrom datetime import date\n"
    "def backup(day: date):\n    os.system(f'pg_dump -f /backups/{day}.sql db')\n"
    "backup(sys.argv[1])\n",
    "range rebound": FREE_PORT + "range = lambda *a: sys.argv\n"
    "for p in range(3):\n    free_port(p)\n",
}


@pytest.mark.parametrize(
    ("case", "findings"), [*((c, 0) for c in NUMBERS), *((c, 1) for c in NUMBER_LOOK_ALIKES)]
)
def test_a_parameter_is_a_number_when_every_call_gives_one(case: str, findings: int) -> None:
    """No finding when every call gives a number; each look-alike stays one finding."""
    code = NUMBERS[case] if findings == 0 else NUMBER_LOOK_ALIKES[case]
    assert len(find_unsafe_calls(code)) == findings


@pytest.mark.parametrize("shell", SHELLS)
def test_the_shell_runs_text_given_to_an_int_parameter(shell: str, tmp_path: Path) -> None:
    """The control: the annotation is not checked, so argv's text reaches the shell as
    code; the int() of the same text raises before any command is built."""
    hostile = "1; touch SENTINEL #"

    def free_port(port: int) -> str:
        return f"echo fuser -k {port}/tcp"

    subprocess.run([shell, "-c", free_port(hostile)], cwd=tmp_path, check=False)  # type: ignore[arg-type]
    assert (tmp_path / "SENTINEL").exists()
    with pytest.raises(ValueError):
        free_port(int(hostile))


# 2. papermill parameters headings ---------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "parameters"),
    [
        ("# Parameters\n", True),
        ("# Parameters (papermill injects overrides after this cell)\n", True),
        ("# parameters: overridden by the scheduler\n", True),
        ("# Parameters - set by papermill\n", True),
        ("# Papermill parameters\n", True),
        ("#parameters\n", True),
        ("# parameters for the plot\n", False),
        ("# parametersfoo\n", False),
        ("x = 1\n# Parameters\n", False),
    ],
)
def test_a_parameters_heading(heading: str, parameters: bool) -> None:
    assert is_parameters_cell(heading + "x = 1\n") is parameters


def _notebook(*cells: str) -> str:
    code = [{"cell_type": "code", "metadata": {}, "source": c} for c in cells]
    return json.dumps({"cells": code, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


@pytest.mark.parametrize(
    ("heading", "findings"),
    [("# Parameters (papermill injects overrides after this cell)\n", 1),
     ("# parameters for the plot\n", 0)],
)  # fmt: skip
def test_a_parameters_cell_with_a_longer_heading_in_a_notebook(heading: str, findings: int) -> None:
    text = _notebook(heading + "branch = 'main'\n", "!git clone --branch $branch repo\n")
    assert len(check_notebook_text(text).findings) == findings


def test_a_parameters_cell_with_a_longer_heading_in_ipython(ishell: Any) -> None:
    run(ishell, "# Parameters: overridden by papermill\nbranch = 'main'\n")
    assert len(_warnings(ishell, "!echo $branch")) == 1


def test_ipython_runs_a_dollar_name_in_a_shell_escape(ishell: Any, tmp_path: Path) -> None:
    """The control: what a run gives ``branch`` reaches the shell of ``!... $branch``."""
    sentinel = tmp_path / "SENTINEL"
    run(ishell, f"branch = 'main; touch {sentinel}'")
    run(ishell, "!true $branch")
    assert sentinel.exists()


# 3. $name in %sql: IPython leaves it inside single quotes ---------------------------------

SQL_CELLS = ("%load_ext sql\n%sql sqlite://\n", "import os\nregion = os.environ['REGION']\n")


@pytest.mark.parametrize(
    ("where", "findings"), [("'$region'", 0), ('"$region"', 1), ("'{region}'", 1)]
)
def test_a_dollar_name_in_sql_is_a_finding_where_ipython_expands_it(
    where: str, findings: int, ishell: Any
) -> None:
    line = f"%sql SELECT store FROM weekly WHERE region = {where}"
    assert len(check_notebook_text(_notebook(*SQL_CELLS, line + "\n")).findings) == findings
    ishell.user_ns["region"] = "x' OR 1=1 --"
    expanded = ishell.var_expand(line)
    assert ("OR 1=1" in expanded) is bool(findings)  # what IPython gives the magic


# 4. Hyphen allow-lists in SQL ---------------------------------------------------------------

HYPHEN_SQL = (
    "import re, sqlite3, sys\ncon = sqlite3.connect(':memory:')\nslug = sys.argv[1]\n"
    "if not re.fullmatch(r'[A-Za-z0-9_.-]+', slug):\n    raise SystemExit('bad slug')\n"
    "con.execute(f\"select id from drafts where id = {slug} and owner = 'me'\")\n"
)


def test_a_hyphen_allow_list_stays_a_finding_in_sql() -> None:
    assert len(find_unsafe_calls(HYPHEN_SQL)) == 1
    plain = HYPHEN_SQL.replace("[A-Za-z0-9_.-]+", "[A-Za-z0-9_]+")
    assert find_unsafe_calls(plain) == []  # (the allow-list without the hyphen)


def test_sqlite_reads_a_hyphen_value_as_a_comment() -> None:
    """The control: ``1--`` passes the allow-list and makes the owner's predicate a
    comment, so another owner's draft is returned."""
    con = sqlite3.connect(":memory:")
    con.execute("create table drafts (id int, owner text)")
    con.execute("insert into drafts values (1, 'mallory')")
    slug = "1--"
    assert __import__("re").fullmatch(r"[A-Za-z0-9_.-]+", slug)
    query = f"select id from drafts where id = {slug} and owner = 'me'"
    assert con.execute(query).fetchall() == [(1,)]
    assert con.execute("select id from drafts where id = 1 and owner = 'me'").fetchall() == []


# 5. The pass's corpus ------------------------------------------------------------------------


def test_the_pass_corpus_scores_whole(tmp_path: Path) -> None:
    for case in PASS15:
        case.write(tmp_path)
    flagged = {p.stem for p in tmp_path.iterdir() if check_file(p).findings}
    result = score(flagged, PASS15)
    assert (result.missed, result.false_alarms) == ((), ())
    assert (result.vulnerable, result.safe) == (10, 10)
