"""The ``html`` renderer: an i-string as HTML, each value allowed only where it is provably text.

``html(i"<p title='{title}'>{body}</p>")`` returns an :class:`HtmlMarkup`: a
:class:`markupsafe.Markup` (a ``str`` with ``__html__``) that a notebook shows as HTML.

Where each field stands is read by the WHATWG HTML parser (html5lib, in
:mod:`ipy_istring._html_contexts`) once per distinct static text, and a field is accepted only in
an allow-listed context:

* text of an ordinary HTML element, ``<textarea>``/``<title>`` bodies, and the text elements of
  svg/math (``<text>``, ``<mi>``...): the value is escaped by ``markupsafe.escape``;
* the quoted value of an allow-listed attribute (``title``, ``class``, ``alt``, ``value``...,
  ``data-*``, the ``aria-*`` of ARIA 1.2/1.3, svg geometry); URL attributes only where a URL is a
  link or an image (``a href``, ``img src``...), judged on the final value (static text and values
  joined, references decoded as the browser does): ``http``, ``https``, relative,
  ``mailto``/``tel`` for links, and ``data:`` for raster images or for downloads
  (``<a download>``) of data types; a download's file name (``<a download="{name}">``) must end
  in a data extension (``.csv``...); a value after the URL's first static text must stay in
  the part it stands in, as ada (a WHATWG URL parser) reads it (:mod:`ipy_istring._url_parts`:
  ``/users/{id}/avatar`` with ``id = "../admin"``, ``?q={q}`` with ``q = "a&b=c"`` are refused).

Everything else is refused with the reason and the fix: ``<script>``/``<style>`` and other
raw-text bodies, comments, tag and attribute names, unquoted values, ``on*``, ``style`` (but
a size's number, ``width: {pct}%``, a colour, ``color: {c}`` (#hex, a name, or rgb()/hsl()
of numbers), a number in ``rgb({r}, {g}, {b})``, or a keyword of ``text-align``,
``font-weight``, ``display``..., in plain declarations),
``srcdoc``, the attributes of ``<iframe>``/``<base>``/``<meta>``/``<link>``..., attributes by
which the output acts on an element of the page it names (``<label for>``, ``form``,
``popovertarget``, ``aria-owns``, ``aria-actions``, the ``name`` of ``<details>`` and radio
buttons, whose groups span the page; Bootstrap's ``data-bs-*`` and the target of its toggles,
and Bootstrap 3/4's options: every ``data-*`` of a toggle, ``data-remote``, ``data-content``...),
text that MathJax, run over outputs by Jupyter Book, nbsphinx and Quarto pages, would typeset
into markup (the text of an element holding a TeX command and math delimiters:
``$\\href{javascript:...}{x}$``; in ``<code>``/``<pre>`` MathJax reads nothing; a join of
results with ``+``, ``*`` or ``.join()`` is checked the same way),
``rel`` (``opener``), the URL of a link that opens a tab
holding ``window.opener`` (``target="_new"``), a value that would complete a character reference
begun in the static text (``&{v}``), a value with whitespace that would end a token the template
begins in a token list and add its own (``class="level-{v}"`` with ``v = "1 jp-LabShell"``).
A field must be safe in every way a browser may read the page
(``<select>`` content as html5lib and as browsers now parse it, ``<noscript>`` with scripting on
and off).

The result is ``Markup``, joined as it is with what follows it, so the template must end in
element text (not inside a tag, attribute, comment or ``<script>``...), it is not a
format string (``%``, ``.format()`` and ``.replace()`` are refused), and a cut of it (a
slice, ``split()``, ``strip("<>")``...) is plain text.

A nested i-string is spliced into the outer template (its static text read by the parser in
the place it really stands, its fields checked like the outer's; up to 100 levels).  Trusted
values (``__html__``: ``Markup``, an earlier ``html()`` result) are inserted as written, in
element content (or, without quotes, in a plain attribute); a render holding one is parsed
again and compared with the template's own structure, so trusted HTML that opens, closes or
reorders elements around it is refused.
A plain value's text is the f-string's (:func:`~ipy_istring.fields.value_text`: a conversion
or spec applies first, ``{price:.2f}``, ``{obj!r}``, then ``format()``), read once as an exact
``str`` and escaped like any text (so ``{m!s}`` escapes even a trusted value).

This module imports nothing from IPython.
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Any, NoReturn, SupportsIndex

from markupsafe import Markup, escape

from .fields import field_text, format_field, refusal, value_text
from .template import as_template, is_template

# The context analysis (html5lib's parser, its tables) is loaded by the first html() call:
# loading the extension, which puts html in the namespace, need not pay for it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from . import _html_contexts as contexts

__all__ = ["URL_ATTRIBUTES", "HtmlMarkup", "html"]  # noqa: F822 (URL_ATTRIBUTES: __getattr__)


def __getattr__(name: str) -> Any:
    # URL_ATTRIBUTES, made on first use (kept for other modules and users): attributes whose
    # value the browser may treat as a URL; which take values, on which element, is decided
    # in _html_contexts.
    if name == "URL_ATTRIBUTES":
        from . import _html_contexts as contexts

        return frozenset(name for name in contexts._URL_NAMES if not name.startswith("{"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_SUPPORTED = "a conversion (!s, !r, !a) and any format spec the value's type accepts"
# Nested templates deeper than this are refused (instead of exhausting Python's stack).
MAX_NESTING = 100


class HtmlMarkup(Markup):
    """The result of :func:`html`: a ``markupsafe.Markup`` that a notebook shows as HTML.

    ``Markup`` gives ``__html__`` (trusted by markupsafe, Jinja and a later ``html()``);
    ``_repr_html_`` is what IPython's display looks for.
    """

    __slots__ = ()

    # A result ends in element text, and is joined without a parse (html() and the joins make
    # theirs with _result).  One built directly, HtmlMarkup(text), was taken for a result as
    # it is (the nineteenth pass: HtmlMarkup('<a href="') + "javascript:..." was a result
    # ending in the URL), so it is checked as trusted Markup joined to a result is.

    def __new__(
        cls, object: Any = "", encoding: str | None = None, errors: str = "strict"
    ) -> HtmlMarkup:
        made = super().__new__(cls, object, encoding, errors)
        if not isinstance(object, HtmlMarkup):
            _check_piece_end(str(made), "HtmlMarkup built directly (not by html())")
        return made

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # (a copy or pickle of a result is one: str's own would call HtmlMarkup(text))
        return _result, (str(self),)

    def striptags(self) -> str:
        """markupsafe's ``striptags`` (its text, not a result: no HtmlMarkup built of it)."""
        return Markup(self).striptags()

    def _repr_html_(self) -> str:
        return str(self)

    # Markup's formatting escapes the values and nothing more, so it would put them where
    # html() never read them: html(i"<script>var x = %s</script>") % "1; alert(1)" runs it,
    # html(i'<a href="%s">') % "javascript:..." links it.  A result is finished HTML.

    def __mod__(self, value: Any, /) -> NoReturn:
        raise _formatting_refusal("%")

    def format(self, *args: Any, **kwargs: Any) -> NoReturn:
        """Refused: a result is finished HTML (put values in the i-string's fields)."""
        raise _formatting_refusal(".format()")

    def format_map(self, mapping: Any, /) -> NoReturn:
        """Refused: a result is finished HTML (put values in the i-string's fields)."""
        raise _formatting_refusal(".format_map()")

    # .replace() is the other way to fill in a finished page: markupsafe escapes the new text
    # (or trusts it, an html(i"{url}") result too) and puts it wherever the old text stood:
    # html(i'<a href="URL">x</a>').replace("URL", "javascript:...") linked it in Chromium, and
    # replacing "\n" with Markup("<br>") would put <br> in attribute values and <textarea>s too.

    def replace(self, *args: Any, **kwargs: Any) -> NoReturn:
        """Refused: a result is finished HTML (put values in the i-string's fields)."""
        raise _formatting_refusal(".replace()")

    # Cutting a result can end it inside a tag, an attribute value or a <script> body, where
    # whatever is joined after it lands, unchecked: each row of a list cut to 60 characters
    # (out += row[:60]) ended in the title of its <li> when a value was long, and the next
    # row's value became attributes (onfocus ran in Chromium; the sixteenth pass).  So a cut
    # (slices, split, partition, removesuffix, translate, strip with characters to strip) is
    # plain text, escaped when joined to a result.  Stripping whitespace only removes text.

    def strip(self, chars: str | None = None, /) -> Any:
        return _result(str.strip(self)) if chars is None else str.strip(self, chars)

    def lstrip(self, chars: str | None = None, /) -> Any:
        return _result(str.lstrip(self)) if chars is None else str.lstrip(self, chars)

    def rstrip(self, chars: str | None = None, /) -> Any:
        return _result(str.rstrip(self)) if chars is None else str.rstrip(self, chars)

    # Joining results is how pages are composed (a template ends in element text for it), but
    # MathJax reads the text of an element as one, across the join: html(i"<p>{a}") +
    # html(i"{b}</p>") with a = "$\href{javascript:...}{x}" and b = "$", each accepted alone,
    # made a link that ran script.  A join (+ either side, *, .join()) is checked like a
    # template's text (Markup + result too: a subclass's own __radd__ goes first).
    # (Markup("").join() and Jinja make a plain Markup, which a notebook does not show as HTML.)

    @classmethod
    def escape(cls, s: Any, /) -> HtmlMarkup:
        """``markupsafe.escape(s)`` as a result, checked as a join of one piece: escaped text
        is still read by MathJax (``HtmlMarkup.escape("$\\href{javascript:...}{x}$")`` was a
        link that ran, the sixteenth pass), so it is judged as a field's value is."""
        return _checked_join([s])

    def __add__(self, other: Any, /) -> HtmlMarkup:
        if not _joinable(other):
            return NotImplemented
        return _checked_join([self, other])

    def __radd__(self, other: Any, /) -> HtmlMarkup:
        if not _joinable(other):
            return NotImplemented
        return _checked_join([other, self])

    def __mul__(self, times: SupportsIndex, /) -> HtmlMarkup:
        joined = _result(str.__mul__(self, times))
        _check_join(joined, Counter({str(self): operator.index(times)}))
        return joined

    __rmul__ = __mul__

    def join(self, pieces: Iterable[Any], /) -> HtmlMarkup:
        """``str.join``, each piece escaped unless trusted, the joined page checked."""
        between: list[Any] = []
        for piece in pieces:
            between += (self, piece) if between else (piece,)
        return _checked_join(between)

    # Padding with spaces only adds whitespace, as stripping only removes it; another fill
    # character is text html() never read where it lands: the right padding goes into the
    # text of the element the result leaves open (html(i"<p>{a}").ljust(n, "$") closed the
    # value's "$\href{javascript:...}{x}" into math for MathJax).

    def ljust(self, width: SupportsIndex, fillchar: str = " ", /) -> Any:
        """``str.ljust``: a result if it pads with spaces, else plain text."""
        if fillchar == " ":
            return _result(str.ljust(self, width))
        return str.ljust(self, width, fillchar)

    def rjust(self, width: SupportsIndex, fillchar: str = " ", /) -> Any:
        """``str.rjust``: a result if it pads with spaces, else plain text."""
        if fillchar == " ":
            return _result(str.rjust(self, width))
        return str.rjust(self, width, fillchar)

    def center(self, width: SupportsIndex, fillchar: str = " ", /) -> Any:
        """``str.center``: a result if it pads with spaces, else plain text."""
        if fillchar == " ":
            return _result(str.center(self, width))
        return str.center(self, width, fillchar)


