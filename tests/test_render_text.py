"""One rule for the text of a value in every renderer that takes text (the render pass).

Before this pass the renderers read a value's text three ways: ``format(t)`` (the f-string)
called ``format(value, spec)``; ``html()`` called ``str(value)``; ``sh()``/``argv()`` took a
``str`` subclass as it was, its raw characters, and then called its own methods on it.  So
``class Color(str, Enum): RED = "red"`` was ``Color.RED`` in ``format`` and ``html`` on 3.11+
but ``red`` in ``sh``, and a value whose ``__format__`` differs from its ``__str__`` showed one
text in ``html`` and another everywhere else.  Worse, the checks of ``sh``/``argv`` ran on the
``str`` subclass a value is, or its ``__format__``/``__fspath__``/``decode`` returned, and its
own ``__hash__``, ``__contains__`` and ``__iter__`` answered them: ``{cmd} {arg}`` with the
command name ``eval`` whose ``__hash__`` is not str's passed the check for builtins that run
their arguments as code, and ``'eval' 'touch …'`` ran in dash and bash; ``env {x} bash -c
true`` with a value whose ``in`` says it holds no ``=`` gave ``env 'BASH_ENV=$(touch …)'``,
whose command bash ran; ``ssh -v{x}`` with a value that iterates as no letters gave ``ssh
-v'oProxyCommand=touch …'``, which ssh ran.

The rule now (:func:`ipy_istring.fields.value_text`): the text the f-string with the same
field gives on this Python, read once as an exact ``str``; ``bytes`` and ``os.PathLike`` stay
file names in ``sh``/``argv`` (``os.fsdecode``, read the same way) and an iterable without
``:*`` stays refused there.  The display reads each value's text once and every view shows it.
"""

from __future__ import annotations

import enum
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest
from markupsafe import Markup, escape

from ipy_istring.fields import RenderError, shared_texts, value_text
from ipy_istring.html import html
from ipy_istring.shell import argv, sh
from ipy_istring.template import Interpolation, InterpolationTemplate

SHELLS = ["/usr/bin/dash", "/bin/bash"]
TEXT = "it's $(touch pwned) a;b *"  # what the shell must receive as one word, exactly


class Color(str, enum.Enum):
    RED = "red"


class Level(int, enum.Enum):
    HIGH = 1


class Formatted:
    """A value whose __format__ and __str__ differ (html() read its str())."""

    def __format__(self, spec: str) -> str:
        return format("fmt <b>", spec)

    def __str__(self) -> str:
        return "str"


class Lying(str):
    """A text whose own methods lie about it: every check a renderer makes with them passes."""

    def __hash__(self) -> int:
        return 1

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __contains__(self, item: object) -> bool:
        return False

    def __iter__(self) -> Any:
        return iter(())

    def replace(self, *args: Any) -> str:  # type: ignore[override]
        return self

    def split(self, *args: Any) -> list[str]:  # type: ignore[override]
        return []

    def startswith(self, *args: Any) -> bool:
        return False

    def isalpha(self) -> bool:
        return False


class StrGivesLying(str):
    """A str whose str() (what the f-string's {x} calls on a str subclass) is a Lying text."""

    def __str__(self) -> str:
        return Lying(TEXT)


class FormatGivesLying(str):
    """A str whose __format__ returns a Lying text, for any spec."""

    def __format__(self, spec: str) -> str:
        return Lying(format(TEXT, spec))


