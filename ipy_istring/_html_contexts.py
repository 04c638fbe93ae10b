"""Where each field of an ``html()`` template stands, as the WHATWG HTML parser reads it.

The browser decides what a character means with the HTML standard's tokenizer and tree
builder; a hand-written scanner that disagrees with them in one corner lets a value out.  So
the context of each field is read by html5lib, the pure-Python implementation of that same
algorithm (foreign content, script data, RCDATA/RAWTEXT, ``<template>``, ``<select>``, table
foster parenting), from the template rendered with inert placeholders:

* probe A puts a letters-and-digits token where each field stands: where the token lands (text
  of which element, value of which attribute, a tag name, a comment...) is the field's context;
* probe H puts, escaped, a worst-case value (space, tab, newline, ``/ = ` ' " < > &``) there:
  the parse must be probe A's with the token replaced by exactly that value, which proves the
  position reads any escaped value back as written (so it is not an unquoted attribute value,
  a raw-text body or a CDATA section);
* probe B puts a comment there (a comment is inserted in place in every insertion mode, never
  moved): its parse is the skeleton the structural check compares a rendered page with.

A field is then accepted only in an allow-listed context (:func:`analyse`), and everything about
it depends on the static strings only, so the result is cached per ``t.strings``.

html5lib is imported on the first analysis, not when ``ipy_istring`` is imported.
"""

from __future__ import annotations

import dataclasses
import html
import itertools
import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

__all__ = [
    "DEPTH_REFUSAL",
    "MAX_DEPTH",
    "Plan",
    "Reading",
    "Slot",
    "Unreadable",
    "UrlCheck",
    "analyse",
    "animates_target",
    "base_target",
    "canonical_fragment",
    "depth",
    "filename_refusal",
    "join_refusal",
    "mismatch",
    "opener_link",
    "parse",
    "plainly_closed",
    "readings",
    "tex_refusal",
    "token_refusal",
    "top_text",
    "url_refusal",
]

HTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"
MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"

Refusal = tuple[str, str]  # (why, fix): why continues "{field} ...", fix is a sentence


def _names(text: str, *more: str) -> frozenset[str]:
    return frozenset((*text.split(), *more))


# The worst-case value for probe H: every character class that escaping leaves alone and that
# ends or changes some tokenizer state (whitespace, / = ` ! ? - ] ;), plus all that it escapes.
_HOSTILE = " \t\n/=`!?-]];#x'\"<>&amp;&"

# Elements whose body the tokenizer reads without decoding references (RAWTEXT, script data,
# PLAINTEXT): probe H already refuses a field there; these give the refusal its words.
_CODE_BODIES = frozenset(("script", "style"))
_RAW_BODIES = frozenset(
    ("xmp", "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style")
)
# RCDATA bodies decode references and end only at their own end tag, which an escaped value
# cannot write: escaped text is safe (and shown as written) there, trusted HTML is not.
_RCDATA_BODIES = frozenset(("textarea", "title"))
# Text in svg/math is foreign content: allowed only in elements whose text is just shown.
_FOREIGN_TEXT = frozenset(
    [(SVG_NS, name) for name in ("text", "tspan", "textPath", "title", "desc")]
    + [(MATHML_NS, name) for name in ("mi", "mo", "mn", "ms", "mtext", "annotation")]
)
# Where the parser reads text by HTML's rules inside svg/math (integration points): NUL is
# dropped there as in HTML, and turned into U+FFFD in the rest of foreign content.
_INTEGRATION_POINTS = frozenset(
    [(SVG_NS, name) for name in ("foreignObject", "desc", "title")]
    + [(MATHML_NS, name) for name in ("mi", "mo", "mn", "ms", "mtext")]
)
# MathJax, which the pages notebooks are published in run over their outputs (Jupyter Book
# and nbsphinx through myst-nb's and nbsphinx's configuration, which processes the class
# output_area; Quarto over the whole page), reads the text of the page as TeX: between $...$,
# \(...\), \[...\] or in \begin{...}, a command makes markup, \href{javascript:...}{x} a link
# that runs its URL (in Chromium, MathJax 3 as Jupyter Book configures it made escaped text a
# javascript: link), \style{position: fixed...} an overlay, \class and \cssId the page's classes
# and ids.  It skips the text of these elements (its skipHtmlTags; script, style, noscript and
# textarea bodies take no value as markup anyway), unless they have a class the page's
# configuration says to process (processHtmlClass: "math" and "output_area" in Jupyter Book;
# in Chromium <code class="math"> was typeset), so one with any class counts as read.
# JupyterLab's MathJax filters commands (its SafeHandler); these pages' does not.
_TEX_SKIPPED = frozenset(
    [(HTML_NS, name) for name in ("pre", "code", "textarea", "script", "style", "noscript")]
    + [(MATHML_NS, name) for name in ("annotation", "annotation-xml")]
)
# A TeX command (\\href, \\style...; a backslash before any other character is a symbol that
# makes no markup), and math that MathJax reads: between paired delimiters, which a page's
# configuration may set ($...$ and $$...$$ in Jupyter Book, nbsphinx and Quarto), or in an
# environment.  (\\$ counts as a dollar here, as it does where processEscapes is off.)
_TEX_COMMAND = re.compile(r"\\[A-Za-z]")
_TEX_MATH = re.compile(r"\$.*\$|\\\(.*\\\)|\\\[.*\\\]|\\begin.*\\end", re.DOTALL)
# Text directly in these is moved by the parser (foster parenting, implied elements).
_TABLE_LIKE = frozenset(("table", "tbody", "thead", "tfoot", "tr", "colgroup"))

