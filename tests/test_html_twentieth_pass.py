"""Twentieth red-team pass over html(): the names a value gives that the page refers to, and
what an output's elements take from the page's keyboard and the browser's saved data.

* A whole id given by a value (reverse id capture; the previous passes listed it as a known
  limit).  The first element of an id in the page is the one the page's own references find,
  and window names a property after an id nothing else defines.  In Chromium, an output
  (put in as JupyterLab puts outputs, before the page's elements) whose template was
  ``<form id="{a}" action="#output-form"></form><div id="{b}" popover>...``, given the ids of
  the page's elements, took them over: the page's ``<button form="login">`` submitted the
  output's form, its ``popovertarget="menu"`` showed the output's popover, its
  ``<label for="agree">`` checked the output's checkbox, and a page script's
  ``typeof config`` read the output's element (DOM clobbering of ``window.config``).  A
  value may now give the rest of an id only after a static prefix of the template's holding
  a separator (``id="row-{n}"``: a character no JavaScript name holds, so the id is in the
  template's namespace and never a global's name); a value with nothing of the template's
  before it (``id="{x}"``, ``id="{x}-panel"``: the page's ids end in common words) is
  refused.  The nineteenth pass's measured control (``<datalist id="{d}">`` gave a later
  input its suggestions) is its positive control now.
* An id after a prefix without a separator (``id="c{x}"``): ``"c" + "onfig"`` is
  ``window.config`` again (Chromium: the page script read the output's element).  The value
  there may be a number only (``id="c{n}"``, test_html.py's own harness writes it), which
  stays in the template's namespace.
* ``tabindex`` (left by the nineteenth pass).  A value above 0 put the output's button before
  all of the page's elements in the Tab order: in Chromium the first Tab of the page focused
  an output's ``tabindex="1"`` button after the page's own input.  A value there must be the
  whole attribute and ``-1`` or ``0``.
* ``accesskey`` (left by the nineteenth pass).  The last element of a key in the page has
  it: in Chromium Alt+S followed an output's link, not the page's own ``accesskey="s"``
  button before it.  It takes no value.
* ``autocomplete`` (left by the nineteenth pass).  Its tokens choose which of the user's
  saved data (card numbers, passwords, one-time codes) the browser offers to fill in the
  output's field.  Headless Chromium shows no autofill, so this is read from the spec, not
  measured; a value there must be the whole attribute and ``on`` or ``off``, or the name of a
  section (``autocomplete="section-{x} email"``, kept within its token).
* An svg animation of a link's ``target`` (a new context of this pass).  html() judged a
  link whose URL a value gives by its ``target`` and ``rel`` as written, but SMIL sets an
  attribute over them: ``<svg><a href="{u}" target="_blank"><set attributeName="target"
  to="w"/>`` was accepted, and in Chromium the value's page opened in a tab holding
  ``window.opener`` (reverse tabnabbing).  A ``<set href="#l" ...>`` in another svg set the
  target of the link ``#l`` the same way, so a trusted value, a joined result or another
  trusted field that brings such an animation is refused with a link of another piece, as a
  ``<base target>`` is since the eighteenth and nineteenth passes.  (Chromium read
  ``attributeName`` as written: ``"TARGET"`` or ``" target"`` set nothing, and an animation of
  ``rel`` to ``opener`` gave no opener; html() folds the name all the same.)
"""

from __future__ import annotations

from typing import Any

import pytest
from markupsafe import Markup
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_eighteenth_pass import opener_of_new_tab, tabs  # noqa: F401 (tabs: a fixture)
from test_html_seventh_pass import result

from ipy_istring.fields import RenderError

# The page around the output: the output is put in #out (as JupyterLab puts it, before the
# page's own elements in tree order), which then holds a form, a popover, a checkbox with its
# label and a script reading a global of the page's, each referred to by id.
PAGE = """<!doctype html><body><div id="out"></div>
<form id="login" action="#page-form"></form><button id="save" form="login">save</button>
<button id="open" popovertarget="menu">menu</button><div id="menu" popover>page menu</div>
<input type="checkbox" id="agree"><label id="lab" for="agree">agree</label>
<button id="run" onclick="document.title = typeof config == 'undefined' ? 'clean' : 'pwned'">
run</button>
<script>
document.addEventListener("submit", (e) => {
  e.preventDefault();
  window.submitted = e.target.getAttribute("action");
});
</script>"""
# What the template writes: the value gives each id (a form, a popover, a checkbox, a note).
TEMPLATE = (
    '<form id="{}" action="#output-form"></form><div id="{}" popover>output menu</div>'
    '<input type="checkbox" id="{}"><p id="{}">note</p>'
)
PAGE_IDS = ("login", "menu", "agree", "config")
CLEAN = {"submitted": "#page-form", "shown": ["page menu"], "checked": ["page"], "title": "clean"}


