"""``%%isql CONNECTION``: SQL cells whose body is an i-string, so values bind and never inject.

::

    %%isql con -o people
    select * from {table:i} where name = {name} and id in {ids:in}

The body is read exactly as the literal ``ri\"\"\"<body>\"\"\"`` would be (raw: backslashes are
SQL's, ``{{``/``}}`` for a literal brace), rewritten by :func:`ipy_istring.rewrite.rewrite`
and evaluated in the user's namespace: each ``{x}`` becomes a bind parameter of the
connection's own kind, ``{col:i}``, ``{x:l}``, ``{sub:q}`` and ``{ids:in}`` work as in
:func:`ipy_istring.sql.sql`.  ``CONNECTION`` names a DB-API connection (sqlite3, psycopg,
DuckDB...) or an SQLAlchemy engine or connection.

The rows come back as a pandas DataFrame, else a polars one, else a plain :class:`Table`;
``-o NAME`` keeps them in ``NAME``; ``--query`` displays the i-string first, with the query and
parameters it sends (its ``sql`` view).  A database error shows the query and parameters sent
(:class:`~ipy_istring.sql_connections.QueryError`).  The extension registers the magic.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from functools import lru_cache
from types import CodeType
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from markupsafe import escape

from . import display
from ._lines import python_lines
from .fields import RenderError
from .rewrite import rewrite
from .sql_connections import Rows, dialect_for, fetch, paramstyle_for
from .template import InterpolationTemplate

__all__ = ["SQLCellMagics", "Table", "cell_template", "load", "to_frame", "unload"]


def _literal_source(body: str) -> tuple[str, int]:
    """The body as a raw i-literal's source, and the columns its opening adds to line 1."""
    quote = '"""' if '"""' not in body else "'''"
    if quote in body:
        raise UsageError(
            "%%isql: the cell holds both ''' and \"\"\", so it cannot be read as one i-string. "
            "Rewrite one of them (SQL never needs three quotes in a row)"
        )
    if body.endswith(("\\", quote[0])):  # would escape or merge with the closing quotes
        body += "\n"
    return f"ri{quote}{body}{quote}", len("ri") + len(quote)


def cell_template(
    body: str, global_ns: dict[str, Any], local_ns: Any, filename: str
) -> InterpolationTemplate:
    """The cell body as the i-string it is, its fields evaluated in the given namespaces.

    A malformed field raises ``SyntaxError`` pointing into the cell (its first line is the
    ``%%isql`` line); a field that fails raises its own error.
    """
    body = body.rstrip()
    if not body:
        raise UsageError("%%isql: the cell is empty. Write the query below %%isql CONNECTION")
    template = eval(_compiled(body, filename), global_ns, local_ns)
    assert isinstance(template, InterpolationTemplate)
    return template


@lru_cache(maxsize=256)
def _compiled(body: str, filename: str) -> CodeType:
    """The code that builds the body's template (cached: a cell run again is not re-read)."""
    source, shift = _literal_source(body)
    try:
        return compile(rewrite(source, filename=filename), filename, "eval")
    except SyntaxError as error:
        raise _cell_syntax_error(error, body, shift, filename) from None


def _cell_syntax_error(error: SyntaxError, body: str, shift: int, filename: str) -> SyntaxError:
    """The rewrite's error moved from the literal's source to the cell's lines."""
    lines = python_lines(body)
    lineno = min(error.lineno or 1, len(lines))
    offset = error.offset or 1
    if lineno == 1:
        offset = max(1, offset - shift)
    offset = min(offset, len(lines[lineno - 1]) + 1)
    return SyntaxError(error.msg, (filename, lineno + 1, offset, lines[lineno - 1], None, None))


