"""The static check for formatted strings flowing into shells and SQL."""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tokenize
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import run

from ipy_istring import RenderError
from ipy_istring.check import UnsafeFormatWarning, find_unsafe_calls, main

UNSAFE = {
    "os.system(f'cat {file}')": ("os.system", "shell", "an f-string"),
    "os.popen('ls %s' % d)": ("os.popen", "shell", "%-formatting"),
    "subprocess.run(f'rm {x}', shell=True)": ("subprocess.run", "shell", "an f-string"),
    "subprocess.check_output('grep ' + pat, shell=True)": (
        "subprocess.check_output",
        "shell",
        "concatenation",
    ),
    "cur.execute(f'select {col} from t')": ("cur.execute", "sql", "an f-string"),
    "con.execute('select * from t where a = {}'.format(a))": (
        "con.execute",
        "sql",
        "str.format()",
    ),
    "db.cursor().executemany(f'insert into {t} values (?)', rows)": (
        "db.cursor().executemany",
        "sql",
        "an f-string",
    ),
    "pd.read_sql(f'select * from {table}', con)": ("pd.read_sql", "sql", "an f-string"),
    "duckdb.sql(f'select {c} from t')": ("duckdb.sql", "sql", "an f-string"),
}

SAFE = [
    "os.system('ls -l')",
    "os.system(sh(i'cat {file}'))",
    "subprocess.run(argv(i'rm {x}'))",
    "subprocess.run(['rm', x])",
    "subprocess.run(f'rm {x}')",  # no shell: one program name, not a command line
    "cur.execute('select * from t where id = ?', (x,))",
    "cur.execute(*sql(i'select * from t where id = {x}'))",
    "cur.execute('select ' + 'a')",
    "print(f'{x}')",
    "log.info(f'ran {cmd}')",
    "system = f'{x}'",
]


@pytest.mark.parametrize("code", list(UNSAFE))
def test_finds_formatted_strings_in_sinks(code: str) -> None:
    (finding,) = find_unsafe_calls(code)
    assert (finding.call, finding.destination, finding.how) == UNSAFE[code]
    assert finding.line == 1
    message = finding.message()
    assert "injection" in message
    assert ("sh(i'...')" if finding.destination == "shell" else "*sql(i'...')") in message


@pytest.mark.parametrize("code", SAFE)
def test_leaves_safe_calls_alone(code: str) -> None:
    assert find_unsafe_calls(code) == []


def test_follows_a_name_assigned_a_formatted_string() -> None:
    code = "cmd = f'cat {file}'\nx = 1\nos.system(cmd)\n"
    (finding,) = find_unsafe_calls(code)
    assert (finding.line, finding.column, finding.how) == (3, 11, "an f-string")


def test_a_rebound_name_is_forgotten() -> None:
    assert find_unsafe_calls("cmd = f'cat {f}'\ncmd = 'ls'\nos.system(cmd)\n") == []


def test_functions_are_their_own_scope() -> None:
    code = (
        "q = f'select {c} from t'\n"
        "def f(q):\n"
        "    return cur.execute(q)\n"
        "def g():\n"
        "    q = 'select {} from t'.format(c)\n"
        "    cur.execute(q)\n"
    )
    (finding,) = find_unsafe_calls(code)
    assert finding.line == 6


def test_cells_warn_as_they_run(ishell: Any) -> None:
    run(ishell, "import os\nclass Cur:\n    def execute(self, q): return q\ncur = Cur()")
    with pytest.warns(UnsafeFormatWarning, match=r"cur\.execute\(\) gets a string built by"):
        # (a value the check cannot know: `col = 'a'` would be a constant, and safe)
        run(ishell, "col = os.environ.get('COL', 'a')\ncur.execute(f'select {col} from t')")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        run(ishell, "cur.execute('select 1')")  # no warning: nothing formatted


def test_a_keyword_only_parameter_without_default_does_not_hide_a_helper(ishell: Any) -> None:
    """``def inner(*, a)``: its ``arguments`` hold ``None`` among the keyword-only defaults,
    which the tree walks once took for a node (the check failed, and kept quiet)."""
    helper = (
        "import sqlite3\ncur = sqlite3.connect(':memory:')\n"
        "def run(query):\n    def inner(*, a, b=1): pass\n    return cur.execute(query)\n"
    )
    use = "import os\nn = os.environ.get('N', '1')\nrun(f'select {n}')\n"
    (finding,) = find_unsafe_calls(helper + use)
    assert finding.call == "run"
    run(ishell, helper)
    with pytest.warns(UnsafeFormatWarning, match=r"run\(\) gets a string built by"):
        run(ishell, use)


def test_checkers_chained_on_one_compiler_come_off_in_any_order() -> None:
    """Another hook wrapping the check's (a second checker here) and the check turned off
    first: every parse still works, only the hooks still on check, and the compiler gets its
    own ``ast_parse`` back at the end."""
    from IPython.core.compilerop import CachingCompiler

    from ipy_istring.check import CellChecker

    compiler, cell = CachingCompiler(), "import os\nos.system(f'ls {os.getenv(\"X\")}')\n"
    first, second = CellChecker(), CellChecker()
    first.install(compiler)
    second.install(compiler)
    with pytest.warns(UnsafeFormatWarning) as caught:
        compiler.ast_parse(cell)
    assert len(caught) == 2
    first.uninstall(compiler)
    with pytest.warns(UnsafeFormatWarning) as caught:
        compiler.ast_parse(cell)
    assert len(caught) == 1
    first.install(compiler)  # (on again, where it still is in the chain)
    with pytest.warns(UnsafeFormatWarning) as caught:
        compiler.ast_parse(cell)
    assert len(caught) == 2
    first.uninstall(compiler)
    second.uninstall(compiler)
    assert "ast_parse" not in vars(compiler) or vars(compiler)["ast_parse"] == first.ast_parse
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        assert isinstance(compiler.ast_parse(cell), ast.Module)


def test_an_extension_not_loaded_hooks_nothing_on_config(ishell: Any) -> None:
    """An ``IStringExtension`` made beside the loaded one (or one unloaded) sees ``%config``
    but leaves the shell alone: one warning per finding, and cells keep running."""
    from ipy_istring.extension import IStringExtension

    stray = IStringExtension(ishell)  # (IPython adds it to the shell's configurables)
    try:
        stray.check_cells = False
        stray.check_cells = True
        stray.safe_shell_escapes = True
        run(ishell, "%config IStringExtension.check_cells = False")
        run(ishell, "%config IStringExtension.check_cells = True")
        with pytest.warns(UnsafeFormatWarning) as caught:
            run(ishell, "import os\nx = os.getenv('X', '')\nclass C:\n"
                        "    def execute(self, q): pass\nC().execute(f'{x}')")  # fmt: skip
        assert len(caught) == 1
        assert ishell.compile.ast_parse.__self__ is _loaded_checker(ishell)
    finally:
        ishell.configurables.remove(stray)


def _loaded_checker(shell: Any) -> Any:
    from ipy_istring.extension import _EXTENSIONS

    return _EXTENSIONS[id(shell)].checker


