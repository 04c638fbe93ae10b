"""sh(): hostile contexts of the twenty-sixth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A file a value names, written by a program the writers' tables did not list, before a command
  that runs it.  With the value ``s.sh`` (or the prefix ``s``), each of these put a line that
  makes the sentinel in the file that ``sh`` then ran:

  - ``openssl base64 -d -in p.b64 -out {f}``;
  - ``find . -name 'x;*' -fprint {f}`` (also ``-fprintf {f} '%p\\n'`` and ``-fls {f}``), which
    wrote the name of a file called ``x;touch${IFS}pwned-by-22``;
  - ``gpg --dearmor -o {f} p.asc`` (and ``--output``);
  - ``git log -1 --format=%s note --output={f}``, of a commit whose message is that line;
  - ``csplit -s -f {prefix} payload 1`` and ``split payload {prefix}``;
  - ``tar -cf {f} arch/*``, whose member's name (a newline, then the line) starts a line;
  - ``zip -q -X {f} p2; sh t.sh`` with ``t.sh``, whose stored member is the line;
  - ``curl -D {f} URL`` and ``curl -c {f} URL``: a header and a cookie the server chose
    (``$(touch ...)``);
  - wget's log, ``wget -O page.html -o {f} URL`` (also ``-a``, ``--output-file=``,
    ``--append-output=``): the Content-Type the server chose; and a value in the URL that
    ``wget -O page.html -o log URL; sh log`` logs as given (``$(touch$IFS./...)``).  wget's
    log options join its output options (its ``-O`` alone still keeps the URL's name unused).

  openssl, find, gpg, git and csplit get a table of output options of their own: writers, but
  not copies nor known to wait for what they run, which _OUTPUT_OPTIONS implies (why the
  twenty-fifth pass took openssl back out).  curl's and tar's join _OUTPUT_OPTIONS (both were
  writers already).  zip's first operand and split's second are outputs; zip and split (which
  may run a command: zip -TT, split --filter) stay out of the programs whose path operands are
  exempt from the executable-by-path check.  Alone, or with the value as an input, they stay
  accepted (run).

* A directory a value chooses for git by a runner or by find, as the twenty-fifth pass's ``cd
  {d} && git status``: with the repository ``hostile`` whose .git/config's core.fsmonitor makes
  the sentinel, ``env -C {d} git status``, ``env --chdir={d} git status``, ``env --chdir {d}
  git diff``, ``unshare --wd={d} git status``, ``find {d} -name a -execdir git status \\;``
  and ``find {d} -maxdepth 0 -exec git -C {} status \\;`` each ran it.  A value as the
  argument of env's ``-C``/``--chdir`` or unshare's ``-w``/``--wd``, or among find's starting
  points when find runs a command, is refused when the text names git anywhere (the word
  ``--chdir={d}`` hides from the lexer what env runs).  ``env -C {d} ls`` and ``find {d}
  -exec cat {} \\;`` stay accepted (run).

Tried, and it holds (sh()'s render run in dash and bash with ``a[$(touch M)]``, ``$(touch
M)``, ``-s``, ``--``, ``-k`` and ``1;touch M``, no marker): ``umask``, ``ulimit -n``/``-t``,
``kill -s``, ``kill -{sig}``, ``nice -n``, ``timeout {t} true``, ``sleep``, ``wait``, ``jobs``,
``type``, ``command -v``, ``exec -a``, ``test``, ``[``, ``shift``, ``return``, ``exit``.

Not shown, left accepted: ``sudo -D {d}`` (it needs a sudoers rule) and ``nsenter --wd``;
``curl --trace``/``--trace-ascii`` (its first lines hold parentheses, a syntax error before
any payload), ``curl --stderr``, ``strace -o`` (its trace lines are syntax errors too),
``ar rc {f}`` (its header's backquote opens a substitution the payload must close),
``convert``, and tar's old style ``tar cf {f} ...``; ``cpio``, ``sponge``, ``ffmpeg`` and
``pandoc`` are not installed.
"""

from __future__ import annotations

import http.server
import os
import pathlib
import subprocess
from collections.abc import Iterator

import pytest
from test_shell_contexts import SHELLS
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_fifth_pass import (
    _REPOSITORY,
    _prepare_hostile,
    show_the_repository_runs_then_refuse,
)
from test_shell_twenty_second_pass import _TOUCH, SENTINEL, _git, _prepare, _show_then_refuse
from test_shell_urls import serve

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_WRITES = "written to the file|in a command writing"
_HOSTILE_HEADER = f"$({_TOUCH})"


