"""HELDOUT5: a fifth held-out corpus, written blind to the check.

Each case is adapted (renamed, shortened) from code that a search of public repositories finds:
data scripts, web handlers, DAGs, ops tools and notebooks.  The comment above a case names the
kind of code it is modelled on and, for a vulnerable case, where the tainted value comes from.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


HELDOUT5: list[Case] = [
    # ---------------------------------------------------------------- SQL, vulnerable
    # haoyifan312/thermo util.py: a generic sqlite helper; columns, table, condition are parameters.
    _v("h5_sqlite_query_db_helper", '''import sqlite3


def query_db(db, selected, table, condition):
    con = sqlite3.connect(db)
    cur = con.cursor()
    cur.execute(f"SELECT {selected} FROM {table} WHERE {condition};")
    return cur.fetchall()
'''),
    # a postgresql_select helper (public snippet): filters appended with += to an f-string; params.
    _v("h5_pg_select_filters_append", '''def postgresql_select(cursor, items, table, filters=None):
    """Run a SELECT of `items` from `table`, optionally filtered.

    items: list of column names; filters: list of SQL conditions.
    """
    sql_statement = f"""SELECT {', '.join(items)} FROM {table}"""
    if filters is not None:
        sql_statement += f""" WHERE {' AND '.join(filters)}"""
    cursor.execute(sql_statement)
    return cursor.fetchall()
'''),
    # a DRF view doing full-text search with Model.objects.raw; the search text is request data.
    _v("h5_django_raw_fulltext_search", '''from rest_framework.decorators import api_view
from rest_framework.response import Response

from .models import Problem
from .serializers import ProblemSerializer


@api_view(["POST"])
def search_problems(request):
    text = request.data.get("search", "")
    records = Problem.objects.raw(
        f"""SELECT p.* FROM helpers_problem p
            WHERE to_tsvector('russian', p.body) @@ plainto_tsquery('{text}')
            ORDER BY ts_rank(to_tsvector('russian', p.body), plainto_tsquery('{text}')) DESC"""
    )
    return Response(ProblemSerializer(records, many=True).data)
'''),
    # JackDriscoll13 support_pull select.py: a date-range pull; dates and table come from argparse.
    _v("h5_pandas_read_sql_argparse_dates", '''import argparse

import pandas as pd
from sqlalchemy import create_engine


def query_table(start_date, end_date, table_name, conn_engine):
    """Pull one table for the date range."""
    print(f"Reading from {table_name} table... ", end="")
    df = pd.read_sql(
        f"SELECT * FROM {table_name} WHERE date BETWEEN '{start_date}' AND '{end_date}'",
        con=conn_engine,
    )
    print(f"done, shape {df.shape}")
    return df


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("table")
    parser.add_argument("--start", required=True)
    parser.add_argument("--end", required=True)
    args = parser.parse_args()
    engine = create_engine("postgresql://support@db/support")
    query_table(args.start, args.end, args.table, engine).to_csv(f"{args.table}.csv")
'''),
    # an app/data make_query helper: a .sql file's text .format(**kwargs)'d, read with pandas.
    _v("h5_read_sql_file_format_kwargs", '''import os
from pathlib import Path

import pandas as pd
from sqlalchemy import create_engine

SQL_ENGINE = create_engine(os.environ["DATABASE_URL"])
SQL_QUERIES_PATH = Path("app/data/sql")


def make_query(sql_query_name: str, date_columns=None, **format_arguments) -> pd.DataFrame:
    sql_query_str = (
        (SQL_QUERIES_PATH / f"{sql_query_name}.sql").read_text().format(**format_arguments)
    )
    parse_dates = None
    if date_columns is not None:
        parse_dates = {c: {"utc": True} for c in date_columns}
    return pd.read_sql(sql_query_str, con=SQL_ENGINE, parse_dates=parse_dates)
'''),
    # a clickhouse_driver Client subclass (public utils): table and partition are parameters.
    _v("h5_clickhouse_client_subclass_partition", '''from datetime import date, datetime
from typing import Iterable, Union

from clickhouse_driver import Client as BaseClient


class Client(BaseClient):
    def drop_partition(self, db_table: str, partition: str):
        return self.execute(f"ALTER TABLE {db_table} DROP PARTITION '{partition}'")

    def drop_partitions_by_dates(self, db_table: str, dates: Iterable[Union[date, datetime]]):
        for day in dates:
            self.drop_partition(db_table, partition=day.strftime("%Y-%m-%d"))

    def insert(self, db_table: str, rows):
        return self.execute(f"INSERT INTO {db_table} VALUES", rows)
'''),
    # ch_tools chadmin partition commands: a query passed to a helper that runs it (dry-run aware).
    _v("h5_clickhouse_connect_helper_query", '''import logging

import click
import clickhouse_connect

client = clickhouse_connect.get_client(host="localhost")


def _execute_query(query: str, dry_run: bool) -> None:
    if dry_run:
        logging.info("would run: %s", query)
        return
    client.command(query)


@click.command()
@click.argument("database")
@click.argument("table")
@click.argument("partition_id")
@click.option("--dry-run", is_flag=True)
def detach_partition(database: str, table: str, partition_id: str, dry_run: bool) -> None:
    """Detach the specified table partition."""
    query = f"ALTER TABLE `{database}`.`{table}` DETACH PARTITION ID '{partition_id}'"
    _execute_query(query, dry_run)
'''),
    # an asyncpg FAQ bot: a helper returns a LIKE condition built from the user's question.
    _v("h5_asyncpg_condition_helper", '''import asyncpg

from config import DB_PARAMS


def exact_condition(question: str) -> str:
    pattern = f"%{question.lower()}%"
    return f"LOWER(question) LIKE '{pattern}'"


async def find_answers(question: str):
    conn = await asyncpg.connect(**DB_PARAMS)
    try:
        return await conn.fetch(
            f"SELECT question, answer FROM faq WHERE {exact_condition(question)} LIMIT 5"
        )
    finally:
        await conn.close()
'''),
    # a discord.py activity-roles cog (aiosqlite): the application id comes from a user's presence.
    _v("h5_aiosqlite_activity_roles", '''import aiosqlite
import discord
from discord.ext import commands


class ActivityRoles(commands.Cog):
    def __init__(self, bot, db_path="roles.db"):
        self.bot = bot
        self.db_path = db_path

    @commands.Cog.listener()
    async def on_presence_update(self, before: discord.Member, after: discord.Member):
        if after.activity is None:
            return
        app_id = getattr(after.activity, "application_id", None) or after.activity.name
        async with aiosqlite.connect(self.db_path) as db:
            cursor = await db.execute(
                f"SELECT role_id FROM created_roles WHERE app_id = '{app_id}'"
            )
            row = await cursor.fetchone()
        if row:
            await after.add_roles(after.guild.get_role(row[0]))
'''),
    # a Databricks notebook exported as source: the schema comes from a job widget.
    _v("h5_databricks_widget_drop_schema", '''# Databricks notebook source
dbutils.widgets.text("output_schema", "analytics")
dbutils.widgets.dropdown("recreate_schema", "false", ["true", "false"])

# COMMAND ----------

schema = dbutils.widgets.get("output_schema")
if dbutils.widgets.get("recreate_schema").lower() == "true":
    print(f"Dropping schema: {schema}")
    spark.sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")

print(f"Creating schema: {schema}")
spark.sql(f"CREATE SCHEMA IF NOT EXISTS {schema}")
'''),
    # an observability agent tool: optional filters built with conditional f-strings; params.
    _v("h5_spark_optional_filters", '''from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()


def recent_errors(service: str, route: str = "", error_type: str = "", limit: int = 50):
    route_filter = f"AND route = '{route}'" if route else ""
    etype_filter = f"AND error_type = '{error_type}'" if error_type else ""
    rows = spark.sql(f"""
        SELECT ingest_timestamp, service, route, status_code, error_message
        FROM observability.raw_logs
        WHERE service = '{service}' {route_filter} {etype_filter}
        ORDER BY ingest_timestamp DESC
        LIMIT {int(limit)}
    """).collect()
    return [r.asDict() for r in rows]
'''),
    # a dagster-style null check: the table name comes from the CLI, the query passed as query=.
    _v("h5_polars_read_database_query_kw", '''import sys

import polars as pl
from sqlalchemy import create_engine

KEY_COLUMNS = ("station_id", "observed_at")


def null_rows(engine, table: str) -> pl.DataFrame:
    null_conditions = " OR ".join(f"{col} IS NULL" for col in KEY_COLUMNS)
    query = f"SELECT {', '.join(KEY_COLUMNS)} FROM {table} WHERE {null_conditions}"
    return pl.read_database(query=query, connection=engine)


if __name__ == "__main__":
    engine = create_engine("postgresql://etl@warehouse/bronze")
    print(null_rows(engine, sys.argv[1]))
'''),
    # fusedio/udfs duckdb_parquet: a UDF reads a parquet path given as its parameter.
    _v("h5_duckdb_udf_read_parquet", '''@fused.udf
def udf(path: str):
    import duckdb

    con = duckdb.connect()
    con.sql("install 'httpfs'; load 'httpfs';")
    df = con.sql(f"SELECT * FROM read_parquet('{path}')").df()
    print(df)
    return df
'''),
    # a TPC-H data generator: the output file name is an environment variable.
    _v("h5_duckdb_copy_env_path", '''import os

import duckdb

PARQUET_SRC_FILE = os.getenv("PARQUET_SRC_FILE", "/tmp/lineitem.parquet")

duckdb_con = duckdb.connect()
duckdb_con.execute("call dbgen(sf=1)")
duckdb_con.execute(f"copy lineitem to '{PARQUET_SRC_FILE}' (FORMAT PARQUET)")
'''),
    # a multi-tenant SQLAlchemy app: the schema comes from a ContextVar set per request.
    _v("h5_sqlalchemy_exec_driver_sql_contextvar", '''from contextvars import ContextVar

from sqlalchemy import create_engine, event

engine = create_engine("postgresql+psycopg://app@db/app")
_tenant_schema_ctx: ContextVar[str | None] = ContextVar("tenant_schema", default=None)


@event.listens_for(engine, "begin")
def _set_search_path(conn) -> None:
    """Point every transaction at the current tenant's schema (SET LOCAL)."""
    schema = _tenant_schema_ctx.get()
    if schema:
        conn.exec_driver_sql(f"SET LOCAL search_path TO {schema}, public")


