"""The nineteenth red-team pass over sql(): a table's column list is no call, and fields in
contexts that choose code.

Over-refusals fixed (each rendered query run in the real database, where the name was taken as
a table: ``analyze "query_to_xml" (c)`` said relation "query_to_xml" does not exist):

* ``vacuum {t:i} ({c:i})`` was refused as "the name of the function called", and its column
  list as a utility option.  VACUUM and ANALYZE (PostgreSQL, DuckDB), CREATE/ALTER PUBLICATION
  ... FOR TABLE, CREATE INDEX ... ON ONLY and CREATE TABLE ... [PARTITION] OF have no
  expression at their top level: a name before ``(`` there is a table (or type) and its column
  list.  The catalog-table checks still apply (``vacuum (analyze) {t:i} (c)`` with
  ``"pg_authid"``), and a call inside parentheses (a publication's ``WHERE (f(c))``) is still
  one.  (INSERT INTO, COPY, CREATE TABLE, REFERENCES and CREATE INDEX ... ON were accepted.)
* A CTE after a comma of a WITH list (``with a as (...), {t:i} (n) as (...)``) stays refused,
  since DuckDB's ``with ... pivot t on x using sum(x), f(x)`` calls f at the same place, with no
  clause word between; the message now says that, and how to write it (no column list).

Holes, each with its positive control below:

* DuckDB reads ATTACH's path ``'name:rest'`` as ``TYPE name`` and loads the extension of that
  name from its extension directory, as ``(TYPE {t})`` (refused since the eighth pass) and LOAD
  do: ``attach {p} as d`` with ``"evil:x.db"`` opened ``evil.duckdb_extension`` (DuckDB's own
  error says it read the file as an extension), also as ``{p:l}``, ``{p:i}`` and a part of the
  path (``'ev' || {p}``).  A value in ATTACH's path (a str) may hold a ``:`` only as a URL's
  ``scheme://``, or in its first two characters where it starts the path (``':memory:'``,
  ``'C:\\...'``: no prefix to DuckDB); a plain path, the alias and the options' values stay
  accepted.
* PostgreSQL's CREATE FUNCTION / PROCEDURE ... LANGUAGE {x:i} (or ``{x:l}``) was accepted
  before AS (after it, the body's refusal held it): the language says how the body written in
  the text runs, and with ``"c"`` PostgreSQL loaded the body's string as a shared library (its
  constructor ran and left its mark), with ``"internal"`` it called the built-in function the
  string names.  Refused now, as CREATE LANGUAGE {x:i} is.

Attacks tried that held (kept as regression tests, each on the real database): DuckDB reads the
``name:`` prefix only in ATTACH (``from {p:l}``, ``read_csv({p})``, ``copy ... to {p:l}`` with
``'evil:...'`` load nothing); a DuckDB type name from a value (``cast({v} as {t:i})``) is only
looked up ("Type with name ... does not exist"), never loaded as a file; ``set
enable_external_access = {x:l}`` cannot turn external access back on; PostgreSQL reads
``"default"`` and ``'none'`` after SET SESSION AUTHORIZATION as roles that do not exist; a quoted
name is a syntax error as ORDER BY's ``USING`` operator, in ``OPERATOR(...)`` and in ``WITH
... DATA``; SQLite's ``attach {p:l} as {s:i}`` cannot take ``"main"`` or ``"temp"``.  Fields in
a static comment, in dollar quotes, in ``E'...'`` or after an unterminated string are refused
(the lexer's rule, kept here for the contexts named in this pass).
"""

from __future__ import annotations

import pathlib
import re
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_seventeenth_pass import library  # noqa: F401  # the fixture
from test_sql_tenth_pass import field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import InterpolationTemplate

T = InterpolationTemplate


def _parts(text: str, **values: Any) -> tuple[Any, ...]:
    """A template's parts from ``text`` with ``{name:spec}`` fields, valued from ``values``."""
    parts: list[Any] = []
    position = 0
    for match in re.finditer(r"\{(\w+)(?::(\w+))?\}", text):
        parts.append(text[position : match.start()])
        parts.append(field(values[match[1]], match[1], match[2] or ""))
        position = match.end()
    return (*parts, text[position:])


def _render(text: str, paramstyle: str, dialect: str | None, **values: Any) -> Any:
    return sql(T(*_parts(text, **values)), paramstyle, dialect=dialect)


# --- Over-refusals: a table's column list ----------------------------------------------------

