"""The ``sql`` renderer: an i-string as a parameterized query, ``cursor.execute(*sql(i"..."))``.

Each interpolation becomes a placeholder and its value a parameter, in the paramstyle the
driver wants (PEP 249): ``qmark`` ``?`` (sqlite3, DuckDB), ``numeric`` ``:1``, ``named``
``:name`` (sqlite3), ``format`` ``%s`` and ``pyformat`` ``%(name)s`` (psycopg), and ``dollar``
``$1`` (DuckDB, asyncpg).  For the two ``format`` styles every ``%`` of the query text is
written ``%%``, as those drivers require.  Named placeholders get distinct names: the field's
expression when it is an identifier, ``p<n>`` otherwise, and ``_2``, ``_3``... on a repeat.

Specs follow psycopg's t-string convention:

* ``{name:i}`` — an identifier, double-quoted with inner ``"`` doubled; a tuple of strings
  gives a qualified name (``"schema"."table"``).  Empty, NUL or non-str is refused, and so is
  a name past 63 bytes when PostgreSQL may run the query (it would cut it to another name).
* ``{x:l}`` — a literal written into the text: ``None``, ``bool``, ``int``, finite ``float``
  and ``Decimal``, and ``str`` with ``'`` doubled.  A string with a backslash is refused unless
  the dialect is known: plain for SQLite and DuckDB, ``E'...'`` with ``\\`` doubled for
  PostgreSQL, which reads both the same way whatever ``standard_conforming_strings`` says
  (psycopg's ``sql.Literal`` does the same when it cannot ask the connection).
* ``{sub:q}`` — a nested template composed in place, its parameters renumbered.
* ``{ids:in}`` — a non-empty iterable as ``(?, ?, ?)``, one parameter per item.

Conversions (``!r`` ``!s`` ``!a``), any other spec and a spec built at run time
(``{x:{mode}}``, where a value would choose a name over a parameter) are refused.

**Where a field may stand** is decided from tokens, as an allow-list (see ``_sql_tokens``):
the static text is lexed with an inert marker per field, once per distinct ``t.strings`` and
paramstyle and dialect (cached), by the rules of every database the query may meet: the
``dialect`` named, or by default every database whose drivers use the paramstyle (``qmark``:
SQLite and DuckDB; ``format``: PostgreSQL...), PostgreSQL always with
``standard_conforming_strings`` both on and off, so the strictest reading wins.  A field is
accepted only where its marker is a token of its own in code, with nothing it could merge with
on either side: a space, ``( , ;``, or an operator that cannot absorb it.  Inside a string
of any prefix, a quoted identifier (``"``, backtick, ``[...]``), a dollar quote or a comment,
or glued to a word, number, quote, ``$``, ``:`` or another field (``E{x:l}``, ``{a}b``,
``1{x}``), it is refused.  Text that the database would itself read as a parameter (``?``,
``$1``, ``:name``...) is refused too: the values would be bound to the wrong placeholders, and
so is a Unicode space DuckDB reads as ``' '`` (U+00A0...) in code when DuckDB may run the query.

**Where the database runs a value as code** no field stands at all, whatever its spec: a DO
statement, after PROGRAM, LOAD/INSTALL, IMPORT DATABASE, an argument of ``query()``,
``query_to_xml()``, ``crosstab()``, ``load_extension()``..., the body of CREATE
FUNCTION/PROCEDURE/MACRO, ALTER SYSTEM and settings naming libraries, extensions or commands,
an argument of ``PRAGMA name(...)`` unless the pragma is known to read data (an allow-list), and
behind ``EXPLAIN [ANALYZE]``, which runs what it explains.  A query that calls one of those
functions (or ``set_config()`` of a setting not written as a string, or sets a code setting)
takes no field anywhere: a subquery, a CTE or a variable carries any value into the call.
**Where a value would choose what runs** no field stands either: the name of the function
called (a field before ``(``, unless the word before its name declares or targets one:
``insert into {t:i} (a)``; DuckDB's ``cast(x as t).{f:i} ()`` is a call), the function DDL
binds (``create cast ... with function {f:i} (text)``), a name after ``).``, ``].`` or a
parameter's ``$1 .`` when PostgreSQL may run the query (its attribute notation reads ``(x).f``
as ``f(x)``), a setting's
name (``set {k:i}``, ``set_config({k}, ...)``, ``create function ... set {k:i} = ...``), an
option's name in ``OPTIONS ({k:i} ...)`` (file_fdw's PROGRAM runs its value), ``pg_settings``
as UPDATE's table (its rule calls set_config()), and, when DuckDB may run the query, a ``:i``
table name DuckDB would read as a file or URL (``from {t:i}`` with ``"secret.csv"`` or
``("secret", "csv")``), or one of SQLite's or PostgreSQL's own tables (``sqlite_stmt``,
``pg_prepared_statements``: the SQL text of the statements the connection prepared).  These
are read from the whole query with its ``:q`` fragments composed in (``_composed``), which
also reads every field again in the composed text.

**Every render is checked** (defence in depth): each name or literal written into the text is
tokenized again with the static tokens on either side of it, and must read as exactly the tokens
it is alone (one quoted name, one literal) with its neighbours unchanged; a placeholder is
checked the same way once per template.  The lexer reads each token from its first character
on, so a value that leaves its neighbours' tokens intact leaves every token of the query intact:
the local check equals re-tokenizing the whole query, which would cost about as much again as
the render (see ``benchmarks/bench_renderers.py``).  Any difference is a ``RenderError`` naming
the field, never a query.

**Why our own lexer rather than sqlglot's** (weighed, measured, sqlglot 30.31): sqlglot's
tokenizer knows the dialects' quoting well, but it is built to transpile: it cannot read
PostgreSQL with ``standard_conforming_strings`` off, it splits ``$1`` and ``?1`` into two
tokens, it takes about 570 µs to tokenize a one-line query (pure Python; the check runs on
every render) and 1.8 s to import.  The rules that move a token boundary are few and
documented by each engine; they are tabled in ``_sql_tokens`` and proven against the real
sqlite3, DuckDB and PostgreSQL (both settings) by ``tests/contexts_sql.py``.

This module imports nothing from IPython.
"""

from __future__ import annotations

import math
import operator
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from ._sql_settings import SET_FORMS, data_setting
from ._sql_tokens import DIALECTS, MARKER, Dialect, check_pattern, dialects, tokens
from .fields import RenderError, field_text, refusal
from .template import InterpolationTemplate, as_template, fields_with_built_specs, is_template

__all__ = ["DIALECTS", "PARAMSTYLES", "Query", "sql"]

PARAMSTYLES = ("qmark", "numeric", "named", "format", "pyformat", "dollar")
_NAMED_STYLES = ("named", "pyformat")
_PERCENT_STYLES = ("format", "pyformat")
_SUPPORTED = (
    "no spec (a parameter), ':i' (identifier), ':l' (literal), ':q' (nested i-string) "
    "and ':in' (a sequence as (?, ?, ...)); no conversion"
)
_SPECS = ("", "i", "l", "q", "in")
_MAX_DEPTH = 100  # ':q' nesting; deeper is a mistake (or a cycle), not a query


class Query(NamedTuple):
    """A query and its parameters: ``cursor.execute(*query)`` or ``execute(q.sql, q.params)``.

    ``params`` is a tuple for the positional paramstyles and a dict for ``named``/``pyformat``.
    """

    sql: str
    params: tuple[Any, ...] | dict[str, Any]


# --- Where a field stands: decided once per (strings, paramstyle, dialect). -----------------

_INSIDE = {
    "string": (
        "is inside a quoted SQL string written in the static text ('...{x}...')",
        "Remove the quotes: write ... = {x} and let the parameter carry the value (for a "
        "pattern, build it in Python: like {'%' + x + '%'})",
    ),
    "escape_string": (
        "is inside an E'...' string written in the static text, where a backslash escapes",
        "Remove the quotes: write ... = {x} and let the parameter carry the value",
    ),
    "identifier": (
        'is inside a quoted identifier written in the static text ("...", `...` or [...]; '
        'a double-quoted identifier is "...{x}...")',
        "Remove the quotes and write {x:i}: the renderer quotes the identifier itself",
    ),
    "dollar": (
        "is inside a dollar-quoted string ($tag$...$tag$) written in the static text",
        "Move it out of the $$...$$ string and pass it as a parameter",
    ),
    "line_comment": ("is inside a -- comment", "Move it out of the comment"),
    "block_comment": ("is inside a /* */ comment", "Move it out of the comment"),
}
# A ':l' string there would be joined to it ('a' <newline> 'b' is 'ab' to PostgreSQL), read
# with its escapes, and a placeholder there is never valid SQL.
_CONTINUES = (
    "starts a line after a string constant, which PostgreSQL would continue into the value",
    "Put an operator or a comma between them ('a' || {x}), or move the field",
)
_NEWLINE = re.compile(r"[\n\r]")
_SPACES = frozenset(" \t\n\r\f")  # not \v: SQLite and PostgreSQL < 16 refuse it
# The characters a field may touch: each ends (or starts) a token whatever the value is
# (the braces of DuckDB's struct and map literals, {'a': ?}, too).
_BEFORE = _SPACES | frozenset("(,;=<>+-*/%|[{")
_AFTER = _SPACES | frozenset("),;=<>+-*/%|]}!")
# What only a ':i' name may touch before it: a dot (s.{t:i}), and PostgreSQL's cast '::'
# ({x}::{t:i}, as cast({x} as {t:i})): its value is written quoted, and a '"' starts a token
# after either in every dialect.
_NAME_ONLY_BEFORE = frozenset((".", "::"))
_BEFORE_FRAGMENT = _SPACES | frozenset("(,;")
_AFTER_FRAGMENT = _SPACES | frozenset("),;")


Tokens = tuple[tuple[str, str], ...]  # as the check pattern's findall gives them


class _Field(NamedTuple):
    inside: tuple[str, str] | None  # (why, fix) when the field stands in a token, else None
    allowed: frozenset[str]  # the specs its neighbours allow
    before_text: str  # what it touches, for the message: "'= E'", "another field"...
    after_text: str
    # The structural check: the static text from the start of the token before the field,
    # and to the end of the token after it, with the tokens they are alone.
    left: str
    left_tokens: Tokens
    right: str
    right_tokens: Tokens
    written: dict[tuple[str, str], str | None]  # (spec, text) -> the check's verdict, cached


class _Analysis(NamedTuple):
    fields: tuple[_Field, ...]
    static: tuple[str, str, str] | None  # (subject, why, fix) when the static text is refused
    end: tuple[str, str] | None  # what the text ends inside, if not in code (for ':q')
    strings: tuple[str, ...]  # the static strings as written into the query ('%' doubled)
    pattern: re.Pattern[str]  # the check's tokenizer
    members: tuple[Dialect, ...]


@lru_cache(maxsize=1024)
def _allowed(before: str, after: str, paramstyle: str) -> frozenset[str]:
    """The specs a field may have with these neighbours (``''`` at either end of the text)."""
    if MARKER in (before, after):
        return frozenset()  # two fields touch: {a}{b}
    specs = set()
    if (before in _BEFORE_FRAGMENT or not before) and (after in _AFTER_FRAGMENT or not after):
        specs.add("q")
    if before and before not in _BEFORE and before not in _NAME_ONLY_BEFORE:
        return frozenset(specs)
    colon_placeholder = paramstyle in ("named", "numeric")  # SQLite reads :a::b as one name
    for spec in ("", "in", "i", "l"):
        ok_before = before not in _NAME_ONLY_BEFORE or spec == "i"
        ok_after = (
            not after
            or after in _AFTER
            or (after == ":" and not (spec == "" and colon_placeholder))
            or (after == "." and spec == "i")
        )
        if ok_before and ok_after:
            specs.add(spec)
    return frozenset(specs)


# The characters the driver's codec for one of PostgreSQL's client encodings writes as a
# backslash byte: Python's euc_jp, shift_jis and shift_jis_2004 (psycopg's for EUC_JP, SJIS and
# SHIFT_JIS_2004) write the yen sign as 0x5C, which PostgreSQL reads as a backslash, so in a
# '...' or E'...' literal it escaped the quote after it (on an EUC_JP database, E'\\x¥'' union
# select secret ...' ran the union).  Found by encoding every character with each codec of
# psycopg's table (tests/test_sql_sixteenth_pass.py does it again for the multibyte ones; a
# single-byte codec writes an ASCII byte only for that ASCII character).
_BACKSLASH_BYTE = frozenset("\u00a5")
_BACKSLASH_BYTE_WHY = (
    "is a string with a yen sign (U+00A5), which the codecs drivers use for PostgreSQL's "
    "EUC_JP, SJIS and SHIFT_JIS_2004 client encodings write as the byte of a backslash: on an "
    "EUC_JP database E'\\\\x¥'' union select ...' read it as a backslash escaping the quote, "
    "and the rest ran as SQL"
)
_BACKSLASH_BYTE_STATIC = (
    "holds a yen sign (U+00A5) in a string, which the codecs drivers use for PostgreSQL's "
    "EUC_JP, SJIS and SHIFT_JIS_2004 client encodings write as the byte of a backslash, so "
    "PostgreSQL may read the string as escaping its closing quote and going on into the fields",
    "Pass the text with the yen sign as a parameter ({x}, no quotes around it)",
)
_BACKSLASH_BYTE_COMPOSED = (
    "is in a query whose text " + _BACKSLASH_BYTE_STATIC[0],
    _BACKSLASH_BYTE_STATIC[1],
)


def _read(
    strings: tuple[str, ...], d: Dialect
) -> tuple[list[tuple[str, str] | None], tuple[str, str, str] | None]:
    """Per field (and one more for the text's end): what it stands inside; and why ``d``
    refuses the static text itself, ``(subject, why, fix)``, if it does."""
    text = MARKER.join(strings) + MARKER
    inside: list[tuple[str, str] | None] = []
    problem = None
    string_end = -1  # where the last token ended, if it was a string
    for kind, start, end in tokens(text, d):
        if kind == "field":
            # (searched only after a string: from position -1, the search read the whole
            # text before each field)
            continued = (
                string_end >= 0
                and d.continued_escapes
                and _NEWLINE.search(text, string_end, start) is not None
            )
            inside.append(_CONTINUES if continued else None)
            string_end = -1
            continue
        if kind not in ("line_comment", "block_comment"):
            string_end = end if kind in ("string", "escape_string") else -1
        markers = text.count(MARKER, start, end)
        if markers:
            inside.extend([_INSIDE[kind]] * markers)
        if problem is None and kind == "parameter":
            problem = (
                f"the static text {text[start:end]!r}",
                f"is a parameter placeholder to {d.name}, so the values would be bound to "
                "the wrong placeholders",
                "Write the value as a field, or quote the text",
            )
        elif (
            problem is None
            and d.backslash_strings
            and kind in ("string", "escape_string")
            and not _BACKSLASH_BYTE.isdisjoint(text[start:end])
            and text.count(MARKER) > 1  # a field's value may follow (not the end's marker)
        ):
            problem = (f"the static text {text[start:end]!r}", *_BACKSLASH_BYTE_STATIC)
        elif kind == "unicode_space":  # what follows has no one reading: name this
            return inside, (
                f"the static text's U+{ord(text[start]):04X} after "
                + repr(text[max(0, start - 12) : start].replace(MARKER, "{...}")),
                f"is a space to {d.name} in code, but only where its pre-pass sees code, and "
                "a letter to PostgreSQL and SQLite: the query's tokens, and where each field "
                "stands, cannot be known",
                "Write a plain space (inside a string or a comment it may stay)",
            )
    return inside, problem


@lru_cache(maxsize=512)
def _analyse(strings: tuple[str, ...], paramstyle: str, dialect: str | None) -> _Analysis:
    members = dialects(dialect, paramstyle)
    count = len(strings) - 1
    inside: list[tuple[str, str] | None] = [None] * (count + 1)
    static = None
    if any(MARKER in s for s in strings):
        static = (
            "the static text",
            "contains a NUL character, which ends the query early",
            "Remove it",
        )
    for d in members:
        read, problem = _read(strings, d)
        for n, where in enumerate(read):
            if where is not None and inside[n] is None:
                why, fix = where
                if len(members) > 1:
                    why = f"{why} (as {d.name} reads it)"
                inside[n] = (why, fix)
        if static is None:  # a placeholder: whatever the driver's paramstyle
            static = problem
    percent = paramstyle in _PERCENT_STYLES
    written = tuple(s.replace("%", "%%") for s in strings) if percent else strings
    pattern = check_pattern(members, percent)
    seams = [_seams(s, pattern) for s in written]
    sample = _SAMPLE_PLACEHOLDER[paramstyle]
    fields = []
    for n in range(count):
        before = strings[n][-1:] if strings[n] else (MARKER if n else "")
        if strings[n].endswith("::"):
            before = "::"
        after = strings[n + 1][:1] if strings[n + 1] else (MARKER if n + 1 < count else "")
        allowed = _allowed(before, after, paramstyle)
        _, left, left_tokens = seams[n]
        (right, right_tokens), _, _ = seams[n + 1]
        if not _seam_holds(
            pattern, left, left_tokens, sample, ((sample, ""),), right, right_tokens
        ):
            allowed -= {"", "in"}  # a scanner bug caught once, for the placeholders
        fields.append(
            _Field(
                inside[n],
                allowed,
                _neighbour(strings[n][-12:], n == 0, allowed),
                _neighbour(strings[n + 1][:12], n + 1 == count, allowed),
                left,
                left_tokens,
                right,
                right_tokens,
                {},
            )
        )
    return _Analysis(tuple(fields), static, inside[count], written, pattern, members)


def _neighbour(text: str, edge: bool, allowed: frozenset[str]) -> str:
    """A neighbour as a refusal names it (not needed where every spec may stand)."""
    if len(allowed) == len(_SPECS):
        return ""
    return repr(text) if text else "nothing" if edge else "another field"


# A placeholder of each style, as long as a real one can be: the check is made once with it.
_SAMPLE_PLACEHOLDER = {
    "qmark": "?",
    "numeric": ":12",
    "named": ":p_12",
    "format": "%s",
    "pyformat": "%(p_12)s",
    "dollar": "$12",
}


def _seams(string: str, pattern: re.Pattern[str]) -> tuple[tuple[str, Tokens], str, Tokens]:
    """For one static string: ``((head, head tokens), tail, tail tokens)`` as the check reads
    them; ``head`` runs to the end of the first token, ``tail`` from the start of the last."""
    found = list(pattern.finditer(string))
    if not found:
        return (string, ()), string, ()  # only spaces: they end every token
    first, last = found[0], found[-1]
    return (
        (string[: first.end(1)], ((first.group(1), first.group("tag") or ""),)),
        string[last.start(1) :],
        ((last.group(1), last.group("tag") or ""),),
    )


def _seam_holds(
    pattern: re.Pattern[str],
    left: str,
    left_tokens: Tokens,
    text: str,
    tokens: Tokens,
    right: str,
    right_tokens: Tokens,
) -> bool:
    """Whether ``text`` between its static neighbours reads as its own tokens, unchanged."""
    found = pattern.findall(left + text + right)
    return len(found) == len(left_tokens) + len(tokens) + len(right_tokens) and (
        found == [*left_tokens, *tokens, *right_tokens]
    )


def _glued(field: str, spec: str, place: _Field) -> RenderError:
    """The refusal of a field whose neighbours would merge with its value."""
    if spec == "q":
        allowed = "a space, '(' or ',' before it, and a space, ')', ',' or ';' after it"
    else:
        allowed = "a space, '(' or an operator on each side"
    return refusal(
        "sql",
        field,
        f"touches its neighbours ({place.before_text} before it, {place.after_text} after it), "
        "so the database could read the value and its neighbour as one token",
        f"Separate them with {allowed} (for a name or a literal, move the text into the value)",
    )


# --- Where the database runs a value as code: no field at all. ------------------------------

