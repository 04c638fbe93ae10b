"""sh() red team, ninth pass: more programs whose options, operands or input are code.

Each hole was reproduced in real dash and bash, with a positive control (the same template
with each value through plain ``shlex.quote`` ran the payload), then refused:

* gdb parses its options with getopt_long_only, which reads a word with one dash as a long
  option, also abbreviated and with ``=``: ``gdb -batch -eval-command {x}``, ``-ex={x}``,
  ``-eval {x}``, ``-init-eval-command {x}`` and ``-iex={x}`` were accepted (only ``-ex``,
  ``-iex`` and the ``--`` spellings were known) and ran ``shell touch f``.
* GNU ed reads a file operand starting with ``!`` as a shell command whose output is the
  file, also after ``--``: ``ed -s {f}`` and ``ed -s -- {f}`` with ``f = '!touch x'`` ran
  touch (red, restricted, refuses it).
* ``git daemon --access-hook={x}``: the daemon runs the hook through a shell for every client
  that connects (``git daemon --inetd`` given one request ran it).
* gawk's indirect call ``@f(...)`` calls the function a variable names, ``system`` too:
  ``echo {x} | gawk '{f = $1; @f($2)}'`` was accepted (the program has no ``system`` in its
  text) and ran the value's command.
* curl reads its options from the config file ``-K``/``--config``, also from the standard
  input (``-``) and from a file a value was written to; some of those options load code
  (``engine = /path/lib.so`` loaded the library) or write any file (``output = f``):
  ``printf '%s\\n' {x} | curl -K -`` and ``echo {x} > cfg; curl -K cfg`` were accepted.
* strace's output file ``-o``/``--output``, when it starts with ``|`` or ``!``, is a command
  strace pipes the trace to, run by a shell: ``strace -o {log} true`` with ``'|touch x'`` ran
  touch (a value starting with ``-`` was refused there already, not these).
* perl's ``-d:MOD=args`` pastes its arguments into ``use Devel::MOD split(/,/,q{args});`` as
  ``-M`` does into ``use``: ``perl -d:Peek={x} -e 1`` with ``x}),system(...),(q{`` ran the call.
* A word ``@f`` is a response file to gcc, clang, java, ld and programs built on picocli or
  argparse: they read their options from f, so ``echo {x} > opts; gcc @opts -c f.c`` with
  ``-wrapper 'sh,-c,cmd,x'`` ran cmd.  Refused as for ``make --file=f``, but where the program
  is one known to read ``@f`` as data (``cat``, ``curl -d @f``).
* gawk's ``-i``/``--include`` reads a source file, and ssh's ``-F`` its configuration (where
  ``ProxyCommand`` is a command), from the pipe when given ``/dev/stdin``: ``printf ... {x} |
  gawk -i /dev/stdin 'BEGIN{}'`` ran the value's ``system()``, ``... | ssh -F /dev/stdin h ls``
  its ``ProxyCommand``; so do php's ``-c`` (its ini file: ``auto_prepend_file`` with a
  ``data:`` URL ran PHP) and node's ``--env-file`` (``NODE_OPTIONS=--import=data:...`` ran
  JavaScript).
* vim's ``--remote-send`` (keys typed into a vim server, ``:!cmd`` among them) and
  ``--remote-expr`` (an expression, ``system()`` among them): refused by vim's manual, as no
  server runs here.
"""

from __future__ import annotations

import base64
import pathlib
import shutil

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory)
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

SENTINEL = "pwned-sentinel"

# -- refusals: each was accepted before this pass --------------------------------------------

