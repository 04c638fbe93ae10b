"""The twenty-fifth red-team pass over sql(): names a value gives to prepared statements and
secrets, and a hunt through PostgreSQL 15's and DuckDB's utility statements.

Hole (DuckDB 2.0.1 and 1.5.6, PostgreSQL 15): ``prepare {p:i} as ...`` was accepted, and the
name it gives is the statement a later EXECUTE of that name runs.  DuckDB's PREPARE replaces a
statement of the same name without a word: the session prepared ``q1`` as a select of public
rows, the template's ``prepare "q1" as insert ...`` (the render sql() gave) replaced it, and
the session's next ``execute q1`` inserted a marker row (the positive control).  PostgreSQL
refuses a name it holds ("already exists"), but not after ``deallocate {p:i}`` (accepted): with
psycopg's own statement's name (``_pg3_0``, from pg_prepared_statements), the two renders made
psycopg's next ``select v from pub`` run the insert (the positive control).  ``execute {p:i}``
was refused already; PREPARE's name is now too, on every database.
test_sql.py's notebook case ``prepare {p:i} as select 1`` is ``deallocate {p:i}`` now, which
stays accepted (it drops a statement as ``drop table {t:i}`` drops a table, running nothing),
as do a prepared statement's values.

Over-refusal fixed: ``create [or replace] [persistent | temporary] secret {s:i} (type ...)``
was refused as the call of a function named by the value; the '(' after CREATE SECRET's name
opens the secret's options.  ``create secret`` fails on a name the session holds ("already
exists") unless the static text says ``or replace`` (run on DuckDB).

Hole found on the way (DuckDB 1.5.6): a persistent secret is written to ``<secret
directory>/<name>.duckdb_secret``, and 1.x does not escape the name: ``create persistent
secret "../escaped"`` wrote ``escaped.duckdb_secret`` in the directory above (the positive
control; 2.0.1 escapes '/' and '.', ``%2E.%2Fescaped.duckdb_secret``).  A value naming the
secret CREATE SECRET makes (any storage: ``default_secret_storage`` may make a plain one
persistent) is refused now when a part of it holds '/' or '\\'; a name without one is a single
file in the directory (``".."``, ``"ok.name"``, the marker: run on both versions).  DROP
SECRET finds a secret DuckDB holds by its name (``drop persistent secret "../victim"``:
"non-existent secret", no file removed), so it stays accepted.

Hunt (held, each run with a marker value): a quoted value is no keyword in ``discard {x:i}``,
``set session authorization {x:i}`` ("default"), ``set transaction isolation level {x:i}``
and ``set constraints {x:i}`` ("all"), each an error on PostgreSQL 15; ``listen {ch:i}`` /
``notify {ch:i}, {p}`` (a channel is a name, the payload data), ``comment on table t is {v}``
(the comment comes back as data), DuckDB ``attach {f} as {a:i}`` with ``"information_schema"``
or ``"pg_catalog"`` (a later ``information_schema.tables`` is an "Ambiguous reference" error,
never the attached table), DuckDB ``set variable {v:i} = {x}`` (a variable, read only by
getvariable()), DuckDB
``create macro {m:i}`` without ``or replace`` (refused since the eleventh pass; DuckDB errors on
a duplicate anyway).  Already refused, checked again: ``create extension {e:i}``, ``load {x}``,
``install {x:i}``, DuckDB ``set schema``/``use {db:i}``, ``alter system``, ``reset {s:i}``,
``pragma {p:i}``.
"""

from __future__ import annotations

import os
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _render

from ipy_istring.fields import RenderError

MARKER = "x'); select 'MARKER"


# --- PREPARE's name: the statement a later EXECUTE runs --------------------------------------

HIJACK = "insert into pub values ('MARKER')"


def _published(db: Any) -> None:
    """A table of public rows."""
    db.execute("create table pub (v text)")
    db.execute("insert into pub values ('public')")


def test_duckdb_prepare_named_by_a_value_replaces_the_sessions_statement() -> None:
    """The positive control: the render sql() gave before this pass."""
    duck = duckdb.connect()
    _published(duck)
    duck.execute("prepare q1 as select v from pub")
    assert duck.execute("execute q1").fetchall() == [("public",)]
    duck.execute(f'prepare "q1" as {HIJACK}')
    duck.execute("execute q1")  # the session's statement, as it believes
    assert duck.execute("select v from pub order by v").fetchall() == [("MARKER",), ("public",)]


