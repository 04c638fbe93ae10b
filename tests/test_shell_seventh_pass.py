"""sh() red team, seventh pass: values that come back into the shell as a variable's text.

A value the renderer quoted as one word can still reach code later, through a shell variable
or a file, where the template only expands a variable:

* bash's ``$_`` is the last argument of the command before: ``true {x}; eval "$_"`` ran x.
* A variable holding a value (``for f in {x}``, ``set -- {x}``) used after a construct the
  lexer does not follow: bash evaluates ``$(($1))``, ``$((x))`` and ``${!1}`` with the value
  ``a[$(cmd)]`` and runs cmd.  Only the pipeline of the construct was refused.
* An expansion that may hold a value at ``printf -v``'s name or ``test -v``'s operand (``set --
  {x}; printf -v "$1" y``, ``bash -c 'test -v "$1"' bash {x}``, ``... | while read -r v; do [ -v
  "$v" ]; done``): bash evaluates the name's subscript.  A field there was refused already.
* A ``for`` loop's variable that is in the environment of the commands it runs: a name the
  caller may export (upper-case: ``for BASH_ENV in {x}; do bash -c :; done``), one the text
  exports (``export x``, ``declare -x x``, ``f=$1; export f``), or any after ``set -a``
  (allexport): bash expands ``$(cmd)`` in ``BASH_ENV`` and programs run ``PAGER`` as code.
* bash's ``shopt -s lastpipe`` runs a pipeline's last command in the shell itself, so that
  ``printf '%s\\n' {x} | read -r v; eval "$v"`` ran the value.
* A value written to a file that the template reads back into the shell (``eval "$(cat f)"``,
  ``read -r v < f; eval "$v"``), or names inside another word (``BASH_ENV=f bash``, ``make
  --file=f``, ``git -c include.path=f``, ``ssh -Ff``) or as the argument of an option of a
  program not known to take only data (``ssh -F f`` runs its ProxyCommand).

Each is reproduced in real bash (and dash where it applies), with a positive control.
"""

from __future__ import annotations

import pathlib
import shutil

import pytest
from test_shell_contexts import SHELLS, escapes
from test_shell_contexts import (
    test_positive_control_the_harness_sees_naive_quoting_escape as naive_quoting_escapes,
)
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

# -- refusals: each was accepted before this pass --------------------------------------------

LAST_ARGUMENT = [
    'true §; eval "$_"',
    'true §; sh -c "$_"',
    "true §; $_",
    'true §; "$_"',
    'probe a §; eval "${_}"',
    'probe "$(true §)"; eval "$_"',
]

VARIABLE_AFTER_A_STOP = [
    "set -- §; probe $(($1))",
    'set -- §; probe "${!1}"',
    "for x in §; do :; done; probe $((x))",
    "for x in §; do probe \"$x\"; done; [[ $x -eq 1 ]]",
    "set -- §; probe \"$1\"; echo `echo $1`",
    "true §; probe $(($_))",
]

VARIABLE_NAME_BUILTINS = [
    'set -- §; printf -v "$1" x',
    'set -- §; printf -v"$1" x',
    'for x in §; do test -v "$x"; done',
    'set -- §; [ -v "$1" ]',
    'set -- §; [ -R "$1" ]',
    "bash -c 'test -v \"$1\"' bash §",
    "bash -c 'printf -v \"$1\" x' bash §",
    "printf '%s\\n' § | while read -r v; do printf -v \"$v\" x; done",
    "printf '%s\\n' § | while read -r v; do [ -v \"$v\" ]; done",
]

FILE_READ_BACK = [
    "printf '%s' § > f; eval \"$(cat f)\"",
    "printf '%s' § > f; sh -c \"$(cat f)\"",
    "printf '%s' § > f; $(cat f)",
    "printf '%s' § > f; v=$(cat f); eval \"$v\"",
    "printf '%s' § > f; read -r v < f; eval \"$v\"",
    "printf '%s' § > f; while read -r l; do eval \"$l\"; done < f",
    "printf '%s' § | tee f; probe $(cat f)",
]

