"""The twenty-first red-team pass over sql(): the types PostgreSQL binds functions to, the
event an event trigger runs on, and the options of DuckDB's table functions and EXPORT
DATABASE.

Holes, each with its positive control below:

* PostgreSQL's ``CREATE OPERATOR CLASS ... DEFAULT FOR TYPE {t:i} USING {am:i}``: a default
  operator class is what later ORDER BY, DISTINCT and joins on the type use.  With ``"point"``,
  which had none (count(distinct p) was refused), a later ``count(distinct p)`` ran the class's
  comparison function.  PostgreSQL looks the class's operators up for the type, but a
  support function may take ``internal`` or ``anyelement``, and the access method says what
  each function is for (hash or btree), so no choice is provably harmless.  Refused: every
  field but the class's own name; also ``ALTER OPERATOR FAMILY {f:i} ... ADD`` (its new name
  and owner stay accepted).
* PostgreSQL's ``CREATE TRANSFORM FOR {t:i} LANGUAGE ...``: the transform's functions run for
  every later routine declared ``TRANSFORM FOR TYPE`` of the type.  With ``"int4"``, a later
  routine written ``transform for type int4`` bound it (pg_proc.protrftypes).  No procedural
  language that calls transforms is installed here (plpython3u, plperl), so that its code runs
  is not shown; no transform can be proven harmless, so the field is refused.
* PostgreSQL's ``CREATE EVENT TRIGGER et ON {e:i}``: the event says which later commands, of
  every role, run the trigger's function.  With ``"sql_drop"`` a later CREATE TABLE ran
  nothing; with ``"ddl_command_start"`` it ran the function.  Refused (the trigger's name
  stays accepted).
* DuckDB's named options of a table function in FROM, ``read_csv({p}, {k:i} = true)`` (also
  ``:=``, ``=>``, read_parquet, read_json, after JOIN, LATERAL, USING, and after CALL, PIVOT
  and UNPIVOT, which run a table function too): with ``"store_rejects"`` read_csv wrote the
  tables reject_errors and reject_scans into the database (DuckDB 2.0 and 1.5 alike).  An
  extension's table function may take any option, so no name is provably harmless: refused.
  Options' values stay fields, and a comparison in a scalar call stays accepted
  (``count_if({c:i} = 1)``, ``struct_pack({k:i} := 1)``).
* DuckDB's ``EXPORT DATABASE {p:l} (...)`` takes COPY's options per table: with
  ``per_thread_output true`` written and ``"overwrite"`` from a value, it deleted a file that
  was already in ``out/t.csv/``.  Refused: an option's name from a value beside an option
  written in the text that does more than shape the files' content, or beside another
  option named by a value.  One such name beside content options (``format``,
  ``compression``...) stays accepted, as the eleventh pass showed ``"overwrite"`` there
  replaces only the files EXPORT writes.

Over-refusal fixed: DuckDB's ``select histogram({c:i}) from {t:i}`` was refused as the table
macro histogram(), which reads its source through query_table().  In an expression DuckDB
finds only the aggregate histogram() (``histogram('t', c)`` found "histogram(arg, bins)"), so
it is accepted there and run; in FROM the macro stays refused (the thirteenth pass's test).

Attacks tried that held (kept as regression tests): PostgreSQL's ``CREATE CAST ({a:i} AS
{b:i}) WITH FUNCTION f(text)``: PostgreSQL checks the types against the function's argument
and result (``"int8"`` for a function returning int4 was refused), so the value chooses only
among the types the text's function converts (earlier passes keep these fields accepted);
``create default conversion ... for {a:l} to {b:l} from f``: the conversion function checks
the encodings it is made for, so another pair was refused ("expected source encoding");
``order by x using {o:i}``: a quoted name is no operator (a syntax error); SQLite's full-text
tables read an option's name only as a bare word (``fts4(a, "compress"=f)`` is an unrecognized
parameter, ``fts5(a, "content"='t')`` a parse error), so a value cannot name ``compress=`` or
``content=``; DuckDB refuses to detach its default database (``detach "memory"``).
"""

from __future__ import annotations

import pathlib
import sqlite3
from collections.abc import Iterator
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture the tests ask for
from test_sql_nineteenth_pass import _parts, _render
from test_sql_tenth_pass import refused_everywhere
from test_sql_twentieth_pass import DUCKDB, _superuser

