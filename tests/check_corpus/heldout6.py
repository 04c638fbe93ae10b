"""Sixth held-out corpus for the unsafe-format check, written blind.

These cases were written by an engineer who never read the check, its tests or the other
corpora; only the ``Case`` dataclass and its ``_v``/``_s`` helpers were reused. Each case is
modelled on a kind of public code found by searching public repositories (Flask, Django and
FastAPI handlers, Databricks and Airflow jobs, Fabric/paramiko/pexpect ops scripts, Colab and
Jupyter notebooks with ``!`` escapes and ``%sql`` magics, snowflake/BigQuery/ClickHouse loaders)
and names it in a comment, with where the tainted value comes from for a vulnerable case.
A case is vulnerable when a value the code does not control (request data, CLI arguments,
environment, file or DataFrame content, widget input, notebook parameters, loop variables over
external data) reaches a shell command line or SQL text as code; safe look-alikes pass values as
bind parameters or argv elements, quote them (``shlex.quote``, ``psycopg.sql``), use only
constants, only log or print the text, or use ipy_istring's i-strings.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


HELDOUT6: list[Case] = [
    # ---------------------------------------------------------------- SQL in web handlers
    # Flask + sqlite3 route (SonarSource rule S3649 example); tainted: request.args["user"].
    _v("h6_flask_sqlite_percent_on_constant", """\
import sqlite3

import flask

app = flask.Flask("example")

USER_SQL = "SELECT user, email FROM users WHERE user = '%s'"


@app.route("/user")
def get_user():
    user = flask.request.args["user"]
    conn = sqlite3.connect("example.db")
    row = conn.cursor().execute(USER_SQL % user).fetchone()
    return flask.jsonify(row)
"""),
    # Flask blueprint building a query from select/from/where request fields (pleko-like);
    # tainted: request.args clauses joined into the statement.
    _v("h6_flask_blueprint_clause_dict", """\
import sqlite3

import flask

blueprint = flask.Blueprint("query", __name__)


def get_query_from_request():
    return {
        "select": flask.request.args.get("select") or "*",
        "from": flask.request.args.get("from") or "",
        "where": flask.request.args.get("where") or "",
    }


@blueprint.route("/<dbname>/rows")
def rows(dbname):
    query = get_query_from_request()
    parts = ["SELECT " + query["select"], "FROM " + query["from"]]
    if query["where"]:
        parts.append("WHERE " + query["where"])
    cnx = sqlite3.connect(f"/srv/dbs/{dbname}.sqlite3")
    cursor = cnx.execute(" ".join(parts))
    return flask.render_template("query/rows.html", rows=cursor.fetchall())
"""),
    # Flask + sqlite3, the fixed version of the same route; request value as a ? parameter.
    _s("h6_flask_sqlite_qmark_param", """\
import sqlite3

import flask

app = flask.Flask("example")


@app.route("/user")
def get_user():
    user = flask.request.args["user"]
    sql = "SELECT user, email FROM users WHERE user = ?"
    conn = sqlite3.connect("example.db")
    app.logger.info(f"looking up user {user}")
    row = conn.cursor().execute(sql, (user,)).fetchone()
    return flask.jsonify(row)
"""),
    # Django search view with Manager.raw (tutorial-style code); tainted: request.GET["q"].
    _v("h6_django_raw_search", """\
from django.shortcuts import render

from .models import Product


def search(request):
    term = request.GET.get("q", "")
    products = Product.objects.raw(
        f"SELECT * FROM shop_product WHERE name ILIKE '%%{term}%%' ORDER BY price"
    )
    return render(request, "shop/search.html", {"products": products, "term": term})
"""),
    # Django queryset .extra(where=[...]) filter from a legacy admin list; tainted: request.GET.
    _v("h6_django_extra_where", """\
from django.views.generic import ListView

from .models import Ticket


class TicketList(ListView):
    model = Ticket

    def get_queryset(self):
        qs = super().get_queryset()
        status = self.request.GET.get("status")
        if status:
            qs = qs.extra(where=[f"status = '{status}'"])
        return qs
"""),
    # Django annotate with RawSQL ordering by a column the client picks; tainted: sort param.
    _v("h6_django_rawsql_annotate", """\
from django.db.models.expressions import RawSQL
from rest_framework.decorators import api_view
from rest_framework.response import Response

from .models import Listing


@api_view(["GET"])
def listings(request):
    field = request.query_params.get("rank_by", "price")
    rank = RawSQL(
        "SELECT %s FROM listing_stats s WHERE s.listing_id = listing.id" % field, []
    )
    qs = Listing.objects.annotate(rank=rank)
    return Response(list(qs.order_by("-rank").values("id", "title", "rank")))
"""),
    # Django raw with params list (docs example); the value is a bound parameter.
    _s("h6_django_raw_params", """\
from django.shortcuts import render

from .models import Person


def by_last_name(request):
    lname = request.GET.get("last_name", "")
    people = Person.objects.raw("SELECT * FROM myapp_person WHERE last_name = %s", [lname])
    return render(request, "people.html", {"people": people})
"""),
    # Django cursor with a params list and a constant f-string table name.
    _s("h6_django_cursor_const_table_param", """\
from django.db import connection

AUDIT_TABLE = "audit_event"


def events_for(user_id):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT kind, created FROM {AUDIT_TABLE} WHERE user_id = %s ORDER BY created DESC",
            [user_id],
        )
        return cursor.fetchall()
"""),
    # FastAPI + asyncpg endpoint (async services); tainted: query parameter "city".
    _v("h6_fastapi_asyncpg_fetch", """\
import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.get("/stores")
async def stores(city: str, limit: int = 20):
    conn = await asyncpg.connect("postgresql://app@db/app")
    try:
        rows = await conn.fetch(
            f"SELECT id, name FROM stores WHERE city = '{city}' LIMIT {limit}"
        )
    finally:
        await conn.close()
    return [dict(r) for r in rows]
"""),
    # FastAPI + asyncpg with $1 placeholders (the asyncpg docs' way).
    _s("h6_fastapi_asyncpg_dollar_params", """\
import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.get("/stores")
async def stores(city: str, limit: int = 20):
    pool: asyncpg.Pool = app.state.pool
    async with pool.acquire() as conn:
        rows = await conn.fetch("SELECT id, name FROM stores WHERE city = $1 LIMIT $2", city, limit)
    return [dict(r) for r in rows]
"""),
    # FastAPI + SQLAlchemy session with text() around an f-string; tainted: path parameter.
    _v("h6_fastapi_session_text_fstring", """\
from fastapi import Depends, FastAPI
from sqlalchemy import text
from sqlalchemy.orm import Session

from .db import get_session

app = FastAPI()


@app.delete("/tenants/{slug}/cache")
def clear_cache(slug: str, session: Session = Depends(get_session)):
    session.execute(text(f"DELETE FROM cache_entries WHERE tenant_slug = '{slug}'"))
    session.commit()
    return {"ok": True}
"""),
    # FastAPI + SQLAlchemy text() with a :name bind and a constant schema prefix.
    _s("h6_fastapi_text_bind_const_schema", """\
from fastapi import Depends, FastAPI
from sqlalchemy import text
from sqlalchemy.orm import Session

from .db import get_session

SCHEMA = "billing"
app = FastAPI()


@app.get("/invoices/{number}")
def invoice(number: str, session: Session = Depends(get_session)):
    stmt = text(f"SELECT * FROM {SCHEMA}.invoices WHERE number = :number")
    row = session.execute(stmt, {"number": number}).mappings().first()
    return dict(row) if row else {}
"""),
    # FastAPI with SQLAlchemy ORM select(); no SQL text at all.
    _s("h6_fastapi_orm_select", """\
from fastapi import Depends, FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session

from .db import get_session
from .models import User

app = FastAPI()


@app.get("/users/by-email")
def by_email(email: str, session: Session = Depends(get_session)):
    print(f"SELECT user WHERE email = {email}")
    user = session.execute(select(User).where(User.email == email)).scalar_one_or_none()
    return {"id": user.id} if user else {}
"""),
    # aiohttp handler + aiosqlite; tainted: JSON body "name", built with + on two lines.
    _v("h6_aiohttp_aiosqlite_concat", """\
import aiosqlite
from aiohttp import web


async def add_tag(request: web.Request) -> web.Response:
    body = await request.json()
    name = body["name"]
    sql = "INSERT INTO tags (name, created) "
    sql += "VALUES ('" + name + "', datetime('now'))"
    async with aiosqlite.connect("tags.db") as db:
        await db.execute(sql)
        await db.commit()
    return web.json_response({"added": name})
