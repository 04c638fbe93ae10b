"""The check's twelfth pass: a script written in one cell and run in a later one, scripts
written to temporary files, and identifier-quoting functions.

1. A shell script formatted and written to a file in one cell (``open("job.sh",
   "w").write(f"cp {src} {dst}\\n")``, ``Path(...).write_text``, ``f.write`` in a ``with``
   block), run in a later cell (``subprocess.run(["bash", "job.sh"])``, ``os.system("bash
   job.sh")``): a finding at the write, in IPython (the extension's cell warning, at the
   write's cell and line) as in a notebook checked by ``ipy_istring.check``.  The cell with the
   write calls no sink: it was only put aside, and the write forgotten (as was ``f =
   open(...)`` when only ``f.write(...)`` was read).  A script run in an earlier cell and
   written only later is no finding for that earlier run.  (In IPython, a cell whose only
   write is ``print(..., file=f)`` is still only put aside: finding ``print(`` would send
   most cells to the data flow.)
2. A script written to a ``tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)``
   (bound by ``=`` or by ``with ... as f``) with a formatted text, then run by its name:
   ``subprocess.run(["bash", f.name])``, ``["sh", f.name]``, ``os.system(f"bash {f.name}")``
   (the command an f-string: its words read with the formatted fields as words): a finding at
   the write, as for ``open()``.  (``Path(p).write_text(f"...")`` then ``["bash", p]`` was
   found already: kept here as a test.)  A constant script, or a formatted text written to a
   temporary file that a shell does not run, stays no script finding.
3. Identifier-quoting functions that really quote an identifier (double the quote character
   and wrap the name in it): SQLAlchemy's ``engine.dialect.identifier_preparer.quote(name)``
   and ``.quote_identifier(name)``, psycopg 3's ``sql.Identifier(name).as_string(conn)``, in
   an f-string passed straight to an SQL call, are no finding where the quoted name stands as
   a token of its own in code (as the SQL lexers of ``_sql_tokens`` read the f-string, in
   every dialect): ``f"select * from {quote(t)}"``.  Inside a string literal
   (``'{quote(t)}'``), a quoted identifier (``"{quote(t)}"``) or a comment it is no
   identifier, and stays a finding, as does a user's own ``quote(x)`` that only wraps, another
   unquoted field beside it, and a shell command.  (psycopg2's
   ``psycopg2.extensions.quote_ident`` was not installed then, so it was not verified and
   stayed a finding; it is now, and is accepted alike: see test_check_validated_values.py.
   The quoted names bound to a name first are accepted since the fourteenth pass.)

The positive controls run the scripts for real (bash, a marker file in a temporary folder), and
the queries in real databases (sqlite3 through SQLAlchemy, PostgreSQL through psycopg): the
naive quoting lets ``t" where 0 union select 'pwned' --`` select the marker, the real
quoting reads it as one table name.
"""

from __future__ import annotations

import json
import linecache
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import run, write_notebook

from ipy_istring.check import UnsafeFormatWarning, find_unsafe_calls, main


def _warnings(shell: Any, cell: str) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(shell, cell)
    return [w for w in caught if issubclass(w.category, UnsafeFormatWarning)]


# 1. A script written in one cell, run in a later one --------------------------------------

# The values come from outside (an environment variable: harmless where the cells run here).
SETUP = (
    "import os, subprocess\nfrom pathlib import Path\n"
    "src = os.environ.get('CHECKX_SRC', 'a')\ndst = os.environ.get('CHECKX_DST', 'b')"
)
# name -> (the cell that writes, the line of the write in it, the cell that runs the script)
WRITTEN_THEN_RUN = {
    "open().write, then bash": (
        'open("job.sh", "w").write(f"cp {src} {dst}\\n")',
        1,
        'subprocess.run(["bash", "job.sh"])',
    ),
    "with open, f.write, then bash": (
        'print("writing")\nwith open("job.sh", "w") as f:\n    f.write(f"cp {src} {dst}\\n")',
        3,
        'subprocess.run(["bash", "job.sh"])',
    ),
    "Path.write_text, then os.system": (
        'Path("job.sh").write_text(f"cp {src} {dst}\\n")',
        1,
        'os.system("bash job.sh")',
    ),
    "f = open(), f.write, then bash": (
        'f = open("job.sh", "w")\nf.write(f"cp {src} {dst}\\n")\nf.close()',
        2,
        'subprocess.run(["bash", "job.sh"])',
    ),
    "a NamedTemporaryFile, then bash f.name": (
        "import tempfile\n"
        'f = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)\n'
        'f.write(f"cp {src} {dst}\\n")\nf.close()',
        3,
        'subprocess.run(["bash", f.name])',
    ),
    "a path's name, then sh of it": (
        'script = "job.sh"\nPath(script).write_text(f"cp {src} {dst}\\n")',
        2,
        'subprocess.run(["sh", script])',
    ),
}


