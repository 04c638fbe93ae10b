"""The rewrite: turn ``i"..."`` literals in Python source into code that builds templates.

``rewrite(source)`` finds every i-literal (prefixes ``i``, ``ri``, ``ir`` in any case, any
quotes, nested inside other literals' fields too) and replaces each run of implicitly
concatenated i-literals with a call ``__ipy_istring__(KEY, value, ...)``:

- the static strings, expression texts, conversions and constant format specs are worked out
  here, once, and stored under ``KEY`` (see :data:`build_template`);
- the field expressions stay in the code, in order, each on its original line, so they are
  evaluated eagerly in the cell's own scope and tracebacks point at the user's lines;
- the output has exactly as many lines as the input; source without an i-literal is returned
  unchanged.

The stages, each a small function below:

1. :func:`has_istring`, a cheap test that lets most cells through untouched;
   then :func:`ipy_istring._fast_path.rewrite_simple`, which rewrites the common case (every
   i-literal a plain one: names as fields, no escapes) with compiled regular expressions,
   and tells in one pass of one that a cell merely quoting i-strings in strings has none;
   only what it does not read goes through the stages below;
2. :func:`ipy_istring._scan.scan`, which finds the literals (the tokenizer's job);
3. :func:`_group`, implicit concatenation as the parser does it;
4. :func:`_validate`, which lets Python itself judge every i-literal: each, with its ``i``
   swapped for ``f`` (same length, so positions hold), is parsed by :func:`ast.parse` (all
   of a cell's literals in one call), which also gives the static strings exactly as the
   f-string (and 3.14's t-string) would have them; errors come back as a ``SyntaxError``
   naming the i-string and pointing into the source (:class:`_Positions`);
5. :func:`_constant_parts`, the strings, expressions, conversions and specs;
6. :class:`_Emitter`, the code that replaces each literal.

Nothing here imports IPython: the extension installs :data:`build_template` as the builtin
``__ipy_istring__`` and hooks :func:`rewrite` into IPython's input transformers.
"""

from __future__ import annotations

import ast
import bisect
import gc
import keyword
import re
from collections.abc import Iterator
from typing import NamedTuple

from ._fast_path import rewrite_simple
from ._lines import LINE_END, python_lines
from ._scan import Field, Literal, Scan, scan
from .template import _Layout, _placed, _template_builder

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .template import Conversion, _PlacedField

__all__ = [
    "BUILDER_NAME",
    "RewrittenLiteral",
    "build_template",
    "explain",
    "has_istring",
    "rewrite",
    "swap_to_fstrings",
]

#: The name the rewritten code calls; the extension makes it a builtin.
BUILDER_NAME = "__ipy_istring__"

# A literal's constant parts: its static strings, and each field's expression text, conversion
# and spec (None: the spec has fields of its own, formatted when the literal is evaluated).
_Parts = tuple[tuple[str, ...], tuple[tuple[str, "Conversion | None", "str | None"], ...]]

# Each distinct literal's layout, stored once under its static strings and placed fields
# (template._placed); the rewritten code passes its key.
_LAYOUTS: list[_Layout] = []
_LAYOUT_KEYS: dict[tuple[tuple[str, ...], tuple[_PlacedField, ...]], int] = {}

#: What ``__ipy_istring__(key, *values)`` in rewritten code does: the template of the literal
#: stored under ``key`` with the values its fields just evaluated to (no Python frame with the
#: C accelerator, one without: see template._accelerate).
build_template = _template_builder(_LAYOUTS)


def _layout_key(strings: tuple[str, ...], fields: tuple[_PlacedField, ...]) -> int:
    """The key of the layout of a literal with these static strings and placed fields (the
    layout made once)."""
    parts = (strings, fields)
    key = _LAYOUT_KEYS.get(parts)
    if key is None:
        key = _LAYOUT_KEYS[parts] = len(_LAYOUTS)
        _LAYOUTS.append(_Layout(strings, fields))
    return key


# Stage 1: the pre-check.

# An i-literal always has a word made of i/r letters right before its quote.  (No look-behind
# for "not inside a word" here: it would stop the regex engine's fast scan for the first
# letter, making the test ~1000x slower; has_istring checks that itself.)
_CANDIDATE = re.compile(r"""[iI][rR]?['"]""")


