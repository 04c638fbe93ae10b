"""sh(): hostile contexts of the twenty-fourth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A git revision, branch, patch or repository a value names, written into the working tree
  by a git command with its hooks on.  When the repository's ``core.hooksPath`` points into
  the tree (husky's ``.husky``, a common setup), git runs the hooks of the tree it has just
  written, so the value chooses the code that runs even with no command after it: with a
  branch ``evil`` whose ``.husky`` hooks make the sentinel, ``git checkout -q {ref}`` ran its
  post-checkout (and post-index-change); so did ``git switch``, ``git reset --hard`` (post-
  index-change), ``git merge`` (post-merge), ``git pull . {ref}``, ``git rebase``, ``git
  cherry-pick`` (post-commit), ``git restore --source {ref} .husky``, ``git -C . checkout``,
  ``sh -c 'git checkout -q "$1"' sh {ref}``, ``set -- {ref}; git checkout -q "$1"``, ``git
  checkout -q -b topic {ref}`` (the start point), and ``git remote add o {url}; git pull o
  evil`` (the value chose the repository the pull merged).  A later ``-c core.hooksPath=.husky``
  undoes an earlier ``/dev/null`` (the last setting wins), and is refused too.  Only git's
  subcommands known to write no tree (those of the twenty-second pass's allow-list, and fetch,
  branch, tag, clone, difftool, whose hooks are the old tree's), and a value that only names a
  new branch or a message (``git checkout -b {name}``, ``git merge -m {msg} main``), keep it
  accepted there.

Accepted, and run (the sentinel is never made, and the tree is the value's): the same commands
with git's hooks turned off in the command itself, ``git -c core.hooksPath=/dev/null checkout
-q {ref}`` (git then finds no hook), which the refusal's message gives as the fix, and ``git
checkout -q -b {name}``.

Older tests changed, none weakened: the twenty-second pass asserted ``git checkout -q {ref};
ls`` and ``sh s.sh; git checkout -q {ref}`` accepted.  Both are holes: they are here as refused
cases with their positive control, and their ``-c core.hooksPath=/dev/null`` spellings as
accepted cases that check the same files afterwards.  Likewise the programs pass's ``git -C gr
checkout -q {b}`` and ``git switch {b}``, the second pass's look-alikes ``git rebase -x
'make test' {b}``, ``git submodule update --init {p}``, ``git bisect good {rev}`` (each checks
out a tree), the nineteenth pass's ``git pull {url} main``, ``git submodule add {url} sub``,
``git -c submodule.s.url={url} submodule update``, the fifth pass's ``git --{x} ls-remote r``,
and test_shell's ``git git … cat {x}`` (an unknown subcommand may be an alias of checkout) now
spell ``-c core.hooksPath=/dev/null`` there, keeping what they assert (the value read as no
option nor pathspec, a remote helper refused, the option check's reason, the speed); their
old spellings are refused here.
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest
from test_shell_contexts import SHELLS
from test_shell_twentieth_pass import _template
from test_shell_twenty_second_pass import (
    _IDENTITY,
    _TOUCH,
    SENTINEL,
    Accepted,
    _accepted_and_written,
    _prepare,
    _show_then_refuse,
)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_REFUSED = "in a git command that writes the working tree from a revision"
_OFF = "git -c core.hooksPath=/dev/null"
# The hooks the evil branch's .husky holds: each makes the sentinel in the repository.
_HOOKS = ("post-checkout", "post-merge", "post-index-change", "post-commit", "post-rewrite")


def _git(where: pathlib.Path, *command: str) -> None:
    """git in ``where`` with its hooks off (setting the repository up runs none)."""
    off = ("-c", "core.hooksPath=/dev/null")
    subprocess.run(["git", *_IDENTITY, *off, *command], cwd=where, check=True, capture_output=True)


def _prepare_husky(where: pathlib.Path) -> None:
    """The twenty-second pass's repository (branch ``main``, and ``evil`` whose s.sh makes the
    sentinel), with husky's setup: ``core.hooksPath`` is ``.husky``, which only ``evil``'s
    tree holds, its hooks making the sentinel; an identity, for the commits git makes."""
    _prepare(where)
    _git(where, "checkout", "-q", "evil")
    (where / ".husky").mkdir()
    for hook in _HOOKS:
        (where / ".husky" / hook).write_text(f"#!/bin/sh\ntouch '{where}/{SENTINEL}'\n")
        (where / ".husky" / hook).chmod(0o755)
    _git(where, "add", ".husky")
    _git(where, "commit", "-qm", "husky")
    _git(where, "checkout", "-q", "main")
    for setting in ("core.hooksPath=.husky", "user.name=t", "user.email=t@example.invalid"):
        _git(where, "config", *setting.split("="))
    assert not any(where.rglob(SENTINEL))


# (a variable holding the value: refused first as a writer whose reader may run after it)
_VARIABLE = f"{_REFUSED}|in a command writing a file a value names"
REFUSED_CASES = [
    # (template, the values)
    ("git checkout -q §", ["evil"]),
    # (the twenty-second pass's two accepted cases, moved here)
    ("git checkout -q §; ls", ["evil"]),
    ("sh s.sh; git checkout -q §", ["evil"]),
    ("git switch -q §", ["evil"]),
    ("git reset -q --hard §", ["evil"]),
    ("git merge -q --no-edit §", ["evil"]),
    ("git pull -q --no-rebase . §", ["evil"]),
    ("git rebase -q §", ["evil"]),
    ("git cherry-pick § >/dev/null", ["evil"]),
    ("git restore --source § .husky", ["evil"]),
    ("git -C . checkout -q §", ["evil"]),
    ("git checkout -q -b topic §", ["evil"]),
    ("sh -c 'git checkout -q \"$1\"' sh §", ["evil"]),
    ('set -- §; git checkout -q "$1"', ["evil"]),
    ("git remote add o §; git pull -q --no-rebase o evil", ["{tmp}"]),
    # (the last setting wins: hooks on again)
    (f"{_OFF} -c core.hooksPath=.husky checkout -q §", ["evil"]),
]


@pytest.mark.parametrize("case, values", REFUSED_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_tree_a_value_names_written_with_hooks_on_is_refused(
    shell: str, case: str, values: list[str], tmp_path: pathlib.Path
) -> None:
    # (the old render ran a hook of the value's tree: git itself is the reader)
    why = _VARIABLE if "$1" in case else _REFUSED
    _show_then_refuse(shell, case, values, tmp_path, why, _prepare_husky)


@pytest.mark.parametrize(
    "case, value",
    [
        # (the older passes' look-alikes, now spelled with git's hooks off there)
        ("git -C gr checkout -q §", "feature"),
        ("git switch §", "."),
        ("git rebase -x 'make test' §", "main"),
        ("git submodule update --init §", "x"),
        ("git bisect good §", "HEAD"),
        # (a subcommand git does not know may be an alias: `co = checkout`)
        ("git " * 40 + "cat §", "x"),
        ("git co §", "evil"),
        # (the nineteenth and fifth passes' look-alikes, now spelled with git's hooks off)
        ("git -C repo pull § main", "https://example.com/r.git"),
        ("git submodule add -b main § sub", "https://example.com/r.git"),
        ("git -c submodule.s.url=§ submodule update --init", "https://example.com/r.git"),
        ("git pull --rebase § main", "https://example.com/r.git"),
        ("git --§ ls-remote r", "bare"),
        ("git checkout -q § -- s.sh", "evil"),
        ("git -c core.hooksPath=§ checkout -q main", "/dev/null"),
        ("git -c core.hooksPath=/dev/null -c § checkout -q main", "core.hooksPath=.husky"),
    ],
)
def test_older_look_alikes_that_write_a_tree_with_hooks_on_are_refused(
    case: str, value: str
) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, value))


def test_the_refusal_gives_the_fix() -> None:
    with pytest.raises(RenderError, match=r"core\.hooksPath=/dev/null checkout"):
        sh(_template("git checkout -q §", "evil"))


ACCEPTED_CASES: list[Accepted] = [
    # (template, the values, the file it writes, the text the file holds after)
    (f"{_OFF} checkout -q §", ["evil"], "s.sh", _TOUCH),
    # (the twenty-second pass's two, with git's hooks off)
    (f"{_OFF} checkout -q §; ls", ["evil"], "s.sh", _TOUCH),
    (f"sh s.sh; {_OFF} checkout -q §", ["evil"], "s.sh", _TOUCH),
    (f"{_OFF} switch -q §", ["evil"], "s.sh", _TOUCH),
    (f"{_OFF} reset -q --hard §", ["evil"], "s.sh", _TOUCH),
    (f"{_OFF} merge -q --no-edit §", ["evil"], "s.sh", _TOUCH),
    (f"{_OFF} pull -q --no-rebase . §", ["evil"], "s.sh", _TOUCH),
    (f"{_OFF} rebase -q §", ["evil"], "s.sh", _TOUCH),
    (f"git -c core.hooksPath=.husky {_OFF[4:]} checkout -q §", ["evil"], "s.sh", _TOUCH),
    (f"git -C . {_OFF[4:]} checkout -q §", ["evil"], "s.sh", _TOUCH),
    # (a new branch's name: the tree stays main's, whose hooks are none)
    ("git checkout -q -b §", ["topic"], "s.sh", "echo harmless"),
    ("git switch -q -c §", ["topic"], "s.sh", "echo harmless"),
    ("git fetch -q . §:other", ["evil"], "s.sh", "echo harmless"),
    ("git branch -f other §", ["evil"], "s.sh", "echo harmless"),
]


@pytest.mark.parametrize("example", ACCEPTED_CASES, ids=lambda e: e[0])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_tree_written_with_hooks_off_stays_accepted(
    shell: str, example: Accepted, tmp_path: pathlib.Path
) -> None:
    _accepted_and_written(shell, example, tmp_path, _prepare_husky)


@pytest.mark.parametrize(
    "case, value",
    [
        ("git merge -q -m § main", "msg"),
        ("git log -1 --oneline §", "evil"),
        ("git diff --stat §", "evil"),
        ("git clone -q § d", "https://example.com/r.git"),
        # (a path after --: its contents come from the index or a revision the text names)
        ("git checkout -q -- §", "s.sh"),
        ("git reset -q -- §", "s.sh"),
        ("git checkout -q main -- §", "s.sh"),
    ],
)
def test_a_git_command_that_writes_no_tree_from_the_value_stays_accepted(
    case: str, value: str
) -> None:
    assert sh(_template(case, value))
