"""The seventeenth red-team pass over sql(): a plugin is a library, and PostgreSQL's own schema.

* A logical replication slot's output plugin is a shared library: PostgreSQL loads it by the
  name or the path its ``plugin`` argument gives (``load_external_function``, no directory
  enforced), so ``select pg_create_logical_replication_slot({slot}, {plugin})`` ran the
  constructor of the value's library on the server (the positive control below, on a server
  with ``wal_level = logical``), as ``LOAD {p:l}`` would, which sql() refuses.  The catalog
  review (tests/test_sql_catalogs.py) reads functions' names, and neither this name nor
  ``pg_copy_logical_replication_slot``'s speaks of loading; their arguments' names do.  A query
  that calls either now takes no field, like ``dblink_connect()``; a slot's name elsewhere
  (``pg_drop_replication_slot({s})``, ``pg_logical_slot_get_changes({s}, ...)``, a plugin as a
  column of ``pg_replication_slots``) stays accepted.  A review of every function of the
  server by its arguments' names is added below.

* libpq reads an ``sslkey`` holding a ``:`` as ``<engine>:<key>`` and loads that OpenSSL engine,
  a shared library by its path.  The server runs libpq for postgres_fdw, dblink and
  subscriptions: a user mapping's ``options (sslcert '...', sslkey {k:l})`` with
  ``'<library>:k'`` ran the library's constructor in the server as the foreign table was read,
  and ``create subscription s connection {c:l}``, kept accepted by the tenth pass (the
  walreceiver drops a value's ``options``), did the same with ``sslkey=<library>:k`` as it
  connected (the positive controls below, on a server of the module's own with SSL on).  The
  sslkey option's value must now be a ``str`` with no ``:`` (a parameter too: a client-side
  binding splices it), and a subscription's connection string takes no field.

* PostgreSQL searches ``pg_catalog`` before every schema of a search path, for relations,
  types and functions, and it lets a superuser move any object into it: ``alter table users
  set schema {s:i}`` with ``s = "pg_catalog"`` (CREATE TABLE in pg_catalog is refused, moving
  one there is not) made a tenant's ``select secret from users``, with its own schema first on
  its search path, read the moved table instead of its own (the positive control below).
  Likewise ``create type {s:i}.mood`` (or a value ``("pg_catalog", "mood")``) made the
  catalog's enum the ``mood`` of every schema that has one: ``'evil'::mood`` read it.  The
  schema an object goes into, by ALTER ... SET SCHEMA or as the schema part of the name a
  CREATE gives, may not be one of PostgreSQL's own (``pg_*``, but for the session's own
  ``pg_temp``) when PostgreSQL may run the query; other schemas, ``"PG_CATALOG"`` (another
  name to PostgreSQL) and ``("pg_temp", "scratch")`` stay accepted.

* A predefined role where an object is given to its owner: ``alter table ledger owner to
  {r:i}`` with ``"pg_read_all_data"`` let a member of that read-only role delete the rows and
  drop the table (the positive control below).  The fourteenth pass refused a ``pg_*`` role
  where one is granted, joined or set; OWNER TO, AUTHORIZATION, CREATE DATABASE ... OWNER and
  REASSIGN OWNED ... TO refuse it now too.

* dblink's ``dblink_build_sql_insert()`` and ``dblink_build_sql_update()``, reviewed as data by
  the seventh pass ("parse the relation's name and return text"), read the row of the relation
  their argument names and return it as SQL: ``dblink_build_sql_insert({t}, '1', 1, {k}, {k})``
  with ``"pg_prepared_statements"`` returned a prepared statement's text, secret included (the
  positive control below), which ``from {t:i}`` refuses.  They are code calls now, as the
  fourteenth pass made ``table_to_xml()``.  So is pageinspect's ``get_raw_page({t}, 0)``, whose
  bytes held pg_authid's SCRAM password verifiers, and pg_surgery's ``heap_force_kill({t}::regclass,
  ...)``, which removed a row of ``pg_statistic`` (``delete from {t:i}`` refuses the catalog).

Attacks tried that held (kept as regression tests): DuckDB's pragmas read a table by its name
in the catalog only, never as a file (``pragma table_info("secret.csv")``, ``pragma_show``);
and SQLite's full-text tables read a quoted name in their arguments as a column, never as an
option, so ``fts5(body, {k:i} = {v:l})`` with ``k = "content"`` cannot name the table the
documents come from (FTS4 says "unrecognized parameter").
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from typing import Any, NamedTuple

import duckdb
import pytest
from conftest import require
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from test_sql_contexts import (
    pg,  # noqa: F401  # the fixture the schema tests ask for
    role_name,
)
from test_sql_tenth_pass import _extension, _library, field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import _CODE_CALLS, sql
from ipy_istring.template import InterpolationTemplate

T = InterpolationTemplate
NOT_POSTGRESQL = (("qmark", None), ("named", None), ("qmark", "duckdb"), ("qmark", "sqlite"))


# --- A server of the tests' own: logical replication, and SSL --------------------------------


def _as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: its programs run as the postgres user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


class Server(NamedTuple):
    """A throwaway server: a superuser's connection string, and a certificate file any role
    may read (the client certificate libpq wants before it reads an sslkey)."""

    dsn: str
    certificate: pathlib.Path


@contextlib.contextmanager
def _server() -> Iterator[Server]:
    """A PostgreSQL server of the module's own, with ``wal_level = logical`` and SSL on (the
    shared test server has neither: a server reads wal_level only as it starts)."""
    found = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/postgres"))
    require(bool(found), "no PostgreSQL server under /usr/lib/postgresql")
    require(shutil.which("openssl") is not None, "no openssl to make the server's certificate")
    binaries = found[-1].parent
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ipy_istring_seventeenth_"))
    directory.chmod(0o755)
    data = directory / "data"
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    certificate = directory / "client.crt"
    try:
        if os.geteuid() == 0:
            shutil.chown(directory, "postgres")
        subprocess.run(
            _as_postgres([str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                          "-A", "trust", "--no-sync"]),
            check=True, capture_output=True,
        )  # fmt: skip
        subprocess.run(
            _as_postgres(["openssl", "req", "-new", "-x509", "-days", "2", "-nodes", "-subj",
                          "/CN=localhost", "-keyout", str(data / "server.key"), "-out",
                          str(data / "server.crt")]),
            check=True, capture_output=True,
        )  # fmt: skip
        (data / "server.key").chmod(0o600)
        shutil.copyfile(data / "server.crt", certificate)
        certificate.chmod(0o644)
        options = (
            f"-c listen_addresses=127.0.0.1 -p {port} -k {directory} -c fsync=off "
            "-c wal_level=logical -c ssl=on"
        )
        subprocess.run(
            _as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-l",
                          str(directory / "server.log"), "-w", "-t", "60", "-o", options,
                          "start"]),
            check=True, capture_output=True,
        )  # fmt: skip
        yield Server(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", certificate)
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                _as_postgres([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate",
                              "-w", "stop"]),
                check=False, capture_output=True,
            )  # fmt: skip
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    """The module's own server (see ``_server``)."""
    pytest.importorskip("psycopg")
    with _server() as running:
        yield running


