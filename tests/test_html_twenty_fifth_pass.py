"""Twenty-fifth pass over html(): the twenty-fourth pass's acceptances red-teamed in Chromium,
svg opacities, the comma form of colour functions, and accent-color.

* svg ``opacity``, ``fill-opacity``, ``stroke-opacity``, ``stop-opacity``, ``flood-opacity``
  and a stop's ``offset`` took any text: they are presentation attributes, CSS values, where
  a value could write a function html() never saw.  Positive control: pasted in, a stop's
  ``stop-opacity="var(--x)"`` took the page's custom property (0.2), and a flood's
  ``flood-opacity="attr(x type(<number>))"`` another attribute's value (0.3), in Chromium.
  Now a value there is a plain number or percentage; ``0.5`` and ``40%`` render as written.
* The comma form of ``rgb()`` and ``hsl()`` accepted numbers and percentages mixed, and
  ``hsl()`` without percentages (the twenty-fourth pass's grammar): Chromium found
  ``rgb(1%, 2, 3)``, ``rgb(1, 2%, 3)``, ``hsl(1, 2, 3)`` and ``hsl(1, 2%, 3)`` invalid, and
  the colour stayed the inherited one: accepted values that did not render.  The comma form
  is now CSS Color 4's: three numbers or three percentages in ``rgb()``, a saturation and a
  lightness in percent in ``hsl()``; the space form takes either, and each accepted form
  computes to its colour.
* ``accent-color`` (the colour of the element's own checkboxes, radios and range) takes a
  colour as the other colour longhands do.  Positive control: pasted in, ``accent-color: {c}``
  given ``red; position: fixed; inset: 0; background: url(https://x.test/t)`` covered the page
  and requested the URL; html() refuses it.  (The twenty-third pass's refused case moved to
  ``text-emphasis-color``, still off the list.)
* Over-refusal: ``/`` in a style attribute's text (``font: 12px/1.5 serif``,
  ``rgb({r} {g} {b} / {a})``).  With no ``*`` a slash starts no comment, and it is a
  delimiter that spans no ``;``, so the twenty-second pass's proof holds: a number field
  may also stand after or before ``/`` in a colour function.  Positive control: pasted in,
  the alpha field given ``1 / 0); position: fixed; ...`` covered the page; html() refuses it.
  Differential run (the twenty-third pass's, with fourteen slash pieces): every accepted
  text's marks land only in the allowed longhands, as the split at ``;`` reads them (163 of
  800 accepted with seed 25, 74 of them with a slash).  Mutation check: with ``*`` let in
  beside ``/``, the run finds texts a comment misreads (6 of 176 with seed 25).
* Red team of the twenty-fourth pass, holds: a number field of ``rgb({r}, 0, 0)`` refuses
  ``1.``, ``.5``, ``+1``, Arabic-Indic and fullwidth digits, ``0x1``, ``1/**/``, ``1\\,``,
  ``1)``, ``1e3``, NaN and infinities; a whole colour refuses CSS escapes, comments, nested
  functions, tabs, newlines, form feeds, NUL and uppercase ``DEG``; a keyword refuses escapes,
  ``!important``, ``;``, the CSS-wide keywords, ``-webkit-box``, dotless i and the Kelvin
  sign; a cite refuses ``javascript:`` split by a tab, led by a space or a control
  character.  What it accepts of these forms (``RGB(...)``, ``rgb(01, 0, 0)``, ``BLOCK``,
  ``BREAK-SPACES``, an entity-like cite it escapes) gives in Chromium the same whole
  computed style as the canonical value, and requests nothing.
* Other contexts, holds (refused, or plain text): ``<img sizes>``, ``<source media>``,
  ``<meta content>``, ``<ol type>``, ``<input type>``, ``<button type>``, ``popover``,
  ``inert``, ``enterkeyhint``, ``<a target>`` (``_top`` would navigate the notebook),
  ``<a rel>``, ``referrerpolicy``, ``crossorigin`` and ``<details open>`` stay refused;
  ``<col span>``, ``<th abbr>`` and ``<abbr title>`` take plain text.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import test_html_twenty_fourth_pass as twenty_fourth
import test_html_twenty_third_pass as twenty_third
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive
from test_html_twenty_fourth_pass import ALLOWED, COVER, COVERED
from test_html_twenty_second_pass import shown
from test_html_twenty_third_pass import fresh_plans  # noqa: F401 (a fixture)

from ipy_istring import _html_contexts as contexts
from ipy_istring.fields import RenderError

GRADIENT = (
    '<svg style="--x: 0.2"><linearGradient id="g"><stop id="t" stop-color="red" '
    'stop-opacity="{}"/></linearGradient><rect fill="url(#g)" width="9" height="9"/></svg>'
)
SVG_NUMBER_REFUSED = r"stands in an svg opacity .* no plain number"
FLOOD = (
    '<svg><filter id="f"><feFlood id="t" x="0.3" flood-opacity="{}"/></filter>'
    '<rect filter="url(#f)" width="9" height="9"/></svg>'
)


def computed(browser: Any, body: str) -> tuple[list[str], dict[str, str]]:  # noqa: F811
    """The x.test URLs Chromium requested for ``body`` and the whole computed style of its
    element #t (every property, by name)."""
    context = browser.new_context(viewport={"width": 800, "height": 600})
    requested: list[str] = []
    context.route("**/*", lambda route: requested.append(route.request.url) or route.abort())
    tab = context.new_page()
    tab.set_content(f"<!doctype html><body>{body}")
    tab.wait_for_timeout(300)
    style = tab.evaluate(
        """() => { const s = getComputedStyle(document.querySelector('#t'));
        return Object.fromEntries([...s].map((name) => [name, s.getPropertyValue(name)])); }"""
    )
    context.close()
    return requested, style


