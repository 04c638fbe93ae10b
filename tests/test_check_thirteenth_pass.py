"""The check's thirteenth pass: scripts written by ``print(..., file=f)`` in IPython,
quoted identifiers passed through a name, and values validated by a helper.

1. In IPython, a cell whose only write to a file is ``print(..., file=f)`` (``f`` open for
   writing: ``with open("job.sh", "w") as f``, ``f = open(...)``) was only put aside, so a
   later cell's ``subprocess.run(["bash", "job.sh"])`` found nothing: the cell check's call
   finder looked for ``.write(`` but not ``print(``.  Now a cell that passes a ``file=``
   keyword has its ``print(`` calls read too (only such a cell: a cell of plain ``print``
   calls stays put aside), and the finding is warned at the ``print`` of the earlier cell, as
   for ``f.write``.  ``print(..., file=sys.stderr)`` stays no finding.
2. A name bound to an identifier a database library quoted (``t =
   engine.dialect.identifier_preparer.quote(x)``, ``t = sql.Identifier(x).as_string(conn)``)
   and then formatted where a name stands (``f"select * from {t}"``) was a finding (a false
   alarm): only the quoting call written in the field was read.  It is accepted when the name
   holds nothing else: it was bound to nothing before, and every binding of it in the tree
   being read is such a call (so ``if c: t = x`` / ``else: t = quote(x)``, a raw value bound
   first, a parameter or loop variable of that name stay findings), and where the SQL lexers
   read it as a token of its own, as for the quoting call itself.  Inside a string literal,
   into a shell, it stays a finding.  (In IPython, a name quoted in a cell that was only put
   aside and read from a later cell stays a finding: the tree that binds it is not at hand.)
3. Validations across a call: a helper of the code's that raises (or exits) unless its
   parameter is one of a container of constants or matches a plain pattern, and returns it
   (``t = checked(sys.argv[1])``, ``f"... {checked(x)}"``), or is called first as a
   statement (``ensure(t)`` then ``f"... {t}"``), was a finding (a false alarm).  What a
   function returned was merged with the ``None`` it starts from, so even a helper that
   returns only constants (``return {"day": "agg_day"}[kind]``, ``return "id desc"``) was an
   unknown value.  Now the first value returned is taken as it is, and a call statement of a
   helper whose leading ``if`` statements raise unless a parameter is allow-listed leaves
   the argument passed there holding such a value.  Still findings: a helper that returns
   another parameter, a guard that returns ``False`` or only prints, a check of another
   argument, a check after an ``if`` that may return first, an ``assert`` (``python -O``
   drops it), a helper that returns the raw value on one path.  Inside ``if name in
   ALLOWED:`` (a container of constants) the name holds one of them too (``if name in
   TABLES: return name``), but not after it, nor for ``in`` of a string (any part of it).

The positive controls run for real: bash runs ``touch pwned`` from the script ``print``
wrote, and sqlite3 (through SQLAlchemy) selects the marker through the naive quoting where the
name bound to SQLAlchemy's quoting reads as one table name, and sqlite3 runs the hostile
name's own select after a guard that only returns ``False``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import test_check_twelfth_pass as twelfth
from conftest import run

from ipy_istring.check import find_unsafe_calls

_warnings = twelfth._warnings
in_tmp = twelfth.in_tmp  # (the fixture: run in a temporary folder)


# 1. print(..., file=f) in one cell, the script run in a later one ------------------------

# name -> (the cell that writes, the line of the write in it, the cell that runs the script),
# read by the twelfth pass's tests of `f.write` (its SETUP binds `src` from CHECKX_SRC)
PRINTED_THEN_RUN = {
    "with open, print(file=f), then bash": (
        'with open("job.sh", "w") as f:\n    print("#!/bin/sh", file=f)\n'
        '    print(f"echo {src}", file=f)',
        3,
        'subprocess.run(["bash", "job.sh"])',
    ),
    "f = open, print(file=f), then os.system": (
        'f = open("job.sh", "w")\nprint(f"echo {src}", file = f)\nf.close()',
        2,
        'os.system("sh job.sh")',
    ),
}


@pytest.mark.parametrize("case", list(PRINTED_THEN_RUN))
def test_a_script_printed_to_a_file_and_run_in_a_later_cell_warns_at_the_print(
    ishell: Any, in_tmp: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    monkeypatch.setitem(twelfth.WRITTEN_THEN_RUN, case, PRINTED_THEN_RUN[case])
    twelfth.test_a_script_written_in_a_cell_and_run_in_a_later_one_warns_at_the_write(
        ishell, in_tmp, case
    )


@pytest.mark.parametrize("case", list(PRINTED_THEN_RUN))
def test_the_same_printed_script_in_a_notebook_is_a_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    monkeypatch.setitem(twelfth.WRITTEN_THEN_RUN, case, PRINTED_THEN_RUN[case])
    twelfth.test_the_same_cells_in_a_notebook_are_a_finding_at_the_write(tmp_path, capsys, case)


def test_prints_to_stderr_or_a_constant_script_are_no_finding(ishell: Any, in_tmp: Path) -> None:
    run(ishell, twelfth.SETUP + "\nimport sys")
    assert _warnings(ishell, 'print(f"copying {src}", file=sys.stderr)') == []
    assert _warnings(ishell, 'with open("job.sh", "w") as f:\n    print("true", file=f)') == []
    assert _warnings(ishell, 'subprocess.run(["bash", "job.sh", src])') == []


def test_bash_runs_what_the_printed_script_holds(
    ishell: Any, in_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The positive control: ``a; touch pwned;`` printed into the script by one cell runs
    ``touch`` when a later cell runs it (the check warned at the print): the twelfth pass's
    control, with the print for the write."""
    printed = PRINTED_THEN_RUN["with open, print(file=f), then bash"]
    monkeypatch.setitem(twelfth.WRITTEN_THEN_RUN, "open().write, then bash", printed)
    twelfth.test_bash_runs_what_the_earlier_cell_wrote(ishell, in_tmp)


