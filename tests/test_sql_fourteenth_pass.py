"""The fourteenth red-team pass over sql(): the catalog's names in more positions.

* The thirteenth pass refused ``alias.{c:i}`` when PostgreSQL may run a statement whose FROM
  calls a function (``u.ts_stat`` is ``ts_stat(u)``), but saw the dot only in the text and the
  call only after FROM: a tuple value ``("u", "ts_stat")`` wrote the dot, a ``{xs:in}`` list
  was the call's arguments (``regexp_split_to_table (%s, %s) w``), and a function after JOIN,
  LATERAL or MERGE's USING made no call; each ran the parameter as SQL, or read a server file.
  The calls are read at every item of FROM now, and a tuple value where a column goes counts
  as a dot.  A parameter before a dot is PostgreSQL's attribute call too (``$1 .f``).
* The role refusals compared the value with ``"public"`` and ``"none"``, so ``("public",)``,
  written ``"public"`` all the same, granted a table to every role.  And a role granted or
  joined may not be one of PostgreSQL's predefined ``pg_*`` roles: ``grant {r:i} to alice``
  with ``"pg_execute_server_program"`` let alice run shell commands.
* The catalog's own tables were refused only where a table is read: ``update {t:i}`` with
  ``"pg_authid"`` made a role a superuser, ``grant select on {t:i}`` showed the password
  hashes, and SQLite's ``insert into {t:l}`` wrote ``sqlite_stat1``.  They are refused where a
  table is written or granted too.  And SQLite's full-text ``content={t:i}`` reads the table it
  names: ``"sqlite_stmt"`` served the cached statements' SQL.
* A name that shadows the catalog's was refused for CREATE TEMP only: ``alter view v rename
  to {v:i}`` and ``select ... into temp {t:i}`` made the same shadows, and DuckDB finds a plain
  (not temporary) view before its system views, in every later connection to the file.
* PostgreSQL's ``table_to_xml({t}::regclass, ...)`` and ``cursor_to_xml({c}, ...)`` read the
  catalog view or the session cursor their argument names, which ``from {t:i}`` refuses.
"""

from __future__ import annotations

import pathlib
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which the tests ask for
from test_sql_eleventh_pass import reader
from test_sql_tenth_pass import POSTGRESQL, T, field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql

SECRET_LEXEMES = "select to_tsvector('simple', s) from secrets"
CALLED = r"PostgreSQL reads alias\.name as the call"


def secrets(db: Any) -> None:
    db.execute("create table secrets (s text)")
    db.execute("insert into secrets values ('hunter2')")


# --- F1: alias.{c:i} of a function in FROM, however the dot and the call are written. --------

FUNCTION_ALIASES = [
    # a tuple value writes the dot
    ("select ", field(("u", "ts_stat"), "c", "i"), " from unnest(", field([SECRET_LEXEMES], "q"),
     "::text[]) u"),
    # a {xs:in} list is the call's arguments
    ("select w.", field("ts_stat", "c", "i"), " from regexp_split_to_table ",
     field([SECRET_LEXEMES, ";"], "xs", "in"), " w"),
    # the function after JOIN, LATERAL, MERGE's USING
    ("select u.", field("ts_stat", "c", "i"), " from secrets s join unnest(",
     field([SECRET_LEXEMES], "q"), "::text[]) u on true"),
    ("select u.", field("ts_stat", "c", "i"), " from secrets s cross join lateral unnest(",
     field([SECRET_LEXEMES], "q"), "::text[]) u"),
    ("select u.", field("ts_stat", "c", "i"), " from secrets s left join lateral unnest(",
     field([SECRET_LEXEMES], "q"), "::text[]) u on true"),
    ("merge into tgt using unnest(", field(["PG_VERSION"], "p"),
     "::text[]) u on true when matched then update set v = u.", field("pg_read_file", "c", "i"),
     ""),
    # a function written as a keyword
    ("select u.", field("ts_stat", "c", "i"), " from current_user u"),
]  # fmt: skip


