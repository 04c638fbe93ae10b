"""sql(): the hostile corpus round-trips through real sqlite3, DuckDB and PostgreSQL."""

from __future__ import annotations

import enum
import importlib
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import duckdb
import pytest
from conftest import run
from hostile import ALL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from templates import T

from ipy_istring._sql_tokens import DUCKDB_SPACES, POSTGRESQL_SCS_OFF, SQLITE, dialects, tokens
from ipy_istring.fields import RenderError
from ipy_istring.sql import PARAMSTYLES, Query, sql
from ipy_istring.template import InterpolationTemplate

sql_module = importlib.import_module("ipy_istring.sql")  # the module, not the function

SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
IDENTIFIERS = ["my table", 'with "quotes"', "semi; DROP TABLE t; --", "ünïcode", "'single'"]


Execute = Callable[[InterpolationTemplate], list[tuple[Any, ...]]]


def prove_corpus(execute: Execute) -> None:
    """Insert every hostile value as a parameter and as a literal, then read each back."""
    execute(T("create table t (id integer, v text)"))
    for n, value in enumerate(ALL):
        execute(T("insert into t (id, v) values (", (n, "n"), ", ", (value, "value"), ")"))
        execute(
            T(
                "insert into t (id, v) values (",
                (-n, "n", None, "l"),
                ", ",
                (value, "v", None, "l"),
                ")",
            )
        )
    for n, value in enumerate(ALL):
        rows = execute(T("select id, v from t where v = ", (value, "value"), " order by id"))
        assert rows == sorted([(n, value), (-n, value)]), value  # exact, and no extra row
        rows = execute(T("select v from t where id in ", ((n, -n), "ids", None, "in")))
        assert [v for (v,) in rows] == [value, value]
    assert execute(T("select count(*) from t")) == [(2 * len(ALL),)]


def prove_identifiers(execute: Execute) -> None:
    for name in IDENTIFIERS:
        execute(
            T("create table ", (name, "name", None, "i"), " (", (name, "col", None, "i"), " text)")
        )
        execute(T("insert into ", (name, "name", None, "i"), " values (", (name, "v"), ")"))
        rows = execute(T("select ", (name, "col", None, "i"), " from ", (name, "name", None, "i")))
        assert rows == [(name,)]


def sqlite_executor(paramstyle: str) -> Iterator[Execute]:
    connection = sqlite3.connect(":memory:")

    def execute(template: InterpolationTemplate) -> list[tuple[Any, ...]]:
        return connection.execute(*sql(template, paramstyle)).fetchall()

    yield execute
    connection.close()


@pytest.mark.parametrize("paramstyle", ["qmark", "named"])
def test_sqlite(paramstyle: str) -> None:
    for execute in sqlite_executor(paramstyle):
        prove_corpus(execute)
        prove_identifiers(execute)
        assert execute(T("select name from sqlite_master where name = 't'")) == [("t",)]


@pytest.mark.parametrize("paramstyle", ["qmark", "dollar"])
def test_duckdb(paramstyle: str) -> None:
    connection = duckdb.connect(":memory:")

    def execute(template: InterpolationTemplate) -> list[tuple[Any, ...]]:
        return connection.execute(*sql(template, paramstyle)).fetchall()

    prove_corpus(execute)
    prove_identifiers(execute)
    assert execute(T("select count(*) from information_schema.tables where table_name = 't'")) == [
        (1,)
    ]
    connection.close()


@pytest.fixture
def pg(postgres_dsn: str) -> Iterator[Any]:
    """A PostgreSQL connection working in a fresh schema, dropped afterwards."""
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute("drop schema if exists ipy_istring_test cascade")
        connection.execute("create schema ipy_istring_test")
        connection.execute("set search_path to ipy_istring_test")
        yield connection
        connection.execute("drop schema ipy_istring_test cascade")


@pytest.mark.parametrize("paramstyle", ["format", "pyformat"])
def test_postgresql(pg: Any, paramstyle: str) -> None:
    def execute(template: InterpolationTemplate) -> list[tuple[Any, ...]]:
        cursor = pg.execute(*sql(template, paramstyle))
        return cursor.fetchall() if cursor.description else []

    prove_corpus(execute)
    prove_identifiers(execute)
    rows = execute(T("select count(*) from pg_tables where schemaname = 'ipy_istring_test'"))
    assert rows == [(1 + len(IDENTIFIERS),)]
    # Literal '%' in the static text next to parameters, in a LIKE pattern.
    pattern = "100%"
    rows = execute(T("select count(*) from t where v like '100%' and v = ", (pattern, "p")))
    assert rows == [(2,)]


def test_postgresql_types_and_nested_queries(pg: Any) -> None:
    def execute(template: InterpolationTemplate) -> list[tuple[Any, ...]]:
        return pg.execute(*sql(template, "format")).fetchall()

    where = T("a = ", (1, "a"), " and b = ", ("x", "b"))
    query = T(
        "select ",
        (2.5, "f", None, "l"),
        ", ",
        (None, "n", None, "l"),
        ", ",
        (True, "t", None, "l"),
        ", ",
        (Decimal("-1.25"), "d", None, "l"),
        ", ",
        (-7, "i"),
        " from (select 1 as a, 'x' as b) s where ",
        (where, "where", None, "q"),
    )
    assert execute(query) == [(2.5, None, True, Decimal("-1.25"), -7)]


@pytest.mark.skipif(sys.version_info < (3, 14), reason="native t-strings need Python 3.14")
def test_psycopg_runs_the_native_template_and_sql_agrees(pg: Any) -> None:
    from string.templatelib import Interpolation as NativeInterpolation
    from string.templatelib import Template

    pg.execute("create table t (id integer, v text)")
    for n, value in enumerate(ALL):
        # What psycopg does with t"insert ... values ({n}, {value})" on its own...
        pg.execute(
            Template(
                "insert into t values (",
                NativeInterpolation(n, "n"),
                ", ",
                NativeInterpolation(value, "value"),
                ")",
            )
        )
    for n, value in enumerate(ALL):
        native = Template("select id from t where v = ", NativeInterpolation(value, "value"))
        # ...and what sql() makes of the very same template, agree.
        assert pg.execute(native).fetchall() == [(n,)]
        assert pg.execute(*sql(native, "format")).fetchall() == [(n,)]


# Rendering, without a database.


def test_each_paramstyle() -> None:
    template = T("select * from t where a = ", (1, "a"), " and b = ", (2, "row['b']"))
    assert sql(template) == Query("select * from t where a = ? and b = ?", (1, 2))
    rendered = {style: sql(template, style) for style in PARAMSTYLES}
    assert rendered["numeric"].sql.endswith("a = :1 and b = :2")
    assert rendered["dollar"].sql.endswith("a = $1 and b = $2")
    assert rendered["format"].sql.endswith("a = %s and b = %s")
    assert rendered["named"] == ("select * from t where a = :a and b = :p2", {"a": 1, "p2": 2})
    assert rendered["pyformat"].sql.endswith("a = %(a)s and b = %(p2)s")
    assert rendered["pyformat"].params == {"a": 1, "p2": 2}


def test_named_parameters_never_collide() -> None:
    inner = T("x = ", (2, "x"))
    template = T("select ", (1, "x"), ", ", (inner, "inner", None, "q"), ", ", (3, "x"))
    assert sql(template, "named") == (
        "select :x, x = :x_2, :x_3",
        {"x": 1, "x_2": 2, "x_3": 3},
    )


