"""sql() in hostile contexts, against real sqlite3, DuckDB and PostgreSQL (scs on and off).

Every case of tests/contexts_sql.py is rendered in each paramstyle an engine's driver takes
(PostgreSQL bound server-side and client-side, as psycopg's ClientCursor, psycopg2 and pg8000 do):
it must be refused, or run and return exactly the rows the value-as-data query returns, with
the table intact.  Each naive f-string version listed as injecting must be seen to inject on
that engine: the harness's positive control.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pytest
from contexts_sql import CASES, ROWS, Case, X

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.sql_connections import QueryError, fetch
from ipy_istring.template import Interpolation, InterpolationTemplate

Execute = Callable[[str, Any], list[tuple[Any, ...]]]

# The paramstyles each engine's Python driver takes.
STYLES = {
    "sqlite": ("qmark", "named"),
    "duckdb": ("qmark", "dollar"),
    "pg": ("format", "pyformat"),
    "pg_off": ("format",),
}
ESCAPED, REFUSED, ACCEPTED, ERROR = "escaped", "refused", "accepted", "database error"


def template(case: Case) -> InterpolationTemplate:
    """The case's i-string: each X becomes a field holding the case's value."""
    parts: list[str | Interpolation] = []
    for part in case.parts:
        if isinstance(part, str):
            parts.append(part)
            continue
        value = case.extra.get(part.expression, case.value)
        if part.spec == "q" and isinstance(value, str):
            value = InterpolationTemplate(value)  # a fragment: i"..." without fields
        parts.append(Interpolation(value, part.expression, None, part.spec))
    return InterpolationTemplate(*parts)


def verdict(engine: Execute, reset: Callable[[], None], query: str, params: Any, case: Case) -> str:
    """Run one query on a fresh table: escaped, accepted or database error."""
    reset()
    try:
        rows = engine(query, params)
    except Exception:  # the database refused the text: no escape, and said so
        rows = None
    try:
        intact = engine("select id, v, secret from t order by id", None) == ROWS
    except Exception:
        intact = False  # the table is gone
    if not intact or (rows is not None and [tuple(r) for r in rows] != case.expect):
        return ESCAPED
    return ACCEPTED if rows is not None else ERROR


def run_engine(name: str, engine: Execute, reset: Callable[[], None]) -> Counter[str]:
    """Every case in every paramstyle, and the positive controls; returns the tally."""
    tally: Counter[str] = Counter()
    escapes, errors = [], []
    for case in CASES:
        if name not in case.only:
            continue
        for style in STYLES[name]:
            try:
                query = sql(template(case), style)
            except RenderError:
                tally[REFUSED] += 1
                continue
            outcome = verdict(engine, reset, query.sql, query.params, case)
            tally[outcome] += 1
            if outcome == ERROR:
                errors.append(f"{case.name} ({style})")
            if outcome == ESCAPED:
                escapes.append((case.name, style, query))
        if case.naive is not None and name in case.injects:
            outcome = verdict(engine, reset, case.naive, None, case)
            assert outcome == ESCAPED, f"positive control did not inject: {case.name} on {name}"
            tally["controls injecting"] += 1
    print(f"\n{name}: {dict(tally)}; the database refused: {errors}")
    assert not escapes, escapes
    return tally


def test_corpus_has_a_control_per_context_class() -> None:
    controls = [case for case in CASES if case.naive and case.injects]
    assert len(CASES) >= 60 and len(controls) >= 20
    assert all(any(isinstance(p, X) for p in case.parts) for case in CASES)


def test_sqlite() -> None:
    connection = sqlite3.connect(":memory:", isolation_level=None)

    def execute(query: str, params: Any) -> list[tuple[Any, ...]]:
        if params is None and ";" in query:  # a naive control may hold several statements
            connection.executescript(query)
            return []
        return connection.execute(query, params or ()).fetchall()

    def reset() -> None:
        connection.execute("drop table if exists t")
        connection.execute("create table t (id integer, v text, secret text)")
        connection.executemany("insert into t values (?, ?, ?)", ROWS)

    tally = run_engine("sqlite", execute, reset)
    assert tally[REFUSED] and tally[ACCEPTED]
    connection.close()


def test_duckdb() -> None:
    connection = duckdb.connect(":memory:")

    def execute(query: str, params: Any) -> list[tuple[Any, ...]]:
        return connection.execute(query, params or None).fetchall()  # None: no parameters

    def reset() -> None:
        connection.execute("drop table if exists t")
        connection.execute("create table t (id integer, v text, secret text)")
        connection.executemany("insert into t values (?, ?, ?)", ROWS)

    tally = run_engine("duckdb", execute, reset)
    assert tally[REFUSED] and tally[ACCEPTED]
    connection.close()


@pytest.fixture
def pg(postgres_dsn: str) -> Iterator[Any]:
    """A PostgreSQL connection in a fresh schema, dropped afterwards."""
    import psycopg

    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute("drop schema if exists ipy_istring_contexts cascade")
        connection.execute("create schema ipy_istring_contexts")
        connection.execute("set search_path to ipy_istring_contexts")
        connection.execute("set escape_string_warning = off")
        # crosstab() and connectby(), which run SQL, for the harness's cases
        connection.execute("create extension tablefunc schema ipy_istring_contexts")
        yield connection
        connection.execute("drop schema ipy_istring_contexts cascade")


def role_name(connection: Any, base: str) -> str:
    """A role's name that is this run's own: a role belongs to the whole server, not to one
    database, and CI runs each Python's tests side by side, each in its own database of one
    server, so a fixed name would be created and dropped by two runs at once."""
    return f"{connection.info.dbname}_{base}"


@pytest.mark.parametrize("binding", ["server", "client"])
@pytest.mark.parametrize("conforming", ["on", "off"])
def test_postgresql(pg: Any, conforming: str, binding: str) -> None:
    """Server-side binding (psycopg's default), and client-side (psycopg's ClientCursor, as
    psycopg2 and pg8000 do): there the driver splices each value, quoted, where its placeholder
    stands, so a placeholder the server would read inside a string or comment would inject."""
    import psycopg

    pg.execute(f"set standard_conforming_strings = {conforming}")
    cursor = pg.cursor() if binding == "server" else psycopg.ClientCursor(pg)

    def execute(query: str, params: Any) -> list[tuple[Any, ...]]:
        cursor.execute(query, params)  # None (a naive control): '%' is not special
        return cursor.fetchall() if cursor.description else []

    def reset() -> None:
        pg.execute("drop table if exists t")
        pg.execute("create table t (id integer, v text, secret text)")
        for row in ROWS:
            pg.execute("insert into t values (%s, %s, %s)", row)

    tally = run_engine("pg" if conforming == "on" else "pg_off", execute, reset)
    assert tally[REFUSED] and tally[ACCEPTED]


def test_postgresql_runs_a_function_body_from_a_value(pg: Any) -> None:
    """CREATE FUNCTION ... AS '<text>' stores the text as code that runs when called: the
    positive control proves it; sql() refuses any field in the body."""
    body = "select current_user || ' ran this'"
    pg.execute(
        f"create function f() returns text language sql as '{body.replace(chr(39), chr(39) * 2)}'"
    )
    assert pg.execute("select f()").fetchone()[0].endswith(" ran this")  # the value ran
    for spec in ("", "l"):
        template = InterpolationTemplate(
            "create function g() returns text language sql as ",
            Interpolation(body, "body", None, spec),
        )
        with pytest.raises(RenderError, match=r"\{body(:l)?\} is in the body of a stored function"):
            sql(template, "format")


def test_postgresql_client_side_binding_splices_into_strings(pg: Any) -> None:
    """The client engine's positive control: psycopg's ClientCursor writes the quoted value
    where '%s' stands, even inside a string, where its quotes turn the value into code."""
    import psycopg

    pg.execute("create table t (id integer, v text, secret text)")
    pg.execute("insert into t values (1, 'a', 's1')")
    value = "|| (select secret from t) ||"
    cursor = psycopg.ClientCursor(pg)
    cursor.execute("select 'x %s'", (value,))
    assert cursor.fetchall() == [("x s1",)]  # escaped: the secret, not the value
    template = InterpolationTemplate("select 'x ", Interpolation(value, "value"), "'")
    with pytest.raises(RenderError, match="inside a quoted SQL string"):
        sql(template, "format")


def test_duckdb_installs_extensions_from_a_repository_a_value_names(tmp_path: Any) -> None:
    """SET custom_extension_repository = '<value>' decides where INSTALL fetches native code
    from: the positive control sees DuckDB look there; sql() refuses the field."""
    connection = duckdb.connect(":memory:")
    repository = str(tmp_path / "attacker")
    connection.execute(f"set custom_extension_repository = '{repository}'")
    with pytest.raises(duckdb.IOException, match=f"no access to the file at PATH .{repository}/"):
        connection.execute("install inet")
    connection.close()
    template = InterpolationTemplate(
        "set custom_extension_repository = ", Interpolation(repository, "repository", None, "l")
    )
    with pytest.raises(RenderError, match=r"\{repository:l\} sets where the database loads"):
        sql(template, "qmark", dialect="duckdb")


def test_duckdb_loads_extensions_from_the_home_directory_a_value_names(tmp_path: Any) -> None:
    """SET home_directory = '<value>' moves where LOAD and autoloading look for extensions
    (<home>/.duckdb/extensions/...) when no extension directory is set: the positive control
    sees DuckDB look there; sql() refuses the field, and keeps other settings' values."""
    connection = duckdb.connect(":memory:")
    home = str(tmp_path / "attacker")
    connection.execute(f"set home_directory = '{home}'")
    with pytest.raises(duckdb.IOException, match=f"{home}/.duckdb/extensions/"):
        connection.execute("load inet")
    template = InterpolationTemplate(
        "set home_directory = ", Interpolation(home, "home", None, "l")
    )
    with pytest.raises(RenderError, match=r"\{home:l\} sets where the database loads"):
        sql(template, "qmark", dialect="duckdb")
    kept = InterpolationTemplate("set threads = ", Interpolation(2, "n", None, "l"))
    connection.execute(*sql(kept, dialect="duckdb"))
    assert connection.execute("select current_setting('threads')").fetchall() == [(2,)]
    connection.close()


