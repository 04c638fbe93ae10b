"""The display against hostile values, the hostile pass: what a field iterates and what a
nested template holds.

The display decides, before it runs any renderer, whether the template is too big to render
(``max_render_chars``) or holds an iterator a renderer would consume.  Both checks looked only
at the template's own values, and sized a value by its repr.  So:

- a lazy iterable a field spreads (``{ids:*}`` of sh/argv, ``{ids:in}`` of sql) has a short
  repr (``range(0, 1000000000)``) and was spread in full by every renderer: the display of
  ``rm {ids:*}`` with ``range(3_000_000)`` took 40 s, an endless iterable never returned,
  while the same items in a list were known to be too big at once;
- a template held by a field (sql's ``{cond:q}``, html's nested markup) hid its values: the
  same two million ids that are "not rendered here" at the top rendered in full one level
  down, and a generator there was consumed by the display, so the user's own query, run in
  sqlite3 afterwards, failed with "IN () is not valid SQL".

Each test counts what was drawn from the values (no timing), runs the user's own call in the
real destination (sqlite3, dash), and keeps the look-alikes rendered.
"""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from ipy_istring import display, registry, view_model
from ipy_istring.display_options import set_options
from ipy_istring.shell import sh
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate

pytestmark = pytest.mark.usefixtures("display_options")


@pytest.fixture
def renderers(monkeypatch: pytest.MonkeyPatch) -> registry.RendererRegistry:
    """The built-in renderers only, as the global registry (none a test added elsewhere)."""
    monkeypatch.setattr(registry, "renderers", registry.RendererRegistry())
    return registry.renderers


def field(value: object, expression: str, spec: str = "") -> Interpolation:
    return Interpolation(value, expression, None, spec)


def kinds(t: InterpolationTemplate) -> dict[str, str]:
    return {o.name: o.kind for o in display.describe(t).outputs}


class Fuse(BaseException):
    """Stands for "never ends": raised by :class:`Endless` after a million items."""


class Endless:
    """An iterable (not an iterator: it can be iterated again) with no end, counting the
    items drawn from it; after a million it raises :class:`Fuse`, so the old display fails
    the test instead of hanging it."""

    def __init__(self) -> None:
        self.drawn = 0

    def __repr__(self) -> str:
        return "Endless()"

    def __iter__(self) -> Iterator[int]:
        while True:
            self.drawn += 1
            if self.drawn > 1_000_000:
                raise Fuse
            yield self.drawn


