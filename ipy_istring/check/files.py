"""Which files the check reads, and how: walking folders with excludes, decoding sources.

Folders are walked for ``*.py`` and ``*.ipynb``, leaving out what a project does not own
(``.venv``, ``site-packages``, ``build``, VCS and cache folders) and what ``--exclude`` names,
with ``.gitignore``-style patterns matched against each part of the path and against the
whole relative path (``tests/data``, ``*_pb2.py``).  A file named on the command line is
always read.  Python files are decoded as Python does: a BOM or a coding cookie, else UTF-8.
"""

from __future__ import annotations

import io
import os
import re
import tokenize
from collections.abc import Callable, Iterable, Iterator
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

__all__ = ["DEFAULT_EXCLUDES", "SUFFIXES", "read_python", "walk"]

SUFFIXES = (".py", ".ipynb")
DEFAULT_EXCLUDES = (
    ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "build", "dist",
    "site-packages", "node_modules", ".ipynb_checkpoints", ".mypy_cache", ".ruff_cache",
    ".pytest_cache", ".eggs", "*.egg-info", "_build",
)  # fmt: skip


def _excluded(relative: PurePosixPath, patterns: Iterable[str]) -> bool:
    text = relative.as_posix()
    for pattern in patterns:
        pattern = pattern.strip("/")
        if "/" in pattern:
            if fnmatch(text, pattern) or fnmatch(text, pattern + "/*"):
                return True
        elif any(fnmatch(part, pattern) for part in relative.parts):
            return True
    return False


def walk(
    path: Path, excludes: Iterable[str] = (), onerror: Callable[[OSError], None] | None = None
) -> Iterator[Path]:
    """``path`` itself if it is a file, else the ``.py`` and ``.ipynb`` files under it, sorted,
    leaving out :data:`DEFAULT_EXCLUDES` and ``excludes``.  ``onerror`` is given the error of
    each folder that cannot be listed (else it is left out without a word)."""
    patterns = (*DEFAULT_EXCLUDES, *excludes)
    if not path.is_dir():
        yield path
        return
    found: list[Path] = []
    for folder, subfolders, files in os.walk(path, onerror=onerror):
        here = Path(folder)
        relative = PurePosixPath(here.relative_to(path).as_posix())
        subfolders[:] = [d for d in subfolders if not _excluded(relative / d, patterns)]
        found.extend(
            here / f
            for f in files
            if f.endswith(SUFFIXES) and not _excluded(relative / f, patterns)
        )
    yield from sorted(found)


def read_python(data: bytes) -> tuple[str, str]:
    """Decode a Python file as the interpreter would (BOM, coding cookie, else UTF-8): its
    text, and the encoding to write it back in.

    Raises ``ValueError`` saying why it cannot."""
    if b"\0" in data:
        raise ValueError("the file contains NUL bytes: not Python source")
    how = "declare its coding, e.g. # -*- coding: latin-1 -*-"
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except SyntaxError as error:  # undecodable first lines, or an unknown coding
        raise ValueError(f"{error.msg}: not UTF-8 text? {how}") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"not valid {encoding} text (byte {error.start}): {how}") from None
    except LookupError:  # (a codec of bytes, not of text: rot13, base64, zlib...)
        # (Python 3.14's detect_encoding decodes the cookie's own line with it already.)
        codec = _declared_coding(data)
        raise ValueError(f"encoding problem: {codec} is not a text encoding: {how}") from None
    # (detect_encoding says "utf-8-sig" for a BOM: decoding drops it, writing puts it back.)
    return text, encoding


def _declared_coding(data: bytes) -> str:
    """The codec a coding cookie in the first two lines of ``data`` names, as written."""
    for line in data.splitlines()[:2]:
        found = _CODING_COOKIE.match(line)
        if found is not None:
            return found.group(1).decode("ascii")
    return "?"


# PEP 263's coding cookie (tokenize's own pattern is a str one before 3.14, bytes after).
_CODING_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
