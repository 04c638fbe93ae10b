"""sh() red team, fourteenth pass: the shell's grammar where the lexer read it otherwise.

Each hole was reproduced in real dash and bash (HOME a fresh directory), with a positive
control (the same template with each value through plain ``shlex.quote`` ran the payload),
then refused:

* A newline (or a comment) after ``|``, ``&&`` or ``||`` continues the pipeline or list
  (POSIX ``linebreak``): ``echo {x} |⏎sh`` ran the value, the lexer had read two commands.
  Now the newline there is a linebreak, and the pipe is still the pipe.
* A shell's ``-c`` command string is the first *operand* after its options: ``sh -c --
  'eval "$1"' sh {x}`` (also ``-c -e``, ``-c -O extglob``, ``-c +o errexit``, ``-c -``) ran
  the value, the lexer had taken ``--`` for the string; bash's ``--rcfile FILE`` and
  ``--init-file FILE`` take an argument (``bash --rcfile /dev/null -c {x}`` ran it), and a long
  option bash does not list is refused by allow-list.
* Two fields in one word: ``ssh {a}{b}`` with ``''`` and ``-oProxyCommand=cmd``, ``git
  ls-remote {a}-{b} r`` with ``-`` and ``upload-pack=cmd``, ``ed -s {a}{b}`` with ``''`` and
  ``!cmd``, ``find {a}{b}`` with ``''`` and ``-delete``, ``[ {a}{b} {c} ]`` with ``-``, ``v``:
  only the first value was checked.  Now the word as rendered is checked too.
"""

from __future__ import annotations

import pathlib
import shlex

import pytest
from test_shell_contexts import SHELLS
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory, HOME there)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh
from ipy_istring.template import Interpolation, InterpolationTemplate

_TOUCH = "touch pwned-sentinel"
_BASH = ["/bin/bash"]  # bash-only grammar: dash reads these templates otherwise


def _template(case: str, values: tuple[str, ...]) -> InterpolationTemplate:
    """``case`` with its §s holding ``values`` in order (the last one for the rest)."""
    pieces = case.split("§")
    parts: list[object] = [pieces[0]]
    for n, piece in enumerate(pieces[1:]):
        parts += [Interpolation(values[min(n, len(values) - 1)], f"v{n}"), piece]
    return InterpolationTemplate(*parts)  # type: ignore[arg-type]


def _naive(case: str, values: tuple[str, ...]) -> str:
    """Each value through shlex.quote with no look at its context: the positive control."""
    t = _template(case, values)
    pieces = [t.strings[0]]
    for interpolation, string in zip(t.interpolations, t.strings[1:], strict=True):
        pieces += [shlex.quote(str(interpolation.value)), string]
    return "".join(pieces)