class GivesText:
    """An object whose __format__ returns the text it was given (a str subclass, say)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __format__(self, spec: str) -> str:
        return self.text


class LyingBytes(bytes):
    def decode(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        return Lying("eval")


class LyingPath:
    def __fspath__(self) -> str:
        return Lying("eval")


def field(value: object, expression: str = "x", conversion: Any = None, spec: str = "") -> Any:
    return Interpolation(value, expression, conversion, spec)


def printf(value: object, conversion: Any = None, spec: str = "") -> InterpolationTemplate:
    return InterpolationTemplate("printf '%s\\0' ", field(value, "x", conversion, spec), "")


def received(shell: str, command: str, cwd: pathlib.Path) -> list[str]:
    """The words ``printf '%s\\0' …`` received, run by ``shell -c command``."""
    done = subprocess.run([shell, "-c", command], cwd=cwd, capture_output=True, check=True)
    return done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]


def received_argv(command: list[str], cwd: pathlib.Path) -> list[str]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, check=True)
    return done.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]


# --- the f-string's text, on this Python ------------------------------------------------------

F_STRING_CASES = [
    pytest.param(Color.RED, None, "", id="str-enum"),
    pytest.param(Color.RED, None, ">12", id="str-enum-spec"),
    pytest.param(Color.RED, "s", "", id="str-enum-str"),
    pytest.param(Level.HIGH, None, "", id="int-enum"),
    pytest.param(Formatted(), None, "", id="format-not-str"),
    pytest.param(Formatted(), None, "^11", id="format-not-str-spec"),
    pytest.param(StrGivesLying("x"), None, "", id="str-gives-lying"),
    pytest.param(FormatGivesLying("x"), None, "", id="format-gives-lying"),
    pytest.param(FormatGivesLying("x"), None, ">30", id="format-gives-lying-spec"),
    pytest.param(GivesText(Lying(TEXT)), None, "", id="object-gives-lying"),
    pytest.param(Lying(TEXT), None, "", id="lying"),
    pytest.param(Lying(TEXT), "r", "", id="lying-repr"),
    pytest.param(TEXT, None, "", id="plain"),
]
if sys.version_info >= (3, 11):
    F_STRING_CASES.append(
        pytest.param(enum.StrEnum("Shade", {"DARK": "dark"}).DARK, None, "", id="strenum")
    )


def f_string(value: object, conversion: Any, spec: str) -> str:
    """What the f-string gives, written out as one (read as a plain str)."""
    converted = {None: value, "s": str(value), "r": repr(value)}[conversion]
    return str.__str__(f"{converted:{spec}}")


def test_a_str_enum_is_what_the_f_string_gives_on_this_python() -> None:
    expected = "red" if sys.version_info < (3, 11) else "Color.RED"
    assert f"{Color.RED}" == expected
    assert sh(printf(Color.RED)) == f"printf '%s\\0' {expected}"
    assert argv(printf(Color.RED)) == ["printf", "%s\\0", expected]
    assert html(InterpolationTemplate("<p>", field(Color.RED), "</p>")) == f"<p>{expected}</p>"
    assert format(InterpolationTemplate("", field(Color.RED), "")) == expected


@pytest.mark.parametrize(("value", "conversion", "spec"), F_STRING_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_the_shell_receives_the_f_strings_text(
    shell: str, value: object, conversion: Any, spec: str, tmp_path: pathlib.Path
) -> None:
    expected = f_string(value, conversion, spec)
    assert value_text(value, conversion, spec) == expected
    assert type(value_text(value, conversion, spec)) is str
    assert received(shell, sh(printf(value, conversion, spec)), tmp_path) == [expected]
    assert not (tmp_path / "pwned").exists()


@pytest.mark.parametrize(("value", "conversion", "spec"), F_STRING_CASES)
def test_argv_and_html_give_the_f_strings_text(
    value: object, conversion: Any, spec: str, tmp_path: pathlib.Path
) -> None:
    expected = f_string(value, conversion, spec)
    command = argv(printf(value, conversion, spec))
    assert command == ["printf", "%s\\0", expected]
    assert all(type(word) is str for word in command)
    assert received_argv(command, tmp_path) == [expected]
    t = InterpolationTemplate("<p title='", field(value, "x", conversion, spec), "'>t</p>")
    assert html(t) == f"<p title='{escape(expected)}'>t</p>"
    t = InterpolationTemplate("<p>", field(value, "x", conversion, spec), "</p>")
    assert html(t) == f"<p>{escape(expected)}</p>"


def test_bytes_and_paths_stay_file_names_in_sh_and_argv(tmp_path: pathlib.Path) -> None:
    # (the documented difference: the f-string gives b'...' of bytes)
    name = os.fsencode("caf\udce9 x")  # an undecodable file name
    assert f"{name}" != os.fsdecode(name)
    for value in (name, pathlib.Path(os.fsdecode(name))):
        assert argv(printf(value)) == ["printf", "%s\\0", os.fsdecode(name)]
        for shell in SHELLS:
            assert received(shell, sh(printf(value)), tmp_path) == [os.fsdecode(name)]
    # html() takes the f-string's text of them, as any value
    page = html(InterpolationTemplate("<p>", field(b"<b>"), "</p>"))
    assert page == "<p>b&#39;&lt;b&gt;&#39;</p>"


def test_an_iterable_without_spread_stays_refused() -> None:
    with pytest.raises(RenderError, match="would become one word spelled like"):
        sh(printf(["a", "b"]))
    assert sh(InterpolationTemplate("printf '%s\\0' ", field(["a", "b"], "x", None, "*"), "")) == (
        "printf '%s\\0' a b"
    )


# --- the holes: a str subclass's own methods answered the checks --------------------------------

ARGUMENT = "touch pwned"
# What main's sh() rendered for each (the positive controls run it).
OLD_EVAL = "'eval' 'touch pwned'"
OLD_ENV = "env 'BASH_ENV=$(touch pwned)' bash -c true"
OLD_SSH = "ssh -v'oProxyCommand=touch pwned' h"


def eval_template(value: object, spec: str = "") -> InterpolationTemplate:
    command = field(value, "cmd", None, spec)
    return InterpolationTemplate("", command, " ", field(ARGUMENT, "arg"), "")


EVAL_CASES = [
    pytest.param(eval_template(Lying("eval")), id="value"),
    pytest.param(eval_template(GivesText(Lying("eval"))), id="format"),
    pytest.param(eval_template(GivesText(Lying("eval")), "x"), id="format-spec"),
    pytest.param(eval_template(LyingPath()), id="fspath"),
    pytest.param(
        InterpolationTemplate("", field([Lying("eval"), ARGUMENT], "cmd", None, "*"), ""),
        id="spread",
    ),
]


@pytest.mark.parametrize("shell", SHELLS)
def test_positive_controls_the_old_renders_run_the_value(
    shell: str, tmp_path: pathlib.Path
) -> None:
    for old in (OLD_EVAL, OLD_ENV, OLD_SSH):
        subprocess.run(
            [shell, "-c", old], cwd=tmp_path, capture_output=True, stdin=subprocess.DEVNULL,
            timeout=30, check=False,
        )  # fmt: skip
        assert (tmp_path / "pwned").exists(), old
        (tmp_path / "pwned").unlink()


@pytest.mark.parametrize("template", EVAL_CASES)
def test_a_command_name_whose_hash_lies_is_still_eval(template: InterpolationTemplate) -> None:
    for render in (sh, argv):
        with pytest.raises(RenderError, match="the command name 'eval', a builtin that reads"):
            render(template)


def test_a_file_name_whose_decode_lies_is_its_bytes() -> None:
    template = eval_template(LyingBytes(b"ls"))
    assert sh(template) == "'ls' 'touch pwned'"
    assert argv(template) == ["ls", "touch pwned"]


def test_an_equals_sign_hidden_from_in_is_still_seen() -> None:
    for value in (Lying("BASH_ENV=$(touch pwned)"), GivesText(Lying("BASH_ENV=$(touch pwned)"))):
        for render in (sh, argv):
            with pytest.raises(RenderError, match="holds '=', so env would read"):
                render(InterpolationTemplate("env ", field(value), " bash -c true"))


def test_letters_hidden_from_iteration_are_still_seen() -> None:
    for render in (sh, argv):
        with pytest.raises(RenderError, match="holds a letter and completes an option"):
            render(InterpolationTemplate("ssh -v", field(Lying("oProxyCommand=touch pwned")), " h"))


@pytest.mark.parametrize("shell", SHELLS)
def test_look_alikes_stay_accepted(shell: str, tmp_path: pathlib.Path) -> None:
    # honest str subclasses, enums, and the same words as plain values where they are data
    cases = [
        (InterpolationTemplate("", field(Color.RED, "cmd"), " x"), None),
        (InterpolationTemplate("printf '%s\\0' ", field(Lying("eval")), ""), "eval"),
        (InterpolationTemplate("printf '%s\\0' ", field(Lying("BASH_ENV=1")), ""), "BASH_ENV=1"),
        (InterpolationTemplate("printf '%s\\0' -v", field("12")), "-v12"),
    ]
    for template, word in cases:
        command = sh(template)
        if word is not None:
            assert received(shell, command, tmp_path) == [word]
    assert sh(cases[0][0]) == f"'{Color.RED}' x"


# --- html: the text checked is the text written -------------------------------------------------


def test_html_writes_the_exact_text_a_lying_format_gives() -> None:
    url = GivesText(Lying("https://ok.example/a b"))
    page = html(InterpolationTemplate('<a href="', field(url), '">x</a>'))
    assert page == '<a href="https://ok.example/a b">x</a>'
    assert html(InterpolationTemplate("<p>", field(GivesText(Lying(TEXT))), "</p>")) == (
        f"<p>{escape(TEXT)}</p>"
    )
    # a __format__ that returns Markup is text, escaped (only the value's own __html__ is trusted)
    assert html(InterpolationTemplate("<p>", field(GivesText(Markup("<b>x</b>"))), "</p>")) == (
        "<p>&lt;b&gt;x&lt;/b&gt;</p>"
    )
    trusted = html(InterpolationTemplate("<p>", field(Markup("<b>x</b>")), "</p>"))
    assert trusted == "<p><b>x</b></p>"


# --- one read, shared -------------------------------------------------------------------------


class Counter:
    """A value whose text changes at each call, as a counter's does (its repr too)."""

    def __init__(self) -> None:
        self.formats = self.reprs = 0

    def __format__(self, spec: str) -> str:
        self.formats += 1
        return format(f"call{self.formats}", spec)

    def __repr__(self) -> str:
        self.reprs += 1
        return f"repr{self.reprs}"


