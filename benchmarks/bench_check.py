"""Benchmark the unsafe-format check: its score beside bandit's and ruff's, and its speed.

    python benchmarks/bench_check.py            # everything
    python benchmarks/bench_check.py 3          # only section 3 (any of 1 2 3)
    python benchmarks/bench_check.py --quick    # tiny repeats (a smoke run)

1. Recall and precision on the corpus in ``tests/check_corpus`` (vulnerable scripts and
   notebooks, and safe look-alikes), for ``ipy_istring.check``, bandit (B601-B611) and ruff
   (S601-S611), in the same run.  A tool that cannot read a file (bandit and ``.ipynb``, any
   peer and a file with i-strings) has not found what is in it.
2. Checking one 60,000-line file, realistic (the standard library with corpus scripts
   between) and dense with sinks (the corpus scripts over and over): ``ipy_istring.check`` in
   this process, and the ``ruff`` and ``bandit`` commands (their start-up included, as a user
   runs them).
3. Preparing a cell in IPython (transform, parse, AST transformers, compile) with the
   extension and its cell check loaded, against IPython alone, and the check's share of it:
   a 30-line cell that calls no sink, one whose sink calls get no formatted string, and one
   with a finding; each for the same cell checked again (on a tree parsed anew, as IPython
   gives it) and for a new text each time (no memo of an earlier check can help), with the
   Python calls of the check (a count the machine's load does not disturb).

Times are the best of several repeats (CPU time of this process for in-process work, wall time
for commands); the machine is shared, so what matters is the ratios.
"""

from __future__ import annotations

import ast
import functools
import json
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from _timing import table  # noqa: E402
from check_corpus import (  # noqa: E402
    CASES,
    HELDOUT,
    HELDOUT2,
    HELDOUT3,
    HELDOUT4,
    HELDOUT5,
    HELDOUT6,
    HELDOUT7,
    HELDOUT8,
    HELDOUT9,
    HELDOUT10,
    SCRIPTS,
    Case,
    Score,
    dense_file,
    score,
)

from ipy_istring.check.cell import CellChecker  # noqa: E402
from ipy_istring.check.scan import check_file  # noqa: E402

BIN = Path(sys.executable).parent
RULES = [f"{n}" for n in range(601, 612)]


def _tool(name: str) -> str | None:
    found = BIN / name
    return str(found) if found.exists() else shutil.which(name)


def best(func: Callable[[], object], number: int, repeat: int) -> float:
    """CPU seconds per call, best of ``repeat`` runs of ``number`` calls."""
    return min(timeit.repeat(func, number=number, repeat=repeat, timer=time.process_time)) / number


