"""Benchmark evaluating an i-literal (building its template) and rendering it, as ratios to
the f-string with the same text (and, on 3.14, to the native t-string).

    python benchmarks/bench_build.py [--quick]

Each literal is timed as the rewritten code a cell runs, compiled into the timing loop
(``python -m timeit`` style) and net of the empty loop, side by side with the f-string and
the t-string in the same run.  Goals (issue 12): building ≤ 3x the f-string with one field,
≤ 1.5x with four, ≤ 1.5x the t-string on 3.14; ``format(t)`` ≤ 2x the f-string.

The last two tables measure the floors in the same run: the least any pure-Python builder or
``__format__`` can cost (a call of a Python function, an allocation), which is what a goal
below them would have to beat.  When the C accelerator (``ipy_istring/_speedups.c``) is in
use, the first two tables also time the pure-Python code in the same run ("pure Python" rows);
``IPY_ISTRING_PURE_PYTHON=1`` runs everything without it.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from _timing import net, ns, ratio, table

from ipy_istring import template
from ipy_istring.rewrite import _LAYOUTS, BUILDER_NAME, build_template, rewrite
from ipy_istring.template import InterpolationTemplate

NATIVE = sys.version_info >= (3, 14)
NAMESPACE = {"x": 42, "name": "world", "pi": 3.14159, "w": 10, "p": 3}
LITERALS = {
    "1 field": "'a{x}'",
    "4 fields (conversion, spec, nested spec)": "'{name!r}: {x:>5} ({x:#x}) {pi:{w}.{p}f}'",
}
ONE_FIELD = LITERALS["1 field"]
NUMBER = 200_000
ACCELERATED = template._speedups is not None
# The code each table times: as installed, and (beside it, when that is the C accelerator) the
# pure-Python code.
KINDS = [""] + [" (pure Python)"] * ACCELERATED


@contextmanager
def code(kind: str) -> Iterator[None]:
    """Run the pure-Python builder and formatting methods inside, for the " (pure Python)"
    kind; the installed ones otherwise."""
    if not kind:
        yield
        return
    installed = {name: InterpolationTemplate.__dict__[name] for name in template._PYTHON_FORMATTING}
    setattr(builtins, BUILDER_NAME, template._python_template_builder(_LAYOUTS))
    for name, method in template._PYTHON_FORMATTING.items():
        setattr(InterpolationTemplate, name, method)
    try:
        yield
    finally:
        setattr(builtins, BUILDER_NAME, build_template)
        for name, method in installed.items():
            setattr(InterpolationTemplate, name, method)


def building() -> None:
    rows = []
    for label, body in LITERALS.items():
        f_time = net("f" + body, NAMESPACE, NUMBER)
        t_time = net("t" + body, NAMESPACE, NUMBER) if NATIVE else 0.0
        for kind in KINDS:
            with code(kind):
                i_time = net(rewrite("i" + body), NAMESPACE, NUMBER)
            row = [label + kind, ns(f_time), ns(i_time), ratio(i_time, f_time)]
            if NATIVE:
                row += [ns(t_time), ratio(i_time, t_time)]
            rows.append(row)
    columns = ["building", "f-string", "i-string", "i/f"]
    columns += ["t-string", "i/t"] if NATIVE else []
    table("Building an i-literal's template vs the f-string (and t-string)", columns, rows)


def rendering() -> None:
    rows = []
    for label, body in LITERALS.items():
        namespace = dict(NAMESPACE)
        namespace["t"] = eval(rewrite("i" + body), namespace)
        f_time = net("f" + body, namespace, NUMBER)
        for kind in KINDS:
            with code(kind):
                format_time = net("format(t)", namespace, NUMBER)
                str_time = net("str(t)", namespace, NUMBER)
            rows.append(
                [label + kind, ns(f_time), ns(format_time), ratio(format_time, f_time),
                 ns(str_time), ratio(str_time, f_time)]
            )  # fmt: skip
    table(
        "Rendering a built template: format(t) and str(t) vs evaluating the f-string",
        ["rendering", "f-string", "format(t)", "ratio", "str(t)", "ratio"],
        rows,
    )


_new = object.__new__


def _call_only(key: int, *values: object) -> None:
    """A builder that does nothing: the cost of calling any Python function."""


def _allocate_only(key: int, *values: object) -> InterpolationTemplate:
    """A builder that only allocates: the least a Python-level builder of the type costs."""
    return _new(InterpolationTemplate)  # type: ignore[no-any-return]


def building_floor() -> None:
    """What the emitted ``__ipy_istring__(KEY, x)`` costs at least, whatever the builder."""
    f_time = net("f" + ONE_FIELD, NAMESPACE, NUMBER)
    t_time = net("t" + ONE_FIELD, NAMESPACE, NUMBER) if NATIVE else None
    rows = []
    for label, builder in [
        ("i-string (the builder the rewrite installs)", build_template),
        ("a Python builder that only allocates the object", _allocate_only),
        ("a Python builder that does nothing", _call_only),
    ]:
        setattr(builtins, BUILDER_NAME, builder)
        i_time = net(rewrite("i" + ONE_FIELD), NAMESPACE, NUMBER)
        row = [label, ns(i_time), ratio(i_time, f_time)]
        row += [ratio(i_time, t_time)] if t_time else []
        rows.append(row)
    setattr(builtins, BUILDER_NAME, build_template)
    rows.append(["f-string", ns(f_time), "1.00x", *([ratio(f_time, t_time)] if t_time else [])])
    if t_time:
        rows.append(["t-string", ns(t_time), ratio(t_time, f_time), "1.00x"])
    table(
        "The floor of building: what __ipy_istring__(KEY, x) costs at least (1 field)",
        ["builder", "time", "/f", *(["/t"] if NATIVE else [])],
        rows,
    )


class _Constant:
    """``__format__``/``__str__`` that return a constant: the cost of the hook alone."""

    def __format__(self, format_spec: str) -> str:
        return "a42"

    def __str__(self) -> str:
        return "a42"


def _text(values: tuple[object, ...]) -> str:
    return "a42"


class _OneCall:
    """``__format__``/``__str__`` that call one Python function (as a layout's formatter)."""

    def __format__(self, format_spec: str) -> str:
        return _text(())

    def __str__(self) -> str:
        return _text(())


def rendering_floor() -> None:
    """What ``format(t)`` costs at least: the hook, and the second Python frame that runs the
    literal's compiled f-string (a frame the hook cannot avoid in pure Python)."""
    namespace = dict(NAMESPACE, constant=_Constant(), one_call=_OneCall())
    namespace["t"] = eval(rewrite("i" + ONE_FIELD), namespace)
    f_time = net("f" + ONE_FIELD, namespace, NUMBER)
    rows = []
    for label, statement in [
        ("format(t), 1 field", "format(t)"),
        ("format(obj): __format__ returns a constant", "format(constant)"),
        ("format(obj): __format__ calls a function returning a constant", "format(one_call)"),
        ("str(t), 1 field", "str(t)"),
        ("str(obj): __str__ returns a constant", "str(constant)"),
        ("str(obj): __str__ calls a function returning a constant", "str(one_call)"),
    ]:
        spent = net(statement, namespace, NUMBER)
        rows.append([label, ns(spent), ratio(spent, f_time)])
    rows.append(["f-string", ns(f_time), "1.00x"])
    table(
        "The floor of rendering: what format()/str() cost before any formatting (1 field)",
        ["run", "time", "/f"],
        rows,
    )


def main() -> None:
    print(
        "C accelerator (ipy_istring._speedups): "
        + ("in use" if ACCELERATED else "not in use (not built, or IPY_ISTRING_PURE_PYTHON=1)")
    )
    setattr(builtins, BUILDER_NAME, build_template)
    building()
    rendering()
    building_floor()
    rendering_floor()


if __name__ == "__main__":
    main()
