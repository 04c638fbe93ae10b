"""sh(): hostile contexts of the twenty-second pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A file a value names, filled by a redirection or tee with what is not the template's own
  words, then run by a later command: ``cat payload > {f}; sh s.sh`` with ``s.sh`` ran the
  payload; so did ``cat payload | tee {f}``, ``tee -a {f} < payload`` (appended to s.sh),
  ``cat < payload > {f}``, ``head payload > {f}``, ``{ cat payload; } > {f}``, ``echo
  "$(cat payload)" > {f}`` and ``printf '%s\\n' "$(cat rules)" > {f}; make`` with
  ``Makefile``.  The twentieth pass held that a data writer's target name alone is no code;
  that is so only when what it writes is the template's own text.  Now the name's field is
  checked against the commands after the write (as the twenty-first pass does for ``cp a
  {f}``) unless the writer is a redirection alone or echo, printf, true, false or ``:``
  with only static words (``echo 'echo hi' > {f}; sh s.sh`` stays accepted).
* A value naming the source of files scp writes under their own names: ``scp {src} .; sh
  s.sh`` with ``sub/s.sh`` (scp copies local paths as cp does).
* A patch a value names, whose files patch or git writes: ``patch < {f}; sh s.sh``, ``patch
  -p1 -i {f}``, ``cat {f} | patch -p1`` and ``git apply {f}`` with a diff of s.sh.
* A git revision a value names, checked out: ``git checkout {ref}; sh s.sh`` (also ``-q {ref};
  make``, ``git switch``, ``git reset --hard``, ``git merge``, ``git checkout {ref} -- s.sh``,
  ``git -C d checkout``, and ``git fetch {url} && git checkout FETCH_HEAD``).  Only git's
  subcommands known to write neither the tree nor the refs a later git command writes it from
  (status, log, diff, show, add, commit... a short allow-list, and remote and config, whose
  values their own rules check) keep a value accepted there.
* A value piped into GNU parallel with a command: parallel quotes each input line where a
  replacement string stands (or after the command), but joins the command's words for a shell,
  so ``… | parallel {}``, ``{.}``, ``-I @ @``, ``--colsep ' ' {1} {2}``, ``sh -c {}``, ``eval
  {}``, ``'echo {} | sh'``, ``echo {} '|' sh`` and ``--pipe sh`` ran the value (only parallel
  given no command was refused).  By allow-list its command must now be a simple command with
  no shell syntax whose program takes the input as data, as for xargs.
* (An order gap, over-refusal: any ``|`` made every command of the template a reader of every
  later write; the shell waits for all of a pipeline's commands, so only those of the writer's
  own pipeline count now: ``ls | wc -l; sh s.sh; cp a {f}`` is accepted.)

Accepted, and run: those writes alone (``cat payload > {f}``, ``cat payload | tee {f}``,
``git -c core.hooksPath=/dev/null checkout {ref}`` (the twenty-fourth pass refuses it with
git's hooks on), ``patch -p1 -i {f}``, ``scp {src} .``), with a reader of data after
them, after the script they would replace, ``git log {ref}; sh s.sh``, and the template's own
text written to the file a value names (``echo 'echo hi' > {f}; sh s.sh``), and ``… |
parallel echo {}``.
"""

from __future__ import annotations

import pathlib
import subprocess
from collections.abc import Callable

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_twentieth_pass import _run, _template

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

SENTINEL = "pwned-by-22"
_TOUCH = f"touch {SENTINEL}"
_REFUSED = "in a command writing a file a value names"
_IDENTITY = ("-c", "user.name=t", "-c", "user.email=t@example.invalid")


def _git(where: pathlib.Path, *command: str) -> None:
    subprocess.run(["git", *_IDENTITY, *command], cwd=where, check=True, capture_output=True)


