"""Benchmark what ipy_istring costs at start-up: ``import ipy_istring`` over a bare
interpreter, and ``%load_ext ipy_istring`` in a shell that is already running.

    python benchmarks/bench_startup.py [--quick]

Each figure is the best of several fresh interpreters, as CPU time (user + system) and as
wall time.  A start-up is waited for, so wall time is what a user feels; but on a busy
machine wall time also counts the waits for a core other processes hold, which CPU time
leaves out, so on a shared machine the CPU column is the fairer estimate of the wall time
on a quiet one.  Goals (issue 12): both ≤ 30 ms.  The modules that cost the most come from
``python -X importtime``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time

from _timing import QUICK, ms, repeats, table

LOAD_EXT = """
import sys, time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
sys.stderr.write("-- load_ext --\\n")
cpu, wall = time.process_time(), time.perf_counter()
shell.run_line_magic("load_ext", "ipy_istring")
print(time.process_time() - cpu, time.perf_counter() - wall)
"""

# The first display of a template after %load_ext: what the extension left for it to import
# (the views, every renderer, the entry points).
FIRST_DISPLAY = """
import time
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_line_magic("load_ext", "ipy_istring")
shell.run_cell("x = 42; t = i'a{x}'", silent=True)
cpu, wall = time.process_time(), time.perf_counter()
shell.display_formatter.format(shell.user_ns["t"])
print(time.process_time() - cpu, time.perf_counter() - wall)
"""


# As a user's interpreter runs: with bytecode caches (written by a first, untimed run).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def fresh(code: str) -> tuple[float, float]:
    """CPU and wall seconds for a new interpreter to run ``code`` (the best of several)."""
    subprocess.run([sys.executable, "-c", code], check=True, env=ENV)
    cpu_times, wall_times = [], []
    for _ in range(repeats(15)):
        cpu, wall = _children_cpu(), time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, env=ENV)
        wall_times.append(time.perf_counter() - wall)
        cpu_times.append(_children_cpu() - cpu)
    return min(cpu_times), min(wall_times)


def inside(code: str) -> tuple[float, float]:
    """The CPU and wall seconds ``code`` prints about itself in a new interpreter (the best
    of several)."""
    runs = [
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                       text=True, env=ENV).stdout.split()
        for _ in range(repeats(11) + 1)
    ]  # fmt: skip
    return min(float(cpu) for cpu, _ in runs), min(float(wall) for _, wall in runs)


def heaviest_imports(
    statement: str, count: int = 6, after: str = "site"
) -> list[tuple[str, float]]:
    """The modules ``statement`` imports that cost the most (cumulative, -X importtime),
    counting from the line ``after`` (the interpreter's own start-up ends with ``site``)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True,
        check=True, env=ENV,
    )  # fmt: skip
    found = []
    started = False
    for line in done.stderr.splitlines():
        if "|" not in line or "imported package" in line:
            started = started or line == after
            continue
        _, cumulative, name = (part.strip() for part in line.split(":", 1)[1].split("|"))
        if started:
            found.append((name, int(cumulative) / 1e6))
        started = started or name == after
    return sorted(found, key=lambda item: -item[1])[:count]


def import_cost() -> float:
    """Seconds ``import ipy_istring`` takes in a fresh interpreter, as ``-X importtime``
    counts it (everything the import pulls in, and nothing of the interpreter's own start,
    whose noise on a shared machine would swamp it): the best of several runs."""
    costs = []
    subprocess.run([sys.executable, "-c", "import ipy_istring"], check=True, env=ENV)
    for _ in range(repeats(15)):
        imports = heaviest_imports("import ipy_istring", count=10_000)
        costs.append(dict(imports).get("ipy_istring", 0.0))
    return min(costs)


def main() -> None:
    bare = fresh("pass")
    imported = fresh("import ipy_istring")
    cost = import_cost()
    table(
        "Start-up: import ipy_istring in a fresh interpreter",
        ["run", "CPU", "wall"],
        [
            ["import ipy_istring (-X importtime, cumulative)", "", ms(cost)],
            ["python -c 'import ipy_istring'", *map(ms, imported)],
            ["python -c pass", *map(ms, bare)],
        ],
    )
    shell_ready = inside(LOAD_EXT.replace('shell.run_line_magic("load_ext", "ipy_istring")', ""))
    load_ext = inside(LOAD_EXT)
    first_display = inside(FIRST_DISPLAY)
    # A machine-independent reading of the 30 ms goal: on the machine the issue measured, a
    # bare `python -c pass` took 20 ms, so 30 ms is 1.5x a bare start-up.
    table(
        "Start-up: %load_ext ipy_istring in a running InteractiveShell (and its CPU time "
        "over a bare python -c pass: the goal, 30 ms where a bare start took 20 ms, is 1.5x)",
        ["run", "CPU", "wall", "CPU / bare start"],
        [
            ["%load_ext ipy_istring", *map(ms, load_ext), f"{load_ext[0] / bare[0]:.2f}x"],
            ["(the empty measurement)", *map(ms, shell_ready), ""],
            [
                "then the first display of a template",
                *map(ms, first_display),
                f"{first_display[0] / bare[0]:.2f}x",
            ],
        ],
    )
    if not QUICK:
        table(
            "What import ipy_istring costs most (-X importtime, cumulative, one run)",
            ["module", "time"],
            [[name, ms(seconds)] for name, seconds in heaviest_imports("import ipy_istring")],
        )
        table(
            "What %load_ext ipy_istring imports that costs most (-X importtime, cumulative)",
            ["module", "time"],
            [
                [name, ms(seconds)]
                for name, seconds in heaviest_imports(LOAD_EXT, count=10, after="-- load_ext --")
            ],
        )


if __name__ == "__main__":
    main()
