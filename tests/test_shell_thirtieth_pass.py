"""sh(): a value naming a configuration file whose settings run code, the thirtieth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* openssl's ``-config {f}`` (also ``--config``; ``-config={f}`` was refused already): an
  openssl.cnf whose engine section's ``dynamic_path`` names ``evil.so`` made the sentinel in
  real openssl 3.0 (``openssl req -config {f} ...``, ``openssl ca -config``).
* ssh's ``-F {f}`` (also glued, ``-F{f}``, and in a cluster, ``-vF {f}``), scp's and sftp's:
  a config with ``ProxyCommand touch ...``, run before any connection, in real OpenSSH 9.2.
* curl's ``-K {f}``/``--config {f}``: a config with ``output = s.sh`` and a ``file://`` url
  overwrote the template's own ``s.sh``, which the template then runs (curl 7.88).
* wget's ``--config={f}``/``--config {f}``: a wgetrc with ``use_askpass = ./mark`` runs that
  program before wget connects (wget 1.21).
* php's ``-c {f}``/``--php-ini {f}`` (``-c{f}`` was refused already): a php.ini whose
  ``auto_prepend_file`` names a PHP file that makes the sentinel (PHP 8.2).
* node's ``--env-file={f}``/``--env-file {f}`` (also ``nodejs``): an env file whose
  ``NODE_OPTIONS=--require=...`` names a module that makes it (node 18+).
* less's ``--lesskey-src={f}``: a lesskey source whose ``#env`` section sets ``LESSOPEN`` to a
  command, which less 590 ran on its file (its output not a terminal too); by the manual,
  ``-k``/``--lesskey-file`` (the compiled form, with the same ``#env``; less 590 refused the
  source form there, so not run).
* php's ``-d {x}`` (also ``--define {x}``, ``--define={x}``), where the value gives the
  setting's name: ``auto_prepend_file=evil.php`` ran it; and a shared library php loads,
  ``-d extension={lib}``, ``-dextension={lib}``, ``-d zend_extension={lib}``, ``-z {lib}``,
  ``--zend-extension={lib}``: evil.so's constructor ran (PHP 8.2).  ``php -d memory_limit={m}``
  stays accepted; ``php -d auto_prepend_file={f}`` too, a file of PHP the author plainly asks
  php to run (as ``php {f}``).
* By its manual, not run (mysql is not installed): mysql's ``--defaults-file`` and
  ``--defaults-extra-file`` (a ``pager =`` setting is a command mysql runs).

The same commands with a value in a harmless place stay accepted, and run.  One over-refusal
is fixed: ``openssl rand -hex {n}`` was refused because ``-hex`` ends as a cluster ending in
``-x`` does; openssl's options are long names after one dash (as gdb's), never clusters.
``zip -sf {a}`` is accepted already, and runs.

Decided and kept accepted (code the author plainly asked to run, as ``sh {f}`` is): a file or
module that is itself a program in the tool's own language, ``make -f {f}``, ``make -C {d}``,
``make -I {d}``, ``awk -f``, ``sed -f`` (its script is checked for ``e`` when static; a
file's is the author's program), ``vim -u``, ``bash --rcfile``, ``gdb -x``, ``tmux -f``,
``psql -f``, ``sqlite3 -init``, ``node -r``/``--import``, ``ruby -r``, ``python3 -m``,
``pip install -r {f}`` (installing runs the packages' code, as ``pip install {p}`` does) and
``npm --prefix {d} run x``.  ``git -c {x}``, ``git --config-env``, ``git --exec-path={d}``
and ``git --{x}`` were refused already (a value naming one of git's own options is refused).
"""

from __future__ import annotations

import pathlib
import zipfile

import pytest
from test_shell_contexts import SHELLS
from test_shell_twentieth_pass import _template
from test_shell_twenty_ninth_pass import _prepare_library, needs_gcc
from test_shell_twenty_second_pass import SENTINEL, _accepted_and_run, _show_then_refuse

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_CONFIG = "a configuration file that"
# An openssl.cnf that loads evil.so as a dynamic engine when openssl reads it.
_OPENSSL_CNF = """openssl_conf = init
[init]
engines = engines
[engines]
evil = evil_engine
[evil_engine]
dynamic_path = {where}/evil.so
"""


