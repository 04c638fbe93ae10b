"""html(): a value in a URL stays in the part of the URL the template puts it in.

A value in a link's or an image's URL was judged by the URL's scheme alone.  But after the
template's own text the value can reach past its part: ``<img src="/api/users/{id}/avatar">``
with ``id = "../../admin/delete?x="`` made Chromium request ``/admin/delete`` with the page's
cookies (client-side path traversal), ``?q={q}`` with ``q = "a&admin=1"`` added a parameter,
``https://{sub}.example.com/`` with ``sub = "evil.example/?"`` linked to another site, and
``mailto:{to}`` with ``to = "a@b.example?bcc=c@d.example"`` (or ``",c@d.example"``) added a
recipient.  A fragment that is a single-page app's route (``#/users/{id}``) is read as its
router reads it, a path and query, and a query's ``;`` as a separator, as some servers read it.
html() reads the URL with ada (a WHATWG URL parser) and refuses these; Chromium's own reading of
every case is compared with ada's here, and look-alikes where a value only fills its part stay
accepted.
"""

from __future__ import annotations

import random
from email.utils import getaddresses
from typing import Any
from urllib.parse import parse_qsl, unquote

import ada_url
import pytest
from markupsafe import escape
from test_html import browser  # noqa: F401 (the module's Chromium, a fixture)

from ipy_istring._url_parts import part_refusal
from ipy_istring.fields import RenderError
from ipy_istring.html import html
from ipy_istring.template import Interpolation, InterpolationTemplate

PAGE = "https://notebook.invalid/lab/tree/page"

# (the element, the URL's static text before and after the value, the value, and a part of
# the URL as Chromium reads it with the value written by an f-string: the positive control)
REFUSED = [
    ("img", "/api/users/", "/avatar", "../../admin/delete?x=", "pathname", "/admin/delete"),
    ("img", "/api/users/", "/avatar", "1/delete", "pathname", "/api/users/1/delete/avatar"),
    ("img", "/api/users/", "/avatar", "%2e%2e/%2e%2e/admin", "pathname", "/admin/avatar"),
    ("img", "/api/users/", "/avatar", "..\\..\\admin", "pathname", "/admin/avatar"),
    ("a", "/files/", "", "../../admin", "pathname", "/admin"),
    ("a", "https://shop.example/item/", "/buy", "../../account/delete#", "pathname",
     "/account/delete"),
    ("a", "https://shop.example/?q=", "", "a&admin=1", "search", "?q=a&admin=1"),
    ("a", "https://shop.example/?q=", "&page=2", "a#", "search", "?q=a"),
    ("a", "https://shop.example/search?", "=1", "q=2&role", "search", "?q=2&role=1"),
    ("a", "https://", ".shop.example/", "evil.example/?", "hostname", "evil.example"),
    ("a", "https://", ".shop.example/", "evil.example#", "hostname", "evil.example"),
    ("a", "https://", ".shop.example/", "evil.example\\", "hostname", "evil.example"),
    ("a", "https://shop.example", "/x", ".evil.example", "hostname",
     "shop.example.evil.example"),
    ("a", "https://shop.example:", "/", "443@evil.example", "hostname", "evil.example"),
    ("a", "/", "", "/evil.example/x", "hostname", "evil.example"),
    ("a", "/", "", "\\evil.example/x", "hostname", "evil.example"),
    ("img", "https://", "/logo.png", "evil.example/x?", "pathname", "/x"),
    ("a", "mailto:", "", "a@b.example?bcc=c@d.example", "search", "?bcc=c@d.example"),
    ("a", "tel:", "", "+15550100?x=1", "search", "?x=1"),
    ("a", "https://shop.example/?q=", "", "a;admin=1", "search", "?q=a;admin=1"),
    ("a", "https://shop.example/?q=", "&page=2", "a;page=9", "search", "?q=a;page=9&page=2"),
]  # fmt: skip
# (the same, and a value that makes the URL none the WHATWG parser reads)
NO_URL = [
    ("a", "https://", ".shop.example/", "evil.example%2F"),
    ("a", "https://", ".shop.example/", "a b"),
    ("a", "https://shop.example:", "/", "80a"),
]
# (the same, and a value that only fills its part)
ACCEPTED = [
    ("img", "/api/users/", "/avatar", "42"),
    ("a", "/files/", "", "docs/readme.md"),
    ("a", "/files/", ".csv", "2024/sales"),
    ("a", "https://github.com/", "", "owner/repo"),
    ("a", "https://shop.example/?q=", "", "Tom%20%26%20Jerry"),
    ("a", "https://shop.example/?q=", "&page=2", "a b=c"),
    ("a", "https://shop.example/?", "", "a=1&b=2"),
    ("a", "https://shop.example/#", "", "a?b&c/../d"),
    ("a", "https://", ".shop.example/", "staging"),
    ("a", "https://", "/page", "evil.example"),
    ("a", "https://shop.example:", "/", "8443"),
    ("a", "mailto:", "", "bob@example.org"),
    ("a download", "data:text/csv,", "", "a?b#c"),
    ("a", "https://shop.example/?q=", "", "a%3Badmin=1"),
    ("a", "mailto:bob@example.org?subject=", "", "hi, there"),
    ("a", "/app#/users/", "/profile", "42"),
    ("a", "/app#/files/", "", "docs/readme.md"),
    ("a", "/app#/search?q=", "", "Tom%20%26%20Jerry"),
    ("a", "/page#section-", "", "../x&y"),
    ("a", "/page#q=", "", "../x&y"),
]
# A single-page app's route in the fragment, which its router reads as a path and query: the
# template's URL before and after the value, and a value that leaves its part of the route.
HASH_ROUTES = [
    ("/app#/users/", "/profile", "../../admin/delete?x="),
    ("/app#/users/", "/profile", "%2e%2e/%2e%2e/admin/delete"),
    ("/app#!/users/", "/profile", "..\\..\\admin/delete"),
    ("/app#/search?q=", "", "a&admin=1"),
    ("/app#/", "", "/evil.example/x"),
    ("/app#users/", "/profile", "../../admin/delete?x="),
    ("/app#!users/", "/profile", "%2e%2e/%2e%2e/admin/delete"),
    ("/app#search?q=", "", "a&admin=1"),
]
# A mailto: list of recipients, which the mail app splits at commas
# after percent-decoding it: the template's URL before and after the value, and a value that
# adds a recipient.
RECIPIENTS = [
    ("mailto:", "", "alice@example.org,eve@evil.example"),
    ("mailto:", "?subject=hi", "alice@example.org%2Ceve@evil.example"),
    ("mailto:alice@example.org?cc=", "", "bob@example.org,eve@evil.example"),
    ("mailto:", "", "alice@example.org;eve@evil.example"),
    ("mailto:alice@example.org?cc=", "", "bob@example.org%3Beve@evil.example"),
]