class Counting:
    """A finite iterable of ``n`` ints with a short repr, counting the items drawn."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.drawn = 0

    def __repr__(self) -> str:
        return f"Counting({self.n})"

    def __iter__(self) -> Iterator[int]:
        for item in range(self.n):
            self.drawn += 1
            yield item


# --- a lazy iterable a field spreads -----------------------------------------------------------


def test_an_endless_iterable_spread_into_words_is_not_rendered_by_the_display(
    renderers: Any,
) -> None:
    """Positive control: sh spreads ``{ids:*}`` in full; the old display drew a million items
    (and would never have returned without the fuse)."""
    endless = Endless()
    with pytest.raises(Fuse):
        sh(InterpolationTemplate("rm ", field(Endless(), "ids", "*")))  # the user's own call
    with set_options(max_render_chars=1_000):
        view = display.describe(InterpolationTemplate("rm ", field(endless, "ids", "*")))
    assert {o.kind for o in view.outputs} == {"skipped"}
    assert "max_render_chars" in view.outputs[0].text.text
    assert endless.drawn <= 1_001
    text = display.to_text(InterpolationTemplate("rm ", field(endless, "ids", "*")))
    assert "not rendered here" in text


def test_a_lazy_iterable_spread_is_sized_by_its_items_like_a_list(renderers: Any) -> None:
    """``range(3_000_000)`` spread into sh words took 40 s to display; the same items in a
    list were "not rendered here" at once."""
    with set_options(max_render_chars=1_000):
        for spec, text in (("*", "rm "), ("in", "select * from t where id in ")):
            lazy = Counting(100_000)
            t = InterpolationTemplate(text, field(lazy, "ids", spec))
            listed = InterpolationTemplate(text, field(list(range(100_000)), "ids", spec))
            assert set(kinds(t).values()) == {"skipped"} == set(kinds(listed).values())
            assert lazy.drawn <= 1_001
        big_range = InterpolationTemplate("rm ", field(range(10**9), "ids", "*"))
        assert set(kinds(big_range).values()) == {"skipped"}
        # the widget's path (one renderer chosen) checks the same way
        widget_view = view_model.render_within_limits(big_range, "sh", renderers["sh"])
        assert widget_view.kind == "skipped"



class BigWords:
    """A lazy source of 10 MB words (pages of a dump, say), counting the words drawn."""

    def __init__(self) -> None:
        self.drawn = 0

    def __repr__(self) -> str:
        return "BigWords()"

    def __iter__(self) -> Iterator[str]:
        for _ in range(1_000):
            self.drawn += 1
            yield "w" * 10_000_000


def test_a_lazy_source_of_huge_words_is_read_no_further_than_the_limit(renderers: Any) -> None:
    """The items drawn stop when their text alone passes the limit: one 10 MB word, not a
    thousand of them (10 GB)."""
    words = BigWords()
    with set_options(max_render_chars=1_000):
        t = InterpolationTemplate("cat ", field(words, "pages", "*"))
        assert set(kinds(t).values()) == {"skipped"}
    assert words.drawn == 1

def test_small_lazy_iterables_spread_are_still_rendered(renderers: Any) -> None:
    """Look-alikes: a short range, a numpy array, a custom iterable spread into words render
    as before, and the command the display shows runs as it says in dash."""
    for value in (range(3), np.arange(3), Counting(3)):
        t = InterpolationTemplate("printf '%s\\n' ", field(value, "ids", "*"))
        view = display.describe(t)
        shown = {o.name: o for o in view.outputs}
        assert shown["sh"].kind == "text" and shown["sh"].text.text == "printf '%s\\n' 0 1 2"
        assert shown["argv"].kind == "argv"
        ran = subprocess.run(["dash", "-c", sh(t)], capture_output=True, text=True, check=True)
        assert ran.stdout == "0\n1\n2\n"


def test_a_large_value_not_spread_is_still_rendered(renderers: Any) -> None:
    """Look-alike: an array of a million items formatted (not spread) is text numpy cuts
    short; its items are not counted, and every renderer runs."""
    t = InterpolationTemplate("echo ", field(np.zeros(1_000_000), "a"))
    with set_options(max_render_chars=10_000):
        assert "skipped" not in set(kinds(t).values())
        assert kinds(t)["format"] == "text"


# --- a template a field holds ------------------------------------------------------------------


def _nested_ids(ids: object) -> InterpolationTemplate:
    cond = InterpolationTemplate("x in ", field(ids, "ids", "in"))
    return InterpolationTemplate("select x from t where ", field(cond, "cond", "q"))


def test_a_huge_list_in_a_nested_template_is_not_rendered_by_the_display(renderers: Any) -> None:
    """Positive control: sql composes the nested template's 200,000 ids into the query;
    the old display rendered it (the same list at the top was not rendered)."""
    ids = list(range(200_000))
    assert len(sql(_nested_ids(ids)).params) == 200_000  # the user's own call
    top = InterpolationTemplate("select x from t where id in ", field(ids, "ids", "in"))
    with set_options(max_render_chars=100_000):
        assert set(kinds(top).values()) == {"skipped"}
        assert set(kinds(_nested_ids(ids)).values()) == {"skipped"}
        lazy = Counting(200_000)
        assert set(kinds(_nested_ids(lazy)).values()) == {"skipped"}
        assert lazy.drawn <= 100_001
        # nested text counts too: a long static text one level down
        long_text = InterpolationTemplate("x" * 200_000)
        deep = InterpolationTemplate("select ", field(long_text, "part", "q"))
        assert set(kinds(deep).values()) == {"skipped"}


def test_a_generator_in_a_nested_template_is_not_consumed_by_the_display(renderers: Any) -> None:
    """Positive control, in sqlite3: the old display spent the generator, and the user's own
    query then failed ("IN () is not valid SQL") instead of finding rows 1 and 3."""
    db = sqlite3.connect(":memory:")
    db.executescript("create table t (x int); insert into t values (1), (2), (3);")
    t = _nested_ids(x for x in (1, 3))
    view = display.describe(t)
    assert {o.kind for o in view.outputs} == {"skipped"}
    assert "{ids:in} is a generator" in view.outputs[0].text.text
    assert "iterator" in display.to_text(t)
    assert db.execute(*sql(t)).fetchall() == [(1,), (3,)]


def test_a_nested_template_of_small_values_is_still_rendered(renderers: Any) -> None:
    """Look-alike: a nested template with a short list (and a range) renders, and the query
    the display shows is the one sqlite3 runs."""
    db = sqlite3.connect(":memory:")
    db.executescript("create table t (x int); insert into t values (1), (2), (3);")
    for ids in ([1, 3], range(1, 4, 2)):
        t = _nested_ids(ids)
        shown = {o.name: o for o in display.describe(t).outputs}
        assert shown["sql"].kind == "query"
        assert shown["sql"].text.text == "select x from t where x in (?, ?)"
        assert db.execute(*sql(t)).fetchall() == [(1,), (3,)]


class LyingTemplate:
    """Claims to be a template through ``__class__``; its parts raise when read."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        return InterpolationTemplate

    @property
    def interpolations(self) -> Any:
        raise RuntimeError("no parts")

    @property
    def strings(self) -> Any:
        raise RuntimeError("no parts")

    def __repr__(self) -> str:
        return "LyingTemplate()"