"""),
    # Cloud Function (HTTP) querying BigQuery; tainted: request.get_json()["user_id"].
    _v("h6_cloud_function_bigquery", """\
import functions_framework
from google.cloud import bigquery

client = bigquery.Client()


@functions_framework.http
def user_events(request):
    payload = request.get_json(silent=True) or {}
    user_id = payload.get("user_id", "")
    query = f'''
        SELECT event_name, event_ts
        FROM `analytics.events`
        WHERE user_id = "{user_id}"
        ORDER BY event_ts DESC
        LIMIT 100
    '''
    rows = client.query(query).result()
    return {"events": [dict(r) for r in rows]}
"""),
    # Same Cloud Function with BigQuery named query parameters (@user_id).
    _s("h6_cloud_function_bigquery_params", """\
import functions_framework
from google.cloud import bigquery

client = bigquery.Client()
QUERY = '''
    SELECT event_name, event_ts FROM `analytics.events`
    WHERE user_id = @user_id ORDER BY event_ts DESC LIMIT 100
'''


@functions_framework.http
def user_events(request):
    payload = request.get_json(silent=True) or {}
    config = bigquery.QueryJobConfig(
        query_parameters=[
            bigquery.ScalarQueryParameter("user_id", "STRING", payload.get("user_id", ""))
        ]
    )
    rows = client.query(QUERY, job_config=config).result()
    return {"events": [dict(r) for r in rows]}
"""),
    # BigQuery wrapper class with a client property and query_and_wait (a common shape in
    # public repos); tainted: dataset/table method arguments, the project id kept on self.
    _v("h6_bq_wrapper_query_and_wait", """\
from google.cloud import bigquery


class WarehouseReader:
    def __init__(self, project_id):
        self.project_id = project_id
        self._client = bigquery.Client(project=project_id)

    @property
    def client(self):
        return self._client

    def preview(self, dataset: str, table: str, limit: int = 10):
        return self.client.query_and_wait(
            f'''SELECT * FROM `{self.project_id}.{dataset}.{table}` LIMIT {limit}'''
        ).to_dataframe()
"""),
    # ---------------------------------------------------------------- SQL in data engineering
    # Databricks notebook exported as .py (training repos' widget demos feeding spark.sql);
    # tainted: widget value.
    _v("h6_databricks_widget_spark_sql", """\
# Databricks notebook source
dbutils.widgets.text("table_name", "cust")

# COMMAND ----------

text_box_value = dbutils.widgets.get("table_name")
print(text_box_value)

# COMMAND ----------

spark.read.table(text_box_value).display()
spark.sql(f"select * from {text_box_value} where is_active = true").display()
"""),
    # PySpark job with Spark 3.4 named parameters (spark.sql(..., args=...)).
    _s("h6_spark_sql_named_args", """\
import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("daily").getOrCreate()
run_date = sys.argv[1]
df = spark.sql(
    "SELECT store_id, sum(amount) AS total FROM sales"
    " WHERE sale_date = :run_date GROUP BY store_id",
    args={"run_date": run_date},
)
df.write.mode("overwrite").parquet(f"s3://warehouse/daily_totals/{run_date}/")
"""),
    # PySpark maintenance loop over a config table's rows; tainted: table names from data.
    _v("h6_spark_loop_over_config_rows", """\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
config = spark.read.option("header", True).csv("s3://ops/retention.csv")

for row in config.collect():
    spark.sql(
        "DELETE FROM " + row["table"]
        + " WHERE event_date < date_sub(current_date(), " + row["days"] + ")"
    )
    spark.sql(f"VACUUM {row['table']} RETAIN 168 HOURS")
"""),
    # PySpark OPTIMIZE over a hard-coded list of tables: constants only.
    _s("h6_spark_optimize_constant_tables", """\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
TABLES = ["gold.orders", "gold.customers", "gold.products"]

for table in TABLES:
    spark.sql(f"OPTIMIZE {table} ZORDER BY (id)")
    print(f"optimized {table}")
"""),
    # Airflow PythonOperator with PostgresHook; tainted: dag_run.conf["customer_id"].
    _v("h6_airflow_postgreshook_conf", """\
from airflow import DAG
from airflow.operators.python import PythonOperator
from airflow.providers.postgres.hooks.postgres import PostgresHook
import pendulum


def purge_customer(**context):
    customer_id = context["dag_run"].conf["customer_id"]
    hook = PostgresHook(postgres_conn_id="warehouse")
    hook.run(f"DELETE FROM marts.orders WHERE customer_id = '{customer_id}'")
    hook.run(f"DELETE FROM marts.customers WHERE id = '{customer_id}'")


with DAG("gdpr_purge", start_date=pendulum.datetime(2024, 1, 1), schedule=None) as dag:
    PythonOperator(task_id="purge", python_callable=purge_customer)
"""),
    # Airflow TaskFlow with ClickHouse (clickhouse_driver); tainted: DAG params table name and
    # partition.
    _v("h6_airflow_taskflow_clickhouse", """\
import pendulum
from airflow.decorators import dag, task
from clickhouse_driver import Client


@dag(start_date=pendulum.datetime(2024, 1, 1), schedule="@daily", params={"table": "events"})
def ch_partitions():
    @task
    def drop_old_partition(params=None, ds=None):
        client = Client("clickhouse")
        table = params["table"]
        client.execute(f"ALTER TABLE analytics.{table} DROP PARTITION '{ds}'")

    drop_old_partition()


ch_partitions()
"""),
    # Airflow task with PostgresHook.get_records and parameters=.
    _s("h6_airflow_hook_parameters", """\
from airflow.decorators import task
from airflow.providers.postgres.hooks.postgres import PostgresHook


@task
def count_rows(ds=None, params=None):
    hook = PostgresHook(postgres_conn_id="warehouse")
    rows = hook.get_records(
        "SELECT count(*) FROM staging.events WHERE load_date = %(ds)s AND source = %(source)s",
        parameters={"ds": ds, "source": params["source"]},
    )
    print(f"{rows[0][0]} rows for {ds}")
    return rows[0][0]
"""),
    # clickhouse_driver insert with the data passed separately (driver docs' pattern).
    _s("h6_clickhouse_insert_rows_param", """\
import csv
import sys

from clickhouse_driver import Client

client = Client("clickhouse")
with open(sys.argv[1], newline="") as fh:
    rows = [(r["id"], r["name"], float(r["score"])) for r in csv.DictReader(fh)]
client.execute("INSERT INTO scores (id, name, score) VALUES", rows)
client.execute("SELECT count() FROM scores WHERE name = %(name)s", {"name": sys.argv[2]})
"""),
    # clickhouse_connect client.command wrapper; tainted: the caller's table and partition.
    _v("h6_clickhouse_connect_command", """\
import clickhouse_connect


class Warehouse:
    def __init__(self, host):
        self.client = clickhouse_connect.get_client(host=host, port=8123)

    def replace_partition(self, table, partition, staging_table):
        self.client.command(
            "ALTER TABLE %s REPLACE PARTITION '%s' FROM %s" % (table, partition, staging_table)
        )
"""),
    # Snowflake stage/COPY INTO helper module (stage-loading utilities in public repos);
    # tainted: function parameters.
    _v("h6_snowflake_stage_helpers", """\
from .connection import SnowflakeConnection


def create_external_stage(
    conn: SnowflakeConnection, name: str, bucket_url: str, fmt: str = "PARQUET"
) -> None:
    ddl = f"CREATE STAGE IF NOT EXISTS {name} URL='{bucket_url}' FILE_FORMAT = (TYPE={fmt})"
    conn.execute(ddl)


def load_table(conn: SnowflakeConnection, table: str, stage: str, pattern: str = ".*") -> int:
    cur = conn.cursor()
    cur.execute(f"COPY INTO {table} FROM @{stage} PATTERN = '{pattern}' ON_ERROR = CONTINUE")
    return cur.rowcount
"""),
    # Snowflake with pyformat parameters (connector docs).
    _s("h6_snowflake_pyformat_params", """\
import sys

import snowflake.connector

conn = snowflake.connector.connect(connection_name="default")
cur = conn.cursor()
region = sys.argv[1]
cur.execute("SELECT id, total FROM orders WHERE region = %(region)s", {"region": region})
for order_id, total in cur:
    print(f"{order_id}: {total}")
"""),
    # pandas.read_sql with sql=/con= keywords, query built with + (analytics scripts);
    # tainted: argparse argument.
    _v("h6_pandas_read_sql_kwargs_concat", """\
import argparse

import pandas as pd
from sqlalchemy import create_engine

parser = argparse.ArgumentParser()
parser.add_argument("--country")
args = parser.parse_args()

