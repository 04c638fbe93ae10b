"""Eighth held-out corpus for the unsafe-format check, written blind.

Written by a helper who never opened the check (``ipy_istring/check/``), its tests, its
benchmark, or any other corpus file; only the ``Case`` dataclass and the ``_v``/``_s`` helpers
of ``cases.py`` and the header of ``heldout7.py`` were read, and neither the check nor any
scanner was run on these cases. Each case is modelled on a kind of public code found with a
code search over public repositories and notebooks (sqlite/psycopg/pymysql/asyncpg helpers,
Flask/Django/FastAPI/Tornado/aiohttp/Streamlit handlers, SQLAlchemy ``text()`` and
``exec_driver_sql``, pandas/polars/DuckDB/Spark loaders, paramiko/fabric/pexpect/asyncssh
devops scripts, Colab/Databricks/papermill/JupySQL notebooks), rewritten by hand, never copied.
The comment before each case names the kind of code and, for a vulnerable case, where the
tainted value comes from.

A case is vulnerable when a value the code does not control (request data, argv, environment,
stdin, file or DataFrame content, command output, widget or notebook parameters) reaches shell
or SQL text as code. Safe cases are look-alikes: bound parameters (also behind f-string built
placeholders), allow-listed, validated or ``int()`` cast values, ``shlex.quote``/``shlex.join``,
argv lists without a shell, ``psycopg.sql`` composition, SQLAlchemy expressions, and
f-strings that only reach logs, messages, paths or constant-only text.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


HELDOUT8: list[Case] = [
    # ------------------------------------------------------------------ vulnerable scripts
    # Flask search endpoint on sqlite; the term comes from request.args, kept in a variable.
    _v("h8_flask_sqlite_search_var", """\
import sqlite3
from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/books")
def books():
    term = request.args.get("q", "")
    con = sqlite3.connect("library.db")
    cur = con.cursor()
    query = f"SELECT id, title FROM books WHERE title LIKE '%{term}%' ORDER BY title"
    cur.execute(query)
    rows = cur.fetchall()
    con.close()
    return jsonify(rows)
"""),
    # Django view with a raw cursor; the sort column comes from request.GET, via str.format.
    _v("h8_django_raw_cursor_order_format", """\
from django.db import connection
from django.http import JsonResponse


def product_list(request):
    order = request.GET.get("order", "name")
    sql = "SELECT id, name, price FROM shop_product ORDER BY {}".format(order)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        data = cursor.fetchall()
    return JsonResponse({"products": data})
"""),
    # FastAPI + asyncpg; the username is a query parameter of the endpoint.
    _v("h8_fastapi_asyncpg_fetchrow", """\
import asyncpg
from fastapi import FastAPI

app = FastAPI()
DSN = "postgresql://app@localhost/app"


@app.get("/users/lookup")
async def lookup(username: str):
    conn = await asyncpg.connect(DSN)
    try:
        row = await conn.fetchrow(
            f"SELECT id, email FROM users WHERE username = '{username}'"
        )
    finally:
        await conn.close()
    return dict(row) if row else {}
"""),
    # Network check script; the host comes from argparse and is concatenated into os.system.
    _v("h8_argparse_ping_concat", """\
import argparse
import os

parser = argparse.ArgumentParser(description="check that a host answers")
parser.add_argument("host")
parser.add_argument("--count", type=int, default=3)
args = parser.parse_args()

status = os.system("ping -c " + str(args.count) + " " + args.host + " > /dev/null")
print("up" if status == 0 else "down")
"""),
    # Backup script; source and archive names from sys.argv reach subprocess.run(shell=True).
    _v("h8_argv_tar_shell_true", """\
import subprocess
import sys
from datetime import date

src = sys.argv[1]
out = f"backup-{date.today():%Y%m%d}.tar.gz"
cmd = f"tar czf {out} {src} && ls -lh {out}"
subprocess.run(cmd, shell=True, check=True)
"""),
    # CI helper; the branch name comes from the environment and goes to ["bash", "-c", ...].
    _v("h8_env_branch_bash_c", """\
import os
import subprocess

branch = os.environ["CI_BRANCH"]
steps = f"git fetch origin && git checkout {branch} && make test"
subprocess.check_call(["bash", "-c", steps], cwd="/srv/build")
"""),
    # Paramiko deploy class; remote_dir comes from a JSON config file and is kept on self.
    _v("h8_paramiko_self_attr_from_json", """\
import json
import paramiko


class Deployer:
    def __init__(self, config_path):
        with open(config_path) as fh:
            cfg = json.load(fh)
        self.host = cfg["host"]
        self.remote_dir = cfg["remote_dir"]
        self.client = paramiko.SSHClient()
        self.client.set_missing_host_key_policy(paramiko.AutoAddPolicy())

    def connect(self):
        self.client.connect(self.host, username="deploy")

    def clean(self):
        _, stdout, _ = self.client.exec_command(f"rm -rf {self.remote_dir}/releases/old-*")
        return stdout.read().decode()


if __name__ == "__main__":
    d = Deployer("deploy.json")
    d.connect()
    print(d.clean())
"""),
    # aiohttp handler; a shell helper takes the command as a parameter, the caller passes a
    # command built from the uploaded file name.
    _v("h8_aiohttp_shell_helper_param", """\
import asyncio
from aiohttp import web


