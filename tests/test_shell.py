"""sh() and argv(): every hostile value reaches real dash and bash as exactly one argument."""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest
from conftest import run
from hostile import ALL, SENTINEL
from hypothesis import given, settings
from hypothesis import strategies as st
from templates import T

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh
from ipy_istring.template import Interpolation, InterpolationTemplate

SHELLS = ["/usr/bin/dash", "/bin/bash"]


def printf_all(values: list[str]) -> InterpolationTemplate:
    """``printf '%s\\0' {v0} {v1} ...``: one field per value."""
    parts: list[object] = ["printf '%s\\0'"]
    for n, value in enumerate(values):
        parts += [" ", (value, f"v{n}")]
    return T(*parts)


def run_shell(shell: str, command: str, cwd: pathlib.Path) -> list[str]:
    done = subprocess.run([shell, "-c", command], cwd=cwd, capture_output=True, check=True)
    assert done.stderr == b""
    out = done.stdout.decode("utf-8", "surrogateescape")
    assert out.endswith("\0") or out == ""
    return out.split("\0")[:-1]


@pytest.mark.parametrize("shell", SHELLS)
def test_corpus_each_value_is_one_argument_in_a_real_shell(
    shell: str, tmp_path: pathlib.Path
) -> None:
    # A file for globs to match, so an unquoted '*' would visibly expand.
    (tmp_path / "a-file").write_text("")
    assert run_shell(shell, sh(printf_all(ALL)), tmp_path) == ALL
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize("shell", SHELLS)
def test_corpus_spread_through_a_real_shell(shell: str, tmp_path: pathlib.Path) -> None:
    (tmp_path / "a-file").write_text("")
    command = sh(T("printf '%s\\0' ", (ALL, "values", None, "*"), " | cat"))
    assert run_shell(shell, command, tmp_path) == ALL
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize("shell", SHELLS)
def test_argv_hands_the_corpus_to_a_shell_without_interpreting_it(
    shell: str, tmp_path: pathlib.Path
) -> None:
    command = argv(T(shell, ' -c \'printf "%s\\0" "$@"\' argv0 ', (ALL, "values", None, "*")))
    assert command[:4] == [shell, "-c", 'printf "%s\\0" "$@"', "argv0"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, check=True)
    assert done.stdout.decode().split("\0")[:-1] == ALL
    assert not (tmp_path / SENTINEL).exists()


def test_argv_each_field_is_one_element() -> None:
    command = argv(printf_all(ALL))
    assert command == ["printf", "%s\\0", *ALL]
    done = subprocess.run(command, capture_output=True, check=True)
    assert done.stdout.decode().split("\0")[:-1] == ALL


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(st.characters(exclude_characters="\0", exclude_categories=["Cs"])), min_size=1)
)
def test_any_text_round_trips_through_dash(values: list[str]) -> None:
    command = sh(T("printf '%s\\0' ", (values, "values", None, "*"), " ; printf end"))
    done = subprocess.run(["/usr/bin/dash", "-c", command], capture_output=True, check=True)
    assert done.stdout.decode().split("\0") == [*values, "end"]


def test_static_text_passes_through_and_values_are_quoted() -> None:
    assert sh(T("ls -l ", ("my file", "f"), " | wc -l")) == "ls -l 'my file' | wc -l"
    assert sh(T("echo ", ("", "e"))) == "echo ''"
    assert argv(T("echo ", ("", "e"))) == ["echo", ""]
    assert sh(T("cp --target=", ("a b", "d"), " x")) == "cp --target='a b' x"
    assert argv(T("cp --target=", ("a b", "d"), " x")) == ["cp", "--target=a b", "x"]


def test_argv_splits_static_text_like_a_posix_shell() -> None:
    template = T("git commit -m 'two words' \"a \\\"q\\\"\" a\\ b '' ", ("v", "v"), "x")
    assert argv(template) == ["git", "commit", "-m", "two words", 'a "q"', "a b", "", "vx"]


def test_pathlike_bytes_and_numbers() -> None:
    path = pathlib.PurePosixPath("/tmp/my dir/f.txt")
    assert argv(T("cat ", (path, "path"))) == ["cat", "/tmp/my dir/f.txt"]
    assert sh(T("cat ", (path, "path"))) == "cat '/tmp/my dir/f.txt'"
    raw = b"caf\xe9 name"  # not UTF-8: survives as the same bytes via surrogateescape
    word = argv(T("cat ", (raw, "raw")))[1]
    assert os.fsencode(word) == raw
    assert sh(T("head -n ", (5, "n"))) == "head -n 5"


def test_conversion_and_format_spec_apply_before_quoting() -> None:
    assert sh(T("echo ", (3.14159, "pi", None, ".2f"))) == "echo 3.14"
    assert shlex.split(sh(T("echo ", ("x y", "s", "r")))) == ["echo", "'x y'"]
    assert argv(T("echo ", (7, "n", None, ">4"))) == ["echo", "   7"]
    with pytest.raises(RenderError, match=r"\{n:zz\}.*int.*Supported:.*':\*'"):
        sh(T("echo ", (1, "n", None, "zz")))


def test_list_needs_the_spread_spec() -> None:
    with pytest.raises(RenderError, match=r"\{files\} is a list.*\{files:\*\}"):
        sh(T("rm ", (["a", "b"], "files")))
    with pytest.raises(RenderError, match=r"\{files\} is a tuple"):
        argv(T("rm ", (("a", "b"), "files")))
    assert sh(T("rm -- ", (["a b", "-c"], "files", None, "*"))) == "rm -- 'a b' -c"
    assert argv(T("rm ", ([], "files", None, "*"), " x")) == ["rm", "x"]
    assert argv(T("echo ", ([1, "b"], "xs", "r", "*"))) == ["echo", "1", "'b'"]


def test_spread_must_stand_alone_and_be_a_list() -> None:
    with pytest.raises(RenderError, match="words of its own"):
        sh(T("echo x", (["a"], "files", None, "*")))
    with pytest.raises(RenderError, match="words of its own"):
        argv(T("echo ", (["a"], "files", None, "*"), "y"))
    with pytest.raises(RenderError, match=r"\{name:\*\}.*value is a str"):
        sh(T("echo ", ("abc", "name", None, "*")))


def test_nul_byte_is_refused() -> None:
    for render in (sh, argv):
        with pytest.raises(RenderError, match=r"\{x\} contains a NUL byte"):
            render(T("echo ", ("a\0b", "x")))
        with pytest.raises(RenderError, match="NUL"):
            render(T("echo ", (["ok", "a\0b"], "xs", None, "*")))


@pytest.mark.parametrize(
    ("parts", "where", "argv_says"),
    [
        (("echo '", ("x", "x"), "'"), "single quotes", "single quotes"),
        (("echo 'it''s ", ("x", "x"), "'"), "single quotes", "single quotes"),
        (('echo "', ("x", "x"), '"'), "double quotes", "double quotes"),
        # Shell syntax argv cannot honour is reported first by argv.
        (('echo "$(ls) ', ("x", "x"), '"'), "double quotes", "needs a shell"),
        (("echo $'a ", ("x", "x"), "'"), r"\$'\.\.\.'", "needs a shell"),
        (("echo a # ", ("x", "x")), "comment", "needs a shell"),
        (("#", ("x", "x")), "comment", "needs a shell"),
        # Backquotes re-read backslashes in their body: a value there is refused (it was
        # accepted before the grammar-based check).
        (("echo `cat ", ("x", "x"), "`"), "backquote", "needs a shell"),
    ],
)
def test_field_inside_written_quotes_or_comment_is_refused(
    parts: tuple[object, ...], where: str, argv_says: str
) -> None:
    for render, expected in ((sh, where), (argv, argv_says)):
        with pytest.raises(RenderError, match=expected) as caught:
            render(T(*parts))
        # The error never carries a partly built command.
        assert "echo" not in str(caught.value).split("e.g.")[0]


@pytest.mark.parametrize(
    "parts",
    [
        ("echo a#b ", ("x", "x")),  # '#' inside a word is not a comment
        ('echo "#" ', ("x", "x")),
        ("echo $(cat ", ("x", "x"), ")"),
        ('echo "$(cat ', ("x", "x"), ')"'),  # a substitution opens an unquoted context
        ("echo 'a'", ("x", "x"), "'b'"),  # adjacent to closed quotes
        ("echo \\'", ("x", "x")),  # an escaped quote opens nothing
    ],
)
def test_contexts_where_a_field_is_fine(parts: tuple[object, ...]) -> None:
    value = "a b"
    command = sh(T(*(p if isinstance(p, str) else (value, "x") for p in parts)))
    assert "'a b'" in command


def test_substitution_context_is_really_unquoted_in_dash(tmp_path: pathlib.Path) -> None:
    value = f"a b; touch {SENTINEL}"
    command = sh(T('printf "%s\\0" "$(printf %s ', (value, "v"), ')"'))
    assert run_shell("/usr/bin/dash", command, tmp_path) == [value]
    assert not (tmp_path / SENTINEL).exists()


@pytest.mark.parametrize(
    "static", ["ls | wc", "a; b", "echo $HOME", "a && b", "cat < f", "x # c\n"]
)
def test_argv_refuses_shell_syntax(static: str) -> None:
    with pytest.raises(RenderError, match="needs a shell"):
        argv(T(static + " ", ("v", "v")))
    sh(T(static + " ", ("v", "v")))  # fine for sh


