"""Count the instructions of the cell check against IPython's own preparing of the same cells.

    python benchmarks/count_check.py              # each cell of bench_check.CELLS, under callgrind
    python benchmarks/count_check.py --inner check "no sink" 300   # the loop callgrind counts

The README's row "the cell check / IPython preparing a 30-line cell" comes from this: for each
cell of ``bench_check.CELLS``, 300 new texts of it (a comment added: nothing an earlier check
remembered helps) are checked by the extension's checker, and prepared by IPython alone
(``transform_cell``, parse, AST transformers, ``compile``), with the garbage collector off.
Only the loop is counted (callgrind's ``--toggle-collect`` on the ``functools.reduce`` that runs
it), so start-up does not blur the figure, and the machine's load does not move it.  Needs
valgrind and a Python with symbols (pyenv's have them; Debian's packaged 3.14 does not).
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
COUNT = 300


def inner(mode: str, label: str, number: int) -> None:
    """Run ``number`` checks (``mode`` "check") or preparings ("prepare") of new texts of the
    cell ``label``, in one ``functools.reduce`` (what callgrind counts)."""
    import ast
    import gc
    import warnings

    sys.path[:0] = [str(HERE.parent), str(HERE), str(HERE.parent / "tests")]
    warnings.simplefilter("ignore")
    from bench_check import CELLS, _checker_in_use
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False  # (no thread of its own beside the loop)
    shell = InteractiveShell.instance(config=config)
    if mode == "check":
        source = shell.transform_cell(CELLS[label])
        checker = _checker_in_use()
        texts = [f"{source}# run {i}\n" for i in range(number + 20)]
        items = [(ast.parse(text), text) for text in texts]

        def step(_: object, item: tuple[ast.Module, str]) -> object:
            return checker.check(*item)
    else:
        items = [f"{CELLS[label]}# run {i}\n" for i in range(number + 20)]  # type: ignore[misc]

        def step(_: object, item: str) -> object:  # type: ignore[misc]
            tree = shell.compile.ast_parse(shell.transform_cell(item), "<cell>")
            return compile(shell.transform_ast(tree), "<cell>", "exec")

    for item in items[:20]:  # warm: the first cells load what later ones reuse
        step(None, item)
    gc.collect()
    gc.disable()
    functools.reduce(step, items[20:], None)


def counted(mode: str, label: str) -> int:
    """Instructions per cell of ``inner(mode, label, COUNT)``, as callgrind counts them."""
    done = subprocess.run(
        [
            "valgrind", "--tool=callgrind", "--collect-atstart=no",
            "--toggle-collect=functools_reduce", "--callgrind-out-file=/dev/null",
            sys.executable, __file__, "--inner", mode, label, str(COUNT),
        ],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )  # fmt: skip
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found is not None, done.stderr
    return int(found.group(1)) // COUNT


def main() -> None:
    sys.path[:0] = [str(HERE), str(HERE.parent / "tests")]
    from bench_check import CELLS

    version = ".".join(map(str, sys.version_info[:2]))
    print(f"The cell check / IPython preparing the cell, in instructions (Python {version})")
    print(f"  {'cell':<16}  {'check':>10}  {'preparing':>10}  {'share':>6}")
    print(f"  {'-' * 16}  {'-' * 10}  {'-' * 10}  {'-' * 6}")
    for label in CELLS:
        check, prepare = counted("check", label), counted("prepare", label)
        print(f"  {label:<16}  {check:>10,}  {prepare:>10,}  {check / prepare:>6.2%}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--inner"]:
        inner(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        main()
