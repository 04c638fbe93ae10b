r"""SQL tokens by dialect: where each field of an i-string lands, as the database would read it.

The ``sql`` renderer decides a field's context from tokens, not from a character scanner:
the template is joined with one inert marker (NUL, which no accepted SQL text contains) per
field and lexed with the rules of each dialect the query may meet.  A marker that is a token
of its own stands in code; a marker inside a string, quoted identifier, dollar quote or
comment token stands there.  The same lexer, compiled to one regular expression, tokenizes
every rendered query for the structural check.

The rules follow each engine's own scanner (PostgreSQL's ``scan.l`` and its manual, section
4.1 "Lexical Structure"; SQLite's ``tokenize.c``; DuckDB's fork of PostgreSQL's scanner), and
only the rules that move a token boundary are modelled::

    construct                   SQLite      DuckDB        PostgreSQL
    '...' with ''               yes         yes           yes; \ escapes too when
                                                          standard_conforming_strings is off
    E'...' (\ escapes)          no          yes           yes
    E'a' <newline> '...' goes   no          yes (1.x;     yes
    on as E'...'                            2.0: '...')
    U&'...', U&"..."            no          no            yes
    X'..', B'..'                X only      yes           yes (no escapes inside)
    "..." with ""               yes         yes           yes
    `...`                       yes         yes (2.0+)    no
    [...]                       yes         no (a list)   no (a subscript)
    $tag$...$tag$               no          yes           yes
    /* */ nest                  no          yes           yes
    /*/*/ is a whole comment    yes         no (nests)    no (nests)
    -- ends at                  \n          \n or \r       \n or \r
    parameters                  ?N :a @a    ?N $a         $N
                                $a #a
    U+00A0, U+2000-U+200B,      a letter    a space       a letter
    U+202F, U+205F, U+2060,
    U+3000, U+FEFF in code

DuckDB replaces those Unicode spaces with ' ' before it lexes, wherever a pre-pass of its own
(``Parser::StripUnicodeSpaces``: quotes with doubling, dollar quotes and ``--`` comments, no
``E'...'`` escapes) believes it is in code.  Where the pre-pass and the lexer disagree, one such
character is a space and the next a letter, so no single reading is right: one in code is a
token of its own here (``unicode_space``), and ``sql()`` refuses the text.  (``x\u00a0$$`` is
one name to PostgreSQL and SQLite, and a name and an opening dollar quote to DuckDB.)

This module imports nothing from IPython.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

__all__ = ["DIALECTS", "MARKER", "Dialect", "check_pattern", "dialects", "tokens"]

MARKER = "\0"
"""Stands for a field while the static text is lexed: one token of its own in code."""

# Character classes written as what they exclude (compiling [\x80-\U0010ffff] takes 40 ms).
_WORD_START = r"[^\x00-\x40\[-\^`{-\x7f]"  # a letter, _ or any non-ASCII character
_NAME = r"[^\x00-\x2f:-@\[-\^`{-\x7f]"  # the same or a digit
_WORD = r"[^\x00-\x23%-/:-@\[-\^`{-\x7f]"  # the same or $
# The characters DuckDB's pre-pass turns into spaces (duckdb/src/parser/parser.cpp).
DUCKDB_SPACES = "\xa0\u2000-\u200b\u202f\u205f\u2060\u3000\ufeff"


def _without(character_class: str, excluded: str) -> str:
    """A negated character class ``[^...]`` that excludes ``excluded`` as well."""
    return character_class[:-1] + excluded + "]" if excluded else character_class


@dataclass(frozen=True)
class Dialect:
    """The lexical rules of one database that move a token boundary."""

    name: str
    nested_comments: bool
    backslash_strings: bool  # '...' reads \ as an escape (PostgreSQL, scs off)
    escape_strings: bool  # E'...' reads \ as an escape
    unicode_strings: bool  # U&'...' and U&"..."
    dollar_quotes: bool  # $tag$...$tag$
    backticks: bool  # `identifier`
    brackets: bool  # [identifier]
    line_comment_stops: str  # the characters that end a -- comment
    parameters: str  # a regular expression for the parameters the engine itself reads
    unicode_spaces: str = ""  # a character class body: read as spaces in code, but not always
    continued_escapes: bool = False  # E'...' goes on, escapes and all, in a '...' on a new line
    attribute_calls: bool = False  # (x).f and x[1].f call f(x) when f is no field (PostgreSQL)


SQLITE = Dialect(
    "sqlite", False, False, False, False, False, True, True, "\n",
    rf"\?[0-9]*|[:@$#]{_WORD}+",
)  # fmt: skip
DUCKDB = Dialect(
    "duckdb", True, False, True, False, True, True, False, "\n\r",
    rf"\?[0-9]*|\${_without(_WORD, DUCKDB_SPACES)}+", DUCKDB_SPACES,
    continued_escapes=True,  # 1.x as PostgreSQL does; 2.0 reads a fresh '...'
)  # fmt: skip
# DuckDB 2.0 joins E'a' <newline> '...' too, but reads the second part as a plain '...', where a
# backslash escapes nothing: after E'a' and a newline, 'a\' , ' ends at its second quote, and
# the ' , ' after it opens a string that held a field the 1.x reading (and PostgreSQL's) sees in
# code (the eighteenth pass: a {x:l} there leaked a secret on DuckDB 2.0 with
# paramstyle="dollar").  Both versions are in use, so both readings are checked.
DUCKDB_2 = Dialect(
    "duckdb", True, False, True, False, True, True, False, "\n\r",
    rf"\?[0-9]*|\${_without(_WORD, DUCKDB_SPACES)}+", DUCKDB_SPACES,
)  # fmt: skip
POSTGRESQL = Dialect(
    "postgresql", True, False, True, True, True, False, False, "\n\r", r"\$[0-9]+",
    continued_escapes=True, attribute_calls=True,
)  # fmt: skip
POSTGRESQL_SCS_OFF = Dialect(
    "postgresql (standard_conforming_strings off)",
    True, True, True, True, True, False, False, "\n\r", r"\$[0-9]+", continued_escapes=True,
    attribute_calls=True,
)  # fmt: skip

DIALECTS = ("sqlite", "duckdb", "postgresql")
"""The names ``sql(..., dialect=...)`` accepts."""

_BY_NAME: dict[str, tuple[Dialect, ...]] = {
    # PostgreSQL's setting lives on the server, so both readings are checked.
    "postgresql": (POSTGRESQL, POSTGRESQL_SCS_OFF),
    "duckdb": (DUCKDB, DUCKDB_2),  # DuckDB 1.x's reading and 2.0's
    "sqlite": (SQLITE,),
}
# Without a dialect: every database whose Python drivers use the paramstyle.
_BY_PARAMSTYLE = {
    "qmark": ("sqlite", "duckdb"),  # sqlite3, duckdb
    "numeric": ("sqlite",),
    "named": ("sqlite",),
    "format": ("postgresql",),  # psycopg
    "pyformat": ("postgresql",),
    "dollar": ("postgresql", "duckdb"),  # asyncpg, duckdb
}


def dialects(name: str | None, paramstyle: str) -> tuple[Dialect, ...]:
    """The dialects a query must be safe in: ``name``'s, or (``None``) those of the
    databases whose drivers use ``paramstyle``."""
    if name is None:
        return tuple(d for n in _BY_PARAMSTYLE[paramstyle] for d in _BY_NAME[n])
    try:
        return _BY_NAME[name]
    except KeyError:
        raise ValueError(
            f"sql(): unknown dialect {name!r}; use one of {', '.join(DIALECTS)}, or None for "
            "the databases whose drivers use the paramstyle"
        ) from None


_PLAIN_BODY = r"(?:[^']|'')*"
# Between the parts of a continued string (PostgreSQL's scan.l, quotecontinue): spaces and
# -- comments, at least one newline.
_CONTINUATION = r"(?:[ \t\f]|--[^\n\r]*)*[\n\r](?:[ \t\n\r\f]|--[^\n\r]*[\n\r])*"
_ESCAPE_BODY = r"(?:[^'\\]|\\[\s\S]|'')*"


def _alternatives(d: Dialect) -> list[tuple[str, str]]:
    """``(kind, regex)`` in priority order; the first that matches at a position wins."""
    string_body = _ESCAPE_BODY if d.backslash_strings else _PLAIN_BODY
    stops = re.escape(d.line_comment_stops)
    alternatives = [
        ("field", MARKER),
        ("line_comment", rf"--[^{stops}]*"),
        ("block_comment", r"/\*"),  # its end is found by _block_comment_end
    ]
    if d.escape_strings:
        # PostgreSQL joins 'a' and 'b' separated by a newline (comments allowed) into one
        # string, read as the first part is: E'a' <newline> '\' {x} ' holds the field.
        more = rf"'{_CONTINUATION}'{_ESCAPE_BODY}" if d.continued_escapes else "(?!)"
        alternatives.append(("escape_string", rf"[eE]'{_ESCAPE_BODY}(?:{more})*(?:'|\Z)"))
    if d.unicode_strings:
        alternatives.append(("string", rf"[uU]&'{_PLAIN_BODY}(?:'|\Z)"))
        alternatives.append(("identifier", r'[uU]&"(?:[^"]|"")*(?:"|\Z)'))
    alternatives += [
        ("string", rf"[xXbB]'{_PLAIN_BODY}(?:'|\Z)"),
        ("string", rf"'{string_body}(?:'|\Z)"),
        ("identifier", r'"(?:[^"]|"")*(?:"|\Z)'),
    ]
    if d.backticks:
        alternatives.append(("identifier", r"`(?:[^`]|``)*(?:`|\Z)"))
    if d.brackets:
        alternatives.append(("identifier", r"\[[^\]]*(?:\]|\Z)"))
    if d.dollar_quotes:
        tag = rf"(?:{_WORD_START}{_NAME}*)?"
        alternatives.append(("dollar", rf"\$(?P<tag>{tag})\$[\s\S]*?(?:\$(?P=tag)\$|\Z)"))
    alternatives += [
        ("parameter", d.parameters),
        (
            "number",
            r"0[xXoObB][0-9a-fA-F_]+|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)"
            r"(?:[eE][+-]?[0-9]+)?",
        ),
    ]
    if d.unicode_spaces:
        alternatives.append(("unicode_space", f"[{d.unicode_spaces}]"))
    start, rest = _without(_WORD_START, d.unicode_spaces), _without(_WORD, d.unicode_spaces)
    alternatives += [("word", rf"{start}{rest}*"), ("operator", r"::|[^ \t\n\r\f]")]
    return alternatives


@cache
def _lexer(d: Dialect) -> tuple[re.Pattern[str], dict[str, str]]:
    """The dialect's tokens as one pattern, and the kind of each of its groups."""
    alternatives = _alternatives(d)
    pattern = re.compile(
        "|".join(f"(?P<{kind}_{n}>{regex})" for n, (kind, regex) in enumerate(alternatives))
    )
    return pattern, {f"{kind}_{n}": kind for n, (kind, _) in enumerate(alternatives)}