def test_a_function_alias_is_no_row_however_the_dot_or_the_call_is_written(pg: Any) -> None:  # noqa: F811
    secrets(pg)
    pg.execute("create table tgt (id int, v text)")
    pg.execute("insert into tgt values (1, 'x')")
    # The positive controls: the queries sql() wrote before this pass, run as they were.
    lexemes = [SECRET_LEXEMES]
    for naive, params in [
        ('select "u"."ts_stat" from unnest(%s::text[]) u', [lexemes]),
        ('select w."ts_stat" from regexp_split_to_table (%s, %s) w', [SECRET_LEXEMES, ";"]),
        ('select u."ts_stat" from secrets s join unnest(%s::text[]) u on true', [lexemes]),
    ]:
        assert "hunter2" in str(pg.execute(naive, params).fetchall())
    pg.execute("merge into tgt using unnest(%s::text[]) u on true when matched then update "
               'set v = u."pg_read_file"', [["PG_VERSION"]])  # fmt: skip
    version = pg.execute("show server_version_num").fetchone()[0][:2]
    assert pg.execute("select v from tgt").fetchall() == [(f"{version}\n",)]  # a server file
    for parts in FUNCTION_ALIASES:
        refused_everywhere(parts, "alias.name as the call|a qualified name")
    # Look-alikes run: a table's alias, a call in ON, a plain name beside a function in FROM,
    # a qualified table, a tuple where no function is in FROM.
    pg.execute("create table t (id int, v text)")
    pg.execute("insert into t values (1, 'a')")
    accepted = [
        ("select t.", field("v", "c", "i"), " from t join t u on lower(t.v) = u.v"),
        ("select ", field("v", "c", "i"), " from t join unnest(", field([1], "ids"),
         "::int[]) u on u = t.id"),
        ("select v from ", field(("ipy_istring_contexts", "t"), "t", "i"), ", unnest(",
         field([1], "ids"), "::int[]) u"),
        ("select ", field(("t", "v"), "c", "i"), " from t join t u using (id)"),
        ("select t.", field("v", "c", "i"), " from t where id in (select count(*) from t)"),
    ]  # fmt: skip
    for parts in accepted:
        assert pg.execute(*sql(T(*parts), "format")).fetchall() == [("a",)]
    # A declaration's parentheses are no call: create table t2 (w) as select t.{c:i} from t.
    created = T("create table t2 (w) as select t.", field("v", "c", "i"), " from t")
    pg.execute(*sql(created, "format"))
    assert pg.execute("select w from t2").fetchall() == [("a",)]
    # SQLite and DuckDB have no such call.
    assert sql(T(*FUNCTION_ALIASES[0]), dialect="duckdb").sql == (
        'select "u"."ts_stat" from unnest(?::text[]) u'
    )


def test_a_parameter_before_a_dot_is_an_attribute_call(pg: Any) -> None:  # noqa: F811
    secrets(pg)
    # The positive controls: PostgreSQL reads $1 .f and ($1, $2) .f as f($1).
    assert "hunter2" in str(pg.execute('select %s ."ts_stat"', [SECRET_LEXEMES]).fetchall())
    assert "hunter2" in str(pg.execute('select (%s) ."ts_stat"', [SECRET_LEXEMES]).fetchall())
    for value, spec in ((SECRET_LEXEMES, ""), ([SECRET_LEXEMES], "in"), (-5, "l")):
        refused_everywhere(
            ("select ", field(value, "q", spec), " .", field("ts_stat", "c", "i"), ""),
            r"PostgreSQL reads \(x\)\.f as the call f\(x\)",
        )
    # A look-alike runs: a table's name before the dot.
    pg.execute("create table t (v text)")
    pg.execute("insert into t values ('a')")
    query = sql(T("select t .", field("v", "c", "i"), " from t"), "format")
    assert pg.execute(*query).fetchall() == [("a",)]


# --- F2, F6: a role's name, as written; and PostgreSQL's predefined roles. ---------------------


