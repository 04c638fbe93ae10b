"""sh() in every context of tests/contexts_sh.py, run in real dash and bash.

Each case is refused with a RenderError, or it runs and the harness proves that each value
arrived as exactly one word where a benign value stood: the run with a hostile value must log
the same ``probe`` calls, print the same output and create the same files as the run with a
benign value, with the benign value replaced by the hostile one, and never the sentinel file.
The positive control renders known-bad cases with plain ``shlex.quote`` per value (the
renderer before this corpus) and requires the harness to see the injection.
"""

from __future__ import annotations

import pathlib
import shlex
import shutil
import subprocess

import pytest
from contexts_sh import BENIGNS, CASES, FIELD, NAIVE_ESCAPES, NEEDS, PAYLOADS
from hostile import SENTINEL

from ipy_istring.fields import RenderError
from ipy_istring.shell import _lexes_like_template, sh
from ipy_istring.template import Interpolation, InterpolationTemplate

SHELLS = ["/usr/bin/dash", "/bin/bash"]
# Not a shell name, so that a value which becomes an assignment shows as a difference.
BENIGN = "benign0-value"
# Logs each call's arguments to $PROBE_LOG: NUL after each argument, \1 after each call.
PROBE = (
    'probe() { for a in "$@"; do printf "%s\\0" "$a"; done >>"$PROBE_LOG"; '
    'printf "\\001" >>"$PROBE_LOG"; }\n'
)


def template(case: str, values: list[str]) -> InterpolationTemplate:
    """The case with its fields holding ``values`` (one per field, reused cyclically)."""
    strings = case.split(FIELD)
    parts: list[object] = [strings[0]]
    for n, string in enumerate(strings[1:]):
        parts += [Interpolation(values[n % len(values)], f"v{n}"), string]
    return InterpolationTemplate(*parts)  # type: ignore[arg-type]


class Run:
    """What one command did: the probe calls, the output, the files it left."""

    def __init__(self, shell: str, command: str, where: pathlib.Path) -> None:
        cwd = where / "cwd"
        cwd.mkdir(parents=True)
        (cwd / "a-file").write_text("")
        log = where / "probe.log"
        log.write_bytes(b"")
        done = subprocess.run(
            [shell, "-c", PROBE + command],
            cwd=cwd,
            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent-home", "PROBE_LOG": str(log)},
            capture_output=True,
            timeout=10,
        )
        calls = log.read_bytes().decode("utf-8", "surrogateescape").split("\1")[:-1]
        self.calls = [call.split("\0")[:-1] for call in calls]
        self.stdout = done.stdout.decode("utf-8", "surrogateescape")
        self.files = sorted(path.name for path in cwd.iterdir())
        self.sentinel = (cwd / SENTINEL).exists() or (where / SENTINEL).exists()

    def replaced(self, benign: str, value: str) -> tuple[object, ...]:
        """This run as it should look had ``value`` stood where ``benign`` did."""
        return (
            [[arg.replace(benign, value) for arg in call] for call in self.calls],
            self.stdout.replace(benign, value),
            sorted(name.replace(benign, value) for name in self.files),
            False,
        )

    def seen(self) -> tuple[object, ...]:
        return (self.calls, self.stdout, self.files, self.sentinel)


def escapes(
    shell: str, case: str, klass: str, render: object, tmp: pathlib.Path
) -> tuple[list[str], int]:
    """Payloads that escaped when ``render`` renders ``case`` in ``shell``, and how many ran."""
    benign = BENIGNS.get(case, BENIGN)
    baseline = Run(shell, render(template(case, [benign])), tmp / "benign")  # type: ignore[operator]
    assert not baseline.sentinel
    escaped, ran = [], 0
    for number, payload in enumerate(PAYLOADS):
        if klass == "redirection" and payload == "":
            continue  # '' is no file name: the redirection fails, which injects nothing
        try:
            command = render(template(case, [payload]))  # type: ignore[operator]
        except RenderError:
            continue  # refused for this value (an operator of test): nothing runs
        run = Run(shell, command, tmp / f"p{number}")
        ran += 1
        if run.seen() != baseline.replaced(benign, payload):
            escaped.append(payload)
    return escaped, ran


