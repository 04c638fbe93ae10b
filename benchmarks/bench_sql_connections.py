"""Each library line of ``ipy_istring.sql_connections`` (and ``%%isql``), as a ratio to the
same library called with hand-written SQL and parameters.

Run: ``python benchmarks/bench_sql_connections.py`` (with ``IPY_ISTRING_PG_DSN`` set, the
PostgreSQL paths too).  Each call builds its i-string anew, as a notebook cell does, and runs a
real query on a small indexed table; times are the minimum over repeats (the least disturbed
run, measured in turns with the hand-written line), and the ratio is what to read.  ``--quick``
measures once: a smoke run, not a measurement.
"""

from __future__ import annotations

import os
import sqlite3
import timeit
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import duckdb
import pandas
import polars
import sqlalchemy
from _timing import QUICK
from _timing import table as print_table

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite
from ipy_istring.sql_connections import (
    duckdb_sql,
    fetch,
    read_database,
    read_sql,
    sql_for,
    sql_text,
)

user_id, name, table = 42, "user 42", "users"
QMARK = 'select id, name from "users" where id = ? and name = ?'
PYFORMAT = 'select id, name from "users" where id = %(user_id)s and name = %(name)s'
NAMED = 'select id, name from "users" where id = :user_id and name = :name'
ROWS = [(n, f"user {n}") for n in range(1_000)]

# The i-string, built anew on each call exactly as a rewritten cell builds it.
make_template: Callable[[], Any] = eval(
    rewrite('lambda: i"select id, name from {table:i} where id = {user_id} and name = {name}"'),
    {BUILDER_NAME: build_template, **globals()},
)


def fill(execute: Callable[[str], Any], insert: Callable[[], Any]) -> None:
    execute("create table users (id integer primary key, name text)")
    insert()


@contextmanager
def connections() -> Iterator[dict[str, Any]]:
    """The connections, each with the table: sqlite3, DuckDB, SQLAlchemy (SQLite, PostgreSQL)."""
    with ExitStack() as stack:
        lite = sqlite3.connect(":memory:")
        stack.callback(lite.close)
        fill(lite.execute, lambda: lite.executemany("insert into users values (?, ?)", ROWS))
        duck = duckdb.connect()
        stack.callback(duck.close)
        fill(duck.execute, lambda: duck.executemany("insert into users values (?, ?)", ROWS))
        engine = sqlalchemy.create_engine("sqlite://")
        stack.callback(engine.dispose)
        with engine.begin() as conn:
            fill(
                conn.exec_driver_sql,
                lambda: conn.exec_driver_sql("insert into users values (?, ?)", ROWS),
            )
        found = {"sqlite3": lite, "duckdb": duck, "sqlalchemy-sqlite": engine}
        dsn = os.environ.get("IPY_ISTRING_PG_DSN")
        if dsn:
            import psycopg

            pg = psycopg.connect(dsn, autocommit=True)
            stack.callback(pg.close)
            pg.execute("drop schema if exists ipy_istring_bench cascade")
            pg.execute("create schema ipy_istring_bench")
            stack.callback(pg.execute, "drop schema ipy_istring_bench cascade")
            options = "-c search_path=ipy_istring_bench"
            pg.execute("set search_path to ipy_istring_bench")
            fill(
                pg.execute,
                lambda: pg.cursor().executemany("insert into users values (%s, %s)", ROWS),
            )
            pg_engine = sqlalchemy.create_engine(
                "postgresql+psycopg://", creator=lambda: psycopg.connect(dsn, options=options)
            )
            stack.callback(pg_engine.dispose)
            found.update({"psycopg": pg, "sqlalchemy-postgres": pg_engine})
        yield found


def pandas_over_sqlalchemy(
    database: str, engine: Any
) -> tuple[str, Callable[[], Any], Callable[[], Any]]:
    return (
        f"pandas read_sql (SQLAlchemy {database})",
        lambda: read_sql(make_template(), engine),
        lambda: pandas.read_sql(
            sqlalchemy.text(NAMED), engine, params={"user_id": user_id, "name": name}
        ),
    )