def test_a_one_part_tuple_is_the_role_its_name_writes(request: pytest.FixtureRequest) -> None:
    with reader(request, "tuple_role") as (db, _, name):
        # The positive control: the text sql() wrote for ("none",) went back to the login.
        db.execute(f"set role {name}")
        assert db.execute("select current_user = session_user").fetchone() == (False,)
        db.execute('set role "none"')
        assert db.execute("select current_user = session_user").fetchone() == (True,)
    refused = [
        (("grant select on secrets to ", field(("public",), "r", "i"), ""), "grants to"),
        (("set role ", field(("none",), "r", "i"), ""), "SET ROLE takes"),
        (("create policy p on secrets to ", field(("public",), "r", "i"), ""), "grants to"),
        (("create user mapping for ", field(("public",), "r", "i"), " server s"), "grants to"),
    ]
    for parts, why in refused:
        refused_everywhere(parts, why)
    # Another role's name as a tuple is that role.
    query = sql(T("grant select on secrets to ", field(("alice",), "r", "i"), ""), "format")
    assert query.sql == 'grant select on secrets to "alice"'


PREDEFINED_ROLES = [
    ("grant ", field("pg_execute_server_program", "r", "i"), " to ", field("alice", "u", "i")),
    ("grant ", field("pg_read_all_data", "r", "i"), " to alice with admin option"),
    ("grant app, ", field("pg_write_server_files", "r", "i"), " to alice"),
    ("revoke ", field("pg_read_server_files", "r", "i"), " from alice"),
    ("create role x in role ", field("pg_write_server_files", "r", "i"), ""),
    ("create role x role ", field("pg_read_all_data", "r", "i"), ""),
    ("alter group ", field("pg_read_all_data", "g", "i"), " add user alice"),
    ("grant select on t to ", field("pg_read_all_data", "r", "i"), ""),
    ("set role ", field(("pg_read_server_files",), "r", "i"), ""),
]


def test_a_predefined_role_is_no_value_s_choice(request: pytest.FixtureRequest) -> None:
    import psycopg

    with reader(request, "copier") as (db, dsn, name):

        def run_program() -> Any:
            with psycopg.connect(dsn, autocommit=True) as other:
                try:
                    copy = "copy (select 1) to program 'cat > /dev/null'"
                    return other.execute(copy).statusmessage
                except psycopg.errors.InsufficientPrivilege:
                    return "refused"

        app = f"{name}_app"
        db.execute(f"drop role if exists {app}")
        db.execute(f"create role {app}")
        try:
            # A look-alike runs: granting the application's role grants no program.
            db.execute(*sql(T("grant ", field(app, "r", "i"), " to ", field(name, "u", "i")),
                            "format"))  # fmt: skip
            assert run_program() == "refused"
            # The positive control: the text sql() wrote before this pass ran a program.
            db.execute(f'grant "pg_execute_server_program" to "{name}"')
            assert run_program() == "COPY 1"
        finally:
            db.execute(f"drop role {app}")
    for parts in PREDEFINED_ROLES:
        refused_everywhere(parts, "PostgreSQL reserves the names starting with 'pg_'")
    # Elsewhere the names stay data: a column, a quoted name in another case, another database.
    assert sql(T("select ", field("pg_x", "c", "i"), " from t"), "format")
    assert sql(T("grant ", field("PG_EXECUTE", "r", "i"), " to alice"), "format")
    assert sql(T("grant ", field("pg_execute_server_program", "r", "i"), " to alice"),
               dialect="duckdb")  # fmt: skip


# --- F7: the catalog's tables where a statement writes or grants. ------------------------------

CATALOG_WRITES = [
    ("update ", field("pg_authid", "t", "i"), " set ", field("rolsuper", "c", "i"), " = ",
     field(True, "v"), " where ", field("rolname", "k", "i"), " = ", field("alice", "id")),
    ("update only ", field("pg_authid", "t", "i"), " set rolsuper = true"),
    ("insert into ", field("pg_authid", "t", "i"), " (oid) values (1)"),
    ("grant select on ", field("pg_authid", "t", "i"), " to alice"),
    ("grant select on all tables in schema ", field("pg_catalog", "s", "i"), " to alice"),
    ("revoke select on ", field(("pg_catalog", "pg_authid"), "t", "i"), " from alice"),
    ("truncate ", field("pg_largeobject", "t", "i"), ""),
    ("merge into ", field("pg_authid", "t", "i"), " using t on true when matched then delete"),
]  # fmt: skip