POSTGRESQL_COLUMN_LISTS = [
    "vacuum (analyze) {t:i} ({c:i})",
    "vacuum analyze {t:i} (c)",
    "vacuum (verbose, analyze) t19 (c), {t:i} ({c:i})",
    "analyze {t:i} ({c:i})",
    "analyze verbose {t:i} (c)",
    "analyse {s:i}.{t:i} (c)",
    "create index on only {t:i} ({c:i})",
    "create publication p19 for table {t:i} ({c:i}) with (publish_via_partition_root)",
    "create table t19b partition of {t:i} (c default 1) for values in (1)",
    "create table t19c of {ty:i} (c with options default 1)",
]


@pytest.mark.parametrize("text", POSTGRESQL_COLUMN_LISTS)
def test_postgresql_reads_a_table_and_its_columns_where_it_was_refused_as_a_call(
    pg: Any,  # noqa: F811
    text: str,
) -> None:
    """Accepted now, and run: PostgreSQL takes the name as a table (a function's name is no
    relation there), in every style PostgreSQL may run."""
    pg.execute("create table t19 (c int) partition by list (c)")
    pg.execute("create table t19a partition of t19 for values in (2)")
    pg.execute("create type ty19 as (c int)")
    schema = pg.execute("select current_schema()").fetchone()[0]
    values = {"t": "t19", "c": "c", "s": schema, "ty": "ty19"}
    try:
        for paramstyle, dialect in (("format", None), ("qmark", "postgresql")):
            _render(text, paramstyle, dialect, **values)
        pg.execute(*_render(text, "format", None, **values))
        pg.execute("drop publication if exists p19")
        # A function's name there is a relation's to PostgreSQL, which has none by it.
        if "{ty:i}" not in text:
            with pytest.raises(Exception, match=r'relation "([a-z_]+\.)?query_to_xml" does not'):
                pg.execute(*_render(text, "format", None, **{**values, "t": "query_to_xml"}))
    finally:
        pg.execute("drop publication if exists p19")


@pytest.mark.parametrize("text", ["vacuum {t:i} ({c:i})", "analyze {t:i} ({c:i})",
                                  "vacuum analyze {t:i} (c)"])  # fmt: skip
def test_duckdb_reads_a_table_and_its_columns_after_vacuum_and_analyze(text: str) -> None:
    connection = duckdb.connect()
    connection.execute("create table t19 (c int)")
    for dialect in ("duckdb", None):
        connection.execute(*_render(text, "qmark", dialect, t="t19", c="c"))
    with pytest.raises(duckdb.CatalogException, match="Table with name query does not exist"):
        connection.execute(*_render(text, "qmark", "duckdb", t="query", c="c"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        # the catalog's tables stay refused where VACUUM and ANALYZE name one
        ("vacuum (analyze) {t:i} (c)", "catalog tables"),
        # a call inside a publication's WHERE (...) or another statement is still one
        ("create publication p for table t (c) where ({f:i} (c) > 0)", "function called"),
        ("analyze t (c); select {f:i} (1)", "function called"),
        ("explain analyze select {f:i} (1)", "function called"),
        # and a CTE after a comma, with a message that says why
        ("with a as (select 1), {f:i} (n) as (select 2) select 1", "after a comma of a WITH"),
    ],
)
def test_calls_and_catalog_tables_stay_refused_there(text: str, why: str) -> None:
    refused_everywhere(_parts(text, t="pg_authid", f="query_to_xml"), why)


def test_a_duckdb_pivot_call_after_a_cte_is_still_refused() -> None:
    """``with a as (...) pivot a on x using sum(x), {f:i} (x)``: DuckDB calls f as an aggregate
    (the control: its binder complains about lower(x) inside the PIVOT), with no clause word
    sql() reads between the WITH list and the call."""
    connection = duckdb.connect()
    with pytest.raises(duckdb.BinderException, match="lower"):
        connection.execute('with a as (select 1 x) pivot a on x using sum(x), "lower" (x)')
    text = "with a as (select 1 x) pivot a on x using sum(x), {f:i} (x)"
    with pytest.raises(RenderError, match="after a comma of a WITH list"):
        _render(text, "qmark", "duckdb", f="lower")


# --- DuckDB's ATTACH 'name:path' -------------------------------------------------------------


