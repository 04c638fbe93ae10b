"""The fifteenth red-team pass over sql(): the rest of the catalog's write positions, and
over-refusals.

* The fourteenth pass refused the engines' own tables where UPDATE, INSERT/MERGE INTO,
  TRUNCATE and LOCK write and where GRANT/REVOKE ... ON grant.  PostgreSQL (a superuser's
  connection, as a notebook often has) takes its catalog's relations in more places: CREATE
  TABLE ... INHERITS ("pg_authid") made the new table's rows rows of pg_authid and pg_roles (a
  superuser 'mallory' that is no role), CREATE TRIGGER ... ON "pg_roles" and CREATE RULE ... TO
  "pg_roles" attach the template's code to the catalog's view, DROP VIEW / ALTER VIEW /
  ALTER TABLE IF EXISTS drop it or give it away, VACUUM FULL rewrites a catalog table under
  the lock every login waits for, and a list (drop table a, {t:i}; grant select on a, {t:i})
  names one after a comma.  SQLite drops its planner statistics (drop table if exists
  "sqlite_stat1").  DuckDB refuses all of these itself ("Cannot drop internal catalog entry").
  (PostgreSQL refuses its catalog tables itself after REFERENCES, ALTER TABLE ... INHERIT,
  CREATE INDEX ... ON and CREATE POLICY ... ON, and SQLite after CREATE TRIGGER ... ON, so
  those stay as they were.)
* Over-refusals (N3): a field touching '%' ({n}%2, modulo written without spaces), a numpy
  number as ':l' (a pandas value in a notebook: numpy.int64, numpy.bool_), and a ':i' type
  right after PostgreSQL's cast '::' (a::{t:i}, {x}::{t:i}; cast({x} as {t:i}) was accepted).
* Found on the way: GRANT/REVOKE ... ON PARAMETER {p:i} and ON FUNCTION / PROCEDURE / ROUTINE
  {f:i} let a value choose the setting or the routine a role gets: "session_preload_libraries"
  let the role make the server load its library at login, "pg_read_file" read server files;
  and ALTER FUNCTION {f:i} ... OWNER TO gave a role the catalog's "pg_read_file", ALTER
  SCHEMA {s:i} the "pg_catalog" schema (where its function then ran for a superuser), and
  ALTER TYPE {t:i} the type "text" (whose casts its owner may create).
"""

from __future__ import annotations

import pathlib
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg, role_name  # noqa: F401  # pg: the fixture the tests ask for
from test_sql_eleventh_pass import reader
from test_sql_tenth_pass import T, field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql

CATALOG = "one of PostgreSQL's catalog tables"

# --- F7: the catalog's relations in the rest of the places a statement writes them. ------------

CATALOG_CHANGES = [
    ("create table c (a int) inherits (", field("pg_authid", "t", "i"), ")"),
    ("create table c (a int) inherits (parent, ", field("pg_authid", "t", "i"), ")"),
    ("create trigger tr instead of insert on ", field("pg_roles", "v", "i"),
     " for each row execute function fn()"),
    ("create constraint trigger tr after insert on ", field("pg_authid", "t", "i"),
     " for each row execute function fn()"),
    ("drop trigger tr on ", field("pg_roles", "v", "i"), ""),
    ("alter trigger tr on ", field("pg_roles", "v", "i"), " rename to tr2"),
    ("create or replace rule r as on insert to ", field("pg_roles", "v", "i"),
     " do instead nothing"),
    ("drop rule r on ", field("pg_settings", "v", "i"), ""),  # readable, not writable
    ("drop view ", field("pg_roles", "v", "i"), ""),
    ("drop view if exists ", field("pg_roles", "v", "i"), " cascade"),
    ("drop materialized view ", field("pg_roles", "v", "i"), ""),
    ("alter view ", field("pg_roles", "v", "i"), " owner to alice"),
    ("alter table if exists ", field("pg_roles", "v", "i"), " owner to alice"),
    ("alter table ", field("pg_settings", "v", "i"), " owner to alice"),  # readable only
    ("alter table if exists only ", field("pg_authid", "t", "i"), " owner to alice"),
    ("drop table if exists ", field("pg_authid", "t", "i"), ""),
    ("drop sequence ", field("pg_x", "s", "i"), ""),
    ("drop table a, ", field("pg_authid", "t", "i"), " cascade"),
    ("truncate a, ", field(("pg_catalog", "pg_largeobject"), "t", "i"), ""),
    ("lock table a, ", field("pg_authid", "t", "i"), " in access exclusive mode"),
    ("grant select on a, ", field("pg_authid", "t", "i"), " to alice"),
    ("revoke select on a, ", field("pg_authid", "t", "i"), " from alice"),
    ("vacuum ", field("pg_authid", "t", "i"), ""),
    ("vacuum full ", field("pg_authid", "t", "i"), ""),
    ("vacuum (full, analyze) a, ", field("pg_authid", "t", "i"), ""),
    ("analyze verbose ", field("pg_statistic", "t", "i"), ""),
    ("cluster ", field("pg_authid", "t", "i"), " using pg_authid_rolname_index"),
]  # fmt: skip