from ipy_istring.fields import RenderError

Superuser = tuple[Any, list[str]]  # a superuser's connection, and the notices it got


@pytest.fixture
def superuser(pg: Any) -> Iterator[Superuser]:  # noqa: F811
    """``pg`` and the notices it gets, where the tests need a superuser (casts of built-in
    types, event triggers)."""
    if not _superuser(pg):
        pytest.skip("needs a superuser: built-in types belong to the bootstrap superuser")
    notices: list[str] = []
    pg.add_notice_handler(lambda diagnostic: notices.append(diagnostic.message_primary))
    yield pg, notices


def _naive(text: str, **values: str) -> str:
    """The query sql() wrote before this pass: each ':i' field as a quoted name."""
    for name, value in values.items():
        text = text.replace(f"{{{name}:i}}", f'"{value}"')
    return text


# --- PostgreSQL: CREATE CAST (held) --------------------------------------------------------


def test_postgresql_binds_a_cast_only_to_the_types_its_function_takes(superuser: Superuser) -> None:
    """PostgreSQL checks a cast's types against the cast function's argument and result
    types.  (This pass kept them values; the twenty-second pass refuses them: a type binary
    coercible to the function's, "varchar" for text, made '7'::varchar::int4 run it.)"""
    db, _ = superuser
    db.execute("create function mark21(text) returns int4 language sql immutable as 'select 4242'")
    text = "create cast ({a:i} as {b:i}) with function mark21(text)"
    for a, b, error in [("text", "int8", "return data type of cast function must match"),
                        ("int8", "int4", "argument of cast function must match")]:  # fmt: skip
        with pytest.raises(Exception, match=error):
            db.execute(_naive(text, a=a, b=b))
    # The types the function converts: the cast is the text's function's.
    db.execute(_naive(text, a="text", b="int4"))
    try:
        assert db.execute("select '7'::text::int4").fetchall() == [(4242,)]
    finally:
        db.execute("drop cast if exists (text as int4)")
    refused_everywhere(_parts(text, a="text", b="int4"), "is in CREATE CAST")


# --- PostgreSQL: CREATE OPERATOR CLASS, ALTER OPERATOR FAMILY ------------------------------

OPERATOR_CLASS = (
    "create operator class oc21 default for type {t:i} using btree as operator 1 <<<, "
    "operator 3 ===, function 1 cmp21(point, point)"
)
OPERATOR_CLASSES = [
    OPERATOR_CLASS,
    "create operator class oc21 default for type point using {t:i} as operator 1 <<<",
    "create operator class oc21 for type point using btree family {t:i} as operator 1 <<<",
    "create operator class oc21 for type point using btree as function 1 cmp21({t:i}, point)",
    "alter operator family {t:i} using btree add operator 1 < (int4, int8)",
    "alter operator family f21 using btree add operator 1 < ({t:i}, int8)",
]


def _point_operators(db: Any) -> None:
    """Operators on point for a btree class whose comparison function says it ran."""
    db.execute("create table pts21 (p point)")
    db.execute("insert into pts21 values (point(1, 2)), (point(0, 0))")
    db.execute(
        "create function lt21(point, point) returns bool language sql as 'select $1[0] < $2[0]'"
    )
    db.execute(
        "create function eq21(point, point) returns bool language sql as 'select $1[0] = $2[0]'"
    )
    db.execute(
        "create function cmp21(point, point) returns int language plpgsql as "
        "$$begin raise notice 'CLASS RAN'; return 0; end$$"
    )
    db.execute("create operator <<< (leftarg = point, rightarg = point, procedure = lt21)")
    db.execute("create operator === (leftarg = point, rightarg = point, procedure = eq21)")


def test_postgresql_uses_the_default_operator_class_a_value_chooses(superuser: Superuser) -> None:
    db, notices = superuser
    _point_operators(db)
    later = "select count(distinct p) from pts21"
    with pytest.raises(Exception, match="could not identify an equality operator"):
        db.execute(later)
    # The positive control: the query sql() wrote before this pass, run as it is.
    db.execute(_naive(OPERATOR_CLASS, t="point"))
    assert db.execute(later).fetchall() == [(2,)]
    assert "CLASS RAN" in notices
    for text in OPERATOR_CLASSES:
        refused_everywhere(_parts(text, t="point"), "is in CREATE TRANSFORM, CREATE OPERATOR")
    # The class's own name, and an operator family's new name, stay values (and run).
    kept = OPERATOR_CLASS.replace("oc21 default", "{n:i}").replace("{t:i}", "point")
    db.execute(*_render(kept, "format", None, n="oc21b"))
    db.execute("create operator family f21 using btree")
    db.execute(*_render("alter operator family f21 using btree rename to {n:i}", "format",
                        None, n="f21b"))  # fmt: skip


