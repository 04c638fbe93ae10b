"""Twenty-fourth pass over html(): colour functions, more colour properties, keywords in a
style attribute, and a quotation's cite.

* Over-refusal: colours notebooks write as functions.  A colour property's whole value
  (``color: {c}``) may now also be ``rgb()``, ``rgba()``, ``hsl()`` or ``hsla()`` of numbers
  only (digits, ``.``, ``%``, ``deg`` on a hue, commas or spaces, ``/`` before an alpha),
  checked at render time; and a field may be one number of such a function the template
  writes (``rgb({r}, {g}, {b})``, ``hsl({h}deg, 50%, {l}%)``): the declaration's value with
  each field ``0`` is such a function, each field stands between ``(``, ``,`` or a space and
  a unit, ``,``, a space or ``)``, and the value must be a plain non-negative number (the
  twenty-second pass's rule), so it is one number of the function whatever its digits.
  Positive control: pasted in, ``color: rgb({r}, 0, 0)`` given ``1, 0, 0); position: fixed;
  inset: 0; background: url(https://x.test/t); x: rgb(0`` covered the page and requested the
  URL in Chromium; html() refuses it.
* The colour longhands that take a colour alone are added: ``border-top-color`` (and right,
  bottom, left), ``stop-color``, ``flood-color``, ``lighting-color``, ``caret-color``,
  ``text-decoration-color``, ``column-rule-color``: each computes to the colour given in
  Chromium.  (``caret-color`` was in the twenty-third pass's list of refused contexts; that
  case now uses ``accent-color``, then off the list (the twenty-fifth pass added it and
  moved the case to ``text-emphasis-color``); three values there, and one in
  ``tests/test_html.py``, that were plain colour functions are now broken ones:
  ``rgb(1, 2, 3``, ``rgb(1 2 3))``, ``hsl(0 0% 0%); x: y``, ``rgb(1, 2, 3); x: y``.)
* Keywords: a field may be the whole value of ``text-align``, ``font-weight``,
  ``font-style``, ``visibility``, ``white-space``, ``vertical-align`` or ``display``, checked
  at render time against that property's short keyword list (ASCII case-insensitive).  Each
  sets the element's own box or text only.  Positive control: pasted in, ``text-align: {k}``
  given ``left; position: fixed; ...`` covered the page; html() refuses it.
* ``<blockquote cite>``, ``<q cite>``, ``<del cite>``, ``<ins cite>`` take a link's URL
  (http, https, mailto, tel, relative), as ``<a href>`` does.  Holds (no hole before): in
  Chromium a ``javascript:`` cite ran nothing on a click and nothing was requested; the
  schemes are checked anyway, for the reader tools that follow a cite.
* Differential run: of random style texts with colour-function, number-in-function, new
  longhand and keyword fields among the twenty-second pass's pieces, those html() accepts
  are rendered in Chromium with a mark in each field: the mark lands only in the listed
  properties' longhands, and exactly where the split at ``;`` reads it.  Mutation check: with
  either guard of the static text off, the run finds a mark elsewhere.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import test_html_twenty_third_pass as twenty_third
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive
from test_html_twenty_second_pass import shown
from test_html_twenty_third_pass import (  # noqa: F401 (fresh_plans: a fixture)
    COLOUR_LONGHANDS,
    fresh_plans,
)

from ipy_istring import _html_contexts as contexts
from ipy_istring.fields import RenderError

COVER = "position: fixed; inset: 0; background: url(https://x.test/t)"
COVERED = {"requested": ["https://x.test/t"], "position": "fixed", "width": 800, "height": 600}
RGB = '<div style="color: rgb({}, 0, 0)">x</div>'
ALIGN = '<div style="text-align: {}">x</div>'
NEW_LONGHANDS = [
    "border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
    "stop-color", "flood-color", "lighting-color", "caret-color", "text-decoration-color",
    "column-rule-color",
]  # fmt: skip


def test_a_number_in_a_colour_function_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    hostile = f"1, 0, 0); {COVER}; x: rgb(0"
    assert shown(browser, naive(RGB, hostile)) == COVERED
    with pytest.raises(RenderError, match=r"\{v\} stands in a style attribute as the number"):
        result(RGB, hostile)
    for value, computed in [(255, "rgb(255, 0, 0)"), ("128", "rgb(128, 0, 0)"),
                            (12.5, "rgb(13, 0, 0)"), (0, "rgb(0, 0, 0)")]:  # fmt: skip
        rendered = str(result(RGB, value))
        assert rendered == naive(RGB, value)
        assert shown(browser, rendered, ("color",))["color"] == computed


def test_a_whole_colour_function_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    cell = '<div style="background-color: {}">x</div>'
    hostile = f"rgb(1, 2, 3); {COVER}"
    assert shown(browser, naive(cell, hostile)) == COVERED
    with pytest.raises(RenderError, match=r"\{v\} stands in a style attribute as a colour"):
        result(cell, hostile)
    for value, computed in [
        ("rgb(255, 0, 0)", "rgb(255, 0, 0)"),
        ("rgba(0, 128, 0, 0.5)", "rgba(0, 128, 0, 0.5)"),
        ("RGB(0 0 255 / 50%)", "rgba(0, 0, 255, 0.5)"),
        ("rgb(100%, 0%, 0%)", "rgb(255, 0, 0)"),
        ("hsl(120, 100%, 25%)", "rgb(0, 128, 0)"),
        ("hsl(120deg 100% 25%)", "rgb(0, 128, 0)"),
        ("hsla(240, 100%, 50%, 0.25)", "rgba(0, 0, 255, 0.25)"),
        ("rgb(1.5,2,3)", "rgb(2, 2, 3)"),
        (Markup("rgb(0, 0, 0)"), "rgb(0, 0, 0)"),
    ]:
        rendered = str(result(cell, value))
        assert rendered == naive(cell, value)
        assert shown(browser, rendered, ("background-color",))["background-color"] == computed


def test_a_keyword_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    hostile = f"left; {COVER}"
    assert shown(browser, naive(ALIGN, hostile)) == COVERED
    with pytest.raises(RenderError, match=r"\{v\} stands in a style attribute as the value of "
                       r"text-align .*none of its keywords.*Pass one of center, "):  # fmt: skip
        result(ALIGN, hostile)
    for value, computed in [("center", "center"), ("RIGHT", "right"), ("justify", "justify")]:
        rendered = str(result(ALIGN, value))
        assert rendered == naive(ALIGN, value)
        seen = shown(browser, rendered, ("text-align",))
        assert seen["text-align"] == computed and seen["position"] == "static"


@pytest.mark.parametrize("name", NEW_LONGHANDS)
def test_each_new_colour_property_is_a_plain_colour_longhand(
    browser: Any,  # noqa: F811
    name: str,
) -> None:
    # Each sets its own colour alone (Chromium lists that one property for it), and the colour
    # given is its computed value.
    template = f'<div style="border: 2px solid; column-rule: 2px solid; {name}: {{}}">x</div>'
    rendered = str(result(template, "teal"))
    assert rendered == naive(template, "teal")
    seen = shown(browser, rendered, (name,))
    assert seen[name] == "rgb(0, 128, 128)" and seen["requested"] == []
    tab = browser.new_page()
    longhands = tab.evaluate(
        "(name) => { const d = document.createElement('div');"
        " d.style.setProperty(name, 'teal'); return [...d.style]; }",
        name,
    )
    tab.close()
    assert longhands == [name]


@pytest.mark.parametrize(("name", "keywords"), sorted(contexts._STYLE_KEYWORDS.items()))
def test_each_keyword_is_its_property_own(
    browser: Any,  # noqa: F811
    name: str,
    keywords: frozenset[str],
) -> None:
    # Every keyword on a list is a value of its property in Chromium, and sets that property
    # (or, for white-space, its longhands) and nothing else: no position, nothing loaded.
    tab = browser.new_page()
    set_by = tab.evaluate(
        """([name, keywords]) => keywords.map((keyword) => {
        const d = document.createElement('div');
        d.style.setProperty(name, keyword);
        return [CSS.supports(name, keyword), [...d.style]];
        })""",
        [name, sorted(keywords)],
    )
    tab.close()
    longhands = {"white-space": {"white-space-collapse", "text-wrap-mode"}}.get(name, {name})
    assert all(supported and set(names) <= longhands for supported, names in set_by)
    assert not {"inherit", "initial", "unset", "revert", "fixed", "absolute"} & keywords


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ('<td style="background-color: rgb({}, {}, {})">1</td>', (255, 128, 0)),
        ('<td style="background-color: rgba({},{},{},{})">1</td>', (255, 128, 0, 0.4)),
        ('<td style="background: hsl({}deg, 60%, {}%)">1</td>', (210, 40)),
        ('<td style="background: hsl({} 60% {}% )">1</td>', (210, 40)),
        ('<span style="color: rgb({}%, 0%, {}%)">x</span>', (50, 12.5)),
        ('<p style="color: {}">x</p>', ("rgb(1, 2, 3)",)),
        ('<p style="fill: {}">x</p>', ("hsla(0 0% 0% / 0.5)",)),
        ('<p style="border-left-color: {}; border-left: 2px solid">x</p>', ("red",)),
        ('<svg><stop style="stop-color: {}"/></svg>', ("#abc",)),
        ('<td style="text-align: {}; font-weight: {}">1</td>', ("right", "bold")),
        ('<td style="font-weight: {}">1</td>', ("700",)),
        ('<span style="font-style: {}; white-space: {}">x</span>', ("italic", "nowrap")),
        ('<div style="display: {}; visibility: {}">x</div>', ("none", "hidden")),
        ('<span style="vertical-align: {}">x</span>', ("SUPER",)),
        ('<blockquote cite="{}">x</blockquote>', ("https://peps.python.org/pep-0501/",)),
        ('<q cite="{}">x</q>', ("/papers/1",)),
        ('<del cite="{}">x</del><ins cite="{}">y</ins>', ("#r1", "mailto:a@x.test")),
        ('<svg><linearGradient id="g"><stop offset="{}" stop-color="{}" stop-opacity="{}"/>'
         '</linearGradient></svg>', ("0.5", "rgb(1, 2, 3)", "0.8")),
        ('<svg><filter id="f"><feFlood flood-color="{}" flood-opacity="{}"/></filter></svg>',
         ("teal", "0.5")),
        ('<meter value="{}" low="{}" high="{}" optimum="{}"></meter>', (5, 2, 8, 9)),
    ],
)  # fmt: skip
def test_colours_keywords_and_cites_are_accepted(template: str, values: tuple) -> None:
    assert str(result(template, *values)) == naive(template, *values)


@pytest.mark.parametrize(
    "value",
    ["rgb(1, 2, 3); x: y", "rgb(1, 2, 3", "rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "rgb()",
     "rgb(1,2,3) ", " rgb(1,2,3)", "rgb (1, 2, 3)", "rgb(-1, 2, 3)", "rgb(1e3, 2, 3)",
     "rgb(1, 2, 3 / 4)", "rgb(1 2, 3)", "rgb(var(--x), 2, 3)", "rgb(calc(1), 2, 3)",
     "rgb(from red r g b)", "rgb(1,\t2, 3)", "rgb(1, 2, 3)/**/", "rgb(1, 2, 3))",
     "rgb(\uff11, 2, 3)", "hs\u0131(1, 2%, 3%)", "rgbx(1, 2, 3)", "hwb(1 2% 3%)",
     "lab(1 2 3)", "rgb(1, 2, 3) !important", "rgb(1deg, 2, 3)", "rgb(1, 2, 3, url(x))",
     Markup("rgb(1, 2, 3&#41;; x: y"), Markup("rgb&#40;1, 2, 3)")],
)  # fmt: skip
def test_a_colour_function_takes_numbers_only(value: object) -> None:
    with pytest.raises(RenderError, match=r"stands in a style attribute as a colour"):
        result('<p style="color: {}">x</p>', value)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<p style="text-align: {}">x</p>', v) for v in
     ("center;", "center ", "cent\u212aer", "inherit", "-webkit-center", "", "var(--a)")]
    + [('<p style="display: {}">x</p>', v) for v in ("contents", "fixed", "table", "block;x:y")]
    + [('<p style="font-weight: {}">x</p>', v) for v in ("700.0", "1000", 700.5, "bold !important")]
    + [('<p style="visibility: {}">x</p>', "hidden; position: fixed")],
)  # fmt: skip
def test_a_keyword_takes_its_property_list_only(template: str, value: object) -> None:
    with pytest.raises(RenderError, match=r"is none of its keywords"):
        result(template, value)


@pytest.mark.parametrize(
    "template",
    [
        '<p style="color: rgb({}.5, 0, 0)">x</p>',
        '<p style="color: rgb(1{}, 0, 0)">x</p>',
        '<p style="color: rgb({}px, 0, 0)">x</p>',
        '<p style="color: rgb({}deg, 0, 0)">x</p>',
        '<p style="color: rgb(0, {}e3, 0)">x</p>',
        '<p style="color: rgb({}{}, 0, 0)">x</p>',
        '<p style="color: rgb(var(--x, {}), 0, 0)">x</p>',
        '<p style="color: lab({} 0 0)">x</p>',
        '<p style="color: rgb({},\t0, 0)">x</p>',
        '<p style="font-family: rgb({}, 0, 0)">x</p>',
        '<p style="color: rgb({}, 0, 0) !important">x</p>',
        '<p style="background: url(x.png) rgb({}, 0, 0)">x</p>',
        '<p style="text-align: {}px">x</p>',
        '<p style="text-align: -{}">x</p>',
        '<p style="display: {}{}">x</p>',
        '<p style="position: {}">x</p>',
        '<p style="float: {}">x</p>',
        '<p style="font-family: \'a; text-align: {}\'">x</p>',
        '<p style="content: \'\\\'; text-align: {}">x</p>',
        '<p style="a: url(; text-align: {})">x</p>',
        "<style>p {{ text-align: {} }}</style><p>x</p>",
    ],
)  # fmt: skip
def test_other_contexts_stay_refused(template: str) -> None:
    count = template.replace("{{", "").count("{}")
    with pytest.raises(RenderError, match=r"stands in (a|the text of) (style attribute|<style>)"):
        result(template.replace("{{", "{").replace("}}", "}"), *["1"] * count)


@pytest.mark.parametrize("template", ['<blockquote cite="{}">x</blockquote>', '<q cite="{}">x</q>'])
@pytest.mark.parametrize(
    "value", ["javascript:document.title='pwned'", "data:text/html,<b>", "vbscript:x", "file:///x"]
)
def test_a_cite_takes_a_link_scheme_only(template: str, value: str) -> None:
    with pytest.raises(RenderError, match=r"the cite of <\w+> holding \{v\} would be a \w+: URL"):
        result(template, value)


def test_a_cite_is_neither_followed_nor_loaded(browser: Any) -> None:  # noqa: F811
    # Holds: Chromium runs and requests nothing of a cite, clicked or not (the naive render).
    page = naive(
        '<blockquote cite="{}">quote</blockquote><q cite="{}">q</q>',
        "javascript:document.title='pwned'",
        "https://x.test/t",
    )
    context = browser.new_context()
    requested: list[str] = []
    context.route("**/*", lambda route: (requested.append(route.request.url), route.abort()))
    tab = context.new_page()
    tab.set_content(f"<!doctype html><title>ok</title><body>{page}")
    tab.click("blockquote")
    tab.click("q")
    tab.wait_for_timeout(300)
    assert tab.title() == "ok" and requested == []
    context.close()


@pytest.mark.parametrize(
    "value",
    ["url(https://x.test/p.svg#g)", "red; fill: url(https://x.test/q.svg#g)", "var(--x)",
     "image(https://x.test/i.png)", "attr(data-x type(<color>))"],
)  # fmt: skip
def test_a_stop_or_flood_colour_attribute_takes_a_colour_only(
    browser: Any,  # noqa: F811
    value: str,
) -> None:
    # stop-color and flood-color, as presentation attributes (now taking values), take a
    # colour: a teal one renders teal and requests nothing.  Anything else is refused (this
    # pass had seen it fall back to black, but the twenty-sixth pass showed var(--x) there
    # take the page's colour: see its test_an_svg_colour_positive_control_and_fix).
    template = (
        '<svg width="9" height="9"><defs><linearGradient id="g"><stop stop-color="{}"/>'
        '</linearGradient><filter id="f"><feFlood flood-color="{}"/></filter></defs>'
        '<rect width="9" height="9" fill="url(#g)"/></svg>'
    )
    for hostile in ((value, "teal"), ("teal", value)):
        with pytest.raises(RenderError, match=r"stands in an svg attribute that takes colour"):
            result(template, *hostile)
    context = browser.new_context()
    requested: list[str] = []
    context.route("**/*", lambda route: (requested.append(route.request.url), route.abort()))
    tab = context.new_page()
    tab.set_content(str(result(template, "teal", "teal")))
    tab.wait_for_timeout(300)
    colours = tab.evaluate(
        "() => [getComputedStyle(document.querySelector('stop')).stopColor,"
        " getComputedStyle(document.querySelector('feFlood')).floodColor]"
    )
    assert colours == ["rgb(0, 128, 128)", "rgb(0, 128, 128)"]
    assert requested == []
    context.close()


# Field pieces for the differential run, among the twenty-second pass's static pieces.
FIELD_PIECES = [
    "color: {}", "background: {}", "stop-color:{}", "border-top-color: {}", "caret-color: {}",
    "color: rgb({}, 52, 86)", "color: rgb({},{},{})", "fill: rgba({}, 52, 86, 0.5)",
    "background-color: rgb({} 52 86)", "color: rgb({}%, 52, 86)", "color: rgb(({}), 52, 86)",
    "color: rgb({}.5, 52, 86)", "color: rgb(1{}, 52, 86)", "width: rgb({}, 52, 86)",
    "background: url(x) rgb({}, 52, 86)", "color: var(--x, rgb({}, 52, 86))",
    "text-align: {}", "font-weight:{}", "font-style: {}", "visibility: {}", "white-space: {}",
    "vertical-align: {}", "display: {}", "DISPLAY:\t{}", "text-align: {}px", "float: {}",
    "--k: {}", "{}: center", "t{}: center", "font: {} 12px serif",
]  # fmt: skip
KEYWORD_MARKS = {
    "text-align": "justify", "font-weight": "lighter", "font-style": "oblique",
    "visibility": "collapse", "white-space": "break-spaces", "vertical-align": "text-bottom",
    "display": "inline-grid",
}  # fmt: skip
COLOUR_MARK = "rgb(18, 52, 86)"
ALLOWED = (
    COLOUR_LONGHANDS
    | set(NEW_LONGHANDS)
    | (set(KEYWORD_MARKS) - {"white-space"})
    | {"white-space-collapse"}
)
PROPERTY_BEFORE = re.compile(r"([A-Za-z-]+)[\t\n\x0c\r ]*:[^:;]*\Z")


def marked(template: str) -> list[str]:
    """A mark for each field of ``template``: a number after "(" or ",", a keyword of the
    property the field's declaration names, else a colour."""
    values = []
    pieces = template.split("{}")
    for before in pieces[:-1]:
        name = PROPERTY_BEFORE.search(before)
        if before.rstrip(" ").endswith(("(", ",")):
            values.append("18")
        elif name and name.group(1).lower() in KEYWORD_MARKS:
            values.append(KEYWORD_MARKS[name.group(1).lower()])
        else:
            values.append(COLOUR_MARK)
    return values


