"""sh(): hostile contexts of the twenty-first pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A file a value names, written by a program's output option and run by a later command of
  the same template: ``curl -o {f} {url}; sh s.sh`` with ``s.sh`` ran what the URL served;
  so did ``wget -O {f}``, ``sort -o {f} x``, the glued ``-o{f}`` and ``-sSo {f}``, and ``dd
  of={f}`` (or ``dd {x}`` with ``of=s.sh``).  The twentieth pass recorded a target a value
  names only for ``>`` and ``tee``; recording these refused ``curl -o {out} {url}`` alone,
  because curl counted as the reader of its own ``~/.curlrc``.  Now such a write is tied to
  its command, and only the commands after it count as readers (all of them, and the
  writer's program, when a command may run after a later one or again: a loop, a trap, a
  pipe, ``&``, a runner such as xargs in front of the writer, or a command before it whose
  program is not known to wait for what it runs: ``setsid -f sh -c 'sleep 1; sh s.sh'; cp a
  {f}`` ran s.sh after the copy, and so would ``tmux new -d``, ``screen -dm``, ``at``).
* A copy's destination named by a value: ``cp a {f}; sh s.sh`` (also ``mv``, ``install``,
  ``ln -s``, ``rsync``, ``cp … -t {d}``, and ``Makefile`` before ``make``) ran the file a value
  chose to put there.  A file's contents are not the template's text (``echo hello > {f}``
  stays accepted), so the destination's field is refused too.
* A directory a value names, that a program writes files into: ``tar -xf a.tar -C {d}; sh
  s.sh`` and ``unzip a.zip -d {d}`` with ``.`` put the archive's s.sh where ``sh s.sh`` ran it.
* A file a value names, written by a program of unknown kind: ``./process {x} > {f}; sh s.sh``
  ran the value (the twentieth pass left it, for the same reason as curl's).
* A value naming the source of files a program writes under their own names: ``cp {src} .;
  sh s.sh`` with ``sub/s.sh`` (also ``mv``, ``rsync``), ``tar -xf {a}`` and ``tar xf``,
  ``unzip {z}``, ``git clone {url} d; sh d/s.sh`` (or ``make -C d``), ``curl -O {url}`` and
  ``wget {url}`` (the URL's last part names the file) each put a file the value chose where a
  later command ran it; ``cp {src} s.sh; sh s.sh`` was refused already, by the written name.

Accepted, and run: ``curl -o {out} {url}``, ``wget -O``, ``sort -o {f} x``, ``cp a {f}`` and
``./process {x} > {f}`` alone, or with a reader of data after them (``cat s.sh``), or with the
script run before them in a straight line (``sh s.sh; cp a {f}``).
"""

from __future__ import annotations

import functools
import http.server
import pathlib
import subprocess
import tarfile
import threading
import zipfile
from collections.abc import Iterator

import pytest
from test_shell_contexts import SHELLS, naive_sh
from test_shell_twentieth_pass import _run, _template

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

SENTINEL = "pwned-by-21"
_TOUCH = f"touch {SENTINEL}"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a local HTTP server whose ``payload`` is a script making the sentinel."""
    root = tmp_path_factory.mktemp("www")
    (root / "payload").write_text(_TOUCH + "\n")
    (root / "run.sh").write_text(_TOUCH + "\n")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _prepare(where: pathlib.Path) -> None:
    """The files the cases name: a data file ``payload`` and a Makefile-shaped ``rules``
    (each would make the sentinel if run), an archive and a zip holding such an ``s.sh``, a
    ``sub/s.sh`` to copy, a harmless ``s.sh``, and ``./process``, which prints its argument."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "home").mkdir(exist_ok=True)
    (where / "payload").write_text(_TOUCH + "\n")
    (where / "rules").write_text(f"all:;@{_TOUCH}\n")
    (where / "sub").mkdir(exist_ok=True)
    (where / "sub" / "s.sh").write_text(_TOUCH + "\n")
    with tarfile.open(where / "a.tar", "w") as archive:
        archive.add(where / "sub" / "s.sh", arcname="s.sh")
    with zipfile.ZipFile(where / "a.zip", "w") as archive:
        archive.write(where / "sub" / "s.sh", arcname="s.sh")
    (where / "s.sh").write_text("echo harmless\n")
    process = where / "process"
    process.write_text('#!/bin/sh\nprintf "%s\\n" "$1"\n')
    process.chmod(0o755)


