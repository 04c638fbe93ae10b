"""Conformance: every corpus literal as an i-string formats like the f-string and has the
structure real Python 3.14 gives the same literal as a t-string; evaluation semantics; errors.

The 3.14 answers are in tests/data/tstring_corpus.json (``scripts/record-corpus``); on 3.14
the structure is also compared live against native t-strings.
"""

from __future__ import annotations

import builtins
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run
from corpus import (
    CORPUS,
    FSTRING_DIFFERS_BEFORE_314,
    MALFORMED,
    Entry,
    Malformed,
    describe,
    namespace,
    spell,
    t_label,
)

from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite
from ipy_istring.template import InterpolationTemplate

_DATA = json.loads(
    (Path(__file__).parent / "data" / "tstring_corpus.json").read_text(encoding="utf-8")
)
RECORDED = _DATA["entries"]
RECORDED_ERRORS = _DATA["malformed"]
HERE = sys.version_info[:2]
VALID = [entry for entry in CORPUS if entry.min_version <= HERE]

# An f-string formats a nested value into its text: a native Template has no __format__, so
# 3.14 stores its repr where an i-string template renders (PEP 501's point).  The value of
# these entries' fields differs by design; expression, conversion and spec are still compared.
RENDERS_NESTED_TEMPLATE = {"i-in-f-in-i"}


@pytest.fixture
def builder() -> Iterator[None]:
    """The builtin the rewritten code calls, as the extension installs it."""
    saved = getattr(builtins, BUILDER_NAME, None)
    setattr(builtins, BUILDER_NAME, build_template)
    try:
        yield
    finally:
        if saved is None:
            delattr(builtins, BUILDER_NAME)
        else:
            setattr(builtins, BUILDER_NAME, saved)


def evaluate_i(src: str) -> Any:
    code = rewrite(spell(src, "i"))
    assert code.count("\n") == src.count("\n")
    return eval(code, namespace())


def ids(entries: list[Entry]) -> list[str]:
    return [entry.name for entry in entries]


def test_corpus_is_recorded_completely() -> None:
    assert sorted(RECORDED) == sorted(entry.name for entry in CORPUS)
    for entry in CORPUS:
        assert RECORDED[entry.name]["src"] == entry.src, "re-run scripts/record-corpus on 3.14"
    assert sorted(RECORDED_ERRORS) == sorted(bad.name for bad in MALFORMED)
    for bad in MALFORMED:
        assert RECORDED_ERRORS[bad.name]["src"] == bad.src, "re-run scripts/record-corpus"


def expected_fstring(entry: Entry) -> str:
    """The f-string's result here, which the i-string must give (3.14's where the f-string
    of this Python differs from it)."""
    recorded: str = RECORDED[entry.name]["fstring"]
    if entry.name in FSTRING_DIFFERS_BEFORE_314 and HERE < (3, 14):
        # (later 3.13 releases read it as 3.14 does, 3.13.18 among them; 3.13.0 and 3.12 not)
        here = eval(spell(entry.src, "f"), namespace())
        assert here != recorded or HERE >= (3, 13), "no longer differs on 3.12"
        return recorded
    return eval(spell(entry.src, "f"), namespace())  # type: ignore[no-any-return]


@pytest.mark.parametrize("entry", CORPUS, ids=ids(CORPUS))
def test_min_version_is_exact(entry: Entry) -> None:
    """The entry's f-string compiles here exactly when this Python is at least min_version."""
    fsrc = spell(entry.src, "f")
    if entry.min_version <= HERE:
        compile(fsrc, "<corpus>", "eval")
    else:
        with pytest.raises(SyntaxError):
            compile(fsrc, "<corpus>", "eval")
        with pytest.raises(SyntaxError, match="i-string"):
            rewrite(spell(entry.src, "i"))


@pytest.mark.parametrize("entry", VALID, ids=ids(VALID))
def test_format_matches_fstring(builder: None, entry: Entry) -> None:
    value = evaluate_i(entry.src)
    expected = expected_fstring(entry)
    assert format(value) == expected
    assert str(value) == expected
    assert value.render() == expected if isinstance(value, InterpolationTemplate) else True
    assert expected == RECORDED[entry.name]["fstring"]


