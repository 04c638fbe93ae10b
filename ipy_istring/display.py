"""What a user sees when a cell ends with an i-string: static HTML, plain text, the bundle.

The view is built in two steps, as xarray's ``formatting_html`` does: :func:`describe` reads a
template once into a bounded, already-safe :class:`TemplateView` (every value repr cut, every
hostile ``__repr__`` caught, every renderer run and its error kept as a message), and small
named functions turn that view into HTML (:func:`to_html`) or aligned text (:func:`to_text`).

Everything interpolated into HTML goes through :func:`markupsafe.escape`.  The HTML has no
JavaScript and no ids; its CSS (``display.css``) uses prefixed classes and ``--jp-*``
variables, and a plain-text fallback shows when a sanitizer strips the ``<style>``.

This module imports neither IPython nor ipywidgets.  :func:`mimebundle` imports
``ipy_istring.widget`` only when :attr:`DisplayOptions.use_widget` is set.
"""

from __future__ import annotations

import builtins
import reprlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from markupsafe import escape

from .template import InterpolationTemplate

__all__ = [
    "DisplayOptions",
    "FieldView",
    "RenderedOutput",
    "TemplateView",
    "ValueText",
    "describe",
    "mimebundle",
    "options",
    "output_html",
    "pretty",
    "render_one",
    "to_html",
    "to_text",
    "value_repr",
]


@dataclass
class DisplayOptions:
    """Settings of the display, shared by the static HTML, the text view and the widget."""

    #: Name of the renderer whose output is shown first (the others are collapsed).
    default_renderer: str = "format"
    #: Display templates as a live widget; the extension sets it only in a kernel whose
    #: frontend shows widgets (never in terminal IPython).
    use_widget: bool = False
    #: Characters of a value's repr shown before it is cut ("… N more characters").
    max_value_chars: int = 200
    #: Field rows shown: a template with more fields shows its first and last
    #: ``max_rows // 2`` rows, and its fields section starts collapsed.
    max_rows: int = 30
    #: Characters of a renderer's output shown before it is cut.
    max_output_chars: int = 5_000
    #: Renderers are not run by the display when the template's ``str``/``bytes`` values
    #: hold more characters than this in total (the view says so instead).
    max_render_chars: int = 1_000_000


options = DisplayOptions()

# --------------------------------------------------------------------------------------------
# Reading a template into a bounded view


@dataclass(frozen=True)
class ValueText:
    """A value's repr, safe to show: cut to a limit, or the message of a failed ``repr``."""

    text: str
    omitted: int = 0
    error: str | None = None

    @property
    def flagged(self) -> bool:
        """True when the repr failed and ``text`` is a message, not the value."""
        return self.error is not None


@dataclass(frozen=True)
class FieldView:
    """One interpolation as displayed."""

    index: int
    expression: str
    value: ValueText
    type_name: str
    conversion: str
    format_spec: str


@dataclass(frozen=True)
class RenderedOutput:
    """One renderer's result on the template, or why there is none."""

    name: str
    result: Any = None
    error: str | None = None
    skipped: str | None = None

    @property
    def kind(self) -> str:
        """How the result is shown: error, skipped, query, argv, html or text."""
        if self.error is not None:
            return "error"
        if self.skipped is not None:
            return "skipped"
        return _result_kind(self.result)


@dataclass(frozen=True)
class TemplateView:
    """Everything the display shows about a template, computed once and bounded."""

    strings: tuple[str, ...]
    fields: tuple[FieldView, ...]
    field_count: int
    default_renderer: str
    outputs: tuple[RenderedOutput, ...] = field(default=())
    registry_error: str | None = None

    @property
    def omitted_fields(self) -> int:
        """Number of fields not in :attr:`fields` (the middle of a long template)."""
        return self.field_count - len(self.fields)


_CONTAINERS = (list, tuple, dict, set, frozenset)


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


def _exception_text(exc: BaseException) -> str:
    try:
        message = str(exc)
    except Exception:
        message = "<unprintable message>"
    name = type(exc).__name__
    return f"{name}: {message}" if message else name


def _cut(text: str, limit: int) -> tuple[str, int]:
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


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
        text = _BoundedRepr(limit).repr(value)
    except RecursionError:
        return ValueText("repr() recursed without end", error="RecursionError")
    except Exception as exc:
        message = _exception_text(exc)
        text, _ = _cut(f"repr() raised {message}", limit)
        return ValueText(text, error=type(exc).__name__)
    text, omitted = _cut(text, limit)
    return ValueText(text, omitted)


