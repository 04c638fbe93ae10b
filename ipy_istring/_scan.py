"""Finding the string literals of Python source: where each starts and ends, its prefix, its
fields and, inside them, the literals nested in fields.  The first stage of the rewrite.

It mirrors what CPython's tokenizer does for strings (``Parser/lexer/lexer.c``: the string
states, and ``tok_get_fstring_mode`` for the text, fields and format specs of f-strings),
just enough to know where things are: whether a literal is *valid* is decided later by
:func:`ast.parse`.  Each scanning function is a single left-to-right pass that only stops
at quotes, brackets, comments and, inside fields, the ``!``/``:``/``=`` that end an
expression, so the cost is linear in the source.  Nothing here imports IPython.
"""

from __future__ import annotations

import re
import sys

__all__ = ["Field", "Literal", "Scan", "scan"]

# PEP 701 (3.12): a field's expression may hold strings with the literal's own quotes, so an
# f-literal ends where its fields say, not at the first closing quote.
_NESTED_QUOTES = sys.version_info >= (3, 12)

ISTRING_PREFIXES = frozenset({"i", "ri", "ir"})
_T_PREFIXES = {"t", "tr", "rt"} if sys.version_info >= (3, 14) else set()
_TEMPLATE_PREFIXES = frozenset({"f", "fr", "rf"} | _T_PREFIXES) | ISTRING_PREFIXES
_STRING_PREFIXES = (
    frozenset({"", "r", "u", "b", "br", "rb", "f", "fr", "rf"} | _T_PREFIXES) | ISTRING_PREFIXES
)

# Where the scan has to look: quotes (a prefix is read back from there) and comments; inside
# a field also brackets and what ends its expression.
_CODE_STOPS = re.compile(r"""['"#]""")
_EXPRESSION_STOPS = re.compile(r"""['"#()\[\]{}!:=]""")


def _string_body(quote: str) -> re.Pattern[str]:
    """The body of a string literal up to (not including) its closing quote."""
    q = re.escape(quote[0])
    if len(quote) == 3:
        return re.compile(rf"[^{q}\\]*(?:(?:\\[\s\S]|{q}(?!{q}{q}))[^{q}\\]*)*")
    return re.compile(rf"[^{q}\\\n]*(?:\\[\s\S][^{q}\\\n]*)*")


_STRING_BODIES = {quote: _string_body(quote) for quote in ("'", '"', "'''", '"""')}
# Text of a template (f/t/i) literal with no braces, backslashes, quotes or newlines in it.
_PLAIN_TEXT = re.compile(r"[^{}\\'\"\n]+")
# After the `=` of a debug field {x = }: blanks, newlines and line continuations.
_DEBUG_BLANKS = re.compile(r"(?:[ \t\f\r\n]|\\\r?\n)*")
_WORD = re.compile(r"\w*")


# (Plain classes with slots rather than dataclasses: made thousands of times per cell, and
# dataclasses cost milliseconds to import and define, which %load_ext would pay.)


class Field:
    """One ``{...}`` of an f/t/i literal, by offsets into the source.

    ``expr_start:expr_end`` is the expression; ``debug_end`` is where the ``=`` of a debug
    field and the blanks after it end (``-1``: not a debug field); ``spec_start:spec_end`` is
    the format spec (``-1``: none); ``end`` is just after its ``}``.  ``expr_literals`` and
    ``spec_literals`` are the literals written inside the expression and inside the spec's
    own fields; ``comments`` the comments in the expression.
    """

    __slots__ = (
        "comments",
        "debug_end",
        "end",
        "expr_end",
        "expr_literals",
        "expr_start",
        "spec_end",
        "spec_literals",
        "spec_start",
        "start",
    )

    def __init__(self, start: int) -> None:
        self.start = start
        self.expr_start = self.expr_end = self.end = start + 1
        self.debug_end = self.spec_start = self.spec_end = -1
        self.expr_literals: list[Literal] = []
        self.spec_literals: list[Literal] = []
        self.comments: list[tuple[int, int]] = []


