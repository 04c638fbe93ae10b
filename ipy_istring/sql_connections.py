"""An i-string as a query for the connection at hand: pandas, polars, SQLAlchemy, DuckDB, DB-API.

:func:`~ipy_istring.sql.sql` renders for a cursor in a paramstyle you name.  Here the
paramstyle, and the way the values travel, are chosen for the connection and the library that
runs the query, so each library gets its values as bind parameters in its own convention::

    cur.execute(*sql_for(i"select * from t where name = {name}", con))  # any DB-API driver
    conn.execute(sql_text(i"select * from t where name = {name}"))      # SQLAlchemy Core
    read_sql(i"select * from t where name = {name}", con)               # pandas
    read_database(i"select * from t where name = {name}", con)          # polars
    duckdb_sql(i"select * from t where name = {name}", con)             # DuckDB relation

``con`` is a DB-API connection (sqlite3, psycopg 3, DuckDB...) or, for the three library
functions, an SQLAlchemy engine or connection.  pandas, polars, SQLAlchemy and DuckDB are
optional: each is imported only by the function that uses it.

For SQLAlchemy the query is a ``text()`` clause whose ``:name`` binds carry the values
(``bindparams``); every other colon of the query, in the static text, an identifier or a
``{x:l}`` literal, is escaped as ``\\:`` so that ``text()`` never reads it as a bind.

:func:`fetch` runs a template on any of these connections and returns its rows; the
``%%isql`` cell magic is built on it.  A database error comes back as :class:`QueryError`,
which shows the query and the parameters that were sent.

This module imports nothing from IPython.
"""

from __future__ import annotations

import functools
import inspect
import re
import reprlib
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

from .fields import RenderError
from .sql import DIALECTS, PARAMSTYLES, Query, sql

__all__ = [
    "QueryError",
    "Rows",
    "dialect_for",
    "duckdb_sql",
    "fetch",
    "paramstyle_for",
    "read_database",
    "read_sql",
    "sql_for",
    "sql_text",
]


def _is_sqlalchemy(connection: object) -> bool:
    """An SQLAlchemy ``Engine`` or ``Connection`` (told apart without importing SQLAlchemy)."""
    return type(connection).__module__.startswith("sqlalchemy.") and hasattr(connection, "dialect")


def _driver_module(connection: object) -> Any:
    """The DB-API module a connection or cursor comes from (``_duckdb`` → ``duckdb``)."""
    top = type(connection).__module__.partition(".")[0]
    return sys.modules.get(top) or sys.modules.get(top.lstrip("_"))


# The database behind each DB-API driver module (by its top-level name, '_duckdb' as 'duckdb').
_DRIVER_DATABASES = {
    "sqlite3": "sqlite",
    "duckdb": "duckdb",
    "psycopg": "postgresql",
    "psycopg2": "postgresql",
    "pg8000": "postgresql",
}


def dialect_for(connection: object) -> str:
    """The database behind ``connection``, as ``sql(..., dialect=...)`` names it.

    An allow-list: ``sql()`` proves where a field may stand by the grammar of SQLite, DuckDB
    and PostgreSQL only.  Another database reads the same text otherwise (MySQL: ``"..."`` is a
    string where ``\\`` escapes, a backtick quotes a name, ``#`` starts a comment), so a query
    for it is refused rather than checked against the wrong grammar.
    """
    if _is_sqlalchemy(connection):
        name = getattr(getattr(connection, "dialect", None), "name", None)
        source = f"SQLAlchemy dialect {name!r}"
    else:
        module = type(connection).__module__.partition(".")[0].lstrip("_")
        name = _DRIVER_DATABASES.get(module)
        source = f"driver module {module!r}"
    if name not in DIALECTS:
        raise TypeError(
            f"a query for a {type(connection).__qualname__} ({source}) cannot be checked: "
            f"ipy_istring knows how {', '.join(DIALECTS)} read SQL, and another database "
            'reads quotes, escapes and comments otherwise (MySQL\'s "..." is a string in which '
            "\\ escapes). Pass the values with your driver's own parameters"
        )
    return str(name)


