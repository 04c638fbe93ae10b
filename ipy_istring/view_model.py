"""What the display shows of a template, read once into plain, bounded, already-safe data.

:func:`describe` is the only code of the display that touches the user's objects: it reads a
template (anything with ``strings`` and ``interpolations``) into a :class:`TemplateView` of
strings and numbers: every repr cut (:func:`value_repr`), every hostile ``__repr__`` caught,
every renderer run and its result read inside a guard, so one renderer's failure (even a
result whose attribute raises when read) becomes that renderer's own error and nothing else.
The text, HTML and widget views only lay this data out.

What the display catches from the user's objects is every ``BaseException`` but
``KeyboardInterrupt``: a ``__repr__``, ``__format__`` or renderer that raises ``SystemExit``,
``GeneratorExit`` or its own ``BaseException`` subclass is shown as that value's or that
renderer's error, like any exception.  ``KeyboardInterrupt`` goes through: it is the user's
Ctrl-C on a slow repr or renderer, and must stop the cell.  ``SystemExit`` is shown, not let
through: IPython never exits on one raised by the user's code (it prints "An exception has
occurred" and goes on), so letting it through would only lose the whole output, and a value
calling ``sys.exit()`` from its repr is not the user asking to leave (``exit`` is).

Cuts are made one way everywhere (:class:`Clipped` keeps how much was left out), long lists
(fields, parameters, arguments) show their first and last rows (:func:`shown_rows`), and
:func:`visible` makes every control, bidi, zero-width and other invisible character show as
its escape, so no value can disguise what will run.  The values a renderer returns are never
changed: only what is shown is.
"""

from __future__ import annotations

import builtins
import re
import reprlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple
from unicodedata import bidirectional

from .display_options import options
from .fields import SharedTexts, shared_texts, value_text
from .template import as_template, is_template, render_format

__all__ = [
    "Clipped",
    "FieldView",
    "RenderedOutput",
    "Row",
    "SourcePart",
    "TemplateView",
    "ValueText",
    "clip",
    "describe",
    "exact_text",
    "exception_text",
    "ordered_renderers",
    "render_one",
    "render_within_limits",
    "right_to_left",
    "shown_as_is",
    "shown_name",
    "shown_rows",
    "type_name",
    "value_repr",
    "visible",
    "visible_parts",
]


# --------------------------------------------------------------------------------------------
# Showing characters: nothing invisible, nothing that moves the text around


def _escape(char: str) -> str:
    # repr's own escape (\r, \x1b, \u202e, \U000e0001...): what a Python user reads already;
    # the same spelling for what repr keeps as it is (printable, but drawn as nothing).
    escaped = builtins.repr(char)[1:-1]
    if escaped == char:
        code = ord(char)
        escaped = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return escaped


def exact_text(text: object) -> str:
    """``text`` as a plain ``str``, read without calling any method of its own: a text from
    the user's objects (a repr, an expression, a type's name) may be a ``str`` subclass whose
    ``isalnum``, ``isprintable``, ``replace`` or ``__len__`` lie or raise, and the views would
    call them to escape it.  Anything that is no ``str`` reads as ``"?"``."""
    if type(text) is str:
        return text
    try:
        return str.__str__(text) if isinstance(text, str) else "?"
    except KeyboardInterrupt:
        raise
    except BaseException:  # (a __class__ that raises)
        return "?"


# Characters Python counts as printable that browsers and terminals draw as nothing or as a
# blank: Unicode's Default_Ignorable_Code_Point (Hangul fillers, the combining grapheme joiner,
# variation selectors, Mongolian and Khmer invisibles; the format characters among them are
# not printable anyway), and the blank Braille pattern.  "docs" + "\u3164" showed as "docs".
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]"
)


def shown_as_is(text: str) -> bool:
    """Whether every character of ``text`` shows as itself (nothing for :func:`visible` to
    mark): the usual text, checked fast."""
    return text.isprintable() and _INVISIBLE.search(text) is None