FILE_NAMED_IN_A_WORD = [
    "echo § > f; BASH_ENV=f bash -c :",
    "echo § > f; BASH_ENV=./f bash -c :",
    "echo § > f; env BASH_ENV=f bash -c :",
    "echo § > f; make --file=f",
    "echo § > f; git -c include.path=f status",
    "echo § > f; wget --config=f http://h/",
    "echo § > f; ssh -Ff h true",
    "echo § > f; ssh -F f h true",
    "echo § > f; wget --config f http://h/",
    "echo § > f; mytool --rc f",
]


@pytest.mark.parametrize(
    "case", LAST_ARGUMENT + VARIABLE_AFTER_A_STOP + VARIABLE_NAME_BUILTINS + FILE_READ_BACK
)
def test_a_value_that_comes_back_as_a_variable_where_code_goes_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is .*(variable|pipeline into).*\. [A-Z]"):
        sh(_template(case, "x"))
    with pytest.raises(RenderError):
        argv(_template(case, "x"))


EXPORTED = [
    "for BASH_ENV in §; do bash -c :; done",
    "for PAGER in §; do git log; done",
    "export BASH_ENV; for BASH_ENV in §; do bash -c :; done",
    "for x in §; do export x; sh -c 'eval \"$x\"'; done",
    "for x in §; do declare -x x; sh -c 'eval \"$x\"'; done",
    "for x in §; do typeset -rx x; done",
]
EXPORTED_ALL = [
    "set -a; for x in §; do bash -c :; done",
    "set -ea; for x in §; do bash -c :; done",
    "set -o allexport; set -- §; x=$1; bash -c 'eval \"$x\"'",
    "set -- §; set -a; x=$1; bash -c 'eval \"$x\"'",
    "set -- §; f=$1; export f; sh -c 'eval \"$f\"'",
    "shopt -os allexport; probe §",
]
LASTPIPE = [
    "shopt -s lastpipe; printf '%s\\n' § | read -r v; eval \"$v\"",
    "set -- §; shopt -s lastpipe; echo \"$1\" | read -r v; eval \"$v\"",
    "printf '%s\\n' § > f; shopt -s extglob lastpipe; cat f | read -r v; eval \"$v\"",
]


