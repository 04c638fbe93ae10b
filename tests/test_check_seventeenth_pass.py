"""The check's seventeenth pass: the role check asks with the values a pattern allows besides
``main``, and follows an f-string bound to a name to the sink that runs it.

1. **A validated value whose pattern allows a dot, as a table name.** The sixteenth pass asked
   the renderer with one sample, ``main``; ``re.fullmatch(r"[\\w.]+", t)`` (or ``\\w+\\.\\w+``,
   ``\\w+\\.parquet``) also allows ``secret.csv``, and DuckDB reads a table name that is no
   table as a file: ``duckdb.sql(f"select * from {t}")`` returned the rows of the file
   ``secret.csv`` (positive control, real DuckDB), and ``sql`` refuses such a name in a query
   DuckDB may run.  The check now also asks with the values the pattern allows among ``.``,
   ``..``, ``a.b``, ``a.csv`` and its shortest value with a dot wherever it allows one (read
   from the pattern by re's parser), when ``main`` rendered (the place is no refusal's: only
   the value's characters are).  A refusal of such a sample whose remedy is a check of the
   value in Python, which the code did (ssh's destination ``..``), is no finding; ``\\w+``,
   a dotted value as an operand or a compared value stay no finding.  Tried and no miss: a
   ``-`` not first (``a-b``), digits (``0`` in kill: the sixteenth pass's decided case, a
   remedy the code did), keywords (``select``, ``null``): no template of seventy shell
   commands and thirty-three SQL statements refused one where it took ``main``, but ssh's
   dotted destination (held).
2. **The role of a value in an f-string bound to a name** (``cmd = f"git checkout {ref}"``,
   then ``subprocess.run(cmd, shell=True)``; ``query = f"select * from {fn}()"``, then
   ``execute(query)``) was not asked: only an f-string written in the call was.  The f-string
   of constants and validated names is now noted (after a validation only) and asked where
   its value runs; bound anew, it is not.  Positive control: the husky hook ran through the
   command so built, in dash and bash.
3. **A refusal of a hidden file in $HOME, for a value that cannot name one.** ``sh`` refuses
   ``git tag -s {v} ... && git push origin {v}``: git writes a file the value names, and git,
   after, is not known to read no hidden startup file from $HOME.  With 2 the bound form of
   held-out 7's ``h7_safe_semver_validated_tag`` (``v\\d+\\.\\d+\\.\\d+``) became a false alarm
   (the form written in the call was one since the sixteenth pass).  A value names a hidden
   file only with a leading dot (a plain pattern allows no ``/`` or ``~``): that refusal is a
   role's only when a sample the pattern allows starts with one (``[\\w.]+``: ``.npmrc``);
   else the commands up to each field's own are asked (``git checkout {ref} && make``: git's
   hooks, which the renderer reported second).  Control: real git writes the tag ``v1.2.3``
   under .git/refs/tags, no file of the directory or of $HOME.
4. Eight cases of :mod:`check_corpus.pass17`.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest
from check_corpus import score
from check_corpus.pass17 import PASS17
from test_check_sixteenth_pass import _GIT, HEAD, PLAIN
from test_shell_contexts import SHELLS
from test_shell_twenty_fourth_pass import _prepare_husky
from test_shell_twenty_second_pass import SENTINEL

from ipy_istring.check import find_unsafe_calls
from ipy_istring.check.flow import Analysis
from ipy_istring.check.roles import samples
from ipy_istring.check.scan import check_file

DUCK = "import duckdb\n"
_FILE = "DuckDB reads a name that is no table as a file"


def _pattern(pattern: str, name: str = "x") -> str:
    check = f"if not re.fullmatch(r'{pattern}', {name}):\n    raise SystemExit(2)\n"
    return f"{name} = sys.argv[1]\n{check}"


# 1. Samples a pattern allows -----------------------------------------------------------------

DOTTED_REFUSED = {
    "a schema-like name": _pattern(r"[\w.]+") + "duckdb.sql(f'select * from {x}')",
    "a word, a dot, a word": _pattern(r"\w+\.\w+") + "duckdb.sql(f'select count(*) from {x}')",
    "a parquet file's name": _pattern(r"\w+\.parquet") + "duckdb.sql(f'describe {x}')",
    "a cursor's execute": _pattern(r"[A-Za-z0-9_.]{1,64}") + "cur.execute(f'drop table {x}')",
    "a name with dots after its first": _pattern(r"[a-z_][a-z0-9_.]*")
    + "cur.execute(f'select * from {x}')",
}


@pytest.mark.parametrize("case", list(DOTTED_REFUSED))
def test_a_dotted_value_as_a_table_name_is_a_finding(case: str) -> None:
    (finding,) = find_unsafe_calls(HEAD + DUCK + DOTTED_REFUSED[case])
    assert _FILE in finding.refused
    assert "values were validated, but in a role the renderer refuses" in finding.message()


DOTTED_ACCEPTED = {
    "no dot allowed": PLAIN + "duckdb.sql(f'select * from {x}')",
    "ssh's destination (a check the code did)": _pattern(r"[\w.]+")
    + "os.system(f'ssh {x} uptime')",
    "a path's last part": _pattern(r"[\w.]+") + "os.system(f'ls -l /srv/{x}')",
    "a compared value": _pattern(r"[\w.]+") + "duckdb.sql(f'select * from t where a = {x}')",
    "a git command that reads": _pattern(r"[\w.]+") + "os.system(f'git log {x}')",
    "inside written quotes": _pattern(r"[\w.]+")
    + "cur.execute(f\"select * from t where a = '{x}'\")",
}


@pytest.mark.parametrize("case", list(DOTTED_ACCEPTED))
def test_a_dotted_value_in_a_role_the_renderer_takes_stays_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + DUCK + DOTTED_ACCEPTED[case]) == []


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\w+", ()),
        (r"[a-z][a-z0-9-]*", ()),
        (r"\d+", ()),
        (r"[\w.]+", (".", "..", "a.b", "a.csv")),
        (r"\w+\.parquet", ("a.parquet",)),
        (r"^[a-z]+\.[a-z]+$", ("a.b", "a.csv", "a.a")),
    ],
)
def test_the_samples_are_values_the_pattern_allows(pattern: str, expected: tuple[str, ...]) -> None:
    assert samples(pattern) == expected
    assert all(re.fullmatch(pattern, sample) for sample in expected)


def test_positive_control_duckdb_reads_the_file_a_dotted_name_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[\\w.]+`` allows ``secret.csv``: the query reads that file (a table name without a
    dot is no file: DuckDB's catalog error)."""
    import duckdb

    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.csv").write_text("token\nhunter2\n", encoding="utf-8")
    table = "secret.csv"
    assert re.fullmatch(r"[\w.]+", table)
    assert duckdb.connect().sql(f"select * from {table}").fetchall() == [("hunter2",)]
    with pytest.raises(duckdb.CatalogException):
        duckdb.connect().sql("select * from secret")


