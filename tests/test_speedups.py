"""The optional C accelerator (ipy_istring/_speedups.c) against the pure-Python reference.

The accelerated builder and ``__str__``/``__format__`` must be indistinguishable from the Python
code in ipy_istring/template.py: the same objects, the same text, the same exceptions (the very
objects user code raised), the same order of evaluation, and no leak or crash on hostile values.
The Python reference for a template's text is its layout's formatter (``t._layout.formatter(
t._values)``, what the Python ``__str__`` returns); ``IPY_ISTRING_PURE_PYTHON=1`` runs the whole
package without the accelerator, which the corpus test compares in two fresh interpreters.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import json
import os
import re
import subprocess
import sys
import sysconfig
import tracemalloc
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ipy_istring import _fast_path, template
from ipy_istring import rewrite as rewrite_module
from ipy_istring.rewrite import _LAYOUTS, BUILDER_NAME, rewrite
from ipy_istring.template import (
    Interpolation,
    InterpolationTemplate,
    _Layout,
    _python_template_builder,
)

ACCELERATED = template._speedups is not None
needs_accelerator = pytest.mark.skipif(
    not ACCELERATED, reason="the C accelerator is not built or IPY_ISTRING_PURE_PYTHON=1"
)
TESTS = Path(__file__).parent
ROOT = TESTS.parent


def test_the_accelerator_is_in_use_where_it_is_built_in_ci() -> None:
    """In CI, wherever this interpreter has its C headers (pyenv's 3.10-3.13 always; 3.14 once
    scripts/test has fetched Debian's), the extension compiled and is in use: a silent fallback
    to the pure-Python code must not pass unnoticed."""
    if os.environ.get("CI") != "true" or os.environ.get("IPY_ISTRING_PURE_PYTHON") == "1":
        pytest.skip("checked in CI, where the extension must have compiled")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.exists():
        pytest.skip(f"no C headers for this Python ({headers}): the pure-Python code runs")
    assert ACCELERATED, "ipy_istring._speedups did not load: is it compiled for this Python?"


def test_pure_python_is_chosen_by_the_environment() -> None:
    """``IPY_ISTRING_PURE_PYTHON=1`` keeps the extension out; otherwise it is used when built."""
    check = (
        "import ipy_istring.template as t, ipy_istring.rewrite as r;"
        "print(t._speedups is None, type(r.build_template).__name__,"
        " type(t.InterpolationTemplate.__dict__['__str__']).__name__)"
    )
    pure = _run_python(check, IPY_ISTRING_PURE_PYTHON="1")
    assert pure.split() == ["True", "function", "function"]
    if ACCELERATED:
        default = _run_python(check, IPY_ISTRING_PURE_PYTHON="")
        assert default.split() == ["False", "TemplateBuilder", "method_descriptor"]


def _run_python(code: str, **environ: str) -> str:
    env = {**os.environ, **environ, "PYTHONPATH": str(TESTS)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


# Every corpus literal, evaluated and rendered in a fresh interpreter: its text, its text
# formatted with a spec, its parts, or the exception, as JSON.
_CORPUS_RUN = """
import builtins, json, sys
from corpus import CORPUS, namespace, spell
from ipy_istring.rewrite import BUILDER_NAME, build_template, rewrite
from ipy_istring.template import InterpolationTemplate
setattr(builtins, BUILDER_NAME, build_template)

def outcome(run):
    try:
        value = run()
    except Exception as error:
        return ["error", type(error).__name__, str(error)]
    if isinstance(value, InterpolationTemplate):
        return ["template", str(value), format(value), format(value, "^90"), f"<{value}>",
                repr(value), [type(p).__name__ for p in value]]
    return ["other", repr(value)]

results = {}
for entry in CORPUS:
    if entry.min_version <= sys.version_info[:2]:
        results[entry.name] = outcome(lambda: eval(rewrite(spell(entry.src, "i")), namespace()))
print(json.dumps(results))
"""


@needs_accelerator
def test_the_corpus_renders_the_same_with_and_without_the_accelerator() -> None:
    accelerated = json.loads(_run_python(_CORPUS_RUN, IPY_ISTRING_PURE_PYTHON=""))
    pure = json.loads(_run_python(_CORPUS_RUN, IPY_ISTRING_PURE_PYTHON="1"))
    assert len(accelerated) > 100
    assert accelerated == pure


# In-process comparisons: a template built by each builder, rendered by the installed methods
# (C when accelerated) and by the Python reference.


def _layout_key(source: str) -> int:
    """The key rewrite() gave the literal (its first argument in the rewritten code)."""
    code = rewrite(source)
    return int(code.split("(", 1)[1].split(",", 1)[0].rstrip(")"))


def _build(source: str, *values: object, python: bool = False) -> InterpolationTemplate:
    """The template of the i-literal `source` with these values, as the rewritten code's
    builder call makes it (values in the layout's order: each field's value, then its
    formatted spec when the spec has fields)."""
    builder = _python_template_builder if python else template._template_builder
    return builder(_LAYOUTS)(_layout_key(source), *values)  # type: ignore[no-any-return]


def _reference(t: InterpolationTemplate, spec: str = "") -> str:
    """What the Python __str__/__format__ return: the layout's Python formatter."""
    text = t._layout.formatter(t._values)
    return format(text, spec) if spec else text


def _fields(i: Interpolation) -> tuple[object, ...]:
    return (i.value, i.expression, i.conversion, i.format_spec)


SLOTS = ("_layout", "_values", "_interpolations", "_native")


def _slots(t: InterpolationTemplate) -> dict[str, Any]:
    """Each slot's value, or the type of the error reading it raises (unset)."""
    found: dict[str, Any] = {}
    for name in SLOTS:
        try:
            found[name] = getattr(InterpolationTemplate, name).__get__(t)
        except AttributeError as error:
            found[name] = type(error)
    return found


@needs_accelerator
@pytest.mark.parametrize(
    "source,values",
    [
        ("i'a{x}'", (42,)),
        ("i'{x}'", ("only",)),
        ("i''", ()),
        ("i'{x!r:>{w}}|{y!a}|{z!s:^9}'", ("é", "7", "✓", b"z")),
    ],
)
def test_the_builders_make_the_same_object(source: str, values: tuple[object, ...]) -> None:
    compiled = _build(source, *values)
    python = _build(source, *values, python=True)
    assert type(compiled) is type(python) is InterpolationTemplate
    assert _slots(compiled)["_layout"] is _slots(python)["_layout"]
    assert _slots(compiled) == _slots(python)
    assert _slots(compiled)["_interpolations"] is AttributeError  # made when first asked
    assert _slots(compiled)["_native"] is AttributeError
    assert [_fields(i) for i in compiled.interpolations] == [
        _fields(i) for i in python.interpolations
    ]
    assert str(compiled) == _reference(python)


@needs_accelerator
@pytest.mark.parametrize("key", [len(_LAYOUTS) + 10**6, -(10**6), 2**70, "0", 1.0, None])
def test_a_bad_key_fails_as_the_python_builder_does(key: object) -> None:
    rewrite("i'a{x}'")  # at least one layout
    errors = []
    for builder in (template._template_builder, _python_template_builder):
        with pytest.raises((IndexError, TypeError)) as info:
            builder(_LAYOUTS)(key, 1)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]