def effects(browser: Any, output: str) -> dict[str, Any]:  # noqa: F811
    """Click the page's own controls after ``output`` is put in: what each of them acted on."""
    tab = browser.new_page()
    tab.set_content(PAGE)
    tab.evaluate("(h) => { document.getElementById('out').innerHTML = h; }", output)
    found: dict[str, Any] = {}
    tab.click("#save")
    tab.wait_for_timeout(100)
    found["submitted"] = tab.evaluate("() => window.submitted")
    tab.click("#open")
    found["shown"] = tab.evaluate(
        "() => [...document.querySelectorAll(':popover-open')].map((e) => e.textContent)"
    )
    # (closed again, so that it covers none of the controls clicked next)
    tab.evaluate("() => document.querySelectorAll(':popover-open').forEach((e) => e.hidePopover())")
    tab.click("#lab")
    found["checked"] = tab.evaluate(
        "() => [...document.querySelectorAll('input:checked')]"
        ".map((e) => e.closest('#out') ? 'output' : 'page')"
    )
    tab.click("#run")
    found["title"] = tab.title()
    tab.close()
    return found


def naive(template: str, *values: object) -> str:
    """The template with each ``{}`` the value pasted in (as an f-string would)."""
    return template.format(*values)


def test_a_whole_id_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    assert effects(browser, "") == CLEAN  # (the harness)
    assert effects(browser, naive(TEMPLATE, "a", "b", "c", "d")) == CLEAN
    # Positive control: what html() returned before this pass (the same text) took over
    # every reference of the page.
    captured = effects(browser, naive(TEMPLATE, *PAGE_IDS))
    assert captured == {
        "submitted": "#output-form",
        "shown": ["output menu"],
        "checked": ["output"],
        "title": "pwned",
    }
    with pytest.raises(RenderError, match=r"\{v\} gives an id with nothing of the template's"):
        result(TEMPLATE, *PAGE_IDS)
    # The fix the refusal gives: a prefix of the template's with a separator.
    fixed = result(TEMPLATE.replace('id="', 'id="out-'), *PAGE_IDS)
    assert 'id="out-config"' in fixed
    assert effects(browser, str(fixed)) == CLEAN


def test_an_id_after_a_prefix_without_a_separator_positive_control_and_fix(
    browser: Any,  # noqa: F811
) -> None:
    source = '<p id="c{}">note</p>'
    # Positive control: "c" + "onfig" is the page's global again.
    assert effects(browser, naive(source, "onfig"))["title"] == "pwned"
    with pytest.raises(RenderError, match=r"\{v\} gives the rest of an id whose prefix has no"):
        result(source, "onfig")
    # A number stays in the template's namespace (test_html.py's harness writes id="c{n}").
    for number in (5, -1, "12", ""):
        rendered = result(source, number)
        assert effects(browser, str(rendered)) == CLEAN


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('<tr id="row-{}"><td>x</td></tr>', 3),
        ('<div id="row-{}">x</div>', "any words: config"),
        ('<div id="chart:{}">x</div>', "config"),
        ('<div id="row&#45;{}">x</div>', "config"),
        ('<div id="c{}">x</div>', 12),
        ('<div id="c{}">x</div>', -4),
        ('<svg><linearGradient id="g-{}"></linearGradient></svg>', "config"),
        ('<div id="r-{}-{}">x</div>', "config"),
        ('<div id=" {}">x</div>', "config"),
        ('<div id="row-{}">x</div>', Markup("a&amp;b")),
    ],
)  # fmt: skip
def test_an_id_in_the_template_s_namespace_stays_accepted(source: str, value: object) -> None:
    values = [value] * source.count("{}")
    assert result(source, *values)


