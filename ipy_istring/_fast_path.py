"""The rewrite's fast path: source whose i-literals all have the common shape, read by a few
compiled regular expressions, so that code, comments and other literals cost no Python work.

The common shape (what :func:`ipy_istring.rewrite._simple_parts` also reads without a
parser): an i-literal that stands alone (no literal implicitly concatenated to it), has no
backslash, carriage return or NUL, and whose fields are each a plain (dotted) ASCII name,
optionally ``=``, a conversion ``!s``/``!r``/``!a`` and a spec without braces or quotes.
Other literals are skipped whole: plain strings with any prefix, and f/t-literals whose
fields hold no quote, brace, backslash or comment (so no literal can hide in them).

Anything else, and the fast path gives up (``None``): the full scan (:mod:`ipy_istring._scan`)
and Python's parser then decide, as for every literal before.  Giving up is always safe,
so every pattern here errs on that side.  Nothing here imports IPython.
"""

from __future__ import annotations

import keyword
import re
import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .template import Conversion

__all__ = ["may_hold_istring", "rewrite_simple"]

_I_PREFIX = r"(?:[iI][rR]?|[rR][iI])"
_T_PREFIX = r"(?:[fF][rR]?|[rR][fF]" + (
    r"|[tT][rR]?|[rR][tT])" if sys.version_info >= (3, 14) else ")"
)

# What may stand between implicitly concatenated literals: blanks, line continuations and
# (inside brackets) comments.  Each repeat starts with a different character and a comment
# runs to the end of its line, so a failing match never tries the same text two ways.
_GAP = r"(?:[ \t\f\r\n]|\\\r?\n|\#[^\n]*(?![^\n]))*"
# After a literal: no i-literal joined to it (an i-literal after a newline outside brackets
# is not joined, but telling that takes the full scan).
_NOT_JOINED_TO_ISTRING = rf"(?!{_GAP}{_I_PREFIX}['\"])"


def _plain_bodies() -> str:
    """A string literal of any non-template kind, from its first quote to its closing one
    (the tokenizer's rule: a backslash escapes the next character, raw or not)."""
    bodies = []
    for q in ("'", '"'):
        bodies.append(rf"{q}{q}{q}[^{q}\\]*(?:(?:\\[\s\S]|{q}(?!{q}{q}))[^{q}\\]*)*{q}{q}{q}")
        bodies.append(rf"{q}[^{q}\\\n]*(?:\\[\s\S][^{q}\\\n]*)*{q}")
    return "|".join(bodies)


def _template_bodies(field: str, triple_text: str, single_text: str, escape: str) -> list[str]:
    """The four quotings of a template literal's body, each with its text characters (``Q``
    stands for the quote), ``{{``, ``}}``, the given field and, in a triple-quoted body, a
    quote not starting the closing three; the body of each is captured."""
    bodies = []
    for q in ("'''", '"""', "'", '"'):
        text = (triple_text if len(q) == 3 else single_text).replace("Q", q[0])
        others = [escape, r"\{\{", r"\}\}", field] + ([rf"{q[0]}(?!{q[0]}{q[0]})"] * (len(q) == 3))
        alternatives = "|".join(a for a in others if a)
        bodies.append(rf"{q}({text}*(?:(?:{alternatives}){text}*)*){q}")
    return bodies


# f/t-literals skipped whole: text with simple escapes (no \N{...}, no \{), fields with no
# quote, brace, backslash, comment or newline.
_SKIPPED_FIELD = r"\{[^{}'\"\\\n\r\#]*\}"
_SKIPPED_TEMPLATE = "|".join(
    _template_bodies(_SKIPPED_FIELD, r"[^{}\\Q]", r"[^{}\\Q\n]", r"\\[^N{}\n\r]")
).replace("(", "(?:").replace("(?:?", "(?")

# A plain (dotted) ASCII name that is not a keyword, as an expression: what needs no parser.
_KEYWORD = "|".join(keyword.kwlist)
_NAME = rf"(?!(?:{_KEYWORD})(?![A-Za-z0-9_]))[A-Za-z_][A-Za-z0-9_]*"
_EXPRESSION = rf"[ \t]*{_NAME}(?:\.{_NAME})*[ \t]*"
# A field of the common shape; its expression, `=` with the blanks after it, conversion and
# spec are captured (groups 1-4) in _FIELDS, not in ISTRING_OR_UNSURE.
_FIELD = rf"\{{({_EXPRESSION})(=[ \t]*)?(?:!([sra])(?=[:}}]))?(?::([^{{}}\\'\"\n\r\0]*))?\}}"
_FIELDS = re.compile(rf"\{{\{{|\}}\}}|{_FIELD}")
_UNCAPTURED_FIELD = _FIELD.replace("(", "(?:").replace("(?:?", "(?")

