"""sh(): a value choosing the directory of a program that runs that directory's code unnamed.

The twenty-fifth pass refused a directory a value gives ``cd`` (or ``pushd``, ``env -C``,
find's starting point before ``-execdir``) in a template that runs git, which obeys the
repository's own .git/config.  Other programs run code of the directory they work in without
a word of the template naming it, and the old render (each value through ``shlex.quote``, what
sh() gave for these templates) let a value choose it.  With a directory ``hostile`` holding a
``json.py``, an ``http/`` package, a ``pip/`` package and a ``node_modules`` whose ``lodash``
and ``.bin/prettier`` make a sentinel, each of these made it in real dash and bash:

* Python with ``-c``, ``-m``, ``-`` or no script, which puts its working directory first on
  sys.path: ``cd {d} && python3 -c 'import json'``, ``python3 -m json.tool data.json``,
  ``python3 -m http.server --help``, ``python3 -m pip --version``, ``echo 'import json' |
  python3``, behind ``timeout 5 nice``, inside ``sh -c '…'``, and with ``env -C {d}`` and
  ``find {d} -name data.json -execdir python3 -m json.tool {} \\;``;
* node with ``-e`` or ``-p``, which resolves ``require("lodash")`` from the directory's
  node_modules, and npx, which runs its node_modules/.bin (``npx prettier --version``).

They are refused now (:func:`ipy_istring._shell_programs.directory_code_reader`), and by their
manuals so are IPython (but with ``--ignore-cwd``), hg (a repository's .hg/hgrc hooks), R and
Rscript (``.Rprofile``; not with ``--vanilla``), irb (``.irbrc``; not with ``-f``) and yarn
(``.yarnrc.yml``'s yarnPath), none installed here.  A wrapper (``uv run``, ``conda run``,
``strace``) is judged by the command it runs, and that closes the same gap for git: ``cd {d} &&
uv run git status`` was accepted.  Accepted and run, making no sentinel: Python
with ``-I`` (and by Python's manual ``-P``), a script of its own (whose directory, not the
working one, comes first on sys.path), node given a script, and programs that run no code of
the directory (``cat``); ``cd {d} && make`` and ``cd {d} && ./run`` stay accepted as documented
(the template runs the directory's own program, as ``sh {f}`` runs the file a value names).
"""

from __future__ import annotations

import pathlib
import shutil

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_twentieth_pass import _run, _template

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

SENTINEL = "pwned-by-directory-code"
_REFUSED = "which runs code of that directory that no word of the template names"
_MAKE_SENTINEL_PY = f"open('../{SENTINEL}', 'w').close()\n"
_MAKE_SENTINEL_JS = f"require('fs').writeFileSync('../{SENTINEL}', '')\n"


def _prepare(where: pathlib.Path) -> None:
    """``where/hostile``: modules named after the standard library's and node packages that
    make the sentinel in ``where`` (they run with ``hostile`` as the working directory), and a
    ``data.json``; ``where/tool.py`` and ``where/app.js``, scripts of the author's own that
    import json and try to require lodash."""
    hostile = where / "hostile"
    for package in ("http", "pip"):
        (hostile / package).mkdir(parents=True)
        (hostile / package / "__init__.py").write_text(_MAKE_SENTINEL_PY)
    (hostile / "pip" / "__main__.py").write_text("")
    (hostile / "json.py").write_text(_MAKE_SENTINEL_PY)
    (hostile / "data.json").write_text("{}\n")
    (hostile / "node_modules" / "lodash").mkdir(parents=True)
    (hostile / "node_modules" / "lodash" / "index.js").write_text(_MAKE_SENTINEL_JS)
    (hostile / "node_modules" / ".bin").mkdir()
    prettier = hostile / "node_modules" / ".bin" / "prettier"
    prettier.write_text(f"#!/bin/sh\ntouch ../{SENTINEL}\n")
    prettier.chmod(0o755)
    (where / "tool.py").write_text("import json\nprint(json.dumps({}))\n")
    (where / "app.js").write_text("try { require('lodash') } catch (e) {}\n")


def _needs(program: str) -> None:
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed")