# Whatever the spec, a value there is code (a literal is the code's text, a parameter its text
# at run time): PL/pgSQL, a shell command, a shared library, SQL.  Proven in the real databases
# by tests/contexts_sql.py.  Read from the static text of the whole query, ':q' fragments
# composed in, so that splitting "do" and "{x:l}" across fragments changes nothing.
_CODE_STATEMENTS = {
    "do": "is in a DO statement, whose string PostgreSQL runs as PL/pgSQL code",
    "load": "is in a LOAD statement, which loads a shared library (PostgreSQL) or an "
    "extension (DuckDB) from that file",
    "install": "is in an INSTALL statement, which downloads and installs a DuckDB extension",
}
_CODE_AFTER = {
    "program": "follows PROGRAM, and COPY ... PROGRAM runs its string as a shell command on the "
    "database server",
}
_UNREADABLE = "\0"  # the name of a U&"..." identifier, whose escapes are not decoded here
_XML_EXPORT = (
    "PostgreSQL's table and schema XML exports run a query over the relations their argument "
    "names (the catalog's views among them: pg_prepared_statements' SQL text)"
)
_CODE_CALLS = {
    "query": "DuckDB's query() runs its argument as SQL",
    "query_to_xml": "PostgreSQL's query_to_xml() runs its argument as SQL",
    "query_to_xmlschema": "PostgreSQL's query_to_xmlschema() runs its argument as SQL",
    "query_to_xml_and_xmlschema": "PostgreSQL's query_to_xml_and_xmlschema() runs its "
    "argument as SQL",
    "dblink": "dblink() runs SQL on another server",
    "dblink_exec": "dblink_exec() runs SQL on another server",
    "dblink_open": "dblink_open() runs SQL on another server",
    "dblink_send_query": "dblink_send_query() runs SQL on another server",
    # A libpq connection string also sets the new session's settings: options='-c
    # session_preload_libraries=<file>' made the server load the value's library (native code)
    # as dblink's session started.
    "dblink_connect": "dblink_connect() opens a session with its connection string, whose "
    "options (options='-c session_preload_libraries=...') set the libraries the server loads "
    "for it",
    "dblink_connect_u": "dblink_connect_u() opens a session with its connection string, whose "
    "options (options='-c session_preload_libraries=...') set the libraries the server loads "
    "for it",
    "json_execute_serialized_sql": "DuckDB's json_execute_serialized_sql() runs its argument "
    "as SQL",
    "load_extension": "SQLite's load_extension() loads a shared library",
    # Built with SQLITE_ENABLE_FTS3_TOKENIZER (Debian's 3.40 among them), fts3_tokenizer(name,
    # blob) registers the blob as the address of a tokenizer's functions, which SQLite calls.
    "fts3_tokenizer": "SQLite's fts3_tokenizer() takes a blob as the address of native code "
    "to call",
    # PostgreSQL's tablefunc extension: crosstab() runs its text arguments as SQL, connectby()
    # writes its table and column names into the SQL it runs, unquoted.
    "crosstab": "tablefunc's crosstab() runs its arguments as SQL",
    "crosstab2": "tablefunc's crosstab2() runs its argument as SQL",
    "crosstab3": "tablefunc's crosstab3() runs its argument as SQL",
    "crosstab4": "tablefunc's crosstab4() runs its argument as SQL",
    "connectby": "tablefunc's connectby() writes its table and column names, unquoted, into "
    "the SQL it runs",
    # DuckDB's postgres and mysql extensions run their argument on the attached server.
    "postgres_query": "DuckDB's postgres_query() runs its argument as SQL on PostgreSQL",
    "postgres_execute": "DuckDB's postgres_execute() runs its argument as SQL on PostgreSQL",
    "mysql_query": "DuckDB's mysql_query() runs its argument as SQL on MySQL",
    "mysql_execute": "DuckDB's mysql_execute() runs its argument as SQL on MySQL",
    # Contrib modules that write a text argument, unquoted, into the SQL they run: xml2's
    # xpath_table() runs SELECT <key>, <document> FROM <relation> WHERE <criteria> (criteria
    # 'false union all select ... secret ...' returned the secrets), dblink sends FETCH and
    # CLOSE with the cursor's name as written (dblink_close(c, 'cur; create table ...') ran
    # the second statement), and refint's trigger functions build DELETE, UPDATE and SELECT
    # from their table and column arguments (a table 't --' made a cascading delete empty t).
    "xpath_table": "xml2's xpath_table() writes its arguments, unquoted, into the SQL it runs",
    "dblink_fetch": "dblink_fetch() writes its cursor name, unquoted, into the FETCH it sends",
    "dblink_close": "dblink_close() writes its cursor name, unquoted, into the CLOSE it sends",
    "check_primary_key": "refint's check_primary_key() writes its table and column names, "
    "unquoted, into the SQL it runs",
    "check_foreign_key": "refint's check_foreign_key() writes its table and column names, "
    "unquoted, into the SQL it runs",
    # PostgreSQL's XML exports run SELECT * FROM the relation (every relation of the schema)
    # their argument names, or FETCH from the cursor it names: table_to_xml({t}::regclass,
    # ...) with 'pg_prepared_statements' returned a prepared statement's text, which from
    # {t:i} refuses, and cursor_to_xml({c}, ...) a cursor the session had declared.
    "table_to_xml": _XML_EXPORT,
    "table_to_xmlschema": _XML_EXPORT,
    "table_to_xml_and_xmlschema": _XML_EXPORT,
    "schema_to_xml": _XML_EXPORT,
    "schema_to_xmlschema": _XML_EXPORT,
    "schema_to_xml_and_xmlschema": _XML_EXPORT,
    # dblink's dblink_build_sql_insert() and _update() read the row of the relation their
    # first argument names (SELECT * FROM it WHERE the given columns hold the given values) and
    # return it as SQL text: dblink_build_sql_insert('pg_prepared_statements', '1', 1, '{p1}',
    # '{p1}') returned a prepared statement's text, which from {t:i} refuses (the seventeenth
    # pass; the seventh had reviewed them as data).  _delete() reads no row.
    "dblink_build_sql_insert": "dblink_build_sql_insert() returns, as SQL text, the row of the "
    "relation its argument names (the catalog's views among them: pg_prepared_statements' SQL "
    "text)",
    "dblink_build_sql_update": "dblink_build_sql_update() returns, as SQL text, the row of the "
    "relation its argument names (the catalog's views among them: pg_prepared_statements' SQL "
    "text)",
    # pageinspect's get_raw_page() returns the raw pages of the relation its argument names,
    # rows and all: get_raw_page('pg_authid', 0) held the roles' SCRAM password verifiers,
    # which from {t:i} refuses (the seventeenth pass; the seventh had reviewed it as data).
    "get_raw_page": "pageinspect's get_raw_page() returns the raw pages, rows and all, of the "
    "relation its argument names (the catalog's among them: pg_authid's password verifiers)",
    # pg_surgery's functions change the rows of the relation their argument names, past every
    # check: heap_force_kill('pg_statistic'::regclass, ...) removed a catalog row, which
    # delete from {t:i} and update {t:i} refuse (the seventeenth pass).
    "heap_force_kill": "pg_surgery's heap_force_kill() removes rows of the relation its "
    "argument names, past every check (the catalog's among them)",
    "heap_force_freeze": "pg_surgery's heap_force_freeze() changes rows of the relation its "
    "argument names, past every check (the catalog's among them)",
    "cursor_to_xml": "PostgreSQL's cursor_to_xml() fetches from the cursor its argument names "
    "(the session's declared cursors, pg_cursors' rows)",
    "cursor_to_xmlschema": "PostgreSQL's cursor_to_xmlschema() reads the cursor its argument "
    "names",
    "ts_stat": "PostgreSQL's ts_stat() runs its argument as SQL",
    "ts_rewrite": "PostgreSQL's ts_rewrite() runs its second argument as SQL",
    "query_table": "DuckDB's query_table() reads the table its argument names, and a name "
    "with a file extension as that file or URL",
    # DuckDB's system table macros histogram() and histogram_values() read their source
    # through query_table(CAST(source AS VARCHAR)) (duckdb_functions()' macro_definition):
    # histogram_values({src}, col) read a CSV file outside the database.
    "histogram": "DuckDB's histogram() table macro reads its source through query_table(), "
    "which reads a name with a file extension as that file or URL",
    "histogram_values": "DuckDB's histogram_values() reads its source through "
    "query_table(), which reads a name with a file extension as that file or URL",
    # (In an expression, histogram() is the aggregate: see _aggregate_or.)
    # It binds its argument as a query without running it, and binding folds getvariable()
    # and current_setting(): a session variable's secret came back in the plan.
    "json_serialize_plan": "DuckDB's json_serialize_plan() binds its argument as SQL, "
    "reading the tables, files, variables and settings it names",
    # PRAGMA import_database('<dir>') is DuckDB's IMPORT DATABASE: it ran a schema.sql there.
    "import_database": "DuckDB's import_database pragma runs the SQL of the directory's "
    "schema.sql and load.sql",
    # A logical replication slot's plugin is a shared library PostgreSQL loads by its name or
    # path (load_external_function, no directory enforced): pg_create_logical_replication_slot(
    # 's', {plugin}) with a path ran that library's constructor on the server (the seventeenth
    # pass; found by the arguments' names, which the catalog review did not read).
    "pg_create_logical_replication_slot": "PostgreSQL's pg_create_logical_replication_slot() "
    "loads its plugin argument as a shared library (a path too), and runs its code",
    "pg_copy_logical_replication_slot": "PostgreSQL's pg_copy_logical_replication_slot() "
    "loads its plugin argument as a shared library (a path too), and runs its code",
    # DuckDB 2.0's external resources run table functions named by strings: destroy_external_
    # resource('query', {x}) ran SELECT * FROM query(<x>), and the value's enable_logging(...)
    # wrote every later query's text, a secret literal included, to a file of its choice (the
    # eighteenth pass; found by the functions' arguments' names, deleter_function...).  A
    # resource type names the functions create_external_resource() and the others run later.
    "destroy_external_resource": "DuckDB's destroy_external_resource() runs the table "
    "function its first argument names with its second (('query', {x}) ran the value as SQL)",
    "register_external_resource_type": "DuckDB's register_external_resource_type() names the "
    "table functions create_external_resource() and the others run later",
    "register_external_resource": "DuckDB's register_external_resource() names the table "
    "function run when the resource is destroyed",
    "create_external_resource": "DuckDB's create_external_resource() runs the create "
    "function of the resource type its argument names, with its options",
    _UNREADABLE: 'its name, written U&"..." with escapes, cannot be checked against the '
    "functions that run their argument as code",
}
_ROUTINES = frozenset(("function", "procedure", "macro"))
# DuckDB's histogram() is a table macro in FROM (which reads through query_table()) and an
# aggregate everywhere else: in select histogram(c) from t, DuckDB finds only the aggregates
# (histogram('t', c) found "histogram(arg, bins)", not the macro), which read no table.
_ALSO_AGGREGATES = frozenset(("histogram",))
_EXPRESSION_CLAUSES = frozenset(("select", "where", "having", "qualify", "order", "group"))
_AGGREGATE_CALL = "\0aggregate"  # a calls entry: an aggregate's parentheses


def _aggregate_or(called: str, clause: str) -> str:
    """The ``calls`` entry for parentheses after the name ``called`` in ``clause``: an
    aggregate's, for histogram() in an expression, or the name."""
    if called in _ALSO_AGGREGATES and clause in _EXPRESSION_CLAUSES:
        return _AGGREGATE_CALL
    return called

# DuckDB 2.0's CREATE EXTERNAL RESOURCE <type> AS <name> (options) is create_external_resource():
# it runs the create function the type names, with the options: create external resource
# "audited" as r ran the macro the type "audited" names (it turned DuckDB's query log on).
_EXTERNAL_RESOURCE = (
    "creates an external resource (DuckDB), which runs the create function of the resource "
    "type it names, with its options"
)


def _creates_external_resource(statement: list[str]) -> bool:
    """Whether the statement is DuckDB's CREATE [OR REPLACE] EXTERNAL RESOURCE."""
    return statement[:1] == ["create"] and any(
        statement[n : n + 2] == ["external", "resource"] for n in range(1, 4)
    )
# Settings that name the code the server loads or runs: PostgreSQL's *_preload_libraries,
# dynamic_library_path and *_command, DuckDB's extension repository and directory, and its
# home_directory, under which LOAD and autoloading look for extensions when no extension
# directory is set; and the procedural languages' own: plperl.on_init, on_plperl_init and
# on_plperlu_init hold Perl code run when the interpreter starts, pltcl.start_proc and
# pltclu.start_proc (and plv8.start_proc) name a function run then.  Those appear in
# pg_settings only once the language is loaded, so no catalog review would have found them.
# And DuckDB's secret_directory: the session loads the persistent secrets in the directory it
# names when it first looks one up, and uses them for its later reads and writes (a secret the
# value's directory held, with its http_proxy and bearer_token, was the one which_secret() chose
# for an https:// URL the author's later query named).  And DuckDB's http_proxy (not its
# _username or _password): INSTALL and autoloading download extensions over plain http through
# it, so the proxy serves the file installed, as a custom extension repository does (a static
# install inet fetched the value's proxy's bytes; the signature check refused them).
_CODE_SETTING = re.compile(
    r"librar|command|extension|home_directory|secret_directory|http_proxy(?!_)|\bon_\w*init"
    r"|start_proc"
)


def _code_setting(name: str) -> bool:
    """Whether a setting's name (lowercased) may be one of those: a U&"..." name is unread."""
    return name == _UNREADABLE or _CODE_SETTING.search(name) is not None


_CODE_FIX = (
    "A value must never become code: write the code in the static text, and pass only data "
    "as fields (to choose among known pieces of code, branch in Python)"
)


def _flatten(template: InterpolationTemplate, depth: int = 0) -> tuple[list[str], list[Any]]:
    """The query's static text with every ':q' fragment composed in, and its leaf fields
    (the interpolations, in order), as the renderer writes them."""
    strings, leaves = [template.strings[0]], []
    for interpolation, string in zip(template.interpolations, template.strings[1:]):
        value = interpolation.value
        if interpolation.format_spec == "q" and is_template(value) and depth < _MAX_DEPTH:
            inner_strings, inner_leaves = _flatten(as_template(value, renderer="sql"), depth + 1)
            strings[-1] += inner_strings[0]
            strings += inner_strings[1:]
            leaves += inner_leaves
            strings[-1] += string
        else:
            leaves.append(interpolation)
            strings.append(string)
    return strings, leaves


def _name(text: str, kind: str) -> str:
    """A word or quoted identifier as the name it is, lowercased: PostgreSQL and SQLite fold
    words, DuckDB matches even quoted names without case (``"QUERY"(...)`` is ``query()``),
    and reading more names as a code sink's only refuses more."""
    if kind == "identifier":
        if text[:1] == "[":
            return text[1:-1].lower()
        if text[:1] in ('"', "`"):
            return text[1:-1].replace(text[0] * 2, text[0]).lower()
        return _UNREADABLE  # U&"..."
    return text.lower()


# Where a field names something the value must not choose.  A field before '(' is the name
# of the function called, unless the chain of names it ends follows a word that declares or
# targets a name: insert into {t:i} (a, b), create table {t:i} (...), references {t:i} (id).
_DECLARES = frozenset(
    ("into", "table", "exists", "references", "as", "view", "with", "recursive", "function",
     "procedure", "macro", "copy", "::")
)  # fmt: skip
# After '::' or AS a name is a type, but DuckDB reads x::varchar.{f:i}() as a call of f on
# x::varchar (its dot call syntax): there only the chain's first name is a type.
_TYPES_AFTER = frozenset(("::", "as"))
_CALLED = (
    "is the name of the function called, so its value chooses which function runs "
    "(query(), ts_stat() and query_to_xml() run SQL, pg_read_file() and read_text() read "
    "the server's files; DuckDB's x.f() and cast(x as t).f() call f too)",
    "Write the function's name in the static text; to choose among known functions, pick "
    "an i'...' fragment in Python and compose it with ':q'",
)
# with a as (...), {t:i} (n) as (...) names a CTE, but DuckDB's WITH ... PIVOT t ON x USING
# sum(x), {f:i} (x) calls f there too, with no clause word between: the check cannot tell them.
_CTE_OR_CALL = (
    "stands before '(' after a comma of a WITH list, where the check cannot tell a CTE's name "
    "and its columns from the function called (DuckDB's with ... pivot t on x using sum(x), "
    "f(x) calls f), so its value might choose which function runs",
    "Give that CTE no column list (name the columns in its query: with ..., {t:i} as (select "
    "... as n)), or write its name in the static text",
)
_ATTRIBUTE_CALL = (
    "follows '(...).' or '[...].' (or a parameter's '$1 .'), where PostgreSQL reads (x).f as "
    "the call f(x) when f is no field of x (attribute notation), so its value chooses the "
    "function called ((x).pg_read_file read a server file, (x).ts_stat ran x as SQL)",
    "Write the field's name in the static text; to choose among known fields, pick an "
    "i'...' fragment in Python and compose it with ':q' (or, if PostgreSQL never runs the "
    "query, say so: sql(..., dialect='duckdb' / 'sqlite'))",
)
_SETTING_NAMED = (
    "names the setting to change, so its value chooses which one (the libraries, commands "
    "and extension repositories the database loads code from among them)",
    "Write the setting's name in the static text",
)
_STATEMENT_NAMED = (
    "names the prepared statement EXECUTE runs (also under EXPLAIN ANALYZE or in CREATE TABLE "
    "AS EXECUTE), so its value chooses which statement runs (a DELETE prepared earlier in the "
    "session among them)",
    "Write the statement's name in the static text",
)
# The name PREPARE gives is the one a later EXECUTE runs, the session's or its driver's:
# DuckDB replaces a statement of that name silently (after the session's prepare q1 as select
# ..., prepare "q1" as insert ... made its next execute q1 insert), and PostgreSQL after
# deallocate {p:i} (psycopg's own "_pg3_0", dropped so, then prepared as an insert, ran the
# insert when psycopg next ran its select).
_PREPARED_NAMED = (
    "names the statement PREPARE defines, which a later EXECUTE of that name runs: DuckDB "
    "replaces a statement of that name silently (prepare \"q1\" as insert ... made the "
    "session's next execute q1 insert), and PostgreSQL does after a DEALLOCATE (psycopg's "
    "own statement \"_pg3_0\" ran an insert instead of its select)",
    "Write the statement's name in the static text",
)
_SETTING_MODIFIERS = frozenset(("session", "local", "global", "persistent"))
# PostgreSQL's OPTIONS (name 'value', ...) of a foreign table, server, wrapper or user mapping
# (and ALTER ... OPTIONS (ADD | SET | DROP name ...)): the name says what the value is, and
# file_fdw's PROGRAM runs it as a shell command.
_OPTION_NAMED_AFTER = frozenset(("(", ",", "add", "set", "drop"))
_OPTION_NAMED = (
    "names an option in OPTIONS (...), so its value chooses what the option's value is: "
    "file_fdw's PROGRAM runs it as a shell command on the database server (options "
    '("program" %s) ran the value)',
    "Write the option's name in the static text",
)
# postgres_fdw passes a server's "options" option to libpq, which sends it as the remote
# session's command-line options: '-c session_preload_libraries=<file>' made the server load
# the value's library when a foreign table of the server was read.
_LIBPQ_OPTIONS = (
    "follows OPTIONS, the option postgres_fdw passes to libpq as the remote session's settings "
    "(options '-c session_preload_libraries=...' made the server load that library)"
)
# A subscription's CONNECTION is a libpq connection string the server opens itself, and libpq
# reads sslkey=<engine>:<key> as an OpenSSL engine to load, a shared library by its path:
# create subscription s connection '... sslcert=<a cert> sslkey=/tmp/x.so:k' ran the library's
# constructor on the server (the seventeenth pass; the tenth found its options= dropped).
_SUBSCRIPTION_CONNECTION = (
    "is the connection string of a subscription, which the server opens with libpq, and "
    "libpq loads the OpenSSL engine sslkey=<engine>:<key> names, a shared library by its path "
    "(sslkey=/tmp/x.so:k ran that library on the server), as options='-c "
    "session_preload_libraries=...' would"
)
_UNREADABLE_BEFORE = (
    'follows a name written U&"..." with escapes, which the check cannot read: it may be '
    'PROGRAM (file_fdw\'s options (U&"progr\\0061m" %s) ran the value as a shell command)'
)
# DuckDB reads a table name that is no table as a file or URL (a replacement scan): "s.csv",
# "s"."csv", "https://...".  Where a name is a table to read, a ':i' value must be plain.
# (And SQLite's `x IN table`: `v in {t:l}` with 'sqlite_stmt' read that table.)
_TABLE_READS = frozenset(
    ("from", "join", "using", "table", "describe", "show", "summarize", "pivot", "pivot_wider",
     "pivot_longer", "unpivot", "copy", "in")
)  # fmt: skip
_CLAUSES = frozenset(
    ("select", "from", "join", "where", "group", "having", "order", "limit", "offset",
     "qualify", "window", "union", "intersect", "except", "set", "values", "returning", "into")
)  # fmt: skip
_TABLE_FILE = (
    "is a table name in a query DuckDB may run, and DuckDB reads a name that is no table as "
    "a file or URL ('secret.csv', 'data'.'csv', 'https://...': a replacement scan), so the "
    "value may choose a file to read",
    "Pass a plain name (no '.', '/', '\\', ':'; no tuple, and no dot next to the field): "
    "USE another schema first; to read a file on purpose, write read_csv({path}); or say "
    "where the query runs: sql(..., dialect='sqlite' / 'postgresql')",
)
_TABLE_NAME_UNSAFE = re.compile(r"[./\\:]")
# SQLite serves tables of its own under names no schema may take: "sqlite_" is reserved
# (sqlite_schema, sqlite_stmt: the SQL text of every statement the connection holds prepared,
# literals included, and Python's sqlite3 keeps its last 128 in a cache) and "pragma_" names
# the eponymous table of each pragma (pragma_database_list: the files attached).  A ':i' table
# read there is a value's choice of the connection's internals, not of the schema's tables.
_SQLITE_INTERNAL_PREFIXES = ("sqlite_", "pragma_")
# And an eponymous virtual table by an unreserved name (a table of one's own by the name hides
# it): dbstat, built into Debian's and Python's SQLite, lists every table and index by name
# with its pages' sizes, as sqlite_schema does.
_SQLITE_INTERNAL_NAMES = frozenset(("dbstat",))
_TABLE_INTERNAL = (
    "is a table name in a query SQLite may run, and the value names one of SQLite's own "
    "tables ('sqlite_*', 'pragma_*', 'dbstat'): from \"sqlite_stmt\" returned the SQL text, "
    "literals included, of the statements the connection had run",
    "Pass the name of one of your tables (check it against the ones you allow), or write "
    "SQLite's table in the static text",
)
# PostgreSQL's catalog is searched before the schemas on the search path, and its views show
# the SQL text the server holds: pg_prepared_statements and pg_cursors the session's
# (literals included), pg_stat_activity other sessions' queries.  Their names all start with
# "pg_" (matched as written: PostgreSQL compares a quoted name exactly), and a table of one's
# own by such a name is hidden behind the catalog's anyway.  pg_settings stays readable (not
# writable: drop view, alter view, create rule ... to): it shows what current_setting({k}) and
# SHOW, accepted, already show.
_POSTGRESQL_READABLE = frozenset(("pg_settings",))
# And where a statement writes, the catalog's schemas' names whatever they start with: the
# information_schema's views are everyone's (alter schema "information_schema" owner to carol
# let carol replace them); pg_settings is written there too.
_POSTGRESQL_WRITTEN = frozenset(("information_schema", "pg_settings"))
_POSTGRESQL_CATALOG = (
    "is a table (or schema) name in a query PostgreSQL may run, and the value names one of "
    "PostgreSQL's catalog tables ('pg_*', or in pg_catalog; or the catalog's schemas where "
    "the query writes): from \"pg_prepared_statements\" returned the SQL text, literals "
    "included, of the statements the session had prepared",
    "Pass the name of one of your tables (check it against the ones you allow), or write "
    "the catalog's table in the static text",
)
# DuckDB serves the same views for compatibility, by names it matches in any case:
# pg_prepared_statements returned a prepared statement's text there too, sqlite_master the
# schema, and its own duckdb_* views (duckdb_views: their SQL); and SQLite's
# pragma_database_list, a view in its main schema (the attached databases' files, as
# duckdb_databases shows them).
_DUCKDB_INTERNAL_PREFIXES = ("pg_", "sqlite_", "duckdb_", "pragma_")
_DUCKDB_CATALOG = (
    "is a table name in a query DuckDB may run, and the value names one of DuckDB's own "
    "tables ('pg_*', 'sqlite_*', 'duckdb_*', 'pragma_*'): from \"pg_prepared_statements\" "
    "returned the SQL text, literals included, of the statements the connection had prepared",
    _POSTGRESQL_CATALOG[1],
)


