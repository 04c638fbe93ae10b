"""sh() red team, tenth pass: programs the allow-lists trusted with a value's options.

Each hole was reproduced in real dash and bash, with a positive control (the same template
with each value through plain ``shlex.quote`` ran the payload), then refused:

* ``shuf``, ``tree`` and ``file`` were among ``DATA_OPTION_PROGRAMS`` (options that run no
  command and write nothing beyond the operands), yet each writes a file an option names:
  ``shuf -o FILE``/``--output=FILE``, ``tree -o FILE``, ``file -C`` (the compiled
  ``magic.mgc``).  ``shuf -e {x:*}`` with ``['touch f', '-o', 'run.sh']`` wrote the value's
  command into any file, ``shuf -e {x}`` with ``-orun.sh`` created one, ``tree {d:*}`` with
  ``['-o', 'f']`` overwrote one.
* A file written through a tilde prefix (``> ~/s.sh``) was not recorded as written (only a
  target of plain text was), so ``echo {x} > ~/s.sh; sh ~/s.sh`` ran the value.
* less reads a key file (``--lesskey-src``, ``-k``, and by its name alone ``~/.lesskey``,
  ``~/.config/lesskey``) whose ``#env`` section sets variables, ``LESSOPEN`` among them, a
  command less runs on each file it opens, also when its output is no terminal:
  ``printf '%s\\n' {x} | less --lesskey-src=/dev/stdin f`` (also ``=-`` and abbreviated,
  ``--lesskey-s=``) and ``echo {x} > ~/.lesskey; less f`` ran the value's command.
* A variable naming the standard input as a file, in the environment of a command the pipe
  feeds: ``printf '%s\\n' {x} | BASH_ENV=/dev/stdin bash -c :`` (bash runs that file first),
  ``... | MAKEFILES=/dev/stdin make`` (makefiles read before the others), ``... |
  LESSKEYIN=/dev/stdin less f`` (its ``#env`` LESSOPEN), also through ``env`` and after
  ``export BASH_ENV=/dev/stdin`` or an upper-case ``BASH_ENV=/dev/stdin`` on its own (a
  variable the caller exported stays exported): each ran the value.
* The files in ``$HOME`` that programs read by their name alone were not known (git's
  ``~/.gitconfig``, a shell's ``~/.profile``...): ``echo {x} >> ~/.gitconfig; git diff`` ran the
  value's ``diff.external``, ``echo {x} > ~/.profile; bash -lc true`` the value; so did
  curl's ``~/.curlrc`` (``output = f`` wrote f), gdb's ``~/.gdbinit`` (``shell cmd``) and vim's
  ``~/.vimrc`` (``call system(...)``); wget's, psql's and sqlite3's are refused by their manuals.

Tried and held (kept below as accepted cases run for real): bash's ``test``, ``[``,
``printf %d``, ``ulimit``, ``shift``, ``kill -l`` read a number without evaluating arithmetic
(``a[$(cmd)]`` ran nothing, unlike ``$((...))``); awk's operand ``x=...`` only assigns a string;
GNU bc runs no shell command (``!cmd``); tree 2.1's ``-R -H`` recurses in-process (tree 1.x
pasted ``-H``'s argument into ``system()``).
"""

from __future__ import annotations

import pathlib
import re
import shlex
import shutil

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory)
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh
from ipy_istring.template import Interpolation, InterpolationTemplate

SENTINEL = "pwned-sentinel"


def _spread(case: str, values: list[str]) -> InterpolationTemplate:
    """``case`` with its one § the field ``{v0:*}`` spreading ``values``."""
    before, after = case.split("§")
    return InterpolationTemplate(before, Interpolation(values, "v0", None, "*"), after)


def _naive(case: str, values: list[str]) -> str:
    """The positive control: each value through shlex.quote, with no look at its context."""
    before, after = case.split("§")
    return before + " ".join(shlex.quote(value) for value in values) + after


def _refusal(case: str) -> str:
    """The message of sh()'s refusal of ``case`` with each § holding ``x``."""
    with pytest.raises(RenderError) as caught:
        sh(_template(case, "x"))
    return str(caught.value)