def _fake_extension(tmp_path: pathlib.Path) -> tuple[Any, pathlib.Path]:
    """A DuckDB connection whose extension directory is in ``tmp_path``, with a file that is
    no extension where DuckDB looks up ``evil``."""
    connection = duckdb.connect(config={"extension_directory": str(tmp_path / "ext")})
    with pytest.raises(duckdb.Error) as looked_up:
        connection.execute("load evil")
    found = re.search(r'"([^"]*evil\.duckdb_extension)"', str(looked_up.value))
    assert found is not None, looked_up.value
    extension = pathlib.Path(found[1])
    extension.parent.mkdir(parents=True, exist_ok=True)
    extension.write_bytes(b"not an extension")
    return connection, extension


def test_duckdb_loads_the_extension_an_attach_paths_prefix_names(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``attach ? as d`` with ``"evil:x.db"``: DuckDB read the prefix as TYPE evil and opened
    evil.duckdb_extension from its extension directory (its own error says so)."""
    monkeypatch.chdir(tmp_path)
    connection, extension = _fake_extension(tmp_path)
    loaded = re.escape(str(extension)) + ".* is not a DuckDB extension"
    # The positive controls: the queries sql() wrote before this pass, run as they are.
    if int(duckdb.__version__.split(".")[0]) >= 2:
        # (DuckDB 1.x, which Python 3.10 gets, takes neither a parameter nor an expression
        # there: a syntax error)
        with pytest.raises(duckdb.Error, match=loaded):
            connection.execute("attach ? as d", ["evil:x.db"])
        with pytest.raises(duckdb.Error, match=loaded):
            connection.execute("attach 'ev' || 'il:x.db' as d")
    with pytest.raises(duckdb.Error, match=loaded):
        connection.execute("attach 'evil:x.db' as d")
    for text in ("attach {p} as d", "attach {p:l} as d", "attach {p:i} as d",
                 "attach database if not exists {p} as d (read_only)",
                 "attach ({p}) as d", "attach 'ev' || {p} as d"):  # fmt: skip
        for paramstyle, dialect in (("qmark", None), ("qmark", "duckdb"), ("dollar", None)):
            with pytest.raises(RenderError, match="is in the path of ATTACH"):
                value = "il:x.db" if "'ev'" in text else "evil:x.db"
                _render(text, paramstyle, dialect, p=value)
    # A plain path, a URL, the alias and the options' values stay accepted; the path runs.
    path = str(tmp_path / "data.duckdb")
    query = _render("attach {p} as {s:i} (read_only {r:l})", "qmark", "duckdb",
                    p=path, s="data19", r=False)  # fmt: skip
    assert query.params == (path,)
    if int(duckdb.__version__.split(".")[0]) >= 2:  # (1.x: a syntax error, as above)
        connection.execute(*query)
        attached = "select database_name from duckdb_databases() where database_name = 'data19'"
        assert connection.execute(attached).fetchall() == [("data19",)]
    for kept in ("s3://bucket/x.db", ":memory:", "C:\\data\\x.db"):  # no prefix DuckDB reads
        assert _render("attach {p} as d", "qmark", "duckdb", p=kept).params == (kept,)
    with pytest.raises(RenderError, match="is in the path of ATTACH"):
        _render("attach 'ab' || {p} as d", "qmark", "duckdb", p=":memory:")  # 'ab:memory:'
    with pytest.raises(RenderError, match="is in the path of ATTACH"):
        _render("attach {p} as d", "qmark", "duckdb", p=pathlib.Path("x.db"))  # no str
    # SQLite reads no such prefix: its ATTACH path stays a value.
    assert _render("attach {p} as {s:i}", "qmark", "sqlite", p="a:b", s="s").params == ("a:b",)


@pytest.mark.parametrize(
    "query",
    ["select * from ?", "select * from read_csv(?)", "copy (select 1) to ?"],
)
def test_duckdb_reads_that_prefix_only_in_attach(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    """Held: a file path elsewhere is a file's (``'evil:x.csv'`` loads no extension)."""
    monkeypatch.chdir(tmp_path)
    connection, _ = _fake_extension(tmp_path)
    text = query.replace("?", "'evil:x.csv'")
    try:
        connection.execute(text)
    except duckdb.Error as error:
        assert "extension" not in str(error), error


# --- PostgreSQL's CREATE FUNCTION ... LANGUAGE -----------------------------------------------


def test_postgresql_loads_a_functions_body_as_a_library_for_the_language_c(
    pg: Any,  # noqa: F811
    library: tuple[pathlib.Path, pathlib.Path],  # noqa: F811
) -> None:
    """``create function f() returns void language {lang:i} as '<file>', 'f'``: with
    ``"c"`` PostgreSQL loaded the body's string as a shared library, whose constructor ran."""
    superuser = pg.execute("select rolsuper from pg_roles where rolname = current_user")
    if superuser.fetchone() != (True,):
        pytest.skip("a function in the language C is created by a superuser")
    path, mark = library
    text = f"create function f19() returns void language {{lang:i}} as '{path}', 'f19'"
    # The positive control: the query sql() wrote before this pass, run as it is.
    with pytest.raises(Exception, match=r"magic block|could not find function"):
        pg.execute(text.replace("{lang:i}", '"c"'))
    assert mark.read_text() == "native code ran\n"
    for spec in ("i", "l"):
        refused_everywhere(
            _parts(text.replace("{lang:i}", "{lang:" + spec + "}"), lang="c"),
            "names the language of the function or procedure CREATE defines",
        )
    refused_everywhere(
        _parts("create or replace procedure p19() language {lang:i} as 'select 1'",
               lang="internal"),
        "names the language",
    )  # fmt: skip
    # The language in the text, and a parameter's name, stay accepted (and run).
    kept = "create function f19b({a:i} int) returns int language sql as 'select 2'"
    pg.execute(*_render(kept, "format", None, a="a"))
    assert pg.execute("select f19b(2)").fetchall() == [(2,)]


# --- Attacks that held -----------------------------------------------------------------------


def test_duckdb_looks_a_types_name_up_and_keeps_external_access_off(
    tmp_path: pathlib.Path,
) -> None:
    connection, extension = _fake_extension(tmp_path)
    query = _render("select cast({v} as {t:i})", "qmark", "duckdb", v="1", t=str(extension))
    with pytest.raises(duckdb.CatalogException, match=r"Type with name .* does not exist"):
        connection.execute(*query)
    connection.execute("set enable_external_access = false")
    # (the render sql() gave before the twenty-seventh pass, which refuses the value)
    with pytest.raises(duckdb.Error, match="Cannot enable external access"):
        connection.execute("set enable_external_access = true")
    with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
        _render("set enable_external_access = {x:l}", "qmark", "duckdb", x=True)


@pytest.mark.parametrize(
    "text",
    [
        "set session authorization {x:l}",
        "set session authorization {x:i}",
    ],
)
@pytest.mark.parametrize("value", ["default", "none"])
def test_postgresql_reads_no_keyword_in_a_session_authorization_value(
    pg: Any,  # noqa: F811
    text: str,
    value: str,
) -> None:
    with pytest.raises(Exception, match=f'role "{value}" does not exist'):
        pg.execute(*_render(text, "format", None, x=value))


@pytest.mark.parametrize(
    "text",
    [
        "select c from t19 order by c using {o:i}",
        "select c from t19 where c operator({o:i}) 1",
        "create materialized view v19 as select 1 with {o:i} data",
    ],
)
def test_postgresql_takes_no_quoted_name_as_an_operator_or_a_keyword(
    pg: Any,  # noqa: F811
    text: str,
) -> None:
    pg.execute("create table t19 (c int)")
    for value in ("<", "=", "no"):
        with pytest.raises(Exception, match="syntax error"):
            pg.execute(*_render(text, "format", None, o=value))


@pytest.mark.parametrize("schema", ["main", "temp"])
def test_sqlite_attaches_no_database_as_its_own_schemas(
    tmp_path: pathlib.Path, schema: str
) -> None:
    connection = sqlite3.connect(":memory:")
    query = _render("attach {p:l} as {s:i}", "qmark", "sqlite", p=str(tmp_path / "a.db"), s=schema)
    with pytest.raises(sqlite3.OperationalError, match=f"database {schema} is already in use"):
        connection.execute(*query)


@pytest.mark.parametrize(
    ("text", "dialect"),
    [
        ("select 1 -- {x}\n", "postgresql"),
        ("select 1 /* {x} */", "sqlite"),
        ("select $${x:l}$$", "postgresql"),
        ("select $q${x:l}$q$", "duckdb"),
        ("select E'{x:l}'", "postgresql"),
        ("select E'\\' {x:l} '", "postgresql"),
        ("select 'abc {x}", "sqlite"),
        ("select 'abc\n{x:l}", "duckdb"),
        ("do $$ begin perform {x:l}; end $$", "postgresql"),
    ],
)
def test_a_field_in_static_comments_quotes_and_strings_is_refused(
    text: str, dialect: str
) -> None:
    with pytest.raises(RenderError):
        _render(text, "qmark", dialect, x="x")
