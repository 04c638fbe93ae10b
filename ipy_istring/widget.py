"""The live view of an i-string template: fields, a pager, a renderer picker (ipywidgets).

An enhancement over the static HTML for a live kernel, in one bordered box: the template's
text and fields (paged through all of them, ``max_rows`` at a time), then "Render with" and
the chosen renderer's output.  It lays out the same :class:`~ipy_istring.view_model.
TemplateView` the static HTML is made of, so no value is repr'd twice and no renderer runs
twice for one display.

Importing this module installs :func:`make_widget` as the display's widget maker, so
``t.inspect()`` returns a :class:`TemplateWidget` and, when ``options.use_widget`` is set
(the extension sets it in a kernel), a displayed template carries the widget's view next to
its static HTML.  Widgets made for display output are tracked by the cell that made them,
so none leaks across re-runs: the extension registers :func:`pre_run_cell` as a
``pre_run_cell`` event and calls :func:`close_display_widgets` on ``%reset`` and on unload.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from . import display
from .display_options import options
from .fields import SharedTexts
from .html_view import (
    fields_table_html,
    header_html,
    output_html,
    source_html,
    style_tag,
    text_html,
)
from .view_model import (
    RenderedOutput,
    TemplateView,
    describe,
    ordered_renderers,
    render_within_limits,
    shown_name,
)

__all__ = [
    "TemplateWidget",
    "close_display_widgets",
    "live_display_widgets",
    "make_widget",
    "pre_run_cell",
]

# Above this many renderers the picker is a Dropdown rather than a row of buttons.
_MAX_BUTTONS = 6


def _labelled(names: list[str]) -> list[tuple[str, str]]:
    """The picker's ``(label, name)`` options: a name's invisible characters shown as their
    escapes, like every other text of the view ("sql\\u200b" beside "sql" read "sql" twice),
    a lone surrogate too (the kernel's message packer cannot encode one: the widget's state
    could not be sent), and cut as a value is."""
    return [(shown_name(name), name) for name in names]


class TemplateWidget(widgets.VBox):  # type: ignore[misc]
    """A template's text and fields, and a picker of every registered renderer; choosing one
    shows its output below (SQL with its parameters, argv as a table, html as source and
    sandboxed preview, text otherwise).  Every value is escaped and made visible."""

    def __init__(
        self,
        template: Any,
        *,
        registry: Mapping[str, Any] | None = None,
        renderer: str | None = None,
        view: TemplateView | None = None,
    ) -> None:
        self.template = template
        items, self._registry_error = ordered_renderers(registry)
        self._renderers = dict(items)
        # Shown for a display, the widget lays out the bundle's own description; made by
        # t.inspect(), it reads the fields now and runs each renderer when first chosen.
        self._view = describe(template, render=False) if view is None else view
        self._outputs = {output.name: output for output in self._view.outputs}
        # The values' texts, read once and shared by the renderers run as they are chosen,
        # so a value whose text changes at each call shows one text in each of them.
        self._texts = SharedTexts()
        names = list(self._renderers)
        choice = renderer if renderer in self._renderers else (names[0] if names else None)

        self.fields = widgets.HTML()
        self.pager = self._make_pager()
        picker: Any = widgets.ToggleButtons if len(names) <= _MAX_BUTTONS else widgets.Dropdown
        self.control = picker(options=_labelled(names), value=choice, description="Render with")
        self.control.style.description_width = "initial"
        self.output = widgets.HTML()
        self.control.observe(self._on_choice, names="value")
        children = [self.fields, self.pager, self.control, self.output]
        super().__init__(children=[child for child in children if child is not None])
        self.add_class("ipyis-widget")
        # Paged, the first page is the first max_rows fields (not the first and last ones).
        self._show_fields(self._view if self.pager is None else self._page(0))
        self._show(choice)

    # the fields, a page at a time

    def _make_pager(self) -> Any:
        count = self._view.field_count
        if count <= options.max_rows:
            return None
        # One widget (each costs a comm and its state): a page slider; the fields panel
        # says which fields the page holds.
        pages = -(-count // options.max_rows)
        pager = widgets.IntSlider(
            value=0, min=0, max=pages - 1, description="Fields page", continuous_update=False
        )
        pager.style.description_width = "initial"
        pager.observe(self._on_page, names="value")
        return pager

    def _on_page(self, change: Mapping[str, Any]) -> None:
        self._show_fields(self._page(change["new"] * options.max_rows))

    def show_fields_from(self, position: int) -> None:
        """Show the page of fields holding ``position`` (the slider moves there)."""
        if self.pager is not None:
            last = max(self._view.field_count - 1, 0)
            self.pager.value = min(max(position, 0), last) // options.max_rows

    def _page(self, first: int) -> TemplateView:
        return describe(self.template, render=False, first_field=first)

    def _show_fields(self, view: TemplateView) -> None:
        paged = self.pager is not None
        table = fields_table_html(view, paged=paged) if view.field_count else ""
        if paged and view.fields:
            first, last = view.fields[0].position, view.fields[-1].position
            table = (
                f"<div class='ipyis-note'>fields {first} to {last} of {view.field_count:,}</div>"
                + table
            )
        self.fields.value = (
            f"<div class='ipyis-root ipyis-panel'>{style_tag()}"
            + header_html(view, with_renderer=False)
            + source_html(view)
            + f"<div class='ipyis-body'>{table}</div></div>"
        )

    # the renderer's output

    @property
    def renderer(self) -> str | None:
        """The name of the renderer whose output is shown."""
        value: str | None = self.control.value
        return value

    @renderer.setter
    def renderer(self, name: str) -> None:
        self.control.value = name

    def _on_choice(self, change: Mapping[str, Any]) -> None:
        self._show(change["new"])

    def _output(self, name: str) -> RenderedOutput:
        if name not in self._outputs:
            self._outputs[name] = render_within_limits(
                self.template, name, self._renderers[name], self._texts
            )
        return self._outputs[name]

    def _show(self, name: str | None) -> None:
        if name is None:
            message = self._registry_error or "no renderer is registered"
            body = f"<div class='ipyis-note'>{text_html(message)}</div>"
        else:
            body = output_html(self._output(name), preview=True)
        self.output.value = f"<div class='ipyis-root ipyis-panel ipyis-body'>{body}</div>"

    # display

    def view_json(self) -> dict[str, Any]:
        """The ``application/vnd.jupyter.widget-view+json`` payload that shows this widget."""
        bundle = super()._repr_mimebundle_()
        payload: dict[str, Any] = bundle[display.WIDGET_MIME]
        return payload

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The widget's view plus the template's static HTML and text, showing the renderer
        chosen now, so a notebook shown without the widget (nbconvert, GitHub, reopened
        without a kernel) shows what the widget showed."""
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # a closed widget shows nothing
            return None
        outputs = tuple(self._output(name) for name in self._renderers)
        view = dataclasses.replace(self._view, outputs=outputs)
        if self.renderer is not None:
            view = dataclasses.replace(view, default_renderer=self.renderer)
        bundle.update(display.static_bundle(self.template, view))
        return bundle


