"""The thirteenth red-team pass over sql(): literals where names go, and DuckDB's wrappers.

* A ``:l`` value where a table is read: SQLite reads a string there as the table's name, and
  DuckDB as a table's when no file has that name.  ``from {t:i}`` with an internal table was
  refused, but ``select * from {t:l}`` with ``"sqlite_stmt"`` returned the SQL text, literals
  included, of the statements the connection had run (also ``join``, ``using`` of a virtual
  table, and SQLite's ``x in TABLE``), and in DuckDB ``"pg_prepared_statements"`` a prepared
  statement's text.  The internal-table rule now holds for ``:l`` there too; ``from {path:l}``
  still reads the file DuckDB is told to (its documented meaning).
* DuckDB takes a string as the name of the macro it creates: ``create macro {m:l} (x) as 42``
  with ``"lower"`` made every later ``lower('A')`` return 42, as the ``:i`` form did.
* DuckDB's system table macros ``histogram()`` and ``histogram_values()`` read their source
  through ``query_table()``, which sql() refuses a value in: ``histogram_values({src}, v)``
  read a CSV file outside the database.  And ``json_serialize_plan({q})`` binds its argument
  as a query: a session variable's secret came back in the plan.
"""

from __future__ import annotations

import json
import pathlib
import sqlite3

import duckdb
import pytest
from test_sql_tenth_pass import T, field

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql

SQLITE_INTERNAL = "one of SQLite's own tables"
DUCKDB_INTERNAL = "one of DuckDB's own tables"


def test_a_sqlite_literal_where_a_table_is_read_may_not_name_an_internal_table() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (v text)")
    connection.execute("insert into t values ('S3CRET-PW')")
    # The positive control: the literal, as sql() rendered it, read the cached statements.
    naive = "select * from 'sqlite_stmt'"
    assert any("S3CRET-PW" in str(row) for row in connection.execute(naive).fetchall())
    refused = [
        ("select * from ", field("sqlite_stmt", "t", "l"), ""),
        ("select * from ", field("SQLITE_MASTER", "t", "l"), ""),
        ("select * from t join ", field("dbstat", "t", "l"), " on 1"),
        ("select * from t where v in ", field("sqlite_stmt", "t", "l"), ""),
        ("select * from t where v in ", field("sqlite_stmt", "t", "i"), ""),
        ("create virtual table v using ", field("dbstat", "m", "l"), ""),
        ("insert into t select sql from ", field("sqlite_stmt", "t", "l"), ""),
    ]
    for parts in refused:
        with pytest.raises(RenderError, match=SQLITE_INTERNAL):
            sql(T(*parts))
    # Look-alikes: the same text as a value, a table of one's own, a list after `in`.
    accepted = [
        ("select * from t where v = ", field("sqlite_stmt", "v", "l"), ""),
        ("select * from ", field("t", "t", "l"), ""),
        ("select * from t where v in ", field(("a", "b"), "xs", "in"), ""),
    ]
    for parts in accepted:
        connection.execute(*sql(T(*parts))).fetchall()
    connection.close()


def test_a_duckdb_literal_where_a_table_is_read_may_not_name_an_internal_table(
    tmp_path: pathlib.Path,
) -> None:
    connection = duckdb.connect()
    connection.execute("prepare wipe as select 'PREPARED-SECRET' as s")
    naive = "select * from 'pg_prepared_statements'"
    assert "PREPARED-SECRET" in str(connection.execute(naive).fetchall())  # the control
    for value in ("pg_prepared_statements", "duckdb_views", "sqlite_master"):
        with pytest.raises(RenderError, match=DUCKDB_INTERNAL):
            sql(T("select * from ", field(value, "t", "l"), ""), dialect="duckdb")
    # A file named on purpose is what DuckDB's from {path:l} reads.
    data = tmp_path / "data.csv"
    data.write_text("a\n1\n")
    read = sql(T("select * from ", field(str(data), "p", "l"), ""), dialect="duckdb")
    assert connection.execute(*read).fetchall() == [(1,)]
    connection.close()


def test_a_duckdb_macro_named_by_a_literal_is_refused() -> None:
    connection = duckdb.connect()
    connection.execute("create macro 'lower' (x) as 42")  # the positive control
    assert connection.execute("select lower('A')").fetchall() == [(42,)]
    connection.close()
    for statement in ("create macro ", "create or replace temp macro ", "create function "):
        with pytest.raises(RenderError, match="names the macro"):
            sql(T(statement, field("lower", "m", "l"), " (x) as 42"), dialect="duckdb")
    # The same literal as the argument of the function is data.
    accepted = sql(T("select lower(", field("lower", "v", "l"), ")"), dialect="duckdb")
    assert accepted.sql == "select lower('lower')"


def test_duckdb_wrappers_of_query_table_and_the_plan_binder_take_no_value(
    tmp_path: pathlib.Path,
) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("password\nFILE-SECRET\n")
    connection = duckdb.connect()
    # The positive controls: a parameter of histogram_values() read the file, and
    # json_serialize_plan() folded a session variable into its plan.
    read = connection.execute("from histogram_values(?, password)", [str(secret)]).fetchall()
    assert "FILE-SECRET" in str(read)
    connection.execute("set variable api_key = 'VAR-SECRET'")
    plan = connection.execute(
        "select json_serialize_plan(?)", ["select getvariable('api_key')"]
    ).fetchone()
    assert plan is not None and "VAR-SECRET" in json.dumps(plan[0])
    connection.close()
    for call in ("histogram_values", "histogram"):
        with pytest.raises(RenderError, match=f"argument of {call}"):
            sql(T(f"from {call}(", field(str(secret), "src"), ", password)"), dialect="duckdb")
    with pytest.raises(RenderError, match="argument of json_serialize_plan"):
        sql(T("select json_serialize_plan(", field("select 1", "q"), ")"), dialect="duckdb")
    # The column, named in the text, is another argument: only the source is code's.
    assert sql(T("select json_serialize_sql(", field("select 1", "q"), ")"), dialect="duckdb")
