"""The eighteenth red-team pass over sql(): a value as an option's name, and what DuckDB 2.0 runs.

The passes before refused a ``:i`` value where EXPLAIN, COPY, ATTACH and ``OPTIONS (...)`` take
an option's name.  PostgreSQL reads a quoted name as the option in three more lists, and each
did something the text did not write (the positive controls below, run with the query sql()
wrote before this pass):

* ``WITH (...)``, ``SET (...)`` and ``RESET (...)`` of CREATE and ALTER (a table's, a view's,
  an index's storage parameters, a subscription's or a publication's options...): ``alter
  view v reset ({k:i})`` with ``k = "security_invoker"`` made the view read its table with its
  owner's rights, and a role granted only the view read the secret table behind it; ``set
  ({k:i} = {b:l})`` with ``("security_invoker", False)`` did the same.

* The utility options of ``VACUUM``, ``ANALYZE``, ``CLUSTER`` and ``REINDEX (...)``, read by name
  as EXPLAIN's are: ``vacuum ({k:i}) t`` with ``"full"`` rewrote the table (its file changed)
  under an exclusive lock, where the text wrote a plain VACUUM (the seventeenth pass had left
  this out as "runs nothing else"; it is refused now like EXPLAIN's options, in every dialect).

* CREATE DATABASE's options, which are words: ``create database d with {k:i} = {v:i}`` with
  ``("owner", "pg_read_all_data")`` gave the database to every member of that read-only role,
  and one dropped it.  The seventeenth pass refused the role after a written ``OWNER``; the
  option's name may not come from a value now.

Option values, column lists (``update t set ({a:i}, {b:i}) = ...``, ``create index i on t
({c:i}) with (fillfactor = 70)``), the database's name and its written options' values stay
accepted.

And three more, each with its positive control below:

* DuckDB 2.0's external resources run a table function a string names:
  ``from destroy_external_resource('query', {x})`` ran ``SELECT * FROM query(<x>)``, and the
  value's ``enable_logging(...)`` wrote the next query's secret literal to a file of its
  choice; ``create external resource {t:i} as r`` ran the create function of the type the
  value named.  A query calling them (or with that statement) takes no field now, and every
  DuckDB function is reviewed by its arguments' names (``deleter_function``...).

* SQLite finds a table of the schema before its eponymous tables: ``alter table x rename to
  {t:i}`` with ``"pragma_table_list"`` made SQLite's list of tables read x's rows.

* DuckDB 2.0 reads the continuation of ``E'a'`` on a new line as a plain ``'...'``, where
  PostgreSQL and DuckDB 1.x keep the escapes: a ``{x:l}`` that both of those read in code
  stood in a string on DuckDB 2.0.1, and its quotes let the value run as SQL
  (``paramstyle="dollar"``).

Attacks tried that held (kept as regression tests): DuckDB's ``list_aggregate(l, {f})`` takes
a function's name as a string, but only an aggregate's (``query``, a macro, ``getvariable``:
"does not exist", "is not an aggregate function"), and DuckDB's core aggregates read only
their list; ``explain ("analyze")`` in DuckDB runs the statement, and the tenth pass's rule
refuses it there.
"""

from __future__ import annotations

import pathlib
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import (
    pg,  # noqa: F401  # the fixture the tests ask for
    role_name,
)
from test_sql_tenth_pass import field, refused_everywhere

from ipy_istring.fields import RenderError
from ipy_istring.sql import _CODE_CALLS, sql
from ipy_istring.template import InterpolationTemplate

T = InterpolationTemplate
NOT_POSTGRESQL = (("qmark", None), ("named", None), ("qmark", "duckdb"), ("qmark", "sqlite"))


def _key(value: str = "security_invoker") -> Any:
    return field(value, "k", "i")


# --- WITH (...), SET (...), RESET (...) ------------------------------------------------------