# Widgets made for display output, by the id of the cell that displayed them.
_by_cell: dict[str | None, list[TemplateWidget]] = {}
_current_cell: str | None = None


def make_widget(template: Any, view: TemplateView | None, for_display: bool) -> TemplateWidget:
    """The display's widget maker: a :class:`TemplateWidget` of ``template`` (laid out from
    ``view`` when given); one made ``for_display`` is tracked under the running cell."""
    widget = TemplateWidget(template, view=view)
    if for_display:
        _by_cell.setdefault(_current_cell, []).append(widget)
    return widget


def _close(tracked: list[TemplateWidget]) -> None:
    for widget in tracked:
        widget.close()


def pre_run_cell(info: Any = None) -> None:
    """IPython ``pre_run_cell`` hook: close the widgets the previous run of this cell made.

    Cells are known by ``info.cell_id`` (sent by Jupyter frontends); without one, widgets
    are kept until :func:`close_display_widgets`.
    """
    global _current_cell
    cell_id = getattr(info, "cell_id", None)
    if cell_id is not None:
        _close(_by_cell.pop(cell_id, []))
    _current_cell = cell_id


def close_display_widgets() -> None:
    """Close every widget made for display output (call on ``%reset`` and unload)."""
    while _by_cell:
        _close(_by_cell.popitem()[1])


def live_display_widgets() -> list[TemplateWidget]:
    """The widgets made for display output and not closed yet, oldest first."""
    return [widget for tracked in _by_cell.values() for widget in tracked]


display.use_widget_maker(make_widget)
