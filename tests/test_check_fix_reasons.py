"""The reason a finding is not fixed is the real one: an f-string that is one field is not
"an f-string that does not survive removing the quotes around its fields" (its own quotes
were taken for quotes written around the field)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ipy_istring.check import main


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('os.system(f"{x}")', "the field {x} stands where the command's name goes"),
        ("os.system(f'{x}')", "the field {x} stands where the command's name goes"),
        ('cur.execute(f"{x}")', "the field {x} stands where SQL needs a name or SQL text"),
        ("cur.execute(f'''{x}''')", "the field {x} stands where SQL needs a name or SQL text"),
    ],
)
def test_a_one_field_f_string_is_refused_for_its_real_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, reason: str
) -> None:
    script = tmp_path / "job.py"
    setup = "import os, sqlite3\ncur = sqlite3.connect('').cursor()\nx = input()\n"
    script.write_text(f"{setup}{line}\n")
    assert main(["--diff", str(script)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert f"not fixed: {reason}" in err, err


def test_quotes_around_a_field_inside_the_text_still_go(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (the look-alike: quotes written around a field in the query are the ones removed)
    script = tmp_path / "job.py"
    query = "select * from t where a = '{x}'"
    script.write_text(f"import sqlite3\nx = input()\nsqlite3.connect('').execute(f\"{query}\")\n")
    assert main(["--diff", str(script)]) == 0
    fixed = "+sqlite3.connect('').execute(*sql(i\"select * from t where a = {x}\"))\n"
    assert fixed in capsys.readouterr().out
