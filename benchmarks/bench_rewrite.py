"""Benchmark the rewrite, as ratios measured side by side.

    python benchmarks/bench_rewrite.py [--quick] [transform] [growth]

1. What the extension adds to IPython's own ``transform_cell`` on cells without i-literals
   (goal: ≤ 1.05x, also on a module that merely quotes i-strings in its docstrings).
2. How the rewrite grows with the number of i-literals in one cell (goal: ≤ 5 µs per
   literal on a cell of 1,000, still linear to 10,000): the first rewrite of a cell (every
   literal new), and the same cell again (as IPython re-runs or re-checks a cell: each
   literal's call is remembered).

The cell check's cost is measured in ``benchmarks/bench_check.py``; building and rendering
templates in ``benchmarks/bench_build.py``; start-up in
``benchmarks/bench_startup.py``.  Times are the best of several repeats (the machine is
shared: the minimum is the least disturbed run); what matters is the ratios.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable

from _timing import QUICK, best, ratio, repeats, table, us
from IPython.core.interactiveshell import InteractiveShell

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite


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


def istring_cell(count: int, salt: str = "") -> str:
    """``count`` distinct i-literals of the common shape (``salt`` makes them new)."""
    return "".join(
        f"t{n} = i'value{salt} {{x}} and {{y!r:>{n % 9 + 1}}} #{n}'\n" for n in range(count)
    )


def fields_cell(count: int, salt: str = "") -> str:
    """One triple-quoted i-literal with ``2 * count`` fields over ``count`` lines."""
    body = "".join(f"{{x}} and{salt} {{y!r:>{n % 9 + 1}}}\n" for n in range(count))
    return 't = i"""' + body + '"""\n'


def first_and_again(make: Callable[[str], str], repeat: int = 3) -> tuple[float, float]:
    """Seconds for the first rewrite of a cell (a new one each repeat) and for rewriting the
    same cell again."""
    cells = iter([make(f"-{n}") for n in range(repeats(repeat))])
    first = best(lambda: rewrite(next(cells)), 1, repeat=repeat, collector=True)
    cell = make("-again")
    rewrite(cell)
    again = best(lambda: rewrite(cell), 1, repeat=repeat, collector=True)
    return first, again


def quoting_module(lines: int = 2066) -> str:
    """A module whose docstrings and strings quote i-strings, as documentation of this very
    package would (``(i',j',k')``): the pre-check cannot rule it out, the full scan runs."""
    block = [
        "def pairs(seq):",
        '    """Yield (i\',j\',k\') triples; an i-string would read i\'{x}\'."""',
        "    for i, item in enumerate(seq):",
        "        yield i, item, f'{item!r}'",
        "",
        "class Note:",
        "    text = \"write i'{x}' for a template\"  # not an i-literal: inside a string",
        "",
    ]
    return "\n".join(block[n % len(block)] for n in range(lines)) + "\n"


def transform_overhead() -> None:
    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ipy_istring")
    (extension,) = [
        t for t in shell.input_transformers_post if getattr(t, "__name__", "") == "transform"
    ]
    cells = {
        f"{n} {kind or 'plain'}": plain_cell(n, kind)
        for kind in ("", "ends-in-i", "i-comment", "i-in-str")
        for n in (10, 100, 1000)
    }
    cells["2066-line module quoting i-strings"] = quoting_module()
    rows = []
    for label, cell in cells.items():
        number = max(1, 2000 // len(cell.splitlines()))
        total = best(lambda c=cell: shell.transform_cell(c), number)
        lines = cell.splitlines(keepends=True)
        added = best(lambda ls=lines: extension(ls), number * 10)
        rows.append([label, us(total - added), us(added), ratio(total, total - added)])
    table(
        "1. Cells without i-literals: IPython's transform_cell with the extension's transformer "
        "vs without it\n   (the transformer measured on its own: a difference of two noisy "
        "totals would hide a few percent;\n   ends-in-i: strings ending in i; i-comment: "
        "comments quoting an i-string; i-in-str: a string quoting one)",
        ["cell (lines, kind)", "IPython's own", "+ipy_istring", "ratio"],
        rows,
    )


def rewrite_growth() -> None:
    rows = []
    sizes = (100, 1000) if QUICK else (100, 1000, 10000)
    for count in sizes:
        first, again = first_and_again(lambda salt, n=count: istring_cell(n, salt))
        rows.append([f"{count} literals", us(first), us(first / count), us(again / count)])
    for count in sizes:
        first, again = first_and_again(lambda salt, n=count: fields_cell(n, salt))
        per_field = [us(first / (2 * count)), us(again / (2 * count))]
        rows.append([f"1 literal, {2 * count} fields", us(first), *per_field])
    table(
        "2. rewrite() of one cell (linear: the cost per literal, or per field, stays flat;\n"
        "   first: every literal new; again: the same cell rewritten once more;\n"
        "   the garbage collector on, as in a notebook)",
        ["cell", "first, total", "first, per literal/field", "again, per literal/field"],
        rows,
    )


def main() -> None:
    setattr(builtins, BUILDER_NAME, build_template)
    sections = {"transform": transform_overhead, "growth": rewrite_growth}
    chosen = [arg for arg in sys.argv[1:] if arg in sections] or list(sections)
    for name in chosen:
        sections[name]()


if __name__ == "__main__":
    main()
