"""The display against hostile values, the third hostile pass: the output's order kept with no
clutter in every page that shows it, the terminal's bidi, written escapes, lazy parameters.

- nbconvert's ``--sanitize-html`` (bleach, a small list of tags: ``div``, ``pre``, ``span``,
  ``b``, ``table``, ``tr``, ``td``...) shows any other tag as its escaped text: every output
  read ``<bdo dir="ltr">printf …</bdo>``, the ``bdo`` that keeps right-to-left letters from
  reordering it.  An output is now put in a ``bdo`` only when it holds a right-to-left
  letter (Hebrew, Arabic, Arabic-Indic digits): any other has nothing to reorder, and shows
  in that export as it runs.  Unicode's override marks (LRO...PDF) instead of the ``bdo``
  hold in every page, but the browser copies them with the command (the real clipboard of
  Chromium read ``\\u202dprintf …\\u202c``, which dash cannot run): the ``bdo`` copies as the
  command.  The output's ``pre`` also says ``dir='ltr'``: a page laid out right to left
  moved ``echo hi;`` to ``;echo hi``.
- The terminal's text view showed right-to-left letters as they are, and a terminal with
  bidi (VTE: GNOME Terminal, Tilix; Konsole) reorders them: with libfribidi, VTE's own
  algorithm, the line ``format → printf '%s\\n' א-1 ב-2`` read the destination first, and a
  query's parameters ``['א-1', 'ב-2']`` swapped.  The outputs' lines (their parameters and
  arguments too) now show those letters as escapes, like every other character that moves
  the text.
- The six characters ``\\u200b`` written in a value and a real zero-width space (shown as
  its escape) read the same in the text view, in the picker's labels, and in the HTML view
  without its stylesheet.  In plain text a backslash of the text itself that reads as an
  escape is now shown doubled (as Python writes it; a repr's backslashes are already
  Python's); in HTML a real escape is set in a ``b``, bold without the stylesheet, and the
  text is left as it is, so copying it gives what runs.
- A renderer returning a query whose parameters are a lazy sequence (``range(10**12)``)
  hung the display: it listed every parameter to show thirty (``range(10**7)`` took 8 s).
  Only the shown ones are read now.
- A renderer's name was shown whole: a name of a million characters padded every line of
  the text view to it (3 MB for three outputs), and filled the HTML view and the picker.
  It is now cut as a value is, saying how much was left out.

Each test runs the command in the real destination (dash), exports a real notebook with
nbconvert and reads it in real Chromium (its real clipboard too), or lays out the terminal's
line with the real libfribidi; the positive control is the old markup or text, or the marks
the fix did not choose.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import subprocess
from collections import namedtuple
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

import pytest
from test_display_second_hostile_pass import _visual_order

from ipy_istring import display, html_view
from ipy_istring.template import Interpolation, InterpolationTemplate, render_format
from ipy_istring.view_model import describe, visible_parts

pytestmark = pytest.mark.usefixtures("display_options")


def field(value: object, expression: str) -> Interpolation:
    return Interpolation(value, expression, None, "")


def _run_in_dash(command: str, where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/usr/bin/dash", "-c", command], cwd=where, capture_output=True, text=True, timeout=10
    )


def _right_to_left() -> InterpolationTemplate:
    return InterpolationTemplate(
        "printf '%s\\n' ", field("\u05d0-1", "src"), " ", field("\u05d1-2", "dst")
    )


def _notebook(bundle: dict[str, str]) -> Any:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("t")
    cell.outputs = [nbformat.v4.new_output("execute_result", data=bundle, execution_count=1)]
    notebook.cells = [cell]
    return notebook


def _exported(bundle: dict[str, str], *, sanitized: bool) -> str:
    """A notebook of one cell whose output is ``bundle``, exported by nbconvert to HTML (its
    ``basic`` template: the page without its scripts), sanitized as ``--sanitize-html``."""
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(template_name="basic", sanitize_html=sanitized)
    page, _ = exporter.from_notebook_node(_notebook(bundle))
    return str(page)


def _with_old_outputs(html: str) -> str:
    """The static HTML as the second pass wrote it: every output in a ``bdo``."""
    return re.sub(
        r"<pre class='ipyis-output' dir='ltr'>(.*?)</pre>",
        r"<pre class='ipyis-output'><bdo dir='ltr'>\1</bdo></pre>",
        html.replace("<bdo dir='ltr'>", "").replace("</bdo>", ""),
        flags=re.S,
    )


def _browser(chromium_path: str) -> Any:
    from conftest import CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(
        executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True
    )
    return playwright, browser


_COPY = """async () => {
    const pre = document.querySelector('pre.ipyis-output');
    const range = document.createRange();
    range.selectNodeContents(pre);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    document.execCommand('copy');
    return [pre.innerText, await navigator.clipboard.readText()];
}"""


def _shown_and_copied(chromium_path: str, page: str) -> tuple[str, str]:
    """The first output's text as Chromium shows it, and what copying it puts on the real
    clipboard (the page is served from an https origin: the clipboard needs one)."""
    playwright, browser = _browser(chromium_path)
    try:
        context = browser.new_context()
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        tab = context.new_page()
        tab.route(
            "https://ipyis.test/",
            lambda route, _: route.fulfill(body=page, content_type="text/html; charset=utf-8"),
        )
        tab.goto("https://ipyis.test/")
        shown, copied = tab.evaluate(_COPY)
        return str(shown), str(copied)
    finally:
        browser.close()
        playwright.stop()


def test_an_output_with_nothing_to_reorder_shows_no_tag_in_a_sanitized_export(
    chromium_path: str, tmp_path: Path
) -> None:
    """Positive control: the old markup, exported with ``--sanitize-html``, showed the
    ``bdo`` tag as text before the command.  The output now reads as it runs there, and in
    the export as it is."""
    t = InterpolationTemplate("touch ", field("__S__", "name"))
    command = render_format(t)
    _run_in_dash(command, tmp_path)
    assert (tmp_path / "__S__").exists()

    bundle = display.mimebundle(t)
    old = {**bundle, "text/html": _with_old_outputs(bundle["text/html"])}
    shown, _ = _shown_and_copied(chromium_path, _exported(old, sanitized=True))
    assert shown == f"<bdo dir='ltr'>{command}</bdo>"

    for sanitized in (True, False):
        shown, copied = _shown_and_copied(chromium_path, _exported(bundle, sanitized=sanitized))
        assert shown == copied == command


def test_copying_a_right_to_left_output_gives_the_command_that_runs(
    chromium_path: str, tmp_path: Path
) -> None:
    """Positive control: Unicode's override marks instead of the ``bdo`` keep the order
    too, but the real clipboard carries them (the last one at least), and what dash runs of
    the copy prints a mark no one saw.  The ``bdo`` copies the command itself."""
    t = _right_to_left()
    command = render_format(t)
    assert _run_in_dash(command, tmp_path).stdout == "\u05d0-1\n\u05d1-2\n"

    page = _exported(display.mimebundle(t), sanitized=False)
    marked = page.replace("<bdo dir='ltr'>", "\u202d").replace("</bdo>", "\u202c")
    order = _visual_order(chromium_path, marked)
    assert "".join(char for char in order if char not in "\u202d\u202c") == command
    _, copied = _shown_and_copied(chromium_path, marked)
    assert copied.endswith(f"{command}\u202c")
    assert _run_in_dash(copied, tmp_path).stdout.endswith("\u05d1-2\u202c\n")

    assert "".join(_visual_order(chromium_path, page)) == command
    shown, copied = _shown_and_copied(chromium_path, page)
    assert shown == copied == command


def test_a_page_laid_out_right_to_left_keeps_the_ends_of_an_output(chromium_path: str) -> None:
    """Positive control: an output ``pre`` with no ``dir``, in a page laid out right to left
    (without the stylesheet), showed ``echo hi;`` as ``;echo hi``.  It now reads as it
    runs."""
    t = InterpolationTemplate("echo ", field("hi", "word"), ";")
    unstyled = display.to_html(t).replace(html_view.style_tag(), "")
    page = f"<html dir='rtl'><body>{unstyled}</body></html>"
    old = page.replace("<pre class='ipyis-output' dir='ltr'>", "<pre class='ipyis-output'>")
    assert "".join(_visual_order(chromium_path, old)) == ";echo hi"
    assert "".join(_visual_order(chromium_path, page)) == "echo hi;"


# -- The terminal: laid out by libfribidi, the bidi algorithm of VTE ----------------------------

_FRIBIDI_PAR_LTR = 0x00000110  # (FRIBIDI_PAR_LTR: VTE's default paragraph direction)


def _as_a_bidi_terminal_shows(line: str) -> str:
    """``line`` in the order a terminal with implicit bidi (VTE) shows it: libfribidi's
    ``fribidi_log2vis`` of a left-to-right paragraph."""
    path = ctypes.util.find_library("fribidi")
    if path is None:
        pytest.skip("libfribidi is not installed")
    fribidi = ctypes.CDLL(path)
    codes = [ord(char) for char in line]
    logical = (ctypes.c_uint32 * len(codes))(*codes)
    shown = (ctypes.c_uint32 * len(codes))()
    direction = ctypes.c_uint32(_FRIBIDI_PAR_LTR)
    fribidi.fribidi_log2vis(logical, len(codes), ctypes.byref(direction), shown, None, None, None)
    return "".join(map(chr, shown))


def test_the_terminal_view_shows_right_to_left_letters_as_escapes(ishell: Any) -> None:
    """Positive control: the old output line, laid out by libfribidi, reads the destination
    first.  The terminal's text of a real InteractiveShell now shows each output line as it
    runs, its letters as escapes; the query's parameters and the arguments too."""
    t = _right_to_left()
    command = render_format(t)
    old_line = f"format → {command}"
    assert _as_a_bidi_terminal_shows(old_line).endswith("2-\u05d1 1-\u05d0")
    old_params = "params: ['\u05d0-1', '\u05d1-2']"
    assert _as_a_bidi_terminal_shows(old_params) == "params: ['2-\u05d1' ,'1-\u05d0']"

    ishell.user_ns["t"] = t
    data, _ = ishell.display_formatter.format(t)
    outputs = data["text/plain"].split("\n")[-5:]  # (format, sh, argv, sql, html)
    assert outputs[0] == "format → printf '%s\\n' \\u05d0-1 \\u05d1-2"
    assert outputs[2].endswith("argv → ['printf', '%s\\\\n', '\\u05d0-1', '\\u05d1-2']")
    assert outputs[3].endswith("params: ['\\u05d0-1', '\\u05d1-2']")
    for line in outputs:
        assert _as_a_bidi_terminal_shows(line) == line
    # (the fields table still shows the values' letters: they are not what runs)
    assert "'\u05d0-1'" in data["text/plain"]


