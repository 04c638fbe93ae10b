"""Findings in the Python that magics run (``%%time``, ``%%capture``, ``%%timeit``, ``%time``)
point at the cell and its line there: in IPython's cell warning, and in the check's text,
JSON and SARIF output.

IPython parses a ``%%time`` body or a ``%timeit`` statement as ``<unknown>`` and a ``%%capture``
body as a cell of its own, whose line 1 is the body's first line: the warning said
``<unknown>:1``.
"""

from __future__ import annotations

import json
import linecache
import warnings
from pathlib import Path
from typing import Any

import nbformat
import pytest
from conftest import run, write_notebook

from ipy_istring.check import UnsafeFormatWarning, main

SETUP = "import os\nx = os.environ.get('X', 'a')\n"
UNSAFE = "os.system(f'echo {x} > /dev/null')"

# A cell, the line of its finding, and the magic IPython's transform of the cell calls there.
CELLS = {
    "%%time": (f"%%time\nprint(1)\n{UNSAFE}\n", 3, "run_cell_magic('time'"),
    "%%time after empty lines": (f"\n\n%%time\n\n{UNSAFE}\n", 5, "run_cell_magic('time'"),
    "%%capture": (f"%%capture out\n\n{UNSAFE}\n", 3, "run_cell_magic('capture'"),
    "%%timeit": (f"%%timeit -n1 -r1\ny = 1\n{UNSAFE}\n", 3, "run_cell_magic('timeit'"),
    "%%timeit setup": (f"%%timeit -n1 -r1 {UNSAFE}\npass\n", 1, "run_cell_magic('timeit'"),
    "%time": (f"y = 1\n%time {UNSAFE}\n", 2, "run_line_magic('time'"),
    "%timeit": (f"y = 1\n\n%timeit -n1 -r1 {UNSAFE}\n", 3, "run_line_magic('timeit'"),
    "%%time with an ! line": (f"%%time\n!echo {{x}}\n{UNSAFE}\n", 3, "run_cell_magic('time'"),
}
# Cells whose findings are each on a line of their own (magics in magics, the same statement
# twice), and those lines.
NESTED = {
    f"%%time\n# c\n%time {UNSAFE}\ny = 1\n%time {UNSAFE}\n": [3, 5],
    f"%%capture out\n\n%time {UNSAFE}\nif x:\n    {UNSAFE}\n%time {UNSAFE}": [3, 5, 6],
    f"%time {UNSAFE}\n%time {UNSAFE}\n%time {UNSAFE}\n": [1, 2, 3],
}


def _warnings(shell: Any, cell: str) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(shell, cell)
    return [w for w in caught if issubclass(w.category, UnsafeFormatWarning)]


@pytest.mark.parametrize("kind", list(CELLS))
def test_a_magics_finding_points_at_its_cell_and_line(ishell: Any, kind: str) -> None:
    cell, line, magic = CELLS[kind]
    run(ishell, SETUP)
    caught = _warnings(ishell, cell)
    found = [w for w in caught if "os.system()" in str(w.message)]
    assert [w.lineno for w in found] == [line], [(w.filename, w.lineno) for w in caught]
    (warning,) = found
    # The cell's name: what IPython keeps of the cell (its transform) names the magic there.
    assert magic in linecache.getline(warning.filename, line if "%time" in kind[:5] else 1)
    assert "Safe spelling, ready to paste:\n    os.system(sh(i'echo {x} > /dev/null'))" in (
        str(warning.message)
    )


@pytest.mark.parametrize("cell", list(NESTED))
def test_magics_in_magics_and_statements_alike_are_each_at_their_line(
    ishell: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], cell: str
) -> None:
    run(ishell, SETUP)
    caught = _warnings(ishell, cell)
    assert sorted(w.lineno for w in caught) == NESTED[cell]  # (in the order they are parsed)
    assert len({w.filename for w in caught}) == 1
    # ... where the check of the notebook finds them.
    path = _notebook(tmp_path, [SETUP, cell])
    capsys.readouterr()  # (what the cells printed)
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [f["line"] for f in findings] == NESTED[cell]


def test_a_time_line_after_empty_lines_is_checked_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # IPython drops a cell's first empty lines: the statement of a %time line after them
    # was not checked (the line taken for another), an escape line was put on line 1.
    cells = [f"\n \n%time {UNSAFE}", f"%%capture out\n\n%time {UNSAFE}", "\n\n!ls {x}"]
    path = _notebook(tmp_path, [SETUP, *cells])
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["cell"], f["line"], f["column"]) for f in findings] == [
        (2, 3, 17), (3, 3, 17), (4, 3, 5)
    ]