def _prepare(where: pathlib.Path) -> None:
    """The files the cases name, in ``where``, a git repository: a harmless ``s.sh`` on
    branch ``main``, and on branch ``evil`` an s.sh and a Makefile that make the sentinel; a
    data file ``payload`` and a Makefile-shaped ``rules`` that would make it if run; a
    ``sub/s.sh`` to copy; diffs of s.sh that make it do so (``p0.diff``, and ``p1.diff`` with
    git's a/ b/ prefixes); and ``other``, a repository whose s.sh does."""
    (where / "home").mkdir(exist_ok=True)
    (where / "payload").write_text(_TOUCH + "\n")
    (where / "rules").write_text(f"all:;@{_TOUCH}\n")
    (where / "sub").mkdir()
    (where / "sub" / "s.sh").write_text(_TOUCH + "\n")
    hunk = f"@@ -1 +1 @@\n-echo harmless\n+{_TOUCH}\n"
    (where / "p0.diff").write_text(f"--- s.sh\n+++ s.sh\n{hunk}")
    (where / "p1.diff").write_text(f"--- a/s.sh\n+++ b/s.sh\n{hunk}")
    (where / "s.sh").write_text("echo harmless\n")
    _git(where, "init", "-q", "-b", "main")
    _git(where, "add", "s.sh")
    _git(where, "commit", "-qm", "harmless")
    _git(where, "checkout", "-q", "-b", "evil")
    (where / "s.sh").write_text(_TOUCH + "\n")
    (where / "Makefile").write_text(f"all:;@{_TOUCH}\n")
    _git(where, "add", "s.sh", "Makefile")
    _git(where, "commit", "-qm", "evil")
    _git(where, "checkout", "-q", "main")
    other = where / "other"
    other.mkdir()
    (other / "s.sh").write_text(_TOUCH + "\n")
    _git(other, "init", "-q", "-b", "main")
    _git(other, "add", "s.sh")
    _git(other, "commit", "-qm", "evil")


def _values(values: tuple[str, ...], where: pathlib.Path) -> list[str]:
    return [value.replace("{tmp}", str(where)) for value in values]


Prepare = Callable[[pathlib.Path], None]


def _show_then_refuse(
    shell: str,
    case: str,
    values: list[str],
    where: pathlib.Path,
    why: str = _REFUSED,
    prepare: Prepare = _prepare,
) -> None:
    """The hole: the old render of ``case`` made the sentinel in ``where`` (the positive
    control), and sh() refuses it, saying ``why``.  (``prepare``: what makes the files.)"""
    prepare(where)
    given = _values(tuple(values), where)
    _run(shell, naive_sh(_template(case, *given)), where)
    assert any(where.rglob(SENTINEL)), case
    with pytest.raises(RenderError, match=why):
        sh(_template(case, *given))


def _accepted_and_run(
    shell: str, case: str, values: list[str], where: pathlib.Path, prepare: Prepare = _prepare
) -> subprocess.CompletedProcess[str]:
    """sh()'s render of ``case``, run in ``where``: it succeeds and makes no sentinel."""
    prepare(where)
    done = _run(shell, sh(_template(case, *_values(tuple(values), where))), where)
    assert done.returncode == 0, done.stderr
    assert not any(where.rglob(SENTINEL))
    return done


# -- a file a value names, filled with what is not the template's words, run after -------------

