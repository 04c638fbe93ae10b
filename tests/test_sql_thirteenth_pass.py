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
* PostgreSQL reads ``alias.name`` as the call ``name(alias)`` when the alias is no row with
  that column, and the alias of a function in FROM is its value: ``select u.{c:i} from
  unnest({tags}::text[]) u`` with ``c = "ts_stat"`` ran the array's text as SQL.  A ``:i``
  after a dot is refused now when PostgreSQL may run a statement whose FROM calls a function.
* PostgreSQL searches its temporary schema first for relations and types, before its own
  catalog (and DuckDB its temp schema before its system views): ``create temp view {v:i}``
  with ``"pg_roles"`` made a later ``select ... from pg_roles`` read the view, ``create temp
  table {t:i}`` with ``"text"`` broke every later ``'a'::text``, and a value
  ``("pg_temp", "uuid")`` put a plain ``create table`` there.  Such a name is refused now.
* DuckDB's system table macros ``histogram()`` and ``histogram_values()`` read their source
  through ``query_table()``, which sql() refuses a value in: ``histogram_values({src}, v)``
  read a CSV file outside the database.  And ``json_serialize_plan({q})`` binds its argument
  as a query: a session variable's secret came back in the plan.
"""

from __future__ import annotations

import json
import pathlib
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which the tests ask for
from test_sql_tenth_pass import POSTGRESQL, T, field

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


def test_a_qualified_name_of_a_function_alias_is_no_call_a_value_may_choose(pg: Any) -> None:  # noqa: F811
    pg.execute("create table secrets (s text)")
    pg.execute("insert into secrets values ('hunter2')")
    tags = ["select to_tsvector('simple', s) from secrets"]
    # The positive control: the quoted name, as sql(..., 'format') wrote it, called ts_stat().
    naive = 'select u."ts_stat" from unnest(%s::text[]) u'
    assert "hunter2" in str(pg.execute(naive, [tags]).fetchall())
    refused = [
        ("select u.", field("ts_stat", "c", "i"), " from unnest(", field(tags, "tags"),
         "::text[]) u"),
        ("select w.", field("ts_stat", "c", "i"), " from regexp_split_to_table(",
         field("a,b", "t"), ", ',') w"),
        # (the function's alias: since the twenty-third pass the table's, t.{c:i}, is accepted)
        ("select g.", field("v", "c", "i"), " from t, lateral generate_series(1, 3) g"),
    ]  # fmt: skip
    for parts in refused:
        for paramstyle, dialect in POSTGRESQL:
            with pytest.raises(RenderError, match=r"PostgreSQL reads alias\.name as the call"):
                sql(T(*parts), paramstyle, dialect=dialect)
    # Look-alikes: a table's alias, a subquery, a join, the same on SQLite; all run.
    pg.execute("create table t (id int, v text)")
    pg.execute("insert into t values (1, 'a')")
    accepted = [
        ("select t.", field("v", "c", "i"), " from t"),
        ("select t.", field("v", "c", "i"), " from t join t u using (id)"),
        ("select t.", field("v", "c", "i"), " from (select * from t) t"),
        ("select t.", field("v", "c", "i"), " from t where id in (select count(*) from t)"),
        # the table's alias beside a function: its row, no function's value (twenty-third pass)
        ("select t.", field("v", "c", "i"), " from t, lateral generate_series(1, 1) g"),
    ]
    for parts in accepted:
        assert pg.execute(*sql(T(*parts), "format")).fetchall() == [("a",)]
    assert sql(T(*refused[0]), "qmark").sql == 'select u."ts_stat" from unnest(?::text[]) u'


SHADOWING = [
    ("create temp view ", field("pg_roles", "v", "i"),
     " as select 'mallory'::name as rolname, true as rolsuper"),
    ("create temporary table ", field("text", "t", "i"), " (a int)"),
    ("create table ", field(("pg_temp", "uuid"), "t", "i"), " (a int)"),
    ("create table pg_temp.", field("json", "t", "i"), " (a int)"),
    ("create domain ", field(("pg_temp", "inet"), "t", "i"), " as int"),
]  # fmt: skip


def test_a_temporary_name_may_not_shadow_the_catalog(postgres_dsn: str) -> None:
    import psycopg

    # The positive control, each in a session of its own: the naive names shadowed the
    # catalog's view and types for the rest of the session.
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        session.execute(
            'create temp view "pg_roles" as select \'mallory\'::name as rolname, true as rolsuper'
        )
        assert session.execute("select rolname, rolsuper from pg_roles").fetchall() == [
            ("mallory", True)
        ]
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        session.execute('create temp table "text" (a int)')
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            session.execute("select 'abc'::text")
    for parts in SHADOWING:
        for paramstyle, dialect in POSTGRESQL:
            # ('dollar' is DuckDB's style too, which refuses a table's dotted name already)
            why = "names a temporary relation or type|DuckDB reads a name that is no table"
            with pytest.raises(RenderError, match=why):
                sql(T(*parts), paramstyle, dialect=dialect)
    # Look-alikes: a name of one's own, a catalog name outside pg_temp, a column named text.
    accepted = [
        ("create temp table ", field("staging", "t", "i"), " (a int)"),
        ("create table ", field(("ipy_istring_shadow", "text"), "t", "i"), " (a int)"),
        ("create temp table staging2 (", field("text", "c", "i"), " int)"),
    ]
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        session.execute("drop schema if exists ipy_istring_shadow cascade")
        session.execute("create schema ipy_istring_shadow")
        session.execute("set search_path to ipy_istring_shadow, public")
        try:
            for parts in accepted:
                session.execute(*sql(T(*parts), "format"))
            assert session.execute("select 'abc'::text").fetchall() == [("abc",)]
        finally:
            session.execute("drop schema ipy_istring_shadow cascade")


def test_a_duckdb_temporary_view_may_not_shadow_a_system_view() -> None:
    connection = duckdb.connect()
    connection.execute("create table real_table (a int)")
    connection.execute('create temp view "duckdb_tables" as select \'fake\' as table_name')
    assert connection.execute("select table_name from duckdb_tables").fetchall() == [("fake",)]
    connection.close()
    with pytest.raises(RenderError, match="names a temporary relation or type"):
        sql(T("create temp view ", field("duckdb_tables", "v", "i"), " as select 1"),
            dialect="duckdb")  # fmt: skip