def test_a_views_option_named_by_a_value_reads_its_table_with_the_owners_rights(
    pg: Any,  # noqa: F811
) -> None:
    """``alter view v reset ("security_invoker")``: the view, which read its table with the
    rights of whoever queried it, read it with its owner's, and a role granted only the view
    read the secret table behind it.  ``set ("security_invoker" = false)`` did the same."""
    reader = role_name(pg, "reader18")
    pg.execute(f"drop role if exists {reader}")
    pg.execute(f"create role {reader}")
    try:
        pg.execute("create table secrets (v text)")
        pg.execute("insert into secrets values ('hunter2')")
        pg.execute("create view v with (security_invoker = true) as select v from secrets")
        pg.execute(f"grant usage on schema ipy_istring_contexts to {reader}")
        pg.execute(f"grant select on v to {reader}")

        def read_as_reader() -> list[tuple[Any, ...]]:
            pg.execute(f"set role {reader}")
            try:
                return pg.execute("select v from v").fetchall()
            finally:
                pg.execute("reset role")

        with pytest.raises(Exception, match="permission denied for table secrets"):
            read_as_reader()
        # The positive controls: the queries sql() wrote before this pass, run as they are.
        pg.execute('alter view v reset ("security_invoker")')
        assert read_as_reader() == [("hunter2",)]
        pg.execute("alter view v set (security_invoker = true)")
        pg.execute('alter view v set ("security_invoker" = FALSE)')
        assert read_as_reader() == [("hunter2",)]
        # A written option's value stays a value (run): the view keeps reading as the invoker.
        pg.execute("alter view v set (security_invoker = true)")
        pg.execute(*sql(T("alter view v set (check_option = ", field("local", "o", "l"), ")"),
                        "format"))  # fmt: skip
        with pytest.raises(Exception, match="permission denied for table secrets"):
            read_as_reader()
    finally:
        pg.execute("drop view if exists v")
        pg.execute("drop table if exists secrets")
        pg.execute(f"drop owned by {reader}")
        pg.execute(f"drop role {reader}")
    why = r"names an option in WITH \(\.\.\.\), SET \(\.\.\.\) or RESET \(\.\.\.\)"
    b = field(False, "b", "l")
    for parts in (
        ("alter view v reset (", _key(), ")"),
        ("alter view v reset (check_option, ", _key(), ")"),
        ("alter view v set (", _key(), " = ", b, ")"),
        ("ALTER VIEW v SET (check_option = 'local', ", _key(), " = ", b, ")"),
        ("create view v with (", _key("security_barrier"), ") as select 1"),
        ("create table t (a int) with (", _key("fillfactor"), " = 70)"),
        ("create table t with (", _key("fillfactor"), " = 70) as select 1"),
        ("create index i on t (a) with (", _key("fillfactor"), " = 70)"),
        ("alter table t set (", _key("autovacuum_enabled"), " = false)"),
        ("alter table t set (toast.", _key("autovacuum_enabled"), " = false)"),
        ("alter table t reset (", _key("fillfactor"), ")"),
        ("alter table t alter column a set (", _key("n_distinct"), " = 1)"),
        ("create materialized view m with (", _key("fillfactor"), " = 70) as select 1"),
        ("create publication p for table t with (", _key("publish"), " = 'insert')"),
        ("alter subscription s set (", _key("slot_name"), " = none)"),
        ("alter type ty set (", _key("receive"), " = f)"),
    ):
        refused_everywhere(parts, why)
    # Look-alikes: columns after SET (, option values, names outside the lists, and the
    # databases that are not PostgreSQL.
    for parts in (
        ("update t set (", field("a", "a", "i"), ", ", field("b", "b", "i"), ") = (",
         field(1, "x"), ", ", field(2, "y"), ")"),
        ("insert into t (a, b) values (1, 2) on conflict (a) do update set (",
         field("b", "c", "i"), ") = row(excluded.b)"),
        ("merge into t using s on t.a = s.a when matched then update set (",
         field("b", "c", "i"), ") = row(s.b)"),
        ("create rule r as on insert to v do instead update t set (", field("b", "c", "i"),
         ") = row(new.b)"),
        ("create table ", field("t", "t", "i"), " (", field("a", "c", "i"),
         " int) with (fillfactor = ", field(70, "n", "l"), ")"),
        ("create index i on t (", field("a", "c", "i"), ") with (fillfactor = 70)"),
        ("alter table ", field("t", "t", "i"), " set (fillfactor = ", field(70, "n", "l"), ")"),
        ("create view ", field("v", "v", "i"), " with (security_barrier) as select ",
         field("a", "c", "i"), " from t"),
        ("create view v as with ", field("c", "c", "i"), " (n) as (select 1) select * from c"),
        ("alter table t set schema ", field("s", "s", "i")),
        ("create publication p for table ", field("t", "t", "i"), " with (publish = ",
         field("insert", "p", "l"), ")"),
    ):  # fmt: skip
        sql(T(*parts), "format")
    for paramstyle, dialect in NOT_POSTGRESQL:
        sql(T("alter view v reset (", _key(), ")"), paramstyle, dialect=dialect)
    # The look-alike run: UPDATE's SET (a, b) names columns, each set to its value.
    pg.execute("create table t (a int, b int)")
    pg.execute("insert into t values (0, 0)")
    update = ("update t set (", field("a", "a", "i"), ", ", field("b", "b", "i"), ") = (",
              field(1, "x"), ", ", field(2, "y"), ")")  # fmt: skip
    pg.execute(*sql(T(*update), "format"))
    assert pg.execute("select a, b from t").fetchall() == [(1, 2)]
    pg.execute("drop table t")