def test_the_catalog_is_no_table_a_value_writes_or_grants(request: pytest.FixtureRequest) -> None:
    with reader(request, "climber") as (db, _, name):

        def superuser() -> Any:
            return db.execute("select rolsuper from pg_roles where rolname = %s", [name]).fetchone()

        # The positive controls: the text sql() wrote before this pass made the role a
        # superuser, and granted it the password hashes.
        assert superuser() == (False,)
        db.execute('update "pg_authid" set "rolsuper" = %s where "rolname" = %s', [True, name])
        assert superuser() == (True,)
        db.execute("update pg_authid set rolsuper = false where rolname = %s", [name])
        db.execute(f'grant select on "pg_authid" to "{name}"')
        privilege = "select has_table_privilege(%s, 'pg_authid', 'select')"
        assert db.execute(privilege, [name]).fetchone() == (True,)
        db.execute(f"revoke select on pg_authid from {name}")
        # Look-alikes run: a table of one's own.
        db.execute("create table app_users (rolname text, rolsuper bool)")
        db.execute("insert into app_users values (%s, false)", [name])
        for parts in [
            ("update ", field("app_users", "t", "i"), " set ", field("rolsuper", "c", "i"),
             " = ", field(True, "v"), " where ", field("rolname", "k", "i"), " = ",
             field(name, "id")),
            ("insert into ", field("app_users", "t", "i"), " values ('x', false)"),
            ("grant select on ", field("app_users", "t", "i"), " to ", field(name, "r", "i")),
            ("update app_users set ", field("rolsuper", "c", "i"), " = ", field(False), ""),
        ]:  # fmt: skip
            db.execute(*sql(T(*parts), "format"))
        assert db.execute("select count(*) from app_users").fetchone() == (2,)
        db.execute("drop table app_users")
    for parts in CATALOG_WRITES:
        refused_everywhere(parts, "one of PostgreSQL's catalog tables")


def test_sqlite_s_own_tables_are_no_table_a_value_writes() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (a int)")
    connection.execute("create index i on t (a)")
    connection.execute("analyze")
    # The positive control: the planner's statistics, written through the literal sql() wrote.
    connection.execute("insert into 'sqlite_stat1' values ('t', 'i', '1000000 1')")
    assert ("t", "i", "1000000 1") in connection.execute("select * from sqlite_stat1").fetchall()
    refused = [
        ("insert into ", field("sqlite_stat1", "t", "l"), " values ('t', 'i', '1 1')"),
        ("insert or replace into ", field("sqlite_sequence", "t", "i"), " values ('t', 9)"),
        ("update ", field("sqlite_dbpage", "t", "i"), " set data = ", field(b"x"),
         " where pgno = 2"),
        ("update ", field("SQLITE_STAT1", "t", "l"), " set stat = '1 1'"),
        ("replace into ", field(("main", "sqlite_stat1"), "t", "i"), " values ('t', 'i', '1')"),
    ]  # fmt: skip
    for parts in refused:
        with pytest.raises(RenderError, match="one of SQLite's own tables"):
            sql(T(*parts))
    # Look-alikes run: a table of one's own, as a name or a string.
    for parts in [
        ("insert into ", field("t", "t", "i"), " values (1)"),
        ("insert into ", field("t", "t", "l"), " values (2)"),
        ("update ", field("t", "t", "i"), " set a = ", field(3), " where a = 2"),
    ]:
        connection.execute(*sql(T(*parts)))
    assert connection.execute("select a from t order by a").fetchall() == [(1,), (3,)]
    connection.close()


