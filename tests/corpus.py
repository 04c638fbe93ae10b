"""The literal corpus shared by the conformance tests and ``scripts/record-corpus``.

Each entry is the source of one expression written with markers instead of template prefixes:
``§`` stands for a lower-case template letter and ``¶`` for an upper-case one.  ``spell(src,
"i")`` gives the i-literal, ``spell(src, "f")`` the f-string it must format like, and
``spell(src, "t")`` the 3.14 t-string whose structure it must match.  The spelling is a plain
character replacement, independent of the code under test.

``min_version`` is the oldest Python whose f-string grammar accepts the entry;
``test_conformance.test_min_version_is_exact`` checks it on every interpreter the suite runs on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The names every entry may use; evaluated fresh for each entry.  Values have stable reprs.
NAMESPACE_SOURCE = """
x = 42
y = 'hello'
w = 10
p = 3
pi_ = 3.14159
d = {'k': 'v', "a'b": 1, 1: 'one'}
lst = [1, 2, 3, 4, 5]
s = 'caf\\u00e9 \\u2713'
n = None
i = 7
ri = 8
"""


def namespace() -> dict[str, object]:
    ns: dict[str, object] = {}
    exec(NAMESPACE_SOURCE, ns)
    return ns


@dataclass(frozen=True)
class Entry:
    name: str
    src: str
    min_version: tuple[int, int] = (3, 10)


def spell(src: str, letter: str) -> str:
    """The entry with its template markers made ``letter`` (lower) / ``letter.upper()``."""
    return src.replace("§", letter.lower()).replace("¶", letter.upper())


_PREFIXES = ["§", "¶", "r§", "r¶", "R§", "R¶", "§r", "§R", "¶r", "¶R"]
_QUOTES = ["'", '"', "'''", '"""']


def _prefix_entries() -> list[Entry]:
    entries = []
    for prefix in _PREFIXES:
        for quote in _QUOTES:
            body = r"a {x} b\t{y!r:>8} {{c}} \\"
            name = f"prefix-{prefix}-{quote}".replace("§", "i").replace("¶", "I")
            entries.append(Entry(name, f"{prefix}{quote}{body}{quote}"))
    return entries


