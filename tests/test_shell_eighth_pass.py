"""sh() red team, eighth pass: languages of tools that the tables knew only as stdin readers.

Each hole was reproduced in real dash and bash, with a positive control (the same template
with each value through plain ``shlex.quote`` ran the payload), then refused:

* dc runs its expression's ``!`` commands in a shell: ``dc -e {x}`` was refused only as an
  unknown program's ``-e``, so ``dc --expression={x}`` (and ``--exp={x}``, ``--expression
  {x}``, ``busybox dc --expression=...``) ran ``!touch f``.
* m4 rescans a macro's definition wherever the macro is used, so ``syscmd(cmd)`` in a
  definition given on the command line ran cmd: ``echo greeting | m4 -D greeting={x}``,
  ``m4 -Dgreeting={x} t.m4``, ``m4 --define=greeting={x} t.m4``, ``m4 -D {x}``.
* m4 given only options reads its program from the standard input; an option's argument was
  taken for a file, so ``printf '%s\\n' {x} | m4 -D X=1`` was accepted and ran ``syscmd``.
* The sqlite3 shell reads SQL and dot-commands (``.shell cmd``) from its input after running
  ``-cmd``, and an option's argument was taken for the database, so a pipe into
  ``sqlite3 -cmd '.mode csv' db``, ``sqlite3 -separator , db``, ``sqlite3 -init f db`` was
  accepted and ran ``.shell``; sqlite3 also reads ``--cmd`` as ``-cmd`` (``sqlite3 --cmd {x}
  db`` ran it).  mysql's ``--init-command`` runs before its input too (by its manual).
* An interpreter or shell given only options reads its program from the standard input; an
  option's argument was taken for the script, so a pipe into ``python3 -W ignore``, ``python3
  -X dev``, ``python3 --check-hash-based-pycs default``, ``perl -I lib``, ``node --title t``
  or ``bash --rcfile f`` was accepted and ran the value.
* The same option arguments were taken for the script when a value came after them, so the
  value was read as the script's argument rather than the interpreter's option: ``node --title
  t {x}`` with ``--eval=...``, ``python3 -X dev {x}`` with ``-c...``, ``perl -I lib {x}`` with
  ``-e...`` ran it; and ``printf ... | python3 -W ignore -i s.py`` read the pipe after the
  script (``-i``), the ``ignore`` taken for the script.
* GNU parallel given no command runs each line of its input as one; an option's argument was
  taken for the command, so ``printf '%s\\n' {x} | parallel -j 2`` was accepted and ran the value.
* php's ``-B``, ``-R``, ``-E`` (``--process-begin``...) and ``--run`` take PHP code, as ``-r``
  does: ``php -R {x}`` was accepted.
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

SENTINEL = "pwned-sentinel"

# -- refusals: each was accepted before this pass --------------------------------------------

DC_EXPRESSION = [
    "dc --expression=§",
    "dc --expression §",
    "dc --exp=§",
    "dc --e=§",
    "busybox dc --expression=§",
]
M4_DEFINITION = [
    "echo greeting | m4 -D greeting=§",
    "echo greeting | m4 -Dgreeting=§",
    "m4 -D greeting=§ t.m4",
    "m4 -Dgreeting=§ t.m4",
    "m4 --define greeting=§ t.m4",
    "m4 --define=greeting=§ t.m4",
    "m4 --def=greeting=§ t.m4",
    "m4 -P -Dx=§ t.m4",
    "m4 -EDgreeting=§ t.m4",
    "m4 -D §",
    "m4 -D§ t.m4",
]
PIPE_INTO_A_READER = [
    "printf '%s\\n' § | m4 -D X=1",
    "printf '%s\\n' § | m4 --define X=1",
    "printf '%s\\n' § | m4 -I /tmp -U len",
    "printf '%s\\n' § | sqlite3 -cmd '.mode csv' t.db",
    "printf '%s\\n' § | sqlite3 -cmd '.mode csv'",
    "printf '%s\\n' § | sqlite3 --cmd .schema t.db",
    "printf '%s\\n' § | sqlite3 -batch -cmd '.timeout 100' t.db",
    "printf '%s\\n' § | sqlite3 -separator , t.db",
    "printf '%s\\n' § | sqlite3 --separator , t.db",
    "printf '%s\\n' § | sqlite3 -init /dev/null t.db",
    "printf '%s\\n' § | sqlite3 -pagecache 1 2 t.db",
    "printf '%s\\n' § | duckdb -cmd '.mode csv' t.db",
    "printf '%s\\n' § | mysql --init-command='set x=1' db",
    "printf '%s\\n' § | mariadb --init-command 'set x=1' db",
]
PIPE_INTO_AN_INTERPRETER = [
    "printf '%s\\n' § | python3 -W ignore",
    "printf '%s\\n' § | python3 -X dev",
    "printf '%s\\n' § | python3 -uW ignore",
    "printf '%s\\n' § | python3 -W ignore -",
    "printf '%s\\n' § | python3 --check-hash-based-pycs default",
    "printf '%s\\n' § | perl -I lib",
    "printf '%s\\n' § | ruby -r json",
    "printf '%s\\n' § | ruby -I lib",
    "printf '%s\\n' § | node --title t",
    "printf '%s\\n' § | node -r ./m.js",
    "printf '%s\\n' § | node --input-type commonjs",
    "printf '%s\\n' § | php -d display_errors=1",
    "printf '%s\\n' § | lua -l m",
    "printf '%s\\n' § | bash --rcfile f",
    "printf '%s\\n' § | bash --init-file f",
    "printf '%s\\n' § | python3 -W ignore -i s.py",
    "printf '%s\\n' § | python3 -X dev -i s.py",
    "printf '%s\\n' § | parallel -j 2",
    "printf '%s\\n' § | parallel --jobs 2",
    "printf '%s\\n' § | parallel -kj 2",
    "printf '%s\\n' § | parallel --joblog log",
    "printf '%s\\n' § | parallel --jo log",
    "printf '%s\\n' § | parallel -j 2 --",
]
# a value that starts with '-' after an interpreter's option and its argument: an option
OPTION_AFTER_AN_ARGUMENT = [
    "node --title t §",
    "node --input-type commonjs §",
    "python3 -X dev §",
    "python3 -W ignore §",
    "python3 -uW ignore §",
    "perl -I lib §",
    "ruby -r json §",
    "php -d x=1 §",
    "lua -l m §",
    "bash --rcfile f §",
    "python3 --check-hash-based-pycs default -m pip install §",
]
PHP_CODE = ["php -R §", "php -B § -R 'echo 1;'", "php -E §", "php --process-code §", "php --run §"]
SQL_SHELL_COMMAND = [
    "sqlite3 --cmd § t.db",
    "sqlite3 t.db --cmd §",
    "duckdb --cmd § t.db",
]


@pytest.mark.parametrize("case", DC_EXPRESSION + M4_DEFINITION + SQL_SHELL_COMMAND + PHP_CODE)
def test_a_value_in_a_tools_code_option_is_refused(case: str) -> None:
    tool = "(dc|m4|sqlite3|duckdb|php)"
    with pytest.raises(RenderError, match=r"\{v0\} is the (program|SQL) of " + tool):
        sh(_template(case, "x"))
    with pytest.raises(RenderError):
        argv(_template(case, "x"))


@pytest.mark.parametrize("case", OPTION_AFTER_AN_ARGUMENT)
def test_a_value_after_an_interpreters_option_argument_is_still_an_option(case: str) -> None:
    with pytest.raises(RenderError, match=r"starts with '-', so \w+ would read it as an option"):
        sh(_template(case, "-e1"))
    assert "x.script" in sh(_template(case, "x.script"))  # (the script: the value's choice)


@pytest.mark.parametrize("case", PIPE_INTO_A_READER + PIPE_INTO_AN_INTERPRETER)
def test_a_pipe_into_a_tool_that_still_reads_its_input_as_code_is_refused(case: str) -> None:
    reader = "(m4|sqlite3|duckdb|mysql|mariadb|python|perl|ruby|node|php|lua|bash|parallel)"
    with pytest.raises(RenderError, match=r"\{v0\} is in a pipeline into " + reader):
        sh(_template(case, "x"))


def test_the_refusal_says_why_and_how_to_fix() -> None:
    with pytest.raises(RenderError) as caught:
        sh(_template("m4 -Dgreeting=§ t.m4", "x"))
    message = str(caught.value)
    assert "m4 -D" in message and "as code" in message and "Write the program" in message
    with pytest.raises(RenderError) as caught:
        sh(_template("printf '%s\\n' § | sqlite3 -cmd '.mode csv' t.db", "x"))
    assert "pipeline into sqlite3" in str(caught.value)


# -- look-alikes: the value is a file, or the tool reads its program elsewhere ----------------

ACCEPTED = [
    "m4 -DX=1 §",
    "m4 -D X=1 -- §",
    "m4 -Dgreeting §",
    "m4 -U len §",
    "printf '%s\\n' § | m4 -DX=1 t.m4",
    "printf '%s\\n' § | m4 -D X=1 t.m4",
    "printf '%s\\n' § | dc -e 1",
    "printf '%s\\n' § | dc --expression=1 f.dc",
    "printf '%s\\n' § | dc -f f.dc",
    "printf '%s\\n' § | sqlite3 t.db 'select 1'",
    "printf '%s\\n' § | sqlite3 -separator , t.db 'select 1'",
    "printf '%s\\n' § | sqlite3 -cmd '.mode csv' t.db 'select 1'",
    "printf '%s\\n' § | psql -c 'select 1'",
    "printf '%s\\n' § | mysql -e 'select 1'",
    "sqlite3 -cmd '.mode csv' -- §",
    "sqlite3 -cmd '.mode csv' §",
    "sqlite3 -separator , § .schema",
    "printf '%s\\n' § | python3 -W ignore s.py",
    "printf '%s\\n' § | python3 -u s.py",
    "printf '%s\\n' § | perl -w s.pl",
    "printf '%s\\n' § | node --title=t s.js",
    "printf '%s\\n' § | node --title t s.js",
    "printf '%s\\n' § | bash --rcfile f s.sh",
    "printf '%s\\n' § | php -R 'echo $argn;'",
    "php -r 'echo $argv[1];' §",
    "python3 -X dev s.py §",
    "python3 -W ignore s.py -- §",
    "node --title t s.js §",
    "perl -I lib s.pl §",
    "printf '%s\\n' § | parallel -j 2 gzip",
    "printf '%s\\n' § | parallel -k -- gzip",
    "printf '%s\\n' § | parallel --pipe -j 2 wc -l",
]


@pytest.mark.parametrize("case", ACCEPTED)
def test_files_and_data_stay_accepted(case: str) -> None:
    assert "'a b'" in sh(_template(case, "a b"))


# -- real shells -------------------------------------------------------------------------------

PYTHON = f"import os; os.system('touch {SENTINEL}')"
NODE = f"require('child_process').execSync('touch {SENTINEL}')"
# (case, payload in the tool's language, the program it needs)
ATTACKS = [
    ("dc --expression=§", f"!touch {SENTINEL}", "dc"),
    ("dc --exp §", f"!touch {SENTINEL}", "dc"),
    ("echo greeting | m4 -D greeting=§", f"syscmd(touch {SENTINEL})", "m4"),
    ("echo greeting > t.m4; m4 -Dgreeting=§ t.m4", f"syscmd(touch {SENTINEL})", "m4"),
    ("echo greeting > t.m4; m4 --define=greeting=§ t.m4", f"syscmd(touch {SENTINEL})", "m4"),
    ("echo greeting | m4 -D §", f"greeting=syscmd(touch {SENTINEL})", "m4"),
    ("printf '%s\\n' § | m4 -D X=1", f"syscmd(touch {SENTINEL})", "m4"),
    ("printf '%s\\n' § | sqlite3 -cmd '.mode csv' t.db", f".shell touch {SENTINEL}", "sqlite3"),
    ("printf '%s\\n' § | sqlite3 -separator , t.db", f".shell touch {SENTINEL}", "sqlite3"),
    ("printf '%s\\n' § | sqlite3 -init /dev/null t.db", f".shell touch {SENTINEL}", "sqlite3"),
    ("sqlite3 --cmd § t.db .quit", f".shell touch {SENTINEL}", "sqlite3"),
    ("printf '%s\\n' § | python3 -W ignore", PYTHON, "python3"),
    ("printf '%s\\n' § | python3 -X dev -", PYTHON, "python3"),
    ("printf '%s\\n' § | python3 --check-hash-based-pycs default", PYTHON, "python3"),
    ("printf '%s\\n' § | perl -I lib", f'system("touch {SENTINEL}")', "perl"),
    ("printf '%s\\n' § | node --title t", NODE, "node"),
    ("printf '%s\\n' § | node --input-type commonjs", NODE, "node"),
    ("printf '%s\\n' § | bash --rcfile f", f"touch {SENTINEL}", "bash"),
    ("echo x | php -R §", f'system("touch {SENTINEL}");', "php"),
    ("php -B § -R 'echo 1;' < /dev/null", f'system("touch {SENTINEL}");', "php"),
    ("printf '%s\\n' § | php -d display_errors=0", f'<?php system("touch {SENTINEL}");', "php"),
    ("node --title t §", f"--eval={NODE}", "node"),
    ("python3 -X dev §", f"-c{PYTHON}", "python3"),
    ("perl -I lib §", f'-esystem("touch {SENTINEL}")', "perl"),
    ("echo pass > s.py; printf '%s\\n' § | python3 -W ignore -i s.py", PYTHON, "python3"),
    ("printf '%s\\n' § | parallel --will-cite -j 2", f"touch {SENTINEL}", "parallel"),
    ("printf '%s\\n' § | parallel --will-cite --joblog log", f"touch {SENTINEL}", "parallel"),
]
# Accepted, run with the same payloads: the tool reads the value as data, or as a file name.
RUN_ACCEPTED = [
    ("printf '%s\\n' § | dc -e 1", f"!touch {SENTINEL}", "dc"),
    ("echo greeting > t.m4; printf '%s\\n' § | m4 -D X=1 t.m4", f"syscmd(touch {SENTINEL})", "m4"),
    ("m4 -DX=1 § 2>/dev/null", f"syscmd(touch {SENTINEL})", "m4"),
    ("printf '%s\\n' § | sqlite3 t.db 'select 1'", f".shell touch {SENTINEL}", "sqlite3"),
    ("printf '%s\\n' § | sqlite3 -separator , t.db 'select 1'", f".shell touch {SENTINEL}",
     "sqlite3"),
    ("echo 'pass' > s.py; printf '%s\\n' § | python3 -W ignore s.py", PYTHON, "python3"),
    ("echo 'true' > s.sh; printf '%s\\n' § | bash --rcfile f s.sh", f"touch {SENTINEL}",
     "bash"),
    ("printf '%s\\n' § | node --title t -e 1", NODE, "node"),
    ("printf '%s\\n' § | parallel --will-cite -j 2 echo", f"touch {SENTINEL}", "parallel"),
    ("echo pass > s.py; python3 -X dev s.py §", f"-c{PYTHON}", "python3"),
    ("echo 1 > s.js; node --title t s.js §", f"--eval={NODE}", "node"),
]  # fmt: skip


def _runs_payload(shell: str, command: str, where: pathlib.Path) -> bool:
    """Whether ``command`` run by ``shell`` in a fresh directory created the sentinel."""
    where.mkdir(parents=True)
    subprocess.run(
        [shell, "-c", command],
        cwd=where,
        env={"PATH": "/usr/bin:/bin", "HOME": str(where)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=20,
    )
    return (where / SENTINEL).exists()


# Each attack rendered naively (the positive control) and each look-alike rendered by sh().
RUNS = [(*attack, True) for attack in ATTACKS] + [(*alike, False) for alike in RUN_ACCEPTED]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "payload", "program", "attack"), RUNS)
def test_naive_quoting_runs_each_attack_and_sh_look_alikes_run_nothing(
    shell: str, case: str, payload: str, program: str, attack: bool, tmp_path: pathlib.Path
) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")
    render = naive_sh if attack else sh
    assert _runs_payload(shell, render(_template(case, payload)), tmp_path / "run") is attack


@pytest.mark.parametrize(("case", "payload", "program"), ATTACKS)
def test_each_attack_is_refused(case: str, payload: str, program: str) -> None:
    # (after an option's argument, a value not starting with '-' is the script: its choice)
    for value in (payload,) if case in OPTION_AFTER_AN_ARGUMENT else (payload, "x", ""):
        with pytest.raises(RenderError):
            sh(_template(case, value))