class Literal:
    """One string literal of any kind, with the fields it has if it is an f/t/i literal."""

    __slots__ = ("end", "fields", "in_brackets", "prefix", "quote", "start")

    def __init__(self, start: int, prefix: str, quote: str, end: int, in_brackets: bool) -> None:
        self.start = start
        self.prefix = prefix
        self.quote = quote
        self.end = end
        self.in_brackets = in_brackets
        self.fields: list[Field] = []

    @property
    def is_istring(self) -> bool:
        return self.prefix.lower() in ISTRING_PREFIXES

    @property
    def raw(self) -> bool:
        return "r" in self.prefix.lower()

    def children(self) -> list[Literal]:
        """The literals written inside this literal's fields (one level down)."""
        return [lit for f in self.fields for lit in (*f.expr_literals, *f.spec_literals)]


class Scan:
    """What :func:`scan` found: the top-level literals and comments, and where each
    i-literal's prefix starts (nested ones included)."""

    __slots__ = ("comments", "istring_prefixes", "literals")

    def __init__(
        self,
        literals: list[Literal],
        comments: list[tuple[int, int]],
        istring_prefixes: list[int],
    ) -> None:
        self.literals = literals
        self.comments = comments
        self.istring_prefixes = istring_prefixes


def scan(source: str) -> Scan:
    """Find the string literals and comments of ``source`` (code outside any literal)."""
    scanner = _Scanner(source)
    literals, comments = scanner.code(0, len(source))
    return Scan(literals, comments, scanner.istring_prefixes)


