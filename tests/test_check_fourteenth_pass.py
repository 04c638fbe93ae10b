"""The check's fourteenth pass: IPython cells put aside that bind a quoted name or validate
a value, a quoted SQL f-string bound to a name, and a dataclass that validates a field.

1. In IPython, a cell that calls no sink is only put aside, and read when a later cell
   uses what it binds.  Two things were lost that way (false alarms):

   - a name bound to a quoted identifier there (``t = preparer.quote(x)``), formatted where
     a name stands in a later cell's query, stayed a finding: the rule of the thirteenth pass
     asks that every binding of the name in "the tree being read" be such a call, and the
     tree was the later cell's, which does not bind it.  Now the statements put aside that
     bind the name are that tree while they are read (a raw value bound there, or an ``if``
     that binds it, still refuses it);
   - a call statement of a validating helper (``ensure(t)``, whose leading ``if`` raises
     unless its parameter is allow-listed), in the cell that queries (a lazily read cell
     reads only its statements that call a sink, and puts the others aside), was dropped, so
     ``t`` read as it was bound before.  Now such a statement is put aside there as a change
     of the one name it is given, read with it.  Still findings: a guard that returns
     ``False``, a validation of another name, a value bound again after the validation, the
     helper defined again without its check.  Such a statement in an earlier cell that
     calls no sink was dropped too (a later cell's query warned): it is now put aside the
     same way, at about 600 instructions more per cell put aside (75.1k -> 75.7k under
     callgrind, 0.79% of IPython's preparing), made before the first cell that calls a
     sink or after it.
2. A quoted SQL f-string bound to a name (``q = f"select * from {preparer.quote(t)}"``,
   then ``con.execute(q)``) was a finding (a false alarm): only an f-string written in the
   call was read by the thirteenth pass's lexer rule.  Now a name bound to such an f-string
   is accepted by the rule of quoted names: bound to nothing before, every binding of it in
   the tree such an f-string, the query read by a SQL sink.  Still findings: a raw field
   beside the quoted one, a quoted field inside ``'...'``, a raw binding in a branch, ``q
   +=`` a raw value, the name rebound after, the query formatted into another f-string, and
   the same into a shell.
3. A dataclass whose ``__post_init__`` starts by raising unless ``self.table`` is one of a
   container of constants: ``cfg.table`` (``cfg`` a parameter annotated with the class, a
   name bound to what the class made, or ``self`` in its methods) was an unknown value (a
   false alarm).  Now such a field holds one of those constants, when nothing in the tree
   assigns the attribute, calls ``setattr`` or subclasses the class.  Still findings: a
   ``__post_init__`` that only prints, a class that is not a dataclass (nothing calls its
   ``__post_init__``), the field assigned after, a subclass, another field.
4. What holds already (tested, no change): an ``int()`` of a value a helper returned, and a
   date parsed by ``datetime.strptime`` formatted with ``:%Y-%m-%d``; their look-alikes (the
   helper's value itself, the text before it is parsed) are findings.

The positive controls run for real: sqlite3 (through SQLAlchemy) selects the marker through
a query built with the naive quoting and bound to ``q``, where the query built with
SQLAlchemy's quoting reads one table name; and sqlite3 selects the marker through the
field of a dataclass whose ``__post_init__`` only prints, where the validating one raises.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import test_check_thirteenth_pass as thirteenth
import test_check_twelfth_pass as twelfth
from conftest import run

from ipy_istring.check import find_unsafe_calls

_warnings = twelfth._warnings

HOSTILE_NAME = thirteenth.HOSTILE_NAME

# 1. Cells put aside: a quoted name, a validation ----------------------------------------

IPYTHON_SETUP = (
    "import os, sqlite3\nimport sqlalchemy as sa\nengine = sa.create_engine('sqlite://')\n"
    "x = os.environ.get('CHK14_TABLE', 't')\nTABLES = {'t', 'u'}\n"
    "con = sqlite3.connect(':memory:')\ncon.execute('create table t (a text)')\n"
    "with engine.connect() as conn:\n    conn.exec_driver_sql('create table t (a text)')\n"
    "    conn.exec_driver_sql('create table tt (a text)')"  # (`t += x` reads it)
)
QUERY = "with engine.connect() as conn:\n    conn.exec_driver_sql(f'select a from {t}')"
ENSURE = "def ensure(name):\n    if name not in TABLES:\n        raise ValueError(name)"


def test_a_name_quoted_in_a_cell_put_aside_is_no_warning_later(ishell: Any) -> None:
    run(ishell, IPYTHON_SETUP)
    assert _warnings(ishell, "t = engine.dialect.identifier_preparer.quote(x)") == []
    assert _warnings(ishell, QUERY) == []


@pytest.mark.parametrize(
    "binding",
    [
        "t = x",  # raw
        "if len(x) > 3:\n    t = engine.dialect.identifier_preparer.quote(x)\nelse:\n    t = x",
        "t = engine.dialect.identifier_preparer.quote(x)\nt += x",
    ],
)
def test_a_raw_name_put_aside_still_warns_later(ishell: Any, binding: str) -> None:
    run(ishell, IPYTHON_SETUP)
    assert _warnings(ishell, binding) == []
    assert len(_warnings(ishell, QUERY)) == 1


@pytest.mark.parametrize(
    "cells",
    [
        # the helper and the value in earlier cells, validated in the cell that queries
        [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')", "ensure(y)\n{query}"],
        # ... the value bound in that cell too
        [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)\n{query}"],
        # ... the value validated twice, bound to a constant between
        [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)\ny = 't'\nensure(y)\n{query}"],
        # validated in an earlier cell that calls no sink
        [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')", "ensure(y)", "{query}"],
        [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)", "print(y)", "{query}"],
    ],
)
def test_a_validation_in_a_lazily_read_cell_is_no_warning(ishell: Any, cells: list[str]) -> None:
    run(ishell, IPYTHON_SETUP)
    query = "con.execute(f'select a from {y}')"
    for cell in cells:
        assert _warnings(ishell, cell.format(query=query)) == []
    assert _warnings(ishell, query) == []  # (and in a later cell)


VALIDATION_LOOK_ALIKES = {
    "a guard that returns False": [
        "def ensure(name):\n    if name not in TABLES:\n        return False\n    return True",
        "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)",
    ],
    "another name validated": [ENSURE, "y = os.environ.get('CHK14_TABLE', 't')\nensure(x)"],
    "bound again after": [
        ENSURE,
        "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)\ny = os.environ.get('CHK14_B', 't')",
    ],
    "the helper defined again, not validating": [
        ENSURE,
        "y = os.environ.get('CHK14_TABLE', 't')",
        "def ensure(name):\n    print(name)",
        "ensure(y)",
    ],
    # (validated in an earlier cell that calls no sink, then:)
    "bound again in a later cell": [
        ENSURE,
        "y = os.environ.get('CHK14_TABLE', 't')\nensure(y)",
        "y = os.environ.get('CHK14_B', 't')",
        "",
    ],
    "another name validated there": [
        ENSURE,
        "y = os.environ.get('CHK14_TABLE', 't')\nensure(x)",
        "",
    ],
}


@pytest.mark.parametrize("case", list(VALIDATION_LOOK_ALIKES))
def test_validation_look_alikes_in_a_lazily_read_cell_still_warn(ishell: Any, case: str) -> None:
    run(ishell, IPYTHON_SETUP)
    *before, last = VALIDATION_LOOK_ALIKES[case]
    for cell in before:
        assert _warnings(ishell, cell) == []
    assert len(_warnings(ishell, f"{last}\ncon.execute(f'select a from {{y}}')")) == 1


@pytest.mark.parametrize("validation", ["ensure(y)", "print(y)"])
def test_a_validation_before_the_first_sink_call_is_read(ishell: Any, validation: str) -> None:
    """Cells put aside before any cell called a sink (no data flow made yet) keep their
    validations too; a call that does not validate leaves the finding."""
    cells = [
        "import os, sqlite3\nTABLES = {'t', 'u'}",
        ENSURE,
        f"y = os.environ.get('CHK14_TABLE', 't')\n{validation}",
    ]
    for cell in cells:
        assert _warnings(ishell, cell) == []
    query = (
        "con = sqlite3.connect(':memory:')\ncon.execute('create table t (a text)')\n"
        "con.execute(f'select * from {y}')"
    )
    assert len(_warnings(ishell, query)) == (validation != "ensure(y)")


# 2. A quoted SQL f-string bound to a name ------------------------------------------------

HEAD, QUOTE = thirteenth.HEAD, thirteenth.QUOTE  # (x = sys.argv[1]; its quoting)
RUN = "\nwith engine.connect() as conn:\n    conn.exec_driver_sql(q)\n"
QUOTED_QUERIES = {
    "a module's query": HEAD + f'q = f"select a from {{{QUOTE}}} limit 5"' + RUN,
    "in a function, run through text()": HEAD
    + "from sqlalchemy import text\n"
    + "def rows(conn, x):\n"
    + '    q = f"select a from main.{conn.dialect.identifier_preparer.quote(x)}"\n'
    + "    return conn.execute(text(q)).fetchall()\n",
    "a quoted name in a query bound to a name": HEAD
    + f"t = {QUOTE}\n"
    + 'q = f"select a from {t} where a = ?"'
    + "\nimport sqlite3\nsqlite3.connect('a.db').execute(q, ('v',))\n",
    "psycopg sql.Identifier().as_string": """
