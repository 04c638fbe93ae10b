"""The ``html`` renderer: an i-string as HTML with every value escaped for where it stands.

``html(i"<p title='{title}'>{body}</p>")`` returns an :class:`HtmlMarkup`: a
:class:`markupsafe.Markup` (a ``str`` with ``__html__``) that a notebook shows as HTML.
Values are escaped by ``markupsafe.escape`` (``& < > ' "``); objects with ``__html__``
(``Markup``, an earlier ``html()`` result) are trusted and never escaped twice; a nested
i-string value is rendered with ``html`` too.
A conversion or spec applies first, as in an f-string (``{price:.2f}``, ``{obj!r}``), and the
result is then escaped like any text (so ``{m!s}`` escapes even a trusted value).

Refused, with the reason and the fix: a field in a ``<script>`` or ``<style>`` body, in an
``on*`` event attribute or ``srcdoc``, as an unquoted attribute value, as a tag or attribute
name, in a comment; a URL attribute (``href``, ``src``, ``action``...) whose value, with the
field, starts
``javascript:``, ``vbscript:`` or ``data:`` (other schemes pass).  A trusted value in a quoted
attribute may not contain that attribute's quote.

The static text is scanned once per distinct template (cached) by a small state machine that
follows the HTML tokenizer's states closely enough to know each field's context.
This module imports nothing from IPython.
"""

from __future__ import annotations

import html as _stdlib_html
import re
from functools import lru_cache
from typing import NamedTuple

from markupsafe import Markup, escape

from .fields import RenderError, field_text, format_field
from .template import as_template, is_template

__all__ = ["URL_ATTRIBUTES", "HtmlMarkup", "html"]

# Attributes whose value the browser treats as a URL (and so may run a javascript: one).
URL_ATTRIBUTES = frozenset(
    [
        "href",
        "src",
        "action",
        "formaction",
        "xlink:href",
        "poster",
        "background",
        "cite",
        "codebase",
        "data",
        "longdesc",
        "usemap",
        "ping",
        "manifest",
        "icon",
        "dynsrc",
        "lowsrc",
        "profile",
        "classid",
        "archive",
    ]
)
_BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
# Elements whose body the tokenizer reads as text up to the matching end tag.  In script and
# style the text is code, so no escaping can make a value safe there; in the others escaping
# works (a value's '<' becomes '&lt;' and cannot close the element).
_RAW_ELEMENTS = frozenset(
    [
        "script",
        "style",
        "textarea",
        "title",
        "xmp",
        "iframe",
        "noembed",
        "noframes",
        "noscript",
        "plaintext",
    ]
)
_CODE_ELEMENTS = frozenset(("script", "style"))
_SUPPORTED = "a conversion (!s, !r, !a) and any format spec the value's type accepts"

(
    _DATA,
    _TAG_OPEN,
    _TAG_NAME,
    _BEFORE_ATTR_NAME,
    _ATTR_NAME,
    _AFTER_ATTR_NAME,
    _BEFORE_ATTR_VALUE,
    _ATTR_DOUBLE,
    _ATTR_SINGLE,
    _ATTR_UNQUOTED,
    _COMMENT,
    _BOGUS_COMMENT,
    _RAW,
) = range(13)

_FIX_ATTRIBUTE = 'put the value inside a quoted attribute value (name="{x}")'
_WHERE = {
    _TAG_OPEN: ("as a tag name", "Tag names cannot come from values; write the tag"),
    _TAG_NAME: ("as (part of) a tag name", "Tag names cannot come from values; write the tag"),
    _BEFORE_ATTR_NAME: (
        "as an attribute name",
        f"Attribute names cannot come from values; {_FIX_ATTRIBUTE}",
    ),
    _ATTR_NAME: (
        "as (part of) an attribute name",
        f"Attribute names cannot come from values; {_FIX_ATTRIBUTE}",
    ),
    _AFTER_ATTR_NAME: (
        "as an attribute name",
        f"Attribute names cannot come from values; {_FIX_ATTRIBUTE}",
    ),
    _BEFORE_ATTR_VALUE: (
        "as an unquoted attribute value",
        'A value with a space or > would escape it; write name="{x}"',
    ),
    _COMMENT: (
        "in an HTML comment",
        "A comment's text is never unescaped, so the value would show escaped; move the "
        "field out of the comment",
    ),
    _BOGUS_COMMENT: (
        "in a <!...> or <?...> declaration",
        "Move the field out of the declaration",
    ),
    _ATTR_UNQUOTED: (
        "in an unquoted attribute value",
        'A value with a space or > would escape it; write name="{x}"',
    ),
}
_TAG_START = re.compile(r"[A-Za-z]")