def test_percent_is_doubled_only_for_format_styles() -> None:
    template = T("select '100%' || ", ("a", "a"), " || ", ("5%", "b", None, "l"))
    assert sql(template, "format").sql == "select '100%%' || %s || '5%%'"
    assert sql(template, "pyformat").sql == "select '100%%' || %(a)s || '5%%'"
    assert sql(template, "qmark").sql == "select '100%' || ? || '5%'"


def test_identifiers() -> None:
    assert sql(T("select ", ('a "b"', "c", None, "i"))).sql == 'select "a ""b"""'
    qualified = T("select * from ", (("s", "t"), "c", None, "i"))
    assert sql(qualified, dialect="sqlite").sql == 'select * from "s"."t"'
    assert sql(qualified, "format").sql == 'select * from "s"."t"'
    with pytest.raises(RenderError, match=r"\{c:i\} is a table name in a query DuckDB may run"):
        sql(qualified)  # qmark: DuckDB may run it, and reads "s"."t" as the file s.t

    class Lying(str):  # says it is neither empty nor holding a NUL
        def __len__(self) -> int:
            return 3

        def __contains__(self, item: object) -> bool:
            return False

    for bad, why in (
        ("", "empty"),
        ("a\0", "NUL"),
        (3, "needs a str"),
        (Lying(""), "empty"),
        (Lying("a\0"), "NUL"),
    ):
        with pytest.raises(RenderError, match=rf"\{{c:i\}}.*{why}"):
            sql(T("select ", (bad, "c", None, "i")))


def test_a_name_postgresql_would_cut_is_refused() -> None:
    """PostgreSQL cuts a name to 63 bytes (with a NOTICE): "a" * 63 + "_secret" is "a" * 63."""
    long = "é" * 32  # 64 bytes
    for value in ("a" * 64, long, ("s", "a" * 64)):
        with pytest.raises(RenderError, match=r"\{c:i\} is a name longer than 63 bytes"):
            sql(T("select 1 as ", (value, "c", None, "i")), "format")
    assert sql(T("select 1 as ", ("é" * 31 + "a", "c", None, "i")), "format").params == ()
    assert sql(T("select 1 as ", (long, "c", None, "i")), dialect="sqlite").params == ()
    assert sql(T("select 1 as ", (long, "c", None, "i")), "qmark").params == ()


def test_literals() -> None:
    def literal(value: object) -> str:
        return sql(T("select ", (value, "x", None, "l"))).sql.removeprefix("select ")

    assert literal("it's") == "'it''s'"
    assert literal(None) == "NULL"
    assert literal(False) == "FALSE"
    assert literal(-5) == "(-5)"  # 'x-{n:l}' must not become the comment 'x--5'
    assert literal(1e100) == "1e+100"
    for bad in (float("nan"), float("inf"), b"bytes", object(), "a\0"):
        with pytest.raises(RenderError, match=r"\{x:l\}"):
            literal(bad)


def test_nested_template_renumbers_and_needs_q() -> None:
    inner = T("b = ", (2, "b"), " and c in ", ([3, 4], "cs", None, "in"))
    outer = T(
        "select * from t where a = ",
        (1, "a"),
        " and ",
        (inner, "inner", None, "q"),
        " and d = ",
        (5, "d"),
    )
    assert sql(outer, "dollar") == (
        "select * from t where a = $1 and b = $2 and c in ($3, $4) and d = $5",
        (1, 2, 3, 4, 5),
    )
    with pytest.raises(RenderError, match=r"\{inner\} is a nested template.*':q'"):
        sql(T("select ", (inner, "inner")))
    with pytest.raises(RenderError, match=r"\{frag:q\}.*needs an i-string.*got str"):
        sql(T("select ", ("1; drop table t", "frag", None, "q")))


def test_in_expansion() -> None:
    assert sql(T("x in ", ((1, 2, 3), "ids", None, "in"))) == ("x in (?, ?, ?)", (1, 2, 3))
    with pytest.raises(RenderError, match=r"\{ids:in\} is empty.*IN \(\)"):
        sql(T("x in ", ([], "ids", None, "in")))
    with pytest.raises(RenderError, match=r"\{ids:in\}.*str"):
        sql(T("x in ", ("abc", "ids", None, "in")))


@pytest.mark.parametrize(
    ("static", "where"),
    [
        (("select * from t where v = '", "'"), "inside a quoted SQL string.*= \\{x\\}"),
        (("select 'it''s ", "'"), "inside a quoted SQL string"),
        (("select E'a\\' ", "'"), "E'...' string"),
        (('select "', '" from t'), "double-quoted identifier.*\\{x:i\\}"),
        (("select 1 -- ", "\n"), "-- comment"),
        (("select 1 /* a /* b */ ", " */"), "/\\* \\*/ comment"),
        (("select $$ ", " $$"), "dollar-quoted"),
        (("select $tag$ $$ ", " $tag$"), "dollar-quoted"),
    ],
)
def test_field_in_written_quotes_or_comments_is_refused(
    static: tuple[str, str], where: str
) -> None:
    with pytest.raises(RenderError, match=where) as caught:
        sql(T(static[0], ("v", "x"), static[1]))
    assert "select" not in str(caught.value)  # never a partly built query


@pytest.mark.parametrize(
    ("static", "dialect"),
    [
        (("select 'a''b', ", ""), None),
        (('select "col" from t where a = ', ""), None),
        (("select 1 -- note\n where a = ", ""), None),
        (("select /* c */ ", ""), None),
        (("select $$ x $$ || ", ""), "duckdb"),
        (("select E'\\'' || ", ""), "duckdb"),
        (("select a$b$c, ", ""), None),  # '$' inside an identifier opens no dollar quote
    ],
)
def test_contexts_where_a_field_is_fine(static: tuple[str, str], dialect: str | None) -> None:
    assert sql(T(static[0], ("v", "x"), static[1]), dialect=dialect).params == ("v",)


@pytest.mark.parametrize(
    ("static", "why"),
    [
        # SQLite (one of the qmark databases) reads '$$' as a parameter named '$'...
        (("select $$ x $$ || ", ""), r"static text '\$\$' is a parameter placeholder to sqlite"),
        # ...and E'\'' as the word E, the string '\' and an opening quote.
        (("select E'\\'' || ", ""), r"inside a quoted SQL string.*as sqlite reads it"),
    ],
)
def test_contexts_some_qmark_database_reads_otherwise_are_refused(
    static: tuple[str, str], why: str
) -> None:
    with pytest.raises(RenderError, match=why):
        sql(T(static[0], ("v", "x"), static[1]))


def test_conversions_and_unknown_specs_are_refused() -> None:
    with pytest.raises(RenderError, match=r"\{x!r\} has a conversion.*Supported:"):
        sql(T("select ", ("v", "x", "r")))
    with pytest.raises(RenderError, match=r"unknown spec in \{x:zz\}.*':i'.*':in'"):
        sql(T("select ", ("v", "x", None, "zz")))
    with pytest.raises(RenderError, match=r"unknown spec in \{x:>5\}"):
        sql(T("select ", (5, "x", None, ">5")))


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match=r"already formatted.*sql\(i'...'\)"):
        sql("select * from t where id = 1")
    with pytest.raises(ValueError, match=r"unknown paramstyle 'qmarks'.*qmark"):
        sql(T("select 1"), "qmarks")