# Attributes whose value is plain data to the browser, on any HTML element but the ones below.
# (Enumerated attributes, whose value is one of a set of keywords, are in _ENUMERATED.)
SAFE_ATTRIBUTES = _names(
    """abbr accesskey align alt autocomplete border cellpadding cellspacing checked class cols
    colspan datetime disabled download for headers height high hreflang id label lang low max
    maxlength min minlength multiple name optimum placeholder readonly required reversed role
    rows rowspan selected size span start step summary tabindex title valign value width"""
)
# SVG geometry and presentation attributes: numbers, colours, path data (no URLs, no CSS text).
# (A gradient stop's and a flood's colour take a colour only: in Chromium stop-color and
# flood-color given url(https://x.test/...), var(), image() or "red; fill: url(...)" fell
# back to black and requested nothing; the twenty-fourth pass.)
_SVG_ATTRIBUTES = _names(
    """class id x y dx dy width height cx cy r rx ry x1 y1 x2 y2 points d transform viewBox
    fill fill-opacity fill-rule stroke stroke-width stroke-opacity stroke-dasharray
    stroke-linecap stroke-linejoin opacity font-size font-family font-weight text-anchor
    dominant-baseline preserveAspectRatio rotate textLength offset stop-color stop-opacity
    flood-color flood-opacity"""
)
# Names that the document gives as its own properties (HTML's named properties of Document,
# which win over its built-in ones), for the elements whose attributes html() lets values fill:
# an <img> by its name (or its id, when it has a name too) and a <form> by its name.
_NAMED_ON_DOCUMENT = frozenset((("img", "name"), ("img", "id"), ("form", "name")))
# Names that join an element to a group spanning the whole page, whose members act on each
# other: the <details> of one name are an exclusive accordion (opening one closes the others,
# firing their toggle event), the radio buttons of one name outside a form a single choice
# (checking one unchecks the others, also on insertion with "checked").  The group is chosen by
# the name, so a value would choose an element of the page outside the output to act upon.
_PAGE_GROUPS = {
    "details": "opening it closes the page's open <details> of that name (an exclusive "
    "accordion spans the page; in Chromium the page's own toggle handler ran)",
    "radio": "checking it (or rendering it checked) unchecks the page's radio button of that "
    "name (radio buttons outside a form form one group across the page)",
}
# svg paint attributes (presentation attributes, CSS values): a colour, or url(...) of a paint
# server, which Chromium fetches from another document too (the nineteenth pass:
# fill="url(https://x.test/p.svg#g)" requested it), a URL html() never judged (any host and
# path, where the template wrote a colour).  A value there holds a colour's or an id's
# characters only, so it can write no function, quote or CSS escape of its own; colour
# functions go in the template (fill="rgb({r} {g} {b})").
_PAINT = frozenset(("fill", "stroke"))
_PAINT_VALUE = re.compile(r"[A-Za-z0-9#., _+-]*")
# svg opacities are presentation attributes too, CSS values, and a stop's offset a number:
# a value there could write a function whose value html() never saw (the twenty-fifth pass:
# in Chromium stop-opacity="var(--x)" took the page's custom property, flood-opacity="attr(x
# type(<number>))" another attribute's value).  A value there is a plain number, or percentage.
_SVG_NUMBERS = _names("opacity fill-opacity stroke-opacity stop-opacity flood-opacity offset")
_SVG_NUMBER = re.compile(r"-?(?:[0-9]+|[0-9]*\.[0-9]+)%?")
# The other svg presentation attributes are CSS values as well (the twenty-sixth pass: in
# Chromium stroke-width, font-size, width, x, r, stroke-dasharray, font-family, font-weight,
# text-anchor and stroke-linecap given var(--x) took the page's custom property,
# x="attr(data-x type(<length>))" another attribute's value, height="calc(...)" a computed
# one).  A value there holds no parenthesis, so it can write no function: numbers with a
# unit, lists of them, path data, names; a transform's functions take numbers only; a
# gradient stop's and a flood's colour is a colour as in a style attribute (_is_colour).
# (The twenty-seventh pass: a number may have an exponent, 1e1 or 1.5E-1: in Chromium x="1e1"
# was 10px, as CSS and svg numbers read it.)
_SVG_FLOAT = r"-?(?:[0-9]+|[0-9]*\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_SVG_LENGTH = rf"{_SVG_FLOAT}(?:px|em|ex|rem|pt|pc|cm|mm|in|%)?"
_SVG_TRANSFORM_NUMBERS = r"[0-9eE ,.+-]"
_SVG_GRAMMARS = {
    "lengths": re.compile(rf"(?:{_SVG_LENGTH}(?:[ ,]+{_SVG_LENGTH})*)?"),
    "path data": re.compile(r"[MmZzLlHhVvCcSsQqTtAa0-9eE ,.+-]*"),
    "transform": re.compile(
        rf"(?:(?:matrix|translate|scale|rotate|skewX|skewY)\({_SVG_TRANSFORM_NUMBERS}*\)"
        rf"|{_SVG_TRANSFORM_NUMBERS})*"
    ),
    "names": re.compile(r"[A-Za-z0-9 ,_-]*"),
}
_SVG_KINDS = {
    **dict.fromkeys(
        _names(
            """x y dx dy width height cx cy r rx ry x1 y1 x2 y2 points viewBox stroke-width
            stroke-dasharray font-size rotate textLength"""
        ),
        "lengths",
    ),
    "d": "path data",
    "transform": "transform",
    # (a gradient stop's and a flood's colour: stop-color="var(--x)" took the page's colour)
    "stop-color": "colour",
    "flood-color": "colour",
    **dict.fromkeys(
        _names(
            """fill-rule stroke-linecap stroke-linejoin font-family font-weight text-anchor
            dominant-baseline preserveAspectRatio"""
        ),
        "names",
    ),
}
_SVG_EXAMPLES = {
    "lengths": 'Pass numbers with an optional unit (width="12", "3em", "40%"; points="0,0 9 9")',
    "path data": 'Pass path data of letters and numbers (d="M0 0L9 9Z")',
    "transform": 'Pass numbers (transform="rotate({a})"), or rotate(45), scale(2)... of numbers',
    "names": 'Pass a name or a list of names (font-family="DejaVu Sans, serif", "bold")',
    "colour": 'Pass "#" and hex digits, a CSS colour name or rgb() of numbers (stop-color="teal")',
}
# A <map>'s name (or id: Chromium takes either) exists for the page's images to refer to, by
# the first map of that name in the page (in tree order, an output before the page's own): a
# value there chooses which image of the page the output's links serve, as a <details> name
# chooses its accordion (the nineteenth pass: in Chromium, a map named by a value took over
# the clicks on a later output's <img usemap>).  (An id of other elements stays a value's:
# the page's label for= or list= after the output may find it, a documented limit.)
_REFERENCED_BY_PAGE = dict.fromkeys(
    (("map", "name"), ("map", "id")),
    'a page\'s <img usemap="#..."> follows the <area> links of the first <map> whose name or '
    "id it names (a click on a later output's image followed the output's link, in Chromium)",
)
# An id is the page's as much as the output's: the first element of an id in the page is
# the one the page's own references find (a button's form=, popovertarget=, a label's for=,
# href="#...", getElementById), and the name of window's property where nothing else defines
# it (DOM clobbering).  In Chromium (the twentieth pass), an output before the page's elements
# given the ids of the page's took the page's button's form= (it submitted the output's
# form), popovertarget= (it showed the output's popover) and label (it clicked the output's
# checkbox), and window.config, read by a page script, became the output's element.  A value
# may give the rest of an id only after a static prefix that holds a separator, a character
# no JavaScript name holds (id="row-{n}"): the id is then in the template's own namespace,
# which the page would have to write to reach it, and never the name of a global.  After a
# prefix without one (id="c{n}") the value may be a number: "c" + "onfig" is window.config,
# "c" + "5" stays in the template's namespace.  (A suffix does not do: the page's ids end in
# common words, "jp-main-dock" + "-panel" is JupyterLab's.)
#
# A name (the name attribute of any HTML element) is the same kind of key, by which the page
# looks an element up (the twenty-first pass, in Chromium, with an output put in before the
# page's elements): document.getElementsByName("csrf")[0] read the output's field, not the
# page's; the page's link to #results went to the output's <a name="results">, not the page's
# (a fragment names an id, else the first <a> of that name); a form's fields are its properties
# by name, over its own (<input name="action"> made form.action, read by the page's submit
# handler, the output's element); and a field of the template's form="login" given the name
# "next" was sent with the page's login form, before the page's own next.  (The name of an
# <img>, a <form> and of page-wide groups is refused whole: see _NAMED_ON_DOCUMENT.)  So a name
# follows the id's rule: a value gives its rest after a prefix with a separator
# (name="field-{x}", name="user[{x}]"), or a number after a prefix without one.
_ID_SEPARATOR = re.compile(r"[^A-Za-z0-9_$\x80-\U0010ffff]")
_NUMBER = re.compile(r"-?[0-9]*")
# A style attribute is CSS, where text a value chose could add any declaration (the twenty-
# second pass, in Chromium: style="width: {v}%" given "1%; position: fixed; inset: 0;
# background: url(https://x.test/t)" covered the page and requested the value's URL).  A
# field may stand there only as the whole number of a size, in a style attribute whose text
# is plain declarations: property: value; with letters, digits and # . % , + - ( ) / only (no
# quote, backslash, asterisk, comment, !, @, braces, or unbalanced parenthesis: so no string,
# escape or url( token spans a ";", and the declarations are what the split at ";" reads).
# The field's declaration is one of these properties, and its value the field then a unit
# (width: {pct}%): the value must be a plain non-negative number, which no CSS token it
# could continue makes more than a number (a progress bar's width, a cell's padding).  The
# properties take no negative value: a size, never a position or a margin (which could move
# the element over the page around the output).
_STYLE_NUMBERS = _names(
    """width height min-width max-width min-height max-height font-size line-height opacity
    flex-grow padding padding-top padding-right padding-bottom padding-left border-width
    border-radius"""
)
_STYLE_UNITS = _names("% px em rem ch ex pt", "")
# The twenty-fifth pass lets the text hold "/" (font: 12px/1.5 serif, rgb({r} {g} {b} / {a})):
# with no "*" a slash starts no comment, and it is a delimiter, which spans no ";".
_STYLE_TEXT = re.compile(r"[A-Za-z0-9#.%,:;()/\t\n\x0c\r +-]*")
_STYLE_DECLARATION = re.compile(r"[\t\n\x0c\r ]*(-?[A-Za-z][A-Za-z-]*)[\t\n\x0c\r ]*:(.*)", re.S)
_STYLE_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
# A field may also be the whole value of a colour property in such plain declarations
# (background-color: {c}: a table cell coloured by its value), the value a colour in the
# strictest grammar: "#" and 3, 4, 6 or 8 hex digits, or a CSS Color 4 name (ASCII letters,
# compared as the browser does: no Kelvin sign for "k").  Either is one CSS token that no
# following text continues, and sets that colour alone (the twenty-third pass: in Chromium
# background: teal set the background colour, no image).  No function (rgb(...), var(...),
# url(...)), no currentcolor or system colour: a value there reads nothing of the page's.
#
# The twenty-fourth pass adds the colour longhands that take a colour alone (border-top-color...,
# stop-color, flood-color, lighting-color, caret-color, text-decoration-color,
# column-rule-color: in Chromium each computed to the colour given), and an rgb(), rgba(),
# hsl() or hsla() of numbers only as a whole value (_COLOUR_FUNCTION: digits, ".", "%", "deg",
# commas, spaces and "/", closed by its own ")": one function token of numbers, which reads
# nothing and no following text continues).  A field may also be one number of such a
# function the template writes (rgb({r}, {g}, {b})): the declaration's value, each field "0",
# is such a function, and each field stands between its delimiters ("(", ",", " " before it;
# a unit, ",", " ", ")" after it), so the value, a plain number (the twenty-second pass's
# rule), is one number of the function whatever its digits.
#
# The twenty-fifth pass: the comma (legacy) form is CSS Color 4's, where rgb() takes three
# numbers or three percentages and hsl() a saturation and a lightness in percent (in Chromium
# rgb(1%, 2, 3) and hsl(1, 2, 3) were invalid, and the colour stayed the inherited one: a value
# html() accepted that did not render); the space form takes either.  accent-color, the colour
# of the element's own checkboxes, radios and range, is added.
_STYLE_COLOURS = _names(
    """color background-color background border-color outline-color fill stroke
    border-top-color border-right-color border-bottom-color border-left-color stop-color
    flood-color lighting-color caret-color text-decoration-color column-rule-color
    accent-color"""
)
_STYLE_COLOUR = re.compile(r"#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})|[A-Za-z]+")
_COLOUR_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
_COLOUR_FUNCTION = re.compile(
    r"(?:[Rr][Gg][Bb][Aa]?\( *(?:{n} *, *{n} *, *{n}|{n}% *, *{n}% *, *{n}%)"
    r"|[Hh][Ss][Ll][Aa]?\( *{n}(?:deg)? *, *{n}% *, *{n}%)(?: *, *{n}%?)? *\)"
    r"|(?:[Rr][Gg][Bb][Aa]?\( *{n}%?|[Hh][Ss][Ll][Aa]?\( *{n}(?:deg)?)"
    r" +{n}%? +{n}%?(?: */ *{n}%?)? *\)".replace("{n}", _COLOUR_NUMBER)
)
_COLOUR_FIELD_BEFORE = "( ,/"
_COLOUR_FIELD_AFTER = re.compile(r"(?:%|deg)?(?:[ ,)/]|\Z)")
# A field may also be the whole value of one of a few properties that take keywords only,
# checked at render time against the property's own list: each sets that property alone,
# the element's own box and text (no position, no size past its box, nothing loaded).
_STYLE_KEYWORDS = {
    "text-align": _names("left right center justify start end"),
    "font-weight": _names("normal bold bolder lighter 100 200 300 400 500 600 700 800 900"),
    "font-style": _names("normal italic oblique"),
    "visibility": _names("visible hidden collapse"),
    "white-space": _names("normal nowrap pre pre-wrap pre-line break-spaces"),
    "vertical-align": _names("baseline sub super text-top text-bottom middle top bottom"),
    "display": _names("none block inline inline-block flex inline-flex grid inline-grid"),
}
_COLOUR_NAMES = _names(
    """aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk
    crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
    darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen
    darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
    dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite
    gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki
    lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan
    lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen
    lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen
    magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen
    mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream
    mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
    powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown
    seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen
    steelblue tan teal thistle tomato transparent turquoise violet wheat white whitesmoke
    yellow yellowgreen"""
)
# Attributes that reach past the output's own elements, to the page's focus and the browser's
# saved data: a tabindex above 0 puts the element before all of the page's in the Tab order
# (in Chromium the first Tab from the page's start focused an output's tabindex="1" button,
# not the page's first input); an accesskey takes a key of the page's (the last element of a
# key in the page has it: in Chromium Alt+S clicked an output's button, or followed its link,
# after the page's own button of accesskey="s"); an autocomplete token chooses which saved
# data the browser offers to fill in the output's field (a card number, a password, a one-time
# code).  A value there is the whole attribute and one of these, or nothing (accesskey); in
# autocomplete it may also name a section (autocomplete="section-{x} email": a name that
# groups the output's own fields, the token kept whole by _TOKEN_LISTS).
_CHOICES = {
    "tabindex": ("-1", "0"),
    "autocomplete": ("on", "off"),
    "accesskey": (),
}
_CHOICE_HARM = {
    "tabindex": "a tabindex above 0 puts the element before all of the page's in the Tab "
    'order (in Chromium, the first Tab of the page focused an output\'s tabindex="1" button)',
    "autocomplete": "an autocomplete token chooses which of the user's saved data (a card "
    "number, a password, a one-time code) the browser offers to fill in the field",
    "accesskey": "an accesskey takes a key of the page's shortcuts (in Chromium Alt+S clicked "
    "an output's button after the page's own button of that key)",
}
# Enumerated attributes (the twenty-seventh pass): the value is one of the attribute's
# keywords, each of which the browser maps to a state of the element.  A field there is the
# whole value, and the value one of the keywords listed here, as written (in Chromium each
# reflected as itself: el.type, el.popover, el.dir...): the keywords that change the element
# alone.  Left out, as keywords a value may not choose: hidden="until-found" (the element's box
# stays painted, its content only hidden: in Chromium a hidden 50px box showed, and find-in-
# page reveals it), <input> types that load, submit, join a page-wide group or hold secrets
# (type="image" loads its src and submits its form on a click: in Chromium it requested the
# src and, clicked, submitted to the form's action; radio joins the page's group by name;
# submit, reset, button, file, password, hidden), and the referrer policies that send more
# than the default (unsafe-url and no-referrer-when-downgrade sent the notebook's whole URL,
# its ?token= too, to the image's host; origin and origin-when-cross-origin send the origin
# to http hosts).  Keys are (element, attribute), "" for any HTML element.  Other enumerated
# attributes (target, formtarget, method, enctype, crossorigin, contenteditable, shape...)
# stay off html()'s list, and the elements that load or run (script type, link rel, meta
# http-equiv, iframe sandbox) take no value at all.
_ENUMERATED: dict[tuple[str, str], tuple[str, ...]] = {
    ("", "dir"): ("ltr", "rtl", "auto"),
    ("", "draggable"): ("true", "false"),
    ("", "spellcheck"): ("", "true", "false"),
    ("", "translate"): ("", "yes", "no"),
    ("", "hidden"): ("", "hidden"),
    ("", "popover"): ("", "auto", "manual", "hint"),
    ("", "inputmode"): ("none", "text", "decimal", "numeric", "tel", "search", "email", "url"),
    ("", "enterkeyhint"): ("enter", "done", "go", "next", "previous", "search", "send"),
    ("", "loading"): ("lazy", "eager"),
    ("", "decoding"): ("sync", "async", "auto"),
    ("", "fetchpriority"): ("high", "low", "auto"),
    ("", "referrerpolicy"): (
        "",
        "no-referrer",
        "same-origin",
        "strict-origin",
        "strict-origin-when-cross-origin",
    ),
    ("", "scope"): ("row", "col", "rowgroup", "colgroup"),
    ("", "wrap"): ("soft", "hard"),
    ("ol", "type"): ("1", "a", "A", "i", "I"),
    ("button", "type"): ("button", "submit", "reset"),
    ("input", "type"): (
        *("text", "search", "tel", "url", "email", "number", "range", "date", "month"),
        *("week", "time", "datetime-local", "color", "checkbox"),
    ),
    ("details", "open"): ("", "open"),
    ("video", "preload"): ("none", "metadata", "auto"),
    ("audio", "preload"): ("none", "metadata", "auto"),
    ("track", "kind"): ("subtitles", "captions", "descriptions", "chapters", "metadata"),
}
# The enumerated attributes whose keywords the browser compares as written: <ol type="a">
# and type="A" are two styles.  The others' are ASCII case-insensitive (the twenty-eighth
# pass: in Chromium dir="RTL", type="SUBMIT", popover="Manual"... each reflected as the
# keyword in lower case, and wrap="HARD" wrapped a form's value as "hard" did, so a value may
# write one in any ASCII case).
_CASE_SENSITIVE = frozenset((("ol", "type"),))
# Why the keywords left out of an attribute's list may not come from a value.
_ENUMERATED_HARM = {
    "hidden": 'hidden="until-found" keeps the element\'s box painted, its content only hidden '
    "(in Chromium a hidden 50px box showed), and find-in-page reveals it",
    "type": 'an <input type="image"> loads its src and submits its form on a click (in '
    "Chromium it did both), radio joins the page's group of its name, password and file "
    "reach the user's secrets and files",
    "referrerpolicy": 'referrerpolicy="unsafe-url" (or no-referrer-when-downgrade) sends '
    "the notebook's whole URL, its ?token= too, to the host the element requests (in "
    "Chromium an image's host received it)",
}
# ARIA relations by which an element takes over another, named by id anywhere in the page (in
# Chromium's accessibility tree, aria-owns moved the page's element into the output's subtree
# and aria-activedescendant made it the output's focused item).  The others (labelledby,
# describedby, controls, details, flowto, errormessage) only read or point to it.
_ARIA_TAKING = {
    "aria-owns": "takes into its own accessibility subtree (aria-owns)",
    "aria-activedescendant": "announces as its focused item (aria-activedescendant)",
    # ARIA 1.3, in Chromium 156: the page's button became an action of the output's element,
    # which a screen reader offers to activate from there.
    "aria-actions": "offers as its own actions, for a screen reader to activate (aria-actions)",
}
# The aria-* attributes that take values: WAI-ARIA 1.2 and 1.3 states and properties, as
# Chromium 156 knows them (its own list, read from the browser; aria-labeledby is its alias),
# less the relations above.  Their values are tokens, numbers, text, or ids of elements that
# are only read or pointed to (labelledby, describedby, controls, details, errormessage,
# flowto).  An aria-* name off the list is refused: ARIA adds relations that act on the
# element they name (1.3 added aria-actions), which a deny-list would let in unseen.
_ARIA_ATTRIBUTES = _names(
    """aria-atomic aria-autocomplete aria-braillelabel aria-brailleroledescription aria-busy
    aria-checked aria-colcount aria-colindex aria-colindextext aria-colspan aria-controls
    aria-current aria-describedby aria-description aria-details aria-disabled
    aria-errormessage aria-expanded aria-flowto aria-haspopup aria-hidden aria-invalid
    aria-keyshortcuts aria-label aria-labelledby aria-labeledby aria-level aria-live
    aria-modal aria-multiline aria-multiselectable aria-orientation aria-placeholder
    aria-posinset aria-pressed aria-readonly aria-relevant aria-required aria-roledescription
    aria-rowcount aria-rowindex aria-rowindextext aria-rowspan aria-selected aria-setsize
    aria-sort aria-valuemax aria-valuemin aria-valuenow aria-valuetext"""
)
# Attributes whose value the browser splits at ASCII whitespace into a set of tokens, each of
# which may choose something of the page's: a class its CSS (and the scripts that select by
# class), an id of aria-labelledby/headers/for one of its elements, an autocomplete token what
# the browser fills in.  A field that continues a token of the template's own
# (class="level-{x}") may give the rest of that token, not tokens of its own: in Chromium
# x = "1 host-cover" also took the page's class that covers the page (in JupyterLab 4.6 an
# output took jp-LabShell, absolute with inset 0, and lm-Menu, z-index 10000, that way).
_TOKEN_LISTS = _names(
    """class accesskey autocomplete headers for role aria-labelledby aria-labeledby
    aria-describedby aria-controls aria-details aria-errormessage aria-flowto aria-relevant
    aria-keyshortcuts"""
)
# HTML's whitespace (what splits token lists, rel and class among them): Python's str.split()
# and str.strip() also take U+00A0, U+1C..U+1F..., which the browser keeps in a token.
ASCII_WHITESPACE = "\t\n\x0c\r "
_ASCII_WHITESPACE_RUN = re.compile("[\t\n\x0c\r ]+")
# ASCII case folding, as the browser compares keywords (target="_blank"): str.lower() also
# folds the Kelvin sign U+212A to "k", so "_blan\u212a" read as _blank, a named window to
# Chromium.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _keyword(value: str) -> str:
    """``value`` folded as the browser compares keywords: ASCII letters only."""
    return value.translate(_ASCII_LOWER)


