"""The rewrite's fast path: source whose i-literals all have the common shape, read by
compiled regular expressions (one match per i-literal, finding it and skipping the code
before it, and one split of its fields), so that code, comments and other literals cost no
Python work at all.

The common shape (what :func:`ipy_istring.rewrite._simple_parts` also reads without a
parser): an i-literal that stands alone (no literal implicitly concatenated to it), has no
backslash, carriage return or NUL, and whose fields are each a plain (dotted, up to four
parts) ASCII name, optionally ``=``, a conversion ``!s``/``!r``/``!a`` and a spec without
braces, quotes or newlines.  Other literals are skipped whole: plain strings with any
prefix, and f/t-literals whose fields hold no quote, brace, backslash, comment or unclosed
bracket (so no literal can hide in them).

Anything else and the fast path gives up (``None``): the full scan (:mod:`ipy_istring._scan`)
and Python's parser then decide, as for every literal before.  Giving up is always safe, so
every pattern here errs on that side; ``tests/test_rewrite.py`` checks that whatever it
rewrites, the full rewrite writes the same.  Nothing here imports IPython.
"""

from __future__ import annotations

import functools
import keyword
import re
import sys
from collections.abc import Callable
from itertools import repeat

from .template import _speedups as _compiled

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .template import _PlacedField

__all__ = ["may_hold_istring", "rewrite_simple"]

# What gives a literal's layout key from its static strings and placed fields: each field
# (expression, conversion, spec, where its value stands, -1: no spec here has fields).
_LayoutKey = Callable[[tuple[str, ...], "tuple[_PlacedField, ...]"], int]

# The prefixes, as what stands right before a literal's first quote: the whole word there
# (CPython's tokenizer reads the word, then sees the quote; `xi"..."` is a name and a string).
_I_PREFIXES = ("[iI]", "[iI][rR]", "[rR][iI]")
_T_PREFIXES = ("[fF]", "[fF][rR]", "[rR][fF]") + (
    ("[tT]", "[tT][rR]", "[rR][tT]") if sys.version_info >= (3, 14) else ()
)


def _after(prefixes: tuple[str, ...]) -> str:
    """At a quote right after one of these prefixes."""
    return "(?:" + "|".join(rf"(?<=\b{prefix})" for prefix in prefixes) + ")"


def _not_after(prefixes: tuple[str, ...]) -> str:
    """At a quote after none of these prefixes."""
    return "".join(rf"(?<!\b{prefix})" for prefix in prefixes)


# (On speed: a repeated group, `(?:...)*` or `(?:...)?`, costs the regex engine an
# allocation each time it is entered, a repeated character class does not.  So the patterns
# try the common case, repeated character classes only, first, and write "optional" as an
# empty alternative.)

# What may stand between implicitly concatenated literals: blanks, line continuations and
# (inside brackets) comments.  Each repeat starts with a different character and a comment
# runs to the end of its line, so a failing match never tries the same text two ways.
_GAP = r"[ \t\f\r\n]*(?:(?=[\\\#])(?:[ \t\f\r\n]|\\\r?\n|\#[^\n]*(?![^\n]))*|)"
# After a literal: no i-literal joined to it.  (After a newline outside brackets it would not
# be joined, but telling that takes the full scan.)
_NOT_JOINED_TO_ISTRING = rf"(?!{_GAP}(?:[iI][rR]?|[rR][iI])['\"])"

# A string literal of a non-template kind from its first quote: a backslash escapes the next
# character, raw or not, as in the tokenizer; three quotes always open a triple-quoted one.
_PLAIN_STRING = "|".join(
    rf"{q}{q}{q}[^{q}\\]*{q}{q}{q}"  # (three quotes first, each common case first)
    rf"|{q}{q}{q}[^{q}\\]*(?:(?:\\[\s\S]|{q}(?!{q}{q}))[^{q}\\]*)*{q}{q}{q}"
    rf"|{q}(?!{q}{q})[^{q}\\\n]*{q}"
    rf"|{q}(?!{q}{q})[^{q}\\\n]*(?:\\[\s\S][^{q}\\\n]*)*{q}"
    for q in "'\""
)


def _template_string(text: str, field: str, escape: str) -> str:
    """A template literal from its first quote: text (``text`` is its character class for a
    single-quoted literal, ``Q`` standing for the quote), doubled braces, ``escape`` and
    ``field``; in a triple-quoted one also newlines and quotes that do not close it."""
    bodies = []
    for q in ("'''", '"""', "'", '"'):
        char = text.replace("Q", q[0])
        others = [escape, r"\{\{", r"\}\}", field]
        if len(q) == 3:
            char = char.replace(r"\n", "")
            others.append(rf"{q[0]}(?!{q[0]}{q[0]})")
        alternatives = "|".join(other for other in others if other)
        opening = q if len(q) == 3 else rf"{q}(?!{q}{q})"
        bodies.append(rf"{opening}{char}*(?:(?:{alternatives}){char}*)*{q}")
    return "(?:" + "|".join(bodies) + ")"


