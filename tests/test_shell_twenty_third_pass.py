"""sh(): hostile contexts of the twenty-third pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A value that chooses where git fetches from, then a git command that writes the tree from
  there, then a command that runs what it wrote: ``git remote add o {url}; git pull o main;
  make`` with a local bare repository as the URL ran its Makefile; so did ``… sh s.sh``,
  ``git fetch o; git merge o/main``, ``git remote set-url origin {url}``, ``git config
  remote.origin.url {url}``, and the pull inside a command string (``sh -c 'git pull o main &&
  sh s.sh'``, ``bash -c 'git pull o main'; make``).  ``git remote`` and ``git config`` were
  left out of the writers so that their values' own rules (the nineteenth pass's remote
  helpers) keep their reasons; now their values count as the choice of every later git writer
  (pull, fetch, merge, checkout...: any subcommand but the short allow-list of those that
  keep the files).  By allow-list, every ``git remote`` form but show, get-url, prune, update
  and remove, and every ``git config`` setting but a few of data (user.name, user.email,
  pull.rebase...) count, so ``branch.main.merge {ref}``, ``url.X.insteadOf`` and
  ``submodule.x.url`` do too.  (``git clone {url} d && make -C d`` was refused already.)
* A value held in a shell variable (``set -- {x}``, a ``for`` loop's, a command string's
  positional parameter, a line piped into ``read``) that names or picks the files a command
  writes: ``sh -c 'cp payload "$1"; sh s.sh' sh {f}`` with ``s.sh`` ran the payload, and so
  did ``set -- {f}; cp payload "$1"``, ``bash -c 'cat payload > "$1"; sh s.sh' sh {f}``, ``sh
  -c 'cp rules "$1" && make' sh {f}``, ``for f in {f}; do cp payload "$f"; done``, ``… |
  while read -r f; do cp payload "$f"; done``, ``sh -c 'git checkout "$1"; sh s.sh' sh
  {ref}``, ``set -- {ref}; git checkout "$1"; make`` and ``sh -c 'cp "$1" .; sh s.sh' sh
  {src}``: the twenty-first and twenty-second passes checked a value written in a writer's
  own words only, so an expansion that holds it was taken for a static name.  (Only
  expansions that may hold a value count: ``$HOME``, ``$PWD``, ``$TMPDIR`` do not, and a
  piped value only when the text reads lines.  A writer in a loop over values is now refused
  first as a writer run again, as the same loop with the field in place was: the seventeenth
  pass's ``for f in {x}; do scp … "$f" .; done`` and the fifth pass's ``… | while read -r v;
  do tar -xf a.tar $v; done``.)

Kept refused, shown to be right (target 2 of the brief): ``git checkout {ref}; git status``
and ``… git diff``.  checkout never writes ``.git/`` (git refuses such a path in any tree),
but when the working tree is ``$HOME`` (a dotfiles repository) it writes ``~/.gitconfig``,
which a later read-only git reads: a ref whose ``.gitconfig`` sets ``core.fsmonitor`` ran it
on ``git status``, and ``diff.external`` on ``git diff``, in both shells.

Over-refusal fixed: ``awk -F, '{print $1}' {f} > ids.txt`` was refused even alone, ``'{print
$1}'`` taken for the argument of the option ``-F,`` naming a file of settings.  awk reads that
word as its program (POSIX: its first operand, or ``-e``'s argument; ``-F,`` holds its own
argument), a word of its language and no file's name; it is accepted and run now, while
``awk -F, '{print $1}' {f} > s.sh; sh s.sh`` and ``awk -f prog.awk {f} > prog.awk`` stay
refused.

Accepted, and run: those writes alone (``git remote add o {url}; git pull o main``, ``git
remote add o {url}; git fetch o``, ``sh -c 'cp payload "$1"' sh {f}``), a data setting before
a script (``git config user.email {e}; sh s.sh``), the template's own words written to a file a
variable names (``set -- {f}; echo hi > "$1"; sh s.sh``), and a variable only read (``for f in
{f}; do wc -l "$f"; done; sh s.sh``).
"""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_seventeenth_pass import SENTINEL as SCP_SENTINEL
from test_shell_seventeenth_pass import _scp_place
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_second_pass import _TOUCH, SENTINEL, _git
from test_shell_twenty_second_pass import _accepted_and_run as _accepted
from test_shell_twenty_second_pass import _prepare as _prepare_files
from test_shell_twenty_second_pass import _show_then_refuse as _show_hole

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

