"""ipy_istring: PEP 501 i-strings for IPython and Jupyter.

``%load_ext ipy_istring`` and ``i"cat {file}"`` evaluates its fields now and renders later,
through a renderer that knows the destination: ``sh``, ``argv``, ``sql``, ``html`` or
``format``/``str`` (exactly the f-string's result).
"""

from __future__ import annotations

from typing import Any

from .fields import RenderError
from .html import html
from .registry import register_renderer, renderers
from .shell import argv, sh
from .sql import Query, sql
from .template import (
    Interpolation,
    InterpolationTemplate,
    convert,
    from_template,
    to_template,
)

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


def load_ipython_extension(ipython: Any) -> None:
    """Called by ``%load_ext ipy_istring``: rewrite i-literals in every cell from now on."""
    from .extension import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """Called by ``%unload_ext ipy_istring``: remove everything the extension added."""
    from .extension import unload

    unload(ipython)
