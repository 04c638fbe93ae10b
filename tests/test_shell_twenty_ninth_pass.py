"""sh(): options whose argument is code a program runs or loads, the twenty-ninth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A value naming a shared library that a program loads, whose constructor runs when loaded
  (``evil.so`` here makes the sentinel): openssl's engine, ``openssl dgst -engine {e} f``
  (also ``-engine={e}``, ``--engine {e}``, ``--engine=./{e}`` and s_client's
  ``-ssl_client_engine``), and its provider, ``openssl dgst -provider-path . -provider {p} f``
  with ``evil`` (or ``-provider-path {d}`` with ``.``), in real openssl 3.0; ssh's PKCS#11
  library, ``ssh -I {lib} host`` (as ``ssh -o PKCS11Provider={lib}``, which was refused
  already), ``ssh-keygen -D {lib}`` and ssh-keygen's FIDO middleware ``-w {lib}``, in real
  OpenSSH 9.2 (which loads a library that has the symbol it looks for).  By their manuals,
  not run: ssh-add's ``-s`` and ``-S`` (the agent loads the library) and curl's ``--engine``
  (this curl has no engine support).  A value elsewhere in those commands stays accepted.

Looked at, and held (no change): every other shape of the brief was refused already, in its
abbreviations too (``sort --compress-program``/``--com``, ``zip -TT``/``--unzip-command``,
``git grep -O``/``--open``, ``rsync -e``/``--rsh``/``--rs=``/``--rsync-path``, ``ssh -o``
``ProxyCommand=``/``LocalCommand=``, ``scp -S``/``-o``, ``git clone -u``/``--upload-pack``/
``--upl``, ``git fetch {r}`` with ``--upload-pack=`` (a leading ``-``), ``git push
--receive-pack``, ``git archive --exec``, ``man -P``/``--pager``/``--pag``, ``LESSOPEN={x}``,
``psql -c``, ``sqlite3 {db} {q}``, ``duckdb -c``, ``mysql -e``, ``gpg --exec-path``/
``--agent-program``, ``wget -e``/``--use-askpass``, ``tar --use-compress-program``/``-I``,
``GZIP={x}``); ``git clone {url} d`` with ``ext::sh -c touch%20...`` is refused by sh(), and
git itself holds too (protocol.ext.allow is "never" by default: the old render ran nothing).
``curl -K {f}``, ``ssh -F {f}``, ``psql -f {f}``, ``sqlite3 -init {f}`` name a file as
``make -f {f}`` does (a file the template writes, or the pipe, is refused); ``xargs -I{} {x}``,
``timeout 1 {x}`` name the program as a command's name does; ``timeout -s {sig}`` is a signal.
Not installed, so not run: duckdb and mysql.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_second_pass import SENTINEL, _accepted_and_run, _show_then_refuse

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_LOADS = "a shared library that"
# A library whose constructor makes the sentinel, with the symbols OpenSSH looks for in a
# PKCS#11 provider and in FIDO middleware before it loads one.
_LIBRARY = f"""#include <stdlib.h>
__attribute__((constructor)) static void mark(void) {{ system("touch {SENTINEL}"); }}
int C_GetFunctionList(void) {{ return 1; }}
int sk_api_version(void) {{ return 0; }}
"""

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc builds evil.so")


def _prepare_library(where: pathlib.Path) -> None:
    """``evil.so`` (the library above), a data file ``f`` and a home."""
    (where / "home").mkdir(exist_ok=True)
    (where / "evil.c").write_text(_LIBRARY)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", "evil.so", "evil.c"], cwd=where, check=True)
    (where / "f").write_text("data\n")


# -- a value naming a shared library a program loads ------------------------------------------

LOADED_CASES = [
    # (template, the value)
    ("openssl dgst -engine § f", "./evil.so"),
    ("openssl dgst -engine=§ f", "./evil.so"),
    ("openssl dgst --engine § f", "./evil.so"),
    ("openssl dgst --engine=./§ f", "evil.so"),
    ("openssl s_client -ssl_client_engine § -connect 127.0.0.1:9", "./evil.so"),
    ("openssl dgst -provider-path . -provider § f", "evil"),
    ("openssl dgst -provider-path § -provider evil f", "."),
    ("ssh -o ProxyCommand=true -I § host true", "./evil.so"),
    ("ssh -o ProxyCommand=true -I§ host true", "./evil.so"),
    ("ssh -o ProxyCommand=true -vI § host true", "./evil.so"),
    ("ssh-keygen -D §", "./evil.so"),
    ("ssh-keygen -q -N '' -t ed25519-sk -w § -f key", "./evil.so"),
]


@needs_gcc
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "value"), LOADED_CASES)
def test_a_value_naming_a_library_a_program_loads_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    _show_then_refuse(shell, case, [value], tmp_path, _LOADS, _prepare_library)


@pytest.mark.parametrize(
    "case",
    [
        "ssh-add -s §",
        "ssh-add -S §",
        "ssh -I ./§ host",
        "ssh -vI§ host",
        "curl --engine § https://example.org/",
        "curl --engine=§ https://example.org/",
        "openssl req -engine § -new -key k",
        "openssl dgst --provider-path=§ -provider p f",
    ],
)
def test_library_options_refused_by_their_manuals(case: str) -> None:
    with pytest.raises(RenderError, match=_LOADS):
        sh(_template(case, "./evil.so"))


# -- the same programs with a value in a harmless place, accepted ------------------------------

HARMLESS_CASES = [
    # (template, the value)
    ("openssl dgst -sha256 §", "f"),
    ("openssl dgst -sha256 -out § f", "o"),
    ("ssh-keygen -q -N '' -t ed25519 -C § -f key", f"$(touch {SENTINEL})"),
    ("ssh-keygen -q -N '' -t ed25519 -f § -C c", "k2"),
]


@needs_gcc
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "value"), HARMLESS_CASES)
def test_a_value_elsewhere_in_those_commands_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    _accepted_and_run(shell, case, [value], tmp_path, _prepare_library)


def test_a_value_after_a_static_engine_is_accepted() -> None:
    """(Not run: the static engine is the template's own code, which loads.)"""
    static = _template("openssl dgst -engine=./evil.so -sha256 §", "f")
    assert sh(static) == "openssl dgst -engine=./evil.so -sha256 f"
    assert sh(_template("ssh -i § -l u host", "key")) == "ssh -i key -l u host"
    assert sh(_template("curl -s -H § https://example.org/", "A: 1")) == (
        "curl -s -H 'A: 1' https://example.org/"
    )


# -- git's ext:: transport: held by git, refused by sh() ---------------------------------------


@pytest.mark.parametrize("shell", SHELLS)
def test_git_clone_of_an_ext_url_holds_and_is_refused(shell: str, tmp_path: pathlib.Path) -> None:
    """protocol.ext.allow is "never" by default: the old render of ``git clone {url} d`` with
    an ext:: URL ran nothing (git: transport 'ext' not allowed), and sh() refuses it."""
    (tmp_path / "home").mkdir()
    template = _template("git clone § d", f"ext::sh -c touch% {SENTINEL}")
    done = _run(shell, naive_sh(template), tmp_path)
    assert done.returncode != 0
    assert "not allowed" in done.stderr
    assert not any(tmp_path.rglob(SENTINEL))
    with pytest.raises(RenderError):
        sh(template)
