"""sh() red team, thirteenth pass: a written file run by a command the tables did not follow.

Each hole was reproduced in real dash and bash (HOME a fresh directory), with a positive
control (the same template with each value through plain ``shlex.quote`` ran the payload),
then refused:

* find runs a command for each file it lists: ``echo {x} > s.sh; find . -name '*.sh' -exec
  sh {} \\;`` (also ``-exec … +``, ``-execdir``, ``-ok``, ``-exec {} \\;`` of an executable
  file, ``-exec sh -c 'sh "$1"' sh {} \\;`` and ``-exec sh -c 'sh {}' \\;``) ran the value:
  the pattern is find's, and ``{}`` was no name.  Now, as for the names xargs reads, a ``{}``
  in find's command may be any file, and the command string of a shell in it is followed
  (``-exec sh -c 'sh s.sh'``).  And find's output names the files it lists: ``find . -type f
  | sh`` ran an executable written file; now find may read any written file, as ``cat *``
  does, for what it pipes on.
* A runner that splits a word into the command it runs: ``env -S 'sh s.sh'`` ran the file;
  only the word as written was compared with the file's name.  Now the words of the command
  run count too.
* A program the tables do not know, which runs a command made of its arguments: ``perl -e
  'exec @ARGV' sh s.sh`` and ``python3 -c '…os.execvp…' sh s.sh`` ran the file, and by their
  manuals so do ``screen -dm sh s.sh``, ``watch sh s.sh``, ``pixi run sh s.sh``, ``cgexec -g
  cpu:x sh s.sh`` and many more; only the runners of the tables were followed.  Now by
  allow-list: in the arguments of any program not known to run no command
  (``DATA_OPTION_PROGRAMS``: echo, grep, cat…), a shell or interpreter named before the
  written file starts a command that reads it.  And a project runner runs a ``.py`` file
  with Python (``uv run s.py``, ``pdm run s.py``, ``pipx run s.py``, by their manuals).  So
  does a written file the template makes executable (``chmod +x``, ``chmod 755``,
  ``install``), given by its path: ``perl -e 'exec @ARGV' ./s.sh`` ran it (``watch ./s.sh``,
  ``pixi run ./s.sh`` by their manuals).  (``ip`` left ``PLAIN_OPTION_PROGRAMS``: ``ip netns
  exec n cmd`` runs cmd, ``ip -b f`` the commands of f.)
* Code that names the file: ``python3 -c 'exec(open("s.py").read())'``, ``python3 -c 'import
  s'``, ``python3 -m s``, ``runpy.run_path("s.py")``, ``perl -e 'do "./s.pl"'``, ``node -e
  'require("./s.js")'`` (or ``"./s"``, which node completes), ``php -r 'include
  "s.php";'``, awk's and perl's ``system("sh
  s.sh")``, sed's ``e sh s.sh``, gdb's ``shell sh s.sh``, make's ``--eval``, a git alias
  ``!sh s.sh`` each ran the value.  The renderer cannot read those languages, so now by
  allow-list a word that is code to its program (as :func:`code_argument` knows it) and names
  the written file's last part (or a written ``.py`` file's module, for Python) refuses the
  value.  A database shell's SQL stays readable (``select * from 'data.csv'`` reads data; its
  ``.read``/``\\i``/``source`` are the twelfth pass's).
* A file copied to a name a command substitution computes: ``mv s.sh "$(printf t.sh)"; sh
  t.sh`` ran the value.  Now such a name may be any name its fixed parts allow (``"log-$(date
  +%s).txt"`` is no ``t.sh``).
"""

from __future__ import annotations

import pathlib

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory, HOME there)
from test_shell_eleventh_pass import naive_quoting_runs
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_SHELL = 'touch "$HOME/pwned-sentinel"'
_PYTHON = 'open("pwned-sentinel", "w")'
_PERL = 'open(F, ">pwned-sentinel");'
_JS = 'require("fs").writeFileSync("pwned-sentinel", "")'
_PHP = '<?php touch("pwned-sentinel");'