async def sh(cmd):
    proc = await asyncio.create_subprocess_shell(
        cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await proc.communicate()
    return proc.returncode, out.decode(), err.decode()


async def thumbnail(request):
    data = await request.post()
    upload = data["file"]
    name = upload.filename
    with open(f"/tmp/uploads/{name}", "wb") as fh:
        fh.write(upload.file.read())
    code, out, err = await sh(f"ffmpeg -y -i /tmp/uploads/{name} -vframes 1 /tmp/thumbs/{name}.png")
    return web.json_response({"code": code, "err": err[-500:]})


app = web.Application()
app.add_routes([web.post("/thumb", thumbnail)])
"""),
    # pexpect remote runner; user, host and the command come from input().
    _v("h8_pexpect_spawn_input", """\
import pexpect

user = input("user: ")
host = input("host: ")
command = input("command to run remotely: ")
child = pexpect.spawn(
    f"ssh -o StrictHostKeyChecking=no {user}@{host} '{command}'", encoding="utf-8"
)
child.expect(pexpect.EOF, timeout=120)
print(child.before)
"""),
    # Fabric task driven by click; the image tag is a click option.
    _v("h8_click_fabric_run_image", """\
import click
from fabric import Connection


@click.command()
@click.option("--host", required=True)
@click.option("--image", required=True, help="image:tag to deploy")
def deploy(host, image):
    c = Connection(host, user="ops")
    c.run(f"docker pull {image}")
    c.run(f"docker stop web || true; docker run -d --name web {image}")


if __name__ == "__main__":
    deploy()
"""),
    # Report script; the ticker from sys.argv is formatted into pandas.read_sql via keywords.
    _v("h8_read_sql_keywords_argv", """\
import sys
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://report@db/market")
ticker = sys.argv[1].upper()
df = pd.read_sql(
    sql=f"SELECT day, close FROM prices WHERE symbol = '{ticker}' ORDER BY day",
    con=engine,
    parse_dates=["day"],
)
print(df.describe())
"""),
    # Module constant template, .format applied later in a function with argparse values.
    _v("h8_module_template_format_later", """\
import argparse
import sqlite3
import pandas as pd

REGION_QUERY = '''
SELECT store, SUM(amount) AS total
FROM sales
WHERE region = '{region}' AND year = {year}
GROUP BY store
'''


def load(con, region, year):
    return pd.read_sql_query(REGION_QUERY.format(region=region, year=year), con)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("region")
    p.add_argument("year")
    a = p.parse_args()
    print(load(sqlite3.connect("sales.db"), a.region, a.year))
"""),
    # pymysql login check; % formatting with values from a Flask form.
    _v("h8_pymysql_percent_login", """\
import pymysql
from flask import Flask, request

app = Flask(__name__)


def get_db():
    return pymysql.connect(host="localhost", user="web", password="x", database="site")


@app.post("/login")
def login():
    name = request.form["username"]
    pw = request.form["password"]
    db = get_db()
    with db.cursor() as cur:
        sql = "SELECT id FROM accounts WHERE name = '%s' AND pw_hash = MD5('%s')" % (name, pw)
        cur.execute(sql)
        row = cur.fetchone()
    return ("ok", 200) if row else ("denied", 403)
"""),
    # psycopg2 filter builder; WHERE clauses appended with += in a loop over request JSON.
    _v("h8_psycopg2_where_plus_equals_loop", """\
import psycopg2
from flask import Flask, request, jsonify

app = Flask(__name__)
conn = psycopg2.connect("dbname=inventory")


@app.post("/items/search")
def search():
    filters = request.get_json() or {}
    sql = "SELECT id, sku, qty FROM items WHERE 1=1"
    for field, value in filters.items():
        sql += f" AND {field} = '{value}'"
    cur = conn.cursor()
    cur.execute(sql)
    return jsonify(cur.fetchall())
"""),
    # IN list built by a comprehension of quoted ids from request.args.getlist.
    _v("h8_in_list_quoted_comprehension", """\
import sqlite3
from flask import Flask, request, jsonify

app = Flask(__name__)


@app.get("/orders")
def orders():
    ids = request.args.getlist("id")
    in_list = ", ".join(f"'{i}'" for i in ids)
    con = sqlite3.connect("shop.db")
    rows = con.execute(f"SELECT * FROM orders WHERE order_id IN ({in_list})").fetchall()
    return jsonify(rows)
"""),
    # SQLAlchemy session with text(f"..."); the status comes from a FastAPI query string.
    _v("h8_sqlalchemy_text_fstring_session", """\
from fastapi import Depends, FastAPI
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session, sessionmaker

engine = create_engine("sqlite:///orders.db")
SessionLocal = sessionmaker(bind=engine)
app = FastAPI()


def get_session():
    s = SessionLocal()
    try:
        yield s
    finally:
        s.close()


@app.get("/orders/by-status")
def by_status(status: str, db: Session = Depends(get_session)):
    rows = db.execute(text(f"SELECT id, total FROM orders WHERE status = '{status}'")).all()
    return [dict(r._mapping) for r in rows]
"""),
    # Maintenance CLI; exec_driver_sql truncates a table named on the command line.
    _v("h8_exec_driver_sql_truncate_argv", """\
import sys
from sqlalchemy import create_engine

engine = create_engine("postgresql+psycopg2://etl@warehouse/dw")
table = sys.argv[1]
with engine.begin() as conn:
    conn.exec_driver_sql(f"TRUNCATE TABLE staging.{table}")
    print(f"truncated staging.{table}")
"""),
    # DuckDB upload preview; the uploaded file name is put into read_csv_auto.
    _v("h8_duckdb_upload_filename", """\
import os
import duckdb
from flask import Flask, request

app = Flask(__name__)
UPLOADS = "/srv/uploads"


@app.post("/preview")
def preview():
    f = request.files["data"]
    path = os.path.join(UPLOADS, f.filename)
    f.save(path)
    rel = duckdb.sql(f"SELECT * FROM read_csv_auto('{path}') LIMIT 20")
    return rel.df().to_html()
"""),
    # Interactive DuckDB lookup; the name comes from input(), executed on a connection.
    _v("h8_duckdb_con_execute_input", """\
import duckdb

con = duckdb.connect("people.duckdb")
while True:
    name = input("name (empty to quit): ").strip()
    if not name:
        break
    print(con.execute(f"SELECT * FROM people WHERE last_name = '{name}'").fetchall())
"""),
    # Polars read_database with a query keyword; the customer id is a path parameter (str).
    _v("h8_polars_read_database_path_param", """\
import polars as pl
from fastapi import FastAPI
from sqlalchemy import create_engine

app = FastAPI()
engine = create_engine("postgresql://ro@db/crm")


@app.get("/customers/{customer_id}/events")
def events(customer_id: str):
    df = pl.read_database(
        query=f"SELECT ts, kind FROM events WHERE customer_id = {customer_id}",
        connection=engine,
    )
    return df.to_dicts()
"""),
    # Databricks job exported as .py; a widget value reaches spark.sql.
    _v("h8_databricks_py_widget_spark_sql", """\
# Databricks notebook source
dbutils.widgets.text("run_date", "2024-01-01")
dbutils.widgets.text("country", "DE")

# COMMAND ----------

run_date = dbutils.widgets.get("run_date")
country = dbutils.widgets.get("country")
df = spark.sql(
    f"SELECT * FROM bronze.orders WHERE order_date = '{run_date}' AND country = '{country}'"
)
df.write.mode("overwrite").saveAsTable("silver.orders_daily")
"""),
    # Spark partition maintenance; positional .format with a date from sys.argv.
    _v("h8_spark_partition_format_argv", """\
import sys
from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("add-partition").enableHiveSupport().getOrCreate()
table, dt = sys.argv[1], sys.argv[2]
stmt = "ALTER TABLE {} ADD IF NOT EXISTS PARTITION (dt='{}')".format(table, dt)
spark.sql(stmt)
"""),
    # Tenant provisioning; executescript of a dedented f-string with a tenant from the env.
    _v("h8_executescript_dedent_env", """\
import os
import sqlite3
import textwrap

tenant = os.environ.get("TENANT_NAME", "default")
con = sqlite3.connect("tenants.db")
con.executescript(textwrap.dedent(f'''
    CREATE TABLE IF NOT EXISTS tenant_{tenant}_users (id INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO tenants (name) VALUES ('{tenant}');
'''))
con.commit()
"""),
    # CSV importer; executemany binds the rows but the table name comes from argparse.
    _v("h8_executemany_table_from_argparse", """\
import argparse
import csv
import sqlite3

ap = argparse.ArgumentParser()
ap.add_argument("csv_file")
ap.add_argument("--table", default="imported")
ns = ap.parse_args()

with open(ns.csv_file, newline="") as fh:
    rows = [(r["name"], r["value"]) for r in csv.DictReader(fh)]

con = sqlite3.connect("import.db")
con.executemany(f"INSERT INTO {ns.table} (name, value) VALUES (?, ?)", rows)
con.commit()
"""),
    # Query builder function returning an f-string; called with a Flask request value.
    _v("h8_builder_function_return", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


def build_user_query(email):
    return f"SELECT id, name FROM users WHERE email = '{email}'"


@app.get("/user")
def user():
    con = sqlite3.connect("app.db")
    cur = con.cursor()
    cur.execute(build_user_query(request.args["email"]))
    return {"user": cur.fetchone()}
"""),
    # Dict of query templates; the template is looked up and .format-ed with request data.
    _v("h8_query_dict_lookup_format", """\
import psycopg2
from flask import Flask, request

app = Flask(__name__)
QUERIES = {
    "by_name": "SELECT * FROM customers WHERE name = '{}'",
    "by_city": "SELECT * FROM customers WHERE city = '{}'",
}


@app.get("/customers/<kind>")
def customers(kind):
    template = QUERIES[kind]
    with psycopg2.connect("dbname=crm") as conn, conn.cursor() as cur:
        cur.execute(template.format(request.args.get("value", "")))
        return {"rows": cur.fetchall()}
"""),
    # Repository class storing the query on self in __init__ and executing it in run().
    _v("h8_self_query_attribute", """\
import sqlite3
import sys


class ReportQuery:
    def __init__(self, con, department):
        self.con = con
        self.query = (
            "SELECT name, salary FROM employees "
            f"WHERE department = '{department}' ORDER BY salary DESC"
        )

    def run(self):
        cur = self.con.cursor()
        cur.execute(self.query)
        return cur.fetchall()


if __name__ == "__main__":
    rq = ReportQuery(sqlite3.connect("hr.db"), sys.argv[1])
    for row in rq.run():
        print(*row)
"""),
    # Dataclass job loaded from a JSON request body; a method builds the rsync command.
    _v("h8_dataclass_job_command", """\
import os
from dataclasses import dataclass
from flask import Flask, request

app = Flask(__name__)


@dataclass
class SyncJob:
    source: str
    target: str = "/mnt/backup"

    def command(self) -> str:
        return f"rsync -a --delete {self.source} {self.target}"


@app.post("/sync")
def sync():
    job = SyncJob(**request.get_json())
    rc = os.system(job.command())
    return {"rc": rc}
"""),
    # functools.partial of subprocess.run with shell=True; file name from sys.argv.
    _v("h8_partial_run_shell", """\
import functools
import subprocess
import sys

sh = functools.partial(subprocess.run, shell=True, check=True, text=True, capture_output=True)

for name in sys.argv[1:]:
    res = sh(f"convert {name} -resize 50% small_{name}")
    print(res.stdout)
"""),
    # Lambda wrapper around os.popen; the domain comes from input().
    _v("h8_lambda_popen_input", """\
import os

run = lambda c: os.popen(c).read()

domain = input("domain: ")
print(run("whois " + domain + " | grep -i registrar"))
"""),
    # Decorated Flask route with a login decorator; Popen(shell=True) with a query value.
    _v("h8_decorated_route_popen", """\
import functools
import subprocess
from flask import Flask, request, session, abort

app = Flask(__name__)


def login_required(fn):
    @functools.wraps(fn)
    def wrapper(*a, **kw):
        if "user" not in session:
            abort(401)
        return fn(*a, **kw)
    return wrapper


@app.route("/tools/dig")
@login_required
def dig():
    name = request.args.get("name", "example.com")
    rtype = request.args.get("type", "A")
    p = subprocess.Popen(f"dig +short {name} {rtype}", shell=True, stdout=subprocess.PIPE)
    return p.communicate()[0]
"""),
    # Context-managed psycopg connection; a cookie value concatenated into a DELETE.
    _v("h8_with_cursor_cookie_concat", """\
import psycopg
from flask import Flask, request

app = Flask(__name__)


@app.post("/logout")
def logout():
    token = request.cookies.get("session_token", "")
    with psycopg.connect("dbname=web") as conn:
        with conn.cursor() as cur:
            cur.execute("DELETE FROM sessions WHERE token = '" + token + "'")
    return "bye"
"""),
    # Conditional branch adds ORDER BY from request.args; the base query is bound.
    _v("h8_conditional_order_by_branch", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/tickets")
def tickets():
    sql = "SELECT id, title, priority FROM tickets WHERE owner = ?"
    sort = request.args.get("sort")
    if sort:
        sql += f" ORDER BY {sort}"
    else:
        sql += " ORDER BY id"
    con = sqlite3.connect("tickets.db")
    return {"rows": con.execute(sql, (request.args["owner"],)).fetchall()}
"""),
    # click CLI dumping a database; db name and output file are click arguments.
    _v("h8_click_pg_dump_os_system", """\
import os
import click


@click.command()
@click.argument("database")
@click.option("-o", "--output", default="dump.sql")
def dump(database, output):
    click.echo(f"dumping {database} to {output}")
    rc = os.system(f"pg_dump --no-owner {database} > {output}")
    raise SystemExit(rc)


if __name__ == "__main__":
    dump()
"""),
    # Tornado handler; get_argument value concatenated into a MySQL query.
    _v("h8_tornado_get_argument_concat", """\
import MySQLdb
import tornado.web


class ArticleHandler(tornado.web.RequestHandler):
    def initialize(self, db):
        self.db = db

    def get(self):
        slug = self.get_argument("slug")
        cur = self.db.cursor()
        cur.execute("SELECT title, body FROM articles WHERE slug = '" + slug + "' LIMIT 1")
        row = cur.fetchone()
        self.write({"title": row[0], "body": row[1]} if row else {})


def make_app():
    db = MySQLdb.connect(host="localhost", user="blog", passwd="x", db="blog")
    return tornado.web.Application([(r"/article", ArticleHandler, dict(db=db))])
"""),
    # aiohttp diagnostics; match_info host goes to create_subprocess_shell directly.
    _v("h8_aiohttp_match_info_subprocess_shell", """\
import asyncio
from aiohttp import web


async def trace(request):
    host = request.match_info["host"]
    proc = await asyncio.create_subprocess_shell(
        "traceroute -m 10 " + host,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return web.Response(text=out.decode())


app = web.Application()
app.router.add_get("/trace/{host}", trace)
"""),
    # Clone service; the repo URL from a JSON body is joined into an argv-looking string.
    _v("h8_join_parts_os_system", """\
import os
from flask import Flask, request

app = Flask(__name__)


@app.post("/clone")
def clone():
    body = request.get_json()
    parts = ["git", "clone", "--depth", "1", body["repo_url"], "/srv/checkouts/" + body["name"]]
    rc = os.system(" ".join(parts))
    return {"rc": rc}
"""),
    # pyformat look-alike: the dict is applied with % instead of passed as parameters.
    _v("h8_percent_dict_not_params", """\
import psycopg2
import sys

conn = psycopg2.connect("dbname=shop")
cur = conn.cursor()
q = "SELECT * FROM orders WHERE customer = %(c)s AND status = %(s)s"
cur.execute(q % {"c": repr(sys.argv[1]), "s": "'open'"})
print(cur.fetchall())
"""),
    # format_map with os.environ into an os.system call.
    _v("h8_format_map_environ", """\
import os

CMD = "psql -h {PGHOST} -U {PGUSER} -c 'VACUUM ANALYZE {VACUUM_TABLE}'"
os.system(CMD.format_map(os.environ))
"""),
    # subprocess.getoutput runs through a shell; the path comes from sys.argv.
    _v("h8_getoutput_du_argv", """\
import subprocess
import sys

for path in sys.argv[1:]:
    size = subprocess.getoutput(f"du -sh {path}").split()[0]
    print(path, size)
"""),
    # shell flag held in a variable; the pattern comes from argparse.
    _v("h8_shell_flag_variable", """\
import argparse
import subprocess

p = argparse.ArgumentParser()
p.add_argument("pattern")
p.add_argument("logfile")
a = p.parse_args()

use_shell = True
out = subprocess.check_output(f"grep -n '{a.pattern}' {a.logfile} | tail -20", shell=use_shell)
print(out.decode())
"""),
    # Healthcheck; a URL from os.getenv concatenated into ["sh", "-c", ...].
    _v("h8_sh_c_getenv_url", """\
import os
import subprocess

url = os.getenv("HEALTH_URL", "http://localhost:8080/health")
r = subprocess.run(["sh", "-c", "curl -fsS " + url + " || exit 1"], capture_output=True)
print(r.returncode)
"""),
    # Paramiko helper taking the command as a parameter; log name from argparse.
    _v("h8_paramiko_helper_argparse", """\
import argparse
import paramiko


def remote(client, cmd):
    _, out, err = client.exec_command(cmd, timeout=30)
    return out.read().decode(), err.read().decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("host")
    ap.add_argument("logname")
    ap.add_argument("--lines", type=int, default=100)
    args = ap.parse_args()
    c = paramiko.SSHClient()
    c.load_system_host_keys()
    c.connect(args.host)
    out, err = remote(c, "tail -n %d /var/log/%s" % (args.lines, args.logname))
    print(out or err)


if __name__ == "__main__":
    main()
"""),
    # asyncssh remote runner; the service name comes from sys.argv.
    _v("h8_asyncssh_run_argv", """\
import asyncio
import sys
import asyncssh


async def restart(host, service):
    async with asyncssh.connect(host, username="ops") as conn:
        result = await conn.run(
            f"sudo systemctl restart {service} && systemctl is-active {service}"
        )
        print(result.stdout)


asyncio.run(restart(sys.argv[1], sys.argv[2]))
"""),
    # CSV import that inlines each row's value into an INSERT (file content is tainted).
    _v("h8_csv_rows_inlined_insert", """\
import csv
import sqlite3

con = sqlite3.connect("contacts.db")
cur = con.cursor()
with open("contacts.csv", newline="", encoding="utf-8") as fh:
    for row in csv.DictReader(fh):
        cur.execute(
            f"INSERT INTO contacts (name, email) VALUES ('{row['name']}', '{row['email']}')"
        )
con.commit()
"""),
    # DataFrame column values (from read_excel) formatted into UPDATE statements.
    _v("h8_dataframe_values_update", """\
import pandas as pd
import pymysql

df = pd.read_excel("price_changes.xlsx")
db = pymysql.connect(host="db", user="etl", password="x", database="shop")
cur = db.cursor()
for sku, price in zip(df["sku"], df["new_price"]):
    cur.execute("UPDATE products SET price = {} WHERE sku = '{}'".format(price, sku))
db.commit()
"""),
    # psycopg2.sql.SQL wrapping an f-string: composition is bypassed; table from request.
    _v("h8_psycopg_sql_wrapping_fstring", """\
from flask import Flask, request
import psycopg2
from psycopg2 import sql

app = Flask(__name__)


@app.get("/count")
def count():
    table = request.args["table"]
    q = sql.SQL(f"SELECT count(*) FROM {table}")
    with psycopg2.connect("dbname=stats") as conn, conn.cursor() as cur:
        cur.execute(q)
        return {"count": cur.fetchone()[0]}
"""),
    # text() with a bound :id but the table name is formatted from the request.
    _v("h8_text_bound_id_but_table", """\
from flask import Flask, request
from sqlalchemy import create_engine, text

app = Flask(__name__)
engine = create_engine("sqlite:///cms.db")


@app.get("/<kind>/<int:item_id>")
def item(kind, item_id):
    stmt = text(f"SELECT * FROM {kind} WHERE id = :id")
    with engine.connect() as conn:
        row = conn.execute(stmt, {"id": item_id}).mappings().first()
    return dict(row or {})
"""),
    # read_sql with params= for the date, but selected columns come from request args.
    _v("h8_read_sql_params_but_columns", """\
import pandas as pd
from flask import Flask, request
from sqlalchemy import create_engine

app = Flask(__name__)
engine = create_engine("postgresql://ro@db/metrics")


@app.get("/metrics.csv")
def metrics():
    cols = request.args.get("cols", "ts,value")
    since = request.args.get("since", "2024-01-01")
    df = pd.read_sql(
        f"SELECT {cols} FROM metrics WHERE ts >= %(since)s", engine, params={"since": since}
    )
    return df.to_csv(index=False)
"""),
    # aiosqlite websocket handler; the message JSON field is formatted into the query.
    _v("h8_aiosqlite_websocket_message", """\
import json
import aiosqlite
from fastapi import FastAPI, WebSocket

app = FastAPI()


@app.websocket("/ws/chat")
async def chat(ws: WebSocket):
    await ws.accept()
    async with aiosqlite.connect("chat.db") as db:
        while True:
            msg = json.loads(await ws.receive_text())
            room = msg["room"]
            sql = f"SELECT author, body FROM messages WHERE room = '{room}'"
            async with db.execute(sql) as cur:
                rows = await cur.fetchall()
            await ws.send_json(rows)
"""),
    # Walrus in a condition; the name flows from request.args straight into the f-string.
    _v("h8_walrus_request_arg", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/tags")
def tags():
    con = sqlite3.connect("blog.db")
    if (prefix := request.args.get("prefix")):
        rows = con.execute(f"SELECT name FROM tags WHERE name LIKE '{prefix}%'").fetchall()
    else:
        rows = con.execute("SELECT name FROM tags").fetchall()
    return {"tags": [r[0] for r in rows]}
"""),
    # Generic WHERE helper building key = 'value' pairs from **request.args.
    _v("h8_where_helper_kwargs", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


def where(**conds):
    if not conds:
        return ""
    return " WHERE " + " AND ".join(f"{k} = '{v}'" for k, v in conds.items())


@app.get("/cars")
def cars():
    con = sqlite3.connect("cars.db")
    cur = con.cursor()
    cur.execute("SELECT make, model, year FROM cars" + where(**request.args.to_dict()))
    return {"cars": cur.fetchall()}
"""),
    # Video downloader; positional .format into os.system with a URL from input().
    _v("h8_youtube_dl_format_input", """\
import os

url = input("video url: ")
out = input("output name: ") or "%(title)s.%(ext)s"
os.system("youtube-dl -f best -o '{}' {}".format(out, url))
"""),
    # grep wrapper; % formatting into Popen(shell=True) with sys.argv.
    _v("h8_popen_percent_argv", """\
import subprocess
import sys

user = sys.argv[1]
p = subprocess.Popen(
    "grep '^%s:' /etc/passwd | cut -d: -f6" % user, shell=True, stdout=subprocess.PIPE
)
print(p.stdout.read().decode().strip())
"""),
    # nmap wrapper; os.getenv with a default still comes from the environment.
    _v("h8_getenv_default_nmap", """\
import os

target = os.getenv("SCAN_TARGET", "127.0.0.1")
ports = os.getenv("SCAN_PORTS", "1-1024")
os.system(f"nmap -p {ports} -oX scan.xml {target}")
"""),
    # spark-submit job; the database name from sys.argv is concatenated into spark.sql.
    _v("h8_spark_submit_concat_argv", """\
import sys
from pyspark.sql import SparkSession


def main(argv):
    db = argv[1]
    spark = SparkSession.builder.getOrCreate()
    spark.sql("CREATE DATABASE IF NOT EXISTS " + db)
    spark.sql("USE " + db)
    spark.sql("REFRESH TABLE " + db + ".events")


if __name__ == "__main__":
    main(sys.argv)
"""),
    # Streamlit explorer; a text_input column name reaches a DuckDB connection's query().
    _v("h8_streamlit_duckdb_query", """\
import duckdb
import streamlit as st

con = duckdb.connect("trips.duckdb", read_only=True)
col = st.text_input("Group by column", "vendor_id")
limit = st.slider("rows", 5, 100, 20)
if st.button("Run"):
    rel = con.query(
        f"SELECT {col}, count(*) AS n FROM trips GROUP BY {col} ORDER BY n DESC LIMIT {limit}"
    )
    st.dataframe(rel.df())
"""),
    # Streamlit app; a selectbox over DB values is fine, but the text filter is not.
    _v("h8_streamlit_read_sql_query_text", """\
import sqlite3
import pandas as pd
import streamlit as st

conn = sqlite3.connect("movies.db")
genre = st.selectbox("Genre", ["Drama", "Comedy", "Horror"])
title = st.text_input("Title contains")
q = "SELECT title, year FROM movies WHERE genre = '" + genre + "'"
if title:
    q = q + " AND title LIKE '%" + title + "%'"
st.table(pd.read_sql_query(q, conn))
"""),
    # SQLite PRAGMA with a table name from argv (PRAGMA cannot take parameters).
    _v("h8_pragma_table_info_argv", """\
import sqlite3
import sys

con = sqlite3.connect(sys.argv[1])
for tbl in sys.argv[2:]:
    cols = con.execute(f"PRAGMA table_info({tbl})").fetchall()
    print(tbl, [c[1] for c in cols])
"""),
    # Config from YAML (file content) nested on self; schema name goes into SQL.
    _v("h8_yaml_config_schema_nested", """\
import yaml
import psycopg2


class Loader:
    def __init__(self, path):
        with open(path) as fh:
            self.config = yaml.safe_load(fh)
        self.conn = psycopg2.connect(self.config["db"]["dsn"])

    def reset(self):
        schema = self.config["db"]["schema"]
        with self.conn.cursor() as cur:
            cur.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema};")
        self.conn.commit()


Loader("etl.yaml").reset()
"""),
    # run_sql(sql, *, con) wrapper; callers pass an f-string with a keyword connection.
    _v("h8_run_sql_wrapper_keyword_con", """\
import sqlite3
import sys


def run_sql(sql, *, con):
    cur = con.cursor()
    cur.execute(sql)
    con.commit()
    return cur.rowcount


con = sqlite3.connect("jobs.db")
job_id = sys.argv[1]
n = run_sql(sql=f"UPDATE jobs SET state = 'cancelled' WHERE id = {job_id}", con=con)
print(n, "cancelled")
"""),
    # Fabric sudo from a Flask webhook; the service name is in the JSON body.
    _v("h8_fabric_sudo_webhook", """\
from fabric import Connection
from flask import Flask, request

app = Flask(__name__)


@app.post("/hooks/restart")
def restart():
    payload = request.json
    svc = payload["service"]
    with Connection("app01.internal") as c:
        c.sudo(f"systemctl restart {svc}", hide=True)
    return {"restarted": svc}
"""),
    # string.Template substitution into a shell command; directory from sys.argv.
    _v("h8_string_template_substitute", """\
import os
import sys
from string import Template

CLEAN = Template("find $dir -name '*.pyc' -delete && rm -rf $dir/__pycache__")
os.system(CLEAN.substitute(dir=sys.argv[1]))
"""),
    # Fluent query builder class; where() appends text with a value from the request.
    _v("h8_fluent_builder_parts", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


class Query:
    def __init__(self, table):
        self.parts = [f"SELECT * FROM {table}"]
        self.conds = []

    def where(self, cond):
        self.conds.append(cond)
        return self

    def sql(self):
        if self.conds:
            return " ".join(self.parts) + " WHERE " + " AND ".join(self.conds)
        return " ".join(self.parts)


@app.get("/posts")
def posts():
    q = Query("posts")
    if "author" in request.args:
        q.where("author = '%s'" % request.args["author"])
    con = sqlite3.connect("blog.db")
    return {"rows": con.execute(q.sql()).fetchall()}
"""),
    # Implicit string concatenation across lines mixing literals and an f-string (argv).
    _v("h8_implicit_concat_fstring_argv", """\
import sys
import pymysql

conn = pymysql.connect(host="db", user="ro", password="x", database="logs")
level = sys.argv[1] if len(sys.argv) > 1 else "ERROR"
with conn.cursor() as cur:
    cur.execute(
        "SELECT ts, message "
        "FROM app_log "
        f"WHERE level = '{level}' "
        "ORDER BY ts DESC LIMIT 50"
    )
    for ts, message in cur.fetchall():
        print(ts, message)
"""),
    # Ternary picks between a constant and an f-string with a request value.
    _v("h8_ternary_fstring_request", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/events")
def events():
    city = request.args.get("city")
    sql = f"SELECT * FROM events WHERE city = '{city}'" if city else "SELECT * FROM events"
    return {"events": sqlite3.connect("ev.db").execute(sql).fetchall()}
"""),
    # Telegram-style bot command handler; the message text reaches os.popen via format.
    _v("h8_bot_message_popen", """\
import os


def handle_ping(update, context):
    args = update.message.text.split(maxsplit=1)
    host = args[1] if len(args) > 1 else "8.8.8.8"
    out = os.popen("ping -c 2 {0}".format(host)).read()
    update.message.reply_text(out[-3000:])
"""),
    # Value read from a requests JSON response (third-party API) used in a cursor.execute.
    _v("h8_api_response_into_sql", """\
import requests
import sqlite3

resp = requests.get("https://api.example.com/v1/releases/latest", timeout=10)
info = resp.json()
con = sqlite3.connect("releases.db")
con.execute(
    "INSERT INTO releases (tag, notes) VALUES ('%s', '%s')" % (info["tag_name"], info["body"])
)
con.commit()
"""),
    # Loop over sys.stdin lines: each line is a user name formatted into a GRANT.
    _v("h8_stdin_lines_grant", """\
import sys
import psycopg2

conn = psycopg2.connect("dbname=app user=admin")
cur = conn.cursor()
for line in sys.stdin:
    user = line.strip()
    if user:
        cur.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA reporting TO {user}")
conn.commit()
"""),
    # Airflow-style callable; the conf value from the DAG run is formatted into a bash -c list.
    _v("h8_airflow_conf_bash_list", """\
import subprocess


def export_partition(**context):
    conf = context["dag_run"].conf or {}
    ds = conf.get("ds", context["ds"])
    bucket = conf.get("bucket", "exports")
    script = (
        f"python export.py --date {ds} | gzip > /tmp/{ds}.gz"
        f" && aws s3 cp /tmp/{ds}.gz s3://{bucket}/"
    )
    subprocess.run(["/bin/bash", "-c", script], check=True)
"""),
    # os.system inside a nested function closure; the name captured from sys.argv.
    _v("h8_closure_captured_argv", """\
import os
import sys


def make_builder(project):
    def build(target):
        return os.system(f"cd projects/{project} && make {target}")
    return build


build = make_builder(sys.argv[1])
for t in ("clean", "all"):
    build(t)
"""),
    # cursor.execute in an except branch: fallback query built from request value.
    _v("h8_except_branch_fallback", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/item")
def item():
    con = sqlite3.connect("store.db")
    key = request.args.get("key", "")
    try:
        row = con.execute("SELECT * FROM items WHERE id = ?", (int(key),)).fetchone()
    except ValueError:
        row = con.execute("SELECT * FROM items WHERE slug = '%s'" % key).fetchone()
    return {"item": row}
"""),
    # ---------------------------------------------------------------- vulnerable notebooks
    # Colab download notebook; the URL comes from input() and is expanded into !wget {url}.
    _nb("h8_nb_wget_input_url", True,
        "import os\nurl = input('Dataset URL: ')\nname = url.rsplit('/', 1)[-1]",
        "!wget -q {url} -O data/{name}\n!ls -lh data",
        "import pandas as pd\ndf = pd.read_csv(f'data/{name}')\ndf.head()"),
    # Notebook listing a folder named in the environment, expanded with $folder.
    _nb("h8_nb_ls_dollar_env", True,
        "import os\nfolder = os.environ.get('RAW_DIR', '/data/raw')",
        "!ls -la $folder | head -20",
        "files = sorted(os.listdir(folder))\nlen(files)"),
    # Capture form `x = !cmd {path}` with a path typed by the user.
    _nb("h8_nb_capture_find_input", True,
        "path = input('Folder to scan: ')",
        "csvs = !find {path} -name '*.csv' -size +1M\nprint(len(csvs), 'large csv files')",
        "for f in csvs[:5]:\n    print(f)"),
    # JupySQL: a name from input() templated with {{name}} into %sql.
    _nb("h8_nb_jupysql_braces_input", True,
        "%load_ext sql\n%sql sqlite:///chinook.db",
        "artist = input('artist: ')",
        "%sql SELECT AlbumId, Title FROM albums JOIN artists USING (ArtistId) "
        "WHERE artists.Name = '{{artist}}'"),
    # JupySQL cell magic; the column comes from an ipywidgets Text value in another cell.
    _nb("h8_nb_jupysql_cell_widget_col", True,
        "%load_ext sql\n"
        "%sql duckdb:///taxi.duckdb\n"
        "import ipywidgets as widgets\n"
        "col_box = widgets.Text(value='payment_type', description='column')\n"
        "col_box",
        "col = col_box.value",
        "%%sql\nSELECT {{col}}, COUNT(*) AS n\nFROM trips\nGROUP BY {{col}}\nORDER BY n DESC"),
    # Legacy ipython-sql $variable expansion with a value from the environment.
    _nb("h8_nb_ipython_sql_dollar_env", True,
        "%load_ext sql\n%sql postgresql://analyst@warehouse/dw",
        "import os\nregion = os.environ['REPORT_REGION']",
        "%sql SELECT store_id, revenue FROM weekly_sales WHERE region = '$region'"),
    # get_ipython().system with an f-string; the package spec comes from a Text widget.
    _nb("h8_nb_get_ipython_system_widget", True,
        "import ipywidgets as widgets\n"
        "from IPython.display import display\n"
        "pkg = widgets.Text(description='package')\n"
        "display(pkg)",
        "spec = pkg.value.strip()\nget_ipython().system(f'pip install --quiet {spec}')"),
    # Query assembled across cells from input() and executed by pandas in a later cell.
    _nb("h8_nb_across_cells_read_sql", True,
        "import sqlite3\nimport pandas as pd\nconn = sqlite3.connect('northwind.db')",
        "customer = input('Customer ID: ')",
        "q = f'''\n"
        "SELECT OrderID, OrderDate, Freight\n"
        "FROM Orders\n"
        "WHERE CustomerID = '{customer}'\n"
        "'''",
        "orders = pd.read_sql(q, conn)\norders.describe()"),
    # Databricks notebook: widgets created in one cell, spark.sql with the value in another.
    _nb("h8_nb_databricks_widget_spark_sql", True,
        "dbutils.widgets.text('table_name', 'sales')\ndbutils.widgets.text('min_amount', '0')",
        "table_name = dbutils.widgets.get('table_name')\n"
        "min_amount = dbutils.widgets.get('min_amount')",
        "display(spark.sql(f'SELECT * FROM analytics.{table_name} WHERE amount > {min_amount}'))"),
    # papermill notebook: the cell tagged `parameters` is replaced at run time by injected
    # values, so `source_table` is what the caller passes.
    _nb("h8_nb_papermill_parameters_read_sql", True,
        "# parameters\nsource_table = 'events'\nstart = '2024-01-01'",
        "import pandas as pd\n"
        "from sqlalchemy import create_engine\n"
        "engine = create_engine('postgresql://ro@db/analytics')",
        "df = pd.read_sql(\n"
        "    f\"SELECT * FROM {source_table} WHERE created_at >= '{start}'\", engine\n"
        ")\n"
        "df.shape"),
    # DuckDB notebook; an ipywidgets FileUpload name is put into a CREATE TABLE AS.
    _nb("h8_nb_duckdb_fileupload_name", True,
        "import duckdb\nimport ipywidgets as widgets\nup = widgets.FileUpload(accept='.csv')\nup",
        "item = up.value[0]\n"
        "fname = item['name']\n"
        "with open(fname, 'wb') as fh:\n"
        "    fh.write(item['content'])",
        "duckdb.sql(\n"
        "    f\"CREATE OR REPLACE TABLE uploaded AS SELECT * FROM read_csv_auto('{fname}')\"\n"
        ")\n"
        "duckdb.sql('DESCRIBE uploaded')"),
    # Helper defined in one cell, called later with an archive name from an API response.
    _nb("h8_nb_helper_cell_api_archive", True,
        "import subprocess\n"
        "\n"
        "def run(cmd):\n"
        "    print('$', cmd)\n"
        "    return subprocess.run(cmd, shell=True, check=True)",
        "import requests\n"
        "meta = requests.get('https://zenodo.org/api/records/123456', timeout=30).json()\n"
        "archive = meta['files'][0]['key']",
        "run(f'unzip -o {archive} -d extracted/')"),
    # ipywidgets interact callback; the text argument is formatted into read_sql_query.
    _nb("h8_nb_interact_read_sql_query", True,
        "import sqlite3\n"
        "import pandas as pd\n"
        "from ipywidgets import interact\n"
        "con = sqlite3.connect('census.db')",
        "@interact(state='CA')\n"
        "def show(state):\n"
        "    q = \"SELECT county, pop FROM counties WHERE state = '\" + state + \"'\"\n"
        "    return pd.read_sql_query(q, con)"),
    # Lines read with `x = !cat hosts.txt` (file content) expanded into a later !ping loop.
    _nb("h8_nb_capture_file_lines_ping", True,
        "hosts = !cat hosts.txt",
        "for h in hosts:\n    !ping -c 1 -W 1 {h} > /dev/null && echo {h} up"),
    # run_line_magic('sql', f-string); the id comes from sys.argv of the kernel (nbconvert run).
    _nb("h8_nb_run_line_magic_sql_fstring", True,
        "%load_ext sql\n%sql sqlite:///tracks.db",
        "import sys\ntrack_id = sys.argv[-1]",
        "res = get_ipython().run_line_magic('sql', f'SELECT * FROM tracks WHERE id = {track_id}')\n"
        "res"),
    # ------------------------------------------------------------------- safe scripts
    # Flask lookup with a qmark parameter; the f-string only feeds the log line.
    _s("h8_safe_flask_qmark_log_fstring", """\
import logging
import sqlite3
from flask import Flask, request

app = Flask(__name__)
log = logging.getLogger(__name__)


@app.get("/books")
def books():
    term = request.args.get("q", "")
    log.info(f"book search for {term!r}")
    con = sqlite3.connect("library.db")
    rows = con.execute(
        "SELECT id, title FROM books WHERE title LIKE ? ORDER BY title", (f"%{term}%",)
    ).fetchall()
    return {"rows": rows}
"""),
    # IN list of qmark placeholders built with an f-string; the ids are bound.
    _s("h8_safe_in_list_qmark_placeholders", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/orders")
def orders():
    ids = request.args.getlist("id")
    if not ids:
        return {"rows": []}
    marks = ",".join("?" * len(ids))
    con = sqlite3.connect("shop.db")
    rows = con.execute(f"SELECT * FROM orders WHERE order_id IN ({marks})", ids).fetchall()
    return {"rows": rows}
"""),
    # psycopg2 IN list with %s placeholders joined; values passed as parameters.
    _s("h8_safe_psycopg2_percent_s_join", """\
import sys
import psycopg2

skus = sys.argv[1:]
placeholders = ", ".join(["%s"] * len(skus))
sql = "SELECT sku, qty FROM stock WHERE sku IN (" + placeholders + ")"
with psycopg2.connect("dbname=inventory") as conn, conn.cursor() as cur:
    cur.execute(sql, skus)
    print(cur.fetchall())
"""),
    # ORDER BY column checked against an allow-list before formatting.
    _s("h8_safe_order_by_allowlist_abort", """\
import sqlite3
from flask import Flask, abort, request

app = Flask(__name__)
SORTABLE = {"id", "title", "priority", "created_at"}


@app.get("/tickets")
def tickets():
    sort = request.args.get("sort", "id")
    if sort not in SORTABLE:
        abort(400)
    direction = "DESC" if request.args.get("desc") == "1" else "ASC"
    con = sqlite3.connect("tickets.db")
    rows = con.execute(f"SELECT id, title FROM tickets ORDER BY {sort} {direction}").fetchall()
    return {"rows": rows}
"""),
    # Pagination values cast with int() before the f-string.
    _s("h8_safe_int_cast_limit_offset", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/feed")
def feed():
    limit = min(int(request.args.get("limit", 20)), 100)
    page = int(request.args.get("page", 1))
    offset = (page - 1) * limit
    con = sqlite3.connect("feed.db")
    rows = con.execute(
        f"SELECT id, body FROM posts ORDER BY id DESC LIMIT {limit} OFFSET {offset}"
    ).fetchall()
    return {"rows": rows}
"""),
    # os.system with shlex.quote around the argparse host.
    _s("h8_safe_shlex_quote_ping", """\
import argparse
import os
import shlex

parser = argparse.ArgumentParser()
parser.add_argument("host")
args = parser.parse_args()
rc = os.system(f"ping -c 3 {shlex.quote(args.host)} > /dev/null")
print("up" if rc == 0 else "down")
"""),
    # shlex.join builds the shell text from an argv list taken from sys.argv.
    _s("h8_safe_shlex_join_shell", """\
import shlex
import subprocess
import sys

src = sys.argv[1]
out = sys.argv[2]
cmd = shlex.join(["tar", "czf", out, src])
subprocess.run(cmd + " && echo done", shell=True, check=True)
"""),
    # argv list without a shell; the f-string only makes an output file name.
    _s("h8_safe_argv_list_ffmpeg", """\
import subprocess
import sys
from pathlib import Path

for name in sys.argv[1:]:
    src = Path(name)
    out = src.with_name(f"{src.stem}_720p.mp4")
    subprocess.run(["ffmpeg", "-y", "-i", str(src), "-vf", "scale=-2:720", str(out)], check=True)
    print(f"wrote {out}")
"""),
    # psycopg.sql composition: Identifier for the table, placeholder for the value.
    _s("h8_safe_psycopg3_sql_identifier", """\
from flask import Flask, request
import psycopg
from psycopg import sql

app = Flask(__name__)


@app.get("/rows")
def rows():
    table = request.args["table"]
    owner = request.args["owner"]
    q = sql.SQL("SELECT * FROM {} WHERE owner = %s LIMIT 50").format(
        sql.Identifier("public", table)
    )
    with psycopg.connect("dbname=app") as conn:
        return {"rows": conn.execute(q, (owner,)).fetchall()}
"""),
    # Module constant table name formatted into the query: constant-only formatting.
    _s("h8_safe_constant_table_fstring", """\
import sqlite3

TABLE = "events"
DAYS = 7


def recent_count(con):
    return con.execute(
        f"SELECT count(*) FROM {TABLE} WHERE ts >= date('now', '-{DAYS} day')"
    ).fetchone()[0]


print(recent_count(sqlite3.connect("events.db")))
"""),
    # SQLAlchemy ORM query with a filter expression on a request value.
    _s("h8_safe_sqlalchemy_orm_filter", """\
from flask import Flask, request
from sqlalchemy import String, create_engine, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

app = Flask(__name__)
engine = create_engine("sqlite:///users.db")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(200))


@app.get("/user")
def user():
    email = request.args["email"]
    with Session(engine) as s:
        u = s.scalars(select(User).where(User.email == email)).first()
        return {"id": u.id if u else None, "msg": f"looked up {email}"}
"""),
    # SQLAlchemy Core table expression with like() and a bound value.
    _s("h8_safe_sqlalchemy_core_like", """\
import sys
from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select

engine = create_engine("sqlite:///catalog.db")
meta = MetaData()
products = Table("products", meta, Column("id", Integer, primary_key=True), Column("name", String))

term = sys.argv[1]
stmt = select(products.c.id, products.c.name).where(products.c.name.like(f"%{term}%"))
with engine.connect() as conn:
    for row in conn.execute(stmt):
        print(row.id, row.name)
"""),
    # text() with a named bind parameter and a params dict.
    _s("h8_safe_text_bindparam_status", """\
from fastapi import FastAPI
from sqlalchemy import create_engine, text

app = FastAPI()
engine = create_engine("sqlite:///orders.db")
BY_STATUS = text("SELECT id, total FROM orders WHERE status = :status ORDER BY id")


@app.get("/orders/by-status")
def by_status(status: str):
    with engine.connect() as conn:
        rows = conn.execute(BY_STATUS, {"status": status}).all()
    return {"status": status, "count": len(rows), "ids": [r.id for r in rows]}
"""),
    # pandas read_sql with params=; the f-string only titles the plot.
    _s("h8_safe_read_sql_params_title", """\
import sys
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://report@db/market")
ticker = sys.argv[1].upper()
df = pd.read_sql(
    "SELECT day, close FROM prices WHERE symbol = %(sym)s ORDER BY day",
    engine,
    params={"sym": ticker},
)
ax = df.plot(x="day", y="close", title=f"{ticker} closing price")
ax.figure.savefig(f"{ticker}.png")
"""),
    # DuckDB prepared statement with ? and a list of parameters.
    _s("h8_safe_duckdb_prepared_qmark", """\
import duckdb

con = duckdb.connect("people.duckdb")
while True:
    name = input("name (empty to quit): ").strip()
    if not name:
        break
    print(f"results for {name}:")
    print(con.execute("SELECT * FROM people WHERE last_name = ?", [name]).fetchall())
"""),
    # Spark 3.4+ named parameter markers with args=; the widget value is bound.
    _s("h8_safe_spark_sql_args_markers", """\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
run_date = dbutils.widgets.get("run_date")
df = spark.sql(
    "SELECT * FROM bronze.orders WHERE order_date = :run_date",
    args={"run_date": run_date},
)
print(f"{df.count()} rows for {run_date}")
"""),
    # asyncpg $1 parameters; the f-string is the error message only.
    _s("h8_safe_asyncpg_dollar_params", """\
import asyncpg
from fastapi import FastAPI, HTTPException

app = FastAPI()


@app.get("/users/lookup")
async def lookup(username: str):
    conn = await asyncpg.connect("postgresql://app@localhost/app")
    try:
        row = await conn.fetchrow("SELECT id, email FROM users WHERE username = $1", username)
    finally:
        await conn.close()
    if row is None:
        raise HTTPException(404, f"no user named {username}")
    return dict(row)
"""),
    # Sort key mapped through a dict of constant SQL fragments (fallback on unknown keys).
    _s("h8_safe_sort_dict_of_constants", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)
