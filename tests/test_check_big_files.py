"""The check of a big file (``_BIG`` lines and more), which ``check.scan`` parses in runs of
pieces and without the top-level functions that call no sink: it must find what one parse of
the whole file finds, at the same places, and fail as that parse fails."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from check_corpus import SCRIPTS, dense_file

from ipy_istring.check import scan

STDLIB = Path(sysconfig.get_paths()["stdlib"])
MODULES = ["abc.py", "copy.py", "fnmatch.py", "shlex.py", "textwrap.py", "base64.py", "glob.py"]


def realistic(lines: int) -> str:
    """Standard-library modules (one of copy.py's docstring lines starts with ``class ``) with a
    corpus script after each, to ``lines`` lines."""
    text: list[str] = []
    count = index = 0
    while count < lines:
        module = (STDLIB / MODULES[index % len(MODULES)]).read_text(encoding="utf-8")
        module = "".join(
            line for line in module.splitlines(keepends=True)
            if not line.startswith("from __future__")
        )  # fmt: skip
        text.append(module + "\n" + SCRIPTS[index % len(SCRIPTS)] + "\n")
        count += text[-1].count("\n")
        index += 1
    return "".join(text)


def as_one_parse(source: str, monkeypatch: pytest.MonkeyPatch) -> scan.FileResult:
    """``source`` checked with one parse of all of it, as a small file is."""
    with monkeypatch.context() as patched:
        patched.setattr(scan, "_BIG", 10**9)
        return scan.check_python(source, "big.py")


def runs_parsed(source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[scan.FileResult, int]:
    """``source`` checked, and how many texts were parsed to check it."""
    parsed = 0
    parse_piece = scan._parse_piece

    def counted(text: str, first_line: int) -> tuple[list, bool]:
        nonlocal parsed
        parsed += 1
        return parse_piece(text, first_line)

    with monkeypatch.context() as patched:
        patched.setattr(scan, "_parse_piece", counted)
        return scan.check_python(source, "big.py"), parsed


def places(result: scan.FileResult) -> list[tuple[int, int, int, int, str, str]]:
    return [(f.line, f.column, f.end_line, f.end_column, f.call, f.how) for f in result.findings]


@pytest.mark.parametrize("text", [realistic(9_000), dense_file(9_000)], ids=["realistic", "dense"])
def test_a_big_file_in_runs_finds_what_one_parse_finds(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, parsed = runs_parsed(text, monkeypatch)
    assert parsed >= 4  # (runs of about _BIG lines: this is the split path)
    assert not result.errors
    assert len(result.findings) > 20
    assert places(result) == places(as_one_parse(text, monkeypatch))
    assert result.findings[-1].line > 8_000


def test_a_run_ending_inside_a_docstring_is_parsed_with_the_next() -> None:
    # The module's docstring runs past _BIG lines, and its next line starts with `class `:
    # the first run ends inside the string.
    prose = "".join(f"line {n} of the docstring\n" for n in range(scan._BIG + 50))
    text = (
        '"""A module.\n' + prose + "class instances are copied too.\n" + '"""\n'
        "import os\n"
        "def run(name):\n"
        '    os.system(f"ls {name}")\n'
    )
    result = scan.check_python(text, "big.py")
    assert not result.errors
    assert [(f.line, f.call) for f in result.findings] == [(scan._BIG + 56, "os.system")]


def test_a_syntax_error_in_a_big_file_is_reported_at_its_line() -> None:
    text = realistic(6_000)
    broken = text + "def broken(:\n    pass\n" + dense_file(2_500)
    result = scan.check_python(broken, "big.py")
    line = text.count("\n") + 1
    assert result.errors == [f"big.py: cannot check: line {line}: invalid syntax"]
    assert not result.findings


def test_an_unclosed_string_at_a_big_files_end_is_reported() -> None:
    text = realistic(6_000) + 'QUERY = """select\n' + "x\n" * 3_000
    result = scan.check_python(text, "big.py")
    assert len(result.errors) == 1
    assert "unterminated triple-quoted string" in result.errors[0]


def test_i_literals_in_a_big_file_keep_the_places_of_the_findings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An i-literal before a finding on its line (the rewrite makes the line longer), in a
    piece parsed now and in a function put aside and parsed when its return value is asked
    for."""
    filler = realistic(5_000)
    text = (
        filler
        + "import os\n"
        + "from ipy_istring import sh\n"
        + "def command(name):\n"
        + '    quoted = sh(i"ls {name}"); return f"ls {name}"\n'
        + filler
        + "def main(name):\n"
        + '    os.system(sh(i"cat {name}")); os.system(f"cat {name}")\n'
        + "    os.system(command(name))\n"
    )
    result = scan.check_python(text, "big.py")
    assert not result.errors
    assert places(result) == places(as_one_parse(text, monkeypatch))
    last = text.count("\n")
    ours = [(f.line, f.column, f.call) for f in result.findings if f.line >= last - 1]
    assert ours == [(last - 1, 45, "os.system"), (last, 15, "os.system")]
