"""sh() and argv(): a value in a URL word stays in the part of the URL it stands in.

The value stays one word, as ever; but curl and wget read that word as a URL, and after the
template's own text a value can reach past its part: ``curl https://api.example/users/{id}/
avatar`` with ``id = "../../admin/delete?x="`` fetched ``/admin/delete`` (curl and wget squash
``..`` segments), ``?q={q}`` with ``a&admin=1`` added a parameter, and ``http://{sub}.example/``
with ``127.0.0.1:PORT/x?`` chose the host.  The URL is judged as html() judges one
(:mod:`ipy_istring._url_parts`, ada's reading).  Each refusal here has its positive control: the
same template with each value through plain ``shlex.quote``, run by dash and bash, made real
curl and wget send the request to the path, query or host the value chose, to a local server
that records what it was asked.  Look-alikes where the value only fills its part stay accepted
and reach the server as the template means.
"""

from __future__ import annotations

import http.server
import subprocess
import threading
from collections.abc import Iterator
from typing import ClassVar
from urllib.parse import parse_qsl, urlsplit

import pytest
from test_shell_contexts import SHELLS, naive_sh

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh
from ipy_istring.template import Interpolation, InterpolationTemplate

# (the command before and after the value; the value; what the server must not be asked for
# the template's meaning to hold: a path prefix, or a query parameter's name)
REFUSED = [
    ("curl -s http://HOST/api/users/", "/avatar", "../../admin/delete?x=", "/admin/delete"),
    ("wget -q -O - http://HOST/api/users/", "/avatar", "../../admin/delete?x=", "/admin/delete"),
    ("curl -s http://HOST/api/users/", "", "1/../../../admin", "/admin"),
    ("curl -s http://HOST/api/search?q=", "", "a&admin=1", "admin"),
    ("curl -s http://HOST/api/search?q=", "'&page=2'", "a&page=9", "page"),
]
# (the same, but the value chooses the host: the server is reached only through the value)
REFUSED_HOSTS = [
    ("curl -s http://", ".shop.invalid/", "HOST/admin?"),
    ("curl -s http://", ".shop.invalid/", "HOST/admin#"),
    ("wget -q -O - http://", ".shop.invalid/", "HOST/admin?"),
]
# (the same, and a value that fills its part: the path or query the server must be asked)
ACCEPTED = [
    ("curl -s http://HOST/api/users/", "/avatar", "42", "/api/users/42/avatar"),
    ("curl -s http://HOST/files/", "", "docs/readme.md", "/files/docs/readme.md"),
    ("curl -s http://HOST/api/search?q=", "", "Tom%20%26%20J", "/api/search?q=Tom%20%26%20J"),
    ("wget -q -O - http://HOST/api/users/", "/avatar", "al%20x", "/api/users/al%20x/avatar"),
]


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Answers 200 to any GET, keeping its path and query."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(handler: type[http.server.BaseHTTPRequestHandler]) -> Iterator[str]:
    """A local HTTP server answering with ``handler`` while this runs; its ``host:port``."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A local HTTP server; its ``host:port``."""
    yield from serve(_Recorder)


def _template(before: str, after: str, value: str, host: str) -> InterpolationTemplate:
    return InterpolationTemplate(
        before.replace("HOST", host), Interpolation(value.replace("HOST", host), "x"), after
    )


def _asked(command: str, shell: str) -> list[str]:
    """The paths the server was asked for while ``shell`` ran ``command``."""
    _Recorder.asked.clear()
    subprocess.run([shell, "-c", command], capture_output=True, timeout=30, check=False)
    return list(_Recorder.asked)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("before", "after", "value", "reached"), REFUSED)
def test_a_value_that_leaves_its_part_of_a_url_word_is_refused(
    server: str, shell: str, before: str, after: str, value: str, reached: str
) -> None:
    t = _template(before, after, value, server)
    # The positive control: quoted as one word, the value still took the request elsewhere.
    asked = _asked(naive_sh(t), shell)
    assert len(asked) == 1, asked
    if reached.startswith("/"):
        assert asked[0].startswith(reached), asked
    else:
        names = [name for name, _ in parse_qsl(urlsplit(asked[0]).query)]
        assert names.count(reached) == (2 if f"{reached}=" in before + after else 1), asked
    with pytest.raises(RenderError, match="would make its word a URL whose") as refused:
        sh(t)
    assert "urllib.parse.quote" in str(refused.value)
    with pytest.raises(RenderError):  # (argv: the same, or the '?' that needs a shell)
        argv(t)
    assert _asked(sh(_template(before, after, "42", server)), shell) != asked


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("before", "after", "value"), REFUSED_HOSTS)
def test_a_value_that_chooses_another_host_is_refused(
    server: str, shell: str, before: str, after: str, value: str
) -> None:
    t = _template(before, after, value, server)
    asked = _asked(naive_sh(t), shell)  # (the template's host does not exist)
    assert len(asked) == 1 and asked[0].startswith("/admin"), asked
    with pytest.raises(RenderError, match="would make its word a URL whose"):
        sh(t)
    sh(_template(before, after, "eu", server))  # (a label of the template's host: accepted)


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("before", "after", "value", "path"), ACCEPTED)
def test_a_value_that_fills_its_part_of_a_url_word_reaches_it(
    server: str, shell: str, before: str, after: str, value: str, path: str
) -> None:
    assert _asked(sh(_template(before, after, value, server)), shell) == [path]


def test_the_url_starts_at_its_scheme_and_expansions_stand_as_text() -> None:
    # The whole URL from a value: the program's reading of it is the value's (as in html()).
    assert sh(InterpolationTemplate("curl ", Interpolation("https://e.invalid/../x", "u"), ""))
    # A URL after the template's own expansion is judged around it.
    t = InterpolationTemplate("curl https://$HOST/u/", Interpolation("../admin", "x"), "/a")
    with pytest.raises(RenderError, match="path the value changes"):
        sh(t)
    # After an option's `=` too (`wget --base=URL`), and in argv().
    t = InterpolationTemplate("wget --base=https://a.example/u/", Interpolation("../x", "x"), "")
    for renderer in (sh, argv):
        with pytest.raises(RenderError, match="path the value changes"):
            renderer(t)
    # A word with no scheme before the field is no URL the renderer can read.
    assert sh(InterpolationTemplate("ls dir/", Interpolation("../x", "x"), "")) == "ls dir/../x"


def test_an_encoded_slash_or_dot_segment_in_a_middle_segment_is_refused() -> None:
    """curl and wget send ``%2F`` as it is, but the server that decodes the path before it
    resolves it (Python's http.server, JupyterLab's: see test_html_url_parts) reads another
    path: ``a%2Fb`` was accepted here until then, and is refused now, as html() refuses it."""
    for value in ("a%2Fb", "..%2F..%2Fadmin", "..%5Cadmin"):
        t = InterpolationTemplate(
            "curl -s http://127.0.0.1/api/users/", Interpolation(value, "id"), "/avatar"
        )
        with pytest.raises(RenderError, match="path the value changes"):
            sh(t)