class _Field(NamedTuple):
    refusal: tuple[str, str] | None  # (where, fix), or None when the field may go here
    quote: str  # the quote of the attribute value the field is in, or ''
    url_group: int  # index into _Plan.url_groups, or -1


class _Plan(NamedTuple):
    fields: tuple[_Field, ...]
    # Each URL attribute value holding fields: its static text and field indexes, in order.
    url_groups: tuple[tuple[str | int, ...], ...]


@lru_cache(maxsize=512)
def _plan(strings: tuple[str, ...]) -> _Plan:
    state = _DATA
    tag = ""  # the name of the tag being read
    end_tag = False
    attribute = ""  # the name of the attribute being read
    group: list[str | int] | None = None  # the URL attribute value being read, if any
    fields: list[_Field] = []
    url_groups: list[tuple[str | int, ...]] = []

    def close_group() -> None:
        nonlocal group
        if group is not None and any(isinstance(item, int) for item in group):
            # Merge runs of static characters, so that entities (&#106;) unescape whole.
            merged: list[str | int] = []
            for item in group:
                if isinstance(item, str) and merged and isinstance(merged[-1], str):
                    merged[-1] += item
                else:
                    merged.append(item)
            url_groups.append(tuple(merged))
        group = None

    for index, string in enumerate(strings):
        if index:
            position = index - 1
            refusal = _WHERE.get(state)
            quote = ""
            url_group = -1
            if state == _RAW and tag in _CODE_ELEMENTS:  # (in _RAW, tag is the element's)
                refusal = (
                    f"in a <{tag}> body",
                    "No escaping makes a value safe inside code; pass data through a "
                    'data-* attribute or a JSON <script type="application/json"> built '
                    "with json.dumps and read it from there",
                )
            elif state in (_ATTR_DOUBLE, _ATTR_SINGLE):
                quote = '"' if state == _ATTR_DOUBLE else "'"
                if attribute.startswith("on"):
                    refusal = (
                        f"in the event-handler attribute {attribute!r}",
                        "Its value is JavaScript, which no escaping makes safe; attach the "
                        "handler in a script and pass the value in a data-* attribute",
                    )
                elif attribute == "srcdoc":
                    refusal = (
                        "in a srcdoc attribute",
                        "Its value is a whole HTML document, parsed after unescaping; render "
                        "the inner document with html() and put that in a file or data: URL "
                        "you build yourself",
                    )
                elif group is not None:
                    group.append(position)
                    url_group = len(url_groups)
            fields.append(_Field(refusal, quote, url_group))
        i, n = 0, len(string)
        while i < n:
            c = string[i]
            if state == _DATA:
                if c == "<":
                    state = _TAG_OPEN
            elif state == _TAG_OPEN:
                if _TAG_START.match(c):
                    state, tag, end_tag = _TAG_NAME, c.lower(), False
                elif c == "/" and i + 1 < n and _TAG_START.match(string[i + 1]):
                    state, tag, end_tag = _TAG_NAME, "", True
                elif c == "/" and i + 1 == n:
                    pass  # '</' right before a field: the field would be the tag name
                elif string.startswith("!--", i):
                    state = _COMMENT
                    i += 2
                elif c in "!?/":
                    state = _BOGUS_COMMENT
                else:
                    state = _DATA
                    continue  # reconsider this character as text
            elif state == _TAG_NAME:
                if c in " \t\n\r\f/":
                    state = _BEFORE_ATTR_NAME
                elif c == ">":
                    state = _end_of_tag(tag, end_tag)
                else:
                    tag += c.lower()
            elif state in (_BEFORE_ATTR_NAME, _AFTER_ATTR_NAME):
                if c == ">":
                    state = _end_of_tag(tag, end_tag)
                elif c == "=" and state == _AFTER_ATTR_NAME:
                    state = _BEFORE_ATTR_VALUE
                elif c in " \t\n\r\f":
                    pass
                elif c == "/":
                    state = _BEFORE_ATTR_NAME
                else:
                    state, attribute = _ATTR_NAME, c.lower()
            elif state == _ATTR_NAME:
                if c in " \t\n\r\f":
                    state = _AFTER_ATTR_NAME
                elif c == "/":
                    state = _BEFORE_ATTR_NAME
                elif c == "=":
                    state = _BEFORE_ATTR_VALUE
                elif c == ">":
                    state = _end_of_tag(tag, end_tag)
                else:
                    attribute += c.lower()
            elif state == _BEFORE_ATTR_VALUE:
                if c in "\"'":
                    state = _ATTR_DOUBLE if c == '"' else _ATTR_SINGLE
                    group = [] if attribute in URL_ATTRIBUTES else None
                elif c == ">":
                    state = _end_of_tag(tag, end_tag)
                elif c not in " \t\n\r\f":
                    state = _ATTR_UNQUOTED
            elif state in (_ATTR_DOUBLE, _ATTR_SINGLE):
                if c == ('"' if state == _ATTR_DOUBLE else "'"):
                    state = _BEFORE_ATTR_NAME
                    close_group()
                elif group is not None:
                    group.append(c)
            elif state == _ATTR_UNQUOTED:
                if c in " \t\n\r\f":
                    state = _BEFORE_ATTR_NAME
                elif c == ">":
                    state = _end_of_tag(tag, end_tag)
            elif state == _COMMENT:
                if string.startswith("-->", i):
                    state = _DATA
                    i += 2
                elif string.startswith("--!>", i):
                    state = _DATA
                    i += 3
            elif state == _BOGUS_COMMENT:
                if c == ">":
                    state = _DATA
            else:  # _RAW: text up to </element followed by a space, / or >
                end = f"</{tag}"
                if (
                    c == "<"
                    and string[i : i + len(end)].lower() == end
                    and string[i + len(end) : i + len(end) + 1] in ("", " ", "\t", "\n", "/", ">")
                ):
                    state, end_tag = _TAG_NAME, True
                    i += len(end) - 1
            i += 1
    close_group()  # a template may end inside an attribute value (more text follows later)
    return _Plan(tuple(fields), tuple(url_groups))