def test_in_ipython_with_i_literals(ishell: Any) -> None:
    run(ishell, "import sqlite3\nfrom ipy_istring.sql import sql")
    run(ishell, "db = sqlite3.connect(':memory:')\ndb.execute('create table t (v text)')")
    run(ishell, 'evil = "\'; DROP TABLE t; --"')
    run(ishell, "db.execute(*sql(i'insert into t values ({evil})'))")
    assert run(ishell, "db.execute(*sql(i'select v from t where v = {evil}')).fetchall()") == [
        ("'; DROP TABLE t; --",)
    ]
    assert run(ishell, "sql(i'select {\"a b\":i} from t where v in {[1, 2]:in}', 'named')") == (
        'select "a b" from t where v in (:p1, :p2)',
        {"p1": 1, "p2": 2},
    )


def test_a_spec_built_at_run_time_is_refused(ishell: Any) -> None:
    # {pw:{mode}} with mode = "i": the value chose a name instead of a parameter, and the
    # comparison of the column with itself matched every row in sqlite3 (the positive control:
    # the same evaluated template, its spec written, does exactly that).
    run(ishell, "import sqlite3\nfrom ipy_istring.sql import sql")
    run(ishell, "db = sqlite3.connect(':memory:')")
    run(ishell, "db.execute('create table u (name text, pw text)')")
    run(ishell, "db.execute(\"insert into u values ('root', 's3cret'), ('bob', 'hunter2')\")")
    run(ishell, 'pw, mode = "pw", "i"')
    leaked = run(ishell, "db.execute(*sql(i'select name from u where pw = {pw:i}')).fetchall()")
    assert sorted(leaked) == [("bob",), ("root",)]
    built = [
        "sql(i'select name from u where pw = {pw:{mode}}')",
        "sql(i'select {pw:i} from u where pw = {pw:{mode}}', 'named', dialect='sqlite')",
        "sql(i'select name from u where {i\"pw = {pw:{mode}}\":q}')",  # in a fragment
    ]
    for cell in built:
        with pytest.raises(RenderError, match=r"\{pw:i\} has a spec built at run time"):
            run(ishell, cell)
    # Even a built spec that comes out empty (a parameter) is refused: the text cannot say.
    with pytest.raises(RenderError, match=r"\{pw\} has a spec built at run time"):
        run(ishell, "sql(i'select name from u where pw = {pw:{\"\"}}')")
    # Look-alikes that stay accepted: written specs, f-strings inside the expression.
    assert run(ishell, "sql(i'select {pw:i} from u where pw = {pw}')") == (
        'select "pw" from u where pw = ?',
        ("pw",),
    )
    assert run(ishell, "sql(i'select {f\"{pw}_2\":i} from u')").sql == 'select "pw_2" from u'
    assert run(ishell, "sql(i'select name from u where pw = {len(f\"{mode:>3}\")}')").params == (
        3,
    )


# Scale, odd values and the structural check.


def test_named_placeholders_are_distinct_and_linear() -> None:
    # 10,000 fields with one expression (quadratic before: 10.9 s) and a 20,000-item IN list.
    many = T("select ", *[p for n in range(10_000) for p in ((n, "x"), ", ")], "0")
    query = sql(many, "named")
    assert len(query.params) == 10_000 and query.params["x_10000"] == 9_999
    ids = sql(T("select 1 where 1 in ", (list(range(20_000)), "ids", None, "in")), "pyformat")
    assert len(ids.params) == 20_000 and ids.sql.endswith("%(ids_20000)s)")
    # Generated names never take a name the user wrote later, nor merge with the text after.
    query = sql(T("select ", (1, "x"), ", ", (2, "x"), ", ", (3, "x_2"), " b"), "named")
    assert query == ("select :x, :x_2, :x_2_2 b", {"x": 1, "x_2": 2, "x_2_2": 3})
    with pytest.raises(RenderError, match=r"\{a\} touches its neighbours.*'b' after it"):
        sql(T("select ", (1, "ab"), " as x, ", (2, "a"), "b"), "named")


def test_deep_nesting_is_a_render_error() -> None:
    fragment = T("1")
    for _ in range(3_000):
        fragment = T("(", (fragment, "f", None, "q"), ")")
    with pytest.raises(RenderError, match=r"\{f:q\} nests templates more than 100 deep"):
        sql(T("select ", (fragment, "f", None, "q")))


class Status(int, enum.Enum):
    ACTIVE = 1


class OddFloat(float):
    def __repr__(self) -> str:
        return "nan; drop table t"


def test_odd_literal_values() -> None:
    def literal(value: object, dialect: str | None = None) -> str:
        return sql(T("select ", (value, "x", None, "l")), dialect=dialect).sql[7:]

    assert literal(Status.ACTIVE) == "1"  # str() would write Status.ACTIVE
    assert literal(OddFloat(2.5)) == "2.5"
    assert literal(Decimal("-1E+5")) == "(-1E+5)"
    assert literal("a\\'b") == "'a\\''b'"  # qmark: SQLite and DuckDB, where '\' is plain
    assert literal("a\\'b", "postgresql") == "E'a\\\\''b'"  # either standard_conforming_strings
    for bad, why in (
        (Decimal("sNaN"), "no portable SQL literal"),
        (10**5000, "too long"),
        (float("-inf"), "no portable SQL literal"),
    ):
        with pytest.raises(RenderError, match=rf"\{{x:l\}} .*{why}"):
            literal(bad)
    assert sql(T("select ", ("a\\", "x", None, "l")), "dollar").sql == "select E'a\\\\'"
    # A set of databases where one escapes and another cannot read E'...' gets no literal.
    with pytest.raises(sql_module._Refused, match=r"is a string with a backslash"):
        sql_module._literal("a\\", (SQLITE, POSTGRESQL_SCS_OFF))
    with pytest.raises(ValueError, match="unknown dialect 'mysql'"):
        sql(T("select 1"), dialect="mysql")


def test_a_scanner_bug_becomes_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    # If the literal writer ever let a quote through, the check would refuse, not render.
    monkeypatch.setattr(sql_module, "_literal", lambda value, members: f"'{value}'")
    with pytest.raises(RenderError, match=r"\{x:l\} renders as .*not one literal"):
        sql(T("select ", ("' or 1=1 --", "x", None, "l")))
    with pytest.raises(RenderError, match=r"\{x:l\} renders as .*not one literal"):
        sql(T("select ", ("1' '", "x", None, "l")))


SNIPPETS = [
    "select ", " ", "x", "E", "e", "N", "U&", "X", "'", "''", '"', "`", "[", "]", "$$", "$a$",
    "--", "\n", "\r", "/*", "*/", "(", ")", ",", "-", ":", "::", "1", ".", "\\", "%", ";",
    "||", "=", "\xa0", "$1", "?", "#", "@", "&", "!", "<", "0", "e5", "\t", "$b", "{", "}",
]  # fmt: skip
SPACING = [" "] * 12 + ["(", ")", ","] * 3  # more often a context where a field may stand
HOSTILE = [
    "'", "\\'", "\\", "a' OR 1=1 --", '"', "`", "]", "$$", "$a$", "*/", "/*", "--", "\n",
    "\r", "%s", "?", "'\\'", "é", "a\\b'",
]  # fmt: skip


def kinds(text: str, dialect: Any) -> list[str]:
    """The token kinds of ``text``, an E'...' string being a string like any other."""
    return ["string" if kind == "escape_string" else kind for kind, _, _ in tokens(text, dialect)]