@pytest.mark.parametrize("case", LASTPIPE)
def test_bash_lastpipe_stops_the_lexer(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is .*(lastpipe|does not follow).*\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", EXPORTED)
def test_a_loop_variable_in_the_environment_of_the_commands_it_runs_is_refused(
    case: str,
) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is in the word list of a for loop.*\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", EXPORTED_ALL)
def test_allexport_and_an_exported_copy_of_a_value_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is .*(allexport|exports).*\. [A-Z]"):
        sh(_template(case, "x"))


@pytest.mark.parametrize("case", FILE_NAMED_IN_A_WORD)
def test_a_value_written_to_a_file_that_a_word_names_for_a_program_is_refused(
    case: str,
) -> None:
    with pytest.raises(RenderError, match=r"\{v0\} is written to the file 'f'.*\. [A-Z]"):
        sh(_template(case, "x"))


def test_the_refusal_says_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sh(_template("set -- §; probe $(($1))", "x"))
    message = str(caught.value)
    assert "arithmetic expansion" in message and "a[$(cmd)]" in message
    assert "Use that variable only as data" in message
    with pytest.raises(RenderError) as caught:
        sh(_template('true §; eval "$_"', "x"))
    assert "bash's $_" in str(caught.value)
    with pytest.raises(RenderError) as caught:
        sh(_template("echo § > f; BASH_ENV=f bash -c :", "x"))
    assert "'BASH_ENV=f'" in str(caught.value) and "Pass the value" in str(caught.value)


# -- look-alikes: they use the variable or the file as data, and stay accepted ---------------

ACCEPTED = [
    'probe §; probe "$_"',
    'mkdir -p -- § && cd -- "$_"',
    "true ${_}; probe §",
    'set -- §; [ -n "$1" ] && probe "$1"',
    "set -- §; printf '%s\\n' \"$1\"",
    'set -- §; printf -v out %s "$1"',
    'for f in §; do probe "$f"; done',
    'for f in §; do probe "$(cat "$f")"; done',
    "probe §; probe $((1 + 2))",
    "printf '%s\\n' § > f; cat f",
    "printf '%s\\n' § > f; probe \"$(cat f)\"",
    "printf '%s\\n' § > f; grep -c -f f f",
    "printf '%s\\n' § > f; diff -u f f",
    "printf '%s\\n' § > f; wc -l < f",
    "printf '%s\\n' § > f; x=1 probe f",
    'export LC_ALL=C; for f in §; do probe "$f"; done',
    'for f in §; do probe "$f"; done; export g=1',
    'set -- §; f=$1; probe "$f"',
    "set -e; for f in §; do probe \"$f\"; done",
]


@pytest.mark.parametrize("case", ACCEPTED)
def test_variables_and_files_used_as_data_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


# -- real shells ---------------------------------------------------------------------------

# Each runs a payload with plain shlex.quote per value (positive control) and is refused.
ATTACKS = [
    'probe §; eval "$_"',
    'probe §; sh -c "$_"',
    "set -- §; probe $(($1))",
    'set -- §; probe "${!1}"',
    "for x in §; do :; done; probe $((x))",
    'set -- §; printf -v "$1" x',
    'set -- §; [ -v "$1" ]',
    "bash -c 'test -v \"$1\"' bash §",
    "printf '%s\\n' § | while read -r v; do printf -v \"$v\" x; done",
    "printf '%s\\n' § > f; eval \"$(cat f)\"",
    "printf '%s\\n' § > f; read -r v < f; eval \"$v\"",
    "printf '%s\\n' § > f; BASH_ENV=./f bash -c :",
    "printf '%s\\n' § > f; env BASH_ENV=f bash -c :",
    "printf 'all:\\n\\t%s\\n' § > f; make -s --file=f >/dev/null 2>&1",
    "printf 'ProxyCommand %s\\n' § > f; ssh -F f -o BatchMode=yes h true 2>/dev/null",
    "set -a; for BASH_ENV in §; do bash -c :; done",
    "export BASH_ENV; for BASH_ENV in §; do bash -c :; done",
    "for x in §; do export x; bash -c 'eval \"$x\"'; done",
    "set -- §; f=$1; export f; sh -c 'eval \"$f\"'",
    "shopt -s lastpipe; printf '%s\\n' § | read -r v; eval \"$v\"",
]
NEEDS = {
    "printf 'all:\\n\\t%s\\n' § > f; make -s --file=f >/dev/null 2>&1": "make",
    "printf 'ProxyCommand %s\\n' § > f; ssh -F f -o BatchMode=yes h true 2>/dev/null": "ssh",
}


@pytest.mark.parametrize("case", ATTACKS)
def test_positive_control_naive_quoting_runs_the_payload(
    case: str, tmp_path: pathlib.Path
) -> None:
    if case in NEEDS and shutil.which(NEEDS[case]) is None:
        pytest.skip(f"{NEEDS[case]} is not installed")
    naive_quoting_escapes(case, tmp_path)  # (in dash or bash)


@pytest.mark.parametrize("case", ATTACKS)
def test_each_attack_is_refused_whatever_the_value(case: str) -> None:
    for value in ("x", "a[$(touch pwned-sentinel)]", "; touch pwned-sentinel", ""):
        with pytest.raises(RenderError):
            sh(_template(case, value))


RUN_ACCEPTED = [
    'probe §; probe "$_"',
    'set -- §; probe "$1"; [ -n "$1" ]',
    'for f in §; do probe "$f"; done; probe "$f"',
    "printf '%s.' § > f; probe \"$(cat f)\"",
    "printf '%s\\n' § > f; cat f",
    'export LC_ALL=C; for f in §; do probe "$f"; done; bash -c :',
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", RUN_ACCEPTED)
def test_accepted_look_alikes_keep_every_value_one_word_in_real_shells(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    escaped, ran = escapes(shell, case, "", sh, tmp_path)
    assert escaped == []
    assert ran