def wall(command: list[str], repeat: int) -> float:
    """Wall seconds of a command, best of ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return min(times)


def _case_of(path: str) -> str:
    return Path(path).stem


def flagged_by_us(folder: Path) -> set[str]:
    return {_case_of(str(p)) for p in sorted(folder.iterdir()) if check_file(p).findings}


def flagged_by_bandit(folder: Path) -> set[str] | None:
    bandit = _tool("bandit")
    if bandit is None:
        return None
    tests = ",".join(f"B{n}" for n in RULES)
    result = subprocess.run(
        [bandit, "-q", "-f", "json", "-t", tests, "-r", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(result.stdout or "{}")
    return {_case_of(r["filename"]) for r in report.get("results", [])}


def flagged_by_ruff(folder: Path) -> set[str] | None:
    ruff = _tool("ruff")
    if ruff is None:
        return None
    result = subprocess.run(
        [ruff, "check", "--isolated", "--no-cache", "--output-format", "json",
         "--select", ",".join(f"S{n}" for n in RULES), str(folder)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    return {_case_of(r["filename"]) for r in json.loads(result.stdout or "[]") if r.get("code")}


def scores(title: str, cases: list[Case]) -> None:
    vulnerable = [c for c in cases if c.vulnerable]
    notebooks = sum(c.notebook for c in vulnerable)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for case in cases:
            case.write(folder)
        rows: list[tuple[str, Score | None]] = [
            ("ipy_istring.check", score(flagged_by_us(folder), cases)),
        ]
        for name, finder in (("bandit (B601-B611)", flagged_by_bandit),
                             ("ruff (S601-S611)", flagged_by_ruff)):  # fmt: skip
            flagged = finder(folder)
            rows.append((name, None if flagged is None else score(flagged, cases)))
    table(
        f"{title}: {len(cases)} cases, {len(vulnerable)} vulnerable ({notebooks} "
        f"notebooks), {len(cases) - len(vulnerable)} safe look-alikes",
        ["tool", "found", "false alarms", "recall", "precision"],
        [
            [name, "(not installed)", "", "", ""]
            if result is None
            else [
                name,
                f"{result.found} of {result.vulnerable}",
                f"{len(result.false_alarms)} of {result.safe}",
                f"{result.recall:.2f}",
                f"{result.precision:.2f}",
            ]
            for name, result in rows
        ],
    )
    ours = rows[0][1]
    assert ours is not None
    print(f"   ipy_istring.check missed: {', '.join(ours.missed) or '-'}")
    print(f"   ipy_istring.check false alarms: {', '.join(ours.false_alarms) or '-'}")


def big_file(lines: int) -> str:
    """Realistic code to ``lines`` lines: standard-library modules one after the other (the
    same for a given Python), with a corpus script between every two modules."""
    import sysconfig

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    text: list[str] = []
    count = 0
    for index, module in enumerate(sorted(stdlib.glob("*.py"))):
        if count >= lines:
            break
        code = module.read_text(encoding="utf-8", errors="replace")
        code = "".join(
            line for line in code.splitlines(keepends=True)
            if not line.startswith("from __future__")
        )  # fmt: skip
        try:
            compile(code, str(module), "exec", dont_inherit=True)
        except SyntaxError:
            continue
        text.append(code + "\n" + SCRIPTS[index % len(SCRIPTS)])
        count += text[-1].count("\n")
    return "".join(text)


def file_speed(quick: bool) -> None:
    size = 6_000 if quick else 60_000
    repeat = 1 if quick else 3
    for kind, text in (("realistic", big_file(size)), ("dense with sinks", dense_file(size))):
        print(f"\n2. Checking one {size:,}-line file, {kind} (seconds, best of {repeat})")
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "big.py"
            path.write_text(text, encoding="utf-8")
            ours = best(functools.partial(check_file, path), 1, repeat)
            found = len(check_file(path).findings)
            print(f"{'ipy_istring.check':22} {ours:8.3f} s   ({found} findings)")
            ruff = _tool("ruff")
            if ruff:
                select = ",".join(f"S{n}" for n in RULES)
                t = wall([ruff, "check", "--isolated", "--no-cache", "--select", select,
                          str(path)], repeat)  # fmt: skip
                print(f"{'ruff':22} {t:8.3f} s   ({ours / t:.1f}x ours / ruff)")
            bandit = _tool("bandit")
            if bandit:
                tests = ",".join(f"B{n}" for n in RULES)
                t = wall([bandit, "-q", "-t", tests, str(path)], 1)
                print(f"{'bandit':22} {t:8.3f} s   ({ours / t:.2f}x ours / bandit)")


CELL = (
    "\n".join(
        [
            "import math",
            "values = [math.sqrt(n) for n in range(20)]",
            "def mean(xs):",
            "    return sum(xs) / len(xs)",
            "label = f'mean {mean(values):.3f}'",
            "print(label)",
        ]
        * 5
    )
    + "\n"
)
# The cells timed: 30 lines that call no sink; the same with sink calls that get no
# formatted string (the usual sink call: a constant query with parameters, an argument list,
# a function's parameter); and with one that does (a finding: its warning and its fix).
CELLS = {
    "no sink": CELL,
    "safe sink calls": CELL
    + "import subprocess\n"
    + "cur.execute('SELECT * FROM t WHERE a = ?', (label,))\n"
    + "subprocess.run(['ls', label])\n"
    + "def fetch(cur, query):\n"
    + "    return cur.execute(query).fetchall()\n",
    "a finding": CELL + "cur.execute(f'SELECT * FROM t WHERE a = {label}')\n",
}


def check_time(checker: CellChecker, texts: Callable[[int], str], number: int) -> float:
    """CPU seconds per check of ``number`` cells, ``texts(i)`` the i-th: each parsed anew
    before its check, as IPython gives the check a tree it has just parsed (the parse not
    timed; the garbage collector off, as timeit has it)."""
    import ast
    import gc

    check = checker.check
    spent = 0
    gc.disable()
    try:
        for index in range(number):
            text = texts(index)
            tree = ast.parse(text)
            start = time.process_time_ns()
            check(tree, text)
            spent += time.process_time_ns() - start
    finally:
        gc.enable()
    return spent / number / 1e9


def python_calls(checker: CellChecker, texts: Callable[[int], str], number: int) -> int:
    """The Python-level calls (functions and built-ins, as cProfile counts them) of
    ``number`` checks: a measure of the work that the machine's load does not disturb."""
    import ast
    import cProfile
    import pstats

    trees = [(ast.parse(texts(i)), texts(i)) for i in range(number)]
    profile = cProfile.Profile()
    profile.enable()
    for tree, text in trees:
        checker.check(tree, text)
    profile.disable()
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def _checker_in_use() -> CellChecker:
    """A cell check that has seen a cell call a sink, as in a notebook that has used a shell
    or SQL: from then on each cell without sink calls is put aside in its data flow (before,
    such a cell is only kept, which costs next to nothing)."""
    checker = CellChecker()
    first = "import sqlite3\nsqlite3.connect(':memory:').execute('select 1')\n"
    checker.check(ast.parse(first), first)
    return checker


