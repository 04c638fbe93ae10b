"""The seventh red-team pass over sql(): contexts where an accepted value still chose code.

Each hole is reproduced on the real database first (the positive control: the query as an
f-string writes it, or as sql() rendered it before the fix, runs the payload), then refused:

* a setting named after SET beyond the statement's first eight words, or after its second SET
  (``alter function f() called on null input ... set dynamic_library_path = {p:l}``,
  ``alter function f() set work_mem = '1MB' set dynamic_library_path = {p:l}``): PostgreSQL
  ran the function with the value as its library path;
* a dotted setting in CREATE FUNCTION ... SET (``set plperl.on_plperl_init = {code:l}``), whose
  first word alone was read;
* a word ``index`` anywhere in the statement's head made every ``on {f:i} (...)`` the table of
  CREATE INDEX rather than a call (``select "index" ... join t u on {f:i} ({q}, ...)``);
* contrib functions that write a text argument unquoted into the SQL they run: xml2's
  ``xpath_table()``, dblink's ``dblink_fetch()``/``dblink_close()``, refint's
  ``check_primary_key()``/``check_foreign_key()``;
* DuckDB's ``pragma_database_list`` view as a ``:i`` table (the attached databases' files),
  which only SQLite's reading refused.

The PostgreSQL tests use the ``pg`` fixture of tests/test_sql_contexts.py (a fresh schema).
"""

from __future__ import annotations

import os
import sqlite3
from typing import Any

import duckdb
import pytest
from test_sql_contexts import pg  # noqa: F401  # the fixture, which db below asks for

from ipy_istring.fields import RenderError
from ipy_istring.sql import _CODE_CALLS, sql
from ipy_istring.template import Interpolation, InterpolationTemplate

T = InterpolationTemplate
# Where PostgreSQL may run a query: its drivers' paramstyles, and any style with its dialect.
POSTGRESQL = (("format", None), ("pyformat", None), ("dollar", None), ("qmark", "postgresql"))


@pytest.fixture
def db(request: pytest.FixtureRequest) -> Any:
    """A PostgreSQL connection in a fresh schema: tests/test_sql_contexts.py's ``pg``."""
    return request.getfixturevalue("pg")


def field(value: object, expression: str = "x", spec: str = "") -> Interpolation:
    return Interpolation(value, expression, None, spec)


def refused_everywhere(parts: tuple[Any, ...], why: str, styles: Any = POSTGRESQL) -> None:
    for paramstyle, dialect in styles:
        with pytest.raises(RenderError, match=why):
            sql(T(*parts), paramstyle, dialect=dialect)


# --- SET after the statement's first eight words, or its second SET. ------------------------

LONG_ALTER = "alter function f() called on null input security invoker"
CODE_SETTING = "sets where the database loads its libraries"
SETTING_NAMED = "names the setting to change"