def template(element: str, before: str, after: str, value: str) -> InterpolationTemplate:
    """``<a href="before{x}after">x</a>``, or ``<img src="...">``."""
    if element == "img":
        return InterpolationTemplate('<img src="' + before, Interpolation(value, "x"), after + '">')
    opening = '<a download="t.csv" href="' if element == "a download" else '<a href="'
    return InterpolationTemplate(opening + before, Interpolation(value, "x"), after + '">x</a>')


def parts(url: str) -> dict[str, str] | None:
    """The parts of ``url`` as ada reads it on the page; None for no URL."""
    try:
        parsed = ada_url.URL(url, PAGE)
    except ValueError:
        return None
    return {p: getattr(parsed, p) for p in ("protocol", "hostname", "port", "pathname", "search")}


@pytest.mark.parametrize(("element", "before", "after", "value", "part", "reads"), REFUSED)
def test_a_value_that_leaves_its_part_of_the_url_is_refused(
    element: str, before: str, after: str, value: str, part: str, reads: str
) -> None:
    with pytest.raises(RenderError, match="would be a URL whose") as refused:
        html(template(element, before, after, value))
    assert "urllib.parse.quote" in str(refused.value)
    html(template(element, before, after, "0"))  # (a value that fills the part: accepted)


@pytest.mark.parametrize(("element", "before", "after", "value"), NO_URL)
def test_a_value_that_makes_the_url_none_is_refused(
    element: str, before: str, after: str, value: str
) -> None:
    assert parts(before + value + after) is None
    with pytest.raises(RenderError, match="no URL by the WHATWG standard"):
        html(template(element, before, after, value))


