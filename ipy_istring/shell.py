"""The ``sh`` and ``argv`` renderers: an i-string as a POSIX shell command, safely.

``os.system(sh(i'cat {file}'))``: every interpolated value becomes exactly one shell word
(``shlex.quote`` of its formatted text) while the static text passes through as written.
``subprocess.run(argv(i'cat {file}'))``: the same command as an argument list for
``shell=False``, each interpolation exactly one element.

Field rules, for both:

* ``{x}`` — the text the f-string gives (:func:`~ipy_istring.fields.value_text`: the
  conversion, then ``format(x, spec)``, read once as an exact ``str``, so a ``str`` subclass's
  own methods never run on it), but ``os.PathLike`` and ``bytes`` through ``os.fsdecode`` (so
  undecodable file names survive the round trip; the f-string would give ``b'...'``).
* ``{files:*}`` — any iterable but a string, bytes or mapping spreads into one word per item,
  in iteration order; without ``:*`` a list or tuple is refused, because the f-string's
  ``['a', 'b']`` is never the command you meant.

Where a field may stand is decided by an allow-list over the shell's grammar
(:mod:`ipy_istring._shell_grammar`, the subset of POSIX where dash and bash agree): only in an
ordinary word — an argument, a redirection target or a command name — and never in quotes,
comments, here-documents, arithmetic, ``${...}``, backticks, assignments, ``case``, ``[[``,
next to a backslash or ``$``, or after any construct the lexer does not follow.  A value in
command-name position is always single-quoted, so it can never become a reserved word, an
alias or an assignment.  ``argv`` refuses every piece of shell syntax it cannot honour.

Defence in depth: in every rendered command, each word that holds a value is lexed again and
must end where the template's word ends, with the value as literal text exactly where its field
stood; any difference is a ``RenderError`` naming the field.  The template's analysis is cached
per distinct tuple of static strings, so a loop over one literal pays for it once.
This module imports nothing from IPython.
"""

from __future__ import annotations

import os
import re
import sys
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from ._shell_grammar import (
    ARGUMENT,
    ASSIGNMENT,
    CODE_COMMANDS,
    COMMAND,
    FIELD,
    RESERVED,
    TARGET,
    TEST_OPERATORS,
    URL_START,
    Lexed,
    Operator,
    Part,
    Span,
    Token,
    Word,
    command_role,
    lex,
    word_at,
)
from ._shell_programs import (
    ASSIGNING,
    BANG_COMMAND_FILES,
    DIRECTORY_CODE,
    ENVIRONMENT_NAME,
    NO_END_OF_OPTIONS,
    OPTION_CODE_PROGRAMS,
    PIPE_FILE_OPTIONS,
    PLUS_COMMAND_PROGRAMS,
    ArgumentRule,
    argument_refusal,
)
from .fields import field_text, format_field, refusal, value_text
from .template import as_template, is_template

__all__ = ["argv", "sh"]

_SUPPORTED = (
    "a conversion (!s, !r, !a) and any format spec the value's type accepts, "
    "or ':*' alone to spread an iterable into one word per item"
)
_UNQUOTE = (
    "Remove the quotes around the field: the renderer quotes every value itself, "
    'e.g. i"echo {x}" rather than i"echo \'{x}\'"'
)
_APART = (
    "Put a space between the field and that text, or move the text into the value "
    "(e.g. {prefix + x})"
)


class _Field(NamedTuple):
    """What the analysis decided for one field."""

    why: str | None  # why it cannot stand where it is, or None
    fix: str
    role: str  # the role of its word (COMMAND, ARGUMENT, TARGET)
    alone: bool  # a whole word of its own (needed by ':*')
    operand: bool = False  # an argument of test or [: a value there must not be an operator
    option_of: str = ""  # a program that would read a value starting with '-' as an option
    assignment_of: str = ""  # a program that would read a value holding '=' as NAME=value
    names_command: bool = False  # names the command that `command` or `builtin` runs
    glued: str = ""  # a program that would read a letter of the value as an option of its own
    split: bool | None = None  # a program gets its words (True: also expanded as patterns)
    altered: str = ""  # how the text a program gets through an expansion may differ (Lexed)
    parsed_in: str = ""  # the argument its program parses further that the value stands in


class _Analysis(NamedTuple):
    """One template's static strings, analysed once (cached per strings tuple)."""

    lexed: Lexed
    # per word holding a field: its span, its first field, and how many fields come before
    # its start and its end (to find it in the rendered command)
    spans: tuple[tuple[Span, int, int, int], ...]
    fields: tuple[_Field, ...]
    tail: str  # the static text from where the lexer stopped, "" if it read everything
    argv_problem: str | None  # shell syntax argv cannot honour, described
    # per word holding a URL before its first field: the URL's static text and field indexes
    urls: tuple[tuple[str | int, ...], ...] = ()
    # per field in an argument its program parses further: the field, how, and its word's
    # pieces (static text and field indexes)
    arguments: tuple[tuple[int, ArgumentRule, tuple[str | int, ...]], ...] = ()


