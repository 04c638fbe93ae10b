"""Benchmark the rewrite and the templates it builds, as ratios measured side by side.

    python benchmarks/bench_rewrite.py

1. What the extension adds to IPython's own ``transform_cell`` on cells without i-literals.
2. How the rewrite grows with the number of i-literals in one cell (it should be linear).
3. Building a template from an i-literal, against the f-string (and, on 3.14, the native
   t-string) with the same text; rendering it with ``format``.

Times are the best of several repeats (the machine is shared: the minimum is the least
disturbed run); what matters is the ratios, not the absolute numbers.
"""

from __future__ import annotations

import builtins
import sys
import timeit
from collections.abc import Callable

from IPython.core.interactiveshell import InteractiveShell

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite


def best(func: Callable[[], object], number: int, repeat: int = 7) -> float:
    """Seconds per call, best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(func, number=number, repeat=repeat)) / number


def plain_cell(lines: int) -> str:
    """Realistic code without i-literals (but with i, pi, strings ending in i...)."""
    block = [
        "import os, math",
        "pi = math.pi  # i'm a comment with i'x' in it",
        "def area(r, i=0):",
        "    return pi * r ** 2 + i",
        "names = ['hi', \"ski\", f'{pi:.2f}', r'\\d+i']",
        "for i, name in enumerate(names):",
        "    total = sum(len(n) for n in names if n != 'wiki')",
        "print(area(3), {k: v for k, v in zip('abc', range(3))})",
    ]
    return "\n".join(block[i % len(block)] for i in range(lines)) + "\n"


def istring_cell(count: int) -> str:
    return "".join(f"t{n} = i'value {{x}} and {{y!r:>{n % 9 + 1}}} #{n}'\n" for n in range(count))


def transform_overhead() -> None:
    shell = InteractiveShell.instance()
    print("1. transform_cell on cells without i-literals (IPython alone vs with ipy_istring)")
    print(f"   {'lines':>6} {'IPython':>12} {'+ipy_istring':>13} {'added':>8}")
    cells = {n: plain_cell(n) for n in (10, 100, 1000)}
    for lines, cell in cells.items():
        number = max(1, 2000 // lines)
        shell.run_line_magic("unload_ext", "ipy_istring")
        alone = best(lambda c=cell: shell.transform_cell(c), number)
        shell.run_line_magic("load_ext", "ipy_istring")
        loaded = best(lambda c=cell: shell.transform_cell(c), number)
        print(
            f"   {lines:>6} {alone * 1e6:>10.1f}µs {loaded * 1e6:>11.1f}µs "
            f"{(loaded / alone - 1) * 100:>7.1f}%"
        )


def rewrite_growth() -> None:
    print("2. rewrite() of one cell with N i-literals (linear: per-literal cost stays flat)")
    print(f"   {'N':>6} {'total':>10} {'per literal':>12}")
    for count in (100, 1000, 5000):
        cell = istring_cell(count)
        total = best(lambda c=cell: rewrite(c), 1, repeat=3)
        print(f"   {count:>6} {total * 1e3:>8.1f}ms {total / count * 1e6:>10.2f}µs")


def build_cost() -> None:
    print("3. evaluating one literal (a template from i'...', vs f'...' and t'...')")
    namespace = {"x": 42, "name": "world"}
    literals = {
        "no field": "'hello world'",
        "one field": "'hello {name}'",
        "three fields": "'{name!r}: {x:>5} ({x:#x})'",
    }
    native = sys.version_info >= (3, 14)
    header = f"   {'':<13} {'f-string':>9} {'i-string':>9} {'ratio':>6}"
    header += f" {'t-string':>9} {'i/t':>5}" if native else "   (no native t-strings before 3.14)"
    print(header)
    for label, body in literals.items():
        f_code = compile("f" + body, "<f>", "eval")
        i_code = compile(rewrite("i" + body), "<i>", "eval")
        f_time = best(lambda: eval(f_code, namespace), 20000)
        i_time = best(lambda: eval(i_code, namespace), 20000)
        line = (
            f"   {label:<13} {f_time * 1e9:>7.0f}ns {i_time * 1e9:>7.0f}ns {i_time / f_time:>5.1f}x"
        )
        if native:
            t_code = compile("t" + body, "<t>", "eval")
            t_time = best(lambda: eval(t_code, namespace), 20000)
            line += f" {t_time * 1e9:>7.0f}ns {i_time / t_time:>4.1f}x"
        print(line)
    template = eval(compile(rewrite("i" + literals["three fields"]), "<i>", "eval"), namespace)
    f_code = compile("f" + literals["three fields"], "<f>", "eval")
    f_time = best(lambda: eval(f_code, namespace), 20000)
    render_time = best(lambda: format(template), 20000)
    print(
        f"   format(t) of three fields: {render_time * 1e9:.0f}ns, "
        f"{render_time / f_time:.1f}x the f-string's evaluation"
    )


def main() -> None:
    setattr(builtins, BUILDER_NAME, build_template)
    print(f"Python {sys.version.split()[0]}")
    transform_overhead()
    rewrite_growth()
    build_cost()


if __name__ == "__main__":
    main()
