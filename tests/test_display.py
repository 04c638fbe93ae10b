"""The static display of a template: bundle through a real InteractiveShell, HTML, text, and
the options that govern them.

The HTML is read back with :mod:`html.parser`, so the tests check what a browser would build
(elements, attributes, text) rather than substrings of markup.
"""

from __future__ import annotations

import reprlib
import sys
from html.parser import HTMLParser
from typing import Any

import pytest

from ipy_istring import display, html_view, registry, view_model
from ipy_istring.display_options import options, set_options
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
    assert "'Robert'" in "".join(page.texts_by_tag["td"])
    # Nothing is hidden: a sanitizer that drops the <style> leaves a readable view.
    assert not any("hidden" in attrs or "style" in attrs for _, attrs in page.elements)
    assert "i-string template: 1 field" in data["text/plain"]
    assert "'Robert'" in data["text/plain"]


def test_html_without_its_style_still_shows_fields_values_and_output(renderers: Any) -> None:
    """JupyterLab's sanitizer (untrusted notebooks) and GitHub drop the <style>: the rest is
    plain details/table/pre, so the expressions, values and default output still read."""
    t = template("a ", field(1, "one"), " b")
    markup = html_of(t)
    css = "".join(Page(markup).texts_by_tag["style"])
    assert "--jp-layout-color0" in css and "--jp-content-font-color0" in css
    unstyled = Page(markup.replace(html_view.style_tag(), ""))
    cells = unstyled.texts_by_tag["td"]
    assert "one" in cells and "1" in cells and "int" in cells
    # format, the default, open: in its pre (a bdo only around right-to-left letters)
    assert "a 1 b" in unstyled.texts_by_tag["pre"]
    assert "open" in unstyled.tags("details")[1]


def test_css_is_scoped_to_prefixed_classes() -> None:
    css = html_view._css()
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
    names = [s.strip() for s in summaries if s.strip() in set(renderers)]
    assert names[0] == "format"
    assert set(names) == set(renderers)
    # fields section, then one section per renderer: only the default (and fields) open
    open_count = sum("open" in attrs for attrs in sections)
    assert open_count == 2
    assert "ls my file" in page.all_text
    assert "ls 'my file'" in page.all_text  # sh


def test_default_renderer_option(renderers: Any) -> None:
    set_options(default_renderer="sh")
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
    out = view_model.render_one(t, "sql", renderers["sql"])
    page = Page(html_view.output_html(out))
    assert "select * from t where a = ? and b = ?" in page.all_text
    params = page.texts_by_tag["td"]
    assert "'x\\'y'" in params or '"x\'y"' in params
    assert "int" in params
    # numbered from 0, as fields and arguments are: params[0] is the first
    assert params[0::3] == ["0", "1"]


def test_argv_shows_a_list(renderers: Any) -> None:
    t = template("ls -l ", field("a b", "name"), "")
    out = view_model.render_one(t, "argv", renderers["argv"])
    page = Page(html_view.output_html(out))
    assert page.texts_by_tag["td"][0::2] == ["0", "1", "2"]
    assert "'a b'" in page.all_text


def test_html_output_is_escaped_source(renderers: Any) -> None:
    t = template("<p>", field(XSS_IMG, "comment"), "</p>")
    out = view_model.render_one(t, "html", renderers["html"])
    page = Page(html_view.output_html(out, preview=True))
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
    page = Page(html_view.fields_table_html(display.describe(template("", field(Boom(), "b"), ""))))
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
    try:
        reprlib.repr(10**5000)
    except ValueError:  # (3.11-3.13.0's reprlib raises; its message is the value's)
        assert shown.flagged and shown.error == "ValueError"
    else:
        # 3.14's reprlib describes an int past the digit limit instead of raising, and so do
        # later 3.13 releases' (3.13.18's)
        assert not shown.flagged and "5001 digits" in shown.text


def test_long_repr_is_cut_with_count() -> None:
    set_options(max_value_chars=50)
    shown = display.value_repr(Huge())
    assert len(shown.text) == 50 and shown.omitted == MB100 - 50
    page = Page(html_of(template("", field(Huge(), "h"), "")))
    assert f"… {MB100 - 50:,} more characters" in page.all_text
    # the note is markup of ours, not text: never escaped into "<span ...>" on the page
    assert page.with_class("ipyis-more") and "<span" not in page.all_text