def _type_name(value: object) -> str:
    try:
        cls = type(value)
        module = cls.__module__
        name = cls.__qualname__
        full = name if module == "builtins" else f"{module}.{name}"
        return _cut(str(full), 80)[0]
    except Exception:
        return "?"


def _field_view(index: int, interpolation: Any, limit: int) -> FieldView:
    conversion = interpolation.conversion
    spec = interpolation.format_spec
    return FieldView(
        index=index,
        expression=_cut(interpolation.expression, limit)[0],
        value=value_repr(interpolation.value, limit),
        type_name=_type_name(interpolation.value),
        conversion=f"!{conversion}" if conversion else "",
        format_spec=_cut(f":{spec}", limit)[0] if spec else "",
    )


def _shown_indices(count: int, max_rows: int) -> list[int]:
    if count <= max_rows:
        return list(range(count))
    half = max(max_rows // 2, 1)
    return [*range(half), *range(count - half, count)]


def _value_chars(template: InterpolationTemplate, fields: Sequence[FieldView]) -> int:
    """Characters a renderer would meet: the length of every ``str``/``bytes`` value, and the
    full repr length of the other values shown (a huge repr means a huge ``str()`` too)."""
    size = sum(
        len(value) for value in template.values if isinstance(value, (str, bytes, bytearray))
    )
    values = template.interpolations
    return size + sum(
        len(f.value.text) + f.value.omitted
        for f in fields
        if not isinstance(values[f.index].value, (str, bytes, bytearray))
    )


def render_one(template: InterpolationTemplate, name: str, renderer: Any) -> RenderedOutput:
    """Run one renderer on the template; an exception becomes the output's ``error``."""
    try:
        return RenderedOutput(name, result=renderer(template))
    except RecursionError:
        return RenderedOutput(name, error="RecursionError: the renderer recursed without end")
    except Exception as exc:
        return RenderedOutput(name, error=_exception_text(exc))


def _registered(registry: Mapping[str, Any] | None) -> tuple[list[tuple[str, Any]], str | None]:
    if registry is None:
        from .registry import renderers

        registry = renderers
    try:
        return list(registry.items()), None
    except Exception as exc:
        return [], f"the renderer registry could not load: {_exception_text(exc)}"


def _ordered(items: list[tuple[str, Any]], default: str) -> list[tuple[str, Any]]:
    return sorted(items, key=lambda item: item[0] != default)


def describe(
    template: InterpolationTemplate,
    *,
    registry: Mapping[str, Any] | None = None,
    render: bool = True,
) -> TemplateView:
    """Read a template into a :class:`TemplateView`: bounded field reprs and, if ``render``,
    every registered renderer's output (default renderer first).  Never raises."""
    limit = options.max_value_chars
    interpolations = template.interpolations
    fields = tuple(
        _field_view(index, interpolations[index], limit)
        for index in _shown_indices(len(interpolations), options.max_rows)
    )
    outputs: list[RenderedOutput] = []
    registry_error = None
    if render:
        items, registry_error = _registered(registry)
        items = _ordered(items, options.default_renderer)
        size = _value_chars(template, fields)
        if size > options.max_render_chars:
            reason = (
                f"not rendered in the display: the values hold {size:,} characters "
                f"(over options.max_render_chars = {options.max_render_chars:,})"
            )
            outputs = [RenderedOutput(name, skipped=reason) for name, _ in items]
        else:
            outputs = [render_one(template, name, renderer) for name, renderer in items]
    return TemplateView(
        strings=template.strings,
        fields=fields,
        field_count=len(interpolations),
        default_renderer=options.default_renderer,
        outputs=tuple(outputs),
        registry_error=registry_error,
    )


# --------------------------------------------------------------------------------------------
# Renderer results: what kind, and their text


def _result_kind(result: object) -> str:
    if isinstance(result, tuple) and hasattr(result, "sql") and hasattr(result, "params"):
        return "query"
    if isinstance(result, list) and all(isinstance(item, str) for item in result[:1000]):
        return "argv"
    if hasattr(type(result), "__html__") and isinstance(result, str):
        return "html"
    if isinstance(result, str):
        return "text"
    return "value"


def _params_of(result: Any) -> list[tuple[str, object]]:
    params = result.params
    if isinstance(params, Mapping):
        return [(str(key), value) for key, value in params.items()]
    if isinstance(params, Sequence) and not isinstance(params, (str, bytes)):
        return [(str(position), value) for position, value in enumerate(params, 1)]
    return [("", params)]


def _output_text(output: RenderedOutput) -> tuple[str, int]:
    """The output as one bounded line of text (for the text view and summaries)."""
    kind = output.kind
    limit = options.max_output_chars
    if kind == "error":
        return _cut(f"error: {output.error}", limit)
    if kind == "skipped":
        return _cut(f"({output.skipped})", limit)
    result = output.result
    if kind == "query":
        params = ", ".join(value_repr(value).text for _, value in _params_of(result)[:20])
        return _cut(f"{result.sql}  params: [{params}]", limit)
    if kind == "argv":
        return _cut(" ".join(value_repr(item).text for item in result[:100]), limit)
    if kind in ("html", "text"):
        return _cut(str.__str__(result), limit)
    shown = value_repr(result, limit)
    return shown.text, shown.omitted


# --------------------------------------------------------------------------------------------
# Plain text (terminal and the HTML's fallback)

_COLUMN_WIDTH = 40


def _clip(text: str, width: int = _COLUMN_WIDTH) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def _value_cell_text(value: ValueText) -> str:
    if value.flagged:
        return f"<{value.text}>"
    return value.text + (f" … {value.omitted:,} more" if value.omitted else "")


def _field_lines(view: TemplateView) -> Iterator[str]:
    rows = [
        (
            str(f.index),
            f.expression,
            _value_cell_text(f.value),
            f.type_name,
            f.conversion,
            f.format_spec,
        )
        for f in view.fields
    ]
    header = ("#", "expression", "value", "type", "conv", "spec")
    cells = [tuple(_clip(cell) for cell in row) for row in [header, *rows]]
    widths = [max(len(row[column]) for row in cells) for column in range(len(header))]
    half = len(view.fields) // 2
    for number, row in enumerate(cells):
        if view.omitted_fields and number == half + 1:
            yield f"  … {view.omitted_fields:,} more fields …"
        padded = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        yield ("  " + "  ".join(padded)).rstrip()


def to_text(template: InterpolationTemplate, *, view: TemplateView | None = None) -> str:
    """A compact aligned text view: the fields, their values, then each renderer's output."""
    view = describe(template) if view is None else view
    lines = [_headline(view)]
    if view.field_count:
        lines.extend(_field_lines(view))
    if view.registry_error:
        lines.append(f"  ({view.registry_error})")
    width = max((len(output.name) for output in view.outputs), default=0)
    for output in view.outputs:
        text, omitted = _output_text(output)
        more = f" … {omitted:,} more characters" if omitted else ""
        first, *rest = (text + more).split("\n") or [""]
        lines.append(f"{output.name.rjust(width)} → {first}")
        lines.extend(" " * (width + 3) + line for line in rest)
    return "\n".join(lines)


def _headline(view: TemplateView) -> str:
    count = view.field_count
    noun = "field" if count == 1 else "fields"
    return f"i-string template: {count:,} {noun}, renderer {view.default_renderer!r}"


def pretty(template: InterpolationTemplate, printer: Any, cycle: bool) -> None:
    """IPython's ``_repr_pretty_``: the text view (a short form inside a cycle)."""
    if cycle:
        printer.text("InterpolationTemplate(...)")
        return
    printer.text(to_text(template))


# --------------------------------------------------------------------------------------------
# HTML


@lru_cache(maxsize=1)
def _css() -> str:
    return resources.files("ipy_istring").joinpath("display.css").read_text(encoding="utf-8")


def style_tag() -> str:
    """The ``<style>`` element holding ``display.css``."""
    return f"<style>{_css()}</style>"


def _e(text: str) -> str:
    return str(escape(text))


def _more(omitted: int, unit: str = "characters") -> str:
    if not omitted:
        return ""
    return f"<span class='ipyis-more'> … {omitted:,} more {unit}</span>"


def _header_html(view: TemplateView, *, with_renderer: bool = True) -> str:
    count = view.field_count
    noun = "field" if count == 1 else "fields"
    renderer = (
        f"<span class='ipyis-badge ipyis-badge-accent'>{_e(view.default_renderer)}</span>"
        if with_renderer
        else ""
    )
    return (
        "<div class='ipyis-header'>"
        "<span class='ipyis-title'>i-string template</span>"
        f"<span class='ipyis-badge'>{count:,} {noun}</span>"
        f"{renderer}</div>"
    )


def _source_html(view: TemplateView) -> str:
    """The template's text with each field shown as a numbered chip, bounded."""
    budget = options.max_output_chars
    parts: list[str] = []
    shown = {f.index: f for f in view.fields}
    for index, string in enumerate(view.strings):
        piece, omitted = _cut(string, max(budget, 0))
        budget -= len(piece)
        parts.append(_e(piece) + _more(omitted))
        if index >= view.field_count:
            break
        if budget <= 0 or index not in shown:
            parts.append("<span class='ipyis-more'> … </span>")
            break
        f = shown[index]
        chip = "{" + f.expression + f.conversion + f.format_spec + "}"
        parts.append(
            f"<span class='ipyis-chip'>{_e(chip)}"
            f"<span class='ipyis-chip-index'>{index}</span></span>"
        )
        budget -= len(chip)
    return f"<pre class='ipyis-source'>{''.join(parts)}</pre>"


def _value_html(value: ValueText) -> str:
    if value.flagged:
        return f"<span class='ipyis-flag'>{_e(value.text)}</span>"
    return _e(value.text) + _more(value.omitted)


def _field_row_html(f: FieldView) -> str:
    return (
        "<tr>"
        f"<td class='ipyis-num'>{f.index}</td>"
        f"<td class='ipyis-code ipyis-expr'>{_e(f.expression)}</td>"
        f"<td class='ipyis-code'>{_value_html(f.value)}</td>"
        f"<td class='ipyis-type'>{_e(f.type_name)}</td>"
        f"<td class='ipyis-code'>{_e(f.conversion)}</td>"
        f"<td class='ipyis-code'>{_e(f.format_spec)}</td>"
        "</tr>"
    )


def _ellipsis_row_html(omitted: int) -> str:
    return f"<tr class='ipyis-ellipsis-row'><td colspan='6'>… {omitted:,} more fields …</td></tr>"


def fields_table_html(view: TemplateView) -> str:
    """The table of fields: position, expression, value repr, type, conversion, spec."""
    rows = [_field_row_html(f) for f in view.fields]
    if view.omitted_fields:
        rows.insert(len(rows) // 2, _ellipsis_row_html(view.omitted_fields))
    head = "".join(
        f"<th>{name}</th>" for name in ("#", "expression", "value", "type", "conv", "spec")
    )
    return (
        "<table class='ipyis-table'>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _section_html(summary: str, body: str, *, is_open: bool) -> str:
    state = " open" if is_open else ""
    return (
        f"<details class='ipyis-section'{state}><summary>{summary}</summary>"
        f"<div class='ipyis-body'>{body}</div></details>"
    )


def _fields_section_html(view: TemplateView) -> str:
    if not view.field_count:
        return ""
    summary = f"Fields<span class='ipyis-summary-note'>{view.field_count:,}</span>"
    return _section_html(
        summary, fields_table_html(view), is_open=view.field_count <= options.max_rows
    )


def _text_block_html(text: str, omitted: int) -> str:
    return f"<pre class='ipyis-output'>{_e(text)}{_more(omitted)}</pre>"


def _query_html(result: Any) -> str:
    sql, omitted = _cut(str(result.sql), options.max_output_chars)
    params = _params_of(result)
    shown = _shown_indices(len(params), options.max_rows)
    rows = [
        "<tr>"
        f"<td class='ipyis-num'>{_e(params[i][0])}</td>"
        f"<td class='ipyis-code'>{_value_html(value_repr(params[i][1]))}</td>"
        f"<td class='ipyis-type'>{_e(_type_name(params[i][1]))}</td>"
        "</tr>"
        for i in shown
    ]
    if len(shown) < len(params):
        rows.insert(
            len(rows) // 2,
            "<tr class='ipyis-ellipsis-row'>"
            f"<td colspan='3'>… {len(params) - len(shown):,} more parameters …</td></tr>",
        )
    table = (
        "<table class='ipyis-table'><thead><tr><th>#</th><th>parameter</th><th>type</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        if params
        else "<div class='ipyis-note'>no parameters</div>"
    )
    return (
        "<div class='ipyis-label'>query</div>"
        + _text_block_html(sql, omitted)
        + f"<div class='ipyis-label'>parameters ({len(params):,})</div>"
        + table
    )


def _argv_html(result: list[str]) -> str:
    shown = _shown_indices(len(result), options.max_rows)
    items = [f"<li>{_value_html(value_repr(result[i]))}</li>" for i in shown]
    if len(shown) < len(result):
        items.insert(
            len(items) // 2,
            f"<li class='ipyis-more'>… {len(result) - len(shown):,} more arguments …</li>",
        )
    return f"<ol class='ipyis-argv' start='0'>{''.join(items)}</ol>"


def _html_result_html(result: str, *, preview: bool) -> str:
    source, omitted = _cut(str.__str__(result), options.max_output_chars)
    body = "<div class='ipyis-label'>source</div>" + _text_block_html(source, omitted)
    if preview:
        # srcdoc is an attribute: escape() makes it one string; sandbox="" forbids scripts,
        # forms, navigation and same-origin access.
        body += (
            "<div class='ipyis-label'>rendered (sandboxed)</div>"
            f"<iframe class='ipyis-preview' sandbox='' srcdoc='{_e(source)}'></iframe>"
        )
    return body


def output_html(output: RenderedOutput, *, preview: bool = False) -> str:
    """One renderer's output as HTML: SQL with a parameters table, argv as a list, html as
    escaped source (and, with ``preview``, rendered in a sandboxed iframe), else text."""
    kind = output.kind
    if kind == "error":
        text, omitted = _cut(output.error or "", options.max_output_chars)
        return f"<pre class='ipyis-error'>{_e(text)}{_more(omitted)}</pre>"
    if kind == "skipped":
        return f"<div class='ipyis-note'>{_e(output.skipped or '')}</div>"
    if kind == "query":
        return _query_html(output.result)
    if kind == "argv":
        return _argv_html(output.result)
    if kind == "html":
        return _html_result_html(output.result, preview=preview)
    return _text_block_html(*_output_text(output))


def _output_summary(output: RenderedOutput, is_default: bool) -> str:
    note = "default" if is_default else _summary_hint(output)
    css = "ipyis-summary-error" if output.kind == "error" else "ipyis-summary-note"
    return f"{_e(output.name)}<span class='{css}'>{_e(note)}</span>"


def _summary_hint(output: RenderedOutput) -> str:
    kind = output.kind
    if kind == "error":
        return _clip(output.error or "", 60)
    if kind == "query":
        return f"query, {len(_params_of(output.result)):,} parameters"
    if kind == "argv":
        return f"{len(output.result):,} arguments"
    if kind == "skipped":
        return "not rendered"
    if kind == "value":
        return _type_name(output.result)
    return kind


def _outputs_html(view: TemplateView) -> str:
    sections = [
        _section_html(
            _output_summary(output, output.name == view.default_renderer),
            output_html(output),
            is_open=output.name == view.default_renderer,
        )
        for output in view.outputs
    ]
    if view.registry_error:
        sections.append(f"<div class='ipyis-body ipyis-flag'>{_e(view.registry_error)}</div>")
    return "".join(sections)


def view_html(view: TemplateView, *, with_outputs: bool = True) -> str:
    """The rich view of a described template, without style or fallback (the widget's)."""
    # The widget picks its renderer with its own control: no default-renderer badge there.
    body = _header_html(view, with_renderer=with_outputs)
    body += _source_html(view) + _fields_section_html(view)
    if with_outputs:
        body += _outputs_html(view)
    return body


def to_html(template: InterpolationTemplate, *, view: TemplateView | None = None) -> str:
    """The static HTML view: style, plain-text fallback, then the rich view it hides."""
    view = describe(template) if view is None else view
    return (
        "<div>"
        + style_tag()
        + f"<pre class='ipyis-text-fallback'>{_e(to_text(template, view=view))}</pre>"
        + "<div class='ipyis-root ipyis-wrap' hidden style='display:none'>"
        + view_html(view)
        + "</div></div>"
    )


# --------------------------------------------------------------------------------------------
# The bundle


def _wanted(mime: str, include: Iterable[str] | None, exclude: Iterable[str] | None) -> bool:
    if include and mime not in include:
        return False
    return not (exclude and mime in exclude)


def mimebundle(
    template: InterpolationTemplate,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The display bundle: ``text/plain`` and ``text/html`` (static, so exported notebooks
    show it), plus the live widget's view when ``options.use_widget`` is set."""
    view = describe(template)
    bundle: dict[str, Any] = {}
    if _wanted("text/plain", include, exclude):
        bundle["text/plain"] = to_text(template, view=view)
    if _wanted("text/html", include, exclude):
        bundle["text/html"] = to_html(template, view=view)
    widget_mime = "application/vnd.jupyter.widget-view+json"
    if options.use_widget and _wanted(widget_mime, include, exclude):
        from .widget import display_widget

        bundle[widget_mime] = display_widget(template).view_json()
    return bundle
