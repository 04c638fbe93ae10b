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
import time
import timeit
from collections.abc import Callable

from IPython.core.interactiveshell import InteractiveShell

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite


def best(func: Callable[[], object], number: int, repeat: int = 7) -> float:
    """CPU seconds per call, best of ``repeat`` runs of ``number`` calls (CPU time of this
    process, so other work on a shared machine disturbs it less than wall time)."""
    return min(timeit.repeat(func, number=number, repeat=repeat, timer=time.process_time)) / number


def plain_cell(lines: int, kind: str = "") -> str:
    """Realistic code without i-literals (with i, pi, ri as names).  Harder kinds for the
    pre-check: ``ends-in-i``, strings whose text ends in i (each `i"` is looked at and
    rejected); ``i-comment``, comments quoting an i-string (seen to be comments, rejected);
    ``i-in-str``, strings quoting an i-string (only the full scan can tell: the worst case)."""
    block = [
        "import os, math",
        {
            "i-comment": "pi = math.pi  # i'x' would be an i-string",
            "i-in-str": "pi = math.pi; note = \"write i'{x}' here\"",
        }.get(kind, "pi = math.pi"),
        "def area(r, i=0):",
        "    return pi * r ** 2 + i",
        "names = ['hi', \"ski\", f'{pi:.2f}', r'\\d+']"
        if kind == "ends-in-i"
        else "names = ['ho', \"sky\", f'{pi:.2f}', r'\\d+']",
        "for i, name in enumerate(names):",
        "    total = sum(len(n) for n in names if n != 'wiki')",
        "print(area(3), {k: v for k, v in zip('abc', range(3))})",
    ]
    return "\n".join(block[i % len(block)] for i in range(lines)) + "\n"


def istring_cell(count: int) -> str:
    return "".join(f"t{n} = i'value {{x}} and {{y!r:>{n % 9 + 1}}} #{n}'\n" for n in range(count))


def transform_overhead() -> None:
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ipy_istring")
    (extension,) = [
        t for t in shell.input_transformers_post if getattr(t, "__name__", "") == "transform"
    ]
    print("1. cells without i-literals: IPython's transform_cell, and what the extension's")
    print("   transformer adds to it (measured on its own: a difference of two noisy totals")
    print("   would hide a few percent)")
    print(f"   {'lines':>14} {'transform_cell':>15} {'+ipy_istring':>13} {'added':>7}")
    cells = {
        f"{n} {kind}": plain_cell(n, kind)
        for kind in ("", "ends-in-i", "i-comment", "i-in-str")
        for n in (10, 100, 1000)
    }
    for label, cell in cells.items():
        number = max(1, 2000 // len(cell.splitlines()))
        total = best(lambda c=cell: shell.transform_cell(c), number)
        lines = cell.splitlines(keepends=True)
        added = best(lambda ls=lines: extension(ls), number * 10)
        print(
            f"   {label:>14} {total * 1e6:>13.1f}µs {added * 1e6:>11.1f}µs "
            f"{added / (total - added) * 100:>6.1f}%"
        )
    print("   (ends-in-i: strings ending in i; i-comment: comments quoting an i-string, both")
    print("    rejected by the pre-check; i-in-str: a string quoting an i-string, so the full")
    print("    scan runs: the worst case)")


def rewrite_growth() -> None:
    print("2. rewrite() of one cell with N i-literals (linear: per-literal cost stays flat)")
    print(f"   {'N':>6} {'total':>10} {'per literal':>12}")
    for count in (100, 1000, 5000):
        cell = istring_cell(count)
        total = best(lambda c=cell: rewrite(c), 1, repeat=3)
        print(f"   {count:>6} {total * 1e3:>8.1f}ms {total / count * 1e6:>10.2f}µs")
    print("   and one multi-line literal with N fields")
    for count in (100, 1000, 5000):
        body = "".join(f"{{x}} and {{y!r:>{n % 9 + 1}}}\n" for n in range(count))
        cell = 't = i"""' + body + '"""\n'
        total = best(lambda c=cell: rewrite(c), 1, repeat=3)
        print(f"   {count:>6} {total * 1e3:>8.1f}ms {total / count * 1e6:>10.2f}µs per line")


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
        f_time = best(lambda c=f_code: eval(c, namespace), 20000)
        i_time = best(lambda c=i_code: eval(c, namespace), 20000)
        line = (
            f"   {label:<13} {f_time * 1e9:>7.0f}ns {i_time * 1e9:>7.0f}ns {i_time / f_time:>5.1f}x"
        )
        if native:
            t_code = compile("t" + body, "<t>", "eval")
            t_time = best(lambda c=t_code: eval(c, namespace), 20000)
            line += f" {t_time * 1e9:>7.0f}ns {i_time / t_time:>4.1f}x"
        print(line)
    template = eval(compile(rewrite("i" + literals["three fields"]), "<i>", "eval"), namespace)
    f_code = compile("f" + literals["three fields"], "<f>", "eval")
    f_time = best(lambda c=f_code: eval(c, namespace), 20000)
    render_time = best(lambda: format(template), 20000)
    print(
        f"   format(t) of three fields: {render_time * 1e9:.0f}ns, "
        f"{render_time / f_time:.1f}x the f-string's evaluation"
    )


def check_cost() -> None:
    import ast

    from ipy_istring.check import CellChecker

    print("4. the cell check (f-strings into shells and SQL), against compiling the cell")
    print("   (cells naming no shell or SQL call; one that does is walked: ~60% of compiling)")
    print(f"   {'lines':>6} {'parse+compile':>14} {'check':>10} {'added':>7}")
    checker = CellChecker()
    for lines in (10, 100, 1000):
        cell = plain_cell(lines)
        number = max(1, 2000 // lines)
        compiled = best(lambda c=cell: compile(ast.parse(c), "<cell>", "exec"), number)
        tree = ast.parse(cell)
        lines_of_cell = cell.splitlines(keepends=True)

        def check(t: ast.AST = tree, ls: list[str] = lines_of_cell) -> None:
            checker(ls)
            checker.visit(t)

        checked = best(check, number)
        print(
            f"   {lines:>6} {compiled * 1e6:>12.1f}µs {checked * 1e6:>8.1f}µs "
            f"{checked / compiled * 100:>6.1f}%"
        )


def main() -> None:
    setattr(builtins, BUILDER_NAME, build_template)
    print(f"Python {sys.version.split()[0]}")
    transform_overhead()
    rewrite_growth()
    build_cost()
    check_cost()


if __name__ == "__main__":
    main()