def _prepare_more(where: pathlib.Path) -> None:
    """The twenty-second pass's files, and: payload base64-encoded (``p.b64``) and armored by
    gpg (``p.asc``); a file named ``x;touch ...`` for find; ``p2``, payload after an empty line;
    ``arch/``, holding a file whose name is a newline and payload (for tar); and a branch
    ``note`` whose commit's message is payload's line."""
    _prepare(where)
    (where / "p.b64").write_text("dG91Y2ggcHduZWQtYnktMjIK\n")  # (`touch pwned-by-22`)
    home = where / "home"
    armored = subprocess.run(
        ["gpg", "--batch", "--enarmor"], input=(where / "payload").read_bytes(),
        capture_output=True, check=True, env={"HOME": str(home), "GNUPGHOME": str(home)},
    )  # fmt: skip
    (where / "p.asc").write_bytes(armored.stdout)
    (where / "x;touch${IFS}pwned-by-22").write_text("")
    (where / "p2").write_text(f"\n{_TOUCH}\n")
    # (2012-11-01 12:11:02 UTC: zip's header writes it as the letters `aaaA`, no syntax)
    os.utime(where / "p2", (1351771862, 1351771862))
    (where / "arch").mkdir()
    (where / "arch" / f"\n{_TOUCH} #").write_text("")
    _git(where, "checkout", "-q", "-b", "note")
    _git(where, "commit", "--allow-empty", "-qm", _TOUCH)
    _git(where, "checkout", "-q", "main")