# --- VACUUM, ANALYZE, CLUSTER, REINDEX (...) --------------------------------------------------


def test_a_vacuum_option_named_by_a_value_rewrites_the_table(pg: Any) -> None:  # noqa: F811
    """``vacuum ("full") t``: PostgreSQL rewrote the table into a new file (under an exclusive
    lock, which every reader waits for), where the text wrote a plain VACUUM, which leaves the
    file where it is."""
    pg.execute("create table big (a int)")
    pg.execute("insert into big select generate_series(1, 100)")
    try:

        def filenode() -> Any:
            return pg.execute("select pg_relation_filenode('big')").fetchone()

        before = filenode()
        pg.execute("vacuum big")
        assert filenode() == before  # a plain VACUUM keeps the file
        pg.execute(*sql(T("vacuum (analyze) ", field("big", "t", "i")), "format"))
        assert filenode() == before  # and so does one whose options the text wrote
        # The positive control: the query sql() wrote before this pass, run as it is.
        pg.execute('vacuum ("full") big')
        assert filenode() != before
    finally:
        pg.execute("drop table big")
    why = r"names an option of VACUUM, ANALYZE, CLUSTER or REINDEX"
    for parts in (
        ("vacuum (", _key("full"), ") t"),
        ("VACUUM (verbose, ", _key("full"), ") t"),
        ("vacuum (", _key("index_cleanup"), " off) t"),
        ("analyze (", _key("verbose"), ") t"),
        ("analyse (", _key("verbose"), ") t"),
        ("cluster (", _key("verbose"), ") t"),
        ("reindex (", _key("concurrently"), ") table t"),
    ):
        refused_everywhere(parts, why)
        for paramstyle, dialect in NOT_POSTGRESQL:  # as EXPLAIN's: in every dialect
            with pytest.raises(RenderError, match=why):
                sql(T(*parts), paramstyle, dialect=dialect)
    # Look-alikes: the table, an option's value, and a column list after the table (run).
    pg.execute("create table big (a int)")
    try:
        for parts in (
            ("vacuum (full) ", field("big", "t", "i")),
            ("vacuum (parallel ", field(2, "n", "l"), ") big"),
            ("vacuum (index_cleanup ", field("off", "v", "l"), ") big"),
            ("analyze big (a)",),
            ("reindex table ", field("big", "t", "i")),
        ):
            pg.execute(*sql(T(*parts), "format"))
    finally:
        pg.execute("drop table big")
    sql(T("vacuum ", field("main", "s", "i")), dialect="sqlite")
    sql(T("analyze ", field("t", "t", "i")), dialect="duckdb")


# --- CREATE DATABASE's options ---------------------------------------------------------------


