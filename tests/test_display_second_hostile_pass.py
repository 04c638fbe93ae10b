"""The display against hostile values, the second hostile pass: the static HTML a saved
notebook carries, exported to Markdown, and the first line break of a ``pre``.

- nbconvert's Markdown export (``jupyter nbconvert --to markdown``, the page GitHub, MkDocs or
  a Markdown preview then shows) puts the ``text/html`` of an output in the page as it is,
  and Markdown ends an HTML block at its first blank line.  The bundle had blank lines: the
  stylesheet's, and a value's or an output's own (``"a\\n\\nb"``).  Everything after the first
  was read as Markdown (the rest of the stylesheet, the fields, the outputs), Markdown's
  syntax applied to what will run: ``touch __S__`` showed as ``touch S`` (a
  bold S), ``\\$HOME`` lost its backslash, ``[docs](http://x)`` showed as a link reading
  "docs".  The bundle now has no blank line: the stylesheet's are dropped, and every line
  break of a text is written ``&#10;`` (the same text in a browser).
- The HTML parser drops a line break right after ``<pre>`` (written ``&#10;`` too): a
  template or output starting with one showed without it.  A ``pre`` whose text starts with
  one now starts with one more, the one the parser drops.
- Printable right-to-left letters in values (Hebrew, Arabic: no control, nothing to escape)
  reorder the text around them: Chromium showed the output ``cp א-1 ב-2`` as
  ``cp 2-ב 1-א``, the destination read first, while dash copies in the order written.  An
  output is now shown in a ``bdo dir=ltr`` (an element: it holds without the stylesheet, and
  JupyterLab's sanitizer keeps it), each character left to right in the order it runs.
- The text view's first line named the default renderer by its repr, which keeps a
  character printable but drawn as nothing: a default "sql\\u3164" (a Hangul filler) read
  "renderer 'sql '" in the terminal while the outputs below showed its escape.  It is
  now made visible like every other text.
- The live widget's renderer picker showed the registered names as they are, the one text of
  the view not made visible: a renderer "sql\\u200b" beside "sql" read "sql" twice (which
  one runs is not shown), and a name holding a lone surrogate could not be sent by the
  kernel (UnicodeEncodeError in jupyter_client's packer: a traceback instead of the widget).
  The picker's labels are now the names made visible; the names themselves are unchanged.

Each test runs the user's own text in the real destination (dash), exports a real notebook
with nbconvert, renders its Markdown with markdown-it (CommonMark) and reads the page's text
in Chromium, or displays the widget in a real kernel; the positive control is the same bundle
with its line breaks written as before, or a picker of the names as they are.
"""

from __future__ import annotations

import os
import subprocess
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from ipy_istring import display, html_view
from ipy_istring.display import WIDGET_MIME
from ipy_istring.template import Interpolation, InterpolationTemplate, render_format

pytestmark = pytest.mark.usefixtures("display_options")


def field(value: object, expression: str, spec: str = "") -> Interpolation:
    return Interpolation(value, expression, None, spec)


def _as_before(bundle_html: str) -> str:
    """The bundle's HTML as the old display wrote it: line breaks as they are, the
    stylesheet with its blank lines."""
    css = resources.files("ipy_istring").joinpath("display.css").read_text(encoding="utf-8")
    old_style = f"<style>{css}</style>"
    return bundle_html.replace("&#10;", "\n").replace(html_view.style_tag(), old_style)


def _markdown_page(bundle: dict[str, str]) -> str:
    """A notebook of one cell whose output is ``bundle``, exported by nbconvert to Markdown
    and rendered to HTML as CommonMark."""
    import markdown_it
    import nbformat
    from nbconvert import MarkdownExporter

    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("t")
    cell.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    notebook.cells = [cell]
    markdown, _ = MarkdownExporter().from_notebook_node(notebook)
    return str(markdown_it.MarkdownIt("commonmark").render(markdown))