@pytest.mark.parametrize(("element", "before", "after", "value"), ACCEPTED)
def test_a_value_that_fills_its_part_of_the_url_is_accepted(
    element: str, before: str, after: str, value: str
) -> None:
    rendered = str(html(template(element, before, after, value)))
    assert before + str(escape(value)) + after in rendered


def test_each_field_of_a_url_is_judged_with_the_others_values() -> None:
    pieces: list[str | int] = ["https://", 0, ".shop.example/users/", 1, "/avatar"]
    assert part_refusal(pieces, ["eu", "42"]) is None
    assert part_refusal(pieces, ["eu", "../admin"]) is not None
    assert part_refusal(pieces, ["evil.example/", "42"]) is not None
    # The whole URL from a value is judged by its scheme alone, as before.
    assert part_refusal([0], ["https://evil.example/../x?a&b"]) is None
    assert part_refusal([" ", 0], ["//evil.example"]) is None


def test_ada_reads_every_url_here_as_chromium_does(browser: Any) -> None:  # noqa: F811
    tab = browser.new_page()
    urls = [b + v + a for _, b, a, v, _, _ in REFUSED] + [b + v + a for _, b, a, v in ACCEPTED]
    urls += [b + "harmless" + a for _, b, a, _, _, _ in REFUSED]
    read = tab.evaluate(
        """([urls, page]) => urls.map((u) => {
             if (!URL.canParse(u, page)) return null;
             const p = new URL(u, page);
             return {protocol: p.protocol, hostname: p.hostname, port: p.port,
                     pathname: p.pathname, search: p.search};
           })""",
        [urls, PAGE],
    )
    tab.close()
    assert read == [parts(url) for url in urls]
    assert read.count(None) == 1  # (https://shop.example:harmless/: no port, no URL)


def test_chromium_reads_a_url_the_standard_has_none_for(browser: Any) -> None:  # noqa: F811
    """Why a URL ada rejects is refused rather than left inert: Chromium 156 reads
    ``https://a b.shop.example/`` as the host ``a%20b.shop.example``."""
    tab = browser.new_page()
    url = "https://a b.shop.example/"
    host = tab.evaluate("(u) => URL.canParse(u) && new URL(u).hostname", url)
    tab.close()
    assert host == "a%20b.shop.example"
    assert parts(url) is None


def test_positive_control_the_naive_urls_reach_another_part_in_chromium(
    browser: Any,  # noqa: F811
) -> None:
    """Each refused value, written by an f-string, makes Chromium read another host, path or
    query than the template's: the part named in the case, as Chromium reads it."""
    tab = browser.new_page()
    naive = [before + value + after for _, before, after, value, _, _ in REFUSED]
    read = tab.evaluate(
        "([urls, page]) => urls.map((u) => { const p = new URL(u, page); "
        "return {hostname: p.hostname, pathname: p.pathname, search: p.search}; })",
        [naive, PAGE],
    )
    tab.close()
    assert [r[part] for r, (*_, part, _) in zip(read, REFUSED)] == [c[-1] for c in REFUSED]


def test_positive_control_an_image_requests_another_path_of_the_site(
    browser: Any,  # noqa: F811
) -> None:
    """Client-side path traversal: the naive ``<img src>`` makes Chromium send a GET to the
    path the value chose, on the page's own site."""
    requested: list[str] = []
    tab = browser.new_page()

    def serve(route: Any) -> None:
        requested.append(route.request.url)
        if route.request.url == PAGE:
            body = '<!doctype html><img src="/api/users/../../admin/delete?x=/avatar">'
            route.fulfill(status=200, content_type="text/html", body=body)
        else:
            route.fulfill(status=204, body="")

    tab.route("https://notebook.invalid/**", serve)
    tab.goto(PAGE, wait_until="load")
    tab.close()
    assert "https://notebook.invalid/admin/delete?x=/avatar" in requested
    with pytest.raises(RenderError):
        html(template('<img src="', "/api/users/", "/avatar", "../../admin/delete?x="))