@pytest.mark.parametrize(
    ("parts", "why"),
    [
        ((LONG_ALTER + " set dynamic_library_path = ", field("/tmp/a", spec="l")), CODE_SETTING),
        ((LONG_ALTER + " set ", field("dynamic_library_path", spec="i"), " = '/tmp/a'"),
         SETTING_NAMED),
        (("alter procedure public.p(int) strict stable parallel safe cost 5 reset all set "
          "session_preload_libraries to ", field("x", spec="l")), CODE_SETTING),
        # ALTER FUNCTION takes several SET clauses: each names a setting of its own.
        (("alter function f() set work_mem = '1MB' set dynamic_library_path = ",
          field("/tmp/a", spec="l")), CODE_SETTING),
        (("alter function f() set work_mem = '1MB' set ", field("dynamic_library_path", spec="i"),
          " = '/tmp/a'"), SETTING_NAMED),
        (("alter routine f() set search_path = public set plperl.", field("on_plperl_init",
          spec="i"), " = 'x'"), SETTING_NAMED),
        # ALTER ROLE ... IN DATABASE ... SET: the dotted name's second word is the ninth.
        (("alter role all in database d set plperl.on_plperl_init = ", field("x", spec="l")),
         CODE_SETTING),
        # a setting that loads code makes every field of the query a refusal
        ((LONG_ALTER + " set dynamic_library_path = '/tmp/a'; select ", field(1)),
         "is in a query that sets where the database loads"),
        # CREATE FUNCTION ... SET reads a dotted setting's whole name
        (("create function f() returns int language sql set plperl.on_plperl_init = ",
          field("x", spec="l"), " as $$ select 1 $$"), "is in a query that sets where"),
        (("create function f() returns int language sql set pltcl.start_proc = ",
          field("x", spec="l"), " as $$ select 1 $$"), "is in a query that sets where"),
        (("create function f() returns int language sql set plperl.", field("on_init", spec="i"),
          " = 'x' as $$ select 1 $$"), SETTING_NAMED),
    ],
)  # fmt: skip
def test_a_setting_after_a_long_head_or_a_second_set_is_refused(
    parts: tuple[Any, ...], why: str
) -> None:
    refused_everywhere(parts, why)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ((LONG_ALTER + " set work_mem = ", field("8MB", spec="l")),
         LONG_ALTER + " set work_mem = '8MB'"),
        (("alter function f() set work_mem = '1MB' set application_name to ", field("s", spec="i")),
         "alter function f() set work_mem = '1MB' set application_name to \"s\""),
        (("alter table only public.t alter column v set default ", field("a", spec="l")),
         "alter table only public.t alter column v set default 'a'"),
        (("alter table only public.t alter column id set data type pg_catalog.",
          field("int8", spec="i")),
         'alter table only public.t alter column id set data type pg_catalog."int8"'),
        (("alter table only public.t alter column library set default ", field(1, spec="l")),
         "alter table only public.t alter column library set default 1"),
        (("alter role all in database d set work_mem = ", field("8MB", spec="l")),
         "alter role all in database d set work_mem = '8MB'"),
        (("create function f() returns int language sql set work_mem = '1MB' set statement_"
          "timeout = ", field(5, spec="l"), " as $$ select 1 $$"),
         "create function f() returns int language sql set work_mem = '1MB' set "
         "statement_timeout = 5 as $$ select 1 $$"),
        (("create function f() returns int language sql begin atomic update t set v = ",
          field("a", spec="l"), "; end"),
         "create function f() returns int language sql begin atomic update t set v = 'a'; end"),
    ],
)  # fmt: skip
def test_settings_and_set_clauses_that_stay_accepted(parts: tuple[Any, ...], expected: str) -> None:
    for paramstyle, dialect in POSTGRESQL:
        assert sql(T(*parts), paramstyle, dialect=dialect).sql.replace("%%", "%") == expected


def test_postgresql_alter_function_sets_a_setting_after_other_actions(db: Any) -> None:
    """ALTER FUNCTION ... <actions> SET name = value, and its second SET, set the setting
    whenever the function runs: the positive control's function ran with
    dynamic_library_path at the value (sql() rendered these before the fix).  sql() refuses
    them; a plain setting's value stays accepted and runs."""
    db.execute(
        "create function f() returns text language sql as "
        "$$ select current_setting('dynamic_library_path') || ' ' || current_setting('work_mem') $$"
    )
    for naive in (
        LONG_ALTER + " set dynamic_library_path = '/tmp/attacker'",
        "alter function f() set work_mem = '1MB' set dynamic_library_path = '/tmp/attacker'",
        LONG_ALTER + " set \"dynamic_library_path\" = '/tmp/attacker'",
    ):
        db.execute("alter function f() reset all")
        db.execute(naive)  # the positive control
        assert db.execute("select f()").fetchone()[0].startswith("/tmp/attacker ")
    db.execute("alter function f() reset all")
    for parts in (
        (LONG_ALTER + " set dynamic_library_path = ", field("/tmp/attacker", spec="l")),
        ("alter function f() set work_mem = '1MB' set dynamic_library_path = ",
         field("/tmp/attacker", spec="l")),
        (LONG_ALTER + " set ", field("dynamic_library_path", spec="i"), " = '/tmp/attacker'"),
    ):  # fmt: skip
        with pytest.raises(RenderError, match=f"{CODE_SETTING}|{SETTING_NAMED}"):
            sql(T(*parts), "format")
    kept = (LONG_ALTER + " set work_mem = ", field("8MB", spec="l"))
    db.execute(*sql(T(*kept), "format"))
    assert db.execute("select f()").fetchone()[0].endswith(" 8MB")


