"""The twenty-sixth red-team pass over sql(): settings whose value names a place code, files or
secrets come from (DuckDB 2.0.1 and 1.5.6, PostgreSQL 15).

Hole (DuckDB): ``set secret_directory = {v}`` (and ``{v:l}``, ``set global ... to``, ``pragma
secret_directory = ...``, ``= concat({v}, '')``) was accepted as a setting's value.  DuckDB
loads the persistent secrets stored in that directory the first time the session looks a
secret up, and uses them for the session's later reads and writes: with the value naming a
directory holding a secret written by someone else (type http, an ``http_proxy`` and a
``bearer_token``, the marker), ``which_secret()`` for an ``https://`` URL the author's later
query names chose that secret (the positive control, with the render sql() gave before).  An
s3 or gcs secret's ``endpoint`` would send the author's reads and ``copy ... to`` elsewhere the
same way; only the http type exists without httpfs (offline), so the use itself is shown by
which_secret(), not by a request.  ``secret_directory`` is a code setting now (refused, in any
case and dialect, as ``home_directory`` and ``extension_directory`` are).

Hole (DuckDB 2.0.1 and 1.5.6): ``set http_proxy = {v}`` was accepted.  DuckDB's INSTALL and
autoloading download extensions over plain http (``http://extensions.duckdb.org/...``)
through that proxy: with the value naming a local listener, the author's static ``install
inet`` fetched the listener's bytes (the positive control; a gzip of marker text, which the
signature and metadata check refused).  The value chose where the extension's code came
from, as ``custom_extension_repository`` (refused) does; ``http_proxy`` is a code setting now.
Its ``http_proxy_username`` and ``http_proxy_password`` stay accepted (data sent to it).

Held (each run on the database; a value setting is a parameter or a literal):
* ``set file_search_path = {v}`` makes a later relative ``read_csv('data.csv')`` read the
  value's directory, which is a file the value chooses, as ``read_csv({p})`` chooses one
  (accepted by design, docs/renderers.md); ``load 'sub/x.duckdb_extension'`` and ``attach
  'sub/x.duckdb'`` do not resolve through it (LOAD looks the name up as an extension, ATTACH
  opens the path under the working directory).
* ``set log_query_path = {v}``, ``profiling_output``, ``temp_directory`` write to the place
  the value names, as ``copy t to {f}`` does (accepted by design).
* ``set allowed_directories = {v}`` fails once external access is off, ``set
  enable_external_access = {v}`` cannot turn it back on (the nineteenth pass), and ``set
  lock_configuration = {v}`` cannot unlock a locked configuration.
* PostgreSQL's ``set log_directory = {v}`` fails in a session ("cannot be changed now").
* Ordinary settings stay accepted and run: DuckDB ``threads``, ``memory_limit``,
  ``timezone``; PostgreSQL ``statement_timeout``, ``timezone``.
Since the twenty-seventh pass a value sets only a setting on an allow-list, and
``file_search_path``, ``log_query_path``, ``profiling_output``, ``temp_directory``,
``allowed_directories``, ``lock_configuration`` and ``log_directory`` are off it: those tests
run the render sql() gave before, then assert the refusal.
Already refused, checked again: DuckDB ``extension_directory``, ``extension_directories``,
``extension_repository_directory``, ``custom_extension_repository``,
``autoinstall_extension_repository``, ``home_directory``; PostgreSQL
``session_preload_libraries``, ``local_preload_libraries``, ``dynamic_library_path``.
"""

from __future__ import annotations

import gzip
import os
import pathlib
import socket
import tempfile
import threading
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _render

from ipy_istring.fields import RenderError

MARKER_PROXY = "marker-proxy.invalid:8080"
URL = "https://example.invalid/data.csv"


def _planted_secret_directory(tmp_path: pathlib.Path) -> str:
    """A directory holding a persistent secret another session wrote (the marker proxy)."""
    directory = str(tmp_path / "planted")
    writer = duckdb.connect()
    writer.execute(f"set secret_directory = '{directory}'")
    writer.execute(
        f"create persistent secret planted (type http, http_proxy '{MARKER_PROXY}', "
        "bearer_token 'MARKER')"
    )
    writer.close()
    return directory


