"""The eighth red-team pass over sql(): a value that chose the native code DuckDB loads.

* DuckDB loads the TYPE option of ATTACH as an extension, and a path as that file, as LOAD
  does (which sql() refuses): ``attach ':memory:' as d (type {t})`` opened the parameter's file
  as an extension in the real DuckDB (the positive control below: DuckDB's own error says it
  read the file as one), also through an expression (``type concat({t}, '')``), after
  ``OR REPLACE``/``IF NOT EXISTS``, and as ``{t:l}`` or ``{t:i}``.  Refused now; the path and
  name of ATTACH and its other options stay values.

* A schema-qualified name of the function a cast, aggregate, operator or wrapper binds
  (``sfunc = pg_catalog.{f:i}``, ``function = pg_catalog.{f:i}``, ``with function s.{f:i}``,
  ``handler s.{f:i}``): the unqualified name was refused, the qualified one read as a column.
  With ``f = "ts_rewrite"``, PostgreSQL made an aggregate and an operator that run their text
  argument as SQL (they returned a secret table's row).

Attacks tried that held (kept as regression tests, each on the real database): PostgreSQL
reads ``s.q.{f:i}`` (a column, then a name) as schema, table and column, never as the call
``f(s.q)`` that ``(s.q).f`` is (refused since the sixth pass): the query fails.
"""

from __future__ import annotations

import pathlib
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which db below asks for

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

T = InterpolationTemplate
# Where DuckDB may run a query: its paramstyles, and any style with its dialect.
DUCKDB = (("qmark", None), ("dollar", None), ("qmark", "duckdb"), ("format", "duckdb"))


def field(value: object, spec: str = "") -> Interpolation:
    return Interpolation(value, "t", None, spec)


def extension_file(where: pathlib.Path) -> str:
    """A file that is no extension: DuckDB says so when it opens one as an extension."""
    path = where / "evil.duckdb_extension"
    path.write_bytes(b"not an extension")
    return str(path)


ATTACH_TYPE = [
    ("attach ':memory:' as d (type ", field("p"), ")"),
    ("attach ':memory:' as d (type ", field("p", "l"), ")"),
    ("attach ':memory:' as d (type ", field("p", "i"), ")"),
    ("attach ':memory:' as d (read_only, type ", field("p", "l"), ")"),
    ("attach ':memory:' as d (\"TYPE\" ", field("p", "l"), ")"),
    ("ATTACH ':memory:' AS d (TYPE concat(", field("p"), ", ''))"),
    ("attach ':memory:' as d (type (", field("p"), " || ''))"),
    ("attach or replace database ':memory:' as d (type ", field("p"), ")"),
    ("attach if not exists ':memory:' as d (type ", field("p"), ")"),
]


@pytest.mark.parametrize("parts", ATTACH_TYPE)
def test_a_value_in_the_type_of_attach_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in DUCKDB:
        with pytest.raises(RenderError, match=r"\{t(:[il])?\} is in the TYPE option of ATTACH"):
            sql(T(*parts), paramstyle, dialect=dialect)


def test_the_refusal_says_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sql(T("attach ':memory:' as d (type ", field("p"), ")"))
    message = str(caught.value)
    assert "loads as an extension" in message and "write the code in the static text" in message


@pytest.mark.parametrize(
    "query",
    [
        "attach ':memory:' as d (type ?)",
        "attach if not exists ':memory:' as d (type concat(?, ''))",
        "attach or replace database ':memory:' as d (type ?)",
    ],
)
def test_positive_control_duckdb_opens_the_type_as_an_extension_file(
    query: str, tmp_path: pathlib.Path
) -> None:
    path = extension_file(tmp_path)
    connection = duckdb.connect()
    with pytest.raises(duckdb.Error, match="is not a DuckDB extension") as caught:
        connection.execute(query, [path])
    assert path in str(caught.value)


ACCEPTED = [
    ("attach ", field("db", "l"), " as d (type duckdb)"),
    ("attach ", field("db", "l"), " as ", field("d", "i"), " (type duckdb, read_only)"),
    ("attach ", field("db", "l"), " as d (read_only, block_size ", field(262144, "l"), ")"),
    ("attach ", field("db", "l"), " as d (type duckdb); select ", field(1)),
    ("select type, ", field(1), " from t"),
    ("select * from t where type = ", field(1)),
    ("create type ", field("mood", "i"), " as enum ('a')"),
]