def _prepare(where: pathlib.Path) -> None:
    """evil.so (see the twenty-ninth pass) and the files the cases name: ``evil.cnf`` (the
    openssl.cnf above), ``evil_ssh`` (a ProxyCommand making the sentinel), ``evil_curl`` (a
    config writing ``payload`` over ``s.sh``), ``evil_wget`` (an askpass program ``mark``),
    harmless ones (``good_ssh``, ``good_curl``, ``good.cnf``), a zip ``a.zip``, and for php,
    node and less: ``evil.ini`` (prepending ``evil.php``), ``evil.env`` (requiring ``evil.js``),
    ``evil.lesskey`` (a LESSOPEN) and the scripts ``s.php``, ``s.js``."""
    _prepare_library(where)
    (where / "evil.cnf").write_text(_OPENSSL_CNF.format(where=where))
    (where / "good.cnf").write_text("[req]\ndistinguished_name = dn\n[dn]\n")
    (where / "evil_ssh").write_text(f"Host *\n  ProxyCommand touch {SENTINEL}\n")
    (where / "good_ssh").write_text("Host *\n  User nobody\n")
    (where / "payload").write_text(f"touch {SENTINEL}\n")
    (where / "s.sh").write_text("echo harmless\n")
    (where / "evil_curl").write_text(f'output = "s.sh"\nurl = "file://{where}/payload"\n')
    (where / "good_curl").write_text("silent\n")
    (where / "mark").write_text(f"#!/bin/sh\ntouch {where}/{SENTINEL}\n")
    (where / "mark").chmod(0o755)
    (where / "evil_wget").write_text(f"use_askpass = {where}/mark\n")
    with zipfile.ZipFile(where / "a.zip", "w") as archive:
        archive.writestr("inside.txt", "data\n")
    touch = f"{where}/{SENTINEL}"
    (where / "evil.ini").write_text(f"auto_prepend_file={where}/evil.php\n")
    (where / "evil.php").write_text(f"<?php touch('{touch}'); ?>\n")
    (where / "s.php").write_text("<?php echo 1; ?>\n")
    (where / "evil.env").write_text(f"NODE_OPTIONS=--require={where}/evil.js\n")
    (where / "evil.js").write_text(f"require('fs').writeFileSync('{touch}', '')\n")
    (where / "s.js").write_text("console.log(1)\n")
    (where / "evil.lesskey").write_text(f"#env\nLESSOPEN = |touch {touch}; cat %s\n")


# -- a value naming a configuration file whose settings run code ------------------------------

CONFIG_CASES = [
    # (template, the value)
    ("openssl req -config § -new -x509 -nodes -subj /CN=x -keyout k -out c", "evil.cnf"),
    ("openssl req --config § -new -x509 -nodes -subj /CN=x -keyout k -out c", "evil.cnf"),
    ("openssl ca -config § -gencrl -out crl", "evil.cnf"),
    ("ssh -F § -o BatchMode=yes host true", "evil_ssh"),
    ("ssh -F§ -o BatchMode=yes host true", "evil_ssh"),
    ("ssh -vF § -o BatchMode=yes host true", "evil_ssh"),
    ("scp -F § -o BatchMode=yes host:a b", "evil_ssh"),
    ("sftp -F § -o BatchMode=yes host", "evil_ssh"),
    ("curl -K §; sh s.sh", "evil_curl"),
    ("curl --config §; sh s.sh", "evil_curl"),
    ("wget --config=§ -q -O out http://127.0.0.1:9/", "evil_wget"),
    ("wget --config § -q -O out http://127.0.0.1:9/", "evil_wget"),
    ("php -c § s.php", "evil.ini"),
    ("php -n --php-ini § s.php", "evil.ini"),
    ("node --env-file=§ s.js", "evil.env"),
    ("node --env-file § s.js", "evil.env"),
    ("less --lesskey-src=§ f", "evil.lesskey"),
    ("less --lesskey-src § f", "evil.lesskey"),
]


