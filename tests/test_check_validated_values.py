"""Values a script proves safe in ways the check did not read (false alarms).

1. ``if not name.isidentifier(): raise`` (or ``isalnum``, ``isalpha``, ``isdigit``,
   ``isdecimal``): the name then holds one or more letters, digits or ``_``, which is what
   ``re.fullmatch(r"\\w+", name)`` lets through, and the check accepts that already.  Still
   findings: a predicate that lets other characters through (``isprintable``), one applied to
   another string (``name.strip()``), a branch that does not leave, the name bound again.
2. psycopg2's ``extensions.quote_ident(name, scope)`` quotes ``name`` as an identifier, as
   SQLAlchemy's ``identifier_preparer.quote`` and psycopg 3's ``sql.Identifier`` do, which the
   check accepts where a name stands in a query.  Still findings: the quoted name inside
   ``'...'``, a raw field beside it, a function of the user's named ``quote_ident``, and the
   same into a shell.  (The twelfth pass kept it a finding, psycopg2 not installed then; it is a
   test dependency now, and its quoting is verified on the PostgreSQL server: a hostile name
   quoted by it is read as one table's name, where the naive quoting selects the marker.)
"""

from __future__ import annotations

from typing import Any

import pytest

from ipy_istring.check import find_unsafe_calls

HEAD = "import os, sqlite3, sys\ncur = sqlite3.connect('a.db').cursor()\nx = sys.argv[1]\n"
RAISE = "    raise SystemExit(f'odd name: {x!r}')\n"

VALIDATED = {
    **{
        f"{predicate} before a query": f"if not x.{predicate}():\n{RAISE}"
        "cur.execute(f'select * from {x}')"
        for predicate in ("isidentifier", "isalnum", "isalpha")
    },
    **{
        f"{predicate} before a command": f"if not x.{predicate}():\n{RAISE}os.system(f'kill {{x}}')"
        for predicate in ("isdigit", "isdecimal")
    },
    "in a function": "def rows(t):\n    if not t.isidentifier():\n        raise ValueError(t)\n"
    "    return cur.execute(f'select * from {t}').fetchall()\nrows(x)",
    "by a validating helper": "def ensure(t):\n    if not t.isalnum():\n"
    "        raise ValueError(t)\nensure(x)\ncur.execute(f'select * from {x}')",
}


@pytest.mark.parametrize("case", list(VALIDATED))
def test_a_value_a_str_predicate_validated_is_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + VALIDATED[case]) == []


NOT_VALIDATED = {
    "isprintable": f"if not x.isprintable():\n{RAISE}cur.execute(f'select * from {{x}}')",
    "another string tested": f"if not x.strip().isdigit():\n{RAISE}os.system(f'kill {{x}}')",
    "a branch that goes on": "if not x.isidentifier():\n    print('odd')\n"
    "cur.execute(f'select * from {x}')",
    "bound again after": f"if not x.isidentifier():\n{RAISE}x = sys.argv[2]\n"
    "cur.execute(f'select * from {x}')",
}


@pytest.mark.parametrize("case", list(NOT_VALIDATED))
def test_predicate_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(HEAD + NOT_VALIDATED[case])) == 1


PSYCOPG2 = "import psycopg2\nconn = psycopg2.connect('')\ncur = conn.cursor()\n"

QUOTED = {
    "imported by name": "from psycopg2.extensions import quote_ident\n"
    "cur.execute(f'select * from {quote_ident(x, cur)}')",
    "through the module": "import psycopg2.extensions as ext\n"
    "cur.execute(f'select * from {ext.quote_ident(x, conn)}')",
    "bound to a name first": "from psycopg2.extensions import quote_ident\n"
    "t = quote_ident(x, cur)\ncur.execute(f'select * from {t}')",
}


@pytest.mark.parametrize("case", list(QUOTED))
def test_a_name_psycopg2_quoted_is_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + PSYCOPG2 + QUOTED[case]) == []


QUOTED_LOOK_ALIKES = {
    "inside '...'": "from psycopg2.extensions import quote_ident\n"
    "t = quote_ident(x, cur)\ncur.execute(f\"select * from t where a = '{t}'\")",
    "a raw field beside": "from psycopg2.extensions import quote_ident\n"
    "cur.execute(f'select * from {quote_ident(x, cur)} where b = {x}')",
    "a function of the user's": "def quote_ident(a, b):\n    return a\n"
    "cur.execute(f'select * from {quote_ident(x, cur)}')",
    "into a shell": "from psycopg2.extensions import quote_ident\n"
    "os.system(f'ls {quote_ident(x, cur)}')",
}


@pytest.mark.parametrize("case", list(QUOTED_LOOK_ALIKES))
def test_psycopg2_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(HEAD + PSYCOPG2 + QUOTED_LOOK_ALIKES[case])) == 1


HOSTILE_TABLE = "t\" where false union select 'pwned' --"


def test_postgresql_reads_a_name_psycopg2_quoted_as_one_table(postgres_dsn: str) -> None:
    """The proof behind accepting it: psycopg2's quoting (libpq's ``PQescapeIdentifier``)
    makes a hostile value one table's name; the naive quoting lets it select the marker."""
    psycopg2: Any = pytest.importorskip("psycopg2")
    from psycopg2.extensions import quote_ident

    with psycopg2.connect(postgres_dsn) as conn:
        cur = conn.cursor()
        cur.execute("create temporary table t (a text)")
        cur.execute(f'select a from "{HOSTILE_TABLE}"')  # the naive quoting: the marker
        assert cur.fetchall() == [("pwned",)]
        cur.execute(f"create temporary table {quote_ident(HOSTILE_TABLE, cur)} (a text)")
        cur.execute(f"insert into {quote_ident(HOSTILE_TABLE, cur)} values ('its own row')")
        cur.execute(f"select a from {quote_ident(HOSTILE_TABLE, cur)}")
        assert cur.fetchall() == [("its own row",)]
        conn.rollback()
