"""A held-out corpus, written blind to the check: code as public scripts and notebooks write it.

Each case is modelled on a pattern seen in public repositories (Streamlit and Flask apps, ETL
jobs, Databricks exports, chat bots, Colab notebooks, SSH automation). Vulnerable means a value the
code does not fully control reaches shell command text or SQL text as code; safe look-alikes format
only constants, pass values as parameters or argument lists, quote correctly, or never reach a
sink.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


SQL_VULNERABLE = [
    _v(
        "h_sqlite_search_like",
        """
import sqlite3

DB = "inventory.db"


def search_products(term):
    # free-text search box on the catalogue page
    conn = sqlite3.connect(DB)
    cur = conn.cursor()
    cur.execute(f"SELECT id, name, price FROM products WHERE name LIKE '%{term}%'")
    rows = cur.fetchall()
    conn.close()
    return rows
""",
    ),
    _v(
        "h_percent_patient_report",
        """
class ReportStore:
    def __init__(self, conn):
        self.conn = conn
        self.cursor = conn.cursor()

    def get_report_ids(self, patient_id):
        # reports belonging to one patient
        query = "SELECT Report_ID FROM reports WHERE Patient_ID='%s'"
        self.cursor.execute(query % patient_id)
        return [row[0] for row in self.cursor.fetchall()]
""",
    ),
    _v(
        "h_module_constant_format",
        '''
import psycopg2

ORDERS_SINCE = """
    SELECT order_id, customer_id, total
    FROM orders
    WHERE created_at >= '{since}' AND status = '{status}'
"""


def orders_since(dsn, since, status="paid"):
    # used by the finance export
    with psycopg2.connect(dsn) as conn:
        with conn.cursor() as cur:
            cur.execute(ORDERS_SINCE.format(since=since, status=status))
            return cur.fetchall()
''',
    ),
    _v(
        "h_concat_login",
        """
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.route("/login", methods=["POST"])
def login():
    # legacy login form
    username = request.form["username"]
    password = request.form["password"]
    db = sqlite3.connect("users.db")
    sql = ("SELECT * FROM users WHERE username = '" + username
           + "' AND password = '" + password + "'")
    user = db.execute(sql).fetchone()
    return ("ok", 200) if user else ("denied", 401)
""",
    ),
    _v(
        "h_plus_equals_filters",
        """
from flask import Flask, jsonify, request

from .db import get_db

app = Flask(__name__)


@app.get("/api/listings")
def listings():
    # listing search endpoint
    query = "SELECT * FROM listings WHERE 1=1"
    city = request.args.get("city")
    max_price = request.args.get("max_price")
    if city:
        query += f" AND city = '{city}'"
    if max_price:
        query += f" AND price <= {max_price}"
    query += " ORDER BY created_at DESC LIMIT 50"
    rows = get_db().execute(query).fetchall()
    return jsonify([dict(r) for r in rows])
""",
    ),
    _v(
        "h_helper_returns_query",
        """
import mysql.connector


def build_query(table, column, value):
    # shared by the admin scripts
    return f"SELECT * FROM {table} WHERE {column} = '{value}'"


def lookup(conn, table, column, value):
    cursor = conn.cursor(dictionary=True)
    cursor.execute(build_query(table, column, value))
    return cursor.fetchall()


if __name__ == "__main__":
    conn = mysql.connector.connect(user="app", database="shop")
    print(lookup(conn, "customers", "email", input("email: ")))
""",
    ),
    _v(
        "h_self_query_attribute",
        '''
import psycopg2


class DailyExtract:
    """Pull one day of events for a tenant."""

    def __init__(self, dsn, tenant, day):
        self.conn = psycopg2.connect(dsn)
        # built once, run later by the scheduler
        self.query = f"SELECT * FROM events WHERE tenant = '{tenant}' AND day = '{day}'"

    def run(self):
        with self.conn.cursor() as cur:
            cur.execute(self.query)
            return cur.fetchall()
''',
    ),
    _v(
        "h_read_sql_staticmethod",
        '''
import sqlite3

import pandas as pd


def get_connection():
    return sqlite3.connect("projects.db")


class ProjectRepo:
    @staticmethod
    def get_project(project_id):
        """Get project by ID"""
        conn = get_connection()
        df = pd.read_sql(f"SELECT * FROM projects WHERE id={project_id}", conn)
        conn.close()
        return df.iloc[0].to_dict() if not df.empty else None
''',
    ),
    _v(
        "h_read_sql_keywords",
        """
import pandas as pd
import streamlit as st
from sqlalchemy import create_engine

engine = create_engine(st.secrets["db_url"])

# sidebar filter for the sales dashboard
region = st.sidebar.text_input("Region", "EMEA")
df = pd.read_sql(
    sql=f"SELECT month, SUM(amount) AS revenue FROM sales WHERE region = '{region}' GROUP BY month",
    con=engine,
)
st.line_chart(df, x="month", y="revenue")
""",
    ),
    _v(
        "h_read_sql_query_dedent",
        '''
import textwrap

import pandas as pd


def load_station(engine, station_id, start, end):
    # readings for the station chart
    query = textwrap.dedent(f"""
        SELECT ts, level
        FROM gw_readings
        WHERE station = '{station_id}'
          AND ts BETWEEN '{start}' AND '{end}'
        ORDER BY ts
    """)
    return pd.read_sql_query(query, engine, parse_dates=["ts"])
''',
    ),
    _v(
        "h_sqlalchemy_text_fstring",
        """
