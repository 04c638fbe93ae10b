"""Whether a value stays in the part of a URL the template puts it in.

``html(i'<img src="/api/users/{id}/avatar">')`` means one user's avatar; with ``id =
"../../admin/delete?x="`` the browser requests ``/admin/delete?x=/avatar`` instead (client-side
path traversal: a GET with the user's cookies to any path of the site), ``?q={q}`` with ``q =
"a&admin=1"`` adds a parameter, ``https://{sub}.example.com/`` with ``sub = "evil.com/?"`` links
to another site, ``mailto:{to}`` with ``to = "a@b.c?bcc=d@e.f"`` adds a recipient.  The URL is
judged as the browser reads it, by ada (a WHATWG URL parser): the template's URL with the field
replaced by a plain word, and with the value, must have the same parts but the one the field is
in, and there the same host labels, path segments or query parameters around it.  A value may
still choose what its part holds: a whole host after a fixed scheme (``https://{host}/``), the
path's last segments (``/files/{path}``), the whole query (``?{query}``) or fragment.

Three readers go further than the URL standard, and are followed too: a fragment with a ``/``
or ``?`` before the field is a single-page app's route, which its router reads as a path and
query (``#/users/{id}``, ``#!/users/{id}``, ``#users/{id}`` keep their segments); a query's
parameters are also split at ``;`` (Ruby's Rack before 3, Python's ``parse_qs`` before 3.9.2);
and a ``mailto:`` address list is split at commas (and semicolons), percent-decoded
(``mailto:{to}`` stays one recipient).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from urllib.parse import unquote

import ada_url

__all__ = ["FIX", "part_refusal", "saved_name"]

#: The fix a refusal offers.
FIX = (
    "Check the value against the values allowed (a path segment may not be '.' or '..' nor "
    "hold '/' or '\\', even percent-encoded: some readers decode them first), and quote it "
    "for its part of the URL (urllib.parse.quote(value, safe='') for a query value)"
)

# A page's URL, against which a relative URL is read (a notebook's, say).
_BASE = "https://notebook.invalid/lab/tree/page"
# What stands for the field: letters, which every part of a URL keeps as they are, or digits
# for a port.
_MARKS = ("ipyistringfieldmark", "54321")
_PARTS = ("protocol", "username", "password", "hostname", "port", "pathname", "search", "hash")
# What the URL parser drops first: leading and trailing C0 controls and spaces.
_URL_CONTROLS = "".join(map(chr, range(0x21)))
# A single-page app's route in a fragment (`#/users/42`, `#!/users/42`, `#users/42`,
# `#search?q=a`: a `/` or `?` before the field), read by its router as a path and query
# against the page: here against a site of its own.
_ROUTE_MARKS = re.compile(r"[/?]")
_ROUTE_BASE = "https://route.invalid/"
# A mailto: URL's path is a list of recipients split at commas, which the mail app
# percent-decodes first (RFC 6068), and so are these headers of its query.
_RECIPIENT_HEADERS = frozenset({"to", "cc", "bcc"})


# A URL's parts, as ada reads them (one call into ada for all of them).
_Parts = dict[str, str]


def _parse(url: str, base: str = _BASE) -> _Parts | None:
    """``url``'s parts, read against ``base``; None when it is no URL."""
    try:
        return ada_url.parse_url(ada_url.join_url(base, url), attributes=_PARTS)  # type: ignore[return-value]
    except ValueError:
        return None


# The template's URL with the field marked, read on every render of it: kept (read only).
_parse_marked = lru_cache(maxsize=256)(_parse)


def _around(marked: str, real: str, mark: str, separator: str, whole_may_grow: bool) -> bool:
    """Whether ``real`` has ``marked``'s items (split at ``separator``) but where the mark is:
    the items before the mark's unchanged, the mark's item begun and ended by the text around
    the mark, and the items after it unchanged — or, when the mark's item is the last and
    ``whole_may_grow``, more items there."""
    items, got = marked.split(separator), real.split(separator)
    at = next((n for n, item in enumerate(items) if mark in item), None)
    if at is None:
        # (the mark is gone: a decoded path's ../ written after it climbed over its segment,
        # /{x}/..%2F; this raised StopIteration before the render pass)
        return False
    before, _, after = items[at].partition(mark)
    if got[:at] != items[:at] or len(got) <= at or not got[at].startswith(before):
        return False
    if len(got) == len(items) and got[at + 1 :] == items[at + 1 :]:
        return got[at].endswith(after)
    return whole_may_grow and at == len(items) - 1 and got[-1].endswith(after)