# (a value in the writer's words, or in a command string's positional parameter)
_REFUSED = "writing a file a value names|written to the file a value names"


def _prepare(where: pathlib.Path) -> None:
    """The twenty-second pass's files in ``where`` (a git repository whose s.sh is harmless
    on ``main``, and makes the sentinel on ``evil`` with a Makefile that does; ``payload``,
    ``rules``, ``sub/s.sh``), a remote ``origin`` nowhere, and ``up.git``, a bare repository
    whose ``main`` is ``evil``'s commit."""
    _prepare_files(where)
    _git(where, "clone", "-q", "--bare", ".", "up.git")
    _git(where / "up.git", "update-ref", "refs/heads/main", "refs/heads/evil")
    _git(where, "remote", "add", "origin", "https://example.invalid/r.git")


def _show_then_refuse(shell: str, case: str, values: list[str], where: pathlib.Path) -> None:
    _show_hole(shell, case, values, where, _REFUSED, _prepare)


def _accepted_and_run(shell: str, case: str, values: list[str], where: pathlib.Path) -> None:
    _accepted(shell, case, values, where, _prepare)


# -- a value that chooses where git fetches from, then a git writer, then a reader --------------

_UPSTREAM = "{tmp}/up.git"
GIT_SOURCE_CASES = [
    "git remote add o §; git pull -q o main; make -s",
    "git remote add o §; git pull -q o main; sh s.sh",
    "git remote add o §; git fetch -q o; git merge -q o/main; sh s.sh",
    "git remote set-url origin §; git pull -q origin main; sh s.sh",
    "git config remote.origin.url §; git pull -q origin main; sh s.sh",
    "git remote add o §; sh -c 'git pull -q o main && sh s.sh'",
    "git remote add o §; bash -c 'git pull -q o main'; make -s",
    "git remote add o §; eval 'git pull -q o main'; sh s.sh",
    "git clone -q § d && make -s -C d",
]


@pytest.mark.parametrize("case", GIT_SOURCE_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_value_choosing_where_git_fetches_from_before_a_reader_is_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # (the old render pulled the bare repository's Makefile or s.sh, and ran it)
    _show_then_refuse(shell, case, [_UPSTREAM], tmp_path)


@pytest.mark.parametrize(
    "case",
    [
        "git config branch.main.merge §; git pull; sh s.sh",
        "git config branch.main.remote §; git pull; sh s.sh",
        "git config set remote.o.url §; git pull o main; make",
        "git config -f .gitmodules submodule.x.url §; git submodule update --init; sh x/s.sh",
        "git remote add § https://example.invalid/r.git; git pull; sh s.sh",
        "git remote rename o §; git pull; sh s.sh",
        "git remote add o §; git submodule update --remote; make",
        "git submodule add § x; sh x/s.sh",
        # (a git writer that may run after the value's command: a loop, `&`, a trap)
        "for i in 1 2; do git pull o main; git remote add o §; done; make",
        "git pull o main & git remote add o §; make",
        "trap 'git pull o main; make' EXIT; git remote add o §",
        "git remote add o §; trap 'git pull o main; make' EXIT",
    ],
)
def test_every_git_source_a_value_may_set_counts(case: str) -> None:
    # (by git-config(1) and git-remote(1): each chooses what a later pull or checkout writes)
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template(case, "refs/heads/evil"))


GIT_SOURCE_ACCEPTED = [
    # (with git's hooks off: the pull's post-merge would be the value's, twenty-fourth pass)
    ("git remote add o §; git -c core.hooksPath=/dev/null pull -q o main", [_UPSTREAM]),
    ("git remote add o §; git fetch -q o", [_UPSTREAM]),
    ("git remote add o §; sh s.sh", [_UPSTREAM]),
    ("sh s.sh; git remote add o §; git -c core.hooksPath=/dev/null pull -q o main", [_UPSTREAM]),
    ("git config user.email §; sh s.sh", ["a@example.invalid"]),
    ("git config --global user.name §; sh s.sh", ["A Name"]),
]