def _tokens(value: str) -> set[str]:
    """The set of tokens the browser reads in ``value`` (rel="noopener noreferrer")."""
    return set(_ASCII_WHITESPACE_RUN.split(_keyword(value))) - {""}


# Bootstrap's data API, loaded by the pages notebooks are published in (pydata-sphinx-theme:
# Jupyter Book, the PyData projects' docs; Quarto; nbviewer had Bootstrap 3), acts on a click
# of an element with data-bs-toggle (data-toggle before Bootstrap 5) upon the element that its
# data-bs-target (or data-target, data-parent, else its href) selects anywhere in the page: in
# Chromium, with pydata-sphinx-theme 0.24's Bootstrap, data-bs-target="#host-note" collapsed
# the page's element.  data-bs-* is Bootstrap's own namespace (commands, selectors, settings);
# the same data API takes its target from data-target or href on every element that triggers
# it (a carousel's slide controls and dismiss buttons too, a scrollspy), and before Bootstrap 5
# these attributes had no bs- in their names.
_BOOTSTRAP_TRIGGERS = _names(
    """data-bs-toggle data-bs-slide data-bs-slide-to data-bs-dismiss data-bs-spy
    data-toggle data-slide data-slide-to data-dismiss data-spy data-ride"""
)
_BOOTSTRAP_SELECTORS = frozenset(("data-target", "data-parent", "href"))
# Bootstrap 3 and 4 (classic Notebook 6 and nbviewer load Bootstrap 3.4; Jupyter Book did
# Bootstrap 4 before pydata-sphinx-theme 0.10) take a component's options from every data-*
# attribute of the element that triggers it and of the element it acts on, by jQuery's
# data() (data-remote is the option remote), unprefixed.  So every data-* of an element with a
# trigger is an option, and these are options wherever they stand (a modal reads its own):
# a modal's remote URL, loaded into it and its scripts run (in Chromium, Bootstrap 3.4.1 with
# jQuery loaded the value's URL on a click and ran the page's script it served, both for
# data-remote on the button and on the modal), the HTML of a tooltip or popover and the
# switches of its sanitizer, and the selectors Bootstrap 3.3 read as HTML (CVE-2018-14042).
_BOOTSTRAP_OPTIONS = _names(
    """data-remote data-content data-template data-html data-sanitize data-sanitize-fn
    data-white-list data-whitelist data-allow-list data-allowlist data-container
    data-viewport data-selector data-original-title"""
)
# Elements whose attributes load or run something, or change the whole page (base, meta):
# no attribute of theirs takes a value.
_LOADING_ELEMENTS = _names(
    """base link meta script style iframe frame frameset object embed applet param portal
    """
)

UrlKind = Literal["link", "media", "filename"]
# (namespace, element, attribute) -> what the URL may be.  "link": a navigation on click
# (http, https, mailto, tel, relative; data: only for a download); "media": a resource shown
# as an image, audio or video (http, https, relative; data: raster images).  "filename": not a
# URL but the name a download is saved under (<a download>), judged on its final value too.
_URL_ATTRIBUTES: dict[tuple[str, str, str], UrlKind] = {
    (HTML_NS, "a", "href"): "link",
    (HTML_NS, "area", "href"): "link",
    (SVG_NS, "a", "href"): "link",
    (SVG_NS, "a", _XLINK_HREF): "link",
    (HTML_NS, "img", "src"): "media",
    (HTML_NS, "input", "src"): "media",
    (HTML_NS, "video", "src"): "media",
    (HTML_NS, "video", "poster"): "media",
    (HTML_NS, "audio", "src"): "media",
    (HTML_NS, "source", "src"): "media",
    (HTML_NS, "track", "src"): "media",
    (SVG_NS, "image", "href"): "media",
    (SVG_NS, "image", _XLINK_HREF): "media",
    (HTML_NS, "a", "download"): "filename",
    (HTML_NS, "area", "download"): "filename",
    # (a quotation's source: no browser loads or follows it, but a reader's tool may, so it
    # takes a link's schemes; the twenty-fourth pass)
    (HTML_NS, "blockquote", "cite"): "link",
    (HTML_NS, "q", "cite"): "link",
    (HTML_NS, "del", "cite"): "link",
    (HTML_NS, "ins", "cite"): "link",
}
# Attribute names that hold a URL somewhere: outside the pairs above they are refused with
# words about URLs (the list is for the message; anything unlisted is refused anyway).
_URL_NAMES = _names(
    """href src action formaction xlink:href poster background cite codebase data longdesc
    usemap ping manifest icon dynsrc lowsrc profile classid archive srcset imagesrcset
    content""",
    _XLINK_HREF,
)

_LINK_SCHEMES = frozenset(("http", "https", "mailto", "tel"))
_MEDIA_SCHEMES = frozenset(("http", "https"))
_RASTER_TYPES = _names(
    """image/png image/jpeg image/gif image/webp image/avif image/bmp image/x-icon
    image/vnd.microsoft.icon"""
)
_MEDIA_DATA_TYPES = _RASTER_TYPES | _names(
    "audio/mpeg audio/ogg audio/wav audio/webm video/mp4 video/webm video/ogg"
)
# What <a download href="data:..."> may hand to the user: data, never a document a browser
# would render (HTML, SVG, XML) if it were opened instead of saved.
_DOWNLOAD_TYPES = _RASTER_TYPES | _names(
    """text/plain text/csv text/tab-separated-values application/json
    application/octet-stream application/zip application/gzip application/vnd.ms-excel
    application/vnd.openxmlformats-officedocument.spreadsheetml.sheet
    application/vnd.apache.parquet application/x-parquet"""
)
# The extensions a value may give a download's file name (<a download="{name}">): data, as
# _DOWNLOAD_TYPES.  Chromium saves the file under the name as given, whatever the data's type
# (download="t.html" of data:text/csv saved t.html): a name ending .html, .svg, .xhtml... would
# be a document that runs its script when the user opens it, and .exe, .desktop... a program.
_DOWNLOAD_EXTENSIONS = _names(
    """txt csv tsv json jsonl ndjson log md png jpg jpeg gif webp avif bmp ico zip gz tgz
    parquet xls xlsx feather arrow npy npz"""
)
# What Chromium drops from the end of a download's name before it reads its extension
# ("t.html." is saved as t.html).  Trailing spaces and controls it turns into "_" instead
# ("t.html " is t.html_); they are dropped here too, so such a name is judged as ".html".
_NAME_END = ". \t\n\r\x0b\x0c"
# A character reference started in the static text and not finished before the field: the
# value's characters would continue it (&{v} with v = "#106;" is "j").  After "&" the
# tokenizer reads alphanumerics (named reference) or "#", "x", digits (numeric reference).
_OPEN_REFERENCE = re.compile(r"&(?:#[xX]?[0-9A-Fa-f]*|[A-Za-z0-9]*)\Z")
# The element a fragment starting with these tags is written for (the parser drops them
# anywhere else): the context of the fragment parsing algorithm.
_CONTEXTS = {"tr": "tbody", "td": "tr", "th": "tr", "col": "colgroup"} | dict.fromkeys(
    ("tbody", "thead", "tfoot", "caption", "colgroup"), "table"
)
_FIRST_TAG = re.compile(r"\s*<([A-Za-z][^\s/>]*)")
_REPARSED_TAG = re.compile(r"(</?)(select|isindex)(?=[\s/>])", re.IGNORECASE)
_NOSCRIPT = re.compile(r"<noscript", re.IGNORECASE)
# Appended to a page the structural check reads: a comment node of its own only if the page
# ends in element text (a trusted <script> left open would hold it as text, and would hold
# whatever is joined after the result).  In the canonical form only a comment writes "<!--".
_END = "<!--ipy-end-->"
_REPARSED = {"x-select": "select", "x-isindex": "isindex"}  # their names in messages
_URL_CONTROLS = "".join(map(chr, range(33)))
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")


@dataclass(frozen=True)
class Slot:
    """What one field may hold: its kind, and why an escaped or a trusted value is refused."""

    kind: Literal["text", "rcdata", "foreign", "attribute", "url", "refused"]
    text_refusal: Refusal | None  # refusal for an escaped (plain) value, if any
    trusted_refusal: Refusal | None  # refusal for trusted HTML (__html__, a nested template)
    url: int  # index into Plan.urls, or -1
    keeps_nul: bool = False  # NUL in this element's text becomes U+FFFD (foreign content)
    # The field continues a token the template writes in a token-list attribute
    # (class="level-{x}"): a value with ASCII whitespace would add tokens of its own.
    continues_token: bool = False
    paint: bool = False  # the field is in an svg paint (fill, stroke): see _PAINT_VALUE
    choice: str = ""  # the field is a whole tabindex or autocomplete: see _CHOICES
    # "id" or "name": the field is in one after a prefix without a separator (a number only);
    # "style": the field is the number of a size in a style attribute (see _STYLE_NUMBERS);
    # "svg": it is in an svg opacity or offset (see _SVG_NUMBERS)
    number: str = ""
    colour: bool = False  # the field is a colour in a style attribute: see _STYLE_COLOURS
    keywords: tuple[str, ...] = ()  # it is a keyword of these properties: see _STYLE_KEYWORDS
    svg: str = ""  # the attribute's svg grammar (see _SVG_GRAMMARS), or ""
    # the field is the whole value of this (element, attribute), one of _ENUMERATED
    enumerated: tuple[str, str] | None = None


@dataclass(frozen=True)
class UrlCheck:
    """A URL attribute holding fields: its decoded static text and field indexes, in order."""

    pieces: tuple[str | int, ...]
    kind: UrlKind
    download: bool  # the element has a download attribute (data: downloads allowed)
    element: str
    attribute: str
    # the download's file name is the URL's last part (a download attribute with no name)
    named_by_url: bool = False
    # the download attribute's static text and field indexes, when a field gives some of it
    download_name: tuple[str | int, ...] = ()

    def names_the_download(self, raws: Sequence[str]) -> bool:
        """Whether the browser saves the download under the URL's last part, with ``raws``
        the fields' values: the download attribute gives no name (``download``,
        ``download=""``, or ``download="{name}"`` with a blank value)."""
        if not self.download_name:
            return self.named_by_url
        name = "".join(p if isinstance(p, str) else raws[p] for p in self.download_name)
        return not name.strip(ASCII_WHITESPACE)

    @property
    def fix(self) -> str:
        """How to write the attribute so that its value passes."""
        if self.kind == "filename":
            return 'End the name with a fixed extension in the template: download="{name}.csv"'
        return (
            "Check the value, or start the URL with a fixed scheme in the template: "
            'href="https://{host}/..."'
        )


@dataclass(frozen=True)
class Plan:
    """Everything html() needs about one template's static strings."""

    slots: tuple[Slot, ...]
    urls: tuple[UrlCheck, ...]
    comments: str  # probe B: the template with a comment holding a placeholder per field
    token: re.Pattern[str]  # the placeholder (group 1: the field's index)
    context: str  # the element the skeleton is parsed in ("div", or "tbody" for a <tr>...)
    # Why the template may not end where it does (inside a tag, a comment, a <script>...):
    # what is joined after the result (result + text, Markup("").join) would be read there.
    ending: Refusal | None = None
    # The text directly in each element holding fields that MathJax reads (not <pre>,
    # <code>...): its static pieces and field indexes, joined in html() and checked whole.
    texts: tuple[tuple[str | int, ...], ...] = ()

    def skeleton(self, reading: Reading) -> Skeleton:
        """Probe B's canonical parse read this way: static text, and (field, form) where a
        value goes: form "node" stands in element content, "value" in an attribute value or
        RCDATA text.  (A trusted value may bring a reading the template alone did not need.)"""
        return _skeleton(reading, self.comments, self.token, self.context)[0]


# --- html5lib, loaded on first use -----------------------------------------------------