# -- refusals: each was accepted before this pass --------------------------------------------

WRITE_OPTIONS = [
    ("shuf §", "-orun.sh"),
    ("shuf §", "--output=run.sh"),
    ("shuf -e §", "-orun.sh"),
    ("shuf -n 1 §", "--out=run.sh"),
    ("printf '%s\\n' a b | shuf §", "-orun.sh"),
    ("file §", "-C"),
    ("sudo shuf §", "-orun.sh"),
    ('for f in §; do shuf "$f"; done', "-orun.sh"),
]
SPREAD_WRITE_OPTIONS = [
    ("shuf -e §", ["touch x", "-o", "run.sh"]),
    ("tree §", ["-o", "run.sh"]),
    ("tree -a §", ["-o", "run.sh", "."]),
    ("file §", ["-C", "-m", "magic"]),
]


@pytest.mark.parametrize(("case", "value"), WRITE_OPTIONS)
def test_an_option_that_writes_a_file_is_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError, match=r"starts with '-', so (shuf|file) would read it as an"):
        sh(_template(case, value))


@pytest.mark.parametrize(("case", "values"), SPREAD_WRITE_OPTIONS)
def test_an_option_that_writes_a_file_is_refused_among_spread_values(
    case: str, values: list[str]
) -> None:
    with pytest.raises(RenderError, match=r"starts with '-', so (shuf|tree|file) would read it"):
        sh(_spread(case, values))


def test_the_refusal_says_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sh(_template("shuf -e §", "-orun.sh"))
    message = str(caught.value)
    assert "shuf would read it as an option" in message and "Write -- before the field" in message


# -- look-alikes: data, and the same values after -- ------------------------------------------

# (case, a value it takes as data: after --, ./ or an option's argument, any value is data)
ACCEPTED = [
    ("shuf -e §", "a b"),
    ("shuf -n 1 -e §", "a b"),
    ("shuf -- §", "-orun.sh"),
    ("shuf -e -- §", "-orun.sh"),
    ("echo § | shuf", "-orun.sh"),
    ("shuf -o out.txt -e §", "a b"),
    ("tree -L 1 §", "a b"),
    ("tree -- §", "-o"),
    ("tree ./§", "-o"),
    ("file -b §", "a b"),
    ("file -- §", "-C"),
    ("printf '%s\\n' § | file -", "-C"),
]


# (case, the file written and read)
TILDE_FILES = [
    ("echo § > ~/s.sh; sh ~/s.sh", "~/s.sh"),
    ("echo § > ~/s.sh; . ~/s.sh", "~/s.sh"),
    ("echo § >> ~/run; sh < ~/run", "~/run"),
    ("echo § > ~/mk; make -f ~/mk", "~/mk"),
    ("sh ~/s.sh; echo § > ~/s.sh", "~/s.sh"),
    ("printf '%s\\n' § > ~/Makefile; make", "~/Makefile"),
]


LESS_KEYS = [
    "printf '%s\\n' § | less --lesskey-src=/dev/stdin f",
    "printf '%s\\n' § | less --lesskey-src=- f",
    "printf '%s\\n' § | less --lesskey-src /dev/stdin f",
    "printf '%s\\n' § | less --lesskey-s=/dev/stdin f",
    "printf '%s\\n' § | less -k /dev/stdin f",
    "printf '%s\\n' § | less -k- f",
    "printf '%s\\n' § | less --lesskey-file=/dev/fd/0 f",
    "printf '%s\\n' § | sudo less --lesskey-src=/dev/stdin f",
    "echo § > ~/.lesskey; less f",
    "echo § > ~/.config/lesskey; less f",
    "echo § > .lesskey; HOME=. less f",
    "less f; echo § > ~/.lesskey",
]


@pytest.mark.parametrize("case", LESS_KEYS)
def test_less_key_file_from_a_value_is_refused(case: str) -> None:
    message = _refusal(case)
    if "|" in case:  # (read from the pipe, or written to a file less reads by name)
        assert re.search(r"pipeline into less (--lesskey-src|-k|--lesskey-file), which", message)
    else:
        assert "as code by its name alone (less reads it without being told)" in message