def use_tenant(request) -> None:
    _tenant_schema_ctx.set(request.headers.get("X-Tenant", "public"))
'''),
    # a Flask-SQLAlchemy ORM lookup: a text() clause inside filter(); email from the query string.
    _v("h5_sqlalchemy_orm_filter_text", '''from flask import Flask, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import text

app = Flask(__name__)
db = SQLAlchemy(app)


class User(db.Model):
    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(255))


@app.get("/users/lookup")
def lookup():
    email = request.args.get("email", "")
    users = db.session.query(User).filter(text(f"email = '{email}'")).all()
    return jsonify([u.id for u in users])
'''),
    # a retention job: text() built into a variable; table and cutoff from argparse.
    _v("h5_sqlalchemy_text_var_retention", '''import argparse
import logging

from sqlalchemy import create_engine, text

log = logging.getLogger("retention")


def purge(engine, table: str, cutoff: str) -> int:
    stmt = text(f"DELETE FROM {table} WHERE created_at < '{cutoff}'")
    with engine.begin() as conn:
        result = conn.execute(stmt)
    log.info("purged %d rows from %s", result.rowcount, table)
    return result.rowcount


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--table", default="events")
    p.add_argument("--cutoff", required=True)
    a = p.parse_args()
    purge(create_engine("postgresql://ops@db/app"), a.table, a.cutoff)
'''),
    # a Flask login with pymysql: % formatting of the form's username and password.
    _v("h5_pymysql_login_percent", '''import pymysql
from flask import Flask, request, session

app = Flask(__name__)


def get_db():
    return pymysql.connect(host="localhost", user="web", password="web", database="shop")


@app.post("/login")
def login():
    username = request.form["username"]
    password = request.form["password"]
    with get_db() as conn, conn.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM users WHERE username = '%s' AND password = '%s'"
            % (username, password)
        )
        row = cursor.fetchone()
    if row:
        session["uid"] = row[0]
        return "ok"
    return "denied", 401
'''),
    # an order repository: a module-level query constant %-formatted inside a method.
    _v("h5_pymysql_module_query_percent", '''import pymysql.cursors

ORDERS_BY_STATUS = """
    SELECT id, customer_id, total
    FROM orders
    WHERE status = '%s'
    ORDER BY created_at DESC
"""


class OrderRepository:
    def __init__(self, conn: pymysql.connections.Connection):
        self.conn = conn

    def by_status(self, status: str):
        with self.conn.cursor(pymysql.cursors.DictCursor) as cur:
            cur.execute(ORDERS_BY_STATUS % status)
            return cur.fetchall()
'''),
    # a streamlit chat dashboard: string.Template over a .sql file; the channel is user-chosen.
    _v("h5_mysql_template_substitute_dashboard", '''from string import Template

import mysql.connector
import streamlit as st


class ChatStats:
    def __init__(self):
        self.conn = mysql.connector.connect(**st.secrets["mysql"])

    def run_query(self, query):
        with self.conn.cursor() as cur:
            cur.execute(query)
            return cur.fetchall()

    def total_chat_message(self, channel):
        """Most frequent words in a channel."""
        with open("dashboard/sqls/total_chat_message.sql") as f:
            sql = f.read()
        query = Template(sql).substitute(channel=channel)
        return self.run_query(query)


channel = st.text_input("Channel", "general")
st.table(ChatStats().total_chat_message(channel))
'''),
    # LetsJoinData templates.py: a dict of Snowflake templates .format()ed with staged file paths.
    _v("h5_snowflake_template_dict_format", '''import os

import snowflake.connector

TEMPLATES = {
    "put": "put file://{file_path} @{stage}",
    "copy": "copy into {table} from @{stage}/{stage_file_path}",
}


def load_folder(conn, folder: str, table: str, stage: str = "raw_stage") -> None:
    cur = conn.cursor()
    for name in sorted(os.listdir(folder)):
        file_path = os.path.join(folder, name)
        cur.execute(TEMPLATES["put"].format(file_path=file_path, stage=stage))
        cur.execute(
            TEMPLATES["copy"].format(table=table, stage=stage, stage_file_path=name)
        )
    cur.close()
'''),
    # a BigQuery helper class: a query template .format()ed with project and dataset parameters.
    _v("h5_bigquery_format_project_dataset", '''import logging
from typing import List

from google.cloud import bigquery

LOGGER = logging.getLogger(__name__)


class BqQuery:
    def __init__(self):
        self.bigquery_client = bigquery.Client()

    def simple_query(self, query: str, project: str, dataset: str) -> List[dict]:
        _query = query.format(project=project, dataset=dataset).strip()
        LOGGER.debug("running query:\\n%s", _query)
        query_job = self.bigquery_client.query(_query)
        return [dict(row) for row in query_job]
'''),
    # a daily BigQuery export script: the run date is a command-line argument.
    _v("h5_bigquery_run_date_argv", '''import sys

from google.cloud import bigquery

client = bigquery.Client(project="shop-analytics")
run_date = sys.argv[1] if len(sys.argv) > 1 else "2024-01-01"

sql = f"""
    SELECT order_id, SUM(amount) AS revenue
    FROM `shop-analytics.sales.orders`
    WHERE DATE(created_at) = '{run_date}'
    GROUP BY order_id
"""
df = client.query(sql).to_dataframe()
df.to_csv(f"revenue_{run_date}.csv", index=False)
'''),
    # a course project's model (peewee-style helper): an attribute from a row used in the query.
    _v("h5_peewee_model_attr_email", '''from peewee import PostgresqlDatabase

db = PostgresqlDatabase("sirest", user="app")


def execute_sql(sql: str):
    cursor = db.execute_sql(sql)
    return cursor.fetchall()


class Admin:
    def __init__(self, row):
        self.email = row[0]

    def json(self):
        user = execute_sql(f"select * from user_acc where email = '{self.email}';")[0]
        return {"email": self.email, "user": user}
'''),
    # a sensor REST API: a DB wrapper's execute_sql method; the sensor type is a query parameter.
    _v("h5_sqlite_wrapper_method_flask", '''import sqlite3

from flask import Flask, jsonify, request

app = Flask(__name__)


class SensorDB:
    def __init__(self, path):
        self.conn = sqlite3.connect(path, check_same_thread=False)

    def execute_sql(self, sql):
        try:
            return True, self.conn.execute(sql)
        except sqlite3.Error as exc:
            return False, exc


db_obj = SensorDB("sensors.db")


@app.get("/sensors")
def sensors():
    kind = request.args.get("type")
    if kind == "all":
        ok, result = db_obj.execute_sql("SELECT * FROM sensors")
    else:
        ok, result = db_obj.execute_sql(f"SELECT * FROM sensors WHERE type='{kind}'")
    if not ok:
        return jsonify({"error": str(result)}), 500
    return jsonify([{"name": r[1], "type": r[2]} for r in result.fetchall()])
'''),
    # psycopg2 composition misused: sql.SQL() wraps an f-string, so the table is pasted in.
    _v("h5_psycopg2_sql_SQL_of_fstring", '''import psycopg2
from psycopg2 import sql


def rows_with_status(conn, table: str, status: str):
    query = sql.SQL(f"SELECT * FROM {table} WHERE status = %s")
    with conn.cursor() as cur:
        cur.execute(query, (status,))
        return cur.fetchall()


if __name__ == "__main__":
    import sys

    with psycopg2.connect("dbname=audit") as conn:
        print(rows_with_status(conn, sys.argv[1], "open"))
'''),
    # psycopg 3 with an annotated query variable; the tag comes from the job's JSON payload.
    _v("h5_psycopg3_annotated_query", '''import json
import sys

import psycopg