engine = create_engine("postgresql+psycopg2://reader@db/sales")
query = "SELECT * FROM customers WHERE country = '" + args.country + "'"
df = pd.read_sql(sql=query, con=engine)
df.to_csv(f"customers_{args.country}.csv", index=False)
"""),
    # pandas.read_sql_query with textwrap.dedent around an f-string; tainted: function args.
    _v("h6_pandas_read_sql_query_dedent", """\
import textwrap

import pandas as pd


def load_sessions(conn, start, end, channel):
    sql = textwrap.dedent(f'''
        SELECT session_id, user_id, started_at
        FROM web.sessions
        WHERE started_at >= '{start}' AND started_at < '{end}'
          AND channel = '{channel}'
    ''')
    return pd.read_sql_query(sql, conn, parse_dates=["started_at"])
"""),
    # pandas.read_sql with params= and %(name)s (psycopg2 paramstyle).
    _s("h6_pandas_read_sql_params", """\
import pandas as pd


def load_sessions(conn, start, end, channel):
    sql = '''
        SELECT session_id, user_id, started_at FROM web.sessions
        WHERE started_at >= %(start)s AND started_at < %(end)s AND channel = %(channel)s
    '''
    return pd.read_sql(sql, conn, params={"start": start, "end": end, "channel": channel})
"""),
    # pandas read_sql_table / to_sql: the table name goes through the library's own quoting.
    _s("h6_pandas_to_sql_table_name", """\
import sys

import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("sqlite:///warehouse.db")
table = sys.argv[2]
df = pd.read_csv(sys.argv[1])
df.to_sql(table, engine, if_exists="replace", index=False)
print(pd.read_sql_table(table, engine).head())
"""),
    # polars.read_database with query= keyword; tainted: CLI argument.
    _v("h6_polars_read_database_query_kw", """\
import sys

import polars as pl
from sqlalchemy import create_engine

engine = create_engine("postgresql://reader@db/metrics")
metric = sys.argv[1]
frame = pl.read_database(
    query=f"SELECT ts, value FROM metrics WHERE name = '{metric}' ORDER BY ts",
    connection=engine,
)
print(frame.describe())
"""),
    # psycopg2 ETL: WHERE clause built from a JSON filter file by a helper; tainted: the
    # filter file's keys and values.
    _v("h6_psycopg2_where_helper_json", """\
import json
import sys

import psycopg2


def build_where(filters):
    return " AND ".join(f"{column} = '{value}'" for column, value in filters.items())


with open(sys.argv[1]) as fh:
    filters = json.load(fh)

conn = psycopg2.connect("dbname=crm")
with conn, conn.cursor() as cur:
    cur.execute("SELECT id, email FROM contacts WHERE " + build_where(filters))
    for row in cur.fetchall():
        print(row)
"""),
    # psycopg2 ETL with psycopg2.sql composition (Identifier + Placeholder).
    _s("h6_psycopg2_sql_identifier", """\
import json
import sys

import psycopg2
from psycopg2 import sql

with open(sys.argv[1]) as fh:
    filters = json.load(fh)

query = sql.SQL("SELECT id, email FROM contacts WHERE {}").format(
    sql.SQL(" AND ").join(
        sql.SQL("{} = {}").format(sql.Identifier(column), sql.Placeholder()) for column in filters
    )
)
conn = psycopg2.connect("dbname=crm")
with conn, conn.cursor() as cur:
    cur.execute(query, list(filters.values()))
    print(cur.fetchall())
"""),
    # psycopg 3 connection.execute with an ORDER BY that cannot be a parameter; tainted: the
    # sort column from the CLI (a tuple of text and params).
    _v("h6_psycopg3_order_by_tuple", """\
import sys

import psycopg


def top_products(conn, category, order_by):
    query, params = (
        f"SELECT name, price FROM products WHERE category = %s ORDER BY {order_by} DESC LIMIT 10",
        (category,),
    )
    return conn.execute(query, params).fetchall()


with psycopg.connect("dbname=shop") as conn:
    for name, price in top_products(conn, sys.argv[1], sys.argv[2]):
        print(name, price)
"""),
    # psycopg 3 sql.SQL with Identifier for the column and a %s parameter.
    _s("h6_psycopg3_sql_identifier_order", """\
import sys

import psycopg
from psycopg import sql


def top_products(conn, category, order_by):
    query = sql.SQL(
        "SELECT name, price FROM products WHERE category = %s ORDER BY {} DESC LIMIT 10"
    ).format(sql.Identifier(order_by))
    return conn.execute(query, (category,)).fetchall()


with psycopg.connect("dbname=shop") as conn:
    print(top_products(conn, sys.argv[1], sys.argv[2]))
"""),
    # psycopg2 cursor.mogrify then execute: mogrify quotes the values.
    _s("h6_psycopg2_mogrify_then_execute", """\
import psycopg2


def archive(conn, ids, reason):
    with conn.cursor() as cur:
        stmt = cur.mogrify(
            "UPDATE tickets SET archived = true, reason = %s WHERE id = ANY(%s)", (reason, ids)
        )
        print(stmt.decode())
        cur.execute(stmt)
    conn.commit()
"""),
    # pymysql admin script with **kwargs and .format(**kw); tainted: kwargs passed through
    # from a CLI.
    _v("h6_pymysql_format_kwargs", """\
import sys

import pymysql

conn = pymysql.connect(host="localhost", user="admin", database="app")


def run(statement, **kw):
    with conn.cursor() as cur:
        cur.execute(statement.format(**kw))
        return cur.fetchall()


def grant(**kw):
    return run("GRANT SELECT ON {db}.* TO '{user}'@'%'", **kw)


if __name__ == "__main__":
    grant(db=sys.argv[1], user=sys.argv[2])
"""),
    # mysql.connector bulk delete with a loop building the IN list; tainted: ids read from a
    # file.
    _v("h6_mysql_connector_loop_in_list", """\
import mysql.connector

cnx = mysql.connector.connect(user="app", database="shop")
cursor = cnx.cursor()

with open("stale_ids.txt") as fh:
    ids = [line.strip() for line in fh if line.strip()]

query = "DELETE FROM carts WHERE id IN ("
for i, cart_id in enumerate(ids):
    if i:
        query += ", "
    query += "'%s'" % cart_id
query += ")"
cursor.execute(query)
cnx.commit()
"""),
    # mysql.connector with an IN list of %s placeholders built from len(ids): only markers.
    _s("h6_mysql_connector_placeholders_in", """\
import mysql.connector

cnx = mysql.connector.connect(user="app", database="shop")
cursor = cnx.cursor()

with open("stale_ids.txt") as fh:
    ids = [line.strip() for line in fh if line.strip()]

markers = ", ".join(["%s"] * len(ids))
cursor.execute(f"DELETE FROM carts WHERE id IN ({markers})", ids)
cnx.commit()
"""),
    # sqlite3 CSV importer: table name from the file name, columns from the header; tainted:
    # file name and header row.
    _v("h6_sqlite_csv_import_header", """\
import csv
import pathlib
import sqlite3
import sys

path = pathlib.Path(sys.argv[1])
con = sqlite3.connect("import.db")
with path.open(newline="") as fh:
    reader = csv.reader(fh)
    header = next(reader)
    table = path.stem
    cols = ", ".join(f'"{c}" TEXT' for c in header)
    con.executescript(f"DROP TABLE IF EXISTS {table}; CREATE TABLE {table} ({cols});")
    marks = ", ".join("?" for _ in header)
    con.executemany(f"INSERT INTO {table} VALUES ({marks})", reader)
con.commit()
"""),
    # sqlite3 importer into a fixed table with executemany and ? markers.
    _s("h6_sqlite_executemany_fixed_table", """\
import csv
import sqlite3
import sys

COLUMNS = ("id", "name", "email")
con = sqlite3.connect("import.db")
con.execute(f"CREATE TABLE IF NOT EXISTS people ({', '.join(COLUMNS)})")
with open(sys.argv[1], newline="") as fh:
    rows = [tuple(r[c] for c in COLUMNS) for r in csv.DictReader(fh)]
insert = f"INSERT INTO people ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
con.executemany(insert, rows)
con.commit()
"""),
    # Streamlit explorer over DuckDB; tainted: st.text_input.
    _v("h6_streamlit_duckdb_filter", """\
import duckdb
import streamlit as st

con = duckdb.connect("taxi.duckdb", read_only=True)
borough = st.text_input("Borough", "Manhattan")
min_fare = st.number_input("Minimum fare", value=10.0)
df = con.execute(
    "SELECT pickup_at, fare FROM trips WHERE borough = '%s' AND fare >= %s" % (borough, min_fare)
).df()
st.dataframe(df)
"""),
    # Streamlit explorer over DuckDB with ? parameters.
    _s("h6_streamlit_duckdb_params", """\
