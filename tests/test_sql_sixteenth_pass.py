"""The sixteenth red-team pass over sql(): values PostgreSQL reads further, and the catalog's
schema where default privileges go.

* set_config('search_path', {s}, false) takes a list: the value 'carol, pg_catalog' put a
  schema before pg_catalog, and a superuser's lower('ABC') ran that schema's lower(text)
  (which made its owner a superuser).  SET search_path = {s:l} quotes the value as one name;
  set_config() alone splits it.  (Since the twenty-seventh pass every value of search_path
  is refused: one schema holding a lower(varchar) ran it for a later lower(v).)
* set_config('role', lower({r}), false) with 'NONE' gave 'none', which PostgreSQL reads as
  NONE (back to the login's role): the eleventh pass refused the value 'none' only as the
  whole argument.
* ALTER DEFAULT PRIVILEGES IN SCHEMA {s:i} with "pg_catalog": an extension installed there
  later (adminpack) gave the role EXECUTE on pg_file_write(), with which it appended to the
  server's postgresql.auto.conf.
* A str subclass whose startswith() lies named "pg_prepared_statements" past the catalog
  check, which now reads the value as a plain str (as the role check did).
* An over-refusal: a field touching DuckDB's struct braces ({'a': {n}}).
* The yen sign: psycopg's codec for an EUC_JP (or SJIS) connection writes it as 0x5C, a
  backslash to PostgreSQL, so {v:l} with "\\x¥' union select secret from s --", written
  E'\\\\x¥'' union ...', ran the union on an EUC_JP database, as E'¥' || {v:l} in the text did.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg, role_name  # noqa: F401  # pg: the fixture the tests ask for
from test_sql_tenth_pass import T, field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql


def _superuser(pg: Any) -> None:  # noqa: F811
    if pg.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("the positive controls create roles and extensions, as a superuser may")


# --- set_config('search_path', {s}, ...): one schema. --------------------------------------------


def test_set_config_s_search_path_is_one_schema(pg: Any) -> None:  # noqa: F811
    pg.execute("drop schema if exists ipy_istring_carol cascade")
    pg.execute("create schema ipy_istring_carol")
    try:
        pg.execute("create function ipy_istring_carol.lower(text) returns text "
                   "language sql as $$ select 'carol''s lower ran' $$")  # fmt: skip
        listed = "ipy_istring_carol, pg_catalog"
        # The positive control: the text sql() wrote before this pass put carol's schema
        # before pg_catalog, whose lower(text) is searched first otherwise.
        pg.execute("select set_config('search_path', %s, false)", [listed])
        assert pg.execute("select lower('ABC')").fetchone() == ("carol's lower ran",)
        # Since the twenty-seventh pass search_path is off the settings' allow-list (one schema
        # ran its lower(varchar) for a later lower(v)): every value is refused, a list too.
        unlisted = "not on sql\\(\\)'s list of settings"
        for value in [listed, 'ipy_istring_carol", "pg_catalog', 5, "ipy_istring_carol"]:
            for spec in ["", "l"]:
                parts = ("select set_config('search_path', ", field(value, "s", spec), ", false)")
                refused_everywhere(parts, unlisted)
        for parts in [
            ("select set_config('search_path', lower(", field("a", "s"), "), false)"),
            ("select set_config('search_path', ", field("a", "s"), " || ', public', false)"),
            ("select pg_catalog.set_config('Search_Path', (select ", field("a", "s"), "), true)"),
        ]:
            refused_everywhere(parts, unlisted)
        for parts in [  # (where DuckDB may run the query, the twentieth pass's reason)
            ("set search_path = ", field(listed, "s", "l"), ""),
            ("set search_path to ", field("ipy_istring_carol", "s", "i"), ", public"),
        ]:
            refused_everywhere(parts, unlisted + "|DuckDB finds functions in")
        # What the earlier renders ran: SET quotes the value as one name, commas and all.
        for written in [
            "select set_config('search_path', 'ipy_istring_carol', false)",
            "set search_path = 'ipy_istring_carol, pg_catalog'",
            'set search_path to "ipy_istring_carol", public',
        ]:
            pg.execute(written)
            assert pg.execute("select lower('ABC')").fetchone() == ("abc",)
        assert pg.execute("show search_path").fetchone() == ("ipy_istring_carol, public",)
        app = T("select set_config('app.user', lower(", field("ALICE", "u"), "), false)")
        assert pg.execute(*sql(app, "format")).fetchone() == ("alice",)
    finally:
        pg.execute("set search_path to ipy_istring_contexts")
        pg.execute("drop schema ipy_istring_carol cascade")


# --- set_config('role', ...): the value 'none' even through an expression. ------------------------


def test_set_config_s_role_is_the_whole_argument(pg: Any) -> None:  # noqa: F811
    _superuser(pg)
    tenant = role_name(pg, "tenant")
    pg.execute(f"create role {tenant}")
    try:
        # The positive control: lower('NONE') is 'none', NONE to PostgreSQL: the connection
        # that had set role to the tenant's ran the next query as its login, a superuser.
        pg.execute(f"set role {tenant}")
        pg.execute("select set_config('role', lower(%s), false)", ["NONE"])
        assert pg.execute("select current_user = session_user").fetchone() == (True,)
        for parts in [
            ("select set_config('role', lower(", field("NONE", "r"), "), false)"),
            ("select set_config('role', trim(", field(" none", "r", "l"), "), false)"),
            ("select set_config('role', ", field("no", "a"), " || ", field("ne", "b"), ", false)"),
            ("select set_config('role', ", field("none", "r"), "::text, false)"),
        ]:
            refused_everywhere(parts, "checks only as the whole argument")
        # Look-alikes run: the role as the whole argument, and its third argument.
        template = T("select set_config('role', ", field(tenant, "r"), ", ", field(False, "b"), ")")
        pg.execute(*sql(template, "format"))
        assert pg.execute("select current_user").fetchone() == (tenant,)
    finally:
        pg.execute("reset role")
        pg.execute(f"drop role {tenant}")


# --- ALTER DEFAULT PRIVILEGES IN SCHEMA {s:i}: not the catalog's. -------------------------------


def test_default_privileges_are_not_in_the_catalog_s_schema(pg: Any) -> None:  # noqa: F811
    _superuser(pg)
    available = "select 1 from pg_available_extensions where name = 'adminpack'"
    if pg.execute(available).fetchone() is None:
        pytest.skip("adminpack (postgresql-contrib) is not installed")
    carol = role_name(pg, "carol")
    pg.execute(f"create role {carol}")
    writes = (
        "select has_function_privilege(%s, 'pg_catalog.pg_file_write(text, text, boolean)', "
        "'execute')"
    )
    try:
        # The positive control: default privileges in "pg_catalog" reached adminpack's
        # pg_file_write(), installed there later (with which carol appended a line to the
        # server's postgresql.auto.conf; here only the privilege is looked at).
        with pg.transaction(force_rollback=True):
            pg.execute("drop extension if exists adminpack")
            pg.execute('alter default privileges in schema "pg_catalog" grant execute on '
                       f"functions to {carol}")  # fmt: skip
            pg.execute("create extension adminpack")
            assert pg.execute(writes, [carol]).fetchone() == (True,)
        for schema in ["pg_catalog", "information_schema", ("pg_catalog",)]:
            for statement in [
                ("alter default privileges in schema ", field(schema, "s", "i"),
                 " grant execute on functions to r"),
                ("alter default privileges for role r in schema a, ", field(schema, "s", "i"),
                 " revoke select on tables from r"),
            ]:  # fmt: skip
                refused_everywhere(statement, "one of PostgreSQL's catalog tables")
        # The look-alike runs: a schema of one's own, and the grantee's name.
        template = T("alter default privileges in schema ", field("ipy_istring_contexts", "s", "i"),
                     " grant execute on functions to ", field(carol, "r", "i"))  # fmt: skip
        pg.execute(*sql(template, "format"))
        pg.execute("create function f() returns int language sql as 'select 1'")
        assert pg.execute(
            "select has_function_privilege(%s, 'ipy_istring_contexts.f()', 'execute')", [carol]
        ).fetchone() == (True,)
    finally:
        pg.execute(f"drop owned by {carol}")
        pg.execute(f"drop role {carol}")


# --- A str subclass's own methods do not decide the catalog check. ------------------------------


class _Lying(str):
    """A str whose startswith() and lower() lie: the checks must read the name it writes."""

    def startswith(self, *args: Any) -> bool:
        return False

    def lower(self) -> str:
        return "x"


def test_a_str_subclass_names_what_it_writes(pg: Any) -> None:  # noqa: F811
    # The positive control: the text sql() wrote before this pass read the prepared
    # statement's text, a literal secret included.
    pg.execute("prepare leak as select 'PREPARED-SECRET' as s")
    try:
        rows = pg.execute('select statement from "pg_prepared_statements"').fetchall()
        assert any("PREPARED-SECRET" in row[0] for row in rows)
        for value in [_Lying("pg_prepared_statements"), ("ipy", _Lying("pg_cursors"))]:
            refused_everywhere(
                ("select * from ", field(value, "t", "i"), ""), "one of PostgreSQL's catalog"
            )
        with pytest.raises(RenderError, match="one of SQLite's own tables"):
            sql(T("select * from ", field(_Lying("sqlite_stmt"), "t", "i"), ""))
        # And the name a temporary table takes (the thirteenth pass: "text" hid the type
        # from the session, and broke every 'a'::text).
        refused_everywhere(
            ("create temp table ", field(_Lying("text"), "t", "i"), " (a int)"),
            "find those before their own catalog",
        )
        # The look-alike runs: a subclass naming a table of one's own.
        pg.execute("create table orders (id int)")
        query = sql(T("select count(*) from ", field(_Lying("orders"), "t", "i"), ""), "format")
        assert pg.execute(*query).fetchone() == (0,)
    finally:
        pg.execute("deallocate leak")


# --- An over-refusal: a field touching DuckDB's braces. ------------------------------------------


def test_a_field_may_touch_a_struct_s_braces() -> None:
    # '{' and '}' are tokens of their own in every dialect (DuckDB's struct and map literals;
    # PostgreSQL's and SQLite's lexers read either alone), as '[' and ']' are.
    connection = duckdb.connect()
    for parts, rows in [
        (("select {'a': ", field(1, "n"), "}"), [({"a": 1},)]),
        (("select {'a': 1, 'b': ", field(-5, "n", "l"), "}"), [({"a": 1, "b": -5},)]),
        (("select {", field("k", "k", "l"), ": 'v'}"), [({"k": "v"},)]),
        (("select map {", field("k", "k"), ": 1}"), [({"k": 1},)]),
        (("select {'a': ", field("x", "c", "i"), "} from (select 2 as x)"), [({"a": 2},)]),
    ]:
        for paramstyle in ["qmark", "dollar"]:
            assert connection.execute(*sql(T(*parts), paramstyle)).fetchall() == rows
    # Still glued: a word or a quote next to the brace's field, and SQLite's :k: (a name).
    for parts, paramstyle in [
        (("select {'a': x", field(1, "n"), "}"), "qmark"),
        (("select map {", field("k", "k"), ": 1}"), "named"),
    ]:
        with pytest.raises(RenderError, match="touches its neighbours"):
            sql(T(*parts), paramstyle)


# --- The yen sign, which a client encoding's codec writes as a backslash. ------------------------


def test_the_yen_sign_is_no_literal_s_character_where_postgresql_runs(pg: Any) -> None:  # noqa: F811
    import psycopg
    from psycopg import conninfo

    _superuser(pg)
    name = f"{pg.info.dbname}_eucjp"
    pg.execute(f"drop database if exists {name}")
    pg.execute(f"create database {name} encoding 'EUC_JP' lc_collate 'C' lc_ctype 'C' "
               "template template0")  # fmt: skip
    try:
        with psycopg.connect(conninfo.make_conninfo(pg.info.dsn, dbname=name),
                             autocommit=True) as db:  # fmt: skip
            assert db.info.encoding == "euc_jp"  # psycopg's codec: '¥' is the byte 0x5C
            db.execute("create table t (name text); insert into t values ('alice')")
            db.execute("create table s (secret text); insert into s values ('TOPSECRET')")
            attack = "\\x\u00a5' union select secret from s --"
            # The positive controls: the text sql() wrote before this pass ran the union.
            written = (
                "select name from t where name = E'\\\\x\u00a5'' union select secret from s --'"
            )
            assert db.execute(written).fetchall() == [("TOPSECRET",)]
            static = "select name from t where name = E'\u00a5' || ' union select secret from s --'"
            assert db.execute(static).fetchall() == [("TOPSECRET",)]
            for parts in [
                ("select name from t where name = ", field(attack, "v", "l"), ""),
                ("select ", field("Tokyo \u00a5100", "v", "l"), ""),
            ]:
                refused_everywhere(parts, "yen sign")
            for parts in [
                ("select name from t where name = E'\u00a5' || ", field(" x", "v", "l"), ""),
                ("select name from t where name = '\u00a5' || ", field(" x", "v"), ""),
            ]:
                refused_everywhere(parts, "yen sign")
            fragment = T("select name from t where name = E'\u00a5' || ")
            refused_everywhere((field(fragment, "f", "q"), " ", field(" x", "v", "l"), ""),
                               "yen sign")  # fmt: skip
            # Look-alikes run: other Japanese text as ':l', the yen sign as a parameter, and
            # in a quoted name; where SQLite or DuckDB run it, the yen sign as ':l'.
            tokyo = T("select ", field("\u6771\u4eac", "v", "l"), "")
            assert db.execute(*sql(tokyo, "format")).fetchall() == [("\u6771\u4eac",)]
            bound = T("select name from t where name = ", field(attack, "v"), "")
            assert db.execute(*sql(bound, "format")).fetchall() == []
            named = T('select 1 as "\u00a5", ', field("a", "v"), "")
            assert db.execute(*sql(named, "format")).fetchall() == [(1, "a")]
    finally:
        pg.execute(f"drop database {name}")
    yen = T("select ", field("\u00a5100", "v", "l"), "")
    assert duckdb.connect().execute(*sql(yen, dialect="duckdb")).fetchall() == [("\u00a5100",)]
    assert sqlite3.connect(":memory:").execute(*sql(yen)).fetchall() == [("\u00a5100",)]


def test_no_other_character_is_written_as_a_backslash_or_a_quote() -> None:
    # Every codec psycopg uses for a client encoding: a single-byte one writes an ASCII byte
    # only for that ASCII character (its encoding table is its decoding table's inverse), and
    # the multibyte ones write only the yen sign as one (BMP; beyond it they write four bytes
    # or nothing).
    from psycopg import _encodings

    from ipy_istring.sql import _BACKSLASH_BYTE

    ascii_ = "".join(map(chr, range(128)))
    found = set()
    chars = [chr(cp) for cp in range(0x80, 0x10000) if not 0xD800 <= cp <= 0xDFFF]
    for codec in sorted({codec for _, codec in _encodings._py_codecs}):
        try:
            multibyte = len("\u4e00".encode(codec)) > 1
        except UnicodeEncodeError:
            multibyte = False
        if not multibyte:
            assert bytes(range(128)).decode(codec) == ascii_, codec
            continue
        found |= {c for c in chars if c.encode(codec, "ignore") in (b"\\", b"'", b'"')}
    assert found == _BACKSLASH_BYTE