def test_a_value_lying_that_it_is_a_template_still_displays(renderers: Any) -> None:
    """The new walk into nested templates reads their parts inside a guard."""
    t = InterpolationTemplate("select x from t where ", field(LyingTemplate(), "cond", "q"))
    view = display.describe(t)
    assert view.fields[0].value.text == "LyingTemplate()"
    assert "not rendered here" not in display.to_text(t)


# --- the widget's preview of html() output loads nothing ---------------------------------------

PIXEL = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8"
    "/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg=="
)


@pytest.fixture
def listener() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server: its base URL, and the paths requested from it."""
    import http.server
    import threading

    requested: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requested
    finally:
        server.shutdown()
        server.server_close()


def _shown_in_chromium(chromium_path: str, markup: str) -> list[Any]:
    """Put ``markup`` into a page as ipywidgets' HTML does (innerHTML), let it load, and read
    the preview frame: its text, its images' widths, its paragraph's colour."""
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
        )
        try:
            tab = browser.new_page()
            tab.set_content("<div id='out'></div>")
            tab.evaluate("m => { document.getElementById('out').innerHTML = m }", markup)
            tab.wait_for_timeout(500)
            frame = tab.frames[1]
            frame.wait_for_load_state("load")
            return list(
                frame.evaluate(
                    "() => [document.body.innerText, "
                    "[...document.images].map(i => i.naturalWidth), "
                    "getComputedStyle(document.querySelector('p')).color]"
                )
            )
        finally:
            browser.close()


def test_the_html_preview_fetches_no_url_of_a_value(
    renderers: Any, chromium_path: str, listener: tuple[str, list[str]]
) -> None:
    """Positive control: the same rendered HTML in a frame sandboxed as before (no policy)
    makes Chromium request the value's URL; the widget's preview requests nothing, and still
    shows the text, an inline style and a data: image."""
    from html import escape

    from ipy_istring import html_view
    from ipy_istring.html import html

    base, requested = listener
    t = InterpolationTemplate(
        "<p style='color: rgb(0, 128, 0)'>hi</p><img src='",
        field(f"{base}/avatar", "avatar"),
        f"'><img src='{PIXEL}'><video poster='",
        field(f"{base}/poster", "poster"),
        "'></video>",
    )
    rendered = str(html(t))
    assert f"{base}/avatar" in rendered  # html() lets an http URL through: it is the page's
    old_preview = f"<iframe sandbox='' srcdoc='{escape(rendered)}'></iframe>"
    _shown_in_chromium(chromium_path, old_preview)
    assert "/avatar" in requested and "/poster" in requested
    requested.clear()

    output = view_model.render_one(t, "html", renderers["html"])
    assert output.kind == "html"
    preview = html_view.output_html(output, preview=True)
    text, widths, colour = _shown_in_chromium(chromium_path, preview)
    assert requested == []
    assert text.strip() == "hi" and colour == "rgb(0, 128, 0)"
    assert widths == [0, 1]  # the value's URL not loaded, the data: pixel loaded
