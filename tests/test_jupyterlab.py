"""End to end in a real JupyterLab, a real kernel and Debian's Chromium (headless).

The harness is first proved on a plain ipywidgets Dropdown (so a failure there says "the
harness or the browser set-up is broken", not "ipy_istring is broken"), then the same steps
run on the ipy_istring widget: a cell ending in an i-string shows the template's widget,
switching the renderer changes the rendered output, in the light and the dark theme.  Then:
every text of the widget and the static view meets WCAG AA contrast (4.5:1) in both themes,
measured from Chromium's computed colours; invisible characters show as escapes in the
widget; and each shipped notebook, reopened without running it (untrusted: sanitized HTML;
trusted: with its style), shows every template's expressions, values and default output.
Screenshots land in ``test-artifacts/`` (and, with IPY_ISTRING_UPDATE_SCREENSHOTS=1, in
``docs/screenshots/``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
from conftest import CHROMIUM_ARGS
from jupyterlab_support import (
    ARTIFACTS,
    DARK,
    LIGHT,
    NOTEBOOKS,
    REPO,
    JupyterLab,
    chromium,
    expected_views,
    open_notebook,
    open_page,
    run_all_cells,
    screenshot,
    wait_for_theme,
    wait_kernel_idle,
)

pytestmark = pytest.mark.e2e

DOCS_SCREENSHOTS = REPO / "docs" / "screenshots"


@pytest.fixture(scope="module")
def lab() -> Iterator[JupyterLab]:
    server = JupyterLab(theme=LIGHT)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "jupyterlab-server.log").write_text(server.log(), encoding="utf-8")
        server.cleanup()


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Any]:
    with chromium(chromium_path, CHROMIUM_ARGS) as instance:
        yield instance


@pytest.fixture
def page(browser: Any, lab: JupyterLab) -> Iterator[Any]:
    console: list[str] = []
    with open_page(browser, console) as opened:
        yield opened
        lab.shutdown_kernels()
    # Printed output is shown by pytest only when the test failed.
    print("--- browser console ---\n" + "\n".join(console))
    print("--- jupyter lab log ---\n" + lab.log())


def notebook(*sources: str) -> Any:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(source) for source in sources]
    return nb


PLAIN_WIDGET = """\
import ipywidgets as w
choice = w.Dropdown(options=["alpha", "beta", "gamma"], value="alpha", description="pick")
shown = w.HTML(value="<b>picked: alpha</b>")
choice.observe(lambda change: setattr(shown, "value", f"<b>picked: {change['new']}</b>"),
               names="value")
