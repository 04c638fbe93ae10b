"""Cases written by the check's fifteenth pass, after it read the held-out corpora's misses:
parameters annotated as numbers (and their calls), papermill parameters cells with a longer
heading, IPython's ``$name`` inside and outside single quotes in ``%sql``, and a hyphen
allow-list in SQL.  Each is modelled on a kind of script or notebook found in public code,
written by hand.  Not held out: the check has learnt from them.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


PASS15: list[Case] = [
    # ---------------------------------------------------------------- vulnerable
    # An image resizer: the width is annotated int, but the caller passes argv's text.
    _v("p15_int_annotation_given_argv", """\
import os
import shlex
import sys


def resize(path: str, width: int = 640) -> int:
    return os.system(f"convert {shlex.quote(path)} -resize {width}x out.png")


resize(sys.argv[1], sys.argv[2])
"""),
    # A port killer over argv: the loop's variable is text, whatever the annotation says.
    _v("p15_int_annotation_loop_over_argv", """\
import os
import sys


def kill_port(port: int) -> None:
    os.system(f"fuser -k {port}/tcp")


for port in sys.argv[1:]:
    kill_port(port)
"""),
    # A log tail helper given an environment variable's text.
    _v("p15_int_annotation_given_environ", """\
import os


def tail(lines: int = 50) -> None:
    os.system(f"tail -n {lines} /var/log/app.log")


tail(os.environ.get("TAIL_LINES", "50"))
"""),
    # A Flask pager: `size` annotated int, given the query string's text by keyword.
    _v("p15_int_annotation_keyword_request", """\
import sqlite3
from flask import Flask, request

app = Flask(__name__)


def page(con: sqlite3.Connection, size: int, offset: int = 0):
    return con.execute(f"select * from posts order by id limit {size} offset {offset}").fetchall()


@app.get("/posts")
def posts():
    con = sqlite3.connect("blog.db")
    return {"posts": page(con, size=request.args.get("size", "20"))}
"""),
    # A CLI whose number is argv's text when given, a number otherwise.
    _v("p15_int_annotation_sometimes_text", """\
import subprocess
import sys


def warm(n: int) -> None:
    subprocess.run(f"seq {n} | xargs -I{{}} curl -s http://localhost:8000/health", shell=True)


count = sys.argv[1] if len(sys.argv) > 1 else 10
warm(count)
"""),
    # The function handed to map(): its calls are not read here.
    _v("p15_int_annotation_passed_to_map", """\
import os
import sys


def renice(pid: int) -> None:
    os.system(f"renice -n 10 -p {pid}")


list(map(renice, sys.argv[1:]))
"""),
    # papermill notebook whose parameters cell is headed with a note after a colon.
    _nb("p15_nb_papermill_heading_colon", True,
        "# Parameters: overridden by papermill at run time\nprefix = 'daily/2024-01-01'\n",
        "!aws s3 cp --recursive s3://analytics-exports/{prefix} data/\n"),
    # "# Papermill parameters" heading; the table reaches pandas.read_sql in a later cell.
    _nb("p15_nb_papermill_heading_named", True,
        "import pandas as pd\nimport sqlite3\ncon = sqlite3.connect('events.db')\n",
        "# Papermill parameters\ntable = 'events'\n",
        "df = pd.read_sql(f'select * from {table} limit 100', con)\ndf.head()\n"),
    # ipython-sql with "$region" in double quotes: IPython expands it (only '...' is left).
    _nb("p15_nb_sql_dollar_double_quotes", True,
        "%load_ext sql\n%sql sqlite:///sales.db\n",
        "import os\nregion = os.environ['REPORT_REGION']\n",
        '%sql SELECT store, revenue FROM weekly WHERE region = "$region"\n'),
    # A slug allow-listed with a hyphen, formatted where a value stands in SQL: `x--` ends
    # the query there (the owner's predicate becomes a comment).
    _v("p15_sql_hyphen_slug_unquoted", """\
