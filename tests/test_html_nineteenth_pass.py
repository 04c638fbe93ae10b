"""Nineteenth red-team pass over html(): what a join of results and a directly built result
were trusted with.

* A ``<base target>`` from another joined result.  html() judges whether a link whose URL a
  value gives opens a tab holding ``window.opener`` by the link's target and the template's
  own ``<base target>`` (or a trusted value's, the eighteenth pass), but a join of results
  was checked only for MathJax and for where its pieces end:
  ``html(i'<base target="w">') + html(i'<a href="{u}">x</a>')`` was accepted, and in
  Chromium the value's page opened in a tab holding the notebook's window (reverse
  tabnabbing).  A ``<base>`` counts wherever it stands in the page, so a join (``+`` either
  side, ``.join()``) where one trusted piece brings a ``<base target>`` naming a window and
  another has a link that it would open with the opener is refused.  A joined result no
  longer tells which URLs a value gave, so every such link counts; a join without ``<base``
  in any piece reads nothing more (1,000 joined ``<li>`` results: no parse).  The same two
  results as trusted values of one template (``html(i"{a}{b}")``) were accepted too, and are
  refused the same way.
* ``HtmlMarkup(text)`` built directly.  It is the public type of html()'s result, and a
  result is joined without a parse (it ends in element text), so
  ``HtmlMarkup('<a id="l" href="') + "javascript:..." + Markup('">x</a>')`` made a link that
  ran in Chromium, as ``Markup`` joined to a result did before the eighteenth pass.  One
  built directly is now checked as trusted ``Markup`` joined to a result is (it must end in
  element text), when it is built; html(), the joins, ``strip()``, ``ljust()``, ``*``, a copy
  and a pickle make results without that check (a result may end in ``<textarea>`` text).
* The name (or id) of a ``<map>`` (a new context of this pass; the previous passes listed it
  as a known effect).  A page's ``<img usemap="#nav">`` follows the ``<area>`` links of the
  first map of that name or id in the page: in Chromium an earlier output's
  ``<map name="{m}">`` took over the clicks on a later output's image (its link was followed,
  not the image's own).  As with the ``name`` of ``<details>``, a value there would choose the
  page's element that the output acts for; it is refused.  The id of other elements stays
  accepted, a documented limit: an earlier output's ``<datalist id="{d}">`` became a later
  input's suggestions (kept here as a measured control; the twentieth pass refuses a value
  that gives a whole id, and this is now its positive control).
* An svg ``fill`` or ``stroke`` (a new context of this pass).  html() let values in as
  "colours", but a paint may be ``url(...)`` of a paint server, which Chromium fetches from
  another document: ``<rect fill="{c}">`` with ``c = "url(https://x.test/p.svg#g)"`` requested
  that URL, one html() never judged (any host and path, where the template wrote a colour).
  A value there may now hold only a colour's or an id's characters (no parenthesis, quote or
  backslash, so no function or CSS escape of its own); functions go in the template.
"""

from __future__ import annotations

import copy
import pickle
import time
from typing import Any

import pytest
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_eighteenth_pass import (
    CODE,
    escape,
    opener_of_new_tab,
    pwned_on_click,
    tabs,  # noqa: F401 (a fixture)
)
from test_html_seventh_pass import result

from ipy_istring import _html_contexts as contexts
from ipy_istring.fields import RenderError
from ipy_istring.html import HtmlMarkup

URL = "https://x.test/"

# --- a <base target> from another joined result ----------------------------------------------


def test_a_joined_base_target_positive_control_and_fix(tabs: Any) -> None:  # noqa: F811
    base = result('<base target="w">')
    link = result('<a id="l" href="{}">report</a>', URL)
    # Positive control: the page the join returned; the value's page got the notebook's window.
    assert opener_of_new_tab(tabs, str(base) + str(link)) is True
    assert opener_of_new_tab(tabs, str(link) + str(base)) is True  # (wherever the base stands)
    for join in (
        lambda: base + link,
        lambda: link + base,
        lambda: result("<ul>").join([base, link]),
        lambda: Markup('<base target="w">') + link,
        lambda: link + Markup("<p><BASE\ntarget=w></p>"),
        lambda: base + result('<svg><a id="l" href="{}"><text>x</text></a></svg>', URL),
    ):
        with pytest.raises(RenderError, match=r'a join of results has a <base target="w">'):
            join()
    # The fix the refusal gives: the target on the link (noopener for _blank), no <base>.
    fixed = result('<a id="l" href="{}" target="_blank">report</a>', URL)
    assert opener_of_new_tab(tabs, str(base + fixed)) is False