@SETTINGS
@given(
    st.lists(
        st.lists(st.sampled_from(SNIPPETS + SPACING), max_size=5).map("".join),
        min_size=2,
        max_size=4,
    ),
    st.lists(st.sampled_from(["", "l", "i"]), min_size=3, max_size=3),
    st.sampled_from(HOSTILE),
    st.sampled_from(PARAMSTYLES),
    st.sampled_from([None, "sqlite", "duckdb", "postgresql"]),
)
def test_accepted_values_never_change_the_tokens(
    strings: list[str], specs: list[str], hostile: str, paramstyle: str, dialect: str | None
) -> None:
    """Whatever the context, an accepted render reads, in every dialect it is meant for, as
    the same tokens as the render of a harmless value: the value stayed data."""

    def render(value: str) -> str:
        parts: list[Any] = [strings[0]]
        for n, string in enumerate(strings[1:]):
            parts += [(value, "v", None, specs[n]), string]
        return sql(T(*parts), paramstyle, dialect=dialect).sql

    try:
        rendered = render(hostile)
    except RenderError:
        return
    harmless = render("a")
    members = dialects(dialect, paramstyle)
    for member in members:
        assert kinds(rendered, member) == kinds(harmless, member), (rendered, member.name)
    if any(member.name == "duckdb" for member in members):
        # And DuckDB's own tokenizer, the real engine's, agrees.
        real = [kind for _, kind in duckdb.tokenize(rendered)]
        assert real == [kind for _, kind in duckdb.tokenize(harmless)], rendered


# DuckDB's Unicode spaces.


def test_duckdb_reads_exactly_our_unicode_spaces_as_spaces() -> None:
    """Every non-ASCII space or format character DuckDB reads as a space in code is one the
    lexer tables (and no other): proven on the real parser, 'a<c>b' being one alias or two."""
    import unicodedata

    connection = duckdb.connect(":memory:")
    ours = re.compile(f"[{DUCKDB_SPACES}]")
    checked = 0
    for code in range(0x80, 0x10000):
        c = chr(code)
        if 0xD800 <= code < 0xE000 or not (
            c.isspace() or unicodedata.category(c) in ("Zs", "Zl", "Zp", "Cf")
        ):
            continue
        try:
            connection.execute(f"select 'x' as a{c}b, 1 as z").fetchall()
            space = False
        except duckdb.ParserException:
            space = True
        assert space == bool(ours.fullmatch(c)), f"U+{code:04X}"
        checked += 1
    assert checked > 50
    connection.close()


@pytest.mark.parametrize("space", ["\xa0", "\u2003", "\u200b", "\u3000", "\ufeff"])
def test_a_duckdb_unicode_space_in_code_is_refused(space: str) -> None:
    hostile = T(f"select text{space}$$ ", ("$$ || secret || $$", "x", None, "l"), " $$")
    for paramstyle, dialect in (("qmark", "duckdb"), ("dollar", None)):
        with pytest.raises(
            RenderError,
            match=rf"U\+{ord(space):04X} after 'select text'.*"
            "a space to duckdb.*a letter to PostgreSQL.*Write a plain space",
        ):
            sql(hostile, paramstyle, dialect=dialect)
    # PostgreSQL and SQLite read it as a letter, as the lexer does for them.
    assert sql(hostile, "format").params == ()
    # Inside a string or a comment it is data; in a value, inside its quotes.
    for dialect in ("duckdb", "postgresql", "sqlite"):
        query = sql(
            T(
                f"select '{space}' /* {space} */ || ",
                (f"{space}", "x", None, "l"),
                ", ",
                (space, "c", None, "i"),
            ),
            dialect=dialect,
        )
        assert query.sql.endswith(f"'{space}', \"{space}\"")


# Where the database runs a value as code.


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        (("do ", "l"), "DO statement.*PL/pgSQL"),
        (("DO LANGUAGE plpgsql ", "l"), "DO statement"),
        (("copy t to program ", "l"), "follows PROGRAM.*shell command"),
        (("load ", "l"), "LOAD statement.*shared library"),
        (("install httpfs from ", "l"), "INSTALL statement"),
        (("force install ", "i"), "INSTALL statement"),
        (("select query_to_xml('select ' || ", ""), r"argument of query_to_xml\(\).*as SQL"),
        (('select pg_catalog."query_to_xmlschema"(', ""), r"argument of query_to_xmlschema\(\)"),
        (("select * from query(", ""), r"argument of query\(\).*DuckDB"),
        (("select load_extension(", ""), r"argument of load_extension\(\).*shared library"),
        (("create or replace procedure p() language sql as ", "l"), "body of a stored"),
        (("create macro m() as ", "l"), "body of a stored"),
        (("alter system set archive_command = ", "l"), "ALTER SYSTEM"),
        (("create extension ", "i"), "CREATE EXTENSION.*shared library"),
        (("create extension if not exists pgcrypto schema ", "i"), "CREATE EXTENSION"),
        (("set custom_extension_repository = ", "l"), "loads its libraries or extensions"),
        (("SET GLOBAL extension_directory TO ", "l"), "loads its libraries or extensions"),
        (("alter role r set session_preload_libraries = ", "l"), "loads its libraries"),
        (("create foreign table f (a text) server s options (program ", "l"), "follows PROGRAM"),
        # DuckDB's EXPLAIN ANALYZE runs the statement it explains, whatever it is.
        (("explain analyze load ", "l"), "LOAD statement"),
        (("EXPLAIN (ANALYZE) FORCE INSTALL ", "l"), "INSTALL statement"),
        (("explain analyze set home_directory = ", "l"), "loads its libraries or extensions"),
        (("explain analyze create macro m() as ", "l"), "body of a stored"),
    ],
)
def test_a_field_the_database_would_run_as_code_is_refused(
    parts: tuple[str, str], why: str
) -> None:
    static, spec = parts
    field = "{x}" if not spec else f"{{x:{spec}}}"
    for paramstyle in ("qmark", "format", "dollar"):
        with pytest.raises(RenderError, match=rf"{re.escape(field)} .*{why}.*never become code"):
            sql(T(static, ("v", "x", None, spec), ")" if static.endswith("(") else ""), paramstyle)


def test_code_is_found_across_fragments_and_look_alikes_stay() -> None:
    for outer, inner in (
        (("", " "), T("copy t from program")),
        (("select * from (", ") where "), T("select * from query(", ("v", "y"), ")")),
    ):
        template = T(outer[0], (inner, "f", None, "q"), outer[1], ("v", "x", None, "l"))
        with pytest.raises(RenderError, match="never become code"):
            sql(template, "format")
    # The same words as names, data, comments, or in another statement.
    for static in (
        ("select program, query from t where v = ", ""),
        ("select id from t where id = ", " -- do"),
        ("insert into t (id) values (", ") on conflict do nothing"),
        ("do $$ begin end $$; select ", ""),
        ("create table t2 as select ", " as v"),
        ("create function f(a int default ", ") returns int language sql as 'select 1'"),
        ("select lower(", "), query_count from t"),
        ("update t set command = ", ", extension = 'x'"),
        ("set application_name = ", ""),  # (search_path: off the allow-list, 27th pass)
    ):
        assert sql(T(static[0], ("v", "x", None, "l"), static[1]), "format").params == ()
    # Look-alikes: the same names as columns, set_config() and pragmas that read data, a
    # prepared statement's arguments, a plain setting's value in parentheses.
    for static, paramstyle in (
        (("select id as query, crosstab from t where v = ", ""), "format"),
        (("select set_config('app.user', ", ", false)"), "format"),
        (("pragma table_info(", ")"), "qmark"),
        (("pragma main.index_list(", ")"), "qmark"),
        (("execute stmt(", ")"), "format"),
        (("set variable v = (", ")"), "qmark"),
        (("pragma threads = ", ""), "qmark"),
        (("pragma cache_size = ", ""), "format"),
        # a code setting's name only as the value of another, or as a schema
        (("set application_name = extensions, ", ""), "format"),
        (("alter table t set schema extensions; select ", ""), "format"),
        (("set variable home_directory = ", ""), "qmark"),
        (("alter table t set (fillfactor = ", ")"), "format"),
        (("select * from t where id = ", "; set search_path = 'x'"), "format"),
    ):
        assert sql(T(static[0], ("v", "x", None, "l"), static[1]), paramstyle).params == ()
    # A fragment of SQL written as code stays code.
    fragment = T("'select 1'")
    assert sql(T("select * from query(", (fragment, "f", None, "q"), ")")).sql.endswith("1')")


