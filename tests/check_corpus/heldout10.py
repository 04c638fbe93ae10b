"""Tenth held-out corpus for the unsafe-format check, written blind.

Written by a helper who never opened the check (``ipy_istring/check/``), its tests, its
benchmark, or any held-out corpus file's cases; only ``cases.py`` (for the ``Case`` dataclass
and the ``_v``/``_s`` helpers; it holds the project's own corpus too), the header of
``heldout9.py``, the first lines of the package docstring and the README's description of the
check were read, and neither the check nor bandit nor ruff was run on these cases before they
were committed. It leans towards kinds of public code the earlier corpora name little, each
rewritten by hand, never copied: Django management commands, views, admin filters, ``raw()``,
``extra()`` and ``RawSQL``; Flask and FastAPI admin endpoints (Flask-SQLAlchemy, ``databases``);
scrapers (Scrapy pipelines, BeautifulSoup, image downloaders); home-automation scripts (MQTT
handlers, text-to-speech, Wi-Fi setup portals); ML training launchers (``torchrun``,
``accelerate``, Slurm ``sbatch`` with ``--wrap`` or a generated job script), MLflow and DVC
runs; geospatial code (``ogr2ogr``, ``gdal_translate``, OGR ``ExecuteSQL``, PostGIS through
psycopg2 and geopandas ``read_postgis``); bioinformatics pipelines (bwa, samtools);
backup scripts (rsync, borg, pg_dump); Kubernetes, helm and kubectl wrappers; Ansible-like
SSH runners and fabric/invoke tasks; game servers (Minecraft ``screen``, Source ``srcds``,
leaderboards); chat-ops bots (Slack, Discord, Telegram, Errbot); peewee, Pony, records and
dataset raw SQL; ``string.Template`` queries; sqlite3 command-line tools; Snowflake and
BigQuery clients; and notebooks with ``%sql`` (ipython-sql's ``{expr}`` expansion against
its ``:x`` bind), JupySQL ``%%sql`` cells templated with ``{{x}}``, DuckDB, BigQuery, pandas
``read_sql``, ``%%capture``, ``!`` lines running ogr2ogr, convert, bwa or torchrun, and
``x = !cmd`` output fed back into a command. 121 cases: 71 vulnerable, 50 safe; 20 are
notebooks (11 vulnerable, 9 safe).
The comment before each case names the kind of code and, for a vulnerable case, where the
tainted value comes from.

A case is vulnerable when a value the code does not control (argv and CLI options, HTTP
query, form and path parameters, uploaded file names, environment, stdin and ``input()``,
widget values, config, YAML, CSV or sample-sheet content, scraped page content, MQTT, chat
and queue messages, command output) reaches shell or SQL text as code, including through a
Slurm job script written to disk and then submitted. Safe cases are honest look-alikes:
bound parameters (also with the parameter's value built by an f-string, and ipython-sql's
``:name``, Pony's ``$name`` and BigQuery's ``@name`` binds, SQLAlchemy expanding binds),
allow-listed, ``int()``/``float()`` cast, date-parsed, IP-address-parsed or argparse
``choices`` values, ``shlex.quote``, argv lists without a shell, values handed to the shell
through its environment, ``psycopg2.sql`` composition, a model's own table name, constant-
only f-strings reaching a sink, ``strftime`` and ``uuid`` names, and f-strings that only
reach logs, paths, HTTP URLs, MLflow filters or a game server's RCON.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


SQL = [
    # Django management command that empties a table; the table comes from the command's
    # positional argument (options["table"]).
    _v(
        "django_command_truncate",
        """
from django.core.management.base import BaseCommand
from django.db import connection


class Command(BaseCommand):
    help = "Empty a table and reset its sequence"

    def add_arguments(self, parser):
        parser.add_argument("table")

    def handle(self, *args, **options):
        table = options["table"]
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {table} RESTART IDENTITY CASCADE")
        self.stdout.write(self.style.SUCCESS(f"emptied {table}"))
""",
    ),
    # Django view with a search box; q comes from the query string (request.GET).
    _v(
        "django_view_raw_search",
        """
from django.shortcuts import render

from shop.models import Product


def search(request):
    q = request.GET.get("q", "")
    products = Product.objects.raw(
        "SELECT * FROM shop_product WHERE name ILIKE '%%" + q + "%%' ORDER BY name"
    )
    return render(request, "shop/search.html", {"products": products, "q": q})
""",
    ),
    # Django admin list filter; the selected value comes from the admin URL's query string.
    _v(
        "django_admin_filter_extra",
        """
from django.contrib import admin


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [("open", "Open"), ("closed", "Closed")]

    def queryset(self, request, queryset):
        if self.value():
            return queryset.extra(where=[f"status = '{self.value()}'"])
        return queryset
""",
    ),
    # Django report view annotating with a time zone; tz comes from request.GET.
    _v(
        "django_rawsql_timezone",
        """
from django.db.models.expressions import RawSQL
from django.http import JsonResponse

from orders.models import Order


def by_local_day(request):
    tz = request.GET.get("tz", "UTC")
    qs = Order.objects.annotate(
        local_day=RawSQL(f"date(created AT TIME ZONE '{tz}')", [])
    ).values("local_day")
    return JsonResponse(list(qs), safe=False)
""",
    ),
    # Flask admin endpoint for bulk deletion; ids come from a posted form field.
    _v(
        "flask_admin_bulk_delete",
        """
from flask import Blueprint, redirect, request
from sqlalchemy import text

from .extensions import db

admin = Blueprint("admin", __name__)


@admin.route("/admin/users/delete", methods=["POST"])
def bulk_delete():
    ids = request.form["ids"]
    db.session.execute(text(f"DELETE FROM users WHERE id IN ({ids})"))
    db.session.commit()
    return redirect("/admin/users")
""",
    ),
    # Flask-SQLAlchemy (1.x) audit page; actor comes from request.args.
    _v(
        "flask_engine_execute_audit",
        """
from flask import Flask, render_template, request
from flask_sqlalchemy import SQLAlchemy

app = Flask(__name__)
db = SQLAlchemy(app)


@app.route("/admin/audit")
def audit():
    actor = request.args.get("actor", "")
    rows = db.engine.execute(
        f"SELECT ts, action FROM audit_log WHERE actor = '{actor}' ORDER BY ts DESC"
    )
    return render_template("audit.html", rows=rows)
""",
    ),
    # FastAPI admin listing with the databases library; sort comes from a query parameter.
    _v(
        "fastapi_databases_sort",
        """
import databases
from fastapi import FastAPI

database = databases.Database("postgresql://localhost/app")
app = FastAPI()


@app.get("/admin/customers")
async def customers(sort: str = "id", limit: int = 50):
    query = f"SELECT id, name, email FROM customers ORDER BY {sort} LIMIT {limit}"
    return await database.fetch_all(query=query)
""",
    ),
    # FastAPI endpoint on an old SQLAlchemy Session; email comes from the path.
    _v(
        "fastapi_session_execute_percent",
        """
from fastapi import Depends, FastAPI
from sqlalchemy.orm import Session

from .db import get_session

app = FastAPI()


@app.get("/admin/users/{email}")
def user(email: str, session: Session = Depends(get_session)):
    row = session.execute("SELECT * FROM users WHERE email = '%s'" % email).first()
    return dict(row) if row else {}
""",
    ),
    # Scrapy item pipeline storing quotes; the fields come from the scraped page.
    _v(
        "scrapy_pipeline_insert",
        """
