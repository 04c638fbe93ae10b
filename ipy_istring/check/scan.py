"""Checking one source, file or notebook: every failure becomes a reason, never a traceback."""

from __future__ import annotations

import contextlib
import gc
import io
import itertools
import re
import stat
import sys
import tokenize
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from .._lines import python_lines
from ..rewrite import has_istring, rewrite
from . import _ast as ast  # (ast's names, read faster: see _ast.py)
from .files import read_python
from .flow import IPYTHON_EXPANSION, Analysis, Finding, as_written
from .notebook import NotebookError, code_cells, to_python
from .sinks import sinks

__all__ = ["FileResult", "check_file", "check_notebook_text", "check_python", "parse"]


@dataclass
class FileResult:
    """What checking one file gave: its findings and, for what could not be checked, why."""

    path: str
    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "cannot check" reasons, with the place
    source: str | None = None  # the file's text (for the fix)
    encoding: str = "utf-8"  # ... and how it is written
    cells: dict[int, str] = field(default_factory=dict)  # a notebook's code cells by number

    def where(self, finding: Finding) -> str:
        """``path`` or ``path[cell N]``, as findings are reported."""
        return self.path if finding.cell is None else f"{self.path}[cell {finding.cell}]"


# The prefixes of PEP 750's t-strings, which Python before 3.14 reads as a name before a string.
_T_PREFIXES = frozenset({"t", "tr", "rt"})


def _has_t_string(line: str) -> bool:
    """Whether ``line`` holds a t-string (``t"..."``, ``rt'...'``) as Python before 3.14
    tokenizes it: a name that is a t prefix, the string right after it."""
    previous = None
    with contextlib.suppress(tokenize.TokenError, SyntaxError):
        for token in tokenize.generate_tokens(io.StringIO(line).readline):
            if (
                token.type == tokenize.STRING
                and previous is not None
                and previous.type == tokenize.NAME
                and previous.string.lower() in _T_PREFIXES
                and previous.end == token.start
            ):
                return True
            previous = token
    return False


