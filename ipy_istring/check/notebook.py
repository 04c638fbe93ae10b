"""Notebooks: their code cells, read the way IPython runs them.

Each cell goes through IPython's own ``TransformerManager`` first, so ``!cmd`` lines,
``x = !cmd``, ``%magic`` lines and ``df?`` become the Python IPython runs
(``get_ipython().system('cmd {x}')``...), then through the i-string rewrite.  The body of a
cell magic whose language is Python (``%%time``, ``%%capture``...) is checked as Python; other
cell magics (``%%bash``, ``%%sql``...) are checked as the ``run_cell_magic`` call IPython makes
of them, which is a sink for ``%%sql`` (it expands ``{name}``).  A line magic that runs a
Python statement (``%time df = pd.read_sql(f"...", con)``) is checked as that statement, in
its columns.  nbformat 3 and 4.

This is the one part of the check that imports IPython, and only when a notebook is read.
"""

from __future__ import annotations

import ast
import getopt
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = [
    "PARAMETERS_TAGS",
    "PYTHON_CELL_MAGICS",
    "Cell",
    "NotebookError",
    "code_cells",
    "is_parameters_cell",
    "to_python",
]

# Cell magics that run their body as Python in the kernel.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "istring"})
# Line magics that run their argument, a Python statement, in the kernel: their options, as
# IPython's ExecutionMagics parse them (getopt's letters).
PYTHON_LINE_MAGICS = {"time": "", "timeit": "n:r:tcp:qo", "prun": "D:l:rs:T:q"}
_LINE_MAGIC_CALL = re.compile(r"\s*get_ipython\(\)\.run_line_magic\('(time|timeit|prun)', ")


class NotebookError(ValueError):
    """The file is not a notebook this check can read."""


@dataclass(frozen=True)
class Cell:
    """One code cell: its number (1-based, among all cells), its source, the line of the
    cell where that source starts (a cell magic's body starts on line 2), and whether it is
    a parameters cell (:func:`is_parameters_cell`)."""

    number: int
    source: str
    first_line: int = 1
    parameters: bool = False


# papermill's parameters cell, and the cell it injects after it with a run's values: by their
# tags, or by the comment that heads them ("# Parameters" in the injected cell).
PARAMETERS_TAGS = frozenset({"parameters", "injected-parameters"})
_PARAMETERS_HEADING = re.compile(r"\s*#\s*parameters\s*(?:\n|$)", re.IGNORECASE)


def is_parameters_cell(source: str, tags: object = ()) -> bool:
    """Whether a cell holds a notebook's parameters, which a runner such as papermill
    replaces with values from outside the notebook (its command line, a scheduler)."""
    if isinstance(tags, list) and any(t in PARAMETERS_TAGS for t in tags if isinstance(t, str)):
        return True
    return _PARAMETERS_HEADING.match(source) is not None


def code_cells(text: str) -> list[Cell]:
    """The code cells of a notebook's JSON text (nbformat 3 or 4)."""
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotebookError(f"not valid notebook JSON ({error})") from None
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON is not an object")
    raw_cells: Any = notebook.get("cells")
    if raw_cells is None and isinstance(notebook.get("worksheets"), list):  # nbformat 3
        raw_cells = [c for sheet in notebook["worksheets"] for c in sheet.get("cells", [])]
    if not isinstance(raw_cells, list):
        raise NotebookError("not a notebook: no 'cells' list")
    cells = []
    for number, cell in enumerate(raw_cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", cell.get("input", ""))
        source = "".join(source) if isinstance(source, list) else source
        if isinstance(source, str):
            metadata = cell.get("metadata")
            tags = metadata.get("tags", ()) if isinstance(metadata, dict) else ()
            cells.append(Cell(number, source, parameters=is_parameters_cell(source, tags)))
    return cells


def to_python(cell: Cell) -> Iterator[Cell]:
    """The Python of a cell as IPython runs it: the cell, or the body of a Python cell magic
    (itself transformed)."""
    from IPython.core.inputtransformer2 import TransformerManager

    stripped = cell.source.lstrip("\n")
    if stripped.startswith("%%"):
        skipped = len(cell.source) - len(stripped)
        first, _, body = stripped.partition("\n")
        magic = first[2:].split(None, 1)[0] if first[2:].strip() else ""
        if magic in PYTHON_CELL_MAGICS:
            yield from to_python(
                Cell(cell.number, body, cell.first_line + cell.source.count("\n", 0, skipped) + 1)
            )
            return
        # Another language: the call IPython makes, `run_cell_magic('sql', '', body)`, which
        # the sinks know for the magics that expand values (`%%sql` and its {name}).
    transformed: str = TransformerManager().transform_cell(cell.source)  # type: ignore[no-untyped-call]
    yield Cell(cell.number, _line_magics_as_python(cell.source, transformed), cell.first_line)


def _line_magics_as_python(source: str, transformed: str) -> str:
    """``transformed`` (IPython's transform of ``source``) with each call of a line magic
    that runs a Python statement written as that statement, where it stands in ``source``:
    ``%time os.system(f"ls {x}")`` becomes ``0;    os.system(f"ls {x}")``, of the same
    length, so its columns are those of the line as written."""
    if "run_line_magic" not in transformed:
        return transformed
    from .._lines import python_lines

    written, lines = python_lines(source), python_lines(transformed, keepends=True)
    if len(written) != len(lines):  # (IPython kept each line a line: else leave it)
        return transformed
    for index, line in enumerate(lines):
        call = _LINE_MAGIC_CALL.match(line)
        statement = _statement_of(written[index], call.group(1)) if call else None
        if statement is not None:
            lines[index] = statement + line[len(line.rstrip("\r\n")) :]
    return "".join(lines)


def _statement_of(line: str, magic: str) -> str | None:
    """``%magic [options] statement`` (``line``, as written) as ``0;`` and the statement in its
    columns, or None when that is not Python (a compound statement, an unknown option)."""
    from IPython.utils.process import arg_split  # type: ignore[attr-defined]  # (as magics do)

    found = re.match(rf"([ \t]*)%{magic}\b(.*)", line)
    if found is None:
        return None
    indent, rest = found.groups()
    try:
        argv = arg_split(rest, posix=False, strict=False)
        _, arguments = getopt.getopt(argv, PYTHON_LINE_MAGICS[magic])
    except (getopt.GetoptError, ValueError):
        return None
    options = re.match(rf"(?:\s*\S+){{{len(argv) - len(arguments)}}}\s*", rest)
    assert options is not None
    width = len(indent) + 1 + len(magic) + options.end()  # (what comes before the statement)
    python = f"{indent}0;".ljust(width) + rest[options.end() :]
    try:
        ast.parse(python.strip())
    except SyntaxError:
        return None
    return python
