"""The HTML view of a template: static HTML in every bundle, and the widget's panels.

Built from a :class:`~ipy_istring.view_model.TemplateView` by small named functions, one per
part (header, template text, fields table, one section per renderer), as xarray's
``formatting_html`` does.  Every text goes through :func:`text_html`: escaped (``&<>"'``, by
the standard library's ``html.escape``, which returns plain ``str``: a markupsafe ``Markup``
would escape the markup added to it), and every invisible or text-moving character shown as
a marked escape (``\\u202e``).

The HTML reads well without its stylesheet too (JupyterLab's sanitizer drops ``<style>`` in
an untrusted notebook, GitHub drops it always): it is plain ``details``, ``table``, ``pre``
and ``ol``, with no script, no id and no inline style.  ``display.css`` styles it with
prefixed classes and JupyterLab's ``--jp-*`` variables.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from importlib import resources
from typing import Any

from .display_options import options
from .view_model import (
    Clipped,
    RenderedOutput,
    Row,
    SourcePart,
    TemplateView,
    ValueText,
    clip,
    describe,
    right_to_left,
    shown_as_is,
    visible_parts,
)

__all__ = [
    "fields_table_html",
    "header_html",
    "output_html",
    "source_html",
    "style_tag",
    "text_html",
    "to_html",
    "view_html",
]


@lru_cache(maxsize=1)
def _css() -> str:
    # Without its blank lines: see _no_blank_lines.
    css = resources.files("ipy_istring").joinpath("display.css").read_text(encoding="utf-8")
    return "\n".join(line for line in css.splitlines() if line.strip())


def _no_blank_lines(html: str) -> str:
    """``html`` with each line break written ``&#10;``: the same text in a browser, and no
    blank line in the bundle.  nbconvert's Markdown export puts the HTML in the page as it
    is, and Markdown ends an HTML block at its first blank line: what follows was read as
    Markdown (``__init__`` turned to a bold "init", a backslash dropped, ``[docs](; cmd)``
    to a link reading "docs") in what the page says will run."""
    return html.replace("\n", "&#10;")


def style_tag() -> str:
    """The ``<style>`` element holding ``display.css``."""
    return f"<style>{_css()}</style>"


def text_html(text: str, *, newlines: bool = True) -> str:
    """``text`` as HTML text: escaped, each invisible character shown as a marked escape.
    The mark is in a ``b`` (bold without the stylesheet, kept by every sanitizer), so the six
    characters ``\\u200b`` of a text and a real U+200B's escape read apart anywhere."""
    if shown_as_is(text):  # nearly every text: one escape (none for names), no split
        return text if text.isalnum() else escape(text)
    return "".join(
        f"<b><span class='ipyis-esc' title='invisible character'>{escape(piece)}</span></b>"
        if is_escape
        else _no_blank_lines(escape(piece))
        for piece, is_escape in visible_parts(text, newlines=newlines)
    )


def _more(omitted: int, unit: str = "characters") -> str:
    if not omitted:
        return ""
    return f"<span class='ipyis-more'> … {omitted:,} more {unit}</span>"


def _clipped_html(clipped: Clipped) -> str:
    return text_html(clipped.text) + _more(clipped.omitted)


def _name_html(name: str) -> str:
    """A renderer's name, cut as a value is (see :func:`~ipy_istring.view_model.shown_name`)."""
    return _clipped_html(clip(name, options.max_value_chars))


def _pre(css_class: str, body: str, attributes: str = "") -> str:
    """A ``pre`` of ``body``.  The parser drops a line break right after ``<pre>`` (written
    ``&#10;`` too): a text that starts with one gets one more, for the parser to drop."""
    first = "\n" if body.startswith("&#10;") else ""
    return f"<pre class='{css_class}'{attributes}>{first}{body}</pre>"


def header_html(view: TemplateView, *, with_renderer: bool = True) -> str:
    """The title line: field count and (static view) the default renderer."""
    count = view.field_count
    noun = "field" if count == 1 else "fields"
    renderer = (
        f" <span class='ipyis-badge ipyis-badge-accent'>renderer "
        f"{_name_html(view.default_renderer)}</span>"
        if with_renderer
        else ""
    )
    return (
        "<div class='ipyis-header'>"
        "<strong class='ipyis-title'>i-string template</strong>"
        f" <span class='ipyis-badge'>{count:,} {noun}</span>{renderer}</div>"
    )


