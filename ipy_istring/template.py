"""The i-string template type: PEP 750's data model with PEP 501's rendering.

An i-string ``i"The answer is {answer:>5}"`` evaluates ``answer`` at once and keeps the
pieces apart: the static ``strings``, and one :class:`Interpolation` per field holding the
value, the expression's source text, the conversion and the format spec.  Nothing is
formatted until someone renders the template: ``format(t)``/``str(t)`` exactly as the
f-string would, or a renderer that knows the destination (``sh``, ``sql``, ``html``...).

On Python 3.14 :class:`Interpolation` *is* ``string.templatelib.Interpolation`` and a template
converts losslessly to and from ``string.templatelib.Template``.  Earlier versions get a
pure-Python class with the same fields, defaults, repr and errors.

A template evaluated from an i-literal is built on a fast path: the rewrite lays each literal
out once (:class:`_Layout`), and evaluating it only pairs that layout with the values; the
interpolations are made when first asked for.  Where the optional C accelerator is built
(``_speedups.c``), it does that pairing and ``str(t)``/``format(t)`` without a Python frame,
with this module's code as its reference and fallback (:func:`_accelerate`).  This module
imports nothing from IPython.
"""

from __future__ import annotations

import os
import reprlib
import sys
from collections.abc import Callable, Iterator, Sequence

# typing costs more to import than this whole module: only for type checkers.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Literal, TypeAlias

    Conversion: TypeAlias = Literal["a", "r", "s"]
    # A field as a layout holds it: expression, conversion, constant spec, where its value
    # stands in the template's tuple, where its run-time spec stands (or -1).
    _PlacedField: TypeAlias = tuple[str, Conversion | None, str, int, int]
else:
    Conversion = str  # the name still imports at run time (for annotations, casts)

__all__ = [
    "Interpolation",
    "InterpolationTemplate",
    "as_template",
    "convert",
    "fields_with_built_specs",
    "from_template",
    "is_template",
    "render_format",
    "to_template",
]


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


_new = object.__new__

_repr = reprlib.Repr()
_repr.maxstring = 80
_repr.maxother = 80
_repr.maxtuple = 8


def _render_field_default(value: object, format_spec: str) -> str:
    return format(value, format_spec)


def _render(
    strings: Sequence[str],
    interpolations: Sequence[Interpolation],
    render_template: Callable[[Sequence[str]], str] = "".join,
    render_field: Callable[[Any, str], str] = _render_field_default,
) -> str:
    """PEP 501's rendering: each field converted, then ``render_field(value, spec)``, then the
    pieces joined by ``render_template``.  The defaults give the f-string's result."""
    pieces: list[str] = []
    for string, interpolation in zip(strings, interpolations):
        pieces.append(string)
        value = convert(interpolation.value, interpolation.conversion)
        pieces.append(render_field(value, interpolation.format_spec))
    pieces.append(strings[-1])
    return render_template(pieces)


class _Layout:
    """What a template knows besides its values: its ``strings``, and how to make its text.

    Every template holds a layout and a tuple, and ``layout.formatter(tuple)`` is its text, so
    ``str(t)`` takes one path however ``t`` was made:

    - the rewrite lays each i-literal out once (:func:`_placed`), and the tuple is the values
      the rewritten code evaluated, in order: each field's value, followed by its formatted
      spec when the spec had fields of its own.  ``fields`` holds, per field, ``(expression,
      conversion, constant spec, index of the value, index of the spec value or -1)``, and the
      formatter is an f-string over the values, compiled on first use, so ``str(t)`` formats
      exactly as the f-string does;
    - a template built from parts (:func:`_parts_layout`) has no ``fields``: the tuple is its
      interpolations, which the formatter renders (:func:`_render`).
    """

    __slots__ = ("fields", "formatter", "strings")

    def __init__(
        self,
        strings: tuple[str, ...],
        fields: tuple[_PlacedField, ...],
    ) -> None:
        self.strings = strings
        self.fields = fields
        self.formatter: Callable[[tuple[Any, ...]], str] = self._first_format

    def _first_format(self, values: tuple[object, ...]) -> str:
        self.formatter = _compiled_formatter(self.strings, self.fields)
        return self.formatter(values)


def _placed(
    fields: tuple[tuple[str, Conversion | None, str | None], ...],
) -> tuple[_PlacedField, ...]:
    """A literal's fields ``(expression, conversion, spec)`` as a :class:`_Layout` holds them,
    each with where its value stands in the template's tuple; a spec of ``None`` means
    "formatted at run time, passed right after the field's value"."""
    placed = []
    index = 0
    for expression, conversion, spec in fields:
        if spec is None:
            placed.append((expression, conversion, "", index, index + 1))
            index += 2
        else:
            placed.append((expression, conversion, spec, index, -1))
            index += 1
    return tuple(placed)


