"""Property tests: code without i-literals is left alone, random i-literals raise nothing but
SyntaxError, keep the line count and, when the f-string is valid, format like it."""

from __future__ import annotations

import ast
import builtins
import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = ["i", "pi", "ri", "Ir", "rI", "fi", "x", "y", "ii", "_i", "i_", "I", "bi"]
PREFIXES = ["", "r", "u", "R", "U", "b", "B", "br", "Rb", "f", "F", "fr", "Rf", "rb"]


@pytest.fixture(autouse=True, scope="module")
def _builder() -> Iterator[None]:
    saved = getattr(builtins, BUILDER_NAME, None)
    setattr(builtins, BUILDER_NAME, build_template)
    yield
    if saved is None:
        delattr(builtins, BUILDER_NAME)
    else:
        setattr(builtins, BUILDER_NAME, saved)


_content = st.text(alphabet="abi i\"'#{}\\ n", max_size=8)


@st.composite
def string_literal(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(PREFIXES))
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    body = draw(_content)
    if draw(st.booleans()):
        body += "i"  # content ending in i, right before the closing quote
    if "f" in prefix.lower():
        body = body.replace("{", "{{").replace("}", "}}")
        body += draw(st.sampled_from(["", "{x}", "{i!r}", "{pi:>3}", "{ri=}"]))
    return prefix + quote + body + quote


_expression = st.one_of(
    st.sampled_from(NAMES),
    st.integers(0, 99).map(str),
    string_literal(),
    st.tuples(st.sampled_from(NAMES), string_literal()).map(lambda p: f"{p[0]} + {p[1]}"),
    st.tuples(string_literal(), string_literal()).map(lambda p: f"{p[0]} {p[1]}"),
    st.sampled_from(NAMES).map(lambda n: f"{n} if{n} else{n}"),
)


@st.composite
def statement(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    name = draw(st.sampled_from(NAMES))
    expr = draw(_expression)
    if kind == 0:
        line = f"{name} = {expr}"
    elif kind == 1:
        line = f"print({expr}, {name})"
    elif kind == 2:
        line = f"def {name}({name}):\n    return {expr}"
    else:
        line = f"{name} = [{expr},\n    {name}]"
    if draw(st.booleans()):
        line += "  # " + draw(st.sampled_from(['i"x"', "i'{y}'", "ri'z'", 'see i"{x}"']))
    return line


@SETTINGS
@given(st.lists(statement(), min_size=1, max_size=6))
def test_code_without_ilitterals_is_untouched(statements: list[str]) -> None:
    source = "\n".join(statements) + "\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, "<gen>", "exec")
        except SyntaxError:
            assume(False)
    assert rewrite(source) == source


BODY_ALPHABET = "xyz0123 ab{}!:=rsa<>.,()[]'\"\\\n#NI+-*é"
NAMESPACE = {"x": 42, "y": "hi", "z": 3.5, "a": 7, "b": [1, 2], "r": 1, "s": 2}


def _compile_quietly(code: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(code, "<gen>", "eval")


def _f_version(source: str) -> str:
    """``source`` with every i-string prefix made the f-string's (``i''I''`` is
    ``f''F''``), also where a body that closed the literal starts another one."""
    return re.sub(
        r"(?<![\w])([rR]?)([iI])([rR]?)(?=['\"])",
        lambda m: m.group(1) + ("f" if m.group(2) == "i" else "F") + m.group(3),
        source,
    )


def _is_one_literal(fsource: str) -> bool:
    """Whether the f-string source is one (maybe implicitly concatenated) literal, rather than
    a literal whose body closed it early and went on as code (``f""+""``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        node = ast.parse(fsource, mode="eval").body
    return isinstance(node, ast.JoinedStr | ast.Constant)


@SETTINGS
@given(
    st.text(alphabet=BODY_ALPHABET, max_size=20),
    st.sampled_from(["i", "I", "ri", "Ir", "iR", "RI"]),
    st.sampled_from(["'", '"', "'''", '"""']),
)
# Found by random exploration: the body closes the literal, so the program is i"" + "", and
# the TypeError (a template plus a str) is right: 3.14 raises it for t"" + "" too.
@example(body='"+"', prefix="i", quote='"')
@example(body="'+'", prefix="i", quote="'")
# Found by random exploration: the body closes the literal and starts another i-literal, so the
# program is i'' I'' (two literals, as f'' F'' is), where the f-version of the first prefix
# alone, f''I'', is no program.
@example(body="'I'", prefix="i", quote="'")
def test_random_literal_bodies(body: str, prefix: str, quote: str) -> None:
    source = f"{prefix}{quote}{body}{quote}"
    fsource = f"{prefix.replace('i', 'f').replace('I', 'F')}{quote}{body}{quote}"
    try:
        fcode = _compile_quietly(fsource)
    except (SyntaxError, ValueError):
        fcode = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = rewrite(source)
    except SyntaxError as error:
        assert "i-string" in str(error.msg)
        if "cannot mix" not in str(error.msg):  # i'0''' is i'0' '': refused by design
            assert fcode is None, f"rewrite refused a literal Python accepts: {error}"
        return
    assert out.count("\n") == source.count("\n")
    if fcode is None:
        try:
            _compile_quietly(_f_version(source))
        except (SyntaxError, ValueError):
            # The literal itself was fine (``i""0"`` is ``i""`` then ``0"``): Python must
            # still refuse the rest of the code.
            with pytest.raises((SyntaxError, ValueError)):
                _compile_quietly(out)
            return
        _compile_quietly(out)  # (``i''I''``: another i-literal follows, as in ``f''F''``)
        return
    if not _is_one_literal(fsource):
        # The body closed the literal early (``i""+""``, ``i"",#"``): the template is used in
        # some other expression, which need not mean what the f-string program means (a
        # template plus a str raises).  The rewrite must still be code Python accepts.
        _compile_quietly(out)
        return
    try:
        expected = eval(fcode, dict(NAMESPACE))
    except Exception:
        return  # a NameError, a bad spec...: nothing to compare
    value = eval(_compile_quietly(out), dict(NAMESPACE))
    assert format(value) == expected


@SETTINGS
@given(st.text(max_size=40), st.text(max_size=40), st.sampled_from(["i'", 'i"', "ri'''", 'I"""']))
def test_anything_raises_only_syntaxerror_and_keeps_lines(
    before: str, after: str, opener: str
) -> None:
    source = before + opener + after
    try:
        out = rewrite(source)
    except SyntaxError:
        return
    assert out.count("\n") == source.count("\n")


@SETTINGS
@given(
    st.lists(
        st.sampled_from(
            [
                "i'{x}'",
                "\n",
                " ",
                "(",
                ")",
                "i'''{\nx}'''",
                "# c",
                "'s'",
                "\\\n",
                "x",
                "=",
                'i""',
                "{",
                "}",
                ",",
                "f'{i'{x}'}'",
            ]
        ),
        max_size=25,
    )
)
def test_token_soup_raises_only_syntaxerror_and_keeps_lines(tokens: list[str]) -> None:
    source = "".join(tokens)
    try:
        out = rewrite(source)
    except SyntaxError:
        return
    assert out.count("\n") == source.count("\n")
