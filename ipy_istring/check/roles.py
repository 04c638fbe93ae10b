"""Whether the renderer refuses a validated value for the role it has in a command or query.

A value a pattern validated (``re.fullmatch(r"[\\w.-]+", ref)``) cannot break out of its
place, so the f-string it is formatted into is no injection: the check reports none.  Yet
``sh`` and ``sql`` refuse some places whatever the value's characters, for what a value there
chooses: ``git checkout {ref}`` writes the tree the ref names with git's hooks on (husky's
core.hooksPath in the tree runs them), ``select * from {fn} ()`` chooses the function that
runs, ``set {k} = 1`` the setting.  :func:`role_refusal` asks the renderer: it builds the
template the i-string would be, with a plain word where each validated value stands and the
code's own text where a constant does, and gives the renderer's reason when it refuses.

Refusals about where the field is written, which a validated value survives (inside quotes or
a comment, glued to a word), are not a role's: those give None.  The renderers are imported
only when this runs (a validated value reaching a sink), so the check pays nothing otherwise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

try:  # (the regular expression parser: re's own from Python 3.11)
    from re import _constants, _parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover
    import sre_constants as _constants
    import sre_parse as _parser

__all__ = ["SAMPLE", "SQL_VALUE_BEFORE", "role_refusal", "samples"]

# Text a SQL parameter may follow: an operator, an opening parenthesis, or a keyword that
# takes a value.  (Anything else — `from {t}`, `select {col}` — needs an identifier or SQL.)
SQL_VALUE_BEFORE = re.compile(
    r"(=|<|>|\(|\+|-|\*|/|\|\||\b(like|ilike|limit|offset|between|then|else|when|is|not|in)"
    r"|\b(values|in)\s*\([^()]*,)\s*$",
    re.IGNORECASE,
)

# The word a validated value stands as: letters only, which every such check allows
# (`\w+`, `[a-z][a-z0-9-]*`, `isidentifier()`), and no keyword or table of a database's.
SAMPLE = "main"

# Refusals of where a field is written, not of its role: a validated value stays one
# token there (inside quotes written in the static text or a comment; glued to a word,
# `{t}_archive`); of the static text itself (`@stage`, a placeholder to sqlite, which only
# matters to parameters the f-string never had); DuckDB's reading of a table name as a file,
# which needs a `.` or `/` no such value has; and a refusal whose remedy is a check of the
# value in Python, which the code did (kill's process id: digits, `isdigit()`).
_PLACEMENT = (
    "Check in Python that the value",
    "written in the static text",
    "): the static text ",
    "comment",
    "touches its neighbours",
    "as a file or URL",
)
# A refusal whose remedy is a check of the value in Python, which the code did: not a role's
# when a sample other than SAMPLE alone meets it (ssh's destination `..`, kill's `0`).
_CHECKED_IN_PYTHON = ("Check in Python that the value", "Check the value in Python")
# A refusal of a file a value names in $HOME that a later command may read there, which a
# value names only with a leading dot (`.npmrc`; no `/` or `~` passes a plain pattern): not a
# role's unless a sample the pattern allows starts with one (`git tag -s {v} && git push`,
# `v` a `v\d+\.\d+\.\d+`, writes no such file); the commands before the reader are asked.
_HIDDEN = "under hidden names there"
_SEPARATOR = re.compile(r"&&|\|\||[;|\n]")
# Values a pattern may allow besides SAMPLE, with a role of their own: a dot makes a table
# name DuckDB reads as a file (`secret.csv`); `.` and `..` are directories.
_CANDIDATES = (".", "..", "a.b", "a.csv")


def samples(pattern: str) -> tuple[str, ...]:
    """The values besides :data:`SAMPLE` the role check tries for a value ``pattern`` (a
    plain pattern's, :data:`.flow._PLAIN_PATTERN`) validated: the candidates it allows, and
    its shortest value with a dot wherever it allows one (``\\w+\\.parquet``: a.parquet)."""
    try:
        allowed = [c for c in _CANDIDATES if re.fullmatch(pattern, c)]
        dotted = "".join(_shortest(_parser.parse(pattern)))
    except (re.error, ValueError):
        return ()
    if "." in dotted and dotted not in allowed and re.fullmatch(pattern, dotted):
        allowed.append(dotted)
    return tuple(allowed)


def _shortest(items: Any) -> list[str]:
    """Characters of the shortest string the parsed pattern ``items`` matches, a dot where
    it allows one (a letter otherwise); ValueError for what a plain pattern does not have."""
    out: list[str] = []
    for op, arg in items:
        if op is _constants.LITERAL:
            out.append(chr(arg))
        elif op is _constants.IN:
            out.append("." if (_constants.LITERAL, ord(".")) in arg else _first_of(arg))
        elif op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT):
            low, _, item = arg
            out.extend(_shortest(item) * max(low, 1))
        elif op is not _constants.AT:
            raise ValueError(op)
    return out


def _first_of(members: Any) -> str:
    """A character of a class's ``members``: a literal, a range's first, 0 for ``\\d``, a
    letter for ``\\w``."""
    op, arg = members[0]
    if op is _constants.LITERAL:
        return chr(arg)
    if op is _constants.RANGE:
        return chr(arg[0])
    return "0" if arg is _constants.CATEGORY_DIGIT else "a"


def role_refusal(
    strings: Sequence[str],
    fields: Sequence[tuple[str, str | tuple[str, ...]]],
    destination: str,
) -> str | None:
    """The renderer's reason to refuse the command or query made of ``strings`` (the static
    text, one more than the fields) and ``fields`` (each its expression and the code's own
    text for a constant, or for a validated value the values besides :data:`SAMPLE` its
    pattern allows, :func:`samples`), or None when it renders (or refuses only where a field
    is written).  With SAMPLE in each validated place first; when that renders, the place is
    no refusal's, and a refusal of another sample is of the value's characters."""
    reason = _refusal(strings, fields, destination, -1, SAMPLE)
    if reason is not None:
        if any(words in reason for words in _PLACEMENT):
            return None
        if _HIDDEN in reason and not any(
            sample.startswith(".") for _, text in fields for sample in _samples_of(text)
        ):
            return _before_readers(strings, fields, destination)
        return reason
    for index, (_, text) in enumerate(fields):
        for sample in _samples_of(text):
            reason = _refusal(strings, fields, destination, index, sample)
            if reason is not None and not any(w in reason for w in _CHECKED_IN_PYTHON):
                return reason
    return None


def _before_readers(
    strings: Sequence[str],
    fields: Sequence[tuple[str, str | tuple[str, ...]]],
    destination: str,
) -> str | None:
    """The role refusal of the commands up to a field's own, for each field a command follows
    (the text after it cut at the next ``&&``, ``||``, ``;``, ``|`` or line): what the
    renderer refuses besides a later command reading a hidden file, which it reports first
    (``git checkout {ref} && make``: git's hooks)."""
    for index in range(len(fields)):
        cut = _SEPARATOR.search(strings[index + 1])
        if cut is not None:
            head = [*strings[: index + 1], strings[index + 1][: cut.start()]]
            reason = role_refusal(head, fields[: index + 1], destination)
            if reason is not None:
                return reason
    return None


def _samples_of(text: str | tuple[str, ...]) -> tuple[str, ...]:
    """The samples of a validated field's ``text`` (none for a constant's)."""
    return () if isinstance(text, str) else text


def _refusal(
    strings: Sequence[str],
    fields: Sequence[tuple[str, str | tuple[str, ...]]],
    destination: str,
    chosen: int,
    sample: str,
) -> str | None:
    """The renderer's reason to refuse the template with ``sample`` as the value of the
    validated field ``chosen`` (:data:`SAMPLE` in the others), or None when it renders."""
    from ..fields import RenderError
    from ..template import Interpolation, InterpolationTemplate

    parts: list[str | Interpolation] = [strings[0]]
    for index, (expression, text) in enumerate(fields):
        after = strings[index + 1]
        if isinstance(text, str):  # a constant: the code's own text, as the f-string has it
            parts[-1] = f"{parts[-1]}{text}{after}"
            continue
        before = parts[-1]
        assert isinstance(before, str)
        spec = ""
        if destination == "sql":
            spec = "" if SQL_VALUE_BEFORE.search(before) else "i"
            # (`{fn}()`: a call; a space lets the renderer see the name, not the glue)
            after = " " + after if after.startswith("(") else after
        value = sample if index == chosen else SAMPLE
        parts.append(Interpolation(value, expression, None, spec))
        parts.append(after)
    template = InterpolationTemplate(*parts)
    try:
        if destination == "sql":
            from ..sql import sql

            sql(template)
        else:
            from ..shell import sh

            sh(template)
    except RenderError as error:
        return str(error)
    return None
