"""Speed and size of the template display: ``python benchmarks/bench_display.py``.

Each case is timed (best of several runs, in ms) and compared with a baseline: IPython's
own display (``display_formatter.format``) of a plain ``str`` holding the same content,
i.e. the template's rendered text for small templates, the 100 MB string itself for the
huge value, and for a value whose ``__repr__`` returns 100 MB, IPython's display of it.
Sizes are the bytes of the HTML produced.  Then, side by side in the same run: the bundle of a
30-field template against pandas' ``_repr_html_`` of a 10x5 DataFrame (``pip install -e
'.[bench]'``), how often a field value's ``repr`` is read per display, and the display of a
template whose value is ``list(range(10**7))``.  Nothing here asserts on time.  ``--quick``
runs each case once: a smoke run, not a measurement.
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any

from _timing import QUICK, table
from IPython.core.interactiveshell import InteractiveShell

from ipy_istring import display, widget
from ipy_istring.display_options import set_options
from ipy_istring.template import Interpolation, InterpolationTemplate

MB100 = 100 * 1024 * 1024


def best_ms(call: Callable[[], Any], repeat: int = 5) -> float:
    """Best wall time of ``call`` over ``repeat`` runs (one with ``--quick``), in milliseconds."""
    return min(timeit.repeat(call, number=1, repeat=1 if QUICK else repeat)) * 1000


def one_field() -> InterpolationTemplate:
    return InterpolationTemplate(
        "select * from users where name = ", Interpolation("Robert", "name"), ""
    )


def thousand_fields() -> InterpolationTemplate:
    parts: list[Any] = ["select * from t where 1=1"]
    for index in range(1000):
        parts += [f" and c{index} = ", Interpolation(index * 7, f"v[{index}]")]
    return InterpolationTemplate(*parts, "")


def huge_value() -> InterpolationTemplate:
    return InterpolationTemplate("echo ", Interpolation("x" * MB100, "big"), "")


class HugeRepr:
    """A value whose own ``__repr__`` returns 100 MB (its cost is the value's, not ours)."""

    def __repr__(self) -> str:
        return "h" * MB100


def huge_repr() -> InterpolationTemplate:
    return InterpolationTemplate("echo ", Interpolation(HugeRepr(), "obj"), "")


def thirty_fields() -> InterpolationTemplate:
    parts: list[Any] = ["select * from t where 1=1"]
    for index in range(30):
        value: Any = (index * 7, f"name {index}", index / 3)[index % 3]
        parts += [f" and c{index} = ", Interpolation(value, f"row[{index}]")]
    return InterpolationTemplate(*parts, "")


class CountedRepr:
    """A value that counts how often its repr is read."""

    calls = 0

    def __repr__(self) -> str:
        CountedRepr.calls += 1
        return "CountedRepr()"

    def __str__(self) -> str:
        return "counted"


def compare_with_pandas(formatter: Any) -> None:
    """A 30-field template's whole bundle against pandas' HTML of a 10x5 DataFrame."""
    try:
        import pandas
    except ImportError:
        print("\n(pandas is not installed: pip install -e '.[bench]' for the comparison)")
        return
    frame = pandas.DataFrame({f"col{c}": [r * c / 7 for r in range(10)] for c in range(5)})
    template = thirty_fields()
    ours = best_ms(lambda: formatter.format(template), repeat=20)
    theirs = best_ms(frame._repr_html_, repeat=20)
    print(
        f"\n30-field bundle (text + HTML, every renderer) {ours:.2f} ms; pandas 10x5 "
        f"_repr_html_ {theirs:.2f} ms; ratio {ours / theirs:.2f}"
    )


def count_reprs(formatter: Any) -> None:
    """How often each field value's repr is read: 100 displays of 30 fields, with the widget."""
    parts: list[Any] = ["select 1"]
    for index in range(30):
        parts += [f" and c{index} = ", Interpolation(CountedRepr(), f"v{index}")]
    template = InterpolationTemplate(*parts, "")
    CountedRepr.calls = 0
    with set_options(use_widget=True):
        for _ in range(100):
            formatter.format(template)
    widget.close_display_widgets()
    print(
        f"value repr calls, 100 bundles (with widget) of 30 fields: {CountedRepr.calls:,} "
        f"({CountedRepr.calls / 3000:.1f} per field per display)"
    )


def ten_million_items() -> None:
    """The display of a template whose value is a list of 10**7 ints."""
    template = InterpolationTemplate("echo ", Interpolation(list(range(10**7)), "xs"), "")
    ms = best_ms(template._repr_html_, repeat=3)
    print(f"_repr_html_ of a template holding list(range(10**7)): {ms:.2f} ms")


def main() -> None:
    """Print one line per case: time, HTML size, baseline time and the ratio."""
    formatter = InteractiveShell.instance().display_formatter
    cases = [
        ("1 field", one_field(), None),
        ("1,000 fields", thousand_fields(), None),
        ("100 MB str value", huge_value(), "x" * MB100),
        ("100 MB __repr__", huge_repr(), HugeRepr()),
    ]
    rows = []
    for name, template, baseline_value in cases:
        html = display.to_html(template)
        ms = best_ms(lambda t=template: display.to_html(t))
        plain = str(template) if baseline_value is None else baseline_value
        base = best_ms(lambda p=plain: formatter.format(p))
        size = len(html.encode()) / 1024
        rows.append([name, f"{ms:.2f}", f"{size:.1f}", f"{base:.2f}", f"{ms / base:.3g}"])
    table(
        "The static HTML view against IPython formatting the same value",
        ["case", "to_html ms", "HTML KB", "IPython base ms", "ratio"],
        rows,
    )

    bundle_ms = best_ms(lambda: formatter.format(one_field()))
    print(f"\nfull bundle through display_formatter.format, 1 field: {bundle_ms:.2f} ms")
    for name, template in (("1 field", one_field()), ("1,000 fields", thousand_fields())):

        def build(t: InterpolationTemplate = template) -> None:
            widget.TemplateWidget(t).close()

        print(f"widget build + close, {name}: {best_ms(build):.2f} ms")

    compare_with_pandas(formatter)
    count_reprs(formatter)
    ten_million_items()


if __name__ == "__main__":
    main()
