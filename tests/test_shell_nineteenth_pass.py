"""sh() and argv(): hostile contexts of the nineteenth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* git's repository (``git clone {url}``, ``git ls-remote {url}``, ``fetch``, ``pull``, ``push``,
  ``remote add NAME {url}``, ``submodule add {url}``, ``archive --remote={url}``, ``-c
  remote.NAME.url={url}``, ``git config remote.NAME.url {url}``): a URL ``NAME::ADDRESS`` (or
  ``NAME://`` of a scheme git does not know) makes git run the program ``git-remote-NAME``, and
  ``git-remote-ext`` runs ADDRESS as a command: ``ext::sh -c touch% f`` ran touch once the ext
  transport was allowed, by the template's own ``-c protocol.ext.allow=always`` or
  ``protocol.allow=always``, or by ``GIT_ALLOW_PROTOCOL`` in the environment, which the
  template cannot see.
* the option rsync passes to the remote rsync (``-M--log-file={f}``, ``--remote-option=…``):
  rsync given ``--old-args`` (or ``RSYNC_OLD_ARGS=1`` in its environment) puts it unescaped on
  the command line that the remote shell runs; ``$(touch f)`` there ran touch (a stand-in for
  ssh and sshd that runs the command with ``sh -c``, as sshd does).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from conftest import require
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

SENTINEL = "pwned-by-19"
_EXT = f"ext::sh -c touch% {SENTINEL}"


def _run(
    shell: str, command: str, where: pathlib.Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shell, "-c", command], cwd=where, capture_output=True, text=True, timeout=60,
        check=False, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})},
    )  # fmt: skip


# -- git's remote helpers -------------------------------------------------------------------------

_ALLOW = {"GIT_ALLOW_PROTOCOL": "ext"}  # (set by the caller: the template cannot see it)

GIT_CASES = [
    # (template with § for the field, value, its environment, what the refusal names)
    ("git -c protocol.ext.allow=always ls-remote §", _EXT, {}, "git ls-remote's repository"),
    ("git -c protocol.allow=always clone § d", _EXT, {}, "git clone's repository"),
    ("git ls-remote §", _EXT, _ALLOW, "git ls-remote's repository"),
    ("git clone -- § d", _EXT, _ALLOW, "git clone's repository"),
    ("git clone --depth 1 § d", _EXT, _ALLOW, "git clone's repository"),
    ("git clone ext::§ d", f"sh -c touch% {SENTINEL}", _ALLOW, "git clone's repository"),
    ("git -C repo fetch §", _EXT, _ALLOW, "git fetch's repository"),
    # (git's hooks off where it writes a tree: with them on, the 24th pass refuses any value)
    ("git -C repo -c core.hooksPath=/dev/null pull § main", _EXT, _ALLOW, "git pull's repository"),
    ("git -C repo push § HEAD:main", _EXT, _ALLOW, "git push's repository"),
    ("git -C repo remote add o §; git -C repo fetch o", _EXT, _ALLOW, "git remote's repository"),
    (
        "git -C repo -c core.hooksPath=/dev/null submodule add § sub",
        _EXT,
        _ALLOW,
        "git submodule's repository",
    ),
    ("git -C repo archive --remote=§ HEAD", _EXT, _ALLOW, "git archive --remote"),
    ("git -C repo -c remote.o.url=§ fetch o", _EXT, _ALLOW, "git's setting of a remote's URL"),
    (
        "git -C repo config remote.o.url §; git -C repo fetch o", _EXT, _ALLOW,
        "git config's setting of a remote's URL",
    ),
    ('for u in §; do git ls-remote "$u"; done', _EXT, _ALLOW, "git ls-remote's repository"),
    ("sh -c 'git ls-remote \"$1\"' sh §", _EXT, _ALLOW, "git ls-remote's repository"),
]


def _git_place(where: pathlib.Path) -> None:
    require(shutil.which("git") is not None, "git is not installed")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run([*git, "init", "-q", "-b", "main", "repo"], cwd=where, check=True)
    subprocess.run(
        [*git, "-C", "repo", "commit", "-q", "--allow-empty", "-m", "init"], cwd=where,
        check=True,
    )  # fmt: skip


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, value, env, where", GIT_CASES)
def test_a_remote_helper_that_runs_a_command_is_refused(
    shell: str, case: str, value: str, env: dict[str, str], where: str, tmp_path: pathlib.Path
) -> None:
    _git_place(tmp_path)
    # Positive control: the old render made git run git-remote-ext, which ran the value.
    _run(shell, naive_sh(_template(case, value)), tmp_path, env)
    assert list(tmp_path.rglob(SENTINEL)), case
    with pytest.raises(RenderError, match=f"stands in {where}, .*git-remote-ext runs"):
        sh(_template(case, value))


# Accepted before this pass (tests/test_shell.py and tests/test_shell_fifth_pass.py had them as
# accepted or refused for another reason): a repository that reaches git through xargs, a
# pipe's `read` or an unquoted $( ) is refused whatever the value, as any argument its program
# parses further is (the sixteenth pass), since no check sees what git gets there.
INDIRECT_CASES = [
    # (template, value, what the refusal says)
    ("printf '%s\\n' § | xargs git clone --", f'"{_EXT}"', "pipeline into xargs git"),
    (
        "printf '%s\\n' § | while read -r v; do git ls-remote \"$v\" r; done",
        _EXT,
        "stands in git ls-remote's repository",
    ),
    ("git ls-remote $(echo §) r", _EXT, "git ls-remote's repository"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, value, why", INDIRECT_CASES[:2])
def test_a_repository_reached_indirectly_is_refused(
    shell: str, case: str, value: str, why: str, tmp_path: pathlib.Path
) -> None:
    _git_place(tmp_path)
    # Positive control: xargs (which reads quotes) and read gave git the whole ext:: URL.
    _run(shell, naive_sh(_template(case, value)), tmp_path, _ALLOW)
    assert list(tmp_path.rglob(SENTINEL)), case
    with pytest.raises(RenderError, match=why):
        sh(_template(case, value))


@pytest.mark.parametrize("case, value, why", INDIRECT_CASES)
def test_a_plain_repository_reached_indirectly_is_refused_too(
    case: str, value: str, why: str
) -> None:
    """Whatever the value (``origin`` was accepted before): the renderer cannot check it."""
    with pytest.raises(RenderError, match=why):
        sh(_template(case, "origin"))


def test_git_refuses_ext_unless_allowed(tmp_path: pathlib.Path) -> None:
    """Why the positive controls allow it: git's own default refuses the ext transport, a
    setting (or variable) the template need not show."""
    _git_place(tmp_path)
    done = _run("/usr/bin/dash", naive_sh(_template("git ls-remote §", _EXT)), tmp_path)
    assert "transport 'ext' not allowed" in done.stderr
    assert not list(tmp_path.rglob(SENTINEL))


@pytest.mark.parametrize(
    "case, value",
    [
        ("git clone § d", "hg::https://example.invalid/r"),  # (the value chooses a helper)
        ("git clone § d", "ext://sh"),  # (a scheme git does not know: git-remote-ext again)
        ("git clone § d", "foo://x"),
        ("git clone § d", "HTTPS://example.invalid/r"),  # (git knows https only so spelled)
        ("git clone ext::sh§ d", " -c x"),
        ("git remote set-url origin §", _EXT),
        ("git -c core.hooksPath=/dev/null submodule add -b main § sub", _EXT),  # (hooks: 24th pass)
        ("git archive --remote § HEAD", _EXT),
        ("git -c remote.origin.pushurl=§ push origin", _EXT),
        ("git -c submodule.s.url=§ -c core.hooksPath=/dev/null submodule update --init", _EXT),
        ("git -c core.hooksPath=/dev/null pull --rebase § main", _EXT),
        ("git submodule set-url -- sub §", _EXT),
        ("git config --add remote.o.pushurl §", _EXT),
    ],
)
def test_other_spellings_are_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError, match="remote helper"):
        sh(_template(case, value))


@pytest.mark.parametrize("case", ["git clone § d", "git ls-remote §", "git fetch §"])
def test_argv_refuses_them_too(case: str) -> None:
    """argv() runs no shell, but git runs git-remote-ext's command: refused there too."""
    with pytest.raises(RenderError, match="remote helper"):
        argv(_template(case, _EXT))


