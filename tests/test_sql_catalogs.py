"""The functions and settings of the real databases whose names say they may run code.

``sql()`` refuses a field in a query that calls a function running a string as code
(``_CODE_CALLS``); every other function keeps its arguments as data.  That table can only be
complete for the functions someone has looked at, so these tests read each database's own
catalog (DuckDB's ``duckdb_functions()``, PostgreSQL's ``pg_proc`` with tablefunc, SQLite's
``pragma_function_list``) for functions taking arguments whose names speak of queries, code,
loading or commands, and fail on any that is neither refused nor reviewed here as data: a new
version's ``query_json()`` gets looked at before a value reaches it.  The settings whose value
``sql()`` refuses (``_CODE_SETTING``: libraries, commands, extensions, DuckDB's home and secret
directories, its http_proxy) are checked the same way against ``duckdb_settings()`` and
``pg_settings``.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import duckdb
import pytest

from ipy_istring.fields import RenderError
from ipy_istring.sql import _CODE_CALLS, _CODE_SETTING, sql
from ipy_istring.template import Interpolation, InterpolationTemplate

SUSPECT = re.compile(
    r"query|exec|sql(?!ite)|eval|run|script|load|import|program|shell|command|system|attach|"
    r"prepare|tokenizer|extension|librar|dblink|crosstab|connectby|_to_xml"
)

# Reviewed: these keep their arguments as data (or take only internal arguments no query can
# give), so a value may reach them.
DATA = {
    # full-text and JSON path searches: a tsquery or a jsonpath is no SQL
    "to_tsquery", "plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery", "querytree",
    "jsonb_path_query", "jsonb_path_query_array", "jsonb_path_query_array_tz",
    "jsonb_path_query_first", "jsonb_path_query_first_tz", "jsonb_path_query_tz",
    "gin_extract_jsonb_query", "gin_extract_jsonb_query_path", "gin_extract_tsquery",
    "gin_tsquery_consistent", "gin_tsquery_triconsistent", "ginqueryarrayextract",
    "gtsquery_compress", "gtsquery_consistent", "gtsquery_penalty", "gtsquery_picksplit",
    "gtsquery_same", "gtsquery_union", "tsquery_and", "tsquery_cmp", "tsquery_eq",
    "tsquery_ge", "tsquery_gt", "tsquery_le", "tsquery_lt", "tsquery_ne", "tsquery_not",
    "tsquery_or", "tsquery_phrase", "tsqueryin", "tsqueryout", "tsqueryrecv", "tsquerysend",
    # names that only contain the letters ("trunc" has "run")
    "date_trunc", "datetrunc", "dtrunc", "trunc", "numeric_div_trunc", "lo_truncate",
    "lo_truncate64", "generate_subscripts", "col_description", "obj_description",
    "shobj_description", "array_subscript_handler", "jsonb_subscript_handler",
    "raw_array_subscript_handler",
    # internal arguments, type I/O, catalog and statistics readers
    "system", "shell_in", "shell_out", "pg_ddl_command_in", "pg_ddl_command_out",
    "pg_ddl_command_recv", "pg_ddl_command_send", "plpgsql_inline_handler",
    "plpgsql_validator", "fmgr_sql_validator", "postgresql_fdw_validator",
    "pg_get_function_sqlbody", "pg_stat_get_subscription", "pg_stat_get_subscription_stats",
    "pg_stat_reset_subscription_stats", "pg_extension_config_dump",
    "pg_extension_update_paths", "pg_import_system_collations",
    # superuser only, and only while pg_upgrade runs
    "binary_upgrade_create_empty_extension",
    # a file the text names is a data position (docs/renderers.md): the value is its path
    "lo_import",
    # the whole database as XML: its arguments are flags and a namespace, no relation's name
    "database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema",
    # DuckDB: SQL turned into JSON and back, never run; the parser extensions already loaded
    "json_serialize_sql", "json_deserialize_sql", "add_grammar_extension",
    "remove_grammar_extension",
}  # fmt: skip


def unreviewed(names: Iterator[str]) -> list[str]:
    """The suspect names that are neither refused by sql() nor reviewed as data."""
    return sorted(
        {n for n in names if SUSPECT.search(n) and n not in _CODE_CALLS and n not in DATA}
    )


@pytest.mark.parametrize(
    ("connect", "catalog"),
    [
        (
            duckdb.connect,
            "select distinct function_name from duckdb_functions() where len(parameters) > 0",
        ),
        (sqlite3.connect, "select distinct name from pragma_function_list where narg != 0"),
    ],
    ids=["duckdb", "sqlite"],
)
def test_embedded_functions_that_may_run_code_are_reviewed(
    connect: Callable[[str], Any], catalog: str
) -> None:
    connection = connect(":memory:")
    rows = connection.execute(catalog).fetchall()
    connection.close()
    assert unreviewed(name for (name,) in rows) == []


def test_postgresql_functions_that_may_run_code_are_reviewed(postgres_dsn: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        connection.execute("drop schema if exists ipy_istring_catalogs cascade")
        connection.execute("create schema ipy_istring_catalogs")
        try:
            connection.execute("create extension tablefunc schema ipy_istring_catalogs")
            rows = connection.execute(
                "select distinct proname from pg_proc where pronargs > 0"
            ).fetchall()
        finally:
            connection.execute("drop schema ipy_istring_catalogs cascade")
    assert unreviewed(name for (name,) in rows) == []


def test_postgresql_built_in_types_are_those_a_temporary_name_may_not_shadow(
    postgres_dsn: str,
) -> None:
    """sql()'s list of the catalog's types (a temporary relation or type by such a name
    shadows it: the thirteenth pass) is the server's."""
    from ipy_istring.sql import _POSTGRESQL_TYPES

    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        rows = connection.execute(
            "select typname from pg_type where typnamespace = 'pg_catalog'::regnamespace "
            "and typname !~ '^(pg_|_)' and typtype <> 'c'"
        ).fetchall()
        relations = connection.execute(
            "select relname from pg_class where relnamespace = 'pg_catalog'::regnamespace "
            "and relname !~ '^pg_'"
        ).fetchall()
    assert {name for (name,) in rows} == _POSTGRESQL_TYPES
    assert relations == []  # (every catalog relation starts with pg_)