# (str's own methods return a plain str.)  casefold() is no cut, but it folds characters a
# value may hold into ASCII letters (U+017F, long s, into s): "$\<U+017F>tyle{...}{x}$",
# no TeX command when html() read it, became "$\style{...}{x}$", an overlay to MathJax.
# The other case mappings remake the page's text the same way (the seventeenth pass; markupsafe
# gave a result, shown as HTML and trusted when joined): upper() and swapcase() fold U+017F
# and U+0131 (dotless i) into S and I, so a value "java<U+017F>cript:..." in <a href="{u}">,
# a relative URL when html() judged it, became a JAVASCRIPT: link that ran in Chromium; and
# lower(), capitalize() and swapcase() make MathJax's \begin...\end of a value's
# "\BEGIN{EQUATION}\HREF{...}...\END{EQUATION}", which MathJax (case-sensitive) left as
# text.  zfill() and expandtabs() remake text too (zeros after a leading sign, spaces for a
# tab the URL parser drops): no result keeps a method not shown to keep its page.
for _cut in (
    "__getitem__", "split", "rsplit", "splitlines", "partition", "rpartition", "removeprefix",
    "removesuffix", "translate", "casefold", "lower", "upper", "capitalize", "title",
    "swapcase", "zfill", "expandtabs",
):  # fmt: skip
    setattr(HtmlMarkup, _cut, getattr(str, _cut))