def test_plain_str_is_the_fstring_mistake() -> None:
    for render, name in ((sh, "sh"), (argv, "argv")):
        with pytest.raises(TypeError, match=rf"already formatted.*{name}\(i'...'\)"):
            render("cat my file")


@pytest.mark.skipif(sys.version_info < (3, 14), reason="native t-strings need Python 3.14")
def test_native_template() -> None:
    from string.templatelib import Interpolation as NativeInterpolation
    from string.templatelib import Template

    template = Template("cat ", NativeInterpolation("a b", "f"))
    assert sh(template) == "cat 'a b'"
    assert argv(template) == ["cat", "a b"]


def test_in_ipython_with_i_literals(ishell: object, tmp_path: pathlib.Path) -> None:
    ishell.user_ns["tmp"] = str(tmp_path)  # type: ignore[attr-defined]
    run(ishell, "from ipy_istring.shell import sh, argv\nimport subprocess")
    run(ishell, f"name = 'x; touch {SENTINEL}'")
    assert run(ishell, "sh(i'cat {name}')") == f"cat 'x; touch {SENTINEL}'"
    assert run(ishell, "argv(i'cat -- {name}')") == ["cat", "--", f"x; touch {SENTINEL}"]
    out = run(
        ishell,
        'subprocess.run(sh(i"printf %s {name}"), shell=True, cwd=tmp, '
        "capture_output=True, text=True).stdout",
    )
    assert out == f"x; touch {SENTINEL}"
    assert run(ishell, 'argv(i\'rm {["a", "b c"]:*}\')') == ["rm", "a", "b c"]
    assert not (tmp_path / SENTINEL).exists()
    with pytest.raises(RenderError, match=r"\{name\} is inside single quotes"):
        run(ishell, "sh(i\"echo '{name}'\")")


@pytest.mark.parametrize(
    "static",
    ["ls ~ ", "ls *.py ", "ls a? ", "ls [ab] ", "VAR=x cmd ", "a\nb ", "echo hi! ", "echo {a,b} "],
)
def test_argv_refuses_all_syntax_only_a_shell_honours(static: str) -> None:
    # Before, these reached the program as literal words while '$HOME' was refused.
    with pytest.raises(RenderError, match="needs a shell, and argv\\(\\) runs none"):
        argv(T(static, ("v", "v")))


def test_spread_accepts_any_iterable_but_str_bytes_and_mappings(tmp_path: pathlib.Path) -> None:
    for name in ("b", "a c"):
        (tmp_path / name).write_text("")
    spreads = [
        ((x for x in ["a", "b c"]), ["a", "b c"]),
        (sorted(tmp_path.glob("*")), [str(tmp_path / "a c"), str(tmp_path / "b")]),
        ({"k": 1, "j": 2}.keys(), ["k", "j"]),
        (range(3), ["0", "1", "2"]),
        (frozenset({"only"}), ["only"]),
        (iter(()), []),
    ]
    for value, words in spreads:
        assert argv(T("ls ", (value, "xs", None, "*"))) == ["ls", *words]
    assert sh(T("ls ", ((x for x in ["a", "b c"]), "xs", None, "*"))) == "ls a 'b c'"
    for value in ({"a"}, range(2), (x for x in "ab"), {"k": 1}.keys()):  # the f-string's repr
        with pytest.raises(RenderError, match=r"\{xs\} is a .*\{xs:\*\}.*\{xs!s\}"):
            sh(T("ls ", (value, "xs")))
    for bad in ("abc", b"abc", bytearray(b"ab"), {"k": 1}, 3):
        with pytest.raises(RenderError, match=r"\{xs:\*\} spreads an iterable"):
            sh(T("ls ", (bad, "xs", None, "*")))


def test_spread_as_command_needs_items_and_never_as_a_redirection_target() -> None:
    assert sh(T("", (["python3", "-c"], "cmd", None, "*"), " pass")) == "'python3' '-c' pass"
    with pytest.raises(RenderError, match="next word would become the command"):
        sh(T("", ([], "cmd", None, "*"), " pass"))
    with pytest.raises(RenderError, match="not a redirection target"):
        sh(T("cat > ", (["a", "b"], "outs", None, "*")))


def test_a_value_as_command_name_is_always_quoted(tmp_path: pathlib.Path) -> None:
    # Unquoted, 'if' would be a reserved word and 'PATH=x' an assignment.
    assert sh(T("", ("if", "c"), " x")) == "'if' x"
    assert sh(T("", ("PATH", "c"), "=1 x")) == "'PATH'=1 x"
    assert sh(T("echo a; ", ("ls", "c"))) == "echo a; 'ls'"
    (tmp_path / "a-file").write_text("")
    assert run_shell("/usr/bin/dash", sh(T("", ("cat", "c"), " a-file")), tmp_path) == []
    # A value naming a builtin that reads its arguments as code is refused.
    for builtin in ("eval", "command", "declare", "printf", "["):
        with pytest.raises(RenderError, match=re.escape(f"is the command name '{builtin}'")):
            sh(T("", (builtin, "c"), " x"))
        with pytest.raises(RenderError, match="is the command name"):
            sh(T("", ([builtin, "x"], "c", None, "*")))


def test_many_fields_and_long_spreads_stay_linear() -> None:
    values = [f"v {n}" for n in range(10_000)]
    assert shlex.split(sh(printf_all(values)))[2:] == values
    assert argv(printf_all(values))[2:] == values
    items = [f"f {n}" for n in range(20_000)]
    assert argv(T("rm -- ", (items, "xs", None, "*"))) == ["rm", "--", *items]
    assert shlex.split(sh(T("rm -- ", (items, "xs", None, "*")))) == ["rm", "--", *items]


def test_many_values_of_an_unknown_program_read_its_options_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Whether a program reads a value as an option was asked with all the words before it,
    # read from the start each time: n² words (`tool a {v0} a {v1} ...` with 10,000 values
    # took 26 s).  The reading now goes on from where the last question stopped.
    from ipy_istring import _shell_programs

    read = 0
    read_options = _shell_programs._read_options

    def counted(name, words, state):  # type: ignore[no-untyped-def]
        nonlocal read
        words = list(words)
        read += len(words)
        return read_options(name, words, state)

    monkeypatch.setattr(_shell_programs, "_read_options", counted)
    for count in (1_000, 4_000):
        read = 0
        parts: list[str | Interpolation] = ["tool a "]
        for n in range(count):
            parts += [Interpolation(f"v {n}", f"v{n}"), " a "]
        assert shlex.split(sh(InterpolationTemplate(*parts)))[2::2] == [
            f"v {n}" for n in range(count)
        ]
        assert read <= 2 * count, (count, read)  # (n²/2 before: 8 million words for 4,000)


def test_deep_nesting_is_a_clear_error_not_a_recursion_error() -> None:
    inner = T("x")
    for _ in range(5_000):
        inner = T("a", (inner, "t"))
    with pytest.raises(RenderError, match=r"\{deep\} is nested too deeply"):
        sh(T("echo ", (inner, "deep")))
    for static in ("echo " + "$(echo " * 3_000 + ")" * 3_000, "( " * 3_000 + "echo" + ")" * 3_000):
        with pytest.raises(RenderError, match="nested more than 64 deep"):
            sh(T(static + "; echo ", ("v", "v")))