# Bidi classes a display lays out right to left (Hebrew and Arabic letters, Arabic-Indic
# digits): among other text, a run of them and the spaces, digits and signs between them is
# shown reversed, so two arguments can read swapped.
_RIGHT_TO_LEFT = frozenset(("R", "AL", "AN"))


def right_to_left(text: str) -> bool:
    """Whether ``text`` holds a character a bidi display lays out right to left."""
    return not text.isascii() and any(bidirectional(char) in _RIGHT_TO_LEFT for char in text)


def _shown(char: str, newlines: bool, keep_right_to_left: bool) -> bool:
    if newlines and char == "\n":
        return True
    return shown_as_is(char) and (keep_right_to_left or not right_to_left(char))


def visible_parts(
    text: str, *, newlines: bool = True, keep_right_to_left: bool = True
) -> Iterator[tuple[str, bool]]:
    """``text`` as runs of ``(piece, is_escape)``: every character that is not printable
    (controls, bidi overrides and isolates, zero-width and other format characters, line and
    paragraph separators, unusual spaces) or that is drawn as nothing (Hangul fillers,
    variation selectors...) becomes its own piece holding its escape.  With ``newlines``,
    ``\\n`` stays a line break; without ``keep_right_to_left``, right-to-left characters are
    escaped too (a terminal may reorder them: :func:`right_to_left`)."""
    plain = shown_as_is(text) or (newlines and all(map(shown_as_is, text.split("\n"))))
    if plain and (keep_right_to_left or not right_to_left(text)):
        yield text, False
        return
    start = 0
    for position, char in enumerate(text):
        if _shown(char, newlines, keep_right_to_left):
            continue
        if start < position:
            yield text[start:position], False
        yield _escape(char), True
        start = position + 1
    if start < len(text):
        yield text[start:], False


# A backslash of the text itself that reads as the start of an escape: before what an escape
# spells (``\\t``, ``\\x1b``, ``\\u200b``...; ``\\n`` where line breaks are escaped too), or
# before an escaped character.  Shown doubled in plain text, as Python writes it, so the six
# characters ``\\u200b`` and a real U+200B read apart.
_ESCAPE_SPELLING = r"x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}"
_LOOKS_ESCAPED = {
    True: re.compile(rf"\\+(?=[tr]|{_ESCAPE_SPELLING})"),
    False: re.compile(rf"\\+(?=[tnr]|{_ESCAPE_SPELLING})"),
}
_LAST_BACKSLASHES = re.compile(r"\\+\Z")


def _doubled(match: re.Match[str]) -> str:
    return match.group() * 2


def _literal_backslashes(pieces: list[tuple[str, bool]], newlines: bool) -> Iterator[str]:
    """The pieces of :func:`visible_parts` with each backslash of the text that reads as an
    escape doubled: only a run of backslashes of even length is the text's own."""
    looks_escaped = _LOOKS_ESCAPED[newlines]
    for index, (piece, is_escape) in enumerate(pieces):
        if not is_escape and "\\" in piece:
            piece = looks_escaped.sub(_doubled, piece)
            if index + 1 < len(pieces):  # (an escape follows: pieces alternate)
                piece = _LAST_BACKSLASHES.sub(_doubled, piece)
        yield piece


def visible(
    text: str,
    *,
    newlines: bool = True,
    keep_right_to_left: bool = True,
    escaped: bool = False,
) -> str:
    """``text`` as plain text with every invisible or text-moving character shown as its
    escape, and a backslash of its own that reads as an escape doubled (none for a repr,
    ``escaped``: its backslashes are already Python's escapes)."""
    as_is = shown_as_is(text) and (escaped or "\\" not in text)
    if as_is and (keep_right_to_left or not right_to_left(text)):  # nearly every text: no copy
        return text
    pieces = list(visible_parts(text, newlines=newlines, keep_right_to_left=keep_right_to_left))
    if escaped:
        return "".join(piece for piece, _ in pieces)
    return "".join(_literal_backslashes(pieces, newlines))


# --------------------------------------------------------------------------------------------
# Cutting, one way everywhere


class Clipped(NamedTuple):
    """A text cut to a limit; ``omitted`` says how many characters were left out."""

    text: str
    omitted: int = 0