def cell_cost(quick: bool) -> None:
    import warnings

    from IPython.core.interactiveshell import InteractiveShell

    import ipy_istring

    shell = InteractiveShell.instance()

    def prepare(cell: str) -> Callable[[], object]:
        def run() -> object:
            transformed = shell.transform_cell(cell)
            tree = shell.compile.ast_parse(transformed, "<cell>")
            tree = shell.transform_ast(tree)
            return compile(tree, "<cell>", "exec")

        return run

    number, repeat = (20, 3) if quick else (200, 9)
    rows = []
    extension = None
    for label, cell in CELLS.items():
        best_of = {"alone": float("inf"), "extension": float("inf"), "checked": float("inf")}
        source = shell.transform_cell(cell)
        # The check alone: the same cell again (a cell run again: IPython parses it anew),
        # and a new text each time (a cell never seen: nothing of an earlier check helps).
        again, again_checker = float("inf"), _checker_in_use()
        new, new_checker = float("inf"), _checker_in_use()
        seen = 0

        def same_text(index: int, source: str = source) -> str:
            return source

        def new_text(index: int, source: str = source, start: int = 0) -> str:
            return f"{source}# run {start + index}\n"

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(repeat):
                for config in best_of:
                    if config == "alone" and extension is not None:
                        ipy_istring.unload_ipython_extension(shell)
                        extension = None
                    elif config != "alone":
                        if extension is None:
                            ipy_istring.load_ipython_extension(shell)
                            extension = shell.magics_manager.registry["IStringExtension"]
                        extension.check_cells = config == "checked"
                    took = best(prepare(cell), number, 1)
                    best_of[config] = min(best_of[config], took)
                again = min(again, check_time(again_checker, same_text, number))
                texts = functools.partial(new_text, start=seen)
                new = min(new, check_time(new_checker, texts, number))
                seen += number
            calls = 100
            calls_again = python_calls(_checker_in_use(), same_text, calls)
            unseen = functools.partial(new_text, start=-calls)
            calls_new = python_calls(_checker_in_use(), unseen, calls)
        alone = best_of["alone"]
        rows.append(
            [
                label,
                f"{alone * 1e6:.0f}",
                f"{best_of['extension'] * 1e6:.0f}",
                f"{best_of['checked'] * 1e6:.0f}",
                f"{again * 1e6:.1f}",
                f"{again / alone:.1%}",
                f"{new * 1e6:.1f}",
                f"{new / alone:.1%}",
                f"{calls_again * 1000 // calls:,} / {calls_new * 1000 // calls:,}",
            ]
        )
    if extension is not None:
        ipy_istring.unload_ipython_extension(shell)
    table(
        f"3. Preparing a 30-line cell in IPython (transform, parse, AST transformers, compile; "
        f"µs, best of {repeat}x{number}, the configurations interleaved): IPython alone, with "
        "the extension, with the extension and its cell check; the check alone on the tree "
        "IPython parsed, for the same cell again and for a new text each time (the cell with "
        "another comment), and its share of IPython's preparing (the goal: at most 2%), by a "
        "check that has seen a cell call a sink; the Python calls of 1,000 checks, same cell "
        "/ new text",
        ["cell", "IPython alone", "+ extension", "+ cell check", "check again", "share",
         "check new", "share", "calls per 1,000"],
        rows,
    )  # fmt: skip


SECTIONS = "123"


def main() -> None:
    """Run the sections named on the command line (``3``, ``2 3``), or all of them."""
    quick = "--quick" in sys.argv
    chosen = {a for a in sys.argv[1:] if not a.startswith("-")} or set(SECTIONS)
    unknown = chosen - set(SECTIONS)
    if unknown:
        raise SystemExit(f"no section {', '.join(sorted(unknown))}: the sections are 1, 2, 3")
    if "1" in chosen:
        scores("1. The corpus", CASES)
        scores("1b. The first held-out corpus (written blind to the check)", HELDOUT)
        scores("1c. The second held-out corpus (written blind to the check)", HELDOUT2)
        scores("1d. The third held-out corpus (written blind to the check)", HELDOUT3)
        scores("1e. The fourth held-out corpus (a representative sample, written blind)", HELDOUT4)
        scores("1f. The fifth held-out corpus (modelled on public code, written blind)", HELDOUT5)
        scores("1g. The sixth held-out corpus (modelled on public code, written blind)", HELDOUT6)
        scores("1h. The seventh held-out corpus (modelled on public code, written blind)", HELDOUT7)
        scores("1i. The eighth held-out corpus (modelled on public code, written blind)", HELDOUT8)
        scores("1j. The ninth held-out corpus (modelled on public code, written blind)", HELDOUT9)
        scores("1k. The tenth held-out corpus (modelled on public code, written blind)", HELDOUT10)
    if "2" in chosen:
        file_speed(quick)
    if "3" in chosen:
        cell_cost(quick)


if __name__ == "__main__":
    main()
