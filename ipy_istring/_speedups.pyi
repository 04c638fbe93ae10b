"""Types of the optional C accelerator (``_speedups.c``); see ``template._accelerate``."""

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["formatting_methods", "rewrite_simple", "template_builder"]

def template_builder(layouts: Sequence[Any], cls: type[Any], /) -> Callable[..., Any]:
    """``build(key, *values)``: ``template._python_template_builder(layouts)`` in C."""

def formatting_methods(cls: type[Any], layout_cls: type[Any], /) -> dict[str, Any]:
    """``__str__`` and ``__format__`` method descriptors for the template class."""

def rewrite_simple(
    source: str,
    builder: str,
    layout_key: Callable[..., int],
    patterns: Any,
    calls: dict[str, str],
    max_calls: int,
    field_by_field: Callable[..., str | None],
    /,
) -> str | None:
    """``_fast_path._python_rewrite_simple(source, builder, layout_key)`` in C."""