def _fix_for(why: str) -> str:
    """The fix to suggest for a field refused for ``why``."""
    if "a configuration file that" in why or "a shared library that" in why:
        return (
            "Write the file's name in the static text (ssh -F ./ssh_config host, openssl req "
            "-config ./openssl.cnf), choosing among names written there in Python: the file "
            "a value names decides what the program runs"
        )
    if why.startswith("a setting of php -d"):
        return (
            "Write the setting's name in the static text and give the value its value only "
            "(php -d memory_limit={m} s.php)"
        )
    if why.startswith("a positional parameter"):
        return (
            "Have the command string use its parameter only as data (a quoted \"$1\" "
            "argument of a program that reads it as data, after --), or do that part in Python"
        )
    if why.startswith("in a git command that writes the working tree"):
        return (
            "Turn git's hooks off in that command, as in git -c core.hooksPath=/dev/null "
            "checkout {ref} (git then finds no hook to run), or write the revision in the "
            "static text; a path goes after -- (git restore -- {f})"
        )
    if "whose own settings (.git/config)" in why:
        return (
            "Write the repository in the static text (git -C repo status, cd repo && git "
            "status): git obeys the settings of whichever repository a value names"
        )
    if DIRECTORY_CODE in why:
        return (
            "Write the directory in the static text, or give it to the program as an "
            "argument (python3 -m http.server --directory {d}); python3 -P (or -I) does not "
            "import from the directory it runs in (cd {d} && python3 -P -m json.tool f)"
        )
    if why.startswith("in a command writing a file a value names"):
        return (
            "Write the file's name and source in the static text (curl -o page.html {url} "
            "with the URL checked in Python, cp a out.txt), or run no file after that write"
        )
    if "by its name alone" in why:
        return (
            "Write that file's contents in the static text, or write the value to a file that "
            "the program does not read by its name (and pass that file as data), or do that "
            "part in Python"
        )
    if why.startswith("written to the file"):
        return (
            "Pass the value to the script as an argument it reads as data (sh s.sh {x}, with "
            "the script written in the static text), or write the file from Python"
        )
    if why.startswith("a shell option"):
        return "Write the shell option in the static text, and choose among such options in Python"
    if "as option letters" in why:
        return (
            "Write the options in the static text with a '-' (tar -xf {archive}), and choose "
            "among options written there in Python"
        )
    if "that sudo" in why:
        return (
            "Drop -s and -i and let sudo run the command itself (sudo cmd {x}), or write the "
            "shell in the static text: sudo sh -c 'cmd \"$1\"' sh {x}"
        )
    if why.startswith("data of"):
        return (
            "Write the program so that every command it runs is a string literal of a "
            "program that reads its input as data (awk: system(\"date\"), print | \"sort\"; "
            "sed: no e), or do that part in Python"
        )
    if "network connection" in why:
        return (
            "Write the field as the whole target (> {f}), where the renderer checks its "
            "value, or check the path in Python"
        )
    if "shell variable" in why:
        return (
            "Use that variable only as data (a quoted argument such as \"$f\" of a program "
            "that reads it as data), or pass the value straight to the command that reads it"
        )
    if "with an upper-case NAME" in why:
        return (
            "Write the variable and its value in the static text, or give the value through "
            "the environment of subprocess.run(env=...) and name the variable alone where the "
            "program takes one (strace -E NAME, docker run -e NAME)"
        )
    if "a program the renderer does not know" in why:
        return (
            "Write the code in the static text and pass the value as data after it, or after "
            "--; if that option takes data for this program (a count, a file), build the "
            "argument list in Python: subprocess.run(['tool', '-c', x])"
        )
    if "an address of" in why:
        return (
            "Write the address in the static text and give the value to the program at its "
            "other end as data, or do that part in Python"
        )
    if "environment variable (NAME=value)" in why:
        return (
            "Write the variable's name in the static text and give its value through the "
            "environment of subprocess.run(env=...): docker run -e NAME, systemd-run -E NAME, "
            "ssh -o SendEnv=NAME"
        )
    if "NAME=value" in why:
        return (
            "Write the variable and its value in the static text: a program that runs a "
            "variable as code cannot take a value there safely"
        )
    if "use MODULE" in why:
        return (
            "Name the module in the static text, and pass the value as data after the "
            "program: perl -MFoo -e 'print $ARGV[0]' {x}"
        )
    if "two-argument open" in why:
        return (
            "Give perl the file on standard input (perl -ne '...' < {f}), or read the files "
            "with <<>> in a program written in the static text"
        )
    if "for loop whose variable" in why:
        return (
            "Name the loop's variable in lower case and do not export it (for f in {x}); give "
            "a program a variable through subprocess.run(env=...)"
        )
    if "quotes" in why:
        return _UNQUOTE
    if "comment" in why:
        return "Move it out of the comment (or end the comment with a newline first)"
    if "assignment" in why:
        return "Pass the value as an argument, or set it through env= of subprocess.run"
    if "printf" in why:
        return "Write the format in the static text: printf '%s\\n' {x}"
    if "command string" in why:
        return (
            "Write the command string in the static text and pass the value after it, as a "
            "positional parameter the script reads as data: sh -c 'cat -- \"$1\"' sh {x}"
        )
    if "the SQL of" in why:
        return (
            "Write the SQL in the static text, or run it from Python with sql(i'...') and a "
            "database driver, which passes each value as a parameter"
        )
    if "the program of make" in why or "the program of gmake" in why:
        return (
            "Write the makefile line in the static text, or do that part in Python: make "
            "expands $(shell cmd) in any value it reads as a makefile"
        )
    if "the program of" in why:
        return (
            "Write the program in the static text and pass the value as data it reads: "
            "python3 -c 'import sys; print(sys.argv[1])' {x}, awk -v v={x} '{print v}'"
        )
    if "remote command" in why:
        return (
            "Render the remote command for the remote shell first and pass it as one argument: "
            "subprocess.run(['ssh', host, sh(i'cat {x}')])"
        )
    if "joins its arguments" in why:
        return "Give the program its arguments as they are (watch -x), or do that part in Python"
    if "file of code a value names" in why:
        return (
            "Write the file's name in the static text (sh s.sh, make -f build.mk), or check "
            "in Python that the value names no standard input"
        )
    if "a value names" in why:
        return "Name the program in the static text, where the renderer knows what it reads"
    if why.startswith("an "):
        return "Do that part in Python, or pass the value to a command that takes it as data"
    if "for loop" in why:
        return "Write the loop variable's name in the static text"
    if "a part of a URL after" in why:
        return (
            "Write the field in the URL itself (wget https://h/u/{id}), where the renderer "
            "checks that the value stays in its part, or quote the value for its part in "
            "Python: urllib.parse.quote(value, safe='')"
        )
    if "an argument its program parses further" in why:
        return (
            "Write the field as that argument itself (kill {pid}, curl https://h/u/{id}), where "
            "the renderer checks the value; or check the value in Python"
        )
    if "in a pipeline with" in why:
        return (
            "Put that construct in a command of its own (after ';' or a newline), where no "
            "value's output reaches it, or compute that part in Python"
        )
    if "in a pipeline into" in why:
        return (
            "Write the program in the static text and pass the value after it, as an argument "
            "it reads as data: sh -c 'cat -- \"$1\"' sh {x}"
        )
    if "runs as code" in why:
        return (
            "Write that command or setting in the static text, and give values only to "
            "arguments the program reads as data (ssh -o ConnectTimeout={t}, git -c "
            "user.name={name})"
        )
    return _APART