import sys
import psycopg
from psycopg import sql

with psycopg.connect(sys.argv[2]) as conn:
    q = f"select a from {sql.Identifier(sys.argv[1]).as_string(conn)}"
    conn.execute(q)
""",
}


@pytest.mark.parametrize("case", list(QUOTED_QUERIES))
def test_a_query_of_quoted_identifiers_bound_to_a_name_is_no_finding(case: str) -> None:
    assert find_unsafe_calls(QUOTED_QUERIES[case]) == []


QUOTED_QUERY_LOOK_ALIKES = {
    "a raw field beside": HEAD + f"q = f\"select a from {{{QUOTE}}} where b = '{{x}}'\"" + RUN,
    "the quoted field inside '...'": HEAD
    + f"q = f\"select a from t where b = '{{{QUOTE}}}'\""
    + RUN,
    "raw in one branch": HEAD
    + f'if len(x) > 3:\n    q = f"select a from {{x}}"\nelse:\n    q = f"select a from {{{QUOTE}}}"'
    + RUN,
    "a raw value added": HEAD + f'q = f"select a from {{{QUOTE}}}"\nq += x' + RUN,
    "rebound raw after": HEAD
    + f'q = f"select a from {{{QUOTE}}}"\nq = f"select a from {{x}}"'
    + RUN,
    "formatted into another f-string": HEAD
    + f'q = f"select a from {{{QUOTE}}}"'
    + "\nwith engine.connect() as conn:\n    conn.exec_driver_sql(f'{q} where b = {x}')\n",
    "into a shell": HEAD + f'import os\nq = f"ls {{{QUOTE}}}"\nos.system(q)\n',
}


@pytest.mark.parametrize("case", list(QUOTED_QUERY_LOOK_ALIKES))
def test_quoted_query_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(QUOTED_QUERY_LOOK_ALIKES[case])) == 1


def test_a_quoted_query_in_a_cell_is_no_warning(ishell: Any) -> None:
    run(ishell, IPYTHON_SETUP)
    query = "\nwith engine.connect() as conn:\n    conn.exec_driver_sql(q)"
    bound = "q = f'select a from {engine.dialect.identifier_preparer.quote(x)}'"
    assert _warnings(ishell, bound + query) == []
    assert len(_warnings(ishell, "q = f'select a from {x}'" + query)) == 1


def test_sqlite_reads_the_query_bound_to_the_quoting_as_one_name() -> None:
    """The positive control: a query built with the naive quoting and bound to ``q``
    selects the marker; the one built with SQLAlchemy's quoting reads one table name."""
    import sqlalchemy as sa

    engine = sa.create_engine("sqlite://")
    with engine.connect() as conn:
        conn.exec_driver_sql("create table t (a text)")
        conn.exec_driver_sql("insert into t values ('row')")
        q = f'select a from "{HOSTILE_NAME}"'
        assert conn.exec_driver_sql(q).fetchall() == [("pwned",)]
        q = f"select a from {engine.dialect.identifier_preparer.quote(HOSTILE_NAME)}"
        with pytest.raises(sa.exc.OperationalError, match="no such table"):
            conn.exec_driver_sql(q)


