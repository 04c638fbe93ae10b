"""Benchmark evaluating an i-literal (building its template) and rendering it, as ratios to
the f-string with the same text (and, on 3.14, to the native t-string).

    python benchmarks/bench_build.py [--quick]

Each literal is timed as the rewritten code a cell runs, compiled into the timing loop
(``python -m timeit`` style) and net of the empty loop, side by side with the f-string and
the t-string in the same run.  Goals (issue 12): building ≤ 3x the f-string with one field,
≤ 1.5x with four, ≤ 1.5x the t-string on 3.14; ``format(t)`` ≤ 2x the f-string.
"""

from __future__ import annotations

import builtins
import sys

from _timing import net, ns, ratio, table

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite

NATIVE = sys.version_info >= (3, 14)
NAMESPACE = {"x": 42, "name": "world", "pi": 3.14159, "w": 10, "p": 3}
LITERALS = {
    "1 field": "'a{x}'",
    "4 fields (conversion, spec, nested spec)": "'{name!r}: {x:>5} ({x:#x}) {pi:{w}.{p}f}'",
}


def building() -> None:
    rows = []
    for label, body in LITERALS.items():
        f_time = net("f" + body, NAMESPACE, 200_000)
        i_time = net(rewrite("i" + body), NAMESPACE, 200_000)
        row = [label, ns(f_time), ns(i_time), ratio(i_time, f_time)]
        if NATIVE:
            t_time = net("t" + body, NAMESPACE, 200_000)
            row += [ns(t_time), ratio(i_time, t_time)]
        rows.append(row)
    columns = ["building", "f-string", "i-string", "i/f"]
    columns += ["t-string", "i/t"] if NATIVE else []
    table("Building an i-literal's template vs the f-string (and t-string)", columns, rows)


def rendering() -> None:
    rows = []
    for label, body in LITERALS.items():
        namespace = dict(NAMESPACE)
        namespace["t"] = eval(rewrite("i" + body), namespace)
        f_time = net("f" + body, namespace, 200_000)
        format_time = net("format(t)", namespace, 200_000)
        str_time = net("str(t)", namespace, 200_000)
        rows.append(
            [label, ns(f_time), ns(format_time), ratio(format_time, f_time), ns(str_time),
             ratio(str_time, f_time)]
        )  # fmt: skip
    table(
        "Rendering a built template: format(t) and str(t) vs evaluating the f-string",
        ["rendering", "f-string", "format(t)", "ratio", "str(t)", "ratio"],
        rows,
    )


def main() -> None:
    setattr(builtins, BUILDER_NAME, build_template)
    building()
    rendering()


if __name__ == "__main__":
    main()
