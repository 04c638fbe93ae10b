"""The rewrite: turn ``i"..."`` literals in Python source into code that builds templates.

``rewrite(source)`` finds every i-literal (prefixes ``i``, ``ri``, ``ir`` in any case, any
quotes, nested inside other literals' fields too) and replaces each run of implicitly
concatenated i-literals with a call ``__ipy_istring__(KEY, value, ...)``:

- the static strings, expression texts, conversions and constant format specs are worked out
  here, once, and stored under ``KEY`` (see :func:`build_template`);
- the field expressions stay in the code, in order, each on its original line, so they are
  evaluated eagerly in the cell's own scope and tracebacks point at the user's lines;
- the output has exactly as many lines as the input; source without an i-literal is returned
  unchanged.

Validity is decided by Python itself: each literal, with its ``i`` swapped for ``f`` (same
length, so positions hold), is parsed with :func:`ast.parse`, which also gives the static
strings exactly as the f-string (and 3.14's t-string) would have them.  Errors come back as a
``SyntaxError`` naming the i-string and pointing into the source.

The scan is a single left-to-right pass that only stops at quotes, brackets, comments and,
inside fields, the ``!``/``:``/``=`` that end an expression, so its cost is linear in the
source.  Nothing here imports IPython: the extension installs :func:`build_template` as the
builtin ``__ipy_istring__`` and hooks :func:`rewrite` into IPython's input transformers.
"""

from __future__ import annotations

import ast
import bisect
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from .template import _DYNAMIC_SPEC, Conversion, InterpolationTemplate, _build

__all__ = ["BUILDER_NAME", "build_template", "has_istring", "rewrite", "swap_to_fstrings"]

#: The name the rewritten code calls; the extension makes it a builtin.
BUILDER_NAME = "__ipy_istring__"

# PEP 701 (3.12): a field's expression may hold strings with the literal's own quotes.
_NESTED_QUOTES = sys.version_info >= (3, 12)

_ISTRING_PREFIXES = frozenset({"i", "ri", "ir"})
_TEMPLATE_PREFIXES = (
    frozenset({"f", "fr", "rf"} | ({"t", "tr", "rt"} if sys.version_info >= (3, 14) else set()))
    | _ISTRING_PREFIXES
)
_STRING_PREFIXES = frozenset(
    {"", "r", "u", "b", "br", "rb", "f", "fr", "rf"}
    | ({"t", "tr", "rt"} if sys.version_info >= (3, 14) else set())
    | _ISTRING_PREFIXES
)

# Fast rejection: an i-literal always has a word made of i/r letters right before its quote.
# (No look-behind for "not inside a word" here: it would stop the regex engine's fast scan
# for the first letter, making the test ~1000x slower; has_istring checks that itself.)
_CANDIDATE = re.compile(r"""[iI][rR]?['"]""")

# Where the scanner has to look: quotes (a prefix is read back from there) and comments;
# inside a field also brackets and what ends its expression.
_CODE_STOPS = re.compile(r"""['"#]""")
_FIELD_STOPS = re.compile(r"""['"#()\[\]{}!:=]""")


def _string_body(quote: str) -> re.Pattern[str]:
    """The body of a string literal up to (not including) its closing quote."""
    q = re.escape(quote[0])
    if len(quote) == 3:
        return re.compile(rf"[^{q}\\]*(?:(?:\\[\s\S]|{q}(?!{q}{q}))[^{q}\\]*)*")
    return re.compile(rf"[^{q}\\\n]*(?:\\[\s\S][^{q}\\\n]*)*")


_STRING_BODIES = {quote: _string_body(quote) for quote in ("'", '"', "'''", '"""')}
# Text of a template (f/t/i) literal with no braces, backslashes, quotes or newlines in it.
_TEMPLATE_TEXT = {
    quote: re.compile(r"[^{}\\'\"\n]+" if len(quote) == 1 else r"[^{}\\'\"]+")
    for quote in ("'", '"', "'''", '"""', "")
}
_BLANK = re.compile(r"(?:[ \t\f]+|\\\r?\n)*")
_BLANK_IN_BRACKETS = re.compile(r"(?:[ \t\f\r\n]+|\\\r?\n|#[^\n]*)*")
_WHITESPACE = re.compile(r"[ \t\f\r\n]*")
_WORD = re.compile(r"\w*")


@dataclass(slots=True)
class _Field:
    """One ``{...}`` of an f/t/i literal, by offsets into the source."""

    start: int
    expr_start: int
    expr_end: int
    end: int = 0
    spec_start: int = -1
    spec_end: int = -1
    expr_literals: list[_Literal] = field(default_factory=list)
    spec_literals: list[_Literal] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)


