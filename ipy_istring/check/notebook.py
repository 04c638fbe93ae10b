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
    "IMPORTING_CELL_MAGICS",
    "PARAMETERS_TAGS",
    "PYTHON_CELL_MAGICS",
    "Cell",
    "NotebookError",
    "cell_magic",
    "code_cells",
    "is_parameters_cell",
    "raw_cells",
    "to_python",
]

# Cell magics that run their body as Python in the kernel.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "istring"})
# ... of which those that run it once, in the notebook's namespace: an import there binds a
# name for the cells after (not %%timeit, which runs it in a function, over and over).
IMPORTING_CELL_MAGICS = frozenset({"time", "capture", "prun"})
# Line magics that run their argument, a Python statement, in the kernel: their options, as
# IPython's ExecutionMagics parse them (getopt's letters).
PYTHON_LINE_MAGICS = {"time": "", "timeit": "n:r:tcp:qo", "prun": "D:l:rs:T:q"}
_LINE_MAGIC_CALL = re.compile(r"\s*get_ipython\(\)\.run_line_magic\('(time|timeit|prun)', ")


class NotebookError(ValueError):
    """The file is not a notebook this check can read."""


@dataclass(frozen=True)
class Cell:
    """One code cell: its number (1-based, among all cells), its source, the line of the
    cell where that source starts (a cell magic's body starts on line 2), whether it is
    a parameters cell (:func:`is_parameters_cell`), and the indentation IPython removed."""

    number: int
    source: str
    first_line: int = 1
    parameters: bool = False
    #: What IPython took off the start of the lines that start with it (the indentation of
    #: the cell's first line): the columns of those lines as written are that much further.
    indent: str = ""


# papermill's parameters cell, and the cell it injects after it with a run's values: by their
# tags, or by the comment that heads them ("# Parameters" in the injected cell; a cell of the
# author's may say more after a colon, a dash or a bracket: "# Parameters (papermill injects
# overrides after this cell)", "# Papermill parameters: ...").  A heading that goes on in words
# ("# parameters for the plot") names no runner's parameters.
PARAMETERS_TAGS = frozenset({"parameters", "injected-parameters"})
_PARAMETERS_HEADING = re.compile(
    r"\s*#\s*(?:papermill\s+)?parameters[ \t]*(?:[:(\-\u2013\u2014][^\n]*)?(?:\n|$)", re.IGNORECASE
)


def is_parameters_cell(source: str, tags: object = ()) -> bool:
    """Whether a cell holds a notebook's parameters, which a runner such as papermill
    replaces with values from outside the notebook (its command line, a scheduler)."""
    if isinstance(tags, list) and any(t in PARAMETERS_TAGS for t in tags if isinstance(t, str)):
        return True
    return _PARAMETERS_HEADING.match(source) is not None


def raw_cells(notebook: object) -> list[Any]:
    """The cells of a notebook's parsed JSON (nbformat 4's ``cells``, or nbformat 3's
    worksheets' ``cells``), as they are: each may be anything JSON holds."""
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON is not an object")
    cells: Any = notebook.get("cells")
    sheets = notebook.get("worksheets")
    if cells is None and isinstance(sheets, list):  # nbformat 3
        if not all(isinstance(s, dict) and isinstance(s.get("cells", []), list) for s in sheets):
            raise NotebookError("not a notebook: a worksheet is not an object with a 'cells' list")
        cells = [c for sheet in sheets for c in sheet.get("cells", [])]
    if not isinstance(cells, list):
        raise NotebookError("not a notebook: no 'cells' list")
    return cells


