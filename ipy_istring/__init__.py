"""ipy_istring: PEP 501 i-strings for IPython and Jupyter.

``%load_ext ipy_istring`` and ``i"cat {file}"`` evaluates its fields now and renders later,
through a renderer that knows the destination: ``sh``, ``argv``, ``sql``, ``html`` or
``format``/``str`` (exactly the f-string's result).

Importing the package loads only the template type; the registry and each renderer's module
(and what it needs: markupsafe, ``decimal``...) are imported when first used.
"""

from __future__ import annotations

import sys
from importlib import import_module
from types import ModuleType

from .template import (
    Interpolation,
    InterpolationTemplate,
    convert,
    from_template,
    to_template,
)

TYPE_CHECKING = False  # (typing itself costs more to import than the package)
if TYPE_CHECKING:
    from typing import Any

    from .fields import RenderError
    from .html import html
    from .registry import register_renderer, renderers
    from .shell import argv, sh
    from .sql import Query, sql

__all__ = [
    "Interpolation",
    "InterpolationTemplate",
    "Query",
    "RenderError",
    "argv",
    "convert",
    "from_template",
    "html",
    "load_ipython_extension",
    "register_renderer",
    "renderers",
    "sh",
    "sql",
    "to_template",
    "unload_ipython_extension",
]

__version__ = "0.1.0"

# Imported on first use: name -> the module that defines it.
_LAZY = {
    "html": "html",
    "sh": "shell",
    "argv": "shell",
    "sql": "sql",
    "Query": "sql",
    "RenderError": "fields",
    "register_renderer": "registry",
    "renderers": "registry",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


class _Package(ModuleType):
    """The package's module type.  The submodules ``html`` and ``sql`` are named after the
    renderers they define; when the import system binds such a submodule as an attribute of
    the package (on its first import, by anyone), the package keeps the renderer instead, so
    ``ipy_istring.html`` is the renderer however the modules were loaded."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in _LAZY and isinstance(value, ModuleType) and hasattr(value, name):
            value = getattr(value, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def load_ipython_extension(ipython: Any) -> None:
    """Called by ``%load_ext ipy_istring``: rewrite i-literals in every cell from now on."""
    from .extension import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """Called by ``%unload_ext ipy_istring``: remove everything the extension added."""
    from .extension import unload

    unload(ipython)
