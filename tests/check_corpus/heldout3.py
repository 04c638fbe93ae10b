"""Held-out corpus 3: application and library code whose query or command travels over lines."""

from __future__ import annotations

from .cases import Case, _s, _v

SQL_VULNERABLE = [
    _v(
        "h3_repo_list_sorted",
        """
import sqlite3


class UserRepository:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def list(self, sort: str = "created_at", direction: str = "desc", limit: int = 50):
        sql = "SELECT id, email, created_at FROM users"
        sql += f" ORDER BY {sort} {direction}"
        sql += f" LIMIT {limit}"
        return self.conn.execute(sql).fetchall()
""",
    ),
    _v(
        "h3_search_builder_tuple",
        """
def build_search(filters: dict, order: str) -> tuple[str, list]:
    clauses, params = [], []
    if "name" in filters:
        clauses.append("name ILIKE %s")
        params.append(f"%{filters['name']}%")
    if "city" in filters:
        clauses.append("city = %s")
        params.append(filters["city"])
    where = " AND ".join(clauses) or "TRUE"
    return f"SELECT * FROM customers WHERE {where} ORDER BY {order}", params


def search(cur, args):
    cur.execute(*build_search(args, args.get("order", "id")))
    return cur.fetchall()
""",
    ),
    _v(
        "h3_base_dao_kwargs_values",
        """
class BaseDAO:
    table_name: str = ""

    def __init__(self, cursor):
        self.cursor = cursor

    def find(self, **kwargs):
        clauses = " AND ".join(f"{k} = '{v}'" for k, v in kwargs.items())
        self.cursor.execute(f"SELECT * FROM {self.table_name} WHERE {clauses}")
        return self.cursor.fetchall()


class OrderDAO(BaseDAO):
    table_name = "orders"

    def by_customer(self, customer_ref):
        return self.find(customer_ref=customer_ref, status="open")
""",
    ),
    _v(
        "h3_flask_filter_columns",
        """
from flask import Flask, jsonify, request

from .db import get_cursor

app = Flask(__name__)


def select_where(table, **filters):
    where = " AND ".join(f"{column} = %s" for column in filters)
    sql = f"SELECT * FROM {table}" + (f" WHERE {where}" if where else "")
    with get_cursor() as cur:
        cur.execute(sql, list(filters.values()))
        return cur.fetchall()


@app.get("/products")
def products():
    return jsonify(select_where("products", **request.args.to_dict()))
""",
    ),
    _v(
        "h3_dataclass_report_config",
        """
import argparse
from dataclasses import dataclass

import pandas as pd
from sqlalchemy import create_engine


@dataclass
class ReportConfig:
    schema: str
    start: str
    end: str


def load(cfg: ReportConfig, engine):
    query = (
        f"SELECT day, sum(total) AS revenue FROM {cfg.schema}.orders "
        f"WHERE day BETWEEN '{cfg.start}' AND '{cfg.end}' GROUP BY day"
    )
    return pd.read_sql(query, engine)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("schema")
    p.add_argument("start")
    p.add_argument("end")
    a = p.parse_args()
    print(load(ReportConfig(a.schema, a.start, a.end), create_engine("postgresql:///shop")))
""",
    ),
    _v(
        "h3_pydantic_export_request",
        """
from fastapi import APIRouter, Depends
from pydantic import BaseModel
from sqlalchemy import text
from sqlalchemy.orm import Session

from .deps import get_session

router = APIRouter()


class ExportRequest(BaseModel):
    table: str
    where: str | None = None
    limit: int = 1000


@router.post("/export")
def export(req: ExportRequest, session: Session = Depends(get_session)):
    stmt = f"SELECT * FROM {req.table}"
    if req.where:
        stmt += f" WHERE {req.where}"
    stmt += f" LIMIT {req.limit}"
    rows = session.execute(text(stmt)).mappings().all()
    return {"rows": [dict(r) for r in rows]}
""",
    ),
    _v(
        "h3_format_locals_count",
        """
def count_rows(cur, schema, table):
    sql = "SELECT count(*) FROM {schema}.{table}".format(**locals())
    cur.execute(sql)
    return cur.fetchone()[0]


def audit(conn, tables):
    cur = conn.cursor()
    return {t: count_rows(cur, "public", t) for t in tables}
""",
    ),
    _v(
        "h3_percent_dict_events",
        """
EVENTS_SQL = '''
    SELECT id, payload
    FROM events
    WHERE source = '%(source)s'
      AND day = '%(day)s'
'''


def events_for(conn, source, day):
    cur = conn.cursor()
    cur.execute(EVENTS_SQL % {"source": source, "day": day})
    return cur.fetchall()
""",
    ),
    _v(
        "h3_template_delete_cli",
        """
import sqlite3
import sys
from string import Template

DELETE = Template("DELETE FROM $table WHERE id = $row_id")


def main():
    table, row_id = sys.argv[1], sys.argv[2]
    with sqlite3.connect("app.db") as conn:
        conn.execute(DELETE.substitute(table=table, row_id=row_id))


if __name__ == "__main__":
    main()
""",
    ),
    _v(
        "h3_log_then_execute",
        """
import logging

log = logging.getLogger(__name__)


def deactivate(conn, username):
    sql = f"UPDATE accounts SET active = false WHERE username = '{username}'"
    log.debug("running %s", sql)
    with conn.cursor() as cursor:
        cursor.execute(sql)
    conn.commit()
""",
    ),
    _v(
        "h3_retry_loop_insert",
        """
import time

import psycopg2


def record_visit(dsn, page, visitor):
    stmt = "INSERT INTO visits (page, visitor) VALUES ('%s', '%s')" % (page, visitor)
    for attempt in range(5):
        try:
            with psycopg2.connect(dsn) as conn, conn.cursor() as cur:
                cur.execute(stmt)
            return
        except psycopg2.OperationalError:
            time.sleep(2 ** attempt)
    raise RuntimeError("database unavailable")
""",
    ),
    _v(
        "h3_asyncpg_orders_status",
        """
import asyncpg


async def get_orders(pool: asyncpg.Pool, status: str, limit: int = 100):
    async with pool.acquire() as conn:
        return await conn.fetch(
            f"SELECT id, total FROM orders WHERE status = '{status}' ORDER BY id DESC LIMIT {limit}"
        )
""",
    ),
    _v(
        "h3_aiomysql_fetch_helper",
        """
import aiomysql


async def fetch(pool, query):
    async with pool.acquire() as conn:
        async with conn.cursor(aiomysql.DictCursor) as cur:
            await cur.execute(query)
            return await cur.fetchall()


async def player_stats(pool, name):
    return await fetch(pool, f"SELECT * FROM player_stats WHERE name = '{name}'")
""",
    ),
    _v(
        "h3_databases_notes_owner",
        """
from databases import Database
from fastapi import FastAPI

database = Database("postgresql://localhost/notes")
app = FastAPI()


@app.get("/notes/{owner}")
async def notes(owner: str, tag: str = ""):
    query = f"SELECT id, text FROM notes WHERE owner = '{owner}'"
    if tag:
        query += f" AND '{tag}' = ANY(tags)"
    return await database.fetch_all(query=query)
""",
    ),
    _v(
        "h3_sqlalchemy_async_text_email",
        """
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine


class AccountStore:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def by_email(self, email: str):
        async with self.engine.connect() as conn:
            result = await conn.execute(
                text(f"SELECT id, email, plan FROM accounts WHERE lower(email) = lower('{email}')")
            )
            return result.first()
""",
    ),
    _v(
        "h3_django_raw_sort",
        """
from django.shortcuts import render

from .models import Article


def article_list(request):
    sort = request.GET.get("sort", "published")
    articles = Article.objects.raw(
        f"SELECT * FROM blog_article WHERE status = 'live' ORDER BY {sort} DESC"
    )
    return render(request, "blog/list.html", {"articles": articles})
""",
    ),
    _v(
        "h3_django_rawsql_rank",
        """
from django.db.models.expressions import RawSQL

from .models import Document


def ranked(term):
    rank = RawSQL(f"ts_rank(search_vector, plainto_tsquery('english', '{term}'))", [])
    return Document.objects.annotate(rank=rank).order_by("-rank")[:20]
""",
    ),
    _v(
        "h3_django_extra_price",
        """
from django.http import JsonResponse

from .models import Product


def cheap_products(request):
    max_price = request.GET.get("max", "100")
    qs = Product.objects.extra(where=[f"price <= {max_price}"]).values("id", "name", "price")
    return JsonResponse(list(qs), safe=False)
""",
    ),
    _v(
        "h3_sqlalchemy_literal_column_label",
        """
from sqlalchemy import literal_column, select

from .models import Measurement


def tagged_measurements(session, label: str):
    stmt = select(
        Measurement.id,
        Measurement.value,
        literal_column(f"'{label}'").label("tag"),
    ).where(Measurement.value.isnot(None))
    return session.execute(stmt).all()
""",
    ),
    _v(
        "h3_peewee_sql_like",
        """
from peewee import SQL

from .models import Tweet


def search_tweets(needle: str, page: int = 1):
    return (
        Tweet.select()
        .where(SQL(f"content LIKE '%{needle}%'"))
        .order_by(Tweet.created.desc())
        .paginate(page, 20)
    )
""",
    ),
    _v(
        "h3_pony_select_by_sql",
        """
from pony.orm import db_session

from .models import Person


@db_session
def people_named(name, min_age):
    return Person.select_by_sql(
        "SELECT * FROM Person WHERE name = '" + name + "' AND age >= " + str(min_age)
    )
""",
    ),
    _v(
        "h3_pymysql_product_like",
        """
import pymysql


def search_products(term):
    conn = pymysql.connect(host="localhost", user="shop", database="shop")
    try:
        with conn.cursor() as cursor:
            cursor.execute("SELECT id, name FROM products WHERE name LIKE '%" + term + "%'")
            return cursor.fetchall()
    finally:
        conn.close()
""",
    ),
    _v(
        "h3_mysql_connector_in_ids",
        """
import mysql.connector
from flask import request


def selected_items():
    ids = ",".join(request.form.getlist("item"))
    cnx = mysql.connector.connect(user="app", database="inventory")
    cursor = cnx.cursor(dictionary=True)
    cursor.execute(f"SELECT * FROM items WHERE id IN ({ids})")
    rows = cursor.fetchall()
    cnx.close()
    return rows
""",
    ),
    _v(
        "h3_clickhouse_driver_logs",
        """
from clickhouse_driver import Client

client = Client("clickhouse.internal")


def recent_errors(service: str, hours: str):
    return client.execute(
        f'''
        SELECT ts, message
        FROM logs
        WHERE service = '{service}'
          AND level = 'error'
          AND ts > now() - INTERVAL {hours} HOUR
        ORDER BY ts DESC
        '''
    )
""",
    ),
    _v(
        "h3_clickhouse_connect_df",
        """
import os

import clickhouse_connect

client = clickhouse_connect.get_client(host=os.environ["CH_HOST"])
tenant = os.environ["TENANT"]


def daily_usage():
    q = "SELECT toDate(ts) AS day, count() AS n FROM usage WHERE tenant = '{}' GROUP BY day"
    q = q.format(tenant)
    return client.query_df(q)
""",
    ),
    _v(
        "h3_bigquery_table_ref",
        """
import os

from fastapi import FastAPI
from google.cloud import bigquery

PROJECT_ID = os.getenv("GCP_PROJECT_ID")
DATASET = os.getenv("BQ_DATASET")
client = bigquery.Client()
app = FastAPI()


def get_table_ref(table_name: str) -> str:
    return f"{PROJECT_ID}.{DATASET}.{table_name}"


@app.get("/sales")
def sales(region: str):
    job = client.query(f"SELECT * FROM `{get_table_ref('sales')}` WHERE region = '{region}'")
    return [dict(row) for row in job.result()]
""",
    ),
    _v(
        "h3_snowflake_copy_into",
        """
import sys

import snowflake.connector


def load(target: str, stage: str, prefix: str):
    ctx = snowflake.connector.connect(
        account="acme", user="loader", authenticator="externalbrowser"
    )
    cs = ctx.cursor()
    try:
        cs.execute(f"COPY INTO {target} FROM @{stage}/{prefix} FILE_FORMAT = (TYPE = PARQUET)")
    finally:
        cs.close()
        ctx.close()


if __name__ == "__main__":
    load(*sys.argv[1:4])
""",
    ),
    _v(
        "h3_update_set_fields",
        """
class ItemRepository:
    def __init__(self, conn):
        self.conn = conn

    def update(self, item_id, **fields):
        sets = ", ".join(f"{k} = '{v}'" for k, v in fields.items())
        with self.conn.cursor() as cur:
            cur.execute("UPDATE items SET " + sets + " WHERE id = %s", (item_id,))
        self.conn.commit()
""",
    ),
    _v(
        "h3_dedent_strip_chain",
        """
import textwrap


def region_totals(cursor, region, year):
    sql = textwrap.dedent(
        f'''
        SELECT product, SUM(amount)
        FROM sales
        WHERE region = '{region}' AND year = {year}
        GROUP BY product
        '''
    ).strip()
    cursor.execute(sql)
    return cursor.fetchall()
""",
    ),
    _v(
        "h3_partial_read_sql",
        """
import functools
import sys

import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql:///warehouse")
query = functools.partial(pd.read_sql, con=engine)


def preview(table, n=10):
    return query(f"SELECT * FROM {table} LIMIT {n}")


if __name__ == "__main__":
    print(preview(sys.argv[1]))
""",
    ),
    _v(
        "h3_closure_finder",
        """
import sqlite3


def make_finder(conn, table):
    def find(value):
        return conn.execute(f"SELECT * FROM {table} WHERE name = '{value}'").fetchall()

    return find


if __name__ == "__main__":
    find_city = make_finder(sqlite3.connect("geo.db"), "cities")
    print(find_city(input("city: ")))
""",
    ),
    _v(
        "h3_transaction_context_delete",
        """
from contextlib import contextmanager


@contextmanager
def transaction(conn):
    cur = conn.cursor()
    try:
        yield cur
        conn.commit()
    except Exception:
        conn.rollback()
        raise
    finally:
        cur.close()


def logout_everywhere(conn, user_id):
    with transaction(conn) as cur:
        cur.execute("DELETE FROM sessions WHERE user_id = " + user_id)
""",
    ),
    _v(
        "h3_report_self_query",
        """
class RevenueReport:
    def __init__(self, start, end, currency):
        self.query = (
            "SELECT date_trunc('month', paid_at) AS m, sum(amount) FROM payments "
            f"WHERE paid_at >= '{start}' AND paid_at < '{end}' AND currency = '{currency}' "
            "GROUP BY m ORDER BY m"
        )

    def run(self, conn):
        with conn.cursor() as cur:
            cur.execute(self.query)
            return cur.fetchall()
""",
    ),
    _v(
        "h3_module_template_lookup",
        """
LOOKUP = "SELECT * FROM {table} WHERE {column} = '{value}'"


def lookup(cur, table, column, value):
    cur.execute(LOOKUP.format(table=table, column=column, value=value))
    return cur.fetchone()
""",
    ),
    _v(
        "h3_duckdb_parquet_country",
        """
import argparse

import duckdb


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("path")
    parser.add_argument("--country", default="DE")
    args = parser.parse_args()
    rel = duckdb.sql(
        f"SELECT city, count(*) FROM read_parquet('{args.path}') "
        f"WHERE country = '{args.country}' GROUP BY city"
    )
    rel.show()


if __name__ == "__main__":
    main()
""",
    ),
    _v(
        "h3_polars_read_database_kw",
        """
import polars as pl


def load_sensor(conn, sensor_id: str, since: str) -> pl.DataFrame:
    return pl.read_database(
        query=f"SELECT ts, value FROM readings WHERE sensor = '{sensor_id}' AND ts >= '{since}'",
        connection=conn,
    )
""",
    ),
    _v(
        "h3_exec_driver_sql_truncate",
        """
from sqlalchemy import create_engine


def reset_tables(url, tables):
    engine = create_engine(url)
    with engine.begin() as conn:
        for table in tables:
            conn.exec_driver_sql("TRUNCATE " + table + " RESTART IDENTITY CASCADE")
""",
    ),
    _v(
        "h3_csv_bulk_insert_join",
        """
import csv
import sqlite3


def import_stock(path, db="stock.db"):
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    values = ", ".join(f"('{r['name']}', {r['qty']})" for r in rows)
    with sqlite3.connect(db) as conn:
        conn.execute(f"INSERT INTO stock (name, qty) VALUES {values}")
""",
    ),
    _v(
        "h3_branch_since_filter",
        """
def list_tickets(cur, since=None):
    if since:
        q = f"SELECT id, title FROM tickets WHERE created_at > '{since}' ORDER BY id"
    else:
        q = "SELECT id, title FROM tickets ORDER BY id"
    cur.execute(q)
    return cur.fetchall()
""",
    ),
    _v(
        "h3_sqlite_executescript_attach",
        """
import sqlite3


def merge_archive(main_db, archive_path):
    conn = sqlite3.connect(main_db)
    conn.executescript(
        f'''
        ATTACH DATABASE '{archive_path}' AS archive;
        INSERT INTO events SELECT * FROM archive.events;
        DETACH DATABASE archive;
        '''
    )
    conn.close()
""",
    ),
]

