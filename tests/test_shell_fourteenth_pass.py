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
* bash's ``NAME+=value`` and ``NAME[i]=value`` words, which dash reads as a command's name:
  ``BASH_ENV+={x} bash -c :``, ``n+=x {c} {a}`` with ``eval`` ran the value.  The lexer stops.
* A line continuation inside double quotes: ``"$\\⏎(sh)"`` is ``"$(sh)"``.  The lexer stops.
* bash's ``$_`` as ``${_:-x}``, ``${_#}``, ``${_@P}``, or by its bare name in arithmetic after a
  construct the lexer stops at (``(( _ ))``).  Now each counts as a use of ``$_``.
* bash's ``printf -v v %s {x}`` sets a variable, ``history -s {x}; fc -s`` runs the value,
  ``mapfile -C eval`` evaluates each line: each ran the value in bash.
* A variable holding a value, expanded in an assignment before a command (``set -- {x};
  BASH_ENV=$1 bash -c :``) or to an upper-case name (``PS4=$1; set -x``): the value ran.
* bash's arithmetic reads a variable by its bare name: ``for n in {x}; do let m=n+1; done``,
  ``declare -i n; for n in {x}``, ``[ -v "a[n]" ]`` with ``a[$(cmd)]`` ran cmd.  Now with a
  variable holding a value, ``let``, ``declare -i``/``-n`` and a subscript of a name operand
  stop the lexer.

* The per-value option check on what an expansion carries (``"$(echo {x})"``, a variable
  ``read`` from a pipe) read the value, not the text the program gets: ``read`` without ``-r``
  drops backslashes (``\\-oProxyCommand=cmd``), dash's ``echo`` reads ``\\055`` as ``-``, an
  ``IFS=,`` splits at commas, a filter (``tr``, ``base64 -d``) rewrites it: each ran cmd in
  ssh or tar.  Now only ``printf '%s\\n'``, ``printf %s``, ``set --``, ``cat`` and ``tee``
  count as copying the value, ``echo`` for a value without a backslash.

