"""sql_connections: every library line, with the hostile corpus, against the real engines.

Each path (a DB-API cursor, SQLAlchemy Core, pandas, polars, DuckDB's relational API,
``fetch``) runs the same proof on sqlite3, DuckDB and PostgreSQL: every hostile value comes back
exactly, as a parameter, as a ``{x:l}`` literal and as a ``{x:i}`` column name, matches no row,
and the table the payloads try to drop is still there.  A positive control runs the proof on
text substitution (what jupysql's ``{{x}}`` does) and must see it fail.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pandas
import polars
import pytest
import sqlalchemy
from hostile import ALL

from ipy_istring.fields import RenderError
from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite
from ipy_istring.sql import Query, sql
from ipy_istring.sql_connections import (
    QueryError,
    Rows,
    dialect_for,
    duckdb_sql,
    fetch,
    paramstyle_for,
    read_database,
    read_sql,
    sql_for,
    sql_text,
)
from ipy_istring.template import Interpolation, InterpolationTemplate

SCHEMA = "ipy_istring_sql_connections"


def I(body: str, **namespace: Any) -> InterpolationTemplate:  # noqa: E743
    """The i-literal ``i'<body>'`` built by the project's rewrite, its fields read from
    ``namespace``: exactly what a notebook cell evaluates."""
    code = rewrite("i" + repr(body), filename="<test>")
    template = eval(code, {BUILDER_NAME: build_template, **namespace})
    assert isinstance(template, InterpolationTemplate)
    return template


# --------------------------------------------------------------------------------------------
# The engines: one object per connection kind, each with a table t holding one row ('alice').

Setup = Callable[[str], None]


def _sqlite3() -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(":memory:")
    connection.executescript("create table t (name text); insert into t values ('alice');")
    yield connection
    connection.close()


def _duckdb() -> Iterator[Any]:
    connection = duckdb.connect()
    connection.execute("create table t (name text); insert into t values ('alice')")
    yield connection
    connection.close()


def _psycopg(dsn: str) -> Iterator[Any]:
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f"drop schema if exists {SCHEMA} cascade")
        connection.execute(f"create schema {SCHEMA}")
        connection.execute(f"set search_path to {SCHEMA}")
        connection.execute("create table t (name text); insert into t values ('alice')")
        yield connection
        connection.execute(f"drop schema {SCHEMA} cascade")


def _sqlalchemy_sqlite() -> Iterator[Any]:
    engine = sqlalchemy.create_engine("sqlite://")  # one shared in-memory connection
    with engine.begin() as connection:
        connection.exec_driver_sql("create table t (name text)")
        connection.exec_driver_sql("insert into t values ('alice')")
    yield engine
    engine.dispose()


def _sqlalchemy_postgres(dsn: str) -> Iterator[Any]:
    import psycopg

    for _ in _psycopg(dsn):  # the schema and its table, dropped at the end
        engine = sqlalchemy.create_engine(
            "postgresql+psycopg://",
            creator=lambda: psycopg.connect(dsn, options=f"-c search_path={SCHEMA}"),
        )
        yield engine
        engine.dispose()


ENGINES = ["sqlite3", "duckdb", "psycopg", "sqlalchemy-sqlite", "sqlalchemy-postgres"]
POSTGRES = {"psycopg", "sqlalchemy-postgres"}


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[tuple[str, Any]]:
    """``(kind, connection)`` for each engine, with table t holding one row."""
    kind = request.param
    if kind == "sqlite3":
        connections = _sqlite3()
    elif kind == "duckdb":
        connections = _duckdb()
    elif kind == "sqlalchemy-sqlite":
        connections = _sqlalchemy_sqlite()
    else:
        dsn = request.getfixturevalue("postgres_dsn")
        connections = _psycopg(dsn) if kind == "psycopg" else _sqlalchemy_postgres(dsn)
    for connection in connections:
        yield kind, connection


# --------------------------------------------------------------------------------------------
# The paths: each runs a template the way its library line does and returns columns and rows.

Run = Callable[[InterpolationTemplate], tuple[list[str], list[tuple[Any, ...]]]]


def via_cursor(connection: Any) -> Run:
    """``cur.execute(*sql_for(i"...", con))``; SQLAlchemy: ``exec_driver_sql``."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        if isinstance(connection, sqlalchemy.Engine):
            with connection.begin() as conn:
                result = conn.exec_driver_sql(*sql_for(template, conn))
                return list(result.keys()), [tuple(row) for row in result]
        cursor = connection.cursor()
        cursor.execute(*sql_for(template, connection))
        columns = [column[0] for column in cursor.description]
        return columns, [tuple(row) for row in cursor.fetchall()]

    return run