def test_postgresql_create_function_sets_a_dotted_setting(db: Any) -> None:
    """CREATE FUNCTION ... SET plperl.on_plperl_init = '<code>' sets PL/Perl's start-up code
    whenever the function runs (by PostgreSQL's manual, the interpreter runs it when it
    starts): the positive control's function ran with the setting at the value.  Only the
    name's first word, ``plperl``, was read; sql() now reads the dotted name whole."""
    db.execute(
        "create function f() returns text language sql set plperl.on_plperl_init = "
        "'system(q{id})' as $$ select current_setting('plperl.on_plperl_init') $$"
    )
    assert db.execute("select f()").fetchall() == [("system(q{id})",)]
    db.execute("drop function f")
    for parts in (
        ("create function f() returns text language sql set plperl.on_plperl_init = ",
         field("system(q{id})", spec="l"), " as $$ select 1 $$"),
        ("create function f() returns text language sql set plperl.",
         field("on_plperl_init", spec="i"), " = 'system(q{id})' as $$ select 1 $$"),
    ):  # fmt: skip
        with pytest.raises(RenderError, match=r"sets where the database loads|names the setting"):
            sql(T(*parts), "format")


# --- ON after a word "index" anywhere: only CREATE INDEX's ON names a table. ------------------


def test_postgresql_a_column_named_index_no_longer_hides_the_function_called(db: Any) -> None:
    """``on {f:i} (...)`` was read as CREATE INDEX's table whenever the word ``index`` stood
    among the statement's first words, as a column or an alias (pandas' to_sql writes an
    "index" column): ``f = "query_to_xml"`` ran the value as SQL (the secret came back in the
    cast's error).  Only CREATE [UNIQUE] INDEX ... ON names a table now."""
    psycopg = pytest.importorskip("psycopg")
    db.execute('create table t ("index" int, v text, secret text)')
    db.execute("insert into t values (1, 'a', 's1')")
    head = 'select t."index" from t join t u on '
    # The positive control: what sql() rendered before the fix.
    with pytest.raises(psycopg.errors.InvalidTextRepresentation, match='"s1"'):
        db.execute(
            head + "\"query_to_xml\" (%s, true, false, '') is not null",
            ("select cast(secret as int) from t",),
        )
    parts = (head, field("query_to_xml", "f", "i"), " (", field("select cast(secret as int) "
             "from t"), ", true, false, '') is not null")  # fmt: skip
    refused_everywhere(parts, "is the name of the function called")
    refused_everywhere(
        ('select "index" from t as a join t as b on ', field("lower", "f", "i"), " (a.v) = b.v"),
        "is the name of the function called",
        (("qmark", None), ("dollar", None), ("format", None)),
    )
    # Look-alikes: CREATE INDEX's table, however the statement spells its options.
    for text in (
        "create index i1 on ",
        "create unique index i2 on ",
        "create index if not exists i3 on ",
        "create unique index if not exists i4 on ",
    ):
        db.execute(*sql(T(text, field("t", "t", "i"), " (v)"), "format"))
    assert db.execute(
        "select count(*) from pg_indexes where tablename = 't' and schemaname = current_schema()"
    ).fetchone() == (4,)