@needs_accelerator
def test_a_negative_key_indexes_from_the_end_as_in_python() -> None:
    rewrite("i'a{x}'")
    compiled = template._template_builder(_LAYOUTS)(-1, 5)
    assert compiled._layout is _LAYOUTS[-1] is _python_template_builder(_LAYOUTS)(-1, 5)._layout


@needs_accelerator
def test_the_builder_refuses_keywords_and_a_missing_key() -> None:
    build = template._template_builder(_LAYOUTS)
    with pytest.raises(TypeError, match="key"):
        build()
    with pytest.raises(TypeError, match="keyword"):
        build(0, value=1)


SPECS = ["", ">12", "*^15", "x"]


@needs_accelerator
@pytest.mark.parametrize(
    "source,values",
    [
        ("i'a{x}'", (42,)),
        ("i'{x}'", (3.5,)),
        ("i'{x}{y}'", ("", "")),
        ("i'{x:>{w}}'", ("v", 6)),
        ("i'{x:>{w}}'", ("v", 6.0)),  # a run-time spec that is not a str: formatted first
        ("i'é{x!a}✓{y!r:*<9}\\n{z!s}'", ("ü", "q", 12)),
        ("i'{x}\\x00{{}}\\'\"'", ("\U0001f600",)),
    ],
)
def test_formatting_matches_the_python_formatter(source: str, values: tuple[object, ...]) -> None:
    t = _build(source, *values)
    for spec in SPECS:
        try:
            expected: object = _reference(t, spec)
        except ValueError as error:  # "x" on a str
            with pytest.raises(ValueError) as info:
                format(t, spec)
            assert str(info.value) == str(error)
            continue
        assert format(t, spec) == expected
    assert str(t) == t.__str__() == _reference(t)
    assert f"{t}" == _reference(t)


@needs_accelerator
def test_templates_built_from_parts_use_the_python_formatter() -> None:
    by_hand = InterpolationTemplate("a", Interpolation(1, "x", "r", ">3"), "b")
    assert str(by_hand) == format(by_hand) == "a  1b" == _reference(by_hand)
    assert format(InterpolationTemplate(), ">2") == "  "


@needs_accelerator
def test_an_unexpected_layout_goes_through_its_python_formatter() -> None:
    """A layout that is not the shape the rewrite makes (here a value index out of range)
    is formatted by its Python formatter: the same error as the Python methods give."""
    t = _build("i'a{x}'", 1)
    odd = _Layout(("a", ""), (("x", None, "", 5, -1),))
    t._layout = odd
    with pytest.raises(IndexError) as compiled:
        str(t)
    with pytest.raises(IndexError) as python:
        odd.formatter(t._values)
    assert str(compiled.value) == str(python.value)


@needs_accelerator
def test_unset_slots_raise_as_in_python() -> None:
    bare = object.__new__(InterpolationTemplate)
    for render in (str, format):
        with pytest.raises(AttributeError, match="_layout"):
            render(bare)


@needs_accelerator
def test_a_spec_that_is_not_a_str_fails_as_format_does() -> None:
    t = _build("i'a{x}'", 1)
    with pytest.raises(TypeError) as reference:
        format("a1", 5)  # type: ignore[arg-type]
    with pytest.raises(TypeError) as info:
        t.__format__(5)
    assert str(info.value) == str(reference.value)
    assert t.__format__(0) == "a1"  # a false spec is no spec, as `if format_spec:` reads it


# Hostile values: user code that raises, lies or loops.


class Boom(Exception):
    pass


class RaisesInFormat:
    def __init__(self) -> None:
        self.error = Boom("from __format__")

    def __format__(self, spec: str) -> str:
        raise self.error


class StrNotStr:
    def __str__(self) -> Any:
        return 5

    def __repr__(self) -> Any:
        return b"bytes"

    def __format__(self, spec: str) -> Any:
        return ["not", "a", "str"]


class Sub(str):
    pass


class FormatsToSubclass:
    def __format__(self, spec: str) -> str:
        return Sub("sub" + spec)


def _fstring_outcome(body: str, **names: object) -> tuple[str, object]:
    """The f-string's result or error (type, message) for the literal body with these names."""
    try:
        value = eval("f" + body, dict(names))
    except Exception as error:
        return ("error", (type(error), str(error)))
    return ("value", (type(value), value))


def _template_outcome(t: InterpolationTemplate, render: Callable[[Any], Any]) -> tuple[str, object]:
    try:
        value = render(t)
    except Exception as error:
        return ("error", (type(error), str(error)))
    return ("value", (type(value), value))


@needs_accelerator
@pytest.mark.parametrize(
    "body,value",
    [
        ("'<{x}>'", StrNotStr()),
        ("'<{x!s}>'", StrNotStr()),
        ("'<{x!r}>'", StrNotStr()),
        ("'{x}'", FormatsToSubclass()),  # a lone field: the subclass itself, as the f-string
        ("'{x:>3}'", FormatsToSubclass()),
        ("'<{x}>'", FormatsToSubclass()),  # joined: an exact str
        ("'{x}{x}'", FormatsToSubclass()),
        ("'<{x:%Q}>'", 1.5),  # an invalid spec
    ],
)
def test_lying_values_fail_or_format_as_the_fstring_does(body: str, value: object) -> None:
    expected = _fstring_outcome(body, x=value)
    build = template._template_builder(_LAYOUTS)
    t = eval(rewrite("i" + body), {"__ipy_istring__": build, "x": value})
    assert _template_outcome(t, str) == expected
    assert _template_outcome(t, format) == expected
    assert _template_outcome(t, _reference) == expected


@needs_accelerator
def test_an_exception_from_format_propagates_unchanged() -> None:
    value = RaisesInFormat()
    t = _build("i'a{x}b'", value)
    for render in (str, format, lambda t: format(t, ">9"), lambda t: f"{t}"):
        with pytest.raises(Boom) as info:
            render(t)
        assert info.value is value.error


