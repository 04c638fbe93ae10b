"""A string's written text keeps the text of all its parts.

The check counts a string passed to a generic method (``.execute``, which an executor or a
task queue has too) only when its written text looks like SQL.  Three ways of building a
query lost the part of the text that says so, and were no finding (``cur.execute`` ran
whatever ``x`` held):

1. An f-string formatted into another f-string: the inner one's text was a blank (a
   concatenation's or a ``%``-format's was kept), so a query built in two steps,
   ``v1 = f"select {x} ..."`` then ``v2 = f"{v1} and b = 1"``, read as `` and b = 1``.
2. A list of strings joined into the query (``" ".join(["select ...", f"and a = {x}"])``):
   its value was the formatted item alone, without the constant items.
3. The same list made by ``.append``/``.extend``/``.insert`` (``parts = ["select ..."]``, then
   ``parts.append(f"and a = {x}")``): the list became the item appended.  And a value the
   check cannot see appended to a list of constant words (``args = ["ls"]``,
   ``args.append(x)``) made it unknown, where the same list written ``["ls", x]`` and joined
   into a shell command is a finding: it is now the same ``str.join()`` value.

Still no finding: the same steps with a constant, text that is no SQL passed to a generic
``.execute``, an appended list run without a shell, and a dict updated with a value.

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
    "a list joined": 'parts = ["select a from t where 1 = 1", f"and a = {x}"]\n'
    'cur.execute(" ".join(parts))',
    "a list appended to": 'parts = ["select a from t where 1 = 1"]\nparts.append(f"and a = {x}")\n'
    'q = " ".join(parts)\ncur.execute(q)',
    "a list extended": 'parts = ["select a from t"]\nparts.extend([f"where a = {x}"])\n'
    'cur.execute(" ".join(parts))',
    "words appended, joined into a shell command": 'import os\nargs = ["ls", "-l"]\n'
    'args.append(x)\nos.system(" ".join(args))',
}


@pytest.mark.parametrize("case", list(IN_STEPS))
def test_a_command_built_in_steps_is_a_finding(case: str) -> None:
    (finding,) = find_unsafe_calls(HEAD + IN_STEPS[case])
    assert finding.destination == ("shell" if "shell" in case else "sql")


LOOK_ALIKES = {
    "the inner value a constant": 'LIMIT = 10\nv1 = f"select a from t limit {LIMIT}"\n'
    'v2 = f"{v1} offset 0"\ncur.execute(v2)',
    "no SQL to a generic execute": "class Runner:\n    def execute(self, task): ...\n"
    'runner = Runner()\nv1 = f"resize {x} now"\nrunner.execute(f"{v1} and later")',
    "words appended, run without a shell": 'import subprocess\nargs = ["ls", "-l"]\n'
    "args.append(x)\nsubprocess.run(args)",
    "a list of no SQL to a generic execute": "class Runner:\n    def execute(self, task): ...\n"
    'parts = ["resize"]\nparts.append(f"{x} now")\nRunner().execute(" ".join(parts))',
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