# 3. A dataclass that validates a field --------------------------------------------------

DATACLASS_HEAD = """
import sqlite3
import sys
from dataclasses import dataclass

TABLES = {"orders", "refunds"}
con = sqlite3.connect("shop.db")
"""
VALIDATING = """
@dataclass(frozen=True)
class Export:
    table: str
    since: str = "2024-01-01"

    def __post_init__(self):
        if self.table not in TABLES:
            raise ValueError(f"unknown table {self.table!r}")
"""
USES = {
    "a parameter annotated with the class": "def run(job: Export):\n"
    "    return con.execute(f'select * from {job.table} where day >= ?', (job.since,))\n",
    "a name bound to what the class made": "job = Export(sys.argv[1])\n"
    "con.execute(f'select * from {job.table}')\n",
    "self in a method": "",
}
VALIDATING_METHOD = (
    "\n    def rows(self):\n        return con.execute(f'select * from {self.table}').fetchall()\n"
)


@pytest.mark.parametrize("case", list(USES))
def test_a_field_a_dataclass_validates_is_no_finding(case: str) -> None:
    validating = VALIDATING + (VALIDATING_METHOD if case == "self in a method" else "")
    assert find_unsafe_calls(DATACLASS_HEAD + validating + USES[case]) == []


DATACLASS_LOOK_ALIKES = {
    "__post_init__ only prints": VALIDATING.replace(
        'raise ValueError(f"unknown table {self.table!r}")', "print('unknown', self.table)"
    ),
    "not a dataclass": VALIDATING.replace("@dataclass(frozen=True)\n", ""),
    "the field assigned after": VALIDATING + "def retarget(job):\n    job.table = sys.argv[2]\n",
    "a subclass": VALIDATING + "class Loose(Export):\n    def __post_init__(self):\n        pass\n",
    "setattr": VALIDATING + "def retarget(job):\n    object.__setattr__(job, 'table', 'x')\n",
    "another field": VALIDATING.replace("{job.table}", "{job.since}"),
}


