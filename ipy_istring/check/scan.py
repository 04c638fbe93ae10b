"""Checking one source, file or notebook: every failure becomes a reason, never a traceback."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from ..rewrite import rewrite
from .files import read_python
from .flow import Analysis, Finding
from .notebook import NotebookError, code_cells, to_python

__all__ = ["FileResult", "check_file", "check_notebook_text", "check_python", "parse"]


@dataclass
class FileResult:
    """What checking one file gave: its findings and, for what could not be checked, why."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "cannot check" reasons, with the place
    source: str | None = None  # the file's text (for the fix)
    cells: dict[int, str] = field(default_factory=dict)  # a notebook's code cells by number

    def where(self, finding: Finding) -> str:
        """``path`` or ``path[cell N]``, as findings are reported."""
        return self.path if finding.cell is None else f"{self.path}[cell {finding.cell}]"


def _reason(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        line = f"line {error.lineno}: " if error.lineno else ""
        return f"{line}{error.msg}"
    if isinstance(error, RecursionError):
        return "an expression nested too deeply to analyse"
    if isinstance(error, UnicodeDecodeError):
        return f"not valid {error.encoding} text (byte {error.start}); declare its coding"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return f"{type(error).__name__}: {error}"


def parse(source: str) -> ast.Module:
    """``source`` (which may hold i-literals) as a tree.  Raises SyntaxError, ValueError
    (NUL bytes), RecursionError or MemoryError for what cannot be read."""
    if "\0" in source:
        raise ValueError("the file contains NUL bytes")
    return ast.parse(rewrite(source))


def check_python(source: str, path: str = "<source>") -> FileResult:
    """Check Python source."""
    result = FileResult(path, source=source)
    try:
        result.findings = Analysis().check(parse(source), source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        result.errors.append(f"{path}: cannot check: {_reason(error)}")
    return result


def check_notebook_text(text: str, path: str = "<notebook>") -> FileResult:
    """Check a notebook's JSON text, cell after cell (names carry over between cells)."""
    result = FileResult(path)
    try:
        cells = code_cells(text)
    except NotebookError as error:
        result.errors.append(f"{path}: cannot check: {error}")
        return result
    analysis = Analysis()
    for cell in cells:
        result.cells[cell.number] = cell.source
        try:
            for python in to_python(cell):
                tree = parse(python.source)
                result.findings.extend(
                    analysis.check(tree, python.source, cell.number, python.first_line - 1)
                )
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            result.errors.append(f"{path}[cell {cell.number}]: cannot check: {_reason(error)}")
        except Exception as error:  # IPython's transformer failed on this cell
            result.errors.append(f"{path}[cell {cell.number}]: cannot check: {_reason(error)}")
    return result


def check_file(path: Path) -> FileResult:
    """Check a ``.py`` file or an ``.ipynb`` notebook; a file that cannot be read gets a reason."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        return FileResult(name, errors=[f"{name}: cannot check: {_reason(error)}"])
    if path.suffix == ".ipynb":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return FileResult(name, errors=[f"{name}: cannot check: {_reason(error)}"])
        if not text.strip():
            return FileResult(name, errors=[f"{name}: cannot check: the notebook file is empty"])
        return check_notebook_text(text, name)
    try:
        source = read_python(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        return FileResult(name, errors=[f"{name}: cannot check: {_reason(error)}"])
    return check_python(source, name)
