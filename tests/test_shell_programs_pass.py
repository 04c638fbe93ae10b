"""sh() and argv(): a value in an argument that its program parses further (fifteenth pass).

The value stays one shell word, but the program reading that word splits it by a grammar of
its own, where a character of the value gives the command another structure than the
template's.  Each was reproduced with the real program, with a positive control (the same
template with each value through plain ``shlex.quote``, run by dash and bash), and is now
refused by an allow-list (:func:`ipy_istring._shell_programs.argument_rule`):

* F13 ``ssh -J {jump}``, ``-J bastion,{jump}``, ``-o ProxyJump={jump}``, ``scp -J``: OpenSSH
  (before 9.6) runs ``ssh -W ... JUMPHOST`` through ``$SHELL -c``, so ``x$(touch f)`` ran
  touch.  A jump host must be ``[user@]host[:port]``.
* F14 ``psql -o {out}``: psql's ``\\o`` pipes to ``|cmd`` (strace's ``-o`` twin).
* F10 ``psql -v id={id} -f q.sql``: psql pastes ``:id`` into the script as raw text, so ``0
  or true`` was SQL and ``1 \\! touch f`` ran touch on the client.  A number or a plain word.
* F2 ``psql -h db.invalid {db}`` (``-d {db}``, ``pg_dump``): libpq reads a name holding ``=``
  or starting with ``postgresql://`` as a connection string, which chose another server.
* F3 ``curl -d {x}`` (``--data``, ``--json``, ``-H``) with ``@file`` sent the file; ``-F
  c={x}`` with ``<file``, and ``;headers=@file``; ``--data-urlencode {x}`` with ``c@file``.
* F9 CR LF in curl's ``-H``, ``-A``, ``-X`` added headers or a whole request; ``-X``/wget's
  ``--method`` must be a token; ``;`` in ``-b session={v}`` added a cookie.
* F1 curl expands ``{a,b}`` and ``[1-9]`` in its URLs: ``/users/{id}/avatar`` with ``{7,..}``
  also fetched ``/api/avatar``; refused unless ``-g``.
* F5 ``kill {pid}`` with ``0`` (its own process group) and ``kill -- {pid}`` with ``-1`` (every
  process): a pid must be a positive integer.
* F8 ``git push origin {b}`` with ``:main`` deleted the remote branch, ``+junk:main`` forced it.
* F7 ``git rm -- {f}`` with ``*`` or ``:/`` removed every file (``git add {f}``, ``git checkout
  -- {f}`` alike); F7b ``git checkout {b}`` with ``.`` discarded every edit.
* F4 ``git clone --template={d}`` and ``git -c init.templateDir={d}`` ran the directory's hooks.
* F11 ``openssl req -subj /CN={name}/O=Users`` with ``/`` added subject fields; F12 ``awk
  '{print > out}' out=a {f}`` with ``out=victim`` retargeted awk's output.
"""

from __future__ import annotations

import http.server
import os
import pathlib
import shutil
import socket
import struct
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import ClassVar

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh


def _run(shell: str, command: str, where: pathlib.Path, **env: str) -> str:
    """Run ``command`` in ``shell`` in ``where`` (HOME there); its output and errors."""
    done = subprocess.run(
        [shell, "-c", command],
        cwd=where,
        env={"PATH": "/usr/bin:/bin", "HOME": str(where), "SHELL": "/bin/sh", **env},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout + done.stderr


def _refused(case: str, value: str, match: str) -> None:
    """sh() and argv() both refuse ``value`` in ``case``, saying ``match``."""
    with pytest.raises(RenderError, match=match):
        sh(_template(case, value))
    with pytest.raises(RenderError, match=match):
        argv(_template(case, value))


# -- F13: ssh's jump host -------------------------------------------------------------------

_SSH = "ssh -o BatchMode=yes -o ConnectTimeout=2 "
JUMPS = [
    _SSH + "-J § target.invalid uptime",
    _SSH + "-o ProxyJump=§ target.invalid uptime",
    _SSH + "-J bastion.invalid,§ target.invalid uptime",
    _SSH + "-J§ target.invalid uptime",
    _SSH + "-oProxyJump=§ target.invalid uptime",
    "scp -o BatchMode=yes -o ConnectTimeout=2 -J § data.txt target.invalid:/tmp/",
]


@pytest.mark.skipif(shutil.which("ssh") is None, reason="ssh is not installed")
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", JUMPS)
def test_a_jump_host_is_a_host_list(shell: str, case: str, tmp_path: pathlib.Path) -> None:
    value = "x$(touch${IFS}pwned)"
    _run(shell, naive_sh(_template(case, value)), tmp_path)
    assert (tmp_path / "pwned").exists()  # OpenSSH ran the value through a shell
    _refused(case, value, "jump host list, which OpenSSH")
    _refused(case, "x|touch${IFS}pwned", "jump host list")
    _refused(case, "-oProxyCommand=touch${IFS}pwned", "jump host|option")
    # (addresses that fail at once: a routable one that drops packets, 10.0.0.1, left the
    # jump's own ssh waiting for minutes, holding the test's pipe)
    for alike in ("bastion.invalid", "admin@bastion.invalid:2222", "127.0.0.1:1", "[::1]:22"):
        (tmp_path / "pwned").unlink(missing_ok=True)
        _run(shell, sh(_template(case, alike)), tmp_path)
        assert not (tmp_path / "pwned").exists()
        assert argv(_template(case, alike))[-3 if "scp" in case else -2] == "target.invalid" or (
            "scp" in case
        )


def test_a_jump_host_user_is_checked_too() -> None:
    _refused(_SSH + "-J §@bastion.invalid target.invalid ls", "u$(touch x)", "jump host")
    assert sh(_template(_SSH + "-J §@bastion.invalid target.invalid ls", "deploy"))
    # (the remote command's words are the remote shell's: refused as ever)
    assert sh(_template("ssh -o 'ProxyJump '§ host", "jump.example:22"))


# -- ssh's destination (the sixteenth pass) -------------------------------------------------
# OpenSSH before 9.6 pasted the destination's host and user unquoted into a configuration's
# ProxyCommand and Match exec commands (%h, %r: CVE-2023-51385), which its shell runs.  The
# OpenSSH here has the fix: it refuses such a host itself, so there is no positive control on
# this machine; the allow-list is checked against it instead (what it refuses, sh() refuses;
# what sh() accepts, it takes).

DESTINATIONS = [
    "ssh §",
    "ssh § ls",  # (in test_shell's data arguments before: "value 0" is no host)
    "ssh -p 22 § ls",
    "ssh -l § host ls",  # (the user, which OpenSSH pastes as %r)
    _SSH + "§ uptime",
    _SSH + "-p 2222 -l deploy § uptime",
    _SSH + "admin@§ uptime",
    _SSH + "§@server.invalid uptime",
    _SSH + "-- § uptime",
    "sudo ssh § uptime",
    "set -- §; ssh \"$1\" uptime",
]
HOSTILE_HOSTS = ["x$(touch${IFS}pwned)", "x`id`", "x;id", "a|b", "h'q", "a b", "x&y", "(x)"]
ORDINARY_HOSTS = ["example.com", "host-1.example.com", "10.0.0.1", "::1", "my_alias", "deploy"]


def _ssh_accepts(words: list[str]) -> bool:
    """Whether the real ssh takes ``words`` (its arguments) as a destination: -G prints the
    configuration it would use, without connecting."""
    done = subprocess.run(
        ["ssh", "-G", *words], capture_output=True, text=True, timeout=30,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip
    return done.returncode == 0 and "invalid characters" not in done.stderr


@pytest.mark.skipif(shutil.which("ssh") is None, reason="ssh is not installed")
@pytest.mark.parametrize("value", HOSTILE_HOSTS)
def test_the_ssh_here_refuses_a_host_with_shell_characters(value: str) -> None:
    # (why the tests below have no positive control: this OpenSSH has CVE-2023-51385's fix)
    assert not _ssh_accepts(["--", value])


@pytest.mark.parametrize("case", DESTINATIONS)
def test_ssh_destination_is_a_host(case: str) -> None:
    for value in HOSTILE_HOSTS:
        with pytest.raises(RenderError, match="ssh's destination"):
            sh(_template(case, value))
    if "$1" not in case and "sudo" not in case:
        with pytest.raises(RenderError, match="ssh's destination"):
            argv(_template(case, HOSTILE_HOSTS[0]))


@pytest.mark.skipif(shutil.which("ssh") is None, reason="ssh is not installed")
@pytest.mark.parametrize("case", [case for case in DESTINATIONS if case.startswith(_SSH)])
def test_ordinary_ssh_destinations_stay_accepted(case: str) -> None:
    for value in ORDINARY_HOSTS:
        if "@" in case and value == "::1":
            continue  # (not a user name, nor a host with one before it)
        words = argv(_template(case, value))
        assert sh(_template(case, value))
        assert _ssh_accepts(words[1:])


# -- psql: a fake server ----------------------------------------------------------------------


def _message(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("!i", len(body) + 4) + body


def _read(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        more = connection.recv(size - len(data))
        if not more:
            raise EOFError
        data += more
    return data


class _FakePostgres:
    """A minimal PostgreSQL server on 127.0.0.1: trusts everyone, answers every query with
    one row, and records each connection's startup parameters and queries."""

    def __init__(self) -> None:
        self.log: list[str] = []
        self.socket = socket.create_server(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            while True:
                length, code = struct.unpack("!ii", _read(connection, 8))
                if code in (80877103, 80877104):  # SSL, GSS: no
                    connection.sendall(b"N")
                    continue
                self.log.append("STARTUP " + repr(_read(connection, length - 8)))
                break
            ready = _message(b"R", struct.pack("!i", 0))
            for key, value in ((b"server_version", b"15.0"), (b"client_encoding", b"UTF8")):
                ready += _message(b"S", key + b"\0" + value + b"\0")
            connection.sendall(ready + _message(b"Z", b"I"))
            while True:
                kind = _read(connection, 1)
                (length,) = struct.unpack("!i", _read(connection, 4))
                body = _read(connection, length - 4)
                if kind == b"X":
                    break
                self.log.append("QUERY " + body[:-1].decode())
                row = struct.pack("!h", 1) + b"r\0" + struct.pack("!ihihih", 0, 0, 25, -1, -1, 0)
                connection.sendall(
                    _message(b"T", row)
                    + _message(b"D", struct.pack("!hi", 1, 2) + b"ok")
                    + _message(b"C", b"SELECT 1\0")
                    + _message(b"Z", b"I")
                )
        except (EOFError, OSError):
            pass
        finally:
            connection.close()


@pytest.fixture(scope="module")
def postgres() -> Iterator[_FakePostgres]:
    if shutil.which("psql") is None:
        pytest.skip("psql is not installed")
    server = _FakePostgres()
    yield server
    server.socket.close()


def _psql(postgres: _FakePostgres, rest: str) -> str:
    return f"psql -h 127.0.0.1 -p {postgres.port} -U app -X -q {rest}"


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("option", ["-o §", "--output=§", "-o§"])
def test_psql_output_starting_with_a_pipe_is_refused(
    postgres: _FakePostgres, shell: str, option: str, tmp_path: pathlib.Path
) -> None:
    case = _psql(postgres, f"{option} -c 'select 1' app")
    _run(shell, naive_sh(_template(case, "|touch pwned")), tmp_path)
    assert (tmp_path / "pwned").exists()  # psql's \o piped to the command
    _refused(case, "|touch pwned", "shell command to pipe its output to")
    _run(shell, sh(_template(case, "report.txt")), tmp_path)
    assert "ok" in (tmp_path / "report.txt").read_text()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("option", ["-v id=§", "--set=id=§", "--variable id=§", "-vid=§", "-v §"])
def test_a_psql_variable_is_a_number_or_a_plain_word(
    postgres: _FakePostgres, shell: str, option: str, tmp_path: pathlib.Path
) -> None:
    (tmp_path / "q.sql").write_text("select name from users where id = :id;\n")
    case = _psql(postgres, f"{option} -f q.sql app")
    prefix = "id=" if option.endswith(" §") and "id=" not in option else ""
    postgres.log.clear()
    _run(shell, naive_sh(_template(case, prefix + "0 or true")), tmp_path)
    assert "QUERY select name from users where id = 0 or true;" in postgres.log
    _run(shell, naive_sh(_template(case, prefix + "1 \\! touch pwned")), tmp_path)
    assert (tmp_path / "pwned").exists()  # psql ran the backslash command's shell
    _refused(case, prefix + "0 or true", "psql pastes into the script as raw text|psql variable")
    _refused(case, prefix + "1 \\! touch pwned", "psql variable")
    postgres.log.clear()
    _run(shell, sh(_template(case, prefix + "42")), tmp_path)
    assert postgres.log[-1:] == ["QUERY select name from users where id = 42;"]
    assert sh(_template(case, prefix + "alice")) and sh(_template(case, prefix + "-1.5"))


DATABASE_NAMES = [
    "psql -h db.invalid -U app § -c 'select 1'",
    "psql -h db.invalid -U app -d § -c 'select 1'",
    "psql -h db.invalid -U app --dbname=§ -c 'select 1'",
    "pg_dump -h db.invalid -U app § -f out.sql",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", DATABASE_NAMES)
def test_a_database_name_is_no_connection_string(
    postgres: _FakePostgres, shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    if case.startswith("pg_dump") and shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    for value in (
        f"host=127.0.0.1 port={postgres.port} dbname=x options=-csearch_path=evil",
        f"postgresql://127.0.0.1:{postgres.port}/x",
    ):
        postgres.log.clear()
        _run(shell, naive_sh(_template(case, value)), tmp_path)
        # the template's host does not exist: the value chose the fake server
        assert any(line.startswith("STARTUP") for line in postgres.log), postgres.log
        _refused(case, value, "libpq reads as a connection string")
    look_alike = case.replace("db.invalid", f"127.0.0.1 -p {postgres.port}")
    postgres.log.clear()
    _run(shell, sh(_template(look_alike, "shop")), tmp_path)
    assert any("shop" in line for line in postgres.log if line.startswith("STARTUP"))


# -- curl and wget: a local server ----------------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Answers 200 to anything, keeping the request line, headers and body."""

    seen: ClassVar[list[tuple[str, str, dict[str, str], bytes]]] = []  # (method, path, ...)

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        self.seen.append((self.command, self.path, dict(self.headers), body))
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    do_GET = do_POST = do_DELETE = do_PATCH = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


_Request = tuple[str, str, dict[str, str], bytes]


def _requests(shell: str, command: str, where: pathlib.Path) -> list[_Request]:
    _Recorder.seen.clear()
    _run(shell, command, where)
    return list(_Recorder.seen)


# (template, value, what the server must not get for the template's meaning to hold, message)
CURL_FILES = [
    ("curl -s -d § http://HOST/c", "@secret.env", "body", "makes curl read the file"),
    ("curl -s --data-binary § http://HOST/c", "@secret.env", "body", "makes curl read"),
    ("curl -s -F comment=§ http://HOST/c", "<secret.env", "body", "form field's content"),
    ("curl -s -F comment=§ http://HOST/c", "@secret.env", "body", "form field's content"),
    ("curl -s -F comment=§ http://HOST/c", "hi;headers=@hdrs.txt", "body", "form field's param"),
    ("curl -s --data-urlencode § http://HOST/c", "comment@secret.env", "body", "name@file"),
    ("curl -s -H § http://HOST/c", "@hdrs.txt", "headers", "makes curl read"),
]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "value", "where", "match"), CURL_FILES)
def test_curl_reads_no_file_a_value_names(
    server: str, shell: str, case: str, value: str, where: str, match: str, tmp_path: pathlib.Path
) -> None:
    (tmp_path / "secret.env").write_text("SECRET_TOKEN=abc123\n")
    (tmp_path / "hdrs.txt").write_text("X-Secret: abc123\n")
    case = case.replace("HOST", server)
    ((_, _, headers, body),) = _requests(shell, naive_sh(_template(case, value)), tmp_path)
    assert "abc123" in (body.decode() if where == "body" else str(headers))
    _refused(case, value, match)
    alike = "X-Note: hello" if " -H " in case else "hello"
    ((_, _, headers, body),) = _requests(shell, sh(_template(case, alike)), tmp_path)
    assert b"hello" in body or headers.get("X-Note") == "hello"


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_url_query_encodes_its_value(server: str, tmp_path: pathlib.Path) -> None:
    case = f"curl -s --url-query § http://{server}/c"
    ((_, path, _, _),) = _requests("/bin/sh", naive_sh(_template(case, "+q=a&admin=1")), tmp_path)
    assert path.endswith("&admin=1")  # a parameter of the value's
    _refused(case, "+q=a&admin=1", "unencoded")
    ((_, path, _, _),) = _requests("/bin/sh", sh(_template(case, "q=a&admin=1")), tmp_path)
    assert path.lower() == "/c?q=a%26admin%3d1"  # (one parameter)


def test_curl_reads_text_where_a_name_comes_first() -> None:
    assert sh(_template("curl -s --data-urlencode comment=§ http://h/c", "@secret.env"))
    assert sh(_template("curl -s --data-raw § http://h/c", "@secret.env"))
    assert sh(_template("curl -s --form-string comment=§ http://h/c", "<a;b"))
    assert sh(_template("curl -s -d @§ http://h/c", "body.json"))  # (the author's '@')


# (template, value, the header or request the value added)
CURL_LINES = [
    ("curl -s -H 'X-Trace: '§ http://HOST/api", "abc\r\nX-Admin: 1", "X-Admin"),
    ("curl -s -A § http://HOST/api", "ua\r\nX-Admin: 1", "X-Admin"),
    ("curl -s -e § http://HOST/api", "ref\r\nX-Admin: 1", "X-Admin"),
    ("curl -s -b session=§ http://HOST/api", "abc; admin=1", "admin=1"),
    ("curl -s -X § http://HOST/api", "DELETE /admin HTTP/1.1\r\nHost: x\r\n\r\nGET", "/admin"),
]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "value", "added"), CURL_LINES)
def test_a_value_adds_no_line_to_an_http_request(
    server: str, shell: str, case: str, value: str, added: str, tmp_path: pathlib.Path
) -> None:
    case = case.replace("HOST", server)
    seen = _requests(shell, naive_sh(_template(case, value)), tmp_path)
    assert added in str(seen), seen
    with pytest.raises(RenderError, match=r"control character|HTTP method|separates cookies"):
        sh(_template(case, value))
    seen = _requests(shell, sh(_template(case, "PATCH" if "-X" in case else "abc")), tmp_path)
    assert len(seen) == 1 and added not in str(seen), seen


@pytest.mark.skipif(shutil.which("wget") is None, reason="wget is not installed")
def test_wget_method_is_a_token(server: str, tmp_path: pathlib.Path) -> None:
    case = f"wget -q -O - --method=§ http://{server}/api/items"
    smuggled = "DELETE /admin HTTP/1.1\r\n\r\nGET"
    seen = _requests("/bin/bash", naive_sh(_template(case, smuggled)), tmp_path)
    assert any(path.upper().startswith("/ADMIN") for _, path, _, _ in seen), seen
    _refused(case, smuggled, "HTTP method")
    seen = _requests("/bin/bash", sh(_template(case, "DELETE")), tmp_path)
    assert [(method, path) for method, path, _, _ in seen] == [("DELETE", "/api/items")]


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("case", "value", "reached"),
    [
        ("curl -s http://HOST/api/users/§/avatar", "{7,..}", "/api/avatar"),
        ("curl -s http://HOST/files/§.txt", "[1-3]", "/files/3.txt"),
        ("curl -s 'http://HOST/search?q='§'&page=2'", "{a,b}", "q=b"),
    ],
)
def test_curl_expands_no_pattern_of_a_value_in_a_url(
    server: str, shell: str, case: str, value: str, reached: str, tmp_path: pathlib.Path
) -> None:
    case = case.replace("HOST", server)
    seen = _requests(shell, naive_sh(_template(case, value)), tmp_path)
    assert len(seen) > 1 and any(reached in path for _, path, _, _ in seen), seen
    _refused(case, value, "curl expands as a pattern")
    seen = _requests(shell, sh(_template(case.replace("curl -s", "curl -s -g"), value)), tmp_path)
    assert len(seen) == 1  # -g: curl takes the URL as written
    seen = _requests(shell, sh(_template(case, "42")), tmp_path)
    assert len(seen) == 1 and "42" in seen[0][1]


def test_a_whole_url_and_a_body_may_hold_brackets() -> None:
    assert sh(_template("curl -s §", "http://h/files/[1-3].txt"))  # (the value's URL)
    assert sh(_template("curl -s -d '{\"ids\": '§'}' http://h/", "[1,2]"))
    assert sh(_template("curl -s -H 'X-Tags: '§ http://h/", "{a}"))


# -- kill -------------------------------------------------------------------------------------


def _state(pid: int) -> str:
    """A process's state letter (``Z`` for a zombie), or ``-`` if it is gone."""
    try:
        return pathlib.Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except FileNotFoundError:
        return "-"


def stops_own_group(shell: str, command: str, where: pathlib.Path) -> bool:
    """Whether ``command`` stopped its shell's own process group (kill 0): run in a session of
    its own, where the group is only that shell and a sleep it started first."""
    script = "sleep 30 & echo $! > pid; " + command
    subprocess.run(["setsid", "-w", shell, "-c", script], cwd=where, timeout=20, check=False)
    pid = int((where / "pid").read_text())
    for _ in range(50):  # (the signal is on its way)
        if _state(pid) in "ZX-":
            break
        time.sleep(0.05)
    return _state(pid) in "ZX-"


def test_kill_zero_stops_its_own_process_group(tmp_path: pathlib.Path) -> None:
    assert stops_own_group("sh", naive_sh(_template("kill §", "0")), tmp_path)
    _refused("kill §", "0", "process id, where kill reads 0")
    _refused("sudo kill §", "0", "process id")
    _refused("pkill -g § sleep", "0", "0 means the program's own")
    # the look-alike: one process, named by its id
    victim = subprocess.Popen(["setsid", "sleep", "30"])
    subprocess.run(["sh", "-c", sh(_template("kill §", victim.pid))], timeout=20, check=False)
    assert victim.wait(timeout=5) < 0


_EVERY = (
    "sleep 30 & sleep 30 & T=$!; sleep 0.1; {}; sleep 0.2; "
    'read -r _ _ state _ < /proc/$T/stat; echo "T=$state"'
)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root")
@pytest.mark.parametrize("case", ["kill -TERM -- §", "/bin/kill -TERM -- §"])
def test_kill_minus_one_after_dashes_stops_every_process(case: str) -> None:
    def run(command: str) -> str:
        # (in a PID namespace of its own, where every process is this test's; the first
        # sleep is its PID 2)
        done = subprocess.run(
            ["unshare", "--fork", "--pid", "--mount-proc", "bash", "-c", _EVERY.format(command)],
            capture_output=True, text=True, timeout=20, check=False,
        )
        return done.stdout

    assert "T=S" in run(sh(_template(case, "2")))  # the look-alike: PID 2 only
    stopped = run(naive_sh(_template(case, "-1")))  # every process: T gone (or a zombie)
    assert "T=" in stopped and "T=S" not in stopped
    _refused(case, "-1", "process id, where kill reads 0 as its own process group and -1")
    for alike in ("kill §", "kill -s TERM §", "kill -- -§"):
        assert sh(_template(alike, "4242"))
    assert sh(_template("kill -§ 4242", "9")) and sh(_template("kill -s § 4242", "HUP"))


# -- git ----------------------------------------------------------------------------------------


def _git(where: pathlib.Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(where), *args], capture_output=True, text=True, timeout=30, check=False
    )
    return done.stdout


_GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
}  # fmt: skip


