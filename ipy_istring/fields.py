"""What every renderer shares: a value's text, quoting a field as written, one way to refuse.

The text of a value, in every renderer that takes text (``sh``, ``argv``, ``html``, and
``format`` itself), is :func:`value_text`: what the f-string with the same field gives on
this Python (the conversion, then ``format(value, spec)``), read once into an exact ``str``
(``str.__str__``), so no method of a ``str`` subclass (its ``replace``, ``__contains__``,
``__hash__``, ``__eq__``...) runs on it after.  ``class Color(str, Enum)``'s ``{Color.RED}`` is
``Color.RED`` on 3.11+ and ``red`` on 3.10, in every renderer, as in the f-string.

Renderers refuse a template they cannot render safely, always through :func:`refusal`: the
message names the renderer, quotes the field as the author wrote it (``{x!r}``, ``{name:zz}``,
rebuilt from the interpolation's expression, conversion and spec), says why, and gives the
fix.  It never includes a partly built command, query or page.

A display runs every renderer on one template; inside :func:`shared_texts` each value's text
is read once and shared, so a value whose ``__format__`` gives a new text at each call shows
the same text in every view (:class:`SharedTexts`).

This module imports nothing from IPython.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .template import convert

__all__ = [
    "RenderError",
    "SharedTexts",
    "field_text",
    "format_field",
    "refusal",
    "shared_texts",
    "value_text",
]


class RenderError(ValueError):
    """A renderer refused a template: the message says which field, why, and the fix."""


def refusal(renderer: str, subject: str, why: str, fix: str) -> RenderError:
    """The error a renderer raises to refuse: ``{renderer}(): {subject} {why}. {fix}.``

    ``subject`` is usually the field as written (:func:`field_text`), ``why`` continues the
    sentence (``"stands inside a here-document body"``), and ``fix`` says what to write instead.
    """
    return RenderError(f"{renderer}(): {subject} {why}. {fix.rstrip('.')}.")


def field_text(interpolation: Any, position: int | None = None) -> str:
    """The field as written in the literal, e.g. ``{x!r:>5}``.

    A template built by hand may have no expression text; the field's position (counted from
    1) then identifies it, as ``{...} (field 2)``.
    """
    expression = interpolation.expression or "..."
    text = "{" + expression
    if interpolation.conversion:
        text += "!" + interpolation.conversion
    if interpolation.format_spec:
        text += ":" + interpolation.format_spec
    text += "}"
    if not interpolation.expression and position is not None:
        text += f" (field {position})"
    return text


def format_field(
    value: object, interpolation: Any, position: int, renderer: str, supported: str
) -> str:
    """Apply the field's conversion, then ``format(value, spec)``, as the f-string would: the
    text :func:`value_text` gives, an exact ``str``.

    A spec the value's type rejects becomes a :class:`RenderError` that quotes the field and
    says what ``renderer`` supports (``supported``).
    """
    value = _converted(value, interpolation.conversion)
    try:
        return _formatted(value, interpolation.format_spec)
    except (TypeError, ValueError) as error:
        raise refusal(
            renderer,
            f"the format spec in {field_text(interpolation, position)}",
            f"does not apply to a {type(value).__name__} value ({error})",
            f"Supported: {supported}",
        ) from None


def value_text(value: object, conversion: Any = None, format_spec: str = "") -> str:
    """The text the f-string's field ``{value!conversion:format_spec}`` gives on this Python,
    as an exact ``str``: the conversion, then ``format(value, spec)``, then ``str.__str__`` of
    the result (a ``__str__`` or ``__format__`` may return a ``str`` subclass, whose own
    methods must never run on the text: ``str.__str__`` copies its characters).

    The one rule for a value's text in ``sh``, ``argv`` and ``html`` (``format`` is the
    f-string itself).  Errors are the value's own (a ``__format__`` that raises).
    """
    if type(value) is str and conversion is None and not format_spec:
        return value  # (the f-string's own shortcut: an exact str is its text)
    return _formatted(_converted(value, conversion), format_spec)


class SharedTexts:
    """The texts of one display's values, each read once (see :func:`shared_texts`).

    Keyed by the value's identity, its conversion and spec; each value is kept with its
    text, so its ``id`` stays its own while the texts are kept.  What a value's code raised
    is kept too, and raised again to the next renderer that asks (``KeyboardInterrupt``,
    the user's Ctrl-C, is never kept).
    """

    __slots__ = ("_outcomes",)

    def __init__(self) -> None:
        self._outcomes: dict[tuple[int, str, str], tuple[object, object, bool]] = {}

    def clear(self) -> None:
        """Forget every text read so far."""
        self._outcomes.clear()

    def _outcome(self, how: str, value: object, detail: str, read: Any) -> Any:
        key = (id(value), how, detail)
        known = self._outcomes.get(key)
        if known is None or known[0] is not value:
            try:
                known = (value, read(), False)
            except KeyboardInterrupt:
                raise
            except BaseException as error:
                known = (value, error, True)
            self._outcomes[key] = known
        if known[2]:
            raise known[1]  # type: ignore[misc]
        return known[1]


_SHARED: ContextVar[SharedTexts | None] = ContextVar("ipy_istring_shared_texts", default=None)


@contextmanager
def shared_texts(texts: SharedTexts | None = None) -> Iterator[SharedTexts]:
    """Within this block, every renderer reads each value's text once: the first read is
    shared with every other renderer (and view) that asks for the same value, conversion and
    spec.  For a display, which runs every renderer on one template: a value whose
    ``__format__`` gives a new text at each call then shows one text in every view.  Pass
    ``texts`` to share them across blocks (a widget's renderers, run as they are chosen)."""
    texts = SharedTexts() if texts is None else texts
    token = _SHARED.set(texts)
    try:
        yield texts
    finally:
        _SHARED.reset(token)


def _converted(value: object, conversion: Any) -> object:
    """``convert(value, conversion)``, read once inside :func:`shared_texts`."""
    if conversion is None:
        return value
    shared = _SHARED.get()
    if shared is None:
        return convert(value, conversion)
    how = str.__str__(conversion)
    return shared._outcome("convert", value, how, lambda: convert(value, conversion))


def _formatted(value: object, format_spec: str) -> str:
    """``format(value, spec)`` as an exact str, read once inside :func:`shared_texts`."""
    if type(value) is str and not format_spec:
        return value
    shared = _SHARED.get()
    if shared is None or type(value) is str:  # (an exact str's format runs no user code)
        return str.__str__(format(value, format_spec))
    spec = str.__str__(format_spec)
    return shared._outcome(  # type: ignore[no-any-return]
        "format", value, spec, lambda: str.__str__(format(value, format_spec))
    )
