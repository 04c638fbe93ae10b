"""What the ipy_istring benchmarks share: timing net of the loop, and printing tables.

Every figure is CPU time of this process (other work on a shared machine disturbs it less
than wall time), the best of several repeats (the least disturbed run).  ``--quick`` on a
benchmark's command line runs each measure once with tiny counts: a smoke test that it runs
and prints, not a measurement.
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable, Sequence
from typing import Any

QUICK = "--quick" in sys.argv[1:]


def repeats(default: int = 7) -> int:
    return 1 if QUICK else default


def count(default: int) -> int:
    """How many calls to time per repeat (``--quick``: a handful)."""
    return max(1, default // 1000) if QUICK else default


def best(
    func: Callable[[], object], number: int, repeat: int = 7, *, collector: bool = False
) -> float:
    """CPU seconds per call of ``func``, best of ``repeat`` runs of ``number`` calls.

    ``timeit`` turns the garbage collector off; ``collector=True`` keeps it on, as it is in a
    notebook, for work whose allocations make it run.
    """
    number, repeat = count(number), repeats(repeat)
    setup = "import gc; gc.enable()" if collector else "pass"
    runs = timeit.repeat(func, setup, number=number, repeat=repeat, timer=time.process_time)
    return min(runs) / number


def net(statement: str, namespace: dict[str, Any], number: int, repeat: int = 7) -> float:
    """CPU seconds per execution of ``statement``, compiled into the timing loop as
    ``python -m timeit`` does, net of the empty loop."""
    number, repeat = count(number), repeats(repeat)
    timer = timeit.Timer(statement, globals=namespace, timer=time.process_time)
    empty = timeit.Timer("pass", globals=namespace, timer=time.process_time)
    spent = min(timer.repeat(repeat, number)) / number
    loop = min(empty.repeat(repeat, number)) / number
    return max(spent - loop, 1e-12)


def python_version() -> str:
    return sys.version.split()[0]


def table(title: str, columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """Print one measure: a title naming the Python, then aligned columns."""
    print(f"\n{title} (Python {python_version()}{', --quick: not a measurement' if QUICK else ''})")
    cells = [[str(c) for c in columns]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    for n, row in enumerate(cells):
        first, *rest = zip(row, widths)
        print("  " + "  ".join([first[0].ljust(first[1]), *(c.rjust(w) for c, w in rest)]))
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths))


def ns(seconds: float) -> str:
    return f"{seconds * 1e9:.0f} ns"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.1f} µs"


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


def ratio(numerator: float, denominator: float) -> str:
    return f"{numerator / denominator:.2f}x"