def test_a_notebooks_parameters_are_outside_values(ishell: Any) -> None:
    """papermill replaces the values of the cell tagged ``parameters`` with a run's, in a
    cell it injects after it (tagged ``injected-parameters``, headed ``# Parameters``): what
    they bind is no known constant, in a notebook file and in the kernel running it."""
    from ipy_istring.check.scan import check_notebook_text

    use = "cur.execute(f'select * from {table}')\n"
    kinds = ((["parameters"], ""), (["injected-parameters"], ""), ([], "# Parameters\n"))
    for tags, heading in kinds:
        cells = [
            {"cell_type": "code", "metadata": {"tags": tags}, "source": f"{heading}table = 't'\n"},
            {"cell_type": "code", "metadata": {}, "source": use},
        ]
        notebook = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
        assert [f.cell for f in check_notebook_text(notebook).findings] == [2], (tags, heading)
    plain = [{"cell_type": "code", "metadata": {}, "source": s} for s in ("table = 't'\n", use)]
    notebook = json.dumps({"cells": plain, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    assert check_notebook_text(notebook).findings == []  # a constant
    run(ishell, "import sqlite3\ncur = sqlite3.connect(':memory:')")
    run(ishell, "cur.execute('create table t(a)')")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        run(ishell, "table = 't'")
        run(ishell, use)
    run(ishell, "# Parameters\ntable = 't'\n")
    with pytest.warns(UnsafeFormatWarning, match=r"cur\.execute\(\) gets a string built by"):
        run(ishell, use)


def test_cell_check_can_be_turned_off(ishell: Any) -> None:
    run(ishell, "%config IStringExtension.check_cells = False")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)
        run(ishell, "class C:\n    def execute(self, q): pass\nC().execute(f'{C.__name__}')")
    run(ishell, "%config IStringExtension.check_cells = True")
    with pytest.warns(UnsafeFormatWarning):
        run(ishell, "C().execute(f'{C.__name__}')")


def test_command_line_checks_files_and_notebooks(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text("import os\nos.system(f'rm {path}')\nos.system(sh(i'rm {path}'))\n")
    notebook = tmp_path / "nb.ipynb"
    cells = [
        {"cell_type": "markdown", "source": "os.system(f'{x}')", "metadata": {}},
        {"cell_type": "code", "source": ["%load_ext ipy_istring\n", "!ls\n"], "metadata": {}},
        {"cell_type": "code", "source": "%%bash\necho {x}", "metadata": {}},
        {"cell_type": "code", "source": ["q = f'select {c}'\n", "db.execute(q)\n"]},
    ]
    notebook.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}))
    result = subprocess.run(
        [sys.executable, "-m", "ipy_istring.check", str(script), str(notebook)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{script}:2:11: os.system() gets a string built by an f-string")
    assert lines[1].startswith(f"{notebook}[cell 4]:2:12: db.execute()")


def test_command_line_clean_and_usage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clean = tmp_path / "ok.py"
    clean.write_text("os.system('ls')\n")
    assert main([str(clean)]) == 0
    assert main([]) == 2
    assert "usage" in capsys.readouterr().err
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "bad.py").write_text("cur.execute('select %s' % x)\n")
    assert main([str(tmp_path)]) == 1
    assert "pkg/bad.py:1:13: cur.execute() gets a string built by %-formatting" in (
        capsys.readouterr().out
    )


# --- the corpus: recall and precision (correctness, not timing) ---------------------------------


@pytest.mark.parametrize(
    "corpus",
    [
        "CASES", "HELDOUT", "HELDOUT2", "HELDOUT3", "HELDOUT4", "HELDOUT5", "HELDOUT6",
        "HELDOUT7", "HELDOUT8", "HELDOUT9", "HELDOUT10",
    ],
)
def test_corpus_recall_and_precision(tmp_path: Path, corpus: str) -> None:
    import check_corpus
    from check_corpus import score

    from ipy_istring.check.scan import check_file

    cases = getattr(check_corpus, corpus)
    flagged = set()
    for case in cases:
        result = check_file(case.write(tmp_path))
        assert result.errors == [], case.name
        if result.findings:
            flagged.add(case.name)
    result = score(flagged, cases)
    assert result.vulnerable >= 60 and result.safe >= 25
    assert result.recall >= 0.9, result.missed
    assert result.precision >= 0.9, result.false_alarms


# --- the data flow ---------------------------------------------------------------------------

FLOWS = {
    "augmented": ("q = 'select * from t where 1=1'\nq += f' and a = {a}'\ncur.execute(q)\n", 3),
    "annotated": ("q: str = f'select {c} from t'\ncur.execute(q)\n", 2),
    "attribute": (
        "class R:\n    def __init__(self, x):\n        self.q = f'select * from t where a = {x}'\n"
        "    def run(self, cur):\n        cur.execute(self.q)\n",
        5,
    ),
    "return": ("def build(x):\n    return f'select {x} from t'\ncur.execute(build(c))\n", 3),
    "module name in function": (
        "Q = 'select * from t where a = %s'\ndef f(cur, x):\n    cur.execute(Q % x)\n",
        3,
    ),
    "branch": ("if c:\n    q = f'select {c}'\nelse:\n    q = 'select 1'\ncur.execute(q)\n", 5),
    "keyword": ("import pandas as pd\npd.read_sql(sql=f'select {c} from t', con=e)\n", 2),
    "text()": (
        "from sqlalchemy import text\nconn.execute(text(f'select {c} from t'))\n",
        2,
    ),
    "dedent": ("import textwrap\ncur.execute(textwrap.dedent(f'select {c}'))\n", 2),
    "space join": ("import os\nos.system(' '.join(['cp', a, b]))\n", 2),
    "join of appended": (
        "parts = []\nparts.append(f'a = {a}')\ncur.execute('select * from t where ' + "
        "' and '.join(parts))\n",
        3,
    ),
    "format on constant": ("Q = 'select * from t where a = {}'\ncur.execute(Q.format(x))\n", 2),
    "bash -c": ("import subprocess\nsubprocess.run(['bash', '-c', f'ls {d}'])\n", 2),
    "import alias": ("import subprocess as sp\nsp.run('ls ' + d, shell=True)\n", 2),
    "from import": ("from os import system\nsystem(f'ls {d}')\n", 2),
    "asyncio shell": (
        "import asyncio\nasync def f(h):\n    await asyncio.create_subprocess_shell(f'ping {h}')\n",
        3,
    ),
    "paramiko": ("client.exec_command(f'ls {p}')\n", 1),
    "nbconvert system": ("x = input()\nget_ipython().system('ls {x}')\n", 2),
    "nbconvert getoutput": ("x = input()\nfiles = get_ipython().getoutput('ls $x')\n", 2),
    "asyncpg": (
        "async def f(conn, e):\n    await conn.fetch(f'select * from a where e = {e}')\n",
        2,
    ),
    "asyncpg, a query joined": (
        "async def f(conn, e):\n    await conn.fetch(' '.join(['select * from a where e =', e]))\n",
        2,
    ),
    "duckdb": ("import duckdb\nduckdb.query(f'select {c} from t')\n", 2),
    "polars": ("import polars as pl\npl.read_database(f'select {c} from t', conn)\n", 2),
    "exec_driver_sql": ("conn.exec_driver_sql(f'vacuum {t}')\n", 1),
    "dict of templates": (
        "Q = {'by_name': 'select * from t where a = {}'}\ncur.execute(Q[k].format(v))\n",
        2,
    ),
    "item set later": ("Q = {'a': 'select 1'}\nQ['b'] = f'select {c}'\ncur.execute(Q[k])\n", 3),
    "join of a list of values": (
        "import subprocess\ncmd = [tool, *args]\nsubprocess.Popen(' '.join(cmd), shell=True)\n",
        3,
    ),
    "pexpect bash -c": (
        "import pexpect\npexpect.spawn('/bin/bash', ['-c', f'sudo {c}'])\n",
        2,
    ),
    "exec with -c": (
        "import asyncio\nasync def f(c):\n"
        "    await asyncio.create_subprocess_exec('sh', '-c', f'ping {c}')\n",
        3,
    ),
    "get_ipython() in a name": (
        "from IPython import get_ipython\nip = get_ipython()\nip.getoutput(f'grep {p} logs')\n",
        3,
    ),
    "fabric connection": (
        "from fabric import Connection\nconn = Connection(h)\nconn.run(f'git checkout {b}')\n",
        3,
    ),
    "fabric connection in with": (
        "from fabric import Connection\nwith Connection(h) as c:\n    c.sudo(f'rm {b}')\n",
        3,
    ),
    "class attribute": (
        "import os\nclass B:\n    CMD = 'pg_dump {db}'\n    def run(self, db):\n"
        "        os.system(self.CMD.format(db=db))\n",
        5,
    ),
    "string.Template": (
        "import os\nfrom string import Template\nC = Template('scp $src host:')\n"
        "def go(src):\n    os.system(C.substitute(src=src))\n",
        5,
    ),
    "partial": (
        "import subprocess\nfrom functools import partial\n"
        "run = partial(subprocess.run, shell=True)\nrun(f'kubectl delete pod {p}')\n",
        4,
    ),
    "partial of the name itself": (  # inside, `run` is the imported one
        "from subprocess import run\nfrom functools import partial\n"
        "run = partial(run, shell=True)\nrun(f'kubectl delete pod {p}')\n",
        4,
    ),
    "lambda": (
        "import subprocess\nsh = lambda c: subprocess.check_output(c, shell=True)\n"
        "sh(f'grep {p} log')\n",
        3,
    ),
    "helper function": (
        "def query(cur, q):\n    return cur.execute(q).fetchall()\n"
        "def users(cur, n):\n    return query(cur, f\"select * from u where n = '{n}'\")\n",
        4,
    ),
    "EXEC": ("cursor.execute(f\"EXEC dbo.refresh @d = '{d}'\")\n", 1),
    "django extra": ("qs = qs.extra(where=[f\"tags LIKE '%%{tag}%%'\"])\n", 1),
    "copy_expert": ("cur.copy_expert(f'COPY ({q}) TO STDOUT', out)\n", 1),
    "airflow hook": (
        "from airflow.providers.postgres.hooks.postgres import PostgresHook\n"
        "hook = PostgresHook()\nhook.run(f\"COPY {t} FROM '{p}'\")\n",
        3,
    ),
    "query builder returning (sql, params)": (
        "def build(o):\n    return f'select * from c order by {o}', []\n"
        "def f(cur, o):\n    cur.execute(*build(o))\n",
        4,
    ),
    "databases fetch_all": (
        "async def f(db, o):\n    await db.fetch_all(query=f\"select * from n where o = '{o}'\")\n",
        2,
    ),
    "RawSQL": (
        "from django.db.models.expressions import RawSQL\nr = RawSQL(f'rank({t})', [])\n",
        2,
    ),
    "literal_column": (
        "from sqlalchemy import literal_column\nc = literal_column(f\"'{x}'\")\n",
        2,
    ),
    "peewee SQL": ("from peewee import SQL\nw = SQL(f\"c LIKE '%{n}%'\")\n", 2),
    "pony": ("P.select_by_sql(\"SELECT * FROM P WHERE n = '\" + n + \"'\")\n", 1),
    "clickhouse query_df": ("client.query_df('select * from u where t = {}'.format(t))\n", 1),
    "decorator that runs the result": (
        "import os\ndef shell(func):\n    def wrapper(*a):\n        cmd = func(*a)\n"
        "        os.system(cmd)\n    return wrapper\n"
        "@shell\ndef backup(db):\n    return f'pg_dump {db}'\n",
        9,
    ),
    "%%sql cell": ("x = input()\nget_ipython().run_cell_magic('sql', '', \"select '{x}'\")\n", 2),
    "%%sql cell, jupysql": (
        "x = input()\nget_ipython().run_cell_magic('sql', '', \"select '{{x}}'\")\n",
        2,
    ),
    "loop over formatted commands": (
        "import os\ncommands = [f'rm -rf {d}/*' for d in dirs]\nfor c in commands:\n"
        "    os.system(c)\n",
        4,
    ),
    "fabric task": (
        "from fabric import task\n@task\ndef deploy(c, b='main'):\n"
        "    c.run(f'git checkout {b}')\n",
        4,
    ),
    # HELDOUT5's rules
    "peewee execute_sql through a helper": (
        "from peewee import PostgresqlDatabase\ndb = PostgresqlDatabase('app')\n"
        "def run(sql):\n    return db.execute_sql(sql)\n"
        "run(f\"select * from u where e = '{e}'\")\n",
        5,
    ),
    "airflow BashOperator": (
        "from airflow.operators.bash import BashOperator\n"
        "BashOperator(task_id='dump', bash_command=f'pg_dump -t {t} app')\n",
        2,
    ),
    "an upper-case name bound to loaded data is no constant": (
        "import json\nfrom airflow.operators.bash import BashOperator\n"
        "with open('tables.json') as f:\n    TABLES = json.load(f)['tables']\n"
        "for table in TABLES:\n"
        "    BashOperator(task_id='dump', bash_command=f'pg_dump -t {table} app')\n",
        6,
    ),
    "format(**values) of a template read from a file": (
        "import pandas as pd\ndef q(path, **values):\n"
        "    return pd.read_sql(open(path).read().format(**values), con)\n",
        3,
    ),
    "format of a template parameter": (
        "def f(client, query, project):\n"
        "    client.query(query.format(project=project).strip())\n",
        2,
    ),
    "Template(text).substitute of a file's text": (
        "from string import Template\ndef f(cur, channel):\n    text = open('q.sql').read()\n"
        "    cur.execute(Template(text).substitute(channel=channel))\n",
        4,
    ),
    "ssh's remote command in an argument list": (
        "import subprocess\nsubprocess.run(['ssh', host, f'du -sh {path}'], check=True)\n",
        2,
    ),
    "sh -c after a runner in an argument list": (
        "import subprocess\n"
        "subprocess.run(['docker', 'exec', c, 'sh', '-c', f'pg_dump {db} > /tmp/{db}.sql'])\n",
        2,
    ),
    "sh -c after sudo and kubectl exec": (
        "import subprocess\nsubprocess.run(\n"
        "    ['kubectl', 'exec', '-n', ns, pod, '--', 'sudo', 'bash', '-c', f'ls {d}']\n)\n",
        3,
    ),
    "ssh through create_subprocess_exec": (
        "import asyncio\nasync def f(h, p):\n"
        "    await asyncio.create_subprocess_exec('ssh', '-p', '22', h, f'rm {p}')\n",
        3,
    ),
    "shell=True through **options": (
        "import subprocess\nKW = dict(shell=True, text=True)\n"
        "subprocess.run(f'soffice --convert-to pdf {src}', **KW)\n",
        3,
    ),
    "shell=True through **{...}": (
        "import subprocess\nsubprocess.Popen(f'tar czf {out} .', **{'shell': True})\n",
        2,
    ),
    "shell=True through a local **options dict": (
        "import subprocess\ndef f(d):\n    kw = {'shell': True}\n"
        "    return subprocess.check_output(f'du -sh {d}', **kw)\n",
        4,
    ),
    "a helper that joins its words for a shell": (
        "import asyncio\nasync def shell(words):\n"
        "    return await asyncio.create_subprocess_shell(' '.join(words))\n"
        "async def convert(src, dst):\n    await shell(['pandoc', src, '-o', dst])\n",
        5,
    ),
    "a key formatted into a dict that is looped over": (
        "COLUMNS = {f'{prefix}_note': 'TEXT'}\nfor name, kind in COLUMNS.items():\n"
        "    conn.exec_driver_sql(f'ALTER TABLE t ADD COLUMN {name} {kind}')\n",
        3,
    ),
    "unpacking what is not all constant": (
        "PAIRS = [('a', 'INT'), (col, 'TEXT')]\nfor name, kind in PAIRS:\n"
        "    conn.exec_driver_sql(f'ALTER TABLE t ADD COLUMN {name} {kind}')\n",
        3,
    ),
    "a method that runs its parameter, called through self": (
        "class Stats:\n    def __init__(self, conn):\n        self.conn = conn\n"
        "    def run_query(self, query):\n        with self.conn.cursor() as cur:\n"
        "            cur.execute(query)\n"
        "    def by_channel(self, channel):\n"
        "        return self.run_query(f\"select * from m where c = '{channel}'\")\n",
        8,
    ),
    "a method called on an object its class made": (
        "import sqlite3\nclass DB:\n    def __init__(self, path):\n"
        "        self.conn = sqlite3.connect(path)\n"
        "    def run(self, sql):\n        return self.conn.execute(sql)\n"
        "db = DB('s.db')\ndef view(kind):\n"
        "    return db.run(f\"select * from s where type = '{kind}'\")\n",
        9,
    ),
    "a method called on the class's object in place": (
        "class DB:\n    def run(self, sql, *params):\n"
        "        return self.cur.execute(sql, params)\nDB().run(f'delete from {t}')\n",
        4,
    ),
    "a method that calls a method that runs its parameter": (
        "import os\nclass Box:\n    def sh(self, command):\n        return os.system(command)\n"
        "    def rm(self, path):\n        return self.sh(path)\n"
        "Box().rm(f'rm -rf {d}')\n",
        7,
    ),
    # HELDOUT6's rules
    "BigQuery's query_and_wait": (
        "def f(client, t):\n    return client.query_and_wait(f'SELECT * FROM {t}')\n",
        2,
    ),
    "REFRESH MATERIALIZED VIEW is SQL": (
        "def f(cur, v):\n    cur.execute('REFRESH MATERIALIZED VIEW %s' % v)\n",
        2,
    ),
    "the bash of pexpect's REPL wrapper": (
        "from pexpect import replwrap\nshell = replwrap.bash()\n"
        "shell.run_command(f'grep -c {p} app.log')\n",
        3,
    ),
    "os.execl of sh -c": (
        "import os\ncmd = f'exec gunicorn {app}'\nos.execl('/bin/sh', 'sh', '-c', cmd)\n",
        3,
    ),
    "os.execv of bash -c": ("import os\nos.execv('/bin/bash', ['bash', '-c', f'ls {d}'])\n", 2),
    "os.spawnlp of sh -c": (
        "import os\nos.spawnlp(os.P_WAIT, 'sh', 'sh', '-c', f'rm {f}')\n",
        2,
    ),
    "docker's exec_run of a command line that runs sh -c": (
        "c.exec_run(f\"sh -c 'pg_dump {db} | gzip > /b/{db}.gz'\")\n",
        1,
    ),
    "docker's exec_run of sh -c in a list": ("c.exec_run(['sh', '-c', f'pg_dump {db}'])\n", 1),
    "a kubernetes pod exec of sh -c": (
        "from kubernetes.stream import stream\n"
        "stream(api.connect_get_namespaced_pod_exec, pod, 'default',\n"
        "       command=['/bin/sh', '-c', f'grep {p} /var/log/app.log'])\n",
        3,
    ),
    "a helper that runs an item of its **kwargs": (
        "import os\ndef run(**kw):\n    return os.system(kw['command'])\n"
        "run(command=f'rm {d}')\n",
        4,
    ),
    "a helper that runs kwargs.get(...)": (
        "def remote(ssh, **kwargs):\n    ssh.exec_command(kwargs.get('command'), timeout=9)\n"
        "remote(s, command=f'systemctl restart {u}')\n",
        3,
    ),
    "a helper that runs its parameter with pexpect's bash -c": (
        "import pexpect\ndef run(cmd):\n    return pexpect.spawn('/bin/bash', ['-c', cmd])\n"
        "run(f'ls {d}')\n",
        4,
    ),
    # HELDOUT7's rules
    "the sh library's bash -c": ("import sh\nsh.bash('-c', f'du -sh {p}/*')\n", 2),
    "the sh library's bash, imported from it": (
        "from sh import bash\nbash('-c', f'du -sh {p}/*')\n",
        2,
    ),
    "the sh library's ssh remote command": ("import sh\nsh.ssh(host, f'rm -r {d}')\n", 2),
    "plumbum's sh, its words by subscript": (
        "from plumbum import local\nsh = local['sh']\nout = '/b/x.tgz'\n"
        "sh['-c', f'tar czf {out} {src}']()\n",
        4,
    ),
    "plumbum's bash, its words by call": (
        "from plumbum import local\nlocal['bash']('-c', f'du -sh {d}')\n",
        2,
    ),
    "plumbum's sh with -c bound first": (
        "import plumbum\nsh = plumbum.local['sh']['-c']\nsh(f'ls {d}')\n",
        3,
    ),
    "plumbum.cmd's bash": ("from plumbum.cmd import bash\n(bash['-c', f'ls {d}'] > 'o')()\n", 2),
    "plumbum's ssh remote command": (
        "from plumbum import local\nlocal['ssh'][host, f'rm -r {d}'] & FG\n",
        2,
    ),
    "a placeholder of a .sql file's text filled in": (
        "from pathlib import Path\nq = Path('m.sql').read_text()\n"
        "q = q.replace('{{ day }}', opts.day)\ncur.execute(q)\n",
        4,
    ),
    "a lambda that formats the query": (
        "q = lambda c, n: f'select {c} from t limit {n}'\n"
        "def f(conn, c):\n    return conn.exec_driver_sql(q(c, 9))\n",
        3,
    ),
    "a command held in a dict, run from .items()": (
        "import os\njobs = {'tar': f'tar czf b.tgz {p}', 'ls': 'ls'}\n"
        "for name, command in jobs.items():\n    os.system(command)\n",
        4,
    ),
    "a dict's .get() of a formatted value": (
        "Q = {'a': f'select {c} from t', 'b': 'select 1'}\ncur.execute(Q.get(k, 'select 2'))\n",
        2,
    ),
    "a dict's .get() with an outside default": (
        "O = {'new': 'at DESC'}\ndef f(cur, s):\n"
        "    cur.execute(f'select * from t order by {O.get(s, s)}')\n",
        3,
    ),
    "a dict of constants given an outside value": (
        "import sys\nO = {'new': 'at DESC'}\nO.update(old=sys.argv[1])\n"
        "cur.execute(f'select * from t order by {O.get(k)}')\n",
        4,
    ),
    "a list of constants given an outside value": (
        "import sys\ncols = ['id']\ncols.append(sys.argv[1])\n"
        "cur.execute(f\"select {', '.join(cols)} from t\")\n",
        4,
    ),
    "a path with an outside part": (
        "import os\nfrom pathlib import Path\nd = Path('data', name)\nos.system(f'ls {d}')\n",
        4,
    ),
    "a file name a constant path's glob gives": (
        "import os\nfrom pathlib import Path\nf = sorted(Path('up').glob('*.mp4'))[0]\n"
        "os.system(f'ffmpeg -i {f} out.gif')\n",
        4,
    ),
    # HELDOUT8's rules
    "shell= a name, not a false constant": (
        "import subprocess, sys\nuse_shell = True\n"
        "subprocess.run(f'grep {sys.argv[1]} log', shell=use_shell)\n",
        3,
    ),
    "shell= an expression": (
        "import os, subprocess\nsubprocess.run(f'dir {d}', shell=os.name == 'nt')\n",
        2,
    ),
    "an asyncssh connection's command": (
        "import asyncssh\nasync def f(host, unit):\n"
        "    async with asyncssh.connect(host) as conn:\n"
        "        await conn.run(f'systemctl restart {unit}')\n",
        4,
    ),
    "argparse without choices": (
        "import argparse, os\np = argparse.ArgumentParser()\np.add_argument('env')\n"
        "a = p.parse_args()\nos.system(f'deploy {a.env}')\n",
        5,
    ),
    "argparse choices through a type of the user's": (
        "import argparse, os\np = argparse.ArgumentParser()\n"
        "p.add_argument('--env', type=parse_env, choices=['dev'])\n"
        "a = p.parse_args()\nos.system(f'deploy {a.env}')\n",
        5,
    ),
    "a constant dict's keys beside an outside value": (
        "T = {'users': cols}\nddl = ';'.join(f'create table {n} ({c})' for n, c in T.items())\n"
        "con.executescript(ddl)\n",
        3,
    ),
    # HELDOUT10's misses: sinks of Pony's Database, GIS libraries, Snowflake's stage commands
    "pony Database().select": (
        "from pony.orm import Database\ndb = Database()\n"
        "def f(city):\n    return db.select(f\"SELECT name FROM P WHERE city = '{city}'\")\n",
        4,
    ),
    "pony Database().execute": (
        "import pony.orm\ndb = pony.orm.Database()\ndb.execute(f'delete from P where id = {i}')\n",
        3,
    ),
    "geopandas read_postgis": (
        "import geopandas as gpd\n"
        "gdf = gpd.read_postgis(f'SELECT geom FROM p WHERE g && ST_MakeEnvelope({b})', con=e)\n",
        2,
    ),
    "GeoDataFrame.from_postgis": (
        "from geopandas import GeoDataFrame\nGeoDataFrame.from_postgis('select * from ' + t, e)\n",
        2,
    ),
    "OGR ExecuteSQL": (
        "from osgeo import ogr\nds = ogr.Open('PG:dbname=gis')\n"
        "layer = ds.ExecuteSQL(f\"SELECT id FROM roads WHERE name = '{name}'\")\n",
        3,
    ),
    "GDAL VectorTranslate SQLStatement": (
        "from osgeo import gdal\n"
        "gdal.VectorTranslate('o.gpkg', src, SQLStatement=f'SELECT * FROM r WHERE k = {k}')\n",
        2,
    ),
    "Snowflake PUT": (
        "def up(conn, path):\n"
        "    conn.cursor().execute('PUT file://' + path + ' @%uploads AUTO_COMPRESS=TRUE')\n",
        2,
    ),
    "Snowflake LIST": ("def ls(cur, s):\n    cur.execute(f'LIST @{s}')\n", 2),
}


@pytest.mark.parametrize("name", list(FLOWS))
def test_follows_the_string(name: str) -> None:
    code, line = FLOWS[name]
    findings = find_unsafe_calls(code)
    assert [f.line for f in findings] == [line], findings


SAFE_FLOWS = [
    # HELDOUT8's rules
    "import subprocess\nsubprocess.run(f'ls {d}'.split(), shell=False)\n",
    "import os\nJ = os.cpu_count() or 2\nos.system(f'make -j{J}')\n",
    "import argparse, os\nap = argparse.ArgumentParser()\n"
    "ap.add_argument('--env', type=str.lower, choices=('dev', 'prod'))\n"
    "args = ap.parse_args()\nos.system(f'ansible-playbook -i inv/{args.env} site.yml')\n",
    "import argparse, os\nap = argparse.ArgumentParser()\n"
    "ap.add_argument('-m', '--run-mode', choices=['a', 'b'])\n"
    "args, rest = ap.parse_known_args()\nos.system(f'job --{args.run_mode}')\n",
    "import sys\nfrom sqlalchemy import create_engine, inspect, text\n"
    "engine = create_engine('sqlite://')\nt = sys.argv[1]\n"
    "if t not in inspect(engine).get_table_names():\n    raise SystemExit(t)\n"
    "engine.connect().execute(text(f'select count(*) from \"{t}\"'))\n",
    "TABLES = {'users': 'id INT', 'audit': 'ts TEXT'}\n"
    "ddl = '\\n'.join(f'CREATE TABLE {n} ({c});' for n, c in TABLES.items())\n"
    "con.executescript(ddl + f'PRAGMA user_version = {4};')\n",
    "TABLE = 'users'\ncur.execute(f'select * from {TABLE}')\n",
    "q = f'select {c}'\nprint(q)\nq = 'select ?'\ncur.execute(q, (c,))\n",
    "marks = ', '.join(['?'] * len(ids))\n"
    "cur.execute(f'select * from t where id in ({marks})', ids)\n",
    "cur.execute(f'select * from t limit {int(n)}')\n",
    "import os, shlex\nos.system(f'cp {shlex.quote(a)} {shlex.quote(b)}')\n",
    "get_ipython().system('ls $HOME')\n",  # a shell variable: IPython leaves it to the shell
    "x = input()\nget_ipython().system(\"awk '{print $1}' {x}\")\n",  # a field IPython cannot eval
    "df.query(f'a > {x}')\n",  # pandas, not SQL
    "session.fetch(f'https://example.com/{uid}')\n",  # not SQL text
    "DAYS = 30\ncur.execute(f'delete from t where age > {DAYS}')\n",  # numbers are constants
    "T = {'d': 'sales_daily', 'm': 'sales_monthly'}\ncur.execute(f'select * from {T[p]}')\n",
    "from psycopg2 import sql\n"
    "q = sql.SQL('select * from {}').format(sql.Identifier(t))\ncur.execute(q)\n",
    "import subprocess\nsubprocess.run(['bash', '-c', 'ls \"$1\"', 'sh', d])\n",
    "app.run(f'{host}:{port}')\n",  # not a fabric connection
    "import pexpect\npexpect.spawn('/bin/bash', ['-c', 'ls'])\n",
    "import enum\nclass T(str, enum.Enum):\n    A = 'a'\n"
    "def f(cur, t):\n    cur.execute(f'select * from {T(t).value}')\n",
    "import uuid\ndef f(cur, s):\n    i = uuid.UUID(s)\n"
    "    cur.execute(f\"select * from d where id = '{i}'\")\n",
    "from datetime import date\nd = date.fromisoformat(a)\n"
    "cur.execute(f\"delete from s where day = '{d.isoformat()}'\")\n",
    "cur.execute('select * from posts limit %d' % n)\n",
    "OK = {'orders', 'users'}\ndef f(cur, t):\n    if t not in OK:\n        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",
    "import re\ndef f(cur, t):\n    if not re.fullmatch(r'[a-z_]+', t):\n"
    "        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",
    "import os\nfrom settings import DATA_DIR\nos.system(f'ls {DATA_DIR}')\n",
    "def query(cur, q):\n    q = q.strip()\n    return cur.execute(q, ())\nquery(c, 'select 1')\n",
    "def build(n):\n    return 'select * from c where n = %s', [f'%{n}%']\n"
    "def f(cur, n):\n    cur.execute(*build(n))\n",  # formatted only in the parameters
    "TABLES = ('a', 'b')\nfor t in TABLES:\n    cur.execute(f'vacuum {t}')\n",
    "OK = frozenset({'a', 'b'})\ndef f(cur, **kw):\n    cols = [k for k in kw if k in OK]\n"
    "    sets = ', '.join(f'{k} = %s' for k in cols)\n"
    "    cur.execute(f'update t set {sets}', list(kw.values()))\n",
    "def f(cur, n):\n    n = min(int(n), 100)\n    cur.execute(f'select * from t limit {n}')\n",
    "get_ipython().run_cell_magic('sql', '', 'select * from t where a = :x')\n",
    "x = input()\nget_ipython().run_cell_magic('bash', '', 'echo {x}')\n",  # bash expands nothing
    "import re\nIDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')\ndef f(conn, t):\n"
    "    if not IDENT.fullmatch(t):\n        raise ValueError(t)\n"
    "    conn.execute(f'delete from {t}')\n",
    "from datetime import date, timedelta\nd = (date.today() - timedelta(days=1)).isoformat()\n"
    "spark.sql(f\"select * from clicks where dt = '{d}'\")\n",
    # HELDOUT5's rules, not over-reaching
    "from airflow.operators.bash import BashOperator\n"
    "BashOperator(task_id=f'dump_{t}', bash_command='pg_dump app')\n",  # only the task's name
    "db.execute_sql(f'/items/{x}')\n",  # a generic name: not SQL text
    "def f(cur, query):\n    cur.execute(query.format(table='users'))\n",  # constants in
    "from psycopg2 import sql\ndef f(cur, query, t):\n"
    "    cur.execute(query.format(sql.Identifier(t)))\n",  # psycopg quotes what it composes
    "import subprocess\nsubprocess.run(['ssh', host, 'df -h'])\n",  # a constant remote command
    "import subprocess\nsubprocess.run(['ssh', f'{user}@{host}', 'uptime'])\n",  # the host
    "import subprocess\nsubprocess.run(['docker', 'exec', c, 'cat', f'/tmp/{name}'])\n",  # data
    "import subprocess\n"
    "subprocess.run(['docker', 'exec', c, 'sh', '-c', 'pg_dump \"$1\"', 'sh', db])\n",  # $1
    "import subprocess\nKW = dict(shell=False, text=True)\nsubprocess.run(f'ls {d}', **KW)\n",
    "import subprocess\nKW = {'text': True}\nsubprocess.run(f'ls {d}', **KW)\n",
    "import subprocess\nKW = dict(shell=True)\nKW = dict(text=True)\n"
    "subprocess.run(f'ls {d}', **KW)\n",  # rebound without shell=True
    "import shlex, subprocess\ndef run(words):\n"
    "    return subprocess.run(shlex.join(words), shell=True)\n"
    "run(['pandoc', src, '-o', dst])\n",  # the helper quotes each word
    "import subprocess\ndef run(words):\n    return subprocess.run(' '.join(words), shell=True)\n"
    "run(['ls', '-l'])\n",  # constant words
    "COLUMNS = {'note': 'TEXT', 'due': 'TIMESTAMP'}\ndef f(conn):\n"
    "    for name, kind in COLUMNS.items():\n"
    "        conn.exec_driver_sql(f'ALTER TABLE t ADD COLUMN {name} {kind}')\n",
    "PAIRS = [('note', 'TEXT'), ('due', 'TIMESTAMP')]\nfor name, kind in PAIRS:\n"
    "    conn.exec_driver_sql(f'ALTER TABLE t ADD COLUMN {name} {kind}')\n",
    # methods that are not sinks of their parameter
    "OK = {'old', 'tmp'}\nclass DB:\n    def drop(self, table):\n        if table not in OK:\n"
    "            raise ValueError(table)\n        self.cur.execute(f'drop table {table}')\n"
    "db = DB()\ndb.drop(f'{prefix}_old')\n",  # it allow-lists its parameter
    "class DB:\n    def by_kind(self, kind):\n"
    "        return self.cur.execute('select * from s where type = ?', (kind,))\n"
    "DB().by_kind(f'{k}%')\n",  # it passes it as a query parameter
    "class A:\n    def run(self, sql):\n        return self.cur.execute(sql)\n"
    "class B:\n    def run(self, text):\n        print(text)\n"
    "b = B()\nb.run(f'select {x}')\n",  # another class's method of the same name
    "class A:\n    def run(self, sql):\n        return self.cur.execute(sql)\n"
    "def f(other, x):\n    other.run(f'select {x}')\n",  # an object of an unknown class
    "class A:\n    @staticmethod\n    def run(label, sql):\n        return cur.execute(sql)\n"
    "A().run(f'select {x}', 'select 1')\n",  # a static method: no self to skip
    # HELDOUT6's rules, not over-reaching
    "from flask import request\nlimit = int(request.args['n'])\n"
    "cur.execute(f'select * from t limit {limit:d}')\n",  # a number, whatever its spec
    "T = 'users'\nW = 10\ncur.execute(f'select * from {T:>{W}}')\n",  # the code's own spec
    "api.query_and_wait(f'/jobs/{job}')\n",  # a generic name: not SQL text
    "session.fetch(f'/api/token/refresh/{user}')\n",  # `refresh` alone is no SQL
    "from pexpect import replwrap\npy = replwrap.python()\n"
    "py.run_command(f'print({x!r})')\n",  # a Python REPL, not a shell
    "import os\nos.execvp('gunicorn', ['gunicorn', '-w', w, app])\n",  # argv, no shell
    "import os\nos.execl('/bin/sh', 'sh', '-c', 'ls \"$1\"', 'sh', d)\n",  # $1, not code
    "c.exec_run(['pg_dump', '-f', f'/backup/{db}.sql', db])\n",  # argv, no shell
    "c.exec_run(f'pg_dump -f /backup/{db}.sql {db}')\n",  # split into words: no shell
    "from kubernetes.stream import stream\n"
    "stream(api.connect_get_namespaced_pod_exec, pod, 'default',\n"
    "       command=['grep', p, '/var/log/app.log'])\n",  # argv, no shell
    "import os\ndef run(**kw):\n    kw['command'] = 'ls'\n    return os.system(kw['command'])\n"
    "run(command=f'rm {d}')\n",  # the helper sets the item itself
    "import os\ndef run(**kw):\n    return os.system(kw['command'])\n"
    "run(command='ls', label=f'{d}')\n",  # formatted only in another keyword
    # HELDOUT7's rules, not over-reaching
    "import sh\nsh.bash('deploy.sh', f'--env={env}')\n",  # a script's argument, no -c
    "import sh\nsh.ls('-l', f'{d}')\n",  # no shell
    "import sh\nsh.bash('-c', 'ls \"$1\"', 'sh', d)\n",  # $1, not code
    "from plumbum import local\nls = local['ls']\nls['-l', f'{d}']()\n",  # no shell
    "from plumbum import local\nlocal['bash'](f'{d}/run.sh', f'--day={day}')\n",  # no -c
    "from plumbum import local\nsh = local['sh']\nsh['-c', 'ls \"$1\"', 'sh', d]()\n",  # $1
    "from plumbum import local\nsh = local['sh']\nsh = local['ls']\nsh['-c', f'{d}']()\n",
    "d = {'sh': 'x'}\nd['sh'][f'{x}']\n",  # no plumbum: a dict
    "from pathlib import Path\n"
    "q = Path('m.sql').read_text().replace('{{ schema }}', 'public')\ncur.execute(q)\n",
    "q = lambda c: 'select count(*) from t'\nconn.exec_driver_sql(q(c))\n",  # constant
    "msg = lambda c: f'ran {c}'\ncur.execute('insert into log values (?)', (msg(c),))\n",
    "import os\njobs = {'ls': 'ls -l', 'df': 'df -h'}\n"
    "for name, command in jobs.items():\n    os.system(command)\n",
    "O = {'new': 'at DESC', 'top': 'score DESC'}\ndef f(cur, s):\n"
    "    o = O.get(s, O['new'])\n    cur.execute(f'select * from t order by {o} limit %s', [9])\n",
    "O = {'new': 'at DESC', 'top': 'score DESC'}\ndef f(cur, s):\n"
    "    cur.execute(f'select * from t order by {O.get(s) or \"at\"}')\n",
    "O = {'new': 'at DESC'}\nO.update(old='at ASC')\nO.setdefault('top', 'score DESC')\n"
    "def f(cur, s):\n    cur.execute(f'select * from t order by {O.get(s, \"at\")}')\n",
    "marks = []\nfor x in xs:\n    marks.append('?')\n"
    "cur.execute(f\"select * from t where a in ({', '.join(marks)})\", xs)\n",
    "def f(conn, tags):\n    marks = ', '.join(f'${i}' for i in range(1, len(tags) + 1))\n"
    "    return conn.fetch(f'select * from t where tag in ({marks})', *tags)\n",
    "for i in range(3):\n    cur.execute(f'drop table if exists part_{i}')\n",
    "import uuid\ndef f(conn):\n    tmp = f'tmp_{uuid.uuid4().hex}'\n"
    "    conn.execute(f'create temp table {tmp} (e text)')\n",
    "import re, subprocess\nif not re.fullmatch(r'v\\d+\\.\\d+\\.\\d+', tag):\n"
    "    raise SystemExit(tag)\nsubprocess.run(f'git push origin {tag}', shell=True)\n",
    "import subprocess, sys\n"
    "subprocess.run(f'{sys.executable} -m pip install -r r.txt', shell=True)\n",
    "def f(db, t):\n"
    "    known = {r[0] for r in db.execute(\"SELECT name FROM sqlite_master WHERE type = 't'\")}\n"
    "    if t not in known:\n        raise KeyError(t)\n"
    "    return db.execute(f'PRAGMA table_info({t})')\n",
    "def f(cur):\n"
    "    for (t,) in cur.execute('select table_name from information_schema.tables'):\n"
    "        cur.execute(f'analyze {t}')\n",
    "import os\nfrom pathlib import Path\nD = Path('data') / 'raw'\nos.system(f'ls {D}')\n",
    "import os\nD = os.path.join('data', 'raw')\nos.system(f'ls {D.upper()}')\n",
    "from pathlib import Path\nD = Path('data') / 'raw'\n"
    "get_ipython().run_line_magic('sx', 'ls -1 {D} {D.name}')\n",
    # HELDOUT10's sinks, not over-reaching: Pony's own parameters, constant SQL, another
    # library's `.select` (BeautifulSoup's CSS selector), `.execute` of text that is no SQL
    "from pony.orm import Database\ndb = Database()\n"
    "def f(city):\n    return db.select('SELECT name FROM P WHERE city = $city')\n",
    "from bs4 import BeautifulSoup\nsoup = BeautifulSoup(page, 'html.parser')\n"
    "rows = soup.select(f'table.{kind} tr')\n",
    "from osgeo import ogr\nds = ogr.Open('PG:dbname=gis')\n"
    "layer = ds.ExecuteSQL('SELECT id FROM roads', spatialFilter=area)\n",
    "def f(bot, item):\n    bot.execute(f'get the {item} for me')\n",
    "import geopandas as gpd\ngdf = gpd.read_postgis('SELECT geom FROM p', con=e)\n",
    # a URL joined from values the check cannot see, for a generic name (tornado's fetch):
    # the separator is the text it knows, and it is no SQL
    "def get(self, url):\n    proxy_url = '/'.join([self.settings['cdn'], url])\n"
    "    return self.client.fetch(proxy_url)\n",
]
# Look-alikes that are not safe: the same guards, done wrong.
UNSAFE_GUARDS = [
    "cur.execute('select * from t where c = %c' % ch)\n",  # %c takes a character: a quote
    "import re\ndef f(cur, t):\n    if not re.fullmatch(r'[a-z ;]+', t):\n"
    "        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",
    "import re\ndef f(cur, t):\n    if not re.match(r'[a-z]+', t):\n        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",  # re.match checks only the start
    "OK = {'orders', 'users'}\ndef f(cur, t):\n    if t not in OK:\n        print(t)\n"
    "    cur.execute(f'select * from {t}')\n",  # the guard does not leave
    "def int(x):\n    return x\ncur.execute(f'select * from t limit {int(n)}')\n",  # shadowed
    "def f(cur, n, int=str):\n    cur.execute(f'select * from t limit {int(n)}')\n",
    "T = 'users'\ncur.execute(f'select * from {T:{fill}>10}')\n",  # a value's fill character
    "import re\ndef f(cur, t):\n    if not re.fullmatch(r'v\\d+.\\d+', t):\n"
    "        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",  # `.` unescaped: any character
    "import re\ndef f(cur, t):\n    if not re.fullmatch(r'[0-z]+', t):\n"
    "        raise ValueError(t)\n"
    "    cur.execute(f'select * from {t}')\n",  # 0-z spans `;`, `<`, `=`...
    "def f(db, t):\n    known = {r[0] for r in db.execute('SELECT name FROM users')}\n"
    "    if t not in known:\n        raise KeyError(t)\n"
    "    return db.execute(f'select * from {t}')\n",  # names a user gave, not the schema's
    "def f(db, t):\n"
    "    known = {r[0] for r in db.execute('SELECT name FROM sqlite_master JOIN notes')}\n"
    "    if t not in known:\n        raise KeyError(t)\n"
    "    return db.execute(f'select * from {t}')\n",  # joined with a table of data
    "def f(db, t):\n"
    "    known = {r[0] for r in db.execute('SELECT name FROM sqlite_master, notes')}\n"
    "    if t not in known:\n        raise KeyError(t)\n"
    "    return db.execute(f'select * from {t}')\n",  # and another table
    "def f(db, q, t):\n    known = {r[0] for r in db.execute(q)}\n"
    "    if t not in known:\n        raise KeyError(t)\n"
    "    return db.execute(f'select * from {t}')\n",  # a query the check cannot see
    "import os\ndef f(u):\n    os.system(f'ls {u.hex}')\n",  # an attribute of an unknown
    "import os, sys\nos.system(f'{sys.argv[1]} -q')\n",  # not the interpreter
    # HELDOUT8's rules, not over-reaching
    "import argparse, os\np = argparse.ArgumentParser()\np.add_argument('env', choices=['dev'])\n"
    "a = p.parse_args()\nb = other()\nos.system(f'deploy {b.env}')\n",  # not parse_args'
    "def f(db, t, engine):\n    if t not in inspect(engine).get_columns('x'):\n"
    "        raise KeyError(t)\n    return db.execute(f'select * from {t}')\n",  # not the names
]


@pytest.mark.parametrize("code", UNSAFE_GUARDS)
def test_guards_that_do_not_guard(code: str) -> None:
    assert len(find_unsafe_calls(code)) == 1


@pytest.mark.parametrize("code", SAFE_FLOWS)
def test_safe_look_alikes(code: str) -> None:
    assert find_unsafe_calls(code) == []


def test_the_message_names_the_way_the_string_came() -> None:
    (finding,) = find_unsafe_calls("q = f'select {c}'\n\ncur.execute(q)\n")
    assert finding.via == "q" and finding.origin_line == 1
    assert "(through q, line 1)" in finding.message()


def test_sinks_can_be_added(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ipy_istring.check.sinks import BUILTIN_SINKS, Sink, SinkTable

    # A plug-in, installed the way a package is: a dist-info with an entry point.
    (tmp_path / "warehouse_sinks.py").write_text(
        "from ipy_istring.check import Sink\nSINKS = [Sink('.run_query', 'sql')]\n"
    )
    info = tmp_path / "warehouse_sinks-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: warehouse-sinks\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[ipy_istring.sinks]\nwarehouse = warehouse_sinks:SINKS\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    table = SinkTable(BUILTIN_SINKS)
    assert [s.destination for s in table.lookup(".run_query")] == ["sql"]
    assert table.lookup(".execute")  # the built-in ones are still there
    # and the process-wide table takes sinks registered in code
    from ipy_istring.check import register_sink, sinks

    monkeypatch.setattr(sinks, "_by_name", {k: list(v) for k, v in sinks._by_name.items()})
    assert find_unsafe_calls("client.submit_sql(f'select {c}')\n") == []
    register_sink(Sink(".submit_sql", "sql"))
    (finding,) = find_unsafe_calls("client.submit_sql(f'select {c}')\n")
    assert finding.call == "client.submit_sql"


# --- files: never a traceback, one line per file that cannot be checked -------------------------


COMMAND = str(Path(sys.executable).parent / "ipy-istring-check")


def _check(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``ipy-istring-check`` command, as a user or pre-commit runs it."""
    return subprocess.run([COMMAND, *args], capture_output=True, text=True, check=False, cwd=cwd)


def _notebook(cells: list[str], nbformat: int = 4) -> str:
    if nbformat == 3:
        sheet = [{"cell_type": "code", "input": c.splitlines(True), "outputs": []} for c in cells]
        return json.dumps({"worksheets": [{"cells": sheet}], "nbformat": 3, "nbformat_minor": 0})
    code = [{"cell_type": "code", "source": c.splitlines(True), "metadata": {}} for c in cells]
    return json.dumps({"cells": code, "nbformat": 4, "nbformat_minor": 5, "metadata": {}})


VULNERABLE = "import os\nos.system(f'rm {path}')\n"


def test_bad_files_do_not_stop_the_run(tmp_path: Path) -> None:
    files: dict[str, bytes] = {
        # readable, and checked
        "a_latin1.py": "# -*- coding: latin-1 -*-\n# café\nimport os\nos.system(f'{p}')\n".encode(
            "latin-1"
        ),
        "b_bom.py": b"\xef\xbb\xbf" + VULNERABLE.encode(),
        "c_long_chain.py": (
            "import os\nos.system('x' + " + " + ".join(["a"] * 500) + ")\n"
        ).encode(),
        "d_nbformat3.ipynb": _notebook(["import os\nos.system(f'rm {p}')\n"], nbformat=3).encode(),
        # not checkable
        "e_nul.py": b"import os\x00\n",
        "f_truncated.ipynb": _notebook(["x = 1\n"]).encode()[:40],
        "g_empty.ipynb": b"",
        "h_syntax.py": b"def f(:\n",
        "i_bad_utf8.py": b"x = '\xff\xfe'\n",
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        # each bad file is followed by a vulnerable one, whose finding must not be lost
        (tmp_path / f"{name.split('.')[0]}_z.py").write_text(VULNERABLE)
    result = _check(str(tmp_path), str(tmp_path / "missing.py"))
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    expected = {
        "e_nul.py": "NUL",
        "f_truncated.ipynb": "not valid notebook JSON",
        "g_empty.ipynb": "empty",
        "h_syntax.py": "line 1",
        "i_bad_utf8.py": "not UTF-8 text? declare its coding",
        "missing.py": "no such file",
    }
    assert len(errors) == len(expected), errors
    for name, reason in expected.items():
        (line,) = [e for e in errors if e.startswith(str(tmp_path / name) + ": cannot check: ")]
        assert reason in line, line
    found = {Path(line.split(":")[0].split("[")[0]).name for line in result.stdout.splitlines()}
    assert found == {
        "a_latin1.py", "b_bom.py", "c_long_chain.py", "d_nbformat3.ipynb",
        *(f"{n.split('.')[0]}_z.py" for n in files),
    }  # fmt: skip


def test_percent_and_bang_lines_are_python_in_py_files(tmp_path: Path) -> None:
    # black puts a long %-formatting's operator at the start of a line
    script = tmp_path / "report.py"
    script.write_text(
        "def page_query(cur, page):\n"
        "    cur.execute(\n"
        "        \"select * from pages where title = '%s'\"\n"
        "        % page\n"
        "    )\n"
    )
    result = _check(str(script))
    assert result.returncode == 1
    assert result.stdout.startswith(f"{script}:3:9: cur.execute() gets a string built by %")


@pytest.mark.parametrize("how", [[COMMAND], [sys.executable, "-m", "ipy_istring.check"]])
def test_exit_status_of_the_command(tmp_path: Path, how: list[str]) -> None:
    def status(*paths: Path) -> int:
        result = subprocess.run([*how, *map(str, paths)], capture_output=True, text=True)
        assert "Traceback" not in result.stderr
        return result.returncode

    clean, vulnerable, broken = tmp_path / "clean", tmp_path / "vulnerable", tmp_path / "broken"
    for folder in (clean, vulnerable, broken):
        folder.mkdir()
        (folder / "a_ok.py").write_text("import os\nos.system('ls')\n")
    (vulnerable / "b.py").write_text(VULNERABLE)
    (broken / "b_nul.py").write_bytes(b"x = 1\x00\n")
    (broken / "c.py").write_text(VULNERABLE)  # a finding after the file not checked
    assert status(clean) == 0
    assert status(vulnerable) == 1
    assert status(broken) == 2  # not 1: something could not be checked
    assert status(clean / "missing.py", clean) == 2


def test_exit_status(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("import os\nos.system('ls')\n")
    assert main([str(tmp_path / "ok.py")]) == 0
    (tmp_path / "bad.py").write_text(VULNERABLE)
    assert main([str(tmp_path / "ok.py"), str(tmp_path / "bad.py")]) == 1
    (tmp_path / "broken.py").write_text("def (\n")
    assert main([str(tmp_path)]) == 2  # a finding and a file not checked: 2


def test_folders_leave_out_environments_and_builds(tmp_path: Path) -> None:
    for folder in (".venv/lib/site-packages/pkg", "site-packages/x", "build/lib", "src", "gen"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "m.py").write_text(VULNERABLE)
    result = _check(str(tmp_path), "--exclude", "gen")
    reported = {line.split(":")[0] for line in result.stdout.splitlines()}
    assert reported == {str(tmp_path / "src" / "m.py")}
    # a file named on the command line is read even where a folder walk would not go
    assert _check(str(tmp_path / "build" / "lib" / "m.py")).returncode == 1


# --- notebooks: cells as IPython runs them ------------------------------------------------------


def test_notebook_cells_as_ipython_runs_them(tmp_path: Path) -> None:
    notebook = tmp_path / "nb.ipynb"
    cells = [
        "import os, subprocess\nsrc, dst = input(), input()\n",  # 1
        "df?\nos.system(f'ls {src}')\n",  # 2: help syntax does not hide the cell
        "x = !ls\nhome = %env HOME\nsubprocess.run(f'du {home}/{src}', shell=True)\n",  # 3
        "%%time\nos.popen('cat ' + src)\n",  # 4: a Python cell magic's body
        "%%capture out\nimport os\nos.system(f'rm {dst}')\n",  # 5
        "%%bash\necho {src}\n",  # 6: not Python, not expanded by IPython
        "!cp {src} {dst}\n",  # 7
        "files = !ls $src\n",  # 8
        "%sx grep {src} log.txt\n",  # 9
        "!ls $HOME {'constant'}\n",  # 10: nothing of Python's reaches the shell
        "q = f'select * from t where a = {src}'\n",  # 11
        "import sqlite3\nsqlite3.connect(':memory:').execute(q)\n",  # 12: built in cell 11
    ]
    notebook.write_text(_notebook(cells))
    result = _check(str(notebook))
    assert result.returncode == 1, result.stderr
    where = [line.split(": ")[0] for line in result.stdout.splitlines()]
    assert where == [
        f"{notebook}[cell 2]:2:11",
        f"{notebook}[cell 3]:3:16",
        f"{notebook}[cell 4]:2:10",
        f"{notebook}[cell 5]:3:11",
        # (an escape line's first expansion as written: 22, 33 and 36 before, the columns of
        # IPython's translation of the line, `get_ipython().system('cp {src} {dst}')`, past
        # the end of the line as written)
        f"{notebook}[cell 7]:1:5",
        f"{notebook}[cell 8]:1:13",
        f"{notebook}[cell 9]:1:10",
        f"{notebook}[cell 12]:2:37",
    ]
    assert "IPython's {}/$ expansion" in result.stdout.splitlines()[4]


# --- output formats ----------------------------------------------------------------------------


def test_pythons_warnings_about_the_code_read_stay_out_of_the_output(tmp_path: Path) -> None:
    # (they came out as '<unknown>:3: SyntaxWarning: ...', naming no file)
    (tmp_path / "a.py").write_text('import os\nx = 1if True else 2\nos.system(f"ls \\d {p}")\n')
    (tmp_path / "n.ipynb").write_text(_notebook(["%time y = '\\d'\n"]))
    result = _check(str(tmp_path))
    assert result.returncode == 1 and result.stdout.count("os.system()") == 1
    assert result.stderr == ""


def test_json_and_sarif(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(VULNERABLE + "cur.execute(f'select {c}')\n")
    (tmp_path / "n.ipynb").write_text(_notebook(["x = input()\n", "!ls {x}\n"]))
    (tmp_path / "broken.py").write_text("(\n")
    report = json.loads(_check("--format", "json", str(tmp_path)).stdout)
    assert [(f["path"].endswith("a.py"), f["line"], f["rule"]) for f in report["findings"][:2]] == [
        (True, 2, "IST001"),
        (True, 3, "IST002"),
    ]
    assert report["findings"][2]["cell"] == 2
    assert len(report["errors"]) == 1 and "broken.py: cannot check" in report["errors"][0]

    result = _check("--format", "sarif", str(tmp_path))
    assert result.returncode == 2
    sarif = json.loads(result.stdout)
    _valid_sarif(sarif)
    (run_,) = sarif["runs"]
    assert len(run_["results"]) == 3
    (invocation,) = run_["invocations"]
    assert invocation["executionSuccessful"] is False
    assert "broken.py" in invocation["toolExecutionNotifications"][0]["message"]["text"]
    # a path outside the current folder: an absolute file: URI
    assert run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": (tmp_path / "a.py").as_uri()
    }


SARIF_SCHEMA = Path(__file__).parent / "data" / "sarif-schema-2.1.0.json"


def _valid_sarif(sarif: dict[str, Any]) -> None:
    """``sarif`` conforms to the OASIS SARIF 2.1.0 schema (formats such as ``uri-reference``
    checked) and to what GitHub code scanning asks on top of it."""
    import jsonschema

    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(sarif)]
    assert errors == []
    # GitHub code scanning: a tool name and rules, each result a ruleId and a physical
    # location, its URI relative to the repository (or absolute), its lines from 1.
    assert sarif["version"] == "2.1.0" and sarif["$schema"].endswith("sarif-schema-2.1.0.json")
    for run_ in sarif["runs"]:
        driver = run_["tool"]["driver"]
        assert driver["name"] == "ipy_istring.check"
        rules = driver["rules"]
        assert all(r["properties"]["security-severity"] for r in rules)
        for result in run_["results"]:
            assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
            assert result["level"] == "error" and result["message"]["text"]
            (location,) = result["locations"]
            artifact = location["physicalLocation"]["artifactLocation"]
            if "uriBaseId" in artifact:
                assert artifact["uriBaseId"] in run_["originalUriBaseIds"]
                assert not artifact["uri"].startswith(("/", "file:"))
            else:
                assert artifact["uri"].startswith("file:///")
            assert location["physicalLocation"]["region"]["startLine"] >= 1


def test_sarif_for_github_code_scanning(tmp_path: Path) -> None:
    # run from the repository's root, as the upload action does: relative URIs
    (tmp_path / "src dir").mkdir()
    (tmp_path / "src dir" / "ünï code.py").write_text(VULNERABLE + "cur.execute(f'select {c}')\n")
    (tmp_path / "n.ipynb").write_text(_notebook(["x = input()\n", "!ls {x}\n"]))
    (tmp_path / "broken.py").write_text("(\n")
    result = _check("--format", "sarif", ".", cwd=tmp_path)
    assert result.returncode == 2
    sarif = json.loads(result.stdout)
    _valid_sarif(sarif)
    (run_,) = sarif["runs"]
    uris = [
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run_["results"]
    ]
    assert uris == [
        "n.ipynb",
        "src%20dir/%C3%BCn%C3%AF%20code.py",
        "src%20dir/%C3%BCn%C3%AF%20code.py",
    ]
    assert run_["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"
    assert [r["ruleId"] for r in run_["results"]] == ["IST001", "IST001", "IST002"]
    # the positive control: the schema refuses what code scanning would
    broken = json.loads(result.stdout)
    location = broken["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    location["region"]["startLine"] = 0
    with pytest.raises(AssertionError, match="startLine"):
        _valid_sarif(broken)
    location["region"]["startLine"] = 1
    location["artifactLocation"]["uri"] = "src dir/a.py"
    with pytest.raises(AssertionError, match="uri-reference"):
        _valid_sarif(broken)


# Lines with characters of several UTF-8 bytes before and inside the f-string: the tree
# counts columns in bytes, editors and the fix in characters.
NON_ASCII = (
    "import os, sqlite3\ncur = sqlite3.connect(':memory:')\nname = input()\n"
    'msg = "café"; os.system(f"ls {name}")\n'
    'x = "\U0001f600"; cur.execute(f"SELECT * FROM t WHERE a = {name} AND c = \'Zürich\'")\n'
)


def test_columns_count_characters(tmp_path: Path) -> None:
    shell, sql_ = find_unsafe_calls(NON_ASCII)
    lines = NON_ASCII.splitlines()
    assert lines[3][shell.column - 1 : shell.end_column - 1] == 'f"ls {name}"'
    assert lines[3][shell.call_column - 1 :].startswith("os.system(")
    assert lines[4][sql_.column - 1 : sql_.end_column - 1].startswith('f"SELECT')
    assert lines[4][sql_.column - 1 : sql_.end_column - 1].endswith("'Zürich'\"")
    (tmp_path / "a.py").write_text(NON_ASCII)
    report = json.loads(_check("--format", "json", str(tmp_path)).stdout)
    assert [(f["line"], f["column"], f["end_column"]) for f in report["findings"]] == [
        (4, shell.column, shell.end_column),
        (5, sql_.column, sql_.end_column),
    ]
    assert _check(str(tmp_path / "a.py")).stdout.startswith(f"{tmp_path / 'a.py'}:4:25: ")
    sarif = json.loads(_check("--format", "sarif", str(tmp_path)).stdout)
    _valid_sarif(sarif)
    (run_,) = sarif["runs"]
    assert run_["columnKind"] == "unicodeCodePoints"
    regions = [r["locations"][0]["physicalLocation"]["region"] for r in run_["results"]]
    assert [(r["startColumn"], r["endColumn"]) for r in regions] == [
        (shell.column, shell.end_column),
        (sql_.column, sql_.end_column),
    ]


def test_fix_rewrites_f_strings_on_lines_with_non_ascii_text(tmp_path: Path, ishell: Any) -> None:
    script = tmp_path / "job.py"
    script.write_text(NON_ASCII)
    assert _check("--fix", str(script)).returncode == 0
    fixed = script.read_text().splitlines()
    assert fixed[:2] == ["from ipy_istring import sh", "from ipy_istring import sql"]
    assert fixed[-2] == 'msg = "café"; os.system(sh(i"ls {name}"))'
    assert fixed[-1] == (
        'x = "\U0001f600"; '
        "cur.execute(*sql(i\"SELECT * FROM t WHERE a = {name} AND c = 'Zürich'\"))"
    )
    with pytest.warns(UnsafeFormatWarning) as caught:  # (IPython's parse: nothing runs)
        ishell.compile.ast_parse(ishell.transform_cell(NON_ASCII))
    assert [str(w.message).rsplit("\n", 1)[-1].strip() for w in caught] == fixed[-2:]


# An i-literal before the f-string on its line: the check reads the rewrite, where the line
# is longer; the fix is of the line as written (it once came back with the rewrite's call).
BESIDE_AN_I_LITERAL = (
    "import os\nname = input()\n"
    't = i"a {name}"; os.system(f"ls {name}")\n'
    'os.system(f"cat {name}"); u = i"{name}"\n'
    'v = i"ls {name}"; os.system(f"ls {name}"); w = i"ls {name}"\n'
)
FIXED_BESIDE_AN_I_LITERAL = [
    't = i"a {name}"; os.system(sh(i"ls {name}"))',
    'os.system(sh(i"cat {name}")); u = i"{name}"',
    'v = i"ls {name}"; os.system(sh(i"ls {name}")); w = i"ls {name}"',
]


def test_fix_beside_an_i_literal_is_of_the_line_as_written(tmp_path: Path, ishell: Any) -> None:
    lines = BESIDE_AN_I_LITERAL.splitlines()
    findings = find_unsafe_calls(BESIDE_AN_I_LITERAL)
    assert [lines[f.line - 1][f.column - 1 : f.end_column - 1] for f in findings] == [
        'f"ls {name}"', 'f"cat {name}"', 'f"ls {name}"'
    ]
    assert all(lines[f.line - 1][f.call_column - 1 :].startswith("os.system(") for f in findings)
    script = tmp_path / "job.py"
    script.write_text(BESIDE_AN_I_LITERAL)
    assert _check("--fix", str(script)).returncode == 0
    assert script.read_text().splitlines()[-3:] == FIXED_BESIDE_AN_I_LITERAL
    notebook = tmp_path / "job.ipynb"
    notebook.write_text(_notebook([BESIDE_AN_I_LITERAL]))
    assert _check("--fix", str(notebook)).returncode == 0
    (cell,) = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cell.splitlines()[-3:] == FIXED_BESIDE_AN_I_LITERAL
    with pytest.warns(UnsafeFormatWarning) as caught:  # (IPython's parse: nothing runs)
        ishell.compile.ast_parse(ishell.transform_cell(BESIDE_AN_I_LITERAL))
    fixes = [str(w.message).rsplit("\n", 1)[-1].strip() for w in caught]
    assert fixes == FIXED_BESIDE_AN_I_LITERAL
    assert not any("__ipy_istring__" in str(w.message) for w in caught)


# Two findings on one line: each fix was once the whole line with its own f-string fixed, so
# the second written replaced the first, and the first f-string stayed (exit status 0).
TWO_ON_A_LINE = 'import os\nx = input()\nos.system(f"a {x}"); os.system(f"b {x}")\n'
BOTH_FIXED = 'os.system(sh(i"a {x}")); os.system(sh(i"b {x}"))'


def test_fix_makes_every_fix_on_a_line(tmp_path: Path, ishell: Any) -> None:
    script = tmp_path / "job.py"
    script.write_text(TWO_ON_A_LINE)
    assert _check("--fix", str(script)).returncode == 0
    assert script.read_text().splitlines()[-1] == BOTH_FIXED
    assert _check(str(script)).returncode == 0  # nothing left to find
    notebook = tmp_path / "job.ipynb"
    notebook.write_text(_notebook([TWO_ON_A_LINE]))
    assert _check("--fix", str(notebook)).returncode == 0
    (cell,) = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cell.splitlines()[-1] == BOTH_FIXED
    with pytest.warns(UnsafeFormatWarning) as caught:  # (IPython's parse: nothing runs)
        ishell.compile.ast_parse(ishell.transform_cell(TWO_ON_A_LINE))
    assert [str(w.message).rsplit("\n", 1)[-1].strip() for w in caught] == [BOTH_FIXED] * 2


def test_fix_of_a_finding_inside_another_is_refused_with_a_reason(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(
        "import os, subprocess\nx = input()\n"
        "os.system(f\"echo {subprocess.getoutput(f'ls {x}')}\")\n"
    )
    fixed = _check("--fix", str(script))
    assert fixed.returncode == 1  # one finding is left, and said so
    assert ":3:11: not fixed: its fix overlaps the fix of another finding" in fixed.stderr
    assert script.read_text().splitlines()[-1] == (
        "os.system(f\"echo {subprocess.getoutput(sh(i'ls {x}'))}\")"
    )


# Line magics that run a Python statement: checked as that statement, in its columns, and
# fixed in place, as the bodies of Python cell magics are.
MAGIC_CELLS = [
    "import os\nx = input()\n",
    '%time os.system(f"ls {x}")\n',
    '%timeit -n1 -r 2 os.system(f"ls {x}")\n',
    'for i in range(2):\n    %prun -q -s cumulative os.system(f"ls {x}")\n',
    '%%time\nos.system(f"ls {x}")\n',
    '%%capture\nos.system(f"ls {x}")\n',
    "%time for i in range(2): pass\n%timeit -x 1\n",  # (not one statement: left to IPython)
]


def test_line_magics_that_run_python_are_checked_and_fixed_in_place(tmp_path: Path) -> None:
    notebook = tmp_path / "magics.ipynb"
    notebook.write_text(_notebook(MAGIC_CELLS))
    report = json.loads(_check("--format", "json", str(notebook)).stdout)
    assert report["errors"] == []
    places = [(f["cell"], f["line"], f["column"], f["end_column"]) for f in report["findings"]]
    assert [place[:2] for place in places] == [(2, 1), (3, 1), (4, 2), (5, 2), (6, 2)]
    for cell, line, column, end in places:
        assert MAGIC_CELLS[cell - 1].splitlines()[line - 1][column - 1 : end - 1] == 'f"ls {x}"'
    assert _check("--fix", str(notebook)).returncode == 0
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    fixed = [c.replace('f"ls {x}"', 'sh(i"ls {x}")') for c in MAGIC_CELLS]
    assert cells == ["from ipy_istring import sh\n" + fixed[0], *fixed[1:]]
    assert _check(str(notebook)).returncode == 0


def test_a_shell_escape_is_fixed_whole_or_not_at_all(tmp_path: Path, ishell: Any) -> None:
    # `{x!r}` was left as it was while `{a}` on the line was quoted, and the finding counted
    # fixed (exit status 0): the repr of a value is no shell word.
    notebook = tmp_path / "nb.ipynb"
    written = _notebook(["x = input()\na = input()\n", "!echo {a} {x!r}\n", "!echo {x:>9}\n"])
    notebook.write_text(written)
    fixed = _check("--fix", str(notebook))
    assert fixed.returncode == 1
    assert "{x!r} has a conversion or a format spec" in fixed.stderr
    assert "{x:>9} has a conversion or a format spec" in fixed.stderr
    assert notebook.read_text() == written  # nothing fixed: the file as it was
    # the positive control: that half-quoted line runs what the value holds
    os.chdir(tmp_path)
    ishell.user_ns.update(a="a", x="'$(touch pwned)'")
    with pytest.warns(UnsafeFormatWarning):
        run(ishell, "import shlex\n!echo {shlex.quote(str(a))} {x!r}")
    assert (tmp_path / "pwned").exists()


@pytest.mark.parametrize(
    "cells",
    [
        ["cmd = input()\n", "!{cmd}\n"],
        ["cmd = input()\n", "!{cmd} -l\n"],
        ["cmd = input()\n", "files = !ls; $cmd\n"],
        ["import os\ntool, x = input(), input()\n", 'os.system(f"{tool} {x}")\n'],
        ["import os\ntool, x = input(), input()\n", 'os.system(f"ls {x} | {tool}")\n'],
    ],
)
def test_no_fix_quotes_a_value_that_names_the_command(tmp_path: Path, cells: list[str]) -> None:
    # A command line kept in a variable (cmd = "ls -l"), quoted, is one program's name.
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(_notebook(cells))
    fixed = _check("--fix", str(notebook))
    assert fixed.returncode == 1
    assert "stands where the command's name goes" in fixed.stderr


# --- the safe fix ------------------------------------------------------------------------------


def test_fix_rewrites_sql_and_shell_and_the_result_is_safe(tmp_path: Path) -> None:
    script = tmp_path / "job.py"
    script.write_text(
        '"""A job."""\n'
        "import os\nimport sqlite3\n\n"
        "def find(conn, name):\n"
        "    return conn.execute(f\"select id from users where name = '{name}'\").fetchall()\n\n"
        "def copy(src, dst):\n"
        '    os.system(f"cp {src} {dst}")\n\n'
        "def drop(conn, table):\n"
        '    conn.execute(f"drop table {table}")\n'
    )
    diff = _check("--diff", str(script))
    assert diff.returncode == 1  # one finding stays: a table name is no parameter
    assert "+from ipy_istring import sh\n+from ipy_istring import sql\n" in diff.stdout
    assert '+    return conn.execute(*sql(i"select id from users where name = {name}"))' in (
        diff.stdout
    )
    assert '+    os.system(sh(i"cp {src} {dst}"))' in diff.stdout
    assert "not fixed: the field {table} stands where SQL needs a name" in diff.stderr
    assert script.read_text().count('f"') == 3  # --diff changes nothing

    assert _check("--fix", str(script)).returncode == 1
    assert _check(str(script)).stdout.count("\n") == 1  # only drop() is left

    # The fixed code runs, and hostile values stay values.
    from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite

    namespace: dict[str, Any] = {BUILDER_NAME: build_template}
    exec(compile(rewrite(script.read_text()), str(script), "exec"), namespace)
    import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.execute("create table users (id, name)")
    conn.execute("insert into users values (1, 'ann')")
    assert namespace["find"](conn, "ann") == [(1,)]
    assert namespace["find"](conn, "x' or '1'='1") == []  # the injection is a value now
    hostile = tmp_path / "a b; touch pwned"
    hostile.write_text("data")
    os.chdir(tmp_path)
    namespace["copy"](str(hostile), "copy.txt")
    assert (tmp_path / "copy.txt").read_text() == "data"
    assert not (tmp_path / "pwned").exists()


def test_the_diff_is_the_fix_as_difflib_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --diff writes the changes it knows (lines replaced, imports inserted) without searching
    # for them: the same text as difflib's search, and linear on long look-alike files.
    import difflib

    from check_corpus import CASES

    scripts = [c for c in CASES if not c.notebook]
    extra = {
        "header": '"""Doc."""\nimport os\nos.system(f"rm {x}")\n',
        "first_line": 'os.system(f"rm {x}")\nos.system(f"rm {y}")\n',
        "far_apart": 'import os\nos.system(f"rm {x}")\n' + "pass\n" * 9 + 'os.system(f"rm {y}")\n',
    }
    sources = {c.name: c.code for c in scripts} | extra
    compared = 0
    for name, source in sources.items():
        path = tmp_path / f"{name}.py"
        path.write_text(source)
        main(["--diff", str(path)])
        diff = capsys.readouterr().out
        main(["--fix", str(path)])
        capsys.readouterr()
        fixed = path.read_text()
        expected = difflib.unified_diff(
            source.splitlines(keepends=True),
            fixed.splitlines(keepends=True),
            f"a/{path}",
            f"b/{path}",
        )
        assert diff == "".join(expected), name
        compared += fixed != source
    assert compared >= 10  # (the rest have no automatic fix)


def test_fix_keeps_the_encoding_and_the_header(tmp_path: Path) -> None:
    script = tmp_path / "legacy.py"
    header = "#!/usr/bin/env python\n# -*- coding: latin-1 -*-\n# café\n"
    script.write_bytes((header + "import os\nos.system(f'ls {d}')\n").encode("latin-1"))
    assert _check("--fix", str(script)).returncode == 0
    expected = header + "from ipy_istring import sh\nimport os\nos.system(sh(i'ls {d}'))\n"
    assert script.read_bytes() == expected.encode("latin-1")


# Characters str.splitlines() ends a line at and Python does not: a comment may hold them.
NOT_LINE_ENDS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
# After such a comment, the line Python counts as the finding's was once taken from the line
# above it, which here is a sink call of the same shape that is no finding (its value is a
# constant): that line was "fixed", and the finding's line was left as it was.
AFTER_A_MARK = (
    "import os\nA = 'x'\n# see{mark}below\n"
    'os.system(f"echo {{A}}")\nos.system(f"echo {{b}}")\n'
)


@pytest.mark.parametrize("mark", NOT_LINE_ENDS)
@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_fix_rewrites_the_findings_line_as_python_counts_lines(
    tmp_path: Path, mark: str, end: str
) -> None:
    source = AFTER_A_MARK.format(mark=mark).replace("\n", end)
    script = tmp_path / "job.py"
    script.write_bytes(source.encode())
    assert _check("--fix", str(script)).returncode == 0
    assert script.read_bytes().decode() == source.replace(
        'os.system(f"echo {b}")', 'os.system(sh(i"echo {b}"))'
    ).replace("import os", f"from ipy_istring import sh{end}import os", 1)
    notebook = tmp_path / "job.ipynb"
    notebook.write_text(_notebook([AFTER_A_MARK.format(mark=mark)]))
    assert _check("--fix", str(notebook)).returncode == 0
    (cell,) = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cell.endswith('os.system(f"echo {A}")\nos.system(sh(i"echo {b}"))\n')


@pytest.mark.parametrize("mark", NOT_LINE_ENDS)
def test_cell_warning_fixes_the_findings_line_as_python_counts_lines(
    ishell: Any, mark: str
) -> None:
    with pytest.warns(UnsafeFormatWarning) as caught:
        run(ishell, "b = input\n" + AFTER_A_MARK.format(mark=mark))
    (warning,) = caught
    assert 'ready to paste:\n    os.system(sh(i"echo {b}"))' in str(warning.message)


@pytest.mark.parametrize("mark", NOT_LINE_ENDS)
def test_an_attribute_set_in_a_method_after_a_mark_is_followed(mark: str) -> None:
    # (the check reads a method that calls no sink only if its lines set `self.x`)
    code = (
        "class Job:\n"
        f"    # see{mark}below\n"
        "    def __init__(self, name):\n"
        "        self.cmd = f'ls {name}'\n"
        "    def run(self):\n"
        "        os.system(self.cmd)\n"
    )
    assert [f.line for f in find_unsafe_calls(code)] == [6]


def test_fix_refuses_what_would_change_meaning(tmp_path: Path) -> None:
    from ipy_istring.check.fix import fixed_line

    cases = {
        "cur.execute(f'select * from t where a = {a}', params)": "more than the query",
        "cur.execute(f'select {col} from t')": "stands where SQL needs a name",
        "q = f'select * from t where a = {a}'\ncur.execute(q)": "built elsewhere",
        "cur.execute(f'select * from t where a = {a!r}')": "renderer refuses",
        "os.system(f\"echo '{a}'\" + b)": "not a single f-string literal",
        "client.exec_command(f'ls {p}')": "no automatic fix",
        "cur.execute(sql=f'select * from t where a = {a}')": "the query is a keyword argument",
        # ids = "1,2,3" once gave IN (1,2,3), as one parameter it is the string '1,2,3'
        "cur.execute(f'select * from t where a in ({a})')": "the whole list of IN (...)",
        "cur.execute(f'select * from t where a IN ( {a} ) and b = 1')": "Pass the sequence",
        "cur.execute(f\"select * from t where a like '%{a}%'\")": "like {'%' + x + '%'}",
        # sh() quotes what the value's conversion or spec makes, quotes and spaces the shell
        # removed from the f-string's command: with a plain value, other words
        "os.system(f'echo {a=}')": "['echo', 'x=value'] and sh(i'...') ['echo', \"x='value'\"]",
        "os.system(f'ls {a!r}')": "would change what the command means",
        "os.system(f'ls {a!a}')": "would change what the command means",
        "os.system(f'ls {a:>10}')": "['ls', '     value']",
    }
    for code, reason in cases.items():
        (finding,) = find_unsafe_calls(code)
        fix = fixed_line(code, finding)
        assert fix.line is None and reason.replace("x=", "a=") in fix.reason, (code, fix)


def test_fix_keeps_numeric_specs_and_plain_conversions() -> None:
    from ipy_istring import sh
    from ipy_istring.check.fix import fixed_line

    cases = {
        "os.system(f'sleep {n:d}')": "os.system(sh(i'sleep {n:d}'))",
        "os.system(f'head -c {n:.0f} f')": "os.system(sh(i'head -c {n:.0f} f'))",
        "os.system(f'ls {a!s} {b:}')": "os.system(sh(i'ls {a!s} {b:}'))",
    }
    for code, fixed in cases.items():
        (finding,) = find_unsafe_calls(code)
        assert fixed_line(code, finding).line == fixed
    # and the fixed line renders the f-string's command, for a number as for a word
    from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite

    for n, a in ((3, "x"), (40, "two words")):
        namespace = {BUILDER_NAME: build_template, "sh": sh, "n": n, "a": a, "b": a}
        for code, fixed in cases.items():
            command = fixed.removeprefix("os.system(").removesuffix(")")
            plain = code.removeprefix("os.system(").removesuffix(")")
            expected = shlex.split(eval(plain, namespace).replace(a, shlex.quote(a)))
            assert shlex.split(eval(rewrite(command), namespace)) == expected


def test_fix_in_a_notebook_quotes_shell_escapes(tmp_path: Path, ishell: Any) -> None:
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(
        _notebook(["src = input_name\n", "!cp {src} copy.txt\n", "n = !wc -c $src\n"])
    )
    assert _check("--fix", str(notebook)).returncode == 0
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cells == [
        "import shlex\nsrc = input_name\n",
        "!cp -- {shlex.quote(str(src))} copy.txt\n",  # (cp -t DIR: a value is no option)
        "n = !wc -c {shlex.quote(str(src))}\n",
    ]
    assert _check(str(notebook)).returncode == 0  # nothing left to find
    # Run the fixed cells in a real shell, with a hostile file name: one word, no injection.
    hostile = tmp_path / "a b; touch pwned"
    hostile.write_text("data")
    os.chdir(tmp_path)
    ishell.user_ns["input_name"] = hostile.name
    for cell in cells:
        run(ishell, cell)
    assert (tmp_path / "copy.txt").read_text() == "data"
    assert not (tmp_path / "pwned").exists()
    # the positive control: the unfixed line is the injection
    with pytest.warns(UnsafeFormatWarning):
        run(ishell, "!cp {src} copy2.txt 2>/dev/null")
    assert (tmp_path / "pwned").exists()


# --- in IPython ---------------------------------------------------------------------------------


def test_the_cell_check_is_no_ast_transformer(ishell: Any) -> None:
    # IPython fixes every cell's locations once any AST transformer is registered: 39% of
    # preparing a cell.  The check reads the tree IPython parsed instead.
    assert not any("check" in type(t).__module__ for t in ishell.ast_transformers)
    assert "ast_parse" in vars(ishell.compile)


def test_cell_warning_shows_the_fix(ishell: Any) -> None:
    run(ishell, "import os\nclass Cur:\n    def execute(self, *q): return q\ncur = Cur()")
    with pytest.warns(UnsafeFormatWarning) as caught:
        run(
            ishell,
            "who = os.environ.get('USER', 'x')\ncur.execute(f'select * from t where u = {who}')",
        )
    (warning,) = caught
    assert (
        "Safe spelling, ready to paste:\n    cur.execute(*sql(i'select * from t where u = {who}'))"
        in (str(warning.message))
    )
    with pytest.warns(UnsafeFormatWarning, match=r"!echo \{shlex.quote\(str\(who\)\)\}"):
        run(ishell, "!echo {who} > /dev/null")


def test_names_carry_over_between_cells(ishell: Any) -> None:
    run(ishell, "class Cur:\n    def execute(self, q): return q\ncur = Cur()")
    run(ishell, "import os\nx = os.environ.get('X', '')\nq = f'select * from t where a = {x}'")
    with pytest.warns(UnsafeFormatWarning, match=r"through q"):
        run(ishell, "cur.execute(q)")


def test_safe_shell_escapes(ishell: Any, tmp_path: Path) -> None:
    os.chdir(tmp_path)
    run(ishell, "name = 'a; touch pwned'")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsafeFormatWarning)
        run(ishell, "!echo {name} > /dev/null")  # the positive control: IPython's own expansion
        assert (tmp_path / "pwned").exists()
        (tmp_path / "pwned").unlink()
        run(ishell, "%config IStringExtension.safe_shell_escapes = True")
        try:
            run(ishell, "!echo {name} $name > out.txt")
            run(ishell, "lines = !echo {name}")
            run(ishell, "def f(v):\n    !echo {v} >> out.txt\nf('b; touch pwned')")
        finally:
            run(ishell, "%config IStringExtension.safe_shell_escapes = False")
    assert not (tmp_path / "pwned").exists()
    assert (tmp_path / "out.txt").read_text() == "a; touch pwned a; touch pwned\nb; touch pwned\n"
    assert ishell.user_ns["lines"] == ["a; touch pwned"]
    assert "system" not in vars(ishell)  # off again: IPython's own


# Contexts where quoting each value as one word is not enough: the shell (or a program it
# runs) parses the word again as code, or reads it as an option that runs a command.
UNSAFE_ESCAPE_CONTEXTS = {
    "!sh -c {name}": "the command string of sh -c",
    "!echo {name} | sh": "a pipeline into sh",
    "!bash -c $name": "the command string of bash -c",
    '!cat "{name}" > /dev/null': "inside double quotes",
    "!git clone {option} dest": "starts with '-'",
}


def test_safe_shell_escapes_refuse_what_quoting_cannot_make_safe(
    ishell: Any, tmp_path: Path
) -> None:
    os.chdir(tmp_path)
    ishell.user_ns["name"] = "touch pwned"
    ishell.user_ns["option"] = "--upload-pack=touch pwned;:"
    # The positive control: each value quoted as one word (what safe_shell_escapes did
    # before it rendered by sh) still runs the payload in these contexts.
    for line in ("sh -c {name}", "echo {name} | sh"):
        quoted = line.replace("{name}", shlex.quote("touch pwned"))
        subprocess.run(quoted, shell=True, cwd=tmp_path, check=False)
        assert (tmp_path / "pwned").exists(), line
        (tmp_path / "pwned").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnsafeFormatWarning)  # none while it renders by sh
        run(ishell, "%config IStringExtension.safe_shell_escapes = True")
        try:
            for line, why in UNSAFE_ESCAPE_CONTEXTS.items():
                with pytest.raises(RenderError, match=re.escape(why)):
                    run(ishell, line)
                with pytest.raises(RenderError, match=re.escape(why)):
                    run(ishell, "out = " + line)
            # what quoting makes safe still runs, as IPython would run it
            run(ishell, "!echo {name} $name {{literal}} > out.txt")
        finally:
            run(ishell, "%config IStringExtension.safe_shell_escapes = False")
    assert not (tmp_path / "pwned").exists()
    assert (tmp_path / "out.txt").read_text() == "touch pwned touch pwned {literal}\n"


def test_the_cell_warning_says_when_quoting_is_not_enough(ishell: Any) -> None:
    ishell.user_ns["name"] = "touch pwned"
    with pytest.warns(UnsafeFormatWarning) as caught:
        run(ishell, "if False:\n    !sh -c {name}")
    (message,) = [str(w.message) for w in caught]
    assert "But quoting each value is not enough here: sh(): {name} is the command string" in (
        message
    )
    assert "Safe spelling" not in message


def test_no_fix_for_shell_escapes_quoting_cannot_make_safe(tmp_path: Path) -> None:
    # (`!git clone {option} dest` is fixed with `--`, the option case left alone here is one
    # that `--` before the first value does not make safe)
    unfixable = [c for c in UNSAFE_ESCAPE_CONTEXTS if "git clone" not in c]
    unfixable.append("!ls {name}; git clone {option} dest")
    cells = ["name = input()\n", "option = input()\n", *unfixable, "!cat {name}\n",
             "!git clone {option} dest\n"]  # fmt: skip
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(_notebook(cells))
    result = _check("--fix", str(notebook))
    fixed = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert fixed[2:-2] == unfixable  # left alone, each with its reason
    assert fixed[-2] == "!cat {shlex.quote(str(name))}\n"
    assert fixed[-1] == "!git clone -- {shlex.quote(str(option))} dest\n"
    assert result.stderr.count("not fixed: quoting") == len(unfixable) - 1
    assert "not fixed: the command quotes text itself" in result.stderr
    assert "the command string of sh -c" in result.stderr
    assert "a value that starts with '-'" in result.stderr

# The cell check rules out most sink calls from the call alone; what it cannot rule out gets
# the data flow, so nothing it found before is lost.
EARLIER_CELLS = """\
import os, subprocess
x = os.environ.get('X', '')
def built(v):
    return f'select {v}'
def run_sh(command):
    return subprocess.run(command, shell=True)
ip = get_ipython()
"""
RULED_OUT = [
    "cur.execute('select * from t where a = ?', (x,))",
    "subprocess.run(['ls', x])\nsubprocess.run('ls -l', shell=True)",
    "def fetch(cur, query):\n    return cur.execute(query).fetchall()",
    "cur.execute(*sql(i'select * from t where a = {x}'))",
    "os.system(sh(i'ls {x}'))",
    "rows = [cur.execute('select 1') for _ in range(3)]",
    "!pip install duckdb\nfiles = !ls -la",  # nothing for IPython to expand
    "%matplotlib inline\n%time total = sum(range(10))",  # magics that run no shell
    "subprocess.run(['ssh', x, 'uptime'])",  # a constant remote command
    "from airflow.operators.bash import BashOperator\n"
    "BashOperator(task_id=f'dump_{x}', bash_command='pg_dump app')",  # a constant command
    "os.execvp('ls', ['ls', x])",  # an argument list, no shell
    "c.exec_run(['cat', x])",
]
STILL_FOUND = [
    "def f(q):\n    q = f'select {q}'\n    cur.execute(q)",  # a parameter rebound
    "cur.execute(text(f'select {x}'))",  # a wrapper
    "def build(v):\n    return f'select {v}'\ncur.execute(build(x))",  # defined here
    "cur.execute(built(x))",  # defined in an earlier cell
    "!ls {x}",  # a constant command that IPython expands
    "%sx ls $x",
    "os.popen(f'ls {x}').read()",  # a sink inside a call
    "from os import system as run_it\nrun_it(f'ls {x}')",
    "note = 'é'\ncur.execute(f'select {x} from t -- é')",  # columns in UTF-8 bytes
    "note = '\u2028'\ncur.execute(f'select {x}')",  # a line separator for str, not Python
    "cur.execute(*args, sql=f'select {x}')",
    "print('cur.execute(')\ncur.execute('select ' + x)",  # a sink's name in a string too
    "run_sh(f'ls {x}')",  # a helper of an earlier cell's that passes its parameter to a sink
    "ip.system(f'ls {x}')",  # a sink on an object an earlier cell made
    "subprocess.run(['ssh', 'host', f'ls {x}'])",  # ssh's remote command
    "subprocess.run(['sudo', 'sh', '-c', f'ls {x}'])",  # sh -c after a runner
    "opts = dict(shell=True)\nsubprocess.run(f'ls {x}', **opts)",  # shell=True in **opts
    "class DB:\n    def run(self, q):\n        return cur.execute(q)\n"
    "db = DB()\ndb.run(f'select {x}')",  # a method that runs its parameter
    "from airflow.operators.bash import BashOperator\n"
    "BashOperator(task_id='dump', bash_command=f'pg_dump -t {x} app')",  # by keyword
    "os.execl('/bin/sh', 'sh', '-c', f'ls {x}')",  # a shell's code after the program's name
    "import pexpect\npexpect.spawn('/bin/bash', ['-c', f'ls {x}'])",  # after a constant program
    "c.exec_run(f\"sh -c 'ls {x}'\")",  # a command line that runs sh -c
    "def run(**kw):\n    return os.system(kw['command'])\n"
    "run(command=f'ls {x}')",  # a helper that runs an item of its **kwargs
]


def test_method_helpers_in_a_file_read_only_where_sinks_are_named() -> None:
    from ipy_istring.check.scan import check_python

    source = (
        "import os\nclass Box:\n    def sh(self, command):\n        return os.system(command)\n"
        "    def rm(self, path):\n        return self.sh(path)\n"
        "    def backup(self, path):\n        return os.system('cp -r /src /dst')\n"
        "def clean(d):\n    Box().rm(f'rm -rf {d}')\n    Box().backup(f'{d}')\n"
    )
    found = check_python(source, "box.py").findings
    assert [(f.line, f.call) for f in found] == [(10, "Box().rm")]


def test_no_method_of_a_standard_module_or_of_the_class_itself_is_a_librarys_sink() -> None:
    """Found in numpy and sqlglot: ``copy.copy(x)`` read as psycopg's ``cursor.copy``, and
    ``self.sql(node)`` in a class that defines ``sql`` as DuckDB's ``con.sql``.  The method
    name alone names a sink only on an object that may be a library's."""
    from ipy_istring.check.scan import check_python

    source = (
        "import copy\nimport sqlite3\nimport duckdb\n"
        "class Generator:\n"
        "    def sql(self, node):\n        return str(node)\n"
        "    def wrap(self, e):\n        return f'({self.sql(e)})'\n"
        "    def select(self, names):\n"
        "        return self.wrap(self.sql(f'SELECT {\", \".join(names)}'))\n"  # 10: own
        "class Store:\n"
        "    def __init__(self):\n        self.conn = sqlite3.connect(':memory:')\n"
        "    def execute(self, q):\n        return self.conn.execute(q)\n"
        "    def get(self, n):\n        return self.execute(f\"select * from t where n = '{n}'\")\n"
        "class Con(duckdb.DuckDBPyConnection):\n"  # (no sql of its own: DuckDB's)
        "    def run(self, t):\n        return self.sql(f'select * from {t}')\n"
        "def clone(x):\n    return copy.copy(f'SELECT {x} FROM t')\n"  # 22: the standard one
        "def copy_in(cur, x):\n    cur.copy(f'COPY {x} FROM STDIN')\n"
        "def shadowed(conn, x):\n    copy = conn.cursor()\n    copy.copy(f'COPY {x} FROM STDIN')\n"
        "def system(x):\n    import os\n    os.system(f'ls {x}')\n"  # the table's full names
    )
    found = check_python(source, "gen.py").findings
    assert [(f.line, f.call) for f in found] == [
        (17, "self.execute"),  # the class's own method, which runs its parameter
        (20, "self.sql"),
        (24, "cur.copy"),
        (27, "copy.copy"),
        (30, "os.system"),
    ]


def test_a_t_string_is_checked_on_python_3_14_and_named_before() -> None:
    """Before 3.14 a file or cell with a t-string cannot be parsed: the reason says so and
    which Python reads it (it said only "invalid syntax" of the demo notebook's cells)."""
    from ipy_istring.check.scan import check_python

    source = "import os\nfrom ipy_istring import sh\nname = 'x'\nos.system(sh(t'cat {name}'))\n"
    result = check_python(source, "t.py")
    if sys.version_info >= (3, 14):
        assert (result.errors, result.findings) == ([], [])
    else:
        assert result.errors == [
            "t.py: cannot check: line 4: invalid syntax: a t-string (PEP 750) needs Python "
            "3.14; run the check with Python 3.14"
        ]
    other = check_python("x = \"don't\" + fmt'\nprint(x\n", "u.py").errors
    assert len(other) == 1 and "3.14" not in other[0]  # (no t-string there)


def test_a_partial_object_of_its_own_name_is_checked() -> None:
    """numpy's ``array_function_dispatch = functools.partial(array_function_dispatch, ...)``
    (an imported decorator, bound again) ran the check into a RecursionError: the file was
    "cannot check"."""
    from ipy_istring.check.scan import check_python

    source = (
        "import functools, os\nfrom numpy._core.overrides import array_function_dispatch\n"
        "array_function_dispatch = functools.partial(array_function_dispatch, module='m')\n"
        "helper = functools.partial(helper, shell=True)\n"  # not imported: nothing known
        "@array_function_dispatch(lambda a: (a,))\ndef f(a):\n    return a\n"
        "def g(x):\n    helper(f'ls {x}')\n    array_function_dispatch(f'ls {x}')\n"
        "    os.system(f'ls {x}')\n"
    )
    result = check_python(source, "strings.py")
    assert result.errors == []
    assert [(f.line, f.call) for f in result.findings] == [(11, "os.system")]


def test_a_method_helper_of_an_earlier_cell(ishell: Any) -> None:
    defined = (
        "class DB:\n    def __init__(self):\n        self.cur = None\n"
        "    def run_query(self, q):\n        return self.cur.execute(q)\ndb = DB()"
    )
    assert _prepare(ishell, defined) == []
    assert _prepare(ishell, "db.run_query('select 1')") == []
    assert len(_prepare(ishell, "x = input()\ndb.run_query(f'select {x}')")) == 1
    assert len(_prepare(ishell, "DB().run_query('select ' + x)")) == 1


def test_a_lambda_of_an_earlier_cell(ishell: Any) -> None:
    run(ishell, "import os\nx = os.environ.get('X', '')")
    # put aside (its cell calls no sink), then read (its cell calls one)
    assert _prepare(ishell, "q = lambda v: f'select {v} from t'") == []
    assert len(_prepare(ishell, "cur.execute(q(x))")) == 1
    assert len(_prepare(ishell, "cur.execute(q(x + 'y'))")) == 1  # read by now
    assert _prepare(ishell, "p = lambda v: f'select {v} from t'\ncur.execute('select 1')") == []
    (warning,) = _prepare(ishell, "cur.execute(p(x))")
    assert "an f-string, returned by p()" in str(warning.message)
    assert _prepare(ishell, "p = lambda v: 'select 1'") == []
    assert _prepare(ishell, "cur.execute(p(x))") == []  # bound again to a constant one


def test_a_plumbum_command_of_an_earlier_cell(ishell: Any) -> None:
    # (prepared, not run: the check reads the cells, plumbum need not be installed)
    assert _prepare(ishell, "import os\nfrom plumbum import local\nx = os.environ['X']") == []
    assert _prepare(ishell, "sh = local['sh']") == []
    (warning,) = _prepare(ishell, "sh['-c', f'ls {x}']()")
    assert "sh() gets a string built by an f-string" in str(warning.message)
    assert _prepare(ishell, "sh['-c', 'ls']()") == []
    assert len(_prepare(ishell, "local['bash']('-c', 'ls ' + x)")) == 1


def test_the_sink_search_finds_subscripts_only_of_commands() -> None:
    from ipy_istring.check.sinks import sinks

    source = (
        "from sqlalchemy import text\nfrom plumbum import local\nfrom plumbum.cmd import bash\n"
        "text[0]\nlocal['sh']\nbash['-c', x]\ntext('select 1')\n"
    )
    found = [source[offset : source.index("\n", offset)] for offset in sinks.calls_in(source)]
    assert found == ["local['sh']", "bash['-c', x]", "text('select 1')"]


def _prepare(shell: Any, cell: str) -> list[warnings.WarningMessage]:
    """Prepare a cell as IPython does before running it (its transforms, then its parse,
    which the check reads); the check's warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnsafeFormatWarning)
        shell.compile.ast_parse(shell.transform_cell(cell), "<cell>")
    return [w for w in caught if issubclass(w.category, UnsafeFormatWarning)]


@pytest.mark.parametrize("cell", RULED_OUT)
def test_the_cell_check_rules_out_safe_sink_calls_from_the_call(ishell: Any, cell: str) -> None:
    from ipy_istring.check.flow import Analysis
    from ipy_istring.check.sinks import imported_names, sinks

    assert _prepare(ishell, EARLIER_CELLS) == []
    assert _prepare(ishell, cell) == []
    source = ishell.transform_cell(cell)
    tree = ast.parse(source)
    imports = imported_names(EARLIER_CELLS)
    calls = sinks.calls_in(source, imports)
    assert calls
    assert not Analysis().may_reach_sink(tree, source, calls, imports)


@pytest.mark.parametrize("cell", STILL_FOUND)
def test_the_cell_check_still_follows_what_it_cannot_rule_out(ishell: Any, cell: str) -> None:
    assert _prepare(ishell, EARLIER_CELLS) == []
    assert len(_prepare(ishell, cell)) == 1
    # the same as a file (the function of the earlier cell first), where nothing is ruled out
    source = ishell.transform_cell(EARLIER_CELLS + cell)
    assert len(find_unsafe_calls(source)) == 1


# What the cell check keeps from one cell to the next to cost less (the calls of the user's
# helpers found in a text, a function's rebound names, the fix line of a finding, the quick
# search without the sink functions) never hides what a cell holds now.


def test_a_cell_prepared_again_sees_a_helper_defined_since(ishell: Any) -> None:
    run(ishell, "import os\nx = os.environ.get('X', '')")
    cell = "run_it(f'ls {x}')"
    assert _prepare(ishell, cell) == []  # `run_it` is no sink yet
    assert _prepare(ishell, "def run_it(command):\n    os.system(command)") == []
    (warning,) = _prepare(ishell, cell)  # the same text again: now a sink
    assert "run_it() gets a string built by an f-string" in str(warning.message)
    assert _prepare(ishell, "def run_it(command):\n    print(command)") == []
    assert _prepare(ishell, cell) == []  # and no longer one


def test_a_rebound_parameter_is_told_apart_per_function(ishell: Any) -> None:
    run(ishell, "import os\nx = os.environ.get('X', '')")
    # Two functions with a parameter of the same name in one cell: only one rebinds it.
    cell = (
        "def safe(q):\n    cur.execute(q)\n"
        "def unsafe(q):\n    q = f'select {q}'\n    cur.execute(q)\n"
    )
    (warning,) = _prepare(ishell, cell)
    assert warning.lineno == 5
    (warning,) = _prepare(ishell, cell.replace("def safe(q):", "def safe(q, r=x):"))
    assert warning.lineno == 5


def test_the_fix_line_of_a_finding_seen_before_is_the_fix_for_this_cell(ishell: Any) -> None:
    run(ishell, "import os\nclass Cur:\n    def execute(self, *q): return q\ncur = Cur()")
    run(ishell, "who = os.environ.get('USER', 'x')")
    line = "cur.execute(f'select * from t where u = {who}')"
    for _ in range(2):  # the same finding again: the same fix
        (warning,) = _prepare(ishell, line)
        assert "cur.execute(*sql(i'select * from t where u = {who}'))" in str(warning.message)
    # The same line under a driver that takes %s: its own fix, not the one seen before.
    (warning,) = _prepare(ishell, f"import psycopg2\n{line}")
    assert "cur.execute(*sql(i'select * from t where u = {who}', \"format\"))" in str(
        warning.message
    )
    # The same line where the string spans two lines of the call: no fix, as before.
    (warning,) = _prepare(ishell, "cur.execute(\n    f'select {who}' f' from t')")
    assert "Safe spelling" not in str(warning.message)


def test_the_fix_takes_the_paramstyle_of_a_driver_an_earlier_cell_imported(
    ishell: Any, tmp_path: Path, postgres_dsn: str
) -> None:
    # The driver is imported and connected in one cell, the query run in another: the fix
    # once took qmark (the later cell names no driver), and psycopg refuses '?'.
    first = (
        "import psycopg\n"
        f"conn = psycopg.connect({postgres_dsn!r}, autocommit=True)\n"
        "cur = conn.cursor()\nwho = str(len)\n"
    )
    line = "cur.execute(f\"select upper({who}) as w\")"
    fixed = 'cur.execute(*sql(i"select upper({who}) as w", "format"))'
    run(ishell, first)
    (warning,) = _prepare(ishell, line)
    assert str(warning.message).endswith(f"ready to paste:\n    {fixed}")
    run(ishell, fixed)  # the line pasted runs on the real server, the value a parameter
    assert ishell.user_ns["cur"].fetchall() == [("<BUILT-IN FUNCTION LEN>",)]
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(_notebook([first, line + "\n"]))
    assert _check("--fix", str(notebook)).returncode == 0
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cells[1] == fixed + "\n"


@pytest.mark.parametrize("corpus", ["CASES", "HELDOUT", "HELDOUT2", "HELDOUT3", "HELDOUT4"])
def test_the_quick_search_finds_what_the_full_pattern_finds(corpus: str) -> None:
    # The sink methods searched through the text, the sink functions tried where their first
    # word is: the calls found are those of the whole pattern, on every corpus text.
    import check_corpus

    from ipy_istring.check.sinks import imported_names, sinks

    texts = [case.code for case in getattr(check_corpus, corpus)]
    texts += [  # calls inside calls, inside longer names, a function's name ending a method's
        "myos.system(a); os.system (b); x.os.system(c)\nsubprocess.run(os.system(d))",
        "pd.read_sql_query(q); pd.read_sql(q); cur.execute(os.system(e)); xsubprocess.run(f)",
        "sp.run(g, shell=True); run(h); rerun(i); system(j); os.popen(k).read()",
    ]
    searched = set()
    for text in texts:
        for imports in (
            {},
            imported_names(text),
            {"sp": "subprocess", "run": "os.system", "os": "os", "system": "os.system"},
            {"subprocess": "subprocess", "os": "os"},
        ):
            finder = sinks.call_finder("", imports, read_imports=False)
            everything = [
                m.start()
                for m in finder.pattern.finditer(text)
                if m.start() == 0 or text[m.start()] == "." or not _word(text[m.start() - 1])
            ]
            assert finder.calls_in(text) == everything
            searched.add(any(head in text for head in finder.heads))
    assert searched == {True, False}  # (with and without the sink functions tried)


def test_the_call_search_matches_exactly_the_sink_names() -> None:
    """The alternation of sink names is factored by common beginnings (the regex engine then
    tries a few branches, not every name): it matches each name, and no other word made of
    one's beginning or with more after it."""
    from ipy_istring.check.sinks import _one_of, sinks

    # (each sink's name, `.execute` and `DbApiHook().run` too, and its last part)
    words = {word for sink in sinks for word in (sink.name, sink.name.rsplit(".", 1)[-1])}
    pattern = re.compile(_one_of(words))
    for word in words:
        assert pattern.fullmatch(word), word
        for other in {word[:end] for end in range(len(word))} | {word + "x", word + "_"}:
            assert (pattern.fullmatch(other) is not None) == (other in words), other
    assert re.compile(_one_of(["a", "ab", "abc", "b.c"])).fullmatch("ab")
    assert not re.compile(_one_of(["a", "abc"])).fullmatch("ab")


def _word(character: str) -> bool:
    return character.isalnum() or character == "_"


@pytest.mark.parametrize("corpus", ["CASES", "HELDOUT", "HELDOUT2", "HELDOUT3", "HELDOUT4"])
def test_the_statements_read_in_a_cell_are_those_on_its_sink_lines(corpus: str) -> None:
    # The cell check reads the statements on a sink call's line, found by their places: the
    # same as asking each statement whether it spans one of the lines.
    import check_corpus

    from ipy_istring.check.flow import _spans, _statements_on

    texts = [case.code for case in getattr(check_corpus, corpus) if 'i"' not in case.code]
    texts.append("x = (1,\n  2); cur.execute(q); y = 3\nz = 4\n")  # several on one line
    for text in texts:
        try:
            body = ast.parse(text).body
        except SyntaxError:
            continue  # (a notebook's JSON, or IPython syntax)
        last = text.count("\n") + 2
        for lines in ([n] for n in range(last)):
            each = [i for i, statement in enumerate(body) if _spans(lines, statement)]
            assert _statements_on(body, lines) == each
        every = list(range(0, last, 3))
        each = [i for i, statement in enumerate(body) if _spans(every, statement)]
        assert _statements_on(body, every) == each


def test_a_cell_text_seen_before_is_searched_again_when_the_sinks_change(ishell: Any) -> None:
    from ipy_istring.check import Sink, register_sink, sinks

    run(ishell, "import os\nx = os.environ.get('X', '')")
    cell = "shell_out(f'ls {x}')\nclient.submit_sql(f'select {x}')"
    assert _prepare(ishell, cell) == []  # neither is a sink yet
    # an import in another cell makes one a sink: the text seen before is searched again
    assert _prepare(ishell, "from os import system as shell_out") == []
    (warning,) = _prepare(ishell, cell)
    assert "shell_out() gets a string" in str(warning.message)
    # and so does a sink registered since
    saved = sinks._by_name
    sinks._by_name = {name: list(group) for name, group in saved.items()}
    try:
        register_sink(Sink(".submit_sql", "sql"))
        first, second = _prepare(ishell, cell)
        assert "shell_out() gets a string" in str(first.message)
        assert "client.submit_sql() gets a string" in str(second.message)
    finally:
        sinks._by_name = saved
        sinks._by_last = sinks._functions_cache = None
        sinks._finder.cache_clear()
        sinks.version += 1
    (warning,) = _prepare(ishell, cell)  # the table as it was
    assert "shell_out() gets a string" in str(warning.message)


def test_a_helper_calling_a_helper_of_the_same_cell(ishell: Any) -> None:
    # The calls of the helpers are searched again once the cell has made a new one.
    run(ishell, "import os\nx = os.environ.get('X', '')")
    cell = (
        "def run_a(command):\n    os.system(command)\n"
        "def run_b(command):\n    run_a(command)\n"
        "run_b(f'ls {x}')\n"
    )
    (warning,) = _prepare(ishell, cell)
    assert "run_b() gets a string built by an f-string" in str(warning.message)


# --- hostile notebooks and what the fix writes ---------------------------------------------------


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The command line in this process (the code of this tree), its status and output."""
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def _cell(source: str) -> dict[str, Any]:
    return {"cell_type": "code", "source": source, "metadata": {}, "outputs": []}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),  # (json's decoder recurses)
        # (Python 3.10's own words: "Exceeds the limit (4300) for integer string conversion")
        ('{"cells": [], "n": ' + "1" * 5000 + "}", "Exceeds the limit (4300"),
        (json.dumps({"cells": [_cell(["import os\n", 1])], "nbformat": 4}), "cell 1: its source"),
        (json.dumps({"cells": [_cell(None)], "nbformat": 4}), "cell 1: its source is not text"),
        (json.dumps({"worksheets": [1], "nbformat": 3}), "a worksheet is not an object"),
        (json.dumps({"worksheets": [{"cells": 5}], "nbformat": 3}), "with a 'cells' list"),
    ],
)
def test_a_notebook_of_odd_json_gets_a_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, reason: str
) -> None:
    (tmp_path / "a.ipynb").write_text(text)
    (tmp_path / "b.py").write_text(VULNERABLE)  # (checked after it: the run goes on)
    status, out, err = _main(capsys, str(tmp_path))
    assert status == 2
    (line,) = err.splitlines()
    assert line.startswith(f"{tmp_path / 'a.ipynb'}: cannot check: ") and reason in line, line
    assert out.startswith(f"{tmp_path / 'b.py'}:2:")


def test_the_fix_counts_cells_that_are_no_objects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notebook = tmp_path / "nb.ipynb"
    cells = [1, _cell("import os\nos.system(f'ls {x}')\n")]
    notebook.write_text(json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}))
    assert _main(capsys, "--fix", str(notebook))[0] == 0
    fixed = json.loads(notebook.read_text())["cells"]
    assert fixed[0] == 1
    assert fixed[1]["source"] == "from ipy_istring import sh\nimport os\nos.system(sh(i'ls {x}'))\n"


def test_a_continued_escape_line_keeps_the_cells_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # IPython runs `!echo hi \` and the line after it as one line: the lines below are still
    # the cell's lines, where a finding is reported and its fix is written.
    notebook = tmp_path / "nb.ipynb"
    cell = "import os\nx = input()\n!echo hi \\\n  there\nos.system(f'ls {x}')\n!ls {x} \\\n  -l\n"
    notebook.write_text(_notebook([cell]))
    status, out, _ = _main(capsys, str(notebook))
    assert [line.split(": ")[0] for line in out.splitlines()] == [
        f"{notebook}[cell 1]:5:11",
        f"{notebook}[cell 1]:6:5",  # (its expansion as written: 22 before, past the line's end)
    ]
    status, _, err = _main(capsys, "--fix", str(notebook))
    assert status == 1
    assert "cell 1]:6:5: not fixed: IPython runs the line together with the next" in err
    (fixed,) = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert fixed == "from ipy_istring import sh\n" + cell.replace(
        "os.system(f'ls {x}')", "os.system(sh(i'ls {x}'))"
    )


def test_a_notebooks_fix_that_does_not_compile_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notebook = tmp_path / "nb.ipynb"
    cell = (
        "import os\n"
        "os.system(f'ls {x}' ' -l')\n"  # an i-literal cannot be concatenated with a string
        "cur.execute((f'select * from t where a = {x}'))\n"  # *sql(...) cannot go in ( )
        "cur.execute(f'select * from t where a = {x}')\n"
    )
    notebook.write_text(_notebook([cell]))
    status, _, err = _main(capsys, "--fix", str(notebook))
    assert status == 1
    assert (
        f"{notebook}[cell 1]:2:11: not fixed: the fixed code does not compile: cannot mix "
        "i-string literals with string or bytes literals"
    ) in err
    assert (
        f"{notebook}[cell 1]:3:14: not fixed: the query is in parentheses of its own, where "
        "*sql(...) cannot stand"
    ) in err
    (fixed,) = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert fixed == "from ipy_istring import sql\n" + cell.replace(
        "cur.execute(f'select * from t where a = {x}')",
        "cur.execute(*sql(i'select * from t where a = {x}'))",
    )


def test_the_fix_imports_go_in_a_cell_that_runs_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ishell: Any
) -> None:
    # Never above a cell magic, which must stay its cell's first line.
    notebook = tmp_path / "nb.ipynb"
    vulnerable = "import os\nos.system(f'echo {name} > out.txt')\n"
    notebook.write_text(_notebook(["%%bash\necho hi\n", "%%time\nname = input_name\n", vulnerable]))
    assert _main(capsys, "--fix", str(notebook))[0] == 0
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert cells == [
        "%%bash\necho hi\n",
        "%%time\nfrom ipy_istring import sh\nname = input_name\n",
        "import os\nos.system(sh(i'echo {name} > out.txt'))\n",
    ]
    os.chdir(tmp_path)
    ishell.user_ns["input_name"] = "a b"
    for cell in cells:
        run(ishell, cell)
    assert (tmp_path / "out.txt").read_text() == "a b\n"


def test_the_fix_refuses_to_call_a_name_bound_to_something_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.py"
    script.write_text(
        "import os\nimport sqlite3\n"
        "sh = print\n"
        "def copy(src):\n    os.system(f'cp {src} b')\n"
        "def find(cur, sql, name):\n    cur.execute(f'select * from t where a = {name}')\n"
        # look-alikes: a local of another function, ipy_istring's own import under a name
        "def other():\n    sql = 'select 1'\n    return sql\n"
        "def find_too(cur, name):\n    cur.execute(f'select * from t where a = {name}')\n"
    )
    status, _, err = _main(capsys, "--fix", str(script))
    assert status == 1
    assert (
        f"{script}:5:15: not fixed: the fix would call sh, but here that name is bound to "
        "something else (line 3): import sh from ipy_istring under another name"
    ) in err
    assert f"{script}:7:17: not fixed: the fix would call sql, but here that name is bound" in err
    assert script.read_text().splitlines()[-1] == (
        "    cur.execute(*sql(i'select * from t where a = {name}'))"
    )
    # An import of ipy_istring's sh under another name does not bind sh: the fix imports it.
    script.write_text(
        "from ipy_istring import sh as quoted\nimport os\nos.system(f'cp {a} b')\n"
    )
    assert _main(capsys, "--fix", str(script))[0] == 0
    assert script.read_text().startswith("from ipy_istring import sh\nfrom ipy_istring import")
    # In a notebook, `import sh` (the sh package) in any cell.
    notebook = tmp_path / "nb.ipynb"
    notebook.write_text(_notebook(["import os\n", "import sh\nos.system(f'cp {a} b')\n"]))
    _, _, err = _main(capsys, "--fix", str(notebook))
    assert "would call sh, but here that name is bound to something else (cell 2, line 1)" in err


def test_the_fix_keeps_a_coding_cookie_on_the_second_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "legacy.py"
    source = "\n# -*- coding: latin-1 -*-\nimport os\nos.system(f'ls é {d}')\n"
    script.write_bytes(source.encode("latin-1"))
    assert _main(capsys, "--fix", str(script))[0] == 0
    fixed = script.read_bytes()
    assert tokenize.detect_encoding(io.BytesIO(fixed).readline)[0] == "iso-8859-1"
    assert fixed.decode("latin-1").splitlines()[:3] == [
        "", "# -*- coding: latin-1 -*-", "from ipy_istring import sh",
    ]  # fmt: skip


def test_lines_ended_by_a_lone_carriage_return_are_checked_and_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Python ends a line at \r too (classic Mac files, a stray \r): the data flow counted
    # lines by \n, so the sink call's statement was never read.
    script = tmp_path / "job.py"
    source = "import os\rdef copy(src):\r    os.system(f'cp {src} b')\r"
    script.write_bytes(source.encode())
    status, out, _ = _main(capsys, str(script))
    assert (status, out.split(": ")[0]) == (1, f"{script}:3:15")
    assert _main(capsys, "--fix", str(script))[0] == 0
    assert script.read_bytes().decode() == (
        "from ipy_istring import sh\rimport os\rdef copy(src):\r    os.system(sh(i'cp {src} b'))\r"
    )


def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    # Reading a FIFO waits for a writer: the run would never end.
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    (tmp_path / "z.py").write_text(VULNERABLE)
    import ipy_istring

    code = "import sys\nfrom ipy_istring.check import main\nsys.exit(main(sys.argv[1:]))\n"
    result = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True,
        timeout=20, cwd=Path(ipy_istring.__file__).parent.parent,  # (the code tested here)
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == f"{fifo}: cannot check: not a regular file\n"
    assert result.stdout.startswith(f"{tmp_path / 'z.py'}:2:")


def test_sarif_names_a_file_whose_name_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(VULNERABLE)  # (a latin-1 name)
    monkeypatch.chdir(tmp_path)
    status, out, _ = _main(capsys, "--format", "sarif", ".")
    assert status == 1
    (result,) = json.loads(out)["runs"][0]["results"]
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": "caf%E9.py", "uriBaseId": "%SRCROOT%"}


def test_a_file_that_cannot_be_written_is_not_fixed_and_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ipy_istring.check.fix import apply_fixes
    from ipy_istring.check.scan import check_file

    script = tmp_path / "job.py"
    script.write_text(VULNERABLE)
    result = check_file(script)
    script.unlink()
    script.mkdir()  # (a file that cannot be written, even by root)
    out, err, unfixed = apply_fixes([result], write=True)
    assert (out, unfixed) == ("", 0)
    assert err == f"{script}: cannot fix: Is a directory\n"
    assert result.errors == [err.strip()]  # (the run's status is 2)


def test_a_written_system_call_is_fixed_only_where_an_escape_line_means_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notebook = tmp_path / "nb.ipynb"
    cells = [
        "x = input()\n",
        "y = get_ipython().system('echo {x}')\n",  # `y = !echo` is getoutput: another value
        "get_ipython().system('echo {x}')  # keep {x}\n",  # (the comment would be lost)
        "get_ipython().system('echo {x}')\n",  # look-alikes, fixed
        "z = !echo {x}\n",
    ]
    notebook.write_text(_notebook(cells))
    status, _, err = _main(capsys, "--fix", str(notebook))
    assert status == 1
    assert f"{notebook}[cell 2]:1:26: not fixed: the call does not stand alone on its line" in err
    assert f"{notebook}[cell 3]:1:22: not fixed: the line goes on after the call" in err
    fixed = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert fixed == [
        "import shlex\nx = input()\n", cells[1], cells[2],
        "!echo {shlex.quote(str(x))}\n", "z = !echo {shlex.quote(str(x))}\n",
    ]  # fmt: skip


def test_a_folder_that_cannot_be_listed_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A folder deeper than the system's longest path cannot be listed (even by root, as a
    # folder without read permission cannot by a user): its files were left out without a
    # word, and the run said "clean".
    monkeypatch.chdir(tmp_path)
    os.mkdir("deep")
    os.chdir("deep")
    for _ in range(20):  # (20 x 250 characters: longer than PATH_MAX, 4096)
        os.mkdir("d" * 250)
        os.chdir("d" * 250)
    Path("job.py").write_text(VULNERABLE)
    status, out, err = _main(capsys, str(tmp_path / "deep"))
    assert (status, out) == (2, "")
    (line,) = err.splitlines()
    assert line.startswith(f"{tmp_path / 'deep'}/ddd") and line.endswith(
        ": cannot check: the folder cannot be listed (File name too long)"
    )


def test_a_path_that_cannot_be_looked_up_is_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    too_long = str(tmp_path / ("a" * 5000))  # (os.stat: "File name too long", a traceback)
    loop = tmp_path / "loop.py"
    loop.symlink_to(loop)
    status, out, err = _main(capsys, too_long, str(loop), str(tmp_path / "missing.py"))
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"{too_long}: cannot check: File name too long",
        f"{loop}: cannot check: Too many levels of symbolic links",
        f"{tmp_path / 'missing.py'}: cannot check: no such file",
    ]


def test_the_cell_warning_offers_no_fix_in_parentheses_where_it_cannot_stand(ishell: Any) -> None:
    run(ishell, "import sqlite3\ncur = sqlite3.connect(':memory:').cursor()\nx = str(cur)")
    (warning,) = _prepare(ishell, "cur.execute((f'select * from t where a = {x}'))")
    assert "ready to paste" not in str(warning.message)
    assert "But the query is in parentheses of its own" in str(warning.message)
    (warning,) = _prepare(ishell, "cur.execute( f'select * from t where a = {x}' )")  # look-alike
    assert "cur.execute( *sql(i'select * from t where a = {x}') )" in str(warning.message)


# A field Python compiles, but too deep for ast.unparse (which recurses in Python) to rewrite.
DEEP_FIELD = "os.system(f': {" + "+".join(["x"] * 400) + "}')\n"


def test_a_field_too_deep_to_rewrite_costs_the_user_no_cell(ishell: Any) -> None:
    run(ishell, "import os\nx = os.environ.get('X', '')")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", UnsafeFormatWarning)
        assert run(ishell, DEEP_FIELD) == 0  # (the cell ran)
    (warning,) = [w for w in caught if issubclass(w.category, UnsafeFormatWarning)]
    assert "ready to paste" not in str(warning.message)


def test_a_field_too_deep_to_rewrite_is_not_fixed_and_said_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "deep.py"
    script.write_text("import os\ndef f(x):\n    " + DEEP_FIELD)
    status, out, err = _main(capsys, "--diff", str(script))
    assert (status, out) == (1, "")
    assert err == (
        f"{script}:3:15: not fixed: the line is nested too deeply to rewrite: fix it by hand\n"
    )


def test_no_fix_above_the_import_it_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The import goes below the docstring and the __future__ imports: a call on their line
    # would run sh(...) before it (a NameError when the module is imported).
    script = tmp_path / "job.py"
    source = (
        '"""Jobs."""; import os; os.system(f"ls {__name__}")\n'
        'os.system(f"cat {__name__}")\n'  # (a look-alike, fixed: a line of its own)
    )
    script.write_text(source)
    status, _, err = _main(capsys, "--fix", str(script))
    assert status == 1
    assert f"{script}:1:35: not fixed: the line holds the docstring or a __future__ import" in err
    assert script.read_text() == (
        '"""Jobs."""; import os; os.system(f"ls {__name__}")\n'
        "from ipy_istring import sh\n"
        'os.system(sh(i"cat {__name__}"))\n'
    )


def test_no_fix_in_a_cell_before_any_cell_the_import_can_go_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # %%timeit runs its body in a function: an import there binds nothing for the cells after
    # it, and an import in a later cell comes after the fixed call.
    notebook = tmp_path / "nb.ipynb"
    cells = ["%%timeit -n1 -r1\nos.system(f': {x}')\n", "import os\nos.system(f': {x}')\n"]
    notebook.write_text(_notebook(cells))
    status, _, err = _main(capsys, "--fix", str(notebook))
    assert status == 1
    assert f"{notebook}[cell 1]:2:11: not fixed: no cell before it runs the fix's import" in err
    fixed = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    assert fixed == [cells[0], "from ipy_istring import sh\nimport os\nos.system(sh(i': {x}'))\n"]


@pytest.mark.parametrize("codec", ["rot13", "base64", "zlib"])
def test_a_coding_cookie_of_a_codec_that_is_no_text_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str
) -> None:
    # Python says "encoding problem"; decoding raised LookupError (a traceback).
    script = tmp_path / "job.py"
    script.write_text(f"# coding: {codec}\n" + VULNERABLE)
    status, out, err = _main(capsys, str(script))
    assert (status, out) == (2, "")
    assert err == (
        f"{script}: cannot check: encoding problem: {codec} is not a text encoding: declare its "
        "coding, e.g. # -*- coding: latin-1 -*-\n"
    )


def test_output_that_the_streams_encoding_cannot_hold_is_escaped(tmp_path: Path) -> None:
    # An ASCII or cp1252 stream (PYTHONIOENCODING, a redirect on Windows) and a diff with
    # an emoji, or a file name that is not UTF-8: a UnicodeEncodeError traceback before.
    import ipy_istring

    script = tmp_path / "job.py"
    script.write_text('import os\nos.system(f"echo \\U0001f600 {x}")\n')
    (tmp_path / os.fsdecode(b"caf\xe9.py")).write_text(VULNERABLE)
    code = "import sys\nfrom ipy_istring.check import main\nsys.exit(main(sys.argv[1:]))\n"
    outputs = []
    for args, encoding in ((["--diff", str(script)], "ascii"), ([str(tmp_path)], "utf-8")):
        result = subprocess.run(
            [sys.executable, "-c", code, *args], capture_output=True, text=True,
            env={**os.environ, "PYTHONIOENCODING": encoding},
            cwd=Path(ipy_istring.__file__).parent.parent,  # (the code tested here)
        )  # fmt: skip
        assert "Traceback" not in result.stderr
        outputs.append(result.stdout)
    assert '+os.system(sh(i"echo \\U0001f600 {x}"))' in outputs[0]
    assert f"{tmp_path}/caf\\udce9.py:2:11: os.system() gets" in outputs[1]


def test_sarif_when_the_current_folder_is_gone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "job.py"
    script.write_text(VULNERABLE)
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()  # (Path.cwd() raised FileNotFoundError: a traceback)
    status, out, _ = _main(capsys, "--format", "sarif", str(script))
    assert status == 1
    (run_,) = json.loads(out)["runs"]
    (result,) = run_["results"]
    location = result["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": script.as_uri()}


def test_a_finding_the_check_makes_is_the_finding_its_init_makes() -> None:
    # The check makes its findings without the frozen dataclass's __init__ (its speed): the
    # same fields, the defaults of those left out, equal, hashable and as frozen.
    from ipy_istring.check.flow import Finding

    given = {"line": 3, "column": 5, "call": "cur.execute", "destination": "sql", "how": "a %"}
    made, init = Finding._made(**given), Finding(**given)
    assert made == init and vars(made) == vars(init) and hash(made) == hash(init)
    everything = {**vars(init), "via": "q", "cell": 2, "fixed": "x", "lone_argument": True}
    assert vars(Finding._made(**everything)) == everything == vars(Finding(**everything))
    with pytest.raises(AttributeError):
        made.line = 4  # type: ignore[misc]
    # (what reaches the user is the same: a cell's finding is one made by the check)
    found = find_unsafe_calls("cur.execute(f'select {col} from t')\n")
    assert found == [Finding(**{**vars(found[0])})]