def test_duckdb_loads_the_file_a_value_names_as_an_extension(tmp_path: Any) -> None:
    """LOAD '<value>' opens that file as native code (this one is refused only for its
    format); sql() refuses the field."""
    library = tmp_path / "chosen.duckdb_extension"
    library.write_bytes(b"\x7fELF")
    connection = duckdb.connect(":memory:")
    with pytest.raises(duckdb.InvalidInputException, match="is not a DuckDB extension"):
        connection.execute(f"load '{library}'")
    connection.close()
    template = InterpolationTemplate("load ", Interpolation(str(library), "library", None, "l"))
    with pytest.raises(RenderError, match=r"\{library:l\} is in a LOAD statement"):
        sql(template, "qmark", dialect="duckdb")


def test_duckdb_explain_analyze_runs_what_it_explains(tmp_path: Any) -> None:
    """EXPLAIN ANALYZE runs any statement in DuckDB: explain analyze load '<file>' opened the
    file as an extension, explain analyze set home_directory = '<dir>' set it (the positive
    controls); sql() reads the statement behind the prefix."""
    library = tmp_path / "chosen.duckdb_extension"
    library.write_bytes(b"\x7fELF")
    home = str(tmp_path / "attacker")
    connection = duckdb.connect(":memory:")
    with pytest.raises(duckdb.InvalidInputException, match="is not a DuckDB extension"):
        connection.execute(f"explain analyze load '{library}'")
    connection.execute(f"explain analyze set home_directory = '{home}'")
    assert connection.execute("select current_setting('home_directory')").fetchall() == [(home,)]
    connection.close()
    for static, value, why in (
        ("explain analyze load ", str(library), "is in a LOAD statement"),
        ("explain analyze set home_directory = ", home, "sets where the database loads"),
    ):
        template = InterpolationTemplate(static, Interpolation(value, "v", None, "l"))
        with pytest.raises(RenderError, match=rf"\{{v:l\}} {why}"):
            sql(template, dialect="duckdb")
    kept = InterpolationTemplate(
        "explain analyze select id from t where v = ", Interpolation("a", "v")
    )
    assert sql(kept, dialect="duckdb").params == ("a",)


