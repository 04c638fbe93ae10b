"""``--fix`` of a notebook changes the fixed lines of its cells and nothing else of the file.

The notebook is written in each layout a user's file may have (nbformat's, another indent,
one line, a BOM, CRLF line ends, ``\\u`` escapes, a source as one string), holding what a JSON
round trip would change (``1e400``, a number of many digits, ``\\/``).  After ``--fix`` the
file differs only in the fixed lines and the import added, still opens in nbformat, and runs
in a real IPython shell as before for a plain value and safely for a hostile one.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
import pytest
from conftest import run

from ipy_istring.check import main
from ipy_istring.check.notebook import NotebookError
from ipy_istring.check.notebook_json import replace_sources

SETUP = (
    "import os, sqlite3, subprocess\n"
    "con = sqlite3.connect(':memory:')\n"
    "con.execute('create table t (name text, note text)')\n"
    "con.executemany('insert into t values (?, ?)', [('ann', 'café'), ('bob', 'b/c')])\n"
    "name = os.environ.get('WHO', 'ann')  # é and a slash: /\n"
)
QUERY_CELL = (
    "# the note of one name\n"
    "rows = con.execute(f\"select note from t where name = '{name}'\").fetchall()  # é\n"
    "n = len(rows)"
)
SHELL_CELL = "out = subprocess.check_output(f'echo {name}', shell=True)\nprint(out)\n"
CELLS = [SETUP, QUERY_CELL, SHELL_CELL]
# The lines --fix changes, and the import lines it adds at the top of the first code cell.
FIXED = {
    "rows = con.execute(f\"select note from t where name = '{name}'\").fetchall()  # é\n":
        "rows = con.execute(*sql(i\"select note from t where name = {name}\")).fetchall()  # é\n",
    "out = subprocess.check_output(f'echo {name}', shell=True)\n":
        "out = subprocess.check_output(sh(i'echo {name}'), shell=True)\n",
}  # fmt: skip
IMPORTS = ["from ipy_istring import sh\n", "from ipy_istring import sql\n"]


def _document() -> dict[str, Any]:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_markdown_cell("# Notes — café")]
    notebook.cells += [nbformat.v4.new_code_cell(source) for source in CELLS]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    return json.loads(nbformat.writes(notebook))  # type: ignore[no-any-return]


# What a JSON round trip would change, put in the notebook's metadata as written.
ODD_VALUES = '"huge": 1e400, "digits": 123456789012345678901234567890.12345678901234567890'


def _with_odd_values(text: str) -> str:
    return text.replace('"kernelspec": {', '"odd": {' + ODD_VALUES + '}, "kernelspec": {', 1)


def _joined_sources(document: dict[str, Any]) -> dict[str, Any]:
    for cell in document["cells"]:
        cell["source"] = "".join(cell["source"])
    return document


def _escaped_slashes(text: str) -> str:
    return text.replace("b/c", "b\\/c").replace("slash: /", "slash: \\/")


LAYOUTS: dict[str, Callable[[], str]] = {
    "nbformat": lambda: nbformat.writes(nbformat.from_dict(_document())) + "\n",
    "indent 2": lambda: json.dumps(_document(), indent=2, ensure_ascii=False),
    "indent 4, keys sorted": lambda: json.dumps(_document(), indent=4, sort_keys=True) + "\n",
    "one line": lambda: json.dumps(_document()),
    "one line, no spaces": lambda: json.dumps(_document(), separators=(",", ":")),
    "a BOM": lambda: "\ufeff" + json.dumps(_document(), indent=1, ensure_ascii=False) + "\n",
    "CRLF line ends": lambda: json.dumps(_document(), indent=1).replace("\n", "\r\n") + "\r\n",
    "\\u escapes and \\/": lambda: _escaped_slashes(json.dumps(_document(), indent=1)),
    "sources as strings": lambda: json.dumps(_joined_sources(_document()), indent=1),
    "sources as strings, one line": lambda: json.dumps(_joined_sources(_document())),
}


def _fix(path: Path) -> int:
    return main(["--fix", str(path)])


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_fix_changes_only_the_fixed_lines(tmp_path: Path, layout: str) -> None:
    text = _with_odd_values(LAYOUTS[layout]())
    path = tmp_path / "notes.ipynb"
    path.write_bytes(text.encode())
    assert _fix(path) == 0
    new = path.read_bytes().decode()
    assert new.startswith("\ufeff") == text.startswith("\ufeff")
    expected = _expected(text, layout)
    assert new == expected, "".join(
        difflib.unified_diff(expected.splitlines(True), new.splitlines(True))
    )
    fixed = nbformat.reads(new.lstrip("\ufeff"), as_version=4)
    nbformat.validate(fixed)
    assert [cell.source for cell in fixed.cells[1:]] == [
        "".join(IMPORTS) + SETUP, *(_fixed(source) for source in CELLS[1:])
    ]


def _fixed(source: str) -> str:
    for before, after in FIXED.items():
        source = source.replace(before, after)
    return source


def _expected(text: str, layout: str) -> str:
    """The file as it should be after the fix: where each source is a list of lines, the
    lines of the diff are only the fixed lines and the imports; else the JSON string of each
    fixed line replaced in place, escaped as the file escapes."""
    ascii_only = text.isascii()

    def raw(line: str) -> str:
        written = json.dumps(line, ensure_ascii=ascii_only)[1:-1]
        return _escaped_slashes(written) if "\\/" in text else written

    if "strings" in layout:
        first = raw(SETUP.partition("\n")[0])
        expected = text.replace(f'"{first}', '"' + raw("".join(IMPORTS)) + first, 1)
        for before, after in FIXED.items():
            expected = expected.replace(raw(before), raw(after), 1)
        return expected
    if "one line" in layout:  # (lists on one line: the items are separated as the file does)
        comma = '", "' if '", "' in text else '","'
        first = raw(SETUP.partition("\n")[0] + "\n")
        imports = comma.join(raw(line) for line in IMPORTS)
        expected = text.replace(f'"{first}"', f'"{imports}{comma}{first}"', 1)
        for before, after in FIXED.items():
            expected = expected.replace(raw(before), raw(after), 1)
        return expected
    # One line of JSON per line of code: the diff is of those lines only.
    lines = text.splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if raw(SETUP.partition("\n")[0]) in line)
    indent = lines[first][: len(lines[first]) - len(lines[first].lstrip())]
    end = lines[first][len(lines[first].rstrip("\r\n")) :]
    lines[first:first] = [f'{indent}"{raw(line)}",{end}' for line in IMPORTS]
    changed = 0
    for index, line in enumerate(lines):
        for before, after in FIXED.items():
            if raw(before) in line:
                lines[index] = line.replace(raw(before), raw(after))
                changed += 1
    assert changed == len(FIXED)
    return "".join(lines)


@pytest.mark.parametrize("layout", ["nbformat", "CRLF line ends", "\\u escapes and \\/"])
def test_fixed_notebook_runs_as_before_and_safely(
    tmp_path: Path, ishell: Any, layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "notes.ipynb"
    path.write_bytes(_with_odd_values(LAYOUTS[layout]()).encode())
    original = nbformat.read(path, as_version=4)
    assert _fix(path) == 0
    fixed = nbformat.read(path, as_version=4)

    def results(notebook: Any, who: str) -> tuple[Any, Any]:
        monkeypatch.setenv("WHO", who)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                run(ishell, cell.source)
        return ishell.user_ns["rows"], ishell.user_ns["out"]

    assert results(original, "bob") == results(fixed, "bob") == ([("b/c",)], b"bob\n")
    # The positive controls: a hostile value changes what the original runs ...
    assert len(results(original, "x' or 'a'='a")[0]) == 2  # (all the rows)
    assert results(original, "x; echo pwned")[1] == b"x\npwned\n"
    # ... and is only a value in the fixed one.
    assert results(fixed, "x' or 'a'='a")[0] == []
    assert results(fixed, "x; echo pwned")[1] == b"x; echo pwned\n"


def test_a_notebook_fixed_without_an_import_cell_keeps_its_bytes(tmp_path: Path) -> None:
    # A finding that is not fixed (the only cell is a %%timeit) leaves the file untouched.
    text = json.dumps(
        {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                    "source": "%%timeit\nimport os\nos.system(f'ls {os.getcwd()}')"}],
         "metadata": {"x": 1e400}, "nbformat": 4, "nbformat_minor": 5},
    )  # fmt: skip
    path = tmp_path / "t.ipynb"
    path.write_text(text.replace("Infinity", "1e400"))
    before = path.read_bytes()
    assert _fix(path) == 1
    assert path.read_bytes() == before


def test_an_empty_source_list_gets_the_imports_in_the_files_layout() -> None:
    document = _document()
    document["cells"][1]["source"] = []
    text = json.dumps(document, indent=1)
    new = replace_sources(text, {2: "import shlex\nx = 1\n"})
    assert json.loads(new)["cells"][1]["source"] == ["import shlex\n", "x = 1\n"]
    assert '   "source": [\n    "import shlex\\n",\n    "x = 1\\n"\n   ]' in new


def test_replacing_a_source_keeps_the_escapes_of_what_did_not_change() -> None:
    source = "a = '\\u00e9\\/\\ud83d\\ude00'\\nb = 1\\n"  # (as JSON writes it)
    text = '{"cells": [{"cell_type": "code", "source": "' + source + '"}]}'
    new = replace_sources(text, {1: "a = 'é/😀'\nb = 2\n"})
    assert new == text.replace("b = 1", "b = 2")
    new = replace_sources(text, {1: "c = 'ü'\na = 'é/😀'\nb = 1\n"})
    assert new == text.replace('"a = ', '"c = \'\\u00fc\'\\na = ')


def test_a_changed_notebook_is_not_fixed(tmp_path: Path) -> None:
    path = tmp_path / "n.ipynb"
    path.write_text(LAYOUTS["nbformat"]())
    from ipy_istring.check.fix import apply_fixes
    from ipy_istring.check.scan import check_file

    result = check_file(path)
    path.write_text(LAYOUTS["nbformat"]().replace("ann", "amy"))  # (changed since the check)
    before = path.read_bytes()
    _, err, _ = apply_fixes([result], write=True)
    assert "cannot fix: the notebook changed since it was checked" in err
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"cells": [{"source": 5}]}', "not text"),
        ('{"cells": [1]}', "not in the notebook"),
        ('{"cells": [{"source": ["a", "b"]}], "cells": []}', "not in the notebook"),
    ],
)
def test_a_source_that_cannot_be_replaced_says_why(text: str, reason: str) -> None:
    with pytest.raises(NotebookError, match=reason):
        replace_sources(text, {1: "x = 1\n"})


def test_a_repeated_key_is_replaced_where_json_reads_it() -> None:
    # json.loads keeps the last of a repeated key: so is the source replaced.
    text = '{"cells": [{"cell_type": "code", "source": "a\\n", "source": "b\\n"}]}'
    new = replace_sources(text, {1: "c\n"})
    assert new == text.replace('"b\\n"', '"c\\n"')
    assert new.startswith('{"cells": [{"cell_type": "code", "source": "a\\n", "source": "')


def test_the_import_does_not_go_in_a_cell_that_does_not_compile(
    tmp_path: Path, ishell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # A cell that does not compile never runs: an import put there binds nothing, and the
    # fixed `!` line's {shlex.quote(...)} would name nothing (IPython then runs the line with
    # the braces as they are).
    broken = "import os\nprint((1)\n"
    shell_line = "x = os.environ.get('X', 'a')\n!echo {x} > /dev/null\n"
    path = tmp_path / "nb.ipynb"
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(broken), nbformat.v4.new_code_cell(shell_line)]
    nbformat.write(notebook, path)
    assert main(["--fix", str(path)]) == 2  # (the broken cell cannot be checked)
    assert "[cell 1]: cannot check: line 2: '(' was never closed" in capsys.readouterr().err
    fixed = [cell.source for cell in nbformat.read(path, as_version=4).cells]
    quoted = "!echo {shlex.quote(str(x))} > /dev/null\n"
    assert fixed == [broken, "import shlex\nx = os.environ.get('X', 'a')\n" + quoted]
    run(ishell, "import os")
    for source in fixed[1:]:
        run(ishell, source)
    assert "shlex" in ishell.user_ns


def test_no_fix_before_any_cell_that_compiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nb.ipynb"
    notebook = nbformat.v4.new_notebook()
    cells = ["x = (\n", "%%timeit -n1 -r1\nimport os\nos.system(f': {os.getcwd()}')\n"]
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(notebook, path)
    before = path.read_bytes()
    assert main(["--fix", str(path)]) == 2
    err = capsys.readouterr().err
    assert "[cell 2]:3:11: not fixed: no cell before it runs the fix's import" in err
    assert "a cell that does not compile never runs" in err
    assert path.read_bytes() == before


def test_outputs_are_not_walked_value_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # Only the cells and their sources are read with Python's scanner (each value with its
    # place); outputs and metadata at once by the C scanner: a notebook of large outputs is
    # fixed about as fast as json.loads reads it.
    import json.decoder

    document = _document()
    for cell in document["cells"][1:]:
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["x\n"] * 5000}]
    document["metadata"]["big"] = [[1, 2]] * 5000
    text = json.dumps(document, indent=1)
    scanned: list[int] = []
    array, member = json.decoder.JSONArray, json.decoder.JSONObject  # type: ignore[attr-defined]

    def counted_array(*args: Any) -> Any:
        scanned.append(1)
        return array(*args)

    def counted_object(*args: Any) -> Any:
        scanned.append(1)
        return member(*args)

    monkeypatch.setattr(json.decoder, "JSONArray", counted_array)
    monkeypatch.setattr(json.decoder, "JSONObject", counted_object)
    new = replace_sources(text, {3: _fixed(CELLS[1])})
    assert json.loads(new)["cells"][2]["source"] == _fixed(CELLS[1]).splitlines(keepends=True)
    # the notebook, its cells list, each cell and its source list
    assert len(scanned) == 2 + 2 * len(document["cells"])