WRITTEN_CASES = [
    # (template, the value)
    ("cat payload > §; sh s.sh", "s.sh"),
    ("cat payload >> §; sh s.sh", "s.sh"),
    ("cat payload | tee § >/dev/null; sh s.sh", "s.sh"),
    ("tee -a § < payload >/dev/null; sh s.sh", "s.sh"),
    ("cat < payload > §; sh s.sh", "s.sh"),
    ("head -n 5 payload > §; sh s.sh", "s.sh"),
    ("{ cat payload; } > §; sh s.sh", "s.sh"),
    ('echo "$(cat payload)" > §; sh s.sh', "s.sh"),
    ("printf '%s\\n' \"$(cat rules)\" > §; make -s", "Makefile"),
    ("cat payload > §; . ./s.sh", "s.sh"),
    # (a source whose files scp writes under their own names)
    ("scp § .; sh s.sh", "sub/s.sh"),
    # (a patch, whose files patch or git apply writes)
    ("patch -s < §; sh s.sh", "p0.diff"),
    ("patch -s -p1 -i §; sh s.sh", "p1.diff"),
    ("cat § | patch -s -p1; sh s.sh", "p1.diff"),
    ("git apply §; sh s.sh", "p1.diff"),
    # (a git revision, checked out)
    ("git checkout -q §; sh s.sh", "evil"),
    ("git checkout -q §; make -s", "evil"),
    ("git switch -q §; sh s.sh", "evil"),
    ("git reset -q --hard §; sh s.sh", "evil"),
    ("git merge -q §; sh s.sh", "evil"),
    ("git checkout § -- s.sh; sh s.sh", "evil"),
    ("git -C . checkout -q §; sh s.sh", "evil"),
    ("git fetch -q § && git checkout -q FETCH_HEAD && sh s.sh", "{tmp}/other"),
]


@pytest.mark.parametrize("case, value", WRITTEN_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_a_value_names_or_picks_then_run_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (the old render wrote the file and a later command ran it)
    _show_then_refuse(shell, case, [value], tmp_path)


@pytest.mark.parametrize(
    "case",
    [
        "git cherry-pick §; make",
        "git am §; sh s.sh",
        "git stash apply §; make",
        "git rebase §; make",
        "git restore --source § s.sh; sh s.sh",
        "git branch -f main §; git reset --hard main; make",
        "git mv payload §; sh s.sh",
    ],
)
def test_a_git_subcommand_not_known_to_keep_the_files_counts_as_their_writer(case: str) -> None:
    # (by git's manual each may write the tree, or what a later git command writes it from)
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template(case, "evil"))


# (template, the values, the file it writes, the text the file holds after)
Accepted = tuple[str, list[str], str, str]
ACCEPTED_CASES: list[Accepted] = [
    ("cat payload > §", ["out.txt"], "out.txt", _TOUCH),
    ("cat payload | tee §", ["out.txt"], "out.txt", _TOUCH),
    ("tee -a § < payload", ["out.txt"], "out.txt", _TOUCH),
    ("cat payload > §; cat s.sh", ["out.txt"], "out.txt", _TOUCH),
    ("sh s.sh; cat payload > §", ["s.sh"], "s.sh", _TOUCH),
    # (the template's own words, with no value in them, written to the file a value names)
    ("echo 'echo static' > §; sh s.sh", ["s.sh"], "s.sh", "echo static"),
    ("printf 'echo %s\\n' static > §; sh s.sh", ["s.sh"], "s.sh", "echo static"),
    ("> §; sh s.sh", ["s.sh"], "s.sh", ""),
    ("scp § .", ["sub/s.sh"], "s.sh", _TOUCH),
    ("patch -s -p1 -i §", ["p1.diff"], "s.sh", _TOUCH),
    # (with git's hooks off: with them on, the twenty-fourth pass refuses both, as git runs
    # the hooks of the value's tree when core.hooksPath is in it)
    ("git -c core.hooksPath=/dev/null checkout -q §; ls", ["evil"], "s.sh", _TOUCH),
    ("sh s.sh; git -c core.hooksPath=/dev/null checkout -q §", ["evil"], "s.sh", _TOUCH),
    ("git log -1 --oneline §; sh s.sh", ["evil"], "s.sh", "echo harmless"),
    ("git diff --stat § >/dev/null; sh s.sh", ["evil"], "s.sh", "echo harmless"),
]


