"""The ``sh`` and ``argv`` renderers: an i-string as a POSIX shell command, safely.

``os.system(sh(i'cat {file}'))``: every interpolated value becomes exactly one shell word
(``shlex.quote`` of its formatted text) while the static text passes through as written.
``subprocess.run(argv(i'cat {file}'))``: the same command as an argument list for
``shell=False``, each interpolation exactly one element.

Field rules, for both:

* ``{x}`` — ``str`` as is, ``os.PathLike`` through ``os.fspath``, ``bytes`` through
  ``os.fsdecode`` (so undecodable file names survive the round trip); anything else
  ``format(x)``.  A conversion and spec apply first (``{n:>5}``, ``{x!r}``), as in an f-string.
* ``{files:*}`` — a list or tuple spreads into one word per item; without ``:*`` a list or
  tuple is refused, because the f-string's ``['a', 'b']`` is never the command you meant.

Refused, with the reason and the fix: a NUL byte in a value (no argument can carry one); a
field inside quotes written in the static text (``i"echo '{x}'"``), inside ``$'...'`` or in a
comment.  ``argv`` also refuses shell syntax in the static text (``|``, ``;``, ``$HOME``...),
which would reach the program as literal words with no shell to interpret it.

The static text is scanned once per distinct template (cached), with a small state machine.
This module imports nothing from IPython.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from .fields import RenderError, field_text, format_field
from .template import as_template

__all__ = ["argv", "sh"]

_SUPPORTED = (
    "a conversion (!s, !r, !a) and any format spec the value's type accepts, "
    "or ':*' alone to spread a list or tuple into one word per item"
)

# Scanner states.
_NORMAL, _SINGLE, _DOUBLE, _ANSI, _COMMENT = range(5)
_UNQUOTE = (
    "where quoting its value would break. Remove the quotes around the field: the renderer "
    'quotes every value itself, e.g. i"echo {x}" rather than i"echo \'{x}\'"'
)
_WHERE = {
    _SINGLE: f"inside single quotes written in the static text, {_UNQUOTE}",
    _DOUBLE: f"inside double quotes written in the static text, {_UNQUOTE}",
    _ANSI: f"inside $'...' written in the static text, {_UNQUOTE}",
    _COMMENT: "inside a shell comment, so the shell would never see it. Move it out of the "
    "comment (or end the comment with a newline first)",
}
# Characters that end a word outside quotes; a '#' starts a comment only at a word start.
_BREAKS = frozenset(" \t\n;&|()<>")
_BLANKS = frozenset(" \t\n")
_OPERATORS = frozenset(";&|()<>`$")


class _Plan(NamedTuple):
    """What the scan of one template's static strings found (cached per strings tuple)."""

    refusals: tuple[str | None, ...]  # per field: why it cannot go there, or None
    alone: tuple[bool, ...]  # per field: a whole word of its own (needed by ':*')
    argv_parts: tuple[tuple[str | None, ...], ...]  # per string: text to append, None = break
    argv_problem: str | None  # shell syntax argv cannot honour, described


