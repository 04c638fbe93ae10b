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
* Sweep (no hole found): 261 contexts (parser states: select and its button and
  selectedcontent, table, noscript, template, textarea, title, xmp, iframe srcdoc, comments,
  CDATA, math annotation-xml/mglyph/maction; svg animate/set to/values/from/by, use,
  feImage, image, a xlink:href; style attributes and elements, srcset, sizes, ping,
  download, formaction, poster, base, meta, link, the enumerated attributes, legacy
  presentational attributes...) were rendered with ten benign values: 101 are accepted.
  Each accepted one was given 20 payloads (script markup, attribute breakouts,
  javascript:/data: URLs, markup closing every raw-text state, CSS url()/image-set()/fixed
  overlays, srcset lists, page ids, template braces, huge numbers) and loaded in Chromium
  on a page served by a local server, its links and buttons clicked.  No render ran script,
  covered or restyled an element outside the output, or made a request, save the URL
  attributes the author wrote (a relative or http URL a media element loads, a link the
  click follows, a ``target="_blank"`` the author wrote, a ``download`` link): html()'s
  URL rules, by design.  ``test_sweep_accepted_payloads_stay_inert`` keeps 35 of the
  contexts, each with every payload html() accepts there, on one page.
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


# A sample of the sweep's contexts that html() accepts, each given every payload below.
SWEEP_CONTEXTS = [
    "<select><option>{}</option></select>", "<select>{}</select>",
    "<select><option value='{}'>a</option></select>", "<select><button>{}</button></select>",
    "<select><selectedcontent>{}</selectedcontent></select>",
    "<table><tr><td>{}</td></tr></table>", "<table><caption>{}</caption></table>",
    "<template>{}</template>", "<template><p>{}</p></template>", "<textarea>{}</textarea>",
    "<title>{}</title>", "<svg><title>{}</title></svg>", "<svg><desc>{}</desc></svg>",
    "<svg><foreignObject><p>{}</p></foreignObject></svg>", "<math><mtext>{}</mtext></math>",
    "<math><annotation>{}</annotation></math>", "<svg><a><text>{}</text></a></svg>",
    "<svg><rect fill='{}'/></svg>", "<svg><text font-family='{}'>a</text></svg>",
    "<svg><rect class='{}'/></svg>", "<marquee>{}</marquee>", "<P>{}</P>", "<p>{}",
    "<custom-el>{}</custom-el>", "<search>{}</search>", "<output for='{}'>a</output>",
    "<td headers='{}'>a</td>", "<td colspan='{}'>a</td>", "<canvas height='{}'></canvas>",
    "<table border='{}'></table>", "<img align='{}'>", "<p id='x-{}'>a</p>",
    "<p role='{}'>a</p>", "<input placeholder='{}'>", "<a href='https://e.com/#{}'>a</a>",
]  # fmt: skip
MARK = "document.title='pwned';window.__pwned=1"
SWEEP_PAYLOADS = [
    f'<img src=x onerror="{MARK}">', f'"><img src=x onerror="{MARK}">', f"javascript:{MARK}",
    f'</textarea></title></style></template></select><img src=x onerror="{MARK}">',
    f'--><img src=x onerror="{MARK}">', f'</svg></math><img src=x onerror="{MARK}">',
    "red;position:fixed;inset:0;z-index:9999", "url(#outside)", "99999999", "_top",
    f"$\\href{{javascript:{MARK}}}{{x}}$", f"{{{{constructor.constructor('{MARK}')()}}}}",
]  # fmt: skip


@pytest.mark.parametrize("template", SWEEP_CONTEXTS)
def test_sweep_accepted_payloads_stay_inert(browser: Any, template: str) -> None:  # noqa: F811
    outputs = []
    for payload in SWEEP_PAYLOADS:
        try:
            outputs.append(str(result(template, payload)))
        except RenderError:
            continue
    tab = browser.new_page()
    tab.set_content(
        '<title>clean</title><div id="outside" style="height: 40px">o</div>'
        + "".join(f"<div>{output}</div>" for output in outputs)
    )
    tab.wait_for_timeout(100)  # let any handler fire
    found = tab.evaluate(
        """() => { const r = outside.getBoundingClientRect();
        return [document.title, window.__pwned || 0,
                document.elementFromPoint(r.x + 5, r.y + 5) === outside]; }"""
    )
    assert found == ["clean", 0, True], (template, outputs)
    tab.close()


def test_refusal_says_keywords_are_taken_in_any_case() -> None:
    with pytest.raises(RenderError, match="in any ASCII case"):
        result('<p dir="{}">x</p>', "right")
    with pytest.raises(RenderError, match=r"as written"):
        result('<ol type="{}"></ol>', "x")