# --- PostgreSQL: CREATE TRANSFORM ----------------------------------------------------------

TRANSFORMS = [
    "create transform for {t:i} language sql (from sql with function tr21(internal))",
    "create or replace transform for {t:i} language sql (from sql with function tr21(internal))",
]


def test_postgresql_binds_later_routines_to_the_transform_a_value_types(
    superuser: Superuser,
) -> None:
    db, _ = superuser
    db.execute(
        "create function tr21(internal) returns internal language internal immutable strict "
        "as 'textregexeq_support'"
    )
    written = (
        "create function f21(int) returns int language sql transform for type int4 as "
        "'select 1'"
    )
    with pytest.raises(Exception, match='transform for type integer language "sql" does not'):
        db.execute(written)
    # The positive control: with the type the value names, a later routine that the text
    # writes TRANSFORM FOR TYPE int4 binds the transform's functions.
    db.execute(_naive(TRANSFORMS[0], t="int4"))
    try:
        db.execute(written)
        bound = "select protrftypes::regtype[]::text from pg_proc where proname = 'f21'"
        assert db.execute(bound).fetchall() == [("{integer}",)]
    finally:
        db.execute("drop transform if exists for int4 language sql cascade")
    for text in TRANSFORMS:
        refused_everywhere(_parts(text, t="int4"), "is in CREATE TRANSFORM, CREATE OPERATOR")


# --- PostgreSQL: CREATE EVENT TRIGGER ------------------------------------------------------


def test_postgresql_runs_an_event_trigger_on_the_event_a_value_names(superuser: Superuser) -> None:
    db, notices = superuser
    db.execute(
        "create function et21() returns event_trigger language plpgsql as "
        "$$begin raise notice 'EVENT RAN %', tg_tag; end$$"
    )
    text = "create event trigger {n:i} on {e:i} execute function et21()"
    try:
        db.execute(_naive(text, n="et21", e="sql_drop"))
        db.execute("create table a21 (x int)")
        assert "EVENT RAN CREATE TABLE" not in notices
        db.execute("drop event trigger et21")
        # The positive control: another event, and the same later command runs the function.
        db.execute(_naive(text, n="et21", e="ddl_command_start"))
        db.execute("create table b21 (x int)")
        assert "EVENT RAN CREATE TABLE" in notices
    finally:
        db.execute("drop event trigger if exists et21")
    refused_everywhere(_parts(text, n="et21", e="ddl_command_start"), "names the event of")
    # The trigger's name stays a value (and runs).
    kept = text.replace("{e:i}", "sql_drop")
    try:
        db.execute(*_render(kept, "format", None, n="et21b"))
    finally:
        db.execute("drop event trigger if exists et21b")


# --- PostgreSQL: held ----------------------------------------------------------------------


def test_postgresql_conversion_functions_check_their_encodings(pg: Any) -> None:  # noqa: F811
    text = "create default conversion {n:i} for {a:l} to {b:l} from iso8859_1_to_utf8"
    pg.execute(*_render(text, "format", None, n="cv21", a="LATIN1", b="UTF8"))
    with pytest.raises(Exception, match='expected source encoding "LATIN1"'):
        pg.execute(*_render(text, "format", None, n="cv21b", a="LATIN2", b="UTF8"))


def test_postgresql_order_by_using_reads_no_operator_from_a_name(pg: Any) -> None:  # noqa: F811
    pg.execute("create table o21 (x int)")
    for value in ("<", ">", "int4"):
        query = _render("select x from o21 order by x using {o:i}", "format", None, o=value)
        with pytest.raises(Exception, match="syntax error"):
            pg.execute(*query)


# --- DuckDB: a table function's option names -----------------------------------------------

