"""The eleventh red-team pass over sql(): contexts where a value changes privileges.

* A role PostgreSQL grants to took PUBLIC from a value: PostgreSQL reads a role written
  ``"public"`` as the keyword PUBLIC, every role (no role may be named so), so
  ``grant select on secrets to {r:i}`` with ``r = "public"`` let any role read the table (the
  positive control below: a role granted nothing read the secret).  The same holds for
  REVOKE ... FROM, CREATE/ALTER POLICY ... TO (the policy applies to everyone) and CREATE/ALTER
  /DROP USER MAPPING FOR (every role may use the server with the mapping's credentials).  A
  ``:i`` value ``"public"`` there is refused now, when PostgreSQL may run the query; other roles'
  names, ``"PUBLIC"`` (a role's name, to PostgreSQL), the schema ``public`` elsewhere in the
  statement (``grant usage on schema {s:i} to r``) and a column in a policy's USING stay
  accepted.

* The same in ALTER DEFAULT PRIVILEGES: ``alter default privileges grant select on tables to
  {r:i}`` with ``r = "public"`` made every table created afterwards readable by every role
  (the positive control below: the new table's ACL held ``=r``).  Refused the same way; the
  schema it names (``in schema {s:i}``) stays accepted.

* SET ROLE took NONE from a value: PostgreSQL reads a role written ``"none"`` as the keyword
  NONE (no role may be named so), which goes back to the role the connection logged in as, so
  ``set role {r:i}`` with ``r = "none"`` on a connection that had set role to a tenant's role
  ran what followed as the login, a superuser in the positive control below.  A ``:i`` value
  ``"none"`` as the value of the setting ``role`` (``set [local|session] role [=|to] {r:i}``)
  is refused now, when PostgreSQL may run the query; other roles' names, ``"NONE"`` and
  ``"none"`` as a column, a table or a schema stay accepted.  The string ``'none'`` reads the
  same: ``set role {r:l}`` and ``set_config('role', {r}, false)`` (a bound parameter too, the
  positive control below) are refused with ``r = "none"``; another role, and ``'none'`` for any
  other setting or column, stay accepted.

* DuckDB's COPY took an option's name from a value: ``copy t to {p:l} (format csv,
  partition_by (a), {k:i} true)`` was accepted, and with ``k = "overwrite"`` DuckDB removed
  every file already under the directory (the positive control below), where the text's own
  options make it refuse a directory that is not empty.  A field that names an option of COPY
  (in the parentheses after its TO or FROM, in any dialect, as EXPLAIN's and ATTACH's are) is
  refused now; COPY's column list (``copy {t:i} ({c:i}) from ...``), an option's value
  (``format {f:i}``, ``delimiter {d:l}``, ``partition_by ({c:i})``) and a query's fields stay
  accepted.

* DuckDB's CREATE MACRO (and its alias CREATE FUNCTION) took the macro's name from a value:
  ``create macro {m:i} (x) as 42`` was accepted as a declaration, but DuckDB finds a macro
  before its own functions, so ``m = "lower"`` made every later ``lower('A')`` on the database
  return 42 (the positive control below), stored with the database for every connection.  The
  name of a macro is refused now when DuckDB may run the query; a macro named in the text,
  ``drop macro {m:i}`` and calls of a written macro stay accepted.  (This pass kept
  ``create function {f:i} (...)`` accepted for PostgreSQL, which searches pg_catalog first;
  the twelfth found that an exact match in another schema wins, and refuses it there too.)

* CREATE POLICY took PERMISSIVE or RESTRICTIVE from a value: PostgreSQL's grammar takes a
  name after AS and compares it with the words, so ``create policy p on t as {k:i} using
  (...)`` with ``k = "permissive"`` made a policy the text's other choice would have used to
  narrow the rows widen them (the positive control below: a role read a row of another owner
  that the restrictive policy kept from it), as the tenth pass refused for a role's
  attributes.  A field there is refused now; the policy's name, table, roles and the fields of
  its expressions stay accepted.

Attacks tried that held (kept as regression tests): ``"public"`` where PostgreSQL wants one
role rather than grantees (``owner to {r:i}``, ``authorization {r:i}``, ``set role {r:i}``) is
a role that does not exist, and so is ``"none"`` after SET SESSION AUTHORIZATION; DuckDB
refuses a built-in type's name for ``create type {t:i}``, and a view named ``duckdb_settings``
does not replace the table function; DuckDB's ``export database {p:l} (format csv, {k:i}
true)`` with ``k = "overwrite"`` replaced only the files it writes. Left out: PostgreSQL's
``create function {f:i} (a text, b text)`` with ``f = "concat"`` made every later ``concat('a',
'b')`` of the schema's users run the routine (a more specific signature wins over pg_catalog's
``concat("any")``, as in CVE-2018-1058), but ``create function {f:i} (...)`` is accepted by
design (tests/test_sql.py) and sql() has no list of PostgreSQL's function names to refuse only
those.
"""