from sqlalchemy import create_engine, text

engine = create_engine("postgresql+psycopg2://app@localhost/app")


def deactivate_user(email: str) -> int:
    # called from the support tool
    with engine.begin() as conn:
        result = conn.execute(text(f"UPDATE users SET active = false WHERE email = '{email}'"))
        return result.rowcount
""",
    ),
    _v(
        "h_engine_execute_percent",
        """
import sys

from sqlalchemy import create_engine

# one-off cleanup script (SQLAlchemy 1.3)
engine = create_engine("mysql://root@localhost/crm")
batch = sys.argv[1]
engine.execute("DELETE FROM imports WHERE batch_id = '%s'" % batch)
print("removed batch", batch)
""",
    ),
    _v(
        "h_exec_driver_sql_search_path",
        """
from contextvars import ContextVar

from sqlalchemy import event
from sqlalchemy.engine import Engine

tenant_schema: ContextVar[str] = ContextVar("tenant_schema", default="")


@event.listens_for(Engine, "begin")
def set_search_path(conn):
    # per-tenant schema, set by the middleware
    schema = tenant_schema.get()
    if schema:
        conn.exec_driver_sql(f"SET LOCAL search_path TO {schema}, public")
""",
    ),
    _v(
        "h_duckdb_sql_argv_path",
        """
import sys

import duckdb

# quick look at a parquet or csv file given on the command line
dataset_path = sys.argv[1]
df = duckdb.sql(f"SELECT * FROM '{dataset_path}' LIMIT 20").df()
print(df.to_string())
""",
    ),
    _v(
        "h_duckdb_query_streamlit",
        """
import duckdb
import streamlit as st

con = duckdb.connect("warehouse.duckdb", read_only=True)

st.title("Trip explorer")
# free-form filter typed by the analyst
borough = st.text_input("Borough", "Manhattan")
trips = duckdb.query(
    f"SELECT pickup_at, fare FROM trips WHERE borough = '{borough}'", connection=con
).df()
st.dataframe(trips)
""",
    ),
    _v(
        "h_duckdb_copy_out",
        """
import argparse

import duckdb


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--since", default="2024-01-01")
    args = parser.parse_args()
    con = duckdb.connect("events.duckdb")
    # export recent events as parquet
    con.execute(
        f"COPY (SELECT * FROM events WHERE ts >= '{args.since}') TO '{args.out}' (FORMAT PARQUET)"
    )


if __name__ == "__main__":
    main()
""",
    ),
    _v(
        "h_polars_read_database_source",
        '''
import polars as pl


def xp_spectrum(connection, source_id: str, table: str = "gaia_dr3.xp_sampled"):
    # one Gaia source, or None when missing
    query = f"""
        SELECT source_id, ra, dec, flux, flux_error
        FROM {table}
        WHERE source_id = {source_id}
    """
    df = pl.read_database(query, connection)
    return None if df.is_empty() else df
''',
    ),
    _v(
        "h_polars_read_database_kwargs",
        """
import os

import polars as pl
from sqlalchemy import create_engine

engine = create_engine(os.environ["WAREHOUSE_URL"])


def load_customers(country):
    # customers per country for the churn model
    sql = "SELECT id, signup_date, plan FROM customers"
    sql = sql + " WHERE country = '" + country + "'"
    return pl.read_database(query=sql, connection=engine)
""",
    ),
    _v(
        "h_spark_sql_update_metadata",
        '''
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()


def mark_ingested(metadata_table, dta_path, table_name):
    # bookkeeping after each Stata file is loaded
    spark.sql(f"""
        UPDATE {metadata_table}
        SET ingested = TRUE, table_name = '{table_name}'
        WHERE dta_path = '{dta_path}'
    """)
    print("Updated metadata for:", dta_path)
''',
    ),
    _v(
        "h_spark_sql_databricks_widget",
        """
# Databricks notebook source
dbutils.widgets.text("table_name", "orders")
dbutils.widgets.text("since", "2024-01-01")

# COMMAND ----------

table_name = dbutils.widgets.get("table_name")
since = dbutils.widgets.get("since")

# COMMAND ----------

# row counts for the job parameters
result = spark.sql(f"SELECT COUNT(*) AS n FROM bronze.{table_name} WHERE _ingested >= '{since}'")
display(result)
""",
    ),
    _v(
        "h_asyncpg_fetch_user_tasks",
        """
from fastapi import FastAPI

from database import pool

app = FastAPI()


@app.get("/tasks/{user_id}")
async def get_tasks(user_id: str):
    # list a user's tasks
    async with pool.acquire() as conn:
        rows = await conn.fetch(f"SELECT * FROM tasks WHERE user_id = {user_id};")
    return [dict(r) for r in rows]
""",
    ),
    _v(
        "h_asyncpg_execute_status",
        """
import asyncpg


async def set_status(dsn: str, job_id: str, status: str) -> None:
    # worker heartbeat
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(f"UPDATE jobs SET status = '{status}' WHERE id = '{job_id}'")
        count = await conn.fetchval(f"SELECT count(*) FROM jobs WHERE status = '{status}'")
        print(status, count)
    finally:
        await conn.close()
""",
    ),
    _v(
        "h_aiosqlite_bot_balance",
        """
import aiosqlite
from aiogram import Router, types

router = Router()