import sqlite3


class SQLitePipeline:
    def open_spider(self, spider):
        self.conn = sqlite3.connect("quotes.db")
        self.cur = self.conn.cursor()

    def process_item(self, item, spider):
        self.cur.execute(
            f"INSERT INTO quotes (text, author) VALUES ('{item['text']}', '{item['author']}')"
        )
        self.conn.commit()
        return item

    def close_spider(self, spider):
        self.conn.close()
""",
    ),
    # BeautifulSoup link crawler; each href comes from the fetched page.
    _v(
        "bs4_crawler_links",
        """
import sqlite3

import requests
from bs4 import BeautifulSoup

conn = sqlite3.connect("crawl.db")
conn.execute("CREATE TABLE IF NOT EXISTS links (url TEXT PRIMARY KEY)")

html = requests.get("https://example.org/", timeout=10).text
for a in BeautifulSoup(html, "html.parser").find_all("a", href=True):
    href = a["href"]
    conn.execute("INSERT OR IGNORE INTO links VALUES ('%s')" % href)
conn.commit()
""",
    ),
    # click tool over a peewee database; tag comes from a --tag option.
    _v(
        "peewee_execute_sql_tag",
        """
import click
from peewee import SqliteDatabase

db = SqliteDatabase("notes.db")


@click.command()
@click.option("--tag", required=True)
def by_tag(tag):
    cursor = db.execute_sql(f"SELECT title FROM note WHERE tags LIKE '%{tag}%'")
    for (title,) in cursor.fetchall():
        click.echo(title)
""",
    ),
    # Flask microblog on peewee; user_id comes from the URL path (a string converter).
    _v(
        "peewee_model_raw_path",
        """
from flask import Flask, render_template
from peewee import CharField, Model, SqliteDatabase

db = SqliteDatabase("tweets.db")
app = Flask(__name__)


class Tweet(Model):
    content = CharField()

    class Meta:
        database = db


@app.route("/u/<user_id>")
def timeline(user_id):
    tweets = Tweet.raw(f"SELECT * FROM tweet WHERE user_id = {user_id} ORDER BY id DESC")
    return render_template("timeline.html", tweets=tweets)
""",
    ),
    # peewee search with an SQL() fragment; term comes from the search form.
    _v(
        "peewee_sql_fragment",
        """
from flask import request
from peewee import SQL

from .models import Note


def search_notes():
    term = request.args.get("q", "")
    return list(Note.select().where(SQL(f"content LIKE '%{term}%'")))
""",
    ),
    # Pony ORM raw select; city comes from a Telegram message's text.
    _v(
        "pony_select_fstring",
        """
from pony.orm import Database, db_session

db = Database()
db.bind(provider="sqlite", filename="people.sqlite")


@db_session
def handle(update, context):
    city = update.message.text.strip()
    names = db.select(f"SELECT name FROM Person WHERE city = '{city}'")
    update.message.reply_text(", ".join(names) or "nobody")
""",
    ),
    # Pony ORM raw update from a bot command; name and age are the command's arguments.
    _v(
        "pony_execute_update",
        """
from pony.orm import Database, db_session

db = Database()
db.bind(provider="postgres", user="bot", database="club")


@db_session
def set_age(update, context):
    name, age = context.args[0], context.args[1]
    db.execute("UPDATE person SET age = %s WHERE name = '%s'" % (age, name))
    update.message.reply_text("ok")
""",
    ),
    # records-based report script; status comes from sys.argv.
    _v(
        "records_query_argv",
        """
import sys

import records

db = records.Database("postgresql://localhost/shop")
status = sys.argv[1]
rows = db.query(f"SELECT id, total FROM orders WHERE status = '{status}'")
print(rows.export("csv"))
""",
    ),
    # dataset-based exporter; kind comes from an environment variable.
    _v(
        "dataset_query_env",
        """
import os

import dataset

db = dataset.connect("sqlite:///events.db")
kind = os.environ.get("EVENT_KIND", "click")
for row in db.query("SELECT * FROM events WHERE kind = '" + kind + "'"):
    print(row["id"], row["ts"])
""",
    ),
    # argparse log-pruning CLI over sqlite3; the cutoff comes from --older-than.
    _v(
        "sqlite_cli_prune",
        """
import argparse
import sqlite3

parser = argparse.ArgumentParser(description="prune old log rows")
parser.add_argument("db")
parser.add_argument("--older-than", required=True, help="YYYY-MM-DD")
args = parser.parse_args()

conn = sqlite3.connect(args.db)
deleted = conn.execute(f"DELETE FROM log WHERE ts < '{args.older_than}'").rowcount
conn.commit()
print(f"deleted {deleted} rows")
""",
    ),
    # Lambda that loads a staged file into Snowflake; table and prefix come from the S3 event.
    _v(
        "snowflake_copy_into_event",
        """
import os

import snowflake.connector


def handler(event, context):
    key = event["Records"][0]["s3"]["object"]["key"]
    table, prefix = key.split("/", 1)
    conn = snowflake.connector.connect(
        user=os.environ["SF_USER"], password=os.environ["SF_PASSWORD"], account="acme"
    )
    cur = conn.cursor()
    cur.execute(f"COPY INTO raw.{table} FROM @raw_stage/{prefix} FILE_FORMAT = (TYPE = CSV)")
    return {"loaded": cur.rowcount}
""",
    ),
    # Flask upload endpoint that PUTs a file to a Snowflake table stage; the name is the upload's.
    _v(
        "snowflake_put_upload",
        """
from flask import request

from .warehouse import connect


def upload():
    f = request.files["file"]
    path = f"/tmp/{f.filename}"
    f.save(path)
    with connect() as conn:
        conn.cursor().execute("PUT file://" + path + " @%uploads AUTO_COMPRESS=TRUE")
    return "ok"
""",
    ),
    # Cloud Function querying BigQuery; user_id comes from the HTTP request's JSON.
    _v(
        "bigquery_function_user",
        """
from google.cloud import bigquery

client = bigquery.Client()


def user_sessions(request):
    user_id = request.get_json()["user_id"]
    job = client.query(
        f"SELECT session_id, started FROM `acme.web.sessions` WHERE user_id = '{user_id}'"
    )
    return {"sessions": [dict(r) for r in job.result()]}
""",
    ),
    # BigQuery row-count script; dataset and table come from sys.argv.
    _v(
        "bigquery_count_argv",
        """
import sys

from google.cloud import bigquery

dataset, table = sys.argv[1], sys.argv[2]
client = bigquery.Client()
sql = "SELECT COUNT(*) AS n FROM `{}.{}`".format(dataset, table)
print(list(client.query(sql).result())[0].n)
""",
    ),
    # Home-automation dashboard reading sensor history; the sensor comes from an MQTT payload.
    _v(
        "pandas_sensor_history_mqtt",
        """
import pandas as pd
import paho.mqtt.client as mqtt
from sqlalchemy import create_engine

engine = create_engine("sqlite:///home.db")


def on_message(client, userdata, msg):
    sensor = msg.payload.decode()
    df = pd.read_sql("SELECT ts, value FROM readings WHERE sensor = '%s'" % sensor, engine)
    client.publish("home/history", df.tail(24).to_json())


client = mqtt.Client()
client.on_message = on_message
client.connect("localhost")
client.subscribe("home/history/request")
client.loop_forever()
""",
    ),
    # geopandas map tile endpoint; bbox comes from the query string.
    _v(
        "geopandas_read_postgis_bbox",
        """