def _result(text: str) -> HtmlMarkup:
    """``text``, checked already by html() or a join, as a result (no check again)."""
    return str.__new__(HtmlMarkup, text)


# (a join's pieces with none need no parse: a <base> or an svg animation, which may set links'
# targets)
_BASE = re.compile("<base|attributename", re.IGNORECASE)


def _joinable(other: object) -> bool:
    """Whether markupsafe joins ``other`` to a result (text, escaped, or trusted HTML)."""
    return isinstance(other, str) or hasattr(other, "__html__")


def _checked_join(pieces: list[Any]) -> HtmlMarkup:
    """``pieces`` joined, each escaped unless trusted (read once), the joined page checked.

    The math a trusted piece (a result, ``Markup``) holds is its author's, judged when it was
    made; plain text was never judged, so it earns nothing: the sixteenth pass found
    ``html(i"<p>") + "$\\href{javascript:...}{x}$"`` accepted, as the piece "had" that math.
    """
    texts = [_piece_html(piece) for piece in pieces]
    for piece, (text, trusted) in zip(pieces, texts):
        if trusted and not isinstance(piece, HtmlMarkup):
            _check_piece_end(text, "trusted HTML joined to a result")
    based = _check_joined_base(pieces, texts)
    joined = _result("".join(text for text, _ in texts))
    _check_join(joined, Counter(text for text, trusted in texts if trusted))
    if not based:
        _WITHOUT_BASE[0] = joined
    return joined


