"""A static check: find strings formatted *before* they reach a shell or a SQL engine.

``os.system(f"cat {file}")`` and ``cur.execute(f"select {col} from t")`` are injection bugs: the
values are in the text before the destination can quote them.  :func:`find_unsafe_calls` reads
Python source (it never runs it) and reports each call to a shell or SQL sink whose command is
built by formatting — an f-string, ``%``, ``.format()`` or ``+`` with a non-constant part —
directly or through a name assigned such a string earlier in the same scope.  Each finding
says which i-string renderer fixes it.

    python -m ipy_istring.check FILE.py NOTEBOOK.ipynb DIR ...   # exit status 1 if anything found

With the extension loaded, every cell is checked as IPython runs it (``UnsafeFormatWarning``);
``c.IStringExtension.check_cells = False`` turns that off.  Nothing here imports IPython.
"""

from __future__ import annotations

import ast
import json
import sys
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .rewrite import rewrite

__all__ = ["CellChecker", "Finding", "UnsafeFormatWarning", "find_unsafe_calls", "main"]


class UnsafeFormatWarning(UserWarning):
    """A formatted string flows into a shell or SQL call."""


# The last part of the called name → the destination, and the i-string that fixes it.
_SHELL_SINKS = {"system", "popen", "getoutput", "getstatusoutput"}
_SUBPROCESS_SINKS = {"run", "call", "check_call", "check_output", "Popen"}
_SQL_SINKS = {"execute", "executemany", "executescript", "read_sql", "read_sql_query", "sql"}

_FIX = {
    "shell": "sh(i'...') for a shell, or argv(i'...') with shell=False",
    "sql": "*sql(i'...'), which passes the values as parameters",
}


@dataclass(frozen=True)
class Finding:
    """One formatted string reaching a sink: where, which call, how it was built, the fix."""

    line: int
    column: int
    call: str
    destination: str  # "shell" or "sql"
    how: str  # "an f-string", "%-formatting", ...

    def message(self) -> str:
        """A sentence for a warning or a report."""
        return (
            f"{self.call}() gets a string built by {self.how}: its values reach the "
            f"{self.destination} unquoted (injection). Use {_FIX[self.destination]}."
        )


def _call_name(func: ast.expr) -> str:
    """``os.system`` for ``os.system(...)``, ``cur.execute`` for ``cur.execute(...)``."""
    if isinstance(func, ast.Attribute):
        base = _call_name(func.value)
        return f"{base}.{func.attr}" if base else func.attr
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Call):  # db.cursor().execute(...)
        return _call_name(func.func)
    return ""


def _destination(call: ast.Call, name: str) -> str | None:
    last = name.rsplit(".", 1)[-1]
    if last in _SHELL_SINKS and name.startswith(("os.", "subprocess.", "commands.")):
        return "shell"
    if last in _SHELL_SINKS and name == last:
        return "shell"  # from os import system
    if last in _SUBPROCESS_SINKS:
        shell = any(
            k.arg == "shell" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in call.keywords
        )
        return "shell" if shell else None
    if last in _SQL_SINKS and "." in name:
        return "sql"
    return None


def _formatting(node: ast.expr) -> str | None:
    """How ``node`` formats values into text, or None if it is not formatted text."""
    if isinstance(node, ast.JoinedStr):
        return (
            "an f-string" if any(isinstance(v, ast.FormattedValue) for v in node.values) else None
        )
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mod) and _is_text(node.left):
            return "%-formatting"
        both_constant = isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Constant)
        text = _is_text(node.left) or _is_text(node.right)
        if isinstance(node.op, ast.Add) and text and not both_constant:
            return "concatenation"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
        and _is_text(node.func.value)
    ):
        return "str.format()"
    return None


def _is_text(node: ast.expr) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or (
        _formatting(node) is not None
    )


# Words that any sink call contains; cells without one are not walked at all.  (Plain
# substring tests: a regex alternation here would cost more than the walk it saves.)
_SINK_WORDS = ("system", "popen", "getoutput", "execute", "sql", "shell")


