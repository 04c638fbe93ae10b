"""The live widget, driven without a frontend (ipywidgets over comm's dummy comm)."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import ipywidgets
import pytest

from ipy_istring import registry, widget
from ipy_istring.display_options import set_options
from ipy_istring.template import Interpolation, InterpolationTemplate

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
XSS = "</table><script>alert(1)</script><img src=x onerror=alert(1)>"


class Page(HTMLParser):
    """Tags, attributes and text of an HTML fragment."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data

    def tags(self, name: str) -> list[dict[str, str | None]]:
        return [attrs for tag, attrs in self.elements if tag == name]


@pytest.fixture(autouse=True)
def fresh_state(display_options: Any) -> Iterator[None]:
    yield
    widget.close_display_widgets()


@pytest.fixture
def renderers(monkeypatch: pytest.MonkeyPatch) -> registry.RendererRegistry:
    fresh = registry.RendererRegistry()
    list(fresh)
    monkeypatch.setattr(registry, "renderers", fresh)
    return fresh


@pytest.fixture
def shell(renderers: Any) -> Iterator[Any]:
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.events.register("pre_run_cell", widget.pre_run_cell)
    try:
        yield ip
    finally:
        ip.events.unregister("pre_run_cell", widget.pre_run_cell)
        widget.pre_run_cell(None)


def query_template() -> InterpolationTemplate:
    return InterpolationTemplate(
        "select * from users where name = ",
        Interpolation("O'Brien", "name", None, ""),
        " and age > ",
        Interpolation(30, "age", None, ""),
        "",
    )


def is_live(w: Any) -> bool:
    return w.comm is not None


# --- the widget ------------------------------------------------------------------------------


def test_inspect_returns_widget_with_every_renderer(renderers: Any) -> None:
    w = query_template().inspect()
    try:
        assert isinstance(w, widget.TemplateWidget)
        assert isinstance(w, ipywidgets.VBox)
        # (options are (label, name) pairs: the label is the name made visible)
        assert set(w.control.options) == {(name, name) for name in renderers}
        assert w.control.options[0] == ("format", "format") and w.renderer == "format"
        assert "select * from users where name = O'Brien and age > 30" in Page(w.output.value).text
        fields = Page(w.fields.value)
        assert "'O\\'Brien'" in fields.text or '"O\'Brien"' in fields.text
        assert len(fields.tags("style")) == 1
        assert w not in widget.live_display_widgets()  # the user's, not the display's
    finally:
        w.close()


def test_choosing_a_renderer_changes_the_output(renderers: Any) -> None:
    w = widget.TemplateWidget(query_template())
    try:
        w.control.value = "sql"
        page = Page(w.output.value)
        assert "select * from users where name = ? and age > ?" in page.text
        assert len(page.tags("table")) == 1
        assert "parameters (2)" in page.text and "int" in page.text

        w.renderer = "sh"
        assert "O'\"'\"'Brien" in Page(w.output.value).text

        argv_template = InterpolationTemplate("ls -l ", Interpolation("a b", "f"), "")
        a = widget.TemplateWidget(argv_template, renderer="argv")
        try:
            rows = Page(a.output.value).tags("tr")
            assert len(rows) == 4  # header, then arguments 0, 1, 2
            assert "'a b'" in Page(a.output.value).text
        finally:
            a.close()
    finally:
        w.close()


def test_html_renderer_shows_source_and_sandboxed_preview(renderers: Any) -> None:
    t = InterpolationTemplate("<p>Hello ", Interpolation(XSS, "name"), "</p>")
    w = widget.TemplateWidget(t, renderer="html")
    try:
        page = Page(w.output.value)
        assert not page.tags("script") and not page.tags("img") and not page.tags("p")
        assert "<p>Hello &lt;/table&gt;" in page.text  # the escaped source, shown as text
        (frame,) = page.tags("iframe")
        assert frame["sandbox"] == ""
        srcdoc = frame["srcdoc"] or ""
        assert srcdoc.startswith("<style>")  # a readable font, not the browser's serif
        assert srcdoc.endswith(
            "<p>Hello &lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
            "&lt;img src=x onerror=alert(1)&gt;</p>"
        )
        assert "<script" not in srcdoc
    finally:
        w.close()


def test_dropdown_when_many_renderers(renderers: Any) -> None:
    for index in range(5):
        renderers[f"extra{index}"] = lambda t: "x"
    w = widget.TemplateWidget(query_template())
    try:
        assert isinstance(w.control, ipywidgets.Dropdown)
        w.control.value = "extra3"
        assert "x" in Page(w.output.value).text
    finally:
        w.close()


