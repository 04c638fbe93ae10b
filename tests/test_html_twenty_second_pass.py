"""Twenty-second red-team pass over html(): CSS a value stands in, and what the passes
before refused that notebooks write every day.

* Over-refusal (brief target 3): a size's number in a style attribute.  Of 48 common notebook
  snippets (result tables, links to docs, images with alt and title, progress bars, meters,
  svg bars, downloads), ten were refused, all for a field in a style attribute, the progress
  bar ``<div style="width: {pct}%">`` among them.  A field may now stand there as the whole
  number of a size (width, height, their min-/max-, font-size, line-height, opacity,
  flex-grow, padding, border-width, border-radius), followed by a unit (% px em rem ch ex pt,
  or none), in a style attribute of plain declarations (letters, digits, ``# . % , + - ( )``:
  no string, escape, comment, url token or brace can span a ``;``); the value must be a plain
  non-negative number (``42``, ``42.5``; not ``1e-05``, ``nan``, ``-3``, ``42%; ...``).
  Rendered in Chromium, the bars have the widths asked for.
* The hole such a field would be without the number check (brief target 2), as the positive
  control: pasted in (an f-string; and html() before this pass would refuse the template,
  not the value), ``width: {v}%`` given ``1%; position: fixed; inset: 0; ...
  background-image: url(https://x.test/t) !important`` covered the whole page, over the
  template's later declarations, and made Chromium request the value's URL;
  html() refuses that value, saying why and how to pass a number.
* CSS contexts that stay refused (target 2): a field inside ``url()``, ``image-set()``,
  ``attr()``, ``calc()``, a custom property (``--x: {v}``, an arbitrary token stream), a
  property off the list (``color``, ``background``, ``top``, ``margin-top``, ``z-index``,
  ``anchor-name``, ``content``), a property name, a second field in one value, a unit off the
  list, static text with a quote, comment, backslash, ``!important`` or an unbalanced
  parenthesis, a style attribute on a ``<link>``, and a ``<style>`` body (``@import``,
  ``@property``, ``if()``).
* Holds (target 2): typed CSS ``attr()`` (Chromium 133+) in the template's own style sheet
  reading a ``data-*`` value, which html() accepts as text, made no request in Chromium 156
  (``attr(data-u type(*))`` as a background, through ``var()``, in ``image-set()``, as
  ``type(<image>)``): attr-tainting keeps a value out of URLs.
* Chromium's newer attributes (target 1), kept as regression tests: ``interestfor``,
  ``writingsuggestions``, ``blocking``, ``fetchpriority``, ``referrerpolicy``,
  ``crossorigin``, ``attributionsrc``, ``itemprop``, ``itemtype``, ``formmethod``, the
  ``<permission>`` and ``<geolocation>`` elements' ``type``, ``shadowrootdelegatesfocus`` and
  the others are refused (off html()'s list).
"""

from __future__ import annotations

from typing import Any

import pytest
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive

from ipy_istring.fields import RenderError

# (!important: the template's later height and background would win over the value's own)
HOSTILE = (
    "1%; position: fixed; inset: 0; width: auto; height: auto !important; "
    "background-image: url(https://x.test/t) !important;"
)
BAR = '<div style="width: {}%; height: 8px; background: green">&nbsp;</div>'


def shown(browser: Any, output: str, names: tuple[str, ...] = ()) -> dict[str, Any]:  # noqa: F811
    """What Chromium did with ``output`` in a 200px-wide box at the top of a page: the URLs
    of x.test it requested, the first element's with a style attribute computed position and
    box, and its computed ``names`` (style properties, as in CSS; the twenty-third pass)."""
    context = browser.new_context(viewport={"width": 800, "height": 600})
    seen: list[str] = []

    def serve(route: Any) -> None:
        if route.request.url.startswith("https://x.test/"):
            seen.append(route.request.url)
            route.fulfill(body=b"", content_type="image/png")
        else:
            route.abort()

    context.route("**/*", serve)
    tab = context.new_page()
    tab.set_content(f'<!doctype html><body><div id="out" style="width: 200px">{output}</div>')
    tab.wait_for_timeout(300)
    position, width, height, values = tab.evaluate(
        """(names) => {
        const element = document.querySelector('#out [style]');
        const r = element.getBoundingClientRect(), style = getComputedStyle(element);
        return [style.position, Math.round(r.width), Math.round(r.height),
                names.map((name) => style.getPropertyValue(name))];
        }""",
        list(names),
    )
    context.close()
    box = {"requested": seen, "position": position, "width": width, "height": height}
    return box | dict(zip(names, values))