@pytest.mark.parametrize(
    "source",
    [
        '<div id="{}">x</div>', "<div ID='{}'>x</div>", '<a id="{}">x</a>',
        '<div id="{}-panel">x</div>', '<div id="{}{}">x</div>', '<p title="t" id="{}">x</p>',
        '<svg><linearGradient id="{}"></linearGradient></svg>', '<form id="{}"></form>',
    ],
)  # fmt: skip
def test_a_value_may_not_start_an_id(source: str) -> None:
    # ("jp-main-dock" + "-panel" is JupyterLab's own id: a suffix is no namespace.)
    values = ["config"] * source.count("{}")
    with pytest.raises(RenderError, match="gives an id with nothing of the template's"):
        result(source, *values)
    with pytest.raises(RenderError, match="gives an id with nothing of the template's"):
        result(source, *[5] * len(values))


@pytest.mark.parametrize("value", ["onfig", "5a", "5 config", "\u0665", "+5", Markup("onfig")])
def test_after_a_prefix_without_a_separator_only_a_number(value: object) -> None:
    with pytest.raises(RenderError, match="rest of an id whose prefix has no separator"):
        result('<div id="c{}">x</div>', value)


# --- tabindex, accesskey, autocomplete ----------------------------------------------------------


def first_focused(browser: Any, output: str) -> Any:  # noqa: F811
    """The id of what the page's first Tab focuses, with ``output`` after the page's input."""
    tab = browser.new_page()
    tab.set_content('<!doctype html><body><input id="page-first"><div id="out"></div>')
    tab.evaluate("(h) => { document.getElementById('out').innerHTML = h; }", output)
    tab.keyboard.press("Tab")
    focused = tab.evaluate("() => document.activeElement.id")
    tab.close()
    return focused


def test_a_tabindex_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    source = '<button id="output" tabindex="{}">x</button>'
    assert first_focused(browser, "") == "page-first"  # (the harness)
    # Positive control: what html() returned before this pass took the page's first Tab.
    assert first_focused(browser, naive(source, 1)) == "output"
    for value in (1, "2", " 1", "+1", "01", "1 ", Markup("1")):
        with pytest.raises(RenderError, match=r"stands in tabindex.*-1.* or tabindex=\"0\""):
            result(source, value)
    for value in (0, -1, "0", "-1"):
        assert first_focused(browser, str(result(source, value))) == "page-first"


@pytest.mark.parametrize("source", ['<p tabindex="1{}">x</p>', '<p tabindex="{}{}">x</p>'])
def test_a_tabindex_value_is_the_whole_attribute(source: str) -> None:
    with pytest.raises(RenderError, match="stands in tabindex"):
        result(source, *[0] * source.count("{}"))


def pressed_alt_s(browser: Any, output: str) -> Any:  # noqa: F811
    """Alt+S (Chromium's access-key modifier on Linux) with the page's own accesskey="s"
    button before ``output``: the page's title (set by its button) and its location's hash
    (an output's link)."""
    tab = browser.new_page()
    tab.set_content(
        '<!doctype html><body><button accesskey="s" onclick="document.title = \'page\'">'
        'save</button><div id="out"></div>'
    )
    tab.evaluate("(h) => { document.getElementById('out').innerHTML = h; }", output)
    session = tab.context.new_cdp_session(tab)
    key = {"modifiers": 1, "key": "s", "code": "KeyS", "windowsVirtualKeyCode": 83}
    key["nativeVirtualKeyCode"] = 83
    session.send("Input.dispatchKeyEvent", {"type": "rawKeyDown", **key})
    session.send(
        "Input.dispatchKeyEvent", {"type": "char", "text": "s", "unmodifiedText": "s", **key}
    )
    session.send("Input.dispatchKeyEvent", {"type": "keyUp", **key})
    tab.wait_for_timeout(100)
    pressed = (tab.title(), tab.evaluate("() => location.hash"))
    tab.close()
    return pressed