# 2. An f-string bound to a name, run later ---------------------------------------------------

BOUND_REFUSED = {
    "a command, then subprocess": PLAIN + "cmd = f'git checkout {x}'\n"
    "subprocess.run(cmd, shell=True)",
    "a command, then os.system": PLAIN + "cmd = f'git pull origin {x}'\nos.system(cmd)",
    "a query, then execute": PLAIN + "q = f'select * from {x}()'\ncur.execute(q)",
    "a dotted table, then DuckDB": _pattern(r"[\w.]+") + "q = f'select * from {x}'\nduckdb.sql(q)",
}


@pytest.mark.parametrize("case", list(BOUND_REFUSED))
def test_a_role_in_an_f_string_bound_to_a_name_is_a_finding(case: str) -> None:
    (finding,) = find_unsafe_calls(HEAD + DUCK + BOUND_REFUSED[case])
    assert "values were validated, but in a role the renderer refuses" in finding.message()


BOUND_ACCEPTED = {
    "a command git only reads": PLAIN + "cmd = f'git log {x}'\nos.system(cmd)",
    "bound anew": PLAIN + "cmd = f'git checkout {x}'\ncmd = 'git status'\nos.system(cmd)",
    "a constant only": "REF = 'main'\ncmd = f'git checkout {REF}'\nos.system(cmd)",
    "a table": PLAIN + "q = f'select count(*) from {x}'\ncur.execute(q)",
}


