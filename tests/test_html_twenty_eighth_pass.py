"""Twenty-eighth pass over html(): a breadth sweep of hostile contexts, and keywords' case.

* Over-refusal: an enumerated attribute's keyword in another ASCII case (``dir="RTL"``,
  ``type="SUBMIT"``, ``popover="Manual"``, ``hidden="HIDDEN"``...) was refused, though the
  browser compares these keywords ASCII case-insensitively.  In Chromium each upper-case
  and mixed-case variant of every keyword html() lets a value choose reflected exactly as the
  keyword in lower case (``el.dir``, ``el.type``, ``el.popover``...), so each is accepted,
  rendered as written.  ``<ol type>`` stays compared as written (``a`` and ``A`` are two
  styles), and the case variants of the refused keywords stay refused (``UNTIL-FOUND``,
  ``IMAGE``, ``Unsafe-URL``), as do letters the browser does not fold (full-width ``RTL``,
  U+FF32 U+FF34 U+FF2C, and the Kelvin sign).  ``<textarea wrap>`` reflects as written, but
  ``HARD`` and ``Hard`` wrapped the submitted value as ``hard`` did (``SOFT`` as ``soft``).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import result
from test_html_twenty_seventh_pass import REFLECTED, reflects

from ipy_istring.fields import RenderError

REFUSED = "an enumerated attribute"
# (template, property, {keyword: reflected}) of the twenty-seventh pass but <ol type>, and
# <textarea wrap>, which reflects as written (its behaviour is measured below)
FOLDED = [row for row in REFLECTED if not row[0].startswith(("<ol", "<textarea"))]


def variants(keyword: str) -> list[str]:
    """The keyword in upper case and in a mixed case (first letter upper), if they differ."""
    found = {keyword.upper(), keyword[:1].upper() + keyword[1:]} - {keyword}
    return sorted(found)


@pytest.mark.parametrize("row", FOLDED, ids=lambda row: row[0])
def test_keywords_in_any_ascii_case_render_as_written_and_reflect_as_the_keyword(
    browser: Any,  # noqa: F811
    row: tuple[str, str, dict[str, object]],
) -> None:
    template, prop, keywords = row
    expected = {
        variant: keyword if reflected is None else reflected
        for keyword, reflected in keywords.items()
        for variant in variants(keyword)
    }
    reflects(browser, template, prop, expected)


def test_wrap_keywords_in_any_ascii_case_wrap_as_the_keyword(browser: Any) -> None:  # noqa: F811
    # el.wrap reflects the attribute as written, so this reads what the form submits: hard
    # wrapping puts the line breaks of a 5-column box into the value.
    template = '<form id="f"><textarea name="n" cols="5" wrap="{}">aaaa bbbb cccc</textarea></form>'
    tab = browser.new_page()
    submitted = {}
    for value in ("soft", "SOFT", "Soft", "hard", "HARD", "Hard"):
        tab.set_content(str(result(template, value)))
        submitted[value] = tab.evaluate("new FormData(f).get('n')")
    assert {submitted[v] for v in ("soft", "SOFT", "Soft")} == {"aaaa bbbb cccc"}
    assert {submitted[v] for v in ("hard", "HARD", "Hard")} == {"aaaa \nbbbb \ncccc"}
    tab.close()


def test_ol_type_stays_compared_as_written(browser: Any) -> None:  # noqa: F811
    template = '<ol id="t" type="{}"><li>x</li></ol>'
    tab = browser.new_page()
    styles = {}
    for keyword in ("a", "A", "i", "I"):
        tab.set_content(str(result(template, keyword)))
        styles[keyword] = tab.evaluate("getComputedStyle(t).listStyleType")
    # (why: the browser tells the cases apart, so a case of one keyword is another keyword)
    assert styles == {"a": "lower-alpha", "A": "upper-alpha", "i": "lower-roman",
                      "I": "upper-roman"}  # fmt: skip
    tab.close()
    for value in (" a", "1 ", "\uff21"):
        with pytest.raises(RenderError, match=REFUSED):
            result(template, value)


@pytest.mark.parametrize(
    ("template", "value"),
    [('<p hidden="{}">x</p>', "UNTIL-FOUND"), ('<p hidden="{}">x</p>', "Until-Found"),
     *[('<input type="{}">', kind) for kind in ("IMAGE", "Radio", "PASSWORD", "File")],
     ('<a href="/x" referrerpolicy="{}">x</a>', "Unsafe-URL"),
     ('<p dir="{}">x</p>', "\uff32\uff34\uff2c"), ('<p draggable="{}">x</p>', "\u212arue"),
     ('<img loading="{}">', "LAZ\u0130"), ('<p dir="{}">x</p>', "RTL ")],
)  # fmt: skip
def test_refused_keywords_and_unfolded_letters_stay_refused(template: str, value: str) -> None:
    with pytest.raises(RenderError, match=REFUSED):
        result(template, value)


def test_refusal_says_keywords_are_taken_in_any_case() -> None:
    with pytest.raises(RenderError, match="in any ASCII case"):
        result('<p dir="{}">x</p>', "right")
    with pytest.raises(RenderError, match=r"as written"):
        result('<ol type="{}"></ol>', "x")
