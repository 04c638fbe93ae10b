"""The tenth red-team pass over sql(): a connection string is more than a server's address.

* dblink's ``dblink_connect(name, {conninfo})`` was accepted, the value read as "a server to
  connect to" (docs/renderers.md).  But a libpq connection string also carries the new
  session's settings: ``options='-c session_preload_libraries=<file>'`` made the server load
  the value's shared library (native code) as the linked session started, in the real
  PostgreSQL (the positive control below: the library's constructor ran and left its mark),
  the setting that ``set session_preload_libraries = {x:l}`` is refused for.  A query that
  calls ``dblink_connect()`` or ``dblink_connect_u()`` now takes no field, like ``dblink()``;
  ``dblink_disconnect({name})`` and the name as a column stay accepted.

* postgres_fdw passes a foreign server's ``options`` option to libpq, as the remote session's
  command-line options: ``create server ... options (host '...', options {o:l})`` was accepted
  (an option's value is data), and ``-c session_preload_libraries=<file>`` made the server
  load the value's library when a foreign table of the server was read (the positive control
  below).  A field after the option name ``options`` (also ``add``/``set options``, quoted or
  in any case) is refused now; the other options' values stay accepted.

* DuckDB's ATTACH took an option's name from a value: ``attach {p} as d ({k:i} {v})`` was
  accepted (only a TYPE written in the text was read as one), and with ``k = "type"`` DuckDB
  loaded the parameter's file as an extension (the positive control below: DuckDB's own error
  says it read the file as one), as the eighth pass refused for ``(type {v})``.  A field that
  names an option of ATTACH is refused now; the path (also in parentheses), the alias and the
  options' values stay accepted.

* EXPLAIN took an option's name from a value: ``explain ({k:i}) delete from t where id = {x}``
  was accepted, and with ``k = "analyze"`` DuckDB and PostgreSQL ran the DELETE the text
  wrote only to be planned (the positive controls below: the rows were gone).  A field that
  names an option of EXPLAIN is refused now; an option's value (``format {f:i}``,
  ``verbose {b:l}``) and the fields of the statement explained stay accepted.

* CREATE/ALTER ROLE took an attribute from a value: PostgreSQL reads a quoted name where a
  role's attribute stands as that attribute, so ``create role r with {k:i} login`` with
  ``k = "superuser"`` made a superuser (the positive control below, run as a superuser, as an
  administration notebook would).  A ``:i`` field there is refused now; a role's name
  (``create role {r:i}``, ``in role {r:i}``, ``admin {r:i}``, ``rename to {r:i}``,
  ``alter group {g:i} add user {u:i}``) stays accepted, as does CREATE USER MAPPING.

Attacks tried that held (kept as regression tests on the real DuckDB): DuckDB's ``PREPARE p AS
<statement>`` hides the statement behind PREPARE, where sql() does not read LOAD, INSTALL,
ATTACH's TYPE, SET of a code setting, PRAGMA or CREATE MACRO (``prepare p as load {x:l}`` is
accepted), but DuckDB prepares none of them ("... is not a preparable statement"), and
PostgreSQL prepares only SELECT, INSERT, UPDATE, DELETE, MERGE and VALUES, whose calls sql()
reads as everywhere else.  ``create subscription s connection {c:l}`` is a libpq connection
string too, but the subscription's walreceiver writes ``options`` of its own after it, so the
value's ``-c session_preload_libraries`` was dropped and the publisher loaded nothing.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import tempfile
from typing import Any

import duckdb
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from test_sql_contexts import (
    pg,  # noqa: F401  # the fixture, which db below asks for
    role_name,
)

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

T = InterpolationTemplate
# Where PostgreSQL may run a query: its paramstyles, and any style with its dialect.
POSTGRESQL = (("format", None), ("pyformat", None), ("dollar", None), ("qmark", "postgresql"))


def field(value: object, expression: str = "x", spec: str = "") -> Interpolation:
    return Interpolation(value, expression, None, spec)


def refused_everywhere(parts: tuple[Any, ...], why: str) -> None:
    for paramstyle, dialect in POSTGRESQL:
        with pytest.raises(RenderError, match=why):
            sql(T(*parts), paramstyle, dialect=dialect)


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Any:
    """A PostgreSQL connection in a fresh schema: tests/test_sql_contexts.py's ``pg``."""
    return request.getfixturevalue("pg")


