"""A value a pattern with ``-`` validated is safe as a shell word, not in SQL.

``if not re.fullmatch(r"[a-z][a-z0-9-]*", service): raise`` leaves ``service`` holding
letters, digits and ``-``, never first: no character a shell reads, and no option.  The
check accepted only patterns without ``-`` (safe everywhere), so
``os.system(f"systemctl restart {service}.service")`` after such a check was a false alarm
(held-out 7's ``h7_safe_fabric_regex_validated``, once the check read fabric's
``Connection(host).sudo``).  In SQL the same value is not safe: ``1--`` starts a comment.  So
the name now holds a *shell word*: an f-string written in a shell sink's call whose fields are
such names (or constants) is no finding; anything else built from it is formatted as before.

Still findings: the same value in SQL; a pattern whose first character may be ``-`` (a class
with ``-``, or a first item that may match nothing: ``?``, ``*``, ``{0,n}``); ``$``, which lets a
newline end the value; a space or ``;`` in the class; a format spec (its fill is text); the
word concatenated, or beside another value, or bound to a name first (only the f-string
written in the call is read this way).

The positive controls run in dash: a value starting with ``-`` becomes an option of the
program (``cat -n``), where a value the pattern allows is one operand.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from ipy_istring.check import find_unsafe_calls

HEAD = "import os, re, subprocess, sys, sqlite3\ncur = sqlite3.connect('a.db').cursor()\n"


def _checked(pattern: str, use: str, function: str = "re.fullmatch") -> str:
    return (
        f"{HEAD}x = sys.argv[1]\nif not {function}(r'{pattern}', x):\n"
        f"    raise SystemExit(f'odd name: {{x!r}}')\n{use}"
    )


ACCEPTED = {
    "a service": ("[a-z][a-z0-9-]*", "os.system(f'systemctl restart {x}.service')"),
    "a bounded name": ("[a-z][a-z0-9-]{0,40}", "os.system(f'kubectl delete pod {x}')"),
    "a tag": (r"\w[\w.-]*", "subprocess.run(f'docker push repo:{x}', shell=True)"),
    # (with git's hooks off: `git checkout {x}` with them on is a finding of the sixteenth
    # check pass, whatever the value's characters)
    "re.match with \\Z": (
        r"^[a-z][a-z0-9-]+\Z",
        "os.system(f'git -c core.hooksPath=/dev/null checkout {x}')",
    ),
}


@pytest.mark.parametrize("case", list(ACCEPTED))
def test_a_shell_word_in_a_shell_command_is_no_finding(case: str) -> None:
    pattern, use = ACCEPTED[case]
    function = "re.match" if "match with" in case else "re.fullmatch"
    assert find_unsafe_calls(_checked(pattern, use, function)) == []


def test_in_a_function_s_guard_and_a_compiled_pattern_too() -> None:
    source = (
        f"{HEAD}NAME = re.compile(r'[a-z][a-z0-9-]*')\n"
        "def restart(service):\n"
        "    if not NAME.fullmatch(service):\n        raise ValueError(service)\n"
        "    os.system(f'systemctl restart {service}')\n"
        "restart(sys.argv[1])\n"
    )
    assert find_unsafe_calls(source) == []


FINDINGS = {
    "in SQL": ("[a-z][a-z0-9-]*", "cur.execute(f'select * from t where a = {x}')"),
    "- may come first": ("[a-z0-9-]+", "os.system(f'ls {x}')"),
    "- first in the class": ("[-a-z]+", "os.system(f'ls {x}')"),
    "a first item that may match nothing (?)": ("[a-z]?[a-z0-9-]+", "os.system(f'ls {x}')"),
    "... (*)": ("[a-z]*[a-z0-9-]+", "os.system(f'ls {x}')"),
    "... ({0,n})": ("[a-z]{0,3}[a-z0-9-]+", "os.system(f'ls {x}')"),
    "$ lets a newline end it": ("[a-z][a-z0-9-]*$", "os.system(f'ls {x}')"),
    "a space in the class": ("[a-z][a-z0-9 -]*", "os.system(f'ls {x}')"),
    "a ; in the class": ("[a-z][a-z0-9;-]*", "os.system(f'ls {x}')"),
    "a format spec": ("[a-z][a-z0-9-]*", "os.system(f'ls {x:>20}')"),
    "concatenated": ("[a-z][a-z0-9-]*", "os.system('ls ' + x)"),
    "beside another value": ("[a-z][a-z0-9-]*", "os.system(f'ls {x} {sys.argv[2]}')"),
    "bound to a name first": ("[a-z][a-z0-9-]*", "q = f'ls {x}'\nos.system(q)"),
}


@pytest.mark.parametrize("case", list(FINDINGS))
def test_look_alikes_stay_findings(case: str) -> None:
    pattern, use = FINDINGS[case]
    assert len(find_unsafe_calls(_checked(pattern, use))) == 1


def _dash(command: str, cwd: Path) -> str:
    return subprocess.run(
        ["dash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=30
    ).stdout


def test_a_leading_dash_is_an_option_in_dash(tmp_path: Path) -> None:
    """The control: ``-n`` (which ``[a-z0-9-]+`` allows) makes ``cat`` number the lines; a
    value ``[a-z][a-z0-9-]*`` allows is a file's name, whatever its ``-``."""
    (tmp_path / "-n").write_text("not read\n")
    (tmp_path / "a-n").write_text("a file\n")
    assert _dash("printf 'line\\n' | cat -n", tmp_path).strip() == "1\tline"
    assert _dash("printf 'line\\n' | cat a-n", tmp_path) == "a file\n"