def _query_around(marked: str, real: str, mark: str) -> bool:
    """``_around`` for a query: its parameters split at ``&`` (and ``;``), and in the mark's
    parameter ``name=value`` the side without the mark unchanged (a value may not hold ``=``
    before the template's own, nor a name add one)."""
    # (Some servers split parameters at `;` too: both are separators here.)
    marked, real = (q.removeprefix("?").replace(";", "&") for q in (marked, real))
    if marked == mark:
        return True  # `?{query}`: the value is the whole query
    if not _around(marked, real, mark, "&", whole_may_grow=False):
        return False
    items, got = marked.split("&"), real.split("&")
    at = next(n for n, item in enumerate(items) if mark in item)
    name, equals, value = items[at].partition("=")
    got_name, got_equals, got_value = got[at].partition("=")
    if mark in name:
        return got_equals == equals and got_value == value
    return got_name == name and got_equals == equals


def part_refusal(pieces: Sequence[str | int], values: Sequence[str]) -> tuple[int, str] | None:
    """The first field of a URL (``pieces``: its static text and field indexes, in order;
    ``values``: each field's text) whose value leaves the part of the URL it stands in, and
    how; None if none does.

    Each field is judged by a parse of the URL with it marked (:func:`_field_refusal`), but
    those whose values are plain words in the path, query or fragment, told for all of them
    at once by two parses (:func:`_plainly_placed`): a URL with thousands of fields costs
    two parses of it, not one per field (the render pass)."""
    checked: list[int] = []
    written = False  # (static text before the field, other than controls and spaces)
    for field in pieces:
        if isinstance(field, str):
            written = written or bool(field.strip(_URL_CONTROLS))
        elif written:
            checked.append(field)
        # else: the value is the whole URL's start (its scheme is checked)
    plain = _plainly_placed(pieces, values, checked) if len(checked) > 1 else set()
    for field in checked:
        if field in plain:
            continue
        why = _field_refusal(pieces, values, field)
        if why is not None:
            return field, why
    return None


# A value made of these characters (not only dots) is a plain word wherever it stands in a
# URL's path, query or fragment: the parser copies it as it is (no percent-encoding, no case
# change), no separator of any reader is among them (/ ? # & = ; , @ % \ and spaces), and a
# segment holding one is no dot segment.
_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.~-]+")
_PLAIN_PARTS = frozenset(("pathname", "search", "hash"))


def _plainly_placed(
    pieces: Sequence[str | int], values: Sequence[str], checked: list[int]
) -> set[int]:
    """The fields of ``checked`` that :func:`_field_refusal` would accept, told at once: each
    value a plain word (:data:`_PLAIN_VALUE`, no ``%`` in the two characters before it, which
    it could complete into an escape), and the URL with every such field marked (each its own
    mark, the same length), read by the parser, is the URL with the values read by it with
    each mark replaced by its value, the marks all in the path, query or fragment.  Then each
    value is text in its place that nothing around it reads otherwise, as a mark is: the parse
    with one field marked, which ``_field_refusal`` compares, differs from the URL's only by
    that text.  Anything else (an empty set) leaves every field to ``_field_refusal``."""
    texts = [piece if isinstance(piece, str) else values[piece] for piece in pieces]
    if any(_MARKS[0] in text.lower() for text in texts):
        return set()
    real = "".join(texts)
    starts: dict[int, int] = {}
    offset = 0
    for piece, text in zip(pieces, texts):
        if isinstance(piece, int):
            starts.setdefault(piece, offset)
        offset += len(text)
    candidates = [
        field
        for field in checked
        if _PLAIN_VALUE.fullmatch(values[field])
        and values[field].strip(".")
        and "%" not in real[max(starts[field] - 2, 0) : starts[field]]
    ]
    if not candidates:
        return set()
    width = 1
    while 26**width < len(candidates):
        width += 1
    marks = {field: _MARKS[0] + _letters(n, width) for n, field in enumerate(candidates)}
    marked_url = _parse(
        "".join(
            marks.get(piece, text) if isinstance(piece, int) else text
            for piece, text in zip(pieces, texts)
        )
    )
    real_url = _parse(real)
    if marked_url is None or real_url is None:
        return set()
    found = re.compile(re.escape(_MARKS[0]) + f"[a-z]{{{width}}}")
    by_mark = {mark: values[field] for field, mark in marks.items()}
    seen = _marks_in_place(marked_url, real_url, found, by_mark)
    if seen is None or sorted(seen) != sorted(marks.values()):
        return set()  # (a mark dropped, or a field that stands twice)
    return set(candidates)


