"""Each renderer's cost per call, as a ratio to the hand-written equivalent.

Run: ``python benchmarks/bench_renderers.py``.  Times are the minimum over repeats of timeit
(the least disturbed run); the ratio is what to read, since absolute times depend on the machine.
The templates are built once, as an i-literal in a loop would reuse its constant parts.
"""

from __future__ import annotations

import shlex
import sys
import timeit
from collections.abc import Callable

from markupsafe import Markup, escape

from ipy_istring._html_contexts import analyse
from ipy_istring.html import html
from ipy_istring.shell import argv, sh
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

src, dst, pattern = "my file.txt", "/tmp/out dir/", "*.py"
user_id, name, table = 42, "O'Brien", "users"
title, body = 'Tom & "Jerry"', "<b>hi</b>"

SH = InterpolationTemplate(
    "cp -- ", Interpolation(src, "src"), " ", Interpolation(dst, "dst"),
    " && ls ", Interpolation(pattern, "pattern"),
)  # fmt: skip
SQL = InterpolationTemplate(
    "select id, name from ", Interpolation(table, "table", None, "i"),
    " where id = ", Interpolation(user_id, "user_id"), " and name = ", Interpolation(name, "name"),
)  # fmt: skip
HTML = InterpolationTemplate(
    '<p title="', Interpolation(title, "title"), '">', Interpolation(body, "body"), "</p>"
)
# A trusted value (an earlier html() result): html() parses the page to check its structure.
row = Markup("<td>1</td><td>Tom &amp; Jerry</td>")
HTML_TRUSTED = InterpolationTemplate(
    '<tr class="', Interpolation(title, "title"), '">', Interpolation(row, "row"), "</tr>"
)

CASES: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
    (
        "sh",
        lambda: sh(SH),
        lambda: f"cp -- {shlex.quote(src)} {shlex.quote(dst)} && ls {shlex.quote(pattern)}",
    ),
    (
        "argv",
        lambda: argv(
            InterpolationTemplate(
                "cp -- ", Interpolation(src, "src"), " ", Interpolation(dst, "dst")
            )
        ),
        lambda: ["cp", "--", src, dst],
    ),
    (
        "sql",
        lambda: sql(SQL),
        lambda: (
            'select id, name from "' + table.replace('"', '""') + '" where id = ? and name = ?',
            (user_id, name),
        ),
    ),
    (
        "html",
        lambda: html(HTML),
        lambda: Markup(f'<p title="{escape(title)}">{escape(body)}</p>'),
    ),
    (
        "html+trusted",
        lambda: html(HTML_TRUSTED),
        lambda: Markup(f'<tr class="{escape(title)}">{row}</tr>'),
    ),
    (
        # The first render of a literal: its context analysis (then cached per literal).
        "html 1st",
        lambda: (analyse.cache_clear(), html(HTML))[1],
        lambda: Markup(f'<p title="{escape(title)}">{escape(body)}</p>'),
    ),
]
if sys.version_info >= (3, 14):  # tdom renders native t-strings only
    try:
        from string.templatelib import Interpolation as TInterpolation
        from string.templatelib import Template

        from tdom import html as tdom_html
    except ImportError:
        pass
    else:
        TDOM = Template(
            "<p title=", TInterpolation(title, "title"), ">", TInterpolation(body, "body"), "</p>"
        )
        CASES.append(("html/tdom", lambda: html(HTML), lambda: str(tdom_html(TDOM))))


def best(function: Callable[[], object], number: int = 20_000, repeat: int = 5) -> float:
    """Seconds per call: the minimum over ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def main() -> None:
    print(f"{'renderer':<8} {'renderer µs':>12} {'by hand µs':>11} {'ratio':>7}")
    for label, renderer, by_hand in CASES:
        if not label.endswith("/tdom"):  # tdom writes attributes its own way
            assert renderer() == by_hand(), label  # the comparison is fair only if they agree
        number = 200 if label == "html 1st" else 20_000
        ours, theirs = best(renderer, number), best(by_hand, number)
        print(f"{label:<8} {ours * 1e6:>12.2f} {theirs * 1e6:>11.2f} {ours / theirs:>6.1f}x")


if __name__ == "__main__":
    main()