def _extension(db: Any, name: str) -> None:
    available = db.execute("select 1 from pg_available_extensions where name = %s", (name,))
    if available.fetchone() is None:
        pytest.skip(f"PostgreSQL's {name} extension is not installed on this server")
    db.execute(f"create extension if not exists {name} schema ipy_istring_contexts")


_LIBRARY = r"""
#include <stdio.h>
__attribute__((constructor)) static void ran(void) {
    FILE *f = fopen(MARK, "w");
    if (f) { fputs("native code ran\n", f); fclose(f); }
}
"""


def _library(directory: pathlib.Path) -> tuple[pathlib.Path, pathlib.Path]:
    """A shared library whose constructor, run as it is loaded, writes a mark file."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the shared library the value names")
    source, library, mark = directory / "lib.c", directory / "evil.so", directory / "ran"
    source.write_text(_LIBRARY)
    subprocess.run(
        [compiler, "-shared", "-fPIC", f'-DMARK="{mark}"', "-o", str(library), str(source)],
        check=True,
    )
    library.chmod(0o755)
    return library, mark


def test_postgresql_dblink_connect_sets_the_linked_sessions_libraries(
    db: Any, postgres_dsn: str
) -> None:
    """``dblink_connect('k', {conninfo})``: the connection string's ``options`` set
    ``session_preload_libraries`` for the session dblink opens, and the server loaded the
    value's library as it started (its constructor wrote the mark)."""
    _extension(db, "dblink")
    if db.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("session_preload_libraries is set from a connection string by a superuser")
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ipy_istring_dblink_"))
    try:
        directory.chmod(0o777)  # the server's user writes the mark
        library, mark = _library(directory)
        conninfo = make_conninfo(postgres_dsn, options=f"-c session_preload_libraries={library}")
        parts = ("select dblink_connect('k', ", field(conninfo, "conninfo"), ")")
        # The positive control: the query sql() wrote before this pass, run as it is.
        query = "select dblink_connect('k', %s)"
        with pytest.raises(Exception, match=r"magic block|could not establish connection"):
            db.execute(query, (conninfo,))
        assert mark.read_text() == "native code ran\n"
        refused_everywhere(parts, r"is an argument of dblink_connect\(\), and dblink_connect")
        refused_everywhere(
            ("select dblink_connect_u('k', ", field(conninfo, "conninfo"), ")"),
            r"is an argument of dblink_connect_u\(\)",
        )
        # Any field of a query that calls it: the connection string may come from a subquery.
        refused_everywhere(
            ("with c(q) as (select cast(", field(conninfo), " as text)) "
             "select dblink_connect('k', (select q from c))"),
            r"is in a query that calls dblink_connect\(\)",
        )  # fmt: skip
        refused_everywhere(("select dblink_connect(", field(conninfo), ")"), r"dblink_connect\(\)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    # Look-alikes: the calls that take a connection's name, and the name as a column.
    kept = ("select dblink_disconnect(", field("k"), ")")
    assert sql(T(*kept), "format").sql == "select dblink_disconnect(%s)"
    kept = ("select dblink_get_connections(), ", field(1))
    assert sql(T(*kept), "format").sql == "select dblink_get_connections(), %s"
    kept = ("select 1 as dblink_connect where 1 = ", field(1))
    assert db.execute(*sql(T(*kept), "format")).fetchall() == [(1,)]


@pytest.mark.parametrize(
    "statement",
    [
        "load {x}",
        "install {x}",
        "force install {x}",
        "attach ':memory:' as d (type {x})",
        "set home_directory = {x}",
        "pragma import_database({x})",
        "import database {x}",
        "create macro m() as {x}",
        "explain analyze load {x}",
        "call query({x})",
    ],
)
def test_duckdb_prepares_no_statement_that_runs_code(statement: str, tmp_path: Any) -> None:
    """DuckDB refuses to prepare the statements sql() refuses a field in, so ``prepare p as``
    before them hides nothing: DuckDB's parser says the statement is not preparable (DuckDB
    1.x, which Python 3.10 gets, reads none of them after PREPARE: a syntax error there)."""
    path = str(tmp_path / "evil.duckdb_extension")
    pathlib.Path(path).write_bytes(b"not an extension")
    connection = duckdb.connect()
    text = "prepare p as " + statement.replace("{x}", "'" + path + "'")
    refused = "is not a preparable statement|^Parser Error: syntax error at or near"
    with pytest.raises(duckdb.ParserException, match=refused):
        connection.execute(text)
    with pytest.raises(duckdb.BinderException, match='Prepared statement "p" does not exist'):
        connection.execute("execute p")
    assert os.path.exists(path)


def test_postgresql_postgres_fdw_options_set_the_remote_sessions_libraries(
    db: Any, postgres_dsn: str
) -> None:
    """postgres_fdw passes a server's ``options`` option to libpq as the remote session's
    command-line options: ``options (..., options {o:l})`` with ``-c
    session_preload_libraries=<file>`` made the server load the value's library when the
    foreign table was read (its constructor wrote the mark)."""
    _extension(db, "postgres_fdw")
    if db.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("session_preload_libraries is set from a connection string by a superuser")
    info = conninfo_to_dict(postgres_dsn)
    written = ", ".join(f"{key} '{info[key]}'" for key in ("host", "port", "dbname") if key in info)
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ipy_istring_fdw_"))
    try:
        directory.chmod(0o777)  # the server's user writes the mark
        library, mark = _library(directory)
        value = f"-c session_preload_libraries={library}"
        before = f"create server fdw foreign data wrapper postgres_fdw options ({written}, options "
        # The positive control: the query sql() wrote before this pass, run as it is.
        db.execute(before + "'" + value + "')")
        user = str(info.get("user", "postgres")).replace("'", "''")
        db.execute(f"create user mapping for current_user server fdw options (user '{user}')")
        db.execute("create foreign table ft (n int) server fdw options (table_name 'pg_class')")
        with pytest.raises(Exception, match=r"magic block|could not connect"):
            db.execute("select count(*) from ft")
        assert mark.read_text() == "native code ran\n"
        why = r"follows OPTIONS, the option postgres_fdw passes to libpq"
        refused_everywhere((before, field(value, "o", "l"), ")"), why)
        refused_everywhere(
            ("alter server fdw options (add options ", field(value, "o", "l"), ")"), why
        )
        refused_everywhere(
            ("alter server fdw options (set options ", field(value, "o", "l"), ")"), why
        )
        quoted = ('alter server fdw options (set "options" ', field(value, "o", "l"), ")")
        refused_everywhere(quoted, why)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    # Look-alikes: the other options' values, and OPTIONS (...) itself.
    kept = (
        "create server s2 foreign data wrapper postgres_fdw options (host ",
        field("h", "h", "l"),
        ")",
    )
    assert sql(T(*kept), "format").sql.endswith("options (host 'h')")
    kept = ("alter foreign table ft options (set table_name ", field("pg_proc", "t", "l"), ")")
    assert sql(T(*kept), "format").sql.endswith("(set table_name 'pg_proc')")


def test_postgresql_subscription_connection_keeps_its_own_options(
    db: Any, postgres_dsn: str
) -> None:
    """Held here: the subscription's walreceiver writes ``options`` of its own after the
    connection string (datestyle, intervalstyle, extra_float_digits), so a value's ``-c
    session_preload_libraries=<file>`` was dropped: the publisher (here the same server)
    opened the session and never loaded the library.  ``create subscription s connection
    {c:l}`` was kept accepted for that; it is refused since the seventeenth pass, whose
    ``sslkey=<library>:<key>`` made libpq load the value's library as an OpenSSL engine
    (tests/test_sql_seventeenth_pass.py), so the queries below are run as sql() wrote them."""
    if db.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("CREATE SUBSCRIPTION needs a superuser on PostgreSQL 15")
    directory = pathlib.Path(tempfile.mkdtemp(prefix="ipy_istring_subscription_"))
    try:
        directory.chmod(0o777)  # the server's user would write the mark
        library, mark = _library(directory)
        conninfo = make_conninfo(postgres_dsn, options=f"-c session_preload_libraries={library}")
        after = " publication ipy_istring_nothing with (create_slot = false, enabled = false)"
        parts = (
            "create subscription ipy_istring_sub connection ",
            field(conninfo, "c", "l"),
            after,
        )
        with pytest.raises(RenderError, match="is the connection string of a subscription"):
            sql(T(*parts), "format")

        def written(value: str) -> str:  # the query sql() wrote before the seventeenth pass
            return parts[0] + "'" + value.replace("'", "''") + "'" + after

        # It connects: a database that does not exist fails the statement.
        missing = make_conninfo(postgres_dsn, dbname="ipy_istring_no_such_database")
        with pytest.raises(Exception, match="ipy_istring_no_such_database"):
            db.execute(written(missing))
        db.execute(written(conninfo))
        try:
            connected = db.execute(
                "select subconninfo from pg_subscription where subname = 'ipy_istring_sub'"
            ).fetchone()
            assert connected == (conninfo,)
            assert not mark.exists()
        finally:
            db.execute("alter subscription ipy_istring_sub set (slot_name = none)")
            db.execute("drop subscription ipy_istring_sub")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


# Where DuckDB may run a query: its paramstyles, and any style with its dialect.
DUCKDB = (("qmark", None), ("dollar", None), ("qmark", "duckdb"), ("format", "duckdb"))

ATTACH_OPTION_NAMED = [
    ("attach ", field(":memory:", "p"), " as d (", field("type", "k", "i"), " ", field("v"), ")"),
    ("attach ':memory:' as d (", field("TYPE", "k", "i"), " ", field("v"), ")"),
    ("attach ':memory:' as d (read_only false, ", field("type", "k", "i"), " ", field("v"), ")"),
    ("attach if not exists ':memory:' (", field("type", "k", "i"), " ", field("v"), ")"),
    ("attach or replace database ':memory:' as d (", field("type", "k", "i"), ")"),
]


@pytest.mark.parametrize("parts", ATTACH_OPTION_NAMED)
def test_duckdb_attach_option_named_by_a_value_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in DUCKDB:
        with pytest.raises(RenderError, match=r"\{k:i\} names an option of ATTACH"):
            sql(T(*parts), paramstyle, dialect=dialect)
    with pytest.raises(RenderError, match="Write the option's name in the static text"):
        sql(T(*parts))


def test_duckdb_attach_loads_the_type_a_value_names_as_an_option(tmp_path: Any) -> None:
    """``attach ? as d ("type" ?)``, as sql() wrote ``attach {p} as d ({k:i} {v})`` with
    ``k = "type"``: DuckDB opened the parameter's file as an extension."""
    path = tmp_path / "evil.duckdb_extension"
    path.write_bytes(b"not an extension")
    parts = ("attach ", field(":memory:", "p"), " as d (", field("type", "k", "i"), " ")
    with pytest.raises(RenderError, match=r"names an option of ATTACH"):
        sql(T(*parts, field(str(path)), ")"))
    if int(duckdb.__version__.split(".")[0]) < 2:
        pytest.skip("DuckDB 1.x takes no parameter in ATTACH: the queries below cannot run")
    connection = duckdb.connect()
    # The positive control: the query sql() wrote before this pass, run as it is.
    with pytest.raises(duckdb.Error, match="is not a DuckDB extension"):
        connection.execute('attach ? as d ("type" ?)', [":memory:", str(path)])
    # Look-alikes: the path (also an expression in parentheses), the alias and the options'
    # values stay values, and run.
    db_file = str(tmp_path / "other.db")
    kept = [
        ("attach ", field(db_file, "p"), " as ", field("other", "a", "i"), " (read_only ",
         field(False, "b"), ")"),
        ("attach if not exists (", field(db_file + "2", "p"), ") as other2"),
        ("attach database (", field(str(tmp_path / "third"), "p"), " || '.db') as d3 "
         "(block_size ", field(16384, "n", "l"), ")"),
    ]  # fmt: skip
    for parts in kept:
        connection.execute(*sql(T(*parts)))
    attached = connection.execute("select database_name from duckdb_databases() order by 1")
    assert {"other", "other2", "d3"} <= {name for (name,) in attached.fetchall()}


EXPLAIN_OPTION_NAMED = [
    ("explain (", field("analyze", "k", "i"), ") delete from t where id = ", field(1)),
    ("explain (costs off, ", field("ANALYZE", "k", "i"), ") delete from t"),
    ("EXPLAIN (", field("analyze", "k", "i"), ", format json) update t set id = 2"),
    ("select 1; explain (", field("analyze", "k", "i"), ") delete from t"),
]


@pytest.mark.parametrize("parts", EXPLAIN_OPTION_NAMED)
def test_explain_option_named_by_a_value_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in (*DUCKDB, *POSTGRESQL, ("qmark", "sqlite")):
        with pytest.raises(RenderError, match=r"\{k:i\} names an option of EXPLAIN"):
            sql(T(*parts), paramstyle, dialect=dialect)


def _explain_look_alikes(run: Any, style: str, postgresql: bool) -> None:
    """An option's value and the explained statement's fields stay values; nothing runs."""
    kept = [
        ("explain (format ", field("json", "f", "i"), ") delete from t where id = ", field(1)),
        ("explain (verbose ", field(True, "b", "l"), ") delete from t where id in (",
         field(1), ", ", field(2), ")"),
        ("explain delete from t where id = ", field(1)),
    ]  # fmt: skip
    for parts in kept if postgresql else kept[::2]:  # DuckDB has no VERBOSE
        run(*sql(T(*parts), style))


def test_duckdb_explain_analyze_named_by_a_value_runs_the_statement() -> None:
    connection = duckdb.connect()
    connection.execute("create table t as select 1 as id")
    _explain_look_alikes(connection.execute, "qmark", postgresql=False)
    assert connection.execute("select count(*) from t").fetchall() == [(1,)]
    # The positive control: the query sql() wrote before this pass, run as it is.
    connection.execute('explain ("analyze") delete from t where id = ?', [1])
    assert connection.execute("select count(*) from t").fetchall() == [(0,)]


def test_postgresql_explain_analyze_named_by_a_value_runs_the_statement(db: Any) -> None:
    db.execute("create table t as select 1 as id")
    _explain_look_alikes(db.execute, "format", postgresql=True)
    assert db.execute("select count(*) from t").fetchall() == [(1,)]
    # The positive control: the query sql() wrote before this pass, run as it is.
    db.execute('explain ("analyze") delete from t where id = %s', (1,))
    assert db.execute("select count(*) from t").fetchall() == [(0,)]


ROLE_ATTRIBUTE = [
    ("create role ipy_istring_r with ", field("superuser", "k", "i"), " login"),
    ("create role ipy_istring_r ", field("SUPERUSER", "k", "i")),
    ("create user ipy_istring_r login ", field("superuser", "k", "i")),
    ("alter role ipy_istring_r with ", field("superuser", "k", "i")),
    ("alter user ", field("ipy_istring_r", "r", "i"), " ", field("createrole", "k", "i")),
    ("create group ipy_istring_g with ", field("superuser", "k", "i")),
]


@pytest.mark.parametrize("parts", ROLE_ATTRIBUTE)
def test_role_attribute_from_a_value_is_refused(parts: tuple[Any, ...]) -> None:
    refused_everywhere(parts, r"\{k:i\} stands where CREATE/ALTER ROLE takes an attribute")


def test_postgresql_role_attribute_named_by_a_value_is_granted(db: Any) -> None:
    if db.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("only a superuser may create a superuser")
    r, s, t, g = (role_name(db, base) for base in ("r", "s", "t", "g"))
    super_of = "select rolname, rolsuper from pg_roles where rolname = any(%s) order by 1"
    names = [r, s, t, g]
    try:
        # The positive control: the query sql() wrote before this pass, run as it is.
        db.execute(f'create role {r} with "superuser" login')
        assert db.execute(super_of, (names,)).fetchall() == [(r, True)]
        db.execute(f"drop role {r}")
        # Look-alikes: the roles' names stay values, and run.
        kept = [
            ("create role ", field(r, "r", "i"), " with login password ", field("pw", "p", "l")),
            ("create group ", field(g, "g", "i")),
            (f"create role {s} in role ", field(g, "g", "i"), " admin ", field(r, "r", "i")),
            ("alter role ", field(s, "r", "i"), " rename to ", field(t, "t", "i")),
            ("alter group ", field(g, "g", "i"), " add user ", field(r, "r", "i")),
            ("alter role ", field(r, "r", "i"), " set application_name to ",
             field("public", "s", "i")),
        ]  # fmt: skip
        for parts in kept:
            db.execute(*sql(T(*parts), "format"))
        assert db.execute(super_of, (names,)).fetchall() == sorted(
            [(g, False), (r, False), (t, False)]
        )
    finally:
        for name in names:
            db.execute(f"drop role if exists {name}")