# (case, the program the pipe feeds)
STDIN_VARIABLES = [
    ("printf '%s\\n' § | BASH_ENV=/dev/stdin bash -c :", "bash"),
    ("printf '%s\\n' § | env BASH_ENV=/dev/stdin bash -c :", "bash"),
    ("printf '%s\\n' § | nice env MAKEFILES=/dev/stdin make", "make"),
    ("printf '%s\\n' § | MAKEFILES=- make", "make"),
    ("printf '%s\\n' § | LESSKEYIN=/dev/fd/0 less f", "less"),
    ("{ printf '%s\\n' §; } | BASH_ENV=/dev/stdin bash -c :", "bash"),
    ("printf '%s\\n' § | (BASH_ENV=/dev/stdin bash -c :)", "bash"),
    ("export BASH_ENV=/dev/stdin; printf '%s\\n' § | bash -c :", "bash"),
    ("BASH_ENV=/dev/stdin; export BASH_ENV; printf '%s\\n' § | bash -c :", "bash"),
    ("BASH_ENV=/dev/stdin; printf '%s\\n' § | bash -c :", "bash"),
    ("printf '%s\\n' § | X=/dev/stdin ./tool", "tool"),
]


# (case, the program that reads the file in $HOME by its name)
HOME_FILES = [
    ("echo § >> ~/.gitconfig; git diff", "git"),
    ("printf '%s\\n' § > ~/.config/git/config; git status", "git"),
    ("echo § > ~/.profile; bash -lc true", "bash"),
    ("echo § > ~/.profile; sh -l", "sh"),
    ("echo § > ~/.bashrc; bash -i", "bash"),
    ("echo § > ~/.zshenv; zsh -c :", "zsh"),
    ("echo § > ~/.ssh/config; ssh h true", "ssh"),
    ("echo § > ~/.curlrc; curl https://example.org/", "curl"),
    ("curl -o ~/.curlrc §; curl https://example.org/", "curl"),
    ("echo § > ~/.gdbinit; gdb -batch ./a.out", "gdb"),
    ("echo § > ~/.vimrc; vim f", "vim"),
    ("echo § > ~/.config/nvim/init.vim; nvim f", "nvim"),
    ("echo § > ~/.wgetrc; wget https://example.org/", "wget"),
    ("echo § > ~/.psqlrc; psql -c 'select 1'", "psql"),
]
_STDIN_VARIABLE = "a variable naming its standard input as a file, which programs"
# (case, what its refusal says): a tilde's file is the file read there, a variable names stdin
REASONS = [
    *((case, f"is written to the file {name!r}, which a command of") for case, name in TILDE_FILES),
    *((case, f"pipeline into {reader} with ") for case, reader in STDIN_VARIABLES),
    *((case, _STDIN_VARIABLE) for case, _ in STDIN_VARIABLES),
    *((case, f"by its name alone ({reader} reads it without") for case, reader in HOME_FILES),
]


@pytest.mark.parametrize(("case", "reason"), REASONS)
def test_each_refusal_names_its_reason(case: str, reason: str) -> None:
    assert reason in _refusal(case)


def test_a_file_a_value_was_written_to_given_on_that_input_is_refused() -> None:
    with pytest.raises(RenderError, match=r"written to the file 'f', which a command"):
        sh(_template("printf '%s\\n' § > f; BASH_ENV=/dev/stdin bash -c : < f", "x"))