def _reads_a_table(before: str, clause: str) -> bool:
    """Whether a name after the token ``before``, in ``clause``, is a table DuckDB reads."""
    return before in _TABLE_READS or (before in (",", "(") and clause in ("from", "join"))


def _clause_opened(before: str, clause: str) -> str:
    """The clause of a parenthesis opened after the token ``before`` in ``clause``: FROM's
    (from (a join b)), where a table may follow, INHERITS', whose names are tables, or none."""
    if _reads_a_table(before, clause):
        return "from"
    return _INHERITS if before == _INHERITS else ""


# Where a statement writes to, changes, drops, attaches to or grants on the relation a name
# gives: the engines' own tables and views are no value's choice there either (update
# "pg_authid" set rolsuper = true made a role a superuser, grant select on "pg_authid" showed
# the password hashes, drop view "pg_roles" dropped the catalog's view, SQLite's update
# "sqlite_dbpage" rewrote a page past a CHECK constraint).  Not DuckDB's replacement scan,
# which reads only.  After these words in any statement (ALTER/DROP VIEW, SEQUENCE, INDEX):
_TABLE_WRITES = frozenset(("update", "into", "truncate", "lock", "view", "sequence", "index"))
# After these words of a statement on an object of this kind: GRANT/REVOKE ... ON {t:i} (and
# ON ALL TABLES IN SCHEMA {s:i}); CREATE/DROP/ALTER TRIGGER ... ON {t:i}, which PostgreSQL
# takes on its catalog's views (an INSTEAD OF trigger on "pg_roles" ran the template's
# function for an insert into pg_roles); CREATE RULE ... AS ON <event> TO {t:i} and DROP/ALTER
# RULE ... ON {t:i}, the same; and the schema of CREATE/DROP/ALTER SCHEMA {s:i}, the catalog's
# among them (alter schema "pg_catalog" owner to carol let carol put an upper(varchar) there,
# which a superuser's upper() of a varchar then ran), and of ALTER DEFAULT PRIVILEGES IN SCHEMA
# {s:i}, whose grant reaches every function an extension installs there later (in
# "pg_catalog", adminpack's pg_file_write(), with which carol appended to the server's
# postgresql.auto.conf).
_TABLE_NAMED_AFTER = {
    "grant": frozenset(("on", "schema")),
    "revoke": frozenset(("on", "schema")),
    "trigger": frozenset(("on",)),
    "rule": frozenset(("on", "to")),
    "schema": frozenset(("schema",)),
    "default": frozenset(("schema",)),  # alter default privileges in schema {s:i} grant ...
}
_RULE_EVENTS = frozenset(("select", "insert", "update", "delete"))  # on <event> to {t:i}
# Words between CREATE/DROP/ALTER and the kind of its object (create or replace rule)
_OBJECT_MODIFIERS = frozenset(("or", "replace", "constraint"))
# The maintenance statements, every name of which at their top level is a table (vacuum full
# "pg_authid" rewrote the catalog table under its exclusive lock, which every login waits for),
# but for SQLite's VACUUM INTO 'file'.
_MAINTENANCE = frozenset(("vacuum", "analyze", "analyse", "cluster"))
# The kinds of relation IF [NOT] EXISTS may follow, whose name is read as right after the kind:
# drop table if exists "sqlite_stat1" dropped SQLite's planner statistics, alter table if exists
# "pg_roles" owner to alice gave alice the catalog's view.
_RELATION_KINDS = frozenset(("table", "view", "sequence", "index"))
# PostgreSQL's CREATE TABLE ... INHERITS (parent, ...): inherits ("pg_authid") made the rows
# of the new table rows of pg_authid, and of pg_roles (a superuser 'mallory' that is none).
_INHERITS = "inherits"
# Marks a table written among the databases that read a name as a table (_Places.internal):
# PostgreSQL's pg_settings is readable, not writable (drop view "pg_settings" dropped it).
_WRITTEN = "written"
# And marks the type PostgreSQL's ALTER TYPE / ALTER DOMAIN {t:i} changes: not a built-in type,
# whose owner may create casts from it (alter type "text" owner to carol let carol's function
# run in a superuser's '5'::text::int4).
_ALTERED_TYPE = "altered type"
_ALTERED_TYPE_KINDS = frozenset(("type", "domain"))
# And marks the schema an object goes into (PostgreSQL): ALTER ... SET SCHEMA {s:i}, and the
# schema part of the name a CREATE gives ({s:i}.name; a tuple value says it itself).  PostgreSQL
# searches pg_catalog before every schema of the search path, for relations, types and
# functions, and lets a superuser move any object into it and create types there: alter table
# users set schema "pg_catalog" made every role's select * from users read that table instead
# of its own schema's, and create type "pg_catalog".mood made 'evil'::mood the catalog's enum
# in a schema with a mood of its own (the seventeenth pass).
_INTO_SCHEMA = "into schema"
# And the name CREATE gives, whose schema part a tuple value writes: ("pg_catalog", "mood").
_CREATED_IN = "created in"


def _object(statement: list[str]) -> str:
    """The kind of object the statement acts on: GRANT/REVOKE themselves, else the word after
    CREATE/DROP/ALTER ... (trigger, rule, table, ...)."""
    if statement[:1] and statement[0] in _GRANTS:
        return statement[0]
    return next((word for word in statement[1:] if word not in _OBJECT_MODIFIERS), "")


def _exists_kind(statement: list[str]) -> str:
    """The relation's kind the statement's IF [NOT] EXISTS follows (drop table if exists), or
    ``""``."""
    at = statement.index("if") if "if" in statement else 0
    return statement[at - 1] if at > 0 and statement[at - 1] in _RELATION_KINDS else ""


def _writes_a_table(before: str, prior: str, clause: str, head: list[str], nested: bool) -> bool:
    """Whether a name after the token ``before`` (``prior`` before that), in ``clause`` of the
    statement ``head`` begins, is a relation it writes to, changes, drops, attaches to or
    grants on; ``nested`` when the name is inside parentheses."""
    if clause == _INHERITS:
        return before in ("(", ",")
    maintenance = head[:1] != [] and head[0] in _MAINTENANCE
    if before in _TABLE_WRITES:
        return not (maintenance and before == "into")  # vacuum into 'backup.db': a file
    if nested:
        return False  # analyze t ({c:i}): a column
    if maintenance:
        return True  # vacuum (full) a, {t:i}
    statement = _statement(head)
    if before == "table" and statement[:1] == ["alter"]:
        return True  # ALTER TABLE takes a view: alter table "pg_settings" owner to alice
    named_after = _TABLE_NAMED_AFTER.get(_object(statement), frozenset())
    return before in named_after and (before != "to" or prior in _RULE_EVENTS)


def _names_a_table(
    before: str, clause: str, head: list[str], prior: str = "", nested: bool = False
) -> str:
    """Whether a name after the token ``before`` is a table the statement writes (``_WRITTEN``)
    or reads (``"read"``), or neither (``""``)."""
    if before == "exists":  # drop table if exists {t:i}: as drop table {t:i}
        before = _exists_kind(_statement(head))
    if _writes_a_table(before, prior, clause, head, nested):
        return _WRITTEN
    return "read" if _reads_a_table(before, clause) else ""


# SQLite's full-text tables (FTS3/4/5) take options as name=value in their module arguments:
# content= names the table FTS reads its documents from (fts5(sql, content="sqlite_stmt")
# served the connection's cached statements' SQL, literals included), and FTS4's compress= and
# uncompress= the functions it calls on every document.
_FTS_MODULES = frozenset(("fts3", "fts4", "fts5"))
_FTS_FUNCTIONS = frozenset(("compress", "uncompress"))
_FTS_FUNCTION = (
    "names the function a full-text table calls on every document (FTS4's compress= and "
    "uncompress=), so its value chooses code that runs later",
    "Write the function's name in the static text",
)


def _fts_option(calls: list[str], prior: str, last: str) -> str:
    """The option a field after ``prior last`` gives in CREATE VIRTUAL TABLE ... USING
    fts5(..., name=...), or ``""``."""
    return prior if calls[-1:] != [] and calls[-1] in _FTS_MODULES and last == "=" else ""


def _sink(
    head: list[str],
    previous: str,
    calls: list[str],
    routine_body: bool,
    before: str,
    after_set: list[str] | None,
    chain_before: str = "",
) -> tuple[str, str] | None:
    """``(why, fix)`` when a field with this code before it would be run as code or would
    choose a setting, or ``None``.  ``before`` is the token just before the field,
    ``after_set`` the words after the statement's last SET or RESET (see ``_composed``), and
    ``chain_before`` the token before the dotted name the field ends (``with function
    pg_catalog.{f:i}``), or ``before`` itself."""
    head = _statement(head)
    statement = head[0] if head else ""
    if statement in _CODE_STATEMENTS:
        return _CODE_STATEMENTS[statement], _CODE_FIX
    if previous in _CODE_AFTER:
        return _CODE_AFTER[previous], _CODE_FIX
    if previous == _UNREADABLE:  # options (U&"progr\0061m" {cmd}) is PROGRAM
        return _UNREADABLE_BEFORE, _CODE_FIX
    if calls[-1:] == ["options"] and before in _OPTION_NAMED_AFTER:
        return _OPTION_NAMED
    if calls[-1:] == ["options"] and previous == "options":  # options (..., options {o:l})
        return _LIBPQ_OPTIONS, _CODE_FIX
    if previous == "connection" and head[1:2] == ["subscription"]:
        return _SUBSCRIPTION_CONNECTION, _CODE_FIX  # create subscription s connection {c:l}
    for name in calls:
        if name in _CODE_CALLS:
            return f"is an argument of {_shown(name)}(), and {_CODE_CALLS[name]}", _CODE_FIX
        if name == _CODE_SETTING_CALL:
            return "is an argument of set_config() " + _SETTING_CODE, _CODE_FIX
        if name == _UNLISTED_SETTING_CALL:
            return _SET_CONFIG_UNLISTED
    if calls[-1:] == ["set_config"] and before == "(":
        return _SETTING_NAMED
    if routine_body:
        return "is in the body of a stored function, procedure or macro, which is code", _CODE_FIX
    if head == ["execute"] or previous == "execute":
        # also EXPLAIN ANALYZE EXECUTE {s:i} and CREATE TABLE ... AS EXECUTE {s:i}, which run it
        return _STATEMENT_NAMED
    if head == ["prepare"]:  # prepare {p:i} as ...
        return _PREPARED_NAMED
    if statement in ("create", "alter"):
        kind = next((word for word in head[1:] if word not in _CREATE_MODIFIERS), "")
        if kind == "extension":  # CREATE, and ALTER ... UPDATE [TO], run its scripts
            return f"is in {statement.upper()} EXTENSION, " + _EXTENSION, _CODE_FIX
        if kind == "language" and before == "language" and statement == "create":
            return _LANGUAGE, _CODE_FIX
        if kind in _ROUTINE_KINDS and before == "language" and statement == "create":
            return _ROUTINE_LANGUAGE  # create function f() ... language {x:i} as '...'
        if kind in _ROUTINE_KINDS and (chain_before or before) == "support" and not calls:
            return _SUPPORT_FUNCTION  # create function f(...) ... support {s:i}
        if kind in _BINDS_FUNCTIONS and (chain_before or before) in _FUNCTION_NAMED_AFTER:
            return _BOUND_FUNCTION  # (also schema-qualified: sfunc = pg_catalog.{f:i})
        if _binds_to_types(head, before, chain_before):
            return _BOUND_TO_TYPES  # create operator class c for type {t:i} using ...
        if kind == "event" and statement == "create" and before == "on":
            return _EVENT_NAMED  # create event trigger et on {e:i} execute function f()
    if head[:2] == ["import", "database"]:
        return _IMPORT_DATABASE, _CODE_FIX
    if head[:2] == ["alter", "system"]:
        return _ALTER_SYSTEM, _CODE_FIX
    if statement == "pragma" and calls[:1] == head[-1:] and calls[0] not in _DATA_PRAGMAS:
        return f"is an argument of PRAGMA {_shown(calls[0])}(), " + _PRAGMA_UNKNOWN, _PRAGMA_FIX
    setting = _setting(head, statement, after_set)
    if setting is None:
        return None
    # Also inside parentheses: DuckDB evaluates set home_directory = concat({x}, '').  (A
    # routine's SET of a code setting taints the whole query, which says so for each field.)
    if statement != "create" and _code_setting(_setting_name(setting)):
        return _SETTING_CODE_WHY, _CODE_FIX
    if calls:  # alter table t set (fillfactor = ...): a table's option
        return None
    if _names_in_progress(setting):  # set {k:i}, set plperl.{k:i}, pragma main.{name:i}
        return _SETTING_NAMED
    return None


def _sets_unlisted(head: list[str], after_set: list[str] | None) -> bool:
    """Whether a field here gives the value of a setting not on the allow-list, inside
    parentheses too (set x = ({v})); checked after the refusals that say more."""
    head = _statement(head)
    statement = head[0] if head else ""
    name = _setting_name(_setting(head, statement, after_set) or [])
    return (
        bool(name)
        and _sets_settings(head)
        and not _code_setting(name)  # refused as code, by _sink or the whole query's taint
        and not _value_setting(name, statement)
    )


# ALTER statements whose SET sets a setting (a role's, a database's, a routine's), rather
# than a column's default, a table's schema or its options.
_ALTERED_WITH_SETTINGS = frozenset(("role", "user", "database", "function", "procedure", "routine"))


def _sets_settings(head: list[str]) -> bool:
    """Whether the statement ``head`` begins (without its prefixes) sets settings with its SET
    or PRAGMA: SET, PRAGMA, a routine's CREATE ... SET, ALTER ROLE/DATABASE/FUNCTION ... SET."""
    if head[:1] == ["alter"]:
        return head[1:2] != [] and head[1] in _ALTERED_WITH_SETTINGS
    return head[:1] in (["set"], ["pragma"], ["create"])


def _value_setting(name: str, statement: str) -> bool:
    """Whether a value may set the setting ``name`` in ``statement``: one on the allow-list
    (``_sql_settings``), a dotted name of the application's own, or a pragma reading data."""
    if statement == "pragma":
        return data_setting(name, pragma=True) or name.rpartition(".")[2] in _DATA_PRAGMAS
    if statement == "alter" and name in _ALTER_SET_FORMS:
        return True  # alter function f() set schema {s:i}: a move, which _INTO_SCHEMA reads
    return data_setting(SET_FORMS.get(name, name) if statement == "set" else name, pragma=False)


# ALTER FUNCTION ... SET SCHEMA and ALTER DATABASE ... SET TABLESPACE move the object: no setting.
_ALTER_SET_FORMS = frozenset(("schema", "tablespace"))


def _names_in_progress(setting: list[str]) -> bool:
    """Whether a field after these words (those after SET, or after PRAGMA) is the setting's
    name, or the rest of a dotted one: nothing but modifiers, or ``name . [name . ...]``
    (``set data type s.{t:i}`` names a type, ``set work_mem = {v}`` gives a value)."""
    start = next((n for n, w in enumerate(setting) if w not in _SETTING_MODIFIERS), None)
    if start is None:
        return True
    words = setting[start:]
    return words[-1] == "." and all(word == "." for word in words[1::2])


# Words before a statement that still run it: DuckDB's EXPLAIN ANALYZE runs any statement
# (explain analyze load '<file>' loaded it, explain analyze set home_directory = ... set it),
# and FORCE INSTALL installs.  Options in parentheses are no head words: explain (analyze) load.
_STATEMENT_PREFIXES = frozenset(("explain", "analyze", "analyse", "verbose", "force"))


def _statement(head: list[str]) -> list[str]:
    """The statement's first words, without the prefixes that run it all the same."""
    for n, word in enumerate(head):
        if word not in _STATEMENT_PREFIXES:
            return head[n:]
    return []


def _setting(head: list[str], statement: str, after_set: list[str] | None) -> list[str] | None:
    """The words after PRAGMA, or after the last SET or RESET of SET, ALTER ... SET and
    CREATE FUNCTION/PROCEDURE ... SET (``after_set``); ``None`` elsewhere."""
    return head[1:] if statement == "pragma" else after_set


def _setting_name(setting: list[str]) -> str:
    """The setting's name among the words after SET: the first that is no modifier, with the
    words a dot joins to it (plperl.on_init); the words after it are its value (set
    search_path = extensions names no code setting)."""
    start = next((n for n, w in enumerate(setting) if w not in _SETTING_MODIFIERS), None)
    if start is None or setting[start] == ".":
        return ""
    end = start + 1
    while setting[end : end + 1] == ["."] and end + 1 < len(setting):
        end += 2
    return "".join(setting[start:end])


_SETTING_UNLISTED = (
    "sets a setting that is not on sql()'s list of settings whose value is data "
    "(ipy_istring/_sql_settings.py): a setting's value may choose a place (DuckDB's "
    "temp_directory received the author's spilled rows), where names are looked up "
    "(PostgreSQL's search_path: one schema made a later lower(v) of a varchar run that "
    "schema's lower(varchar)) or turn checks off (session_replication_role = replica stopped "
    "the author's triggers)",
    "Write the value in the static text (to choose among known values, pick an i'...' "
    "fragment in Python and compose it with ':q'); values may set numbers, sizes, flags and "
    "formats: threads, memory_limit, statement_timeout, timezone, work_mem...",
)
_SET_CONFIG_UNLISTED = ("is an argument of set_config(), which " + _SETTING_UNLISTED[0],
                        _SETTING_UNLISTED[1])  # fmt: skip
# The allow-list's refusals, which yield to one that says more (another dialect's, a taint's).
_UNLISTED = (_SETTING_UNLISTED, _SET_CONFIG_UNLISTED)
_SETTING_CODE = (
    "naming a setting that says where the database loads libraries or extensions from (or "
    "stored secrets)"
)
_SETTING_CODE_WHY = (
    "sets where the database loads its libraries or extensions from, or a command it runs, or "
    "(DuckDB's secret_directory) the directory whose stored secrets it loads and then uses for "
    "the session's later reads and writes (a secret placed there chose their proxy, endpoint "
    "and credentials), or (DuckDB's http_proxy) the proxy that serves the extensions INSTALL "
    "and autoloading download"
)
_EXTENSION = (
    "which runs the extension's scripts (to install it, or UPDATE it to another version) and "
    "loads its shared library"
)
# PostgreSQL reads CREATE LANGUAGE <name> without HANDLER as CREATE EXTENSION <name>
# (create language "pgcrypto" installed pgcrypto).
_LANGUAGE = (
    "names the language CREATE LANGUAGE defines, and without a HANDLER PostgreSQL installs "
    "the extension of that name (its scripts and shared library)"
)
# CREATE FUNCTION / PROCEDURE ... LANGUAGE says how the body written in the text runs: with
# "c" PostgreSQL loads the body's string as a shared library (its constructor ran), with
# "internal" it calls the built-in function the string names, and the untrusted languages
# (plperlu, plpython3u) run the body with the server's rights (the nineteenth pass; after AS
# the clause was refused already, as part of the body).
_ROUTINE_LANGUAGE = (
    "names the language of the function or procedure CREATE defines, which says how its body "
    "runs: with \"c\" PostgreSQL loads the body's string as a shared library (its code ran), "
    "with \"internal\" it calls the built-in function the string names",
    "Write the language in the static text; to choose among known languages, pick an i'...' "
    "fragment in Python and compose it with ':q'",
)
# DDL that binds a function by name, to be called whenever the object is used: a cast's or a
# transform's WITH FUNCTION, an aggregate's SFUNC = ..., an operator's FUNCTION = ..., a type's
# INPUT = ..., a language's or a wrapper's HANDLER, a conversion's FROM (PostgreSQL; a string
# names the function as well as a name does).
_BINDS_FUNCTIONS = frozenset(
    ("cast", "transform", "aggregate", "operator", "type", "conversion", "language", "access",
     "foreign", "text")
)  # fmt: skip
_CREATE_MODIFIERS = frozenset(("or", "replace", "trusted", "procedural", "default"))
_FUNCTION_NAMED_AFTER = frozenset(("=", "function", "handler", "validator", "inline", "from"))
_BOUND_FUNCTION = (
    "names the function the cast, aggregate, operator, type, language or wrapper being "
    "defined will call whenever it is used, so its value chooses code that runs later",
    "Write the function's name in the static text",
)
# CREATE / ALTER FUNCTION ... SUPPORT <function>: the planner calls the support function (native
# code, written for another function's arguments) whenever it plans a call of the routine:
# with "generate_series_int4_support", a later plan of f(1, 100000) estimated the series'
# 100000 rows (1000 before).
_SUPPORT_FUNCTION = (
    "names the planner support function of the routine CREATE or ALTER FUNCTION defines, "
    "which PostgreSQL's planner calls (native code, written for other functions' arguments) "
    "for every query that calls the routine: with \"generate_series_int4_support\" it "
    "ran in the plan of a later f(1, 100000)",
    "Write the support function's name in the static text",
)
# The objects that bind the text's functions to a type (and access method) for every later
# query on it: a default operator class for type "point" made a later count(distinct p) run
# its comparison function (before, PostgreSQL had none and refused the query), and a
# transform for "int4" is bound by every later routine written TRANSFORM FOR TYPE int4.  The
# value chooses which queries run that code (a support function may take internal or
# anyelement, and the access method says what each function is for), and no choice is
# provably harmless: only the class's own name (and a family's new name or owner) may be a
# value.  (CREATE CAST: _CAST_TYPES.)
_TYPE_BINDINGS = (["create", "transform"], ["create", "operator", "class"],
                  ["alter", "operator", "family"])  # fmt: skip