def test_the_catalog_is_no_relation_a_value_attaches_to_drops_or_rewrites(pg: Any) -> None:  # noqa: F811
    import psycopg

    if pg.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("the positive controls change the catalog, as a superuser may")
    pg.execute("create table log (s text)")
    pg.execute(
        "create function fn() returns trigger language plpgsql as $$begin "
        "insert into log values (tg_table_name || ' ' || tg_op); return null; end$$"
    )
    mallory = role_name(pg, "mallory")

    def superuser() -> Any:
        return pg.execute("select rolsuper from pg_roles where rolname = %s", [mallory]).fetchone()

    # The positive controls, each in a transaction rolled back: the text sql() wrote before
    # this pass made a superuser appear in pg_roles, ran the template's trigger for an insert
    # into pg_roles, dropped the catalog's view, granted the password hashes, gave a role
    # pg_settings.
    with pg.transaction(force_rollback=True):
        pg.execute('create table c (a int) inherits ("pg_authid")')
        pg.execute("insert into c (oid, rolname, rolsuper, rolinherit, rolcreaterole, "
                   "rolcreatedb, rolcanlogin, rolreplication, rolbypassrls, rolconnlimit) "
                   "values (4294967000, %s, true, true, true, true, true, true, true, -1)",
                   [mallory])  # fmt: skip
        assert superuser() == (True,)
    assert superuser() is None
    with pg.transaction(force_rollback=True):
        pg.execute('create trigger tr instead of insert on "pg_roles" for each row '
                   "execute function fn()")  # fmt: skip
        pg.execute("insert into pg_roles (rolname) values ('x')")
        assert pg.execute("select s from log").fetchall() == [("pg_roles INSERT",)]
    with pg.transaction(force_rollback=True):
        pg.execute('drop view if exists "pg_roles" cascade')
        assert pg.execute("select to_regclass('pg_catalog.pg_roles')").fetchone() == (None,)
    with pg.transaction(force_rollback=True):
        pg.execute("create table a (x int)")
        pg.execute(f"create role {mallory}")
        pg.execute(f'grant select on a, "pg_authid" to "{mallory}"')
        privilege = "select has_table_privilege(%s, 'pg_authid', 'select')"
        assert pg.execute(privilege, [mallory]).fetchone() == (True,)
        # ALTER TABLE takes a view: the role owns the catalog's pg_settings (its rules too).
        pg.execute(f'alter table "pg_settings" owner to "{mallory}"')
        owner = "select viewowner from pg_views where viewname = 'pg_settings'"
        assert pg.execute(owner).fetchone() == (mallory,)
    # And VACUUM FULL rewrote the shared catalog table (a new file, under its exclusive lock).
    filenode = "select pg_relation_filenode('pg_catalog.pg_authid')"
    before = pg.execute(filenode).fetchone()
    pg.execute('vacuum full "pg_authid"')
    assert pg.execute(filenode).fetchone() != before
    for parts in CATALOG_CHANGES:
        refused_everywhere(parts, CATALOG)
    # Look-alikes run: the same statements on the application's own relations, and names
    # that are no relation there (a column in ANALYZE's parentheses, a rule's new name).
    pg.execute('create table parent (a int, "pg_x" int)')
    pg.execute("create view v as select a from parent")
    accepted = [
        ("create table c (b int) inherits (", field("parent", "t", "i"), ")"),
        ("create trigger tr instead of insert on ", field("v", "v", "i"),
         " for each row execute function fn()"),
        ("create rule r as on update to ", field("v", "v", "i"), " do instead nothing"),
        ("alter rule r on v rename to ", field("pg_r", "n", "i"), ""),
        ("grant select on parent, ", field("c", "t", "i"), " to ", field(mallory, "r", "i")),
        ("revoke select on parent, ", field("c", "t", "i"), " from ", field(mallory, "r", "i")),
        ("analyze parent (", field("pg_x", "c", "i"), ")"),
        ("lock table parent, ", field("c", "t", "i"), ""),
    ]  # fmt: skip
    pg.execute(f"create role {mallory}")
    try:
        with pg.transaction():
            for parts in accepted:
                pg.execute(*sql(T(*parts), "format"))
    finally:
        pg.execute(f"drop owned by {mallory}")
        pg.execute(f"drop role {mallory}")
    pg.execute("insert into v values (1)")
    assert pg.execute("select s from log").fetchall() == [("v INSERT",)]
    for parts in [
        ("vacuum full ", field("parent", "t", "i"), ""),
        ("drop view if exists ", field("v", "v", "i"), ""),
        ("drop table if exists c, ", field("parent", "t", "i"), ""),
    ]:
        pg.execute(*sql(T(*parts), "format"))
    assert pg.execute("select to_regclass('parent')").fetchone() == (None,)
    with pytest.raises(psycopg.errors.UndefinedTable):
        pg.execute("select * from v")