import geopandas as gpd
from flask import Flask, request
from sqlalchemy import create_engine

app = Flask(__name__)
engine = create_engine("postgresql://localhost/gis")


@app.route("/parcels.geojson")
def parcels():
    bbox = request.args["bbox"]
    gdf = gpd.read_postgis(
        f"SELECT id, geom FROM parcels WHERE geom && ST_MakeEnvelope({bbox}, 4326)",
        con=engine,
        geom_col="geom",
    )
    return gdf.to_json()
""",
    ),
    # PostGIS nearest-feature lookup with psycopg2; lon/lat come from request.args (strings).
    _v(
        "postgis_nearest_psycopg2",
        """
import psycopg2
from flask import jsonify, request

conn = psycopg2.connect("dbname=gis")


def nearest_stop():
    lon = request.args.get("lon")
    lat = request.args.get("lat")
    with conn.cursor() as cur:
        cur.execute(
            "SELECT name FROM stops "
            f"ORDER BY geom <-> ST_SetSRID(ST_Point({lon}, {lat}), 4326) LIMIT 1"
        )
        return jsonify(cur.fetchone())
""",
    ),
    # OGR ExecuteSQL on a PostGIS data source; the road name comes from argv.
    _v(
        "ogr_execute_sql_postgis",
        """
import sys

from osgeo import ogr

ds = ogr.Open("PG:dbname=gis")
name = sys.argv[1]
layer = ds.ExecuteSQL(f"SELECT id, ST_Length(geom) FROM roads WHERE name = '{name}'")
for feature in layer:
    print(feature.GetField(0), feature.GetField(1))
ds.ReleaseResultSet(layer)
""",
    ),
    # Discord economy bot on aiosqlite; the member's display name is chosen by the member.
    _v(
        "aiosqlite_discord_balance",
        """
import aiosqlite
import discord
from discord.ext import commands

bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())


@bot.command()
async def balance(ctx):
    async with aiosqlite.connect("economy.db") as db:
        async with db.execute(
            f"SELECT coins FROM wallets WHERE name = '{ctx.author.display_name}'"
        ) as cur:
            row = await cur.fetchone()
    await ctx.send(f"{row[0] if row else 0} coins")
""",
    ),
    # DuckDB export CLI; the output file name comes from argv.
    _v(
        "duckdb_copy_to_argv",
        """
import sys

import duckdb

out = sys.argv[1]
con = duckdb.connect("events.duckdb")
con.execute(f"COPY (SELECT * FROM events WHERE day = current_date) TO '{out}' (FORMAT PARQUET)")
""",
    ),
    # Small TCP game server's leaderboard; the player name comes from the socket.
    _v(
        "game_leaderboard_socket",
        """
import socketserver
import sqlite3

conn = sqlite3.connect("scores.db", check_same_thread=False)


class ScoreHandler(socketserver.StreamRequestHandler):
    def handle(self):
        name, score = self.rfile.readline().decode().strip().split(",")
        conn.execute("INSERT INTO scores VALUES ('" + name + "', " + str(int(score)) + ")")
        conn.commit()


socketserver.TCPServer(("", 9999), ScoreHandler).serve_forever()
""",
    ),
    # Nightly partition loader with string.Template; the day comes from argv.
    _v(
        "string_template_partition",
        """
import sys
from string import Template

import psycopg2

LOAD = Template(
    "DELETE FROM facts WHERE day = '$day'; "
    "INSERT INTO facts SELECT * FROM staging WHERE day = '$day'"
)

day = sys.argv[1]
with psycopg2.connect("dbname=dw") as conn, conn.cursor() as cur:
    cur.execute(LOAD.substitute(day=day))
""",
    ),
    # Celery task dropping a tenant's schema; the tenant comes from the task's message.
    _v(
        "celery_drop_tenant_schema",
        """
from celery import shared_task
from django.db import connection


@shared_task
def purge_tenant(tenant):
    with connection.cursor() as cursor:
        cursor.execute("DROP SCHEMA IF EXISTS %s CASCADE" % tenant)
""",
    ),
]

SHELL = [
    # torchrun launcher; the GPU count and config path come from argparse options.
    _v(
        "torchrun_launcher_shell",
        """
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", default="8")
parser.add_argument("--config", required=True)
args = parser.parse_args()

subprocess.run(
    f"torchrun --standalone --nproc_per_node={args.gpus} train.py --config {args.config}",
    shell=True,
    check=True,
)
""",
    ),
    # accelerate launcher; the process count and run name come from sys.argv.
    _v(
        "accelerate_launch_argv",
        """
import os
import sys

num_processes, run_name = sys.argv[1], sys.argv[2]
os.system(
    "accelerate launch --num_processes %s train.py --run-name %s --output-dir runs/%s"
    % (num_processes, run_name, run_name)
)
""",
    ),
    # Slurm sweep submitter with --wrap; the learning rates come from a YAML sweep file.
    _v(
        "slurm_sbatch_wrap_sweep",
        """
import subprocess

import yaml

with open("sweep.yaml") as fh:
    sweep = yaml.safe_load(fh)

for lr in sweep["lr"]:
    name = f"{sweep['name']}-lr{lr}"
    subprocess.run(
        f"sbatch --job-name={name} --gres=gpu:1 --wrap='python train.py --lr {lr}'",
        shell=True,
        check=True,
    )
""",
    ),
    # Slurm launcher that writes a job script and submits it; the dataset and run name come
    # from argv and end up as lines of the bash script sbatch runs.
    _v(
        "slurm_generated_job_script",
        """
import subprocess
import sys
from pathlib import Path

TEMPLATE = '''#!/bin/bash
#SBATCH --job-name={name}
#SBATCH --gres=gpu:4
#SBATCH --time=24:00:00
srun python train.py --data {data} --out checkpoints/{name}
'''

name, data = sys.argv[1], sys.argv[2]
script = Path(f"jobs/{name}.sbatch")
script.write_text(TEMPLATE.format(name=name, data=data))
subprocess.run(["sbatch", str(script)], check=True)
""",
    ),
    # MLflow project runner; the hyperparameters come from sys.argv.
    _v(
        "mlflow_run_cli_params",
        """
import os
import sys

alpha = sys.argv[1] if len(sys.argv) > 1 else "0.5"
l1_ratio = sys.argv[2] if len(sys.argv) > 2 else "0.1"
os.system(f"mlflow run . -e train -P alpha={alpha} -P l1_ratio={l1_ratio}")
""",
    ),
    # DVC experiment queue driven by a Slack slash command; the text comes from Slack.
    _v(
        "dvc_exp_run_slack",
        """
import subprocess

from slack_bolt import App

app = App()


@app.command("/experiment")
def experiment(ack, respond, command):
    ack()
    epochs, name = command["text"].split()
    subprocess.check_call(
        f"dvc exp run --queue --set-param train.epochs={epochs} -n {name}", shell=True
    )
    respond(f"queued {name}")
""",
    ),
    # Flask shapefile import endpoint; the file name is the upload's own.
    _v(
        "ogr2ogr_upload_import",
        """
import os

from flask import Flask, request

app = Flask(__name__)


@app.route("/import", methods=["POST"])
def import_layer():
    upload = request.files["shapefile"]
    path = os.path.join("/srv/uploads", upload.filename)
    upload.save(path)
    layer = request.form.get("layer", "imported")
    os.system(f'ogr2ogr -f PostgreSQL PG:"dbname=gis" {path} -nln {layer} -overwrite')
    return "imported"
