"""The cases: vulnerable code and safe look-alikes, as scripts and notebooks are written."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Case:
    """One file of the corpus: Python code, or a notebook's code cells."""

    name: str
    vulnerable: bool
    code: str = ""
    cells: tuple[str, ...] = field(default=())

    @property
    def notebook(self) -> bool:
        return bool(self.cells)

    def write(self, folder: Path) -> Path:
        """Write the case as ``<name>.py`` or ``<name>.ipynb`` in ``folder``."""
        if not self.notebook:
            path = folder / f"{self.name}.py"
            path.write_text(self.code, encoding="utf-8")
            return path
        path = folder / f"{self.name}.ipynb"
        cells = [
            {"cell_type": "code", "execution_count": None, "id": f"cell-{number}",
             "metadata": {}, "outputs": [], "source": source.splitlines(keepends=True)}
            for number, source in enumerate(self.cells)
        ]  # fmt: skip
        notebook = {
            "cells": cells,
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
        path.write_text(json.dumps(notebook, indent=1), encoding="utf-8")
        return path


def _v(name: str, code: str) -> Case:
    return Case(name, True, code)


def _s(name: str, code: str) -> Case:
    return Case(name, False, code)


SQL = [
    _v(
        "sqlite_fstring_param",
        """
import sqlite3

def get_user(conn: sqlite3.Connection, username: str):
    cur = conn.cursor()
    cur.execute(f"SELECT id, email FROM users WHERE name = '{username}'")
    return cur.fetchone()
""",
    ),
    _v(
        "psycopg_percent",
        """
import psycopg2

def orders_for(customer_id):
    with psycopg2.connect("dbname=shop") as conn, conn.cursor() as cur:
        cur.execute("SELECT * FROM orders WHERE customer = '%s'" % customer_id)
        return cur.fetchall()
""",
    ),
    _v(
        "format_method",
        """
def delete_item(db, item_id):
    sql = "DELETE FROM items WHERE id = {}".format(item_id)
    db.execute(sql)
    db.commit()
""",
    ),
    _v(
        "concatenation",
        """
def search(cursor, term):
    cursor.execute("SELECT title FROM books WHERE title LIKE '%" + term + "%'")
    return cursor.fetchall()
""",
    ),
    _v(
        "augmented_filter",
        """
def report(cur, region=None, year=None):
    query = "SELECT region, sum(total) FROM sales WHERE 1=1"
    if region:
        query += f" AND region = '{region}'"
    if year:
        query += f" AND year = {year}"
    query += " GROUP BY region"
    cur.execute(query)
    return cur.fetchall()
""",
    ),
    _v(
        "annotated_assignment",
        """
def count_rows(conn, table: str) -> int:
    statement: str = f"SELECT count(*) FROM {table}"
    return conn.execute(statement).fetchone()[0]
""",
    ),
    _v(
        "attribute_query",
        """
class Report:
    def __init__(self, conn, month):
        self.conn = conn
        self.query = f"SELECT * FROM invoices WHERE month = '{month}'"

    def run(self):
        return self.conn.execute(self.query).fetchall()
""",
    ),
    _v(
        "function_returns_query",
        """
def build_query(status):
    return f"SELECT * FROM tickets WHERE status = '{status}' ORDER BY created"

def open_tickets(cur, status):
    cur.execute(build_query(status))
    return cur.fetchall()
""",
    ),
    _v(
        "module_template_format",
        """
QUERY = "SELECT * FROM events WHERE kind = '{kind}' AND day >= '{day}'"

def events(con, kind, day):
    return con.execute(QUERY.format(kind=kind, day=day)).fetchall()
""",
    ),
    _v(
        "module_template_percent",
        """
import sqlite3

LOOKUP = "SELECT price FROM products WHERE sku = '%s'"

def price(sku):
    conn = sqlite3.connect("shop.db")
    row = conn.execute(LOOKUP % sku).fetchone()
    return row[0]
""",
    ),
    _v(
        "branch_one_side",
        """
def list_users(cur, sort=None):
    if sort:
        sql = f"SELECT * FROM users ORDER BY {sort}"
    else:
        sql = "SELECT * FROM users"
    cur.execute(sql)
    return cur.fetchall()
""",
    ),
    _v(
        "pandas_keyword",
        """
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://localhost/analytics")

def load(country):
    return pd.read_sql(sql=f"SELECT * FROM visits WHERE country = '{country}'", con=engine)
""",
    ),
    _v(
        "pandas_read_sql_query",
        """
import sqlite3
import pandas as pd

def monthly(db_path, month):
    con = sqlite3.connect(db_path)
    df = pd.read_sql_query("SELECT * FROM sales WHERE month = " + month, con)
    return df.groupby("store").sum()
""",
    ),
    _v(
        "sqlalchemy_text",
        """
from sqlalchemy import create_engine, text

engine = create_engine("sqlite:///app.db")

def deactivate(user):
    with engine.begin() as conn:
        conn.execute(text(f"UPDATE users SET active = 0 WHERE name = '{user}'"))
""",
    ),
    _v(
        "textwrap_dedent",
        '''
import textwrap

def top_customers(cur, limit_to):
    cur.execute(textwrap.dedent(f"""
        SELECT customer, sum(amount) AS total
        FROM payments
        WHERE country = '{limit_to}'
        GROUP BY customer
    """))
    return cur.fetchall()
''',
    ),
    _v(
        "space_join",
        """
def select(cur, table, where):
    query = " ".join(["SELECT * FROM", table, "WHERE", where])
    cur.execute(query)
    return cur.fetchall()
""",
    ),
    _v(
        "join_appended_parts",
        """
def filter_rows(cur, filters):
    parts = []
    for column, value in filters.items():
        parts.append(f"{column} = '{value}'")
    where = " AND ".join(parts)
    cur.execute("SELECT * FROM items WHERE " + where)
    return cur.fetchall()
""",
    ),
    _v(
        "duckdb_query",
        """
import duckdb

def summary(path):
    return duckdb.query(f"SELECT count(*) FROM read_csv_auto('{path}')").fetchall()
""",
    ),
    _v(
        "duckdb_sql",
        """
import duckdb

def by_species(species):
    return duckdb.sql(f"SELECT * FROM 'penguins.parquet' WHERE species = '{species}'").df()
""",
    ),
    _v(
        "duckdb_connection_sql",
        """
import duckdb

con = duckdb.connect("warehouse.duckdb")

def daily(day):
    return con.sql("SELECT * FROM orders WHERE day = '" + day + "'").fetchall()
""",
    ),
    _v(
        "polars_read_database",
        """
import polars as pl

def frame(conn, team):
    return pl.read_database(f"SELECT * FROM players WHERE team = '{team}'", conn)
""",
    ),
    _v(
        "exec_driver_sql",
        """
from sqlalchemy import create_engine

engine = create_engine("postgresql://localhost/app")

def vacuum(table):
    with engine.connect() as conn:
        conn.exec_driver_sql(f"VACUUM ANALYZE {table}")
""",
    ),
    _v(
        "asyncpg_fetch",
        """
import asyncpg

async def find(pool, email):
    async with pool.acquire() as conn:
        return await conn.fetch(f"SELECT * FROM accounts WHERE email = '{email}'")
""",
    ),
    _v(
        "asyncpg_execute",
        """
import asyncpg

async def rename(conn: asyncpg.Connection, old, new):
    await conn.execute("UPDATE tags SET name = '%s' WHERE name = '%s'" % (new, old))
""",
    ),
    _v(
        "asyncpg_fetchrow",
        """
async def user(conn, uid):
    return await conn.fetchrow("SELECT * FROM users WHERE id = {}".format(uid))
""",
    ),
    _v(
        "executemany_table",
        """
def insert_all(cur, table, rows):
    cur.executemany(f"INSERT INTO {table} (a, b) VALUES (?, ?)", rows)
""",
    ),
    _v(
        "executescript",
        """
import sqlite3

def reset(db, schema_name):
    conn = sqlite3.connect(db)
    conn.executescript(f"DROP TABLE IF EXISTS {schema_name}; CREATE TABLE {schema_name} (x);")
""",
    ),
    _v(
        "django_raw",
        """
from myapp.models import Person

def people(last_name):
    return Person.objects.raw(f"SELECT * FROM myapp_person WHERE last_name = '{last_name}'")
""",
    ),
    _v(
        "spark_sql",
        """
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()

def partition(dt):
    return spark.sql(f"SELECT * FROM logs WHERE dt = '{dt}'")
""",
    ),
    _v(
        "str_cast_concat",
        """
def get_order(conn, order_id):
    return conn.cursor().execute("SELECT * FROM orders WHERE id = " + str(order_id)).fetchone()
""",
    ),
    _v(
        "closure_query",
        """
def make_loader(conn, schema):
    query = f"SELECT * FROM {schema}.settings"

    def load():
        return conn.execute(query).fetchall()

    return load
""",
    ),
    _v(
        "method_builds_query",
        """
class Repo:
    def __init__(self, cur):
        self.cur = cur

    def _where(self, name):
        return "SELECT * FROM repos WHERE name = '" + name + "'"

    def get(self, name):
        self.cur.execute(self._where(name))
        return self.cur.fetchone()
""",
    ),
    _v(
        "try_block",
        """
import logging

def drop(cur, table):
    try:
        cur.execute(f"DROP TABLE {table}")
    except Exception:
        logging.exception("could not drop")
""",
    ),
    _v(
        "loop_tables",
        """
import sqlite3

conn = sqlite3.connect("data.db")
for table in ["a", "b", input("table: ")]:
    conn.execute(f"DELETE FROM {table} WHERE stale = 1")
""",
    ),
    _v(
        "percent_dict",
        """
def update_email(cur, params):
    cur.execute("UPDATE users SET email = '%(email)s' WHERE id = %(id)s" % params)
""",
    ),
    _v(
        "replace_placeholder",
        """
TEMPLATE = "SELECT * FROM audit WHERE actor = '{actor}'"

def audit(cur, actor):
    cur.execute(TEMPLATE.replace("{actor}", actor))
    return cur.fetchall()
""",
    ),
    _v(
        "sqlite_cli_script",
        """
import sqlite3
import sys

conn = sqlite3.connect("inventory.db")
name = sys.argv[1]
rows = conn.execute(f"SELECT qty FROM stock WHERE name = '{name}'").fetchall()
print(rows)
""",
    ),
    _v(
        "format_spec_limit",
        """
def recent(cur, n):
    cur.execute(f"SELECT * FROM posts ORDER BY created DESC LIMIT {n:d}")
    return cur.fetchall()
""",
    ),
    _v(
        "conditional_expression",
        """
def tasks(cur, owner=None):
    sql = f"SELECT * FROM tasks WHERE owner = '{owner}'" if owner else "SELECT * FROM tasks"
    cur.execute(sql)
    return cur.fetchall()
""",
    ),
    _v(
        "keyword_operation",
        """
def grant(cursor, role):
    cursor.execute(operation="GRANT SELECT ON reports TO " + role)
""",
    ),
    _v(
        "template_dict_lookup",
        """
QUERIES = {
    "by_name": "SELECT * FROM people WHERE name = '{}'",
    "by_city": "SELECT * FROM people WHERE city = '{}'",
}

def lookup(cur, kind, value):
    cur.execute(QUERIES[kind].format(value))
    return cur.fetchall()
""",
    ),
    _v(
        "query_passed_to_helper",
        """
def run(cur, statement):
    cur.execute(statement)
    return cur.fetchall()

def by_owner(cur, owner):
    return run(cur, f"SELECT * FROM pets WHERE owner = '{owner}'")
""",
    ),
]

SHELL = [
    _v(
        "os_system_fstring",
        """
import os

def backup(src, dest):
    os.system(f"tar czf {dest} {src}")
""",
    ),
    _v(
        "os_popen_concat",
        """
import os

def disk_usage(folder):
    return os.popen("du -sh " + folder).read()
""",
    ),
    _v(
        "subprocess_run_shell",
        """
import subprocess

def convert(infile, outfile):
    subprocess.run(f"ffmpeg -i {infile} {outfile}", shell=True, check=True)
""",
    ),
    _v(
        "check_output_percent",
        """
import subprocess

def grep(pattern, path):
    return subprocess.check_output("grep -n '%s' %s" % (pattern, path), shell=True)
""",
    ),
    _v(
        "popen_via_name",
        """
import subprocess

def tail(logfile, lines):
    cmd = f"tail -n {lines} {logfile}"
    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE)
    return proc.communicate()[0]
""",
    ),
    _v(
        "bash_dash_c",
        """
import subprocess

def archive(name):
    subprocess.run(["bash", "-c", f"zip -r {name}.zip {name}"], check=True)
""",
    ),
    _v(
        "sh_dash_c_concat",
        """
import subprocess

def pack(out):
    subprocess.call(["/bin/sh", "-c", "tar czf " + out + " data/"])
""",
    ),
    _v(
        "asyncio_shell",
        """
import asyncio

async def ping(host):
    proc = await asyncio.create_subprocess_shell(f"ping -c 1 {host}")
    return await proc.wait()
""",
    ),
    _v(
        "paramiko_exec",
        """
import paramiko

def remote_ls(host, path):
    client = paramiko.SSHClient()
    client.connect(host)
    stdin, stdout, stderr = client.exec_command(f"ls -la {path}")
    return stdout.read()
""",
    ),
    _v(
        "nbconvert_system_fstring",
        """
# exported from a notebook by nbconvert
from IPython import get_ipython

sample = input("sample: ")
get_ipython().system(f"samtools view {sample}.bam | head")
""",
    ),
    _v(
        "nbconvert_system_expansion",
        """
# exported from a notebook by nbconvert
from IPython import get_ipython

run_dir = input("run: ")
get_ipython().system('ls -l {run_dir}/output')
""",
    ),
    _v(
        "nbconvert_getoutput_dollar",
        """
from IPython import get_ipython

pattern = input()
hits = get_ipython().getoutput('grep -r $pattern src/')
""",
    ),
    _v(
        "os_system_join",
        """
import os

def copy(src, dst):
    os.system(" ".join(["cp", "-r", src, dst]))
""",
    ),
    _v(
        "from_os_import_system",
        """
from os import system

def open_url(url):
    system(f"xdg-open {url}")
""",
    ),
    _v(
        "subprocess_alias",
        """
import subprocess as sp

def kill(pid):
    sp.run(f"kill -9 {pid}", shell=True)
""",
    ),
    _v(
        "command_from_function",
        """
import os

def make_cmd(repo, branch):
    return f"git -C {repo} checkout {branch}"

def checkout(repo, branch):
    os.system(make_cmd(repo, branch))
""",
    ),
    _v(
        "command_augmented",
        """
import subprocess

def build(target, flags=None):
    cmd = "make"
    if flags:
        cmd += f" CFLAGS='{flags}'"
    cmd += " " + target
    subprocess.check_call(cmd, shell=True)
""",
    ),
    _v(
        "getoutput",
        """
import subprocess

def version(tool):
    return subprocess.getoutput(f"{tool} --version")
""",
    ),
    _v(
        "format_rm",
        """
import os

def clean(path):
    os.system("rm -rf {}".format(path))
""",
    ),
    _v(
        "pexpect_spawn",
        """
import pexpect

def login(user, host):
    child = pexpect.spawn(f"ssh {user}@{host}")
    child.expect("password:")
""",
    ),
    _v(
        "shell_keyword_args",
        """
import subprocess

def unzip(archive):
    subprocess.run(args="unzip -o " + archive, shell=True)
""",
    ),
    _v(
        "module_command_template",
        """
import os

CONVERT = "convert {src} -resize 50% {dst}"

def thumbnail(src, dst):
    os.system(CONVERT.format(src=src, dst=dst))
""",
    ),
    _v(
        "argv_list_joined",
        """
import os

def compress(path):
    parts = ["gzip", "-9", path]
    os.system(" ".join(parts))
""",
    ),
]

NOTEBOOKS = [
    Case(
        "nb_bang_braces",
        True,
        cells=(
            "import os\nsrc = input('file: ')\ndst = 'backup/'\n",
            "!cp {src} {dst}\n",
        ),
    ),
    Case(
        "nb_bang_dollar_getoutput",
        True,
        cells=(
            "folder = input()\n",
            "files = !ls $folder\nlen(files)\n",
        ),
    ),
    Case(
        "nb_sx_magic",
        True,
        cells=(
            "pattern = input('pattern')\n",
            "%sx grep {pattern} app.log\n",
        ),
    ),
    Case(
        "nb_query_across_cells",
        True,
        cells=(
            "import sqlite3\nconn = sqlite3.connect('data.db')\ncur = conn.cursor()\n",
            "city = input('city')\nq = f\"SELECT * FROM stores WHERE city = '{city}'\"\n",
            "cur.execute(q)\ncur.fetchall()\n",
        ),
    ),
    Case(
        "nb_time_cell_magic",
        True,
        cells=(
            "import duckdb\nname = input()\n",
            "%%time\nduckdb.sql(f\"SELECT * FROM t WHERE name = '{name}'\").df()\n",
        ),
    ),
    Case(
        "nb_help_and_system",
        True,
        cells=(
            "import os\nimport pandas as pd\ndf = pd.DataFrame()\n",
            "df?\nhost = input()\nos.system(f'ping -c 3 {host}')\n",
        ),
    ),
    Case(
        "nb_env_magic_subprocess",
        True,
        cells=(
            "import subprocess\nhome = %env HOME\nuser_dir = input()\n",
            "subprocess.run(f'du -sh {home}/{user_dir}', shell=True)\n",
        ),
    ),
    Case(
        "nb_safe_shell_vars",
        False,
        cells=(
            "DATA_DIR = 'data'\n",
            "!ls $HOME\n!echo {DATA_DIR}\n!awk '{print $1}' data.txt\n",
        ),
    ),
    Case(
        "nb_safe_istrings",
        False,
        cells=(
            "%load_ext ipy_istring\nimport os, sqlite3\nfrom ipy_istring import sh, sql\n",
            "conn = sqlite3.connect(':memory:')\nuid = input()\n"
            'conn.execute(*sql(i"SELECT * FROM users WHERE id = {uid}"))\n',
            'a, b = input(), input()\nos.system(sh(i"cp {a} {b}"))\n',
        ),
    ),
    Case(
        "nb_safe_bash_cell",
        False,
        cells=(
            "x = input()\nprint(f\"SELECT * FROM t WHERE x = '{x}'\")\n",
            "%%bash\necho {x}\nls $HOME\n",
        ),
    ),
]

SAFE = [
    _s(
        "printed_only",
        """
def explain(table, column):
    print(f"SELECT {column} FROM {table}")
""",
    ),
    _s(
        "logged_command",
        """
import logging
import subprocess

def run(cmd_args):
    logging.info(f"running {' '.join(cmd_args)}")
    subprocess.run(cmd_args, check=True)
""",
    ),
    _s(
        "rebound_before_use",
        """
def status(cur, name):
    q = f"SELECT * FROM jobs WHERE name = '{name}'"
    print("would run:", q)
    q = "SELECT * FROM jobs WHERE name = ?"
    cur.execute(q, (name,))
    return cur.fetchall()
""",
    ),
    _s(
        "qmark_params",
        """
import sqlite3

def get(conn: sqlite3.Connection, uid: int):
    return conn.execute("SELECT * FROM users WHERE id = ?", (uid,)).fetchone()
""",
    ),
    _s(
        "psycopg_params",
        """
import psycopg

def find(conn, email):
    with conn.cursor() as cur:
        cur.execute("SELECT * FROM accounts WHERE email = %s", (email,))
        return cur.fetchone()
""",
    ),
    _s(
        "constant_table",
        """
TABLE = "measurements"

def latest(cur):
    cur.execute(f"SELECT * FROM {TABLE} ORDER BY ts DESC LIMIT 10")
    return cur.fetchall()
""",
    ),
    _s(
        "constant_columns",
        """
COLUMNS = ", ".join(["id", "name", "email"])

def users(cur):
    cur.execute(f"SELECT {COLUMNS} FROM users")
    return cur.fetchall()
""",
    ),
    _s(
        "placeholders_in",
        """
def by_ids(cur, ids):
    marks = ", ".join(["?"] * len(ids))
    cur.execute(f"SELECT * FROM items WHERE id IN ({marks})", ids)
    return cur.fetchall()
""",
    ),
    _s(
        "istring_sql",
        """
from ipy_istring import sql

def get(cur, uid):
    cur.execute(*sql(i"SELECT * FROM users WHERE id = {uid}"))
    return cur.fetchone()
""",
    ),
    _s(
        "istring_sh",
        """
import os
from ipy_istring import sh

def copy(a, b):
    os.system(sh(i"cp -- {a} {b}"))
""",
    ),
    _s(
        "argv_list",
        """
import subprocess

def listing(path):
    return subprocess.run(["ls", "-l", path], capture_output=True, text=True).stdout
""",
    ),
    _s(
        "no_shell_fstring",
        """
import subprocess

def tool_version(tool):
    return subprocess.run([tool, "--version"], capture_output=True)
""",
    ),
    _s(
        "constant_command",
        """
import os

os.system("clear")
os.system("ls -l " + "/tmp")
""",
    ),
    _s(
        "sqlalchemy_bound",
        """
from sqlalchemy import text

def get(conn, uid):
    return conn.execute(text("SELECT * FROM users WHERE id = :id"), {"id": uid}).first()
""",
    ),
    _s(
        "pandas_params",
        """
import pandas as pd

def load(con, region):
    return pd.read_sql("SELECT * FROM sales WHERE region = ?", con, params=(region,))
""",
    ),
    _s(
        "pandas_query_expression",
        """
def big(df, threshold):
    return df.query(f"amount > {threshold}")
""",
    ),
    _s(
        "http_fetch_url",
        """
async def fetch_user(session, uid):
    return await session.fetch(f"https://api.example.com/users/{uid}")
""",
    ),
    _s(
        "error_message",
        """
def check(query, allowed):
    if query not in allowed:
        raise ValueError(f"query {query!r} is not one of SELECT {allowed}")
""",
    ),
    _s(
        "csv_path",
        """
import pandas as pd

def load(base, day):
    path = f"{base}/sales-{day}.csv"
    return pd.read_csv(path)
""",
    ),
    _s(
        "shlex_quoted",
        """
import os
import shlex

def copy(a, b):
    os.system(f"cp {shlex.quote(a)} {shlex.quote(b)}")
""",
    ),
    _s(
        "int_cast_limit",
        """
def page(cur, n):
    cur.execute(f"SELECT * FROM posts ORDER BY id LIMIT {int(n)}")
    return cur.fetchall()
""",
    ),
    _s(
        "constant_query_params",
        """
INSERT = "INSERT INTO events (kind, payload) VALUES (?, ?)"

def log_event(conn, kind, payload):
    conn.execute(INSERT, (kind, payload))
""",
    ),
    _s(
        "display_sql_text",
        """
import streamlit as st

def show(table):
    sql_text = f"SELECT * FROM {table}"
    st.code(sql_text, language="sql")
""",
    ),
    _s(
        "query_from_file",
        """
from pathlib import Path

def run(cur, name):
    cur.execute(Path(f"queries/{name}.sql").read_text())
""",
    ),
    _s(
        "shell_false_explicit",
        """
import subprocess

subprocess.run(["echo", "hello"], shell=False)
""",
    ),
    _s(
        "both_branches_constant",
        """
def order(cur, newest):
    if newest:
        sql = "SELECT * FROM t ORDER BY ts DESC"
    else:
        sql = "SELECT * FROM t ORDER BY ts"
    cur.execute(sql)
""",
    ),
    _s(
        "docstring_example",
        '''
def helper(cur):
    """Example: cur.execute(f"SELECT * FROM {table}") is what NOT to do."""
    cur.execute("SELECT 1")
''',
    ),
    _s(
        "len_in_query",
        """
def batch(cur, rows):
    cur.execute(f"SELECT * FROM t LIMIT {len(rows)}")
""",
    ),
    _s(
        "allow_listed_column",
        """
ALLOWED = {"name", "created", "size"}

def sorted_files(cur, column):
    if column not in ALLOWED:
        raise ValueError(column)
    cur.execute(f"SELECT * FROM files ORDER BY {column}")
    return cur.fetchall()
""",
    ),
    _s(
        "imported_constant",
        """
import os
from myapp.settings import INSTALL_DIR

os.system(f"ls {INSTALL_DIR}")
""",
    ),
    _s(
        "validated_identifier",
        """
import re

def count(cur, table):
    if not re.fullmatch(r"[a-z_]+", table):
        raise ValueError(table)
    return cur.execute(f"SELECT count(*) FROM {table}").fetchone()
""",
    ),
]

# The thirteenth pass's cases: scripts printed to a file, quoted identifiers bound to a name,
# values validated by a helper (and look-alikes where the helper lets the value through).
PASS13 = [
    Case(
        "nb_print_slurm_script_sbatch",
        True,
        cells=(
            "import os\nsample = os.environ.get('SAMPLE', 'S1')\nreads = f'data/{sample}.fq.gz'\n",
            'with open("align.sh", "w") as fh:\n'
            '    print("#!/bin/bash", file=fh)\n'
            '    print("#SBATCH --mem=8G", file=fh)\n'
            '    print(f"bwa mem ref.fa {reads} > {sample}.sam", file=fh)\n',
            "!sbatch align.sh\n",
        ),
    ),
    Case(
        "nb_print_constant_setup_script",
        False,
        cells=(
            "import subprocess, sys\nrun_name = input('run: ')\n",
            'print(f"preparing {run_name}", file=sys.stderr)\n'
            'with open("setup.sh", "w") as fh:\n'
            '    print("set -e", file=fh)\n'
            '    print("pip install -q -r requirements.txt", file=fh)\n',
            'subprocess.run(["bash", "setup.sh"], check=True)\n',
        ),
    ),
    _v(
        "print_backup_script_then_sh",
        """
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--db")
parser.add_argument("--dest")
args = parser.parse_args()

script = open("/tmp/backup.sh", "w")
print("#!/bin/sh", file=script)
print(f"pg_dump {args.db} | gzip > {args.dest}/dump.sql.gz", file=script)
script.close()
subprocess.run(["sh", "/tmp/backup.sh"], check=True)
""",
    ),
    _s(
        "sqlalchemy_quoted_table_bound_first",
        """
import sys

import pandas as pd
import sqlalchemy as sa

engine = sa.create_engine("postgresql+psycopg://warehouse")


def preview(table: str, limit: int = 20) -> pd.DataFrame:
    quoted = engine.dialect.identifier_preparer.quote(table)
    return pd.read_sql(f"SELECT * FROM analytics.{quoted} LIMIT {int(limit)}", engine)


if __name__ == "__main__":
    print(preview(sys.argv[1]))
""",
    ),
    _v(
        "sqlalchemy_quoted_table_raw_filter",
        """
from sqlalchemy import create_engine, text
from starlette.requests import Request

engine = create_engine("sqlite:///app.db")


async def rows(request: Request):
    table = engine.dialect.identifier_preparer.quote(request.path_params["table"])
    owner = request.query_params.get("owner", "")
    with engine.connect() as conn:
        result = conn.execute(text(f"SELECT * FROM {table} WHERE owner = '{owner}'"))
        return [dict(r._mapping) for r in result]
""",
    ),
    _v(
        "quoted_only_when_configured",
        """
import os
import sqlite3

import sqlalchemy as sa

engine = sa.create_engine("sqlite://")
con = sqlite3.connect("events.db")
table = os.environ["EVENTS_TABLE"]
if os.environ.get("QUOTE_NAMES") == "1":
    name = engine.dialect.identifier_preparer.quote(table)
else:
    name = table
count = con.execute(f"SELECT count(*) FROM {name}").fetchone()[0]
print(count)
""",
    ),
    Case(
        "nb_psycopg_identifier_bound",
        False,
        cells=(
            "import psycopg\nfrom psycopg import sql\nconn = psycopg.connect('dbname=lab')\n",
            "schema_table = input('table to inspect: ')\n",
            "ident = sql.Identifier(schema_table).as_string(conn)\n"
            "rows = conn.execute(f'SELECT * FROM {ident} LIMIT 5').fetchall()\nrows\n",
        ),
    ),
    _s(
        "allow_list_helper_returns_table",
        """
import sqlite3
import sys

REPORT_TABLES = {"daily_sales", "weekly_sales", "returns"}


def report_table(name: str) -> str:
    if name not in REPORT_TABLES:
        raise SystemExit(f"unknown report {name!r}")
    return name


def main() -> None:
    con = sqlite3.connect("reports.db")
    table = report_table(sys.argv[1])
    for row in con.execute(f"SELECT * FROM {table} ORDER BY day"):
        print(row)


if __name__ == "__main__":
    main()
""",
    ),
    _s(
        "ensure_identifier_then_alter",
        """
import re

import duckdb

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def ensure_identifier(name):
    \"\"\"Refuse a column name that is not a plain identifier.\"\"\"
    if not IDENT.fullmatch(name):
        raise ValueError(f"bad column name: {name!r}")


def add_column(con: duckdb.DuckDBPyConnection, column: str) -> None:
    ensure_identifier(column)
    con.execute(f"ALTER TABLE measurements ADD COLUMN {column} DOUBLE")
""",
    ),
    _v(
        "guard_returns_bool_ignored",
        """
import subprocess
import sys

BRANCHES = {"main", "release", "develop"}


def is_known(branch):
    if branch not in BRANCHES:
        return False
    return True


def deploy(branch):
    is_known(branch)
    subprocess.run(f"git checkout {branch} && make deploy", shell=True, check=True)


deploy(sys.argv[1])
""",
    ),
    _v(
        "validator_checks_other_argument",
        """
import sqlite3

from fastapi import FastAPI

app = FastAPI()
con = sqlite3.connect("shop.db", check_same_thread=False)
TABLES = {"orders", "customers"}


def check_table(table):
    if table not in TABLES:
        raise ValueError(table)


@app.get("/export")
def export(table: str, order_by: str = "id"):
    check_table(table)
    return con.execute(f"SELECT * FROM {table} ORDER BY {order_by}").fetchall()
""",
    ),
    _s(
        "sort_clause_helper_constants",
        """
import sqlite3

from flask import Flask, request

app = Flask(__name__)


def sort_clause(sort):
    if sort == "newest":
        return "created_at DESC"
    if sort == "price":
        return "price ASC"
    return "id"


@app.get("/products")
def products():
    con = sqlite3.connect("shop.db")
    sql = f"SELECT id, name FROM products ORDER BY {sort_clause(request.args.get('sort'))}"
    return {"rows": con.execute(sql).fetchall()}
""",
    ),
    _v(
        "sort_clause_helper_falls_back_to_input",
        """
import sqlite3
import sys


def sort_clause(sort):
    # the ORDER BY of the listing; unknown sorts are passed through for power users
    return "created_at DESC" if sort == "newest" else (sort or "id")


con = sqlite3.connect("shop.db")
for row in con.execute(f"SELECT id, name FROM products ORDER BY {sort_clause(sys.argv[1])}"):
    print(*row, sep="\t")
""",
    ),
    Case(
        "nb_helper_validated_dataset_bang",
        False,
        cells=(
            "DATASETS = {'mnist', 'cifar10', 'imdb'}\n"
            "def dataset_name(name):\n"
            "    if name not in DATASETS:\n"
            "        raise ValueError(f'unknown dataset {name}')\n"
            "    return name\n",
            "import ipywidgets as widgets\nbox = widgets.Text(value='mnist')\nbox\n",
            "ds = dataset_name(box.value)\n"
            "import subprocess\n"
            "subprocess.run(f'python prepare.py --dataset {ds}', shell=True, check=True)\n",
        ),
    ),
    Case(
        "nb_helper_strips_dataset_only",
        True,
        cells=(
            "def dataset_name(name):\n    return name.strip().lower()\n",
            "import ipywidgets as widgets\nbox = widgets.Text(value='mnist')\nbox\n",
            "ds = dataset_name(box.value)\n"
            "import subprocess\n"
            "subprocess.run(f'python prepare.py --dataset {ds}', shell=True, check=True)\n",
        ),
    ),
    _v(
        "assert_allow_list_helper",
        """
import os
import sys

ENVIRONMENTS = ("staging", "production")


def environment(name):
    assert name in ENVIRONMENTS, name
    return name


env = environment(sys.argv[1])
os.system(f"kubectl --context {env} rollout restart deployment/api")
""",
    ),
    _s(
        "table_for_kind_dict_helper",
        """
import argparse

import psycopg2

TABLE_FOR = {"clicks": "events_click", "views": "events_view"}


def table_for(kind):
    return TABLE_FOR[kind]


parser = argparse.ArgumentParser()
parser.add_argument("kind")
args = parser.parse_args()
with psycopg2.connect("dbname=events") as conn, conn.cursor() as cur:
    cur.execute(f"SELECT count(*) FROM {table_for(args.kind)} WHERE day = %s", ("2024-01-01",))
    print(cur.fetchone())
""",
    ),
]

# The fourteenth pass's cases: quoted queries bound to a name, dataclasses that validate a
# field, validations and quoted names in notebook cells, values cast or parsed before they
# are formatted (and look-alikes where the value gets through raw).
PASS14 = [
    _s(
        "sa_quoted_schema_table_count",
        """
import argparse

from sqlalchemy import create_engine

engine = create_engine("postgresql+psycopg://analytics")

parser = argparse.ArgumentParser()
parser.add_argument("schema")
parser.add_argument("table")
args = parser.parse_args()

count_sql = (
    f"SELECT count(*) FROM {engine.dialect.identifier_preparer.quote(args.schema)}"
    f".{engine.dialect.identifier_preparer.quote(args.table)}"
)
with engine.connect() as conn:
    print(conn.exec_driver_sql(count_sql).scalar())
""",
    ),
    _v(
        "sa_quoted_table_raw_owner_bound",
        """
from flask import Flask, request
from sqlalchemy import create_engine, text

app = Flask(__name__)
engine = create_engine("sqlite:///inventory.db")


@app.get("/items/<table>")
def items(table):
    owner = request.args.get("owner", "")
    sql = (
        f"SELECT * FROM {engine.dialect.identifier_preparer.quote(table)} "
        f"WHERE owner = '{owner}'"
    )
    with engine.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(text(sql))]
""",
    ),
    _s(
        "psycopg_identifier_query_bound",
        """
import sys

import psycopg
from psycopg import sql

with psycopg.connect("dbname=crm") as conn, conn.cursor() as cur:
    query = f"SELECT id, email FROM {sql.Identifier(sys.argv[1]).as_string(conn)} WHERE id = %s"
    cur.execute(query, (int(sys.argv[2]),))
    print(cur.fetchone())
""",
    ),
    _v(
        "psycopg_identifier_query_raw_order",
        """
import sys

import psycopg
from psycopg import sql

table, order = sys.argv[1], sys.argv[2]
with psycopg.connect("dbname=crm") as conn:
    query = f"SELECT * FROM {sql.Identifier(table).as_string(conn)} ORDER BY {order}"
    for row in conn.execute(query):
        print(row)
""",
    ),
    Case(
        "nb_quoted_query_then_filter_appended",
        True,
        cells=(
            "import sqlalchemy as sa\nengine = sa.create_engine('sqlite:///sales.db')\n"
            "table = input('table: ')\nregion = input('region: ')\n",
            "q = f'SELECT * FROM {engine.dialect.identifier_preparer.quote(table)}'\n"
            "q += f\" WHERE region = '{region}'\"\n",
            "with engine.connect() as conn:\n    rows = conn.exec_driver_sql(q).fetchall()\n"
            "rows[:5]\n",
        ),
    ),
    Case(
        "nb_quoted_table_cell_then_preview",
        False,
        cells=(
            "import pandas as pd\nimport sqlalchemy as sa\n"
            "engine = sa.create_engine('duckdb:///lake.duckdb')\n",
            "import ipywidgets as w\npicker = w.Text(value='trips')\npicker\n",
            "tbl = engine.dialect.identifier_preparer.quote(picker.value)\n",
            "pd.read_sql(f'SELECT * FROM {tbl} LIMIT 20', engine)\n",
        ),
    ),
    _s(
        "dataclass_validated_export_table",
        """
import csv
import sqlite3
import sys
from dataclasses import dataclass

EXPORTABLE = ("invoices", "credit_notes", "customers")


@dataclass(frozen=True, slots=True)
class ExportJob:
    \"\"\"One table written to one CSV file.\"\"\"

    path: str
    table: str = "invoices"

    def __post_init__(self) -> None:
        if self.table not in EXPORTABLE:
            raise KeyError(self.table)


def export(job: ExportJob, con: sqlite3.Connection) -> None:
    rows = con.execute(f"SELECT * FROM {job.table}")
    with open(job.path, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)


if __name__ == "__main__":
    export(ExportJob(sys.argv[2], table=sys.argv[1]), sqlite3.connect("books.db"))
""",
    ),
    _v(
        "dataclass_post_init_only_normalises",
        """
import sqlite3
import sys
from dataclasses import dataclass


@dataclass
class ExportJob:
    table: str

    def __post_init__(self):
        self.table = self.table.strip().lower()


def export(job: ExportJob, con: sqlite3.Connection):
    return con.execute(f"SELECT * FROM {job.table}").fetchall()


print(export(ExportJob(sys.argv[1]), sqlite3.connect("books.db")))
""",
    ),
    _v(
        "dataclass_validated_then_overridden",
        """
import argparse
import subprocess
from dataclasses import dataclass

CLUSTERS = {"eu-west", "us-east"}


@dataclass
class Rollout:
    \"\"\"Where the API is restarted.\"\"\"

    cluster: str

    def __post_init__(self):
        if self.cluster not in CLUSTERS:
            raise SystemExit(f"unknown cluster {self.cluster}")


def deploy(r: Rollout) -> None:
    subprocess.run(f"kubectl --context {r.cluster} rollout restart deploy/api", shell=True,
                   check=True)


parser = argparse.ArgumentParser()
parser.add_argument("cluster")
parser.add_argument("--context-override")
args = parser.parse_args()
rollout = Rollout("eu-west")
if args.context_override:
    rollout.cluster = args.context_override
deploy(rollout)
""",
    ),
    Case(
        "nb_dataclass_validated_dataset_run",
        False,
        cells=(
            "from dataclasses import dataclass\nDATASETS = {'mnist', 'fashion', 'kmnist'}\n\n"
            "@dataclass(frozen=True)\nclass Run:\n    dataset: str\n\n"
            "    def __post_init__(self):\n        if self.dataset not in DATASETS:\n"
            "            raise ValueError(self.dataset)\n",
            "import ipywidgets as w\nds = w.Dropdown(options=sorted(DATASETS))\nds\n",
            "import subprocess\nrun = Run(ds.value)\n"
            "subprocess.run(f'python train.py --dataset {run.dataset} --epochs 3', "
            "shell=True, check=True)\n",
        ),
    ),
    Case(
        "nb_guard_cell_returns_bool",
        True,
        cells=(
            "BRANCHES = {'main', 'staging'}\n\ndef known_branch(b):\n"
            "    if b not in BRANCHES:\n        return False\n    return True\n",
            "import os\nbranch = os.environ.get('BRANCH', 'main')\nknown_branch(branch)\n",
            "import subprocess\n"
            "subprocess.run(f'git checkout {branch} && make docs', shell=True)\n",
        ),
    ),
    Case(
        "nb_ensure_cell_then_checkout",
        False,
        cells=(
            "BRANCHES = {'main', 'staging'}\n\ndef ensure_branch(b):\n"
            "    if b not in BRANCHES:\n        raise ValueError(f'unknown branch {b}')\n",
            "import os\nbranch = os.environ.get('BRANCH', 'main')\nensure_branch(branch)\n",
            "import subprocess\n"
            "subprocess.run(f'git checkout {branch} && make docs', shell=True)\n",
        ),
    ),
    _s(
        "int_port_from_config_helper",
        """
import json
import os


def read_port(path="service.json"):
    with open(path) as fh:
        return json.load(fh)["port"]


port = int(read_port())
os.system(f"fuser -k {port}/tcp")
""",
    ),
    _v(
        "int_checked_but_raw_formatted",
        """
import os
import sys

raw = sys.argv[1]
pid = int(raw)  # fails early on junk...
os.system(f"kill -TERM {raw}")  # ...but the text given is what the shell runs
""",
    ),
    _s(
        "strptime_month_s3_sync",
        """
import subprocess
import sys
from datetime import datetime

month = datetime.strptime(sys.argv[1], "%Y-%m")
subprocess.run(f"aws s3 sync s3://logs/{month:%Y/%m}/ ./logs/{month:%Y-%m}", shell=True,
               check=True)
""",
    ),
    _v(
        "strptime_parsed_raw_used",
        """
import subprocess
import sys
from datetime import datetime

day = sys.argv[1]
datetime.strptime(day, "%Y-%m-%d")  # validates, but the parsed value is thrown away
subprocess.run(f"pg_dump --table=events_{day} shop > events_{day}.sql", shell=True, check=True)
""",
    ),
    _v(
        "tag_pattern_allows_spaces",
        """
import re
import subprocess
import sys

tag = sys.argv[1]
if not re.fullmatch(r"[\\w .-]+", tag):
    raise SystemExit("bad tag")
subprocess.run(f"git tag {tag} && git push origin {tag}", shell=True, check=True)
""",
    ),
    _s(
        "ensure_then_vacuum_into",
        """
import re
import sqlite3
import sys

SNAPSHOT = re.compile(r"[a-z0-9_]+")


def ensure_snapshot_name(name):
    if not SNAPSHOT.fullmatch(name):
        raise SystemExit(f"bad snapshot name {name!r}")


name = sys.argv[1]
ensure_snapshot_name(name)
sqlite3.connect("app.db").execute(f"VACUUM INTO 'snapshots/{name}.db'")
""",
    ),
]

CASES: list[Case] = [*SQL, *SHELL, *NOTEBOOKS, *SAFE, *PASS13, *PASS14]
# The scripts of the corpus (no notebook, no i-literal): the code a big file is made of.
SCRIPTS: list[str] = [c.code for c in CASES if not c.notebook and 'i"' not in c.code]


def dense_file(lines: int) -> str:
    """Code dense with sinks to ``lines`` lines: :data:`SCRIPTS`, over and over."""
    text: list[str] = []
    count = 0
    while count < lines:
        for script in SCRIPTS:
            text.append(script + "\n")
            count += script.count("\n") + 1
            if count >= lines:
                break
    return "".join(text)


@dataclass(frozen=True)
class Score:
    """How a tool did on the corpus."""

    found: int  # vulnerable cases with a finding
    missed: tuple[str, ...]
    false_alarms: tuple[str, ...]  # safe cases with a finding
    vulnerable: int
    safe: int

    @property
    def recall(self) -> float:
        return self.found / self.vulnerable

    @property
    def precision(self) -> float:
        flagged = self.found + len(self.false_alarms)
        return self.found / flagged if flagged else 0.0


def score(flagged: set[str], cases: list[Case] | None = None) -> Score:
    """Score the names of the cases (by default :data:`CASES`) a tool flagged."""
    cases = CASES if cases is None else cases
    vulnerable = [c.name for c in cases if c.vulnerable]
    safe = [c.name for c in cases if not c.vulnerable]
    return Score(
        found=sum(name in flagged for name in vulnerable),
        missed=tuple(name for name in vulnerable if name not in flagged),
        false_alarms=tuple(name for name in safe if name in flagged),
        vulnerable=len(vulnerable),
        safe=len(safe),
    )
