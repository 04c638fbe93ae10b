"""sh(): hostile contexts and over-refusals of the twenty-eighth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* tar's snapshot file, ``-g`` (``--listed-incremental``), which it writes with the names of the
  directories it archives and of their entries, each ended by a NUL: ``tar -cf out.tar -g {f}
  arch; sh run.sh`` (and ``--listed-incremental={f}``) with ``run.sh`` ran the line that a
  file of arch named a newline and ``touch ...`` put in it; so did ``-g run.sh {d}`` with
  ``arch``.  (A file already there that is no snapshot makes tar stop.)  ``-g`` joins tar's
  output options, in every mode.
* tar's long options abbreviated, which GNU tar reads as the option they begin: ``--listed={f}``
  as ``--listed-incremental``, ``--index=s.sh`` as the twenty-seventh pass's ``--index-file``
  (``tar -tf {a} --index=s.sh; sh s.sh`` ran an archive member's name), ``--extr`` as
  ``--extract`` (``tar --extr -f {a}; sh s.sh`` ran the archive's s.sh).  tar's long options
  that write a file or choose a mode that does are now read in full (``--list`` stays itself).
* Extractors the allow-list did not know, each of which wrote the archive's s.sh (making the
  sentinel) over the directory's before ``sh s.sh`` ran it: ``ar x {a}``, ``jar xf {a}``,
  ``python3 -m zipfile -e {a} .`` and ``python3 -m tarfile -e {a}`` (a module Python runs is
  read as that program); refused by their manuals too, not installed here: ``bsdtar``, ``7z``,
  ``cpio`` (also ``cpio -i < {a}``) and ``uudecode``, which writes the file its input names.
* Decompressors, which write the file their operand names less its suffix: ``gzip -df {f}``,
  ``gunzip -f``, ``unxz -f``, ``bunzip2 -f``, ``zstd -df``, ``python3 -m gzip -d`` with
  ``s.sh.gz`` (and the like) wrote payload's line to s.sh, which ``sh s.sh`` ran.  Decompressing
  to the standard output, testing or listing stays accepted (``gzip -dc {f}``, ``xz -l``).

Over-refusals, now accepted (their renders run in dash and bash, with marker values, make no
sentinel and leave s.sh as it was):

* ``unzip -l {a}; sh s.sh`` (and ``-t``, ``-p {a} s.sh``, ``-c``, ``-v``, ``-Z``, ``-ol``):
  with any of -l, -v, -t, -p, -c before the archive unzip lists, tests or prints the members
  and writes none (an archive ``evil.zip`` whose s.sh makes the sentinel: ``unzip -o {a}; sh
  s.sh``, the positive control, ran it).  Only where those letters are surely options: not
  after a letter taking an argument (``-dl``, ``-d . -l``), not after the archive, not with a
  word that may negate one (``--l``, ``-l-l``).
* ``git restore ./{f}``: a value after a static ``./`` is a path as a value alone is (the
  twenty-seventh pass's ``git restore {f}``): restored from the index, no hook ran.

Looked at, and held (no change): tar's ``-T {f}`` reads names, and a line of it like
``--checkpoint-action=exec=...`` or ``--to-command=...`` is an unrecognized option there, not
run; ``--volno-file={f}`` writes a number only.  tar's options that run a program the value
names (``--to-command``, ``--checkpoint-action=exec=``, ``--use-compress-program``, ``-I``,
``--rsh-command``, ``--info-script``, ``-F``, ``--new-volume-script``) were refused already.
bash's variable names and arithmetic (``printf -v {x}``, ``read {x}``, ``declare``, ``export``,
``local``, ``unset``, ``[[ -v ]]``, ``test -v``, ``${!x}``, ``$(( {n} ))``, ``let``, ``(( ))``,
``getopts``, ``mapfile``, ``wait -n -p``, ``declare -i n; n={v}``) were all refused already;
the builtins still accepted with a number (``test {n} -eq 1``, ``shift``, ``exit``, ``ulimit``,
``printf %d``, ``caller``, ``umask``, ``kill -s``, ``fg``, ``jobs``) read no arithmetic: run with
``a[$(touch ...)]`` and the like in dash and bash, none made the sentinel.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import pathlib
import subprocess
import zipfile

import pytest
from test_shell_contexts import SHELLS
from test_shell_twentieth_pass import _run, _template
from test_shell_twenty_fourth_pass import _prepare_husky
from test_shell_twenty_second_pass import SENTINEL, _accepted_and_run, _show_then_refuse
from test_shell_twenty_seventh_pass import _prepare_archives

from ipy_istring.fields import RenderError
from ipy_istring.shell import sh

_WRITES = "written to the file|in a command writing"
_PAYLOAD = f"touch {SENTINEL}\n".encode()


def _prepare_extractors(where: pathlib.Path) -> None:
    """The twenty-seventh pass's files, and archives whose s.sh makes the sentinel
    (``evil.zip``, ``evil.jar``, ``evil.a``), payload compressed as ``s.sh.gz``, ``s.sh.xz``,
    ``s.sh.bz2`` and ``s.sh.zst``, and ``opts``, a list of names for tar -T whose lines are
    options that would run a command."""
    _prepare_archives(where)
    for name in ("evil.zip", "evil.jar"):
        with zipfile.ZipFile(where / name, "w") as archive:
            archive.writestr("s.sh", _PAYLOAD)
    subprocess.run(["ar", "rc", "../evil.a", "s.sh"], cwd=where / "sub", check=True)
    (where / "s.sh.gz").write_bytes(gzip.compress(_PAYLOAD))
    (where / "s.sh.xz").write_bytes(lzma.compress(_PAYLOAD))
    (where / "s.sh.bz2").write_bytes(bz2.compress(_PAYLOAD))
    subprocess.run(["zstd", "-q", "payload", "-o", "s.sh.zst"], cwd=where, check=True)
    run = f"touch {SENTINEL}"
    (where / "opts").write_text(
        f"--checkpoint=1\n--checkpoint-action=exec={run}\n--to-command={run}\n"
        f"--use-compress-program={run}\np2\n"
    )


# -- tar's snapshot file, and its long options abbreviated -----------------------------------

TAR_CASES = [
    # (template, the value)
    ("tar -cf out.tar -g § arch; sh run.sh", "run.sh"),
    ("tar -cf out.tar --listed-incremental=§ arch; sh run.sh", "run.sh"),
    ("tar -cf out.tar --listed=§ arch; sh run.sh", "run.sh"),
    ("tar -cf out.tar -g run.sh §; sh run.sh", "arch"),
    ("tar -tf § --index=s.sh; sh s.sh", "names.tar"),
    ("tar --extr -f §; sh s.sh", "evil.tar"),
]


@pytest.mark.parametrize(
    "case",
    [
        "tar -cg § -f out.tar arch; sh s.sh",
        "tar cgf § out.tar arch; sh s.sh",
        "tar -cf out.tar -g§ arch; sh s.sh",
        "tar -cf out.tar --listed-inc § arch; sh s.sh",
        "tar -xf evil.tar -g §; sh s.sh",
        "tar -cf out.tar --index=§ arch; sh s.sh",
    ],
)
def test_other_spellings_of_tars_snapshot_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=_WRITES):
        sh(_template(case, "s.sh"))


@pytest.mark.parametrize(
    "case",
    [
        "tar -cf out.tar --to-command=§ arch",
        "tar -xf a.tar --to-command §",
        "tar -cf out.tar --checkpoint=1 --checkpoint-action=exec=§ arch",
        "tar -cf out.tar --use-compress-program=§ arch",
        "tar -cf out.tar -I § arch",
        "tar -cf out.tar -I§ arch",
        "tar -cf host:out.tar --rsh-command=§ arch",
        "tar -cf out.tar --info-script=§ arch",
        "tar -cf out.tar -F § arch",
        "tar -cf out.tar --new-volume-script=§ arch",
    ],
)
def test_tars_options_running_a_program_stay_refused(case: str) -> None:
    with pytest.raises(RenderError, match="command string of tar"):
        sh(_template(case, f"touch {SENTINEL}"))


@pytest.mark.parametrize(
    "case, value",
    [
        ("tar -cf out.tar -T §; sh s.sh", "opts"),
        ("tar -cf out.tar --volno-file=§ p2; sh s.sh", "s.sh"),
        ("tar --list -f §; sh s.sh", "evil.tar"),
        ("tar -cf out.tar -g snap §", "arch"),
    ],
)
@pytest.mark.parametrize("shell", SHELLS)
def test_tar_reading_names_or_writing_a_number_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (-T: the lines of opts that look like options are no options there; none ran)
    _accepted_and_run(shell, case, [value], tmp_path, _prepare_extractors)


# -- extractors and decompressors --------------------------------------------------------------

EXTRACTING_CASES = [
    # (template, the value)
    ("ar x §; sh s.sh", "evil.a"),
    ("jar xf §; sh s.sh", "evil.jar"),
    ("python3 -m zipfile -e § .; sh s.sh", "evil.zip"),
    ("python3 -m tarfile -e §; sh s.sh", "evil.tar"),
    ("gzip -df §; sh s.sh", "s.sh.gz"),
    ("gunzip -f §; sh s.sh", "s.sh.gz"),
    ("python3 -m gzip -d §; sh s.sh", "s.sh.gz"),
    ("unxz -f §; sh s.sh", "s.sh.xz"),
    ("xz -dkf §; sh s.sh", "s.sh.xz"),
    ("bunzip2 -f §; sh s.sh", "s.sh.bz2"),
    ("zstd -qdf §; sh s.sh", "s.sh.zst"),
]


@pytest.mark.parametrize("case, value", TAR_CASES + EXTRACTING_CASES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_file_written_from_an_archive_then_run_is_refused(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (tar -g: the snapshot holds arch's file named a newline and a line making the sentinel)
    _show_then_refuse(shell, case, [value], tmp_path, _WRITES, _prepare_extractors)


@pytest.mark.parametrize(
    "case",
    [
        "bsdtar -xf §; sh s.sh",
        "bsdtar xf §; sh s.sh",
        "7z x §; sh s.sh",
        "cpio -i < §; sh s.sh",
        "cpio -i -F §; sh s.sh",
        "uudecode §; sh s.sh",
        "lz4 -d §; sh s.sh",
        "zstd -dc §; sh s.sh",  # (zstd takes an output name too: -c is not read)
        "gzip -d -Sc §; sh s.sh",  # (-S's argument c, no -c)
        "sudo gunzip §; sh s.sh",
        "python3 -m zipfile --extract § .; sh s.sh",
    ],
)
def test_other_extractors_are_refused(case: str) -> None:
    with pytest.raises(RenderError, match=_WRITES):
        sh(_template(case, "evil.tar"))


# -- unzip's modes that write no file ----------------------------------------------------------

UNZIP_READING = [
    "unzip -l §; sh s.sh",
    "unzip -t §; sh s.sh",
    "unzip -qt §; sh s.sh",
    "unzip -p § s.sh; sh s.sh",
    "unzip -c § s.sh; sh s.sh",
    "unzip -v §; sh s.sh",
    "unzip -lv §; sh s.sh",
    "unzip -ol §; sh s.sh",
    "unzip -l § -d .; sh s.sh",
    "unzip -Z §; sh s.sh",
    "unzip -Z1 §; sh s.sh",
    # (and the decompressors' modes that write no file)
    "gzip -dc § > out; sh s.sh",
    "gzip -t §; sh s.sh",
    "xz -l §; sh s.sh",
    "python3 -m zipfile -l §; sh s.sh",
]


@pytest.mark.parametrize("case", UNZIP_READING)
@pytest.mark.parametrize("value", ["evil.zip", "s.sh.gz", "$(touch pwned-by-22)"])
@pytest.mark.parametrize("shell", SHELLS)
def test_listing_testing_or_printing_an_archive_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (`unzip -o {a}; sh s.sh` ran evil.zip's s.sh: the positive control, below)
    _prepare_extractors(tmp_path)
    done = _run(shell, sh(_template(case, value)), tmp_path)
    assert not any(tmp_path.rglob(SENTINEL)), done.stderr
    assert (tmp_path / "s.sh").read_text() == "echo harmless\n", done.stdout


@pytest.mark.parametrize("case", ["unzip -o §; sh s.sh", "unzip -o -q § s.sh; sh s.sh"])
@pytest.mark.parametrize("shell", SHELLS)
def test_unzip_extracting_stays_refused(shell: str, case: str, tmp_path: pathlib.Path) -> None:
    _show_then_refuse(shell, case, ["evil.zip"], tmp_path, _WRITES, _prepare_extractors)


@pytest.mark.parametrize(
    "case",
    [
        "unzip §; sh s.sh",
        "unzip -d . -l §; sh s.sh",
        "unzip -dl §; sh s.sh",
        "unzip -l --l §; sh s.sh",
        "unzip -l-l §; sh s.sh",
        "unzip § -l; sh s.sh",
        "unzip -x -l §; sh s.sh",
        "unzip -o -Z §; sh s.sh",
        "unzip -l§; sh s.sh",
        "unzip -p § > s.sh; sh s.sh",
        "unzip -p § | sh",
    ],
)
def test_unzip_not_surely_listing_stays_refused(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "evil.zip"))


# -- git restore ./{f} -------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["git restore ./§", "git restore --staged --worktree ./§"])
@pytest.mark.parametrize("value", ["s.sh", "$(touch pwned-by-22)"])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_path_after_dot_slash_git_restore_restores_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (s.sh changed in the husky repository's tree: restored to main's; no hook of evil ran)
    _prepare_husky(tmp_path)
    (tmp_path / "s.sh").write_text("echo changed\n")
    done = _run(shell, sh(_template(case, value)), tmp_path)
    assert not any(tmp_path.rglob(SENTINEL))
    if value == "s.sh":
        assert done.returncode == 0, done.stderr
        assert (tmp_path / "s.sh").read_text() == "echo harmless\n"


@pytest.mark.parametrize(
    "case",
    [
        "git restore -s ./§",
        "git restore --source ./§ .husky",
        "git restore --source=./§ .husky",
        "git restore ./§x",
        "git restore .//§",
        "git restore ./§/s.sh",
        "git restore x§",
        "git restore ./§; sh s.sh",
    ],
)
def test_git_restore_with_a_value_not_surely_a_path_stays_refused(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "evil"))


# -- bash's variable names and arithmetic --------------------------------------------------------

_ARITHMETIC_VALUES = [
    "a[$(touch pwned-by-22)]",
    "x[$(touch pwned-by-22)]+1",
    "$(touch pwned-by-22)",
]


@pytest.mark.parametrize(
    "case",
    [
        "printf -v § %s y", "read §", "read -a §", "declare §=1", "declare -n r=§", "export §",
        "local §", "readonly §", "unset §", "unset -v §", "[[ -v § ]]", "test -v §",
        "[ -v § ]", "echo ${!§}", 'echo "$(( § + 1 ))"', "let §", "let x=§", "(( § ))",
        "getopts ab §", "mapfile -t §", "readarray §", "wait -n -p §", "[[ § -eq 1 ]]",
        "echo ${x:§}", "x[§]=1", "echo ${a[§]}", "declare -i n; n=§", "declare -i n=§",
        "n=§; echo $((n))", "n=§; [[ n -eq 1 ]]", "set -- §; echo ${!1}",
        'n=§; printf -v "$n" %s y', 'n=§; read "$n" <<< y', "read -r n <<< §; echo $((n))",
    ],
)  # fmt: skip
def test_a_value_bash_reads_as_a_name_or_arithmetic_stays_refused(case: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, "a[$(touch pwned-by-22)]"))


@pytest.mark.parametrize(
    "case",
    [
        "test § -eq 1", "[ 1 -gt § ]", "shift §", "exit §", "ulimit §", "kill -s § 0",
        "printf '%d' §", "caller §", "umask §", "jobs §", "fg §", "expr § + 1",
    ],
)  # fmt: skip
@pytest.mark.parametrize("value", _ARITHMETIC_VALUES)
@pytest.mark.parametrize("shell", SHELLS)
def test_a_number_bash_reads_without_arithmetic_is_accepted(
    shell: str, case: str, value: str, tmp_path: pathlib.Path
) -> None:
    # (bash: `a=(1 2); [[ 'a[$(touch M)]' -eq 1 ]]` made M, refused above)
    _run(shell, "a=1; x=1; " + sh(_template(case, value)), tmp_path)
    assert not any(tmp_path.rglob(SENTINEL))
