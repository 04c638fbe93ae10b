"""The twentieth red-team pass over sql(): where DuckDB finds functions, and PostgreSQL's
transforms and setting names.

Holes, each with its positive control below:

* DuckDB finds a function in the schemas of its search path before its built-in ones, and a
  value chose that place: with a database attached whose macro is named ``lower``,
  ``use {db:i}`` (also ``use {db:i}.{s:i}``), ``set search_path = {p}`` and ``set schema = {p}``
  (also ``{p:l}``, ``set global ... to``, ``pragma search_path = ...``) with ``"src"`` made every
  later ``lower('ABC')`` run that macro (DuckDB 2.0 and 1.5 alike), and ``copy from database
  {a:i} to {b:i}`` copied it into the default database, where it did the same.  Refused now
  where DuckDB may run the query; PostgreSQL's ``set search_path`` stays accepted (one schema,
  after pg_catalog: the sixteenth pass), and so do DuckDB's other settings' values.  Three
  earlier cases that accepted ``set search_path ... {s:i}`` in styles DuckDB may run (qmark,
  dollar with no dialect: test_sql.py's and two of the eleventh pass's look-alikes) are moved
  here, accepted where only PostgreSQL runs the query and refused where DuckDB may.
* PostgreSQL's ``CREATE FUNCTION / PROCEDURE ... TRANSFORM FOR TYPE {t:i}`` binds the
  transform for (the value's type, the language) to the routine, whose handler then runs the
  transform's functions on its arguments and results: with a transform for int4 in the
  language, ``"int4"`` bound it (pg_proc.protrftypes), and ``"int8"`` made PostgreSQL look up
  another ("transform for type bigint ... does not exist").  No procedural language that calls
  transforms (plpython3u, plperl) is installed here, so that the code runs is not shown; the
  check cannot prove any transform harmless, so the field is refused (also after a comma:
  ``for type int4, for type {t:i}``).

Checked and already refused (kept as a test): a setting's NAME from a value in ``ALTER
FUNCTION / PROCEDURE / ROUTINE ... SET``, ``ALTER DATABASE ... SET``, ``ALTER ROLE [... IN
DATABASE] ... SET``, ``RESET`` and ``CREATE FUNCTION ... SET``: PostgreSQL took ``alter role r
set "session_preload_libraries" = '...'`` (the library a login of r loads), so the message says
the value chooses the setting.

Attacks tried that held (kept as regression tests, each on the real database): a value of
search_path in ``ALTER ROLE / FUNCTION ... SET`` is one schema (``'a, pg_catalog'`` was stored
quoted, as one name); DuckDB looks a COPY format, a secret's type and its provider up by name
and loads no extension for an unknown one (a file where DuckDB looks up ``evil`` was not
opened); PostgreSQL reads a quoted name as no keyword in ``discard {x:i}`` and ``lock ... in
{m:i} mode`` (a syntax error).  Common notebook queries on DuckDB keep running: a ``USE`` written
in the text, settings' values, ``set variable``, ``copy ... to {p}``.
"""

from __future__ import annotations

import pathlib
import re
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg, role_name  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _fake_extension, _parts, _render
from test_sql_tenth_pass import refused_everywhere

from ipy_istring.fields import RenderError

# The styles and dialects in which DuckDB may run the query.
DUCKDB = (("qmark", "duckdb"), ("qmark", None), ("dollar", None), ("dollar", "duckdb"))


def _superuser(pg: Any) -> bool:  # noqa: F811
    row = pg.execute("select rolsuper from pg_roles where rolname = current_user").fetchone()
    return row == (True,)


# --- DuckDB: the database or schema functions are found in ------------------------------------


def _with_a_macro(tmp_path: pathlib.Path) -> Any:
    """A DuckDB connection with a database "src" attached whose macro lower() returns a
    marker, and whose default database has none."""
    connection = duckdb.connect()
    connection.execute(f"attach '{tmp_path / 'src.duckdb'}' as src")
    connection.execute("create macro src.lower(x) as 'MACRO RAN'")
    assert connection.execute("select lower('ABC')").fetchall() == [("abc",)]
    return connection


CHOOSERS = [
    ("use {db:i}", {"db": "src"}),
    ("use {db:i}.{s:i}", {"db": "src", "s": "main"}),
    ("set search_path = {p}", {"p": "src"}),
    ("set search_path = {p:l}", {"p": "src"}),
    ("set schema = {p}", {"p": "src.main"}),
    ("set global schema to {p}", {"p": "src.main"}),
    ("set search_path = concat({p}, '')", {"p": "src"}),
    ("copy from database {a:i} to {b:i}", {"a": "src", "b": "memory"}),
]