@pytest.mark.parametrize("entry", VALID, ids=ids(VALID))
def test_structure_matches_recorded_tstring(builder: None, entry: Entry) -> None:
    recorded = RECORDED[entry.name]["template"]
    value = evaluate_i(entry.src)
    if recorded is None:  # the entry is an f-string holding i-literals: a str
        assert isinstance(value, str)
        return
    assert isinstance(value, InterpolationTemplate)
    mine = describe(value, "i")
    if entry.name in RENDERS_NESTED_TEMPLATE:
        for interpolation in (*mine["interpolations"], *recorded["interpolations"]):  # type: ignore[index]
            interpolation[0] = "<nested>"
    assert mine == recorded


@pytest.mark.skipif(sys.version_info < (3, 14), reason="native t-strings need Python 3.14")
@pytest.mark.parametrize("entry", CORPUS, ids=ids(CORPUS))
def test_structure_matches_live_tstring(builder: None, entry: Entry) -> None:
    native = eval(spell(entry.src, "t"), namespace())
    value = evaluate_i(entry.src)
    if type(native).__name__ != "Template":
        assert isinstance(value, str)
        return
    mine, theirs = describe(value, "i"), describe(native, "t")
    if entry.name in RENDERS_NESTED_TEMPLATE:
        for interpolation in (*mine["interpolations"], *theirs["interpolations"]):  # type: ignore[index]
            interpolation[0] = "<nested>"
    assert mine == theirs


@pytest.mark.parametrize("bad", MALFORMED, ids=[bad.name for bad in MALFORMED])
def test_malformed_error_as_314_words_it(bad: Malformed) -> None:
    """The label (``i-string:`` in an i-literal, ``f-string:`` in an f-literal nested in one,
    never twice) everywhere; message and position exactly as 3.14's from ``exact_from``."""
    recorded = RECORDED_ERRORS[bad.name]
    with pytest.raises(SyntaxError) as info:
        rewrite(spell(bad.src, "i"), filename="<corpus>")
    error = info.value
    expected = t_label(recorded["msg"], "i")
    label = expected.split(":")[0]
    assert error.msg.split(":")[0] == label
    assert error.msg.count("-string") == expected.count("-string")
    if bad.exact_from <= HERE:
        assert error.msg == expected
        assert (error.lineno, error.offset) == (recorded["lineno"], recorded["offset"])


@pytest.mark.skipif(sys.version_info < (3, 14), reason="native t-strings need Python 3.14")
@pytest.mark.parametrize("bad", MALFORMED, ids=[bad.name for bad in MALFORMED])
def test_malformed_error_matches_live_tstring(bad: Malformed) -> None:
    with pytest.raises(SyntaxError) as native:
        compile(spell(bad.src, "t"), "<corpus>", "eval")
    with pytest.raises(SyntaxError) as mine:
        rewrite(spell(bad.src, "i"), filename="<corpus>")
    assert mine.value.msg == t_label(native.value.msg, "i")
    assert (mine.value.lineno, mine.value.offset) == (native.value.lineno, native.value.offset)


def test_by_design_a_nested_i_string_formats_as_its_text(builder: None) -> None:
    """PEP 501: a template renders, so formatting one gives its text (in an f-string, or as
    a spec).  3.14's Template has no ``__format__``: there the same spells its repr, or
    fails (README, "Python 3.14")."""
    ns = namespace()
    assert eval(rewrite("f\"{i'{x}'}\""), ns) == "42"
    t = eval(rewrite("i\"{x:{i'{w}'}}\""), ns)
    assert t.interpolations[0].format_spec == "10"
    assert str(t) == f"{42:10}"
    if HERE >= (3, 14):
        assert eval("f\"{t'{x}'}\"", ns).startswith("Template(")
        native = eval("t\"{x:{t'{w}'}}\"", ns)
        assert native.interpolations[0].format_spec.startswith("Template(")