def _part_html(part: SourcePart) -> str:
    if part.field is None:
        return text_html(part.text)
    return (
        f"<span class='ipyis-chip'>{text_html(part.text, newlines=False)}"
        f"<sub class='ipyis-chip-index'>{part.field}</sub></span>"
    )


def source_html(view: TemplateView) -> str:
    """The template's text with each field shown as a numbered chip, cut like any output."""
    body = "".join(_part_html(part) for part in view.source)
    return _pre("ipyis-source", body + _more(view.source_omitted))


def _value_html(value: ValueText) -> str:
    """A value's repr, with what was cut; a failed repr is flagged."""
    if value.flagged:
        return f"<span class='ipyis-flag'>{text_html(value.text)}</span>"
    return text_html(value.text, newlines=False) + _more(value.omitted)


def _gap_row(columns: int, omitted: int, unit: str) -> str:
    return (
        f"<tr class='ipyis-ellipsis-row'><td colspan='{columns}'>"
        f"… {omitted:,} more {unit} …</td></tr>"
    )


def _table(head: tuple[str, ...], rows: list[str], gap: tuple[int, str] | None) -> str:
    if gap is not None and gap[0]:
        rows.insert(len(rows) // 2, _gap_row(len(head), *gap))
    header = "".join(f"<th>{name}</th>" for name in head)
    return (
        "<table class='ipyis-table'>"
        f"<thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def fields_table_html(view: TemplateView, *, paged: bool = False) -> str:
    """The table of fields: position, expression, value repr, type, conversion, spec.
    ``paged``: the rows are one page of the widget's, not the first and last ones."""
    rows = [
        "<tr>"
        f"<td class='ipyis-num'>{f.position}</td>"
        f"<td class='ipyis-code ipyis-expr'>{text_html(f.expression, newlines=False)}</td>"
        f"<td class='ipyis-code'>{_value_html(f.value)}</td>"
        f"<td class='ipyis-type'>{text_html(f.type_name)}</td>"
        f"<td class='ipyis-code'>{f.conversion}</td>"  # "", "!s", "!r" or "!a"
        f"<td class='ipyis-code'>{text_html(f.format_spec, newlines=False)}</td>"
        "</tr>"
        for f in view.fields
    ]
    gap = None if paged else (view.omitted_fields, "fields")
    return _table(("#", "expression", "value", "type", "conv", "spec"), rows, gap)


def _section_html(summary: str, body: str, *, is_open: bool) -> str:
    """A collapsible section (``details``): open or closed."""
    state = " open" if is_open else ""
    return (
        f"<details class='ipyis-section'{state}><summary>{summary}</summary>"
        f"<div class='ipyis-body'>{body}</div></details>"
    )


def _fields_section_html(view: TemplateView) -> str:
    if not view.field_count:
        return ""
    summary = f"Fields <span class='ipyis-summary-note'>{view.field_count:,}</span>"
    return _section_html(
        summary, fields_table_html(view), is_open=view.field_count <= options.max_rows
    )


def _block(clipped: Clipped) -> str:
    """A renderer's output, its characters left to right in the order they run.

    Printable right-to-left letters are reordered by bidi: ``cp א-1 ב-2`` showed as
    ``cp 2-ב 1-א``, the destination read first.  An output holding one is put in a ``bdo``
    (an element: it holds without the stylesheet, in JupyterLab's untrusted view and on
    GitHub).  Any other output, with nothing to reorder, is no more than its ``pre``:
    nbconvert's ``--sanitize-html`` shows a ``bdo`` as its escaped tag, and Unicode's
    overrides (LRO...PDF) instead of it would be copied with the command.
    ``dir`` sets the direction of its ends (a page laid out right to left moved
    ``echo hi;`` to ``;echo hi``); a sanitizer that drops it shows nothing of it."""
    body = _clipped_html(clipped)
    if right_to_left(clipped.text):
        body = f"<bdo dir='ltr'>{body}</bdo>"
    return _pre("ipyis-output", body, " dir='ltr'")


def _row_html(row: Row, *, typed: bool = True) -> str:
    kind = f"<td class='ipyis-type'>{text_html(row.type_name)}</td>" if typed else ""
    return (
        "<tr>"
        f"<td class='ipyis-num'>{text_html(row.label)}</td>"
        f"<td class='ipyis-code'>{_value_html(row.value)}</td>"
        f"{kind}</tr>"
    )


def _query_html(output: RenderedOutput) -> str:
    rows = [_row_html(row) for row in output.rows]
    table = (
        _table(("#", "parameter", "type"), rows, (output.omitted_rows, "parameters"))
        if output.row_count
        else "<div class='ipyis-note'>no parameters</div>"
    )
    return (
        "<div class='ipyis-label'>query</div>"
        + _block(output.text)
        + f"<div class='ipyis-label'>parameters ({output.row_count:,})</div>"
        + table
    )


def _argv_html(output: RenderedOutput) -> str:
    # (every argument is a str: no type column)
    rows = [_row_html(row, typed=False) for row in output.rows]
    return _table(("#", "argument"), rows, (output.omitted_rows, "arguments"))


def _preview_height(source: str) -> int:
    # No script may size the frame to its content: estimate from the lines, within bounds.
    lines = source.count("\n") + 1 + len(source) // 100
    return min(max(lines * 22 + 24, 64), 480)


_SURROGATES = re.compile("[\ud800-\udfff]")
# The preview loads nothing: sandbox="" stops scripts, forms and navigation of the page, but
# not the requests of its images, media, frames, styles and fonts, so an <img src="{avatar}">
# made the browser fetch a value's URL (any host it reaches, an intranet one too) as soon as
# the template was displayed.  A policy can only be tightened by another (a <meta> policy in
# the rendered HTML adds to this one): only inline styles and data: URLs are kept.  (After
# the style, still in the head, where a policy must be, and before anything that loads.)
_PREVIEW_POLICY = (
    "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:; media-src data:; font-src data:\">"
)
_PREVIEW_STYLE = (
    "<style>body{margin:8px;font:14px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;"
    "color:#1a1a1a;background:#fff}</style>" + _PREVIEW_POLICY
)


def _html_output_html(output: RenderedOutput, *, preview: bool) -> str:
    body = "<div class='ipyis-label'>source</div>" + _block(output.text)
    if preview:
        # (A lone surrogate, from json.loads of untrusted text say, cannot be sent to the
        # front end (no UTF-8 holds it): the preview shows it as the browser would, U+FFFD;
        # the source above shows its escape.)
        source = _SURROGATES.sub("\ufffd", output.text.text)
        # srcdoc is an attribute: escape() makes it one string; sandbox="" forbids scripts,
        # forms, navigation and same-origin access, and the policy any load from the network.
        body += (
            "<div class='ipyis-label'>rendered (sandboxed, nothing loaded)</div>"
            f"<iframe class='ipyis-preview' sandbox='' title='rendered HTML (sandboxed)' "
            f"height='{_preview_height(source)}' "
            f"srcdoc='{_no_blank_lines(escape(_PREVIEW_STYLE + source))}'></iframe>"
        )
    return body


def output_html(output: RenderedOutput, *, preview: bool = False) -> str:
    """One renderer's output as HTML: SQL with a parameters table, argv as a table, html as
    escaped source (and, with ``preview``, rendered in a sandboxed iframe), else text."""
    kind = output.kind
    if kind == "error":
        label = "<strong class='ipyis-error-label'>error</strong> "
        return _pre("ipyis-error", label + _clipped_html(output.text))
    if kind == "skipped":
        return f"<div class='ipyis-note'>{text_html(output.text.text)}</div>"
    if kind == "query":
        return _query_html(output)
    if kind == "argv":
        return _argv_html(output)
    if kind == "html":
        return _html_output_html(output, preview=preview)
    return _block(output.text)


def _output_summary(output: RenderedOutput, is_default: bool) -> str:
    note = "default" if is_default else output.summary
    css = "ipyis-summary-error" if output.kind == "error" else "ipyis-summary-note"
    return f"{_name_html(output.name)} <span class='{css}'>{text_html(note)}</span>"


def _outputs_html(view: TemplateView) -> str:
    """One section per renderer; the default renderer's is open."""
    sections = [
        _section_html(
            _output_summary(output, output.name == view.default_renderer),
            output_html(output),
            is_open=output.name == view.default_renderer,
        )
        for output in view.outputs
    ]
    if view.registry_error:
        sections.append(
            f"<div class='ipyis-body ipyis-flag'>{text_html(view.registry_error)}</div>"
        )
    return "".join(sections)


def view_html(view: TemplateView) -> str:
    """The rich view of a described template: header, text, fields, outputs (no style)."""
    return header_html(view) + source_html(view) + _fields_section_html(view) + _outputs_html(view)


def to_html(template: Any, *, view: TemplateView | None = None) -> str:
    """The static HTML view: its stylesheet and the rich view, readable without either."""
    view = describe(template) if view is None else view
    return f"<div class='ipyis-root ipyis-wrap'>{style_tag()}{view_html(view)}</div>"
