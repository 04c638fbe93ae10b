"""The template type against Python 3.14's string.templatelib behaviour (REFERENCE.md)."""

from __future__ import annotations

import pickle
import sys
from typing import Any

import pytest
from conftest import run

from ipy_istring.template import (
    Interpolation,
    InterpolationTemplate,
    convert,
    from_template,
    to_template,
)

ON_314 = sys.version_info >= (3, 14)
needs_314 = pytest.mark.skipif(not ON_314, reason="string.templatelib needs Python 3.14")


def parts(t: InterpolationTemplate) -> tuple[Any, ...]:
    return t.strings, tuple(
        (i.value, i.expression, i.conversion, i.format_spec) for i in t.interpolations
    )


# construction


def test_adjacent_strings_merge_and_empty_strings_are_inserted() -> None:
    a, b = Interpolation(1, "a"), Interpolation(2, "b")
    t = InterpolationTemplate("x", "y", a, b, "z", "w")
    assert t.strings == ("xy", "", "zw")
    assert t.interpolations == (a, b)
    assert len(t.strings) == len(t.interpolations) + 1
    assert InterpolationTemplate().strings == ("",)
    assert InterpolationTemplate().interpolations == ()
    assert InterpolationTemplate(a).strings == ("", "")


@pytest.mark.parametrize("bad", [1, None, b"bytes", ["x"], 1.5])
def test_construction_rejects_other_types(bad: object) -> None:
    with pytest.raises(TypeError) as info:
        InterpolationTemplate("x", bad)  # type: ignore[arg-type]
    message = str(info.value)
    assert "need to be of type 'str' or 'Interpolation'" in message
    assert f"got {type(bad).__name__}" in message


def test_construction_has_no_keywords() -> None:
    with pytest.raises(TypeError):
        InterpolationTemplate(strings=("a",))  # type: ignore[call-arg]


def test_values_and_iteration_skip_empty_strings() -> None:
    a, b = Interpolation(1, "a"), Interpolation(2, "b")
    t = InterpolationTemplate("", a, "", b, "end")
    assert t.values == (1, 2)
    assert list(t) == [a, b, "end"]
    assert list(InterpolationTemplate("only")) == ["only"]
    assert list(InterpolationTemplate()) == []


def test_equality_and_hash_are_by_identity() -> None:
    t1, t2 = InterpolationTemplate("a"), InterpolationTemplate("a")
    assert t1 != t2
    assert t1 == t1
    assert len({t1, t2}) == 2


# concatenation


def test_add_merges_boundary_strings() -> None:
    a, b = Interpolation(1, "a"), Interpolation(2, "b")
    t = InterpolationTemplate("x", a, "y") + InterpolationTemplate("z", b, "w")
    assert t.strings == ("x", "yz", "w")
    assert t.interpolations == (a, b)
    assert str(t) == "x1yz2w"


@pytest.mark.parametrize("other", ["str", 1, None])
def test_add_with_non_template_raises(other: object) -> None:
    t = InterpolationTemplate("x")
    with pytest.raises(TypeError):
        t + other  # type: ignore[operator]
    with pytest.raises(TypeError):
        other + t  # type: ignore[operator]


def test_add_str_message_names_str() -> None:
    with pytest.raises(TypeError, match='"str"'):
        InterpolationTemplate("x") + "y"  # type: ignore[operator]
    with pytest.raises(TypeError, match="str"):
        "y" + InterpolationTemplate("x")  # type: ignore[operator]


# pickling and repr


def test_pickle_round_trip() -> None:
    t = InterpolationTemplate("a", Interpolation([1, 2], "lst", "r", ">9"), "b")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(t, protocol))
        assert type(back) is InterpolationTemplate
        assert parts(back) == parts(t)
        assert str(back) == str(t)


def test_repr_is_bounded() -> None:
    huge = "x" * 10_000_000
    t = InterpolationTemplate("a" * 1_000_000, Interpolation(huge, "huge" * 1000), "b")
    assert len(repr(t)) < 1000
    assert repr(t).startswith("InterpolationTemplate(")
    many = InterpolationTemplate(*[Interpolation(k, "k") for k in range(10_000)])
    assert len(repr(many)) < 2000


def test_repr_shows_the_parts() -> None:
    t = InterpolationTemplate("a", Interpolation(1, "x", "r", ">3"))
    assert repr(t) == (
        "InterpolationTemplate(strings=('a', ''), "
        "interpolations=(Interpolation(1, 'x', 'r', '>3'),))"
    )


# Interpolation


def test_interpolation_defaults_and_fields() -> None:
    i = Interpolation(5)
    assert (i.value, i.expression, i.conversion, i.format_spec) == (5, "", None, "")
    j = Interpolation(value=1, expression="e", conversion="a", format_spec="^3")
    assert (j.value, j.expression, j.conversion, j.format_spec) == (1, "e", "a", "^3")
    assert repr(j) == "Interpolation(1, 'e', 'a', '^3')"