def test_duckdb_secret_directory_loads_a_planted_secret_for_later_reads(
    tmp_path: pathlib.Path,
) -> None:
    """The positive control: the render sql() gave before this pass (a parameter)."""
    directory = _planted_secret_directory(tmp_path)
    author = duckdb.connect()
    author.execute("set secret_directory = ?", [directory])
    chosen = author.execute(f"select name from which_secret('{URL}', 'http')").fetchall()
    assert chosen == [("planted",)]
    (secret,) = author.execute("select secret_string from duckdb_secrets()").fetchone()
    assert MARKER_PROXY in secret


SECRET_DIRECTORY = [
    "set secret_directory = {v}",
    "set secret_directory = {v:l}",
    "set global secret_directory to {v}",
    'SET "SECRET_DIRECTORY" = {v}',
    "set secret_directory = concat({v}, '')",
    "pragma secret_directory = {v}",
    "explain analyze set secret_directory = {v:l}",
]


@pytest.mark.parametrize("dialect", ["duckdb", None])
@pytest.mark.parametrize("text", SECRET_DIRECTORY)
def test_secret_directory_from_a_value_is_refused(text: str, dialect: str | None) -> None:
    with pytest.raises(RenderError, match="stored secrets it loads"):
        _render(text, "qmark", dialect, v=tempfile.gettempdir())


def _serve_garbage(server: socket.socket, requests: list[bytes]) -> None:
    """Answer each request with a gzip of text that is no extension (the marker)."""
    body = gzip.compress(b"no extension: MARKER" * 100)  # past DuckDB's size check
    while True:
        try:
            connection, _ = server.accept()
        except OSError:  # closed by the test
            return
        requests.append(connection.recv(4096).split(b"\r\n")[0])
        head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % len(body)
        connection.sendall(head + body)
        connection.close()


def test_duckdb_http_proxy_serves_the_extensions_a_later_install_fetches(
    tmp_path: pathlib.Path,
) -> None:
    """The positive control: the render sql() gave before this pass.  The author's static
    INSTALL downloaded from the value's proxy (over plain http); only the signature check
    stopped its bytes, as for a custom extension repository, which is refused too."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    requests: list[bytes] = []
    threading.Thread(target=_serve_garbage, args=(server, requests), daemon=True).start()
    author = duckdb.connect()
    author.execute(f"set extension_directory = '{tmp_path}'")
    author.execute("set http_proxy = ?", [f"127.0.0.1:{server.getsockname()[1]}"])
    try:
        with pytest.raises(duckdb.IOException, match="not a DuckDB extension"):
            author.execute("install inet")
    finally:
        server.close()
    assert requests and b"/inet.duckdb_extension.gz" in requests[0]


@pytest.mark.parametrize("dialect", ["duckdb", None])
@pytest.mark.parametrize(
    "text", ["set http_proxy = {v}", "set global http_proxy to {v:l}", "pragma http_proxy = {v}"]
)
def test_http_proxy_from_a_value_is_refused(text: str, dialect: str | None) -> None:
    with pytest.raises(RenderError, match="the proxy that serves the extensions"):
        _render(text, "qmark", dialect, v="127.0.0.1:3128")


def test_http_proxy_credentials_stay_accepted() -> None:
    """The proxy's user name and password are data it is sent."""
    connection = duckdb.connect()
    for name in ("http_proxy_username", "http_proxy_password"):
        connection.execute(*_render(f"set {name} = {{v}}", "qmark", "duckdb", v="MARKER"))


def test_secret_directory_written_in_the_text_stays_accepted(tmp_path: pathlib.Path) -> None:
    """The author's own directory, and a value elsewhere in the session, still run."""
    author = duckdb.connect()
    author.execute(*_render(f"set secret_directory = '{tmp_path}'", "qmark", "duckdb"))
    author.execute(*_render("create secret s (type http, bearer_token {t})", "qmark", "duckdb",
                            t="author"))  # fmt: skip
    assert author.execute("select name from duckdb_secrets()").fetchall() == [("s",)]


# --- Held --------------------------------------------------------------------------------------