""",
    ),
    # Watch-folder raster converter; the path comes from the file system event.
    _v(
        "gdal_translate_watchdog",
        """
import subprocess

from watchdog.events import FileSystemEventHandler
from watchdog.observers import Observer


class ToCog(FileSystemEventHandler):
    def on_created(self, event):
        src = event.src_path
        dst = src.rsplit(".", 1)[0] + "_cog.tif"
        subprocess.Popen("gdal_translate -of COG %s %s" % (src, dst), shell=True)


observer = Observer()
observer.schedule(ToCog(), "/data/incoming")
observer.start()
observer.join()
""",
    ),
    # Alignment pipeline; the sample names and read paths come from a sample sheet CSV.
    _v(
        "bwa_samtools_sample_sheet",
        """
import csv
import subprocess

REF = "ref/GRCh38.fa"

with open("samples.csv") as fh:
    for row in csv.DictReader(fh):
        subprocess.run(
            f"bwa mem -t 8 {REF} {row['r1']} {row['r2']} "
            f"| samtools sort -o bam/{row['sample']}.bam -",
            shell=True,
            check=True,
        )
""",
    ),
    # QC helper; the BAM path comes from sys.argv.
    _v(
        "samtools_idxstats_getoutput",
        """
import subprocess
import sys


def mapped_reads(bam):
    out = subprocess.getoutput(f"samtools idxstats {bam}")
    return sum(int(line.split()[2]) for line in out.splitlines())


print(mapped_reads(sys.argv[1]))
""",
    ),
    # rsync backup runner; the source and destination come from a YAML config.
    _v(
        "rsync_backup_yaml",
        """
import os

import yaml

with open("/etc/backup.yaml") as fh:
    config = yaml.safe_load(fh)

for job in config["jobs"]:
    status = os.system(f"rsync -az --delete {job['src']} {job['dest']}")
    if status:
        print("failed:", job["src"])
""",
    ),
    # borg backup wrapper; the archive label comes from argv.
    _v(
        "borg_create_label",
        """
import subprocess
import sys

REPO = "/mnt/backup/borg"
PATHS = ["/etc", "/home", "/srv"]

label = sys.argv[1] if len(sys.argv) > 1 else "manual"
subprocess.run(
    f"borg create --stats --compression zstd {REPO}::{{hostname}}-{label} " + " ".join(PATHS),
    shell=True,
    check=True,
)
""",
    ),
    # Slack chat-ops restart command; namespace and deployment come from the message text.
    _v(
        "kubectl_rollout_slack",
        """
import subprocess

from slack_bolt import App

app = App()


@app.command("/restart")
def restart(ack, respond, command):
    ack()
    namespace, deployment = command["text"].split("/")
    result = subprocess.run(
        f"kubectl -n {namespace} rollout restart deployment/{deployment}",
        shell=True,
        capture_output=True,
        text=True,
    )
    respond(result.stdout or result.stderr)
""",
    ),
    # CI deploy step with helm; the release and image tag come from CI environment variables.
    _v(
        "helm_upgrade_ci_env",
        """
import os

release = os.environ.get("CI_ENVIRONMENT_SLUG", "staging")
tag = os.environ["CI_COMMIT_TAG"]
os.system(
    f"helm upgrade --install {release} ./charts/app --namespace {release} "
    f"--set image.tag={tag} --wait"
)
""",
    ),
    # Internal log viewer; the log name comes from the query string and runs under sh -c.
    _v(
        "kubectl_exec_sh_c_logs",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/logs/<pod>")
def logs(pod):
    logname = request.args.get("file", "app.log")
    out = subprocess.run(
        ["kubectl", "exec", pod, "--", "sh", "-c", f"tail -n 200 /var/log/{logname}"],
        capture_output=True,
        text=True,
    )
    return out.stdout
""",
    ),
    # Ansible-like runner; hosts come from an inventory file and commands from a YAML playbook.
    _v(
        "ssh_playbook_runner",
        """
import subprocess

import yaml

with open("inventory.txt") as fh:
    hosts = [line.strip() for line in fh if line.strip()]
with open("playbook.yaml") as fh:
    play = yaml.safe_load(fh)

for host in hosts:
    for task in play["tasks"]:
        command = task["command"].format(**play.get("vars", {}))
        subprocess.run(["ssh", host, command], check=True)
""",
    ),
    # invoke/fabric deploy task; the branch comes from the task's command-line argument.
    _v(
        "fabric_deploy_branch",
        """
from fabric import Connection, task


@task
def deploy(c, branch="main", app="shop"):
    conn = Connection("deploy@web1.example.com")
    conn.run(f"cd /srv/{app} && git fetch && git checkout {branch} && git pull")
    conn.sudo(f"systemctl restart {app}")
""",
    ),
    # Admin log endpoint over paramiko; the service name comes from request.args.
    _v(
        "paramiko_journalctl_admin",
        """
import paramiko
from flask import Flask, request

app = Flask(__name__)


@app.route("/admin/journal")
def journal():
    service = request.args.get("service", "nginx")
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    client.connect("app1.internal", username="ops")
    _, stdout, _ = client.exec_command(f"journalctl -u {service} -n 100 --no-pager")
    return "<pre>" + stdout.read().decode() + "</pre>"
""",
    ),
    # Home-automation IR remote; the key name comes from an MQTT payload.
    _v(
        "mqtt_irsend_payload",
        """
import os

import paho.mqtt.client as mqtt


def on_message(client, userdata, msg):
    key = msg.payload.decode()
    os.system(f"irsend SEND_ONCE livingroom_tv {key}")


client = mqtt.Client()
client.on_message = on_message
client.connect("homeassistant.local")
client.subscribe("home/tv/key")
client.loop_forever()
""",
    ),
    # Raspberry Pi text-to-speech endpoint; the text comes from the query string.
    _v(
        "espeak_tts_flask",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/say")
def say():
    text = request.args.get("text", "hello")
    subprocess.call('espeak -v en-us "%s"' % text, shell=True)
    return "ok"
""",
    ),
    # Wi-Fi setup portal on a smart-home hub; SSID and password come from a posted form.
    _v(
        "nmcli_setup_portal",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)


@app.route("/wifi", methods=["POST"])
def connect_wifi():
    ssid = request.form["ssid"]
    password = request.form["password"]
    out = subprocess.check_output(
        "nmcli dev wifi connect '%s' password '%s'" % (ssid, password), shell=True
    )
    return out.decode()
""",
    ),
    # Discord bot for a Minecraft server; the player name is the command's argument.
    _v(
        "minecraft_screen_whitelist",
        """
import os

from discord.ext import commands

bot = commands.Bot(command_prefix="!")


@bot.command()
async def whitelist(ctx, player: str):
    os.system(f"screen -S minecraft -p 0 -X stuff 'whitelist add {player}\\r'")
    await ctx.send(f"added {player}")
""",
    ),
    # Source game server admin panel; the map name comes from a posted form.
    _v(
        "srcds_change_map_panel",
        """
import subprocess

from flask import Flask, request

app = Flask(__name__)
server = None


@app.route("/map", methods=["POST"])
def change_map():
    global server
    map_name = request.form["map"]
    if server:
        server.terminate()
    cmd = "./srcds_run -game csgo -console +game_type 0 +map " + map_name
    server = subprocess.Popen(cmd, shell=True, cwd="/opt/csgo")
    return "restarting"
""",
    ),
    # Discord network-tools bot; the host is the command's argument.
    _v(
        "discord_ping_create_subprocess_shell",
        """
import asyncio

from discord.ext import commands

bot = commands.Bot(command_prefix="!")


@bot.command()
async def ping(ctx, host: str):
    proc = await asyncio.create_subprocess_shell(
        f"ping -c 4 {host}", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    await ctx.send(f"```{out.decode()[-1800:]}```")
""",
    ),
    # Errbot plugin; the domain is the chat command's argument.
    _v(
        "errbot_whois_popen",
        """
import os

from errbot import BotPlugin, botcmd


class Whois(BotPlugin):
    @botcmd
    def whois(self, msg, args):
        return os.popen("whois " + args + " | head -n 40").read()
""",
    ),
    # Image scraper; the image URLs and names come from the scraped page.
    _v(
        "scraper_wget_images",
        """
import os

import requests
from bs4 import BeautifulSoup

page = requests.get("https://example.org/gallery", timeout=10).text
for img in BeautifulSoup(page, "html.parser").select("img[src]"):
    src = img["src"]
    name = src.rsplit("/", 1)[-1]
    os.system(f"wget -q -O images/{name} {src}")
""",
    ),
    # Telegram music bot; the URL comes from the user's message.
    _v(
        "telegram_ytdlp_url",
        """
import subprocess

from telegram.ext import Filters, MessageHandler, Updater


def download(update, context):
    url = update.message.text
    subprocess.run(
        f"yt-dlp -x --audio-format mp3 -o 'music/%(title)s.%(ext)s' {url}", shell=True
    )
    update.message.reply_text("done")


updater = Updater("TOKEN")
updater.dispatcher.add_handler(MessageHandler(Filters.text, download))
updater.start_polling()
""",
    ),
    # Backup of a database inside a container; the database name comes from argv.
    _v(
        "docker_exec_run_pg_dump",
        """
import sys

import docker

db = sys.argv[1]
container = docker.from_env().containers.get("postgres")
code, output = container.exec_run(f"sh -c 'pg_dump -U postgres {db} > /backup/{db}.sql'")
print(code, output.decode())
""",
    ),
    # Kubernetes manifest applier with a shell helper; the manifest path comes from argv.
    _v(
        "kubectl_apply_helper",
        """
import subprocess
import sys


def sh(command):
    return subprocess.run(command, shell=True, check=True, capture_output=True, text=True).stdout


for manifest in sys.argv[1:]:
    print(sh(f"kubectl apply -f {manifest}"))
""",
    ),
]