@lru_cache(maxsize=512)
def _plan(strings: tuple[str, ...]) -> _Plan:
    state = _NORMAL
    # Command substitution nests a fresh unquoted context: remember what to return to.
    stack: list[tuple[str, int]] = []
    refusals: list[str | None] = []
    alone: list[bool] = []
    argv_parts: list[tuple[str | None, ...]] = []
    argv_problem: str | None = None
    at_break = True  # the previous character ended a word (or nothing came before)

    for index, string in enumerate(strings):
        if index:
            refusals.append(_WHERE.get(state))
            alone.append(at_break and (not string or string[0] in _BREAKS))
            at_break = False
        parts: list[str | None] = []
        text: list[str] = []

        def problem(what: str) -> None:
            nonlocal argv_problem
            if argv_problem is None:
                argv_problem = what

        i = 0
        n = len(string)
        while i < n:
            c = string[i]
            if state == _NORMAL:
                if c in _BLANKS:
                    if text:
                        parts.append("".join(text))
                        text.clear()
                    parts.append(None)
                    at_break = True
                elif c == "#" and at_break:
                    state = _COMMENT
                    problem("a comment ('#')")
                elif c == "'":
                    state = _SINGLE
                    text.append("")  # an empty pair of quotes still makes a word
                    at_break = False
                elif c == '"':
                    state = _DOUBLE
                    text.append("")
                    at_break = False
                elif c == "\\":
                    if i + 1 < n and string[i + 1] == "\n":
                        i += 1  # line continuation: both characters vanish
                    elif i + 1 < n:
                        i += 1
                        text.append(string[i])
                    else:
                        text.append("\\")
                    at_break = False
                elif c == "$" and string.startswith("$'", i):
                    state = _ANSI
                    problem("$'...' quoting")
                    i += 1
                    at_break = False
                elif c == "$" and string.startswith("$(", i):
                    stack.append(("$(", _NORMAL))
                    problem("command substitution ('$(')")
                    i += 1
                    at_break = True
                elif c == "`":
                    if stack and stack[-1][0] == "`":
                        state = stack.pop()[1]
                    else:
                        stack.append(("`", _NORMAL))
                    problem("command substitution ('`')")
                    at_break = True
                elif c == "(":
                    stack.append(("(", _NORMAL))
                    problem("'('")
                    at_break = True
                elif c == ")":
                    if stack and stack[-1][0] in ("(", "$("):
                        state = stack.pop()[1]
                    problem("')'")
                    at_break = True
                elif c in _OPERATORS:
                    problem(f"{c!r}")
                    text.append(c)
                    at_break = c in _BREAKS
                else:
                    text.append(c)
                    at_break = False
            elif state == _SINGLE:
                if c == "'":
                    state = _NORMAL
                else:
                    text.append(c)
            elif state == _DOUBLE:
                if c == '"':
                    state = _NORMAL
                elif c == "\\" and i + 1 < n and string[i + 1] in '$`"\\\n':
                    i += 1
                    if string[i] != "\n":
                        text.append(string[i])
                elif c == "$" and string.startswith("$(", i):
                    stack.append(("$(", _DOUBLE))
                    state = _NORMAL
                    problem("command substitution ('$(')")
                    i += 1
                    at_break = True
                elif c == "`":
                    stack.append(("`", _DOUBLE))
                    state = _NORMAL
                    problem("command substitution ('`')")
                    at_break = True
                else:
                    if c == "$":
                        problem("parameter expansion ('$')")
                    text.append(c)
            elif state == _ANSI:
                if c == "\\":
                    i += 1
                elif c == "'":
                    state = _NORMAL
            elif c == "\n":  # _COMMENT
                state = _NORMAL
                at_break = True
                parts.append(None)
            i += 1
        if text:
            parts.append("".join(text))
        argv_parts.append(tuple(parts))
    if state in (_SINGLE, _DOUBLE, _ANSI):
        problem("an unclosed quote")
    return _Plan(tuple(refusals), tuple(alone), tuple(argv_parts), argv_problem)


def _word(value: object, interpolation: Any, position: int, renderer: str) -> str:
    """The text of one word: the value converted and formatted, refused if unsafe."""
    if interpolation.conversion is None and not interpolation.format_spec:
        if isinstance(value, str):
            text = value
        elif isinstance(value, os.PathLike | bytes):
            text = os.fsdecode(value)
        elif isinstance(value, list | tuple):
            raise RenderError(
                f"{renderer}(): {field_text(interpolation, position)} is a "
                f"{type(value).__name__}, which would become one word spelled like Python's "
                f"repr. Write {{{interpolation.expression or '...'}:*}} to pass each item as "
                "its own word."
            )
        else:
            text = format(value)
    else:
        if isinstance(value, os.PathLike | bytes) and interpolation.conversion is None:
            value = os.fsdecode(value)
        text = format_field(value, interpolation, position, renderer, _SUPPORTED)
    if "\0" in text:
        raise RenderError(
            f"{renderer}(): the value of {field_text(interpolation, position)} contains a NUL "
            "byte, which no command-line argument can carry. Remove it from the value."
        )
    return text