def test_the_check_after_rendering_refuses_what_a_scanner_bug_lets_through(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ipy_istring import _shell_grammar, shell

    template = T("echo $HOME", ("X", "x"))  # 'X' would extend $HOME into $HOMEX
    with pytest.raises(RenderError, match=r"\{x\} is right after a \$name"):
        sh(template)
    # Break the scanner: no neighbour checks.  The re-lex of the rendered word must catch it.
    monkeypatch.setattr(_shell_grammar._Lexer, "check_neighbours", lambda *args: None)
    shell._analyse.cache_clear()
    with pytest.raises(RenderError, match=r"\{x\} did not come out of the shell's lexer"):
        sh(template)
    assert sh(T("echo $HOME", ("a b", "x"))) == "echo $HOME'a b'"  # quoted: still one word
    # Break the quoting: the value goes in raw.
    monkeypatch.setattr(shell, "_quote", lambda text, always: text)
    with pytest.raises(RenderError, match=r"\{v\} did not come out of the shell's lexer"):
        sh(T("echo ", ("a b", "v")))
    shell._analyse.cache_clear()


def test_static_text_with_a_nul_byte_is_refused() -> None:
    with pytest.raises(RenderError, match="NUL byte"):
        sh(T("echo \0 ", ("v", "v")))


@pytest.mark.parametrize(
    "written",
    ["sh -c {x}", "bash -lc {x}", "dash -e -c {x}", "bash -o errexit -c {x}", "sh -c -- {x}"],
)
def test_a_shells_command_string_is_refused_like_eval(written: str) -> None:
    before, after = written.split("{x}")
    template = InterpolationTemplate(before, Interpolation("touch PWNED", "x"), after)
    expected = r"command string of \w+ -c, which that shell parses again as code\. Write"
    with pytest.raises(RenderError, match=expected):
        sh(template)


def test_the_operands_after_a_command_string_are_data() -> None:
    # sh -c 'script' NAME ARG...: the arguments reach the script as $0, $1..., never as code.
    template = InterpolationTemplate(
        "sh -c 'printf %s \"$1\"' _ ", Interpolation("$(touch PWNED); x", "x")
    )
    rendered = sh(template)
    done = subprocess.run(["dash", "-c", rendered], capture_output=True, text=True, check=True)
    assert done.stdout == "$(touch PWNED); x"


# Programs beyond the shell's grammar (ipy_istring/_shell_programs.py): runners are followed
# to the command they run, and arguments a program reads as code are refused.  (The hostile
# ones also run in real dash and bash in tests/test_shell_contexts.py.)
PROGRAMS_ACCEPTED = [
    "env FOO=1 ls §", "sudo -u bob cat §", "timeout 5 cat §", "xargs -I'{}' cp '{}' §",
    "find § -name x", "find . -name § -exec cat '{}' \\;", "find . -exec cat '{}' \\; -name §",
    "python3 script.py §", "python3 -c 'import sys' §", "python3 -m pip install §",
    "§ -m pip install x", "awk '{print}' §", "awk -f prog.awk §", "awk -v n=§ '{print n}'",
    "sed -e s/a/b/ §", "sed s/a/b/ §", "perl -e 'print @ARGV' §", "ssh -i § h ls",
    "ssh -p 22 -i § h ls",
    "env sh -c 'cat -- \"$1\"' sh §", "nice -n 5 cat §", "watch -x cat §",
    "git --namespace § status",
    "§ file", "sudo §", "env §", "bash -o § -c 'echo'",
    "docker exec § ls", "docker exec -e A=1 -u § c cat §", "kubectl exec -it § -- cat §",
    "timeout § cat §", "docker run § sh -c ls",
    "ssh -o ConnectTimeout=§ h", "git -c user.name=§ commit", "git commit -c §",
    "git config user.name §", "git config --get §", "tar -xf §", "tar -C § -cf a f",
    "rsync -av § b:c", "scp § b:c", "zip a.zip §", "sqlite3 § 'select 1'",
    "psql -d § -c 'select 1'", "sg §", "vim §", "gdb --args prog §", "§ -q §",
    "node --eval=1 §", "script -q §", "git log §", "su - §",
    "strace -o log cat §", "docker run img cat §", "uv run python script.py §",
    "tmux new -s §", "tmux attach -t §", "tmux send-keys -t § ls Enter", "screen -r §",
    "tmux new -d -c § top",
]  # fmt: skip
PROGRAMS_REFUSED = [
    "env sh -c §", "env -i sh -c §", "nice -n 5 bash -c §", "timeout -s KILL 5 sh -c §",
    "sudo -u bob sh -c §", "xargs -I'{}' sh -c §", "find . -exec cat '{}' \\; -exec sh -c § \\;",
    "exec sh -c §", "nohup sh -c §", "/usr/bin/env bash -c §", "python3.12 -c §",
    "python -Bc §", "/usr/bin/python3 -c §", "perl -e§", "ruby -e §", "node -e §",
    "node --eval=§", "gawk -e §", "sed -n §", "sed --expression=§", "su bob -c §",
    "su --command=§", "env -S§", "ssh host §", "ssh host ls §", "parallel §", "§ -e §",
    "env FOO=1 sudo -u x nice timeout 3 sh -c §", "/usr/bin/time sh -c §", "stdbuf -oL sh -c §",
    "setsid sh -c §", "chroot / sh -c §", "env -- sh -c §", "fish -c §", "tcsh -c §",
    "docker exec c sh -c §", "docker exec -it -w /tmp § bash -c §", "podman exec c sh -c §",
    "kubectl exec -n ns pod -- sh -c §", "kubectl exec § -- sh -c §", "timeout § sh -c §",
    # a program's code option with code written before the value in the same word
    "node --eval=1+§", "su --command=ls§", "env --split-string=a§", "su -lc §",
    "flock f -xc §", "script -qc § /dev/null", "script --command=§",
    # options and settings that programs run as commands (GTFOBins-style)
    "tar -xf a --to-command=§", "tar -cf a --checkpoint-action=exec=§ f", "tar -xI § -f a",
    "tar --use-compress-program=§ -cf a f", "zip -T -TT § a.zip f", "rsync -e § a b:c",
    "rsync -ave § a b:c", "rsync --rsh=§ a b:c", "rsync --rsync-path=§ a b:c",
    "scp -S § a b:c", "sg root §", "sg - root -c §", "nix-shell --run §",
    "ssh -o ProxyCommand=§ h", "ssh -oProxyCommand=§ h", "ssh -o proxycommand=§ h",
    "ssh -o § h", "scp -o LocalCommand=§ a b:c", "sudo -u x ssh -o ProxyCommand=§ h",
    "git -c core.pager=§ log", "git -c § log", "git -c alias.st=§ st",
    "git -c diff.x.textconv=§ diff", "git --upload-pack=§ ls-remote h",
    "git clone -c core.sshCommand=§ u", "git config core.pager §",
    "git config --global alias.x §", "git config § v", "env git -c core.editor=§ commit",
    # interpreters, debuggers, editors and database shells
    "gdb -batch -ex §", "vim -c §", "psql -c §", "psql --command=§", "mysql -e §",
    "sqlite3 db §", "sqlite3 -cmd § db", "duckdb db §", "julia -e §", "expect -c §",
    "deno eval §", "ipython -c §",
    # a shell's command string behind a program the tables do not know
    "strace -f sh -c §", "docker run --rm img sh -c §", "uv run python -c §",
    "busybox sh -c §", "watch -x sh -c §", "nsenter -t 1 sh -c §", "unshare -r bash -c §",
    "poetry run sh -c §", "tini -- sh -c §", "kubectl run p --image=i -- sh -c §",
    # terminal multiplexers' commands that run a shell command or type keys into a shell
    "tmux new-session -d §", "tmux -L sock new -d -s x §", "tmux send-keys -t s § Enter",
    "tmux run-shell §", "tmux split-window -h §", "screen -S s -X stuff §",
]  # fmt: skip


def _with_fields(case: str) -> InterpolationTemplate:
    pieces = case.split("§")
    parts: list[object] = [pieces[0]]
    for n, piece in enumerate(pieces[1:]):
        parts += [(f"value {n}", f"v{n}"), piece]
    return T(*parts)


@pytest.mark.parametrize("case", PROGRAMS_ACCEPTED)
def test_runners_and_interpreters_data_arguments_are_accepted(case: str) -> None:
    template = _with_fields(case)
    assert shlex.split(sh(template)) == argv(template)


@pytest.mark.parametrize("case", PROGRAMS_REFUSED)
def test_code_arguments_of_runners_and_interpreters_are_refused(case: str) -> None:
    template = _with_fields(case)
    for render in (sh, argv):
        with pytest.raises(RenderError, match=r"code\b.*\. [A-Z]"):
            render(template)


@pytest.mark.parametrize(
    "case",
    ["echo § | sh", "curl § | bash", "echo § | sudo sh", "{ echo §; } | sh",
     "if true; then echo §; fi | sh", "echo § | tee f | sh", "echo § | python3 -",
     "printf '%s\\n' § | sh -s -- a", "(echo §) | sh", "echo $(echo §) | sh",
     # other programs that read code from their standard input
     "echo § | xargs sh -c", "echo § | xargs -I{} sh -c 'echo {}'", "echo § | at now",
     "echo § | xargs git clone", "echo § | xargs -n1 ssh", "echo § | xargs tar -xf a.tar",
     "echo § | crontab -", "echo § | ssh h", "echo § | ssh -p 22 h", "echo § | psql",
     "echo § | mysql -u root", "echo § | sqlite3 db", "echo § | source /dev/stdin",
     # (cp's options change what it writes: `-t DIR`; write `--` before `{}`)
     "echo § | xargs -I{} cp {} /tmp", "echo § | xargs rm",
     "echo § | sh /dev/stdin", "echo § | bash -", "echo § | parallel", "echo § | perl",
     "echo § | xargs env", "echo § | xargs env -i --", "echo § | xargs make --"],
)  # fmt: skip
def test_values_in_a_pipeline_into_a_shell_reading_its_program_are_refused(case: str) -> None:
    # (argv() refuses a pipeline as such: it runs no shell.)
    with pytest.raises(RenderError, match=r"in a pipeline into [\w ]+, which reads it as code"):
        sh(_with_fields(case))


@pytest.mark.parametrize(
    "case",
    ["echo § | grep a", "echo § | python3 -c 'import sys'", "echo § | bash s.sh",
     "echo § && sh", "echo a | sh -s -- §", "cat § | grep x | sort", "echo a | sh; echo §",
     "{ echo a; } | sh; echo §", "cd § && curl https://example.org/i.sh | sh",
     "echo § | xargs echo", "echo § | xargs -I{} cp -- {} /tmp", "echo § | ssh h cat",
     # (`echo § | xargs git clone --` until the nineteenth pass: the value is git's repository,
     # which may name a remote helper that runs a command, tests/test_shell_nineteenth_pass.py)
     "echo § | xargs rm --", "echo § | xargs python3 s.py", "echo § | xargs git log --",
     "echo § | psql -c 'select 1'", "echo § | sqlite3 db 'select 1'", "echo § | parallel echo",
     "echo § | bash -- s.sh", "echo § | python3 s.py"],
)  # fmt: skip
def test_values_beside_a_pipe_into_a_shell_are_accepted(case: str) -> None:
    # Only what flows into the shell's program is code: not a pipe into a program that reads
    # data, not another command of the list, not the positional parameters of `sh -s`.
    rendered = sh(_with_fields(case))
    assert "'value 0'" in rendered



def _with_value(case: str, value: object, spec: str = "") -> InterpolationTemplate:
    """``case`` with each § a field holding ``value`` (spread with ``spec="*"``)."""
    pieces = case.split("§")
    parts: list[object] = [pieces[0]]
    for piece in pieces[1:]:
        parts += [(value, "v", None, spec), piece]
    return T(*parts)


@pytest.mark.parametrize(
    ("case", "value"),
    [("ssh § ls", "-oProxyCommand=touch x"), ("git clone § d", "--upload-pack=touch x"),
     ("tar -xf a.tar §", "--to-command=sh"), ("python3 §", "-cimport os"), ("bash §", "-c"),
     ("vim §", "+!touch x"), ("sort §", "--compress-program=sh"), ("sudo ssh § ls", "-oX=y"),
     ("git -C d fetch § main", "--upload-pack=x"), ("tar -cf a.tar §", ["ok", "-x"]),
     # options after an interpreter's code option (perl runs each -e), or after IPython's
     # script (traitlets reads --Class.trait= options anywhere), and make's --eval
     ("perl -e 'print @ARGV;' §", "-esystem('id')"), ("ruby -e 'p ARGV' §", "-ex"),
     ("node -e 1 §", "--require=x"), ("ipython s.py §", "--InteractiveShellApp.exec_lines=x"),
     ("make §", "--eval=$(shell id)"), ("make -C d §", "-e")],
)  # fmt: skip
def test_a_value_read_as_an_option_of_a_program_with_code_options_is_refused(
    case: str, value: object
) -> None:
    template = _with_value(case, value, "*" if isinstance(value, list) else "")
    for render in (sh, argv):
        with pytest.raises(RenderError, match=r"would read it as an option.*Write -- before"):
            render(template)


@pytest.mark.parametrize(
    ("case", "value"),
    [("python3 s.py §", "-c"), ("sh -c x sh §", "-c"),
     ("ls §", "-rf"), ("ssh § ls", "host"), ("git -c user.name=§ commit", "-x"),
     ("tar -xf a.tar ./§", "-x"), ("vim -- §", "+x"), ("perl -e 1 -- §", "-e1"),
     ("python3 -c 'import sys' §", "-c"), ("ipython s.py -- §", "--x=1"), ("make -- §", "-e")],
)  # fmt: skip
def test_a_value_after_dashes_or_not_read_as_an_option_is_accepted(case: str, value: str) -> None:
    # (ls's options run nothing: an option such as -rf is out of scope, as with shlex.quote)
    words = argv(_with_value(case, value))
    assert any(value in word for word in words)
    assert shlex.split(sh(_with_value(case, value))) == words


@pytest.mark.parametrize("case", ["ssh -- § ls", "ssh -- § uptime"])
def test_ssh_reads_a_destination_after_dashes_as_a_host(case: str) -> None:
    # (accepted above until the sixteenth pass: after --, -oProxyCommand=x is no option of ssh
    # but its destination's host, which OpenSSH before 9.6 pasted into a configuration's
    # ProxyCommand, where it is an option of the proxy's program; the OpenSSH here refuses it)
    for render in (sh, argv):
        with pytest.raises(RenderError, match="ssh's destination"):
            render(_with_value(case, "-oProxyCommand=x"))


def test_kill_reads_a_negative_pid_after_dashes_as_a_process_group() -> None:
    # (accepted above until the fifteenth pass: after --, kill still reads -1 as every
    # process; tests/test_shell_programs_pass.py proves it with real kill)
    with pytest.raises(RenderError, match="is a process id"):
        sh(_with_value("kill -- §", "-1"))


@pytest.mark.parametrize(
    ("case", "value"),
    [("rg § .", "--pre=sh"), ("fdfind §", "--exec=sh"), ("mytool § out", "-x"),
     ("tcpdump -r f.pcap §", "-zsh"), ("nc § 80", "-e/bin/sh"), ("exiftool § f.jpg", "-if"),
     ("§ x", None), ("{ mytool §; }", "-v"), ("$TOOL §", "-v"), ("sudo mytool §", "-v"),
     ("xargs -0 mytool §", "-v"), ("mytool §", ["a", "-v"]),
     # options that change what is written or destroyed: `rm -rf`, `cp -t DIR`, `kill -1`
     ("rm §", "-rf"), ("cp § /tmp/x", "-t/etc"), ("kill §", "-1"), ("gzip §", "-r"),
     ("rm §", ["a", "-rf"]), ("./ls §", "-la")],
)  # fmt: skip
def test_a_value_read_as_an_option_of_a_program_not_known_to_be_safe_is_refused(
    case: str, value: object
) -> None:
    # The allow-list: only the options of programs known to run no command from one (ls,
    # grep...) may come from a value.  ripgrep's --pre and fd's --exec run a command
    # (tests/test_shell_contexts.py runs both), and no table can list every such option.
    if value is None:  # a value names the program: its options are unknown
        template = T((["mytool"], "p", None, "*"), " x ", ("-v", "v"))
    else:
        template = _with_value(case, value, "*" if isinstance(value, list) else "")
    # (dash's builtin kill takes no -- after a signal: its advice is to check the pid)
    advice = "Check in Python that the value is a positive" if case == "kill §" else "Write --"
    for render in (sh, argv):
        if render is argv and ("{" in case or "$" in case):
            continue  # (argv runs no shell: braces and expansions are not its grammar)
        with pytest.raises(RenderError, match=rf"would read it as an option.*{advice}"):
            render(template)


@pytest.mark.parametrize(
    ("case", "value"),
    [("ls -l §", "-la"), ("grep -e x §", "-"), ("cat -- §", "-n"), ("mytool -- §", "-x"),
     ("rm -- §", "-rf"), ("kill -- §", "42"), ("/bin/ls §", "-la"),
     ("mytool ./§", "-x"), ("mytool §", "x"), ("rg -q x §", "dir"), ("wc -l §", "-"),
     ("mytool §", "-")],
)  # fmt: skip
def test_option_like_values_stay_accepted_where_they_are_data(case: str, value: str) -> None:
    # (a lone '-' is an operand, standard input, to every program)
    words = argv(_with_value(case, value))
    assert any(value in word for word in words)
    assert shlex.split(sh(_with_value(case, value))) == words


# Programs that read code from their standard input other than as `… | sh`: each case
# was accepted before, and runs the value in dash or bash (tests/contexts_sh.py shows those
# the machine has; tests/test_shell_contexts.py runs them).
STDIN_CODE_REFUSED = [
    # a subshell, a group body, a loop or a `$( )` reads the input of the command it is in
    "echo § | (sh)", "echo § | ( sh )", "echo § | { true; sh; }", "echo § | if true; then sh; fi",
    "echo § | while true; do sh; break; done", "echo § | for i in 1; do sh; done",
"echo § | echo \"$(sh)\"", "echo § | echo $(sh)",
    "echo § | (exec sh)", "echo § | (cat; sh)",
    # programs that start a shell when given no command
    "echo § | su", "echo § | su -", "echo § | su root", "echo § | su -s /bin/sh",
    "echo § | sudo -s", "echo § | sudo -i", "echo § | sudo -u root -s", "echo § | sudo su",
    "echo § | doas -s", "echo § | script -q", "echo § | script -q /dev/null",
    "echo § | chroot /", "echo § | unshare", "echo § | nsenter -t 1", "echo § | newgrp",
    "echo § | runuser -l root",
    # shells behind runners and wrappers the tables did not follow
    "echo § | busybox sh", "echo § | busybox ash", "echo § | runuser -u root sh",
    "echo § | setpriv sh", "echo § | strace -o /dev/null sh",
    "echo § | command -p sh", "echo § | command -- sh", "echo § | bash +o posix",
    "echo § | sh 2>&1", "echo § | sh 3</dev/null", "echo § | 2>/dev/null sh",
    "echo § | sh /dev/fd/3 3<&0", "echo § | bash /proc/self/fd/3 3<&0",
    # a command string written in the static text that reads the pipe as code
    "echo § | sh -c sh", "echo § | sh -c 'sh'", "echo § | sh -c \"sh\"", "echo § | su -c sh",
    "echo § | su root -c sh", "echo § | sh -c 'sh -s' x", "echo § | bash -c 'cat | sh'",
    "echo § | sh -c 'read a; sh'", "echo § | sh -c '. /dev/stdin'", "echo § | sh -c 'exec sh'",
    "echo § | bash -c 'eval \"$(cat)\"'", "echo § | env -S sh", "echo § | env -S 'sh -s'",
    "echo § | env -S'sh -s'", "echo § | su -c'sh'", "echo § | script -qc sh /dev/null",
    "echo § | flock f -c sh", "echo § | ssh h sh", "echo § | ssh h bash -s",
    "echo § | ssh h 'cat | sh'", "echo § | sudo sh -c 'sh'", "echo § | split --filter=sh",
    "echo § | tar -xf - --to-command=sh", "echo § | eval sh", "echo § | command eval 'sh'",
    "echo § | trap 'sh' EXIT", "echo § | { trap sh EXIT; }",
    # an expansion: a program it names, or code it gives (what it holds may come from the pipe)
    "echo § | $SHELL", "echo § | \"$SHELL\"", "echo § | \"$(command -v sh)\"",
    "echo § | eval \"$(cat)\"", "echo § | builtin eval \"$(cat)\"", "echo § | sh -c \"$(cat)\"",
    "echo § | python3 -c \"$(cat)\"", "echo § | { read -r v; eval \"$v\"; }",
    "echo § | while read -r l; do sh -c \"$l\"; done", "echo § | { read -r l; $l; }",
    "echo § | sh \"$f\"",
    # tools whose standard input is commands that can run a shell, or told to read it there
    "echo § | ed", "echo § | ed -s f", "echo § | ex", "echo § | vim -es", "echo § | vim",
    "echo § | vim -s /dev/stdin f", "echo § | gdb -q", "echo § | gdb -batch", "echo § | m4",
    "echo § | dc", "echo § | tclsh", "echo § | make -f -", "echo § | make --file=-",
    "echo § | make -f /dev/stdin", "echo § | awk -f -", "echo § | mawk -f /dev/stdin",
    "echo § | sed -f - f", "echo § | sed -nf - f", "echo § | sed -f /dev/stdin f",
    "echo § | python3 -m code", "echo § | python3 -i -c pass", "echo § | python3 -m pdb s.py",
    "echo § | psql -f -", "echo § | sftp h", "echo § | ftp h",
]  # fmt: skip
# A construct the lexer does not follow, in the pipeline of a value: what it does with the
# value's output (a process substitution or bash's |& into a shell) cannot be proved.
STOPPED_PIPELINES = [
    "echo § > >(sh)", "echo § | tee >(bash)", "echo § | tee >(bash) >/dev/null", "echo § |& sh",
    "echo § | $'sh'", "echo § | case a in *) sh;; esac", "echo § | time sh",
    "echo § | coproc sh", "{ echo §; time true; } | sh", "echo § | (cat; $'sh')",
    "echo \"$(echo §; $'x')\" | sh", "cat § <<EOF | sh\nbody\nEOF",
    "echo § | (alias s=sh\ns)",
]  # fmt: skip


@pytest.mark.parametrize("case", STDIN_CODE_REFUSED)
def test_a_value_reaching_code_through_the_standard_input_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"in a pipeline into .+ reads it as code.*\. [A-Z]"):
        sh(_with_fields(case))