# -- A written escape and a real invisible character ------------------------------------------


def _written_and_real() -> tuple[InterpolationTemplate, InterpolationTemplate]:
    written = InterpolationTemplate("printf %s '", field("ok\\u200b", "v"), "'")
    real = InterpolationTemplate("printf %s '", field("ok\u200b", "v"), "'")
    return written, real


def test_a_written_escape_and_a_real_invisible_character_read_apart_as_text(
    tmp_path: Path,
) -> None:
    """Positive control: dash prints them apart, and the old text of each output was the
    same.  The text view and the picker's labels now read them apart; a repr (the value's
    cell) is left as Python wrote it."""
    written, real = _written_and_real()
    ran = [_run_in_dash(render_format(t), tmp_path).stdout for t in (written, real)]
    assert ran == ["ok\\u200b", "ok\u200b"]
    old = ["".join(piece for piece, _ in visible_parts(render_format(t))) for t in (written, real)]
    assert old[0] == old[1]

    written_text, real_text = display.to_text(written), display.to_text(real)
    assert "format → printf %s 'ok\\\\u200b'" in written_text
    assert "format → printf %s 'ok\\u200b'" in real_text
    assert "'ok\\\\u200b'" in written_text and "'ok\\u200b'" in real_text  # (the reprs)

    from ipy_istring.widget import TemplateWidget

    names = {"sql\\u200b": lambda t: "written", "sql\u200b": lambda t: "real"}
    labels = TemplateWidget(real, registry=names).control._options_labels
    assert labels == ("sql\\\\u200b", "sql\\u200b")


