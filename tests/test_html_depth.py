"""html(): a result may not nest elements deeper than a browser builds them.

Chromium's parser nests elements at most 512 deep: past that it puts a new element in its
parent's parent, while text stays where it is.  html5lib, which html() reads every template
and page with, has no such limit, so deep down what html() checked was not the page Chromium
built: ``<pre><span>{tex}</span></pre>`` is accepted because MathJax skips a ``<pre>``, but 520
levels down (a recursive tree of html() results, or 90 nested i-strings of six ``<div>`` each)
the ``<span>`` came out beside the ``<pre>``, and MathJax typeset its ``\\href{javascript:...}``
into a link that ran (the red team's run with the project's MathJax harness).  A result may now
nest at most 256 deep, the rest left to the page around a notebook's output.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)

from ipy_istring._html_contexts import MAX_DEPTH
from ipy_istring.fields import RenderError
from ipy_istring.html import html
from ipy_istring.template import Interpolation, InterpolationTemplate

TEX = r"$\href{javascript:alert(1)}{X}$"


def _leaf() -> InterpolationTemplate:
    return InterpolationTemplate("<pre><span>", Interpolation(TEX, "tex"), "</span></pre>")


def test_positive_control_chromium_moves_an_element_past_512_levels(
    browser: Any,  # noqa: F811
) -> None:
    """The span's parent, as Chromium builds the page and as a notebook inserts an output
    (innerHTML): the <pre> a few levels down, a <div> 520 levels down."""
    tab = browser.new_page()
    parents = {}
    for levels in (10, 520):
        markup = "<div>" * levels + "<pre><span>x</span></pre>" + "</div>" * levels
        tab.set_content(f"<!doctype html><body>{markup}</body>")
        page = tab.evaluate("() => document.querySelector('span').parentNode.tagName")
        inserted = tab.evaluate(
            """(markup) => { const out = document.createElement('div');
                 document.body.replaceChildren(out); out.innerHTML = markup;
                 return out.querySelector('span').parentNode.tagName; }""",
            markup,
        )
        parents[levels] = (page, inserted)
    tab.close()
    assert parents == {10: ("PRE", "PRE"), 520: ("DIV", "DIV")}


def test_a_result_built_deeper_than_the_limit_from_trusted_html_is_refused() -> None:
    result = html(_leaf())
    levels = 0
    with pytest.raises(RenderError, match=f"nests elements more than {MAX_DEPTH} deep"):
        for levels in range(1, 520):  # noqa: B007 (how far it got)
            result = html(InterpolationTemplate("<div>", Interpolation(result, "child"), "</div>"))
    assert MAX_DEPTH - 10 < levels <= MAX_DEPTH
    assert str(result).count("<div>") == levels - 1  # (the last accepted)


def test_nested_i_strings_deeper_than_the_limit_are_refused() -> None:
    template = _leaf()
    for _ in range(90):
        template = InterpolationTemplate(
            "<div>" * 6, Interpolation(template, "child"), "</div>" * 6
        )
    with pytest.raises(RenderError, match="the template nests elements more than"):
        html(template)


def test_a_deep_result_within_the_limit_is_accepted() -> None:
    template = _leaf()
    for _ in range(30):  # 180 levels
        template = InterpolationTemplate(
            "<div>" * 6, Interpolation(template, "child"), "</div>" * 6
        )
    assert str(html(template)).count("<div>") == 180