def has_istring(source: str) -> bool:
    """Cheap test: could this source hold an i-literal at all?  True when some ``i'``, ``i"``,
    ``ir'``... stands as a whole word before a quote (``ri'`` too), unless it is plainly in
    a comment."""
    for match in _CANDIDATE.finditer(source):
        start = match.start()
        if start > 0 and source[start - 1] in "rR":
            start -= 1  # ri'...'
        if start > 0 and (source[start - 1].isalnum() or source[start - 1] == "_"):
            continue  # part of a longer word: `hi"`
        if _in_comment(source, start):
            continue
        return True
    return False


def _in_comment(source: str, at: int) -> bool:
    """Whether ``at`` is surely not in code: its line has a ``#`` and no quote before it.

    With no quote on the line before ``at``, the line up to there is either all code, and then
    the ``#`` starts a comment, or all inside a string begun on an earlier line; either way
    ``at`` is not in code.  (A quote there, and only the full scan can tell.)
    """
    line = source[source.rfind("\n", 0, at) + 1 : at]
    return "#" in line and "'" not in line and '"' not in line


# Positions and errors.


class _Positions:
    """Offsets into the source as lines and columns, and errors that point there."""

    def __init__(self, source: str, filename: str) -> None:
        self.source = source
        self.filename = filename
        self._line_starts: list[int] | None = None

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of an offset."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in LINE_END.finditer(self.source)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def error(self, message: str, start: int, end: int | None = None) -> SyntaxError:
        """A ``SyntaxError`` for the source from ``start`` (to ``end``)."""
        line, col = self.line_col(start)
        end_line, end_col = self.line_col(end if end is not None else start + 1)
        lines = python_lines(self.source)
        text = lines[line - 1] if line - 1 < len(lines) else ""
        return SyntaxError(message, (self.filename, line, col, text, end_line, end_col))


# Stage 3: implicit concatenation.

_BLANK = re.compile(r"(?:[ \t\f]+|\\\r?\n)*")
_BLANK_IN_BRACKETS = re.compile(r"(?:[ \t\f\r\n]+|\\\r?\n|#[^\n]*)*")


class _BracketDepth:
    """How many brackets are open at an offset of the top-level code (strings and comments
    skipped).  Asked for in increasing offsets, so it resumes where it stopped: linear."""

    def __init__(self, source: str, found: Scan) -> None:
        self.source = source
        self.skipped = sorted([(lit.start, lit.end) for lit in found.literals] + found.comments)
        self.at = (0, 0, 0)  # (offset, depth there, next span to skip)

    def __call__(self, offset: int) -> int:
        s, spans = self.source, self.skipped
        pos, depth, index = self.at
        if offset < pos:
            pos, depth, index = 0, 0, 0
        while index < len(spans) and spans[index][0] < offset:
            depth += _balance(s, pos, spans[index][0])
            pos = max(pos, spans[index][1])
            index += 1
        depth += _balance(s, pos, offset)
        self.at = (offset, depth, index)
        return depth


def _balance(s: str, start: int, end: int) -> int:
    return sum(s.count(c, start, end) for c in "([{") - sum(s.count(c, start, end) for c in ")]}")


def _group(
    source: str, literals: list[Literal], depth: _BracketDepth
) -> Iterator[list[Literal]]:
    """Literals joined by implicit concatenation, as Python groups them (CPython:
    ``_PyPegen_concatenate_strings``), only where an i-literal takes part: how other
    literals group does not change the output.  Only blanks separate two of a group, or,
    inside brackets, also newlines and comments."""
    group: list[Literal] = []
    for lit in literals:
        if group and (group[-1].is_istring or lit.is_istring):
            gap_start = group[-1].end
            if _BLANK.match(source, gap_start, lit.start).end() == lit.start:  # type: ignore[union-attr]
                group.append(lit)
                continue
            gap = _BLANK_IN_BRACKETS.match(source, gap_start, lit.start)
            if gap and gap.end() == lit.start and (lit.in_brackets or depth(lit.start) > 0):
                group.append(lit)
                continue
        if group:
            yield group
        group = [lit]
    if group:
        yield group


# Stage 4: validation by Python's own parser.


