"""The renderer registry: built-ins, the decorator, and real entry points from an installed dist."""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Iterator

import pytest

from ipy_istring.html import html
from ipy_istring.registry import RendererRegistry, register_renderer, renderers
from ipy_istring.shell import argv, sh
from ipy_istring.sql import sql
from ipy_istring.template import Interpolation, InterpolationTemplate, render_format


def test_builtins() -> None:
    registry = RendererRegistry()
    assert {"format", "sh", "argv", "sql", "html"} <= set(registry)
    assert registry["sh"] is sh and registry["argv"] is argv
    assert registry["sql"] is sql and registry["html"] is html
    assert registry["format"] is render_format
    template = InterpolationTemplate("cat ", Interpolation("a b", "f"))
    assert registry["sh"](template) == "cat 'a b'"


def test_unknown_name_lists_the_registered_ones() -> None:
    with pytest.raises(KeyError, match=r"no renderer named 'nope'; registered: .*argv.*sh"):
        RendererRegistry()["nope"]


def test_decorator_registers_under_its_name_or_a_given_one() -> None:
    @register_renderer
    def shout(template: object) -> str:
        return str(template).upper()

    @register_renderer("whisper")
    def lower(template: object) -> str:
        return str(template).lower()

    try:
        template = InterpolationTemplate("Hi ", Interpolation("Bo", "n"))
        assert renderers["shout"](template) == "HI BO"
        assert renderers["whisper"](template) == "hi bo"
    finally:
        del renderers["shout"], renderers["whisper"]
    assert "shout" not in renderers


def test_non_callable_is_refused() -> None:
    with pytest.raises(TypeError, match="must be callable, got int"):
        renderers["x"] = 3  # type: ignore[assignment]


@pytest.fixture
def plugin_dist(tmp_path: pathlib.Path) -> Iterator[pathlib.Path]:
    """An installed distribution (a real .dist-info on sys.path) declaring two renderers."""
    (tmp_path / "istring_plugin_demo.py").write_text(
        "def upper(template):\n    return str(template).upper()\n"
    )
    info = tmp_path / "istring_plugin_demo-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: istring-plugin-demo\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text(
        "[ipy_istring.renderers]\n"
        "upper = istring_plugin_demo:upper\n"
        "broken = istring_plugin_demo_missing:nothing\n"
        "sh = istring_plugin_demo:upper\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("istring_plugin_demo", None)


def test_entry_points(plugin_dist: pathlib.Path) -> None:
    registry = RendererRegistry()
    with pytest.warns(RuntimeWarning, match=r"'broken'.*failed to load.*ModuleNotFoundError"):
        names = list(registry)
    assert "upper" in names and "broken" not in names
    template = InterpolationTemplate("a ", Interpolation("b", "x"))
    assert registry["upper"](template) == "A B"
    assert registry["sh"] is sh  # a plug-in cannot silently replace a built-in


def test_registered_before_first_use_wins(plugin_dist: pathlib.Path) -> None:
    registry = RendererRegistry()

    def mine(template: object) -> str:
        return "mine"

    registry["upper"] = mine
    with pytest.warns(RuntimeWarning):
        assert registry["upper"] is mine


def fresh_python(code: str) -> str:
    """Run ``code`` in a new interpreter (nothing imported yet); its stdout."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_importing_the_package_loads_the_template_type_only() -> None:
    loaded = fresh_python(
        "import sys, ipy_istring\n"
        "from ipy_istring import template\n"
        "print(template._speedups is not None)\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith(("
        "'ipy_istring', 'importlib.metadata', 'markupsafe', 'IPython', 'decimal', 'typing')))))"
    ).split()
    accelerated = loaded.pop(0) == "True"
    # (the template type's C accelerator, where it was built, is part of the template type)
    expected = ["ipy_istring", "ipy_istring._speedups", "ipy_istring.template"]
    assert loaded == (expected if accelerated else expected[::2])


def test_renderers_load_on_first_use_and_keep_their_names() -> None:
    """``ipy_istring.html`` and ``ipy_istring.sql`` are the renderers, not the modules named
    like them, whichever is imported first."""
    out = fresh_python(
        "import ipy_istring, ipy_istring.html, ipy_istring.sql\n"
        "from ipy_istring import html, sql, sh, argv, Query, RenderError, register_renderer\n"
        "from ipy_istring.registry import renderers\n"
        "import ipy_istring.rewrite, ipy_istring.shell\n"
        "print(html is renderers['html'], sql is renderers['sql'], sh is renderers['sh'],\n"
        "      ipy_istring.html is html, callable(Query), 'html' in dir(ipy_istring),\n"
        "      type(ipy_istring.rewrite).__name__, type(ipy_istring.shell).__name__)"
    )
    assert out == "True True True True True True module module"
    out = fresh_python(
        "from ipy_istring.registry import renderers\n"
        "list(renderers)\n"
        "import ipy_istring\n"
        "print(ipy_istring.html is renderers['html'], ipy_istring.sql is renderers['sql'])"
    )
    assert out == "True True"