def test_sqlite_s_statistics_are_no_table_a_value_drops(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (a int)")
    connection.execute("create index i on t (a)")
    connection.execute("analyze")
    # The positive control: the text sql() wrote before this pass dropped the statistics.
    connection.execute('drop table if exists "sqlite_stat1"')
    assert connection.execute("select name from sqlite_schema").fetchall() == [("t",), ("i",)]
    for parts in [
        ("drop table if exists ", field("sqlite_stat1", "t", "i"), ""),
        ("drop table if exists ", field("sqlite_stat1", "t", "l"), ""),
        ("analyze ", field("sqlite_schema", "t", "i"), ""),
    ]:
        with pytest.raises(RenderError, match="one of SQLite's own tables"):
            sql(T(*parts))
    # Look-alikes run: VACUUM INTO's file, whatever its name, and a table of one's own.
    monkeypatch.chdir(tmp_path)
    connection.execute(*sql(T("vacuum into ", field("sqlite_backup.db", "f", "l"), "")))
    assert (tmp_path / "sqlite_backup.db").exists()
    connection.execute(*sql(T("drop table if exists ", field("t", "t", "i"), "")))
    assert connection.execute("select name from sqlite_schema").fetchall() == []
    connection.close()


# --- N3: over-refusals. ------------------------------------------------------------------------


def engines(db: Any) -> list[tuple[str, Any]]:
    """Run a template where each database reads it: sqlite3, DuckDB, PostgreSQL (format and
    pyformat, psycopg's styles); each runner returns the rows."""
    lite, duck = sqlite3.connect(":memory:"), duckdb.connect()
    return [
        ("sqlite", lambda t: lite.execute(*sql(t)).fetchall()),
        ("duckdb", lambda t: duck.execute(*sql(t, dialect="duckdb")).fetchall()),
        ("format", lambda t: db.execute(*sql(t, "format")).fetchall()),
        ("pyformat", lambda t: db.execute(*sql(t, "pyformat")).fetchall()),
    ]


def test_a_field_may_touch_a_modulo_sign(pg: Any) -> None:  # noqa: F811
    # '%' ends and starts a token whatever the value is, as '*' and '/' do (in the percent
    # styles the text's '%' is written '%%', and the driver reads it back).
    for parts, rows in [
        (("select ", field(7, "n"), "%2"), [(1,)]),
        (("select 7%", field(3, "n"), ""), [(1,)]),
        (("select ", field(-7, "n", "l"), "%2"), [(-1,)]),
        (("select 7%", field(-3, "n", "l"), ""), [(1,)]),
        (("select ", field([7], "xs", "in"), "%2"), [(1,)]),
        (("select a%", field("b", "c", "i"), " from (select 7 as a, 4 as b) t"), [(3,)]),
    ]:
        for name, run in engines(pg):
            assert run(T(*parts)) == rows, name


def test_a_numpy_number_is_a_literal(pg: Any) -> None:  # noqa: F811
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"n": [7], "b": [True], "x": [0.5]}).astype({"x": "float32"})
    n, b, x = frame["n"].iloc[0], frame["b"].iloc[0], frame["x"].iloc[0]  # numpy's own types
    template = T("select ", field(n, "n", "l"), " % 4, ", field(b, "b", "l"), ", ",
                 field(x, "x", "l"), " * 2")  # fmt: skip
    assert sql(template).sql == "select 7 % 4, TRUE, 0.5 * 2"
    for name, run in engines(pg):
        assert run(template) in ([(3, 1, 1.0)], [(3, True, 1)]), name
    # The rest of numpy's scalars stay refused: a long double (float() would round it), a
    # complex, a date.
    numpy = pytest.importorskip("numpy")
    for value in [numpy.longdouble("0.1"), numpy.complex128(1), numpy.datetime64("2020-01-01")]:
        if isinstance(value, float):
            continue  # a long double that is a double on this platform
        with pytest.raises(RenderError, match="has no safe SQL literal"):
            sql(T("select ", field(value, "x", "l"), ""))


