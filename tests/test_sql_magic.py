"""``%%isql``: SQL cells whose body is an i-string, in a real InteractiveShell, on real engines.

The hostile corpus goes through a cell on sqlite3, DuckDB, psycopg and SQLAlchemy (SQLite and
PostgreSQL engines, and a connection): every value comes back exactly and the table the
payloads try to drop keeps its row.  Then what a cell user meets: ``-o``, ``--query``, errors
that quote the query sent, the body read as the raw i-string it is.
"""

from __future__ import annotations

import html.parser
import re
import sqlite3
import sys
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pandas
import pytest
import sqlalchemy
from conftest import run
from hostile import ALL, HTML
from IPython.core.error import UsageError
from IPython.utils.capture import capture_output

from ipy_istring.sql_connections import QueryError, Rows
from ipy_istring.sql_magic import Table, to_frame

SCHEMA = "ipy_istring_sql_magic"
POSTGRES = {"psycopg", "sqlalchemy-postgres", "sqlalchemy-connection"}


@pytest.fixture(
    params=["sqlite3", "duckdb", "psycopg", "sqlalchemy-sqlite", *sorted(POSTGRES - {"psycopg"})]
)
def con(request: pytest.FixtureRequest, ishell: Any) -> Iterator[str]:
    """A connection named ``con`` in the shell, with table t holding one row ('alice')."""
    kind = request.param
    setup = "create table t (name text)", "insert into t values ('alice')"
    if kind == "sqlite3":
        connection: Any = sqlite3.connect(":memory:")
        for statement in setup:
            connection.execute(statement)
    elif kind == "duckdb":
        connection = duckdb.connect()
        for statement in setup:
            connection.execute(statement)
    elif kind == "sqlalchemy-sqlite":
        connection = sqlalchemy.create_engine("sqlite://")
        with connection.begin() as conn:
            for statement in setup:
                conn.exec_driver_sql(statement)
    else:
        import psycopg

        dsn = request.getfixturevalue("postgres_dsn")
        admin = psycopg.connect(dsn, autocommit=True)
        admin.execute(f"drop schema if exists {SCHEMA} cascade")
        admin.execute(f"create schema {SCHEMA}")
        admin.execute(f"set search_path to {SCHEMA}")
        for statement in setup:
            admin.execute(statement)
        if kind == "psycopg":
            connection = psycopg.connect(dsn, autocommit=True, options=f"-c search_path={SCHEMA}")
        else:
            connection = sqlalchemy.create_engine(
                "postgresql+psycopg://",
                creator=lambda: psycopg.connect(dsn, options=f"-c search_path={SCHEMA}"),
            )
            if kind == "sqlalchemy-connection":
                connection = connection.connect()
    ishell.user_ns.update(con=connection, kind=kind)
    yield kind
    if isinstance(connection, sqlalchemy.Engine):
        connection.dispose()
    else:
        connection.close()
    if kind in POSTGRES:
        admin.execute(f"drop schema {SCHEMA} cascade")
        admin.close()


def rows_of(frame: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in frame.itertuples(index=False)]