def test_a_continued_e_string_keeps_its_escapes() -> None:
    # E'a' <newline> '\' ... is one string to PostgreSQL (either setting): the field is in it.
    for static in ("select E'a'\n'\\' ", "select e'a'  -- note\n\n'\\' "):
        with pytest.raises(RenderError, match=r"inside an E'...' string.*as postgresql reads"):
            sql(T(static, ("v", "x", None, "l"), " '"), dialect="postgresql")
    # A field on the line after a string would be its continuation: a backslash in the value
    # would make it E'...' and two strings, a plain one would merge (the tokens would depend
    # on the value).
    for static in ("select E'x'\n", "select 'x' -- c\n"):
        with pytest.raises(RenderError, match="starts a line after a string constant"):
            sql(T(static, ("a\\b", "v", None, "l")), "format")
    # Not continued: on the same line, or code between.
    assert sql(T("select E'a' || '\\', ", ("v", "x", None, "l")), dialect="duckdb").params == ()
    assert sql(T("select E'a'\n|| ", ("v", "x")), "format").params == ("v",)


# A value that names the function called, the setting changed or a table DuckDB reads.


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        (
            ("select ", ("query_to_xml", "f", None, "i"), " (", ("q", "x"), ", true, false, '')"),
            r"\{f:i\} is the name of the function called",
        ),
        (
            ("select * from ", ("query", "f", None, "i"), " /* c */ (", ("q", "x"), ")"),
            r"\{f:i\} is the name of the function called",
        ),
        (
            ("select pg_catalog.", ("pg_read_file", "f", None, "i"), " (", ("/etc", "x"), ")"),
            r"\{f:i\} is the name of the function called",
        ),
        (("select t.", ("v", "c", None, "i"), " ()"), r"\{c:i\} is the name of the function"),
        (("call ", ("p", "p", None, "i"), " ()"), r"\{p:i\} is the name of the function"),
        (("execute ", ("wipe", "p", None, "i")), r"\{p:i\} names the prepared statement"),
        (
            ("create trigger r after insert on t execute function ", ("f", "f", None, "i"), " ()"),
            r"\{f:i\} is the name of the function called",
        ),
        (
            ("select * from ", ("query", "f", None, "i"), " ", (["q"], "xs", None, "in")),
            r"\{f:i\} is the name of the function called",
        ),
        (
            ("select ", ("abs", "f", None, "i"), " ", (-5, "n", None, "l")),
            r"\{f:i\} is the name of the function called",
        ),
        (
            ("select * from ", ("query", "f", None, "i"), " ", (T("(select 1)"), "a", None, "q")),
            r"\{f:i\} is the name of the function called",
        ),
        (("select * from t join u on ", ("f", "f", None, "i"), " (u.a)"), "function called"),
        (("select * from ts_stat(", ("q", "x"), ")"), r"ts_stat\(\).*runs its argument as SQL"),
        (("import database ", ("/d", "p", None, "l")), r"\{p:l\} is in IMPORT DATABASE"),
        (
            ("create cast (text as label) with function ", ("f", "f", None, "i"), " (text)"),
            r"\{f:i\} names the function the cast, aggregate",
        ),
        (
            ("create or replace aggregate a (text) (sfunc = ", ("f", "f", None, "l"), ")"),
            r"\{f:l\} names the function the cast",
        ),
        (("create type t (input = ", ("f", "f", None, "i"), ")"), "names the function the"),
        (("create operator === (function = ", ("f", "f", None, "i"), ")"), "names the function"),
        (("create language l handler ", ("f", "f", None, "i")), "names the function the cast"),
        (("alter foreign data wrapper w handler ", ("f", "f", None, "i")), "names the function"),
        (
            ("create default conversion c for 'LATIN1' to 'UTF8' from ", ("f", "f", None, "i")),
            "names the function the cast",
        ),
        (
            (
                "create transform for int language sql (from sql with function ",
                ("f", "f", None, "i"),
                " (internal), to sql with function g (int))",
            ),
            "names the function the cast",
        ),
        (("select * from crosstab(", ("q", "x"), ") as c(a text)"), r"crosstab\(\) runs"),
        (("select * from crosstab3(", ("q", "x"), ")"), r"crosstab3\(\) runs"),
        (
            ("select * from connectby(", ("t", "x"), ", 'a', 'b', '1', 0) as c(a int)"),
            r"\{x\} is an argument of connectby\(\), and .* unquoted",
        ),
        (
            ("select * from postgres_query('pg', ", ("q", "x"), ")"),
            r"postgres_query\(\) runs its argument as SQL on PostgreSQL",
        ),
        (("call postgres_execute('pg', ", ("q", "x"), ")"), r"postgres_execute\(\) runs"),
        (("select * from mysql_query('m', ", ("q", "x"), ")"), r"mysql_query\(\) runs"),
        (("IMPORT /* c */ Database ", ("/d", "p")), r"\{p\} is in IMPORT DATABASE"),
        (("select * from query ", (["q"], "xs", None, "in")), r"\{xs:in\} is an argument of query"),
        (("select ts_rewrite('a'::tsquery, ", ("q", "x"), ")"), r"ts_rewrite\(\).*as SQL"),
        (("select * from query_table(", ("t", "x"), ")"), r"query_table\(\).*file"),
        (('select * from "QUERY"(', ("q", "x"), ")"), r"argument of query\(\)"),
        (
            ("set ", ("custom_extension_repository", "k", None, "i"), " = 'x'"),
            r"\{k:i\} names the setting to change",
        ),
        (("set session ", ("k", "k", None, "i"), " to 'x'"), r"\{k:i\} names the setting"),
        (("reset ", ("k", "k", None, "i")), r"\{k:i\} names the setting"),
        (("pragma ", ("writable_schema", "k", None, "i"), " = 1"), r"\{k:i\} names the setting"),
        (("pragma main.", ("writable_schema", "k", None, "i"), " = 1"), "names the setting"),
        (("alter role r set ", ("k", "k", None, "i"), " = 'x'"), r"\{k:i\} names the setting"),
        (
            ('set "CUSTOM_EXTENSION_REPOSITORY" = ', ("/tmp", "v", None, "l")),
            r"\{v:l\} sets where the database loads",
        ),
        (('set "dynamic_library_path" to ', ("/tmp", "v", None, "l")), "loads its libraries"),
        (("set home_directory = ", ("/tmp", "v", None, "l")), r"\{v:l\} sets where the"),
        (("set global Home_Directory to ", ("/tmp", "v", None, "l")), "loads its libraries"),
        (("select set_config(", ("k", "k"), ", 'x', false)"), r"\{k\} names the setting"),
        (
            ("select set_config('dynamic_library_path', ", ("v", "v"), ", false)"),
            r"\{v\} is an argument of set_config\(\) naming a setting",
        ),
        # EXECUTE runs the statement it names under EXPLAIN ANALYZE and CREATE TABLE AS too.
        (("explain analyze execute ", ("wipe", "p", None, "i")), r"\{p:i\} names the prepared"),
        (("EXPLAIN (analyze) EXECUTE ", ("wipe", "p", None, "i")), r"\{p:i\} names the prepared"),
        (("create table z as execute ", ("wipe", "p", None, "i")), r"\{p:i\} names the prepared"),
        # A code setting's value inside parentheses: DuckDB evaluates the expression.
        (
            ("set custom_extension_repository = concat(", ("/tmp", "v"), ", '')"),
            r"\{v\} sets where the database loads",
        ),
        (("set home_directory = (", ("/tmp", "v"), ")"), r"\{v\} sets where the database loads"),
        # PRAGMA name(...) calls a pragma function: only the ones that read data take a value.
        (("pragma import_database(", ("/d", "p", None, "l"), ")"), r"import_database\(\), and"),
        (("PRAGMA Import_Database(", ("/d", "p")), r"\{p\} is an argument of import_database"),
        (("pragma json_execute_serialized_sql(", ("j", "x")), "json_execute_serialized_sql"),
        (("pragma copy_database(", ("a", "x"), ", 'b')"), r"PRAGMA copy_database\(\), a pragma"),
        # A value anywhere in a query that runs a string as SQL may reach that string.
        (
            (
                "select query_to_xml(q, true, false, '') from (select cast(",
                ("select secret from t", "x"),
                " as text) as q) s",
            ),
            r"\{x\} is in a query that calls query_to_xml\(\).*anywhere in the query",
        ),
        (
            ("set variable q = ", ("select 1", "x", None, "l"), "; from query(getvariable('q'))"),
            r"\{x:l\} is in a query that calls query\(\)",
        ),
        (
            ("with c(q) as (select ", ("q", "x"), ") select * from crosstab((select q from c))"),
            r"\{x\} is in a query that calls crosstab\(\)",
        ),
        (
            ("select * from t where id = ", (1, "x"), "; pragma import_database('/d')"),
            r"\{x\} is in a query that calls import_database\(\)",
        ),
        (
            ("select set_config(k, 'x', false) from (select ", ("k", "x"), " as k) s"),
            r"\{x\} is in a query that calls set_config\(\) with a setting that is not",
        ),
        (
            ("select ", ("v", "x"), "; select set_config('dynamic_library_path', 'x', false)"),
            r"\{x\} is in a query that calls set_config\(\) naming a setting",
        ),
        (
            (
                "set variable d = ",
                ("/tmp", "x", None, "l"),
                "; set home_directory = getvariable('d')",
            ),
            r"\{x:l\} is in a query that sets where the database loads",
        ),
    ],
)
def test_a_value_choosing_the_function_or_setting_is_refused(
    parts: tuple[Any, ...], why: str
) -> None:
    for paramstyle in ("qmark", "format", "named"):
        with pytest.raises(RenderError, match=why):
            sql(T(*parts), paramstyle)


