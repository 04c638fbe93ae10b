"""Each file is checked once, whatever names the command line gives it: twice the same, ``./a.py``
and ``a.py``, a file and its folder, a symlink, a hard link.  The first name given is the one
reported."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ipy_istring.check import main

UNSAFE = 'import os\nx = input()\nos.system(f"ls {x}")\n'


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text(UNSAFE)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _reported(capsys: pytest.CaptureFixture[str], *paths: str) -> list[tuple[str, int]]:
    assert main(["--format", "json", *paths]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    return [(f["path"], f["line"]) for f in findings]


@pytest.mark.parametrize(
    "paths",
    [
        ["src/a.py", "src/a.py"],
        ["src/a.py", "./src/a.py"],
        ["src/a.py", "src/../src/a.py"],
        ["src/a.py", "src"],
        ["src/a.py", "."],
        ["src/a.py", "link.py"],
        ["src/a.py", "hard.py"],
        ["src/a.py", "src", ".", "link.py", "hard.py", "./src/a.py"],
    ],
)
def test_a_file_named_twice_is_checked_once_by_its_first_name(
    project: Path, capsys: pytest.CaptureFixture[str], paths: list[str]
) -> None:
    (project / "link.py").symlink_to("src/a.py")
    os.link(project / "src" / "a.py", project / "hard.py")
    assert _reported(capsys, *paths) == [("src/a.py", 3)]


def test_the_first_name_given_is_reported(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "link.py").symlink_to("src/a.py")
    assert _reported(capsys, "./src/a.py", "link.py", "src") == [("src/a.py", 3)]
    assert _reported(capsys, "link.py", "src/a.py") == [("link.py", 3)]


def test_files_alike_but_not_the_same_are_each_checked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # (the look-alike: the same text in two files, and a copy, are two findings)
    (project / "b.py").write_text(UNSAFE)
    assert _reported(capsys, "src/a.py", "b.py", ".") == [("src/a.py", 3), ("b.py", 3)]


def test_a_missing_file_named_twice_is_said_once(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["nothere.py", "nothere.py"]) == 2
    assert capsys.readouterr().err == "nothere.py: cannot check: no such file\n"


def test_fix_of_a_file_named_twice_fixes_it_once(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--fix", "src/a.py", "./src/a.py", "src"]) == 0
    assert capsys.readouterr().out == "fixed 1 in src/a.py\n"
    assert (project / "src" / "a.py").read_text() == (
        'from ipy_istring import sh\nimport os\nx = input()\nos.system(sh(i"ls {x}"))\n'
    )