class Table:
    """Rows shown as a plain table, for when neither pandas nor polars is installed."""

    def __init__(self, rows: Rows) -> None:
        self.columns = rows.columns
        self.rows = rows.rows

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.rows)

    def __repr__(self) -> str:
        cells = [list(self.columns), *([repr(value) for value in row] for row in self.rows)]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.columns))]
        lines = ["  ".join(text.ljust(width) for text, width in zip(row, widths)) for row in cells]
        lines.insert(1, "  ".join("-" * width for width in widths))
        lines.append(f"({len(self.rows)} rows)")
        return "\n".join(line.rstrip() for line in lines)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(column)}</th>" for column in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{escape(repr(value))}</td>" for value in row) + "</tr>"
            for row in self.rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def to_frame(rows: Rows) -> Any:
    """The rows as a pandas DataFrame, else a polars DataFrame, else a :class:`Table`."""
    records = [tuple(row) for row in rows.rows]
    try:
        import pandas
    except ImportError:
        pass
    else:
        return pandas.DataFrame.from_records(records, columns=list(rows.columns))
    try:
        import polars
    except ImportError:
        return Table(rows)
    return polars.DataFrame(
        records, schema=list(rows.columns), orient="row", infer_schema_length=None
    )


@magics_class
class SQLCellMagics(Magics):
    """The ``%%isql`` cell magic."""

    @magic_arguments()
    @argument(
        "connection",
        help="the connection, as a name (or expression) in your namespace: a DB-API "
        "connection (sqlite3, psycopg, DuckDB...) or an SQLAlchemy engine or connection",
    )
    @argument("-o", "--out", metavar="NAME", help="also keep the result in the variable NAME")
    @argument(
        "--query",
        action="store_true",
        help="first display the i-string: its fields and the query with its parameters",
    )
    @cell_magic
    def isql(self, line: str, cell: str) -> Any:
        """Run the cell's body, an i-string, as a query with bound parameters.

        ``%%isql CONNECTION [-o NAME] [--query]``; ``{x}`` binds, ``{col:i}`` is an identifier,
        ``{ids:in}`` a list; the result shows as a DataFrame.
        """
        args = parse_argstring(self.isql, line)
        shell = self.shell
        assert shell is not None
        connection = self._connection(args.connection)
        filename = f"<cell {getattr(shell, 'execution_count', '?')}>"
        try:
            template = cell_template(cell, shell.user_global_ns, shell.user_ns, filename)
        except SyntaxError as error:  # shown as Python shows it, without our frames
            detail = "".join(traceback.format_exception_only(SyntaxError, error)).rstrip()
            raise UsageError(f"%%isql: the cell is not a valid i-string\n{detail}") from None
        if args.query:
            from IPython.display import display as show

            show(_sql_view(template), raw=True)
        try:
            rows = fetch(template, connection)
        except RenderError as error:  # the template's own mistake: no traceback of ours
            raise UsageError(str(error)) from None
        result = None if rows is None else to_frame(rows)
        if args.out:
            if not args.out.isidentifier():
                raise UsageError(f"%%isql -o: {args.out!r} is not a variable name")
            shell.user_ns[args.out] = result
        return result

    def _connection(self, expression: str) -> Any:
        assert self.shell is not None
        try:
            connection = self.shell.ev(expression)
        except Exception as error:
            raise UsageError(
                f"%%isql: cannot find the connection {expression!r} ({type(error).__name__}: "
                f"{error}). Write %%isql NAME, where NAME holds a DB-API connection or an "
                "SQLAlchemy engine"
            ) from None
        try:
            paramstyle_for(connection)
            dialect_for(connection)
        except TypeError as error:
            raise UsageError(f"%%isql: {expression} is not a connection: {error}") from None
        return connection


def _sql_view(template: InterpolationTemplate) -> dict[str, Any]:
    """The template's display bundle with the ``sql`` renderer's view open first."""
    with display.set_options(default_renderer="sql"):
        return display.mimebundle(template)


def load(shell: Any) -> None:
    """Register ``%%isql`` in ``shell``."""
    shell.register_magics(SQLCellMagics(shell))


def unload(shell: Any) -> None:
    """Remove ``%%isql`` from ``shell``."""
    shell.magics_manager.magics["cell"].pop("isql", None)
    shell.magics_manager.registry.pop(SQLCellMagics.__name__, None)
    shell.configurables[:] = [c for c in shell.configurables if not isinstance(c, SQLCellMagics)]
