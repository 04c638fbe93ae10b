"""Cases written by the check's sixteenth pass: validated values in a role the renderer refuses
(git writing the tree a ref names, the function a query calls, a setting's name), comprehension
guards, click's converted parameters and Airflow's SQL operators.  Each is modelled on a kind of
script or notebook found in public code, written by hand.  Not held out: the check has learnt
from them.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


PASS16: list[Case] = [
    # ---------------------------------------------------------------- vulnerable
    # A deploy script: the branch is checked against a pattern, then checked out with git's
    # hooks on (a husky repository runs the hooks of the tree the branch names).
    _v("p16_git_checkout_validated_branch", """\
import re
import subprocess
import sys

BRANCH = re.compile(r"[a-z][a-z0-9-]*")


def deploy(branch: str) -> None:
    if not BRANCH.fullmatch(branch):
        raise SystemExit(f"bad branch: {branch!r}")
    subprocess.run(f"git checkout {branch} && make install", shell=True, check=True)


deploy(sys.argv[1])
"""),
    # A release channel of a pattern's, pulled.
    _v("p16_git_pull_pattern_channel", """\
import os
import re
import sys

channel = sys.argv[1]
if not re.fullmatch(r"[a-z0-9_]+", channel):
    sys.exit("bad channel")
os.system(f"git pull --ff-only origin {channel}")
"""),
    # A click command whose branch, checked by a pattern, is merged.
    _v("p16_click_pattern_git_merge", """\
import os
import re

import click


@click.command()
@click.option("--from-branch")
def promote(from_branch):
    if not re.fullmatch(r"\\w+", from_branch):
        raise click.BadParameter(from_branch)
    os.system(f"git merge --no-edit {from_branch}")


if __name__ == "__main__":
    promote()
"""),
    # A DuckDB notebook that lets the user pick a table function by name.
    _nb("p16_nb_duckdb_table_function_by_name", True,
        "import re\nimport duckdb\nfn = input('function: ')\n"
        "if not re.fullmatch(r'\\w+', fn):\n    raise ValueError(fn)\n",
        "duckdb.sql(f'select * from {fn}()').df()\n"),
    # A tuning script setting a PostgreSQL parameter a flag names.
    _v("p16_psycopg_set_named_setting", """\
import sys

import psycopg2

name, value = sys.argv[1], sys.argv[2]
if not name.isidentifier():
    raise SystemExit("bad setting")
with psycopg2.connect("dbname=app") as conn, conn.cursor() as cur:
    cur.execute(f"set {name} to %s", (value,))
"""),
    # Airflow: the SQL operator's query formatted with a run-time variable.
    _v("p16_airflow_sql_operator_fstring", """\
from airflow.models import Variable
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

region = Variable.get("region")
cleanup = SQLExecuteQueryOperator(
    task_id="cleanup",
    conn_id="warehouse",
    sql=f"delete from staging where region = '{region}'",
)
"""),
    # A filter that keeps the names that fail the pattern.
    _v("p16_comprehension_keeps_failures", """\
import csv
import re
import sqlite3

con = sqlite3.connect("upload.db")
with open("upload.csv", newline="") as fh:
    header = next(csv.reader(fh))
odd = [c for c in header if not re.fullmatch(r"[a-z_]+", c)]
con.execute(f"create table odd ({', '.join(odd)})")
"""),
    # The rejected list built in a branch, then tested outside it.
    _v("p16_rejected_list_in_another_block", """\
import re
import sys
import sqlite3

cols = sys.argv[1:]
bad = []
if len(cols) > 1:
    bad = [c for c in cols if not re.fullmatch(r"\\w+", c)]
if bad:
    raise SystemExit(f"bad columns {bad}")
sqlite3.connect("a.db").execute(f"select {', '.join(cols)} from t")
"""),
    # A click argument left as text.
    _v("p16_click_argument_text", """\
import subprocess

import click


@click.command()
@click.argument("database")
def create(database):
    subprocess.run(f"createdb {database}", shell=True, check=True)
"""),
    # A notebook: each of a list of refs checked, then switched to.
    _nb("p16_nb_each_ref_checked_then_switched", True,
        "import re, os\nrefs = input().split()\n"
        "if any(not re.fullmatch(r'[a-z0-9_]+', r) for r in refs):\n    raise ValueError(refs)\n",
        "for r in refs:\n    os.system(f'git switch {r} && pytest -q')\n"),
    # ---------------------------------------------------------------- safe
    # The same checkout with git's hooks off.
    _s("p16_safe_git_checkout_hooks_off", """\
