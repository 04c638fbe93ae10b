"""Cells whose first line is indented: IPython runs them without that indentation (its
``leading_indent``), so the check must too, and then say where a finding is in the cell as
written and fix it there, indentation kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbformat
import pytest
from conftest import run, write_notebook

from ipy_istring.check import main

SETUP = "  import os, subprocess\n  x = os.environ.get('X', 'a')\n"
# cell -> the (line, column) of each finding, as an editor counts them in the cell as written
CASES = {
    "  os.system(f'cat {x} > /dev/null')": [(1, 13)],
    "  if x:\n      os.system(f'cat {x} > /dev/null')\n  y = 1": [(2, 17)],
    "\t%time os.system(f'cat {x} > /dev/null')": [(1, 18)],
    "\n  %%time\n  os.system(f'cat {x} > /dev/null')\n  y = 1": [(3, 13)],
    "  %%timeit -n1 -r1 os.system(f'ls {x} > /dev/null')\n    os.system(f'ls {x} > /dev/null')": [
        (1, 30), (2, 15),
    ],
}  # fmt: skip


def _notebook(tmp_path: Path, cells: list[str]) -> Path:
    return write_notebook(tmp_path / "nb.ipynb", cells)


def test_findings_in_indented_cells_are_at_their_columns_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _notebook(tmp_path, [SETUP, *CASES])
    assert main([str(path)]) == 1
    out, err = capsys.readouterr()
    assert err == ""  # ("\t%time ..." was "cannot check: line 1: unexpected indent")
    places = [line.split(": ")[0] for line in out.splitlines()]
    assert places == [
        f"{path}[cell {number}]:{line}:{column}"
        for number, found in enumerate(CASES.values(), 2)
        for line, column in found
    ]
    lines = [source.splitlines() for source in CASES]
    for place in places:  # (each column is where the f-string starts in the line as written)
        cell, line, column = place.rpartition("[cell ")[2].replace("]", "").split(":")
        assert lines[int(cell) - 2][int(line) - 1][int(column) - 1 :].startswith("f'")


def test_fix_keeps_the_indentation_and_the_notebook_runs(
    tmp_path: Path, ishell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = [SETUP, "  out = subprocess.check_output(f'echo {x}', shell=True)\n  print(out)"]
    path = _notebook(tmp_path, cells)
    assert main(["--fix", str(path)]) == 0
    fixed = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    assert fixed == [
        "  from ipy_istring import sh\n" + SETUP,
        "  out = subprocess.check_output(sh(i'echo {x}'), shell=True)\n  print(out)",
    ]
    for source in fixed:  # (unindented, the import made the cell an IndentationError)
        run(ishell, source)
    assert ishell.user_ns["out"] == b"a\n"


def test_an_indented_bash_cell_gets_no_import(tmp_path: Path) -> None:
    cells = ["  %%bash\n  ls", "import os\nx = input()\nos.system(f'ls {x}')"]
    path = _notebook(tmp_path, cells)
    assert main(["--fix", str(path)]) == 0
    fixed = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    assert fixed == [
        cells[0], "from ipy_istring import sh\nimport os\nx = input()\nos.system(sh(i'ls {x}'))"
    ]


def test_a_cell_starting_with_a_form_feed_is_fixed_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # IPython drops a first line of whitespace, where str.splitlines ends one (a form feed),
    # which is no line of Python: the finding was put on line 2 of a cell of one line (an
    # IndexError traceback in --diff), and the fix dropped the form feed.
    cells = ["import os\n", "\x0cos.system(f'ls {os.getcwd()}')\n"]
    path = _notebook(tmp_path, cells)
    assert main(["--format", "json", str(path)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["cell"], finding["line"]) == (2, 1)
    assert main(["--fix", str(path)]) == 0
    fixed = [c.source for c in nbformat.read(path, as_version=4).cells]
    assert fixed == [
        "from ipy_istring import sh\n" + cells[0], "\x0cos.system(sh(i'ls {os.getcwd()}'))\n"
    ]