# The last joined result known to hold no <base (held, so its id is not reused): out += row
# in a loop then scans only the new row for one, not the whole page again at each join.
_WITHOUT_BASE: list[object] = [None]


def _check_joined_base(pieces: list[Any], texts: list[tuple[str, bool]]) -> bool:
    """Refuse a join where one piece brings a ``<base target>`` naming a window and another
    has a link it would open in a tab holding ``window.opener``.

    A ``<base target>`` is the default target of every link of the page, wherever it stands:
    html() judges a link whose URL a value gives by the template's own base (and a trusted
    value's), but ``html(i'<base target="w">') + html(i'<a href="{u}">x</a>')`` joined the
    base to a link judged without it (the nineteenth pass: the value's page opened in a tab
    holding the notebook's window, in Chromium).  Returns whether a piece has ``<base``.
    """
    trusted = [
        text if is_trusted and piece is not _WITHOUT_BASE[0] else ""
        for piece, (text, is_trusted) in zip(pieces, texts)
    ]
    if not any(_BASE.search(text) for text in trusted):
        return False
    found = _base_over_links([text if is_trusted else "" for text, is_trusted in texts])
    if found is not None:
        raise _base_refusal("a join of results", found[1])
    return True


def _base_over_links(trusted: list[str]) -> tuple[int, str | None] | None:
    """The first piece of trusted HTML that brings a ``<base target>`` under which a link of
    another piece opens a tab holding ``window.opener``, and that target; or None.  (A result
    no longer tells which of its URLs a value gave, so every such link counts.)  A piece with
    an svg animation of a link's target counts with any link of another piece (target None:
    the twentieth pass, a ``<set href="#l" attributeName="target" to="w">`` in one svg gave
    the link #l of another the opener, in Chromium)."""
    from . import _html_contexts as contexts

    for index, text in enumerate(trusted):
        if not _BASE.search(text):
            continue
        target = contexts.base_target(text)
        if target is None and not contexts.animates_target(text):
            continue
        if any(
            other != index and link and contexts.opener_link(link, target)
            for other, link in enumerate(trusted)
        ):
            return index, target
    return None


