"""html(): work that grew with the square of a template's fields, now linear (the render pass).

A URL attribute with N fields (``<a href="/x?a0={v0}&a1={v1}...">``) parsed the whole URL
once per field to judge that field's value (:func:`ipy_istring._url_parts.part_refusal`, N
parses of a URL N fields long, at every render; 2,000 fields took 10 s a render), and the
analysis split the attribute's value into its pieces once per field (``_split_fields`` per
landing; the same for a token list's continuations).  Now the values that are plain words in
the path, query or fragment are judged together by two parses (the URL marked and the URL
with its values, compared part by part), the rest one by one as before; the analysis reads
each attribute once.  The tests count the parses and the characters parsed at N and 4N fields
(no timings), and check that the joint judgement gives exactly the per-field verdicts.  And a
long text node in trusted HTML was built by html5lib with one ``+=`` per word (n² in its
words); it is now added to the tree once, counted the same way.
"""

from __future__ import annotations

from typing import Any

import ada_url
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from ipy_istring import _html_contexts, _url_parts
from ipy_istring.fields import RenderError
from ipy_istring.html import html
from ipy_istring.template import Interpolation, InterpolationTemplate


def url_template(n: int, salt: str, values: Any = None) -> InterpolationTemplate:
    parts: list[Any] = [f'<a href="/x{salt}?']
    for i in range(n):
        value = f"v{i}" if values is None else values(i)
        parts += [f"{'&' if i else ''}a{i}=", Interpolation(value, f"v{i}")]
    parts.append('">x</a>')
    return InterpolationTemplate(*parts)