# SQL's spaces.  U+00A0 and the like are word characters; \v is a space to PostgreSQL 16 but
# an error to SQLite and older PostgreSQL, so it is read as an operator character here.
_SPACE = re.compile(r"[ \t\n\r\f]+")
_COMMENT_EDGE = re.compile(r"/\*|\*/")


def _block_comment_end(text: str, start: int, nested: bool) -> int:
    """Where the comment opened at ``start`` ends (the text's end if it never closes)."""
    if not nested:
        # The first '*/' after the opening '/*', even one whose '*' starts a '/*' inside:
        # SQLite's /*/*/ is one whole comment (a search for both edges would read '/*' at
        # its third character and miss the close).
        end = text.find("*/", start + 2)
        return len(text) if end < 0 else end + 2
    depth = 0
    for edge in _COMMENT_EDGE.finditer(text, start):
        if edge.group() == "/*":
            depth += 1
        else:
            depth -= 1
            if not depth:
                return edge.end()
    return len(text)


def tokens(text: str, dialect: Dialect) -> list[tuple[str, int, int]]:
    """``(kind, start, end)`` of each token of ``text`` as ``dialect`` reads it, spaces left out.

    A string, identifier, dollar quote or block comment that never closes runs to the end.
    """
    lexer, kinds = _lexer(dialect)
    found: list[tuple[str, int, int]] = []
    position, length = 0, len(text)
    while position < length:
        space = _SPACE.match(text, position)
        if space:
            position = space.end()
            continue
        match = lexer.match(text, position)
        assert match is not None and match.lastgroup  # the operator alternative takes any char
        kind = kinds[match.lastgroup]
        end = match.end()
        if kind == "block_comment":
            end = _block_comment_end(text, position, dialect.nested_comments)
        found.append((kind, position, end))
        position = end
    return found