class _Group:
    """A run of implicitly concatenated literals with at least one i-literal, the code of
    its field expressions and dynamic specs (emitted before its own call is known) and,
    once known, its constant parts."""

    __slots__ = ("field_code", "literals", "parts")

    def __init__(
        self, literals: list[Literal], field_code: list[tuple[int, int, list[str | _Group]]]
    ) -> None:
        self.literals = literals
        self.field_code = field_code
        self.parts: _Parts | None = None

    @property
    def start(self) -> int:
        return self.literals[0].start

    @property
    def end(self) -> int:
        return self.literals[-1].end

    @property
    def fields(self) -> list[Field]:
        return [f for lit in self.literals for f in lit.fields]


def _validate(groups: list[_Group], swapped: str, where: _Positions) -> None:
    """Parse every group, as f-strings, in one :func:`ast.parse` call and read each one's
    constant parts off its tree; on a syntax error, find the first group at fault and raise
    its error."""
    if not groups:
        return
    snippet = "(" + ",".join("(" + swapped[g.start : g.end] + ")" for g in groups) + ",)"
    try:
        tree = ast.parse(snippet, where.filename, "eval")
    except (SyntaxError, ValueError):
        for group in sorted(groups, key=lambda g: g.start):
            _parse_group(group, swapped, where)
        raise where.error("i-string: could not read this literal", groups[0].start) from None
    nodes = tree.body.elts  # type: ignore[attr-defined]
    for group, node in zip(groups, nodes):
        if not isinstance(node, ast.JoinedStr):  # pragma: no cover - f-literals always are
            raise where.error("i-string: could not read this literal", group.start, group.end)
        group.parts = _constant_parts(group, node, where)


def _parse_group(group: _Group, swapped: str, where: _Positions) -> None:
    """Parse one group alone; raise Python's error for it, placed in the source."""
    start, end = group.start, group.end
    try:
        ast.parse("(" + swapped[start:end] + ")", where.filename, "eval")
    except SyntaxError as error:
        raise (
            _literal_error(group, swapped, where)
            or _placed_error(error, group, start, end, where)
        ) from None
    except ValueError as error:  # e.g. a NUL character in the source
        raise where.error(f"i-string: {error}", start, end) from None


def _literal_error(group: _Group, swapped: str, where: _Positions) -> SyntaxError | None:
    """Python's own error for the first literal that fails on its own: parsed bare, its
    message is not about the parentheses that wrap a group (``i"{x`` is an unclosed ``{``,
    not an "unmatched ')'")."""
    for lit in group.literals:
        try:
            ast.parse(swapped[lit.start : lit.end], where.filename, "eval")
        except SyntaxError as error:
            return _placed_error(error, group, lit.start, lit.end, where, wrapped=False)
        except ValueError:
            return None
    return None


def _placed_error(
    error: SyntaxError,
    group: _Group,
    start: int,
    end: int,
    where: _Positions,
    wrapped: bool = True,
) -> SyntaxError:
    """Move an error from the parsed snippet (wrapped in parentheses, or bare) back into the
    source, labelled as 3.14 labels it: by the innermost literal at fault."""
    offset = start
    if error.lineno is not None:
        snippet = "(" + where.source[start:end] + ")" if wrapped else where.source[start:end]
        line_start = 0
        for _ in range(error.lineno - 1):
            line_start = snippet.find("\n", line_start) + 1
        offset = start + line_start + (error.offset or 1) - 1
        offset -= wrapped and error.lineno == 1
    offset = min(max(offset, start), max(end - 1, start))  # on the literal's last char
    innermost = _innermost(group.literals, offset)
    return where.error(_labelled(error.msg, innermost is None or innermost.is_istring), offset)


def _innermost(literals: list[Literal], offset: int) -> Literal | None:
    """The most deeply nested template literal (f, t or i) containing ``offset``."""
    for lit in literals:
        if lit.start <= offset < lit.end and lit.fields:
            return _innermost(lit.children(), offset) or lit
    return None


def _labelled(message: str | None, in_istring: bool) -> str:
    """An f-string error message as 3.14 words it for an i-string: ``i-string: ...`` inside
    an i-literal, ``f-string: ...`` inside an f-literal nested in one, and never twice (3.10
    and 3.11 repeat the label once per level of nesting)."""
    message = message or "invalid syntax"
    while message.startswith("f-string: f-string"):
        message = message[len("f-string: ") :]
    label = "i-string" if in_istring else "f-string"
    if "f-string" in message:
        return message.replace("f-string", label)
    return f"i-string: {message}"


# Stage 5: the constant parts.

_LINE_CONTINUATION = re.compile(r"\\\r?\n")