def via_sqlalchemy_text(engine: Any) -> Run:
    """``conn.execute(sql_text(i"...", conn.dialect.name))``."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        with engine.begin() as conn:
            result = conn.execute(sql_text(template, conn.dialect.name))
            return list(result.keys()), [tuple(row) for row in result]

    return run


def via_pandas(connection: Any) -> Run:
    """``read_sql(i"...", con)``."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        frame = read_sql(template, connection)
        return [str(c) for c in frame.columns], [tuple(row) for row in frame.itertuples(False)]

    return run


def via_polars(connection: Any) -> Run:
    """``read_database(i"...", con)``."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        frame = read_database(template, connection)
        return frame.columns, frame.rows()

    return run


def via_duckdb_relation(connection: Any) -> Run:
    """``duckdb_sql(i"...", con)``."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        relation = duckdb_sql(template, connection)
        return relation.columns, relation.fetchall()

    return run


def via_fetch(connection: Any) -> Run:
    """``fetch(i"...", con)``, what the ``%%isql`` magic runs."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        rows = fetch(template, connection)
        assert rows is not None
        return list(rows.columns), [tuple(row) for row in rows.rows]

    return run


def _as_int(value: Any) -> int:
    return int(value)


def prove_hostile(run: Run, kind: str) -> None:
    """Every hostile value round-trips and matches nothing; table t keeps its one row."""
    failures: list[str] = []
    for value in ALL:
        try:
            columns, rows = run(
                I(
                    "select {value} as v, {value:l} as lit, "
                    "(select count(*) from t where name = {value}) as hits",
                    value=value,
                )
            )
            if rows != [(value, value, rows[0][2])] or _as_int(rows[0][2]) != 0:
                failures.append(f"{value[:60]!r}: parameter or literal came back as {rows!r:.200}")
            # PostgreSQL cuts identifiers at 63 bytes (NAMEDATALEN); '' is refused by sql().
            if value and (kind not in POSTGRES or len(value.encode()) <= 63):
                columns, rows = run(I("select 1 as {value:i}", value=value))
                if columns != [value]:
                    failures.append(f"{value[:60]!r}: column came back as {columns!r:.200}")
        except Exception as error:  # an error is as much a failure as a wrong row
            failures.append(f"{value[:60]!r}: {type(error).__name__}: {error!s:.200}")
    try:
        _, rows = run(I("select count(*) as n from t where name in {ALL:in}", ALL=ALL))
        if _as_int(rows[0][0]) != 0:
            failures.append(f"{{ALL:in}} matched {rows!r}")
        _, rows = run(I("select name from t"))
        if rows != [("alice",)]:
            failures.append(f"table t now holds {rows!r}")
    except Exception as error:
        failures.append(f"table t: {type(error).__name__}: {error!s:.200}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)


# --------------------------------------------------------------------------------------------
# The hostile corpus through every path on every engine that path serves.

PATHS: dict[str, tuple[Callable[[Any], Run], set[str]]] = {
    "cursor": (via_cursor, set(ENGINES)),
    "sqlalchemy-text": (via_sqlalchemy_text, {"sqlalchemy-sqlite", "sqlalchemy-postgres"}),
    "pandas": (via_pandas, {"sqlite3", "sqlalchemy-sqlite", "sqlalchemy-postgres"}),
    "polars": (via_polars, set(ENGINES)),
    "duckdb-relation": (via_duckdb_relation, {"duckdb"}),
    "fetch": (via_fetch, set(ENGINES)),
}


@pytest.mark.parametrize(
    ("path", "engine"),
    [(path, kind) for path, (_, kinds) in PATHS.items() for kind in ENGINES if kind in kinds],
    indirect=["engine"],
)
def test_hostile_values_bind_on_every_path(path: str, engine: tuple[str, Any]) -> None:
    kind, connection = engine
    make_run, _ = PATHS[path]
    prove_hostile(make_run(connection), kind)


def pasted(connection: sqlite3.Connection) -> Run:
    """Text substitution, as jupysql's '{{x}}' does: each value pasted between quotes."""

    def run(template: InterpolationTemplate) -> tuple[list[str], list[tuple[Any, ...]]]:
        text = template.strings[0]
        for interpolation, string in zip(template.interpolations, template.strings[1:]):
            text += f"'{interpolation.value}'" + string
        cursor = connection.execute(text)
        return [column[0] for column in cursor.description], cursor.fetchall()

    return run


