"""Hostile CONTEXTS for sql(): where a field stands, rather than what its value holds.

Each case is one i-string (written as parts: static strings and :data:`X`, the field) with a
value that tries to break out of that context, and ``expect``: the rows the query returns when
the value is only data.  The harness (tests/test_sql_contexts.py) renders it for sqlite3,
DuckDB and PostgreSQL with ``standard_conforming_strings`` on and off: each render is either
refused or executes and returns exactly ``expect`` with table ``t`` intact.

``naive`` is the same query as an f-string author would write it (the value pasted into the
text, quoted the old way where the field stood bare) and ``injects`` the engines where that
naive text escapes: the positive controls that prove the harness sees an injection.

The table: ``t(id integer, v text, secret text)`` with rows ``(1, 'a', 's1')`` and
``(2, 'b', 's2')``.
"""

from __future__ import annotations

import enum
import os
import tempfile
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import duckdb

# DuckDB reads `...` as an identifier from version 2 on (1.x: an operator character).
BACKTICKS = ("sqlite", "duckdb") if int(duckdb.__version__.split(".")[0]) >= 2 else ("sqlite",)
ENGINES = ("sqlite", "duckdb", "pg", "pg_off")
DUCKDB_2 = ("duckdb",) if int(duckdb.__version__.split(".")[0]) >= 2 else ()
ROWS = [(1, "a", "s1"), (2, "b", "s2")]


@dataclass(frozen=True)
class X:
    """The field in a case's parts: ``{x}``, ``{x:l}``, ``{x:i}``..."""

    spec: str = ""
    expression: str = "x"


@dataclass(frozen=True)
class Case:
    """One context: the template's parts, the hostile value and what a safe run returns."""

    name: str
    parts: tuple[str | X, ...]
    value: Any
    expect: list[tuple[Any, ...]]
    naive: str | None = None
    injects: tuple[str, ...] = ()
    only: tuple[str, ...] = ENGINES  # engines where the query is meaningful at all
    extra: dict[str, Any] = field(default_factory=dict)  # more values, by expression


class Status(int, enum.Enum):
    """``str(Status.ACTIVE)`` is ``'Status.ACTIVE'``: a literal must be ``1``."""

    ACTIVE = 1


class OddFloat(float):
    """A float subclass whose repr is not a number."""

    def __repr__(self) -> str:
        return "OddFloat(1.5); DROP TABLE t"

    __str__ = __repr__


QUOTE = "' OR 1=1 --"
BACKSLASH_QUOTE = "\\' OR 1=1 --"
ESCAPED = "\\'' OR 1=1 --"
DROP = "\\'; DROP TABLE t; --"
NEWLINE_OR = "x\nOR 1=1"
ALL_ROWS = [(1,), (2,)]
WHERE = "select id from t where v = "