def test_an_accesskey_positive_control_and_fix(browser: Any) -> None:  # noqa: F811
    source = '<a href="#output" accesskey="{}">x</a>'
    assert pressed_alt_s(browser, "") == ("page", "")  # (the harness)
    # Positive control: the output's link took the page's shortcut.
    assert pressed_alt_s(browser, naive(source, "s")) == ("", "#output")
    for value in ("s", "S", "x"):
        with pytest.raises(RenderError, match=r"stands in accesskey.*Write the accesskey in"):
            result(source, value)
    # The fix: a key the template writes, the author's choice.
    fixed = result('<a href="#output" accesskey="o">{}</a>', "x")
    assert pressed_alt_s(browser, str(fixed)) == ("page", "")


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('<input autocomplete="{}">', "cc-number"),
        ('<input autocomplete="{}">', "current-password"),
        ('<input autocomplete="{}">', "one-time-code"),
        ('<input autocomplete="{}">', "ON"),
        ('<input autocomplete="{}">', "off cc-number"),
        ('<input autocomplete="{} email">', "shipping"),
        ('<input autocomplete="cc-{}">', "number"),
        ('<form autocomplete="{}"></form>', "cc-number"),
        ('<input autocomplete="section-{}{}">', "a"),
    ],
)  # fmt: skip
def test_an_autocomplete_value_is_refused(source: str, value: str) -> None:
    with pytest.raises(RenderError, match="autocomplete token chooses which of the user's"):
        result(source, *[value] * source.count("{}"))


def test_an_autocomplete_value_may_say_on_off_or_name_a_section() -> None:
    assert result('<input autocomplete="{}">', "off") == '<input autocomplete="off">'
    assert result('<input autocomplete="{}">', "on")
    rendered = result('<input autocomplete="section-{} email">', "billing-2")
    assert rendered == '<input autocomplete="section-billing-2 email">'
    rendered = result('<input autocomplete="SECTION-{} email">', "a")
    assert rendered == '<input autocomplete="SECTION-a email">'
    # (the section keeps its token: a space would add a field name of the value's)
    with pytest.raises(RenderError, match="continues a token"):
        result('<input autocomplete="section-{} email">', "a cc-number")


# --- an svg animation of a link's target ----------------------------------------------------


URL = "https://x.test/"
ANIMATED = (
    '<svg width="200" height="50"><a id="l" href="{}" target="_blank">'
    '<set attributeName="target" to="w"></set><text x="5" y="20">link</text></a></svg>'
)
LINK = (
    '<svg width="200" height="50"><a id="l" href="{}" target="_blank">'
    '<text x="5" y="20">link</text></a></svg>'
)
# In another svg (another piece, another output): it names the link by id.
SETTER = '<svg width="10" height="10"><set href="#l" attributeName="target" to="w"></set></svg>'


def test_an_svg_animation_of_a_link_s_target_positive_control_and_fix(tabs: Any) -> None:  # noqa: F811
    # Positive control: what html() returned before this pass (the same text) opened the
    # value's page in a tab holding window.opener, over the link's own target="_blank".
    assert opener_of_new_tab(tabs, naive(ANIMATED, URL)) is True
    with pytest.raises(RenderError, match="or an svg animation of the template's may set"):
        result(ANIMATED, URL)
    # The fix: no animation of target; the link's own _blank holds no opener.
    assert opener_of_new_tab(tabs, str(result(LINK, URL))) is False
    # (an animation of another attribute stays accepted)
    assert result(ANIMATED.replace('"target"', '"fill"'), URL)


def test_an_svg_animation_in_another_piece_positive_control_and_fix(tabs: Any) -> None:  # noqa: F811
    # Positive control: the animation in one svg set the target of the link #l of another.
    assert opener_of_new_tab(tabs, SETTER + naive(LINK, URL)) is True
    setter, link = result(SETTER), result(LINK, URL)
    with pytest.raises(RenderError, match="trusted HTML with an svg animation of a link's"):
        result("{}" + LINK, Markup(SETTER), URL)
    for joined in (
        lambda: setter + link,
        lambda: link + setter,
        lambda: result("<br>").join([setter, link]),
    ):
        with pytest.raises(RenderError, match="a join of results has an svg animation"):
            joined()
    with pytest.raises(RenderError, match="trusted HTML, has an svg animation"):
        result("{}{}", setter, link)
    # A join where no piece animates a target stays accepted.
    assert result(SETTER.replace('"target"', '"fill"')) + link