def cases(c: dict[str, Any]) -> Iterator[tuple[str, Callable[[], Any], Callable[[], Any]]]:
    """(label, our line, the hand-written line) for every connection present."""
    lite, duck, engine = c["sqlite3"], c["duckdb"], c["sqlalchemy-sqlite"]
    yield (
        "sqlite3 cursor: execute(*sql_for(...))",
        lambda: lite.execute(*sql_for(make_template(), lite)).fetchall(),
        lambda: lite.execute(QMARK, (user_id, name)).fetchall(),
    )
    yield (
        "DuckDB relation: duckdb_sql(...)",
        lambda: duckdb_sql(make_template(), duck).fetchall(),
        lambda: duck.sql(QMARK, params=(user_id, name)).fetchall(),
    )
    conn = engine.connect()
    yield (
        "SQLAlchemy Core (SQLite): execute(sql_text(...))",
        lambda: conn.execute(sql_text(make_template())).fetchall(),
        lambda: conn.execute(sqlalchemy.text(NAMED), {"user_id": user_id, "name": name}).fetchall(),
    )
    yield (
        "pandas read_sql (sqlite3)",
        lambda: read_sql(make_template(), lite),
        lambda: pandas.read_sql(QMARK, lite, params=(user_id, name)),
    )
    yield pandas_over_sqlalchemy("SQLite", engine)
    yield (
        "polars read_database (sqlite3)",
        lambda: read_database(make_template(), lite),
        lambda: polars.read_database(QMARK, lite, execute_options={"parameters": (user_id, name)}),
    )
    yield (
        "polars read_database (DuckDB)",
        lambda: read_database(make_template(), duck),
        lambda: polars.read_database(QMARK, duck, execute_options={"parameters": (user_id, name)}),
    )
    yield (
        "fetch, what %%isql runs (sqlite3)",
        lambda: fetch(make_template(), lite),
        lambda: lite.execute(QMARK, (user_id, name)).fetchall(),
    )
    if "psycopg" in c:
        pg, pg_engine = c["psycopg"], c["sqlalchemy-postgres"]
        yield (
            "psycopg 3: execute(*sql_for(...))",
            lambda: pg.execute(*sql_for(make_template(), pg)).fetchall(),
            lambda: pg.execute(PYFORMAT, {"user_id": user_id, "name": name}).fetchall(),
        )
        yield pandas_over_sqlalchemy("PostgreSQL", pg_engine)
        yield (
            "polars read_database (psycopg)",
            lambda: read_database(make_template(), pg),
            lambda: polars.read_database(
                PYFORMAT, pg, execute_options={"params": {"user_id": user_id, "name": name}}
            ),
        )


def isql_cell(c: dict[str, Any]) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """``%%isql`` in a real shell (magic call, i-string rewrite, DataFrame) against the
    hand-written ``pandas.read_sql`` a cell would otherwise hold."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ipy_istring")
    shell.user_ns.update(lite=c["sqlite3"], user_id=user_id, name=name, table=table)
    body = "select id, name from {table:i} where id = {user_id} and name = {name}"
    return (
        lambda: shell.run_cell_magic("isql", "lite", body),
        lambda: pandas.read_sql(QMARK, c["sqlite3"], params=(user_id, name)),
    )


def compare(
    ours: Callable[[], object], theirs: Callable[[], object], rounds: int = 15
) -> tuple[float, float]:
    """Seconds per call of each, the minimum over ``rounds`` interleaved runs of ~20 ms each.

    Interleaving keeps a burst of load on a shared machine from landing on one side only.
    """
    timers = (timeit.Timer(ours), timeit.Timer(theirs))
    if QUICK:
        rounds = 1
    number = max(1, int(0.02 / max(min(t.timeit(3) / 3 for t in timers), 1e-9)))
    best = [float("inf"), float("inf")]
    for _ in range(rounds):
        for side, timer in enumerate(timers):
            best[side] = min(best[side], timer.timeit(number) / number)
    return best[0], best[1]


def same(ours: Any, theirs: Any) -> bool:
    if isinstance(ours, pandas.DataFrame | polars.DataFrame):
        return bool(ours.equals(theirs))
    rows = ours.rows if hasattr(ours, "rows") and not callable(ours.rows) else ours
    return [tuple(r) for r in rows] == [tuple(r) for r in theirs]


def main() -> None:
    rows = []
    with connections() as found:
        cells = [*cases(found), ("%%isql cell (sqlite3) vs pandas.read_sql", *isql_cell(found))]
        for label, ours, theirs in cells:
            assert same(ours(), theirs()), label  # the comparison is fair only if they agree
            mine, hand = compare(ours, theirs)
            rows.append(
                [label, f"{mine * 1e6:.1f}", f"{hand * 1e6:.1f}", f"{mine / hand:.2f}x",
                 f"{(mine - hand) * 1e6:+.1f}"]
            )  # fmt: skip
    print_table(
        "Each library through ipy_istring against the same call with hand-written SQL",
        ["path", "ours µs", "by hand µs", "ratio", "+µs/call"],
        rows,
    )


if __name__ == "__main__":
    main()