def test_huge_str_value_is_cut_before_repr(renderers: Any) -> None:
    value = "x" * MB100
    html = html_of(template("echo ", field(value, "big"), ""))
    assert len(html.encode()) < 200_000
    page = Page(html)
    assert f"… {MB100 - options.max_value_chars:,} more characters" in page.all_text
    assert "not rendered here" in page.all_text


def test_huge_containers_are_bounded() -> None:
    shown = display.value_repr(list(range(1_000_000)))
    assert len(shown.text) <= options.max_value_chars
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
    shown = options.max_rows
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
    assert "not rendered here" in Page(html).all_text


def test_long_renderer_output_is_cut(renderers: Any) -> None:
    set_options(max_output_chars=100)
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


# --- nothing invisible: controls, bidi, zero-width ---------------------------------------------

# Each of these, raw in a view, would move or hide text: reorder it (bidi override, isolates),
# hide it (zero-width space, NUL), colour or erase the terminal (ESC), overwrite a label
# ("\r", backspace).
DISGUISES = {
    "\u202e": "\\u202e",
    "\u2066": "\\u2066",
    "\u2067": "\\u2067",
    "\u2068": "\\u2068",
    "\u2069": "\\u2069",
    "\u200b": "\\u200b",
    "\x1b": "\\x1b",
    "\r": "\\r",
    "\b": "\\x08",
    "\x00": "\\x00",
    # printable to Python, but drawn as nothing or a blank: "docs" + one showed as "docs"
    "\u3164": "\\u3164",
    "\u115f": "\\u115f",
    "\u034f": "\\u034f",
    "\ufe0f": "\\ufe0f",
    "\U000e0100": "\\U000e0100",
    "\u2800": "\\u2800",
}
DISGUISED = "X" + "".join(DISGUISES) + "[31mlive"


def test_every_view_shows_invisible_characters_as_escapes(renderers: Any) -> None:
    t = template("echo ", field(DISGUISED, "v"), "")
    markup = html_of(t)
    text = display.to_text(t)
    for raw in DISGUISES:
        assert raw not in text, repr(raw)
        assert raw not in Page(markup).all_text, repr(raw)
    # the format output, in both views, with each character shown as its escape
    shown = "X" + "".join(DISGUISES.values()) + "[31mlive"
    assert f"format → echo {shown}" in text
    page = Page(markup)
    assert f"echo {shown}" in page.all_text
    badges = [t for t in page.texts_by_tag["span"] if t in DISGUISES.values()]
    assert len(page.with_class("ipyis-esc")) >= len(DISGUISES) and badges
    # sh (which refuses NUL) quotes the rest: the closing quote stays where it is seen
    without_nul = DISGUISED.replace("\x00", "")
    no_nul = template("echo ", field(without_nul, "v"), "")
    shown_without_nul = shown.replace("\\x00", "")
    assert f"sh → echo '{shown_without_nul}'" in display.to_text(no_nul)
    # ...while what the renderers return is unchanged
    assert renderers["sh"](no_nul) == f"echo '{without_nul}'"
    assert renderers["format"](t) == f"echo {DISGUISED}"


def test_expressions_and_renderer_names_are_shown_visibly_too(renderers: Any) -> None:
    renderers["bad\u202ename"] = lambda t: "ok"
    t = template("", field(1, "x\u202e #"), "")
    for view in (display.to_text(t), Page(html_of(t)).all_text):
        assert "\u202e" not in view
        assert "x\\u202e #" in view and "bad\\u202ename" in view


def test_visible_keeps_ordinary_text_and_line_breaks() -> None:
    assert view_model.visible("naïve café 東京 ✓\nnext") == "naïve café 東京 ✓\nnext"
    assert view_model.visible("a\nb", newlines=False) == "a\\nb"


# --- one renderer's failure stays in its panel -------------------------------------------------


class TreacherousQuery(tuple):  # type: ignore[type-arg]
    """A renderer result that looks like a query but raises when read."""

    @property
    def sql(self) -> str:
        raise RuntimeError("the query cannot be read")

    @property
    def params(self) -> tuple[()]:
        return ()