def test_a_database_option_named_by_a_value_gives_the_database_away(pg: Any) -> None:  # noqa: F811
    """``create database d with "owner" = "pg_read_all_data"``: PostgreSQL reads the quoted
    name as OWNER, and a member of that read-only role, now the database's owner, dropped it."""
    reader = role_name(pg, "reader18db")
    database = role_name(pg, "db18")  # a database belongs to the server, as a role does
    pg.execute(f"drop database if exists {database}")
    pg.execute(f"drop role if exists {reader}")
    pg.execute(f"create role {reader}")
    try:
        pg.execute(f"grant pg_read_all_data to {reader}")
        # The positive control: the query sql() wrote before this pass, run as it is.
        pg.execute(f'create database {database} with "owner" = "pg_read_all_data"')
        owner = pg.execute(
            "select pg_get_userbyid(datdba) from pg_database where datname = %s", (database,)
        ).fetchone()
        assert owner == ("pg_read_all_data",)
        pg.execute(f"set role {reader}")
        try:
            pg.execute(f"drop database {database}")
        finally:
            pg.execute("reset role")
        assert pg.execute(
            "select count(*) from pg_database where datname = %s", (database,)
        ).fetchone() == (0,)
        # A look-alike, run: the database's name and a written option's value.
        user = pg.execute("select current_user").fetchone()[0]
        parts = ("create database ", field(database, "d", "i"), " with owner = ",
                 field(user, "r", "i"), " template = ", field("template0", "t", "i"),
                 " encoding ", field("UTF8", "e", "l"))  # fmt: skip
        pg.execute(*sql(T(*parts), "format"))
        assert pg.execute(
            "select count(*) from pg_database where datname = %s", (database,)
        ).fetchone() == (1,)
    finally:
        pg.execute(f"drop database if exists {database}")
        pg.execute(f"drop role {reader}")
    why = r"stands where CREATE DATABASE takes an option's name"
    for parts in (
        ("create database d with ", _key("owner"), " = ", field("pg_read_all_data", "r", "i")),
        ("create database d ", _key("template"), " ", field("secrets", "t", "i")),
        ("create database d owner = alice ", _key("template"), " = secrets"),
        ("CREATE DATABASE d WITH ", _key("owner"), " alice"),
    ):
        refused_everywhere(parts, why)
    for parts in (
        ("create database ", field("d", "d", "i")),
        ("create database d owner ", field("alice", "r", "i")),
        ("create database d tablespace ", field("ts", "s", "i")),
        ("create database d with is_template = ", field(True, "b", "l")),
        ("create table ", field("database", "t", "i"), " (a int)"),
    ):
        sql(T(*parts), "format")
    for paramstyle, dialect in NOT_POSTGRESQL:
        sql(T("create database d with ", _key("owner"), " = alice"), paramstyle, dialect=dialect)


# --- SQLite's own tables, hidden by a rename ---------------------------------------------------


