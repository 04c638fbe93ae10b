"""Each renderer's cost per call, as a ratio to the hand-written equivalent.

Run: ``python benchmarks/bench_renderers.py``.  Times are the minimum over repeats of timeit
(the least disturbed run); the ratio is what to read, since absolute times depend on the machine.
The templates are built once, as an i-literal in a loop would reuse its constant parts.

sh/argv place fields by the shell grammar and lex every rendered word that holds a value again
(ipy_istring/_shell_grammar.py).  Against the renderer before that change (commit 4e2c2a6), in
instructions per call (valgrind --tool=callgrind, Python 3.12, 3000 calls; deterministic where
timings on a shared machine are not): sh 107k vs 44k before (2.4x; shlex.quote by hand 15k),
sh with a 20-item spread 469k vs 158k (3.0x; shlex.join 100k), argv 46k vs 27k (1.7x).
"""

from __future__ import annotations

import shlex
import timeit
from collections.abc import Callable

from markupsafe import Markup, escape

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
files = [f"photo {n}.jpg" for n in range(20)]
SH_SPREAD = InterpolationTemplate("rm -- ", Interpolation(files, "files", None, "*"))
ARGV = InterpolationTemplate("cp -- ", Interpolation(src, "src"), " ", Interpolation(dst, "dst"))
SQL = InterpolationTemplate(
    "select id, name from ", Interpolation(table, "table", None, "i"),
    " where id = ", Interpolation(user_id, "user_id"), " and name = ", Interpolation(name, "name"),
)  # fmt: skip
HTML = InterpolationTemplate(
    '<p title="', Interpolation(title, "title"), '">', Interpolation(body, "body"), "</p>"
)

CASES: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
    (
        "sh",
        lambda: sh(SH),
        lambda: f"cp -- {shlex.quote(src)} {shlex.quote(dst)} && ls {shlex.quote(pattern)}",
    ),
    ("sh :*", lambda: sh(SH_SPREAD), lambda: "rm -- " + shlex.join(files)),
    ("argv", lambda: argv(ARGV), lambda: ["cp", "--", src, dst]),
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
]


def best(function: Callable[[], object], number: int = 20_000, repeat: int = 5) -> float:
    """Seconds per call: the minimum over ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def main() -> None:
    print(f"{'renderer':<8} {'renderer µs':>12} {'by hand µs':>11} {'ratio':>7}")
    for label, renderer, by_hand in CASES:
        assert renderer() == by_hand(), label  # the comparison is fair only if they agree
        ours, theirs = best(renderer), best(by_hand)
        print(f"{label:<8} {ours * 1e6:>12.2f} {theirs * 1e6:>11.2f} {ours / theirs:>6.1f}x")


if __name__ == "__main__":
    main()