@pytest.mark.parametrize("case, values", GIT_SOURCE_ACCEPTED)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_git_source_with_no_reader_after_its_writer_stays_accepted(
    shell: str, case: str, values: list[str], tmp_path: pathlib.Path
) -> None:
    _accepted_and_run(shell, case, values, tmp_path)


def test_the_pull_wrote_the_chosen_files_without_running_them(tmp_path: pathlib.Path) -> None:
    case = "git remote add o §; git -c core.hooksPath=/dev/null pull -q o main"  # (24th pass)
    _accepted_and_run("/usr/bin/dash", case, [_UPSTREAM], tmp_path)
    assert (tmp_path / "s.sh").read_text() == _TOUCH + "\n"


# -- a value in a shell variable, naming or picking the files a command writes ------------------

VARIABLE_CASES = [
    ('set -- §; cp payload "$1"; sh s.sh', "s.sh"),
    ("sh -c 'cp payload \"$1\"; sh s.sh' sh §", "s.sh"),
    ("bash -c 'cat payload > \"$1\"; sh s.sh' sh §", "s.sh"),
    ("sh -c 'cp rules \"$1\" && make -s' sh §", "Makefile"),
    ('for f in §; do cp payload "$f"; done; sh s.sh', "s.sh"),
    ("printf '%s\\n' § | while read -r f; do cp payload \"$f\"; done; sh s.sh", "s.sh"),
    ("sh -c 'git checkout -q \"$1\"; sh s.sh' sh §", "evil"),
    ('set -- §; git checkout -q "$1"; make -s', "evil"),
    ("sh -c 'cp \"$1\" .; sh s.sh' sh §", "sub/s.sh"),
]