def test_whole_corpus_through_ishell(ishell: Any) -> None:
    """Every valid entry as a cell of a real shell: same format and structure."""
    failures = []
    for entry in VALID:
        ishell.user_ns.update(namespace())
        value = run(ishell, "__value = " + spell(entry.src, "i") + "\n__value")
        expected = expected_fstring(entry)
        recorded = RECORDED[entry.name]["template"]
        if format(value) != expected:
            failures.append((entry.name, "format", format(value), expected))
        elif (
            recorded is not None
            and entry.name not in RENDERS_NESTED_TEMPLATE
            and describe(value, "i") != recorded
        ):
            failures.append((entry.name, "structure", describe(value, "i"), recorded))
    assert failures == []


# Evaluation semantics


def test_eager_left_to_right_once(builder: None) -> None:
    src = (
        "calls = []\n"
        "def f(v):\n"
        "    calls.append(v)\n"
        "    return v\n"
        "t = i'{f(1)}{f(2)!r:>{f(3)}}{f(4)=}' i'{f(5.0):{f(6)}.{f(7)}}'\n"
        "after = list(calls)\n"
    )
    ns: dict[str, Any] = {}
    exec(rewrite(src), ns)
    assert ns["after"] == [1, 2, 3, 4, 5.0, 6, 7]
    str(ns["t"])
    format(ns["t"])
    assert ns["calls"] == [1, 2, 3, 4, 5.0, 6, 7], "rendering must not evaluate again"
    assert ns["t"].values == (1, 2, 4, 5.0)
    assert [i.format_spec for i in ns["t"].interpolations] == ["", ">3", "", "6.7"]


def test_specs_are_evaluated_into_format_spec(builder: None) -> None:
    ns: dict[str, Any] = {"a": 1, "w": 5, "p": 2}
    t = eval(rewrite("i'{a:{w}.{p}f}{a!r:>{w}}'"), ns)
    assert [i.format_spec for i in t.interpolations] == ["5.2f", ">5"]
    assert format(t) == f"{1:5.2f}{1!r:>5}"


class Hostile:
    def __format__(self, spec: str) -> str:
        raise RuntimeError("format called")

    def __repr__(self) -> str:
        raise RuntimeError("repr called")

    def __str__(self) -> str:
        raise RuntimeError("str called")


def test_conversion_and_spec_not_applied_at_creation(builder: None) -> None:
    ns: dict[str, Any] = {"h": Hostile()}
    t = eval(rewrite("i'{h!r:>10}{h!s}{h!a}{h:bogus spec}{h=}'"), ns)
    assert [i.conversion for i in t.interpolations] == ["r", "s", "a", None, "r"]
    assert [i.format_spec for i in t.interpolations] == [">10", "", "", "bogus spec", ""]
    assert all(v is ns["h"] for v in t.values)
    with pytest.raises(RuntimeError, match="repr called"):
        format(t)


def test_scopes_through_ishell(ishell: Any) -> None:
    run(
        ishell,
        "def outer():\n"
        "    v = 'closure'\n"
        "    def inner():\n"
        "        return i'{v}'\n"
        "    return inner()\n"
        "class C:\n"
        "    attr = 'class body'\n"
        "    t = i'{attr}'\n"
        "comp = [i'{k}-{k * 2}' for k in range(3)]\n"
        "gen = list(i'{k}' for k in 'ab')\n"
        "lam = (lambda q: i'{q!r}')('L')\n"
        "nested = [[i'{a}{b}' for b in 'xy'] for a in 'AB']\n",
    )
    ns = ishell.user_ns
    assert str(ns["outer"]()) == "closure"
    assert str(ns["C"].t) == "class body"
    assert [str(t) for t in ns["comp"]] == ["0-0", "1-2", "2-4"]
    assert [str(t) for t in ns["gen"]] == ["a", "b"]
    assert str(ns["lam"]) == "'L'"
    assert [[str(t) for t in row] for row in ns["nested"]] == [["Ax", "Ay"], ["Bx", "By"]]
    assert ns["C"].t.interpolations[0].expression == "attr"