def test_a_named_type_may_follow_a_cast_sign(pg: Any) -> None:  # noqa: F811
    # The value is written quoted, and '"' starts a token after '::' in every dialect:
    # PostgreSQL reads x::"int4" as cast(x as "int4"), which sql() accepts.
    for parts in [
        ("select '5'::", field("int4", "t", "i"), " + 1"),
        ("select ", field("5"), "::", field("int4", "t", "i"), " + 1"),
        ("select ", field("5"), "::", field(("pg_catalog", "int4"), "t", "i"), " + 1"),
    ]:
        assert pg.execute(*sql(T(*parts), "format")).fetchall() == [(6,)]
    cast = sql(T("select '5'::", field("int4", "t", "i"), " + 1"), dialect="duckdb")
    assert duckdb.connect().execute(*cast).fetchall() == [(6,)]
    # Only a name: a literal or a parameter there would be no type, and SQLite reads
    # :x::... as one parameter's name.
    for parts, paramstyle in [
        (("select a::", field("text", "t", "l"), ""), "format"),
        (("select a::", field("text", "t"), ""), "format"),
        (("select ", field("5"), "::", field("int4", "t", "i"), ""), "named"),
        (("select a::", field("int4", "t", "i"), "(", field(1), ")"), "format"),
    ]:
        with pytest.raises(RenderError, match="touches its neighbours"):
            sql(T(*parts), paramstyle)
    # DuckDB's dot call after the type stays refused: {x}::{t:i}.{f:i} ().
    dotted = T("select ", field("a"), "::", field("varchar", "t", "i"), ".",
               field("getvariable", "f", "i"), " ()")  # fmt: skip
    with pytest.raises(RenderError, match="function"):
        sql(dotted, dialect="duckdb")


# --- GRANT/REVOKE ... ON PARAMETER / FUNCTION: the setting or the routine a role gets. --------

GRANTED_NAMES = [
    ("grant set on parameter ", field("session_preload_libraries", "p", "i"), " to alice"),
    ("grant alter system on parameter ", field("archive_command", "p", "i"), " to alice"),
    ("grant set, alter system on parameter work_mem, ", field("dynamic_library_path", "p", "i"),
     " to alice"),
    ("grant all on parameter ", field(("plperl", "on_init"), "p", "i"), " to alice"),
    ("revoke set on parameter ", field("session_preload_libraries", "p", "i"), " from alice"),
    ("grant execute on function ", field("pg_read_file", "f", "i"), " (text) to alice"),
    ("grant all on function ", field(("pg_catalog", "lo_export"), "f", "i"), " to alice"),
    ("grant execute on routine ", field("lo_import", "f", "i"), " to alice"),
    ("grant execute on procedure p (int), ", field("pg_read_file", "f", "i"), " to alice"),
    ("revoke execute on function ", field("pg_read_file", "f", "i"), " (text) from alice"),
]  # fmt: skip
ALTERED_ROUTINES = [
    ("alter function ", field("pg_read_file", "f", "i"), " (text) owner to alice"),
    ("alter routine pg_catalog.", field("lo_export", "f", "i"), " owner to alice"),
    ("alter aggregate ", field("count", "f", "i"), " (text) owner to alice"),
    # test_sql_twelfth_pass.py's look-alike until this pass, kept here as a refusal
    ("alter function ", field("f", "f", "i"), " (text, text) owner to current_user"),
]  # fmt: skip


