"""A static check: find strings formatted *before* they reach a shell or a SQL engine.

``os.system(f"cat {file}")`` and ``cur.execute(f"select {col} from t")`` are injection bugs: the
values are in the text before the destination can quote them.  The check reads Python source,
notebooks and IPython cells (it never runs them) and reports each call to a shell or SQL sink
whose command is built by formatting — an f-string, ``%``, ``.format()``, ``+`` or ``join``
with a non-constant part — following the string through names, attributes, returns, branches,
wrappers and cells, and IPython's ``!cmd {x}`` shell escapes.  Each finding says which i-string
renderer fixes it, and ``--fix`` rewrites it when that is safe.

    python -m ipy_istring.check FILE.py NOTEBOOK.ipynb DIR ...  # 0 clean, 1 findings, 2 errors

The parts: :mod:`.sinks` (the table of sinks, extensible), :mod:`.flow` (the data flow),
:mod:`.notebook` (cells as IPython runs them: the only part importing IPython, lazily),
:mod:`.scan` (files, never a traceback), :mod:`.files`, :mod:`.report`, :mod:`.fix`,
:mod:`.cell` (the check in IPython) and :mod:`.cli`.
"""

from __future__ import annotations

import ast
from typing import Any

from .cell import CellChecker, UnsafeFormatWarning
from .sinks import Sink, register_sink, sinks

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .flow import Analysis, Finding

__all__ = [
    "Analysis",
    "CellChecker",
    "Finding",
    "Sink",
    "UnsafeFormatWarning",
    "find_unsafe_calls",
    "main",
    "register_sink",
    "sinks",
]


def __getattr__(name: str) -> Any:
    # The data flow and the command line (argparse and the reports) load only when asked
    # for: the extension imports this package for its cell check.
    if name in ("Analysis", "Finding"):
        from . import flow

        return getattr(flow, name)
    if name == "main":
        from .cli import main

        return main
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def find_unsafe_calls(source: str | ast.Module) -> list[Finding]:
    """The formatted strings that reach a shell or SQL call in ``source`` (code, which may
    hold i-literals, or an already parsed module).  Raises SyntaxError for code that does
    not parse."""
    from .flow import Analysis, as_written
    from .scan import _rewritten, parse

    if isinstance(source, str):
        tree, rewritten = parse(source), _rewritten(source)
        return as_written(Analysis().check(tree, text=rewritten), rewritten, source)
    return Analysis().check(source)