GDB_LONG_ONLY = [
    "gdb -batch -eval-command §",
    "gdb -batch -eval-command=§",
    "gdb -batch -ex=§",
    "gdb -batch -iex=§",
    "gdb -batch -eval §",
    "gdb -batch -eval-comm=§",
    "gdb -batch -init-eval-command §",
    "gdb -nx -batch -init-eval §",
    "sudo gdb -batch -eval-command §",
]
GIT_DAEMON = [
    "git daemon --access-hook=§",
    "git daemon --export-all --access-hook=§ .",
    "git daemon --access-hook §",
]
GAWK_INDIRECT_CALL = [
    "echo § | gawk '{f = $1; @f($2)}'",
    "gawk 'BEGIN { f = ARGV[1]; @f(ARGV[2]) }' system §",
    "gawk -v f=§ 'BEGIN { @f(\"date\") }'",
    "gawk 'BEGIN { @ f(ARGV[1]) }' §",
    "awk '{ @run($0) }' run=system §",
    "gawk '{ @f($0) }' < §",
]
CURL_CONFIG = [
    "printf '%s\\n' § | curl -K -",
    "printf '%s\\n' § | curl -sK -",
    "printf '%s\\n' § | curl -K-",
    "printf '%s\\n' § | curl --config -",
    "printf '%s\\n' § | curl --config=-",
    "printf '%s\\n' § | curl --config /dev/stdin https://example.org/",
    "echo § > cfg; curl -K cfg https://example.org/",
    "echo § > cfg; curl -s -K cfg",
]


READ_FROM_A_FILE = [
    "echo § > opts; gcc @opts -c f.c",
    "echo § > opts; cc -c @opts f.c",
    "echo § > opts; java @opts Main",
    "echo § > opts; ./tool @opts",
    "printf '%s\\n' § | gawk -i /dev/stdin 'BEGIN{}'",
    "printf '%s\\n' § | gawk --include=/dev/stdin 'BEGIN{}'",
    "printf '%s\\n' § | awk --incl - '{print}' f",
    "printf '%s\\n' § | ssh -F /dev/stdin h ls",
    "printf '%s\\n' § | ssh -F/dev/stdin h ls",
    "printf '%s\\n' § | scp -F - a h:b",
    "printf '%s\\n' § | php -c /dev/stdin s.php",
    "printf '%s\\n' § | php --php-ini=/dev/stdin s.php",
    "printf '%s\\n' § | node --env-file=/dev/stdin s.js",
    "printf '%s\\n' § | node --env-file /dev/stdin s.js",
    "vim --remote-send §",
    "vim --servername S --remote-expr=§",
    "nvim --remote-send §",
]


@pytest.mark.parametrize("case", READ_FROM_A_FILE)
def test_options_or_code_read_from_a_file_the_value_fills_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"'@opts'|pipeline into (gawk|awk|ssh|scp|php|node)|vim"):
        sh(_template(case, "x"))


PERL_DEBUGGER = ["perl -d:Peek=§ s.pl", "perl -d:Peek,§ s.pl", "perl -wd:Peek=§ s.pl", "perl -d:§"]


@pytest.mark.parametrize("case", PERL_DEBUGGER)
def test_perls_debugger_module_arguments_are_code(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is the module of perl -d, which perl pastes"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["strace -o § true", "strace -fo § true", "strace -f -o § -- true", "strace --output=§ true",
     "strace --out=§ true", "strace --output § true", "sudo strace -o § true",
     "for f in §; do strace -o \"$f\" true; done"],
)  # fmt: skip
def test_straces_output_file_starting_with_a_pipe_is_refused(case: str) -> None:
    for value in ("|touch x", "!touch x"):
        with pytest.raises(RenderError, match=r"so strace -(o|-output) would read it as a shell"):
            sh(_template(case, value))
    assert "'a b'" in sh(_template(case, "a b"))  # a file name: the value's choice