# The commands find runs for the files it lists.
FIND = [
    "echo § > s.sh; find . -name '*.sh' -exec sh {} \\;",
    "echo § > s.sh; find . -name '*.sh' -exec bash {} +",
    "echo § > s.sh; find . -type f -name '*.sh' -execdir sh {} \\;",
    "echo § > s.sh; chmod +x s.sh; find . -name '*.sh' -exec {} \\;",
    "echo § > s.sh; find . -name '*.sh' -exec sh -c 'sh \"$1\"' sh {} \\;",
    "echo § > s.sh; find . -maxdepth 0 -exec sh -c 'sh s.sh' \\;",
    "echo § > s.sh; find . -name '*.sh' -exec sh -c 'sh {}' \\;",
    "echo § > s.sh; find . -name '*.sh' -exec bash -c '. {}' \\;",
]
# The names find lists, piped into a shell.
FIND_PIPED = [
    "echo § > s.sh; chmod +x s.sh; find . -type f | sh",
    "echo § > s.sh; chmod +x s.sh; find . -type f -exec grep -l touch {} + | sh",
]
# A runner that splits a word, a name a command substitution computes.
SPLIT = [
    "echo § > s.sh; env -S 'sh s.sh'",
    'echo § > s.sh; mv s.sh "$(printf t.sh)"; sh t.sh',
    'echo § > a; cp a "$(printf b).sh"; sh b.sh',
]
# A program the tables do not know, running a command made of its arguments.
ARGUMENTS = [
    "echo § > s.sh; perl -e 'exec @ARGV' sh s.sh",
    "echo § > s.sh; python3 -c 'import os, sys; os.execvp(sys.argv[1], sys.argv[1:])' sh s.sh",
    "echo § > s.sh; awk 'BEGIN { system(ARGV[1] \" \" ARGV[2]) }' sh s.sh",
]
ARGUMENTS_REFUSED = [  # by their manuals (no such program, or no terminal, in the tests)
    "echo § > s.sh; screen -dm sh s.sh",
    "echo § > s.sh; watch -n 1 sh s.sh",
    "echo § > s.sh; pixi run sh s.sh",
    "echo § > s.sh; cgexec -g cpu:x sh s.sh",
    "echo § > s.sh; ip netns exec n sh s.sh",
]
# A file the template makes executable, given by its path to such a program.
EXECUTABLE = [
    "echo § > s.sh; chmod +x s.sh; perl -e 'exec @ARGV' ./s.sh",
    "echo § > s.sh; chmod u+rx s.sh; perl -e 'system @ARGV' ./s.sh",
    "mkdir -p d; echo § > s.sh; install s.sh d/t; perl -e 'exec @ARGV' ./d/t",
]
EXECUTABLE_REFUSED = [  # by their manuals
    "echo § > s.sh; chmod +x s.sh; watch ./s.sh",
    "echo § > s.sh; chmod 755 s.sh; pixi run ./s.sh",
]
PYTHON_FILE_RUNNERS = [
    "echo § > s.py; uv run s.py",
    "echo § > s.py; uv run --with requests s.py",
    "echo § > s.py; pdm run s.py",
    "echo § > s.py; pipx run s.py",
]
# Code that names the file (case, payload, program).
CODE = [
    ("echo § > s.py; python3 -c 'exec(open(\"s.py\").read())'", _PYTHON, "python3"),
    ("echo § > s.py; python3 -c 'import s'", _PYTHON, "python3"),
    ("echo § > s.py; python3 -m s", _PYTHON, "python3"),
    ("echo § > s.py; python3 -c 'import runpy; runpy.run_path(\"s.py\")'", _PYTHON, "python3"),
    ("echo § > s.pl; perl -e 'do \"./s.pl\"'", _PERL, "perl"),
    ("echo § > s.js; node -e 'require(\"./s.js\")'", _JS, "node"),
    ("echo § > s.js; node -e 'require(\"./s\")'", _JS, "node"),
    ("echo § > s.php; php -r 'include \"s.php\";'", _PHP, "php"),
    ("echo § > s.sh; awk 'BEGIN { system(\"sh s.sh\") }'", _SHELL, "awk"),
    ("echo § > s.sh; perl -e 'system(\"sh s.sh\")'", _SHELL, "perl"),
    ("echo § > s.sh; echo a | sed 'e sh s.sh'", _SHELL, "sed"),
    ("echo § > s.sh; gdb -q -batch -ex 'shell sh s.sh'", _SHELL, "gdb"),
    ("echo § > s.sh; make -f /dev/null --eval 'x: ; sh s.sh' x", _SHELL, "make"),
    ("echo § > s.sh; git -c alias.x='!sh s.sh' x", _SHELL, "git"),
]