# Settings whose names speak of loading, paths or programs, and are not code settings to
# sql() (_CODE_SETTING: their values are refused): each reviewed.  Since the twenty-seventh
# pass a value sets only a setting on _sql_settings.DATA_SETTINGS (tests/
# test_sql_twenty_seventh_pass.py reviews them all), and of these only
# initial_column_segment_size, max_temp_directory_size and wal_init_zero are on it: the rest
# are no code settings, but their values are refused too (places, switches, the search path).
SETTING_SUSPECT = re.compile(
    r"librar|command|extension|home|director|path|repo|load|install|program|script|provider|"
    r"grammar|parser|init"
)
DATA_SETTINGS = {
    # DuckDB: where files the text names are read and written (file positions are data
    # positions, docs/renderers.md), limits on them, and sizes.  file_search_path was checked:
    # LOAD, INSTALL and IMPORT DATABASE do not resolve their paths through it.
    "allowed_directories", "allowed_paths", "file_search_path", "log_query_path",
    "max_temp_directory_size", "temp_directory",
    "initial_column_segment_size",
    # a schema search path: a choice among what the connection reaches (docs/renderers.md)
    "search_path",
    # PostgreSQL: set only at server start or in its configuration files, which only ALTER
    # SYSTEM (refused whole) writes; or statistics and sizes
    "data_directory", "data_directory_mode", "jit_provider", "log_directory",
    "unix_socket_directories", "log_parser_stats", "max_sync_workers_per_subscription",
    "recovery_init_sync_method", "wal_init_zero",
}  # fmt: skip


def unreviewed_settings(names: Iterator[str]) -> list[str]:
    """The suspect settings that are neither code settings to sql() nor reviewed as data."""
    return sorted(
        {
            n
            for n in names
            if SETTING_SUSPECT.search(n) and not _CODE_SETTING.search(n) and n not in DATA_SETTINGS
        }
    )


def test_duckdb_settings_that_may_load_code_are_reviewed() -> None:
    connection = duckdb.connect(":memory:")
    rows = connection.execute("select name from duckdb_settings()").fetchall()
    connection.close()
    assert unreviewed_settings(name for (name,) in rows) == []


def test_postgresql_settings_that_may_load_code_are_reviewed(postgres_dsn: str) -> None:
    psycopg = pytest.importorskip("psycopg")
    with psycopg.connect(postgres_dsn, autocommit=True) as connection:
        rows = connection.execute("select name from pg_settings").fetchall()
    assert unreviewed_settings(name for (name,) in rows) == []


def test_sqlite_fts3_tokenizer_calls_the_address_a_value_gives() -> None:
    """fts3_tokenizer(name, blob) takes the blob as the address of a tokenizer's functions
    (where SQLite is built with SQLITE_ENABLE_FTS3_TOKENIZER): the positive control registers
    the built-in tokenizer's own address, passed as a parameter, and SQLite calls it; any
    other value is an address SQLite would jump to.  sql() refuses every field of the query."""
    connection = sqlite3.connect(":memory:")
    address = connection.execute("select fts3_tokenizer('simple')").fetchone()[0]
    template = InterpolationTemplate(
        "select fts3_tokenizer('chosen', ", Interpolation(address, "address"), ")"
    )
    with pytest.raises(RenderError, match=r"\{address\} is an argument of fts3_tokenizer\(\)"):
        sql(template, dialect="sqlite")
    try:
        connection.execute("select fts3_tokenizer(?, ?)", ("chosen", address))
    except sqlite3.Error:
        pytest.skip("this SQLite takes no address in fts3_tokenizer()")
    connection.execute("create virtual table v using fts3(x, tokenize=chosen)")
    connection.execute("insert into v values ('hello world')")
    assert connection.execute("select x from v where v match 'world'").fetchall() == [
        ("hello world",)
    ]
    connection.close()
