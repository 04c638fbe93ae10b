"""The ``sql`` renderer: an i-string as a parameterized query, ``cursor.execute(*sql(i"..."))``.

Each interpolation becomes a placeholder and its value a parameter, in the paramstyle the
driver wants (PEP 249): ``qmark`` ``?`` (sqlite3, DuckDB), ``numeric`` ``:1``, ``named``
``:name`` (sqlite3), ``format`` ``%s`` and ``pyformat`` ``%(name)s`` (psycopg), and ``dollar``
``$1`` (DuckDB, asyncpg).  For the two ``format`` styles every ``%`` of the query text is
written ``%%``, as those drivers require.

Specs follow psycopg's t-string convention:

* ``{name:i}`` — an identifier, double-quoted with inner ``"`` doubled; a tuple of strings
  gives a qualified name (``"schema"."table"``).  Empty, NUL or non-str is refused.
* ``{x:l}`` — a literal written into the text: ``None``, ``bool``, ``int``, finite ``float``
  and ``Decimal``, and ``str`` with ``'`` doubled (standard SQL strings, as PostgreSQL, SQLite
  and DuckDB read them; MySQL's backslash escapes are not supported).
* ``{sub:q}`` — a nested template composed in place, its parameters renumbered.
* ``{ids:in}`` — a non-empty sequence as ``(?, ?, ?)``, one parameter per item.

Conversions (``!r`` ``!s`` ``!a``) and any other spec are refused: the parameter must reach the
driver with its Python type, and a spec the renderer does not know is most likely a mistake.
A field inside a quoted string, a double-quoted identifier, a dollar-quoted string or a comment
written in the static text is refused, with the fix.

The static text is scanned once per distinct template (cached) by a small state machine.
This module imports nothing from IPython.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from .fields import RenderError, field_text
from .template import InterpolationTemplate, as_template, is_template

__all__ = ["PARAMSTYLES", "Query", "sql"]

PARAMSTYLES = ("qmark", "numeric", "named", "format", "pyformat", "dollar")
_NAMED_STYLES = ("named", "pyformat")
_PERCENT_STYLES = ("format", "pyformat")
_SUPPORTED = (
    "no spec (a parameter), ':i' (identifier), ':l' (literal), ':q' (nested i-string) "
    "and ':in' (a sequence as (?, ?, ...)); no conversion"
)


class Query(NamedTuple):
    """A query and its parameters: ``cursor.execute(*query)`` or ``execute(q.sql, q.params)``.

    ``params`` is a tuple for the positional paramstyles and a dict for ``named``/``pyformat``.
    """

    sql: str
    params: tuple[Any, ...] | dict[str, Any]


# Scanner states.
_CODE, _QUOTE, _ESCAPE_QUOTE, _IDENTIFIER, _DOLLAR, _LINE_COMMENT, _BLOCK_COMMENT = range(7)
_WHERE = {
    _QUOTE: (
        "inside a quoted SQL string written in the static text ('...{x}...')",
        "Remove the quotes: write ... = {x} and let the parameter carry the value (for a "
        "pattern, build it in Python: like {'%' + x + '%'})",
    ),
    _ESCAPE_QUOTE: (
        "inside an E'...' string written in the static text",
        "Remove the quotes: write ... = {x} and let the parameter carry the value",
    ),
    _IDENTIFIER: (
        'inside a double-quoted identifier written in the static text ("...{x}...")',
        "Remove the quotes and write {x:i}: the renderer quotes the identifier itself",
    ),
    _DOLLAR: (
        "inside a dollar-quoted string written in the static text",
        "Move it out of the $$...$$ string and pass it as a parameter",
    ),
    _LINE_COMMENT: ("inside a -- comment", "Move it out of the comment"),
    _BLOCK_COMMENT: ("inside a /* */ comment", "Move it out of the comment"),
}
_DOLLAR_TAG = re.compile(r"\$([A-Za-z_\x80-\U0010ffff][\w]*)?\$")


def _word_char(c: str) -> bool:
    return c.isalnum() or c in "_$"


class _Plan(NamedTuple):
    refusals: tuple[tuple[str, str] | None, ...]  # per field: (where, fix) or None
    percent_strings: tuple[str, ...]  # the static strings with '%' doubled


@lru_cache(maxsize=512)
def _plan(strings: tuple[str, ...]) -> _Plan:
    state = _CODE
    depth = 0  # nesting of /* */ comments (PostgreSQL and standard SQL nest them)
    tag = ""  # the closing tag of a dollar-quoted string
    refusals: list[tuple[str, str] | None] = []
    for index, string in enumerate(strings):
        if index:
            refusals.append(_WHERE.get(state))
        i, n = 0, len(string)
        while i < n:
            c = string[i]
            if state == _CODE:
                if c == "'":
                    escaped = (
                        i >= 1
                        and string[i - 1] in "eE"
                        and (i == 1 or not _word_char(string[i - 2]))
                    )
                    state = _ESCAPE_QUOTE if escaped else _QUOTE
                elif c == '"':
                    state = _IDENTIFIER
                elif string.startswith("--", i):
                    state = _LINE_COMMENT
                    i += 1
                elif string.startswith("/*", i):
                    state, depth = _BLOCK_COMMENT, 1
                    i += 1
                elif c == "$" and (i == 0 or not _word_char(string[i - 1])):
                    match = _DOLLAR_TAG.match(string, i)
                    if match:
                        state, tag = _DOLLAR, match.group()
                        i = match.end() - 1
            elif state == _QUOTE:
                if c == "'":  # a doubled '' closes and reopens: same result
                    state = _CODE
            elif state == _ESCAPE_QUOTE:
                if c == "\\":
                    i += 1
                elif c == "'":
                    state = _CODE
            elif state == _IDENTIFIER:
                if c == '"':
                    state = _CODE
            elif state == _DOLLAR:
                if string.startswith(tag, i):
                    state = _CODE
                    i += len(tag) - 1
            elif state == _LINE_COMMENT:
                if c == "\n":
                    state = _CODE
            elif string.startswith("*/", i):  # _BLOCK_COMMENT
                depth -= 1
                i += 1
                if not depth:
                    state = _CODE
            elif string.startswith("/*", i):
                depth += 1
                i += 1
            i += 1
    return _Plan(tuple(refusals), tuple(s.replace("%", "%%") for s in strings))


class _Builder:
    """Collects the query text and the parameters, numbering placeholders as it goes."""

    __slots__ = ("named", "percent", "pieces", "positional", "style")

    def __init__(self, paramstyle: str) -> None:
        self.style = paramstyle
        self.percent = paramstyle in _PERCENT_STYLES
        self.pieces: list[str] = []
        self.positional: list[Any] = []
        self.named: dict[str, Any] = {}

    def text(self, text: str) -> None:
        self.pieces.append(text.replace("%", "%%") if self.percent else text)

    def parameter(self, value: object, expression: str) -> str:
        style = self.style
        if style in _NAMED_STYLES:
            base = expression.strip()
            if not base.isidentifier():
                base = "p"
            name = base if base != "p" else f"p{len(self.named) + 1}"
            suffix = 1
            while name in self.named:
                suffix += 1
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


def _identifier(value: object, field: str) -> str:
    names = value if isinstance(value, tuple) and value else (value,)
    quoted = []
    for name in names:
        if not isinstance(name, str):
            raise RenderError(
                f"sql(): {field} is an identifier and needs a str (or a tuple of str for a "
                f"qualified name), got {type(name).__name__}."
            )
        if not name or "\0" in name:
            raise RenderError(
                f"sql(): {field} is an identifier, which cannot be "
                f"{'empty' if not name else 'contain a NUL byte'}. Check the value."
            )
        quoted.append('"' + name.replace('"', '""') + '"')
    return ".".join(quoted)


def _literal(value: object, field: str) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float | Decimal):
        if isinstance(value, float | Decimal) and not math.isfinite(value):
            raise RenderError(
                f"sql(): {field} is {value}, which has no portable SQL literal. Pass it as a "
                "parameter (drop ':l')."
            )
        text = repr(value) if isinstance(value, float) else str(value)
        # Parenthesized so that 'x-{n:l}' can never become the comment 'x--5'.
        return f"({text})" if text.startswith("-") else text
    if isinstance(value, str):
        if "\0" in value:
            raise RenderError(f"sql(): the value of {field} contains a NUL byte. Remove it.")
        return "'" + value.replace("'", "''") + "'"
    raise RenderError(
        f"sql(): {field} is a literal, but a {type(value).__name__} has no safe SQL literal. "
        "':l' takes None, bool, int, float, Decimal or str; pass anything else as a "
        "parameter (drop ':l')."
    )



def _render(template: InterpolationTemplate, builder: _Builder) -> None:
    plan = _plan(template.strings)
    strings = plan.percent_strings if builder.percent else template.strings
    pieces = builder.pieces
    pieces.append(strings[0])
    for position, interpolation in enumerate(template.interpolations, start=1):
        field = field_text(interpolation, position)
        refusal = plan.refusals[position - 1]
        if refusal is not None:
            where, fix = refusal
            raise RenderError(f"sql(): {field} is {where}. {fix}.")
        if interpolation.conversion is not None:
            raise RenderError(
                f"sql(): {field} has a conversion, but a parameter must reach the driver "
                "with its own type. Drop it, or convert in the expression "
                f"({{str(x)}} rather than {{x!s}}). Supported: {_SUPPORTED}."
            )
        spec = interpolation.format_spec
        value = interpolation.value
        expression = interpolation.expression
        if spec == "":
            if is_template(value):
                raise RenderError(
                    f"sql(): {field} is a nested template; write it with ':q' to compose "
                    "it into the query."
                )
            pieces.append(builder.parameter(value, expression))
        elif spec == "i":
            builder.text(_identifier(value, field))
        elif spec == "l":
            builder.text(_literal(value, field))
        elif spec == "q":
            if not is_template(value):
                raise RenderError(
                    f"sql(): {field} composes a nested query and needs an i-string "
                    f"(i'...'), got {type(value).__name__}. A plain str would be pasted "
                    "into the query unchecked; build the fragment with i'...' instead."
                )
            _render(as_template(value, renderer="sql"), builder)
        elif spec == "in":
            if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
                raise RenderError(
                    f"sql(): {field} expands a sequence into (?, ?, ...), but the value is a "
                    f"{type(value).__name__}. Pass a list or tuple."
                )
            items = list(value)
            if not items:
                raise RenderError(
                    f"sql(): {field} is empty, and IN () is not valid SQL. Handle the empty "
                    "case before building the query."
                )
            marks = ", ".join(builder.parameter(item, expression) for item in items)
            pieces.append(f"({marks})")
        else:
            raise RenderError(f"sql(): unknown spec in {field}. Supported: {_SUPPORTED}.")
        pieces.append(strings[position])


def sql(template: object, paramstyle: str = "qmark") -> Query:
    """Render an i-string as a :class:`Query` ``(sql, params)`` in a PEP 249 paramstyle.

    ``cur.execute(*sql(i"select * from t where id = {id}"))`` → ``("select * from t where
    id = ?", (id,))``.  ``paramstyle`` is one of :data:`PARAMSTYLES`.
    """
    t = as_template(template, renderer="sql")
    if paramstyle not in PARAMSTYLES:
        raise ValueError(
            f"sql(): unknown paramstyle {paramstyle!r}; use one of {', '.join(PARAMSTYLES)} "
            "(your driver's module.paramstyle says which it wants)"
        )
    builder = _Builder(paramstyle)
    _render(t, builder)
    params: tuple[Any, ...] | dict[str, Any] = (
        builder.named if paramstyle in _NAMED_STYLES else tuple(builder.positional)
    )
    return Query("".join(builder.pieces), params)