def test_positive_control_the_proof_catches_text_substitution() -> None:
    for connection in _sqlite3():
        with pytest.raises(AssertionError) as caught:
            prove_hostile(pasted(connection), "sqlite3")
        report = str(caught.value)
        # "' OR 1=1 --" turned the WHERE into a match-everything (the subquery broke too).
        assert "' OR 1=1 --" in report
        assert "failures" in report


# --------------------------------------------------------------------------------------------
# The paramstyle comes from the connection.


def test_paramstyle_for_each_connection(engine: tuple[str, Any]) -> None:
    kind, connection = engine
    expected = {
        "sqlite3": "qmark",
        "duckdb": "qmark",
        "psycopg": "pyformat",
        "sqlalchemy-sqlite": "qmark",
        "sqlalchemy-postgres": "pyformat",
    }[kind]
    assert paramstyle_for(connection) == expected
    name = "x"
    query = sql_for(I("select {name}", name=name), connection)
    assert (
        query
        == {
            "qmark": Query("select ?", ("x",)),
            "pyformat": Query("select %(name)s", {"name": "x"}),
        }[expected]
    )


def test_paramstyle_for_a_cursor_and_a_non_connection() -> None:
    for connection in _sqlite3():
        assert paramstyle_for(connection.cursor()) == "qmark"
    with pytest.raises(TypeError, match=r"cannot tell which paramstyle a str reads.*sql\("):
        paramstyle_for("sqlite:///file.db")
    with pytest.raises(TypeError, match="paramstyle"):
        sql_for(I("select 1"), object())


def test_psycopg_line(postgres_dsn: str) -> None:
    """psycopg 3: ``conn.execute(*sql_for(i"...", conn))`` binds server-side."""
    for connection in _psycopg(postgres_dsn):
        name = "'; DROP TABLE t; --"
        ids = [1, 2, 3]
        cursor = connection.execute(
            *sql_for(
                I("select {name}::text, {ids:in} is not null, 100 % 7", **locals()), connection
            )
        )
        assert cursor.fetchall() == [(name, True, 2)]
        assert connection.execute("select count(*) from t").fetchone() == (1,)


# --------------------------------------------------------------------------------------------
# SQLAlchemy's text(): every colon but the binds' is escaped.


def test_sql_text_escapes_every_colon_that_is_not_a_bind() -> None:
    col, word, n = "a:b", ":name", 3
    clause = sql_text(
        I(
            r"select {word} as v, {word:l} as lit, 1 as {col:i}, ':x' as s, 'a\:b' as e, {n} as n",
            **locals(),
        )
    )
    assert clause.text == (
        r"select :word as v, '\:name' as lit, 1 as "
        r'"a\:b", '
        r"'\:x' as s, 'a\\:b' as e, :n as n"
    )
    assert clause.compile().params == {"word": ":name", "n": 3}
    for engine in _sqlalchemy_sqlite():
        with engine.connect() as conn:
            row = conn.execute(clause).one()
        assert tuple(row) == (":name", ":name", 1, ":x", r"a\:b", 3)
        assert list(row._fields) == ["v", "lit", "a:b", "s", "e", "n"]


def test_sql_text_keeps_a_cast_a_bind(postgres_dsn: str) -> None:
    """``{x}::int`` (a cast) stays a bind; ``'c:'`` in the text stays text."""
    x, s = "7", "v"
    clause = sql_text(I(r"select {x}::int as cast, 'c:' || {s} as s", **locals()), "postgresql")
    assert ":x\\:\\:int" in clause.text
    for engine in _sqlalchemy_postgres(postgres_dsn):
        with engine.connect() as conn:
            row = conn.execute(clause).one()
        assert tuple(row) == (7, "c:v")


@pytest.mark.parametrize("written", ["select (array[10, 20, 30])[1:{n}]", "select {n}{n} + 1"])
def test_sql_text_refuses_a_bind_glued_to_its_neighbour(written: str) -> None:
    # sql() refuses a field that touches ':' or another field (the database could read the two
    # as one token), so text() never has to tell them apart.
    n = 2
    with pytest.raises(RenderError, match="touches its neighbours"):
        sql_text(I(written, **locals()))


