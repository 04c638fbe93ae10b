"""Held-out corpus 4: cases modelled on public code, written blind to the check."""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


_SQL = [
    _v(
        "h4_select_table_helper",
        """
from connection import dbinfo

conn = dbinfo.conn


class Queries:
    def select_table(table):
        cursor = conn.cursor()
        cursor.execute(f'SELECT * FROM {table}')
        rows = cursor.fetchall()
        for row in rows:
            print(row)
        conn.close()
""",
    ),
    _v(
        "h4_print_all_pools",
        """
from loguru import logger


def main(con, table):
    sql = f"SELECT * FROM {table};"
    with con:
        data = con.execute(sql)
        for row in data:
            logger.info(row)
""",
    ),
    _v(
        "h4_postgresql_select_filters",
        """
def postgresql_select(cursor, items, table, filters=None):
    '''Run a SELECT built from the given columns, table and filters.'''
    sql_statement = f'''SELECT {', '.join(items)} FROM {table}'''
    if filters is not None:
        sql_statement += f''' Where {' and '.join(filters)}'''
    cursor.execute(sql_statement)
    return cursor.fetchall()
""",
    ),
    _v(
        "h4_duckdb_read_parquet_udf",
        """
import fused


@fused.udf
def udf(path: str):
    import duckdb

    con = duckdb.connect()
    con.sql("install 'httpfs'; load 'httpfs';")
    df = con.sql(f"SELECT * FROM read_parquet('{path}')").df()
    print(df)
    return df
""",
    ),
    _v(
        "h4_duckdb_load_columns",
        """
import duckdb
import pandas as pd


def load_parquet(path: str, columns: list[str] | None = None) -> pd.DataFrame:
    if columns:
        cols = ', '.join(columns)
        query = f"SELECT {cols} FROM read_parquet('{path}')"
    else:
        query = f"SELECT * FROM read_parquet('{path}')"
    return duckdb.query(query).to_df()
""",
    ),
    _v(
        "h4_asyncpg_select_all",
        """
import asyncpg

from config import DB_HOST, DB_NAME, DB_PASS, DB_USER


async def connect_to_db():
    return await asyncpg.connect(host=DB_HOST, database=DB_NAME, user=DB_USER, password=DB_PASS)


async def select_all_from_table(conn, table_name):
    rows = await conn.fetch(f'SELECT * FROM {table_name}')
    return rows
""",
    ),
    _v(
        "h4_spark_target_table_argv",
        """
import sys
from datetime import date

from pyspark.sql import SparkSession

target_table = sys.argv[1]
today = date.today()

spark = SparkSession.builder.appName(f"SELECT_TABLE_{today}").getOrCreate()

spark.sql(f'''
    SELECT customer_id, category, value1, value2
    FROM {target_table}
    ''').show()

print("SELECT TABLE COMPLETED.")
spark.stop()
""",
    ),
    _v(
        "h4_user_insert_method",
        """
import logging


class User:
    logger = logging.getLogger(__name__)
    salt = '123'

    def __init__(self, name, password, cursor):
        self.name = name
        self.password = password
        self.cursor = cursor

    def insert(self):
        self.logger.debug(f"Inserting new user: {self.name}")
        self.cursor.execute(f"INSERT INTO users "
                            f"(name, password, salt) "
                            f"VALUES ('{self.name}', '{self.password}', '{self.salt}')")
""",
    ),
    _v(
        "h4_alconna_select",
        """
from sqlite3 import connect
from typing import Optional

db = connect('example.db')
cursor = db.cursor()


def exec_sql(columns: tuple[str, ...], table: str, conditions: Optional[dict[str, str]] = None):
    if table == "UNKNOWN":
        print("Table name is required.")
        return
    if conditions is None:
        conditions = {}
    where = ' AND '.join(f"{k} = '{v}'" for k, v in conditions.items()) or '1=1'
    cursor.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE {where}")
    return cursor.fetchall()
""",
    ),
    _v(
        "h4_flask_percent_lookup",
        """
import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.route('/user')
def user():
    username = request.args.get('username')
    conn = sqlite3.connect('users.db')
    cursor = conn.cursor()
    query = "SELECT * FROM users WHERE username = '%s'" % username
    cursor.execute(query)
    result = cursor.fetchall()
    return str(result)
""",
    ),
    _v(
        "h4_django_search_format",
        """
from django.db import connection
from django.http import JsonResponse


def search_books(request):
    term = request.GET.get("q", "")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, title FROM library_book WHERE title LIKE '%%{}%%'".format(term)
        )
        rows = cursor.fetchall()
    return JsonResponse({"results": [{"id": r[0], "title": r[1]} for r in rows]})
""",
    ),
    _v(
        "h4_sqlalchemy_text_email",
        """
from sqlalchemy import create_engine, text

engine = create_engine("postgresql+psycopg2://app@localhost/app")


def find_account(email: str):
    with engine.connect() as conn:
        result = conn.execute(text(f"SELECT id, name FROM accounts WHERE email = '{email}'"))
        return result.first()
""",
    ),
    _v(
        "h4_read_sql_keyword",
        """
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("mysql+pymysql://report:report@db/sales")


def monthly_sales(store_id, month):
    df = pd.read_sql(
        sql=f"SELECT * FROM sales WHERE store_id = {store_id} AND month = '{month}'",
        con=engine,
    )
    return df.groupby("sku").sum()
""",
    ),
    _v(
        "h4_query_template_format",
        """
import pandas as pd

ORDERS_BETWEEN = '''
SELECT order_id, customer_id, total
FROM orders
WHERE created_at BETWEEN '{start}' AND '{end}'
'''


def load_orders(engine, start, end):
    query = ORDERS_BETWEEN.format(start=start, end=end)
    return pd.read_sql_query(query, engine)
""",
    ),
    _v(
        "h4_percent_template_schema",
        """
import psycopg2

COUNT_ROWS = "SELECT count(*) FROM %s.%s"


def row_count(dsn, schema, table):
    conn = psycopg2.connect(dsn)
    with conn, conn.cursor() as cur:
        cur.execute(COUNT_ROWS % (schema, table))
        return cur.fetchone()[0]
""",
    ),
    _v(
        "h4_dedent_report",
        """
import textwrap


def fetch_report(cur, team, since):
    cur.execute(textwrap.dedent(f'''
        SELECT author, count(*) AS commits
        FROM commits
        WHERE team = '{team}' AND committed_at >= '{since}'
        GROUP BY author
        ORDER BY commits DESC
    '''))
    return cur.fetchall()
""",
    ),
    _v(
        "h4_returned_region_query",
        """
import sqlite3


def build_query(region, year):
    return f"SELECT city, population FROM cities WHERE region = '{region}' AND year = {year}"


def cities(db_path, region, year):
    conn = sqlite3.connect(db_path)
    cursor = conn.cursor()
    cursor.execute(build_query(region, year))
    return cursor.fetchall()
""",
    ),
    _v(
        "h4_status_branch_query",
        """
def list_tickets(cursor, status=None):
    if status:
        query = f"SELECT id, title FROM tickets WHERE status = '{status}' ORDER BY id"
    else:
        query = "SELECT id, title FROM tickets ORDER BY id"
    cursor.execute(query)
    return cursor.fetchall()
""",
    ),
    _v(
        "h4_annotated_query",
        """
import pymysql


def get_product(conn: pymysql.connections.Connection, sku: str) -> dict | None:
    query: str = f"SELECT * FROM products WHERE sku = '{sku}'"
    with conn.cursor(pymysql.cursors.DictCursor) as cur:
        cur.execute(query)
        return cur.fetchone()
""",
    ),
    _v(
        "h4_truncate_driver_sql",
        """
import sys

from sqlalchemy import create_engine

engine = create_engine("postgresql://etl@warehouse/staging")

with engine.begin() as conn:
    for table in sys.argv[1:]:
        conn.exec_driver_sql(f"TRUNCATE TABLE {table}")
        print(f"truncated {table}")
""",
    ),
    _v(
        "h4_polars_read_database",
        """
import polars as pl
from sqlalchemy import create_engine

engine = create_engine("postgresql://analytics@db/events")


def events_for(customer: str) -> pl.DataFrame:
    return pl.read_database(
        query=f"SELECT * FROM events WHERE customer = '{customer}'",
        connection=engine,
    )
""",
    ),
    _v(
        "h4_argparse_count",
        """
import argparse
import sqlite3

parser = argparse.ArgumentParser(description="Count rows in a table")
parser.add_argument("database")
parser.add_argument("table")
args = parser.parse_args()

conn = sqlite3.connect(args.database)
cur = conn.cursor()
cur.execute("SELECT COUNT(*) FROM %s" % args.table)
print(cur.fetchone()[0])
""",
    ),
    _v(
        "h4_fastapi_order_by",
        """
import sqlite3

from fastapi import FastAPI

app = FastAPI()


@app.get("/items")
def list_items(sort: str = "name", direction: str = "asc", limit: int = 50):
    conn = sqlite3.connect("shop.db")
    rows = conn.execute(
        f"SELECT id, name, price FROM items ORDER BY {sort} {direction} LIMIT ?", (limit,)
    ).fetchall()
    conn.close()
    return [{"id": r[0], "name": r[1], "price": r[2]} for r in rows]
""",
    ),
    _v(
        "h4_csv_insert_values_join",
        """
import csv
import sqlite3

conn = sqlite3.connect("import.db")
cur = conn.cursor()

with open("people.csv") as f:
    reader = csv.reader(f)
    next(reader)
    for row in reader:
        values = ", ".join(f"'{v}'" for v in row)
        cur.execute("INSERT INTO people VALUES (" + values + ")")

conn.commit()
""",
    ),
    _v(
        "h4_rebuild_table_script",
        """
import sqlite3


def rebuild_summary(db_path: str, name: str, source: str) -> None:
    conn = sqlite3.connect(db_path)
    conn.executescript(f'''
        DROP TABLE IF EXISTS {name};
        CREATE TABLE {name} AS
            SELECT category, sum(amount) AS total FROM {source} GROUP BY category;
    ''')
    conn.close()
""",
    ),
    _v(
        "h4_report_attribute_query",
        """
class Report:
    def __init__(self, cursor, department, year):
        self.cur = cursor
        self.query = (
            f"SELECT employee, salary FROM payroll "
            f"WHERE department = '{department}' AND year = {year}"
        )

    def run(self):
        self.cur.execute(self.query)
        return self.cur.fetchall()
""",
    ),
    _v(
        "h4_module_base_query",
        """
BASE_QUERY = "SELECT id, customer, total FROM orders WHERE 1=1"


def search_orders(conn, customer=None, min_total=None):
    q = BASE_QUERY
    if customer:
        q += f" AND customer = '{customer}'"
    if min_total:
        q += f" AND total >= {min_total}"
    return conn.execute(q).fetchall()
""",
    ),
    _v(
        "h4_test_count_helper",
        """
import sqlite3

import pytest


def _count(conn, table, where):
    return conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}").fetchone()[0]


@pytest.fixture
def db(tmp_path):
    conn = sqlite3.connect(tmp_path / "t.db")
    conn.execute("CREATE TABLE jobs (id INTEGER, state TEXT)")
    yield conn
    conn.close()


def test_jobs_start_queued(db):
    db.execute("INSERT INTO jobs VALUES (1, 'queued')")
    assert _count(db, "jobs", "state = 'queued'") == 1
""",
    ),
    _v(
        "h4_snowflake_copy_into",
        """
import snowflake.connector


def load_batch(event, context):
    prefix = event["prefix"]
    table = event.get("table", "RAW_EVENTS")
    ctx = snowflake.connector.connect(user="loader", account="acme", warehouse="LOAD_WH")
    cs = ctx.cursor()
    try:
        cs.execute(f"COPY INTO {table} FROM @landing/{prefix} FILE_FORMAT = (TYPE = JSON)")
        return {"loaded": cs.rowcount}
    finally:
        cs.close()
        ctx.close()
""",
    ),
    _v(
        "h4_lambda_item_lookup",
        """
import json
import os

import pymysql

conn = pymysql.connect(
    host=os.environ["DB_HOST"], user="api", password=os.environ["DB_PASS"], db="inventory"
)


def lambda_handler(event, context):
    item_id = event["queryStringParameters"]["id"]
    with conn.cursor() as cur:
        cur.execute(f"SELECT name, qty FROM items WHERE id = {item_id}")
        row = cur.fetchone()
    return {"statusCode": 200, "body": json.dumps({"name": row[0], "qty": row[1]})}
""",
    ),
    _v(
        "h4_psycopg_sql_wrapping_fstring",
        """
from psycopg2 import sql


def drop_partition(conn, table, day):
    with conn.cursor() as cur:
        cur.execute(sql.SQL(f"ALTER TABLE {table} DETACH PARTITION {table}_{day}"))
    conn.commit()
""",
    ),
    _v(
        "h4_bigquery_user_events",
        """
from google.cloud import bigquery


def user_events(project: str, dataset: str, uid: str):
    client = bigquery.Client(project=project)
    sql = f'''
        SELECT event_name, event_timestamp
        FROM `{project}.{dataset}.events`
        WHERE user_id = '{uid}'
        ORDER BY event_timestamp DESC
    '''
    return client.query(sql).to_dataframe()
""",
    ),
    _v(
        "h4_coredb_ingest_query",
        """
from datetime import datetime

from data_connector.coredb_connector import load_coredb_query

database = "CMS"
table = dbutils.widgets.get("table")
date_column = dbutils.widgets.get("date_column")

from_date_df = spark.sql(f"SELECT MAX({date_column}) AS max_date FROM silver.cms__{table}")
from_date = from_date_df.collect()[0]["max_date"].strftime("%Y-%m-%d")
to_date = datetime.today().strftime("%Y-%m-%d")

query = f"(SELECT * FROM {table} WHERE {date_column} BETWEEN '{from_date}' AND '{to_date}')"
load_coredb_query(database, table, query)
""",
    ),
    _v(
        "h4_tornado_handler_delete",
        """
import tornado.web


class DeleteNoteHandler(tornado.web.RequestHandler):
    def initialize(self, db):
        self.db = db

    def post(self):
        note_id = self.get_argument("id")
        owner = self.get_secure_cookie("user").decode()
        sql = "DELETE FROM notes WHERE id = " + note_id + " AND owner = '" + owner + "'"
        self.db.execute(sql)
        self.redirect("/notes")
""",
    ),
]