SHELL_VULNERABLE = [
    _v(
        "h3_run_helper_clone",
        """
import subprocess


def run(cmd, cwd="./"):
    return subprocess.run(cmd, cwd=cwd, shell=True, check=True, text=True, capture_output=True)


def clone(url, dest, branch="main"):
    run(f"git clone --depth 1 --branch {branch} {url} {dest}")
    return run("git rev-parse HEAD", cwd=dest).stdout.strip()
""",
    ),
    _v(
        "h3_decorator_returns_command",
        """
import functools
import os


def shell_command(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        cmd = func(*args, **kwargs)
        status = os.system(cmd)
        if status:
            raise RuntimeError(f"{func.__name__} failed with {status}")

    return wrapper


@shell_command
def backup(database, target_dir="/backups"):
    return f"pg_dump --format=custom {database} > {target_dir}/{database}.dump"
""",
    ),
    _v(
        "h3_paramiko_tail_log",
        """
import paramiko


class RemoteLogs:
    def __init__(self, host, user):
        self.client = paramiko.SSHClient()
        self.client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        self.client.connect(host, username=user)

    def tail(self, service, lines=100):
        _, stdout, _ = self.client.exec_command(f"tail -n {lines} /var/log/{service}.log")
        return stdout.read().decode()
""",
    ),
    _v(
        "h3_scp_popen_percent",
        """
import subprocess


def push(local, host, remote):
    proc = subprocess.Popen("scp -q %s %s:%s" % (local, host, remote), shell=True)
    return proc.wait()
""",
    ),
    _v(
        "h3_rsync_join_check_call",
        """
import subprocess


def sync(src, user, host, dest, dry_run=False):
    parts = ["rsync", "-az", "--delete"]
    if dry_run:
        parts.append("--dry-run")
    parts += [src, f"{user}@{host}:{dest}"]
    cmd = " ".join(parts)
    subprocess.check_call(cmd, shell=True)
""",
    ),
    _v(
        "h3_docker_exec_psql",
        """
import os


def run_in_db_container(container, statement):
    return os.system(f"docker exec -i {container} psql -U postgres -c \\"{statement}\\"")
""",
    ),
    _v(
        "h3_kubectl_exec_join",
        """
import subprocess

KUBECTL = "kubectl"


def _run(command):
    proc = subprocess.Popen(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    return out.decode(), err.decode()


def exec_in_pod(namespace, pod, sub_command):
    command = " ".join([KUBECTL, "-n", namespace, "exec", pod, "--"] + sub_command)
    return _run(command)
""",
    ),
    _v(
        "h3_psql_copy_shell",
        """
import subprocess


def export_table(dsn: str, table: str, out_path: str) -> None:
    subprocess.run(
        f'psql "{dsn}" -c "COPY {table} TO STDOUT WITH CSV HEADER" > {out_path}',
        shell=True,
        check=True,
    )
""",
    ),
    _v(
        "h3_mysqldump_getoutput_env",
        """
import os
import subprocess

user = os.environ["DB_USER"]
password = os.environ["DB_PASSWORD"]


def dump(db, table):
    return subprocess.getoutput(
        f"mysqldump -u{user} -p{password} --single-transaction {db} {table}"
    )
""",
    ),
    _v(
        "h3_asyncio_ffmpeg_shell",
        """
import asyncio


async def thumbnail(src: str, dst: str, width: int = 320):
    proc = await asyncio.create_subprocess_shell(
        f"ffmpeg -y -i {src} -vf scale={width}:-1 -frames:v 1 {dst}",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    if proc.returncode:
        raise RuntimeError(err.decode())
""",
    ),
    _v(
        "h3_bash_c_git_log",
        """
import subprocess


def changes_since(repo_dir, rev):
    result = subprocess.run(
        ["bash", "-c", f"cd {repo_dir} && git log --oneline {rev}..HEAD"],
        capture_output=True,
        text=True,
    )
    return result.stdout.splitlines()
""",
    ),
    _v(
        "h3_mounted_context",
        """
import os
from contextlib import contextmanager


@contextmanager
def mounted(device, mountpoint):
    os.makedirs(mountpoint, exist_ok=True)
    os.system(f"mount {device} {mountpoint}")
    try:
        yield mountpoint
    finally:
        os.system(f"umount {mountpoint}")
""",
    ),
    _v(
        "h3_curl_retry_loop",
        """
import os
import time


def download(url, out, retries=3):
    for attempt in range(retries):
        rc = os.system("curl -fsSL -o %s %s" % (out, url))
        if rc == 0:
            return out
        time.sleep(attempt + 1)
    raise IOError(url)
""",
    ),
    _v(
        "h3_webhook_checkout_branch",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)
REPO = "/srv/site"


@app.post("/hook")
def hook():
    payload = request.get_json()
    branch = payload["ref"].split("/")[-1]
    out = subprocess.check_output(
        f"git fetch origin && git checkout {branch} && git pull", shell=True, cwd=REPO
    )
    return out.decode()
""",
    ),
    _v(
        "h3_template_convert_popen",
        """
import os
from string import Template

RESIZE = Template("convert $src -resize ${size} $dst")


def resize(src, dst, size="800x600"):
    with os.popen(RESIZE.substitute(src=src, dst=dst, size=size)) as p:
        return p.read()
""",
    ),
    _v(
        "h3_partial_shell_tar",
        """
import functools
import subprocess
import sys

sh = functools.partial(subprocess.run, shell=True, check=True)


def archive(folder, name):
    sh(f"tar czf /archives/{name}.tar.gz -C {folder} .")


if __name__ == "__main__":
    archive(sys.argv[1], sys.argv[2])
""",
    ),
    _v(
        "h3_fabric_restart_service",
        """
from fabric import Connection


def restart(host, service, user="deploy"):
    with Connection(host, user=user) as c:
        c.sudo(f"systemctl restart {service}")
        return c.run(f"systemctl is-active {service}", hide=True).stdout.strip()
""",
    ),
    _v(
        "h3_upload_dir_strip_replace",
        """
import os

from flask import Flask, request

app = Flask(__name__)


@app.post("/albums")
def create_album():
    name = request.form["name"].strip().replace(" ", "_").lower()
    os.system("mkdir -p /srv/uploads/" + name)
    return {"album": name}
""",
    ),
    _v(
        "h3_nbconvert_export_system",
        """
#!/usr/bin/env python
# coding: utf-8

# In[1]:


url = input("dataset url: ")
out = "data.csv"


# In[2]:


get_ipython().system('wget -q {url} -O {out}')
get_ipython().system('head -n 3 {out}')
""",
    ),
]

SAFE = [
    _s(
        "h3_repo_sort_allowlist",
        """
import sqlite3

SORTABLE = {"created_at", "email", "last_login"}


class UserRepository:
    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def list(self, sort: str = "created_at", descending: bool = True, limit: int = 50):
        if sort not in SORTABLE:
            raise ValueError(f"cannot sort by {sort!r}")
        direction = "DESC" if descending else "ASC"
        sql = f"SELECT id, email FROM users ORDER BY {sort} {direction} LIMIT ?"
        return self.conn.execute(sql, (int(limit),)).fetchall()
""",
    ),
    _s(
        "h3_builder_known_columns",
        """
FILTERABLE = ("name", "city", "country")


def build_search(filters: dict) -> tuple[str, list]:
    columns = [c for c in FILTERABLE if c in filters]
    where = " AND ".join(f"{c} = %s" for c in columns) or "TRUE"
    params = [filters[c] for c in columns]
    return f"SELECT * FROM customers WHERE {where} ORDER BY id", params


def search(cur, args):
    cur.execute(*build_search(args))
    return cur.fetchall()
""",
    ),
    _s(
        "h3_base_dao_class_table",
        """
class BaseDAO:
    table_name: str = ""

    def __init__(self, conn):
        self.conn = conn

    def get(self, pk):
        sql = f"SELECT * FROM {self.table_name} WHERE id = ?"
        return self.conn.execute(sql, (pk,)).fetchone()

    def delete(self, pk):
        self.conn.execute(f"DELETE FROM {self.table_name} WHERE id = ?", (pk,))


class InvoiceDAO(BaseDAO):
    table_name = "invoices"


class CustomerDAO(BaseDAO):
    table_name = "customers"
""",
    ),
    _s(
        "h3_psycopg_identifier_copy",
        """
from psycopg import sql


def rows_since(conn, table: str, since):
    query = sql.SQL("SELECT * FROM {} WHERE updated_at >= %s ORDER BY {}").format(
        sql.Identifier(table), sql.Identifier("updated_at")
    )
    with conn.cursor() as cur:
        cur.execute(query, (since,))
        return cur.fetchall()
""",
    ),
    _s(
        "h3_pagination_int_cast",
        """
from flask import Flask, jsonify, request

from .db import get_db

app = Flask(__name__)


@app.get("/posts")
def posts():
    limit = min(int(request.args.get("limit", 20)), 100)
    offset = int(request.args.get("offset", 0))
    rows = get_db().execute(
        f"SELECT id, title FROM posts ORDER BY id DESC LIMIT {limit} OFFSET {offset}"
    ).fetchall()
    return jsonify([dict(r) for r in rows])
""",
    ),
    _s(
        "h3_enum_sort_field",
        """
from enum import Enum


class SortField(str, Enum):
    NAME = "name"
    PRICE = "price"
    RATING = "rating"


def list_products(cur, sort: str, category: str):
    field = SortField(sort)
    cur.execute(
        f"SELECT id, name, price FROM products WHERE category = %s ORDER BY {field.value}",
        (category,),
    )
    return cur.fetchall()
""",
    ),
    _s(
        "h3_asyncpg_positional",
        """
import asyncpg


async def get_orders(pool: asyncpg.Pool, status: str, limit: int = 100):
    async with pool.acquire() as conn:
        return await conn.fetch(
            "SELECT id, total FROM orders WHERE status = $1 ORDER BY id DESC LIMIT $2",
            status,
            limit,
        )
""",
    ),
    _s(
        "h3_async_text_bindparam",
        """
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

BY_EMAIL = text("SELECT id, email, plan FROM accounts WHERE lower(email) = lower(:email)")


class AccountStore:
    def __init__(self, engine: AsyncEngine):
        self.engine = engine

    async def by_email(self, email: str):
        async with self.engine.connect() as conn:
            result = await conn.execute(BY_EMAIL, {"email": email})
            return result.first()
""",
    ),
    _s(
        "h3_django_raw_params",
        """
from django.shortcuts import render

from .models import Article


def by_author(request, author_id):
    articles = Article.objects.raw(
        "SELECT * FROM blog_article WHERE author_id = %s AND status = %s ORDER BY published DESC",
        [author_id, "live"],
    )
    return render(request, "blog/list.html", {"articles": articles})
""",
    ),
    _s(
        "h3_django_rawsql_params",
        """
from django.db.models.expressions import RawSQL

from .models import Document


def ranked(term):
    rank = RawSQL("ts_rank(search_vector, plainto_tsquery('english', %s))", (term,))
    return Document.objects.annotate(rank=rank).order_by("-rank")[:20]
""",
    ),
    _s(
        "h3_peewee_sql_param",
        """
from peewee import SQL

from .models import Tweet


def search_tweets(needle: str, page: int = 1):
    return (
        Tweet.select()
        .where(SQL("content LIKE ?", [f"%{needle}%"]))
        .order_by(Tweet.created.desc())
        .paginate(page, 20)
    )
""",
    ),
    _s(
        "h3_bigquery_named_param",
        """
from google.cloud import bigquery

PROJECT = "acme-analytics"
DATASET = "prod"
client = bigquery.Client(project=PROJECT)


def sales(region: str):
    job = client.query(
        f"SELECT * FROM `{PROJECT}.{DATASET}.sales` WHERE region = @region",
        job_config=bigquery.QueryJobConfig(
            query_parameters=[bigquery.ScalarQueryParameter("region", "STRING", region)]
        ),
    )
    return [dict(row) for row in job.result()]
""",
    ),
    _s(
        "h3_snowflake_pyformat",
        """
import snowflake.connector


def customer(ctx: snowflake.connector.SnowflakeConnection, customer_id: str):
    cs = ctx.cursor()
    try:
        cs.execute(
            "SELECT name, tier FROM customers WHERE id = %(id)s AND active = %(active)s",
            {"id": customer_id, "active": True},
        )
        return cs.fetchone()
    finally:
        cs.close()
""",
    ),
    _s(
        "h3_clickhouse_params",
        """
from clickhouse_driver import Client

client = Client("clickhouse.internal")


def recent_errors(service: str, hours: int):
    return client.execute(
        "SELECT ts, message FROM logs WHERE service = %(service)s "
        "AND ts > now() - INTERVAL %(hours)s HOUR ORDER BY ts DESC",
        {"service": service, "hours": hours},
    )
""",
    ),
    _s(
        "h3_messages_only_fstrings",
        """
import logging

log = logging.getLogger(__name__)


def delete_user(conn, user_id):
    log.info(f"deleting user {user_id}")
    cur = conn.execute("DELETE FROM users WHERE id = ?", (user_id,))
    if cur.rowcount == 0:
        raise LookupError(f"DELETE FROM users: no row with id {user_id}")
    conn.commit()
    return f"user {user_id} deleted"
""",
    ),
    _s(
        "h3_export_path_fstring",
        """
from pathlib import Path

import pandas as pd


def export(engine, customer_id: str, out_dir: str = "exports") -> Path:
    df = pd.read_sql(
        "SELECT * FROM invoices WHERE customer_id = %(cid)s",
        engine,
        params={"cid": customer_id},
    )
    path = Path(out_dir) / f"invoices_{customer_id}.csv"
    df.to_csv(path, index=False)
    return path
""",
    ),
    _s(
        "h3_shlex_quote_tar",
        """
import os
import shlex


def archive(folder, name):
    target = f"/archives/{name}.tar.gz"
    status = os.system(f"tar czf {shlex.quote(target)} -C {shlex.quote(folder)} .")
    if status:
        raise RuntimeError(f"tar failed for {folder}")
""",
    ),
    _s(
        "h3_shlex_join_rsync",
        """
import shlex
import subprocess


def sync(src, user, host, dest):
    cmd = shlex.join(["rsync", "-az", "--delete", src, f"{user}@{host}:{dest}"])
    subprocess.run(cmd + " 2>&1 | tee -a /var/log/sync.log", shell=True, check=True)
""",
    ),
    _s(
        "h3_list_clone",
        """
import subprocess


def clone(url, dest, branch="main"):
    cmd = ["git", "clone", "--depth", "1", "--branch", branch, "--", url, dest]
    subprocess.run(cmd, check=True)
    out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=dest, capture_output=True, text=True)
    return out.stdout.strip()
