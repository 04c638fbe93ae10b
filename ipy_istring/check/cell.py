"""The check in IPython: each cell's tree, as IPython parses it, read for unsafe formatting.

:class:`CellChecker` wraps the shell's ``compile.ast_parse``: it sees the tree IPython built
anyway (after IPython's transforms and the i-string rewrite), so it costs no second parse, and
it is not an AST transformer (registering one makes IPython run ``ast.fix_missing_locations``
over every cell).  A cell's statements that call no sink are only put aside (names carry over
between cells): they are read when a statement that calls a sink uses what they bind.  Most
cells so cost a text search.  And most sink calls get a constant query, a parameter or an
i-string render: those are ruled out from the call alone (found by its place in the tree), and
the data flow runs only for a cell where a formatted string may reach a sink.  A cell's
imports and sink calls are remembered by its text (a cell run again is searched once), and a
finding's fix line by the line (rendered once).  A check that fails never stops the user's
cell: it keeps quiet instead.  Nothing here imports IPython.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Container
from typing import Any

from ..template import _speedups as _compiled
from . import _ast as ast  # (ast's names, read faster: see _ast.py)
from .notebook import is_parameters_cell
from .sinks import (
    IMPORT_STATEMENTS,
    WRITING_METHODS,
    CallFinder,
    imported_by,
    imported_names,
    sinks,
)

# The data flow (.flow) is loaded when a cell first calls a sink: loading the extension, and
# the cells before, need only the search for sink calls.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from .flow import Analysis, Finding

__all__ = ["CellChecker", "UnsafeFormatWarning"]


class UnsafeFormatWarning(UserWarning):
    """A formatted string flows into a shell or SQL call."""


class CellChecker:
    """Warns about each finding in the cells a shell parses; changes nothing."""

    def __init__(
        self,
        known_names: Container[str] = (),
        written: Callable[[str], str | None] = lambda source: None,
    ) -> None:
        self._known_names = known_names
        #: The cell as its user wrote it, for a cell the i-string rewrite changed (the
        #: source the shell parses): a finding's columns and fix are of the text as written.
        self.written = written
        self._analysis: Analysis | None = None
        # The cells that called no sink before the analysis was first needed, in order (their
        # statements and text).
        self._put_aside: list[tuple[list[ast.stmt], str]] = []
        self._parse: Callable[..., ast.AST] | None = None  # the parse this one wraps
        self._own_parse = False  # whether that was set on the compiler itself
        self._checking = False
        self._imports: dict[str, str] = {}
        self._finder: CallFinder | None = None
        self._finder_version = -1  # the sink table's version the finder was made from
        # Per cell text seen lately (a cell run again, or IPython preparing it again): its
        # imports, and the sink calls the finder of the time found in it.
        self._seen: dict[str, tuple[tuple[dict[str, str], bool], CallFinder, list[int]]] = {}
        #: Whether the shell renders its ``!`` lines by ``sh`` (the extension's
        #: ``safe_shell_escapes``): their expansions are then no findings.
        self.escapes_rendered = False
        # The cells as written, by the names IPython gave them (see named()), and the code the
        # last cell's magics will parse: (its text, the cell's name, lines before it there).
        self._raw: dict[str, str] = {}
        self._expected: list[tuple[str, str, int]] = []
        # ... and the bodies of the last cell's magics that IPython runs unparsed (%%prun):
        # checked here, with that cell.
        self._unparsed: list[tuple[str, str, int]] = []
        #: IPython's ``transform_cell`` (the extension gives it): a %%prun body is checked as
        #: the Python IPython makes of it.
        self.transform: Callable[[str], str] | None = None
        self._runs: dict[int, int] = {}  # (how often each of those was parsed, by id)
        # A cell whose statements run line magics is checked in steps (_check_in_steps):
        # whether the cell being parsed is one, and the module's names at each such
        # statement, by (cell name, its first and last line).
        self._steps = False
        self._states: dict[tuple[str, int, int], tuple[Any, set[str]]] = {}
        # The cells the data flow read, numbered (a script one writes and a later one runs
        # is a finding of the first, warned there).
        self._numbers = _CellNumbers()

    @property
    def analysis(self) -> Analysis:
        """The data flow over the cells checked so far (made when a cell first calls a sink,
        and given the cells put aside before it)."""
        if self._analysis is None:
            from .flow import Analysis

            self._analysis = Analysis(self._known_names)
            # (the cell that runs a script another wrote is the one IPython is running)
            self._analysis.cell_name = lambda number: "a later cell"
            for body, source in self._put_aside:
                self._analysis.put_aside(body, source=source)
            self._put_aside.clear()
        return self._analysis

    def install(self, compiler: Any) -> None:
        """Start reading the trees ``compiler.ast_parse`` gives (IPython's ``shell.compile``)."""
        self._checking = True
        if self._parse is not None:
            return  # (still in the chain: see uninstall)
        self._own_parse = "ast_parse" in compiler.__dict__
        self._parse = compiler.ast_parse
        compiler.ast_parse = self.ast_parse

    def uninstall(self, compiler: Any) -> None:
        """Stop: give ``compiler`` back the ``ast_parse`` it had.  When another hook has wrapped
        this one since (it calls this one's), this one stays in the chain, checking nothing."""
        self._checking = False
        if self._parse is not None and compiler.__dict__.get("ast_parse") == self.ast_parse:
            if self._own_parse:
                compiler.ast_parse = self._parse
            else:
                del compiler.ast_parse
            self._parse = None

    def ast_parse(self, source: str, filename: str = "<unknown>", symbol: str = "exec") -> Any:
        """IPython's parse, then the check of the tree it gave."""
        assert self._parse is not None
        tree = self._parse(source, filename, symbol)
        if self._checking and isinstance(tree, ast.Module):
            state, self._steps = None, False
            try:
                filename, offset = self._place(tree, source, filename)
                if self._states and not self._steps:
                    state = self._state_at(filename, offset)
            except Exception:  # (a bug of ours: the place IPython gave)
                offset, self._steps = 0, False
            if self._steps:
                self._check_in_steps(tree, source, filename)
            elif state is not None:
                names, later = state
                kept = self._bound(tree) - later
                with self.analysis.as_of(names, kept):
                    self.check(tree, source, filename, offset)
            else:
                self.check(tree, source, filename, offset)
            self._check_unparsed()
        return tree

    @staticmethod
    def _bound(tree: ast.Module) -> set[str]:
        """The names the module-level statements of ``tree`` bind."""
        from .flow import bound_names

        return bound_names(tree.body)

    def _state_at(
        self, filename: str, offset: int
    ) -> tuple[Any, set[str]] | None:
        """The module's names where the cell ``filename`` runs the magic whose code starts
        after ``offset`` of its lines (see :meth:`_check_in_steps`), and the names later
        statements of the cell bind."""
        for (name, first, last), state in self._states.items():
            if name == filename and first <= offset + 1 <= last:
                return state
        return None

    def _check_in_steps(self, tree: ast.Module, source: str, filename: str) -> None:
        """Check a cell whose statements run magics (``%time f(x)``) in steps: the
        statements before each such statement, then it, keeping the module's names as they
        stand there, for the magic's code, which IPython parses (and this checks) only when
        it runs: with the names of the whole cell, ``%time run(x)`` then ``x = "b"`` would
        see a constant, and ``x = "b"``, ``%time run(x)``, ``x = input()`` an outside value."""
        self._steps, self._states = False, {}
        body, start = tree.body, 0
        for index, statement in enumerate(body):
            if not any(
                (call := _magic_call(node)) is not None
                and call[0] == "run_line_magic"
                and call[1] in _LINE_MAGICS
                for node in ast.walk(statement)
            ):
                continue
            if body[start:index]:
                self.check(ast.Module(body[start:index], []), source, filename)
            span = (filename, statement.lineno, statement.end_lineno or statement.lineno)
            later = self._bound(ast.Module(body[index + 1 :], []))
            self._states[span] = (self.analysis.names_now(), later)
            start = index
        if start == 0:
            self.check(tree, source, filename)  # (no line magic's statement: the usual)
        elif body[start:]:
            self.check(ast.Module(body[start:], []), source, filename)

    def _check_unparsed(self) -> None:
        """Check the bodies of the cell's magics that IPython runs without parsing them as
        it parses a cell (``%%prun``, ``%%debug``), as the Python it makes of them."""
        bodies, self._unparsed = self._unparsed, []
        for body, name, offset in bodies if self.transform is not None else ():
            try:
                source = self.transform(body)  # type: ignore[misc]
                tree = self._parse(source, name, "exec")  # type: ignore[misc]
            except Exception:  # (a body that is not Python: IPython says so when it runs)
                continue
            if isinstance(tree, ast.Module):
                self.check(tree, source, name, offset)

    def named(self, name: str, raw: str) -> None:
        """IPython named the cell written ``raw`` ``name`` (its ``compile.cache`` sees both):
        the body of a cell magic in it is then pointed at in it, at its line there."""
        if len(self._raw) >= _SEEN_KEPT:
            self._raw.pop(next(iter(self._raw)))  # the oldest
        self._raw[name] = raw

    def _place(self, tree: ast.Module, source: str, filename: str) -> tuple[str, int]:
        """Where the code IPython parses stands: a cell (by its name), or the Python a magic
        of the last cell runs (``%%time``'s body, ``%timeit``'s statement: IPython parses it
        as ``<unknown>``, and ``%%capture`` runs it as a cell of its own), in that cell,
        after how many of its lines."""
        raw = self._raw.get(filename)
        place = self._magics_code(source, filename, raw) if self._expected else None
        if place is None and filename == "<unknown>":
            return filename, 0
        if place is not None:  # (its own magics' code is in the same cell, further down)
            name, offset = place
            found = _magic_code(tree, raw if raw is not None else source, name)
            self._expected += [(text, name, offset + lines) for text, _, lines, _ in found]
            return place
        found = (
            _magic_code(tree, raw if raw is not None else source, filename)
            if "_magic(" in source  # (IPython's call of a magic: most cells have none)
            else []
        )
        self._expected = [(text, name, lines) for text, name, lines, no in found if not no]
        self._unparsed = [(text, name, lines) for text, name, lines, no in found if no]
        self._runs.clear()
        self._states = {}
        self._steps = bool(found)  # (magics whose code runs at its place: checked in steps)
        return filename, 0

    def _magics_code(self, source: str, filename: str, raw: str | None) -> tuple[str, int] | None:
        """The cell and the lines before it there, if ``source`` (parsed as ``filename``,
        the cell written ``raw``) is code a magic of the last cell runs."""
        if raw is not None:  # a cell of its own: %%capture's (or %%istring's) body, once
            written = self.written(raw) or raw
            for index, (expected, name, offset) in enumerate(self._expected):
                if expected in (raw, written):
                    del self._expected[index]  # (a later cell written alike is itself)
                    return name, offset
            return None
        if filename != "<unknown>":
            return None
        text = (self.written(source) or source).strip()
        alike = [e for e in self._expected if text == e[0].strip()] or [
            e for e in self._expected if text and e[0].endswith(text)  # (`%timeit -n1 stmt`)
        ]
        if not alike:  # (a body IPython transformed)
            alike = [e for e in self._expected if "\n" in e[0]] or self._expected
        # Of code written alike, the one run the fewest times yet: the same `%time f()` on
        # two lines is run once from each (and a loop's, as often as it goes round).
        index = min(range(len(alike)), key=lambda i: self._runs.get(id(alike[i]), 0))
        self._runs[id(alike[index])] = self._runs.get(id(alike[index]), 0) + 1
        return alike[index][1:]

    def check(
        self, tree: ast.Module, source: str, filename: str = "<cell>", line_offset: int = 0
    ) -> list[Finding]:
        """Warn about the findings in one cell (``line_offset``: lines before ``source`` in
        the cell ``filename``, for a cell magic's body); returns them (but those of a script
        an earlier cell wrote, which this one runs: warned at that cell's line)."""
        try:
            seen = self._seen.get(source)
            imports, from_tree = _imports_in(tree, source) if seen is None else seen[0]
            if imports and imports.items() - self._imports.items():
                self._imports.update(imports)
                self._finder = None
            if self._finder is None or self._finder_version != sinks.version:
                # (the same until an import or a new sink changes it; it finds the writes to
                # a file too, which a later cell may run as a script)
                self._finder = sinks.call_finder(
                    "", self._imports, read_imports=False, methods=WRITING_METHODS
                )
                self._finder_version = sinks.version
            if seen is not None and seen[1] is self._finder:
                calls = seen[2]
            else:
                calls = self._finder.calls_in(source)
                if "file" in source:
                    calls = _with_prints_to_files(source, calls)
                if len(self._seen) >= _SEEN_KEPT:
                    self._seen.pop(next(iter(self._seen)))  # the oldest
                self._seen[source] = ((imports, from_tree), self._finder, calls)
            analysis = self._analysis
            if not calls and analysis is not None:
                # a helper of an earlier cell's that is a sink (`def run(cmd): ...`; a cell
                # that defines one calls a sink, so there is none before the analysis)
                calls = analysis.helper_calls(source)
            if not calls:
                if analysis is None:
                    self._put_aside.append((tree.body, source))
                else:
                    # (the imports read from the tree are not read again; the text, for a
                    # validation among the statements: `ensure(t)`)
                    analysis.put_aside(tree.body, imports if from_tree else None, source)
                findings = []
            else:
                number = self._numbers.number(filename, line_offset)
                findings = self.analysis.check(
                    tree, source, number, calls=calls, lazy=True, imports=self._imports,
                    own_imports=imports if from_tree else None,
                )  # fmt: skip
                if earlier := [f for f in findings if f.cell != number]:
                    # (a script an earlier cell wrote: warned there; the rest is of this text)
                    self._warn_earlier(earlier, filename)
                    findings = [f for f in findings if f.cell == number]
            if is_parameters_cell(source):
                # papermill's parameters, which a run replaces: what they bind is an outside value
                self.analysis.from_outside(tree)
            written = self.written(source) if findings else None
            if written is not None:
                from .flow import as_written

                findings, source = as_written(findings, source, written), written
            if self.escapes_rendered and findings:
                from .flow import IPYTHON_EXPANSION

                findings = [f for f in findings if f.how != IPYTHON_EXPANSION]
        except Exception:  # a bug of ours must not cost the user their cell
            return []
        if not findings:
            return findings
        from .fix import Fix, fixed_lines_cached  # (imports the renderers: only for a finding)

        try:
            fixes = fixed_lines_cached(source, findings, self._imports.values())
        except Exception:  # (nor a bug of the fix's: the warning goes without it)
            fixes = [Fix(None)] * len(findings)
        if line_offset:
            from dataclasses import replace

            findings = [
                replace(f, line=f.line + line_offset, end_line=f.end_line + line_offset)
                for f in findings
            ]
        for finding, fix in zip(findings, fixes, strict=True):
            message = finding.message()
            if fix.line is not None:
                message += f"\nSafe spelling, ready to paste:\n    {fix.line.strip()}"
            elif fix.renderer:  # the renderer refuses the line: the hint above is not enough
                message += f"\nBut {fix.reason}"
            warnings.warn_explicit(message, UnsafeFormatWarning, filename, finding.line)
        return findings

    def _warn_earlier(self, findings: list[Finding], filename: str) -> None:
        """Warn about ``findings``, of earlier cells than ``filename`` (a script one wrote,
        which this cell runs), at their cell and line."""
        for finding in findings:
            name, offset = self._numbers.place(finding.cell) or (filename, 0)  # type: ignore[arg-type]
            warnings.warn_explicit(
                finding.message(), UnsafeFormatWarning, name, finding.line + offset
            )


_SEEN_KEPT = 64  # cell texts remembered


def _with_prints_to_files(source: str, calls: list[int]) -> list[int]:
    """``calls`` and the ``print(`` calls of a cell that passes a ``file=`` keyword
    (``print(f"cp {src} {dst}", file=f)``: a write to a file a later cell may run as a
    script).  Only such a cell: finding every ``print(`` would send most cells to the data
    flow."""
    if not _FILE_KEYWORD.search(source):
        return calls
    return sorted({*calls, *(m.start() for m in _PRINT_CALL.finditer(source))})


_FILE_KEYWORD = re.compile(r"\bfile\s*=(?!=)")
_PRINT_CALL = re.compile(r"(?<![\w.])print\s*\(")


class _CellNumbers:
    """Numbers for the cells the data flow reads (those that call a sink or write to a
    file), in the order first read, by their names; and each number's name and the lines of
    its cell before its code (a cell magic's body)."""

    KEPT = 4096  # cells remembered

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}
        self._places: dict[int, tuple[str, int]] = {}
        self._given = 0

    def number(self, name: str, line_offset: int = 0) -> int:
        """The number of the cell ``name`` (a new one for a cell not read yet)."""
        number = self._numbers.get(name)
        if number is None:
            if len(self._numbers) >= self.KEPT:
                del self._places[self._numbers.pop(next(iter(self._numbers)))]  # the oldest
            self._given += 1
            number = self._numbers[name] = self._given
            self._places[number] = (name, line_offset)
        return number

    def place(self, number: int) -> tuple[str, int] | None:
        """The cell's name and the lines before its code, if it is remembered."""
        return self._places.get(number)