def _base_refusal(subject: str, target: str | None) -> Exception:
    brings = (
        f'a <base target="{target}">, the default target of every link of the page,'
        if target is not None
        else "an svg animation of a link's target (<set attributeName=\"target\">), which "
        "sets the target of any link of the page it names,"
    )
    return refusal(
        "html",
        subject,
        f"has {brings} and a link of another piece (whose URL a value may give) that it would "
        "open in a new tab holding window.opener (reverse tabnabbing), which html() judged "
        "without it",
        'Write the target on the links in their templates (target="_blank"), and keep <base> '
        "and animations of target out of the output",
    )


def _piece_html(piece: Any) -> tuple[str, bool]:
    """A joined piece's HTML, read once, and whether it is trusted: markupsafe's escape(),
    with the question asked once (its own would ask again) and a plain piece's text read as
    html() reads a value's."""
    if hasattr(piece, "__html__"):
        return str(Markup(piece.__html__())), True
    return str(escape(_plain_text(piece))), False


def _check_piece_end(text: str, what: str) -> None:
    """Refuse trusted HTML joined to a result that would leave the joined result open.

    A result ends in element text (html() refuses a template, or a trusted value at its end,
    that does not), so text joined after it is text.  ``Markup`` joined to it is trusted as it
    is, but one that ends inside a tag, an attribute value, a comment or a ``<script>`` would
    make a result that takes what is joined next there, unchecked (the eighteenth pass:
    ``html(i"<p>") + Markup('<a href="')``, then ``+ url`` and ``+ Markup('">x</a>')``, made a
    ``javascript:`` link that ran in Chromium).
    """
    from . import _html_contexts as contexts

    if not contexts.plainly_closed(text) and _leaves_open(text):
        raise refusal(
            "html",
            what,
            "ends inside a tag, an attribute value, a comment or a <script>/<style> body, so "
            "a result holding it would too, and whatever is joined after that result "
            "(result + text) would be read there, escaped but unchecked",
            "Join complete fragments, or put the value in a field of one template: "
            'html(i\'<a href="{url}">x</a>\')',
        )


@lru_cache(maxsize=1024)
def _leaves_open(text: str) -> bool:
    """Whether trusted HTML, read alone as a fragment, ends elsewhere than in element text.
    (The result before it ends in element text, where such a piece ends as it does alone.)"""
    from . import _html_contexts as contexts

    for reading in contexts.readings(text):
        try:
            if contexts.canonical_fragment(text, "div", reading) is None:
                return True
        except contexts.Unreadable:
            return True
    return False


def _check_join(joined: str, pieces: Counter[str]) -> None:
    from . import _html_contexts as contexts

    why = contexts.join_refusal(joined, pieces)
    if why is not None:
        raise refusal("html", "a result", *why)


def _formatting_refusal(how: str) -> Exception:
    return refusal(
        "html",
        "a result",
        f"is finished HTML: formatting it with {how} would put values where html() never "
        "read them (in a <script>, a URL...), escaped but unchecked",
        'Put the values in the i-string\'s fields: html(i"<b>{value}</b>")',
    )