@pytest.fixture
def in_tmp(tmp_path: Path) -> Any:
    """Run in a temporary folder (the cells write and run job.sh there)."""
    before = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(before)


@pytest.mark.parametrize("case", list(WRITTEN_THEN_RUN))
def test_a_script_written_in_a_cell_and_run_in_a_later_one_warns_at_the_write(
    ishell: Any, in_tmp: Path, case: str
) -> None:
    write, line, run_it = WRITTEN_THEN_RUN[case]
    run(ishell, SETUP)
    assert _warnings(ishell, write) == []
    (warning,) = _warnings(ishell, run_it)
    assert "writes a script built by an f-string" in str(warning.message)
    assert "of a later cell runs as shell code" in str(warning.message)
    # at the write's cell and line, which IPython shows under the warning
    assert warning.lineno == line
    shown = linecache.getline(warning.filename, warning.lineno)
    assert shown == write.splitlines()[line - 1] + "\n"


@pytest.mark.parametrize("case", list(WRITTEN_THEN_RUN))
def test_the_same_cells_in_a_notebook_are_a_finding_at_the_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    write, line, run_it = WRITTEN_THEN_RUN[case]
    path = write_notebook(tmp_path / "nb.ipynb", [SETUP, write, run_it])
    assert main(["--format", "json", str(path)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["cell"], finding["line"]) == (2, line)
    assert "on line 1 of cell 3 runs as shell code" in finding["message"]


def test_a_script_run_before_it_is_written_is_no_finding(
    ishell: Any, in_tmp: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write, _, run_it = WRITTEN_THEN_RUN["open().write, then bash"]
    (in_tmp / "job.sh").write_text("true\n")
    run(ishell, SETUP)
    assert _warnings(ishell, run_it) == []
    assert _warnings(ishell, write) == []
    path = write_notebook(tmp_path / "nb.ipynb", [SETUP, run_it, write])
    capsys.readouterr()
    assert main([str(path)]) == 0


def test_a_constant_script_written_in_a_cell_is_no_finding_when_run_later(
    ishell: Any, in_tmp: Path
) -> None:
    run(ishell, SETUP)
    assert _warnings(ishell, 'open("job.sh", "w").write("true\\n")') == []
    assert _warnings(ishell, 'subprocess.run(["bash", "job.sh", src])') == []


def test_bash_runs_what_the_earlier_cell_wrote(ishell: Any, in_tmp: Path) -> None:
    """The positive control: the value ``a; touch pwned`` written by one cell runs
    ``touch`` when a later cell runs the script (the check warned at the write)."""
    os.environ["CHECKX_SRC"] = "a; touch pwned;"
    try:
        run(ishell, SETUP)
        write, _, run_it = WRITTEN_THEN_RUN["open().write, then bash"]
        _warnings(ishell, write)
        assert len(_warnings(ishell, run_it.replace("])", "], capture_output=True)"))) == 1
    finally:
        del os.environ["CHECKX_SRC"]
    assert (in_tmp / "pwned").exists()


def test_a_script_written_and_run_in_one_cell_warns_there(ishell: Any, in_tmp: Path) -> None:
    write, _, run_it = WRITTEN_THEN_RUN["open().write, then bash"]
    run(ishell, SETUP)
    (warning,) = _warnings(ishell, f"{write}\n{run_it}")
    assert "which subprocess.run() on line 2 runs as shell code" in str(warning.message)
    assert warning.lineno == 1


# 2. Scripts written to temporary files ----------------------------------------------------

# name -> (code, the line of the write, the run named)
TEMPORARY_SCRIPTS = {
    "NamedTemporaryFile bound, then bash f.name": (
        """
        import subprocess
        import sys
        import tempfile

        x = sys.argv[1]
        f = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
        f.write(f"echo {x}\\n")
        f.close()
        subprocess.run(["bash", f.name], check=True)
        """,
        8,
        "subprocess.run() on line 10",
    ),
    "with NamedTemporaryFile as f, then sh f.name": (
        """
        import subprocess
        import sys
        from tempfile import NamedTemporaryFile

        x = sys.argv[1]
        with NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write(f"echo {x}\\n")
        subprocess.run(["sh", f.name], check=True)
        """,
        8,
        "subprocess.run() on line 9",
    ),
    "with NamedTemporaryFile, print(file=f), then bash inside the block": (
        """
        import subprocess
        import sys
        import tempfile

        x = sys.argv[1]
        with tempfile.NamedTemporaryFile(mode="w+", suffix=".sh") as script:
            print(f"echo {x}", file=script)
            script.flush()
            subprocess.run(["bash", script.name], check=True)
        """,
        8,
        "subprocess.run() on line 10",
    ),
    "os.system of an f-string naming f.name": (
        """
        import os
        import sys
        import tempfile

        x = sys.argv[1]
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write(f"echo {x}\\n")
        os.system(f"bash {f.name}")
        """,
        8,
        "os.system() on line 9",
    ),
    "Path(p).write_text, then bash p": (
        """
        import subprocess
        import sys
        from pathlib import Path

        p = sys.argv[2]
        Path(p).write_text(f"echo {sys.argv[1]}\\n")
        subprocess.run(["bash", p], check=True)
        """,
        7,
        "subprocess.run() on line 8",
    ),
}


@pytest.mark.parametrize("case", list(TEMPORARY_SCRIPTS))
def test_a_formatted_script_in_a_temporary_file_a_shell_runs_is_a_finding_at_its_write(
    case: str,
) -> None:
    source, line, run_named = TEMPORARY_SCRIPTS[case]
    found = find_unsafe_calls(textwrap.dedent(source))
    (finding,) = [f for f in found if f.runs]
    assert (finding.line, finding.destination) == (line, "shell")
    assert f"which {run_named} runs as shell code" in finding.message()


TEMPORARY_LOOK_ALIKES = {
    # a constant script, the value passed as its argument
    "a constant script": """
        import subprocess
        import sys
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write('echo "$1"\\n')
        subprocess.run(["bash", f.name, sys.argv[1]], check=True)
        """,
    # the formatted file is read, not run
    "read by cat": """
        import subprocess
        import sys
        import tempfile

        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(f"{sys.argv[1]}\\n")
        subprocess.run(["cat", f.name], check=True)
        """,
    # another temporary file runs
    "another file run": """
        import subprocess
        import sys
        import tempfile

        with tempfile.NamedTemporaryFile("w", delete=False) as log:
            log.write(f"{sys.argv[1]}\\n")
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write("true\\n")
        subprocess.run(["bash", f.name], check=True)
        """,
}


@pytest.mark.parametrize("case", list(TEMPORARY_LOOK_ALIKES))
def test_temporary_files_no_shell_runs_as_formatted_code_are_no_finding(case: str) -> None:
    assert find_unsafe_calls(textwrap.dedent(TEMPORARY_LOOK_ALIKES[case])) == []


@pytest.mark.parametrize("case", list(TEMPORARY_SCRIPTS)[:3])
def test_the_shell_runs_the_value_written_to_a_temporary_script(
    tmp_path: Path, case: str
) -> None:
    """The positive control: the value ``a; touch pwned`` written to the temporary script
    runs ``touch`` when the shell runs it (the temporary files made in ``tmp_path``)."""
    (tmp_path / "submit.py").write_text(textwrap.dedent(TEMPORARY_SCRIPTS[case][0]))
    done = subprocess.run(
        [sys.executable, "submit.py", "a; touch pwned"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "pwned").exists()


# 3. Identifier-quoting functions ----------------------------------------------------------

HOSTILE_NAME = "t\" where 0 union select 'pwned' --"
SQLALCHEMY_HEAD = """
import sys
import sqlalchemy as sa

engine = sa.create_engine("sqlite://")
t = sys.argv[1]
with engine.connect() as conn:
"""
PSYCOPG_HEAD = """
import sys
import psycopg
from psycopg import sql

t = sys.argv[1]
with psycopg.connect(sys.argv[2]) as conn:
    cur = conn.cursor()
"""
QUOTED_IDENTIFIERS = {
    "identifier_preparer.quote": SQLALCHEMY_HEAD
    + '    conn.exec_driver_sql(f"select a from {engine.dialect.identifier_preparer.quote(t)}")',
    "identifier_preparer.quote_identifier, with a constant beside": SQLALCHEMY_HEAD
    + "    conn.exec_driver_sql(\n"
    + '        f"select a from main.{conn.dialect.identifier_preparer.quote_identifier(t)}"\n'
    + "        f\" where a = 'x' limit {10}\"\n"
    + "    )",
    "psycopg sql.Identifier().as_string": PSYCOPG_HEAD
    + '    cur.execute(f"select a from {sql.Identifier(t).as_string(conn)}")',
    "psycopg Identifier imported, with a schema": PSYCOPG_HEAD.replace(
        "from psycopg import sql", "from psycopg.sql import Identifier"
    )
    + '    cur.execute(f"select a from {Identifier(\'public\', t).as_string(conn)} where a = %s",'
    + ' ["x"])',
}


@pytest.mark.parametrize("case", list(QUOTED_IDENTIFIERS))
def test_an_identifier_quoted_by_the_database_library_where_a_name_stands_is_no_finding(
    case: str,
) -> None:
    assert find_unsafe_calls(QUOTED_IDENTIFIERS[case]) == []


_PREPARED = "engine.dialect.identifier_preparer.quote(t)"
IDENTIFIER_LOOK_ALIKES = {
    # a user's own quote() that only wraps the name
    "a quote() of the user's": SQLALCHEMY_HEAD.replace(
        "t = sys.argv[1]", "t = sys.argv[1]\ndef quote(x):\n    return '\"' + x + '\"'"
    )
    + '    conn.exec_driver_sql(f"select a from {quote(t)}")',
    # the quoted name inside a string literal: no identifier there
    "inside a string literal": SQLALCHEMY_HEAD
    + f"    conn.exec_driver_sql(f\"select a from t where a = '{{{_PREPARED}}}'\")",
    # ... inside a quoted identifier
    "inside a quoted identifier": SQLALCHEMY_HEAD
    + f"    conn.exec_driver_sql(f'select a from \"{{{_PREPARED}}}\"')",
    # ... after a line comment (a newline in the name ends the comment)
    "after a line comment": SQLALCHEMY_HEAD
    + f"    conn.exec_driver_sql(f'select a from t -- {{{_PREPARED}}}')",
    # another field beside it, not quoted
    "an unquoted field beside": SQLALCHEMY_HEAD
    + f"    conn.exec_driver_sql(f'select a from {{{_PREPARED}}} where a = {{t}}')",
    # a format spec or conversion changes the text
    "a conversion": SQLALCHEMY_HEAD
    + f"    conn.exec_driver_sql(f'select a from {{{_PREPARED}!r}}')",
    # a shell: a quoted identifier is no shell word ("$(...)" runs inside double quotes)
    "into a shell": """
import os
import sys
import sqlalchemy as sa

engine = sa.create_engine("sqlite://")
preparer = engine.dialect
os.system(f"sqlite3 db.sqlite 'select a from {preparer.identifier_preparer.quote(sys.argv[1])}'")
""",
}


@pytest.mark.parametrize("case", list(IDENTIFIER_LOOK_ALIKES))
def test_identifier_look_alikes_stay_findings(case: str) -> None:
    assert len(find_unsafe_calls(IDENTIFIER_LOOK_ALIKES[case])) == 1


def test_sqlite_reads_the_identifier_sqlalchemy_quoted_as_one_name() -> None:
    """The positive control: the naive quoting (a user's ``'"' + t + '"'``) lets the name
    select the marker; SQLAlchemy's quoting reads it as one table name, in code and as the
    name of a table made with it."""
    import sqlalchemy as sa

    engine = sa.create_engine("sqlite://")
    preparer = engine.dialect.identifier_preparer
    with engine.connect() as conn:
        conn.exec_driver_sql("create table t (a text)")
        conn.exec_driver_sql("insert into t values ('row')")
        naive = '"' + HOSTILE_NAME + '"'
        assert conn.exec_driver_sql(f"select a from {naive}").fetchall() == [("pwned",)]
        for quote in (preparer.quote, preparer.quote_identifier):
            with pytest.raises(sa.exc.OperationalError, match="no such table"):
                conn.exec_driver_sql(f"select a from {quote(HOSTILE_NAME)}")
        conn.exec_driver_sql(f"create table {preparer.quote(HOSTILE_NAME)} (a text)")
        conn.exec_driver_sql(f"insert into {preparer.quote(HOSTILE_NAME)} values ('own')")
        assert conn.exec_driver_sql(
            f"select a from {preparer.quote(HOSTILE_NAME)}"
        ).fetchall() == [("own",)]
        # ... and in a string literal the same quoted name breaks out (why it is refused there)
        breaking = preparer.quote("x' union select 'pwned' --")
        inside = f"select a from t where a = '{breaking}'"
        assert ("pwned",) in conn.exec_driver_sql(inside).fetchall()


def test_postgresql_reads_the_identifier_psycopg_quoted_as_one_name() -> None:
    """The same in PostgreSQL, for psycopg 3's ``sql.Identifier(...).as_string(conn)``."""
    from conftest import require

    dsn = os.environ.get("IPY_ISTRING_PG_DSN")
    require(dsn is not None, "no PostgreSQL server: IPY_ISTRING_PG_DSN is not set")
    import psycopg
    from psycopg import sql

    with psycopg.connect(dsn, autocommit=True) as conn:  # type: ignore[arg-type]
        cur = conn.cursor()
        cur.execute("create temp table t (a text)")
        cur.execute("insert into t values ('row')")
        name = HOSTILE_NAME.replace("where 0", "where false")
        naive = '"' + name + '"'
        assert cur.execute(f"select a from {naive}").fetchall() == [("pwned",)]
        quoted = sql.Identifier(name).as_string(conn)
        with pytest.raises(psycopg.errors.UndefinedTable):
            cur.execute(f"select a from {quoted}")
        cur.execute(f"create temp table {quoted} (a text)")
        cur.execute(f"insert into {quoted} values ('own')")
        assert cur.execute(f"select a from {quoted}").fetchall() == [("own",)]