@pytest.mark.parametrize(
    "case, value",
    [
        ("git clone § d", "https://github.com/owner/repo.git"),
        ("git clone § d", "git@github.com:owner/repo.git"),  # (scp-like: ssh)
        ("git clone § d", "ssh://git@example.invalid:2222/r.git"),
        ("git clone § d", "git://example.invalid/r.git"),
        ("git clone § d", "../other/repo"),
        ("git clone § d", "C:/repos/x"),  # (one ':' only: a path or a host)
        ("git clone hg::§ d", "https://example.invalid/r"),  # (the text chose the helper)
        ("git clone https://example.invalid/r.git §", "ext::sh"),  # (a directory's name)
        ("git push origin §", "main"),
        ("git push § main", "origin"),
        ("git remote add § https://example.invalid/r.git", "upstream"),
        ("git commit -m §", _EXT),  # (a message)
        ("git log §", "ext::x"),
        ("git -c remote.o.url=§ fetch o", "https://example.invalid/r.git"),
        ("git config remote.o.url §", "https://example.invalid/r.git"),
        ("git config user.name §", _EXT),
        ("git submodule set-url -- § https://example.invalid/r.git", "sub"),
    ],
)
def test_repositories_stay_accepted(case: str, value: str) -> None:
    sh(_template(case, value))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("spelled", ["§", "file:///§"])