And over-refusals: a value written to ``/dev/null`` counted as a written file, and a value
right after ``${name}`` was taken to touch a '}' of brace expansion.  (``2>&1>{x}`` stays
refused: dash reads ``1>`` as an IO number there, a syntax error, where bash reads ``>&1``.)
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
    ("echo § | sh -c -- '-x; sh'", (_TOUCH,), r"in a pipeline into sh running", SHELLS),
    ("echo § | bash --rcfile /dev/null -c sh", (_TOUCH,), r"in a pipeline into bash", SHELLS),
    ("echo § | xargs sh -c -- 'eval \"$1\"' sh", ("touch${IFS}pwned-sentinel",), r"xargs", SHELLS),
]
REFUSED = [
    # the report's suggested over-refusal fix is wrong: dash reads `1>` as an IO number here
    ("echo hi 2>&1>§", ("out.txt",), r"'>&' with a target other than a written file descriptor"),
    # a long option bash does not list: it may take an argument
    ("bash --frobnicate -c 'echo \"$1\"' bash §", ("x",), r"command string of bash -c"),
    # (deletes every file of the directory when run, rather than touching one)
    ("find §§ -name x", ("", "-delete"), r"as rendered \('-delete'\)"),
    # printf's format after -v NAME and -- (the report's minor finding: output only)
    ("printf -v v -- §", ("%s",), r"printf's format"),
]
JOINED = [
    ("ssh -o BatchMode=yes §§ true", ("", "-oProxyCommand=" + _TOUCH), r"'-oProxyCommand", SHELLS),
    ("ed -s §§ </dev/null", ("", "!" + _TOUCH), r"as rendered \('!touch", SHELLS),
    ("[ §§ § ] && echo set", ("-", "v", "a[$(touch pwned-sentinel)]"), r"operator of test", _BASH),
    ("git ls-remote §§ r", ("-", "-upload-pack=touch pwned-sentinel;false"), r"'--upl", SHELLS),
    ("git ls-remote §-§ r", ("-", "upload-pack=touch pwned-sentinel;false"), r"'--upl", SHELLS),
]
_SUB = "$(touch pwned-sentinel)"  # run where bash expands a variable's text (BASH_ENV, PS4)
_INDEX = "a[$(touch pwned-sentinel)]"  # run where bash evaluates a variable's text as arithmetic
BASH_ASSIGNMENT = [
    ("BASH_ENV+=§ bash -c :", (_SUB,), r"append or array assignment", _BASH),
    ("n+=x § §", ("eval", _TOUCH), r"append or array assignment", _BASH),
    ("a[0]=x § §", ("eval", _TOUCH), r"append or array assignment", _BASH),
    ("declare -i n; n+=§", (_INDEX,), r"append or array assignment", _BASH),
]
CONTINUATION = [
    ('echo § | echo "$\\\n(sh)"', (_TOUCH,), r"line continuation in a double-quoted", SHELLS),
    ('for f in §; do echo "$\\\n(eval "$f")"; done', (_TOUCH,), r"line continuation", SHELLS),
    ('set -- §; echo "$\\\n(( $1 ))"', (_INDEX,), r"line continuation", _BASH),
]
LAST_ARGUMENT = [
    ('true §; eval "${_:-true}"', (_TOUCH,), r"\$_\)", _BASH),
    ('true §; sh -c "${_#}"', (_TOUCH,), r"\$_\)", _BASH),
    ('printf "%s\\n" §; echo "${_@P}"', (_SUB,), r"\$_\)", _BASH),
    ("true §; (( _ )); echo ok", (_INDEX,), r"\$_\)", _BASH),
    ("true §; echo $(( _ + 1))", (_INDEX,), r"\$_\)", _BASH),
    ("true §; [[ _ -eq 1 ]]; echo ok", (_INDEX,), r"\$_\)", _BASH),
]
STORES = [  # bash builtins that keep a value for later code
    ('printf -v v %s §; eval "$v"', (_TOUCH,), r"shell variable", _BASH),
    ("history -s §; fc -s", (_TOUCH,), r"bash's 'history'", _BASH),
    ("echo § | mapfile -t -c 1 -C eval a", (";" + _TOUCH,), r"mapfile -C", _BASH),
    ("echo § | readarray -c 1 -C eval a", (";" + _TOUCH,), r"readarray -C", _BASH),
    (
        'printf "%s\\n" § > list.txt; mapfile -t -c 1 -C eval a < list.txt',
        (";" + _TOUCH,),
        r"written to the file 'list\.txt'",
        _BASH,
    ),
]
ASSIGNED = [  # a variable holding a value, expanded in an assignment
    ("set -- §; BASH_ENV=$1 bash -c :", (_SUB,), r"the assignment BASH_ENV=\$1", SHELLS),
    ('for f in §; do BASH_ENV="$f" bash -c :; done', (_SUB,), r"BASH_ENV=", SHELLS),
    ("sh -c 'BASH_ENV=$1 bash -c :' sh §", (_SUB,), r"the assignment BASH_ENV=\$1", SHELLS),
    (
        "echo § | while read -r v; do BASH_ENV=$v bash -c :; done",
        (_SUB,),
        r"the assignment BASH_ENV=\$v",
        SHELLS,
    ),
    ("true §; BASH_ENV=$_ bash -c :", (_SUB,), r"the assignment BASH_ENV=\$_", _BASH),
    ("set -- §; PS4=$1; set -x; : hi", (_SUB,), r"the assignment PS4=\$1", _BASH),
    ("for p in §; do PS4=$p; done; set -x; : hi", (_SUB,), r"the assignment PS4=", _BASH),
    ('for f in §; do f="$f" bash -c :; done', (_SUB,), r"environment of a command", ()),
]
ARITHMETIC = [  # bash evaluates a variable's text as arithmetic by its bare name
    ("for n in §; do let m=n+1; done", (_INDEX,), r"bash's let", _BASH),
    ('for n in §; do [ -v "a[n]" ] && echo set; done', (_INDEX,), r"bash's \[", _BASH),
    ("for n in §; do test -v a[n]; done", (_INDEX,), r"bash's test", _BASH),
    ('for n in §; do printf -v "a[n]" %s x; done', (_INDEX,), r"bash's printf", _BASH),
    ('for n in §; do declare "a[n]=1"; done', (_INDEX,), r"bash's declare", _BASH),
    ('declare -i n; for n in §; do echo "$n"; done', (_INDEX,), r"bash's declare", _BASH),
    ("declare -n r; for r in §; do echo \"$r\"; done", (_INDEX,), r"bash's declare", _BASH),
    ("set -- §; RANDOM=$1", (_INDEX,), r"the assignment RANDOM=\$1", _BASH),
    ("for n in §; do a[n]=1; done", (_INDEX,), r"array assignment", _BASH),
    ("printf %s § >/dev/null; let m=_+1", (_INDEX,), r"bash's let", _BASH),
    ("bash -c 'n=$1; a[n]=1' bash §", (_INDEX,), r"array assignment", SHELLS),
    ("bash -c 'declare -i n; n=$1' bash §", (_INDEX,), r"bash's declare", SHELLS),
]
_DASH = ["/usr/bin/dash"]  # dash's echo reads backslash escapes
_SSH = "ssh -o BatchMode=yes"
# Since the sixteenth pass, a value that may reach ssh's destination through a pipe's read or an
# unquoted $( ) is refused whatever the value, first, as that destination is checked by an
# allow-list (tests/test_shell_programs_pass.py): these attacks of the option check through
# expansions are refused so now (the check's other attacks, below, still show its reasons).
_DESTINATION = r"ssh.s destination"
_PROXY = "-oProxyCommand=" + _TOUCH
ALTERED = [  # the text an expansion gives a program is not the value the renderer checked
    (
        f'printf "%s\\n" § | while read h; do {_SSH} "$h" true; done',
        ("\\" + _PROXY,),
        _DESTINATION,
        SHELLS,
    ),
    (
        f'echo § | while read -r h; do {_SSH} "$h" true; done',
        ("\\055oProxyCommand=" + _TOUCH,),
        _DESTINATION,
        _DASH,
    ),
    (f'{_SSH} "$(echo §)" true', ("\\055oProxyCommand=" + _TOUCH,), r"dash's echo reads", _DASH),
    (f"IFS=,; {_SSH} $(echo §) true", ("h," + _PROXY,), _DESTINATION, SHELLS),
    (
        "touch f; IFS=,; tar cf out.tar $(echo §)",
        ("f,--checkpoint=1,--checkpoint-action=exec=" + _TOUCH,),
        r"that tar reads options",
        SHELLS,
    ),
    (
        f'echo § | while IFS=, read -r u h; do {_SSH} -l "$u" "$h" true; done',
        ("u," + _PROXY,),
        _DESTINATION,
        SHELLS,
    ),
    (
        f'echo § | tr , "\\n" | while read -r h; do {_SSH} "$h" true; done',
        ("localhost,-oProxyCommand=touch${IFS}pwned-sentinel",),
        _DESTINATION,
        SHELLS,
    ),
    (f'{_SSH} "$(echo § | tr _ -)" true', ("_" + _PROXY[1:],), r"may not be the value", SHELLS),
    (
        f'echo § | base64 -d | while read -r h; do {_SSH} "$h" true; done',
        ("LW9Qcm94eUNvbW1hbmQ9dG91Y2ggcHduZWQtc2VudGluZWwK",),
        _DESTINATION,
        SHELLS,
    ),
]
ALTERED += [  # several values join in what the expansion holds; a command that prints another
    (f'{_SSH} "$(basename §)" true', ("a/" + _PROXY,), r"may not be the value", SHELLS),
    (f'{_SSH} "$(printf %s § §)" true', ("", _PROXY), r"several values join", SHELLS),
    (
        f'echo §§ | while read -r h; do {_SSH} "$h" true; done',
        ("-", _PROXY[1:]),
        _DESTINATION,
        SHELLS,
    ),
]
ATTACKS = (
    LINEBREAK + COMMAND_STRING + JOINED + BASH_ASSIGNMENT + CONTINUATION + LAST_ARGUMENT
    + STORES + ASSIGNED + ARITHMETIC + ALTERED
)  # fmt: skip

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
    ("a=b+c printf '%s\\n' §", (_TOUCH,)),
    ("g=1; h=2 printf '%s\\n' §", (_TOUCH,)),
    ('echo "a\nb" §', (_TOUCH,)),
    ('true §; echo "${HOME:+set}"', (_TOUCH,)),
    ('true §; echo "$_"', (_SUB,)),
    ("printf -v v %s §; echo \"$v\"", (_SUB,)),
    ("echo § | mapfile -t a; echo done", (_TOUCH,)),
    ('for f in §; do g="$f"; printf "%s\\n" "$g"; done', (_SUB,)),
    ('for f in §; do n=$(basename -- "$f"); echo "$n"; done', (_SUB,)),
    ('echo § | while read -r v; do n=$v; printf "%s\\n" "$n"; done', (_SUB,)),
    ('for f in §; do [ -f "$f" ] && echo yes; done', (_INDEX,)),
    ("sh -c 'cat -- \"$1\"' _ §", (_INDEX,)),
    ('for h in §; do ssh -o BatchMode=yes "$h" true; done', ("h.invalid",)),
    ('ssh -o BatchMode=yes "$(echo §)" true', ("h.invalid",)),
    ('ssh -o BatchMode=yes "$(printf %s §)" true', ("h.invalid",)),
    ('echo § | cat | while read -r h; do ls -- "$h"; done', (_TOUCH,)),
    ('ls -d "$(dirname §)"', ("a/b",)),
    # a value right after `${name}` (refused before)
    ("d=.; ls -d ${d}§", (_SUB,)),
    ("d=.; ls -d ${d}/§", (_TOUCH,)),
    # /dev/null keeps nothing: a value written there is no written file (these were refused)
    ('if grep -q -- § f 2>/dev/null; then ssh -p "$PORT" h true; fi', (_TOUCH,)),
    ('echo § 2>/dev/null; ssh -o BatchMode=yes -l "$USER" h.invalid :', (_TOUCH,)),
    ("echo § >/dev/null; echo done; cat <<EOF\nhi\nEOF", (_TOUCH,)),
]


# Look-alikes until the sixteenth pass, refused since whatever the value (ssh's destination is
# checked by an allow-list, and what a pipe's read gives it cannot be): the loop over the
# values' words (`for h in {hosts:*}`) is the spelling whose each host is checked.
READ_INTO_DESTINATION = [
    (
        'echo § | while read -r h; do ssh -o BatchMode=yes "$h" true; done',
        ("h.invalid",),
        _DESTINATION,
    ),
    (
        "printf '%s\\n' § | while read -r h; do ssh -o BatchMode=yes \"$h\" :; done",
        ("h.invalid",),
        _DESTINATION,
    ),
]


@pytest.mark.parametrize(("case", "values", "message"), [
    *((case, values, message) for case, values, message, _ in ATTACKS),
    *READ_INTO_DESTINATION,
    *REFUSED,
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
