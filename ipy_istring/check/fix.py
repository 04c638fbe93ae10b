"""The safe fix: a finding rewritten into the i-string form with the right renderer.

``cur.execute(f"... {x}")`` → ``cur.execute(*sql(i"... {x}"))``, ``os.system(f"cp {a} {b}")`` →
``os.system(sh(i"cp {a} {b}"))``, and IPython's ``!cp {a} {b}`` → ``!cp {shlex.quote(str(a))}
{shlex.quote(str(b))}`` (each value one shell word, still run by IPython so its output shows in
the notebook; only where ``sh`` would accept the line with its expansions as fields,
whatever the values: not ``!sh -c {x}``, ``!echo {x} | sh`` or ``!ssh {host} ls``).  Quotes
written around a field (``'{name}'``) go: the renderer quotes the value itself.  A fix is
offered only when it means the same and renders: the f-string is passed directly as the
call's only argument (for ``sql``), every field stands where a value can (a SQL parameter
cannot be a table or column name), no field has a spec or conversion the renderer refuses,
the renderer accepts the template (built from the literal with stand-in values, nothing of
the user's code is run), ``sh``'s command splits into the words the f-string's did with those
values (not ``{x!r}``, ``{x=}`` or ``{x:>10}``, whose quotes or spaces the shell used to
remove), and the whole fixed source rewrites and compiles.
Otherwise the finding says why there is no fix.
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from .._lines import python_lines
from .._shell_grammar import COMMAND, FIELD, lex
from ..fields import RenderError
from ..rewrite import rewrite
from ..shell import sh
from ..sql import sql
from ..template import Interpolation, InterpolationTemplate
from . import _ast as ast  # (ast's names, read faster: see _ast.py)
from .flow import IPYTHON_EXPANSION, Finding
from .notebook import IMPORTING_CELL_MAGICS, Cell, _dedented, cell_magic, raw_cells, to_python
from .roles import SQL_VALUE_BEFORE
from .scan import FileResult, _reason
from .sinks import imported_by

__all__ = ["Fix", "apply_fixes", "fixed_line", "fixed_line_cached", "fixed_lines_cached"]


@dataclass(frozen=True)
class Fix:
    """The fixed line for a finding, or why there is none."""

    line: str | None
    reason: str = ""
    renderer: str = ""  # the fix's renderer, or the renderer that refused the line


_IN_LIST_BEFORE = re.compile(r"\bin\s*\(\s*$", re.IGNORECASE)
# An opening parenthesis that is not a call's (after another one, a comma, an operator...).
_GROUPED = re.compile(r"(?:^|[^\w\s)\]])\s*\(\s*$")
_PREFIX = re.compile(r"^([rRbBuU]?)[fF]([rR]?)(?=['\"])")
_IPREFIX = re.compile(r"^([rRbBuU]?)i([rR]?)(?=['\"])")


def _literal_fields(literal: str) -> ast.JoinedStr | None:
    try:
        node = ast.parse(literal.strip(), mode="eval").body
    except SyntaxError:
        return None
    return node if isinstance(node, ast.JoinedStr) else None


def _dequote(literal: str, quotes: str) -> str:
    """Remove quotes written right around a whole field: ``'{x}'`` → ``{x}`` (in the
    literal's text, not its own quotes: ``f'{x}'`` stays)."""
    found = _LITERAL.match(literal)
    if found is None:
        return literal
    prefix, delimiter, text = found.groups()
    for quote in quotes:
        text = re.sub(re.escape(quote) + r"(\{[^{}'\"]*\})" + re.escape(quote), r"\1", text)
    return prefix + delimiter + text + delimiter


# A string literal: its prefix, its quotes and its text.
_LITERAL = re.compile(r"([a-zA-Z]*)('''|\"\"\"|'|\")(.*)\2\Z", re.DOTALL)


def _template(node: ast.JoinedStr) -> InterpolationTemplate:
    """The template the i-literal would build, with stand-in values."""
    parts: list[str | Interpolation] = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            parts.append(str(part.value))
        elif isinstance(part, ast.FormattedValue):
            conversion = chr(part.conversion) if part.conversion > 0 else None
            spec = part.format_spec
            if spec is not None and not (
                isinstance(spec, ast.JoinedStr)
                and all(isinstance(v, ast.Constant) for v in spec.values)
            ):
                raise RenderError("a field has a computed format spec")
            text = "".join(str(v.value) for v in spec.values) if spec else ""  # type: ignore[attr-defined]
            value = _stand_in(text)
            parts.append(Interpolation(value, ast.unparse(part.value), conversion, text))  # type: ignore[arg-type]
    return InterpolationTemplate(*parts)


# The presentation types of a format spec that take a number (`{n:d}`, `{x:.2f}`, `{n:x}`).
_NUMBER_TYPES = frozenset("bcdoxXneEfFgG%")


def _stand_in(spec: str) -> object:
    """A plain value of the kind a field's format spec takes: a number, or a word."""
    return 1 if spec[-1:] in _NUMBER_TYPES else "value"


def _shell_meaning_changes(fstring: ast.JoinedStr, rendered: str) -> str | None:
    """Why ``rendered`` (by ``sh``) would not mean what ``fstring`` means for plain values, or
    None: with the same stand-in values, both must split into the same words."""
    try:
        before, after = shlex.split(format(_template(fstring))), shlex.split(rendered)
    except ValueError:  # (an unclosed quote in the f-string's command)
        return "the f-string's command does not split into words: fix it by hand"
    if before == after:
        return None
    return (
        f"sh() would change what the command means: with plain values the f-string runs "
        f"{before} and sh(i'...') {after} (a conversion or format spec that adds quotes or "
        "spaces, which the shell used to remove): drop it, or fix the line by hand"
    )


def _check_sql_positions(node: ast.JoinedStr) -> str | None:
    """Why a field of the query ``node`` cannot become a parameter with the same meaning, or
    None: where SQL needs a name, and as the whole list of ``IN (...)``."""
    before = ""
    for index, part in enumerate(node.values):
        if isinstance(part, ast.Constant):
            before += str(part.value)
        else:
            field = ast.unparse(part.value)  # type: ignore[attr-defined]
            after = node.values[index + 1] if index + 1 < len(node.values) else None
            if (
                _IN_LIST_BEFORE.search(before)
                and isinstance(after, ast.Constant)
                and str(after.value).lstrip().startswith(")")
            ):
                return (
                    f"the field {{{field}}} is the whole list of IN (...): a list kept as text "
                    f"('1,2,3') would become one value. Pass the sequence itself as "
                    f"{{{field}:in}} and fix it by hand"
                )
            if not SQL_VALUE_BEFORE.search(before):
                return (
                    f"the field {{{field}}} stands where SQL needs a name or SQL text, not a "
                    f"value: a parameter cannot go there. Write {{{field}:i}} for an identifier "
                    "(checked and quoted) and fix it by hand"
                )
            before += "?"
    return None


# Why a script written to a file and then run gets no fix: sh(i"...") renders one command
# line, its values as words of it, while a script is lines of shell code (and a job
# script's `#SBATCH` lines, which only the scheduler reads, would get the shell's quotes).
_SCRIPT_NO_FIX = (
    "the text is a script a shell runs (lines of shell code, and a scheduler's #SBATCH-style "
    "lines that would keep the quotes): quote each value with shlex.quote(str(x)) where the "
    "script is built"
)


def _renderer_fix(line: str, finding: Finding, paramstyle: str) -> Fix:
    sink = finding.sink
    renderer = sink.fix if sink is not None else ""
    if finding.runs:
        return Fix(None, _SCRIPT_NO_FIX)
    if not renderer:
        return Fix(None, f"no automatic fix for {finding.call}()")
    if finding.how != "an f-string" or finding.via:
        if finding.refused:  # (validated values in a role the renderer refuses)
            return Fix(None, f"the renderer refuses it: {finding.refused}", renderer)
        return Fix(None, "the string is built elsewhere or by other means than one f-string: "
                   "write it as an i-string where it is built")  # fmt: skip
    if finding.end_line != finding.line:
        return Fix(None, "the f-string spans several lines")
    start, end = finding.column - 1, finding.end_column - 1
    literal = line[start:end]
    if not _PREFIX.match(literal) or _literal_fields(literal) is None:
        return Fix(None, "the argument is not a single f-string literal")
    if renderer == "sql" and not finding.lone_argument:
        return Fix(None, "the call passes more than the query: pass Query.sql and .params by hand")
    if renderer == "sql" and line[:start].rstrip().endswith("="):
        return Fix(None, "the query is a keyword argument, and *sql(...) passes the query and its "
                   "parameters by position: pass Query.sql and .params by hand")  # fmt: skip
    if renderer == "sql" and _GROUPED.search(line[:start]):
        return Fix(None, "the query is in parentheses of its own, where *sql(...) cannot stand: "
                   "remove them", renderer)  # fmt: skip
    istring = _PREFIX.sub(lambda m: m.group(1) + "i" + m.group(2), literal, count=1)
    istring = _dequote(istring, "'" if renderer == "sql" else "'\"")
    node = _literal_fields(_IPREFIX.sub(r"\1f\2", istring, count=1))
    if node is None:
        return Fix(None, "the f-string does not survive removing the quotes around its fields")
    try:
        template = _template(node)
        if renderer == "sql":
            sql(template)  # (first: its tokenizer knows a field inside a literal or a comment)
            problem = _check_sql_positions(node)
            if problem:
                return Fix(None, problem)
        else:
            original = _literal_fields(literal)
            assert original is not None
            fields = [f"{{{field.expression}}}" for field in template.interpolations]
            problem = _a_command_in_a_field(template.strings, fields) or (
                _shell_meaning_changes(original, sh(template))
            )
            if problem:
                return Fix(None, problem, renderer)
    except RenderError as error:
        return Fix(None, f"the renderer refuses it: {error}")
    style = "" if paramstyle == "qmark" else f', "{paramstyle}"'
    call = f"*sql({istring}{style})" if renderer == "sql" else f"sh({istring})"
    return Fix(line[:start] + call + line[end:], renderer=renderer)


_EXPANSION = re.compile(r"\{([^{}]+)\}|(?<!\$)\$([A-Za-z_][\w.]*)")


def _expansion_fix(line: str, finding: Finding) -> Fix:
    """``get_ipython().system('cp {a} {b}')`` → ``!cp {shlex.quote(str(a))} ...``."""
    start = finding.call_column - 1
    rest = line[start:].strip()
    try:
        call = ast.parse(rest, mode="eval").body
    except SyntaxError:
        return Fix(None, "the shell escape spans several lines")
    if not isinstance(call, ast.Call) or not call.args:
        return Fix(None, "not a shell escape")
    if call.end_col_offset != len(rest.encode()):  # (an ! line stands alone on its line)
        return Fix(None, "the line goes on after the call (a comment?): fix it by hand")
    arguments = [a for a in call.args if isinstance(a, ast.Constant)]
    command = arguments[-1].value if arguments else None
    if not isinstance(command, str):
        return Fix(None, "the command is not written in the cell")
    method = finding.call.rsplit(".", 1)[-1]
    if method == "run_line_magic":
        escape = f"%{arguments[0].value!s} "
    elif method == "system" and line[:start].strip():
        # (`y = !cmd` is getoutput: y would hold the output, which would show no more)
        return Fix(None, _NOT_ALONE)
    else:
        escape = "!!" if method == "getoutput" and not line[:start].strip() else "!"
    if "'" in command or '"' in command:
        return Fix(None, "the command quotes text itself; quote each value by hand")

    for match in _EXPANSION.finditer(command):
        if match.group(1) and re.search(r"[!:]", match.group(1).split(")")[-1]):
            why = "has a conversion or a format spec, which shlex.quote(str(...)) would drop"
            return Fix(None, f"{match.group(0)} {why}: quote that value by hand", "sh")

    def quoted(match: re.Match[str]) -> str:
        expression = match.group(1) or match.group(2)
        return "{shlex.quote(str(" + expression.strip() + "))}"

    fixed = _EXPANSION.sub(quoted, command)
    if fixed == command:
        return Fix(None, "nothing to quote")
    fields = [match.group(0) for match in _EXPANSION.finditer(command)]
    problem = _a_command_in_a_field(_EXPANSION.split(command)[::3], fields) or (
        _quoting_not_enough(command)
    )
    first = _EXPANSION.search(command)
    if (
        problem is not None
        and problem.startswith(_OPTION_PROBLEM)
        and first is not None
        and command[first.start() - 1 : first.start()] in (" ", "\t")
    ):
        # A program would read a value starting with '-' as an option: `--` before the first
        # expansion ends its options (`!cp -- {shlex.quote(str(a))} b`), if that is enough.
        ended = f"{command[: first.start()]}-- {command[first.start() :]}"
        if _quoting_not_enough(ended) is None:
            fixed, problem = _EXPANSION.sub(quoted, ended), None
    if problem is not None:
        return Fix(None, problem, renderer="sh")
    return Fix(line[:start] + escape + fixed, renderer="shlex")


_NOT_ALONE = (
    "the call does not stand alone on its line (its value is used, or it follows `if ...:`), "
    "where an ! line means another thing: fix it by hand"
)
_OPTION_PROBLEM = "quoting is not enough for a value that starts with '-'"


def _a_command_in_a_field(strings: Sequence[str], fields: Sequence[str]) -> str | None:
    """Why quoting would change what a field means where the shell's grammar puts a command's
    name (``!{cmd}``, ``os.system(f"{tool} {x}")``; ``strings``: the static text around the
    ``fields``, as written), or None: a value there usually holds a whole command line
    (``cmd = "ls -l"``), which quoted becomes the name of one program."""
    lexed = lex(FIELD.join(strings))
    for index, (role, _) in sorted(lexed.fields.items()):
        if role == COMMAND or index in lexed.command_names:
            return (
                f"the field {fields[index]} stands where the command's name goes: quoting would "
                "make a whole command line kept in it (cmd = 'ls -l') the name of one program; "
                "fix it by hand (split it with shlex.split and run the words without a shell)"
            )
    return None


def _quoting_not_enough(command: str) -> str | None:
    """Why quoting each expansion of the ``!`` line ``command`` as one word would not make it
    safe, as ``sh`` reads the line with those expansions as its fields (``!sh -c {x}``,
    ``!echo {x} | sh``; ``!ssh {host} ls``, where a value starting with ``-`` is an option
    that runs a command): ``None`` when it would."""
    pieces = _EXPANSION.split(command)  # text, then per expansion its {expr} and $name groups
    for stand_in in ("value", "-value"):
        parts: list[str | Interpolation] = [pieces[0]]
        for index in range(1, len(pieces), 3):
            expression = pieces[index] or pieces[index + 1]
            parts += [Interpolation(stand_in, expression.strip()), pieces[index + 2]]
        try:
            sh(InterpolationTemplate(*parts))
        except RenderError as error:
            if stand_in == "value":
                return f"quoting each value is not enough here: {error}"
            return f"{_OPTION_PROBLEM}: {error}"
    return None


def fixed_line(
    source: str,
    finding: Finding,
    paramstyle: str | None = None,
    lines: Sequence[str] | None = None,
) -> Fix:
    """The finding's line rewritten safely, or why not (the line must be in ``source``;
    ``lines``: its lines, if already split)."""
    if lines is None:
        lines = python_lines(source)
    if not 0 < finding.line <= len(lines):
        return Fix(None, "the line is not in the source")
    line = lines[finding.line - 1]
    try:
        if finding.how == IPYTHON_EXPANSION:
            return _expansion_fix(line, finding)
        return _renderer_fix(line, finding, paramstyle or _paramstyle(source))
    except (RecursionError, MemoryError):  # (ast.unparse recurses into each field)
        return Fix(None, "the line is nested too deeply to rewrite: fix it by hand")


def fixed_line_cached(source: str, finding: Finding, imports: Iterable[str] = ()) -> Fix:
    """:func:`fixed_line`, worked out once per distinct finding: a cell run again, or the
    same line in another cell, shows the fix without rendering it again (IPython's cell
    warning).  The fix depends only on the line, the paramstyle and the finding's place in
    the line, which are the key.  ``imports``: the modules imported before (by earlier
    cells), which may name the driver and so the paramstyle."""
    lines = python_lines(source)
    if not 0 < finding.line <= len(lines):
        return Fix(None, "the line is not in the source")
    sink = finding.sink
    key = (
        lines[finding.line - 1],
        _paramstyle(source, imports) if finding.how != IPYTHON_EXPANSION else "",
        finding.how, finding.via, finding.end_line - finding.line, finding.column,
        finding.end_column, finding.lone_argument, finding.call, finding.call_column,
        sink.fix if sink is not None else "",
    )  # fmt: skip
    fix = _FIXES.get(key)
    if fix is None:
        if len(_FIXES) >= _FIXES_KEPT:
            _FIXES.pop(next(iter(_FIXES)))  # the oldest
        fix = _FIXES[key] = fixed_line(source, finding, key[1] or None, lines)
    return fix


def fixed_lines_cached(
    source: str, findings: Sequence[Finding], imports: Iterable[str] = ()
) -> list[Fix]:
    """:func:`fixed_line_cached` of each finding, where the findings that share a line share
    its fix: the line with all their fixes made (pasting one finding's line alone would
    leave the others on it as they were)."""
    fixes = [fixed_line_cached(source, finding, imports) for finding in findings]
    if len({finding.line for finding in findings}) == len(findings):
        return fixes  # (the usual cell: a finding per line)
    fixable = [(finding, fix) for finding, fix in zip(findings, fixes, strict=True) if fix.line]
    for unit in _line_fixes(python_lines(source), fixable):
        for finding, fix in unit.made:
            fixes[findings.index(finding)] = replace(fix, line=unit.text)
        for finding in unit.overlapping:
            fixes[findings.index(finding)] = Fix(None, _OVERLAPPING)
    return fixes


@dataclass
class _LineFix:
    """A line's fixes, made together."""

    number: int  # the line's (1-based)
    text: str  # the line with the fixes made (without its end)
    made: list[tuple[Finding, Fix]]
    overlapping: list[Finding]  # those whose fix overlaps one made: not made


_ABOVE_IMPORTS = (
    "the line holds the docstring or a __future__ import, above which the fix's import cannot "
    "go: put the call on a line of its own"
)
_OVERLAPPING = "its fix overlaps the fix of another finding on the line: fix the line by hand"


def _line_fixes(
    lines: Sequence[str], fixes: Sequence[tuple[Finding, Fix]], onto: Sequence[str] = ()
) -> list[_LineFix]:
    """``fixes`` line by line (``lines``: the source's, without their ends): each line with
    the fixes of all its findings made.  ``onto``: the lines as written, where IPython's
    transform gave ``lines``: a line of the same length there (a ``%time`` line, whose
    statement keeps its columns) gets the same changes; another (a ``!`` line) the line the
    fixes make."""
    by_line: dict[int, list[tuple[Finding, Fix]]] = {}
    for finding, fix in fixes:
        by_line.setdefault(finding.line, []).append((finding, fix))
    units = []
    for number, group in by_line.items():
        line = lines[number - 1]
        written = onto[number - 1] if len(onto) == len(lines) else line
        text, made = _combined(line, [fix.line or "" for _, fix in group])
        if len(written) == len(line) and written != line:
            text = _combined(line, [fix.line or "" for _, fix in group], written)[0]
        elif written.endswith(line) and not written[: len(written) - len(line)].strip():
            # (what IPython took off the line's start, a form feed: put back)
            text = written[: len(written) - len(line)] + text
        units.append(_LineFix(
            number, text, [pair for pair, m in zip(group, made, strict=True) if m],
            [pair[0] for pair, m in zip(group, made, strict=True) if not m],
        ))  # fmt: skip
    return units


def _combined(line: str, fixed: Sequence[str], onto: str | None = None) -> tuple[str, list[bool]]:
    """``line`` with the change each of ``fixed`` makes to it (each is ``line`` with one span
    replaced), and which were made: a change that overlaps one made already is not.
    ``onto``: the same changes made to this line instead (of ``line``'s length)."""
    edits = []
    for index, other in enumerate(fixed):
        start = _common_start(line, other)
        end = _common_start(line[start:][::-1], other[start:][::-1])
        edits.append((start, len(line) - end, other[start : len(other) - end], index))
    made = [False] * len(fixed)
    bound, last = len(line), None
    line = line if onto is None else onto
    for start, stop, text, index in sorted(edits, reverse=True):
        if (start, stop, text) == last:
            made[index] = True  # (the same change twice)
        elif stop <= bound:
            line = line[:start] + text + line[stop:]
            bound, last, made[index] = start, (start, stop, text), True
    return line, made


def _common_start(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` start with alike."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


# The fixes worked out by fixed_line_cached (a bounded memo, oldest out first).
_FIXES: dict[tuple[object, ...], Fix] = {}
_FIXES_KEPT = 256


def _paramstyle(source: str, imports: Iterable[str] = ()) -> str:
    """The paramstyle of the database drivers ``source`` names, or that ``imports`` (full
    names of modules imported before it) holds: ``format`` for psycopg and the MySQL ones."""
    if any(_FORMAT_DRIVERS.match(name) for name in imports):
        return "format"
    # (Searched only where a driver's name may be: the search is slow on a long text.)
    named = "psycopg" in source or "ysql" in source or "ySQL" in source
    if named and _FORMAT_DRIVERS.search(source):
        return "format"
    return "qmark"


_FORMAT_DRIVERS = re.compile(r"\b(psycopg2?|pymysql|MySQLdb|mysql\.connector)\b")


_IMPORTS = {"sql": "from ipy_istring import sql", "sh": "from ipy_istring import sh",
            "shlex": "import shlex"}  # fmt: skip
# ... the name each binds, and to what: (local name, full name).
_BINDINGS = {name: imported_by(ast.parse(line).body[0])[0] for name, line in _IMPORTS.items()}  # type: ignore[arg-type]
# The nodes that bind a name, and the field that holds it (a Name only when stored or deleted).
_NAME_FIELDS: dict[type[ast.AST], str] = {
    ast.arg: "arg", ast.FunctionDef: "name", ast.AsyncFunctionDef: "name", ast.ClassDef: "name",
    ast.ExceptHandler: "name", ast.MatchAs: "name", ast.MatchStar: "name",
    ast.MatchMapping: "rest",
    **{getattr(ast, kind): "name" for kind in ("TypeVar", "ParamSpec", "TypeVarTuple")
       if hasattr(ast, kind)},  # (PEP 695, Python 3.12)
}  # fmt: skip


def _imported(body: Sequence[ast.stmt], name: str) -> bool:
    """Whether a top-level import of ``body`` binds the fix's ``name`` as its import does."""
    return any(
        _BINDINGS[name] in imported_by(statement)
        for statement in body
        if isinstance(statement, (ast.Import, ast.ImportFrom))
    )


@dataclass(frozen=True)
class _Binding:
    """Where a name is bound: its line, in which cell (None in a file), and the lines of the
    scope it is bound in (0, 0: the module's, which every line sees)."""

    cell: int | None
    line: int
    start: int = 0
    end: int = 0

    def hides(self, finding: Finding) -> bool:
        """Whether the name, where ``finding`` is, is this binding's."""
        return not self.start or (
            self.cell == finding.cell and self.start <= finding.line <= self.end
        )


# The nodes whose body is a scope of its own: what they bind there is not seen outside.
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _bound_otherwise(
    tree: ast.Module, names: Iterable[str], cell: int | None = None, offset: int = 0
) -> dict[str, list[_Binding]]:
    """Where ``tree`` binds each of the fixes' ``names`` to something else than their import
    does (``import sh``, ``sh = ...``, a parameter ``sh``): the fix's ``sh(...)`` there would
    call that.  ``offset``: lines before the tree's first in the cell."""
    wanted = set(names)
    found: dict[str, list[_Binding]] = {}
    declared_global = {
        name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names
    }
    stack: list[tuple[ast.AST, tuple[int, int]]] = [(tree, (0, 0))]
    while stack:
        node, scope = stack.pop()
        for name in _names_bound_by(node):
            if name in wanted:
                start, end = (0, 0) if name in declared_global else scope
                line = getattr(node, "lineno", 1) + offset
                found.setdefault(name, []).append(_Binding(cell, line, start, end))
        if isinstance(node, _SCOPES):
            scope = (node.lineno + offset, (node.end_lineno or node.lineno) + offset)
        stack.extend((child, scope) for child in ast.iter_child_nodes(node))
    return found


def _names_bound_by(node: ast.AST) -> list[str]:
    """The names ``node`` binds, but an import that binds a fix's name as its import does."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        binds = imported_by(node)
        return [
            local
            for alias in node.names
            if (local := alias.asname or alias.name.partition(".")[0]) not in _BINDINGS
            or _BINDINGS[local] not in binds
        ]
    if isinstance(node, ast.Name):
        return [node.id] if not isinstance(node.ctx, ast.Load) else []
    field = _NAME_FIELDS.get(type(node))
    name = getattr(node, field) if field is not None else None
    return [name] if isinstance(name, str) else []


def _shadowed(fix: Fix, finding: Finding, bound: dict[str, list[_Binding]]) -> Fix:
    """``fix``, or a refusal when the name it calls is bound to something else where
    ``finding`` is (``bound``: from :func:`_bindings_in`)."""
    if fix.line is None:
        return fix
    hiding = [b for b in bound.get(fix.renderer, ()) if b.hides(finding)]
    if not hiding:
        return fix
    place = f"line {hiding[0].line}"
    if hiding[0].cell is not None:
        place = f"cell {hiding[0].cell}, {place}"
    return Fix(None, (
        f"the fix would call {fix.renderer}, but here that name is bound to something else "
        f"({place}): import {_IMPORTS[fix.renderer].rpartition(' ')[2]} from "
        f"{'ipy_istring' if fix.renderer != 'shlex' else 'the standard library'} under "
        "another name and fix the line by hand"
    ), fix.renderer)  # fmt: skip


# PEP 263's coding cookie, as the tokenizer finds it.
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def _imports_needed(source: str, lines: list[str], renderers: set[str]) -> tuple[int, list[str]]:
    """The lines of the imports the fixes need, and where they go: after ``source``'s
    docstring and future imports (``lines``: its lines, with their endings)."""
    end = lines[0][len(lines[0].rstrip("\r\n")) :] if lines else ""  # (as the file's lines end)
    end = end or "\n"
    try:
        body = ast.parse(rewrite(source)).body
    except SyntaxError:
        body = []
    needed = [_IMPORTS[r] + end for r in sorted(renderers) if not _imported(body, r)]
    if not needed:
        return 0, []
    at = 0  # after a shebang, a coding cookie, a licence header...
    while at < len(lines) and lines[at].startswith("#"):
        at += 1
    # A coding cookie counts on line 1 or 2 only (line 1 then blank or a comment): below it.
    at = max([at, *(n + 1 for n, line in enumerate(lines[:2]) if _CODING.match(line))])
    for statement in body:
        docstring = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        future = isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
        if not (docstring or future):
            break
        at = statement.end_lineno or at
    return at, needed


def _bindings_in(sources: Iterable[tuple[int | None, int, str]]) -> dict[str, list[_Binding]]:
    """:func:`_bound_otherwise` over ``sources`` (each one's cell, lines before it in the cell,
    and its text: a file, or a notebook's cells as IPython runs them), for the names the fixes
    call.  A source that does not parse is left out."""
    bound: dict[str, list[_Binding]] = {}
    for cell, offset, source in sources:
        names = [name for name in _IMPORTS if name in source]
        if not names:
            continue
        try:
            tree = ast.parse(rewrite(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for name, bindings in _bound_otherwise(tree, names, cell, offset).items():
            bound.setdefault(name, []).extend(bindings)
    return bound


def _cells_as_run(cells: dict[int, str]) -> Iterator[tuple[int | None, int, str]]:
    """A notebook's code cells (by number) as IPython runs them, for :func:`_bindings_in`."""
    for number, source in cells.items():
        try:
            pythons = list(to_python(Cell(number, source)))
        except Exception:  # IPython's transformer failed on it (the check said so)
            continue
        yield from ((number, python.first_line - 1, python.source) for python in pythons)


def _fix_source(
    source: str, findings: Sequence[Finding], python: bool
) -> tuple[list[str], int, list[str], list[Finding]]:
    """``source`` with every fixable finding fixed: its lines (with their endings), where the
    imports the fixes need go, and their lines; the findings, each with its fix or reason."""
    original = python_lines(source, keepends=True)
    bare = python_lines(source)
    paramstyle = _paramstyle(source)
    fixes: list[tuple[Finding, Fix]] = []
    done = list(findings)  # each replaced by itself with its fix or its reason
    bound = _bindings_in([(None, 0, source)])
    for index, finding in enumerate(findings):
        fix = _shadowed(fixed_line(source, finding, paramstyle, bare), finding, bound)
        if fix.line is None:
            done[index] = replace(finding, no_fix=fix.reason)
        elif fix.renderer == "shlex" and python:
            done[index] = replace(finding, no_fix="a shell escape outside a notebook")
        else:
            fixes.append((finding, fix))
    position = {id(finding): index for index, finding in enumerate(findings)}
    units = _line_fixes(bare, fixes)
    for unit in units:
        for finding in unit.overlapping:
            done[position[id(finding)]] = replace(finding, no_fix=_OVERLAPPING)
    # The imports go below the docstring and the __future__ imports: a fix on their lines
    # (`"""Doc."""; os.system(f"...")`) would call its renderer before the import.
    at, needed = _imports_needed(source, original, {f.renderer for u in units for _, f in u.made})
    for unit in units if needed else []:
        if unit.number <= at:
            for finding, _ in unit.made:
                done[position[id(finding)]] = replace(finding, no_fix=_ABOVE_IMPORTS)
    units = [unit for unit in units if not needed or unit.number > at]
    if python:
        lines, units, refused = _compiling(original, units, _compile_error)
        for finding, reason in refused:
            done[position[id(finding)]] = replace(finding, no_fix=reason)
    else:
        lines = _with_fixes(original, units)
    for unit in units:
        for finding, _ in unit.made:
            done[position[id(finding)]] = replace(finding, fixed=unit.text)
    renderers = {fix.renderer for unit in units for _, fix in unit.made}
    at, needed = _imports_needed("".join(lines), lines, renderers)
    return lines, at, needed, done


def _compiling(
    original: list[str], units: list[_LineFix], error_of: Callable[[str], str | None]
) -> tuple[list[str], list[_LineFix], list[tuple[Finding, str]]]:
    """``original`` (lines with their endings) with the ``units`` whose fixed code still
    compiles (``error_of``: why a text does not, or None), those units, and each finding of
    the others with the reason.  All the lines at once, compiled once (a file with thousands
    of findings stays quick); only if that fails, one line after the other."""
    lines = _with_fixes(original, units)
    if not units or error_of("".join(lines)) is None:
        return lines, units, []
    lines, kept, refused = original, [], []
    for unit in units:
        candidate = _with_fixes(lines, [unit])
        error = error_of("".join(candidate))
        if error is None:
            lines = candidate
            kept.append(unit)
        else:
            refused += [(f, f"the fixed code does not compile: {error}") for f, _ in unit.made]
    return lines, kept, refused


def _with_fixes(lines: list[str], units: Sequence[_LineFix]) -> list[str]:
    """``lines`` (with their endings) with each fixed line in place."""
    fixed = lines.copy()
    for unit in units:
        line = lines[unit.number - 1]
        fixed[unit.number - 1] = unit.text + line[len(line.rstrip("\r\n")) :]
    return fixed


def _compile_error(text: str, flags: int = 0) -> str | None:
    """Why ``text`` (which may hold i-literals) does not compile, or None."""
    try:
        compile(rewrite(text), "<fix>", "exec", flags)
    except SyntaxError as error:
        return error.msg
    return None


def _cell_compile_error(text: str) -> str | None:
    """Why the cell ``text`` does not compile as IPython runs it (its ``!`` and ``%`` lines
    transformed, ``await`` allowed at its top level), or None."""
    try:
        pythons = list(to_python(Cell(0, text)))
    except Exception as error:  # (IPython's transformer failed on it)
        return f"IPython cannot read it ({error})"
    errors = (_compile_error(p.source, ast.PyCF_ALLOW_TOP_LEVEL_AWAIT) for p in pythons)
    return next((e for e in errors if e is not None), None)


def apply_fixes(results: Sequence[FileResult], write: bool) -> tuple[str, str, int]:
    """Fix what can be fixed safely: a unified diff (``write=False``) or the files rewritten.
    Returns (stdout text, stderr text, how many findings stay unfixed)."""
    out: list[str] = []
    err: list[str] = []
    unfixed = 0
    for result in results:
        err.extend(line + "\n" for line in result.errors)
        if not result.findings:
            continue
        diff: Iterable[str]
        if result.source is not None:
            old = result.source
            lines, at, needed, done = _fix_source(old, result.findings, python=True)
            new = "".join(lines[:at]) + "".join(needed) + "".join(lines[at:])
            diff = _fixes_diff(result.path, python_lines(old, keepends=True), lines, at, needed)
        else:
            try:
                new, done, old = _fix_notebook(result)
            except (OSError, ValueError) as error:  # (read again: gone or changed since)
                err.append(_cannot_fix(result, error))
                continue
            diff = difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"a/{result.path}",
                f"b/{result.path}",
            )
        for finding in done:
            if finding.fixed is None:
                unfixed += 1
                err.append(f"{result.where(finding)}:{finding.line}:{finding.column}: "
                           f"not fixed: {finding.no_fix}\n")  # fmt: skip
        if new == old:
            continue
        if write:
            try:
                # (newline="": the text keeps its line ends; Windows' text mode made each
                # \r\n of a CRLF file \r\r\n)
                Path(result.path).write_text(new, encoding=result.encoding, newline="")
            except OSError as error:  # (a read-only file, a full disk...)
                err.append(_cannot_fix(result, error))
                continue
            out.append(f"fixed {sum(f.fixed is not None for f in done)} in {result.path}\n")
        else:
            out.extend(diff)
    return "".join(out), "".join(err), unfixed


def _cannot_fix(result: FileResult, error: Exception) -> str:
    """The line saying why ``result``'s file could not be fixed, which is also one of its
    errors (the run's status is then 2)."""
    line = f"{result.path}: cannot fix: {_reason(error)}"
    result.errors.append(line)
    return line + "\n"


_Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]


class _KnownChanges(difflib.SequenceMatcher[str]):
    """A matcher told the changes instead of searching for them: a file's fixes replace
    lines one for one and insert the imports in one place, and searching (difflib's way)
    takes minutes on a long file of look-alike lines."""

    def __init__(self, opcodes: list[_Opcode]) -> None:
        super().__init__(None, [], [])
        self.known = opcodes

    def get_opcodes(self) -> list[_Opcode]:
        return self.known


def _fixes_diff(
    path: str, old: list[str], fixed: list[str], at: int, needed: list[str]
) -> Iterator[str]:
    """The unified diff (as ``difflib.unified_diff`` writes it) from ``old`` to ``fixed``
    (the same lines, some replaced) with ``needed`` inserted before line ``at``."""
    opcodes: list[_Opcode] = []
    shift = 0

    def add(tag: Literal["replace", "insert", "equal"], i1: int, i2: int, j2: int) -> None:
        last = opcodes[-1] if opcodes else None
        if last is not None and last[2] == i1 and (last[0] == tag or "equal" not in (tag, last[0])):
            # One longer run; an insertion next to replaced lines is one change (as difflib).
            opcodes[-1] = (tag if tag == last[0] else "replace", last[1], i2, last[3], j2)
        else:
            opcodes.append((tag, i1, i2, i1 + shift, j2))

    for i, (before, after) in enumerate(zip(old, fixed, strict=True)):
        if i == at and needed:
            add("insert", i, i, i + len(needed))
            shift = len(needed)
        add("equal" if before == after else "replace", i, i + 1, i + 1 + shift)
    if at >= len(old) and needed:
        add("insert", len(old), len(old), len(old) + len(needed))
    new = fixed[:at] + needed + fixed[at:]
    groups = list(_KnownChanges(opcodes).get_grouped_opcodes(3))
    if not groups:
        return
    yield f"--- a/{path}\n"
    yield f"+++ b/{path}\n"
    for group in groups:
        first, last = group[0], group[-1]
        yield (f"@@ -{_hunk_range(first[1], last[2])} +{_hunk_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in old[i1:i2])
                continue
            yield from ("-" + line for line in old[i1:i2])
            yield from ("+" + line for line in new[j1:j2])


def _hunk_range(start: int, stop: int) -> str:
    """A hunk's line range as unified diffs write it (difflib's ``_format_range_unified``)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1  # an empty range begins at the line before
    return f"{beginning},{length}"


def _fix_notebook(result: FileResult) -> tuple[str, list[Finding], str]:
    """Fix a notebook's cells in its JSON, keeping every other byte as it was (a BOM, the
    layout, the escapes: :func:`.notebook_json.replace_sources`)."""
    import json

    from .notebook import NotebookError, code_cells
    from .notebook_json import replace_sources

    data = Path(result.path).read_bytes()
    bom = "\ufeff" if data.startswith(b"\xef\xbb\xbf") else ""
    old = data[len(bom.encode()) :].decode("utf-8")  # (its line ends as they are)
    if {cell.number: cell.source for cell in code_cells(old)} != result.cells:
        raise NotebookError("the notebook changed since it was checked: check it again")
    notebook = json.loads(old)
    done: list[Finding] = []
    renderers: set[str] = set()
    imports_cell: int | None = None
    sources: dict[int, str] = {}
    paramstyle = _paramstyle("\n".join(result.cells.values()))  # (a driver any cell names)
    bound = _bindings_in(_cells_as_run(result.cells))
    cells = raw_cells(notebook)
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict):
            continue  # (not a cell: counted, as code_cells counts it)
        if (
            imports_cell is None
            and _takes_imports(cell)
            and _cell_compile_error(result.cells.get(number, "")) is None
        ):
            imports_cell = number  # (not a cell that does not compile: it never runs)
        findings = [f for f in result.findings if f.cell == number]
        if not findings:
            continue
        source = result.cells[number]
        *setup, python = to_python(Cell(number, source))  # (a %%timeit's setup first)
        # (a cell magic's line: its body starts on the next)
        magic_lines = {p.first_line for p in setup} | {python.first_line - 1}
        done.extend(replace(f, no_fix=_ON_THE_MAGICS_LINE) for f in findings
                    if f.line in magic_lines)  # fmt: skip
        findings = [f for f in findings if f.line not in magic_lines]
        # (the lines of the cell, a Python cell magic's first line blank: a finding's line
        # is the cell's)
        bare = [""] * (python.first_line - 1) + python_lines(python.source)
        written = python_lines(source)
        if python.indent:  # (the lines IPython ran without the cell's indentation: with it)
            bare = [
                python.indent + line if index < len(written)
                and written[index].startswith(python.indent) else line
                for index, line in enumerate(bare)
            ]  # fmt: skip
        fixes = []
        for finding in findings:
            fix = fixed_line(python.source, finding, paramstyle, bare)
            fix = _shadowed(fix, finding, bound)
            if fix.line is not None and _continued(written, bare, finding.line):
                fix = Fix(None, _CONTINUED)
            if fix.line is None:
                done.append(replace(finding, no_fix=fix.reason))
            else:
                fixes.append((finding, fix))
        units = _line_fixes(bare, fixes, written)
        if imports_cell is None:  # (a %%timeit cell, say, before any cell to import in)
            done.extend(replace(f, no_fix=_NO_IMPORTS_CELL) for u in units for f, _ in u.made)
            done.extend(replace(f, no_fix=_OVERLAPPING) for u in units for f in u.overlapping)
            units = []
        lines, units, refused = _compiling(
            python_lines(source, keepends=True), units, _cell_compile_error
        )
        done.extend(replace(finding, no_fix=reason) for finding, reason in refused)
        for unit in units:
            done.extend(replace(finding, fixed=unit.text) for finding, _ in unit.made)
            done.extend(replace(finding, no_fix=_OVERLAPPING) for finding in unit.overlapping)
            renderers.update(fix.renderer for _, fix in unit.made)
        if units:
            sources[number] = "".join(lines)
    if renderers and imports_cell is not None:
        text = sources.get(imports_cell, result.cells.get(imports_cell, ""))
        sources[imports_cell] = _add_imports(text, renderers)
        error = _cell_compile_error(sources[imports_cell])
        if error is not None:  # (cannot be: a safety net, the cells are not written)
            raise NotebookError(f"the imports would not compile in cell {imports_cell}: {error}")
    if not any(finding.fixed is not None for finding in done):
        return bom + old, done, bom + old  # (the file as it was, not written again)
    return bom + replace_sources(old, sources), done, bom + old


_ON_THE_MAGICS_LINE = "the statement is on the cell magic's line: fix it by hand"
_NO_IMPORTS_CELL = (
    "no cell before it runs the fix's import once in the notebook's namespace (a %%timeit "
    "cell runs its body in a function, a cell that does not compile never runs): add a code "
    "cell above it and fix it again"
)
_CONTINUED = (
    "IPython runs the line together with the next (a backslash at its end): join the lines "
    "and fix it by hand"
)


def _continued(written: Sequence[str], bare: Sequence[str], number: int) -> bool:
    """Whether line ``number`` of a cell (``written``: its lines as written; ``bare``: as
    IPython runs them) is one IPython changed and runs with the lines after it: its fix,
    made of the line IPython runs, would stand on the first and leave the others."""
    line = written[number - 1] if number <= len(written) else ""
    return line != bare[number - 1] and line.rstrip().endswith("\\")


def _cell_text(cell: dict[str, Any], key: str) -> str:
    current = cell.get(key, "")
    return "".join(current) if isinstance(current, list) else str(current)


def _takes_imports(cell: dict[str, Any]) -> bool:
    """Whether the fixes' imports may go in ``cell``: a code cell run as Python, without a
    cell magic or with one that runs its body once in the notebook's namespace (``%%time``;
    not ``%%bash``, whose first line must stay the magic, nor ``%%timeit``)."""
    if cell.get("cell_type") != "code":
        return False
    text, _ = _dedented(_cell_text(cell, "source" if "source" in cell else "input"))
    magic = cell_magic(text)
    return magic is None or magic[0] in IMPORTING_CELL_MAGICS


def _add_imports(text: str, renderers: set[str]) -> str:
    """``text`` (a cell's code) with the imports the fixes need at its top (after its cell
    magic's line, if it has one), indented as the lines they go before."""
    magic = cell_magic(_dedented(text)[0])  # (IPython reads an indented cell without it)
    lines = python_lines(text, keepends=True)
    skip = 0 if magic is None else len(python_lines(magic[1]))
    head, body = "".join(lines[:skip]), "".join(lines[skip:])
    dedented, indent = _dedented(body)
    lines = python_lines(body, keepends=True)
    at, needed = _imports_needed(dedented, python_lines(dedented, keepends=True), renderers)
    needed = [indent + line for line in needed]
    if at >= len(lines) and lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n"  # (the imports go after the last line: it needs its end)
    return head + "".join(lines[:at]) + "".join(needed) + "".join(lines[at:])