def test_a_local_repository_is_cloned(shell: str, spelled: str, tmp_path: pathlib.Path) -> None:
    """A path (or file:// URL) stays accepted, and git clones it, in dash and bash."""
    _git_place(tmp_path)
    path = str(tmp_path / "repo")
    value = path.lstrip("/") if spelled.startswith("file:") else path
    command = sh(_template(f"git clone -q {spelled} copy", value))
    done = _run(shell, command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "copy" / ".git").is_dir()


# -- rsync's remote option ------------------------------------------------------------------------

# A stand-in for ssh and sshd: skip ssh's options and the host, and run the rest joined by
# spaces with `sh -c`, as sshd hands a command to the user's shell.
_FAKE_SSH = """#!/bin/sh
while [ $# -gt 0 ]; do case $1 in -l|-p|-o) shift 2;; -*) shift;; *) break;; esac; done
shift
exec sh -c "$*"
"""
_RSYNC = "rsync -a -e ./fakessh"
_TOUCH = f"$(touch {SENTINEL})"

RSYNC_CASES = [
    # (template, environment)
    (f"{_RSYNC} --old-args -M--log-file=§ src.txt h:dst/", {}),
    (f"{_RSYNC} --old-args -M --log-file=§ src.txt h:dst/", {}),
    (f"{_RSYNC} --old-args --remote-option=--log-file=§ src.txt h:dst/", {}),
    (f"{_RSYNC} -M--log-file=§ src.txt h:dst/", {"RSYNC_OLD_ARGS": "1"}),
    (f"{_RSYNC} --old-args -M--log-file=logs/§ src.txt h:dst/", {}),
    (f'for f in §; do {_RSYNC} --old-args -M --log-file="$f" src.txt h:dst/; done', {}),
]


def _rsync_place(where: pathlib.Path) -> None:
    require(shutil.which("rsync") is not None, "rsync is not installed")
    (where / "fakessh").write_text(_FAKE_SSH)
    (where / "fakessh").chmod(0o755)
    (where / "src.txt").write_text("hi\n")
    (where / "dst").mkdir()
    (where / "logs").mkdir()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, env", RSYNC_CASES)
