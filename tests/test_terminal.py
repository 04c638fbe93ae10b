"""Terminal IPython, driven through a real pseudo-terminal as a person would type."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]|\x1b\][^\x07]*\x07")


@pytest.fixture
def terminal() -> Iterator[Any]:
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "IPython",
            "--no-banner",
            "--colors=NoColor",
            "--TerminalInteractiveShell.autoindent=False",
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 220),
    )
    child.expect(r"In \[1\]:")
    child.send("%load_ext ipy_istring\r")
    child.expect(r"In \[2\]:")
    try:
        yield child
    finally:
        child.sendeof()
        child.close(force=True)


def screen(text: str) -> str:
    return ESCAPES.sub("", text)


def test_a_block_holding_an_i_string_is_entered_whole(terminal: Any) -> None:
    # Were the block submitted at its first line (IPython's check_complete never runs post
    # transformers), `def f():` alone would fail with an IndentationError.
    terminal.send("x = '<b>'\r")
    terminal.expect(r"In \[3\]:")
    terminal.send("def f():\r")
    terminal.send('    return i"{x!r} and {1+1:>3}"\r')
    terminal.send("\r")
    index = terminal.expect([r"In \[4\]:", "Error"])
    assert index == 0, screen(terminal.before)
    terminal.send("f()\r")
    terminal.expect(r"In \[5\]:")
    shown = screen(terminal.before)
    assert "Traceback" not in shown
    # the compact text view: fields with their values, and the rendered result
    assert re.search(r"0\s+x\s+'<b>'\s+str\s+!r", shown), shown
    assert "format → '<b>' and   2" in shown
    assert "Widget" not in shown  # the terminal never builds a widget


def test_a_malformed_i_string_points_into_the_cell(terminal: Any) -> None:
    terminal.send("y = 1; z = i'{1 +}'\r")
    terminal.expect("SyntaxError")
    terminal.expect(r"In \[\d+\]:")
    shown = screen(terminal.before)
    assert "i-string" in shown, shown
    terminal.send("y\r")  # the cell did not run
    terminal.expect("NameError")