def _accepted_and_written(
    shell: str, example: Accepted, where: pathlib.Path, prepare: Prepare = _prepare
) -> None:
    """``example``'s case is accepted and run (:func:`_accepted_and_run`), and the file it
    names holds the text it gives after."""
    case, values, written, holds = example
    _accepted_and_run(shell, case, values, where, prepare)
    assert (where / written).read_text().strip() == holds


@pytest.mark.parametrize("example", ACCEPTED_CASES, ids=lambda e: e[0])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_a_value_names_written_and_not_run_after_stays_accepted(
    shell: str, example: Accepted, tmp_path: pathlib.Path
) -> None:
    _accepted_and_written(shell, example, tmp_path)


# -- a pipeline before the write is done before it; one the writer is in is not -----------------

PIPED_CASES = [
    "{ sleep 1; sh s.sh; } | { cp payload §; cat; }",
    "{ sleep 1; sh s.sh; } | ( cp payload §; cat )",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", PIPED_CASES)
def test_a_reader_in_the_writers_pipeline_counts(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # (the pipeline's first part ran s.sh after the copy wrote it)
    _show_then_refuse(shell, case, ["s.sh"], tmp_path)


# (each was refused: any '|' made every command a reader of every later write, but the shell
# waits for all of a pipeline's commands before the next one; common notebook lines)
PIPELINE_BEFORE_CASES = [
    ("ls | head -n 1; sh s.sh; cp payload §", ["s.sh"], "s.sh"),
    ("cat payload | wc -l; sh s.sh; cp payload §", ["s.sh"], "s.sh"),
    ("find . -name '*.diff' | head -n 1; sh s.sh; cp payload §", ["s.sh"], "s.sh"),
    ("ls | wc -l; sh s.sh; curl -s -o § §", ["s.sh", "file://{tmp}/payload"], "s.sh"),
    (
        "git log --oneline | head -n 1; sh s.sh; git -c core.hooksPath=/dev/null checkout -q §",
        ["evil"],
        "s.sh",
    ),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, values, written", PIPELINE_BEFORE_CASES)
def test_a_pipeline_done_before_the_write_is_no_reader_of_it(
    shell: str, case: str, values: list[str], written: str, tmp_path: pathlib.Path
) -> None:
    done = _accepted_and_run(shell, case, values, tmp_path)
    assert "harmless" in done.stdout  # (s.sh ran, then the write replaced it)
    assert (tmp_path / written).read_text().strip() == _TOUCH


def test_a_pipe_runs_its_writer_once_so_its_program_reads_nothing_it_wrote() -> None:
    # (a loop runs curl again, and curl reads ~/.curlrc; a pipe runs git apply once)
    assert sh(_template("echo § | git apply", "x"))
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template("for i in 1 2; do curl -s -o § §; done", ".curlrc", "file:///x"))


# -- a value piped into GNU parallel, whose command a shell parses with the input in it --------

PARALLEL_CASES = [
    "printf '%s\\n' § | parallel {}",
    "printf '%s\\n' § | parallel {.}",
    "printf '%s\\n' § | parallel -I @ @",
    "printf '%s\\n' § | parallel sh -c {}",
    "printf '%s\\n' § | parallel eval {}",
    "printf '%s\\n' § | parallel 'echo {} | sh'",
    "printf '%s\\n' § | parallel echo {} '|' sh",
    "printf '%s\\n' § | parallel --colsep ' ' {1} {2}",
    "printf '%s\\n' § | parallel --pipe sh",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", PARALLEL_CASES)
def test_a_value_parallel_puts_where_its_command_runs_code_is_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # (parallel quotes each input line, but its command string ran it as code)
    _show_then_refuse(shell, case, [_TOUCH], tmp_path, "in a pipeline into parallel")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "case", ["printf '%s\\n' § | parallel echo {}", "printf '%s\\n' § | parallel -j 2 echo"]
)
def test_a_value_parallel_gives_a_data_program_stays_accepted(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    done = _accepted_and_run(shell, case, [_TOUCH], tmp_path)
    assert done.stdout.strip() == _TOUCH