@needs_accelerator
def test_conversion_and_spec_run_in_the_fstrings_order() -> None:
    """Before 3.13 the f-string evaluates a field's spec before its conversion, from 3.13
    after: the accelerator follows the interpreter it runs on."""
    calls: list[str] = []

    class Logs:
        def __init__(self, name: str) -> None:
            self.name = name

        def __repr__(self) -> str:
            calls.append("repr " + self.name)
            return self.name

        def __format__(self, spec: str) -> str:
            calls.append("format " + self.name)
            return ">4" if self.name == "spec" else self.name

    value, spec = Logs("value"), Logs("spec")
    f_text = eval("f'{v!r:{s}}'", {"v": value, "s": spec})
    f_order, calls[:] = calls[:], []
    t = _build("i'{x!r:{w}}'", value, spec)
    assert str(t) == f_text
    assert calls == f_order


@needs_accelerator
def test_huge_values_format_and_join() -> None:
    wide = "✓" * 1_000_000
    huge = "x" * 5_000_000
    t = _build("i'{x}é{y:>1000001}\U0001f600'", huge, wide)
    expected = f"{huge}é{wide:>1000001}\U0001f600"
    assert str(t) == expected == _reference(t)
    t = _build("i'a{x}'", 10**5000)
    with pytest.raises(ValueError) as compiled:  # the int-to-str length limit
        str(t)
    with pytest.raises(ValueError) as reference:
        f"a{10**5000}"
    assert str(compiled.value) == str(reference.value)


@needs_accelerator
def test_recursion_ends_in_recursionerror_not_a_crash() -> None:
    """A value that renders the template holding it, and a chain of templates nested far
    deeper than the recursion limit, fail with RecursionError, as the Python methods do."""

    class Loops:
        template: Any = None

        def __format__(self, spec: str) -> str:
            return format(self.template)

    loops = Loops()
    loops.template = _build("i'<{x}>'", loops)
    with pytest.raises(RecursionError):
        str(loops.template)

    build, key = template._template_builder(_LAYOUTS), _layout_key("i'({x})'")
    nested: Any = "core"
    for _ in range(100_000):
        nested = build(key, nested)
    with pytest.raises(RecursionError):
        str(nested)
    del nested


@needs_accelerator
def test_user_code_that_reassigns_the_slots_and_collects_garbage_mid_format() -> None:
    """The formatter holds what it reads: a __format__ that replaces the template's layout
    and values and runs the garbage collector leaves the rendering intact."""
    holder: dict[str, Any] = {}

    class Meddles:
        def __format__(self, spec: str) -> str:
            t = holder["t"]
            t._values = ("replaced",)
            t._layout = _build("i'{x}'", 0)._layout
            gc.collect()
            return "m"

    for _ in range(20):
        holder["t"] = _build("i'{x}|{y!r:>{w}}|{z}'", Meddles(), "gone" * 50, 9, Meddles())
        text = str(holder["t"])
        assert text == "m|" + format(repr("gone" * 50), ">9") + "|m"
        gc.collect()


def _leaks(run: Callable[[], object], watched: list[object]) -> tuple[list[int], int]:
    """Reference-count deltas of the watched objects and net traced bytes over 10k runs."""
    for _ in range(200):  # warm up: caches, interned strings, the formatter's first compile
        run()
    gc.collect()
    counts = [sys.getrefcount(obj) for obj in watched]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(10_000):
            run()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    after = [sys.getrefcount(obj) for obj in watched]
    return [now - then for now, then in zip(after, counts)], grown


@needs_accelerator
def test_no_reference_or_memory_leaks_on_success_and_failure() -> None:
    value, spec, failing = object(), f">{30}", RaisesInFormat()
    key = _layout_key("i'a{x!r:{w}}b{y}c'")
    build = template._template_builder(_LAYOUTS)
    layout = _LAYOUTS[key]

    def succeeds() -> object:
        t = build(key, value, spec, "y")
        return str(t), format(t), format(t, "<80"), t.interpolations

    def fails() -> object:
        t = build(key, value, spec, failing)
        try:
            format(t, ">9")
        except Boom as error:
            error.__traceback__ = None  # (it would keep this frame, and t, alive)
        with contextlib.suppress(IndexError):
            build(10**9, value)
        return t

    for run in (succeeds, fails):
        deltas, grown = _leaks(run, [value, spec, failing, layout, failing.error])
        assert deltas == [0, 0, 0, 0, 0], run.__name__
        assert grown < 64_000, run.__name__  # 10k leaked templates would be ~1 MB


# The rewrite's fast path in C (_speedups.rewrite_simple); tests/test_rewrite.py compares its
# output with the Python reference's on every fast-path case.


@needs_accelerator
def test_the_rewrite_uses_the_c_fast_path_with_the_accelerator() -> None:
    assert _fast_path._compiled is template._speedups
    source = "t = i'{x}'\n"
    python = _fast_path._python_rewrite_simple(source, BUILDER_NAME, rewrite_module._layout_key)
    assert rewrite(source) == python


@needs_accelerator
def test_the_c_fast_path_passes_errors_through_and_refuses_bad_arguments() -> None:
    def failing_key(strings: object, fields: object) -> int:
        raise Boom("no key")

    _fast_path._CALLS.clear()
    with pytest.raises(Boom, match="no key"):
        _fast_path.rewrite_simple("t = i'{x} new'\n", "b", failing_key)  # type: ignore[arg-type]
    assert _fast_path._CALLS == {}
    compiled, patterns = template._speedups, _fast_path._patterns()
    with pytest.raises(TypeError):
        compiled.rewrite_simple("t = i'{x}'", "b", failing_key, patterns, [], 9, None)
    with pytest.raises(AttributeError):
        compiled.rewrite_simple("t = i'{x}'", "b", failing_key, object(), {}, 9, None)


@needs_accelerator
def test_the_c_fast_path_keeps_its_cache_bounded() -> None:
    _fast_path._CALLS.clear()
    count = _fast_path._MAX_CALLS + 5
    source = "".join(f"t{n} = i'bounded {n} {{x}}'\n" for n in range(count))
    assert rewrite(source).count(BUILDER_NAME) == count
    assert 0 < len(_fast_path._CALLS) <= _fast_path._MAX_CALLS