def _marks_in_place(
    marked: _Parts, real: _Parts, found: re.Pattern[str], by_mark: dict[str, str]
) -> list[str] | None:
    """The marks in ``marked`` if it is ``real`` with each value replaced by its mark, the
    marks all in the path, query or fragment, as ``_field_refusal``'s readers read them too
    (the path decoded, a fragment as a route); else None."""

    def filled(text: str) -> str:
        return found.sub(lambda match: by_mark.get(match.group(), match.group()), text)

    seen: list[str] = []
    for part in _PARTS:
        here = found.findall(marked[part])
        if here and part not in _PLAIN_PARTS:
            return None
        if filled(marked[part]) != real[part]:
            return None
        seen += here
    # (the path as a reader that decodes it reads it: each mark still there, in its place)
    decoded = _decoded_path(marked["pathname"])
    if sorted(found.findall(decoded)) != sorted(found.findall(marked["pathname"])):
        return None
    if filled(decoded) != _decoded_path(real["pathname"]):
        return None
    if found.search(marked["hash"]):
        routes = _parse_route(marked["hash"]), _parse_route(real["hash"])
        if routes[0] is None or routes[1] is None:
            return None
        in_route = _marks_in_place(routes[0], routes[1], found, by_mark)
        if in_route is None or sorted(in_route) != sorted(found.findall(marked["hash"])):
            return None
    return seen


def _letters(number: int, width: int) -> str:
    """``number`` in base 26 written with the letters a-z, ``width`` letters long."""
    letters = []
    for _ in range(width):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("a") + digit))
    return "".join(reversed(letters))


def saved_name(pieces: Sequence[str | int], values: Sequence[str]) -> str | None:
    """The file name a download (``<a href="/files/{p}" download>``) is saved under when the
    browser takes it from the URL, its last path segment decoded, if a value gives any of it;
    else None (the template's own name, a data: URL's, or none)."""

    def last_segment(fill: Sequence[str]) -> str | None:
        url = _parse("".join(p if isinstance(p, str) else fill[p] for p in pieces))
        if url is None or url["protocol"] == "data:":
            return None
        # (Chromium cuts the name at its first ';', a path parameter, before decoding it:
        # 'report.html;.csv' is saved as report.html.)
        return unquote(url["pathname"].rpartition("/")[2].partition(";")[0])

    marked = last_segment([_MARKS[0]] * len(values))
    if marked is None or _MARKS[0] not in marked:
        return None  # (no value gives any of the name)
    name = last_segment(values)
    if name is None:
        return None  # (a data: URL: its type is checked)
    # (An empty name, 'report.html/' say, is named by the response's type: download.html.)
    return name or "download"


def _field_refusal(
    pieces: Sequence[str | int], values: Sequence[str], field: int
) -> str | None:
    def spelled(mark: str | None) -> str:
        return "".join(
            piece if isinstance(piece, str)
            else mark if mark is not None and piece == field
            else values[piece]
            for piece in pieces
        )  # fmt: skip

    real = _parse(spelled(None))
    for mark in _MARKS:  # (a port takes only digits)
        marked = _parse_marked(spelled(mark))
        part = None if marked is None else _part_of(marked, mark)
        if part is not None:
            break
    if marked is None or part is None or part == "protocol":
        return None  # (no URL the template means, or the value chooses the scheme: checked)
    if marked["protocol"] == "data:":
        return None  # (a data: URL's body is data; its type is checked)
    if real is None:
        # (A browser might still read one: refused, as what it would read is not known.)
        return f"text that is no URL by the WHATWG standard, with the value in its {_NAMES[part]}"
    why = _parts_refusal(marked, real, mark, part)
    if why is None and part == "hash" and _ROUTE_MARKS.search(marked["hash"].partition(mark)[0]):
        why = _route_refusal(marked["hash"], real["hash"], mark)
    return why


