"""html() in hostile contexts (tests/contexts_html.py), judged by real headless Chromium.

Each case is either refused with a RenderError, or its page loads and: no script runs (no
console message from a payload, no dialog, no popup, even after every link and button is
clicked, labels too), nothing navigates while it loads, no element is positioned over the page,
no name replaces a property of the page's document (DOM clobbering), and the page has the same
elements and attributes as with a harmless value.  The naive f-string of the
cases marked ``control`` does run script in the same harness (positive control).
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import CHROMIUM_ARGS
from contexts_html import (
    CASES,
    DATA_API_JS,
    HOST_ACTION_ID,
    HOST_COLLAPSE,
    HOST_CONTROL,
    HOST_CONTROL_ID,
    HOST_GROUPS,
    HOST_NOTE_ID,
    HOST_RADIO_ID,
    HOST_STYLE,
    HOST_TARGETS,
    RUNNABLE_EXTENSIONS,
    Case,
)
from markupsafe import Markup

from ipy_istring.fields import RenderError
from ipy_istring.html import html
from ipy_istring.template import Interpolation, InterpolationTemplate

FIELD = re.compile(r"\{([vm])\}")
SHAPE_JS = """() => Array.from(document.querySelectorAll('*'), e =>
    e.tagName + '[' + Array.from(e.attributes, a => a.name).sort().join(',') + ']')"""
# Elements drawn over the page: positioned out of the flow, or moved by a transform (an
# <svg>'s transform attribute is one); a transform inside an svg stays clipped to its box.
# (The page's own popover, HOST_TARGETS, is fixed in the top layer when shown: not the output's;
# HOST_STYLE's class is the page's that covers it, which an element of the output must not take.)
OVERLAY_JS = """() => Array.from(document.querySelectorAll('*'))
    .filter(e => e !== Document.prototype.getElementById.call(document, 'host-popover'))
    .filter(e => ['fixed', 'absolute', 'sticky'].includes(getComputedStyle(e).position)
        || (e.parentElement && e.parentElement.namespaceURI === 'http://www.w3.org/1999/xhtml'
            && getComputedStyle(e).transform !== 'none'))
    .map(e => e.tagName)"""
# The page's own controls (HOST_CONTROL, HOST_GROUPS) are never clicked by the harness.
HOST = (
    f"#{HOST_CONTROL_ID}, #{HOST_RADIO_ID}, #host-details > summary, #host-form *, "
    f"#{HOST_ACTION_ID}"
)
CLICKABLE = f":is(a, area, button, input, label, summary, [onclick]):not({HOST})"
# (Document.prototype's own getElementById: the page's may be clobbered, that is a case)
HOST_RADIO_JS = f"() => Document.prototype.getElementById.call(document, '{HOST_RADIO_ID}').checked"
# Document properties a name in the page can replace (DOM clobbering): read after loading.
CLOBBERED_JS = """() => ['getElementById', 'querySelector', 'querySelectorAll', 'createElement',
    'getElementsByTagName', 'write', 'title', 'domain', 'URL', 'referrer']
    .filter(n => document[n] instanceof Element || document[n] instanceof HTMLCollection)"""


def template(case: Case, value: str) -> InterpolationTemplate:
    """The case's template with ``value`` in each field ({m}: as trusted Markup)."""
    parts: list[str | Interpolation] = []
    for position, piece in enumerate(FIELD.split(case.template)):
        if position % 2 == 0:
            parts.append(piece)
        elif piece == "m":
            parts.append(Interpolation(Markup(case.trusted or value), "m"))
        else:
            parts.append(Interpolation(value, "v"))
    return InterpolationTemplate(*parts)


def naive(case: Case) -> str:
    """The f-string mistake: the value pasted into the template as it is."""
    return FIELD.sub(
        lambda m: case.trusted or case.value if m.group(1) == "m" else case.value, case.template
    )


def render(case: Case, value: str) -> str | None:
    """html()'s page for the case, or None when html() refuses it."""
    try:
        before, _, after = case.template.partition("{v}")
        if case.percent:  # html(i"<script>%s</script>") % value
            return str(html(InterpolationTemplate(before + "%s" + after)) % value)
        if case.replace:  # html(i"<script>VALUE</script>").replace("VALUE", value)
            result = html(InterpolationTemplate(before + "VALUE" + after))
            return str(result.replace("VALUE", value))
        if case.join:  # html(i"<script>") + value + html(i"</script>")
            head, tail = (
                html(template(dataclasses.replace(case, template=part), value))
                for part in (before, after)
            )
            return str(head + value + tail)
        return str(html(template(case, value)))
    except RenderError:
        return None