# --- Contrib functions that write a text argument, unquoted, into the SQL they run. ---------


def _extension(db: Any, name: str) -> None:
    available = db.execute("select 1 from pg_available_extensions where name = %s", (name,))
    if available.fetchone() is None:
        pytest.skip(f"PostgreSQL's {name} extension is not installed on this server")
    db.execute(f"create extension if not exists {name} schema ipy_istring_contexts")


def _secrets(db: Any) -> None:
    db.execute("create table t (id integer, v text, secret text)")
    db.execute("insert into t values (1, 'a', 's1'), (2, 'b', 's2')")


def test_postgresql_xpath_table_runs_sql_built_from_its_arguments(db: Any) -> None:
    """xml2's xpath_table(key, document, relation, xpaths, criteria) runs ``SELECT key,
    document FROM relation WHERE criteria`` with the arguments written in: a bound criteria
    of ``false union all select ... secret ...`` returned the secrets (sql() accepted it)."""
    _extension(db, "xml2")
    _secrets(db)
    db.execute("create table docs (id int, doc text)")
    db.execute("insert into docs values (1, '<a>hello</a>')")
    before = "select * from xpath_table('id', 'doc', 'docs', '/a', "
    after = ") as x(id int, a text) order by 1"
    criteria = "false union all select id, '<a>' || secret || '</a>' from t"
    leaked = db.execute(before + "%s" + after, (criteria,)).fetchall()  # the positive control
    assert leaked == [(1, "s1"), (2, "s2")]
    refused_everywhere(
        (before, field(criteria), after), r"is an argument of xpath_table\(\), and xml2's"
    )
    # Any field of a query that calls it: the value may reach it through a CTE.
    refused_everywhere(
        ("with c(q) as (select cast(", field(criteria), " as text)) select * from "
         "xpath_table('id', 'doc', 'docs', '/a', (select q from c)) as x(id int, a text)"),
        r"is in a query that calls xpath_table\(\)",
    )  # fmt: skip
    # Look-alikes: xml2's functions that read a document, and the name as a column.
    kept = ("select xpath_string(doc, '/a') from docs where id = ", field(1))
    assert db.execute(*sql(T(*kept), "format")).fetchall() == [("hello",)]
    kept = ("select 1 as xpath_table from docs where id = ", field(1))
    assert db.execute(*sql(T(*kept), "format")).fetchall() == [(1,)]


def test_postgresql_dblink_close_runs_the_cursor_name_as_sql(db: Any, postgres_dsn: str) -> None:
    """dblink_close(conn, cursor) sends ``CLOSE <cursor>`` and dblink_fetch ``FETCH n FROM
    <cursor>`` with the name as written: a cursor ``cur; create table pwned ()`` created the
    table on the linked server (here the same database), and ``CUR`` fetched from ``cur``
    (the name is folded like SQL text, not quoted)."""
    _extension(db, "dblink")
    schema = "ipy_istring_contexts"
    db.execute("select dblink_connect('k', %s)", (postgres_dsn,))
    try:
        db.execute("select dblink_open('k', 'cur', 'select 1')")
        fetched = db.execute("select * from dblink_fetch('k', %s, 1) as x(a int)", ("CUR",))
        assert fetched.fetchall() == [(1,)]  # FETCH 1 FROM CUR: the name is SQL text
        payload = f"cur; create table {schema}.pwned ()"
        db.execute("select dblink_close('k', %s)", (payload,))  # the positive control
        assert db.execute(
            "select count(*) from pg_tables where schemaname = %s and tablename = 'pwned'",
            (schema,),
        ).fetchone() == (1,)
    finally:
        db.execute("select dblink_disconnect('k')")
    refused_everywhere(
        ("select dblink_close('k', ", field(payload), ")"), r"is an argument of dblink_close\(\)"
    )
    refused_everywhere(
        ("select * from dblink_fetch('k', ", field("CUR"), ", 1) as x(a int)"),
        r"is an argument of dblink_fetch\(\)",
    )
    # Look-alike: a dblink call that takes its arguments as data.
    kept = ("select dblink_is_busy(", field("k"), ")")
    assert sql(T(*kept), "format").sql == "select dblink_is_busy(%s)"


