"""What every renderer shares: quoting a field as written, and the one way to refuse.

Renderers refuse a template they cannot render safely, always through :func:`refusal`: the
message names the renderer, quotes the field as the author wrote it (``{x!r}``, ``{name:zz}``,
rebuilt from the interpolation's expression, conversion and spec), says why, and gives the
fix.  It never includes a partly built command, query or page.

This module imports nothing from IPython.
"""

from __future__ import annotations

from typing import Any

from .template import convert

__all__ = ["RenderError", "field_text", "format_field", "refusal"]


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
    """Apply the field's conversion, then ``format(value, spec)``, as the f-string would.

    A spec the value's type rejects becomes a :class:`RenderError` that quotes the field and
    says what ``renderer`` supports (``supported``).
    """
    value = convert(value, interpolation.conversion)
    try:
        return format(value, interpolation.format_spec)
    except (TypeError, ValueError) as error:
        raise refusal(
            renderer,
            f"the format spec in {field_text(interpolation, position)}",
            f"does not apply to a {type(value).__name__} value ({error})",
            f"Supported: {supported}",
        ) from None