def test_a_remote_option_the_remote_shell_runs_is_refused(
    shell: str, case: str, env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    _rsync_place(tmp_path)
    # Positive control: the old render put $(touch ...) on the remote command line unescaped.
    _run(shell, naive_sh(_template(case, _TOUCH)), tmp_path, env)
    assert (tmp_path / SENTINEL).exists(), case
    with pytest.raises(RenderError, match=r"rsync (-M|--remote-option)'s remote option"):
        sh(_template(case, _TOUCH))


def test_rsync_escapes_it_without_old_args(tmp_path: pathlib.Path) -> None:
    """Why the controls give --old-args: rsync 3.2.4 and later escape -M's argument for the
    remote shell by default (the template's value is still refused: the template cannot see
    RSYNC_OLD_ARGS, nor the rsync version)."""
    _rsync_place(tmp_path)
    case = f"{_RSYNC} -M--log-file=§ src.txt h:dst/"
    _run("/usr/bin/dash", naive_sh(_template(case, _TOUCH)), tmp_path)
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize(
    "case, value",
    [
        ("rsync -a -M § src h:dst/", "$(touch x)"),  # (the value would be the option)
        ("rsync -a --remote-option § src h:dst/", "x"),
        ("rsync -a --remote-option=§ src h:dst/", "x"),
        ("rsync -a -M--log-file=§ src h:dst/", "a b"),  # (a space splits the option)
        ("rsync -a -M--log-file=§ src h:dst/", "x;touch y"),
        ("rsync -a -M--log-file=§ src h:dst/", "`touch y`"),
        ("rsync -a --remote-opt=--log-file=§ src h:dst/", "$(touch y)"),  # (an abbreviation)
        ("sh -c 'rsync -a -M \"$1\" src h:dst/' sh §", "x"),
    ],
)
def test_other_remote_options_are_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, value))


