"""Types of the optional C accelerator (``_speedups.c``); see ``template._accelerate``."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = [
    "call_at",
    "called_offsets",
    "calls_in",
    "dotted",
    "formatting_methods",
    "has_text",
    "helper_statements",
    "import_bindings",
    "line_numbers",
    "may_reach",
    "places",
    "put_aside",
    "rebound",
    "rewrite_simple",
    "statements_on",
    "template_builder",
]

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

def put_aside(
    statements: list[Any],
    imports_read: bool,
    put_aside_names: dict[str, Any],
    module_names: dict[str, Any],
    helpers: dict[str, Any],
    unparsed: dict[str, Any],
    functions: dict[str, Any],
    returns: dict[str, Any],
    missing: object,
    forget_helper: Callable[[str], object],
    other: Callable[[Any], object],
    /,
) -> None:
    """The loop of ``check.flow.Analysis._python_put_aside`` in C."""

def call_at(statement: Any, line: int, column: int, /) -> tuple[Any, list[Any]] | None:
    """``check.flow._python_call_at`` in C."""

def rebound(body: Sequence[Any], /) -> set[str]:
    """``check.flow._python_rebound`` in C."""

def import_bindings(body: list[Any], count: int, /) -> dict[str, str] | None:
    """``check.cell._python_import_bindings`` in C."""

def dotted(node: Any, /) -> str:
    """``check.flow._python_dotted`` in C."""

def places(source: str, offsets: list[int], /) -> list[tuple[int, int]]:
    """``check.flow._python_places`` in C."""

def line_numbers(source: str, offsets: list[int], every: bool = False, /) -> list[int]:
    """``check.flow._python_line_numbers`` in C."""

def may_reach(
    body: list[Any],
    places: list[tuple[int, int]],
    source: str,
    imports: Mapping[str, str],
    tables: tuple[
        dict[str, Any], dict[str, Any], dict[str, Any], dict[str, str],
        dict[tuple[object, ...], list[Any]], dict[int, set[str]], int,
    ],
    callbacks: tuple[
        Callable[[Any, Mapping[str, str]], list[Any]],
        Callable[[Any, Any, list[Any], str], bool],
        Callable[[str], bool],
    ],
    /,
) -> bool:
    """The loop of ``check.flow.Analysis._python_may_reach`` in C (the usual calls judged
    there, the others by ``callbacks[1]``, ``Analysis._passes_no_format``)."""

def calls_in(
    source: str,
    method_names: frozenset[str],
    functions_match: Callable[[str, int], Any] | None,
    heads: tuple[str, ...],
    /,
) -> list[int]:
    """``check.sinks.CallFinder._python_calls_in`` in C."""

def statements_on(body: list[Any], lines: list[int], /) -> list[int]:
    """``check.flow._python_statements_on`` in C."""

def helper_statements(body: list[Any], lines: list[int], /) -> list[Any]:
    """``check.flow._python_helper_statements`` in C."""

def called_offsets(source: str, calls: tuple[str, ...], commands: tuple[str, ...], /) -> list[int]:
    """``check.flow._python_called_offsets`` in C."""

def has_text(source: str, text: str, /) -> bool:
    """``check.flow._python_has_text`` in C."""