def test_a_result_that_raises_when_read_fails_only_its_own_panel(renderers: Any) -> None:
    renderers["treacherous"] = lambda t: TreacherousQuery()
    t = template("ls ", field("my file", "name"), "")
    view = display.describe(t)
    by_name = {output.name: output for output in view.outputs}
    assert by_name["treacherous"].kind == "error"
    assert "RuntimeError: the query cannot be read" in by_name["treacherous"].text.text
    assert {name for name, o in by_name.items() if o.kind == "error"} == {"treacherous"}
    text = display.to_text(t)
    assert "format → ls my file" in text and "sh → ls 'my file'" in text
    assert "treacherous → error: the renderer's result could not be read" in text
    assert "ls 'my file'" in Page(html_of(t)).all_text


# --- bounded by rendered size, every value type ------------------------------------------------


def test_huge_container_values_are_not_rendered_for_the_display(renderers: Any) -> None:
    called: list[str] = []
    renderers["spy"] = lambda t: called.append("spy") or "x"
    for value in (list(range(10**7)), {i: i for i in range(2 * 10**6)}, [["y" * 1000] * 2000]):
        view = display.describe(template("echo ", field(value, "big"), ""))
        assert {o.kind for o in view.outputs} == {"skipped"}
        assert "max_render_chars" in view.outputs[0].text.text
    assert called == []
    small = display.describe(template("echo ", field(list(range(100)), "small"), ""))
    assert "skipped" not in {o.kind for o in small.outputs}


class Document:
    """A value whose repr is short and whose text is long (a lazily loaded document)."""

    def __repr__(self) -> str:
        return "Document('notes')"

    def __format__(self, spec: str) -> str:
        return "x" * 2_000


def test_a_value_longer_as_text_than_as_repr_is_not_rendered_either(renderers: Any) -> None:
    """A 100 MB document with a short repr ran every renderer (sh: 12 GB, 17 s)."""
    called: list[str] = []
    renderers["spy"] = lambda t: called.append("spy") or "x"
    with set_options(max_render_chars=1_000):
        for t in (
            template("cat ", field(Document(), "doc"), ""),
            template("x" * 2_000),  # a long static text: a script pasted in
        ):
            view = display.describe(t)
            assert {o.kind for o in view.outputs} == {"skipped"}
            assert "max_render_chars" in view.outputs[0].text.text
        assert called == []
        short = display.describe(template("cat ", field("notes", "doc"), ""))
        assert "skipped" not in {o.kind for o in short.outputs} and called == ["spy"]


# --- each value repr'd once per display --------------------------------------------------------


class Counted:
    """A value that counts how often its repr is read (str is separate, as renderers use it)."""

    reprs = 0

    def __repr__(self) -> str:
        Counted.reprs += 1
        return "Counted()"

    def __str__(self) -> str:
        return "counted"


def test_each_field_value_is_reprd_once_per_display(renderers: Any) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from ipy_istring import widget

    parts: list[Any] = ["select 1"]
    for index in range(30):
        parts += [f" and c{index} = ", field(Counted(), f"v{index}")]
    t = template(*parts, "")
    Counted.reprs = 0
    set_options(use_widget=True)
    try:
        data, _ = InteractiveShell.instance().display_formatter.format(t)
        assert display.WIDGET_MIME in data  # the widget lays out the same description
    finally:
        widget.close_display_widgets()
    assert Counted.reprs == 30


class CountedFormat:
    """A value whose text changes at each call of its ``__format__``, as a counter's does."""

    def __init__(self) -> None:
        self.calls = 0

    def __repr__(self) -> str:
        return "CountedFormat()"

    def __format__(self, spec: str) -> str:
        self.calls += 1
        return f"call{self.calls}"


def test_the_format_output_is_the_text_the_size_check_measured(formatter: Any) -> None:
    """The size check and the format renderer each called every value's __format__: a value
    giving a new text at each call showed in `format` a text other than the one measured.

    (Changed on purpose by the render pass: before it, sh and argv each called __format__
    once more, showing "rm call2" and "rm call3", and html showed the value's str(), its
    repr here; now every renderer that takes the value's text reads the one text the
    display read, so __format__ runs once: tests/test_render_text.py.)"""
    value = CountedFormat()
    data, _ = formatter.format(template("rm ", field(value, "v"), ""))
    # format (and the size check), sh, argv, html share one read; sql takes the value
    assert value.calls == 1
    assert "format → rm call1" in data["text/plain"]
    assert "sh → rm call1" in data["text/plain"]
    # the widget's renderers, run when chosen: the same one read
    from ipy_istring import widget

    value.calls = 0
    w = widget.TemplateWidget(template("rm ", field(value, "v"), ""))
    try:
        assert value.calls == 1 and "rm call1" in Page(w.output.value).all_text
        w.renderer = "sh"
        assert value.calls == 1 and "rm call1" in Page(w.output.value).all_text
    finally:
        w.close()