class CellChecker(ast.NodeTransformer):
    """The check in IPython: warns about each finding in a cell, changes nothing.

    It hooks in twice: as an input transformer (``input_transformers_post``) it only notes
    whether the cell's text names a sink at all, so that as an AST transformer it walks the
    tree of those cells only (walking every cell would cost a quarter of compiling it).  A
    check that fails never stops the user's cell: it keeps quiet instead.
    """

    def __init__(self) -> None:
        super().__init__()
        self.cell_names_a_sink = True

    def __call__(self, lines: list[str]) -> list[str]:
        text = "".join(lines)
        self.cell_names_a_sink = any(word in text for word in _SINK_WORDS)
        return lines

    def visit(self, node: ast.AST) -> ast.AST:
        if not self.cell_names_a_sink:
            return node
        try:
            findings = find_unsafe_calls(node)
        except Exception:
            return node
        for finding in findings:
            warnings.warn_explicit(finding.message(), UnsafeFormatWarning, "<cell>", finding.line)
        return node


class _Scope(ast.NodeVisitor):
    """Walks one scope (module or function) in order, remembering names bound to
    formatted strings, and reports sinks fed by them."""

    def __init__(self) -> None:
        self.formatted: dict[str, str] = {}
        self.findings: list[Finding] = []

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._nested(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._nested(node)

    def _nested(self, node: ast.AST) -> None:
        inner = _Scope()
        for child in ast.iter_child_nodes(node):
            inner.visit(child)
        self.findings.extend(inner.findings)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        how = _formatting(node.value)
        for target in node.targets:
            if isinstance(target, ast.Name):
                if how:
                    self.formatted[target.id] = how
                else:
                    self.formatted.pop(target.id, None)

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        name = _call_name(node.func)
        destination = _destination(node, name) if name else None
        if destination is None or not node.args:
            return
        command = node.args[0]
        how = _formatting(command)
        if how is None and isinstance(command, ast.Name):
            how = self.formatted.get(command.id)
        if how is not None:
            self.findings.append(
                Finding(command.lineno, command.col_offset + 1, name, destination, how)
            )


def find_unsafe_calls(source: str | ast.AST) -> list[Finding]:
    """The formatted strings that reach a shell or SQL call in ``source`` (code, which may
    hold i-literals, or an already parsed tree).  Raises SyntaxError for code that does not
    parse."""
    if isinstance(source, str):
        source = ast.parse(rewrite(source))  # rewritten first: i-literals do not parse
    tree = source
    scope = _Scope()
    scope.visit(tree)
    return sorted(scope.findings, key=lambda f: (f.line, f.column))


def _notebook_cells(path: Path) -> Iterator[tuple[str, str]]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for number, cell in enumerate(notebook.get("cells", []), 1):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if not source.lstrip().startswith("%%"):  # a cell magic's body is not Python
            yield f"{path}[cell {number}]", source


def _sources(path: Path) -> Iterator[tuple[str, str]]:
    if path.is_dir():
        for child in sorted(path.rglob("*")):
            if child.suffix in (".py", ".ipynb") and ".ipynb_checkpoints" not in child.parts:
                yield from _sources(child)
    elif path.suffix == ".ipynb":
        yield from _notebook_cells(path)
    else:
        yield str(path), path.read_text(encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Check files and notebooks; print one line per finding; 1 if any, 2 on bad input."""
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    if not paths:
        print("usage: python -m ipy_istring.check FILE.py|NOTEBOOK.ipynb ...", file=sys.stderr)
        return 2
    found = 0
    for path in paths:
        for where, source in _sources(path):
            # IPython syntax (%magic, !cmd) is blanked out line by line; i-literals rewritten.
            lines = [
                "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
            ]
            try:
                findings = find_unsafe_calls("\n".join(lines))
            except SyntaxError as error:
                print(f"{where}:{error.lineno}: cannot check: {error.msg}", file=sys.stderr)
                continue
            for finding in findings:
                found += 1
                print(f"{where}:{finding.line}:{finding.column}: {finding.message()}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
