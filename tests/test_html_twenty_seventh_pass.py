"""Twenty-seventh pass over html(): enumerated attributes (a value is one of a set of keywords).

* ``hidden`` took any text: ``hidden="until-found"`` keeps the element's box painted, its
  content only hidden.  Positive control: pasted in, in Chromium a hidden 50px box showed
  (offsetHeight 50; 0 with ``""``, ``hidden`` or other text).  Now refused.
* ``dir``, ``draggable``, ``spellcheck``, ``translate``, ``inputmode``, ``loading``,
  ``decoding``, ``scope`` and ``wrap`` took any text; ``<ol type>``, ``<button type>``,
  ``<input type>``, ``popover``, ``<details open>``, ``enterkeyhint``, ``fetchpriority``,
  ``referrerpolicy``, ``<video preload>`` and ``<track kind>`` were refused whole (the
  over-refusals of earlier passes).  Now each is an allow-list: a field is the whole value,
  and the value one of the keywords that change the element alone, as written; each
  reflected as itself in Chromium (``el.type``, ``el.popover``...).
* ``<input type>``: ``image`` is refused.  Positive control: pasted in, in Chromium
  ``type="image"`` requested its src from a local server, and a click on it submitted its
  form to the server (``/submit?x=..&y=..``); ``text`` did neither.  ``radio`` (a page-wide
  group by name), ``submit``, ``reset``, ``button``, ``file``, ``password`` and ``hidden``
  are refused too.
* ``referrerpolicy``: ``unsafe-url`` and ``no-referrer-when-downgrade`` are refused.
  Positive control: pasted in, an image's host received the notebook page's whole URL,
  ``?token=SECRET`` too (the default sent the origin only); ``origin`` and
  ``origin-when-cross-origin`` are refused as well (they send the origin to http hosts).
* svg lengths take an exponent (``x="1e1"`` was 10px in Chromium, as pasted in): an
  over-refusal of the twenty-sixth pass.
* Holds (not a hole): svg name attributes (font-family, font-weight, text-anchor,
  dominant-baseline, stroke-linecap, stroke-linejoin, fill-rule) given ``inherit``,
  ``revert-layer``, ``revert`` or ``unset`` computed as with no attribute (they are
  inherited properties; a page's cascade layer gave nothing more), ``initial`` as the
  property's initial value.  They stay accepted.
* Other enumerated attributes stay refused: ``<a target>``, ``formtarget``, ``<form
  method>``, ``enctype``, ``crossorigin``, ``contenteditable``, ``<area shape>``, and every
  attribute of the elements that load or run (``<meta http-equiv>``, ``<link rel>``,
  ``<script type>``, ``<iframe sandbox>`` and ``allow``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive

from ipy_istring.fields import RenderError

REFUSED = "an enumerated attribute"


class Server:
    """A local HTTP server that records each request's path and Referer, and serves
    ``pages`` (path -> HTML) as text/html."""

    def __init__(self) -> None:
        seen: list[tuple[str, str]] = []
        self.seen = seen
        self.pages: dict[str, str] = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                seen.append((self.path, self.headers.get("Referer", "")))
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(pages.get(self.path.partition("?")[0], "").encode())

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Server, Server]]:
    """The notebook's server and another host (a cross-origin one: another port)."""
    pair = (Server(), Server())
    yield pair
    for server in pair:
        server.close()


def test_hidden_until_found_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    template = '<div id="t" hidden="{}" style="width: 50px; height: 50px">x</div>'
    tab = browser.new_page()
    # Positive control: pasted in, until-found left the hidden element's box on the page.
    tab.set_content(naive(template, "until-found"))
    assert tab.evaluate("t.offsetHeight") == 50
    with pytest.raises(RenderError, match=REFUSED):
        result(template, "until-found")
    for value in ("", "hidden"):
        tab.set_content(str(result(template, value)))
        assert tab.evaluate("[t.offsetHeight, t.hidden]") == [0, True]
    tab.close()


def test_input_type_image_positive_control_and_fix(
    browser: Any,  # noqa: F811
    servers: tuple[Server, Server],
) -> None:
    host = servers[1]
    template = (
        f'<form action="{host.origin}/submit"><input id="t" type="{{}}" '
        f'src="{host.origin}/pixel" style="width: 40px; height: 40px"></form>'
    )
    tab = browser.new_page()
    # Positive control: pasted in, type="image" loaded its src and, clicked, submitted the form.
    host.seen.clear()
    tab.set_content(naive(template, "image"))
    tab.click("#t")
    tab.wait_for_timeout(300)
    paths = [path.partition("?")[0] for path, _ in host.seen]
    assert "/pixel" in paths and "/submit" in paths
    with pytest.raises(RenderError, match=REFUSED):
        result(template, "image")
    host.seen.clear()
    tab.set_content(str(result(template, "text")))
    tab.click("#t")
    tab.wait_for_timeout(300)
    assert host.seen == [] and tab.evaluate("t.type") == "text"
    tab.close()