# 2. Quoted identifiers passed through a name ---------------------------------------------

HOSTILE_NAME = "t\" where 0 union select 'pwned' --"
HEAD = """
import sys
import sqlalchemy as sa

engine = sa.create_engine("sqlite://")
x = sys.argv[1]
"""
QUOTE = "engine.dialect.identifier_preparer.quote(x)"
RUN = '\nwith engine.connect() as conn:\n    conn.exec_driver_sql(f"select a from {t}")\n'
QUOTED_NAMES = {
    "a module's name": HEAD + f"t = {QUOTE}" + RUN,
    "quote_identifier, in a function": HEAD
    + "def rows(conn, x):\n"
    + "    t = conn.dialect.identifier_preparer.quote_identifier(x)\n"
    + '    return conn.exec_driver_sql(f"select a from main.{t} limit 10").fetchall()\n',
    "in a loop": HEAD
    + "import sqlite3\ncon = sqlite3.connect('a.db')\nfor name in x.split(','):\n"
    + "    t = engine.dialect.identifier_preparer.quote(name)\n"
    + '    con.execute(f"delete from {t}")\n',
    "psycopg sql.Identifier().as_string": """
import sys
import psycopg
from psycopg import sql

with psycopg.connect(sys.argv[2]) as conn:
    t = sql.Identifier(sys.argv[1]).as_string(conn)
    conn.execute(f"select a from {t} where a = %s", ["x"])
""",
}


@pytest.mark.parametrize("case", list(QUOTED_NAMES))
def test_a_name_bound_to_a_quoted_identifier_where_a_name_stands_is_no_finding(
    case: str,
) -> None:
    assert find_unsafe_calls(QUOTED_NAMES[case]) == []