def test_a_format_renderer_of_ones_own_is_run_as_it_is(formatter: Any, renderers: Any) -> None:
    renderers["format"] = lambda t: "mine: " + format(t)
    value = CountedFormat()
    data, _ = formatter.format(template("rm ", field(value, "v"), ""))
    assert "format → mine: rm call2" in data["text/plain"]  # call1: the size check


# --- options: one owner ------------------------------------------------------------------------


def test_set_options_restores_on_exit_and_rejects_mistakes() -> None:
    before = options.max_rows
    with set_options(max_rows=4, default_renderer="sql") as inside:
        assert inside.max_rows == 4 and options.default_renderer == "sql"
    assert options.max_rows == before and options.default_renderer == "format"
    with pytest.raises(ValueError, match="unknown display option 'max_row'"):
        set_options(max_row=3)
    with pytest.raises(TypeError, match="takes a int"):
        set_options(max_rows="3")
    with pytest.raises(ValueError, match="at least 2"):
        set_options(max_rows=0, default_renderer="sh")
    assert options.default_renderer == "format"  # a refused call changes nothing
    with pytest.raises(AttributeError):
        options.max_rows = 3  # type: ignore[misc]


# --- the cuts say what they cut, the same way in every view -------------------------------------


def test_cuts_are_the_same_and_said_in_text_and_html(renderers: Any) -> None:
    set_options(max_rows=6)
    values = [f"v{i}" for i in range(400)]
    parts: list[Any] = ["select 1"]
    for index, value in enumerate(values):
        parts += [" , ", field(value, f"x{index}")]
    t = template(*parts, "")
    text = display.to_text(t)
    page = Page(html_of(t))
    assert "… 394 more fields …" in text and "… 394 more fields …" in page.all_text
    assert "… 394 more parameters …" in text and "… 394 more parameters …" in page.all_text
    set_options(max_value_chars=10)
    long = template("", field("z" * 500, "z"), "")
    assert "'zzzzzzzzzz' … 490 more characters" in display.to_text(long)
    assert "… 490 more characters" in Page(html_of(long)).all_text


def test_text_view_does_not_cut_values_shorter_than_the_limit(renderers: Any) -> None:
    value = "w" * 150  # the text view once cut every column at 40 characters, silently
    assert repr(value) in display.to_text(template("", field(value, "w"), ""))


# (That the model knows no view, and that no module imports one that imports it back, is
# tests/test_architecture.py's, for the whole package.)


# --- the README's first example, as written ------------------------------------------------------


def test_the_extension_puts_the_renderers_in_the_namespace(ishell: Any, tmp_path: Any) -> None:
    from conftest import run

    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    ishell.user_ns["file"] = str(tmp_path / "notes.txt")
    assert run(ishell, "sh(i'cat {file}')") == f"cat {tmp_path / 'notes.txt'}"
    assert {"sh", "argv", "sql", "html"} <= set(ishell.user_ns)
    status = ishell.magics_manager.registry["IStringExtension"].status()
    assert "renderers in your namespace: sh, argv, sql, html" in status


def test_renderers_in_namespace_can_be_turned_off_and_never_replace_a_users_name(
    _shell_instance: Any,
) -> None:
    shell = _shell_instance
    shell.user_ns["sql"] = "my own"
    shell.config.IStringExtension.renderers_in_namespace = False
    try:
        shell.run_line_magic("load_ext", "ipy_istring")
        assert "sh" not in shell.user_ns and shell.user_ns["sql"] == "my own"
        shell.run_line_magic("unload_ext", "ipy_istring")
        del shell.config.IStringExtension["renderers_in_namespace"]
        shell.run_line_magic("load_ext", "ipy_istring")
        assert shell.user_ns["sql"] == "my own" and callable(shell.user_ns["sh"])
        shell.run_line_magic("unload_ext", "ipy_istring")
        assert "sh" not in shell.user_ns and shell.user_ns["sql"] == "my own"
    finally:
        shell.config.IStringExtension.pop("renderers_in_namespace", None)
        shell.reset(new_session=False)


