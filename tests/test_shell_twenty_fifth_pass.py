"""sh(): hostile contexts of the twenty-fifth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A value choosing the repository git works in.  git obeys the repository's own
  ``.git/config``, and its settings may be commands: with a directory ``hostile`` whose config
  sets ``core.fsmonitor``, ``diff.external`` and an alias ``co`` to make the sentinel, ``git
  -C {d} status`` ran the fsmonitor, as did ``git -C {d} diff``, ``add``, ``commit``, ``fetch``,
  ``git -C {d} -c core.hooksPath=/dev/null checkout -q main`` (hooks off does not turn settings
  off), ``git --git-dir {g} status`` and ``git --git-dir={g} status``; ``git -C {d} co main``
  ran the alias.  So did a directory ``cd`` (or bash's ``pushd``) makes current before a git
  command: ``cd {d} && git status``, ``cd {d}; git diff``, ``(cd {d} && git status)``, ``set --
  {d}; cd "$1"; git status``, ``for d in {d}; do cd "$d"; git status; done`` and ``cd {d} && sh
  -c 'git status'``.  git's ``safe.directory`` does not help: it only guards repositories of
  another owner.  A value is refused as the argument of git's global ``-C`` and ``--git-dir``
  (whatever the subcommand: any may read a setting that is a command), and in ``cd``'s or
  ``pushd``'s words when the template runs git anywhere (or the lexer stops before its end).
  test_shell.py's ``git -C § status``, accepted since the first pass, is such a case: it is
  here with its positive control, and its place there holds ``git --namespace § status``;
  so is the fourteenth pass's ``git -C "$(dirname {x})" status`` (its place holds ``ls -d``).

* A file a value names, written by a program the writers' table did not list, before a command
  that runs it: with the value ``s.sh``, ``iconv -f utf-8 -t utf-8 -o {f} payload; sh s.sh``
  (also ``--output=``), ``shuf -o {f} payload``, ``link payload {f}``, ``uniq payload {f}``
  (and ``uniq {src} s.sh`` with ``payload``), ``xxd -r p.hex {f}`` and ``script -q -c 'cat
  payload' {f}`` each put payload's ``touch`` line in s.sh, which sh ran.  Their output
  options join curl's, wget's, sort's and dd's, link joins the copies (ln's rules), and the
  operand uniq, xxd and script write is an output (past their options' arguments); alone, with
  no command running a file after them, they stay accepted.

Accepted, and run (the sentinel is never made): the repository written in the static text
(``git -C hostile log -1 --format=%s §``, whose value is a revision, ``cd hostile && git log
-1 --format=%s §``), and ``cd {d}`` before commands that are not git (``cd {d} && ls``).

Display cost: the files a template makes executable were looked for in every command at each
use of a path, so n commands took n² looks (1,000 hooks-off checkouts took 19 s to display);
they are found once per template now, with the same verdicts (a test counts the looks).

Left as documented (a value that chooses a directory whose code a later command runs, as
``{cmd}`` chooses the program): ``make -C {d}``, ``npm --prefix {d} install``, ``pip install
{d}``, ``. {d}/venv/bin/activate``, whose programs run that directory's code by their purpose.
So is a program the text does not show running git there (``cd {d} && ./run.sh``, ``eval
"$(cat cmd)"``).  ``git --work-tree {d}`` stays accepted: git reads the settings of the
repository it finds from the working directory, and the probe made no sentinel.
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_second_pass import SENTINEL, _show_then_refuse

from ipy_istring import _shell_grammar
from ipy_istring._shell_programs import made_executable
from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_REPOSITORY = "a repository whose own settings"
_IDENTITY = ("-c", "user.name=t", "-c", "user.email=t@example.invalid")


def _prepare_hostile(where: pathlib.Path) -> None:
    """A repository ``hostile`` in ``where`` with one commit and a changed file, whose own
    .git/config makes the sentinel in ``where`` from core.fsmonitor, diff.external and the
    alias ``co``; and ``home``, the shell's $HOME."""
    (where / "home").mkdir()
    hostile = where / "hostile"
    hostile.mkdir()
    for command in (("init", "-q", "-b", "main"), ("add", "-A"), ("commit", "-qm", "a")):
        if command[0] == "add":
            (hostile / "a").write_text("a\n")
        subprocess.run(["git", *_IDENTITY, *command], cwd=hostile, check=True, capture_output=True)
    (hostile / "a").write_text("b\n")
    touch = f"touch '{where}/{SENTINEL}'"
    with (hostile / ".git" / "config").open("a") as config:
        config.write(f'[core]\n\tfsmonitor = "{touch}; false"\n')
        config.write(f'[diff]\n\texternal = "{touch}; false"\n')
        config.write(f'[alias]\n\tco = "!{touch}"\n')
        config.write("[user]\n\tname = t\n\temail = t@example.invalid\n")