w.VBox([choice, shown])
"""


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_harness_plain_ipywidgets_dropdown(lab: JupyterLab, page: Any, theme: str) -> None:
    lab.set_theme(theme)
    lab.add_notebook("plain.ipynb", notebook(PLAIN_WIDGET))
    open_notebook(page, lab, "plain.ipynb")
    wait_for_theme(page, theme)
    run_all_cells(page)

    view = page.locator(".jp-OutputArea-output .widget-vbox").first
    view.wait_for(state="visible")
    shown = view.locator(".widget-html-content")
    assert shown.inner_text() == "picked: alpha"

    view.locator(".widget-dropdown select").select_option("gamma")
    page.wait_for_function("el => el.innerText === 'picked: gamma'", arg=shown.element_handle())
    assert shown.inner_text() == "picked: gamma"
    slug = "light" if theme == LIGHT else "dark"
    screenshot(page, f"harness-plain-widget-{slug}.png")


ISTRING_CELLS = (
    "%load_ext ipy_istring",
    'city = "Nuenen\'; drop table users; --"\n'
    "limit = 5\n"
    'i"select name from users where city = {city} limit {limit}"',
)


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_istring_widget_switches_renderer(lab: JupyterLab, page: Any, theme: str) -> None:
    """A cell ending in an i-string shows the ipy_istring widget; picking another renderer
    changes the rendered output, in the real frontend."""
    lab.set_theme(theme)
    lab.add_notebook("istring.ipynb", notebook(*ISTRING_CELLS))
    open_notebook(page, lab, "istring.ipynb")
    run_all_cells(page)

    view = page.locator(".jp-OutputArea-output .widget-vbox:has(.ipyis-root)").first
    view.wait_for(state="visible")
    fields = view.locator(".widget-html-content").nth(0)
    output = view.locator(".widget-html-content").nth(1)
    # The fields table: both expressions, and the hostile value shown as text.
    assert [e.strip() for e in fields.locator(".ipyis-expr").all_inner_texts()] == [
        "city",
        "limit",
    ]
    assert "drop table users" in fields.inner_text()

    buttons = view.locator(".widget-toggle-button")
    labels = [label.strip() for label in buttons.all_inner_texts()]
    assert {"format", "sh", "argv", "sql", "html"} <= set(labels), labels
    # The default renderer is 'format': the f-string's text, the value pasted in.
    selected = view.locator(".widget-toggle-button.mod-active")
    assert selected.inner_text().strip() == "format"
    assert "city = Nuenen'; drop table users; -- limit 5" in output.inner_text()

    buttons.filter(has_text="sql").first.click()
    page.wait_for_function(
        "el => el.innerText.includes('city = ? limit ?')", arg=output.element_handle()
    )
    shown = output.inner_text()
    assert "Nuenen'; drop table users; --" in shown  # now as a parameter value
    assert selected.inner_text().strip() == "sql"

    slug = "light" if theme == LIGHT else "dark"
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(1)
    cell.scroll_into_view_if_needed()
    screenshot(page, f"istring-widget-{slug}.png", cell)


# --- contrast, in both themes, measured from the computed colours --------------------------------

CONTRAST_CELLS = (
    "%load_ext ipy_istring",
    'city = "Nuenen\'; drop table users; --"\n'
    "amount = 42\n"
    'sneaky = "X\\u202e\\u2066\\u2069\\u200bY\\x1b[31m\\r\\b"\n'
    'i"Dear {city}, your balance is {amount:+d} EUR {sneaky}"',
    "%config IStringExtension.use_widget = False\n"
    'i"Dear {city}, your balance is {amount:+d} EUR {sneaky}"',
)

# Every element under an ipy_istring view (widget or static) with text of its own: its text
# colour composited over the first opaque background behind it, and the WCAG contrast ratio.
CONTRAST_JS = """
(roots) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const over = (top, bottom) => ({
    r: top.r * top.a + bottom.r * (1 - top.a),
    g: top.g * top.a + bottom.g * (1 - top.a),
    b: top.b * top.a + bottom.b * (1 - top.a), a: 1});
  const background = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let colour = {r: 255, g: 255, b: 255, a: 1};
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const results = [];
  for (const root of roots) {
    root.querySelectorAll('details').forEach(d => d.open = true);
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      if (!own || !el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      const bg = background(el);
      const fg = over(parse(style.color), bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      results.push({
        text: [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)
          .join('').trim().slice(0, 40),
        cls: el.className && el.className.baseVal === undefined ? el.className : el.tagName,
        color: style.color, ratio: (hi + 0.05) / (lo + 0.05)});
    }
  }
  return results;
}
"""


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_every_text_meets_wcag_aa_contrast(lab: JupyterLab, page: Any, theme: str) -> None:
    lab.set_theme(theme)
    lab.add_notebook("contrast.ipynb", notebook(*CONTRAST_CELLS))
    open_notebook(page, lab, "contrast.ipynb")
    run_all_cells(page)
    live = page.locator(".jp-OutputArea-output .ipyis-widget").first
    live.wait_for(state="visible")
    static = page.locator(".jp-OutputArea-output .ipyis-root.ipyis-wrap").first
    static.wait_for(state="visible")

    # The widget shows every character that could hide or move text as its escape.
    shown = live.inner_text()
    for raw in "\u202e\u2066\u2069\u200b\x1b\r\b":
        assert raw not in shown, repr(raw)
    assert "X\\u202e\\u2066\\u2069\\u200bY\\x1b[31m\\r\\x08" in shown

    measured = page.evaluate(
        CONTRAST_JS,
        [live.element_handle(), static.element_handle()],
    )
    assert len(measured) > 40, measured  # the harness saw the views' texts
    failing = [m for m in measured if m["ratio"] < 4.5]
    slug = "light" if theme == LIGHT else "dark"
    ratios = sorted(m["ratio"] for m in measured)
    (ARTIFACTS / f"contrast-{slug}.txt").write_text(
        f"{len(measured)} texts, lowest {ratios[0]:.2f}, median {ratios[len(ratios) // 2]:.2f}\n"
        + "\n".join(f"{m['ratio']:.2f} {m['cls']!s:40} {m['text']!r}" for m in measured),
        encoding="utf-8",
    )
    assert failing == [], failing

    for index, name in ((1, "widget"), (2, "static")):
        cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
        cell.scroll_into_view_if_needed()
        path = screenshot(page, f"istring-{name}-contrast-{slug}.png", cell)
        # The README's screenshots come from this run: IPY_ISTRING_UPDATE_SCREENSHOTS=1.
        if os.environ.get("IPY_ISTRING_UPDATE_SCREENSHOTS") == "1":
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            suffix = "" if theme == LIGHT else "-dark"
            shutil.copyfile(path, DOCS_SCREENSHOTS / f"{name}{suffix}.png")


def test_the_contrast_harness_sees_a_low_contrast_text(lab: JupyterLab, page: Any) -> None:
    """Positive control: light grey on white, in the same page, is measured as failing."""
    lab.set_theme(LIGHT)
    cell = (
        "from IPython.display import HTML\n"
        "HTML(\"<div class='probe'><span style='color:#bbbbbb'>faint</span></div>\")"
    )
    lab.add_notebook("faint.ipynb", notebook(cell))
    open_notebook(page, lab, "faint.ipynb")
    run_all_cells(page)
    probe = page.locator(".jp-OutputArea-output .probe").first
    probe.wait_for(state="visible")
    measured = page.evaluate(CONTRAST_JS, [probe.element_handle()])
    assert [round(m["ratio"], 1) for m in measured if m["text"] == "faint"] == [1.9]


# --- the shipped notebooks, reopened without running them ----------------------------------------


def trust(lab: JupyterLab, name: str) -> None:
    """Sign the notebook in the lab's own Jupyter data folder, as `jupyter trust` does."""
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", str(lab.root / name)],
        env=lab.environment(),
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize("trusted", [False, True], ids=["untrusted-sanitized", "trusted"])
def test_reopened_notebooks_show_every_template(lab: JupyterLab, page: Any, trusted: bool) -> None:
    lab.set_theme(LIGHT)
    for path in sorted(NOTEBOOKS.glob("0[1-5]-*.ipynb")):
        saved = nbformat.read(path, as_version=4)
        expected = expected_views(saved)
        name = f"reopened-{path.name}"
        lab.add_notebook(name, saved)
        if trusted:
            trust(lab, name)
        open_notebook(page, lab, name)  # opened, not run
        wait_kernel_idle(page)
        views = page.locator(
            ".jp-OutputArea-output[data-mime-type='text/html']:has-text('i-string template')"
        )
        views.nth(len(expected) - 1).wait_for(state="attached")
        assert views.count() == len(expected), f"{path.name}: {views.count()} views"
        for index, (expressions, values, output) in enumerate(expected):
            view = views.nth(index)
            view.scroll_into_view_if_needed()
            # (JupyterLab lays out cells far from the viewport lazily: wait for this one)
            page.wait_for_function(
                "el => el.innerText.includes('i-string template')", arg=view.element_handle()
            )
            shown = view.inner_text()
            for text in (*expressions, *values, output.strip()):
                assert text in shown, f"{path.name}, view {index}: {text!r} not shown"
        if path.name.startswith("01"):
            slug = "trusted" if trusted else "untrusted"
            views.first.scroll_into_view_if_needed()
            screenshot(page, f"reopened-{slug}.png", views.first)
        lab.shutdown_kernels()