def html(template: object) -> HtmlMarkup:
    """Render an i-string as HTML, escaping each value for its place; returns ``Markup``.

    ``html(i"<b>{name}</b>")`` with ``name = "<Tom & Jerry>"`` → ``<b>&lt;Tom &amp; Jerry&gt;</b>``.
    """
    from . import _html_contexts as contexts
    from ._url_parts import FIX as url_fix
    from ._url_parts import part_refusal, saved_name

    t = as_template(template, renderer="html")
    strings, interpolations = _flatten(t.strings, t.interpolations)
    try:
        plan = contexts.analyse(strings)
    except contexts.Unreadable:
        raise refusal(
            "html",
            "the template",
            "has markup that html5lib, which html() reads templates with, cannot read (it "
            "fails in its own code), so where its fields stand is unknown",
            "Write the markup the usual way (close svg/math and table elements in order)",
        ) from None
    pieces = [strings[0]]
    raws = [""] * len(interpolations)  # each escaped value's text, unescaped
    trusted: dict[int, str] = {}  # field -> trusted HTML inserted as written
    for index, (interpolation, slot, string) in enumerate(
        zip(interpolations, plan.slots, strings[1:])
    ):
        value = interpolation.value
        if interpolation.conversion is not None or interpolation.format_spec:
            # The result is text, escaped like any (a __format__ that returns Markup is not
            # trusted HTML): format_field reads it as an exact str.
            value = format_field(value, interpolation, index + 1, "html", _SUPPORTED)
        if hasattr(value, "__html__"):
            text = _trusted_text(value, slot, interpolation, index)
            trusted[index] = text
        else:
            if slot.text_refusal is not None:
                raise refusal("html", field_text(interpolation, index + 1), *slot.text_refusal)
            # No check of the escaped text is needed here: the analysis parsed markupsafe's
            # escape of every special character in this very context and read it back.
            # The f-string's text of the value, read once as the exact str that is checked
            # and escaped (the sixteenth pass: read twice, a str() could change between).
            raw = value_text(value)
            splits = contexts.token_refusal(slot, raw)
            if splits is not None:
                raise refusal("html", field_text(interpolation, index + 1), *splits)
            text = str(escape(raw))
            raws[index] = raw
        pieces.append(text)
        pieces.append(string)
    if plan.ending is not None:
        raise refusal("html", "the template", *plan.ending)
    for check in plan.urls:
        first = next(piece for piece in check.pieces if isinstance(piece, int))
        url = "".join(piece if isinstance(piece, str) else raws[piece] for piece in check.pieces)
        why = contexts.url_refusal(check, url)
        if why is not None:
            _refuse_url(check, interpolations, first, f"would be a {why}", check.fix)
        if check.kind == "link" and check.names_the_download(raws):
            # <a href="/files/{p}" download>: the browser saves it under the URL's last part
            name = saved_name(check.pieces, raws)
            why = None if name is None else contexts.filename_refusal(name)
            if why is not None:
                _refuse_url(
                    check,
                    interpolations,
                    first,
                    f"would name the download (the last part of its path) a {why}",
                    "Give the file its name in the template: download=\"{name}.csv\", or end "
                    "the path with a fixed extension (href=\"/files/{name}.csv\")",
                )
        left = None if check.kind == "filename" else part_refusal(check.pieces, raws)
        if left is not None:
            field, why = left
            _refuse_url(
                check,
                interpolations,
                field,
                f"would be a {why}, to another path, host or parameter than the template's",
                url_fix,
            )
    _check_typeset(plan, interpolations, raws, trusted)
    result = "".join(pieces)
    if trusted:
        plain = {
            index: (raw, plan.slots[index].keeps_nul)
            for index, raw in enumerate(raws)
            if index not in trusted
        }
        _check_structure(interpolations, plan, result, plain, trusted)
        _check_trusted_base(interpolations, plan, trusted)
    return _result(result)


