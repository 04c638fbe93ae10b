"""The twelfth red-team pass over sql(): a value that names the function PostgreSQL creates.

* The eleventh pass refused the name of a macro DuckDB creates (DuckDB finds a macro before
  its own functions) and kept ``create function {f:i} (...)`` accepted for PostgreSQL, which
  searches pg_catalog first.  But PostgreSQL calls the *best match* among the functions of
  every schema on the search path, and an exact match beats one that needs a cast
  (CVE-2018-1058): ``create function {f:i} (a text, b text) returns text ...`` with
  ``f = "concat"`` made every later ``concat('a', 'b')`` of the database run the new body
  instead of ``pg_catalog.concat(VARIADIC "any")`` (the positive control below).  The same
  held for ``alter function ... rename to {f:i}`` and ``create aggregate {a:i} (text)`` named
  ``"count"`` (``count(x)`` of a text column ran it), and for ``"upper"(varchar)``.  The name
  of a function, procedure or aggregate that CREATE gives or ALTER ... RENAME TO gives is
  refused now when PostgreSQL may run the query, as DuckDB's macro's is.  A function named in
  the text, a parameter's name, ``drop function {f:i}`` and ``alter table ... rename to
  {t:i}`` stay accepted (``alter function {f:i} (...) owner to``, accepted here, is refused
  since the fifteenth pass: it gave a role the catalog's pg_read_file; the case is kept in
  tests/test_sql_fifteenth_pass.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which the tests ask for
from test_sql_tenth_pass import POSTGRESQL, T, field, refused_everywhere

from ipy_istring.sql import sql

ROUTINE = r"\{f:i\} names the function PostgreSQL creates or renames"

ROUTINE_NAMED = [
    ("create function ", field("concat", "f", "i"),
     " (a text, b text) returns text language sql as 'select ''body'''"),
    ("create or replace function ", field("concat", "f", "i"),
     " (a text, b text) returns text language sql as 'select ''body'''"),
    ("create function ipy_istring_contexts.", field("concat", "f", "i"),
     " (a text, b text) returns text language sql as 'select ''body'''"),
    ("create function ", field("upper", "f", "i"),
     " (a varchar) returns text language sql as 'select ''body'''"),
    ("create aggregate ", field("count", "f", "i"),
     " (text) (sfunc = textcat, stype = text, initcond = 'body')"),
    ("create procedure ", field("p", "f", "i"), " () language sql as 'select 1'"),
    ("alter function f(text, text) rename to ", field("concat", "f", "i"), ""),
    ("alter aggregate rw(text) rename to ", field("count", "f", "i"), ""),
    ("alter routine f(text, text) rename to ", field("concat", "f", "i"), ""),
    ("alter procedure p() rename to ", field("q", "f", "i"), ""),
    ("explain create function ", field("concat", "f", "i"),
     " (a text, b text) returns text language sql as 'select 1'"),
]  # fmt: skip

LOOK_ALIKES = [
    ("create function f (", field("a", "f", "i"),
     " text) returns text language sql as 'select 1'"),
    ("create function f (a text) returns text language sql as 'select 1'; select ",
     field("v", "f", "i"), " from t"),
    ("drop function if exists ", field("concat", "f", "i"), " (text, text)"),
    ("alter table t rename to ", field("t2", "f", "i"), ""),
    ("alter table t rename column v to ", field("w", "f", "i"), ""),
    ("create table ", field("concat", "f", "i"), " (a text)"),
    ("select concat(", field("v", "f", "i"), ", 'b') from t"),
]  # fmt: skip


@pytest.mark.parametrize("parts", ROUTINE_NAMED)
def test_a_function_named_by_a_value_is_refused_where_postgresql_runs(
    parts: tuple[Any, ...],
) -> None:
    refused_everywhere(parts, ROUTINE)


@pytest.mark.parametrize("parts", LOOK_ALIKES)
def test_function_look_alikes_are_accepted(parts: tuple[Any, ...]) -> None:
    for paramstyle, dialect in POSTGRESQL:
        sql(T(*parts), paramstyle, dialect=dialect)


def _calls(db: Any) -> tuple[Any, ...]:
    """What a user's later calls of built-ins give, on text and varchar columns."""
    db.execute("drop table if exists t")
    db.execute("create table t (v text, w varchar)")
    db.execute("insert into t values ('a', 'x')")
    ((concat, upper),) = db.execute("select concat(v, 'b'), upper(w) from t").fetchall()
    ((count,),) = db.execute("select count(v) from t").fetchall()
    return concat, count, upper


@pytest.mark.parametrize(
    ("setup", "parts", "called"),
    [
        ((), ROUTINE_NAMED[0], ("body", 1, "X")),
        ((), ROUTINE_NAMED[3], ("ab", 1, "body")),
        ((), ROUTINE_NAMED[4], ("ab", "bodya", "X")),
        (("create function f(a text, b text) returns text language sql as 'select ''body'''",),
         ROUTINE_NAMED[6], ("body", 1, "X")),
    ],
)  # fmt: skip
def test_postgresql_calls_a_function_a_value_named_instead_of_its_own(
    request: pytest.FixtureRequest,
    setup: tuple[str, ...],
    parts: tuple[Any, ...],
    called: tuple[Any, ...],
) -> None:
    """The positive control: the query sql() wrote before this pass (the value as a quoted
    identifier), run as it is, made the user's later calls of a built-in run its body."""
    db = request.getfixturevalue("pg")
    assert _calls(db) == ("ab", 1, "X")  # (the built-ins, before)
    for statement in setup:
        db.execute(statement)
    query = "".join(p if isinstance(p, str) else f'"{p.value}"' for p in parts)
    db.execute(query)
    assert _calls(db) == called
    refused_everywhere(parts, ROUTINE)


@pytest.mark.parametrize("parts", LOOK_ALIKES)
def test_function_look_alikes_run_and_leave_the_built_ins_alone(
    request: pytest.FixtureRequest, parts: tuple[Any, ...]
) -> None:
    db = request.getfixturevalue("pg")
    db.execute("create table t (v text)")
    db.execute("create function f(a text, b text) returns text language sql as 'select a'")
    db.execute(*sql(T(*parts), "format"))
    assert _calls(db) == ("ab", 1, "X")