@pytest.mark.parametrize(
    ("template", "hostile", "page_value", "name"),
    [(GRADIENT, "var(--x)", "0.2", "stop-opacity"),
     (FLOOD, "attr(x type(<number>))", "0.3", "flood-opacity")],
)  # fmt: skip
def test_an_svg_opacity_positive_control_and_fix(
    browser: Any,  # noqa: F811
    template: str,
    hostile: str,
    page_value: str,
    name: str,
) -> None:
    plain = [("0.5", "0.5"), ("40%", "0.4"), (1, "1"), (".25", "0.25")]
    control_and_fix(browser, template, (hostile, name, page_value), SVG_NUMBER_REFUSED, plain)


def control_and_fix(
    browser: Any,  # noqa: F811
    template: str,
    control: tuple[str, str, str],
    refusal: str,
    plain: list[tuple[object, str]],
) -> None:
    """The positive control (pasted in, the hostile value made the property ``name`` of #t
    the page's value), html()'s refusal of it, and each plain value rendered as written,
    computing to its own value and requesting nothing."""
    hostile, name, page_value = control
    assert computed(browser, naive(template, hostile))[1][name] == page_value
    with pytest.raises(RenderError, match=refusal):
        result(template, hostile)
    for value, shown_as in plain:
        rendered = str(result(template, value))
        assert rendered == naive(template, value)
        requested, style = computed(browser, rendered)
        assert requested == [] and style[name] == shown_as


@pytest.mark.parametrize(
    "template",
    ['<svg><rect opacity="{}"/></svg>', '<svg><rect fill-opacity="{}"/></svg>',
     '<svg><rect stroke-opacity="{}"/></svg>', '<svg><stop stop-opacity="{}"/></svg>',
     '<svg><feFlood flood-opacity="{}"/></svg>', '<svg><stop offset="{}"/></svg>',
     '<svg><rect offset="{}"/></svg>', '<svg><stop offset="{}%"/></svg>'],
)  # fmt: skip
@pytest.mark.parametrize(
    "value",
    ["var(--x)", "attr(x)", "calc(1)", "url(https://x.test/t)", "0.5; fill: red", "1e1",
     "1.", "\u0661", "\uff11", "0.5 ", "inherit", "", Markup("0&#46;5")],
)  # fmt: skip
def test_an_svg_opacity_takes_a_number_only(template: str, value: object) -> None:
    with pytest.raises(RenderError, match=r"stands in an svg opacity or a stop's offset"):
        result(template, value)


def test_the_comma_form_of_a_colour_function_is_css_colour_4s(browser: Any) -> None:  # noqa: F811
    cell = '<div style="color: {}">x</div>'
    for invalid in ["rgb(1%, 2, 3)", "rgb(1, 2%, 3)", "hsl(1, 2, 3)", "hsl(1, 2%, 3)"]:
        # Positive control: the value the last pass accepted set nothing (inherited black).
        assert shown(browser, naive(cell, invalid), ("color",))["color"] == "rgb(0, 0, 0)"
        with pytest.raises(RenderError, match=r"stands in a style attribute as a colour"):
            result(cell, invalid)
    for value, colour in [
        ("rgb(255, 0, 0)", "rgb(255, 0, 0)"), ("rgb(100%, 0%, 0%)", "rgb(255, 0, 0)"),
        ("rgb(255 0% 0)", "rgb(255, 0, 0)"), ("rgba(0, 0, 255, 50%)", "rgba(0, 0, 255, 0.5)"),
        ("rgb(0, 0, 255, 0.5)", "rgba(0, 0, 255, 0.5)"), ("hsl(120, 100%, 25%)", "rgb(0, 128, 0)"),
        ("hsl(120 100 25)", "rgb(0, 128, 0)"), ("hsla(120deg, 100%, 25%, 1)", "rgb(0, 128, 0)"),
        ("rgb(0 0 255/50%)", "rgba(0, 0, 255, 0.5)"),
    ]:  # fmt: skip
        assert shown(browser, str(result(cell, value)), ("color",))["color"] == colour
    template = '<div style="color: rgb({}%, {}, 0)">x</div>'
    with pytest.raises(RenderError, match=r"stands in a style attribute"):
        result(template, 1, 2)


