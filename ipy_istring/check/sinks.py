"""The sinks: the calls whose argument reaches a shell or a SQL engine as code.

One table, :data:`sinks`, says for each call which argument is the command or query, where it
goes (``"shell"`` or ``"sql"``) and how the i-string fix is spelled.  A name is either a
function as imported (``"os.system"``: ``import os as o`` / ``from os import system`` are
followed) or, starting with a dot, a method on any object (``".execute"``: a cursor, a
connection, a session...).  Extend it with :func:`register_sink` or, from a package, an entry
point in the group ``ipy_istring.sinks`` whose object is a :class:`Sink` or an iterable of them.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .._shell_programs import SHELLS
from ..template import _speedups as _compiled
from . import _ast as ast  # (ast's names, read faster: see _ast.py)

__all__ = [
    "ENTRY_POINT_GROUP",
    "CallFinder",
    "Sink",
    "SinkTable",
    "imported_by",
    "imported_names",
    "register_sink",
    "sinks",
]

ENTRY_POINT_GROUP = "ipy_istring.sinks"

# A query whose written text has none of these words is not SQL (``client.fetch(f"/users/{id}")``):
# generic method names (``.fetch``, ``.sql``, ``.query``) need it before they count.
SQL_WORDS = re.compile(
    r"\b(select|insert|update|delete|create|drop|alter|pragma|with|truncate|grant|revoke|"
    r"merge|copy|attach|explain|describe|show|call|vacuum|values|from|where|set|exec|execute|"
    r"declare|like|refresh\s+materialized\s+view|reindex|savepoint|deallocate|unlisten|"
    r"upsert)\b"
    # Snowflake's stage commands: `PUT file://...  @stage`, `GET @stage ...`, `LIST @stage`
    r"|\bput\s+'?file:|\b(get|list|ls|remove|rm)\s+'?@",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Sink:
    """A call whose argument is executed as shell or SQL code.

    ``name``: ``"os.system"`` (a function, after imports) or ``".execute"`` (a method on any
    object).  ``argument``/``keywords``: where the code is passed, by position or keyword.
    ``shell_keyword``: the call is a sink only with that keyword set to ``True``
    (``subprocess.run(..., shell=True)``).
    ``shell_argv``: an argument list ``["bash", "-c", CODE]`` counts too; without
    ``shell_keyword``, the argument is the program and ``-c CODE`` may follow it.  ``argv0``:
    the words after the program begin with its own name, which is no argument
    (``os.execl(path, "sh", "-c", CODE)``), and only the shell code counts, not the program.
    ``split``: the command runs without a shell, as a list of words or a string the call
    splits into words (``shlex.split``): only what those words give a shell as code counts
    (``["sh", "-c", CODE]``, ``"sh -c '...'"``).  ``sql_text_only``:
    count only strings whose written text looks like SQL (for generic method names).
    ``fix``: how the i-string fix is spelled: ``"sql"`` (``*sql(i"...")``, the only argument),
    ``"sh"`` (``sh(i"...")``) or ``""`` (no automatic fix).  ``ipython_expands``: the
    argument is a command that IPython expands ``{expr}``/``$name`` in before the shell runs it;
    ``jinja``: ``{{name}}`` is substituted too (jupysql).  ``magic_names``: for IPython's
    ``run_line_magic``/``run_cell_magic``, the magics that are this sink.
    ``program``: the call runs that program, its positional arguments the words after it
    (the ``sh`` library's ``sh.bash("-c", CODE)``; plumbum's ``bash("-c", CODE)``, whose
    words may come by subscript too: ``bash["-c", CODE]()``): only what those words give a
    shell as code counts.  ``maker``: no call, but ``name[PROGRAM]`` is such a program
    (plumbum's ``local["sh"]``), given its words by subscript or call.
    """

    name: str
    destination: str
    argument: int = 0
    keywords: tuple[str, ...] = ()
    shell_keyword: str | None = None
    shell_argv: bool = False
    argv0: bool = False
    split: bool = False
    sql_text_only: bool = False
    fix: str = ""
    ipython_expands: bool = False
    magic_names: tuple[str, ...] = ()
    jinja: bool = False
    program: str = ""
    maker: bool = False
    #: How the call passes its command, all that judging a call from the call alone reads
    #: of the sink (sinks alike in it are judged once): made once, not at each call, and
    #: the same object for sinks alike (the C judging compares them by identity).
    passing: tuple[object, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        passing = (self.argument, self.keywords, self.shell_keyword, self.shell_argv,
                   self.argv0, self.split, self.magic_names, self.ipython_expands,
                   self.program)  # fmt: skip
        object.__setattr__(self, "passing", _PASSINGS.setdefault(passing, passing))


_PASSINGS: dict[tuple[object, ...], tuple[object, ...]] = {}  # each way of passing, once


def _sql(name: str, keyword: str = "sql", fix: str = "", generic: bool = False) -> Sink:
    return Sink(name, "sql", keywords=(keyword,), fix=fix, sql_text_only=generic)


def _shell(name: str, keyword: str = "cmd", fix: str = "sh", **options: object) -> Sink:
    return Sink(name, "shell", keywords=(keyword,), fix=fix, **options)  # type: ignore[arg-type]


_SUBPROCESS = ("run", "call", "check_call", "check_output", "Popen")
_EXEC = ("execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
         "posix_spawn", "posix_spawnp")  # fmt: skip
_SPAWN = ("spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe")

BUILTIN_SINKS: tuple[Sink, ...] = (
    # PEP 249 cursors and connections (sqlite3, psycopg, DuckDB, pymysql...), SQLAlchemy sessions.
    # (PEP 249 names the argument `operation`, sqlite3 `sql`, psycopg `query`.)
    Sink(".execute", "sql", keywords=("sql", "operation", "query"), fix="sql", sql_text_only=True),
    _sql(".executemany", "sql", generic=True),
    _sql(".executescript", "sql_script", generic=True),
    _sql(".exec_driver_sql", "statement"),
    _sql(".copy_expert", "sql"),  # psycopg2
    _sql(".execute_sql", "sql", generic=True),  # peewee databases
    # SQL text as an expression of an ORM or query builder
    _sql("django.db.models.expressions.RawSQL", "sql"),
    _sql("django.db.models.RawSQL", "sql"),
    _sql("sqlalchemy.literal_column", "text"),
    _sql("sqlalchemy.sql.literal_column", "text"),
    _sql("sqlalchemy.sql.expression.literal_column", "text"),
    _sql("peewee.SQL", "sql"),
    _sql("psycopg.sql.SQL", "obj"),  # its .format() quotes; its own text is code
    _sql("psycopg2.sql.SQL", "string"),
    _sql(".select_by_sql", "sql", generic=True),  # Pony
    _sql(".get_by_sql", "sql", generic=True),
    # Pony's raw SQL on its Database object (`db = Database()`: `.select` alone is too common;
    # not its `get`/`exists`: every `.get(` of a cell would then be read as a possible sink)
    *(_sql(f"pony.orm.Database().{m}", "sql") for m in ("select", "execute")),
    # GIS: geopandas over SQLAlchemy or DB-API, OGR/GDAL data sources (PostGIS, GeoPackage)
    _sql("geopandas.read_postgis"),
    _sql("geopandas.GeoDataFrame.from_postgis"),
    _sql(".ExecuteSQL", "statement", generic=True),
    *(
        Sink(f"osgeo.gdal.{f}", "sql", argument=1 << 20, keywords=("SQLStatement",))
        for f in ("VectorTranslate", "VectorTranslateOptions")
    ),
    # `databases` (encode), clickhouse-connect, clickhouse-driver
    *(_sql(f".{m}", "query", generic=True) for m in ("fetch_all", "fetch_one", "fetch_val")),
    *(_sql(f".{m}", "query", generic=True) for m in ("query_df", "query_arrow", "query_np")),
    _sql(".command", "cmd", generic=True),
    _sql(".copy", "statement", generic=True),  # psycopg 3
    Sink(".extra", "sql", argument=1 << 20, keywords=("where", "select", "tables", "order_by")),
    # Airflow's database hooks (by the class that made the object: `hook = PostgresHook()`)
    *(
        Sink(f"{hook}().{method}", "sql", keywords=("sql",))
        for hook in (
            "DbApiHook", "PostgresHook", "MySqlHook", "SnowflakeHook", "MsSqlHook", "SqliteHook",
            "OracleHook", "RedshiftSQLHook", "TrinoHook", "PrestoHook", "HiveServer2Hook",
            "JdbcHook", "OdbcHook", "VerticaHook", "DatabricksSqlHook", "BigQueryHook",
        )
        for method in ("run", "get_records", "get_first", "get_pandas_df", "get_df")
    ),
    _sql("sqlalchemy.text", "text"),
    _sql("sqlalchemy.sql.text", "text"),
    _sql("sqlalchemy.sql.expression.text", "text"),
    _sql("pandas.read_sql"),
    _sql("pandas.read_sql_query"),
    _sql(".read_sql"),
    _sql(".read_sql_query"),
    _sql("polars.read_database", "query"),
    _sql("polars.read_database_uri", "query"),
    _sql(".read_database", "query"),
    _sql("duckdb.query", "query"),
    _sql("duckdb.sql", "query"),
    _sql("duckdb.execute", "query"),
    _sql(".sql", "query", generic=True),  # DuckDB connections, Spark sessions
    _sql(".query", "query", generic=True),
    _sql(".query_and_wait", "query", generic=True),  # BigQuery clients
    # asyncpg connections and pools
    _sql(".fetch", "query", generic=True),
    _sql(".fetchrow", "query", generic=True),
    _sql(".fetchval", "query", generic=True),
    _sql(".raw", "raw_query", generic=True),  # Django Model.objects.raw
    _sql(".raw_sql", "query"),  # ibis backends
    # shells
    _shell("os.system", "command"),
    _shell("os.popen", "cmd"),
    _shell("commands.getoutput", "cmd"),
    _shell("commands.getstatusoutput", "cmd"),
    _shell("subprocess.getoutput", "cmd"),
    _shell("subprocess.getstatusoutput", "cmd"),
    *(
        _shell(f"subprocess.{f}", "args", shell_keyword="shell", shell_argv=True)
        for f in _SUBPROCESS
    ),
    _shell("asyncio.create_subprocess_shell", "cmd"),
    _shell("asyncio.create_subprocess_exec", "program", fix="", shell_argv=True),
    _shell("pty.spawn", "argv", fix="", split=True),  # (a list of words; no shell)
    _shell(".exec_command", "command", fix=""),  # paramiko
    _shell("pexpect.spawn", "command", fix="", shell_argv=True),
    _shell("pexpect.run", "command", fix="", shell_argv=True),
    # the shell a pexpect REPL wrapper runs (`shell = replwrap.bash()`)
    *(_shell(f"pexpect.replwrap.{shell}().run_command", "command") for shell in ("bash", "zsh")),
    # the `sh` library's commands, a program's arguments as the call's (`sh.bash("-c", CODE)`),
    # and plumbum's (`bash["-c", CODE]()`, `local["sh"]["-c", CODE]()`)
    *(
        Sink(f"{module}.{program}", "shell", shell_argv=True, program=program)
        for module in ("sh", "plumbum.cmd")
        for program in (*sorted(SHELLS), "ssh", "sudo")
    ),
    Sink("plumbum.local", "shell", maker=True),
    # os.exec*/spawn*: a program's path, then its argv (argv[0] its name) as arguments (the
    # `l` forms) or one list (the `v` forms): a shell's code only with `-c CODE`
    *(
        Sink(f"os.{f}", "shell", argument=at, keywords=("path",), shell_argv=True, argv0=True)
        for functions, at in ((_EXEC, 0), (_SPAWN, 1))
        for f in functions
    ),
    # Commands run in a container: docker's (a list, or a string it splits) and kubernetes'
    # pod exec (a list; `stream(api.connect_get_namespaced_pod_exec, ..., command=[...])`)
    _shell(".exec_run", "cmd", fix="", split=True),
    *(
        Sink(name, "shell", argument=1 << 20, keywords=("command",), split=True)
        for name in (
            "kubernetes.stream.stream", ".connect_get_namespaced_pod_exec",
            ".connect_post_namespaced_pod_exec",
        )
    ),
    # fabric connections and fabric/invoke task contexts run their command in a shell
    *(
        _shell(f"{maker}().{method}", "command")
        for maker in ("fabric.Connection", "fabric.connection.Connection", "invoke.Context")
        for method in ("run", "sudo", "local")
    ),
    # asyncssh connections run their command in the remote user's shell
    *(
        _shell(f"asyncssh.{maker}().{method}", "command")
        for maker in ("connect", "connect_reverse")
        for method in ("run", "create_process", "create_session")
    ),
    # Airflow operators: the command a task runs in bash, or over ssh
    *(
        Sink(f"{module}.BashOperator", "shell", argument=1 << 20, keywords=("bash_command",))
        for module in (
            "airflow.operators.bash", "airflow.operators.bash_operator",
            "airflow.providers.standard.operators.bash",
        )
    ),
    Sink(
        "airflow.providers.ssh.operators.ssh.SSHOperator", "shell", argument=1 << 20,
        keywords=("command",),
    ),
    # Airflow's SQL operators: the query a task runs on its connection (`sql=` only)
    *(
        Sink(f"airflow.providers.{module}", "sql", argument=1 << 20, keywords=("sql",))
        for module in (
            "common.sql.operators.sql.SQLExecuteQueryOperator",
            "postgres.operators.postgres.PostgresOperator",
            "mysql.operators.mysql.MySqlOperator",
            "sqlite.operators.sqlite.SqliteOperator",
            "snowflake.operators.snowflake.SnowflakeOperator",
            "microsoft.mssql.operators.mssql.MsSqlOperator",
        )
    ),
    # What IPython makes of `!cmd`, `x = !cmd`, `%sx cmd`, `%system cmd` (and nbconvert exports).
    _shell("get_ipython().system", "cmd", ipython_expands=True),
    _shell("get_ipython().system_raw", "cmd"),
    _shell("get_ipython().getoutput", "cmd", ipython_expands=True),
    # `%sql ...` and `%%sql` cells (ipython-sql, jupysql) expand {name}, {{name}} and $name
    Sink(
        "get_ipython().run_line_magic",
        "sql",
        argument=1,
        keywords=("line",),
        ipython_expands=True,
        magic_names=("sql",),
        jinja=True,
    ),
    Sink(
        "get_ipython().run_cell_magic",
        "sql",
        argument=2,
        keywords=("cell",),
        ipython_expands=True,
        magic_names=("sql",),
        jinja=True,
    ),
    Sink(
        "get_ipython().run_line_magic",
        "shell",
        argument=1,
        keywords=("line",),
        ipython_expands=True,
        magic_names=("sx", "system", "sc"),
    ),
)


class SinkTable:
    """The sinks by name, loading entry points on first use (:data:`sinks`)."""

    def __init__(self, builtin: Iterable[Sink]) -> None:
        self._by_name: dict[str, list[Sink]] = {}
        self._functions_cache: dict[str, list[str]] | None = None
        self._by_last: dict[str, list[Sink]] | None = None
        self._loaded = False
        self.version = 0  # counts the changes: what was made from the table may be stale
        for sink in builtin:
            self._add(sink)

    def _add(self, sink: Sink) -> None:
        if sink.destination not in ("shell", "sql"):
            raise ValueError(f"a sink's destination is 'shell' or 'sql', not {sink.destination!r}")
        self._by_name.setdefault(sink.name, []).append(sink)
        self._functions_cache = None
        self._by_last = None
        self._finder.cache_clear()
        self.version += 1

    def add(self, sink: Sink) -> None:
        """Add ``sink`` to the table."""
        self._add(sink)

    def _ensure_loaded(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        from importlib.metadata import entry_points  # (slow to import: only when needed)

        for entry_point in entry_points(group=ENTRY_POINT_GROUP):
            try:
                loaded = entry_point.load()
                for sink in [loaded] if isinstance(loaded, Sink) else list(loaded):
                    self._add(sink)
            except Exception as error:  # one broken plug-in must not stop the check
                warnings.warn(
                    f"ipy_istring: sink entry point {entry_point.name!r} ({entry_point.value}) "
                    f"failed to load and is skipped: {type(error).__name__}: {error}",
                    RuntimeWarning,
                    stacklevel=2,
                )

    def lookup(self, name: str) -> list[Sink]:
        """The sinks named ``name`` (``"os.system"`` or ``".execute"``)."""
        self._ensure_loaded()
        return self._by_name.get(name, [])

    def call_pattern(
        self, source: str, imports: Mapping[str, str] = {}, read_imports: bool = True
    ) -> re.Pattern[str]:
        """A pattern for the calls in ``source`` that may be sinks: a sink method
        (``.execute(``), or a sink function under the name the imports in ``source`` and
        ``imports`` (local name -> full name, a notebook's earlier cells) give it:
        ``subprocess.run(``, ``sp.run(``, ``run(``.  It also matches the end of a longer name
        (``xrun(``): :meth:`calls_in` leaves those out."""
        return self.call_finder(source, imports, read_imports).pattern

    def call_finder(
        self,
        source: str,
        imports: Mapping[str, str] = {},
        read_imports: bool = True,
        methods: frozenset[str] = frozenset(),
    ) -> CallFinder:
        """What finds the calls of :meth:`call_pattern` in a text, and those of ``methods``
        (methods that are no sinks, found by the same search at no cost of its own)."""
        self._ensure_loaded()
        local = {"pd": "pandas", **imports}
        if read_imports and "import" in source:
            local.update(imported_names(source))
        functions = self._functions_under()
        words = set()
        for name, full in local.items():
            # `from os import system` names a sink; `import subprocess as sp` a module of some.
            for rest in functions.get(full, ()):
                words.add(name + rest)
        return self._finder(frozenset(words), methods)

    def ending_in(self, last: str) -> list[Sink]:
        """The sinks whose name ends in ``last`` (``"run"``: ``subprocess.run``...), whatever
        the module is imported as."""
        self._ensure_loaded()
        if self._by_last is None:
            by_last: dict[str, list[Sink]] = {}
            for name, group in self._by_name.items():
                by_last.setdefault(re.split(r"[.()]+", name.rstrip("()"))[-1], []).extend(group)
            self._by_last = by_last
        return self._by_last.get(last, [])

    def _functions_under(self) -> dict[str, list[str]]:
        """Full name of a module or function -> what follows it in a sink function's name
        (``"subprocess"`` -> ``[".run", ...]``, ``"os.system"`` -> ``[""]``), with a ``[``
        after a name that is a sink subscripted too (``"plumbum"`` -> ``[".local[", ...]``)."""
        if self._functions_cache is None:
            found: dict[str, list[str]] = {}
            for name, group in self._by_name.items():
                if name.startswith(".") or "()" in name:
                    continue
                subscripted = "[" if any(s.maker or s.program for s in group) else ""
                parts = name.split(".")
                for i in range(1, len(parts) + 1):
                    found.setdefault(".".join(parts[:i]), []).append(
                        "".join("." + p for p in parts[i:]) + subscripted
                    )
            self._functions_cache = found
        return self._functions_cache

    @functools.lru_cache(maxsize=64)  # noqa: B019 - one table for the process
    def _finder(self, functions: frozenset[str], more: frozenset[str] = frozenset()) -> CallFinder:
        methods = more | {
            re.split(r"[.()]+", name.rstrip("()"))[-1]
            for name in self._by_name
            if name.startswith(".") or "()" in name
        }
        alternatives = [rf"\.\s*{_one_of(methods)}"]
        method_pattern = re.compile(rf"{alternatives[0]}\s*\(")
        function_pattern = None
        if functions:
            # (A word ending in `[` is subscripted too: plumbum's `local["sh"]`, `bash["-c", x]`.)
            called = [w for w in functions if not w.endswith("[")]
            subscripted = [w[:-1] for w in functions if w.endswith("[")]
            ends = [(called, r"\s*\("), (subscripted, r"\s*[(\[]")]
            alternatives.append(
                "|".join(rf"{_one_of(words)}{end}" for words, end in ends if words)
            )
            function_pattern = re.compile(alternatives[1])
        # (No leading \b: three times quicker; calls_in() drops matches inside a longer name.)
        alternatives[0] = rf"{alternatives[0]}\s*\("
        pattern = re.compile("|".join(alternatives))
        heads = tuple(sorted({word.partition(".")[0].rstrip("[") for word in functions}))
        names = frozenset(methods) if all(_ASCII_NAME.fullmatch(m) for m in methods) else None
        return CallFinder(pattern, method_pattern, function_pattern, heads, names)

    def calls_in(
        self,
        source: str,
        imports: Mapping[str, str] = {},
        read_imports: bool = True,
        pattern: re.Pattern[str] | None = None,
    ) -> list[int]:
        """The offsets in ``source`` of the calls that may be sinks (see :meth:`call_pattern`;
        ``read_imports=False``: ``imports`` has the imports of ``source`` already; or the
        ``pattern`` that gave)."""
        if pattern is None:
            return self.call_finder(source, imports, read_imports).calls_in(source)
        return _calls(pattern, source)

    def __iter__(self) -> Iterator[Sink]:
        self._ensure_loaded()
        for group in self._by_name.values():
            yield from group


@dataclass(frozen=True)
class CallFinder:
    """Finds the calls that may be sinks in a text, as ``pattern`` does (see
    :meth:`SinkTable.call_pattern`), quicker: ``methods`` (its sink methods) is searched
    through the text, and ``functions`` (its sink functions) is tried only where one of
    ``heads``, their first words, is (the many alternatives of the functions made the
    search three times slower at every place of the text)."""

    pattern: re.Pattern[str]
    methods: re.Pattern[str]
    functions: re.Pattern[str] | None
    heads: tuple[str, ...]
    #: The names of ``methods`` when each is an ASCII identifier (the C search reads them).
    method_names: frozenset[str] | None = None

    def calls_in(self, source: str) -> list[int]:
        """The offsets in ``source`` of the calls that may be sinks."""
        if _compiled is not None and self.method_names is not None:
            # (in C when the accelerator is in use: this runs for every cell)
            match = None if self.functions is None else self.functions.match
            return _compiled.calls_in(source, self.method_names, match, self.heads)  # type: ignore[no-any-return]
        return self._python_calls_in(source)

    def _python_calls_in(self, source: str) -> list[int]:
        """:meth:`calls_in` (the reference for its C version)."""
        spans = [m.span() for m in self.methods.finditer(source)]
        if self.functions is not None:
            match = self.functions.match
            for head in self.heads:
                at = source.find(head)
                while at >= 0:
                    found = match(source, at)
                    if found is not None:
                        spans.append(found.span())
                    at = source.find(head, at + 1)
            # As the one pattern would search: the first match, then the first after it.
            spans.sort()
            kept: list[tuple[int, int]] = []
            for span in spans:
                if not kept or span[0] >= kept[-1][1]:
                    kept.append(span)
            spans = kept
        return _outside_names(source, [start for start, _ in spans])


_ASCII_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _one_of(words: Iterable[str]) -> str:
    """A regex group that matches each of ``words``, factored by their common beginnings
    (``exec(?:ute(?:many)?|_command)``): the engine then tries a few branches at each place
    it is tried, not every word (with 46 sink methods, most of the search's time).  Each
    pattern here is followed by ``\\s*\\(``, so which word matches does not hang on the
    branches' order."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}  # a word ends here

    def group(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + group(rest) for c, rest in sorted(node.items()) if c]
        if not branches:
            return ""
        inner = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        if "" not in node:
            return inner
        return f"(?:{inner})?" if len(branches) == 1 else f"{inner}?"

    return f"(?:{group(tree)})"


def _calls(pattern: re.Pattern[str], source: str) -> list[int]:
    return _outside_names(source, [m.start() for m in pattern.finditer(source)])


def _outside_names(source: str, starts: list[int]) -> list[int]:
    """``starts`` but those of a match inside a longer name (``xrun(`` for ``run(``)."""
    return [
        start
        for start in starts
        if start == 0 or source[start] == "." or not _word_char(source[start - 1])
    ]


sinks = SinkTable(BUILTIN_SINKS)


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


_IMPORT = re.compile(r"[ \t]*import[ \t]+([^\n#;]+)")
_FROM_IMPORT = re.compile(r"[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]+)")


IMPORT_STATEMENTS = (ast.Import, ast.ImportFrom)  # (for a quick `type(s) in ...`)
# The methods that write a text to a file: a script, if a shell runs the file later.
WRITING_METHODS = frozenset({"write", "write_text", "writelines"})


def imported_by(node: ast.Import | ast.ImportFrom) -> list[tuple[str, str]]:
    """Local name, full name for each name an import statement binds (``import a.b``: ``a``;
    ``import a.b as c``: ``c`` for ``a.b``; ``from a import b``: ``b`` for ``a.b``)."""
    if isinstance(node, ast.Import):
        return [
            (alias.asname, alias.name) if alias.asname else (alias.name.partition(".")[0],) * 2
            for alias in node.names
        ]
    if not node.module:  # (`from . import x`: no module we know)
        return []
    return [
        (alias.asname or alias.name, f"{node.module}.{alias.name}")
        for alias in node.names
        if alias.name != "*"
    ]


def imported_names(source: str) -> dict[str, str]:
    """Local name -> full name for the imports written in ``source`` (read from its text, for
    the quick search of sink calls; the analysis reads the real import statements)."""
    names: dict[str, str] = {}
    at = source.find("import")
    while at >= 0:
        start = source.rfind("\n", 0, at) + 1
        at = source.find("import", at + 6)
        plain = _IMPORT.match(source, start)
        if plain is not None:
            for item in plain.group(1).split(","):
                module, _, alias = item.strip().partition(" as ")
                head = module.strip().partition(".")[0]
                if head:
                    names[alias.strip() or head] = module.strip() if alias.strip() else head
            continue
        from_ = _FROM_IMPORT.match(source, start)
        if from_ is not None:
            for item in from_.group(2).strip("()").split(","):
                name, _, alias = item.strip().partition(" as ")
                if name.strip():
                    names[alias.strip() or name.strip()] = f"{from_.group(1)}.{name.strip()}"
    return names


def register_sink(sink: Sink) -> Sink:
    """Add a sink to the table the check uses: ``register_sink(Sink(".run_query", "sql"))``."""
    sinks.add(sink)
    return sink