def prove_cells(ishell: Any, magic: str, spell: Callable[[str], str] = str) -> list[str]:
    """Every hostile value through cells of ``magic`` on ``con``: what went wrong, if anything.

    The cells are written as i-strings; ``spell`` rewrites one into another magic's syntax.
    """

    def cell(body: str) -> Any:
        # The magic as a cell calls it, minus the displayhook's formatting of each DataFrame
        # (three quarters of a cell's time); the other tests run whole cells.
        return ishell.run_cell_magic(magic, "con", spell(body))

    failures = []
    for value in ALL:
        ishell.user_ns["value"] = value
        try:
            frame = cell(
                "select {value} as v, {value:l} as lit,\n"
                "       (select count(*) from t where name = {value}) as hits\n"
            )
            if rows_of(frame) != [(value, value, 0)]:
                failures.append(f"{value[:60]!r}: came back as {rows_of(frame)!r:.200}")
            if value and (ishell.user_ns["kind"] not in POSTGRES or len(value.encode()) <= 63):
                frame = cell("select 1 as {value:i}")
                if list(frame.columns) != [value]:
                    failures.append(f"{value[:60]!r}: column came back as {list(frame.columns)!r}")
        except Exception as error:
            failures.append(f"{value[:60]!r}: {type(error).__name__}: {error!s:.200}")
    try:
        ishell.user_ns["values"] = ALL
        if rows_of(cell("select count(*) from t where name in {values:in}")) != [(0,)]:
            failures.append("{values:in} matched a row")
        if rows_of(cell("select name from t")) != [("alice",)]:
            failures.append("table t lost its row")
    except Exception as error:
        failures.append(f"table t: {type(error).__name__}: {error!s:.200}")
    return failures


def test_hostile_values_bind_in_a_cell(ishell: Any, con: str) -> None:
    failures = prove_cells(ishell, "isql")
    assert not failures, "\n".join(failures)


def _as_jinja(body: str) -> str:
    """An i-string cell spelled as jupysql users write it: '{{x}}' pasted into quotes."""
    body = body.replace("{values:in}", "('{{ values | join(\"', '\") }}')")
    body = body.replace("{value:i}", '"{{ value }}"')
    return body.replace("{value:l}", "'{{ value }}'").replace("{value}", "'{{ value }}'")


def test_positive_control_the_proof_catches_a_pasting_cell(ishell: Any) -> None:
    """The proof above does see an injection: a cell magic that renders its body with Jinja
    and runs the text, as jupysql's '{{x}}' does, fails it."""
    import jinja2

    connection = sqlite3.connect(":memory:")
    connection.executescript("create table t (name text); insert into t values ('alice');")
    ishell.user_ns.update(con=connection, kind="sqlite3")

    def jinja_sql(line: str, cell: str) -> Any:
        text = jinja2.Template(cell).render(ishell.user_ns)
        cursor = connection.executescript(text) if ";" in text else connection.execute(text)
        columns = [column[0] for column in cursor.description or ()]
        return pandas.DataFrame.from_records(cursor.fetchall(), columns=columns)

    ishell.register_magic_function(jinja_sql, "cell", "jinja_sql")
    try:
        failures = prove_cells(ishell, "jinja_sql", _as_jinja)
    finally:
        ishell.magics_manager.magics["cell"].pop("jinja_sql")
    assert any(failure.startswith(repr("' OR 1=1 --")) for failure in failures), failures
    assert "table t lost its row" in failures or any("no such table" in f for f in failures)


def test_identifiers_lists_and_nested_queries(ishell: Any, con: str) -> None:
    run(
        ishell,
        "column = 'name'\n"
        "wanted = ['alice', \"'; DROP TABLE t; --\"]\n"
        "condition = i'{column:i} in {wanted:in}'\n",
    )
    frame = run(ishell, "%%isql con\nselect {column:i} from t where {condition:q}")
    assert rows_of(frame) == [("alice",)]


def test_out_keeps_the_result(ishell: Any, con: str) -> None:
    ishell.user_ns["name"] = "alice"
    result = run(ishell, "%%isql con -o people\nselect name from t where name = {name}")
    assert ishell.user_ns["people"] is result
    assert isinstance(result, pandas.DataFrame)
    assert rows_of(result) == [("alice",)]


def test_a_statement_without_rows_shows_nothing(ishell: Any, con: str) -> None:
    ishell.user_ns["name"] = "bob'); DROP TABLE t; --"
    result = run(ishell, "%%isql con -o inserted\ninsert into t values ({name})")
    if con == "duckdb":  # DuckDB answers with the count of inserted rows
        assert rows_of(result) == [(1,)]
    else:
        assert result is None and ishell.user_ns["inserted"] is None
    frame = run(ishell, "%%isql con\nselect name from t order by name")
    assert rows_of(frame) == [("alice",), ("bob'); DROP TABLE t; --",)]