def test_sqlite_rename_to_a_value_hides_sqlites_own_tables() -> None:
    """``alter table x rename to "pragma_table_list"``: SQLite finds a table of the schema
    before its eponymous tables, so a later ``select name from pragma_table_list`` (SQLite's
    list of tables) read x's rows and no longer showed the table ``secrets``; ``"dbstat"`` did
    the same to dbstat.  ``create table {t:i}`` refused these names already; the new name of a
    rename is refused now too, where SQLite may run the query (``qmark`` without a dialect
    refused it already, for DuckDB)."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table secrets (s)")
    connection.execute("create table x (name)")
    connection.execute("insert into x values ('nothing to see')")
    listed = "select name from pragma_table_list where name = 'secrets'"
    assert connection.execute(listed).fetchall() == [("secrets",)]
    # The positive control: the query sql() wrote before this pass, run as it is.
    connection.execute('alter table x rename to "pragma_table_list"')
    assert connection.execute(listed).fetchall() == []
    assert connection.execute("select name from pragma_table_list").fetchall() == [
        ("nothing to see",)
    ]
    connection.close()
    why = r"the value names one of SQLite's own tables"
    for value in ("pragma_table_list", "dbstat", "PRAGMA_DATABASE_LIST", ("main", "dbstat")):
        for paramstyle, dialect in (("qmark", "sqlite"), ("named", None), ("numeric", None)):
            with pytest.raises(RenderError, match=why):
                sql(T("alter table x rename to ", field(value, "t", "i")), paramstyle,
                    dialect=dialect)  # fmt: skip
    with pytest.raises(RenderError, match=why):  # SQLite takes a string as the name too
        sql(T("alter table x rename to ", field("pragma_table_list", "t", "l")), dialect="sqlite")
    # Look-alikes, run: a name of one's own, and a column named like a pragma.
    connection = sqlite3.connect(":memory:")
    connection.execute("create table x (a)")
    for parts in (
        ("alter table x rename to ", field("archive", "t", "i")),
        ("alter table archive rename column a to ", field("pragma_x", "c", "i")),
        ("alter table archive rename ", field("pragma_x", "c", "i"), " to b"),
    ):
        connection.execute(*sql(T(*parts), dialect="sqlite"))
    assert connection.execute("select name from pragma_table_info('archive')").fetchall() == [
        ("b",)
    ]
    connection.close()


# --- DuckDB's external resources run the table function a string names ----------------------


def _external_resources(connection: Any) -> None:
    found = connection.execute(
        "select 1 from duckdb_functions() where function_name = 'destroy_external_resource'"
    ).fetchone()
    if found is None:
        pytest.skip(f"DuckDB {duckdb.__version__} has no external resources (2.0 has)")


def test_duckdb_destroy_external_resource_runs_a_value_as_sql(tmp_path: pathlib.Path) -> None:
    """``from destroy_external_resource('query', {x})`` runs ``SELECT * FROM query(<x>)``:
    the value's ``enable_logging(...)`` turned on DuckDB's query log, to a file the value
    chose, and the next query's secret literal was written there.  A query that calls one of
    the external-resource functions that run a function a string names takes no field now
    (the same CTE-borne value too), as for ``query()``."""
    connection = duckdb.connect()
    _external_resources(connection)
    logs = tmp_path / "logs"
    value = (
        "select * from enable_logging(level = 'info', storage = 'file', "
        f"storage_path = '{logs}')"
    )
    assert connection.execute("select current_setting('enable_logging')").fetchone() == (0,)
    # The positive control: the query sql() wrote before this pass, run as it is.
    before = "from destroy_external_resource('query', ?)"
    assert connection.execute(before, [value]).fetchall() == [(True,)]
    assert connection.execute("select current_setting('enable_logging')").fetchone() == (1,)
    connection.execute("select 'hunter2' as secret")
    connection.execute("from disable_logging()")
    assert "hunter2" in (logs / "duckdb_log_entries.csv").read_text()
    # And the function is the value's choice too: a resource type names the ones run later.
    assert connection.execute("from destroy_external_resource(?, 1)", ["range"]).fetchall() == [
        (True,)
    ]
    connection.execute(
        "from register_external_resource_type('t18', kind := 'x', create_function := 'query')"
    )
    assert connection.execute(
        "select create_function from duckdb_external_resource_types() where name = 't18'"
    ).fetchone() == ("query",)
    for function, parts in (
        ("destroy_external_resource",
         ("from destroy_external_resource('query', ", field(value, "q"), ")")),
        ("destroy_external_resource",
         ("from destroy_external_resource(", field("query", "f"), ", 'select 1')")),
        ("destroy_external_resource",
         ("select * from destroy_external_resource('query', ", field(value, "q", "l"), ")")),
        ("register_external_resource_type",
         ("from register_external_resource_type('t', kind := 'x', create_function := ",
          field("query", "f"), ")")),
        ("register_external_resource",
         ("from register_external_resource('t', 'r', map {'a': 'b'}, deleter_function := ",
          field("query", "f"), ")")),
        ("create_external_resource",
         ("from create_external_resource(", field("t18", "t"), ")")),
    ):  # fmt: skip
        for paramstyle, dialect in (("qmark", None), ("qmark", "duckdb"), ("dollar", None)):
            with pytest.raises(RenderError, match=rf"is an argument of {function}\(\)"):
                sql(T(*parts), paramstyle, dialect=dialect)
    with pytest.raises(RenderError, match=r"is in a query that calls destroy_external_resource"):
        sql(T("with c as (select ", field(value, "q"), " as q) "
              "from destroy_external_resource('query', (select q from c))"))  # fmt: skip
    # Look-alikes, run: the resources' listing and a deregistration read a name as data.
    listed = sql(T("from duckdb_external_resource_types() where name = ", field("t18", "t")))
    assert connection.execute(*listed).fetchall()[0][:3] == ("t18", "x", "query")
    gone = sql(T("from deregister_external_resource(", field("r18", "r"), ")"))
    with pytest.raises(duckdb.InvalidInputException, match="is not registered"):
        connection.execute(*gone)
    connection.close()


def test_duckdb_create_external_resource_runs_the_type_a_value_names() -> None:
    """``create external resource {t:i} as r`` is ``create_external_resource()``: it ran the
    create function of the type the value named (here a macro that turns DuckDB's query log
    on), where the text meant a type whose function does nothing of the kind.  Every field of
    such a query is refused now; the same words elsewhere stay accepted."""
    connection = duckdb.connect()
    _external_resources(connection)
    connection.execute(
        "create macro log_on(p) as table select * from enable_logging(level = 'info')"
    )
    connection.execute(
        "from register_external_resource_type('audited', kind := 'x', create_function := "
        "'log_on')"
    )
    assert connection.execute("select current_setting('enable_logging')").fetchone() == (0,)
    # The positive control: the query sql() wrote before this pass, run as it is.
    with pytest.raises(duckdb.IOException, match="provisioning 'audited' failed"):
        connection.execute('create external resource "audited" as r')  # after the function ran
    assert connection.execute("select current_setting('enable_logging')").fetchone() == (1,)
    connection.execute("from disable_logging()")
    why = r"is in a query that creates an external resource \(DuckDB\)"
    for parts in (
        ("create external resource ", field("audited", "t", "i"), " as r"),
        ("CREATE OR REPLACE EXTERNAL RESOURCE scratch AS ", field("r", "r", "i")),
        ("create external resource scratch as r (bucket ", field("b", "b", "l"), ")"),
        ("select ", field(1, "x"), "; create external resource scratch as r"),
    ):
        for paramstyle, dialect in (("qmark", None), ("qmark", "duckdb"), ("dollar", None)):
            with pytest.raises(RenderError, match=why):
                sql(T(*parts), paramstyle, dialect=dialect)
    # Look-alikes, run: the words as names, and a table of that name.
    for parts in (
        ("select ", field(1, "x"), " as external, 2 as resource"),
        ("create table external_resource (a int); insert into external_resource values (",
         field(1, "x"), ")"),
    ):  # fmt: skip
        connection.execute(*sql(T(*parts)))
    connection.close()


# The argument names of DuckDB's functions that say the argument is code, a function, a
# statement or a library; and the functions whose arguments so named are data or SQL text
# written in the query.
DUCKDB_CODE_ARGUMENT = (
    r"function|query|sql|statement|command|program|script|macro|lambda|callback|handler|"
    r"deleter|plugin|extension|librar"
)
DUCKDB_DATA_ARGUMENTS = {
    # an aggregate's name: DuckDB looks among aggregates only (the held test below)
    "aggregate", "array_aggr", "array_aggregate", "list_aggr", "list_aggregate",
    # a lambda is written in the text: a string there is "Invalid lambda expression"
    "apply", "array_apply", "array_filter", "array_reduce", "array_transform", "filter",
    "invoke", "list_apply", "list_filter", "list_reduce", "list_transform", "reduce",
    # the catalog's privileges and visibility, a file name's parts, SQL turned into JSON
    "has_function_privilege", "pg_function_is_visible", "parse_filename",
    "json_serialize_sql",
}  # fmt: skip


def test_duckdb_functions_whose_arguments_name_code_are_reviewed() -> None:
    """The catalog review by functions' names (tests/test_sql_catalogs.py) missed
    ``destroy_external_resource(deleter_function, payload)``: every DuckDB function with an
    argument named like code is refused by sql() or reviewed here as data, as the seventeenth
    pass did for PostgreSQL's."""
    connection = duckdb.connect()
    rows = connection.execute(
        "select distinct function_name from duckdb_functions(), unnest(parameters) p(name) "
        "where regexp_matches(lower(p.name), ?)",
        [DUCKDB_CODE_ARGUMENT],
    ).fetchall()
    connection.close()
    names = {name for (name,) in rows}
    assert "list_aggregate" in names  # the review reads what it should (1.x names query's
    # argument col0, 2.0 query)
    assert sorted(names - set(_CODE_CALLS) - DUCKDB_DATA_ARGUMENTS) == []