@pytest.mark.parametrize("leaking", ["unsafe-url", "no-referrer-when-downgrade"])
def test_referrerpolicy_positive_control_and_fix(
    browser: Any,  # noqa: F811
    servers: tuple[Server, Server],
    leaking: str,
) -> None:
    notebook, host = servers
    template = f'<img id="t" src="{host.origin}/img" referrerpolicy="{{}}">'

    def referrer(page: str) -> str:
        host.seen.clear()
        notebook.pages["/nb"] = page
        tab = browser.new_page()
        tab.goto(f"{notebook.origin}/nb?token=SECRET")
        tab.wait_for_timeout(300)
        tab.close()
        return dict(host.seen)["/img"]

    # Positive control: pasted in, the image's host received the notebook's whole URL.
    assert referrer(naive(template, leaking)) == f"{notebook.origin}/nb?token=SECRET"
    with pytest.raises(RenderError, match=REFUSED):
        result(template, leaking)
    for policy in ("", "no-referrer", "same-origin", "strict-origin",
                   "strict-origin-when-cross-origin"):  # fmt: skip
        assert "SECRET" not in referrer(str(result(template, policy)))


# (template with #t, the property read, {keyword: what it reflects as}; None: the keyword)
REFLECTED = [
    ('<ol id="t" type="{}"></ol>', "type", dict.fromkeys("1aAiI")),
    ('<button id="t" type="{}">x</button>', "type", dict.fromkeys(("button", "submit", "reset"))),
    ('<input id="t" type="{}">', "type",
     dict.fromkeys(("text", "search", "tel", "url", "email", "number", "range", "date",
                    "month", "week", "time", "datetime-local", "color", "checkbox"))),
    ('<div id="t" popover="{}">x</div>', "popover",
     {"": "auto", "auto": None, "manual": None, "hint": None}),
    ('<details id="t" open="{}">x</details>', "open", {"": True, "open": True}),
    ('<p id="t" dir="{}">x</p>', "dir", dict.fromkeys(("ltr", "rtl", "auto"))),
    ('<p id="t" draggable="{}">x</p>', "draggable", {"true": True, "false": False}),
    ('<p id="t" spellcheck="{}">x</p>', "spellcheck", {"": True, "true": True, "false": False}),
    ('<p id="t" translate="{}">x</p>', "translate", {"": True, "yes": True, "no": False}),
    ('<p id="t" hidden="{}">x</p>', "hidden", {"": True, "hidden": True}),
    ('<input id="t" inputmode="{}">', "inputMode",
     dict.fromkeys(("none", "text", "decimal", "numeric", "tel", "search", "email", "url"))),
    ('<input id="t" enterkeyhint="{}">', "enterKeyHint",
     dict.fromkeys(("enter", "done", "go", "next", "previous", "search", "send"))),
    ('<img id="t" loading="{}">', "loading", dict.fromkeys(("lazy", "eager"))),
    ('<img id="t" decoding="{}">', "decoding", dict.fromkeys(("sync", "async", "auto"))),
    ('<img id="t" fetchpriority="{}">', "fetchPriority", dict.fromkeys(("high", "low", "auto"))),
    ('<img id="t" referrerpolicy="{}">', "referrerPolicy",
     {"": "", "no-referrer": None, "same-origin": None, "strict-origin": None,
      "strict-origin-when-cross-origin": None}),
    ('<table><tr><th id="t" scope="{}">x</th></tr></table>', "scope",
     dict.fromkeys(("row", "col", "rowgroup", "colgroup"))),
    ('<textarea id="t" wrap="{}"></textarea>', "wrap", dict.fromkeys(("soft", "hard"))),
    ('<video id="t" preload="{}"></video>', "preload", dict.fromkeys(("none", "metadata", "auto"))),
    ('<audio id="t" preload="{}"></audio>', "preload", dict.fromkeys(("none", "metadata", "auto"))),
    ('<video><track id="t" kind="{}"></video>', "kind",
     dict.fromkeys(("subtitles", "captions", "descriptions", "chapters", "metadata"))),
]  # fmt: skip


@pytest.mark.parametrize(("template", "prop", "keywords"), REFLECTED)
def test_each_keyword_renders_as_written_and_reflects_as_itself(
    browser: Any,  # noqa: F811
    template: str,
    prop: str,
    keywords: dict[str, object],
) -> None:
    reflects(browser, template, prop, {k: (k if r is None else r) for k, r in keywords.items()})


def reflects(browser: Any, template: str, prop: str, expected: dict[str, object]) -> None:  # noqa: F811
    """Assert each value (a key of ``expected``) renders as pasted in, and that ``t.{prop}``
    of the render reads as its entry in Chromium."""
    tab = browser.new_page()
    for value, reflected in expected.items():
        rendered = str(result(template, value))
        assert rendered == naive(template, value)
        tab.set_content(rendered)
        assert tab.evaluate(f"t.{prop}") == reflected, (template, value)
    tab.close()


