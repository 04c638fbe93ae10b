"""sh() red team, twelfth pass: a file a value was written to, run under another name.

Each hole was reproduced in real dash and bash (HOME a fresh directory), with a positive
control (the same template with each value through plain ``shlex.quote`` ran the payload),
then refused:

* A written file was followed only under the name it was written as (``./s.sh`` is
  ``s.sh``): the same file in another spelling ran the value — ``echo {x} > "$HOME/s.sh"; sh
  ~/s.sh`` (and the other way), ``echo {x} > s.sh; sh "$PWD/s.sh"``, ``. "$(pwd)/s.sh"``,
  ``> d/s.sh; cd d; sh s.sh`` — and so did a name the shell expands from the file system,
  which the template itself wrote: ``for f in *.sh; do sh "$f"; done``, ``sh s.s?``, ``sh
  */s.sh``, ``sh "$(ls)"``.  The directories before a file's name cannot be compared (a
  ``cd``, ``$HOME``, ``$PWD``), so now, by allow-list, a word whose last part is the written
  file's (``s.sh``), or one the shell expands (``$f``, ``*``, ``?``, ``[``, ``$( )``, bash's
  ``{a,b}``), may be that file.
* A written file's content was not followed when another command copied it: ``echo {x} > a;
  mv a b.sh; sh b.sh`` (also ``cp``, ``ln -s``, ``cat a > b.sh``, ``tr … < a > b.sh``, ``cat
  a | tee b.sh``) ran the value, and so did a pipe from a command reading the file: ``cat a
  | sh``, ``cat < a | sh``.  Now a command that reads a written file (it names it among its
  words, after a word's ``=``, or on ``<``) carries that file's values into what it writes and
  pipes on, as if they were its own.
* The file run or read by a command the tables follow only in part: behind a runner (``env
  ./s.sh``, ``timeout 5 ./s.sh``, ``nohup ./s.sh``, ``exec ./s.sh``: only a ``./s.sh`` that was
  the command's first word counted); on the input of a compound command (``{ sh; } < s.sh``,
  ``( sh ) < s.sh``, ``while …; do sh; …; done < s.sh``: the redirection after the closer was
  nobody's); through ``exec``'s redirections, which hold for every command after (``exec <
  s.sh; sh``, ``exec 3< s.sh; sh <&3``, ``… sh /dev/fd/3``); by the names ``xargs`` reads
  (``ls | xargs sh``, ``ls | xargs -I{} sh {}``); and by its name on PATH (``install t
  ~/bin/t; t``: Debian's ``~/.profile`` puts ``~/bin`` on PATH).  Now each is that command's:
  the command a runner runs, each command of the compound, every command for ``exec``, a name
  xargs gives as any file's, and a command named like a written file's last part.
* A file written through a variable that the text assigns a name (``f=s.sh; echo {x} >
  "$f"; sh s.sh``) was known only as ``$f``.  Now also by the values the text assigns it.
* The commands of a command string written in the static text were not followed for files:
  ``echo {x} > s.sh; eval 'sh s.sh'`` (also ``trap 'sh s.sh' EXIT``, ``sh -c 'sh s.sh'``) ran
  the value, and so did a file the string writes from its positional parameters or its input
  (``sh -c 'echo "$1" > s.sh' sh {x}; sh s.sh``, ``echo {x} | sh -c 'cat > s.sh'; sh
  s.sh``).  Now the string is lexed and its commands count as the template's; one the lexer
  does not follow (``case``) may run any written file.
* A file operand that is the program: ``echo {x} > s.m4; m4 s.m4`` ran ``syscmd()``, ``dc
  s.dc`` ran ``!cmd``, ``parallel :::: s.sh`` (no command) ran each line, as did ``… | m4
  /dev/stdin`` and ``… | parallel :::: /dev/stdin`` from a pipe (only ``-`` was known to be
  m4's and dc's input); ``tmux source-file f`` runs tmux commands (``run-shell``), by its
  manual.  Now each is a reader of its program there.
* Files that programs read by name in the working directory were a table
  (``_IMPLICIT_CODE_FILES``: Makefile, conftest.py, …): ``echo {x} > build.ninja; ninja`` ran
  the value's commands, and by their manuals docker build runs a Dockerfile's RUN lines,
  pre-commit its config's hooks, gradle build.gradle.  Now by allow-list, as for $HOME's
  files: beside a value written to a file in the working directory that no command names, a
  program not known to read no file there by name is refused (a file the text gives a
  command, ``mytool f``, is that command's data, as the seventh pass has it; and a program of
  the author's own, ``./process``, reads what the author gives it).
* A database shell's own command in the SQL text it is given: ``echo {x} > s.sql; sqlite3 db
  '.read s.sql'`` ran the file's ``.shell`` line; psql's ``\\i``, mysql's ``source``,
  duckdb's ``.read`` and a ``.load`` (code) are the same by their manuals.  Now the files
  those commands name are read as code.
"""

