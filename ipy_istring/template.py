"""The i-string template type: PEP 750's data model with PEP 501's rendering.

An i-string ``i"The answer is {answer:>5}"`` evaluates ``answer`` at once and keeps the
pieces apart: the static ``strings``, and one :class:`Interpolation` per field holding the
value, the expression's source text, the conversion and the format spec.  Nothing is
formatted until someone renders the template: ``format(t)``/``str(t)`` exactly as the
f-string would, or a renderer that knows the destination (``sh``, ``sql``, ``html``...).

On Python 3.14 :class:`Interpolation` *is* ``string.templatelib.Interpolation`` and a template
converts losslessly to and from ``string.templatelib.Template``.  Earlier versions get a
pure-Python class with the same fields, defaults, repr and errors.

This module imports nothing from IPython.
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, Literal

__all__ = [
    "Interpolation",
    "InterpolationTemplate",
    "convert",
    "from_template",
    "to_template",
]

Conversion = Literal["a", "r", "s"]

if sys.version_info >= (3, 14):
    from string.templatelib import Interpolation, Template, convert

    NativeTemplate: Any = Template
else:
    NativeTemplate = None

    def convert(value: object, conversion: Conversion | None) -> object:
        """Apply an f-string conversion (``None``, ``'s'``, ``'r'`` or ``'a'``) to a value."""
        if conversion is None:
            return value
        if conversion == "s":
            return str(value)
        if conversion == "r":
            return repr(value)
        if conversion == "a":
            return ascii(value)
        raise ValueError(f"invalid conversion specifier: {conversion}")

    class Interpolation:
        """One field of a template: its value, source text, conversion and format spec.

        Immutable, and a backport of Python 3.14's ``string.templatelib.Interpolation``.
        """

        __slots__ = ("conversion", "expression", "format_spec", "value")
        __match_args__ = ("value", "expression", "conversion", "format_spec")

        value: object
        expression: str
        conversion: Conversion | None
        format_spec: str

        def __init__(
            self,
            value: object,
            expression: str = "",
            conversion: Conversion | None = None,
            format_spec: str = "",
        ) -> None:
            if not isinstance(expression, str):
                raise TypeError(
                    "Interpolation() argument 'expression' must be str, "
                    f"not {type(expression).__name__}"
                )
            if conversion is not None and not isinstance(conversion, str):
                raise TypeError(
                    "Interpolation() argument 'conversion' must be str, "
                    f"not {type(conversion).__name__}"
                )
            if conversion not in (None, "s", "r", "a"):
                raise ValueError(
                    "Interpolation() argument 'conversion' must be one of 's', 'a' or 'r'"
                )
            if not isinstance(format_spec, str):
                raise TypeError(
                    "Interpolation() argument 'format_spec' must be str, "
                    f"not {type(format_spec).__name__}"
                )
            for name, field in (
                ("value", value),
                ("expression", expression),
                ("conversion", conversion),
                ("format_spec", format_spec),
            ):
                object.__setattr__(self, name, field)

        def __init_subclass__(cls, **kwargs: Any) -> None:
            # Final, as string.templatelib.Interpolation is.
            raise TypeError(
                "type 'ipy_istring.template.Interpolation' is not an acceptable base type"
            )

        def __setattr__(self, name: str, value: object) -> None:
            raise AttributeError("readonly attribute")

        def __delattr__(self, name: str) -> None:
            raise AttributeError("readonly attribute")

        def __repr__(self) -> str:
            return (
                f"Interpolation({self.value!r}, {self.expression!r}, "
                f"{self.conversion!r}, {self.format_spec!r})"
            )

        def __reduce__(self) -> tuple[Any, ...]:
            return (
                Interpolation,
                (self.value, self.expression, self.conversion, self.format_spec),
            )


    def _trusted_interpolation(
        value: object, expression: str, conversion: Conversion | None, format_spec: str
    ) -> Interpolation:
        """An Interpolation from fields the rewrite already checked (no validation: faster)."""
        self = object.__new__(Interpolation)
        set_field = object.__setattr__
        set_field(self, "value", value)
        set_field(self, "expression", expression)
        set_field(self, "conversion", conversion)
        set_field(self, "format_spec", format_spec)
        return self


if sys.version_info >= (3, 14):
    _trusted_interpolation = Interpolation


_repr = reprlib.Repr()
_repr.maxstring = 80
_repr.maxother = 80
_repr.maxtuple = 8


def _render_field_default(value: object, format_spec: str) -> str:
    return format(value, format_spec)


class InterpolationTemplate:
    """A template made by an i-string: static strings interleaved with interpolations.

    ``InterpolationTemplate(*parts)`` follows ``string.templatelib.Template``: each part is a
    ``str`` or an :class:`Interpolation`, adjacent strings are merged and ``''`` is inserted so
    that ``len(strings) == len(interpolations) + 1``.  Unlike a native Template it renders:
    ``str(t)`` and ``format(t)`` give the f-string's result.
    """

    __slots__ = ("_interpolations", "_native", "_strings")

    _strings: tuple[str, ...]
    _interpolations: tuple[Interpolation, ...]
    _native: Any

    def __init__(self, *args: str | Interpolation) -> None:
        strings: list[str] = []
        interpolations: list[Interpolation] = []
        pending = ""
        for part in args:
            if isinstance(part, str):
                pending += part
            elif isinstance(part, Interpolation):
                strings.append(pending)
                interpolations.append(part)
                pending = ""
            else:
                raise TypeError(
                    "InterpolationTemplate.__new__ *args need to be of type 'str' or "
                    f"'Interpolation', got {type(part).__name__}"
                )
        strings.append(pending)
        self._init(tuple(strings), tuple(interpolations))

    def _init(
        self,
        strings: tuple[str, ...],
        interpolations: tuple[Interpolation, ...],
        native: Any = None,
    ) -> None:
        self._strings = strings
        self._interpolations = interpolations
        self._native = native

    @classmethod
    def _from_parts(
        cls,
        strings: tuple[str, ...],
        interpolations: tuple[Interpolation, ...],
        native: Any = None,
    ) -> InterpolationTemplate:
        """Build without checks from already well-formed tuples (the rewrite's fast path)."""
        self = cls.__new__(cls)
        self._init(strings, interpolations, native)
        return self

    # PEP 750 data model

    @property
    def strings(self) -> tuple[str, ...]:
        """The static text: always one more string than there are interpolations."""
        return self._strings

    @property
    def interpolations(self) -> tuple[Interpolation, ...]:
        """The fields, in order of appearance."""
        return self._interpolations

    @property
    def values(self) -> tuple[object, ...]:
        """The value of each interpolation, in order."""
        return tuple(i.value for i in self._interpolations)

    def __iter__(self) -> Iterator[str | Interpolation]:
        """Yield the parts in order, skipping empty strings, as ``Template`` does."""
        for string, interpolation in zip(self._strings, self._interpolations):
            if string:
                yield string
            yield interpolation
        if self._strings[-1]:
            yield self._strings[-1]

    def __add__(self, other: object) -> InterpolationTemplate:
        other_parts = _parts_of(other)
        if other_parts is None:
            return NotImplemented
        return _concatenate((self._strings, self._interpolations), other_parts)

    def __radd__(self, other: object) -> InterpolationTemplate:
        other_parts = _parts_of(other)
        if other_parts is None:
            return NotImplemented
        return _concatenate(other_parts, (self._strings, self._interpolations))

    def __reduce__(self) -> tuple[Any, ...]:
        return (InterpolationTemplate, tuple(self._parts()))

    def _parts(self) -> Iterator[str | Interpolation]:
        for string, interpolation in zip(self._strings, self._interpolations):
            yield string
            yield interpolation
        yield self._strings[-1]

    def __repr__(self) -> str:
        strings = _repr.repr(self._strings)
        interpolations = ", ".join(
            f"Interpolation({_repr.repr(i.value)}, {_repr.repr(i.expression)}, "
            f"{i.conversion!r}, {_repr.repr(i.format_spec)})"
            for i in self._interpolations[: _repr.maxtuple]
        )
        if len(self._interpolations) > _repr.maxtuple:
            interpolations += ", ..."
        elif len(self._interpolations) == 1:
            interpolations += ","
        return f"InterpolationTemplate(strings={strings}, interpolations=({interpolations}))"

    # PEP 501 rendering

    def render(
        self,
        *,
        render_template: Callable[[Sequence[str]], str] = "".join,
        render_field: Callable[[Any, str], str] = _render_field_default,
    ) -> str:
        """Render the template: each field converted, then ``render_field(value, spec)``,
        then the pieces joined by ``render_template``.  The defaults give the f-string's result.
        """
        pieces: list[str] = []
        for string, interpolation in zip(self._strings, self._interpolations):
            pieces.append(string)
            value = convert(interpolation.value, interpolation.conversion)
            pieces.append(render_field(value, interpolation.format_spec))
        pieces.append(self._strings[-1])
        return render_template(pieces)

    def __str__(self) -> str:
        return self.render()

    def __format__(self, format_spec: str) -> str:
        return format(self.render(), format_spec)

    # Rich display.  The views depend on this data type, never the reverse: a view layer
    # (ipy_istring.display, which the extension imports) installs itself with use_views, and
    # every _repr_* and inspect() goes through that one seam.  With none installed a
    # template shows as its repr.

    _views: ClassVar[Any] = None

    @classmethod
    def use_views(cls, views: Any) -> None:
        """Install the object that displays templates: it has ``mimebundle(t, include,
        exclude)``, ``html(t)``, ``pretty(t, printer, cycle)`` and ``inspect(t)``."""
        cls._views = views

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        if self._views is None:
            return None
        return self._views.mimebundle(self, include, exclude)

    def _repr_html_(self) -> str | None:
        if self._views is None:
            return None
        html: str = self._views.html(self)
        return html

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        if self._views is None:
            printer.text(repr(self))
        else:
            self._views.pretty(self, printer, cycle)

    def inspect(self) -> Any:
        """A live widget showing the fields and every renderer's output (needs ipywidgets
        and the display: ``%load_ext ipy_istring`` in a Jupyter kernel)."""
        if self._views is None:
            raise RuntimeError("no display is installed: import ipy_istring.display first")
        return self._views.inspect(self)

    # Python 3.14 interoperability

    def to_template(self) -> Any:
        """The equivalent native ``string.templatelib.Template`` (Python 3.14+ only)."""
        return to_template(self)


_Parts = tuple[tuple[str, ...], tuple[Interpolation, ...]]


def _parts_of(other: object) -> _Parts | None:
    if isinstance(other, InterpolationTemplate):
        return other._strings, other._interpolations
    if NativeTemplate is not None and isinstance(other, NativeTemplate):
        return tuple(other.strings), tuple(other.interpolations)
    if isinstance(other, str):
        raise TypeError(
            "can only concatenate InterpolationTemplate (not \"str\") to InterpolationTemplate"
        )
    return None


def _concatenate(left: _Parts, right: _Parts) -> InterpolationTemplate:
    strings = (*left[0][:-1], left[0][-1] + right[0][0], *right[0][1:])
    return InterpolationTemplate._from_parts(strings, left[1] + right[1])


def to_template(template: InterpolationTemplate) -> Any:
    """Convert an i-string's template to a native ``string.templatelib.Template`` (3.14+)."""
    if NativeTemplate is None:
        raise RuntimeError(
            "string.templatelib.Template needs Python 3.14 or later; "
            f"this is Python {sys.version_info.major}.{sys.version_info.minor}"
        )
    if template._native is None:
        template._native = NativeTemplate(*template._parts())
    return template._native


def from_template(template: Any) -> InterpolationTemplate:
    """Wrap a native ``string.templatelib.Template`` (3.14+) losslessly, so it renders."""
    if isinstance(template, InterpolationTemplate):
        return template
    if NativeTemplate is None or not isinstance(template, NativeTemplate):
        raise TypeError(
            f"expected a string.templatelib.Template, got {type(template).__name__}"
        )
    return InterpolationTemplate._from_parts(
        tuple(template.strings), tuple(template.interpolations), template
    )


def is_template(value: object) -> bool:
    """Whether ``value`` is an i-string template or (on 3.14) a native Template."""
    return isinstance(value, InterpolationTemplate) or (
        NativeTemplate is not None and isinstance(value, NativeTemplate)
    )


def as_template(value: object, *, renderer: str) -> InterpolationTemplate:
    """Accept an i-string template or a native Template, refuse everything else clearly.

    Renderers call this first: a ``str`` means the f-string mistake (the values were already
    formatted into the text), so the error shows the i-string spelling of the fix.
    """
    if isinstance(value, InterpolationTemplate):
        return value
    if NativeTemplate is not None and isinstance(value, NativeTemplate):
        return from_template(value)
    if isinstance(value, str):
        shown = _repr.repr(value)
        raise TypeError(
            f"{renderer}() needs an i-string template, not an already formatted str "
            f"({shown}). An f-string formats its values into the text before {renderer}() "
            f"can make them safe: write {renderer}(i'...') instead of {renderer}(f'...')."
        )
    raise TypeError(
        f"{renderer}() needs an i-string template (i'...'), got {type(value).__name__}"
    )


def render_format(template: object) -> str:
    """The ``format`` renderer: exactly what the f-string with the same text gives."""
    return as_template(template, renderer="format").render()


# The rewrite turns each i-literal into a call of this function (see rewrite.py), with the
# constant parts folded into tuples by the compiler and the values evaluated in place.
_DYNAMIC_SPEC = object()


def _build(
    strings: tuple[str, ...],
    fields: tuple[tuple[str, Conversion | None, Any], ...],
    *values: Any,
) -> InterpolationTemplate:
    """Assemble a template from a rewritten i-literal: for each field, its expression text,
    conversion and spec (or ``_DYNAMIC_SPEC`` when the spec itself had fields, in which case
    the formatted spec follows the value in ``values``)."""
    interpolations = []
    position = 0
    for expression, conversion, spec in fields:
        value = values[position]
        position += 1
        if spec is _DYNAMIC_SPEC:
            spec = values[position]
            position += 1
        interpolations.append(_trusted_interpolation(value, expression, conversion, spec))
    return InterpolationTemplate._from_parts(strings, tuple(interpolations))