def _constant_parts(group: _Group, tree: ast.JoinedStr, where: _Positions) -> _Parts:
    """The static strings, and each field's expression text, conversion and spec (``None``:
    the spec has fields of its own), read off the group's tree (CPython builds the same from
    the tokens in ``_PyPegen_joined_str``) and its source."""
    source = where.source
    strings: list[str] = []
    fields: list[tuple[str, Conversion | None, str | None]] = []
    text = ""
    scanned = iter(group.fields)
    for part in tree.values:
        if isinstance(part, ast.Constant):
            text += str(part.value)
            continue
        f = next(scanned, None)
        if f is None or not isinstance(part, ast.FormattedValue):  # pragma: no cover
            raise where.error("i-string: could not read this literal", group.start)
        if f.debug_end >= 0:
            text = _debug_text(text, source[f.expr_start : f.debug_end])
        strings.append(text)
        text = ""
        conversion: Conversion | None = (
            None if part.conversion == -1 else chr(part.conversion)  # type: ignore[assignment]
        )
        fields.append((_expression_text(f, source), conversion, _spec(part.format_spec)))
    strings.append(text)
    return tuple(strings), tuple(fields)


# Fields of the simplest kind, which need no parser to be judged: a name or a dotted name
# (ASCII, so no normalization question), a conversion, a spec with no field, escape or brace.
_PLAIN_NAME = re.compile(r"[ \t]*[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*[ \t]*")


def _simple_parts(group: _Group, source: str) -> _Parts | None:
    """The constant parts of a group simple enough to read straight off the source, or
    ``None`` (then Python's parser reads it: :func:`_validate`).

    Simple: every literal is terminated and has no backslash, carriage return or NUL (so no
    escape to decode), its text has no single brace, and each field is a plain (dotted) name,
    optionally ``=``, a conversion ``!s``/``!r``/``!a`` and a spec without braces, exactly
    what the f-string grammar accepts there and decodes to itself.  The test suite checks
    this reading against the parser's on the whole conformance corpus.
    """
    strings: list[str] = []
    fields: list[tuple[str, Conversion | None, str | None]] = []
    text = ""
    for lit in group.literals:
        body_start = lit.start + len(lit.prefix) + len(lit.quote)
        body_end = lit.end - len(lit.quote)
        if body_end < body_start or not source.startswith(lit.quote, body_end):
            return None
        body = source[body_start:body_end]
        if "\\" in body or "\r" in body or "\0" in body or (len(lit.quote) == 1 and "\n" in body):
            return None
        pos = body_start
        for f in lit.fields:
            plain = _plain_text(source[pos : f.start])
            expression = source[f.expr_start : f.expr_end]
            if plain is None or not _is_plain_name(expression) or source[f.end - 1] != "}":
                return None
            text += plain
            debug = f.debug_end >= 0
            if debug:
                text += source[f.expr_start : f.debug_end]
            at = f.debug_end if debug else f.expr_end
            conversion: Conversion | None = None
            if source[at] == "!":
                if source[at + 1] not in "sra" or source[at + 2] not in ":}":
                    return None
                conversion = source[at + 1]  # type: ignore[assignment]
                at += 2
            spec = ""
            if source[at] == ":":
                spec = source[f.spec_start : f.spec_end]
                if "{" in spec or "}" in spec or f.spec_end != f.end - 1 or (debug and not spec):
                    return None
            elif at != f.end - 1:
                return None
            if debug and conversion is None and not spec:
                conversion = "r"
            strings.append(text)
            text = ""
            fields.append((expression, conversion, spec))
            pos = f.end
        plain = _plain_text(source[pos:body_end])
        if plain is None:
            return None
        text += plain
    strings.append(text)
    return tuple(strings), tuple(fields)


def _plain_text(text: str) -> str | None:
    """Literal text with its doubled braces undone, or ``None`` if a brace stands alone."""
    if "{" not in text and "}" not in text:
        return text
    if "{" in text.replace("{{", "") or "}" in text.replace("}}", ""):
        return None
    return text.replace("{{", "{").replace("}}", "}")


def _is_plain_name(expression: str) -> bool:
    if _PLAIN_NAME.fullmatch(expression) is None:
        return False
    return not any(keyword.iskeyword(part.strip()) for part in expression.split("."))