class _Hostile(http.server.BaseHTTPRequestHandler):
    """A server whose header, cookie and Content-Type are a command substitution."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("X-A", _HOSTILE_HEADER)
        self.send_header("Set-Cookie", f"a={_HOSTILE_HEADER}")
        self.send_header("Content-Type", _HOSTILE_HEADER)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        """(quiet)"""


@pytest.fixture(scope="module")
def hostile_url() -> Iterator[str]:
    for host in serve(_Hostile):
        yield f"http://{host}/"


WRITER_CASES = [
    # (template, the value)
    ("openssl base64 -d -in p.b64 -out §; sh s.sh", "s.sh"),
    ("find . -name 'x;*' -fprint §; sh s.sh", "s.sh"),
    ("find . -name 'x;*' -fprintf § '%p\\n'; sh s.sh", "s.sh"),
    ("find . -name 'x;*' -fls §; sh s.sh", "s.sh"),
    ("gpg --batch --yes -q --dearmor -o § p.asc; sh s.sh", "s.sh"),
    ("gpg --batch --yes -q --dearmor --output § p.asc; sh s.sh", "s.sh"),
    ("git log -1 --format=%s note --output=§; sh s.sh", "s.sh"),
    ("csplit -s -f § payload 1; sh s01", "s"),
    ("split payload §; sh saa", "s"),
    ("tar -cf § arch/*; sh s.sh", "s.sh"),
    # (s.sh exists: zip would read it as an archive; sh's errors quote bytes not UTF-8)
    ("zip -q -X § p2; sh t.sh 2>errors", "t.sh"),
]


@pytest.mark.parametrize("case, value", WRITER_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_a_value_names_written_by_another_writer_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (the writer put a line making the sentinel in the file, which sh ran)
    _show_then_refuse(shell, case, [value], tmp_path, _WRITES, _prepare_more)


@pytest.mark.parametrize(
    "case",
    [
        "tar -czf § arch; sh s.sh",
        "tar -c -f § arch; sh s.sh",
        "tar --create --file=§ arch; sh s.sh",
        "tar -rf § p2; sh s.sh",
        "find . -fprint0 §; sh s.sh",
        "csplit --prefix=§ payload 1; sh s01",
        "split -l 1 -- payload §; sh saa",
        "zip -r -q § arch; sh s.sh",
    ],
)
def test_other_spellings_of_those_writers_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=_WRITES):
        sh(_template(case, "s.sh"))


@pytest.mark.parametrize(
    "case",
    [
        # (the server chose the header and the cookie: a command substitution sh ran)
        "curl -s -D § {url}; sh s.sh",
        "curl -s -c § {url}; sh s.sh",
        # (wget's log quotes the Content-Type the server chose: `Length: 0 [$(touch ...)]`)
        "wget -O page.html -o § {url}; sh s.sh",
        "wget -O page.html -a § {url}; sh s.sh",
        "wget -O page.html --output-file=§ {url}; sh s.sh",
        "wget -O page.html --append-output=§ {url}; sh s.sh",
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_what_a_server_chose_written_to_a_file_a_value_names_is_refused(
    shell: str, case: str, hostile_url: str, tmp_path: pathlib.Path
) -> None:
    case = case.replace("{url}", hostile_url)
    _show_then_refuse(shell, case, ["s.sh"], tmp_path, _WRITES, _prepare_more)


@pytest.mark.parametrize("shell", SHELLS)
def test_a_url_wget_logs_to_a_file_run_after_is_refused(shell: str, tmp_path: pathlib.Path) -> None:
    # (the log quotes the URL as given, `$` and `(` too; port 9 refuses the connection)
    case = "wget -O page.html -o log http://127.0.0.1:9/§; sh log"
    value = f"$(touch$IFS./{SENTINEL})"
    _show_then_refuse(shell, case, [value], tmp_path, "written to the file 'log'", _prepare_more)


@pytest.mark.parametrize(
    "case, value",
    [
        ("openssl base64 -d -in p.b64 -out §", "out.txt"),
        ("openssl base64 -d -in § -out out.txt; sh s.sh", "p.b64"),
        ("find . -name 'x;*' -fprint §", "out.txt"),
        ("find . -name § -fprint out.txt; sh s.sh", "p2"),
        ("gpg --batch --yes -q --dearmor -o § p.asc", "out.txt"),
        ("git log -1 --format=%s note --output=§", "out.txt"),
        ("csplit -s -f § payload 1", "out"),
        ("split payload §", "out"),
        ("split -l § payload out; sh s.sh", "1"),
        ("tar -cf § arch/*", "out.tar"),
        # (listing, tar's -f names the archive it reads)
        ("tar -cf a.tar p2; tar -tf §; sh s.sh", "a.tar"),
        ("zip -q -X § p2", "out.zip"),
        ("zip -q out.zip §; sh s.sh", "p2"),
        # (what the server chose is written, but no command runs that file)
        ("curl -s -c § {url}", "out.txt"),
        ("curl -s -D § {url}", "out.txt"),
        ("wget -q -O page.html -o § {url}", "out.txt"),
        ("wget -q -O page.html -o log {url}; echo §", "out.txt"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_those_writers_alone_or_reading_the_value_stay_accepted(
    shell: str, case: str, value: str, hostile_url: str, tmp_path: pathlib.Path
) -> None:
    _prepare_more(tmp_path)
    done = _run(shell, sh(_template(case.replace("{url}", hostile_url), value)), tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / SENTINEL).exists()


# -- a directory a value chooses for git, by a runner's option or find's starting point --------

DIRECTORY_CASES = [
    # (template, the value)
    ("env -C § git status", "hostile"),
    ("env --chdir=§ git status", "hostile"),
    ("env --chdir § git diff", "hostile"),
    ("unshare --wd=§ git status", "hostile"),
    ("find § -name a -execdir git status \\;", "hostile"),
    ("find § -maxdepth 0 -exec git -C {} status \\;", "hostile"),
]


@pytest.mark.parametrize("case, value", DIRECTORY_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_directory_a_runner_gives_git_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    show_the_repository_runs_then_refuse(shell, case, value, tmp_path)


@pytest.mark.parametrize(
    "case, value",
    [
        ("env -C § ls", "hostile"),
        ("find § -name a -exec cat {} \\;", "hostile"),
        ("find § -name a -execdir wc -l {} +", "hostile"),
        # (the directory is the text's; the value is a revision, or a name find matches)
        ("env -C hostile git log -1 --format=%s §", "main"),
        ("find hostile -maxdepth 0 -name § -exec ls -d {} \\;", "hostile"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_directory_chosen_for_other_programs_stays_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    _prepare_hostile(tmp_path)
    done = _run(shell, sh(_template(case, value)), tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize(
    "case",
    [
        "env -C § ls; git status",  # (the allow-list: git anywhere in the template)
        "env -C§ sh -c 'git status'",
        "find -L § -name a -execdir sh -c 'git status' \\;",
        "unshare -w § git status",
    ],
)
def test_a_directory_a_runner_gives_beside_git_is_refused_by_allow_list(case: str) -> None:
    with pytest.raises(RenderError, match=_REPOSITORY):
        sh(_template(case, "hostile"))