def test_raising_renderer_shows_message_in_the_widget(renderers: Any) -> None:
    def refuse(t: Any) -> str:
        raise TypeError(f"no thanks {XSS}")

    renderers["refuse"] = refuse
    w = widget.TemplateWidget(query_template(), renderer="refuse")
    try:
        page = Page(w.output.value)
        assert f"TypeError: no thanks {XSS}" in page.text
        assert not page.tags("script") and not page.tags("img")
        assert "Traceback" not in w.output.value
    finally:
        w.close()


def test_hostile_values_escaped_in_widget_fields(renderers: Any) -> None:
    class Boom:
        def __repr__(self) -> str:
            raise RuntimeError(XSS)

    t = InterpolationTemplate("a", Interpolation(XSS, XSS), "b", Interpolation(Boom(), "b"), "")
    w = widget.TemplateWidget(t)
    try:
        page = Page(w.fields.value)
        assert not page.tags("script") and not page.tags("img")
        assert len(page.tags("table")) == 1
        assert f"repr() raised RuntimeError: {XSS}" in page.text
    finally:
        w.close()


# --- display and lifecycle -------------------------------------------------------------------


def test_display_bundle_carries_widget_and_static_html(shell: Any) -> None:
    set_options(use_widget=True)
    data, _ = shell.display_formatter.format(query_template())
    assert "text/html" in data and "text/plain" in data
    model_id = data[WIDGET_MIME]["model_id"]
    (w,) = widget.live_display_widgets()
    assert w.model_id == model_id and is_live(w)
    assert Page(data["text/html"]).tags("style")


def test_rerun_of_a_cell_closes_its_previous_widgets(shell: Any) -> None:
    set_options(use_widget=True)
    shell.user_ns["t"] = query_template()
    shell.run_cell("display(t); t", cell_id="cell-a", store_history=False)
    first = widget.live_display_widgets()
    assert len(first) == 2 and all(is_live(w) for w in first)
    shell.run_cell("t", cell_id="cell-b", store_history=False)
    (other,) = [w for w in widget.live_display_widgets() if w not in first]

    shell.run_cell("display(t); t", cell_id="cell-a", store_history=False)
    assert not any(is_live(w) for w in first)
    assert is_live(other)
    assert len(widget.live_display_widgets()) == 3

    widget.close_display_widgets()
    assert widget.live_display_widgets() == []
    assert not is_live(other)


def test_no_widget_when_option_is_off(shell: Any) -> None:
    shell.user_ns["t"] = query_template()
    shell.run_cell("t", cell_id="cell-c", store_history=False)
    assert widget.live_display_widgets() == []


def test_inspected_widget_carries_the_static_view() -> None:
    """Shown where widgets can't be (GitHub, nbconvert), t.inspect() still shows the template."""
    template = InterpolationTemplate("echo ", Interpolation("<b>x</b>", "name"))
    bundle = widget.TemplateWidget(template)._repr_mimebundle_()
    assert bundle is not None
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "ipyis-root" in bundle["text/html"]
    assert "&lt;b&gt;x&lt;/b&gt;" in bundle["text/html"]
    assert "<b>x</b>" not in bundle["text/html"]
    assert "name" in bundle["text/plain"] and "TemplateWidget(" not in bundle["text/plain"]


def test_the_widget_pages_through_every_field(renderers: Any) -> None:
    set_options(max_rows=10)
    parts: list[Any] = ["select 1"]
    for index in range(25):
        parts += [" , ", Interpolation(index * 3, f"x{index}")]
    w = widget.TemplateWidget(InterpolationTemplate(*parts, ""))
    try:
        assert (w.pager.min, w.pager.max) == (0, 2)
        seen: list[str] = []
        notes = []
        for page in range(3):
            w.pager.value = page  # as the reader moves the slider
            seen.extend(_expressions(w.fields.value))
            notes.append(Page(w.fields.value).text.split("fields ", 1)[1].split(" of ")[0])
            assert "more fields" not in w.fields.value  # a page is whole: nothing cut
        assert seen == [f"x{index}" for index in range(25)]
        assert notes == ["0 to 9", "10 to 19", "20 to 24"]
        w.show_fields_from(13)
        assert w.pager.value == 1 and _expressions(w.fields.value)[0] == "x10"
    finally:
        w.close()


def _expressions(markup: str) -> list[str]:
    import re
    from html import unescape

    cells = re.findall(r"<td class='ipyis-code ipyis-expr'>(.*?)</td>", markup)
    return [unescape(cell) for cell in cells]