def test_a_granted_setting_or_routine_is_no_value_s_choice(
    request: pytest.FixtureRequest,
) -> None:
    import psycopg

    with reader(request, "grantee") as (db, dsn, name):

        def run(query: str) -> str:
            with psycopg.connect(dsn, autocommit=True) as other:
                try:
                    cursor = other.execute(query)
                    return str(cursor.fetchone() if cursor.description else cursor.statusmessage)
                except psycopg.errors.InsufficientPrivilege:
                    return "refused"

        def login() -> str:
            try:
                psycopg.connect(dsn).close()
            except psycopg.OperationalError as error:
                return str(error)
            return "in"

        # The positive controls: the text sql() wrote before this pass let the role read a
        # server file, and load a library of its choice at its next login.
        read = "select left(pg_read_file('PG_VERSION'), 2)"
        assert run(read) == "refused"
        db.execute(f'grant execute on function "pg_read_file" (text) to "{name}"')
        assert run(read) != "refused"
        db.execute(f"revoke execute on function pg_read_file (text) from {name}")
        preload = f"alter role {name} set session_preload_libraries = 'ipy_istring_no_such_lib'"
        assert run(preload) == "refused"
        db.execute(f'grant set on parameter "session_preload_libraries" to "{name}"')
        try:
            assert run(preload) == "ALTER ROLE"
            assert 'could not access file "ipy_istring_no_such_lib"' in login()
        finally:
            db.execute(f"alter role {name} reset all")
            db.execute(f"revoke set on parameter session_preload_libraries from {name}")
        assert login() == "in"
        # And ALTER ... OWNER TO hands the function's EXECUTE to its new owner: the files.
        owner = "select proowner::regrole::text from pg_proc where oid = %s::regprocedure"
        (original,) = db.execute(owner, ["pg_read_file(text)"]).fetchone()
        db.execute(f'alter function "pg_read_file" (text) owner to "{name}"')
        try:
            assert run(read) != "refused"
        finally:
            db.execute(f"alter function pg_read_file (text) owner to {original}")
        assert run(read) == "refused"
        # Look-alikes run: the setting or routine in the text, the role and a type from values.
        db.execute("create function app_f (a text) returns text language sql as 'select a'")
        for parts in [
            ("grant set on parameter work_mem to ", field(name, "r", "i"), ""),
            ("grant execute on function app_f (", field("text", "t", "i"), ") to ",
             field(name, "r", "i")),
            ("grant execute on all functions in schema ", field("ipy_istring_contexts", "s", "i"),
             " to ", field(name, "r", "i")),
        ]:  # fmt: skip
            db.execute(*sql(T(*parts), "format"))
        assert run("select ipy_istring_contexts.app_f('a')") == "('a',)"
        db.execute(f"revoke set on parameter work_mem from {name}")
    for parts in GRANTED_NAMES:
        refused_everywhere(parts, "GRANT or REVOKE gives or takes")
    for parts in ALTERED_ROUTINES:
        refused_everywhere(parts, "names the function ALTER changes")


# --- The catalog's schemas where a statement writes them. -------------------------------------

CATALOG_SCHEMAS = [
    ("alter schema ", field("pg_catalog", "s", "i"), " owner to alice"),
    ("alter schema ", field("information_schema", "s", "i"), " owner to alice"),
    ("drop schema app, ", field("information_schema", "s", "i"), " cascade"),
    ("grant create on schema ", field("information_schema", "s", "i"), " to alice"),
    ("drop view ", field(("information_schema", "tables"), "v", "i"), ""),
]  # fmt: skip