def test_interpolation_match_args() -> None:
    assert Interpolation.__match_args__ == ("value", "expression", "conversion", "format_spec")
    match Interpolation(3, "n", "s", "x"):
        case Interpolation(value, expression, conversion, spec):
            assert (value, expression, conversion, spec) == (3, "n", "s", "x")
        case _:  # pragma: no cover
            pytest.fail("no match")


def test_interpolation_is_immutable() -> None:
    i = Interpolation(1, "x")
    for name in ("value", "expression", "conversion", "format_spec"):
        with pytest.raises(AttributeError):
            setattr(i, name, 2)
        with pytest.raises(AttributeError):
            delattr(i, name)
    with pytest.raises(AttributeError):
        i.other = 1  # type: ignore[attr-defined]
    assert i.value == 1


def test_interpolation_is_final() -> None:
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (Interpolation,), {})


def test_template_is_final_with_314s_message() -> None:
    with pytest.raises(TypeError) as info:

        class Sub(InterpolationTemplate):  # type: ignore[misc]
            pass

    assert str(info.value) == (
        "type 'ipy_istring.template.InterpolationTemplate' is not an acceptable base type"
    )
    if ON_314:
        from string.templatelib import Template

        with pytest.raises(TypeError) as native:
            type("Sub", (Template,), {})
        assert str(native.value) == str(info.value).replace(
            "ipy_istring.template.InterpolationTemplate", "string.templatelib.Template"
        )


def _builders() -> list[Any]:
    """The builders rewritten code may call: the one rewrite.py installs, a new one, and the
    pure-Python one (the same as the others when the C accelerator is not in use)."""
    from ipy_istring.rewrite import _LAYOUTS, build_template
    from ipy_istring.template import _python_template_builder, _template_builder

    return [build_template, _template_builder(_LAYOUTS), _python_template_builder(_LAYOUTS)]


BUILDER_IDS = ["installed", "closure", "python"]


@pytest.mark.parametrize("build_template", _builders(), ids=BUILDER_IDS)
def test_a_template_built_by_the_rewrite_behaves_as_one_built_by_hand(
    build_template: Any,
) -> None:
    """The rewrite's fast path (a layout and values, interpolations made when first asked
    for) gives the same parts, text, repr, iteration, pickle and sums as the constructor."""
    from ipy_istring.rewrite import rewrite

    code = rewrite("i'a{x!r:>{w}}b{y}{{c}}{x=}'")
    fast = eval(code, {"__ipy_istring__": build_template, "x": 1, "y": "{}", "w": 5})
    by_hand = InterpolationTemplate(*fast._parts())
    assert parts(fast) == parts(by_hand)
    assert str(fast) == str(by_hand) == format(by_hand) == f"a{1!r:>5}b{{}}{{c}}x={1!r}"
    assert repr(fast) == repr(by_hand)
    assert list(fast) == list(by_hand)
    assert fast.interpolations is fast.interpolations  # made once
    assert parts(pickle.loads(pickle.dumps(fast))) == parts(by_hand)
    assert parts(fast + by_hand) == parts(by_hand + by_hand)


@pytest.mark.parametrize(
    "args,error,fragment",
    [
        ((1, 2), TypeError, "'expression' must be str, not int"),
        ((1, "x", "z"), ValueError, "'conversion' must be one of 's', 'a' or 'r'"),
        ((1, "x", ""), ValueError, "'conversion' must be one of 's', 'a' or 'r'"),
        ((1, "x", 5), TypeError, "'conversion' must be str, not int"),
        ((1, "x", None, 3), TypeError, "'format_spec' must be str, not int"),
        ((), TypeError, ""),
    ],
)
def test_interpolation_errors(args: tuple[Any, ...], error: type, fragment: str) -> None:
    with pytest.raises(error) as info:
        Interpolation(*args)
    assert fragment in str(info.value)


def test_interpolation_pickle() -> None:
    i = Interpolation({"k": 1}, "d", "r", "<4")
    back = pickle.loads(pickle.dumps(i))
    assert (back.value, back.expression, back.conversion, back.format_spec) == (
        {"k": 1},
        "d",
        "r",
        "<4",
    )


# convert and render


def test_convert() -> None:
    assert convert("é", None) == "é"
    assert convert("é", "s") == "é"
    assert convert("é", "r") == "'é'"
    assert convert("é", "a") == "'\\xe9'"
    value = object()
    assert convert(value, None) is value
    with pytest.raises(ValueError):
        convert(1, "x")  # type: ignore[arg-type]


def test_render_defaults_match_fstring() -> None:
    v, w = 3.14159, 9
    t = InterpolationTemplate(
        "<", Interpolation(v, "v", None, f"{w}.2f"), "|", Interpolation("q", "q", "r", ">5"), ">"
    )
    assert t.render() == f"<{v:{w}.2f}|{'q'!r:>5}>"
    assert str(t) == format(t) == t.render()


def test_render_hooks() -> None:
    t = InterpolationTemplate("a", Interpolation(1, "x", "r", "spec"), "b")
    seen: list[tuple[object, str]] = []

    def field(value: object, spec: str) -> str:
        seen.append((value, spec))
        return "<F>"

    assert t.render(render_template="|".join, render_field=field) == "a|<F>|b"
    assert seen == [("1", "spec")], "the conversion is applied before render_field"


