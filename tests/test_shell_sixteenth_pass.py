"""sh() and argv(): a value reaching a parsed argument indirectly (sixteenth pass).

Each was reproduced in real dash and bash, with a positive control (the template with each
value through plain ``shlex.quote``, which is also what sh() rendered before), then refused:

* A value reaching an argument its program parses further (``argument_rule``) through a pipe
  into ``read`` (``echo {x} | while read -r p; do kill "$p"; done`` with ``0`` stopped the
  shell's own process group; ``curl -d "$d"`` with ``@secret.env`` sent the file) or through
  ``xargs`` with ``--`` (``printf %s {x} | xargs kill --`` with ``0``): what ``read`` or xargs
  got is a line, or a part of one, of what the pipe brought, which no check sees.
* A value in a ``$( )`` in such an argument with text around it or unquoted (``curl
  "http://h/api/users/$(printf %s {id})/avatar"`` with ``{7,..}`` also fetched ``/api/avatar``;
  ``git rm -- $(echo {f})`` with ``x :/``), or through a filter after ``--`` (``kill --
  "$(echo {x} | tr a-j 0-9)"``): only a double-quoted ``$( )`` alone, printed by a command that
  copies the value, is checked as the argument.
* A ``for`` loop's or ``set --``'s variable in a curl URL with text around it (``for id in {x};
  do curl http://h/api/users/$id/avatar; done`` with ``{7,..}``): refused as every other
  parsed argument around a variable is.
"""

from __future__ import annotations

import contextlib
import pathlib
import shutil
import subprocess

import pytest
import test_shell_programs_pass
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template
from test_shell_programs_pass import _requests, _run, stops_own_group

from ipy_istring import _shell_grammar, _shell_programs
from ipy_istring._shell_programs import program
from ipy_istring.fields import RenderError
from ipy_istring.shell import sh
from ipy_istring.template import Interpolation, InterpolationTemplate

server = test_shell_programs_pass.server  # (its local HTTP server, a fixture)


def _refused(case: str, value: str, match: str) -> None:
    with pytest.raises(RenderError, match=match):
        sh(_template(case, value))


# -- kill: a pid through a pipe ---------------------------------------------------------------