_HAND: list[tuple[str, str, tuple[int, int]]] = [
    # empty and plain
    ("empty-dq", '§""', (3, 10)),
    ("empty-sq", "§''", (3, 10)),
    ("empty-tdq", '§""""""', (3, 10)),
    ("empty-tsq", "§''''''", (3, 10)),
    ("plain", '§"hello world"', (3, 10)),
    ("only-field", '§"{x}"', (3, 10)),
    ("two-fields-adjacent", '§"{x}{y}"', (3, 10)),
    # escapes
    ("escape-tab", r'§"tab\there{x}"', (3, 10)),
    ("escape-newline", r'§"nl\n{x}\n"', (3, 10)),
    ("escape-N", r'§"\N{GREEK SMALL LETTER ALPHA}{x}\N{BULLET}"', (3, 10)),
    ("escape-backslash", r'§"\\{x}\\"', (3, 10)),
    ("escape-quote", r"§'it\'s {x}'", (3, 10)),
    ("escape-dq-in-dq", r'§"say \"{y}\""', (3, 10)),
    ("escape-hex-unicode", r'§"\x41\u00e9\U0001F600{x}\101"', (3, 10)),
    ("raw-N-is-field", r'r§"\N{x}"', (3, 10)),
    ("raw-backslash-field", r'r§"\{x}\\"', (3, 10)),
    ("raw-backslashes", r'r§"C:\path\{y}\n"', (3, 10)),
    ("backslash-newline-in-triple", '§"""a\\\n{x}b"""', (3, 10)),
    # doubled braces
    ("braces-only", '§"{{}}"', (3, 10)),
    ("braces-around-field", '§"{{{x}}}"', (3, 10)),
    ("braces-reversed", '§"}}{{"', (3, 10)),
    ("braces-text", '§"{{x}} {x}"', (3, 10)),
    # conversions
    ("conv-r", '§"{y!r}"', (3, 10)),
    ("conv-s", '§"{y!s}"', (3, 10)),
    ("conv-a", '§"{s!a}"', (3, 10)),
    ("conv-r-spec", '§"{y!r:>20}"', (3, 10)),
    ("conv-a-spec", '§"{s!a:^30}"', (3, 10)),
    ("conv-empty-spec", '§"{x!r:}"', (3, 10)),
    ("conv-space-before", '§"{x !r}"', (3, 10)),
    # format specs
    ("spec-float", '§"{pi_:.2f}"', (3, 10)),
    ("spec-empty", '§"{x:}"', (3, 10)),
    ("spec-nested-width", '§"{x:>{w}}"', (3, 10)),
    ("spec-nested-width-prec", '§"{pi_:{w}.{p}f}"', (3, 10)),
    ("spec-nested-two", '§"{pi_:{w}.{p}}"', (3, 10)),
    ("spec-hash-x", '§"{x:#x}"', (3, 10)),
    ("spec-comma", '§"{x:,}"', (3, 10)),
    ("spec-percent", '§"{0.25:.1%}"', (3, 10)),
    ("spec-fill-equals", '§"{x:=^10}"', (3, 10)),
    ("spec-conv-fill-equals", '§"{x!s:=<5}"', (3, 10)),
    ("spec-space-fill", '§"{x: >10}"', (3, 10)),
    ("spec-nested-string", "§\"{x:{'>'}{w}}\"", (3, 10)),
    ("spec-nested-text-around", '§"{x:0{w}d}"', (3, 10)),
    ("spec-conv-nested", '§"{y!r:{w}}"', (3, 10)),
    ("spec-conv-nested-align", '§"{x!r:>{w}}"', (3, 10)),
    ("spec-slice-conv-nested", '§"{lst[1:3]!r:>{w}}"', (3, 10)),
    ("spec-repeated", '§"{x:{w}}|{x:{p}}"', (3, 10)),
    ("spec-date-like", '§"{x:_>{w}}"', (3, 10)),
    ("spec-nested-in-nested", '§"{x:{w:{p}}}"', (3, 12)),
    ("spec-with-colon-text", '§"{pi_:.{p}}:{x}"', (3, 10)),
    ("spec-N-escape", r'§"{x:\N{BULLET}^10}"', (3, 10)),
    ("spec-N-escape-only", r'§"{y:\N{BULLET}<}"', (3, 10)),
    # debug form
    ("debug", '§"{x=}"', (3, 10)),
    ("debug-spaces", '§"{x = }"', (3, 10)),
    ("debug-conv-s", '§"{x=!s}"', (3, 10)),
    ("debug-spec", '§"{x=:>5}"', (3, 10)),
    ("debug-conv-spec", '§"{x=!r:^20}"', (3, 10)),
    ("debug-conv-a", '§"{s=!a}"', (3, 10)),
    ("debug-expr", '§"{x + 1=}"', (3, 10)),
    ("debug-subscript", "§\"{d['k']=}\"", (3, 10)),
    ("debug-nested-spec", '§"{x=!r:{w}}"', (3, 10)),
    ("debug-text-around", '§"a {y=} b {x = :>4} c"', (3, 10)),
    ("debug-leading-space", '§"{ x=}"', (3, 10)),
    # 3.12 and 3.13 drop a line continuation from the debug text; 3.14 keeps it
    ("debug-line-continuation", '§"""v: {x =\\\n}"""', (3, 12)),
    ("debug-line-continuation-before-eq", '§"""v: {x \\\n=}"""', (3, 12)),
    # whitespace in fields
    ("ws-around", '§"{ x }"', (3, 10)),
    ("ws-conv", '§"{  x  !r}"', (3, 10)),
    ("ws-before-spec", '§"{x :>5}"', (3, 10)),
    ("ws-tabs", '§"{\tx\t}"', (3, 10)),
    # multi-line expressions in triple-quoted literals
    ("multiline-expr", "§'''{\nx\n+\n1\n}'''", (3, 10)),
    ("multiline-conv", '§"""a\n{x\n!r}\nb"""', (3, 10)),
    ("multiline-text", '§"""line one {x}\nline two {y}\n"""', (3, 10)),
    ("multiline-dict", "§'''{ {\n'a': 1,\n'b': 2\n}['b'] }'''", (3, 10)),
    # comments inside fields (3.12+)
    ("comment", "§'''{x # a comment\n}'''", (3, 12)),
    ("comment-mid-expr", '§"""{x # c\n+ 1}"""', (3, 12)),
    ("comment-with-quote", "§'''{y # it's\n}'''", (3, 12)),
    # bracketed things with : = ! inside
    ("dict-display", "§\"{ {'a': 1}['a'] }\"", (3, 10)),
    ("set-display", '§"{ {1, 2} }"', (3, 10)),
    ("lambda-parens", '§"{(lambda: x)()}"', (3, 10)),
    ("lambda-arg-parens", '§"{(lambda v: v * 2)(x)}"', (3, 10)),
    ("lambda-default-parens", '§"{(lambda v=1: v)()}"', (3, 10)),
    ("walrus-parens", '§"{(z := 5)}"', (3, 10)),
    ("cmp-ne", '§"{x != 1}"', (3, 10)),
    ("cmp-ne-tight", '§"{x!=1}"', (3, 10)),
    ("cmp-eq", '§"{x == 42}"', (3, 10)),
    ("cmp-eq-tight", '§"{x==42}"', (3, 10)),
    ("cmp-le", '§"{x <= 1}"', (3, 10)),
    ("cmp-ge", '§"{x >= 1}"', (3, 10)),
    ("cmp-lt-gt", '§"{x < 1}{x > 1}"', (3, 10)),
    ("cmp-ge-debug", '§"{x>=1=}"', (3, 10)),
    ("slice", '§"{lst[1:3]}"', (3, 10)),
    ("slice-step", '§"{lst[::2]}"', (3, 10)),
    ("slice-conv", '§"{lst[:-1]!r}"', (3, 10)),
    ("subscript-call-kw", '§"{dict(a=1)}"', (3, 10)),
    ("ternary", '§"{x if x > 1 else y}"', (3, 10)),
    ("comprehension", '§"{[v for v in lst if v > 2]}"', (3, 10)),
    ("dict-comprehension", '§"{ {v: v * v for v in lst} }"', (3, 10)),
    ("star-tuple", '§"{*lst,}"', (3, 10)),
    ("call-kw-eq", "§\"{'-'.join(map(str, lst))}\"", (3, 10)),
    ("names-like-prefixes", '§"{i}{ri}{i + ri}"', (3, 10)),
    # quotes of the other kind inside fields
    ("other-quote-sq", "§\"{d['k']}\"", (3, 10)),
    ("other-quote-dq", "§'{d[\"k\"]}'", (3, 10)),
    ("triple-both-quotes", '§"""{d[\'k\'] + "x"}"""', (3, 10)),
    ("triple-sq-in-field", "§'''{\"'\"}'''", (3, 10)),
    ("quotes-in-text", '§"it\'s {x}"', (3, 10)),
    ("quotes-in-triple-text", '§"""a "quoted" {x} \'b\'"""', (3, 10)),
    ("dq-key-with-sq", "§'{d[\"a\\'b\"] if False else 0}'", (3, 12)),
    # nested same quotes and deep nesting (3.12+)
    ("same-quote-dq", '§"{d["k"]}"', (3, 12)),
    ("same-quote-sq", "§'{d['k']}'", (3, 12)),
    ("same-quote-fstring", '§"{f"{x}"}"', (3, 12)),
    ("deep-fstrings", '§"{f"{f"{f"{x}"}"}"}"', (3, 12)),
    ("backslash-in-field", "§\"{'\\n'.join(['a', 'b'])}\"", (3, 12)),
    ("N-escape-in-field", '§"{"\\N{BULLET}"}"', (3, 12)),
    ("escaped-quote-in-field", "§\"{d['a\\'b']}\"", (3, 12)),
    ("same-quote-triple", '§"""{"""x"""}"""', (3, 12)),
    # templates nested in templates, f-strings and the other way round
    ("i-in-i", "§\"outer {§'inner {x}'} end\"", (3, 10)),
    ("i-in-i-spec", "§\"{§'{y!r}':>{w}}\"", (3, 10)),
    ("f-in-i", "§\"{f'{x:>{w}}'}\"", (3, 10)),
    ("i-in-f", "f\"<{§'{x}'}>\"", (3, 10)),
    ("i-in-f-in-i", '§"{f\'{§"{x}"}\'}"', (3, 12)),
    ("i-in-i-same-quote", '§"a{§"b{x}"}c"', (3, 12)),
    ("i-in-i-in-i", '§"{§"{§"{x}"}"}"', (3, 12)),
    # implicit concatenation
    ("concat", '§"a{x}" §"b{y}"', (3, 10)),
    ("concat-boundary", '§"{x}" §"{y}"', (3, 10)),
    ("concat-empties", '§"" §""', (3, 10)),
    ("concat-mixed-prefixes", "§\"a\" ¶'b' r§'\\c{x}' §r'''{y}'''", (3, 10)),
    ("concat-lines-parens", '(§"a{x}"\n §"b{y}"\n)', (3, 10)),
    ("concat-lines-comment", '(§"a{x}"  # first\n §"b{y}")', (3, 10)),
    ("concat-backslash", '§"a{x}" \\\n§"b{y}"', (3, 10)),
    ("concat-debug", '§"{x=}" §"{y=}"', (3, 10)),
    # unicode
    ("unicode-text", '§"café {s} ✓"', (3, 10)),
    ("unicode-fill", '§"{y:é^11}"', (3, 10)),
    ("unicode-cjk", '§"日本{x}語"', (3, 10)),
    ("unicode-emoji", '§"😀{y}😀"', (3, 10)),
    ("unicode-name", '§"{len("ü" * 3)}"', (3, 12)),
]


