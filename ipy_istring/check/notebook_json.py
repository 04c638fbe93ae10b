"""A notebook's JSON with some cells' sources changed, every other byte as it was.

``--fix`` changes a few lines of a few cells; writing the whole notebook again through
:mod:`json` would also change what the user never touched: a UTF-8 BOM, the indentation, the
spacing and order of keys, ``1e400`` (``Infinity``), numbers of many digits, ``\\u00e9`` (``é``)
and ``\\/``.  Here the standard library's own scanner (:func:`json.scanner.py_make_scanner`,
with :func:`json.decoder.JSONObject` and :func:`json.decoder.JSONArray`) finds where each
value stands in the text; each changed source is written back in its place in the style of
the old one — a string stays a string, a list of lines a list of lines with the same
separators; the characters, lines and list items that did not change keep their escapes as
written, and new text is escaped as the notebook escapes (``ensure_ascii`` or not) — and
the result must parse to the notebook with only those sources changed, else it is refused.
"""

from __future__ import annotations

import difflib
import json
import json.decoder
import json.scanner
import re
from collections import Counter
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any, NamedTuple

from .._lines import python_lines
from .notebook import NotebookError, raw_cells

__all__ = ["replace_sources"]


class _Span(NamedTuple):
    """A JSON value and where it stands in the text: a string, a list of spans, a dict of
    spans (the last of a repeated key, as :func:`json.loads` keeps), or a number's text."""

    value: Any
    start: int
    end: int


def _as_text(number: str) -> tuple[str, str]:
    return ("number", number)  # (a number as written: 1e400 and 5,000 digits compare exactly)


class _Keys(dict[str, str]):
    """The memo of keys :func:`json.decoder.JSONObject` is given, which it asks for each key
    (``setdefault``) right before it scans the key's value: the last key is that value's."""

    last = ""

    def setdefault(self, key: str, default: str = "") -> str:
        self.last = key
        return super().setdefault(key, default)


# The keys whose values lead to the cells' sources (nbformat 4's cells, nbformat 3's
# worksheets and their cells, a cell's source or input): the values of all other keys (the
# outputs, the metadata) are read at once by the C scanner, their places not needed.
_TO_SOURCES = frozenset({"cells", "worksheets", "source", "input"})


def _spanned(text: str) -> _Span:
    """``text`` parsed by the standard library's scanner, each value on the way to the
    cells' sources with its place."""
    keys = _Keys()
    context = SimpleNamespace(
        strict=True, object_hook=None, object_pairs_hook=dict, memo=keys,
        parse_float=_as_text, parse_int=_as_text, parse_constant=_as_text,
        parse_string=json.decoder.scanstring,  # type: ignore[attr-defined]
    )  # fmt: skip
    decoder = json.JSONDecoder(parse_float=_as_text, parse_int=_as_text, parse_constant=_as_text)
    whole = json.scanner.make_scanner(decoder)  # type: ignore[arg-type]  # (the C scanner)

    def parse_object(s_and_end: Any, strict: bool, *_: Any) -> Any:
        return json.decoder.JSONObject(s_and_end, strict, member, None, dict, keys)  # type: ignore[attr-defined]

    def parse_array(s_and_end: Any, *_: Any) -> Any:
        return json.decoder.JSONArray(s_and_end, spanned)  # type: ignore[attr-defined]

    context.parse_object, context.parse_array = parse_object, parse_array
    scan = json.scanner.py_make_scanner(context)  # type: ignore[attr-defined]

    def spanned(string: str, index: int) -> tuple[_Span, int]:
        value, end = scan(string, index)
        return _Span(value, index, end), end

    def member(string: str, index: int) -> tuple[_Span, int]:
        if keys.last in _TO_SOURCES:
            return spanned(string, index)
        value, end = whole(string, index)
        return _Span(value, index, end), end

    whitespace = json.decoder.WHITESPACE.match  # type: ignore[attr-defined]
    start = whitespace(text, 0).end()
    try:
        root, end = spanned(text, start)
    except StopIteration as error:
        raise json.JSONDecodeError("Expecting value", text, error.value) from None
    if whitespace(text, end).end() != len(text):
        raise json.JSONDecodeError("Extra data", text, end)
    return root


def _plain(text: str) -> Any:
    """``text`` parsed, its numbers kept as written (to compare two notebooks exactly)."""
    return json.loads(text, parse_float=_as_text, parse_int=_as_text, parse_constant=_as_text)