def _weights(chromium_path: str, markup: str) -> list[tuple[str, str]]:
    """Each text of the first output ``pre`` of ``markup`` and its font weight, as Chromium
    draws it."""
    script = """() => {
        const pre = document.querySelector('pre.ipyis-output');
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const found = [];
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            found.push([node.data, getComputedStyle(node.parentElement).fontWeight]);
        }
        return found;
    }"""
    playwright, browser = _browser(chromium_path)
    try:
        tab = browser.new_page()
        tab.set_content(markup)
        return [tuple(pair) for pair in tab.evaluate(script)]
    finally:
        browser.close()
        playwright.stop()


def test_a_written_escape_and_a_real_invisible_character_read_apart_without_the_style(
    chromium_path: str,
) -> None:
    """Positive control: without the stylesheet, the old mark (a ``span``) drew the real
    escape as the written one.  Now the real one is bold, also in a ``--sanitize-html``
    export, and the written one is the text as it runs."""
    written, real = _written_and_real()
    written_html, real_html = (
        display.to_html(t).replace(html_view.style_tag(), "") for t in (written, real)
    )
    old = real_html.replace("<b><span", "<span").replace("</span></b>", "</span>")
    before, after = ("printf %s 'ok", "400"), ("'", "400")
    assert _weights(chromium_path, old) == [before, ("\\u200b", "400"), after]
    assert _weights(chromium_path, written_html) == [("printf %s 'ok\\u200b'", "400")]
    assert _weights(chromium_path, real_html) == [before, ("\\u200b", "700"), after]
    sanitized = _exported(display.mimebundle(real), sanitized=True)
    assert _weights(chromium_path, sanitized)[1] == ("\\u200b", "700")