def main() -> None:
    payload = json.load(sys.stdin)
    tag = payload["tag"]
    query: str = f"SELECT id, title FROM articles WHERE '{tag}' = ANY(tags)"
    with psycopg.connect("dbname=blog") as conn:
        for row in conn.execute(query):
            print(row)


if __name__ == "__main__":
    main()
'''),
    # a report class: the query is stored on self in __init__ and executed in run().
    _v("h5_sqlite_self_query_attribute", '''import csv
import sqlite3


class CustomerReport:
    def __init__(self, db_path: str, country: str):
        self.conn = sqlite3.connect(db_path)
        self.query = (
            "SELECT name, email, signup_date FROM customers "
            f"WHERE country = '{country}' ORDER BY signup_date"
        )

    def run(self, out_path: str) -> None:
        rows = self.conn.execute(self.query).fetchall()
        with open(out_path, "w", newline="") as f:
            csv.writer(f).writerows(rows)


if __name__ == "__main__":
    CustomerReport("crm.db", input("Country code: ")).run("customers.csv")
'''),
    # a CLI search: one branch of an if/else formats the keyword in, the other is constant.
    _v("h5_sqlite_if_else_branch", '''import sqlite3
import sys


def search(conn, keyword=None):
    if keyword:
        sql = f"SELECT id, title FROM notes WHERE title LIKE '%{keyword}%'"
    else:
        sql = "SELECT id, title FROM notes ORDER BY id DESC LIMIT 20"
    return conn.execute(sql).fetchall()


if __name__ == "__main__":
    conn = sqlite3.connect("notes.db")
    for note_id, title in search(conn, sys.argv[1] if len(sys.argv) > 1 else None):
        print(note_id, title)
'''),
    # a reporting module keeping named queries in a dict; the user id arrives as a parameter.
    _v("h5_query_dict_format_user", '''import psycopg2

QUERIES = {
    "events": "SELECT * FROM events WHERE user_id = '{user}' ORDER BY ts DESC",
    "orders": "SELECT * FROM orders WHERE user_id = '{user}'",
}


def fetch(conn, name: str, user: str):
    with conn.cursor() as cur:
        cur.execute(QUERIES[name].format(user=user))
        return cur.fetchall()


def export_user(user: str):
    conn = psycopg2.connect("dbname=app")
    return {name: fetch(conn, name, user) for name in QUERIES}
'''),
    # an IN-list built by joining names from the request body with quotes.
    _v("h5_sqlite_join_in_list", '''import sqlite3

from fastapi import FastAPI
from pydantic import BaseModel

app = FastAPI()


class Lookup(BaseModel):
    names: list[str]


@app.post("/products/lookup")
def lookup(body: Lookup):
    names_sql = "', '".join(body.names)
    conn = sqlite3.connect("shop.db")
    rows = conn.execute(f"SELECT id, name, price FROM products WHERE name IN ('{names_sql}')")
    return [dict(zip(("id", "name", "price"), r)) for r in rows]
'''),
    # a psycopg2 reporting script: textwrap.dedent around a multi-line f-string; env var input.
    _v("h5_psycopg2_dedent_env", '''import os
import textwrap

import psycopg2

since = os.environ.get("REPORT_SINCE", "2024-01-01")
conn = psycopg2.connect(os.environ["PG_DSN"])
cur = conn.cursor()
cur.execute(textwrap.dedent(f"""
    SELECT date_trunc('day', created_at) AS day, count(*)
    FROM signups
    WHERE created_at >= '{since}'
    GROUP BY 1 ORDER BY 1
"""))
for day, n in cur.fetchall():
    print(day.date(), n)
'''),
    # pandas read_sql with sql=text(f"...") as keyword arguments; the region is a parameter.
    _v("h5_read_sql_keyword_text", '''import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("mysql+pymysql://bi@warehouse/sales")


def region_sales(region: str) -> pd.DataFrame:
    return pd.read_sql(
        sql=text(f"SELECT month, SUM(total) AS total FROM sales WHERE region = '{region}' "
                 "GROUP BY month"),
        con=engine,
    )
'''),
    # string concatenation with + into read_sql_query; table and region from a config file.
    _v("h5_read_sql_query_concat_config", '''import configparser
import sqlite3

import pandas as pd

cfg = configparser.ConfigParser()
cfg.read("report.ini")
table = cfg["report"]["table"]
region = cfg["report"]["region"]

conn = sqlite3.connect("warehouse.db")
sql = "SELECT * FROM " + table + " WHERE region = '" + region + "'"
df = pd.read_sql_query(sql, conn)
df.describe().to_csv("summary.csv")
'''),
    # a streamlit explorer: duckdb.query over a DataFrame with a text_input value.
    _v("h5_streamlit_duckdb_query", '''import duckdb
import pandas as pd
import streamlit as st

df = pd.read_csv("covid.csv")
country = st.text_input("Country", "Germany")
result = duckdb.query(
    f"SELECT date, new_cases FROM df WHERE country = '{country}' ORDER BY date"
).to_df()
st.line_chart(result, x="date", y="new_cases")
'''),
    # a Flask list endpoint: the sort column comes from the query string, with no allow-list.
    _v("h5_flask_order_by_unchecked", '''import sqlite3

from flask import Flask, g, jsonify, request

app = Flask(__name__)


def get_db():
    if "db" not in g:
        g.db = sqlite3.connect("books.db")
    return g.db


@app.get("/books")
def books():
    sort = request.args.get("sort", "title")
    direction = "DESC" if request.args.get("desc") else "ASC"
    cur = get_db().execute(f"SELECT id, title, author FROM books ORDER BY {sort} {direction}")
    return jsonify(cur.fetchall())
'''),
    # a FastAPI catalogue with an asyncpg pool: the category is a path parameter.
    _v("h5_fastapi_asyncpg_pool", '''import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.on_event("startup")
async def startup() -> None:
    app.state.pool = await asyncpg.create_pool(dsn="postgresql://shop@db/shop")


@app.get("/items/{category}")
async def items(category: str):
    async with app.state.pool.acquire() as conn:
        rows = await conn.fetch(f"SELECT id, name FROM items WHERE category = '{category}'")
    return [dict(r) for r in rows]
'''),
    # a Django queryset annotated with RawSQL; the search term is a GET parameter.
    _v("h5_django_rawsql_annotate", '''from django.db.models.expressions import RawSQL
from django.http import JsonResponse

from .models import Book


def search(request):
    q = request.GET.get("q", "")
    books = Book.objects.annotate(
        score=RawSQL(f"similarity(title, '{q}')", ())
    ).order_by("-score")[:20]
    return JsonResponse({"results": [b.title for b in books]})
'''),
    # ---------------------------------------------------------------- shell, vulnerable
    # an AC215 download_model.py: a gsutil command .format()ed and run by os.system; params.
    _v("h5_os_system_gsutil_format", '''import os

bucket_name = "a-eye-app-model"
local_models_path = "/persistent/model_weights/"


def download_bucket_objects(bucket_name, blob_path, local_path):
    command = "gsutil cp -r gs://{bucketname}/{blobpath} {localpath}".format(
        bucketname=bucket_name, blobpath=blob_path, localpath=local_path
    )
    os.system(command)
    return command


for blob in os.environ.get("MODEL_BLOBS", "inception_gru/").split(","):
    download_bucket_objects(bucket_name, blob, local_models_path)
'''),
    # a save_to_gcp helper: implicitly concatenated f-strings with shell=True; the path is a param.
    _v("h5_subprocess_call_implicit_concat", '''import subprocess


def save_to_gcp(filepath):
    """Upload a checkpoint folder to the team bucket."""
    subprocess.call(
        f"gsutil "
        f"-m "
        f"-o GSUtil:parallel_composite_upload_threshold=150M "
        f"cp -r {filepath} gs://co-lm/{filepath}",
        shell=True,
    )
'''),
    # an Android agent: os.popen with the device serial, an attribute set from $ANDROID_SERIAL.
    _v("h5_os_popen_device_serial_attr", '''import os

from adbutils import adb


class Orchestrator:
    def __init__(self):
        self.device_serial = None
        self.width = self.height = 0

    def connect(self) -> bool:
        devices = adb.device_list()
        if not devices:
            return False
        self.device_serial = os.environ.get("ANDROID_SERIAL") or devices[0].serial
        return True

    def screen_size(self):
        out = os.popen(f"adb -s {self.device_serial} shell wm size").read().strip()
        if "size:" in out:
            w, h = out.split("size:")[1].strip().split("x")
            self.width, self.height = int(w), int(h)
        return self.width, self.height
'''),
    # a network-tools Flask endpoint: ping a host from the JSON body with os.popen.
    _v("h5_flask_ping_os_popen", '''import os

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.route("/api/tools/ping", methods=["POST"])
def ping_host():
    data = request.get_json()
    host = data.get("host", "")
    result = os.popen(f"ping -c 3 {host}").read()
    return jsonify({"result": result})
'''),
    # a run_ffmpeg_command(command) helper with shell=True; the caller formats the file names.
    _v("h5_ffmpeg_helper_shell_true", '''import subprocess
from pathlib import Path