@pytest.mark.parametrize("case", list(DATACLASS_LOOK_ALIKES))
def test_dataclass_look_alikes_stay_findings(case: str) -> None:
    use = USES["a parameter annotated with the class"]
    if case == "another field":
        use = use.replace("{job.table}", "{job.since}")
    found = find_unsafe_calls(DATACLASS_HEAD + DATACLASS_LOOK_ALIKES[case] + use)
    assert len(found) == 1


def test_sqlite_runs_the_field_the_printing_dataclass_let_through(tmp_path: Path) -> None:
    """The positive control: a dataclass whose ``__post_init__`` only prints lets the
    hostile table run its own select in sqlite3; the validating one raises first."""
    con = sqlite3.connect(tmp_path / "shop.db")
    con.execute("create table orders (a text)")
    hostile = "orders union select 'pwned'"
    tables = {"orders", "refunds"}

    @dataclass(frozen=True)
    class Loose:
        table: str

        def __post_init__(self) -> None:
            if self.table not in tables:
                print("unknown", self.table)

    @dataclass(frozen=True)
    class Checked:
        table: str

        def __post_init__(self) -> None:
            if self.table not in tables:
                raise ValueError(self.table)

    job = Loose(hostile)
    assert ("pwned",) in con.execute(f"select a from {job.table}").fetchall()
    with pytest.raises(ValueError):
        Checked(hostile)


# 4. What holds already -------------------------------------------------------------------

HOLDS = {
    "int() of a helper's value": "import os, sys\ndef get_arg():\n    return sys.argv[1]\n"
    "n = int(get_arg())\nos.system(f'kill {n}')\n",
    "a date parsed by strptime, formatted": "import os, sys\nfrom datetime import datetime\n"
    "day = datetime.strptime(sys.argv[1], '%Y-%m-%d')\n"
    "os.system(f'backup --since {day:%Y-%m-%d}')\n",
}
HOLDS_LOOK_ALIKES = {
    "the helper's value itself": HOLDS["int() of a helper's value"].replace("int(get_arg())",
                                                                              "get_arg()"),
    "the text before it is parsed": HOLDS["a date parsed by strptime, formatted"].replace(
        "{day:%Y-%m-%d}", "{sys.argv[1]}"
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    ("code", "findings"),
    [*((code, 0) for code in HOLDS.values()), *((code, 1) for code in HOLDS_LOOK_ALIKES.values())],
)
def test_what_holds_already_and_its_look_alikes(code: str, findings: int) -> None:
    assert len(find_unsafe_calls(code)) == findings