def test_await_in_async_cell(ishell: Any) -> None:
    run(ishell, "import asyncio\nasync def later(v):\n    await asyncio.sleep(0)\n    return v\n")
    value = run(ishell, "t = i'{await later(5)!r:>3} {[await later(k) for k in (1, 2)]}'\nt")
    assert str(value) == "  5 [1, 2]"
    assert value.interpolations[0].expression == "await later(5)"


def test_walrus_binds_in_cell_scope(ishell: Any) -> None:
    run(ishell, "t = i'{(z := 11)}'\nafter = z")
    assert ishell.user_ns["after"] == 11


# Errors

# (cell, line of the error, message fragment, the versions it applies to)
ERRORS: list[tuple[str, int, str, tuple[tuple[int, int], tuple[int, int]]]] = [
    ('v = i"{x"', 1, "", ((3, 10), (9, 9))),
    ('v = i"{}"', 1, "valid expression required before '}'", ((3, 12), (9, 9))),
    ('v = i"{}"', 1, "empty expression not allowed", ((3, 10), (3, 11))),
    ('v = i"{x!z}"', 1, "invalid conversion character", ((3, 10), (9, 9))),
    ('v = i"{lambda x: 1}"', 1, "", ((3, 10), (9, 9))),
    ('v = i"abc', 1, "unterminated", ((3, 10), (9, 9))),
    ('v = i"{x', 1, "'{' was never closed", ((3, 12), (9, 9))),
    ('v = i"{x', 1, "unterminated string", ((3, 10), (3, 11))),
    ("v = i'''{x\n", 1, "'{' was never closed", ((3, 12), (9, 9))),
    ("v = i'''abc\n\n", 1, "unterminated triple-quoted", ((3, 10), (9, 9))),
    ('v = i"{x:{y:{z}}}"', 1, "nested too deeply", ((3, 10), (3, 11))),
    ('v = i"{x!}"', 1, "", ((3, 10), (9, 9))),
    ("v = i'{x}}'", 1, "single '}' is not allowed", ((3, 10), (9, 9))),
    ("v = i'}'", 1, "single '}' is not allowed", ((3, 10), (9, 9))),
    ('v = i"{x!r=}"', 1, "", ((3, 10), (9, 9))),
    ('v = i"{x y}"', 1, "", ((3, 10), (9, 9))),
    ('v = i"{)}"', 1, "", ((3, 10), (9, 9))),
    ('v = i"{x:{y!z}}"', 1, "invalid conversion character", ((3, 10), (9, 9))),
    ('v = i"\\N{NOT A REAL NAME}"', 1, "", ((3, 10), (9, 9))),
    ("v = f\"{i'{}'}\"", 1, "", ((3, 10), (9, 9))),
    ("v = i'{i\"{x!z}\"}'", 1, "invalid conversion character", ((3, 10), (9, 9))),
    ('a = 1\nv = (2,\n     i"ok {a} {x!z}")', 3, "invalid conversion", ((3, 10), (9, 9))),
    ("v = i'''\n{x\n!z}'''", 3, "invalid conversion", ((3, 10), (9, 9))),
    ('v = i"a" "b"', 1, "cannot mix i-string literals with string or bytes", ((3, 10), (9, 9))),
    ('v = "a" i"b"', 1, "cannot mix i-string literals with string or bytes", ((3, 10), (9, 9))),
    ('v = i"a" f"{x}"', 1, "cannot mix i-string", ((3, 10), (9, 9))),
    ('v = b"a" i"b"', 1, "cannot mix i-string", ((3, 10), (9, 9))),
    ('v = r"a" Ri"b"', 1, "cannot mix i-string", ((3, 10), (9, 9))),
    ('v = i"a" u"b"', 1, "cannot mix i-string", ((3, 10), (9, 9))),
    ('v = (i"a"\n     "b")', 2, "cannot mix i-string", ((3, 10), (9, 9))),
    ('v = i"a" \\\n"b"', 2, "cannot mix i-string", ((3, 10), (9, 9))),
]
APPLICABLE = [e for e in ERRORS if e[3][0] <= HERE <= e[3][1]]