ACCEPTED = [
    "echo § > notes.txt; find . -name '*.txt' -exec cat {} \\;",
    "echo § > notes.txt; find . -name '*.txt' -exec wc -l {} +",
    "echo § > notes.txt; find . -name '*.txt' -exec sh -c 'wc -l {}' \\;",
    "echo § > notes.txt; find . -name '*.txt' | wc -l",
    "echo § > notes.txt; find . -name '*.txt' -exec cat {} + | sort",
    "echo § > notes.txt; find . -name '*.txt' -exec sh -c 'wc -l \"$1\"' sh {} \\;",
    "echo § > notes; env -S 'wc -l notes'",
    "echo § > notes.txt; find . -maxdepth 0 -exec sh -c 'cat notes.txt' \\;",
    "echo § > notes.txt; perl -ne 's/a/b/; print' notes.txt",
    "echo § > out.txt; echo 'wrote out.txt'",
    "echo § > out.txt; grep -c x out.txt",
    "echo § > out.txt; python3 -c 'print(1)' out.txt",
    "echo § > notes; python3 -c 'import sys; print(open(sys.argv[1]).read())' notes",
    "echo § > notes; perl -ne 'print' notes",
    "echo § > s.txt; perl -e 'print 1'",
    "echo § > data.csv; sqlite3 db \".import --csv data.csv t\"",
    "echo § > data.json; node -e 'console.log(1)' data.json",
    "echo § > s.sh; chmod 644 s.sh; perl -e 'print 1' ./s.sh",
    "echo § > s.sh; chmod +x s.sh; ls -l ./s.sh",
    "echo § > s.sh; chmod +x s.sh; cp ./s.sh ./t.txt",
    "echo § > \"log-$(date +%s).txt\"; printf 'echo hi' > run.sh; sh run.sh",
    "echo § > a; mv a \"$(printf b).txt\"; printf 'echo hi' > run.sh; sh run.sh",
    # find's tests read a file as data (its time, its inode), not as settings: these were
    # refused as "the argument of its option" before.
    "echo § > notes.txt; find . -newer notes.txt",
    "echo § > notes.txt; find . -name '*.py' -anewer notes.txt -print",
    "echo § > notes.txt; find . -samefile notes.txt",
]

REFUSALS = [
    *((case, r"written to the file 's\.sh'") for case in FIND),
    *((case, r"in a pipeline into sh, which reads it as code") for case in FIND_PIPED),
    (SPLIT[0], r"written to the file 's\.sh'"),
    *((case, r"written to the file '\$\(\.\.\.\)(\.sh)?'") for case in SPLIT[1:]),
    *((case, r"written to the file 's\.sh'") for case in ARGUMENTS),
    *(
        (case, r"written to the file 's\.sh', .* not known not to run")
        for case in ARGUMENTS_REFUSED
    ),
    *(
        (case, r"written to the file '[^']*', .* makes executable and gives to")
        for case in EXECUTABLE + EXECUTABLE_REFUSED
    ),
    *((case, r"written to the file 's\.py', .* runs a \.py file") for case in PYTHON_FILE_RUNNERS),
    *((case, r"written to the file 's\.\w+', .* names in code") for case, _, _ in CODE),
]


@pytest.mark.parametrize(("case", "message"), REFUSALS)
def test_each_attack_is_refused(case: str, message: str) -> None:
    with pytest.raises(RenderError, match=message):
        sh(_template(case, "x"))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", FIND + FIND_PIPED + SPLIT + ARGUMENTS + EXECUTABLE)
def test_naive_quoting_runs_each_attack(shell: str, case: str, tmp_path: pathlib.Path) -> None:
    assert _runs_payload(shell, naive_sh(_template(case, _SHELL)), tmp_path / "run")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "payload", "program"), CODE)
def test_naive_quoting_runs_each_file_the_code_names(
    shell: str, case: str, payload: str, program: str, tmp_path: pathlib.Path
) -> None:
    assert naive_quoting_runs(shell, case, payload, program, tmp_path / "run")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", ACCEPTED)
def test_look_alikes_stay_accepted_and_run_nothing(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    assert not _runs_payload(shell, sh(_template(case, _SHELL)), tmp_path / "run")
