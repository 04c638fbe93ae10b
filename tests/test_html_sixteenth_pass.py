"""Sixteenth red-team pass over html(): two holes found and closed, kept as regression tests.

* A value whose ``str()`` is a str subclass: html() checked ``str(value)`` and then handed
  that object to markupsafe's ``escape()``, which looks at it again — one with ``__html__``
  it inserts as markup, of another it calls ``str()`` once more.  An object whose ``str()``
  had ``__html__`` put an ``<img onerror>`` in ``<p>{name}</p>``, and a str whose ``__str__``
  gave an https URL, then ``javascript:``, made such a link in ``<a href="{url}">``; both ran
  in Chromium.  A plain value is now read once, as the exact str that is checked and escaped.
* Plain text joined to a result with ``+`` (either side) or ``.join()`` was credited with the
  TeX it held, as if it were a result whose math its author wrote:
  ``html(i"<li>") + tag + html(i"</li>")`` with ``tag = "$\\href{javascript:...}{click}$"``
  was accepted, and under Jupyter Book's MathJax the link ran its script on a click.  Only
  trusted pieces (results, ``Markup``) are credited now; plain text is judged as a field's
  value is.
* A result cut with a slice (``split``, ``partition``, ``removesuffix``, ``strip`` of given
  characters...) stayed a result, HTML to a notebook and trusted when joined: each row of a
  list cut to 60 characters (``out += row[:60]``) ended in the title of its ``<li>`` when a
  value was long, and the next row's value became attributes; its ``onfocus`` ran in
  Chromium.  A cut is now plain text (whitespace stripped keeps a result), and so is
  ``casefold()``, which folds U+017F (long s) into ``s`` and so made ``\\style`` of a value's
  command-free text.
* ``HtmlMarkup.escape(text)`` (markupsafe's escape, as a result) was not judged at all:
  ``"$\\href{javascript:...}{x}$"`` escaped was a link that ran under MathJax.

The contexts the brief listed were swept too (``/tmp/rt_html16/sweep.py``, ping, srcset,
sizes, popovertargetaction, command, closedby, popover, inert, attributionsrc, slot/part,
svg feImage/discard/animate*/use, input type=image...): refused, or accepted only where the
attribute is plain data.
"""

from __future__ import annotations

from collections import UserString
from typing import Any

import pytest
from markupsafe import Markup, escape
from test_html import browser, load  # noqa: F401 (the module's Chromium, a fixture)
from test_html_seventh_pass import HREF, mathjax_page, result, visit_mathjax  # noqa: F401

from ipy_istring.fields import RenderError
from ipy_istring.html import HtmlMarkup, html
from ipy_istring.template import Interpolation, InterpolationTemplate

RUN = '<img src=x onerror="window.__pwned=1">'
JAVASCRIPT = "javascript:window.__pwned=1"


# --- a value whose str() is a str subclass ---------------------------------------------------


class Marked(str):
    """A str that markupsafe trusts as HTML (what a str() may return: a Markup built elsewhere)."""

    def __html__(self) -> str:
        return RUN


class Name:
    """An object without __html__ whose str() is a Marked."""

    def __str__(self) -> str:
        return Marked("Alice")


class Shifty(str):
    """A str whose str() is an https URL the first time, javascript: after."""

    calls = 0

    def __str__(self) -> str:
        type(self).calls += 1
        return Shifty("https://ok.example/" if type(self).calls == 1 else JAVASCRIPT)


def text_page() -> str:
    return str(html(InterpolationTemplate("<p>", Interpolation(Name(), "name"), "</p>")))


def link_page() -> str:
    Shifty.calls = 0
    field = Interpolation(Shifty("x"), "url")
    template = InterpolationTemplate('<a id="l" href="', field, '">x</a>')
    return str(html(template))


def run(browser: Any, output: str) -> Any:  # noqa: F811
    """``output`` set as innerHTML of a page's element (as JupyterLab inserts it), link clicked."""
    tab = load(browser, "<!doctype html><body><div id=out></div>")
    tab.evaluate("(h) => { document.getElementById('out').innerHTML = h; }", output)
    if tab.query_selector("#l"):
        tab.click("#l")
    tab.wait_for_timeout(200)
    pwned = tab.evaluate("() => window.__pwned")
    tab.close()
    return pwned


def test_a_value_whose_str_has_html_is_escaped_text() -> None:
    assert text_page() == "<p>Alice</p>"


def test_a_value_whose_str_changes_is_checked_and_written_as_one_text() -> None:
    assert link_page() == '<a id="l" href="https://ok.example/">x</a>'