@router.message()
async def balance(message: types.Message):
    # "/balance <name>" in the group chat
    name = message.text.removeprefix("/balance").strip()
    async with aiosqlite.connect("bot.db") as db:
        async with db.execute(f"SELECT coins FROM wallets WHERE name = '{name}'") as cursor:
            row = await cursor.fetchone()
    await message.answer(str(row[0]) if row else "no wallet")
""",
    ),
    _v(
        "h_psycopg2_try_except",
        """
import logging

import psycopg2

log = logging.getLogger(__name__)


def delete_device(conn, device_id):
    # remove a device and its readings
    cur = conn.cursor()
    try:
        cur.execute(f"DELETE FROM readings WHERE device_id = '{device_id}'")
        cur.execute(f"DELETE FROM devices WHERE id = '{device_id}'")
        conn.commit()
    except psycopg2.Error:
        conn.rollback()
        log.exception("could not delete %s", device_id)
    finally:
        cur.close()
""",
    ),
    _v(
        "h_if_branch_query",
        """
import sqlite3


def list_books(conn: sqlite3.Connection, author: str | None = None):
    # the author filter is optional
    if author:
        q = f"SELECT title, year FROM books WHERE author = '{author}' ORDER BY year"
    else:
        q = "SELECT title, year FROM books ORDER BY year"
    return conn.execute(q).fetchall()
""",
    ),
    _v(
        "h_where_join_clauses",
        """
from django.db import connection
from django.http import JsonResponse


def search(request):
    # every query-string pair becomes a filter
    clauses = [f"{key} = '{value}'" for key, value in request.GET.items()]
    where = " AND ".join(clauses) or "TRUE"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, title FROM articles WHERE {where}")
        rows = cursor.fetchall()
    return JsonResponse({"results": rows})
""",
    ),
    _v(
        "h_in_list_comprehension",
        """
import pandas as pd


def orders_for(engine, customer_ids):
    # customer ids arrive from the uploaded CSV
    id_list = ", ".join(f"'{cid}'" for cid in customer_ids)
    sql = f"SELECT * FROM orders WHERE customer_id IN ({id_list})"
    return pd.read_sql(sql, engine)


if __name__ == "__main__":
    from sqlalchemy import create_engine

    ids = pd.read_csv("customers.csv")["customer_id"].tolist()
    print(orders_for(create_engine("sqlite:///shop.db"), ids))
""",
    ),
    _v(
        "h_lambda_fetch",
        """
import sqlite3
import sys

conn = sqlite3.connect("library.db")
cur = conn.cursor()

# tiny CLI: python lookup.py <isbn>
fetch = lambda isbn: cur.execute(f"SELECT * FROM books WHERE isbn = '{isbn}'").fetchall()

for row in fetch(sys.argv[1]):
    print(row)
""",
    ),
    _v(
        "h_dict_of_templates",
        """
import sqlite3

QUERIES = {
    "by_name": "SELECT * FROM employees WHERE name = '{}'",
    "by_dept": "SELECT * FROM employees WHERE department = '{}'",
}


def find(conn: sqlite3.Connection, kind: str, value: str):
    # the HR bot picks the query by intent
    return conn.execute(QUERIES[kind].format(value)).fetchall()
""",
    ),
    _v(
        "h_dataclass_report_sql",
        """
import argparse
import sqlite3
from dataclasses import dataclass


@dataclass
class Report:
    table: str
    where: str

    def sql(self) -> str:
        return f"SELECT * FROM {self.table} WHERE {self.where}"


if __name__ == "__main__":
    # ad-hoc reports for the ops team
    p = argparse.ArgumentParser()
    p.add_argument("table")
    p.add_argument("--where", default="1=1")
    a = p.parse_args()
    report = Report(a.table, a.where)
    for row in sqlite3.connect("ops.db").execute(report.sql()):
        print(row)
""",
    ),
    _v(
        "h_log_then_execute",
        """
import logging

logger = logging.getLogger("etl")


def purge_partition(cursor, schema, day):
    # drop one day before reloading it
    query = f"DELETE FROM {schema}.fact_sales WHERE sale_date = '{day}'"
    logger.info("Running: %s", query)
    cursor.execute(query)
    logger.info("Deleted %d rows", cursor.rowcount)
""",
    ),
    _v(
        "h_decorator_with_cursor",
        """
import functools
import sqlite3