from __future__ import annotations

import contextlib
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest
from test_sql_contexts import (
    pg,  # noqa: F401  # the fixture, which a test below asks for
    role_name,
)
from test_sql_tenth_pass import POSTGRESQL, T, field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation


def public(name: str = "r") -> Interpolation:
    return field("public", name, "i")


PUBLIC_GRANTEE = [
    ("grant select on t to ", public(), ""),
    ("grant select, insert on table t to alice, ", public(), " with grant option"),
    ("grant all on all tables in schema s to ", public(), ""),
    ("revoke select on t from ", public(), ""),
    ("create policy p on t to ", public(), " using (true)"),
    ("alter policy p on t to ", public(), ""),
    ("create user mapping for ", public(), " server s options (user 'u', password 'p')"),
    ("create user mapping if not exists for ", public(), " server s"),
    ("alter user mapping for ", public(), " server s options (set password 'p')"),
    ("alter default privileges grant select on tables to ", public(), ""),
    ("alter default privileges in schema s revoke all on tables from ", public(), ""),
    ("alter default privileges for role alice grant execute on functions to a, ", public(), ""),
]


GRANTEE_LOOK_ALIKES = [
    ("grant select on t to ", field("alice", "r", "i"), ""),
    ("grant select on t to ", field("PUBLIC", "r", "i"), ""),  # a role's name to PostgreSQL
    ("grant usage on schema ", public("s"), " to alice"),
    ("grant select on all tables in schema ", public("s"), " to alice"),
    ("grant select on ", public("s"), ".t to alice"),
    ("revoke select on ", field(("public", "t"), "t", "i"), " from alice"),
    ("create policy p on ", public("s"), ".t to alice using (", public("c"), " = 1)"),
    ("create policy p on t to alice with check (", public("c"), " = 1)"),
    ("create user mapping for ", field("alice", "r", "i"), " server s"),
    ("create schema ", public("s"), "; grant usage on schema s to alice"),
    ("alter default privileges in schema ", public("s"), " grant select on tables to alice"),
]


def test_public_grantee_is_accepted_where_postgresql_does_not_run() -> None:
    # SQLite and DuckDB have no GRANT: the field is a name like any other there.
    sql(T("grant select on t to ", public(), ""), "qmark", dialect="duckdb")


@contextlib.contextmanager
def reader(request: pytest.FixtureRequest, base: str) -> Iterator[tuple[Any, str, str]]:
    """The ``pg`` connection (a superuser's), the DSN and the name of a new login role (this
    run's ``role_name`` of ``base``), which may use the test's schema; the role and what it owns
    are dropped afterwards."""
    import psycopg

    db = request.getfixturevalue("pg")
    if db.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("the test creates a role to read as")
    name = role_name(db, base)
    db.execute(f"drop role if exists {name}")
    db.execute(f"create role {name} login")
    try:
        db.execute(f"grant usage on schema ipy_istring_contexts to {name}")
        yield db, psycopg.conninfo.make_conninfo(db.info.dsn, user=name), name
    finally:
        db.execute(f"drop owned by {name}")
        db.execute(f"drop role {name}")