NOTEBOOKS = [
    # ipython-sql notebook; the origin comes from an ipywidgets Text box and reaches the SQL
    # through IPython's {expression} expansion of the %sql line.
    _nb(
        "nb_sql_magic_widget_origin",
        True,
        "%load_ext sql\n%sql sqlite:///flights.db\n",
        "import ipywidgets as widgets\n"
        "origin = widgets.Text(value='JFK', description='origin')\norigin\n",
        "%sql SELECT dest, count(*) FROM flights WHERE origin = '{origin.value}' GROUP BY dest\n",
    ),
    # JupySQL notebook; min_year comes from input() and is templated into the %%sql cell.
    _nb(
        "nb_jupysql_cell_template",
        True,
        "%load_ext sql\n%sql duckdb:///movies.duckdb\n",
        "min_year = input('from year: ')\n",
        "%%sql\nSELECT title, year\nFROM movies\nWHERE year >= {{min_year}}\nORDER BY year\n",
    ),
    # DuckDB exploration notebook; the CSV path comes from input().
    _nb(
        "nb_duckdb_csv_input",
        True,
        "import duckdb\n",
        "path = input('csv file: ')\n",
        "rel = duckdb.sql(f\"SELECT * FROM read_csv_auto('{path}')\")\nrel.describe()\n",
    ),
    # Colab notebook querying BigQuery; the state comes from input().
    _nb(
        "nb_bigquery_colab_state",
        True,
        "from google.colab import auth\nauth.authenticate_user()\n"
        "from google.cloud import bigquery\n"
        "client = bigquery.Client(project='acme-analytics')\n",
        "state = input('state: ')\n",
        "df = client.query(f\"\"\"\n    SELECT name, SUM(number) AS n\n"
        "    FROM `bigquery-public-data.usa_names.usa_1910_2013`\n"
        "    WHERE state = '{state}'\n    GROUP BY name ORDER BY n DESC LIMIT 20\n"
        "\"\"\").to_dataframe()\ndf\n",
    ),
    # Reporting notebook; the customer comes from an environment variable, the query is built
    # in one cell and read by pandas in a later one.
    _nb(
        "nb_read_sql_env_customer",
        True,
        "import os\nimport pandas as pd\nfrom sqlalchemy import create_engine\n"
        "engine = create_engine('postgresql://localhost/crm')\n",
        "customer = os.environ['REPORT_CUSTOMER']\n"
        "q = \"SELECT * FROM invoices WHERE customer = '%s'\" % customer\n",
        "invoices = pd.read_sql(q, engine)\ninvoices.groupby('month').total.sum().plot()\n",
    ),
    # Geospatial notebook; the source file comes from input() into an ogr2ogr ! line.
    _nb(
        "nb_ogr2ogr_bang_input",
        True,
        "import geopandas as gpd\n",
        "src = input('shapefile: ')\n",
        "!ogr2ogr -f GeoJSON -t_srs EPSG:4326 out.geojson {src}\n",
        "gpd.read_file('out.geojson').plot()\n",
    ),
    # Image notebook; the file names come from the output of !ls on an uploads folder.
    _nb(
        "nb_thumbnails_ls_output",
        True,
        "!mkdir -p thumbs\n",
        "files = !ls uploads/\n",
        "for f in files:\n    !convert uploads/{f} -resize 256x256 thumbs/{f}\n",
    ),
    # Bioinformatics notebook; sample names and read paths come from a TSV sample sheet.
    _nb(
        "nb_bwa_sample_sheet",
        True,
        "import pandas as pd\nsamples = pd.read_csv('samples.tsv', sep='\\t')\nsamples.head()\n",
        "for s in samples.itertuples():\n"
        "    !bwa mem -t 4 ref/genome.fa {s.r1} {s.r2} > sam/{s.sample}.sam\n",
    ),
    # Training notebook; the run name comes from an ipywidgets Text box into a torchrun line.
    _nb(
        "nb_torchrun_widget_run_name",
        True,
        "import ipywidgets as widgets\n"
        "run_name = widgets.Text(value='baseline', description='run')\n"
        "display(run_name)\n",
        "!torchrun --standalone --nproc_per_node=2 train.py"
        " --run-name {run_name.value} --epochs 3\n",
    ),
    # Penguin notebook timing a sqlite query under %%capture; species comes from input().
    _nb(
        "nb_capture_sqlite_species",
        True,
        "import sqlite3\ncon = sqlite3.connect('penguins.db')\nspecies = input('species: ')\n",
        "%%capture out\n"
        "rows = con.execute(f\"SELECT * FROM penguins WHERE species = '{species}'\").fetchall()\n",
    ),
    # Cluster notebook; a kubectl command is built in one cell from input() and run in the next.
    _nb(
        "nb_kubectl_command_across_cells",
        True,
        "import subprocess\n",
        "namespace = input('namespace: ')\ncmd = f'kubectl get pods -n {namespace} -o wide'\n",
        "print(subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout)\n",
    ),
    # ipython-sql notebook binding the value as a parameter (:origin), not expanding it.
    _nb(
        "nb_sql_magic_bind_param",
        False,
        "%load_ext sql\n%sql sqlite:///flights.db\n",
        "origin = input('origin: ')\n",
        "%sql SELECT dest, count(*) FROM flights WHERE origin = :origin GROUP BY dest\n",
    ),
    # Setup cells of a GPU notebook: constant ! lines and a shell variable.
    _nb(
        "nb_setup_constant_bangs",
        False,
        "!pip install -q duckdb geopandas\n!nvidia-smi\n",
        "!ls -la $HOME/data\n!du -sh ~/.cache/huggingface\n",
    ),
    # Compression notebook quoting each uploaded name with shlex.quote.
    _nb(
        "nb_bang_shlex_quote",
        False,
        "import shlex\nfiles = !ls uploads/\n",
        "for f in files:\n    !gzip -k -- uploads/{shlex.quote(f)}\n",
    ),
    # DuckDB notebook with a ? parameter; species comes from input().
    _nb(
        "nb_duckdb_bound_species",
        False,
        "import duckdb\ncon = duckdb.connect('penguins.duckdb')\n",
        "species = input('species: ')\n",
        "con.execute('SELECT * FROM penguins WHERE species = ?', [species]).df()\n",
    ),
    # Geospatial notebook whose ! lines only use a constant data folder.
    _nb(
        "nb_constant_data_dir",
        False,
        "DATA = 'data/parcels'\nOUT = 'build'\n",
        "!mkdir -p {OUT}\n!ogrinfo -so {DATA}/parcels.shp parcels\n",
        "!ogr2ogr -f GeoJSON {OUT}/parcels.geojson {DATA}/parcels.shp\n",
    ),
    # Reporting notebook that shows the query it would run, then runs it with params.
    _nb(
        "nb_fstring_shown_params_run",
        False,
        "import pandas as pd\nfrom sqlalchemy import create_engine, text\n"
        "engine = create_engine('postgresql://localhost/crm')\n",
        "customer = input('customer: ')\n"
        "print(f\"SELECT * FROM invoices WHERE customer = '{customer}'\")\n",
        "pd.read_sql(text('SELECT * FROM invoices WHERE customer = :c'), engine,\n"
        "            params={'c': customer})\n",
    ),
    # Bioinformatics notebook running samtools with an argv list; the BAM comes from input().
    _nb(
        "nb_samtools_argv_list",
        False,
        "import subprocess\nbam = input('bam: ')\n",
        "stats = subprocess.run(['samtools', 'flagstat', bam], capture_output=True, text=True)\n"
        "print(stats.stdout)\n",
    ),
    # Colab BigQuery notebook with a query parameter; the state comes from input().
    _nb(
        "nb_bigquery_query_parameter",
        False,
        "from google.cloud import bigquery\nclient = bigquery.Client(project='acme-analytics')\n",
        "state = input('state: ')\n"
        "config = bigquery.QueryJobConfig(query_parameters=[\n"
        "    bigquery.ScalarQueryParameter('state', 'STRING', state)])\n",
        "client.query(\n    'SELECT name FROM `bigquery-public-data.usa_names.usa_1910_2013`'\n"
        "    ' WHERE state = @state LIMIT 10',\n"
        "    job_config=config).to_dataframe()\n",
    ),
    # JupySQL notebook whose %sql line and %%sql cell are constant text.
    _nb(
        "nb_jupysql_constant_queries",
        False,
        "%load_ext sql\n%sql duckdb:///movies.duckdb\n",
        "%sql SELECT count(*) FROM movies\n",
        "%%sql\nSELECT year, count(*) AS n\nFROM movies\nGROUP BY year\nORDER BY year\n",
    ),
]