def test_a_full_text_table_s_content_is_no_internal_table() -> None:
    connection = sqlite3.connect(":memory:")
    connection.execute("create table users (name text, pw text)")
    connection.execute("insert into users values ('admin', 'S3CRET-PW')")
    connection.execute("select * from users where pw = 'S3CRET-PW'").fetchall()
    # The positive control: the text sql() wrote before this pass read the cached statements.
    connection.execute('create virtual table leak using fts5(sql, content="sqlite_stmt")')
    assert "S3CRET-PW" in str(connection.execute("select * from leak").fetchall())
    refused = [
        ("create virtual table ", field("v", "n", "i"), " using fts5(sql, content=",
         field("sqlite_stmt", "c", "i"), ")"),
        ("create virtual table v using fts5(sql, content = ", field("sqlite_stmt", "c", "l"),
         ")"),
        ("create virtual table v using fts4(name, content=", field("sqlite_master", "c", "i"),
         ")"),
    ]  # fmt: skip
    for parts in refused:
        with pytest.raises(RenderError, match="one of SQLite's own tables"):
            sql(T(*parts))
    # FTS4's compress= and uncompress= name the function called on every document.
    with pytest.raises(RenderError, match="names the function a full-text table calls"):
        sql(T("create virtual table v using fts4(b, compress=", field("zip", "f", "i"),
              ", uncompress=unzip)"))  # fmt: skip
    # A look-alike runs: a table of one's own as the content, a column's name.
    connection.execute("create table docs (body text)")
    connection.execute("insert into docs values ('hello world')")
    connection.execute(*sql(T("create virtual table idx using fts5(", field("body", "c", "i"),
                              ", content=", field("docs", "t", "i"), ")")))  # fmt: skip
    connection.execute("insert into idx(idx) values ('rebuild')")
    assert connection.execute("select body from idx where idx match 'hello'").fetchall() == [
        ("hello world",)
    ]
    connection.close()


# --- F3, F4: names that shadow the catalog's, made by RENAME TO, SELECT INTO, DuckDB. ----------

SHADOWING = [
    ("alter view v rename to ", field("pg_roles", "v", "i"), ""),
    ("alter table if exists t rename to ", field("pg_stat_activity", "v", "i"), ""),
    ("alter type pg_temp.e rename to ", field("text", "v", "i"), ""),
    ("alter materialized view m rename to ", field("json", "v", "i"), ""),
    ("select 1 as a into temp ", field("text", "t", "i"), ""),
    ("select 1 as a into temporary table ", field("json", "t", "i"), ""),
    ("select 1 as a into ", field(("pg_temp", "text"), "t", "i"), ""),
]


def test_a_renamed_or_selected_into_name_may_not_shadow_the_catalog(postgres_dsn: str) -> None:
    import psycopg

    # The positive controls, each in a session of its own, as sql() wrote them before.
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        session.execute("create temp view v as select 'mallory'::name as rolname, "
                        "true as rolsuper")  # fmt: skip
        session.execute('alter view v rename to "pg_roles"')
        assert session.execute("select rolname, rolsuper from pg_roles").fetchall() == [
            ("mallory", True)
        ]
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        session.execute('select 1 as a into temp "text"')
        with pytest.raises(psycopg.errors.InvalidTextRepresentation):
            session.execute("select 'abc'::text")
    for parts in SHADOWING:
        for paramstyle, dialect in POSTGRESQL:
            with pytest.raises(RenderError, match="names a temporary relation or type"):
                sql(T(*parts), paramstyle, dialect=dialect)
    # Look-alikes run: names of one's own, a column renamed "text", an insert.
    with psycopg.connect(postgres_dsn, autocommit=True) as session:
        for parts in [
            ("create temp view v as select 1 as a; alter view v rename to ",
             field("my_view", "v", "i"), ""),
            ("alter table my_view rename column a to ", field("text", "c", "i"), ""),
            ("select 1 as a into temp ", field("mytab", "t", "i"), ""),
            ("insert into ", field("mytab", "t", "i"), " values (2)"),
        ]:  # fmt: skip
            session.execute(*sql(T(*parts), "format"))
        assert session.execute("select count(*), 'abc'::text from mytab").fetchall() == [
            (2, "abc")
        ]