# fmt: off
CASES: list[Case] = [
    # Strings of every prefix written in the static text: a field inside is refused.
    Case("plain string", (WHERE + "'", X(), "'"), QUOTE, [],
         f"{WHERE}'{QUOTE}'", ENGINES),
    Case("E string", (WHERE + "E'", X(), "'"), ESCAPED, [],
         f"{WHERE}E'{ESCAPED}'", ("duckdb", "pg", "pg_off")),
    Case("E string, DROP", (WHERE + "E'", X(), "'"), "\\\\'; DROP TABLE t; --", [],
         f"{WHERE}E'\\\\'; DROP TABLE t; --'", ("pg", "pg_off")),
    Case("E glued to a literal", (WHERE + "E", X("l")), BACKSLASH_QUOTE, [],
         f"{WHERE}E'{BACKSLASH_QUOTE.replace(chr(39), chr(39) * 2)}'",
         ("duckdb", "pg", "pg_off")),
    Case("e glued to a literal, DROP", (WHERE + "e", X("l")), DROP, [],
         f"{WHERE}e'{DROP.replace(chr(39), chr(39) * 2)}'", ("pg", "pg_off")),
    Case("N string", (WHERE + "N'", X(), "'"), QUOTE, [],
         f"{WHERE}N'{QUOTE}'", ("duckdb", "pg", "pg_off")),
    Case("N glued to a literal", (WHERE + "N", X("l")), QUOTE, []),
    Case("X glued to a literal", ("select X", X("l")), "ff", []),
    Case("B glued to a literal", ("select B", X("l")), "101", []),
    Case("U& string", (WHERE + "U&'", X(), "'"), QUOTE, [],
         f"{WHERE}U&'{QUOTE}'", ("pg",), only=("pg",)),
    Case("U& glued to a literal", (WHERE + "U&", X("l")), QUOTE, [], only=("pg",)),
    # A backslash in a literal: PostgreSQL with standard_conforming_strings off escapes.
    Case("backslash literal", (WHERE, X("l")), BACKSLASH_QUOTE, [],
         f"{WHERE}'{BACKSLASH_QUOTE.replace(chr(39), chr(39) * 2)}'", ("pg_off",)),
    Case("backslash literal, DROP", (WHERE, X("l")), DROP, [],
         f"{WHERE}'{DROP.replace(chr(39), chr(39) * 2)}'", ("pg_off",)),
    Case("backslash literal round-trips", ("select ", X("l")), "a\\'b\\\\c\\", [("a\\'b\\\\c\\",)]),
    Case("string written with a backslash before the field",
         ("select 'a\\', ", X(), " --'"), "b", [("a\\", "b")],
         "select 'a\\', 'b' --'", (), only=("sqlite", "duckdb", "pg")),
    # Quoted identifiers: double quotes, backticks, brackets, U&"...".
    Case("double-quoted identifier", ('select id, "', X(), '" from t where id = 1'),
         'v", secret, "v', [(1, "a")], 'select id, "v", secret, "v" from t where id = 1',
         ENGINES),
    Case("backticks", ("select id, `", X(), "` from t where id = 1"), "v`, secret, `v",
         [(1, "a")], "select id, `v`, secret, `v` from t where id = 1", BACKTICKS,
         only=("sqlite", "duckdb", "pg", "pg_off")),
    Case("brackets", ("select id, [", X(), "] from t where id = 1"), "v], secret, [v",
         [(1, "a")], "select id, [v], secret, [v] from t where id = 1", ("sqlite",),
         only=("sqlite",)),  # DuckDB and PostgreSQL read [...] as a list/array: data
    Case("U& identifier", ('select id, U&"', X(), '" from t where id = 1'),
         'v", secret, "v', [(1, "a")], 'select id, U&"v", secret, "v" from t where id = 1',
         ("pg",), only=("pg",)),
    Case("identifier field glued to a backtick", ("select `", X("i"), "` from t"), "v", []),
    Case("identifier round-trips", ("select 1 as ", X("i")), 'a"b`c]d\\', [(1,)]),
    Case("qualified name after a dot", ("select t.", X("i"), " from t where id = 1"), "v",
         [("a",)]),
    # Dollar quotes, with and without tags.
    Case("dollar quote", ("select $$ ", X(), " $$"), "$$ || (select secret from t limit 1) || $$",
         [], "select $$ $$ || (select secret from t limit 1) || $$ $$", ("duckdb", "pg", "pg_off"),
         only=("duckdb", "pg", "pg_off")),
    Case("tagged dollar quote", ("select $tag$ ", X(), " $tag$"),
         "$tag$ || (select secret from t limit 1) || $tag$", [],
         "select $tag$ $tag$ || (select secret from t limit 1) || $tag$ $tag$",
         ("pg", "pg_off"), only=("pg", "pg_off")),
    Case("other tag inside a dollar quote", ("select $a$ $$ ", X(), " $a$"), "x", [],
         only=("pg", "pg_off")),
    Case("dollar glued to a field", ("select $", X()), "x", []),
    Case("tag glued to a field", ("select $a", X(), "$ x $a$"), "x", []),
    # Comments: --, at the end without a newline, \r, /* */ and nested ones.
    Case("line comment", ("select id from t where id = 1 -- ", X()), NEWLINE_OR, [(1,)],
         f"select id from t where id = 1 -- {NEWLINE_OR}", ENGINES),
    Case("line comment ended by CR", ("select id from t where id = 1 --c\r or v = ", X()), "zz",
         [(1,)]),
    Case("block comment", ("select id from t where id = 1 /* ", X(), " */"), "*/ or 1=1 /*",
         [(1,)], "select id from t where id = 1 /* */ or 1=1 /* */", ENGINES),
    Case("nested block comment", ("select id from t where id = 1 /* /* */ ", X(), " */"),
         "zz", [(1,)]),
    # SQLite closes /* at the first */, even one whose '*' is the second character of a '/*':
    # /*/*/ is a whole comment, and what follows it is code.
    Case("comment closed inside its own '/*/' (SQLite)",
         ("select v from t where v = /*/*/ ' */ ", X("l"), " -- '"),
         "union select secret from t --", [],
         "select v from t where v = /*/*/ ' */ 'union select secret from t --' -- '",
         ("sqlite",), only=("sqlite",)),
    Case("after a nested block comment", ("select id from t where id = 1 /* /* */ */ or v = ", X()),
         "zz", [(1,)], only=("duckdb", "pg", "pg_off")),
    Case("fragment ends in a -- comment", ("select id from t where ", X("q"), " and v = 'zz'"),
         "id = 1 --", [], "select id from t where id = 1 -- and v = 'zz'", ENGINES),
    Case("fragment ends inside a string", ("select id from t where ", X("q"), " and v = 'zz'"),
         "v = '", []),
    Case("fragment glued to a word", ("select id from t where id = 1 and", X("q")),
         "v = 'a'", []),
    # Fields glued to words, numbers, quotes and other fields.
    Case("word after a field", ("select ", X(expression="ab"), " as x, ", X(expression="a"), "b"),
         1, [], extra={"ab": 1}),
    Case("word before a field", (WHERE + "x", X()), "a", []),
    Case("number before a field", ("select 1", X()), 5, []),
    Case("exponent after a field", ("select ", X(), "e5"), 5, []),
    Case("exponent after a literal", ("select ", X("l"), "e5"), 5, [],
         "select 5e5", ENGINES),
    Case("hex after zero", ("select 0x", X("l")), 5, []),
    Case("dot after a literal", ("select ", X("l"), ".5"), 1, [], "select 1.5", ENGINES),
    Case("quote after a field", ("select ", X(), "'a'"), "b", []),
    Case("two fields touching", ("select ", X(), X(expression="y")), 1, [], extra={"y": 2}),
    Case("no-break space before a field", ("select\xa0", X()), 1, []),
    Case("colon before a field", ("select 1:", X()), 1, []),
    Case("at before a field", ("select @", X()), 1, []),
    Case("call after a placeholder", ("select abs", X(), "(1)"), 1, []),
    # Operators: minus before a negative literal, casts, JSON, comparisons without spaces.
    Case("minus before a negative literal", ("select 1-", X("l")), -5, [(6,)],
         "select 1--5", ENGINES),
    Case("minus before a negative parameter", ("select 1-", X()), -5, [(6,)]),
    Case("comparison without spaces", ("select id from t where id<", X(), " order by id"), 2,
         [(1,)]),
    Case("concatenation without spaces",
         ("select v||", X(), " from t where id=", X(expression="i")), "x", [("ax",)],
         extra={"i": 1}),
    Case("cast after a field", ("select ", X(), "::text"), "5", [("5",)],
         only=("duckdb", "pg", "pg_off")),
    Case("cast after a literal", ("select ", X("l"), "::text"), "5", [("5",)],
         only=("duckdb", "pg", "pg_off")),
    Case("JSON ->> with a literal key", ("select '{\"a\": \"1\"}'::json->>", X("l")), "a",
         [("1",)], only=("duckdb", "pg", "pg_off")),
    Case("JSON ->> with a parameter key", ("select '{\"a\": \"1\"}'::json->>", X()), "a",
         [("1",)], only=("duckdb", "pg", "pg_off")),
    # Placeholder syntax written in the static text.
    Case("? in static code", ("select ", X(), ", ?"), 1, []),
    Case("? in a static string", ("select '?', ", X()), 1, [("?", 1)]),
    Case("$1 in static code", ("select ", X(), ", $1"), 1, []),
    Case(":name in static code", ("select :x, ", X()), 1, []),
    Case("@name in static code", ("select @x, ", X()), 1, []),
    Case("#name in static code", ("select ", X(), ", #x"), 1, []),
    Case("vertical tab before a field", ("select\v", X()), 1, []),
    Case("%s in a static string", ("select '%s', ", X()), 1, [("%s", 1)]),
    Case("% in static code", ("select 7 % ", X()), 4, [(3,)]),
    Case("%% in a static string", ("select '100%%', ", X()), 1, [("100%%", 1)]),
    # Literals of odd types: a correct literal or a refusal.
    Case("int enum literal", ("select ", X("l")), Status.ACTIVE, [(1,)]),
    Case("float subclass literal", ("select ", X("l")), OddFloat(1.5), [(1.5,)]),
    Case("signalling NaN literal", ("select ", X("l")), Decimal("sNaN"), []),
    Case("huge int literal", ("select ", X("l")), 10**5000, []),
    Case("Decimal exponent literal", ("select ", X("l")), Decimal("1E+2"), [(100,)]),
    Case("negative zero literal", ("select 0-", X("l")), -0.0, [(0.0,)]),
    Case("bool literal after not", ("select not ", X("l")), False, [(True,)]),
    # IN lists and nested fragments in code.
    Case("in list", ("select id from t where v in ", X("in"), " order by id"),
         ["a", "' OR 1=1 --", "b"], ALL_ROWS),
    Case("fragment in parentheses", ("select id from t where (", X("q"), ") order by id"),
         "v = 'b'", [(2,)]),
]
# fmt: on

