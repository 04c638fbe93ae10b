"""sh() and argv(): hostile contexts of the twentieth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A value where a runner's command starts, while the runner still reads options there: ``env
  {x} true`` with ``-Stouch f`` (``env -i {x}``, ``env -u X {x} true``) ran touch, env's
  ``-S`` splitting the value into a command; so did ``for c in {x}; do env "$c" true; done``,
  ``set -- {x}; env "$1" true``, ``env "$(echo {x})" true`` and ``sh -c 'env "$1" true' sh
  {x}``.  The value was taken for the command's name, which the runners' own option check
  never saw; now a runner (``env``, ``sudo``, ``nice``, ``timeout``, ``xargs``...) is the
  program that reads it as an option there (``sudo {x} cmd`` with ``-s`` is the same by
  sudo's manual).  Held: after ``--`` or ``env NAME=value`` the value is the command's name
  (``env -- {x} true`` ran no command ``-S…``), and a command name never starts with ``-``.
* A pipe of a value into a program whose file of code another value names: ``printf '%s\\n'
  {code} | sh {script}`` with ``-`` or ``/dev/stdin`` (also ``bash``, ``python3``, ``perl``,
  ``make -f {f}``, ``awk -f {f}``, ``sed -f {f}``, ``curl -K {f}``, ``psql -f {f}``,
  ``less -k {f}``) ran the piped value as code: a value in the script's place was taken for
  a file, never for the standard input.  Now by allow-list: a value may not reach the pipe of
  a program whose file of code or settings a value names (the renderer cannot list every name
  of the standard input: ``/dev/fd/0``, ``/proc/self/fd/0``, ``//dev/stdin``...).
* A written file named by a value: ``echo {x} > s.sh; sh {y}`` with ``s.sh`` (also ``. {y}``,
  ``bash -- {y}``, ``make -f {y}``, ``awk -f {y}``, ``ssh -F {y}``, ``sh < {y}``, and ``{y}
  s.sh`` with ``sh``, a value as the command given the file) ran the value: the twelfth pass
  compared the names written in the text, and a value's word was no name.  Now a value may
  name any file, as an expansion may (but in the arguments of a program known to run
  nothing: ``cat {f}``).
* A file whose name is a value and whose contents another value gives: ``echo {x} > {f};
  sh s.sh`` with ``s.sh`` (also ``… | tee {f}``, and ``{f}`` ``Makefile`` before ``make``,
  ``~/.profile`` before ``bash -l``) ran the value: only a target written in the static text
  was recorded.  Now such a file may be any file, in the working directory or under a hidden
  name in ``$HOME``, checked as those are (a name with static contents stays accepted:
  ``echo hello > {f}; sh s.sh`` runs no value).

Tried and held (kept below as accepted cases, or refused before this pass): the wrappers'
command strings (``flock f -c``, ``script -c``, ``su -c``, ``watch``, ``env -S``), the
value as a runner's command name (``timeout 5 {x}``, ``nohup {x}``: a command, not code),
``flock f {x}`` with ``-c…`` (flock stops reading options at its file), here-documents and
arithmetic (refused: the lexer stops), ``compgen -W``, bash's ``exit``/``return``/``shift``/
``read -t``/``wait``/``pushd`` with ``a[$(cmd)]`` (no arithmetic evaluation), ``printf {x}``
with ``-va[$(cmd)]`` (refused as printf's format), tar's ``-T`` list (tar accepts only a few
options there, none that runs a command), and ``wget --config /dev/stdin`` fed by a pipe (wget
refuses a config it cannot read twice; from a written file it is the seventh pass's).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest
from conftest import require
from test_shell_contexts import SHELLS, naive_sh

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh
from ipy_istring.template import Interpolation, InterpolationTemplate

SENTINEL = "pwned-by-20"
_TOUCH = f"touch {SENTINEL}"


def _template(case: str, *values: str) -> InterpolationTemplate:
    """``case`` with its n-th § a field holding ``values[n]`` (the last one repeated)."""
    pieces = case.split("§")
    parts: list[object] = [pieces[0]]
    for n, piece in enumerate(pieces[1:]):
        parts += [Interpolation(values[min(n, len(values) - 1)], f"v{n}"), piece]
    return InterpolationTemplate(*parts)  # type: ignore[arg-type]


def _run(shell: str, command: str, where: pathlib.Path) -> subprocess.CompletedProcess[str]:
    home = where / "home"
    home.mkdir(exist_ok=True)
    return subprocess.run(
        [shell, "-c", command], cwd=where, capture_output=True, text=True, timeout=60,
        check=False, stdin=subprocess.DEVNULL,
        env={"PATH": os.environ["PATH"], "HOME": str(home), "LC_ALL": "C"},
    )  # fmt: skip


def _ran(shell: str, command: str, where: pathlib.Path) -> bool:
    """Whether ``command`` made the sentinel file in ``where`` (or its home)."""
    where.mkdir(parents=True, exist_ok=True)
    _run(shell, command, where)
    return (where / SENTINEL).exists() or (where / "home" / SENTINEL).exists()


# -- a runner reads a value starting with '-' as its own option --------------------------------

_SPLIT = f"-S{_TOUCH}"

RUNNER_OPTION_CASES = [
    "env § true",
    "env §",
    "env -i § true",
    "env -u LANG § true",
    'for c in §; do env "$c" true; done',
    'set -- §; env "$1" true',
    'env "$(echo §)" true',
    "sh -c 'env \"$1\" true' sh §",
    "nice env § true",  # (env behind another runner)
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", RUNNER_OPTION_CASES)
def test_a_runners_option_from_a_value_is_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    # Positive control: the old render made env split the value into a command and run it.
    assert _ran(shell, naive_sh(_template(case, _SPLIT)), tmp_path), case
    with pytest.raises(RenderError, match="so env would read it as an option"):
        sh(_template(case, _SPLIT))


@pytest.mark.parametrize(
    "case, value",
    [
        ("env § true", _SPLIT),
        ("env -i § true", "--split-string=touch x"),
        ("sudo § true", "-s"),
        ("timeout 5 § true", "-k1"),
        ("nice § true", "-n5"),
        ("xargs § < list", "-a/etc/passwd"),
        ("stdbuf -o0 § true", "-i0"),
        ("chroot / § true", "--userspec=0"),
        ("docker exec c § true", "--privileged"),
    ],
)
def test_each_runner_refuses_an_option_where_its_command_starts(case: str, value: str) -> None:
    with pytest.raises(RenderError, match="would read it as an option"):
        sh(_template(case, value))
    if "<" not in case:
        with pytest.raises(RenderError, match="would read it as an option"):
            argv(_template(case, value))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", ["env -- § true", "env LC_ALL=C § true", "timeout 5 -- § x"])
def test_after_the_end_of_options_the_value_is_the_commands_name(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    """Held: env (and timeout) read no option after ``--`` or ``NAME=value``."""
    command = sh(_template(case, _SPLIT))
    assert not _ran(shell, command, tmp_path)
    assert "No such file" in _run(shell, command, tmp_path).stderr


@pytest.mark.parametrize(
    "case, value, words",
    [
        ("env § true", "printenv", ["env", "printenv", "true"]),
        ("timeout 5 § -l", "ls", ["timeout", "5", "ls", "-l"]),
        ("find . -exec § {} +", "-x", None),  # (-exec takes a name as it is)
        ("nohup § &", "x", None),
    ],
)
def test_a_command_name_from_a_value_stays_accepted(
    case: str, value: str, words: list[str] | None
) -> None:
    sh(_template(case, value))
    if words is not None:
        assert argv(_template(case, value)) == words


# -- a pipe into a program whose file of code a value names ------------------------------------

STDIN_CODE_CASES = [
    # (template, the piped value, the file's value)
    ("printf '%s\\n' § | sh §", _TOUCH, "-"),
    ("printf '%s\\n' § | sh §", _TOUCH, "/dev/stdin"),
    ("printf '%s\\n' § | bash -- §", _TOUCH, "/dev/stdin"),
    ("printf '%s\\n' § | python3 §", f"import os; os.system('{_TOUCH}')", "-"),
    ("printf '%s\\n' § | perl §", f"system('{_TOUCH}')", "/dev/stdin"),
    ("printf '%s\\n' § | make -s -f §", f"all:;@{_TOUCH}", "-"),
    ("printf '%s\\n' § | awk -f § /dev/null", f'BEGIN {{ system("{_TOUCH}") }}', "-"),
    ("printf '%s\\n' § | sed -n -f § f", f"1e {_TOUCH}", "/dev/stdin"),
    ("printf '%s\\n' § | env sh §", _TOUCH, "/proc/self/fd/0"),
    ("printf '%s\\n' § | timeout 5 sh §", _TOUCH, "/dev/fd/0"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("example", STDIN_CODE_CASES, ids=lambda e: " ".join(e))
def test_a_value_naming_the_pipe_as_the_code_file_is_refused(
    shell: str, example: tuple[str, str, str], tmp_path: pathlib.Path
) -> None:
    case, code, file = example
    require(shutil.which(case.split("| ")[1].split()[0]) is not None, "program not installed")
    (tmp_path / "f").write_text("line\n")
    # Positive control: the old render ran the piped value as the program's code.
    assert _ran(shell, naive_sh(_template(case, code, file)), tmp_path), case
    with pytest.raises(RenderError, match="whose file of code a value names"):
        sh(_template(case, code, file))


@pytest.mark.parametrize(
    "case",
    [
        "printf '%s\\n' § | curl -K § https://example.invalid/",
        "printf '%s\\n' § | psql -f §",
        "printf '%s\\n' § | less -k § f",
        "printf '%s\\n' § | python3 § arg",
        "printf '%s\\n' § | sh §",  # (a script's name too: it may be - )
    ],
)
def test_other_code_files_named_by_a_value_beside_a_pipe_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"file of code a value names.*/dev/stdin"):
        sh(_template(case, "x", "script.sh"))


@pytest.mark.parametrize(
    "case",
    [
        "printf '%s\\n' § | grep -- §",
        "printf '%s\\n' § | tee -- §",
        "printf '%s\\n' § | sort -o §",
        "printf '%s\\n' § | python3 s.py §",  # (after the script: its argument)
        "printf '%s\\n' § | sh -c 'cat > \"$1\"' sh §",
        "python3 § < data.txt",  # (no value in the pipe)
    ],
)
def test_a_value_beside_a_pipe_of_data_stays_accepted(case: str) -> None:
    sh(_template(case, "x", "out.txt"))


# -- a written file that a value names, or whose name is a value -------------------------------

WRITTEN_CASES = [
    # (template, the values, ...)
    ("echo § > s.sh; sh §", _TOUCH, "s.sh"),
    ("echo § > s.sh; . ./§", _TOUCH, "s.sh"),
    ("echo § > s.sh; bash -- §", _TOUCH, "s.sh"),
    ("echo § > s.sh; sh < §", _TOUCH, "s.sh"),
    ("echo § > s.sh; § s.sh", _TOUCH, "sh"),  # (a value as the command given the file)
    ("echo § > s.mk; make -s -f §", f"all:;@{_TOUCH}", "s.mk"),
    ("echo § > s.awk; awk -f § /dev/null", f'BEGIN {{ system("{_TOUCH}") }}', "s.awk"),
    ("echo § > §; sh s.sh", _TOUCH, "s.sh"),
    ("echo § | tee §; sh s.sh", _TOUCH, "s.sh"),
    ("echo § >> §; sh s.sh", _TOUCH, "s.sh"),
    ("echo § > §; make -s", f"all:;@{_TOUCH}", "Makefile"),
    ('echo § > "$HOME/"§; bash -lc true', _TOUCH, ".profile"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("example", WRITTEN_CASES, ids=lambda e: " ".join(e))
def test_a_written_file_named_by_a_value_is_refused(
    shell: str, example: tuple[str, ...], tmp_path: pathlib.Path
) -> None:
    case, *values = example
    # Positive control: the old render ran the value written to the file.
    assert _ran(shell, naive_sh(_template(case, *values)), tmp_path), case
    with pytest.raises(RenderError, match="written to the file"):
        sh(_template(case, *values))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    "case, values, files",
    [
        ("echo hello > §; cat s.sh", ["s.sh"], ["s.sh"]),  # (static contents)
        ("echo § > §", ["hello", "out.txt"], ["out.txt"]),
        ("echo § > §; cat §", ["hello", "out.txt"], ["out.txt"]),
        ("printf '%s\\n' § | tee §", ["hello", "out.txt"], ["out.txt"]),
        ("echo § > out.txt; wc -l §", ["hello", "out.txt"], ["out.txt"]),
        ("printf '%s\\n' hello | sort -o §; cat s.sh", ["s.sh"], ["s.sh"]),
        (  # (its own output: a program is no reader of the file it writes)
            "python3 -c 'import sys; print(sys.argv[1])' § > §",
            ["hello", "out.txt"],
            ["out.txt"],
        ),
    ],
)
def test_a_value_naming_a_file_of_data_stays_accepted(
    shell: str, case: str, values: list[str], files: list[str], tmp_path: pathlib.Path
) -> None:
    command = sh(_template(case, *values))
    done = _run(shell, command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert all((tmp_path / name).exists() for name in files)
