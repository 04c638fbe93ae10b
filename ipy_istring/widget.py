"""The live view of an i-string template: the fields table and a renderer picker (ipywidgets).

``t.inspect()`` returns a :class:`TemplateWidget`.  Plain display uses one only when
``display.options.use_widget`` is set (the extension sets it in a kernel with widgets); the
bundle then also carries the static HTML, so an exported notebook still shows the view.

Widgets made for display output are tracked by the cell that made them, so none leaks
across re-runs: the extension registers :func:`pre_run_cell` as a ``pre_run_cell`` event
(it closes the widgets from the previous run of the same cell) and calls
:func:`close_display_widgets` on ``%reset`` and on unload.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets  # type: ignore[import-untyped]

from . import display
from .template import InterpolationTemplate

__all__ = [
    "TemplateWidget",
    "close_display_widgets",
    "display_widget",
    "live_display_widgets",
    "pre_run_cell",
]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

# Above this many renderers the picker is a Dropdown rather than a row of buttons.
_MAX_BUTTONS = 6


class TemplateWidget(widgets.VBox):  # type: ignore[misc]
    """A template's fields table and a picker of every registered renderer; choosing one
    shows its output below (SQL with its parameters, argv as a list, html as source and
    sandboxed preview, text otherwise).  Every value is escaped."""

    def __init__(
        self,
        template: InterpolationTemplate,
        *,
        registry: Mapping[str, Any] | None = None,
        renderer: str | None = None,
    ) -> None:
        self.template = template
        items, self._registry_error = display._registered(registry)
        items = display._ordered(items, display.options.default_renderer)
        self._renderers = dict(items)
        names = list(self._renderers)
        view = display.describe(template, render=False)
        choice = renderer if renderer in self._renderers else (names[0] if names else None)

        self.fields = widgets.HTML(
            display.style_tag()
            + "<div class='ipyis-root ipyis-wrap'>"
            + display.view_html(view, with_outputs=False)
            + "</div>"
        )
        picker: Any = widgets.ToggleButtons if len(names) <= _MAX_BUTTONS else widgets.Dropdown
        self.control = picker(options=names, value=choice, description="Render with")
        self.control.style.description_width = "initial"
        self.output = widgets.HTML()
        self.control.observe(self._on_choice, names="value")
        super().__init__(children=[self.fields, self.control, self.output])
        self._show(choice)

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

    def _show(self, name: str | None) -> None:
        if name is None:
            message = self._registry_error or "no renderer is registered"
            body = f"<div class='ipyis-note'>{display._e(message)}</div>"
        else:
            output = display.render_one(self.template, name, self._renderers[name])
            body = display.output_html(output, preview=True)
        self.output.value = f"<div class='ipyis-root ipyis-wrap ipyis-body'>{body}</div>"

    def view_json(self) -> dict[str, Any]:
        """The ``application/vnd.jupyter.widget-view+json`` payload that shows this widget."""
        bundle = super()._repr_mimebundle_()
        payload: dict[str, Any] = bundle[WIDGET_MIME]
        return payload

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The widget's view plus the template's static HTML and text, so that a notebook
        shown without widget support (GitHub, nbconvert) still shows the template."""
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is None:  # a closed widget shows nothing
            return None
        view = display.describe(self.template)
        bundle["text/plain"] = display.to_text(self.template, view=view)
        bundle["text/html"] = display.to_html(self.template, view=view)
        return bundle


# Widgets made for display output, by the id of the cell that displayed them.
_by_cell: dict[str | None, list[TemplateWidget]] = {}
_current_cell: str | None = None


def display_widget(template: InterpolationTemplate) -> TemplateWidget:
    """Make the widget for one display of ``template``, tracked under the running cell."""
    widget = TemplateWidget(template)
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
