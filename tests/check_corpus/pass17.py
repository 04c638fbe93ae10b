"""Cases written by the check's seventeenth pass: a validated value whose pattern allows a dot
(a table name DuckDB reads as a file), and a role the renderer refuses in an f-string bound to
a name before it runs.  Each is modelled on a kind of script or notebook found in public code,
written by hand.  Not held out: the check has learnt from them.
"""

from __future__ import annotations

from .cases import Case, _s, _v


def _nb(name: str, vulnerable: bool, *cells: str) -> Case:
    return Case(name, vulnerable, cells=cells)


PASS17: list[Case] = [
    # ---------------------------------------------------------------- vulnerable
    # A report script: the table name may hold dots (a schema), so `secret.csv` passes too,
    # and DuckDB reads that file.
    _v("p17_duckdb_dotted_table", """\
import re
import sys

import duckdb

table = sys.argv[1]
if not re.fullmatch(r"[\\w.]+", table):
    raise SystemExit(f"bad table: {table!r}")
print(duckdb.sql(f"select count(*) from {table}").fetchall())
"""),
    # A notebook that lists a partition by its file-like name.
    _nb("p17_nb_duckdb_partition_name", True,
        "import re\nimport duckdb\npart = input('partition: ')\n"
        "if not re.fullmatch(r'\\w+\\.\\w+', part):\n    raise ValueError(part)\n",
        "duckdb.sql(f'describe {part}').show()\n"),
    # A deploy helper that builds its command first, then runs it.
    _v("p17_git_checkout_built_then_run", """\
import re
import subprocess
import sys

ref = sys.argv[1]
if not re.fullmatch(r"\\w+", ref):
    raise SystemExit("bad ref")
command = f"git checkout {ref} && make install"
subprocess.run(command, shell=True, check=True)
"""),
    # A query built first: the function a flag names.
    _v("p17_sqlite_function_query_built", """\
import sqlite3
import sys

fn = sys.argv[1]
if not fn.isidentifier():
    raise SystemExit("bad function")
query = f"select * from {fn}()"
print(sqlite3.connect("app.db").execute(query).fetchall())
"""),
    # ---------------------------------------------------------------- safe look-alikes
    # A table name without dots: a table, never a file.
    _s("p17_duckdb_plain_table", """\
import re
import sys

import duckdb

table = sys.argv[1]
if not re.fullmatch(r"\\w+", table):
    raise SystemExit(f"bad table: {table!r}")
print(duckdb.sql(f"select count(*) from {table}").fetchall())
"""),
    # A dotted host name for ssh: `.`, `..` and `a.b` are no code.
    _s("p17_ssh_dotted_host", """\
import os
import re
import sys

host = sys.argv[1]
if not re.fullmatch(r"[\\w.]+", host):
    raise SystemExit("bad host")
os.system(f"ssh {host} uptime")
"""),
    # A ref built into a command git only reads.
    _s("p17_git_log_built_then_run", """\
import re
import subprocess
import sys

ref = sys.argv[1]
if not re.fullmatch(r"\\w+", ref):
    raise SystemExit("bad ref")
command = f"git log --oneline {ref}"
subprocess.run(command, shell=True, check=True)
"""),
    # A command built with a checked ref, then replaced by a fixed one before it runs.
    _s("p17_command_bound_anew", """\
import re
import subprocess
import sys

ref = sys.argv[1]
if not re.fullmatch(r"\\w+", ref):
    raise SystemExit("bad ref")
command = f"git checkout {ref}"
command = "git status"
subprocess.run(command, shell=True, check=True)
"""),
]