_SHELL = [
    _v(
        "h4_ffmpeg_wav_argv",
        """
import os
import subprocess
import sys

video_path = sys.argv[1]
audio_path = "./audios/"
wav_name = os.path.basename(video_path).split(".")[0] + ".wav"

command = "ffmpeg -i {} -ab 160k -ac 2 -ar 44100 -vn {}".format(video_path, audio_path + wav_name)
subprocess.call(command, shell=True)
""",
    ),
    _v(
        "h4_paramiko_restart_service",
        """
import paramiko


def restart_service(ip, username, password, service_name):
    try:
        client = paramiko.SSHClient()
        client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        client.connect(ip, username=username, password=password)
        command = f"sudo systemctl restart {service_name}"
        stdin, stdout, stderr = client.exec_command(command)
        output = stdout.read().decode().strip()
        if output:
            print(f"[+] {output}")
        client.close()
    except Exception as e:
        print(f"[-] failed: {e}")
""",
    ),
    _v(
        "h4_paramiko_service_class",
        """
import paramiko


class RemoteService:
    def __init__(self, host, service):
        self._service = service
        self._client = paramiko.SSHClient()
        self._client.load_system_host_keys()
        self._client.connect(host)

    def restart(self):
        cmd = "service {} restart".format(self._service)
        _, stdout, _ = self._client.exec_command(cmd)
        return stdout.channel.recv_exit_status()
""",
    ),
    _v(
        "h4_reset_failed_units",
        """
import subprocess

HOST = "storage-01"


def ssh(command):
    return subprocess.run(f"ssh root@{HOST} {command}", shell=True, check=True)


def reset_systemd_svcs(svcs_to_reset):
    '''Reset systemd services given as a space separated string.'''
    ssh(f"systemctl reset-failed {svcs_to_reset}")
""",
    ),
    _v(
        "h4_async_git_clone",
        """
import asyncio


async def clone(repo_url: str, dest: str) -> int:
    proc = await asyncio.create_subprocess_shell(
        f"git clone --depth 1 {repo_url} {dest}",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    if proc.returncode:
        print(err.decode())
    return proc.returncode
""",
    ),
    _v(
        "h4_bash_c_archive",
        """
import subprocess
from pathlib import Path


def archive(src: Path, archive_name: str) -> None:
    script = f"tar czf {archive_name} -C {src.parent} {src.name} && sha256sum {archive_name}"
    subprocess.run(["bash", "-c", script], check=True)
""",
    ),
    _v(
        "h4_ping_popen_format",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/ping")
def ping():
    host = request.args.get("host", "127.0.0.1")
    p = subprocess.Popen("ping -c 1 {}".format(host), shell=True, stdout=subprocess.PIPE)
    out, _ = p.communicate()
    return out.decode()
""",
    ),
    _v(
        "h4_git_log_author_concat",
        """
import subprocess


def commits_by(author, repo="."):
    out = subprocess.check_output(
        "git -C " + repo + " log --author=" + author + " --oneline", shell=True
    )
    return out.decode().splitlines()
""",
    ),
    _v(
        "h4_popen_du",
        """
import os


def folder_size(path):
    return os.popen(f"du -sh {path}").read().split()[0]


if __name__ == "__main__":
    for entry in os.scandir("/srv/uploads"):
        print(entry.name, folder_size(entry.path))
""",
    ),
    _v(
        "h4_convert_join",
        """
import os


def thumbnail(src, dst, size="128x128"):
    os.system(" ".join(["convert", src, "-resize", size, dst]))


for name in os.listdir("incoming"):
    thumbnail(os.path.join("incoming", name), os.path.join("thumbs", name))
""",
    ),
    _v(
        "h4_kubectl_getstatusoutput",
        """
import subprocess
import sys


def pods(namespace):
    status, output = subprocess.getstatusoutput(f"kubectl get pods -n {namespace} -o wide")
    if status != 0:
        sys.exit(output)
    return output


print(pods(sys.argv[1] if len(sys.argv) > 1 else "default"))
""",
    ),
    _v(
        "h4_scp_hosts_file",
        """
import os

with open("hosts.txt") as fh:
    hosts = [line.strip() for line in fh if line.strip()]

for host in hosts:
    print(f"copying to {host}")
    rc = os.system(f"scp backup.tar.gz {host}:/var/backups/")
    if rc:
        print(f"failed: {host}")
""",
    ),
    _v(
        "h4_docker_action_dict",
        """
import subprocess
import sys


def manage(action, name):
    commands = {
        "start": f"docker start {name}",
        "stop": f"docker stop {name}",
        "logs": f"docker logs --tail 100 {name}",
    }
    subprocess.run(commands[action], shell=True, check=True)


if __name__ == "__main__":
    manage(sys.argv[1], sys.argv[2])
""",
    ),
    _v(
        "h4_cleanup_dirs_comprehension",
        """
import json
import os

with open("cleanup.json") as f:
    config = json.load(f)

commands = [f"rm -rf {d}/*" for d in config["tmp_dirs"]]
for c in commands:
    os.system(c)
""",
    ),
    _v(
        "h4_pg_dump_env",
        """
import datetime
import os

db_name = os.environ["DB_NAME"]
stamp = datetime.date.today().isoformat()
os.system(f"pg_dump {db_name} | gzip > /backups/{db_name}-{stamp}.sql.gz")
""",
    ),
    _v(
        "h4_mkdir_input",
        """
import os

name = input("Project name: ")
os.system("mkdir -p projects/" + name)
os.system("cp -r template/* projects/" + name)
print("created", name)
""",
    ),
    _v(
        "h4_click_checkout",
        """
import subprocess

import click


@click.command()
@click.argument("branch")
@click.option("--pull/--no-pull", default=True)
def checkout(branch, pull):
    subprocess.run(f"git checkout {branch}", shell=True, check=True)
    if pull:
        subprocess.run("git pull --ff-only", shell=True, check=True)


if __name__ == "__main__":
    checkout()
""",
    ),
    _v(
        "h4_fabric_deploy",
        """
from fabric import Connection


def deploy(host, archive, dest="/opt/app"):
    c = Connection(host)
    c.put(archive, "/tmp/")
    c.run(f"tar xzf /tmp/{archive} -C {dest}")
    c.sudo("systemctl restart app")
""",
    ),
    _v(
        "h4_django_view_nslookup",
        """
import subprocess

from django.http import HttpResponse


def lookup(request):
    domain = request.POST["domain"]
    result = subprocess.run(
        f"nslookup {domain}", shell=True, capture_output=True, text=True
    )
    return HttpResponse(result.stdout, content_type="text/plain")
""",
    ),
    _v(
        "h4_nbconvert_export_system",
        """
#!/usr/bin/env python
# coding: utf-8

# In[1]:


import os
dataset = os.environ.get("DATASET", "cifar10")


# In[2]:


get_ipython().system('wget -q https://example.org/data/{dataset}.tar.gz')
get_ipython().system('tar xzf {dataset}.tar.gz')
""",
    ),
    _v(
        "h4_nbconvert_export_getoutput",
        """
#!/usr/bin/env python
# coding: utf-8

# In[1]:


import sys
sample = sys.argv[-1]


# In[2]:


lines = get_ipython().getoutput(f'grep -c ">" fasta/{sample}.fa')
print(lines)
""",
    ),
    _v(
        "h4_zip_upload_flask",
        """
import os

from flask import Flask, request

app = Flask(__name__)
UPLOADS = "/srv/uploads"


@app.post("/unzip")
def unzip():
    f = request.files["archive"]
    path = os.path.join(UPLOADS, f.filename)
    f.save(path)
    os.system(f"unzip -o {path} -d {UPLOADS}/extracted")
    return "ok"
""",
    ),
]


_NOTEBOOKS = [
    _nb(
        "h4_nb_wget_input",
        True,
        """
import os

os.makedirs("data", exist_ok=True)
url = input("dataset url: ")
""",
        """
!wget -q {url} -O data.zip
!unzip -o data.zip -d data
""",
    ),
    _nb(
        "h4_nb_gsutil_loop",
        True,
        """
import pandas as pd

manifest = pd.read_csv("manifest.csv")
manifest.head()
""",
        """
for uri in manifest["gcs_uri"]:
    !gsutil cp {uri} ./raw/
""",
    ),
    _nb(
        "h4_nb_widget_region",
        True,
        """
import ipywidgets as widgets
from IPython.display import display

region = widgets.Dropdown(options=["EMEA", "APAC", "AMER"], description="Region")
note = widgets.Text(description="Note")
display(region, note)
""",
        """
df = spark.sql(
    f"select * from sales where region = '{region.value}' and note like '%{note.value}%'"
)
df.display()
""",
    ),
    _nb(
        "h4_nb_dbutils_table",
        True,
        """
env = dbutils.widgets.get("env")
table = "events_" + env
""",
        """
import pandas as pd

df = pd.read_sql(f"SELECT * FROM {table} LIMIT 1000", conn)
df.describe()
""",
    ),
    _nb(
        "h4_nb_pip_from_file",
        True,
        """
with open("extra-requirements.txt") as fh:
    pkgs = fh.read().split()
print(len(pkgs), "packages")
""",
        """
for p in pkgs:
    !pip install -q {p}
""",
    ),
    _nb(
        "h4_nb_ls_dollar_env",
        True,
        """
import os

data_dir = os.environ.get("DATA_DIR", "data")
""",
        """
!ls -la $data_dir
!du -sh $data_dir/*
""",
    ),
    _nb(
        "h4_nb_query_three_cells",
        True,
        """
import sqlite3

conn = sqlite3.connect("chinook.db")
cur = conn.cursor()
artist = input("Artist: ")
""",
        """
q = f'''
SELECT al.Title
FROM albums al JOIN artists ar ON ar.ArtistId = al.ArtistId
WHERE ar.Name = '{artist}'
'''
""",
        """
cur.execute(q)
cur.fetchall()
""",
    ),
    _nb(
        "h4_nb_sx_grep",
        True,
        """
pattern = input("search for: ")
""",
        """
hits = %sx grep -rn {pattern} logs/
print(len(hits), "matches")
for h in hits[:10]:
    print(h)
""",
    ),
    _nb(
        "h4_nb_files_bang_assign",
        True,
        """
import os

folder = os.getenv("RAW_DIR", "raw")
""",
        """
files = !ls {folder}/*.csv
files[:5]
""",
    ),
    _nb(
        "h4_nb_duckdb_glob_tables",
        True,
        """
import glob

import duckdb

con = duckdb.connect("lake.duckdb")
""",
        """
for path in glob.glob("exports/*.csv"):
    name = path.split("/")[-1].removesuffix(".csv")
    con.execute(f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM read_csv_auto('{path}')")
""",
        """
con.sql("SHOW TABLES").df()
""",
    ),
    _nb(
        "h4_nb_time_magic_query",
        True,
        """
import psycopg2

conn = psycopg2.connect("dbname=warehouse")
min_amount = input("minimum amount: ")
""",
        """
%%time
with conn.cursor() as cur:
    cur.execute("SELECT count(*) FROM payments WHERE amount > " + min_amount)
    print(cur.fetchone())
""",
    ),
    _nb(
        "h4_nb_system_call_df",
        True,
        """
import pandas as pd

jobs = pd.read_json("jobs.json")
""",
        """
for _, job in jobs.iterrows():
    get_ipython().system(f"sbatch --job-name={job['name']} {job['script']}")
""",
    ),
]


_SAFE = [
    _s(
        "h4_ffmpeg_constant_paths",
        """
import subprocess

video_path = "./videos/test_video/"
video_name = "test_8.mp4"

audio_path = "./audios/"
wav_name = video_name.split(".")[0] + ".wav"

command = "ffmpeg -i {} -ab 160k -ac 2 -ar 44100 -vn {}".format(
    video_path + video_name, audio_path + wav_name
)
subprocess.call(command, shell=True)
""",
    ),
    _s(
        "h4_spark_constant_format",
        """
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("clean data").enableHiveSupport().getOrCreate()

database = 'service_system_db'
table = 'exit_jour'
limit = ' '
sql = "select * from {database}.{table} where n_ex_date < 20180631 {limit}".format(
    database=database, table=table, limit=limit
)
print(sql)
spark.sql(sql).show()
spark.stop()
""",
    ),
    _s(
        "h4_flask_qmark_user",
        """
import sqlite3

import flask

app = flask.Flask("example")


@app.route('/user')
def get_users():
    user = flask.request.args["user"]
    sql = "SELECT user FROM users WHERE user = ?"
    conn = sqlite3.connect('example')
    rows = conn.cursor().execute(sql, (user,)).fetchall()
    app.logger.info(f"lookup {user}: {len(rows)} rows")
    return {"users": [r[0] for r in rows]}
""",
    ),
    _s(
        "h4_mysql_like_param",
        """
from ..db.mysql_connection import get_db_connection


def mysql_get_user_name(name):
    conn = get_db_connection()
    cursor = conn.cursor()
    query = "SELECT * FROM accounts where name like %s"
    cursor.execute(query, (f"%{name}%",))
    user = cursor.fetchall()
    cursor.close()
    conn.close()
    return user or False
""",
    ),
    _s(
        "h4_limit_int_cast",
        """
import sqlite3


def recent_posts(db, author, limit):
    conn = sqlite3.connect(db)
    rows = conn.execute(
        f"SELECT title FROM posts WHERE author = ? ORDER BY created DESC LIMIT {int(limit)}",
        (author,),
    ).fetchall()
    return [r[0] for r in rows]
""",
    ),
    _s(
        "h4_order_by_allow_list",
        """
SORTABLE = {"name", "created_at", "price"}


def list_products(cur, sort="name", desc=False):
    if sort not in SORTABLE:
        raise ValueError(f"cannot sort by {sort!r}")
    direction = "DESC" if desc else "ASC"
    cur.execute(f"SELECT id, name, price FROM products ORDER BY {sort} {direction}")
    return cur.fetchall()
""",
    ),
    _s(
        "h4_cat_shlex_quote",
        """
import os
import shlex
import sys

for path in sys.argv[1:]:
    print(f"== {path} ==")
    os.system(f"head -n 5 {shlex.quote(path)}")
""",
    ),
    _s(
        "h4_git_log_shlex_join",
        """
import shlex
import subprocess


def history(branch: str, path: str) -> str:
    cmd = shlex.join(["git", "log", "--oneline", branch, "--", path])
    return subprocess.run(cmd + " | head -20", shell=True, capture_output=True, text=True).stdout
""",
    ),
    _s(
        "h4_ffmpeg_list_args",
        """
import subprocess


def video_convertidor(input_file, output_file):
    ffmpeg_cmd = ["ffmpeg", "-i", input_file, output_file]
    try:
        subprocess.run(ffmpeg_cmd, check=True)
        print(f"converted {input_file} -> {output_file}")
    except subprocess.CalledProcessError:
        print(f"conversion failed for {input_file}")
""",
    ),
    _s(
        "h4_psycopg_identifier",
        """
from psycopg2 import sql


def fetch_by_id(conn, table, row_id):
    query = sql.SQL("SELECT * FROM {} WHERE id = %s").format(sql.Identifier(table))
    with conn.cursor() as cur:
        cur.execute(query, (row_id,))
        return cur.fetchone()
""",
    ),
    _s(
        "h4_sqlalchemy_bound_email",
        """
from sqlalchemy import text


def find_account(engine, email: str):
    stmt = text("SELECT id, name FROM accounts WHERE email = :email")
    with engine.connect() as conn:
        row = conn.execute(stmt, {"email": email}).first()
    if row is None:
        raise LookupError(f"no account for {email}")
    return row
""",
    ),
    _s(
        "h4_istring_sql_lookup",
        """
import sqlite3

from ipy_istring import sql


def order_total(db_path, order_id):
    conn = sqlite3.connect(db_path)
    cur = conn.cursor()
    cur.execute(*sql(i"select sum(amount) from order_lines where order_id = {order_id}"))
    return cur.fetchone()[0]
""",
    ),
    _s(
        "h4_istring_sh_cat",
        """
import os
import sys

from ipy_istring import sh

for f in sys.argv[1:]:
    os.system(sh(i"wc -l {f}"))
""",
    ),
    _s(
        "h4_printed_sql_params",
        """
table = 'movies'
params = []
sql = f"SELECT * FROM {table}"
print(sql)

title = "Aristocats"
sql += " WHERE title LIKE ?"
params.append(f"%{title}%")
print(sql, params)

year = 1976
sql += " AND year = ?"
params.append(year)
print(sql, params)
""",
    ),
    _s(
        "h4_logged_failure_message",
        """
import logging

log = logging.getLogger(__name__)


def mark_paid(conn, invoice_id, user):
    try:
        conn.execute("UPDATE invoices SET paid = 1 WHERE id = ?", (invoice_id,))
        conn.commit()
    except Exception:
        log.exception(f"UPDATE invoices failed for id={invoice_id} by {user}")
        raise
""",
    ),
    _s(
        "h4_debug_sql_echo",
        """
def search(cur, term, category):
    debug_sql = f"SELECT * FROM items WHERE name LIKE '%{term}%' AND category = '{category}'"
    print("query (for humans):", debug_sql)
    cur.execute(
        "SELECT * FROM items WHERE name LIKE %s AND category = %s",
        (f"%{term}%", category),
    )
    return cur.fetchall()
""",
    ),
    _s(
        "h4_constant_table_loop",
        """
import sqlite3

conn = sqlite3.connect("app.db")
for table in ("users", "orders", "invoices"):
    n = conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    print(f"{table}: {n}")
""",
    ),
    _s(
        "h4_schema_constant_param",
        """
SCHEMA = "analytics"
EVENTS = f"{SCHEMA}.events"


def event(cur, event_id):
    cur.execute(f"SELECT * FROM {EVENTS} WHERE id = %s", (event_id,))
    return cur.fetchone()
""",
    ),
    _s(
        "h4_today_partition",
        """
from datetime import date, timedelta

from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
yesterday = (date.today() - timedelta(days=1)).isoformat()

df = spark.sql(f"SELECT * FROM raw.clicks WHERE dt = '{yesterday}'")
df.write.mode("overwrite").parquet(f"s3://lake/clicks/dt={yesterday}/")
""",
    ),
    _s(
        "h4_in_placeholders",
        """
def users_by_ids(conn, ids):
    if not ids:
        return []
    placeholders = ",".join("?" * len(ids))
    cur = conn.execute(f"SELECT id, name FROM users WHERE id IN ({placeholders})", ids)
    return cur.fetchall()
""",
    ),
    _s(
        "h4_ssh_uptime_list",
        """
import subprocess

HOSTS = ["web-1", "web-2", "db-1"]

for host in HOSTS:
    out = subprocess.run(["ssh", host, "uptime"], capture_output=True, text=True)
    print(f"{host}: {out.stdout.strip()}")
""",
    ),
    _s(
        "h4_clear_screen",
        """
import os
import time


def clear():
    os.system("cls" if os.name == "nt" else "clear")


while True:
    clear()
    print(time.strftime("%H:%M:%S"))
    time.sleep(1)
""",
    ),
    _s(
        "h4_constant_ref_shell",
        """
import subprocess

REF = "origin/main"
VERSION_FILE = "VERSION"

sha = subprocess.check_output(f"git rev-parse --short {REF}", shell=True, text=True).strip()
with open(VERSION_FILE, "w") as fh:
    fh.write(sha)
""",
    ),
    _s(
        "h4_paramiko_constant_restart",
        """
import time

import paramiko


def restart_service():
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect("10.0.0.7", username="deploy")
    try:
        client.exec_command('systemctl restart sustainage')
        time.sleep(5)
        _, stdout, _ = client.exec_command('systemctl status sustainage --no-pager')
        print(stdout.read().decode())
    finally:
        client.close()
""",
    ),
    _s(
        "h4_django_raw_params",
        """
from django.shortcuts import render

from .models import Book


def search(request):
    q = request.GET.get("q", "")
    books = Book.objects.raw("SELECT * FROM library_book WHERE title LIKE %s", [f"%{q}%"])
    return render(request, "search.html", {"books": books, "title": f"Results for {q}"})
""",
    ),
    _s(
        "h4_asyncpg_dollar_param",
        """
async def get_user_id(message, db_pool):
    user_id = message.author.id
    async with db_pool.acquire() as connection:
        row = await connection.fetchrow("SELECT id FROM users WHERE id = $1", user_id)
        if row is None:
            await connection.execute("INSERT INTO users (id) VALUES ($1)", user_id)
    return user_id
""",
    ),
    _s(
        "h4_read_sql_params_dict",
        """
import pandas as pd


def daily(engine, start, end):
    return pd.read_sql(
        "SELECT day, revenue FROM daily_revenue WHERE day BETWEEN %(start)s AND %(end)s",
        engine,
        params={"start": start, "end": end},
        parse_dates=["day"],
    )
""",
    ),
    _s(
        "h4_kill_int_pid",
        """
import os
import sys

pid = int(sys.argv[1])
os.system(f"kill -TERM {pid}")
""",
    ),
    _s(
        "h4_regex_checked_table",
        """
import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def truncate(conn, table: str) -> None:
    if not IDENT.fullmatch(table):
        raise ValueError(f"bad table name {table!r}")
    conn.execute(f'DELETE FROM "{table}"')
""",
    ),
]


_SAFE_NOTEBOOKS = [
    _nb(
        "h4_nb_pip_constant",
        False,
        """
!pip install -q duckdb pandas pyarrow
""",
        """
import duckdb

!ls data/
duckdb.sql("SELECT count(*) FROM 'data/trips.parquet'").df()
""",
    ),
    _nb(
        "h4_nb_region_param",
        False,
        """
import sqlite3

conn = sqlite3.connect("sales.db")
region = input("region: ")
""",
        """
rows = conn.execute(
    "SELECT store, sum(total) FROM sales WHERE region = ? GROUP BY store", (region,)
).fetchall()
print(f"{len(rows)} stores in {region}")
""",
    ),
    _nb(
        "h4_nb_istring_sh_widget",
        False,
        """
import os

import ipywidgets as widgets
from ipy_istring import sh

path = widgets.Text(value="data/raw.csv")
path
""",
        """
target = path.value
os.system(sh(i"wc -l {target}"))
""",
    ),
    _nb(
        "h4_nb_shlex_mkdir",
        False,
        """
import shlex

out_dir = input("output folder: ")
""",
        """
!mkdir -p {shlex.quote(out_dir)}
print(f"writing to {out_dir}")
""",
    ),
    _nb(
        "h4_nb_clone_list",
        False,
        """
import subprocess

repo_url = input("repo: ")
""",
        """
subprocess.run(["git", "clone", "--depth", "1", repo_url, "repo"], check=True)
subprocess.run(["git", "-C", "repo", "log", "-1", "--oneline"], check=True)
""",
    ),
    _nb(
        "h4_nb_time_param_query",
        False,
        """
import psycopg2

conn = psycopg2.connect("dbname=warehouse")
min_amount = float(input("minimum amount: "))
""",
        """
%%time
with conn.cursor() as cur:
    cur.execute("SELECT count(*) FROM payments WHERE amount > %s", (min_amount,))
    print(cur.fetchone())
""",
    ),
    _nb(
        "h4_nb_istring_sql_duckdb",
        False,
        """
import duckdb
from ipy_istring import sql

con = duckdb.connect()
city = input("city: ")
""",
        """
con.execute(*sql(i"SELECT * FROM 'stations.parquet' WHERE city = {city}")).df()
""",
    ),
]


HELDOUT4: list[Case] = [*_SQL, *_SHELL, *_NOTEBOOKS, *_SAFE, *_SAFE_NOTEBOOKS]
