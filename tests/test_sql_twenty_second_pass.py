"""The twenty-second red-team pass over sql(): the types of PostgreSQL's CREATE CAST, and the
access method of CREATE INDEX.

Holes, each with its positive control below:

* PostgreSQL's ``CREATE CAST ({a:i} AS {b:i}) WITH FUNCTION f(text)``: PostgreSQL takes any
  type binary coercible to the function's argument, and from its result.  With ``"varchar"``
  a later ``'7'::varchar::int4`` ran f (it gave 7 before), and with ``"oid"`` for a function
  returning int4, ``'pg_class'::text::oid`` ran it.  ``... WITH INOUT AS IMPLICIT`` (or
  ``AS ASSIGNMENT``) with text and int4 made a later ``f22(v)`` of a text column call
  f22(int4), where PostgreSQL found no function before; ``... WITHOUT FUNCTION`` with float8
  and timestamptz made ``1.5::float8::timestamptz`` read the float's bytes as a date (the
  year 148067; refused before).  Refused: every field of CREATE CAST, but those of a cast
  written ``WITH INOUT`` alone (an explicit cast through the types' text forms, which
  explicit casts from text already are: kept, and run).  The earlier passes' tests that
  accepted a cast's types WITH FUNCTION (test_sql_contexts.py, the twenty-first pass) now
  compose the type with ':q' or expect the refusal.
* ``CREATE INDEX ... USING {am:i} (c)`` was refused as "the name of the function called".
  The access method chooses the operator classes whose support functions index the rows:
  with a default hash class for point, ``using "hash" (p)`` ran its hash function on every
  row, where ``"btree"`` was refused (no default class).  Refused now with that reason.
* PostgreSQL's ``CREATE FUNCTION ... SUPPORT {s:i}`` (and ``ALTER FUNCTION / PROCEDURE ...
  SUPPORT``, also ``pg_catalog.{s:i}``): the planner calls the support function, native code
  written for another function's arguments, whenever it plans a call of the routine.  With
  ``"generate_series_int4_support"`` a later ``explain select * from s22(1, 100000)`` planned
  the series' 100000 rows (1000 before): the value's function ran.  Refused, as the other
  functions DDL binds are.
* PostgreSQL's ``CREATE TRIGGER ... REFERENCING NEW TABLE AS {n:i}`` (or ``OLD TABLE``): in
  the trigger's function the transition table's name comes before any table's.  With
  ``"allowed22"``, a statement trigger that refused rows missing from the table allowed22
  read the inserted rows as that table, and let ``'mallory'`` in.  Refused (the trigger's
  name and table stay values).

Over-refusal fixed: PostgreSQL's ``select t.{c:i} from {s:i}.{t:i} t tablesample system
({p}) repeatable ({seed})`` was refused as a query whose FROM calls a function (where
``alias.name`` may be the call ``name(alias)``): TABLESAMPLE's method and REPEATABLE are no
FROM item, the alias stays the table's row.  Accepted and run; with ``"ts_stat"`` PostgreSQL
found no column, and called nothing.

Attacks tried that held (kept as regression tests): a value naming the table of
``CREATE TRIGGER ... ON {t:i}`` or ``CREATE RULE ... TO {t:i}``.  The value chooses only
among the tables its role may change, as a table's name does anywhere: PostgreSQL refuses a
trigger on a system catalog itself ("pg_class" is a system catalog), and sql() already
refuses PostgreSQL's own names there, where a superuser could hang a trigger or rule on a
system view (``information_schema.tables``, ``pg_settings``).  DuckDB's ``create macro
m(who, {p:i})``: a parameter named like a column its body reads is "Conflicting column
names" (DuckDB 2.0 and 1.5), so the value cannot make the body read it for the column.
DuckDB's ``attach {p} as {d:i}`` with ``"information_schema"``: a later
``information_schema.tables`` is an ambiguous reference, never the attached database's table.
"""

from __future__ import annotations

import pathlib
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _parts, _render
from test_sql_tenth_pass import refused_everywhere
from test_sql_twenty_first_pass import Superuser, _naive, superuser  # noqa: F401

from ipy_istring.fields import RenderError
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

CAST = "is in CREATE CAST"


def _mark_function(db: Any, name: str, argument: str, result: str) -> None:
    """A plpgsql function that says it ran, with its argument, and returns 4242 (or null)."""
    returned = "4242" if result == "int4" else "null"
    db.execute(
        f"create function {name}({argument}) returns {result} language plpgsql immutable as "
        f"$$begin raise notice 'RAN %', $1; return {returned}; end$$"
    )