# A click that starts a real navigation (aborted by the route) can hang Playwright when the tab
# closes (Chromium 156; CI hung 900 s on `<a href="plain">`): each page cancels such clicks,
# while a javascript: URL, which runs script rather than leaving, still goes through.
NO_NAVIGATION_JS = """
const target_url = (kind, event) => {
  const target = event.target instanceof Element ? event.target : null;
  if (kind === "click") {
    const link = target && target.closest("a, area");
    // A download or a new tab (any target but this tab's own, or a <base target>'s) leaves
    // this page where it is: let it go (the harness judges the file's name and the new tab's
    // handle on this page).
    const base = document.querySelector("base[target]");
    const named = link && (link.getAttribute("target") ?? (base && base.getAttribute("target")));
    if (link && (link.hasAttribute("download")
                 || (named && !["_self", "_parent", "_top"].includes(named.toLowerCase()))))
      return null;
    // An SVG link's href (or xlink:href) is an SVGAnimatedString.
    const raw = link && (typeof link.href === "string" ? link.href : link.href.baseVal);
    if (!raw) return null;
    try { return new URL(raw, document.baseURI).href; } catch { return raw; }
  }
  const by = event.submitter;  // a button's formaction overrides the form's action
  return String(by && by.hasAttribute("formaction") ? by.formAction : target.action || "");
};
for (const kind of ["click", "submit"]) {
  document.addEventListener(kind, (event) => {
    const url = target_url(kind, event);
    if (url !== null && !/^javascript:/i.test(url)) event.preventDefault();
  }, true);
}
"""


def page_of(body: str) -> str:
    # The guard is part of the page, not an init script: Playwright's set_content writes the
    # page with document.open(), which erases every listener an init script had added.
    return (
        f"<!doctype html><html><head><script>{NO_NAVIGATION_JS}</script>{HOST_STYLE}</head>"
        f"<body>{HOST_CONTROL}{HOST_GROUPS}{HOST_TARGETS}{HOST_COLLAPSE}"
        f"<script>{DATA_API_JS}</script>{body}</body></html>"
    )