# (case, a value it takes as data)
FILES_ACCEPTED = [
    ("printf '%s\\n' § | LC_ALL=C sort", "a b"),
    ("echo § > ~/notes; git diff", "a b"),
    ("echo § > ~/notes; bash -lc true", "a b"),
    ("echo § > .gitconfig.bak; git status", "a b"),
    ("printf '%s\\n' § | BASH_ENV=./env.sh bash -c :", "a b"),
    ("x=/dev/stdin; printf '%s\\n' § | cat", "a b"),
    ("export LC_ALL=C; printf '%s\\n' § | sort", "a b"),
    ("echo § > ~/notes; cat ~/notes", "a b"),
    ("echo § > ~/s.sh; cat ~/s.sh", "a b"),
    ("echo hi > ~/s.sh; sh ~/s.sh §", "a b"),
    ("printf '%s\\n' § | less", "a b"),
    ("printf '%s\\n' § | less -R", "a b"),
    ("printf '%s\\n' § | less --lesskey-src=keys f", "a b"),
    ("less --lesskey-src=keys §", "a b"),
    ("echo § > notes; less notes", "a b"),
    ("echo § > ~/.lesskey; cat f", "a b"),
]


@pytest.mark.parametrize(("case", "value"), ACCEPTED + FILES_ACCEPTED)
def test_data_after_dashes_as_an_operand_or_in_a_file_stays_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_template(case, value))


# -- real shells -------------------------------------------------------------------------------

# (case, the values of its one spread field §, the program it needs)
SPREAD_ATTACKS = [
    ("shuf -e §; sh ./run.sh", [f"touch {SENTINEL}", "-o", "run.sh"], "shuf"),
    ("shuf -e §", [f"-o{SENTINEL}"], "shuf"),
    ("shuf -n 1 §", [f"--output={SENTINEL}", "/dev/null"], "shuf"),
    ("tree §", ["-o", SENTINEL], "tree"),
]
SPREAD_ACCEPTED = [
    ("shuf -e -- §; sh ./run.sh 2>/dev/null", [f"touch {SENTINEL}", "-o", "run.sh"], "shuf"),
    ("shuf -e §", [f"touch {SENTINEL}", "run.sh"], "shuf"),
    ("tree -- § 2>/dev/null", ["-o", SENTINEL], "tree"),
]


def _proves(
    shell: str,
    template: InterpolationTemplate,
    naive: str,
    program: str,
    attack: bool,
    where: pathlib.Path,
) -> None:
    """An attack is refused and its naive rendering runs the payload; a look-alike runs none."""
    if attack:  # (refused whether the program is installed or not)
        with pytest.raises(RenderError):
            sh(template)
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    assert _runs_payload(shell, naive if attack else sh(template), where) is attack


