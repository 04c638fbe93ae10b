"""The plain-text view of a template: terminal IPython, and ``text/plain`` in every bundle.

An aligned table of the fields, then one line (or block) per renderer::

    i-string template: 2 fields, renderer 'format'
      #  expression  value     type  conv  spec
      0  name        'Robert'  str
      1  limit       5         int
    format → select * from users where name = Robert limit 5
       sql → select * from users where name = ? limit ?  params: ['Robert', 5]

Every text goes through :func:`~ipy_istring.view_model.visible` (an ESC, ``\\r`` or U+202E
in a value shows as its escape and can neither colour the terminal nor overwrite a label; a
backslash of the text that reads as an escape shows doubled), and every cut says what it
left out, with the same limits as the HTML view.  The outputs' lines show right-to-left
letters as escapes too: a terminal with bidi (VTE, Konsole) reorders them, and
``cp א-1 ב-2`` read ``cp 2-ב 1-א``, the destination first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .view_model import RenderedOutput, TemplateView, ValueText, describe, shown_name, visible

__all__ = ["pretty", "to_text", "view_text"]


def _more(omitted: int, unit: str = "characters") -> str:
    return f" … {omitted:,} more {unit}" if omitted else ""


def _cell(text: str) -> str:
    return visible(text, newlines=False)


def _value_text(value: ValueText, *, in_output: bool = False) -> str:
    """A value's repr as one line: the repr and what was cut, or ``<why repr failed>``.
    ``in_output``: a parameter or argument, its right-to-left letters escaped too."""
    if value.flagged:
        return f"<{_cell(value.text)}>"
    keep = not in_output
    shown = visible(value.text, newlines=False, keep_right_to_left=keep, escaped=True)
    return shown + _more(value.omitted)


def _field_lines(view: TemplateView) -> Iterator[str]:
    header = ("#", "expression", "value", "type", "conv", "spec")
    rows = [
        (
            str(f.position),
            _cell(f.expression),
            _value_text(f.value),
            _cell(f.type_name),
            f.conversion,
            _cell(f.format_spec),
        )
        for f in view.fields
    ]
    cells = [header, *rows]
    widths = [max(map(len, column)) for column in zip(*cells)]
    gap_after = _gap_position(view)
    for number, row in enumerate(cells):
        if view.omitted_fields and number == gap_after + 1:
            yield f"  … {view.omitted_fields:,} more fields …"
        padded = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        yield ("  " + "  ".join(padded)).rstrip()


def _gap_position(view: TemplateView) -> int:
    """Where the shown fields jump (the first/last split), as a row number."""
    for number in range(1, len(view.fields)):
        if view.fields[number].position != view.fields[number - 1].position + 1:
            return number
    return len(view.fields)


def _rows_text(output: RenderedOutput, unit: str) -> str:
    values = [_value_text(row.value, in_output=True) for row in output.rows]
    if output.omitted_rows:
        half = len(values) // 2
        values.insert(half, f"… {output.omitted_rows:,} more {unit} …")
    return ", ".join(values)


def _output_text(output: RenderedOutput) -> str:
    """One renderer's output as text: what it made, and what was cut; right-to-left letters
    shown as escapes, so no terminal reorders it (a "value" output is a repr)."""
    shown = visible(output.text.text, keep_right_to_left=False, escaped=output.kind == "value")
    text = shown + _more(output.text.omitted)
    if output.kind == "error":
        return f"error: {text}"
    if output.kind == "skipped":
        return f"({text})"
    if output.kind == "query":
        return f"{text}  params: [{_rows_text(output, 'parameters')}]"
    if output.kind == "argv":
        return f"[{_rows_text(output, 'arguments')}]"
    return text


def _headline(view: TemplateView) -> str:
    """``i-string template: N fields, renderer 'name'``."""
    count = view.field_count
    noun = "field" if count == 1 else "fields"
    # (made visible as every text is: repr keeps what is printable but drawn as nothing)
    return f"i-string template: {count:,} {noun}, renderer '{shown_name(view.default_renderer)}'"


def view_text(view: TemplateView) -> str:
    """The text view of a described template."""
    lines = [_headline(view)]
    if view.field_count:
        lines.extend(_field_lines(view))
    if view.registry_error:
        lines.append(f"  ({visible(view.registry_error)})")
    names = [shown_name(output.name) for output in view.outputs]
    width = max((len(name) for name in names), default=0)
    for name, output in zip(names, view.outputs, strict=True):
        first, *rest = _output_text(output).split("\n")
        lines.append(f"{name.rjust(width)} → {first}")
        lines.extend(" " * (width + 3) + line for line in rest)
    return "\n".join(lines)


def to_text(template: Any, *, view: TemplateView | None = None) -> str:
    """The text view of a template: its fields and values, then each renderer's output."""
    return view_text(describe(template) if view is None else view)


def pretty(template: Any, printer: Any, cycle: bool) -> None:
    """IPython's ``_repr_pretty_``: the text view (a short form inside a cycle)."""
    if cycle:
        printer.text("InterpolationTemplate(...)")
        return
    printer.text(to_text(template))