@lru_cache(maxsize=1)
def _html5lib() -> tuple[Any, Any]:
    """html5lib's parser class and a tree builder that records foster-parented text."""
    import warnings

    with warnings.catch_warnings():
        # html5lib 1.1 (2020, its latest release) imports cleanly up to 3.14; should a newer
        # Python deprecate something it uses, that is html5lib's business, not the user's.
        warnings.simplefilter("ignore", DeprecationWarning)
        import html5lib
        from html5lib.constants import tableInsertModeElements
        from html5lib.html5parser import getPhases

    base = html5lib.getTreeBuilder("etree", fullTree=True)
    foreign_content = getPhases(False)["inForeignContent"]

    class ForeignContent(foreign_content):  # type: ignore[misc, valid-type]
        """Foreign content as the standard reads it now, and Chromium: an end tag ``</p>`` or
        ``</br>`` leaves svg/math, as a start tag ``<p>`` does (html5lib 1.1 stays inside).

        Chromium 156 read ``<svg></p><text><![CDATA[ > <style> ]]>{v}`` as a ``<p>``, a bogus
        comment and a ``<style>`` holding the value, where html5lib 1.1 read svg text after a
        CDATA section: the value, accepted as text, was CSS (and with ``<script>``, code).
        """

        __slots__ = ()

        def processEndTag(self, token: dict[str, Any]) -> Any:
            if token["name"] not in ("p", "br"):
                return super().processEndTag(token)
            self.parser.parseError("unexpected-end-tag", {"name": token["name"]})
            open_elements = self.tree.openElements
            while not (
                open_elements[-1].namespace == self.tree.defaultNamespace
                or self.parser.isHTMLIntegrationPoint(open_elements[-1])
                or self.parser.isMathMLTextIntegrationPoint(open_elements[-1])
            ):
                open_elements.pop()
            # Reprocessed by the rules of the insertion mode in HTML content (not dispatched
            # again: at an integration point an end tag would come back here).
            return self.parser.phase.processEndTag(token)

    class Parser(html5lib.HTMLParser):  # type: ignore[misc]
        """html5lib's parser with :class:`ForeignContent`."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.phases["inForeignContent"] = ForeignContent(self, self.tree)

    class Element(base.elementClass):  # type: ignore[misc, name-defined]
        """The etree builder's element, keeping the nodes inserted before a sibling.

        html5lib 1.1's etree element inserts such a node into the tree but not into its list
        of children, so moving the children elsewhere (the fragment's root into the result,
        the adoption agency) drops it: ``<table><h1>x`` parsed as a fragment lost the ``<h1>``
        the parser moved before the table (foster parenting), and with it every element of
        the template the page put there, unseen by the structural check.  (And with no
        sibling, in a fragment read in a table, it failed: the node goes last, as the standard
        says.)

        And it keeps the text the parser appends at its end in a list, joined when anything
        else touches the element, and at the end of the parse (:meth:`Builder.getDocument`):
        html5lib 1.1 adds each run of characters (a word, the spaces after it, an entity) to
        the text so far with ``+=``, which copies that text each time, so a text node of n
        words took time n² (trusted HTML of 160,000 words, in one ``<p>``: 24 s).
        """

        def __init__(self, name: str, namespace: str | None = None) -> None:
            super().__init__(name, namespace)
            self._pending: list[str] = []

        def flush_text(self) -> None:
            """Add the text appended since the last change to the element's tree."""
            if self._pending:
                text, self._pending = "".join(self._pending), []
                super().insertText(text)  # (where each piece would have gone: nothing moved)

        def insertText(self, data: str, insertBefore: Any = None) -> None:
            if insertBefore is None:
                self._pending.append(data)
            else:
                self.flush_text()
                super().insertText(data, insertBefore)

        def hasContent(self) -> bool:
            self.flush_text()
            return bool(super().hasContent())

        def appendChild(self, node: Any) -> None:
            self.flush_text()
            super().appendChild(node)

        def insertBefore(self, node: Any, refNode: Any) -> None:
            if refNode is None:
                self.appendChild(node)
                return
            self.flush_text()
            super().insertBefore(node, refNode)
            self._childNodes.insert(self._childNodes.index(refNode), node)

        def removeChild(self, node: Any) -> None:
            self.flush_text()
            super().removeChild(node)

        def reparentChildren(self, newParent: Any) -> None:
            self.flush_text()
            if isinstance(newParent, Element):
                newParent.flush_text()
            super().reparentChildren(newParent)

    class Builder(base):  # type: ignore[misc, valid-type]
        """The etree builder, noting text the parser moves out of a table (foster parenting)."""

        elementClass = Element

        def reset(self) -> None:
            super().reset()
            self.fostered: list[str] = []

        def insertText(self, data: str, parent: Any = None) -> None:
            if self.insertFromTable and self.openElements[-1].name in tableInsertModeElements:
                self.fostered.append(data)
            super().insertText(data, parent)

        def getDocument(self) -> Any:
            self.flush_text()
            return super().getDocument()

        def getFragment(self) -> Any:
            self.flush_text()
            return super().getFragment()

        def flush_text(self) -> None:
            """Add the text each element holds back (:class:`Element`) to the tree."""
            nodes = [self.document]
            while nodes:
                node = nodes.pop()
                if isinstance(node, Element):
                    node.flush_text()
                nodes.extend(node.childNodes)

    return Parser, Builder


def parse(
    source: str, *, container: str | None = "div", scripting: bool = True
) -> tuple[Any, list[str]]:
    """Parse as a browser: a fragment in ``container``, or a document; scripting on or off."""
    parser_class, builder = _html5lib()
    parser = parser_class(tree=builder, namespaceHTMLElements=True)
    try:
        if container is None:
            root = parser.parse(source, scripting=scripting)
        else:
            root = parser.parseFragment(source, container=container, scripting=scripting)
    except Exception as error:  # any failure of the parser, not of the page
        # html5lib 1.1 fails in a few corners of the standard it reads wrongly (an internal
        # check takes an svg <html> in a table for the root: <table><svg><template><html>).
        raise Unreadable(f"{type(error).__name__}: {error}") from None
    return root, parser.tree.fostered


class Unreadable(ValueError):
    """html5lib could not read the markup (it failed in its own code)."""


@dataclass(frozen=True)
class Reading:
    """One way a browser may read the page, each of which a field must be safe in.

    html5lib follows the standard as of 2020, which ignored most tags inside ``<select>``;
    browsers now parse its content as ordinary HTML (``<select><style>`` is a style sheet), and
    html5lib still rewrites the long-removed ``<isindex>`` into a form: ``modern`` renames both
    so that html5lib reads them as ordinary elements.  ``<noscript>`` is raw text with
    scripting on (a notebook) and markup with it off (``DOMParser`` in sanitizers, a page or an
    export viewed with JavaScript disabled, e-mail): ``<noscript><style></noscript>{x}``.
    """

    modern: bool = False
    scripting: bool = True

    def source(self, text: str) -> str:
        """``text`` as this reading gives it to html5lib."""
        return _REPARSED_TAG.sub(r"\1x-\2", text) if self.modern else text

    def parse(self, text: str, container: str | None) -> tuple[Any, list[str]]:
        """:func:`parse` of ``text`` read this way."""
        return parse(self.source(text), container=container, scripting=self.scripting)


def readings(text: str) -> tuple[Reading, ...]:
    """The readings ``text`` (a template's static text, or a page) must be safe in: more than
    one only where they differ (it has ``<select>``, ``<isindex>`` or ``<noscript>``)."""
    modern = (False, True) if _REPARSED_TAG.search(text) else (False,)
    scripting = (True, False) if _NOSCRIPT.search(text) else (True,)
    return tuple(Reading(m, s) for m in modern for s in scripting)


def _split_tag(tag: str) -> tuple[str, str]:
    if tag.startswith("{"):
        namespace, _, name = tag[1:].partition("}")
        return namespace, name
    return "", tag


def _escape_canonical(text: str) -> str:
    """Text as the canonical form writes it (placeholders, letters and digits, unchanged)."""
    # Escaping < and > keeps every "<...>" of the canonical form a tag, which mismatch needs.
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _canonical(root: Any, out: list[str]) -> None:
    """Write the tree as one string (iteratively: trusted HTML may nest thousands deep)."""
    # Each stack item is an element to open, or a string to write once its children are done.
    stack: list[Any] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        tag = item.tag
        if not isinstance(tag, str):  # ElementTree.Comment
            out.append(f"<!--{_escape_canonical(item.text or '')}-->")
            continue
        if tag == "<!DOCTYPE>":
            out.append(f"<!DOCTYPE {_escape_canonical(item.text or '')}>")
            continue
        out.append("<" + tag)
        for name in sorted(item.attrib):
            out.append(f' {name}="{_escape_canonical(item.attrib[name])}"')
        out.append(">" + _escape_canonical(item.text or ""))
        stack.append(f"</{tag}>")
        for child in reversed(item):
            stack.append(_escape_canonical(child.tail or ""))
            stack.append(child)


def canonical_fragment(
    source: str, context: str = "div", reading: Reading | None = None
) -> str | None:
    """The parse of ``source`` in a ``context`` element, as one string two parses share when
    they have the same tree (elements, attributes sorted, text and comments); or None when
    ``source`` ends inside a tag, a comment or a raw-text body, where what is joined after it
    would go."""
    marker = _END
    while marker in source:  # (a trusted value that writes it would pass for the end)
        marker = f"<!--ipy-end-{os.urandom(4).hex()}-->"
    root, _ = (reading or Reading()).parse(source + marker, context)
    if not _ends_in_text(root, marker[4:-3]):
        return None
    out: list[str] = []
    _canonical(root, out)
    text = "".join(out)
    end = text.rfind(marker)
    return None if end == -1 else text[:end] + text[end + len(marker) :]


def _ends_in_text(root: Any, marker: str) -> bool:
    """Whether the end marker (a comment, ``marker`` its text) is a comment of the tree, and
    not in a ``<script>`` or ``<style>`` of svg or math.

    Its characters may be in a tag's name instead (``<b`` + marker is an element
    ``b<!--ipy-end--``, whose canonical form writes them), where text joined after the
    page makes attributes.  And in foreign content a script or style is no raw text: "<!--"
    there is a comment, but the text joined after it is the body of a script (which JupyterLab
    runs in an output, as it runs every <script> of one) or a style sheet (the eighteenth pass:
    ``html(i"<p>{m}")`` with ``m = Markup("<svg><script>")`` was accepted, and
    ``result + text`` ran the text in Chromium)."""
    comments = [
        parent
        for node, parent in _walk(root)
        if not isinstance(node.tag, str) and node.text == marker and parent is not None
    ]
    return bool(comments) and _split_tag(comments[-1].tag)[1] not in _CODE_BODIES


# A complete start or end tag, plainly written: a name, then attributes whose values are
# quoted or plain words, apart by HTML's whitespace only (with U+000B or U+00A0, which Python's
# \s takes, "<a\vt='x><script>'>" would pass for one tag, where the tag ends at the first ">").
_PLAIN_TAG = re.compile(
    r"</?([A-Za-z][A-Za-z0-9-]*)"
    r"""(?:[\t\n\f\r ]+[^\t\n\f\r "'<>/=`]+"""
    r"""(?:[\t\n\f\r ]*=[\t\n\f\r ]*(?:"[^"]*"|'[^']*'|[^\t\n\f\r "'<>=`]+))?)*"""
    r"[\t\n\f\r ]*/?>"
)


def plainly_closed(trusted: str) -> bool:
    """Whether trusted HTML is text and plain tags only, of elements whose body is markup (no
    comment, no raw text or RCDATA, no <script> or <style> in svg or math either): it ends in
    element text wherever it stands, known without a parse (which costs ~0.2 ms a piece)."""
    position = trusted.find("<")
    while position != -1:
        tag = _PLAIN_TAG.match(trusted, position)
        if tag is None or _keyword(tag.group(1)) in _RAW_BODIES | _RCDATA_BODIES:
            return False
        position = trusted.find("<", tag.end())
    return True


# Chromium's parser nests elements at most 512 deep (kMaximumHTMLParserDOMTreeDepth): past
# that, a new element is put in its parent's parent, while text stays where it is.  html5lib
# has no limit, so there what html() reads is not the page Chromium builds: 520 levels down,
# <pre><span>$\href{javascript:...}{x}$</span></pre> had its <span> beside the <pre>, where
# MathJax typeset the value into a link that ran.  A result may nest half as deep; the page
# around an output (a notebook's own elements) takes the rest.
MAX_DEPTH = 256
_TAG_START = re.compile(r"<(/?)(!?)")


def depth(canonical: str) -> int:
    """How deep the elements of a canonical form (:func:`canonical_fragment`) nest."""
    deepest = level = 0
    for closing, other in _TAG_START.findall(canonical):  # (its text has every '<' escaped)
        if other:
            continue  # a comment or a doctype
        level += -1 if closing else 1
        deepest = max(deepest, level)
    return deepest


DEPTH_REFUSAL: Refusal = (
    f"nests elements more than {MAX_DEPTH} deep, and Chromium nests them at most 512 deep, "
    "page included: past that it puts an element beside its parent, not in it, so what "
    "html() checked is not what the browser builds (a <span> in a <pre> came out beside it, "
    "where MathJax typeset its text into a link)",
    "Render deep structures flat (a list with indentation in CSS), or cut them off in Python",
)


# --- reading where each placeholder landed --------------------------------------------


@dataclass(frozen=True)
class _Landing:
    where: Literal["tag", "attribute name", "attribute", "text", "comment", "doctype"]
    namespace: str
    element: str
    attribute: str
    attributes: tuple[str, ...]  # the element's attribute names (for download)
    value: str  # the decoded attribute value holding the placeholder
    kind: str = ""  # for a URL attribute: its UrlKind
    type: str = ""  # the element's type attribute (<input type="radio">), as written
    opener: bool = False  # following the element's link opens a tab holding window.opener
    typeset: bool = False  # text that MathJax reads as TeX where a page runs it (not <pre>...)
    named_download: bool = False  # the element's download attribute gives the file a name
    download_name: str = ""  # that attribute's text, when a field gives some of it


# The targets that navigate an existing browsing context (or none): any other opens, or finds,
# a named one.  Compared as Chromium does: only "_blank" exactly (case aside) is a new blank
# tab, " _blank" or "_new" name a window of that name, created on first use.
_SAME_CONTEXT_TARGETS = frozenset(("", "_self", "_parent", "_top", "_unfencedtop"))


def base_target(trusted: str) -> str | None:
    """The target of a ``<base>`` that trusted HTML brings, read alone (any reading), if any.

    The first ``<base target>`` of the page is every link's default target, the page's
    whole: html() judges a link's new tab by the template's own ``<base>``, so one in a trusted
    value is found here (the eighteenth pass: ``{m}<a href="{u}">`` with
    ``m = Markup('<base target="w">')`` opened the value's page in a tab holding
    window.opener, in Chromium, as the template's own base would)."""
    if "base" not in trusted.lower():
        return None
    for reading in readings(trusted):
        for element, _ in _walk(reading.parse(trusted, "div")[0]):
            if element.tag == f"{{{HTML_NS}}}base" and "target" in element.attrib:
                return str(element.attrib["target"])
    return None


@lru_cache(maxsize=256)
def opener_link(trusted: str, base_target: str | None) -> bool:
    """Whether trusted HTML, read alone (any reading), has a link (``a`` or ``area``, HTML or
    svg, with a URL) that a page's ``<base target="{base_target}">`` would open in a tab
    holding ``window.opener``.  (A result joined to one that brings such a base: the value's
    URL html() judged without it, the nineteenth pass.)  With ``base_target`` None, another
    piece animates a link's target (:func:`_animates_target`), over its own: any link."""
    for reading in readings(trusted):
        try:
            root, _ = reading.parse(trusted, "div")
        except Unreadable:  # (nothing is known of its links)
            return True
        for element, _ in _walk(root):
            if (
                isinstance(element.tag, str)
                and _split_tag(element.tag)[1] in ("a", "area")
                and ("href" in element.attrib or _XLINK_HREF in element.attrib)
                and (base_target is None or _opens_with_opener(element, base_target))
            ):
                return True
    return False