def clip(text: str, limit: int) -> Clipped:
    """``text`` cut to ``limit`` characters."""
    if len(text) <= limit:
        return Clipped(text)
    return Clipped(text[:limit], len(text) - limit)


def _cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, where the view says no more than that."""
    return text if len(text) <= limit else text[:limit]


def shown_name(name: str) -> str:
    """A renderer's name as plain text: made visible, cut to ``max_value_chars`` (a name of a
    million characters padded every line of the text view to it: 3 MB for three outputs)."""
    cut = clip(name, options.max_value_chars)
    more = f" … {cut.omitted:,} more characters" if cut.omitted else ""
    return visible(cut.text, newlines=False) + more


def shown_rows(count: int, max_rows: int) -> list[int]:
    """Which of ``count`` rows a view shows: all, or the first and last ``max_rows // 2``."""
    if count <= max_rows:
        return list(range(count))
    half = max(max_rows // 2, 1)
    return [*range(half), *range(count - half, count)]


# --------------------------------------------------------------------------------------------
# Values


class ValueText(NamedTuple):
    """A value's repr, safe to show: cut to a limit, or the message of a failed ``repr``."""

    text: str
    omitted: int = 0
    error: str | None = None

    @property
    def flagged(self) -> bool:
        """True when the repr failed and ``text`` is a message, not the value."""
        return self.error is not None


_CONTAINERS = (list, tuple, dict, set, frozenset, deque)


class _BoundedRepr(reprlib.Repr):
    """reprlib for the built-in containers (bounded items and depth, safe on cycles); any
    other object gets its own ``repr``, whose errors propagate to :func:`value_repr`."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxarray = self.maxdict = 20
        self.maxset = self.maxfrozenset = self.maxdeque = 20
        self.maxstring = self.maxlong = limit
        self.maxother = limit

    def repr1(self, x: Any, level: int) -> str:
        if type(x) in _CONTAINERS or type(x) in (str, int):
            return super().repr1(x, level)
        return builtins.repr(x)


@lru_cache(maxsize=8)
def _bounded_repr(limit: int) -> _BoundedRepr:
    return _BoundedRepr(limit)


# Types whose repr is short and cannot fail or recurse: read directly, not through reprlib.
_PLAIN = (float, bool, type(None), complex)


def _plain(value: object) -> bool:
    kind = type(value)
    # (a huge int is left to reprlib, which each Python version cuts or refuses its own way)
    return kind in _PLAIN or (kind is int and value.bit_length() < 1000)  # type: ignore[attr-defined]


def exception_text(exc: BaseException) -> str:
    """``"Name: message"`` of an exception, even when its ``str`` raises."""
    try:
        message = exact_text(str(exc))
    except KeyboardInterrupt:
        raise
    except BaseException:
        message = "<unprintable message>"
    name = type(exc).__name__
    return f"{name}: {message}" if message else name


def value_repr(value: object, limit: int | None = None) -> ValueText:
    """The repr of ``value`` cut to ``limit`` characters (default ``options.max_value_chars``).

    Never raises: a ``repr`` that raises or recurses gives a flagged :class:`ValueText`
    holding the message.  A huge ``str``/``bytes`` is cut before its repr is computed.
    """
    limit = options.max_value_chars if limit is None else max(limit, 1)
    if type(value) in (str, bytes, bytearray):
        sized: Any = value
        text = builtins.repr(sized[:limit])
        return ValueText(text, max(len(sized) - limit, 0))
    try:
        text = builtins.repr(value) if _plain(value) else _bounded_repr(limit).repr(value)
        text = exact_text(text)
    except RecursionError:
        return ValueText("repr() recursed without end", error="RecursionError")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        message = clip(f"repr() raised {exception_text(exc)}", limit).text
        return ValueText(message, error=type(exc).__name__)
    cut = clip(text, limit)
    return ValueText(cut.text, cut.omitted)


class _Reprs:
    """The reprs of one display, by value identity: a value shown twice (a field and the
    SQL parameter it became) is repr'd once."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[object, ValueText]] = {}

    def __call__(self, value: object) -> ValueText:
        known = self._seen.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        shown = value_repr(value)
        self._seen[id(value)] = (value, shown)  # the value is kept, so its id stays its own
        return shown

    def size(self, value: object) -> int:
        """The full length of ``value``'s repr if it was read (a huge repr means a huge
        ``str`` too), else 1."""
        known = self._seen.get(id(value))
        if known is None or known[0] is not value or known[1].flagged:
            return 1
        return len(known[1].text) + known[1].omitted


def type_name(value: object) -> str:
    """The qualified name of the value's type (``builtins`` left out), cut to 80 characters."""
    try:
        cls: Any = type(value)
        return _type_name(cls)
    except KeyboardInterrupt:
        raise
    except BaseException:  # a metaclass whose __hash__ raises
        return "?"


@lru_cache(maxsize=256)
def _type_name(cls: type) -> str:
    try:
        module = exact_text(cls.__module__)
        name = exact_text(cls.__qualname__)
        return _cut(name if module == "builtins" else f"{module}.{name}", 80)
    except KeyboardInterrupt:
        raise
    except BaseException:
        return "?"


# The rendered size of a value is not known before it is rendered, but a lower bound is:
# a str or bytes renders to at least its length, a built-in container to at least one
# character per item, a nested template to at least its text and its values, and a value
# a field spreads (``{files:*}`` of sh and argv, ``{ids:in}`` of sql) to at least one
# character per item it yields.  Walking stops after this many containers and items.
_SIZE_WALK = 10_000

# The specs with which the built-in renderers iterate a value: sh's and argv's spread into
#: words, sql's expansion into ``(?, ?, ...)``.
_SPREAD_SPECS = frozenset({"*", "in"})

# Never iterated by the walk: text (its length is known), a mapping (no renderer spreads
# one), an iterator (iterating it would consume it: _spent_by_rendering refuses it first).
_NOT_WALKED = (str, bytes, bytearray, memoryview, Mapping, Iterator)


def _field_values(template: Any) -> list[tuple[object, bool]]:
    """Each field's value of ``template``, and whether its spec spreads it."""
    return [
        (i.value, exact_text(i.format_spec) in _SPREAD_SPECS) for i in template.interpolations
    ]


def _nested(value: object) -> tuple[int, list[tuple[object, bool]]] | None:
    """The text length and field values of ``value`` if it is a template (a field whose
    value is a template, which sql's ``:q`` and html compose into the output), else None."""
    if not is_template(value):
        return None
    template: Any = value
    text = sum(len(exact_text(string)) for string in template.strings)
    return text, _field_values(template)


def _first_items(value: object, room: int) -> list[object]:
    """The first items of a non-container iterable a field spreads (a ``range``, an array, a
    class of one's own, infinite maybe), read once, until they are known to render to
    ``room`` characters (one per item, a text's length for a text: a lazy source of 10 MB
    strings stops at the first); an error stops the reading (the renderer then says what it
    makes of it)."""
    items: list[object] = []
    size = 0
    try:
        for item in iter(value):  # type: ignore[call-overload]
            items.append(item)
            kind = type(item)
            size += len(item) if kind in (str, bytes, bytearray) else 1
            if size >= room:
                break
    except KeyboardInterrupt:
        raise
    except BaseException:
        pass
    return items


def _size_step(
    value: object, spread: bool, room: int, other_size: Callable[[object], int]
) -> tuple[int, Iterable[tuple[object, bool]]]:
    """What one value adds to the lower bound (at most ``room`` more items are read from
    an iterable it spreads), and the values inside it to size next."""
    kind = type(value)
    if kind in (str, bytes, bytearray):
        return len(value), ()  # type: ignore[arg-type]
    if kind in _CONTAINERS:
        items: Any = value
        inside = items.items() if kind is dict else items
        return len(items) + 2, ((item, False) for item in inside)
    try:
        nested = _nested(value)
        if nested is not None:
            return nested
        if spread and isinstance(value, Iterable) and not isinstance(value, _NOT_WALKED):
            read = _first_items(value, room)
            return len(read) + 2, ((item, False) for item in read)
    except KeyboardInterrupt:
        raise
    except BaseException:  # (a __class__ or a template's part that raises when read)
        pass
    return other_size(value), ()


def _rendered_size_at_least(
    values: Iterable[tuple[object, bool]], budget: int, other_size: Callable[[object], int]
) -> int:
    """A lower bound of the characters the field ``values`` (each with whether its field
    spreads it) render to, found in bounded time (a list of ten million ints, a
    ``range(10**9)`` spread into words, the same list inside a nested template: each is
    known to be too big at once); ``other_size`` sizes the values that are none of those."""
    size = 0
    steps = 0
    pending: list[tuple[object, bool]] = list(values)
    while pending and size <= budget and steps < _SIZE_WALK:
        value, spread = pending.pop()
        steps += 1
        more, inside = _size_step(value, spread, budget - size + 1, other_size)
        size += more
        if size <= budget:
            pending.extend(inside)
    return size


# --------------------------------------------------------------------------------------------
# The view: fields, the template's text, renderer outputs


class FieldView(NamedTuple):
    """One interpolation as displayed; ``position`` is its place among the fields, from 0."""

    position: int
    expression: str
    value: ValueText
    type_name: str
    conversion: str
    format_spec: str


class SourcePart(NamedTuple):
    """A piece of the template's text: static text, or the field at ``field`` as written."""

    text: str
    field: int | None = None


class Row(NamedTuple):
    """One row of a list in an output: a parameter or an argument."""

    label: str
    value: ValueText
    type_name: str


@dataclass(frozen=True)
class RenderedOutput:
    """One renderer's result, read into text: its ``kind`` is ``error``, ``skipped``,
    ``query`` (SQL and parameters), ``argv`` (a list of strings), ``html``, ``text`` or
    ``value`` (anything else, as its repr)."""

    name: str
    kind: str
    text: Clipped
    rows: tuple[Row, ...] = ()
    row_count: int = 0
    summary: str = ""

    @property
    def omitted_rows(self) -> int:
        """Rows (parameters, arguments) not in :attr:`rows`."""
        return self.row_count - len(self.rows)


@dataclass(frozen=True)
class TemplateView:
    """Everything the display shows about a template, computed once and bounded."""

    source: tuple[SourcePart, ...]
    source_omitted: int
    fields: tuple[FieldView, ...]
    field_count: int
    default_renderer: str
    outputs: tuple[RenderedOutput, ...] = ()
    registry_error: str | None = None

    @property
    def omitted_fields(self) -> int:
        """Number of fields not in :attr:`fields`."""
        return self.field_count - len(self.fields)


def _field_view(index: int, interpolation: Any, reprs: _Reprs, limit: int) -> FieldView:
    conversion = _conversion(interpolation)
    spec = exact_text(interpolation.format_spec)
    return FieldView(
        position=index,
        expression=_cut(exact_text(interpolation.expression), limit),
        value=reprs(interpolation.value),
        type_name=type_name(interpolation.value),
        conversion=f"!{conversion}" if conversion else "",
        format_spec=_cut(f":{spec}", limit) if spec else "",
    )


def _conversion(interpolation: Any) -> str:
    """The field's conversion (``s``, ``r``, ``a``), or ``""`` (``"?"``: not one of them)."""
    conversion = interpolation.conversion
    if conversion is None:
        return ""
    text = exact_text(conversion)
    return text if text in ("", "s", "r", "a") else "?"


def _field_as_written(interpolation: Any, limit: int) -> str:
    """``{expression!conversion:spec}`` as the template's text wrote it, cut to ``limit``."""
    conversion = _conversion(interpolation)
    spec = exact_text(interpolation.format_spec)
    written = exact_text(interpolation.expression)
    written += (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
    return "{" + _cut(written, limit) + "}"


def _written_length(interpolation: Any) -> int:
    conversion = 2 if _conversion(interpolation) else 0
    spec = exact_text(interpolation.format_spec)
    spec_length = len(spec) + 1 if spec else 0
    return len(exact_text(interpolation.expression)) + conversion + spec_length + 2


def _source(template: Any, budget: int, limit: int) -> tuple[tuple[SourcePart, ...], int]:
    """The template's text, fields as written, cut after ``budget`` characters; and how many
    characters of it were left out."""
    parts: list[SourcePart] = []
    strings = [exact_text(string) for string in template.strings]
    interpolations = template.interpolations
    used = 0
    for index, string in enumerate(strings):
        piece = string[: max(budget - used, 0)]
        used += len(piece)
        if piece:
            parts.append(SourcePart(piece))
        if index >= len(interpolations) or used >= budget:
            break
        chip = SourcePart(_field_as_written(interpolations[index], limit), index)
        used += len(chip.text)
        parts.append(chip)
    total = sum(map(len, strings)) + sum(map(_written_length, interpolations))
    return tuple(parts), max(total - used, 0)


# --------------------------------------------------------------------------------------------
# Renderers


def ordered_renderers(
    registry: Mapping[str, Any] | None = None, default: str | None = None
) -> tuple[list[tuple[str, Any]], str | None]:
    """The registered renderers, ``default`` (the option, if not given) first, and the
    error message if the registry could not load."""
    if registry is None:
        from .registry import renderers

        registry = renderers
    default = options.default_renderer if default is None else default
    try:
        items = [(exact_text(name), renderer) for name, renderer in registry.items()]
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return [], f"the renderer registry could not load: {exception_text(exc)}"
    return sorted(items, key=lambda item: item[0] != default), None


def _kind(result: object) -> str:
    if isinstance(result, tuple) and hasattr(result, "sql") and hasattr(result, "params"):
        return "query"
    if isinstance(result, list) and all(isinstance(item, str) for item in result):
        return "argv"
    if hasattr(type(result), "__html__") and isinstance(result, str):
        return "html"
    if isinstance(result, str):
        return "text"
    return "value"


_Item = Callable[[int], tuple[str, object]]


def _params_of(params: object) -> tuple[int, _Item]:
    """How many parameters ``params`` holds, and how to read the one at a position (its
    label and value): only the shown ones are read, so a lazy sequence (``range(10**12)``,
    which a list of every row took minutes and gigabytes to build) costs no more than a
    list."""
    if isinstance(params, Mapping):
        keys = list(params)
        return len(keys), lambda i: (exact_text(str(keys[i])), params[keys[i]])
    if isinstance(params, Sequence) and not isinstance(params, (str, bytes)):
        # Numbered from 0, as fields and arguments are: params[0] is the first.
        return len(params), lambda i: (str(i), params[i])
    return 1, lambda i: ("", params)


def _rows(count: int, item: _Item, reprs: _Reprs) -> tuple[Row, ...]:
    """The shown rows of ``count`` items (see :func:`shown_rows`)."""
    rows = []
    for i in shown_rows(count, options.max_rows):
        label, value = item(i)
        rows.append(Row(label, reprs(value), type_name(value)))
    return tuple(rows)


def _read(name: str, result: object, reprs: _Reprs) -> RenderedOutput:
    """Read one renderer's result into text (may raise: the caller guards it)."""
    limit = options.max_output_chars
    kind = _kind(result)
    if kind == "query":
        query: Any = result
        count, item = _params_of(query.params)
        return RenderedOutput(
            name,
            kind,
            clip(exact_text(str(query.sql)), limit),
            _rows(count, item, reprs),
            count,
            f"query, {count:,} parameters",
        )
    if kind == "argv":
        argv: list[str] = result  # type: ignore[assignment]
        rows = _rows(len(argv), lambda i: (str(i), argv[i]), reprs)
        return RenderedOutput(name, kind, Clipped(""), rows, len(argv), f"{len(argv):,} arguments")
    if kind in ("html", "text"):
        return RenderedOutput(name, kind, clip(str.__str__(result), limit), summary=kind)
    shown = value_repr(result, limit)
    if shown.flagged:
        raise ValueError(shown.text)
    return RenderedOutput(name, kind, Clipped(shown.text, shown.omitted), summary=type_name(result))


def _error(name: str, message: str) -> RenderedOutput:
    first_line = message.split("\n", 1)[0]
    return RenderedOutput(
        name,
        "error",
        clip(message, options.max_output_chars),
        summary=clip(first_line, 60).text,
    )


def render_one(
    template: Any, name: str, renderer: Any, reprs: _Reprs | None = None
) -> RenderedOutput:
    """Run one renderer on the template and read its result; any exception, raised by the
    renderer or while reading what it returned, becomes this output's error."""
    reprs = _Reprs() if reprs is None else reprs
    try:
        result = renderer(template)
    except RecursionError:
        return _error(name, "RecursionError: the renderer recursed without end")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return _error(name, exception_text(exc))
    try:
        return _read(name, result, reprs)
    except RecursionError:
        return _error(name, "the renderer's result could not be read: it recursed without end")
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return _error(name, f"the renderer's result could not be read: {exception_text(exc)}")


def _skipped(name: str, reason: str) -> RenderedOutput:
    return RenderedOutput(name, "skipped", Clipped(reason), summary="not rendered")


class _FormattedOnce:
    """The f-string's result of one template, computed once for one display: the size check
    measures it, and the built-in ``format`` renderer's output is that same text (see
    :meth:`instead_of`).

    Every renderer that takes a value's text (``format``, ``sh``, ``argv``, ``html``) reads
    it with :func:`~ipy_istring.fields.value_text`, and the display runs them all inside one
    :func:`~ipy_istring.fields.shared_texts`: each value's ``__format__`` (and ``__repr__``
    for ``!r``...) runs once, and a value whose text changes at each call shows the same
    text in every view, the one that was measured.  What a renderer takes as a value, not
    as text, it reads itself (``sql`` sends values as parameters, ``html`` reads
    ``__html__``, ``sh`` and ``argv`` spread an iterable's items); a template holding an
    iterator, which a spread consumes, is not rendered at all (:func:`_spent_by_rendering`)."""

    def __init__(self) -> None:
        self._outcome: str | BaseException | None = None

    def __call__(self, template: Any) -> str:
        if self._outcome is None:
            try:
                self._outcome = _format_shared(template)
            except KeyboardInterrupt:
                raise
            except BaseException as exc:  # (raised again to the format renderer's guard)
                self._outcome = exc
        if isinstance(self._outcome, BaseException):
            raise self._outcome
        return self._outcome

    def instead_of(self, renderer: Any) -> Any:
        """This, in place of ``renderer`` when it is the built-in ``format``."""
        return self if renderer is render_format else renderer


def _format_shared(template: Any) -> str:
    """``render_format(template)``, each field's text read by ``value_text`` (shared within
    the display's :func:`~ipy_istring.fields.shared_texts`): the f-string's result, joined
    from the same texts the other renderers read."""
    t = as_template(template, renderer="format")
    pieces = [t.strings[0]]
    for interpolation, string in zip(t.interpolations, t.strings[1:]):
        text = value_text(interpolation.value, interpolation.conversion, interpolation.format_spec)
        pieces += (text, string)
    return "".join(pieces)


def _why_not_render(template: Any, reprs: _Reprs, formatted: _FormattedOnce) -> str | None:
    """Why the display runs no renderer on ``template``, or None."""
    return _spent_by_rendering(template) or _too_big_to_render(template, reprs, formatted)


def _spent_by_rendering(template: Any) -> str | None:
    """Why the display runs no renderer on ``template`` if a value is an iterator (a
    generator, ``map()``, ``Path.glob()``, an open file), there or in a template a field
    holds (sql's ``{cond:q}``, html's nested markup), or None: a renderer that spreads it
    (``{files:*}``, ``{ids:in}``) consumes it, so the display would show what the first
    renderer made of it, the next ones an empty one, and leave it empty for the user's own
    call (``sh`` of a shown template ran ``rm`` without the files, the render pass)."""
    pending = [template]
    steps = 0
    while pending and steps < _SIZE_WALK:
        try:
            interpolations = tuple(pending.pop().interpolations)
        except KeyboardInterrupt:
            raise
        except BaseException:  # (a nested object whose __class__ lies: renderers refuse it)
            continue
        for interpolation in interpolations:
            steps += 1
            try:
                spent = isinstance(interpolation.value, Iterator)
                if not spent and is_template(interpolation.value):
                    pending.append(interpolation.value)
            except KeyboardInterrupt:
                raise
            except BaseException:  # (a __class__ that raises: not known to be repeatable)
                spent = True
            if spent:
                field = _field_as_written(interpolation, options.max_value_chars)
                return (
                    f"not rendered here: {field} is a {type_name(interpolation.value)}, "
                    "an iterator that rendering consumes, so each renderer would see it "
                    "differently and your own call would find it empty; pass a list "
                    "(list(...)) to see it rendered"
                )
    return None


def _too_big_to_render(template: Any, reprs: _Reprs, formatted: _FormattedOnce) -> str | None:
    """Why the display runs no renderer on ``template`` (its text is over
    ``max_render_chars``), or None.  The values' sizes are read first (a list of ten million
    ints is known to be too big at once); then the f-string's own result is measured, as
    what every renderer reads is that long at least: a value's ``str`` may be far longer
    than its repr (a document whose repr is its title), and the static text may be long."""
    budget = options.max_render_chars
    size = _rendered_size_at_least(_field_values(template), budget, reprs.size)
    if size <= budget:
        try:
            size = len(formatted(template))
        except KeyboardInterrupt:
            raise
        except BaseException:  # (each renderer then says why it fails)
            size = 0
    if size <= budget:
        return None
    return (
        f"not rendered here: the template renders to over {budget:,} characters "
        "(max_render_chars)"
    )


def render_within_limits(
    template: Any, name: str, renderer: Any, texts: SharedTexts | None = None
) -> RenderedOutput:
    """:func:`render_one`, unless the template is too big for the display to render.

    ``texts``: the values' texts read by earlier renders of the same view (a widget's), to
    share with this one; they are forgotten when the template is too big."""
    with shared_texts(texts) as shared:
        formatted = _FormattedOnce()
        reason = _why_not_render(template, _Reprs(), formatted)
        if reason is not None:
            shared.clear()  # (no text kept of a template too big to show)
            return _skipped(name, reason)
        return render_one(template, name, formatted.instead_of(renderer))


def describe(
    template: Any,
    *,
    registry: Mapping[str, Any] | None = None,
    render: bool | Sequence[str] = True,
    first_field: int | None = None,
    default_renderer: str | None = None,
) -> TemplateView:
    """Read a template into a :class:`TemplateView`.  Never raises.

    ``render``: run every registered renderer (``True``), none, or only those named.
    ``first_field``: show ``options.max_rows`` fields from there (the widget's pages)
    instead of the first and last ones.  ``default_renderer`` overrides the option.
    """
    limit = options.max_value_chars
    default = options.default_renderer if default_renderer is None else default_renderer
    interpolations = template.interpolations
    count = len(interpolations)
    if first_field is None:
        indices = shown_rows(count, options.max_rows)
    else:
        indices = list(range(max(first_field, 0), min(first_field + options.max_rows, count)))
    reprs = _Reprs()
    fields = tuple(_field_view(i, interpolations[i], reprs, limit) for i in indices)
    source, source_omitted = _source(template, options.max_output_chars, limit)
    outputs: list[RenderedOutput] = []
    registry_error = None
    if render is not False:
        items, registry_error = ordered_renderers(registry, default)
        if render is not True:
            items = [(name, renderer) for name, renderer in items if name in render]
        # Each value's text read once, shared by every renderer (see _FormattedOnce).
        with shared_texts():
            formatted = _FormattedOnce()
            reason = _why_not_render(template, reprs, formatted) if items else None
            if reason is not None:
                outputs = [_skipped(name, reason) for name, _ in items]
            else:
                outputs = [
                    render_one(template, name, formatted.instead_of(renderer), reprs)
                    for name, renderer in items
                ]
    return TemplateView(
        source=source,
        source_omitted=source_omitted,
        fields=fields,
        field_count=count,
        default_renderer=default,
        outputs=tuple(outputs),
        registry_error=registry_error,
    )