def _spread(value: object, interpolation: Any, position: int, renderer: str) -> list[str]:
    """The words of a ``{files:*}`` field: one per item of a list or tuple."""
    if not isinstance(value, list | tuple):
        raise RenderError(
            f"{renderer}(): {field_text(interpolation, position)} spreads a list or tuple into "
            f"words, but the value is a {type(value).__name__}. Pass a list or tuple, or drop "
            "':*' to pass the value as one word."
        )
    item_field = _ItemField(interpolation.expression, interpolation.conversion)
    return [_word(item, item_field, position, renderer) for item in value]


class _ItemField(NamedTuple):
    """An item of a spread list, formatted with the field's conversion and no spec."""

    expression: str
    conversion: Any
    format_spec: str = ""


def _check(plan: _Plan, interpolations: Iterable[Any], renderer: str) -> None:
    for position, (interpolation, refusal) in enumerate(
        zip(interpolations, plan.refusals, strict=True), start=1
    ):
        field = field_text(interpolation, position)
        if refusal is not None:
            raise RenderError(f"{renderer}(): {field} is {refusal.replace('{x}', field)}.")
        if interpolation.format_spec == "*" and not plan.alone[position - 1]:
            raise RenderError(
                f"{renderer}(): {field} spreads into several words, so it must stand as "
                "words of its own, with a space (or the start or end) on both sides."
            )


def sh(template: object) -> str:
    """Render an i-string as a POSIX shell command line: each value exactly one word.

    ``sh(i'cat {file}')`` → ``"cat 'my file.txt'"``; ``{files:*}`` spreads a list or tuple.
    """
    t = as_template(template, renderer="sh")
    plan = _plan(t.strings)
    interpolations = t.interpolations
    _check(plan, interpolations, "sh")
    pieces = [t.strings[0]]
    for position, (interpolation, string) in enumerate(
        zip(interpolations, t.strings[1:], strict=True), start=1
    ):
        value = interpolation.value
        if interpolation.format_spec == "*":
            pieces.append(" ".join(map(shlex.quote, _spread(value, interpolation, position, "sh"))))
        else:
            pieces.append(shlex.quote(_word(value, interpolation, position, "sh")))
        pieces.append(string)
    return "".join(pieces)


def argv(template: object) -> list[str]:
    """Render an i-string as an argument list for ``subprocess.run(..., shell=False)``.

    ``argv(i'cp {src} {dst}')`` → ``['cp', src, dst]``: the static text is split into words as
    a POSIX shell would (quotes removed), each field is exactly one element, ``{files:*}`` one
    element per item.
    """
    t = as_template(template, renderer="argv")
    plan = _plan(t.strings)
    if plan.argv_problem is not None:
        raise RenderError(
            f"argv(): the static text uses {plan.argv_problem}, which needs a shell, and "
            "argv() runs none: the program would receive it as a literal word. Use "
            "sh() with os.system or subprocess.run(..., shell=True), or remove it."
        )
    interpolations = t.interpolations
    _check(plan, interpolations, "argv")
    words: list[str] = []
    current: list[str] | None = None
    for index, parts in enumerate(plan.argv_parts):
        if index:
            interpolation = interpolations[index - 1]
            if interpolation.format_spec == "*":
                # _check made sure the field stands alone, so no word is open here.
                words.extend(_spread(interpolation.value, interpolation, index, "argv"))
            else:
                word = _word(interpolation.value, interpolation, index, "argv")
                if current is None:
                    current = [word]
                else:
                    current.append(word)
        for part in parts:
            if part is None:
                if current is not None:
                    words.append("".join(current))
                    current = None
            elif current is None:
                current = [part]
            else:
                current.append(part)
    if current is not None:
        words.append("".join(current))
    return words