# --- text objects that lie: str subclasses from the user's code -------------------------------


class Lying(str):
    """A text whose own methods say it needs no escape, and whose length cannot be read."""

    def isalnum(self) -> bool:
        return True

    def isprintable(self) -> bool:
        return True

    def replace(self, *args: Any) -> str:  # type: ignore[override]
        return self

    def __len__(self) -> int:
        raise RuntimeError("no length")


class LyingRepr:
    def __repr__(self) -> str:
        return Lying(XSS_IMG + "\x1b]0;TITLE\x07\x1b[2J")


def test_a_repr_that_is_a_lying_str_subclass_is_shown_as_plain_text(formatter: Any) -> None:
    t = template("echo ", field(LyingRepr(), "v"), "")
    bundle, _ = formatter.format(t)
    page = Page(bundle["text/html"])
    assert not page.tags("img") and XSS_IMG in page.all_text
    assert "\x1b" not in bundle["text/plain"] and "\\x1b]0;TITLE" in bundle["text/plain"]
    # the same characters from a plain str: the same views
    plain = template("echo ", field(XSS_IMG + "\x1b]0;TITLE\x07\x1b[2J", "v"), "")
    assert not Page(formatter.format(plain)[0]["text/html"]).tags("img")


def test_lying_expressions_specs_and_type_names_are_shown_as_plain_text(
    formatter: Any,
) -> None:
    value = type("Odd", (), {"__module__": Lying(XSS_IMG)})()
    lying = Lying(XSS_IMG)
    t = template("", Interpolation(value, lying, None, lying), "")
    bundle, _ = formatter.format(t)
    page = Page(bundle["text/html"])
    assert not page.tags("img") and page.all_text.count(XSS_IMG) >= 2
    assert XSS_IMG in bundle["text/plain"]


def test_a_renderer_name_must_be_a_non_empty_str(renderers: Any) -> None:
    for name in (("my", "renderer"), 42, None, "", Lying("x")):
        with pytest.raises(TypeError, match="non-empty str"):
            renderers[name] = lambda t: "x"
    for name in (("my", "renderer"), 42):
        with pytest.raises(TypeError, match="non-empty str"):
            registry.register_renderer(name)(lambda t: "x")  # type: ignore[call-overload]
    assert set(renderers) == {"argv", "format", "html", "sh", "sql"}
    # ...and every template still displays, with every renderer
    t = template("select ", field(1, "n"), "")
    assert "format → select 1" in display.to_text(t)


def test_a_registry_mapping_with_odd_names_still_displays() -> None:
    view = view_model.describe(
        template("a ", field(1, "n"), ""), registry={("t",): str, Lying("shout"): str.upper}
    )
    assert {output.name for output in view.outputs} == {"?", "shout"}
    assert all(type(output.name) is str for output in view.outputs)