def test_postgresql_refint_triggers_run_sql_built_from_their_arguments(db: Any) -> None:
    """refint's check_foreign_key(n, action, key..., table, column...) builds the DELETE it
    runs on cascade from its table argument: a trigger written with the table ``t --``
    (``{tbl:l}``, as sql() accepted it) emptied ``t`` when one row of ``a`` was deleted."""
    _extension(db, "refint")
    _secrets(db)
    db.execute("create table a (id int)")
    db.execute("insert into a values (1), (2)")
    trigger = (
        "create trigger tr before delete on a for each row execute procedure "
        "check_foreign_key(1, 'cascade', 'id', "
    )
    db.execute(trigger + "'t --', 'id')")  # the positive control
    db.execute("delete from a where id = 2")
    assert db.execute("select count(*) from t").fetchone() == (0,)  # both rows of t gone
    refused_everywhere(
        (trigger, field("t --", "tbl", "l"), ", 'id')"),
        r"is an argument of check_foreign_key\(\), and refint's",
    )
    refused_everywhere(
        ("create trigger tr before insert on a for each row execute procedure "
         "check_primary_key('id', ", field("t --", "tbl", "l"), ", 'id')"),
        r"is an argument of check_primary_key\(\)",
    )  # fmt: skip


# Contrib functions taking a text, name or cstring argument, read from the catalog of a database
# with every extension the server offers, and reviewed: each keeps its argument as data (a
# relation's name parsed as one, a document, a key, a file path the text names...) unless
# sql() refuses it (_CODE_CALLS).  A new contrib function gets looked at before a value
# reaches it.
CONTRIB_DATA = {
    # types' input functions, index support and operators
    "_intbig_in", "bqarr_in", "cube_in", "ean13_in", "gbt_text_consistent", "gbtreekey16_in",
    "gbtreekey2_in", "gbtreekey32_in", "gbtreekey4_in", "gbtreekey8_in", "gbtreekey_var_in",
    "ghstore_in", "gin_compare_prefix_name", "gin_compare_prefix_text", "gin_extract_query_name",
    "gin_extract_query_text", "gin_extract_query_trgm", "gin_extract_value_name",
    "gin_extract_value_text", "gin_extract_value_trgm", "gin_trgm_consistent",
    "gin_trgm_triconsistent", "gtrgm_consistent", "gtrgm_distance", "gtrgm_in", "hstore_in",
    "isbn13_in", "isbn_in", "ismn13_in", "ismn_in", "issn13_in", "issn_in", "lquery_in",
    "ltree_gist_in", "ltree_in", "ltxtq_in", "seg_in", "upc_in",
    # values: hstore, ltree, text similarity and phonetics, crypto, UUIDs, unaccent
    "defined", "delete", "exist", "exists_all", "exists_any", "fetchval", "hstore", "isdefined",
    "isexists", "slice", "slice_array", "tconvert", "ltree_addtext", "ltree_textadd",
    "text2ltree", "sort", "difference", "dmetaphone", "dmetaphone_alt", "levenshtein",
    "levenshtein_less_equal", "metaphone", "soundex", "text_soundex", "show_trgm",
    "similarity", "similarity_dist", "similarity_op", "strict_word_similarity",
    "strict_word_similarity_commutator_op", "strict_word_similarity_dist_commutator_op",
    "strict_word_similarity_dist_op", "strict_word_similarity_op", "word_similarity",
    "word_similarity_commutator_op", "word_similarity_dist_commutator_op",
    "word_similarity_dist_op", "word_similarity_op", "armor", "dearmor", "crypt", "decrypt",
    "decrypt_iv", "digest", "encrypt", "encrypt_iv", "gen_salt", "hmac", "pgp_armor_headers",
    "pgp_pub_decrypt", "pgp_pub_decrypt_bytea", "pgp_pub_encrypt", "pgp_pub_encrypt_bytea",
    "pgp_sym_decrypt", "pgp_sym_decrypt_bytea", "pgp_sym_encrypt", "pgp_sym_encrypt_bytea",
    "uuid_generate_v3", "uuid_generate_v5", "unaccent", "ssl_client_dn_field",
    "ssl_issuer_field",
    # xml2: XPath over a document; xslt_process's libxslt is set to refuse files and network
    # (document() of a server file failed: "failed to apply stylesheet")
    "xml_encode_special_chars", "xpath_bool", "xpath_list", "xpath_nodeset", "xpath_number",
    "xpath_string", "xslt_process",
    # a relation's name parsed as a (qualified) name, never written into SQL
    "bt_metap", "bt_page_items", "bt_page_stats", "get_raw_page", "pg_relpages", "pgrowlocks",
    "pgstatindex", "pgstattuple", "pg_prewarm", "tuple_data_split", "verify_heapam",
    # dblink: a connection's name or string (a server to connect to, docs/renderers.md);
    # dblink_build_sql_*() and dblink_get_pkey() parse the relation's name and return text
    "dblink_build_sql_delete", "dblink_build_sql_insert", "dblink_build_sql_update",
    "dblink_cancel_query", "dblink_connect", "dblink_connect_u", "dblink_disconnect",
    "dblink_error_message", "dblink_fdw_validator", "dblink_get_notify", "dblink_get_pkey",
    "dblink_get_result", "dblink_is_busy", "postgres_fdw_disconnect", "postgres_fdw_validator",
    "file_fdw_validator",
    # adminpack: a file the text names is a data position (docs/renderers.md)
    "pg_file_rename", "pg_file_sync", "pg_file_unlink", "pg_file_write",
}  # fmt: skip
CONTRIB_FUNCTIONS = """
    select distinct p.proname from pg_proc p
    join pg_depend d on d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e'
    where p.prolang = (select oid from pg_language where lanname = 'c')
      and exists (select from unnest(p.proargtypes) a
                  where a in ('text'::regtype, 'cstring'::regtype, 'name'::regtype,
                              'text[]'::regtype))
"""