OPTION_NAMES = [
    "select * from read_csv({p}, {k:i} = true, columns = {'a': 'int', 'b': 'varchar'})",
    "select * from read_csv({p}, {k:i} := true, columns = {'a': 'int', 'b': 'varchar'})",
    "select * from read_csv({p}, columns = {'a': 'int', 'b': 'varchar'}, {k:i} => true)",
    "call read_csv({p}, {k:i} = true, columns = {'a': 'int', 'b': 'varchar'})",
    "pivot read_csv({p}, {k:i} = true, columns = {'a': 'int', 'b': 'varchar'}) on b using "
    "count(*)",
    "unpivot read_csv({p}, {k:i} = true, columns = {'a': 'int', 'b': 'varchar'}) on b into "
    "name k value v",
    "from t21 join read_csv({p}, {k:i} = true) using (a)",
    "delete from t21 using read_csv({p}, {k:i} = true) r where r.a = t21.a",
    "select * from t21, lateral read_json({p}, {k:i} = true)",
    "select * from read_parquet({p}, {k:i} = true)",
    "create table u21 as from read_csv({p}, {k:i} = true)",
]


def _csv(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "d.csv"
    path.write_text("a,b\n1,x\n2,y\nzz,3\n")
    return str(path)


def _tables(connection: Any) -> list[str]:
    rows = connection.execute("select table_name from duckdb_tables()").fetchall()
    return sorted(row[0] for row in rows)


@pytest.mark.parametrize("text", OPTION_NAMES[:6])
def test_duckdb_writes_the_tables_an_option_a_value_names_asks_for(
    tmp_path: pathlib.Path, text: str
) -> None:
    connection = duckdb.connect()
    path = _csv(tmp_path)
    # The positive control: the query sql() wrote before this pass, run as it is.
    # (the path written as a literal: PIVOT takes no parameter)
    naive = _naive(text, k="store_rejects").replace("{p}", f"'{path}'")
    connection.execute(naive).fetchall()
    assert _tables(connection) == ["reject_errors", "reject_scans"]
    for paramstyle, dialect in DUCKDB:
        with pytest.raises(RenderError, match="names an option of a table function"):
            _render(text, paramstyle, dialect, p=path, k="store_rejects")


@pytest.mark.parametrize("text", OPTION_NAMES[6:])
def test_duckdb_option_names_are_refused_in_every_from(text: str) -> None:
    for paramstyle, dialect in DUCKDB:
        with pytest.raises(RenderError, match="names an option of a table function"):
            _render(text, paramstyle, dialect, p="d.csv", k="store_rejects")


def test_duckdb_keeps_option_values_and_comparisons(tmp_path: pathlib.Path) -> None:
    """Accepted and run: options' values as fields, a comparison and a struct's field names
    in scalar calls, column names beside a table function."""
    connection = duckdb.connect()
    path = _csv(tmp_path)
    for text, values, expected in [
        ("select * from read_csv({p}, header = {h:l}, all_varchar = {v:l}) where {c:i} = {x}",
         {"h": True, "v": True, "c": "a", "x": "zz"}, [("zz", "3")]),
        ("select count_if({c:i} = 'zz') from read_csv({p}, all_varchar = true)",
         {"c": "a"}, [(1,)]),
        ("select struct_pack({k:i} := 1) as s", {"k": "store_rejects"}, [({"store_rejects": 1},)]),
        ("select {c:i} from read_csv({p}, delim = {d:l}, all_varchar = true) order by 1 limit 1",
         {"c": "b", "d": ","}, [("3",)]),
    ]:  # fmt: skip
        query = _render(text, "qmark", "duckdb", p=path, **values)
        assert connection.execute(*query).fetchall() == expected
    assert _tables(connection) == []


# --- DuckDB: histogram() in an expression is the aggregate ---------------------------------


def test_duckdb_histogram_in_an_expression_is_the_aggregate(tmp_path: pathlib.Path) -> None:
    connection = duckdb.connect()
    connection.execute("create table h21 (c int)")
    connection.execute("insert into h21 values (1), (1), (2)")
    for text in ("select histogram({c:i}) from {t:i}",
                 "select histogram({c:i}) from {t:i} having count(*) > {n}"):  # fmt: skip
        for paramstyle, dialect in DUCKDB:
            if paramstyle != "qmark":
                continue
            query = _render(text, paramstyle, dialect, c="c", t="h21", n=0)
            assert connection.execute(*query).fetchall() == [({1: 2, 2: 1},)]
    # In FROM it is the table macro, which reads through query_table(): still refused.
    secret = tmp_path / "secret.csv"
    for text in ("from histogram({p}, c)", "select (from histogram({p}, c))",
                 "select * from h21 where c in (select 1 from histogram({p}, c))"):  # fmt: skip
        for paramstyle, dialect in DUCKDB:
            with pytest.raises(RenderError, match="argument of histogram"):
                _render(text, paramstyle, dialect, p=str(secret))


# --- DuckDB: EXPORT DATABASE's options -----------------------------------------------------

# The options written before and after "{k:i} true" in EXPORT DATABASE's list.
EXPORT_BESIDE = [("format csv, per_thread_output true, ", ""), ("", ", per_thread_output true"),
                 ("{j:i} true, ", ""), ("partition_by (a), ", ""), ("overwrite true, ", "")]
EXPORT_OPTIONS = [f"export database {{p:l}} ({a}{{k:i}} true{b})" for a, b in EXPORT_BESIDE]


def test_duckdb_export_deletes_files_beside_a_directory_option(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "out"
    (out / "t.csv").mkdir(parents=True)
    (out / "t.csv" / "marker.txt").write_text("the user's")
    connection = duckdb.connect()
    connection.execute("create table t (a int)")
    connection.execute("insert into t values (1)")
    # The positive control: the query sql() wrote before this pass, run as it is.
    naive = _naive(EXPORT_OPTIONS[0], k="overwrite").replace("{p:l}", f"'{out}'")
    connection.execute(naive)
    assert not (out / "t.csv" / "marker.txt").exists()
    for text in EXPORT_OPTIONS:
        for paramstyle, dialect in DUCKDB:
            with pytest.raises(RenderError, match="names an option of EXPORT DATABASE"):
                _render(text, paramstyle, dialect, p=str(out), j="per_thread_output",
                        k="overwrite")  # fmt: skip


def test_duckdb_export_keeps_one_option_a_value_names(tmp_path: pathlib.Path) -> None:
    """One option's name beside options that shape the files' content stays accepted (the
    eleventh pass): "overwrite" there replaced only the files EXPORT writes."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "marker.txt").write_text("the user's")
    connection = duckdb.connect()
    connection.execute("create table t (a int)")
    for text in ("export database {p:l} (format parquet, compression zstd, {k:i} true)",
                 "export database {p:l} ({k:i} true)"):  # fmt: skip
        connection.execute(*_render(text, "qmark", "duckdb", p=str(out), k="overwrite"))
    assert (out / "marker.txt").read_text() == "the user's"
    assert (out / "t.parquet").exists() and (out / "t.csv").exists()


# --- SQLite: a full-text table's option names (held) ---------------------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("create virtual table v21 using fts4(a, {k:i}=mark21, uncompress=mark21)",
         "unrecognized parameter"),
        ("create virtual table v21 using fts4(a, {k:l}=mark21, uncompress=mark21)",
         "unrecognized parameter"),
        ("create virtual table v21 using fts5(a, {k:i}='docs21')", "parse error"),
    ],
)  # fmt: skip
def test_sqlite_full_text_tables_read_no_quoted_option_name(text: str, error: str) -> None:
    """FTS4's compress= names a function it calls on every document, and FTS5's content= the
    table it reads, but only as a bare word: the quoted name sql() writes is unrecognized."""
    connection = sqlite3.connect(":memory:")
    calls: list[str] = []
    connection.create_function("mark21", 1, lambda x: calls.append(x) or x)
    connection.execute("create table docs21 (a)")
    # the bare word, written in the text, is the option (and the function runs)
    connection.execute("create virtual table c21 using fts4(a, compress=mark21, uncompress=mark21)")
    connection.execute("insert into c21 values ('doc')")
    assert calls == ["doc"]
    k = "compress" if "fts4" in text else "content"
    with pytest.raises(sqlite3.OperationalError, match=error):
        connection.execute(*_render(text, "qmark", "sqlite", k=k))


def test_duckdb_refuses_to_detach_its_default_database() -> None:
    connection = duckdb.connect()
    with pytest.raises(duckdb.Error, match="default database"):
        connection.execute(*_render("detach {d:i}", "qmark", "duckdb", d="memory"))