def test_a_bulk_template_is_rendered_in_one_pass_over_its_text(
    renderers: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2,000-row insert built in a loop displayed in 72 s: html() split the whole text
    once per field, sql() searched it from its start once per field.  (Work counted, not
    timed: the machines are shared.)"""
    import importlib

    from ipy_istring import _html_contexts

    sql = importlib.import_module("ipy_istring.sql")

    parts: list[Any] = ["insert into users (id, name) values "]
    for row in range(2000):
        parts += ["(", field(row, "id_"), ", ", field(f"name{row}", "name"), "), "]
    t = template(*parts)
    splits: list[int] = []
    split = _html_contexts._split_fields
    monkeypatch.setattr(
        _html_contexts, "_split_fields", lambda *a: splits.append(1) or split(*a)
    )
    searched: list[int] = []

    class CountedNewline:
        def search(self, text: str, start: int, end: int) -> Any:
            searched.append(end - max(start, 0))
            return sql._NEWLINE.search(text, start, end)

    monkeypatch.setattr(sql, "_NEWLINE", CountedNewline())
    text = display.to_text(t)
    assert "html → insert into users" in text and "sql → insert into users" in text
    assert len(splits) <= 2
    assert sum(searched) <= len(format(t))


# --- a BaseException from a value or renderer: shown, but Ctrl-C still stops ---------------------


class Stop(BaseException):
    """An exception outside ``Exception``, as a library's own control-flow signal may be."""


# SystemExit is shown too: IPython never exits on one raised by the user's code.
BASE_EXCEPTIONS = [Stop("stop <b>here</b>"), GeneratorExit(), SystemExit(3)]


class RaisesInRepr:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        raise self.exc


class RaisesInFormat:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        return "RaisesInFormat()"

    def __format__(self, spec: str) -> str:
        raise self.exc


class UnprintableStop(BaseException):
    def __str__(self) -> str:
        raise Stop("nor its message")


def _raising_type_name(exc: BaseException) -> object:
    """A value whose type's ``__module__`` raises ``exc`` (a metaclass property)."""

    def module(cls: type) -> str:
        raise exc

    meta = type("Meta", (type,), {"__module__": property(module)})
    return meta("Odd", (), {})()


def _raising_renderer(exc: BaseException) -> Any:
    def renderer(t: Any) -> str:
        raise exc

    return renderer


@pytest.mark.parametrize("exc", BASE_EXCEPTIONS, ids=lambda e: type(e).__name__)
def test_a_base_exception_from_a_value_or_renderer_is_shown_not_raised(
    formatter: Any, renderers: Any, exc: BaseException
) -> None:
    """A repr, format or renderer raising a BaseException made display_formatter.format(t)
    itself raise: the cell lost its whole output."""
    name = type(exc).__name__
    renderers["stopping"] = _raising_renderer(exc)
    t = template(
        "rm ", field(RaisesInRepr(exc), "a"), " ", field(RaisesInFormat(exc), "b"),
        " ", field(_raising_type_name(exc), "c"), "",
    )
    data, _ = formatter.format(t)
    text, page = data["text/plain"], Page(data["text/html"])
    assert f"repr() raised {name}" in text and f"repr() raised {name}" in page.all_text
    assert "RaisesInFormat()" in text  # its repr is fine: only format fails
    assert "?" in [f.type_name for f in display.describe(t).fields]
    by_name = {o.name: o for o in display.describe(t).outputs}
    for renderer in ("format", "sh", "argv", "html", "stopping"):
        assert by_name[renderer].kind == "error", renderer
        assert by_name[renderer].text.text.startswith(name), renderer
    assert f"stopping → error: {name}" in text
    assert not page.tags("b")


def test_a_base_exception_in_a_result_or_message_is_shown_not_raised(
    formatter: Any, renderers: Any
) -> None:
    class StoppingQuery(TreacherousQuery):
        @property
        def sql(self) -> str:
            raise Stop("the query cannot be read")

    renderers["unreadable"] = lambda t: StoppingQuery()
    renderers["unprintable"] = _raising_renderer(UnprintableStop())
    data, _ = formatter.format(template("echo ", field(RaisesInRepr(UnprintableStop()), "v"), ""))
    text = data["text/plain"]
    assert "unreadable → error: the renderer's result could not be read: Stop" in text
    assert "unprintable → error: UnprintableStop: <unprintable message>" in text
    assert "repr() raised UnprintableStop: <unprintable message>" in text


def test_a_registry_raising_a_base_exception_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(registry.RendererRegistry):
        def _ensure_loaded(self) -> None:
            raise SystemExit("a plug-in called sys.exit() on import")

    monkeypatch.setattr(registry, "renderers", Broken())
    text = display.to_text(template("x ", field(1), ""))
    assert "renderer registry could not load: SystemExit: a plug-in called" in text


@pytest.mark.parametrize(
    "make",
    [
        lambda: template("rm ", field(RaisesInRepr(KeyboardInterrupt()), "v"), ""),
        lambda: template("rm ", field(RaisesInFormat(KeyboardInterrupt()), "v"), ""),
        lambda: template("rm ", field(_raising_type_name(KeyboardInterrupt()), "v"), ""),
    ],
    ids=["repr", "format", "type name"],
)
def test_ctrl_c_in_a_value_still_stops_the_display(formatter: Any, make: Any) -> None:
    """KeyboardInterrupt is the user's Ctrl-C on a slow repr: the display must not eat it."""
    with pytest.raises(KeyboardInterrupt):
        formatter.format(make())


def test_ctrl_c_in_a_renderer_still_stops_the_display(formatter: Any, renderers: Any) -> None:
    renderers["slow"] = _raising_renderer(KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        formatter.format(template("ls ", field("x", "v"), ""))