def test_postgresql_prepare_after_deallocate_replaces_psycopgs_statement(pg: Any) -> None:  # noqa: F811
    """The positive control: psycopg prepares its own statements ("_pg3_0"); PREPARE alone
    fails on a name PostgreSQL holds, but after the render of deallocate {p:i} (accepted)
    the render of prepare {p:i} (accepted before this pass) replaced it."""
    import psycopg

    _published(pg)
    assert pg.execute("select v from pub", prepare=True).fetchall() == [("public",)]
    (name,) = pg.execute("select name from pg_prepared_statements").fetchone()
    with pytest.raises(psycopg.errors.DuplicatePreparedStatement, match="already exists"):
        pg.execute(f'prepare "{name}" as {HIJACK}', prepare=False)
    pg.execute(*_render("deallocate {p:i}", "format", "postgresql", p=name), prepare=False)
    pg.execute(f'prepare "{name}" as {HIJACK}', prepare=False)
    with pytest.raises(psycopg.ProgrammingError, match="INSERT 0 1"):
        pg.execute("select v from pub", prepare=True).fetchall()  # psycopg ran the insert
    rows = pg.execute("select v from pub order by v", prepare=False).fetchall()
    assert rows == [("MARKER",), ("public",)]


@pytest.mark.parametrize("dialect", ["duckdb", "postgresql", None])
@pytest.mark.parametrize(
    "text",
    [
        "prepare {p:i} as select v from pub",
        "prepare {p:l} as select 1",
        f"prepare {{p:i}} as {HIJACK}",
        "explain prepare {p:i} as select 1",
    ],
)
def test_prepare_named_by_a_value_is_refused(text: str, dialect: str | None) -> None:
    with pytest.raises(RenderError, match="names the statement PREPARE defines"):
        _render(text, "qmark", dialect, p="q1")


def test_a_prepared_statements_values_and_deallocate_stay_accepted() -> None:
    assert _render("prepare q as select v from pub where v = {v}", "qmark", None, v="x").sql == (
        "prepare q as select v from pub where v = ?"
    )
    assert _render("deallocate {p:i}", "qmark", None, p="q").sql == 'deallocate "q"'


# --- CREATE SECRET's name ---------------------------------------------------------------------

SECRETS = [
    "create secret {s:i} (type http, bearer_token {tok})",
    "create temporary secret {s:i} (type http, bearer_token {tok})",
    "create or replace secret {s:i} (type http, bearer_token {tok})",
    "create secret if not exists {s:i} (type http, bearer_token {tok})",
    "create or replace persistent secret {s:i} (type http, bearer_token {tok}, scope {sc})",
]


@pytest.fixture
def duck(tmp_path: Any) -> Any:
    """A DuckDB connection whose persistent secrets go to tmp_path/secrets."""
    connection = duckdb.connect()
    connection.execute(f"set secret_directory = '{tmp_path / 'secrets'}'")
    return connection


def _secrets(duck: Any) -> list[tuple[str, str]]:
    return duck.execute("select name, storage from duckdb_secrets() order by name").fetchall()


@pytest.mark.parametrize("text", SECRETS)
def test_duckdb_create_secret_takes_a_value_for_its_name(duck: Any, text: str) -> None:
    """Refused as a function's call before this pass; the marker becomes the secret's name."""
    query = _render(text, "qmark", None, s=MARKER, tok="t", sc="http://h")
    assert "\"x'); select 'MARKER\" (" in query.sql
    duck.execute(*query)
    assert [name.lower() for name, _ in _secrets(duck)] == [MARKER.lower()]  # 1.x: lower case


def test_duckdb_create_secret_fails_on_a_name_the_session_holds(duck: Any) -> None:
    duck.execute("create secret s1 (type http, bearer_token 'session')")
    query = _render(
        "create secret {s:i} (type http, bearer_token {tok})", "qmark", "duckdb", s="s1", tok="t"
    )
    with pytest.raises(duckdb.InvalidInputException, match="already exists"):
        duck.execute(*query)
    assert (
        "bearer_token=redacted"
        in duck.execute("select secret_string from duckdb_secrets()").fetchone()[0]
    )


ESCAPED_BY_DUCKDB = not duckdb.__version__.startswith("1.")


def test_duckdb_1_writes_a_persistent_secret_named_with_a_separator_outside_its_directory(
    duck: Any, tmp_path: Any
) -> None:
    """The positive control: the render sql() gave before the fix (this pass accepted it)."""
    duck.execute("create persistent secret \"../escaped\" (type http, bearer_token 't')")
    outside = (tmp_path / "escaped.duckdb_secret").exists()
    assert outside is not ESCAPED_BY_DUCKDB  # DuckDB 1.5.6: written outside; 2.0.1: escaped


@pytest.mark.parametrize("name", ["../escaped", "a/b", "..\\x", ("main", "../x")])
@pytest.mark.parametrize(
    "text",
    [
        "create persistent secret {s:i} (type http)",
        "create or replace secret {s:i} (type http)",
        "create persistent secret if not exists {s:i} (type http)",
    ],
)
def test_duckdb_refuses_a_secret_name_with_a_path_separator(text: str, name: Any) -> None:
    with pytest.raises(RenderError, match="without escaping the name"):
        _render(text, "qmark", None, s=name)