# An f/t-literal skipped whole: no \N{...} or \{ escape; in a field no quote, brace, backslash,
# comment or newline, and brackets only one deep, each closed (an unclosed one would carry
# the field on past its `}`).
_FIELD_CHAR = r"[^{}'\"\\\n\r\#()\[\]]"
_SKIPPED_FIELD = (
    rf"\{{{_FIELD_CHAR}*\}}"
    rf"|\{{(?:{_FIELD_CHAR}|\({_FIELD_CHAR}*\)|\[{_FIELD_CHAR}*\])*\}}"
)
_SKIPPED_TEMPLATE = _template_string(r"[^{}\\Q\n]", _SKIPPED_FIELD, escape=r"\\[^N{}\n\r]")

# A field of the common shape, its expression, ``=`` with the blanks after it, conversion and
# spec (``""`` when it has none) captured.  A plain (dotted) ASCII name that is not a keyword
# needs no parser; ``{x=:}`` (an empty spec after ``=``) is left to the parser.
_NAME = rf"(?!(?:{'|'.join(keyword.kwlist)})(?![A-Za-z0-9_]))[A-Za-z_][A-Za-z0-9_]*"
_DOTTED_NAME = rf"{_NAME}(?:\.{_NAME}(?:\.{_NAME}(?:\.{_NAME}|)|)|)"  # up to x.y.z.w
_FIELD = (
    rf"\{{([ \t]*{_DOTTED_NAME}[ \t]*)(?:(=[ \t]*(?!:\}}))|)(?:!([sra])(?=[:}}])|)"
    rf"(?::|(?=\}}))([^{{}}\\'\"\n\r\0]*)\}}"
)
_FIELD_GROUPS = 4

# Code up to the next i-literal: code without quotes or comments (names and prefixes
# included: each literal checks the word before its quote), comments, and literals of other
# kinds.  It stops early at anything the fast path does not read: a literal joined to an
# i-literal, an unterminated literal, an f/t-literal with quotes or braces in a field.
_SKIP = (
    r"(?:[^'\"\#]+"
    r"|\#[^\n]*"
    rf"|{_not_after(_I_PREFIXES + _T_PREFIXES)}(?:{_PLAIN_STRING}){_NOT_JOINED_TO_ISTRING}"
    rf"|{_after(_T_PREFIXES)}{_SKIPPED_TEMPLATE}{_NOT_JOINED_TO_ISTRING}"
    ")*"
)

# Code up to the next i-literal, then that literal (group 1, from its first quote) if it has
# no backslash, carriage return or NUL and nothing joined to it.  Its fields are read (and
# their shape checked) by _call.
_NEXT_ISTRING = (
    _SKIP
    + "(?:"
    + _after(_I_PREFIXES)
    + "("
    + "|".join(
        rf"{q}{q}{q}[^{q}\\\r\0]*{q}{q}{q}"
        rf"|{q}{q}{q}[^{q}\\\r\0]*(?:{q}(?!{q}{q})[^{q}\\\r\0]*)*{q}{q}{q}"
        rf"|{q}(?!{q}{q})[^{q}\\\r\0\n]*{q}"
        for q in "'\""
    )
    + rf")(?!{_GAP}\w{{0,2}}['\"])|)"
)


class _Patterns:
    """The expressions above, compiled.  (Compiling them takes longer than importing the whole
    package otherwise, so it waits for the first cell that may hold an i-literal.)"""

    def __init__(self) -> None:
        self.skip_code = re.compile(_SKIP)
        self.next_istring = re.compile(_NEXT_ISTRING)
        self.split_fields = re.compile(_FIELD)
        self.fields_and_braces = re.compile(rf"\{{\{{|\}}\}}|{_FIELD}")


@functools.cache
def _patterns() -> _Patterns:
    return _Patterns()


def may_hold_istring(source: str) -> bool:
    """Whether ``source`` may hold an i-literal: ``False`` when one pass of a compiled
    regular expression reads it all as code, comments and literals of other kinds."""
    return _patterns().skip_code.match(source).end() != len(source)  # type: ignore[union-attr]


# Each distinct literal's replacement call, as made before: a literal written again (a cell
# run again, a literal repeated) costs a dictionary look-up.  Bounded: cleared when full.
_CALLS: dict[str, str] = {}
_MAX_CALLS = 10_000


