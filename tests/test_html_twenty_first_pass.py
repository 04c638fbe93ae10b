"""Twenty-first red-team pass over html(): the names a value gives, by which the page looks
its elements up.

* A whole ``name`` given by a value (the twentieth pass left ``<a name>`` and ``<input
  name>`` accepted).  A name is a key the page finds elements by, as an id is.  In Chromium,
  an output put in before the page's elements (as JupyterLab puts outputs) whose template
  was ``<input name="{a}">``, ``<a name="{b}">``, ``<input form="login" name="{c}">`` and
  ``<form action="/search"><input name="{d}"></form>`` took over the page's lookups:
  ``document.getElementsByName("csrf")[0]`` read the output's field, not the page's; the
  page's link to ``#results`` went to the output's ``<a name="results">`` (a fragment names
  an id, else the first ``<a>`` of that name), not the page's; a field joined to the page's
  form by the template's ``form="login"`` and named ``next`` by the value was sent with the
  page's form, before the page's own ``next`` (a redirect the value chooses); and a form's
  fields are its properties by name, over its own, so ``<input name="action">`` made the
  form's ``action``, read by the page's submit handler, the output's element (DOM
  clobbering).  The document and window take no ``<a>``'s or form field's name (measured: only
  ``img``, ``form``, ``embed``, ``object``, ``iframe`` and ``frame`` names, all refused
  already).  A name now follows the id's rule: a value gives its rest after a static prefix
  holding a separator (``name="field-{x}"``, ``name="user[{x}]"``), or a number after a prefix
  without one (``name="q{n}"``; ``"act" + "ion"`` is refused).  Static names
  (``<input name="q">``) are the template's and stay accepted.
* A ``<base target>`` or an svg ``<set attributeName="target">`` in ANOTHER output (left by
  the twentieth pass): decided to stay a documented limit, measured here.  Each output is
  accepted alone; shown one after the other (two outputs, no join html() sees), the value's
  link opened its page in a tab holding ``window.opener``.  html() cannot see the other
  outputs of the page at render time; no value can write the setter (values in ``<base>``,
  ``target``, ``attributeName`` and ``to`` are refused), so it is the author's static markup;
  the render-time alternative is refusing a static ``<base target>`` naming a window and any
  svg animation of ``target`` in every template, a reversal of the eighteenth to twentieth
  passes' tests left to the project's decision (docs/renderers.md, "Links").
* Window names (brief): ``target``, ``formtarget``, and the ``name`` of ``<iframe>``,
  ``<embed>``, ``<object>`` take no value (already refused: off the list, or elements that
  load); kept as regression tests.
"""

from __future__ import annotations

from typing import Any

import pytest
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_eighteenth_pass import opener_of_new_tab, tabs  # noqa: F401 (tabs: a fixture)
from test_html_seventh_pass import result
from test_html_twentieth_pass import naive

from ipy_istring.fields import RenderError

# The page around the output: the output is put in #out, before the page's own elements in
# tree order, which hold a login form with hidden fields, an old-style anchor <a name> with a
# link to it, and a submit handler that reads the submitted form's action property.
PAGE = """<!doctype html><body><div id="out"></div>
<form id="login" action="#page-form"><input type="hidden" name="next" value="/home">
<input type="hidden" name="csrf" value="page-token"></form>
<p><a name="results">page results</a></p><a id="go" href="#results">go</a>
<script>
document.addEventListener("submit", (e) => {
  e.preventDefault();
  window.submitted = String(e.target.action);
});
</script>"""
# What the template writes: a field, an anchor, a field of the page's login form, and a form
# of its own with a field; the value names each.
TEMPLATE = (
    '<input name="{}" value="output"><a name="{}">output</a>'
    '<input form="login" type="hidden" name="{}" value="https://x.test/">'
    '<form action="/search"><input name="{}"></form>'
)
PAGE_NAMES = ("csrf", "results", "next", "action")
CLEAN = {
    "csrf": "page-token",
    "sent": ["next=/home", "csrf=page-token"],
    "fragment": "page results",
    "action": "about:blank",  # (the page is about:blank: /search resolves to nothing else)
}


def effects(browser: Any, output: str) -> dict[str, Any]:  # noqa: F811
    """What the page's own lookups find after ``output`` is put in before its elements."""
    tab = browser.new_page()
    tab.set_content(PAGE)
    tab.evaluate("(h) => { document.getElementById('out').innerHTML = h; }", output)
    found: dict[str, Any] = {}
    found["csrf"] = tab.evaluate("() => document.getElementsByName('csrf')[0].value")
    # The page's fields that its login form sends, in order (the first of a name wins on
    # many servers); the template's form="login" adds its field, under the name it has.
    found["sent"] = tab.evaluate(
        "() => [...new FormData(document.getElementById('login'))]"
        ".filter(([k]) => k == 'next' || k == 'csrf').map(([k, v]) => k + '=' + v)"
    )
    tab.click("#go")
    found["fragment"] = tab.evaluate("() => document.querySelector(':target').textContent")
    # The page's submit handler, given the output's own form.
    found["action"] = tab.evaluate(
        "() => { const f = document.querySelector('#out form');"
        " if (f) f.requestSubmit(); return f ? window.submitted : 'about:blank'; }"
    )
    if found["action"] == "":
        found["action"] = "about:blank"
    tab.close()
    return found