def with_cursor(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        conn = sqlite3.connect("todo.db")
        try:
            result = func(conn.cursor(), *args, **kwargs)
            conn.commit()
            return result
        finally:
            conn.close()

    return wrapper


@with_cursor
def remove_item(cur, item_id):
    # called from the "delete" button handler
    cur.execute(f"DELETE FROM items WHERE id = {item_id}")
""",
    ),
    _v(
        "h_context_manager_cursor",
        """
from contextlib import contextmanager

import psycopg2

DSN = "dbname=metrics user=grafana"


@contextmanager
def cursor():
    conn = psycopg2.connect(DSN)
    try:
        with conn, conn.cursor() as cur:
            yield cur
    finally:
        conn.close()


def metric_series(name, hours):
    # backs the /series?name=...&hours=... endpoint
    with cursor() as cur:
        cur.execute(
            f"SELECT ts, value FROM samples WHERE metric = '{name}' "
            f"AND ts > now() - interval '{hours} hours' ORDER BY ts"
        )
        return cur.fetchall()
""",
    ),
    _v(
        "h_annotated_query",
        """
import sqlite3


def latest_scores(conn: sqlite3.Connection, player: str, limit: int = 10) -> list[tuple]:
    # leaderboard popup
    query: str = f"SELECT score, played_at FROM scores WHERE player = '{player}' LIMIT {limit}"
    return conn.execute(query).fetchall()
""",
    ),
    _v(
        "h_strip_wrapper",
        '''
def count_signups(cur, campaign):
    # campaign code comes from the marketing spreadsheet
    cur.execute(f"""
        SELECT count(*)
        FROM signups
        WHERE utm_campaign = '{campaign}'
    """.strip())
    return cur.fetchone()[0]
''',
    ),
    _v(
        "h_django_raw",
        """
from django.shortcuts import render

from .models import Product


def product_search(request):
    # the search box on the shop front
    q = request.GET.get("q", "")
    products = Product.objects.raw(f"SELECT * FROM shop_product WHERE name ILIKE '%%{q}%%'")
    return render(request, "shop/search.html", {"products": products, "q": q})
""",
    ),
    _v(
        "h_flask_format_username",
        """
from flask import Flask, g, request

app = Flask(__name__)


@app.route("/profile")
def profile():
    # profile page for ?user=
    username = request.args.get("user", "")
    cur = g.db.execute("SELECT bio, avatar FROM profiles WHERE username = '{}'".format(username))
    row = cur.fetchone()
    return {"bio": row[0], "avatar": row[1]} if row else ({}, 404)
""",
    ),
    _v(
        "h_clickhouse_client_execute",
        """
from clickhouse_driver import Client

client = Client(host="clickhouse")


def top_pages(site: str, day: str, n: int = 20):
    # analytics API, parameters from the dashboard
    return client.execute(
        f"SELECT path, count() AS hits FROM pageviews "
        f"WHERE site = '{site}' AND toDate(ts) = '{day}' "
        f"GROUP BY path ORDER BY hits DESC LIMIT {n}"
    )
""",
    ),
    _v(
        "h_percent_dict_params",
        """
def mark_paid(cursor, invoice_id, paid_at):
    # callback from the payment provider
    cursor.execute(
        "UPDATE invoices SET paid_at = '%(paid_at)s' WHERE id = %(id)s"
        % {"paid_at": paid_at, "id": invoice_id}
    )
""",
    ),
    _v(
        "h_dataframe_rows_insert",
        """
import sqlite3

import pandas as pd

# load the contact sheet into the CRM database
df = pd.read_excel("contacts.xlsx")
conn = sqlite3.connect("crm.db")
cur = conn.cursor()
for _, row in df.iterrows():
    cur.execute(
        f"INSERT INTO contacts (name, company, email) "
        f"VALUES ('{row['name']}', '{row['company']}', '{row['email']}')"
    )
conn.commit()
""",
    ),
    _v(
        "h_file_lines_drop_tables",
        """
import psycopg2

# tables listed one per line in cleanup.txt
conn = psycopg2.connect("dbname=staging")
cur = conn.cursor()
with open("cleanup.txt") as fh:
    for line in fh:
        table = line.strip()
        if not table:
            continue
        cur.execute(f"DROP TABLE IF EXISTS {table} CASCADE")
conn.commit()
""",
    ),
]

SHELL_VULNERABLE = [
    _v(
        "h_os_system_ping_host",
        """
import os


def is_up(host):
    # reachability check for the status page
    return os.system(f"ping -c 1 -W 1 {host} > /dev/null 2>&1") == 0
""",
    ),
    _v(
        "h_os_system_concat_rm",
        """
import os
import sys

# clean a build output folder given on the command line
target = sys.argv[1]
if os.path.isdir(target):
    os.system("rm -rf " + target + "/*")
    print("cleaned", target)
""",
    ),
    _v(
        "h_os_popen_du",
        """
import os


def folder_size(folder):
    # human readable size for the file browser sidebar
    out = os.popen(f"du -sh '{folder}'").read()
    return out.split()[0] if out else "?"
""",
    ),
    _v(
        "h_subprocess_run_ffmpeg_shell",
        """
import subprocess
import sys
from pathlib import Path

# convert every clip passed on the command line to mp3
for src in sys.argv[1:]:
    dst = Path(src).with_suffix(".mp3")
    subprocess.run(f"ffmpeg -y -i {src} -vn -ab 192k {dst}", shell=True, check=True)
""",
    ),
    _v(
        "h_check_output_percent_author",
        """
import subprocess


def commits_by(author, repo="."):
    # contributor stats for the release notes
    out = subprocess.check_output(
        "git -C %s log --oneline --author=%s" % (repo, author), shell=True, text=True
    )
    return len(out.splitlines())
""",
    ),
    _v(
        "h_popen_join_list",
        """
import subprocess


def run_tool(tool, *args, verbose=False):
    # thin wrapper used by the plugin system
    cmd = [tool, *args]
    if verbose:
        cmd.append("--verbose")
    proc = subprocess.Popen(" ".join(cmd), shell=True, stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate()
    return out
""",
    ),
    _v(
        "h_call_cmd_plus_equals",
        """
import subprocess


def backup(db_name, out_dir, compress=True):
    # nightly pg_dump, called from cron with values from backup.yaml
    cmd = f"pg_dump {db_name}"
    if compress:
        cmd += f" | gzip > {out_dir}/{db_name}.sql.gz"
    else:
        cmd += f" > {out_dir}/{db_name}.sql"
    return subprocess.call(cmd, shell=True)
""",
    ),
    _v(
        "h_run_bash_c_list",
        """
import subprocess


def grep_logs(pattern: str, since: str) -> str:
    # search the journal from the admin panel
    result = subprocess.run(
        ["bash", "-c", f"journalctl --since '{since}' | grep -i {pattern} | tail -n 200"],
        capture_output=True,
        text=True,
    )
    return result.stdout
""",
    ),
    _v(
        "h_getstatusoutput_mount",
        """
import subprocess


def mount_share(server, share, mountpoint):
    # mount the NAS share picked in the setup wizard
    status, output = subprocess.getstatusoutput(
        f"sudo mount -t cifs //{server}/{share} {mountpoint} -o guest"
    )
    if status != 0:
        raise RuntimeError(output)
""",
    ),
    _v(
        "h_create_subprocess_shell_ping",
        """
import asyncio
import platform


async def ping_host(ip):
    # sweep helper for the LAN scanner
    flag = "-n" if platform.system().lower() == "windows" else "-c"
    proc = await asyncio.create_subprocess_shell(
        f"ping {flag} 1 {ip}", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    await proc.communicate()
    return proc.returncode == 0
""",
    ),
    _v(
        "h_paramiko_exec_ls",
        """
import paramiko


def list_remote(host, user, key_file, remote_dir):
    # show the files of an experiment folder on the device
    ssh = paramiko.SSHClient()
    ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    ssh.connect(host, username=user, key_filename=key_file)
    try:
        _, stdout, _ = ssh.exec_command(f"ls -1 {remote_dir}")
        return stdout.read().decode().splitlines()
    finally:
        ssh.close()
""",
    ),
    _v(
        "h_paramiko_format_mkdir",
        """
import os

import paramiko


def upload(client: paramiko.SSHClient, local_path: str, remote_path: str) -> None:
    # publish a generated page to the web host
    remote_dir = os.path.dirname(remote_path)
    client.exec_command("mkdir -p '{}'".format(remote_dir))[1].channel.recv_exit_status()
    sftp = client.open_sftp()
    try:
        sftp.put(local_path, remote_path)
    finally:
        sftp.close()
""",
    ),
    _v(
        "h_pexpect_bash_c",
        """
import pexpect


def run_as_root(command, password):
    # interactive sudo for the maintenance menu
    child = pexpect.spawn("/bin/bash", ["-c", f"sudo -S {command}"], encoding="utf-8")
    child.expect("password")
    child.sendline(password)
    child.expect(pexpect.EOF)
    return child.before
""",
    ),
    _v(
        "h_fabric_run_deploy",
        """
from fabric import Connection, task


@task
def deploy(c, branch="main", host="web1"):
    # fab deploy --branch=...
    conn = Connection(host)
    with conn.cd("/srv/app"):
        conn.run(f"git fetch origin && git checkout {branch} && git pull")
        conn.run("systemctl restart app")
""",
    ),
    _v(
        "h_get_ipython_system_rm",
        """
import os

from IPython import get_ipython


def free_space(directory, required):
    # exported from the cleanup notebook
    files = sorted(
        ((os.path.join(directory, f), os.path.getsize(os.path.join(directory, f)))
         for f in os.listdir(directory)),
        key=lambda x: x[1],
        reverse=True,
    )
    freed = 0
    for file_path, size in files:
        if freed >= required:
            break
        get_ipython().system(f"rm -rf {file_path}")
        freed += size
    return freed
""",
    ),
    _v(
        "h_get_ipython_getoutput_grep",
        """
from IPython import get_ipython

# converted from the log triage notebook
ip = get_ipython()
pattern = input("pattern: ")
matches = ip.getoutput(f"grep -rn '{pattern}' logs/")
print(len(matches), "matches")
""",
    ),
    _v(
        "h_template_from_config",
        """
import json
import subprocess

CMD_TEMPLATE = "rsync -az --delete {src} {user}@{host}:{dest}"

# sync jobs are described in jobs.json
with open("jobs.json") as fh:
    jobs = json.load(fh)

for job in jobs:
    cmd = CMD_TEMPLATE.format(**job)
    print("->", cmd)
    subprocess.run(cmd, shell=True, check=True)
""",
    ),
    _v(
        "h_click_option_os_system",
        '''
import os

import click


@click.command()
@click.option("--name", required=True, help="Container name")
@click.option("--image", default="postgres:16")
def up(name, image):
    """Start a throwaway database container."""
    os.system(f"docker run -d --name {name} -p 5432:5432 {image}")


if __name__ == "__main__":
    up()
''',
    ),
    _v(
        "h_class_attr_command",
        '''
import subprocess


class Converter:
    """Render a markdown file with pandoc."""

    def __init__(self, source, output, template="default"):
        self.source = source
        self.output = output
        self.template = template

    def render(self):
        # pandoc is driven through the shell so the filter chain works
        command = f"pandoc {self.source} --template={self.template} -o {self.output}"
        return subprocess.run(command, shell=True).returncode
''',
    ),
    _v(
        "h_dedent_shell_script",
        '''
import subprocess
import textwrap


def provision(username, ssh_key):
    # run on first boot by the provisioning agent
    script = textwrap.dedent(f"""
        useradd -m {username}
        mkdir -p /home/{username}/.ssh
        echo "{ssh_key}" >> /home/{username}/.ssh/authorized_keys
    """)
    subprocess.run(script, shell=True, check=True, executable="/bin/bash")
''',
    ),
    _v(
        "h_except_fallback_shell",
        """
import shutil
import subprocess


def unpack(archive, dest):
    # prefer the Python implementation, fall back to the system tool
    try:
        shutil.unpack_archive(archive, dest)
    except shutil.ReadError:
        subprocess.run(f"7z x {archive} -o{dest}", shell=True, check=True)
""",
    ),
]

SAFE = [
    _s(
        "h_safe_sqlite_qmark_print",
        """
import sqlite3


def get_user(conn: sqlite3.Connection, username: str):
    # lookup used by the login form
    print(f"looking up user {username!r}")
    cur = conn.execute("SELECT id, email FROM users WHERE username = ?", (username,))
    return cur.fetchone()
""",
    ),
    _s(
        "h_safe_psycopg2_params_log",
        """
import logging

log = logging.getLogger(__name__)


def orders_for(cur, customer_id, status):
    # orders tab of the customer page
    log.debug(f"fetching orders for customer={customer_id} status={status}")
    cur.execute(
        "SELECT id, total FROM orders WHERE customer_id = %s AND status = %s",
        (customer_id, status),
    )
    return cur.fetchall()
""",
    ),
    _s(
        "h_safe_psycopg2_sql_identifier",
        """
from psycopg2 import sql


def count_rows(conn, schema, table):
    # table chosen in the data-quality UI
    query = sql.SQL("SELECT count(*) FROM {}.{} WHERE deleted_at IS NULL").format(
        sql.Identifier(schema), sql.Identifier(table)
    )
    with conn.cursor() as cur:
        cur.execute(query)
        return cur.fetchone()[0]
""",
    ),
    _s(
        "h_safe_sqlalchemy_text_bind",
        """
from sqlalchemy import create_engine, text

engine = create_engine("postgresql+psycopg2://app@localhost/app")


def deactivate_user(email: str) -> int:
    # called from the support tool
    with engine.begin() as conn:
        result = conn.execute(
            text("UPDATE users SET active = false WHERE email = :email"), {"email": email}
        )
    if result.rowcount == 0:
        raise LookupError(f"no user with email {email}")
    return result.rowcount
""",
    ),
    _s(
        "h_safe_module_constant_table",
        """
import sqlite3

TABLE = "events"
RETENTION_DAYS = 30


def prune(conn: sqlite3.Connection) -> int:
    # housekeeping job, run hourly
    cur = conn.execute(
        f"DELETE FROM {TABLE} WHERE created_at < date('now', '-{RETENTION_DAYS} days')"
    )
    conn.commit()
    return cur.rowcount
""",
    ),
    _s(
        "h_safe_allowlist_dict_table",
        """
import pandas as pd


def load_sales(engine, period: str) -> pd.DataFrame:
    # sales per period for the dashboard
    tables = {"daily": "sales_daily", "monthly": "sales_monthly"}
    if period not in tables:
        raise ValueError(f"unknown period {period!r}")
    table = tables[period]
    return pd.read_sql(f"SELECT * FROM {table} ORDER BY period_start", engine)
""",
    ),
    _s(
        "h_safe_qmark_in_list",
        """
import sqlite3


def books_by_ids(conn: sqlite3.Connection, ids: list[int]):
    # one placeholder per id
    placeholders = ", ".join("?" * len(ids))
    sql = "SELECT id, title FROM books WHERE id IN ({})".format(placeholders)
    return conn.execute(sql, ids).fetchall()
""",
    ),
    _s(
        "h_safe_percent_s_placeholders_fstring",
        """
def tag_articles(cursor, article_ids, tag):
    # bulk tagging from the editor screen
    placeholders = ", ".join(["%s"] * len(article_ids))
    cursor.execute(
        f"UPDATE articles SET tags = array_append(tags, %s) WHERE id IN ({placeholders})",
        [tag, *article_ids],
    )
    return cursor.rowcount
""",
    ),
    _s(
        "h_safe_asyncpg_dollar_params",
        """
from fastapi import FastAPI, HTTPException

from database import pool

app = FastAPI()


@app.get("/tasks/{user_id}")
async def get_tasks(user_id: int):
    # list a user's tasks
    async with pool.acquire() as conn:
        rows = await conn.fetch("SELECT * FROM tasks WHERE user_id = $1", user_id)
    if not rows:
        raise HTTPException(status_code=404, detail=f"no tasks for user {user_id}")
    return [dict(r) for r in rows]
""",
    ),
    _s(
        "h_safe_duckdb_prepared",
        """
import sys

import duckdb

# prices for one ticker given on the command line
symbol = sys.argv[1]
con = duckdb.connect("market.duckdb", read_only=True)
rows = con.execute(
    "SELECT date, close FROM prices WHERE symbol = ? ORDER BY date DESC LIMIT 10", [symbol]
).fetchall()
for date, close in rows:
    print(f"{symbol} {date}: {close:.2f}")
""",
    ),
    _s(
        "h_safe_read_sql_params",
        """
import pandas as pd
import streamlit as st
from sqlalchemy import create_engine, text

engine = create_engine(st.secrets["db_url"])

# sidebar filter for the sales dashboard
region = st.sidebar.text_input("Region", "EMEA")
df = pd.read_sql(
    text("SELECT month, SUM(amount) AS revenue FROM sales WHERE region = :region GROUP BY month"),
    engine,
    params={"region": region},
)
st.subheader(f"Revenue for {region}")
st.line_chart(df, x="month", y="revenue")
""",
    ),
    _s(
        "h_safe_shlex_quote_system",
        """
import os
import shlex


def preview(path: str) -> int:
    # show the first lines of an uploaded file in the terminal
    return os.system(f"head -n 20 {shlex.quote(path)}")
""",
    ),
    _s(
        "h_safe_run_list_ffmpeg",
        """
import subprocess
import sys
from pathlib import Path

# convert every clip passed on the command line to mp3
for src in sys.argv[1:]:
    dst = Path(src).with_suffix(".mp3")
    print(f"ffmpeg -i {src} -> {dst}")
    subprocess.run(["ffmpeg", "-y", "-i", src, "-vn", "-ab", "192k", str(dst)], check=True)
""",
    ),
    _s(
        "h_safe_bash_c_positional",
        """
import subprocess


def archive(src_dir: str, out_file: str) -> None:
    # create a tarball of the build folder
    subprocess.run(
        ["bash", "-c", 'tar -czf "$1" -C "$2" .', "archive", out_file, src_dir],
        check=True,
    )
""",
    ),
    _s(
        "h_safe_shlex_join_system",
        """
import os
import shlex
import sys

# mirror a folder to the backup disk
src, dst = sys.argv[1], sys.argv[2]
cmd = shlex.join(["rsync", "-a", "--delete", src, dst])
print("running", cmd)
os.system(cmd)
""",
    ),
    _s(
        "h_safe_fstring_paths_only",
        """
from pathlib import Path

import pandas as pd


def export(df: pd.DataFrame, out_dir: str, name: str, day: str) -> Path:
    # file name built from the job parameters
    path = Path(f"{out_dir}/{name}_{day}.csv")
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False)
    print(f"wrote {len(df)} rows to {path}")
    return path
""",
    ),
    _s(
        "h_safe_dry_run_print",
        """
def purge_sessions(cursor, user, dry_run=True):
    # the dry run shows what would be deleted
    if dry_run:
        print(f"DELETE FROM sessions WHERE username = '{user}'")
        return 0
    cursor.execute("DELETE FROM sessions WHERE username = %s", (user,))
    return cursor.rowcount
""",
    ),
    _s(
        "h_safe_paramiko_quoted",
        """
import shlex

import paramiko


def list_remote(client: paramiko.SSHClient, remote_dir: str) -> list[str]:
    # the remote login shell is sh
    _, stdout, _ = client.exec_command(f"ls -1 -- {shlex.quote(remote_dir)}")
    return stdout.read().decode().splitlines()
""",
    ),
    _s(
        "h_safe_istring_sql_cursor",
        """
import sqlite3

from ipy_istring import sql


def find_customer(conn: sqlite3.Connection, email: str):
    # customer lookup for the invoice screen
    cur = conn.cursor()
    cur.execute(*sql(i"SELECT id, name FROM customers WHERE email = {email}"))
    return cur.fetchone()
""",
    ),
    _s(
        "h_safe_istring_sh_system",
        """
import os
import sys

from ipy_istring import sh

# copy a report to the shared drive
src, dst = sys.argv[1], sys.argv[2]
os.system(sh(i"cp -- {src} {dst}"))
""",
    ),
    _s(
        "h_safe_istring_read_sql",
        '''
import pandas as pd

from ipy_istring import sql


def station_levels(engine, station_id, since):
    # readings for the station chart
    query, params = sql(i"""
        SELECT ts, level FROM gw_readings
        WHERE station = {station_id} AND ts >= {since}
    """)
    return pd.read_sql(query, engine, params=params)
''',
    ),
    _s(
        "h_safe_constant_fstring_shell",
        """
import subprocess

VENV = ".venv"
REQUIREMENTS = "requirements.txt"

# bootstrap the development environment
subprocess.run(f"python3 -m venv {VENV}", shell=True, check=True)
subprocess.run(f"{VENV}/bin/pip install -r {REQUIREMENTS}", shell=True, check=True)
""",
    ),
    _s(
        "h_safe_clear_screen",
        """
import os


def clear() -> None:
    # menu redraw
    os.system("cls" if os.name == "nt" else "clear")
""",
    ),
    _s(
        "h_safe_django_params",
        """
from django.db import connection
from django.http import JsonResponse


def search(request):
    # full-text search on titles
    q = request.GET.get("q", "")
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, title FROM articles WHERE title ILIKE %s", [f"%{q}%"])
        rows = cursor.fetchall()
    return JsonResponse({"query": q, "results": rows})
""",
    ),
    _s(
        "h_safe_spark_named_args",
        """
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()


def orders_since(since: str):
    # orders for the weekly report
    df = spark.sql(
        "SELECT * FROM main.sales.orders WHERE order_date >= :since", args={"since": since}
    )
    print(f"{df.count()} orders since {since}")
    return df
""",
    ),
    _s(
        "h_safe_clickhouse_params",
        """
from clickhouse_driver import Client

client = Client(host="clickhouse")


def top_pages(site: str, day: str, n: int = 20):
    # analytics API, parameters from the dashboard
    return client.execute(
        "SELECT path, count() AS hits FROM pageviews "
        "WHERE site = %(site)s AND toDate(ts) = %(day)s "
        "GROUP BY path ORDER BY hits DESC LIMIT %(n)s",
        {"site": site, "day": day, "n": n},
    )
""",
    ),
    _s(
        "h_safe_polars_constant_query",
        """
import polars as pl

SCHEMA = "analytics"
COLUMNS = ("user_id", "plan", "mrr")


def plans(connection) -> pl.DataFrame:
    # nightly snapshot of the plans table
    query = f"SELECT {', '.join(COLUMNS)} FROM {SCHEMA}.plans WHERE active"
    return pl.read_database(query, connection)
""",
    ),
]

NOTEBOOKS = [
    _nb(
        "h_nb_kaggle_download_input",
        True,
        "import os\n\n# Kaggle credentials are uploaded in the Colab sidebar\n"
        "os.environ['KAGGLE_CONFIG_DIR'] = '/content'\n",
        "dataset = input('Kaggle dataset (owner/name): ')\n",
        "!kaggle datasets download -d {dataset} -p data/ --unzip\n!ls data/\n",
    ),
    _nb(
        "h_nb_wget_loop_csv",
        True,
        "import pandas as pd\n\n# one row per image to fetch\n"
        "manifest = pd.read_csv('manifest.csv')\n"
        "urls = manifest['url'].tolist()\nlen(urls)\n",
        "for u in urls:\n    !wget -q {u} -P images/\n",
        "!ls images | wc -l\n",
    ),
    _nb(
        "h_nb_sx_env_folder",
        True,
        "import os\n\n# the data folder differs between laptop and cluster\n"
        "folder = os.environ.get('DATA_DIR', 'data')\n",
        "files = %sx find {folder} -name '*.parquet'\nfiles[:5]\n",
    ),
    _nb(
        "h_nb_query_built_then_run",
        True,
        "import sqlite3\n\nimport pandas as pd\n\nconn = sqlite3.connect('world.db')\n",
        "# pick a country to chart\ncountry = input('Country: ')\n"
        "q = f\"SELECT year, population FROM population WHERE country = '{country}'\"\n",
        "df = pd.read_sql(q, conn)\ndf.plot(x='year', y='population')\n",
    ),
    _nb(
        "h_nb_unzip_glob_os_system",
        True,
        "import glob\nimport os\n\n# archives dropped into the upload folder by the lab\n"
        "archives = glob.glob('uploads/*.zip')\n",
        "for zip_path in archives:\n    out = zip_path[:-4]\n"
        '    os.system(f\'unzip -q -o "{zip_path}" -d "{out}"\')\n',
    ),
    _nb(
        "h_nb_pip_install_input",
        True,
        "# install whatever the exercise asks for\npkg = input('package to install: ')\n",
        "!pip install -q {pkg}\n",
        "import importlib\n\nimportlib.import_module(pkg.replace('-', '_'))\n",
    ),
    _nb(
        "h_nb_databricks_widget_sql",
        True,
        "dbutils.widgets.text('table', 'samples.nyctaxi.trips')\n"
        "# the table is chosen in the job's widget\ntable = dbutils.widgets.get('table')\n",
        "df = spark.sql(f'SELECT * FROM {table} LIMIT 100')\ndisplay(df)\n",
    ),
    _nb(
        "h_nb_git_commit_dollar",
        True,
        "%cd /content/drive/MyDrive/project\n",
        "# commit message typed at the prompt\nmsg = input('commit message: ')\n",
        '!git add -A && git commit -m "$msg" && git push\n',
    ),
    _nb(
        "h_nb_safe_shell_env_only",
        False,
        "# environment setup\n!pip install -q duckdb polars\n!nvidia-smi\n",
        "!echo $HOME\n!ls -la ~/.cache | head\n",
        "import duckdb\n\nduckdb.sql('SELECT 42 AS answer').show()\n",
    ),
    _nb(
        "h_nb_safe_bash_cell",
        False,
        '%%bash\n# fetch the sample data once\nset -e\nDATA=data/raw\nmkdir -p "$DATA"\n'
        'for f in a b c; do\n  echo "$f" > "$DATA/$f.txt"\ndone\nls "$DATA"\n',
        "from pathlib import Path\n\nsorted(p.name for p in Path('data/raw').iterdir())\n",
    ),
    _nb(
        "h_nb_safe_params_read_sql",
        False,
        "import sqlite3\n\nimport pandas as pd\n\nconn = sqlite3.connect('world.db')\n",
        "# pick a country to chart\ncountry = input('Country: ')\n",
        "df = pd.read_sql(\n"
        "    'SELECT year, population FROM population WHERE country = ?',\n"
        "    conn,\n    params=(country,),\n)\nprint(f'{country}: {len(df)} years')\n"
        "df.plot(x='year', y='population', title=f'Population of {country}')\n",
    ),
    _nb(
        "h_nb_safe_istrings",
        False,
        "import os\nimport sqlite3\n\nfrom ipy_istring import sh, sql\n\n"
        "conn = sqlite3.connect('world.db')\n",
        "# look up the city the user typed\ncity = input('City: ')\n"
        'rows = conn.execute(*sql(i"SELECT name, population FROM city WHERE name = {city}"))'
        ".fetchall()\nrows\n",
        "report = f'reports/{city}.txt'\nos.system(sh(i\"wc -l {report}\"))\n",
    ),
]

HELDOUT: list[Case] = SQL_VULNERABLE + SHELL_VULNERABLE + SAFE + NOTEBOOKS
