"""The twenty-seventh red-team pass over sql(): the settings a value may set, made an
allow-list by enumerating each engine's own settings (DuckDB 2.0.1 and 1.5.6, PostgreSQL 15,
SQLite 3.40).

Until this pass a value could set any setting but the code settings (``_CODE_SETTING``: names
holding ``librar``, ``extension``, ``home_directory``...), added one at a time.  Now a value
sets only a setting on ``ipy_istring._sql_settings.DATA_SETTINGS`` (numbers, sizes, limits,
flags, formats, time zones, encodings), in ``SET``, ``PRAGMA``, ``set_config('...', {v},
...)``, ``ALTER ROLE/DATABASE/FUNCTION ... SET`` and a routine's ``CREATE ... SET``, inside
parentheses too; a dotted name of a SET (``app.user``, PostgreSQL's own variables) stays
accepted.  The tests below read ``duckdb_settings()``, ``pg_settings`` (the settings a session
may set: contexts user and superuser) and SQLite's ``pragma_pragma_list`` and fail on a name
that is on neither list, so a new setting gets reviewed before a value reaches it.

Holes (each shown by a positive control, the render sql() gave before this pass, then the
refusal):
* DuckDB ``set temp_directory = {v}``: with a small memory limit, the author's static ``create
  temp table`` spilled its rows into the value's directory (a marker in every row was found in
  the files there), both versions.  It was accepted by design (the twenty-sixth pass) as a
  place DuckDB writes, like ``copy t to {f}``; but here the rows written are all the author's
  later ones, not a file the text writes.
* PostgreSQL ``set search_path to {s:i}``: one schema, which PostgreSQL searches after
  pg_catalog, was accepted (the sixteenth and twentieth passes); with a schema holding
  ``lower(varchar)`` (returning the marker), the author's later ``select lower(v)`` of a varchar
  column ran it, since an exact match beats pg_catalog's ``lower(text)``.  Refused now in SET,
  ``set_config()`` and ``ALTER ROLE ... SET``.
* PostgreSQL ``set session_replication_role = {v}``: ``'replica'`` stopped the author's
  trigger (an audit row it writes was missing).
* SQLite ``pragma ignore_check_constraints = {v:l}``: ``1`` let a row that breaks the author's
  CHECK in.

Refused by review, with no further control run: DuckDB's ``file_search_path`` (a relative
read the working directory lacks came from the value's directory), ``log_query_path``,
``profiling_output``, ``default_secret_storage`` (only ``local_file`` and ``memory`` exist
offline; ``memory`` made the author's persistent secret fail), the security switches and the
grammar settings; PostgreSQL's ``row_security``, ``allow_system_table_mods``, the audit log's
settings; SQLite's ``writable_schema``, ``trusted_schema``, ``temp_store_directory``.

Held (accepted and run): DuckDB ``threads``, ``memory_limit`` with ``'1GB'``, ``timezone``;
PostgreSQL ``statement_timeout``, ``timezone`` (also ``set time zone``), ``work_mem``,
``set_config('app.user', {u}, false)``, ``set role {r:i}``; SQLite ``busy_timeout``,
``user_version``; and SET words that name no setting (``alter table t alter c set default``,
``update t set c = {v}``).
"""

from __future__ import annotations

import os
import pathlib
import re
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _render
from test_sql_twenty_sixth_pass import SECRET_DIRECTORY

from ipy_istring._sql_settings import DATA_SETTINGS, REFUSED_SETTINGS
from ipy_istring.fields import RenderError
from ipy_istring.sql import _CODE_SETTING, _DATA_PRAGMAS

UNLISTED = "not on sql\\(\\)'s list of settings whose value is data"


def unreviewed(names: list[str]) -> list[str]:
    """The settings on neither list (nor code settings to sql())."""
    return sorted(
        n
        for n in {name.lower() for name in names}
        if n not in DATA_SETTINGS and n not in REFUSED_SETTINGS and not _CODE_SETTING.search(n)
    )


# --- Every setting of each engine is reviewed ---------------------------------------------------


def test_the_lists_do_not_overlap() -> None:
    assert not DATA_SETTINGS & REFUSED_SETTINGS
    assert [n for n in DATA_SETTINGS if _CODE_SETTING.search(n)] == []


def test_every_duckdb_setting_is_on_a_list() -> None:
    connection = duckdb.connect()
    rows = connection.execute("select name from duckdb_settings()").fetchall()
    connection.close()
    assert unreviewed([name for (name,) in rows]) == []


def test_every_postgresql_setting_a_session_may_set_is_on_a_list(pg: Any) -> None:  # noqa: F811
    rows = pg.execute(
        "select name from pg_settings where context in ('user', 'superuser')"
    ).fetchall()
    assert unreviewed([name for (name,) in rows]) == []


def test_every_sqlite_pragma_is_on_a_list() -> None:
    connection = sqlite3.connect(":memory:")
    rows = connection.execute("select name from pragma_pragma_list").fetchall()
    connection.close()
    assert unreviewed([name for (name,) in rows if name not in _DATA_PRAGMAS]) == []