def _part_of(url: _Parts, mark: str) -> str | None:
    return next((p for p in _PARTS if mark in url[p]), None)


def _parts_refusal(marked: _Parts, real: _Parts, mark: str, part: str) -> str | None:
    """How ``real`` (the URL with the value) leaves ``part``, where ``marked`` (with the
    field as a plain word) has the mark; None if it keeps to it."""
    changed = [p for p in _PARTS if p != part and real[p] != marked[p]]
    if changed:
        return (
            f"URL whose {_NAMES[changed[0]]} changes: the value stands in its {_NAMES[part]} "
            "and reaches past it"
        )
    mine, theirs = marked[part], real[part]
    if part == "hostname" and mine != mark and not _around(mine, theirs, mark, ".", False):
        return "URL whose host the value gives labels of its own"
    if part == "pathname" and not all(
        _around(m, t, mark, "/", whole_may_grow=True)
        for m, t in ((mine, theirs), (_decoded_path(mine), _decoded_path(theirs)))
    ):
        return "URL whose path the value changes around its segment"
    if part == "search" and not _query_around(mine, theirs, mark):
        return "URL whose query the value gives parameters of its own"
    if marked["protocol"] == "mailto:" and not _recipients_around(mine, theirs, mark, part):
        return "URL whose list of recipients the value adds to"
    return None


def _decoded_path(path: str) -> str:
    """``path`` as a reader that percent-decodes it before it resolves it reads it:
    JupyterLab's URL resolver (an output's ``src="avatars/{id}.png"`` with ``..%2F..%2Fsecret``
    fetched /files/secret.png), and servers that decode ``%2F`` or read ``\\`` as ``/``."""
    segments: list[str] = []
    for segment in unquote(path).replace("\\", "/").split("/"):
        if segment == "..":
            if len(segments) > 1:  # (the root stays)
                segments.pop()
        elif segment != ".":
            segments.append(segment)
    return "/".join(segments)


def _route_refusal(mine: str, theirs: str, mark: str) -> str | None:
    """:func:`_parts_refusal` for a fragment that is a route (``#/users/{id}``), read as the
    router reads it: a path and query (``../`` climbs, ``//`` names a host, ``&`` adds a
    parameter)."""
    route = [_parse_route(fragment) for fragment in (mine, theirs)]
    marked, real = route
    part = None if marked is None else _part_of(marked, mark)
    if marked is None or part is None:
        return None  # (the fragment is no route the template means)
    if real is None:
        return "fragment that is a route (#/…) and no URL by the WHATWG standard"
    why = _parts_refusal(marked, real, mark, part)
    return None if why is None else f"{why} in the route its fragment holds (#/…)"


def _parse_route(fragment: str) -> _Parts | None:
    route = fragment.removeprefix("#").removeprefix("!")
    # (`#users/42` is the route `/users/42`, as `"/api/" + route` fetches it)
    return _parse(route if route.startswith("/") else "/" + route, _ROUTE_BASE)


def _recipients_around(mine: str, theirs: str, mark: str, part: str) -> bool:
    """Whether a ``mailto:`` URL's list of recipients (its path, or a ``to``,
    ``cc`` or ``bcc`` header) that holds the mark keeps its addresses, the mark's one."""
    if part == "search":  # (the parameters are the same: _query_around)
        at = next(n for n, item in enumerate(mine.split("&")) if mark in item)
        header, _, mine = mine.removeprefix("?").split("&")[at].partition("=")
        if unquote(header).lower() not in _RECIPIENT_HEADERS:
            return True
        theirs = theirs.removeprefix("?").split("&")[at].partition("=")[2]
    elif part != "pathname":
        return True
    # (Mail apps split at `;` too, as Outlook's address lists do.)
    mine, theirs = (unquote(text).replace(";", ",") for text in (mine, theirs))
    return _around(mine, theirs, mark, ",", whole_may_grow=False)


_NAMES = {
    "protocol": "scheme",
    "username": "user name",
    "password": "password",
    "hostname": "host",
    "port": "port",
    "pathname": "path",
    "search": "query",
    "hash": "fragment",
}