@pytest.mark.parametrize(("text", "values"), CHOOSERS)
def test_duckdb_runs_the_macros_of_the_database_a_value_chooses(
    tmp_path: pathlib.Path, text: str, values: dict[str, Any]
) -> None:
    # The positive control: the query sql() wrote before this pass, run as it is.
    connection = _with_a_macro(tmp_path)
    naive = re.sub(r"\{(\w+):i\}", lambda m: f'"{values[m[1]]}"', text)
    naive = re.sub(r"\{(\w+)(?::l)?\}", lambda m: f"'{values[m[1]]}'", naive)
    if text.startswith("set global"):
        naive = naive.replace("set global", "set")  # (a connection may not set it globally)
    connection.execute(naive)
    assert connection.execute("select lower('ABC')").fetchall() == [("MACRO RAN",)]
    for paramstyle, dialect in DUCKDB:
        with pytest.raises(RenderError, match="DuckDB finds functions in"):
            _render(text, paramstyle, dialect, **values)


def test_duckdb_pragma_search_path_is_refused_too() -> None:
    with pytest.raises(RenderError, match="DuckDB finds functions in"):
        _render("pragma search_path = {p:l}", "qmark", "duckdb", p="src")


def test_duckdb_keeps_a_written_use_and_other_settings(tmp_path: pathlib.Path) -> None:
    """Accepted and run: USE written in the text, other settings' values, a variable, COPY's
    path; PostgreSQL's search_path stays a value where only PostgreSQL runs the query."""
    connection = _with_a_macro(tmp_path)
    connection.execute("create table src.t20 (a int)")
    for text in ("use src; insert into t20 values ({n})", "set threads = {n:l}",
                 "set variable v20 = {n}", "select * from src.t20 where a = {n}",
                 "use memory; select lower({s})"):  # fmt: skip
        connection.execute(*_render(text, "qmark", "duckdb", n=2, s="ABC"))
    assert connection.execute("select lower('ABC')").fetchall() == [("abc",)]
    path = str(tmp_path / "out.csv")
    connection.execute(*_render("copy src.t20 to {p} (header)", "qmark", "duckdb", p=path))
    assert pathlib.Path(path).read_text().split() == ["a", "2"]


# Three cases of earlier passes accepted search_path's value in every style PostgreSQL may run
# the query in, DuckDB's among them: test_sql.py's set search_path to {s:i} (qmark: SQLite and
# DuckDB), and the eleventh pass's "public" and "none" look-alikes (dollar: PostgreSQL and
# DuckDB).  Moved here: accepted wherever only PostgreSQL runs the query (one schema, quoted;
# "public" and "none" are names there), and refused where DuckDB may (above).  Since the
# twenty-seventh pass refused there too: one schema holding a lower(varchar) made a later
# lower(v) of a varchar column run it (search_path is off the settings' allow-list).
POSTGRESQL_ONLY = (("format", None), ("pyformat", None), ("qmark", "postgresql"),
                   ("dollar", "postgresql"), ("qmark", "sqlite"))  # fmt: skip


@pytest.mark.parametrize("value", ["s", "public", "none"])
@pytest.mark.parametrize("text", ["set search_path to {s:i}", "set search_path = {s:i}"])
def test_postgresqls_search_path_from_a_value_is_refused_too(text: str, value: str) -> None:
    for paramstyle, dialect in POSTGRESQL_ONLY:
        with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
            _render(text, paramstyle, dialect, s=value)
    for paramstyle, dialect in (("qmark", None), ("dollar", None)):
        with pytest.raises(RenderError, match="DuckDB finds functions in"):
            _render(text, paramstyle, dialect, s=value)


# --- PostgreSQL: TRANSFORM FOR TYPE ---------------------------------------------------------


TRANSFORMS = [
    "create function f20(int) returns int language sql transform for type {t:i} as 'select 1'",
    "create or replace procedure p20() language sql transform for type int4, for type {t:i} "
    "as 'select 1'",
    "create function f20(int) returns int transform for type {t:i} language sql as 'select 1'",
]


def test_postgresql_binds_the_transform_of_the_type_a_value_names(pg: Any) -> None:  # noqa: F811
    if not _superuser(pg):
        pytest.skip("a transform's functions take internal: created by a superuser")
    # A transform for int4 in the language sql, from a built-in support function.
    pg.execute(
        "create function tr20(internal) returns internal language internal immutable strict "
        "as 'textregexeq_support'"
    )
    pg.execute("create transform for int4 language sql (from sql with function tr20(internal))")
    try:
        # The positive control: the query sql() wrote before this pass, run as it is.
        pg.execute(TRANSFORMS[0].replace("{t:i}", '"int4"'))
        bound = "select protrftypes::regtype[]::text from pg_proc where proname = 'f20'"
        assert pg.execute(bound).fetchall() == [("{integer}",)]
        with pytest.raises(Exception, match='transform for type bigint language "sql" does not'):
            pg.execute(TRANSFORMS[0].replace("f20", "f20b").replace("{t:i}", '"int8"'))
    finally:
        pg.execute("drop transform if exists for int4 language sql cascade")
    for text in TRANSFORMS:
        refused_everywhere(_parts(text, t="int4"), "names a type of TRANSFORM FOR TYPE")
    # A routine's parameter stays accepted (and runs).
    kept = "create function f20c({a:i} int) returns int language sql as 'select 1'"
    pg.execute(*_render(kept, "format", None, a="a"))