def code_cells(text: str) -> list[Cell]:
    """The code cells of a notebook's JSON text (nbformat 3 or 4)."""
    try:
        notebook = json.loads(text)
    except ValueError as error:  # (also a number of more digits than Python converts)
        raise NotebookError(f"not valid notebook JSON ({error})") from None
    except RecursionError:  # (the decoder recurses into each array and object)
        raise NotebookError("not a notebook: its JSON is nested too deeply to read") from None
    cells = []
    for number, cell in enumerate(raw_cells(notebook), 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", cell.get("input", ""))
        if isinstance(source, list) and all(isinstance(line, str) for line in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"cell {number}: its source is not text (a string or lines)")
        metadata = cell.get("metadata")
        tags = metadata.get("tags", ()) if isinstance(metadata, dict) else ()
        cells.append(Cell(number, source, parameters=is_parameters_cell(source, tags)))
    return cells


def to_python(cell: Cell) -> Iterator[Cell]:
    """The Python of a cell as IPython runs it: the cell, or the body of a Python cell magic
    (itself transformed)."""
    from IPython.core.inputtransformer2 import TransformerManager

    source, indent = _dedented(cell.source)
    indent = cell.indent + indent
    magic = cell_magic(source)
    if magic is not None and magic[0] in PYTHON_CELL_MAGICS:
        name, head, body = magic
        if name == "timeit":  # (`%%timeit -n 5 setup`: the setup statement runs first)
            blank = len(source) - len(source.lstrip("\n"))
            setup = _statement_of(head[blank:].rstrip("\r\n")[1:], "timeit")
            if setup is not None and setup[2:].strip():
                # (one column more: the line starts %%, not %)
                yield Cell(cell.number, "0; " + setup[2:], cell.first_line + blank, indent=indent)
        first_line = cell.first_line + head.count("\n")
        yield from to_python(Cell(cell.number, body, first_line, indent=indent))
        return
    # (Another language: the call IPython makes, `run_cell_magic('sql', '', body)`, which
    # the sinks know for the magics that expand values (`%%sql` and its {name}).)
    # (IPython drops the blank lines a cell starts with: given back as empty lines, the lines
    # after them are the cell's)
    # (IPython's lines are str.splitlines'; the lines given back, Python's: a form feed is
    # a line for IPython, not for Python)
    lines = source.splitlines(keepends=True)
    blank = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    dropped, rest = "".join(lines[:blank]), "".join(lines[blank:])
    transformed: str = TransformerManager().transform_cell(rest)  # type: ignore[no-untyped-call]
    ends = dropped.count("\n") + dropped.count("\r") - dropped.count("\r\n")
    transformed = "\n" * ends + _lines_as_written(rest, transformed)
    python = _line_magics_as_python(source, transformed)
    yield Cell(cell.number, python, cell.first_line, indent=indent)


def _dedented(source: str) -> tuple[str, str]:
    """``source`` as IPython's ``leading_indent`` leaves it, and what it took off: the
    indentation of the first line that is not blank, off each line that starts with it."""
    first = next((line for line in source.splitlines() if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent:
        return source, ""
    from .._lines import python_lines

    lines = python_lines(source, keepends=True)
    kept = (line[len(indent) :] if line.startswith(indent) else line for line in lines)
    return "".join(kept), indent


def cell_magic(source: str) -> tuple[str, str, str] | None:
    """The cell magic a cell starts with (after empty lines): its name (``%%time -n 5``:
    "time"), the text up to its body (through the magic's line) and its body; None for a
    cell without one."""
    stripped = source.lstrip("\n")
    if not stripped.startswith("%%"):
        return None
    first = stripped.partition("\n")[0]
    name = first[2:].split(None, 1)[0] if first[2:].strip() else ""
    head = len(source) - len(stripped) + len(first) + 1
    return name, source[:head], source[head:]


def _lines_as_written(source: str, transformed: str) -> str:
    """``transformed`` (IPython's transform of ``source``) with the lines of ``source``: IPython
    makes one line of an escaped line continued by a backslash (``!cmd \\`` and the line after
    it), and the lines after it would be counted one too few (a finding's line, and the line
    its fix replaces).  Each line it took in is given back as an empty line after it."""
    import difflib

    from .._lines import python_lines

    written, lines = python_lines(source, keepends=True), python_lines(transformed, keepends=True)
    if len(lines) >= len(written):
        return transformed
    matcher = difflib.SequenceMatcher(
        None, [line.rstrip("\r\n") for line in written], [line.rstrip("\r\n") for line in lines],
        autojunk=False,
    )  # fmt: skip
    kept: list[str] = []
    for _, start, end, new_start, new_end in matcher.get_opcodes():
        kept += lines[new_start:new_end]
        taken_in = (end - start) - (new_end - new_start)
        if taken_in > 0:
            if kept and not kept[-1].endswith(("\n", "\r")):
                kept[-1] += "\n"
            kept += ["\n"] * taken_in
    return "".join(kept)


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
    from IPython.utils.process import arg_split  # (as magics do)

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