SAFE = [
    # Django search view passing the LIKE pattern as a parameter (built by an f-string).
    _s(
        "django_raw_search_param",
        """
from django.shortcuts import render

from shop.models import Product


def search(request):
    q = request.GET.get("q", "")
    products = Product.objects.raw(
        "SELECT * FROM shop_product WHERE name ILIKE %s ORDER BY name", [f"%{q}%"]
    )
    return render(request, "shop/search.html", {"products": products, "q": q})
""",
    ),
    # Django report using the model's own table name and a bound status.
    _s(
        "django_cursor_model_table",
        """
from django.db import connection

from orders.models import Order


def count_by_status(status):
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT count(*) FROM {Order._meta.db_table} WHERE status = %s", [status]
        )
        return cursor.fetchone()[0]
""",
    ),
    # Django management command whose table argument is restricted to literal choices.
    _s(
        "django_command_choices_table",
        """
from django.core.management.base import BaseCommand
from django.db import connection


class Command(BaseCommand):
    help = "Empty a cache table"

    def add_arguments(self, parser):
        parser.add_argument("table", choices=["cache_entry", "django_session"])

    def handle(self, *args, **options):
        with connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {options['table']}")
""",
    ),
    # Django annotation with the time zone passed as a RawSQL parameter.
    _s(
        "django_rawsql_tz_param",
        """
from django.db.models.expressions import RawSQL
from django.http import JsonResponse

from orders.models import Order


def by_local_day(request):
    tz = request.GET.get("tz", "UTC")
    qs = Order.objects.annotate(
        local_day=RawSQL("date(created AT TIME ZONE %s)", (tz,))
    ).values("local_day")
    return JsonResponse(list(qs), safe=False)
""",
    ),
    # Flask admin listing mapping the sort key through a dict of known columns.
    _s(
        "flask_sort_column_mapping",
        """
from flask import request
from sqlalchemy import text

from .extensions import db

SORTS = {"name": "name", "newest": "created_at DESC", "email": "email"}


def list_users():
    order = SORTS.get(request.args.get("sort"), "id")
    return db.session.execute(text(f"SELECT id, name, email FROM users ORDER BY {order}")).all()
""",
    ),
    # Flask bulk delete with int-cast ids bound as an expanding parameter.
    _s(
        "flask_bulk_delete_expanding",
        """
from flask import redirect, request
from sqlalchemy import bindparam, text

from .extensions import db

DELETE = text("DELETE FROM users WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))


def bulk_delete():
    ids = [int(i) for i in request.form.getlist("id")]
    db.session.execute(DELETE, {"ids": ids})
    db.session.commit()
    return redirect("/admin/users")
""",
    ),
    # FastAPI admin page: limit typed int and cast again before reaching the SQL text.
    _s(
        "fastapi_limit_int_cast",
        """
from fastapi import FastAPI

from .db import database

app = FastAPI()


@app.get("/admin/recent")
async def recent(limit: int = 20):
    return await database.fetch_all(
        query=f"SELECT id, title FROM posts ORDER BY created DESC LIMIT {int(limit)}"
    )
""",
    ),
    # peewee raw query with a parameter after the SQL.
    _s(
        "peewee_raw_params",
        """
from .models import Tweet


def timeline(user_id):
    return Tweet.raw("SELECT * FROM tweet WHERE user_id = %s ORDER BY id DESC", user_id)
""",
    ),
    # Pony ORM raw select with its $name parameter syntax.
    _s(
        "pony_dollar_param",
        """
from pony.orm import Database, db_session

db = Database()
db.bind(provider="sqlite", filename="people.sqlite")


@db_session
def handle(update, context):
    city = update.message.text.strip()
    names = db.select("SELECT name FROM Person WHERE city = $city")
    update.message.reply_text(", ".join(names) or "nobody")
""",
    ),
    # records report with a :status bind.
    _s(
        "records_bind_param",
        """
import sys

import records

db = records.Database("postgresql://localhost/shop")
rows = db.query("SELECT id, total FROM orders WHERE status = :status", status=sys.argv[1])
print(rows.export("csv"))
""",
    ),
    # sqlite3 pruning CLI whose cutoff is parsed as a date first.
    _s(
        "sqlite_cli_date_parsed",
        """
import argparse
import sqlite3
from datetime import datetime

parser = argparse.ArgumentParser()
parser.add_argument("db")
parser.add_argument("--older-than", required=True)
args = parser.parse_args()

cutoff = datetime.strptime(args.older_than, "%Y-%m-%d").date()
conn = sqlite3.connect(args.db)
conn.execute(f"DELETE FROM log WHERE ts < '{cutoff.isoformat()}'")
conn.commit()
""",
    ),
    # sqlite3 CLI setting a constant pragma and inserting with placeholders.
    _s(
        "sqlite_constant_pragma_insert",
        """
import csv
import sqlite3
import sys

JOURNAL_MODE = "WAL"
COLUMNS = ("name", "qty", "price")

conn = sqlite3.connect("stock.db")
conn.execute(f"PRAGMA journal_mode={JOURNAL_MODE}")
insert = f"INSERT INTO stock ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
with open(sys.argv[1]) as fh:
    conn.executemany(insert, ([row[c] for c in COLUMNS] for row in csv.DictReader(fh)))
conn.commit()
""",
    ),
    # BigQuery Cloud Function with a query parameter.
    _s(
        "bigquery_function_query_param",
        """
from google.cloud import bigquery

client = bigquery.Client()


def user_sessions(request):
    user_id = request.get_json()["user_id"]
    config = bigquery.QueryJobConfig(
        query_parameters=[bigquery.ScalarQueryParameter("uid", "STRING", user_id)]
    )
    job = client.query(
        "SELECT session_id FROM `acme.web.sessions` WHERE user_id = @uid", job_config=config
    )
    return {"sessions": [r.session_id for r in job.result()]}
""",
    ),
    # BigQuery script whose project and dataset are module constants.
    _s(
        "bigquery_constant_project",
        """
from google.cloud import bigquery

PROJECT = "acme-analytics"
DATASET = "web"

client = bigquery.Client(project=PROJECT)
query = (
    f"SELECT COUNT(*) AS n FROM `{PROJECT}.{DATASET}.sessions` "
    "WHERE DATE(started) = CURRENT_DATE()"
)
print(list(client.query(query).result())[0].n)
""",
    ),
    # Home-automation history with a bound sensor name.
    _s(
        "pandas_sensor_history_params",
        """
import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("sqlite:///home.db")


def on_message(client, userdata, msg):
    sensor = msg.payload.decode()
    df = pd.read_sql(
        text("SELECT ts, value FROM readings WHERE sensor = :s"), engine, params={"s": sensor}
    )
    client.publish("home/history", df.tail(24).to_json())
""",
    ),
    # PostGIS tile endpoint that casts every bbox coordinate to float.
    _s(
        "postgis_bbox_float_cast",
        """
import geopandas as gpd
from flask import request

from .db import engine


def parcels():
    xmin, ymin, xmax, ymax = (float(v) for v in request.args["bbox"].split(","))
    gdf = gpd.read_postgis(
        "SELECT id, geom FROM parcels "
        f"WHERE geom && ST_MakeEnvelope({xmin}, {ymin}, {xmax}, {ymax}, 4326)",
        con=engine,
        geom_col="geom",
    )
    return gdf.to_json()
""",
    ),
    # PostGIS nearest-feature lookup with %s parameters.
    _s(
        "postgis_nearest_params",
        """
import psycopg2
from flask import jsonify, request

conn = psycopg2.connect("dbname=gis")


def nearest_stop():
    lon, lat = request.args.get("lon"), request.args.get("lat")
    with conn.cursor() as cur:
        cur.execute(
            "SELECT name FROM stops ORDER BY geom <-> ST_SetSRID(ST_Point(%s, %s), 4326) LIMIT 1",
            (lon, lat),
        )
        return jsonify(cur.fetchone())
""",
    ),
    # Discord economy bot keyed by the member's numeric id, bound as a parameter.
    _s(
        "aiosqlite_discord_params",
        """
import aiosqlite
from discord.ext import commands

bot = commands.Bot(command_prefix="!")


@bot.command()
async def balance(ctx):
    async with aiosqlite.connect("economy.db") as db:
        async with db.execute(
            "SELECT coins FROM wallets WHERE user_id = ?", (ctx.author.id,)
        ) as cur:
            row = await cur.fetchone()
    await ctx.send(f"{row[0] if row else 0} coins")
""",
    ),
    # Tenant cleanup composing the schema name with psycopg2.sql.Identifier.
    _s(
        "psycopg2_sql_identifier_schema",
        """
from psycopg2 import sql

from .db import get_conn


def purge_tenant(tenant):
    with get_conn() as conn, conn.cursor() as cur:
        cur.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(tenant)))
""",
    ),
    # Game leaderboard inserting with placeholders and logging with an f-string.
    _s(
        "game_leaderboard_params_logged",
        """
import logging
import sqlite3

conn = sqlite3.connect("scores.db", check_same_thread=False)
log = logging.getLogger("scores")


def record(name, score):
    log.info(f"INSERT INTO scores VALUES ('{name}', {score})")
    conn.execute("INSERT INTO scores VALUES (?, ?)", (name, int(score)))
    conn.commit()
""",
    ),
    # MLflow run search: the filter is MLflow's own expression language, not SQL text.
    _s(
        "mlflow_search_runs_filter",
        """
import sys

import mlflow

model = sys.argv[1]
runs = mlflow.search_runs(
    experiment_names=["churn"], filter_string=f"params.model = '{model}'", max_results=10
)
print(runs[["run_id", "metrics.auc"]])
""",
    ),
    # torchrun launcher passing options as an argv list, no shell.
    _s(
        "torchrun_launcher_argv",
        """
import argparse
import subprocess

parser = argparse.ArgumentParser()
parser.add_argument("--gpus", type=int, default=8)
parser.add_argument("--config", required=True)
args = parser.parse_args()

subprocess.run(
    ["torchrun", "--standalone", f"--nproc_per_node={args.gpus}",
     "train.py", "--config", args.config],
    check=True,
)
""",
    ),
    # accelerate launcher casting the process count to int; the script is constant.
    _s(
        "accelerate_int_cast",
        """
import os
import sys

num_processes = int(sys.argv[1])
os.system(f"accelerate launch --num_processes {num_processes} train.py --config configs/base.yaml")
""",
    ),
    # Slurm submitter passing values to the job through --export, argv list.
    _s(
        "slurm_sbatch_export_argv",
        """
import subprocess

import yaml

with open("sweep.yaml") as fh:
    sweep = yaml.safe_load(fh)

for lr in sweep["lr"]:
    subprocess.run(
        ["sbatch", f"--job-name={sweep['name']}", f"--export=ALL,LR={lr}", "jobs/train.sbatch"],
        check=True,
    )
""",
    ),
    # Shapefile import with ogr2ogr as an argv list and a sanitised upload name.
    _s(
        "ogr2ogr_argv_secure_filename",
        """
import os
import subprocess

from flask import request
from werkzeug.utils import secure_filename


def import_layer():
    upload = request.files["shapefile"]
    path = os.path.join("/srv/uploads", secure_filename(upload.filename))
    upload.save(path)
    subprocess.run(
        ["ogr2ogr", "-f", "PostgreSQL", "PG:dbname=gis", path, "-nln", "imported", "-overwrite"],
        check=True,
    )
    return "imported"
""",
    ),
    # Alignment pipeline piping bwa into samtools with two argv-list processes.
    _s(
        "bwa_samtools_popen_pipe",
        """
import csv
import subprocess

REF = "ref/GRCh38.fa"

with open("samples.csv") as fh:
    for row in csv.DictReader(fh):
        bwa = subprocess.Popen(
            ["bwa", "mem", "-t", "8", REF, row["r1"], row["r2"]], stdout=subprocess.PIPE
        )
        subprocess.run(
            ["samtools", "sort", "-o", f"bam/{row['sample']}.bam", "-"],
            stdin=bwa.stdout,
            check=True,
        )
        bwa.wait()
""",
    ),
    # samtools index in a constant shell command; the BAM goes in through the environment.
    _s(
        "samtools_env_variable",
        """
import os
import subprocess
import sys

bam = sys.argv[1]
subprocess.run('samtools index "$BAM" && samtools idxstats "$BAM"', shell=True, check=True,
               env={**os.environ, "BAM": bam})
""",
    ),
    # rsync backup quoting paths with shlex.quote after --.
    _s(
        "rsync_shlex_quoted",
        """
import os
import shlex

import yaml

with open("/etc/backup.yaml") as fh:
    config = yaml.safe_load(fh)

for job in config["jobs"]:
    os.system(f"rsync -az --delete -- {shlex.quote(job['src'])} {shlex.quote(job['dest'])}")
""",
    ),
    # borg backup whose archive name is a strftime timestamp.
    _s(
        "borg_strftime_archive",
        """
import os
from datetime import datetime

archive = datetime.now().strftime("%Y-%m-%d_%H%M")
os.system(f"borg create --stats /mnt/backup/borg::{archive} /etc /home /srv")
""",
    ),
    # pg_dump with an argv list and the password in the environment.
    _s(
        "pg_dump_argv_env",
        """
import os
import subprocess
from datetime import date

out = f"/backups/{os.environ['DB_NAME']}-{date.today()}.dump"
subprocess.run(
    ["pg_dump", "-Fc", "-h", os.environ["DB_HOST"], "-U", os.environ["DB_USER"],
     "-f", out, os.environ["DB_NAME"]],
    env={**os.environ, "PGPASSWORD": os.environ["DB_PASSWORD"]},
    check=True,
)
""",
    ),
    # Chat-ops restart with kubectl as an argv list, the command logged with an f-string.
    _s(
        "kubectl_rollout_argv_logged",
        """
import logging
import subprocess

log = logging.getLogger("chatops")


def restart(namespace, deployment):
    log.info(f"kubectl -n {namespace} rollout restart deployment/{deployment}")
    subprocess.run(
        ["kubectl", "-n", namespace, "rollout", "restart", f"deployment/{deployment}"], check=True
    )
""",
    ),
    # Deploy script whose environment is an argparse choice.
    _s(
        "helm_environment_choices",
        """
import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("env", choices=["staging", "production"])
args = parser.parse_args()
os.system(f"helm upgrade --install shop ./charts/shop -f values-{args.env}.yaml --wait")
""",
    ),
    # fabric deploy with constant commands and a constant service name.
    _s(
        "fabric_constant_commands",
        """
from fabric import Connection, task

SERVICE = "shop"


@task
def deploy(c):
    conn = Connection("deploy@web1.example.com")
    conn.run("cd /srv/shop && git pull --ff-only")
    conn.sudo(f"systemctl restart {SERVICE}")
""",
    ),
    # Admin journal viewer restricting the service to an allow-list.
    _s(
        "paramiko_service_allow_list",
        """
import paramiko
from flask import abort, request

SERVICES = {"nginx", "gunicorn", "postgresql"}


def journal():
    service = request.args.get("service", "nginx")
    if service not in SERVICES:
        abort(400)
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    client.connect("app1.internal", username="ops")
    _, stdout, _ = client.exec_command(f"journalctl -u {service} -n 100 --no-pager")
    return stdout.read().decode()
""",
    ),
    # Home-automation volume handler casting the MQTT payload to int.
    _s(
        "mqtt_volume_int_cast",
        """
import os

import paho.mqtt.client as mqtt


def on_message(client, userdata, msg):
    volume = max(0, min(100, int(msg.payload)))
    os.system(f"amixer -q sset Master {volume}%")


client = mqtt.Client()
client.on_message = on_message
client.connect("homeassistant.local")
client.subscribe("home/speaker/volume")
client.loop_forever()
""",
    ),
    # Minecraft whitelist over RCON: a game console command, not a shell.
    _s(
        "minecraft_rcon_whitelist",
        """
from discord.ext import commands
from mcrcon import MCRcon

bot = commands.Bot(command_prefix="!")


@bot.command()
async def whitelist(ctx, player: str):
    with MCRcon("127.0.0.1", "secret") as rcon:
        reply = rcon.command(f"whitelist add {player}")
    await ctx.send(reply)
""",
    ),
    # Ping bot validating the address and running ping without a shell.
    _s(
        "discord_ping_ip_validated",
        """
import asyncio
import ipaddress

from discord.ext import commands

bot = commands.Bot(command_prefix="!")


@bot.command()
async def ping(ctx, host: str):
    address = ipaddress.ip_address(host)
    proc = await asyncio.create_subprocess_exec(
        "ping", "-c", "4", str(address), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    await ctx.send(out.decode()[-1800:])
""",
    ),
    # Image scraper downloading with requests; the f-strings only build URLs and paths.
    _s(
        "scraper_requests_download",
        """
from pathlib import Path

import requests
from bs4 import BeautifulSoup

BASE = "https://example.org"
page = requests.get(f"{BASE}/gallery", timeout=10).text
for img in BeautifulSoup(page, "html.parser").select("img[src]"):
    name = Path(img["src"]).name
    Path(f"images/{name}").write_bytes(requests.get(f"{BASE}/{img['src']}", timeout=10).content)
""",
    ),
    # Container backup running pg_dump as an argv list inside the container.
    _s(
        "docker_exec_run_argv",
        """
import sys

import docker

db = sys.argv[1]
container = docker.from_env().containers.get("postgres")
code, output = container.exec_run(["pg_dump", "-U", "postgres", "-f", f"/backup/{db}.sql", db])
print(code, output.decode())
""",
    ),
    # Job runner making a scratch folder named by a uuid.
    _s(
        "uuid_scratch_dir",
        """
import os
import uuid

job_id = uuid.uuid4().hex
os.system(f"mkdir -p /scratch/{job_id} && cp -r template/. /scratch/{job_id}/")
""",
    ),
    # Home-assistant helper script with only constant shell pipelines.
    _s(
        "constant_shell_pipeline",
        """
import subprocess

LINES = 50

subprocess.run("journalctl -u home-assistant -n 200 | grep -i error | tail -n 20", shell=True)
subprocess.run(f"journalctl -u zigbee2mqtt -n {LINES} --no-pager", shell=True)
""",
    ),
]

HELDOUT10: list[Case] = [*SQL, *SHELL, *NOTEBOOKS, *SAFE]