def test_shared_texts_read_each_value_once() -> None:
    value = Counter()
    with shared_texts():
        texts = {value_text(value), value_text(value), value_text(value, None, ">6")}
        assert value_text(value, "r") == value_text(value, "r") == "repr1"
    assert texts == {"call1", " call2"} and value.formats == 2 and value.reprs == 1
    assert value_text(value) == "call3"  # (outside: read each time, as the f-string does)


VIEWS = ("format → echo call1 repr2", "sh → echo call1 repr2",
         "argv → ['echo', 'call1', 'repr2']", "html → echo call1 repr2")  # fmt: skip


def test_a_display_shows_one_text_in_every_view() -> None:
    """Each renderer read the value again: `format` showed call1, sh call2, argv call3 and html
    the value's str() (its repr, here); now every view shows the one text the display read."""
    from IPython.core.interactiveshell import InteractiveShell

    from ipy_istring import widget

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ipy_istring")
    try:
        value = Counter()
        t = InterpolationTemplate("echo ", field(value, "v"), " ", field(value, "w", "r"), "")
        data, _ = shell.display_formatter.format(t)
        text = data["text/plain"]
        # one __format__; a __repr__ for the fields' table (repr1) and one for {w!r}
        assert (value.formats, value.reprs) == (1, 2)
        for line in VIEWS:
            assert line in text, (line, text)
        html_view = data["text/html"]
        assert "call2" not in text + html_view and "repr3" not in text + html_view
        # a widget (t.inspect()) runs each renderer when shown: the same one read
        value.formats = value.reprs = 0
        w = widget.TemplateWidget(t)
        try:
            data, _ = shell.display_formatter.format(w)
        finally:
            w.close()
        assert value.formats == 1
        for line in VIEWS:
            assert line in data["text/plain"], (line, data["text/plain"])
    finally:
        shell.run_line_magic("unload_ext", "ipy_istring")