def test_postgresql_reads_a_quoted_public_grantee_as_every_role(
    request: pytest.FixtureRequest,
) -> None:
    import psycopg

    with reader(request, "nobody") as (db, dsn, _):
        db.execute("create table secrets (s text)")
        db.execute("insert into secrets values ('TOPSECRET')")

        def read() -> Any:
            with psycopg.connect(dsn, autocommit=True) as other:
                try:
                    return other.execute("select s from ipy_istring_contexts.secrets").fetchall()
                except psycopg.errors.InsufficientPrivilege:
                    return "refused"

        # A look-alike runs: the grant to a named role reaches that role only.
        db.execute(*sql(T("grant select on secrets to ", field("postgres", "r", "i"), ""),
                        "format"))  # fmt: skip
        assert read() == "refused"
        # The positive control: the query sql() wrote before this pass, run as it is.
        db.execute('grant select on secrets to "public"')
        assert read() == [("TOPSECRET",)]
        # And now it is refused.
        with pytest.raises(RenderError, match="grants to"):
            sql(T("grant select on secrets to ", public(), ""), "format")
        # ALTER DEFAULT PRIVILEGES: the positive control, a table created afterwards.
        db.execute('alter default privileges grant select on tables to "public"')
        try:
            db.execute("create table later (s text)")
            acl = "select relacl::text from pg_class where relname = 'later'"
            assert "=r/" in db.execute(acl).fetchone()[0].replace('"', "")
        finally:
            db.execute("alter default privileges revoke select on tables from public")
            db.execute("drop table if exists later")
        db.execute("drop table secrets")


def none(name: str = "r") -> Interpolation:
    return field("none", name, "i")


NO_ROLE = [
    ("set role ", none(), ""),
    ("set role = ", none(), ""),
    ("set local role to ", none(), ""),
    ("set session role ", none(), "; select * from t where id = ", field(1), ""),
    ("select 1; set role ", none(), ""),
]


NO_ROLE_VALUE = [
    ("set role ", field("none", "r", "l"), ""),
    ("select set_config('role', ", field("none", "r"), ", false)"),
    ("select set_config('ROLE', ", field("none", "r", "l"), ", true)"),
    ("select 1 from t where id = ", field(1, "i"), " and set_config('role', ",
     field("none", "r"), ", false) is not null"),
]  # fmt: skip

NO_ROLE_LOOK_ALIKES = [
    ("set role ", field("tenant", "r", "i"), ""),
    ("set role ", field("NONE", "r", "i"), ""),  # a role's name to PostgreSQL
    ("set role tenant; select ", none("c"), " from t"),
    ("update t set role = ", none("c"), ""),
    ("grant select on ", none("t"), " to alice"),
    ("select set_config('role', ", field("tenant", "r"), ", false)"),
    ("select set_config('app.role', ", field("none", "r"), ", false)"),
    ("select set_config('role', 'tenant', false), ", field("none", "r"), ""),
    ("select * from t where role = ", field("none", "r"), ""),
]


POLICY_KIND = [
    ("create policy p on t as ", field("permissive", "k", "i"), " using (published)"),
    ("create policy ", field("p", "n", "i"), " on ", field("t", "t", "i"), " as ",
     field("permissive", "k", "i"), " for select to alice using (true)"),
    ("create policy p on t as ", field("permissive", "k"), " using (true)"),
]  # fmt: skip

POLICY_LOOK_ALIKES = [
    ("create policy ", field("p", "n", "i"), " on ", field("t", "t", "i"),
     " as restrictive for select to ", field("alice", "r", "i"), " using (",
     field("published", "c", "i"), ")"),
    ("create policy p on t using (", field("a", "c", "i"), " = ", field(1, "v"), ")"),
    ("create table ", field("t", "t", "i"), " as select 1"),
]  # fmt: skip


