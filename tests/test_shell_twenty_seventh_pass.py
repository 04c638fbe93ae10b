"""sh(): hostile contexts and over-refusals of the twenty-seventh pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* tar's old style, option letters without a '-' (``tar cf {f} arch/*``), which GNU tar reads
  as ``tar -c -f {f} arch/*``: each letter that takes an argument gets the next word, in their
  order.  ``tar cf {f} arch/*`` and ``tar cvf {f} arch/*`` with ``s.sh`` wrote the twenty-sixth
  pass's archive, a member named a newline and a line making the sentinel, to s.sh, which
  ``sh s.sh`` then ran; ``tar cbf 20 {f} ...``, ``czf``, ``rf``, ``fc`` are refused alike.  The
  old style is now read as its dashed spelling wherever tar's options are read.
* tar's ``--index-file``, which gets the verbose listing, the member names the archive chose:
  ``tar -tf {a} --index-file=s.sh; sh s.sh`` (and ``tar -xvOf {a} --index-file=s.sh``) with an
  archive holding a file named ``x;touch${IFS}pwned-by-22`` ran it, as did ``tar -tf names.tar
  --index-file={f}; sh s.sh`` with ``s.sh``.  It joins tar's output options, in every mode.
* A directory a value gives ``env -C`` (or ``unshare --wd``) behind another runner: ``nice env
  -C {d} git status``, ``nice -n 5 env -C {d}``, ``timeout 5 env --chdir={d}``, ``nohup env -C
  {d}`` and ``nice unshare --wd={d}`` each ran the twenty-fifth pass's hostile repository's
  core.fsmonitor.  The runners before env are now followed, as for the command env runs.

Over-refusals, now accepted (their renders run in dash and bash, with marker values, make no
sentinel):

* ``tar -xOf {a}; sh s.sh`` (and ``tar xOf``, ``-x -O -f``, ``--extract --to-stdout``): with
  -O, tar writes the members to its standard output and no file (checked: the directory stays
  empty), so the archive's s.sh never reaches the s.sh that sh runs.  -O counts only where it
  surely is an option: not the argument of ``-f`` (``tar -xf -O``), nor of a long option not
  known to take none (``--exclude -O``), nor after ``--`` (those stay refused).  ``tar -xOf {a}
  > s.sh; sh s.sh`` and ``tar -xOf {a} | sh`` stay refused by their own rules.
* ``git restore {f}`` without ``--``: git restore's operands are all paths, restored from the
  index or from the revision the text names, as ``git restore -- {f}`` (accepted before).  A
  value that is not its own word (``--source={rev}``, ``-s{rev}``), or after an option that
  may take it (``-s {rev}``, ``--sour {rev}``, abbreviated), stays refused: ``git restore
  --source={rev} .husky`` ran the hooks of evil's .husky.  (A value starting with '-' is
  refused as git's option.)

Looked at, and left (accepted: out of scope as documented, the value chooses the code file or
the program): ``awk -f {f}``, ``sed -f {f}``, ``make -f {f}``, ``at now -f {f}``, ``batch -f
{f}``, ``crontab {f}``, ``systemd-run {x}``, ``flock {f} sh s.sh``; ``xargs -a {f} sh -c
'echo'`` (the file's lines are sh's parameters, its string is the text's).  Refused already:
``ssh host {cmd}``, ``su -c``, ``runuser … sh -c``, ``watch``, ``parallel``, ``git -c {k}=v``,
``sed -i {script}``, and before ``sh s.sh``: ``install -m``, ``ln -s {x} s.sh``, ``cp -r
{d}/. .``, ``rsync {src} .``, ``patch < {f}`` and ``unzip {a}`` (even ``-l`` and ``-p``).
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest
from test_shell_contexts import SHELLS
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_fifth_pass import show_the_repository_runs_then_refuse
from test_shell_twenty_fourth_pass import _prepare_husky
from test_shell_twenty_second_pass import SENTINEL, _accepted_and_run, _show_then_refuse
from test_shell_twenty_sixth_pass import _prepare_more

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_WRITES = "written to the file|in a command writing"
_TREE = "in a git command that writes the working tree from a revision"


def _prepare_archives(where: pathlib.Path) -> None:
    """The twenty-sixth pass's files, and two archives: ``evil.tar``, whose member s.sh makes
    the sentinel, and ``names.tar``, holding the file named ``x;touch${IFS}pwned-by-22``."""
    _prepare_more(where)
    subprocess.run(["tar", "-cf", "evil.tar", "-C", "sub", "s.sh"], cwd=where, check=True)
    subprocess.run(["tar", "-cf", "names.tar", "x;touch${IFS}pwned-by-22"], cwd=where, check=True)


# -- tar's old style, and its index file -----------------------------------------------------

TAR_CASES = [
    # (template, the value)
    ("tar cf § arch/*; sh s.sh", "s.sh"),
    ("tar cvf § arch/* >/dev/null; sh s.sh", "s.sh"),
    ("tar cbf 20 § arch/*; sh s.sh", "s.sh"),
    ("tar -tf § --index-file=s.sh; sh s.sh", "names.tar"),
    ("tar -tf § --index-file s.sh; sh s.sh", "names.tar"),
    ("tar -xvOf § --index-file=s.sh >/dev/null; sh s.sh", "names.tar"),
    ("tar -tf names.tar --index-file=§; sh s.sh", "s.sh"),
]


@pytest.mark.parametrize("case, value", TAR_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_an_archive_or_listing_tar_writes_to_a_file_run_after_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (the archive's member name, or the listed name, is a line making the sentinel)
    _show_then_refuse(shell, case, [value], tmp_path, _WRITES, _prepare_archives)


@pytest.mark.parametrize(
    "case",
    [
        "tar czf § arch; sh s.sh",
        "tar rf § p2; sh s.sh",
        "tar fc § arch; sh s.sh",
        "tar cfb § 20 arch; sh s.sh",
        "tar uf § p2; sh s.sh",
        "tar -xOf names.tar --index-file=§; sh s.sh",
    ],
)
def test_other_old_style_spellings_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=_WRITES):
        sh(_template(case, "s.sh"))


@pytest.mark.parametrize(
    "case, value",
    [
        ("tar -xOf §; sh s.sh", "evil.tar"),
        ("tar xOf §; sh s.sh", "evil.tar"),
        ("tar xfO § s.sh; sh s.sh", "evil.tar"),
        ("tar -x -O -f §; sh s.sh", "evil.tar"),
        ("tar --extract --to-stdout --file=§; sh s.sh", "evil.tar"),
        ("tar -xOf evil.tar §; sh s.sh", "s.sh"),
        ("tar -xOf §; sh s.sh", "$(touch pwned-by-22)"),
        # (the old style writing an archive the value does not name)
        ("tar cf out.tar §; sh s.sh", "p2"),
        ("tar cfb out.tar § p2; sh s.sh", "20"),
        ("tar tvf §; sh s.sh", "names.tar"),
        ("tar -tf § --index-file=out.txt", "names.tar"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_tar_writing_no_file_a_later_command_runs_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (-O: the members go to the standard output; `tar -xf evil.tar; sh s.sh` ran it, refused)
    done = _accepted_and_run(shell, case, [value], tmp_path, _prepare_archives)
    assert (tmp_path / "s.sh").read_text() == "echo harmless\n", done.stdout


@pytest.mark.parametrize(
    "case",
    [
        "tar -xf §; sh s.sh",  # (the positive control: evil.tar's s.sh replaces s.sh)
        "tar -xf -O §; sh s.sh",  # (-O the archive, the value a member extracted)
        "tar -x --exclude -O -f §; sh s.sh",
        "tar -x -- -O -f §; sh s.sh",
        "tar -xfO §; sh s.sh",  # (the archive -O)
        "tar -xOf § > s.sh; sh s.sh",
        "tar -xOf § | sh",
    ],
)
def test_tar_extracting_to_files_stays_refused(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "evil.tar"))


def test_tar_to_stdout_writes_no_file(tmp_path: pathlib.Path) -> None:
    _prepare_archives(tmp_path)
    (tmp_path / "out").mkdir()
    done = _run("/bin/sh", "cd out && tar -xOf ../evil.tar", tmp_path)
    assert done.stdout == "touch pwned-by-22\n"
    assert not any((tmp_path / "out").iterdir())


# -- env's directory behind another runner ---------------------------------------------------


@pytest.mark.parametrize(
    "case",
    [
        "nice env -C § git status",
        "nice -n 5 env -C § git status",
        "timeout 5 env --chdir=§ git status",
        "nohup env -C § git status",
        "nice unshare --wd=§ git status",
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_directory_env_gives_git_behind_a_runner_is_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    show_the_repository_runs_then_refuse(shell, case, "hostile", tmp_path)


@pytest.mark.parametrize("case", ["nice env -C§ git status", "sudo env -C § git status"])
def test_other_spellings_behind_a_runner_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match="a repository whose own settings"):
        sh(_template(case, "hostile"))


@pytest.mark.parametrize("case", ["nice env -C § ls", "timeout 5 env -C § ls", "nice env -u § ls"])
def test_a_directory_behind_a_runner_for_other_programs_stays_accepted(case: str) -> None:
    assert sh(_template(case, "hostile"))


# -- git restore's paths without -- ----------------------------------------------------------


@pytest.mark.parametrize(
    "case, value",
    [
        ("git restore §", "s.sh"),
        ("git restore §", "."),
        ("git restore --staged --worktree §", "s.sh"),
        ("git restore -SW § §", "s.sh"),
        ("git restore --source=main §", "s.sh"),
        ("git restore --conflict merge §", "s.sh"),
        ("git -C . restore §", "s.sh"),
        ("git restore §", "$(touch pwned-by-22)"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_path_git_restore_restores_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (s.sh changed in the tree of the twenty-fourth pass's husky repository; restored to
    # main's, and no hook of evil's .husky ran)
    _prepare_husky(tmp_path)
    (tmp_path / "s.sh").write_text("echo changed\n")
    done = _run(shell, sh(_template(case, value)), tmp_path)
    assert not any(tmp_path.rglob(SENTINEL))
    if value != "$(touch pwned-by-22)":
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "s.sh").read_text() == "echo harmless\n"


@pytest.mark.parametrize("case", ["git restore --source=§ .husky", "git restore -s§ .husky"])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_revision_glued_to_git_restores_option_stays_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    _show_then_refuse(shell, case, ["evil"], tmp_path, _TREE, _prepare_husky)


@pytest.mark.parametrize(
    "case",
    [
        "git restore --sour § .husky",
        "git restore -Ws § .husky",
        "git restore --pathspec-from-file § ",
        # (`git restore ./§`: accepted by the twenty-eighth pass, a path as the value alone)
        'set -- §; git restore "$1"',
        "git restore §; sh s.sh",
    ],
)
def test_git_restore_with_a_value_not_surely_a_path_stays_refused(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "evil"))