@pytest.mark.parametrize(
    "parts",
    [
        ("select cast(", ("k", "x"), " as varchar).", ("getvariable", "f", None, "i"), " ()"),
        ("select (", ("k", "x"), ").", ("getvariable", "f", None, "i"), " ()"),
        ("select 'k'.", ("getvariable", "f", None, "i"), " ()"),
        ("select [1].", ("getvariable", "f", None, "i"), " ()"),
        ("select ", ("k", "x"), "::varchar.", ("getvariable", "f", None, "i"), " ()"),
        ("select cast(", ("k", "x"), " as varchar).", ("getvariable", "f", None, "i"), " /**/()"),
        (
            "select ",
            ("k", "x"),
            "::varchar.",
            ("getvariable", "f", None, "i"),
            " ",
            (-1, "n", None, "l"),
        ),
    ],
)
def test_duckdb_dot_call_names_the_function_called(parts: tuple[Any, ...]) -> None:
    """DuckDB reads x.f() as f(x), also after ')' or a cast: cast(x as varchar).{f:i} () and
    x::varchar.{f:i} () call the function the value names (the word before the chain, AS or
    '::', declares a type, not the name after the dot)."""
    for paramstyle, dialect in (("qmark", None), ("dollar", None), ("qmark", "duckdb")):
        with pytest.raises(RenderError, match=r"\{f:i\} is the name of the function called"):
            sql(T(*parts), paramstyle, dialect=dialect)


@pytest.mark.parametrize(
    "parts",
    [
        ("select (", ("/etc/hostname", "x"), "::text).", ("pg_read_file", "f", None, "i")),
        ("select (v).", ("ts_stat", "f", None, "i"), " from t"),
        ("select a[1].", ("pg_read_file", "f", None, "i"), " from s"),
        ("select (t.v). /* c */ ", ("upper", "f", None, "i"), " from t"),
        ("select (", (T("v"), "q", None, "q"), ").", ("upper", "f", None, "i"), " from t"),
    ],
)
def test_postgresql_attribute_notation_names_the_function_called(parts: tuple[Any, ...]) -> None:
    """PostgreSQL reads (x).f and x[1].f as f(x) when f is no field of x: a ':i' name after
    ').' or '].' chooses the function called, wherever PostgreSQL may run the query."""
    for paramstyle, dialect in (("format", None), ("dollar", None), ("qmark", "postgresql")):
        with pytest.raises(RenderError, match=r"\{f:i\} follows '\(\.\.\.\)\.' or"):
            sql(T(*parts), paramstyle, dialect=dialect)
    # A column after a table's name, and a struct's field where PostgreSQL never runs it.
    assert sql(T("select t.", ("v", "c", None, "i"), " from t"), "format").params == ()
    if "[1]" not in parts[0]:
        assert sql(T(*parts), "qmark", dialect="duckdb").sql.count('"') == 2


def test_a_type_after_a_cast_stays_accepted() -> None:
    """The first name after '::' or AS is a type, with its modifiers: accepted everywhere; a
    qualified type with modifiers only where DuckDB does not run the query."""
    for parts, expected in (
        (("select x:: ", ("numeric", "t", None, "i"), " (10, 2)"), 'select x:: "numeric" (10, 2)'),
        (("select cast(x as ", ("text", "t", None, "i"), ").y"), 'select cast(x as "text").y'),
        (("select ", ("v", "c", None, "i"), "::text from t"), 'select "v"::text from t'),
        (("insert into main.", ("t", "t", None, "i"), " (a) values (1)"), None),
    ):
        query = sql(T(*parts))
        assert expected is None or query.sql == expected
    qualified = T("select x::pg_catalog.", ("numeric", "t", None, "i"), " (10, 2)")
    assert sql(qualified, "format").sql == 'select x::pg_catalog."numeric" (10, 2)'


def test_a_call_is_named_as_each_database_quotes_it() -> None:
    """U&"..." is PostgreSQL's, `...` SQLite's and DuckDB's, [...] SQLite's."""
    for static, paramstyle, why in (
        ('select U&"quer\\0079_to_xml"(', "format", r'argument of U&"\.\.\."\(\)'),
        ("select * from `Query`(", "qmark", r"argument of query\(\)"),
        ("select [load_extension](", "named", r"argument of load_extension\(\)"),
    ):
        with pytest.raises(RenderError, match=why):
            sql(T(static, ("q", "x"), ")"), paramstyle)