def animates_target(trusted: str) -> bool:
    """Whether HTML (trusted, or a template read with its placeholders), read alone (any
    reading), has an svg animation of a ``target``: see :func:`_animates_target`."""
    if "attributename" not in trusted.lower():
        return False
    for reading in readings(trusted):
        try:
            root, _ = reading.parse(trusted, "div")
        except Unreadable:  # (nothing is known of what it animates)
            return True
        if _animates_target(root):
            return True
    return False


def _animates_target(root: Any) -> bool:
    """Whether ``root`` has an svg animation (``<set>``, ``<animate>``) of an element's
    ``target``: it sets the target of an svg link, its parent's or any other's of the page
    that its href names by id, over the link's own.  (The twentieth pass, in Chromium:
    ``<a href="{u}" target="_blank"><set attributeName="target" to="w"/>`` opened the value's
    page in a tab holding window.opener, and so did a ``<set href="#l" ...>`` in another svg.
    Chromium reads attributeName as written; it is folded here all the same.)"""
    return any(
        isinstance(element.tag, str)
        and _split_tag(element.tag)[0] == SVG_NS
        and _keyword(element.attrib.get("attributeName", "").strip(ASCII_WHITESPACE)) == "target"
        for element, _ in _walk(root)
    )


def _opens_with_opener(element: Any, base_target: str) -> bool:
    """Whether following the link of ``element`` (a, area, svg a) opens a browsing context that
    gets a handle on the page (``window.opener``): a named target (``target="_new"``), or
    ``_blank`` with ``rel="opener"``, and no ``noopener``/``noreferrer`` in its rel.

    Measured in Chromium 156 (HTML and svg links alike): ``target="_blank"`` implies noopener;
    ``target="_new"``, ``target="results"``, ``target=" _blank"`` and a ``<base target>`` that
    names a window gave the new tab ``window.opener`` (and ``rel="noopener"`` took it away).
    """
    attributes = element.attrib
    target = _keyword(attributes.get("target", base_target))
    rel = _tokens(attributes.get("rel", ""))
    if target in _SAME_CONTEXT_TARGETS or rel & {"noopener", "noreferrer"}:
        return False
    return target != "_blank" or "opener" in rel


def _walk(root: Any) -> Iterator[tuple[Any, Any]]:
    """Every element with its parent (None for the root), in document order."""
    stack: list[tuple[Any, Any]] = [(root, None)]
    while stack:
        element, parent = stack.pop()
        yield element, parent
        stack.extend((child, element) for child in reversed(element))


def _direct_text(element: Any) -> str:
    """The text directly in ``element`` (its own and its children's tails), in order."""
    if element is None:
        return ""
    return (element.text or "") + "".join(child.tail or "" for child in element)


def _landings(root: Any, token: re.Pattern[str]) -> dict[int, list[_Landing]]:
    found: dict[int, list[_Landing]] = {}

    def note(text: str, landing: _Landing) -> None:
        for match in token.finditer(text):
            found.setdefault(int(match.group(1)), []).append(landing)

    # The page's default target for links: the first <base> with a target (the template's).
    bases = (
        element.attrib["target"]
        for element, _ in _walk(root)
        if element.tag == f"{{{HTML_NS}}}base" and "target" in element.attrib
    )
    base_target = next(bases, "")
    animated = _animates_target(root)  # (an svg animation may set any link's target)
    skipped: dict[int, bool] = {}  # id(element) -> its text is in an element MathJax skips
    direct: dict[int, str] = {}  # id(element) -> the text directly in it (each read once)

    def text_of(element: Any) -> str:
        if id(element) not in direct:
            direct[id(element)] = _direct_text(element)
        return direct[id(element)]

    for element, parent in _walk(root):
        tag = element.tag
        parent_ns, parent_name = _split_tag(parent.tag) if parent is not None else ("", "")
        in_skipped = parent is not None and skipped[id(parent)]
        # A text landing's value: all the text directly in the element that holds it, which
        # MathJax reads as one (the field's static neighbours might begin a command).
        tail_in = _Landing(
            "text", parent_ns, parent_name, "", (), text_of(parent), typeset=not in_skipped
        )
        if not isinstance(tag, str):
            note(element.text or "", _Landing("comment", "", "", "", (), ""))
            note(element.tail or "", tail_in)
            continue
        if tag == "<!DOCTYPE>":
            note(element.text or "", _Landing("doctype", "", "", "", (), ""))
            for value in element.attrib.values():
                note(value, _Landing("doctype", "", "", "", (), ""))
            continue
        namespace, name = _split_tag(tag)
        name = _REPARSED.get(name, name)
        # (a class may name one MathJax processes anyway: <code class="math"> in Jupyter Book)
        skipped[id(element)] = in_skipped or (
            (namespace, name) in _TEX_SKIPPED and "class" not in element.attrib
        )
        note(name, _Landing("tag", namespace, name, "", (), ""))
        names = tuple(element.attrib)
        type_ = element.attrib.get("type", "")  # (a radio button joins a group by name)
        opener = name in ("a", "area") and (animated or _opens_with_opener(element, base_target))
        download = element.attrib.get("download", "")
        named = bool(token.sub("", download).strip(ASCII_WHITESPACE))
        given = download if token.search(download) else ""  # (a value may leave it blank)
        for attribute, value in element.attrib.items():
            note(attribute, _Landing("attribute name", namespace, name, attribute, names, ""))
            note(
                value,
                _Landing(
                    "attribute", namespace, name, attribute, names, value, "", type_, opener,
                    named_download=named, download_name=given,
                ),
            )  # fmt: skip
        text_in = _Landing(
            "text", namespace, name, "", (), text_of(element), typeset=not skipped[id(element)]
        )
        note(element.text or "", text_in)
        if parent is not None:
            note(element.tail or "", tail_in)
    return found


# --- the allow-list -------------------------------------------------------------------

_FIX_ATTRIBUTE = 'put the value inside a quoted value of an allowed attribute: title="{x}"'
_FIX_TEXT = "Put the field in element text (<span>{x}</span>) or a quoted attribute value"
_REFUSALS: dict[str, Refusal] = {
    "dropped": (
        "stands where the HTML parser keeps nothing of it (an end tag, a duplicate attribute, "
        "a misplaced element...), so its value would vanish or become markup",
        _FIX_TEXT,
    ),
    "uneven": (
        "stands where html5lib, which html() reads templates with, keeps it in a whole page "
        "but drops it from a fragment (a notebook's output) or the other way round (as a "
        "<table> opened inside a table's content), so where it stands is unknown",
        _FIX_TEXT,
    ),
    "tag": ("stands as (part of) a tag name", "Tag names cannot come from values; write the tag"),
    "attribute name": (
        "stands as (part of) an attribute name",
        f"Attribute names cannot come from values; {_FIX_ATTRIBUTE}",
    ),
    "comment": (
        "stands in an HTML comment",
        "A comment's text is never decoded, so the value would show escaped or end the "
        "comment; move the field out of the comment",
    ),
    "doctype": ("stands in a <!DOCTYPE>", "Move the field out of the declaration"),
    "unquoted": (
        "stands in an unquoted attribute value (or where the parser does not read an escaped "
        "value back as written)",
        'A space or > in the value would end it; write name="{x}"',
    ),
    "raw": (
        "stands where the parser reads text raw, without decoding character references (a "
        "CDATA section or a raw-text element), so no escaping keeps the value intact",
        _FIX_TEXT,
    ),
    "reference": (
        "follows an unfinished character reference (& in the static text right before the "
        "field), which the value's first characters would complete",
        "Write a literal & as &amp; in the template, or finish the reference with ;",
    ),
    "moved": (
        "stands in table structure (<table>, <tr>...), where the parser moves text out of the "
        "table",
        "Put the field in a cell: <td>{x}</td>",
    ),
    "trusted rcdata": (
        "is trusted HTML (it has __html__) in an element whose body is text only",
        "Pass plain text, so it gets escaped",
    ),
    "trusted foreign": (
        "is trusted HTML (it has __html__) inside svg/math content",
        "Pass plain text, so it gets escaped, or move the markup outside the svg/math element",
    ),
    "misnested": (
        "is trusted HTML (it has __html__) where the parser repairs misnested markup around "
        "it, so html() cannot verify that it keeps the page's structure",
        "Close the template's elements in order around the field, or pass plain text",
    ),
    "paint": (
        "stands in an svg fill or stroke, a CSS value, and holds other characters than a "
        "colour's or an id's (letters, digits, #, ., comma, space, _, +, -): it could write "
        "url(...), a paint server Chromium fetches from any address (in Chromium, "
        'fill="url(https://x.test/p.svg#g)" requested it), a URL html() never judged',
        'Pass a colour name or #hex, and write functions in the template: fill="rgb({r} {g} '
        '{b})", fill="url(#{id})"',
    ),
    "id": (
        "gives an id with nothing of the template's before it: the output's element may be the "
        "first of that id on the page, which the page's own references then find (in Chromium "
        "a button's form= submitted the output's form, popovertarget= showed its popover, a "
        "label clicked its control) and window names after it (a page script's window.config "
        "became the output's element: DOM clobbering)",
        'Start the id with a prefix of your own and a separator (id="row-{n}", '
        'id="chart:{name}"), or write the whole id in the template',
    ),
    "id number": (
        "gives the rest of an id whose prefix has no separator (-, :, .) and is no number: the "
        "prefix and the value may make any name (\"c\" + \"onfig\" is window.config, and the "
        "first element of an id on the page is the one the page's label for=, form=, "
        "popovertarget= find)",
        'Put a separator after the prefix (id="c-{x}"), or pass a number (id="c{n}")',
    ),
    "name": (
        "gives a name with nothing of the template's before it: the output's element may be "
        "the first of that name on the page, which the page's own lookups then find (in "
        "Chromium getElementsByName(\"csrf\") read the output's field, a link to #results "
        "went to the output's <a name>), and a form's fields are its properties by name "
        "(<input name=\"action\"> made the form's action, read by the page's script, the "
        "output's element; with form=\"login\" a field named \"next\" was sent with the "
        "page's form, before its own)",
        'Start the name with a prefix of your own and a separator (name="field-{x}", '
        'name="user[{x}]"), or write the whole name in the template',
    ),
    "style number": (
        "stands in a style attribute as the number of a size (width: {v}%) or of a colour "
        "(rgb({r}, 0, 0)) and is no plain number: its text is CSS, where a value could add "
        "any declaration (in Chromium \"1%; position: fixed; inset: 0; background: "
        "url(https://x.test/t)\" covered the page and requested the value's URL)",
        "Pass a non-negative number in digits (f\"{pct:.1f}\", not 1e-05, nan or -3), or "
        "choose among fixed styles with a class (class=\"level-{x}\")",
    ),
    "style colour": (
        "stands in a style attribute as a colour (background-color: {c}) and is no #hex, "
        "CSS colour name or rgb()/hsl() of numbers: its text is CSS, where a value could add "
        "any declaration (in Chromium \"red; position: fixed; inset: 0; background: "
        "url(https://x.test/t)\" covered the page and requested the value's URL)",
        "Pass \"#\" and 3, 4, 6 or 8 hex digits (f\"#{r:02x}{g:02x}{b:02x}\", or "
        "matplotlib.colors.to_hex(c)), a CSS colour name (\"teal\") or rgb(1, 2, 3) (or write "
        "rgb({r}, {g}, {b}) in the template), or choose among fixed styles with a class "
        "(class=\"level-{x}\")",
    ),
    "svg number": (
        "stands in an svg opacity or a stop's offset, a CSS value, and is no plain number: it "
        "could write a function whose value html() never sees (in Chromium "
        'stop-opacity="var(--x)" took the page\'s custom property)',
        'Pass a number (opacity="0.5", offset="40%"), or write the function in the template',
    ),
    "name number": (
        "gives the rest of a name whose prefix has no separator (-, :, ., [) and is no number: "
        "the prefix and the value may make any name (\"act\" + \"ion\" is the form's "
        "action, and the first element of a name on the page is the one the page's "
        "getElementsByName finds)",
        'Put a separator after the prefix (name="q-{x}"), or pass a number (name="q{n}")',
    ),
    "token": (
        "continues a token that the template writes in a token-list attribute (class, "
        "autocomplete, aria-labelledby...: class=\"level-{x}\") and holds whitespace, which "
        "would end that token and add tokens of the value's choosing (a class of the page's "
        "CSS: in Chromium class=\"level-1 host-cover\" took the page's class that covers it)",
        "Pass a value without spaces, or give the field whole tokens of its own "
        '(class="level {x}")',
    ),
    "tex": (
        "would make the text of its element TeX that MathJax typesets (a command such as "
        "\\href or \\style between math delimiters: $...$, \\(...\\), \\begin...\\end), "
        "joined with the text around it; MathJax, run over outputs by the pages notebooks are "
        "published in (Jupyter Book, nbsphinx, Quarto), makes markup of it: in Chromium "
        "$\\href{javascript:...}{x}$ became a link that ran script, and \\style{position: "
        "fixed...} covers the page",
        "Put the field in <code>{x}</code> or <pre>{x}</pre> (without a class), which MathJax "
        "skips, or in an element of its own apart from any $ of the template's",
    ),
    "tex join": (
        "is joined (+, *, .join(), escape()) into a page where the text of an element is TeX that "
        "MathJax typesets (a command such as \\href or \\style between math delimiters) that "
        "neither a template nor trusted HTML wrote (plain text joined is judged as a field's "
        "value is): the end of one result and the start of the "
        "next are one text to MathJax, so html(i\"<p>{a}\") + html(i\"{b}</p>\") with "
        "a = \"$\\href{javascript:...}{x}\" and b = \"$\", each accepted alone, made a link that "
        "ran script in Chromium",
        "Write the element in one i-string, whose fields html() reads together "
        '(html(i"<p>{a}{b}</p>")), or put such values in <code>{x}</code>, which MathJax skips',
    ),
    "trusted url": (
        "is trusted HTML (it has __html__) in a URL attribute (or a download's file name)",
        "Pass the URL as a plain string, so it is escaped and its scheme checked",
    ),
}