""",
    ),
    _s(
        "h3_list_run_helper_kubectl",
        """
import subprocess


def run(cmd: list[str]) -> str:
    return subprocess.run(cmd, capture_output=True, encoding="utf8", check=True).stdout.strip()


def pods(namespace: str, selector: str) -> list[str]:
    out = run(["kubectl", "-n", namespace, "get", "pods", "-l", selector, "-o", "name"])
    return out.splitlines()
""",
    ),
    _s(
        "h3_paramiko_quoted_tail",
        """
import shlex

import paramiko


def tail(client: paramiko.SSHClient, service: str, lines: int = 100) -> str:
    path = f"/var/log/{service}.log"
    _, stdout, _ = client.exec_command(f"tail -n {int(lines)} {shlex.quote(path)}")
    return stdout.read().decode()
""",
    ),
    _s(
        "h3_docker_logs_list",
        """
import subprocess


def container_logs(container: str, tail: int = 200) -> str:
    result = subprocess.run(
        ["docker", "logs", "--tail", str(tail), container],
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout
""",
    ),
    _s(
        "h3_asyncio_exec_ffmpeg",
        """
import asyncio


async def thumbnail(src: str, dst: str, width: int = 320):
    proc = await asyncio.create_subprocess_exec(
        "ffmpeg", "-y", "-i", src, "-vf", f"scale={width}:-1", "-frames:v", "1", dst,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await proc.communicate()
    if proc.returncode:
        raise RuntimeError(err.decode())
""",
    ),
    _s(
        "h3_constant_maintenance_loop",
        """
import psycopg2

SCHEMA = "analytics"
TABLES = ("events", "sessions", "pageviews")


def vacuum_all(dsn):
    conn = psycopg2.connect(dsn)
    conn.autocommit = True
    with conn.cursor() as cur:
        for table in TABLES:
            cur.execute(f"VACUUM ANALYZE {SCHEMA}.{table}")
    conn.close()
""",
    ),
    _s(
        "h3_istring_sql_repo",
        """
from ipy_istring import sql


class NoteRepository:
    def __init__(self, conn):
        self.conn = conn

    def by_owner(self, owner, tag):
        cur = self.conn.cursor()
        cur.execute(*sql(i"SELECT id, text FROM notes WHERE owner = {owner} AND tag = {tag}"))
        return cur.fetchall()
""",
    ),
    _s(
        "h3_istring_sh_backup",
        """
import os

from ipy_istring import sh


def backup(database, target_dir="/backups"):
    dump = f"{target_dir}/{database}.dump"
    status = os.system(sh(i"pg_dump --format=custom --file={dump} {database}"))
    if status:
        raise RuntimeError(f"backup of {database} failed")
""",
    ),
    _s(
        "h3_in_placeholders",
        """
import sqlite3


def items_by_ids(conn: sqlite3.Connection, ids: list[str]):
    placeholders = ", ".join("?" for _ in ids)
    return conn.execute(f"SELECT * FROM items WHERE id IN ({placeholders})", ids).fetchall()
""",
    ),
    _s(
        "h3_update_editable_columns",
        """
EDITABLE = frozenset({"title", "description", "price"})


class ItemRepository:
    def __init__(self, conn):
        self.conn = conn

    def update(self, item_id, **fields):
        cols = [k for k in fields if k in EDITABLE]
        if not cols:
            return
        sets = ", ".join(f"{k} = %s" for k in cols)
        with self.conn.cursor() as cur:
            params = [fields[k] for k in cols] + [item_id]
            cur.execute(f"UPDATE items SET {sets} WHERE id = %s", params)
        self.conn.commit()
""",
    ),
    _s(
        "h3_printed_query_only",
        """
import sys


def explain(table_hint):
    query = f"SELECT * FROM {table_hint} WHERE created_at > now() - interval '1 day'"
    print("Would run:")
    print(query)
    print("Use --apply with a configured table to execute.", file=sys.stderr)


if __name__ == "__main__":
    explain(sys.argv[1])
""",
    ),
    _s(
        "h3_clickhouse_float_threshold",
        """
import argparse

from clickhouse_driver import Client


def slow_requests(threshold_ms: str):
    threshold = float(threshold_ms)
    client = Client("clickhouse.internal")
    return client.execute(f"SELECT path, duration FROM requests WHERE duration > {threshold}")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("threshold")
    print(slow_requests(p.parse_args().threshold))
""",
    ),
    _s(
        "h3_dataclass_validated_table",
        """
from dataclasses import dataclass

KNOWN_TABLES = {"orders", "refunds", "payouts"}


@dataclass(frozen=True)
class ExportConfig:
    table: str
    since: str

    def __post_init__(self):
        if self.table not in KNOWN_TABLES:
            raise ValueError(f"unknown table {self.table}")


def export(cur, cfg: ExportConfig):
    cur.execute(f"SELECT * FROM {cfg.table} WHERE created_at >= %s", (cfg.since,))
    return cur.fetchall()
""",
    ),
    _s(
        "h3_constant_shell_build",
        """
import subprocess
import sys


def rebuild(verbose: bool = False):
    cmd = "make clean && make -j4"
    if verbose:
        cmd += " V=1"
    result = subprocess.run(cmd, shell=True)
    sys.exit(result.returncode)
""",
    ),
    _s(
        "h3_django_filter_allowlist",
        """
from django.http import JsonResponse

from .models import Book

SEARCHABLE = {"title", "author__name", "isbn"}


def search(request):
    field = request.GET.get("field", "title")
    if field not in SEARCHABLE:
        return JsonResponse({"error": f"cannot search {field}"}, status=400)
    term = request.GET.get("q", "")
    books = Book.objects.filter(**{f"{field}__icontains": term}).values("id", "title")
    return JsonResponse(list(books), safe=False)
""",
    ),
]

NOTEBOOKS = [
    Case(
        "h3_nb_gsutil_prefix",
        True,
        cells=(
            'import os\n\nbucket = os.environ["RAW_BUCKET"]\nprefix = input("run prefix: ")',
            "!gsutil ls -l gs://{bucket}/{prefix}/ | tail -n 5",
        ),
    ),
    Case(
        "h3_nb_widget_sx",
        True,
        cells=(
            "import ipywidgets as widgets\n\n"
            'folder_w = widgets.Text(value="data/raw", description="Folder")\nfolder_w',
            "folder = folder_w.value",
            "files = %sx ls -1 {folder}\nlen(files)",
        ),
    ),
    Case(
        "h3_nb_system_cleanup_df",
        True,
        cells=(
            'import pandas as pd\n\nruns = pd.read_csv("runs.csv")\n'
            'stale = runs[runs.status == "failed"]',
            'for run_id in stale["run_id"]:\n    %system rm -rf /scratch/runs/{run_id}',
        ),
    ),
    Case(
        "h3_nb_jupysql_jinja",
        True,
        cells=(
            "%load_ext sql\n%sql duckdb://",
            'species = input("species: ")',
            "%%sql\nSELECT island, avg(body_mass_g) AS mass\nFROM penguins.csv\n"
            "WHERE species = '{{species}}'\nGROUP BY island",
        ),
    ),
    Case(
        "h3_nb_ipython_sql_braces",
        True,
        cells=(
            "%load_ext sql\n%sql postgresql://analyst@warehouse/sales",
            "import ipywidgets as widgets\n\n"
            'region_box = widgets.Text(description="Region")\nregion_box',
            "region = region_box.value",
            "%%sql\nSELECT month, sum(amount) FROM orders WHERE region = '{region}' GROUP BY month",
        ),
    ),
    Case(
        "h3_nb_papermill_customer",
        True,
        cells=(
            '# parameters\ncustomer_id = None\nstart_date = "2024-01-01"',
            'import pandas as pd\nfrom sqlalchemy import create_engine\n\nengine = create_engine("postgresql:///crm")',
            'query = f"""\nSELECT invoice_id, amount, paid_at\nFROM invoices\n'
            "WHERE customer_id = '{customer_id}'\n  AND paid_at >= '{start_date}'\n\"\"\"",
            "df = pd.read_sql(query, engine)\ndf.describe()",
        ),
    ),
    Case(
        "h3_nb_scp_dollar",
        True,
        cells=(
            'import pandas as pd\n\nhosts = pd.read_csv("inventory.csv")\n'
            'target = hosts.loc[0, "hostname"]\n'
            'local_file = "model.pkl"',
            "!scp $local_file deploy@$target:/opt/models/",
        ),
    ),
    Case(
        "h3_nb_bang_assign",
        True,
        cells=(
            'sample = input("sample id: ")',
            "lines = !samtools view -c /data/bams/{sample}.bam\ncount = int(lines[0])\ncount",
        ),
    ),
    Case(
        "h3_nb_bigquery_widget",
        True,
        cells=(
            "from google.cloud import bigquery\nimport ipywidgets as widgets\n\n"
            "client = bigquery.Client()",
            'country = widgets.Text(value="DE", description="Country")\ncountry',
            'sql = (\n    "SELECT date, new_confirmed "\n'
            '    "FROM `bigquery-public-data.covid19_open_data.covid19_open_data` "\n'
            "    f\"WHERE country_code = '{country.value}' ORDER BY date\"\n)",
            "df = client.query(sql).to_dataframe()\ndf.tail()",
        ),
    ),
    Case(
        "h3_nb_run_helper_df",
        True,
        cells=(
            "import subprocess\n\n\ndef run(cmd):\n"
            "    return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout",
            'import pandas as pd\n\nmanifest = pd.read_csv("manifest.tsv", sep="\\t")',
            'for path in manifest["fastq"]:\n    print(run(f"zcat {path} | head -n 4"))',
        ),
    ),
    Case(
        "h3_nb_sql_colon_bind",
        False,
        cells=(
            "%load_ext sql\n%sql sqlite:///chinook.db",
            'artist = input("artist: ")',
            "%%sql\nSELECT a.Title\nFROM albums a JOIN artists ar ON ar.ArtistId = a.ArtistId\n"
            "WHERE ar.Name = :artist",
        ),
    ),
    Case(
        "h3_nb_bang_shlex_quoted",
        False,
        cells=(
            'import shlex\n\nfolder = input("folder: ")\nq = shlex.quote(folder)',
            "!du -sh {q}",
            "!ls -la {shlex.quote(folder)} | head",
        ),
    ),
    Case(
        "h3_nb_constant_shell_and_prints",
        False,
        cells=(
            "!pip install -q duckdb==1.1.3\n!mkdir -p data/processed",
            'import duckdb\n\nname = input("label: ")\n'
            'print(f"SELECT * FROM runs WHERE label = {name}")',
            'con = duckdb.connect()\ncon.sql("SELECT 42 AS answer").show()',
        ),
    ),
    Case(
        "h3_nb_istrings_rendered",
        False,
        cells=(
            "import os\nimport sqlite3\n\nfrom ipy_istring import sh, sql",
            'path = input("file: ")\nuser = input("user: ")',
            'os.system(sh(i"gzip -k {path}"))',
            'conn = sqlite3.connect("app.db")\n'
            'conn.execute(*sql(i"SELECT * FROM users WHERE name = {user}")).fetchall()',
        ),
    ),
    Case(
        "h3_nb_read_sql_params_cells",
        False,
        cells=(
            "import pandas as pd\nfrom sqlalchemy import create_engine\n\n"
            'engine = create_engine("postgresql:///crm")',
            'region = input("region: ")',
            'q = (\n    "SELECT month, sum(amount) AS total FROM orders "\n'
            '    "WHERE region = %(region)s GROUP BY month"\n)',
            'df = pd.read_sql(q, engine, params={"region": region})\ndf.plot(x="month", y="total")',
        ),
    ),
    Case(
        "h3_nb_list_subprocess_widget",
        False,
        cells=(
            "import subprocess\nimport ipywidgets as widgets\n\n"
            'repo = widgets.Text(description="Repo URL")\nrepo',
            'cmd = ["git", "clone", "--depth", "1", "--", repo.value, "checkout"]\n'
            "subprocess.run(cmd, check=True)",
        ),
    ),
]

HELDOUT3: list[Case] = SQL_VULNERABLE + SHELL_VULNERABLE + SAFE + NOTEBOOKS