@pytest.mark.parametrize("case, value", VARIABLE_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_variable_holding_a_value_that_picks_a_written_file_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (the old render wrote the file the variable named, and a later command ran it)
    _show_then_refuse(shell, case, [value], tmp_path)


@pytest.mark.parametrize("shell", SHELLS)
def test_scp_in_a_loop_over_values_is_refused_as_a_writer_run_again(
    shell: str, tmp_path: pathlib.Path
) -> None:
    # (the seventeenth pass's loop, refused first as a writer run again now: scp may write the
    # ~/.ssh/config its next run reads; its remote-operand check is kept there with `set --`)
    case = 'for f in §; do scp -O -S ./fake-ssh "$f" .; done'
    value = f"h:$(touch {SCP_SENTINEL})"
    _scp_place(tmp_path)
    _run(shell, naive_sh(_template(case, value)), tmp_path)
    assert (tmp_path / SCP_SENTINEL).exists()
    with pytest.raises(RenderError, match="writing a file a value names"):
        sh(_template(case, value))


def test_tar_extracting_a_member_read_in_a_loop_is_refused() -> None:
    # (the fifth pass's case, which keeps its option check with tar -t: as `while read -r v;
    # do tar -xf a.tar {m}; done < list` was, since tar -x writes the member the value picks)
    case = "printf '%s\\n' § | while read -r v; do tar -xf a.tar $v; done"
    with pytest.raises(RenderError, match="writing a file a value names"):
        sh(_template(case, "origin"))


VARIABLE_ACCEPTED = [
    # (template, the value, the file it writes, the text the file holds after)
    ("sh -c 'cp payload \"$1\"' sh §", "out.txt", "out.txt", _TOUCH + "\n"),
    ('set -- §; echo hi > "$1"; sh s.sh', "out.txt", "out.txt", "hi\n"),
    ('for f in §; do wc -l < "$f" > n.txt; done; sh s.sh', "payload", "n.txt", "1\n"),
]


@pytest.mark.parametrize("case, value, written, text", VARIABLE_ACCEPTED)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_variable_only_naming_a_file_of_data_stays_accepted(
    shell: str, case: str, value: str, written: str, text: str, tmp_path: pathlib.Path
) -> None:
    _accepted_and_run(shell, case, [value], tmp_path)
    assert (tmp_path / written).read_text() == text


# -- checkout, then a read-only git: refused, as checkout may write ~/.gitconfig ---------------


def _prepare_home(where: pathlib.Path) -> pathlib.Path:
    """``where/home``, $HOME, a git repository (a dotfiles one) whose branch ``evil`` holds a
    ``.gitconfig`` that sets core.fsmonitor and diff.external to make the sentinel."""
    home = where / "home"
    home.mkdir()
    (home / "notes.txt").write_text("notes\n")
    _git(home, "init", "-q", "-b", "main")
    _git(home, "add", "notes.txt")
    _git(home, "commit", "-qm", "harmless")
    _git(home, "checkout", "-q", "-b", "evil")
    marker = where / SENTINEL
    (home / ".gitconfig").write_text(
        f'[core]\n\tfsmonitor = "touch {marker}; false"\n'
        f'[diff]\n\texternal = "touch {marker}; true"\n'
    )
    _git(home, "add", ".gitconfig")
    _git(home, "commit", "-qm", "evil")
    _git(home, "checkout", "-q", "main")
    return home


@pytest.mark.parametrize(
    "case", ["git checkout -q §; git status", "git checkout -q §; git diff HEAD~1"]
)
@pytest.mark.parametrize("shell", SHELLS)
def test_checkout_then_a_read_only_git_stays_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    home = _prepare_home(tmp_path)
    environment = {"PATH": os.environ["PATH"], "HOME": str(home), "LC_ALL": "C"}
    subprocess.run(
        [shell, "-c", naive_sh(_template(case, "evil"))], cwd=home, env=environment,
        capture_output=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert (tmp_path / SENTINEL).exists()  # (the ref's ~/.gitconfig ran, read by git)
    with pytest.raises(RenderError, match="writing a file a value names"):
        sh(_template(case, "evil"))


@pytest.mark.parametrize("path", [".git/config", ".GIT/hooks/post-checkout", "d/.git/config"])
def test_no_tree_git_checks_out_holds_a_path_in_dot_git(path: str, tmp_path: pathlib.Path) -> None:
    # (so checkout writes neither .git/config nor .git/hooks: only $HOME's files are at stake)
    _git(tmp_path, "init", "-q")
    blob = subprocess.run(
        ["git", "hash-object", "-w", "--stdin"], cwd=tmp_path, input="x\n", text=True,
        capture_output=True, check=True,
    ).stdout.strip()  # fmt: skip
    added = subprocess.run(
        ["git", "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert added.returncode != 0 and "Invalid path" in added.stderr


# -- awk's program text is no file's name --------------------------------------------------------

AWK_ACCEPTED = [
    "awk -F, '{print $1}' § > ids.txt",
    "awk -F , '{print $1}' § > ids.txt",
    "awk -F, -v OFS=, '{print $1}' § > ids.txt",
    "awk -F, -e '{print $1}' § > ids.txt",
    "awk -F, '{print $1}' § > ids.txt; sort ids.txt",
]


@pytest.mark.parametrize("case", AWK_ACCEPTED)
@pytest.mark.parametrize("shell", SHELLS)
def test_an_awk_program_in_the_static_text_is_no_option_file(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    if "-e" in case and b"-e" not in subprocess.run(
        ["awk", "-W", "usage"], capture_output=True, check=False
    ).stdout + subprocess.run(["awk", "--help"], capture_output=True, check=False).stdout:
        pytest.skip("this awk has no -e")
    (tmp_path / "home").mkdir()
    (tmp_path / "data.csv").write_text("a,1\nb,2\n")
    done = _run(shell, sh(_template(case, "data.csv")), tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ids.txt").read_text() == "a\nb\n"


@pytest.mark.parametrize("shell", SHELLS)
def test_awk_output_run_after_stays_refused(shell: str, tmp_path: pathlib.Path) -> None:
    case = "awk -F, '{print $1}' § > s.sh; sh s.sh"
    (tmp_path / "home").mkdir()
    (tmp_path / "data.csv").write_text(f"{_TOUCH},1\n")
    _run(shell, naive_sh(_template(case, "data.csv")), tmp_path)
    assert (tmp_path / SENTINEL).exists()
    with pytest.raises(RenderError, match=r"written to the file 's\.sh'"):
        sh(_template(case, "data.csv"))


@pytest.mark.parametrize(
    "case", ["awk -f prog.awk § > prog.awk", "awk -F, -f ids.txt § > ids.txt"]
)
def test_an_awk_program_file_written_with_a_value_stays_refused(case: str) -> None:
    with pytest.raises(RenderError, match="argument of its option '-f'"):
        sh(_template(case, "data.csv"))