PIPED_KILLS = [
    'echo § | while read -r v; do kill "$v"; done',
    'echo § | { read -r v; kill -- "$v"; }',
    'echo § | { v=$(cat); kill "$v"; }',
    "printf %s § | xargs kill --",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", PIPED_KILLS)
def test_a_pid_through_a_pipe_is_refused(shell: str, case: str, tmp_path: pathlib.Path) -> None:
    assert stops_own_group(shell, naive_sh(_template(case, "0")), tmp_path)
    message = "xargs kill" if "xargs" in case else r"stands in kill's process operand"
    _refused(case, "0", message)
    _refused(case, "4242", message)  # (whatever the value: the pipe's text is not checked)


def test_a_pid_in_a_quoted_substitution_is_checked_as_the_pid() -> None:
    victim = subprocess.Popen(["setsid", "sleep", "30"])
    for case in ('kill "$(printf %s §)"', "kill -- \"$(printf '%s\\n' §)\""):
        _refused(case, "0", "is a process id")
    subprocess.run(["sh", "-c", sh(_template('kill "$(printf %s §)"', victim.pid))], timeout=20)
    assert victim.wait(timeout=5) < 0  # the look-alike: that process only
    assert sh(_template('for p in §; do kill "$p"; done', "4242"))


# -- a value in a $( ) with other text of the argument, or through a filter --------------------

SUBSTITUTED = [
    # (template, value, message)
    ('curl -s "http://HOST/api/users/$(printf %s §)/avatar"', "{7,..}", r"in curl's URL"),
    ("curl -s http://HOST/api/users/$(echo §)/avatar", "{7,..}", r"in curl's URL"),
    ('kill -- "$(echo § | tr a-j 0-9)"', "a", r"stands in kill's .*whose text may not be"),
    ('kill -- "$(echo §)"', "\\00600", r"through echo, .*kill's process operand"),
]


@pytest.mark.parametrize(("case", "value", "match"), SUBSTITUTED)
def test_a_value_in_a_substitution_is_refused_unless_it_is_the_argument(
    case: str, value: str, match: str
) -> None:
    _refused(case.replace("HOST", "h.invalid"), value, match)


@pytest.mark.parametrize("shell", SHELLS)
def test_curl_expands_no_pattern_of_a_value_reached_indirectly(
    server: str, shell: str, tmp_path: pathlib.Path
) -> None:
    cases = [
        'curl -s "http://HOST/api/users/$(printf %s §)/avatar"',
        "for id in §; do curl -s http://HOST/api/users/$id/avatar; done",
        "set -- §; curl -s http://HOST/api/users/$1/avatar",
        'echo § | while read -r id; do curl -s "http://HOST/api/users/$id/avatar"; done',
    ]
    for case in cases:
        case = case.replace("HOST", server)
        seen = _requests(shell, naive_sh(_template(case, "{7,..}")), tmp_path)
        assert "/api/avatar" in [path for _, path, _, _ in seen], (case, seen)
        _refused(case, "{7,..}", r"curl's URL, an argument its program parses further")
        _refused(case, "42", r"curl's URL, an argument its program parses further")
    alike = f"curl -s http://{server}/api/users/§/avatar"  # (the field there: checked)
    seen = _requests(shell, sh(_template(alike, "42")), tmp_path)
    assert [path for _, path, _, _ in seen] == ["/api/users/42/avatar"]
    whole = "echo § | while read -r u; do curl -s \"$u\"; done"  # (a whole URL: the value's)
    seen = _requests(shell, sh(_template(whole, f"http://{server}/a")), tmp_path)
    assert [path for _, path, _, _ in seen] == ["/a"]


@pytest.mark.parametrize("shell", SHELLS)
def test_curl_reads_no_file_a_piped_value_names(
    server: str, shell: str, tmp_path: pathlib.Path
) -> None:
    (tmp_path / "secret.env").write_text("SECRET_TOKEN=abc123\n")
    case = f'echo § | while read -r d; do curl -s -d "$d" http://{server}/c; done'
    ((_, _, _, body),) = _requests(shell, naive_sh(_template(case, "@secret.env")), tmp_path)
    assert b"abc123" in body
    _refused(case, "@secret.env", r"stands in curl -d")
    alike = f"curl -s -d § http://{server}/c"
    ((_, _, _, body),) = _requests(shell, sh(_template(alike, "hello")), tmp_path)
    assert body == b"hello"


@pytest.mark.parametrize("shell", SHELLS)
def test_a_piped_or_filtered_file_name_is_no_pathspec(shell: str, tmp_path: pathlib.Path) -> None:
    env = {
        "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
    }  # fmt: skip
    cases = [
        ('echo § | while read -r f; do git rm -r -q -f -- "$f"; done', "*"),
        ('git rm -r -q -f -- "$(echo § | tr _ :)"', "_/"),
        ("git rm -r -q -f -- $(echo §)", "x.txt :/"),
    ]
    setup = "git init -q && echo a > a.txt && echo x > x.txt && git add . && git commit -qm a"
    alike = ('git rm -q -- "$(printf %s §)"', "x.txt")
    for number, (case, value) in enumerate([*cases, alike]):
        repo = tmp_path / f"r{number}"
        repo.mkdir()
        _run(shell, setup, repo, **env)
        if (case, value) == alike:  # the look-alike: that file only
            _run(shell, sh(_template(case, value)), repo, **env)
            assert (repo / "a.txt").exists() and not (repo / "x.txt").exists()
            continue
        _run(shell, naive_sh(_template(case, value)), repo, **env)
        assert not (repo / "a.txt").exists(), case  # every file removed
        _refused(case, value, "git rm's pathspec")




@pytest.mark.skipif(shutil.which("wget") is None, reason="wget is not installed")
@pytest.mark.parametrize("shell", SHELLS)
def test_a_value_reached_indirectly_stays_in_its_part_of_a_url(
    server: str, shell: str, tmp_path: pathlib.Path
) -> None:
    # wget has no argument rule: the URL's part is what the renderer judges (test_shell_urls)
    get = "wget -q -O /dev/null"
    cases = [
        f'{get} "http://HOST/api/users/$(printf %s §)/avatar"',
        f"for id in §; do {get} http://HOST/api/users/$id/avatar; done",
        f'echo § | while read -r id; do {get} "http://HOST/api/users/$id/avatar"; done',
    ]
    for case in cases:
        case = case.replace("HOST", server)
        seen = _requests(shell, naive_sh(_template(case, "../../admin")), tmp_path)
        assert [path for _, path, _, _ in seen] == ["/admin/avatar"], (case, seen)
        _refused(case, "../../admin", r"a part of a URL after the URL's own text")
    alike = f"{get} http://{server}/api/users/§/avatar"  # (the field there: checked)
    seen = _requests(shell, sh(_template(alike, "42")), tmp_path)
    assert [path for _, path, _, _ in seen] == ["/api/users/42/avatar"]
    _refused(alike, "../../admin", "to another path")
    for whole in (f'echo § | while read -r u; do {get} "$u"; done', f'{get} "$(printf %s §)"'):
        seen = _requests(shell, sh(_template(whole, f"http://{server}/b")), tmp_path)
        assert [path for _, path, _, _ in seen] == ["/b"]  # (a whole URL: the value's)

# -- the advice for programs that take no `--` ------------------------------------------------


@pytest.mark.parametrize(
    ("case", "value", "advice"),
    [
        ("kill -TERM §", "-1", "Check in Python that the value is a positive integer"),
        ("kill §", "-9", "Check in Python that the value is a positive integer"),
        ('kill "$(echo § | tr a b)"', "1", "Check in Python that the value is a positive"),
        ("sqlite3 § 'select 1'", "-cmd", r"sqlite3 \./\{db\}"),
        ("sqlite3 $(echo §) 'select 1'", "-init", r"sqlite3 \./\{db\}"),
    ],
)
def test_the_advice_for_a_program_that_takes_no_dashes(case: str, value: str, advice: str) -> None:
    with pytest.raises(RenderError, match=advice) as refused:
        sh(_template(case, value))
    assert "Write -- before" not in str(refused.value)


@pytest.mark.parametrize(
    ("command", "error"),
    [
        (["dash", "-c", "kill -TERM -- 4242424"], "Illegal number: -"),
        (["sqlite3", "--", ":memory:", "select 1"], "unknown option: -"),
    ],
)
def test_those_programs_refuse_dashes(command: list[str], error: str) -> None:
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    done = subprocess.run(command, capture_output=True, text=True, timeout=20, check=False)
    assert error in done.stderr


# -- many fields: linear ------------------------------------------------------------------------


def _words(count: int, before: str, after: str) -> InterpolationTemplate:
    """``echo`` and ``count`` fields, each with ``before`` and ``after`` (``echo "{v0}" ...``)."""
    parts: list[object] = ["echo"]
    for n in range(count):
        parts += [before, Interpolation(str(n), f"v{n}"), after]
    return InterpolationTemplate(*parts)  # type: ignore[arg-type]


@pytest.mark.parametrize(("before", "after"), [(' "', '"'), (" x ", "")])
def test_many_words_take_program_calls_linear_in_their_number(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each word was checked with a program() call per written word before it: n² calls
    # (4,000 fields in double quotes took about a minute before their refusal).
    calls = 0

    def counted(word: str) -> str:
        nonlocal calls
        calls += 1
        return program(word)

    monkeypatch.setattr(_shell_programs, "program", counted)
    monkeypatch.setattr(_shell_grammar, "program", counted)
    counts = []
    for count in (1_000, 4_000):
        calls = 0
        with contextlib.suppress(RenderError):  # (a field in double quotes is refused)
            sh(_words(count, before, after))
        counts.append(calls)
    assert counts[1] < 5 * counts[0], counts  # (n²: 16 times as many)