QUOTED_NAME_LOOK_ALIKES = {
    "raw in one branch": HEAD + f"if len(x) > 3:\n    t = x\nelse:\n    t = {QUOTE}" + RUN,
    "raw in the other branch": HEAD + f"if len(x) > 3:\n    t = {QUOTE}\nelse:\n    t = x" + RUN,
    "raw before, quoted only sometimes": HEAD + f"t = x\nif len(x) > 3:\n    t = {QUOTE}" + RUN,
    "rebound raw after": HEAD + f"t = {QUOTE}\nt = x" + RUN,
    "rebound by a loop": HEAD + f"t = {QUOTE}\nfor t in sys.argv:\n    pass" + RUN,
    "a parameter of that name": HEAD
    + f"def rows(conn, t):\n    if not t:\n        t = {QUOTE}\n"
    + '    conn.exec_driver_sql(f"select a from {t}")\n',
    "inside a string literal": HEAD
    + f"t = {QUOTE}"
    + "\nwith engine.connect() as conn:\n"
    + "    conn.exec_driver_sql(f\"select a from s where a = '{t}'\")\n",
    "a user's own quote()": HEAD
    + "def quote(v):\n    return '\"' + v + '\"'\nt = quote(x)"
    + RUN,
    "into a shell": HEAD + f"import os\nt = {QUOTE}\nos.system(f'ls {{t}}')\n",
}


@pytest.mark.parametrize("case", list(QUOTED_NAME_LOOK_ALIKES))
def test_quoted_name_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(QUOTED_NAME_LOOK_ALIKES[case])) == 1


def test_a_quoted_name_in_a_cell_that_queries_is_no_warning(ishell: Any) -> None:
    run(
        ishell,
        "import os\nimport sqlalchemy as sa\nengine = sa.create_engine('sqlite://')\n"
        "x = os.environ.get('CHK13_TABLE', 't')\nwith engine.connect() as conn:\n"
        "    conn.exec_driver_sql('create table t (a text)')",
    )
    assert _warnings(ishell, f"t = {QUOTE}" + RUN) == []
    assert len(_warnings(ishell, "t = x" + RUN)) == 1


def test_sqlite_reads_the_name_bound_to_the_quoting_as_one_name() -> None:
    """The positive control: the naive quoting bound to ``t`` selects the marker; the name
    bound to SQLAlchemy's quoting is one table name."""
    import sqlalchemy as sa

    engine = sa.create_engine("sqlite://")
    with engine.connect() as conn:
        conn.exec_driver_sql("create table t (a text)")
        conn.exec_driver_sql("insert into t values ('row')")
        t = '"' + HOSTILE_NAME + '"'
        assert conn.exec_driver_sql(f"select a from {t}").fetchall() == [("pwned",)]
        t = engine.dialect.identifier_preparer.quote(HOSTILE_NAME)
        with pytest.raises(sa.exc.OperationalError, match="no such table"):
            conn.exec_driver_sql(f"select a from {t}")


# 3. Validations across a call -------------------------------------------------------------

CHECK_HEAD = """
import re
import sqlite3
import subprocess
import sys

ALLOWED = {"orders", "refunds"}
con = sqlite3.connect("shop.db")
"""
RAISES = "    if name not in ALLOWED:\n        raise ValueError(name)\n"
VALIDATED_ACROSS_CALLS = {
    "a helper that raises, then returns the value": CHECK_HEAD
    + "def checked(name):\n" + RAISES + "    return name\n"
    + "t = checked(sys.argv[1])\ncon.execute(f'select * from {t}')\n",
    "... called in the f-string": CHECK_HEAD
    + "def checked(name):\n" + RAISES + "    return name\n"
    + "con.execute(f'select * from {checked(sys.argv[1])}')\n",
    "a helper with a pattern that exits, then returns": CHECK_HEAD
    + "def ident(name):\n    if not re.fullmatch(r'[a-z_]+', name):\n        sys.exit('bad')\n"
    + "    return name\nsubprocess.run(f'ls {ident(sys.argv[1])}', shell=True)\n",
    "a helper that returns an item of a constant dict": CHECK_HEAD
    + "def table_for(kind):\n    return {'day': 'agg_day', 'week': 'agg_week'}[kind]\n"
    + "con.execute(f'select * from {table_for(sys.argv[1])}')\n",
    "a helper that returns constants only": CHECK_HEAD
    + "def order(sort):\n    if sort == 'new':\n        return 'id desc'\n    return 'id'\n"
    + "con.execute(f'select * from orders order by {order(sys.argv[1])}')\n",
    "a helper that returns the value inside `if name in ALLOWED`": CHECK_HEAD
    + "def checked(name):\n    if name in ALLOWED:\n        return name\n"
    + "    raise KeyError(name)\ncon.execute(f'select * from {checked(sys.argv[1])}')\n",
    "a raising helper called first, in a function": CHECK_HEAD
    + "def ensure(name):\n    '''Refuse an unknown table.'''\n" + RAISES
    + "def export(t):\n    ensure(t)\n    return con.execute(f'select * from {t}').fetchall()\n",
    "... with a pattern, by keyword": CHECK_HEAD
    + "def ensure(name):\n    if not re.fullmatch(r'[a-z_]+', name):\n"
    + "        raise ValueError(name)\n"
    + "def listing(t):\n    ensure(name=t)\n    subprocess.run(f'ls {t}', shell=True)\n",
}


