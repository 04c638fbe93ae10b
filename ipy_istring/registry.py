"""The renderer registry: every way an i-string template can be turned into a result.

``renderers`` maps a name to a callable taking a template.  The built-in ones are ``format``
(the f-string's result), ``sh``, ``argv``, ``sql`` and ``html``; a user adds theirs with
``@register_renderer`` and a package with an entry point in the group
``ipy_istring.renderers``.  The display offers every registered renderer.  Built-ins and
entry points are loaded when a renderer is first looked up, not when the package is imported.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, MutableMapping
from importlib import import_module
from typing import Any, TypeVar, overload

__all__ = ["ENTRY_POINT_GROUP", "Renderer", "RendererRegistry", "register_renderer", "renderers"]

ENTRY_POINT_GROUP = "ipy_istring.renderers"

Renderer = Callable[[Any], Any]
R = TypeVar("R", bound=Renderer)

# Built-in renderers, imported on first use so that importing the package stays cheap.
_BUILTINS = {
    "format": "ipy_istring.template:render_format",
    "sh": "ipy_istring.shell:sh",
    "argv": "ipy_istring.shell:argv",
    "sql": "ipy_istring.sql:sql",
    "html": "ipy_istring.html:html",
}


def _load(target: str) -> Renderer:
    module, _, name = target.partition(":")
    renderer: Renderer = getattr(import_module(module), name)
    return renderer


class RendererRegistry(MutableMapping[str, Renderer]):
    """A name → renderer mapping that loads built-ins and entry points on first access."""

    def __init__(self) -> None:
        self._renderers: dict[str, Renderer] = {}
        self._loaded = False

    def _ensure_loaded(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        # importlib.metadata costs tens of milliseconds to import: only now, when asked for.
        from importlib.metadata import entry_points

        found = {name: _load(target) for name, target in _BUILTINS.items()}
        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            if entry_point.name in found:
                continue
            # One broken plug-in must not take every renderer (and the display) down with it.
            try:
                found[entry_point.name] = entry_point.load()
            except Exception as error:
                warnings.warn(
                    f"ipy_istring: renderer entry point {entry_point.name!r} "
                    f"({entry_point.value}) failed to load and is skipped: "
                    f"{type(error).__name__}: {error}",
                    RuntimeWarning,
                    stacklevel=3,
                )
        # Anything registered before the first access wins over what was found.
        self._renderers = {**found, **self._renderers}

    def __getitem__(self, name: str) -> Renderer:
        self._ensure_loaded()
        try:
            return self._renderers[name]
        except KeyError:
            known = ", ".join(sorted(self._renderers))
            raise KeyError(f"no renderer named {name!r}; registered: {known}") from None

    def __setitem__(self, name: str, renderer: Renderer) -> None:
        if type(name) is not str or not name:
            # (the display shows every renderer by its name: one that is no text would break
            # the display of every template)
            got = type(name).__name__
            raise TypeError(f"a renderer's name must be a non-empty str, got {got}")
        if not callable(renderer):
            raise TypeError(f"a renderer must be callable, got {type(renderer).__name__}")
        self._renderers[name] = renderer

    def __delitem__(self, name: str) -> None:
        self._ensure_loaded()
        del self._renderers[name]

    def __iter__(self) -> Iterator[str]:
        self._ensure_loaded()
        return iter(self._renderers)

    def __len__(self) -> int:
        self._ensure_loaded()
        return len(self._renderers)

    def __repr__(self) -> str:
        self._ensure_loaded()
        return f"RendererRegistry({sorted(self._renderers)})"


renderers = RendererRegistry()


@overload
def register_renderer(name_or_renderer: R, /) -> R: ...
@overload
def register_renderer(name_or_renderer: str | None = None, /) -> Callable[[R], R]: ...
def register_renderer(name_or_renderer: Any = None, /) -> Any:
    """Register a renderer under its function name, or a name given:

    ``@register_renderer`` or ``@register_renderer("regex")``.
    """
    if callable(name_or_renderer):
        renderers[name_or_renderer.__name__] = name_or_renderer
        return name_or_renderer

    def decorator(renderer: R) -> R:
        renderers[name_or_renderer or renderer.__name__] = renderer
        return renderer

    return decorator