@pytest.mark.parametrize("name", sorted(REFUSED_SETTINGS))
def test_a_value_of_a_refused_setting_is_refused(name: str) -> None:
    for text, dialect in (
        (f"set {name} = {{v:l}}", "postgresql"),  # (DuckDB refuses search_path its own way)
        (f"pragma {name} = {{v:l}}", "sqlite"),
    ):
        with pytest.raises(RenderError, match=UNLISTED):
            _render(text, "qmark", dialect, v="x")


@pytest.mark.parametrize("name", sorted(DATA_SETTINGS))
def test_a_value_of_a_data_setting_is_accepted(name: str) -> None:
    """(Where only PostgreSQL runs the query: DuckDB's search_path and schema are refused by
    the twentieth pass's check of where functions are found.)"""
    assert "'1'" in _render(f"set {name} = {{v:l}}", "format", "postgresql", v="1").sql


def test_a_setting_on_no_list_is_refused() -> None:
    """An extension's setting DuckDB does not know offline, or a new one: refused until
    reviewed (the allow-list)."""
    with pytest.raises(RenderError, match=UNLISTED):
        _render("set s3_endpoint = {v:l}", "qmark", "duckdb", v="marker.invalid")


# --- DuckDB: temp_directory -------------------------------------------------------------------


def _spill(connection: Any) -> None:
    """The author's static statements: a temporary table larger than the memory limit."""
    connection.execute("set memory_limit = '40MB'")
    connection.execute("set threads = 1")
    connection.execute(
        "create temp table rows27 as "
        "select i, 'MARKER_ROW' || i::varchar as s from range(3000000) r(i)"
    )


def test_duckdb_temp_directory_receives_the_authors_spilled_rows(tmp_path: pathlib.Path) -> None:
    """The positive control: the render sql() gave before (a literal)."""
    directory = tmp_path / "value"
    author = duckdb.connect()
    author.execute(f"set temp_directory = '{directory}'")
    _spill(author)
    found = [p for p in directory.iterdir() if b"MARKER_ROW" in p.read_bytes()]
    author.close()
    assert found


# The twenty-sixth pass's spellings (set global, a quoted upper-case name, concat(), pragma,
# explain analyze), of temp_directory.
TEMP_DIRECTORY = [
    text.replace("secret_directory", "temp_directory").replace("SECRET_", "TEMP_")
    for text in SECRET_DIRECTORY
]


@pytest.mark.parametrize("dialect", ["duckdb", None])
@pytest.mark.parametrize("text", TEMP_DIRECTORY)
def test_temp_directory_from_a_value_is_refused(text: str, dialect: str | None) -> None:
    with pytest.raises(RenderError, match=UNLISTED):
        _render(text, "qmark", dialect, v="/tmp/value")


# --- PostgreSQL: search_path and session_replication_role -------------------------------------


def _carol_schema(pg: Any) -> None:  # noqa: F811
    """A schema holding a lower(varchar) that returns the marker, and the author's table."""
    pg.execute("create schema ipy_istring_carol27")
    pg.execute(
        "create function ipy_istring_carol27.lower(varchar) returns text language sql "
        "as $$ select 'MARKER' $$"
    )
    pg.execute("create table names27 (v varchar)")
    pg.execute("insert into names27 values ('ABC')")


def test_postgresql_one_schema_on_the_search_path_runs_its_lower(pg: Any) -> None:  # noqa: F811
    """The positive control: the render sql() gave before (set search_path to {s:i})."""
    _carol_schema(pg)
    try:
        assert pg.execute("select lower(v) from names27").fetchall() == [("abc",)]
        pg.execute('set search_path to "ipy_istring_carol27"')
        assert pg.execute("select lower(v) from ipy_istring_contexts.names27").fetchall() == [
            ("MARKER",)
        ]
    finally:
        pg.execute("set search_path to ipy_istring_contexts")
        pg.execute("drop schema ipy_istring_carol27 cascade")


SEARCH_PATH = [
    "set search_path to {s:i}",
    "set search_path = {s:i}",
    "set search_path = {s:l}",
    "set local search_path to {s:i}, public",
    "set schema {s:l}",
    "select set_config('search_path', {s}, false)",
    "alter role r27 set search_path = {s:l}",
    "create function f27() returns int language sql set search_path = {s:l} as 'select 1'",
    "create function f27(a int) returns int language sql set search_path = {s:i} as 'select 1'",
    "alter function f27() set search_path = {s:i}",
    "alter function f27() set work_mem = '1MB' set search_path to {s:i}",
]


@pytest.mark.parametrize("text", SEARCH_PATH)
def test_postgresql_search_path_from_a_value_is_refused(text: str) -> None:
    with pytest.raises(RenderError, match=UNLISTED):
        _render(text, "format", "postgresql", s="ipy_istring_carol27")