from __future__ import annotations

import pathlib
import subprocess

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_eighth_pass import _runs_payload  # (run in a fresh directory, HOME there)
from test_shell_eleventh_pass import naive_quoting_runs
from test_shell_fourth_pass import _template  # (a case with each § a field)

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_SHELL = 'touch "$HOME/pwned-sentinel"'

# Another spelling of the written file's name, or a name the shell expands.
SPELLINGS = [
    'echo § > "$HOME/s.sh"; sh ~/s.sh',
    'echo § > ~/s.sh; sh "$HOME/s.sh"',
    'echo § > s.sh; sh "$PWD/s.sh"',
    'echo § > s.sh; . "$(pwd)/s.sh"',
    'echo § > s.sh; chmod +x s.sh; "$PWD/s.sh"',
    "mkdir -p d; echo § > d/s.sh; cd d; sh s.sh",
    'echo § > s.sh; for f in *.sh; do sh "$f"; done',
    "echo § > s.sh; sh s.s?",
    "mkdir -p d; echo § > d/s.sh; sh */s.sh",
    'echo § > s.sh; sh "$(ls)"',
]
# The file's content carried on by a command that reads it.
COPIES = [
    "echo § > a; mv a b.sh; sh b.sh",
    "echo § > a; cp a b.sh; sh b.sh",
    "echo § > a; ln -s a b.sh; sh b.sh",
    "echo § > a; cat a > b.sh; sh b.sh",
    "echo § > a; tr -d Q < a > b.sh; sh b.sh",
    "echo § > a; cat a | tee b.sh > /dev/null; sh b.sh",
]
# The file given to a command through a runner, a compound command, exec, xargs or PATH.
RUN = [
    "echo § > s.sh; chmod +x s.sh; env ./s.sh",
    "echo § > s.sh; chmod +x s.sh; timeout 5 ./s.sh",
    "echo § > s.sh; chmod +x s.sh; nohup ./s.sh",
    "echo § > s.sh; chmod +x s.sh; exec ./s.sh",
    "echo § > s.sh; { sh; } < s.sh",
    "echo § > s.sh; ( sh ) < s.sh",
    "echo § > s.sh; while true; do sh; break; done < s.sh",
    "echo § > s.sh; exec < s.sh; sh",
    "echo § > s.sh; exec 3< s.sh; sh <&3",
    "echo § > s.sh; exec 3< s.sh; sh /dev/fd/3",
    "echo § > s.sh; ls | xargs sh",
    "echo § > s.sh; ls | xargs -I{} sh {}",
]
ON_PATH = [
    "mkdir -p ~/bin; echo § > t; install -m 755 t ~/bin/t; t",
    "mkdir -p ~/bin; echo § > ~/bin/t; chmod +x ~/bin/t; t",
]
# The file written through a variable the text assigns.
ASSIGNED = ['f=s.sh; echo § > "$f"; sh s.sh', 'f=s.sh; echo § > "${f}"; sh ./s.sh']
# The file written or run by a command string written in the static text.
STRINGS = [
    "echo § > s.sh; eval 'sh s.sh'",
    "echo § > s.sh; trap 'sh s.sh' EXIT",
    "echo § > s.sh; sh -c 'sh s.sh'",
    "sh -c 'printf %s \"$1\" > s.sh' sh §; sh s.sh",
    "echo § | sh -c 'cat > s.sh'; sh s.sh",
    "echo § > s.sh; sh -c 'case a in *) sh s.sh;; esac'",
]
# A file operand that is the program (case, payload, program).
_M4, _DC = "syscmd(touch pwned-sentinel)", "!touch pwned-sentinel"
OPERANDS = [
    ("echo § > s.m4; m4 s.m4", _M4, "m4"),
    ("echo § > s.dc; dc s.dc", _DC, "dc"),
    ("echo § > s.sh; parallel :::: s.sh", _SHELL, "parallel"),
    ("echo § | m4 /dev/stdin", _M4, "m4"),
    ("echo § | parallel :::: /dev/stdin", _SHELL, "parallel"),
]
# A file of the working directory that a program reads by its name alone.
_NINJA = "rule r\n  command = touch pwned-sentinel\nbuild x: r\n"
PROJECT = [("echo § > build.ninja; ninja", _NINJA, "ninja")]
PROJECT_REFUSED = [
    "echo § > Dockerfile; docker build .",
    "echo § > .pre-commit-config.yaml; pre-commit run",
]
# A file a database shell's own command reads as SQL and commands.
DATABASE = [("echo § > s.sql; sqlite3 db '.read s.sql'", ".shell touch pwned-sentinel", "sqlite3")]
DATABASE_REFUSED = [
    "echo § > s.sql; psql -c '\\i s.sql'",
    "echo § > s.sql; mysql -e 'source s.sql'",
    "echo § > s.sql; duckdb db '.read s.sql'",
    "echo § > x.so; sqlite3 -cmd '.load ./x.so' db .quit",
]
PIPED = ["echo § > a; cat a | sh", "echo § > a; cat < a | sh", "echo § > a; grep . a | bash"]