def _fix_after(reason: str) -> str:
    """The fix to suggest for a field at or after a construct the lexer does not follow."""
    if "backslash right before" in reason:
        return "Remove the backslash: the renderer quotes the value itself"
    if "here-" in reason:
        return (
            "Pass the text on standard input instead, e.g. subprocess.run(sh(i'cat'), "
            "shell=True, input=text), or move the field before it"
        )
    return "Compute that part in Python and pass the result as a value, or move the field before it"


@lru_cache(maxsize=512)
def _analyse(strings: tuple[str, ...]) -> _Analysis:
    """Lex the static strings once, fields marked, and decide what each field may be."""
    count = len(strings) - 1
    if any(FIELD in string for string in strings):
        nul = "is in a template whose static text holds a NUL byte, which no command can carry"
        field = _Field(nul, "Remove the NUL byte from the static text", ARGUMENT, False)
        return _Analysis(lex(""), (), (field,) * count, "", nul)
    text = FIELD.join(strings)
    lexed = lex(text)
    fields = []
    for index in range(count):
        why = lexed.refusals.get(index)
        role, alone = lexed.fields.get(index, (ARGUMENT, False))
        if why is not None:
            fields.append(_Field(f"is {why}", _fix_for(why), role, alone))
        elif index not in lexed.fields:
            fields.append(
                _Field(
                    f"is at or after {lexed.stop_reason}: the renderer follows the shell's grammar "
                    "only up to there, so it cannot prove the value stays one word",
                    _fix_after(lexed.stop_reason),
                    role,
                    alone,
                )
            )
        elif lexed.altered.get(index) == "any":
            program = lexed.options.get(index) or lexed.assignments.get(index, "")
            why, fix = _altered(program, _parsed_in(lexed, index))
            fields.append(_Field(f"is in an expansion that {why}", fix, role, alone))
        else:
            fields.append(
                _Field(
                    None,
                    "",
                    role,
                    alone,
                    index in lexed.operands,
                    lexed.options.get(index, ""),
                    lexed.assignments.get(index, ""),
                    index in lexed.command_names,
                    lexed.glued.get(index, ""),
                    lexed.split.get(index),
                    lexed.altered.get(index, ""),
                    _parsed_in(lexed, index),
                )
            )
    placed = {item for span in lexed.spans for kind, item in span.parts if kind == "field"}
    for index, field in enumerate(fields):
        if field.why is None and index not in placed:  # never re-lexed: refuse, never guess
            fields[index] = field._replace(
                why="is somewhere the lexer could not check again after rendering",
                fix="Please report the template; until then, move the field to a plain argument",
            )
    tail = "" if lexed.stop is None else text[lexed.stop :]
    markers, offset = [], -1
    for string in strings[:-1]:
        offset += len(string) + 1
        markers.append(offset)
    spans = tuple(
        (
            span,
            next(int(item) for kind, item in span.parts if kind == "field"),
            bisect_left(markers, span.start),
            bisect_left(markers, span.end),
        )
        for span in lexed.spans
    )
    urls = tuple(
        tuple(pieces) for span in lexed.spans if (pieces := _url_pieces(span.parts)) is not None
    )
    arguments = tuple(
        (field, rule, tuple(pieces))
        for span in lexed.spans
        for pieces in [_pieces(span.parts)]
        for field in pieces
        if isinstance(field, int)
        for rule in lexed.rules.get(field, ())
    )
    return _Analysis(lexed, spans, tuple(fields), tail, _argv_problem(lexed), urls, arguments)