@pytest.mark.parametrize("case", STOPPED_PIPELINES)
def test_a_value_in_a_pipeline_the_lexer_stops_in_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"in a pipeline with .+ cannot prove where the value"):
        sh(_with_fields(case))


@pytest.mark.parametrize("case", ["alias s=sh\necho § | s", "hash -p /bin/sh s; echo § | s"])
def test_after_an_alias_or_hash_definition_no_value_is_accepted(case: str) -> None:
    # dash expands aliases in a script; bash's hash -p maps a name to any file: a later
    # command's name may run a shell (`s` reads the pipe as code in dash).
    with pytest.raises(RenderError, match="after which a command's name may run another"):
        sh(_with_fields(case))


@pytest.mark.parametrize(
    "case",
    ["echo § | mytool", "echo § | ./run", "echo § | fakeroot", "echo § | proot",
     "echo § | toybox sh", "echo § | pkexec sh", "echo § | cmake -P /dev/stdin",
     "echo § | ghci", "echo § | redis-cli", "echo § | docker run -i img",
     "echo § | strace -o log mytool", "echo § | timeout 5 mytool", "echo § | xonsh",
     "echo § | sqlplus", "echo § | kubectl apply -f -", "echo § | socat - EXEC:sh",
     # a name with a path of the author's own is not the program the allow-list knows
     "echo § | ./cat", "echo § | bin/grep x",
     # a file written with a value, given to such a program on its standard input
     "echo § > f; mytool < f", "echo § >> f; ./run < f", "printf %s § | tee f; mytool < f"],
)  # fmt: skip
def test_a_pipe_into_a_program_not_known_to_read_data_is_refused(case: str) -> None:
    # The allow-list for pipes: any program may be a shell, a REPL or a build tool that runs
    # what it reads (tests/test_shell_contexts.py runs a script that execs sh).
    with pytest.raises(RenderError, match=r"not one of the programs known to read their input"):
        sh(_with_fields(case))