# --- DuckDB 2.0 reads a continued string without escapes --------------------------------------

_CONTINUED = ("select E'a'\n'a\\' , ' , ", " as c --'")  # the text around the field
_LEAK = "as x, (select secret from t) as leaked, "


def test_duckdb_2_reads_a_continued_string_without_its_escapes(pg: Any) -> None:  # noqa: F811
    """After ``E'a'`` and a newline, PostgreSQL and DuckDB 1.x read ``'a\\' , '`` as one
    continued string with escapes (``\\'`` is a quote), so ``{x:l}`` after it stands in code;
    DuckDB 2.0 reads the second part as a plain string, which ends at ``\\'``, and ``' , '``
    then opens a string around the field: the literal's quotes closed it and the value ran as
    SQL (a secret came back) with ``paramstyle="dollar"``, whose check read only DuckDB 1.x's
    way.  DuckDB is read both ways now."""
    head, tail = _CONTINUED
    connection = duckdb.connect()
    connection.execute("create table t (secret text)")
    connection.execute("insert into t values ('hunter2')")
    rendered = head + "'" + _LEAK + "'" + tail  # what sql() wrote before this pass
    if int(duckdb.__version__.split(".")[0]) >= 2:
        # The positive control: the query sql() wrote before this pass, run as it is.
        row = connection.execute(rendered).fetchone()
        assert row is not None and "hunter2" in row
    connection.close()
    value = field(_LEAK, "x", "l")
    for paramstyle, dialect in (("dollar", None), ("qmark", "duckdb"), ("qmark", None)):
        with pytest.raises(RenderError, match=r"is inside a quoted SQL string"):
            sql(T(head, value, tail), paramstyle, dialect=dialect)
    # PostgreSQL reads it as 1.x does: the field is a literal there (run), and stays accepted.
    query = sql(T(head, value, tail), "format")
    assert query.sql == rendered
    assert pg.execute(*query).fetchone() == ("aa' , ", _LEAK)
    # Look-alikes, run on DuckDB: a continued string without a backslash, and one on a line.
    connection = duckdb.connect()
    for parts, expected in (
        (("select E'a'\n'b' , ", field("v", "x", "l"), " as c"), ("ab", "v")),
        (("select E'a\\'' , ", field("v", "x", "l"), " as c"), ("a'", "v")),
    ):
        assert connection.execute(*sql(T(*parts), "dollar")).fetchone() == expected
    connection.close()


# --- Held ------------------------------------------------------------------------------------


def test_duckdb_list_aggregate_calls_only_an_aggregate() -> None:
    """``list_aggregate(l, {f})`` takes the function's name as a string, but DuckDB looks only
    among aggregate functions: ``query``, a macro and ``getvariable`` are refused by DuckDB,
    and the control, ``string_agg``, aggregates the list."""
    connection = duckdb.connect()
    connection.execute("create macro m(x) as 42")
    query = sql(T("select list_aggregate(['select 42'], ", field("string_agg", "f"), ")"))
    assert connection.execute(*query).fetchall() == [("select 42",)]
    for name in ("query", "m", "getvariable"):
        query = sql(T("select list_aggregate(['select 42'], ", field(name, "f"), ")"))
        with pytest.raises(duckdb.CatalogException, match=r"does not exist|not an aggregate"):
            connection.execute(*query)
    connection.close()