def test_str_subclasses_positive_control_and_fix_in_chromium(browser: Any) -> None:  # noqa: F811
    # Positive control: what the old code wrote (markupsafe's escape of str(value)) runs.
    assert run(browser, "<p>" + str(escape(str(Name()))) + "</p>") == 1
    Shifty.calls = 1  # (the check's read done: the escape's read gives javascript:)
    assert run(browser, '<a id="l" href="' + str(escape(str(Shifty("x")))) + '">x</a>') == 1
    assert run(browser, text_page()) is None
    assert run(browser, link_page()) is None


class Honest(str):
    def shout(self) -> str:
        return self.upper()


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (UserString("red <b>"), "red &lt;b&gt;"),
        (Honest("a & b"), "a &amp; b"),
        (Markup("<b>x</b>"), "<b>x</b>"),
    ],
)
def test_honest_str_subclasses_and_trusted_markup_stay_as_they_were(
    value: Any, expected: str
) -> None:
    assert str(html(InterpolationTemplate("<p>", Interpolation(value, "v"), "</p>"))) == (
        f"<p>{expected}</p>"
    )


def test_an_honest_link_from_a_str_subclass_stays_accepted() -> None:
    url = Honest("https://ok.example/a?b=1")
    rendered = html(InterpolationTemplate('<a href="', Interpolation(url, "url"), '">x</a>'))
    assert rendered == '<a href="https://ok.example/a?b=1">x</a>'
    with pytest.raises(RenderError):
        field = Interpolation(Honest(JAVASCRIPT), "url")
        html(InterpolationTemplate('<a href="', field, '">x</a>'))


# --- plain text joined to a result -----------------------------------------------------------

TEX = "$" + HREF + "$"
PLAIN_JOINS = [
    # (text with TeX of its own, alone in an element: the old check took it for a piece's own)
    (
        lambda: result("<ul><li>") + TEX + result("</li></ul>"),
        "<ul><li>" + escape(TEX) + "</li></ul>",
    ),
    (lambda: result("<p>") + TEX, "<p>" + escape(TEX)),
    (lambda: TEX + result("<p>"), escape(TEX) + "<p>"),
    (lambda: result("<p>").join([TEX, "x"]), escape(TEX) + "<p>x"),
]


@pytest.mark.parametrize(
    ("join", "page"), PLAIN_JOINS, ids=["list item", "+ text", "text +", "join"]
)
def test_plain_text_joined_to_a_result_is_judged_like_a_value(
    mathjax_page: Any,  # noqa: F811
    join: Any,
    page: str,
) -> None:
    # Positive control: the page the join gave (accepted before this pass) ran the payload.
    assert visit_mathjax(mathjax_page, page)
    with pytest.raises(RenderError, match=r"^html\(\): a result is joined .*MathJax typesets"):
        join()
    # As in a template's field: html(i"<p>Tags: {t}") refuses the same value.
    with pytest.raises(RenderError, match="MathJax"):
        result("<p>Tags: {}", TEX)


PLAIN_LOOK_ALIKES = [
    lambda: result("<p>Tags: ") + "costs $5 and $10" + result("</p>"),
    lambda: r"C:\data\report.csv" + result("<p>x</p>"),
    lambda: result("<p>").join(["alpha", "beta <b>"]),
    # Math a trusted piece holds is its author's, as before.
    lambda: result("<p>Tags: ") + Markup(r"<p>$\sqrt{2}$</p>"),
    lambda: result("<p>") + result(r"<p>$\frac{a}{b}$</p>"),
    # In <code>, MathJax reads nothing.
    lambda: result("<code>") + TEX + result("</code>"),
]


@pytest.mark.parametrize("join", PLAIN_LOOK_ALIKES)
def test_plain_text_look_alikes_stay_accepted_and_inert(mathjax_page: Any, join: Any) -> None:  # noqa: F811
    joined = join()
    assert type(joined) is HtmlMarkup
    assert visit_mathjax(mathjax_page, str(joined)) == []


def test_joining_other_types_is_left_to_python() -> None:
    with pytest.raises(TypeError):
        result("<p>") + 5
    assert result("<p>").join([]) == ""


# --- a result cut, then joined ---------------------------------------------------------------


def row(note: str, name: str) -> HtmlMarkup:
    return result('<li title="{}">{}</li>', note, name)


def short_rows(*rows: tuple[str, str]) -> str:
    """The loop that keeps each row short: ``out += row[:60]``."""
    out = result("<ul>")
    for note, name in rows:
        out += row(note, name)[:60]
    return str(out + result("</ul>"))


LONG = ("x" * 60, "alice")
ATTRIBUTES = (" tabindex=1 autofocus onfocus=window.__pwned=1//", "bob")