# --- PostgreSQL: CREATE CAST ---------------------------------------------------------------

WITH_FUNCTION = "create cast ({a:i} as {b:i}) with function mark22(text)"


def test_postgresql_runs_the_cast_function_on_the_types_a_value_names(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, notices = superuser
    _mark_function(db, "mark22", "text", "int4")
    assert db.execute("select '7'::varchar::int4").fetchall() == [(7,)]
    # The positive controls: the query sql() wrote before this pass, run as it is.
    for a, b, later in [("varchar", "int4", "select '7'::varchar::int4"),
                        ("text", "oid", "select 'pg_class'::text::oid")]:  # fmt: skip
        db.execute(_naive(WITH_FUNCTION, a=a, b=b))
        try:
            assert db.execute(later).fetchone() == (4242,)
        finally:
            db.execute(f"drop cast ({a} as {b})")
    assert notices == ["RAN 7", "RAN pg_class"]
    refused_everywhere(_parts(WITH_FUNCTION, a="text", b="int4"), CAST)
    refused_everywhere(_parts("create cast (text as int4) with function mark22({a:i})",
                              a="text"), CAST)  # fmt: skip


IMPLICIT = [
    "create cast ({a:i} as {b:i}) " + how
    for how in ("with inout as implicit", "with inout as assignment",
                "with function mark22(text) as implicit")
]  # fmt: skip


def test_postgresql_calls_other_functions_through_an_implicit_cast_a_value_types(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, notices = superuser
    _mark_function(db, "f22", "int4", "int4")
    db.execute("create table t22 (v text)")
    db.execute("insert into t22 values ('5')")
    later = "select f22(v) from t22"
    with pytest.raises(Exception, match=r"function f22\(text\) does not exist"):
        db.execute(later)
    db.execute(_naive(IMPLICIT[0], a="text", b="int4"))
    try:
        assert db.execute(later).fetchall() == [(4242,)]
    finally:
        db.execute("drop cast (text as int4)")
    assert notices == ["RAN 5"]
    for text in IMPLICIT:
        refused_everywhere(_parts(text, a="text", b="int4"), CAST)


def test_postgresql_reads_one_types_bytes_as_another_without_a_function(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, _ = superuser
    later = "select (1.5::float8::timestamptz)::text"
    with pytest.raises(Exception, match="cannot cast type double precision"):
        db.execute(later)
    text = "create cast ({a:i} as {b:i}) without function"
    db.execute(_naive(text, a="float8", b="timestamptz"))
    try:
        assert db.execute(later).fetchone()[0].startswith("148067-")
    finally:
        db.execute("drop cast (float8 as timestamptz)")
    refused_everywhere(_parts(text, a="float8", b="timestamptz"), CAST)


def test_postgresql_keeps_a_cast_with_inout_alone_and_a_composed_type(
    superuser: Superuser,  # noqa: F811
) -> None:
    """WITH INOUT alone is an explicit cast through the types' text forms, which an explicit
    cast from text already is: its types stay values, and run."""
    db, _ = superuser
    db.execute("create type label22 as (s text)")
    db.execute(*_render("create cast ({a:i} as {b:i}) with inout", "format", None,
                        a="text", b="label22"))  # fmt: skip
    assert db.execute("select ('(a)'::text::label22).s").fetchall() == [("a",)]
    db.execute("drop cast (text as label22)")
    # A type chosen in Python, composed with ':q', stays the way to write the others.
    _mark_function(db, "mark22", "text", "int4")
    chosen = Interpolation(InterpolationTemplate("varchar"), "a", None, "q")
    template = InterpolationTemplate(
        "create cast (", chosen, " as int4) with function mark22(text)"
    )
    db.execute(*sql(template, "format"))
    try:
        assert db.execute("select '7'::varchar::int4").fetchone() == (4242,)
    finally:
        db.execute("drop cast (varchar as int4)")


# --- PostgreSQL: CREATE INDEX ... USING ----------------------------------------------------

INDEXES = [
    "create index i22 on pts22 using {am:i} (p)",
    "create unique index if not exists i22 on only pts22 using {am:i} (p)",
    "create index concurrently on pts22 using {am:i} (p) where p is not null",
]


def test_postgresql_indexes_with_the_classes_of_the_method_a_value_names(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, notices = superuser
    db.execute("create table pts22 (p point)")
    db.execute("insert into pts22 values (point(1, 2)), (point(0, 0))")
    db.execute(
        "create function eq22(point, point) returns bool language sql immutable as "
        "'select $1[0] = $2[0]'"
    )
    db.execute("create operator === (leftarg = point, rightarg = point, procedure = eq22)")
    _mark_function(db, "hash22", "point", "int4")
    db.execute(
        "create operator class oc22 default for type point using hash as operator 1 ===, "
        "function 1 hash22(point)"
    )
    with pytest.raises(Exception, match="has no default operator class for access method"):
        db.execute(_naive(INDEXES[0], am="btree"))
    # The positive control: with "hash" the index ran the class's hash function on each row.
    db.execute(_naive(INDEXES[0], am="hash"))
    assert notices == ["RAN (1,2)", "RAN (0,0)"]
    for text in INDEXES:
        refused_everywhere(_parts(text, am="hash"), "names the access method of CREATE INDEX")
    # The index's name, its table and its columns stay values (and run).
    db.execute(*_render("create index {i:i} on {t:i} using hash ({c:i})", "format", None,
                        i="i22b", t="pts22", c="p"))  # fmt: skip


# --- PostgreSQL: CREATE TRIGGER ... ON, CREATE RULE ... TO (held) --------------------------

TRIGGERS = [
    *(f"create trigger tr22 {when} insert on {{t:i}} for each row execute function trg22()"
      for when in ("after", "instead of")),
    "create rule r22 as on insert to {t:i} do also notify n22",
]  # fmt: skip


def test_postgresql_hangs_a_trigger_only_on_the_tables_a_name_may_name(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, notices = superuser
    db.execute(
        "create function trg22() returns trigger language plpgsql as "
        "$$begin raise notice 'TRIGGER RAN'; return null; end$$"
    )
    db.execute("create table t22 (v text)")
    db.execute(*_render(TRIGGERS[0], "format", None, t="t22"))
    db.execute("insert into t22 values ('a')")
    assert notices == ["TRIGGER RAN"]
    # PostgreSQL refuses a trigger on its own catalog tables...
    with pytest.raises(Exception, match="is a system catalog"):
        db.execute(_naive(TRIGGERS[0], t="pg_class"))
    # ...and sql() the names of its system views, where a superuser may hang one.
    for text in TRIGGERS:
        for value in ("pg_settings", ("information_schema", "tables"), ("pg_catalog", "x")):
            refused_everywhere(_parts(text, t=value), "catalog tables")


# --- PostgreSQL: CREATE FUNCTION ... SUPPORT -----------------------------------------------

SUPPORTS = [
    "create or replace function s22(a int, b int) returns setof int language sql "
    "support {s:i} as 'select 1'",
    "create function f22() returns int language sql support pg_catalog.{s:i} as 'select 1'",
    *(f"alter {routine} support {{s:i}}"
      for routine in ("function s22(int, int)", "procedure p22(int)")),
]  # fmt: skip


def test_postgresql_plans_a_routine_with_the_support_function_a_value_names(
    superuser: Superuser,  # noqa: F811
) -> None:
    db, _ = superuser
    db.execute("create function s22(a int, b int) returns setof int language sql as 'select 1'")
    plan = "explain select * from s22(1, 100000)"
    assert "rows=1000 " in db.execute(plan).fetchone()[0]
    # The positive control: the query sql() wrote before this pass, run as it is.
    db.execute(_naive(SUPPORTS[0], s="generate_series_int4_support"))
    assert "rows=100000 " in db.execute(plan).fetchone()[0]
    for text in SUPPORTS:
        refused_everywhere(_parts(text, s="generate_series_int4_support"),
                           "names the planner support function")  # fmt: skip
    # A parameter named "support" keeps its type a value.
    db.execute(*_render("create function g22(support {t:i}) returns int language sql as "
                        "'select 1'", "format", None, t="int4"))  # fmt: skip


# --- PostgreSQL: TABLESAMPLE (over-refusal) ------------------------------------------------

SAMPLED = (
    "select t.{c:i} from {s:i}.{t:i} t tablesample bernoulli ({p}) repeatable ({seed}) "
    "order by 1"
)


def test_postgresql_samples_a_table_whose_columns_are_named_by_values(pg: Any) -> None:  # noqa: F811
    pg.execute("create table t22 (v int)")
    pg.execute("insert into t22 select generate_series(1, 3)")
    values = {"s": "ipy_istring_contexts", "t": "t22", "p": 100, "seed": 1}
    # (dialect="postgresql": DuckDB would read "s"."t" as a file when no table has that name)
    rows = pg.execute(*_render(SAMPLED, "format", "postgresql", c="v", **values)).fetchall()
    assert rows == [(1,), (2,), (3,)]
    text = "select t.{c:i} from t22 t tablesample system (100)"
    assert pg.execute(*_render(text, "format", None, c="v")).fetchall() == [(1,), (2,), (3,)]
    # t.ts_stat is no call of ts_stat(t) on a table's row: PostgreSQL finds no column.
    with pytest.raises(Exception, match=r"column t\.ts_stat does not exist"):
        pg.execute(*_render(text, "format", None, c="ts_stat"))
    # A function in the same FROM still makes its alias.name refused (the table's alias beside
    # it, t.{c:i}, is the table's row: accepted since the twenty-third pass, where it is run).
    with pytest.raises(RenderError, match="FROM calls a function"):
        _render(text.replace("t.{c:i}", "u.{c:i}") + ", unnest({xs}) u", "format", None, c="v",
                xs=[1])  # fmt: skip


# --- PostgreSQL: CREATE TRIGGER ... REFERENCING NEW TABLE AS -------------------------------

TRANSITION = (
    "create trigger {t:i} after insert on {x:i} referencing new table as {n:i} "
    "for each statement execute function chk22()"
)


def test_postgresql_trigger_reads_its_rows_as_the_table_a_value_names(pg: Any) -> None:  # noqa: F811
    pg.execute(
        "create function chk22() returns trigger language plpgsql as $$begin if exists "
        "(select 1 from w22 where v not in (select v from allowed22)) then raise exception "
        "'NOT ALLOWED'; end if; return null; end$$"
    )
    for table in ("allowed22", "w22"):
        pg.execute(f"create table {table} (v text)")
    pg.execute("insert into allowed22 values ('alice')")
    # The name written in the text (the trigger's name and table from values): refused.
    pg.execute(*_render(TRANSITION.replace("{n:i}", "newrows22"), "format", None,
                        t="tr22", x="w22"))  # fmt: skip
    with pytest.raises(Exception, match="NOT ALLOWED"):
        pg.execute("insert into w22 values ('mallory')")
    pg.execute("drop trigger tr22 on w22")
    # The positive control: with "allowed22" the check read the inserted rows as that table.
    pg.execute(_naive(TRANSITION, t="tr22", x="w22", n="allowed22"))
    pg.execute("insert into w22 values ('mallory')")
    assert pg.execute("select v from w22").fetchall() == [("mallory",)]
    for text in (TRANSITION, TRANSITION.replace("new table as", "old table")):
        refused_everywhere(_parts(text, t="tr22", x="w22", n="allowed22"),
                           "names a transition table of CREATE TRIGGER")  # fmt: skip


# --- DuckDB: a macro's parameter, an attached database's name (held) ------------------------


def test_duckdb_refuses_a_macro_parameter_named_like_a_column_of_its_body() -> None:
    db = duckdb.connect()
    db.execute("create table acl (name varchar, level int)")
    text = (
        "create macro ok22(who, {p:i}) as (select count(*) > 0 from acl where name = who "
        "and level > 5)"
    )
    with pytest.raises(duckdb.BinderException, match="Conflicting column names"):
        db.execute(*_render(text, "qmark", "duckdb", p="level"))
    db.execute(*_render(text, "qmark", "duckdb", p="bonus"))
    assert db.execute("select ok22('alice', 1)").fetchall() == [(False,)]


def test_duckdb_keeps_the_catalogs_schema_before_a_database_a_value_names(
    tmp_path: pathlib.Path,
) -> None:
    db = duckdb.connect()
    # (':l': DuckDB 1.x takes no parameter for ATTACH's path)
    db.execute(*_render("attach {p:l} as {d:i}", "qmark", "duckdb", p=str(tmp_path / "a.db"),
                        d="information_schema"))  # fmt: skip
    db.execute("create table information_schema.main.tables (table_name varchar)")
    with pytest.raises(duckdb.BinderException, match="Ambiguous reference"):
        db.execute("select table_name from information_schema.tables")