def test_duckdb_file_search_path_chooses_data_files_only(tmp_path: pathlib.Path) -> None:
    """A relative read follows the value's directory; LOAD and ATTACH do not: the planted
    extension and database there are never opened.  Accepted here by design, the value is
    refused since the twenty-seventh pass (a place, not on the settings' allow-list): the
    statement below is the render sql() gave before."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.duckdb_extension").write_bytes(b"no extension: MARKER")
    (tmp_path / "data.csv").write_text("v\nfrom_the_value\n")
    duckdb.connect(str(tmp_path / "sub" / "planted.duckdb")).close()
    connection = duckdb.connect()
    connection.execute("set file_search_path = ?", [str(tmp_path)])
    assert connection.execute("from read_csv('data.csv')").fetchall() == [("from_the_value",)]
    with pytest.raises(duckdb.IOException, match="not found"):
        connection.execute("load 'sub/x.duckdb_extension'")
    # read_only: ATTACH creates no file where it looks (the working directory), it fails
    with pytest.raises(duckdb.IOException, match="does not exist"):
        connection.execute("attach 'sub/planted.duckdb' (read_only)")
    with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
        _render("set file_search_path = {v}", "qmark", "duckdb", v=str(tmp_path))


@pytest.mark.parametrize("setting", ["log_query_path", "profiling_output"])
def test_duckdb_settings_that_write_a_file_are_refused(
    tmp_path: pathlib.Path, setting: str
) -> None:
    """A file the value names is written, as by copy t to {f}: accepted by design here, and
    refused since the twenty-seventh pass (a place, not on the settings' allow-list); the
    statement run is the render sql() gave before."""
    target = tmp_path / "out.txt"
    connection = duckdb.connect()
    connection.execute("pragma enable_profiling = 'json'")
    connection.execute(f"set {setting} = ?", [str(target)])
    connection.execute("select 42").fetchall()  # 1.5.6 writes once the result is read
    connection.close()
    assert target.exists()
    with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
        _render(f"set {setting} = {{v}}", "qmark", "duckdb", v=str(target))


def test_duckdb_values_cannot_turn_security_settings_off(tmp_path: pathlib.Path) -> None:
    connection = duckdb.connect()
    connection.execute("set enable_external_access = false")
    # (the renders sql() gave before the twenty-seventh pass, which refuses both values)
    with pytest.raises(duckdb.InvalidInputException, match="external_access is disabled"):
        connection.execute("set allowed_directories = ?", [[str(tmp_path)]])
    connection.execute("set lock_configuration = true")
    with pytest.raises(duckdb.InvalidInputException, match="has been locked"):
        connection.execute("set lock_configuration = ?", [False])
    for name in ("allowed_directories", "lock_configuration"):
        with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
            _render(f"set {name} = {{v}}", "qmark", "duckdb", v=False)


def test_duckdb_ordinary_settings_stay_accepted_and_run() -> None:
    connection = duckdb.connect()
    for name, value, shown in (("threads", 1, "1"), ("memory_limit", "1GB", None),
                               ("timezone", "UTC", "UTC")):  # fmt: skip
        connection.execute(*_render(f"set {name} = {{v}}", "qmark", "duckdb", v=value))
        current = connection.execute(f"select current_setting('{name}')").fetchone()[0]
        assert shown is None or str(current) == shown
    # temp_directory received the author's spilled rows: refused since the twenty-seventh pass
    with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
        _render("set temp_directory = {v}", "qmark", "duckdb", v="")


def test_postgresql_ordinary_settings_run_and_log_directory_is_refused_by_the_server(
    pg: Any,  # noqa: F811
) -> None:
    """PostgreSQL's SET takes no parameter ('syntax error at or near $1'): a literal.  The
    test server's role is a superuser, and log_directory is still refused in a session."""
    pg.execute(*_render("set statement_timeout = {v:l}", "format", "postgresql", v="5s"))
    pg.execute(*_render("set timezone = {v:l}", "format", "postgresql", v="UTC"))
    assert pg.execute("show statement_timeout").fetchone() == ("5s",)
    import psycopg

    with pytest.raises(psycopg.errors.CantChangeRuntimeParam, match="cannot be changed now"):
        pg.execute(f"set log_directory = '{os.sep}'")  # the render sql() gave before
    with pytest.raises(RenderError, match="not on sql\\(\\)'s list of settings"):
        _render("set log_directory = {v:l}", "format", "postgresql", v=os.sep)


@pytest.mark.parametrize(
    ("dialect", "name"),
    [("duckdb", name) for name in ("extension_directory", "extension_directories",
                                   "extension_repository_directory", "home_directory",
                                   "custom_extension_repository",
                                   "autoinstall_extension_repository")]
    + [("postgresql", name) for name in ("session_preload_libraries", "local_preload_libraries",
                                         "dynamic_library_path")],
)  # fmt: skip
def test_code_settings_stay_refused(dialect: str, name: str) -> None:
    with pytest.raises(RenderError, match="loads its libraries or extensions"):
        _render(f"set {name} = {{v}}", "qmark" if dialect == "duckdb" else "format", dialect,
                v=tempfile.gettempdir())  # fmt: skip