def _reason(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        line = f"line {error.lineno}: " if error.lineno else ""
        if sys.version_info < (3, 14) and _has_t_string(error.text or ""):
            return (
                f"{line}{error.msg}: a t-string (PEP 750) needs Python 3.14; run the check "
                "with Python 3.14"
            )
        return f"{line}{error.msg}"
    if isinstance(error, RecursionError):
        return "an expression nested too deeply to analyse"
    if isinstance(error, UnicodeDecodeError):
        return f"not valid {error.encoding} text (byte {error.start}); declare its coding"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    if isinstance(error, NotebookError):  # (its message says why)
        return str(error)
    return f"{type(error).__name__}: {error}"


def _rewritten(source: str) -> str:
    """The text whose tree :func:`parse` gives: the i-string rewrite of ``source``."""
    return rewrite(source) if has_istring(source) else source


def parse(source: str) -> ast.Module:
    """``source`` (which may hold i-literals) as a tree.  Raises SyntaxError, ValueError
    (NUL bytes), RecursionError or MemoryError for what cannot be read."""
    if "\0" in source:
        raise ValueError("the file contains NUL bytes")
    return ast.parse(rewrite(source))


# Where a top-level definition starts; a big file is parsed one definition at a time.
_DEFINITION = re.compile(r"^(@|def\s|async\s+def\s|class\s)", re.MULTILINE)
_FUNCTION_NAME = re.compile(r"^(?:async\s+)?def\s+(\w+)", re.MULTILINE)
_COLUMN_ZERO = re.compile(r"^[^\s#)\]}]", re.MULTILINE)
_BIG = 2000  # lines: below this, one parse is as quick


def _parse_at(text: str, first_line: int) -> ast.Module:
    if first_line <= 8 * len(text):
        # Empty lines first: the tokenizer skips one in ~20 ns, where ast.increment_lineno
        # takes ~150 ns per character of the text to walk its tree.
        return ast.parse("\n" * (first_line - 1) + text)
    tree = ast.parse(text)
    ast.increment_lineno(tree, first_line - 1)
    return tree


def _parse_piece(text: str, first_line: int) -> tuple[list[ast.stmt], bool]:
    """Statements of a piece of the file, and whether they are of the text as written: it is
    rewritten only if it holds i-literals (most code does not, and plain parsing is quicker
    than the rewrite's scan)."""
    try:
        return _parse_at(text, first_line).body, True
    except SyntaxError:
        return _parse_at(rewrite(text), first_line).body, False


@contextlib.contextmanager
def _no_collection() -> Iterator[None]:
    """No garbage collection while a file is parsed and checked: its tree holds no cycles to
    free, and collecting (over and over, as the nodes are made) costs a third of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _relevant_module(
    source: str, analysis: Analysis, calls: list[int]
) -> tuple[ast.Module, str]:
    """The module's tree, without the top-level functions and classes that call no sink
    (only registered, to be parsed if their return value is asked for), and the text its
    positions are of: ``source`` rewritten, or as it is when no part of it needs the rewrite
    (a big file's rewrite costs as much as its check).  Parsing a big file costs more than
    checking it: this is what makes the check quick.  Raises what :func:`parse` raises."""
    if source.count("\n") < _BIG or "\0" in source:
        return parse(source), _rewritten(source)
    starts: list[int] = [0]
    after_decorator = False
    for match in _DEFINITION.finditer(source):
        if not after_decorator and match.start() > 0:
            starts.append(match.start())
        after_decorator = match.group(1) == "@"
    starts.append(len(source))
    # Each top-level piece: (start, end, first line, needed): a definition that calls no
    # sink is not needed.
    pieces: list[tuple[int, int, int, bool]] = []
    line = 1
    next_call = 0
    for begin, end in itertools.pairwise(starts):
        while next_call < len(calls) and calls[next_call] < begin:
            next_call += 1
        calls_sink = next_call < len(calls) and calls[next_call] < end
        needed = (
            calls_sink
            or _DEFINITION.match(source, begin) is None
            # Module-level code after the definition (or text at column 0 in a string).
            or _COLUMN_ZERO.search(source, source.find("\n", begin, end) + 1 or end, end)
            is not None
        )
        pieces.append((begin, end, line, needed))
        line += source.count("\n", begin, end)
    # The needed pieces parsed in runs of about _BIG lines, each skipped one within a run
    # replaced by as many empty lines (the line numbers stay those of the file).  (Not all in
    # one parse: CPython's parser takes longer per line the longer the text.)
    runs: list[tuple[int, str]] = []  # (first line, text)
    run: list[str] = []
    run_line = run_lines = 0
    aside_as_written = True  # (no function put aside may hold an i-literal)
    for begin, end, line, needed in pieces:
        if not run:
            run_line, run_lines = line, 0
        lines = source.count("\n", begin, end)
        run_lines += lines
        if needed:
            run.append(source[begin:end])
        else:
            name = _FUNCTION_NAME.match(source, begin)
            if name is not None:
                segment = source[begin:end]
                analysis.unparsed[name.group(1)] = _lazy_function(segment, line)
                aside_as_written = aside_as_written and not has_istring(segment)
            run.append("\n" * lines)
        if run_lines >= _BIG:
            runs.append((run_line, "".join(run)))
            run = []
    if run:
        runs.append((run_line, "".join(run)))
    try:
        body, as_written = _parse_runs(runs)
        as_written = as_written and aside_as_written
    except SyntaxError:
        # A split inside a string (`def ` at the start of a line of a docstring): all of it.
        analysis.unparsed.clear()
        body, as_written = _parse_piece(source, 1)
    return ast.Module(body=body, type_ignores=[]), source if as_written else _rewritten(source)


def _parse_runs(runs: list[tuple[int, str]]) -> tuple[list[ast.stmt], bool]:
    """The statements of ``runs`` ((first line, text) after one another), and whether all
    are of the text as written.  A run that does not parse alone (its end inside a string
    that the next run closes: a docstring with a line starting ``class ``) is parsed with
    the next; a SyntaxError if the two do not parse either."""
    body: list[ast.stmt] = []
    as_written = True
    held: tuple[int, str] | None = None
    for first_line, text in runs:
        if held is not None:
            first_line, text = held[0], held[1] + text
        try:
            statements, run_as_written = _parse_piece(text, first_line)
        except SyntaxError:
            if held is not None:
                raise
            held = (first_line, text)
            continue
        held = None
        body += statements
        as_written = as_written and run_as_written
    if held is not None:
        _parse_piece(held[1], held[0])  # (raises its SyntaxError)
    return body, as_written


def _lazy_function(
    segment: str, first_line: int
) -> Callable[[], ast.FunctionDef | ast.AsyncFunctionDef | None]:
    def parsed() -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        try:
            body, _ = _parse_piece(segment, first_line)
        except SyntaxError:
            return None
        node = body[0] if body else None
        return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None

    return parsed


_LONE_CR = re.compile(r"\r(?!\n)")


def check_python(source: str, path: str = "<source>") -> FileResult:
    """Check Python source."""
    result = FileResult(path, source=source)
    # A line may end in a lone \r, as Python reads it, where the data flow counts lines by
    # \n: the same text with \n there (of the same length, so offsets and columns stay).
    source = _LONE_CR.sub("\n", source) if "\r" in source else source
    try:
        analysis = Analysis()
        with _no_collection():
            calls = sinks.calls_in(source)
            tree, rewritten = _relevant_module(source, analysis, calls)
            findings = analysis.check(tree, source, calls=calls, text=rewritten)
            result.findings = as_written(findings, rewritten, source)
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
        offset = 0  # (lines of the cell before the code parsed: a cell magic's)
        try:
            for python in to_python(cell):
                offset = python.first_line - 1
                tree = parse(python.source)
                rewritten = _rewritten(python.source)
                findings = analysis.check(tree, python.source, cell.number, offset, text=rewritten)
                findings = as_written(findings, rewritten, python.source, offset)
                findings = _indented(findings, cell.source, python.indent)
                result.findings.extend(_escapes_as_written(findings, cell.source))
                if cell.parameters:
                    analysis.from_outside(tree)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            if isinstance(error, SyntaxError) and error.lineno:
                error.lineno += offset  # (the line of the cell, not of a %%time body)
            result.errors.append(f"{path}[cell {cell.number}]: cannot check: {_reason(error)}")
        except Exception as error:  # IPython's transformer failed on this cell
            result.errors.append(f"{path}[cell {cell.number}]: cannot check: {_reason(error)}")
    return result


def _indented(findings: list[Finding], source: str, indent: str) -> list[Finding]:
    """``findings`` (of the code IPython runs for the cell ``source``) at their columns in
    the cell as written, whose lines starting with ``indent`` IPython ran without it."""
    if not indent or not findings:
        return findings
    written = python_lines(source)

    def column(line: int, column: int) -> int:
        if 0 < line <= len(written) and written[line - 1].startswith(indent):
            return column + len(indent)
        return column

    return [
        replace(
            f,
            column=column(f.line, f.column),
            end_column=column(f.end_line, f.end_column),
            call_column=column(f.line, f.call_column),
        )
        for f in findings
    ]


# An IPython escape line as written: `!cmd`, `x = !cmd`, `%sx cmd`, `%system cmd`.
_ESCAPE_LINE = re.compile(r"[ \t]*(?:[\w.]+[ \t]*=[ \t]*)?(?:!!?|%sx\b|%system\b)")
_FIRST_EXPANSION = re.compile(r"\{[^{}]+\}|(?<!\$)\$[A-Za-z_]")


def _escapes_as_written(findings: list[Finding], source: str) -> list[Finding]:
    """``findings`` with each of an escape line's expansions at its place in the cell
    ``source`` as written (from its first expansion to the line's end), not at the columns
    of the ``get_ipython().system('...')`` IPython translates the line to, past its end."""
    if not any(f.how == IPYTHON_EXPANSION for f in findings):
        return findings
    written = python_lines(source)
    placed = []
    for finding in findings:
        line = written[finding.line - 1] if 0 < finding.line <= len(written) else ""
        escape = _ESCAPE_LINE.match(line) if finding.how == IPYTHON_EXPANSION else None
        first = _FIRST_EXPANSION.search(line, escape.end()) if escape is not None else None
        if first is not None and finding.end_line == finding.line:
            end = len(line.rstrip()) + 1
            finding = replace(finding, column=first.start() + 1, end_column=end)
        placed.append(finding)
    return placed


def check_file(path: Path) -> FileResult:
    """Check a ``.py`` file or an ``.ipynb`` notebook; a file that cannot be read gets a reason."""
    name = str(path)
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            # (reading a FIFO waits for a writer, a device may never end)
            return FileResult(name, errors=[f"{name}: cannot check: not a regular file"])
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
        source, encoding = read_python(data)
    except ValueError as error:
        return FileResult(name, errors=[f"{name}: cannot check: {error}"])
    result = check_python(source, name)
    result.encoding = encoding
    return result
