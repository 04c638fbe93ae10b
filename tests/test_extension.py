"""The extension's wiring, through a real InteractiveShell (and one real kernel)."""

from __future__ import annotations

import builtins
import io
import re
import sys
from typing import Any

import pytest
from conftest import run
from traitlets.config import Config

from ipy_istring import display
from ipy_istring.extension import IStringExtension
from ipy_istring.rewrite import BUILDER_NAME
from ipy_istring.template import InterpolationTemplate


def extension_of(shell: Any) -> IStringExtension:
    (extension,) = [c for c in shell.configurables if isinstance(c, IStringExtension)]
    return extension


def test_load_makes_i_literals_work(ishell: Any) -> None:
    run(ishell, "answer = 42")
    t = run(ishell, "i'The answer is {answer:>5}'")
    assert isinstance(t, InterpolationTemplate)
    assert t.strings == ("The answer is ", "")
    assert format(t) == str(t) == "The answer is    42"


def test_the_cell_that_loads_the_extension_cannot_hold_an_i_string(_shell_instance: Any) -> None:
    """What the README says: IPython parses a whole cell before its first line runs, so the
    cell with ``%load_ext`` is parsed without the extension; the next cell has it."""
    shell = _shell_instance
    try:
        same = shell.run_cell("%load_ext ipy_istring\nx = 1\nsame = format(i'{x}')\n")
        assert isinstance(same.error_before_exec, SyntaxError)
        assert "same" not in shell.user_ns  # (the cell did not run, the load neither)
        assert shell.run_cell("%load_ext ipy_istring").success
        assert run(shell, "x = 1\nformat(i'{x}')") == "1"
    finally:
        shell.run_line_magic("unload_ext", "ipy_istring")
        shell.reset(new_session=False)


def test_loading_twice_adds_nothing_twice(ishell: Any) -> None:
    before = list(ishell.input_transformers_post), list(ishell.ast_transformers)
    ishell.run_line_magic("load_ext", "ipy_istring")
    from ipy_istring.extension import load

    load(ishell)
    assert (ishell.input_transformers_post, ishell.ast_transformers) == before
    assert len([c for c in ishell.configurables if isinstance(c, IStringExtension)]) == 1


def ours(hooks: list[Any]) -> list[Any]:
    """The hooks in a list that belong to ipy_istring (functions, bound methods, objects)."""
    return [
        h for h in hooks if type(getattr(h, "__self__", h)).__module__.startswith("ipy_istring")
    ]


def test_unload_removes_everything(ishell: Any) -> None:
    assert ours(ishell.input_transformers_post)
    # The cell check reads the tree IPython parses; no AST transformer (that would make
    # IPython fix every cell's locations).
    assert "ast_parse" in vars(ishell.compile) and not ours(ishell.ast_transformers)
    ishell.run_line_magic("unload_ext", "ipy_istring")
    try:
        assert not ours(ishell.input_transformers_post)
        assert not ours(ishell.ast_transformers)
        assert "ast_parse" not in vars(ishell.compile)
        assert not hasattr(builtins, BUILDER_NAME)
        assert "istring" not in ishell.magics_manager.magics["line"]
        assert "istring" not in ishell.magics_manager.magics["cell"]
        assert not [c for c in ishell.configurables if isinstance(c, IStringExtension)]
        assert "check_complete" not in ishell.input_transformer_manager.__dict__
        result = ishell.run_cell("i'x'", store_history=False)
        assert isinstance(result.error_before_exec, SyntaxError)
    finally:
        ishell.run_line_magic("load_ext", "ipy_istring")


def test_reload_ext(ishell: Any) -> None:
    ishell.run_line_magic("reload_ext", "ipy_istring")
    assert len([c for c in ishell.configurables if isinstance(c, IStringExtension)]) == 1
    assert str(run(ishell, "i'{1 + 1}'")) == "2"


def test_works_after_reset(ishell: Any) -> None:
    run(ishell, "def f(x):\n    return i'<{x}>'")
    run(ishell, "%reset -f")
    assert str(run(ishell, "y = 3\ni'{y}'")) == "3"