def _check_trusted_base(
    interpolations: Sequence[Any], plan: contexts.Plan, trusted: dict[int, str]
) -> None:
    """Refuse a trusted ``<base target>`` (or svg animation of a target: the twentieth pass)
    in a template where a value gives a link's URL, or
    where another trusted value has a link it would open with the opener (the nineteenth pass:
    ``html(i"{a}{b}")`` with ``a = html(i'<base target="w">')``, as their join is)."""
    from . import _html_contexts as contexts

    fields = list(trusted)
    found = _base_over_links(list(trusted.values()))  # (one trusted value's over another's)
    if found is not None:
        field = field_text(interpolations[fields[found[0]]], fields[found[0]] + 1)
        raise _base_refusal(f"{field}, trusted HTML,", found[1])
    if not any(check.kind == "link" for check in plan.urls):
        return
    for index, text in trusted.items():
        target = contexts.base_target(text)
        if target is not None or contexts.animates_target(text):
            brings = (
                f'a <base target="{target}">, the default target of every link of the page,'
                if target is not None
                else "an svg animation of a link's target, which sets the target of any "
                "link of the page it names (in Chromium, over the link's own _blank),"
            )
            raise refusal(
                "html",
                field_text(interpolations[index], index + 1),
                f"is trusted HTML with {brings} while a value gives the URL of a link of this "
                "template: it could open the value's page in a new tab holding window.opener "
                "(reverse tabnabbing), which html() judged without it",
                'Write the target on the link in the template (target="_blank"), and keep '
                "<base> and animations of target out of the output",
            )


def _plain_text(value: object) -> str:
    """A plain piece's text (joined to a result: ``str()``, as markupsafe's ``Markup + text``
    reads it), read once, as the exact ``str`` that is checked and escaped.

    ``str()`` may return a str subclass, which markupsafe's ``escape()`` would look at again:
    one with ``__html__`` it inserts as markup, of another it calls ``str()`` once more, which
    may give other text (the sixteenth pass: an object whose str() had ``__html__`` put an
    ``<img onerror>`` in ``<p>{name}</p>``, and a str whose ``__str__`` gave an https URL, then
    ``javascript:``, made such a link, both running in Chromium).  ``str.__str__`` copies the
    characters into a plain str.
    """
    return str.__str__(str(value))


def _check_typeset(
    plan: contexts.Plan, interpolations: Sequence[Any], raws: list[str], trusted: dict[int, str]
) -> None:
    """Refuse values that would make the text of an element TeX markup for MathJax.

    MathJax, which the pages notebooks are published in run over outputs, reads the text
    directly in an element as one string; a command between math delimiters there becomes
    markup (``$\\href{javascript:...}{x}$`` a link that runs script).  The text is judged
    whole, static pieces and values joined (of a trusted value, the text it puts there).
    """
    from . import _html_contexts as contexts

    texts: dict[int, str] = {}
    for group in plan.texts:
        fields = [piece for piece in group if isinstance(piece, int)]
        if not fields:
            continue
        for index in fields:
            if index in trusted and index not in texts:
                texts[index] = contexts.top_text(trusted[index])
        text = "".join(
            piece if isinstance(piece, str) else texts.get(piece, raws[piece]) for piece in group
        )
        why = contexts.tex_refusal(text)
        if why is not None:
            # The field to blame: the first whose value brings a backslash or a dollar.
            culprit = next(
                (i for i in fields if {"\\", "$"} & set(texts.get(i, raws[i]))), fields[0]
            )
            raise refusal("html", field_text(interpolations[culprit], culprit + 1), *why)


def _flatten(
    strings: tuple[str, ...], interpolations: Sequence[Any]
) -> tuple[tuple[str, ...], Sequence[Any]]:
    """Splice nested i-strings into one template: their static text becomes the outer's.

    Then the parser reads a nested template's fields in the context they really stand in, and
    the whole is analysed once per shape (cached) instead of re-parsed as trusted HTML.  A
    field with a conversion or spec is formatted, not spliced.
    """
    if not any(
        is_template(i.value) and i.conversion is None and not i.format_spec for i in interpolations
    ):
        return strings, interpolations
    flat_strings = [strings[0]]
    flat: list[Any] = []
    # Each level: the (field, following text) pairs left to read, and the text to append
    # after the level ends (the outer template's text after the nested field).
    stack: list[tuple[Iterator[tuple[Any, str]], str]] = [(zip(interpolations, strings[1:]), "")]
    while stack:
        pairs, after = stack[-1]
        pair = next(pairs, None)
        if pair is None:
            stack.pop()
            flat_strings[-1] += after
            continue
        interpolation, following = pair
        value = interpolation.value
        if (
            is_template(value)
            and interpolation.conversion is None
            and not interpolation.format_spec
        ):
            if len(stack) > MAX_NESTING:
                raise refusal(
                    "html",
                    field_text(interpolation),
                    f"nests i-strings more than {MAX_NESTING} deep",
                    "Build deep structures in a loop and join the parts with a result's .join(), "
                    'which checks the joined page: html(i"").join(parts)',
                )
            inner = as_template(value, renderer="html")
            flat_strings[-1] += inner.strings[0]
            stack.append((zip(inner.interpolations, inner.strings[1:]), following))
        else:
            flat.append(interpolation)
            flat_strings.append(following)
    return tuple(flat_strings), flat


