"""An f-string formatted into another f-string keeps the inner one's written text.

The check counts a string passed to a generic method (``.execute``, which an executor or a
task queue has too) only when its written text looks like SQL.  The text of an f-string was
its constant parts and, for each field, the text of what the field held: a concatenation's
or a ``%``-format's, but a blank for another f-string.  So a query built in two steps,
``v1 = f"select {x} ..."`` then ``v2 = f"{v1} and b = 1"``, read as `` and b = 1``: no SQL word,
no finding, and ``cur.execute(v2)`` ran whatever ``x`` held.  The inner f-string's text is now
part of the outer one's, as a concatenation's was.  Still no finding: the same steps with a
constant, and text that is no SQL passed to a generic ``.execute``.

The positive control runs for real in sqlite3: the two-step query selects a marker row that
no row of the table holds.
"""

from __future__ import annotations

import sqlite3

import pytest

from ipy_istring.check import find_unsafe_calls

HEAD = "import sqlite3, sys\ncur = sqlite3.connect('app.db').cursor()\nx = sys.argv[1]\n"

IN_STEPS = {
    "a where clause added": 'v1 = f"select a from t where a = {x}"\nv2 = f"{v1} and b = 1"\n'
    "cur.execute(v2)",
    "three steps": 'v1 = f"select a from t where a = {x}"\nv2 = f"{v1} and b = 1"\n'
    'v3 = f"{v2} or b = 2"\ncur.execute(v3)',
    "the outer one written in the call": 'v1 = f"select a from t where a = {x}"\n'
    'cur.execute(f"{v1} and b = 1")',
    "a condition built first": 'cond = f"a = {x}"\nv1 = f"select a from t where {cond}"\n'
    'cur.execute(f"{v1} and b = 1")',
}


@pytest.mark.parametrize("case", list(IN_STEPS))
def test_a_query_built_in_f_string_steps_is_a_finding(case: str) -> None:
    (finding,) = find_unsafe_calls(HEAD + IN_STEPS[case])
    assert finding.destination == "sql"


LOOK_ALIKES = {
    "the inner value a constant": 'LIMIT = 10\nv1 = f"select a from t limit {LIMIT}"\n'
    'v2 = f"{v1} offset 0"\ncur.execute(v2)',
    "no SQL to a generic execute": "class Runner:\n    def execute(self, task): ...\n"
    'runner = Runner()\nv1 = f"resize {x} now"\nrunner.execute(f"{v1} and later")',
}


@pytest.mark.parametrize("case", list(LOOK_ALIKES))
def test_look_alikes_stay_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + LOOK_ALIKES[case]) == []


def test_the_two_step_query_injects_in_sqlite() -> None:
    """The control: what ``x`` holds decides the rows, not only a value compared."""
    con = sqlite3.connect(":memory:")
    con.execute("create table t (a text, b int)")
    con.execute("insert into t values ('x', 1)")
    x = "'none' union select 'pwned' --"
    v1 = f"select a from t where a = {x}"
    v2 = f"{v1} and b = 1"
    assert ("pwned",) in con.execute(v2).fetchall()
    # bound as a parameter (what sql(i"...") sends), it is only a value compared
    assert con.execute("select a from t where a = ? and b = 1", (x,)).fetchall() == []