# DuckDB reads U+00A0 and a few other Unicode spaces as ' ' (where its pre-pass sees code);
# PostgreSQL and SQLite read them as letters: 'text\xa0$$' is one name to them, a type name and
# an opening dollar quote to DuckDB, which then reads a literal's or a name's content as code.
NBSP_DOLLAR = "$$ || (select secret from t where id = 1) || $$"
CASES += [
    Case("no-break space before a dollar quote, literal",
         ("select text\xa0$$ ", X("l"), " $$ as y"), NBSP_DOLLAR, [],
         f"select text\xa0$$ '{NBSP_DOLLAR}' $$ as y", ("duckdb",)),
    Case("ideographic space before a dollar quote, identifier",
         ("select text\u3000$$ ", X("i"), " $$ as y"), NBSP_DOLLAR, [],
         f'select text\u3000$$ "{NBSP_DOLLAR}" $$ as y', ("duckdb",)),
    Case("no-break space inside a string stays data", ("select 'a\xa0b' || ", X()), "c",
         [("a\xa0bc",)]),
    Case("ideographic space inside a comment", ("select 1 /* \u3000 */, ", X()), "c",
         [(1, "c")]),
]  # fmt: skip

# Where the database runs a value as code, whatever its quoting: no field at all.
DO_DROP = "begin drop table t; end"
SECRETS = "select secret from t"
CASES += [
    Case("DO statement", ("do ", X("l")), DO_DROP, [], f"do '{DO_DROP}'", ("pg", "pg_off")),
    Case("DO statement split across a fragment", (X("q", "f"), " ", X("l")), DO_DROP, [],
         extra={"f": "do"}),
    Case("COPY FROM PROGRAM", ("copy t from program ", X("l"), " (format csv)"),
         "echo 3,x,pwned", [], "copy t from program 'echo 3,x,pwned' (format csv)",
         ("pg", "pg_off"), only=("pg", "pg_off")),
    Case("query_to_xml runs its argument", ("select query_to_xml(", X(), ", true, false, '')"),
         SECRETS, [], f"select query_to_xml('{SECRETS}', true, false, '')", ("pg", "pg_off"),
         only=("pg", "pg_off")),
    Case("DuckDB query() runs its argument", ("select * from query(", X(), ")"), SECRETS, [],
         f"select * from query('{SECRETS}')", ("duckdb",), only=("duckdb",)),
    Case("query() of SQL written in a fragment", ("select * from query(", X("q", "f"), ")"),
         "'select 1'", [(1,)], only=("duckdb",)),  # the fragment's text is code, not a value
    # Look-alikes that stay accepted: the words as data, names or other clauses.
    Case("program and query as names", ("select id from t where v = ", X(),
         " and 'program' <> 'query' order by id"), "a", [(1,)]),
    Case("do nothing on conflict", ("select id from t where id = ", X(),
         " -- on conflict do nothing"), 2, [(2,)]),
]  # fmt: skip

