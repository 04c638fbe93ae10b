"""The check's eleventh pass (issue 11): false alarms on values whose text the code decides, a
script formatted, written to a file and then run by a shell, and the places of findings in
cells that start with blank lines.

1. Values whose text cannot carry an outside value: a Django model's own names
   (``Model._meta.db_table``, ``._meta.pk.column``, ``._meta.get_field(f).column``, and
   ``connection.ops.quote_name`` of those), a Django command's option limited by ``choices``
   (``options["table"]``), a date parsed by ``datetime.strptime`` (and ``.strftime`` of it
   with a format of the code's).  Each look-alike whose text the caller chooses stays a
   finding (``getattr(model, name)``, ``quote_name(name)``, ``.strftime(fmt)``...).
2. ``Path("job.sh").write_text(f"... {x}")`` (or ``open(...).write``, ``f.write`` in a
   ``with open(...)`` block, ``print(..., file=f)``), then ``subprocess.run(["bash",
   "job.sh"])``, ``["sbatch", ...]``, ``os.system("bash job.sh")``, ``["./job.sh"]``: the
   values are shell code.  The finding is at the write, names the run, and has no
   automatic fix (a script is lines of shell code, not the one command line ``sh`` renders).
3. Places: a notebook cell's finding is at its line as written (text, JSON, SARIF), in a
   cell starting with blank lines too; IPython's cell warning counts lines as IPython's own
   tracebacks do (IPython drops those blank lines before it parses the cell), so the line
   the warning shows is the finding's.

The positive controls run the code for real: bash runs the written script, sqlite3 runs the
query, ``argparse``/``datetime`` refuse what they refuse.
"""

from __future__ import annotations

import json
import linecache
import sqlite3
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import run, write_notebook

from ipy_istring.check import UnsafeFormatWarning, find_unsafe_calls, main


def _found(source: str) -> list[tuple[int, str]]:
    return [(f.line, f.call) for f in find_unsafe_calls(textwrap.dedent(source))]


# 1. False alarms ------------------------------------------------------------------------

DJANGO_OWN_NAMES = {
    "db_table": """
        from django.db import connection
        from orders.models import Order

        def count_by_status(status):
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT count(*) FROM {Order._meta.db_table} WHERE status = %s", [status]
                )
        """,
    "pk column": """
        from django.db import connection

        def fetch(model, pk):
            with connection.cursor() as c:
                c.execute(
                    f"SELECT * FROM {model._meta.db_table} WHERE {model._meta.pk.column} = %s",
                    [pk],
                )
        """,
    "get_field column": """
        from django.db import connection

        def column_values(model, field):
            column = model._meta.get_field(field).column
            with connection.cursor() as c:
                c.execute(f"SELECT DISTINCT {column} FROM {model._meta.db_table}")
        """,
    "quote_name of db_table": """
        from django.db import connection

        def truncate(model):
            table = connection.ops.quote_name(model._meta.db_table)
            with connection.cursor() as c:
                c.execute(f"TRUNCATE {table}")
        """,
}

DJANGO_LOOK_ALIKES = {
    # the attribute a caller names: any attribute of the model, not one of its names
    "getattr": """
        from django.db import connection

        def values(model, name):
            with connection.cursor() as c:
                c.execute(f"SELECT {getattr(model, name)} FROM {model._meta.db_table}")
        """,
    # quote_name puts double quotes around the text; it does not double a quote inside it
    "quote_name of a parameter": """
        from django.db import connection

        def truncate(name):
            with connection.cursor() as c:
                c.execute(f"TRUNCATE {connection.ops.quote_name(name)}")
        """,
    # an attribute of no model's options
    "db_table of an object": """
        from django.db import connection

        def truncate(thing):
            with connection.cursor() as c:
                c.execute(f"TRUNCATE {thing.db_table}")
        """,
    "the options object itself": """
        def show(c, model):
            c.execute(f"SELECT '{model._meta}'")
        """,
}