# --- PostgreSQL: a setting's name, and search_path's value ----------------------------------


SETTING_NAMES = [
    "alter function f20() set {k:i} = 'x'",
    "alter procedure p20() set {k:i} to 'x'",
    "alter routine f20() set search_path = public set {k:i} = 'x'",
    "alter database d20 set {k:i} = 'x'",
    "alter role r20 set {k:i} = 'x'",
    "alter role r20 in database d20 set {k:i} from current",
    "alter user r20 reset {k:i}",
    "create function f20() returns int language sql set {k:i} = 'x' as 'select 1'",
]


def test_postgresql_stores_a_setting_a_value_names(pg: Any) -> None:  # noqa: F811
    """``alter role r set "session_preload_libraries" = ...``: the quoted name is the setting,
    so a login of r would load that library.  Refused, as every setting's name from a value."""
    role = role_name(pg, "r20")
    pg.execute(f"drop role if exists {role}")
    pg.execute(f"create role {role}")
    try:
        # The positive control (the role never logs in; the library does not exist).
        pg.execute(f"alter role {role} set \"session_preload_libraries\" = 'ipy_istring_mark'")
        stored = (
            "select setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole "
            f"where r.rolname = '{role}'"
        )
        assert pg.execute(stored).fetchall() == [(["session_preload_libraries=ipy_istring_mark"],)]
        # A value of search_path is one schema there, as in SET (the render sql() gave
        # before the twenty-seventh pass, which refuses the value).
        pg.execute(f"alter role {role} set search_path = 'a, pg_catalog'")
        assert pg.execute(stored).fetchall() == [
            (["session_preload_libraries=ipy_istring_mark", 'search_path="a, pg_catalog"'],)
        ]
        with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
            _render(f"alter role {role} set search_path = {{s:l}}", "format", None, s="a")
    finally:
        pg.execute(f"alter role {role} reset all")
        pg.execute(f"drop role {role}")
    for text in SETTING_NAMES:
        refused_everywhere(_parts(text, k="session_preload_libraries"), "names the setting")


def test_postgresql_keeps_a_functions_search_path_one_schema(pg: Any) -> None:  # noqa: F811
    pg.execute("create function f20() returns int language sql as 'select 1'")
    # (the renders sql() gave before the twenty-seventh pass, which refuses the value)
    for spec, written in (("l", "'a, pg_catalog'"), ("i", '"a, pg_catalog"')):
        pg.execute(f"alter function f20() set search_path = {written}")
        config = pg.execute("select proconfig from pg_proc where proname = 'f20'").fetchall()
        assert config == [(['search_path="a, pg_catalog"'],)]
        with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
            _render(f"alter function f20() set search_path = {{s:{spec}}}", "format", None, s="a")


@pytest.mark.parametrize(
    "text", ["discard {x:i}", "lock table t20 in {x:i} mode", "lock t20 in {x:i} mode"]
)
def test_postgresql_reads_no_keyword_from_a_quoted_name(pg: Any, text: str) -> None:  # noqa: F811
    pg.execute("create table t20 (a int)")
    for value in ("all", "access share", "plans"):
        with pytest.raises(Exception, match="syntax error"):
            pg.execute(*_render(text, "format", None, x=value))


# --- DuckDB: names it looks up and loads nothing for -----------------------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("copy (select 1) to {p} (format {f:i})", "Copy Function with name evil does not exist"),
        ("copy (select 1) to {p} (format {f:l})", "Copy Function with name evil does not exist"),
        ("copy (select 1) to {p} (format {f})", "Copy Function with name evil does not exist"),
        ("create secret (type {f:i})", "Secret type [\"']evil[\"'] not found"),
        ("create secret (type s3, provider {f:i})", "Secret provider [\"']evil[\"'] not found"),
    ],
)
def test_duckdb_loads_no_extension_for_a_format_or_secret_type(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, text: str, error: str
) -> None:
    monkeypatch.chdir(tmp_path)
    connection, extension = _fake_extension(tmp_path)
    query = _render(text, "qmark", "duckdb", p=str(tmp_path / "out.x"), f="evil")
    with pytest.raises(duckdb.Error, match=error) as raised:
        connection.execute(*query)
    # the file where DuckDB looks up the extension "evil" was not opened as one (as ATTACH's
    # 'evil:x.db' did: "... is not a DuckDB extension")
    assert str(extension) not in str(raised.value)
    assert "not a DuckDB extension" not in str(raised.value)