def naive_sh(t: InterpolationTemplate) -> str:
    """Each value through shlex.quote with no look at its context: the positive control."""
    pieces = [t.strings[0]]
    for interpolation, string in zip(t.interpolations, t.strings[1:], strict=True):
        pieces += [shlex.quote(str(interpolation.value)), string]
    return "".join(pieces)


def verdict(case: str) -> str:
    """'refused' if sh() refuses the case (its context, whatever the value), else 'accepted'."""
    try:
        sh(template(case, [BENIGN]))
    except RenderError:
        return "refused"
    return "accepted"


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("klass", "case"), CASES, ids=[repr(case) for _, case in CASES])
def test_each_context_is_refused_or_keeps_every_value_one_word(
    shell: str, klass: str, case: str, tmp_path: pathlib.Path
) -> None:
    try:
        sh(template(case, [BENIGNS.get(case, BENIGN)]))
    except RenderError as error:
        message = str(error)
        assert message.startswith("sh(): {v") and message.endswith(".")
        for payload in PAYLOADS:  # refused in its context, whatever the value
            with pytest.raises(RenderError):
                sh(template(case, [payload]))
        return
    for payload in PAYLOADS:  # the full structural check agrees with the per-word one
        try:
            rendered = sh(template(case, [payload]))
        except RenderError as error:  # refused for this value only (see test_shell.py)
            assert any(
                why in str(error)
                for why in (
                    "operator of test", "read it as an option", "as NAME=value",
                    "a builtin that reads its arguments as code",
                    "completes an option written before it",
                    "holds a pattern character",
                )
            )  # fmt: skip
            continue
        assert _lexes_like_template(rendered, template(case, [payload]))
    escaped, ran = escapes(shell, case, klass, sh, tmp_path)
    assert escaped == []
    assert ran


@pytest.mark.parametrize("case", NAIVE_ESCAPES)
def test_positive_control_the_harness_sees_naive_quoting_escape(
    case: str, tmp_path: pathlib.Path
) -> None:
    # sh() refuses these cases, or (a value as command name) quotes so that it cannot escape;
    # the test above proves that in both shells.
    if case in NEEDS and shutil.which(NEEDS[case]) is None:
        pytest.skip(f"{NEEDS[case]} is not installed")
    found = []
    for shell in SHELLS:
        escaped, _ = escapes(shell, case, "", naive_sh, tmp_path / shell.rsplit("/", 1)[1])
        found += escaped
    assert found, f"the harness saw no injection in {case!r} with naive quoting"


def test_the_corpus_covers_each_context_class() -> None:
    classes = {klass for klass, _ in CASES}
    assert len(CASES) >= 100
    for needed in (
        "here-document", "backslash", "dollar", "arithmetic", "backquote", "assignment",
        "builtin", "case", "[[", "process substitution", "brace expansion", "tilde", "history",
        "comment", "carriage return", "here-string", "command substitution", "eval",
        "runner", "interpreter", "environment", "make", "perl", "variable",
        "unknown program", "socat", "find",
    ):  # fmt: skip
        assert needed in classes
    accepted = [case for _, case in CASES if verdict(case) == "accepted"]
    assert 30 <= len(accepted) < len(CASES)


@pytest.mark.parametrize(("klass", "case"), CASES, ids=[repr(case) for _, case in CASES])
def test_argv_splits_each_context_as_dash_does_or_refuses(
    klass: str, case: str, tmp_path: pathlib.Path
) -> None:
    from ipy_istring.shell import argv

    try:
        words = argv(template(case, [BENIGN]))
    except RenderError as error:
        assert str(error).startswith("argv(): ")
        return
    if words[0] != "probe":  # a value as the command name: nothing to compare it with
        return
    for number, payload in enumerate(PAYLOADS):
        try:
            words = argv(template(case, [payload]))
            command = sh(template(case, [payload]))
        except RenderError:
            continue
        run = Run("/usr/bin/dash", command, tmp_path / f"p{number}")
        assert run.calls == [words[1:]]
