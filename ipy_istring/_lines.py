"""The lines of Python source, as Python counts them.

Python ends a line at ``\\n``, ``\\r\\n`` or ``\\r``, and nowhere else.  ``str.splitlines()``
also ends one at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``,
which a line of Python may hold (a form feed between the sections of a file, a ``\\u2028`` in
a string): after one of those, its line *n* is no longer the line *n* of the tree, of the
tokenizer or of a ``SyntaxError``.  Whatever indexes source lines by such a number splits the
source here.
"""

from __future__ import annotations

import io
import re

__all__ = ["LINE_END", "python_lines"]

LINE_END = re.compile(r"\r\n?|\n")  # (what ends a line of Python)


def python_lines(source: str, keepends: bool = False) -> list[str]:
    """The lines of ``source`` as ``str.splitlines(keepends)`` gives them, but ended only
    where Python ends a line: item *n - 1* is line *n* of ``ast.parse(source)``."""
    if keepends:
        return io.StringIO(source, newline="").readlines()  # (it keeps \r, \r\n and \n)
    lines = source.split("\n") if "\r" not in source else LINE_END.split(source)
    if not lines[-1]:
        lines.pop()  # (nothing after the last line end is no line, as for splitlines)
    return lines