def rewrite_simple(source: str, builder: str, layout_key: _LayoutKey) -> str | None:
    """``source`` with each i-literal replaced by ``builder(KEY, (expr), ...)``, ``KEY``
    from ``layout_key``: exactly what the full rewrite writes.  ``source`` itself when it
    has no i-literal, ``None`` when something in it is not of the common shape.

    The C accelerator does it when it is in use (``_speedups.rewrite_simple``: the loop of
    :func:`_python_rewrite_simple` and :func:`_call` without a Python frame per literal)."""
    if _compiled is None:
        return _python_rewrite_simple(source, builder, layout_key)
    return _compiled.rewrite_simple(  # type: ignore[no-any-return]
        source, builder, layout_key, _patterns(), _CALLS, _MAX_CALLS, _call_field_by_field
    )


def _python_rewrite_simple(source: str, builder: str, layout_key: _LayoutKey) -> str | None:
    """:func:`rewrite_simple` in Python: the reference, and the code that runs without the
    C accelerator."""
    patterns, calls = _patterns(), _CALLS
    next_istring = patterns.next_istring.match
    out: list[str] = []
    pos, end = 0, len(source)
    while True:
        found = next_istring(source, pos)
        quote, after = found.span(1)  # type: ignore[union-attr]
        if quote < 0:  # no i-literal up to where the code stopped being read
            if found.end() != end:  # type: ignore[union-attr]
                return None
            break
        prefix = quote - 2 if quote >= 2 and source[quote - 2] in "iIrR" else quote - 1
        text = source[quote:after]
        call = calls.get(text)
        if call is None:
            # (Three quotes open a triple-quoted literal, as in the tokenizer: the pattern
            # tries that first, and an empty '' followed by a quote is "joined".)
            quotes = 3 if text.startswith(text[0] * 3) else 1
            call = _call(text[quotes:-quotes], builder, layout_key, patterns)
            if call is None:
                return None
            if len(calls) >= _MAX_CALLS:
                calls.clear()
            calls[text] = call
        out.append(source[pos:prefix])
        out.append(call)
        pos = after
    if not out:
        return source
    out.append(source[pos:])
    return "".join(out)


def _call(
    body: str, builder: str, layout_key: _LayoutKey, patterns: _Patterns
) -> str | None:
    """The call that replaces an i-literal with this body, its layout stored; ``None`` if a
    field is not of the common shape."""
    # The text, then for each field its four groups and the text after it.
    pieces = patterns.split_fields.split(body)
    expressions = pieces[1 :: _FIELD_GROUPS + 1]
    fields = len(expressions)
    if (
        body.count("{") != fields  # a brace outside the fields: {{, }} or another shape
        or body.count("}") != fields
        or "\n" in body
        or ("=" in body and any(pieces[2 :: _FIELD_GROUPS + 1]))  # a debug field {x=}
    ):
        return _call_field_by_field(body, builder, layout_key, patterns)
    strings = tuple(pieces[:: _FIELD_GROUPS + 1])
    conversions = pieces[3 :: _FIELD_GROUPS + 1]
    specs = pieces[4 :: _FIELD_GROUPS + 1]
    placed = tuple(zip(expressions, conversions, specs, range(fields), repeat(-1)))
    key = layout_key(strings, placed)  # type: ignore[arg-type]
    if not expressions:
        return f"{builder}({key})"
    return f"{builder}({key}, (" + "), (".join(expressions) + "))"


def _call_field_by_field(
    body: str, builder: str, layout_key: _LayoutKey, patterns: _Patterns
) -> str | None:
    """:func:`_call` for a body with doubled braces, debug fields or newlines."""
    strings: list[str] = []
    fields: list[_PlacedField] = []
    code: list[str] = []
    text: list[str] = []
    pos = counted_to = 0
    for match in patterns.fields_and_braces.finditer(body):
        if _has_brace(body, pos, match.start()):  # a field of another shape
            return None
        text.append(body[pos : match.start()])
        pos = match.end()
        expression, debug, conversion, spec = match.groups()
        if expression is None:  # {{ or }}
            text.append(match.group()[0])
            continue
        if debug is not None:
            text.append(expression + debug)
            if conversion is None and not spec:
                conversion = "r"
        strings.append("".join(text))
        text.clear()
        fields.append((expression, conversion, spec, len(fields), -1))  # type: ignore[arg-type]
        # Each expression on the line it was written on.
        code.append(", " + "\n" * body.count("\n", counted_to, match.start(1)))
        code.append("(" + expression + ")")
        counted_to = match.end(1)
    if _has_brace(body, pos, len(body)):
        return None
    text.append(body[pos:])
    strings.append("".join(text))
    key = layout_key(tuple(strings), tuple(fields))
    return f"{builder}({key}" + "".join(code) + "\n" * body.count("\n", counted_to) + ")"


def _has_brace(text: str, start: int, end: int) -> bool:
    return text.find("{", start, end) >= 0 or text.find("}", start, end) >= 0