def _text_refusal(landing: _Landing) -> Refusal | None:
    if landing.namespace == HTML_NS:
        if landing.element in _CODE_BODIES:
            return (
                f"stands in a <{landing.element}> body",
                "No escaping makes a value safe inside code; pass data through a data-* "
                'attribute or a JSON <script type="application/json"> built with json.dumps '
                "and read it from there",
            )
        if landing.element in _RAW_BODIES:
            return (
                f"stands in a <{landing.element}> body, which the parser reads raw (no "
                "character references decoded) or not at all",
                _FIX_TEXT,
            )
        return None
    if (landing.namespace, landing.element) in _FOREIGN_TEXT:
        return None
    if landing.namespace in (SVG_NS, MATHML_NS):
        return (
            f"stands in the text of <{landing.element}> inside svg/math content, which html() "
            "allows only in text elements (svg text, tspan, textPath, title, desc; math mi, "
            "mo, mn, ms, mtext)",
            "Put the field in one of those, or in HTML text outside the svg/math element",
        )
    return None  # the fragment's root: top-level text


def _attribute_rule(landing: _Landing) -> UrlKind | Literal["plain"] | Refusal:
    namespace, element, name = landing.namespace, landing.element, landing.attribute
    where = f"in the attribute {name.rpartition('}')[2]!r} of <{element}>"
    if name.lower().startswith("on"):
        return (
            f"stands in the event-handler attribute {name!r}",
            "Its value is JavaScript, which no escaping makes safe; attach the handler in a "
            "script and pass the value in a data-* attribute",
        )
    if name == "style":
        return (
            "stands in a style attribute",
            "Its value is CSS, where a value could add any property (position: fixed...); "
            'choose among fixed styles with a class (class="level-{x}") or pass the value in '
            "a data-* attribute.  A number may be the whole number of a size, and a colour "
            "the whole value of a colour property, in plain declarations (style=\"width: "
            '{pct}%; background-color: {c}"; see docs/renderers.md)',
        )
    if name == "srcdoc":
        return (
            "stands in a srcdoc attribute",
            "Its value is a whole HTML document, parsed after unescaping; render the inner "
            "document with html() and show it another way",
        )
    if namespace == HTML_NS and element in _LOADING_ELEMENTS:
        return (
            f"stands {where}, an element that loads, runs or reconfigures something",
            "No attribute of it takes a value; write it in full in the template",
        )
    bootstrap = name.startswith("data-bs-") or name in _BOOTSTRAP_TRIGGERS or (
        name in _BOOTSTRAP_SELECTORS and not _BOOTSTRAP_TRIGGERS.isdisjoint(landing.attributes)
    )
    on_trigger = not _BOOTSTRAP_TRIGGERS.isdisjoint(landing.attributes)
    if not bootstrap and (
        name in _BOOTSTRAP_OPTIONS or (on_trigger and name.startswith("data-"))
    ):
        return (
            f"stands {where}, which Bootstrap 3 and 4 (loaded by classic Notebook 6, nbviewer "
            "and older Jupyter Book pages) read as an option of a component (every data-* of "
            "an element with data-toggle, and data-remote, data-content, data-template... "
            "anywhere): a modal's data-remote is a URL whose page it loads and runs (in "
            "Chromium, Bootstrap 3.4.1 ran the script of the value's page on a click), a "
            "tooltip's or popover's data-content and data-template are HTML",
            "Write Bootstrap's options in the template; keep values in a data-* attribute of "
            "an element without data-toggle, under a name of your own (data-note)",
        )
    if bootstrap:
        return (
            f"stands {where}, which Bootstrap (loaded by Jupyter Book, Quarto and other pages "
            "notebooks are published in) reads as a command or a selector: a click on a "
            "data-bs-toggle (or slide, dismiss) element collapses, shows, hides or moves the "
            "element its target selects, anywhere on the page",
            "Write Bootstrap's attributes, and the target of a toggle, in the template; pass "
            "values in another data-* attribute",
        )
    kind = _URL_ATTRIBUTES.get((namespace, element, name))
    if kind == "link" and landing.opener:
        return (
            f"stands {where}, a link that opens a new tab holding window.opener (its target "
            "names a window, not _blank, or its rel says opener, or an svg animation of the "
            "template's may set a link's target): the page the value names "
            "could navigate the notebook's tab away (reverse tabnabbing; in Chromium the new "
            "tab of target=\"_new\" held the notebook's window)",
            'Write target="_blank", or add rel="noopener" to the link in the template',
        )
    if kind is not None:
        return kind
    if name in _URL_NAMES:
        return (
            f"stands {where}, a URL html() cannot vouch for there (it may load, run or "
            "submit to what the value names)",
            "Values may form URLs only in a/area href (links) and img/video/audio/source/"
            "track src, video poster, svg a and image href; write this URL in the template",
        )
    if name.startswith("data-commandlinker-"):
        return (
            f"stands {where}, which JupyterLab reads as a command: clicking the element runs "
            "the JupyterLab command it names, with these arguments (console:inject runs code)",
            "Write the command and its arguments in the template; pass values in another data-* "
            "attribute",
        )
    if name in _ARIA_TAKING:
        return (
            f"stands {where}: it names by id an element that the output {_ARIA_TAKING[name]}, "
            "anywhere on the page (a screen reader then presents the page's element as part "
            "of the output)",
            "Write the id in the template, or use aria-labelledby/aria-describedby, which only "
            "read the element",
        )
    if name.startswith("data-") or name in _ARIA_ATTRIBUTES:
        return "plain"
    if name.startswith("aria-"):
        return (
            f"stands {where}, an aria-* attribute html() does not know: ARIA keeps adding "
            "relations by which an element acts on the one it names anywhere on the page "
            "(aria-actions, aria-owns), so only the known ones that read or point take values",
            "Use a known aria-* attribute (aria-label, aria-describedby...; see the html "
            "section of docs/renderers.md), or keep the value in a data-* attribute",
        )
    if namespace == HTML_NS and (element, name) in _NAMED_ON_DOCUMENT:
        return (
            f"stands {where}: the page's document takes the {name} of an <{element}> as a "
            f"property over its own (DOM clobbering: {name}=\"getElementById\" replaces "
            "document.getElementById for every script on the page, JupyterLab's too)",
            "Write the name in the template, or keep the value in a data-* attribute",
        )
    # (a radio button's type is static: a value in a type attribute is never "radio")
    group = {"details": "details", "input": landing.type.strip().lower()}.get(element, "")
    if namespace == HTML_NS and name == "name" and group in _PAGE_GROUPS:
        return (
            f"stands {where}: {_PAGE_GROUPS[group]}",
            "Write the name in the template (name=\"choice\"), so it names a group of the output",
        )
    if namespace == HTML_NS and name == "rel":
        return (
            f"stands {where}: a link's rel may say \"opener\", which gives the page a link or "
            "form opens in a new tab a handle on this one (in Chromium it navigated the "
            "notebook's tab away: reverse tabnabbing)",
            "Write rel in the template (rel=\"noopener noreferrer\")",
        )
    if namespace == HTML_NS and (element, name) in _REFERENCED_BY_PAGE:
        return (
            f"stands {where}: {_REFERENCED_BY_PAGE[element, name]}; a value would choose "
            "which element of the page this one serves",
            f"Write the {name} in the template, with the element that refers to it",
        )
    if namespace == HTML_NS and element == "label" and name == "for":
        return (
            f"stands {where}: a click on the label clicks the control with that id anywhere "
            "on the page, outside this output too",
            "Put the control inside the <label> (no for=), or write its id in the template",
        )
    if namespace == HTML_NS and (
        name in SAFE_ATTRIBUTES or _keywords_of(element, name, namespace) is not None
    ):
        return "plain"
    if namespace == SVG_NS and element == "svg" and name == "transform":
        return (
            "stands in the transform of an <svg> element, which moves and scales the whole "
            "drawing over the page around it (SVG 2 makes it a CSS transform of the box)",
            "Transform a <g> inside the svg (its drawing stays clipped to the svg's box): "
            '<svg><g transform="{x}">...</g></svg>',
        )
    if namespace == SVG_NS and name in _SVG_ATTRIBUTES and element not in _CODE_BODIES:
        return "plain"
    return (
        f"stands {where}, which is not on html()'s list of attributes that take values",
        "Use data-* or aria-*, or one of the listed plain attributes (title, class, id, alt, "
        "value...); see the html section of docs/renderers.md",
    )


@dataclass
class _Probes:
    """The template with each field replaced by a placeholder, a hostile value or a comment."""

    strings: tuple[str, ...]
    token: re.Pattern[str]  # a placeholder: group 1 is the field's index
    places: list[str]  # the placeholders, letters and digits only
    hostile: list[str]  # placeholder + _HOSTILE + placeholder, one per field

    @classmethod
    def make(cls, strings: tuple[str, ...]) -> _Probes:
        joined = "".join(strings).lower()
        nonce = "ipy"
        while nonce in joined:  # placeholders must not occur in the static text
            nonce = "ipy" + os.urandom(4).hex()  # (not secrets: it loads OpenSSL at import)
        places = [f"{nonce}f{i}e" for i in range(len(strings) - 1)]
        return cls(
            strings,
            re.compile(nonce + r"f(\d+)e"),
            places,
            [place + _HOSTILE + place for place in places],
        )

    def fill(self, values: list[str]) -> str:
        parts = [self.strings[0]]
        for value, string in zip(values, self.strings[1:]):
            parts += (value, string)
        return "".join(parts)

    def index(self, match: re.Match[str]) -> int:
        return int(match.group(1))


@lru_cache(maxsize=256)
def analyse(strings: tuple[str, ...]) -> Plan:
    """Read where each field of ``strings`` stands and decide what it may hold."""
    count = len(strings) - 1
    from markupsafe import escape

    # One more placeholder after the static text, where the template ends: what is joined
    # after the result (result + text, Markup("").join(...)) is read there.
    probes = _Probes.make((*strings, ""))
    hostile_text = [_escape_canonical(value) for value in probes.hostile]
    all_readings = readings("".join(strings))

    landings: dict[int, list[_Landing]] = {}
    fostered: set[int] = set()  # escaped text here is moved out of a table
    unread: set[int] = set()  # an escaped value here does not read back as written
    landed: dict[tuple[Reading, str | None], set[int]] = {}  # the fields each parse kept
    deepest = 0  # how deep the template's elements nest
    context = _context_element(strings[0])
    containers = dict.fromkeys(("div", None, context))
    for reading, container in itertools.product(all_readings, containers):
        # "div": a notebook's innerHTML; None: a whole page; and the element the template's
        # first tag needs around it (a <tr> row is parsed in a <tbody>), which it will get
        # when a later html() puts it there.  A field must be allowed wherever it lands.
        probe_a = probes.fill(probes.places)
        probe_h = probes.fill([str(escape(value)) for value in probes.hostile])
        root_a, moved_text = reading.parse(probe_a, container)
        found_here = _landings(root_a, probes.token)
        landed[reading, container] = set(found_here)
        for index, found in found_here.items():
            landings.setdefault(index, []).extend(found)
        fostered.update(map(probes.index, probes.token.finditer("".join(moved_text))))
        # Probe H must parse as probe A with each placeholder replaced by the hostile value:
        # then no escaped value can end or change the context it stands in.
        canonical_a = _canonical_text(root_a)
        deepest = max(deepest, depth(canonical_a))
        expected = probes.token.sub(lambda m: hostile_text[probes.index(m)], canonical_a)
        got = _canonical_text(reading.parse(probe_h, container)[0])
        if got != expected:
            intact = re.compile(probes.token.pattern + re.escape(_escape_canonical(_HOSTILE)))
            differing = set(
                (Counter(intact.findall(expected)) - Counter(intact.findall(got))).elements()
            )
            # (Each field's hostile value that no longer reads back whole; if none, suspect all.)
            unread |= {int(i) for i in differing} or set(range(count + 1))
    ending = _ending_refusal(landings.get(count, []), count in unread)
    if ending is None and deepest > MAX_DEPTH:
        ending = DEPTH_REFUSAL  # (nested i-strings, flattened into one template, add up)
    # A field kept in a whole page but dropped from a fragment (a notebook's output), or the
    # other way round, stands where html5lib's two parsers disagree: html5lib 1.1 drops a
    # <table> opened inside a table from a fragment, which a browser keeps (and which the
    # structural check, reading the fragment, would not see).
    uneven = set().union(*(landed[r, "div"] ^ landed[r, None] for r in all_readings))
    if count == 0:
        return Plan((), (), "", probes.token, "div", ending)

    fields = dataclasses.replace(
        probes, strings=strings, places=probes.places[:-1], hostile=probes.hostile[:-1]
    )
    comments = fields.fill([f"<!--{p}-->" for p in fields.places])
    skeletons = [(reading, *_skeleton(reading, comments, probes.token, context))
                 for reading in all_readings]  # fmt: skip
    in_table = fostered | {
        i for _, _, places in skeletons for i, place in places.items() if place[2] in _TABLE_LIKE
    }
    faithful = all(
        _skeleton_is_faithful(fields, reading, skeleton, places, in_table, context)
        for reading, skeleton, places in skeletons
    )

    slots: list[Slot] = []
    urls: list[UrlCheck] = []
    url_indexes: dict[UrlCheck, int] = {}
    # The check of each URL attribute, made once: its fields share the attribute's landing
    # (one str object, whose hash is kept), so a URL of N fields costs one split, not N.
    url_of_landing: dict[tuple[Any, ...], int] = {}
    for index in range(count):
        slot, url = _decide(
            index, strings[index], landings.get(index, []), index in unread, probes.token
        )
        if index in uneven and slot.kind != "refused":
            slot, url = Slot("refused", _REFUSALS["uneven"], _REFUSALS["uneven"], -1), None
        if url is not None:
            # (one check per URL, not per field in it: a URL's fields are all checked at once)
            key = _url_check_key(url)
            if key not in url_of_landing:
                check = _url_check(url, probes.token)
                if check not in url_indexes:
                    url_indexes[check] = len(urls)
                    urls.append(check)
                url_of_landing[key] = url_indexes[check]
            slot = dataclasses.replace(slot, url=url_of_landing[key])
        if slot.kind == "text":
            # Trusted HTML may stand only where every reading has element content.
            forms = {places.get(index, ("value", "", ""))[0] for _, _, places in skeletons}
            slot = dataclasses.replace(
                slot,
                text_refusal=_REFUSALS["moved"] if index in in_table else None,
                trusted_refusal=None if faithful and forms == {"node"} else _REFUSALS["misnested"],
            )
        elif slot.kind == "attribute" and not faithful:
            slot = dataclasses.replace(slot, trusted_refusal=_REFUSALS["misnested"])
        slots.append(slot)
    # (<title> is never shown: MathJax's markup there is neither rendered nor clicked.  The
    # placeholder where the template ends stands for what is joined later: not a field.)
    # (Read once per text: the fields of one long text land there one by one.)
    typeset = {
        landing.value
        for found in landings.values()
        for landing in found
        if landing.where == "text"
        and landing.typeset
        and (landing.namespace, landing.element) != (HTML_NS, "title")
    }
    texts = {
        tuple(p for p in _split_fields(value, probes.token) if p != count) for value in typeset
    }
    return Plan(
        tuple(slots),
        tuple(urls),
        comments,
        probes.token,
        context,
        ending,
        tuple(sorted(texts, key=repr)),
    )