def test_a_display_leaves_an_iterator_for_the_users_call() -> None:
    """An iterator is not repeatable: the display ran sh, which spread (consumed) it, then
    argv, which showed ['rm'], and the user's own argv(t) after the display ran `rm` with no
    files.  Now the display renders nothing and says why; the iterator is left whole."""
    from IPython.core.interactiveshell import InteractiveShell

    from ipy_istring import widget

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "ipy_istring")
    try:
        files = (f"f{i}" for i in range(3))
        t = InterpolationTemplate("rm -- ", field(files, "files", None, "*"), "")
        data, _ = shell.display_formatter.format(t)
        assert "{files:*} is a generator, an iterator that rendering consumes" in data["text/plain"]
        assert "rm -- f0" not in data["text/plain"] + data["text/html"]
        w = widget.TemplateWidget(t)  # (t.inspect(): each renderer run when chosen)
        try:
            shell.display_formatter.format(w)
            w.renderer = "argv"
            assert "an iterator that rendering consumes" in w.output.value
        finally:
            w.close()
        assert argv(t) == ["rm", "--", "f0", "f1", "f2"]
        # a list is repeatable: rendered in every view
        t = InterpolationTemplate("rm -- ", field(["f0", "f1"], "files", None, "*"), "")
        data, _ = shell.display_formatter.format(t)
        assert "sh → rm -- f0 f1" in data["text/plain"]
        assert "argv → ['rm', '--', 'f0', 'f1']" in data["text/plain"]
    finally:
        shell.run_line_magic("unload_ext", "ipy_istring")
