"""One corpus of hostile values, shared by the sh/argv, sql and html tests.

Every value must come out of a real shell, database or browser exactly as it went in, and
nothing a value tries to do (create a file, drop a table, run a script) may happen.  The
payloads that try to act name ``SENTINEL`` (a file the shell tests watch) or set
``window.__pwned`` (which the browser test checks), so a successful injection is visible.
"""

from __future__ import annotations

# A file that an injected shell command would create; the shell tests use a tmp copy.
SENTINEL = "pwned-sentinel"

SHELL = [
    f"; touch {SENTINEL}",
    f"| touch {SENTINEL}",
    f"&& touch {SENTINEL}",
    f"|| touch {SENTINEL}",
    f"$(touch {SENTINEL})",
    f"`touch {SENTINEL}`",
    f"x\ntouch {SENTINEL}",
    f"x\r\ntouch {SENTINEL}",
    f"> {SENTINEL}",
    f"< /etc/passwd > {SENTINEL}",
    "*",
    "?",
    "[a-z]*",
    "~",
    "~root",
    "$HOME",
    "${HOME}",
    "$((1+1))",
    "!!",
    "{a,b}",
    "#not a comment",
    "-rf",
    "--help",
    "-",
    "a=b",
    "'",
    '"',
    "'\"'\"'",
    "\\",
    "\\'",
    "a b\tc",
    " leading and trailing ",
    "\t",
    "\n",
    "&",
    "(",
    ")",
]

SQL = [
    "' OR 1=1 --",
    "'; DROP TABLE t; --",
    '"; DROP TABLE t; --',
    "1; DROP TABLE t",
    "' UNION SELECT 1, 2 --",
    "%s",
    "%(name)s",
    "%%",
    "100%",
    "?",
    ":name",
    ":1",
    "$1",
    "$$; DROP TABLE t; $$",
    "\\",
    "\\'",
    "\\'; DROP TABLE t; --",
    "/*",
    "*/",
    "--",
    "E'\\x41'",
]

HTML = [
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned = 1">',
    "'><img src=x onerror='window.__pwned = 1'>",
    "<img src=x onerror=window.__pwned=1>",
    "<svg onload=window.__pwned=1>",
    "javascript:window.__pwned=1",
    "</textarea><script>window.__pwned = 1</script>",
    "</title><script>window.__pwned = 1</script>",
    "<!--",
    "-->",
    "<![CDATA[",
    "&lt;b&gt;",
    "&amp;",
    "&#60;script&#62;",
    "&",
    "<",
    ">",
    "a < b > c",
    "<b>bold</b>",
    "<style>*{display:none}</style>",
    "<iframe srcdoc='<script>parent.__pwned=1</script>'>",
]

GENERAL = [
    "",
    " ",
    "plain",
    "unicode: héllo wörld ✓ 日本語 🎉",
    "combining: e\u0301 a\u0308\u0323 \u200d\u200b",
    "rtl: \u202eevil\u202c",
    "x" * 10_000,
    "long words " * 500,
]

# Everything that every destination must carry exactly, each value once (the database tests
# look values up).  NUL bytes are refused by sh/argv and by the databases' text types, so they
# have their own tests.
ALL = list(dict.fromkeys(SHELL + SQL + HTML + GENERAL))
