"""Terminal IPython, driven through a real pseudo-terminal as a person would type."""

from __future__ import annotations

import contextlib
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
            # (Ctrl-D ends it at once: no "Do you really want to exit?" to answer)
            "--TerminalInteractiveShell.confirm_exit=False",
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
        _end(child)


def _end(child: Any) -> None:
    """End the terminal IPython as a person does (Ctrl-D), and wait for it to exit: killing it
    at once raced a loaded machine ("Could not terminate the child" when it was not reaped
    within pexpect's 0.1 s).  A Ctrl-D typed while IPython is still printing is lost (the
    prompt's terminal mode drops what was typed ahead), so it is typed again until it ends."""
    for _ in range(12):
        if not child.isalive():
            break
        child.sendeof()
        with contextlib.suppress(pexpect.TIMEOUT):  # (typed again, or killed below)
            child.expect(pexpect.EOF, timeout=5)
            break
    child.ptyproc.delayafterterminate = 2  # then SIGKILL, waited for as long
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


# --- a value cannot disguise what will run, on a real terminal's screen -------------------------


@pytest.fixture
def tmux_ipython(tmp_path: Any) -> Iterator[Any]:
    """Terminal IPython in a real terminal (tmux), whose screen is read with capture-pane."""
    import shutil
    import subprocess

    from conftest import require

    require(shutil.which("tmux") is not None, "no tmux (apt-get install tmux)")
    socket = str(tmp_path / "tmux.sock")
    command = (
        f"{sys.executable} -m IPython --no-banner --colors=NoColor "
        "--TerminalInteractiveShell.autoindent=False"
    )

    def tmux(*args: str) -> str:
        done = subprocess.run(
            ["tmux", "-S", socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    tmux("new-session", "-d", "-x", "200", "-y", "50", command)
    try:
        yield tmux
    finally:
        subprocess.run(["tmux", "-S", socket, "kill-server"], check=False)


def wait_for_screen(tmux: Any, text: str, *, colours: bool = False) -> str:
    import time

    deadline = time.monotonic() + 60
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", *(["-e"] if colours else []))
        if text in screen:
            return str(screen)
        time.sleep(0.2)  # polling a screen, not a timing assumption
    raise AssertionError(f"{text!r} never appeared on the screen:\n{screen}")


def test_invisible_characters_neither_colour_nor_overwrite_the_terminal(tmux_ipython: Any) -> None:
    tmux = tmux_ipython
    wait_for_screen(tmux, "In [1]:")
    tmux("send-keys", "%load_ext ipy_istring", "Enter")
    wait_for_screen(tmux, "In [2]:")
    value = r'"X\u202e\u2066\u2069\u200b\x1b[31mred\rover\bb\x00end"'
    tmux("send-keys", f"v = {value}; i'echo {{v}}'", "Enter")
    screen = wait_for_screen(tmux, "In [3]:", colours=True)
    assert "\x1b[31m" not in screen  # the terminal was not turned red
    lines = screen.splitlines()
    shown = r"X\u202e\u2066\u2069\u200b\x1b[31mred\rover\x08b\x00end"
    # every label starts its own line, whole, followed by the value's escapes
    assert any(line.lstrip().startswith(f"format → echo {shown}") for line in lines), screen
    assert any(line.lstrip().startswith("sql → echo ?  params: [") for line in lines), screen
    assert any(line.lstrip().startswith("sh → error: RenderError") for line in lines), screen


def test_the_screen_check_sees_a_raw_escape(tmux_ipython: Any) -> None:
    """Positive control: printed raw, the same value does turn the terminal red."""
    tmux = tmux_ipython
    wait_for_screen(tmux, "In [1]:")
    tmux("send-keys", r'print("plain \x1b[31mred\x1b[0m")', "Enter")
    screen = wait_for_screen(tmux, "In [2]:", colours=True)
    assert "\x1b[31m" in screen


# --- a BaseException from a value: shown in the text view, but Ctrl-C still stops -------------


def test_a_value_calling_sys_exit_in_its_repr_is_shown_and_ipython_goes_on(terminal: Any) -> None:
    """The text view let a repr's SystemExit through: IPython printed "An exception has
    occurred" instead of the template, and every other field and renderer was lost."""
    terminal.send("import sys; Quit = type('Quit', (), {'__repr__': lambda s: sys.exit(3)})\r")
    terminal.expect(r"In \[3\]:")
    terminal.send("i'rm {Quit()} {\"my file\"}'\r")
    terminal.expect(r"In \[4\]:")
    shown = screen(terminal.before)
    assert "repr() raised SystemExit: 3" in shown, shown
    assert "'my file'" in shown and "sh → error: SystemExit: 3" in shown
    assert "An exception has occurred" not in shown
    terminal.send("1 + 1\r")  # IPython goes on
    terminal.expect(r"In \[5\]:")
    assert re.search(r"Out\[4\]:\s*2", screen(terminal.before)), screen(terminal.before)


def test_ctrl_c_on_a_slow_repr_stops_the_display(terminal: Any) -> None:
    terminal.send(
        "import time; Slow = type('Slow', (), {'__repr__': "
        "lambda s: print('slow repr started', flush=True) or time.sleep(60) or 'Slow()'})\r"
    )
    terminal.expect(r"In \[3\]:")
    terminal.send("i'rm {Slow()}'\r")
    terminal.expect("slow repr started")
    terminal.sendintr()  # Ctrl-C, as the terminal sends it
    terminal.expect("KeyboardInterrupt", timeout=20)
    terminal.expect(r"In \[4\]:", timeout=20)
    assert "repr() raised" not in screen(terminal.before)