REFUSED_CASES = [
    # (template, the value)
    ("git -C § status", "hostile"),
    ("git -C § diff", "hostile"),
    ("git -C § add a", "hostile"),
    ("git -C § commit -qam x", "hostile"),
    ("git -C § fetch -q .", "hostile"),
    ("git -C § co main", "hostile"),
    ("git -C § -c core.hooksPath=/dev/null checkout -q main", "hostile"),
    # (the fourteenth pass's accepted look-alike: its place there holds `ls -d`)
    ('git -C "$(dirname §)" status', "hostile/a"),
    ("git --git-dir § status", "hostile/.git"),
    ("git --git-dir=§ status", "hostile/.git"),
    ("cd § && git status", "hostile"),
    ("cd §; git diff", "hostile"),
    ("cd -- § && git status", "hostile"),
    ("(cd § && git status)", "hostile"),
    ('set -- §; cd "$1"; git status', "hostile"),
    ('for d in §; do cd "$d"; git status; done', "hostile"),
    ("cd § && sh -c 'git status'", "hostile"),
    ("cd § && env git status", "hostile"),
]


@pytest.mark.parametrize("case, value", REFUSED_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_repository_a_value_chooses_for_git_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    show_the_repository_runs_then_refuse(shell, case, value, tmp_path)


def show_the_repository_runs_then_refuse(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    """The positive control (the old render of ``case`` with ``value`` ran the hostile
    repository's setting in ``shell``), then sh()'s refusal for the repository's reason."""
    _prepare_hostile(tmp_path)
    _run(shell, naive_sh(_template(case, value)), tmp_path)
    assert (tmp_path / SENTINEL).exists(), case  # (the old render ran the repository's setting)
    with pytest.raises(RenderError, match=_REPOSITORY):
        sh(_template(case, value))


def test_pushd_in_bash_is_refused_too(tmp_path: pathlib.Path) -> None:
    case = "pushd § >/dev/null && git status"
    _prepare_hostile(tmp_path)
    _run("/bin/bash", naive_sh(_template(case, "hostile")), tmp_path)
    assert (tmp_path / SENTINEL).exists()
    with pytest.raises(RenderError, match=_REPOSITORY):
        sh(_template(case, "hostile"))


def test_the_refusal_gives_the_fix() -> None:
    with pytest.raises(RenderError, match=r"Write the repository in the static text"):
        sh(_template("git -C § status", "hostile"))


@pytest.mark.parametrize(
    "case, value",
    [
        # (the repository is the text's; the value is a revision or a directory for ls)
        ("git -C hostile log -1 --format=%s §", "main"),
        ("cd hostile && git log -1 --format=%s §", "main"),
        ("cd § && ls", "hostile"),
        ("git --work-tree § status", "hostile"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_repository_the_text_names_stays_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    _prepare_hostile(tmp_path)
    _run(shell, sh(_template(case, value)), tmp_path)
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize(
    "case",
    [
        "git status; cd §",  # (the allow-list: git anywhere in the template)
        "cd §; case $x in a) git status;; esac",  # (the lexer stops at `case`)
        "git -C § rev-parse HEAD",  # (any subcommand may read a setting that is a command)
    ],
)
def test_a_chosen_directory_beside_git_is_refused_by_allow_list(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "hostile"))


# -- a program the writers' table did not list wrote a file a value names -----------------------

WRITER_CASES = [
    # (template, the value)
    ("iconv -f utf-8 -t utf-8 -o § payload; sh s.sh", "s.sh"),
    ("iconv -f utf-8 -t utf-8 --output=§ payload; sh s.sh", "s.sh"),
    ("shuf -o § payload; sh s.sh", "s.sh"),
    ("shuf payload --output §; sh s.sh", "s.sh"),
    ("mv s.sh s.old; link payload §; sh s.sh", "s.sh"),
    # (a program whose second operand, or script's first, is the file it writes)
    ("uniq payload §; sh s.sh", "s.sh"),
    ("uniq -f 0 payload §; sh s.sh", "s.sh"),
    ("uniq § s.sh; sh s.sh", "payload"),
    ("xxd payload > p.hex; xxd -r p.hex §; sh s.sh", "s.sh"),
    # (its terminal ends each line with CR: the `#` keeps it out of the file's name)
    ("echo 'touch pwned-by-22 #' > q; script -q -c 'cat q' § >/dev/null; sh s.sh", "s.sh"),
]


@pytest.mark.parametrize("case, value", WRITER_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_a_value_names_written_by_another_writer_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (the writer put payload's `touch` line in s.sh, which sh ran)
    _show_then_refuse(shell, case, [value], tmp_path, "written to the file|in a command writing")


@pytest.mark.parametrize(
    "case",
    [
        "iconv -f utf-8 -t utf-8 -o § payload",
        "shuf -o § payload",
        "link payload §",
        "uniq payload §",
        "script -q -c 'cat payload' §",
        # (an operand it reads, or an option's argument, before a command running s.sh)
        "uniq §; sh s.sh",
        "uniq -f § payload; sh s.sh",
        "xxd §; sh s.sh",
    ],
)
def test_those_writers_alone_stay_accepted(case: str) -> None:
    assert sh(_template(case, "out.txt"))  # (no command runs a file after them)


def test_the_files_made_executable_are_found_once_per_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (each use of a path looked at every command before: n commands took n² looks, and
    # 1,000 of these took 19 s to display; the verdict stays the same)
    calls = []

    def counted(command: tuple[str | None, ...]) -> list[str]:
        calls.append(command)
        return made_executable(command)

    monkeypatch.setattr(_shell_grammar, "made_executable", counted)
    case = "git -c core.hooksPath=/dev/null checkout -q §; " * 57
    with pytest.raises(RenderError, match="in a command writing a file a value names"):
        sh(_template(case, "evil"))
    assert 0 < len(calls) <= 57