def _debug_text(text: str, written: str) -> str:
    """The text before a debug field ``{x =}`` ending in the field as written, line
    continuations included as 3.14 keeps them (3.12 and 3.13 drop them)."""
    parsed = _LINE_CONTINUATION.sub("", written)
    if parsed != written and text.endswith(parsed):
        return text[: len(text) - len(parsed)] + written
    return text


def _expression_text(f: Field, source: str) -> str:
    """The expression as written, comments dropped as Python 3.14 drops them."""
    text, pos = [], f.expr_start
    for start, end in f.comments:
        text.append(source[pos:start])
        pos = end
    text.append(source[pos : f.expr_end])
    return "".join(text)


def _spec(spec: ast.expr | None) -> str | None:
    """A field's spec: its text when constant, ``None`` when it has fields of its own."""
    if spec is None:
        return ""
    if isinstance(spec, ast.Constant):  # 3.13+ for a spec made of one escape: {x:\N{BULLET}}
        return str(spec.value)
    values = spec.values if isinstance(spec, ast.JoinedStr) else [spec]
    if all(isinstance(part, ast.Constant) for part in values):
        return "".join(str(part.value) for part in values)  # type: ignore[attr-defined]
    return None


# Stage 6: emitting the code.


class RewrittenLiteral(NamedTuple):
    """One rewritten run of i-literals, for readers (``%%istring --show``): where it starts,
    the literal as written, its fields and the call that replaces it.  Each field is
    ``(expression, conversion, spec, spec is computed)``: a spec with fields of its own is
    given as written and computed each time the literal is evaluated."""

    line: int
    column: int
    written: str
    fields: tuple[tuple[str, Conversion | None, str, bool], ...]
    call: str


class _Emitter:
    """Rewrites one source: collects the i-literal groups while copying the code around
    them, then, once all are validated, writes the calls."""

    def __init__(self, source: str, filename: str, explain: bool = False) -> None:
        self.source = source
        self.where = _Positions(source, filename)
        self.found = scan(source)
        self.depth = _BracketDepth(source, self.found)
        self.groups: list[_Group] = []
        self.explain = explain
        self.rewritten: list[RewrittenLiteral] = []

    def run(self) -> str:
        pieces = self.pieces(0, len(self.source), self.found.literals)
        unread = [group for group in self.groups if group.parts is None]
        if unread:
            _validate(unread, swap_to_fstrings(self.source, self.found), self.where)
        return self.join(pieces)

    def pieces(self, start: int, end: int, literals: list[Literal]) -> list[str | _Group]:
        """The source between ``start`` and ``end``, its i-literal groups left as groups."""
        if not literals:
            return [self.source[start:end]]
        out: list[str | _Group] = []
        pos = start
        for literals_of_group in _group(self.source, literals, self.depth):
            first, last = literals_of_group[0], literals_of_group[-1]
            if any(lit.is_istring for lit in literals_of_group):
                out.append(self.source[pos : first.start])
                out.append(self.group(literals_of_group))
                pos = last.end
                continue
            for lit in literals_of_group:  # an f-string may hold i-literals in its fields
                children = lit.children()
                if children:
                    out.append(self.source[pos : lit.start])
                    out += self.pieces(lit.start, lit.end, children)
                    pos = lit.end
        out.append(self.source[pos:end])
        return out

    def group(self, literals: list[Literal]) -> _Group:
        for lit in literals:
            if not lit.is_istring:
                raise self.where.error(
                    "cannot mix i-string literals with string or bytes literals",
                    lit.start,
                    lit.end,
                )
        code: list[tuple[int, int, list[str | _Group]]] = []
        for lit in literals:
            for f in lit.fields:
                if f.spec_start >= 0 and len(lit.quote) == 1 and self.source.startswith(
                    "\n", f.spec_end
                ):
                    raise self.where.error(
                        "i-string: newlines are not allowed in format specifiers for single "
                        "quoted i-strings",
                        f.spec_end,
                    )
                expression = self.pieces(f.expr_start, f.expr_end, f.expr_literals)
                code.append((f.expr_start, f.expr_end, expression))
                if f.spec_start >= 0:
                    spec = self.pieces(f.spec_start, f.spec_end, f.spec_literals)
                    code.append((f.spec_start, f.spec_end, spec))
        group = _Group(literals, code)
        group.parts = _simple_parts(group, self.source)
        self.groups.append(group)
        return group

    def join(self, pieces: list[str | _Group]) -> str:
        return "".join(piece if isinstance(piece, str) else self.call(piece) for piece in pieces)

    def call(self, group: _Group) -> str:
        """The code that replaces a group: ``__ipy_istring__(KEY, (expr), f"spec"...)``."""
        if group.parts is None:  # pragma: no cover - run() read every group's parts
            raise self.where.error("i-string: could not read this literal", group.start)
        fields = group.parts[1]
        parts = [f"{BUILDER_NAME}({_layout_key(group.parts[0], _placed(fields))}"]
        # Each piece of code stands for a span of the source and holds that span's newlines;
        # the newlines between spans go before the piece, so every expression stays on the
        # line it was written on (counted span by span: linear in the literal).
        counted_to = group.start
        code = iter(group.field_code)
        for f, (_, _, spec) in zip(group.fields, fields):
            expr_start, expr_end, expr_pieces = next(code)
            spans = [(expr_start, expr_end, "(" + self.join(expr_pieces) + ")")]
            if f.spec_start >= 0:
                spec_start, spec_end, spec_pieces = next(code)
                if spec is None:  # formatted now, by the same f-literal: f"{w}.{p}"
                    lit = next(lit for lit in group.literals if lit.start <= f.start < lit.end)
                    quote, prefix = lit.quote, "fr" if lit.raw else "f"
                    text = f"{prefix}{quote}{self.join(spec_pieces)}{quote}"
                    spans.append((spec_start, spec_end, text))
            for span_start, span_end, text in spans:
                parts.append(", " + "\n" * self.source.count("\n", counted_to, span_start) + text)
                counted_to = span_end
        parts.append("\n" * self.source.count("\n", counted_to, group.end) + ")")
        call = "".join(parts)
        if self.explain:
            self.rewritten.append(self.explained(group, call))
        return call

    def explained(self, group: _Group, call: str) -> RewrittenLiteral:
        """What ``%%istring --show`` says of a group."""
        known = group.parts or ((), ())
        shown = tuple(
            (expression, conversion, spec, False)
            if spec is not None
            else (expression, conversion, self.source[f.spec_start : f.spec_end], True)
            for f, (expression, conversion, spec) in zip(group.fields, known[1])
        )
        line, column = self.where.line_col(group.start)
        written = self.source[group.start : group.end]
        return RewrittenLiteral(line, column, written, shown, call)


