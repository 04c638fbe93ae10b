"""The twenty-third red-team pass over sql(): a table's alias beside a function in FROM, a value
as a pattern or a small language inside a parameter, and a value-named CTE.

Over-refusal fixed: PostgreSQL's ``select t.{c:i} from generate_series(1, {n}) g, {t:i} t``
(and ``from {t:i} t cross join lateral jsonb_array_elements(t.payload) x``, ``join
unnest({ids}::int[]) as u(id) using (id)``, which five of about fifty common notebook queries
were) was refused as a statement whose FROM calls a function, where ``alias.name`` may be the
call ``name(alias)``.  A table's alias is the table's row, as in a statement without a call in
FROM, where ``t.{c:i}`` was accepted already: with ``"ts_stat"`` PostgreSQL found no column and
called nothing, and ``"row_to_json"`` gave the row as the plain statement does.  Accepted now
where every place the statement writes the name (but before a dot) is a relation's name in
FROM not followed by ``(``, or the alias right after one.  Kept refused, each with the
positive control of a function's row: the same name given to a function in a subquery
(``select (select t.{c:i} from unnest({a}::text[]) t) from tbl t`` ran the array's text as
SQL, as does the alias written as a value, ``unnest(...) {al:i}``), a function's own name
(``unnest.{c:i}``), ``with ordinality t``, ``rows from (...)``, a keyword function's alias, a
``{xs:in}`` call, a ``U&"..."`` name sql() cannot read, and a subquery's or a CTE's name.

Attacks tried that held (kept as regression tests), each a value inside a parameter, which
sql() accepts:

* A pattern: ``like {p}``, ``ilike``, ``similar to``, ``~``, SQLite's and DuckDB's ``glob``.  A
  value there only chooses which of the author's rows match (``'%'`` matches all, a pattern
  parameter a notebook means to take); nothing runs.  To match the value literally, escape
  ``%``, ``_`` and ``\\`` in Python and write ``like {p} escape '\\'`` (no ``:like`` spec: the
  escape character is the text's to name, and SQLite and DuckDB have no default one).
* PostgreSQL's jsonpath (``jsonb_path_query(doc, {p}::jsonpath)``): a language of its own
  methods, with no call of an SQL function (``pg_read_file("PG_VERSION")`` is a syntax error)
  and no document but the one the text gives (``$.**`` walks only it).
* PostgreSQL's XML: ``xmlparse(document {d})``, ``{d}::xml`` and ``xpath(...)`` substitute no
  entity, external or not (``<!ENTITY e SYSTEM "PG_VERSION">`` stays ``&e;``), and xml2's
  ``xslt_process(doc, {xsl})`` runs under libxslt's file and network prohibitions: a
  stylesheet's ``document('PG_VERSION')`` and ``exsl:document`` (a write) failed, where a
  plain stylesheet ran.
* A format string: ``printf({f}, ...)`` and DuckDB's ``format({f}, ...)`` read no argument the
  text does not give (DuckDB: "out of range"; SQLite writes nothing, and ignores ``%n``), and
  DuckDB's ``duckdb_secrets(redact = {r})`` with ``False`` is refused by DuckDB unless the
  text itself allowed unredacted secrets.
* The functions that run a string as SQL, or load code (``query_to_xml``, ``dblink``, DuckDB's
  ``query()`` and ``query_table()``, SQLite's ``load_extension``, ``set_config({k}, ...)``), were
  refused by earlier passes (tests/contexts_sql.py, test_sql.py), also with the value inside
  ``format()`` or ``||`` in their argument; ``pg_read_file({p})``, ``lo_import({p})``,
  ``read_csv({p})`` and ``glob({p})`` are files the text names (docs/renderers.md's data
  positions), and ``current_setting({k})``, DuckDB's ``getvariable({k})`` read what the text
  asks.

A value-named CTE (``with {n:i} as (...)``), left accepted: its name hides a table of that name
in the statement's own text, and in DuckDB in the bodies of the macros it calls (shown here:
a filter macro read the CTE's rows), but not in a view's (DuckDB, SQLite, PostgreSQL) nor in a
PostgreSQL SQL function's.  The rows it gives are the ones the author's CTE selects, and
nothing runs; docs/renderers.md says to pass only names you allow there.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_fourteenth_pass import CALLED, SECRET_LEXEMES, secrets
from test_sql_nineteenth_pass import _parts, _render
from test_sql_tenth_pass import _extension, refused_everywhere

from ipy_istring.sql import sql
from ipy_istring.template import InterpolationTemplate

# --- PostgreSQL: a table's alias beside a function in FROM -----------------------------------

# (the query, its values but c, the rows it returns with c = "v")
TABLE_ROWS = [
    ("select t.{c:i} from generate_series(1, {n}) g, {t:i} t", {"n": 2}, [("a",), ("a",)]),
    ("select t.{c:i}, x from {t:i} t cross join lateral jsonb_array_elements(t.payload) x", {},
     [("a", 1), ("a", 2)]),
    ("select t.{c:i} from {t:i} t join unnest({ids}::int[]) as u(id) using (id)",
     {"ids": [1, 5]}, [("a",)]),
    ("select t.{c:i} from only {t:i} as t, generate_series(1, 1) g where t.id = {id}", {"id": 1},
     [("a",)]),
    ("select t23.{c:i} from public.t23_other, {t:i} t23, unnest({ids}::int[]) u", {"ids": [1]},
     [("a",)]),
    ("update {t:i} t set v = t.{c:i} from generate_series(1, 1) g where t.id = g returning t.v",
     {}, [("a",)]),
]  # fmt: skip


def _table(db: Any) -> None:
    secrets(db)
    db.execute("create table t23 (id int, v text, payload jsonb)")
    db.execute("insert into t23 values (1, 'a', '[1, 2]')")
    db.execute("create table if not exists public.t23_other (id int)")
    db.execute("truncate public.t23_other")
    db.execute("insert into public.t23_other values (1)")


@pytest.mark.parametrize(("text", "values", "rows"), TABLE_ROWS)
def test_postgresql_reads_a_table_row_beside_a_function_in_from(
    pg: Any,  # noqa: F811
    text: str,
    values: dict[str, Any],
    rows: list[tuple[Any, ...]],
) -> None:
    """Refused before this pass (the statement's FROM calls a function); accepted and run."""
    _table(db=pg)
    try:
        runs_as_a_table_row(pg, text, {"t": "t23", **values}, rows, column="v")
    finally:
        pg.execute("drop table public.t23_other")


def runs_as_a_table_row(
    db: Any, text: str, values: dict[str, Any], rows: list[tuple[Any, ...]], column: str
) -> None:
    """Run ``text`` with ``c = column`` (rendered for every PostgreSQL paramstyle, run with
    psycopg's ``%s`` and ``%(name)s``), and show ``t.{c:i}`` is a table's row."""
    for paramstyle in ("format", "pyformat", "dollar"):
        query = _render(text, paramstyle, None, c=column, **values)
        if paramstyle != "dollar":
            assert sorted(db.execute(*query).fetchall()) == rows
    # The name is the table's row's: no function of the value's is called on a function's
    # value ("ts_stat" would run a text as SQL); PostgreSQL finds no column...
    with pytest.raises(Exception, match=r"column t(23)?\.ts_stat does not exist"):
        db.execute(*_render(text, "format", None, c="ts_stat", **values))


def test_postgresql_gives_a_table_row_to_the_same_functions_with_a_function_in_from(
    pg: Any,  # noqa: F811
) -> None:
    """...and a function of any row, "row_to_json", gets the table's row, as in the statement
    without a function in FROM, which sql() accepted before this pass."""
    _table(db=pg)
    try:
        plain = _render("select t.{c:i} from {t:i} t", "format", None, c="row_to_json", t="t23")
        beside = _render(TABLE_ROWS[0][0], "format", None, c="row_to_json", t="t23", n=1)
        assert pg.execute(*plain).fetchall() == pg.execute(*beside).fetchall()
        assert pg.execute(*plain).fetchall() == [({"id": 1, "v": "a", "payload": [1, 2]},)]
    finally:
        pg.execute("drop table public.t23_other")


FUNCTION_ROWS = [
    # the table's alias given again to a function, in a subquery: there the name is its value
    "select (select t.{c:i} from unnest({a}::text[]) t) from t23 t",
    "select (select t.{c:i} from unnest({a}::text[]) as t) from t23 t",
    "select t.{c:i} from t23 t where exists (select from unnest({a}::text[]) t)",
    'select (select t.{c:i} from unnest({a}::text[]) "T") from t23 t',
    "select t.{c:i} from t23 t, lateral (select t.{c:i} from unnest({a}::text[]) t) s",
    # an alias a value gives may be any name
    "select (select t.{c:i} from unnest({a}::text[]) {al:i}) from t23 t",
    "select t.{c:i} from {t:i} {al:i}, unnest({a}::text[]) u",
    # a function's own name, or its alias after ORDINALITY, ROWS FROM or a keyword function
    "select unnest.{c:i} from t23, unnest({a}::text[])",
    "select t.{c:i} from t23, unnest({a}::text[]) with ordinality t",
    "select generate_series.{c:i} from t23, rows from (generate_series(1, 2))",
    "select u.{c:i} from t23 t, current_user u",
    "select regexp_split_to_table.{c:i} from t23, regexp_split_to_table {xs:in}",
    # SQL's syntax for functions that PostgreSQL names by no word of the text (btrim, varchar)
    "select (select btrim.{c:i} from trim(both from {a})) from t23 btrim",
    "select (select ltrim.{c:i} from trim(leading from {a})) from t23 ltrim",
    "select btrim.{c:i} from t23 t, lateral (select * from t23 btrim) s, lateral trim({a})",
    "select (select btrim.{c:i} from rows from (trim({a}))) from t23 btrim",
    'select (select "varchar".{c:i} from cast({a} as character varying)) from t23 "varchar"',
    'select (select "varchar".{c:i} from treat({a} as character varying)) from t23 "varchar"',
    # a name sql() cannot read, and the rows of a subquery and of a CTE
    'select t.{c:i} from t23 t, unnest({a}::text[]) u where U&"\\0074" is not null',
    "select s.{c:i} from (select 1) s, unnest({a}::text[]) u",
    "with t as (select 1) select t.{c:i} from t, unnest({a}::text[]) u",
    # a function's alias with a column list (the twenty-fourth pass accepts a table's alias
    # with one, ``from t23 t (i, w), unnest(...) u``, which had stood here)
    "select (select t.{c:i} from unnest({a}::text[]) t (w)) from t23 t (i, w)",
]


def test_postgresql_keeps_refusing_a_name_a_function_in_from_may_give(pg: Any) -> None:  # noqa: F811
    _table(db=pg)
    try:
        # The positive controls: a function's row named like the table's, in a subquery,
        # written in the text or by a value, ran the array's text as SQL.
        for alias in ("t", '"t"'):
            naive = f'select (select t."ts_stat" from unnest(%s::text[]) {alias}) from t23 t'
            assert "hunter2" in str(pg.execute(naive, [[SECRET_LEXEMES]]).fetchall())
        # ...and one SQL's syntax names by no word of the text: trim() is btrim, a cast to
        # character varying is varchar (sql() accepted these in this pass's first draft).
        for naive in ['select (select btrim."ts_stat" from trim(both from %s)) from t23 btrim',
                      'select (select "varchar"."ts_stat" from cast(%s as character varying)) '
                      'from t23 "varchar"']:  # fmt: skip
            assert "hunter2" in str(pg.execute(naive, [SECRET_LEXEMES]).fetchall())
        values = {"a": [SECRET_LEXEMES], "al": "t", "t": "t23", "xs": [SECRET_LEXEMES, ";"]}
        for text in FUNCTION_ROWS:
            refused_everywhere(_parts(text, c="ts_stat", **values), CALLED)
    finally:
        pg.execute("drop table public.t23_other")


# --- A value as a pattern or a small language in a parameter (held) --------------------------

PATTERNS = [
    ("sqlite", "select name from p23 where name like {p} order by 1", "%"),
    ("sqlite", "select name from p23 where name glob {p} order by 1", "*"),
    ("duckdb", "select name from p23 where name like {p} order by 1", "%"),
    ("duckdb", "select name from p23 where name ilike {p} order by 1", "%"),
    ("duckdb", "select name from p23 where name similar to {p} order by 1", ".*"),
    ("duckdb", "select name from p23 where name glob {p} order by 1", "*"),
    ("duckdb", "select name from p23 where regexp_matches(name, {p}) order by 1", ""),
]


@pytest.mark.parametrize(("dialect", "text", "everything"), PATTERNS)
def test_a_pattern_value_chooses_only_which_rows_match(
    dialect: str, text: str, everything: str
) -> None:
    connection: Any = sqlite3.connect(":memory:") if dialect == "sqlite" else duckdb.connect()
    connection.execute("create table p23 (name text)")
    connection.execute("insert into p23 values ('a_b'), ('axb')")
    matched = connection.execute(*_render(text, "qmark", dialect, p=everything)).fetchall()
    assert matched == [("a_b",), ("axb",)]  # the author's rows, all of them
    # The way to match the value as it is: escape it in Python, and name the escape in the text.
    if " like " in text:
        escaped = "a_b".replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        literal = text.replace("{p}", "{p} escape '\\'")
        assert connection.execute(*_render(literal, "qmark", dialect, p=escaped)).fetchall() == [
            ("a_b",)
        ]


def test_a_format_string_value_reads_only_the_arguments_the_text_gives() -> None:
    """printf() and format() with the format from a value: no argument the text does not
    give (DuckDB refuses, SQLite writes nothing), and SQLite ignores %n; and a value cannot
    turn off the redaction of DuckDB's secrets (a setting the text would have to write)."""
    lite = sqlite3.connect(":memory:")
    query = _render("select printf({f}, 'a')", "qmark", "sqlite", f="%s|%s|%n|%s")
    assert lite.execute(*query).fetchall() == [("a|||",)]
    connection = duckdb.connect()
    for call in ("printf", "format"):
        spec = "%s %s" if call == "printf" else "{} {}"
        query = _render(f"select {call}({{f}}, 'a')", "qmark", "duckdb", f=spec)
        with pytest.raises(duckdb.InvalidInputException, match="out of range"):
            connection.execute(*query)
    unredacted = _render("select * from duckdb_secrets(redact = {r})", "qmark", "duckdb", r=False)
    with pytest.raises(duckdb.InvalidInputException, match="unredacted secrets is disabled"):
        connection.execute(*unredacted)


def test_postgresql_patterns_and_jsonpath_run_no_function(pg: Any) -> None:  # noqa: F811
    pg.execute("create table p23 (name text, doc jsonb)")
    pg.execute("""insert into p23 values ('a_b', '{"k": {"deep": 1}}'), ('axb', '{}')""")
    for text, pattern in [("like", "%"), ("ilike", "%"), ("similar to", "%"), ("~", "")]:
        query = sql(InterpolationTemplate(*_parts(f"select name from p23 where name {text} {{p}}"
                                                  " order by 1", p=pattern)), "format")  # fmt: skip
        assert pg.execute(*query).fetchall() == [("a_b",), ("axb",)]
    path = "select jsonb_path_query(doc, {p}::jsonpath) from p23 where name = 'a_b'"
    walked = pg.execute(*_render(path, "format", None, p="$.**")).fetchall()
    assert walked == [({"k": {"deep": 1}},), ({"deep": 1},), (1,)]  # the text's document only
    with pytest.raises(Exception, match="syntax error"):
        pg.execute(*_render(path, "format", None, p='pg_read_file("PG_VERSION")'))


ENTITY = '<!DOCTYPE x [<!ENTITY e SYSTEM "PG_VERSION">]><x>&e;</x>'


def test_postgresql_xml_substitutes_no_entity_a_value_declares(pg: Any) -> None:  # noqa: F811
    parsed = pg.execute(*_render("select xmlparse(document {d})::text", "format", None, d=ENTITY))
    assert parsed.fetchall() == [(ENTITY,)]  # &e; stays: the server's PG_VERSION is not read
    for text in ["select xpath('/x/text()', {d}::xml)::text[]",
                 "select xpath({p}, xmlparse(document {d}))::text[]"]:  # fmt: skip
        found = pg.execute(*_render(text, "format", None, d=ENTITY, p="/x/text()"))
        assert found.fetchall() == [([],)]
    internal = ENTITY.replace('SYSTEM "PG_VERSION"', '"MARK23"')
    found = pg.execute(*_render("select xpath('//text()', {d}::xml)::text[]", "format", None,
                                d=internal))  # fmt: skip
    assert "MARK23" not in str(found.fetchall())  # no entity at all


STYLESHEET = (
    '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" '
    'xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">'
    '<xsl:template match="/">BODY</xsl:template></xsl:stylesheet>'
)


def test_postgresql_xslt_from_a_value_reads_and_writes_no_file(pg: Any) -> None:  # noqa: F811
    _extension(pg, "xml2")
    query = "select xslt_process('<x/>', {xsl})::text"
    plain = _render(query, "format", None, xsl=STYLESHEET.replace("BODY", "<r>ran</r>"))
    assert "<r>ran</r>" in pg.execute(*plain).fetchone()[0]  # the control: a stylesheet runs
    written = '<exsl:document href="sql23_marker.txt" method="text">MARK23</exsl:document>'
    for body in ["<r><xsl:copy-of select=\"document('PG_VERSION')\"/></r>", written]:
        with pytest.raises(Exception, match="failed to apply stylesheet"):
            pg.execute(*_render(query, "format", None, xsl=STYLESHEET.replace("BODY", body)))
    missing = pg.execute("select pg_stat_file('sql23_marker.txt', true) is null").fetchone()
    assert missing == (True,)


# --- A value-named CTE (held) ---------------------------------------------------------------

CTE = "with {n:i} as (select id from docs23) select id from docs23 where {check:q} order by 1"


def _docs(connection: Any) -> None:
    connection.execute("create table allowed23 (id int)")
    connection.execute("insert into allowed23 values (1)")
    connection.execute("create table docs23 (id int, body text)")
    connection.execute("insert into docs23 values (1, 'a'), (2, 'b')")
    connection.execute("create view visible23 as select * from docs23 "
                       "where id in (select id from allowed23)")  # fmt: skip


def _cte(check: str, paramstyle: str, dialect: str | None) -> Any:
    fragment = InterpolationTemplate(check)
    return sql(InterpolationTemplate(*_parts(CTE, n="allowed23", check=fragment)), paramstyle,
               dialect=dialect)  # fmt: skip


def test_duckdb_value_named_cte_hides_a_table_in_a_macro_body_but_not_in_a_view() -> None:
    connection = duckdb.connect()
    _docs(connection)
    connection.execute("create macro ok23(i) as i in (select id from allowed23)")
    # Shown: the CTE's name reaches the macro's body, which then reads the CTE's rows.
    assert connection.execute(*_cte("ok23(id)", "qmark", "duckdb")).fetchall() == [(1,), (2,)]
    # A view is bound where it was created: its allowed23 is the table.
    visible = _cte("id in (select id from visible23)", "qmark", "duckdb")
    assert connection.execute(*visible).fetchall() == [(1,)]
    sqlite = sqlite3.connect(":memory:")
    _docs(sqlite)
    visible = _cte("id in (select id from visible23)", "qmark", "sqlite")
    assert sqlite.execute(*visible).fetchall() == [(1,)]


def test_postgresql_value_named_cte_hides_no_table_of_a_function_or_view(pg: Any) -> None:  # noqa: F811
    _docs(pg)
    pg.execute("create function ok23(i int) returns bool language sql stable "
               "as 'select i in (select id from allowed23)'")  # fmt: skip
    for check in ["ok23(id)", "id in (select id from visible23)"]:
        assert pg.execute(*_cte(check, "format", None)).fetchall() == [(1,)]
    # In the statement's own text the CTE is what the name reads: the author's rows.
    assert pg.execute(*_cte("id in (select id from allowed23)", "format", None)).fetchall() == [
        (1,),
        (2,),
    ]