def test_accent_color_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    accent = '<div style="accent-color: {}"><input type="checkbox" checked></div>'
    assert shown(browser, naive(accent, f"red; {COVER}")) == COVERED
    with pytest.raises(RenderError, match=r"stands in a style attribute as a colour"):
        result(accent, f"red; {COVER}")
    for value, colour in [("red", "rgb(255, 0, 0)"), ("#0a0b0c", "rgb(10, 11, 12)"),
                          ("rgb(1 2 3)", "rgb(1, 2, 3)")]:  # fmt: skip
        seen = shown(browser, str(result(accent, value)), ("accent-color",))
        assert seen["accent-color"] == colour and seen["requested"] == []


RGB_NUMBER = ('<div style="color: rgb({}, 0, 0)">x</div>', "as the number")
WHOLE_COLOUR = ('<div style="color: {}">x</div>', "as a colour")
DISPLAY = ('<div style="display: {}">x</div>', "is none of its keywords")
CITE = ('<blockquote cite="{}">x</blockquote>', "would be a javascript: URL")
RED_TEAM = {
    RGB_NUMBER: ["1.", ".5", "+1", "\u0661", "\uff11", "0x1", "1/**/", "1\\,", "1)", "1e3",
                 "1 ", float("nan"), float("inf"), -1, "1\x00"],
    WHOLE_COLOUR: ["rgb\\28 1, 2, 3)", "rgb(1, 2, 3\\29", "rgb(1,/**/2, 3)", "rgb(rgb(1, 2, 3))",
                   "rgb(1,\n2, 3)", "rgb(1,\x0c2, 3)", "rgb(1, 2, 3)\x00", "rgb(1 2\t3)",
                   "HSL(1DEG 2% 3%)", "rgb(1 2 3 / 4 / 5)", "rgb(1 2 3,4)", "rgb(none 2 3)",
                   "rgb(1 2 3 / calc(1))", Markup("rgb(1,&#9;2, 3)")],
    DISPLAY: ["\\62 lock", "bl\\ock", "block !important", "block;", "inherit", "initial",
              "unset", "revert", "revert-layer", "-webkit-box", "inl\u0131ne", "INL\u0130NE",
              "block\x00", Markup("&#98;lock")],
    CITE: ["java\tscript:document.title='pwned'", " javascript:document.title='pwned'",
           "\x01javascript:document.title='pwned'", "JAVASCRIPT:x", "java\nscript:x"],
}  # fmt: skip


@pytest.mark.parametrize(
    ("context", "value"),
    [(context, value) for context, values in RED_TEAM.items() for value in values],
)
def test_the_red_teams_forms_are_refused(context: tuple[str, str], value: object) -> None:
    template, refusal = context
    with pytest.raises(RenderError, match=re.escape(refusal)):
        result(template, value)


@pytest.mark.parametrize(
    ("template", "value", "canonical"),
    [('<div id="t" style="color: {}">x</div>', "RGB(1,2,3)", "rgb(1, 2, 3)"),
     ('<div id="t" style="color: rgb({}, 0, 0)">x</div>', "01", "1"),
     ('<div id="t" style="color: {}">x</div>', "Hsla(120 100% 25%/0.5)",
      "hsla(120, 100%, 25%, 0.5)"),
     ('<div id="t" style="display: {}">x</div>', "BLOCK", "block"),
     ('<div id="t" style="white-space: {}">x</div>', "BREAK-SPACES", "break-spaces"),
     ('<div id="t" style="accent-color: {}">x</div>', "RED", "red"),
     ('<blockquote id="t" cite="{}">x</blockquote>', "&#106;avascript:x", "https://a.test/")],
)  # fmt: skip
def test_what_is_accepted_computes_as_its_canonical_value(
    browser: Any,  # noqa: F811
    template: str,
    value: str,
    canonical: str,
) -> None:
    rendered = str(result(template, value))
    assert computed(browser, rendered) == computed(browser, naive(template, canonical))
    assert computed(browser, rendered)[0] == []