# a repository with a changed file, and a diff.external that git runs on it
_GIT_CHANGE = (
    "git init -q r && cd r && echo a > f && git add f && "
    "git -c user.email=a@b -c user.name=n commit -qm m && echo b > f && "
)
_GIT_DIFF = f"[diff]\n\texternal = touch $HOME/{SENTINEL}; true"
_VIM = f'call system("touch {SENTINEL}")'
_LESSKEY = f"#env\nLESSOPEN=|touch {SENTINEL}; cat %s"
# (case, payload, the program it needs)
ATTACKS = [
    ("echo § > ~/s.sh; sh ~/s.sh", f"touch {SENTINEL}", "sh"),
    ("echo § > ~/mk; make -s -f ~/mk", f"x := $(shell touch {SENTINEL})", "make"),
    ("echo hi > f; printf '%s\\n' § | less --lesskey-src=/dev/stdin f", _LESSKEY, "less"),
    ("echo hi > f; printf '%s\\n' § | less --lesskey-s=- f", _LESSKEY, "less"),
    ("echo hi > f; echo § > ~/.lesskey; less f", _LESSKEY, "less"),
    ("printf '%s\\n' § | BASH_ENV=/dev/stdin bash -c :", f"touch {SENTINEL}", "bash"),
    ("printf '%s\\n' § | env BASH_ENV=/dev/fd/0 bash -c :", f"touch {SENTINEL}", "bash"),
    ("export BASH_ENV=/dev/stdin; printf '%s\\n' § | bash -c :", f"touch {SENTINEL}", "bash"),
    (
        "printf '%s\\n' § | MAKEFILES=/dev/stdin make -s -f /dev/null",
        f"x := $(shell touch {SENTINEL})",
        "make",
    ),
    ("echo hi > f; printf '%s\\n' § | LESSKEYIN=/dev/stdin less f", _LESSKEY, "less"),
    (_GIT_CHANGE + "printf '%s\\n' § >> ~/.gitconfig; git diff >/dev/null", _GIT_DIFF, "git"),
    ("echo § > ~/.profile; bash -lc true", f"touch {SENTINEL}", "bash"),
    ("echo § > ~/.curlrc; curl -s file:///dev/null", f"output = {SENTINEL}", "curl"),
    ("echo § > ~/.gdbinit; gdb -batch -ex 'print 1' >/dev/null", f"shell touch {SENTINEL}", "gdb"),
    ("echo § > ~/.vimrc; vim -c q f </dev/null >/dev/null 2>&1", _VIM, "vim"),
]
RUN_ACCEPTED = [
    ("echo § > ~/notes; cat ~/notes", f"touch {SENTINEL}", "sh"),
    ("echo hi > f; printf '%s\\n' § | less", _LESSKEY, "less"),
    ("echo hi > f; echo § > ~/notes; less ~/notes", _LESSKEY, "less"),
    ("printf '%s\\n' § | LC_ALL=C bash -c 'cat >/dev/null'", f"touch {SENTINEL}", "bash"),
    (_GIT_CHANGE + "printf '%s\\n' § >> ~/notes; git diff >/dev/null", _GIT_DIFF, "git"),
    ("echo § > ~/notes; bash -lc true", f"touch {SENTINEL}", "bash"),
    ("echo § > ~/notes; curl -s file:///dev/null", f"output = {SENTINEL}", "curl"),
    ("echo § > ~/notes; vim -c q f </dev/null >/dev/null 2>&1", _VIM, "vim"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("case", "values", "program", "attack"),
    [(*attack, True) for attack in SPREAD_ATTACKS] + [(*alike, False) for alike in SPREAD_ACCEPTED],
)
def test_spread_options_run_when_quoted_naively_and_look_alikes_run_nothing(
    shell: str, case: str, values: list[str], program: str, attack: bool, tmp_path: pathlib.Path
) -> None:
    naive = _naive(case, values)
    _proves(shell, _spread(case, values), naive, program, attack, tmp_path / "run")


# Attacks tried in this pass that found no hole: sh() accepts them and they run nothing.
_ARITHMETIC = f"a[$(touch {SENTINEL})]"
# bash reads a number there without evaluating arithmetic (a subscript's $(cmd) would run)
_NUMBERS = [
    "test § -eq 1",
    "[ § -lt 1 ]",
    "printf '%d\\n' §",
    "ulimit -t §",
    "shift §",
    "kill -l §",
]
HELD = [(case, _ARITHMETIC, "bash") for case in _NUMBERS] + [
    ("printf '%s\\n' § | bc", f"!touch {SENTINEL}", "bc"),
    ("mkdir -p d/e/f; tree -R -L 1 -H § -o out.html d", f"$(touch {SENTINEL})", "tree"),
]
RUN_ACCEPTED += HELD
# (held by awk, which reads the assignment's value as text; refused since the fifteenth pass,
# as any NAME=value in an awk file operand: it sets a variable the program uses)
ASSIGNMENT_REFUSED = ("awk '{print}' § /dev/null", f'x=1;system("touch {SENTINEL}")')

# Each attack rendered naively (the positive control), each look-alike by sh().
FILE_RUNS = [(*attack, True) for attack in ATTACKS] + [(*alike, False) for alike in RUN_ACCEPTED]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "payload", "program", "attack"), FILE_RUNS)
def test_files_run_when_quoted_naively_and_look_alikes_run_nothing(
    shell: str, case: str, payload: str, program: str, attack: bool, tmp_path: pathlib.Path
) -> None:
    template = _template(case, payload)
    _proves(shell, template, naive_sh(template), program, attack, tmp_path / "run")


def test_an_assignment_in_an_awk_file_operand_is_refused() -> None:
    with pytest.raises(RenderError, match="awk reads as an assignment"):
        sh(_template(*ASSIGNMENT_REFUSED))