@pytest.mark.parametrize("parts", ACCEPTED)
def test_look_alikes_stay_accepted_and_run(parts: tuple[Any, ...], tmp_path: pathlib.Path) -> None:
    values = {"db": str(tmp_path / "x.duckdb"), "d": "d", "mood": "mood"}
    rebuilt = [
        Interpolation(values.get(p.value, p.value), p.expression, None, p.format_spec)
        if isinstance(p, Interpolation)
        else p
        for p in parts
    ]
    query = sql(T(*rebuilt), "qmark", dialect="duckdb")
    duckdb.connect(values["db"]).close()
    connection = duckdb.connect()
    connection.execute("create table t (type integer, v text)")
    for statement in query.sql.split(";"):
        count = statement.count("?")
        connection.execute(statement, list(query.params[:count]))
        query = query._replace(params=query.params[count:])


# --- a bound function's name, schema-qualified ----------------------------------------------

POSTGRESQL = (("format", None), ("pyformat", None), ("dollar", None), ("qmark", "postgresql"))
BOUND = [
    ("create aggregate rw(text) (sfunc = pg_catalog.", field("ts_rewrite", "i"),
     ", stype = tsquery)"),
    ("create operator === (leftarg = tsquery, rightarg = text, function = pg_catalog.",
     field("ts_rewrite", "i"), ")"),
    ("create operator === (leftarg = tsquery, rightarg = text, procedure = s.",
     field("ts_rewrite", "i"), ")"),
    ("create cast (text as int) with function s.", field("f", "i")),
    ("create foreign data wrapper w handler s.", field("f", "i")),
    ("create foreign data wrapper w validator s.", field("f", "i")),
]  # fmt: skip


@pytest.mark.parametrize("parts", BOUND)
def test_a_schema_qualified_bound_function_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in POSTGRESQL:
        with pytest.raises(RenderError, match=r"\{t:i\} names the function the cast, aggregate"):
            sql(T(*parts), paramstyle, dialect=dialect)


@pytest.mark.parametrize(
    ("definition", "use"),
    [
        ("create aggregate rw(text) (sfunc = pg_catalog.\"ts_rewrite\", stype = tsquery, "
         "initcond = 'a')", "select rw(q)::text from (values (%s)) v(q)"),
        ("create operator === (leftarg = tsquery, rightarg = text, function = "
         "pg_catalog.\"ts_rewrite\")", "select ('a'::tsquery === %s)::text"),
    ],
)  # fmt: skip
def test_positive_control_the_bound_function_runs_its_argument_as_sql(
    db: Any, definition: str, use: str
) -> None:
    # what sql() rendered before this pass, with the value "ts_rewrite"
    db.execute("create table secrets (s text)")
    db.execute("insert into secrets values ('topsecret')")
    db.execute(definition)
    rows = db.execute(use, ["select 'a'::tsquery, s::tsquery from secrets"]).fetchall()
    assert rows == [("'topsecret'",)]


LOOK_ALIKES = [
    ("create aggregate rw(text) (sfunc = pg_catalog.ts_rewrite, stype = tsquery); select ",
     field("a", "l")),
    ("select t.", field("v", "i"), " from t"),
    ("create cast (", field("s", "i"), ".t as text) with inout"),
    # (alter aggregate rw(text) rename to {n:i} was one: the twelfth pass refuses it, since
    # renamed "count" it would be called for count(x) of text; tests/test_sql_twelfth_pass.py)
]  # fmt: skip


@pytest.mark.parametrize("parts", LOOK_ALIKES)
def test_data_next_to_a_bound_function_stays_accepted(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in POSTGRESQL:
        sql(T(*parts), paramstyle, dialect=dialect)


# --- attacks that held ---------------------------------------------------------------------


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Any:
    """A PostgreSQL connection in a fresh schema: tests/test_sql_contexts.py's ``pg``."""
    return request.getfixturevalue("pg")


@pytest.mark.parametrize("name", ["ts_stat", "pg_read_file", "upper"])
def test_a_three_part_name_is_no_call_in_postgresql(db: Any, name: str) -> None:
    import psycopg

    db.execute("create table secrets (s text)")
    db.execute("insert into secrets values ('TOPSECRET')")
    source = "(select 'select s::tsvector from secrets'::text as q) s"
    query = sql(T("select s.q.", field(name, "i"), " from " + source), "format")
    with pytest.raises(psycopg.errors.UndefinedTable):
        db.execute(query.sql, query.params)
    # The call it would be, written with parentheses, is what sql() refuses:
    with pytest.raises(RenderError):
        sql(T("select (s.q).", field(name, "i"), " from " + source), "format")
