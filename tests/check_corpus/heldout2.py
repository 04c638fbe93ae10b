"""A second held-out corpus: notebook, ETL, ops and web code as it is written in the wild.

Written blind (without reading the check), from patterns in public repositories and notebooks.
"""

from __future__ import annotations

from .cases import Case, _s, _v

SHELL = [
    _v(
        "h2_tar_project",
        """
import argparse
import subprocess


def main() -> None:
    parser = argparse.ArgumentParser(description="Archive a project folder")
    parser.add_argument("src")
    parser.add_argument("--out", default="backup.tar.gz")
    args = parser.parse_args()
    subprocess.run(f"tar czf {args.out} -C {args.src} .", shell=True, check=True)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
""",
    ),
    _v(
        "h2_click_transcode",
        """
import os

import click


@click.command()
@click.argument("src")
@click.argument("dst")
@click.option("--bitrate", default="192k")
def transcode(src, dst, bitrate):
    \"\"\"Convert an audio file to mp3.\"\"\"
    rc = os.system("ffmpeg -y -i %s -b:a %s %s" % (src, bitrate, dst))
    if rc:
        raise click.ClickException("ffmpeg failed")


if __name__ == "__main__":
    transcode()
""",
    ),
    _v(
        "h2_typer_changelog",
        """
import subprocess

import typer

app = typer.Typer()


@app.command()
def changelog(since: str = "HEAD~20", path: str = "."):
    log = subprocess.check_output(
        f"git log --oneline {since}..HEAD -- {path}", shell=True, text=True
    )
    for line in log.splitlines():
        typer.echo(f"* {line}")


if __name__ == "__main__":
    app()
""",
    ),
    _v(
        "h2_folder_sizes",
        """
import os
import sys


def folder_size(path):
    out = os.popen(f"du -sh {path}").read()
    return out.split()[0]


for folder in sys.argv[1:]:
    print(folder, folder_size(folder))
""",
    ),
    _v(
        "h2_rsync_excludes",
        """
import subprocess


def sync(src, dest, excludes=()):
    cmd = "rsync -av --delete"
    for pattern in excludes:
        cmd += f" --exclude '{pattern}'"
    cmd += f" {src} {dest}"
    print("+", cmd)
    return subprocess.run(cmd, shell=True).returncode
""",
    ),
    _v(
        "h2_host_status",
        """
import subprocess


def build_ping(host, count=1):
    return f"ping -c {count} -W 2 {host}"


def is_up(host):
    return subprocess.call(build_ping(host), shell=True, stdout=subprocess.DEVNULL) == 0


if __name__ == "__main__":
    with open("hosts.txt") as fh:
        for line in fh:
            print(line.strip(), is_up(line.strip()))
""",
    ),
    _v(
        "h2_pg_backup",
        """
import datetime
import os


class Backup:
    CMD = "pg_dump -h {host} -U {user} {db} | gzip > {out}"

    def __init__(self, host, user, db):
        self.host = host
        self.user = user
        self.db = db

    def run(self, folder="/var/backups"):
        stamp = datetime.date.today().isoformat()
        out = f"{folder}/{self.db}-{stamp}.sql.gz"
        os.system(self.CMD.format(host=self.host, user=self.user, db=self.db, out=out))
        return out


if __name__ == "__main__":
    Backup(os.environ["PGHOST"], os.environ["PGUSER"], os.environ["PGDATABASE"]).run()
""",
    ),
    _v(
        "h2_manifest_fetch",
        """
import subprocess

DOWNLOAD = "curl -sSL {url} -o {dest}"


def fetch(url: str, dest: str) -> None:
    subprocess.run(DOWNLOAD.format(url=url, dest=dest), shell=True, check=True)


def fetch_all(manifest: dict[str, str]) -> None:
    for name, url in manifest.items():
        fetch(url, f"downloads/{name}")
""",
    ),
    _v(
        "h2_video_thumbnail",
        """
import os


def make_thumbnail(src, dst, width=320):
    cmd = "ffmpeg -loglevel error -i %(src)s -vf scale=%(w)d:-1 -frames:v 1 %(dst)s" % {
        "src": src,
        "w": width,
        "dst": dst,
    }
    if os.system(cmd) != 0:
        raise RuntimeError(f"thumbnail failed for {src}")
""",
    ),
    _v(
        "h2_docker_trainer",
        """
import argparse
import subprocess

TEMPLATE = "docker run --rm -v {volume}:/data -e MODE={mode} {image}"

parser = argparse.ArgumentParser()
parser.add_argument("--volume", required=True)
parser.add_argument("--mode", default="train")
parser.add_argument("--image", default="trainer:latest")
args = parser.parse_args()

proc = subprocess.Popen(TEMPLATE.format_map(vars(args)), shell=True)
proc.wait()
""",
    ),
    _v(
        "h2_scp_deploy",
        """
import os
from string import Template

COPY = Template("scp -q $src $host:$dst")


def deploy(src, host, dst="/srv/app/"):
    return os.system(COPY.substitute(src=src, host=host, dst=dst))


if __name__ == "__main__":
    import sys

    deploy(sys.argv[1], sys.argv[2])
""",
    ),
    _v(
        "h2_image_resize",
        """
import subprocess
from pathlib import Path


def resize(infile: Path, size: str, outdir: Path) -> Path:
    outfile = outdir / infile.name
    subprocess.run(
        " ".join(["convert", str(infile), "-resize", size, str(outfile)]),
        shell=True,
        check=True,
    )
    return outfile
""",
    ),
    _v(
        "h2_container_stop",
        """
import subprocess


def stop_container(name: str, force: bool = False) -> int:
    cmd = f"docker rm -f {name}" if force else f"docker stop {name}"
    return subprocess.run(cmd, shell=True, capture_output=True).returncode
""",
    ),
    _v(
        "h2_pod_restart",
        """
import subprocess
from functools import partial

run = partial(subprocess.run, shell=True, check=True)


def restart(pod: str, namespace: str = "default") -> None:
    run(f"kubectl delete pod {pod} -n {namespace}")
""",
    ),
    _v(
        "h2_log_matches",
        """
import subprocess

sh = lambda c: subprocess.check_output(c, shell=True, text=True)


def count_matches(pattern, logfile):
    return int(sh(f"grep -c '{pattern}' {logfile}").strip() or 0)
""",
    ),
    _v(
        "h2_pandoc_batch",
        """
import asyncio


async def convert(path: str) -> bytes:
    proc = await asyncio.create_subprocess_shell(
        f"pandoc {path} -t html",
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return out


async def main(paths):
    return await asyncio.gather(*(convert(p) for p in paths))
""",
    ),
    _v(
        "h2_remote_tail",
        """
import paramiko


def tail_remote(host: str, logfile: str, lines: int = 100) -> str:
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect(host, username="deploy")
    try:
        _, stdout, _ = client.exec_command(f"tail -n {lines} {logfile}")
        return stdout.read().decode()
    finally:
        client.close()
""",
    ),
    _v(
        "h2_make_target",
        """
import subprocess


def build(repo: str, target: str = "all") -> None:
    subprocess.run(["bash", "-c", f"cd {repo} && make {target}"], check=True)
""",
    ),
    _v(
        "h2_branch_checkout",
        """
import os

branch = input("Branch to check out: ").strip()
os.system("git fetch origin && git checkout " + branch)
""",
    ),
    _v(
        "h2_export_sync",
        """
import os

src = os.environ.get("EXPORT_DIR", "/data/export")
bucket = os.environ["TARGET_BUCKET"]
os.system(f"aws s3 sync {src} s3://{bucket}/exports --only-show-errors")
""",
    ),
    _v(
        "h2_ping_endpoint",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/ping")
def ping():
    ip = request.args.get("ip", "127.0.0.1")
    out = subprocess.check_output(f"ping -c 1 {ip}", shell=True, text=True)
    return {"output": out}
""",
    ),
    _v(
        "h2_export_raw_download",
        """
#!/usr/bin/env python
# coding: utf-8

# In[1]:


import pandas as pd

meta = pd.read_csv("sources.csv")


# In[2]:


for url in meta["url"]:
    get_ipython().system('wget -q {url} -P raw/')
""",
    ),
    _v(
        "h2_export_csv_listing",
        """
#!/usr/bin/env python
# coding: utf-8

# In[1]:


import os

data_dir = os.environ.get("DATA_DIR", "data")


# In[2]:


csvs = get_ipython().getoutput('ls {data_dir}/*.csv')
print(len(csvs))
""",
    ),
]

SHELL_SAFE = [
    _s(
        "h2_archive_script",
        """
import os
import shlex
import sys


def archive(src, out):
    return os.system(f"tar czf {shlex.quote(out)} -C {shlex.quote(src)} .")


archive(sys.argv[1], sys.argv[2])
""",
    ),
    _s(
        "h2_repo_clone",
        """
import shlex
import subprocess


def clone(url: str, dest: str) -> None:
    args = shlex.split(f"git clone --depth 1 {url} {dest}")
    subprocess.run(args, check=True)
""",
    ),
    _s(
        "h2_zip_bundle",
        """
import shlex
import subprocess


def compress(paths: list[str], out: str) -> None:
    cmd = shlex.join(["zip", "-q", out, *paths])
    subprocess.run(cmd, shell=True, check=True)
""",
    ),
    _s(
        "h2_git_log_rev",
        """
import subprocess
import sys

rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
print(f"log for {rev}")
out = subprocess.run(["git", "log", "--oneline", "-n", "20", rev], capture_output=True, text=True)
print(out.stdout)
""",
    ),
    _s(
        "h2_mp3_convert",
        """
import subprocess
from pathlib import Path


def to_mp3(src: Path) -> Path:
    dst = src.with_suffix(".mp3")
    subprocess.run(["ffmpeg", "-y", "-i", str(src), f"{dst.stem}.mp3"], check=True, cwd=src.parent)
    return dst
""",
    ),
    _s(
        "h2_show_file",
        """
import os

from ipy_istring import sh


def show(f):
    os.system(sh(i"cat {f}"))
""",
    ),
    _s(
        "h2_rsync_script",
        """
import subprocess
import sys

from ipy_istring import sh

src, dest = sys.argv[1], sys.argv[2]
subprocess.run(sh(i"rsync -a {src} {dest}"), shell=True, check=True)
""",
    ),
    _s(
        "h2_free_port",
        """
import subprocess
import sys


def free_port(port):
    subprocess.run(f"lsof -ti tcp:{int(port)} | xargs -r kill", shell=True)


free_port(sys.argv[1])
""",
    ),
    _s(
        "h2_log_housekeeping",
        """
import os
import subprocess

LOG_DIR = "/var/log/app"
KEEP_DAYS = 14

os.system("clear")
subprocess.run(f"find {LOG_DIR} -name '*.log' -mtime +{KEEP_DAYS} -delete", shell=True)
print(subprocess.check_output("df -h / | tail -1", shell=True, text=True))
""",
    ),
    _s(
        "h2_pdf_convert",
        """
import logging
import subprocess

log = logging.getLogger(__name__)


def convert(src, dst):
    cmd = f"libreoffice --headless --convert-to pdf {src} --outdir {dst}"
    log.info("running %s", cmd)
    args = ["libreoffice", "--headless", "--convert-to", "pdf", src, "--outdir", dst]
    subprocess.run(args, check=True)
""",
    ),
    _s(
        "h2_log_rotate",
        """
import subprocess
from datetime import date


def rotate(name):
    path = f"/var/log/{name}-{date.today():%Y%m%d}.log"
    with open(path, "a") as fh:
        fh.write("rotated\\n")
    subprocess.run(["gzip", "-f", path], check=True)
""",
    ),
]

SQL = [
    _v(
        "h2_reload_partition",
        """
import sys

import psycopg2


def reload_partition(dsn, schema, load_date):
    conn = psycopg2.connect(dsn)
    with conn, conn.cursor() as cur:
        cur.execute(f"DELETE FROM {schema}.staging_orders WHERE load_date = '{load_date}'")
        cur.execute(
            f"INSERT INTO {schema}.staging_orders "
            f"SELECT * FROM raw.orders WHERE load_date = '{load_date}'"
        )
    conn.close()


if __name__ == "__main__":
    reload_partition(sys.argv[1], sys.argv[2], sys.argv[3])
""",
    ),
    _v(
        "h2_customer_orders",
        """
import pymysql


def orders_for(customer):
    conn = pymysql.connect(host="db", user="report", password="report", database="shop")
    try:
        with conn.cursor() as cursor:
            sql = "SELECT id, total FROM orders WHERE customer = '%s'" % customer
            cursor.execute(sql)
            return cursor.fetchall()
    finally:
        conn.close()
""",
    ),
    _v(
        "h2_audit_log",
        """
import mysql.connector

cnx = mysql.connector.connect(user="app", database="audit")


def write_log(level, msg):
    cursor = cnx.cursor()
    query = "INSERT INTO log (level, msg) VALUES ('" + level + "', '" + msg + "')"
    cursor.execute(query)
    cnx.commit()
    cursor.close()
""",
    ),
    _v(
        "h2_dept_employees",
        """
import cx_Oracle


def employees(dept):
    with cx_Oracle.connect("hr/hr@localhost/XEPDB1") as conn:
        cur = conn.cursor()
        cur.execute("SELECT ename, sal FROM emp WHERE deptno = '{}' ORDER BY sal".format(dept))
        return cur.fetchall()
""",
    ),
    _v(
        "h2_refresh_sales",
        """
import argparse

import pyodbc

parser = argparse.ArgumentParser()
parser.add_argument("--date", required=True)
args = parser.parse_args()

conn = pyodbc.connect(
    "DRIVER={ODBC Driver 18 for SQL Server};SERVER=sql01;DATABASE=dw;Trusted_Connection=yes"
)
cursor = conn.cursor()
cursor.execute(f"EXEC dbo.usp_refresh_sales @run_date = '{args.date}'")
conn.commit()
""",
    ),
    _v(
        "h2_reset_table",
        """
import sqlite3


def reset_table(db_path, table):
    con = sqlite3.connect(db_path)
    con.executescript(f\"\"\"
        DROP TABLE IF EXISTS {table};
        CREATE TABLE {table} (id INTEGER PRIMARY KEY, payload TEXT);
    \"\"\")
    con.close()
""",
    ),
    _v(
        "h2_login_form",
        """
import sqlite3

from flask import Flask, g, request

app = Flask(__name__)


def get_db():
    if "db" not in g:
        g.db = sqlite3.connect("app.db")
    return g.db


@app.post("/login")
def login():
    username = request.form["username"]
    password = request.form["password"]
    row = get_db().execute(
        f"SELECT id FROM users WHERE username = '{username}' AND password = '{password}'"
    ).fetchone()
    return ("ok", 200) if row else ("denied", 401)
""",
    ),
    _v(
        "h2_product_search",
        """
import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.get("/products")
async def search(q: str, limit: int = 20):
    conn = await asyncpg.connect("postgresql://app@localhost/shop")
    try:
        rows = await conn.fetch(
            f"SELECT id, name FROM products WHERE name ILIKE '%{q}%' LIMIT {limit}"
        )
        return [dict(r) for r in rows]
    finally:
        await conn.close()
""",
    ),
    _v(
        "h2_sales_report",
        """
from django.db import connection
from django.http import JsonResponse


def sales_report(request):
    region = request.GET.get("region", "EU")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT product_id, SUM(amount) FROM sales_sale "
            f"WHERE region = '{region}' GROUP BY product_id"
        )
        rows = cursor.fetchall()
    return JsonResponse({"rows": rows})
""",
    ),
    _v(
        "h2_transfer_history",
        """
from django.shortcuts import render

from .models import Transfer


def history(request):
    account = request.GET["account"]
    transfers = Transfer.objects.raw(
        f"SELECT * FROM bank_transfer WHERE account_no = '{account}' ORDER BY created DESC"
    )
    return render(request, "history.html", {"transfers": transfers})
""",
    ),
    _v(
        "h2_article_list",
        """
from django.views.generic import ListView

from .models import Article


class ArticleList(ListView):
    model = Article

    def get_queryset(self):
        tag = self.request.GET.get("tag")
        qs = super().get_queryset()
        if tag:
            qs = qs.extra(where=[f"tags LIKE '%%{tag}%%'"])
        return qs
""",
    ),
    _v(
        "h2_ticket_counts",
        """
from sqlalchemy import create_engine, text

engine = create_engine("postgresql+psycopg2://app@db/app")


def count_by_status(status: str) -> int:
    with engine.connect() as conn:
        stmt = text(f"SELECT count(*) FROM tickets WHERE status = '{status}'")
        return conn.execute(stmt).scalar()
""",
    ),
    _v(
        "h2_truncate_tables",
        """
from sqlalchemy import create_engine


def truncate(url: str, tables: list[str]) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        for t in tables:
            conn.exec_driver_sql(f"TRUNCATE TABLE {t} CASCADE")
""",
    ),
    _v(
        "h2_events_between",
        """
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("mysql+pymysql://bi@warehouse/bi")


def load_events(start, end):
    return pd.read_sql(
        sql=f"SELECT * FROM events WHERE ts BETWEEN '{start}' AND '{end}'",
        con=engine,
        parse_dates=["ts"],
    )
""",
    ),
    _v(
        "h2_customer_filter",
        """
import sqlite3

import pandas as pd


def load(db, country=None, min_age=None):
    con = sqlite3.connect(db)
    query = "SELECT * FROM customers WHERE 1=1"
    if country:
        query += " AND country = '" + country + "'"
    if min_age:
        query += f" AND age >= {min_age}"
    return pd.read_sql_query(query, con)
""",
    ),
    _v(
        "h2_merge_tables",
        """
import textwrap

import psycopg2


def merge(conn: "psycopg2.extensions.connection", source: str, target: str) -> None:
    with conn.cursor() as cur:
        cur.execute(textwrap.dedent(f\"\"\"
            INSERT INTO {target}
            SELECT * FROM {source}
            ON CONFLICT (id) DO NOTHING
        \"\"\"))
    conn.commit()
""",
    ),
    _v(
        "h2_user_repo",
        """
class UserRepo:
    def __init__(self, conn):
        self.conn = conn

    def _by_email(self, email):
        return f"SELECT id, name FROM users WHERE email = '{email}'"

    def find(self, email):
        cur = self.conn.cursor()
        cur.execute(self._by_email(email))
        return cur.fetchone()
""",
    ),
    _v(
        "h2_export_job",
        """
import psycopg2


class ExportJob:
    def __init__(self, dsn, table, since):
        self.conn = psycopg2.connect(dsn)
        self.query = f"SELECT * FROM {table} WHERE updated_at > '{since}'"

    def run(self, out):
        with self.conn.cursor() as cur:
            cur.copy_expert(f"COPY ({self.query}) TO STDOUT WITH CSV HEADER", out)
""",
    ),
    _v(
        "h2_metric_series",
        """
import sqlite3

METRICS = "SELECT ts, value FROM metrics WHERE host = '{host}' AND name = '{name}' ORDER BY ts"


def series(db, host, name):
    con = sqlite3.connect(db)
    return con.execute(METRICS.format(host=host, name=name)).fetchall()
""",
    ),
    _v(
        "h2_stock_lookup",
        """
import pymysql

LOOKUP = "SELECT sku, qty FROM stock WHERE warehouse = '%s'"


def stock(conn: pymysql.connections.Connection, warehouse: str):
    with conn.cursor() as cur:
        cur.execute(LOOKUP % warehouse)
        return cur.fetchall()
""",
    ),
    _v(
        "h2_top_values",
        """
import duckdb


def top_n(con: duckdb.DuckDBPyConnection, column: str, n: int = 10):
    sql: str = f"SELECT {column}, count(*) AS c FROM trips GROUP BY 1 ORDER BY c DESC LIMIT {n}"
    return con.execute(sql).df()
""",
    ),
    _v(
        "h2_task_list",
        """
def list_tasks(cur, status=None):
    if status:
        sql = f"SELECT id, title FROM tasks WHERE status = '{status}' ORDER BY id"
    else:
        sql = "SELECT id, title FROM tasks ORDER BY id"
    cur.execute(sql)
    return cur.fetchall()
""",
    ),
    _v(
        "h2_listing_search",
        """
def search(conn, filters: dict):
    where = " AND ".join(f"{col} = '{val}'" for col, val in filters.items())
    query = "SELECT * FROM listings"
    if where:
        query += " WHERE " + where
    return conn.execute(query).fetchall()
""",
    ),
    _v(
        "h2_redshift_copy",
        """
from airflow.models import BaseOperator
from airflow.providers.postgres.hooks.postgres import PostgresHook


class S3ToRedshiftOperator(BaseOperator):
    def __init__(self, table, s3_path, iam_role, **kwargs):
        super().__init__(**kwargs)
        self.table = table
        self.s3_path = s3_path
        self.iam_role = iam_role

    def execute(self, context):
        hook = PostgresHook(postgres_conn_id="redshift")
        hook.run(
            f"COPY {self.table} FROM '{self.s3_path}' IAM_ROLE '{self.iam_role}' FORMAT AS PARQUET"
        )
""",
    ),
    _v(
        "h2_revenue_region",
        """
import sys

import polars as pl

uri = "postgresql://analyst@dw/analytics"
region = sys.argv[1]
df = pl.read_database_uri(f"SELECT * FROM revenue WHERE region = '{region}'", uri)
print(df.describe())
""",
    ),
    _v(
        "h2_parquet_count",
        """
import argparse

import duckdb

p = argparse.ArgumentParser()
p.add_argument("path")
p.add_argument("--where", default="true")
a = p.parse_args()

print(duckdb.sql(f"SELECT count(*) FROM read_parquet('{a.path}') WHERE {a.where}").fetchone())
""",
    ),
    _v(
        "h2_distinct_values",
        """
import duckdb


def distinct_values(path, column):
    con = duckdb.connect()
    rel = con.query(f"SELECT DISTINCT {column} FROM '{path}' ORDER BY 1")
    return [r[0] for r in rel.fetchall()]
""",
    ),
    _v(
        "h2_spark_daily_agg",
        """
import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("daily_agg").getOrCreate()
table_name, partition_date = sys.argv[1], sys.argv[2]

spark.sql(f"ALTER TABLE {table_name} DROP IF EXISTS PARTITION (dt='{partition_date}')")
spark.sql(f\"\"\"
    INSERT INTO {table_name} PARTITION (dt='{partition_date}')
    SELECT user_id, count(*) FROM ods.events WHERE dt = '{partition_date}' GROUP BY user_id
\"\"\")
""",
    ),
    _v(
        "h2_users_api",
        """
from flask import Flask, jsonify, request

from .db import get_conn

app = Flask(__name__)


@app.get("/api/users")
def users():
    sort = request.args.get("sort", "id")
    direction = "DESC" if request.args.get("desc") else "ASC"
    sql = f"SELECT id, name, email FROM users ORDER BY {sort} {direction}"
    rows = get_conn().execute(sql).fetchall()
    return jsonify([dict(r) for r in rows])
""",
    ),
    _v(
        "h2_post_pages",
        """
from sqlalchemy import text
from sqlalchemy.orm import Session


def page(session: Session, order_by: str, offset: int = 0):
    stmt = text("SELECT id, title FROM posts ORDER BY " + order_by + " LIMIT 20 OFFSET :o")
    return session.execute(stmt, {"o": offset}).all()
""",
    ),
    _v(
        "h2_bulk_delete",
        """
from flask import Flask, request

from .db import conn

app = Flask(__name__)


@app.post("/bulk-delete")
def bulk_delete():
    ids = request.get_json()["ids"]
    id_list = ",".join(str(i) for i in ids)
    conn.execute(f"DELETE FROM documents WHERE id IN ({id_list})")
    conn.commit()
    return {"deleted": len(ids)}
""",
    ),
    _v(
        "h2_frame_insert",
        """
import pandas as pd


def insert_frame(conn, table, df: pd.DataFrame):
    cols = ", ".join(df.columns)
    marks = ", ".join(["%s"] * len(df.columns))
    with conn.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {table} ({cols}) VALUES ({marks})",
            df.itertuples(index=False, name=None),
        )
    conn.commit()
""",
    ),
    _v(
        "h2_price_updates",
        """
import csv
import sqlite3

con = sqlite3.connect("inventory.db")
with open("price_updates.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        con.execute(
            "UPDATE items SET price = {} WHERE sku = '{}'".format(row["price"], row["sku"])
        )
con.commit()
""",
    ),
    _v(
        "h2_record_saver",
        """
def build_insert(table, record):
    sql = "INSERT INTO " + table + " VALUES ("
    for i, value in enumerate(record):
        if i:
            sql += ", "
        sql += "'" + str(value) + "'"
    sql += ")"
    return sql


def save(cur, table, records):
    for rec in records:
        cur.execute(build_insert(table, rec))
""",
    ),
    _v(
        "h2_psql_export_parts",
        """
import subprocess
import sys


def export_csv(db, table, where="true"):
    parts = [
        "psql -d ", db, " -c ",
        '"\\\\copy (SELECT * FROM ', table, " WHERE ", where, ') TO STDOUT CSV HEADER"',
    ]
    return subprocess.check_output("".join(parts), shell=True)


sys.stdout.buffer.write(export_csv(*sys.argv[1:4]))
""",
    ),
    _v(
        "h2_databricks_customers",
        """
# Databricks notebook source
dbutils.widgets.text("target_table", "silver.customers")
dbutils.widgets.text("run_date", "")

# COMMAND ----------

target_table = dbutils.widgets.get("target_table")
run_date = dbutils.widgets.get("run_date")

# COMMAND ----------

spark.sql(f"DELETE FROM {target_table} WHERE ingest_date = '{run_date}'")
df = spark.table("bronze.customers").where(f"ingest_date = '{run_date}'")
df.write.mode("append").saveAsTable(target_table)
""",
    ),
]

SQL_SAFE = [
    _s(
        "h2_fetch_user_etl",
        """
import logging

import psycopg2

log = logging.getLogger("etl")


def fetch_user(conn: "psycopg2.extensions.connection", user_id: str):
    log.info(f"fetching user {user_id}")
    with conn.cursor() as cur:
        cur.execute("SELECT id, email FROM users WHERE id = %s", (user_id,))
        return cur.fetchone()
""",
    ),
    _s(
        "h2_books_by_author",
        """
import sqlite3

con = sqlite3.connect("books.db")
name = input("author: ")
print(f"Looking up books by {name}...")
rows = con.execute("SELECT title FROM books WHERE author = ? ORDER BY year", (name,)).fetchall()
for (title,) in rows:
    print(" -", title)
""",
    ),
    _s(
        "h2_events_api_paging",
        """
from flask import Flask, jsonify, request

from .db import get_conn

app = Flask(__name__)


@app.get("/api/events")
def events():
    limit = int(request.args.get("limit", 50))
    offset = int(request.args.get("offset", 0))
    rows = get_conn().execute(
        f"SELECT id, kind, ts FROM events ORDER BY ts DESC LIMIT {limit} OFFSET {offset}"
    ).fetchall()
    return jsonify([list(r) for r in rows])
""",
    ),
    _s(
        "h2_table_export",
        """
import sys

import psycopg2

EXPORTABLE = {"orders", "customers", "products"}


def export(conn, table):
    if table not in EXPORTABLE:
        raise SystemExit(f"unknown table: {table}")
    with conn.cursor() as cur, open(f"{table}.csv", "w") as out:
        cur.copy_expert(f"COPY {table} TO STDOUT WITH CSV HEADER", out)


if __name__ == "__main__":
    export(psycopg2.connect(""), sys.argv[1])
""",
    ),
    _s(
        "h2_table_counts",
        """
import sqlite3
from enum import Enum


class Table(str, Enum):
    ORDERS = "orders"
    REFUNDS = "refunds"


def count(con: sqlite3.Connection, table: Table) -> int:
    return con.execute(f"SELECT count(*) FROM {Table(table).value}").fetchone()[0]


def counts(con: sqlite3.Connection) -> dict[str, int]:
    return {t.value: count(con, t) for t in Table}
""",
    ),
    _s(
        "h2_latest_rows",
        """
from psycopg import sql


def latest(conn, schema: str, table: str, since):
    query = sql.SQL("SELECT * FROM {} WHERE updated_at > %s ORDER BY updated_at").format(
        sql.Identifier(schema, table)
    )
    with conn.cursor() as cur:
        cur.execute(query, (since,))
        return cur.fetchall()
""",
    ),
    _s(
        "h2_purge_old_rows",
        """
from psycopg2 import sql


def purge(conn, table, before):
    stmt = sql.SQL("DELETE FROM {tbl} WHERE created < {cutoff}").format(
        tbl=sql.Identifier(table),
        cutoff=sql.Literal(before),
    )
    with conn, conn.cursor() as cur:
        cur.execute(stmt)
""",
    ),
    _s(
        "h2_get_row",
        """
import sqlite3

from ipy_istring import sql


def get(con: sqlite3.Connection, x: str):
    cur = con.cursor()
    cur.execute(*sql(i"select * from t where id = {x}"))
    return cur.fetchone()
""",
    ),
    _s(
        "h2_update_email",
        """
import sqlite3
import sys

from ipy_istring import sql

con = sqlite3.connect("app.db")
name, email = sys.argv[1], sys.argv[2]
con.execute(*sql(i"UPDATE users SET email = {email} WHERE name = {name}"))
con.commit()
""",
    ),
    _s(
        "h2_events_frame",
        """
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql+psycopg2://bi@warehouse/bi")


def load_events(start, end):
    print(f"loading events {start} -> {end}")
    return pd.read_sql(
        "SELECT * FROM events WHERE ts >= %(start)s AND ts < %(end)s",
        engine,
        params={"start": start, "end": end},
    )
""",
    ),
    _s(
        "h2_deactivate_account",
        """
import logging

from sqlalchemy import text

logger = logging.getLogger(__name__)


def deactivate(session, email: str) -> None:
    logger.warning(f"deactivating account {email}")
    stmt = text("UPDATE accounts SET active = false WHERE email = :email")
    session.execute(stmt, {"email": email})
    session.commit()
""",
    ),
    _s(
        "h2_trips_by_vendor",
        """
import sys

import duckdb

con = duckdb.connect("trips.duckdb")
vendor = sys.argv[1]
df = con.execute(
    "SELECT date_trunc('day', pickup) AS d, count(*) FROM trips WHERE vendor = ? GROUP BY 1",
    [vendor],
).df()
print(df.head())
""",
    ),
    _s(
        "h2_people_by_name",
        """
from django.shortcuts import render

from .models import Person


def by_last_name(request):
    lname = request.GET.get("q", "")
    people = Person.objects.raw("SELECT * FROM myapp_person WHERE last_name = %s", [lname])
    return render(request, "people.html", {"people": people, "title": f"Results for {lname}"})
""",
    ),
    _s(
        "h2_product_list_view",
        """
from django.core.cache import cache
from django.http import JsonResponse

from .models import Product


def product_list(request):
    category = request.GET.get("category", "all")
    key = f"products:{category}"
    data = cache.get(key)
    if data is None:
        data = list(Product.objects.filter(category__slug=category).values("id", "name"))
        cache.set(key, data, 300)
    return JsonResponse({"products": data})
""",
    ),
    _s(
        "h2_daily_stats_reset",
        """
import sys
from datetime import date

import psycopg2

day = date.fromisoformat(sys.argv[1])
conn = psycopg2.connect("")
with conn, conn.cursor() as cur:
    cur.execute(f"DELETE FROM daily_stats WHERE day = '{day.isoformat()}'")
""",
    ),
    _s(
        "h2_doc_lookup",
        """
import uuid

from flask import Flask, abort, request

from .db import get_conn

app = Flask(__name__)


@app.get("/doc")
def doc():
    try:
        doc_id = uuid.UUID(request.args["id"])
    except (KeyError, ValueError):
        abort(400)
    row = get_conn().execute(f"SELECT body FROM docs WHERE id = '{doc_id}'").fetchone()
    return row[0] if row else abort(404)
""",
    ),
    _s(
        "h2_fetch_items",
        """
import sqlite3


def fetch_many(con: sqlite3.Connection, ids: list[str]):
    placeholders = ",".join("?" * len(ids))
    return con.execute(f"SELECT * FROM items WHERE id IN ({placeholders})", ids).fetchall()
""",
    ),
    _s(
        "h2_recent_posts",
        """
import pymysql


def recent(conn: pymysql.connections.Connection, limit):
    with conn.cursor() as cur:
        cur.execute("SELECT id, title FROM posts ORDER BY created DESC LIMIT %d" % limit)
        return cur.fetchall()
""",
    ),
    _s(
        "h2_airflow_daily_rollup",
        """
from datetime import datetime

from airflow import DAG
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

with DAG("daily_rollup", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False):
    clear = SQLExecuteQueryOperator(
        task_id="clear",
        conn_id="warehouse",
        sql="DELETE FROM rollup.daily WHERE ds = '{{ ds }}'",
    )
    fill = SQLExecuteQueryOperator(
        task_id="fill",
        conn_id="warehouse",
        sql="INSERT INTO rollup.daily SELECT ds, count(*) FROM raw.events "
        "WHERE ds = %(ds)s GROUP BY ds",
        parameters={"ds": "{{ ds }}"},
    )
    clear >> fill
""",
    ),
    _s(
        "h2_order_search",
        """
FILTERS = {
    "status": "status = %s",
    "country": "country = %s",
    "min_total": "total >= %s",
}


def search(cur, **criteria):
    clauses, params = [], []
    for key, value in criteria.items():
        if key in FILTERS and value is not None:
            clauses.append(FILTERS[key])
            params.append(value)
    query = "SELECT id, total FROM orders"
    if clauses:
        query += " WHERE " + " AND ".join(clauses)
    cur.execute(query, params)
    return cur.fetchall()
""",
    ),
    _s(
        "h2_spark_country_counts",
        """
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
run_date, country = sys.argv[1], sys.argv[2]

df = spark.read.parquet(f"s3://lake/events/dt={run_date}/")
df = df.where(F.col("country") == country)
df.createOrReplaceTempView("events_today")
spark.sql("SELECT country, count(*) AS n FROM events_today GROUP BY country").show()
""",
    ),
    _s(
        "h2_page_view_count",
        """
import duckdb

SCHEMA = "analytics"
TABLE = "page_views"
DAYS = 7

con = duckdb.connect("warehouse.duckdb")
rel = con.sql(f"SELECT count(*) FROM {SCHEMA}.{TABLE} WHERE ts > now() - INTERVAL {DAYS} DAY")
print(rel.fetchone())
""",
    ),
    _s(
        "h2_streamlit_sales",
        """
import pandas as pd
import streamlit as st

from .db import engine

region = st.selectbox("Region", ["EU", "US", "APAC"])
st.code(f"SELECT * FROM sales WHERE region = '{region}'", language="sql")
df = pd.read_sql("SELECT * FROM sales WHERE region = %(r)s", engine, params={"r": region})
st.dataframe(df)
""",
    ),
]

NOTEBOOKS = [
    Case(
        "h2_nb_train_download",
        True,
        cells=(
            "import pandas as pd",
            'url = input("Dataset URL: ")',
            "!wget -q {url} -O data.zip\n!unzip -o data.zip -d data",
            'df = pd.read_csv("data/train.csv")\ndf.head()',
        ),
    ),
    Case(
        "h2_nb_bucket_copy",
        True,
        cells=(
            "import ipywidgets as widgets\n"
            'bucket = widgets.Text(value="my-bucket", description="Bucket")\n'
            'prefix = widgets.Text(value="exports/2024", description="Prefix")\n'
            "display(bucket, prefix)",
            "!gsutil -m cp -r gs://{bucket.value}/{prefix.value} ./exports",
            "!ls -la exports",
        ),
    ),
    Case(
        "h2_nb_csv_folder",
        True,
        cells=(
            'import os\nimport pandas as pd\n\nfolder = os.environ.get("DATA_DIR", "data/raw")',
            "files = !ls {folder}/*.csv\nlen(files)",
            "frames = [pd.read_csv(f) for f in files]\ndf = pd.concat(frames)\ndf.shape",
        ),
    ),
    Case(
        "h2_nb_kaggle_batch",
        True,
        cells=(
            'import pandas as pd\n\nwanted = pd.read_csv("datasets.csv")\nwanted',
            'for slug in wanted["slug"]:\n'
            '    print("downloading", slug)\n'
            "    !kaggle datasets download -d {slug} -p /content/data --unzip -q",
        ),
    ),
    Case(
        "h2_nb_colab_images",
        True,
        cells=(
            "from google.colab import files\n\n"
            "uploaded = files.upload()\n"
            "fname = next(iter(uploaded))",
            "!unzip -q $fname -d images\n!ls images | head",
        ),
    ),
    Case(
        "h2_nb_error_logs",
        True,
        cells=(
            'pattern = input("error text: ")',
            "hits = %sx grep -l {pattern} logs/*.log\nhits",
        ),
    ),
    Case(
        "h2_nb_experiment_sizes",
        True,
        cells=(
            'import os\n\nruns = sorted(os.listdir("experiments"))\nruns[-5:]',
            "for run in runs[-5:]:\n    %system du -sh experiments/$run",
        ),
    ),
    Case(
        "h2_nb_country_orders",
        True,
        cells=(
            "import ipywidgets as widgets\n"
            "import pandas as pd\n"
            "from sqlalchemy import create_engine\n\n"
            'engine = create_engine("postgresql://analyst@dw/sales")\n'
            'countries = pd.read_sql("SELECT DISTINCT country FROM customers", engine)',
            'country = widgets.Dropdown(options=countries["country"].tolist())\ncountry',
            'q = "SELECT * FROM orders o JOIN customers c USING (customer_id) "\n'
            "q += f\"WHERE c.country = '{country.value}'\"",
            "orders = pd.read_sql(q, engine)\norders.describe()",
        ),
    ),
    Case(
        "h2_nb_race_results",
        True,
        cells=(
            'dbutils.widgets.text("catalog", "main")\n'
            'dbutils.widgets.text("file_date", "2024-03-21")',
            'catalog = dbutils.widgets.get("catalog")\n'
            'file_date = dbutils.widgets.get("file_date")',
            'results = f"{catalog}.f1.race_results"\n'
            "df = spark.sql(f\"SELECT * FROM {results} WHERE file_date = '{file_date}'\")\n"
            "display(df)",
        ),
    ),
    Case(
        "h2_nb_trip_loading",
        True,
        cells=(
            'import glob\n\nimport duckdb\n\ncon = duckdb.connect("nyc.duckdb")',
            "%%time\n"
            'for csv_path in glob.glob("incoming/*.csv"):\n'
            "    con.execute(f\"INSERT INTO trips SELECT * FROM read_csv_auto('{csv_path}')\")",
            'con.sql("SELECT count(*) FROM trips")',
        ),
    ),
    Case(
        "h2_nb_extra_packages",
        True,
        cells=(
            "%%capture\n"
            'with open("requirements-extra.txt") as fh:\n'
            "    for pkg in fh.read().split():\n"
            "        !pip install -q {pkg}",
            "import importlib.metadata\nimportlib.metadata.version('pandas')",
        ),
    ),
    Case(
        "h2_nb_video_frames",
        True,
        cells=(
            'from pathlib import Path\n\nvideo = sorted(Path("uploads").glob("*.mp4"))[0]',
            'cmd = f"ffmpeg -y -i {video} -vf fps=1 frames/%04d.png"\n!{cmd}',
        ),
    ),
    Case(
        "h2_nb_movie_search",
        True,
        cells=(
            "import sqlite3\n\nimport pandas as pd\nfrom ipywidgets import interact\n\n"
            'con = sqlite3.connect("movies.db")',
            'def search(title=""):\n'
            "    q = f\"SELECT title, year FROM movies WHERE title LIKE '%{title}%'\"\n"
            "    return pd.read_sql(q, con)\n\n"
            'interact(search, title="")',
        ),
    ),
    Case(
        "h2_nb_csv_line_counts",
        False,
        cells=(
            'import os\n\nos.environ["DATA_DIR"] = input("data dir: ")',
            '%%bash\nfor f in "$DATA_DIR"/*.csv; do\n  wc -l "$f"\ndone',
            '%%bash\nls -la "$DATA_DIR" | head',
        ),
    ),
    Case(
        "h2_nb_lab_samples",
        False,
        cells=(
            "import os\nimport sqlite3\n\nfrom ipy_istring import sh, sql\n\n"
            'con = sqlite3.connect("lab.db")\ncur = con.cursor()',
            'sample = input("sample id: ")',
            'cur.execute(*sql(i"SELECT * FROM runs WHERE sample = {sample}"))\ncur.fetchall()',
            'os.system(sh(i"ls -la results/{sample}"))',
        ),
    ),
    Case(
        "h2_nb_data_sizes",
        False,
        cells=(
            '!find data -name "*.json" -exec wc -c {{}} +',
            "!echo $$HOME\n!ls -la data | head",
            "!du -sh data/*",
        ),
    ),
    Case(
        "h2_nb_kaggle_airlines",
        False,
        cells=(
            "!mkdir -p ~/.kaggle\n!cp kaggle.json ~/.kaggle/\n!chmod 600 ~/.kaggle/kaggle.json",
            'DATASET_SLUG = "mexwell/carrier-on-time-performance-dataset"\n'
            "!mkdir -p /content/data\n"
            "!kaggle datasets download -d {DATASET_SLUG} -p /content/data --unzip",
        ),
    ),
    Case(
        "h2_nb_region_orders",
        False,
        cells=(
            "import ipywidgets as widgets\nimport pandas as pd\n"
            "from sqlalchemy import create_engine\n\n"
            'engine = create_engine("postgresql://analyst@dw/sales")',
            'region = widgets.Dropdown(options=["EU", "US", "APAC"], description="Region")\nregion',
            'print(f"Loading orders for {region.value}")\n'
            'q = "SELECT * FROM orders WHERE region = %(r)s"\n'
            'orders = pd.read_sql(q, engine, params={"r": region.value})\n'
            "orders.head()",
        ),
    ),
    Case(
        "h2_nb_dataset_download",
        False,
        cells=(
            "import shlex",
            'url = input("Dataset URL: ")',
            "!wget -q {shlex.quote(url)} -O data.zip\n!unzip -o data.zip -d data",
        ),
    ),
]


HELDOUT2: list[Case] = [*SHELL, *SHELL_SAFE, *SQL, *SQL_SAFE, *NOTEBOOKS]