class Count:
    """Calls and characters of one function, counted while it is patched in."""

    def __init__(self) -> None:
        self.calls = 0
        self.chars = 0

    def wrap(self, function: Any) -> Any:
        def counted(text: str, *args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            self.chars += len(text)
            return function(text, *args, **kwargs)

        return counted


def url_work(monkeypatch: pytest.MonkeyPatch, n: int, salt: str) -> tuple[Count, Count]:
    parses, splits = Count(), Count()
    with monkeypatch.context() as patch:
        patch.setattr(ada_url, "parse_url", parses.wrap(ada_url.parse_url))
        patch.setattr(_html_contexts, "_split_fields", splits.wrap(_html_contexts._split_fields))
        _url_parts._parse_marked.cache_clear()
        assert html(url_template(n, salt)).startswith(f'<a href="/x{salt}?a0=v0&a1=v1&')
    return parses, splits


def test_a_url_with_many_fields_is_judged_in_linear_work(monkeypatch: pytest.MonkeyPatch) -> None:
    small_parses, small_splits = url_work(monkeypatch, 150, "s")
    big_parses, big_splits = url_work(monkeypatch, 600, "b")
    # main: one parse of the marked URL and one of the real per field (300 and 1,200 parses,
    # 16 times the characters), one split of the attribute per field
    assert big_parses.calls == small_parses.calls <= 4
    assert big_parses.chars <= 4.5 * small_parses.chars
    assert big_splits.calls == small_splits.calls <= 2
    assert big_splits.chars <= 4.5 * small_splits.chars


def test_a_class_with_many_fields_is_read_once() -> None:
    """A token list (class="k-{c0}-{c1}...") was scanned for continued tokens once per field."""

    def template(n: int, salt: str) -> InterpolationTemplate:
        parts: list[Any] = [f'<p class="k{salt}']
        for i in range(n):
            parts += ["-", Interpolation(f"c{i}", f"c{i}")]
        return InterpolationTemplate(*parts, '">x</p>')

    for n, salt in ((150, "s"), (600, "b")):
        before = _html_contexts._continuations_in.cache_info()
        html(template(n, salt))
        after = _html_contexts._continuations_in.cache_info()
        assert after.misses - before.misses == 1  # one scan of the value, whatever n
        assert after.hits - before.hits >= n - 1


def test_a_long_text_node_is_added_to_the_tree_in_linear_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """html5lib 1.1 adds each run of characters (a word, the spaces after it, an entity) to
    the text so far with ``+=``, which copies that text each time: trusted HTML of n words in
    one ``<p>`` took time n² (160,000 words: 24 s a render).  Now an element holds its text
    back and adds it to the tree once: the additions do not grow with n (before, 12,051 at
    2,000 words and 48,002 at 8,000)."""
    _, builder = _html_contexts._html5lib()
    etree_element = builder.elementClass.__mro__[1]  # html5lib's own
    added: list[int] = []
    original = etree_element.insertText

    def counted(self: Any, data: str, insertBefore: Any = None) -> None:
        added.append(len(data))
        original(self, data, insertBefore)

    monkeypatch.setattr(etree_element, "insertText", counted)
    additions = []
    for n, salt in ((2_000, "s"), (8_000, "b")):
        added.clear()
        words = f"{salt} &amp; x\n" * n
        template = InterpolationTemplate("<p>", Interpolation(Markup(words), "m"), "</p>")
        assert html(template) == f"<p>{words}</p>"
        assert sum(added) >= len(words)  # (the text went through it, whole)
        additions.append(len(added))
    assert additions[1] <= additions[0] <= 20


def test_values_that_leave_their_part_are_still_refused_among_many() -> None:
    for bad in ("a&b=c", "a;b", "x#y", "a b&c"):
        template = url_template(300, "r", lambda i, bad=bad: bad if i == 250 else f"v{i}")
        with pytest.raises(RenderError, match=r"\{v250\}"):
            html(template)
    parts: list[Any] = ['<img src="/files']
    for i in range(300):
        parts += ["/", Interpolation("../admin" if i == 299 else f"d{i}", f"d{i}")]
    with pytest.raises(RenderError, match=r"\{d299\}.*path"):
        html(InterpolationTemplate(*parts, '/x.png">'))
    # plain words with dots, dashes and tildes stay accepted
    html(url_template(300, "ok", lambda i: f"v{i}.csv-~_"))


# --- the joint judgement is the per-field one -------------------------------------------------


def per_field(pieces: list[str | int], values: list[str]) -> tuple[int, str] | None:
    """part_refusal as it was: each field judged by its own parse."""
    for position, field in enumerate(pieces):
        if not isinstance(field, int):
            continue
        written = "".join(p for p in pieces[:position] if isinstance(p, str))
        if not written.strip(_url_parts._URL_CONTROLS):
            continue
        why = _url_parts._field_refusal(pieces, values, field)
        if why is not None:
            return field, why
    return None


STATICS = [
    "https://h.example/", "/a/", "?q=", "&", "&k=", "#/r/", "#", "%", "%2", "%2F", "1.", ".",
    "/", "=", ";", "mailto:a@b.c,", "mailto:", "https://1.", "https://", ":", "@", "x", ".csv",
    "https://h.example:", "?", "/..", "#!/", "tel:", "data:text/plain,", "ipyistringfieldmark",
]  # fmt: skip
VALUES = st.text(alphabet="ab09.-_~%/?&=;#@:,F\\ ", max_size=4) | st.sampled_from(
    ["v1", "x", "..", ".", "2", "0x7f", "ipyistringfieldmarkaa", "80", "a.b", "~", "2e"]
)


@st.composite
def urls(draw: Any) -> tuple[list[str | int], list[str]]:
    count = draw(st.integers(1, 5))
    pieces: list[str | int] = []
    for field in range(count):
        pieces += [draw(st.sampled_from(STATICS)) for _ in range(draw(st.integers(0, 2)))]
        pieces.append(field)
    pieces += [draw(st.sampled_from(STATICS)) for _ in range(draw(st.integers(0, 2)))]
    values = [draw(VALUES) for _ in range(count)]
    return pieces, values


@settings(max_examples=1500, deadline=None)
@given(urls())
@example((["https://1.", 0, "/"], ["2"]))  # an IPv4 host the value completes: refused
@example((["/a%", 0], ["2F"]))  # a value that completes an escape: refused
@example((["/a%2", 0], ["F"]))
@example((["?q=", 0, "&k=", 1], ["v", "ipyistringfieldmarkaa"]))
@example((["/a/", 0, "/", 1], ["..", "x"]))
@example((["https://h.example/", 0, "/..", "%2F"], [""]))  # (raised StopIteration on main)
@example((["https://h.example:", 0, "/", 1], ["80", "x"]))
def test_the_joint_judgement_is_the_per_field_one(url: Any) -> None:
    pieces, values = url
    assert _url_parts.part_refusal(pieces, values) == per_field(pieces, values)
