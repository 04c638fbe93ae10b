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

__all__ = ["SAMPLE", "SQL_VALUE_BEFORE", "role_refusal"]

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


def role_refusal(
    strings: Sequence[str], fields: Sequence[tuple[str, str | None]], destination: str
) -> str | None:
    """The renderer's reason to refuse the command or query made of ``strings`` (the static
    text, one more than the fields) and ``fields`` (each its expression and the code's own
    text for a constant, or None for a validated value), or None when it renders (or
    refuses only where a field is written)."""
    from ..fields import RenderError
    from ..template import Interpolation, InterpolationTemplate

    parts: list[str | Interpolation] = [strings[0]]
    for index, (expression, text) in enumerate(fields):
        after = strings[index + 1]
        if text is not None:  # a constant: the code's own text, as the f-string has it
            parts[-1] = f"{parts[-1]}{text}{after}"
            continue
        before = parts[-1]
        assert isinstance(before, str)
        spec = ""
        if destination == "sql":
            spec = "" if SQL_VALUE_BEFORE.search(before) else "i"
            # (`{fn}()`: a call; a space lets the renderer see the name, not the glue)
            after = " " + after if after.startswith("(") else after
        parts.append(Interpolation(SAMPLE, expression, None, spec))
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
        reason = str(error)
        return None if any(words in reason for words in _PLACEMENT) else reason
    return None