def landed(browser: Any, seed: int) -> list[tuple[set[str], set[str]]]:  # noqa: F811
    """The twenty-third pass's run over this pass's pieces, each field given its mark."""
    return twenty_third.landed(browser, seed, FIELD_PIECES, marked, tuple(KEYWORD_MARKS.values()))


def test_a_mark_lands_in_the_property_it_is_written_for(browser: Any) -> None:  # noqa: F811
    found = landed(browser, seed=24)
    assert len(found) > 100  # (enough of them to tell)
    assert all(whole == split and whole <= ALLOWED for whole, split in found)
    kinds = set().union(*(whole for whole, _ in found))
    assert {"color", "text-align", "display", "stop-color", "white-space-collapse"} <= kinds


@pytest.mark.parametrize("guard", ["plain characters", "balanced parentheses"])
def test_the_differential_run_sees_a_guard_switched_off(
    browser: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    fresh_plans: None,  # noqa: F811
    guard: str,
) -> None:
    # Mutation check: without either guard of the static text, a mark lands elsewhere or
    # nowhere (swallowed by a string, a comment or a url( the template opened before it).
    twenty_third.switch_off(monkeypatch, guard)
    found = landed(browser, seed=24)
    assert not all(whole == split and whole <= ALLOWED for whole, split in found)