def test_a_number_in_a_style_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    # The harness: a plain number gives the bar its share of the 200px box.
    assert shown(browser, naive(BAR, 42)) == {
        "requested": [],
        "position": "static",
        "width": 84,
        "height": 8,
    }
    # Positive control: the value pasted in covered the page and requested its URL.
    assert shown(browser, naive(BAR, HOSTILE)) == {
        "requested": ["https://x.test/t"],
        "position": "fixed",
        "width": 800,
        "height": 600,
    }
    with pytest.raises(RenderError, match=r"\{v\} stands in a style attribute as the number"):
        result(BAR, HOSTILE)
    # The fix: html() now renders a number there, as the naive text did.
    for value, width in ((42, 84), (42.5, 85), ("100", 200), (0, 0)):
        rendered = str(result(BAR, value))
        assert rendered == naive(BAR, value)
        assert shown(browser, rendered)["width"] == width


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ('<div class="bar" style="width:{}%"></div>', (42.5,)),
        ('<div style="height: {}px; width: {}%"></div>', (10, 50)),
        ('<div style="width: {}px"></div>', (120,)),
        ('<div style="opacity: {}">x</div>', (0.5,)),
        ('<span style="font-size: {}em">x</span>', (1.2,)),
        ('<td style="padding-left: {}px">x</td>', (16,)),
        ('<div style="background: #4caf50; WIDTH: {}%; border-radius: 3px">x</div>', (7,)),
        ('<div style="display: flex"><div style="flex-grow: {}">a</div></div>', (2,)),
        ('<svg><rect style="stroke-width: 1; opacity: {}"/></svg>', (0.3,)),
        ('<div style="background: rgb(0, 128, 0); width: {}%;">x</div>', (3,)),
        ('<div style="max-width: {}ch; min-height: {}rem">x</div>', (60, 2)),
        ('<div style="width: {}%">x</div>', (Markup("42"),)),
    ],
)  # fmt: skip
def test_sizes_in_plain_declarations_are_accepted(template: str, values: tuple) -> None:
    assert str(result(template, *values)) == naive(template, *values)


# Pieces of style text for the differential run below: declarations, bits of them, and the
# characters the plain declarations may hold or not, around a field written several ways.
STATIC_PIECES = [
    "color: red", "background: url(x.png)", "a: b(c)", "--x: 1", "-webkit-box-flex: 1", "x",
    "font: 12px serif", "width: calc(1px + 2%)", "(", ")", "a(", "url(", ":", ";", " ", "#f00",
    "1px", "rgb(1, 2, 3)", "height: 8px", "margin: 0 auto",
    # (what the plain declarations' characters and balanced parentheses keep out)
    "background: url(", "background-image: image-set(", "font-family: 'a", "content: \"",
    "/*", "*/", "\\", "{", "}", "!important",
]  # fmt: skip
FIELD_PIECES = [
    "width: {}%", "WIDTH:{}%", "padding: {}px", "border-radius: {}em", "opacity: {}",
    "width: 1{}%", "{}: 1px", "w{}: 1px", "width: {} px", "top: {}px", "width: {}%{}",
    "width: ({}%)", "max-height:\t{}rem", "line-height: {}", "font-size: {}pt",
]  # fmt: skip
MARK = "987654"


def style_texts(count: int, seed: int, fields: list[str] = FIELD_PIECES) -> list[str]:
    """``count`` random style attribute texts, each holding one of ``fields`` (pieces with
    fields) among static pieces."""
    import random

    chance = random.Random(seed)
    texts = []
    for _ in range(count):
        pieces = chance.choices(STATIC_PIECES, k=chance.randrange(4))
        pieces.insert(chance.randrange(len(pieces) + 1), chance.choice(fields))
        texts.append(chance.choice(["; ", ";", " ", ""]).join(pieces))
    return texts


@pytest.mark.parametrize(
    ("style", "value"),
    [
        (".x { background-image: attr(data-u type(*)) }", "url(https://x.test/t)"),
        (".x { --u: attr(data-u type(*)); background-image: var(--u) }", "url(https://x.test/t)"),
        (".x { background-image: image-set(attr(data-u) 1x) }", "https://x.test/t"),
        (".x { background-image: attr(data-u type(<image>)) }", "url(https://x.test/t)"),
        (".x { background: attr(data-u type(*)) }", "red url(https://x.test/t)"),
    ],
)  # fmt: skip
def test_typed_attr_makes_no_request_of_a_data_value(
    browser: Any,  # noqa: F811
    style: str,
    value: str,
) -> None:
    # Holds (target 2): a data-* value, which html() accepts as plain text, read by typed
    # attr() in the template's own style sheet is no URL in Chromium 156 (attr-tainting).
    control = '<div style="width: 9px; height: 9px; background: url(https://x.test/t)"></div>'
    assert shown(browser, control)["requested"] == ["https://x.test/t"]
    template = '<style>{}</style><div class="x" data-u="{}" style="height: 9px">x</div>'
    rendered = str(result(template.replace("{}", style, 1), value))
    assert shown(browser, rendered)["requested"] == []