# One character of a JSON string as written: a surrogate pair's two escapes, one escape, or
# the character itself.
_TOKEN = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|[^\\]",
    re.DOTALL,
)
_ESCAPED = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# An escape of a character that is not ASCII: a notebook written with ensure_ascii.
_NON_ASCII_ESCAPE = re.compile(r"\\u(?!00[0-7])[0-9a-fA-F]{4}")


def _character(raw: str) -> str:
    if raw[0] != "\\":
        return raw
    if raw[1] != "u":
        return _ESCAPED[raw[1]]
    if len(raw) == 12:  # a surrogate pair
        high, low = int(raw[2:6], 16), int(raw[8:12], 16)
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    return chr(int(raw[2:6], 16))


class _Written(NamedTuple):
    """A source as written: the characters' raw text, a list's item boundaries among them
    (each an empty character whose raw text closes an item and opens the next)."""

    tokens: list[tuple[str, str]]  # (character, or "" for a boundary; its raw text)
    opening: str  # the text before the first item's quote ("[\\n    "; "" for a string)
    closing: str  # the text after the last item's quote ("\\n   ]"; "" for a string)
    boundary: str  # the raw text of a new boundary ('",\\n    "')
    per_line: bool  # whether a list has an item per line (then new lines are items)


def _written(text: str, span: _Span) -> _Written:
    """The source at ``span`` (a string, or a list of strings) as written in ``text``."""
    if isinstance(span.value, str):
        return _Written(_string_tokens(text, span), "", "", "", per_line=False)
    items: list[_Span] = span.value
    if not items:
        return _Written([], "", "", "", per_line=True)
    tokens: list[tuple[str, str]] = []
    separators = []
    for index, item in enumerate(items):
        if index:
            separator = text[items[index - 1].end - 1 : item.start + 1]
            separators.append(separator)
            tokens.append(("", separator))
        tokens += _string_tokens(text, item)
    opening, closing = text[span.start : items[0].start], text[items[-1].end : span.end]
    if separators:
        boundary = Counter(separators).most_common(1)[0][0]
    else:
        boundary = '",' + (opening[1:] or (" " if text[span.start - 1] == " " else "")) + '"'
    # (an item per line: each line end of the joined text is an item's end)
    ends, index, per_line = set(), 0, True
    for character, _ in tokens:
        if not character:
            ends.add(index)
        index += len(character)
    offset = 0
    for line in python_lines("".join(c for c, _ in tokens), keepends=True)[:-1]:
        offset += len(line)
        per_line = per_line and offset in ends
    return _Written(tokens, opening, closing, boundary, per_line)


def _string_tokens(text: str, span: _Span) -> list[tuple[str, str]]:
    if not isinstance(span.value, str):
        raise NotebookError("a cell's source is not text (a string or lines)")
    raws = _TOKEN.findall(text, span.start + 1, span.end - 1)
    tokens = [(_character(raw), raw) for raw in raws]
    if "".join(c for c, _ in tokens) != span.value:  # (cannot be: the scanner read these)
        raise NotebookError("a cell's source is not read back as it was written")
    return tokens


def _empty_list(text: str, span: _Span) -> _Written:
    """An empty list that gets lines: laid out as the lines around it are indented."""
    line_start = text.rfind("\n", 0, span.start) + 1
    indent = re.match(r"[ \t]*", text[line_start:]).group()  # type: ignore[union-attr]
    unit = re.match(r"\{\s*?\n([ \t]*)", text)
    if unit is None:  # (one line)
        return _Written([], "[", "]", '", "', per_line=True)
    end = "\r\n" if text[line_start - 2 : line_start] == "\r\n" else "\n"
    inner = indent + unit.group(1)
    return _Written([], "[" + end + inner, end + indent + "]", '",' + end + inner + '"', True)