def test_postgresql_replica_role_stops_the_authors_trigger(pg: Any) -> None:  # noqa: F811
    """The positive control: the render sql() gave before (a literal)."""
    pg.execute("create table audited27 (v int)")
    pg.execute("create table audit27 (v int)")
    pg.execute(
        "create function log27() returns trigger language plpgsql as "
        "$$ begin insert into audit27 values (new.v); return new; end $$"
    )
    pg.execute("create trigger t27 after insert on audited27 for each row execute function log27()")
    try:
        pg.execute("insert into audited27 values (1)")
        pg.execute("set session_replication_role = 'replica'")
        pg.execute("insert into audited27 values (2)")
    finally:
        pg.execute("reset session_replication_role")
    assert pg.execute("select v from audit27").fetchall() == [(1,)]  # no row for 2
    with pytest.raises(RenderError, match=UNLISTED):
        _render("set session_replication_role = {v:l}", "format", "postgresql", v="replica")
    with pytest.raises(RenderError, match=UNLISTED):
        _render(
            "select set_config('session_replication_role', {v}, false)",
            "format",
            "postgresql",
            v="replica",
        )


# --- SQLite: ignore_check_constraints and the schema's switches ---------------------------------


def test_sqlite_ignore_check_constraints_lets_a_broken_row_in() -> None:
    """The positive control: the render sql() gave before (a literal)."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t27 (n int check (n > 0))")
    with pytest.raises(sqlite3.IntegrityError):
        connection.execute("insert into t27 values (-1)")
    connection.execute("pragma ignore_check_constraints = '1'")
    connection.execute("insert into t27 values (-1)")
    assert connection.execute("select n from t27").fetchall() == [(-1,)]
    connection.close()


SQLITE_SWITCHES = [
    "ignore_check_constraints",
    "writable_schema",
    "trusted_schema",
    "temp_store_directory",
]


@pytest.mark.parametrize("name", SQLITE_SWITCHES)
@pytest.mark.parametrize("text", ["pragma {name} = {{v:l}}", "pragma main.{name} = {{v:l}}"])
def test_sqlite_pragma_switches_from_a_value_are_refused(name: str, text: str) -> None:
    with pytest.raises(RenderError, match=UNLISTED):
        _render(text.format(name=name), "qmark", "sqlite", v=1)


# --- Held: ordinary settings run ----------------------------------------------------------------


def test_duckdb_ordinary_settings_take_values_and_run() -> None:
    connection = duckdb.connect()
    for text, value in (
        ("set threads = {v:l}", 2),
        ("set memory_limit = {v:l}", "1GB"),
        ("set timezone = {v:l}", "UTC"),
        ("set global threads to {v:l}", 3),
    ):
        connection.execute(_render(text, "qmark", "duckdb", v=value).sql)
    assert connection.execute("select current_setting('threads')").fetchone() == (3,)
    connection.close()


def test_postgresql_ordinary_settings_take_values_and_run(pg: Any) -> None:  # noqa: F811
    for text, value in (
        ("set statement_timeout = {v:l}", "1000"),
        ("set timezone = {v:l}", "UTC"),
        ("set time zone {v:l}", "UTC"),
        ("set work_mem = {v:l}", "8MB"),
        ("set local lock_timeout to {v:l}", "100"),
    ):
        pg.execute(_render(text, "format", "postgresql", v=value).sql)
    query = _render("select set_config('app.user27', {v}, false)", "format", "postgresql", v="u")
    pg.execute(query.sql, query.params)
    assert pg.execute("select current_setting('app.user27')").fetchone() == ("u",)
    assert pg.execute("show statement_timeout").fetchone() == ("1s",)


def test_sqlite_ordinary_pragmas_take_values_and_run() -> None:
    connection = sqlite3.connect(":memory:")
    for text, value in (("pragma busy_timeout = {v:l}", 500), ("pragma user_version = {v:l}", 7)):
        connection.execute(_render(text, "qmark", "sqlite", v=value).sql)
    assert connection.execute("pragma user_version").fetchone() == (7,)
    connection.close()


@pytest.mark.parametrize(
    "text",
    [
        "alter table t alter c set default {v:l}",
        "update t set c = {v} where id = 1",
        "alter role r27 set work_mem = {v:l}",
        "select set_config('role', {v}, false)",
    ],
)
def test_set_words_that_name_no_refused_setting_stay_accepted(text: str) -> None:
    assert _render(text, "format", "postgresql", v="8MB").sql


def test_a_file_search_path_from_a_value_is_refused(tmp_path: pathlib.Path) -> None:
    """A relative read the working directory lacks comes from the value's directory."""
    (tmp_path / "value").mkdir()
    (tmp_path / "value" / "only27.csv").write_text("v\nMARKER\n")
    author = duckdb.connect()
    author.execute(f"set file_search_path = '{tmp_path / 'value'}'")
    os_cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        assert author.execute("select v from read_csv('only27.csv')").fetchall() == [("MARKER",)]
    finally:
        os.chdir(os_cwd)
        author.close()
    with pytest.raises(RenderError, match=re.escape("sets a setting that is not")):
        _render("set file_search_path = {v:l}", "qmark", "duckdb", v=str(tmp_path))