def _page_text(chromium_path: str, page: str, selector: str = "body") -> list[str]:
    """The text Chromium shows of each element ``selector`` finds in ``page`` (no script
    of the page runs, nothing is fetched)."""
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
        )
        try:
            tab = browser.new_context(java_script_enabled=False).new_page()
            tab.set_content(page)
            return [element.inner_text() for element in tab.query_selector_all(selector)]
        finally:
            browser.close()


def _run_in_dash(command: str, where: Path) -> None:
    subprocess.run(["/usr/bin/dash", "-c", command], cwd=where, check=True, timeout=10)


def _template() -> InterpolationTemplate:
    # A value with a blank line, then Markdown's syntax: strong emphasis, a backslash
    # escape, a link.
    return InterpolationTemplate(
        "echo ", field("ok\n\n", "note"), "touch __S__ \\$HOME; : '[docs](http://x)'"
    )


def test_markdown_export_shows_the_command_that_runs(chromium_path: str, tmp_path: Path) -> None:
    """Positive control: dash creates ``__S__`` and a file named ``$HOME``; the old bundle's
    Markdown page showed ``touch S $HOME``, in the template's text and in the output.  The
    new one shows the command as it runs."""
    t = _template()
    command = render_format(t)
    _run_in_dash(command, tmp_path)
    assert sorted(os.listdir(tmp_path)) == ["$HOME", "__S__"]  # (a file named $HOME)

    bundle = display.mimebundle(t)
    old = {**bundle, "text/html": _as_before(bundle["text/html"])}
    (old_text,) = _page_text(chromium_path, _markdown_page(old))
    assert "echo {note}0touch S $HOME; : 'docs'" in old_text  # the template's text
    assert "touch __S__" not in old_text
    assert "[docs](http://x)" not in old_text

    assert "\n\n" not in bundle["text/html"]
    page = _markdown_page(bundle)
    assert "<strong>" not in page and "<a href" not in page
    shown = _page_text(chromium_path, page, "pre.ipyis-output")
    assert shown[0] == command  # the default renderer's, first


def test_the_html_view_shows_the_same_lines_in_chromium(chromium_path: str) -> None:
    """Look-alike: written ``&#10;``, line breaks still show as line breaks, in the template's
    text, the output and the value's repr."""
    t = _template()
    source, output, *_ = _page_text(
        chromium_path, display.to_html(t), "pre.ipyis-source, pre.ipyis-output"
    )
    assert output == render_format(t)
    assert source == "echo {note}0touch __S__ \\$HOME; : '[docs](http://x)'"


def test_a_first_line_break_shows_in_every_pre(chromium_path: str) -> None:
    """Positive control: a ``pre`` written as before dropped the text's first line break;
    each ``pre`` of the view now shows it (an output's is inside its ``bdo``)."""
    t = InterpolationTemplate("\nselect ", field("\n1", "one"))
    html = display.to_html(t)
    old = html.replace("'>\n&#10;", "'>&#10;")
    (old_source,) = _page_text(chromium_path, old, "pre.ipyis-source")
    assert old_source == "select {one}0"
    source, output, *_ = _page_text(chromium_path, html, "pre.ipyis-source, pre.ipyis-output")
    assert output == "\nselect \n1"
    assert source == "\nselect {one}0"