@pytest.mark.parametrize(
    ("cell", "lines"),
    [
        (CELLS["%%time"][0], [3]),
        # IPython runs a %%prun body through the profiler, never parsing it as a cell: no
        # warning came for it.
        (f"\n%%prun -q\n\n{UNSAFE}\n!echo {{x}} > /dev/null\n", [4, 5]),
    ],
)
def test_a_magics_finding_is_a_real_injection(
    ishell: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cell: str, lines: list[int]
) -> None:
    # The positive control: the value reaches the shell of the magic's body as code.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("X", "a; touch pwned")
    run(ishell, SETUP)
    caught = _warnings(ishell, cell)
    assert (tmp_path / "pwned").exists()
    assert [w.lineno for w in caught] == lines
    assert "run_cell_magic(" in linecache.getline(caught[0].filename, 1)
    assert "Safe spelling, ready to paste:\n    os.system(sh(i'echo {x} > /dev/null'))" in (
        str(caught[0].message)
    )


def test_a_cell_after_a_magic_cell_is_pointed_at_as_itself(ishell: Any) -> None:
    run(ishell, SETUP)
    _warnings(ishell, CELLS["%%time"][0])
    (warning,) = _warnings(ishell, f"y = 2\n{UNSAFE}\n")
    assert warning.lineno == 2
    assert linecache.getline(warning.filename, 2).startswith("os.system(")


def _notebook(tmp_path: Path, cells: list[str]) -> Path:
    return write_notebook(tmp_path / "nb.ipynb", cells)


NOTEBOOK_CASES = {
    # cell -> (line, column) of its finding
    f"%%time\nprint(1)\n{UNSAFE}": (3, 11),
    f"\n%%capture out\n\n\n{UNSAFE}": (5, 11),
    f"%%timeit -n1 -r1 {UNSAFE}\npass": (1, 28),
    f"%%timeit -n1\n\n{UNSAFE}": (3, 11),
}


def test_a_magics_finding_points_at_its_cell_and_line_in_each_output_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _notebook(tmp_path, [SETUP, *NOTEBOOK_CASES])
    expected = [(n, *place) for n, place in enumerate(NOTEBOOK_CASES.values(), 2)]
    assert main([str(path)]) == 1
    text = capsys.readouterr().out.splitlines()
    assert [line.split(": ")[0] for line in text] == [
        f"{path}[cell {n}]:{line}:{column}" for n, line, column in expected
    ]
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["cell"], f["line"], f["column"]) for f in findings] == expected
    assert main(["--format", "sarif", str(path)]) == 1
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert [r["message"]["text"].split("]")[0] for r in results] == [
        f"[cell {n}, line {line}" for n, line, _ in expected
    ]


def test_a_syntax_error_in_a_magics_body_is_at_its_line_in_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _notebook(tmp_path, [SETUP, "%%time\ny = 1\nos.system(f'{x}'", "y = 1\nprint(("])
    assert main([str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}[cell 2]: cannot check: line 3: '(' was never closed",
        f"{path}[cell 3]: cannot check: line 2: '(' was never closed",
    ]


def test_a_timeit_setup_statement_is_not_fixed_on_the_magics_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _notebook(tmp_path, [SETUP, f"%%timeit -n1 -r1 {UNSAFE}\n{UNSAFE}"])
    before = path.read_bytes()
    assert main(["--fix", str(path)]) == 1
    assert "not fixed: the statement is on the cell magic's line" in capsys.readouterr().err
    after = path.read_bytes()
    assert after != before
    cell = nbformat.reads(after.decode(), as_version=4).cells[1].source
    assert cell == f"%%timeit -n1 -r1 {UNSAFE}\nos.system(sh(i'echo {{x}} > /dev/null'))"


def test_a_cell_written_as_an_earlier_capture_body_is_pointed_at_as_itself(ishell: Any) -> None:
    run(ishell, SETUP)
    (first,) = _warnings(ishell, f"%%capture out\n\n{UNSAFE}\n")
    (second,) = _warnings(ishell, f"\n{UNSAFE}\n")  # (the body of the cell before, again)
    assert (first.lineno, second.lineno) == (3, 1)
    assert linecache.getline(second.filename, 1).startswith("os.system(")
    assert first.filename != second.filename


ESCAPE_CASES = {
    # an escape line -> the column of its first expansion as written (IPython's translation
    # `get_ipython().system('cp {x} /tmp')` put it at 22, past the line's end)
    "!cp {x} /tmp": 5,
    "files = !ls $x": 13,
    "%sx grep {x} log.txt": 10,
    "  !ls {x}": 7,
    "if x:\n    !ls -l {x}": 12,
}


def test_an_escape_lines_finding_is_at_its_expansion_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _notebook(tmp_path, [SETUP, *ESCAPE_CASES])
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [f["column"] for f in findings] == list(ESCAPE_CASES.values())
    for finding, cell in zip(findings, ESCAPE_CASES, strict=True):
        line = cell.splitlines()[finding["line"] - 1]
        assert line[finding["column"] - 1] in "{$"
        assert finding["end_column"] == len(line) + 1