def test_a_base_target_in_another_trusted_field_positive_control_and_fix(tabs: Any) -> None:  # noqa: F811
    base = result('<base target="w">')
    link = result('<a id="l" href="{}">report</a>', URL)
    old = "<div>" + str(base) + str(link) + "</div>"  # (what html(i"<div>{a}{b}</div>") gave)
    assert opener_of_new_tab(tabs, old) is True
    for source, values in (
        ("<div>{}{}</div>", (base, link)),
        ("<div>{}{}</div>", (link, base)),
        ("<div>{}{}</div>", (Markup('<base target="w">'), link)),
        ("{}<p>{}</p>", (base, result("<i>{}</i>", link))),
    ):
        with pytest.raises(RenderError, match=r'trusted HTML, has a <base target="w">'):
            result(source, *values)
    fixed = result('<a id="l" href="{}" target="_blank">report</a>', URL)
    assert opener_of_new_tab(tabs, str(result("<div>{}{}</div>", base, fixed))) is False


@pytest.mark.parametrize(
    "base, link",
    [
        ('<base target="_self">', '<a href="{}">x</a>'),
        ('<base target="_top">', '<a href="{}">x</a>'),
        ('<base href="/">', '<a href="{}">x</a>'),
        ('<base target="w">', '<a href="{}" target="_blank">x</a>'),
        ('<base target="w">', '<a href="{}" rel="noopener" target="w">x</a>'),
        ('<base target="w">', '<img src="{}">'),
        ('<base target="w">', "<a>{}</a>"),
        ('<p>base target="w"</p>', '<a href="{}">x</a>'),
    ],
)
def test_joins_without_a_link_the_base_opens_stay_accepted(base: str, link: str) -> None:
    joined = result(base) + result(link, URL)
    assert joined == base + str(result(link, URL))
    assert result("<div>{}{}</div>", result(base), result(link, URL)) == f"<div>{joined}</div>"
    assert result(base) * 2 + result("<li>{}</li>", "x")  # (a piece's own base: no other link)


def test_a_base_joined_after_a_loop_of_links_is_refused() -> None:
    # (a join remembers the last page it found without "<base" and scans only the new piece;
    # a base in the new piece still finds the links of the whole page)
    out = result("<ul>")
    for _ in range(3):
        out += result('<li><a href="{}">x</a></li>', URL)
    with pytest.raises(RenderError, match=r'a join of results has a <base target="w">'):
        out + result('<base target="w">')
    with pytest.raises(RenderError, match=r'a join of results has a <base target="w">'):
        Markup('<base target="w">') + out


def test_a_join_without_a_base_reads_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    def unexpected(*_: Any) -> None:
        raise AssertionError("a join without <base parsed a piece for it")

    monkeypatch.setattr(contexts, "base_target", unexpected)
    monkeypatch.setattr(contexts, "opener_link", unexpected)
    rows = [result('<li><a href="{}">{}</a></li>', f"/r/{i}", i) for i in range(1000)]
    start = time.perf_counter()
    joined = result("").join(rows)
    assert joined.count("<li>") == 1000
    assert time.perf_counter() - start < 0.5  # (~5 ms measured; generous on a shared machine)


# --- HtmlMarkup built directly ---------------------------------------------------------------


def test_a_directly_built_result_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    # Positive control: what HtmlMarkup('<a id="l" href="') + url + Markup('">x</a>') gave.
    old = '<a id="l" href="' + escape("javascript:" + CODE) + '">report</a>'
    assert pwned_on_click(browser, old) == 1
    with pytest.raises(RenderError, match=r"HtmlMarkup built directly \(not by html\(\)\) ends"):
        HtmlMarkup('<a id="l" href="')
    # The fix the refusal gives: the URL in a field of one template, checked there.
    with pytest.raises(RenderError, match="javascript: URL"):
        result('<a id="l" href="{}">report</a>', "javascript:" + CODE)