def _parts_layout(strings: tuple[str, ...]) -> _Layout:
    """The layout of a template built from parts: its tuple is its interpolations.  (Its
    formatter closes over the strings, not the layout: a template left no reference cycle
    for the garbage collector to find.)"""
    layout = _Layout(strings, ())
    layout.formatter = lambda interpolations: _render(strings, interpolations)
    return layout


def _compiled_formatter(
    strings: tuple[str, ...], fields: tuple[_PlacedField, ...]
) -> Callable[[tuple[Any, ...]], str]:
    """``def formatter(v): return f'...{v[0]}...'``: the literal as an f-string over its values
    (one tuple, not ``*values``: unpacking a call's arguments costs more than indexing), the
    static text and constant specs passed in as names when they are not plain."""
    names: dict[str, object] = {}
    pieces = []

    def text(value: str, name: str) -> str:
        if value.isprintable() and not any(c in value for c in "{}\\'"):
            return value
        names[name] = value
        return "{" + name + "}"

    for n, (string, (_, conversion, spec, value_at, spec_at)) in enumerate(zip(strings, fields)):
        pieces.append(text(string, f"_s{n}"))
        field = f"{{v[{value_at}]"
        if conversion is not None:
            field += "!" + conversion
        if spec_at >= 0:
            field += f":{{v[{spec_at}]}}"
        elif spec:
            field += ":" + text(spec, f"_p{n}")
        pieces.append(field + "}")
    pieces.append(text(strings[-1], "_s"))
    source = f"def formatter(v):\n    return f'{''.join(pieces)}'\n"
    exec(compile(source, "<ipy_istring formatter>", "exec"), names)
    return names["formatter"]  # type: ignore[return-value]


class InterpolationTemplate:
    """A template made by an i-string: static strings interleaved with interpolations.

    ``InterpolationTemplate(*parts)`` follows ``string.templatelib.Template``: each part is a
    ``str`` or an :class:`Interpolation`, adjacent strings are merged and ``''`` is inserted so
    that ``len(strings) == len(interpolations) + 1``.  Unlike a native Template it renders:
    ``str(t)`` and ``format(t)`` give the f-string's result.  Final, as ``Template`` is.
    """

    # Every template holds a _Layout and the tuple its formatter takes (see _Layout): one
    # built by the rewrite, the values, and it makes its _interpolations when first asked
    # (_template_builder); one built from parts, its _interpolations.  _native caches the
    # equivalent string.templatelib.Template (3.14).
    __slots__ = ("_interpolations", "_layout", "_native", "_values")

    _layout: _Layout
    _values: tuple[object, ...]
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
        self._layout = _parts_layout(tuple(strings))
        self._interpolations = tuple(interpolations)
        self._values = self._interpolations

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Final, as string.templatelib.Template is (same message).
        raise TypeError(
            "type 'ipy_istring.template.InterpolationTemplate' is not an acceptable base type"
        )

    @classmethod
    def _from_parts(
        cls, strings: tuple[str, ...], interpolations: tuple[Interpolation, ...]
    ) -> InterpolationTemplate:
        """Build without checks from already well-formed tuples."""
        self = _new(cls)
        self._layout = _parts_layout(strings)
        self._interpolations = self._values = interpolations
        return self

    # PEP 750 data model

    @property
    def strings(self) -> tuple[str, ...]:
        """The static text: always one more string than there are interpolations."""
        return self._layout.strings

    @property
    def interpolations(self) -> tuple[Interpolation, ...]:
        """The fields, in order of appearance."""
        try:
            return self._interpolations
        except AttributeError:  # built by the rewrite: made now, once
            values = self._values
            self._interpolations = tuple(
                _trusted_interpolation(
                    values[value_at],
                    expression,
                    conversion,
                    spec if spec_at < 0 else values[spec_at],  # type: ignore[arg-type]
                )
                for expression, conversion, spec, value_at, spec_at in self._layout.fields
            )
            return self._interpolations

    @property
    def values(self) -> tuple[object, ...]:
        """The value of each interpolation, in order."""
        return tuple(i.value for i in self.interpolations)

    def __iter__(self) -> Iterator[str | Interpolation]:
        """Yield the parts in order, skipping empty strings, as ``Template`` does."""
        strings = self._layout.strings
        for string, interpolation in zip(strings, self.interpolations):
            if string:
                yield string
            yield interpolation
        if strings[-1]:
            yield strings[-1]

    def __add__(self, other: object) -> InterpolationTemplate:
        other_parts = _parts_of(other)
        if other_parts is None:
            return NotImplemented
        return _concatenate((self.strings, self.interpolations), other_parts)

    def __radd__(self, other: object) -> InterpolationTemplate:
        other_parts = _parts_of(other)
        if other_parts is None:
            return NotImplemented
        return _concatenate(other_parts, (self.strings, self.interpolations))

    def __reduce__(self) -> tuple[Any, ...]:
        return (InterpolationTemplate, tuple(self._parts()))

    def _parts(self) -> Iterator[str | Interpolation]:
        strings = self._layout.strings
        for string, interpolation in zip(strings, self.interpolations):
            yield string
            yield interpolation
        yield strings[-1]

    def __repr__(self) -> str:
        interpolations = self.interpolations
        strings = _repr.repr(self.strings)
        shown = ", ".join(
            f"Interpolation({_repr.repr(i.value)}, {_repr.repr(i.expression)}, "
            f"{i.conversion!r}, {_repr.repr(i.format_spec)})"
            for i in interpolations[: _repr.maxtuple]
        )
        if len(interpolations) > _repr.maxtuple:
            shown += ", ..."
        elif len(interpolations) == 1:
            shown += ","
        return f"InterpolationTemplate(strings={strings}, interpolations=({shown}))"

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
        return _render(self._layout.strings, self.interpolations, render_template, render_field)

    # The formatter is read into a name, then called: `self._layout.formatter(...)` would
    # load it as a method, which 3.11 cannot specialize for an instance attribute.

    def __str__(self) -> str:
        formatter = self._layout.formatter
        return formatter(self._values)

    def __format__(self, format_spec: str) -> str:
        # (__str__ inlined: a frame less on the common path)
        formatter = self._layout.formatter
        if format_spec:
            return format(formatter(self._values), format_spec)
        return formatter(self._values)

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
        return other.strings, other.interpolations
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
    native = getattr(template, "_native", None)
    if native is None:
        native = template._native = NativeTemplate(*template._parts())
    return native