def test_query_option_displays_the_query_and_its_parameters(ishell: Any) -> None:
    ishell.user_ns.update(con=sqlite3.connect(":memory:"), name="<b>'; --</b>")
    with capture_output() as captured:
        frame = run(ishell, "%%isql con --query\nselect {name} as v")
    assert rows_of(frame) == [("<b>'; --</b>",)]
    (output,) = captured.outputs
    text, page = output.data["text/plain"], output.data["text/html"]
    assert "sql → select ? as v" in text
    assert "select ? as v" in page and "&lt;b&gt;" in page and "<b>'" not in page


def test_a_database_error_shows_the_query_and_parameters_sent(ishell: Any, con: str) -> None:
    ishell.user_ns["name"] = "'; DROP TABLE t; --"
    result = ishell.run_cell("%%isql con\nselect * from no_such_table where name = {name}")
    error = result.error_in_exec
    assert isinstance(error, QueryError)
    assert "no_such_table" in str(error)
    assert "parameters sent:" in str(error) and repr("'; DROP TABLE t; --") in str(error)
    with capture_output() as captured:
        ishell.showtraceback((type(error), error, error.__traceback__))
    shown = captured.stdout + captured.stderr
    assert "QueryError: the database refused the query" in shown
    assert "query sent:" in shown
    assert "sql_connections.py" not in shown  # no frames of ours


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("select '{name}'", "inside a quoted SQL string"),
        ("select {name!r}", "has a conversion"),
        ("select {name:zz}", "unknown spec"),
        ("select {name}}", "single '}' is not allowed"),
        ("select 1\nfrom t where x = {name", "line 3"),
        ("select '''a''' || \"\"\"b\"\"\"", "both ''' and"),
        ("   \n", "the cell is empty"),
    ],
)
def test_mistakes_in_the_body_are_usage_errors(ishell: Any, body: str, message: str) -> None:
    ishell.user_ns.update(con=sqlite3.connect(":memory:"), name="x")
    result = ishell.run_cell("%%isql con\n" + body)
    error = result.error_in_exec
    assert isinstance(error, UsageError), error
    assert message in str(error)


def test_a_syntax_error_points_into_the_cell(ishell: Any) -> None:
    ishell.user_ns["con"] = sqlite3.connect(":memory:")
    result = ishell.run_cell("%%isql con\nselect {1 +}")
    text = str(result.error_in_exec)
    assert 'File "<cell' in text and "line 2" in text
    assert "    select {1 +}" in text


@pytest.mark.parametrize("mark", ["\x0c", "\x85", "\u2028"])
def test_a_syntax_error_shows_its_line_after_a_break_python_does_not_count(
    ishell: Any, mark: str
) -> None:
    # str.splitlines() ends a line at a form feed or U+2028; a SQL comment may hold one.
    ishell.user_ns["con"] = sqlite3.connect(":memory:")
    result = ishell.run_cell(f"%%isql con\n-- a{mark}b\nselect 1\nselect {{1 +}}")
    text = str(result.error_in_exec)
    assert "line 4" in text and "    select {1 +}" in text


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("%%isql nothing_here", "cannot find the connection 'nothing_here'"),
        ("%%isql name", "name is not a connection"),
        ("%%isql con -o 'not a name'", "is not a variable name"),
        ("%%isql mysql", "SQLAlchemy dialect 'mysql'.*cannot be checked"),
    ],
)
def test_bad_arguments_are_usage_errors(ishell: Any, line: str, message: str) -> None:
    mysql = sqlalchemy.create_mock_engine("mysql://", lambda *args, **kwargs: None)
    ishell.user_ns.update(con=sqlite3.connect(":memory:"), name="x", mysql=mysql)
    result = ishell.run_cell(line + "\nselect 1")
    assert isinstance(result.error_in_exec, UsageError)
    assert re.search(message, str(result.error_in_exec))