DUCKDB_1 = ("duckdb",) if int(duckdb.__version__.split(".")[0]) < 2 else ()  # 2.0: no more
# PostgreSQL and DuckDB 1.x continue a string on a new line (spaces and -- comments between),
# read as the first part is: after E'a', '\' does not close.
CONTINUED = "|| (select secret from t where id = 1) ||"
CASES += [
    Case("E string continued on a new line", ("select E'a'\n'\\' ", X("l"), " '"), CONTINUED,
         [], f"select E'a'\n'\\' '{CONTINUED}' '", ("pg", "pg_off", *DUCKDB_1)),
    Case("E string continued after a comment", ("select E'a' -- c\n'\\' ", X("l"), " '"),
         CONTINUED, [], f"select E'a' -- c\n'\\' '{CONTINUED}' '", ("pg", "pg_off", *DUCKDB_1)),
    Case("E string in a fragment, continued after it",
         ("select ", X("q", "f"), "\n'\\' ", X("l"), " '"), CONTINUED, [],
         f"select E'a'\n'\\' '{CONTINUED}' '", ("pg", "pg_off", *DUCKDB_1), extra={"f": "E'a'"}),
    Case("E string, then code on a new line", ("select E'a'\n|| ", X()), "b", [("ab",)],
         only=("duckdb", "pg", "pg_off")),
]  # fmt: skip