def paramstyle_for(connection: object) -> str:
    """The PEP 249 paramstyle the driver behind ``connection`` reads.

    A DB-API connection or cursor answers with its module's ``paramstyle`` (sqlite3 and
    DuckDB ``qmark``, psycopg ``pyformat``); an SQLAlchemy engine or connection with its
    dialect's, which is what ``exec_driver_sql`` passes on.
    """
    if _is_sqlalchemy(connection):
        style = getattr(getattr(connection, "dialect", None), "paramstyle", None)
    else:
        style = getattr(_driver_module(connection), "paramstyle", None)
    if style not in PARAMSTYLES:
        raise TypeError(
            f"cannot tell which paramstyle a {type(connection).__qualname__} reads: its module "
            f"{type(connection).__module__!r} declares {style!r}, not one of "
            f"{', '.join(PARAMSTYLES)}. Pass a DB-API connection or an SQLAlchemy engine, or "
            "name the style yourself: sql(template, paramstyle=...)"
        )
    return str(style)


def sql_for(template: object, connection: object) -> Query:
    """The template as ``(sql, params)`` in the paramstyle of ``connection``'s driver.

    ``cur.execute(*sql_for(i"...", con))`` for any DB-API driver (psycopg 3:
    ``conn.execute(*sql_for(i"...", conn))``), ``conn.exec_driver_sql(*sql_for(i"...", conn))``
    for SQLAlchemy.
    """
    return sql(template, paramstyle_for(connection), dialect=dialect_for(connection))


# pyformat output is unambiguous: '%%' is a '%' of the text, '%(name)s' a parameter.
_PYFORMAT_TOKEN = re.compile(r"%(?:(%)|\((\w+)\)s)?")
# Where text() would not see ':name' as a bind (its rule: not after a word, ':' or '\'), or
# would read a longer name, a space keeps the bind apart; it never changes what SQL means here.
_GLUES_BEFORE = re.compile(r"[\w:\\]\Z")
_GLUES_AFTER = re.compile(r"\w")


_TEXT_DIALECTS = ("postgresql", *(name for name in DIALECTS if name != "postgresql"))


def _any_database(template: object) -> Query:
    """The template in ``pyformat`` for an SQLAlchemy ``text()`` whose database is not known.

    ``text()`` runs on whatever engine executes it, so each field must be safe as every
    database reads the query (``select 1 --c\r, {x:l}`` is code to PostgreSQL, but to SQLite
    the ``--`` comment runs on into the literal, and what follows its newline is code), and
    each value written the same way for all of them.
    """
    # PostgreSQL first: its refusal is the one a query written for the old default met.
    queries = [sql(template, "pyformat", dialect=name) for name in _TEXT_DIALECTS]
    if any(query.sql != queries[0].sql for query in queries):
        raise RenderError(
            "sql_text(): a ':l' value is written differently for "
            f"{', '.join(DIALECTS)} (a string with a backslash is E'...' for PostgreSQL only). "
            "Name the database: sql_text(template, conn.dialect.name)"
        )
    return queries[0]


def _text_and_params(template: object, dialect: str | None) -> tuple[str, dict[str, Any]]:
    """The template as SQLAlchemy ``text()`` source with ``:name`` binds, and their values."""
    if dialect is None:
        query = _any_database(template)
    else:
        query = sql(template, "pyformat", dialect=dialect)
    assert isinstance(query.params, dict)
    source = query.sql
    pieces: list[str] = []
    at = 0
    for match in _PYFORMAT_TOKEN.finditer(source):
        pieces.append(source[at : match.start()].replace(":", "\\:"))
        percent, name = match.groups()
        if percent:
            pieces.append("%")
        elif name:
            if _GLUES_BEFORE.search(next((piece for piece in reversed(pieces) if piece), "")):
                pieces.append(" ")
            pieces.append(":" + name)
            if _GLUES_AFTER.match(source, match.end()):
                pieces.append(" ")
        else:  # sql() doubles every '%' in pyformat: a lone one means its contract broke
            raise RuntimeError(f"sql() left a lone '%' at {match.start()} in {source!r}")
        at = match.end()
    pieces.append(source[at:].replace(":", "\\:"))
    return "".join(pieces), query.params