@pytest.mark.parametrize("case", list(DJANGO_OWN_NAMES))
def test_a_django_models_own_names_are_no_finding(case: str) -> None:
    assert _found(DJANGO_OWN_NAMES[case]) == []


@pytest.mark.parametrize("case", list(DJANGO_LOOK_ALIKES))
def test_names_a_caller_chooses_beside_a_models_stay_findings(case: str) -> None:
    assert len(_found(DJANGO_LOOK_ALIKES[case])) == 1


COMMAND = """
    from django.core.management.base import BaseCommand
    from django.db import connection


    class Command(BaseCommand):
        def add_arguments(self, parser):
            parser.add_argument("table", choices=["cache_entry", "django_session"])
            parser.add_argument("--where")

        def {method}(self, *args, **options):
            with connection.cursor() as cursor:
                cursor.execute(f"{query}")
    """


def test_a_django_commands_option_limited_by_choices_is_no_finding() -> None:
    source = COMMAND.replace("{method}", "handle").replace("{query}", "TRUNCATE {options['table']}")
    assert _found(source) == []


@pytest.mark.parametrize(
    "method, query",
    [
        ("handle", "DELETE FROM cache_entry WHERE {options['where']}"),  # no choices
        ("handle", "TRUNCATE {options['other']}"),  # no such argument
        ("handle", "TRUNCATE {options[name]}"),  # a key chosen at run time
        ("run_query", "TRUNCATE {options['table']}"),  # not the command's handle()
    ],
)
def test_other_options_stay_findings(method: str, query: str) -> None:
    source = COMMAND.replace("{method}", method).replace("{query}", query)
    assert len(_found(source)) == 1


def test_argparse_lets_only_a_choice_through() -> None:
    """The control for the options: Django's CommandParser is argparse's, which refuses any
    text that is not one of the choices before ``handle`` runs."""
    import argparse

    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("table", choices=["cache_entry", "django_session"])
    assert parser.parse_args(["django_session"]).table == "django_session"
    with pytest.raises(argparse.ArgumentError):
        parser.parse_args(["cache_entry; DROP TABLE auth_user"])


DATE_CUTOFF = """
    import sqlite3
    import sys
    from datetime import datetime

    cutoff = datetime.strptime(sys.argv[1], "%Y-%m-%d"){then}
    conn = sqlite3.connect(sys.argv[2])
    conn.execute(f"DELETE FROM log WHERE ts < '{cutoff{show}}'")
    conn.commit()
    """
DATES = {
    "strptime().date().isoformat()": (".date()", ".isoformat()"),
    "strptime()": ("", ""),
    "strftime of a constant format": ("", ".strftime('%Y-%m-%d')"),
}


def _date_script(then: str, show: str) -> str:
    return textwrap.dedent(DATE_CUTOFF).replace("{then}", then).replace("{show}", show)


@pytest.mark.parametrize("case", list(DATES))
def test_a_parsed_date_is_no_finding(case: str) -> None:
    assert find_unsafe_calls(_date_script(*DATES[case])) == []


@pytest.mark.parametrize(
    "show",
    [
        ".strftime(sys.argv[3])",  # a format the caller chooses: its text is the format's
        ".isoformat(sys.argv[3])",  # (a separator the caller chooses)
    ],
)
def test_a_date_shown_in_a_callers_format_stays_a_finding(show: str) -> None:
    assert len(find_unsafe_calls(_date_script("", show))) == 1


def test_the_raw_text_before_strptime_stays_a_finding() -> None:
    source = _date_script("", "").replace("{cutoff}", "{sys.argv[1]}")
    assert len(find_unsafe_calls(source)) == 1