@pytest.fixture(scope="module")
def browsers(chromium_path: str) -> Iterator[dict[bool, Any]]:
    """A browser context with JavaScript on (True) and one with it off (False)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
        )
        contexts = {on: browser.new_context(java_script_enabled=on) for on in (True, False)}
        for context in contexts.values():
            context.route("**/*", lambda route: route.abort())  # nothing leaves the page
        yield contexts
        for context in contexts.values():
            context.close()
        browser.close()


@pytest.fixture(scope="module")
def browser(browsers: dict[bool, Any]) -> Any:
    return browsers[True]


# Accessibility relations by which an element takes over an element of the page: its note
# (into the output's subtree, as its focused item) or its button (as the output's action).
TAKING = {"owns": HOST_NOTE_ID, "activedescendant": HOST_NOTE_ID, "actions": HOST_ACTION_ID}


def taken_over(tab: Any) -> list[str]:
    """The accessibility relations by which an element takes over an element of the page."""
    session = tab.context.new_cdp_session(tab)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    return [
        f"accessibility: {relation['name']} the page's {TAKING[relation['name']]}"
        for node in nodes
        for relation in node.get("properties", [])
        if relation["name"] in TAKING
        and any(
            related.get("idref") == TAKING[relation["name"]]
            for related in relation["value"].get("relatedNodes", [])
        )
    ]


def visit(context: Any, body: str, *, settle: int = 500) -> tuple[list[str], list[str]]:
    """Load the page, click what can be clicked; return (what happened, the page's shape).

    After the clicks, wait ``settle`` ms for a script a click queued (a javascript: link runs
    as a task), or less if something has already happened.
    """
    seen: list[str] = []
    tab = context.new_page()
    tab.on("console", lambda note: seen.append("script") if "ipy-pwned" in note.text else None)
    tab.on("dialog", lambda dialog: (seen.append("dialog"), dialog.dismiss()))

    def on_popup(popup: Any) -> None:
        # A new tab holding window.opener can navigate this one (reverse tabnabbing).
        with contextlib.suppress(Exception):
            if popup.evaluate("() => window.opener !== null"):
                seen.append("popup holding window.opener")
        seen.append("popup")
        with contextlib.suppress(Exception):
            popup.close()

    def on_download(download: Any) -> None:
        name = download.suggested_filename
        if name.rpartition(".")[2].lower() in RUNNABLE_EXTENSIONS:
            seen.append(f"download saved as {name}")

    tab.on("popup", on_popup)
    tab.on("download", on_download)
    loading = True

    def on_request(request: Any) -> None:
        if loading and request.is_navigation_request() and request.frame == tab.main_frame:
            seen.append(f"navigation to {request.url[:40]}")

    tab.on("request", on_request)
    tab.set_content(page_of(body), wait_until="load")
    tab.wait_for_timeout(150)  # let onerror/onload handlers and refreshes fire
    loading = False
    if not tab.evaluate(HOST_RADIO_JS):
        seen.append("the page's radio button unchecked")
    seen.extend(taken_over(tab))
    clobbered = tab.evaluate(CLOBBERED_JS)
    if clobbered:
        seen.append(f"document clobbered: {clobbered}")
    overlays = tab.evaluate(OVERLAY_JS)
    if overlays:
        seen.append(f"overlay {overlays}")
    shape = tab.evaluate(SHAPE_JS)
    for element in tab.locator(CLICKABLE).all():
        # Hidden or detached elements fail to click: nothing a user could click either.
        with contextlib.suppress(Exception):
            element.click(force=True, timeout=1500, no_wait_after=True)
    for _ in range(settle // 50):
        if seen:
            break
        tab.wait_for_timeout(50)
    if not tab.evaluate(HOST_RADIO_JS) and not seen:
        seen.append("the page's radio button unchecked by a click")
    # Closing a tab while a click's navigation is still starting can hang Playwright (seen
    # with Chromium 156 and a plain relative link, settle=0): let it start first.
    tab.wait_for_timeout(100)
    tab.close()
    return seen, shape


def case_id(case: Case) -> str:
    how = "+".join(
        [
            how
            for how, on in (
                ("nojs", not case.scripting),
                ("join", case.join),
                ("%", case.percent),
                ("replace", case.replace),
            )
            if on
        ]
        + ([f"m={case.trusted}"] if case.trusted else [])
    )
    return f"{case.context}:{case.template}" + (f"[{how}]" if how else "")


@pytest.mark.parametrize("case", CASES, ids=map(case_id, CASES))
def test_context_is_refused_or_inert(browsers: dict[bool, Any], case: Case) -> None:
    page = render(case, case.value)
    if page is None:
        return  # refused with a RenderError: nothing reaches the browser
    browser = browsers[case.scripting]
    seen, shape = visit(browser, page)
    assert seen == [], f"{case.template!r} with {case.value!r} rendered {page!r}"
    harmless = render(case, case.benign)
    if harmless is not None:
        assert shape == visit(browser, harmless, settle=0)[1], page


CONTROLS = [case for case in CASES if case.control]


@pytest.mark.parametrize("case", CONTROLS, ids=map(case_id, CONTROLS))
def test_naive_fstring_runs_script(browsers: dict[bool, Any], case: Case) -> None:
    # Positive control: pasted in raw, the same value escapes, and the harness sees it.
    # A loaded machine can make one click miss its timeout: a second visit settles that (the
    # control proves the harness *can* see the escape, so one sighting is enough).
    browser = browsers[case.scripting]
    page = naive(case)
    seen = visit(browser, page, settle=3000)[0] or visit(browser, page, settle=3000)[0]
    assert seen, f"the harness saw nothing from {naive(case)!r}"


def test_every_context_class_has_a_positive_control() -> None:
    classes = {case.context for case in CASES}
    controlled = {case.context for case in CONTROLS}
    # <template> content is inert until a script clones it: its naive forms run nothing.
    assert classes - controlled == {"template"}


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ('<img src="data:image/png;base64,{v}">', "iVBORw0KGgo="),
        ('<a download="t.csv" href="data:text/csv;charset=utf-8,{v}">x</a>', "a,b%0A1,2"),
        ('<a href="https://e.invalid/?q={v}">x</a>', "javascript:x"),
        ('<svg><text y="20">{v}</text></svg>', "<b>"),
        ("<textarea>{v}</textarea>", "</textarea><b>"),
        ("<table><tr><td>{v}</td></tr></table>", "</td>"),
        ("<select><option>{v}</option></select>", "</select>"),
        ("<template><p>{v}</p></template>", "<p>"),
        ("<!-- a --!> {v}", "<b>"),
        ('<p data-x="{v}" aria-label="{v}" class="{v}" title="{v}">x</p>', '"'),
        ("<table>{m}</table>", "<tr><td>x</td></tr>"),
    ],
)
def test_useful_contexts_are_accepted(source: str, value: str) -> None:
    # The allow-list is not a wall: these stay open, and the cases above show them inert.
    assert render(Case("accepted", source, value), value) is not None


def test_the_harness_cancels_a_link_that_would_leave(browser: Any) -> None:
    # The guard against the close-time hang must really be in force in the pages visited.
    tab = browser.new_page()
    tab.set_content(page_of('<a href="plain">x</a>'), wait_until="load")
    tab.locator("a").click(timeout=1500, no_wait_after=True)
    tab.wait_for_timeout(100)
    assert tab.url == "about:blank" and tab.locator("a").count() == 1
    tab.close()
