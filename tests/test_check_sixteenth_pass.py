"""The check's sixteenth pass: validated values in a role the renderer refuses, comprehension
guards, click's converted parameters, Airflow's SQL operators.

1. **A validated value in a role the renderer refuses whatever its characters.** A value a check
   left one of a set of constants or a string of a plain pattern's cannot break out of its
   place, so its f-string was no finding (as one of the code's own constants, a ``git checkout``
   of which names the project's own tree, still is); yet ``sh`` refuses ``git checkout {ref}``
   (git runs the hooks of the tree it wrote when core.hooksPath is in it, husky's ``.husky``:
   the twenty-fourth shell pass) and ``sql`` refuses ``select * from {fn}()`` (the value chooses
   the function that runs) and ``set {k} = ...`` (the setting). For an f-string into a shell or
   SQL sink whose values are constants and validated names (one at least), the check now builds
   the template the i-string would be, with ``main`` where each validated value stands, and
   reports the renderer's reason when it refuses. Refusals of where a field is written (inside
   written quotes or a comment, glued to a word), which a validated value survives, and those
   whose remedy is a check of the value the code made (kill's positive process id) stay no
   finding. Positive controls: real dash and bash run the husky hook's marker through ``git
   checkout`` of a ref the pattern allows; sqlite3 runs the function a ``\\w+`` value names. The
   role is asked only after a validation (never for the usual f-string). The brief's
   ``re.fullmatch(r"[\\w.-]+", ref)`` is a finding already (``-`` may come first: an option), as
   before this pass.
2. **Comprehension guards** (held-out 9's ``duckdb_header_columns_validated``):
   ``[c for c in header if IDENT.fullmatch(c)]`` holds checked names; ``if not all(P(c) for c
   in xs): raise`` and ``if any(not P(c) for c in xs): raise`` check each of ``xs``; so does
   ``bad = [c for c in xs if not P(c)]`` right before ``if bad: raise`` (one block, nothing
   between but blank lines and comments: neither name can be bound anew).  Look-alikes stay
   findings: a filter that keeps the failures, ``re.search``, ``all`` bound anew, a branch that
   goes on, the list bound in another block or the names bound between.
3. **click's converted parameters**: ``type=click.Choice([...])`` (constants),
   ``type=int``/``float``/``click.IntRange(...)``, ``is_flag=True``, on a function a click
   command or group decorator wraps; not ``multiple``, ``nargs``, ``callback``, a choice of
   values the code does not know, or ``int`` bound anew.
4. **Airflow's SQL operators** (``SQLExecuteQueryOperator(sql=f"...")``, PostgresOperator...)
   are sinks, as BashOperator was.
5. held-out 9's ``docker_push_regex_validated_tag`` stays a finding, decided: ``repo`` is a
   ``str`` parameter of a public function, which an importer may call with anything; a leading
   underscore is a convention, not a proof either.
6. Twenty cases of :mod:`check_corpus.pass16`.
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest
from check_corpus import score
from check_corpus.pass16 import PASS16
from test_shell_contexts import SHELLS
from test_shell_twenty_fourth_pass import _prepare_husky
from test_shell_twenty_second_pass import SENTINEL

from ipy_istring.check import find_unsafe_calls, flow
from ipy_istring.check.fix import fixed_line
from ipy_istring.check.scan import check_file

HEAD = "import os, re, subprocess, sys, sqlite3, psycopg2\ncur = sqlite3.connect('a.db').cursor()\n"
WORD = "x = sys.argv[1]\nif not re.fullmatch(r'[a-z][a-z0-9-]*', x):\n    raise SystemExit(2)\n"
PLAIN = "x = sys.argv[1]\nif not re.fullmatch(r'\\w+', x):\n    raise SystemExit(2)\n"
CHOICE = "x = sys.argv[1]\nif x not in ('main', 'dev'):\n    raise SystemExit(2)\n"

# 1. Roles the renderer refuses ---------------------------------------------------------------

_GIT = "in a git command that writes the working tree"
ROLE_REFUSED = {
    "git checkout, a shell word": (WORD + "os.system(f'git checkout {x}')", _GIT),
    "git checkout, \\w+": (PLAIN + "os.system(f'git checkout {x}')", _GIT),
    "git pull, a pattern's": (PLAIN + "subprocess.run(f'git pull origin {x}', shell=True)", _GIT),
    "git merge in a helper's check": (
        "def ensure(r):\n    if not re.fullmatch(r'\\w+', r):\n        raise ValueError(r)\n"
        "x = sys.argv[1]\nensure(x)\nos.system(f'git merge {x}')",
        _GIT,
    ),
    "the function a query calls": (
        PLAIN + "cur.execute(f'select * from {x}()')",
        "is the name of the function called",
    ),
    "a setting's name": (
        "x = sys.argv[1]\nif not x.isidentifier():\n    raise SystemExit(2)\n"
        "psycopg2.connect('').cursor().execute(f\"set {x} = 'on'\")",
        "names the setting to change",
    ),
    "each item of a checked list": (
        "xs = sys.argv[1:]\nif not all(re.fullmatch(r'\\w+', r) for r in xs):\n"
        "    raise SystemExit(2)\nfor r in xs:\n    os.system(f'git switch {r}')",
        _GIT,
    ),
}


@pytest.mark.parametrize("case", list(ROLE_REFUSED))
def test_a_validated_value_in_a_role_the_renderer_refuses_is_a_finding(case: str) -> None:
    code, reason = ROLE_REFUSED[case]
    (finding,) = find_unsafe_calls(HEAD + code)
    assert reason in finding.refused
    assert "values were validated, but in a role the renderer refuses" in finding.message()
    assert reason in finding.message()


ROLE_ACCEPTED = {
    "git with its hooks off": WORD + "os.system(f'git -c core.hooksPath=/dev/null checkout {x}')",
    "a branch git only fetches": PLAIN + "os.system(f'git fetch origin {x}')",
    "a plain operand": PLAIN + "os.system(f'ls -l /srv/{x}')",
    "a service name": WORD + "os.system(f'systemctl restart {x}.service')",
    "inside written quotes (shell)": PLAIN + "os.system(f\"grep -r '{x}' /etc\")",
    "a table": PLAIN + "cur.execute(f'select count(*) from {x}')",
    "glued to a word": PLAIN + "cur.execute(f'select * from {x}_archive')",
    "inside a SQL string": PLAIN + "cur.execute(f\"select * from t where a = '{x}'\")",
    "in a comment": PLAIN + "cur.execute(f'select 1 -- {x}')",
    "a value of a comparison": PLAIN + "cur.execute(f'select * from t where a = {x}')",
    "kill's digits": "x = sys.argv[1]\nif not x.isdigit():\n    raise SystemExit(2)\n"
    "os.system(f'kill {x}')",
    "a constant alone": "REF = 'main'\nos.system(f'git checkout {REF}')",
    # (one of the code's own refs, as the constant alone: the tree is the project's)
    "one of the code's constants": CHOICE + "os.system(f'git checkout {x} && make docs')",
    "the static text a placeholder to sqlite": PLAIN
    + "cur.execute(f'copy into {x} from @landing/{x}/')",
}


def test_a_role_finding_has_no_fix_and_says_why() -> None:
    code = HEAD + WORD + "os.system(f'git checkout {x}')"
    (finding,) = find_unsafe_calls(code)
    fix = fixed_line(code, finding)
    assert fix.line is None
    assert fix.reason == f"the renderer refuses it: {finding.refused}"
    assert (finding.call, finding.destination) == ("os.system", "shell")


@pytest.mark.parametrize("case", list(ROLE_ACCEPTED))
def test_a_validated_value_in_a_role_the_renderer_takes_stays_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + ROLE_ACCEPTED[case]) == []


def test_the_renderer_is_asked_only_after_a_validation(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[object] = []
    monkeypatch.setattr(flow, "role_refusal", lambda *a: asked.append(a))
    code = "os.system(f'git checkout {REF}')\nos.system(f'ls {sys.argv[1]}')\n"
    assert len(find_unsafe_calls(HEAD + "REF = 'main'\n" + code)) == 1
    assert asked == []
    find_unsafe_calls(HEAD + PLAIN + "os.system(f'git checkout {x}')")
    assert len(asked) == 1


@pytest.mark.parametrize("shell", SHELLS)
def test_positive_control_git_runs_the_hook_of_a_validated_ref(
    shell: str, tmp_path: Path
) -> None:
    """The f-string's command, with a ref ``[a-z][a-z0-9-]*`` allows, runs the hook that
    the ref's tree holds (husky's core.hooksPath); with the hooks off it runs none."""
    import re

    _prepare_husky(tmp_path)
    ref = "evil"
    assert re.fullmatch(r"[a-z][a-z0-9-]*", ref)
    off = f"git -c core.hooksPath=/dev/null checkout -q {ref}"
    subprocess.run([shell, "-c", off], cwd=tmp_path, check=True, capture_output=True)
    assert not (tmp_path / SENTINEL).exists()
    back = ["git", "-c", "core.hooksPath=/dev/null", "checkout", "-q", "main"]
    subprocess.run(back, cwd=tmp_path, check=True, capture_output=True)
    assert not (tmp_path / SENTINEL).exists()
    subprocess.run([shell, "-c", f"git checkout -q {ref}"], cwd=tmp_path, capture_output=True)
    assert (tmp_path / SENTINEL).exists()
    (finding,) = find_unsafe_calls(HEAD + WORD + "os.system(f'git checkout -q {x}')")
    assert _GIT in finding.refused
    assert find_unsafe_calls(HEAD + WORD + f"os.system(f'{off[:-4]}{{x}}')") == []


def test_positive_control_sqlite_runs_the_function_a_validated_name_names() -> None:
    """``\\w+`` allows ``pragma_database_list``: the query then calls the function the value
    chose, and returns what it returns (the connection's database files)."""
    import re

    fn = "pragma_database_list"
    assert re.fullmatch(r"\w+", fn)
    con = sqlite3.connect(":memory:")
    assert con.execute(f"select * from {fn}()").fetchall() == [(0, "main", "")]


# 2. Comprehension guards ----------------------------------------------------------------------

IDENT = "IDENT = re.compile(r'[a-z_][a-z0-9_]{0,62}')\nheader = sys.argv[1:]\n"
USE = "cur.execute(f\"create table t ({', '.join(header)})\")"
GUARDED = {
    "a filter of the pattern": "cols = [c for c in header if re.fullmatch(r'\\w+', c)]\n"
    "cur.execute(f\"create table t ({', '.join(cols)})\")",
    "not all(...): raise": f"if not all(IDENT.fullmatch(c) for c in header):\n    raise "
    f"ValueError(header)\n{USE}",
    "any(not ...): raise": f"if any(not IDENT.fullmatch(c) for c in header):\n    raise "
    f"ValueError(header)\n{USE}",
    "bad = [...]; if bad: raise": "bad = [c for c in header if not IDENT.fullmatch(c)]\n"
    f"if bad:\n    raise ValueError(bad)\n{USE}",
    "a comment between": "bad = [c for c in header if not IDENT.fullmatch(c)]  # odd\n\n"
    f"# refuse them\nif bad:\n    raise ValueError(bad)\n{USE}",
    "held-out 9's, quoted in a generator": "bad = [c for c in header if not IDENT.fullmatch(c)]\n"
    "if bad:\n    raise ValueError(bad)\ncols = ', '.join(f'\"{c}\" VARCHAR' for c in header)\n"
    "cur.execute(f'create table if not exists uploads ({cols})')",
}
NOT_GUARDED = {
    "a filter that keeps the failures": "cols = [c for c in header if not re.fullmatch(r'\\w+',"
    " c)]\ncur.execute(f\"create table t ({', '.join(cols)})\")",
    "re.search": "cols = [c for c in header if re.search(r'\\w+', c)]\n"
    "cur.execute(f\"create table t ({', '.join(cols)})\")",
    "any(...) of the passes": f"if any(IDENT.fullmatch(c) for c in header):\n    raise "
    f"ValueError(header)\n{USE}",
    "all bound anew": "all = lambda xs: True\nif not all(IDENT.fullmatch(c) for c in header):\n"
    f"    raise ValueError(header)\n{USE}",
    "a branch that goes on": "if not all(IDENT.fullmatch(c) for c in header):\n    print(1)\n"
    + USE,
    "the names bound between": "bad = [c for c in header if not IDENT.fullmatch(c)]\n"
    f"header = sys.argv\nif bad:\n    raise ValueError(bad)\n{USE}",
    "the list bound in another block": "bad = []\nif len(header) > 2:\n"
    "    bad = [c for c in header if not IDENT.fullmatch(c)]\n"
    f"if bad:\n    raise ValueError(bad)\n{USE}",
    "the list of the passes": "bad = [c for c in header if IDENT.fullmatch(c)]\n"
    f"if bad:\n    raise ValueError(bad)\n{USE}",
    "a pattern that lets anything through": "bad = [c for c in header if not re.fullmatch("
    f"r'.+', c)]\nif bad:\n    raise ValueError(bad)\n{USE}",
}


@pytest.mark.parametrize("case", list(GUARDED))
def test_a_comprehension_guard_checks_each_name(case: str) -> None:
    assert find_unsafe_calls(HEAD + IDENT + GUARDED[case]) == []


@pytest.mark.parametrize("case", list(NOT_GUARDED))
def test_a_comprehension_guard_look_alike_stays_a_finding(case: str) -> None:
    assert len(find_unsafe_calls(HEAD + IDENT + NOT_GUARDED[case])) == 1


# 3. click's converted parameters -------------------------------------------------------------

CLICK = "import click\n@click.command()\n"
CLICK_SAFE = {
    "a choice": '@click.option("--env", type=click.Choice(["dev", "prod"]))\n'
    'def main(env):\n    os.system(f"make deploy-{env}")\n',
    "a choice of a constant list": '@click.option("--env", type=click.Choice(ENVS))\n'
    'def main(env):\n    os.system(f"make deploy-{env}")\n',
    "an int": '@click.option("--port", type=int, default=8000)\n'
    'def main(port):\n    os.system(f"fuser -k {port}/tcp")\n',
    "an IntRange argument": '@click.argument("n", type=click.IntRange(1, 9))\n'
    'def main(n):\n    os.system(f"seq {n}")\n',
    "a flag": '@click.option("--dry-run", is_flag=True)\n'
    'def main(dry_run):\n    os.system(f"make DRY={dry_run}")\n',
    "a declared name": '@click.option("-e", "--env", "target", type=click.Choice(["a"]))\n'
    'def main(target):\n    os.system(f"make {target}")\n',
    "a choice of the code's refs, checked out": '@click.option("--ref", type=click.Choice(["a"]))\n'
    'def main(ref):\n    os.system(f"git checkout {ref}")\n',
}
CLICK_FINDINGS = {
    "a str": '@click.option("--env", type=str)\ndef main(env):\n    os.system(f"make {env}")\n',
    "no type": '@click.argument("name")\ndef main(name):\n    os.system(f"createdb {name}")\n',
    "multiple": '@click.option("--env", multiple=True, type=click.Choice(["a"]))\n'
    'def main(env):\n    os.system(f"make {env}")\n',
    "a callback": '@click.option("--n", type=int, callback=lambda c, p, v: sys.argv[1])\n'
    'def main(n):\n    os.system(f"seq {n}")\n',
    "a choice of argv": '@click.option("--env", type=click.Choice(sys.argv))\n'
    'def main(env):\n    os.system(f"make {env}")\n',
    "another parameter": '@click.option("--port", type=int)\n@click.argument("host")\n'
    'def main(port, host):\n    os.system(f"ssh {host} -p {port}")\n',
}


@pytest.mark.parametrize("case", list(CLICK_SAFE))
def test_a_parameter_click_converts_is_no_finding(case: str) -> None:
    code = HEAD + "ENVS = ['dev', 'prod']\n" + CLICK + CLICK_SAFE[case]
    assert find_unsafe_calls(code) == []


@pytest.mark.parametrize("case", list(CLICK_FINDINGS))
def test_a_click_parameter_left_as_text_stays_a_finding(case: str) -> None:
    assert len(find_unsafe_calls(HEAD + CLICK + CLICK_FINDINGS[case])) == 1


@pytest.mark.parametrize(
    "code",
    [
        "import click\n@click.option('--port', type=int)\n"
        "def main(port):\n    os.system(f'fuser -k {port}/tcp')\nmain(sys.argv[1])\n",
        "int = str\nimport click\n@click.command()\n@click.option('--port', type=int)\n"
        "def main(port):\n    os.system(f'fuser -k {port}/tcp')\n",
    ],
    ids=["no command decorator", "int bound anew"],
)
def test_a_click_look_alike_stays_a_finding(code: str) -> None:
    assert len(find_unsafe_calls(HEAD + code)) == 1


# 4. Airflow's SQL operators ------------------------------------------------------------------

AIRFLOW = [
    ("common.sql.operators.sql", "SQLExecuteQueryOperator"),
    ("postgres.operators.postgres", "PostgresOperator"),
    ("sqlite.operators.sqlite", "SqliteOperator"),
]


@pytest.mark.parametrize(("module", "name"), AIRFLOW)
def test_an_airflow_sql_operator_is_a_sink(module: str, name: str) -> None:
    code = (
        f"import os\nfrom airflow.providers.{module} import {name}\nday = os.environ['DAY']\n"
        f"q = {name}(task_id='q', sql=f\"delete from t where day = '{{day}}'\")\n"
    )
    (finding,) = find_unsafe_calls(code)
    assert finding.destination == "sql"
    bound = code.replace("f\"delete from t where day = '{day}'\"", "'delete from t where day = %s'")
    assert find_unsafe_calls(bound) == []


# 6. The pass's corpus ------------------------------------------------------------------------


def test_the_pass_corpus_scores_whole(tmp_path: Path) -> None:
    for case in PASS16:
        case.write(tmp_path)
    flagged = {p.stem for p in tmp_path.iterdir() if check_file(p).findings}
    result = score(flagged, PASS16)
    assert (result.missed, result.false_alarms) == ((), ())
    assert (result.vulnerable, result.safe) == (10, 10)