# php's -d where the value gives the setting's name, and a library php loads
PHP_CASES = [
    # (template, the value)
    ("php -d § s.php", "auto_prepend_file={tmp}/evil.php"),
    ("php --define § s.php", "auto_prepend_file={tmp}/evil.php"),
    ("php --define=§ s.php", "auto_prepend_file={tmp}/evil.php"),
    ("php -d extension=§ s.php", "{tmp}/evil.so"),
    ("php -dextension=§ s.php", "{tmp}/evil.so"),
    ("php -d zend_extension=§ s.php", "{tmp}/evil.so"),
    ("php -z § s.php", "{tmp}/evil.so"),
    ("php --zend-extension=§ s.php", "{tmp}/evil.so"),
]


@needs_gcc
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("case", "value", "why"),
    [(case, value, _CONFIG) for case, value in CONFIG_CASES]
    + [(case, value, "a setting of php -d|a shared library") for case, value in PHP_CASES],
)
def test_a_value_naming_a_configuration_file_or_php_setting_is_refused(
    shell: str, case: str, value: str, why: str, tmp_path: pathlib.Path
) -> None:
    _show_then_refuse(shell, case, [value], tmp_path, why, _prepare)


@pytest.mark.parametrize(
    "case",
    [
        "mysql --defaults-file=§ -e 'select 1'",
        "mysql --defaults-extra-file §",
        "openssl ts -config § -query -data f",
        "openssl req -config ./§ -new",
        "sftp -vF§ host",
        "wget --conf=§ http://example.org/",
        "nodejs --env-file-if-exists=§ s.js",
        "less -k § f",
        "less --lesskey-file=§ f",
        "less --lesskey-s=§ f",
    ],
)
def test_configuration_options_refused_by_their_manuals(case: str) -> None:
    with pytest.raises(RenderError, match=_CONFIG):
        sh(_template(case, "cfg"))


# -- the same programs with a value in a harmless place, accepted ------------------------------

HARMLESS_CASES = [
    # (template, the value)
    ("openssl rand -hex §", "16"),
    ("openssl rand -base64 §", "16"),
    ("openssl req -config good.cnf -new -x509 -nodes -subj § -keyout k -out c", "/CN=x"),
    ("ssh -G -F good_ssh §", "host"),
    ("curl -K good_curl -o out -- §", "file://{tmp}/f"),
    ("zip -sf §", "a.zip"),
    ("php -n s.php §", f"$(touch {SENTINEL})"),
    ("node s.js §", f"$(touch {SENTINEL})"),
    ("less §", "f"),
    ("php -n -d memory_limit=§ s.php", "64M"),
    ("php -n -d auto_prepend_file=§ s.php", "s.php"),
]


@needs_gcc
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "value"), HARMLESS_CASES)
def test_a_value_elsewhere_in_those_commands_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    _accepted_and_run(shell, case, [value], tmp_path, _prepare)


def test_a_value_after_a_static_configuration_file_is_accepted() -> None:
    """(Not run: wget cannot connect here; the static file is the template's own.)"""
    assert sh(_template("wget --config=good -q -O § http://h/", "out")) == (
        "wget --config=good -q -O out http://h/"
    )
    assert sh(_template("scp -F good_ssh § host:b", "a")) == "scp -F good_ssh a host:b"


@pytest.mark.parametrize(
    "case",
    [
        "make -f § all",
        "make -C § all",
        "make -I § all",
        "awk -f § data",
        "sed -f § data",
        "ruby -r § x.rb",
        "sqlite3 -init § x.db .q",
        "psql -f §",
        "vim -u § -es",
        "bash --rcfile § -i",
        "gdb -batch -x §",
        "tmux -f § new -d",
        "node -r § x.js",
        "python3 -m §",
        "pip install -r §",
        "npm --prefix § run x",
    ],
)
def test_a_value_naming_a_program_the_author_runs_stays_accepted(case: str) -> None:
    """A file that is itself the program's code, which the template plainly runs (as ``sh
    {f}``), not a setting hidden in a configuration file."""
    assert sh(_template(case, "name"))


@pytest.mark.parametrize(
    "case",
    [
        "git -c § status",
        "git --config-env=§ status",
        "git --exec-path=§ status",
        "git --§ ls-remote",
    ],
)
def test_a_value_giving_a_git_option_or_setting_stays_refused(case: str) -> None:
    """(Not an over-refusal: ``--§`` may be ``--exec-path=d`` or ``--config-env=...``.)"""
    with pytest.raises(RenderError):
        sh(_template(case, "x"))
