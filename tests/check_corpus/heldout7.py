"""Seventh held-out corpus for the unsafe-format check, written blind.

Written by a helper who never opened the check (``ipy_istring/check/``), its tests, its
benchmark, or any other corpus file; only the ``Case`` dataclass and the ``_v``/``_s`` helpers
of ``cases.py`` were read, and neither the check nor any scanner was run on these cases. Each
case is modelled on a kind of public code found with a code search over public repositories
(Flask/Django/FastAPI handlers, Airflow operators, DuckDB/pandas loaders, paramiko/fabric/docker
devops scripts, Colab/Databricks/papermill/Voila notebooks), rewritten by hand, never copied.
The comment before each case names the kind of code and, for a vulnerable case, where the
tainted value comes from.

A case is vulnerable when a value the code does not control (request data, argv, environment,
file or DataFrame content, widget or notebook parameters) reaches shell or SQL text as code.
Safe cases are look-alikes: formatting that only reaches logs, messages or paths, bound
parameters behind f-string built placeholders, validated or allow-listed identifiers,
``shlex.quote``/``shlex.join``, argv lists without a shell, ``psycopg.sql`` composition, and
constant-only formatting.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


HELDOUT7: list[Case] = [
    # ------------------------------------------------------------------ vulnerable scripts
    # Flask search endpoint over sqlite3 (tutorial-style apps); taint: request.args["q"].
    _v("h7_flask_sqlite_like_search", """\
import sqlite3
from flask import Flask, request, jsonify

app = Flask(__name__)


@app.route("/search")
def search():
    q = request.args.get("q", "")
    db = sqlite3.connect("shop.db")
    rows = db.execute(f"SELECT id, title FROM products WHERE title LIKE '%{q}%'").fetchall()
    return jsonify(rows)
"""),
    # Django view using Manager.raw with %-formatting; taint: request.GET["name"].
    _v("h7_django_raw_percent", """\
from django.shortcuts import render
from .models import Person


def people(request):
    name = request.GET["name"]
    qs = Person.objects.raw("SELECT * FROM app_person WHERE last_name = '%s'" % name)
    return render(request, "people.html", {"people": qs})
"""),
    # Django QuerySet.extra(where=...) date filter; taint: request.GET["since"].
    _v("h7_django_extra_where", """\
from django.http import JsonResponse
from .models import Order


def recent_orders(request):
    since = request.GET.get("since", "2020-01-01")
    orders = Order.objects.extra(where=[f"created_at > '{since}'"])
    return JsonResponse({"count": orders.count()})
"""),
    # FastAPI + asyncpg pool endpoint; taint: the `owner` query parameter.
    _v("h7_fastapi_asyncpg_fetch", """\
import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.on_event("startup")
async def startup():
    app.state.pool = await asyncpg.create_pool(dsn="postgresql://app@db/app")


@app.get("/items")
async def items(owner: str):
    async with app.state.pool.acquire() as conn:
        rows = await conn.fetch(f"SELECT * FROM items WHERE owner = '{owner}'")
    return [dict(r) for r in rows]
"""),
    # Flask-SQLAlchemy list view with user-chosen sort column; taint: request.args["sort"].
    _v("h7_sqlalchemy_text_order_by", """\
from flask import request
from sqlalchemy import text

from .db import db


def list_users():
    sort = request.args.get("sort", "id")
    direction = request.args.get("dir", "asc")
    stmt = text(f"SELECT id, email FROM users ORDER BY {sort} {direction}")
    return db.session.execute(stmt).all()
"""),
    # pg_dump backup script with concatenation into os.system; taint: sys.argv.
    _v("h7_pgdump_os_system_argv", """\
import os
import sys

database = sys.argv[1]
target = sys.argv[2] if len(sys.argv) > 2 else "backup.sql"
cmd = "pg_dump -U postgres -f " + target + " " + database
os.system("PGPASSWORD=secret " + cmd)
"""),
    # argparse-driven release script with subprocess.run(shell=True); taint: CLI arguments.
    _v("h7_argparse_subprocess_shell", """\
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--version", required=True)
parser.add_argument("--notes", default="")
args = parser.parse_args()

subprocess.run(f"git tag -a v{args.version} -m '{args.notes}'", shell=True, check=True)
subprocess.run("git push --tags", shell=True, check=True)
"""),
    # CI helper wrapping subprocess.run with functools.partial; taint: GITHUB_HEAD_REF from env.
    _v("h7_partial_run_env_branch", """\
import functools
import os
import subprocess

run = functools.partial(subprocess.run, shell=True, check=True, text=True)


def checkout_pr_branch():
    branch = os.environ["GITHUB_HEAD_REF"]
    run(f"git fetch origin {branch} && git checkout {branch}")


if __name__ == "__main__":
    checkout_pr_branch()
"""),
    # Log viewer behind Flask that tails a file on a remote host with paramiko; taint: request.args.
    _v("h7_paramiko_tail_request", """\
import paramiko
from flask import Flask, request

app = Flask(__name__)


def ssh(host):
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect(host, username="ops", key_filename="/etc/ops/id_rsa")
    return client


@app.get("/logs")
def logs():
    lines = request.args.get("n", "100")
    logfile = request.args.get("file", "/var/log/syslog")
    client = ssh("10.0.0.5")
    _, out, _ = client.exec_command(f"tail -n {lines} {logfile}")
    return out.read().decode()
"""),
    # Fabric/invoke deployment task; taint: the `service` task argument from the command line.
    _v("h7_fabric_task_restart", """\
from fabric import Connection, task


@task
def restart(c, service, host="web1.example.com"):
    conn = Connection(host)
    conn.sudo(f"systemctl restart {service}")
    conn.run("systemctl --no-pager status " + service)
"""),
    # Docker SDK restore endpoint; taint: the uploaded file's name (request.files).
    _v("h7_docker_exec_run_upload", """\
import docker
from flask import Flask, request

app = Flask(__name__)
client = docker.from_env()


@app.post("/restore")
def restore():
    upload = request.files["dump"]
    upload.save(f"/srv/dumps/{upload.filename}")
    db = client.containers.get("postgres")
    code, out = db.exec_run(f"sh -c 'pg_restore -d app /dumps/{upload.filename}'")
    return {"code": code, "out": out.decode()}
"""),
    # Alertmanager webhook receiver that shells out to kubectl; taint: JSON body of the webhook.
    _v("h7_kubectl_webhook_json", """\
import subprocess
from flask import Flask, request

app = Flask(__name__)


@app.post("/alert")
def alert():
    payload = request.get_json()
    for alert in payload["alerts"]:
        pod = alert["labels"]["pod"]
        ns = alert["labels"].get("namespace", "default")
        logs = subprocess.check_output(f"kubectl logs {pod} -n {ns} --tail=50", shell=True)
        print(logs.decode())
    return "", 204
"""),
    # pexpect health-check script using bash -c; taint: host names read from a file.
    _v("h7_pexpect_bash_c_hosts_file", """\
import pexpect

with open("hosts.txt") as fh:
    hosts = [line.strip() for line in fh if line.strip()]

for host in hosts:
    child = pexpect.spawn("/bin/bash", ["-c", f"ping -c 1 {host} && echo UP"])
    child.expect(pexpect.EOF)
    print(child.before.decode())
"""),
    # Disk-usage report with the `sh` library; taint: directory argument from sys.argv.
    _v("h7_sh_library_bash_c", """\
import sys

import sh

path = sys.argv[1]
print(sh.bash("-c", f"du -sh {path}/* | sort -h"))
"""),
    # plumbum archiving script; taint: source directory from environment variable.
    _v("h7_plumbum_sh_c_env", """\
import os

from plumbum import local

src = os.environ.get("BACKUP_SRC", "/srv/data")
out = "/backups/data.tgz"
sh = local["sh"]
sh["-c", f"tar czf {out} {src} && ls -l {out}"]()
"""),
    # Interactive whois lookup tool using os.popen; taint: input().
    _v("h7_os_popen_input", """\
import os

domain = input("Domain to look up: ").strip()
with os.popen("whois %s | head -20" % domain) as pipe:
    print(pipe.read())
"""),
    # Airflow custom operator purging a partition; taint: dag_run.conf supplied by the trigger.
    _v("h7_airflow_operator_dag_run_conf", """\
from airflow.models import BaseOperator
from airflow.providers.postgres.hooks.postgres import PostgresHook