def test_sql_text_refuses_what_sql_refuses() -> None:
    name = "x"
    with pytest.raises(RenderError, match="inside a quoted SQL string"):
        sql_text(I("select '{name}'", name=name))


# A '--' comment PostgreSQL ends at '\r' but SQLite only at '\n', and SQLite's [name].
_OTHERWISE_READ = [
    ("select v from t where id = 1 --c\r and {x:l} = v", "a\nunion select secret from t --"),
    ("select [{x:l}] from t", "v] , secret, [v"),
]


@pytest.mark.parametrize(("written", "x"), _OTHERWISE_READ)
def test_sql_text_without_a_dialect_is_safe_in_every_database(written: str, x: str) -> None:
    """A text() clause runs on whatever engine executes it: without a dialect, sql_text used to
    check the query for PostgreSQL only, and SQLite then read the literal's content as code
    (the positive control: that rendering returned the secrets).  Now each field must be safe
    as every database reads the query."""
    engine = sqlalchemy.create_engine("sqlite://")
    with engine.begin() as conn:
        conn.exec_driver_sql("create table t (id integer, v text, secret text)")
        conn.exec_driver_sql("insert into t values (1, 'a', 's1'), (2, 'b', 's2')")
    template = I(written, x=x)
    if written.startswith("select v"):  # the old default's rendering, run where it leaks
        checked_for_postgresql = sql_text(template, "postgresql").text
        with engine.connect() as conn:
            rows = conn.execute(sqlalchemy.text(checked_for_postgresql)).fetchall()
        assert ("s1",) in rows
    with pytest.raises(RenderError, match=r"\{x:l\} is inside a (-- comment|quoted identifier)"):
        sql_text(template)
    engine.dispose()


def test_sql_text_without_a_dialect_keeps_common_queries() -> None:
    # What every database reads alike stays accepted, and written the same for each.
    name, col, n = "it's", "user name", -3
    clause = sql_text(I("select {col:i}, {n:l} from t where name = {name} -- c", **locals()))
    assert clause.text == 'select "user name", (-3) from t where name = :name -- c'
    # A backslash literal is written E'...' for PostgreSQL only: the database must be named.
    x = "a\\b"
    with pytest.raises(RenderError, match=r"written differently.*sql_text\(template, conn"):
        sql_text(I("select {x:l}", x=x))
    assert sql_text(I("select {x:l}", x=x), "sqlite").text == "select 'a\\b'"


def test_sql_text_runs_only_on_the_database_it_was_checked_for(postgres_dsn: str) -> None:
    """A text() clause checked for SQLite, run on PostgreSQL with standard_conforming_strings
    off, let a literal's backslash escape its quote: the positive control (the same text as a
    plain text()) returned the table's row.  The clause sql_text() makes refuses to compile
    for a database it was not checked for (MySQL among them), and runs where it was."""
    from sqlalchemy.dialects import mysql

    x = "\\' || (select name from t) --"
    clause = sql_text(I("select {x:l} as v", x=x), "sqlite")
    for engine in _sqlalchemy_postgres(postgres_dsn):
        with engine.connect() as conn:
            conn.exec_driver_sql("set standard_conforming_strings = off")
            conn.exec_driver_sql("set escape_string_warning = off")
            assert conn.execute(sqlalchemy.text(clause.text)).all() == [("'alice",)]
            with pytest.raises(RenderError, match="checked for sqlite, but this engine's data"):
                conn.execute(clause)
    for engine in _sqlalchemy_sqlite():
        with engine.connect() as conn:
            assert conn.execute(clause).all() == [(x,)]
    assert str(clause) == clause.text  # shown without an engine
    unchecked = sql_text(I("select {x:l} as v", x="a"))  # every database we know
    with pytest.raises(RenderError, match="checked for sqlite and duckdb and postgresql"):
        unchecked.compile(dialect=mysql.dialect())


# --------------------------------------------------------------------------------------------
# The library functions pass pandas' and polars' own options through, not the parameters.


def test_read_sql_passes_pandas_options() -> None:
    for connection in _sqlite3():
        name = "alice"
        frame = read_sql(
            I("select name, 1 as n from t where name = {name}", name=name),
            connection,
            index_col="name",
        )
        assert isinstance(frame, pandas.DataFrame)
        assert frame.index.tolist() == ["alice"] and frame["n"].tolist() == [1]
        with pytest.raises(TypeError, match="fields are the query's parameters"):
            read_sql(I("select 1"), connection, params=("x",))


