"""Ninth held-out corpus for the unsafe-format check, written blind.

Written by a helper who never opened the check (``ipy_istring/check/``), its tests, its
benchmark, or any other corpus file; only the ``Case`` dataclass and the ``_v``/``_s`` helpers
of ``cases.py`` and the header of ``heldout8.py`` were read, and neither the check nor any
scanner was run on these cases. It leans away from the web handlers and sqlite helpers the
earlier corpora covered heavily, towards other kinds of public code, each rewritten by hand,
never copied: click/typer/argparse/invoke command-line tools that build shell commands,
CI and deploy scripts (``shell=True``, ``os.popen``, commands assembled over several lines,
``subprocess`` wrappers, retry helpers, ``functools.partial``, ``bash -c`` in argv lists,
GitHub Actions environment), queue workers, bots and serverless handlers, data engineering
(Airflow callables, dbt-like ``.format`` templating, ``spark.sql``, DuckDB, polars, pandas
``read_sql``, SQLAlchemy ``text()``/``exec_driver_sql``, psycopg, asyncpg, aiosqlite,
pymysql, ClickHouse, Snowflake, BigQuery, Trino, Redshift), class-based repositories,
queries built in one function and run in another, and Colab/papermill/ipywidgets notebooks
with ``!`` lines, ``x = !cmd``, ``%sql``, ``%%sql`` and ``%%bash`` cells.
The comment before each case names the kind of code and, for a vulnerable case, where the
tainted value comes from.

A case is vulnerable when a value the code does not control (argv and CLI options,
environment, stdin and ``input()``, file, config or DataFrame content, queue and bot
messages, serverless events, command output, widget or notebook parameters, uploaded file
names) reaches shell or SQL text as code. Safe cases are look-alikes: bound parameters (also
behind f-string built placeholders), allow-listed, regex-validated, date-parsed or ``int()``
cast values, ``shlex.quote``/``shlex.join``, argv lists without a shell, values handed to the
shell through its environment, ``psycopg.sql`` composition, SQLAlchemy and Spark expressions,
and f-strings that only reach logs, messages, paths or constant-only text.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


SHELL = [
    # click CLI that builds and tags a Docker image; tag comes from a --tag option.
    _v(
        "click_docker_build_tag_shell",
        """
import subprocess

import click


@click.command()
@click.option("--image", default="registry.example.com/api")
@click.option("--tag", required=True, help="Image tag, e.g. the release version.")
@click.option("--push/--no-push", default=False)
def build(image: str, tag: str, push: bool) -> None:
    '''Build the service image and optionally push it.'''
    ref = f"{image}:{tag}"
    click.echo(f"Building {ref}")
    subprocess.run(f"docker build -t {ref} .", shell=True, check=True)
    if push:
        subprocess.run(f"docker push {ref}", shell=True, check=True)


if __name__ == "__main__":
    build()
""",
    ),
    # typer CLI switching a checkout to a branch given on the command line; os.popen.
    _v(
        "typer_git_switch_popen",
        """
import os

import typer

app = typer.Typer(help="Small helpers for the monorepo.")


@app.command()
def switch(branch: str, pull: bool = True) -> None:
    '''Switch to BRANCH and bring it up to date.'''
    cmd = f"git checkout {branch}"
    if pull:
        cmd += " && git pull --ff-only"
    out = os.popen(cmd).read()
    typer.echo(out)


if __name__ == "__main__":
    app()
""",
    ),
    # argparse backup script assembling an rsync command over several lines; dest from argv.
    _v(
        "argparse_rsync_assembled",
        """
import argparse
import logging
import subprocess

log = logging.getLogger("backup")

EXCLUDES = ["*.pyc", "__pycache__", ".venv"]


def main() -> int:
    parser = argparse.ArgumentParser(description="Mirror a folder to the backup host.")
    parser.add_argument("source")
    parser.add_argument("dest", help="user@host:/path")
    parser.add_argument("--delete", action="store_true")
    args = parser.parse_args()

    cmd = "rsync -az"
    if args.delete:
        cmd += " --delete"
    for pattern in EXCLUDES:
        cmd += f" --exclude '{pattern}'"
    cmd += f" {args.source} {args.dest}"
    log.info("running %s", cmd)
    return subprocess.call(cmd, shell=True)


if __name__ == "__main__":
    raise SystemExit(main())
""",
    ),
    # kubectl helper script with a thin shell wrapper; pod and namespace come from sys.argv.
    _v(
        "kubectl_logs_sh_wrapper",
        """
import subprocess
import sys


def sh(cmd: str) -> str:
    '''Run a shell command and return its stdout.'''
    return subprocess.check_output(cmd, shell=True, text=True)


def tail_logs(pod: str, namespace: str = "default", lines: int = 200) -> str:
    return sh("kubectl logs " + pod + " -n " + namespace + " --tail=" + str(lines))


if __name__ == "__main__":
    pod = sys.argv[1]
    ns = sys.argv[2] if len(sys.argv) > 2 else "default"
    print(tail_logs(pod, ns))
""",
    ),
    # deploy script with a retry wrapper around shell=True; the S3 prefix comes from the env.
    _v(
        "deploy_retry_s3_sync_env",
        """
import os
import subprocess
import time


def retry(cmd: str, attempts: int = 3, delay: float = 5.0) -> None:
    for attempt in range(1, attempts + 1):
        result = subprocess.run(cmd, shell=True)
        if result.returncode == 0:
            return
        print(f"attempt {attempt} failed with {result.returncode}")
        time.sleep(delay * attempt)
    raise RuntimeError(f"gave up after {attempts} attempts")


def publish(local_dir: str = "dist") -> None:
    bucket = os.environ.get("DEPLOY_BUCKET", "static-site-prod")
    prefix = os.environ["DEPLOY_PREFIX"]
    retry("aws s3 sync {} s3://{}/{} --delete".format(local_dir, bucket, prefix))


if __name__ == "__main__":
    publish()
""",
    ),
    # release script using functools.partial to preset shell=True; path from argparse.
    _v(
        "partial_shell_tar_archive",
        """
import argparse
import datetime
import functools
import subprocess

run = functools.partial(subprocess.run, shell=True, check=True)


def archive(path: str, out_dir: str) -> str:
    stamp = datetime.date.today().strftime("%Y%m%d")
    target = f"{out_dir}/backup-{stamp}.tar.gz"
    run(f"tar czf {target} {path}")
    return target


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("path")
    p.add_argument("--out", default="/var/backups")
    a = p.parse_args()
    print(archive(a.path, a.out))
""",
    ),
    # media CLI joining an ffmpeg argv list into a shell string; file names from click args.
    _v(
        "click_ffmpeg_join_shell",
        """
import subprocess

import click


@click.command()
@click.argument("src")
@click.argument("dst")
@click.option("--width", type=int, default=1280)
@click.option("--height", type=int, default=720)
def scale(src, dst, width, height):
    parts = ["ffmpeg", "-y", "-i", src, "-vf", f"scale={width}:{height}", dst]
    cmd = " ".join(parts)
    click.echo(cmd)
    subprocess.run(cmd, shell=True, check=True)


if __name__ == "__main__":
    scale()
""",
    ),
    # test runner shim choosing its command with a ternary; target from sys.argv.
    _v(
        "pytest_target_ternary_system",
        """
import os
import sys