@pytest.mark.parametrize("case", list(BOUND_ACCEPTED))
def test_an_f_string_bound_to_a_name_in_a_role_taken_stays_no_finding(case: str) -> None:
    assert find_unsafe_calls(HEAD + DUCK + BOUND_ACCEPTED[case]) == []


def test_an_f_string_is_noted_only_after_a_validation() -> None:
    analysis = Analysis()
    code = HEAD + "REF = 'main'\ncmd = f'git checkout {REF}'\nos.system(cmd)\n"
    assert analysis.check(ast.parse(code)) == []
    assert analysis._role_fstrings == {}


@pytest.mark.parametrize("shell", SHELLS)
def test_positive_control_git_runs_the_hook_through_a_command_built_first(
    shell: str, tmp_path: Path
) -> None:
    """``cmd = f"git checkout -q {ref}"`` with a ref ``\\w+`` allows, run by the shell,
    runs the hook the ref's tree holds (husky's core.hooksPath)."""
    _prepare_husky(tmp_path)
    ref = "evil"
    assert re.fullmatch(r"\w+", ref)
    cmd = f"git checkout -q {ref}"
    subprocess.run([shell, "-c", cmd], cwd=tmp_path, capture_output=True)
    assert (tmp_path / SENTINEL).exists()
    (finding,) = find_unsafe_calls(HEAD + PLAIN + "cmd = f'git checkout -q {x}'\nos.system(cmd)")
    assert _GIT in finding.refused


# 3. A hidden file in $HOME: a value names one only with a leading dot ---------------------------

SEMVER = _pattern(r"v\d+\.\d+\.\d+")
TAG = "git tag -s {x} -m 'release {x}' && git push origin {x}"


@pytest.mark.parametrize("how", ["written in the call", "bound to a name"])
def test_a_value_that_cannot_name_a_hidden_file_is_no_finding(how: str) -> None:
    """held-out 7's ``h7_safe_semver_validated_tag``: ``sh`` refuses a value git writes a file
    by, before a command that may read a hidden startup file from $HOME by its name alone;
    ``v1.2.3`` names none (no leading dot, no ``/``)."""
    run = f"c = f\"{TAG}\"\nos.system(c)" if how == "bound to a name" else f"os.system(f\"{TAG}\")"
    assert find_unsafe_calls(HEAD + SEMVER + run) == []
    (finding,) = find_unsafe_calls(HEAD + _pattern(r"[\w.]+") + run)  # (`.npmrc` passes)
    assert "under hidden names there" in finding.refused


def test_a_role_before_a_later_reader_is_the_reason_given() -> None:
    """``git checkout {x} && make install``, ``x`` a ``\\w+``: the renderer refuses the
    later reader first; the check gives git's hooks, the command's own role."""
    (finding,) = find_unsafe_calls(HEAD + PLAIN + "os.system(f'git checkout {x} && make install')")
    assert _GIT in finding.refused


def test_control_git_tag_writes_the_tag_under_git_refs(tmp_path: Path) -> None:
    """The semver value names the tag's file under .git/refs/tags, no file of the working
    directory or of $HOME."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM": "1"}
    git = ["git", "-c", "user.name=a", "-c", "user.email=a@b"]
    subprocess.run(["git", "init", "-q", str(work)], env=env, check=True)
    commit = [*git, "commit", "-q", "--allow-empty", "-m", "x"]
    subprocess.run(commit, cwd=work, env=env, check=True)

    def listed() -> tuple[list[str], list[str]]:
        return sorted(p.name for p in work.iterdir()), sorted(p.name for p in home.iterdir())

    before = listed()
    tag = "v1.2.3"
    assert re.fullmatch(r"v\d+\.\d+\.\d+", tag)
    subprocess.run(["dash", "-c", f"git tag {tag}"], cwd=work, env=env, check=True)
    assert (work / ".git" / "refs" / "tags" / tag).exists()
    assert listed() == before


# 4. The pass's corpus ------------------------------------------------------------------------


def test_the_pass_corpus_scores_whole(tmp_path: Path) -> None:
    for case in PASS17:
        case.write(tmp_path)
    flagged = {p.stem for p in tmp_path.iterdir() if check_file(p).findings}
    result = score(flagged, PASS17)
    assert (result.missed, result.false_alarms) == ((), ())
    assert (result.vulnerable, result.safe) == (4, 4)