import duckdb
import streamlit as st

con = duckdb.connect("taxi.duckdb", read_only=True)
borough = st.text_input("Borough", "Manhattan")
min_fare = st.number_input("Minimum fare", value=10.0)
df = con.execute(
    "SELECT pickup_at, fare FROM trips WHERE borough = ? AND fare >= ?", [borough, min_fare]
).df()
st.caption(f"SELECT ... WHERE borough = '{borough}'")
st.dataframe(df)
"""),
    # Dagster asset with run config (Config class); tainted: config.source_table.
    _v("h6_dagster_asset_config", """\
import duckdb
from dagster import Config, asset


class CopyConfig(Config):
    source_table: str
    since: str = "2024-01-01"


@asset
def recent_orders(config: CopyConfig):
    con = duckdb.connect("/data/warehouse.duckdb")
    con.execute(
        f"CREATE OR REPLACE TABLE recent_orders AS SELECT * FROM {config.source_table} "
        f"WHERE order_date >= '{config.since}'"
    )
    return con.execute("SELECT count(*) FROM recent_orders").fetchone()[0]
"""),
    # Prefect flow with a psycopg2 task; tainted: flow parameter (set from the UI / deployment).
    _v("h6_prefect_task_psycopg2", """\
import psycopg2
from prefect import flow, task


@task(retries=2)
def refresh_view(view_name: str) -> None:
    with psycopg2.connect("dbname=analytics") as conn, conn.cursor() as cur:
        cur.execute("REFRESH MATERIALIZED VIEW CONCURRENTLY %s" % view_name)


@flow
def nightly(views: list[str]):
    for view in views:
        refresh_view(view)
"""),
    # oracledb report using a lambda to fetch by department; tainted: input().
    _v("h6_oracledb_lambda_fetch", """\
import oracledb

conn = oracledb.connect(user="hr", password="hr", dsn="db/XEPDB1")
cur = conn.cursor()
fetch_dept = lambda dept: cur.execute(
    "SELECT employee_id, last_name FROM employees WHERE department_name = '" + dept + "'"
).fetchall()

dept = input("Department: ")
for emp_id, name in fetch_dept(dept):
    print(emp_id, name)
"""),
    # oracledb with a :dept bind variable.
    _s("h6_oracledb_bind_variable", """\
import oracledb

conn = oracledb.connect(user="hr", password="hr", dsn="db/XEPDB1")
cur = conn.cursor()
dept = input("Department: ")
cur.execute(
    "SELECT employee_id, last_name FROM employees WHERE department_name = :dept",
    dept=dept,
)
for emp_id, name in cur:
    print(emp_id, name)
"""),
    # pyodbc stored-procedure call built with +; tainted: Excel cell values (openpyxl).
    _v("h6_pyodbc_exec_proc_excel", """\
import openpyxl
import pyodbc

conn = pyodbc.connect("DSN=erp")
cursor = conn.cursor()
wb = openpyxl.load_workbook("price_updates.xlsx")
for sku, price in wb.active.iter_rows(min_row=2, values_only=True):
    cursor.execute("EXEC dbo.UpdatePrice @Sku = '" + str(sku) + "', @Price = " + str(price))
conn.commit()
"""),
    # SQLAlchemy Core exec_driver_sql with % (ops script); tainted: argv.
    _v("h6_sqlalchemy_exec_driver_sql", """\
import sys

from sqlalchemy import create_engine

engine = create_engine("mysql+pymysql://ops@db/app")
table, days = sys.argv[1], sys.argv[2]
with engine.begin() as conn:
    result = conn.exec_driver_sql(
        "DELETE FROM %s WHERE created_at < NOW() - INTERVAL %s DAY" % (table, days)
    )
    print(result.rowcount, "rows deleted")
"""),
    # ---------------------------------------------------------------- SQL: how the text travels
    # Repository class with query templates as class attributes (DAO pattern); tainted: the
    # method argument.
    _v("h6_dao_class_attribute_template", """\
import sqlite3


class UserRepository:
    FIND_BY_NAME = "SELECT id, name, email FROM users WHERE name = '{name}'"
    DELETE_BY_ID = "DELETE FROM users WHERE id = {id}"

    def __init__(self, path):
        self.conn = sqlite3.connect(path)

    def find_by_name(self, name):
        return self.conn.execute(self.FIND_BY_NAME.format(name=name)).fetchall()
"""),
    # Repository class with the query text kept on self between calls (builder pattern);
    # tainted: constructor argument from a request.
    _v("h6_query_builder_self_attribute", """\
class ReportQuery:
    def __init__(self, cursor, region):
        self.cursor = cursor
        self.sql = f"SELECT product, sum(qty) FROM sales WHERE region = '{region}'"

    def by_month(self, month):
        self.sql += f" AND month = {month}"
        return self

    def run(self):
        self.sql += " GROUP BY product"
        self.cursor.execute(self.sql)
        return self.cursor.fetchall()


def handle(request, cursor):
    return ReportQuery(cursor, request.args["region"]).by_month(request.args["month"]).run()
"""),
    # Module-level dict of named queries filled with %; tainted: webhook JSON payload.
    _v("h6_queries_dict_percent", """\
from flask import Flask, request

from .db import get_cursor

app = Flask(__name__)

QUERIES = {
    "subscribe": "INSERT INTO subscribers (email, list) VALUES ('%s', '%s')",
    "unsubscribe": "DELETE FROM subscribers WHERE email = '%s' AND list = '%s'",
}


@app.post("/hooks/mailing")
def mailing_hook():
    event = request.get_json()
    cur = get_cursor()
    cur.execute(QUERIES[event["type"]] % (event["email"], event["list"]))
    return "", 204
"""),
    # Same hook with the dict of queries using ? markers.
    _s("h6_queries_dict_qmark", """\
from flask import Flask, request

from .db import get_cursor

app = Flask(__name__)

QUERIES = {
    "subscribe": "INSERT INTO subscribers (email, list) VALUES (?, ?)",
    "unsubscribe": "DELETE FROM subscribers WHERE email = ? AND list = ?",
}


@app.post("/hooks/mailing")
def mailing_hook():
    event = request.get_json()
    get_cursor().execute(QUERIES[event["type"]], (event["email"], event["list"]))
    return "", 204
"""),
    # Cleanup job where the statement is a default argument formatted inside; tainted: the
    # retention days from the environment.
    _v("h6_default_arg_statement_env", """\
import os
import sqlite3


def purge(
    conn, days, statement="DELETE FROM sessions WHERE last_seen < datetime('now', '-{} days')"
):
    conn.execute(statement.format(days))
    conn.commit()


purge(sqlite3.connect("app.db"), os.environ.get("SESSION_RETENTION_DAYS", "30"))
"""),
    # Closure returning a lookup function (factory in a CLI tool); tainted: the looked-up
    # email typed at a prompt.
    _v("h6_closure_lookup_factory", """\
import sqlite3


def make_lookup(conn):
    cur = conn.cursor()

    def lookup(email):
        cur.execute("SELECT id, plan FROM accounts WHERE email = '" + email + "'")
        return cur.fetchone()

    return lookup


lookup = make_lookup(sqlite3.connect("accounts.db"))
while (email := input("email> ")):
    print(lookup(email))
"""),
    # Function that returns the f-string, used by the caller (query helpers module); tainted:
    # the search term parameter from the API layer.
    _v("h6_helper_returns_fstring", """\
def search_sql(term, limit=50):
    return (
        f"SELECT id, title FROM articles WHERE title LIKE '%{term}%' "
        f"ORDER BY published DESC LIMIT {limit}"
    )


def search(conn, term):
    cur = conn.cursor()
    cur.execute(search_sql(term))
    return cur.fetchall()
"""),
    # Helper returns text and a parameter tuple; the caller unpacks it.
    _s("h6_helper_returns_params", """\
def search_sql(term, limit=50):
    return (
        "SELECT id, title FROM articles WHERE title LIKE ? ORDER BY published DESC LIMIT ?",
        (f"%{term}%", limit),
    )


def search(conn, term):
    cur = conn.cursor()
    cur.execute(*search_sql(term))
    return cur.fetchall()
"""),
    # IN list built with a generator expression of quoted ids (very common); tainted: JSON body.
    _v("h6_in_list_join_comprehension", """\
from flask import Flask, jsonify, request

from .db import connect

app = Flask(__name__)


@app.post("/orders/bulk-status")
def bulk_status():
    ids = request.json["ids"]
    id_list = ",".join(f"'{i}'" for i in ids)
    with connect() as conn:
        cur = conn.cursor()
        cur.execute(f"SELECT id, status FROM orders WHERE id IN ({id_list})")
        return jsonify(cur.fetchall())