# (template, values, what the refusal says, the shells where plain quoting runs the payload)
LINEBREAK = [
    (f"echo §{pipe}sh", (_TOUCH,), r"in a pipeline into sh", SHELLS)
    for pipe in (" |\n", " |\n\n  ", " | # a comment\n", "|\n")
] + [
    ('echo "$(echo § |\nsh)"', (_TOUCH,), r"in a pipeline into sh", SHELLS),
    ("sh -c 'echo \"$1\" |\nsh' sh §", (_TOUCH,), r"positional parameter", SHELLS),
    ("echo § |\ntee s.sh >/dev/null; sh s.sh", (_TOUCH,), r"written to the file 's\.sh'", SHELLS),
    ("set -- §; eval 'echo \"$1\" |\nsh'", (_TOUCH,), r"eval parses", SHELLS),
    ("echo § |\n  bash", (_TOUCH,), r"in a pipeline into bash", SHELLS),
    ("true &&\necho § |\n# c\n\nsh", (_TOUCH,), r"in a pipeline into sh", SHELLS),
]
COMMAND_STRING = [
    ("bash --rcfile /dev/null -c §", (_TOUCH,), r"command string of bash -c", SHELLS),
    ("bash --init-file /dev/null -c §", (_TOUCH,), r"command string of bash -c", SHELLS),
    ("env bash --init-file /dev/null -c §", (_TOUCH,), r"command string of bash -c", SHELLS),
    ("sh -c -- 'eval \"$1\"' sh §", (_TOUCH,), r"positional parameter", SHELLS),
    ("sh -c - 'eval \"$1\"' sh §", (_TOUCH,), r"positional parameter", SHELLS),
    ("sh -c -e 'eval \"$1\"' sh §", (_TOUCH,), r"positional parameter", SHELLS),
    ("bash -c -O extglob 'eval \"$1\"' bash §", (_TOUCH,), r"positional parameter", SHELLS),
    ("sh -c +o errexit 'eval \"$1\"' sh §", (_TOUCH,), r"positional parameter", SHELLS),
    ("bash --rcfile /dev/null -c 'eval \"$1\"' bash §", (_TOUCH,), r"positional", SHELLS),
    ("echo § | sh -c -- sh", (_TOUCH,), r"in a pipeline into sh running 'sh'", SHELLS),
    ("echo § | sh -c -e 'cat | sh'", (_TOUCH,), r"in a pipeline into sh running", SHELLS),
    ("echo § | bash --rcfile /dev/null -c sh", (_TOUCH,), r"in a pipeline into bash", SHELLS),
    ("echo § | xargs sh -c -- 'eval \"$1\"' sh", ("touch${IFS}pwned-sentinel",), r"xargs", SHELLS),
]
COMMAND_STRING_REFUSED = [  # a long option bash does not list: it may take an argument
    ("bash --frobnicate -c 'echo \"$1\"' bash §", ("x",), r"command string of bash -c"),
]
JOINED = [
    ("ssh -o BatchMode=yes §§ true", ("", "-oProxyCommand=" + _TOUCH), r"'-oProxyCommand", SHELLS),
    ("ed -s §§ </dev/null", ("", "!" + _TOUCH), r"as rendered \('!touch", SHELLS),
    ("[ §§ § ] && echo set", ("-", "v", "a[$(touch pwned-sentinel)]"), r"operator of test", _BASH),
    ("git ls-remote §§ r", ("-", "-upload-pack=touch pwned-sentinel;false"), r"'--upl", SHELLS),
    ("git ls-remote §-§ r", ("-", "upload-pack=touch pwned-sentinel;false"), r"'--upl", SHELLS),
]
ATTACKS = LINEBREAK + COMMAND_STRING + JOINED

# Look-alikes: accepted, and run harmlessly (values given the payload where they are data).
ACCEPTED = [
    ("echo § |\n  grep -c touch", (_TOUCH,)),
    ("echo § | # count\n  wc -l", (_TOUCH,)),
    ("echo § &&\necho done", (_TOUCH,)),
    ("false ||\n  printf '%s\\n' §", (_TOUCH,)),
    ("echo § |\n  grep -c x\necho hi | sh", (_TOUCH,)),
    ("sh -c -- 'echo \"$1\"' sh §", (_TOUCH,)),
    ("sh -c -e -- 'printf %s \"$1\"' sh §", (_TOUCH,)),
    ("bash --norc --noprofile -c 'echo \"$1\"' bash §", (_TOUCH,)),
    ("bash --rcfile /dev/null -c 'echo \"$1\"' bash §", (_TOUCH,)),
    ("echo § | sh -c -- 'cat'", (_TOUCH,)),
    ("ssh -o BatchMode=yes -o ConnectTimeout=1 §§ true", ("local", "host.invalid")),
    ("ls -d §§", (".", "")),
    ("echo §-§", ("-", "-x")),
    ("[ §§ = ab ] && echo same", ("a", "b")),
]


@pytest.mark.parametrize(("case", "values", "message"), [
    *((case, values, message) for case, values, message, _ in ATTACKS),
    *COMMAND_STRING_REFUSED,
])  # fmt: skip
def test_each_attack_is_refused(case: str, values: tuple[str, ...], message: str) -> None:
    with pytest.raises(RenderError, match=message):
        sh(_template(case, values))


@pytest.mark.parametrize(
    ("shell", "case", "values"),
    [(shell, case, values) for case, values, _, shells in ATTACKS for shell in shells],
)
def test_naive_quoting_runs_each_attack(
    shell: str, case: str, values: tuple[str, ...], tmp_path: pathlib.Path
) -> None:
    # (git ls-remote needs a repository for the remote 'r')
    setup = "git init -q r; " if "git ls-remote" in case else ""
    assert _runs_payload(shell, setup + _naive(case, values), tmp_path / "run")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "values"), ACCEPTED)
def test_look_alikes_stay_accepted_and_run_nothing(
    shell: str, case: str, values: tuple[str, ...], tmp_path: pathlib.Path
) -> None:
    assert not _runs_payload(shell, sh(_template(case, values)), tmp_path / "run")