def test_read_database_passes_polars_options() -> None:
    for connection in _sqlite3():
        name = "alice"
        frame = read_database(
            I("select name from t where name = {name}", name=name),
            connection,
            schema_overrides={"name": polars.Categorical},
        )
        assert frame.schema["name"] == polars.Categorical
        with pytest.raises(TypeError, match="fields are the query's parameters"):
            read_database(I("select 1"), connection, execute_options={"parameters": ["x"]})


def test_duckdb_relation_composes() -> None:
    for connection in _duckdb():
        name = "alice"
        relation = duckdb_sql(I("select name from t where name <> {name}", name=name), connection)
        assert relation.fetchall() == []
        assert duckdb_sql(I("select {name} as v", name=name), connection).df()["v"].tolist() == [
            "alice"
        ]


# --------------------------------------------------------------------------------------------
# fetch: statements without rows, and database errors that show what was sent.


def test_fetch_returns_none_for_a_statement_without_rows(engine: tuple[str, Any]) -> None:
    kind, connection = engine
    name = "bob'); DROP TABLE t; --"
    result = fetch(I("insert into t values ({name})", name=name), connection)
    if kind == "duckdb":  # DuckDB answers an insert with the count of rows it inserted
        assert result == Rows(("Count",), [(1,)])
    else:
        assert result is None
    rows = fetch(I("select name from t order by name"), connection)
    assert rows is not None and [tuple(r) for r in rows.rows] == [("alice",), (name,)]


def test_database_errors_show_the_query_and_parameters_sent(engine: tuple[str, Any]) -> None:
    _, connection = engine
    name = "'; DROP TABLE t; --"
    with pytest.raises(QueryError) as caught:
        fetch(I("select * from no_such_table where name = {name}", name=name), connection)
    error = caught.value
    text = str(error)
    assert "no_such_table" in text
    assert "query sent:" in text and "parameters sent:" in text
    assert repr(name) in text
    assert error.__cause__ is error.error
    lines = error._render_traceback_()
    assert lines[0].startswith("QueryError: the database refused the query")
    # the driver's own error, not SQLAlchemy's wrapper repeating the SQL
    assert "sqlalchemy" not in lines[0] and "[SQL:" not in text
    assert any("no_such_table" in line for line in lines[1:])


def test_sql_text_names_every_identifier_expression_it_can_bind() -> None:
    # 'a·b' and '℘' are Python identifiers that SQLAlchemy's and psycopg's \w+ would cut short
    # (a RuntimeError of ours before): they get generated names, and the query runs.
    engine = sqlalchemy.create_engine("sqlite://")
    for name in ("a·b", "℘", "é"):
        template = InterpolationTemplate(
            "select ", Interpolation(1, name), ", ", Interpolation(2, "x")
        )
        clause = sql_text(template, "sqlite")
        with engine.connect() as connection:
            assert connection.execute(clause).fetchall() == [(1, 2)]
    engine.dispose()


def test_a_database_sql_does_not_know_is_refused() -> None:
    """MySQL reads "..." as a string where \\ escapes, and `...` as a name: the text sql()
    proves safe for PostgreSQL is not safe there, so no query is made for it."""
    mysql = sqlalchemy.create_mock_engine("mysql://", lambda *args, **kwargs: None)
    assert paramstyle_for(mysql) == "format"  # the driver's style alone would have passed
    for function in (
        lambda: sql_for(I("select {x}", x=1), mysql),
        lambda: read_sql(I("select {x}", x=1), mysql),
        lambda: read_database(I("select {x}", x=1), mysql),
        lambda: fetch(I("select {x}", x=1), mysql),
    ):
        with pytest.raises(TypeError, match=r"SQLAlchemy dialect 'mysql'.*cannot be checked"):
            function()
    # The databases it knows, each read by its own grammar.
    for connection in _sqlite3():
        assert dialect_for(connection) == dialect_for(connection.cursor()) == "sqlite"
        # SQLite alone reads it: its /* */ do not nest (DuckDB's do, and would refuse).
        template = InterpolationTemplate("select 1 /* /* */, ", Interpolation(2, "x"), " --*/")
        with pytest.raises(RenderError, match="inside a /"):
            sql(template, "qmark")
        assert connection.execute(*sql_for(template, connection)).fetchall() == [(1, 2)]
    assert dialect_for(duckdb.connect()) == "duckdb"
    assert dialect_for(sqlalchemy.create_engine("sqlite://")) == "sqlite"