def from_template(template: Any) -> InterpolationTemplate:
    """Wrap a native ``string.templatelib.Template`` (3.14+) losslessly, so it renders."""
    if isinstance(template, InterpolationTemplate):
        return template
    if NativeTemplate is None or not isinstance(template, NativeTemplate):
        raise TypeError(
            f"expected a string.templatelib.Template, got {type(template).__name__}"
        )
    wrapped = InterpolationTemplate._from_parts(
        tuple(template.strings), tuple(template.interpolations)
    )
    wrapped._native = template
    return wrapped


def fields_with_built_specs(template: InterpolationTemplate) -> tuple[int, ...]:
    """The positions (0-based) of the fields whose format spec had fields of its own
    (``{x:{mode}}``), as the rewrite laid the i-literal out: their spec is a value's choice,
    though it looks written.  Empty for a template built from parts, which cannot tell."""
    return tuple(
        position
        for position, (_, _, _, _, spec_at) in enumerate(template._layout.fields)
        if spec_at >= 0
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
    return str(as_template(template, renderer="format"))


def _python_template_builder(
    layouts: Sequence[_Layout],
) -> Callable[..., InterpolationTemplate]:
    """The rewrite's fast path: ``build(key, *values)``, the template of the literal laid out as
    ``layouts[key]`` with the values its fields just evaluated to (its interpolations are made
    when first asked for; see :class:`_Layout`).

    A closure, not a ``partial``: from Python code a call to a Python function runs in the
    caller's interpreter loop (3.11+), which costs less than a call through a C wrapper.
    """

    def build_template(key: int, *values: object) -> InterpolationTemplate:
        template = _new(InterpolationTemplate)
        template._layout = layouts[key]
        template._values = values
        return template

    return build_template


#: The builder the rewrite installs (:func:`_python_template_builder`, or its C version).
_template_builder: Callable[[Sequence[_Layout]], Callable[..., InterpolationTemplate]]
_template_builder = _python_template_builder

#: The C accelerator when it is in use (``ipy_istring/_speedups.c``), else None.
_speedups: Any = None

#: The Python ``__str__`` and ``__format__`` (the reference; the benchmarks time them beside
#: the C ones).
_PYTHON_FORMATTING = {
    name: InterpolationTemplate.__dict__[name] for name in ("__str__", "__format__")
}


def _accelerate() -> None:
    """Build and format templates in C when the optional extension was compiled, unless the
    environment sets ``IPY_ISTRING_PURE_PYTHON=1``: the same builder as
    :func:`_python_template_builder`, and ``__str__``/``__format__`` that format a rewritten
    literal as its compiled f-string does, without the two Python frames (anything else still
    goes through the layout's Python formatter, the one reference)."""
    global _template_builder, _speedups
    if os.environ.get("IPY_ISTRING_PURE_PYTHON") == "1":
        return
    try:
        from . import _speedups as compiled
    except ImportError:  # not built (no compiler, no headers): the Python code runs
        return
    for name, method in compiled.formatting_methods(InterpolationTemplate, _Layout).items():
        setattr(InterpolationTemplate, name, method)

    def template_builder(layouts: Sequence[_Layout]) -> Callable[..., InterpolationTemplate]:
        return compiled.template_builder(layouts, InterpolationTemplate)

    template_builder.__doc__ = _python_template_builder.__doc__
    _template_builder = template_builder
    _speedups = compiled


_accelerate()