@needs_accelerator
def test_no_leaks_in_the_c_fast_path() -> None:
    source = "t = i'a {x} b {y!r:>3}' + f'{z}'  # i'{w}'\nu = i'''x\n{z=}'''\n"
    new = iter(range(10**9))

    def rewrites() -> object:
        _fast_path._CALLS.clear()
        rewrite(source)  # each literal's call made
        rewrite(source)  # and remembered
        with contextlib.suppress(SyntaxError):
            rewrite("t = i'{x'\n")  # left to the full rewrite, which refuses it
        return rewrite(f"t = i'{{x}} {next(new) % 50}'\n")  # new or known layouts

    deltas, grown = _leaks(rewrites, [source])
    assert deltas == [0]
    assert grown < 64_000


# The cell check's tree walks in C (_speedups.put_aside, call_at, rebound, import_bindings)
# against their Python references (check.flow, check.cell), on the project's own code, the
# check's corpus and a sample of the standard library: every kind of node the parser makes.

_STDLIB = Path(sysconfig.get_paths()["stdlib"])
_WALKED_MODULES = [
    "ast.py", "argparse.py", "asyncio/tasks.py", "contextlib.py", "dataclasses.py",
    "email/_header_value_parser.py", "functools.py", "inspect.py",
    "statistics.py", "typing.py", "tarfile.py", "pydoc.py", "collections/__init__.py",
    "difflib.py", "enum.py",
]  # fmt: skip
_MATCH_AND_MORE = '''
import a.b.c as d, e.f
from .g import h
from i.j import (k as l, m)
from n import *
match command.split():
    case [action, *rest] if rest: go(action, rest)
    case {"x": x, **others}: go(x)
    case Point(x=0, y=yy) | [yy]: go(yy)
    case _: pass
async def f(a, /, b=1, *c, d, e=f"{x!r:>{w}}", **g):
    async with p() as q, r: await s(q)
    async for t in u: yield [v async for v in t if v]
    global w1
    nonlocal_like = {k: v for k, v in zip(a, b)} | {**g}
    del a[b:c], d.e
    try: pass
    except* (E, F) as exc: raise
    lambda *, kw=1: kw
    return (yield from x) if y else z
class C(B, metaclass=M):
    def method(self): self.x: int = (cur := self.db.cursor()); cur.execute(self.q)
os.system(f"cat {x}") ; cur.execute(*sql(i"select {col}")) ; subprocess.run(["ls", x])
'''


def _walked_sources() -> list[str]:
    paths = [ROOT / "ipy_istring" / "check" / name for name in ("flow.py", "fix.py")]
    paths += [_STDLIB / name for name in _WALKED_MODULES]
    sources = [path.read_text(encoding="utf-8") for path in paths]
    sources.append(_MATCH_AND_MORE if sys.version_info >= (3, 11) else "")
    return sources


def _trees() -> list[ast.Module]:
    from ipy_istring.rewrite import rewrite

    return [ast.parse(rewrite(source)) for source in _walked_sources()]


@needs_accelerator
def test_call_at_finds_what_the_python_walk_finds_at_every_place() -> None:
    """At the place of every call's function (where the text search finds a sink call) and
    at the start of every node, in every statement: the same call and functions, or None."""
    from ipy_istring.check import flow

    compared = found = 0
    for tree in _trees():
        for statement in tree.body:
            places = set()
            for node in ast.walk(statement):
                if hasattr(node, "end_lineno"):
                    places.add((node.lineno, node.col_offset))
                    places.add((node.end_lineno, max(node.end_col_offset - 1, 0)))
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    value = node.func.value
                    places.add((value.end_lineno, value.end_col_offset))  # `cur.execute(`
            for line, column in sorted(places):
                python = flow._python_call_at(statement, line, column)
                compiled = template._speedups.call_at(statement, line, column)
                if python is None:
                    assert compiled is None, (line, column)
                else:
                    assert compiled is not None, (line, column)
                    assert compiled[0] is python[0]
                    assert len(compiled[1]) == len(python[1])
                    assert all(c is p for c, p in zip(compiled[1], python[1], strict=True))
                    found += 1
                compared += 1
    assert compared > 50_000 and found > 5_000, (compared, found)


@needs_accelerator
def test_dotted_names_match_the_python_version() -> None:
    from ipy_istring.check import flow

    named = 0
    for tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.expr):
                assert template._speedups.dotted(node) == flow._python_dotted(node)
                named += isinstance(node, ast.Attribute)
    deep = ast.parse("f" + "()" * 200 + ".a" * 200).body[0].value  # type: ignore[attr-defined]
    assert template._speedups.dotted(deep) == flow._python_dotted(deep)
    assert named > 10_000


