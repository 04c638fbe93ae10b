"""sh() and argv(): hostile contexts of the eighteenth pass.

Each hole was reproduced with the old render (each value through ``shlex.quote``, which is what
sh() gave for these templates) in real dash and bash, then refused by allow-list:

* A file of Ghostscript (``gs -o {out} in.ps``, ``gs -sOutputFile={out} in.ps``, ``gs -o
  out.pdf {in}``, ``ps2pdf {in} {out}``, ``pdf2ps in.pdf {out}``): Ghostscript 10 opens a file
  name starting with ``%pipe%`` or ``|`` with ``popen()``, as a shell command, for its output
  *and* its input, -dSAFER (its default) or not; ``%pipe%touch f`` ran touch in every case,
  also through a loop's variable and a command string's parameter.  An operand starting with
  ``@`` is a file of more options (``-sOutputFile=%pipe%…`` in it ran).  And the words after
  ``-c`` are PostScript code up to the next option: with ``-dNOSAFER`` a value there ran a
  command through PostScript's ``file``.
"""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess

import pytest
from conftest import require
from test_shell_contexts import SHELLS, naive_sh
from test_shell_fourth_pass import _template
from test_shell_seventeenth_pass import _Listener

from ipy_istring.fields import RenderError
from ipy_istring.shell import argv, sh

SENTINEL = "pwned-by-gs"
_GS = "gs -q -dBATCH -dNOPAUSE -sDEVICE=pdfwrite"
_RUN = f"%pipe%touch {SENTINEL}"

GS_CASES = [
    # (template with § for the field, value, what the refusal names)
    (f"{_GS} -o § in.ps", _RUN, "gs -o"),
    (f"{_GS} -o § in.ps", f"|touch {SENTINEL}", "gs -o"),
    (f"{_GS} -sOutputFile=§ in.ps", _RUN, "gs -sOutputFile="),
    (f"{_GS} -sOutputFile=§ in.ps", f"|touch {SENTINEL}", "gs -sOutputFile="),
    (f"{_GS} '-sOutputFile=%pipe%cat > '§ in.ps", f"x; touch {SENTINEL}", "gs -sOutputFile="),
    (f"{_GS} -o out.pdf §", _RUN, "a file of gs"),  # (an input file)
    (f"{_GS} -o out.pdf -- §", _RUN, "a file of gs"),
    (f"{_GS} -o out.pdf §", "@args.txt", "a file of gs"),  # (a file of options)
    ("ps2pdf in.ps §", _RUN, "a file of ps2pdf"),
    ("ps2pdf § out.pdf", _RUN, "a file of ps2pdf"),
    ("ps2pdf -dPDFSETTINGS=/ebook in.ps §", f"|touch {SENTINEL}", "a file of ps2pdf"),
    ("pdf2ps in.pdf §", f"|touch {SENTINEL}", "a file of pdf2ps"),
    ("/usr/bin/gs -q -dBATCH -dNOPAUSE -sDEVICE=nullpage §", _RUN, "a file of gs"),
    ('for f in §; do ps2pdf "$f" out.pdf; done', _RUN, "a file of ps2pdf"),
    ('set -- §; ps2pdf in.ps "$1"', _RUN, "a file of ps2pdf"),
    ("sh -c 'ps2pdf in.ps \"$1\"' sh §", f"|touch {SENTINEL}", "a file of ps2pdf"),
    (
        "gs -q -dNOSAFER -dBATCH -dNOPAUSE -sDEVICE=nullpage -c '(hi) pop' §",
        f"({_RUN}) (w) file closefile",
        "gs -c's PostScript code",
    ),
]


def _gs_place(where: pathlib.Path) -> None:
    require(shutil.which("gs") is not None, "Ghostscript (gs) is not installed")
    (where / "in.ps").write_text("%!PS\nshowpage\n")
    (where / "args.txt").write_text(f"-sOutputFile=%pipe%touch${{IFS}}{SENTINEL}\n")
    subprocess.run(["ps2pdf", "in.ps", "in.pdf"], cwd=where, check=True, timeout=60)