def _argv_problem(lexed: Lexed) -> str | None:
    """The first piece of shell syntax in the static text that argv cannot honour."""
    if lexed.stop is not None:
        return lexed.stop_reason
    if lexed.comments:
        return "a comment ('#')"
    for token in lexed.tokens:
        if isinstance(token, Operator):
            return "a newline" if token.text == "\n" else repr(token.text)
        if token.role == RESERVED:
            return f"the reserved word {token.parts[0][1]!r}"
        if token.role == ASSIGNMENT:
            return "an assignment (NAME=value before the command)"
        for kind, value in token.parts:
            if kind in _NEEDS_A_SHELL:
                return _NEEDS_A_SHELL[kind].format(value)
    return None


# The word parts argv cannot honour (literal text and fields are all it can).
_NEEDS_A_SHELL = {
    "active": "an unquoted {0!r} (a pattern, tilde, brace or history character)",
    "param": "a parameter expansion ({0})",
    "sub": "a command substitution ('$(')",
    "double": "an expansion inside double quotes",
}


# -- values ---------------------------------------------------------------------------------

_SAFE = re.compile(r"[\w@%+=:,./-]+", re.ASCII)


def _quote(text: str, always: bool) -> str:
    """``shlex.quote``, or single quotes whatever the text when ``always``."""
    if not always and _SAFE.fullmatch(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _word(value: object, interpolation: Any, position: int, renderer: str) -> str:
    """The text of one word, refused if unsafe: the f-string's text of the value
    (:func:`~ipy_istring.fields.value_text`, an exact ``str``), but a ``bytes`` or
    ``os.PathLike`` value's file name (``os.fsdecode``) and an iterable's refusal."""
    try:
        # (A str subclass is text, not a path: its f-string text, which for a str-mixin
        # Enum is Color.RED on 3.11+, read as an exact str, so none of its methods runs.)
        file_name = isinstance(value, os.PathLike | bytes) and not isinstance(value, str)
        if interpolation.conversion is None and not interpolation.format_spec:
            if file_name:
                text = _file_name(value)  # type: ignore[arg-type]
            elif isinstance(value, Iterable) and not (
                isinstance(value, str | bytearray | memoryview) or is_template(value)
            ):
                # A list, set, generator, Path.glob(), array... would be one word spelled
                # like its repr: never the command meant.
                raise refusal(
                    renderer,
                    field_text(interpolation, position),
                    f"is a {type(value).__name__}, which would become one word spelled like "
                    "Python's repr",
                    f"Write {{{interpolation.expression or '...'}:*}} to pass each item as its "
                    f"own word, or {{{interpolation.expression or '...'}!s}} for its str()",
                )
            else:
                text = value_text(value)
        else:
            if file_name and interpolation.conversion is None:
                value = _file_name(value)  # type: ignore[arg-type]
            text = format_field(value, interpolation, position, renderer, _SUPPORTED)
    except RecursionError:
        raise refusal(
            renderer,
            f"the value of {field_text(interpolation, position)}",
            "is nested too deeply to format",
            "Format it in Python first and pass the text",
        ) from None
    if "\0" in text:
        raise refusal(
            renderer,
            f"the value of {field_text(interpolation, position)}",
            "contains a NUL byte, which no command-line argument can carry",
            "Remove it from the value",
        )
    return text


def _file_name(value: os.PathLike[Any] | bytes) -> str:
    """``os.fsdecode(value)`` as an exact str, with no method of a subclass run: the path's
    ``__fspath__`` is its text (a ``bytes`` one decoded as the file system does)."""
    path = os.fspath(value)
    if isinstance(path, bytes):
        return bytes.decode(path, sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    return str.__str__(path)


# Iterables that are one value, not a sequence of words.
_NOT_SPREAD = (str, bytes, bytearray, memoryview, Mapping)


class _ItemField(NamedTuple):
    """An item of a spread, formatted with the field's conversion and no spec."""

    expression: str
    conversion: Any
    format_spec: str = ""


def _spread(value: object, interpolation: Any, position: int, renderer: str) -> list[str]:
    """The words of a ``{files:*}`` field: one per item of any non-string iterable."""
    if isinstance(value, _NOT_SPREAD) or not isinstance(value, Iterable):
        raise refusal(
            renderer,
            field_text(interpolation, position),
            f"spreads an iterable into words, but the value is a {type(value).__name__}",
            "Pass a list, tuple, set, generator or other iterable of items (a mapping's "
            "keys as .keys()), or drop ':*' to pass the value as one word",
        )
    item_field = _ItemField(interpolation.expression, interpolation.conversion)
    return [_word(item, item_field, position, renderer) for item in value]


def _values(t: Any, analysis: _Analysis, renderer: str) -> list[list[str] | str]:
    """Each field's text (a list of words for ``:*``), after the field's context is checked."""
    values: list[list[str] | str] = []
    for position, (interpolation, field) in enumerate(
        zip(t.interpolations, analysis.fields, strict=True), start=1
    ):
        if field.why is not None:
            raise refusal(renderer, field_text(interpolation, position), field.why, field.fix)
        if interpolation.format_spec == "*":
            if not field.alone or field.role == TARGET:
                raise refusal(
                    renderer,
                    field_text(interpolation, position),
                    "spreads into several words, so it must stand as words of its own "
                    "(not a redirection target)",
                    "Put a space (or the start or end) on both sides of the field",
                )
            words = _spread(interpolation.value, interpolation, position, renderer)
            if not words and field.role == COMMAND:
                raise refusal(
                    renderer,
                    field_text(interpolation, position),
                    "is the command name but its value has no items, so the next word "
                    "would become the command",
                    "Check that the iterable is not empty before rendering",
                )
            values.append(words)
        else:
            words = [_word(interpolation.value, interpolation, position, renderer)]
            values.append(words[0])
        names_command = field.role == COMMAND or field.names_command
        if names_command and field.alone and words and words[0] in CODE_COMMANDS:
            raise refusal(
                renderer,
                f"the value of {field_text(interpolation, position)}",
                f"is the command name {words[0]!r}, a builtin that reads its arguments as "
                "code, variable names or a format",
                "Write that command in the static text, where the renderer checks its arguments",
            )
        subject = f"the value of {field_text(interpolation, position)}"
        _check_altered(field, words, subject, renderer)
        if field.split is not None:
            # In an unquoted $( ) (or read from a pipe) the value comes out as the words the
            # shell splits it into (each expanded as a pattern): each is checked as a word
            words = [part for word in words for part in word.split()] or words
            if (field.option_of or field.assignment_of or field.operand) and field.split and any(
                letter in "*?[" for word in words for letter in word
            ):
                raise refusal(
                    renderer,
                    f"the value of {field_text(interpolation, position)}",
                    "holds a pattern character (* ? [) and stands in an unquoted $( ), whose "
                    "output the shell expands into file names, which the program may read as "
                    "options (a file named --checkpoint-action=exec=cmd ran cmd in tar)",
                    "Put the $( ) in double quotes (\"$(cmd {x})\"), or check the value in Python",
                )
        _check_word_start(field, words, subject, renderer)
        if field.glued and any(letter.isalpha() for word in words for letter in word):
            raise refusal(
                renderer,
                f"the value of {field_text(interpolation, position)}",
                f"holds a letter and completes an option written before it in the same word "
                f"(its name, or a cluster of letters), so {field.glued} would read the letters "
                "as options of their own, and options run commands (ssh -v{x} with "
                "x='oProxyCommand=cmd', tar --{x} with x='to-command=cmd')",
                "Write the option in the static text and give the value as its argument, in a "
                "word of its own or after '=' (ssh -o {x}, tar --file={x}); or choose among "
                "options written in the static text in Python",
            )
        if field.assignment_of and field.assignment_of not in ASSIGNING:
            setting = next((w for w in words if ENVIRONMENT_NAME.match(w)), None)
            if setting is not None:
                raise refusal(
                    renderer,
                    f"the value of {field_text(interpolation, position)}",
                    f"starts with an upper-case NAME=, as the system's programs name the "
                    f"environment variables they read, so {field.assignment_of}, which is not "
                    "a program known to read such a word as data, may read it as NAME=value, "
                    "a variable it sets for a command it runs (./configure CC=..., systemctl "
                    "set-environment, kubectl set env), and programs run variables such as "
                    "PAGER, BASH_ENV or LD_PRELOAD as code",
                    "Check the value in Python, or write the variable's name in the static text "
                    "and give its value through subprocess.run(env=...)",
                )
        assignment = next((w for w in words if "=" in w), None)
        if field.assignment_of in ASSIGNING and assignment is not None:
            runs = field.assignment_of in ("env", "sudo")  # else make
            raise refusal(
                renderer,
                f"the value of {field_text(interpolation, position)}",
                f"holds '=', so {field.assignment_of} would read {assignment!r} as "
                f"NAME=value, a variable it sets, not {'the command' if runs else 'a target'}: "
                + _VARIABLE_AS_CODE[runs],
                "Check the value in Python (it must not hold '='), or write the variable in "
                "the static text",
            )
    _check_joined_words(t, analysis, values, renderer)
    _check_urls(t, analysis, values, renderer)
    _check_arguments(t, analysis, values, renderer)
    return values


def _check_altered(field: _Field, words: list[str], subject: str, renderer: str) -> None:
    """Refuse a value holding a backslash that reaches a program reading options or
    NAME=value through dash's ``echo`` (``ssh "$(echo {x})"``), which reads ``\\055`` as
    ``-``: checking the value's own text for an option proves nothing there."""
    if field.altered == "echo" and any("\\" in word for word in words):
        program = field.option_of or field.assignment_of
        _, fix = _altered(program, field.parsed_in)
        raise refusal(
            renderer,
            subject,
            "holds a backslash and reaches an expansion through echo, whose output may not be "
            "the value (dash's echo reads \\055 as '-'), so "
            + (
                f"{program} may read it as an option or NAME=value"
                if program
                else f"{field.parsed_in} may read other text than the value checked"
            ),
            fix,
        )


def _parsed_in(lexed: Lexed, index: int) -> str:
    """The argument its program parses further that a field stands in, if any (``kill's
    process operand``)."""
    return next((rule.where for rule in lexed.rules.get(index, ())), "")


def _altered(program: str, parsed_in: str) -> tuple[str, str]:
    """Why a value may not reach, through an expansion whose text may be any (Lexed), the
    options of ``program`` or the argument ``parsed_in``; and what to write instead."""
    if program in NO_END_OF_OPTIONS:
        return f"{program} reads options from, " + _ALTERED, NO_END_OF_OPTIONS[program]
    if program:
        return (
            f"{program} reads options or NAME=value from, " + _ALTERED,
            f"Write -- before the expansion, so that {program} reads it as an operand, or "
            + _ALTERED_FIX,
        )
    return (
        f"stands in {parsed_in}, an argument its program parses further, " + _ALTERED,
        "Write the field in that argument itself (kill {pid}, not kill \"$(echo {pid} | tr "
        "...)\"), or " + _ALTERED_FIX,
    )


# Why a value may not reach a program through an expansion whose text may be any, and how.
_ALTERED = (
    "whose text may not be the value: a filter (tr , ' ', base64 -d), a command other than "
    "printf '%s\\n' printing it, a 'read' without -r (it drops backslashes), an IFS the "
    "template sets (IFS=, split 'h,-oProxyCommand=cmd') or several values joining ('-' and "
    "'oProxyCommand=cmd') may make an option or another argument of it, so checking the "
    "value proves nothing"
)
_ALTERED_FIX = (
    "print the value with printf '%s\\n' and read it with read -r, or check the value in Python"
)


def _check_word_start(field: _Field, words: list[str], subject: str, renderer: str) -> None:
    """Refuse ``words`` (a value's, or its word's as rendered) where the program of
    ``field.option_of`` would read one as an option (or find as its expression, ed as a
    command), or test as an operator."""
    option = next((w for w in words if _reads_as_option(w, field.option_of)), None)
    if field.option_of and option is not None:
        raise refusal(
            renderer,
            subject,
            ("has a word, as the shell splits it, that " if field.split is not None else "")
            + f"starts with {option[0]!r}, so {field.option_of} would read it as "
            + (
                "a shell command to run, whose output it reads as the file (also after --)"
                if option.startswith("!") and field.option_of in BANG_COMMAND_FILES
                else "a shell command to pipe its output to, not a file"
                if _pipes_to(option, field.option_of)
                else "an option, "
                "or as the start of its expression (also after --), which may run or "
                "delete (-exec, -delete, ! -name k -delete)"
                if field.option_of == "find"
                else f"an option, and {field.option_of} has options that run commands"
                if field.option_of in OPTION_CODE_PROGRAMS
                else "an option, and only the options of programs known to run no command "
                "from one (ls, cat, grep...) may come from a value"
            ),
            "Write ./ before a relative path (find ./{dir}, ed ./{file}, strace -o ./{log}), "
            "or check the value in Python"
            if field.option_of == "find"
            or field.option_of in BANG_COMMAND_FILES
            or _pipes_to(option, field.option_of)
            else NO_END_OF_OPTIONS.get(field.option_of)
            or f"Write -- before the field, so that {field.option_of} reads every word "
            "after it as an operand (or ./ before a relative path), or check the value in "
            "Python",
        )
    if field.operand and not TEST_OPERATORS.isdisjoint(words):
        raise refusal(
            renderer,
            subject,
            "is an operator of test (such as -v or !), where test would read it as one",
            "Compare in Python, or put the value where test reads an operand only "
            "(e.g. [ x = {y} ] rather than [ {y} ])",
        )


def _check_joined_words(
    t: Any, analysis: _Analysis, values: list[list[str] | str], renderer: str
) -> None:
    """Check the start of each word that a field starts and other fields or text complete,
    as rendered: a value that is empty or a lone '-' lets the next one supply the option
    (``ssh {a}{b}`` with '' and '-oProxyCommand=cmd', ``git ls-remote {a}-{b}`` with '-'
    and 'upload-pack=cmd' ran cmd; ``[ {a}{b} {c} ]`` with '-', 'v' read ``-v``)."""
    for span, first, _, _ in analysis.spans:
        field = analysis.fields[first]
        if len(span.parts) < 2 or span.parts[0][0] != "field" or field.split is not None:
            continue
        if not (field.option_of or field.operand):
            continue
        pieces = []
        for kind, item in span.parts:  # (up to an expansion, whose text is unknown here)
            if kind not in ("field", "lit", "active"):
                break
            value = values[item] if kind == "field" else item
            pieces.append(value if isinstance(value, str) else " ".join(value))
        word = "".join(pieces)
        subject = (
            f"the word that {field_text(t.interpolations[first], first + 1)} starts, "
            f"as rendered ({word!r}),"
        )
        _check_word_start(field, [word], subject, renderer)


def _check_arguments(
    t: Any, analysis: _Analysis, values: list[list[str] | str], renderer: str
) -> None:
    """A value in an argument that its program parses further must be read there as the
    template means (:func:`._shell_programs.argument_refusal`): ``ssh -J {x}`` runs a jump host
    through a shell, ``curl -d {x}`` reads ``@file``, ``git push origin {b}`` reads ``:main``."""
    for field, rule, pieces in analysis.arguments:
        value = values[field]
        words = value if isinstance(value, list) else [value]
        texts = [
            piece if isinstance(piece, str) else "" if isinstance(values[piece], list)
            else str(values[piece])
            for piece in pieces
        ]
        at = pieces.index(field)
        before, after = "".join(texts[:at])[rule.skip :], "".join(texts[at + 1 :])
        for word in words:
            refused = argument_refusal(rule, before, word, after)
            if refused is not None:
                raise refusal(
                    renderer,
                    f"the value of {field_text(t.interpolations[field], field + 1)}",
                    *refused,
                )


# What stands for an expansion of the template's own (`https://$HOST/...`) in the URL judged.
_EXPANSION = "expansion"


def _check_urls(
    t: Any, analysis: _Analysis, values: list[list[str] | str], renderer: str
) -> None:
    """A value after a URL's own static text in a word (``curl https://api.example/users/{id}``)
    must stay in the part of the URL it stands in, as in html() (:mod:`._url_parts`): curl
    and wget squash ``..`` (``../../admin/delete`` fetched ``/admin/delete``), and a value may
    add a query parameter or choose another host (``https://{sub}.example.com/`` with
    ``evil.example/?``).  The value stays one word either way: this is about the program's
    reading of the word."""
    for pieces in analysis.urls:
        if any(isinstance(values[p], list) for p in pieces if isinstance(p, int)):
            continue
        from ._url_parts import FIX, part_refusal  # (ada, loaded for the first URL word)

        raws = [value if isinstance(value, str) else "" for value in values]
        left = part_refusal(pieces, raws)
        if left is not None:
            field, why = left
            raise refusal(
                renderer,
                f"the value of {field_text(t.interpolations[field], field + 1)}",
                f"would make its word a {why}, to another path, host or parameter than the "
                "template's (curl and wget squash '..': a path segment '../../admin' fetched "
                "/admin)",
                FIX,
            )


def _url_pieces(parts: tuple[Part, ...]) -> list[str | int] | None:
    """The URL in a word's parts, from its scheme (static text and field indexes), if the word
    holds one before its first field; else None."""
    pieces = _pieces(parts)
    first = next((at for at, piece in enumerate(pieces) if isinstance(piece, int)), None)
    if first is None:
        return None
    before = "".join(str(piece) for piece in pieces[:first])
    start = URL_START.search(before)
    return None if start is None else [before[start.start() :], *pieces[first:]]


def _pieces(parts: tuple[Part, ...]) -> list[str | int]:
    """A word's parts as its static text and field indexes (an expansion as a stand-in)."""
    pieces: list[str | int] = []
    for kind, item in parts:
        if kind == "field":
            pieces.append(int(item))
        elif kind in ("lit", "active"):
            pieces.append(str(item))
        elif kind == "double":
            inner = item if isinstance(item, tuple) else (item,)
            pieces.append("".join(i if isinstance(i, str) else _EXPANSION for i in inner))
        else:
            pieces.append(_EXPANSION)
    return pieces


# Why a variable a value sets is code: for env and sudo (True), for make (False).
_VARIABLE_AS_CODE = {
    True: "programs run variables such as PAGER, GIT_SSH_COMMAND, BASH_ENV or LD_PRELOAD "
    "as code",
    False: "make expands it ($(shell cmd) runs cmd), pastes it into the recipes its shell "
    "runs and reads MAKEFLAGS as options such as --eval",
}


def _reads_as_option(word: str, program: str) -> bool:
    """Whether ``program`` (``""``: none that matters) would read ``word`` as an option
    (``+cmd`` too, for vim and less; ``!`` and ``(`` too, for find)."""
    if not program or word == "-":  # (a lone '-' is an operand: standard input)
        return False
    if program == "find" and word in _FIND_OPERATORS:
        return True  # find's expression starts there: `find {dir} -name k -delete` with '!'
    if program in BANG_COMMAND_FILES and word.startswith("!"):
        return True  # ed reads a file `!cmd` as the output of cmd, which a shell runs
    if _pipes_to(word, program):
        return True  # strace -o '|cmd' pipes its output to cmd, which a shell runs
    return word.startswith("-") or (word.startswith("+") and program in PLUS_COMMAND_PROGRAMS)


def _pipes_to(word: str, taker: str) -> bool:
    """Whether ``word``, the file argument of ``taker`` (``"strace -o"``: see
    ``PIPE_FILE_OPTIONS``), is a command the program pipes its output to (``|cmd``, ``!cmd``)."""
    return " " in taker and taker.split(" ")[0] in PIPE_FILE_OPTIONS and word[:1] in ("|", "!")


# Words that find reads as the start of its expression where a path may stand, as it does a
# word starting with '-': `find '!' -name keep -delete` deleted every other file in real find.
_FIND_OPERATORS = frozenset({"!", "(", ")", ","})


# -- the structural check -------------------------------------------------------------------


def _verify(
    command: str, analysis: _Analysis, values: list[list[str] | str], inserted: list[str], t: Any
) -> None:
    """Lex again each word of the rendered command that holds a value: it must end where the
    template's word ends, with the value as literal text exactly where its field stood.

    Only those words are lexed: between them the command is the template's static text, so
    the lexer's state at each is the one the template's analysis saw.  Any difference (a
    scanner bug, a quoting bug) becomes a ``RenderError`` naming the field, never a command.
    """
    moved = [0]  # moved[k]: how far the first k inserted values shifted the text after them
    for text in inserted:
        moved.append(moved[-1] + len(text) - 1)  # each replaced a one-character marker
    for span, field, before_start, before_end in analysis.spans:
        start = span.start + moved[before_start]
        end = span.end + moved[before_end]
        value = values[field]
        expected: list[tuple[Part, ...]]
        if isinstance(value, list):  # a spread: its words one after the other
            expected = [(("lit", word),) for word in value]
        elif len(span.parts) == 1:
            expected = [(("lit", value),)]
        else:
            expected = [_substitute_parts(span.parts, values)]
        at = start
        for index, parts in enumerate(expected):
            if index:
                if not command.startswith(" ", at):
                    break
                at += 1
            try:
                got, end_of_word = word_at(command, at)
                first_command = index == 0 and span.role == COMMAND
                if first_command and command_role(command, got, at, end_of_word) != COMMAND:
                    break
            except ValueError:
                break
            at = end_of_word
            if got != parts:
                break
        else:
            if at == end:
                continue
        raise refusal(
            "sh",
            field_text(t.interpolations[field], field + 1),
            "did not come out of the shell's lexer as the word the template promises",
            "The renderer refused it rather than run it; please report the template and value",
        )


def _substitute(tokens: Sequence[Token], values: list[list[str] | str]) -> list[Token]:
    """The template's tokens with each field replaced by its value: what a render lexes to."""
    out: list[Token] = []
    for token in tokens:
        if isinstance(token, Operator):
            out.append(token)
            continue
        parts = token.parts
        if len(parts) == 1 and parts[0][0] == "field":
            value = values[parts[0][1]]
            if isinstance(value, list):
                follower = ARGUMENT if token.role == COMMAND else token.role
                roles = [token.role] + [follower] * len(value)
                out.extend(Word(role, (("lit", item),)) for role, item in zip(roles, value))
                continue
        out.append(Word(token.role, _substitute_parts(parts, values)))
    return out


def _substitute_parts(
    parts: tuple[Part, ...], values: list[list[str] | str]
) -> tuple[Part, ...]:
    """A word's parts with its fields (also those in ``$( )``) replaced by their values."""
    out: list[Part] = []
    for kind, item in parts:
        if kind == "field":
            kind, item = "lit", values[item]
        elif kind == "sub":
            item = tuple(_substitute(item, values))
        elif kind == "double":
            item = tuple(
                ("sub", tuple(_substitute(part[1], values)))
                if isinstance(part, tuple) and part[0] == "sub"
                else part
                for part in item
            )
        if kind == "lit" and out and out[-1][0] == "lit":
            out[-1] = ("lit", str(out[-1][1]) + str(item))
        else:
            out.append((kind, item))
    return tuple(out)


def _lexes_like_template(command: str, template: object) -> bool:
    """Whether the whole rendered ``command`` lexes to the template's tokens with the values
    in place: the full form of :func:`_verify`'s check, for the tests."""
    t = as_template(template, renderer="sh")
    analysis = _analyse(t.strings)
    values = _values(t, analysis, "sh")
    rendered = lex(command)
    return (
        rendered.tokens == tuple(_substitute(analysis.lexed.tokens, values))
        and rendered.stop_reason == analysis.lexed.stop_reason
        and (rendered.stop is None or command[rendered.stop :] == analysis.tail)
    )


# -- the renderers --------------------------------------------------------------------------


def sh(template: object) -> str:
    """Render an i-string as a POSIX shell command line: each value exactly one word.

    ``sh(i'cat {file}')`` → ``"cat 'my file.txt'"``; ``{files:*}`` spreads an iterable.
    """
    t = as_template(template, renderer="sh")
    analysis = _analyse(t.strings)
    values = _values(t, analysis, "sh")
    inserted = [
        " ".join([_quote(word, field.role == COMMAND) for word in value])
        if isinstance(value, list)
        else _quote(value, field.role == COMMAND)
        for value, field in zip(values, analysis.fields, strict=True)
    ]
    pieces = [t.strings[0]]
    for text, string in zip(inserted, t.strings[1:], strict=True):
        pieces += (text, string)
    command = "".join(pieces)
    _verify(command, analysis, values, inserted, t)
    return command


def argv(template: object) -> list[str]:
    """Render an i-string as an argument list for ``subprocess.run(..., shell=False)``.

    ``argv(i'cp {src} {dst}')`` → ``['cp', src, dst]``: the static text is split into words as
    a POSIX shell would (quotes removed), each field is exactly one element, ``{files:*}`` one
    element per item.  Shell syntax that needs a shell to mean anything is refused.
    """
    t = as_template(template, renderer="argv")
    analysis = _analyse(t.strings)
    if analysis.argv_problem is not None:
        raise refusal(
            "argv",
            "the static text",
            f"uses {analysis.argv_problem}, which needs a shell, and argv() runs none: only "
            "a shell gives it a meaning, the program would receive it as literal text",
            "Use sh() with subprocess.run(..., shell=True), or remove it",
        )
    values = _values(t, analysis, "argv")
    words: list[str] = []
    for token in analysis.lexed.tokens:
        assert isinstance(token, Word)  # _argv_problem refused every operator
        parts = token.parts
        if len(parts) == 1 and parts[0][0] == "field":
            value = values[parts[0][1]]
            if isinstance(value, list):
                words.extend(value)
                continue
        # _argv_problem let through only literal text and fields; a spread stands alone.
        pieces = [values[item] if kind == "field" else item for kind, item in parts]
        words.append("".join(piece for piece in pieces if isinstance(piece, str)))
    return words