@pytest.mark.parametrize("case", GDB_LONG_ONLY)
def test_gdbs_one_dash_long_options_are_its_code_options(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is the program of gdb --(eval|init|ex|iex)"):
        sh(_template(case, "x"))
    with pytest.raises(RenderError):
        argv(_template(case, "x"))


@pytest.mark.parametrize("case", GIT_DAEMON)
def test_git_daemons_access_hook_is_a_command(case: str) -> None:
    with pytest.raises(RenderError, match=r"git daemon --access-hook, a command that git runs"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", GAWK_INDIRECT_CALL)
def test_an_awk_program_with_an_indirect_call_runs_its_data(case: str) -> None:
    with pytest.raises(RenderError, match=r"awk program .*indirect call"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", CURL_CONFIG)
def test_curls_config_from_a_value_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"curl"):
        sh(_template(case, "x"))


@pytest.mark.parametrize(
    "case",
    ["ed §", "ed -s §", "ed -- §", "ed -s -- §", "ed -p '*' §", "sudo ed -s §",
     "for f in §; do ed -s \"$f\" < /dev/null; done"],
)  # fmt: skip
def test_a_file_operand_of_ed_starting_with_a_bang_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"starts with '!', so ed would read it as a shell"):
        sh(_template(case, "!touch x"))
    assert "'a b'" in sh(_template(case, "a b"))  # any other file name: the value's choice


def test_the_refusals_say_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sh(_template("ed -s -- §", "!touch x"))
    message = str(caught.value)
    assert "shell command" in message and "also after --" in message and "ed ./{file}" in message
    with pytest.raises(RenderError) as caught:
        sh(_template("echo § | gawk '{f = $1; @f($2)}'", "x"))
    assert "@f(...)" in str(caught.value) and "system" in str(caught.value)


# -- look-alikes: data, files, and options that take no code ---------------------------------

ACCEPTED = [
    "gdb -batch -x cmds.gdb §",
    "gdb -batch -ex run --args ./prog §",
    "gdb -batch -p 1 -ex bt -- §",
    "gdb -q §",
    "ed ./§",
    "ed -s f.txt < /dev/null; echo §",
    "red §",
    "git daemon --base-path=§ --export-all",
    "gawk '{ print $1 \"@\" $2 }' §",
    "echo § | gawk '{ print toupper($1) }'",
    "gawk -v f=§ 'BEGIN { print f }'",
    "printf '%s\\n' § | curl -d @- https://example.org/",
    "printf '%s\\n' § | curl -K cfg -T - https://example.org/",
    "curl -K cfg -o out -- §",
    "echo § > data; curl -d @data https://example.org/",
    "strace -o ./§ true",
    "strace -o log.txt §",
    "strace -e trace=open -o log.txt -- ls §",
    "perl -d s.pl §",
    "perl -d:Peek s.pl §",
    "perl -dt s.pl §",
    "echo § > data; cat @data",
    "echo § > data; curl -F f=@data https://example.org/",
    "echo § > other; gcc @opts -c f.c",
    "printf '%s\\n' § | gawk -i lib.awk '{ print }'",
    "printf '%s\\n' § | ssh -F cfg h cat",
    "vim --remote-silent §",
    "printf '%s\\n' § | php -c php.ini s.php",
    "printf '%s\\n' § | node --env-file=.env s.js",
]


@pytest.mark.parametrize("case", ACCEPTED)
def test_data_and_files_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


# -- real shells -------------------------------------------------------------------------------

# git daemon --inetd serves the one request on its standard input (git-upload-pack of ./r),
# running its access hook in the repository's git directory first.
_GIT_REQUEST = "git init -q r && printf '0026git-upload-pack /r\\000host=localhost\\000' | "
_GIT_HOOK_RAN = f" >/dev/null 2>&1; if test -e r/.git/{SENTINEL}; then touch {SENTINEL}; fi"
# an ini file that prepends PHP code, and an env file whose NODE_OPTIONS imports JavaScript
_PHP_INI = (
    "allow_url_include=On\nauto_prepend_file=\"data://text/plain;base64,"
    + base64.b64encode(f"<?php touch('{SENTINEL}');".encode()).decode()
    + '"'
)
_NODE_ENV = (
    "NODE_OPTIONS=--import=data:text/javascript,import{writeFileSync}from%22fs%22;"
    f"writeFileSync(%22{SENTINEL}%22,%22%22)"
)
# (case, payload, the program it needs)
ATTACKS = [
    ("gdb -nx -batch -eval-command §", f"shell touch {SENTINEL}", "gdb"),
    ("gdb -nx -batch -ex=§", f"shell touch {SENTINEL}", "gdb"),
    ("gdb -nx -batch -eval §", f"shell touch {SENTINEL}", "gdb"),
    ("gdb -nx -batch -init-eval-command §", f"shell touch {SENTINEL}", "gdb"),
    ("ed -s § < /dev/null", f"!touch {SENTINEL}", "ed"),
    ("ed -s -- § < /dev/null", f"!touch {SENTINEL}", "ed"),
    (
        _GIT_REQUEST + 'git daemon --inetd --export-all --base-path="$PWD" --access-hook=§'
        + _GIT_HOOK_RAN,
        f"touch {SENTINEL};",
        "git",
    ),
    ("echo § | gawk '{f = $1; @f($2 \" \" $3)}'", f"system touch {SENTINEL}", "gawk"),
    ("gawk 'BEGIN { f = ARGV[1]; @f(ARGV[2]) }' system §", f"touch {SENTINEL}", "gawk"),
    ("printf '%s\\n' § | curl -s -K - file:///dev/null", f"-o {SENTINEL}", "curl"),
    ("echo § > cfg; curl -s -K cfg file:///dev/null", f"output = {SENTINEL}", "curl"),
    ("strace -o § true", f"|touch {SENTINEL}", "strace"),
    ("strace --output=§ true", f"!touch {SENTINEL}", "strace"),
    ("perl -d:Peek=§ -e 1", f'x}}),system("touch","{SENTINEL}"),(q{{', "perl"),
    ("echo § > opts; gcc @opts -E -x c /dev/null", f"-wrapper 'sh,-c,touch {SENTINEL},x'", "gcc"),
    ("printf '%s\\n' § | gawk -i /dev/stdin 'BEGIN{}'", f'BEGIN {{ system("touch {SENTINEL}") }}',
     "gawk"),
    ("printf '%s\\n' § | ssh -F /dev/stdin h true", f"ProxyCommand touch {SENTINEL}", "ssh"),
    ("echo '<?php' > s.php; printf '%s\\n' § | php -c /dev/stdin s.php", _PHP_INI, "php"),
    ("echo 1 > s.js; printf '%s\\n' § | node --env-file=/dev/stdin s.js", _NODE_ENV, "node"),
]
# Accepted, run with the same payloads: the program reads the value as data or a file name.
RUN_ACCEPTED = [
    ("gdb -nx -batch -- § 2>/dev/null", f"shell touch {SENTINEL}", "gdb"),
    ("ed -s ./§ < /dev/null", f"!touch {SENTINEL}", "ed"),
    ("red -s § < /dev/null", f"!touch {SENTINEL}", "ed"),
    ("echo § | gawk '{ print toupper($2) }'", f"system touch {SENTINEL}", "gawk"),
    ("printf '%s\\n' § | curl -s -d @- file:///dev/null", f"-o {SENTINEL}", "curl"),
    ("strace -o ./§ true", f"|touch {SENTINEL}", "strace"),
    ("perl -d:Peek -e 1 §", f'x}}),system("touch","{SENTINEL}"),(q{{', "perl"),
    ("echo § > data; cat @data", f"-wrapper 'sh,-c,touch {SENTINEL},x'", "gcc"),
    ("printf '%s\\n' § | gawk '{ print }'", f'BEGIN {{ system("touch {SENTINEL}") }}', "gawk"),
]



@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("case", "payload", "program", "attack"),
    [(*attack, True) for attack in ATTACKS] + [(*alike, False) for alike in RUN_ACCEPTED],
)
def test_each_attack_runs_when_quoted_naively_and_is_refused_and_look_alikes_run_nothing(
    shell: str, case: str, payload: str, program: str, attack: bool, tmp_path: pathlib.Path
) -> None:
    template = _template(case, payload)
    if attack:  # (refused whether the program is installed or not)
        with pytest.raises(RenderError):
            sh(template)
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    command = naive_sh(template) if attack else sh(template)
    assert _runs_payload(shell, command, tmp_path / "run") is attack