def check_pattern(members: tuple[Dialect, ...], percent: bool) -> re.Pattern[str]:
    """One regular expression whose ``findall`` lists a rendered query's tokens.

    It lexes with every feature of ``members`` at once (a stricter reading is safe: the check
    compares the rendered query with the placeholder rendering, both read the same way) and
    knows the placeholders the renderer writes, plus ``%%`` when ``percent`` is set.  Each
    match is ``(text, tag)``; block comments do not nest here, which again only has to agree
    with itself.
    """
    return _check_pattern(members, percent)


@cache
def _check_pattern(members: tuple[Dialect, ...], percent: bool) -> re.Pattern[str]:
    union = Dialect(
        "union",
        nested_comments=False,
        backslash_strings=any(d.backslash_strings for d in members),
        escape_strings=any(d.escape_strings for d in members),
        unicode_strings=any(d.unicode_strings for d in members),
        dollar_quotes=any(d.dollar_quotes for d in members),
        backticks=any(d.backticks for d in members),
        brackets=any(d.brackets for d in members),
        # A -- comment read as long as the longest reading of any member.
        line_comment_stops="".join(
            c for c in "\n\r" if all(c in d.line_comment_stops for d in members)
        ),
        parameters=rf"\?|:{_NAME}+|\$[0-9]+" + (r"|%s|%\([^)]*\)s|%%" if percent else ""),
    )
    alternatives = []
    for kind, regex in _alternatives(union):
        if kind == "block_comment":
            regex = r"/\*[\s\S]*?(?:\*/|\Z)"
        alternatives.append(regex)
    if not union.dollar_quotes:
        alternatives.append("(?P<tag>(?!))")  # never matches: every match is (text, tag)
    return re.compile(r"[ \t\n\r\f]*(" + "|".join(alternatives) + ")")