ORDERINGS = {
    "new": "created_at DESC",
    "old": "created_at ASC",
    "top": "score DESC, created_at DESC",
}


@app.get("/posts")
def posts():
    order = ORDERINGS.get(request.args.get("sort", ""), "created_at DESC")
    con = sqlite3.connect("blog.db")
    rows = con.execute(f"SELECT id, title FROM posts ORDER BY {order} LIMIT 30").fetchall()
    return {"rows": rows}
"""),
    # Port number cast with int() before reaching a shell command.
    _s("h8_safe_int_port_fuser", """\
import os
import sys

port = int(sys.argv[1])
if not 0 < port < 65536:
    raise SystemExit("bad port")
os.system(f"fuser -k {port}/tcp")
"""),
    # Identifier validated with a regex fullmatch before formatting; value is bound.
    _s("h8_safe_regex_validated_table", """\
import re
import sqlite3
import sys

table, key = sys.argv[1], sys.argv[2]
if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,62}", table):
    raise SystemExit(f"invalid table name: {table}")
con = sqlite3.connect("kv.db")
print(con.execute(f'SELECT value FROM "{table}" WHERE key = ?', (key,)).fetchone())
"""),
    # argv list with an f-string element (no shell), version from argparse.
    _s("h8_safe_argv_fstring_element", """\
