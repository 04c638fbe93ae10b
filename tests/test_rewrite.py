"""The rewrite as IPython runs it: lines kept, other code untouched, magics, tracebacks,
purity and the terminal's "submit or continue" check."""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import pytest
from conftest import run
from corpus import CORPUS, Entry, spell
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ipy_istring.rewrite as rewrite_module
from ipy_istring import _fast_path
from ipy_istring._scan import scan
from ipy_istring.rewrite import BUILDER_NAME, has_istring, rewrite

UNTOUCHED = [
    "",
    "x = 1\n",
    "i = 1\npi = 3.14\nri = 2\nIr = 3\nprint(i, pi, ri, Ir)\n",
    's = "i" + \'i\'\nt = "abc i"\nu = r"\\i"\n',
    "# i\"x\" in a comment and i'{y}'\n",
    'f"{x}i" rb"i" b"i" f\'{i}\' rf"\\d{i}"\n',
    "def i(x):\n    return x\ni('a')\n",
    'y = 1 if"x" else 2\n',
    "name = 'pi\"not a string start'\n",
    'doc = """\ni"{x}" inside a docstring\n"""\n',
    "x = [i for i in range(3)]\n",
]


@pytest.mark.parametrize("source", UNTOUCHED)
def test_no_ilitteral_is_byte_identical(source: str) -> None:
    assert rewrite(source) is source


@pytest.mark.parametrize(
    "source",
    [
        'a = i"{x}"\n',
        'a = (i"{x}"\n     i"{y}")\n\nb = 1\n',
        "a = i'''\n{x\n+ 1}\n'''\nb = i\"{y!r}\"\n",
        'a = i"{x}" \\\n  i"{y}"\n',
        'def f():\n    return i"{x:{w}}"\n',
    ],
)
def test_line_count_kept_and_pure(source: str) -> None:
    once = rewrite(source)
    assert once != source
    assert once.count("\n") == source.count("\n")
    assert rewrite(source) == once
    assert 'i"' not in once and "i'" not in once


def test_expressions_stay_on_their_lines() -> None:
    source = "a = (i'{x}'\n     i'{y}',\n     i'''\n{z}''')\n"
    lines = rewrite(source).splitlines()
    assert "(x)" in lines[0]
    assert "(y)" in lines[1]
    assert "(z)" in lines[3]