REFUSED_CASES = [
    # (template: § is the directory, a program that must be installed)
    ("cd § && python3 -c 'import json'", "python3"),
    ("cd § && python3 -m json.tool data.json", "python3"),
    ("cd § && python3 -m http.server --help >/dev/null", "python3"),
    ("cd § && python3 -m pip --version", "python3"),
    ("cd § && python3 -W ignore -c 'import json'", "python3"),
    ("cd §; echo 'import json' | python3", "python3"),
    ("cd § && echo 'import json' | python3 -", "python3"),
    ("cd § && timeout 5 nice python3 -m json.tool data.json", "python3"),
    ("cd § && sh -c 'python3 -m json.tool data.json'", "python3"),
    ("env -C § python3 -m json.tool data.json", "python3"),
    ("find § -name data.json -execdir python3 -m json.tool {} \\;", "python3"),
    ("cd § && node -e 'require(\"lodash\")'", "node"),
    ("cd § && node -p 'require(\"lodash\")'", "node"),
    ("cd § && npx prettier --version", "npx"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, needed", REFUSED_CASES)
def test_the_old_render_ran_the_directory_code_and_sh_refuses_it(
    shell: str, case: str, needed: str, tmp_path: pathlib.Path
) -> None:
    _needs(needed)
    _prepare(tmp_path)
    _run(shell, naive_sh(_template(case, "hostile")), tmp_path)
    assert (tmp_path / SENTINEL).exists(), case  # (the positive control)
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template(case, "hostile"))


def test_pushd_in_bash_is_refused_too(tmp_path: pathlib.Path) -> None:
    case = "pushd § >/dev/null && python3 -c 'import json'"
    _prepare(tmp_path)
    _run("/bin/bash", naive_sh(_template(case, "hostile")), tmp_path)
    assert (tmp_path / SENTINEL).exists()
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template(case, "hostile"))


@pytest.mark.parametrize(
    "case",
    [
        "cd § && ipython -c 'import json'",
        "cd § && ipython3 x.ipy",
        "cd § && hg status",
        "cd § && Rscript x.R",
        "cd § && R -e 'summary(1)'",
        "cd § && irb",
        "cd § && yarn install",
        "cd § && pypy3 -m json.tool data.json",
        "cd § && python3.12 -m venv env",
        "cd § && python3 -X dev -m json.tool data.json",
        "cd § && node",
        "cd § && node -r ./hook app.js",
        "cd § && node --import=./hook.mjs app.js",
        "cd § && sudo python3 -m http.server",
        # (behind a wrapper, judged by the command it runs, git's too)
        "cd § && uv run python -m json.tool data.json",
        "cd § && conda run -n base python -c 1",
        "cd § && strace -f -o log python3 -c 1",
    ],
)
def test_programs_that_run_the_directory_code_by_their_manuals_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=_REFUSED):
        sh(_template(case, "hostile"))


@pytest.mark.parametrize("case", ["cd § && uv run git status", "cd § && conda run git log"])
def test_git_behind_a_wrapper_is_refused_for_its_repository(case: str) -> None:
    with pytest.raises(RenderError, match=r"whose own settings \(\.git/config\)"):
        sh(_template(case, "hostile"))


def test_the_refusal_names_the_program_and_the_fix() -> None:
    with pytest.raises(RenderError, match=r"current for python, which runs code") as raised:
        sh(_template("cd § && python3 -m http.server", "hostile"))
    assert "python3 -P (or -I) does not import from the directory" in str(raised.value)


ACCEPTED_CASES = [
    # (template, a program that must be installed)
    ("cd § && python3 -I -c 'import json'", "python3"),
    ("cd § && python3 -I -m json.tool data.json", "python3"),
    ("cd § && python3 ../tool.py", "python3"),
    ("cd § && node ../app.js", "node"),
    ("cd § && cat data.json", "cat"),
    ("cd § && ls", "ls"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, needed", ACCEPTED_CASES)
def test_programs_that_run_no_code_of_the_directory_stay_accepted(
    shell: str, case: str, needed: str, tmp_path: pathlib.Path
) -> None:
    _needs(needed)
    _prepare(tmp_path)
    done = _run(shell, sh(_template(case, "hostile")), tmp_path)
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / SENTINEL).exists(), case


@pytest.mark.parametrize(
    "case",
    [
        "cd § && python3 -P -m http.server",
        "cd § && python3 -IW ignore -c 1",
        "cd § && python3 -- tool.py",
        "cd § && python3 -Wignore /opt/tool.py",
        "cd § && ipython --ignore-cwd -c 1",
        "cd § && Rscript --vanilla x.R",
        "cd § && irb -f",
        "cd § && node --title t /opt/app.js",
        "cd § && make",  # (the directory's own program: out of scope, as documented)
        "cd § && ./run",
        "cd § && uv run pytest",
        "cd § && poetry run python tool.py",
        "python3 -m http.server --directory §",
    ],
)
def test_other_spellings_stay_accepted(case: str) -> None:
    sh(_template(case, "hostile"))