import argparse
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("version")
a = ap.parse_args()
subprocess.run(["git", "checkout", "-b", f"release/{a.version}", "origin/main"], check=True)
subprocess.run(["git", "tag", "-a", f"v{a.version}", "-m", f"Release {a.version}"], check=True)
"""),
    # Paramiko exec_command with a shlex.quote-d log name.
    _s("h8_safe_paramiko_shlex_quote", """\
import argparse
import shlex
import paramiko

ap = argparse.ArgumentParser()
ap.add_argument("host")
ap.add_argument("logname")
args = ap.parse_args()
client = paramiko.SSHClient()
client.load_system_host_keys()
client.connect(args.host)
path = shlex.quote(f"/var/log/{args.logname}")
_, out, _ = client.exec_command(f"tail -n 100 {path}")
print(out.read().decode())
"""),
    # asyncio.create_subprocess_exec with separate arguments from the request.
    _s("h8_safe_create_subprocess_exec", """\
import asyncio
from aiohttp import web


async def trace(request):
    host = request.match_info["host"]
    proc = await asyncio.create_subprocess_exec(
        "traceroute", "-m", "10", host, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    return web.Response(text=f"trace to {host}:\\n" + out.decode())


app = web.Application()
app.router.add_get("/trace/{host}", trace)
"""),
    # Named placeholders :p0, :p1 generated with f-strings; values go in the params dict.
    _s("h8_safe_named_placeholders_fstring", """\
from flask import Flask, request
from sqlalchemy import create_engine, text

app = Flask(__name__)
engine = create_engine("postgresql://ro@db/crm")


@app.get("/customers")
def customers():
    cities = request.args.getlist("city")
    names = [f":c{i}" for i in range(len(cities))]
    params = {f"c{i}": city for i, city in enumerate(cities)}
    stmt = text(f"SELECT id, name FROM customers WHERE city IN ({', '.join(names)})")
    with engine.connect() as conn:
        return {"rows": [list(r) for r in conn.execute(stmt, params)]}
"""),
    # Table name checked against the inspector's table list before formatting.
    _s("h8_safe_inspector_table_check", """\
import sys
from sqlalchemy import create_engine, inspect, text

engine = create_engine("sqlite:///warehouse.db")
table = sys.argv[1]
if table not in inspect(engine).get_table_names():
    raise SystemExit(f"unknown table {table!r}")
with engine.connect() as conn:
    print(conn.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one())
"""),
    # .format with module constants only.
    _s("h8_safe_format_constants_only", """\
import psycopg2

SCHEMA = "reporting"
TABLES = ("daily_sales", "daily_visits")
TEMPLATE = "REFRESH MATERIALIZED VIEW CONCURRENTLY {schema}.{table}"

with psycopg2.connect("dbname=dw") as conn, conn.cursor() as cur:
    for t in TABLES:
        cur.execute(TEMPLATE.format(schema=SCHEMA, table=t))
"""),
    # % formatting of a literal into DROP TABLE.
    _s("h8_safe_percent_literal_drop", """\
import sqlite3

con = sqlite3.connect("import.db")
for name in ("tmp_import", "tmp_dedup"):
    con.execute("DROP TABLE IF EXISTS %s" % name)
con.execute("CREATE TABLE tmp_import AS SELECT * FROM raw WHERE 0")
con.commit()
"""),
    # Today's date computed by the code, formatted into spark.sql.
    _s("h8_safe_spark_today_date", """\
from datetime import date, timedelta
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
yesterday = (date.today() - timedelta(days=1)).isoformat()
spark.sql(f"ALTER TABLE logs.requests ADD IF NOT EXISTS PARTITION (dt='{yesterday}')")
spark.sql(f"ANALYZE TABLE logs.requests PARTITION (dt='{yesterday}') COMPUTE STATISTICS")
"""),
    # uuid-generated temporary table name; the user data is bound.
    _s("h8_safe_uuid_temp_table", """\
import uuid
import psycopg2
from flask import Flask, request

app = Flask(__name__)


@app.post("/bulk")
def bulk():
    rows = [(r["sku"], int(r["qty"])) for r in request.get_json()]
    tmp = f"tmp_bulk_{uuid.uuid4().hex}"
    with psycopg2.connect("dbname=inventory") as conn, conn.cursor() as cur:
        cur.execute(f"CREATE TEMP TABLE {tmp} (sku text, qty int)")
        cur.executemany(f"INSERT INTO {tmp} VALUES (%s, %s)", rows)
        cur.execute(f"UPDATE stock s SET qty = t.qty FROM {tmp} t WHERE s.sku = t.sku")
    return {"updated": len(rows)}
"""),
    # Fabric with shlex.quote on the image from click.
    _s("h8_safe_fabric_shlex_quote", """\
import shlex
import click
from fabric import Connection


@click.command()
@click.option("--host", required=True)
@click.option("--image", required=True)
def deploy(host, image):
    img = shlex.quote(image)
    c = Connection(host, user="ops")
    c.run(f"docker pull {img}")
    click.echo(f"pulled {image} on {host}")


if __name__ == "__main__":
    deploy()
"""),
    # polars read_database with execute_options parameters.
    _s("h8_safe_polars_execute_options", """\
import sqlite3
import sys
import polars as pl

conn = sqlite3.connect("crm.db")
customer_id = sys.argv[1]
df = pl.read_database(
    "SELECT ts, kind FROM events WHERE customer_id = ?",
    connection=conn,
    execute_options={"parameters": [customer_id]},
)
print(df.head())
"""),
    # Column list joined from a constant list; the value is bound.
    _s("h8_safe_constant_column_join", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)
COLUMNS = ["id", "name", "email", "created_at"]


@app.get("/members")
def members():
    cols = ", ".join(COLUMNS)
    con = sqlite3.connect("club.db")
    cur = con.execute(f"SELECT {cols} FROM members WHERE team = ?", (request.args["team"],))
    return {"rows": [dict(zip(COLUMNS, r)) for r in cur]}
"""),
    # Shell text built from module constants only.
    _s("h8_safe_shell_constants_fstring", """\
import os

BUILD_DIR = "/srv/app/build"
ARTIFACT = "app.tar.gz"
JOBS = os.cpu_count() or 2

os.system(f"make -C {BUILD_DIR} -j{JOBS} && tar czf {ARTIFACT} -C {BUILD_DIR} dist")
"""),
    # argparse choices restrict the environment name before it reaches the shell.
    _s("h8_safe_argparse_choices_env", """\
import argparse
import os

ap = argparse.ArgumentParser()
ap.add_argument("env", choices=["dev", "staging", "prod"])
args = ap.parse_args()
os.system(f"ansible-playbook -i inventories/{args.env} site.yml")
"""),
    # Column names filtered against an allow-list; values bound with named params.
    _s("h8_safe_filter_allowed_columns_params", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)
