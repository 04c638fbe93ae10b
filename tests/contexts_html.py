"""Hostile *contexts* for html(): where a field stands, not only what its value holds.

Each case is a template (``{v}`` marks a field; ``{m}`` a trusted one) and a value that tries to
run script, navigate or cover the page from that place.  tests/test_html_contexts.py renders
each case with html(): it must be refused, or load in real Chromium and run nothing.  The same
template written as a naive f-string (the value pasted in raw) is the positive control: cases
marked ``control=True`` must run script there, so the harness is seen to catch an escape.

Payloads call ``PWN`` (a console message the harness listens for, from any frame).  A case may
give trusted HTML of its own for ``{m}`` (``trusted``), be loaded with JavaScript off
(``scripting=False``: ``<noscript>`` is then markup, as in sanitizers' ``DOMParser`` or a page
viewed without JavaScript), or join the value after the result instead of rendering it in a
field (``join=True``: ``html(i"<script>") + value + html(i"</script>")``, markupsafe's way of
composing), or format the result (``percent=True``: ``html(i"<script>%s</script>") % value``;
``replace=True``: ``html(i"<script>VALUE</script>").replace("VALUE", value)``).
"""

from __future__ import annotations

from dataclasses import dataclass

PWN = "console.log(/ipy-pwned/.source)"
IMG = f"<img src=x onerror={PWN}>"
SCRIPT = f"<script>{PWN}</script>"
JS_URL = f"javascript:{PWN}"
CSS_OVERLAY = "position: fixed; top: 0; left: 0; width: 100vw; height: 100vh"
OVERLAY = "red; " + CSS_OVERLAY
# CSS that gets out of an attribute value it was pasted in, if a style sheet reads it there.
SWALLOWED_CSS = "\n{} * { " + CSS_OVERLAY + "; background: red }"
NOSCRIPT_STYLE = "<noscript><style></noscript>"
RECT = '<rect width="9" height="9" fill="red"></rect>'
# A control of the page around the output (hidden: the harness never clicks it itself); a
# script runs when something changes it.
HOST_CONTROL_ID = "host-control"
HOST_CONTROL = f'<input type="checkbox" id="{HOST_CONTROL_ID}" hidden onchange="{PWN}">'
# Members of page-wide groups of the page around the output, under one name: an open
# <details> of an exclusive accordion (a script runs when something closes it) and a checked
# radio button (the harness reports it unchecked).
HOST_GROUP = "host-group"
HOST_RADIO_ID = "host-radio"
HOST_GROUPS = (
    f'<details name="{HOST_GROUP}" id="host-details" open hidden ontoggle="if (!this.open) {PWN}">'
    "<summary>host</summary>host</details>"
    f'<input type="radio" name="{HOST_GROUP}" id="{HOST_RADIO_ID}" checked hidden>'
)
# Elements of the page that a value naming their id could act upon from the output: a form a
# button would submit, a popover a button would show (the script runs when either happens),
# and a note of the page's text that the harness checks no element of the output takes into
# its accessibility subtree (aria-owns) or announces as its focused item (aria-activedescendant).
HOST_NOTE_ID = "host-note"
# A button of the page (shown: ARIA offers only a rendered control as an action), never
# clicked by the harness, that no element of the output may offer as its action (aria-actions).
HOST_ACTION_ID = "host-action"
HOST_TARGETS = (
    f'<form id="host-form" onsubmit="{PWN}; return false"></form>'
    f'<div id="host-popover" popover ontoggle="{PWN}">host</div>'
    f'<p id="{HOST_NOTE_ID}" role="note">host</p>'
    f'<button id="{HOST_ACTION_ID}" onclick="{PWN}">host</button>'
)
# Bootstrap's data API (pydata-sphinx-theme, so Jupyter Book; Quarto), reduced to what acts on
# the page: a click on a data-bs-toggle (Bootstrap 3/4: data-toggle) element toggles "show" on
# the element its data-bs-target (data-target, else href) selects.  With pydata-sphinx-theme
# 0.24's own Bootstrap bundle, data-bs-target="#host-note" collapsed the page's element in
# Chromium; here the page's collapsible runs script when something toggles it.
HOST_COLLAPSE_ID = "host-collapse"
DATA_API_JS = f"""
document.addEventListener("click", (event) => {{
  const toggle = event.target instanceof Element
    && event.target.closest("[data-bs-toggle], [data-toggle]");
  if (!toggle) return;
  const selector = toggle.getAttribute("data-bs-target") || toggle.getAttribute("data-target")
    || toggle.getAttribute("href");
  let target = null;
  try {{ target = selector && document.querySelector(selector); }} catch {{}}
  if (target) target.classList.toggle("show");
}});
new MutationObserver(() => {{ {PWN} }}).observe(
  document.getElementById("{HOST_COLLAPSE_ID}"), {{ attributes: true }});
"""
HOST_COLLAPSE = f'<div id="{HOST_COLLAPSE_ID}" class="collapse show" hidden>host</div>'
# A class of the page's style sheet that covers the page, as JupyterLab's jp-LabShell does
# (position: absolute, inset 0): an element of the output that takes it is an overlay.
HOST_COVER = "host-cover"
HOST_STYLE = f"<style>.{HOST_COVER} {{ position: absolute; inset: 0 }}</style>"
# A file name the harness reports when a download is saved under it: a document that runs
# script when opened, or a program.
RUNNABLE_EXTENSIONS = ("html", "htm", "xhtml", "svg", "xml", "shtml", "mht", "exe", "desktop")