def test_argv_refuses_a_remote_option_too() -> None:
    with pytest.raises(RenderError, match="remote option"):
        argv(_template("rsync -a --old-args -M--log-file=§ src h:dst/", _TOUCH))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "case",
    [
        f"{_RSYNC} --old-args -M--log-file=§ src.txt h:dst/",
        f"{_RSYNC} --old-args --remote-option=--log-file=§ src.txt h:dst/",
        f"{_RSYNC} -M --log-file=§ src.txt h:dst/",
    ],
)
def test_a_plain_remote_log_file_stays_accepted(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    """A plain name after the remote option's '=': rsync copies, and the remote rsync logs."""
    _rsync_place(tmp_path)
    done = _run(shell, sh(_template(case, "logs/rsync-2024.log")), tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "dst" / "src.txt").read_text() == "hi\n"
    assert (tmp_path / "logs" / "rsync-2024.log").exists()


@pytest.mark.parametrize(
    "case, value",
    [
        ("rsync -a --exclude=§ src h:dst/", "$(x)"),  # (sent over rsync's protocol)
        ("rsync -a § h:dst/", "local file.txt"),
        ("rsync -a -M--timeout=§ src h:dst/", "30"),
    ],
)
def test_other_rsync_arguments_stay_accepted(case: str, value: str) -> None:
    sh(_template(case, value))


# -- GnuPG's photo viewer -------------------------------------------------------------------------
#
# gpg shows a key's photo ID with the command --photo-viewer gives, through a shell, when told to
# show photos (`--list-options show-photos`, `--verify-options show-photos`): `gpg --photo-viewer
# {x} --list-options show-photos -k` ran the value.  gpg was no program the tables knew, and
# "viewer" is no word of a code option's name.

GPG_CASES = [
    "gpg --photo-viewer § --list-options show-photos -k",
    "gpg --photo-viewer=§ --list-options show-photos -k",
    "gpg --list-options show-photos --photo-viewer § --list-keys",
    "gpg --photo-v § --list-options show-photos -k",  # (an abbreviation: gpg reads it so)
    'for v in §; do gpg --photo-viewer "$v" --list-options show-photos -k; done',
    "sh -c 'gpg --photo-viewer \"$1\" --list-options show-photos -k' sh §",
]


@pytest.fixture
def gpg_env(tmp_path: pathlib.Path) -> Iterator[dict[str, str]]:
    """The environment of a GnuPG home in ``tmp_path`` with one key that has a photo ID;
    afterwards the agent gpg started for it is stopped (it would outlive the test)."""
    env = _gpg_place(tmp_path)
    yield env
    subprocess.run(
        ["gpgconf", "--kill", "gpg-agent"], env={**os.environ, **env}, check=False,
        capture_output=True, timeout=60,
    )  # fmt: skip


def _gpg_place(where: pathlib.Path) -> dict[str, str]:
    """A GnuPG home with one key that has a photo ID (a JPEG of a few bytes)."""
    require(shutil.which("gpg") is not None, "GnuPG (gpg) is not installed")
    home = where / "gnupg"
    home.mkdir(mode=0o700)
    env = {"GNUPGHOME": str(home)}
    gpg = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", ""]
    subprocess.run(
        [*gpg, "--quick-gen-key", "T <t@example.invalid>", "ed25519", "sign", "0"],
        env={**os.environ, **env}, check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    photo = where / "p.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9")
    subprocess.run(
        [*gpg, "--yes", "--command-fd", "0", "--edit-key", "t@example.invalid"],
        input=f"addphoto\n{photo}\ny\nsave\n", text=True, env={**os.environ, **env},
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return env


@pytest.mark.parametrize("case", GPG_CASES)
def test_a_photo_viewer_gpg_runs_is_refused(
    case: str, gpg_env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    env = gpg_env
    value = f"true; touch {SENTINEL}"
    for shell in SHELLS:
        # Positive control: the old render made gpg hand the value to a shell.
        (tmp_path / SENTINEL).unlink(missing_ok=True)
        _run(shell, naive_sh(_template(case, value)), tmp_path, env)
        assert (tmp_path / SENTINEL).exists(), (shell, case)
    with pytest.raises(RenderError, match="gpg --photo-viewer"):
        sh(_template(case, value))


@pytest.mark.parametrize("case", GPG_CASES[:4])
def test_argv_refuses_a_photo_viewer_too(case: str) -> None:
    with pytest.raises(RenderError, match="gpg --photo-viewer"):
        argv(_template(case, "true; touch x"))


@pytest.mark.parametrize(
    "case, value",
    [
        ("gpg --agent-program § -K", "/usr/bin/gpg-agent"),  # (refused before too: "program")
        ("gpg --dirmngr-program=§ --recv-keys 1", "dirmngr"),
        ("gpg --exec-path § -k", "/tmp"),
        ("gpg --command-file § --edit-key t", "commands.txt"),
        ("gpg2 --photo-viewer § -k", "display"),
    ],
)
def test_other_gpg_programs_are_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, value))


@pytest.mark.parametrize(
    "case, value",
    [
        ("gpg --list-keys §", "t@example.invalid"),
        ("gpg -k -- §", "--photo-viewer=touch x"),  # (after --: a key's name)
        ("gpg --list-options § -k", "show-uid-validity"),
        ("gpg --photo-viewer 'true' --list-options show-photos -k §", "t@example.invalid"),
    ],
)
def test_gpg_data_stays_accepted(
    case: str, value: str, gpg_env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    """Key names and list options: accepted, and gpg lists the key, in dash and bash."""
    env = gpg_env
    command = sh(_template(case, value))
    for shell in SHELLS:
        done = _run(shell, command, tmp_path, env)
        if value.startswith("--"):
            assert "No public key" in done.stderr or done.returncode != 0
        else:
            assert done.returncode == 0 and "t@example.invalid" in done.stdout, done.stderr
