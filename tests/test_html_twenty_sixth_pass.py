"""Twenty-sixth pass over html(): the svg presentation attributes other than paints and
opacities.

* ``stroke-width``, ``font-size``, ``x``, ``y``, ``width``, ``height``, ``r``, ``cx``,
  ``rx``, ``dx``, ``stroke-dasharray``, ``points``, ``rotate``, ``textLength``,
  ``font-family``, ``font-weight``, ``text-anchor``, ``stroke-linecap``, ``fill-rule``...
  took any text: they are
  presentation attributes, CSS values, where a value could write a function html() never
  saw.  Positive control: pasted in, in Chromium, ``var(--x)`` took the page's custom
  property in stroke-width (7px), font-size (31px), width (37px), x (13px), r (17px),
  stroke-dasharray (3px, 5px), font-family (PageFont), font-weight (900), text-anchor (end),
  and stroke-linecap (round); ``x="attr(data-x type(<length>))"``
  another attribute's value (19px); ``height="calc(10px + 4px)"`` a computed one (14px).
  Now a value there holds no parenthesis: numbers with an optional unit and lists of them,
  names; ``d`` path data of letters and numbers; ``transform``
  numbers, or its own functions of numbers.  What is accepted renders as pasted in.
* Holds (not a hole): ``d`` and ``transform`` given ``var(--x)`` (or ``rotate(var(--x))``)
  took nothing in Chromium (no path, no transform): their attributes are parsed by svg's
  own grammar; they get the allow-list all the same.
* ``stop-color`` and ``flood-color`` given ``var(--x)`` took the page's colour (rgb(1, 2, 3))
  in Chromium: the twenty-fourth pass had seen var() there fall back to black, in a page
  that defines no --x, and accepted it.  Now they take a colour as a style attribute's
  colour property does (#hex, a name, rgb()/hsl() of numbers); the twenty-fourth pass's test
  now asserts the refusal (test_a_stop_or_flood_colour_attribute_takes_a_colour_only).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive
from test_html_twenty_fifth_pass import control_and_fix

from ipy_istring.fields import RenderError

REFUSED = r"stands in an svg attribute that takes .*, a CSS value, and is not of that plain form"


@pytest.mark.parametrize(
    ("template", "hostile", "name", "page_value", "plain", "shown_as"),
    [('<svg style="--x: 7px"><rect id="t" stroke-width="{}"/></svg>', "var(--x)",
      "stroke-width", "7px", "2", "2px"),
     ('<svg style="--x: 31px"><text id="t" font-size="{}">a</text></svg>', "var(--x)",
      "font-size", "31px", "1.5em", "24px"),
     ('<svg style="--x: 37px"><rect id="t" width="{}"/></svg>', "var(--x)",
      "width", "37px", "40%", "120px"),
     ('<svg><rect id="t" data-x="19px" x="{}"/></svg>', "attr(data-x type(<length>))",
      "x", "19px", "-3", "-3px"),
     ('<svg style="--x: 17px"><circle id="t" r="{}"/></svg>', "var(--x)", "r", "17px",
      ".5", "0.5px"),
     ('<svg><rect id="t" height="{}"/></svg>', "calc(10px + 4px)", "height", "14px",
      "14px", "14px"),
     ('<svg style="--x: 3 5"><rect id="t" stroke-dasharray="{}"/></svg>', "var(--x)",
      "stroke-dasharray", "3px, 5px", "4, 6", "4px, 6px"),
     ('<svg style="--x: PageFont"><text id="t" font-family="{}">a</text></svg>', "var(--x)",
      "font-family", "PageFont", "DejaVu Sans, serif", '"DejaVu Sans", serif'),
     ('<svg style="--x: 900"><text id="t" font-weight="{}">a</text></svg>', "var(--x)",
      "font-weight", "900", "bold", "700"),
     ('<svg style="--x: end"><text id="t" text-anchor="{}">a</text></svg>', "var(--x)",
      "text-anchor", "end", "middle", "middle"),
     ('<svg style="--x: round"><rect id="t" stroke-linecap="{}"/></svg>', "var(--x)",
      "stroke-linecap", "round", "square", "square")],

)  # fmt: skip
def test_an_svg_attribute_positive_control_and_fix(
    browser: Any,  # noqa: F811
    template: str,
    hostile: str,
    name: str,
    page_value: str,
    plain: str,
    shown_as: str,
) -> None:
    # Positive control: the value's function read a value of the page's, not its own.
    control_and_fix(browser, template, (hostile, name, page_value), REFUSED, [(plain, shown_as)])


@pytest.mark.parametrize(
    "template",
    ['<svg style="--x: rgb(1, 2, 3)"><linearGradient><stop id="t" stop-color="{}"/>'
     "</linearGradient></svg>",
     '<svg style="--x: rgb(1, 2, 3)"><filter><feFlood id="t" flood-color="{}"/></filter></svg>'],
)  # fmt: skip
def test_an_svg_colour_positive_control_and_fix(browser: Any, template: str) -> None:  # noqa: F811
    # Positive control: pasted in, var(--x) gave the stop (the flood) the page's colour.
    name = "stop-color" if "stop-color" in template else "flood-color"
    plain = [("teal", "rgb(0, 128, 128)"), ("#abc", "rgb(170, 187, 204)"),
             ("rgb(4, 5, 6)", "rgb(4, 5, 6)")]  # fmt: skip
    control_and_fix(browser, template, ("var(--x)", name, "rgb(1, 2, 3)"), REFUSED, plain)


@pytest.mark.parametrize(
    "template",
    ['<svg><rect x="{}"/></svg>', '<svg><text dy="{}">a</text></svg>',
     '<svg><rect rx="{}"/></svg>', '<svg><line x2="{}"/></svg>',
     '<svg><polygon points="{}"/></svg>', '<svg viewBox="{}"></svg>',
     '<svg><text rotate="{}">a</text></svg>', '<svg><text textLength="{}">a</text></svg>',
     '<svg><path d="{}"/></svg>', '<svg><g transform="{}"></g></svg>',
     '<svg><g transform="rotate({})"></g></svg>', '<svg><text font-family="{}">a</text></svg>',
     '<svg><path fill-rule="{}"/></svg>', '<svg><svg preserveAspectRatio="{}"></svg></svg>',
     '<svg><rect width="{}px"/></svg>'],
)  # fmt: skip
@pytest.mark.parametrize(
    "value",
    ["var(--x)", "attr(x)", "env(safe-area-inset-top)", "calc(1px)", "url(https://x.test/t)",
     "1; fill: red", "1)", "rotate(var(--x))", "\\31", "1/**/"],
)  # fmt: skip
def test_an_svg_attribute_takes_no_function(template: str, value: str) -> None:
    with pytest.raises(RenderError, match=REFUSED):
        result(template, value)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<svg><text x="{}">a</text></svg>', "1 2,3.5em"),
     ('<svg><polygon points="{}"/></svg>', "0,0 9,0 9,9"),
     ('<svg viewBox="{}"></svg>', "0 0 10 10"),
     ('<svg><path d="{}"/></svg>', "M0 0L9 9h-1.5e1Z"),
     ('<svg><g transform="{}"></g></svg>', "translate(1, 2) scale(2) rotate(-45 1 1)"),
     ('<svg><g transform="rotate({})"></g></svg>', "45"),
     ('<svg><svg preserveAspectRatio="{}"></svg></svg>', "xMidYMid slice"),
     ('<svg><text dominant-baseline="{}">a</text></svg>', "central"),
     ('<svg><rect stroke-linejoin="{}"/></svg>', "bevel"),
     ('<svg><rect width="{}"/></svg>', 12),
     ('<svg><rect width="{}"/></svg>', "")],
)  # fmt: skip
def test_plain_svg_values_render_as_written(template: str, value: object) -> None:
    assert str(result(template, value)) == naive(template, value)


def test_accepted_geometry_renders_as_pasted_in(browser: Any) -> None:  # noqa: F811
    template = (
        '<svg width="99" height="99"><g transform="{}"><polygon id="t" points="{}"/></g>'
        '<path id="p" d="{}"/></svg>'
    )
    values = ("translate(3, 4) scale(2)", "0,0 9,0 9,9", "M1 1h5v5Z")
    context = browser.new_context()
    tab = context.new_page()
    boxes = []
    for body in (naive(template, *values), str(result(template, *values))):
        tab.set_content(f"<!doctype html><body>{body}")
        boxes.append(
            tab.evaluate(
                """() => ['#t', '#p'].map((s) => { const e = document.querySelector(s);
                const b = e.getBBox(); const r = e.getBoundingClientRect();
                return [b.x, b.y, b.width, b.height, r.width, r.height]; })"""
            )
        )
    context.close()
    assert boxes[0] == boxes[1] == [[0, 0, 9, 9, 18, 18], [1, 1, 5, 5, 5, 5]]