@dataclass(frozen=True)
class Case:
    """A template with ``{v}`` (plain value) or ``{m}`` (trusted Markup), and the value."""

    context: str  # the class of context
    template: str
    value: str
    control: bool = False  # the naive f-string of this case runs script (positive control)
    benign: str = "plain"  # a harmless value: the page's shape with it is the expected shape
    trusted: str | None = None  # the trusted HTML for {m}, if not the value
    scripting: bool = True  # load the page with JavaScript on (a notebook) or off
    join: bool = False  # the template is split at {v}: html(before) + value + html(after)
    percent: bool = False  # {v} is written %s, and the result formatted: html(...) % value
    replace: bool = False  # {v} is written VALUE: html(...).replace("VALUE", value)


CASES: list[Case] = [
    # Character references split between static text and the value.
    Case("split reference", '<iframe src="&{v}"></iframe>', "#106;avascript:" + PWN, True),
    Case("split reference", '<a href="&{v}">x</a>', "#106;avascript:" + PWN, True),
    Case("split reference", '<a href="&#{v}">x</a>', "106;avascript:" + PWN, True),
    Case("split reference", '<a href="&#x{v}">x</a>', "6a;avascript:" + PWN, True),
    Case("split reference", '<a href="&#x6a{v}">x</a>', ";avascript:" + PWN, True),
    Case("split reference", '<a href="&#106{v}">x</a>', ";avascript:" + PWN, True),
    Case("split reference", '<a href="javascript&{v}">x</a>', "colon;" + PWN, True),
    Case("split reference", '<a href="javascript&colon{v}">x</a>', ";" + PWN, True),
    Case("split reference", '<a href="java&{v}">x</a>', "NewLine;script:" + PWN, True),
    Case("split reference", "<p>&{v}</p>", "lt;b&gt;x"),
    Case("split reference", '<p title="&amp{v}">x</p>', ";x"),
    Case("split reference", '<a href="https://e.invalid/?a=1&b={v}">x</a>', JS_URL),
    # URL attributes, many spellings.
    Case("url", '<a href="{v}">x</a>', JS_URL, True),
    Case("url", '<A HREF="{v}">x</A>', "JAVASCRIPT:" + PWN, True),
    Case("url", "<a href = '{v}'>x</a>", "  javascript:" + PWN, True),
    Case("url", '<a href="{v}">x</a>', "java\tscript:" + PWN),  # Chromium 156 ignores it
    Case("url", '<a href="{v}">x</a>', "java\nscript:" + PWN, True),
    Case("url", '<a href="{v}">x</a>', "\x01javascript:" + PWN, True),
    Case("url", '<a href="{v}">x</a>', "jav&#x09;ascript:" + PWN),
    Case("url", '<a href="{v}">x</a>', "vbscript:msgbox(1)"),
    Case("url", '<a href=" {v}">x</a>', JS_URL, True),
    Case("url", '<a href="java{v}">x</a>', "script:" + PWN, True),
    Case("url", '<a href="https://e.invalid/{v}">x</a>', '"><img src=x onerror="' + PWN + '">'),
    Case("url", '<iframe src="{v}"></iframe>', JS_URL, True),
    Case("url", '<embed src="{v}">', "data:text/html," + SCRIPT, True),
    Case("url", '<object data="{v}"></object>', "data:text/html," + SCRIPT, True),
    Case("url", '<form action="{v}"><button id=go>go</button></form>', JS_URL),
    Case("url", '<form id=f></form><button form=f formaction="{v}">go</button>', JS_URL, True),
    Case("url", '<svg><a href="{v}"><text y="20">x</text></a></svg>', JS_URL, True),
    Case("url", '<svg><a xlink:href="{v}"><text y="20">x</text></a></svg>', JS_URL, True),
    Case("url", '<svg><use href="{v}"></use></svg>', "data:image/svg+xml,<svg/>"),
    Case("url", '<svg><image href="{v}"></image></svg>', JS_URL),
    Case("url", '<base href="{v}"><a href="x">x</a>', "javascript:/"),
    Case("url", '<meta http-equiv="refresh" content="0;url={v}">', JS_URL),
    Case("url", '<img srcset="{v}">', JS_URL),
    Case("url", '<a ping="{v}" href="#">x</a>', JS_URL),
    Case("url", '<script src="{v}"></script>', "data:text/javascript," + PWN, True),
    Case("url", '<link rel="stylesheet" href="{v}">', "data:text/css,*{position:fixed}"),
    Case("url", '<img src="{v}">', JS_URL),
    Case("url", '<math href="{v}"><mi>x</mi></math>', JS_URL),
    Case("url", '<a href="{v}">x</a>', "data:text/html," + SCRIPT),
    Case("url", '<iframe src="data:text/html,{v}"></iframe>', SCRIPT, True),
    Case("url", '<a href="{v}">x</a>', "/relative?" + SCRIPT),
    Case("url", '<a href="{v}">x</a>', "#" + SCRIPT),
    # data: URLs (notebooks use them for images and downloads).
    Case(
        "data url",
        '<img src="data:image/png;base64,{v}">',
        '"><img src=x onerror=' + PWN + ">",
        True,
    ),
    Case("data url", '<img src="{v}">', "data:image/png;base64,iVBORw0KGgo=", benign="x.png"),
    Case("data url", '<img src="{v}">', "data:image/svg+xml,<svg onload='" + PWN + "'/>"),
    Case("data url", '<a download="t.csv" href="data:text/csv,{v}">x</a>', "a,b\n" + SCRIPT),
    Case("data url", '<a download href="{v}">x</a>', "data:text/html," + SCRIPT),
    Case("data url", '<a download href="{v}">x</a>', "data:image/svg+xml,<svg/>"),
    Case("data url", '<a href="{v}">x</a>', "data:text/csv,a"),
    # CSS.
    Case("style", '<p style="color: {v}">x</p>', OVERLAY, True),
    Case("style", '<p style="{v}">x</p>', "position: fixed; inset: 0; background: red", True),
    Case("style", "<style>p { color: {v} }</style><p>x</p>", "red } p { " + OVERLAY, True),
    Case("style", '<svg><rect width="10" height="10" fill="{v}"></rect></svg>', OVERLAY),
    Case("style", '<p class="{v}">x</p>', OVERLAY),
    # Foreign content: svg and math.
    Case("foreign", "<svg><script>{v}</script></svg>", PWN, True),
    Case("foreign", "<svg><style>{v}</style></svg>", "*{position:fixed}"),
    Case("foreign", "<svg>{v}</svg>", IMG, True),
    Case("foreign", "<math>{v}</math>", IMG, True),
    Case("foreign", '<svg><text y="20">{v}</text></svg>', "</text></svg>" + IMG, True),
    Case("foreign", "<svg><title>{v}</title></svg>", "</title></svg>" + IMG, True),
    Case("foreign", "<svg><desc>{v}</desc></svg>", "</desc>" + IMG),
    Case("foreign", "<math><mi>{v}</mi></math>", "</mi></math>" + IMG, True),
    Case("foreign", "<math><mtext>{v}</mtext></math>", "<table><mglyph><style>" + IMG),
    Case("foreign", "<svg><foreignObject><p>{v}</p></foreignObject></svg>", IMG, True),
    Case("foreign", '<math><annotation-xml encoding="text/html">{v}</annotation-xml></math>', IMG),
    Case("foreign", '<svg><text y="20"><![CDATA[{v}]]></text></svg>', "]]>" + IMG, True),
    Case("foreign", "<svg><![CDATA[{v}]]></svg>", "]]>" + IMG, True),
    Case("foreign", '<svg><animate attributeName="href" to="{v}"></animate></svg>', JS_URL),
    Case("foreign", '<svg><set onbegin="{v}" attributeName="x" to="1"></set></svg>', PWN, True),
    # An end tag </p> or </br> leaves svg/math in Chromium (and the current standard), where
    # html5lib 1.1 stayed inside: there a CDATA section is a bogus comment ending at ">", and
    # what follows is HTML.  html() read the field as svg text; Chromium ran it as CSS or code.
    Case(
        "breakout",
        "<svg></p><text><![CDATA[ > <script>\n-->]]>{v}</text></svg><p>x</p><script></script>",
        "\n" + PWN + "//",
        True,
    ),
    Case("breakout", "<svg></br><text><![CDATA[ > <style> ]]>{v}</text>", SWALLOWED_CSS, True),
    Case("breakout", "<svg><text></p><![CDATA[ > <style> ]]>{v}</text>", SWALLOWED_CSS, True),
    Case("breakout", "<math></p><mi><![CDATA[ > <style> ]]>{v}</mi>", SWALLOWED_CSS, True),
    Case("breakout", "<svg></p><text>{v}</text></svg>", "</text>" + IMG),
    Case("breakout", "<svg><title></br>{v}</title></svg>", "</title>" + IMG),
    # <template>, <noscript>, <select>, tables.
    Case("template", "<template>{v}</template>", IMG),
    Case("template", "<template><p>{v}</p></template>", IMG),
    Case("template", '<template><p title="{v}">x</p></template>', '"' + IMG),
    Case("noscript", "<noscript>{v}</noscript>", "</noscript>" + IMG, True),
    Case("noscript", '<noscript><p title="{v}"></p></noscript>', "</noscript>" + IMG, True),
    Case("select", "<select><option>{v}</option></select>", "</option></select>" + IMG, True),
    Case("select", "<select>{v}</select>", "</select>" + IMG, True),
    Case("select", '<select><option value="{v}">x</option></select>', '">' + IMG),
    # Browsers now parse <select> content as ordinary HTML (html5lib 1.1 ignored these tags).
    Case("select", "<select><style>{v}</style></select>", "* { " + CSS_OVERLAY + " }", True),
    Case("select", "<select><svg><style>{v}</style></svg></select>", "* {" + CSS_OVERLAY, True),
    Case("select", "<select><xmp>{v}</xmp></select>", "</xmp>" + IMG, True),
    Case("select", "<select><noscript>{v}</noscript></select>", "</noscript>" + IMG, True),
    Case("select", '<select><div title="{v}">x</div></select>', '"' + IMG),
    Case("select", "<select><math><mi>{v}</mi></math></select>", "</mi>" + IMG),
    Case("table", "<table>{v}</table>", IMG, True),
    Case("table", "<table><tr>{v}</tr></table>", IMG, True),
    Case("table", "<table><tr><td>{v}</td></tr></table>", "</td></tr></table>" + IMG, True),
    Case("table", "<table><caption>{v}</caption></table>", IMG, True),
    Case("table", "<table><colgroup>{v}</colgroup></table>", IMG, True),
    # RCDATA and RAWTEXT bodies.
    Case("rcdata", "<textarea>{v}</textarea>", "</textarea>" + IMG, True),
    Case("rcdata", "<TEXTAREA>{v}</textarea >", "</TEXTAREA >" + IMG, True),
    Case("rcdata", "<title>{v}</title>", "</title>" + IMG, True),
    Case("rawtext", "<xmp>{v}</xmp>", "</xmp>" + IMG, True),
    Case("rawtext", "<noembed>{v}</noembed>", "</noembed>" + IMG, True),
    Case("rawtext", "<noframes>{v}</noframes>", "</noframes>" + IMG, True),
    Case("rawtext", "<iframe>{v}</iframe>", "</iframe>" + IMG, True),
    Case("rawtext", "<plaintext>{v}", IMG),
    Case("rawtext", "<plaintext>x</plaintext><p>{v}</p>", IMG),
    # Script bodies, and "</script" inside a script's strings.
    Case("script", '<script>var s = "{v}";</script>', '";' + PWN + "//", True),
    Case("script", "<script type=text/plain>{v}</script>", "</script>" + SCRIPT, True),
    Case("script", "<script>var s = '</script>{v}';</script>", IMG, True),
    Case("script", "<script><!--<script>{v}</script>--></script>", "</script>" + SCRIPT),
    Case("script", "<script>/* </scripty> */ {v}</script>", PWN, True),
    Case("script", "<SCRIPT>x</SCRIPT >{v}", IMG, True),
    # Comments, declarations, processing instructions.
    Case("comment", "<!-- {v} -->", "-->" + IMG, True),
    Case("comment", "<!--{v}-->", "-->" + IMG, True),
    Case("comment", "<!-- {v} --!>", "--!>" + IMG, True),
    Case("comment", "<!-- a --!> {v}", IMG, True),
    Case("comment", "<!-->{v}", IMG, True),
    Case("comment", "<!--->{v}", IMG, True),
    Case("comment", "<? {v} ?>", ">" + IMG, True),
    Case("comment", "<!{v}>", ">" + IMG, True),
    Case("comment", "<![CDATA[{v}]]>", ">" + IMG, True),
    Case("doctype", "<!DOCTYPE {v}>", ">" + IMG, True),
    Case("doctype", '<!DOCTYPE html PUBLIC "{v}">', '">' + IMG, True),
    # Tag and attribute names, unquoted and duplicate attributes.
    Case("names", "<{v}>", f'img src=x onerror="{PWN}"', True),
    Case("names", "<b{v}>x</b>", f' onmouseover="{PWN}" autofocus onfocus="{PWN}" tabindex=1'),
    Case("names", "</{v}>", f'x><img src=x onerror="{PWN}"', True),
    Case("names", '<p {v}="x">x</p>', f'onclick="{PWN}" title', True),
    Case("names", '<img src=x data-{v}="1">', f'x onerror="{PWN}" y'),
    Case("names", '<img src=x title="t" {v}>', f'onerror="{PWN}"', True),
    Case("unquoted", "<img src=x title={v}>", f"x onerror={PWN}", True),
    Case("unquoted", "<img src=x title=a{v}>", f"x onerror={PWN}", True),
    Case("unquoted", "<a href={v}>x</a>", JS_URL, True),
    Case("duplicate", '<a href="https://e.invalid/" href="{v}">x</a>', JS_URL),
    Case("duplicate", '<img src="x" alt="{v}" alt="y">', '"' + IMG, True),
    # Event handlers, srcdoc, form hijacking.
    Case("event", '<img src=x onerror="{v}">', PWN, True),
    Case("event", '<p ONCLICK="{v}">x</p>', PWN),
    Case("event", '<svg onload="{v}"></svg>', PWN, True),
    Case("event", '<details open ontoggle="{v}"><summary>x</summary></details>', PWN, True),
    Case("srcdoc", '<iframe srcdoc="{v}"></iframe>', IMG, True),
    Case("srcdoc", '<iframe srcdoc="<p>{v}</p>"></iframe>', f"&lt;img src=x onerror={PWN}&gt;"),
    Case("form", '<input name="q" form="{v}">', "f"),
    Case("form", '<input name="{v}" value="x">', "action"),
    Case("form", '<button type="{v}">x</button>', "submit"),
    Case("form", '<input value="{v}">', '" autofocus onfocus="' + PWN + '"', True),
    # Plain attributes: the allow-list.
    Case("attribute", '<p title="{v}">x</p>', '" onmouseover="' + PWN + '" x="'),
    Case("attribute", '<img src=x alt="{v}">', '" onerror="' + PWN + '" x="', True),
    Case("attribute", "<p title='{v}'>x</p>", "' onmouseover='" + PWN + "' x='"),
    Case("attribute", '<p data-x="{v}" aria-label="y">x</p>', '">' + IMG),
    Case("attribute", '<p id="{v}">x</p>', "</p>" + IMG),
    Case("attribute", '<p contenteditable="{v}">x</p>', "true"),
    Case("attribute", '<dialog open="{v}">x</dialog>', "x"),
    # Text of ordinary elements.
    Case("text", "<p>{v}</p>", IMG, True),
    Case("text", "{v}", SCRIPT, True),
    Case("text", "<p>1 < 2 and {v}", IMG, True),
    Case("text", "<pre>{v}</pre>", "\n" + IMG, True),
    Case("text", "<b><p>x</b>{v}", IMG, True),
    # Trusted values (Markup, nested html() results).
    Case("trusted", '<p title="{m}">x</p>', '" onmouseover="' + PWN),
    Case("trusted", "<p title='{m}'>x</p>", "' onmouseover='" + PWN),
    Case("trusted", "<p>{m}</p>", "</p><textarea>", benign="<b>x</b>"),
    Case("trusted", "<p>{m}</p><p>y</p>", "<!--", benign="<b>x</b>"),
    Case("trusted", "<p>{m}</p><p>y</p>", "<textarea>", benign="<b>x</b>"),
    Case("trusted", "<p>{m}</p>", "<div>x</div>", benign="<b>x</b>"),
    Case("trusted", "<textarea>{m}</textarea>", "</textarea>" + IMG, True, benign="x"),
    Case("trusted", '<a href="{m}">x</a>', JS_URL, benign="x"),
    Case("trusted", "<svg><text>{m}</text></svg>", "</text>", benign="x"),
    Case("trusted", "<table>{m}</table>", "<tr><td>x</td></tr>", benign="<tr><td>y</td></tr>"),
    Case("trusted", "<table>{m}</table>", "</table>" + IMG, benign="<tr><td>y</td></tr>"),
    Case("trusted", "<div>{m}</div><p>{v}</p>", "<b>", benign="<i>x</i>"),
    # Trusted HTML read the way browsers read <select> now: a <style> there is a style sheet
    # that swallows the template after it (html5lib 1.1 drops it).
    Case(
        "trusted", "<select>{m}</select><p title='{v}'>x</p>", SWALLOWED_CSS, True, "x", "<style>"
    ),
    Case(
        "trusted", "<select>{m}</select><p>{v}</p>", "x", benign="y", trusted="<option>a</option>"
    ),
    # Table parts html5lib 1.1 loses from a fragment (a node moved before a table; a <table>
    # opened in a table's content): the template's own elements there, unseen, swallowed.
    Case("trusted", "<table>{m}<p title='{v}'>x</p></table>", SWALLOWED_CSS, True, "x", "<style>"),
    Case(
        "trusted",
        "<table><div>{m}<table title='{v}'></table></div></table>",
        SWALLOWED_CSS,
        True,
        "x",
        "<style>",
    ),
    Case("trusted", "<table>{m}</table><p>{v}</p>", "x", benign="y", trusted="<tr><td>a</td></tr>"),
    # <noscript> with JavaScript off (sanitizers' DOMParser, a page or export viewed without
    # JavaScript): its content is markup, and a <style> in it swallows the page after it.
    Case(
        "noscript", "<noscript><style></noscript>{v}</style>", SWALLOWED_CSS, True, scripting=False
    ),
    Case("noscript", "<noscript><p>x</p></noscript><p>{v}</p>", SWALLOWED_CSS, scripting=False),
    Case("noscript", "<p>{m}</p><p>{v}</p>", SWALLOWED_CSS, True, "x", NOSCRIPT_STYLE, False),
    Case(
        "noscript",
        "<p>{m}</p><p>{v}</p>",
        SWALLOWED_CSS,
        benign="y",
        trusted="<noscript>x</noscript>",
    ),
    # SVG geometry: the <svg> element's own transform moves its box over the page; a
    # transform inside stays clipped to that box.
    Case(
        "svg",
        '<p>x</p><svg width="9" height="9" transform="{v}">' + RECT + "</svg>",
        "scale(200)",
        True,
    ),
    Case(
        "svg",
        '<p>x</p><svg width="9" height="9"><g transform="{v}">' + RECT + "</g></svg>",
        "scale(200)",
    ),
    # Composition: a result joined with a value (markupsafe escapes it, and stops there).
    Case("join", "<script>{v}</script>", PWN, True, join=True),
    Case("join", '<a href="{v}">x</a>', JS_URL, True, join=True),
    Case("join", "<style>{v}</style>", "* {" + CSS_OVERLAY + "}", True, join=True),
    Case("join", "<svg><style>{v}</style></svg>", "* {" + CSS_OVERLAY + "}", True, join=True),
    Case("join", "<p><{v}>", f"img src=x onerror={PWN} x=", True, join=True),
    Case("join", "<!--{v}-->", "-->" + IMG, True, join=True),
    Case(
        "join",
        "<p title={v}>x</p>",
        f"x onmouseover={PWN} onfocus={PWN} autofocus tabindex=1",
        True,
        join=True,
    ),
    Case("join", "<textarea>{v}</textarea>", "</textarea>" + IMG, True, join=True),
    Case("join", "<p>{v}</p>", IMG, True, join=True),
    Case("join", "<table>{v}</table>", IMG, True, join=True),
    # A trusted value that leaves a <script> open at the end: a value joined after runs.
    Case("join", "<p>{m}</p>{v}</script>", "\n" + PWN, True, trusted="<script>//", join=True),
    Case("join", "<p>{m}</p>{v}", "\n" + PWN, trusted="<b>x</b>", join=True),
    Case("format", "<script>var x = {v}</script>", "1; " + PWN, True, percent=True),
    Case("format", '<a href="{v}">x</a>', JS_URL, True, percent=True),
    Case("format", "<script>var x = {v}</script>", "1; " + PWN, True, replace=True),
    Case("format", '<a href="{v}">x</a>', JS_URL, True, replace=True),
    # Names the page's document takes as its own properties (DOM clobbering): the harness
    # reports document.getElementById and the like turned into elements.  An id or an
    # <input>'s name clobbers nothing there.
    Case("dom clobbering", '<img name="{v}" src="data:,">', "getElementById", True),
    Case("dom clobbering", '<form name="{v}"></form>', "querySelector", True),
    Case("dom clobbering", '<img id="{v}" name="x" src="data:,">', "createElement", True),
    Case("dom clobbering", '<a id="{v}">x</a>', "getElementById"),
    Case("dom clobbering", '<form><input name="{v}"></form>', "querySelector"),
    # A label clicks the control its for= names anywhere on the page: the harness page holds
    # a hidden control of its own (HOST_CONTROL), as JupyterLab's page holds its controls.
    Case("label for", '<label for="{v}">x</label>', HOST_CONTROL_ID, True),
    # Names of page-wide groups: opening an output's <details> closed the page's one of that
    # name (its toggle handler ran), an output's radio button unchecked the page's.
    Case("page group", '<details name="{v}"><summary>x</summary>x</details>', HOST_GROUP, True),
    Case("page group", '<input type="radio" name="{v}">', HOST_GROUP, True),
    Case("page group", '<input type="radio" name="{v}" checked>', HOST_GROUP, True),
    Case("page group", '<details title="{v}"><summary>x</summary>x</details>', HOST_GROUP),
    Case("page group", '<input type="checkbox" name="{v}">', HOST_GROUP),
    Case("page group", '<input type="radio" name="g" value="{v}">', HOST_GROUP),
    # rel="opener" on a link that opens a new tab hands that tab the notebook's window (the
    # harness reports a popup holding window.opener).
    Case(
        "opener",
        '<a href="https://e.invalid/" target="_blank" rel="{v}">x</a>',
        "opener",
        True,
        benign="noopener",
    ),
    # A link whose target names a window (not _blank: "_new", "results", " _blank", a <base
    # target>), or says rel="opener", opens a tab holding window.opener: the page a value
    # names there could navigate the notebook's tab away.  JupyterLab adds rel="noopener" to
    # the HTML links of an output, not to svg ones; other viewers add nothing.
    Case("opener", '<a href="{v}" target="_new">x</a>', "https://e.invalid/", True),
    Case("opener", '<a href="{v}" target=" _blank">x</a>', "https://e.invalid/", True),
    Case("opener", '<a href="//{v}" target="results">x</a>', "e.invalid/", True),
    Case("opener", '<a href="{v}" target="_blank" rel="opener">x</a>', "https://e.invalid/", True),
    Case("opener", '<base target="w"><a href="{v}">x</a>', "https://e.invalid/", True),
    Case("opener", f'<svg><a href="{{v}}" target="_new">{RECT}</a></svg>', "//e.invalid/", True),
    # The browser compares target and rel by ASCII rules: "_blan\u212a" (Kelvin sign), which
    # Python's lower() folds to "_blank", names a window; "noopener\xa0" is not noopener.
    Case("opener", '<a href="{v}" target="_blan\u212a">x</a>', "https://e.invalid/", True),
    Case("opener", '<a href="{v}" target="_new" rel="noopener\xa0">x</a>', "//e.invalid/", True),
    Case("opener", '<a href="{v}" target="_new" rel="x\x1cnoreferrer">x</a>', "//e.invalid", True),
    # A download's file name decides what the saved file is, whatever the data's type.
    Case(
        "download name",
        '<a download="{v}" href="data:text/csv,%3Cscript%3E1%3C/script%3E">x</a>',
        "report.html",
        True,
        benign="report.csv",
    ),
    Case(
        "download name",
        '<a download="report.{v}" href="data:text/csv,a">x</a>',
        "svg",
        True,
        benign="csv",
    ),
    Case("download name", '<a download="{v}" href="data:text/csv,a">x</a>', "report.csv"),
    Case("download name", '<a download="{v}.csv" href="data:text/csv,a">x</a>', "report.html"),
    # A class token the template begins (class="level-{v}") that the value ends with a space,
    # adding a class of its choosing: the page's class that covers the page (HOST_COVER).
    Case("class token", '<p class="level-{v}">x</p>', "1 " + HOST_COVER, True, benign="1"),
    Case("class token", '<p class="{v}-level">x</p>', HOST_COVER + "\tx", True, benign="1"),
    Case("class token", '<p class="a-{v}{v}">x</p>', "\n" + HOST_COVER, True, benign="1"),
    Case("class token", '<p class="level {v}">x</p>', "1", benign="2"),
    # Attributes that name an element by its id for the output to act upon: off the list,
    # each reaches the page's own (a form submitted, a popover shown, in Chromium).
    Case("id reference", '<button form="{v}">x</button>', "host-form", True),
    Case("id reference", '<input type="submit" form="{v}">', "host-form", True),
    Case("id reference", '<button form="{v}" formaction="#">x</button>', "host-form", True),
    Case("id reference", '<button popovertarget="{v}">x</button>', "host-popover", True),
    Case(
        "id reference",
        '<button commandfor="{v}" command="show-popover">x</button>',
        "host-popover",
        True,
    ),
    # A link's target names the window or frame it navigates: off the list (a new tab here).
    Case("id reference", '<a href="https://e.invalid/" target="{v}">x</a>', "_blank", True),
    # The accessibility tree: aria-owns takes the page's element into the output's subtree (a
    # screen reader presents it there), aria-activedescendant announces it as the output's
    # focused item.  Relations that only read or point (aria-labelledby...) stay accepted.
    Case("id reference", '<div role="group" aria-owns="{v}">x</div>', HOST_NOTE_ID, True),
    Case(
        "id reference",
        '<div role="listbox" tabindex="0" aria-activedescendant="{v}">x</div>',
        HOST_NOTE_ID,
        True,
    ),
    # ARIA 1.3's aria-actions (Chromium 156) made the page's button an action of the output's
    # element, for a screen reader to activate from there; an aria-* name off html()'s list is
    # refused, the known ones that only read stay accepted.
    Case("id reference", '<ul><li aria-actions="{v}">x</li></ul>', HOST_ACTION_ID, True),
    Case("id reference", '<div role="group" aria-labelledby="{v}">x</div>', HOST_NOTE_ID),
    Case("id reference", '<div role="group" aria-labeledby="{v}">x</div>', HOST_ACTION_ID),
    Case("id reference", '<div role="group" aria-controls="{v}">x</div>', HOST_ACTION_ID),
    Case("id reference", '<div role="group" aria-describedby="{v}">x</div>', HOST_NOTE_ID),
    # Bootstrap's toggles act on the page's element their target selects (DATA_API_JS).
    Case(
        "bootstrap",
        '<button data-bs-toggle="collapse" data-bs-target="{v}">x</button>',
        "#" + HOST_COLLAPSE_ID,
        True,
    ),
    Case(
        "bootstrap", '<a data-bs-toggle="collapse" href="{v}">x</a>', "#" + HOST_COLLAPSE_ID, True
    ),
    Case("bootstrap", '<a data-toggle="collapse" href="{v}">x</a>', "#" + HOST_COLLAPSE_ID, True),
    Case("bootstrap", '<button data-bs-toggle="{v}" data-bs-target="#d">x</button>', "collapse"),
    Case("bootstrap", '<a href="{v}">x</a><p id="d">x</p>', "#" + HOST_COLLAPSE_ID),
]