def test_format_with_spec_formats_the_rendered_text() -> None:
    t = InterpolationTemplate("ab", Interpolation(1, "x"))
    assert format(t, ">6") == "   ab1"
    assert f"{t:*^7}" == "**ab1**"


# Python 3.14 interoperability


@needs_314
def test_to_template_and_back_are_lossless() -> None:
    from string.templatelib import Template

    t = InterpolationTemplate("a", Interpolation([1], "lst", "r", ">5"), "b", Interpolation(2))
    native = to_template(t)
    assert type(native) is Template
    assert native.strings == t.strings
    assert native.interpolations == t.interpolations
    assert t.to_template() is native
    back = from_template(native)
    assert parts(back) == parts(t)
    x = 7
    literal = eval('t"x={x!r:>4}"', {"x": x})  # a t-literal would not parse before 3.14
    wrapped = from_template(literal)
    assert parts(wrapped) == (("x=", ""), ((7, "x", "r", ">4"),))
    assert str(wrapped) == f"x={x!r:>4}"
    assert to_template(wrapped) is literal


@needs_314
def test_istring_plus_tstring(ishell: Any) -> None:
    value = run(ishell, "x, y = 1, 2\ni'a{x}' + t'b{y!r}'")
    assert isinstance(value, InterpolationTemplate)
    assert value.strings == ("a", "b", "")
    assert [(i.value, i.expression, i.conversion) for i in value.interpolations] == [
        (1, "x", None),
        (2, "y", "r"),
    ]
    assert str(value) == "a1b2"


@pytest.mark.skipif(ON_314, reason="checks the message given before Python 3.14")
def test_to_template_before_314_says_why() -> None:
    with pytest.raises(RuntimeError, match=r"3\.14"):
        to_template(InterpolationTemplate("a"))
    with pytest.raises(TypeError):
        from_template("not a template")


def test_a_value_that_fails_to_format_fails_once() -> None:
    """Rendering a template built by the rewrite formats each value once, errors included
    (an AttributeError from a value is not mistaken for the fast path missing)."""
    from ipy_istring.rewrite import build_template, rewrite

    calls = []

    class Broken:
        def __format__(self, spec: str) -> str:
            calls.append(spec)
            raise AttributeError("no")

    t = eval(rewrite("i'<{v:x}>'"), {"__ipy_istring__": build_template, "v": Broken()})
    for render in (str, format):
        with pytest.raises(AttributeError, match="no"):
            render(t)
    assert calls == ["x", "x"]


@pytest.mark.parametrize("build_template", _builders(), ids=BUILDER_IDS)
def test_rendering_formats_the_values_as_they_are_now(build_template: Any) -> None:
    """str()/format() format the values at each call, as evaluating the f-string then would:
    the text is never kept from an earlier rendering (a list may have grown since)."""
    from ipy_istring.rewrite import rewrite

    items: list[int] = []
    fast = eval(rewrite("i'{items}|{items!r:>{w}}'"), {"__ipy_istring__": build_template,
                                                      "items": items, "w": 4})  # fmt: skip
    by_hand = InterpolationTemplate(*fast._parts())
    for t in (fast, by_hand):
        assert str(t) == format(t) == "[]|  []"
    items.append(1)
    for t in (fast, by_hand):
        assert str(t) == format(t) == "[1]| [1]"
        assert format(t, "*^11") == "*[1]| [1]**"


@pytest.mark.parametrize("build_template", _builders(), ids=BUILDER_IDS)
def test_the_compiled_formatter_keeps_awkward_text(build_template: Any) -> None:
    """The static text and constant specs reach the compiled f-string intact: quotes,
    backslashes, braces, newlines, control and non-ASCII characters."""
    from ipy_istring.rewrite import rewrite

    source = r"""i'it\'s {x:\'^7} \\ {{ }} \n\t\x00\u00e9 "{x!a:*<4}" {x:\x01>3}'"""
    namespace = {"__ipy_istring__": build_template, "x": "é"}
    expected = eval("f" + source[1:], namespace)
    t = eval(rewrite(source), namespace)
    assert str(t) == format(t) == expected == str(InterpolationTemplate(*t._parts()))


@pytest.mark.parametrize("build_template", _builders(), ids=BUILDER_IDS)
def test_templates_leave_no_garbage_for_the_cycle_collector(build_template: Any) -> None:
    """Made, rendered and dropped, a template is freed by reference counting alone: neither
    kind holds a reference cycle (a formatter bound to its own layout would be one)."""
    import gc

    from ipy_istring.rewrite import rewrite

    code = compile(rewrite("i'a{x!r:>{w}}b'"), "<cell>", "eval")
    namespace = {"__ipy_istring__": build_template, "x": 1, "w": 3}
    str(eval(code, namespace))  # the literal's layout and formatter: made once, kept
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            fast = eval(code, namespace)
            by_hand = InterpolationTemplate(*fast._parts())
            joined = by_hand + fast
            for t in (fast, by_hand, joined):
                assert str(t) == format(t) == t.render()
            del fast, by_hand, joined, t
        assert gc.collect() == 0
    finally:
        gc.enable()