def _ending_refusal(found: list[_Landing], unread: bool) -> Refusal | None:
    """Why a template may not end where it does, or None when it ends in element text.

    The result is ``Markup``, which markupsafe (and Jinja, and this renderer) join with other
    text as it is: a template that ends inside a tag, an attribute value, a comment or a raw
    text body (``html(i'<a href="') + url``, ``html(i"<script>") + code``) would put what
    follows it there, escaped or not, unchecked.  Element text of any element is fine,
    RCDATA (``<textarea>``) too: escaped text cannot leave it.
    """
    inside = None if found else "a tag or an end tag, which the parser drops"
    for landing in found:
        if landing.where in ("tag", "attribute name"):
            inside = "a tag"
        elif landing.where == "attribute":
            name = landing.attribute.rpartition("}")[2]
            inside = f"the value of the attribute {name!r} of <{landing.element}>"
        elif landing.where in ("comment", "doctype"):
            inside = "a comment or declaration (<!--, <!, <?)"
        elif landing.element in ("script", "style") or (
            landing.namespace == HTML_NS and landing.element in _RAW_BODIES
        ):
            inside = f"a <{landing.element}> body"
    if inside is None and unread:
        inside = "a CDATA section or an unquoted attribute value"
    if inside is None:
        return None
    return (
        f"ends inside {inside}, so whatever is joined after its result (result + text, "
        'Markup("").join(...)) would be read there',
        "Close it in the same template",
    )


def _context_element(first: str) -> str:
    """The element the template's first tag is written for: "tbody" for a <tr>..., or "div"."""
    match = _FIRST_TAG.match(first)
    return _CONTEXTS.get(match.group(1).lower(), "div") if match else "div"


def _decide(
    index: int, before: str, found: list[_Landing], unread: bool, token: re.Pattern[str]
) -> tuple[Slot, _Landing | None]:
    """The slot of one field from where it landed; and its URL attribute, if it is in one."""

    def refused(why: Refusal) -> tuple[Slot, None]:
        return Slot("refused", why, why, -1), None

    if not found:
        return refused(_REFUSALS["dropped"])
    kind: Literal["text", "rcdata", "foreign", "attribute", "url"] = "text"
    url = None
    keeps_nul = False
    continues_token = paint = colour = False
    keywords: tuple[str, ...] = ()  # the properties whose keyword the field is (each reading)
    choice = svg = ""
    enumerated: tuple[str, str] | None = None  # (element, attribute): see _ENUMERATED
    number = ""  # the field is in an id or a name after a prefix without a separator
    for landing in found:
        if landing.where == "text":
            why = _text_refusal(landing)
            if why is not None:
                return refused(why)
            if landing.namespace == HTML_NS and landing.element in _RCDATA_BODIES:
                kind = "rcdata"
            elif landing.namespace in (SVG_NS, MATHML_NS):
                kind = "foreign"
                place = (landing.namespace, landing.element)
                keeps_nul = keeps_nul or place not in _INTEGRATION_POINTS
        elif landing.where == "attribute":
            style = _style_field(landing, index, token) if landing.attribute == "style" else ""
            if style:  # a number (_STYLE_NUMBERS), a colour (_STYLE_COLOURS) or a keyword
                kind = "attribute"
                number = "style" if style == "size" else number
                colour = colour or style == "colour"
                keywords += (style,) if style in _STYLE_KEYWORDS else ()
                continue
            rule = _attribute_rule(landing)
            if isinstance(rule, tuple):
                return refused(rule)
            why = _choice_refusal(landing, token)
            if landing.attribute == "id" or (
                landing.attribute == "name" and landing.namespace == HTML_NS
            ):
                numbered = _id_rule(landing, token)
                why = numbered if isinstance(numbered, tuple) else None
                number = number or (landing.attribute if numbered is True else "")
            if why is not None:
                return refused(why)
            if landing.attribute in _CHOICES and token.fullmatch(landing.value):
                choice = landing.attribute
            place = (landing.element, landing.attribute)
            if _keywords_of(*place, landing.namespace) is not None:
                if token.fullmatch(landing.value) is None:
                    return refused(_enumerated_words(place))
                enumerated = enumerated or place
            kind = "attribute" if rule == "plain" else "url"
            continues_token = continues_token or index in _token_continuations(landing, token)
            paint = paint or (landing.namespace == SVG_NS and landing.attribute in _PAINT)
            if landing.namespace == SVG_NS and landing.attribute in _SVG_NUMBERS:
                number = number or "svg"  # (a number as well in either case)
            if landing.namespace == SVG_NS:
                svg = svg or _SVG_KINDS.get(landing.attribute, "")
            if rule != "plain" and url is None:
                url = dataclasses.replace(landing, kind=rule)
        else:
            return refused(_REFUSALS[landing.where])
    if unread:
        return refused(_REFUSALS["unquoted" if kind in ("attribute", "url") else "raw"])
    if _OPEN_REFERENCE.search(before):
        return refused(_REFUSALS["reference"])
    trusted_refusal = {
        "text": None,
        "attribute": None,
        "rcdata": _REFUSALS["trusted rcdata"],
        "foreign": _REFUSALS["trusted foreign"],
        "url": _REFUSALS["trusted url"],
    }[kind]
    slot = Slot(
        kind,
        None,
        trusted_refusal,
        -1,
        keeps_nul,
        continues_token,
        paint,
        choice,
        number,
        colour,
        keywords,
        svg,
        enumerated,
    )
    return slot, url


def _style_field(landing: _Landing, index: int, token: re.Pattern[str]) -> str:
    """What field ``index`` stands for in ``landing``'s style attribute, the attribute holding
    plain declarations only: "size", the whole number of a size (width: {pct}%: see
    _STYLE_NUMBERS); "colour", the whole value of a colour property (color: {c}: see
    _STYLE_COLOURS); or "" (neither)."""
    declarations = landing.value.split(";")
    if landing.element in _LOADING_ELEMENTS or _STYLE_TEXT.fullmatch(landing.value) is None:
        return ""
    if not all(map(_balanced, declarations)):
        return ""
    for declaration in declarations:
        fields = [int(field.group(1)) for field in token.finditer(declaration)]
        if index not in fields:
            continue
        parsed = _STYLE_DECLARATION.fullmatch(declaration)
        if parsed is None:
            return ""
        name = _keyword(parsed.group(1))
        value = parsed.group(2).strip(ASCII_WHITESPACE)
        if name in _STYLE_COLOURS and _colour_numbers(value, token):
            return "size"  # a number of rgb({r}, {g}, {b}): the number rule
        field = token.match(value)  # the value starts with the field, then its unit
        unit = _keyword(value[field.end() :]) if field and len(fields) == 1 else None
        if name in _STYLE_NUMBERS and unit in _STYLE_UNITS:
            return "size"
        if name in _STYLE_KEYWORDS and unit == "":
            return name
        return "colour" if name in _STYLE_COLOURS and unit == "" else ""
    return ""


def _colour_numbers(value: str, token: re.Pattern[str]) -> bool:
    """Whether each field of ``value`` is one number of the colour function it writes
    (rgb({r}, {g}, {b}): see _COLOUR_FUNCTION), whatever digits the field holds."""
    if _COLOUR_FUNCTION.fullmatch(token.sub("0", value)) is None:
        return False
    return all(
        value[field.start() - 1] in _COLOUR_FIELD_BEFORE
        and _COLOUR_FIELD_AFTER.match(value, field.end()) is not None
        for field in token.finditer(value)
    )