@pytest.fixture
def repo(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> pathlib.Path:
    """A repository ``gr`` with a.txt, b.txt, keep.md, sub/s.txt committed on main, a branch
    ``feature``, an uncommitted edit of keep.md and an untracked new.log; a bare ``remote.git``
    with main and feature, and branches ``junk`` (unrelated) in gr."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    for name, value in _GIT_ENV.items():
        monkeypatch.setenv(name, value)
    gr = tmp_path / "gr"
    (gr / "sub").mkdir(parents=True)
    for name in ("a.txt", "b.txt", "keep.md", "sub/s.txt"):
        (gr / name).write_text(name + "\n")
    _git(gr, "init", "-q", "-b", "main")
    _git(gr, "add", ".")
    _git(gr, "commit", "-q", "-m", "main")
    _git(gr, "branch", "feature")
    _git(gr, "checkout", "-q", "--orphan", "junk")
    _git(gr, "commit", "-q", "-m", "junk")
    _git(gr, "checkout", "-q", "-f", "main")
    _git(tmp_path, "init", "-q", "--bare", "remote.git")
    _git(gr, "push", "-q", str(tmp_path / "remote.git"), "main", "feature")
    _git(gr, "remote", "add", "origin", str(tmp_path / "remote.git"))
    (gr / "keep.md").write_text("unsaved work\n")
    (gr / "new.log").write_text("untracked\n")
    return gr


def _remote_branches(repo: pathlib.Path) -> str:
    return _git(repo.parent / "remote.git", "for-each-ref", "--format=%(refname:short)=%(subject)")


@pytest.mark.parametrize("shell", SHELLS)
def test_a_branch_name_is_no_refspec(repo: pathlib.Path, shell: str) -> None:
    case = "git -C gr push -q origin §"
    _run(shell, naive_sh(_template(case, ":main")), repo.parent)
    assert "main=" not in _remote_branches(repo)  # deleted on the remote
    _run(shell, naive_sh(_template(case, "+junk:feature")), repo.parent)
    assert "feature=junk" in _remote_branches(repo)  # overwritten, forced
    for value in (":main", "+junk:feature", "^main", "refs/heads/*"):
        _refused(case, value, "is a refspec")
    _refused("git -C gr push origin HEAD:refs/heads/§", "a:b", "is a refspec")
    _refused("git -C gr fetch origin §", "+feature:main", "is a refspec")
    _refused("git -C gr push origin -- §", ":main", "is a refspec")
    _run(shell, sh(_template(case, "main")), repo.parent)
    assert "main=main" in _remote_branches(repo)  # the look-alike: pushes that branch
    assert sh(_template("git push § main", "git@example.invalid:r.git"))  # (the remote: a URL)
    assert sh(_template("git push origin +§", "main"))  # (the author's '+')


PATHSPECS = ["git -C gr rm -r -q -f -- §", "git -C gr add §", "git -C gr checkout -- §",
             "git -C gr clean -f -q -- §", "git -C gr reset -q -- §"]  # fmt: skip


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", PATHSPECS)
def test_a_file_name_is_no_pathspec_pattern(repo: pathlib.Path, shell: str, case: str) -> None:
    before = _git(repo, "status", "--porcelain") + str(sorted(repo.rglob("*")))
    _run(shell, naive_sh(_template(case, "*")), repo.parent)
    after = _git(repo, "status", "--porcelain") + str(sorted(repo.rglob("*")))
    if "reset" not in case:
        assert after != before  # every file: removed, staged, checked out or cleaned
    for value in ("*", ":/", "*.txt", "sub/?.txt", ":(top)a.txt", ":!keep.md"):
        _refused(case, value, "is a pathspec, which git expands itself")
    literal = case.replace("git -C gr", "git -C gr --literal-pathspecs")
    _run(shell, sh(_template(literal, "*")), repo.parent)  # (no file named '*': no match)
    assert sh(_template(case, "a.txt")) and sh(_template(case, "sub/s.txt"))


@pytest.mark.parametrize("shell", SHELLS)
def test_git_rm_of_the_top_removes_every_file(repo: pathlib.Path, shell: str) -> None:
    _run(shell, naive_sh(_template("git -C gr rm -r -q -f -- §", ":/")), repo.parent)
    assert not (repo / "a.txt").exists() and not (repo / "sub").exists()
    _run(shell, sh(_template("git -C gr --literal-pathspecs rm -r -q -- §", "*")), repo.parent)


@pytest.mark.parametrize("shell", SHELLS)
def test_checkout_of_a_branch_value_reads_no_pathspec(repo: pathlib.Path, shell: str) -> None:
    case = "git -C gr -c core.hooksPath=/dev/null checkout -q §"  # (hooks on: 24th pass)
    _run(shell, naive_sh(_template(case, ".")), repo.parent)
    assert (repo / "keep.md").read_text() == "keep.md\n"  # the unsaved edit is gone
    for value in (".", "..", ":/", "*", "./a.txt"):
        _refused(case, value, "git checkout reads an operand that names none as a pathspec")
    (repo / "keep.md").write_text("unsaved work\n")
    _run(shell, sh(_template(case, "feature")), repo.parent)
    assert _git(repo, "branch", "--show-current").strip() == "feature"
    assert (repo / "keep.md").read_text() == "unsaved work\n"  # (carried over)
    assert sh(_template("git checkout -b §", "topic"))
    assert sh(_template("git -c core.hooksPath=/dev/null switch §", "."))


@pytest.mark.parametrize(
    "case",
    [
        "git clone -q --template=§ gr cl",
        "git -c init.templateDir=§ clone -q gr cl",
        "git clone -q --template § gr cl",
        "git init -q --template=§ cl",
    ],
)
def test_a_template_directory_is_code(repo: pathlib.Path, case: str) -> None:
    hooks = repo.parent / "tpl" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "post-checkout").write_text("#!/bin/sh\ntouch \"$HOME/pwned\"\n")
    (hooks / "post-checkout").chmod(0o755)
    if "clone" in case:
        _run("/bin/sh", naive_sh(_template(case, str(hooks.parent))), repo.parent)
        assert (repo.parent / "pwned").exists()  # git ran the directory's hook
    with pytest.raises(RenderError, match=r"template|init\.templateDir"):
        sh(_template(case, str(hooks.parent)))


@pytest.mark.parametrize("shell", SHELLS)
def test_git_extra_header_is_one_line(server: str, shell: str, tmp_path: pathlib.Path) -> None:
    case = f"git -c http.extraHeader=X-Trace:§ ls-remote http://{server}/r.git"
    seen = _requests(shell, naive_sh(_template(case, "abc\r\nX-Admin: 1")), tmp_path)
    assert any("X-Admin" in headers for _, _, headers, _ in seen), seen
    with pytest.raises(RenderError, match="control character"):
        sh(_template(case, "abc\r\nX-Admin: 1"))
    assert sh(_template(case, "abc"))


# -- openssl, awk ------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_a_subject_value_adds_no_field(tmp_path: pathlib.Path) -> None:
    _run("/bin/sh", "openssl genpkey -algorithm ed25519 -out k.pem", tmp_path)
    case = "openssl req -new -key k.pem -subj /CN=§/O=Users -out r.csr"
    subject = "openssl req -in r.csr -noout -subject"
    _run("/bin/sh", naive_sh(_template(case, "alice/O=Trusted Corp/CN=admin")), tmp_path)
    assert "Trusted Corp" in _run("/bin/sh", subject, tmp_path)
    _refused(case, "alice/O=Trusted Corp/CN=admin", "openssl splits a subject")
    _refused(case, "alice+O=x", "openssl splits a subject")
    _run("/bin/sh", sh(_template(case, "alice smith")), tmp_path)
    assert "CN = alice smith, O = Users" in _run("/bin/sh", subject, tmp_path)
    assert sh(_template("openssl req -new -key k.pem -subj § -out r.csr", "/CN=a/O=b"))


@pytest.mark.parametrize("shell", SHELLS)
def test_an_awk_file_operand_is_no_assignment(shell: str, tmp_path: pathlib.Path) -> None:
    (tmp_path / "part1.txt").write_text("p1\n")
    (tmp_path / "part2.txt").write_text("p2\n")
    (tmp_path / "victim.txt").write_text("precious\n")
    case = "awk '{print > out}' out=merged.txt § part2.txt"
    _run(shell, naive_sh(_template(case, "out=victim.txt")), tmp_path)
    assert (tmp_path / "victim.txt").read_text() == "p2\n"  # overwritten
    _refused(case, "out=victim.txt", "awk reads as an assignment")
    _refused("awk -f prog.awk -- §", "FS=x", "awk reads as an assignment")
    _run(shell, sh(_template(case, "part1.txt")), tmp_path)
    assert (tmp_path / "merged.txt").read_text() == "p1\np2\n"
    assert sh(_template(case, "./out=victim.txt"))
    assert sh(_template("awk -v out=§ '{print > out}' f", "a=b"))


def test_a_value_in_a_shell_variable_is_checked_where_the_variable_stands() -> None:
    loops = [
        ("for p in §; do kill \"$p\"; done", "0", "42"),
        ("for f in §; do git rm -q -- \"$f\"; done", "*", "a.txt"),
        ("set -- §; ssh -J \"$1\" host ls", "x$(touch f)", "bastion.example"),
        ("for b in §; do git push -q origin \"$b\"; done", ":main", "feature"),
    ]
    for case, value, alike in loops:
        with pytest.raises(RenderError, match="stands in"):
            sh(_template(case, value))
        assert sh(_template(case, alike))
    # with text of its own around the variable, the argument is refused whatever the value
    with pytest.raises(RenderError, match="an argument its program parses further"):
        sh(_template("for f in §; do git rm -q -- \"src/$f\"; done", "a.txt"))
    assert sh(_template("for u in §; do curl -s \"$u\"; done", "http://h/[1-3]"))