def rewrite(source: str, filename: str = "<i-string>") -> str:
    """Rewrite every i-literal in ``source`` (see the module docstring).

    Returns ``source`` itself when it holds no i-literal.  Raises ``SyntaxError`` for a
    malformed i-literal, with the position in ``source`` and the given ``filename``.
    """
    if not has_istring(source):
        return source
    # The rewrite allocates a few containers per literal and leaves no cyclic garbage, so the
    # collector's passes while it runs find nothing: in a notebook's large heap they cost more
    # than the rewrite itself, and made a cell of 10,000 literals cost more per literal than
    # one of 1,000.  It runs after, if the allocations called for it.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        fast = rewrite_simple(source, BUILDER_NAME, _layout_key)
        if fast is not None:
            return fast
        emitter = _Emitter(source, filename)
        if not emitter.found.istring_prefixes:
            return source
        return emitter.run()
    finally:
        if paused:
            gc.enable()


def explain(source: str, filename: str = "<i-string>") -> tuple[str, list[RewrittenLiteral]]:
    """The rewritten source and, for each run of i-literals in it (in the order they are
    written, nested ones after the literal holding them), what it became: for readers of the
    rewrite (``%%istring --show``)."""
    if not has_istring(source):
        return source, []
    emitter = _Emitter(source, filename, explain=True)
    if not emitter.found.istring_prefixes:
        return source, []
    rewritten = emitter.run()
    return rewritten, sorted(emitter.rewritten, key=lambda lit: (lit.line, lit.column))


def swap_to_fstrings(source: str, found: Scan | None = None) -> str:
    """``source`` with each i-literal turned into the same-length f-literal.

    For tools that only need to know whether code is complete or well-formed, such as the
    terminal's "submit or continue" check, which never runs the full rewrite.
    """
    if found is None:
        if not has_istring(source):
            return source
        found = scan(source)
    chars = list(source)
    for start in found.istring_prefixes:
        at = start if chars[start] in "iI" else start + 1
        chars[at] = "f" if chars[at] == "i" else "F"
    return "".join(chars)