import re
import sqlite3
import sys

con = sqlite3.connect("blog.db")
slug = sys.argv[1]
if not re.fullmatch(r"[A-Za-z0-9_.-]+", slug):
    raise SystemExit("bad slug")
rows = con.execute(f"select id from drafts where id = {slug} and owner = 'me'").fetchall()
"""),
    # ---------------------------------------------------------------- safe look-alikes
    # A thumbnailer: the size keeps its default at the only call; the path is quoted.
    _s("p15_safe_int_default_never_passed", """\
import os
import shlex
import sys


def thumbnail(src: str, size: int = 128) -> int:
    return os.system(f"convert {shlex.quote(src)} -thumbnail {size}x{size} thumb.png")


if __name__ == "__main__":
    sys.exit(thumbnail(sys.argv[1]))
"""),
    # A port freed after int() of the environment's text.
    _s("p15_safe_int_from_environ_cast", """\
import os


def free_port(port: int) -> None:
    os.system(f"lsof -ti tcp:{port} | xargs -r kill")


port = int(os.environ.get("PORT", "8000"))
free_port(port)
"""),
    # A recent-rows helper called with a literal and with len().
    _s("p15_safe_int_literal_and_len", """\
import sqlite3


def recent(con: sqlite3.Connection, n: int = 20):
    return con.execute(f"select * from log order by ts desc limit {n}").fetchall()


con = sqlite3.connect("app.db")
ids = [1, 2, 3]
first = recent(con)
more = recent(con, n=len(ids) * 10)
"""),
    # Shards numbered by range().
    _s("p15_safe_int_range_loop", """\
import subprocess


def run_shard(index: int, total: int) -> None:
    subprocess.run(f"pytest --shard-id={index} --num-shards={total}", shell=True, check=True)


def main() -> None:
    total = 4
    for index in range(total):
        run_shard(index, total)


main()
"""),
    # DuckDB sampling with a float percentage given as a literal.
    _s("p15_safe_float_literal", """\
import duckdb


def sample(con: duckdb.DuckDBPyConnection, pct: float = 10.0):
    return con.sql(f"select * from trips using sample {pct}%").df()


con = duckdb.connect("taxi.duckdb")
small = sample(con, 2.5)
"""),
    # A backup rotation: the database name quoted, the count left at its default.
    _s("p15_safe_int_default_with_quoted_name", """\
import os
import shlex
import sys


def rotate(db: str, keep: int = 7) -> None:
    os.system(f"ls -1t /backups/{shlex.quote(db)}-*.sql.gz | tail -n +{keep + 1} | xargs -r ls -l")


rotate(sys.argv[1])
"""),
    # A notebook whose heading says "parameters" but goes on in words: plain constants.
    _nb("p15_nb_safe_parameters_heading_in_words", False,
        "# parameters for the plot\nbins = 30\nout = 'hist.png'\n",
        "!python plot.py --bins {bins} --out {out}\n"),
    # ipython-sql with '$region' in single quotes: IPython leaves it as written.
    _nb("p15_nb_safe_sql_dollar_single_quotes", False,
        "%load_ext sql\n%sql sqlite:///sales.db\n",
        "import os\nregion = os.environ['REPORT_REGION']\n",
        "%sql SELECT store, revenue FROM weekly WHERE region = '$region'\n"),
    # A papermill notebook that passes its parameter to SQL as a bound parameter.
    _nb("p15_nb_safe_papermill_bound_parameter", False,
        "# Parameters (papermill injects overrides after this cell)\nday = '2024-01-01'\n",
        "import sqlite3\ncon = sqlite3.connect('events.db')\n"
        "rows = con.execute('select * from events where day = ?', (day,)).fetchall()\n"),
    # A bool flag formatted as its int.
    _s("p15_safe_bool_flag", """\
import os


def build(verbose: bool = False) -> None:
    os.system(f"make V={int(verbose)} all")


build(True)
"""),
]
