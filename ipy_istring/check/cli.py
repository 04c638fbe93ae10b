"""``python -m ipy_istring.check`` / ``ipy-istring-check``: the command line."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TextIO

from .files import walk
from .report import FORMATS, render
from .scan import FileResult, _reason, check_file

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ipy-istring-check",
        description="Find strings formatted before they reach a shell or SQL (f-strings, %, "
        ".format(), +) in Python files and notebooks. Exit status: 0 nothing found, 1 findings, "
        "2 something could not be checked.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, notebooks or folders")
    parser.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="PATTERN",
        help="leave out paths matching this .gitignore-style pattern (repeatable); .venv, "
        "site-packages, build and the like are always left out of folders",
    )
    parser.add_argument("--format", choices=FORMATS, default="text", help="output format")
    fixing = parser.add_mutually_exclusive_group()
    fixing.add_argument(
        "--diff", action="store_true", help="print the safe fixes as a unified diff"
    )
    fixing.add_argument("--fix", action="store_true", help="apply the safe fixes in place")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Check paths; print the report; 0 clean, 1 findings, 2 something could not be checked."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments:
        print("usage: python -m ipy_istring.check FILE.py|NOTEBOOK.ipynb|DIR ...", file=sys.stderr)
        return 2
    args = _parser().parse_args(arguments)
    with warnings.catch_warnings():
        # What Python says of the code it parses (`invalid escape sequence '\\d'`) is for who
        # runs it: here it came out as '<unknown>:3: SyntaxWarning', naming no file.
        warnings.simplefilter("ignore", SyntaxWarning)
        return _run(args)


def _write(stream: TextIO, text: str) -> None:
    """``text`` to ``stream``, whose encoding may not hold all of it (a file name that is not
    UTF-8, an emoji in a diff, written to an ASCII or cp1252 stream): what it cannot encode
    as backslash escapes."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = stream.encoding or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _unlisted(error: OSError) -> FileResult:
    """What a folder that cannot be listed gives (its files are not checked)."""
    name, reason = str(error.filename), error.strerror or str(error)
    line = f"{name}: cannot check: the folder cannot be listed ({reason})"
    return FileResult(name, errors=[line])


def _identity(path: Path) -> object:
    """What one file is, whatever the path names it by (``./a.py`` and ``a.py``, a symlink,
    a hard link): its device and inode, else its resolved path."""
    try:
        found = path.stat()
    except OSError:
        return os.path.realpath(path)
    return (found.st_dev, found.st_ino)


def _once(paths: Iterable[Path], seen: set[object]) -> Iterator[Path]:
    """``paths`` but a file met before (``seen``: their identities), by any name."""
    for path in paths:
        identity = _identity(path)
        if identity not in seen:
            seen.add(identity)
            yield path


def _run(args: argparse.Namespace) -> int:
    results: list[FileResult] = []
    seen: set[object] = set()  # (each file is checked once, by the first name given for it)
    for name in args.paths:
        path = Path(name)
        try:
            path.stat()
        except OSError as error:  # (no such file, a name too long, a loop of symlinks...)
            reason = "no such file" if isinstance(error, FileNotFoundError) else _reason(error)
            if name in seen:
                continue  # (said once)
            seen.add(name)
            results.append(FileResult(name, errors=[f"{name}: cannot check: {reason}"]))
            continue
        unlisted: list[OSError] = []  # (folders that cannot be listed: their files unchecked)
        files = _once(walk(path, args.exclude, unlisted.append), seen)
        results.extend(check_file(file) for file in files)
        results.extend(_unlisted(error) for error in unlisted)
    if args.diff or args.fix:
        from .fix import apply_fixes

        out, err, unfixed = apply_fixes(results, write=args.fix)
        _write(sys.stdout, out)
        _write(sys.stderr, err)
        if any(r.errors for r in results):
            return 2
        return 1 if unfixed else 0
    out, err = render(results, args.format)
    _write(sys.stdout, out)
    _write(sys.stderr, err)
    if any(result.errors for result in results):
        return 2
    return 1 if any(result.findings for result in results) else 0
