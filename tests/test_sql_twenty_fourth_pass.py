"""The twenty-fourth red-team pass over sql(): the over-refusals the twenty-third left beside a
function in FROM, fifty-odd analytic notebook queries run on the three databases, and a hunt
for a value that becomes a name or code.

Over-refusals fixed (PostgreSQL, a statement whose FROM calls a function, where ``t.{c:i}`` is
accepted only when ``t`` names nothing but tables' rows):

* A column list after a table's alias: ``select t.{c:i} from generate_series(1, {n}) g, {t:i}
  t (i, w)``.  After a relation and its alias, PostgreSQL's grammar reads ``(`` only as the
  alias's column list (``relation_expr alias_clause``); the row is still the table's.  Run:
  ``"ts_stat"`` found no column and called nothing, ``"row_to_json"`` gave the same row as the
  statement without a function in FROM, which sql() accepted already.
* A ``:i`` alias right after a relation: ``from {t:i} as {a:i}``, ``join {t:i} {a:i} using
  (id)``.  Whatever name the value gives, it names that table's row, as a written alias does;
  only an alias a function's ``)`` is followed by may name a function's value.

Kept refused, with their positive controls: a function's alias with a column list, in a
subquery that reuses the outer table's alias (``(select t."ts_stat" from unnest(%s::text[]) t
(w)) from t24 t`` ran the array's text as SQL; the twenty-third pass's last refused shape,
``from t23 t (i, w), unnest(...) u``, is this pass's accepted one and was replaced by it), the
same alias given by a value (``unnest(...) as {al:i} (w)``), and a tuple value for ``{c:i}``
beside a function in FROM (the fourteenth pass's control: ``("u", "ts_stat")``).  Without a
function in FROM a tuple is the qualified column the docs promise (``select {c:i} from t24``
with ``("t24", "v")``), and ``select v as {a:i}`` was accepted already: both run here on
sqlite3, DuckDB and PostgreSQL, the value staying a name of the output.

Notebook queries (held; each accepted render run on its databases with a marker value that
must come back as data or be refused by the database as a value): ``limit {n} offset {m}``,
``order by {c:i} desc``, ``in {ids:in}``, ``= any({ids})``, ``cast({x} as int)``,
``{x}::date``, ``array[{a}, {b}]``, DuckDB's ``[{a}, {b}]``, ``insert ... returning``, ``on
conflict ... do update``, ``merge`` (PostgreSQL 15), ``values ({a}, {b})``, a CTE,
``percentile_cont({q}) within group``, ``rows between {n} preceding``, ``date_trunc({u}, ts)``,
``{i}::interval``, DuckDB's ``qualify``, ``pivot ... on {c:i}``, ``pivot ... in ({a})`` (the
value becomes the output column's name, not code), ``unpivot on {a:i}``, ``columns({c})`` (a
regex over the FROM's own columns: a secret table's column is no match), ``exclude
({c:i})``, ``replace ({v} as v)``.  DuckDB's ``using sample {n}`` is refused by DuckDB ("Only
constants are supported in sample clause"), not by sql(): ``using sample {n:l}`` runs.

Hole (DuckDB 2.0.1 and 1.5.6): a parameter as the value of read_csv's ``rejects_table`` or
``rejects_scan`` (``read_csv({p}, store_rejects = true, rejects_table = {r})``, and COPY ...
FROM's ``(store_rejects true, rejects_table {r})``) names the temporary table DuckDB writes the
rejected rows to, which hides a table or DuckDB's own view of that name for the rest of the
session: with ``"duckdb_tables"`` a later ``select * from duckdb_tables`` returned the CSV's
rejected line (the positive control, also with ``concat('duckdb_', {r})``).  sql() refused
``create temp table {t:i}`` with such a name since the thirteenth pass; now a field that is
the whole value gets the same check (``pg_*``, ``duckdb_*``, ``sqlite_*``, ``pragma_*``, any
case), and a field in an expression there is refused.  A name of your own stays accepted.

Hole (DuckDB 2.0.1 and 1.5.6): ``create type {t:i} as int`` with ``"json"`` (any case; also
``if not exists``, ``main.{t:i}``) was accepted, and DuckDB takes the name of a type its
extensions add and hides that type: every later ``'1'::json`` was an integer (the positive
control), in every connection to the file.  Refused now for the names CREATE TYPE takes among
``duckdb_types()`` (``json``, ``parquet_variant``; a test tries every name on both versions)
and the inet extension's ``inet``.  A table named ``json`` hides no type and stays accepted.

Hunt (held): ``fetch all from {c:i}`` chooses among the cursors the session declared, whose
query PostgreSQL allows to be a SELECT only (a data-modifying WITH in DECLARE is refused), so
the value picks rows as ``from {t:i}`` picks a table, the way a PL/pgSQL refcursor is read.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_fourteenth_pass import CALLED, SECRET_LEXEMES, secrets
from test_sql_nineteenth_pass import _parts, _render
from test_sql_tenth_pass import refused_everywhere
from test_sql_twenty_third_pass import runs_as_a_table_row

from ipy_istring.fields import RenderError
from ipy_istring.sql import _DUCKDB_EXTENSION_TYPES

MARKER = "x'); select 'MARKER"

# --- PostgreSQL: a table's alias with a column list, and a ':i' alias, beside a function ------

# (the query, its values but c and t, the rows it returns with c = "w")
TABLE_ROWS = [
    ("select t.{c:i} from generate_series(1, {n}) g, {t:i} t (i, w)", {"n": 2},
     [("a",), ("a",)]),
    ("select t.{c:i} from {t:i} as t (i, w) cross join lateral generate_series(1, t.i) g", {},
     [("a",)]),
    ("select t.{c:i} from {t:i} t (i, w) join unnest({ids}::int[]) as u(id) on u.id = t.i",
     {"ids": [1, 5]}, [("a",)]),
    ("select t.{c:i} from {t:i} as {a:i} (i, w), {t:i} t (i, w), unnest({ids}::int[]) u",
     {"a": "t2", "ids": [1]}, [("a",)]),
    ("select t.{c:i}, {a:i}.v from {t:i} t (i, w) join {t:i} {a:i} on {a:i}.id = t.i, "
     "generate_series(1, {n}) g", {"a": "o", "n": 1}, [("a", "a")]),
]  # fmt: skip


def _table(db: Any) -> None:
    secrets(db)
    db.execute("create table t24 (id int, v text)")
    db.execute("insert into t24 values (1, 'a')")


@pytest.mark.parametrize("case", TABLE_ROWS, ids=lambda case: case[0])
def test_postgresql_reads_a_table_row_through_a_column_list_or_a_value_alias(
    pg: Any,  # noqa: F811
    case: tuple[str, dict[str, Any], list[tuple[Any, ...]]],
) -> None:
    """Refused before this pass (the statement's FROM calls a function); accepted and run."""
    _table(db=pg)
    runs_as_a_table_row(pg, case[0], {"t": "t24", **case[1]}, case[2], column="w")


def test_postgresql_gives_a_table_row_with_a_column_list_to_the_same_functions(
    pg: Any,  # noqa: F811
) -> None:
    """ "row_to_json" gets the table's row, as in the statement without a function in FROM,
    which sql() accepted before this pass (the column list renames no field of the whole
    row, in either)."""
    _table(db=pg)
    plain = _render("select t.{c:i} from {t:i} t (i, w)", "format", None, c="row_to_json", t="t24")
    beside = _render(TABLE_ROWS[0][0], "format", None, c="row_to_json", t="t24", n=1)
    rows = [({"id": 1, "v": "a"},)]
    assert pg.execute(*plain).fetchall() == pg.execute(*beside).fetchall() == rows


FUNCTION_ROWS = [
    # a function's alias with a column list names the function's value, in a subquery too
    "select (select t.{c:i} from unnest({a}::text[]) t (w)) from t24 t",
    "select (select t.{c:i} from unnest({a}::text[]) as t (w)) from t24 t (i, w)",
    "select t.{c:i} from t24 t (i, w), lateral (select t.{c:i} from unnest({a}::text[]) t (w)) s",
    # ...and a value may give it any name, after ")" with AS or a column list
    "select (select t.{c:i} from unnest({a}::text[]) as {al:i} (w)) from t24 t",
    "select (select t.{c:i} from unnest({a}::text[]) {al:i} (w)) from t24 as t",
    # a relation's name followed by "(" is a call: PostgreSQL reads t24 (i, w) as t24(i, w)
    "select t24.{c:i} from t24 (i, w), unnest({a}::text[]) u",
    # a ':i' alias no name of the text stands for
    "select {al:i}.{c:i} from {t:i} as {al:i}, unnest({a}::text[]) u",
]


def test_postgresql_keeps_refusing_a_function_alias_with_a_column_list(pg: Any) -> None:  # noqa: F811
    _table(db=pg)
    # The positive control: a function's alias with a column list, named like the table's in
    # a subquery, written in the text or by a value, ran the array's text as SQL.
    for alias in ("t (w)", 'as "t" (w)'):
        naive = f'select (select t."ts_stat" from unnest(%s::text[]) {alias}) from t24 t'
        assert "hunter2" in str(pg.execute(naive, [[SECRET_LEXEMES]]).fetchall())
    values = {"a": [SECRET_LEXEMES], "al": "t", "t": "t24"}
    for text in FUNCTION_ROWS:
        refused_everywhere(_parts(text, c="ts_stat", **values), CALLED)


# --- A value as an output name: the select list's alias, a tuple column ----------------------


@pytest.fixture
def connections(pg: Any) -> Iterator[list[tuple[str, Any]]]:  # noqa: F811
    """The table t24 (id, g, x, v, ts) with two rows, in sqlite3, DuckDB and PostgreSQL."""
    lite, duck = sqlite3.connect(":memory:"), duckdb.connect()
    for db in (lite, duck, pg):
        db.execute("create table t24 (id int primary key, g text, x float, v text, ts timestamp)")
        db.execute(
            "insert into t24 values (1, 'a', 1.5, 'p', '2024-01-01 10:00'),"
            " (2, 'b', 2.5, 'q', '2024-01-02 11:00')"
        )
        db.execute("create table s24 (secret text)")
        db.execute("insert into s24 values ('hunter2')")
    yield [("sqlite", lite), ("duckdb", duck), ("postgresql", pg)]
    lite.close()
    duck.close()


def _run(dialect: str, db: Any, text: str, **values: Any) -> Any:
    """Render ``text`` for ``dialect``'s driver (psycopg's %s for PostgreSQL) and run it."""
    paramstyle = "format" if dialect == "postgresql" else "qmark"
    return db.execute(*_render(text, paramstyle, dialect, **values))


def test_a_value_alias_and_a_tuple_column_stay_names_of_the_output(
    connections: list[tuple[str, Any]],
) -> None:
    for dialect, db in connections:
        cursor = _run(dialect, db, "select v as {a:i} from t24 where id = {id}", a=MARKER, id=1)
        assert cursor.fetchall() == [("p",)]
        assert cursor.description[0][0] == MARKER
        cursor = _run(dialect, db, "select {c:i} from t24 where id = {id}", c=("t24", "v"), id=2)
        assert cursor.fetchall() == [("q",)]


# --- Analytic notebook queries: a value stays a value ----------------------------------------

EVERYWHERE = ("sqlite", "duckdb", "postgresql")
# (the databases, the query, its values, the rows it returns)
NOTEBOOK = [
    (EVERYWHERE, "select v from t24 order by {c:i} desc limit {n} offset {m}",
     {"c": "x", "n": 1, "m": 1}, [("p",)]),
    (EVERYWHERE, "select v from t24 where id in {ids:in} order by 1", {"ids": (1, 2)},
     [("p",), ("q",)]),
    (EVERYWHERE, "select cast({x} as int) + 1", {"x": "5"}, [(6,)]),
    (EVERYWHERE, "select count(*) from t24 where v = {v} or g = {v}", {"v": MARKER}, [(0,)]),
    (EVERYWHERE, "insert into t24 (id, v) values ({a}, {b}) returning v", {"a": 9, "b": MARKER},
     [(MARKER,)]),
    (EVERYWHERE, "insert into t24 (id, v) values ({a}, {b}) on conflict (id) do update set "
     "v = excluded.v returning id, v", {"a": 1, "b": MARKER}, [(1, MARKER)]),
    (EVERYWHERE, "with w as (select * from t24 where id > {n}) select count(*) from w", {"n": 1},
     [(1,)]),
    (EVERYWHERE, "select v, sum(x) over (order by id rows between {n} preceding and current "
     "row) from t24 order by id", {"n": 1}, [("p", 1.5), ("q", 4.0)]),
    (("sqlite", "duckdb"), "values ({a}, {b})", {"a": MARKER, "b": "y"}, [(MARKER, "y")]),
    (("postgresql",), "values ({a}::text, {b}::text)", {"a": MARKER, "b": "y"}, [(MARKER, "y")]),
    (("duckdb", "postgresql"), "select v from t24 where id = any({ids}) order by 1",
     {"ids": [2, 3]}, [("q",)]),
    (("duckdb", "postgresql"), "select percentile_cont({q}) within group (order by x) from t24",
     {"q": 0.5}, [(2.0,)]),
    (("duckdb", "postgresql"), "select date_trunc({u}, ts)::date::text from t24 order by 1",
     {"u": "month"}, [("2024-01-01",), ("2024-01-01",)]),
    (("duckdb", "postgresql"), "select v from t24 where ts > {t}::timestamp - {i}::interval",
     {"t": "2024-01-02 12:00", "i": "2 hours"}, [("q",)]),
    (("duckdb", "postgresql"), "select extract(year from {d}::date)::int", {"d": "2024-05-06"},
     [(2024,)]),
    (("postgresql",), "select array[{a}, {b}]", {"a": MARKER, "b": "y"}, [([MARKER, "y"],)]),
    (("duckdb",), "select [{a}, {b}]", {"a": MARKER, "b": "y"}, [([MARKER, "y"],)]),
    (("duckdb",), "select v from t24 qualify row_number() over (order by x desc) <= {n}",
     {"n": 1}, [("q",)]),
    (("duckdb",), "select * from (pivot (select g, x from t24) on {c:i} using sum(x))",
     {"c": "g"}, [(1.5, 2.5)]),
    (("duckdb",), "select * from (pivot (select v, id from t24) on v in ({a}) using sum(id))",
     {"a": MARKER}, [(None,)]),
    (("duckdb",), "select k, w from (unpivot (select g, v from t24 where id = 1) on {a:i}, "
     "{b:i} into name k value w) order by k", {"a": "g", "b": "v"}, [("g", "a"), ("v", "p")]),
    (("duckdb",), "select columns({c}) from t24 where id = 1", {"c": "^(g|v)$"}, [("a", "p")]),
    (("duckdb",), "select * exclude ({c:i}, ts, x) from t24 where id = 1", {"c": "g"},
     [(1, "p")]),
    (("duckdb",), "select * exclude (ts) replace ({v} as v) from t24 where id = 1",
     {"v": MARKER}, [(1, "a", 1.5, MARKER)]),
    (("duckdb",), "select count(*) from t24 using sample {n:l} rows", {"n": 1}, [(1,)]),
    (("duckdb", "postgresql"), "merge into t24 t using (select {a}::int as id, {b}::text as v) "
     "s on t.id = s.id when matched then update set v = s.v when not matched then insert "
     "(id, v) values (s.id, s.v)", {"a": 2, "b": MARKER}, None),
]  # fmt: skip


@pytest.mark.parametrize(("dialects", "text", "values", "rows"), NOTEBOOK)
def test_a_notebook_query_keeps_its_values_values(
    connections: list[tuple[str, Any]],
    dialects: tuple[str, ...],
    text: str,
    values: dict[str, Any],
    rows: list[tuple[Any, ...]] | None,
) -> None:
    """The rows the query returns; for a MERGE (rows None), the row it wrote."""
    for dialect, db in connections:
        if dialect in dialects and rows is None:
            _run(dialect, db, text, **values)
            written = _run(dialect, db, "select v from t24 where id = {a}", a=values["a"])
            assert written.fetchall() == [(values["b"],)], dialect
        elif dialect in dialects:
            assert _run(dialect, db, text, **values).fetchall() == rows, dialect


def test_a_notebook_value_the_database_cannot_read_is_refused_as_a_value(
    connections: list[tuple[str, Any]],
) -> None:
    """The marker where a unit or an interval goes is a conversion error, not SQL."""
    for dialect, db in connections[1:]:
        for text, values in [
            ("select date_trunc({u}, ts) from t24", {"u": MARKER}),
            ("select ts - {i}::interval from t24", {"i": MARKER}),
        ]:
            with pytest.raises(Exception, match=r"(?i)MARKER|unit|interval|specifier"):
                _run(dialect, db, text, **values).fetchall()


def test_a_duckdb_pivot_value_and_a_columns_regex_stay_within_the_text(
    connections: list[tuple[str, Any]],
) -> None:
    """A PIVOT ... IN value names the output's column (data, not code); a COLUMNS() regex
    matches only the columns of the query's own FROM, not a secret table's."""
    duck = connections[1][1]
    cursor = _run("duckdb", duck, "pivot (select v, id from t24) on v in ({a}) using sum(id)",
                  a=MARKER)  # fmt: skip
    assert [d[0] for d in cursor.description] == [MARKER] and cursor.fetchall() == [(None,)]
    with pytest.raises(duckdb.BinderException, match="No matching columns"):
        _run("duckdb", duck, "select columns({c}) from t24", c="secret")
    # DuckDB's SAMPLE takes no parameter (its refusal, not sql()'s); ':l' writes the number
    with pytest.raises(duckdb.ParserException, match="Only constants"):
        _run("duckdb", duck, "select * from t24 using sample {n}", n=1)


def test_postgresql_fetch_from_a_value_cursor_reads_a_select_the_session_declared(
    pg: Any,  # noqa: F811
) -> None:
    """``fetch all from {c:i}`` picks a cursor as ``from {t:i}`` picks a table: PostgreSQL
    declares a cursor only over a SELECT (no data-modifying WITH), so FETCH runs no write."""
    _table(db=pg)
    pg.autocommit = False
    try:
        with pytest.raises(Exception, match="DECLARE CURSOR must not contain data-modifying"):
            pg.execute("declare c24 cursor for with d as (delete from t24 returning *) "
                       "select * from d")  # fmt: skip
        pg.rollback()
        pg.execute("declare c24 cursor for select v from t24")
        assert pg.execute(*_render("fetch all from {c:i}", "format", None, c="c24")).fetchall() == [
            ("a",)
        ]
    finally:
        pg.rollback()
        pg.autocommit = True


# --- Hole: a value names the temporary table DuckDB writes a CSV's rejected rows to ----------

READ_REJECTS = (
    "select * from read_csv({p}, columns = {'a': 'int', 'b': 'int'}, store_rejects = true, "
    "rejects_table = {r})"
)
REJECTS_SHADOWING = [
    READ_REJECTS,
    READ_REJECTS.replace("= {r}", "= {r:l}"),
    READ_REJECTS.replace("= {r}", ":= {r}"),
    READ_REJECTS.replace("rejects_table", "rejects_scan"),
    "copy c24 from {p} (store_rejects true, rejects_table {r})",
]
REJECTS_PARTS = [
    READ_REJECTS.replace("{r}", "concat('duckdb_', {r})"),
    READ_REJECTS.replace("{r}", "{r} || ''"),
    READ_REJECTS.replace("{r}", "lower({r})"),
    READ_REJECTS.replace("{r}", "({r})"),
    "copy c24 from {p} (store_rejects true, rejects_scan lower({r}))",
]


@pytest.fixture
def rejected_csv(tmp_path: Any) -> str:
    """A CSV file with one line read_csv(columns = a int, b int) rejects."""
    path = tmp_path / "r24.csv"
    path.write_text("a,b\n1,2\nx,3\n")
    return str(path)


def _temporary_tables(duck: Any) -> list[str]:
    return sorted(
        r[0]
        for r in duck.execute("select table_name from duckdb_tables() where temporary").fetchall()
    )


def test_duckdb_rejects_table_named_by_a_value_shadows_its_own_view(rejected_csv: str) -> None:
    """The positive control (DuckDB 2.0 and 1.5): the value named a temporary table, which
    every later select from duckdb_tables read instead of DuckDB's view, as create temp table
    "duckdb_tables" would; also in an expression, and through COPY ... FROM's option."""
    for text, value in [
        (READ_REJECTS.replace("{p}", "?").replace("{r}", "?"), "duckdb_tables"),
        (READ_REJECTS.replace("{p}", "?").replace("{r}", "concat('duckdb_', ?)"), "tables"),
    ]:
        duck = duckdb.connect()
        assert duck.execute(text, [rejected_csv, value]).fetchall() == [(1, 2)]
        shadowed = duck.execute("select * from duckdb_tables").fetchall()
        assert [row[-2] for row in shadowed] == ["x,3"]  # the rejected line, not a table
    duck = duckdb.connect()
    duck.execute("create table c24 (a int, b int)")
    duck.execute(f"copy c24 from '{rejected_csv}' (store_rejects true, rejects_table ?)",
                 ["duckdb_tables"])  # fmt: skip
    assert "duckdb_tables" in _temporary_tables(duck)


def test_duckdb_refuses_a_value_that_names_a_rejects_table_like_its_own(rejected_csv: str) -> None:
    for text in REJECTS_SHADOWING:
        for name in ("duckdb_tables", "DUCKDB_Views", "pg_tables", "sqlite_master"):
            with pytest.raises(RenderError, match="names a temporary relation"):
                _render(text, "qmark", "duckdb", p=rejected_csv, r=name)
    for text in REJECTS_PARTS:
        with pytest.raises(RenderError, match="part of an expression that names the temporary"):
            _render(text, "qmark", "duckdb", p=rejected_csv, r="tables")


def test_duckdb_rejects_table_of_a_plain_name_is_still_accepted(rejected_csv: str) -> None:
    """A name of your own gets the rejected rows, as the text asks (a temporary table hides a
    table of that name for the session, as create temp table {t:i} does, which sql() accepts
    for a name that is not DuckDB's own)."""
    for text in REJECTS_SHADOWING:
        duck = duckdb.connect()
        duck.execute("create table c24 (a int, b int)")
        duck.execute(*_render(text, "qmark", "duckdb", p=rejected_csv, r="my_rejects")).fetchall()
        assert "my_rejects" in _temporary_tables(duck)
        if "rejects_table" in text:  # (rejects_scan's table holds the scan, not the line)
            assert "x,3" in str(duck.execute("select * from my_rejects").fetchall())


# --- Hole: a value names a DuckDB type that hides an extension's type -------------------------

CREATE_TYPES = [
    "create type {t:i} as int",
    "create type {t:i} as struct(a int)",
    "create type if not exists {t:i} as int",
    "create type main.{t:i} as int",
]


def test_duckdb_create_type_named_by_a_value_hides_the_json_type() -> None:
    """The positive control (DuckDB 2.0 and 1.5): create type "json" as int made every later
    '1'::json an integer, in the connection (and the file) it was made in."""
    duck = duckdb.connect()
    assert duck.execute("select typeof('1'::json)").fetchall() == [("JSON",)]
    duck.execute('create type "json" as int')
    assert duck.execute("select typeof('1'::json), '1'::json").fetchall() == [("INTEGER", 1)]


def test_duckdb_refuses_create_type_named_like_an_extension_type() -> None:
    for text in CREATE_TYPES:
        for name in ("json", "JSON", "inet"):
            with pytest.raises(RenderError, match="a type of DuckDB's extensions"):
                _render(text, "qmark", "duckdb", t=name)
            with pytest.raises(RenderError, match="a type of DuckDB's extensions"):
                _render(text, "qmark", None, t=name)  # SQLite and DuckDB
    # a name of your own, and a table named json, which hides no type, stay accepted
    duck = duckdb.connect()
    duck.execute(*_render(CREATE_TYPES[0], "qmark", "duckdb", t="mood24"))
    duck.execute(*_render("create table {t:i} (a int)", "qmark", "duckdb", t="json"))
    assert duck.execute("select typeof('1'::json), typeof(1::mood24)").fetchall() == [
        ("JSON", "INTEGER")
    ]


def test_duckdb_type_names_create_type_takes_are_listed() -> None:
    """Every type name of duckdb_types() that CREATE TYPE takes (hiding that type) is in
    _DUCKDB_EXTENSION_TYPES; DuckDB refuses the others ("Type with name ... already exists")."""
    names = {
        r[0].lower()
        for r in duckdb.connect().execute("select type_name from duckdb_types()").fetchall()
    }
    taken = set()
    for name in names:
        duck = duckdb.connect()
        try:
            duck.execute(f'create type "{name}" as int')
        except duckdb.Error:
            continue
        taken.add(name)
    assert taken and taken <= _DUCKDB_EXTENSION_TYPES