def _run(shell: str, command: str, where: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [shell, "-c", command], cwd=where, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case, value, where", GS_CASES)
def test_a_file_name_ghostscript_runs_as_a_command_is_refused(
    shell: str, case: str, value: str, where: str, tmp_path: pathlib.Path
) -> None:
    _gs_place(tmp_path)
    # Positive control: the old render (shlex.quote of the value; sh() gave it before) made
    # Ghostscript run the value's command.
    _run(shell, naive_sh(_template(case, value)), tmp_path)
    assert (tmp_path / SENTINEL).exists(), case
    with pytest.raises(RenderError, match=f"stands in {where}.*(Ghostscript|PostScript)"):
        sh(_template(case, value))


@pytest.mark.parametrize(
    "case",
    [
        f"{_GS} -o § in.ps",
        f"{_GS} -o out.pdf §",
        "ps2pdf in.ps §",
        "pdf2ps in.pdf §",
        f"{_GS} -sOutputFile=§ in.ps",
    ],
)
def test_argv_refuses_them_too(case: str) -> None:
    """argv() runs no shell, but Ghostscript does: the file name is refused there too."""
    with pytest.raises(RenderError, match="Ghostscript"):
        argv(_template(case, _RUN))


@pytest.mark.parametrize(
    "case, value",
    [
        ("gs -o § in.ps", "%stdout"),  # (one of its devices: not a file)
        ("gs -o § in.ps", "%os%out.pdf"),
        ("gs -sOutputFile=§ in.ps", "|lpr"),
        ("ps2pdf in.ps §", "|lpr"),
        ("gs -o out.pdf §", "@more-options.txt"),
        ('sh -c \'for f; do ps2pdf "$f"; done\' sh §', "%pipe%x"),
        ("gs -q -c § -f in.ps", "quit"),  # (-c's first word: a code option, refused before)
        ("gs -q -c quit § -f in.ps", "quit"),
    ],
)
def test_other_spellings_are_refused(case: str, value: str) -> None:
    with pytest.raises(RenderError):
        sh(_template(case, value))


GS_FILES = [
    # (template, value, the file it writes)
    (f"{_GS} -o § in.ps", "out.pdf", "out.pdf"),
    (f"{_GS} -o § in.ps", "rapport été 2024.pdf", "rapport été 2024.pdf"),
    (f"{_GS} -o ./§ in.ps", "|out.pdf", "|out.pdf"),  # (a file whose name starts with '|')
    (f"{_GS} -o ./§ in.ps", "%%pipe%%x.pdf", "%pipe%x.pdf"),  # ('%%' is gs's '%')
    (f"{_GS} -sOutputFile=out/§ in.ps", "|x.pdf", "out/|x.pdf"),
    (f"{_GS} -o §-%03d.pdf in.ps", "page", "page-001.pdf"),  # (gs's own page number)
    (f"{_GS} -o out.pdf §", "a@b|c%d.ps", "out.pdf"),
    ("ps2pdf § out.pdf", "in.ps", "out.pdf"),
    ("ps2pdf in.ps §", "out.pdf", "out.pdf"),
    ("ps2pdf -dPDFSETTINGS=§ in.ps out.pdf", "/ebook", "out.pdf"),
    (f"{_GS} -dFirstPage=§ -o out.pdf in.pdf", "1", "out.pdf"),
    ('for f in §; do ps2pdf "$f" out.pdf; done', "in.ps", "out.pdf"),
    (f"{_GS} -o out.pdf -- in.ps §", _RUN, "out.pdf"),  # (after -- FILE: strings)
]


@pytest.mark.parametrize("example", GS_FILES, ids=lambda example: " ".join(example[:2]))
def test_ghostscript_files_stay_accepted(
    example: tuple[str, str, str], tmp_path: pathlib.Path
) -> None:
    """A file's name, wherever the value stands: gs writes the file, in dash and bash."""
    case, value, written = example
    command = sh(_template(case, value))
    for shell in SHELLS:
        where = tmp_path / pathlib.Path(shell).name
        where.mkdir()
        _gs_place(where)
        (where / "out").mkdir()
        if value.endswith(".ps") and value != "in.ps":
            shutil.copy(where / "in.ps", where / value)
        done = _run(shell, command, where)
        assert done.returncode == 0, done.stderr
        assert (where / written).read_bytes().startswith(b"%PDF"), (shell, case)
        assert not (where / SENTINEL).exists()


# -- gawk's network files ----------------------------------------------------------------------
#
# gawk (the awk here, and of many systems) reads a name starting with /inet/, /inet4/ or /inet6/
# as a network connection, /inet/tcp/LPORT/HOST/PORT (io.c's inetfile()), also as a file operand
# of the command line: `awk '{print}' {f}` with /inet/tcp/0/127.0.0.1/PORT connected to a
# listener and printed what it sent, where the template means a file (as bash's /dev/tcp in a
# redirection, the seventeenth pass).  mawk opens the path.

AWK_SOCKET_CASES = [
    "awk '{print}' §",
    "gawk 'NR == 1' §",
    "awk -F, '{print $1}' §",
    "awk -- '{print}' §",
    "awk '{print}' /§",
    "awk '{print}' data.csv §",
    'for f in §; do awk \'{print}\' "$f"; done',
    "sh -c 'awk \"{print}\" \"$1\"' sh §",
]


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("case", AWK_SOCKET_CASES)
def test_a_file_operand_gawk_opens_as_a_connection_is_refused(
    shell: str, case: str, tmp_path: pathlib.Path
) -> None:
    require(shutil.which("gawk") is not None, "gawk is not installed")
    (tmp_path / "data.csv").write_text("a,b\n")
    listener = _Listener()
    name = f"tcp/0/127.0.0.1/{listener.port}"
    value = ("inet/" if "/§" in case else "/inet/") + name
    try:
        # Positive control: the old render made awk (gawk) connect and print what it read.
        gawk = re.sub(r"\bawk ", "gawk ", case)  # (awk may be mawk elsewhere)
        done = _run(shell, naive_sh(_template(gawk, value)), tmp_path)
    finally:
        listener.close()
    assert listener.connected, case
    assert "remote" in done.stdout, (case, done.stdout)
    with pytest.raises(RenderError, match=r"operand, and makes the file name start with /inet/"):
        sh(_template(case, value))


def test_mawk_opens_the_path() -> None:
    """Why this is gawk's reading of the name: mawk fails to open a file so named."""
    require(shutil.which("mawk") is not None, "mawk is not installed")
    done = subprocess.run(
        ["mawk", "{print}", "/inet/tcp/0/127.0.0.1/9"], capture_output=True, text=True,
        timeout=20, check=False,
    )  # fmt: skip
    assert done.returncode != 0 and "/inet/tcp" in done.stderr


@pytest.mark.parametrize(
    "case, value",
    [
        ("awk '{print}' §", "data.csv"),
        ("awk '{print}' §", "./inet/tcp/0/127.0.0.1/9"),  # (a relative path)
        ("awk '{print}' §", "/tmp/inet/tcp/x"),
        ("awk '{print}' §", "/inetd.conf"),
        ("awk '{print}' data/§", "/inet/tcp/0/127.0.0.1/9"),
        ("awk -v f=§ '{print f}' data.csv", "/inet/tcp/0/127.0.0.1/9"),  # (a string)
        ("awk 'BEGIN { print ARGV[1] }' §", "/inet/tcp/0/127.0.0.1/9"),  # (no file read)
    ],
)
def test_awk_files_stay_accepted(case: str, value: str) -> None:
    sh(_template(case, value))


def test_a_connection_the_text_names_stays_accepted(tmp_path: pathlib.Path) -> None:
    """``awk '{print}' /inet/tcp/0/{host}/PORT``: the author wrote the connection."""
    require(shutil.which("gawk") is not None, "gawk is not installed")
    listener = _Listener()
    try:
        command = sh(_template(f"gawk '{{print}}' /inet/tcp/0/§/{listener.port}", "127.0.0.1"))
        done = _run("/usr/bin/dash", command, tmp_path)
    finally:
        listener.close()
    assert listener.connected and "remote" in done.stdout