def test_magics_shell_strings_and_comments_untouched(ishell: Any, tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    body = 'v = i"{undefined"  # not Python here\n'
    run(ishell, f"%%writefile {target}\n{body}")
    assert target.read_text() == body
    out = run(ishell, 'out = !echo i"abc"\nout')
    assert list(out) == ["iabc"]
    value = run(ishell, 's = \'i"{x}"\'  # i"{y}"\ns')
    assert value == 'i"{x}"'


def test_bash_cell_magic_untouched(ishell: Any, capfd: pytest.CaptureFixture[str]) -> None:
    result = ishell.run_cell("%%bash\necho 'i\"{nope}\"'\n", store_history=False)
    assert result.error_before_exec is None
    assert result.error_in_exec is None
    assert 'i"{nope}"' in capfd.readouterr().out


def test_time_magics(ishell: Any) -> None:
    run(ishell, "x = 5")
    run(ishell, "%time t1 = i'{x!r:>3}'")
    assert str(ishell.user_ns["t1"]) == "  5"
    run(ishell, "%%time\nt2 = i'{x}'\nt3 = i'''{\nx + 1}'''")
    assert str(ishell.user_ns["t2"]) == "5"
    assert str(ishell.user_ns["t3"]) == "6"
    run(ishell, "%timeit -n1 -r1 t4 = i'{x * 2}'")
    run(ishell, "%%timeit -n1 -r1\nt5 = i'{x * 3}'")


def test_run_ipy_file(ishell: Any, tmp_path: Path) -> None:
    script = tmp_path / "script.ipy"
    script.write_text("n = 3\nfrom_file = i'{n}-{n!r:>2}'\nlines = i'''a\n{n + 1}\n'''\n")
    run(ishell, f"%run {script}")
    assert str(ishell.user_ns["from_file"]) == "3- 3"
    assert str(ishell.user_ns["lines"]) == "a\n4\n"


def test_prefix_names_as_variables(ishell: Any) -> None:
    value = run(
        ishell,
        "i = 1\npi = 2\nri = 3\nIr = 4\nboth = i + pi + ri + Ir\nt = i'{i}{pi}{ri}{Ir}'\nt",
    )
    assert ishell.user_ns["both"] == 10
    assert str(value) == "1234"
    assert value.interpolations[2].expression == "ri"


def test_after_reset(ishell: Any) -> None:
    run(ishell, "x = 1")
    run(ishell, "%reset -f")
    assert "x" not in ishell.user_ns
    assert str(run(ishell, "y = 2\ni'{y}'")) == "2"


def test_function_defined_in_one_cell_called_in_another(ishell: Any) -> None:
    run(ishell, "def greet(name):\n    return i'hi {name!r}'\n")
    assert str(run(ishell, "greet('bo')")) == "hi 'bo'"
    run(ishell, "class K:\n    def m(self, v):\n        return i'{v:>4}'\n")
    assert str(run(ishell, "K().m(7)")) == "   7"


@pytest.mark.parametrize(
    "cell,line",
    [
        ("a = 1\nb = 2\nt = i'{1 / 0}'\n", 3),
        ("a = 1\nt = i'''x\n{1 / 0}'''\n", 3),
        ("t = (i'{a}'\n     i'{b}'\n     i'{1 / 0}')\n", 3),
        ("t = i'{a}' \\\n  i'{1 / 0}'\n", 2),
    ],
)
def test_traceback_points_at_the_users_line(ishell: Any, cell: str, line: int) -> None:
    run(ishell, "a = b = 0")
    with pytest.raises(ZeroDivisionError) as info:
        run(ishell, cell)
    frames = [
        frame
        for frame in traceback.extract_tb(info.value.__traceback__)
        if frame.name == "<module>"
    ]
    assert frames, "no frame for the cell"
    assert frames[-1].lineno == line


def test_transform_cell_is_pure(ishell: Any) -> None:
    cell = "a = i'{x}'\nb = i'''{\ny!r}'''\n"
    once = ishell.transform_cell(cell)
    assert ishell.transform_cell(cell) == once
    assert once.count("\n") == cell.count("\n")
    assert "__ipy_istring__" in once


@pytest.mark.parametrize(
    "cell,status",
    [
        ('def f():\n    return i"{x}"', "incomplete"),
        ('def f():\n    return i"{x}"\n\n', "complete"),
        ("t = i'''abc\n{x}", "incomplete"),
        ('t = i"{x}"', "complete"),
        ("t = (i'{x}'\n", "incomplete"),
        ("t = i'{x!z}'", "invalid"),
    ],
)
def test_check_complete(ishell: Any, cell: str, status: str) -> None:
    assert ishell.check_complete(cell)[0] == status


@pytest.mark.parametrize(
    ("source", "candidate"),
    [
        ("x = i'{a}'", True),
        ("x = 1  # i'x' is an i-string", False),  # plainly a comment: no scan needed
        ("x = 1  # don't write i'x'", True),  # a quote before it: the full scan decides
        ('s = """\nabc # def """ + i"{x}"', True),  # the string closes before the candidate
        ('s = """\n# i"{x}"\n"""', False),  # inside a string begun earlier: not code either
        ('"a#b" + i"x"', True),
        ("print('hi', \"ski\")", False),  # i" inside a word
        ("(ri'\\d{x}')", True),
    ],
)
def test_pre_check(source: str, candidate: bool) -> None:
    assert has_istring(source) is candidate
    if not candidate:  # what the pre-check waves through holds no i-literal
        assert rewrite(source) is source


def test_pre_check_never_hides_an_i_literal_after_a_comment() -> None:
    source = "x = 1  # i'not this'\ny = i'{x}'\n"
    assert has_istring(source)
    assert "__ipy_istring__" in rewrite(source)


def test_no_assert_stands_between_a_cell_and_its_user() -> None:
    """An ``assert`` that fails in the rewrite reaches the user as a bare AssertionError (and
    vanishes under ``python -O``): the modules a cell passes through have none."""
    import ast

    import ipy_istring

    package = Path(ipy_istring.__file__).parent
    for name in ("_scan.py", "rewrite.py", "template.py", "extension.py"):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        asserts = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]
        assert asserts == [], f"{name}: assert at lines {asserts}"


# The fast path (ipy_istring/_fast_path.py): whatever it rewrites, the full rewrite (scan,
# then Python's parser: the simple-literal reading turned off) writes the very same.