def test_the_body_is_a_raw_i_string(ishell: Any) -> None:
    """Backslashes are SQL's, braces double, quotes of either kind and a trailing quote or
    backslash all read as written."""
    ishell.user_ns["con"] = sqlite3.connect(":memory:")
    frame = run(ishell, "%%isql con\nselect '\\n' as a, '{{}}' as b, \"\"\"\" as c, '\\'")
    assert rows_of(frame) == [("\\n", "{}", '"', "\\")]
    frame = run(ishell, "%%isql con\nselect '\"\"\"' as a, 'x\"'")
    assert rows_of(frame) == [('"""', 'x"')]


@pytest.mark.parametrize("quote", ['"""', "'''"])
def test_the_body_cannot_close_its_literal_and_run_python(ishell: Any, quote: str) -> None:
    """Quotes in the body stay SQL text: it can never end the literal it is read as."""
    ran: list[int] = []
    ishell.user_ns.update(con=sqlite3.connect(":memory:"), pwned=lambda: ran.append(1) or "")
    for body in (
        f"select 1 {quote} + pwned() + {quote}",
        f"select 1 {quote}\n+ pwned() +\n{quote} as x",
        f"select 1 as x {quote[0]}",
        "select 1 as x \\",
    ):
        result = ishell.run_cell("%%isql con\n" + body)
        if result.error_in_exec is None:  # SQLite read the quotes as SQL's: a name, a string
            assert "pwned()" in repr(result.result.columns.tolist()), body
        else:  # or refused them as SQL; either way the body went to it as written
            assert isinstance(result.error_in_exec, QueryError), (body, result.error_in_exec)
            assert body.rstrip() in result.error_in_exec.query.sql
    assert ran == []
    run(ishell, "pwned()")  # positive control: a call of pwned() is seen
    assert ran == [1]


def test_fields_are_evaluated_in_the_users_namespace(ishell: Any) -> None:
    run(ishell, "import sqlite3\ncon = sqlite3.connect(':memory:')\nxs = [3, 4]")
    frame = run(ishell, "%%isql con\nselect {sum(x * 2 for x in xs)} as s, {xs[-1]} as last")
    assert rows_of(frame) == [(14, 4)]
    result = ishell.run_cell("%%isql con\nselect {undefined_name}")
    assert isinstance(result.error_in_exec, NameError)


def test_polars_then_a_plain_table_when_pandas_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rows = Rows(("v", "w"), [(1, "<script>x</script>"), (2, None)])
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now fails
    import polars

    frame = to_frame(rows)
    assert isinstance(frame, polars.DataFrame) and frame.rows() == rows.rows
    monkeypatch.setitem(sys.modules, "polars", None)
    table = to_frame(rows)
    assert isinstance(table, Table) and list(table) == rows.rows
    assert repr(table).splitlines()[0].split() == ["v", "w"]


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.tags.add(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_plain_table_escapes_every_hostile_value() -> None:
    page = Table(Rows(tuple(HTML[:3]), [tuple(HTML[:3])] + [(value, 1, 2) for value in HTML]))
    parser = _Elements()
    parser.feed(page._repr_html_())
    assert parser.tags == {"table", "thead", "tbody", "tr", "th", "td"}
    shown = "".join(parser.text)
    for value in HTML:
        assert repr(value) in shown


def test_unload_removes_the_magic(ishell: Any) -> None:
    assert "isql" in ishell.magics_manager.magics["cell"]
    ishell.run_line_magic("unload_ext", "ipy_istring")
    assert "isql" not in ishell.magics_manager.magics["cell"]
    ishell.run_line_magic("load_ext", "ipy_istring")
    assert "isql" in ishell.magics_manager.magics["cell"]