class PurgePartitionOperator(BaseOperator):
    def __init__(self, conn_id="warehouse", **kwargs):
        super().__init__(**kwargs)
        self.conn_id = conn_id

    def execute(self, context):
        conf = context["dag_run"].conf or {}
        table = conf.get("table", "events")
        ds = conf.get("ds", context["ds"])
        hook = PostgresHook(postgres_conn_id=self.conn_id)
        hook.run(f"DELETE FROM {table} WHERE ds = '{ds}'")
"""),
    # Airflow PythonOperator callable that runs a shell command; taint: params from dag_run.conf.
    _v("h7_airflow_python_callable_shell", """\
import subprocess
from datetime import datetime

from airflow import DAG
from airflow.operators.python import PythonOperator


def sync_bucket(**context):
    prefix = context["dag_run"].conf.get("prefix", "daily")
    subprocess.run(f"aws s3 sync s3://raw-bucket/{prefix} /data/{prefix}", shell=True, check=True)


with DAG("sync", start_date=datetime(2024, 1, 1), schedule=None) as dag:
    PythonOperator(task_id="sync", python_callable=sync_bucket)
"""),
    # pandas reporting script; taint: region from sys.argv into pd.read_sql.
    _v("h7_pandas_read_sql_argv", """\
import sys

import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://report@db/sales")
region = sys.argv[1]
df = pd.read_sql(f"SELECT * FROM sales WHERE region = '{region}'", engine)
df.to_csv(f"sales_{region}.csv", index=False)
"""),
    # CSV-to-MySQL loader iterating DataFrame rows; taint: CSV cell values.
    _v("h7_pandas_itertuples_insert", """\
import pandas as pd
import pymysql

df = pd.read_csv("customers.csv")
conn = pymysql.connect(host="localhost", user="etl", password="etl", database="crm")
with conn.cursor() as cur:
    for row in df.itertuples(index=False):
        cur.execute(
            "INSERT INTO customers (name, city) VALUES ('%s', '%s')" % (row.name, row.city)
        )
conn.commit()
"""),
    # Batch delete from an id file, IN list built by a generator expression; taint: file content.
    _v("h7_in_list_from_file", """\
import psycopg2

with open("ids_to_delete.txt") as fh:
    ids = ", ".join(f"'{line.strip()}'" for line in fh if line.strip())

conn = psycopg2.connect("dbname=app")
with conn, conn.cursor() as cur:
    cur.execute("DELETE FROM accounts WHERE external_id IN (" + ids + ")")
"""),
    # Query templates kept as module constants and .format()-ed later; taint: request JSON.
    _v("h7_format_constant_template", """\
from flask import Flask, request

from .db import get_cursor

app = Flask(__name__)

EVENTS_BY_USER = "SELECT kind, ts FROM events WHERE user_id = {uid} ORDER BY ts DESC LIMIT {limit}"


@app.post("/events")
def events():
    body = request.json
    cur = get_cursor()
    cur.execute(EVENTS_BY_USER.format(uid=body["uid"], limit=body.get("limit", 20)))
    return {"events": cur.fetchall()}
"""),
    # Logout handler with a %-template constant; taint: cookie value.
    _v("h7_percent_constant_cookie", """\
from flask import request, redirect

from .db import connection

DELETE_SESSION = "DELETE FROM sessions WHERE token = '%s'"


def logout():
    token = request.cookies.get("session", "")
    with connection() as conn:
        conn.execute(DELETE_SESSION % token)
    return redirect("/")
"""),
    # dbt-ish runner that loads a .sql file and substitutes placeholders; taint: CLI --date.
    _v("h7_sql_file_replace_argv", """\
import argparse
from pathlib import Path

import snowflake.connector

ap = argparse.ArgumentParser()
ap.add_argument("model")
ap.add_argument("--date", required=True)
opts = ap.parse_args()

sql = Path("models", opts.model + ".sql").read_text()
sql = sql.replace("{{ run_date }}", opts.date)
conn = snowflake.connector.connect(account="acme", user="etl", authenticator="externalbrowser")
conn.cursor().execute(sql)
"""),
    # Schema bootstrap with textwrap.dedent f-string; taint: TARGET_SCHEMA environment variable.
    _v("h7_dedent_env_schema", """\
import os
import textwrap

import psycopg

schema = os.environ["TARGET_SCHEMA"]
ddl = textwrap.dedent(f'''
    CREATE SCHEMA IF NOT EXISTS {schema};
    CREATE TABLE IF NOT EXISTS {schema}.runs (
        id serial PRIMARY KEY,
        started_at timestamptz DEFAULT now()
    );
''')
with psycopg.connect(os.environ["DATABASE_URL"]) as conn:
    conn.execute(ddl)
"""),
    # Metrics API where a lambda builds the query; taint: request.args["metric"].
    _v("h7_lambda_builds_query", """\
from flask import Flask, request

from .db import engine

app = Flask(__name__)

select_metric = lambda col, days: (
    f"SELECT day, {col} FROM daily_metrics WHERE day > now() - interval '{days} days'"
)


@app.get("/metric")
def metric():
    col = request.args["metric"]
    days = request.args.get("days", "7")
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(select_metric(col, days)).all()
    return {"rows": [list(r) for r in rows]}
"""),
    # Home-grown decorator that executes the SQL a function returns; taint: Flask view_args.
    _v("h7_decorator_executes_returned_sql", """\
import functools
import sqlite3

from flask import Flask

app = Flask(__name__)