@pytest.mark.parametrize("case", list(VALIDATED_ACROSS_CALLS))
def test_a_value_validated_by_a_helper_is_no_finding(case: str) -> None:
    assert find_unsafe_calls(VALIDATED_ACROSS_CALLS[case]) == []


VALIDATION_LOOK_ALIKES = {
    # the check raises, but the helper returns the other parameter
    "returns another parameter": CHECK_HEAD
    + "def checked(name, raw):\n" + RAISES + "    return raw\n"
    + "con.execute(f'select * from {checked(\"orders\", sys.argv[1])}')\n",
    # a helper that returns False instead of raising: the caller goes on
    "a guard that returns": CHECK_HEAD
    + "def ensure(name):\n    if name not in ALLOWED:\n        return False\n    return True\n"
    + "def export(t):\n    ensure(t)\n    con.execute(f'select * from {t}')\n",
    # ... or only prints
    "a guard that only prints": CHECK_HEAD
    + "def ensure(name):\n    if name not in ALLOWED:\n        print('unknown', name)\n"
    + "def export(t):\n    ensure(t)\n    con.execute(f'select * from {t}')\n",
    # the checked parameter is not the value passed on
    "another argument checked": CHECK_HEAD
    + "def ensure(schema, name):\n" + RAISES
    + "def export(t, u):\n    ensure(t, u)\n    con.execute(f'select * from {t}')\n",
    # the check does not come first: what runs before may return early or rebind
    "a check after other code": CHECK_HEAD
    + "def ensure(name):\n    if not name:\n        return\n" + RAISES
    + "def export(t):\n    ensure(t)\n    con.execute(f'select * from {t}')\n",
    # an assert is removed by python -O
    "an assert": CHECK_HEAD
    + "def checked(name):\n    assert name in ALLOWED\n    return name\n"
    + "con.execute(f'select * from {checked(sys.argv[1])}')\n",
    # `in` of a string: any part of it (`"s r"` is in "orders refunds")
    "`in` a string": CHECK_HEAD
    + "def checked(name):\n    if name in 'orders refunds':\n        return name\n"
    + "    raise KeyError(name)\ncon.execute(f'select * from {checked(sys.argv[1])}')\n",
    # the value returned outside the `if`
    "returned after the `if`": CHECK_HEAD
    + "def checked(name):\n    if name in ALLOWED:\n        print('known')\n    return name\n"
    + "con.execute(f'select * from {checked(sys.argv[1])}')\n",
    # a helper that returns a constant or the raw value
    "a constant or the value": CHECK_HEAD
    + "def order(sort):\n    if sort == 'new':\n        return 'id desc'\n    return sort\n"
    + "con.execute(f'select * from orders order by {order(sys.argv[1])}')\n",
}


@pytest.mark.parametrize("case", list(VALIDATION_LOOK_ALIKES))
def test_validation_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(VALIDATION_LOOK_ALIKES[case])) == 1


def test_sqlite_runs_the_value_the_look_alike_guard_let_through(tmp_path: Path) -> None:
    """The positive control: a guard that returns instead of raising lets the hostile name
    run its own select in sqlite3; the helper that raises refuses it before the query."""
    import sqlite3

    con = sqlite3.connect(tmp_path / "shop.db")
    con.execute("create table orders (a text)")
    hostile = "orders union select 'pwned'"
    allowed = {"orders", "refunds"}

    def guard(name: str) -> bool:
        return name in allowed

    guard(hostile)
    assert ("pwned",) in con.execute(f"select a from {hostile}").fetchall()

    def ensure(name: str) -> None:
        if name not in allowed:
            raise ValueError(name)

    with pytest.raises(ValueError):
        ensure(hostile)