@pytest.mark.parametrize(
    "parts",
    [
        ("select * from ", ("secret.csv", "t", None, "i")),
        ("select * from ", (("secret", "csv"), "t", None, "i")),
        ("select * from ", ("https://host/x", "t", None, "i")),
        ("select * from ", ("C:\\x", "t", None, "i")),
        ("select * from t join ", ("s.parquet", "t", None, "i"), " using (id)"),
        ("select * from t, ", ("s.csv", "t", None, "i")),
        ("select * from a join b on a.x = b.x, ", ("s.csv", "t", None, "i")),
        ("select * from secret.", ("csv", "t", None, "i")),
        ("select * from ", ("secret", "t", None, "i"), ".csv"),
        ("select * from (from ", ("s.csv", "t", None, "i"), ")"),
        ("select * from (", ("s.csv", "t", None, "i"), " join t on true)"),
        ("select * from ((", ("s.csv", "t", None, "i"), " join t on true))"),
        ("table ", ("s.csv", "t", None, "i")),
        ("describe ", ("s.csv", "t", None, "i")),
        ("summarize ", ("s.csv", "t", None, "i")),
        ("show ", ("s.csv", "t", None, "i")),
        ("pivot_wider ", ("s.csv", "t", None, "i"), " on a"),
        ("pivot_longer ", ("s.csv", "t", None, "i"), " on a into name n value w"),
        ("pivot ", ("s.csv", "t", None, "i"), " on a using first(b)"),
        ("copy ", ("s.csv", "t", None, "i"), " to 'out.csv'"),
        ("merge into t using ", ("s.csv", "t", None, "i"), " s on false"),
    ],
)
def test_a_table_duckdb_would_read_as_a_file_is_refused(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in (("qmark", None), ("dollar", None), ("qmark", "duckdb")):
        with pytest.raises(RenderError, match=r"\{t:i\} is a table name in a query DuckDB"):
            sql(T(*parts), paramstyle, dialect=dialect)
    # PostgreSQL and SQLite read such a name as a table only.
    assert sql(T(*parts), "format").params == ()
    assert sql(T(*parts), dialect="sqlite").params == ()


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        (
            (
                "insert into ",
                ("t", "t", None, "i"),
                " (a, ",
                ("b", "c", None, "i"),
                ") values (",
                (1, "x"),
                ")",
            ),
            'insert into "t" (a, "b") values (?)',
        ),
        (
            ("insert into main.", ("t", "t", None, "i"), " (a) values (1)"),
            'insert into main."t" (a) values (1)',
        ),
        (
            (
                "create table if not exists ",
                ("t", "t", None, "i"),
                " (a int references ",
                ("u", "u", None, "i"),
                " (id))",
            ),
            'create table if not exists "t" (a int references "u" (id))',
        ),
        (("create index i on ", ("t", "t", None, "i"), " (a)"), 'create index i on "t" (a)'),
        (
            ("with recursive ", ("c", "c", None, "i"), " (n) as (select 1) select n from c"),
            'with recursive "c" (n) as (select 1) select n from c',
        ),
        (
            ("select * from t as ", ("s", "s", None, "i"), " (a, b)"),
            'select * from t as "s" (a, b)',
        ),
        (
            ("create view ", ("v", "v", None, "i"), " (a) as select 1"),
            'create view "v" (a) as select 1',
        ),
        (
            ("copy ", ("t", "t", None, "i"), " (a, b) from 'f.csv'"),
            "copy \"t\" (a, b) from 'f.csv'",
        ),
        (
            ("select cast(x as ", ("numeric", "t", None, "i"), " (10, 2))"),
            'select cast(x as "numeric" (10, 2))',
        ),
        (
            (
                "select lower(",
                ("v", "c", None, "i"),
                "), ",
                ("user.name", "d", None, "i"),
                " from ",
                ("t", "t", None, "i"),
                " where ",
                ("v", "c", None, "i"),
                " like ",
                ("%a%", "p"),
                " order by ",
                ("v", "c", None, "i"),
                " limit ",
                (5, "n"),
            ),
            'select lower("v"), "user.name" from "t" where "v" like ? order by "v" limit ?',
        ),
        (
            ("update ", ("t", "t", None, "i"), " set ", ("v", "c", None, "i"), " = ", (1, "x")),
            'update "t" set "v" = ?',
        ),
        (
            (
                "insert into t values (1) on conflict (id) do update set ",
                ("v", "c", None, "i"),
                " = 2",
            ),
            'insert into t values (1) on conflict (id) do update set "v" = 2',
        ),
        (
            ("select set_config('app.user', ", ("42", "x"), ", true)"),
            "select set_config('app.user', ?, true)",
        ),
        (("set variable ", ("v", "v", None, "i"), " = 1"), 'set variable "v" = 1'),
        (
            ("alter table t set (fillfactor = ", (70, "n", None, "l"), ")"),
            "alter table t set (fillfactor = 70)",
        ),
        (("deallocate ", ("p", "p", None, "i")), 'deallocate "p"'),
        (("pragma table_info(", ("t", "t", None, "l"), ")"), "pragma table_info('t')"),
        (("select * from read_csv(", ("s.csv", "p"), ")"), "select * from read_csv(?)"),
        (
            ("copy t to ", ("o.parquet", "p", None, "l"), " (format parquet)"),
            "copy t to 'o.parquet' (format parquet)",
        ),
        (
            ("select ", (T("sum"), "f", None, "q"), " (", ("v", "c", None, "i"), ") from t"),
            'select sum ("v") from t',
        ),
        (
            (
                "delete from ",
                ("t", "t", None, "i"),
                " where ",
                ("id", "c", None, "i"),
                " in ",
                ([1, 2], "ids", None, "in"),
            ),
            'delete from "t" where "id" in (?, ?)',
        ),
        (("attach ", ("other.db", "p"), " as other"), "attach ? as other"),
        (("export database ", ("out", "p", None, "l")), "export database 'out'"),
        (
            ("create type ", ("mood", "t", None, "i"), " as enum ('a')"),
            "create type \"mood\" as enum ('a')",
        ),
        (
            (
                "create type t as (",
                ("a", "a", None, "i"),
                " int, b ",
                ("text", "y", None, "i"),
                ")",
            ),
            'create type t as ("a" int, b "text")',
        ),
        (
            ("create cast (text as ", ("t", "t", None, "i"), ") with inout"),
            'create cast (text as "t") with inout',
        ),
        (
            ("create table t (a int default ", (1, "x", None, "l"), ")"),
            "create table t (a int default 1)",
        ),
        (
            ("import foreign schema ", ("s", "s", None, "i"), " from server v into public"),
            'import foreign schema "s" from server v into public',
        ),
        (
            (
                "select * from ",
                ("t", "t", None, "i"),
                " join ",
                ("u", "u", None, "i"),
                " using (id)",
            ),
            'select * from "t" join "u" using (id)',
        ),
    ],
)
def test_names_and_calls_notebooks_write_stay_accepted(
    parts: tuple[Any, ...], expected: str
) -> None:
    assert sql(T(*parts)).sql == expected