class HtmlMarkup(Markup):
    """The result of :func:`html`: a ``markupsafe.Markup`` that a notebook shows as HTML.

    ``Markup`` gives ``__html__`` (trusted by markupsafe, Jinja and a later ``html()``);
    ``_repr_html_`` is what IPython's display looks for.
    """

    __slots__ = ()

    def _repr_html_(self) -> str:
        return str(self)


def _end_of_tag(tag: str, end_tag: bool) -> int:
    return _RAW if tag in _RAW_ELEMENTS and not end_tag else _DATA



def _scheme_text(url: str) -> str:
    # What the URL parser looks at: leading C0 controls and spaces dropped, tabs and newlines
    # removed anywhere, case folded.
    return url.lstrip("".join(map(chr, range(33)))).translate({9: None, 10: None, 13: None})


def html(template: object) -> HtmlMarkup:
    """Render an i-string as HTML, escaping each value for its place; returns ``Markup``.

    ``html(i"<b>{name}</b>")`` with ``name = "<Tom & Jerry>"`` → ``<b>&lt;Tom &amp; Jerry&gt;</b>``.
    """
    t = as_template(template, renderer="html")
    plan = _plan(t.strings)
    pieces = [t.strings[0]]
    raw_values: list[str] = []  # the text each value means once the browser unescapes it
    for position, (interpolation, field, string) in enumerate(
        zip(t.interpolations, plan.fields, t.strings[1:], strict=True), start=1
    ):
        if field.refusal is not None:
            where, fix = field.refusal
            raise RenderError(
                f"html(): {field_text(interpolation, position)} stands {where}. "
                f"{fix.replace('{x}', field_text(interpolation, position))}."
            )
        value = interpolation.value
        if interpolation.conversion is not None or interpolation.format_spec:
            text = str(escape(format_field(value, interpolation, position, "html", _SUPPORTED)))
        elif is_template(value):
            text = str(html(value))
        else:
            text = str(escape(value))
            if field.quote and hasattr(value, "__html__") and field.quote in text:
                raise RenderError(
                    f"html(): {field_text(interpolation, position)} is trusted HTML (it has "
                    f"__html__) inside a {field.quote}-quoted attribute value, and it contains "
                    f"{field.quote}, which would end the attribute. Pass plain text instead, "
                    "so it gets escaped."
                )
        if field.url_group >= 0:
            raw_values.append(_stdlib_html.unescape(text))
        else:
            raw_values.append("")
        pieces.append(text)
        pieces.append(string)
    for group in plan.url_groups:
        url = "".join(
            raw_values[item] if isinstance(item, int) else _stdlib_html.unescape(item)
            for item in group
        )
        scheme = _scheme_text(url).lower()
        if scheme.startswith(_BAD_SCHEMES):
            first = next(item for item in group if isinstance(item, int))
            shown = field_text(t.interpolations[first], first + 1)
            raise RenderError(
                f"html(): the URL attribute holding {shown} would start with "
                f"{scheme.split(':', 1)[0]}:, which can run script. Only other schemes pass "
                "(https:, mailto:, relative URLs...); check the value, or build the URL from "
                'a fixed scheme: href="https://{host}/...".'
            )
    return HtmlMarkup("".join(pieces))