CORPUS: list[Entry] = _prefix_entries() + [Entry(*entry) for entry in _HAND]

assert len({entry.name for entry in CORPUS}) == len(CORPUS), "duplicate corpus names"

#: Entries whose f-string on 3.12 and early 3.13 releases (3.13.0; not 3.13.18) differs from
#: 3.14's (and the t-string's): there the i-string follows 3.14.
FSTRING_DIFFERS_BEFORE_314 = {"debug-line-continuation", "debug-line-continuation-before-eq"}


@dataclass(frozen=True)
class Malformed:
    """A literal Python refuses: spelled with ``t`` on 3.14 and ``i`` here, the error must
    carry the same message (its label made ``i-string``), line and column.  ``exact_from``:
    the oldest Python whose f-string parser words the message as 3.14 does (before it, only
    the label and the position of an error we raise ourselves are compared)."""

    name: str
    src: str
    exact_from: tuple[int, int] = (3, 12)


MALFORMED: list[Malformed] = [
    Malformed("newline-in-single-quoted-spec", "§'{x:d\n}'", (3, 10)),
    Malformed("newline-in-nested-spec", "§'{x:{w:\n}}'", (3, 10)),
    Malformed("conversion", "§'{x!z}'"),
    Malformed("conversion-in-nested-i", "§'{§\"{x!z}\"}'"),
    Malformed("conversion-in-nested-f", "§'{f\"{x!z}\"}'"),
    Malformed("empty-in-nested-f", "§'{f\"{}\"}'"),
    Malformed("empty-in-f-in-i", "§'{f\"{§'{}'}\"}'", (3, 12)),
]