def _run_in_kernel(code: str) -> list[dict[str, Any]]:
    """Run ``code`` in a real IPython kernel (importing the package from here): the iopub
    messages it sent, up to idle."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3", cwd=os.getcwd())
    try:
        client.execute(code)
        client.get_shell_msg(timeout=60)
        messages = []
        while True:
            message = client.get_iopub_msg(timeout=30)
            messages.append(message)
            if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
                return messages
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


_LOOK_ALIKES = """
import ipywidgets, ipy_istring.widget
from ipy_istring import registry
from ipy_istring.display_options import set_options
from ipy_istring.template import Interpolation, InterpolationTemplate
registry.register_renderer("look\\ud800")(lambda t: "x")
set_options(use_widget=True)
"""


def test_a_renderer_name_with_a_lone_surrogate_still_opens_the_widget() -> None:
    """Positive control, in a real kernel: a picker of the names as they are cannot be sent
    (UnicodeEncodeError).  The template's widget opens, its label the name's escape."""
    old = _run_in_kernel(_LOOK_ALIKES + 'ipywidgets.ToggleButtons(options=["look\\ud800"])')
    errors = [m["content"]["ename"] for m in old if m["msg_type"] == "error"]
    assert errors == ["UnicodeEncodeError"]

    new = _run_in_kernel(_LOOK_ALIKES + 'InterpolationTemplate("ls ", Interpolation(1, "n"))')
    assert [m for m in new if m["msg_type"] == "error"] == []
    labels = [
        m["content"]["data"]["state"]["_options_labels"]
        for m in new
        if m["msg_type"] == "comm_open" and "_options_labels" in m["content"]["data"]["state"]
    ]
    assert labels == [["format", "sh", "argv", "sql", "html", "look\\ud800"]]
    (result,) = [m for m in new if m["msg_type"] == "execute_result"]
    assert WIDGET_MIME in result["content"]["data"]


def test_look_alike_renderer_names_read_apart_in_the_picker() -> None:
    """Positive control: the names as they are read "sql" twice; the labels show the
    zero-width space and the bidi controls, and each label still picks its own renderer."""
    from ipy_istring.view_model import shown_as_is
    from ipy_istring.widget import TemplateWidget

    names = {"sql": lambda t: "ok", "sql\u200b": lambda t: "look-alike", "l\u202egs": str}
    assert [shown_as_is(name) for name in names] == [True, False, False]
    t = InterpolationTemplate("ls ", field(1, "n"))
    shown = TemplateWidget(t, registry=names)
    assert shown.control._options_labels == ("sql", "sql\\u200b", "l\\u202egs")
    shown.control.value = "sql\u200b"
    assert shown.control.label == "sql\\u200b" and "look-alike" in shown.output.value


def _visual_order(chromium_path: str, markup: str) -> list[str]:
    """The characters of the first output ``pre`` of ``markup`` as Chromium lays them out,
    from left to right."""
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    script = """() => {
        const pre = document.querySelector('pre.ipyis-output');
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const placed = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let i = 0; i < node.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                placed.push([range.getBoundingClientRect().x, node.data[i]]);
            }
        }
        return placed.sort((a, b) => a[0] - b[0]).map(p => p[1]);
    }"""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
        )
        try:
            tab = browser.new_page()
            tab.set_content(markup)
            return list(tab.evaluate(script))
        finally:
            browser.close()


def test_right_to_left_values_do_not_reorder_the_output(chromium_path: str) -> None:
    """Positive control: dash prints the source first; the output shown as before (no
    ``bdo``) read the destination first.  Now it reads as it runs, without the stylesheet
    too."""
    t = InterpolationTemplate(
        "printf '%s\\n' ", field("\u05d0-1", "src"), " ", field("\u05d1-2", "dst")
    )
    command = render_format(t)
    ran = subprocess.run(["/usr/bin/dash", "-c", command], capture_output=True, text=True)
    assert ran.stdout == "\u05d0-1\n\u05d1-2\n"

    html = display.to_html(t)
    old = html.replace("<bdo dir='ltr'>", "").replace("</bdo>", "")
    assert "".join(_visual_order(chromium_path, old)).endswith("2-\u05d1 1-\u05d0")
    assert "".join(_visual_order(chromium_path, html)) == command
    unstyled = html.replace(html_view.style_tag(), "")
    assert "".join(_visual_order(chromium_path, unstyled)) == command


def test_the_text_view_names_the_default_renderer_visibly(ishell: Any) -> None:
    """Positive control: repr keeps the Hangul filler as it is.  The terminal's text of a
    real InteractiveShell shows its escape in the first line, as in the outputs."""
    from ipy_istring.display_options import set_options
    from ipy_istring.view_model import shown_as_is

    name = "sql\u3164"
    assert not shown_as_is(repr(name))
    ishell.user_ns["t"] = InterpolationTemplate("ls ", field(1, "n"))
    with set_options(default_renderer=name):
        data, _ = ishell.display_formatter.format(ishell.user_ns["t"])
    first = data["text/plain"].split("\n")[0]
    assert first == "i-string template: 1 field, renderer 'sql\\u3164'"