"""),
    # IN list of ? markers sized from the ids, ids passed as parameters.
    _s("h6_in_list_qmarks", """\
from flask import Flask, jsonify, request

from .db import connect

app = Flask(__name__)


@app.post("/orders/bulk-status")
def bulk_status():
    ids = request.json["ids"]
    marks = ",".join("?" * len(ids))
    with connect() as conn:
        rows = conn.execute(f"SELECT id, status FROM orders WHERE id IN ({marks})", ids).fetchall()
    return jsonify(rows)
"""),
    # string.Template for SQL (older Flask export endpoints); tainted: request.args values.
    _v("h6_string_template_substitute", """\
import sqlite3
from string import Template

from flask import Flask, jsonify, request

app = Flask(__name__)
EXPORT = Template("SELECT * FROM $table WHERE updated_at > '$since'")


@app.get("/export")
def export():
    query = EXPORT.substitute(table=request.args["table"], since=request.args["since"])
    rows = sqlite3.connect("app.db").execute(query).fetchall()
    return jsonify(rows)
"""),
    # Decorated retry wrapper around a query function; tainted: the tenant argument coming
    # from a message queue payload.
    _v("h6_decorated_retry_tenant", """\
import functools
import json
import time

import psycopg2


def retry(times=3):
    def wrap(fn):
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            for attempt in range(times):
                try:
                    return fn(*args, **kwargs)
                except psycopg2.OperationalError:
                    time.sleep(2 ** attempt)
            return fn(*args, **kwargs)
        return inner
    return wrap


@retry(times=5)
def set_search_path(conn, tenant):
    with conn.cursor() as cur:
        cur.execute(f"SET search_path TO tenant_{tenant}, public")


def on_message(conn, body):
    msg = json.loads(body)
    set_search_path(conn, msg["tenant"])
"""),
    # Annotated assignment of the query (typed code); tainted: function parameter.
    _v("h6_annotated_assignment_query", """\
import sqlite3
from typing import Final

DB: Final = "inventory.db"


def stock_for(sku: str) -> int:
    query: str = "SELECT qty FROM stock WHERE sku = '%s'" % sku
    with sqlite3.connect(DB) as conn:
        row = conn.execute(query).fetchone()
    return row[0] if row else 0
"""),
    # LIMIT built from an int() conversion: only digits can reach the text.
    _s("h6_int_cast_limit", """\
import sqlite3

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/latest")
def latest():
    limit = int(request.args.get("limit", 20))
    conn = sqlite3.connect("feed.db")
    rows = conn.execute(
        f"SELECT id, title FROM posts ORDER BY created DESC LIMIT {limit:d}"
    ).fetchall()
    return jsonify(rows)
"""),
    # Migration script with constants only: table names and DDL are literals.
    _s("h6_migration_constants_only", """\
import sqlite3

VERSION = 7
TABLES = ("users", "orders", "payments")

conn = sqlite3.connect("app.db")
for table in TABLES:
    conn.execute(f"ALTER TABLE {table} ADD COLUMN deleted_at TEXT")
    conn.execute(f"CREATE INDEX IF NOT EXISTS idx_{table}_deleted ON {table} (deleted_at)")
conn.execute(f"PRAGMA user_version = {VERSION}")
conn.commit()
"""),
    # SQL text only in log lines and exceptions; execution is parameterized.
    _s("h6_sql_only_logged_and_raised", """\
import logging

log = logging.getLogger(__name__)


def deactivate(conn, username):
    log.info(f"UPDATE users SET active = 0 WHERE username = '{username}'")
    cur = conn.execute("UPDATE users SET active = 0 WHERE username = ?", (username,))
    if cur.rowcount != 1:
        raise LookupError(f"DELETE/UPDATE matched {cur.rowcount} rows for {username!r}")
    log.debug("SQL: %s params=%r", "UPDATE users SET active = 0 WHERE username = ?", (username,))
"""),
    # Async SQLAlchemy (AsyncSession) with text() built across two statements; tainted: a
    # websocket message.
    _v("h6_async_sqlalchemy_text_ws", """\
from fastapi import FastAPI, WebSocket
from sqlalchemy import text
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

engine = create_async_engine("postgresql+asyncpg://app@db/chat")
Session = async_sessionmaker(engine)
app = FastAPI()


@app.websocket("/ws/{room}")
async def chat(ws: WebSocket, room: str):
    await ws.accept()
    async with Session() as session:
        while True:
            msg = await ws.receive_text()
            stmt = "INSERT INTO messages (room, body) VALUES "
            stmt = stmt + f"('{room}', '{msg}')"
            await session.execute(text(stmt))
            await session.commit()
"""),
    # Async SQLAlchemy text() with bound parameters.
    _s("h6_async_sqlalchemy_text_bind", """\
from fastapi import FastAPI, WebSocket
from sqlalchemy import text
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

engine = create_async_engine("postgresql+asyncpg://app@db/chat")
Session = async_sessionmaker(engine)
app = FastAPI()
INSERT = text("INSERT INTO messages (room, body) VALUES (:room, :body)")


@app.websocket("/ws/{room}")
async def chat(ws: WebSocket, room: str):
    await ws.accept()
    async with Session() as session:
        while True:
            msg = await ws.receive_text()
            await session.execute(INSERT, {"room": room, "body": msg})
            await session.commit()
"""),
    # Django management command TRUNCATE with %; tainted: the command-line table option.
    _v("h6_django_command_truncate", """\
from django.core.management.base import BaseCommand
from django.db import connection


class Command(BaseCommand):
    help = "Empty a staging table"

    def add_arguments(self, parser):
        parser.add_argument("table")

    def handle(self, *args, **options):
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE TABLE %s RESTART IDENTITY CASCADE" % options["table"])
        self.stdout.write(self.style.SUCCESS(f"truncated {options['table']}"))
"""),
    # Django management command that only allows tables from a fixed allow-list dict of
    # constant statements.
    _s("h6_django_command_allowlist", """\
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

STATEMENTS = {
    "staging_orders": "TRUNCATE TABLE staging_orders RESTART IDENTITY",
    "staging_events": "TRUNCATE TABLE staging_events RESTART IDENTITY",
}