def _rewritten(written: _Written, new: str, ascii_only: bool) -> str:
    """The raw text of ``new`` in the place of ``written``: its unchanged lines, and the
    unchanged start and end of each changed one, as they were written."""
    tokens = written.tokens
    old = "".join(character for character, _ in tokens)
    # where each character's token is (a boundary before a character belongs to the line
    # before it: a line's tokens end with its item's boundary)
    at = [index for index, (character, _) in enumerate(tokens) if character]
    at.append(len(tokens))
    at[0] = 0

    def raw(start: int, end: int) -> str:
        return "".join(r for _, r in tokens[at[start] : at[end]])

    def fresh(text: str, followed: bool) -> str:
        """``text`` written anew; a list's item per line, and a boundary after its last line
        end when more text ``followed``."""
        lines = python_lines(text, keepends=True) if written.per_line else [text]
        pieces = (json.dumps(line, ensure_ascii=ascii_only)[1:-1] for line in lines)
        joined = written.boundary.join(pieces)
        if written.per_line and followed and text.endswith(("\n", "\r")):
            joined += written.boundary  # (the next line is an item of its own)
        return joined

    old_lines, new_lines = python_lines(old, keepends=True), python_lines(new, keepends=True)
    starts = [0]
    for line in old_lines:
        starts.append(starts[-1] + len(line))
    new_starts = [0]
    for line in new_lines:
        new_starts.append(new_starts[-1] + len(line))
    if len(old_lines) == len(new_lines):
        opcodes = [
            ("equal" if a == b else "replace", i, i + 1, i, i + 1)
            for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True))
        ]
    else:
        matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
        opcodes = matcher.get_opcodes()  # type: ignore[assignment]
    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes:
        a, b = starts[i1], starts[i2]
        if tag == "equal":
            out.append(raw(a, b))
            continue
        before, after = old[a:b], new[new_starts[j1] : new_starts[j2]]
        same = _common(before, after)
        kept_end = _common(before[same:][::-1], after[same:][::-1])
        middle = after[same : len(after) - kept_end]
        out.append(raw(a, a + same))
        out.append(fresh(middle, followed=bool(kept_end) or b < len(old)))
        out.append(raw(b - kept_end, b))
    body = "".join(out)
    return written.opening + '"' + body + '"' + written.closing


def _common(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` start with alike."""
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _cell_spans(root: _Span) -> list[_Span]:
    """The cells of the notebook ``root`` (as :func:`~.notebook.raw_cells` finds them)."""
    notebook = root.value
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON is not an object")
    cells = notebook.get("cells")
    if cells is None or cells.value is None:
        sheets = notebook.get("worksheets")
        if sheets is not None and isinstance(sheets.value, list):
            found = []
            for sheet in sheets.value:
                if isinstance(sheet.value, dict) and "cells" in sheet.value:
                    found += sheet.value["cells"].value
            return found
    if cells is None or not isinstance(cells.value, list):
        raise NotebookError("not a notebook: no 'cells' list")
    return list(cells.value)


def replace_sources(text: str, sources: Mapping[int, str]) -> str:
    """``text`` (a notebook's JSON, without a BOM) with the source of each cell numbered in
    ``sources`` (1-based, among all cells) replaced by its new text, written as the old one
    was; every other byte as it was.  Raises :class:`~.notebook.NotebookError` saying why
    it cannot (the result would not read back as the notebook with those sources)."""
    try:
        root = _spanned(text)
    except (ValueError, RecursionError) as error:
        raise NotebookError(f"not valid notebook JSON ({error})") from None
    cells = _cell_spans(root)
    # New text is escaped as the notebook escapes what is not ASCII (nbformat does not).
    ascii_only = text.isascii() and _NON_ASCII_ESCAPE.search(text) is not None
    edits: list[tuple[int, int, str]] = []
    for number, new in sources.items():
        cell = cells[number - 1].value if 0 < number <= len(cells) else None
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {number} is not in the notebook")
        span = cell.get("source", cell.get("input"))
        if span is None or not isinstance(span.value, (str, list)):
            raise NotebookError(f"cell {number}: its source is not text (a string or lines)")
        if isinstance(span.value, list) and not span.value and new:
            written = _empty_list(text, span)
        else:
            written = _written(text, span)
        edits.append((span.start, span.end, _rewritten(written, new, ascii_only)))
    pieces, at = [], 0
    for start, end, raw in sorted(edits):
        pieces += [text[at:start], raw]
        at = end
    result = "".join(pieces) + text[at:]
    _verify(text, result, sources)
    return result


def _verify(old: str, new: str, sources: Mapping[int, str]) -> None:
    """That ``new`` reads as ``old`` with only the given sources changed, to the given text,
    each still a string or a list of strings as it was."""
    try:
        before, after = _plain(old), _plain(new)
    except (ValueError, RecursionError) as error:
        raise NotebookError(f"the fixed notebook would not be valid JSON ({error})") from None
    old_cells, new_cells = raw_cells(before), raw_cells(after)
    for number, text in sources.items():
        was, cell = old_cells[number - 1], new_cells[number - 1]
        key = "source" if "source" in was else "input"
        value = cell.get(key) if isinstance(cell, dict) else None
        joined = "".join(value) if isinstance(value, list) else value
        if type(value) is not type(was[key]) or joined != text:
            raise NotebookError(f"cell {number}: its fixed source would not read back")
        if isinstance(value, list) and not all(isinstance(line, str) for line in value):
            raise NotebookError(f"cell {number}: its fixed source would not read back")
        was[key] = cell[key] = None
    if before != after:
        raise NotebookError("writing the fixed cells would change more of the notebook")