def test_every_url_html_accepts_reads_alike_in_ada_and_chromium(
    browser: Any,  # noqa: F811
) -> None:
    """A differential run: values made of URL delimiters and escapes, in a path segment, a
    query value, a host label, a port and a mailto address.  Wherever html() accepts one,
    Chromium reads the URL as ada does (so the parts ada kept are the parts Chromium uses)."""
    rng = random.Random(750)
    alphabet = ["/", "\\", ".", "..", "?", "#", "&", "=", "@", ":", "%2e", "%2f", "%5c", "%",
                " ", "\t", "a", "B", "0", "é", "。", "[", "]", "~", "+", ";", ","]  # fmt: skip
    values = ["".join(rng.choices(alphabet, k=rng.randint(1, 5))) for _ in range(300)]
    templates = [(b, a) for _, b, a, _, _, _ in REFUSED[:1] + REFUSED[6:7] + REFUSED[9:10]]
    templates += [("https://shop.example:", "/"), ("mailto:", "")]
    accepted: list[str] = []
    for before, after in templates:
        for value in values:
            try:
                html(template("a", before, after, value))
            except RenderError:
                continue
            accepted.append(before + value + after)
    assert len(accepted) > 100
    tab = browser.new_page()
    read = tab.evaluate(
        """([urls, page]) => urls.map((u) => {
             if (!URL.canParse(u, page)) return null;
             const p = new URL(u, page);
             return {protocol: p.protocol, hostname: p.hostname, port: p.port,
                     pathname: p.pathname, search: p.search};
           })""",
        [accepted, PAGE],
    )
    tab.close()
    assert read == [parts(url) for url in accepted]


@pytest.mark.parametrize(("before", "after", "value"), HASH_ROUTES)
def test_a_value_that_leaves_its_part_of_a_hash_route_is_refused(
    before: str, after: str, value: str
) -> None:
    with pytest.raises(RenderError, match="in the route its fragment holds") as refused:
        html(template("a", before, after, value))
    assert "urllib.parse.quote" in str(refused.value)
    html(template("a", before, after, "42"))


def test_positive_control_a_hash_router_fetches_the_path_the_value_chose(
    browser: Any,  # noqa: F811
) -> None:
    """A router that fetches its route's data (``fetch("/api/" + route)``, as single-page apps
    do) sends a GET with the page's cookies to another path of the site for each refused
    value, and to another host for ``//``; an accepted value keeps to the route's path."""
    router = (
        "<!doctype html><script>"
        "const route = location.hash.slice(1).replace(/^!/, '');"
        "fetch(route.startsWith('//') ? route : '/api/' + route.replace(/^\\//, ''))"
        ".catch(() => {});"
        "</script>"
    )

    def serve(route: Any) -> None:
        if route.request.url.split("#")[0] == "https://notebook.invalid/app":
            route.fulfill(status=200, content_type="text/html", body=router)
        else:
            route.fulfill(status=204, body="", headers={"access-control-allow-origin": "*"})

    for before, after, value in [*HASH_ROUTES, ("/app#/users/", "/profile", "42")]:
        tab = browser.new_page()  # (a page of its own: a new fragment alone loads nothing)
        tab.route("https://notebook.invalid/**", serve)
        tab.route("https://evil.example/**", serve)
        with tab.expect_request(lambda request: "/app" not in request.url) as fetch:
            tab.goto("https://notebook.invalid" + before + value + after)
        fetched = fetch.value.url
        tab.close()
        if value == "42":
            assert fetched == "https://notebook.invalid/api/users/42/profile"
        elif value.startswith("/"):
            assert fetched.startswith("https://evil.example/")
        elif "admin=1" in value:
            assert fetched == "https://notebook.invalid/api/search?q=a&admin=1"
        else:
            assert fetched.startswith("https://notebook.invalid/admin/delete"), fetched


def test_ada_reads_each_route_as_chromium_does(browser: Any) -> None:  # noqa: F811
    """The route is read by ada against a site of its own; Chromium's URL parser reads each
    route here, refused or accepted, alike."""
    routes = [(b + v + a).partition("#")[2].removeprefix("!") for b, a, v in HASH_ROUTES]
    routes += [(b + v + a).partition("#")[2] for _, b, a, v in ACCEPTED if "#/" in b]
    tab = browser.new_page()
    read = tab.evaluate(
        """(routes) => routes.map((r) => { const p = new URL(r, "https://route.invalid/");
             return [p.hostname, p.pathname, p.search]; })""",
        routes,
    )
    tab.close()
    base = "https://route.invalid/"
    expected = [[u.hostname, u.pathname, u.search] for u in (ada_url.URL(r, base) for r in routes)]
    assert read == expected