# -- A renderer's lazy parameters ------------------------------------------------------------

Query = namedtuple("Query", "sql params")


class CountedRange(Sequence[int]):
    """``range(size)``, counting the items read; it refuses to give more than a thousand
    (a view that reads them all fails at once, rather than filling the memory)."""

    def __init__(self, size: int) -> None:
        self.size, self.read = size, 0

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            raise TypeError("no slices")
        if not 0 <= index < self.size:
            raise IndexError(index)
        self.read += 1
        if self.read > 1000:
            raise RuntimeError("read past what a view shows")
        return index


def test_a_query_of_lazy_parameters_reads_only_the_shown_ones() -> None:
    """Positive control: iterating the parameters, as the view did, reads every one.  The
    view now reads the thirty it shows, of a billion billion as fast as of forty."""
    control = CountedRange(40)
    assert len(list(enumerate(control))) == 40 and control.read == 40

    params = CountedRange(10**18)
    t = InterpolationTemplate("select ", field(1, "n"))
    view = describe(t, registry={"q": lambda t: Query("select 1", params)})
    (output,) = view.outputs
    assert params.read == 30 and output.row_count == 10**18
    assert "… 999,999,999,999,999,970 more parameters …" in display.to_text(t, view=view)
    huge = describe(t, registry={"q": lambda t: Query("select 1", range(10**15))})
    assert huge.outputs[0].rows[-1].value.text == repr(10**15 - 1)


def test_a_renderer_with_a_huge_name_is_shown_cut() -> None:
    """Positive control: the old text view padded each output line to the name (the old
    line of the short name held a million spaces).  Every view now cuts it."""
    from ipy_istring.widget import TemplateWidget

    name = "n" * 10**6
    registry = {name: lambda t: "a", "c": lambda t: "x"}
    t = InterpolationTemplate("ls ", field(1, "n"))
    assert len(f"{'c'.rjust(len(name))} → x") > 10**6
    view = describe(t, registry=registry)
    text, html = display.to_text(t, view=view), display.to_html(t, view=view)
    assert len(text) < 2_000 and len(html) < 20_000
    assert "… 999,800 more characters → a" in text
    assert "999,800 more characters" in html
    labels = TemplateWidget(t, registry=registry).control._options_labels
    assert labels == ("n" * 200 + " … 999,800 more characters", "c")