# PostgreSQL statements that set a setting or name an option without saying SET.


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        # CREATE FUNCTION / PROCEDURE ... SET name = value sets it whenever the routine runs.
        (
            ("create function f() returns text language sql set ",
             ("dynamic_library_path", "k", None, "i"), " = '/tmp/a' as $$ select 1 $$"),
            r"\{k:i\} names the setting to change",
        ),
        (
            ("create or replace procedure p() language sql set ",
             ("dynamic_library_path", "k", None, "i"), " to '/tmp/a' as $$ select 1 $$"),
            r"\{k:i\} names the setting to change",
        ),
        (
            ("create function f() returns text language sql security definer stable "
             "parallel safe set dynamic_library_path = ", ("/tmp/a", "v", None, "l"),
             " as $$ select 1 $$"),
            r"\{v:l\} is in a query that sets where the database loads",
        ),
        (
            ('create function f() returns int language sql set U&"dynamic_\\006cibrary_path" = ',
             ("/tmp/a", "v", None, "l"), " as 'select 1'"),
            r"\{v:l\} is in a query that sets where the database loads",
        ),
        # OPTIONS (name value): file_fdw's PROGRAM runs the value as a shell command.
        (
            ("create foreign table ft (a text) server s options (",
             ("program", "k", None, "i"), " ", ("echo 1", "v"), ")"),
            r"\{k:i\} names an option in OPTIONS",
        ),
        (
            ("create foreign table ft (a text) server s options (filename 'x', ",
             ("program", "k", None, "i"), " 'y')"),
            r"\{k:i\} names an option in OPTIONS",
        ),
        (
            ("alter foreign table ft options (add ", ("program", "k", None, "i"), " 'y')"),
            r"\{k:i\} names an option in OPTIONS",
        ),
        (
            ("alter server s options (set ", ("program", "k", None, "i"), " 'y')"),
            r"\{k:i\} names an option in OPTIONS",
        ),
        (
            ('create foreign table ft (a text) server s options (U&"progr\\0061m" ',
             ("echo 1", "v"), ")"),
            r'\{v\} follows a name written U&"\.\.\." with escapes',
        ),
        # UPDATE pg_settings is set_config() for each row it changes.
        (
            ("update pg_settings set setting = ", ("/tmp/a", "v"), " where name = ",
             ("dynamic_library_path", "k")),
            r"\{v\} is in a query that updates pg_settings",
        ),
        (
            ("with u as (update only pg_catalog.pg_settings set setting = ", ("/tmp/a", "v"),
             " where name = 'dynamic_library_path' returning 1) select * from u"),
            r"\{v\} is in a query that updates pg_settings",
        ),
        (
            ("update ", ("pg_settings", "t", None, "i"), " set setting = ", ("/tmp/a", "v"),
             " where name = ", ("dynamic_library_path", "k")),
            r"\{t:i\} names the table UPDATE changes.*pg_settings",
        ),
        (
            ("update ", (("pg_catalog", "pg_settings"), "t", None, "i"), " set setting = 'x'"),
            r"\{t:i\} names the table UPDATE changes",
        ),
        (
            ("update pg_catalog.", ("pg_settings", "t", None, "i"), " set setting = 'x'"),
            r"\{t:i\} names the table UPDATE changes",
        ),
    ],
)  # fmt: skip
def test_a_setting_or_option_chosen_without_set_is_refused(
    parts: tuple[Any, ...], why: str
) -> None:
    for paramstyle, dialect in (("format", None), ("dollar", None), ("qmark", "postgresql")):
        with pytest.raises(RenderError, match=why):
            sql(T(*parts), paramstyle, dialect=dialect)


@pytest.mark.parametrize(
    ("parts", "paramstyle"),
    [
        # a routine's other clauses, and a setting that loads nothing
        (("create function f (", ("a", "n", None, "i"), " int) returns int language sql "
          "set application_name = ", ("app", "s", None, "i"), " as 'select 1'"), "format"),
        (("create function f() returns setof int language sql set work_mem = ",
          ("64MB", "v", None, "l"), " as 'select 1'"), "format"),
        (("alter function f() set application_name = ", ("app", "s", None, "i")), "format"),
        # SET in a BEGIN ATOMIC body is an UPDATE's
        (("create procedure p() language sql begin atomic update t set ",
          ("dynamic_library_path", "c", None, "i"), " = 1; end"), "format"),
        # an option's value, its name written in the text
        (("create foreign table ft (a text) server s options (filename ",
          ("/data/x.csv", "p", None, "l"), ", format 'csv')"), "format"),
        (("alter foreign table ft options (set filename ", ("/data/y.csv", "p", None, "l"), ")"),
         "format"),
        # other tables updated, pg_settings read, and a table named by a value elsewhere
        (("update ", ("t", "t", None, "i"), " set v = ", ("x", "v"), " where id = ",
          (1, "i")), "format"),
        (("update t set setting = ", ("x", "v"), " where name = ", ("k", "k")), "format"),
        (("select setting from pg_settings where name = ", ("work_mem", "k")), "format"),
        (("select * from ", ("pg_settings", "t", None, "i")), "format"),
        (("update ", ("pg_settings", "t", None, "i"), " set v = 1"), "qmark"),  # SQLite, DuckDB
        (("select U&\"c\" from t where id = ", (1, "i")), "format"),
    ],
)  # fmt: skip
def test_settings_and_options_written_in_the_text_stay_accepted(
    parts: tuple[Any, ...], paramstyle: str
) -> None:
    assert sql(T(*parts), paramstyle).sql


def test_sqlite_closes_a_comment_at_the_first_star_slash() -> None:
    # /*/*/ is one comment to SQLite (its close's '*' is the '/*' inside's): what follows is
    # code, here a string the field stands in; PostgreSQL and DuckDB nest, and read on.
    assert [kind for kind, _, _ in tokens("/*/*/ ' */ ", SQLITE)] == ["block_comment", "string"]
    for dialect in ("postgresql", "duckdb"):
        nested = tokens("/*/*/ ' */ */ x", dialects(dialect, "qmark")[0])
        assert [kind for kind, _, _ in nested] == ["block_comment", "word"]
    static = "select v from t where v = /*/*/ ' */ "
    for spec in ("", "l", "i"):
        with pytest.raises(RenderError, match=r"inside a quoted SQL string"):
            sql(T(static, ("v", "x", None, spec), " -- '"), "named")
    assert sql(T("select /*/*/ ", ("v", "x"), " -- '"), "named").sql == "select /*/*/ :x -- '"


def test_a_literal_after_a_code_function_name_is_its_argument() -> None:
    # A negative number is written in parentheses: load_extension {n:l} is load_extension (-5),
    # as query {xs:in} is query(?).  A literal after other words stays a value.
    for static, dialect in (("select load_extension ", "sqlite"), ("from query ", "duckdb")):
        with pytest.raises(RenderError, match=r"\{n:l\} is an argument of"):
            sql(T(static, (-5, "n", None, "l")), dialect=dialect)
    for static in ("select 1 limit ", "select abs ", "select id from t where id = "):
        assert sql(T(static, (-5, "n", None, "l")), dialect="sqlite").params == ()


@pytest.mark.parametrize(
    "name",
    ["plperl.on_init", "plperl.on_plperlu_init", "PLPERL.ON_PLPERL_INIT", "pltcl.start_proc",
     "pltclu.start_proc", "plv8.start_proc"],
)  # fmt: skip
def test_a_procedural_language_s_start_up_code_is_a_code_setting(name: str) -> None:
    # Perl code, or the name of a function, run when the language's interpreter starts (by
    # PostgreSQL's manual): set, alter ... set and set_config() refuse a value for it.
    for static, end in (
        (f"set {name} = ", ""),
        (f"alter role r set {name} = ", ""),
        (f"select set_config('{name.lower()}', ", ", false)"),
    ):
        with pytest.raises(RenderError, match="never become code"):
            sql(T(static, ("1", "x", None, "l"), end), "format")
    # Look-alikes are no code settings: wal_init_zero is data; the other two are on no list
    # of settings whose value is data (the twenty-seventh pass), refused as such.
    assert sql(T("set wal_init_zero = ", ("1", "x", None, "l")), "format").params == ()
    for kept in ("recovery_init_sync_method", "session_init_hint"):
        with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
            sql(T(f"set {kept} = ", ("1", "x", None, "l")), "format")