@needs_accelerator
def test_places_and_line_numbers_match_the_python_versions() -> None:
    """Lines and UTF-8 columns of offsets (sorted, as the check gives them, and not), on
    sources with characters of 1 to 4 bytes."""
    from ipy_istring.check import flow

    compiled = template._speedups
    sources = [*_walked_sources(), "a = 'é€𝄞'\nb = 1  # ü\n\n\nc = '😀' + x\n", "", "\n\n"]
    for source in sources:
        for step in (1, 7, 97):
            offsets = list(range(0, len(source) + 1, step))
            for chosen in (offsets, offsets[::-1], offsets[len(offsets) // 2 :] + offsets):
                assert compiled.places(source, chosen) == flow._python_places(source, chosen)
                for every in (False, True):
                    assert compiled.line_numbers(source, chosen, every) == (
                        flow._python_line_numbers(source, chosen, every)
                    )
    with pytest.raises(ValueError):
        compiled.places("ab", [3])
    with pytest.raises(TypeError):
        compiled.line_numbers("ab", (1,))


@needs_accelerator
def test_rebound_and_import_bindings_match_the_python_versions() -> None:
    from ipy_istring.check import cell, flow

    functions = 0
    for tree in _trees():
        imports = sum(type(s) in (ast.Import, ast.ImportFrom) for s in tree.body)
        for count in (imports, imports + 1, max(imports - 1, 0)):
            expected = cell._python_import_bindings(tree.body, count)
            assert template._speedups.import_bindings(tree.body, count) == expected
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                assert template._speedups.rebound(node.body) == flow._python_rebound(node.body)
                functions += 1
    assert functions > 1_000


def _analysis_tables(analysis: Any) -> dict[str, Any]:
    """What putting statements aside leaves in an analysis, with nodes by identity."""

    def named(value: object) -> object:
        return id(value) if isinstance(value, ast.AST) else repr(value)

    return {
        "put_aside": {
            name: ([id(s) for s in statements], repr(before))
            for name, (statements, before) in analysis.put_aside_names.items()
        },
        "module": {name: repr(value) for name, value in analysis.module.names.items()},
        "unparsed": {name: named(value) for name, value in analysis.unparsed.items()},
        "functions": {name: id(node) for name, node in analysis.functions.items()},
        "returns": {name: repr(value) for name, value in analysis.returns.items()},
        "helpers": {name: id(node) for name, node in analysis.helpers.items()},
        "imports": dict(analysis.imports),
    }


@needs_accelerator
@pytest.mark.parametrize("imports_read", [False, True])
def test_put_aside_leaves_the_tables_the_python_loop_leaves(
    imports_read: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statements of each source put aside in cells of 7, after a cell that defines the
    helpers the later ones redefine, by the C loop and by the Python one."""
    from ipy_istring.check import cell, flow

    helper = (
        "import os\ndef run(cmd):\n    os.system(cmd)\nshow = lambda q: cur.execute(q)\n"
        "def main(x):\n    os.system(x)\n"
    )
    helper_tree = ast.parse(helper)
    again = ast.parse("run = 1\ndef show(): pass\nmain: int = 2").body
    for tree in _trees():
        tables = []
        for compiled in (template._speedups, None):
            monkeypatch.setattr(flow, "_compiled", compiled)
            analysis = flow.Analysis()
            analysis.check(helper_tree, helper, lazy=True)
            assert analysis.helpers
            body = [*tree.body, *again]
            for start in range(0, len(body), 7):
                chunk, imports = body[start : start + 7], None
                if imports_read:
                    count = sum(type(s) in (ast.Import, ast.ImportFrom) for s in chunk)
                    imports = cell._python_import_bindings(chunk, count)
                analysis.put_aside(chunk, imports)
            tables.append(_analysis_tables(analysis))
        assert tables[0] == tables[1]
        assert tables[0]["put_aside"] and tables[0]["unparsed"]


_CELLS_CHECKED = r"""
import ast, json, sys, warnings
sys.path.insert(0, sys.argv[1])
from check_corpus import CASES, HELDOUT, HELDOUT2, HELDOUT3, HELDOUT4, HELDOUT5, HELDOUT6, HELDOUT7
from check_corpus import HELDOUT8, HELDOUT9, HELDOUT10
from IPython.core.inputtransformer2 import TransformerManager
from ipy_istring.check.cell import CellChecker
from ipy_istring.rewrite import rewrite
import ipy_istring.check.flow as flow
warnings.simplefilter("ignore")
transform, out = TransformerManager().transform_cell, []
corpora = (
    CASES, HELDOUT, HELDOUT2, HELDOUT3, HELDOUT4, HELDOUT5, HELDOUT6, HELDOUT7, HELDOUT8, HELDOUT9,
    HELDOUT10,
)
for corpus in corpora:
    for case in corpus:
        checker = CellChecker()
        for cell in case.cells or (case.code,):
            try:
                source = rewrite(transform(cell))
                tree = ast.parse(source)
            except SyntaxError:
                continue
            found = checker.check(tree, source)
            out.append([case.name, [(f.line, f.column, f.how, f.message()) for f in found]])
print(json.dumps([flow._compiled is not None, out]))
"""


def test_every_corpus_cell_gets_the_same_findings_with_and_without_the_accelerator() -> None:
    """Each case of the check's corpora, its cells in order through the cell check (the path
    of the C tree walks), in a pure-Python process and an accelerated one."""
    results = []
    for pure in ("1", "0"):
        done = subprocess.run(
            [sys.executable, "-c", _CELLS_CHECKED, str(TESTS)],
            capture_output=True, text=True, check=True, cwd=ROOT,
            env={**os.environ, "IPY_ISTRING_PURE_PYTHON": pure},
        )  # fmt: skip
        results.append(json.loads(done.stdout))
    (pure_used, pure_found), (compiled_used, compiled_found) = results
    assert not pure_used and compiled_used == ACCELERATED
    assert pure_found == compiled_found
    assert sum(bool(findings) for _, findings in pure_found) > 400


@needs_accelerator
def test_the_tree_walks_refuse_bad_arguments_and_pass_errors_through() -> None:
    from ipy_istring.check import flow

    compiled = template._speedups
    statement = ast.parse("cur.execute(q)").body[0]
    with pytest.raises(TypeError):
        compiled.call_at(statement, "1", 3)
    with pytest.raises(AttributeError):
        compiled.call_at(object(), 1, 3)  # (not a node: no `_fields`)
    statement.value.lineno = "one"  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="not a line or column"):
        compiled.call_at(statement, 1, 3)
    with pytest.raises(TypeError):
        compiled.import_bindings((), 0)
    with pytest.raises(TypeError):
        compiled.put_aside([], False, {}, {}, {}, {}, {}, [], None, print, print)

    def fails(statement: ast.stmt) -> None:
        raise Boom("other")

    tables = [{}, {}, {}, {}, {}, {}]
    body = ast.parse("x = 1\nclass C: pass\ny = 2").body
    with pytest.raises(Boom, match="other"):
        compiled.put_aside(body, False, *tables, flow._MISSING, print, fails)
    assert list(tables[0]) == ["x"]  # (in order: what came before the failure is noted)


@needs_accelerator
def test_no_leaks_in_the_tree_walks() -> None:
    from ipy_istring.check import flow

    compiled = template._speedups
    source = (
        "import os, a.b as c\nfrom d import e\nparts.append(1)\nx = f'{y}'\n"
        "def run(cmd, *, k):\n    for z in cmd: os.system(z)\nclass K: pass\n"
    )
    tree = ast.parse(source)
    call = tree.body[4].body[0].body[0]  # type: ignore[attr-defined]
    place = (call.value.func.value.end_lineno, call.value.func.value.end_col_offset)
    helper = ast.parse("run = 1").body[0]

    def walks() -> object:
        tables: list[dict[str, Any]] = [{}, {"x": 1}, {"run": helper}, {}, {}, {}]
        compiled.put_aside(tree.body, False, *tables, flow._MISSING, id, id)
        return (
            compiled.call_at(tree.body[4], *place), compiled.call_at(tree.body[0], 1, 0),
            compiled.rebound(tree.body), compiled.import_bindings(tree.body, 2),
            compiled.import_bindings(tree.body, 3), compiled.dotted(call.value.func),
            compiled.dotted(ast.Call(func=call.value, args=[], keywords=[])),
        )  # fmt: skip

    assert walks()[0][0] is call.value
    deltas, grown = _leaks(walks, [tree, tree.body[4], call.value, helper])
    assert deltas == [0, 0, 0, 0]
    assert grown < 64_000


# The judging of a cell's sink calls from each call alone in C (_speedups.may_reach) against
# the Python loop (flow.Analysis._python_may_reach): every sink call of each cell of the
# check's corpora, in a notebook's order, and a sample of the shapes a call takes.

_CALL_SHAPES = [
    "cur.execute('SELECT 1')",
    "cur.execute('SELECT * FROM t WHERE a = ?', (x,))",
    "cur.execute(query)",
    "cur.execute(f'SELECT {x}')",
    "cur.execute(*sql(i'SELECT {x}'))",
    "cur.execute(*(q, p))",
    "cur.execute(*args)",
    "cur.execute(sql='SELECT 1')",
    "cur.execute(sql=query)",
    "cur.execute(operation=f'{x}')",
    "cur.execute()",
    "cur.executemany('INSERT INTO t VALUES (?)', rows)",
    "engine.execute(text('SELECT 1'))",
    "pd.read_sql('SELECT 1', con)",
    "pd.read_sql(sql=q, con=con)",
    "def f(q):\n    cur.execute(q)",
    "def f(q):\n    q = q + ' x'\n    cur.execute(q)",
    "def f(q):\n    def g():\n        cur.execute(q)\n    return g",
    "def f(*q, **k):\n    cur.execute(q)\n    cur.execute(k)",
    "async def f(q, /, *, r):\n    await conn.fetch(r)",
    "def f(q):\n    for q in qs:\n        cur.execute(q)",
    "def f(q):\n    import q\n    cur.execute(q)",
    "lambda q: cur.execute(q)",
    "import os\nos.system('ls')",
    "import os\nos.system(cmd)",
    "import os\nos.system(build(cmd))",
    "import os\nos.popen(f'ls {x}')",
    "import subprocess\nsubprocess.run(['ls', x])",
    "import subprocess\nsubprocess.run(('ls', x))",
    "import subprocess\nsubprocess.run([x, 'ls'])",
    "import subprocess\nsubprocess.run([])",
    "import subprocess\nsubprocess.run(['bash', '-c', x])",
    "import subprocess\nsubprocess.run(['/bin/sh', '-ec', x])",
    "import subprocess\nsubprocess.run(['sh', x, y])",
    "import subprocess\nsubprocess.run(['ssh', host, x])",
    "import subprocess\nsubprocess.run(['sudo', 'sh', '-c', x])",
    "import subprocess\nsubprocess.run(x, shell=True)",
    "import subprocess\nsubprocess.run(x, shell=False)",
    "import subprocess\nsubprocess.run(x, shell=0)",
    "import subprocess\nsubprocess.run(x, shell=use_shell)",
    "import subprocess\nsubprocess.run(['ls', x], **options)",
    "import subprocess\nsubprocess.run('ls', shell=True)",
    "import subprocess\nsubprocess.check_output(f'ls {x}', shell=True)",
    "import subprocess as sp\nsp.Popen(['ls', x], shell=False)",
    "from subprocess import run\nrun(['ls', x])",
    "import shlex, subprocess\nsubprocess.run(shlex.split(x))",
    "import os\nos.execvp('sh', ['sh', '-c', x])",
    "import asyncio\nasyncio.create_subprocess_shell(x)",
    "import asyncio\nasyncio.create_subprocess_exec('ls', x)",
    "get_ipython().system('ls {x}')",
    "get_ipython().system('ls $x')",
    "get_ipython().system('ls')",
    "get_ipython().getoutput('ls {x}')",
    "get_ipython().run_line_magic('sx', 'ls {x}')",
    "get_ipython().run_line_magic('time', 'f(x)')",
    "get_ipython().run_cell_magic('bash', '', x)",
    "ip = get_ipython()\nip.system('ls')",
    "import functools, os\nrun = functools.partial(os.system)\nrun(x)",
    "import duckdb\nduckdb.sql(f'SELECT {x}')",
    "import duckdb\nduckdb.query('SELECT 1')",
    "conn.exec_driver_sql(q)",
    "client.exec_command(f'ls {x}')",
    "(cur).execute(q)",
    "cur.execute(q)[0].execute('x')",
    "x = [cur.execute(q) for q in qs]",
    "x = [cur.execute(q) for q in 'ab']",
    "cur.execute('a' 'b')",
    "cur.execute(b'SELECT 1')",
    "cur.execute(None)",
    "cur.execute(1)",
]


@needs_accelerator
def test_sink_calls_are_judged_as_the_python_loop_judges_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each sink call of every corpus cell (through the cell check, so the analysis holds
    what a notebook's earlier cells left) and of each shape above, judged alone by the C
    loop and by the Python one: the same judgement."""
    import check_corpus
    from IPython.core.inputtransformer2 import TransformerManager

    from ipy_istring.check import flow
    from ipy_istring.check.cell import CellChecker

    compiled_loop = flow.Analysis._may_reach
    judged = {True: 0, False: 0}
    differ = []  # (the cell check keeps quiet on an exception: an assert here would be lost)

    def both(
        analysis: Any, tree: ast.Module, source: str, places: list[Any], imports: Any
    ) -> bool:
        for place in places:
            analysis._rebound_in = {}
            python = analysis._python_may_reach(tree, source, [place], imports)
            if compiled_loop(analysis, tree, source, [place], imports) != python:
                differ.append((source, place))
            judged[python] += 1
        return bool(compiled_loop(analysis, tree, source, places, imports))

    monkeypatch.setattr(flow.Analysis, "_may_reach", both)
    transform = TransformerManager().transform_cell
    names = ["CASES", *(f"HELDOUT{n}" for n in ("", *range(2, 9)))]
    corpora = [getattr(check_corpus, name) for name in names]
    notebooks = [case.cells or (case.code,) for corpus in corpora for case in corpus]
    notebooks += [(shape,) for shape in _CALL_SHAPES]
    notebooks.append(tuple(_CALL_SHAPES))  # (each shape after the others: helpers, imports)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cells in notebooks:
            checker = CellChecker()
            for cell in cells:
                try:
                    source = rewrite(transform(cell))
                    tree = ast.parse(source)
                except SyntaxError:
                    continue
                checker.check(tree, source)
    assert not differ
    assert judged[True] > 300 and judged[False] > 300, judged


@needs_accelerator
def test_the_possible_sinks_of_a_name_are_asked_once() -> None:
    """The C loop reads the possible sinks of a call from the memo the Python method fills
    (its key made alike), so a call of the same name in a later cell asks nothing."""
    from ipy_istring.check import flow

    asked: list[str] = []
    analysis = flow.Analysis()
    python = analysis._possible_sinks

    def counted(func: ast.expr, imports: Any) -> Any:
        asked.append(ast.unparse(func))
        return python(func, imports)

    analysis._possible_sinks = counted  # type: ignore[method-assign]
    source = "import subprocess as sp\ncur.execute('SELECT 1')\nsp.run(['ls', x])\n"
    tree = ast.parse(source)
    places = flow._places(source, [27, 48])
    imports = {"sp": "subprocess"}
    for _ in range(2):
        assert analysis._may_reach(tree, source, places, imports) is False
    assert asked == ["cur.execute", "sp.run"]


@needs_accelerator
def test_the_c_judging_refuses_bad_arguments_passes_errors_through_and_leaks_nothing() -> None:
    from ipy_istring.check import flow

    compiled = template._speedups
    source = (
        "import subprocess\ncur.execute('SELECT 1')\nsubprocess.run(['ls', x])\n"
        "def f(q):\n    cur.execute(q)\nsubprocess.run(['bash', '-c', x])\n"
    )
    tree = ast.parse(source)
    offsets = [source.index(".execute"), source.index("subprocess.run")]
    offsets += [source.index(".execute(q)"), source.rindex("subprocess.run")]
    places = flow._places(source, offsets)
    analysis, imports = flow.Analysis(), {"subprocess": "subprocess"}
    with pytest.raises(TypeError):
        compiled.may_reach(tree.body, places, source, {}, (), ())
    with pytest.raises(TypeError, match="a place is a"):
        analysis._may_reach(tree, source, [(1, 2, 3)], {})

    def fails(*arguments: object) -> bool:
        raise Boom("judged")

    analysis._passes_no_format = fails  # type: ignore[method-assign]
    with pytest.raises(Boom, match="judged"):  # (the bash -c call: asked of Python)
        analysis._may_reach(tree, source, places, imports)
    del analysis._passes_no_format
    assert analysis._may_reach(tree, source, places[:3], imports) is False
    assert analysis._may_reach(tree, source, places, imports) is True

    def judges() -> object:
        fresh = flow.Analysis()
        return fresh._may_reach(tree, source, places[:3], imports), fresh._may_reach(
            tree, source, places, imports
        )

    assert judges() == (False, True)
    calls = [tree.body[1].value, tree.body[3].body[0].value]  # type: ignore[attr-defined]
    deltas, grown = _leaks(judges, [tree, tree.body[3], *calls])
    assert deltas == [0, 0, 0, 0]
    assert grown < 64_000


# The search for the calls that may be sinks in C (_speedups.calls_in) against the Python
# reference (check.sinks.CallFinder._python_calls_in), which searches with the patterns.

_SEARCHED_TEXTS = [
    "",
    ".",
    "cur.execute(q)",
    "cur . execute ( q )",
    "cur.\n    execute\n(q)",
    "cur.\u00a0execute\u2003(q)",  # (spaces \s matches beyond ASCII)
    "cur.execute\u00e9(q)",
    "cur.\u00e9execute(q)",
    "x.executemany(q); y.executem(q); z.execute_x(q); w._execute(q)",
    "a.run(b.run(c.system(d)))",
    ".run(.run(",
    "cur.execute",
    "cur.execute  ",
    "5.execute(q); 1.5e3.run(x)",
    "os.system(x); myos.system(y); x.os.system(z); xsubprocess.run(w); \u00e9subprocess.run(v)",
    "subprocess.run(x); subprocess .run(y); subprocess.run\t(z); subprocess.runx(w)",
    "pd.read_sql(q); pd.read_sql_query(q); pdx.read_sql(q); _pd.read_sql(q)",
    "local['sh'](x); local [x]; bash['-c', y](); \u00e9bash['-c']",
    "\U0001f600.execute(q) \U0001f600 subprocess.run(x)",  # (a 4-byte text)
    "\u0101.execute(q) subprocess.run(x)",  # (a 2-byte text)
]


@needs_accelerator
def test_the_search_for_sink_calls_finds_what_the_python_search_finds() -> None:
    """On every text of the check's corpora, the project's own check code and the texts
    above, with the imports that make different sink functions searched."""
    import check_corpus

    from ipy_istring.check.sinks import imported_names, sinks

    names = ["CASES", *(f"HELDOUT{n}" for n in ("", *range(2, 9)))]
    texts = [*_SEARCHED_TEXTS, *_walked_sources()]
    for corpus in names:
        for case in getattr(check_corpus, corpus):
            texts += [case.code, *case.cells]
    found = 0
    for text in texts:
        for imports in (
            {},
            imported_names(text),
            {"subprocess": "subprocess", "os": "os", "pd": "pandas", "plumbum": "plumbum"},
            {"sp": "subprocess", "run": "os.system", "system": "os.system"},
        ):
            finder = sinks.call_finder("", imports, read_imports=False)
            assert finder.method_names is not None
            python = finder._python_calls_in(text)
            assert finder.calls_in(text) == python, (text, imports)
            found += len(python)
    assert found > 4_000, found


@needs_accelerator
def test_the_c_search_refuses_bad_arguments_passes_errors_through_and_leaks_nothing() -> None:
    from ipy_istring.check.sinks import sinks

    compiled = template._speedups
    with pytest.raises(TypeError):
        compiled.calls_in(b"x.run(", frozenset({"run"}), None, ())
    with pytest.raises(TypeError):
        compiled.calls_in("x.run(", ["run"], None, ())
    with pytest.raises(TypeError):
        compiled.calls_in("x.run(", frozenset({"run"}), None, (1,))

    def fails(source: str, at: int) -> None:
        raise Boom("matched")

    with pytest.raises(Boom, match="matched"):
        compiled.calls_in("os.system(x)", frozenset({"run"}), fails, ("os",))
    assert compiled.calls_in("os.system(x)", frozenset({"run"}), fails, ("sp",)) == []
    finder = sinks.call_finder("", {"os": "os", "subprocess": "subprocess"}, read_imports=False)
    text = "import os\nos.system(x); cur.execute(q)\nsubprocess.run(y)\n" * 3

    def search() -> object:
        return finder.calls_in(text)

    assert search() == finder._python_calls_in(text)
    deltas, grown = _leaks(search, [text, finder.method_names])
    assert deltas == [0, 0]
    assert grown < 64_000


# The helper noting in C (_speedups.statements_on, helper_statements, called_offsets) against
# its Python references (check.flow), on the same sources as the tree walks.


@needs_accelerator
def test_statements_on_and_helper_statements_match_the_python_versions() -> None:
    """Every line of each source alone, every third line, and lines out of the text."""
    from ipy_istring.check import flow

    compiled = template._speedups
    helpers = 0
    texts = [*_walked_sources(), "x = (1,\n  2); f = lambda q: g(q); y = 3\nz = 4\n", ""]
    for text in texts:
        body = ast.parse(rewrite(text)).body
        last = text.count("\n") + 2
        chosen = [[n] for n in range(-1, last + 1)]
        chosen += [list(range(0, last, 3)), list(range(1, last, 2)), []]
        for lines in chosen:
            assert compiled.statements_on(body, lines) == flow._python_statements_on(body, lines)
            found = compiled.helper_statements(body, lines)
            expected = flow._python_helper_statements(body, lines)
            assert len(found) == len(expected)
            assert all(c is p for c, p in zip(found, expected, strict=True))
            helpers += len(found)
    assert helpers > 1_000


_CALLED_NAMES = [
    ((), ("sh",)),
    (("run",), ()),
    (("run", "run_all", "r"), ("sh", "bash")),
    (("run_all", "run"), ()),
    (("e\u0301x", "x"), ("e\u0301",)),
    (("f", "fetch", "fetch_all"), ("fetch",)),
    (("a.b", "(", "x+"), ("[",)),  # (not names: the regex's escapes)
    (("run", "a.b"), ("sh",)),  # (one name not a word: the names searched one by one)
    (("x\u00b2", "\u0661run", "\u00e9x", "_"), ("r",)),  # (words: letters and digits of Unicode)
    ((), ()),
]
_CALLED_TEXTS = [
    "run(x)\nrun (x)\nrun\t\n(x)\nxrun(x)\n_run(x)\n.run(x)\ndef run(x): pass\nasync def run(",
    "run_all(1) run_al(2) runrun(3) r(4) r [5] sh[6] sh (7) sh\u00a0[8] bash\u2003(9) éx(x(",
    "e\u0301x(1) e\u0301[2] x(3) \u00e9x(4) \u0661run(5) \u00b2run(6) \u3000run(7) run\u2028(8)",
    "fetch(cur) cur.fetch(1) fetch_all(2) fetchall(3) f(4) ff(5) def f(6) def  f(7) f",
    "a.b(1) ( (2) x+ (3) [4] ((5) [[6]",
]


@needs_accelerator
def test_called_offsets_match_the_python_version() -> None:
    """Names that are prefixes of others (the regex tries them in order), whitespace of every
    kind before the parenthesis, and the characters that rule a match out before it."""
    from ipy_istring.check import flow

    compiled, found = template._speedups, 0
    texts = [*_CALLED_TEXTS, *_walked_sources()[:3]]
    for calls, commands in [*_CALLED_NAMES, (("join", "append", "get"), ("isinstance",))]:
        for text in texts:
            for piece in (text, text[1:], text[: len(text) // 2]):
                expected = flow._python_called_offsets(piece, calls, commands)
                assert compiled.called_offsets(piece, calls, commands) == expected
                found += len(expected)
    assert found > 500


@needs_accelerator
def test_called_offsets_of_a_big_files_many_helpers_match_the_python_version() -> None:
    """A big file's hundred helpers: the names of every function its sources define, as
    calls and as commands, which the accelerator finds by the word before each bracket."""
    from ipy_istring.check import flow

    compiled, found = template._speedups, 0
    for text in _walked_sources()[:-1]:  # (the last: a few lines of newer syntax)
        names = tuple(sorted(set(re.findall(r"def\s+(\w+)", text))))
        assert len(names) > 16
        for calls, commands in ((names, ()), (names[::2], names[1::2]), ((), names)):
            expected = flow._python_called_offsets(text, calls, commands)
            assert compiled.called_offsets(text, calls, commands) == expected
            found += len(expected)
    assert found > 1_000
    # The edge cases of the names above, among enough names for the search by words.
    filler = tuple(f"unused{n}" for n in range(20))
    for calls, commands in _CALLED_NAMES:
        for text in _CALLED_TEXTS:
            expected = flow._python_called_offsets(text, calls + filler, commands)
            assert compiled.called_offsets(text, calls + filler, commands) == expected
            expected = flow._python_called_offsets(text, calls, commands + filler)
            assert compiled.called_offsets(text, calls, commands + filler) == expected


@needs_accelerator
def test_has_text_is_in() -> None:
    compiled = template._speedups
    texts = [*_CALLED_TEXTS, *_walked_sources()[:2], "", "p", "partia", "é partial", "ab\x00c"]
    words = ["partial", "class ", "def ", "lambda", "p", "", "\x00c", "é", "𝄞", "ial", "partia"]
    for text in texts:
        for piece in (text, text[:-1], text[len(text) // 2 :]):
            for word in words:
                assert compiled.has_text(piece, word) is (word in piece), (piece[:40], word)
    with pytest.raises(TypeError):
        compiled.has_text(b"partial", "partial")


@needs_accelerator
def test_the_helper_noting_refuses_bad_arguments_and_passes_errors_through() -> None:
    compiled = template._speedups
    body = ast.parse("def f(q):\n    run(q)\ng = 1\n").body
    with pytest.raises(TypeError):
        compiled.statements_on(tuple(body), [1])
    with pytest.raises(TypeError):
        compiled.helper_statements(body, ["1"])
    with pytest.raises(TypeError):
        compiled.called_offsets("run(x)", ["run"], ())
    with pytest.raises(TypeError):
        compiled.called_offsets("run(x)", (1,), ())
    body[0].lineno = "one"  # type: ignore[assignment]
    with pytest.raises(TypeError):
        compiled.statements_on(body, [1])
    del body[0].lineno
    with pytest.raises(AttributeError):
        compiled.helper_statements(body, [1])


@needs_accelerator
def test_no_leaks_in_the_helper_noting() -> None:
    compiled = template._speedups
    source = "import os\ndef run(cmd):\n    os.system(cmd)\nshow = lambda q: run(q)\nrun(1)\n"
    tree = ast.parse(source)
    broken = ast.parse("x = 1\ny = 2").body
    del broken[1].lineno

    def notes() -> object:
        with contextlib.suppress(AttributeError):
            compiled.statements_on(broken, [2])
        return (
            compiled.statements_on(tree.body, [1, 3, 4]),
            compiled.helper_statements(tree.body, [2, 4, 5]),
            compiled.called_offsets(source, ("run", "show"), ("os",)),
            compiled.has_text(source, "show"), compiled.has_text(source, "é"),
        )  # fmt: skip

    assert [s.lineno for s in notes()[1]] == [2, 4]
    deltas, grown = _leaks(notes, [tree, tree.body[1], tree.body[2], source])
    assert deltas == [0, 0, 0, 0]
    assert grown < 64_000