def sql_text(template: object, dialect: str | None = None) -> Any:
    """The template as an SQLAlchemy ``text()`` clause with its values bound (``:name``).

    ``conn.execute(sql_text(i"...", conn.dialect.name))``; ``pd.read_sql(sql_text(i"..."),
    engine)`` and ``pl.read_database(sql_text(i"..."), engine)`` take it too.  ``dialect``
    names the database (``"sqlite"``, ``"duckdb"``, ``"postgresql"``): where a field may stand
    and how a ``{x:l}`` literal is written depend on it.  Without it the query must be safe as
    each of them reads it (the engine that runs a ``text()`` is not known here); the functions
    here that get the connection pass its dialect themselves.  The clause compiles only for
    the database(s) it was checked for: run on another engine (MySQL, or PostgreSQL when it was
    checked for SQLite), it raises :class:`~ipy_istring.fields.RenderError` rather than run.
    """
    source, params = _text_and_params(template, dialect)
    clause = _checked_text()(source)
    clause.checked_for = DIALECTS if dialect is None else (dialect,)
    return clause.bindparams(**params)


@functools.cache
def _checked_text() -> Any:
    """SQLAlchemy's ``TextClause``, compiling only for the databases its query was checked for
    (made on first use: SQLAlchemy is imported only here)."""
    from sqlalchemy.ext.compiler import compiles
    from sqlalchemy.sql.elements import TextClause

    class CheckedText(TextClause):  # type: ignore[misc]  # SQLAlchemy is typed as Any here
        """A ``text()`` clause that runs only where ``sql()`` proved its fields' places."""

        inherit_cache = False  # the check runs at every compile, never skipped by a cache hit
        checked_for: tuple[str, ...] = ()

    def _compile(element: Any, compiler: Any, **kw: Any) -> Any:
        name = compiler.dialect.name
        if name != "default" and name not in element.checked_for:  # 'default': str(clause)
            raise RenderError(
                f"sql_text(): the query was checked for {' and '.join(element.checked_for)}, "
                f"but this engine's database is {name!r}, which reads quotes, escapes and "
                "comments otherwise (a '\\' in a literal SQLite keeps escapes a quote to "
                "PostgreSQL with standard_conforming_strings off; MySQL's \"...\" is a string). "
                "Pass the engine's database: sql_text(template, conn.dialect.name), or use "
                "the driver's own parameters for a database ipy_istring does not know"
            )
        return compiler.visit_textclause(element, **kw)

    compiles(CheckedText)(_compile)
    return CheckedText


def _refuse_own_parameters(function: str, given: object) -> None:
    if given is not None:
        raise TypeError(
            f"{function}(): the i-string's fields are the query's parameters; do not pass "
            'them again. Write each value as a field: i"... where x = {x}"'
        )


def read_sql(template: object, con: object, **kwargs: Any) -> Any:
    """``pandas.read_sql`` of an i-string: the fields go as parameters, the rest as pandas'.

    ``con`` is a DB-API connection (sqlite3, psycopg...) or an SQLAlchemy engine or
    connection; ``kwargs`` (``index_col``, ``dtype``...) go to ``pandas.read_sql``.
    """
    import pandas

    _refuse_own_parameters("read_sql", kwargs.pop("params", None))
    if _is_sqlalchemy(con):
        return pandas.read_sql(sql_text(template, dialect_for(con)), con, **kwargs)
    query = sql_for(template, con)
    return pandas.read_sql(query.sql, con, params=query.params, **kwargs)


# The keyword per connection class: reading a C method's signature costs ~0.4 ms, more than
# the query it serves.
_PARAMETERS_KEYWORDS: dict[type, str] = {}


def _parameters_keyword(connection: object) -> str:
    """The keyword polars must use to hand parameters to the driver's ``cursor.execute``.

    polars passes ``execute_options`` as keywords where the signature names them (psycopg's
    is ``params``), positionally otherwise (sqlite3), and translates ``parameters`` itself for
    DuckDB and SQLAlchemy.
    """
    kind = type(connection)
    keyword = _PARAMETERS_KEYWORDS.get(kind)
    if keyword is None:
        keyword = _PARAMETERS_KEYWORDS[kind] = _read_parameters_keyword(connection)
    return keyword


def _read_parameters_keyword(connection: object) -> str:
    if _is_sqlalchemy(connection) or _driver_module(connection) is sys.modules.get("duckdb"):
        return "parameters"
    cursor_method = getattr(connection, "cursor", None)
    if cursor_method is None:  # a cursor itself
        execute = getattr(connection, "execute", None)
    else:
        cursor = cursor_method()
        execute = cursor.execute
        cursor.close()
    try:
        names = list(inspect.signature(execute).parameters.values())  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "parameters"
    if len(names) >= 2 and names[1].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
        return names[1].name
    return "parameters"