_TYPE_BINDING_NAMED_AFTER = frozenset(("class", "to"))
_BOUND_TO_TYPES = (
    "is in CREATE TRANSFORM, CREATE OPERATOR CLASS or ALTER OPERATOR FAMILY, which bind "
    "functions to the types and access method named there for every later query: a default "
    "operator class for type \"point\" made a later count(distinct p) run its comparison "
    "function, so the value would choose which queries run that code",
    "Write the types, access method and functions in the static text; to choose among known "
    "ones, pick an i'...' fragment in Python and compose it with ':q'",
)
# CREATE CAST binds how one type becomes another for every later query: WITH FUNCTION f(text)
# with "varchar" made every later '7'::varchar::int4 run f (PostgreSQL takes any type binary
# coercible to the function's argument and from its result: "oid" for one returning int4
# made 'pg_class'::text::oid run it), AS IMPLICIT made a later f22(v) of a text v run
# f22(int4) where PostgreSQL found no function before, and WITHOUT FUNCTION reads one type's
# bytes as another's (float8 as timestamptz: 1.5 became a date in the year 148067).  Only
# WITH INOUT alone may take values: an explicit cast through the types' own text forms,
# which explicit casts from text already are.
_CAST_TYPES = (
    "is in CREATE CAST, which binds how the types named there convert for every later "
    "query: with function f(text), \"varchar\" made every later '7'::varchar::int4 run f, "
    "AS IMPLICIT made a later f(v) of a text v call f(int4), and WITHOUT FUNCTION reads one "
    "type's bytes as another's",
    "Write the cast's types in the static text; to choose among known types, pick an i'...' "
    "fragment in Python and compose it with ':q' (values may name the types of a cast "
    "written WITH INOUT alone)",
)
_CAST_WITH_INOUT = ["cast", "with", "inout"]  # the top-level words of the only cast accepted
# CREATE INDEX ... USING <method>: the method chooses the operator classes that index the
# columns, whose support functions run on every row now and on every later write: with a
# default hash class for point, using "hash" (p) ran its hash function, where "btree" was
# refused (no default class).
_INDEX_METHOD = (
    "names the access method of CREATE INDEX, which chooses the operator classes whose "
    "support functions run on every row now and on every later write: with a default hash "
    "class for point, using \"hash\" (p) ran its hash function",
    "Write the access method in the static text; to choose among known ones, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
# CREATE EVENT TRIGGER ... ON <event> runs the text's function on that event of every role's
# commands in the database: with "sql_drop" a later create table ran nothing, with
# "ddl_command_start" it ran the function (EVENT RAN CREATE TABLE).
_EVENT_NAMED = (
    "names the event of CREATE EVENT TRIGGER, so its value chooses which later commands, of "
    "every role, run the trigger's function (\"ddl_command_start\": every CREATE, ALTER and "
    "DROP)",
    "Write the event in the static text; to choose among known events, pick an i'...' "
    "fragment in Python and compose it with ':q'",
)


def _binds_to_types(head: list[str], before: str, chain_before: str) -> bool:
    """Whether a field after ``before`` (its dotted name after ``chain_before``) in the
    statement ``head`` begins is in one of _TYPE_BINDINGS, and not a name it may take."""
    words = [word for word in head if word not in _CREATE_MODIFIERS]
    if not any(words[: len(kind)] == kind for kind in _TYPE_BINDINGS):
        return False
    return (chain_before or before) not in _TYPE_BINDING_NAMED_AFTER


_IMPORT_DATABASE = (
    "is in IMPORT DATABASE, which runs the SQL in the directory's schema.sql and load.sql "
    "(DuckDB): the value would choose the file of code to run"
)
_ALTER_SYSTEM = "is in ALTER SYSTEM, which sets the commands and libraries the server runs"
# DuckDB loads the TYPE of ATTACH (...) as an extension, a path as that file, as LOAD does:
# attach ':memory:' as d (type ?) opened the parameter's file as an extension, whatever the
# expression that gives it (type ('/tmp/x' || '.duckdb_extension') too).
_ATTACH_TYPE = (
    "is in the TYPE option of ATTACH, which DuckDB loads as an extension (a path as that "
    "file, as LOAD does): the value would choose the native code loaded"
)
# And the option's name may not come from a value either: attach ':memory:' as d ("type" ?)
# with the name "type" from a ':i' field loaded the parameter's file as an extension.
_ATTACH_OPTION = (
    "names an option of ATTACH (...), so its value chooses what the option's value is: "
    "DuckDB loads the TYPE option as an extension (a path as that file), and "
    "attach ':memory:' as d (\"type\" ?) loaded the parameter's file",
    "Write the option's name in the static text",
)
# EXPLAIN (ANALYZE) runs the statement it explains: explain ({k:i}) delete from t ... with
# k = "analyze" deleted the rows (DuckDB, PostgreSQL), where the text wrote only a plan.
_EXPLAIN_OPTION = (
    "names an option of EXPLAIN (...), so its value chooses what EXPLAIN does: with "
    "\"analyze\" it runs the statement it explains (explain (\"analyze\") delete ... deleted "
    "the rows)",
    "Write the option's name in the static text; to choose among known options, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
# COPY ... TO/FROM ... (options): DuckDB's OVERWRITE removes every file under the directory a
# partitioned COPY writes to (copy t to 'out' (partition_by (a), "overwrite" true) deleted the
# files already there, where without it DuckDB refuses a directory that is not empty).
_COPY_OPTION = (
    "names an option of COPY (...), so its value chooses what COPY does: DuckDB's "
    "\"overwrite\" removes every file under the directory COPY writes to (copy t to 'out' "
    "(partition_by (a), \"overwrite\" true) deleted the files there)",
    "Write the option's name in the static text; to choose among known options, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
# DuckDB finds a function in the schemas of its search path before its built-in ones: with a
# database attached whose macro is named lower, use "src" (or set search_path / schema =
# 'src') made every later lower('ABC') run that macro, and copy from database "src" to memory
# copied the macro into the default database, where it did the same (the twentieth pass).
_DUCKDB_SCOPE_SETTINGS = frozenset(("search_path", "schema"))
_FUNCTION_SCOPE = (
    "chooses the database or schema DuckDB finds functions in, before its built-in ones (or "
    "copies one's macros into another): with a database attached whose macro is named lower, "
    "use \"src\" made every later lower('ABC') run that macro",
    "Write the database and schema in the static text; to choose among known ones, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
# A DuckDB table function's named options in FROM (read_csv(p, header = true); also := and
# =>) say what the call does beyond reading: with "store_rejects" = true, read_csv wrote the
# tables reject_errors and reject_scans into the database, and an extension's table function
# may take any option.  The option's name must be the text's; its value may be a value.
# (after these words, and after a comma in FROM; CALL, PIVOT and UNPIVOT ran read_csv(p,
# "store_rejects" = true) too, and DELETE ... USING and MERGE ... USING read a table function)
_TABLE_FUNCTION_AFTER = frozenset(
    ("from", "join", "lateral", "using", "call", "pivot", "unpivot", "pivot_wider",
     "pivot_longer")
)  # fmt: skip
_OPTION_VALUE_AFTER = frozenset(("=", ":"))  # name = value, name := value, name => value
# The options naming the temporary tables DuckDB writes a CSV's rejected rows to (read_csv's,
# COPY ... FROM's): a temporary table hides a table, or DuckDB's own view, of its name for the
# rest of the session (the twenty-fourth pass: read_csv(p, store_rejects = true, rejects_table
# = ?) with "duckdb_tables" made every later select from duckdb_tables read the CSV's rejected
# lines; with "t24", select from t24), as create temp table {t:i} does.
_REJECTS_OPTIONS = frozenset(("rejects_table", "rejects_scan"))
_REJECTS_VALUE_LEAD = frozenset(("=", ":", ">", ":=", "=>"))  # rejects_table = / := / => {r}
_REJECTS_PART = (
    "is part of an expression that names the temporary table DuckDB writes a CSV's rejected "
    "rows to (rejects_table, rejects_scan), which hides a table or DuckDB's own view of that "
    "name for the rest of the session, and sql() checks the name only as the option's whole "
    "value: rejects_table = concat('duckdb_', {r}) with 'tables' made every later select from "
    "duckdb_tables read the CSV's rejected lines",
    "Pass the whole name as the field (compute it in Python): rejects_table = {r}; or write "
    "it in the static text",
)


class _RejectsValue:
    """Where a DuckDB statement gives rejects_table or rejects_scan its value: a field that is
    all of it names a temporary table (checked as CREATE TEMP TABLE's name is), and a field
    in an expression there is refused (``_REJECTS_PART``)."""

    def __init__(self) -> None:
        self.depth: int | None = None  # the open calls around the value, while in it
        self.lead = False  # only the option's name and '=' (':=', '=>') so far
        self.led = False  # the same, before the current token
        self.whole: int | None = None  # the field that must end the value

    def see(self, token: str, depth: int, options: bool) -> int | None:
        """Read the next token (``depth``: the calls open before it; ``options``: in a DuckDB
        table function's arguments or COPY's options).  The field to refuse, if the one
        before this token did not end the value."""
        unended, self.whole = self.whole, None
        if token in (",", ")"):
            unended = None
        around = self.depth
        if around is not None and (depth < around or (depth == around and token == ",")):
            self.depth = None  # the call closed, or its next argument began
        self.led = self.lead and depth == self.depth
        if options and token in _REJECTS_OPTIONS:
            self.depth, self.lead = depth, True
        elif token not in _REJECTS_VALUE_LEAD:
            self.lead = False
        return unended

    def field(self, field: int) -> bool | None:
        """For a field (the current token): True if it may be all of the value (then checked
        when the next token comes), False if it is in an expression of it, None elsewhere."""
        if self.depth is None:
            return None
        if self.led:
            self.whole = field
        return self.led
_TABLE_FUNCTION_OPTION = (
    "names an option of a table function (read_csv(p, header = true) in FROM, CALL or "
    "PIVOT), so its value chooses what the call does: with \"store_rejects\" = true, "
    "read_csv wrote the tables reject_errors and reject_scans into the database",
    "Write the option's name in the static text (its value may be a field); to choose among "
    "known options, pick an i'...' fragment in Python and compose it with ':q'",
)
# CREATE FUNCTION / PROCEDURE ... TRANSFORM FOR TYPE t makes the language's handler call the
# functions of the transform for (t, language) on the routine's arguments and results:
# PostgreSQL looks that transform up by the type the value names, so the value chooses which
# transform's code runs (native functions, from an extension such as hstore_plpython3u).
_TRANSFORM_TYPE = (
    "names a type of TRANSFORM FOR TYPE, and PostgreSQL runs the functions of that type's "
    "transform for the language on the routine's arguments and results: the value chooses "
    "which transform's code runs",
    "Write the type in the static text; to choose among known types, pick an i'...' "
    "fragment in Python and compose it with ':q'",
)


# CREATE TRIGGER ... REFERENCING NEW TABLE AS <name>: inside the trigger's function the name is
# the statement's new (or old) rows, before any table of that name: with "allowed22", a
# check that read the table allowed22 read the rows being inserted instead, and passed them.
_TRANSITION_TABLE = (
    "names a transition table of CREATE TRIGGER, which the trigger's function reads by its "
    "name before any table of that name: with \"allowed22\", a check that read the table "
    "allowed22 read the inserted rows instead, and let them pass",
    "Write the name in the static text, as the trigger's function reads it",
)


def _names_transition_table(statement: list[str], last: str, prior: str) -> bool:
    """Whether a field after these tokens names a transition table of CREATE TRIGGER
    (``referencing new table as {n:i}``, ``old table {n:i}``)."""
    trigger = statement[:1] == ["create"] and "trigger" in statement[1:5]
    return trigger and ((prior, last) == ("table", "as") or (last, prior) in _TRANSITION_WORDS)


_TRANSITION_WORDS = frozenset((("table", "new"), ("table", "old")))


def _chooses_function_scope(head: list[str], after_set: list[str] | None) -> bool:
    """Whether a field in the DuckDB statement ``head`` begins (its words after SET
    ``after_set``) chooses where functions are found: USE, COPY FROM DATABASE, and the value
    of search_path or schema (their names are refused as any setting's)."""
    head = _statement(head)
    if head[:1] == ["use"] or head[:3] == ["copy", "from", "database"]:
        return True
    setting = _setting(head, head[0] if head else "", after_set)
    return head[:1] in (["set"], ["pragma"]) and (
        _setting_name(setting or []) in _DUCKDB_SCOPE_SETTINGS
    )


def _transform_type(head: list[str], last: str, prior: str) -> bool:
    """Whether a field after these tokens is a type of CREATE FUNCTION / PROCEDURE's
    TRANSFORM FOR TYPE (``for type {t:i}``; also after a comma, ``, for type {t:i}``)."""
    head = _statement(head)
    routine = head[:1] == ["create"] and bool(_ROUTINES & set(head))
    return routine and (prior, last) == ("for", "type")


# CREATE/ALTER ROLE (USER, GROUP) take attributes as words, and PostgreSQL reads a quoted name
# there as the word: create role r with {k:i} login with k = "superuser" made a superuser.
# A ':i' field there may only be a role's (or database's) name: after these tokens.
_ROLE_KINDS = frozenset(("role", "user", "group"))
_ROLE_NAMED_AFTER = frozenset(("role", "user", "group", "admin", ",", "to", "database", "="))
_ROLE_ATTRIBUTE = (
    "stands where CREATE/ALTER ROLE takes an attribute, and PostgreSQL reads a quoted name "
    "there as the attribute: create role r with \"superuser\" made a superuser, so the "
    "value would choose the role's privileges",
    "Write the attributes in the static text (SUPERUSER, CREATEDB, LOGIN...); to choose "
    "among known ones, pick an i'...' fragment in Python and compose it with ':q'",
)


# DuckDB looks a function up in the schemas before its own: create macro "lower"(x) as 42 made
# every later lower('A') on the database return 42 (stored with it, in a file for every
# connection), so the name of a macro DuckDB creates is the static text's.
_MACRO_NAMED = (
    "names the macro (function) DuckDB creates, and DuckDB finds a macro before its own "
    "functions: create macro \"lower\"(x) as 42 made every later lower('A') return 42",
    "Write the macro's name in the static text; to choose among known names, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)


def _names_macro(statement: list[str], before: str) -> bool:
    """Whether a ':i' or ':l' field after the token ``before`` (or after the dotted name it
    starts) is the name CREATE MACRO/FUNCTION gives (create or replace temp macro s.{m:i} (x))."""
    return statement[:1] == ["create"] and before in ("macro", "function")


# PostgreSQL calls the best match among the functions of every schema on the search path,
# pg_catalog's included, and an exact match beats one that needs a cast (CVE-2018-1058):
# create function "concat"(a text, b text) made every later concat('a', 'b') return its body,
# as did a function renamed to "concat" and create aggregate "count"(text) for count(x).
_ROUTINE_KINDS = frozenset(("function", "procedure", "aggregate", "routine"))
_ROUTINE_NAMED = (
    "names the function PostgreSQL creates or renames, and PostgreSQL calls the best match of "
    "every schema on the search path, its own functions' too: create function \"concat\"(a "
    "text, b text) made every later concat('a', 'b') run it instead",
    "Write the function's name in the static text; to choose among known names, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)


def _alters_type(statement: list[str], before: str) -> bool:
    """Whether a ':i' field after the token ``before``, or after the dotted name it starts,
    is the type PostgreSQL's ALTER TYPE (DOMAIN) changes."""
    kind = next((word for word in statement[1:] if word not in _CREATE_MODIFIERS), "")
    return statement[:1] == ["alter"] and kind in _ALTERED_TYPE_KINDS and before == kind


def _alters_routine(statement: list[str], before: str) -> bool:
    """Whether a ':i' field after the token ``before``, or after the dotted name it starts,
    is the routine PostgreSQL's ALTER FUNCTION (PROCEDURE, AGGREGATE, ROUTINE) changes."""
    kind = next((word for word in statement[1:] if word not in _CREATE_MODIFIERS), "")
    return statement[:1] == ["alter"] and kind in _ROUTINE_KINDS and before == kind


def _names_routine(statement: list[str], before: str, prior: str) -> bool:
    """Whether a ':i' field after the token ``before`` (``prior`` before it), or after the
    dotted name it starts, is the name PostgreSQL's CREATE FUNCTION, PROCEDURE or AGGREGATE
    gives, or the new name of ALTER FUNCTION (PROCEDURE, AGGREGATE, ROUTINE) ... RENAME TO."""
    kind = next((word for word in statement[1:] if word not in _CREATE_MODIFIERS), "")
    if statement[:1] == ["create"]:
        return kind in _ROUTINE_KINDS and before == kind
    return (
        statement[:1] == ["alter"]
        and kind in _ROUTINE_KINDS
        and (prior, before) == ("rename", "to")
    )


# GRANT/REVOKE ... ON PARAMETER {p:i} (PostgreSQL 15) names the setting a role may then set:
# grant set on parameter "session_preload_libraries" to bob let bob make the server load a
# library of his choice at his next login.  And ON FUNCTION / PROCEDURE / ROUTINE {f:i} names
# the routine a role may then run: the catalog's pg_read_file, lo_export... run for superusers
# only, and grant execute on function "pg_read_file" (text) to bob let bob read server files.
_GRANTED_FUNCTION = (
    "names the function GRANT or REVOKE gives or takes EXECUTE on, so its value chooses "
    "which, and PostgreSQL's catalog holds functions only superusers may run: grant execute "
    "on function \"pg_read_file\" (text) to bob let bob read the server's files",
    "Write the function's name in the static text; to choose among known functions, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
_GRANTED_SETTING = (
    "names the setting GRANT or REVOKE gives or takes the right to set, so its value chooses "
    "which: grant set on parameter \"session_preload_libraries\" to bob let bob make the "
    "server load a library of his choice at his next login",
    "Write the setting's name in the static text",
)
# ALTER FUNCTION (PROCEDURE, ROUTINE, AGGREGATE) {f:i} changes the catalog's routines as
# well: alter function "pg_read_file" (text) owner to carol let carol read the server's files
# (an owner may run it), and "lo_export" write them.
_ALTERED_ROUTINE = (
    "names the function ALTER changes (its owner, security, settings, name), and "
    "PostgreSQL's catalog holds functions only superusers may run: alter function "
    "\"pg_read_file\" (text) owner to carol let carol read the server's files",
    _GRANTED_FUNCTION[1],
)
_GRANTED_NAMES = {
    "parameter": _GRANTED_SETTING,
    "function": _GRANTED_FUNCTION,
    "procedure": _GRANTED_FUNCTION,
    "routine": _GRANTED_FUNCTION,
}


# CREATE POLICY ... AS PERMISSIVE | RESTRICTIVE takes the word as a name, so a quoted one is
# read as the word: as "permissive" made a policy the text meant to narrow the rows widen them.
_POLICY_KIND = (
    "stands where CREATE POLICY takes PERMISSIVE or RESTRICTIVE, and PostgreSQL reads a quoted "
    "name there as the word: as \"permissive\" let a role read the rows the policy's "
    "expression allows besides those the other policies allow, where \"restrictive\" "
    "would have required both",
    "Write PERMISSIVE or RESTRICTIVE in the static text; to choose between them, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)

# VACUUM, ANALYZE, CLUSTER and REINDEX (...) take PostgreSQL's utility options, read by name as
# EXPLAIN's are: vacuum ("full") t rewrote the table under an exclusive lock (its file changed),
# where the text wrote a plain VACUUM (the eighteenth pass).
_UTILITY_STATEMENTS = frozenset(("vacuum", "analyze", "analyse", "cluster", "reindex"))
_UTILITY_OPTION = (
    "names an option of VACUUM, ANALYZE, CLUSTER or REINDEX (...), so its value chooses what "
    "the statement does: vacuum (\"full\") t rewrote the table under an exclusive lock, where "
    "the text wrote a plain VACUUM",
    "Write the option's name in the static text; to choose among known options, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
# DuckDB's EXPORT DATABASE (...) takes COPY's options for each table's file.  One option's
# name may be a value (the eleventh pass: "overwrite" alone replaced only the files EXPORT
# writes), but not beside an option that writes a directory per table, or another value's:
# export database 'out' (per_thread_output true, "overwrite" true) deleted a file already in
# out/t.csv/.  Beside a field, only _EXPORT_CONTENT_OPTIONS (the files' content) are accepted.
_EXPORT_OPTION = (
    "names an option of EXPORT DATABASE (...) beside an option that writes a directory per "
    "table or another option named by a value, so the values choose what EXPORT does: "
    "export database 'out' (per_thread_output true, \"overwrite\" true) deleted a file "
    "already in out/t.csv/",
    "Write the options' names in the static text; to choose among known options, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)
_OPTIONS = {
    "attach": _ATTACH_OPTION,
    "explain": _EXPLAIN_OPTION,
    "copy": _COPY_OPTION,
    "utility": _UTILITY_OPTION,
}
# (the options EXPORT DATABASE accepts beside one a value names: see _EXPORT_OPTION)
_EXPORT_CONTENT_OPTIONS = frozenset(
    ("format", "header", "delimiter", "delim", "sep", "quote", "escape", "nullstr",
     "compression", "codec", "dateformat", "timestampformat", "force_quote", "array",
     "row_group_size")
)  # fmt: skip
# PostgreSQL's storage parameters and the like, WITH (...), SET (...) and RESET (...) of CREATE
# and ALTER (tables, views, indexes, materialized views, tablespaces, subscriptions,
# publications, a column's options, a type's or an operator's properties): the option's name
# says what the value does, and a view's security_invoker says whose rights read its tables:
# alter view v reset ("security_invoker") let a role granted only the view read the table
# behind it (the eighteenth pass).  (UPDATE's and MERGE's SET (a, b) = ... name columns.)
_STORAGE_OPTION_LISTS = frozenset(("with", "set", "reset"))
_STORAGE_OPTION = (
    "names an option in WITH (...), SET (...) or RESET (...) of CREATE or ALTER, so its value "
    "chooses what the option is: alter view v reset (\"security_invoker\") made the view read "
    "its table with its owner's rights, and a role granted only the view read the table",
    "Write the option's name in the static text; to choose among known options, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)


def _storage_option(statement: list[str], calls: list[str], last: str) -> bool:
    """Whether a field after the token ``last`` stands where CREATE or ALTER takes an option's
    name in ``WITH (...)``, ``SET (...)`` or ``RESET (...)`` (``toast.{k:i}`` too)."""
    return (
        statement[:1] in (["create"], ["alter"])
        and "rule" not in statement[1:4]  # create rule ... do update t set (a) = ...
        and len(calls) == 1
        and calls[0] in _STORAGE_OPTION_LISTS
        and last in ("(", ",", ".")
    )


# CREATE DATABASE takes its options as words, and PostgreSQL reads a quoted name there as the
# option: create database d with "owner" = "pg_read_all_data" made a member of that read-only
# role the database's owner, and it dropped the database (the eighteenth pass; the seventeenth
# refused the role after a written OWNER).  A ':i' field there may be the database's name, or
# a value after an option's name or '='.
_DATABASE_VALUE_AFTER = frozenset(
    ("database", "=", "owner", "template", "tablespace", "encoding", "locale", "lc_collate",
     "lc_ctype", "icu_locale", "icu_rules", "builtin_locale", "locale_provider",
     "collation_version", "strategy", "allow_connections", "is_template", "oid", "limit",
     "location")
)  # fmt: skip
_DATABASE_OPTION = (
    "stands where CREATE DATABASE takes an option's name, and PostgreSQL reads a quoted name "
    "there as the option: create database d with \"owner\" = \"pg_read_all_data\" gave the "
    "database to every member of that read-only role (one dropped it)",
    "Write the option's name in the static text (OWNER, TEMPLATE, ENCODING...); to choose "
    "among known options, pick an i'...' fragment in Python and compose it with ':q'",
)


def _copy_options(statement: list[str]) -> bool:
    """Whether a parenthesis opened now, outside any other, holds COPY's options: after its
    TO or FROM (copy t to 'f' (...), copy t from 'f' with (...)), not its columns."""
    return statement[:1] == ["copy"] and ("to" in statement or "from" in statement)


def _role_attribute(head: list[str], before: str) -> bool:
    """Whether a ':i' field after the token ``before`` in CREATE/ALTER ROLE, USER or GROUP
    stands where an attribute may (``with {k:i}``, ``r {k:i}``, ``login {k:i}``) rather than
    a role's name (``create role {r:i}``, ``in role {r:i}``, ``admin {r:i}``)."""
    return (
        head[:1] in (["create"], ["alter"])
        and head[1:2] != []
        and head[1] in _ROLE_KINDS
        and head[2:3] != ["mapping"]  # CREATE USER MAPPING FOR {u:i} SERVER {s:i}
        and before not in _ROLE_NAMED_AFTER
    )


# The words before ATTACH's path, which may be an expression in parentheses: attach (?) as d.
_ATTACH_PATH_AFTER = frozenset(("attach", "database", "exists"))
_CODE_SETTING_CALL = "\0set_config"  # a set_config() call whose setting names code
_UNLISTED_SETTING_CALL = "\0set_config unlisted"  # of a setting not on the data list
_ROLE_SETTING_CALL = "\0set_config role"  # set_config('role', ...), which reads "none"
# The settings set_config() takes a value of that PostgreSQL reads further, by the check of
# the value at render time (_Places.roles): 'role' reads 'none' as NONE.  Only a field that is
# the whole value argument is checked; one inside an expression there is refused
# (lower('NONE') is 'none').  ('search_path', which PostgreSQL reads as a list of schemas, is
# off the settings' allow-list since the twenty-seventh pass: even one schema ran its
# lower(varchar) for a later lower(v).)
_CHECKED_SETTINGS = {"'role'": _ROLE_SETTING_CALL}
_CHECKED_VALUES = {_ROLE_SETTING_CALL: "none"}
_SETTING_VALUE_PART = (
    "is part of an expression that gives set_config() the value of 'role', which PostgreSQL "
    "reads further and sql() checks only as the whole argument: "
    "set_config('role', lower({r}), false) with 'NONE' set the role NONE, back to the "
    "connection's login role",
    "Pass the whole value as the field (compute it in Python): set_config('role', {r}, false)",
)


# postgres_fdw and dblink_fdw pass a server's and a user mapping's sslkey option to libpq, which
# reads a value with ':' as <engine>:<key>, an OpenSSL engine it loads, a shared library by its
# path: a user mapping's sslkey '/tmp/x.so:k' (with an sslcert) ran the library's constructor
# in the server when the foreign table was read (the seventeenth pass).  Where the option is
# written in the text, its value may be a key's path, with no ':'.
_SSLKEY_OPTION = "\0sslkey"  # a _Places.roles value: the field is OPTIONS' sslkey value
_SSLKEY_ENGINE = (
    "is the value of the sslkey option, which libpq (postgres_fdw's, dblink's) reads as "
    "<engine>:<key> when it holds a ':', and loads that OpenSSL engine, a shared library by its "
    "path: sslkey '/tmp/x.so:k' ran that library's code on the server",
    "Pass the path of a key file as a str with no ':' (check it against the paths you allow), "
    "or write the option's value in the static text",
)


# DuckDB reads ATTACH's path 'name:rest' as TYPE name (ExtractExtensionPrefixFromPath: two or
# more letters, digits or '_' before the first ':', not '://'), and loads the extension of that
# name from its extension directory, as (TYPE name) and LOAD do: attach 'evil:x.db' opened
# evil.duckdb_extension there (its own error said it read the file as one; the nineteenth
# pass).  A value in the path (also a part of it: 'ev' || ':x.db') may hold a ':' only as a
# URL's 's3://'.
_ATTACH_PATH = "\0attach path"  # a _Places.roles value: the field starts DuckDB ATTACH's path
_ATTACH_PATH_PART = "\0attach path part"  # or stands later in it: attach 'ev' || {p}
_ATTACH_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^:]*")
_ATTACH_PREFIX = (
    "is in the path of ATTACH, and DuckDB reads a path 'name:...' as TYPE name, an extension "
    "it loads from its extension directory (native code): attach 'evil:x.db' loaded "
    "evil.duckdb_extension",
    "Pass a path as a str with no ':' (a URL 'scheme://...' is fine); to attach through an "
    "extension, write its prefix or its TYPE in the static text",
)
# DuckDB writes a persistent secret to <secret_directory>/<name>.duckdb_secret, and 1.x does
# not escape the name: create persistent secret "../escaped" wrote escaped.duckdb_secret in
# the directory above (2.0 escapes '/' and '.').  A name with no separator stays one file there.
_SECRET_NAME = "\0secret name"  # a _Places.roles value: the name CREATE/DROP SECRET gives
_SECRET_PATH = (
    "names a DuckDB secret, and DuckDB 1.x writes a persistent secret to the file "
    "<secret directory>/<name>.duckdb_secret without escaping the name: create persistent "
    'secret "../escaped" wrote its file outside the secret directory',
    "Pass a name with no '/' or '\\'",
)


def _names_a_secret(statement: list[str], before: str) -> bool:
    """Whether a name after the token ``before`` is the secret's name in CREATE [OR REPLACE]
    [PERSISTENT] SECRET [IF NOT EXISTS] (the '(' after it opens the secret's options, not a
    call).  (DROP finds a secret DuckDB holds, by its name: drop persistent secret
    "../victim" removed no file.)"""
    return statement[:1] == ["create"] and "secret" in statement and before in ("secret", "exists")


def _secret_name_refusal(value: object) -> tuple[str, str] | None:
    """Why ``value`` may not name a DuckDB secret: a part of it holds a path separator."""
    for name in _names_of(value):
        if isinstance(name, str) and ("/" in name or "\\" in name):
            return _SECRET_PATH
    return None


def _attach_path_refusal(value: object, start: bool) -> tuple[str, str] | None:
    """Why ``value`` may not stand in DuckDB ATTACH's path (``start``: at its start): no str,
    or a ':' that may make the path's prefix an extension's name (a URL's '://' does not, nor
    one of the path's first two characters: ':memory:', 'C:\\')."""
    if not isinstance(value, str):
        return _ATTACH_PREFIX
    path = str.__str__(value)  # a str subclass's own methods never decide
    colon = path.find(":")
    if colon < 0 or (start and colon < 2) or _ATTACH_URL.fullmatch(path):
        return None
    return _ATTACH_PREFIX


def _sslkey_refusal(value: object) -> tuple[str, str] | None:
    """Why ``value`` may not be the sslkey option's value: no str, or an engine's (':')."""
    if not isinstance(value, str) or ":" in str.__str__(value):
        return _SSLKEY_ENGINE
    return None


# PRAGMA name(...) calls a pragma function, and DuckDB's run code (import_database,
# json_execute_serialized_sql): an argument is a value only in those known to read it as data,
# a table's name or a count (an allow-list; a pragma's setting, 'pragma k = v', is read above).
_DATA_PRAGMAS = frozenset(
    ("table_info", "table_xinfo", "index_info", "index_xinfo", "index_list",
     "foreign_key_list", "foreign_key_check", "integrity_check", "quick_check", "table_list",
     "incremental_vacuum", "wal_checkpoint", "optimize", "storage_info", "show")
)  # fmt: skip
_PRAGMA_UNKNOWN = (
    "a pragma function not known to take its argument as data (DuckDB's import_database and "
    "json_execute_serialized_sql run SQL)"
)
_PRAGMA_FIX = (
    "Write the argument in the static text; for a setting write pragma name = {v:l}; or use "
    "a pragma that reads data (table_info, index_list, storage_info...)"
)
# A query that calls a function running a string as SQL takes no field anywhere: the value
# of any field may reach that string through a subquery, a CTE, a join or a variable
# (query_to_xml(q, ...) from (select {x} as q) s ran the value as SQL on PostgreSQL; DuckDB's
# set variable q = {x:l}; from query(getvariable('q')) did the same).
_RUNS_CODE_FIX = (
    "Run that call in a query of its own whose SQL is all in the static text (or composed "
    "from fixed i'...' fragments with ':q'), and pass no value to it"
)
_UNNAMED_SETTING = (
    "with a setting that is not one plain '...' string written in the text, so a value may "
    "choose it or the check cannot read it (the libraries and commands the server loads among "
    "them)"
)


def _runs_code(does: str) -> tuple[str, str]:
    """The refusal of every field of a query that ``does`` something with code."""
    return (
        f"is in a query that {does}: a value anywhere in the query may reach it (through a "
        "subquery, a CTE, a join or a variable)",
        _RUNS_CODE_FIX,
    )


def _sets_code(head: list[str], after_set: list[str] | None) -> bool:
    """Whether the statement ``head`` begins (its last SET ``after_set``) sets where code is
    loaded from."""
    head = _statement(head)
    statement = head[0] if head else ""
    return _code_setting(_setting_name(_setting(head, statement, after_set) or []))


# Where SET or RESET names a setting: SET, RESET, ALTER ... SET and a routine's SET clause.
_SETTING_STATEMENTS = frozenset(("set", "reset", "alter"))
_SETTING_WORDS = 8  # the words read after SET: the setting's (dotted) name and a few more


def _names_settings(head: list[str], routine: bool) -> bool:
    """Whether a SET or RESET word in the statement ``head`` begins names a setting."""
    statement = _statement(head)
    return routine or (statement[:1] != [] and statement[0] in _SETTING_STATEMENTS)


def _creates_index(head: list[str]) -> bool:
    """Whether the statement ``head`` begins is CREATE [UNIQUE] INDEX, whose ON names the
    table indexed (not a function called)."""
    statement = _statement(head)
    return statement[:1] == ["create"] and "index" in statement[1:3]


# Statements whose every name before '(' at their top level is a table and its column list,
# never a call (their grammar has no expression there): VACUUM and ANALYZE's table_and_columns
# (PostgreSQL, DuckDB: vacuum (analyze) t (c), u (d)), and CREATE/ALTER PUBLICATION's
# FOR TABLE t (c), u (d) (its WHERE (...) is inside parentheses).  Each engine took the name
# as a table there: analyze "query_to_xml" (c) said relation "query_to_xml" does not exist.
_COLUMN_LISTS = frozenset(("vacuum", "analyze", "analyse"))


def _lists_columns(head: list[str], calls: list[str], before: str, prior: str) -> bool:
    """Whether a name after the token ``before`` (``prior`` before it), followed by '(' at
    the level ``calls`` says, is a relation with its column list rather than
    the function called: in VACUUM, ANALYZE, CREATE/ALTER PUBLICATION, CREATE INDEX ... ON
    [ONLY] and CREATE TABLE ... [PARTITION] OF."""
    if calls:
        return False
    if head[:1] != [] and head[0] in _COLUMN_LISTS:  # not EXPLAIN ANALYZE: it starts "explain"
        return True
    statement = _statement(head)
    if statement[:1] in (["create"], ["alter"]) and statement[1:2] == ["publication"]:
        return True
    if before == "of" and statement[:1] == ["create"] and statement[-1:] == ["of"]:
        # create table t partition of {p:i} (...), create table t of {type:i} (...): "of" is
        # the last word of the statement's head (not after AS: no query's "of" either)
        return "table" in statement[1:5] and "as" not in statement
    return (before == "on" or (prior, before) == ("on", "only")) and _creates_index(head)


# UPDATE pg_settings SET setting = ... WHERE name = ... is SET: the view's rule calls
# set_config() for each row it changes (update pg_settings set setting = {v} where name = {k}
# set dynamic_library_path), so it is read as set_config() with an unwritten setting.
_UPDATES_SETTINGS = (
    "updates pg_settings, whose rule calls set_config() for each row: it sets the settings "
    "the rows name (the libraries and commands the server loads among them)"
)
_UPDATED_SETTINGS = (
    "names the table UPDATE changes, and PostgreSQL's view pg_settings turns an update into "
    "set_config(): the value would choose to change settings (the libraries and commands the "
    "server loads among them)",
    "Pass another table's name; to change a setting, write SET name = {v:l}",
)


def _updates_settings(token: str, chain_before: str, chain_prior: str) -> bool:
    """Whether the name ``token`` (``MARKER`` for a field) is UPDATE's table and may be
    pg_settings: ``update [only] [pg_catalog.]pg_settings``, or a U&"..." name there."""
    target = chain_before == "update" or (chain_before == "only" and chain_prior == "update")
    return target and token in ("pg_settings", _UNREADABLE, MARKER)


def _shown(name: str) -> str:
    return 'U&"..."' if name == _UNREADABLE else name


# PostgreSQL reads a role written "public" as PUBLIC, every role (no role may be named so):
# grant select on secrets to "public" let any role read the table.  Where it reads a role
# being granted something (GRANT ... TO, REVOKE ... FROM, also in ALTER DEFAULT PRIVILEGES,
# CREATE/ALTER POLICY ... TO, CREATE/ALTER/DROP USER MAPPING FOR), a ':i' "public" is refused.
_PUBLIC_ROLE = (
    "names the role PostgreSQL grants to, and it reads \"public\" there as PUBLIC, every "
    "role: grant select on t to \"public\" let any role read the table",
    "Pass the name of one role; to grant to PUBLIC, write PUBLIC in the static text",
)
# SET ROLE reads "none" as NONE: back to the session user, the role the connection logged in
# as, which a connection that SET ROLE to a tenant's role meant to leave (set role "none" made
# the query run as the superuser that had set role "tenant").
_NO_ROLE = (
    "names the role SET ROLE takes, and PostgreSQL reads \"none\" there as NONE: back to the "
    "role the connection logged in as (set role \"none\" left the role set before, for the "
    "login's own privileges)",
    "Pass the name of one role; to go back to the login's role, write RESET ROLE in the "
    "static text",
)
_NO_ROLE_VALUE = (
    "is the role set_config('role', ...) or SET ROLE takes, and PostgreSQL reads the string "
    "'none' there as NONE: back to the role the connection logged in as (set_config('role', "
    "'none', false) left the role set before, for the login's own privileges)",
    _NO_ROLE[1],
)


def _sets_role(after_set: list[str] | None) -> bool:
    """Whether a field after these words (those after SET) is the value of the setting role:
    set role {r:i}, set local role = {r:i}, alter role r set role to {r:i}."""
    return (
        after_set is not None
        and _setting_name(after_set) == "role"
        and not _names_in_progress(after_set)
    )


_GRANTS = frozenset(("grant", "revoke"))
_POLICY_ROLES_END = frozenset(("using", "with"))
_DEFAULT_PRIVILEGES = ["alter", "default", "privileges"]


def _grantees(statement: list[str], token: str, grantees: bool) -> bool:
    """Whether the roles granted to follow, after this top-level word of the statement."""
    if (statement[:1] and statement[0] in _GRANTS) or statement[:3] == _DEFAULT_PRIVILEGES:
        # alter default privileges ... grant ... to {r:i}: every future table's grant
        return grantees or token in ("to", "from")
    if statement[:2] in (["create", "policy"], ["alter", "policy"]):
        return token == "to" or (grantees and token not in _POLICY_ROLES_END)
    return False


# PostgreSQL reserves role names starting with "pg_" for its predefined roles, and several of
# them reach the server's shell and files: grant "pg_execute_server_program" to alice let
# alice run COPY ... PROGRAM.  No role of the application's may be named so, so a value naming
# one where a role goes is refused (where PostgreSQL grants, joins or sets it).
_RESERVED_ROLE = (
    "names a role, and PostgreSQL reserves the names starting with 'pg_' for its predefined "
    "roles, some of which reach the server's shell and files: grant "
    "\"pg_execute_server_program\" to alice let alice run shell commands (COPY ... PROGRAM)",
    "Pass the name of one of your roles (check it against the ones you allow); to grant a "
    "predefined role, write its name in the static text",
)
# The words after which CREATE/ALTER ROLE (USER, GROUP) names a role, not a database or a value.
_ROLE_LISTED_AFTER = _ROLE_NAMED_AFTER - {"database", "="}


def _names_joined_role(
    statement: list[str], before: str, grantees: bool, after_set: list[str] | None
) -> bool:
    """Whether a field after the token ``before`` names a role granted or joined (not the
    grantees, read by ``_grantees``): ``grant {r:i} to u``, ``revoke {r:i} from u`` (no ON:
    then it names privileges), and in CREATE/ALTER ROLE (USER, GROUP) the role itself and those
    of ``in role {r:i}``, ``role {r:i}``, ``admin {r:i}``, ``alter group {g:i} add user u``."""
    if statement[:1] != [] and statement[0] in _GRANTS:
        return not grantees and "on" not in statement
    return (
        statement[:1] in (["create"], ["alter"])
        and statement[1:2] != []
        and statement[1] in _ROLE_KINDS
        and statement[2:3] != ["mapping"]
        and after_set is None
        and before in _ROLE_LISTED_AFTER
    )


def _names_owner(statement: list[str], last: str, prior: str) -> bool:
    """Whether a field after the tokens ``prior last`` names the role an object is given to
    (its owner): ``alter ... owner to {r:i}``, ``create schema ... authorization {r:i}``,
    ``create database d owner [=] {r:i}``, ``reassign owned by a to {r:i}``.  A predefined
    role there hands the object to its members: alter table t owner to "pg_read_all_data" let
    a member of that read-only role delete the rows and drop the table (the seventeenth
    pass)."""
    if (prior, last) == ("owner", "to") or last == "authorization":
        return True
    if statement[:2] in (["create", "database"], ["create", "tablespace"]):
        return last == "owner" or (prior, last) == ("owner", "=")
    return statement[:2] == ["reassign", "owned"] and last == "to"


def _role_refusal(value: object, role: str, spec: str) -> tuple[str, str] | None:
    """Why ``value`` may not be the role of a field whose role is ``role`` ("public" where
    PostgreSQL grants to, "none" where SET ROLE reads NONE, "role" elsewhere), compared as the
    name it writes: ``("public",)`` is written "public" too."""
    names = _names_of(value)
    name = names[0] if len(names) == 1 else None
    if not isinstance(name, str):
        return None
    if name.startswith("pg_"):
        return _RESERVED_ROLE
    if name != role:
        return None
    return _PUBLIC_ROLE if role == "public" else _NO_ROLE if spec == "i" else _NO_ROLE_VALUE


def _maps_user(head: list[str], before: str) -> bool:
    """Whether a field after ``before`` is the role of CREATE/ALTER/DROP USER MAPPING FOR."""
    return before == "for" and _statement(head)[1:3] == ["user", "mapping"]


class _Places(NamedTuple):
    """What the whole query says about each of its leaf fields."""

    refused: tuple[tuple[str, str] | None, ...]  # (why, fix), whatever the value
    tables: tuple[bool, ...]  # a table DuckDB reads: a ':i' value there must be plain
    # a table these read: not one of their own (and _WRITTEN: one the statement writes;
    # _ALTERED_TYPE: the type ALTER TYPE changes, not a built-in one; _INTO_SCHEMA: the
    # schema an object goes into, and _CREATED_IN: the name CREATE gives, whose schema is
    # not one of PostgreSQL's own)
    internal: tuple[tuple[str, ...], ...]
    updated: tuple[bool, ...]  # the table PostgreSQL's UPDATE changes: not pg_settings
    # a role where PostgreSQL reads a keyword too: the ':i' value refused there ("public"
    # after GRANT ... TO, "none" after SET ROLE), _SSLKEY_OPTION for OPTIONS' sslkey value
    # (no engine), or ""
    roles: tuple[str, ...]
    # the name of a relation or type a CREATE makes: "temp" (a TEMP one), "created" (another,
    # which a value qualified with pg_temp puts there too), or ""
    created: tuple[str, ...]
    # a column's name in a statement whose FROM calls a function (PostgreSQL): a ':i' tuple
    # value there writes alias.name, which may be the call name(alias)
    aliased: tuple[bool, ...]
    clear: bool  # none of these: nothing to check at render time


@lru_cache(maxsize=512)
def _composed(
    strings: tuple[str, ...], specs: tuple[str, ...], paramstyle: str, dialect: str | None
) -> _Places:
    """Per field of the whole query (its ':q' fragments composed in): ``(why, fix)`` when the
    database would run its value as code, call the function it names or change the setting
    it names, or reads it inside a token once the fragments touch the text around them
    (E'a' in a fragment, '\\' {x} ' after it on a new line), else ``None``; and whether it
    names a table DuckDB may read as a file, or the table PostgreSQL's UPDATE changes.
    ``specs`` are the fields' specs: a ':in' list and a negative ':l' number are written in
    parentheses, so after a name they call it.
    """
    text = MARKER.join(strings)
    members = dialects(dialect, paramstyle)
    count = len(strings) - 1
    found: list[tuple[str, str] | None] = [None] * count
    tables = [False] * count
    internal: list[tuple[str, ...]] = [()] * count
    updated = [False] * count
    roles = [""] * count
    created = [""] * count
    aliased = [False] * count
    for d in members:
        read, problem = _read(strings, d)
        # a fragment's string with a yen sign: PostgreSQL may read the fields after it inside
        yen = problem is not None and problem[1:] == _BACKSLASH_BYTE_STATIC
        for n, where in enumerate(read[:count]):
            found[n] = found[n] or where or (_BACKSLASH_BYTE_COMPOSED if yen else None)
        head: list[str] = []  # the statement's first words (outside parentheses)
        previous = ""  # the previous token's name, if it was a word or identifier
        last = ""  # the previous token: its name, or its text
        chain_before = ""  # the token before the current chain of dotted names
        chain_prior = ""  # and the one before that: execute function {f:i} ()
        prior = ""  # the token before the previous one
        calls: list[str] = []  # per open parenthesis, the name called ('' for none)
        clauses: list[str] = [""]  # per parenthesis level, the clause keyword last seen
        routine_body = False  # after AS in CREATE FUNCTION/PROCEDURE/MACRO
        field = 0
        # the last ':i' field: its chain_before and chain_prior, and whether a dot precedes it
        # and whether it starts the name CREATE gives (create type {s:i}.mood)
        pending: tuple[int, str, str, bool, bool] | None = None
        last_named = False  # the previous token was a word, an identifier or a field
        taint = ""  # what the query does with code, which a value anywhere may reach
        config_named = False  # the last token was set_config()'s written setting name
        whole: int | None = None  # the field set_config()'s checked value must be all of
        # the words after the statement's last SET or RESET that names a setting (SET, ALTER
        # ... SET, CREATE FUNCTION ... SET: ALTER FUNCTION takes several, after any number of
        # other words), or None
        after_set: list[str] | None = None
        atomic = False  # in its BEGIN ATOMIC body, where SET is an UPDATE's
        attach_type: int | None = None  # the depth of ATTACH's (TYPE ...) while in its value
        # in ATTACH's (option value, ...) or EXPLAIN's (option, ...): which, or None
        options: str | None = None
        grantees = False  # after GRANT's TO, REVOKE's FROM, CREATE/ALTER POLICY's TO
        granted_on = ""  # the kind of object GRANT/REVOKE ... ON names (table, function...)
        postgresql = d.name.startswith("postgresql")
        # The statement's ':i' fields after a dot (alias.{c:i}), those where a tuple value
        # would write one (select {c:i}), and whether its FROM calls a function (PostgreSQL):
        # then alias.name may be the call name(alias).
        qualified: list[tuple[int, str | None]] = []  # and the name before the dot
        columns: list[int] = []
        from_calls = False
        rows = _TableRows()  # the names of its tables' rows in FROM
        # Whether the current dotted name is a relation the statement reads or writes (as
        # _names_a_table), and the last one's, at the top level, with only commas after it:
        # then the next name is one too (drop table a, {t:i}; grant select on a, {t:i} to r).
        relation = listing = ""
        # per open parenthesis, whether it is a DuckDB table function's in FROM (read_csv(...)),
        # and the field that may name one of its options (read_csv({p}, {k:i} = true))
        table_calls: list[bool] = []
        option_named: int | None = None
        rejects = _RejectsValue()  # read_csv(p, rejects_table = {r}): a temporary table
        # EXPORT DATABASE's option names: the fields, and the names written in the text
        export_fields: list[int] = []
        export_written: list[str] = []
        # CREATE CAST's fields, and its top-level words from CAST on
        cast_fields: list[int] = []
        cast_words: list[str] = []
        for kind, start, end in tokens(text, d):
            if kind != "field":
                field += text.count(MARKER, start, end)  # refused above
            if kind in ("line_comment", "block_comment"):
                continue
            if kind in ("word", "identifier"):
                token = _name(text[start:end], kind)
            else:
                token = MARKER if kind == "field" else text[start:end]
            if option_named is not None and token in _OPTION_VALUE_AFTER:
                found[option_named] = found[option_named] or _TABLE_FUNCTION_OPTION
            option_named = None
            in_options = d.name == "duckdb" and (table_calls[-1:] == [True] or options == "copy")
            unended = rejects.see(token, len(calls), in_options)
            if unended is not None:
                found[unended] = found[unended] or _REJECTS_PART  # concat({r}, '')
            if whole is not None and token not in (",", ")"):
                found[whole] = found[whole] or _SETTING_VALUE_PART  # set_config(k, {v} || 'x')
            whole = None
            if config_named and token != ",":  # set_config('dynamic_' || 'library_path', ...)
                taint = taint or "calls set_config() " + _UNNAMED_SETTING
            config_named = False
            if last == "(" and calls[-1:] == ["set_config"]:  # its first argument
                if kind != "string" or text[start] != "'":  # not a plain '...' (U&'\0064...')
                    taint = taint or "calls set_config() " + _UNNAMED_SETTING
                elif _code_setting(text[start:end].lower()):
                    calls[-1] = _CODE_SETTING_CALL
                    taint = taint or "calls set_config() " + _SETTING_CODE
                elif not data_setting(text[start + 1 : end - 1].lower(), pragma=False):
                    calls[-1] = _UNLISTED_SETTING_CALL  # set_config('search_path', {s}, ...)
                elif text[start:end].lower() in _CHECKED_SETTINGS:
                    # set_config('role', {r}, ...): not "none"
                    calls[-1] = _CHECKED_SETTINGS[text[start:end].lower()]
                config_named = True  # and it must be the whole argument
            named = kind in ("word", "identifier", "field")
            opens = token == "(" or (kind == "field" and specs[field] in ("in", "l"))
            if postgresql and not from_calls:
                # (before the chain moves on: a call's own chain is the function's name)
                from_calls = _calls_in_from(
                    kind, token, opens, last, last_named, chain_before, clauses[-1]
                )
            if named and last != ".":
                listed = listing if last == "," and not calls else ""
                chain_before, chain_prior = last, prior
                if postgresql and last == "only" and _names_a_table(prior, clauses[-1], head):
                    # from only {t:i}, update only {t:i}: PostgreSQL's ONLY (no descendant
                    # tables) is no name, and the table after it is read as after FROM
                    chain_before = prior
                relation = listed or _names_a_table(
                    chain_before, clauses[-1], head, chain_prior, bool(calls)
                )
                listing = "" if calls else relation
            elif token == "." and not last_named:
                # (x).f(), 'a'.f(), [1].f(): DuckDB calls f on what stands before the dot, so
                # a name there starts no chain a declaring word before it could vouch for
                chain_before, chain_prior = last, prior
                relation = listing = ""
            elif not named and token not in (",", "."):
                listing = ""
            if postgresql:
                unread = _unread_row_name(kind, token, specs, field, last, last_named, clauses[-1])
                written = "(" if opens else token  # f {xs:in} calls f, as f (...) does
                rows.see(kind, written, (start, text[start:end]), bool(relation), unread)
            if postgresql and named and _updates_settings(token, chain_before, chain_prior):
                if kind == "field":
                    updated[field] = True  # update {t:i}: the value must not be pg_settings
                else:
                    taint = taint or _UPDATES_SETTINGS
            if pending is not None and opens:
                n, before_chain, prior_chain, dotted, _ = pending
                declares = (
                    (
                        before_chain in _DECLARES
                        and prior_chain != "execute"
                        and not (dotted and before_chain in _TYPES_AFTER and d.name == "duckdb")
                    )
                    or _lists_columns(head, calls, before_chain, prior_chain)
                    or (not calls and _names_a_secret(_statement(head), before_chain))
                )
                if not declares and found[n] in (None, _ATTRIBUTE_CALL):  # f() says more
                    cte = head[:1] == ["with"] and not calls and not clauses[-1]
                    found[n] = _CTE_OR_CALL if cte and before_chain == "," else _CALLED
            if (
                pending is not None
                and token == "."
                and postgresql
                and pending[4]
                and _INTO_SCHEMA not in internal[pending[0]]
            ):  # create type {s:i}.mood: the value is the schema the type is created in
                internal[pending[0]] = (*internal[pending[0]], _INTO_SCHEMA)
            if pending is not None and token == "." and d.name == "duckdb" and tables[pending[0]]:
                found[pending[0]] = found[pending[0]] or _TABLE_FILE  # "s".{x:i} or {x:i}."csv"
            pending = None
            if kind == "field":
                # query {xs:in} is query(?), and load_extension {n:l} with n = -5 is
                # load_extension (-5): the list or the parenthesized number is its argument
                called = [*calls, previous] if specs[field] in ("in", "l") else calls
                dotted_from = chain_before if last == "." else ""
                why = _sink(head, previous, called, routine_body, last, after_set, dotted_from)
                if why is None and attach_type is not None:
                    why = _ATTACH_TYPE, _CODE_FIX
                if (
                    why is None
                    and postgresql
                    and specs[field] == "i"
                    and after_set is None
                    and not calls
                    and _role_attribute(_statement(head), last)
                ):
                    why = _ROLE_ATTRIBUTE  # create role r with {k:i}: "superuser"
                if (
                    why is None
                    and d.name == "duckdb"
                    and specs[field] in ("i", "l")
                    and _names_macro(_statement(head), chain_before)
                ):
                    # create macro {m:i}(x): "lower" replaced lower(); DuckDB takes a string
                    # there as the name too (create macro 'lower' (x) as 42)
                    why = _MACRO_NAMED
                if (
                    why is None
                    and postgresql
                    and specs[field] == "i"
                    and _names_routine(_statement(head), chain_before, chain_prior)
                ):
                    why = _ROUTINE_NAMED  # create function {f:i}(a text, b text): "concat"
                if (
                    why is None
                    and postgresql
                    and specs[field] == "i"
                    and _alters_routine(_statement(head), chain_before)
                ):
                    why = _ALTERED_ROUTINE  # alter function {f:i} (text) owner to carol
                if (
                    why is None
                    and postgresql
                    and _statement(head)[:2] == ["create", "policy"]
                    and last == "as"
                    and not calls
                ):
                    why = _POLICY_KIND  # create policy p on t as {k:i}: "permissive"
                if why is None and postgresql and not grantees and not calls:
                    why = _GRANTED_NAMES.get(granted_on)  # grant set on parameter {p:i}
                if options == "export" and len(calls) == 1 and last in ("(", ","):
                    export_fields.append(field)  # export database p (format csv, {k:i} true)
                elif why is None and options and len(calls) == 1 and last in ("(", ","):
                    # attach p as d ({k:i} ?), explain ({k:i}) delete ...: the option's name
                    why = _OPTIONS[options]
                if (
                    why is None
                    and postgresql
                    and specs[field] == "i"
                    and _storage_option(_statement(head), calls, last)
                ):
                    why = _STORAGE_OPTION  # alter view v reset ({k:i}): "security_invoker"
                if (
                    why is None
                    and postgresql
                    and specs[field] == "i"
                    and not calls
                    and _statement(head)[:2] == ["create", "database"]
                    and last not in _DATABASE_VALUE_AFTER
                ):
                    why = _DATABASE_OPTION  # create database d with {k:i} = ...: "owner"
                if why is None and d.name == "duckdb" and _chooses_function_scope(head, after_set):
                    why = _FUNCTION_SCOPE  # use {db:i}: its macro "lower" replaces lower()
                if (
                    why is None
                    and postgresql
                    and not calls
                    and _names_transition_table(_statement(head), last, prior)
                ):
                    why = _TRANSITION_TABLE  # referencing new table as {n:i}
                if why is None and postgresql and not calls and _transform_type(head, last, prior):
                    why = _TRANSFORM_TYPE  # create function ... transform for type {t:i}
                if why is None and not calls and last == "using" and _creates_index(head):
                    why = _INDEX_METHOD  # create index on t using {am:i} (c)
                if postgresql and _statement(head)[:2] == ["create", "cast"]:
                    cast_fields.append(field)  # create cast ({a:i} as {b:i}) with ...
                if why is None and _fts_option(calls, prior, last) in _FTS_FUNCTIONS:
                    why = _FTS_FUNCTION  # fts4(..., compress={f:i})
                if table_calls[-1:] == [True] and last in ("(", ","):
                    option_named = field  # read_csv({p}, {k:i} = true): if "=" follows
                whole_rejects = rejects.field(field)
                if whole_rejects:
                    created[field] = "temp"  # rejects_table = {r}: as create temp table {t:i}
                elif whole_rejects is False:
                    why = why or _REJECTS_PART  # rejects_table = lower({r})
                if why is None and _sets_unlisted(head, after_set):
                    why = _SETTING_UNLISTED  # set temp_directory = {v}
                # (the allow-list's refusal yields to one another dialect gives that says more)
                if why is not None and (found[field] is None or found[field] in _UNLISTED):
                    found[field] = why
                if (postgresql or d.name == "duckdb") and specs[field] == "i" and not calls:
                    kind = _created(
                        _statement(head), chain_before, chain_prior, last, prior, clauses[-1],
                        d.name == "duckdb",
                    )  # fmt: skip
                    created[field] = max(created[field], kind, key=_CREATED_ORDER.index)
                if (
                    postgresql
                    and specs[field] == "i"
                    and not calls
                    and _names_joined_role(_statement(head), last, grantees, after_set)
                ):
                    roles[field] = "role"  # grant {r:i} to u: not a predefined "pg_*" role
                if (
                    postgresql
                    and specs[field] == "i"
                    and not calls
                    and not roles[field]
                    and _names_owner(_statement(head), last, prior)
                ):
                    roles[field] = "role"  # alter table t owner to {r:i}: not "pg_*" either
                if postgresql and specs[field] == "i" and (grantees or _maps_user(head, last)):
                    roles[field] = "public"  # grant select on t to {r:i}: "public" is PUBLIC
                if postgresql and calls[-1:] == ["options"] and previous == "sslkey":
                    roles[field] = _SSLKEY_OPTION  # options (sslcert '...', sslkey {k:l})
                if (
                    d.name == "duckdb"
                    and _statement(head)[:1] == ["attach"]
                    and "as" not in head
                    and options is None
                ):
                    # attach {p} as d: 'evil:x.db' loads evil; and where the path starts
                    # with the value, a ':' in its first two characters makes no prefix
                    start = last in _ATTACH_PATH_AFTER
                    roles[field] = _ATTACH_PATH if start else _ATTACH_PATH_PART
                if d.name == "duckdb" and not calls and _names_a_secret(_statement(head), last):
                    roles[field] = _SECRET_NAME  # create persistent secret {s:i}: "../x"
                if (
                    postgresql
                    and specs[field] in ("i", "l")
                    and not calls
                    and _sets_role(after_set)
                ):
                    roles[field] = "none"  # set role {r:i}: "none" is NONE, the session user
                checked = next((call for call in calls if call in _CHECKED_VALUES), "")
                if postgresql and checked:
                    if calls[-1] == checked and last == "," and specs[field] in ("", "l"):
                        roles[field] = _CHECKED_VALUES[checked]  # checked at render time
                        whole = field  # if the argument ends after it
                    else:
                        found[field] = found[field] or _SETTING_VALUE_PART
                family = "postgresql" if postgresql else d.name
                if family not in internal[field] and (
                    relation
                    or _fts_option(calls, prior, last) == "content"
                    # alter table t rename to {t:i}: "pragma_table_list" hid SQLite's own
                    or (d.name == "sqlite" and _renames_to(_statement(head), last, prior))
                ):
                    internal[field] = (*internal[field], family)
                if relation == _WRITTEN and _WRITTEN not in internal[field]:
                    internal[field] = (*internal[field], _WRITTEN)
                if (
                    postgresql
                    and _ALTERED_TYPE not in internal[field]
                    and _alters_type(_statement(head), chain_before)
                ):
                    internal[field] = (*internal[field], _ALTERED_TYPE)
                if (
                    postgresql
                    and specs[field] == "i"
                    and not calls
                    and _INTO_SCHEMA not in internal[field]
                    and _moves_to_schema(_statement(head), last, prior)
                ):
                    internal[field] = (*internal[field], _INTO_SCHEMA)  # set schema {s:i}
                if (
                    postgresql
                    and specs[field] == "i"
                    and not calls
                    and last != "."
                    and _CREATED_IN not in internal[field]
                    and _names_created(_statement(head), chain_before)
                ):
                    internal[field] = (*internal[field], _CREATED_IN)  # ("pg_catalog", "t")
                if d.name == "duckdb" and _reads_a_table(chain_before, clauses[-1]):
                    tables[field] = True
                    if last == ".":
                        found[field] = found[field] or _TABLE_FILE
                if last == "." and d.attribute_calls and _indirected(prior, field, specs):
                    found[field] = found[field] or _ATTRIBUTE_CALL  # (x).{f:i} is f(x)
                if specs[field] == "i":  # a name: before "(" it is the function called
                    pending = (
                        field, chain_before, chain_prior, last == ".",
                        last != "." and not calls
                        and _names_created(_statement(head), chain_before),
                    )  # fmt: skip
                    if postgresql and last == ".":
                        qualified.append((field, rows.qualifier))
                    elif postgresql and not (relation or chain_before in _DECLARES):
                        columns.append(field)  # select {c:i}: ("u", "ts_stat") is u.ts_stat
                field += 1
            elif token == ";":
                _refuse_qualified(found, aliased, qualified, columns, from_calls, rows)
                _refuse_export_options(found, export_fields, export_written)
                _refuse_cast_types(found, cast_fields, cast_words)
                export_fields, export_written = [], []
                cast_fields, cast_words = [], []
                qualified, columns, from_calls, rows = [], [], False, _TableRows()
                head, calls, clauses, routine_body, atomic = [], [], [""], False, False
                table_calls = []
                after_set = attach_type = options = None
                grantees, granted_on = False, ""
            elif token == "," and attach_type == len(calls):
                attach_type = None  # (type sqlite, read_only ...): the next option
            elif token == "(":
                if not calls and _statement(head)[:1] == ["attach"]:
                    options = None if last in _ATTACH_PATH_AFTER else "attach"
                elif not calls and head == ["explain"]:
                    options = "explain"
                elif not calls and head == [last] and last in _UTILITY_STATEMENTS:
                    options = "utility"  # vacuum ({k:i}) t: "full", not vacuum {t:i} ({c:i})
                elif not calls and _copy_options(_statement(head)):
                    options = "copy"  # copy t to 'f' ({k:i} true), not copy t ({c:i}) from
                elif not calls and _statement(head)[:2] == ["export", "database"]:
                    options = "export"
                table_calls.append(
                    d.name == "duckdb"
                    and bool(previous)
                    and (
                        chain_before in _TABLE_FUNCTION_AFTER
                        or (chain_before == "," and clauses[-1] in ("from", "join"))
                    )
                )
                called_name = _aggregate_or(previous, clauses[-1])
                calls.append(called_name)
                if called_name in _CODE_CALLS:
                    taint = taint or f"calls {_shown(previous)}(), and {_CODE_CALLS[previous]}"
                # from (a join b ...): a table may follow, as after FROM
                clauses.append(_clause_opened(last, clauses[-1]))
            elif token == ")":
                del calls[-1:], table_calls[-1:]
                if not calls:
                    options = None
                if len(clauses) > 1:
                    clauses.pop()
                if attach_type is not None and len(calls) < attach_type:
                    attach_type = None
            elif token == "." and previous and not calls:
                # a dotted name: set plperl.on_init, pragma main.table_info
                if 0 < len(head) < 8:
                    head.append(".")
                if after_set is not None and len(after_set) < _SETTING_WORDS:
                    after_set.append(".")
                    if not taint and _sets_code(head, after_set):
                        taint = _SETTING_CODE_WHY
            elif kind in ("word", "identifier"):
                if options == "export" and len(calls) == 1 and last in ("(", ","):
                    export_written.append(token)
                if token == "type" and calls and _statement(head)[:1] == ["attach"]:
                    attach_type = len(calls)
                if token in _CLAUSES:
                    clauses[-1] = token
                if not calls:
                    if len(head) < 8:
                        head.append(token)
                    statement = _statement(head)
                    if postgresql and statement[:2] == ["create", "cast"]:
                        cast_words.append(token)
                    grantees = _grantees(statement, token, grantees)
                    if last == "on" and statement[:1] != [] and statement[0] in _GRANTS:
                        granted_on = token  # grant execute on function ..., on parameter ...
                    routine = statement[:1] == ["create"] and bool(_ROUTINES & set(statement))
                    routine_body |= token == "as" and routine
                    atomic |= token == "begin" and routine
                    if routine_body or atomic:
                        after_set = None  # the body's SET is an UPDATE's
                    elif token in ("set", "reset") and _names_settings(head, routine):
                        # CREATE FUNCTION ... SET name = value sets it whenever the function
                        # runs; each SET of ALTER FUNCTION names one more
                        after_set = []
                    elif after_set is not None and len(after_set) < _SETTING_WORDS:
                        after_set.append(token)
                    if not taint and _sets_code(head, after_set):
                        taint = _SETTING_CODE_WHY
                    if not taint and _creates_external_resource(statement):
                        taint = _EXTERNAL_RESOURCE  # create external resource {t:i} as r
            previous = token if kind in ("word", "identifier") else ""
            prior, last, last_named = last, token, named
        _refuse_qualified(found, aliased, qualified, columns, from_calls, rows)
        _refuse_export_options(found, export_fields, export_written)
        _refuse_cast_types(found, cast_fields, cast_words)
        if taint:
            found = [_runs_code(taint) if where in (None, *_UNLISTED) else where for where in found]
    return _Places(
        tuple(found),
        tuple(tables),
        tuple(internal),
        tuple(updated),
        tuple(roles),
        tuple(created),
        tuple(aliased),
        not any(found) and not any(tables) and not any(internal) and not any(updated)
        and not any(created)
        and not any(roles)
        and not any(aliased),
    )


# The kinds of object whose name CREATE gives next (also after IF NOT EXISTS), which PostgreSQL
# finds by the search path: a relation (and its row type) or a type.
_CREATED_KINDS = frozenset(("table", "view", "sequence", "type", "domain", "exists"))
_TEMP_WORDS = frozenset(("temp", "temporary"))
# PostgreSQL searches its temporary schema (pg_temp) first for relations and types, before its
# own catalog: create temp view "pg_roles" made a later select from pg_roles read the view
# ('mallory', superuser), create temp table "text" made every later 'abc'::text a row of it;
# and DuckDB its temp schema before its system views (duckdb_tables, pragma_*, sqlite_*).
# The catalog's relations all start with "pg_"; its types (pg_type of pg_catalog, neither a
# row type nor an array's, PostgreSQL 15; tests/test_sql_catalogs.py compares them with the
# server's) are these.
_POSTGRESQL_TYPES = frozenset(
    (
        "aclitem", "any", "anyarray", "anycompatible", "anycompatiblearray",
        "anycompatiblemultirange", "anycompatiblenonarray", "anycompatiblerange", "anyelement",
        "anyenum", "anymultirange", "anynonarray", "anyrange", "bit", "bool", "box", "bpchar",
        "bytea", "char", "cid", "cidr", "circle", "cstring", "date", "datemultirange",
        "daterange", "event_trigger", "fdw_handler", "float4", "float8", "gtsvector",
        "index_am_handler", "inet", "int2", "int2vector", "int4", "int4multirange", "int4range",
        "int8", "int8multirange", "int8range", "internal", "interval", "json", "jsonb",
        "jsonpath", "language_handler", "line", "lseg", "macaddr", "macaddr8", "money", "name",
        "numeric", "nummultirange", "numrange", "oid", "oidvector", "path", "point", "polygon",
        "record", "refcursor", "regclass", "regcollation", "regconfig", "regdictionary",
        "regnamespace", "regoper", "regoperator", "regproc", "regprocedure", "regrole",
        "regtype", "table_am_handler", "text", "tid", "time", "timestamp", "timestamptz",
        "timetz", "trigger", "tsm_handler", "tsmultirange", "tsquery", "tsrange",
        "tstzmultirange", "tstzrange", "tsvector", "txid_snapshot", "unknown", "uuid", "varbit",
        "varchar", "void", "xid", "xid8", "xml",
    )
)  # fmt: skip
_CATALOG_TYPE = (
    "names the type ALTER TYPE (DOMAIN) changes, and the value names one of PostgreSQL's "
    "built-in types, whose owner may create casts from it: alter type \"text\" owner to "
    "carol let carol's function run in a superuser's '5'::text::int4",
    "Pass the name of one of your types (check it against the ones you allow), or write the "
    "type in the static text",
)
_SHADOWS = (
    "names a temporary relation or type, and PostgreSQL and DuckDB find those before their "
    "own catalog's for the rest of the session: create temp view \"pg_roles\" made a later "
    "select from pg_roles read it (a superuser 'mallory'), create temp table \"text\" broke "
    "every 'a'::text",
    "Pass a name of your own (check it against the ones you allow: not 'pg_*', not a "
    "built-in type's), or write the name in the static text",
)


# DuckDB searches its main schema before its system views too: a plain create view
# "duckdb_tables" hid DuckDB's view from every later connection to the file.
_SHADOWS_DUCKDB = (
    "names a relation DuckDB creates or renames, and DuckDB finds the relations of its "
    "schemas before its own system views ('pg_*', 'sqlite_*', 'duckdb_*', 'pragma_*'): "
    "create view \"duckdb_tables\" made every later select from duckdb_tables read it, in "
    "every connection to the file",
    _SHADOWS[1],
)
# What a ':i' field names that a statement makes, weakest first: "created" (a relation or type
# a value qualified with pg_temp puts there), "duckdb" (one DuckDB may make, in any schema),
# "duckdb_type" (the type DuckDB's CREATE TYPE makes), "temp" (a temporary one, or one that
# may be: RENAME TO of a temporary object).
_CREATED_ORDER = ("", "created", "duckdb", "duckdb_type", "temp")
# The type names DuckDB's CREATE TYPE takes though DuckDB has a type of that name, which its
# extensions add (tests/test_sql_twenty_fourth_pass.py tries every name of duckdb_types() on
# 2.0.1 and 1.5.6): the new type hides it, in every later query of every connection to the file
# (create type "json" as int made '1'::json an integer; a table of that name hides no type).
# inet is the inet extension's, by its manual.
_DUCKDB_EXTENSION_TYPES = frozenset(("json", "parquet_variant", "inet"))
_SHADOWS_DUCKDB_TYPE = (
    "names the type DuckDB's CREATE TYPE makes, and the value names a type of DuckDB's "
    "extensions, which the new type hides in every later query: create type \"json\" as int "
    "made every later '1'::json an integer",
    _SHADOWS[1],
)
# ALTER <kind> ... RENAME TO {t:i} names a relation or a type as CREATE does.
_RENAMED_KINDS = frozenset(
    ("table", "view", "sequence", "type", "domain", "materialized", "foreign", "index")
)
_RENAME_TO = ("rename", "to")
_INTO_WORDS = frozenset(("into", "temp", "temporary", "unlogged", "table"))


# The words after which CREATE gives its object's name (create type {s:i}.mood, create text
# search configuration {s:i}.c, create operator class {s:i}.c, create table if not exists
# {s:i}.t): PostgreSQL lets a superuser create types, domains, collations, conversions,
# operators, their classes and families, text search objects and statistics in pg_catalog.
_NAMED_KINDS = _CREATED_KINDS | frozenset(
    ("collation", "conversion", "operator", "class", "family", "configuration", "dictionary",
     "parser", "template", "statistics")
)  # fmt: skip


def _names_created(statement: list[str], chain_before: str) -> bool:
    """Whether a ':i' field after the token ``chain_before`` starts the name CREATE gives."""
    return statement[:1] == ["create"] and chain_before in _NAMED_KINDS


def _moves_to_schema(statement: list[str], last: str, prior: str) -> bool:
    """Whether a ':i' field after the tokens ``prior last`` names the schema ALTER ... SET
    SCHEMA moves its object to (alter table t set schema {s:i})."""
    return statement[:1] == ["alter"] and (prior, last) == ("set", "schema")


def _system_schema(names: Sequence[object]) -> bool:
    """Whether one of these names (the schema parts of a name) is one of PostgreSQL's own
    schemas, which it searches before the search path: pg_catalog, pg_toast... (its temporary
    schema, ``pg_temp``, is a session's own, and the temporary names' rule reads it)."""
    return any(
        isinstance(name, str) and name.startswith("pg_") and not name.startswith("pg_temp")
        for name in names
    )


_SYSTEM_SCHEMA = (
    "names the schema an object is created in or moved to, and the value names one of "
    "PostgreSQL's own schemas ('pg_*'), which PostgreSQL searches before every search path: "
    "alter table users set schema \"pg_catalog\" made every role's select * from users read "
    "that table instead of its own schema's, and a type created there replaced each schema's "
    "type of that name",
    "Pass the name of one of your schemas (check it against the ones you allow), or write the "
    "schema in the static text",
)


def _created(
    statement: list[str], chain_before: str, chain_prior: str, last: str, prior: str,
    clause: str, duckdb: bool,
) -> str:  # fmt: skip
    """What a ':i' field (the token ``last`` before it, ``prior`` before that; its dotted
    name's ``chain_before`` and ``chain_prior``) names that the statement makes, as in
    ``_CREATED_ORDER``: CREATE's relation or type, the new name of ALTER ... RENAME TO, or
    SELECT ... INTO's new table (PostgreSQL's CREATE TABLE AS); ``duckdb`` when DuckDB reads
    the statement."""
    kind = next((word for word in statement[1:] if word not in _CREATE_MODIFIERS), "")
    if statement[:1] == ["create"] and chain_before in _CREATED_KINDS:
        # create temp table {t:i}, create table pg_temp.{t:i}
        temp = bool(_TEMP_WORDS & set(statement)) or (last == "." and prior.startswith("pg_temp"))
    elif statement[:1] == ["alter"] and kind in _RENAMED_KINDS and (prior, last) == _RENAME_TO:
        temp = not duckdb  # alter view v rename to {v:i}: v may be a temporary view
    elif (
        clause == "into"
        and chain_before in _INTO_WORDS
        and statement[:1] in (["select"], ["with"])
        and not {"insert", "merge"} & set(statement)
    ):  # select ... into [temp] [table] {t:i}
        temp = chain_before in _TEMP_WORDS or (
            chain_before == "table" and chain_prior in _TEMP_WORDS
        )
    else:
        return ""
    if temp or not duckdb:
        return "temp" if temp else "created"
    typed = statement[:1] in (["create"], ["alter"]) and kind == "type"
    return "duckdb_type" if typed else "duckdb"  # create type [if not exists] {t:i}


def _renames_to(statement: list[str], last: str, prior: str) -> bool:
    """Whether a field after ``prior last`` is the new name ALTER ... RENAME TO gives.  SQLite
    finds a table of the schema before its eponymous tables (``pragma_*``, ``dbstat``): alter
    table x rename to "pragma_table_list" made a later select from pragma_table_list, SQLite's
    list of tables, read x's rows instead (the eighteenth pass), where create table refuses
    the name already."""
    return statement[:1] == ["alter"] and (prior, last) == _RENAME_TO


def _shadowing(value: object, created: str) -> tuple[str, str] | None:
    """Why a ':i' value may not name the relation or type a statement makes (``created``, as
    in ``_CREATED_ORDER``); None when it may."""
    parts = _names_of(value)
    names = [name for name in parts if isinstance(name, str)]
    if not names or len(names) != len(parts):
        return None
    temp = created == "temp"
    if len(names) > 1:
        temp = names[-2].startswith("pg_temp")  # ("pg_temp", "text"), ("public", "text")
    last = names[-1].lower()  # (DuckDB's names ignore case; PostgreSQL's quoted ones do not)
    if temp and (last.startswith(_DUCKDB_INTERNAL_PREFIXES) or last in _POSTGRESQL_TYPES):
        return _SHADOWS
    if created in ("duckdb", "duckdb_type") and last.startswith(_DUCKDB_INTERNAL_PREFIXES):
        return _SHADOWS_DUCKDB  # create view {v:i}, also ("main", "duckdb_tables")
    if created == "duckdb_type" and last in _DUCKDB_EXTENSION_TYPES:
        return _SHADOWS_DUCKDB_TYPE  # create type {t:i} as int: "json"
    return None


# PostgreSQL reads `alias.name` as the column `name` of the alias's row, and else as the call
# `name(alias)`.  An alias of a table is a row with its columns, and few functions take any
# row; but the alias of a function in FROM (`from unnest({tags}::text[]) u`) is its value:
# `select u.{c:i}` with c = "ts_stat" ran the array's text as SQL (ts_stat(u)), "pg_read_file"
# read a file of the server.
_NO_CALL = frozenset(
    ("from", "join", "lateral", "only", "on", "using", "as", "in", "exists", "not", "and", "or",
     "values", "select", "where", ",", "(")
)  # fmt: skip
_QUALIFIED_CALL = (
    "follows a dot in a query whose FROM calls a function, and PostgreSQL reads alias.name "
    "as the call name(alias) when the alias is no row with that column: select u.{c:i} from "
    "unnest({tags}::text[]) u with c = 'ts_stat' ran the array's text as SQL",
    "Write the column's name in the static text; to choose among known names, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)


# Functions SQL writes as keywords, without parentheses: `from current_user u` is a function
# in FROM too.
_KEYWORD_FUNCTIONS = frozenset(
    ("current_date", "current_time", "current_timestamp", "localtime", "localtimestamp",
     "current_role", "current_user", "session_user", "system_user", "user", "current_catalog",
     "current_schema")
)  # fmt: skip
# Words that start an item of FROM but name no relation: `from lateral f(x)`, `from only t`,
# `from rows from (f(x))`, `from collation for (x)`.
_NO_RELATION = _KEYWORD_FUNCTIONS | {"lateral", "only", "rows", "collation"}
# PostgreSQL truncates a name to 63 bytes: a name written shorter, in ASCII, is compared whole
_ROW_NAME_BYTES = 60


class _TableRows:
    """Which names a PostgreSQL statement gives only to a table's row in FROM, so that
    ``alias.{c:i}`` is a column of that row, or a function of a whole table row, as in a
    statement without a function in FROM (``t.row_to_json``): never a call of the value a
    function in FROM gives.  A name is such a row's when every place the statement writes it
    (but before a dot) is a relation's last name in FROM, not followed by ``(``, or the alias
    right after one (``from generate_series(1, 3) g, {t:i} t``).  A function's row is named
    by an alias after its ``)`` or by the function's own name, neither of which is such a
    place; a ':i' field that may be an alias (``from unnest(x) {a:i}``), a function of SQL's
    syntax that PostgreSQL names by no word of the text (``from trim(both from x)`` is btrim)
    or a U&"..." name the check cannot read may give any name, and then no name counts."""

    def __init__(self) -> None:
        self.uses: dict[str, set[int]] = {}  # each name: where it stands, but before a dot
        self.rows: set[int] = set()  # where a relation's or its alias's name stands
        self.unknown = False
        # the name before the last dot, if it is a single name written in plain short ASCII
        # (lowercased, as sql() reads names: "T" and t are the same here, which only means
        # that a function's row named "T" stops t from counting as a table's)
        self.qualifier: str | None = None
        # the last token, if a name: (its name, position, "relation" or "alias" if it may be
        # a relation's last name or its alias, and whether it is a single plain name)
        self.name: tuple[str, int, str, bool] | None = None
        self.alias_next = False  # the token after a relation in FROM: its alias, or AS
        self.dot = False  # the last token was a dot

    def see(
        self, kind: str, token: str, span: tuple[int, str], relation: bool, unread: bool
    ) -> None:
        """Read the next token (``span``: its position and its text as written; ``relation``:
        it is, or continues, a name FROM reads as a relation; ``unread``: it may give an
        item of FROM a name the check cannot read)."""
        name, alias_next = self.name, self.alias_next
        self.alias_next = False
        alias_next = self._place(token) or alias_next
        if token == ".":
            self.qualifier = name[0] if name is not None and name[3] else None
        # a ':i' alias right after a relation (from t as {a:i}) names that table's row, which
        # is what its name may be anywhere: only a function's alias is a name unread
        unread = unread and not (kind == "field" and alias_next)
        self.unknown |= unread or (kind == "identifier" and token == _UNREADABLE)
        if alias_next and token == "as":
            self.alias_next = True
        elif kind in ("word", "identifier"):
            role = "alias" if alias_next else ""
            if relation and not alias_next and token not in _NO_RELATION:
                role = "relation"
            written = span[1]
            plain = not self.dot and written.isascii() and len(written) < _ROW_NAME_BYTES
            self.name = (token, span[0], role, plain)
        elif kind == "field" and relation:
            self.alias_next = True  # from {t:i} t: the alias may follow
        self.dot = token == "."

    def _place(self, token: str) -> bool:
        """Place the last name, now that ``token`` follows it (``""`` at the end): a use, unless
        a dot follows; a table's row, unless a relation's name is followed by ``(`` (a call);
        an alias's ``(`` opens its column list (``from t x (a, b)``).  Whether an alias may
        come next."""
        name, self.name = self.name, None
        if name is None or token == ".":
            return False
        self.uses.setdefault(name[0], set()).add(name[1])
        if name[2] == "alias" or (name[2] and token != "("):  # a table's row it is, then
            self.rows.add(name[1])
        return name[2] == "relation" and token != "("

    def row(self, qualifier: str | None) -> bool:
        """Whether ``qualifier`` (before the dot of ``qualifier.{c:i}``) names only tables'
        rows in this statement (read to its end)."""
        self._place("")
        if self.unknown or qualifier is None:
            return False
        where = self.uses.get(qualifier, set())
        return bool(where) and where <= self.rows


_QUALIFIED_VALUE = (
    "is a qualified name (a tuple) where a column goes, in a query whose FROM calls a function, "
    "and PostgreSQL reads alias.name as the call name(alias) when the alias is no row with "
    "that column: select {c:i} from unnest({tags}::text[]) u with c = ('u', 'ts_stat') ran "
    "the array's text as SQL",
    "Pass the column's name alone (a str); to choose among known qualified names, pick an "
    "i'...' fragment in Python and compose it with ':q'",
)


def _qualified(value: object) -> bool:
    """Whether a ':i' value is a name of several parts (a tuple), written with dots."""
    return isinstance(value, tuple) and len(value) > 1


def _calls_in_from(
    kind: str, token: str, opens: bool, last: str, last_named: bool, chain_before: str,
    clause: str,
) -> bool:  # fmt: skip
    """Whether this token makes an item of FROM a function's value (PostgreSQL): ``(`` or a
    ``{xs:in}`` list after a name that starts an item (``from f(...)``, ``join f(...)``, ``,
    f(...)``, ``lateral f(...)``, MERGE's and DELETE's ``using f(...)``), or any call in a FROM
    list (``rows from (f(...))``), or a function written as a keyword (``from current_user``)."""
    if opens and last_named and last not in _NO_CALL and not _samples(last, chain_before):
        return clause == "from" or _starts_from_item(chain_before, clause)
    return kind == "word" and token in _KEYWORD_FUNCTIONS and _starts_from_item(last, clause)


_FROM_ITEM_AFTER = frozenset(("from", "join", "lateral", "using"))


def _samples(name: str, before: str) -> bool:
    """Whether ``name (`` after ``before`` is TABLESAMPLE's method or its REPEATABLE (seed)
    (``from t tablesample system (10) repeatable (1)``): the item is still the table's rows,
    no function's value (``select t.{c:i} from s.t tablesample ...`` was refused as one)."""
    return before == "tablesample" or (name == "repeatable" and before == ")")


def _starts_from_item(before: str, clause: str) -> bool:
    """Whether a name after the token ``before``, in ``clause``, starts an item of FROM (also
    JOIN's, LATERAL's, and MERGE's and DELETE's USING): not ``create table t (...)``."""
    return before in _FROM_ITEM_AFTER or (before in (",", "(") and clause in ("from", "join"))


_TABLE_NAME_AFTER = frozenset(("from", "join", ",", "only", "lateral", "using", "(", "."))


# SQL's syntax for functions whose item of FROM PostgreSQL names by no word of the text:
# `from trim(both from {x})` is named btrim (ltrim, rtrim), `cast({x} as character varying)`
# and `treat(...)` varchar (the type's name), `collation for (...)` pg_collation_for, and
# PostgreSQL 16's `from current_catalog` current_database: `select (select btrim.{c:i} from
# trim(both from {x})) from t btrim` with c = "ts_stat" ran the value as SQL.
_RENAMED_CALLS = _KEYWORD_FUNCTIONS | {"cast", "treat", "trim", "collation"}


def _unread_row_name(
    kind: str, token: str, specs: tuple[str, ...], field: int, last: str, last_named: bool,
    clause: str,
) -> bool:  # fmt: skip
    """Whether this token (after the token ``last``, a name if ``last_named``, in ``clause``)
    may give an item of FROM a name the check cannot read: a ':i' field where an alias may
    stand (``from unnest(x) {a:i}``; ``_TableRows`` knows a relation's, ``from t as {a:i}``),
    not a table's name (``from a, {t:i}``) nor the start of JOIN's condition (``on {a:i}.id``),
    or a function of SQL's syntax that PostgreSQL names otherwise (``_RENAMED_CALLS``)."""
    if clause not in ("from", "join"):
        return False
    if kind == "word":
        return token in _RENAMED_CALLS
    if kind != "field" or specs[field] != "i" or last in _TABLE_NAME_AFTER or last == "on":
        return False
    return last_named or last in (")", "as")


def _indirected(prior: str, field: int, specs: tuple[str, ...]) -> bool:
    """Whether the token ``prior``, before a dot before the field, is one PostgreSQL's
    attribute notation calls a name after: ``(x).f``, ``x[1].f``, and a parameter or a
    ``{xs:in}`` list (``$1 .f``, ``(?, ?) .f``; a literal's ``-5`` is written ``(-5)``)."""
    return prior in (")", "]") or (prior == MARKER and specs[field - 1] in ("", "in", "l"))


def _refuse_export_options(
    found: list[tuple[str, str] | None], fields: list[int], written: list[str]
) -> None:
    """Refuse the fields that name options of the statement's EXPORT DATABASE (...), unless
    one stands alone among options written in the text that only shape the files' content."""
    if len(fields) > 1 or not _EXPORT_CONTENT_OPTIONS.issuperset(written):
        for field in fields:
            found[field] = found[field] or _EXPORT_OPTION


def _refuse_cast_types(
    found: list[tuple[str, str] | None], fields: list[int], words: list[str]
) -> None:
    """Refuse the fields of the statement's CREATE CAST, unless it is one WITH INOUT alone
    (``words`` are its top-level words from CAST on)."""
    if words != _CAST_WITH_INOUT:
        for field in fields:
            found[field] = found[field] or _CAST_TYPES


def _refuse_qualified(
    found: list[tuple[str, str] | None],
    aliased: list[bool],
    qualified: list[tuple[int, str | None]],
    columns: list[int],
    from_calls: bool,
    rows: _TableRows,
) -> None:
    """Refuse the statement's ``alias.{c:i}`` fields when its FROM calls a function, but where
    the alias names only tables' rows, and mark the ``:i`` fields where a tuple value would
    write ``alias.name`` (``select {c:i}``)."""
    if from_calls:
        for field, qualifier in qualified:
            if not rows.row(qualifier):
                found[field] = found[field] or _QUALIFIED_CALL
        for field in columns:
            aliased[field] = True


def _refuse_composed(template: InterpolationTemplate, builder: _Builder) -> None:
    """Refuse a field whose value the database would run as code, or that the composed
    query reads elsewhere than its parts did, or a table name DuckDB may read as a file."""
    leaves: Sequence[Any] = template.interpolations
    specs = tuple([i.format_spec for i in leaves])
    strings: Sequence[str] = template.strings
    if "q" in specs:
        strings, leaves = _flatten(template)
        specs = tuple([i.format_spec for i in leaves])
    places = _composed(tuple(strings), specs, builder.style, builder.dialect)
    if places.clear:
        return
    for position, (interpolation, where, table, internal, updated, role, created, aliased) in (
        enumerate(
            zip(
                leaves,
                places.refused,
                places.tables,
                places.internal,
                places.updated,
                places.roles,
                places.created,
                places.aliased,
            ),
            start=1,
        )
    ):
        if where is None and aliased and _qualified(interpolation.value):
            where = _QUALIFIED_VALUE  # select {c:i} from unnest(...) u: ("u", "ts_stat")
        if where is None and created:
            where = _shadowing(interpolation.value, created)
        if where is None and interpolation.format_spec == "i":
            where = _named_table(interpolation.value, table, internal, updated)
        elif where is None and interpolation.format_spec == "l" and internal:
            # SQLite reads a string where a table goes as its name, and DuckDB as a table's
            # when no file has it (from 'sqlite_stmt', from 'pg_prepared_statements'): the
            # internal tables as for ':i' (a file is what DuckDB's from {path:l} means)
            where = _named_table(interpolation.value, False, internal, False)
        if where is None and role == _SSLKEY_OPTION:
            where = _sslkey_refusal(interpolation.value)
        elif where is None and role in (_ATTACH_PATH, _ATTACH_PATH_PART):
            where = _attach_path_refusal(interpolation.value, role == _ATTACH_PATH)
        elif where is None and role == _SECRET_NAME:
            where = _secret_name_refusal(interpolation.value)
        elif where is None and role:
            where = _role_refusal(interpolation.value, role, interpolation.format_spec)
        if where is not None:
            raise refusal("sql", field_text(interpolation, position), *where)


def _names_of(value: object) -> tuple[object, ...]:
    """The parts of a ':i' value (a tuple is schema.name), each str read as the plain str it
    writes: a str subclass's own startswith(), lower() or __eq__ never decide a check."""
    return tuple(
        str.__str__(name) if isinstance(name, str) else name
        for name in (value if isinstance(value, tuple) else (value,))
    )


def _named_table(
    value: object, table: bool, internal: tuple[str, ...], updated: bool
) -> tuple[str, str] | None:
    """Why a ':i' value may not name this table: a file DuckDB would read (``table``), a table
    of the database's own (``internal``: the databases that read it as a table, and
    ``_WRITTEN`` where the statement writes it), a built-in type ALTER TYPE changes
    (``_ALTERED_TYPE`` in ``internal``), one of PostgreSQL's own schemas as the one an object
    goes into (``_INTO_SCHEMA``, and ``_CREATED_IN`` for a qualified name), or pg_settings as
    UPDATE's table (``updated``); ``None`` when it may."""
    names = _names_of(value)
    last = names[-1] if names and isinstance(names[-1], str) else ""
    if updated and names[-1:] == ("pg_settings",):  # quoted: only this spelling is the view
        return _UPDATED_SETTINGS
    if (_INTO_SCHEMA in internal and _system_schema(names)) or (
        _CREATED_IN in internal and _system_schema(names[:-1])
    ):
        return _SYSTEM_SCHEMA
    if _ALTERED_TYPE in internal and (
        last in _POSTGRESQL_TYPES or last.startswith("pg_") or "pg_catalog" in names
    ):
        return _CATALOG_TYPE
    if "sqlite" in internal and (
        last.lower().startswith(_SQLITE_INTERNAL_PREFIXES) or last.lower() in _SQLITE_INTERNAL_NAMES
    ):
        return _TABLE_INTERNAL  # lower(): SQLite folds ASCII case, so "SQLITE_STMT" is it
    if "postgresql" in internal and (
        ((last.startswith("pg_") or "pg_catalog" in names) and last not in _POSTGRESQL_READABLE)
        or (_WRITTEN in internal and _POSTGRESQL_WRITTEN & set(names))
    ):
        return _POSTGRESQL_CATALOG
    if (
        "duckdb" in internal
        and last.lower().startswith(_DUCKDB_INTERNAL_PREFIXES)
        and last.lower() not in _POSTGRESQL_READABLE  # (DuckDB refuses to write its views)
    ):
        return _DUCKDB_CATALOG
    if table and (
        len(names) > 1 or any(isinstance(n, str) and _TABLE_NAME_UNSAFE.search(n) for n in names)
    ):
        return _TABLE_FILE
    return None


# A field's expression names its parameter when every reader of ':name' / '%(name)s' takes it
# as one name: a Python identifier of word characters only (not 'a·b' or '℘', identifiers
# that SQLAlchemy's and psycopg's \w+ would cut short).
_PARAMETER_NAME = re.compile(r"[^\W\d]\w*")


class _Builder:
    """Collects the query text and the parameters, naming placeholders as it goes."""

    __slots__ = ("dialect", "named", "percent", "pieces", "positional", "style", "suffixes")

    def __init__(self, paramstyle: str, dialect: str | None) -> None:
        self.style = paramstyle
        self.dialect = dialect
        self.percent = paramstyle in _PERCENT_STYLES
        self.pieces: list[str] = []
        self.positional: list[Any] = []
        self.named: dict[str, Any] = {}
        self.suffixes: dict[str, int] = {}  # the next suffix to try per base name: linear

    def parameter(self, value: object, expression: str) -> str:
        """Bind ``value`` and return its placeholder; a name is never used twice."""
        style = self.style
        if style in _NAMED_STYLES:
            base = expression.strip()
            if base.isidentifier() and _PARAMETER_NAME.fullmatch(base):
                name = base
            else:
                base, name = "p", f"p{len(self.named) + 1}"
            while name in self.named:
                suffix = self.suffixes.get(base, 2)
                self.suffixes[base] = suffix + 1
                name = f"{base}_{suffix}"
            self.named[name] = value
            return f":{name}" if style == "named" else f"%({name})s"
        self.positional.append(value)
        if style == "qmark":
            return "?"
        if style == "format":
            return "%s"
        number = len(self.positional)
        return f":{number}" if style == "numeric" else f"${number}"


_BUG = "This is a bug in ipy_istring: please report it, and pass the value as a parameter"
# The token sequences (joined with NUL) a quoted name or a literal may be.
_IDENTIFIER_SHAPE = re.compile(r'"[^\0]*"(?:\0\.\0"[^\0]*")*')
_LITERAL_SHAPE = re.compile(
    r"'[^\0]*'|E'[^\0]*'|NULL|TRUE|FALSE|[0-9][^\0]*|\(\0-\0[0-9][^\0]*\0\)"
)


class _Refused(Exception):
    """A value with no safe text: ``(why, fix)``; the caller names the field."""


def _check_written(text: str, spec: str, place: _Field, pattern: re.Pattern[str]) -> str | None:
    """Why ``text`` breaks the query's structure, or ``None``: it must be tokens of its shape
    alone, and stay exactly those tokens between the static tokens around it."""
    tokens = tuple(pattern.findall(text))
    shape, what = (_IDENTIFIER_SHAPE, "quoted name") if spec == "i" else (_LITERAL_SHAPE, "literal")
    if not shape.fullmatch("\0".join(t for t, _ in tokens)):
        return f"renders as {text!r}, which is not one {what}"
    if not _seam_holds(
        pattern, place.left, place.left_tokens, text, tokens, place.right, place.right_tokens
    ):
        return (
            f"renders as {text!r}, which would merge with the text around it "
            f"({place.left!r} before, {place.right!r} after)"
        )
    return None


def _identifier(value: object, members: tuple[Dialect, ...]) -> str:
    names = value if isinstance(value, tuple) and value else (value,)
    quoted = []
    for name in names:
        if not isinstance(name, str):
            raise _Refused(
                f"is an identifier and needs a str, got {type(name).__name__}",
                "Pass a str (or a tuple of str for a qualified name)",
            )
        name = str.__str__(name)  # a str subclass's own __len__ or __contains__ never run
        if not name or "\0" in name:
            raise _Refused(
                "is an identifier, which cannot be "
                + ("empty" if not name else "contain a NUL byte"),
                "Check the value",
            )
        if (
            len(name) > 15
            and len(name.encode("utf-8", "surrogatepass")) > 63
            and any(d.name.startswith("postgresql") for d in members)
        ):  # PostgreSQL (NAMEDATALEN - 1)
            raise _Refused(
                "is a name longer than 63 bytes, which PostgreSQL cuts to its first 63: the "
                "query would name another table or column than the value says",
                "Use a shorter name (or say where the query runs: sql(..., dialect=...))",
            )
        quoted.append('"' + name.replace('"', '""') + '"')
    return ".".join(quoted)


_AS_PARAMETER = "Pass it as a parameter (drop ':l')"


def _number(value: int | float | Decimal) -> str:
    """A number's SQL text, from the base type's own conversion (a subclass's ``__str__`` or
    ``__repr__`` — an int-based ``Enum`` writes ``Status.ACTIVE`` — is never used)."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise _Refused(f"is {value!r}, which has no portable SQL literal", _AS_PARAMETER)
        return float.__repr__(value)
    if isinstance(value, Decimal):
        if not Decimal.is_finite(value):  # also a signalling NaN, without raising
            raise _Refused(f"is {value!r}, which has no portable SQL literal", _AS_PARAMETER)
        return Decimal.__str__(value)
    try:
        return int.__repr__(value)
    except ValueError:  # more digits than sys.get_int_max_str_digits() allows
        raise _Refused("is an int too long to write as text", _AS_PARAMETER) from None


def _numpy_number(value: object) -> object:
    """A numpy bool, integer or float (a pandas value in a notebook) as Python's own, which
    holds the same number exactly; any other value as it is.  numpy is not imported: a value
    can be one of numpy's only once numpy is."""
    numpy: Any = sys.modules.get("numpy")
    if numpy is None or not isinstance(value, numpy.generic):
        return value
    if isinstance(value, numpy.bool_):
        return bool(value)
    if isinstance(value, numpy.integer):
        return operator.index(value)
    if isinstance(value, numpy.floating) and value.itemsize <= 8:  # not a long double, which
        return float(value)  # float() would round
    return value


def _literal(value: object, members: tuple[Dialect, ...]) -> str:
    value = _numpy_number(value)
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float | Decimal):
        text = _number(value)
        # Parenthesized so that 'x-{n:l}' can never become the comment 'x--5'.
        return f"({text})" if text.startswith("-") else text
    if isinstance(value, str):
        value = str.__str__(value)  # a str subclass's own replace() or `in` never run
        if "\0" in value:
            raise _Refused("has a value that contains a NUL byte", "Remove it")
        if any(d.backslash_strings for d in members) and not _BACKSLASH_BYTE.isdisjoint(value):
            raise _Refused(
                _BACKSLASH_BYTE_WHY,
                "Pass it as a parameter (drop ':l'), which the driver sends as data, or say "
                "where the query runs: sql(..., dialect='sqlite' / 'duckdb')",
            )
        quoted = "'" + value.replace("'", "''") + "'"
        if "\\" not in value or not any(d.backslash_strings for d in members):
            return quoted
        if all(d.escape_strings for d in members):
            # E'...' reads backslashes as escapes whatever standard_conforming_strings says.
            return "E" + quoted.replace("\\", "\\\\")
        raise _Refused(
            "is a string with a backslash, which PostgreSQL with standard_conforming_strings "
            "off reads as an escape (and SQLite cannot read E'...')",
            "Pass it as a parameter (drop ':l'), or say where the query runs: "
            "sql(..., dialect='postgresql' / 'sqlite' / 'duckdb')",
        )
    raise _Refused(
        f"is a literal, but a {type(value).__name__} has no safe SQL literal",
        "':l' takes None, bool, int, float, Decimal or str (numpy's bool, integers and "
        "floats too); pass anything else as a parameter (drop ':l')",
    )


def _render(template: InterpolationTemplate, builder: _Builder, depth: int) -> None:
    built = fields_with_built_specs(template)
    if built:
        # (Such a spec lets a value choose between a parameter and text written into the
        # query: `where pw = {pw:{mode}}` with mode = "i" compared the column with itself.)
        raise refusal(
            "sql",
            field_text(template.interpolations[built[0]], built[0] + 1),
            "has a spec built at run time ({x:{mode}}): a value would choose whether it is "
            "a parameter or text written into the query",
            "Write the spec in the text, and choose between two i-strings in Python "
            "(i'... {x:i} ...' if by_name else i'... {x} ...')",
        )
    analysis = _analyse(template.strings, builder.style, builder.dialect)
    if analysis.static is not None:
        _refuse_static(template, analysis)
    strings = analysis.strings
    pieces = builder.pieces
    pieces.append(strings[0])
    for position, interpolation in enumerate(template.interpolations, start=1):
        place = analysis.fields[position - 1]
        spec = interpolation.format_spec
        if (
            place.inside is not None
            or interpolation.conversion is not None
            or spec not in place.allowed
        ):
            _refuse_field(interpolation, position, place)
        value = interpolation.value
        if spec == "":
            if is_template(value):
                raise refusal(
                    "sql",
                    field_text(interpolation, position),
                    "is a nested template",
                    "Write it with ':q' to compose it into the query",
                )
            pieces.append(builder.parameter(value, interpolation.expression))
        elif spec == "i" or spec == "l":
            pieces.append(_written(value, spec, place, analysis, builder, interpolation, position))
        elif spec == "q":
            _compose(value, field_text(interpolation, position), builder, depth)
        else:
            _expand(value, field_text(interpolation, position), interpolation.expression, builder)
        pieces.append(strings[position])


def _written(
    value: object,
    spec: str,
    place: _Field,
    analysis: _Analysis,
    builder: _Builder,
    interpolation: Any,
    position: int,
) -> str:
    """The text of a ``:i`` or ``:l`` field, once the structural check has passed."""
    try:
        text = (
            _identifier(value, analysis.members)
            if spec == "i"
            else _literal(value, analysis.members)
        )
    except _Refused as refused:
        raise refusal("sql", field_text(interpolation, position), *refused.args) from None
    if builder.percent:
        text = text.replace("%", "%%")
    key = (spec, text)
    checked = place.written
    if key in checked:
        problem = checked[key]
    else:
        problem = _check_written(text, spec, place, analysis.pattern)
        if len(checked) >= 256:  # a loop over many values: keep the cache bounded
            checked.clear()
        checked[key] = problem
    if problem is not None:
        raise refusal("sql", field_text(interpolation, position), problem, _BUG)
    return text


def _refuse_field(interpolation: Any, position: int, place: _Field) -> None:
    """Raise the refusal of a field that stands where it may not, or has a bad spec."""
    field = field_text(interpolation, position)
    if place.inside is not None:
        raise refusal("sql", field, *place.inside)
    if interpolation.conversion is not None:
        raise refusal(
            "sql",
            field,
            "has a conversion, but a parameter must reach the driver with its own type",
            "Drop it, or convert in the expression ({str(x)} rather than {x!s}). "
            f"Supported: {_SUPPORTED}",
        )
    spec = interpolation.format_spec
    if spec not in _SPECS:
        raise refusal(
            "sql", f"unknown spec in {field}", "(its format spec)", f"Supported: {_SUPPORTED}"
        )
    raise _glued(field, spec, place)


def _refuse_static(template: InterpolationTemplate, analysis: _Analysis) -> None:
    """Refuse a template whose static text is refused, naming a misplaced field first."""
    for position, (interpolation, place) in enumerate(
        zip(template.interpolations, analysis.fields), start=1
    ):
        if place.inside is not None:
            raise refusal("sql", field_text(interpolation, position), *place.inside)
    assert analysis.static is not None
    raise refusal("sql", *analysis.static)


def _compose(value: object, field: str, builder: _Builder, depth: int) -> None:
    if not is_template(value):
        raise refusal(
            "sql",
            field,
            f"composes a nested query and needs an i-string (i'...'), got {type(value).__name__}",
            "A plain str would be pasted into the query unchecked; build the fragment with "
            "i'...' instead",
        )
    if depth >= _MAX_DEPTH:
        raise refusal(
            "sql",
            field,
            f"nests templates more than {_MAX_DEPTH} deep",
            "Build the query with fewer levels of ':q'",
        )
    nested = as_template(value, renderer="sql")
    end = _analyse(nested.strings, builder.style, builder.dialect).end
    if end is not None:
        raise refusal(
            "sql",
            field,
            f"composes a fragment whose text ends {end[0].removeprefix('is ')}, which would "
            "swallow the query text after it",
            "Close the string or comment inside the fragment",
        )
    _render(nested, builder, depth + 1)


def _expand(value: object, field: str, expression: str, builder: _Builder) -> None:
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise refusal(
            "sql",
            field,
            f"expands a sequence into (?, ?, ...), but the value is a {type(value).__name__}",
            "Pass a list or tuple",
        )
    marks = [builder.parameter(item, expression) for item in value]
    if not marks:
        raise refusal(
            "sql",
            field,
            "is empty, and IN () is not valid SQL",
            "Handle the empty case before building the query",
        )
    builder.pieces.append("(" + ", ".join(marks) + ")")


def sql(template: object, paramstyle: str = "qmark", *, dialect: str | None = None) -> Query:
    """Render an i-string as a :class:`Query` ``(sql, params)`` in a PEP 249 paramstyle.

    ``cur.execute(*sql(i"select * from t where id = {id}"))`` → ``("select * from t where
    id = ?", (id,))``.  ``paramstyle`` is one of :data:`PARAMSTYLES`; ``dialect`` (one of
    :data:`DIALECTS`, or ``None`` for all of them) is where the query may run: the fields must
    be safe as that database reads the text.
    """
    t = as_template(template, renderer="sql")
    if paramstyle not in PARAMSTYLES:
        raise ValueError(
            f"sql(): unknown paramstyle {paramstyle!r}; use one of {', '.join(PARAMSTYLES)} "
            "(your driver's module.paramstyle says which it wants)"
        )
    builder = _Builder(paramstyle, dialect)
    _render(t, builder, 0)
    _refuse_composed(t, builder)
    text = "".join(builder.pieces)
    params: tuple[Any, ...] | dict[str, Any] = (
        builder.named if paramstyle in _NAMED_STYLES else tuple(builder.positional)
    )
    return Query(text, params)