def _secret_file() -> str:
    """A CSV file outside the database, holding a secret: what a replacement scan reads."""
    directory = tempfile.mkdtemp(prefix="ipy_istring_contexts_")
    with open(os.path.join(directory, "secret.csv"), "w") as file:
        file.write("k\nfile-secret\n")
    return os.path.join(directory, "secret")


def _export_directory() -> str:
    """A directory as DuckDB's EXPORT DATABASE writes one: IMPORT DATABASE runs its SQL."""
    directory = tempfile.mkdtemp(prefix="ipy_istring_contexts_import_")
    with open(os.path.join(directory, "schema.sql"), "w") as file:
        file.write("drop table t;\n")
    with open(os.path.join(directory, "load.sql"), "w") as file:
        file.write("")
    return directory


CROSSTAB = "select v, v, secret from t order by 1"
CONNECTBY = "(select secret as a, 'x' as b from t) s"
CASES += [
    Case("tablefunc's crosstab() runs its argument",
         ("select * from crosstab(", X(), ") as ct(r text, c1 text)"), CROSSTAB, [],
         f"select * from crosstab('{CROSSTAB}') as ct(r text, c1 text)", ("pg", "pg_off"),
         only=("pg", "pg_off")),
    Case("tablefunc's connectby() writes its table name into SQL",
         ("select k from connectby(", X(), ", 'a', 'b', 'x', 0) as x(k text, p text, l int)"),
         CONNECTBY, [],
         "select k from connectby('" + CONNECTBY.replace("'", "''")
         + "', 'a', 'b', 'x', 0) as x(k text, p text, l int)", ("pg", "pg_off"),
         only=("pg", "pg_off")),
    Case("crosstab as a column name stays a name",
         ("select id as crosstab from t where v = ", X(), " order by id"), "a", [(1,)]),
]  # fmt: skip

EXPORTED = _export_directory()
CASES += [
    Case("IMPORT DATABASE runs the directory's SQL", ("import database ", X("l")), EXPORTED, [],
         f"import database '{EXPORTED}'", ("duckdb",), only=("duckdb",)),
    # PRAGMA import_database('<dir>') is the same statement, as a pragma function.
    Case("PRAGMA import_database runs the directory's SQL", ("pragma import_database(", X("l"),
         ")"), EXPORTED, [], f"pragma import_database('{EXPORTED}')", ("duckdb",),
         only=("duckdb",)),
    Case("PRAGMA table_info of a table stays accepted", ("pragma table_info(", X("l"), ")"), "t",
         [(0, "id", "INTEGER", 0, None, 0), (1, "v", "TEXT", 0, None, 0),
          (2, "secret", "TEXT", 0, None, 0)], only=("sqlite",)),
]  # fmt: skip

