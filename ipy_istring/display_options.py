"""The display's settings, in one place: read ``options``, change them with ``set_options``.

``options`` is a frozen :class:`DisplayOptions`; :func:`set_options` is the only writer.  It
changes the settings at once and, used as a context manager, puts back the previous ones on
exit (xarray's ``set_options`` works the same way)::

    with set_options(max_rows=10, default_renderer="sql"):
        display(t)

This module imports nothing of the package, so every view can read it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import TracebackType
from typing import Any

__all__ = ["DisplayOptions", "options", "reset_options", "set_options"]


@dataclass(frozen=True)
class DisplayOptions:
    """Settings of the display, shared by the static HTML, the text view and the widget.

    Every cut the views make uses these numbers, and every cut says what it left out.
    """

    #: Name of the renderer whose output is shown first (the others are collapsed).
    default_renderer: str = "format"
    #: Display templates as a live widget; the extension sets it only in a kernel whose
    #: frontend shows widgets (never in terminal IPython).
    use_widget: bool = False
    #: Characters of a value's repr shown before it is cut ("… N more characters").
    max_value_chars: int = 200
    #: Rows shown of a long list (fields, parameters, arguments): the first and last
    #: ``max_rows // 2`` rows; the widget pages through all of them, ``max_rows`` at a time.
    max_rows: int = 30
    #: Characters of a renderer's output shown before it is cut.
    max_output_chars: int = 5_000
    #: Renderers are not run by the display when the template's values would render to more
    #: characters than this (the view says so instead).
    max_render_chars: int = 1_000_000


options = DisplayOptions()

_MINIMUM = {
    "max_value_chars": 1,
    "max_rows": 2,
    "max_output_chars": 1,
    "max_render_chars": 0,
}


def _checked(changes: dict[str, Any]) -> dict[str, Any]:
    known = {f.name: f for f in dataclasses.fields(DisplayOptions)}
    for name, value in changes.items():
        if name not in known:
            raise ValueError(
                f"unknown display option {name!r}; the options are: {', '.join(known)}"
            )
        expected = type(getattr(options, name))
        if type(value) is not expected:
            raise TypeError(
                f"display option {name!r} takes a {expected.__name__}, "
                f"got {type(value).__name__} {value!r}"
            )
        if name in _MINIMUM and value < _MINIMUM[name]:
            raise ValueError(f"display option {name!r} must be at least {_MINIMUM[name]}")
    return changes


def _apply(values: dict[str, Any]) -> None:
    for name, value in values.items():
        # The one place that writes the frozen options (so no one else can by accident).
        object.__setattr__(options, name, value)


# Named like the function it is to the user; a class, so that it is also a context manager.
class set_options:
    """Change display options now; as a context manager, restore the previous ones on exit.

    Raises ``ValueError``/``TypeError`` for an unknown option or a value of the wrong type,
    and then changes nothing.
    """

    def __init__(self, **changes: Any) -> None:
        self._previous = {name: getattr(options, name) for name in _checked(changes)}
        _apply(changes)

    def __enter__(self) -> DisplayOptions:
        return options

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        _apply(self._previous)


def reset_options() -> None:
    """Put every display option back to its default."""
    _apply(vars(DisplayOptions()))