def _balanced(text: str) -> bool:
    """Whether the parentheses of ``text`` close in order, each after it opens."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _id_rule(landing: _Landing, token: re.Pattern[str]) -> Refusal | bool:
    """For a field in an id or a name: its refusal if the template writes no prefix before
    it, else whether the value must be a number (the prefix holds no separator: see
    _ID_SEPARATOR, and the name's paragraph above it)."""
    prefix = token.split(landing.value, maxsplit=1)[0]
    if not prefix:
        return _REFUSALS[landing.attribute]
    return _ID_SEPARATOR.search(prefix) is None


def _choice_refusal(landing: _Landing, token: re.Pattern[str]) -> Refusal | None:
    """Why a field may not stand in ``landing``'s tabindex, autocomplete or accesskey: it may
    be the whole value of one of the first two (its text is checked against _CHOICES), or the
    name of an autocomplete section (autocomplete="section-{x} email", within its token)."""
    name = landing.attribute
    if landing.namespace != HTML_NS or name not in _CHOICES:
        return None
    if _CHOICES[name] and token.fullmatch(landing.value) is not None:
        return None
    if name == "autocomplete" and all(
        _keyword(landing.value[: field.start()]).endswith("section-")
        for field in token.finditer(landing.value)
    ):
        return None
    return _choice_words(name)


def _choice_words(name: str) -> Refusal:
    """The refusal of a value in ``name``, one of _CHOICES."""
    allowed = " or ".join(f'{name}="{choice}"' for choice in _CHOICES[name])
    return (
        f"stands in {name}, which reaches past the output's own elements: {_CHOICE_HARM[name]}",
        f"Let the value be the whole attribute and {allowed}"
        if allowed
        else f"Write the {name} in the template",
    )


def _keywords_of(element: str, name: str, namespace: str = HTML_NS) -> tuple[str, ...] | None:
    """The keywords a value may choose in the attribute ``name`` of ``element``, if it is
    one of _ENUMERATED (an HTML attribute)."""
    if namespace != HTML_NS:
        return None
    return _ENUMERATED.get((element, name), _ENUMERATED.get(("", name)))


def _is_keyword_of(place: tuple[str, str], text: str) -> bool:
    """Whether ``text`` is one of the keywords a value may choose in the enumerated attribute
    ``place`` (element, attribute), compared as the browser does (see _CASE_SENSITIVE)."""
    folded = text if place in _CASE_SENSITIVE else _keyword(text)
    return folded in (_keywords_of(*place) or ())


def _enumerated_words(place: tuple[str, str]) -> Refusal:
    """The refusal of a value in the enumerated attribute ``place`` (element, attribute)."""
    element, name = place
    harm = _ENUMERATED_HARM.get(name, "a value may choose only the keywords that change the "
                                "element alone")  # fmt: skip
    allowed = ", ".join(repr(keyword) for keyword in _keywords_of(element, name) or ())
    case = "as written" if place in _CASE_SENSITIVE else "in any ASCII case"
    return (
        f"stands in the attribute {name!r} of <{element}>, an enumerated attribute, and is not "
        f"the whole value or one of the keywords html() lets a value choose there: {harm}",
        f"Let the value be the whole attribute and one of {allowed} ({case}), or write "
        "the attribute in the template",
    )


def _token_continuations(landing: _Landing, token: re.Pattern[str]) -> frozenset[int]:
    """The fields that continue a token the template writes in ``landing``'s attribute, if it
    is a token list: a run of fields with static text other than whitespace right before or
    after it (class="level-{x}", class="{a}{b}-x"; not class="a {x}")."""
    if landing.attribute not in _TOKEN_LISTS:
        return frozenset()
    return _continuations_in(landing.value, token)


@lru_cache(maxsize=64)
def _continuations_in(value: str, token: re.Pattern[str]) -> frozenset[int]:
    """:func:`_token_continuations` of one attribute value, read once for all its fields
    (a class of N fields: one scan, not N)."""
    found: set[int] = set()
    for run in re.finditer(f"(?:{token.pattern})+", value):
        edges = value[run.start() - 1 : run.start()] + value[run.end() : run.end() + 1]
        if edges.strip(ASCII_WHITESPACE):
            found.update(int(match.group(1)) for match in token.finditer(run.group()))
    return frozenset(found)


def _skeleton_is_faithful(
    probes: _Probes,
    reading: Reading,
    skeleton: Skeleton,
    b_places: dict[int, tuple[str, str, str]],
    in_table: set[int],
    context: str,
) -> bool:
    """Whether the skeleton predicts the parse of the template filled with values exactly.

    Where the parser repairs misnested markup around a field it may not (text reopens
    formatting elements that a comment does not), and trusted HTML there cannot be verified.
    Fields in table structure keep their comment (trusted rows fit there, text would move).
    """
    from markupsafe import escape

    values = [
        f"<!--{place}-->" if index in in_table else str(escape(probes.hostile[index]))
        for index, place in enumerate(probes.places)
    ]
    plain = {}
    for i, value in enumerate(probes.hostile):
        _, namespace, name = b_places.get(i, ("", HTML_NS, ""))
        foreign = namespace in (SVG_NS, MATHML_NS) and (namespace, name) not in _INTEGRATION_POINTS
        plain[i] = (value, foreign)
    page = _canonical_text(reading.parse(probes.fill(values), context)[0])
    # Fields in table structure hold a comment here: whole nodes, as trusted rows would be.
    return mismatch(skeleton, plain, dict.fromkeys(in_table, False), page) is None


def _canonical_text(root: Any) -> str:
    out: list[str] = []
    _canonical(root, out)
    return "".join(out)


def _split_fields(value: str, token: re.Pattern[str]) -> tuple[str | int, ...]:
    """``value`` as its static pieces and the indexes of the fields between them."""
    pieces: list[str | int] = []
    for position, part in enumerate(token.split(value)):
        if position % 2:
            pieces.append(int(part))
        elif part:
            pieces.append(part)
    return tuple(pieces)


def _url_check_key(landing: _Landing) -> tuple[Any, ...]:
    """What :func:`_url_check` reads of ``landing``."""
    return (
        landing.value,
        landing.kind,
        landing.attributes,
        landing.element,
        landing.attribute,
        landing.named_download,
        landing.download_name,
    )


def _url_check(landing: _Landing, token: re.Pattern[str]) -> UrlCheck:
    return UrlCheck(
        _split_fields(landing.value, token),
        landing.kind,  # type: ignore[arg-type]
        "download" in landing.attributes,
        landing.element,
        landing.attribute.rpartition("}")[2],
        "download" in landing.attributes and not landing.named_download,
        _split_fields(landing.download_name, token) if landing.download_name else (),
    )


Skeleton = tuple[str | tuple[int, str], ...]


@lru_cache(maxsize=256)
def _skeleton(
    reading: Reading, source: str, token: re.Pattern[str], context: str
) -> tuple[Skeleton, dict[int, tuple[str, str, str]]]:
    """Probe B's canonical parse, cut where each field stands; and per field its form
    ("node": a comment in element content; "value": text of an attribute or RCDATA body),
    with the namespace and name of the element that holds it."""
    root, _ = reading.parse(source, context)
    places: dict[int, tuple[str, str, str]] = {}
    for element, parent in _walk(root):
        if not isinstance(element.tag, str):
            match = token.fullmatch(element.text or "")
            if match is not None:
                namespace, name = _split_tag(parent.tag)
                if parent is root:
                    namespace, name = HTML_NS, context
                places.setdefault(int(match.group(1)), ("node", namespace, name))
    text = _canonical_text(root)
    marker = re.compile(f"<!--({token.pattern})-->|&lt;!--({token.pattern})--&gt;")
    skeleton: list[str | tuple[int, str]] = []
    position = 0
    for match in marker.finditer(text):
        skeleton.append(text[position : match.start()])
        if match.group(1) is not None:
            skeleton.append((int(match.group(2)), "node"))
        else:
            index = int(match.group(4))
            skeleton.append((index, "value"))
            places.setdefault(index, ("value", "", ""))
        position = match.end()
    skeleton.append(text[position:])
    return tuple(piece for piece in skeleton if piece != ""), places


def _pieces(
    skeleton: Skeleton, plain: dict[int, tuple[str, bool]], trusted: set[int]
) -> Iterator[tuple[int, str | None]]:
    """The skeleton's pieces: (field or -1, canonical text, or None where a trusted value goes)."""
    for piece in skeleton:
        if isinstance(piece, str):
            yield -1, piece
            continue
        index, form = piece
        if index in trusted:
            yield index, None
            continue
        text, keeps_nul = plain[index]
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        # The parser drops NUL from HTML element content and turns it into U+FFFD elsewhere.
        text = text.replace("\0", "" if form == "node" and not keeps_nul else "\ufffd")
        yield index, _escape_canonical(text)


_CANONICAL_TAG = re.compile(r"<[^>]*>")


def _forest_end(page: str, start: int, follows: str) -> int:
    """Where a run of whole nodes starting at ``start`` ends with ``follows`` after it, or -1.

    The run may hold text and complete elements, never an end tag it did not open (which
    would close an element of the template) nor a start tag it leaves open.
    """
    depth, position = 0, start
    for tag in _CANONICAL_TAG.finditer(page, start):
        if depth == 0:
            found = page.find(follows, position, tag.start() + len(follows))
            if found != -1 and found <= tag.start():
                return found
        text = tag.group()
        if text.startswith("</"):
            depth -= 1
            if depth < 0:
                return -1
        elif not text.startswith("<!"):
            depth += 1
        position = tag.end()
    if depth == 0 and page.endswith(follows, position):
        return len(page) - len(follows)
    return -1


def mismatch(
    skeleton: Skeleton, plain: dict[int, tuple[str, bool]], trusted: dict[int, bool], page: str
) -> int | None:
    """Check a page's canonical parse against the skeleton; the field where it differs, or None.

    Plain values must stand exactly as their text; where a trusted value stands (``trusted``
    maps it to whether it is in an attribute) the page may hold any run of whole nodes (any
    text, in an attribute), so the template's own elements, attributes and values are all
    where it wrote them.
    """
    # Merge runs of literal text (joined once: adding each piece to the run copied the run
    # again, quadratic in a page of many plain fields); each trusted field is a gap between
    # them.  A run is known by its last field (or its first piece's, if it has no field).
    items: list[tuple[int, str | None]] = []
    run: list[str] = []
    run_index = -1
    for index, text in _pieces(skeleton, plain, set(trusted)):
        if text is None:
            if run:
                items.append((run_index, "".join(run)))
                run = []
            items.append((index, None))
            continue
        if not run or index >= 0:
            run_index = index
        run.append(text)
    if run:
        items.append((run_index, "".join(run)))
    position, last = 0, -1
    for number, (index, text) in enumerate(items):
        if index >= 0:
            last = index
        if text is not None:
            if not page.startswith(text, position):
                return last
            position += len(text)
            continue
        follows = ""
        if number + 1 < len(items):
            follows = items[number + 1][1] or ""
        if trusted[index]:  # in an attribute value: any text without a quote
            end = page.find(follows, position) if follows else len(page)
            if end == -1 or '"' in page[position:end]:
                return index
        else:
            end = _forest_end(page, position, follows)
            if end == -1:
                return index
        position = end
    return None if position == len(page) else last


def token_refusal(slot: Slot, *readings: str) -> Refusal | None:
    """Why a value the browser reads as ``readings`` (a trusted value's text, unescaped and
    as written) may not stand in ``slot``, if the slot continues a token of the template's
    (class="level-{x}") and the value would split it, or is an svg paint and the value holds
    more than a colour's or an id's characters, or is a whole tabindex or autocomplete (or
    an enumerated attribute, _ENUMERATED) and the value is none of its choices, or is in an
    id after a prefix without a separator and the value is no number (or a name's, an svg
    opacity's), or is a colour in a style attribute and the value is none (each reading must
    be one)."""
    if slot.colour and not all(map(_is_colour, readings)):
        return _REFUSALS["style colour"]
    for name in slot.keywords:
        if not all(_keyword(reading) in _STYLE_KEYWORDS[name] for reading in readings):
            return _keyword_words(name)
    text = "".join(readings)
    if slot.continues_token and any(space in text for space in ASCII_WHITESPACE):
        return _REFUSALS["token"]
    if slot.paint and _PAINT_VALUE.fullmatch(text) is None:
        return _REFUSALS["paint"]
    if slot.choice and text not in _CHOICES[slot.choice]:
        return _choice_words(slot.choice)
    if slot.enumerated and not _is_keyword_of(slot.enumerated, text):
        return _enumerated_words(slot.enumerated)
    if slot.number == "style" and _STYLE_NUMBER.fullmatch(text) is None:
        return _REFUSALS["style number"]
    if slot.number == "svg" and _SVG_NUMBER.fullmatch(text) is None:
        return _REFUSALS["svg number"]
    if slot.svg and not _of_svg_kind(slot.svg, text):
        return _svg_words(slot.svg)
    if slot.number in ("id", "name") and _NUMBER.fullmatch(text) is None:
        return _REFUSALS[f"{slot.number} number"]
    return None


def _of_svg_kind(kind: str, text: str) -> bool:
    """Whether ``text`` is of the svg attribute's grammar ``kind`` (see _SVG_KINDS)."""
    return _is_colour(text) if kind == "colour" else bool(_SVG_GRAMMARS[kind].fullmatch(text))


def _svg_words(kind: str) -> Refusal:
    """The refusal of a value that is not of its svg attribute's grammar ``kind``."""
    return (
        f"stands in an svg attribute that takes {kind}, a CSS value, and is not of that plain "
        "form: it could write a function whose value html() never sees (in Chromium "
        'stroke-width="var(--x)" took the page\'s custom property)',
        _SVG_EXAMPLES[kind] + ", or write the function in the template",
    )


def _is_colour(text: str) -> bool:
    """Whether ``text`` is a colour of the strict grammar of _STYLE_COLOUR (#hex or a name)
    or of _COLOUR_FUNCTION (rgb(), hsl()... of numbers)."""
    if _COLOUR_FUNCTION.fullmatch(text) is not None:
        return True
    return _STYLE_COLOUR.fullmatch(text) is not None and (
        text.startswith("#") or _keyword(text) in _COLOUR_NAMES
    )


def _keyword_words(name: str) -> Refusal:
    """The refusal of a value in a style attribute's ``name``, one of _STYLE_KEYWORDS."""
    return (
        f"stands in a style attribute as the value of {name} ({name}: {{v}}) and is none of "
        "its keywords: its text is CSS, where a value could add any declaration (in Chromium "
        '"red; position: fixed; inset: 0; background: url(https://x.test/t)" covered the '
        "page and requested the value's URL)",
        f"Pass one of {', '.join(sorted(_STYLE_KEYWORDS[name]))}, or choose among fixed "
        'styles with a class (class="level-{x}")',
    )


def top_text(fragment: str) -> str:
    """The text that trusted HTML puts directly in the element it stands in: its text outside
    any element of its own (through <br> and comments, as MathJax reads it)."""
    try:
        root, _ = parse(fragment)
    except Unreadable:  # (then all of it, markup and all, as the conservative reading)
        return fragment
    return _direct_text(root)


def tex_refusal(text: str) -> Refusal | None:
    """Why ``text`` may not be the text directly in an element MathJax reads, if it may not:
    MathJax, where a page runs it, would read a TeX command in math there (it reads an
    element's text as one string, across <br> and comments, and starts another at other tags).
    """
    if _TEX_COMMAND.search(text) is not None and _TEX_MATH.search(text) is not None:
        return _REFUSALS["tex"]
    return None


def _may_hold_tex(page: str) -> bool:
    """False when no text of ``page`` can be TeX that :func:`tex_refusal` refuses, told
    without a parse: the page's characters (written or as references, ``&bsol;``, ``&#36;``)
    do not hold a command and math.  (The parser keeps the order of the characters it puts in
    an element's text, moving table text before the table; tags only add characters.  A table
    of Windows paths, whose texts hold commands but no math, is not parsed again at each join.)"""
    return tex_refusal(html.unescape(page) if "&" in page else page) is not None


def _typeset_tex(page: str, reading: Reading) -> Counter[str]:
    """The texts of ``page`` (a fragment read ``reading``'s way) that MathJax would make
    markup of, counted: the text directly in each element it reads, the top level's too,
    that :func:`tex_refusal` refuses.  (Markup html5lib cannot read counts as one text.)"""
    try:
        root, _ = reading.parse(page, "div")
    except Unreadable:
        return Counter([page] if tex_refusal(page) else [])
    found: Counter[str] = Counter()
    skipped: dict[int, bool] = {}  # id(element) -> it is in an element MathJax skips
    for element, parent in _walk(root):
        if not isinstance(element.tag, str) or element.tag == "<!DOCTYPE>":
            continue
        namespace, name = _split_tag(element.tag)
        name = _REPARSED.get(name, name)
        skipped[id(element)] = (parent is not None and skipped[id(parent)]) or (
            (namespace, name) in _TEX_SKIPPED and "class" not in element.attrib
        )
        text = _direct_text(element)
        # (<title> is never shown, as in analyse())
        read = not skipped[id(element)] and (namespace, name) != (HTML_NS, "title")
        if read and tex_refusal(text) is not None:
            found[text] += 1
    return found


def join_refusal(page: str, pieces: Counter[str]) -> Refusal | None:
    """Why ``page``, the join of ``pieces`` (each counted as often as it is joined), may not
    be a result, if it may not: it has a text MathJax typesets into markup that no piece had
    (the end of one piece and the start of the next made it, or plain text brought it).
    ``pieces`` are the trusted ones (results, ``Markup``): the texts they had already (a
    template's own, or a trusted value's) are their author's, judged when they were made."""
    if not _may_hold_tex(page):  # (nearly every page: no parse)
        return None
    for reading in readings(page):
        new = _typeset_tex(page, reading)
        for piece, times in pieces.items() if new else ():
            for text, count in _typeset_tex(piece, reading).items():
                new[text] -= count * times
        if any(count > 0 for count in new.values()):
            return _REFUSALS["tex join"]
    return None


def url_refusal(check: UrlCheck, url: str) -> str | None:
    """Why ``url`` may not stand in ``check``'s attribute, or None when it may."""
    if check.kind == "filename":
        return filename_refusal(url)
    # What the URL parser looks at: leading and trailing C0 controls and spaces dropped, tabs
    # and newlines removed anywhere; the scheme is what precedes the first ":" if it is made
    # of scheme characters, else the URL is relative.
    text = url.strip(_URL_CONTROLS).translate({9: None, 10: None, 13: None})
    match = _SCHEME.match(text)
    if match is None:
        return None  # relative: a path, ?query, #fragment or //host (http or https)
    scheme = match.group(1).lower()
    allowed = _LINK_SCHEMES if check.kind == "link" else _MEDIA_SCHEMES
    if scheme in allowed:
        return None
    if scheme == "data":
        media_type = text[match.end() :].partition(",")[0].partition(";")[0]
        media_type = _keyword(media_type.strip(ASCII_WHITESPACE))
        if check.kind == "media" and media_type in _MEDIA_DATA_TYPES:
            return None
        if check.kind == "link" and check.download and media_type in _DOWNLOAD_TYPES | {""}:
            return None
        return (
            f"data: URL of type {media_type or 'text/plain'!r}, which html() allows only for "
            + (
                "raster images, audio and video"
                if check.kind == "media"
                else "downloads (<a download>) of data types (CSV, JSON, text, images...)"
            )
        )
    return f"{scheme}: URL, a scheme html() does not allow here"


def filename_refusal(name: str) -> str | None:
    """Why a download may not be saved under ``name``, or None when it may."""
    _, dot, extension = name.rstrip(_NAME_END).rpartition(".")
    if not name or (dot and extension.lower() in _DOWNLOAD_EXTENSIONS):
        return None  # (an empty name: the browser names the file, as for a bare download)
    shown = f"ending in '.{extension}'" if dot else "without an extension (the browser adds one)"
    return (
        f"file name {shown}, while html() allows only data extensions "
        f"({', '.join(sorted(_DOWNLOAD_EXTENSIONS))}): the file would be saved under it "
        "whatever the data's type, so a .html or .svg one runs its script when opened"
    )