# A query that runs a string as SQL: a value anywhere in it may reach that string, through a
# subquery, a CTE or a session variable, without standing in the call's parentheses.
CASES += [
    Case("query_to_xml() runs a value a subquery gives it",
         ("select query_to_xml(q, true, false, '') from (select cast(", X(), " as text) as q) s"),
         SECRETS, [],
         f"select query_to_xml(q, true, false, '') from (select cast('{SECRETS}' as text) as q) s",
         ("pg", "pg_off"), only=("pg", "pg_off")),
    Case("crosstab() runs a value a CTE gives it",
         ("with c(q) as (select cast(", X(), " as text)) "
          "select * from crosstab((select q from c)) as ct(r text, c1 text)"), CROSSTAB, [],
         f"with c(q) as (select cast('{CROSSTAB}' as text)) "
         "select * from crosstab((select q from c)) as ct(r text, c1 text)", ("pg", "pg_off"),
         only=("pg", "pg_off")),
    Case("query() runs a value a session variable gives it",
         ("set variable q = ", X("l"), "; select * from query(getvariable('q'))"), SECRETS, [],
         f"set variable q = '{SECRETS}'; select * from query(getvariable('q'))", ("duckdb",),
         only=("duckdb",)),
    Case("query as a column name, with a field",
         ("select id as query from t where v = ", X(), " order by id"), "a", [(1,)]),
]  # fmt: skip