@dataclass(slots=True)
class _Literal:
    """One string literal of any kind, with the fields it has if it is f/t/i."""

    start: int
    prefix: str
    quote: str
    end: int
    in_brackets: bool
    fields: list[_Field] = field(default_factory=list)

    @property
    def is_istring(self) -> bool:
        return self.prefix.lower() in _ISTRING_PREFIXES

    @property
    def raw(self) -> bool:
        return "r" in self.prefix.lower()

    def children(self) -> list[_Literal]:
        """The literals written inside this literal's fields (one level down)."""
        return [lit for f in self.fields for lit in (*f.expr_literals, *f.spec_literals)]


class _Scanner:
    """Finds the string literals of a piece of source, fields and nesting included."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.istring_prefixes: list[int] = []  # where each i-literal's prefix starts

    def code(self, pos: int, stop: int) -> tuple[list[_Literal], list[tuple[int, int]]]:
        """Scan code (outside any literal) from ``pos`` to ``stop``: its literals and comments."""
        literals, comments, _ = self._code(pos, stop, in_field=False)
        return literals, comments

    def _code(
        self, pos: int, stop: int, in_field: bool
    ) -> tuple[list[_Literal], list[tuple[int, int]], int]:
        """Scan code; inside a field stop at the ``}``, ``!``, ``:`` or ``=`` that ends the
        expression (at bracket depth 0) and return its position."""
        s = self.source
        stops = _FIELD_STOPS if in_field else _CODE_STOPS
        literals: list[_Literal] = []
        comments: list[tuple[int, int]] = []
        depth = 0
        while True:
            match = stops.search(s, pos, stop)
            if match is None:
                return literals, comments, stop
            at = match.start()
            char = s[at]
            pos = at + 1
            if char in "([{":
                depth += 1
            elif char in ")]}":
                if in_field and depth == 0 and char == "}":
                    return literals, comments, at
                depth = max(depth - 1, 0)
            elif char == "#":
                end = s.find("\n", at, stop)
                pos = stop if end < 0 else end
                comments.append((at, pos))
            elif char in "!:=":
                if depth > 0:
                    continue
                following = s[at + 1 : at + 2]
                if (char == "!" and following == "=") or (char == "=" and following == "="):
                    pos = at + 2  # != and == compare
                elif char == "=" and s[at - 1 : at] in ("<", ">"):
                    pass  # <= and >= compare
                else:
                    return literals, comments, at
            else:
                start = _prefix_start(s, at)
                literal = self._literal(start, s[start:at], at, stop, in_field)
                literals.append(literal)
                pos = literal.end

    def _literal(
        self, start: int, prefix: str, quote_at: int, stop: int, in_brackets: bool
    ) -> _Literal:
        s = self.source
        quote = s[quote_at] * 3 if s.startswith(s[quote_at] * 3, quote_at) else s[quote_at]
        body = quote_at + len(quote)
        literal = _Literal(start, prefix, quote, stop, in_brackets)
        kind = prefix.lower()
        if kind in _ISTRING_PREFIXES:
            self.istring_prefixes.append(start)
        if kind not in _TEMPLATE_PREFIXES:
            body_end = self._string_end(body, stop, quote)
        elif _NESTED_QUOTES:
            body_end = self._template_text(literal, body, stop, quote, literal.fields)
        else:
            # Before 3.12 the literal ends at its first unescaped closing quote, whatever
            # the fields hold; the fields are then found inside that span.
            body_end = self._string_end(body, stop, quote)
            self._template_text(literal, body, body_end, "", literal.fields)
        if s.startswith(quote, body_end) and body_end + len(quote) <= stop:
            literal.end = body_end + len(quote)
        else:
            literal.end = min(max(body_end, body), stop)  # unterminated: Python will say so
        return literal

    def _string_end(self, pos: int, stop: int, quote: str) -> int:
        match = _STRING_BODIES[quote].match(self.source, pos, stop)
        return match.end() if match else pos

    def _template_text(
        self,
        literal: _Literal,
        pos: int,
        stop: int,
        quote: str,
        fields: list[_Field],
        in_spec: bool = False,
    ) -> int:
        """Scan the text of an f/t/i literal (or of a format spec) collecting its fields;
        return where it ends: the closing quote, or the ``}`` that closes the spec."""
        s = self.source
        text = _TEMPLATE_TEXT[quote]
        while pos < stop:
            match = text.match(s, pos, stop)
            if match:
                pos = match.end()
                if pos >= stop:
                    break
            char = s[pos]
            if char == "\\":
                following = s[pos + 1 : pos + 2]
                if not literal.raw and following == "N" and s[pos + 2 : pos + 3] == "{":
                    close = s.find("}", pos, stop)
                    pos = stop if close < 0 else close + 1
                elif following in ("{", "}") or not following:
                    pos += 1
                else:
                    pos += 2
            elif char == "{":
                if s[pos + 1 : pos + 2] == "{" and not in_spec:
                    pos += 2
                else:
                    f = self._field(literal, pos, stop, quote)
                    fields.append(f)
                    pos = f.end
            elif char == "}":
                if in_spec:
                    return pos
                pos += 2 if s[pos + 1 : pos + 2] == "}" else 1
            elif quote and s.startswith(quote, pos):
                return pos
            elif char == "\n" and len(quote) == 1:
                return pos  # a newline ends a one-line literal: unterminated
            else:
                pos += 1
        return min(pos, stop)

    def _field(self, literal: _Literal, start: int, stop: int, quote: str) -> _Field:
        s = self.source
        expr_literals, comments, at = self._code(start + 1, stop, in_field=True)
        f = _Field(start, start + 1, at, expr_literals=expr_literals, comments=comments)
        pos = at
        if s.startswith("=", pos):  # the debug form {x=}: the text is the parser's business
            pos = _WHITESPACE.match(s, pos + 1, stop).end()  # type: ignore[union-attr]
        if s.startswith("!", pos):
            pos = _WORD.match(s, pos + 1, stop).end()  # type: ignore[union-attr]
        if s.startswith(":", pos):
            f.spec_start = pos + 1
            spec_fields: list[_Field] = []
            f.spec_end = self._template_text(
                literal, pos + 1, stop, quote, spec_fields, in_spec=True
            )
            f.spec_literals = [
                lit for sf in spec_fields for lit in (*sf.expr_literals, *sf.spec_literals)
            ]
            pos = f.spec_end
        f.end = pos + 1 if s.startswith("}", pos) else pos
        return f


def _prefix_start(s: str, quote_at: int) -> int:
    """Where the string whose quote is at ``quote_at`` starts: the word written right before
    the quote if it is a string prefix (``rb``, ``f``, ``ri``...), else the quote itself
    (a keyword or a name before a string, as in ``if"x"``)."""
    start = quote_at
    if start == 0 or not (s[start - 1].isalnum() or s[start - 1] == "_"):
        return start
    while start > 0 and (s[start - 1].isalnum() or s[start - 1] == "_"):
        start -= 1
        if quote_at - start > 2:
            return quote_at
    return start if s[start:quote_at].lower() in _STRING_PREFIXES else quote_at


def _bracket_balance(s: str, start: int, end: int) -> int:
    return sum(s.count(c, start, end) for c in "([{") - sum(s.count(c, start, end) for c in ")]}")


# Each distinct literal's constant parts, stored once; the rewritten code passes the key.
_Shape = tuple[tuple[str, ...], tuple[tuple[str, "Conversion | None", Any], ...]]
_SHAPES: list[_Shape] = []
_SHAPE_KEYS: dict[_Shape, int] = {}


def _shape_key(shape: _Shape) -> int:
    key = _SHAPE_KEYS.get(shape)
    if key is None:
        key = _SHAPE_KEYS[shape] = len(_SHAPES)
        _SHAPES.append(shape)
    return key


def build_template(key: int, *values: Any) -> InterpolationTemplate:
    """What ``__ipy_istring__(key, *values)`` in rewritten code does: the literal stored
    under ``key`` with the values its fields just evaluated to."""
    strings, fields = _SHAPES[key]
    return _build(strings, fields, *values)


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


class _Rewriter:
    def __init__(self, source: str, filename: str) -> None:
        self.source = source
        self.filename = filename
        self.scanner = _Scanner(source)
        self.literals, self.comments = self.scanner.code(0, len(source))
        self._line_starts: list[int] | None = None
        self._depth_cache = (0, 0, 0)  # (offset, bracket depth there, next span to skip)
        self._skipped: list[tuple[int, int]] | None = None
        self._swapped: str | None = None

    # positions

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of an offset."""
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.source)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def error(self, message: str, start: int, end: int | None = None) -> SyntaxError:
        line, col = self.line_col(start)
        end_line, end_col = self.line_col(end if end is not None else start + 1)
        lines = self.source.splitlines()
        text = lines[line - 1] if line - 1 < len(lines) else ""
        return SyntaxError(message, (self.filename, line, col, text, end_line, end_col))

    @property
    def swapped(self) -> str:
        """The source with every i-literal's ``i`` made an ``f``: valid f-string syntax."""
        if self._swapped is None:
            chars = list(self.source)
            for start in self.scanner.istring_prefixes:
                for at in range(start, start + 2):
                    if chars[at] in "iI":
                        chars[at] = "f" if chars[at] == "i" else "F"
                        break
            self._swapped = "".join(chars)
        return self._swapped

    # output

    def emit(self, start: int, end: int, literals: list[_Literal]) -> str:
        """The source between ``start`` and ``end`` with its i-literals rewritten."""
        out: list[str] = []
        pos = start
        for group in self.groups(literals):
            if any(lit.is_istring for lit in group):
                out.append(self.source[pos : group[0].start])
                out.append(self.template_call(group))
                pos = group[-1].end
                continue
            for lit in group:  # an f-string may hold i-literals in its fields
                children = lit.children()
                if children:
                    out.append(self.source[pos : lit.start])
                    out.append(self.emit(lit.start, lit.end, children))
                    pos = lit.end
        out.append(self.source[pos:end])
        return "".join(out)

    def groups(self, literals: list[_Literal]) -> list[list[_Literal]]:
        """Literals joined by implicit concatenation, as Python groups them (only where an
        i-literal takes part: how other literals group does not change the output)."""
        groups: list[list[_Literal]] = []
        for lit in literals:
            if groups:
                previous = groups[-1][-1]
                if (previous.is_istring or lit.is_istring) and self.adjacent(previous, lit):
                    groups[-1].append(lit)
                    continue
            groups.append([lit])
        return groups

    def adjacent(self, first: _Literal, second: _Literal) -> bool:
        """Whether only blanks (and, inside brackets, newlines and comments) separate them."""
        if _BLANK.match(self.source, first.end, second.start).end() == second.start:  # type: ignore[union-attr]
            return True
        gap = _BLANK_IN_BRACKETS.match(self.source, first.end, second.start)
        return (
            gap is not None
            and gap.end() == second.start
            and (second.in_brackets or self.bracket_depth(second.start) > 0)
        )

    def bracket_depth(self, offset: int) -> int:
        """Open brackets before ``offset`` in the top-level code, strings and comments
        skipped.  Asked for in increasing offsets, so it resumes where it stopped."""
        if self._skipped is None:
            self._skipped = sorted([(lit.start, lit.end) for lit in self.literals] + self.comments)
        spans = self._skipped
        pos, depth, index = self._depth_cache
        if offset < pos:
            pos, depth, index = 0, 0, 0
        while index < len(spans) and spans[index][0] < offset:
            depth += _bracket_balance(self.source, pos, spans[index][0])
            pos = max(pos, spans[index][1])
            index += 1
        depth += _bracket_balance(self.source, pos, offset)
        self._depth_cache = (offset, depth, index)
        return depth

    def template_call(self, group: list[_Literal]) -> str:
        """The code that replaces a run of concatenated i-literals."""
        for lit in group:
            if not lit.is_istring:
                raise self.error(
                    "cannot mix i-string literals with string or bytes literals",
                    lit.start,
                    lit.end,
                )
        node = self.parse(group)
        fields = [f for lit in group for f in lit.fields]
        strings, shapes = self.constant_parts(node, fields, group)
        parts = [f"{BUILDER_NAME}({_shape_key((strings, shapes))}"]
        # Each piece of code stands for a span of the source and holds that span's newlines;
        # the newlines between spans go before the piece, so every expression stays on the
        # line it was written on (counted span by span: linear in the literal).
        counted_to = group[0].start
        for f, (_, _, spec) in zip(fields, shapes):
            pieces = [
                (
                    f.expr_start,
                    f.expr_end,
                    "(" + self.emit(f.expr_start, f.expr_end, f.expr_literals) + ")",
                )
            ]
            if spec is _DYNAMIC_SPEC:
                lit = next(lit for lit in group if lit.start <= f.start < lit.end)
                spec_code = self.emit(f.spec_start, f.spec_end, f.spec_literals)
                quote = lit.quote
                pieces.append(
                    (
                        f.spec_start,
                        f.spec_end,
                        f"f{'r' if lit.raw else ''}{quote}{spec_code}{quote}",
                    )
                )
            for span_start, span_end, code in pieces:
                parts.append(", " + "\n" * self.source.count("\n", counted_to, span_start) + code)
                counted_to = span_end
        parts.append("\n" * self.source.count("\n", counted_to, group[-1].end) + ")")
        return "".join(parts)

    def parse(self, group: list[_Literal]) -> ast.JoinedStr:
        """Let Python check the literals (as f-strings) and work out their static text."""
        start, end = group[0].start, group[-1].end
        try:
            tree = ast.parse("(" + self.swapped[start:end] + ")", self.filename, "eval")
        except SyntaxError as error:
            raise self.literal_error(group) or self.parse_error(error, start, end) from None
        except ValueError as error:  # e.g. a NUL character in the source
            raise self.error(f"i-string: {error}", start, end) from None
        node = tree.body
        if not isinstance(node, ast.JoinedStr):  # pragma: no cover - f-literals always are
            raise self.error("i-string: could not read this literal", start, end)
        return node

    def literal_error(self, group: list[_Literal]) -> SyntaxError | None:
        """Python's own error for the first literal that fails on its own: parsed bare, its
        message is not about the parentheses that wrap a group (``i"{x`` is an unclosed
        ``{``, not an "unmatched ')'")."""
        for lit in group:
            try:
                ast.parse(self.swapped[lit.start : lit.end], self.filename, "eval")
            except SyntaxError as error:
                return self.parse_error(error, lit.start, lit.end, wrapped=False)
            except ValueError:
                return None
        return None

    def parse_error(
        self, error: SyntaxError, start: int, end: int, wrapped: bool = True
    ) -> SyntaxError:
        """Move an error from the parsed snippet (wrapped in parentheses, or bare) back into
        the source, naming the i-string."""
        message = (error.msg or "invalid syntax").replace("f-string", "i-string")
        if "i-string" not in message:
            message = f"i-string: {message}"
        offset = start
        if error.lineno is not None:
            snippet = "(" + self.source[start:end] + ")" if wrapped else self.source[start:end]
            line_start = 0
            for _ in range(error.lineno - 1):
                line_start = snippet.find("\n", line_start) + 1
            offset = start + line_start + (error.offset or 1) - 1
            offset -= wrapped and error.lineno == 1
        offset = min(max(offset, start), max(end - 1, start))  # on the literal's last char
        return self.error(message, offset)

    def constant_parts(
        self, node: ast.JoinedStr, fields: list[_Field], group: list[_Literal]
    ) -> tuple[tuple[str, ...], tuple[tuple[str, Conversion | None, Any], ...]]:
        """The static strings, and each field's expression text, conversion and spec."""
        strings: list[str] = []
        shapes: list[tuple[str, Conversion | None, Any]] = []
        text = ""
        values = iter(fields)
        for part in node.values:
            if isinstance(part, ast.Constant):
                text += str(part.value)
                continue
            assert isinstance(part, ast.FormattedValue)
            f = next(values, None)
            if f is None:  # pragma: no cover - the scan and the parser always agree
                raise self.error("i-string: could not read this literal", group[0].start)
            strings.append(text)
            text = ""
            conversion: Conversion | None = (
                None if part.conversion == -1 else chr(part.conversion)  # type: ignore[assignment]
            )
            shapes.append((self.expression_text(f), conversion, self.spec(part.format_spec)))
        strings.append(text)
        return tuple(strings), tuple(shapes)

    def expression_text(self, f: _Field) -> str:
        """The expression as written, comments dropped as Python 3.14 drops them."""
        text, pos = [], f.expr_start
        for start, end in f.comments:
            text.append(self.source[pos:start])
            pos = end
        text.append(self.source[pos : f.expr_end])
        return "".join(text)

    @staticmethod
    def spec(spec: ast.expr | None) -> Any:
        if spec is None:
            return ""
        assert isinstance(spec, ast.JoinedStr)
        if all(isinstance(part, ast.Constant) for part in spec.values):
            return "".join(part.value for part in spec.values)  # type: ignore[attr-defined]
        return _DYNAMIC_SPEC


def rewrite(source: str, filename: str = "<i-string>") -> str:
    """Rewrite every i-literal in ``source`` (see the module docstring).

    Returns ``source`` itself when it holds no i-literal.  Raises ``SyntaxError`` for a
    malformed i-literal, with the position in ``source`` and the given ``filename``.
    """
    if not has_istring(source):
        return source
    rewriter = _Rewriter(source, filename)
    if not rewriter.scanner.istring_prefixes:
        return source
    return rewriter.emit(0, len(source), rewriter.literals)


def swap_to_fstrings(source: str) -> str:
    """``source`` with each i-literal turned into the same-length f-literal.

    For tools that only need to know whether code is complete or well-formed, such as the
    terminal's "submit or continue" check, which never runs the full rewrite.
    """
    if not has_istring(source):
        return source
    rewriter = _Rewriter(source, "<i-string>")
    return rewriter.swapped