@pytest.mark.parametrize("name", ["..", "ok.name", MARKER])
def test_duckdb_persistent_secret_named_without_a_separator_stays_in_its_directory(
    duck: Any, tmp_path: Any, name: str
) -> None:
    query = _render(
        "create persistent secret {s:i} (type http, bearer_token {tok})",
        "qmark",
        "duckdb",
        s=name,
        tok="t",
    )
    duck.execute(*query)
    assert sorted(os.listdir(tmp_path)) == ["secrets"]
    assert len(os.listdir(tmp_path / "secrets")) == 1
    assert [(n.lower(), s) for n, s in _secrets(duck)] == [(name.lower(), "local_file")]


@pytest.mark.parametrize(
    "text",
    [
        "create secret s (type http, scope {f:i} (1))",
        "create secret s (type http, secret {f:i} (1))",
        "create secret {s:i} (type http, {f:i} {s:l})",
        "create table t as select 1 as secret, {f:i} (1)",
        "select secret, {f:i} (secret) from t",
    ],
)
def test_a_call_near_create_secret_stays_refused(text: str) -> None:
    with pytest.raises(RenderError, match="name of the function called"):
        _render(text, "qmark", None, f="query", s="s")


# --- Hunt: held ------------------------------------------------------------------------------


def test_postgresql_listen_notify_and_comment_keep_a_value_a_name_or_data(pg: Any) -> None:  # noqa: F811
    import psycopg

    pg.execute(*_render("listen {ch:i}", "format", "postgresql", ch=MARKER))
    client = psycopg.ClientCursor(pg)  # NOTIFY's payload and COMMENT are no plannable statements
    client.execute(*_render("notify {ch:i}, {p}", "format", "postgresql", ch=MARKER, p=MARKER))
    notice = next(pg.notifies(timeout=5, stop_after=1))
    assert (notice.channel, notice.payload) == (MARKER, MARKER)
    pg.execute("create table c25 (v text)")
    client.execute(*_render("comment on table c25 is {v}", "format", "postgresql", v=MARKER))
    assert pg.execute("select obj_description('c25'::regclass)").fetchone() == (MARKER,)


KEYWORDS = [
    ("discard {x:i}", "all", "syntax error"),
    ("set session authorization {x:i}", "default", 'role "default" does not exist'),
    ("set transaction isolation level {x:i}", "serializable", "syntax error"),
    ("set constraints {x:i} deferred", "all", 'constraint "all" does not exist'),
]


@pytest.mark.parametrize(("text", "value", "error"), KEYWORDS, ids=[k[0] for k in KEYWORDS])
def test_postgresql_reads_a_quoted_value_as_no_keyword(
    pg: Any,  # noqa: F811
    text: str,
    value: str,
    error: str,
) -> None:
    """Unlike SET ROLE's "none" (refused since the eleventh pass), these keywords are none."""
    import psycopg

    with pytest.raises(psycopg.Error, match=error):
        pg.execute(*_render(text, "format", "postgresql", x=value))


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("information_schema", "select table_name from information_schema.tables"),
        ("pg_catalog", "select tablename from pg_catalog.pg_tables"),
    ],
)
def test_duckdb_attach_as_a_system_schemas_name_hides_no_table(name: str, query: str) -> None:
    duck = duckdb.connect()
    duck.execute(*_render("attach ':memory:' as {a:i}", "qmark", "duckdb", a=name))
    duck.execute(f'create table "{name}".main.tables (table_name text)')
    duck.execute(f'create table "{name}".main.pg_tables (tablename text)')
    duck.execute(f"insert into \"{name}\".main.tables values ('MARKER')")
    duck.execute(f"insert into \"{name}\".main.pg_tables values ('MARKER')")
    with pytest.raises(duckdb.BinderException, match="Ambiguous reference"):
        duck.execute(query)


def test_duckdb_set_variable_keeps_a_value_a_variable() -> None:
    duck = duckdb.connect()
    duck.execute(*_render("set variable {v:i} = {x}", "qmark", "duckdb", v=MARKER, x=MARKER))
    assert duck.execute("select getvariable(?)", [MARKER]).fetchone() == (MARKER,)


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("postgresql", "create extension {e:i}"),
        ("postgresql", "load {e}"),
        ("duckdb", "load {e}"),
        ("duckdb", "install {e:i}"),
        ("duckdb", "set schema = {e}"),
        ("duckdb", "use {e:i}"),
        ("postgresql", "alter system set work_mem = {e}"),
        ("postgresql", "reset {e:i}"),
        ("duckdb", "pragma {e:i}"),
        ("sqlite", "pragma {e:i}"),
        ("duckdb", "create macro {e:i} (x) as x"),
        ("duckdb", "execute {e:i}"),
    ],
)
def test_the_hunts_code_and_setting_names_stay_refused(dialect: str, text: str) -> None:
    with pytest.raises(RenderError):
        _render(text, "qmark", dialect, e="x")