def test_a_whole_name_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    assert effects(browser, "") == CLEAN  # (the harness)
    assert effects(browser, naive(TEMPLATE, "a", "b", "c", "d")) == CLEAN
    # Positive control: what html() returned before this pass (the same text) took over every
    # lookup of the page by name.
    captured = effects(browser, naive(TEMPLATE, *PAGE_NAMES))
    assert captured == {
        "csrf": "output",
        "sent": ["next=https://x.test/", "next=/home", "csrf=page-token"],
        "fragment": "output",
        "action": "[object HTMLInputElement]",
    }
    with pytest.raises(RenderError, match=r"\{v\} gives a name with nothing of the template's"):
        result(TEMPLATE, *PAGE_NAMES)
    # The fix the refusal gives: a prefix of the template's with a separator.
    fixed = result(TEMPLATE.replace('name="', 'name="f-'), *PAGE_NAMES)
    assert 'name="f-csrf"' in fixed
    assert effects(browser, str(fixed)) == CLEAN


def test_a_name_after_a_prefix_without_a_separator_positive_control_and_fix(
    browser: Any,  # noqa: F811
) -> None:
    source = '<form action="/search"><input name="act{}"></form>'
    # Positive control: "act" + "ion" is the form's action again.
    assert effects(browser, naive(source, "ion"))["action"] == "[object HTMLInputElement]"
    with pytest.raises(RenderError, match=r"\{v\} gives the rest of a name whose prefix has no"):
        result(source, "ion")
    for number in (5, -1, "12"):
        assert effects(browser, str(result(source, number))) == CLEAN


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('<input name="field-{}">', "action"),
        ('<input name="user[{}]">', "csrf"),
        ('<input name="q.{}">', "next"),
        ('<select name="s:{}"></select>', "action"),
        ('<a name="sec-{}">x</a>', "results"),
        ('<textarea name="t-{}"></textarea>', "x"),
        ('<input name="q{}">', 5),
        ('<button name="b{}">x</button>', -2),
        ('<input name="f-{}-{}">', "submit"),
        ('<input name="f-{}">', Markup("a&amp;b")),
        ('<input type="checkbox" name="opt-{}">', "host-group"),
    ],
)  # fmt: skip
def test_a_name_in_the_template_s_namespace_stays_accepted(source: str, value: object) -> None:
    assert result(source, *[value] * source.count("{}"))


def test_a_static_name_stays_accepted() -> None:
    assert result('<form><input name="q" value="{}"></form>', "action") == (
        '<form><input name="q" value="action"></form>'
    )
    assert result('<a name="top">{}</a>', "x")


@pytest.mark.parametrize(
    "source",
    [
        '<input name="{}">', "<INPUT NAME='{}'>", '<a name="{}">x</a>',
        '<button name="{}">x</button>', '<select name="{}"></select>',
        '<textarea name="{}"></textarea>', '<output name="{}"></output>',
        '<fieldset name="{}"></fieldset>', '<div name="{}">x</div>',
        '<my-field name="{}"></my-field>', '<input name="{}-x">', '<input name="{}{}">',
        '<input type="hidden" value="v" name="{}">', '<slot name="{}"></slot>',
    ],
)  # fmt: skip
def test_a_value_may_not_start_a_name(source: str) -> None:
    values = ["action"] * source.count("{}")
    with pytest.raises(RenderError, match="gives a name with nothing of the template's"):
        result(source, *values)
    with pytest.raises(RenderError, match="gives a name with nothing of the template's"):
        result(source, *[5] * len(values))


@pytest.mark.parametrize("value", ["ion", "5a", "5 x", "\u0665", "+5", Markup("ion")])
def test_after_a_name_prefix_without_a_separator_only_a_number(value: object) -> None:
    with pytest.raises(RenderError, match="rest of a name whose prefix has no separator"):
        result('<input name="act{}">', value)


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ('<a href="/x" target="{}">x</a>', "not on html\\(\\)'s list"),
        ('<area href="/x" target="{}">', "not on html\\(\\)'s list"),
        ('<form target="{}"></form>', "not on html\\(\\)'s list"),
        ('<button formtarget="{}">x</button>', "not on html\\(\\)'s list"),
        ('<iframe name="{}"></iframe>', "loads, runs or reconfigures"),
        ('<embed name="{}">', "loads, runs or reconfigures"),
        ('<object name="{}"></object>', "loads, runs or reconfigures"),
        ('<img name="f-{}" src="x.png">', "DOM clobbering"),
        ('<form name="f-{}"></form>', "DOM clobbering"),
        ('<input type="radio" name="f-{}">', "unchecks the page's radio"),
        ('<details name="f-{}"></details>', "exclusive accordion"),
    ],
)  # fmt: skip
def test_window_names_and_document_names_take_no_value(source: str, words: str) -> None:
    # (the document and window take only these elements' names: measured in Chromium 156)
    with pytest.raises(RenderError, match=words):
        result(source, "w")


# --- a <base target> or an svg animation of target in another output: a documented limit ---


def test_a_setter_in_another_output_is_a_measured_limit(tabs: Any) -> None:  # noqa: F811
    url = "https://x.test/"
    html_link = result('<a id="l" href="{}">link</a>', url)
    svg_link = result('<svg><a id="l" href="{}"><text y="20">link</text></a></svg>', url)
    for setter, link in (
        (result('<base target="w">'), html_link),
        (result('<svg><set href="#l" attributeName="target" to="w"></set></svg>'), svg_link),
    ):
        # Joined, html() sees both and refuses (the nineteenth and twentieth passes).
        with pytest.raises(RenderError, match="a join of results has"):
            setter + link
        # Shown as two outputs, each accepted alone, the link opens the value's page in a tab
        # holding window.opener: html() cannot see the page's other outputs.
        assert opener_of_new_tab(tabs, f"<div>{setter}</div><div>{link}</div>") is True