@pytest.mark.parametrize(
    "case",
    ["echo § | sg grp", "echo § | emacs --batch -l /dev/stdin",
     "echo § | emacs --batch --load=/dev/stdin"],
)
def test_a_pipe_into_a_program_that_starts_a_shell_or_loads_the_input_is_refused(
    case: str,
) -> None:
    # sg given no command starts a shell (run for real in test_shell_contexts.py); emacs -l
    # loads a Lisp file, here the pipe (from its documentation).
    with pytest.raises(RenderError, match=r"in a pipeline into [\w -]+, which reads it as code"):
        sh(_with_fields(case))


@pytest.mark.parametrize(
    "case",
    ["echo § | jq .", "echo § | sort -u", "echo § | wc -l", "echo § | gzip > f.gz",
     "echo § | sg grp cat", "echo § | sg grp -c cat", "echo § | timeout 5 cat",
     "echo § | read -r v; echo done", "echo § | base64 -d", "echo § | /usr/bin/cat",
     "echo § > f; cat < f"],
)  # fmt: skip
def test_a_pipe_into_a_program_known_to_read_data_is_accepted(case: str) -> None:
    rendered = sh(_with_fields(case))
    assert "'value 0'" in rendered


@pytest.mark.parametrize(
    "case",
    ["echo § | grep sh", "echo § | grep -w bash", "echo § | sed s/sh/bash/", "echo § | (cat)",
     "echo § | { cat; }", "echo § | ( cat; echo done )", "echo § | if true; then cat; fi",
     "echo § | while read -r l; do printf '%s\\n' \"$l\"; done", "echo § | sh -c cat",
     "echo § | ssh h cat", "echo § | ssh h 'cat > f'", "echo § | tee f", "sh -c 'cat' < §",
     "echo § | bc", "echo § | tar -x", "echo § | tar -xf - --to-command=cat", "echo § | git apply",
     "echo § | vim -", "echo § | view -R -", "echo § | awk '{print}'", "echo § | sed -f s.sed f",
     "echo § | make", "echo § | make -f Makefile", "echo § | sudo tee /etc/x",
     "echo § | sudo -u bob cat", "echo § | su -c cat", "echo § | sh -c 'cat | grep x'",
     "echo § | bash -c 'read a; printf %s \"$a\"'", "echo § | env -S 'cat -n'",
     "echo § | script -qc cat /dev/null", "echo § | chroot / cat", "echo § | busybox cat",
     "echo § | cat \"$f\"", "echo § | python3 -m json.tool", "echo § | python3 -c 'import sys'",
     "echo § | strace -o log cat", "echo § | docker run -i img cat", "echo § 2>&1 | cat",
     "echo § 2>/dev/null | grep x", "echo § | 2>/dev/null grep x", "echo § >&2; time sh",
     "echo \"$(echo §)\" | grep x", "for f in §; do echo \"$f\"; done | sort",
     "echo §; cat <<EOF\nbody\nEOF", "echo § | split -l 1 --filter=cat", "echo § | sh 2",
     "echo § | bash s.sh 2>&1", "echo § | sh /dev/null", "echo § | { trap 'rm -f t' EXIT; cat; }",
     "echo §; alias s=sh"],
)  # fmt: skip
def test_look_alikes_that_read_the_pipe_as_data_are_accepted(case: str) -> None:
    rendered = sh(_with_fields(case))
    assert "'value 0'" in rendered


def test_command_p_is_still_the_builtin_it_runs() -> None:
    # `command -p eval x` runs eval (bash and dash): its arguments are code.
    with pytest.raises(RenderError, match="an argument of eval"):
        sh(_with_fields("command -p eval echo §"))
    with pytest.raises(RenderError, match="command string of split --filter"):
        sh(_with_fields("split --filter=§ f"))


def test_chains_of_programs_and_command_strings_stay_fast_and_finite() -> None:
    # Each word naming a known program is followed once (it took time exponential in their
    # number), and command strings nested past the lexer's depth are refused, never a
    # RecursionError.
    # (git's hooks off: an unknown subcommand may be an alias of checkout, 24th pass)
    hooks_off = "git -c core.hooksPath=/dev/null "
    assert "'value 0'" in sh(_with_fields(hooks_off + "git " * 39 + "cat §"))
    assert "'value 0'" in sh(_with_fields("echo § | " + "runuser -u x " * 40 + "cat"))
    with pytest.raises(RenderError, match="reads it as code"):
        sh(_with_fields("echo § | " + "ssh h " * 100 + "sh"))


