"""The static display of a template: bundle through a real InteractiveShell, HTML, text.

The HTML is read back with :mod:`html.parser`, so the tests check what a browser would build
(elements, attributes, text) rather than substrings of markup.
"""

from __future__ import annotations

import sys
from html.parser import HTMLParser
from typing import Any

import pytest

from ipy_istring import display, registry
from ipy_istring.template import Interpolation, InterpolationTemplate

XSS_TABLE = "</table><script>alert(1)</script>"
XSS_IMG = "<img src=x onerror=alert(1)>"
MB100 = 100 * 1024 * 1024


class Page(HTMLParser):
    """Elements, attributes and text of an HTML fragment, as a browser would read them."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._in: list[str] = []
        self.texts_by_tag: dict[str, list[str]] = {}
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag not in ("img", "br", "hr", "input", "meta", "link"):
            self._in.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._in:
            while self._in and self._in.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in:
            self.texts_by_tag.setdefault(self._in[-1], []).append(data)

    def tags(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.elements if tag == name]

    def classes(self) -> set[str]:
        return {name for _, attrs in self.elements for name in (attrs.get("class") or "").split()}

    def with_class(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for _, attrs in self.elements if name in (attrs.get("class") or "").split()]

    @property
    def all_text(self) -> str:
        return "".join(self.text)


class Boom:
    def __repr__(self) -> str:
        raise ValueError("no repr for you")


class UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("neither is the message")


class WorseBoom:
    def __repr__(self) -> str:
        raise UnprintableError()


class Recursive:
    def __repr__(self) -> str:
        return repr(self)


class Huge:
    def __repr__(self) -> str:
        return "h" * MB100


def field(value: object, expression: str = "x", conversion: Any = None, spec: str = "") -> Any:
    return Interpolation(value, expression, conversion, spec)


def template(*parts: Any) -> InterpolationTemplate:
    return InterpolationTemplate(*parts)


pytestmark = pytest.mark.usefixtures("display_options")


@pytest.fixture
def renderers(monkeypatch: pytest.MonkeyPatch) -> registry.RendererRegistry:
    """A fresh registry with the built-in renderers, installed as the global one."""
    fresh = registry.RendererRegistry()
    list(fresh)  # load the built-ins now
    monkeypatch.setattr(registry, "renderers", fresh)
    return fresh


@pytest.fixture
def formatter(renderers: registry.RendererRegistry) -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    return InteractiveShell.instance().display_formatter


def html_of(t: InterpolationTemplate) -> str:
    return display.to_html(t)


# --- the bundle through a real InteractiveShell ----------------------------------------------


def test_bundle_through_interactive_shell(formatter: Any) -> None:
    t = template("select * from users where name = ", field("Robert", "name"), "")
    data, _ = formatter.format(t)
    assert set(data) >= {"text/plain", "text/html"}
    assert "application/vnd.jupyter.widget-view+json" not in data
    page = Page(data["text/html"])
    assert len(page.tags("style")) == 1
    assert all(name.startswith("ipyis-") for name in page.classes())
    assert not any("id" in attrs for _, attrs in page.elements)
    assert not page.tags("script")
    fallback = page.with_class("ipyis-text-fallback")
    assert len(fallback) == 1
    assert "'Robert'" in "".join(page.texts_by_tag["pre"])
    wrap = page.with_class("ipyis-wrap")
    assert len(wrap) == 1 and "hidden" in wrap[0]
    assert "i-string template: 1 field" in data["text/plain"]
    assert "'Robert'" in data["text/plain"]


def test_fallback_is_the_text_view_and_css_hides_it() -> None:
    t = template("a ", field(1, "one"), " b")
    page = Page(html_of(t))
    fallback_text = "".join(page.texts_by_tag["pre"])
    assert display.to_text(t) in fallback_text
    css = "".join(page.texts_by_tag["style"])
    assert ".ipyis-text-fallback" in css and "display: none" in css
    assert "--jp-layout-color0" in css and "--jp-content-font-color0" in css


def test_css_is_scoped_to_prefixed_classes() -> None:
    css = display._css()
    selectors = [
        block.split("{")[0] for block in css.split("}") if "{" in block and "/*" not in block
    ]
    for selector in selectors:
        for part in selector.split(","):
            assert "ipyis-" in part, part


def test_include_and_exclude_are_respected(renderers: Any) -> None:
    t = template("x", field(1), "")
    assert set(display.mimebundle(t, include={"text/plain"})) == {"text/plain"}
    assert set(display.mimebundle(t, exclude={"text/plain"})) == {"text/html"}


def test_rows_show_position_expression_value_type_conversion_spec(renderers: Any) -> None:
    t = template("n=", field(3.5, "ratio * 2", "r", ">10"), "")
    page = Page(html_of(t))
    cells = ["".join(page.texts_by_tag.get("td", []))]
    joined = cells[0]
    for expected in ("0", "ratio * 2", "3.5", "float", "!r", ":>10"):
        assert expected in joined


# --- renderers -------------------------------------------------------------------------------


def test_default_renderer_open_and_others_collapsed(renderers: Any) -> None:
    t = template("ls ", field("my file", "name"), "")
    page = Page(html_of(t))
    sections = page.tags("details")
    summaries = page.texts_by_tag["summary"]
    names = [s for s in summaries if s in set(renderers)]
    assert names[0] == "format"
    assert set(names) == set(renderers)
    # fields section, then one section per renderer: only the default (and fields) open
    open_count = sum("open" in attrs for attrs in sections)
    assert open_count == 2
    assert "ls my file" in page.all_text
    assert "ls 'my file'" in page.all_text  # sh


def test_default_renderer_option(renderers: Any) -> None:
    display.options.default_renderer = "sh"
    t = template("ls ", field("my file", "name"), "")
    view = display.describe(t)
    assert view.outputs[0].name == "sh"
    assert "renderer 'sh'" in display.to_text(t)


def test_raising_renderer_shows_its_message_in_place(renderers: Any) -> None:
    def broken(t: Any) -> str:
        raise ValueError("this renderer refuses <b>everything</b>")

    def recursing(t: Any) -> str:
        return recursing(t)

    renderers["broken"] = broken
    renderers["recursing"] = recursing
    t = template("x ", field(1), "")
    html = html_of(t)
    page = Page(html)
    errors = "".join("".join(page.texts_by_tag.get(tag, [])) for tag in ("pre", "span", "summary"))
    assert "ValueError: this renderer refuses <b>everything</b>" in errors
    assert "RecursionError" in errors
    assert "Traceback" not in html
    assert not page.tags("b")


def test_sql_shows_query_and_parameter_table(renderers: Any) -> None:
    t = template("select * from t where a = ", field("x'y", "a"), " and b = ", field(2, "b"), "")
    out = display.render_one(t, "sql", renderers["sql"])
    page = Page(display.output_html(out))
    assert "select * from t where a = ? and b = ?" in page.all_text
    params = "".join(page.texts_by_tag["td"])
    assert "'x\\'y'" in params or '"x\'y"' in params
    assert "int" in params


def test_argv_shows_a_list(renderers: Any) -> None:
    t = template("ls -l ", field("a b", "name"), "")
    out = display.render_one(t, "argv", renderers["argv"])
    page = Page(display.output_html(out))
    assert len(page.tags("li")) == 3
    assert "'a b'" in page.all_text


def test_html_output_is_escaped_source(renderers: Any) -> None:
    t = template("<p>", field(XSS_IMG, "comment"), "</p>")
    out = display.render_one(t, "html", renderers["html"])
    page = Page(display.output_html(out, preview=True))
    assert not page.tags("p") and not page.tags("img")
    assert "<p>" in page.all_text
    (frame,) = page.tags("iframe")
    assert frame["sandbox"] == ""
    assert "<img" not in (frame["srcdoc"] or "")  # the value was escaped by the renderer


def test_registry_that_fails_to_load_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(registry.RendererRegistry):
        def _ensure_loaded(self) -> None:
            raise ModuleNotFoundError("No module named 'ipy_istring.nothing'")

    monkeypatch.setattr(registry, "renderers", Broken())
    t = template("x ", field(1), "")
    html = html_of(t)
    assert "renderer registry could not load" in Page(html).all_text
    assert "renderer registry could not load" in display.to_text(t)


# --- safety: hostile values ------------------------------------------------------------------


@pytest.mark.parametrize("payload", [XSS_TABLE, XSS_IMG])
def test_xss_payloads_show_as_text(renderers: Any, payload: str) -> None:
    def shouting(t: Any) -> str:
        raise ValueError(payload)

    renderers[payload] = shouting
    t = template(
        payload, field(payload, payload, None, payload), payload, field(Boom(), payload), ""
    )
    html = html_of(t)
    page = Page(html)
    assert not page.tags("script") and not page.tags("img")
    assert len(page.tags("table")) == 1  # the fields table only: nothing closed it early
    assert not any(name.startswith("on") for _, attrs in page.elements for name in attrs)
    assert payload in page.all_text


def test_raising_repr_is_marked() -> None:
    for value, kind in ((Boom(), "ValueError"), (WorseBoom(), "UnprintableError")):
        shown = display.value_repr(value)
        assert shown.flagged and shown.error == kind
    page = Page(display.fields_table_html(display.describe(template("", field(Boom(), "b"), ""))))
    assert len(page.with_class("ipyis-flag")) == 1
    assert "repr() raised ValueError: no repr for you" in page.all_text


def test_recursive_repr_is_marked() -> None:
    shown = display.value_repr(Recursive())
    assert shown.flagged and shown.error == "RecursionError"
    loop: list[Any] = [1]
    loop.append(loop)
    shown = display.value_repr(loop)
    assert not shown.flagged and shown.text.startswith("[1, [1, ") and shown.text.endswith("]]")


def test_huge_int_repr_is_marked_not_raised() -> None:
    if not hasattr(sys, "set_int_max_str_digits"):
        pytest.skip("no int digit limit before 3.11")
    shown = display.value_repr(10**5000)
    if sys.version_info >= (3, 14):
        # 3.14's reprlib describes an int past the digit limit instead of raising
        assert not shown.flagged and "5001 digits" in shown.text
    else:
        assert shown.flagged and shown.error == "ValueError"


def test_long_repr_is_cut_with_count() -> None:
    display.options.max_value_chars = 50
    shown = display.value_repr(Huge())
    assert len(shown.text) == 50 and shown.omitted == MB100 - 50
    page = Page(html_of(template("", field(Huge(), "h"), "")))
    assert f"… {MB100 - 50:,} more characters" in page.all_text


def test_huge_str_value_is_cut_before_repr(renderers: Any) -> None:
    value = "x" * MB100
    html = html_of(template("echo ", field(value, "big"), ""))
    assert len(html.encode()) < 200_000
    page = Page(html)
    assert f"… {MB100 - display.options.max_value_chars:,} more characters" in page.all_text
    assert "not rendered in the display" in page.all_text


def test_huge_containers_are_bounded() -> None:
    shown = display.value_repr(list(range(1_000_000)))
    assert len(shown.text) <= display.options.max_value_chars
    assert shown.text.endswith("...]")
    nested: Any = []
    for _ in range(10_000):
        nested = [nested]
    assert not display.value_repr(nested).flagged


# --- bounds ----------------------------------------------------------------------------------


def test_thousand_fields_collapse_and_stay_small(renderers: Any) -> None:
    parts: list[Any] = []
    for index in range(1000):
        parts += [f" and c{index} = ", field(index * 7, f"v[{index}]")]
    t = template("select * from t where 1=1", *parts, "")
    html = html_of(t)
    assert len(html.encode()) < 200_000
    page = Page(html)
    shown = display.options.max_rows
    assert page.text.count(f"… {1000 - shown:,} more fields …") == 1
    assert page.text.count(f"… {1000 - shown:,} more parameters …") == 1  # sql's
    fields_section = page.tags("details")[0]
    assert "open" not in fields_section
    text = display.to_text(t)
    assert f"… {1000 - shown:,} more fields …" in text
    assert len(text) < 50_000


def test_hundred_megabyte_repr_stays_small(renderers: Any) -> None:
    html = html_of(template("", field(Huge(), "h"), ""))
    assert len(html.encode()) < 200_000
    # str(value) would be as huge as its repr, so the renderers are not run for the display
    assert "not rendered in the display" in Page(html).all_text


def test_long_renderer_output_is_cut(renderers: Any) -> None:
    display.options.max_output_chars = 100
    t = template("", field("y" * 10_000, "y"), "")
    page = Page(html_of(t))
    assert "… 9,900 more characters" in page.all_text


# --- terminal --------------------------------------------------------------------------------


def test_pretty_is_an_aligned_text_view(renderers: Any) -> None:
    from IPython.lib.pretty import pretty

    t = template("ls ", field("my file", "name"), " ", field(12, "count", "r", ">4"), "")
    text = pretty(t)
    lines = text.splitlines()
    assert lines[0] == "i-string template: 2 fields, renderer 'format'"
    header, first, second = lines[1:4]
    column = header.index("value")
    assert first[column:].startswith("'my file'")
    assert second[column:].startswith("12")
    assert header.index("spec") == second.index(":>4")
    assert "format → ls my file   12" in text
    assert "sh → ls 'my file' 12" in text or "sh → ls 'my file' '  12'" in text


def test_terminal_shell_shows_text_and_builds_no_widget(formatter: Any) -> None:
    from ipy_istring import widget

    before = len(widget.live_display_widgets())
    data, _ = formatter.format(template("a", field(1), ""))
    assert "application/vnd.jupyter.widget-view+json" not in data
    assert len(widget.live_display_widgets()) == before