def test_the_catalog_s_schemas_are_no_schema_a_value_gives_away(
    request: pytest.FixtureRequest,
) -> None:
    import psycopg

    with reader(request, "planter") as (db, dsn, name):
        db.execute("create temp table v (w varchar)")
        db.execute("insert into v values ('x')")
        owner = "select nspowner::regrole::text from pg_namespace where nspname = 'pg_catalog'"
        (original,) = db.execute(owner).fetchone()
        # The positive control: the text sql() wrote before this pass gave the role the
        # catalog's schema, where it put a function the superuser's upper() then ran.
        db.execute(f'alter schema "pg_catalog" owner to "{name}"')
        try:
            with psycopg.connect(dsn, autocommit=True) as planter:
                planter.execute("create function pg_catalog.upper (varchar) returns text "
                                "language sql as $$select 'planted'$$")  # fmt: skip
            assert db.execute("select upper(w) from v").fetchall() == [("planted",)]
        finally:
            db.execute("drop function if exists pg_catalog.upper (varchar)")
            db.execute(f"alter schema pg_catalog owner to {original}")
        assert db.execute("select upper(w) from v").fetchall() == [("X",)]
        # Look-alikes run: a schema of one's own; the information schema read.
        db.execute("create schema ipy_istring_planted")
        try:
            query = T("alter schema ", field("ipy_istring_planted", "s", "i"), " owner to ",
                      field(name, "r", "i"))  # fmt: skip
            db.execute(*sql(query, "format"))
        finally:
            db.execute("drop schema ipy_istring_planted")
        tables = T("select count(*) > 0 from ", field(("information_schema", "tables"), "t", "i"))
        assert db.execute(*sql(tables, "format")).fetchone() == (True,)
    for parts in CATALOG_SCHEMAS:
        refused_everywhere(parts, CATALOG)


# --- The built-in type ALTER TYPE changes. -----------------------------------------------------


def test_a_built_in_type_is_no_type_a_value_gives_away(request: pytest.FixtureRequest) -> None:
    import psycopg

    with reader(request, "caster") as (db, dsn, name):
        db.execute(f"grant create on schema ipy_istring_contexts to {name}")
        owner = "select typowner::regrole::text from pg_type where oid = 'text'::regtype"
        (original,) = db.execute(owner).fetchone()
        # The positive control: the text sql() wrote before this pass gave the role the type
        # text, and the cast it then made from text ran its function in the superuser's query.
        db.execute(f'alter type "text" owner to "{name}"')
        try:
            with psycopg.connect(dsn, autocommit=True) as caster:
                caster.execute("create function ipy_istring_contexts.cast_f (text) returns int4 "
                               "language sql as 'select 42'")  # fmt: skip
                caster.execute("create cast (text as int4) with function "
                               "ipy_istring_contexts.cast_f (text)")  # fmt: skip
            assert db.execute("select '5'::text::int4").fetchone() == (42,)
        finally:
            db.execute("drop cast if exists (text as int4)")
            db.execute(f"alter type text owner to {original}")
        assert db.execute("select '5'::text::int4").fetchone() == (5,)
        # Look-alikes run: a type of one's own, a built-in type where no ALTER TYPE changes it.
        db.execute("create type mood as enum ('sad')")
        for parts in [
            ("alter type ", field("mood", "t", "i"), " owner to ", field(name, "r", "i")),
            ("alter type mood add value ", field("text", "v", "l"), ""),
            ("create table typed (c ", field("text", "t", "i"), ")"),
            ("alter table typed alter column c type ", field("varchar", "t", "i"), ""),
        ]:
            db.execute(*sql(T(*parts), "format"))
    for parts in [
        ("alter type ", field("text", "t", "i"), " owner to alice"),
        ("alter domain ", field("int4", "t", "i"), " owner to alice"),
        ("alter type pg_catalog.", field("int4", "t", "i"), " owner to alice"),
        ("alter type ", field(("pg_catalog", "regclass"), "t", "i"), " owner to alice"),
    ]:
        refused_everywhere(parts, "one of PostgreSQL's built-in types")
