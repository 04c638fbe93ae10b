"""Each renderer's cost per call, as a ratio to the hand-written equivalent.

Run: ``python benchmarks/bench_renderers.py`` (``--quick``: a smoke run).  Times are CPU time,
the best of repeats (the least disturbed run); the ratio is what to read, since absolute times
depend on the machine.
The templates are built once, as an i-literal in a loop would reuse its constant parts.

sh/argv place fields by the shell grammar and lex every rendered word that holds a value again
(ipy_istring/_shell_grammar.py).  Against the renderer before that change (commit 4e2c2a6), in
instructions per call (valgrind --tool=callgrind, Python 3.12, 3000 calls; deterministic where
timings on a shared machine are not): sh 107k vs 44k before (2.4x; shlex.quote by hand 15k),
sh with a 20-item spread 469k vs 158k (3.0x; shlex.join 100k), argv 46k vs 27k (1.7x).
"""

from __future__ import annotations

import shlex
import sys
import time
from collections.abc import Callable

from _timing import best
from _timing import table as print_table
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


SQL_PARAMS_ONLY = InterpolationTemplate(
    "select id, name from users where id = ", Interpolation(user_id, "user_id"),
    " and name = ", Interpolation(name, "name"),
)  # fmt: skip
SQL_LITERAL = InterpolationTemplate(
    "select id from users where name = ", Interpolation(name, "name", None, "l")
)


def sql_peers() -> list[tuple[str, Callable[[], object], Callable[[], object]]]:
    """sql() beside psycopg's own composition (``psycopg.sql``), when psycopg is installed."""
    peers: list[tuple[str, Callable[[], object], Callable[[], object]]] = [
        (
            "sql, parameters only",
            lambda: sql(SQL_PARAMS_ONLY),
            lambda: ("select id, name from users where id = ? and name = ?", (user_id, name)),
        ),
        (
            "sql, a :l literal",
            lambda: sql(SQL_LITERAL),
            lambda: (
                "select id from users where name = '" + name.replace("'", "''") + "'",
                (),
            ),
        ),
    ]
    try:
        from psycopg import sql as psql
    except ImportError:
        return peers
    composed = psql.SQL("select id, name from {} where id = %s and name = %s")
    peers.append(
        (
            "psycopg.sql",
            lambda: (composed.format(psql.Identifier(table)).as_string(None), (user_id, name)),
            lambda: (
                'select id, name from "' + table.replace('"', '""') + '" where id = %s and '
                "name = %s",
                (user_id, name),
            ),
        )
    )
    return peers


def sql_check_cost() -> None:
    """What re-tokenizing the whole rendered query would add, beside the render itself."""
    from ipy_istring._sql_tokens import check_pattern, dialects

    pattern = check_pattern(dialects(None, "qmark"), False)
    text = sql(SQL).sql
    render, full = best(lambda: sql(SQL), 20_000), best(lambda: pattern.findall(text), 20_000)
    print(f"{'sql: whole-query re-tokenization':<40} {full * 1e6:>8.2f} µs ({full / render:.0%} "
          "of a render; sql() checks only around each written value)")  # fmt: skip


def sql_scale() -> None:
    """One-shot times of the two inputs that were quadratic (10.9 s and 74 s before)."""
    fields = [Interpolation(n, "x") for n in range(10_000)]
    parts: list[str | Interpolation] = ["select "]
    for field in fields:
        parts += [field, ", "]
    many = InterpolationTemplate(*parts, "0")
    ids = InterpolationTemplate(
        "select 1 where 1 in ", Interpolation(list(range(20_000)), "ids", None, "in")
    )
    for label, template, style in (
        ("10,000 fields, one expression, named", many, "named"),
        ("10,000 fields, qmark", many, "qmark"),
        ("{ids:in} with 20,000 items, named", ids, "named"),
    ):
        start = time.perf_counter()
        sql(template, style)
        print(f"{label:<40} {time.perf_counter() - start:>8.3f} s")


def main() -> None:
    rows = []
    for label, renderer, by_hand in CASES + sql_peers():
        if not label.endswith("/tdom"):  # tdom writes attributes its own way
            assert renderer() == by_hand(), label  # the comparison is fair only if they agree
        number = 200 if label == "html 1st" else 20_000
        ours, theirs = best(renderer, number, 5), best(by_hand, number, 5)
        rows.append([label, f"{ours * 1e6:.2f}", f"{theirs * 1e6:.2f}", f"{ours / theirs:.1f}x"])
    print_table("Each renderer against the same result written by hand",
          ["renderer", "renderer µs", "by hand µs", "ratio"], rows)  # fmt: skip
    sql_check_cost()
    sql_scale()


if __name__ == "__main__":
    main()
