"""The ninth red-team pass over sql(): PostgreSQL's ONLY before a table a value names.

* ``from {t:i}`` is refused when PostgreSQL may run the query and the value names one of its
  catalog's tables (``pg_prepared_statements`` returned a prepared statement's text, a literal
  secret included), but ``from only {t:i}``, ``table only {t:i}``, ``, only {t:i}`` and
  ``join only {t:i}`` were accepted: the table after ONLY was not read as one, and the query
  sql() wrote returned the secret from the real server (the positive control below).  Refused
  now; a table of one's own after ONLY stays accepted (DuckDB and SQLite have no ONLY: it is a
  syntax error in DuckDB, so the check is PostgreSQL's).

Attacks tried that held (kept as regression tests on the real DuckDB): a value naming a file
where DuckDB looks an extension up by name — ``create secret s (type {t:l})``, its
``provider``, ``copy ... (format {f:l})`` — is only looked up, never opened as an extension
("Secret type ... not found", "Copy Function with name ... does not exist"); and SQLite's
``create virtual table v using {m:i}`` with ``m = "dbstat"`` was refused already (USING reads a
table).
"""

from __future__ import annotations

import pathlib
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which db below asks for

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

T = InterpolationTemplate
# Where PostgreSQL may run a query: its paramstyles, and any style with its dialect.
POSTGRESQL = (("format", None), ("pyformat", None), ("dollar", None), ("qmark", "postgresql"))


def field(value: object, spec: str = "") -> Interpolation:
    return Interpolation(value, "t", None, spec)


ONLY = [
    ("select statement from only ", field("pg_prepared_statements", "i")),
    ("select * from only ", field("pg_cursors", "i")),
    ("table only ", field("pg_prepared_statements", "i")),
    ("TABLE ONLY ", field("pg_stat_activity", "i")),
    ("select * from items i, only ", field("pg_prepared_statements", "i")),
    ("select * from items i join only ", field("pg_prepared_statements", "i"), " p on true"),
    ("select * from items i cross join only ", field("pg_cursors", "i")),
    ("delete from items using only ", field("pg_prepared_statements", "i")),
    ("select * from only ", field(("pg_catalog", "pg_prepared_statements"), "i")),
    ("select * from only pg_catalog.", field("pg_cursors", "i")),
    ("select * from (select 1) s, only ", field("pg_prepared_statements", "i")),
]


@pytest.mark.parametrize("parts", ONLY)
def test_a_catalog_table_after_only_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in POSTGRESQL:
        with pytest.raises(RenderError, match=r"one of PostgreSQL's catalog tables"):
            sql(T(*parts), paramstyle, dialect=dialect)


def test_the_refusal_says_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sql(T(*ONLY[0]), "format")
    message = str(caught.value)
    assert "pg_prepared_statements" in message and "Pass the name of one of your tables" in message


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Any:
    """A PostgreSQL connection in a fresh schema: tests/test_sql_contexts.py's ``pg``."""
    return request.getfixturevalue("pg")


def test_positive_control_only_reads_the_catalog_table(db: Any) -> None:
    # the query sql() wrote before this pass (as it still writes it where SQLite runs it)
    query = sql(T(*ONLY[0]), "qmark", dialect="sqlite")
    assert query.sql == 'select statement from only "pg_prepared_statements"'
    db.execute("prepare secretive as select 'top-secret-value'")
    rows = db.execute(query.sql).fetchall()
    assert rows and "top-secret-value" in rows[0][0]
    (table,) = db.execute('table only "pg_prepared_statements"').fetchall()
    assert "top-secret-value" in table[1]


LOOK_ALIKES = [
    ("select a from only ", field("items", "i"), " order by a"),
    ("table only ", field("items", "i")),
    ("select i.a from items i, only ", field("items", "i"), " j where i.a = j.a"),
    ("select a from only ", field(("ipy_istring_contexts", "items"), "i")),
    ("update only ", field("items", "i"), " set a = a where a = ", field(1)),
    ("select a from only items where a = ", field(1)),
]


@pytest.mark.parametrize("parts", LOOK_ALIKES)
def test_a_table_of_ones_own_after_only_stays_accepted_and_runs(
    db: Any, parts: tuple[Any, ...]
) -> None:
    db.execute("create table items (a int)")
    db.execute("insert into items values (1)")
    for paramstyle, dialect in POSTGRESQL:
        sql(T(*parts), paramstyle, dialect=dialect)
    query = sql(T(*parts), "format")
    cursor = db.execute(query.sql, query.params)
    if cursor.description is not None:  # (update has no rows)
        assert cursor.fetchall() == [(1,)]


def test_only_is_no_keyword_elsewhere() -> None:
    # SQLite and DuckDB read `only` as a name: a table called only, an alias
    for paramstyle, dialect in (("qmark", "sqlite"), ("qmark", "duckdb"), ("named", None)):
        sql(T("select * from only ", field("items", "i")), paramstyle, dialect=dialect)


# --- attacks that held ---------------------------------------------------------------------

HELD = [
    ("create secret s (type {}, key_id 'k', secret 'x')", "Secret type"),
    ("create secret s (type s3, provider {})", "Secret provider"),
    ("copy (select 1) to '{out}' (format {})", "Copy Function"),
]


@pytest.mark.parametrize(("statement", "error"), HELD)
def test_duckdb_looks_an_extension_up_by_name_never_opens_the_path(
    statement: str, error: str, tmp_path: pathlib.Path
) -> None:
    extension = tmp_path / "evil.duckdb_extension"
    extension.write_bytes(b"not an extension")  # (LOAD would say it is no extension)
    before, after = statement.replace("{out}", str(tmp_path / "out")).split("{}")
    query = sql(T(before, field(str(extension), "l"), after), "qmark")
    with pytest.raises(duckdb.Error, match=error):
        duckdb.connect().execute(query.sql, query.params)