# Second red-team pass: hostile contexts beyond the shell's grammar and the code options.
# Each refused case runs its value in real dash or bash when rendered with plain shlex.quote
# (tests/test_shell_contexts.py runs those the corpus holds, with the positive control).
SECOND_PASS_REFUSED = [
    # env and sudo read NAME=value before the command: programs run many variables as code
    "env GIT_SSH_COMMAND=§ git fetch", "env BASH_ENV=§ bash s.sh", "env -i PAGER=§ man ls",
    "sudo LD_PRELOAD=§ ls", "env X§=1 ls", "env §=1 ls", "env §§ ls", "nice env A=§ ls",
    "env -- A=§ ls", "xargs env A=§ ls",
    # make expands its variables ($(shell cmd)) and pastes them into recipes a shell runs
    "make CC=§", "make -C d PREFIX=§ install", "make -- X=§", "make §.o",
    # perl -n/-p (and a program reading <>) open their operands with the two-argument open
    "perl -ne 'print' §", "perl -pe 's/a/b/' -- §", "perl -lane 'print $F[0]' §",
    "perl -pi -e 's/a/b/' §", "perl -e 'print while <>' §", "perl -e 'print <ARGV>' §",
    "perl -F: -e 'print' §", "perl -n script.pl §",
    # bash's completion builtins expand a word list again or run a command; bind -x, enable -f
    "compgen -W §", "compgen -W § --", "compgen -C § x", "complete -C § ls", "bind -x §",
    "enable -f § name",
    # a code option at the end of a cluster of short options, with the value glued to it
    "perl -ne§ f", "perl -lne§", "python3 -Bc§", "ssh -vo§ h", "ssh -voProxyCommand=§ h",
    "§ -Bc§", "gawk -be§",
    # git subcommands' options and operands that git runs as a shell command
    "git rebase -x § main", "git rebase --exec=§ main", "git clone -u § u d",
    "git -C d difftool --extcmd=§", "git grep -O§ x", "git filter-branch --tree-filter § HEAD",
    "git send-email --to-cmd=§ p", "git submodule foreach §", "git submodule foreach -q §",
    "git bisect run § arg", "git bisect run ./test.sh §",
    # programs run by an option (not a shell command, but a program the user did not write)
    "sort --compress-program=§ f", "sort -S 1k --compress-program § f",
    "wget --use-askpass=§ u", "emacs --batch --eval §",
    # perl pastes -M's and -m's argument into `use MODULE ...;`
    "perl -M§ -e 1", "perl -Mstrict=§ -e 1", "perl -wmFoo=§ -e 1",
]  # fmt: skip


@pytest.mark.parametrize("case", SECOND_PASS_REFUSED)
def test_second_pass_contexts_are_refused(case: str) -> None:
    template = _with_fields(case)
    for render in (sh, argv):
        with pytest.raises(RenderError, match=r"code\b.*\. [A-Z]"):
            render(template)


@pytest.mark.parametrize(
    ("case", "value"),
    [("env § git fetch", "GIT_SSH_COMMAND=touch x"), ("env -i § ls", "A=b"),
     ("sudo § ls", "PAGER=x"), ("sudo -u root § ls", "A=b"), ("env -- § ls", "A=b"),
     ("nohup env § ls", "A=b"), ("make §", "MAKEFLAGS=--eval=x"), ("make -- §", "CC=x"),
     ("make -j § all", "A=b"), ("make all §", "SHELL=/tmp/x"), ("make §", ["all", "X=1"])],
)  # fmt: skip
def test_a_value_read_as_name_equals_value_is_refused(case: str, value: object) -> None:
    template = _with_value(case, value, "*" if isinstance(value, list) else "")
    for render in (sh, argv):
        with pytest.raises(RenderError, match=r"holds '=', so \w+ would read .* as NAME=value"):
            render(template)


@pytest.mark.parametrize(
    ("case", "value"),
    [("env § --version", "ls"), ("env LANG=C ls §", "a=b"), ("env -u § ls", "A=b"),
     ("env -C § ls", "a=b"), ("env /usr/bin/§ x", "a=b"), ("sudo -u § ls", "A=b"),
     ("sudo ls §", "a=b"), ("make §", "all"), ("make -C § all", "a=b"), ("make -f § all", "a=b"),
     ("make all -- §", "install"), ("make -j § all", "4"), ("make PREFIX=/usr install", ""),
     ("perl -e 'print @ARGV' §", "cmd|"), ("perl -e 'print while <<>>' §", "cmd|"),
     ("perl script.pl §", "cmd|"), ("perl -l -e 1 §", "x"),
     ("command -v §", "eval"), ("command § x", "echo"), ("git commit -m §", "a=b"),
     ("grep -e § f", "a=b"), ("cp § §", "a=b"), ("python3 -W§ x.py", "ignore"),
     ("ssh -voConnectTimeout=§ h", "5"), ("tar -xvf§", "a.tar"), ("perl -MFoo -e 1 §", "x"),
     # (git's hooks off where it writes a tree: with them on, the 24th pass refuses those)
     ("git -c core.hooksPath=/dev/null rebase -x 'make test' §", "main"),
     ("git clone -u git-upload-pack § d", "u"), ("git grep -e § -- f", "x"),
     ("git -c core.hooksPath=/dev/null submodule update --init §", "x"),
     ("git -c core.hooksPath=/dev/null bisect good §", "HEAD"), ("git difftool -y §", "HEAD"),
     # an option written --name=argument takes no next word
     ("rsync -av --rsh=ssh § d", "src"), ("su --command=ls §", "bob"),
     ("sort --compress-program=gzip §", "f")],
)  # fmt: skip
def test_second_pass_look_alikes_are_accepted(case: str, value: str) -> None:
    # (perl script.pl: the script may read <>, which the renderer cannot see: docs say so)
    words = argv(_with_value(case, value))
    assert shlex.split(sh(_with_value(case, value))) == words


def test_perl_reads_a_file_given_on_standard_input_as_data(tmp_path: pathlib.Path) -> None:
    # The fix the refusal suggests: a redirection opens the file, perl never sees its name.
    (tmp_path / "touch PWNED|").write_text("line\n")
    command = sh(_with_value("perl -ne 'print' < §", "touch PWNED|"))
    for shell in SHELLS:
        done = subprocess.run([shell, "-c", command], cwd=tmp_path, capture_output=True)
        assert done.stdout == b"line\n"
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("written", ["command § §", "builtin § §", "command -p § §"])
def test_a_value_naming_what_command_or_builtin_runs_is_checked_like_a_command_name(
    written: str, tmp_path: pathlib.Path
) -> None:
    # `command {x} {y}` is `{x} {y}`: a value may not be eval (or another builtin reading code).
    hostile = T(*_with_fields(written).strings[:1], ("eval", "x"), " ", ("touch PWNED", "y"))
    with pytest.raises(RenderError, match="the command name 'eval', a builtin that reads"):
        sh(hostile)
    naive = f"{written.split('§')[0]}eval 'touch PWNED'"  # positive control: shlex.quote
    subprocess.run(["bash", "-c", naive], cwd=tmp_path, capture_output=True)
    assert (tmp_path / "PWNED").exists()
    assert sh(T(*_with_fields(written).strings[:1], ("echo", "x"), " ", ("y", "y"))).endswith(
        " echo y"
    )


def test_git_rebase_exec_and_clone_upload_pack_run_a_value_in_real_shells(
    tmp_path: pathlib.Path,
) -> None:
    # Positive control with real git: the naive rendering runs the payload, sh() refuses.
    git = ["git", "-c", "user.email=a@b", "-c", "user.name=a"]
    subprocess.run(["git", "init", "-q", "r"], cwd=tmp_path, check=True)
    for message in ("a", "b"):
        subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", message], cwd=tmp_path / "r")
    cases = [
        ("git -c user.email=a@b -c user.name=a rebase -q -x § HEAD~1", "touch ../PWNED"),
        ("git clone -q -u § . ../c", "touch ../PWNED; git-upload-pack"),
    ]
    for case, value in cases:
        with pytest.raises(RenderError, match="a command that git runs as code"):
            sh(_with_value(case, value))
        naive = case.replace("§", shlex.quote(value))
        subprocess.run(["dash", "-c", naive], cwd=tmp_path / "r", capture_output=True, timeout=20)
        assert (tmp_path / "PWNED").exists(), naive
        (tmp_path / "PWNED").unlink()


def test_second_pass_values_run_in_real_shells_with_naive_quoting(tmp_path: pathlib.Path) -> None:
    # Positive controls for the value-dependent refusals above: the naive rendering runs the
    # payload in dash and bash, sh() refuses the same template and value.
    payloads = [
        ("env § bash -c :", "BASH_ENV=$(touch PWNED)"),
        ("env -i § bash -c :", "BASH_ENV=$(touch PWNED)"),
        ("make -f /dev/null -- §", "MAKEFLAGS=--eval=$(shell touch PWNED)"),
        ("make -f /dev/null §", "--eval=$(shell touch PWNED)"),
        ("perl -M§ -e 1", "strict;system('touch PWNED')"),
        ("perl -e 'print @ARGV;' §", "-esystem('touch PWNED')"),
    ]
    for case, value in payloads:
        with pytest.raises(RenderError):
            sh(_with_value(case, value))
        for shell in SHELLS:
            where = tmp_path / f"{len(list(tmp_path.iterdir()))}"
            where.mkdir()
            naive = case.replace("§", shlex.quote(value))
            subprocess.run([shell, "-c", naive], cwd=where, capture_output=True, timeout=10)
            assert (where / "PWNED").exists(), (shell, naive)