# A value that chooses the function called, the table DuckDB reads or the setting changed.
SECRET_FILE = _secret_file()  # + ".csv"
TS_STAT = "select to_tsvector(secret) from t"
CASES += [
    Case("function named by an identifier: query()",
         ("select * from ", X("i", "f"), " (", X(), ")"), SECRETS, [],
         f'select * from "query" (\'{SECRETS}\')', ("duckdb",), extra={"f": "query"}),
    Case("function named by an identifier: query_to_xml()",
         ("select ", X("i", "f"), " (", X(), ", true, false, '')"), SECRETS, [],
         f"select \"query_to_xml\" ('{SECRETS}', true, false, '')", ("pg", "pg_off"),
         extra={"f": "query_to_xml"}),
    Case("function named by an identifier, called with a list",
         ("select * from ", X("i", "f"), " ", X("in")), [SECRETS], [],
         f'select * from "query" (\'{SECRETS}\')', ("duckdb",), extra={"f": "query"}),
    Case("function named by an identifier after a dot",
         ("select pg_catalog.", X("i", "f"), " (", X(), ", true, false, '')"), SECRETS, [],
         f"select pg_catalog.\"query_to_xml\" ('{SECRETS}', true, false, '')", ("pg", "pg_off"),
         only=("pg", "pg_off"), extra={"f": "query_to_xml"}),
    Case("query() called with a list", ("select * from query ", X("in")), [SECRETS], [],
         f"select * from query ('{SECRETS}')", ("duckdb",)),
    Case("ts_stat() runs its argument", ("select * from ts_stat(", X(), ")"), TS_STAT, [],
         f"select * from ts_stat('{TS_STAT}')", ("pg", "pg_off"), only=("pg", "pg_off")),
    Case("U& name of a function that runs SQL",
         ('select U&"quer\\0079_to_xml"(', X(), ", true, false, '')"), SECRETS, [],
         f"select U&\"quer\\0079_to_xml\"('{SECRETS}', true, false, '')", ("pg",),
         only=("pg",)),
    Case("quoted upper-case name of query()", ('select * from "QUERY"(', X(), ")"), SECRETS, [],
         f"select * from \"QUERY\"('{SECRETS}')", ("duckdb",), only=("duckdb",)),
    Case("table name that is a file", ("select * from ", X("i")), SECRET_FILE + ".csv", [],
         f'select * from "{SECRET_FILE}.csv"', ("duckdb",)),
    Case("qualified table name that is a file", ("select * from ", X("i")),
         (SECRET_FILE, "csv"), [], f'select * from "{SECRET_FILE}"."csv"', ("duckdb",)),
    Case("table name in a FROM list that is a file", ("select k from t, ", X("i")),
         SECRET_FILE + ".csv", [], f'select k from t, "{SECRET_FILE}.csv"', ("duckdb",)),
    Case("table name after a written qualifier", ('select * from "' + SECRET_FILE + '".', X("i")),
         "csv", [], f'select * from "{SECRET_FILE}"."csv"', ("duckdb",)),
    Case("summarize a table that is a file", ("summarize ", X("i")), SECRET_FILE + ".csv", [],
         f'summarize "{SECRET_FILE}.csv"', ("duckdb",), only=("duckdb",)),
    Case("pivot_longer a table that is a file",
         ("pivot_longer ", X("i"), " on k into name n value w"), SECRET_FILE + ".csv", [],
         f'pivot_longer "{SECRET_FILE}.csv" on k into name n value w', ("duckdb",),
         only=("duckdb",)),
    Case("pivot_wider a table that is a file", ("pivot_wider ", X("i"), " on k"),
         SECRET_FILE + ".csv", [], f'pivot_wider "{SECRET_FILE}.csv" on k', ("duckdb",),
         only=("duckdb",)),
    # DuckDB calls f(x) for x.f(), also after ')' or a cast: the name after the dot is no type.
    Case("function named after a cast's parenthesis (DuckDB's dot call)",
         ("select id from t where v = cast(", X(), " as varchar).", X("i", "f"), " ()"), "A", [],
         "select id from t where v = cast('A' as varchar).\"lower\" ()", ("duckdb",),
         extra={"f": "lower"}),
    Case("function named after a cast's type (DuckDB's dot call)",
         ("select id from t where v = ", X(), "::varchar.", X("i", "f"), " ()"), "A", [],
         "select id from t where v = 'A'::varchar.\"lower\" ()", DUCKDB_2,
         extra={"f": "lower"}),
    Case("type named after a cast stays a type",
         ("select id from t where v = cast(", X(), " as ", X("i", "f"), ") order by id"), "a",
         [(1,)], only=("duckdb", "pg", "pg_off"), extra={"f": "text"}),
    # Look-alikes that stay accepted: names as columns, tables, CTEs and declared names.
    Case("column named with a dot", ("select 1 as ", X("i"), " from t where id = 1"),
         "user.name", [(1,)]),
    Case("plain table name", ("select id from ", X("i"), " where id = 1"), "t", [(1,)]),
    Case("CTE named by an identifier", ("with ", X("i"), " (n) as (select 1) select n from c"),
         "c", [(1,)]),
    Case("column in a call's argument", ("select lower(", X("i"), ") from t where id = 2"), "v",
         [("b",)]),
    Case("set_config of a written setting", ("select set_config('app.k', ", X(), ", false)"),
         "v1", [("v1",)], only=("pg", "pg_off")),
    Case("order by a name, limit a parameter",
         ("select id from t order by ", X("i"), " desc limit ", X(expression="n")), "id",
         [(2,)], extra={"n": 1}),
    Case("like a parameter", ("select id from t where v like ", X(), " order by id"), "%",
         ALL_ROWS),
]  # fmt: skip

CASES += [
    # PostgreSQL's attribute notation: (x).f and x[1].f call f(x) when f is no field of x.
    Case("function named after a parenthesis's dot (attribute notation)",
         ("select (", X(), "::text).", X("i", "f")), TS_STAT, [],
         f"select ('{TS_STAT}'::text).\"ts_stat\"", ("pg", "pg_off"), only=("pg", "pg_off"),
         extra={"f": "ts_stat"}),
    Case("function named after a subscript's dot (attribute notation)",
         ("select (array[", X(), "::text])[1].", X("i", "f")), TS_STAT, [],
         f"select (array['{TS_STAT}'::text])[1].\"ts_stat\"", ("pg", "pg_off"),
         only=("pg", "pg_off"), extra={"f": "ts_stat"}),
    Case("a table's column after its name and a dot stays a column",
         ("select t.", X("i"), " from t where id = 1"), "v", [("a",)]),
]  # fmt: skip