def test_magic_on_off(ishell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    run(ishell, "%istring off")
    assert "i-strings: off" in capsys.readouterr().out
    result = ishell.run_cell("i'x'", store_history=False)
    assert isinstance(result.error_before_exec, SyntaxError)
    run(ishell, "%istring on")
    assert str(run(ishell, "i'x'")) == "x"


def test_magic_status_lists_renderers(ishell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    run(ishell, "%istring")
    out = capsys.readouterr().out
    for name in ("format", "sh", "argv", "sql", "html"):
        assert name in out


def test_magic_chooses_default_renderer(ishell: Any) -> None:
    run(ishell, "%istring renderer sql")
    assert display.options.default_renderer == "sql"
    assert extension_of(ishell).default_renderer == "sql"
    with pytest.raises(Exception, match="no renderer named 'nope'"):
        run(ishell, "%istring renderer nope")
    with pytest.raises(Exception, match="unknown action"):
        run(ishell, "%istring sideways")


def test_cell_magic_shows_the_rewrite(ishell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    run(ishell, "%%istring --show\nx = i'{a!r}' + 'plain'\ny = i'{a:>{w}}'\n")
    out = capsys.readouterr().out
    assert out.startswith(f"x = {BUILDER_NAME}(")
    assert "(a))" in out and "'plain'" in out
    assert "x" not in ishell.user_ns  # shown, not run
    # each literal as written, what its fields are, and the call that replaces it
    first, second = out.split("line 1: ")[1].split("line 2: ")
    assert first.startswith("i'{a!r}'")
    assert "field 1: expression 'a', conversion 'r', format spec ''" in first
    assert f"becomes: {BUILDER_NAME}(" in first
    assert second.startswith("i'{a:>{w}}'")
    assert "field 1: expression 'a', conversion None, format spec '>{w}', computed" in second
    assert "f'>{w}'" in second.split("becomes: ")[1]


def test_cell_magic_show_without_i_literal(
    ishell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    run(ishell, "%%istring --show\nx = f'{1}'\n")
    assert "no i-literal" in capsys.readouterr().out


FAILING_CELL = "a = 1\nt = i'{a} {undefined_name!r:>5}'\n"


def plain(text: str) -> str:
    """Terminal text without its colours."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def assert_shows_the_cell_as_written(text: str) -> None:
    text = plain(text)
    assert "t = i'{a} {undefined_name!r:>5}'" in text
    assert BUILDER_NAME not in text


def test_traceback_shows_the_cell_as_written(
    ishell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    result = ishell.run_cell(FAILING_CELL, store_history=False)
    assert isinstance(result.error_in_exec, NameError)
    out = capsys.readouterr().out
    assert "----> 2 t = i'" in plain(out)  # the arrow on the user's line
    assert_shows_the_cell_as_written(out)
    ishell.run_line_magic("tb", "")
    assert_shows_the_cell_as_written(capsys.readouterr().out)


@pytest.mark.parametrize("mark", ["\x0c", "\x85", "\u2028"])
def test_traceback_shows_the_failing_line_after_a_break_python_does_not_count(
    ishell: Any, capsys: pytest.CaptureFixture[str], mark: str
) -> None:
    # (str.splitlines() ends a line at a form feed or U+2028, which a comment may hold)
    result = ishell.run_cell(f"# a{mark}b\n" + FAILING_CELL, store_history=False)
    assert isinstance(result.error_in_exec, NameError)
    assert re.search(r"----> 3 .*= i'\{a\} \{undefined_name", plain(capsys.readouterr().out))


def test_debuggers_show_the_cell_as_written(
    ishell: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ishell.run_cell(FAILING_CELL, store_history=False)
    capsys.readouterr()
    monkeypatch.setattr(sys, "stdin", io.StringIO("list\nquit\n"))
    ishell.run_line_magic("debug", "")
    out = capsys.readouterr().out
    assert_shows_the_cell_as_written(out.split("ipdb>")[1])  # what `list` printed
    monkeypatch.setattr(sys, "stdin", io.StringIO("list\nquit\n"))
    ishell.run_line_magic("pdb", "on")
    try:
        ishell.run_cell(FAILING_CELL, store_history=False)
    finally:
        ishell.run_line_magic("pdb", "off")
    out = capsys.readouterr().out
    assert "ipdb>" in out
    assert_shows_the_cell_as_written(out.split("ipdb>")[1])


def test_only_rewritten_cells_get_their_written_source_cached(ishell: Any) -> None:
    import linecache

    name = ishell.compile.cache("v = 1  # not rewritten\n", 99)
    assert linecache.cache[name][2] == ["v = 1  # not rewritten\n"]
    rewritten = ishell.transform_cell("w = i'{1}'\n")
    assert BUILDER_NAME in rewritten
    name = ishell.compile.cache(rewritten, 99)
    assert linecache.cache[name][2] == ["w = i'{1}'\n"]


def test_cell_magic_runs_cell_when_rewrite_is_off(ishell: Any) -> None:
    run(ishell, "%istring off")
    run(ishell, "%%istring\nz = str(i'{2 * 21}')\n")
    assert ishell.user_ns["z"] == "42"


def test_config_through_percent_config(ishell: Any) -> None:
    run(ishell, "%config IStringExtension.max_value_chars = 50")
    assert display.options.max_value_chars == 50
    run(ishell, "%config IStringExtension.default_renderer = 'sh'")
    assert display.options.default_renderer == "sh"


def test_config_from_ipython_config() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    config = Config()
    config.IStringExtension.default_renderer = "html"
    config.IStringExtension.enabled = False
    shell = InteractiveShell.instance()
    extension = IStringExtension(shell, config=config)
    assert extension.default_renderer == "html"
    assert extension.enabled is False
    assert extension.transform(["i'x'\n"]) == ["i'x'\n"]


def test_no_widget_outside_a_kernel(ishell: Any) -> None:
    run(ishell, "%config IStringExtension.use_widget = True")
    assert display.options.use_widget is False
    bundle = ishell.display_formatter.format(run(ishell, "i'{1}'"))[0]
    assert "application/vnd.jupyter.widget-view+json" not in bundle
    assert "text/html" in bundle and "text/plain" in bundle


def test_terminal_block_entry(ishell: Any) -> None:
    assert ishell.check_complete('def f():\n    return i"{x}"')[0] == "incomplete"
    assert ishell.check_complete('def f():\n    return i"{x}"\n\n')[0] == "complete"
    assert ishell.check_complete('x = i"""abc\n')[0] == "incomplete"
    # Otherwise exactly what the same f-literal gets.
    for cell in ('x = i"{x"\n', 'x = i"{x!z}"\n', "i'a' 'b'\n", 'i"{x}"\n'):
        as_f = cell.replace('i"', 'f"').replace("i'", "f'")
        assert ishell.check_complete(cell) == ishell.check_complete(as_f)


def test_syntax_error_points_into_the_cell(ishell: Any) -> None:
    result = ishell.run_cell("a = 1\nb = 2\nc = i'{a!z}'", store_history=False)
    error = result.error_before_exec
    assert isinstance(error, SyntaxError)
    assert "i-string" in error.msg
    assert error.lineno == 3
    assert error.text == "c = i'{a!z}'"
    assert 5 <= error.offset <= len(error.text)
    assert "a" not in ishell.user_ns  # the cell did not run


def test_a_bug_in_the_rewrite_becomes_a_syntax_error(
    ishell: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ipy_istring.extension as extension_module

    def broken(source: str, filename: str) -> str:
        raise IndexError("boom")

    monkeypatch.setattr(extension_module, "rewrite", broken)
    result = ishell.run_cell("x = i'{1}'", store_history=False)
    assert isinstance(result.error_before_exec, SyntaxError)
    assert "IndexError: boom" in result.error_before_exec.msg


@pytest.mark.skipif(sys.version_info < (3, 14), reason="native t-strings need Python 3.14")
def test_native_templates_get_the_same_display(ishell: Any) -> None:
    template = eval("t'{1 + 1} and {\"<b>\"}'")  # a t-literal is a SyntaxError before 3.14
    bundle = ishell.display_formatter.format(template)[0]
    assert "ipyis-" in bundle["text/html"]
    assert "&lt;b&gt;" in bundle["text/html"]
    ishell.run_line_magic("unload_ext", "ipy_istring")
    try:
        bundle = ishell.display_formatter.format(template)[0]
        assert "text/html" not in bundle
    finally:
        ishell.run_line_magic("load_ext", "ipy_istring")


def test_real_kernel_shows_the_widget() -> None:
    """A real ipykernel: the extension loads, a cell ending in an i-string displays a widget
    view with the static HTML beside it."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        outputs: list[dict[str, Any]] = []

        def execute(code: str) -> None:
            reply = client.execute_interactive(
                code, timeout=60, output_hook=lambda msg: outputs.append(msg)
            )
            assert reply["content"]["status"] == "ok", reply["content"]

        execute("%load_ext ipy_istring")
        execute("x = '<script>alert(1)</script>'\ni'echo {x}'")
        results = [m["content"]["data"] for m in outputs if m["msg_type"] == "execute_result"]
        assert len(results) == 1
        data = results[0]
        assert "application/vnd.jupyter.widget-view+json" in data
        assert "&lt;script&gt;" in data["text/html"]
        assert "<script>alert" not in data["text/html"]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_real_kernel_traceback_shows_the_cell_as_written() -> None:
    """A real ipykernel: the traceback of a failing field, and ``%tb`` after it, show the
    cell as the user wrote it (the notebook's view of the error)."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        outputs: list[dict[str, Any]] = []
        reply = client.execute_interactive(
            "%load_ext ipy_istring", timeout=60, output_hook=outputs.append
        )
        assert reply["content"]["status"] == "ok", reply["content"]
        reply = client.execute_interactive(FAILING_CELL, timeout=60, output_hook=outputs.append)
        assert reply["content"]["status"] == "error"
        assert reply["content"]["ename"] == "NameError"
        (error,) = [m["content"] for m in outputs if m["msg_type"] == "error"]
        assert_shows_the_cell_as_written("\n".join(error["traceback"]))
        outputs.clear()
        client.execute_interactive("%tb", timeout=60, output_hook=outputs.append)
        shown = "".join(
            m["content"].get("text", "") + "\n".join(m["content"].get("traceback", []))
            for m in outputs
            if m["msg_type"] in ("stream", "error")
        )
        assert_shows_the_cell_as_written(shown)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_loading_leaves_for_later_what_the_first_cells_may_not_need() -> None:
    # %load_ext costs a notebook little: the html renderer's context analysis, the fast
    # path's compiled expressions and the check's data flow wait for their first use (the
    # data flow for a cell that calls a sink; the cells before it still count).
    import subprocess

    code = (
        "import sys\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "shell = InteractiveShell.instance()\n"
        "shell.run_line_magic('load_ext', 'ipy_istring')\n"
        "from ipy_istring import _fast_path\n"
        "def state():\n"
        "    print('ipy_istring._html_contexts' in sys.modules,\n"
        "          _fast_path._patterns.cache_info().currsize,\n"
        "          'ipy_istring.check.flow' in sys.modules)\n"
        "state()\n"
        "shell.run_cell(\"name = 'x'\\nt = i'<b>{name}</b>'\\n_ = html(t)\")\n"
        "shell.run_cell(\"import os\\nwho = os.environ.get('HOME', '')\\n\"\n"
        "               \"query = f'select {who!r}'\")\n"
        "state()\n"
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    shell.run_cell('import sqlite3\\n_ = sqlite3.connect(\":memory:\").execute(query)')\n"
        "state()\n"
        "print(sum('query' in str(w.message) for w in caught))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    # After the sink call, the cell that built the query is read: a finding.
    expected = ["False", "0", "False", "True", "1", "False", "True", "1", "True", "1"]
    assert done.stdout.split() == expected, done.stderr