def test_a_cut_result_is_text_and_its_attributes_stay_text(browser: Any) -> None:  # noqa: F811
    # Positive control: the page the join gave before this pass (the cut row still HTML)
    # ended the first row in its title, and the second row's value became an onfocus.
    before = "<ul>" + str(row(*LONG))[:60] + str(row(*ATTRIBUTES))[:60] + "</ul>"
    assert run(browser, before) == 1
    page = short_rows(LONG, ATTRIBUTES)
    assert page.startswith("<ul>&lt;li title=&#34;xxx") and page.endswith("</ul>")
    assert run(browser, page) is None


@pytest.mark.parametrize(
    "cut",
    [
        lambda r: r[:5],
        lambda r: r[0],
        lambda r: r.split("p")[0],
        lambda r: r.rsplit("p")[0],
        lambda r: r.splitlines()[0],
        lambda r: r.partition('"')[0],
        lambda r: r.rpartition('"')[0],
        lambda r: r.removesuffix("</p>"),
        lambda r: r.removeprefix("<p"),
        lambda r: r.translate({ord(">"): None}),
        lambda r: r.strip("<>"),
        lambda r: r.lstrip("<"),
        lambda r: r.rstrip(">"),
        lambda r: r.casefold(),  # (folds U+017F, long s, into "s": see html.py)
    ],
)
def test_a_cut_of_a_result_is_plain_text(cut: Any) -> None:
    piece = cut(result('<p title="{}">x</p>', "a"))
    assert type(piece) is str
    assert not hasattr(piece, "__html__")


def test_whitespace_stripped_and_other_methods_keep_a_result() -> None:
    rendered = result(' <p title="{}">x</p>\n', "a")
    # (upper() and lower() kept a result too until the seventeenth pass, which found that
    # case mappings fold U+017F into S and \BEGIN into \begin: they are plain text now, kept
    # as named cases in test_html_seventeenth_pass.py)
    kept_methods = (rendered.strip(), rendered.lstrip(), rendered.rstrip(), rendered.center(40))
    for kept in (*kept_methods, rendered.ljust(40)):
        assert type(kept) is HtmlMarkup
    assert rendered.strip() == '<p title="a">x</p>'
    assert short_rows(("a note", "alice")) == (
        "<ul>&lt;li title=&#34;a note&#34;&gt;alice&lt;/li&gt;</ul>"
    )


def test_trusted_markup_joined_before_a_result_is_a_checked_result() -> None:
    joined = Markup("<b>a</b>") + result("<p>{}</p>", "x")
    assert type(joined) is HtmlMarkup and joined == "<b>a</b><p>x</p>"
    with pytest.raises(RenderError, match="MathJax"):
        Markup("<p>$" + HREF) + result("{}</p>", "$")


class Flip(str):
    """A str that says it has no __html__ when asked first, and has one after."""

    def __getattr__(self, name: str) -> Any:
        if name != "__html__" or not vars(type(self)).setdefault("asked", False):
            type(self).asked = True
            raise AttributeError(name)
        return lambda: str.__str__(self)


def test_a_piece_is_asked_once_whether_it_is_trusted() -> None:
    # Escaped as text, it must not then be credited as trusted HTML with its math.
    with pytest.raises(RenderError, match="MathJax"):
        result("<p>") + Flip(TEX)


def test_a_casefolded_result_is_text(mathjax_page: Any) -> None:  # noqa: F811
    # (no TeX command to html(): a backslash before U+017F, long s)
    value = "$\\\u017ftyle{position: fixed; top: 0; left: 0; width: 100vw; height: 100vh}{x}$"
    rendered = result("<p>{}</p>", value)
    assert visit_mathjax(mathjax_page, str(rendered)) == []
    # Positive control: the casefolded page (a result before this pass) is an overlay.
    assert visit_mathjax(mathjax_page, str.casefold(str(rendered))) == ["overlay"]
    assert type(rendered.casefold()) is str


def test_html_markup_escape_is_judged_like_a_value(mathjax_page: Any) -> None:  # noqa: F811
    # Positive control: markupsafe's escape of the text (what HtmlMarkup.escape gave, shown
    # as HTML) is a link that runs once MathJax typesets the page.
    assert visit_mathjax(mathjax_page, "<p>" + str(escape(TEX)) + "</p>")
    with pytest.raises(RenderError, match="MathJax typesets"):
        HtmlMarkup.escape(TEX)
    for text in ("<b>Tom & Jerry</b>", r"C:\data\x.csv costs $5", "$x^2$"):
        escaped = HtmlMarkup.escape(text)
        assert type(escaped) is HtmlMarkup and escaped == escape(text)
        assert visit_mathjax(mathjax_page, f"<p>{escaped}</p>") == []