@pytest.mark.parametrize(("before", "after", "value"), RECIPIENTS)
def test_a_value_that_adds_a_recipient_is_refused(before: str, after: str, value: str) -> None:
    # The positive control: the address list as a mail app reads it (percent-decoded, RFC
    # 6068; Outlook splits at ';' too), parsed by the standard library's RFC 5322 parser,
    # holds two recipients.
    url = ada_url.URL(before + value + after)
    listed = url.pathname if "?" not in before else url.search.partition("=")[2]
    assert len(getaddresses(unquote(listed).split(";"))) == 2
    with pytest.raises(RenderError, match="list of recipients the value adds to"):
        html(template("a", before, after, value))
    html(template("a", before, after, "alice@example.org"))


def test_positive_control_a_server_that_splits_at_semicolons_reads_a_new_parameter() -> None:
    """Python's ``parse_qsl`` split at ``;`` too before 3.9.2 (and still does with
    ``separator=";"``), as Ruby's Rack did before 3: the refused values add a parameter."""
    for _, before, after, value, _, _ in REFUSED[-2:]:
        query = ada_url.URL(before + value + after).search.removeprefix("?")
        parameters = [p for piece in query.split("&") for p in parse_qsl(piece, separator=";")]
        assert len(parameters) == query.count("&") + 2


def test_a_download_named_by_its_url_keeps_to_data_extensions(browser: Any) -> None:  # noqa: F811
    """``<a href="/files/{p}" download>``: with no name in ``download``, Chromium saves the
    file under the URL's last path segment, which the value chose (the positive control:
    ``report.html``, a document that runs its script when opened).  The rule for a name a
    value gives ``download="{name}"`` holds for that segment too."""
    context = browser.new_context(accept_downloads=True)
    tab = context.new_page()

    def serve(route: Any) -> None:
        if route.request.url == PAGE:
            body = '<!doctype html><a id="d" href="/files/report.html" download>get</a>'
            route.fulfill(status=200, content_type="text/html", body=body)
        else:
            route.fulfill(status=200, content_type="text/html", body="<script>1</script>")

    tab.route("https://notebook.invalid/**", serve)
    tab.goto(PAGE)
    with tab.expect_download() as download:
        tab.click("#d")
    assert download.value.suggested_filename == "report.html"
    context.close()

    def bare(before: str, value: str) -> InterpolationTemplate:
        opening = f'<a download href="{before}'
        return InterpolationTemplate(opening, Interpolation(value, "p"), '">x</a>')

    for value in ("report.html", "report%2Ehtml", "report", "x.svg"):
        with pytest.raises(RenderError, match="would name the download"):
            html(bare("/files/", value))
    with pytest.raises(RenderError, match="would name the download"):
        html(bare("", "/x.html"))
    # A name of a data type, a name the download attribute gives, a value in the query, a
    # link with no download attribute: accepted.
    assert html(bare("/files/", "report.csv"))
    assert html(template("a download", "/files/", "", "x.html"))  # (download="t.csv")
    assert html(bare("/files/report.csv?v=", "x.html"))
    assert html(template("a", "/files/", "", "x.html"))


# --- readers that decode the path first ------------------------------------------------------

# (element, the URL's static text before and after the value, a value whose segments only a
# reader that percent-decodes the path first sees: JupyterLab's URL resolver for an output's
# relative src/href, Python's http.server, servers that read '\' as '/')
DECODED_TRAVERSALS = [
    ("img", "avatars/", ".png", "..%2F..%2Fsecret"),
    ("a", "reports/", "", "..%2F..%2Fsecret.txt"),
    ("a", "/api/users/", "/avatar", "a%2F..%2F..%2Fadmin%2Fdelete"),
    # (accepted until a reader that decodes the path was followed: one segment to ada, two
    # to JupyterLab's resolver and http.server)
    ("img", "/api/users/", "/avatar", "a%2Fb"),
    ("img", "/u/", "/a.png", "..%5C..%5Cadmin"),
    ("a", "/app#/users/", "", "..%2F..%2Fadmin"),
]


@pytest.mark.parametrize(("element", "before", "after", "value"), DECODED_TRAVERSALS)
def test_a_value_whose_decoded_segments_leave_its_place_is_refused(
    element: str, before: str, after: str, value: str
) -> None:
    """JupyterLab resolved ``<img src="avatars/{id}.png">`` with ``..%2F..%2Fsecret`` to
    /files/secret.png, and a link meant for work/reports/q1.csv opened the server root's
    secret.txt: ada keeps ``%2F`` in one segment, the resolver decodes it first.  And
    ``urllib.parse.quote(value, safe='')``, the fix the refusal offered, made that value."""
    with pytest.raises(RenderError, match="path the value changes") as refused:
        html(template(element, before, after, value))
    assert "quote(value, safe='') for a query value" in str(refused.value)