def run_ffmpeg_command(command: str):
    """Run an FFmpeg command in the shell."""
    try:
        result = subprocess.run(command, shell=True, check=True)
        print(f"FFmpeg command executed successfully: {command}")
        return result
    except subprocess.CalledProcessError as e:
        print(f"FFmpeg failed: {e}")


def extract_audio(video: Path, out_dir: Path) -> Path:
    out = out_dir / (video.stem + ".wav")
    run_ffmpeg_command(f"ffmpeg -y -i {video} -vn -ac 1 -ar 16000 {out}")
    return out


if __name__ == "__main__":
    for clip in Path("uploads").glob("*.mp4"):
        extract_audio(clip, Path("audio"))
'''),
    # an image service: an async shell() helper around create_subprocess_shell; path is a param.
    _v("h5_asyncio_shell_helper", '''import asyncio


async def shell(cmd: str):
    proc = await asyncio.create_subprocess_shell(
        cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    stdout, stderr = await proc.communicate()
    if stderr:
        print(stderr.decode())
    return stdout.decode()


async def make_thumbnail(path: str, size: int = 256) -> str:
    thumb = path.rsplit(".", 1)[0] + "_thumb.jpg"
    await shell(f"convert {path} -thumbnail {size}x{size} {thumb}")
    return thumb
'''),
    # a cross-platform async runner: on POSIX the argument list is joined and given to a shell.
    _v("h5_asyncio_shell_joined_list", '''import asyncio
import platform
from asyncio.subprocess import PIPE

system = platform.system()


async def create_async_shell_subprocess(command: list[str]):
    if system == "Windows":
        return await asyncio.create_subprocess_exec(*command, stdout=PIPE, stderr=PIPE)
    return await asyncio.create_subprocess_shell(" ".join(command), stdout=PIPE, stderr=PIPE)


async def convert(src: str, dst: str):
    proc = await create_async_shell_subprocess(["pandoc", src, "-o", dst])
    await proc.wait()
'''),
    # an SSH helper class: sudo + command over paramiko; the service name is a CLI argument.
    _v("h5_paramiko_sudo_service_restart", '''import sys

import paramiko


class SSH:
    def __init__(self, host, username):
        ssh = paramiko.SSHClient()
        ssh.set_missing_host_key_policy(paramiko.AutoAddPolicy())
        ssh.connect(host, username=username, port=22)
        self.ssh = ssh

    def sudo(self, command):
        stdin, stdout, stderr = self.ssh.exec_command("sudo " + command)
        return {"out": stdout.read().decode(), "err": stderr.read().decode()}


if __name__ == "__main__":
    host, service = sys.argv[1], sys.argv[2]
    print(SSH(host, "deploy").sudo(f"systemctl restart {service}"))
'''),
    # a fabric deploy script: the branch and app dir come from the command line.
    _v("h5_fabric_deploy_branch", '''import argparse

from fabric import Connection


def deploy(host: str, branch: str, app_dir: str = "/srv/app") -> None:
    c = Connection(host, user="deploy")
    c.run(f"cd {app_dir} && git fetch origin && git checkout {branch} && git pull")
    c.sudo("systemctl restart app")


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("host")
    p.add_argument("--branch", default="main")
    a = p.parse_args()
    deploy(a.host, a.branch)
'''),
    # a Django project's invoke tasks.py: the test label option is appended with +=.
    _v("h5_invoke_task_test_label", '''from invoke import task


@task(help={"test_label": "Module paths to test"})
def test(c, coverage=False, verbose=False, test_label=None):
    """Test the app."""
    cmd_options = ""
    if verbose:
        cmd_options += "--verbosity=2 "
    if test_label:
        cmd_options += test_label
    if coverage:
        c.run(f"coverage run manage.py test {cmd_options}")
        c.run("coverage html")
    else:
        c.run(f"python manage.py test {cmd_options}")
'''),
    # an Airflow backup DAG: table names read from a JSON config file into bash_command.
    _v("h5_airflow_bash_operator_config_tables", '''import json
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

with open("/opt/airflow/config/backup_tables.json") as f:
    TABLES = json.load(f)["tables"]

with DAG("pg_backup", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False) as dag:
    for table in TABLES:
        BashOperator(
            task_id=f"dump_{table}",
            bash_command=f"pg_dump -h db -U backup -t {table} app > /backups/{table}.sql",
        )
'''),
    # a backup script: subprocess.run(["bash", "-c", f"..."]) with paths from argparse.
    _v("h5_subprocess_bash_c_fstring", '''import argparse
import subprocess
from datetime import date


def archive(src_dir: str, dest: str) -> None:
    archive_name = f"{dest}/backup-{date.today():%Y%m%d}.tar.gz"
    subprocess.run(["bash", "-c", f"tar czf {archive_name} {src_dir} && sync"], check=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("--dest", default="/mnt/backup")
    ns = ap.parse_args()
    archive(ns.src, ns.dest)
'''),
    # a Popen(cmd, shell=True) with the command assembled in a variable with += pieces.
    _v("h5_popen_cmd_var_plus_eq", '''import subprocess
import sys


def render(scene: str, frames: str, out_dir: str) -> int:
    cmd = f"blender -b {scene}"
    cmd += f" -o {out_dir}/frame_####"
    cmd += " -F PNG -f " + frames
    proc = subprocess.Popen(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in proc.stdout:
        sys.stdout.write(line.decode())
    return proc.wait()


if __name__ == "__main__":
    sys.exit(render(sys.argv[1], sys.argv[2], sys.argv[3]))
'''),
    # a print-server daemon: options and file names from the job JSON pasted into an lp command.
    _v("h5_os_system_print_job", '''import json
import logging
import os

logger = logging.getLogger("printer")


def print_file(job: dict, spool_dir: str) -> None:
    copies = job.get("copy_num", 1)
    sides = "two-sided-long-edge" if job.get("is_duplex") else "one-sided"
    page_range = job.get("page_range", "")
    path = os.path.join(spool_dir, job["filename"])
    cmd = f"lp -n {copies} -o sides={sides} "
    if page_range:
        cmd += f"-P {page_range} "
    cmd += path
    logger.info("printing: %s", cmd)
    os.system(cmd)


with open("/var/spool/jobs/next.json") as f:
    print_file(json.load(f), "/var/spool/jobs")
'''),
    # an rsync wrapper: a list of arguments joined into one string and run with shell=True.
    _v("h5_list_joined_shell_true", '''import subprocess
import sys


def sync(src: str, dest: str, exclude: list[str]) -> None:
    cmd = ["rsync", "-av", "--delete"]
    for pattern in exclude:
        cmd.append(f"--exclude={pattern}")
    cmd += [src, dest]
    subprocess.run(" ".join(cmd), shell=True, check=True)


if __name__ == "__main__":
    sync(sys.argv[1], sys.argv[2], sys.argv[3:])
'''),
    # a single-element list holding a formatted command, with shell=True.
    _v("h5_shell_true_single_element_list", '''import subprocess

from flask import Flask, request, send_file

app = Flask(__name__)


@app.post("/zip")
def zip_folder():
    folder = request.form["folder"]
    archive = f"/tmp/{folder}.zip"
    subprocess.run([f"cd /srv/shared && zip -r {archive} {folder}"], shell=True, check=True)
    return send_file(archive)
'''),
    # a log-tail tool with pexpect running bash -c; host and log file from argv.
    _v("h5_pexpect_bash_c", '''import sys

import pexpect


def tail_remote(host: str, logfile: str, lines: int = 50) -> str:
    child = pexpect.spawn(
        "/bin/bash", ["-c", f"ssh ops@{host} tail -n {lines} {logfile}"], encoding="utf-8"
    )
    child.expect(pexpect.EOF, timeout=30)
    return child.before


if __name__ == "__main__":
    print(tail_remote(sys.argv[1], sys.argv[2]))
'''),
    # a disk-usage check over ssh: the remote command string is run by the remote shell.
    _v("h5_ssh_remote_command_string", '''import subprocess
import sys

HOSTS = ["web1", "web2"]


def remote_usage(host: str, path: str) -> str:
    result = subprocess.run(
        ["ssh", host, f"du -sh {path}"], capture_output=True, text=True, check=True
    )
    return result.stdout.strip()


if __name__ == "__main__":
    for h in HOSTS:
        print(h, remote_usage(h, sys.argv[1]))
'''),
    # a docker exec sh -c dump: the database name from the CLI goes into the sh -c script.
    _v("h5_docker_exec_sh_c_db", '''import subprocess
import sys


def dump(container: str, db: str) -> None:
    subprocess.run(
        ["docker", "exec", container, "sh", "-c", f"pg_dump -U postgres {db} > /tmp/{db}.sql"],
        check=True,
    )
    subprocess.run(["docker", "cp", f"{container}:/tmp/{db}.sql", "."], check=True)


if __name__ == "__main__":
    dump("pg", sys.argv[1])
'''),
    # a git-mirror daemon: the repository URL read from a YAML config goes into os.popen.
    _v("h5_os_popen_git_clone_yaml", '''import os
import time

import yaml

with open("mirror.yml") as f:
    CONFIG = yaml.safe_load(f)


def setup_repo(repo_url: str, dest: str) -> None:
    out = os.popen(f"git clone --mirror {repo_url} {dest}").read()
    print(out)


def main() -> None:
    for mirror in CONFIG["mirrors"]:
        setup_repo(mirror["url"], mirror["dest"])
    while True:
        time.sleep(600)


main()
'''),
    # subprocess.run(cmd, **kwargs) where the kwargs dict carries shell=True; params.
    _v("h5_subprocess_kwargs_dict_shell", '''import subprocess

RUN_KWARGS = dict(shell=True, capture_output=True, text=True, timeout=120)


def convert_doc(src: str, fmt: str = "pdf") -> str:
    cmd = f"libreoffice --headless --convert-to {fmt} --outdir /tmp/out {src}"
    result = subprocess.run(cmd, **RUN_KWARGS)
    return result.stdout
'''),
    # a video CLI: a helper returns the ffmpeg command that os.system runs; args from argparse.
    _v("h5_os_system_helper_returns_cmd", '''import argparse
import os


def build_cmd(video: str, out: str, width: int) -> str:
    return f"ffmpeg -y -i {video} -vf scale={width}:-2 {out}"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("video")
    p.add_argument("out")
    p.add_argument("--width", type=int, default=640)
    a = p.parse_args()
    status = os.system(build_cmd(a.video, a.out, a.width))
    raise SystemExit(status >> 8)


if __name__ == "__main__":
    main()
'''),
    # a dependency audit script: subprocess.getstatusoutput per line of requirements.txt.
    _v("h5_getstatusoutput_requirements", '''import subprocess

with open("requirements.txt") as f:
    packages = [line.split("==")[0].strip() for line in f if line.strip()]

for pkg in packages:
    code, out = subprocess.getstatusoutput(f"pip show {pkg} | grep -i ^license")
    print(f"{pkg}: {out if code == 0 else 'not installed'}")
'''),
    # a Celery scan task: nmap run through Popen(shell=True) on a target from the API.
    _v("h5_celery_nmap_popen", '''import subprocess

from celery import shared_task


@shared_task
def scan_target(target: str, ports: str = "1-1024") -> str:
    proc = subprocess.Popen(
        f"nmap -sV -p {ports} {target}", shell=True, stdout=subprocess.PIPE, text=True
    )
    out, _ = proc.communicate(timeout=600)
    return out
'''),
    # an image resizer: %-formatting of paths into os.system; paths from a folder listing.
    _v("h5_os_system_percent_convert", '''import os

SRC = "incoming"
DST = "resized"

for name in os.listdir(SRC):
    if not name.lower().endswith((".jpg", ".png")):
        continue
    src = os.path.join(SRC, name)
    dst = os.path.join(DST, name)
    os.system("convert %s -resize %dx%d %s" % (src, 1024, 768, dst))
'''),
    # a MySQL provisioning helper: string.Template builds SQL that is pasted into a shell command.
    _v("h5_template_sql_into_shell", '''import subprocess
from string import Template

CREATE_DB = Template(
    "DROP DATABASE IF EXISTS $DBNAME; CREATE DATABASE $DBNAME DEFAULT CHARACTER SET utf8;"
)


class MysqlDb:
    def __init__(self, name: str, host: str = "localhost", root: str = "root"):
        self.name = name
        self.host = host
        self.root = root

    def create(self) -> None:
        sql = CREATE_DB.substitute(DBNAME=self.name)
        subprocess.run(f'mysql -h{self.host} -u{self.root} -e "{sql}"', shell=True, check=True)
'''),
    # a notebook exported by nbconvert (`jupyter nbconvert --to script`): the `!` lines became
    # get_ipython().system()/getoutput() calls that expand {src}/{dst}/{run} from the caller's
    # locals at run time; src and run come from the function's parameters.
    _v("h5_exported_notebook_get_ipython_system", '''#!/usr/bin/env python
# coding: utf-8

# In[1]:


import os


# In[2]:


def upload_run(src, run):
    dst = f"gs://ml-experiments/{run}/"
    get_ipython().system('gsutil -m cp -r {src} {dst}')
    listing = get_ipython().getoutput('gsutil ls gs://ml-experiments/{run}/')
    return listing


# In[3]:


upload_run(os.environ["RUN_DIR"], os.environ["RUN_NAME"])
'''),
    # ---------------------------------------------------------------- SQL, safe look-alikes
    # pedrojunqueira/pybites str_understand: the f-string is only in a parameter; SQL grows with ?.
    _s("h5_safe_pybites_params_append", '''import sqlite3

TABLE = "movies"


def find_movies(conn, title=None, year=None, score_gt=None):
    sql = f"SELECT * FROM {TABLE} WHERE 1 = 1"
    params = []
    if title:
        sql += " AND title LIKE ?"
        params.append(f"%{title}%")
    if year:
        sql += " AND year = ?"
        params.append(year)
    if score_gt is not None:
        sql += " AND score > ?"
        params.append(score_gt)
    print(sql, params)
    return conn.execute(sql, params).fetchall()


print(find_movies(sqlite3.connect("movies.db"), title=input("Title: ")))
'''),
    # the same Flask login as the pymysql case, written with %s placeholders and a tuple.
    _s("h5_safe_pymysql_login_params", '''import pymysql
from flask import Flask, request, session

app = Flask(__name__)


@app.post("/login")
def login():
    username = request.form["username"]
    password = request.form["password"]
    conn = pymysql.connect(host="localhost", user="web", password="web", database="shop")
    with conn, conn.cursor() as cursor:
        cursor.execute(
            "SELECT id FROM users WHERE username = %s AND password_hash = SHA2(%s, 256)",
            (username, password),
        )
        row = cursor.fetchone()
    if row:
        session["uid"] = row[0]
        return "ok"
    app.logger.info(f"failed login for {username!r}")
    return "denied", 401
'''),
    # a CLI audit query: the table checked against an allow-list, composed with sql.Identifier.
    _s("h5_safe_psycopg2_identifier_allowlist", '''import sys

import psycopg2
from psycopg2 import sql as psql

ALLOWED_TABLES = {"audit_log", "user_grants", "role_assignments"}


def safe_identifier_query(table: str, filter_val: str, conn):
    if table not in ALLOWED_TABLES:
        raise ValueError(f"Table '{table}' is not queryable via CLI")
    query = psql.SQL("SELECT * FROM {} WHERE status = %s").format(psql.Identifier(table))
    cur = conn.cursor()
    cur.execute(query, (filter_val,))
    return cur.fetchall()


with psycopg2.connect("dbname=audit") as conn:
    print(safe_identifier_query(sys.argv[1], sys.argv[2], conn))
'''),
    # an app's startup migration: ADD COLUMN statements from a constant dict of the code.
    _s("h5_safe_add_columns_constant_dict", '''from sqlalchemy import create_engine, inspect

engine = create_engine("sqlite:///dashboard.db")

MIGRATIONS = {
    "responsibility": "VARCHAR(120) DEFAULT ''",
    "priority": "VARCHAR(20) DEFAULT 'Normal'",
    "due_at": "TIMESTAMP",
    "public_note": "TEXT DEFAULT ''",
}


def migrate() -> None:
    existing = {c["name"] for c in inspect(engine).get_columns("meldungen")}
    for name, sql_type in MIGRATIONS.items():
        if name not in existing:
            with engine.begin() as connection:
                connection.exec_driver_sql(f"ALTER TABLE meldungen ADD COLUMN {name} {sql_type}")
'''),
    # an IN (...) list of ? placeholders built from the number of ids; the ids are parameters.
    _s("h5_safe_in_placeholders", '''import sqlite3


def products_by_ids(conn: sqlite3.Connection, ids: list[int]):
    if not ids:
        return []
    placeholders = ", ".join("?" for _ in ids)
    query = f"SELECT id, name, price FROM products WHERE id IN ({placeholders})"
    return conn.execute(query, ids).fetchall()


if __name__ == "__main__":
    wanted = [int(x) for x in input("ids: ").split(",")]
    print(products_by_ids(sqlite3.connect("shop.db"), wanted))
'''),
    # an API's pagination: the limit and offset are cast to int before they are formatted in.
    _s("h5_safe_limit_offset_int_cast", '''import sqlite3

from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/posts")
def posts():
    limit = min(int(request.args.get("limit", 20)), 100)
    offset = int(request.args.get("offset", 0))
    conn = sqlite3.connect("blog.db")
    rows = conn.execute(
        f"SELECT id, title FROM posts ORDER BY id DESC LIMIT {int(limit)} OFFSET {int(offset)}"
    ).fetchall()
    return jsonify(rows)
'''),
    # the Flask sort endpoint again, with the column and direction checked against allow-lists.
    _s("h5_safe_order_by_allowlist", '''import sqlite3

from flask import Flask, abort, jsonify, request

app = Flask(__name__)
SORTABLE = {"title", "author", "year"}


@app.get("/books")
def books():
    sort = request.args.get("sort", "title")
    if sort not in SORTABLE:
        abort(400)
    direction = "DESC" if request.args.get("desc") else "ASC"
    conn = sqlite3.connect("books.db")
    cur = conn.execute(f"SELECT id, title, author FROM books ORDER BY {sort} {direction}")
    return jsonify(cur.fetchall())
'''),
    # SQLAlchemy Core: select().where() with a bound comparison; the f-string is a log line.
    _s("h5_safe_sqlalchemy_core_select", '''import logging
import sys

from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select

log = logging.getLogger(__name__)
metadata = MetaData()
customers = Table(
    "customers", metadata, Column("id", Integer, primary_key=True), Column("region", String)
)


def customers_in(engine, region: str):
    stmt = select(customers).where(customers.c.region == region)
    log.info(f"querying customers in region {region}")
    with engine.connect() as conn:
        return conn.execute(stmt).fetchall()


print(customers_in(create_engine("sqlite:///crm.db"), sys.argv[1]))
'''),
    # an ORM session with text() and a :name bind parameter passed separately.
    _s("h5_safe_text_bind_params", '''from flask import Flask, jsonify, request
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import text

app = Flask(__name__)
db = SQLAlchemy(app)


@app.get("/users/lookup")
def lookup():
    email = request.args.get("email", "")
    rows = db.session.execute(
        text("SELECT id FROM users WHERE email = :email"), {"email": email}
    ).fetchall()
    return jsonify([r.id for r in rows])
'''),
    # the asyncpg catalogue endpoint with a $1 parameter.
    _s("h5_safe_asyncpg_dollar_param", '''import asyncpg
from fastapi import FastAPI

app = FastAPI()


@app.on_event("startup")
async def startup() -> None:
    app.state.pool = await asyncpg.create_pool(dsn="postgresql://shop@db/shop")


@app.get("/items/{category}")
async def items(category: str):
    async with app.state.pool.acquire() as conn:
        rows = await conn.fetch("SELECT id, name FROM items WHERE category = $1", category)
    print(f"{len(rows)} items in {category}")
    return [dict(r) for r in rows]
'''),
    # pandas read_sql_query with pyformat params; the f-string is a chart title.
    _s("h5_safe_read_sql_params_plot_title", '''import argparse

import matplotlib.pyplot as plt
import pandas as pd
from sqlalchemy import create_engine

p = argparse.ArgumentParser()
p.add_argument("--start")
p.add_argument("--end")
args = p.parse_args()

engine = create_engine("postgresql+psycopg2://bi@warehouse/sales")
df = pd.read_sql_query(
    "SELECT day, revenue FROM daily_revenue WHERE day BETWEEN %(start)s AND %(end)s",
    engine,
    params={"start": args.start, "end": args.end},
)
ax = df.plot(x="day", y="revenue")
ax.set_title(f"Revenue {args.start} to {args.end}")
plt.savefig(f"revenue_{args.start}_{args.end}.png")
'''),
    # a repository that logs the query with an f-string, then executes it with parameters.
    _s("h5_safe_logged_query_params", '''import logging

import psycopg

log = logging.getLogger("repo")
ORDERS_FOR_USER = "SELECT id, total FROM orders WHERE user_id = %s AND status = %s"


def orders_for(conn: psycopg.Connection, user_id: str, status: str = "paid"):
    log.debug(f"orders_for user={user_id} status={status}: {ORDERS_FOR_USER}")
    with conn.cursor() as cur:
        cur.execute(ORDERS_FOR_USER, (user_id, status))
        return cur.fetchall()
'''),
    # a daily BigQuery export with a query parameter; the run date only names the output file.
    _s("h5_safe_bigquery_query_parameters", '''import sys

from google.cloud import bigquery

client = bigquery.Client(project="shop-analytics")
run_date = sys.argv[1]

job_config = bigquery.QueryJobConfig(
    query_parameters=[bigquery.ScalarQueryParameter("run_date", "DATE", run_date)]
)
sql = """
    SELECT order_id, SUM(amount) AS revenue
    FROM `shop-analytics.sales.orders`
    WHERE DATE(created_at) = @run_date
    GROUP BY order_id
"""
df = client.query(sql, job_config=job_config).to_dataframe()
df.to_csv(f"revenue_{run_date}.csv", index=False)
'''),
    # DuckDB with ? parameters; the city only names the output parquet file.
    _s("h5_safe_duckdb_params_output_path", '''import sys

import duckdb

city, since = sys.argv[1], sys.argv[2]
con = duckdb.connect("trips.duckdb")
df = con.execute(
    "SELECT * FROM trips WHERE city = ? AND pickup_date >= ?", [city, since]
).df()
df.to_parquet(f"out/{city}_{since}.parquet")
print(f"wrote {len(df)} trips for {city}")
'''),
    # Spark 3.4+ named parameter markers passed through args=.
    _s("h5_safe_spark_args_markers", '''from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("region-report").getOrCreate()


def region_report(region: str, min_total: float):
    df = spark.sql(
        "SELECT customer_id, SUM(total) AS total FROM sales.orders "
        "WHERE region = :region GROUP BY customer_id HAVING SUM(total) > :min_total",
        args={"region": region, "min_total": min_total},
    )
    df.write.mode("overwrite").parquet(f"/mnt/reports/region={region}")
    return df
'''),
    # Django Model.objects.raw with a params list.
    _s("h5_safe_django_raw_params", '''from django.http import JsonResponse

from .models import Answer


def answers_for_post(request, post_id):
    answers = Answer.objects.raw(
        "SELECT * FROM base_answer WHERE post_id = %s ORDER BY created_at DESC", [post_id]
    )
    return JsonResponse({"answers": [a.body for a in answers]})
'''),
    # Snowflake: constants of the module formatted in; the day is bound with pyformat.
    _s("h5_safe_snowflake_constants_and_params", '''import os

import snowflake.connector

WAREHOUSE = "ANALYTICS_WH"
SCHEMA = "RAW"

conn = snowflake.connector.connect(
    user=os.environ["SF_USER"], password=os.environ["SF_PASSWORD"], account="xy12345"
)
cur = conn.cursor()
cur.execute(f"USE WAREHOUSE {WAREHOUSE}")
cur.execute(f"USE SCHEMA {SCHEMA}")
day = os.environ.get("LOAD_DAY", "2024-01-01")
cur.execute("DELETE FROM events WHERE event_date = %(day)s", {"day": day})
'''),
    # clickhouse_connect server-side binding: {dt:Date} in a plain string, values in parameters=.
    _s("h5_safe_clickhouse_server_binding", '''import argparse

import clickhouse_connect

p = argparse.ArgumentParser()
p.add_argument("--day", required=True)
p.add_argument("--user-id", required=True)
args = p.parse_args()

client = clickhouse_connect.get_client(host="ch.internal")
result = client.query(
    "SELECT count() FROM events WHERE dt = {dt:Date} AND user_id = {uid:String}",
    parameters={"dt": args.day, "uid": args.user_id},
)
print(f"{args.user_id} on {args.day}: {result.result_rows[0][0]} events")
'''),
    # a migration generator: the SQL f-string is written to a file for review, never executed.
    _s("h5_safe_sql_written_to_file", '''import sys
from pathlib import Path

table, column, sql_type = sys.argv[1:4]
statement = f"ALTER TABLE {table} ADD COLUMN {column} {sql_type};"
out = Path("migrations") / f"add_{table}_{column}.sql"
out.write_text(statement + "\\n")
print(f"wrote {out}; review it, then run it with the migration tool")
'''),
    # an INSERT whose column list and ? marks come from a constant tuple; values are parameters.
    _s("h5_safe_insert_constant_columns", '''import csv
import sqlite3

COLUMNS = ("id", "name", "price", "category")


def load(conn: sqlite3.Connection, path: str) -> None:
    cols = ", ".join(COLUMNS)
    marks = ", ".join("?" for _ in COLUMNS)
    insert = f"INSERT INTO products ({cols}) VALUES ({marks})"
    with open(path, newline="") as f:
        rows = [tuple(r[c] for c in COLUMNS) for r in csv.DictReader(f)]
    conn.executemany(insert, rows)
    conn.commit()
'''),
    # polars.read_database with execute_options parameters.
    _s("h5_safe_polars_execute_options", '''import sqlite3

import polars as pl


def load_barriers(side: str, cutoff_iso: str) -> pl.DataFrame:
    conn = sqlite3.connect("cache/barriers.sqlite")
    df = pl.read_database(
        "SELECT symbol, date, result FROM barrier_outcomes WHERE side = ? AND date >= ?",
        connection=conn,
        execute_options={"parameters": [side, cutoff_iso]},
    )
    conn.close()
    print(f"loaded {df.height} rows for side={side}")
    return df
'''),
    # pandas to_sql: the table name from the CLI is passed to to_sql, which quotes it.
    _s("h5_safe_pandas_to_sql_name", '''import sys

import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://etl@warehouse/staging")
prefix = sys.argv[1]
df = pd.read_csv(sys.argv[2])
df.to_sql(f"{prefix}_events", engine, if_exists="append", index=False, chunksize=5000)
print(f"appended {len(df)} rows to {prefix}_events")
'''),
    # a warehouse job: a query template .format()ed with module constants; values are bound.
    _s("h5_safe_format_constants_bound_values", '''import sys

import psycopg2

SCHEMA = "analytics"
TABLE = "daily_active_users"
QUERY_TEMPLATE = "SELECT day, users FROM {schema}.{table} WHERE day BETWEEN %s AND %s"


def dau(conn, start: str, end: str):
    query = QUERY_TEMPLATE.format(schema=SCHEMA, table=TABLE)
    with conn.cursor() as cur:
        cur.execute(query, (start, end))
        return cur.fetchall()


with psycopg2.connect("dbname=warehouse") as conn:
    for day, users in dau(conn, sys.argv[1], sys.argv[2]):
        print(f"{day}: {users}")
'''),
    # a loader validating its table argument: the f-string SQL only reaches an error message.
    _s("h5_safe_fstring_in_error_message", '''import sqlite3
import sys

KNOWN = ("orders", "customers")


def count_rows(conn: sqlite3.Connection, table: str) -> int:
    if table not in KNOWN:
        raise SystemExit(f"refusing to run SELECT COUNT(*) FROM {table}: unknown table")
    return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


print(count_rows(sqlite3.connect("shop.db"), sys.argv[1]))
'''),
    # ---------------------------------------------------------------- shell, safe look-alikes
    # gsutil helpers with argument lists, no shell.
    _s("h5_safe_gsutil_arg_list", '''import subprocess


def gsutil_cp(source_file: str, dest_file: str) -> None:
    assert source_file, "No SOURCE file specified"
    assert dest_file, "No DESTINATION file specified"
    print(subprocess.check_output(["gsutil", "cp", source_file, dest_file]))


def gsutil_ls(bucket_name: str) -> list[str]:
    out = subprocess.check_output(["gsutil", "ls", f"gs://{bucket_name}"], text=True)
    return [line for line in out.split("\\n") if line]
'''),
    # ImageMagick through os.system, every value passed through shlex.quote.
    _s("h5_safe_os_system_shlex_quote", '''import os
import shlex
import sys


def thumbnail(src: str, dst: str, size: int = 256) -> int:
    cmd = f"convert {shlex.quote(src)} -thumbnail {size}x{size} {shlex.quote(dst)}"
    print(f"running: {cmd}")
    return os.system(cmd)


if __name__ == "__main__":
    sys.exit(thumbnail(sys.argv[1], sys.argv[2]))
'''),
    # rsync with the argument list joined by shlex.join before shell=True.
    _s("h5_safe_shlex_join_shell_true", '''import shlex
import subprocess
import sys


def sync(src: str, dest: str, exclude: list[str]) -> None:
    cmd = ["rsync", "-av", "--delete"]
    cmd += [f"--exclude={pattern}" for pattern in exclude]
    cmd += [src, dest]
    subprocess.run(shlex.join(cmd) + " | tail -n 5", shell=True, check=True)


if __name__ == "__main__":
    sync(sys.argv[1], sys.argv[2], sys.argv[3:])
'''),
    # an ffmpeg wrapper that builds an argv list; the f-strings are an option value and a log line.
    _s("h5_safe_ffmpeg_argv_list", '''import logging
import subprocess

logger = logging.getLogger("ffmpeg")


def run_ffmpeg(src: str, dst: str, width: int = 640) -> bool:
    cmd = ["ffmpeg", "-hide_banner", "-y", "-i", src, "-vf", f"scale={width}:-2", dst]
    logger.debug(f"ffmpeg {' '.join(cmd)}")
    try:
        subprocess.run(cmd, capture_output=True, text=True, check=True)
        return True
    except subprocess.CalledProcessError as e:
        logger.error(f"ffmpeg failed on {src}: {e.stderr}")
        return False
'''),
    # a GPU monitor: a constant command with shell=True; f-strings only format its output.
    _s("h5_safe_constant_shell_command", '''import subprocess
import time

QUERY = "nvidia-smi --query-gpu=index,memory.used,memory.total --format=csv,noheader,nounits"

while True:
    out = subprocess.run(QUERY, shell=True, capture_output=True, text=True).stdout
    for line in out.strip().splitlines():
        idx, used, total = (x.strip() for x in line.split(","))
        print(f"GPU {idx}: {used}/{total} MiB ({100 * int(used) // int(total)}%)")
    time.sleep(5)
'''),
    # a fabric deploy whose values are shlex.quoted before they reach c.run.
    _s("h5_safe_fabric_shlex_quote", '''import shlex
import sys

from fabric import Connection


def deploy(host: str, branch: str, app_dir: str = "/srv/app") -> None:
    c = Connection(host, user="deploy")
    c.run(f"cd {shlex.quote(app_dir)} && git fetch origin && git checkout {shlex.quote(branch)}")
    c.sudo("systemctl restart app")


deploy(sys.argv[1], sys.argv[2])
'''),
    # paramiko exec_command with an int line count and a quoted path.
    _s("h5_safe_paramiko_int_and_quote", '''import shlex
import sys

import paramiko


def tail(host: str, path: str, lines: str) -> str:
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    client.connect(host, username="ops")
    _, stdout, _ = client.exec_command(f"tail -n {int(lines)} {shlex.quote(path)}")
    return stdout.read().decode()


print(tail(sys.argv[1], sys.argv[2], sys.argv[3]))
'''),
    # an async media probe with create_subprocess_exec (no shell).
    _s("h5_safe_asyncio_subprocess_exec", '''import asyncio
import json


async def probe(path: str) -> dict:
    proc = await asyncio.create_subprocess_exec(
        "ffprobe", "-v", "error", "-print_format", "json", "-show_format", path,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    info = json.loads(out)
    print(f"{path}: {info['format'].get('duration')} s")
    return info
'''),
    # an Airflow DAG passing the table through env=, the bash_command itself is constant.
    _s("h5_safe_bash_operator_env", '''import json
from datetime import datetime

from airflow import DAG
from airflow.operators.bash import BashOperator

with open("/opt/airflow/config/backup_tables.json") as f:
    TABLES = json.load(f)["tables"]

with DAG("pg_backup", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False) as dag:
    for i, table in enumerate(TABLES):
        BashOperator(
            task_id=f"dump_{i}",
            bash_command='pg_dump -h db -U backup -t "$TABLE" app > "/backups/$TABLE.sql"',
            env={"TABLE": table},
        )
'''),
    # a docker exec sh -c whose script is constant; the database is passed as "$1".
    _s("h5_safe_docker_exec_positional_arg", '''import subprocess
import sys


def dump(container: str, db: str) -> None:
    subprocess.run(
        ["docker", "exec", container, "sh", "-c",
         'pg_dump -U postgres "$1" > /tmp/dump.sql', "sh", db],
        check=True,
    )
    subprocess.run(["docker", "cp", f"{container}:/tmp/dump.sql", f"{db}.sql"], check=True)


dump("pg", sys.argv[1])
'''),
    # a dev-server helper: the port is cast to int before it is formatted into the command.
    _s("h5_safe_os_system_int_port", '''import os
import sys


def free_port(port) -> None:
    os.system(f"fuser -k {int(port)}/tcp")


if __name__ == "__main__":
    free_port(sys.argv[1] if len(sys.argv) > 1 else 8000)
    os.execvp("python", ["python", "manage.py", "runserver"])
'''),
    # a downloader with f-strings that only make file paths; the tool runs from an argv list.
    _s("h5_safe_fstring_paths_argv", '''import os
import shutil
import subprocess
import sys

url, name = sys.argv[1], sys.argv[2]
tmp = f"/tmp/{name}.part"
dest = os.path.join("data", f"{name}.csv")
subprocess.run(["curl", "-fsSL", "-o", tmp, url], check=True)
shutil.move(tmp, dest)
with open(f"{dest}.source", "w") as f:
    f.write(url)
'''),
    # a bootstrap script: shell=True with an f-string of module constants only.
    _s("h5_safe_shell_fstring_module_constants", '''import subprocess
import sys

PYTHON = "python3"
REQUIREMENTS = "requirements/dev.txt"
VENV = ".venv"

subprocess.run(f"{PYTHON} -m venv {VENV}", shell=True, check=True)
subprocess.run(f". {VENV}/bin/activate && pip install -r {REQUIREMENTS}", shell=True, check=True)
print(f"ready: {VENV} ({sys.platform})")
'''),
    # ---------------------------------------------------------------- notebooks, vulnerable
    # a data-download notebook: !wget in a loop over rows of a CSV of dataset URLs.
    _nb("h5_nb_wget_rows_of_csv", True,
        '''import os

import pandas as pd

os.makedirs("data", exist_ok=True)
datasets = pd.read_csv("datasets.csv")
datasets.head()''',
        '''for _, row in datasets.iterrows():
    url, fname = row["url"], row["file"]
    !wget -q {url} -O data/{fname}''',
        '''!ls -lh data'''),
    # a notebook listing parquet files of a folder named by an environment variable (x = !ls).
    _nb("h5_nb_capture_ls_env_dir", True,
        '''import os

data_dir = os.environ.get("DATA_DIR", "/data/raw")''',
        '''files = !ls {data_dir}/*.parquet
print(f"{len(files)} parquet files")''',
        '''import pandas as pd

df = pd.concat(pd.read_parquet(f) for f in files)
df.shape'''),
    # a taxi-fare exploration: a %%time cell runs a DuckDB query with a widget's value.
    _nb("h5_nb_time_cell_duckdb_widget", True,
        '''import duckdb
import ipywidgets as widgets

fare_box = widgets.Text(value="50", description="Min fare")
fare_box''',
        '''min_fare = fare_box.value''',
        '''%%time
con = duckdb.connect()
df = con.sql(f"SELECT * FROM 'yellow_tripdata.parquet' WHERE fare_amount > {min_fare}").df()
len(df)'''),
    # a sales notebook: the user's country in one cell, the query in the next, read in a third.
    _nb("h5_nb_query_across_cells", True,
        '''import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql://analyst@warehouse/sales")
country = input("Country: ")''',
        '''query = f"""
SELECT date_trunc('month', ordered_at) AS month, SUM(total) AS revenue
FROM orders
WHERE country = '{country}'
GROUP BY 1
ORDER BY 1
"""''',
        '''df = pd.read_sql(query, engine)
df.plot(x="month", y="revenue")'''),
    # jupysql: a %%sql cell with a {{species}} Jinja placeholder, which pastes the value as text.
    _nb("h5_nb_jupysql_jinja_placeholder", True,
        '''%load_ext sql
%sql duckdb://''',
        '''species = input("Species: ")''',
        '''%%sql
SELECT island, COUNT(*) AS n
FROM penguins.csv
WHERE species = '{{species}}'
GROUP BY island'''),
    # a training notebook uploading every file of the outputs folder with !gsutil in a loop.
    _nb("h5_nb_gsutil_loop_listdir", True,
        '''import os

BUCKET = "team-models"''',
        '''for name in os.listdir("outputs"):
    !gsutil cp outputs/{name} gs://{BUCKET}/runs/{name}'''),
    # a notebook unzipping downloads with get_ipython().system and an f-string over a glob.
    _nb("h5_nb_get_ipython_system_glob", True,
        '''import glob
import os

os.makedirs("extracted", exist_ok=True)''',
        '''for zip_path in glob.glob("downloads/*.zip"):
    get_ipython().system(f"unzip -o {zip_path} -d extracted/")''',
        '''!du -sh extracted'''),
    # a repo-stats notebook: the author typed by the user in a captured !git log.
    _nb("h5_nb_git_log_author_input", True,
        '''author = input("GitHub user: ")''',
        '''log = !git log --author={author} --since="6 months ago" --oneline
print(len(log), "commits")
log[:10]'''),
    # a %%capture cell installing extra packages listed in a requirements file.
    _nb("h5_nb_capture_pip_from_file", True,
        '''%%capture
with open("requirements-extra.txt") as f:
    for pkg in f.read().split():
        !pip install {pkg}''',
        '''import importlib.metadata as md

print(md.version("pandas"))'''),
    # a network notebook: a widget's host pinged through subprocess with shell=True.
    _nb("h5_nb_widget_subprocess_shell", True,
        '''import subprocess

import ipywidgets as widgets

host_box = widgets.Text(description="Host")
host_box''',
        '''host = host_box.value
out = subprocess.run(f"ping -c 2 {host}", shell=True, capture_output=True, text=True).stdout
print(out)'''),
    # a %sx line magic whose pattern comes from input().
    _nb("h5_nb_sx_grep_input", True,
        '''pattern = input("grep for: ")''',
        '''hits = %sx grep -rn {pattern} notebooks/
len(hits)'''),
    # a notebook capturing du output via get_ipython().getoutput with {folder} (the exported form).
    _nb("h5_nb_getoutput_folder_input", True,
        '''folder = input("Folder to measure: ")''',
        '''sizes = get_ipython().getoutput("du -sh {folder}/*")
sorted(sizes, reverse=True)[:10]'''),
    # a notebook using psql from a ! line: the user id is pasted into the SQL inside the command.
    _nb("h5_nb_bang_psql_user_id", True,
        '''user_id = input("User id: ")''',
        '''!psql -d analytics -c "SELECT event, ts FROM events WHERE user_id = '{user_id}'"'''),
    # an experiment notebook: $out_dir expanded by IPython into the shell line.
    _nb("h5_nb_dollar_var_mkdir", True,
        '''experiment = input("Experiment name: ")
out_dir = f"runs/{experiment}"''',
        '''!mkdir -p $out_dir && cp results/*.csv $out_dir
!ls $out_dir'''),
    # ---------------------------------------------------------------- notebooks, safe look-alikes
    # a %%time cell timing a DuckDB query whose widget value is bound as a parameter.
    _nb("h5_nb_time_cell_duckdb_param", False,
        '''import duckdb
import ipywidgets as widgets

fare_box = widgets.FloatText(value=50.0, description="Min fare")
fare_box''',
        '''%%time
con = duckdb.connect()
df = con.execute(
    "SELECT * FROM 'yellow_tripdata.parquet' WHERE fare_amount > ?", [fare_box.value]
).df()
print(f"{len(df)} trips above {fare_box.value}")'''),
    # a geo notebook installing the missing ones of a constant list of packages.
    _nb("h5_nb_pip_install_missing_constants", False,
        '''import importlib

required_packages = ["geopandas", "shapely", "pyproj", "h3", "folium"]
missing = []
for package in required_packages:
    try:
        importlib.import_module(package)
    except ImportError:
        missing.append(package)''',
        '''if missing:
    print(f"Installing missing packages: {missing}")
    !pip install {' '.join(missing)} -q
else:
    print("All dependencies are installed")'''),
    # a %%bash cell reading "$DATA_DIR" (bash expands it, quoted; IPython leaves the body alone).
    _nb("h5_nb_bash_cell_env_var", False,
        '''import os

data_dir = input("Data folder: ")
os.environ["DATA_DIR"] = data_dir''',
        '''%%bash
for f in "$DATA_DIR"/*.csv; do
  wc -l "$f"
done''',
        '''print(f"counted the csv files of {data_dir}")'''),
    # jupysql with named parameters enabled: :name is bound from the namespace, not pasted.
    _nb("h5_nb_jupysql_named_parameters", False,
        '''%load_ext sql
%sql sqlite:///shop.db
%config SqlMagic.named_parameters = "enabled"''',
        '''name = input("Customer name: ")''',
        '''%sql SELECT id, name, city FROM customers WHERE name = :name'''),
    # the project's own i-strings: sql() gives placeholders and parameters, sh() quoted words.
    _nb("h5_nb_istring_sql_and_sh", False,
        '''%load_ext ipy_istring
import os
import sqlite3

from ipy_istring import sh, sql

con = sqlite3.connect("users.db")
cur = con.cursor()''',
        '''name = input("Name: ")
cur.execute(*sql(i"SELECT id, email FROM users WHERE name = {name}"))
cur.fetchall()''',
        '''src = input("File to back up: ")
os.system(sh(i"cp -- {src} backup/"))'''),
    # shell lines with shell variables only: $HOME, $$HOME and an awk program in braces.
    _nb("h5_nb_shell_vars_and_awk", False,
        '''!echo $HOME
!ls $$HOME/data | head''',
        '''!awk -F, '{print $1}' data/train.csv | sort | uniq -c | head
!pip install -q pandas==2.2.2'''),
    # a notebook quoting the user's path with shlex.quote inside {} of ! lines.
    _nb("h5_nb_bang_shlex_quote", False,
        '''import shlex

path = input("File: ")''',
        '''!ls -la {shlex.quote(path)}
n = !wc -l < {shlex.quote(path)}
n'''),
    # a video notebook running ffmpeg from an argument list; f-strings only name files and print.
    _nb("h5_nb_subprocess_argv_ffmpeg", False,
        '''import subprocess
from pathlib import Path

src = input("Video: ")
thumb = Path("thumbs") / f"{Path(src).stem}.jpg"''',
        '''subprocess.run(
    ["ffmpeg", "-y", "-i", src, "-ss", "00:00:05", "-frames:v", "1", str(thumb)], check=True
)
print(f"wrote {thumb}")'''),
    # the i-string sh() with the extension's names, next to a constant ! line.
    _nb("h5_nb_istring_sh_namespace", False,
        '''%load_ext ipy_istring
import os''',
        '''src = input("Notebook to convert: ")
os.system(sh(i"jupyter nbconvert --to html -- {src}"))''',
        '''!ls -la *.html'''),
    # a sqlite notebook: the name bound with ?, the f-string only printed.
    _nb("h5_nb_sqlite_qmark_print", False,
        '''import sqlite3

con = sqlite3.connect("library.db")''',
        '''author = input("Author: ")''',
        '''rows = con.execute("SELECT title, year FROM books WHERE author = ?", (author,))
rows = rows.fetchall()
print(f"{len(rows)} books by {author}")
rows'''),
]