# The code from where the match starts up to the next i-literal: code without words, quotes
# or comments; comments; words not before a quote; literals of any other kind.  It stops
# early at anything the fast path does not read: a literal joined to an i-literal, an
# unterminated literal, an f/t-literal with quotes or braces in a field.
_SKIP = re.compile(
    rf"""(?:
        [^\w'"\#]+
      | \w+(?![\w'"])
      | (?!(?:{_I_PREFIX}|{_T_PREFIX})['"])\w*(?:{_plain_bodies()}){_NOT_JOINED_TO_ISTRING}
      | {_T_PREFIX}(?:{_SKIPPED_TEMPLATE}){_NOT_JOINED_TO_ISTRING}
      | \#[^\n]*
    )*""",
    re.VERBOSE,
)

# An i-literal of the common shape, not joined to another literal; its body is captured
# (the last group of the match).
_SIMPLE_ISTRING = re.compile(
    _I_PREFIX
    + "(?:"
    + "|".join(
        _template_bodies(
            _UNCAPTURED_FIELD, r"[^{}\\\r\0Q]", r"[^{}\\\r\0Q\n]", escape=""
        )
    )
    + r")(?!"
    + _GAP
    + r"\w{0,2}['\"])"
)


def may_hold_istring(source: str) -> bool:
    """Whether ``source`` may hold an i-literal: ``False`` when one pass of compiled regular
    expressions reads it all as code, comments and literals of other kinds."""
    return _SKIP.match(source).end() != len(source)  # type: ignore[union-attr]


# Each distinct literal's replacement call, as made before: a literal written again (a cell
# run again, a literal repeated) costs a dictionary look-up.  Bounded: cleared when full.
_CALLS: dict[str, str] = {}
_MAX_CALLS = 10_000

_Parts = tuple[tuple[str, ...], tuple[tuple[str, "Conversion | None", "str | None"], ...]]


def rewrite_simple(source: str, builder: str, layout_key: Callable[[_Parts], int]) -> str | None:
    """``source`` with each i-literal replaced by ``builder(KEY, (expr), ...)``, ``KEY``
    from ``layout_key`` (exactly what the full rewrite writes), ``source`` itself when it
    has no i-literal, or ``None`` when something in it is not of the common shape."""
    skip, simple, calls = _SKIP.match, _SIMPLE_ISTRING.match, _CALLS
    out: list[str] = []
    pos, end = 0, len(source)
    while (stop := skip(source, pos).end()) != end:  # type: ignore[union-attr]
        literal = simple(source, stop)
        if literal is None:
            return None
        text = literal.group()
        call = calls.get(text)
        if call is None:
            body = literal.lastindex or 0
            span = (literal.start(body) - stop, literal.end(body) - stop)
            call = _call(text, *span, builder, layout_key)
            if call is None:
                return None
            if len(calls) >= _MAX_CALLS:
                calls.clear()
            calls[text] = call
        out.append(source[pos:stop])
        out.append(call)
        pos = literal.end()
    if not out:
        return source
    out.append(source[pos:])
    return "".join(out)


def _call(
    text: str, body_start: int, body_end: int, builder: str, layout_key: Callable[[_Parts], int]
) -> str | None:
    """The call replacing one i-literal of the common shape (``text``, its body at
    ``body_start:body_end``), its layout stored; ``None`` for the one shape the regular
    expressions let through but leave to the parser: ``{x=:}``."""
    strings: list[str] = []
    fields: list[tuple[str, Conversion | None, str | None]] = []
    code: list[str] = []
    multiline = "\n" in text
    pos = counted_to = body_start
    for field in _FIELDS.finditer(text, body_start, body_end):
        expression, debug, conversion, spec = field.groups()
        if expression is None:  # {{ or }}: undone with the text around it
            continue
        plain = _undouble(text[pos : field.start()])
        if debug is not None:
            if spec == "":
                return None
            plain += expression + debug
            if conversion is None and spec is None:
                conversion = "r"
        strings.append(plain)
        fields.append((expression, conversion, spec or ""))  # type: ignore[arg-type]
        if multiline:  # each expression on the line it was written on
            code.append(", " + "\n" * text.count("\n", counted_to, field.start(1)))
            counted_to = field.end(1)
            code.append("(" + expression + ")")
        else:
            code.append(", (" + expression + ")")
        pos = field.end()
    strings.append(_undouble(text[pos:body_end]))
    key = layout_key((tuple(strings), tuple(fields)))
    closing = "\n" * text.count("\n", counted_to) + ")" if multiline else ")"
    return f"{builder}({key}" + "".join(code) + closing


def _undouble(text: str) -> str:
    """Literal text with its doubled braces undone (the pattern admits no single one)."""
    if "{" in text or "}" in text:
        return text.replace("{{", "{").replace("}}", "}")
    return text