FILTERABLE = ("make", "model", "year", "color")


@app.get("/cars")
def cars():
    conds, params = [], {}
    for col in FILTERABLE:
        if col in request.args:
            conds.append(f"{col} = :{col}")
            params[col] = request.args[col]
    sql = "SELECT make, model, year FROM cars"
    if conds:
        sql += " WHERE " + " AND ".join(conds)
    return {"cars": sqlite3.connect("cars.db").execute(sql, params).fetchall()}
"""),
    # f-string in a raised exception and a returned message, query parameterized.
    _s("h8_safe_fstring_messages_only", """\
import sqlite3
import sys


def cancel(con, job_id):
    cur = con.execute("UPDATE jobs SET state = 'cancelled' WHERE id = ?", (job_id,))
    if cur.rowcount == 0:
        raise LookupError(f"job {job_id} not found")
    con.commit()
    return f"cancelled job {job_id}"


print(cancel(sqlite3.connect("jobs.db"), sys.argv[1]))
"""),
    # executemany with a constant table and qmark placeholders.
    _s("h8_safe_executemany_constant_table", """\
import csv
import sqlite3
import sys

with open(sys.argv[1], newline="") as fh:
    rows = [(r["name"], r["email"]) for r in csv.DictReader(fh)]
con = sqlite3.connect("contacts.db")
con.executemany("INSERT INTO contacts (name, email) VALUES (?, ?)", rows)
con.commit()
print(f"imported {len(rows)} rows from {sys.argv[1]}")
"""),
    # subprocess.run with a list and shell=False explicitly; input from the request body.
    _s("h8_safe_shell_false_list_request", """\
