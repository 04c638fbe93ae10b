"""A name bound by ``:=`` in an ``if``'s or ``while``'s test (``if (q := f"..."):``).

The data flow read an ``if``'s branches but not its test, so a query bound there was a name
bound to nothing it knew, and ``cur.execute(q)`` in the branch was no finding.  The tests are
now read for the names their ``:=`` bind, in a script and in an IPython cell put aside before
the one that queries.  Still no finding: a constant bound there.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import run
from test_check_twelfth_pass import _warnings

from ipy_istring.check import find_unsafe_calls

HEAD = "import sqlite3, sys\ncur = sqlite3.connect('a.db').cursor()\nx = sys.argv[1]\n"

BOUND_IN_A_TEST = {
    "if": 'if (q := f"select * from {x}"):\n    cur.execute(q)',
    "if, beside another test": 'if len(x) > 3 and (q := f"select * from {x}"):\n    cur.execute(q)',
    "while": 'while (q := f"select * from {x}"):\n    cur.execute(q)\n    break',
    "if, run after it": 'if (q := f"select * from {x}") and x:\n    pass\ncur.execute(q)',
}


@pytest.mark.parametrize("case", list(BOUND_IN_A_TEST))
def test_a_query_bound_in_a_test_is_a_finding(case: str) -> None:
    (finding,) = find_unsafe_calls(HEAD + BOUND_IN_A_TEST[case])
    assert finding.via == "q"


def test_a_constant_bound_in_a_test_is_no_finding() -> None:
    assert find_unsafe_calls(HEAD + 'if (q := "select * from t"):\n    cur.execute(q)') == []


@pytest.mark.parametrize("query", ['f"select * from {x}"', '"select * from t"'])
def test_a_test_in_a_cell_put_aside_binds_its_name(ishell: Any, query: str) -> None:
    run(ishell, "import os, sqlite3\ncur = sqlite3.connect(':memory:')\ncur.execute('select 1')")
    cells = [
        "x = os.environ.get('WALRUS_TABLE', 't')",
        f"if (q := {query}) and x:\n    pass",
    ]
    for cell in cells:
        assert _warnings(ishell, cell) == []
    found = _warnings(ishell, "cur.execute('create table if not exists t (a)')\ncur.execute(q)")
    assert len(found) == query.startswith("f")