import re
import subprocess
import sys

BRANCH = re.compile(r"[a-z][a-z0-9-]*")


def deploy(branch: str) -> None:
    if not BRANCH.fullmatch(branch):
        raise SystemExit(f"bad branch: {branch!r}")
    # (no `&& make install` after it: the Makefile would be the branch's, a finding too)
    subprocess.run(f"git -c core.hooksPath=/dev/null checkout {branch}", shell=True, check=True)


deploy(sys.argv[1])
"""),
    # A validated branch only fetched (git writes no tree).
    _s("p16_safe_git_fetch_validated", """\
import os
import re
import sys

branch = sys.argv[1]
if not re.fullmatch(r"\\w+", branch):
    raise SystemExit("bad branch")
os.system(f"git fetch origin {branch}")
"""),
    # held-out 9's shape: rejected names refused before the table is made.
    _s("p16_safe_rejected_names_refused", """\
import csv
import re

import duckdb

IDENT = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def load(con: duckdb.DuckDBPyConnection, path: str) -> None:
    with open(path, newline="") as fh:
        header = next(csv.reader(fh))
    rejected = [c for c in header if not IDENT.fullmatch(c)]
    # refuse the file rather than guess
    if rejected:
        raise ValueError(f"unsupported columns: {rejected}")
    cols = ", ".join(f"{c} VARCHAR" for c in header)
    con.execute(f"create table if not exists uploads ({cols})")
"""),
    # A filter comprehension keeping the names of the pattern.
    _s("p16_safe_filter_comprehension", """\
import csv
import re
import sqlite3

con = sqlite3.connect("upload.db")
with open("upload.csv", newline="") as fh:
    header = next(csv.reader(fh))
cols = [c for c in header if re.fullmatch(r"[a-z_]+", c)]
con.execute(f"create table if not exists clean ({', '.join(cols)})")
"""),
    # not all(...): raise, in a notebook.
    _nb("p16_nb_safe_not_all_validated", False,
        "import re\nimport duckdb\ncols = input().split(',')\n"
        "if not all(re.fullmatch(r'\\w+', c) for c in cols):\n    raise ValueError(cols)\n",
        "duckdb.sql(f\"select {', '.join(cols)} from 'data.parquet'\").df()\n"),
    # click: a choice of environments and an int port.
    _s("p16_safe_click_choice_and_port", """\
import os

import click


@click.command()
@click.option("--env", type=click.Choice(["dev", "staging", "prod"]), default="dev")
@click.option("--port", type=int, default=8000)
def serve(env, port):
    os.system(f"docker compose -f compose.{env}.yml up -d && curl -s localhost:{port}/health")


if __name__ == "__main__":
    serve()
"""),
    # click: a flag and an IntRange.
    _s("p16_safe_click_flag_and_range", """\
import subprocess

import click


@click.group()
def cli():
    pass


@cli.command()
@click.option("--workers", type=click.IntRange(1, 32), default=4)
@click.option("--verbose", is_flag=True)
def test(workers, verbose):
    subprocess.run(f"pytest -n {workers} {'-v' if verbose else ''}", shell=True, check=True)
"""),
    # Airflow: the SQL operator with the value as a parameter.
    _s("p16_safe_airflow_sql_operator_params", """\
from airflow.models import Variable
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

cleanup = SQLExecuteQueryOperator(
    task_id="cleanup",
    conn_id="warehouse",
    sql="delete from staging where region = %(region)s",
    parameters={"region": Variable.get("region")},
)
"""),
    # A validated table name glued to a suffix (one identifier).
    _s("p16_safe_validated_table_suffix", """\
import re
import sqlite3
import sys

month = sys.argv[1]
if not re.fullmatch(r"\\d+", month):
    raise SystemExit("bad month")
con = sqlite3.connect("sales.db")
print(con.execute(f"select count(*) from sales_{month}").fetchone())
"""),
    # A validated name inside a SQL string in a notebook.
    _nb("p16_nb_safe_validated_in_literal", False,
        "import re, sqlite3\nuser = input()\nif not re.fullmatch(r'[a-z]+', user):\n"
        "    raise ValueError(user)\n",
        "con = sqlite3.connect('a.db')\n"
        "con.execute(f\"select * from logins where user = '{user}'\").fetchall()\n"),
]