class _Scanner:
    """The scanning functions over one source, and the i-literal prefixes they met."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.istring_prefixes: list[int] = []

    def code(self, pos: int, stop: int) -> tuple[list[Literal], list[tuple[int, int]]]:
        """Code outside any literal, from ``pos`` to ``stop``: its literals and comments."""
        s = self.source
        literals: list[Literal] = []
        comments: list[tuple[int, int]] = []
        while (match := _CODE_STOPS.search(s, pos, stop)) is not None:
            at = match.start()
            if s[at] == "#":
                pos = self._comment_end(at, stop)
                comments.append((at, pos))
            else:
                literal = self.literal(at, stop, in_brackets=False)
                literals.append(literal)
                pos = literal.end
        return literals, comments

    def expression(self, f: Field, stop: int) -> int:
        """A field's expression from ``f.expr_start``: its literals and comments go into
        ``f``; returns where it ends, at the ``}``, ``!``, ``:`` or ``=`` (outside brackets)
        that ends it (CPython: the tokenizer's bracket and f-string-nesting count)."""
        s = self.source
        pos, depth = f.expr_start, 0
        while (match := _EXPRESSION_STOPS.search(s, pos, stop)) is not None:
            at = match.start()
            char = s[at]
            pos = at + 1
            if char in "([{":
                depth += 1
            elif char in ")]}":
                if depth == 0 and char == "}":
                    return at
                depth = max(depth - 1, 0)
            elif char == "#":
                pos = self._comment_end(at, stop)
                f.comments.append((at, pos))
            elif char in "'\"":
                literal = self.literal(at, stop, in_brackets=True)
                f.expr_literals.append(literal)
                pos = literal.end
            elif depth == 0 and not _is_operator(s, at):
                return at
        return stop

    def _comment_end(self, at: int, stop: int) -> int:
        end = self.source.find("\n", at, stop)
        return stop if end < 0 else end

    def literal(self, quote_at: int, stop: int, in_brackets: bool) -> Literal:
        """The literal whose (first) quote is at ``quote_at``, its prefix read back from
        there (CPython: the tokenizer's ``letter_quote`` states)."""
        s = self.source
        start = _prefix_start(s, quote_at)
        prefix = s[start:quote_at]
        quote = s[quote_at] * 3 if s.startswith(s[quote_at] * 3, quote_at) else s[quote_at]
        body = quote_at + len(quote)
        literal = Literal(start, prefix, quote, stop, in_brackets)
        kind = prefix.lower()
        if kind in ISTRING_PREFIXES:
            self.istring_prefixes.append(start)
        if kind not in _TEMPLATE_PREFIXES:
            body_end = self._string_end(body, stop, quote)
        elif _NESTED_QUOTES:
            body_end = self.template_text(literal, body, stop)
        else:
            # Before 3.12 a literal ends at its first unescaped closing quote, whatever its
            # fields hold; the fields are then found inside that span.
            body_end = self._string_end(body, stop, quote)
            self.template_text(literal, body, body_end)
        if s.startswith(quote, body_end) and body_end + len(quote) <= stop:
            literal.end = body_end + len(quote)
        else:
            literal.end = min(max(body_end, body), stop)  # unterminated: Python will say so
        return literal

    def _string_end(self, pos: int, stop: int, quote: str) -> int:
        match = _STRING_BODIES[quote].match(self.source, pos, stop)
        return match.end() if match else pos

    def template_text(self, literal: Literal, pos: int, stop: int) -> int:
        """The text of an f/t/i literal from ``pos``: collect its fields; return where it
        ends, at its closing quote (or a newline ending a one-line literal, or ``stop``)."""
        s = self.source
        quote = literal.quote
        while pos < stop:
            pos = self._plain_text(literal, pos, stop)
            if pos >= stop:
                break
            char = s[pos]
            if char == "{":
                if s.startswith("{", pos + 1):
                    pos += 2
                else:
                    f = self.field(literal, pos, stop)
                    literal.fields.append(f)
                    pos = f.end
            elif char == "}":
                pos += 2 if s.startswith("}", pos + 1) else 1
            elif s.startswith(quote, pos) or (char == "\n" and len(quote) == 1):
                return pos
            else:
                pos += 1
        return min(pos, stop)

    def spec_text(self, literal: Literal, f: Field, stop: int) -> int:
        """A format spec from ``f.spec_start``: collect the literals of its own fields;
        return where it ends, at the ``}`` closing the field (or at a quote or newline that
        ends the literal, which makes the literal invalid)."""
        s = self.source
        quote = literal.quote
        pos = f.spec_start
        while pos < stop:
            pos = self._plain_text(literal, pos, stop)
            if pos >= stop:
                break
            char = s[pos]
            if char == "{":
                nested = self.field(literal, pos, stop)
                f.spec_literals += [*nested.expr_literals, *nested.spec_literals]
                pos = nested.end
            elif char == "}" or s.startswith(quote, pos) or (char == "\n" and len(quote) == 1):
                return pos
            else:
                pos += 1
        return min(pos, stop)

    def _plain_text(self, literal: Literal, pos: int, stop: int) -> int:
        """Skip text without fields: plain characters, escapes (``\\N{...}`` included), and
        quotes or newlines that do not end the literal."""
        s = self.source
        while pos < stop:
            match = _PLAIN_TEXT.match(s, pos, stop)
            if match:
                pos = match.end()
                if pos >= stop:
                    break
            if s[pos] != "\\":
                return pos
            following = s[pos + 1 : pos + 2]
            if not literal.raw and following == "N" and s.startswith("{", pos + 2):
                close = s.find("}", pos, stop)
                pos = stop if close < 0 else close + 1
            elif following in ("{", "}") or not following:
                pos += 1
            else:
                pos += 2
        return pos

    def field(self, literal: Literal, start: int, stop: int) -> Field:
        """The field whose ``{`` is at ``start``: expression, debug ``=``, conversion, spec
        (CPython: ``fstring_find_expr`` before 3.12, the f-string tokenizer modes after)."""
        s = self.source
        f = Field(start)
        pos = f.expr_end = self.expression(f, stop)
        if s.startswith("=", pos):  # the debug form {x=}
            pos = f.debug_end = _DEBUG_BLANKS.match(s, pos + 1, stop).end()  # type: ignore[union-attr]
        if s.startswith("!", pos):
            pos = _WORD.match(s, pos + 1, stop).end()  # type: ignore[union-attr]
        if s.startswith(":", pos):
            f.spec_start = pos + 1
            pos = f.spec_end = self.spec_text(literal, f, stop)
        f.end = pos + 1 if s.startswith("}", pos) else pos
        return f


def _is_operator(s: str, at: int) -> bool:
    """Whether the ``!``, ``:`` or ``=`` at ``at`` belongs to an operator (``!=``, ``==``,
    ``<=``, ``>=``) rather than ending a field's expression."""
    char, following = s[at], s[at + 1 : at + 2]
    if char in "!=" and following == "=":
        return True
    return char == "=" and s[at - 1 : at] in ("<", ">", "=", "!")


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