def test_a_number_lands_in_the_size_it_is_written_for(browser: Any) -> None:  # noqa: F811
    # Differential run: of random style texts, those html() accepts with a number in each
    # field are rendered in Chromium, and the number is read back from the element's
    # declarations: it must stand in the longhands of the listed sizes only.
    accepted = []
    for text in style_texts(800, seed=22):
        template = f'<div style="{text}">x</div>'
        try:
            accepted.append(str(result(template, *[MARK] * template.count("{}"))))
        except RenderError:
            continue
    assert len(accepted) > 60  # (enough of them to tell)
    tab = browser.new_page()
    tab.set_content("<!doctype html><body>" + "".join(accepted))
    landed = tab.evaluate(
        """(mark) => [...document.querySelectorAll('div')].flatMap((div) =>
        [...div.style].filter((name) => div.style.getPropertyValue(name).includes(mark)))""",
        MARK,
    )
    tab.close()
    sizes = {"width", "max-height", "line-height", "font-size", "opacity"}
    longhands = {f"padding-{side}" for side in ("top", "right", "bottom", "left")} | {
        f"border-{corner}-radius"
        for corner in ("top-left", "top-right", "bottom-right", "bottom-left")
    }
    assert landed and set(landed) <= sizes | longhands


@pytest.mark.parametrize(
    "value",
    [HOSTILE, "1e3", "1e-05", "nan", "inf", "-3", "", " 42", "42 ", "4 2", "42.", ".5",
     "\uff14\uff12", "42%; color: red", "42px", "0x2a", True, Markup("4&#50;")],
)  # fmt: skip
def test_a_size_takes_plain_numbers_only(value: object) -> None:
    with pytest.raises(RenderError, match=r"is no plain number.*non-negative number"):
        result(BAR, value)


@pytest.mark.parametrize(
    "template",
    [
        '<p style="color: {}">x</p>',
        '<p style="background: {}">x</p>',
        '<p style="background-color: {}">x</p>',
        '<p style="top: {}px">x</p>',
        '<p style="margin-top: {}px">x</p>',
        '<p style="z-index: {}">x</p>',
        '<p style="anchor-name: --a{}">x</p>',
        '<p style="content: counter(c{})">x</p>',
        '<p style="--x: {}">x</p>',
        '<p style="{}: 1px">x</p>',
        '<p style="{}">x</p>',
        '<p style="width: {}{}%">x</p>',
        '<p style="width: 1{}%">x</p>',
        '<p style="width: {}vw">x</p>',
        '<p style="width: calc({}% - 2px)">x</p>',
        '<p style="width: attr(data-w type(<percentage>), {}%)">x</p>',
        '<p style="background: url(x{}.png)">x</p>',
        '<p style="background: url(https://x.test/; width: {}%)">x</p>',
        '<p style="background: image-set(\'x.png\' 1x); width: {}%">x</p>',
        '<p style="font-family: \'a; width: {}%\'">x</p>',
        '<p style="color: red /* ; */; width: {}%">x</p>',
        '<p style="color: re\\64 ; width: {}%">x</p>',
        '<p style="color: red !important; width: {}%">x</p>',
        '<p style="width: if(media(print): 1px; else: {}%)">x</p>',
        '<p style="width: {}%; } @import url(x.css); p {">x</p>',
        '<link style="width: {}%" rel="stylesheet" href="x.css">',
        "<style>p {{ width: {}% }}</style><p>x</p>",
        "<style>@import url(x{}.css);</style>",
        "<style>@property --p {{ initial-value: {}px }}</style>",
    ],
)  # fmt: skip
def test_other_css_contexts_stay_refused(template: str) -> None:
    count = template.replace("{{", "").count("{}")
    with pytest.raises(RenderError, match=r"stands in a (style attribute|<style> body)"):
        result(template.replace("{{", "{").replace("}}", "}"), *["1"] * count)


@pytest.mark.parametrize(
    "template",
    [
        '<button interestfor="{}">x</button>',
        '<a href="/x" interestfor="{}">x</a>',
        '<textarea writingsuggestions="{}"></textarea>',
        '<div blocking="{}">x</div>',
        '<img src="/a.png" fetchpriority="{}">',
        '<img src="/a.png" referrerpolicy="{}">',
        '<a href="/x" referrerpolicy="{}">x</a>',
        '<img src="/a.png" crossorigin="{}">',
        '<img src="/a.png" attributionsrc="{}">',
        '<img src="/a.png" sizes="{}">',
        '<a href="/x" ping="{}">x</a>',
        '<div itemscope itemtype="{}">x</div>',
        '<span itemprop="{}">x</span>',
        '<button formmethod="{}">x</button>',
        '<button command="{}" commandfor="d">x</button>',
        '<div popover="{}">x</div>',
        '<dialog closedby="{}">x</dialog>',
        '<div anchor="{}">x</div>',
        '<permission type="{}"></permission>',
        '<geolocation accuracymode="{}"></geolocation>',
        '<template shadowrootmode="{}"><p>x</p></template>',
        '<template shadowrootmode="open" shadowrootdelegatesfocus="{}"></template>',
        '<template shadowrootmode="open" shadowrootclonable="{}"></template>',
        '<input autofocus="{}">',
        '<div inert="{}">x</div>',
        '<meta name="{}" content="x">',
    ],
)  # fmt: skip
def test_newer_attributes_stay_refused(template: str) -> None:
    with pytest.raises(RenderError, match=r"stands in"):
        result(template, "x")