def _full_rewrite(source: str) -> str:
    """The rewrite without its fast path and without the parser-free reading of groups."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rewrite_module, "_simple_parts", lambda group, source: None)
        emitter = rewrite_module._Emitter(source, "<test>")
        if not emitter.found.istring_prefixes:
            return source
        return emitter.run()


# The fast path's Python reference, and its C version where the accelerator is in use.
_FAST_PATHS = [_fast_path._python_rewrite_simple]
if _fast_path._compiled is not None:
    _FAST_PATHS.append(_fast_path.rewrite_simple)


def _fast_rewrite(source: str) -> str | None:
    """What the fast path writes, the same from the C accelerator as from the Python code
    (``source`` itself from both when it has no i-literal)."""
    written = []
    for rewrite_simple in _FAST_PATHS:
        _fast_path._CALLS.clear()  # computed afresh, not remembered from an earlier case
        written.append(rewrite_simple(source, BUILDER_NAME, rewrite_module._layout_key))
        # and again, each literal's call now remembered
        assert rewrite_simple(source, BUILDER_NAME, rewrite_module._layout_key) == written[-1]
    assert all(text == written[0] for text in written), source
    assert all((text is source) == (written[0] is source) for text in written), source
    return written[0]


def _agrees(source: str) -> bool:
    """Whether the fast path agrees with the full rewrite on ``source``; ``True`` if it
    read the source, ``False`` if it left it to the full rewrite."""
    fast = _fast_rewrite(source)
    if fast is None:
        return False
    try:
        full = _full_rewrite(source)
    except SyntaxError as error:
        raise AssertionError(f"the fast path rewrote what is an error: {error}") from None
    assert fast == full
    if fast == source:
        assert fast is source
        assert not _fast_path.may_hold_istring(source)
    return True


@pytest.mark.parametrize("entry", CORPUS, ids=[entry.name for entry in CORPUS])
def test_fast_path_agrees_on_the_corpus(entry: Entry) -> None:
    for letter in ("i", "f", "t"):
        _agrees(f"v = {spell(entry.src, letter)}\n")


def test_fast_path_takes_the_common_literals_and_leaves_the_rest() -> None:
    """It does read the common shape (else the agreement tests would prove nothing), and
    leaves everything else to the full rewrite."""
    taken = [
        "t = i'a {x} b'\n",
        "t = (Ri'{x}', rI'{y}', IR'{z}')\n",
        "t = i'{x.y!r:>5} {{}}' + 'i\"{z}\"'  # i'{w}'\n",
        "t = i'{ x = }'\nu = I\"{y=:^3}\"\n",
        "t = ri'''a\n{x}\nb''', f'{x!r:>3}', rb'\\d'\n",
        "doc = '''quotes i'{x}' '''\n",
    ]
    for source in taken:
        assert _agrees(source), source
    left = [
        "t = i'\\t{x}'\n",
        "t = i'{x + 1}'\n",
        "t = i'{x:{w}}'\n",
        "t = i'{None}'\n",
        "t = i'{x=:}'\n",
        "t = i'{x}' i'{y}'\n",
        "t = ('a'\n     i'{y}')\n",
        "t = f'{d[\"k\"]}' + i'{y}'\n",
        "t = f'{i\"{y}\"}'\n",
        "t = i'{x'\n",
        "t = 'unterminated\nu = i'{x}'\n",
    ]
    for source in left:
        assert _fast_rewrite(source) is None, source


_COMMON_FIELDS = [
    "{x}", "{ x }", "{x.y}", "{x=}", "{x = }", "{x!r}", "{x!s:>5}", "{x:#x}", "{x=:>3}",
    "{x=!a}", "{x:}", "{x:%Y-%m}",
]
_FAST_FIELDS = [
    *_COMMON_FIELDS,
    "{x=:}", "{x!z}", "{x!r=}", "{x!=y}", "{x==y}", "{None}", "{x.if}",
    "{x:{w}}", "{x + 1}", "{x:'}", "{é}", "{{", "}}", "{", "}", "{x\n}", "{x:a\nb}",
]
_FAST_TEXT = st.text(alphabet="ab #=!:.,'\"\\\n\tNé", max_size=4)
_FAST_CODE = [
    "x = ", "print(", ")", ", ", "\n", " \\\n", "(\n", "[", "]", "  # i'{q}' \n", "pi + ",
    "if ", "'''doc i'{q}' '''", "'a'", "b'b'", "rb'\\d'", "f'{x!r}'", "f\"{d['k']}\"",
    "F'{{i'", "rf'\\d{x}'", "t'{x}'", "'it''s'", "\"\"\"\n\"\"\"", "u'\\''", "'x\\\ny'",
]


@st.composite
def _istring(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["i", "I", "ri", "rI", "Ri", "RI", "iR", "IR", "Ir"]))
    quote = draw(st.sampled_from(["'", '"', "'''", '"""']))
    field = st.sampled_from(_COMMON_FIELDS) | st.sampled_from(_FAST_FIELDS)
    pieces = draw(st.lists(st.one_of(_FAST_TEXT, field), max_size=5))
    return prefix + quote + "".join(pieces) + quote


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(_istring(), st.sampled_from(_FAST_CODE)), max_size=8))
@example(["t = ", "i'{x}'", "\n", "'a'"])
@example(["'a'", " \\\n", "i'{x}'"])
@example(['i""{x}""""\n"""i"#"'])  # three quotes open a triple-quoted string, joined to i"#"
@example(['v = i""""""\n'])  # an empty triple-quoted i-literal
def test_fast_path_agrees_with_the_full_rewrite(pieces: list[str]) -> None:
    _agrees("".join(pieces))


_VERDICT_CODE = [*_FAST_CODE, "i", "ri", "'i'", '"i"', "i'", "x'", "f'{", "}'", "(", "]", "#"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_VERDICT_CODE), max_size=10))
# An unclosed bracket carries a field on past its `}` (3.12+), into code:
@example(["f'{", "print(", "}'", "x = ", "'''doc i'{q}' '''"])
def test_the_fast_verdict_never_hides_an_i_literal(pieces: list[str]) -> None:
    source = "".join(pieces)
    if not _fast_path.may_hold_istring(source):
        assert scan(source).istring_prefixes == []