# A value that becomes a shell variable (a for loop's, or set's positional parameters) reaches
# code through a later expansion: refused there, as a field would be.
VARIABLE_CODE_REFUSED = [
    'for f in §; do sh -c "$f"; done', 'for f in §; do eval "$f"; done', "for f in §; do $f; done",
    'set -- §; eval "$1"', 'set -- §; sh -c "$1"', 'for f in §; do python3 -c "$f"; done',
    'for f in §; do echo "$f" | sh; done', "for f in §; do ssh $f uptime; done",
    'for f in §; do env GIT_SSH_COMMAND="$f" git fetch; done', 'set §; "$1" x',
    'for f in §; do x=1; done; eval "$f"', 'for f in §; do echo "$(eval "$f")"; done',
]  # fmt: skip


@pytest.mark.parametrize("case", VARIABLE_CODE_REFUSED)
def test_a_value_reaching_code_through_a_shell_variable_is_refused(
    case: str, tmp_path: pathlib.Path
) -> None:
    with pytest.raises(RenderError, match=r"(shell variable|pipeline into).*code.*\. [A-Z]"):
        sh(_with_fields(case))


def test_a_value_through_a_shell_variable_runs_with_naive_quoting(tmp_path: pathlib.Path) -> None:
    cases = ('for f in §; do eval "$f"; done', 'set -- §; sh -c "$1"', "for f in §; do $f; done")
    for case in cases:
        for shell in SHELLS:
            naive = case.replace("§", shlex.quote("touch PWNED"))
            subprocess.run([shell, "-c", naive], cwd=tmp_path, capture_output=True, timeout=10)
            assert (tmp_path / "PWNED").exists(), (shell, naive)
            (tmp_path / "PWNED").unlink()


@pytest.mark.parametrize(
    ("case", "value"),
    [('for f in §; do cat -- "$f"; done | sort', "a b"), ('for h in §; do ssh "$h" ls; done', "h"),
     ("for f in §; do sh -c 'cat \"$1\"' sh \"$f\"; done", "x"), ('set -- §; printf %s "$1"', "x"),
     ('for f in §; do env "$f" --version; done', "ls"), ('for f in §; do echo "$f"; done', "$(x)")],
)  # fmt: skip
def test_a_shell_variable_used_as_data_is_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_with_value(case, value))


@pytest.mark.parametrize(
    ("case", "value"),
    [('for h in §; do ssh "$h" ls; done', "-oProxyCommand=x"),
     ('for f in §; do env "$f" bash; done', "BASH_ENV=x")],
)  # fmt: skip
def test_a_value_a_quoted_variable_hands_on_is_checked_as_a_field_there(
    case: str, value: str
) -> None:
    with pytest.raises(RenderError, match=r"would read it as an option|as NAME=value"):
        sh(_with_value(case, value))


def test_many_variables_and_expansions_stay_linear() -> None:
    # Each way an expansion uses the variables is checked once per variable, not per pair.
    body = 'ssh "$f" ls; echo "$f" | cat; ' * 3_000
    # (hosts: ssh's destination is a host, "h 1" is none since the sixteenth pass)
    rendered = sh(T("for f in ", (["h1", "h2.lan"], "hs", None, "*"), "; do " + body + "done"))
    assert rendered.startswith("for f in h1 h2.lan; do ssh")
    loops = "".join(f'for f in {{v{n}}}; do printf %s "$f"; done; ' for n in range(1_000))
    parts: list[object] = []
    for piece in loops.split("{")[1:]:
        name, _, rest = piece.partition("}")
        parts += [(name, name), rest]
    assert sh(T(loops.split("{")[0], *parts)).count("printf") == 1_000


# Third red-team pass: variables that container and sandbox tools set for the command they
# run, the command that sudo -s hands a shell, remote shells other than ssh, a command string's
# positional parameters where it puts them as code, awk and sed programs that run their data.
THIRD_PASS_REFUSED = [
    # an environment variable set for the command run (docker, systemd-run, bwrap: from their
    # documentation, as none can run here) or sent to the remote command (ssh SetEnv)
    "docker run -e § img true", "docker run --env=A=§ img true", "docker run -eA=§ img",
    "docker container run --rm -e § img", "docker exec -e A=§ c true", "podman run -e § img",
    "nerdctl create --env § img", "kubectl run p --image=i --env=A=§",
    "docker run --frob x img grep -e § f", "systemd-run -E § true", "systemd-run --setenv=A=§ t",
    "systemd-nspawn -E A=§ true", "bwrap --setenv A § true", "bwrap --setenv § x true",
    "firejail --env=A=§ true", "ssh -o SetEnv=§ h", "ssh -oSetEnv=A=§ h", "scp -o setenv=§ a b",
    # systemd-run's unit properties that are commands or variables, or named by a value
    "systemd-run -p ExecStartPre=§ true", "systemd-run -p Environment=A=§ t", "systemd-run -p §",
    "systemd-run --property=§ true",
    # a container's health check, run by /bin/sh -c
    "docker run --health-cmd § img", "podman run --health-cmd=§ img",
    # the command of sudo -s or -i, joined into a shell's -c string with $ unescaped
    "sudo -s echo §", "sudo -i ls §", "sudo -Es ls §", "sudo --login ls §", "sudo -u u -s §",
    "nice sudo -s ls §",
    # remote shells that run the words after the host as ssh does
    "rsh host §", "rsh -l u host ls §", "remsh host §", "slogin host §", "autossh -M 0 h §",
    # a command string that puts its positional parameters where code goes
    "sh -c 'eval \"$1\"' sh §", "bash -c 'eval \"$0\"' §", "sh -c '$1' sh §",
    "sh -c '\"$@\"' sh §", "bash -c 'f=$1; eval \"$f\"' _ §", "sh -c 'python3 -c \"$1\"' sh §",
    "sh -c 'echo \"$1\" | sh' sh §", "sh -c 'for a; do eval \"$a\"; done' sh §",
    "env sh -c 'eval \"$1\"' sh §", "strace sh -c 'eval \"$1\"' sh §",
    "sh -c 'cat <<EOF\n$1\nEOF' sh §", "echo § | xargs sh -c 'eval \"$1\"' sh",
    "for f in §; do sh -c 'eval \"$1\"' sh \"$f\"; done",
    # awk and sed programs written in the static text that run what they read
    "awk 'BEGIN{system(ARGV[1])}' §", "awk -v v=§ '{system(v)}'", "awk '{system($0)}' §",
    "awk '{system(\"echo \" $0)}' §", "awk '{print | $1}' §", "awk '{print | \"sh \" $1}' §",
    "awk '{$0 | getline}' §", "awk '{\"cmd \" $1 | getline x}' §", "gawk '{print |& $0}' §",
    "echo § | awk '{system($0)}'", "echo § | env awk '{system($0)}'", "awk '{system($0)}' < §",
    "echo § | sed e", "echo § | sed 's/.*/&/e'", "echo § | sed -n 's/x/y/gep'",
    "echo § | sed '1e date'", "echo § | sed ':a;e'", "echo § | sed --expression=e",
    "sed 's/.*/&/e' §", "sed -e 's/a/b/' -e e §", "sed -n -e 'e' -- §", "echo § | sed \"$s\"",
    "echo § | sed '/a/!{s/x/y/e}'", "echo § | sed 's/[/]/x/e'", "echo § | sed 's/\\//x/e'",
    "for f in §; do awk '{system($0)}' \"$f\"; done", "echo § | xargs awk '{system($0)}'",
]  # fmt: skip


@pytest.mark.parametrize("case", THIRD_PASS_REFUSED)
def test_third_pass_contexts_are_refused(case: str) -> None:
    template = _with_fields(case)
    with pytest.raises(RenderError, match=r"(code|commands?|NAME=value|\$name)\b.*\. [A-Z]"):
        sh(template)
    with pytest.raises(RenderError):  # (for the same reason, or for its shell syntax)
        argv(template)