# ("RTL" was here: the twenty-eighth pass accepts a keyword in any ASCII case, as Chromium
# reads it; the full-width letters stay refused, not folded by the browser.)
PAYLOADS = [
    '" onmouseover="window.__pwned=1" x="', "x", "\uff32\uff34\uff2c", " auto", "auto ", "1;"
]  # fmt: skip


@pytest.mark.parametrize(("template", "prop", "keywords"), REFLECTED)
@pytest.mark.parametrize("value", PAYLOADS)
def test_other_text_is_refused(template: str, prop: str, keywords: object, value: str) -> None:
    with pytest.raises(RenderError, match=REFUSED):
        result(template, value)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<p hidden="{}">x</p>', "until-found"),
     *[('<input type="{}" name="choice">', kind) for kind in
       ("image", "radio", "submit", "reset", "button", "file", "password", "hidden",
        "IMAGE")],  # ("TEXT" was here: accepted by the twenty-eighth pass; a refused one's case)
     *[('<a href="/x" referrerpolicy="{}">x</a>', policy) for policy in
       ("unsafe-url", "no-referrer-when-downgrade", "origin", "origin-when-cross-origin")],
     ('<p dir="r{}">x</p>', "tl"), ('<p dir="{}tl">x</p>', "r"), ('<p dir=" {}">x</p>', "rtl"),
     ('<div popover="{}{}">x</div>', "au")],
)  # fmt: skip
def test_dangerous_keywords_and_partial_values_are_refused(template: str, value: str) -> None:
    values = [value] * template.count("{}")
    with pytest.raises(RenderError, match=REFUSED):
        result(template, *values)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<a href="/x" target="{}">x</a>', "_top"),
     ('<form><button formtarget="{}">x</button></form>', "_parent"),
     ('<form method="{}"></form>', "dialog"), ('<form enctype="{}"></form>', "text/plain"),
     ('<img src="/a.png" crossorigin="{}">', "anonymous"),
     ('<p contenteditable="{}">x</p>', "true"),
     ('<map name="m"><area shape="{}" href="/x"></map>', "default"),
     ('<meta http-equiv="{}" content="0; url=/x">', "refresh"),
     ('<link rel="{}" href="/s.css">', "stylesheet"), ('<link rel="{}" href="/s">', "preload"),
     ('<script type="{}" src="/m.js"></script>', "module"),
     ('<script type="{}"></script>', "importmap"),
     ('<script type="{}"></script>', "speculationrules"),
     ('<iframe sandbox="{}" src="/x"></iframe>', "allow-scripts allow-same-origin"),
     ('<iframe allow="{}" src="/x"></iframe>', "camera")],
)  # fmt: skip
def test_other_enumerated_attributes_stay_refused(template: str, value: str) -> None:
    with pytest.raises(RenderError, match="stands in the attribute"):
        result(template, value)


def test_svg_lengths_take_an_exponent(browser: Any) -> None:  # noqa: F811
    template = '<svg><rect id="t" x="{}" width="5" height="5"/></svg>'
    tab = browser.new_page()
    for value, shown_as in (("1e1", "10px"), ("1.5E1", "15px"), ("1e+1px", "10px"),
                            ("1e-1", "0.1px"), ("-2e1%", "-20%")):  # fmt: skip
        rendered = str(result(template, value))
        assert rendered == naive(template, value)
        tab.set_content(rendered)
        assert tab.evaluate("getComputedStyle(t).x") == shown_as
    tab.close()
    for value in ("1e", "1e1e1", "e1", "1e1.5"):
        with pytest.raises(RenderError, match="svg attribute that takes lengths"):
            result(template, value)


# The page's values: a cascade layer's rule for the <g> around the text, and the svg's style.
LAYER = (
    "<style>@layer a { g { font-family: LayerFont; font-weight: 300; text-anchor: end; "
    "dominant-baseline: hanging; stroke-linecap: round; stroke-linejoin: bevel; "
    "fill-rule: evenodd } }</style>"
)
NAMED_TEXT = '<svg style="font-family: PageFont"><g><text id="t"ATTRIBUTE>a</text></g></svg>'
INITIAL = {"font-family": '"Times New Roman"', "font-weight": "400", "text-anchor": "start",
           "dominant-baseline": "auto", "stroke-linecap": "butt", "stroke-linejoin": "miter",
           "fill-rule": "nonzero"}  # fmt: skip


@pytest.mark.parametrize("name", sorted(INITIAL))
def test_svg_names_take_css_wide_keywords_as_no_attribute(
    browser: Any,  # noqa: F811
    name: str,
) -> None:
    tab = browser.new_page()

    def computed(svg: str) -> str:
        tab.set_content(LAYER + svg)
        return str(tab.evaluate(f"getComputedStyle(t).getPropertyValue('{name}')"))

    absent = computed(NAMED_TEXT.replace("ATTRIBUTE", ""))
    for keyword in ("inherit", "revert-layer", "revert", "unset", "initial"):
        rendered = str(result(NAMED_TEXT.replace("ATTRIBUTE", f' {name}="{{}}"'), keyword))
        expected = INITIAL[name] if keyword == "initial" else absent
        assert computed(rendered) == expected, keyword
    tab.close()
