"""What a user sees when a cell ends with an i-string: the display bundle, and its parts.

The display is built in layers, each its own module, and none of them is imported by the
data model (:mod:`ipy_istring.template`):

- :mod:`~ipy_istring.display_options`: the settings (``options``, ``set_options``);
- :mod:`~ipy_istring.view_model`: :func:`describe` reads a template once into bounded,
  already-safe data;
- :mod:`~ipy_istring.text_view` and :mod:`~ipy_istring.html_view` lay that data out;
- this module: the ``text/plain`` + ``text/html`` bundle (and the live widget's view where a
  frontend can show it), and :data:`TEMPLATE_VIEWS`, which it installs into the template
  type on import so that ``_repr_*`` and ``inspect()`` reach the views.

The static HTML is the primary display: it is in every bundle and is what nbconvert, GitHub
and a reopened notebook show.  The widget is an enhancement for a live kernel: the
extension imports :mod:`ipy_istring.widget`, which calls :func:`use_widget_maker`.
This module imports neither IPython nor ipywidgets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .display_options import DisplayOptions, options, reset_options, set_options
from .html_view import to_html
from .template import InterpolationTemplate
from .text_view import pretty, to_text
from .view_model import TemplateView, describe, value_repr

__all__ = [
    "WIDGET_MIME",
    "DisplayOptions",
    "TemplateView",
    "describe",
    "inspect",
    "mimebundle",
    "options",
    "pretty",
    "reset_options",
    "set_options",
    "static_bundle",
    "to_html",
    "to_text",
    "use_widget_maker",
    "value_repr",
]

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

#: Makes the live widget of a template: ``maker(template, view, for_display)``, where
#: ``view`` is the description the bundle already made (or None: make one) and
#: ``for_display`` is True for a cell's output (tracked, closed when the cell runs again),
#: False for ``t.inspect()``.  Installed by :mod:`ipy_istring.widget`.
WidgetMaker = Callable[[Any, "TemplateView | None", bool], Any]
_widget_maker: WidgetMaker | None = None


def use_widget_maker(maker: WidgetMaker | None) -> None:
    """Install (or, with ``None``, remove) what makes the live widget of a template."""
    global _widget_maker
    _widget_maker = maker


def _wanted(mime: str, include: Iterable[str] | None, exclude: Iterable[str] | None) -> bool:
    if include and mime not in include:
        return False
    return not (exclude and mime in exclude)


def static_bundle(template: Any, view: TemplateView | None = None) -> dict[str, str]:
    """``text/plain`` and ``text/html`` of one description of the template."""
    view = describe(template) if view is None else view
    return {"text/plain": to_text(template, view=view), "text/html": to_html(template, view=view)}


def mimebundle(
    template: Any,
    include: Iterable[str] | None = None,
    exclude: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The display bundle: ``text/plain`` and ``text/html`` (so every place without a kernel
    shows the template), plus the live widget's view when ``options.use_widget`` is set and
    a widget maker is installed."""
    view = describe(template)
    bundle = {
        mime: data
        for mime, data in static_bundle(template, view).items()
        if _wanted(mime, include, exclude)
    }
    if options.use_widget and _widget_maker is not None and _wanted(WIDGET_MIME, include, exclude):
        bundle[WIDGET_MIME] = _widget_maker(template, view, True).view_json()
    return bundle


def inspect(template: Any) -> Any:
    """The live widget of ``template`` (``t.inspect()``)."""
    if _widget_maker is None:
        raise RuntimeError(
            "t.inspect() needs the live widget: import ipy_istring.widget (ipywidgets) first; "
            "the extension does so in a Jupyter kernel"
        )
    return _widget_maker(template, None, False)


class _TemplateViews:
    """The views ``InterpolationTemplate``'s ``_repr_*`` and ``inspect`` delegate to."""

    mimebundle = staticmethod(mimebundle)
    html = staticmethod(to_html)
    pretty = staticmethod(pretty)
    inspect = staticmethod(inspect)


TEMPLATE_VIEWS = _TemplateViews()
InterpolationTemplate.use_views(TEMPLATE_VIEWS)