@pytest.fixture
def library() -> Iterator[tuple[pathlib.Path, pathlib.Path]]:
    """A shared library whose constructor writes a mark, in a folder the server may write."""
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ipy_istring_library_"))
    try:
        directory.chmod(0o777)  # the server's user writes the mark
        yield _library(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# --- A logical replication slot's plugin ---------------------------------------------------


def test_logical_replication_slot_plugin_is_a_library_the_server_loads(
    server: Server, library: tuple[pathlib.Path, pathlib.Path]
) -> None:
    """``pg_create_logical_replication_slot('s', {plugin})`` loaded the value's library: its
    constructor wrote the mark on the server.  Every field of a query calling it, or
    ``pg_copy_logical_replication_slot()``, is refused now."""
    import psycopg

    path, mark = library
    parts = ("select pg_create_logical_replication_slot(", field("s17", "slot"), ", ",
             field(str(path), "plugin"), ")")  # fmt: skip
    with psycopg.connect(server.dsn, autocommit=True) as connection:
        # The positive control: the query sql() wrote before this pass, run as it is.
        before = "select pg_create_logical_replication_slot(%(slot)s, %(plugin)s)"
        with pytest.raises(psycopg.Error, match="magic block"):
            connection.execute(before, {"slot": "s17", "plugin": str(path)})
        assert mark.read_text() == "native code ran\n"
        why = r"\{slot\} is an argument of pg_create_logical_replication_slot\(\), and"
        refused_everywhere(parts, why + r" .* loads its plugin argument as a shared library")
        refused_everywhere(
            ("select pg_copy_logical_replication_slot('a', 'b', false, ",
             field(str(path), "plugin"), ")"),
            r"is an argument of pg_copy_logical_replication_slot\(\)",
        )  # fmt: skip
        # named arguments, and any field of the query: a subquery carries the value
        refused_everywhere(
            ("select pg_create_logical_replication_slot(plugin => ",
             field(str(path), "plugin"), ", slot_name => 's17')"),
            r"is an argument of pg_create_logical_replication_slot\(\)",
        )  # fmt: skip
        refused_everywhere(
            ("with c(p) as (select cast(", field(str(path), "plugin"), " as name)) "
             "select pg_create_logical_replication_slot('s17', (select p from c))"),
            r"is in a query that calls pg_create_logical_replication_slot\(\)",
        )  # fmt: skip
        # Look-alikes, run: a slot made with its plugin in the text, then named by values.
        connection.execute("select pg_create_logical_replication_slot('s17', 'test_decoding')")
        try:
            listed = ("select slot_name from pg_replication_slots where plugin = ",
                      field("test_decoding", "plugin"))  # fmt: skip
            assert connection.execute(*sql(T(*listed), "format")).fetchall() == [("s17",)]
            changes = ("select count(*) from pg_logical_slot_get_changes(",
                       field("s17", "slot"), ", null, null)")  # fmt: skip
            assert connection.execute(*sql(T(*changes), "format")).fetchone() is not None
        finally:
            dropped = ("select pg_drop_replication_slot(", field("s17", "slot"), ")")
            connection.execute(*sql(T(*dropped), "format"))
        kept = ("select 1 as pg_create_logical_replication_slot where 1 = ", field(1))
        assert connection.execute(*sql(T(*kept), "format")).fetchall() == [(1,)]


# --- libpq's sslkey: an OpenSSL engine, a library by its path --------------------------------


def _ssl_conninfo(server: Server, key: str, **more: str) -> str:
    """A connection string back to the server over SSL, with a client certificate and ``key``
    as its sslkey (libpq reads the key only once it has a certificate)."""
    return make_conninfo(server.dsn, sslmode="require", sslcert=str(server.certificate),
                         sslkey=key, **more)  # fmt: skip


def test_postgres_fdw_sslkey_loads_the_engine_a_value_names(
    server: Server, library: tuple[pathlib.Path, pathlib.Path]
) -> None:
    """A user mapping's ``sslkey '<library>:k'``: postgres_fdw's libpq loaded the OpenSSL engine
    the value named, and its constructor wrote the mark on the server, as the foreign table
    was read.  The value of a written sslkey option may be a path with no ':' (also as a
    parameter, which a client-side binding splices); the option's name stays refused."""
    import psycopg

    path, mark = library
    info = conninfo_to_dict(server.dsn)
    written = ", ".join(f"{key} '{info[key]}'" for key in ("host", "port", "dbname"))
    mapping = ("create user mapping for current_user server s17 options (user 'postgres', "
               f"sslcert '{server.certificate}', sslkey ")  # fmt: skip
    with psycopg.connect(server.dsn, autocommit=True) as connection:
        connection.execute("create extension if not exists postgres_fdw")
        connection.execute(
            f"create server s17 foreign data wrapper postgres_fdw options ({written}, "
            "sslmode 'require')"
        )
        try:
            # The positive control: the query sql() wrote before this pass, run as it is.
            connection.execute(mapping + f"'{path}:k')")
            connection.execute("create foreign table ft17 (n int) server s17 "
                               "options (table_name 'pg_class')")  # fmt: skip
            with pytest.raises(psycopg.Error, match="could not load SSL engine"):
                connection.execute("select count(*) from ft17")
            assert mark.read_text() == "native code ran\n"
            why = r"is the value of the sslkey option, which libpq"
            for value, specs in ((f"{path}:k", ("l", "")), ("engine:key", ("l", "")),
                                 (("x",), ("",)), (5, ("",))):  # fmt: skip
                for spec in specs:  # ':l', and a parameter a client-side binding splices
                    refused_everywhere((mapping, field(value, "k", spec), ")"), why)
            for parts in (
                ("alter user mapping for current_user server s17 options (set sslkey ",
                 field(f"{path}:k", "k", "l"), ")"),
                ("alter server s17 options (add sslkey ", field(f"{path}:k", "k", "l"), ")"),
                ('alter server s17 options (add "sslkey" ', field(f"{path}:k", "k", "l"), ")"),
            ):  # fmt: skip
                refused_everywhere(parts, why)
            # Look-alikes, run: a key's path, and the other options' values.
            connection.execute("drop user mapping for current_user server s17")
            connection.execute(*sql(T(mapping, field("/keys/alice.key", "k", "l"), ")"),
                                    "format"))  # fmt: skip
            kept = ("alter server s17 options (set dbname ", field("postgres", "d", "l"), ")")
            connection.execute(*sql(T(*kept), "format"))
        finally:
            connection.execute("drop server s17 cascade")


def test_subscription_connection_loads_the_engine_a_value_names(
    server: Server, library: tuple[pathlib.Path, pathlib.Path]
) -> None:
    """``create subscription s connection {c:l}``, accepted since the tenth pass (its
    ``options`` were dropped): with ``sslkey=<library>:k`` the server's libpq loaded the
    library as an OpenSSL engine, as the subscription connected.  The connection string of
    CREATE and ALTER SUBSCRIPTION takes no field now; its name and publications may."""
    import psycopg

    path, mark = library
    conninfo = _ssl_conninfo(server, f"{path}:k")
    after = " publication p17 with (create_slot = false, enabled = false, slot_name = none)"
    with psycopg.connect(server.dsn, autocommit=True) as connection:
        connection.execute("drop database if exists sub17")
        connection.execute("create database sub17")
    try:
        with psycopg.connect(make_conninfo(server.dsn, dbname="sub17"), autocommit=True) as sub:
            # The positive control: the query sql() wrote before this pass, run as it is.
            literal = "'" + conninfo.replace("'", "''") + "'"
            with pytest.raises(psycopg.Error, match="could not load SSL engine"):
                sub.execute("create subscription sb17 connection " + literal + after)
            assert mark.read_text() == "native code ran\n"
            why = r"\{c:l\} is the connection string of a subscription"
            refused_everywhere(("create subscription sb17 connection ",
                                field(conninfo, "c", "l"), after), why)  # fmt: skip
            refused_everywhere(("alter subscription sb17 connection ",
                                field(conninfo, "c", "l")), why)  # fmt: skip
            # Look-alikes, run: the connection string in the text, a value for the rest.
            plain = "'" + make_conninfo(server.dsn).replace("'", "''") + "'"
            kept = ("create subscription ", field("sb17", "s", "i"), " connection " + plain
                    + " publication ", field("p17", "p", "i"),
                    " with (create_slot = false, enabled = false, slot_name = none)")  # fmt: skip
            sub.execute(*sql(T(*kept), "format"))
            sub.execute("drop subscription sb17")
    finally:
        with psycopg.connect(server.dsn, autocommit=True) as connection:
            connection.execute("drop database sub17")


# The argument names of PostgreSQL's functions that say the argument is code, SQL, a library,
# a command or a connection string; and those functions whose arguments so named are data.
CODE_ARGUMENT = r"plugin|librar|program|command|cmd|query|sql|script|conninfo|connstr"
DATA_ARGUMENTS = {
    # the kind of command whose progress to report: a name, never run
    "pg_stat_get_progress_info",
}


def test_postgresql_functions_whose_arguments_name_code_are_reviewed(postgres_dsn: str) -> None:
    """The catalog review by functions' names missed the replication slots' ``plugin``: every
    function of the server with an input argument named like code is refused by sql() or
    reviewed here as data (tests/test_sql_seventh_pass.py reads the contrib extensions')."""
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        rows = connection.execute(
            "select distinct p.proname from pg_proc p, unnest(p.proargnames, p.proargmodes)"
            " a(name, mode) where coalesce(a.mode, 'i') in ('i', 'b', 'v') and a.name ~ %s",
            (CODE_ARGUMENT,),
        ).fetchall()
    names = {name for (name,) in rows}
    assert "pg_create_logical_replication_slot" in names  # the review reads what it should
    assert sorted(names - set(_CODE_CALLS) - DATA_ARGUMENTS) == []


# --- dblink's SQL builders read a row -------------------------------------------------------


def test_dblink_build_sql_reads_the_row_of_the_relation_a_value_names(pg: Any) -> None:  # noqa: F811
    """``dblink_build_sql_insert({t}, '1', 1, {k}, {k})`` reads the row of the relation ``t``
    names and returns it as SQL: with ``"pg_prepared_statements"`` it returned a prepared
    statement's text, secret included, which ``from {t:i}`` refuses (as the fourteenth pass
    found for ``table_to_xml()``).  A query calling it, or ``dblink_build_sql_update()``, takes
    no field now; ``dblink_build_sql_delete()``, which reads no row, stays accepted."""
    _extension(pg, "dblink")
    pg.execute("prepare p17 as select 'hunter2'")
    try:
        # The positive control: the query sql() wrote before this pass, run as it is.
        before = "select dblink_build_sql_insert(%s, '1', 1, %s, %s)"
        row = pg.execute(before, ("pg_prepared_statements", ["p17"], ["p17"])).fetchone()
        assert "hunter2" in row[0]
    finally:
        pg.execute("deallocate p17")
    for function in ("dblink_build_sql_insert", "dblink_build_sql_update"):
        refused_everywhere(
            (f"select {function}(", field("pg_prepared_statements", "t"), ", '1', 1, ",
             field(["p17"], "k"), ", ", field(["p17"], "k"), ")"),
            rf"is an argument of {function}\(\), and {function}\(\) returns, as SQL text, the row",
        )  # fmt: skip
    refused_everywhere(
        ("with c(t) as (select ", field("pg_prepared_statements", "t"), "::text) "
         "select dblink_build_sql_insert((select t from c), '1', 1, '{p17}', '{p17}')"),
        r"is in a query that calls dblink_build_sql_insert\(\)",
    )  # fmt: skip
    # Look-alikes, run: the DELETE builder and the primary key's columns read no row.
    pg.execute("create table keyed (id int primary key, secret text)")
    for kept, expected in (
        (("select dblink_build_sql_delete(", field("keyed", "t"), ", '1', 1, ",
          field(["7"], "k"), ")"), "DELETE FROM keyed WHERE id = '7'"),
        (("select dblink_get_pkey(", field("keyed", "t"), ")::text"), "(1,id)"),
    ):  # fmt: skip
        assert pg.execute(*sql(T(*kept), "format")).fetchone() == (expected,)


def test_get_raw_page_reads_the_rows_of_the_relation_a_value_names(pg: Any) -> None:  # noqa: F811
    """pageinspect's ``get_raw_page({t}, 0)`` returns the relation's page, rows and all: with
    ``"pg_authid"`` the bytes held a role's SCRAM password verifier, which ``from {t:i}``
    refuses.  A query calling it takes no field now; the page functions that take a page
    (``page_header({p})``) and the relation's metadata (``pgstattuple({t})``) stay accepted."""
    _extension(pg, "pageinspect")
    role = role_name(pg, "pw17")
    pg.execute(f"drop role if exists {role}")
    pg.execute(f"create role {role} password 'hunter2'")
    try:
        # The positive control: the query sql() wrote before this pass, run as it is.
        before = ("select count(*) from generate_series(0, pg_relation_size(%s) / 8192 - 1) b "
                  "where position('SCRAM-SHA-256' in encode(get_raw_page(%s, b::int), "
                  "'escape')) > 0")  # fmt: skip
        assert pg.execute(before, ("pg_authid", "pg_authid")).fetchone()[0] >= 1
    finally:
        pg.execute(f"drop role {role}")
    refused_everywhere(
        ("select get_raw_page(", field("pg_authid", "t"), ", 0)"),
        r"is an argument of get_raw_page\(\), and pageinspect's get_raw_page\(\) returns",
    )
    refused_everywhere(
        ("select get_raw_page('pg_authid', ", field(0, "block"), ")"),
        r"is an argument of get_raw_page\(\)",
    )
    # Look-alikes, run: a page's header (the page read by a query of its own), a relation's
    # size.
    pg.execute("create table paged (v text)")
    pg.execute("insert into paged values ('x')")
    page = pg.execute("select get_raw_page('paged', 0)").fetchone()[0]
    for kept in (
        ("select (page_header(", field(page, "page"), ")).lower > ", field(0, "n")),
        ("select pg_relation_size(", field("paged", "t"), ") > ", field(0, "n")),
    ):
        assert pg.execute(*sql(T(*kept), "format")).fetchone() == (True,)


def test_pg_surgery_changes_the_rows_of_the_relation_a_value_names(pg: Any) -> None:  # noqa: F811
    """pg_surgery's ``heap_force_kill({t}::regclass, {tids})`` removed a row of the relation
    ``t`` names, with ``"pg_statistic"`` a row of the catalog, which ``delete from {t:i}``
    refuses.  A query calling it or ``heap_force_freeze()`` takes no field now."""
    _extension(pg, "pg_surgery")
    pg.execute("create table stat17 (a int)")
    pg.execute("insert into stat17 select generate_series(1, 100)")
    pg.execute("analyze stat17")
    counted = "select count(*) from pg_statistic where starelid = 'stat17'::regclass"
    assert pg.execute(counted).fetchone() == (1,)
    (tid,) = pg.execute(
        "select ctid::text from pg_statistic where starelid = 'stat17'::regclass"
    ).fetchone()
    # The positive control: the query sql() wrote before this pass, run as it is.
    pg.execute("select heap_force_kill(%s::regclass, %s::tid[])", ("pg_statistic", [tid]))
    assert pg.execute(counted).fetchone() == (0,)
    for function in ("heap_force_kill", "heap_force_freeze"):
        refused_everywhere(
            (f"select {function}(", field("pg_statistic", "t"), "::regclass, ",
             field([tid], "tids"), "::tid[])"),
            rf"is an argument of {function}\(\), and pg_surgery's {function}\(\)",
        )  # fmt: skip
    kept = ("select count(*) from stat17 where a > ", field(50, "n"))
    assert pg.execute(*sql(T(*kept), "format")).fetchone() == (50,)


# --- The schema an object goes into ---------------------------------------------------------

SCHEMA = "ipy_istring_contexts"  # the pg fixture's schema, first on its search path
TENANT = "ipy_istring_seventeenth"  # another schema, whose role reads its own tables


def test_set_schema_pg_catalog_shadows_every_schemas_table(pg: Any) -> None:  # noqa: F811
    """``alter table users set schema "pg_catalog"`` moved the table where every search path
    looks first: the tenant's ``select secret from users`` read it."""
    pg.execute(f"drop schema if exists {TENANT} cascade")
    pg.execute(f"create schema {TENANT}")
    pg.execute(f"create table {TENANT}.users (secret text)")
    pg.execute(f"insert into {TENANT}.users values ('the tenant''s own')")
    pg.execute("create table users (secret text)")
    pg.execute("insert into users values ('mallory''s')")
    read = f"select secret from {TENANT}.users union all select secret from users"
    assert sorted(pg.execute(read).fetchall()) == [("mallory's",), ("the tenant's own",)]
    moved = ("alter table users set schema ", field("pg_catalog", "s", "i"))
    try:
        # The positive control: the query sql() wrote before this pass, run as it is.
        pg.execute('alter table users set schema "pg_catalog"')
        pg.execute(f"set search_path to {TENANT}")
        assert pg.execute("select secret from users").fetchall() == [("mallory's",)]
    finally:
        pg.execute(f"set search_path to {SCHEMA}")
        pg.execute(f"alter table if exists pg_catalog.users set schema {SCHEMA}")
    why = r"\{s:i\} names the schema an object is created in or moved to"
    refused_everywhere(moved, why)
    for statement in ("alter view v", "alter materialized view v", "alter sequence q",
                      "alter function f(text)", "alter type mood", "alter domain d",
                      "alter table if exists only users", "alter foreign table ft"):  # fmt: skip
        for value in ("pg_catalog", "pg_toast", ("pg_catalog",)):
            refused_everywhere((f"{statement} set schema ", field(value, "s", "i")), why)
    # composed from a fragment, and after another action of ALTER TABLE
    fragment = T("alter table users set schema")
    refused_everywhere((field(fragment, "f", "q"), " ", field("pg_catalog", "s", "i")), why)
    # Look-alikes: another schema (run), "PG_CATALOG" (another name to PostgreSQL), the
    # catalog's name where it names no destination, and databases that are not PostgreSQL.
    pg.execute(f"create schema {TENANT}_b")
    try:
        pg.execute(*sql(T("alter table users set schema ", field(f"{TENANT}_b", "s", "i")),
                        "format"))  # fmt: skip
        assert pg.execute(f"select secret from {TENANT}_b.users").fetchall() == [("mallory's",)]
    finally:
        pg.execute(f"drop schema {TENANT}_b cascade")
        pg.execute(f"drop schema {TENANT} cascade")
    for kept in (
        ("alter table users set schema ", field("PG_CATALOG", "s", "i")),
        ("alter table users rename column secret to ", field("pg_catalog", "c", "i")),
        ("select ", field("pg_catalog", "c", "i"), " from users"),
        ("alter role r set application_name = ", field("pg_catalog", "s", "l")),
    ):
        sql(T(*kept), "format")
    for paramstyle, dialect in NOT_POSTGRESQL:
        sql(T(*moved), paramstyle, dialect=dialect)


def test_create_type_in_pg_catalog_shadows_each_schemas_type(pg: Any) -> None:  # noqa: F811
    """``create type "pg_catalog".mood`` (a ``{s:i}`` schema, or a tuple value) made the
    catalog's enum the type ``mood`` of a schema that has one of its own."""
    pg.execute("create type mood as enum ('happy')")
    assert pg.execute("select 'happy'::mood").fetchone() == ("happy",)
    for created in ('create type "pg_catalog".mood as enum (\'evil\')',
                    'create type "pg_catalog"."mood" as enum (\'evil\')'):  # fmt: skip
        # The positive control: each query sql() wrote before this pass, run as it is.
        pg.execute(created)
        try:
            assert pg.execute("select 'evil'::mood").fetchone() == ("evil",)
            with pytest.raises(Exception, match="invalid input value for enum mood"):
                pg.execute("select 'happy'::mood")
        finally:
            pg.execute("drop type pg_catalog.mood")
    # (where DuckDB may run the query too, its rule on the names it creates speaks first)
    why = r"names the schema an object is created in or moved to|names a relation DuckDB"
    refused_everywhere(("create type ", field("pg_catalog", "s", "i"), ".mood as enum ('a')"), why)
    refused_everywhere(("create type ", field(("pg_catalog", "mood"), "t", "i"),
                        " as enum ('a')"), why)  # fmt: skip
    refused_everywhere(("create domain ", field("pg_catalog", "s", "i"), ".d as text"), why)
    refused_everywhere(("create type ", field(("pg_toast", "mood"), "t", "i"), " as (a int)"), why)
    # The other objects a superuser may create there (each was created in pg_catalog on the
    # real server when this pass looked): collations, operators, text search objects...
    for statement, rest in (
        ("create collation ", ".c (locale = 'C')"),
        ("create collation if not exists ", ".c (locale = 'C')"),
        ("create operator ", ".=== (leftarg = int, rightarg = int, function = int4eq)"),
        ("create operator family ", ".f using btree"),
        ("create text search configuration ", ".c (copy = simple)"),
        ("create default conversion ", ".c for 'LATIN1' to 'UTF8' from iso8859_1_to_utf8"),
    ):
        refused_everywhere((statement, field("pg_catalog", "s", "i"), rest), why)
    refused_everywhere(("create statistics ", field(("pg_catalog", "st"), "t", "i"),
                        " on a, b from t"), why)  # fmt: skip
    # Look-alikes, run: the type in a schema of one's own, and a temporary table in pg_temp.
    for kept in (
        ("create type ", field((SCHEMA, "mood2"), "t", "i"), " as enum ('a')"),
        ("create type ", field(SCHEMA, "s", "i"), ".mood3 as enum ('a')"),
        ("create temp table ", field(("pg_temp", "scratch"), "t", "i"), " (a int)"),
        ("create table ", field(("pg_temp", "scratch2"), "t", "i"), " (a int)"),
        ("create collation ", field(SCHEMA, "s", "i"), ".c17 (locale = 'C')"),
        ("create text search configuration ", field(SCHEMA, "s", "i"), ".c17 (copy = simple)"),
    ):
        pg.execute(*sql(T(*kept), "format"))
    assert pg.execute("select 'a'::mood2, 'a'::mood3").fetchone() == ("a", "a")
    assert pg.execute("select 'b' < 'a' collate c17").fetchone() == (False,)
    pg.execute("drop table pg_temp.scratch, pg_temp.scratch2")


# --- A predefined role as an owner -----------------------------------------------------------


def test_owner_to_a_predefined_role_hands_the_object_to_its_members(pg: Any) -> None:  # noqa: F811
    """``alter table ledger owner to "pg_read_all_data"`` made a member of that read-only role
    the table's owner: it deleted the rows and dropped the table, which it could only read.
    The fourteenth pass refused a predefined role where a role is granted, joined or set; the
    role an object is given to (OWNER TO, AUTHORIZATION, CREATE DATABASE ... OWNER, REASSIGN
    OWNED ... TO) is refused the same way now."""
    reader = role_name(pg, "reader17")
    pg.execute(f"drop role if exists {reader}")
    pg.execute(f"create role {reader}")
    try:
        pg.execute(f"grant pg_read_all_data to {reader}")
        pg.execute("create table ledger (v text)")
        pg.execute("insert into ledger values ('kept')")
        pg.execute(f"set role {reader}")
        try:
            assert pg.execute("select v from ledger").fetchall() == [("kept",)]
            with pytest.raises(Exception, match="permission denied for table ledger"):
                pg.execute("delete from ledger")
        finally:
            pg.execute("reset role")
        # The positive control: the query sql() wrote before this pass, run as it is.
        pg.execute('alter table ledger owner to "pg_read_all_data"')
        pg.execute(f"set role {reader}")
        try:
            pg.execute("delete from ledger")
            pg.execute("drop table ledger")
        finally:
            pg.execute("reset role")
        assert pg.execute("select to_regclass('ledger')").fetchone() == (None,)
    finally:
        pg.execute("drop table if exists ledger")
        pg.execute(f"drop role {reader}")
    why = r"names a role, and PostgreSQL reserves the names starting with 'pg_'"
    value = field("pg_read_all_data", "r", "i")
    for parts in (
        ("alter table ledger owner to ", value),
        ("alter function f(text) owner to ", value),
        ("alter schema s owner to ", value),
        ("alter database d owner to ", value),
        ("create schema s authorization ", value),
        ("create schema authorization ", value),
        ("create database d owner ", value),
        ("create database d with owner = ", value),
        ("create tablespace t owner ", value, " location '/nonexistent'"),
        ("reassign owned by alice to ", value),
        ("alter table ledger owner to ", field(("pg_database_owner",), "r", "i")),
    ):
        refused_everywhere(parts, why)
    # Look-alikes: a role of one's own (run), "PG_X" (no predefined role), a column named
    # owner, and databases that are not PostgreSQL.
    pg.execute("create table ledger (v text)")
    kept = ("alter table ledger owner to ", field(conninfo_to_dict(pg.info.dsn)["user"], "r", "i"))
    pg.execute(*sql(T(*kept), "format"))
    pg.execute("drop table ledger")
    for parts in (
        ("alter table ledger owner to ", field("PG_X", "r", "i")),
        ("select * from t where owner = ", field("pg_read_all_data", "r", "i")),
    ):
        sql(T(*parts), "format")
    for paramstyle, dialect in NOT_POSTGRESQL:
        sql(T("alter table ledger owner to ", value), paramstyle, dialect=dialect)


# --- Held ------------------------------------------------------------------------------------


def test_duckdb_pragmas_read_no_file_a_table_name_gives(tmp_path: pathlib.Path) -> None:
    """DuckDB's ``pragma table_info`` and ``storage_info`` and the ``pragma_show`` table
    function look the name up in the catalog: a file's name is no table there (DESCRIBE of the
    same name reads the file's header, which sql() refuses for a ':i' name DuckDB may read)."""
    (tmp_path / "secret.csv").write_text("hunter2,b\n1,2\n")
    connection = duckdb.connect()
    connection.execute(f"set file_search_path = '{tmp_path}'")
    header = connection.execute("describe 'secret.csv'").fetchall()
    assert header[0][0] == "hunter2"  # the control: the name as DESCRIBE reads it
    for query in ("pragma table_info(\"secret.csv\")", "pragma storage_info('secret.csv')",
                  "from pragma_show('secret.csv')", "from pragma_table_info('secret.csv')"):
        with pytest.raises(duckdb.CatalogException, match="does not exist"):  # fmt: skip
            connection.execute(query)
    with pytest.raises(RenderError, match="DuckDB reads a name that is no table as a file"):
        sql(T("describe ", field("secret.csv", "t", "i")))


@pytest.mark.parametrize("module", ["fts4", "fts5"])
def test_sqlite_fts_reads_a_quoted_option_as_no_option(module: str) -> None:
    """``fts5(body, "content" = 's')`` (a ':i' option name) is a parse error, and FTS4 calls
    it an unrecognized parameter: only a bare word names an option, and those are the
    text's.  The control: the bare word served the named table's rows."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table s (body)")
    connection.execute("insert into s values ('hunter2')")
    connection.execute(f"create virtual table bare using {module}(body, content='s')")
    assert connection.execute("select body from bare").fetchall() == [("hunter2",)]
    query = sql(
        T(f"create virtual table v using {module}(body, ", field("content", "k", "i"), "=",
          field("s", "v", "l"), ")"),
        dialect="sqlite",
    )  # fmt: skip
    with pytest.raises(sqlite3.Error, match=r"parse error|unrecognized parameter"):
        connection.execute(*query)
    connection.close()