def query(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        db = sqlite3.connect("blog.db")
        return db.execute(fn(*args, **kwargs)).fetchall()
    return wrapper


@query
def posts_by_tag(tag):
    return f"SELECT title FROM posts WHERE tag = '{tag}'"


@app.get("/tag/<tag>")
def tag_page(tag):
    return {"posts": posts_by_tag(tag)}
"""),
    # Maintenance CLI using engine.begin() context manager; taint: sys.argv table name.
    _v("h7_engine_begin_truncate_argv", """\
import sys

from sqlalchemy import create_engine

engine = create_engine("postgresql+psycopg://admin@localhost/app")

with engine.begin() as conn:
    for table in sys.argv[1:]:
        conn.exec_driver_sql(f"TRUNCATE TABLE {table} RESTART IDENTITY CASCADE")
        print(f"truncated {table}")
"""),
    # Login form against MySQL with string concatenation; taint: request.form.
    _v("h7_pymysql_login_concat", """\
import pymysql
from flask import Flask, request, session

app = Flask(__name__)


@app.post("/login")
def login():
    email = request.form["email"]
    password = request.form["password"]
    conn = pymysql.connect(host="db", user="web", password="web", database="site")
    with conn.cursor() as cur:
        cur.execute(
            "SELECT id FROM users WHERE email = '" + email
            + "' AND pw = MD5('" + password + "')"
        )
        row = cur.fetchone()
    if row:
        session["uid"] = row[0]
    return {"ok": bool(row)}
"""),
    # psycopg 3 COPY loader; taint: table name from sys.argv.
    _v("h7_psycopg_copy_argv_table", """\
import sys

import psycopg

table, path = sys.argv[1], sys.argv[2]
with psycopg.connect("dbname=warehouse") as conn, conn.cursor() as cur:
    with cur.copy(f"COPY {table} FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
        with open(path, "rb") as fh:
            while data := fh.read(65536):
                copy.write(data)
"""),
    # ClickHouse analytics endpoint with clickhouse_driver; taint: FastAPI query parameter.
    _v("h7_clickhouse_like_fastapi", """\
from clickhouse_driver import Client
from fastapi import FastAPI

app = FastAPI()
ch = Client("clickhouse")


@app.get("/hits")
def hits(pattern: str, day: str = "today()"):
    query = f"SELECT count() FROM hits WHERE url LIKE '%{pattern}%' AND event_date = {day}"
    return {"count": ch.execute(query)[0][0]}
"""),
    # AWS Lambda loading S3 objects into Snowflake; taint: the S3 event's object key.
    _v("h7_snowflake_copy_s3_event", """\
import snowflake.connector


def handler(event, context):
    record = event["Records"][0]
    key = record["s3"]["object"]["key"]
    conn = snowflake.connector.connect(account="acme", user="loader", password="x")
    cur = conn.cursor()
    cur.execute(f"COPY INTO raw.events FROM @raw.s3_stage/{key} FILE_FORMAT = (TYPE = JSON)")
    return {"loaded": key}
"""),
    # Google Cloud Function querying BigQuery; taint: request.args["dt"].
    _v("h7_bigquery_cloud_function", """\
from google.cloud import bigquery

client = bigquery.Client()


def daily_report(request):
    dt = request.args.get("dt")
    job = client.query(
        "SELECT country, SUM(revenue) AS revenue "
        "FROM `acme.sales.orders` "
        "WHERE order_date = '" + dt + "' GROUP BY country"
    )
    return {r.country: r.revenue for r in job.result()}
"""),
    # DuckDB CSV registration CLI built with python-fire; taint: CLI arguments.
    _v("h7_duckdb_fire_read_csv", """\
import duckdb
import fire


class Registry:
    def __init__(self, db_path="warehouse.duckdb"):
        self.db_path = db_path

    def load(self, csv_path, name=None):
        name = name or csv_path.rsplit("/", 1)[-1].removesuffix(".csv")
        with duckdb.connect(self.db_path) as con:
            con.sql(f"CREATE OR REPLACE TABLE {name} AS FROM read_csv('{csv_path}', header=true)")


if __name__ == "__main__":
    fire.Fire(Registry)
"""),
    # polars extraction script; taint: WHERE clause supplied as an environment variable.
    _v("h7_polars_read_database_env", """\
import os

import polars as pl

uri = "postgresql://reader@warehouse/db"
extra_filter = os.getenv("EXTRACT_FILTER", "1=1")
query = "SELECT * FROM shipments WHERE " + extra_filter
df = pl.read_database_uri(query, uri)
df.write_parquet("shipments.parquet")
"""),
    # JSON import tool feeding sqlite3.executescript; taint: uploaded JSON file content.
    _v("h7_sqlite_executescript_json", """\
import json
import sqlite3
import sys

with open(sys.argv[1]) as fh:
    tags = json.load(fh)

script = ""
for tag in tags:
    script += (
        "INSERT OR IGNORE INTO tags (name, color) "
        f"VALUES ('{tag['name']}', '{tag['color']}');\\n"
    )

db = sqlite3.connect("notes.db")
db.executescript(script)
db.commit()
"""),
    # Export job class keeping the filter as an attribute; taint: CLI --where option.
    _v("h7_class_attribute_where", """\
import argparse
import csv

import psycopg2


class Exporter:
    def __init__(self, table, where):
        self.table = table
        self.where = where
        self.conn = psycopg2.connect("dbname=app")

    def query(self):
        return "SELECT * FROM %s WHERE %s" % (self.table, self.where)

    def run(self, out):
        with self.conn.cursor() as cur:
            cur.execute(self.query())
            csv.writer(out).writerows(cur.fetchall())


if __name__ == "__main__":
    import sys
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--where", default="true")
    a = ap.parse_args()
    Exporter(a.table, a.where).run(sys.stdout)
"""),
    # Monitoring script formatting a command from a YAML config dict; taint: config file values.
    _v("h7_yaml_config_format_kwargs", """\
import os

import yaml

PING = "ping -c {count} -W {timeout} {host} > /dev/null && echo ok || echo down"

with open("targets.yml") as fh:
    targets = yaml.safe_load(fh)

for target in targets:
    params = {"count": 3, "timeout": 2, **target}
    status = os.popen(PING.format(**params)).read().strip()
    print(target["host"], status)
"""),
    # Video transcoding view: argv list joined into one shell string; taint: uploaded file name.
    _v("h7_list_join_shell_upload", """\
import subprocess
from flask import Flask, request

app = Flask(__name__)


@app.post("/transcode")
def transcode():
    f = request.files["video"]
    src = "/tmp/" + f.filename
    f.save(src)
    parts = ["ffmpeg", "-y", "-i", src, "-vf", "scale=1280:-2", src + ".mp4"]
    subprocess.run(" ".join(parts), shell=True, check=True)
    return {"ok": True}
"""),
    # aiohttp thumbnail service with asyncio.create_subprocess_shell; taint: query string.
    _v("h7_aiohttp_create_subprocess_shell", """\
import asyncio

from aiohttp import web


async def thumb(request):
    name = request.query["name"]
    size = request.query.get("size", "200x200")
    proc = await asyncio.create_subprocess_shell(
        f"convert /media/{name} -thumbnail {size} /media/thumbs/{name}"
    )
    await proc.wait()
    return web.json_response({"rc": proc.returncode})


app = web.Application()
app.router.add_get("/thumb", thumb)
"""),
    # Popen with an explicit ["/bin/sh", "-c", ...] argv; taint: Django POST field.
    _v("h7_popen_sh_c_django_post", """\
import subprocess

from django.http import HttpResponse


def traceroute(request):
    target = request.POST.get("target", "")
    proc = subprocess.Popen(["/bin/sh", "-c", "traceroute -m 10 " + target],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, _ = proc.communicate(timeout=60)
    return HttpResponse(out, content_type="text/plain")
"""),
    # Admin script dropping a MySQL database through the mysql client; taint: sys.argv.
    _v("h7_mysql_client_drop_argv", """\
import os
import sys

name = sys.argv[1]
confirm = input(f"Really drop {name}? [y/N] ")
if confirm.lower() == "y":
    os.system('mysql -uroot -e "DROP DATABASE %s"' % name)
"""),
    # Celery document conversion task called from a Django view; taint: uploaded file name.
    _v("h7_celery_task_upload_name", """\
import subprocess

from celery import shared_task
from django.http import JsonResponse


@shared_task
def convert_to_pdf(doc_path):
    cmd = f"libreoffice --headless --convert-to pdf --outdir /srv/pdf {doc_path}"
    subprocess.call(cmd, shell=True)


def upload(request):
    doc = request.FILES["doc"]
    path = "/srv/uploads/" + doc.name
    with open(path, "wb") as out:
        for chunk in doc.chunks():
            out.write(chunk)
    convert_to_pdf.delay(path)
    return JsonResponse({"queued": doc.name})
"""),
    # Mail-server helper resolving MX records; taint: addresses read from a CSV file.
    _v("h7_getoutput_csv_domains", """\
import csv
import subprocess

with open("signups.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        domain = row["email"].split("@")[-1]
        mx = subprocess.getoutput(f"dig +short MX {domain}")
        print(row["email"], "->", mx or "no MX")
"""),
    # Fleet uptime loop over a hosts file with os.system; taint: file lines.
    _v("h7_os_system_loop_hosts", """\
import os

for host in open("/etc/fleet/hosts"):
    host = host.strip()
    if not host or host.startswith("#"):
        continue
    os.system(f"ssh -o BatchMode=yes {host} uptime")
"""),
    # Generic filter endpoint: WHERE clause built from all query-string pairs; taint: request.args.
    _v("h7_where_from_query_dict", """\
from flask import Flask, request
from sqlalchemy import text

from .db import Session

app = Flask(__name__)


@app.get("/api/products")
def products():
    clauses = [f"{key} = '{value}'" for key, value in request.args.items()]
    where = " AND ".join(clauses) or "TRUE"
    with Session() as s:
        rows = s.execute(text("SELECT * FROM products WHERE " + where)).mappings().all()
    return {"products": [dict(r) for r in rows]}
"""),
    # Django admin-ish report with connection.cursor and ORDER BY from GET; taint: request.GET.
    _v("h7_django_cursor_order_by", """\
from django.db import connection
from django.http import JsonResponse


def leaderboard(request):
    order = request.GET.get("order", "score")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT username, score FROM game_player ORDER BY {order} DESC LIMIT 10")
        rows = cursor.fetchall()
    return JsonResponse({"rows": rows})
"""),
    # Django annotate with RawSQL built from a URL slug; taint: the URL kwarg.
    _v("h7_django_rawsql_slug", """\
from django.db.models.expressions import RawSQL
from django.shortcuts import render

from .models import Article


def related(request, slug):
    score = RawSQL(
        "SELECT COUNT(*) FROM blog_tag t "
        f"WHERE t.article_id = blog_article.id AND t.slug = '{slug}'",
        [],
    )
    articles = Article.objects.annotate(score=score).order_by("-score")[:5]
    return render(request, "related.html", {"articles": articles})
"""),
    # Profile update with %-tuple formatting; taint: request.form["bio"].
    _v("h7_percent_tuple_update", """\
from flask import request, session

from .db import get_db


def update_profile():
    bio = request.form.get("bio", "")
    uid = session["uid"]
    sql = "UPDATE users SET bio = '%s' WHERE id = %d" % (bio, uid)
    get_db().execute(sql)
    get_db().commit()
    return "saved"
"""),
    # Tornado network tool handler; taint: self.get_argument("host").
    _v("h7_tornado_nslookup", """\
import subprocess

import tornado.web


class LookupHandler(tornado.web.RequestHandler):
    def get(self):
        host = self.get_argument("host")
        out = subprocess.check_output("nslookup " + host, shell=True, timeout=10)
        self.write(out)
"""),
    # click log-grep command; taint: click argument.
    _v("h7_click_grep_logs", """\
import os

import click


@click.command()
@click.argument("pattern")
@click.option("--since", default="1h")
def grep_logs(pattern, since):
    os.system(f"journalctl --since=-{since} | grep -i {pattern}")


if __name__ == "__main__":
    grep_logs()
"""),
    # Typer data-fix CLI over sqlite3; taint: typer options.
    _v("h7_typer_sqlite_update", """\
import sqlite3

import typer

app = typer.Typer()


@app.command()
def rename_category(old: str, new: str, db: str = "inventory.db"):
    conn = sqlite3.connect(db)
    stmt = "UPDATE items SET category = '{}' WHERE category = '{}'".format(new, old)
    conn.execute(stmt)
    conn.commit()
    typer.echo(f"renamed {old} -> {new}")


if __name__ == "__main__":
    app()
"""),
    # Schema browser endpoint with PRAGMA; taint: route parameter.
    _v("h7_sqlite_pragma_route", """\
import sqlite3

from flask import Flask

app = Flask(__name__)


@app.get("/schema/<table>")
def schema(table):
    db = sqlite3.connect("app.db")
    cols = db.execute("PRAGMA table_info(%s)" % table).fetchall()
    return {"columns": [c[1] for c in cols]}
"""),
    # Exported Jupyter script (jupytext) calling get_ipython().system; taint: input().
    _v("h7_get_ipython_system_input_py", """\
# ---
# jupyter:
#   jupytext:
#     text_representation:
#       format_name: light
# ---

pkg = input("Extra package to install: ")
get_ipython().system("pip install -q " + pkg)

import importlib
importlib.import_module(pkg.split("==")[0])
"""),
    # Kaggle dataset fetcher; taint: KAGGLE_DATASET environment variable.
    _v("h7_kaggle_env_download", """\
import os
import subprocess

dataset = os.environ.get("KAGGLE_DATASET", "zynicide/wine-reviews")
dest = os.environ.get("DATA_DIR", "data")
cmd = "kaggle datasets download -d %s -p %s --unzip" % (dataset, dest)
subprocess.run(cmd, shell=True, check=True)
"""),
    # Build script reading image/tag from a deploy config; taint: deploy.yml values.
    _v("h7_docker_build_from_config", """\
import subprocess

import yaml


def build(config_path="deploy.yml"):
    with open(config_path) as fh:
        cfg = yaml.safe_load(fh)
    image, tag = cfg["image"], cfg.get("tag", "latest")
    cmd = f"docker build -t {image}:{tag} {cfg.get('context', '.')}"
    subprocess.check_call(cmd, shell=True)


build()
"""),
    # Chat bot over websockets storing messages with aiomysql; taint: websocket message.
    _v("h7_aiomysql_websocket", """\
import json

import aiomysql
import websockets


async def handler(ws, pool):
    async for raw in ws:
        msg = json.loads(raw)
        async with pool.acquire() as conn:
            async with conn.cursor() as cur:
                await cur.execute(
                    f"INSERT INTO messages (room, body) VALUES ('{msg['room']}', '{msg['body']}')"
                )
            await conn.commit()
"""),
    # peewee-based service using execute_sql; taint: Bottle request.query.
    _v("h7_peewee_execute_sql_bottle", """\
from bottle import request, route
from peewee import SqliteDatabase

db = SqliteDatabase("kb.db")


@route("/kb")
def kb():
    term = request.query.get("term", "")
    cursor = db.execute_sql("SELECT id, title FROM article WHERE body MATCH '%s'" % term)
    return {"hits": cursor.fetchall()}
"""),
    # SQLModel FastAPI endpoint with session.exec(text(...)); taint: path parameter.
    _v("h7_sqlmodel_text_path_param", """\
from fastapi import Depends, FastAPI
from sqlalchemy import text
from sqlmodel import Session

from .db import get_session

app = FastAPI()


@app.get("/teams/{team}/members")
def members(team: str, session: Session = Depends(get_session)):
    stmt = text(f"SELECT name FROM hero WHERE team_name = '{team}'")
    return [row[0] for row in session.exec(stmt)]
"""),
    # Search service splitting query building into helpers; taint: request.json filters.
    _v("h7_helper_chain_build_where", """\
from flask import Flask, request

from .db import cursor

app = Flask(__name__)
BASE = "SELECT id, name FROM listings"


def condition(field, op, value):
    return f"{field} {op} '{value}'"


def build_where(filters):
    parts = [condition(f["field"], f.get("op", "="), f["value"]) for f in filters]
    return (" WHERE " + " AND ".join(parts)) if parts else ""


@app.post("/search")
def search():
    sql = BASE + build_where(request.json.get("filters", []))
    with cursor() as cur:
        cur.execute(sql)
        return {"rows": cur.fetchall()}
"""),
    # asyncio exec of bash -c from a Discord-style bot command; taint: chat message content.
    _v("h7_create_subprocess_exec_bash_c", """\
import asyncio


async def on_message(message):
    if not message.content.startswith("!ping "):
        return
    target = message.content.split(" ", 1)[1]
    proc = await asyncio.create_subprocess_exec(
        "bash", "-c", f"ping -c 2 {target}", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    await message.channel.send(out.decode()[:1900])
"""),
    # Certificate renewal script with executable=/bin/bash; taint: DOMAINS environment variable.
    _v("h7_bash_executable_env_domains", """\
import os
import subprocess

domains = os.environ["DOMAINS"].split(",")
flags = " ".join(f"-d {d.strip()}" for d in domains)
subprocess.run(f"certbot certonly --webroot -w /var/www {flags} --non-interactive",
               shell=True, executable="/bin/bash", check=True)
"""),
    # Pandas upsert helper: column names come from the CSV header; taint: DataFrame columns.
    _v("h7_dataframe_columns_in_sql", """\
import sqlite3

import pandas as pd

df = pd.read_csv("upload.csv")
cols = ", ".join(df.columns)
marks = ", ".join("?" for _ in df.columns)
conn = sqlite3.connect("data.db")
conn.executemany(f"INSERT INTO staging ({cols}) VALUES ({marks})", df.itertuples(index=False))
conn.commit()
"""),
    # Flask admin "run migration" button; taint: form field reaching psql -c via shell.
    _v("h7_psql_c_form_field", """\
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.post("/admin/vacuum")
def vacuum():
    table = request.form["table"]
    cmd = 'psql "$DATABASE_URL" -c "VACUUM ANALYZE ' + table + '"'
    result = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return {"out": result.stdout, "err": result.stderr}
"""),
    # Flask endpoint with a SQL string accumulated with += over request values; taint: request.args.
    _v("h7_plus_equals_query_builder", """\
from flask import Flask, request

from .db import conn

app = Flask(__name__)


@app.get("/books")
def books():
    sql = "SELECT title FROM books WHERE 1=1"
    if request.args.get("author"):
        sql += " AND author = '" + request.args["author"] + "'"
    if request.args.get("year"):
        sql += f" AND year = {request.args['year']}"
    return {"books": conn.execute(sql).fetchall()}
"""),
    # Report mailer filling a string.Template SQL with request values; taint: request.form.
    _v("h7_string_template_substitute", """\
from string import Template

from flask import Flask, request

from .db import engine

app = Flask(__name__)

REPORT = Template("SELECT * FROM invoices WHERE customer = '$customer' AND year = $year")


@app.post("/report")
def report():
    sql = REPORT.substitute(customer=request.form["customer"], year=request.form["year"])
    with engine.connect() as conn:
        return {"rows": [list(r) for r in conn.exec_driver_sql(sql)]}
"""),
    # Cron-style maintenance script keeping commands in a dict; taint: BACKUP_PATHS env variable.
    _v("h7_dict_of_commands_env", """\
import os

paths = os.environ.get("BACKUP_PATHS", "/etc /home").split()
jobs = {
    "archive": f"tar czf /backups/nightly.tgz {' '.join(paths)}",
    "prune": "find /backups -mtime +14 -delete",
}

for name, command in jobs.items():
    print(f"running {name}")
    if os.system(command) != 0:
        raise SystemExit(f"{name} failed")
"""),
    # Chat-ops command dispatcher using match; taint: the Slack slash-command text.
    _v("h7_match_statement_slack_command", """\
from flask import Flask, request

from .db import get_conn

app = Flask(__name__)


@app.post("/slack/db")
def slack_db():
    words = request.form["text"].split(maxsplit=1)
    match words:
        case ["count", table]:
            sql = f"SELECT COUNT(*) FROM {table}"
        case ["last", table]:
            sql = f"SELECT * FROM {table} ORDER BY id DESC LIMIT 1"
        case _:
            return {"text": "usage: count|last <table>"}
    with get_conn() as conn:
        return {"text": str(conn.execute(sql).fetchall())}
"""),
    # ------------------------------------------------------------------ vulnerable notebooks
    # Pipeline-driven download notebook reading its run parameters from a JSON file the
    # scheduler writes; taint: params.json content.
    _nb("h7_nb_params_json_wget", True, """\
import json
with open("params.json") as fh:
    params = json.load(fh)
dataset_url = params["dataset_url"]
out_dir = params.get("out_dir", "data")
""", """\
!mkdir -p {out_dir}
!wget -q {dataset_url} -O {out_dir}/raw.zip && unzip -o {out_dir}/raw.zip -d {out_dir}
"""),
    # ipywidgets installer panel; taint: Text widget value via on_click callback.
    _nb("h7_nb_widget_pip_install", True, """\
import ipywidgets as widgets
from IPython.display import display

pkg = widgets.Text(description="Package")
button = widgets.Button(description="Install")
display(pkg, button)
""", """\
def install(_):
    get_ipython().system(f"pip install {pkg.value}")

button.on_click(install)
"""),
    # Classroom notebook asking the student for a package; taint: input().
    _nb("h7_nb_input_pip", True, """\
extra = input("Which package do you need? ")
""", """\
!pip install -q {extra}
import importlib
importlib.import_module(extra)
"""),
    # Row-count notebook with ipython-sql over table names in a DataFrame; taint: DataFrame content.
    _nb("h7_nb_sql_magic_loop_df", True, """\
%load_ext sql
%sql postgresql://analyst@warehouse/db
import pandas as pd
tables = pd.read_csv("tables_to_check.csv")
""", """\
for t in tables["table_name"]:
    %sql SELECT '{t}' AS name, COUNT(*) FROM {t}
"""),
    # Data-prep notebook listing a directory with %sx; taint: DATA_DIR environment variable.
    _nb("h7_nb_sx_env_dir", True, """\
import os
data_dir = os.environ.get("DATA_DIR", "/data")
""", """\
files = %sx ls -1 {data_dir} | grep csv
len(files)
"""),
    # Notebook capturing `!` output into a variable; taint: Dropdown filled from a remote listing.
    _nb("h7_nb_bang_assign_dropdown", True, """\
import ipywidgets as widgets
import requests

runs = requests.get("https://ci.example.org/api/runs").json()
choice = widgets.Dropdown(options=[r["name"] for r in runs])
choice
""", """\
run = choice.value
listing = !gsutil ls gs://ci-artifacts/{run}/
listing
"""),
    # Voila dashboard notebook reading the page's query string; taint: QUERY_STRING that Voila
    # sets from the visitor's URL.
    _nb("h7_nb_getoutput_voila_query", True, """\
import os
from urllib.parse import parse_qs
target = parse_qs(os.environ.get("QUERY_STRING", "")).get("target", ["localhost"])[0]
""", """\
out = get_ipython().getoutput(f"nmap -sV {target}")
print("\\n".join(out))
"""),
    # jupysql notebook with a Jinja-style {{ }} variable in a %%sql cell; taint: widget value.
    _nb("h7_nb_jupysql_cell_template", True, """\
%load_ext sql
%sql duckdb:///shop.duckdb
import ipywidgets as widgets
customer = widgets.Text(description="Customer")
customer
""", """\
name = customer.value
""", """\
%%sql
SELECT * FROM orders WHERE customer_name = '{{name}}'
"""),
    # Databricks notebook with widgets and spark.sql; taint: dbutils.widgets.get.
    _nb("h7_nb_databricks_widget_spark_sql", True, """\
dbutils.widgets.text("run_date", "2024-01-01")
dbutils.widgets.text("table", "sales.orders")
""", """\
run_date = dbutils.widgets.get("run_date")
table = dbutils.widgets.get("table")
df = spark.sql(f"SELECT * FROM {table} WHERE dt = '{run_date}'")
display(df)
"""),
    # Colab notebook unzipping an uploaded archive; taint: uploaded file name.
    _nb("h7_nb_colab_upload_unzip", True, """\
from google.colab import files
uploaded = files.upload()
archive = next(iter(uploaded))
""", """\
!unzip -o "{archive}" -d /content/data
!ls /content/data
"""),
    # Kaggle competition notebook; taint: COMPETITION environment variable.
    _nb("h7_nb_kaggle_env_competition", True, """\
import os
comp = os.environ["COMPETITION"]
""", """\
!kaggle competitions download -c $comp -p /kaggle/input
"""),
    # Notebook loading a spreadsheet into sqlite with a += built script; taint: Excel cell values.
    _nb("h7_nb_df_rows_plus_equals", True, """\
import sqlite3
import pandas as pd
df = pd.read_excel("survey.xlsx")
conn = sqlite3.connect("survey.db")
""", """\
script = "BEGIN;"
for _, row in df.iterrows():
    script += f"INSERT INTO answers VALUES ({row['id']}, '{row['answer']}');"
script += "COMMIT;"
conn.executescript(script)
"""),
    # Notebook cloning a repository chosen in a widget, name derived from the URL; taint: widget.
    _nb("h7_nb_git_clone_widget", True, """\
import ipywidgets as widgets
repo = widgets.Text(value="https://github.com/org/project.git")
repo
""", """\
url = repo.value
name = url.rstrip("/").split("/")[-1].removesuffix(".git")
!git clone --depth 1 {url} && cd {name} && pip install -e .
"""),
    # EDA notebook querying every parquet file found in a shared folder; taint: file names on disk.
    _nb("h7_nb_duckdb_glob_files", True, """\
import glob
import duckdb
con = duckdb.connect()
paths = glob.glob("/mnt/shared/drop/*.parquet")
""", """\
summaries = {}
for p in paths:
    summaries[p] = con.sql(f"SELECT COUNT(*) FROM '{p}'").fetchone()[0]
summaries
"""),
    # Scheduled training notebook (parameters passed as environment variables, as notebook-job
    # runners do); taint: MODEL_NAME / EPOCHS environment variables.
    _nb("h7_nb_subprocess_env_params", True, """\
import os
model_name = os.environ.get("MODEL_NAME", "resnet50")
epochs = os.environ.get("EPOCHS", "10")
""", """\
import subprocess
subprocess.run(f"python train.py --model {model_name} --epochs {epochs}", shell=True, check=True)
"""),
    # Training notebook syncing checkpoints with the %system magic; taint: bucket name read
    # from a JSON config file.
    _nb("h7_nb_system_magic_config", True, """\
import json
with open("experiment.json") as fh:
    cfg = json.load(fh)
bucket = cfg["bucket"]
""", """\
%system aws s3 cp s3://{bucket}/checkpoints/ ./ckpt --recursive
"""),
    # ------------------------------------------------------------------ safe scripts
    # Flask search with bound parameter; the f-string only builds the LIKE value and a log line.
    _s("h7_safe_like_value_bound", """\
import logging
import sqlite3

from flask import Flask, request

app = Flask(__name__)
log = logging.getLogger(__name__)


@app.get("/search")
def search():
    q = request.args.get("q", "")
    log.info(f"search for {q!r}")
    db = sqlite3.connect("shop.db")
    rows = db.execute("SELECT id, title FROM products WHERE title LIKE ?", (f"%{q}%",)).fetchall()
    return {"rows": rows}
"""),
    # Bulk lookup with "?" placeholders joined for the IN list; values bound.
    _s("h7_safe_qmark_in_list", """\
import sqlite3

from flask import Flask, request

app = Flask(__name__)


@app.post("/bulk")
def bulk():
    ids = [int(i) for i in request.json["ids"]]
    placeholders = ",".join("?" * len(ids))
    db = sqlite3.connect("app.db")
    rows = db.execute(f"SELECT id, name FROM users WHERE id IN ({placeholders})", ids).fetchall()
    return {"users": rows}
"""),
    # psycopg2 batch fetch with "%s" placeholders repeated for the IN list.
    _s("h7_safe_pyformat_in_list", """\
import psycopg2

from .settings import DSN


def fetch_orders(order_ids):
    marks = ", ".join(["%s"] * len(order_ids))
    sql = "SELECT * FROM orders WHERE id IN (" + marks + ")"
    with psycopg2.connect(DSN) as conn, conn.cursor() as cur:
        cur.execute(sql, tuple(order_ids))
        return cur.fetchall()
"""),
    # Sort column checked against an allow-list before it is formatted into ORDER BY.
    _s("h7_safe_sort_allow_list", """\
from flask import Flask, abort, request
from sqlalchemy import text

from .db import db

app = Flask(__name__)
SORTABLE = {"id", "email", "created_at"}


@app.get("/users")
def users():
    sort = request.args.get("sort", "id")
    if sort not in SORTABLE:
        abort(400)
    desc = request.args.get("desc") == "1"
    stmt = text(f"SELECT id, email FROM users ORDER BY {sort} {'DESC' if desc else 'ASC'}")
    return {"users": [dict(r._mapping) for r in db.session.execute(stmt)]}
"""),
    # Sort mapped through a dict of constant SQL fragments; unknown keys fall back to a default.
    _s("h7_safe_sort_mapping_lookup", """\
from django.db import connection
from django.http import JsonResponse

ORDERINGS = {
    "new": "created_at DESC",
    "top": "score DESC, created_at DESC",
    "old": "created_at ASC",
}


def feed(request):
    ordering = ORDERINGS.get(request.GET.get("sort"), ORDERINGS["new"])
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, title FROM feed_item ORDER BY {ordering} LIMIT %s", [50])
        return JsonResponse({"items": cursor.fetchall()})
"""),
    # Backup script quoting every interpolated value with shlex.quote.
    _s("h7_safe_shlex_quote_pg_dump", """\
import shlex
import subprocess
import sys

database = sys.argv[1]
target = sys.argv[2]
cmd = f"pg_dump -U postgres {shlex.quote(database)} | gzip > {shlex.quote(target)}"
subprocess.run(cmd, shell=True, check=True)
"""),
    # Command built as an argv list and rendered with shlex.join for a shell pipeline.
    _s("h7_safe_shlex_join_pipeline", """\
import os
import shlex
import subprocess

branch = os.environ["GITHUB_HEAD_REF"]
fetch = shlex.join(["git", "fetch", "origin", branch])
subprocess.run(f"{fetch} && git log --oneline -5 FETCH_HEAD", shell=True, check=True)
"""),
    # Clone helper passing an f-string URL as one argv element, no shell.
    _s("h7_safe_argv_list_fstring_arg", """\
import subprocess
import sys

org, repo = sys.argv[1], sys.argv[2]
url = f"https://github.com/{org}/{repo}.git"
subprocess.run(["git", "clone", "--depth", "1", "--", url, f"src/{repo}"], check=True)
print(f"cloned {url}")
"""),
    # psycopg 3 composition with sql.SQL and sql.Identifier for a user-chosen table.
    _s("h7_safe_psycopg_sql_identifier", """\
import sys

import psycopg
from psycopg import sql

table = sys.argv[1]
with psycopg.connect("dbname=warehouse") as conn:
    query = sql.SQL("SELECT COUNT(*) FROM {} WHERE loaded_at > %s").format(sql.Identifier(table))
    print(conn.execute(query, ("2024-01-01",)).fetchone())
"""),
    # psycopg2.sql composition with a formatted column list of Identifiers.
    _s("h7_safe_psycopg2_sql_columns", """\
import psycopg2
from psycopg2 import sql
from flask import request

from .db import get_conn


def export():
    columns = request.args.getlist("col")
    query = sql.SQL("SELECT {fields} FROM {table}").format(
        fields=sql.SQL(", ").join(sql.Identifier(c) for c in columns),
        table=sql.Identifier("public", "contacts"),
    )
    with get_conn() as conn, conn.cursor() as cur:
        cur.execute(query)
        return cur.fetchall()
"""),
    # SQLAlchemy text() with named binds filled by .bindparams.
    _s("h7_safe_text_bindparams", """\
from fastapi import FastAPI
from sqlalchemy import text

from .db import engine

app = FastAPI()


@app.get("/users/{uid}")
def user(uid: int, status: str = "active"):
    stmt = text("SELECT id, name FROM users WHERE id = :uid AND status = :status").bindparams(
        uid=uid, status=status
    )
    with engine.connect() as conn:
        return dict(conn.execute(stmt).one()._mapping)
"""),
    # Table name is a module constant; the request value goes through a bound parameter.
    _s("h7_safe_constant_table_bound_value", """\
from flask import request
from sqlalchemy import text

from .db import Session

TABLE = "audit_log"


def audit_for_user():
    user = request.args["user"]
    with Session() as s:
        stmt = text(f"SELECT action, ts FROM {TABLE} WHERE actor = :user")
        rows = s.execute(stmt, {"user": user})
        return [tuple(r) for r in rows]
"""),
    # Migration script formatting only constants defined in the same module.
    _s("h7_safe_constant_only_ddl", """\
import psycopg

SCHEMA = "analytics"
TABLES = ("daily_visits", "daily_orders")

with psycopg.connect("dbname=app") as conn:
    conn.execute(f"CREATE SCHEMA IF NOT EXISTS {SCHEMA}")
    for table in TABLES:
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {SCHEMA}.{table} (day date PRIMARY KEY, n bigint)"
        )
"""),
    # Pagination: limit and offset are int()-converted before formatting.
    _s("h7_safe_int_cast_limit", """\
from flask import Flask, request

from .db import get_db

app = Flask(__name__)


@app.get("/posts")
def posts():
    limit = min(int(request.args.get("limit", 20)), 100)
    offset = int(request.args.get("offset", 0))
    rows = get_db().execute(
        f"SELECT id, title FROM posts ORDER BY id DESC LIMIT {limit} OFFSET {offset}"
    ).fetchall()
    return {"posts": rows}
"""),
    # Validation messages are f-strings; the query itself is parameterized.
    _s("h7_safe_fstring_in_exception", """\
import re
import sqlite3

NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def find_package(db: sqlite3.Connection, name: str):
    if not NAME_RE.fullmatch(name):
        raise ValueError(f"invalid package name {name!r}; expected letters, digits, _ . -")
    row = db.execute("SELECT version FROM packages WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise LookupError(f"package {name} not found")
    return row[0]
"""),
    # Uploaded file saved under an f-string path, then processed with an argv list.
    _s("h7_safe_fstring_path_argv", """\
import subprocess
import uuid
from pathlib import Path

from flask import Flask, request

app = Flask(__name__)
UPLOADS = Path("/srv/uploads")


@app.post("/pdf")
def pdf():
    f = request.files["doc"]
    dest = UPLOADS / f"{uuid.uuid4().hex}-{Path(f.filename).name}"
    f.save(dest)
    argv = ["libreoffice", "--headless", "--convert-to", "pdf", "--outdir", str(UPLOADS)]
    subprocess.run([*argv, str(dest)], check=True)
    return {"saved": str(dest)}
"""),
    # Django ORM filter with a field name allow-listed before building the lookup kwarg.
    _s("h7_safe_orm_kwargs_allow_list", """\
from django.http import HttpResponseBadRequest, JsonResponse

from .models import Book

SEARCHABLE = ("title", "author", "isbn")


def search(request):
    field = request.GET.get("field", "title")
    if field not in SEARCHABLE:
        return HttpResponseBadRequest(f"cannot search on {field}")
    books = Book.objects.filter(**{f"{field}__icontains": request.GET.get("q", "")})
    return JsonResponse({"books": list(books.values("id", "title"))})
"""),
    # Django Manager.raw with params list.
    _s("h7_safe_django_raw_params", """\
from django.shortcuts import render

from .models import Person


def people(request):
    name = request.GET["name"]
    qs = Person.objects.raw("SELECT * FROM app_person WHERE last_name = %s", [name])
    return render(request, "people.html", {"people": qs, "title": f"People named {name}"})
"""),
    # asyncpg query with $n placeholders numbered by an f-string comprehension.
    _s("h7_safe_asyncpg_dollar_placeholders", """\
from fastapi import FastAPI, Query

app = FastAPI()


@app.get("/items")
async def items(tags: list[str] = Query(...)):
    marks = ", ".join(f"${i}" for i in range(1, len(tags) + 1))
    async with app.state.pool.acquire() as conn:
        rows = await conn.fetch(f"SELECT * FROM items WHERE tag IN ({marks})", *tags)
    return [dict(r) for r in rows]
"""),
    # CSV loader with executemany and a constant column tuple.
    _s("h7_safe_executemany_constant_columns", """\
import csv

import pymysql

COLUMNS = ("name", "city", "joined")

with open("customers.csv", newline="") as fh:
    rows = [tuple(r[c] for c in COLUMNS) for r in csv.DictReader(fh)]

cols = ", ".join(COLUMNS)
marks = ", ".join(["%s"] * len(COLUMNS))
conn = pymysql.connect(host="localhost", user="etl", password="etl", database="crm")
with conn.cursor() as cur:
    cur.executemany(f"INSERT INTO customers ({cols}) VALUES ({marks})", rows)
conn.commit()
"""),
    # DuckDB prepared statement with the CSV path bound as a parameter.
    _s("h7_safe_duckdb_bound_path", """\
import sys

import duckdb

csv_path = sys.argv[1]
con = duckdb.connect("warehouse.duckdb")
con.execute(
    "CREATE OR REPLACE TABLE staging AS SELECT * FROM read_csv(?, header = true)", [csv_path]
)
print(f"loaded {con.execute('SELECT COUNT(*) FROM staging').fetchone()[0]} rows from {csv_path}")
"""),
    # BigQuery with ScalarQueryParameter for the request-supplied date.
    _s("h7_safe_bigquery_query_parameter", """\
from google.cloud import bigquery

client = bigquery.Client()
TABLE = "acme.sales.orders"


def daily_report(request):
    dt = request.args.get("dt")
    config = bigquery.QueryJobConfig(
        query_parameters=[bigquery.ScalarQueryParameter("dt", "DATE", dt)]
    )
    job = client.query(
        f"SELECT country, SUM(revenue) AS revenue FROM `{TABLE}` "
        "WHERE order_date = @dt GROUP BY country",
        job_config=config,
    )
    return {r.country: r.revenue for r in job.result()}
"""),
    # clickhouse_driver with a params dict.
    _s("h7_safe_clickhouse_params", """\
from clickhouse_driver import Client
from fastapi import FastAPI

app = FastAPI()
ch = Client("clickhouse")


@app.get("/hits")
def hits(pattern: str):
    rows = ch.execute(
        "SELECT count() FROM hits WHERE url LIKE %(pattern)s",
        {"pattern": f"%{pattern}%"},
    )
    return {"count": rows[0][0]}
"""),
    # Snowflake loader binding the key; the stage path is a constant.
    _s("h7_safe_snowflake_bound", """\
import snowflake.connector

STAGE = "@raw.s3_stage"


def handler(event, context):
    key = event["Records"][0]["s3"]["object"]["key"]
    conn = snowflake.connector.connect(account="acme", user="loader", password="x")
    cur = conn.cursor()
    cur.execute("INSERT INTO raw.load_requests (object_key) VALUES (%s)", (key,))
    cur.execute(f"COPY INTO raw.events FROM {STAGE} FILE_FORMAT = (TYPE = JSON)")
    print(f"requested load of {key}")
"""),
    # Nightly job formatting today's date (computed, not supplied) into SQL.
    _s("h7_safe_computed_date", """\
from datetime import date, timedelta

import psycopg2

yesterday = date.today() - timedelta(days=1)
with psycopg2.connect("dbname=app") as conn, conn.cursor() as cur:
    cur.execute(f"DELETE FROM page_views WHERE day < '{yesterday:%Y-%m-%d}'::date - 90")
    print(f"pruned rows older than 90 days before {yesterday}")
"""),
    # Constant shell pipeline; the only f-strings are printed.
    _s("h7_safe_constant_shell_print_fstring", """\
import subprocess
import sys

result = subprocess.run("df -h / | tail -1", shell=True, capture_output=True, text=True)
who = sys.argv[1] if len(sys.argv) > 1 else "ops"
print(f"Hello {who}, disk status: {result.stdout.strip()}")
"""),
    # pg_dump via argv list with the password passed through env.
    _s("h7_safe_pg_dump_argv_env", """\
import os
import subprocess
import sys

db = sys.argv[1]
env = {**os.environ, "PGPASSWORD": os.environ["DB_PASSWORD"]}
subprocess.run(["pg_dump", "-h", "db", "-U", "backup", "-d", db, "-f", f"/backups/{db}.sql"],
               env=env, check=True)
"""),
    # paramiko exec_command with every user value shlex-quoted.
    _s("h7_safe_paramiko_quoted", """\
import shlex

import paramiko
from flask import Flask, request

app = Flask(__name__)


@app.get("/logs")
def logs():
    n = int(request.args.get("n", "100"))
    logfile = request.args.get("file", "/var/log/syslog")
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect("10.0.0.5", username="ops")
    _, out, _ = client.exec_command(f"tail -n {n} {shlex.quote(logfile)}")
    return out.read().decode()
"""),
    # fabric task validating the service name with a strict regex before formatting.
    _s("h7_safe_fabric_regex_validated", """\
import re

from fabric import Connection, task

SERVICE_RE = re.compile(r"[a-z][a-z0-9-]{0,40}")


@task
def restart(c, service):
    if not SERVICE_RE.fullmatch(service):
        raise SystemExit(f"refusing odd service name: {service!r}")
    Connection("web1.example.com").sudo(f"systemctl restart {service}.service")
"""),
    # Docker SDK exec_run with a list command (no shell).
    _s("h7_safe_docker_exec_run_list", """\
import docker
from flask import Flask, request

app = Flask(__name__)
client = docker.from_env()


@app.post("/restore")
def restore():
    name = request.form["dump"]
    db = client.containers.get("postgres")
    code, out = db.exec_run(["pg_restore", "-d", "app", "--", f"/dumps/{name}"])
    return {"code": code, "out": out.decode(), "note": f"restored {name}"}
"""),
    # Temporary table name generated from uuid4, not from input.
    _s("h7_safe_uuid_temp_table", """\
import uuid

from sqlalchemy import text

from .db import engine


def dedupe(rows):
    tmp = f"tmp_dedupe_{uuid.uuid4().hex}"
    with engine.begin() as conn:
        conn.execute(text(f"CREATE TEMP TABLE {tmp} (email text)"))
        insert = text(f"INSERT INTO {tmp} (email) VALUES (:email)")
        conn.execute(insert, [{"email": r} for r in rows])
        return conn.execute(text(f"SELECT DISTINCT email FROM {tmp}")).scalars().all()
"""),
    # FastAPI parameter typed as an Enum: only the enum's constant values reach the SQL.
    _s("h7_safe_fastapi_enum_param", """\
from enum import Enum

from fastapi import FastAPI
from sqlalchemy import text

from .db import engine

app = FastAPI()


class Period(str, Enum):
    day = "day"
    week = "week"
    month = "month"


@app.get("/signups")
def signups(period: Period):
    stmt = text(
        f"SELECT date_trunc('{period.value}', created_at) AS p, COUNT(*) FROM users GROUP BY p"
    )
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]
"""),
    # Airflow hook with parameters; the f-string is the task log message.
    _s("h7_safe_airflow_hook_parameters", """\
from airflow.models import BaseOperator
from airflow.providers.postgres.hooks.postgres import PostgresHook


class PurgePartitionOperator(BaseOperator):
    def execute(self, context):
        ds = (context["dag_run"].conf or {}).get("ds", context["ds"])
        self.log.info(f"purging partition {ds}")
        PostgresHook(postgres_conn_id="warehouse").run(
            "DELETE FROM events WHERE ds = %s", parameters=(ds,)
        )
"""),
    # The query is logged with an f-string and executed with bound parameters.
    _s("h7_safe_logged_sql_with_params", """\
import logging

from .db import get_cursor

log = logging.getLogger("repo")
SQL = "UPDATE users SET bio = %s WHERE id = %s"


def update_bio(uid, bio):
    log.debug(f"executing {SQL} for user {uid} with {len(bio)} chars")
    with get_cursor() as cur:
        cur.execute(SQL, (bio, uid))
"""),
    # DataFrame.to_sql with an f-string table name built from constants and today's date.
    _s("h7_safe_to_sql_constant_name", """\
from datetime import date

import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("sqlite:///reports.db")
df = pd.read_csv("export.csv")
table = f"report_{date.today():%Y_%m_%d}"
df.to_sql(table, engine, if_exists="replace", index=False)
print(f"wrote {len(df)} rows to {table}")
"""),
    # bash -c with the value passed as a positional parameter, never spliced into the script.
    _s("h7_safe_bash_c_positional", """\
import subprocess
import sys

path = sys.argv[1]
subprocess.run(["bash", "-c", 'du -sh -- "$1" | sort -h', "du-wrapper", path], check=True)
"""),
    # pandas read_sql with text() and a params dict.
    _s("h7_safe_read_sql_params", """\
import sys

import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("postgresql://report@db/sales")
region = sys.argv[1]
query = text("SELECT * FROM sales WHERE region = :region")
df = pd.read_sql(query, engine, params={"region": region})
df.to_csv(f"sales_{region}.csv", index=False)
"""),
    # ORM LIKE filter: the f-string builds a bound value, not SQL text.
    _s("h7_safe_orm_like_fstring_value", """\
from flask import request

from .models import User, db


def lookup():
    term = request.args.get("term", "")
    users = db.session.query(User).filter(User.name.ilike(f"%{term}%")).limit(20).all()
    return {"users": [u.name for u in users]}
"""),
    # Port converted with int() before reaching a shell command.
    _s("h7_safe_int_port_shell", """\
import os
import sys

port = int(sys.argv[1])
if not 1024 <= port <= 65535:
    raise SystemExit(f"port {port} out of range")
os.system(f"fuser -k {port}/tcp")
"""),
    # Release tag validated against a semver regex before reaching the shell.
    _s("h7_safe_semver_validated_tag", """\
import re
import subprocess
import sys

tag = sys.argv[1]
if not re.fullmatch(r"v\\d+\\.\\d+\\.\\d+", tag):
    sys.exit(f"not a release tag: {tag}")
cmd = f"git tag -s {tag} -m 'release {tag}' && git push origin {tag}"
subprocess.run(cmd, shell=True, check=True)
"""),
    # Interpreter path (sys.executable) is the only interpolated value.
    _s("h7_safe_sys_executable_shell", """\
import subprocess
import sys

subprocess.run(f"{sys.executable} -m pip install -r requirements.txt", shell=True, check=True)
subprocess.run(f"{sys.executable} -m pytest -q", shell=True, check=True)
"""),
    # sqlite3 named parameters; f-string only for the status message.
    _s("h7_safe_sqlite_named_params", """\
import sqlite3

import typer

app = typer.Typer()


@app.command()
def rename_category(old: str, new: str, db: str = "inventory.db"):
    conn = sqlite3.connect(db)
    cur = conn.execute(
        "UPDATE items SET category = :new WHERE category = :old", {"new": new, "old": old}
    )
    conn.commit()
    typer.echo(f"renamed {cur.rowcount} items from {old} to {new}")
"""),
    # Table name checked against the database's own catalogue before formatting.
    _s("h7_safe_table_checked_against_catalog", """\
import sqlite3

from flask import Flask, abort

app = Flask(__name__)


@app.get("/schema/<table>")
def schema(table):
    db = sqlite3.connect("app.db")
    known = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if table not in known:
        abort(404)
    cols = db.execute(f"PRAGMA table_info({table})").fetchall()
    return {"columns": [c[1] for c in cols]}
"""),
    # Async subprocess exec with argv (no shell); f-string only in the reply.
    _s("h7_safe_create_subprocess_exec_argv", """\
import asyncio


async def on_message(message):
    if not message.content.startswith("!ping "):
        return
    target = message.content.split(" ", 1)[1]
    proc = await asyncio.create_subprocess_exec(
        "ping", "-c", "2", "--", target, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    await message.channel.send(f"ping {target}:\\n{out.decode()[:1800]}")
"""),
    # string.Template used for an e-mail body; the query binds its values.
    _s("h7_safe_template_email_body", """\
from string import Template

from flask import Flask, request

from .db import engine
from .mail import send

app = Flask(__name__)
BODY = Template("Hello $name, your report for $year is attached.")


@app.post("/report")
def report():
    customer, year = request.form["customer"], int(request.form["year"])
    with engine.connect() as conn:
        rows = conn.exec_driver_sql(
            "SELECT * FROM invoices WHERE customer = %(c)s AND year = %(y)s",
            {"c": customer, "y": year},
        ).all()
    send(customer, BODY.substitute(name=customer, year=year), rows)
    return {"sent": len(rows)}
"""),
    # psycopg.sql.Literal for a value inside a composed DDL statement (DEFAULT cannot be bound).
    _s("h7_safe_psycopg_sql_literal", """\
import os

import psycopg
from psycopg import sql

default_region = os.environ.get("DEFAULT_REGION", "eu-west-1")
stmt = sql.SQL("ALTER TABLE accounts ALTER COLUMN region SET DEFAULT {}").format(
    sql.Literal(default_region)
)
with psycopg.connect("dbname=app") as conn:
    conn.execute(stmt)
    print(f"default region is now {default_region}")
"""),
    # ------------------------------------------------------------------ safe notebooks
    # Setup cell pinning constant versions; f-strings only print.
    _nb("h7_nb_safe_constant_pip", False, """\
!pip install -q transformers==4.40.0 datasets==2.19.0
""", """\
import transformers, datasets
print(f"transformers {transformers.__version__}, datasets {datasets.__version__}")
"""),
    # Model name is a constant defined in an earlier cell.
    _nb("h7_nb_safe_constant_model_cross_cell", False, """\
MODEL = "bert-base-uncased"
CACHE = "/content/hf"
""", """\
!huggingface-cli download {MODEL} --cache-dir {CACHE}
"""),
    # ipython-sql with a :name bind parameter taken from the widget value.
    _nb("h7_nb_safe_sql_magic_bind", False, """\
%load_ext sql
%sql postgresql://analyst@warehouse/db
import ipywidgets as widgets
who = widgets.Text(description="Customer")
who
""", """\
name = who.value
%sql SELECT * FROM orders WHERE customer_name = :name
"""),
    # Widget URL shlex-quoted inside the `!` command.
    _nb("h7_nb_safe_shlex_quote_bang", False, """\
import shlex
import ipywidgets as widgets
url = widgets.Text(value="https://example.org/data.zip")
url
""", """\
!wget -q {shlex.quote(url.value)} -O data.zip
"""),
    # Widget value used as one argv element of subprocess.run without a shell.
    _nb("h7_nb_safe_subprocess_argv_widget", False, """\
import subprocess
import sys
import ipywidgets as widgets
pkg = widgets.Text(description="Package")
pkg
""", """\
subprocess.run([sys.executable, "-m", "pip", "install", "--", pkg.value], check=True)
print(f"installed {pkg.value}")
"""),
    # Databricks widget value passed as a named parameter to spark.sql (Spark 3.4+ args=).
    _nb("h7_nb_safe_spark_sql_args", False, """\
dbutils.widgets.text("run_date", "2024-01-01")
""", """\
run_date = dbutils.widgets.get("run_date")
df = spark.sql("SELECT * FROM sales.orders WHERE dt = :run_date", args={"run_date": run_date})
print(f"{df.count()} rows for {run_date}")
"""),
    # Constant %%bash setup cell and an f-string that is only displayed.
    _nb("h7_nb_safe_constant_bash_cell", False, """\
%%bash
set -e
pip install -q -r requirements.txt
mkdir -p data/raw data/processed
""", """\
import os
print(f"data dirs: {os.listdir('data')}")
"""),
    # Uploaded file name bound as a DuckDB parameter.
    _nb("h7_nb_safe_duckdb_upload_bound", False, """\
from google.colab import files
import duckdb
uploaded = files.upload()
name = next(iter(uploaded))
""", """\
con = duckdb.connect()
n = con.execute("SELECT COUNT(*) FROM read_csv(?)", [name]).fetchone()[0]
print(f"{name}: {n} rows")
"""),
    # `!` inside a loop over a constant list of packages.
    _nb("h7_nb_safe_loop_constant_packages", False, """\
PACKAGES = ["numpy", "pandas", "scikit-learn"]
""", """\
for p in PACKAGES:
    !pip install -q {p}
"""),
    # DataFrame rows loaded with executemany and "?" placeholders.
    _nb("h7_nb_safe_df_executemany", False, """\
import sqlite3
import pandas as pd
df = pd.read_excel("survey.xlsx")
conn = sqlite3.connect("survey.db")
""", """\
conn.executemany("INSERT INTO answers VALUES (?, ?)", df[["id", "answer"]].itertuples(index=False))
conn.commit()
print(f"inserted {len(df)} answers")
"""),
    # Path constant used in `!ls` and %sx; the only outside value is printed.
    _nb("h7_nb_safe_constant_path_sx", False, """\
from pathlib import Path
import os
DATA_DIR = Path("data") / "raw"
user = os.environ.get("USER", "someone")
""", """\
csvs = %sx ls -1 {DATA_DIR}
print(f"{user} has {len(csvs)} files in {DATA_DIR}")
"""),
]