import subprocess
from flask import Flask, request

app = Flask(__name__)


@app.post("/clone")
def clone():
    body = request.get_json()
    dest = "/srv/checkouts/" + str(abs(hash(body["repo_url"])))
    r = subprocess.run(["git", "clone", "--depth", "1", "--", body["repo_url"], dest], shell=False)
    return {"rc": r.returncode, "dest": dest}
"""),
    # Query built with an f-string from a validated int list (int() per element).
    _s("h8_safe_int_list_in_clause", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


@app.get("/bulk")
def bulk():
    ids = [int(x) for x in request.args.get("ids", "").split(",") if x]
    if not ids:
        return {"rows": []}
    id_list = ",".join(str(i) for i in ids)
    con = sqlite3.connect("shop.db")
    return {"rows": con.execute(f"SELECT * FROM products WHERE id IN ({id_list})").fetchall()}
"""),

    # pyformat query bound with a dict; the % operator only renders a debug print.
    _s("h8_safe_pyformat_bound_debug_print", """\
import psycopg2
import sys

name = sys.argv[1]
query = "SELECT id, email FROM users WHERE name = %(name)s"
print("debug:", query % {"name": repr(name)})
with psycopg2.connect("dbname=app") as conn, conn.cursor() as cur:
    cur.execute(query, {"name": name})
    print(cur.fetchall())
"""),
    # psycopg2.sql.Literal composition for a value from the request.
    _s("h8_safe_psycopg2_sql_literal", """\
import psycopg2
from psycopg2 import sql
from flask import Flask, request

app = Flask(__name__)


@app.get("/notes")
def notes():
    tag = request.args.get("tag", "")
    q = sql.SQL("SELECT id, body FROM notes WHERE tag = {} ORDER BY id").format(sql.Literal(tag))
    with psycopg2.connect("dbname=notes") as conn, conn.cursor() as cur:
        cur.execute(q)
        return {"rows": cur.fetchall()}
"""),
    # % formatting of a status message after a parameterized DELETE.
    _s("h8_safe_percent_message_after_delete", """\
import logging
import sqlite3
from flask import Flask, request

app = Flask(__name__)
log = logging.getLogger("sessions")


@app.post("/logout")
def logout():
    token = request.cookies.get("session_token", "")
    con = sqlite3.connect("web.db")
    n = con.execute("DELETE FROM sessions WHERE token = ?", (token,)).rowcount
    con.commit()
    msg = "removed %d session(s) for token %s..." % (n, token[:6])
    log.info(msg)
    return msg
"""),
    # executescript of DDL built from constants and an int schema version.
    _s("h8_safe_executescript_constant_ddl", """\
import sqlite3

SCHEMA_VERSION = 4
TABLES = {
    "users": "id INTEGER PRIMARY KEY, name TEXT",
    "audit": "id INTEGER PRIMARY KEY, ts TEXT, what TEXT",
}

ddl = "\\n".join(f"CREATE TABLE IF NOT EXISTS {name} ({cols});" for name, cols in TABLES.items())
con = sqlite3.connect("app.db")
con.executescript(ddl + f"\\nPRAGMA user_version = {SCHEMA_VERSION};")
con.close()
"""),
    # ------------------------------------------------------------------ safe notebooks
    # Constant-only shell lines: a pinned pip install and a listing of a constant folder.
    _nb("h8_safe_nb_constant_shell_lines", False,
        "!pip install -q pandas==2.2.2 pyarrow",
        "DATA_DIR = 'data/raw'\n!mkdir -p {DATA_DIR}\n!ls -lh {DATA_DIR}",
        "import pandas as pd\npd.__version__"),
    # Downloaded URL typed by the user but quoted with shlex.quote inside {...}.
    _nb("h8_safe_nb_wget_shlex_quote", False,
        "import shlex\nurl = input('Dataset URL: ')",
        "!wget -q {shlex.quote(url)} -O data/download.zip\n!unzip -o data/download.zip -d data/"),
    # JupySQL template with an int-cast limit from a slider widget.
    _nb("h8_safe_nb_jupysql_int_limit", False,
        "%load_ext sql\n"
        "%sql duckdb:///taxi.duckdb\n"
        "import ipywidgets as widgets\n"
        "slider = widgets.IntSlider(value=10, min=1, max=100)\n"
        "slider",
        "limit = int(slider.value)",
        "%sql SELECT vendor_id, COUNT(*) AS n FROM trips GROUP BY vendor_id "
        "ORDER BY n DESC LIMIT {{limit}}"),
    # Query with bound parameters across cells; input() only feeds params.
    _nb("h8_safe_nb_read_sql_params_cells", False,
        "import sqlite3\nimport pandas as pd\nconn = sqlite3.connect('northwind.db')",
        "customer = input('Customer ID: ')",
        "q = '''\nSELECT OrderID, OrderDate, Freight\nFROM Orders\nWHERE CustomerID = ?\n'''",
        "orders = pd.read_sql(q, conn, params=(customer,))\n"
        "print(f'{len(orders)} orders for {customer}')"),
    # Markdown display of user input via f-string; the SQL itself is constant.
    _nb("h8_safe_nb_markdown_fstring_display", False,
        "from IPython.display import Markdown, display\nimport duckdb\nwho = input('Your name: ')",
        "display(Markdown(f'### Report prepared for **{who}**'))",
        "duckdb.sql('SELECT category, SUM(amount) AS total FROM sales GROUP BY category').df()"),
    # Capture of a constant shell listing; the names go to pandas, not to a sink.
    _nb("h8_safe_nb_capture_ls_read_csv", False,
        "files = !ls data/*.csv",
        "import pandas as pd\n"
        "frames = [pd.read_csv(f) for f in files]\n"
        "df = pd.concat(frames, ignore_index=True)",
        "print(f'{len(files)} files, {len(df)} rows')"),
    # Databricks widget validated against an allow-list before spark.sql.
    _nb("h8_safe_nb_databricks_widget_allowlist", False,
        "dbutils.widgets.dropdown('table_name', 'sales', ['sales', 'returns', 'refunds'])",
        "ALLOWED = {'sales', 'returns', 'refunds'}\n"
        "table_name = dbutils.widgets.get('table_name')\n"
        "if table_name not in ALLOWED:\n"
        "    raise ValueError(f'unexpected table {table_name}')",
        "display(spark.sql(f'SELECT * FROM analytics.{table_name} LIMIT 100'))"),
    # get_ipython().system with shlex.join of an argv list built from user input.
    _nb("h8_safe_nb_system_shlex_join", False,
        "import shlex\nspec = input('package: ').strip()",
        "get_ipython().system(shlex.join(['pip', 'install', '--quiet', spec]))"),
    # DuckDB notebook with ? parameters for a widget value.
    _nb("h8_safe_nb_duckdb_param_widget", False,
        "import duckdb\n"
        "import ipywidgets as widgets\n"
        "con = duckdb.connect('trips.duckdb')\n"
        "box = widgets.Text(value='CRD', description='payment')\n"
        "box",
        "con.execute('SELECT COUNT(*) FROM trips WHERE payment_type = ?', [box.value]).fetchone()"),
    # !echo of an int computed from the data; no external text reaches the shell.
    _nb("h8_safe_nb_echo_int_len", False,
        "import pandas as pd\n"
        "df = pd.read_csv('data/users.csv')\n"
        "n = len(df)\n"
        "n_cols = int(df.shape[1])",
        "!echo rows={n} cols={n_cols} >> data/stats.txt\n!tail -1 data/stats.txt"),
]