THIRD_PASS_ACCEPTED = [
    ("docker run --rm img echo §", "A=$(x)"), ("docker run --rm img grep -e § f", "a=b"),
    ("docker run --rm -v a:/b -w /b img grep -e § f", "a"), ("docker exec -it c grep -e § f", "a"),
    ("docker run --env-file § img", "f"), ("docker run --name § img true", "n"),
    ("kubectl run p --image=i -- grep -e § f", "a"), ("docker exec c ls §", "d"),
    ("systemd-run -p MemoryMax=§ true", "1G"), ("systemd-run --unit § true", "u"),
    ("systemd-run -E A=1 ls §", "d"), ("bwrap --ro-bind § / true", "d"),
    ("ssh -o SendEnv=§ h", "LANG"), ("ssh -o ConnectTimeout=§ h", "5"), ("ssh § uptime", "h"),
    ("rsh § uptime", "h"),
    ("sudo -u root ls §", "$HOME"), ("sudo ls §", "$HOME"), ("sudo -s -u § ls", "u"),
    ("sh -c 'cat -- \"$1\"' sh §", "$(x)"), ("sh -c 'printf %s \"$1\"' sh §", "x; y"),
    ("bash -c 'f=$1; grep -e \"$f\" -- x' _ §", "x"), ("sh -c 'ssh -- \"$1\" ls' sh §", "h"),
    ("echo § | xargs sh -c 'echo \"$1\"' sh", "x"),
    ("awk '{print}' §", "f"), ("awk -F: '{print $1}' §", "f"), ("awk -v v=§ '{print v}'", "x"),
    ("awk '{print | \"sort\"}' §", "f"), ("awk '{ print $1 | \"sort -u\" }' §", "f"),
    ("awk 'BEGIN{system(\"date\")}' §", "x"), ("awk 'a || b' §", "f"),
    ("awk 'BEGIN{while ((\"ls\" | getline l) > 0) print l}' §", "x"),
    ("echo § | awk '{print $1}'", "x"), ("awk -f prog.awk §", "f"),
    ("sed -n '/x/p' §", "f"), ("sed -e 's/a/b/' -- §", "f"), ("echo § | sed 's/a/b/g'", "x"),
    ("echo § | sed -n '$!N; P; D'", "x"), ("sed 'y/abc/xyz/; 1~2d; /a/,/b/!d' §", "f"),
    ("sed 's/x/y/w /dev/stdout' §", "f"), ("sed 'a foo; e x' §", "f"), ("sed -f s.sed §", "f"),
    ("ls -l §", "d"), ("grep -e § §", "p"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "value"), THIRD_PASS_ACCEPTED)
def test_third_pass_look_alikes_are_accepted(case: str, value: str) -> None:
    assert shlex.quote(value) in sh(_with_value(case, value))


@pytest.mark.parametrize(
    ("case", "value"),
    [("sh -c 'ssh \"$1\" ls' sh §", "-oProxyCommand=x"), ("sh -c 'env \"$1\" bash' sh §", "A=b")],
)
def test_a_value_a_command_strings_parameter_hands_on_is_checked_as_a_field_there(
    case: str, value: str
) -> None:
    with pytest.raises(RenderError, match=r"would read it as an option|as NAME=value"):
        sh(_with_value(case, value))


@pytest.mark.skipif(not shutil.which("sudo"), reason="sudo is not installed")
def test_sudo_s_expands_a_dollar_in_a_value_with_naive_quoting(tmp_path: pathlib.Path) -> None:
    # Positive control: sudo -s hands its command to a shell with $ unescaped, so '$HOME'
    # arrives as the home directory, not as the value.
    naive = "sudo -n -s printf '%s\\n' " + shlex.quote("$HOME")
    done = subprocess.run(["dash", "-c", naive], cwd=tmp_path, capture_output=True, timeout=20)
    if done.returncode:
        pytest.skip(f"sudo -n -s does not run here: {done.stderr.decode()!r}")
    assert done.stdout.decode() != "$HOME\n"
    with pytest.raises(RenderError, match=r"sudo -s runs: .*\$name"):
        sh(_with_value("sudo -n -s printf '%s\\n' §", "$HOME"))


def test_sed_e_runs_a_file_operands_lines_with_naive_quoting(tmp_path: pathlib.Path) -> None:
    # Positive control: GNU sed's s///e flag runs each line it reads, from a file too.
    (tmp_path / "lines").write_text("touch PWNED\n")
    for shell in SHELLS:
        subprocess.run([shell, "-c", "sed 's/.*/&/e' lines"], cwd=tmp_path, capture_output=True)
        assert (tmp_path / "PWNED").exists()
        (tmp_path / "PWNED").unlink()
    with pytest.raises(RenderError, match="GNU sed's e command"):
        sh(_with_value("sed 's/.*/&/e' §", "lines"))


# A value written to a file (a redirection, tee) that a command of the same template runs or
# reads as code, in either order; a file read as data, or named by an expansion, is not seen.
FILE_RUN_REFUSED = [
    "echo § > s.sh; sh s.sh", "echo § > s.sh; . ./s.sh", "echo § >> s.sh; source s.sh",
    "echo § >s.sh && bash ./s.sh x", "echo § | tee s.sh; sh s.sh",
    "echo § | tee -a a s.sh; sh s.sh", "echo § > s.sh; chmod +x s.sh; ./s.sh",
    "echo § > s.sh; sh < s.sh", "echo § > s.py; python3 s.py",
    "echo § > mk; make -f mk", "echo § > p.awk; awk -f p.awk", "{ echo §; } > s.sh; sh s.sh",
    "while :; do sh s.sh; echo § > s.sh; done", "echo § > d/../s.sh; sh s.sh",
    "echo § > f; awk '{system($0)}' f", "echo § > f; sed e f", "cat § > s.sh; sh s.sh",
    "echo § > s.sh; cat <<EOF\nbody\nEOF\nsh s.sh",
]  # fmt: skip


@pytest.mark.parametrize("case", FILE_RUN_REFUSED)
def test_a_value_written_to_a_file_the_template_runs_is_refused(case: str) -> None:
    with pytest.raises(RenderError, match=r"written to the file '[\w./]+', (which|and) .*\. [A-Z]"):
        sh(_with_fields(case))


@pytest.mark.parametrize(
    "case",
    ["echo § > out.txt; cat out.txt", "echo § > out.txt; grep -e x out.txt", "echo § | tee log",
     "echo hi > s.sh; sh s.sh §", "echo § > s.sh; sh -c 'cat s.sh'", "sh s.sh > §",
     "echo § > o; cat o | sort"],
)  # fmt: skip
def test_a_file_written_and_read_as_data_is_accepted(case: str) -> None:
    assert "'value 0'" in sh(_with_fields(case))


def test_many_files_written_and_read_stay_linear() -> None:
    # Each file's readers are found by its name, not by a look at every command per file.
    body = "".join(f"echo {{v{n}}} > f{n}; cat f{n} a b c\n" for n in range(3_000))
    parts: list[object] = []
    for piece in body.split("{")[1:]:
        name, _, rest = piece.partition("}")
        parts += [(name, name), rest]
    assert sh(T(body.split("{")[0], *parts)).count("cat f") == 3_000


def _script_writing_files(count: int, reader: str, after: str = "") -> InterpolationTemplate:
    """``echo {vN} > fN.sh; READER fN.sh a b`` for each N below ``count``, then ``after``."""
    body = "".join(f"echo {{v{n}}} > f{n}.sh; {reader} f{n}.sh a b\n" for n in range(count))
    parts: list[object] = []
    for piece in (body + after).split("{")[1:]:
        name, _, rest = piece.partition("}")
        parts += [(name, name), rest]
    return T(body.split("{")[0], *parts)


@pytest.mark.parametrize("reader", ["cat", "grep -e x", "python3 -c 'print(1)'"])
def test_many_files_cost_each_a_look_at_their_own_readers(
    monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    # The work per written file, counted as the looks at a command or a path that may read
    # it: each file's readers are found by its name (3,000 files took 4 minutes when each
    # looked at every command).  Twice the files, twice the looks.
    from ipy_istring import _shell_grammar, _shell_programs

    looks = [0]

    def counted(function):  # type: ignore[no-untyped-def]
        def count(*args, **kwargs):  # type: ignore[no-untyped-def]
            looks[0] += 1
            return function(*args, **kwargs)

        return count

    may_be_the_file = _shell_grammar._may_be_the_file
    monkeypatch.setattr(_shell_grammar, "_may_be_the_file", counted(may_be_the_file))
    naming = _shell_programs.CodeNaming.naming
    monkeypatch.setattr(_shell_programs.CodeNaming, "naming", counted(naming))
    seen = []
    for count in (200, 400):
        looks[0] = 0
        assert sh(_script_writing_files(count, reader)).count(".sh a b") == count
        seen.append(looks[0])
    assert seen[1] <= 2.2 * seen[0], seen


@pytest.mark.parametrize(
    "runner",
    [
        "python3 -c 'exec(open(\"f150.sh\").read())'",  # code naming it
        "sqlite3 :memory: '.read f150.sh'",  # a database shell's command reading it
        "sh f150.sh",  # a script run
        "cat < f150.sh | sh",  # a reader's input, into a shell
    ],
)
def test_a_file_written_then_run_among_many_is_still_refused(runner: str) -> None:
    # What makes many files cheap (the files and commands found by name) still finds the one
    # command that runs a file, wherever it stands: only that file's field is refused.
    template = _script_writing_files(300, "cat", after=runner + "\n")
    with pytest.raises(RenderError, match=r"\{v150\}"):
        sh(template)
    assert sh(_script_writing_files(300, "cat", after="cat f150.sh\n")).count("cat f") == 301
@pytest.mark.timeout(60)  # (a guard against a hang: it takes milliseconds)
@pytest.mark.parametrize("before", ["curl http://127.0.0.1:8080/api/users/", "cp a /" + "b" * 2000])
def test_a_long_run_of_plain_text_before_a_field_is_lexed_at_once(before: str) -> None:
    # The word lexer's quick pattern backtracked through every split of the run of plain
    # characters that a field ended (2^n steps): sh() never returned for this URL.
    assert sh(T(before, ("42", "id"), "/avatar")) == f"{before}42/avatar"