@pytest.mark.parametrize(
    "text", ["<script>", "<svg><style>", "<!--", "<b", "<p title='", "<textarea>", "<xmp>"]
)
def test_a_directly_built_result_may_not_end_open(text: str) -> None:
    for built in (text, Markup(text), text.encode()):
        with pytest.raises(RenderError, match="HtmlMarkup built directly"):
            HtmlMarkup(built, "utf-8") if isinstance(built, bytes) else HtmlMarkup(built)


@pytest.mark.parametrize("text", ["", "<li>x</li>", "a < b", "<p title='>'>x", "<svg><desc>"])
def test_a_directly_built_result_that_ends_in_text_stays_accepted(text: str) -> None:
    built = HtmlMarkup(text)
    assert type(built) is HtmlMarkup and built == text
    assert HtmlMarkup(Markup(text)) == text


def test_what_a_result_is_made_into_stays_a_result() -> None:
    # A result may end in the text of a <textarea> (joined text is text there), which a
    # directly built one may not: what is made of a result skips that check.
    area = result("<textarea>{}", "x")
    for made in (
        area.strip(), area.ljust(20), area.center(20), area * 2, 2 * area, HtmlMarkup(area),
        copy.copy(area), copy.deepcopy(area), pickle.loads(pickle.dumps(area)),
    ):  # fmt: skip
        assert type(made) is HtmlMarkup and made.strip().startswith("<textarea>x")
    assert result("<p>a &lt; <i>b</i>").striptags() == "a < b"


# --- the name of a <map>, the id of a <datalist> ----------------------------------------------

PNG = (
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwA"
    "ChwGA60e6kgAAAABJRU5ErkJggg=="
)
# A later output of the notebook: an image map and a text input with suggestions, its own.
LATER = (
    f'<img id="pic" usemap="#nav" src="{PNG}" width="100" height="100">'
    '<map name="nav"><area shape="default" href="#page"></map>'
    '<input id="city" list="cities"><datalist id="cities"><option value="page"></datalist>'
)


def in_two_outputs(browser: Any, output: str) -> Any:  # noqa: F811
    """A tab where ``output`` and then :data:`LATER` are put in as JupyterLab puts outputs."""
    tab = browser.new_page()
    tab.set_content("<!doctype html><body><div id=out></div><div id=later></div>")
    tab.evaluate(
        "([o, l]) => { document.getElementById('out').innerHTML = o; "
        "document.getElementById('later').innerHTML = l; }",
        [output, LATER],
    )
    return tab


def followed_on_the_later_image(browser: Any, output: str) -> Any:  # noqa: F811
    tab = in_two_outputs(browser, output)
    tab.click("#pic")
    tab.wait_for_timeout(200)
    followed = tab.evaluate("() => location.hash")
    tab.close()
    return followed


def suggested_on_the_later_input(browser: Any, output: str) -> Any:  # noqa: F811
    tab = in_two_outputs(browser, output)
    options = tab.evaluate(
        "() => [...document.getElementById('city').list.options].map(o => o.value)"
    )
    tab.close()
    return options


def test_a_map_named_by_a_value_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    area = '<area shape="default" href="#output">'
    assert followed_on_the_later_image(browser, "") == "#page"  # (the harness)
    for attribute in ("name", "id"):
        source = f'<map {attribute}="{{}}">{area}</map>'
        # Positive control: the page html() returned took over the later output's image.
        old = source.replace("{}", "nav")
        assert followed_on_the_later_image(browser, old) == "#output"
        with pytest.raises(RenderError, match=f"'{attribute}' of <map>: a page's <img usemap"):
            result(source, "nav")
    # The fix the refusal gives: the map's name in the template, beside its image.
    fixed = result(f'<img usemap="#chart" src="{PNG}"><map name="chart">{area}</map>')
    assert followed_on_the_later_image(browser, str(fixed)) == "#page"


def test_an_id_is_a_value_s_as_documented_a_datalist_s_too(browser: Any) -> None:  # noqa: F811
    # (docs/renderers.md: an id may be the first of its name for the page's list= after the
    # output; refusing it for <datalist> only would leave <label for> and the others.)  The
    # twentieth pass refuses a value that gives a whole id, <datalist>'s with the others: what
    # html() accepted here is now the positive control, and a prefix of the template's the fix.
    source = '<datalist id="{}"><option value="output"></datalist>'
    assert suggested_on_the_later_input(browser, "") == ["page"]  # (the harness)
    accepted_before = source.replace("{}", "cities")
    assert suggested_on_the_later_input(browser, accepted_before) == ["output"]
    with pytest.raises(RenderError, match="gives an id with nothing of the template's"):
        result(source, "cities")
    rendered = result(source.replace("{}", "out-{}"), "cities")
    assert suggested_on_the_later_input(browser, str(rendered)) == ["page"]