@pytest.mark.parametrize(
    ("template", "value"),
    [('<img src="a.png" sizes="{}">', "100vw"),
     ('<picture><source media="{}" srcset="a.png"></picture>', "(min-width: 1px)"),
     ('<meta name="theme-color" content="{}">', "red"),
     # (the twenty-seventh pass lets a value choose the keywords of ol and button type,
     # popover, enterkeyhint and details open, test_html_twenty_seventh_pass: here before it
     # "a", "reset", "manual", "send" and "" were refused; other text stays refused)
     ('<ol type="{}"><li>x</li></ol>', "disc"),
     ('<input type="{}">', "file"), ('<input type="{}">', "hidden"),
     ('<button type="{}">x</button>', "menu"),
     ('<div popover="{}">x</div>', "zz"), ('<div inert="{}">x</div>', ""),
     ('<input enterkeyhint="{}">', "zz"),
     ('<a href="https://a.test/" target="{}">x</a>', "_top"),
     ('<a href="https://a.test/" rel="{}">x</a>', "opener"),
     ('<img src="https://a.test/a.png" referrerpolicy="{}">', "unsafe-url"),
     ('<img src="https://a.test/a.png" crossorigin="{}">', "use-credentials"),
     ('<details open="{}">x</details>', "closed")],
)  # fmt: skip
def test_other_contexts_stay_refused(template: str, value: str) -> None:
    with pytest.raises(RenderError, match=r"stands in the attribute"):
        result(template, value)


SLASH = '<div style="font: 12px/1.5 serif; color: rgb({} {} {} / {})">x</div>'


def test_a_slash_in_the_style_text_is_accepted(browser: Any) -> None:  # noqa: F811
    hostile = f"1 / 0); {COVER}; x: rgb(0"
    assert shown(browser, naive(SLASH, 1, 2, 3, hostile)) == COVERED  # (pasted in)
    with pytest.raises(RenderError, match=r"stands in a style attribute as the number"):
        result(SLASH, 1, 2, 3, hostile)
    rendered = str(result(SLASH, 255, 0, 0, 0.5))
    assert rendered == naive(SLASH, 255, 0, 0, 0.5)
    seen = shown(browser, rendered, ("color", "line-height", "font-size"))
    assert (seen["color"], seen["line-height"], seen["font-size"]) == (
        "rgba(255, 0, 0, 0.5)",
        "18px",
        "12px",
    )
    for refused in ['<div style="color: red /* ; */; width: {}%">x</div>',
                    '<div style="color: red; width: {}%/**/">x</div>',
                    '<div style="color: rgb(1 2 3 */ {})">x</div>']:  # fmt: skip
        with pytest.raises(RenderError, match=r"stands in a style attribute"):
            result(refused, 1)


# Field pieces with a slash, for the twenty-third pass's differential run.
SLASH_PIECES = [
    "color: rgb({} {} {} / {})", "color: rgb(18 52 86 / {})", "fill: rgb({} 52 86/0.5)",
    "color: rgb({} 52 86 /{})", "font: 12px/1.5 serif; color: {}", "color: {}/",
    "color: /{}", "aspect-ratio: 16/9; display: {}", "color: rgb({}/52, 52, 86)",
    "/{}: red", "color: {} / red", "width: {}%/2", "background: {} /", "/ display: {}",
]  # fmt: skip


def slash_marked(template: str) -> list[str]:
    """The twenty-fourth pass's marks, with a number after "/" or between two fields."""
    values = twenty_fourth.marked(template)
    for index, before in enumerate(template.split("{}")[:-1]):
        if before.rstrip(" ").endswith("/") or (index and not before.strip(" ")):
            values[index] = "18"
    return values


def slash_landed(browser: Any, seed: int) -> list[tuple[set[str], set[str]]]:  # noqa: F811
    """The run over the twenty-fourth pass's pieces and the slash pieces."""
    pieces = twenty_fourth.FIELD_PIECES + SLASH_PIECES * 2
    marks = tuple(twenty_fourth.KEYWORD_MARKS.values())
    return twenty_third.landed(browser, seed, pieces, slash_marked, marks)


def test_a_mark_lands_where_it_is_written_with_a_slash(browser: Any) -> None:  # noqa: F811
    found = slash_landed(browser, seed=25)
    assert len(found) > 100
    assert all(whole == split and whole <= ALLOWED for whole, split in found)


def test_the_differential_run_sees_an_asterisk_let_in(
    browser: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    fresh_plans: None,  # noqa: F811
) -> None:
    # Mutation check: with "*" let in beside "/", a comment hides a ";" from the split.
    monkeypatch.setattr(contexts, "_STYLE_TEXT", re.compile(r"[A-Za-z0-9#.%,:;()/*\t\n\x0c\r +-]*"))
    found = slash_landed(browser, seed=25)
    assert not all(whole == split and whole <= ALLOWED for whole, split in found)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<table><colgroup><col span="{}"></colgroup></table>', 2),
     ('<table><tr><th abbr="{}">x</th></tr></table>', "a <b> & c"),
     ('<abbr title="{}">x</abbr>', 'a "b" c')],
)  # fmt: skip
def test_plain_attributes_take_text(template: str, value: object) -> None:
    assert "<b>" not in str(result(template, value))