def test_postgresql_contrib_functions_taking_text_are_reviewed(postgres_dsn: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    database = f"ipy_istring_contrib_{os.getpid()}"
    with psycopg.connect(postgres_dsn, autocommit=True) as server:
        server.execute(f"drop database if exists {database}")
        server.execute(f"create database {database}")
        try:
            dsn = psycopg.conninfo.make_conninfo(postgres_dsn, dbname=database)
            with psycopg.connect(dsn, autocommit=True) as connection:
                extensions = connection.execute(
                    "select name from pg_available_extensions where installed_version is null"
                ).fetchall()
                for (name,) in extensions:
                    connection.execute(f'create extension if not exists "{name}" cascade')
                names = {name for (name,) in connection.execute(CONTRIB_FUNCTIONS).fetchall()}
        finally:
            server.execute(f"drop database if exists {database}")
    assert sorted(names - CONTRIB_DATA - set(_CODE_CALLS)) == []


# --- DuckDB's pragma_database_list. ------------------------------------------------------------


def test_duckdb_pragma_database_list_is_no_table_a_value_may_name(tmp_path: Any) -> None:
    """DuckDB serves SQLite's ``pragma_database_list`` as a view of its main schema: ``from
    {t:i}`` with that name returned the attached databases' files (as ``duckdb_databases``,
    refused, does), and only SQLite's reading of the query refused the prefix, so
    ``dialect="duckdb"`` and the ``dollar`` style accepted it."""
    path = str(tmp_path / "private.duckdb")
    connection = duckdb.connect(":memory:")
    connection.execute(f"attach '{path}' as private")
    connection.execute("create table t (v text)")
    leaked = connection.execute('select * from "pragma_database_list"').fetchall()
    assert any(path in str(row) for row in leaked)  # the positive control

    def read(value: str, *options: str, dialect: str | None = None) -> Any:
        return sql(T("select * from ", field(value, "t", "i")), *options, dialect=dialect)

    for value in ("pragma_database_list", "PRAGMA_DATABASE_LIST"):
        for options, dialect in ((("dollar",), None), ((), "duckdb"), (("qmark",), None)):
            with pytest.raises(
                RenderError, match=r"one of DuckDB's own tables|one of SQLite's own tables"
            ):
                read(value, *options, dialect=dialect)
    # Look-alikes: a table of one's own, and the name where PostgreSQL alone reads it.
    assert connection.execute(*read("t", dialect="duckdb")).fetchall() == []
    assert read("pragmatic", dialect="duckdb").sql == 'select * from "pragmatic"'
    assert read("pragma_database_list", dialect="postgresql").sql == (
        'select * from "pragma_database_list"'
    )
    connection.close()


# --- SQLite's dbstat. ----------------------------------------------------------------------------


def test_sqlite_dbstat_is_no_table_a_value_may_name() -> None:
    """SQLite's dbstat is an eponymous virtual table by an unreserved name, built into the
    SQLite Python uses here: ``from {t:i}`` with ``t = "dbstat"`` listed every table and
    index of the database by name (the schema, as sqlite_schema, refused, shows it)."""
    connection = sqlite3.connect(":memory:")
    connection.execute("create table private_plans (v text)")
    try:
        leaked = connection.execute('select name from "dbstat"').fetchall()
    except sqlite3.OperationalError:
        pytest.skip("this SQLite is built without dbstat")
    assert ("private_plans",) in leaked  # the positive control

    def read(value: str, *options: str, dialect: str | None = None) -> Any:
        return sql(T("select name from ", field(value, "t", "i")), *options, dialect=dialect)

    for value in ("dbstat", "DBSTAT"):
        for options, dialect in ((("qmark",), None), (("named",), None), ((), "sqlite")):
            with pytest.raises(RenderError, match="one of SQLite's own tables"):
                read(value, *options, dialect=dialect)
    # Look-alikes: a name elsewhere, a table of one's own, a database without dbstat.
    assert read("dbstats", dialect="sqlite").sql == 'select name from "dbstats"'
    assert read("dbstat", dialect="postgresql").sql == 'select name from "dbstat"'
    kept = sql(T("select ", field("dbstat", "c", "i"), " from t"), dialect="sqlite")
    assert kept.sql == 'select "dbstat" from t'
    connection.close()


def test_duckdb_internal_views_are_no_table_a_value_may_name() -> None:
    """Every view DuckDB serves by an unqualified name (its main schema's and pg_catalog's,
    read from duckdb_views()) is refused as a ':i' table DuckDB reads, but pg_settings
    (reviewed: it shows what current_setting() shows); information_schema's need their
    schema, and a qualified ':i' table is refused when DuckDB may run the query anyway."""
    connection = duckdb.connect(":memory:")
    views = connection.execute(
        "select schema_name, view_name from duckdb_views() where internal"
    ).fetchall()
    connection.close()
    unqualified = {name for schema, name in views if schema in ("main", "pg_catalog")}
    assert "pragma_database_list" in unqualified  # the catalog is read, not an empty list
    accepted = []
    for name in sorted(unqualified - {"pg_settings"}):
        try:
            sql(T("select * from ", field(name, "t", "i")), dialect="duckdb")
        except RenderError:
            continue
        accepted.append(name)
    assert accepted == []
    for schema, name in views:
        with pytest.raises(RenderError):
            sql(T("select * from ", field((schema, name), "t", "i")), dialect="duckdb")