ACCEPTED = [
    "echo § > notes.txt; printf 'echo hi' > run.sh; sh run.sh",
    "echo § > notes.txt; cp notes.txt notes.bak; wc -l notes.bak",
    "echo § > data.csv; cat data.csv | wc -l",
    "echo § > a.txt; sort a.txt > sorted.txt; cat sorted.txt",
    "echo § > a.txt; cp a.txt ~; ls ~",
    'f=$(mktemp); echo § > "$f"; wc -l "$f"; rm -f "$f"',
    "echo § | xargs -I{} echo {}",
    "mkdir -p d; echo § > d/notes; cd d; cat notes",
    'echo § > data.txt; while read -r l; do echo "$l"; done < data.txt',
    'echo § > data.txt; exec 3< data.txt; while read -r l <&3; do echo "$l"; done',
    "echo § > f.txt; find . -name '*.txt' | xargs cat",
    "echo § > f.txt; ls | xargs rm -f",
    "echo § > notes; { cat; wc -l; } < notes",
    "echo § > f.txt; tar cf a.tar --exclude '*.o' .",
    'f=notes; echo § > "$f"; sh -c "cat notes"',
    "echo § > notes; sh -c 'wc -l notes'",
    "echo § > notes; trap 'rm -f notes' EXIT",
    "sh -c 'printf %s \"$1\" > notes; wc -c notes' sh §",
    "echo § > list; parallel echo :::: list",
    "echo § > notes; m4 -D X=1 /dev/null",
    "echo § > page.html; ./process page.html",
    "echo § > data.csv; mytool data.csv",
    "echo § > data.json; node -e 1 data.json",
    'echo § > "$HOME/notes"; ninja --version',
    "echo § > notes.csv; sqlite3 db '.import notes.csv t'",
]

REFUSALS = [
    *((case, r"written to the file '[^']*(s\.sh|a)'") for case in SPELLINGS),
    *((case, r"written to the file 'b\.sh'") for case in COPIES),
    *((case, r"written to the file 's\.sh'") for case in RUN),
    *((case, r"written to the file '[^']*t', .* on PATH") for case in ON_PATH),
    *((case, r"written to the file '\$\{?f\}?', .* sh to read as code") for case in ASSIGNED),
    ('f=Makefile; echo § > "$f"; make', r"by its name alone \(make "),
    *((case, r"written to the file 's\.sh'") for case in STRINGS),
    *((case, r"written to the file 's\.(m4|dc|sh)'") for case, _, _ in OPERANDS[:3]),
    *((case, r"in a pipeline into (m4|parallel ::::)") for case, _, _ in OPERANDS[3:]),
    ("echo § > s.conf; tmux source-file s.conf", r"written to the file 's\.conf'"),
    *(
        (case, r"in a command of its own that reads a file as SQL")
        for case in [c for c, _, _ in DATABASE] + DATABASE_REFUSED
    ),
    *(
        (case, r"by its name alone: no command names it, and (ninja|docker|pre-commit) is not")
        for case in [c for c, _, _ in PROJECT] + PROJECT_REFUSED
    ),
    *((case, r"in a pipeline into (sh|bash), which reads it as code") for case in PIPED),
]


@pytest.mark.parametrize(("case", "message"), REFUSALS)
def test_each_attack_is_refused(case: str, message: str) -> None:
    with pytest.raises(RenderError, match=message):
        sh(_template(case, "x"))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", SPELLINGS + COPIES + RUN + ASSIGNED + STRINGS + PIPED)
def test_naive_quoting_runs_each_attack(shell: str, case: str, tmp_path: pathlib.Path) -> None:
    assert _runs_payload(shell, naive_sh(_template(case, _SHELL)), tmp_path / "run")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("case", "payload", "program"), OPERANDS + PROJECT + DATABASE)
def test_naive_quoting_runs_each_program_file(
    shell: str, case: str, payload: str, program: str, tmp_path: pathlib.Path
) -> None:
    assert naive_quoting_runs(shell, case, payload, program, tmp_path / "run")


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", ON_PATH)
def test_naive_quoting_runs_a_program_written_to_a_directory_on_path(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # (PATH as Debian's ~/.profile makes it when ~/bin exists)
    subprocess.run(
        [shell, "-c", naive_sh(_template(case, _SHELL))],
        cwd=tmp_path,
        env={"PATH": f"{tmp_path}/bin:/usr/bin:/bin", "HOME": str(tmp_path)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=20,
    )
    assert (tmp_path / "pwned-sentinel").exists()


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", ACCEPTED)
def test_look_alikes_stay_accepted_and_run_nothing(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    assert not _runs_payload(shell, sh(_template(case, _SHELL)), tmp_path / "run")