@pytest.mark.parametrize(
    "source",
    [
        '<map name="nav-{}"></map>', "<map id='{}'></map>", '<MAP NAME="{}"></MAP>',
    ],
)  # fmt: skip
def test_a_value_may_not_name_a_map(source: str) -> None:
    with pytest.raises(RenderError, match="which element of the page this one serves"):
        result(source, "x")


@pytest.mark.parametrize(
    "source",
    [
        '<map title="{}"></map>', '<datalist title="{}"></datalist>', '<div id="x-{}">x</div>',
        '<input id="x-{}" list="mine"><datalist id="mine"></datalist>',
        '<svg><map id="x-{}"></map></svg>', '<map name="nav"><area href="{}"></map>',
    ],
)  # fmt: skip
def test_other_names_and_a_map_s_links_stay_accepted(source: str) -> None:
    assert result(source, "https://x.test/")


# --- an svg paint that loads a URL -------------------------------------------------------------


def requested(browser: Any, page: str) -> list[str]:  # noqa: F811
    """The URLs of x.test that ``page`` made Chromium request (served an svg paint server)."""
    context = browser.new_context()
    seen: list[str] = []

    def serve(route: Any) -> None:
        if route.request.url.startswith("https://x.test/"):
            seen.append(route.request.url)
            gradient = '<linearGradient id="g"><stop stop-color="red"/></linearGradient>'
            route.fulfill(
                body=f'<svg xmlns="http://www.w3.org/2000/svg">{gradient}</svg>',
                content_type="image/svg+xml",
            )
        else:
            route.abort()

    context.route("**/*", serve)
    tab = context.new_page()
    tab.set_content("<!doctype html><body>" + page)
    tab.wait_for_timeout(500)
    context.close()
    return seen


@pytest.mark.parametrize("attribute", ["fill", "stroke"])
def test_an_svg_paint_positive_control_and_fix(browser: Any, attribute: str) -> None:  # noqa: F811
    source = f'<svg width="20" height="20"><rect width="20" height="20" {attribute}="{{}}"/></svg>'
    paint = "url(https://x.test/p.svg#g) red"
    # Positive control: what html() returned; Chromium requested the value's URL.
    assert requested(browser, source.replace("{}", escape(paint))) == ["https://x.test/p.svg"]
    with pytest.raises(RenderError, match="svg fill or stroke, a CSS value"):
        result(source, paint)
    assert requested(browser, str(result(source, "red"))) == []


@pytest.mark.parametrize(
    "value",
    [
        "url(https://x.test/p#g)", "URL(//x.test/p#g)", "u\\72l(x)", "red;", "'x'", "red\t",
        Markup("url(https://x.test/p#g)"), Markup("&#117;rl(x)"),
    ],
)  # fmt: skip
def test_a_paint_value_holds_a_colour_s_characters_only(value: Any) -> None:
    for source in ('<svg><rect fill="{}"/></svg>', '<svg><rect stroke="ur{}"/></svg>'):
        with pytest.raises(RenderError, match="svg fill or stroke"):
            result(source, value)


@pytest.mark.parametrize(
    "source, values",
    [
        ('<svg><rect fill="{}"/></svg>', ["red"]),
        ('<svg><rect fill="{}"/></svg>', ["#ff000080"]),
        ('<svg><rect stroke="{}"/></svg>', [3]),
        ('<svg><rect fill="rgb({} {} {})"/></svg>', ["1", "2.5", "30"]),
        ('<svg><rect fill="url(#{})"/></svg>', ["grad_1"]),
        ('<svg><rect fill-opacity="{}"/></svg>', ["0.5"]),
        ('<p title="{}">x</p>', ["url(x)"]),
    ],
)
def test_colours_and_other_attributes_stay_accepted(source: str, values: list[Any]) -> None:
    assert result(source, *values)