# The cell magics that run their body as Python (as the notebook reader knows them), and the
# line magics that run their argument.
_LINE_MAGICS = frozenset({"time", "timeit", "prun"})
# The cell magics that run their body without parsing it as a cell (profile.runctx, pdb).
_UNPARSED_MAGICS = frozenset({"prun", "debug"})


def _magic_code(tree: ast.Module, raw: str, name: str) -> list[tuple[str, str, int, bool]]:
    """The Python the magics of a cell (``tree``, of the cell written ``raw`` and named
    ``name``) will run: each piece's text (as written in the cell), the cell's name, the
    lines of the cell before the piece, and whether IPython runs it without parsing it as
    it parses a cell (``%%prun``, ``%%debug``)."""
    from .notebook import PYTHON_CELL_MAGICS

    found: list[tuple[str, str, int, bool]] = []
    for node in ast.walk(tree):
        call = _magic_call(node)
        if call is None:
            continue
        kind, magic, line, body = call
        if kind == "run_cell_magic" and magic in PYTHON_CELL_MAGICS and body is not None:
            lines = raw.splitlines()
            head = next((i for i, text in enumerate(lines) if text.lstrip().startswith("%%")), 0)
            blank = len(body) - len(body.lstrip(" \t\r\n"))
            skipped = body[:blank].count("\n") if body.strip() else 0  # (IPython drops them)
            found.append((body, name, head + 1 + skipped, magic in _UNPARSED_MAGICS))
            if magic == "timeit":  # (its setup statement, on the magic's line)
                found.append((line, name, head, False))
        elif kind == "run_line_magic" and magic in _LINE_MAGICS:
            found.append((line, name, getattr(node, "lineno", 1) - 1, False))
    return sorted(found, key=lambda piece: piece[2])  # (in the order of the cell's lines)


