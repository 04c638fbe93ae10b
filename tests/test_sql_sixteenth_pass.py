"""The sixteenth red-team pass over sql(): values PostgreSQL reads further.

* set_config('search_path', {s}, false) takes a list: the value 'carol, pg_catalog' put a
  schema before pg_catalog, and a superuser's lower('ABC') ran that schema's lower(text)
  (which made its owner a superuser).  SET search_path = {s:l} quotes the value as one name;
  set_config() alone splits it.
* set_config('role', lower({r}), false) with 'NONE' gave 'none', which PostgreSQL reads as
  NONE (back to the login's role): the eleventh pass refused the value 'none' only as the
  whole argument.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_sql_contexts import pg, role_name  # noqa: F401  # pg: the fixture the tests ask for
from test_sql_tenth_pass import T, field, refused_everywhere

from ipy_istring.sql import sql


def _superuser(pg: Any) -> None:  # noqa: F811
    if pg.execute("select rolsuper from pg_roles where rolname = current_user").fetchone() != (
        True,
    ):
        pytest.skip("the positive controls create roles and extensions, as a superuser may")


# --- set_config('search_path', {s}, ...): one schema. --------------------------------------------


def test_set_config_s_search_path_is_one_schema(pg: Any) -> None:  # noqa: F811
    pg.execute("drop schema if exists ipy_istring_carol cascade")
    pg.execute("create schema ipy_istring_carol")
    try:
        pg.execute("create function ipy_istring_carol.lower(text) returns text "
                   "language sql as $$ select 'carol''s lower ran' $$")  # fmt: skip
        listed = "ipy_istring_carol, pg_catalog"
        # The positive control: the text sql() wrote before this pass put carol's schema
        # before pg_catalog, whose lower(text) is searched first otherwise.
        pg.execute("select set_config('search_path', %s, false)", [listed])
        assert pg.execute("select lower('ABC')").fetchone() == ("carol's lower ran",)
        for value in [listed, 'ipy_istring_carol", "pg_catalog', 5]:
            for spec in ["", "l"]:
                parts = ("select set_config('search_path', ", field(value, "s", spec), ", false)")
                refused_everywhere(parts, "reads as a list of schemas")
        for parts in [
            ("select set_config('search_path', lower(", field("a", "s"), "), false)"),
            ("select set_config('search_path', ", field("a", "s"), " || ', public', false)"),
            ("select pg_catalog.set_config('Search_Path', (select ", field("a", "s"), "), true)"),
        ]:
            refused_everywhere(parts, "checks only as the whole argument")
        # Look-alikes run: one schema, by set_config() or SET (which quotes the value as one
        # name, commas and all), and set_config() of a setting read as plain text.
        for parts in [
            ("select set_config('search_path', ", field("ipy_istring_carol", "s"), ", false)"),
            ("set search_path = ", field(listed, "s", "l"), ""),
            ("set search_path to ", field("ipy_istring_carol", "s", "i"), ", public"),
        ]:
            pg.execute(*sql(T(*parts), "format"))
            assert pg.execute("select lower('ABC')").fetchone() == ("abc",)
        assert pg.execute("show search_path").fetchone() == ("ipy_istring_carol, public",)
        app = T("select set_config('app.user', lower(", field("ALICE", "u"), "), false)")
        assert pg.execute(*sql(app, "format")).fetchone() == ("alice",)
    finally:
        pg.execute("set search_path to ipy_istring_contexts")
        pg.execute("drop schema ipy_istring_carol cascade")


# --- set_config('role', ...): the value 'none' even through an expression. ------------------------


def test_set_config_s_role_is_the_whole_argument(pg: Any) -> None:  # noqa: F811
    _superuser(pg)
    tenant = role_name(pg, "tenant")
    pg.execute(f"create role {tenant}")
    try:
        # The positive control: lower('NONE') is 'none', NONE to PostgreSQL: the connection
        # that had set role to the tenant's ran the next query as its login, a superuser.
        pg.execute(f"set role {tenant}")
        pg.execute("select set_config('role', lower(%s), false)", ["NONE"])
        assert pg.execute("select current_user = session_user").fetchone() == (True,)
        for parts in [
            ("select set_config('role', lower(", field("NONE", "r"), "), false)"),
            ("select set_config('role', trim(", field(" none", "r", "l"), "), false)"),
            ("select set_config('role', ", field("no", "a"), " || ", field("ne", "b"), ", false)"),
            ("select set_config('role', ", field("none", "r"), "::text, false)"),
        ]:
            refused_everywhere(parts, "checks only as the whole argument")
        # Look-alikes run: the role as the whole argument, and its third argument.
        template = T("select set_config('role', ", field(tenant, "r"), ", ", field(False, "b"), ")")
        pg.execute(*sql(template, "format"))
        assert pg.execute("select current_user").fetchone() == (tenant,)
    finally:
        pg.execute("reset role")
        pg.execute(f"drop role {tenant}")