def main(argv: list[str]) -> int:
    target = argv[1] if len(argv) > 1 else ""
    cmd = f"python -m pytest -q {target}" if target else "python -m pytest -q"
    print(f"+ {cmd}")
    return os.system(cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
""",
    ),
    # helm deploy driven by a YAML file named on the command line; values pass through a dict.
    _v(
        "helm_upgrade_yaml_format_kwargs",
        """
import subprocess
import sys

import yaml

TEMPLATE = "helm upgrade --install {release} {chart} --namespace {namespace} --set image.tag={tag}"


def deploy(config_path: str) -> None:
    with open(config_path) as fh:
        cfg = yaml.safe_load(fh)
    for svc in cfg["services"]:
        cmd = TEMPLATE.format(**svc)
        print("deploying", svc["release"])
        subprocess.run(cmd, shell=True, check=True)


if __name__ == "__main__":
    deploy(sys.argv[1])
""",
    ),
    # CI checkout script written as a dedented bash block; the ref comes from GITHUB_REF_NAME.
    _v(
        "ci_checkout_dedent_bash_script",
        """
import os
import subprocess
import textwrap


def checkout(repo_dir: str) -> None:
    ref = os.environ.get("GITHUB_REF_NAME", "main")
    script = textwrap.dedent(f'''
        set -euo pipefail
        cd {repo_dir}
        git fetch --depth 1 origin {ref}
        git checkout FETCH_HEAD
    ''')
    subprocess.run(script, shell=True, check=True, executable="/bin/bash")


if __name__ == "__main__":
    checkout("/workspace/src")
""",
    ),
    # interactive network troubleshooting script; host typed at an input() prompt.
    _v(
        "input_ping_percent_system",
        """
import os


def main() -> None:
    print("Network check")
    host = input("Host to ping: ").strip()
    count = 3
    os.system("ping -c %d %s" % (count, host))


if __name__ == "__main__":
    main()
""",
    ),
    # migration CLI passing cmd= to a step runner; the revision comes from a click option.
    _v(
        "click_alembic_cmd_keyword",
        """
import logging
import subprocess
import time

import click

log = logging.getLogger(__name__)


def run_step(name: str, cmd: str, cwd: str | None = None) -> None:
    started = time.monotonic()
    log.info("step %s: %s", name, cmd)
    subprocess.run(cmd, shell=True, check=True, cwd=cwd)
    log.info("step %s took %.1fs", name, time.monotonic() - started)


@click.command()
@click.option("--revision", default="head")
def migrate(revision):
    run_step("backup", cmd="pg_dump -Fc app > /tmp/pre-migrate.dump")
    run_step("migrate", cmd=f"alembic upgrade {revision}", cwd="backend")


if __name__ == "__main__":
    migrate()
""",
    ),
    # asyncio media worker pulling jobs from Redis; the path comes from the queued JSON message.
    _v(
        "asyncio_redis_ffprobe_shell",
        """
import asyncio
import json

import redis.asyncio as redis


async def probe(path: str) -> dict:
    proc = await asyncio.create_subprocess_shell(
        f"ffprobe -v quiet -print_format json -show_format {path}",
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return json.loads(out or b"{}")


async def worker() -> None:
    r = redis.Redis()
    while True:
        _, raw = await r.blpop("media:probe")
        job = json.loads(raw)
        info = await probe(job["path"])
        await r.set(f"media:info:{job['id']}", json.dumps(info))


if __name__ == "__main__":
    asyncio.run(worker())
""",
    ),
    # invoke tasks.py; the package name is a task argument given on the invoke command line.
    _v(
        "invoke_task_pip_install",
        """
from invoke import task


@task
def add(c, package, dev=False):
    '''Install PACKAGE into the project virtualenv and freeze requirements.'''
    req = "requirements-dev.txt" if dev else "requirements.txt"
    c.run(f".venv/bin/pip install {package}")
    c.run(f".venv/bin/pip freeze > {req}")


@task
def clean(c):
    c.run("rm -rf build dist *.egg-info")
""",
    ),
    # build helper passing an argv list to bash -c; make target from argparse.
    _v(
        "argv_list_bash_c_make_target",
        """
import argparse
import subprocess


def build(workdir: str, target: str, jobs: int) -> None:
    subprocess.run(
        ["bash", "-c", f"cd {workdir} && make -j{jobs} {target}"],
        check=True,
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("target", nargs="?", default="all")
    parser.add_argument("-C", "--workdir", default=".")
    parser.add_argument("-j", "--jobs", type=int, default=4)
    ns = parser.parse_args()
    build(ns.workdir, ns.target, ns.jobs)
""",
    ),
    # changelog script quoting a --since value in double quotes, which still expands $(...).
    _v(
        "git_log_since_double_quoted_popen",
        """
import argparse
import os


def changelog(since: str) -> list[str]:
    stream = os.popen('git log --since="%s" --pretty=format:"%%h %%s"' % since)
    return [line.rstrip() for line in stream]


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--since", default="2 weeks ago")
    for entry in changelog(ap.parse_args().since):
        print(entry)
""",
    ),
    # GitHub Actions step commenting on a PR; the PR title comes from the event environment.
    _v(
        "gh_actions_pr_title_comment",
        """
import os
import subprocess


def main() -> None:
    number = os.environ["PR_NUMBER"]
    title = os.environ.get("PR_TITLE", "")
    status = os.environ.get("BUILD_STATUS", "passed")
    body = f"Build for '{title}' {status}."
    subprocess.run(f'gh pr comment {number} --body "{body}"', shell=True, check=True)


if __name__ == "__main__":
    main()
""",
    ),
    # docker exec backup of a named database through sh -c; database name from sys.argv.
    _v(
        "docker_exec_sh_c_pg_dump",
        """
import subprocess
import sys

CONTAINER = "postgres-main"


def dump(db: str) -> None:
    subprocess.run(
        ["docker", "exec", CONTAINER, "sh", "-c", f"pg_dump -U postgres {db} > /backup/{db}.sql"],
        check=True,
    )


if __name__ == "__main__":
    for name in sys.argv[1:]:
        dump(name)
""",
    ),
    # release script tagging an image with the current branch; the branch comes from command output.
    _v(
        "git_branch_output_docker_tag",
        """
import os
import subprocess


def current_branch() -> str:
    out = subprocess.check_output("git rev-parse --abbrev-ref HEAD", shell=True)
    return out.decode().strip()


def tag_image(image: str = "app") -> None:
    branch = current_branch().replace("/", "-")
    os.system(f"docker tag {image}:latest {image}:{branch}")
    os.system(f"docker push {image}:{branch}")


if __name__ == "__main__":
    tag_image()
""",
    ),
    # make wrapper forwarding all extra argv words into a formatted shell command.
    _v(
        "make_wrapper_join_argv_check_call",
        """
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent


def main() -> None:
    targets = " ".join(sys.argv[1:]) or "all"
    subprocess.check_call("make -C {} {}".format(ROOT / "native", targets), shell=True)


if __name__ == "__main__":
    main()
""",
    ),
    # Slack slash-command bot (Bolt) restarting a service named in the command text.
    _v(
        "slack_bolt_restart_service",
        """
import subprocess

from slack_bolt import App

app = App()


@app.command("/restart")
def restart(ack, command, respond):
    ack()
    service = command["text"].split()[0]
    result = subprocess.run(
        "sudo systemctl restart %s && systemctl is-active %s" % (service, service),
        shell=True,
        capture_output=True,
        text=True,
    )
    respond(f"`{service}`: {result.stdout.strip() or result.stderr.strip()}")


if __name__ == "__main__":
    app.start(port=3000)
""",
    ),
    # cron cleanup script reading paths from a text file, one per line, and deleting them via shell.
    _v(
        "cleanup_list_file_rm_shell",
        """
import subprocess
from pathlib import Path

LIST = Path("/etc/cleanup/paths.txt")


def cleanup() -> None:
    for line in LIST.read_text().splitlines():
        path = line.strip()
        if not path or path.startswith("#"):
            continue
        subprocess.run("rm -rf " + path, shell=True)


if __name__ == "__main__":
    cleanup()
""",
    ),
    # SAFE: click Docker build with an argv list; the tag is an element, no shell.
    _s(
        "click_docker_build_argv_list",
        """
import subprocess

import click


@click.command()
@click.option("--image", default="registry.example.com/api")
@click.option("--tag", required=True)
def build(image: str, tag: str) -> None:
    ref = f"{image}:{tag}"
    click.echo(f"Building {ref}")
    subprocess.run(["docker", "build", "-t", ref, "."], check=True)
    subprocess.run(["docker", "push", ref], check=True)


if __name__ == "__main__":
    build()
""",
    ),
    # SAFE: rsync backup quoting both paths with shlex.quote before the shell sees them.
    _s(
        "argparse_rsync_shlex_quote",
        """
import argparse
import shlex
import subprocess


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("dest")
    args = parser.parse_args()
    cmd = f"rsync -az --delete {shlex.quote(args.source)} {shlex.quote(args.dest)}"
    print("+", cmd)
    return subprocess.call(cmd, shell=True)


if __name__ == "__main__":
    raise SystemExit(main())
""",
    ),
    # SAFE: git clone command built with shlex.join and then run through a shell.
    _s(
        "shlex_join_git_clone_shell",
        """
import shlex
import subprocess
import sys


def clone(url: str, dest: str, depth: int = 1) -> None:
    cmd = shlex.join(["git", "clone", "--depth", str(depth), url, dest])
    subprocess.run(cmd + " && echo cloned", shell=True, check=True)


if __name__ == "__main__":
    clone(sys.argv[1], sys.argv[2])
""",
    ),
    # SAFE: terraform wrapper whose environment argument is checked against an allow-list first.
    _s(
        "terraform_workspace_allowlist",
        """
import argparse
import os
import sys

ENVIRONMENTS = {"dev", "staging", "prod"}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("env")
    ap.add_argument("--plan-only", action="store_true")
    env = ap.parse_args().env
    if env not in ENVIRONMENTS:
        sys.exit(f"unknown environment {env!r}; pick one of {sorted(ENVIRONMENTS)}")
    os.system(f"terraform workspace select {env}")
    os.system(f"terraform plan -var-file=envs/{env}.tfvars -out={env}.plan")


if __name__ == "__main__":
    main()
""",
    ),
    # SAFE: port killer casting its argument with int() before formatting the shell pipeline.
    _s(
        "kill_port_int_cast_system",
        """
import os
import sys


def free_port(port: int) -> None:
    os.system(f"lsof -ti tcp:{port} | xargs -r kill -9")


if __name__ == "__main__":
    try:
        port = int(sys.argv[1])
    except (IndexError, ValueError):
        sys.exit("usage: freeport PORT")
    free_port(port)
""",
    ),
    # SAFE: deploy helper with functools.partial but argv lists; the f-strings are list elements.
    _s(
        "partial_run_kubectl_argv",
        """
import functools
import logging
import subprocess
import sys

log = logging.getLogger("rollout")
run = functools.partial(subprocess.run, check=True, text=True)


def restart(name: str, namespace: str) -> None:
    log.info(f"restarting deployment/{name} in {namespace}")
    run(["kubectl", "rollout", "restart", f"deployment/{name}", "-n", namespace])
    run(["kubectl", "rollout", "status", f"deployment/{name}", "-n", namespace, "--timeout=120s"])


if __name__ == "__main__":
    restart(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "default")
""",
    ),
    # SAFE: asyncio worker using create_subprocess_exec with the path as its own argument.
    _s(
        "asyncio_ffprobe_subprocess_exec",
        """
import asyncio
import json
import sys


async def probe(path: str) -> dict:
    proc = await asyncio.create_subprocess_exec(
        "ffprobe", "-v", "quiet", "-print_format", "json", "-show_format", path,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return json.loads(out or b"{}")


if __name__ == "__main__":
    print(asyncio.run(probe(sys.argv[1])))
""",
    ),
    # SAFE: retry wrapper taking an argv list; prefix from the environment is one argument.
    _s(
        "deploy_retry_argv_env_prefix",
        """
import os
import subprocess
import time


def retry(argv: list[str], attempts: int = 3) -> None:
    for attempt in range(attempts):
        if subprocess.run(argv).returncode == 0:
            return
        time.sleep(2 ** attempt)
    raise RuntimeError(f"{argv[0]} failed {attempts} times")


def publish() -> None:
    prefix = os.environ["DEPLOY_PREFIX"]
    retry(["aws", "s3", "sync", "dist", f"s3://static-site-prod/{prefix}", "--delete"])


if __name__ == "__main__":
    publish()
""",
    ),
    # SAFE: image push after the tag is validated with a strict regular expression.
    _s(
        "docker_push_regex_validated_tag",
        """
import re
import subprocess
import sys

TAG_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}")


def push(repo: str, tag: str) -> None:
    if not TAG_RE.fullmatch(tag):
        raise ValueError(f"invalid tag: {tag!r}")
    subprocess.run(f"docker push registry.example.com/{repo}:{tag}", shell=True, check=True)


if __name__ == "__main__":
    push("api", sys.argv[1])
""",
    ),
    # SAFE: scp helper whose formatted shell command is only printed in dry-run mode.
    _s(
        "scp_dry_run_print_only",
        """
import argparse
import subprocess


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("host")
    ap.add_argument("dst")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    preview = f"scp -r {a.src} {a.host}:{a.dst}"
    if a.dry_run:
        print("would run:", preview)
        return
    subprocess.run(["scp", "-r", a.src, f"{a.host}:{a.dst}"], check=True)


if __name__ == "__main__":
    main()
""",
    ),
    # SAFE: release script committing and tagging with the version as argv elements.
    _s(
        "release_git_commit_tag_argv",
        """
import subprocess
import sys
from pathlib import Path


def release(version: str) -> None:
    Path("VERSION").write_text(version + "\\n")
    subprocess.run(["git", "add", "VERSION"], check=True)
    subprocess.run(["git", "commit", "-m", f"Release {version}"], check=True)
    subprocess.run(["git", "tag", "-a", f"v{version}", "-m", f"Version {version}"], check=True)


if __name__ == "__main__":
    release(sys.argv[1])
""",
    ),
    # SAFE: pg_dump through a shell, the database name handed over in the environment, quoted.
    _s(
        "pg_dump_env_variable_shell",
        """
import os
import subprocess
import sys


def dump(db: str, out: str) -> None:
    env = {**os.environ, "DB_NAME": db, "OUT_FILE": out}
    subprocess.run('pg_dump -Fc "$DB_NAME" > "$OUT_FILE"', shell=True, check=True, env=env)


if __name__ == "__main__":
    dump(sys.argv[1], sys.argv[2])
""",
    ),
    # SAFE: clean task formatting only module constants into a shell command.
    _s(
        "clean_constants_only_shell",
        """
import subprocess

BUILD_DIR = "build"
DIST_DIR = "dist"
CACHE_GLOB = "**/__pycache__"


def clean() -> None:
    subprocess.run(f"rm -rf {BUILD_DIR} {DIST_DIR} && mkdir -p {BUILD_DIR}", shell=True, check=True)
    subprocess.run(f"find . -path '{CACHE_GLOB}' -prune -exec rm -rf {{}} +", shell=True)


if __name__ == "__main__":
    clean()
""",
    ),
    # SAFE: Slack bot restarting a service chosen from a fixed mapping; the text only selects a key.
    _s(
        "slack_bolt_restart_mapping",
        """
import subprocess

from slack_bolt import App

app = App()
SERVICES = {"api": "api.service", "worker": "celery-worker.service", "web": "nginx.service"}


@app.command("/restart")
def restart(ack, command, respond):
    ack()
    key = command["text"].strip()
    unit = SERVICES.get(key)
    if unit is None:
        respond(f"Unknown service `{key}`. Known: {', '.join(SERVICES)}")
        return
    subprocess.run(f"sudo systemctl restart {unit}", shell=True, check=True)
    respond(f"restarted {unit}")
""",
    ),
]


DATA = [
    # Airflow PythonOperator callable truncating a table named in the triggering dag_run.conf.
    _v(
        "airflow_dagrun_conf_truncate_hook",
        """
from datetime import datetime

from airflow import DAG
from airflow.operators.python import PythonOperator
from airflow.providers.postgres.hooks.postgres import PostgresHook


def reload_table(**context):
    conf = context["dag_run"].conf or {}
    table = conf.get("table", "staging.events")
    hook = PostgresHook(postgres_conn_id="warehouse")
    hook.run(f"TRUNCATE TABLE {table}")
    hook.run(f"INSERT INTO {table} SELECT * FROM raw.{table.split('.')[-1]}")


with DAG("reload_table", start_date=datetime(2024, 1, 1), schedule=None, catchup=False) as dag:
    PythonOperator(task_id="reload", python_callable=reload_table)
""",
    ),
    # Airflow task pulling a DataFrame by region from DAG params (overridable at trigger time).
    _v(
        "airflow_params_region_get_pandas_df",
        """
from airflow.decorators import dag, task
from airflow.providers.mysql.hooks.mysql import MySqlHook
import pendulum


@dag(schedule="@daily", start_date=pendulum.datetime(2024, 1, 1), params={"region": "eu"})
def regional_report():
    @task
    def extract(**context):
        region = context["params"]["region"]
        hook = MySqlHook(mysql_conn_id="orders_db")
        df = hook.get_pandas_df(
            sql="SELECT order_id, total FROM orders WHERE region = '" + region + "'"
        )
        return int(df["total"].sum())

    extract()


regional_report()
""",
    ),
    # dbt-like runner rendering a .sql model with str.format; the dates come from argparse.
    _v(
        "dbt_like_model_format_duckdb",
        """
import argparse
from pathlib import Path

import duckdb

MODELS = Path("models")


def render(model: str, **vars) -> str:
    return (MODELS / f"{model}.sql").read_text().format(**vars)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("--start", required=True)
    ap.add_argument("--end", required=True)
    a = ap.parse_args()
    sql = render(a.model, start=a.start, end=a.end)
    con = duckdb.connect("warehouse.duckdb")
    con.execute(f"CREATE OR REPLACE TABLE {a.model} AS {sql}")


if __name__ == "__main__":
    main()
""",
    ),
    # spark-submit job overwriting a partition; the table and date come from argparse.
    _v(
        "spark_submit_insert_overwrite_format",
        """
import argparse

from pyspark.sql import SparkSession


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", required=True)
    parser.add_argument("--dt", required=True)
    args = parser.parse_args()

    spark = SparkSession.builder.appName("daily-agg").enableHiveSupport().getOrCreate()
    spark.sql(
        '''
        INSERT OVERWRITE TABLE {} PARTITION (dt='{}')
        SELECT user_id, count(*) AS events
        FROM raw.events
        WHERE dt = '{}'
        GROUP BY user_id
        '''.format(args.table, args.dt, args.dt)
    )
    spark.stop()


if __name__ == "__main__":
    main()
""",
    ),
    # DuckDB loader interpolating a CSV path from argv inside a quoted SQL literal.
    _v(
        "duckdb_read_csv_path_argv",
        """
import sys

import duckdb


def load(path: str, table: str = "raw_import") -> int:
    duckdb.sql(f"CREATE OR REPLACE TABLE {table} AS SELECT * FROM read_csv_auto('{path}')")
    return duckdb.sql(f"SELECT count(*) FROM {table}").fetchone()[0]


if __name__ == "__main__":
    print(load(sys.argv[1]), "rows loaded")
""",
    ),
    # DuckDB schema builder taking column names from the header row of an uploaded CSV.
    _v(
        "duckdb_create_table_csv_header_columns",
        """
import csv
import sys

import duckdb


def create_from_header(con, name: str, csv_path: str) -> None:
    with open(csv_path, newline="") as fh:
        header = next(csv.reader(fh))
    columns = ", ".join(f"{col} VARCHAR" for col in header)
    con.execute(f"CREATE TABLE IF NOT EXISTS {name} ({columns})")
    con.read_csv(csv_path).insert_into(name)


if __name__ == "__main__":
    create_from_header(duckdb.connect("imports.duckdb"), "uploads", sys.argv[1])
""",
    ),
    # polars extract job; the cut-off timestamp comes from an environment variable.
    _v(
        "polars_read_database_env_since",
        """
import os

import polars as pl

URI = os.environ.get("WAREHOUSE_URI", "postgresql://etl@db/warehouse")


def extract_changes() -> pl.DataFrame:
    since = os.environ.get("SYNC_SINCE", "1970-01-01")
    query = f"SELECT * FROM customers WHERE updated_at > '{since}' ORDER BY updated_at"
    return pl.read_database_uri(query=query, uri=URI)


if __name__ == "__main__":
    df = extract_changes()
    df.write_parquet("customers_delta.parquet")
""",
    ),
    # click market-data CLI loading trades for a symbol with pandas read_sql_query and %.
    _v(
        "click_pandas_read_sql_query_percent",
        """
import click
import pandas as pd
from sqlalchemy import create_engine

engine = create_engine("postgresql+psycopg2://quant@localhost/markets")


@click.command()
@click.argument("symbol")
@click.option("--days", default=30, show_default=True)
def trades(symbol, days):
    query = (
        "SELECT ts, price, qty FROM trades "
        "WHERE symbol = '%s' AND ts > now() - interval '%d days'" % (symbol.upper(), days)
    )
    df = pd.read_sql_query(query, engine, parse_dates=["ts"])
    click.echo(df.describe().to_string())


if __name__ == "__main__":
    trades()
""",
    ),
    # migration script adding columns listed in a JSON schema file via exec_driver_sql.
    _v(
        "sqlalchemy_exec_driver_sql_schema_file",
        """
import json
import sys

from sqlalchemy import create_engine, inspect

engine = create_engine("postgresql+psycopg://app@localhost/app")


def sync_columns(table: str, schema_path: str) -> None:
    wanted = json.load(open(schema_path))["columns"]
    existing = {c["name"] for c in inspect(engine).get_columns(table)}
    with engine.begin() as conn:
        for col in wanted:
            if col["name"] in existing:
                continue
            conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN {col['name']} {col['type']}")


if __name__ == "__main__":
    sync_columns("profiles", sys.argv[1])
""",
    ),
    # AWS Lambda report endpoint appending filters with +=; values from queryStringParameters.
    _v(
        "lambda_filters_plus_equals_text",
        """
import json
import os

from sqlalchemy import create_engine, text

engine = create_engine(os.environ["DATABASE_URL"], pool_pre_ping=True)


def handler(event, context):
    params = event.get("queryStringParameters") or {}
    sql = "SELECT id, status, amount FROM invoices WHERE 1=1"
    if params.get("status"):
        sql += f" AND status = '{params['status']}'"
    if params.get("customer"):
        sql += f" AND customer_id = '{params['customer']}'"
    sql += " ORDER BY id DESC LIMIT 100"
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(text(sql))]
    return {"statusCode": 200, "body": json.dumps(rows, default=str)}
""",
    ),
    # aiokafka consumer updating order state with psycopg 3 async; values from the Kafka message.
    _v(
        "aiokafka_psycopg_async_update",
        """
import asyncio
import json

import psycopg
from aiokafka import AIOKafkaConsumer


async def consume() -> None:
    consumer = AIOKafkaConsumer("orders", bootstrap_servers="kafka:9092", group_id="state")
    await consumer.start()
    async with await psycopg.AsyncConnection.connect("dbname=orders") as conn:
        try:
            async for msg in consumer:
                event = json.loads(msg.value)
                async with conn.cursor() as cur:
                    await cur.execute(
                        f"UPDATE orders SET state = '{event['state']}' "
                        f"WHERE id = {event['order_id']}"
                    )
                await conn.commit()
        finally:
            await consumer.stop()


if __name__ == "__main__":
    asyncio.run(consume())
""",
    ),
    # websocket feed server using asyncpg; the limit arrives as a string in a client message.
    _v(
        "websockets_asyncpg_limit_string",
        """
import asyncio
import json

import asyncpg
import websockets

pool: asyncpg.Pool | None = None


async def feed(ws):
    async for raw in ws:
        msg = json.loads(raw)
        limit = msg.get("limit", "50")
        rows = await pool.fetch(f"SELECT id, body FROM posts ORDER BY id DESC LIMIT {limit}")
        await ws.send(json.dumps([dict(r) for r in rows]))


async def main():
    global pool
    pool = await asyncpg.create_pool("postgresql://feed@localhost/feed")
    async with websockets.serve(feed, "0.0.0.0", 8765):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
""",
    ),
    # discord.py bot clearing cached keys with aiosqlite; the prefix is typed in a chat command.
    _v(
        "discord_bot_aiosqlite_like_prefix",
        """
import aiosqlite
import discord
from discord.ext import commands

bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())


@bot.command(name="purge")
@commands.has_permissions(manage_messages=True)
async def purge(ctx, prefix: str):
    async with aiosqlite.connect("bot.db") as db:
        cur = await db.execute("DELETE FROM cache WHERE key LIKE '" + prefix + "%'")
        await db.commit()
        await ctx.send(f"removed {cur.rowcount} cached entries")


bot.run("TOKEN")
""",
    ),
    # pymysql admin script formatting a table name from argv, the id itself bound.
    _v(
        "pymysql_table_name_argv_percent",
        """
import sys

import pymysql


def fetch_row(table: str, row_id: int):
    conn = pymysql.connect(host="localhost", user="admin", database="cms")
    try:
        with conn.cursor(pymysql.cursors.DictCursor) as cur:
            cur.execute("SELECT * FROM %s WHERE id = %%s" % table, (row_id,))
            return cur.fetchone()
    finally:
        conn.close()


if __name__ == "__main__":
    print(fetch_row(sys.argv[1], int(sys.argv[2])))
""",
    ),
    # Telegram bot answering stats from ClickHouse; the project name is the message text.
    _v(
        "telegram_bot_clickhouse_driver",
        """
from clickhouse_driver import Client
from telegram import Update
from telegram.ext import ApplicationBuilder, CommandHandler, ContextTypes

ch = Client(host="clickhouse", database="analytics")


async def stats(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    project = " ".join(context.args) or "default"
    (count,), = ch.execute(
        f"SELECT count() FROM events WHERE project = '{project}' AND date = today()"
    )
    await update.message.reply_text(f"{project}: {count} events today")


app = ApplicationBuilder().token("TOKEN").build()
app.add_handler(CommandHandler("stats", stats))
app.run_polling()
""",
    ),
    # clickhouse-connect CLI dropping old partitions of a table given as an option.
    _v(
        "clickhouse_connect_drop_partition_cli",
        """
import argparse

import clickhouse_connect


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default="logs.requests")
    ap.add_argument("--partition", required=True, help="YYYYMM")
    a = ap.parse_args()
    client = clickhouse_connect.get_client(host="localhost")
    client.command(f"ALTER TABLE {a.table} DROP PARTITION '{a.partition}'")
    print(client.query(f"SELECT count() FROM {a.table}").result_rows)


if __name__ == "__main__":
    main()
""",
    ),
    # S3-triggered Lambda loading into Snowflake; the object key comes from the S3 event.
    _v(
        "lambda_s3_event_snowflake_copy",
        """
import os
import urllib.parse

import snowflake.connector


def handler(event, context):
    record = event["Records"][0]["s3"]
    key = urllib.parse.unquote_plus(record["object"]["key"])
    table = key.split("/")[0].upper()
    conn = snowflake.connector.connect(
        account=os.environ["SF_ACCOUNT"], user=os.environ["SF_USER"],
        password=os.environ["SF_PASSWORD"], warehouse="LOAD_WH", database="RAW",
    )
    try:
        cur = conn.cursor()
        cur.execute(f"COPY INTO {table} FROM @landing/{key} FILE_FORMAT = (TYPE = PARQUET)")
        return {"loaded": cur.fetchall()}
    finally:
        conn.close()
""",
    ),
    # Cloud Function querying BigQuery for a user id taken from the HTTP request args.
    _v(
        "cloud_function_bigquery_user_id",
        """
import functions_framework
from google.cloud import bigquery

client = bigquery.Client()


@functions_framework.http
def user_sessions(request):
    user_id = request.args.get("user_id", "")
    query = f'''
        SELECT session_id, started_at
        FROM `analytics.sessions`
        WHERE user_id = "{user_id}"
        ORDER BY started_at DESC
        LIMIT 20
    '''
    rows = client.query(query).result()
    return {"sessions": [dict(r) for r in rows]}
""",
    ),
    # query built in one function and executed in another; filters read from stdin JSON.
    _v(
        "build_query_elsewhere_stdin_json",
        """
import json
import sqlite3
import sys


def build_query(filters: dict) -> str:
    clauses = [f"{key} = '{value}'" for key, value in filters.items()]
    where = " AND ".join(clauses) if clauses else "1=1"
    return f"SELECT id, name, city FROM members WHERE {where}"


def run(query: str) -> list[tuple]:
    with sqlite3.connect("members.db") as conn:
        return conn.execute(query).fetchall()


def main() -> None:
    filters = json.load(sys.stdin)
    for row in run(build_query(filters)):
        print(*row, sep="\\t")


if __name__ == "__main__":
    main()
""",
    ),
    # class-based repository holding the table on self; the date comes from argparse in main.
    _v(
        "repository_self_table_since_argparse",
        """
import argparse
import sqlite3


class EventRepository:
    '''Thin data access object over one events table.'''

    def __init__(self, conn: sqlite3.Connection, table: str = "events") -> None:
        self.conn = conn
        self.table = table

    def count_since(self, since: str) -> int:
        cur = self.conn.execute(
            f"SELECT count(*) FROM {self.table} WHERE created_at >= '{since}'"
        )
        return cur.fetchone()[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--since", required=True)
    args = ap.parse_args()
    repo = EventRepository(sqlite3.connect("app.db"))
    print(repo.count_since(args.since))


if __name__ == "__main__":
    main()
""",
    ),
    # repository whose private method returns the SQL text; the name comes from sys.argv.
    _v(
        "repository_method_returns_query_argv",
        """
import sys

import psycopg2


class UserStore:
    def __init__(self, dsn: str) -> None:
        self.conn = psycopg2.connect(dsn)

    def _lookup_sql(self, username: str) -> str:
        return "SELECT id, email, is_admin FROM users WHERE username = '%s'" % username

    def find(self, username: str):
        with self.conn.cursor() as cur:
            cur.execute(self._lookup_sql(username))
            return cur.fetchone()


if __name__ == "__main__":
    store = UserStore("dbname=accounts")
    print(store.find(sys.argv[1]))
""",
    ),
    # export CLI passing the table through a params dict into str.format(**params).
    _v(
        "export_dict_format_kwargs_table",
        """
import argparse
import csv
import sys

import psycopg


def export(table: str, schema: str) -> None:
    params = {"schema": schema, "table": table}
    query = "SELECT * FROM {schema}.{table}".format(**params)
    with psycopg.connect("dbname=warehouse") as conn:
        cur = conn.execute(query)
        writer = csv.writer(sys.stdout)
        writer.writerow([d.name for d in cur.description])
        writer.writerows(cur)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--schema", default="public")
    a = ap.parse_args()
    export(a.table, a.schema)
""",
    ),
    # listing CLI with an ORDER BY column picked by a ternary from an --order option.
    _v(
        "order_by_ternary_option_mysql",
        """
import argparse

import pymysql


def list_products(order: str | None, desc: bool) -> list:
    column = order if order else "created_at"
    direction = "DESC" if desc else "ASC"
    conn = pymysql.connect(host="db", user="shop", database="shop")
    with conn.cursor() as cur:
        cur.execute(f"SELECT sku, name, price FROM products ORDER BY {column} {direction} LIMIT 50")
        return cur.fetchall()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--order")
    p.add_argument("--desc", action="store_true")
    a = p.parse_args()
    for row in list_products(a.order, a.desc):
        print(row)
""",
    ),
    # tag importer reading one tag per line of a text file, stripping and inserting with %.
    _v(
        "tag_import_file_lines_strip_percent",
        """
import sys

import psycopg2


def import_tags(path: str) -> int:
    conn = psycopg2.connect("dbname=blog")
    count = 0
    with conn, conn.cursor() as cur, open(path, encoding="utf-8") as fh:
        for line in fh:
            name = line.strip()
            if not name:
                continue
            cur.execute("INSERT INTO tags (name) VALUES ('%s') ON CONFLICT DO NOTHING" % name)
            count += cur.rowcount
    return count


if __name__ == "__main__":
    print(import_tags(sys.argv[1]), "tags added")
""",
    ),
    # inventory sync updating stock row by row from an Excel sheet's DataFrame content.
    _v(
        "excel_iterrows_update_stock",
        """
import sys

import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("mssql+pyodbc://inventory")


def sync(path: str) -> None:
    df = pd.read_excel(path, sheet_name="stock")
    with engine.begin() as conn:
        for _, row in df.iterrows():
            conn.execute(text(
                f"UPDATE stock SET qty = {row['qty']} WHERE sku = '{row['sku']}'"
            ))


if __name__ == "__main__":
    sync(sys.argv[1])
""",
    ),
    # CSV loader inserting row by row with an f-string; row values from the CSV file.
    _v(
        "csv_dictreader_insert_fstring",
        """
import csv
import sys

import mysql.connector


def load(path: str) -> None:
    conn = mysql.connector.connect(user="etl", database="crm")
    cur = conn.cursor()
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            cur.execute(
                f"INSERT INTO contacts (name, email, company) "
                f"VALUES ('{row['name']}', '{row['email']}', '{row['company']}')"
            )
    conn.commit()
    cur.close()
    conn.close()


if __name__ == "__main__":
    load(sys.argv[1])
""",
    ),
    # data quality checker: table and column names from a YAML rules file named on the CLI.
    _v(
        "dq_rules_yaml_null_check",
        """
import sys

import psycopg
import yaml


def null_count(conn, table: str, column: str) -> int:
    sql = f"SELECT COUNT(*) FROM {table} WHERE {column} IS NULL"
    return conn.execute(sql).fetchone()[0]


def main(rules_path: str) -> int:
    rules = yaml.safe_load(open(rules_path))
    failed = 0
    with psycopg.connect("dbname=warehouse") as conn:
        for rule in rules["not_null"]:
            n = null_count(conn, rule["table"], rule["column"])
            if n:
                failed += 1
                print(f"FAIL {rule['table']}.{rule['column']}: {n} nulls")
    return failed


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
""",
    ),
    # Trino maintenance script listing partitions of a schema.table given in argv.
    _v(
        "trino_show_partitions_argv",
        """
import sys

import trino


def partitions(schema: str, table: str) -> list:
    conn = trino.dbapi.connect(host="trino", port=8080, user="ops", catalog="hive")
    cur = conn.cursor()
    cur.execute('SELECT * FROM ' + schema + '."' + table + '$partitions"')
    return cur.fetchall()


if __name__ == "__main__":
    for p in partitions(sys.argv[1], sys.argv[2]):
        print(p)
""",
    ),
    # Redshift UNLOAD job; the table comes from argv, the bucket and role from the environment.
    _v(
        "redshift_unload_table_argv",
        """
import os
import sys

import redshift_connector


def unload(table: str) -> None:
    bucket = os.environ["EXPORT_BUCKET"]
    role = os.environ["REDSHIFT_ROLE_ARN"]
    conn = redshift_connector.connect(host=os.environ["RS_HOST"], database="dw", user="etl")
    cur = conn.cursor()
    cur.execute(
        f"UNLOAD ('SELECT * FROM {table}') TO 's3://{bucket}/exports/{table}/' "
        f"IAM_ROLE '{role}' FORMAT AS PARQUET ALLOWOVERWRITE"
    )
    conn.commit()


if __name__ == "__main__":
    unload(sys.argv[1])
""",
    ),
    # typer todo CLI marking a todo done by its title with sqlite3.
    _v(
        "typer_todo_done_by_title",
        """
import sqlite3
from pathlib import Path

import typer

DB = Path.home() / ".todo.db"
app = typer.Typer()


def connect() -> sqlite3.Connection:
    conn = sqlite3.connect(DB)
    conn.execute("CREATE TABLE IF NOT EXISTS todos (id INTEGER PRIMARY KEY, title TEXT, done INT)")
    return conn


@app.command()
def done(title: str):
    with connect() as conn:
        n = conn.execute(f"UPDATE todos SET done = 1 WHERE title = '{title}'").rowcount
    typer.echo(f"marked {n} todo(s) done")


if __name__ == "__main__":
    app()
""",
    ),
    # Celery task purging a tenant schema's sessions; the tenant arrives as a task argument.
    _v(
        "celery_task_tenant_schema_delete",
        """
from celery import Celery
from sqlalchemy import create_engine, text

app = Celery("maintenance", broker="redis://redis:6379/0")
engine = create_engine("postgresql+psycopg://app@db/app")


@app.task(bind=True, max_retries=3)
def purge_sessions(self, tenant: str, older_than_days: int = 30):
    stmt = text(
        "DELETE FROM " + tenant + ".sessions "
        "WHERE last_seen < now() - make_interval(days => :days)"
    )
    with engine.begin() as conn:
        result = conn.execute(stmt, {"days": older_than_days})
    return result.rowcount
""",
    ),
    # Scrapy item pipeline storing scraped fields in MySQL with % formatting; items are web content.
    _v(
        "scrapy_pipeline_mysql_percent",
        """
import pymysql


class MySQLStorePipeline:
    def open_spider(self, spider):
        self.conn = pymysql.connect(host="localhost", user="scraper", database="books")
        self.cur = self.conn.cursor()

    def close_spider(self, spider):
        self.conn.commit()
        self.conn.close()

    def process_item(self, item, spider):
        sql = "INSERT INTO books (title, price, url) VALUES ('%s', '%s', '%s')" % (
            item["title"], item.get("price", ""), item["url"],
        )
        self.cur.execute(sql)
        return item
""",
    ),
    # shared db helper taking sql=; the caller concatenates a search term read from stdin.
    _v(
        "db_helper_sql_keyword_stdin_search",
        """
import sys

import psycopg2
import psycopg2.extras


def query(sql: str, params=None, conn_str: str = "dbname=library"):
    with psycopg2.connect(conn_str) as conn:
        with conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
            cur.execute(sql, params)
            return cur.fetchall()


def search_books() -> None:
    for term in sys.stdin:
        term = term.rstrip()
        rows = query(sql="SELECT title FROM books WHERE title ILIKE '%%" + term + "%%'")
        print(term, len(rows))


if __name__ == "__main__":
    search_books()
""",
    ),
    # aiomysql moderation job quoting ids read from a Redis set into an IN list.
    _v(
        "aiomysql_in_list_from_redis_members",
        """
import asyncio

import aiomysql
import redis.asyncio as redis


async def archive_flagged() -> int:
    r = redis.Redis(decode_responses=True)
    ids = await r.smembers("flagged:comments")
    if not ids:
        return 0
    id_list = ", ".join(f"'{i}'" for i in ids)
    pool = await aiomysql.create_pool(host="db", user="mod", db="forum")
    async with pool.acquire() as conn:
        async with conn.cursor() as cur:
            await cur.execute(f"UPDATE comments SET archived = 1 WHERE id IN ({id_list})")
            await conn.commit()
            return cur.rowcount


if __name__ == "__main__":
    print(asyncio.run(archive_flagged()))
""",
    ),
    # Gradio data explorer; the region filter is typed into a textbox by the user.
    _v(
        "gradio_where_clause_duckdb",
        """
import duckdb
import gradio as gr

con = duckdb.connect("sales.duckdb", read_only=True)


def explore(region: str, min_total: float):
    where = []
    if region:
        where.append(f"region = '{region}'")
    where.append(f"total >= {min_total}")
    sql = "SELECT * FROM sales WHERE " + " AND ".join(where) + " LIMIT 500"
    return con.execute(sql).df()


inputs = [gr.Textbox(label="Region"), gr.Number(label="Min total")]
demo = gr.Interface(explore, inputs, "dataframe")

if __name__ == "__main__":
    demo.launch()
""",
    ),
]


SAFE_DATA = [
    # SAFE: Airflow operator whose SQL is constant and the date is passed as a parameter.
    _s(
        "airflow_postgres_operator_parameters",
        """
from datetime import datetime

from airflow import DAG
from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator

with DAG("purge_staging", start_date=datetime(2024, 1, 1), schedule="@daily", catchup=False):
    SQLExecuteQueryOperator(
        task_id="purge",
        conn_id="warehouse",
        sql="DELETE FROM staging.events WHERE ds = %(ds)s",
        parameters={"ds": "{{ ds }}"},
    )
""",
    ),
    # SAFE: Airflow callable; dag_run.conf only selects from a fixed table mapping.
    _s(
        "airflow_dagrun_conf_table_mapping",
        """
from airflow.decorators import task
from airflow.providers.postgres.hooks.postgres import PostgresHook

TABLES = {"events": "staging.events", "users": "staging.users", "orders": "staging.orders"}


@task
def reload(**context):
    key = (context["dag_run"].conf or {}).get("table", "events")
    try:
        table = TABLES[key]
    except KeyError:
        raise ValueError(f"unknown table key {key!r}") from None
    hook = PostgresHook(postgres_conn_id="warehouse")
    hook.run(f"TRUNCATE TABLE {table}")
    print(f"truncated {table} for {key}")
""",
    ),
    # SAFE: pandas read_sql_query with the symbol bound via params.
    _s(
        "click_pandas_read_sql_params",
        """
import click
import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("postgresql+psycopg2://quant@localhost/markets")


@click.command()
@click.argument("symbol")
@click.option("--days", default=30)
def trades(symbol, days):
    query = text(
        "SELECT ts, price, qty FROM trades "
        "WHERE symbol = :symbol AND ts > now() - make_interval(days => :days)"
    )
    df = pd.read_sql_query(query, engine, params={"symbol": symbol.upper(), "days": days})
    click.echo(f"{symbol}: {len(df)} trades")


if __name__ == "__main__":
    trades()
""",
    ),
    # SAFE: sqlite IN list whose placeholders are built with an f-string and the ids bound.
    _s(
        "sqlite_in_placeholders_fstring",
        """
import sqlite3
import sys


def fetch_many(conn: sqlite3.Connection, ids: list[str]) -> list[tuple]:
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return conn.execute(f"SELECT id, title FROM notes WHERE id IN ({marks})", ids).fetchall()


if __name__ == "__main__":
    with sqlite3.connect("notes.db") as c:
        for row in fetch_many(c, sys.argv[1:]):
            print(row)
""",
    ),
    # SAFE: export CLI composing the table name with psycopg.sql.Identifier.
    _s(
        "psycopg_sql_identifier_export",
        """
import argparse
import sys

import psycopg
from psycopg import sql


def export(schema: str, table: str) -> None:
    query = sql.SQL("COPY (SELECT * FROM {}.{}) TO STDOUT WITH CSV HEADER").format(
        sql.Identifier(schema), sql.Identifier(table)
    )
    with psycopg.connect("dbname=warehouse") as conn, conn.cursor() as cur:
        with cur.copy(query) as copy:
            for block in copy:
                sys.stdout.buffer.write(block)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--schema", default="public")
    a = ap.parse_args()
    export(a.schema, a.table)
""",
    ),
    # SAFE: SQLAlchemy Core select with where() clauses built from stdin filters.
    _s(
        "sqlalchemy_core_filters_stdin",
        """
import json
import sys

from sqlalchemy import Column, Integer, MetaData, String, Table, create_engine, select

metadata = MetaData()
members = Table(
    "members", metadata,
    Column("id", Integer, primary_key=True), Column("name", String), Column("city", String),
)
engine = create_engine("sqlite:///members.db")


def search(filters: dict) -> list:
    stmt = select(members)
    for key, value in filters.items():
        if key in members.c:
            stmt = stmt.where(members.c[key] == value)
    with engine.connect() as conn:
        return conn.execute(stmt).all()


if __name__ == "__main__":
    print(search(json.load(sys.stdin)))
""",
    ),
    # SAFE: Lambda report with text() and bind parameters collected in a dict.
    _s(
        "lambda_filters_text_bindparams",
        """
import json
import os

from sqlalchemy import create_engine, text

engine = create_engine(os.environ["DATABASE_URL"])


def handler(event, context):
    q = event.get("queryStringParameters") or {}
    sql = "SELECT id, status, amount FROM invoices WHERE 1=1"
    binds = {}
    if q.get("status"):
        sql += " AND status = :status"
        binds["status"] = q["status"]
    if q.get("customer"):
        sql += " AND customer_id = :customer"
        binds["customer"] = q["customer"]
    with engine.connect() as conn:
        rows = conn.execute(text(sql + " ORDER BY id DESC LIMIT 100"), binds).mappings().all()
    return {"statusCode": 200, "body": json.dumps([dict(r) for r in rows], default=str)}
""",
    ),
    # SAFE: websocket feed casting the limit with int() and clamping it.
    _s(
        "websockets_asyncpg_int_limit",
        """
import json

import asyncpg


async def latest(pool: asyncpg.Pool, raw: str) -> str:
    msg = json.loads(raw)
    limit = max(1, min(int(msg.get("limit", 50)), 200))
    rows = await pool.fetch(f"SELECT id, body FROM posts ORDER BY id DESC LIMIT {limit}")
    return json.dumps([dict(r) for r in rows])


async def by_author(pool: asyncpg.Pool, author: str) -> list:
    return await pool.fetch("SELECT id, body FROM posts WHERE author = $1", author)
""",
    ),
    # SAFE: discord bot using aiosqlite with the LIKE pattern bound as a parameter.
    _s(
        "discord_bot_aiosqlite_bound_like",
        """
import aiosqlite
from discord.ext import commands

bot = commands.Bot(command_prefix="!")


@bot.command(name="purge")
async def purge(ctx, prefix: str):
    pattern = prefix.replace("%", "").replace("_", "") + "%"
    async with aiosqlite.connect("bot.db") as db:
        cur = await db.execute("DELETE FROM cache WHERE key LIKE ?", (pattern,))
        await db.commit()
    await ctx.send(f"removed {cur.rowcount} entries starting with {prefix!r}")
""",
    ),
    # SAFE: ClickHouse driver with a %(name)s parameter dict.
    _s(
        "clickhouse_driver_param_dict",
        """
from clickhouse_driver import Client

ch = Client(host="clickhouse", database="analytics")


def events_today(project: str) -> int:
    (count,), = ch.execute(
        "SELECT count() FROM events WHERE project = %(project)s AND date = today()",
        {"project": project},
    )
    print(f"SELECT count for {project}")
    return count
""",
    ),
    # SAFE: Spark job with named parameter markers (Spark 3.4+ args=).
    _s(
        "spark_sql_args_named_markers",
        """
import argparse

from pyspark.sql import SparkSession


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dt", required=True)
    ap.add_argument("--country", default="DE")
    a = ap.parse_args()
    spark = SparkSession.builder.appName("country-report").getOrCreate()
    df = spark.sql(
        "SELECT user_id, count(*) AS n FROM raw.events "
        "WHERE dt = :dt AND country = :country GROUP BY user_id",
        args={"dt": a.dt, "country": a.country},
    )
    df.write.mode("overwrite").parquet(f"s3://reports/country={a.country}/dt={a.dt}")


if __name__ == "__main__":
    main()
""",
    ),
    # SAFE: Spark DataFrame API filtering on a widget-like argument; f-string only names a path.
    _s(
        "spark_dataframe_filter_col",
        """
import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
country = sys.argv[1]
df = (
    spark.table("raw.events")
    .filter(F.col("country") == country)
    .groupBy("user_id")
    .agg(F.count("*").alias("events"))
)
df.write.mode("overwrite").parquet(f"/tmp/events_{country}.parquet")
print(f"SELECT * FROM raw.events WHERE country = '{country}' -- equivalent query")
""",
    ),
    # SAFE: DuckDB loader using the relational read_csv API and a ? parameter.
    _s(
        "duckdb_read_csv_api_param",
        """
import sys

import duckdb


def load(path: str, city: str):
    con = duckdb.connect()
    rel = con.read_csv(path)
    rel.create_view("raw_import")
    return con.execute("SELECT * FROM raw_import WHERE city = ?", [city]).fetchall()


if __name__ == "__main__":
    print(load(sys.argv[1], sys.argv[2]))
""",
    ),
    # SAFE: DuckDB schema builder rejecting header names that fail an identifier check, quoted.
    _s(
        "duckdb_header_columns_validated",
        """
import csv
import re

import duckdb

IDENT = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def create_from_header(con: duckdb.DuckDBPyConnection, csv_path: str) -> None:
    with open(csv_path, newline="") as fh:
        header = next(csv.reader(fh))
    bad = [c for c in header if not IDENT.fullmatch(c)]
    if bad:
        raise ValueError(f"unsupported column names: {bad}")
    cols = ", ".join(f'"{c}" VARCHAR' for c in header)
    con.execute(f"CREATE TABLE IF NOT EXISTS uploads ({cols})")
""",
    ),
    # SAFE: polars read_database with a bound execute_options parameter.
    _s(
        "polars_read_database_bound",
        """
import os

import polars as pl
from sqlalchemy import create_engine, text

engine = create_engine(os.environ.get("WAREHOUSE_URI", "postgresql://etl@db/warehouse"))


def extract_changes() -> pl.DataFrame:
    since = os.environ.get("SYNC_SINCE", "1970-01-01")
    return pl.read_database(
        text("SELECT * FROM customers WHERE updated_at > :since ORDER BY updated_at"),
        connection=engine,
        execute_options={"parameters": {"since": since}},
    )
""",
    ),
    # SAFE: partition job parsing the date with strptime before it goes into the SQL text.
    _s(
        "partition_date_strptime_fstring",
        """
import argparse
import datetime

import psycopg2


def drop_partition(day: datetime.date) -> None:
    name = f"events_{day:%Y%m%d}"
    with psycopg2.connect("dbname=metrics") as conn, conn.cursor() as cur:
        cur.execute(f"DROP TABLE IF EXISTS {name}")
        cur.execute(f"DELETE FROM partitions_log WHERE day = '{day.isoformat()}'")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("day")
    d = datetime.datetime.strptime(ap.parse_args().day, "%Y-%m-%d").date()
    drop_partition(d)
""",
    ),
    # SAFE: ticket lookup validating the id with uuid.UUID before formatting it.
    _s(
        "uuid_validated_fstring_lookup",
        """
import sys
import uuid

import psycopg


def ticket(raw_id: str):
    ticket_id = uuid.UUID(raw_id)
    with psycopg.connect("dbname=support") as conn:
        return conn.execute(
            f"SELECT subject, state FROM tickets WHERE id = '{ticket_id}'"
        ).fetchone()


if __name__ == "__main__":
    print(ticket(sys.argv[1]))
""",
    ),
    # SAFE: class repository with the table fixed on the class and values bound.
    _s(
        "repository_class_constant_table_bound",
        """
import sqlite3


class EventRepository:
    table = "events"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def count_since(self, since: str) -> int:
        sql = f"SELECT count(*) FROM {self.table} WHERE created_at >= ?"
        return self.conn.execute(sql, (since,)).fetchone()[0]

    def add(self, kind: str, payload: str) -> int:
        cur = self.conn.execute(
            f"INSERT INTO {self.table} (kind, payload) VALUES (?, ?)", (kind, payload)
        )
        return cur.lastrowid
""",
    ),
    # SAFE: repository method returning (sql, params) which the caller executes together.
    _s(
        "repository_returns_sql_and_params",
        """
import sys

import psycopg2


class UserStore:
    def __init__(self, dsn: str) -> None:
        self.conn = psycopg2.connect(dsn)

    @staticmethod
    def _lookup(username: str) -> tuple[str, tuple]:
        return "SELECT id, email FROM users WHERE username = %s", (username,)

    def find(self, username: str):
        sql, params = self._lookup(username)
        with self.conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchone()


if __name__ == "__main__":
    print(UserStore("dbname=accounts").find(sys.argv[1]))
""",
    ),
    # SAFE: ORDER BY column and direction checked against allow-lists.
    _s(
        "order_by_allowlist_mysql",
        """
import argparse

import pymysql

SORTABLE = ("created_at", "price", "name")


def list_products(order: str, desc: bool) -> list:
    if order not in SORTABLE:
        raise SystemExit(f"--order must be one of {', '.join(SORTABLE)}")
    direction = "DESC" if desc else "ASC"
    conn = pymysql.connect(host="db", user="shop", database="shop")
    with conn.cursor() as cur:
        cur.execute(
            f"SELECT sku, name, price FROM products ORDER BY {order} {direction} LIMIT %s", (50,)
        )
        return cur.fetchall()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--order", default="created_at")
    p.add_argument("--desc", action="store_true")
    a = p.parse_args()
    print(list_products(a.order, a.desc))
""",
    ),
    # SAFE: CSV loader using executemany with %s placeholders.
    _s(
        "csv_executemany_placeholders",
        """
import csv
import logging
import sys

import mysql.connector

log = logging.getLogger(__name__)


def load(path: str) -> None:
    with open(path, newline="", encoding="utf-8") as fh:
        rows = [(r["name"], r["email"], r["company"]) for r in csv.DictReader(fh)]
    conn = mysql.connector.connect(user="etl", database="crm")
    cur = conn.cursor()
    cur.executemany("INSERT INTO contacts (name, email, company) VALUES (%s, %s, %s)", rows)
    conn.commit()
    log.info(f"loaded {len(rows)} contacts from {path}")


if __name__ == "__main__":
    load(sys.argv[1])
""",
    ),
    # SAFE: Excel stock sync with text() bind parameters per row.
    _s(
        "excel_stock_sync_bound",
        """
import sys

import pandas as pd
from sqlalchemy import create_engine, text

engine = create_engine("mssql+pyodbc://inventory")
UPDATE = text("UPDATE stock SET qty = :qty WHERE sku = :sku")


def sync(path: str) -> None:
    df = pd.read_excel(path, sheet_name="stock")
    records = df[["sku", "qty"]].to_dict("records")
    with engine.begin() as conn:
        conn.execute(UPDATE, records)
    print(f"UPDATE stock: {len(records)} rows from {path}")


if __name__ == "__main__":
    sync(sys.argv[1])
""",
    ),
    # SAFE: Scrapy pipeline inserting with %s placeholders and a parameter tuple.
    _s(
        "scrapy_pipeline_mysql_params",
        """
import pymysql


class MySQLStorePipeline:
    insert_sql = "INSERT INTO books (title, price, url) VALUES (%s, %s, %s)"

    def open_spider(self, spider):
        self.conn = pymysql.connect(host="localhost", user="scraper", database="books")
        self.cur = self.conn.cursor()

    def process_item(self, item, spider):
        self.cur.execute(self.insert_sql, (item["title"], item.get("price"), item["url"]))
        spider.logger.debug(f"stored {item['title']!r}")
        return item

    def close_spider(self, spider):
        self.conn.commit()
        self.conn.close()
""",
    ),
    # SAFE: BigQuery with ScalarQueryParameter for the user id.
    _s(
        "cloud_function_bigquery_query_parameters",
        """
import functions_framework
from google.cloud import bigquery

client = bigquery.Client()
DATASET = "analytics"


@functions_framework.http
def user_sessions(request):
    user_id = request.args.get("user_id", "")
    job_config = bigquery.QueryJobConfig(
        query_parameters=[bigquery.ScalarQueryParameter("user_id", "STRING", user_id)]
    )
    query = f"SELECT session_id FROM `{DATASET}.sessions` WHERE user_id = @user_id LIMIT 20"
    rows = client.query(query, job_config=job_config).result()
    return {"sessions": [r.session_id for r in rows]}
""",
    ),
    # SAFE: Snowflake load binding the stage path and the table through IDENTIFIER(%s).
    _s(
        "snowflake_identifier_bind",
        """
import snowflake.connector

ALLOWED = {"ORDERS", "CUSTOMERS"}


def load(conn: snowflake.connector.SnowflakeConnection, key: str) -> None:
    table = key.split("/")[0].upper()
    if table not in ALLOWED:
        raise ValueError(table)
    cur = conn.cursor()
    cur.execute("TRUNCATE TABLE IDENTIFIER(%s)", (table,))
    cur.execute(f"COPY INTO {table} FROM @landing/{table.lower()}/ FILE_FORMAT = (TYPE = PARQUET)")
""",
    ),
    # SAFE: Celery task choosing the tenant schema via psycopg.sql composition.
    _s(
        "celery_tenant_psycopg_sql_compose",
        """
import psycopg
from celery import Celery
from psycopg import sql

app = Celery("maintenance", broker="redis://redis:6379/0")


@app.task
def purge_sessions(tenant: str, older_than_days: int = 30) -> int:
    stmt = sql.SQL(
        "DELETE FROM {}.sessions WHERE last_seen < now() - make_interval(days => %s)"
    ).format(sql.Identifier(tenant))
    with psycopg.connect("dbname=app") as conn:
        cur = conn.execute(stmt, (older_than_days,))
        return cur.rowcount
""",
    ),
    # SAFE: maintenance job formatting only constants; the f-string with a user name is logged.
    _s(
        "vacuum_constants_log_user",
        """
import getpass
import logging

import psycopg2

log = logging.getLogger("vacuum")
TABLES = ("events", "sessions", "audit_log")
RETENTION_DAYS = 90


def vacuum() -> None:
    who = getpass.getuser()
    log.info(f"vacuum started by {who}")
    with psycopg2.connect("dbname=app") as conn:
        conn.autocommit = True
        with conn.cursor() as cur:
            for t in TABLES:
                cur.execute(
                    f"DELETE FROM {t} WHERE created_at < now() - interval '{RETENTION_DAYS} days'"
                )
                cur.execute(f"VACUUM ANALYZE {t}")
""",
    ),
    # SAFE: aiomysql IN list with %s placeholders generated per id.
    _s(
        "aiomysql_in_placeholders_bound",
        """
import aiomysql


async def archive(pool: aiomysql.Pool, ids: set[str]) -> int:
    if not ids:
        return 0
    marks = ", ".join(["%s"] * len(ids))
    async with pool.acquire() as conn:
        async with conn.cursor() as cur:
            await cur.execute(f"UPDATE comments SET archived = 1 WHERE id IN ({marks})", list(ids))
            await conn.commit()
            return cur.rowcount
""",
    ),
    # SAFE: data quality checker; table and column from YAML, quoted with psycopg.sql.Identifier.
    _s(
        "dq_rules_yaml_catalog_checked",
        """
import psycopg
import yaml
from psycopg import sql


def null_count(conn: psycopg.Connection, table: str, column: str) -> int:
    q = sql.SQL("SELECT COUNT(*) FROM {} WHERE {} IS NULL").format(
        sql.Identifier(table), sql.Identifier(column)
    )
    return conn.execute(q).fetchone()[0]


def run(rules_path: str) -> None:
    rules = yaml.safe_load(open(rules_path))
    with psycopg.connect("dbname=warehouse") as conn:
        for rule in rules["not_null"]:
            n = null_count(conn, rule["table"], rule["column"])
            print(f"{rule['table']}.{rule['column']}: {n} nulls")
""",
    ),
]


NOTEBOOKS = [
    # Colab setup notebook installing an extra package typed at an input() prompt.
    _nb(
        "nb_colab_input_pip_install",
        True,
        "import importlib\nimport sys\nprint(sys.version)\n",
        "!pip install -q torch torchvision --index-url https://download.pytorch.org/whl/cu121\n",
        'pkg = input("Extra package to install (name==version): ").strip()\n',
        "!pip install -q {pkg}\n",
        'importlib.import_module(pkg.split("==")[0].replace("-", "_"))\n',
    ),
    # ipywidgets downloader; the URL is typed into a Text widget and used in a `!wget` in on_click.
    _nb(
        "nb_ipywidgets_wget_on_click",
        True,
        "import ipywidgets as widgets\nfrom IPython.display import display\n",
        (
            'url_box = widgets.Text(description="URL", placeholder="https://...")\n'
            'go = widgets.Button(description="Download")\n'
            "out = widgets.Output()\n"
            "display(url_box, go, out)\n"
        ),
        (
            "def on_click(_):\n"
            "    with out:\n"
            "        url = url_box.value.strip()\n"
            "        print(f'downloading {url}')\n"
            "        !wget -q -O data.zip {url}\n"
            "        !unzip -oq data.zip -d data\n"
            "\n"
            "go.on_click(on_click)\n"
        ),
    ),
    # analysis notebook capturing `!ls` output; the folder comes from the DATA_DIR env variable.
    _nb(
        "nb_env_data_dir_ls_capture",
        True,
        "import os\nimport pandas as pd\n",
        'data_dir = os.environ.get("DATA_DIR", "/content/data")\nprint(data_dir)\n',
        "csv_files = !ls {data_dir}/*.csv\nlen(csv_files)\n",
        "frames = [pd.read_csv(f) for f in csv_files]\ndf = pd.concat(frames)\ndf.head()\n",
    ),
    # ipython-sql notebook; `%sql` line magic expands {artist}, which is typed at input().
    _nb(
        "nb_sql_line_magic_input_brace",
        True,
        "%load_ext sql\n",
        "%sql sqlite:///chinook.db\n",
        'artist = input("Artist name: ")\n',
        (
            "%sql SELECT a.Title FROM albums a JOIN artists r ON r.ArtistId = a.ArtistId"
            " WHERE r.Name = '{artist}'\n"
        ),
    ),
    # Colab notebook unzipping an uploaded archive; the archive name comes from files.upload().
    _nb(
        "nb_colab_upload_unzip_name",
        True,
        "from google.colab import files\n",
        (
            "uploaded = files.upload()\n"
            "zip_name = next(iter(uploaded))\n"
            "print(zip_name, len(uploaded[zip_name]))\n"
        ),
        '!unzip -oq "{zip_name}" -d /content/data\n',
        "!ls -la /content/data | head\n",
    ),
    # papermill-parameterised notebook cloning a repo; repo_url and branch are overridden per run.
    _nb(
        "nb_papermill_git_clone_dollar",
        True,
        (
            "# Parameters (papermill injects overrides after this cell)\n"
            'repo_url = "https://github.com/example/models.git"\n'
            'branch = "main"\n'
        ),
        "!git clone --depth 1 --branch $branch $repo_url /content/repo\n",
        "%cd /content/repo\n!pip install -q -r requirements.txt\n",
    ),
    # Kaggle download notebook; the dataset slug comes from input().
    _nb(
        "nb_kaggle_input_dataset",
        True,
        "import os\nos.environ['KAGGLE_CONFIG_DIR'] = '/content'\n",
        'dataset = input("Kaggle dataset (owner/name): ")\n',
        "!kaggle datasets download -d {dataset} -p data --unzip\n",
        "!ls data\n",
    ),
    # preprocessing notebook compressing files listed by `!ls`; the names are command output.
    _nb(
        "nb_ls_output_gzip_loop",
        True,
        "raw = !ls data/raw\nprint(len(raw), 'files')\n",
        "for name in raw:\n    if name.endswith('.json'):\n        !gzip -kf data/raw/{name}\n",
        "!du -sh data/raw\n",
    ),
    # papermill report notebook; start_date is a parameter interpolated into pandas read_sql.
    _nb(
        "nb_papermill_read_sql_start_date",
        True,
        "import pandas as pd\nfrom sqlalchemy import create_engine\nengine = create_engine('postgresql://report@db/sales')\n",
        '# parameters\nstart_date = "2024-01-01"\nregion = "EMEA"\n',
        (
            "df = pd.read_sql(\n"
            '    f"SELECT day, sum(total) AS revenue FROM orders "\n'
            "    f\"WHERE day >= '{start_date}' AND region = '{region}' GROUP BY day\",\n"
            "    engine,\n"
            ")\n"
        ),
        "df.plot(x='day', y='revenue')\n",
    ),
    # ipython-sql `%%sql` cell expanding {customer}, taken from an ipywidgets Text value.
    _nb(
        "nb_sql_cell_magic_widget_brace",
        True,
        "%load_ext sql\n%sql postgresql://analyst@localhost/shop\n",
        (
            "import ipywidgets as widgets\n"
            "customer_box = widgets.Text(description='Customer')\n"
            "customer_box\n"
        ),
        "customer = customer_box.value\n",
        (
            "%%sql\n"
            "SELECT id, total, created_at\n"
            "FROM orders\n"
            "WHERE customer_name = '{customer}'\n"
            "ORDER BY created_at DESC\n"
        ),
    ),
    # DuckDB profiling notebook; column names come from the header of an uploaded CSV.
    _nb(
        "nb_duckdb_profile_csv_columns",
        True,
        "import duckdb\nimport pandas as pd\n",
        "df = pd.read_csv('uploads/customers.csv')\ndf.shape\n",
        (
            "profile = {}\n"
            "for col in df.columns:\n"
            "    profile[col] = duckdb.sql(f'SELECT count(DISTINCT {col}) FROM df').fetchone()[0]\n"
            "profile\n"
        ),
    ),
    # ipywidgets interact video converter; the file name is a Text widget value used in `!ffmpeg`.
    _nb(
        "nb_interact_ffmpeg_text_widget",
        True,
        "from ipywidgets import interact_manual, IntSlider, Text\n",
        (
            "@interact_manual(\n"
            "    video=Text(value='clip.mp4'), fps=IntSlider(min=1, max=60, value=24)\n"
            ")\n"
            "def convert(video, fps):\n"
            "    out = video.rsplit('.', 1)[0] + f'_{fps}fps.mp4'\n"
            "    !ffmpeg -y -loglevel error -i {video} -r {fps} {out}\n"
            "    print('wrote', out)\n"
        ),
    ),
    # SAFE: Colab setup notebook whose `!` lines expand only constants.
    _nb(
        "nb_colab_constants_pip_hf_download",
        False,
        "!nvidia-smi\n",
        "!pip install -q transformers==4.40.0 datasets==2.19.0 accelerate\n",
        'MODEL = "bert-base-uncased"\nREVISION = "main"\n',
        "!huggingface-cli download {MODEL} --revision {REVISION} --local-dir models/{MODEL}\n",
        (
            "from transformers import AutoModel\n"
            "model = AutoModel.from_pretrained(f'models/{MODEL}')\n"
        ),
    ),
    # SAFE: dataset notebook with a constant URL passed to `!wget` and `!unzip`.
    _nb(
        "nb_constant_url_wget_unzip",
        False,
        (
            'DATA_URL = "https://archive.ics.uci.edu/static/public/222/bank+marketing.zip"\n'
            'DEST = "data"\n'
        ),
        (
            "!mkdir -p {DEST}\n"
            "!wget -q {DATA_URL} -O {DEST}/bank.zip\n"
            "!unzip -oq {DEST}/bank.zip -d {DEST}\n"
        ),
        "import pandas as pd\ndf = pd.read_csv(f'{DEST}/bank-full.csv', sep=';')\ndf.head()\n",
    ),
    # SAFE: notebook using shell variables only; `$HOME` and `%%bash` loop variables are not Python.
    _nb(
        "nb_shell_variables_bash_cell",
        False,
        "!echo $HOME\n!ls $HOME/.cache | head\n",
        '%%bash\nset -e\nfor f in data/*.csv; do\n  echo "$f: $(wc -l < "$f") lines"\ndone\n',
        "%%bash\nexport DB=analytics\npsql -d \"$DB\" -c 'SELECT count(*) FROM events'\n",
    ),
    # SAFE: ipython-sql `%%sql` cell binding :artist as a parameter (input() value).
    _nb(
        "nb_sql_cell_magic_colon_bind",
        False,
        "%load_ext sql\n%sql sqlite:///chinook.db\n",
        'artist = input("Artist name: ")\n',
        (
            "%%sql\n"
            "SELECT a.Title\n"
            "FROM albums a JOIN artists r ON r.ArtistId = a.ArtistId\n"
            "WHERE r.Name = :artist\n"
        ),
    ),
    # SAFE: Colab notebook quoting an input() package name with shlex.quote in the `!` line.
    _nb(
        "nb_colab_pip_install_shlex_quote",
        False,
        "import shlex\n",
        'pkg = input("Extra package: ").strip()\n',
        "!pip install -q {shlex.quote(pkg)}\n",
        "!pip show {shlex.quote(pkg)} | head -3\n",
    ),
    # SAFE: notebook casting a slider value with int() before `!head`.
    _nb(
        "nb_int_slider_head_rows",
        False,
        (
            "import ipywidgets as widgets\n"
            "rows = widgets.IntSlider(value=10, min=1, max=1000, description='rows')\n"
            "rows\n"
        ),
        "n = int(rows.value)\n",
        "!head -n {n} data/train.csv\n",
    ),
    # SAFE: report notebook; the f-string only reaches Markdown, the query is bound.
    _nb(
        "nb_markdown_fstring_bound_read_sql",
        False,
        "import sqlite3\nimport pandas as pd\nfrom IPython.display import Markdown, display\n",
        "# parameters\ncustomer = 'ACME'\n",
        (
            "con = sqlite3.connect('shop.db')\n"
            "df = pd.read_sql(\n"
            "    'SELECT * FROM orders WHERE customer = ?', con, params=(customer,)\n"
            ")\n"
        ),
        'display(Markdown(f"### Orders for **{customer}** ({len(df)} rows)"))\ndf.head()\n',
    ),
    # SAFE: DuckDB notebook filtering by a widget value through a ? parameter.
    _nb(
        "nb_duckdb_widget_param",
        False,
        "import duckdb\nimport ipywidgets as widgets\n!ls -lh data/*.parquet\n",
        "country = widgets.Text(value='DE', description='Country')\ncountry\n",
        (
            "con = duckdb.connect()\n"
            "df = con.execute(\n"
            "    \"SELECT * FROM read_parquet('data/*.parquet') WHERE country = ?\",\n"
            "    [country.value],\n"
            ").df()\n"
            "print(f'{len(df)} rows for {country.value}')\n"
        ),
    ),
]

HELDOUT9: list[Case] = [*SHELL, *DATA, *SAFE_DATA, *NOTEBOOKS]