def _magic_call(node: ast.AST) -> tuple[str, str, str, str | None] | None:
    """``get_ipython().run_cell_magic('time', line, body)`` (or ``run_line_magic``) as
    (method, magic, line, body), or None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("run_cell_magic", "run_line_magic")
        and isinstance(node.func.value, ast.Call)
        and isinstance(node.func.value.func, ast.Name)
        and node.func.value.func.id == "get_ipython"
        and 2 <= len(node.args) <= 3
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args)
    ):
        return None
    values = [a.value for a in node.args]  # type: ignore[attr-defined]
    return node.func.attr, values[0], values[1], values[2] if len(values) == 3 else None


def _imports_in(tree: ast.Module, source: str) -> tuple[dict[str, str], bool]:
    """Local name -> full name for the imports of a cell: from its tree when each ``import``
    in its text is a top-level statement (the usual cell), else from the text; and whether
    from the tree (then they are all its import statements bind)."""
    count = source.count("import")
    if not count:
        return {}, True
    found = _import_bindings(tree.body, count)
    if found is None:  # an import in a function, or the word elsewhere
        return imported_names(source), False
    return found, True


def _python_import_bindings(body: list[ast.stmt], count: int) -> dict[str, str] | None:
    """What the import statements of ``body`` bind (local name -> full name), if it has
    ``count`` of them; else None."""
    top = [s for s in body if type(s) in IMPORT_STATEMENTS]
    if len(top) != count:
        return None
    found: dict[str, str] = {}
    for statement in top:
        found.update(imported_by(statement))  # type: ignore[arg-type]
    return found


# In C when the accelerator is in use (the Python version is the reference).
_import_bindings = _python_import_bindings if _compiled is None else _compiled.import_bindings