def test_invisible_characters_show_as_escapes_in_the_widget(renderers: Any) -> None:
    value = "X\u202e\u2066\u200b\x1b[31m\r\blive"
    w = widget.TemplateWidget(InterpolationTemplate("echo ", Interpolation(value, "v"), ""))
    try:
        for markup in (w.fields.value, w.output.value):
            text = Page(markup).text
            for raw in "\u202e\u2066\u200b\x1b\r\b":
                assert raw not in text
        assert "echo X\\u202e\\u2066\\u200b\\x1b[31m\\r\\x08live" in Page(w.output.value).text
    finally:
        w.close()


def test_the_saved_static_view_shows_the_renderer_the_widget_shows(renderers: Any) -> None:
    w = widget.TemplateWidget(query_template())
    try:
        w.renderer = "sql"
        bundle = w._repr_mimebundle_()
        assert bundle is not None
        assert "renderer 'sql'" in bundle["text/plain"]
        page = Page(bundle["text/html"])
        opened = [attrs for attrs in page.tags("details") if "open" in attrs]
        assert len(opened) == 2  # the fields, and sql's output
        assert "renderer sql" in page.text
    finally:
        w.close()


def test_a_lone_surrogate_in_the_html_preview_can_be_sent_to_the_front_end(
    renderers: Any,
) -> None:
    """A value from json.loads of untrusted text may hold a lone surrogate: the preview's
    state held it raw, which jupyter_client's packer cannot send (the cell failed)."""
    from jupyter_client.session import json_packer

    t = InterpolationTemplate("<p>", Interpolation("caf\ud800e", "v"), "</p>")
    w = widget.TemplateWidget(t, renderer="html")
    try:
        json_packer(w.output.get_state())  # (raised UnicodeEncodeError)
        page = Page(w.output.value)
        (frame,) = page.tags("iframe")
        assert "<p>caf\ufffde</p>" in (frame["srcdoc"] or "")
        assert "caf\\ud800e" in page.text  # the source shows the escape
    finally:
        w.close()


def test_inspect_renders_nothing_too_big_for_the_display(renderers: Any) -> None:
    """t.inspect() ran every renderer on a 20 MB value the display skips (2.5 GB for sh)."""
    called: list[str] = []
    renderers["spy"] = lambda t: called.append("spy") or "x"
    t = InterpolationTemplate("cat ", Interpolation("x" * 2_000, "doc"), "")
    with set_options(max_render_chars=1_000):
        w = t.inspect()
        try:
            for name in ("format", "sh", "spy"):
                w.renderer = name
                assert "max_render_chars" in Page(w.output.value).text
            assert "max_render_chars" in w._repr_mimebundle_()["text/plain"]
        finally:
            w.close()
    assert called == []


# --- a BaseException from a value or renderer: shown, but Ctrl-C still stops ---------------------


class Stop(BaseException):
    """An exception outside ``Exception``, as a library's own control-flow signal may be."""


class Raising:
    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __repr__(self) -> str:
        raise self.exc

    def __format__(self, spec: str) -> str:
        raise self.exc


def _raising(exc: BaseException) -> Any:
    def renderer(t: Any) -> str:
        raise exc

    return renderer


@pytest.mark.parametrize(
    "exc", [Stop("stop"), GeneratorExit(), SystemExit(3)], ids=lambda e: type(e).__name__
)
def test_a_base_exception_is_shown_in_the_widget(
    shell: Any, renderers: Any, exc: BaseException
) -> None:
    """The widget, shown for a display or made by t.inspect(), ran the same unguarded code."""
    name = type(exc).__name__
    renderers["stopping"] = _raising(exc)
    t = InterpolationTemplate("rm ", Interpolation(Raising(exc), "v"), "")
    set_options(use_widget=True)
    data, _ = shell.display_formatter.format(t)
    (shown,) = widget.live_display_widgets()
    assert data[WIDGET_MIME]["model_id"] == shown.model_id
    w = t.inspect()
    try:
        assert f"repr() raised {name}" in Page(w.fields.value).text
        for renderer in ("format", "sh", "stopping"):
            w.renderer = renderer
            assert f"{name}" in Page(w.output.value).text, renderer
        bundle = w._repr_mimebundle_()
        assert bundle is not None and f"stopping → error: {name}" in bundle["text/plain"]
    finally:
        w.close()


def test_ctrl_c_still_stops_the_widget(renderers: Any) -> None:
    renderers["slow"] = _raising(KeyboardInterrupt())
    t = InterpolationTemplate("ls ", Interpolation("x", "v"), "")
    w = t.inspect()
    try:
        with pytest.raises(KeyboardInterrupt):
            w.renderer = "slow"
    finally:
        w.close()
    with pytest.raises(KeyboardInterrupt):
        InterpolationTemplate("ls ", Interpolation(Raising(KeyboardInterrupt()), "v"), "").inspect()