def _trusted_text(value: object, slot: contexts.Slot, interpolation: Any, index: int) -> str:
    """A trusted value's HTML, if it may stand in ``slot`` (the page is checked later)."""
    from . import _html_contexts as contexts

    if slot.trusted_refusal is not None:
        raise refusal("html", field_text(interpolation, index + 1), *slot.trusted_refusal)
    text = str(escape(value))
    # (as the browser reads it in an attribute: &#32; is a space there too)
    why = contexts.token_refusal(slot, Markup(text).unescape(), text)
    if why is not None:
        raise refusal("html", field_text(interpolation, index + 1), *why)
    if slot.kind == "attribute":
        for quote in "\"'":
            if quote in text:
                raise refusal(
                    "html",
                    field_text(interpolation, index + 1),
                    "is trusted HTML (it has __html__) inside a quoted attribute value, and "
                    f"it contains {quote}, which could end the attribute",
                    "Pass plain text instead, so it gets escaped",
                )
    return text


def _refuse_url(
    check: Any, interpolations: Sequence[Any], field: int, why: str, fix: str
) -> NoReturn:
    """Refuse the value of ``field`` in ``check``'s URL attribute."""
    raise refusal(
        "html",
        f"the {check.attribute} of <{check.element}> holding "
        f"{field_text(interpolations[field], field + 1)}",
        why,
        fix,
    )


def _check_structure(
    interpolations: Sequence[Any],
    plan: contexts.Plan,
    result: str,
    plain: dict[int, tuple[str, bool]],
    trusted: dict[int, str],
) -> None:
    """Parse the page and compare it with the template's skeleton (defence in depth).

    Every element, attribute and plain value of the template must be where it wrote it; a
    trusted value may only form whole nodes (or, in an attribute, text) where it stands.
    """
    from . import _html_contexts as contexts

    in_attribute = {index: plan.slots[index].kind == "attribute" for index in trusted}
    # Every way a browser may read the page (a trusted value may bring <select>, <noscript>).
    culprit: int | None = None
    for reading in contexts.readings(result):
        try:
            page = contexts.canonical_fragment(result, plan.context, reading)
        except contexts.Unreadable:  # (html5lib failed on it: nothing is verified)
            page = None
        if page is None:  # unreadable, or it leaves a <script>, a comment... open at the end
            culprit = max(trusted)
        elif contexts.depth(page) > contexts.MAX_DEPTH:
            deep = max(trusted)
            field = field_text(interpolations[deep], deep + 1)
            raise refusal("html", f"the page with {field}", *contexts.DEPTH_REFUSAL)
        else:
            culprit = contexts.mismatch(plan.skeleton(reading), plain, in_attribute, page)
        if culprit is not None:
            break
    if culprit is None:
        return
    if culprit not in trusted:
        culprit = min(trusted)
    raise refusal(
        "html",
        field_text(interpolations[culprit], culprit + 1),
        "is trusted HTML (it has __html__) that does not fit where it stands: read in the "
        "page, it opens, closes or moves elements of the template around it",
        "Pass a complete fragment (every element it opens closed, none closed that it did "
        "not open, allowed in its parent), or pass plain text so it gets escaped",
    )