class Command(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument("table", choices=sorted(STATEMENTS))

    def handle(self, *args, **options):
        statement = STATEMENTS.get(options["table"])
        if statement is None:
            raise CommandError(f"unknown table {options['table']}")
        with connection.cursor() as cursor:
            cursor.execute(statement)
"""),
    # ---------------------------------------------------------------- shell in scripts and services
    # Media conversion CLI with os.system (ffmpeg wrappers); tainted: sys.argv file names.
    _v("h6_os_system_ffmpeg_argv", """\
import os
import sys

src = sys.argv[1]
dst = os.path.splitext(src)[0] + ".mp3"
os.system(f"ffmpeg -y -i {src} -vn -ab 192k {dst}")
"""),
    # Same CLI with subprocess.run and an argv list (no shell).
    _s("h6_subprocess_list_ffmpeg_argv", """\
import os
import subprocess
import sys

src = sys.argv[1]
dst = os.path.abspath(os.path.splitext(src)[0] + ".mp3")
print(f"ffmpeg -y -i {src} -vn -ab 192k {dst}")
subprocess.run(["ffmpeg", "-y", "-i", src, "-vn", "-ab", "192k", dst], check=True)
"""),
    # Flask network diagnostics endpoint with os.popen (router/admin panels); tainted:
    # request.form["host"].
    _v("h6_flask_ping_os_popen", """\
import os

from flask import Flask, render_template, request

app = Flask(__name__)


@app.route("/tools/ping", methods=["POST"])
def ping():
    host = request.form["host"]
    output = os.popen("ping -c 3 " + host).read()
    return render_template("ping.html", output=output)
"""),
    # Same endpoint with shlex.quote inside the f-string.
    _s("h6_flask_ping_shlex_quote", """\
import shlex
import subprocess

from flask import Flask, render_template, request

app = Flask(__name__)


@app.route("/tools/ping", methods=["POST"])
def ping():
    host = request.form["host"]
    result = subprocess.run(
        f"ping -c 3 -- {shlex.quote(host)}", shell=True, capture_output=True, text=True
    )
    return render_template("ping.html", output=result.stdout)
"""),
    # Upload thumbnailer joining an ImageMagick command line; tainted: the uploaded file name
    # and a size form field.
    _v("h6_thumbnail_join_shell_true", """\
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.post("/thumb")
def thumb():
    upload = request.files["image"]
    src = "/tmp/uploads/" + upload.filename
    upload.save(src)
    size = request.form.get("size", "200x200")
    cmd = " ".join(["convert", src, "-resize", size, src + ".thumb.png"])
    subprocess.run(cmd, shell=True, check=True)
    return {"thumb": src + ".thumb.png"}
"""),
    # Thumbnailer with shlex.join on the same list.
    _s("h6_thumbnail_shlex_join", """\
import shlex
import subprocess

from flask import Flask, request
from werkzeug.utils import secure_filename

app = Flask(__name__)


@app.post("/thumb")
def thumb():
    upload = request.files["image"]
    src = "/tmp/uploads/" + secure_filename(upload.filename)
    upload.save(src)
    size = request.form.get("size", "200x200")
    cmd = shlex.join(["convert", src, "-resize", size, src + ".thumb.png"])
    subprocess.run(cmd, shell=True, check=True)
    return {"thumb": src + ".thumb.png"}
"""),
    # Git statistics tool with check_output and %; tainted: author from argparse.
    _v("h6_git_log_check_output_percent", """\
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("author")
args = parser.parse_args()
out = subprocess.check_output(
    "git log --author='%s' --pretty=oneline | wc -l" % args.author, shell=True
)
print(int(out))
"""),
    # Backup script with bash -c in an argv list; tainted: folders given on the command line.
    _v("h6_bash_dash_c_list_argv", """\
import datetime
import subprocess
import sys

stamp = datetime.date.today().isoformat()
for folder in sys.argv[1:]:
    archive = f"/backups/{stamp}-{folder.strip('/').replace('/', '_')}.tgz"
    script = f"tar czf {archive} {folder} && sha256sum {archive} > {archive}.sha256"
    subprocess.run(["bash", "-c", script], check=True)
"""),
    # asyncio bot running a shell command (chat-ops); tainted: the chat message argument.
    _v("h6_asyncio_subprocess_shell_chatops", """\
import asyncio

from telegram import Update
from telegram.ext import ContextTypes


async def logs(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    service = context.args[0]
    proc = await asyncio.create_subprocess_shell(
        f"journalctl -u {service} -n 50 --no-pager",
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    await update.message.reply_text(out.decode()[-4000:])
"""),
    # Same bot with create_subprocess_exec and separate arguments.
    _s("h6_asyncio_subprocess_exec_chatops", """\
import asyncio

from telegram import Update
from telegram.ext import ContextTypes


async def logs(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    service = context.args[0]
    proc = await asyncio.create_subprocess_exec(
        "journalctl", "-u", service, "-n", "50", "--no-pager",
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    await update.message.reply_text(out.decode()[-4000:])
"""),
    # paramiko log tail API (ops dashboards); tainted: query parameters lines and path.
    _v("h6_paramiko_tail_api", """\
import paramiko
from fastapi import FastAPI

app = FastAPI()


def ssh_exec(host, command):
    ssh = paramiko.SSHClient()
    ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    ssh.connect(host, username="deploy", key_filename="/etc/keys/deploy")
    try:
        _, stdout, _ = ssh.exec_command(command, timeout=30)
        return stdout.read().decode()
    finally:
        ssh.close()


@app.get("/hosts/{host}/tail")
def tail(host: str, path: str, lines: int = 100):
    return {"output": ssh_exec(host, f"tail -n {lines} {path}")}
"""),
    # paramiko with shlex.quote on the remote path.
    _s("h6_paramiko_tail_quoted", """\
import shlex

import paramiko


def tail(client: paramiko.SSHClient, path: str, lines: int = 100) -> str:
    command = f"tail -n {int(lines)} -- {shlex.quote(path)}"
    _, stdout, _ = client.exec_command(command, timeout=30)
    return stdout.read().decode()
"""),
    # Fabric 2 deploy task (fabfile docker deploys); tainted: the task's tag argument (CLI or
    # a CI job passing the pushed tag).
    _v("h6_fabric_task_docker_tag", """\
from fabric import Connection, task

IMAGE = "registry.example.com/shop/web"


@task
def deploy(ctx, tag, host="web1.example.com"):
    with Connection(host, user="deploy") as c:
        c.run(f"docker pull {IMAGE}:{tag}")
        c.run(f"docker stop web", warn=True)
        c.run(f"docker run -d --name web --rm -p 80:8000 {IMAGE}:{tag}")
"""),
    # Fabric deploy with only module constants in the f-strings (small fabfiles for one
    # container, like a micropub server's).
    _s("h6_fabric_constants_only", """\
from fabric import task

image = "example/notes-server:stable"
volume = "/var/local/notes"
name = "notes-server"
port = 3032


@task
def deploy(c):
    c.run(f"docker pull {image}")
    c.run(f"docker stop {name}", warn=True)
    c.run(f"docker run --name {name} -p {port}:3031 " +
          f"-v {volume}:/data --rm -d {image}")
"""),
    # invoke tasks file running pytest on the given paths; tainted: CLI argument list.
    _v("h6_invoke_ctx_run_join", """\
from invoke import task


@task(iterable=["path"])
def test(c, path, marker=""):
    selected = " ".join(path) or "tests"
    extra = f"-m {marker}" if marker else ""
    c.run("pytest -q " + extra + " " + selected, pty=True)
"""),
    # invoke task quoting every path with shlex.join.
    _s("h6_invoke_ctx_run_shlex_join", """\
import shlex

from invoke import task


@task(iterable=["path"])
def test(c, path, marker=""):
    argv = ["pytest", "-q"]
    if marker:
        argv += ["-m", marker]
    argv += path or ["tests"]
    c.run(shlex.join(argv), pty=True)
"""),
    # pexpect replwrap bash session (test harness for a CLI); tainted: function parameter.
    _v("h6_pexpect_replwrap_bash", """\
from pexpect import replwrap

shell = replwrap.bash()


def count_matches(pattern, logfile="/var/log/app.log"):
    out = shell.run_command(f"grep -c {pattern} {logfile}", timeout=10)
    return int(out.strip() or 0)
"""),
    # Disk usage report with subprocess.getoutput (a shell) per entry of a shared upload
    # folder; tainted: directory entry names, which any uploader chooses.
    _v("h6_getoutput_du_scandir", """\
import os
import subprocess

UPLOADS = "/srv/shared/uploads"

for entry in os.scandir(UPLOADS):
    if entry.is_dir():
        print(subprocess.getoutput(f"du -sh {entry.path}"))
"""),
    # getstatusoutput inside a class: the command kept on self; tainted: constructor arg from
    # a CLI.
    _v("h6_class_cmd_attribute_getstatusoutput", """\
import subprocess
import sys


class Service:
    def __init__(self, name):
        self.name = name
        self.status_cmd = f"systemctl is-active {name}"
        self.restart_cmd = "systemctl restart %s" % name

    def ensure_running(self):
        code, out = subprocess.getstatusoutput(self.status_cmd)
        if out.strip() != "active":
            subprocess.getstatusoutput(self.restart_cmd)


Service(sys.argv[1]).ensure_running()
"""),
    # Helper returns an rsync command string, shell=True at the call (mirror scripts);
    # tainted: the mirror list fetched from a remote API.
    _v("h6_rsync_helper_returns_command", """\
import subprocess

import requests

MIRRORS_URL = "https://config.example.com/mirrors.json"


def rsync_cmd(src, dst, exclude=()):
    parts = ["rsync", "-az", "--delete"]
    parts += [f"--exclude={pattern}" for pattern in exclude]
    return " ".join(parts + [src, dst])


for m in requests.get(MIRRORS_URL, timeout=10).json()["mirrors"]:
    subprocess.run(rsync_cmd(m["src"], m["dst"], m.get("exclude", ())), shell=True, check=True)
"""),
    # CI deploy step: args= keyword, shell=True, command picked by a branch; tainted: the
    # branch name from the CI environment (branch names are chosen by whoever pushes).
    _v("h6_subprocess_args_kw_branch_env", """\
import os
import subprocess

branch = os.environ.get("DEPLOY_BRANCH", "main")
if os.environ.get("FAST"):
    cmd = f"git fetch origin {branch} && git reset --hard origin/{branch}"
else:
    cmd = "git pull --ff-only origin " + branch
subprocess.run(args=cmd, shell=True, check=True, cwd="/srv/app")
"""),
    # Celery task transcoding an upload (web apps with workers); tainted: the task arguments
    # from the API.
    _v("h6_celery_task_transcode", """\
import subprocess

from celery import shared_task

MEDIA = "/srv/media"


@shared_task
def transcode(video_id, fmt="webm", scale="1280:-2"):
    src = f"{MEDIA}/{video_id}/original"
    dst = f"{MEDIA}/{video_id}/out.{fmt}"
    subprocess.Popen(f"ffmpeg -y -i {src} -vf scale={scale} {dst}", shell=True).wait()
"""),
    # os.execl of sh -c replacing the process (launcher scripts); tainted: env var.
    _v("h6_os_execl_sh_c_env", """\
import os

workers = os.environ.get("WORKERS", "4")
app_module = os.environ["APP_MODULE"]
cmd = f"exec gunicorn -w {workers} -b 0.0.0.0:8000 {app_module}"
os.execl("/bin/sh", "sh", "-c", cmd)
"""),
    # Launcher that execs gunicorn with an argv list.
    _s("h6_os_execvp_argv_env", """\
import os

workers = os.environ.get("WORKERS", "4")
app_module = os.environ["APP_MODULE"]
print(f"starting gunicorn -w {workers} {app_module}")
os.execvp("gunicorn", ["gunicorn", "-w", workers, "-b", "0.0.0.0:8000", app_module])
"""),
    # nbconvert-exported grading notebook: get_ipython().system per submission; tainted: the
    # file names students gave their submissions.
    _v("h6_nbconvert_get_ipython_system", """\
#!/usr/bin/env python
# coding: utf-8

# In[1]:


import glob
submissions = sorted(glob.glob("submissions/*/*.ipynb"))


# In[2]:


for nb in submissions:
    get_ipython().system('jupyter nbconvert --to html --execute {nb}')
"""),
    # docker SDK exec_run with sh -c (backup scripts for containers); tainted: database names
    # listed from the server.
    _v("h6_docker_exec_run_sh_c", """\
import docker

client = docker.from_env()
pg = client.containers.get("postgres")
LIST_DBS = "SELECT datname FROM pg_database WHERE NOT datistemplate"
_, out = pg.exec_run(["psql", "-U", "postgres", "-Atc", LIST_DBS])
for db in out.decode().split():
    pg.exec_run(f"sh -c 'pg_dump -U postgres {db} | gzip > /backup/{db}.sql.gz'")
"""),
    # docker SDK exec_run with an argv list (no shell).
    _s("h6_docker_exec_run_argv", """\
import docker

client = docker.from_env()
pg = client.containers.get("postgres")
LIST_DBS = "SELECT datname FROM pg_database WHERE NOT datistemplate"
_, out = pg.exec_run(["psql", "-U", "postgres", "-Atc", LIST_DBS])
for db in out.decode().split():
    pg.exec_run(["pg_dump", "-U", "postgres", "-f", f"/backup/{db}.sql", db])
"""),
    # kubernetes stream exec with /bin/sh -c (cluster tooling); tainted: pod label value from
    # argparse.
    _v("h6_kubernetes_exec_sh_c", """\
import argparse

from kubernetes import client, config
from kubernetes.stream import stream

parser = argparse.ArgumentParser()
parser.add_argument("pod")
parser.add_argument("--grep", default="ERROR")
args = parser.parse_args()

config.load_kube_config()
api = client.CoreV1Api()
out = stream(
    api.connect_get_namespaced_pod_exec,
    args.pod,
    "default",
    command=["/bin/sh", "-c", f"grep {args.grep} /var/log/app/*.log | tail -n 20"],
    stderr=True, stdin=False, stdout=True, tty=False,
)
print(out)
"""),
    # Command dispatcher where the user only picks a key into a dict of constant commands.
    _s("h6_dispatch_constant_commands", """\
import subprocess
import sys

COMMANDS = {
    "status": "git status --short",
    "log": "git log --oneline -10",
    "disk": "df -h / | tail -n 1",
}

action = sys.argv[1] if len(sys.argv) > 1 else "status"
if action not in COMMANDS:
    sys.exit(f"unknown action {action}; choose from {', '.join(COMMANDS)}")
subprocess.run(COMMANDS[action], shell=True, check=True)
"""),
    # Dry-run cleanup that only prints the shell command; the deletion uses shutil.
    _s("h6_dry_run_prints_command", """\
import shutil
import sys
from pathlib import Path

target = Path(sys.argv[1])
dry_run = "--dry-run" in sys.argv
for old in sorted(target.glob("build-*"))[:-3]:
    if dry_run:
        print(f"rm -rf {old}")
    else:
        shutil.rmtree(old)
"""),
    # git commit with an f-string message as one argv element.
    _s("h6_git_commit_message_argv", """\
import subprocess
import sys

version = sys.argv[1]
subprocess.run(["git", "commit", "-am", f"Release {version}"], check=True)
subprocess.run(["git", "tag", "-a", f"v{version}", "-m", f"Version {version}"], check=True)
"""),
    # os.system with only a module constant and a literal: constants only.
    _s("h6_os_system_constant_backup_dir", """\
import os

BACKUP_DIR = "/var/backups"
KEEP_DAYS = 14

os.system(f"tar czf {BACKUP_DIR}/etc.tgz /etc")
os.system(f"find {BACKUP_DIR} -name '*.tgz' -mtime +{KEEP_DAYS} -delete")
"""),
    # paramiko runner executing the sentence a user typed into a web form; tainted: form data
    # passed as a keyword argument.
    _v("h6_paramiko_kwargs_command", """\
import paramiko
from flask import Flask, request

app = Flask(__name__)


def remote(host, **kwargs):
    ssh = paramiko.SSHClient()
    ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    ssh.connect(host, username="ops")
    _, out, _ = ssh.exec_command(command=kwargs["command"], timeout=kwargs.get("timeout", 60))
    return out.read().decode()


@app.post("/restart")
def restart():
    unit = request.form["unit"]
    return remote("app1.internal", command=f"sudo systemctl restart {unit}.service")
"""),
    # ---------------------------------------------------------------- notebooks
    # Colab data download notebook (wget/unzip cells); tainted: input() URL expanded by `!`.
    _nb("h6_nb_colab_wget_input", True,
        """\
import pandas as pd
url = input("Dataset URL: ")""",
        """\
!wget -q {url} -O data.zip
!unzip -o data.zip -d data""",
        """\
df = pd.read_csv("data/train.csv")
df.head()"""),
    # Kaggle download notebook; tainted: dataset slug from the environment, expanded by `!`.
    _nb("h6_nb_kaggle_env_dataset", True,
        """\
import os
dataset = os.environ.get("KAGGLE_DATASET", "zynicide/wine-reviews")
!mkdir -p ~/.kaggle""",
        """\
!kaggle datasets download -d {dataset} -p input --unzip""",
        """\
!ls input
import pandas as pd
reviews = pd.read_csv("input/winemag-data-130k-v2.csv", index_col=0)
reviews.shape"""),
    # Log housekeeping notebook: `x = !ls` then a `!` per file; tainted: file names listed
    # from a folder the user typed.
    _nb("h6_nb_ls_capture_gzip_loop", True,
        """\
folder = input("log folder: ")
files = !ls {folder}/*.log""",
        """\
for f in files:
    !gzip -9 {f}
len(files)"""),
    # ipython-sql notebook (Chinook tutorial); tainted: input() expanded into the %sql line.
    _nb("h6_nb_ipython_sql_brace_input", True,
        """\
%load_ext sql
%sql sqlite:///chinook.db""",
        """\
artist = input("Artist: ")""",
        """\
%sql SELECT a.Title FROM albums a JOIN artists r USING (ArtistId) WHERE r.Name = '{artist}'"""),
    # jupysql notebook with {{ }} templating in a %%sql cell; tainted: widget value.
    _nb("h6_nb_jupysql_double_brace_widget", True,
        """\
%load_ext sql
%sql duckdb:///people.duckdb
import ipywidgets as widgets
age = widgets.Text(value="18", description="min age")
age""",
        """\
min_age = age.value""",
        """\
%%sql
SELECT name, age FROM people WHERE age >= {{min_age}} ORDER BY age"""),
    # Analysis notebook: query text built in one cell, run in the next; tainted: a DataFrame
    # cell read from a CSV.
    _nb("h6_nb_query_built_then_run", True,
        """\
import sqlite3
import pandas as pd
conn = sqlite3.connect("shop.db")
todo = pd.read_csv("follow_up.csv")
todo.head()""",
        """\
cid = todo.loc[0, "customer_id"]
q = f\"\"\"
SELECT order_id, total, created
FROM orders
WHERE customer_id = '{cid}'
ORDER BY created DESC
\"\"\"""",
        """\
orders = pd.read_sql(q, conn)
orders.describe()"""),
    # Log search notebook with %sx and an ipywidgets Text; tainted: the widget's value.
    _nb("h6_nb_sx_grep_widget", True,
        """\
import ipywidgets as widgets
pattern = widgets.Text(description="grep")
pattern""",
        """\
hits = %sx grep -rn {pattern.value} logs/
print(len(hits), "matching lines")
hits[:20]"""),
    # Image batch notebook: os.system per row of an Excel sheet; tainted: DataFrame cells.
    _nb("h6_nb_os_system_dataframe_rows", True,
        """\
import os
import pandas as pd
jobs = pd.read_excel("resize_jobs.xlsx")
jobs.head()""",
        """\
for row in jobs.itertuples():
    os.system(f"convert {row.src} -resize {row.percent}% {row.dst}")""",
        """\
jobs.dst.map(os.path.exists).value_counts()"""),
    # Repo setup notebook with a $name expansion; tainted: environment variable.
    _nb("h6_nb_git_clone_dollar_env", True,
        """\
import os
repo_url = os.environ["REPO_URL"]
branch = os.environ.get("REPO_BRANCH", "main")""",
        """\
!git clone --depth 1 --branch $branch $repo_url work
%cd work
!git log --oneline -3"""),
    # Notebook with a `!` line inside a function; tainted: URLs read from a text file.
    _nb("h6_nb_bang_inside_function", True,
        """\
def fetch(u, dest="data"):
    !mkdir -p {dest}
    !curl -sL {u} | tar xz -C {dest}""",
        """\
with open("sources.txt") as fh:
    urls = [line.strip() for line in fh if line.strip()]
for u in urls:
    fetch(u)"""),
    # Audio notebook with %system and an uploaded file's name; tainted: FileUpload metadata.
    _nb("h6_nb_system_magic_upload_name", True,
        """\
import ipywidgets as widgets
upload = widgets.FileUpload(accept=".mp4")
upload""",
        """\
item = upload.value[0]
name = item["name"]
with open(name, "wb") as fh:
    fh.write(item["content"])""",
        """\
%system ffmpeg -y -i {name} -vn -ac 1 audio.wav
import IPython.display as ipd
ipd.Audio("audio.wav")"""),
    # Greeting notebook (teaching material) with `!echo ... $name`; tainted: input().
    _nb("h6_nb_echo_dollar_input", True,
        """\
name = input("Your name: ")""",
        """\
!echo Hello, $name > greeting.txt
!cat greeting.txt"""),
    # Dashboard notebook: SQLAlchemy text() with a widget value concatenated; tainted:
    # widget value.
    _nb("h6_nb_sqlalchemy_text_widget", True,
        """\
import ipywidgets as widgets
import pandas as pd
from sqlalchemy import create_engine, text
engine = create_engine("postgresql://analyst@warehouse/sales")
region = widgets.Dropdown(options=["EMEA", "APAC", "AMER"])
other = widgets.Text(description="or type")
display(region, other)""",
        """\
chosen = other.value or region.value
with engine.connect() as c:
    df = pd.DataFrame(c.execute(text("SELECT * FROM revenue WHERE region = '" + chosen + "'")))
df.plot(x="month", y="amount")"""),
    # DuckDB ingestion notebook looping over a manifest; tainted: paths from a CSV.
    _nb("h6_nb_duckdb_manifest_paths", True,
        """\
import duckdb
import pandas as pd
manifest = pd.read_csv("manifest.csv")
manifest.tail()""",
        """\
con = duckdb.connect("lake.duckdb")
con.sql("CREATE TABLE IF NOT EXISTS raw AS SELECT * FROM read_parquet('seed.parquet') LIMIT 0")
for path in manifest["path"]:
    con.sql(f"INSERT INTO raw SELECT * FROM read_parquet('{path}')")""",
        """\
con.sql("SELECT count(*) FROM raw").df()"""),
    # psycopg notebook taking the tenant from `%env`; tainted: environment via the magic.
    _nb("h6_nb_env_magic_search_path", True,
        """\
import psycopg
conn = psycopg.connect("dbname=saas")
tenant = %env TENANT""",
        """\
cur = conn.cursor()
cur.execute(f"SET search_path TO {tenant}, public")
cur.execute("SELECT count(*) FROM invoices").fetchone()"""),
    # Benchmark notebook where the query runs inside a %%time cell; tainted: input().
    _nb("h6_nb_time_cell_fstring_query", True,
        """\
import sqlite3
conn = sqlite3.connect("events.db")
kind = input("event kind: ")""",
        """\
%%time
rows = conn.execute(f"SELECT * FROM events WHERE kind = '{kind}'").fetchall()
len(rows)"""),
    # ipy_istring notebook: the query as an i-string rendered by sql().
    _nb("h6_nb_istring_sql_cursor", False,
        """\
%load_ext ipy_istring
import sqlite3
from ipy_istring import sql
conn = sqlite3.connect("users.db")
cur = conn.cursor()""",
        """\
name = input("name: ")
cur.execute(*sql(i"SELECT id, email FROM users WHERE name = {name}"))
cur.fetchall()"""),
    # ipy_istring notebook: a copy command rendered by sh().
    _nb("h6_nb_istring_sh_copy", False,
        """\
%load_ext ipy_istring
import os
from ipy_istring import sh""",
        """\
a = input("copy from: ")
b = input("copy to: ")
os.system(sh(i"cp -- {a} {b}"))""",
        """\
!ls -la"""),
    # ipy_istring notebook with pandas through read_sql from sql_connections.
    _nb("h6_nb_istring_read_sql", False,
        """\
%load_ext ipy_istring
import sqlite3
from ipy_istring.sql_connections import read_sql
con = sqlite3.connect("shop.db")""",
        """\
customers = read_sql(i"SELECT id FROM customers WHERE country = {input('country: ')}", con)
customers.head()"""),
    # Notebook quoting the expanded value with shlex.quote inside the `!` braces.
    _nb("h6_nb_bang_shlex_quote", False,
        """\
import shlex
folder = input("folder: ")""",
        """\
!ls -la -- {shlex.quote(folder)}
!du -sh -- {shlex.quote(folder)}"""),
    # Setup notebook: constants in `{}`, $$ and ${} shell variables, a %%bash cell.
    _nb("h6_nb_constants_and_shell_vars", False,
        """\
DATA = "data/raw"
!mkdir -p {DATA}
!echo $$HOME
!ls ${HOME}/.kaggle""",
        """\
%%bash
for f in data/raw/*.csv; do
  wc -l "$f"
done""",
        """\
!nvidia-smi
%pip install -q lightgbm"""),
    # ipython-sql notebook with a :name bind variable (bound by the magic).
    _nb("h6_nb_ipython_sql_bind_variable", False,
        """\
%load_ext sql
%sql sqlite:///chinook.db""",
        """\
artist = input("Artist: ")""",
        """\
%sql SELECT a.Title FROM albums a JOIN artists r USING (ArtistId) WHERE r.Name = :artist"""),
    # Analysis notebook: ? query text in one cell, parameters from a DataFrame in the next.
    _nb("h6_nb_read_sql_params_across_cells", False,
        """\
import sqlite3
import pandas as pd
conn = sqlite3.connect("shop.db")
todo = pd.read_csv("follow_up.csv")
q = "SELECT order_id, total FROM orders WHERE customer_id = ? ORDER BY created DESC\"""",
        """\
cid = todo.loc[0, "customer_id"]
print(f"running for customer {cid}")
orders = pd.read_sql(q, conn, params=(cid,))
orders.describe()"""),
    # Exploration notebook: pip line, `?` help, a constant DuckDB query, df.head().
    _nb("h6_nb_pip_help_constant_query", False,
        """\
!pip install -q duckdb pandas
import duckdb""",
        """\
duckdb.sql?""",
        """\
LIMIT = 5
df = duckdb.sql(f"SELECT range AS x FROM range(100) LIMIT {LIMIT}").df()
df.head()""",
        """\
%timeit duckdb.sql("SELECT 42").fetchall()"""),
    # Notebook capturing `!ls` output and handing each file to Python and to argv lists.
    _nb("h6_nb_ls_capture_argv_loop", False,
        """\
import subprocess
import duckdb
files = !ls logs/*.log
con = duckdb.connect()""",
        """\
con.execute("CREATE TABLE IF NOT EXISTS sizes (path VARCHAR, n BIGINT)")
for f in files:
    subprocess.run(["gzip", "-k", "-9", f], check=True)
    con.execute("INSERT INTO sizes VALUES (?, ?)", [f, sum(1 for _ in open(f))])
con.sql("SELECT * FROM sizes").df()"""),
    # Notebook printing the SQL it would run (for the reader) and running it parameterized.
    _nb("h6_nb_print_sql_then_params", False,
        """\
import psycopg
conn = psycopg.connect("dbname=crm")
email = input("email: ")""",
        """\
print(f"SELECT * FROM contacts WHERE email = '{email}'")
rows = conn.execute("SELECT * FROM contacts WHERE email = %s", (email,)).fetchall()
rows"""),
]