def test_duckdb_lets_a_quoted_name_choose_the_extension_repository(tmp_path: Any) -> None:
    """A setting's name may be quoted and in any case: SET "<value>" = ... reaches the
    extension repository as surely as the written name; sql() refuses a field naming the
    setting, and reads a quoted, upper-case written name as the setting it is."""
    connection = duckdb.connect(":memory:")
    repository = str(tmp_path / "attacker")
    name = "CUSTOM_EXTENSION_REPOSITORY"
    connection.execute(f"set \"{name}\" = '{repository}'")
    with pytest.raises(duckdb.IOException, match=f"no access to the file at PATH .{repository}/"):
        connection.execute("install inet")
    connection.close()
    by_value = InterpolationTemplate(
        "set ", Interpolation(name, "name", None, "i"), " = ",
        Interpolation(repository, "repository", None, "l"),
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{name:i\} names the setting to change"):
        sql(by_value, "qmark", dialect="duckdb")
    written = InterpolationTemplate(
        f'set "{name}" = ', Interpolation(repository, "repository", None, "l")
    )
    with pytest.raises(RenderError, match=r"\{repository:l\} sets where the database loads"):
        sql(written, "qmark", dialect="duckdb")


def test_postgresql_set_config_lets_a_value_choose_the_setting(pg: Any) -> None:
    """set_config(<name>, <value>, false) is SET: a value naming the setting reaches
    dynamic_library_path (where LOAD and C functions find shared libraries); sql() refuses
    the name as a field, and the value after a written code-loading setting's name."""
    pg.execute("select set_config(%s, %s, false)", ("dynamic_library_path", "/tmp/attacker"))
    assert pg.execute("show dynamic_library_path").fetchone()[0] == "/tmp/attacker"
    pg.execute("reset dynamic_library_path")
    by_value = InterpolationTemplate(
        "select set_config(", Interpolation("dynamic_library_path", "name"), ", ",
        Interpolation("/tmp/attacker", "path"), ", false)",
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{name\} names the setting to change"):
        sql(by_value, "format")
    written = InterpolationTemplate(
        "select set_config('dynamic_library_path', ", Interpolation("/tmp/a", "path"), ", false)"
    )
    with pytest.raises(RenderError, match=r"\{path\} is an argument of set_config\(\)"):
        sql(written, "format")
    # A setting of the application's own, written in the text, stays accepted.
    query = sql(
        InterpolationTemplate(
            "select set_config('app.user', ", Interpolation("42", "u"), ", false)"
        ),
        "format",
    )
    assert pg.execute(*query).fetchone()[0] == "42"


def _duckdb_rows_left_by(statement: str) -> int:
    """The rows left in ``t`` once ``statement`` ran in a session that prepared ``wipe``,
    a DELETE of every row."""
    connection = duckdb.connect(":memory:")
    connection.execute("create table t (id integer, v text, secret text)")
    connection.executemany("insert into t values (?, ?, ?)", ROWS)
    connection.execute("prepare wipe as delete from t")
    connection.execute(statement)
    (count,) = connection.execute("select count(*) from t").fetchone() or (None,)
    connection.close()
    return int(count)


def test_duckdb_executes_the_prepared_statement_a_value_names() -> None:
    """EXECUTE "<value>" runs whichever statement the session prepared under that name (in
    any case): the positive control empties the table; sql() refuses the field."""
    assert _duckdb_rows_left_by('execute "WIPE"') == 0
    template = InterpolationTemplate("execute ", Interpolation("WIPE", "name", None, "i"))
    with pytest.raises(RenderError, match=r"\{name:i\} names the prepared statement"):
        sql(template, "qmark", dialect="duckdb")


def test_explain_analyze_executes_the_prepared_statement_a_value_names(pg: Any) -> None:
    """EXPLAIN ANALYZE EXECUTE "<value>" runs the statement it explains (DuckDB and
    PostgreSQL), and PostgreSQL's CREATE TABLE ... AS EXECUTE "<value>" runs it too: the
    positive controls empty the table; sql() refuses the name after EXECUTE wherever it
    stands, and keeps a prepared statement's arguments."""
    assert _duckdb_rows_left_by('explain analyze execute "wipe"') == 0
    pg.execute("create table t (id integer, v text, secret text)")
    pg.execute("insert into t values (1, 'a', 's1')")
    pg.execute("prepare wipe as with d as (delete from t returning id) select id from d")
    pg.execute('create table z as execute "wipe"')
    assert pg.execute("select count(*) from t").fetchall() == [(0,)]
    pg.execute("insert into t values (1, 'a', 's1')")
    pg.execute('explain analyze execute "wipe"')
    assert pg.execute("select count(*) from t").fetchall() == [(0,)]
    for static, paramstyle in (
        ("explain analyze execute ", "qmark"),
        ("explain (analyze) execute ", "format"),
        ("create table z2 as execute ", "format"),
    ):
        template = InterpolationTemplate(static, Interpolation("wipe", "name", None, "i"))
        with pytest.raises(RenderError, match=r"\{name:i\} names the prepared statement"):
            sql(template, paramstyle)
    pg.execute("prepare one(int) as select $1 + 1")
    kept = InterpolationTemplate("execute one(", Interpolation(1, "n", None, "l"), ")")
    assert pg.execute(*sql(kept, "format")).fetchall() == [(2,)]


def test_duckdb_evaluates_a_code_setting_in_parentheses(tmp_path: Any) -> None:
    """SET home_directory = (<expression>) evaluates it: a parameter in parentheses or in a
    call moved where LOAD looks for extensions (the positive control); sql() reads the
    setting's name whatever the value's parentheses, and refuses it after a variable too."""
    connection = duckdb.connect(":memory:")
    home = str(tmp_path / "attacker")
    connection.execute("set home_directory = concat(?, '')", [home])
    with pytest.raises(duckdb.IOException, match=f"{home}/.duckdb/extensions/"):
        connection.execute("load inet")
    connection.close()
    for parts in (
        ("set home_directory = concat(", Interpolation(home, "home"), ", '')"),
        ("set home_directory = (", Interpolation(home, "home"), ")"),
    ):
        with pytest.raises(RenderError, match=r"\{home\} sets where the database loads"):
            sql(InterpolationTemplate(*parts), dialect="duckdb")
    by_variable = InterpolationTemplate(
        "set variable d = ", Interpolation(home, "home", None, "l"),
        "; set home_directory = getvariable('d')",
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{home:l\} is in a query that sets where"):
        sql(by_variable, dialect="duckdb")


def test_postgresql_set_config_of_a_setting_a_subquery_gives(pg: Any) -> None:
    """set_config(k, ...) with k from a subquery sets whichever setting the value names
    (dynamic_library_path here, the positive control); sql() refuses every field of a query
    whose set_config() setting is not one plain string written in the text."""
    pg.execute(
        "select set_config(k, '/tmp/attacker', false) from (select %s::text as k) s",
        ("dynamic_library_path",),
    )
    assert pg.execute("show dynamic_library_path").fetchone()[0] == "/tmp/attacker"
    pg.execute("reset dynamic_library_path")
    template = InterpolationTemplate(
        "select set_config(k, '/tmp/attacker', false) from (select ",
        Interpolation("dynamic_library_path", "k"), " as k) s",
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{k\} is in a query that calls set_config\(\)"):
        sql(template, "format")


@pytest.mark.parametrize(
    "static",
    [
        "select set_config(U&'dynamic_\\006cibrary_path', ",
        "select set_config('dynamic_' || 'library_path', ",
        'set U&"dynamic_\\006cibrary_path" = ',
    ],
)
def test_postgresql_sets_a_code_setting_written_unreadably(pg: Any, static: str) -> None:
    """A setting's name written with U& escapes or in pieces is still the setting: each set
    dynamic_library_path to the value (the positive controls); sql() cannot read those names,
    so it refuses the value."""
    path = "/tmp/attacker"
    pg.execute(static + f"'{path}'" + (", false)" if "set_config" in static else ""))
    assert pg.execute("show dynamic_library_path").fetchone()[0] == path
    pg.execute("reset dynamic_library_path")
    spec = "" if "set_config" in static else "l"
    template = InterpolationTemplate(
        static, Interpolation(path, "path", None, spec), ", false)" if not spec else ""
    )
    with pytest.raises(RenderError, match=r"\{path(:l)?\} (is in a query that calls|sets where)"):
        sql(template, "format")


def test_postgresql_cuts_a_long_name_to_another(pg: Any) -> None:
    """A name past 63 bytes is cut (with only a NOTICE): "<63 a>_public" reads the column
    "<63 a>"; sql() refuses such a name when PostgreSQL may run the query."""
    kept = "a" * 63
    pg.execute(f'create table t ("{kept}" text)')
    pg.execute("insert into t values ('secret')")
    assert pg.execute(f'select "{kept}_public" from t').fetchall() == [("secret",)]
    template = InterpolationTemplate(
        "select ", Interpolation(kept + "_public", "column", None, "i"), " from t"
    )
    with pytest.raises(RenderError, match=r"\{column:i\} is a name longer than 63 bytes"):
        sql(template, "format")


def test_postgresql_creates_the_extension_a_value_names(pg: Any) -> None:
    """CREATE EXTENSION "<value>" runs that extension's scripts and loads its library (here
    pgcrypto's digest() becomes callable); sql() refuses any field in the statement."""
    pg.execute('create extension "pgcrypto" schema ipy_istring_contexts')
    try:
        assert pg.execute("select length(digest('x', 'sha1'))").fetchone()[0] == 20
    finally:
        pg.execute("drop extension pgcrypto")
    template = InterpolationTemplate(
        "create extension ", Interpolation("pgcrypto", "name", None, "i")
    )
    with pytest.raises(RenderError, match=r"\{name:i\} is in CREATE EXTENSION"):
        sql(template, "format")


def test_postgresql_create_language_and_alter_extension_run_an_extension(pg: Any) -> None:
    """CREATE LANGUAGE "<value>" without a HANDLER is CREATE EXTENSION: it installed pgcrypto;
    ALTER EXTENSION "<value>" UPDATE ran hstore's update scripts (1.4 to the newest): the
    positive controls.  sql() refuses the language's name and every field of ALTER EXTENSION;
    a language with its handler written in the text is only refused for a field naming it."""
    pg.execute('create language "pgcrypto"')
    try:
        assert pg.execute("select length(digest('x', 'sha1'))").fetchone()[0] == 20
    finally:
        pg.execute("drop extension pgcrypto")
    pg.execute("create extension hstore version '1.4'")
    try:
        pg.execute('alter extension "hstore" update')
        version = pg.execute("select extversion from pg_extension where extname = 'hstore'")
        assert version.fetchone()[0] != "1.4"
    finally:
        pg.execute("drop extension hstore")
    for parts, why in (
        (("create language ", Interpolation("pgcrypto", "name", None, "i")), "without a HANDLER"),
        (
            ("alter extension ", Interpolation("hstore", "name", None, "i"), " update"),
            "is in ALTER EXTENSION",
        ),
        (
            ("alter extension hstore update to ", Interpolation("1.8", "name", None, "l")),
            "is in ALTER EXTENSION",
        ),
    ):
        with pytest.raises(RenderError, match=rf"\{{name:[il]\}} .*{why}"):
            sql(InterpolationTemplate(*parts), "format")


def test_duckdb_calls_the_function_a_value_names_after_a_cast() -> None:
    """DuckDB reads x.f() as f(x), after a cast too: cast(x as varchar)."<value>" () called
    getvariable() and read a session variable (the positive control); sql() refuses the name
    there, while the type right after AS or '::' stays accepted."""
    connection = duckdb.connect(":memory:")
    connection.execute("set variable api_key = 'k-secret'")
    leaked = connection.execute(
        'select cast(? as varchar)."getvariable" ()', ["api_key"]
    ).fetchall()
    assert leaked == [("k-secret",)]
    for before, after in (("select cast(", " as varchar)."), ("select ", "::varchar.")):
        template = InterpolationTemplate(
            before, Interpolation("api_key", "x"), after,
            Interpolation("getvariable", "f", None, "i"), " ()",
        )  # fmt: skip
        with pytest.raises(RenderError, match=r"\{f:i\} is the name of the function called"):
            sql(template, "qmark", dialect="duckdb")
    typed = InterpolationTemplate(
        "select cast(", Interpolation("1", "x"), " as ", Interpolation("integer", "t", None, "i"),
        ")",
    )  # fmt: skip
    assert connection.execute(*sql(typed, dialect="duckdb")).fetchall() == [(1,)]
    connection.close()


def test_sqlite_internal_tables_are_no_table_a_value_may_name() -> None:
    """SQLite serves tables of its own: ``from {t:i}`` with ``t = "sqlite_stmt"`` returned the
    SQL text of every statement the connection held prepared, a literal secret included
    (Python's sqlite3 caches them); "pragma_*" names each pragma's table.  SQLite reserves
    both prefixes, so a ':i' table read by SQLite may not be one of them."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (v text)")
    connection.execute(*sql(InterpolationTemplate(
        "select v from t where v = ", Interpolation("hunter2", "pw", None, "l")
    )))  # fmt: skip

    def read(value: object, *around: str, **options: Any) -> Any:
        before, after = (*around, "")[:2] if around else ("select * from ", "")
        return sql(
            InterpolationTemplate(before, Interpolation(value, "t", None, "i"), after), **options
        )

    # The positive control: the name as a naive f-string (or an earlier sql()) wrote it.
    leaked = connection.execute('select sql from "sqlite_stmt"').fetchall()
    assert ("select v from t where v = 'hunter2'",) in leaked
    refused = [
        ("sqlite_stmt",),
        ("SQLITE_Master",),
        ("sqlite_schema",),
        ("pragma_database_list",),
        (("main", "sqlite_master"),),
        ("sqlite_stmt", "select v from t join ", " using (v)"),
        ("sqlite_stmt", "select v from t, ", ""),
        ("sqlite_stmt", "select * from (select 1) a join (", ")"),
        ("sqlite_stmt", "delete from "),
    ]
    for value, *around in refused:
        for options in ({}, {"paramstyle": "named"}, {"dialect": "sqlite"}):
            with pytest.raises(RenderError, match="one of SQLite's own tables"):
                read(value, *around, **options)
    # Look-alikes: a name elsewhere, another database, a table of one's own.
    assert read("sqlite_stmt", "select ", " from t").sql == 'select "sqlite_stmt" from t'
    assert read("sqlite_stmt", dialect="postgresql").sql == 'select * from "sqlite_stmt"'
    assert read("sqlite_stmt", paramstyle="format").sql == 'select * from "sqlite_stmt"'
    assert read("my_sqlite_stmt").sql == 'select * from "my_sqlite_stmt"'
    assert read("t").sql == 'select * from "t"'
    assert connection.execute(*read("t")).fetchall() == []
    connection.close()


def test_postgresql_catalog_tables_are_no_table_a_value_may_name(pg: Any) -> None:
    """PostgreSQL's catalog views hold SQL text: ``from {t:i}`` with ``t =
    "pg_prepared_statements"`` returned the text of a statement the session had prepared, a
    literal secret included, and "pg_cursors" a declared cursor's.  The catalog is searched
    before the schemas, so a ':i' table PostgreSQL reads may not start with "pg_" or be in
    pg_catalog (matched exactly: "PG_CURSORS" is no catalog table)."""
    pg.execute("prepare p1 as select 'hunter2'::text")
    pg.execute("declare c1 cursor with hold for select 'curse3'::text")
    pg.execute("create table t (v text)")
    pg.execute('create table "PG_CURSORS" (v text)')

    def read(value: object, style: str = "format", *around: str) -> Any:
        before, after = (*around, "")[:2] if around else ("select * from ", "")
        field = Interpolation(value, "t", None, "i")
        return sql(InterpolationTemplate(before, field, after), style)

    # The positive control: the names as a naive f-string writes them.
    leaked = pg.execute('select statement from "pg_prepared_statements"').fetchall()
    assert ("prepare p1 as select 'hunter2'::text",) in leaked
    cursors = pg.execute('select statement from "pg_catalog"."pg_cursors"').fetchall()
    assert ("declare c1 cursor with hold for select 'curse3'::text",) in cursors
    for value, *around in (
        ("pg_prepared_statements",),
        ("pg_cursors",),
        ("pg_stat_activity",),
        (("pg_catalog", "pg_cursors"),),
        (("pg_catalog", "x"),),
        ("pg_cursors", "select v from t join ", " using (v)"),
        ("pg_cursors", "select v from t, ", ""),
    ):
        for style in ("format", "pyformat", "dollar"):
            with pytest.raises(RenderError, match="one of PostgreSQL's catalog tables"):
                read(value, style, *around)
    # Look-alikes: a name elsewhere, another database, a table of one's own.
    assert read("pg_cursors", "format", "select ", " from t").sql == 'select "pg_cursors" from t'
    assert read("pg_cursors", "named").sql == 'select * from "pg_cursors"'  # SQLite only
    assert read("my_pg_cursors").sql == 'select * from "my_pg_cursors"'
    for settings in ("pg_settings", ("pg_catalog", "pg_settings")):  # as current_setting() shows
        names = pg.execute(*read(settings, "format", "select name from ")).fetchall()
        assert ("work_mem",) in names
    for own in ("t", "PG_CURSORS", ("ipy_istring_contexts", "t")):
        assert pg.execute(*read(own)).fetchall() == []
    pg.execute("close c1")
    pg.execute("deallocate p1")


def test_duckdb_catalog_tables_are_no_table_a_value_may_name() -> None:
    """DuckDB serves PostgreSQL's and SQLite's catalog views too: ``from {t:i}`` with ``t =
    "pg_prepared_statements"`` returned a prepared statement's text with its literal secret.
    A ':i' table DuckDB reads may not start with "pg_", "sqlite_" or "duckdb_", in any case."""
    connection = duckdb.connect(":memory:")
    connection.execute("prepare p1 as select 'hunter2'")
    connection.execute("create table t (v text)")
    # The positive control: the name as a naive f-string writes it.
    leaked = connection.execute('select statement from "PG_Prepared_Statements"').fetchall()
    assert any("hunter2" in row[0] for row in leaked)

    def read(value: str, *options: str, dialect: str | None = None) -> Any:
        field = Interpolation(value, "t", None, "i")
        return sql(InterpolationTemplate("select * from ", field), *options, dialect=dialect)

    for value in ("pg_prepared_statements", "PG_PREPARED_STATEMENTS", "sqlite_master",
                  "duckdb_views"):  # fmt: skip
        for options, dialect in ((("qmark",), None), (("dollar",), None), ((), "duckdb")):
            with pytest.raises(RenderError, match=r"(own|catalog) tables"):
                read(value, *options, dialect=dialect)
    # Look-alikes: a table of one's own, pg_settings, another database.
    assert connection.execute(*read("t", dialect="duckdb")).fetchall() == []
    assert read("pg_settings", dialect="duckdb").sql == 'select * from "pg_settings"'
    assert read("my_duckdb_views", dialect="duckdb").sql == 'select * from "my_duckdb_views"'
    assert read("duckdb_views", dialect="postgresql").sql == 'select * from "duckdb_views"'
    connection.close()


# Left open, and documented: a value a context allows still chooses among what the database
# reaches, and these databases reach more than their tables.


def test_duckdb_reads_the_python_variable_a_table_name_gives() -> None:
    """DuckDB's Python client reads a pandas/polars/Arrow variable of the frame that calls
    execute() when no table has the name (a replacement scan): ``from {t:i}`` with
    ``t = "credentials_df"`` read the caller's DataFrame.  sql() cannot tell such a name from
    a table's; ``fetch()`` runs the query in ipy_istring's own frame, where the notebook's
    variables are not in scope, and ``python_enable_replacements = false`` turns it off."""
    pandas = pytest.importorskip("pandas")
    credentials_df = pandas.DataFrame({"password": ["hunter2"]})
    assert len(credentials_df) == 1  # in scope here, where execute() runs
    connection = duckdb.connect(":memory:")
    template = InterpolationTemplate(
        "select * from ", Interpolation("credentials_df", "t", None, "i")
    )
    query = sql(template, dialect="duckdb")
    assert connection.execute(*query).fetchall() == [("hunter2",)]  # the positive control
    with pytest.raises(QueryError, match="credentials_df does not exist"):
        fetch(template, connection)
    connection.execute("set python_enable_replacements = false")
    with pytest.raises(duckdb.CatalogException):
        connection.execute(*query)
    connection.close()


def test_sqlite_reads_a_name_that_names_no_column_as_a_string() -> None:
    """SQLite reads "zz" that names no column as the string 'zz': ``where {c:i} = {v}`` with
    ``c = v = "zz"`` matched every row (PostgreSQL and DuckDB refuse the name).  sql()
    cannot know the columns; Python 3.12+ can switch the fallback off per connection."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table t (id integer, v text, secret text)")
    connection.executemany("insert into t values (?, ?, ?)", ROWS)
    template = InterpolationTemplate(
        "select id from t where ", Interpolation("zz", "c", None, "i"), " = ",
        Interpolation("zz", "v"), " order by id",
    )  # fmt: skip
    query = sql(template, dialect="sqlite")
    assert connection.execute(*query).fetchall() == [(1,), (2,)]
    if sys.version_info >= (3, 12):
        connection.setconfig(sqlite3.SQLITE_DBCONFIG_DQS_DML, False)
        with pytest.raises(sqlite3.OperationalError, match=r'no such column: "?zz'):
            connection.execute(*query)
    connection.close()


def test_sqlite_attaches_the_uri_a_path_gives() -> None:
    """ATTACH {path} is a file position the text names, so the value is a path and stays
    accepted; SQLite also reads it as a URI (here without ``uri=True``):
    ``file:name?mode=memory&cache=shared`` opened another connection's in-memory database.
    Check a path value (no ``file:`` prefix) before it reaches the query."""
    shared = "file:ipy_istring_attach?mode=memory&cache=shared"
    owner = sqlite3.connect(shared, uri=True)
    owner.execute("create table vault (k text)")
    owner.execute("insert into vault values ('shared-secret')")
    owner.commit()
    connection = sqlite3.connect(":memory:")
    template = InterpolationTemplate("attach ", Interpolation(shared, "path"), " as other")
    connection.execute(*sql(template, dialect="sqlite"))
    assert connection.execute("select k from other.vault").fetchall() == [("shared-secret",)]
    connection.close()
    owner.close()


def test_postgresql_casts_with_the_function_a_value_names(pg: Any) -> None:
    """CREATE CAST ... WITH FUNCTION "<value>" (text) binds the function every later cast
    runs: the positive control's cast read a secret; sql() refuses a field naming a function
    that DDL binds (casts, aggregates, operators, types, languages, wrappers)."""
    pg.execute("create table t (id integer, v text, secret text)")
    pg.execute("insert into t values (1, 'a', 's1')")
    pg.execute("create type label as (s text)")
    pg.execute("create function label_of(text) returns label language sql as 'select row($1)'")
    pg.execute(
        "create function label_leak(text) returns label language sql "
        "as 'select row((select secret from t limit 1))'"
    )
    pg.execute('create cast (text as label) with function "label_leak" (text)')
    assert pg.execute("select ('a'::text::label).s").fetchall() == [("s1",)]
    pg.execute("drop cast (text as label)")
    template = InterpolationTemplate(
        "create cast (text as label) with function ", Interpolation("label_leak", "f", None, "i"),
        " (text)",
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{f:i\} names the function the cast"):
        sql(template, "format")
    # A cast's type from a value is refused too since the twenty-second pass (there, "oid"
    # for a function returning int4 made 'pg_class'::text::oid run it): a type chosen in
    # Python is an i'...' fragment composed with ':q'.
    chosen = Interpolation(InterpolationTemplate("label"), "t", None, "q")
    written = InterpolationTemplate(
        "create cast (text as ", chosen, ") with function label_of (text)"
    )
    pg.execute(*sql(written, "format"))
    assert pg.execute("select ('a'::text::label).s").fetchall() == [("a",)]


def test_postgresql_file_fdw_runs_the_option_a_value_names(pg: Any) -> None:
    """OPTIONS ("<value>" %s) names the option its value is for, and file_fdw's PROGRAM runs
    the value as a shell command when the table is read: the positive controls (bound
    client-side, as psycopg2 binds; and the name written U&"progr\\0061m") ran ``echo``.
    sql() refuses a field naming an option, and a value after a U&"..." name; a written
    option's value (a file's name) stays accepted."""
    import psycopg

    pg.execute("create extension file_fdw schema ipy_istring_contexts")
    pg.execute("create server fs foreign data wrapper file_fdw")
    client = psycopg.ClientCursor(pg)
    for name in ('"program"', 'U&"progr\\0061m"'):
        client.execute(
            f"create foreign table ft (a text) server fs options ({name} %s)", ("echo pwned",)
        )
        assert pg.execute("select a from ft").fetchall() == [("pwned",)]
        pg.execute("drop foreign table ft")
    start = "create foreign table ft (a text) server fs options ("
    for parts, why in (
        ((start, Interpolation("program", "k", None, "i"), " ", Interpolation("echo 1", "v"), ")"),
         r"\{k:i\} names an option in OPTIONS"),
        ((start + 'U&"progr\\0061m" ', Interpolation("echo 1", "v"), ")"),
         r'\{v\} follows a name written U&"..."'),
    ):  # fmt: skip
        with pytest.raises(RenderError, match=why):
            sql(InterpolationTemplate(*parts), "format")
    written = InterpolationTemplate(
        "create foreign table ft (a text) server fs options (filename ",
        Interpolation("/nonexistent.csv", "p", None, "l"), ")",
    )  # fmt: skip
    pg.execute(*sql(written, "format"))
    pg.execute("drop foreign table ft")


def test_postgresql_update_of_pg_settings_sets_a_setting(pg: Any) -> None:
    """UPDATE pg_settings SET setting = ... WHERE name = ... is set_config(): the positive
    controls set dynamic_library_path (where LOAD finds shared libraries) from bound values,
    and through a table name "pg_settings" a value gave.  sql() refuses every field of a query
    that updates pg_settings, and a ':i' table name pg_settings after UPDATE."""
    for table in ("pg_settings", '"pg_settings"'):
        pg.execute(
            f"update {table} set setting = %s where name = %s",
            ("/tmp/attacker", "dynamic_library_path"),
        )
        assert pg.execute("show dynamic_library_path").fetchone()[0] == "/tmp/attacker"
        pg.execute("reset dynamic_library_path")
    written = InterpolationTemplate(
        "update pg_settings set setting = ", Interpolation("/tmp/attacker", "v"),
        " where name = ", Interpolation("dynamic_library_path", "k"),
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{v\} is in a query that updates pg_settings"):
        sql(written, "format")
    by_value = InterpolationTemplate(
        "update ", Interpolation("pg_settings", "t", None, "i"), " set setting = ",
        Interpolation("/tmp/attacker", "v"), " where name = ",
        Interpolation("dynamic_library_path", "k"),
    )  # fmt: skip
    with pytest.raises(RenderError, match=r"\{t:i\} names the table UPDATE changes"):
        sql(by_value, "format")
    pg.execute("create table t (id integer, v text, secret text)")
    kept = InterpolationTemplate(
        "update ", Interpolation("t", "t", None, "i"), " set v = ", Interpolation("x", "v")
    )
    pg.execute(*sql(kept, "format"))


def test_postgresql_create_function_set_sets_a_setting(pg: Any) -> None:
    """CREATE FUNCTION ... SET "<name>" = '<value>' sets the setting whenever the function
    runs: the positive control's function ran with dynamic_library_path at the value.  sql()
    refuses a field naming the setting, and a value for a setting that loads code; a plain
    setting's value stays accepted."""
    pg.execute(
        'create function f() returns text language sql set "dynamic_library_path" = '
        "'/tmp/attacker' as $$ select current_setting('dynamic_library_path') $$"
    )
    assert pg.execute("select f()").fetchall() == [("/tmp/attacker",)]
    assert pg.execute("show dynamic_library_path").fetchone()[0] != "/tmp/attacker"
    pg.execute("drop function f")
    for parts, why in (
        (
            ("create function f() returns text language sql set ",
             Interpolation("dynamic_library_path", "k", None, "i"), " = '/tmp/attacker' as "
             "$$ select 1 $$"),
            r"\{k:i\} names the setting to change",
        ),
        (
            ("create function f() returns text language sql set dynamic_library_path = ",
             Interpolation("/tmp/attacker", "k", None, "l"), " as $$ select 1 $$"),
            r"\{k:l\} is in a query that sets where the database loads",
        ),
    ):  # fmt: skip
        with pytest.raises(RenderError, match=why):
            sql(InterpolationTemplate(*parts), "format")
    kept = InterpolationTemplate(
        "create function f() returns text language sql set work_mem = ",
        Interpolation("8MB", "m", None, "l"),
        " as $$ select current_setting('work_mem') $$",
    )
    pg.execute(*sql(kept, "format"))
    assert pg.execute("select f()").fetchall() == [("8MB",)]