def test_a_duckdb_view_of_any_schema_may_not_shadow_a_system_view(
    tmp_path: pathlib.Path,
) -> None:
    path = str(tmp_path / "app.duckdb")
    connection = duckdb.connect(path)
    connection.execute("create table accounts (a int)")
    # The positive control: a plain view, as sql() wrote it, hid duckdb_tables from every
    # later connection to the file; so did a view renamed to it.
    connection.execute('create view "duckdb_tables" as select 1 as table_name where false')
    connection.close()
    connection = duckdb.connect(path)
    assert connection.execute("select table_name from duckdb_tables").fetchall() == []
    connection.execute("drop view duckdb_tables")
    connection.execute("create view v as select 'fake' as table_name")
    connection.execute('alter view v rename to "duckdb_tables"')
    assert connection.execute("select table_name from duckdb_tables").fetchall() == [("fake",)]
    connection.execute("drop view duckdb_tables")
    for parts in [
        ("create view ", field("duckdb_tables", "v", "i"), " as select 1"),
        ("create or replace view ", field(("main", "duckdb_settings"), "v", "i"), " as select 1"),
        ("create table ", field("pg_settings", "t", "i"), " (a int)"),
        ("create table if not exists ", field("Sqlite_Master", "t", "i"), " (a int)"),
        ("alter view v rename to ", field("duckdb_tables", "v", "i"), ""),
    ]:
        with pytest.raises(RenderError, match="names a relation DuckDB creates or renames"):
            sql(T(*parts), dialect="duckdb")
    # Look-alikes run: names of one's own.
    connection.execute(*sql(T("create view ", field("my_view", "v", "i"), " as select 1 as a"),
                            dialect="duckdb"))  # fmt: skip
    connection.execute(*sql(T("alter view my_view rename to ", field("mine", "v", "i"), ""),
                            dialect="duckdb"))  # fmt: skip
    assert connection.execute("select a from mine").fetchall() == [(1,)]
    assert connection.execute("select table_name from duckdb_tables").fetchall() == [
        ("accounts",)
    ]
    connection.close()
    # PostgreSQL searches pg_catalog first: a plain table named like its views stays accepted.
    assert sql(T("create table ", field("pg_settings", "t", "i"), " (a int)"), "format")


# --- F9: PostgreSQL's XML exports of a relation or a cursor a value names. ---------------------


def test_xml_exports_of_a_named_relation_or_cursor_take_no_value(postgres_dsn: str) -> None:
    import psycopg

    with psycopg.connect(postgres_dsn) as session:
        # The positive controls: a parameter read the prepared statement's text and a cursor.
        session.execute("prepare wipe as select 'PREPARED-SECRET' as s")
        dump = "select table_to_xml(%s::regclass, true, false, '')"
        rows = session.execute(dump, ["pg_prepared_statements"]).fetchall()
        assert "PREPARED-SECRET" in str(rows)
        session.execute("declare c_secret cursor for select 'CURSOR-SECRET' as s")
        fetch = "select cursor_to_xml(%s, 10, false, false, '')"
        assert "CURSOR-SECRET" in str(session.execute(fetch, ["c_secret"]).fetchall())
        session.rollback()
    for call in ("table_to_xml", "table_to_xmlschema", "schema_to_xml", "cursor_to_xml"):
        refused_everywhere((f"select {call}(", field("x", "a"), ", true, false, '')"),
                           f"argument of {call}")  # fmt: skip
    # Through a subquery the value reaches it all the same.
    refused_everywhere(
        ("select table_to_xml(r, true, false, '') from (select ", field("t", "a"),
         "::regclass as r) s"),
        "calls table_to_xml",
    )  # fmt: skip
    # A look-alike: the relation written in the text, with no value in the query.
    assert sql(T("select table_to_xml('orders'::regclass, true, false, '')"), "format")