def _repository(where: pathlib.Path) -> None:
    """A git repository ``repo`` in ``where`` whose s.sh and Makefile would make the sentinel."""
    repo = where / "repo"
    repo.mkdir()
    (repo / "s.sh").write_text(_TOUCH + "\n")
    (repo / "Makefile").write_text(f"all:;@{_TOUCH}\n")
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    for command in (["init", "-q"], ["add", "."], [*identity, "commit", "-qm", "scripts"]):
        subprocess.run(["git", *command], cwd=repo, check=True, capture_output=True)


def _values(values: tuple[str, ...], where: pathlib.Path, served: str) -> list[str]:
    return [v.replace("{tmp}", str(where)).replace("{http}", served) for v in values]


def _ran(shell: str, command: str, where: pathlib.Path) -> bool:
    """Whether ``command`` made the sentinel file in ``where`` (or a directory below)."""
    _run(shell, command, where)
    return any(where.rglob(SENTINEL))


# -- a file or directory a value names, written by a program, run by a later command -----------

OUTPUT_CASES = [
    # (template, the values...)
    ("curl -s -o § §; sh s.sh", "s.sh", "file://{tmp}/payload"),
    ("curl -s -o§ §; sh s.sh", "s.sh", "file://{tmp}/payload"),
    ("curl -sSo § §; sh s.sh", "s.sh", "file://{tmp}/payload"),
    ("wget -q -O § §; sh s.sh", "s.sh", "{http}/payload"),
    ("sort -o § payload; sh s.sh", "s.sh"),
    ("sort -o§ payload; sh s.sh", "s.sh"),
    ("dd if=payload of=§ 2>/dev/null; sh s.sh", "s.sh"),
    ("dd if=payload § 2>/dev/null; sh s.sh", "of=s.sh"),
    ("cp payload §; sh s.sh", "s.sh"),
    ("cp § §; sh s.sh", "payload", "s.sh"),
    ("mv payload §; sh s.sh", "s.sh"),
    ("install -m 644 payload §; sh s.sh", "s.sh"),
    ("ln -sf payload §; sh s.sh", "s.sh"),
    ("rsync payload §; sh s.sh", "s.sh"),
    ("cp sub/s.sh -t §; sh s.sh", "."),
    ("install payload §; ./s.sh", "s.sh"),
    ("cp rules §; make -s", "Makefile"),
    ("tar -xf a.tar -C §; sh s.sh", "."),
    ("unzip -q -o a.zip -d §; sh s.sh", "."),
    ("./process § > §; sh s.sh", _TOUCH, "s.sh"),
    # (a source whose files it writes under their own names)
    ("cp § .; sh s.sh", "sub/s.sh"),
    ("mv § .; sh s.sh", "sub/s.sh"),
    ("rsync -a § .; sh s.sh", "sub/s.sh"),
    ("tar -xf §; sh s.sh", "a.tar"),
    ("tar xf §; sh s.sh", "a.tar"),
    ("unzip -q -o §; sh s.sh", "a.zip"),
    ("git clone -q § d; sh d/s.sh", "{tmp}/repo"),
    ("git clone -q § d && make -s -C d", "{tmp}/repo"),
    ("curl -sO §; sh s.sh", "file://{tmp}/sub/s.sh"),
    ("wget -q §; sh run.sh", "{http}/run.sh"),
    # (a command may run again: a loop, a trap, a runner in front of the writer)
    ("for i in 1 2; do sh s.sh; cp payload §; done", "s.sh"),
    ("trap 'sh s.sh' EXIT; cp payload §", "s.sh"),
    ("echo payload | xargs -I{} cp {} §; sh s.sh", "s.sh"),
    # (or at once: a background job, a pipe)
    ("(sleep 1; sh s.sh) & cp payload §; wait", "s.sh"),
    ("{ sleep 1; sh s.sh; } | cp payload §", "s.sh"),
    # (or after a program that does not wait for what it runs: setsid -f detaches it)
    ("setsid -f sh -c 'sleep 1; sh s.sh'; cp payload §; sleep 2", "s.sh"),
    ("sh -c '(sleep 1; sh s.sh) &'; cp payload §; sleep 2", "s.sh"),
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("example", OUTPUT_CASES, ids=lambda e: " ".join(e))
def test_a_file_a_value_names_written_by_a_program_then_run_is_refused(
    shell: str, example: tuple[str, ...], tmp_path: pathlib.Path, served: str
) -> None:
    case, *values = example
    _prepare(tmp_path)
    if "{tmp}/repo" in values:
        _repository(tmp_path)
    given = _values(tuple(values), tmp_path, served)
    # Positive control: the old render wrote the file and a later command ran it.
    assert _ran(shell, naive_sh(_template(case, *given)), tmp_path), case
    with pytest.raises(RenderError, match="in a command writing a file a value names"):
        sh(_template(case, *given))


ACCEPTED_CASES = [
    # (template, the values, the file it writes)
    ("curl -s -o § §", ["out.txt", "file://{tmp}/payload"], "out.txt"),
    ("wget -q -O § §", ["out.txt", "{http}/payload"], "out.txt"),
    ("sort -o § payload", ["out.txt"], "out.txt"),
    ("cp payload §", ["out.txt"], "out.txt"),
    ("cp payload §; cat s.sh", ["out.txt"], "out.txt"),
    ("tar -xf a.tar -C §", ["sub"], "sub/s.sh"),
    ("./process § > §", ["hello", "out.txt"], "out.txt"),
    ("curl -s -o § §; cat §", ["out.txt", "file://{tmp}/payload", "out.txt"], "out.txt"),
    # (in a straight line, a script run before the write is no reader of it)
    ("sh s.sh; cp payload §", ["out.txt"], "out.txt"),
    ("sh s.sh; curl -s -o § §", ["out.txt", "file://{tmp}/payload"], "out.txt"),
    ("tar -xf §; ls", ["a.tar"], "s.sh"),
    ("cp § backup.txt", ["payload"], "backup.txt"),
    ("curl -sO §", ["file://{tmp}/sub/s.sh"], "s.sh"),
    ("unzip -q -o § -d out", ["a.zip"], "out/s.sh"),
]


@pytest.mark.parametrize(
    "case",
    [
        "tmux new-session -d 'sleep 1; sh s.sh'; cp payload §",
        "screen -dm sh s.sh; cp payload §",
        "at now -f s.sh; cp payload §",
        "systemd-run --on-active=5 sh s.sh; cp payload §",
        "python3 -c 'import subprocess; subprocess.Popen([\"sh\", \"s.sh\"])'; cp payload §",
    ],
)
def test_a_reader_started_before_the_write_by_a_program_that_does_not_wait_counts(
    case: str,
) -> None:
    # (by their manuals: each starts the command and returns; tmux's run was reproduced)
    with pytest.raises(RenderError, match="in a command writing a file a value names"):
        sh(_template(case, "s.sh"))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, values, written", ACCEPTED_CASES)
def test_a_program_writing_a_file_a_value_names_stays_accepted(
    shell: str,
    case: str,
    values: list[str],
    written: str,
    tmp_path: pathlib.Path,
    served: str,
) -> None:
    _prepare(tmp_path)
    command = sh(_template(case, *_values(tuple(values), tmp_path, served)))
    done = _run(shell, command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / written).exists()
    assert not (tmp_path / SENTINEL).exists()


def test_many_writes_a_value_names_take_few_looks_for_their_readers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Each write is checked against the commands after it by a binary search over the
    # writes' positions: 1,000 writes before a reader took 290 s at one look per write.
    from ipy_istring import _shell_grammar

    looks = [0]
    file_reader = _shell_grammar._Lexer.file_reader

    def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        looks[0] += 1
        return file_reader(self, *args, **kwargs)

    monkeypatch.setattr(_shell_grammar._Lexer, "file_reader", counted)
    seen = []
    for count in (100, 200):
        looks[0] = 0
        with pytest.raises(RenderError, match="in a command writing a file a value names"):
            sh(_template("cp a §; cat b\n" * count + "sh s.sh", "out"))
        seen.append(looks[0])
    assert seen[1] <= seen[0] + 4, seen  # (two names per look, one more halving)