def test_a_decoded_slash_that_stays_below_the_value_is_accepted() -> None:
    # the last segments are the value's (/files/{path}), in a folder or not
    for element, before, after, value in (
        ("a", "/files/", "", "2024%2Fq1.csv"),
        ("img", "avatars/", ".png", "team%2Falice"),
        ("a", "/api/users/", "/avatar", "alice%20smith"),
        ("a", "/files/", "", "..data.csv"),
    ):
        assert html(template(element, before, after, value))


def test_positive_control_a_server_that_decodes_the_path_serves_another_file(
    tmp_path: Any,
) -> None:
    """Python's own http.server decodes a request's path before it resolves it, as
    JupyterLab's resolver does: the quoted value reads the site's root."""
    import functools
    import threading
    import urllib.request
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import quote

    (tmp_path / "secret.txt").write_text("TOP SECRET")
    (tmp_path / "work" / "reports").mkdir(parents=True)
    (tmp_path / "work" / "reports" / "q1.csv").write_text("a,b")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp_path))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        site = f"http://127.0.0.1:{server.server_address[1]}/work/"
        quoted = quote("../../secret.txt", safe="")
        for value, body in (("q1.csv", b"a,b"), (quoted, b"TOP SECRET")):
            with urllib.request.urlopen(site + "reports/" + value) as response:
                assert response.read() == body
            page = InterpolationTemplate('<a href="reports/', Interpolation(value, "f"), '">r</a>')
            if body == b"a,b":
                assert html(page)
            else:
                with pytest.raises(RenderError, match="path the value changes"):
                    html(page)
    finally:
        server.shutdown()
        server.server_close()


def test_a_download_named_by_its_url_is_named_as_chromium_names_it(
    browser: Any,  # noqa: F811
) -> None:
    """Chromium cuts the saved name at its first ';' (a path parameter), and names a file
    whose URL ends in '/' after the response's type: 'report.html;.csv' was saved as
    report.html, 'report.html/' as download.html, both past the data-extension rule.  A name
    that only a value gives (download="{name}") may be empty: then the URL names the file."""
    context = browser.new_context(accept_downloads=True)
    tab = context.new_page()
    link = ""

    def serve(route: Any) -> None:
        if route.request.url == PAGE:
            body = f'<!doctype html><a id="d" href="{link}" download="">get</a>'
            route.fulfill(status=200, content_type="text/html", body=body)
        else:
            route.fulfill(status=200, content_type="text/html", body="<script>1</script>")

    tab.route("https://notebook.invalid/**", serve)
    saved = {}
    for link in ("/files/report.html;.csv", "/files/report.html/", "/files/report.csv"):
        tab.goto(PAGE)
        with tab.expect_download() as download:
            tab.click("#d")
        saved[link] = download.value.suggested_filename
    context.close()
    assert saved["/files/report.html;.csv"] == "report.html"
    assert saved["/files/report.html/"].startswith("download")  # (.html when saved)
    assert saved["/files/report.csv"] == "report.csv"

    def link_to(value: str, name: str | None = None) -> InterpolationTemplate:
        parts: list[Any] = ['<a href="/files/', Interpolation(value, "p"), '" download']
        if name is not None:
            parts += ['="', Interpolation(name, "n"), '"']
        return InterpolationTemplate(*parts, ">get</a>")

    for value in ("report.html;.csv", "report.html;x=1.csv", "report.svg;.png", "report.html/"):
        with pytest.raises(RenderError, match="would name the download"):
            html(link_to(value))
    with pytest.raises(RenderError, match="would name the download"):
        html(link_to("report.html", name=""))
    # look-alikes: an encoded ';' stays in the name, a name given, a value before a '/'
    assert html(link_to("report.html%3B.csv"))
    assert html(link_to("report.html", name="report.csv"))
    assert html(link_to("report.csv", name=""))
    in_a_folder = ('<a href="/files/', Interpolation("7", "id"), '/" download>x</a>')
    assert html(InterpolationTemplate(*in_a_folder))