def t_label(message: str, letter: str) -> str:
    """3.14's message for a t-literal, worded for ``letter``-literals (``i-string: ...``)."""
    return message.replace("t-string", f"{letter}-string")


_PREFIX_LETTER = {
    letter: re.compile(rf"(?<!\w)([rR]?)({letter}|{letter.upper()})([rR]?)(?=['\"])")
    for letter in "ift"
}


def mark(text: str, letter: str) -> str:
    """Undo :func:`spell` for ``letter``-prefixed literals inside an expression's text."""
    return _PREFIX_LETTER[letter].sub(
        lambda m: m[1] + ("§" if m[2].islower() else "¶") + m[3], text
    )


def describe(value: object, letter: str) -> object:
    """A JSON-able description of a value: templates by structure (see
    :func:`describe_interpolation`), everything else by repr."""
    if hasattr(value, "strings") and hasattr(value, "interpolations"):
        return {
            "strings": list(value.strings),  # type: ignore[attr-defined]
            "interpolations": [
                describe_interpolation(i, letter)
                for i in value.interpolations  # type: ignore[attr-defined]
            ],
        }
    return repr(value)


def describe_interpolation(interpolation: object, letter: str) -> list[object]:
    """(value, expression, conversion, format_spec), the expression's ``letter``-prefixed
    literals marked back (a t-string's expression text holds ``t'..'``, an i-string's
    ``i'..'``)."""
    return [
        describe(interpolation.value, letter),  # type: ignore[attr-defined]
        mark(interpolation.expression, letter),  # type: ignore[attr-defined]
        interpolation.conversion,  # type: ignore[attr-defined]
        interpolation.format_spec,  # type: ignore[attr-defined]
    ]