REFUSED = [
    *[
        (parts, r'\{r:i\} names the role PostgreSQL grants to.*"public"')
        for parts in PUBLIC_GRANTEE
    ],
    *[(parts, r'\{r:i\} names the role SET ROLE takes.*"none"') for parts in NO_ROLE],
    *[
        (parts, r"\{r(:l)?\} is the role set_config\('role', ...\) or SET ROLE takes.*'none'")
        for parts in NO_ROLE_VALUE
    ],
    *[(parts, r"\{k(:i)?\} stands where CREATE POLICY takes PERMISSIVE") for parts in POLICY_KIND],
]


@pytest.mark.parametrize(("parts", "why"), REFUSED)
def test_a_keyword_read_from_a_value_is_refused(parts: tuple[Any, ...], why: str) -> None:
    refused_everywhere(parts, why)


@pytest.mark.parametrize("parts", GRANTEE_LOOK_ALIKES + NO_ROLE_LOOK_ALIKES + POLICY_LOOK_ALIKES)
def test_look_alikes_are_accepted(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in POSTGRESQL:
        sql(T(*parts), paramstyle, dialect=dialect)


def test_postgresql_reads_a_quoted_none_role_as_the_login(
    request: pytest.FixtureRequest,
) -> None:
    db = request.getfixturevalue("pg")
    login = db.execute("select session_user").fetchone()[0]
    tenant = role_name(db, "tenant")
    db.execute(f"drop role if exists {tenant}")
    db.execute(f"create role {tenant}")
    try:
        db.execute(f"set role {tenant}")
        # A look-alike runs: another role's name stays a role's name.
        db.execute(*sql(T("set role ", field(tenant, "r", "i"), ""), "format"))
        assert db.execute("select current_user").fetchone() == (tenant,)
        # The positive control: the query sql() wrote before this pass, run as it is.
        db.execute('set role "none"')
        assert db.execute("select current_user").fetchone() == (login,)
        with pytest.raises(RenderError, match="SET ROLE takes"):
            sql(T("set role ", none(), ""), "format")
        # The same through set_config('role', ...) and a bound parameter.
        db.execute(f"set role {tenant}")
        db.execute("select set_config('role', %s, false)", ("none",))
        assert db.execute("select current_user").fetchone() == (login,)
        with pytest.raises(RenderError, match="set_config"):
            sql(T("select set_config('role', ", field("none", "r"), ", false)"), "format")
    finally:
        db.execute("reset role")
        db.execute(f"drop role {tenant}")


COPY_OPTION = [
    ("copy t to ", field("out", "p", "l"), " (format csv, partition_by (a), ",
     field("overwrite", "k", "i"), " true)"),
    ("copy t to 'out' (", field("overwrite", "k", "i"), ")"),
    ("copy (select 1) to 'out' (format csv, ", field("overwrite", "k", "i"), ")"),
    ("copy t from 'f' with (", field("overwrite", "k", "i"), " true)"),
    ("explain analyze copy t to 'f' (", field("overwrite", "k", "i"), " true)"),
    ("copy t to 'out' (", field("overwrite", "k"), " true)"),
]  # fmt: skip

COPY_LOOK_ALIKES = [
    ("copy ", field("t", "t", "i"), " (", field("a", "c", "i"), ", ", field("b", "d", "i"),
     ") from ", field("in.csv", "p", "l"), ""),
    ("copy t to ", field("x.csv", "p", "l"), " (format ", field("csv", "f", "i"), ")"),
    ("copy t to ", field("out", "p", "l"), " (format csv, delimiter ", field(";", "d", "l"),
     ", partition_by (", field("a", "c", "i"), "))"),
    ("copy t from ", field("in.csv", "p", "l"), " (format csv, force_not_null (",
     field("a", "c", "i"), "))"),
    ("copy (select * from t where a = ", field(1, "a"), ") to 'x.csv' (format csv)"),
    ("copy (select lower(", field("a", "c", "i"), ") from t) to 'x.csv'"),
]  # fmt: skip


@pytest.mark.parametrize("parts", COPY_OPTION)
def test_an_option_of_copy_named_by_a_value_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in (("qmark", None), ("dollar", None), *POSTGRESQL):
        with pytest.raises(RenderError, match=r"\{k(:i)?\} names an option of COPY"):
            sql(T(*parts), paramstyle, dialect=dialect)


@pytest.mark.parametrize("parts", COPY_LOOK_ALIKES)
def test_copy_look_alikes_are_accepted(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in (("qmark", None), ("dollar", None), *POSTGRESQL):
        sql(T(*parts), paramstyle, dialect=dialect)


def test_duckdb_overwrite_named_by_a_value_deletes_the_directory(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    (out / "keep.txt").write_text("precious")
    (out / "sub" / "also.txt").write_text("precious too")
    con = duckdb.connect()
    con.execute("create table t as select 1 as a, 2 as b")
    # A look-alike runs: the text's own options leave a directory that is not empty alone.
    with pytest.raises(duckdb.IOException, match="not empty"):
        con.execute(*sql(T("copy t to ", field("out", "p", "l"),
                           " (format csv, partition_by (a))"), "qmark"))  # fmt: skip
    assert (out / "keep.txt").exists()
    # The positive control: the query sql() wrote before this pass, run as it is.
    con.execute("""copy t to 'out' (format csv, partition_by (a), "overwrite" true)""")
    assert not (out / "keep.txt").exists()
    assert not (out / "sub" / "also.txt").exists()
    with pytest.raises(RenderError, match="names an option of COPY"):
        sql(T(*COPY_OPTION[0]), "qmark")


def macro(name: str = "lower") -> Interpolation:
    return field(name, "m", "i")


MACRO_NAMED = [
    ("create macro ", macro(), " (x) as 42"),
    ("create or replace temp macro ", macro(), " (x) as x"),
    ("create function ", macro(), " (x) as x"),
    ("create macro main.", macro(), " (x) as x"),
    ("create macro ", macro("read_csv"), " (p) as table select 1"),
]

MACRO_LOOK_ALIKES = [
    ("create macro m (x) as x; select ", field("a", "c", "i"), " from t"),
    ("drop macro ", macro(), ""),
    ("create table ", field("t", "t", "i"), " (a int)"),
    ("select m (", field("a", "c", "i"), ") from t"),
]


@pytest.mark.parametrize("parts", MACRO_NAMED)
def test_a_macro_named_by_a_value_is_refused_where_duckdb_runs(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in (("qmark", None), ("dollar", None), ("qmark", "duckdb")):
        # ("dollar": PostgreSQL's reason for create function, which it refuses too)
        why = r"\{m:i\} names the (macro \(function\) DuckDB|function PostgreSQL)"
        if "macro" in parts[0] or dialect == "duckdb" or paramstyle == "qmark":
            why = r"\{m:i\} names the macro \(function\) DuckDB"
        with pytest.raises(RenderError, match=why):
            sql(T(*parts), paramstyle, dialect=dialect)
    # PostgreSQL calls the best match of every schema's functions, pg_catalog's among them:
    # create function {f:i} (...) is refused there too (tests/test_sql_twelfth_pass.py).
    if "macro" in parts[0]:
        sql(T(*parts), "format")  # (no macros there)
    else:
        with pytest.raises(RenderError, match=r"\{m:i\} names the function PostgreSQL"):
            sql(T(*parts), "format")


@pytest.mark.parametrize("parts", MACRO_LOOK_ALIKES)
def test_macro_look_alikes_are_accepted(parts: tuple[Any, ...]) -> None:
    sql(T(*parts), "qmark", dialect="duckdb")


def test_duckdb_macro_named_by_a_value_replaces_a_builtin() -> None:
    import duckdb

    con = duckdb.connect()
    # A look-alike runs: a macro named in the text, with the fields around it.
    con.execute(*sql(T("create macro m (x) as x + 1; select ", field(1, "n"), ""), "qmark"))
    con.fetchall()
    assert con.sql("select lower('A'), m(1)").fetchall() == [("a", 2)]
    # The positive control: the query sql() wrote before this pass, run as it is.
    con.execute('create macro "lower" (x) as 42')
    assert con.sql("select lower('A')").fetchall() == [(42,)]
    with pytest.raises(RenderError, match="names the macro"):
        sql(T(*MACRO_NAMED[0]), "qmark")


# --- attacks that held ---------------------------------------------------------------------

HELD_POSTGRESQL = [
    # "public" where PostgreSQL wants one role, not a grantee: the role does not exist
    ("alter table held owner to ", public(), ""),
    ("create schema held_s authorization ", public(), ""),
    ("set role ", public(), ""),
    # SET SESSION AUTHORIZATION reads no keyword from a quoted name
    ("set session authorization ", none(), ""),
]


@pytest.mark.parametrize("parts", HELD_POSTGRESQL)
def test_postgresql_reads_these_reserved_names_as_roles_that_do_not_exist(
    request: pytest.FixtureRequest, parts: tuple[Any, ...]
) -> None:
    import psycopg

    db = request.getfixturevalue("pg")
    db.execute("create table held (a int)")
    query = sql(T(*parts), "format")  # accepted
    missing = r'role "(public|none)" does not exist'
    with pytest.raises(psycopg.errors.DatabaseError, match=missing):
        db.execute(*query)


def test_duckdb_types_and_table_functions_are_not_shadowed_by_a_value() -> None:
    import duckdb

    con = duckdb.connect()
    # create type {t:i}: DuckDB refuses a built-in type's name
    with pytest.raises(duckdb.CatalogException, match="already exists"):
        con.execute(*sql(T("create type ", field("varchar", "t", "i"), " as integer"), "qmark"))
    # create view {v:i}: a view is no table function, which is called with ()
    con.execute('create view "duckdb_settings" as select 1 x')  # as sql() wrote it before
    assert con.sql("select count(*) > 1 from duckdb_settings()").fetchall() == [(True,)]
    # but it hides the system view duckdb_settings, written without (): refused since the
    # fourteenth pass (tests/test_sql_fourteenth_pass.py)
    assert con.sql("select * from duckdb_settings").fetchall() == [(1,)]
    with pytest.raises(RenderError, match="names a relation DuckDB creates"):
        sql(T("create view ", field("duckdb_settings", "v", "i"), " as select 1 x"), "qmark",
            dialect="duckdb")  # fmt: skip


def test_postgresql_reads_a_quoted_policy_kind_as_the_word(
    request: pytest.FixtureRequest,
) -> None:
    import psycopg

    with reader(request, "carol") as (db, dsn, carol):
        db.execute("create table docs (owner text, published bool, body text)")
        db.execute("insert into docs values (%s, false, 'mine'), ('dave', true, 'not mine')",
                   (carol,))  # fmt: skip
        db.execute(f"grant select on docs to {carol}")
        db.execute("alter table docs enable row level security")
        db.execute("create policy own on docs using (owner = current_user)")

        def read() -> Any:
            with psycopg.connect(dsn, autocommit=True) as other:
                return other.execute("select body from ipy_istring_contexts.docs").fetchall()

        # A look-alike runs: the kind written in the text narrows the rows.
        db.execute(*sql(T("create policy ", field("pub", "n", "i"),
                          " on docs as restrictive using (published)"), "format"))  # fmt: skip
        assert read() == []
        db.execute("drop policy pub on docs")
        # The positive control: the query sql() wrote before this pass, run as it is.
        db.execute('create policy pub on docs as "permissive" using (published)')
        assert sorted(read()) == [("mine",), ("not mine",)]
        db.execute("drop table docs")


def test_duckdb_export_database_overwrite_named_by_a_value_deletes_nothing(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import duckdb

    monkeypatch.chdir(tmp_path)
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "keep.txt").write_text("precious")
    con = duckdb.connect()
    con.execute("create table t as select 1 as a")
    # EXPORT DATABASE writes one file per table: its OVERWRITE replaces those files only.
    query = sql(T("export database ", field("exp", "p", "l"), " (format csv, ",
                  field("overwrite", "k", "i"), " true)"), "qmark")  # fmt: skip
    con.execute(*query)
    assert (tmp_path / "exp" / "keep.txt").read_text() == "precious"
    assert (tmp_path / "exp" / "t.csv").exists()