def read_database(template: object, connection: object, **kwargs: Any) -> Any:
    """``polars.read_database`` of an i-string, its fields passed as parameters.

    ``connection`` is a DB-API connection (sqlite3, psycopg, DuckDB...) or an SQLAlchemy
    engine or connection; ``kwargs`` go to ``polars.read_database``.
    """
    import polars

    options = dict(kwargs.pop("execute_options", None) or {})
    _refuse_own_parameters(
        "read_database", options.pop("parameters", None) or options.pop("params", None)
    )
    if _is_sqlalchemy(connection):
        return polars.read_database(
            sql_text(template, dialect_for(connection)),
            connection,
            execute_options=options or None,
            **kwargs,
        )
    query = sql_for(template, connection)
    options[_parameters_keyword(connection)] = query.params
    return polars.read_database(query.sql, connection, execute_options=options, **kwargs)


def duckdb_sql(template: object, connection: Any, alias: str = "") -> Any:
    """DuckDB's relational API for an i-string: ``connection.sql(query, params=...)``.

    Returns the ``DuckDBPyRelation`` (``.df()``, ``.pl()``, ``.fetchall()``...), or ``None``
    for a statement that returns no relation.
    """
    query = sql_for(template, connection)
    return connection.sql(query.sql, alias=alias, params=query.params)


class Rows(NamedTuple):
    """What a query returned: the column names and the rows, as the driver gave them."""

    columns: tuple[str, ...]
    rows: list[Sequence[Any]]


_params_repr = reprlib.Repr()
_params_repr.maxstring = 200
_params_repr.maxother = 200
_params_repr.maxlevel = 3


class QueryError(Exception):
    """The database refused a query: its error, with the query and parameters that were sent.

    ``error`` is the driver's exception (also the ``__cause__``); ``query`` what was sent.
    """

    def __init__(self, error: BaseException, query: Query) -> None:
        self.error = error
        self.query = query
        super().__init__(self._lines()[0])

    def _lines(self) -> list[str]:
        # SQLAlchemy wraps the driver's error with the SQL again: show the driver's own.
        error = getattr(self.error, "orig", None) or self.error
        kind = type(error)
        name = (
            kind.__qualname__
            if kind.__module__ == "builtins"
            else f"{kind.__module__}.{kind.__qualname__}"
        )
        return [
            f"the database refused the query: {name}: {error}",
            "query sent:",
            *("    " + line for line in self.query.sql.splitlines()),
            f"parameters sent: {_params_repr.repr(self.query.params)}",
        ]

    def __str__(self) -> str:
        return "\n".join(self._lines())

    def _render_traceback_(self) -> list[str]:
        # IPython shows these lines instead of a traceback: the error is the query's, and
        # the frames of this module would only hide it.
        return [f"QueryError: {line}" if i == 0 else line for i, line in enumerate(self._lines())]


def fetch(template: object, connection: Any) -> Rows | None:
    """Run the template on ``connection``; its rows, or ``None`` for a statement without any.

    ``connection``: a DB-API connection or cursor (sqlite3, psycopg, DuckDB...), or an
    SQLAlchemy engine (run in a transaction committed at the end) or connection (run in its
    current transaction).  A database error is raised as :class:`QueryError`.
    """
    if _is_sqlalchemy(connection):
        from sqlalchemy.engine import Engine

        clause = sql_text(template, dialect_for(connection))
        sent = Query(str(clause), dict(clause.compile().params))
        try:
            if isinstance(connection, Engine):
                with connection.begin() as conn:
                    return _rows_of_result(conn.execute(clause))
            return _rows_of_result(connection.execute(clause))
        except Exception as error:
            raise QueryError(error, sent) from error
    sent = sql_for(template, connection)
    try:
        if hasattr(connection, "execute"):  # sqlite3, psycopg 3, DuckDB, any cursor
            cursor = connection.execute(*sent)
            cursor = connection if cursor is None else cursor
        else:  # a DB-API connection holds no execute of its own
            cursor = connection.cursor()
            cursor.execute(*sent)
        if cursor.description is None:
            return None
        columns = tuple(str(column[0]) for column in cursor.description)
        return Rows(columns, list(cursor.fetchall()))
    except Exception as error:
        raise QueryError(error, sent) from error


def _rows_of_result(result: Any) -> Rows | None:
    if not result.returns_rows:
        return None
    # (a Result iterates over its rows: the column names are its keys())
    return Rows(tuple(str(key) for key in result.keys()), list(result.fetchall()))  # noqa: SIM118