def _log_database(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE log (ts TEXT)")
        conn.executemany("INSERT INTO log VALUES (?)", [("2020-01-01",), ("2030-01-01",)])
    conn.close()


def _rows(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM log").fetchone()[0])
    finally:
        conn.close()


def test_dates_in_sqlite_the_parsed_one_refuses_an_injection_a_callers_format_does_not(
    tmp_path: Path,
) -> None:
    """Real sqlite3: the parsed date deletes only older rows and refuses a hostile text
    (strptime raises ValueError: nothing runs); ``.strftime(fmt)`` of a format the caller
    chooses puts that text in, which deletes every row (the finding is real)."""
    hostile = "2025-01-01' OR '1'='1"
    script = tmp_path / "prune.py"
    for number, (case, (then, show)) in enumerate(DATES.items()):
        database = tmp_path / f"{number}.db"
        _log_database(database)
        script.write_text(_date_script(then, show))
        done = subprocess.run(
            [sys.executable, str(script), "2025-01-01", str(database)], capture_output=True
        )
        assert done.returncode == 0, done.stderr
        assert _rows(database) == 1, case  # only the 2020 row went
        refused = subprocess.run(
            [sys.executable, str(script), hostile, str(database)], capture_output=True, text=True
        )
        assert "ValueError" in refused.stderr and _rows(database) == 1, case
    database = tmp_path / "format.db"
    _log_database(database)
    script.write_text(_date_script("", ".strftime(sys.argv[3])"))
    done = subprocess.run(
        [sys.executable, str(script), "2025-01-01", str(database), "x' OR '1'='1"],
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
    assert _rows(database) == 0  # every row deleted: the injection is real


ORDERS = {
    # a module-level dict of constant strings: the text is one of them (or a KeyError)
    "ORDER[direction]": ("{ORDER[direction]}", 0),
    "ORDER.get(direction, 'ASC')": ("{ORDER.get(direction, 'ASC')}", 0),
    # a default the caller chooses: its text
    "ORDER.get(direction, direction)": ("{ORDER.get(direction, direction)}", 1),
    "direction itself": ("{direction}", 1),
}


@pytest.mark.parametrize("case", list(ORDERS))
def test_a_constant_dict_lookup_is_one_of_its_constants(case: str) -> None:
    """(Already so before this pass: a pinning test.)"""
    field, expected = ORDERS[case]
    source = f"""
        import sqlite3
        ORDER = {{"asc": "ASC", "desc": "DESC"}}

        def rows(con, direction):
            return con.execute(f"SELECT * FROM t ORDER BY id {field}").fetchall()
        """
    assert len(_found(source)) == expected


def test_a_dict_that_takes_an_outside_value_is_no_allow_list() -> None:
    source = """
        ORDER = {"asc": "ASC", "desc": "DESC"}

        def rows(con, direction, extra):
            ORDER["custom"] = extra
            return con.execute(f"SELECT * FROM t ORDER BY id {ORDER[direction]}").fetchall()
        """
    assert len(_found(source)) == 1


# 2. A script written to a file, then run ---------------------------------------------------

# A script written in a `with` block, then run by os.system's shell (COMMAND).
OS_SYSTEM = """
    import os
    import sys

    x = sys.argv[1]
    with open("job.sh", "w") as f:
        f.write(f"#!/bin/sh\\necho {x}\\n")
    os.system("COMMAND")
    """
WRITTEN_SCRIPTS = {
    # name -> (code, the line of the write, the run named)
    "Path.write_text, then bash": (
        """
        import subprocess
        import sys
        from pathlib import Path

        x = sys.argv[1]
        Path("job.sh").write_text(f"echo {x}\\n")
        subprocess.run(["bash", "job.sh"], check=True)
        """,
        7,
        "subprocess.run() on line 8",
    ),
    "open().write, then sbatch": (
        """
        import subprocess
        import sys

        x = sys.argv[1]
        open("job.sh", "w").write(f"#!/bin/bash\\n#SBATCH --job-name=j\\necho {x}\\n")
        subprocess.run(["sbatch", "job.sh"], check=True)
        """,
        6,
        "subprocess.run() on line 7",
    ),
    "with open as f, f.write, then sh of a name": (
        """
        import subprocess
        import sys

        x = sys.argv[1]
        path = "job.sh"
        with open(path, "w") as f:
            f.write("#!/bin/sh\\n")
            f.write(f"echo {x}\\n")
        subprocess.run(["sh", path], check=True)
        """,
        9,
        "subprocess.run() on line 10",
    ),
    "os.system of bash": (OS_SYSTEM.replace("COMMAND", "bash job.sh"), 7, "os.system() on line 8"),
    "chmod +x, then ./job.sh": (
        """
        import os
        import subprocess
        import sys

        x = sys.argv[1]
        with open("job.sh", "w") as f:
            f.write(f"#!/bin/sh\\necho {x}\\n")
        os.chmod("job.sh", 0o755)
        subprocess.run(["./job.sh"], check=True)
        """,
        8,
        "subprocess.run() on line 10",
    ),
    "chmod +x && ./job.sh by a shell": (
        OS_SYSTEM.replace("COMMAND", "chmod +x job.sh && ./job.sh"),
        7,
        "os.system() on line 8",
    ),
    "print(file=f), then bash": (
        """
        import subprocess
        import sys

        x = sys.argv[1]
        with open("job.sh", "w") as f:
            print(f"echo {x}", file=f)
        subprocess.run(["bash", "job.sh"], check=True)
        """,
        7,
        "subprocess.run() on line 8",
    ),
    "a path object in a function, str() of it to sbatch (held-out 10)": (
        '''
        import subprocess
        import sys
        from pathlib import Path

        TEMPLATE = """#!/bin/bash
        #SBATCH --job-name={name}
        srun python train.py --data {data} --out checkpoints/{name}
        """

        def submit(name, data):
            script = Path(f"jobs/{name}.sbatch")
            script.write_text(TEMPLATE.format(name=name, data=data))
            subprocess.run(["sbatch", str(script)], check=True)

        submit(sys.argv[1], sys.argv[2])
        ''',
        13,
        "subprocess.run() on line 14",
    ),
}


@pytest.mark.parametrize("case", list(WRITTEN_SCRIPTS))
def test_a_formatted_script_a_shell_runs_is_a_finding_at_its_write(case: str) -> None:
    source, line, run_named = WRITTEN_SCRIPTS[case]
    (finding,) = find_unsafe_calls(textwrap.dedent(source))
    assert (finding.line, finding.destination) == (line, "shell")
    assert f"which {run_named} runs as shell code" in finding.message()
    assert finding.fixed is None


def test_a_written_scripts_finding_says_why_there_is_no_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "submit.py"
    source = textwrap.dedent(WRITTEN_SCRIPTS["Path.write_text, then bash"][0])
    path.write_text(source)
    assert main(["--diff", str(path)]) == 1
    out = capsys.readouterr().err  # (the diff's notes go to stderr)
    assert f"{path}:7:" in out and "not fixed: the text is a script a shell runs" in out
    assert main(["--fix", str(path)]) == 1
    assert path.read_text() == source  # nothing rewritten


WRITTEN_LOOK_ALIKES = {
    # each value quoted as a shell word
    "shlex.quote": """
        import shlex
        import subprocess
        import sys
        from pathlib import Path

        x = sys.argv[1]
        Path("job.sh").write_text(f"echo {shlex.quote(x)}\\n")
        subprocess.run(["bash", "job.sh"], check=True)
        """,
    # a constant script, its values passed as arguments
    "a constant script": """
        import subprocess
        import sys
        from pathlib import Path

        Path("job.sh").write_text('echo "$1"\\n')
        subprocess.run(["bash", "job.sh", sys.argv[1]], check=True)
        """,
    # the formatted file is read, not run
    "read by cat": """
        import subprocess
        import sys
        from pathlib import Path

        Path("job.sh").write_text(f"echo {sys.argv[1]}\\n")
        subprocess.run(["cat", "job.sh"], check=True)
        """,
    # a formatted log written, another (constant) script run
    "another file run": """
        import subprocess
        import sys
        from pathlib import Path

        Path("run.log").write_text(f"started with {sys.argv[1]}\\n")
        subprocess.run(["bash", "job.sh"], check=True)
        """,
    # opened for reading: no write
    "opened for reading": """
        import subprocess
        import sys

        with open("job.sh") as f:
            print(f"{sys.argv[1]}: {f.read()}")
        subprocess.run(["bash", "job.sh"], check=True)
        """,
    # the same name in two functions: each its own file
    "the same name elsewhere": """
        import subprocess
        from pathlib import Path

        def log(path, x):
            Path(path).write_text(f"{x}\\n")

        def run(path):
            subprocess.run(["bash", path], check=True)
        """,
}


@pytest.mark.parametrize("case", list(WRITTEN_LOOK_ALIKES))
def test_written_files_no_shell_runs_as_formatted_code_are_no_finding(case: str) -> None:
    assert _found(WRITTEN_LOOK_ALIKES[case]) == []


def test_bash_runs_the_formatted_script_and_not_the_quoted_one(tmp_path: Path) -> None:
    """The positive control: real bash runs what the first case wrote, and the value
    ``a; touch pwned`` runs ``touch``; the shlex.quote look-alike echoes the same text."""
    hostile = "a; touch pwned"
    for source, attacked in [
        (WRITTEN_SCRIPTS["Path.write_text, then bash"][0], True),
        (WRITTEN_LOOK_ALIKES["shlex.quote"], False),
        (WRITTEN_SCRIPTS["with open as f, f.write, then sh of a name"][0], True),
        (WRITTEN_SCRIPTS["chmod +x && ./job.sh by a shell"][0], True),
    ]:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        folder.mkdir()
        (folder / "submit.py").write_text(textwrap.dedent(source))
        done = subprocess.run(
            [sys.executable, "submit.py", hostile], cwd=folder, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert (folder / "pwned").exists() is attacked, source
        if not attacked:
            assert done.stdout == f"{hostile}\n"


def test_a_script_written_in_one_cell_and_run_by_an_escape_in_another(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cells = [
        "import sys\nx = sys.argv[-1]",
        "\nwith open('job.sh', 'w') as f:\n    f.write(f'echo {x}\\n')",
        "!bash job.sh",
    ]
    path = write_notebook(tmp_path / "nb.ipynb", cells)
    assert main(["--format", "json", str(path)]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["cell"], finding["line"], finding["column"]) == (2, 3, 13)
    assert "get_ipython().system() on line 1 of cell 3 runs" in finding["message"]


# 3. Places ------------------------------------------------------------------------------

SETUP = "import os\nx = os.environ.get('X', 'a')\n"
UNSAFE = "os.system(f'echo {x} > /dev/null')"
# cell -> the lines of its findings, as written in the cell
BLANK_FIRST = {
    f"\n\n{UNSAFE}\nprint(2)\nprint(3)": [3],
    f"\n  \n\t\n{UNSAFE}": [4],
    f"\n\nif x:\n    {UNSAFE}": [4],
    f"\n\n%time {UNSAFE}\n%time {UNSAFE}": [3, 4],
    f"\n%time {UNSAFE}\nprint(1)\n%time {UNSAFE}": [2, 4],
    "\n\n!echo {x}": [3],
}


def test_findings_of_cells_starting_with_blank_lines_are_at_their_lines_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_notebook(tmp_path / "nb.ipynb", [SETUP, *BLANK_FIRST])
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    got: dict[int, list[int]] = {}
    for finding in findings:
        got.setdefault(finding["cell"], []).append(finding["line"])
    assert list(got.values()) == list(BLANK_FIRST.values())
    for finding in findings:
        cell = list(BLANK_FIRST)[finding["cell"] - 2]
        line = cell.splitlines()[finding["line"] - 1]
        assert line[finding["column"] - 1] in "f{", (cell, finding)
    assert main([str(path)]) == 1
    text = capsys.readouterr().out
    for cell, lines in enumerate(BLANK_FIRST.values(), start=2):
        for line in lines:
            assert f"[cell {cell}]:{line}:" in text
    assert main(["--format", "sarif", str(path)]) == 1
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    places = [r["message"]["text"].partition("]")[0] for r in results]
    assert places == [
        f"[cell {cell}, line {line}"
        for cell, lines in enumerate(BLANK_FIRST.values(), start=2)
        for line in lines
    ]


def _warnings(shell: Any, cell: str) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(shell, cell)
    return [w for w in caught if issubclass(w.category, UnsafeFormatWarning)]


def test_the_cell_warning_counts_lines_as_ipython_does_and_shows_the_findings_line(
    ishell: Any,
) -> None:
    """IPython drops a cell's leading blank lines before it parses it: its tracebacks, and
    the cell's text in linecache, count the lines from the first line of code.  The warning
    counts as they do, so the line it shows under its message is the finding's (counting
    as written would show ``print(3)`` for ``\\n\\nos.system(...)\\nprint(2)\\nprint(3)``,
    IPython's third line)."""
    run(ishell, SETUP)
    for cell, lines in BLANK_FIRST.items():
        caught = _warnings(ishell, cell)
        dropped = next(i for i, line in enumerate(cell.splitlines()) if line.strip())
        assert [w.lineno for w in caught] == [line - dropped for line in lines], cell
        for warning in caught:
            shown = linecache.getline(warning.filename, warning.lineno)
            assert ("system(" in shown) or ("run_line_magic" in shown), (cell, shown)


# A magic's statement is checked with the names at its place in the cell (IPython parses it
# only when it runs, after the whole cell was read): cell -> the lines of its findings.
RUN_IN_ORDER = {
    # `x` is an outside value when the first %time runs, a constant when the second does
    f"%time {UNSAFE}\nx = 'b'\n%time {UNSAFE}": [1],
    # ... and the other way round
    f"x = 'b'\n%time {UNSAFE}\nx = os.environ.get('X', 'a')\n%time {UNSAFE}": [4],
    # two identical lines: each its own finding
    f"x = os.environ.get('X', 'a')\n%time {UNSAFE}\n%time {UNSAFE}": [2, 3],
    f"x = os.environ.get('X', 'a')\nfor _ in range(2):\n    %time {UNSAFE}\nx = 'b'": [3],
}


@pytest.mark.parametrize("cell", list(RUN_IN_ORDER))
def test_a_magics_statement_sees_the_names_at_its_place_in_the_cell(
    ishell: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], cell: str
) -> None:
    run(ishell, SETUP)
    caught = _warnings(ishell, cell)
    assert sorted({w.lineno for w in caught}) == RUN_IN_ORDER[cell]
    # ... as the check of a notebook finds them
    path = write_notebook(tmp_path / "nb.ipynb", [SETUP, cell])
    capsys.readouterr()  # (what the cells printed)
    assert main(["--format", "json", str(path)]) == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [f["line"] for f in findings] == RUN_IN_ORDER[cell]


def test_what_a_magics_statement_binds_is_known_to_later_cells(ishell: Any) -> None:
    run(ishell, SETUP)
    assert _warnings(ishell, "%time q = f'echo {x} > /dev/null'\ny = 1") == []
    (warning,) = _warnings(ishell, "os.system(q)")
    assert "os.system() gets a string built by an f-string" in str(warning.message)
    # ... unless a later statement of its cell binds the name again
    assert _warnings(ishell, "%time q = f'echo {x} > /dev/null'\nq = 'true'") == []
    assert _warnings(ishell, "os.system(q)") == []
