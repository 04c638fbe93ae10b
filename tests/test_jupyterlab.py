"""End to end in a real JupyterLab, a real kernel and Debian's Chromium (headless).

The harness is first proved on a plain ipywidgets Dropdown (so a failure there says "the
harness or the browser set-up is broken", not "ipy_istring is broken"), then the same steps
run on the ipy_istring widget: a cell ending in an i-string shows the template's widget,
switching the renderer changes the rendered output, in the light and the dark theme.
Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
from conftest import CHROMIUM_ARGS
from jupyterlab_support import (
    ARTIFACTS,
    DARK,
    LIGHT,
    REPO,
    JupyterLab,
    chromium,
    open_notebook,
    open_page,
    run_all_cells,
    screenshot,
    wait_for_theme,
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
    path = screenshot(page, f"istring-widget-{slug}.png", cell)
    # The README's screenshots come from this run: IPY_ISTRING_UPDATE_SCREENSHOTS=1 copies them.
    if os.environ.get("IPY_ISTRING_UPDATE_SCREENSHOTS") == "1":
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        target = "widget.png" if theme == LIGHT else "widget-dark.png"
        shutil.copyfile(path, DOCS_SCREENSHOTS / target)