def literal_span(cell: str, line: int) -> tuple[int, int]:
    """1-based columns of the first and last character of ``line`` in the literals (every
    cell here ends its lines with them, before any closing parenthesis)."""
    lines = cell.splitlines()
    text = lines[line - 1]
    if "\n".join(lines[: line - 1]).count("'''") % 2:  # inside a triple-quoted literal
        return 1, len(text)
    starts = [pos for pos in (text.find('"'), text.find("'")) if pos >= 0]
    first = min(starts) if starts else 0
    while first > 0 and text[first - 1].isalpha():
        first -= 1
    return first + 1, len(text.rstrip(")"))


@pytest.mark.parametrize("cell,line,fragment,versions", APPLICABLE)
def test_error_pure(cell: str, line: int, fragment: str, versions: object) -> None:
    with pytest.raises(SyntaxError) as info:
        rewrite(cell, filename="<cell>")
    error = info.value
    assert "i-string" in error.msg
    assert "f-string" not in error.msg
    assert fragment in error.msg
    assert error.filename == "<cell>"
    assert error.lineno == line
    low, high = literal_span(cell, line)
    assert error.offset is not None and low <= error.offset <= high, (error.offset, low, high)
    assert error.text == cell.splitlines()[line - 1]


# Characters str.splitlines() ends a line at and Python does not (a line may hold them), and
# the line ends Python knows besides "\n".
NOT_LINE_ENDS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("mark", NOT_LINE_ENDS)
@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_error_text_is_the_line_python_counts(mark: str, end: str) -> None:
    cell = end.join([f"# a{mark}b", f"s = 'c{mark}d'", "y = i'{x!z}'", ""])
    with pytest.raises(SyntaxError) as info:
        rewrite(cell, filename="<cell>")
    assert (info.value.lineno, info.value.text) == (3, "y = i'{x!z}'")
    with pytest.raises(SyntaxError) as python:  # where Python itself puts the f-literal's
        compile(cell.replace("i'", "f'"), "<cell>", "exec")
    assert python.value.lineno == 3


@pytest.mark.parametrize("cell,line,fragment,versions", APPLICABLE)
def test_error_through_ishell(
    ishell: Any, cell: str, line: int, fragment: str, versions: object
) -> None:
    ishell.user_ns.pop("before", None)
    result = ishell.run_cell("before = 1\n" + cell, store_history=False)
    error = result.error_before_exec
    assert isinstance(error, SyntaxError)
    assert "i-string" in error.msg and fragment in error.msg
    assert error.lineno == line + 1
    assert "before" not in ishell.user_ns, "the cell must not run"


@pytest.mark.parametrize("entry", VALID, ids=ids(VALID))
def test_the_parser_free_reading_agrees_with_the_parser(
    builder: None, entry: Entry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simple literals are read straight off the source (no ast.parse), by the regex fast path
    of _fast_path.py or by _simple_parts; with both turned off, every corpus entry gives the
    very same template."""
    import ipy_istring.rewrite as rewrite_module

    fast = describe(evaluate_i(entry.src), "i")
    monkeypatch.setattr(rewrite_module, "rewrite_simple", lambda source, name, key: None)
    monkeypatch.setattr(rewrite_module, "_simple_parts", lambda group, source: None)
    assert describe(evaluate_i(entry.src), "i") == fast


def test_the_parser_free_reading_takes_the_simple_literals() -> None:
    """It does read the simple ones (else the test above would prove nothing)."""
    from ipy_istring.rewrite import _Emitter

    for source in ("i'a {x} b'", "i'{x.y!r:>5} {{}}'", "i'{ x = }'", "i'x' i\"{y=:^3}\""):
        emitter = _Emitter(source, "<test>")
        emitter.pieces(0, len(source), emitter.found.literals)
        assert all(group.parts is not None for group in emitter.groups), source
    for source in ("i'\\t{x}'", "i'{x + 1}'", "i'{x:{w}}'", "i'{None}'", "i'{x=:}'"):
        emitter = _Emitter(source, "<test>")
        emitter.pieces(0, len(source), emitter.found.literals)
        assert all(group.parts is None for group in emitter.groups), source
