"""End to end in a real JupyterLab, a real kernel and Debian's Chromium (headless).

The harness is first proved on a plain ipywidgets Dropdown (so a failure there says "the
harness or the browser set-up is broken", not "ipy_istring is broken"), then the same steps
run on the ipy_istring widget: a cell ending in an i-string shows the template's widget,
switching the renderer changes the rendered output, in the light and the dark theme.
Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import nbformat
import pytest
from conftest import CHROMIUM_ARGS
from jupyterlab_support import (
    ARTIFACTS,
    DARK,
    LIGHT,
    JupyterLab,
    chromium,
    open_notebook,
    open_page,
    run_all_cells,
    screenshot,
    wait_for_theme,
)

pytestmark = pytest.mark.e2e


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
