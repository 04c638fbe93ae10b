"""Twenty-third pass over html(): a colour in a style attribute.

* Over-refusal: notebooks colour table cells and bars by value
  (``<td style="background-color: {colour}">``, ``<span style="color: {c}">``), which every
  pass before refused (a field in a style attribute).  A field may now be the whole value of
  a colour property (``color``, ``background-color``, ``background``, ``border-color``,
  ``outline-color``, ``fill``, ``stroke``) in a style attribute of plain declarations (the
  twenty-second pass's rules: letters, digits, ``# . % , + - ( ) : ;``, balanced parentheses
  in each declaration), and the value must be a colour in the strictest grammar: ``#`` and 3,
  4, 6 or 8 hex digits, or a CSS Color 4 name (ASCII letters, any case; ``transparent`` too),
  checked at render time.  No function (``rgb()``, ``var()``, ``url()``), no
  ``currentcolor``, CSS-wide keyword or system colour.  ``background`` is on the list because
  a colour alone as its whole value sets the background colour and nothing else (in Chromium
  ``background: teal`` gave that colour and no image).  Rendered in Chromium, each accepted
  colour is the element's computed colour in the property written.
* The hole such a field would be without the colour check, as the positive control: pasted in
  (an f-string), ``background-color: {c}`` given ``red; position: fixed; inset: 0;
  background: url(https://x.test/t)`` covered the page and made Chromium request the URL;
  html() refuses that value, saying why and how to pass a colour (or use a class).
* ``tests/test_html.py::test_style_attribute_is_refused_whatever_the_value`` asserted that
  ``color: {c}`` given ``red`` is refused; ``red`` is now accepted there, so the test (renamed
  ``test_style_attribute_refuses_a_value_that_is_no_plain_colour``) now asserts more: 15
  hostile or colour-like values (``red; x: y``, ``var(--x)``, ``url(x)``,
  ``red !important``, ``expression(...)``, ``currentcolor``, ``inherit``, ``rgb(1, 2, 3)``,
  short or long hex, a Kelvin-sign name...) are refused in that template with the message
  that names the class fix, and so is a field in ``position: {c}`` (a property off the list).
* Differential run: of random style texts with colour fields among the twenty-second pass's
  pieces (quotes, comments, backslashes, braces, ``url(``, ``!important``), those html()
  accepts with a colour in each field are rendered in Chromium: the colour lands only in the
  listed colour properties' longhands.  Mutation check: with either guard of the static text
  off (plain characters, balanced parentheses) the run finds a colour elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive
from test_html_twenty_second_pass import shown, style_texts

from ipy_istring import _html_contexts as contexts
from ipy_istring.fields import RenderError

HOSTILE = "red; position: fixed; inset: 0; background: url(https://x.test/t)"
CELL = '<div style="background-color: {}">x</div>'
REFUSED = r"\{v\} stands in a style attribute as a colour.*#hex.*class="


def test_a_colour_in_a_style_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    colour = ("background-color",)
    # The harness: a colour name pasted in colours the cell.
    assert shown(browser, naive(CELL, "red"), colour) == {
        "requested": [],
        "position": "static",
        "width": 200,
        "height": 18,
        "background-color": "rgb(255, 0, 0)",
    }
    # Positive control: the value pasted in covered the page and requested its URL.
    assert shown(browser, naive(CELL, HOSTILE)) == {
        "requested": ["https://x.test/t"],
        "position": "fixed",
        "width": 800,
        "height": 600,
    }
    with pytest.raises(RenderError, match=REFUSED):
        result(CELL, HOSTILE)
    # The fix: html() renders a colour there, as the naive text did, and it is the colour.
    for value, computed in [
        ("red", "rgb(255, 0, 0)"),
        ("#4caf50", "rgb(76, 175, 80)"),
        ("#0F08", "rgba(0, 255, 0, 0.533)"),
        ("#00000080", "rgba(0, 0, 0, 0.5)"),
        ("TeAl", "rgb(0, 128, 128)"),
        ("rebeccapurple", "rgb(102, 51, 153)"),
        ("transparent", "rgba(0, 0, 0, 0)"),
        (Markup("#abc"), "rgb(170, 187, 204)"),
    ]:
        rendered = str(result(CELL, value))
        assert rendered == naive(CELL, value)
        assert shown(browser, rendered, colour)["background-color"] == computed


@pytest.mark.parametrize(
    ("template", "names"),
    [
        ('<span style="color: {}">x</span>', ("color",)),
        ('<table><tr><td style="background-color:{}">x</td></table>', ("background-color",)),
        # (the shorthand: a colour alone sets the colour, and no image, size or position)
        (
            '<div style="background: {}">x</div>',
            ("background-color", "background-image", "background-position", "background-size"),
        ),
        ('<div style="border: 2px solid; border-color: {}">x</div>', ("border-left-color",)),
        ('<div style="outline: 2px solid; OUTLINE-COLOR: {}">x</div>', ("outline-color",)),
        ('<svg><rect width="9" height="9" style="fill: {}"/></svg>', ("fill",)),
        ('<svg><rect width="9" height="9" style="stroke: {} ;"/></svg>', ("stroke",)),
    ],
)  # fmt: skip
def test_each_colour_property_takes_the_colour(
    browser: Any,  # noqa: F811
    template: str,
    names: tuple[str, ...],
) -> None:
    rendered = str(result(template, "teal"))
    assert rendered == naive(template, "teal")
    seen = shown(browser, rendered, names)
    assert seen["requested"] == [] and seen["position"] == "static"
    assert seen[names[0]] == "rgb(0, 128, 128)"
    assert [seen[name] for name in names[1:]] == ["none", "0% 0%", "auto"][: len(names) - 1]


def test_every_colour_name_is_a_colour_to_chromium(browser: Any) -> None:  # noqa: F811
    # The names html() accepts are CSS Color 4's 148 and transparent, each a colour in
    # Chromium; none is a CSS-wide keyword, currentcolor or a system colour.
    names = sorted(contexts._COLOUR_NAMES)
    assert len(names) == 149
    tab = browser.new_page()
    supported = tab.evaluate("(names) => names.map((n) => CSS.supports('color', n))", names)
    tab.close()
    assert all(supported)
    assert not {"currentcolor", "inherit", "initial", "unset", "canvas", "none"} & set(names)


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ('<td style="background-color: {}">42</td>', ("#ff0000",)),
        ('<td style="text-align: right; background-color: {}">42</td>', ("LightGreen",)),
        ('<span style="color: {}; font-weight: bold">x</span>', ("crimson",)),
        ('<div style="width: {}%; height: 8px; background: {}">&nbsp;</div>', (42, "#4caf50")),
        ('<div style="background: {}; border-color: {}">x</div>', ("white", "#ccc")),
        ('<div style="border: 1px solid #ccc; border-color: {}">x</div>', ("#ccc8",)),
        ('<svg><circle r="4" style="fill: {}; stroke: {}"/></svg>', ("gold", "black")),
        ('<p style="\tcolor:\n{}\t;">x</p>', ("NAVY",)),
        ('<p style="color: {}">x</p>', (Markup("blue"),)),
        ('<p style="color: {}">x</p>', ("transparent",)),
    ],
)  # fmt: skip
def test_colours_in_plain_declarations_are_accepted(template: str, values: tuple) -> None:
    assert str(result(template, *values)) == naive(template, *values)


@pytest.mark.parametrize(
    "value",
    [HOSTILE, "red; x: y", "red;", "red ", " red", "red\n", "red/**/", "var(--x)",
     "url(https://x.test/t)", "red !important", "expression(alert(1))", "rgb(1, 2, 3",
     "rgb(1 2 3))", "hsl(0 0% 0%); x: y", "color-mix(in srgb, red, blue)", "light-dark(red, blue)",
     "attr(data-c type(<color>))", "currentcolor", "CurrentColor", "inherit", "initial",
     "unset", "revert", "revert-layer", "Canvas", "ButtonText", "AccentColor", "none", "redd",
     "blac\u212a", "r\u0435d", "\uff52\uff45\uff44", "#", "#f", "#ff", "#fffff", "#fffffff",
     "#fffffffff", "#ggg", "##fff", "#fff;", "\\72 ed", "re\\64", "0", "", True, 0xFF0000,
     Markup("&#35;fff"), Markup("r&#101;d"), Markup("red; x: y")],
)  # fmt: skip
def test_a_colour_takes_hex_and_names_only(value: object) -> None:
    with pytest.raises(RenderError, match=REFUSED):
        result(CELL, value)


@pytest.mark.parametrize(
    "template",
    [
        '<p style="color: {}px">x</p>',
        '<p style="color: #{}">x</p>',
        '<p style="color: {}{}">x</p>',
        '<p style="color: light{}">x</p>',
        '<p style="{}: red">x</p>',
        '<p style="color: {} !important">x</p>',
        '<p style="color: rgb({}, 0, 0)">x</p>',
        '<p style="color: var(--c, {})">x</p>',
        '<p style="--c: {}">x</p>',
        '<p style="border: 1px solid {}">x</p>',
        '<p style="background: url(x.png) {}">x</p>',
        '<p style="background: {} url(x.png)">x</p>',
        '<p style="text-emphasis-color: {}">x</p>',
        '<p style="position: {}">x</p>',
        '<p style="font-family: \'a; color: {}\'">x</p>',
        '<p style="color: red /* ; */; color: {}">x</p>',
        '<p style="background: url(https://x.test/; color: {})">x</p>',
        '<p style="color: {}; } p { color: red">x</p>',
        '<link style="color: {}" rel="stylesheet" href="x.css">',
        "<style>p {{ color: {} }}</style><p>x</p>",
        '<svg><style>rect {{ fill: {} }}</style></svg>',
    ],
)  # fmt: skip
def test_other_colour_contexts_stay_refused(template: str) -> None:
    count = template.replace("{{", "").count("{}")
    with pytest.raises(RenderError, match=r"stands in (a|the text of) (style attribute|<style>)"):
        result(template.replace("{{", "{").replace("}}", "}"), *["red"] * count)


# Field pieces for the differential run, among the twenty-second pass's static pieces.
FIELD_PIECES = [
    "color: {}", "Background-Color:{}", "background: {}", "fill: {}", "stroke:{} ",
    "border-color: {}", "outline-color:\t{}", "color: {}px", "color: #{}", "color: {}{}",
    "{}: red", "c{}: red", "color: ({})", "background: url(x) {}", "background: {} url(x)",
    "color: {} !important", "border: 1px solid {}", "--c: {}", "color: var(--x, {})",
    "top: {}", "font-family: {}",
]  # fmt: skip
MARK = "#123456"  # (Chromium writes it rgb(18, 52, 86) in a declaration)
COLOUR_LONGHANDS = {"color", "background-color", "outline-color", "fill", "stroke"} | {
    f"border-{side}-color" for side in ("top", "right", "bottom", "left")
}


def marks(template: str) -> list[str]:
    """MARK in each field of ``template``."""
    return [MARK] * template.count("{}")


def landed(
    browser: Any,  # noqa: F811
    seed: int,
    pieces: list[str] = FIELD_PIECES,
    fill: Callable[[str], list[str]] = marks,
    keywords: tuple[str, ...] = (),
) -> list[tuple[set[str], set[str]]]:
    """Of 800 random style texts with a colour field (one of ``pieces``), those html()
    accepts with ``fill``'s values in the fields, rendered: for each, the properties Chromium
    puts a mark in (MARK, a colour rgb(18, 18 or 52, 18 or 86), or one of ``keywords``: the
    twenty-fourth pass) reading the attribute, and those it puts one in reading each
    declaration of the split at ";" alone (as html() reads them), in order."""
    accepted = []
    for text in style_texts(800, seed, pieces):
        template = f'<div style="{text}">x</div>'
        try:
            accepted.append(str(result(template, *fill(template))))
        except RenderError:
            continue
    tab = browser.new_page()
    tab.set_content("<!doctype html><body>" + "".join(accepted))
    found = tab.evaluate(
        """(keywords) => {
        const mark = (value) => /rgba?\\(18, (18|52), (18|86)|#123456/i.test(value)
            || keywords.includes(value);
        const marked = (element) => [...element.style].filter((name) =>
            mark(element.style.getPropertyValue(name)));
        return [...document.querySelectorAll('div')].map((div) => {
            const split = document.createElement('div'), one = document.createElement('div');
            for (const declaration of div.getAttribute('style').split(';')) {
                one.style.cssText = declaration;
                for (const name of one.style) {
                    split.style.setProperty(name, one.style.getPropertyValue(name));
                }
            }
            return [marked(div), marked(split)];
        });
        }""",
        list(keywords),
    )
    tab.close()
    assert len(found) == len(accepted)
    return [(set(whole), set(split)) for whole, split in found]


def test_a_colour_lands_in_the_property_it_is_written_for(browser: Any) -> None:  # noqa: F811
    # Each accepted text puts the colour in the colour properties the split at ";" reads, and
    # nowhere else (not in a string, a comment or a url( of the template's, nor in another
    # property); some put it in none, where a later declaration sets the same property.
    found = landed(browser, seed=23)
    assert len(found) > 60  # (enough of them to tell)
    assert all(whole == split and whole <= COLOUR_LONGHANDS for whole, split in found)
    assert sum(bool(whole) for whole, _ in found) > 60


@pytest.fixture
def fresh_plans() -> Iterator[None]:
    """Analyses made anew in the test, and forgotten after it (a guard is switched off)."""
    contexts.analyse.cache_clear()
    yield
    contexts.analyse.cache_clear()


def switch_off(monkeypatch: pytest.MonkeyPatch, guard: str) -> None:
    """Switch off one guard of the style attribute's static text (plain characters, or
    balanced parentheses)."""
    if guard == "plain characters":
        monkeypatch.setattr(contexts, "_STYLE_TEXT", re.compile(r".*", re.S))
    else:
        monkeypatch.setattr(contexts, "_balanced", lambda text: True)


@pytest.mark.parametrize("guard", ["plain characters", "balanced parentheses"])
def test_the_differential_run_sees_a_guard_switched_off(
    browser: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    fresh_plans: None,
    guard: str,
) -> None:
    # Mutation check: without either guard of the static text, a colour lands elsewhere or
    # nowhere (swallowed by a string, a comment or a url( the template opened before it).
    switch_off(monkeypatch, guard)
    found = landed(browser, seed=23)
    assert not all(whole == split and whole <= COLOUR_LONGHANDS for whole, split in found)
