"""A lexer for the part of the POSIX shell language where dash and bash read words alike.

``sh()`` and ``argv()`` accept a field only where this lexer can prove it is (part of) an
ordinary word: an argument, a redirection target or a command name.  The lexer follows the
token recognition rules of POSIX.1-2024 Shell Command Language §2.3 (quoting §2.2, the
reserved words of §2.4, the grammar of §2.10) for a deliberately small subset: simple
commands and pipelines joined by ``; & && || |`` and newlines, subshells, ``if``/``while``/
``until``/``for``/``{ }`` bodies, redirections to files, single and double quotes,
backslash escapes, ``$name``/``${name}`` and ``$( )``.  Everything else — here-documents,
arithmetic, backticks, ``${x...}`` operators, ``case``, bash-only syntax such as ``$'...'``,
``[[``, ``((``, ``<(``, ``&>`` or ``|&``, which dash reads differently — *stops* the lexer:
every field from that point on is refused.  An allow-list: a construct the lexer does not know
is never guessed at.

The template is lexed with each field marked by a NUL (no shell text can contain one); after
rendering, each word that holds a value is lexed again, and must hold the value exactly where
its field stood (see ``shell.py``).

This module imports nothing from IPython.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase
from functools import lru_cache
from glob import escape as glob_escape
from typing import Any, NamedTuple

from ._shell_programs import (
    CHOSEN_REPOSITORY,
    DATA_OPTION_PROGRAMS,
    DIRECTORY_CODE,
    ENVIRONMENT_NAME,
    EXPANDED,
    PLAIN_OPTION_PROGRAMS,
    REDIRECTION_TARGET,
    SHELLS,
    STDIN_FILES,
    VALUE_WRITERS,
    WRITING_PROGRAMS,
    ArgumentRule,
    CodeNaming,
    CommandWords,
    any_whole_word,
    argument_rule,
    assignment_reader,
    code_argument,
    command_run,
    database_script_files,
    directory_code_reader,
    environment_setter,
    find_actions,
    find_data_argument,
    glued_argument,
    implicit_code_reader,
    in_home_hidden,
    is_program_text,
    made_executable,
    names_no_code,
    naming_token,
    option_taker,
    output_files,
    pipe_file_option,
    positional_script,
    program,
    python_file_run,
    reads_by_name,
    reads_home_files,
    reads_program_from_stdin,
    reads_project_files,
    reads_response_files,
    restores_paths,
    runs_hooks_of_its_tree,
    runs_in_found_directories,
    runs_its_data,
    sets_git_source,
    stdin_script,
    unknown_input_reader,
    value_chooses_files,
    value_named_code_file,
    value_names_directory,
    value_names_output,
    value_picks_git_tree,
    waits_for_what_it_runs,
    writes_files_its_input_names,
    writes_git_tree,
    xargs_appended,
)

# Why a program outside the allow-list for standard input may not read a value there.
_NOT_KNOWN_DATA = (
    "which is not one of the programs known to read their input as data (many read it as "
    "code: a shell, a REPL, a build file)"
)

__all__ = [
    "ARGUMENT",
    "ASSIGNMENT",
    "CODE_COMMANDS",
    "COMMAND",
    "FIELD",
    "RESERVED",
    "TARGET",
    "TEST_OPERATORS",
    "URL_START",
    "Lexed",
    "Operator",
    "Part",
    "Span",
    "Token",
    "Word",
    "command_role",
    "lex",
    "word_at",
]

FIELD = "\0"
_MAX_DEPTH = 64  # nested $( ) and ( ): deeper is refused, never a RecursionError

# Roles of a word, from the grammar (§2.10): they are part of the structure compared.
COMMAND = "command"  # a command name (reserved words and aliases are recognised here)
ARGUMENT = "argument"
TARGET = "target"  # the file of a redirection
ASSIGNMENT = "assignment"  # NAME=value before the command name
RESERVED = "reserved"  # if, then, do, {, ! ...
LOOP_NAME = "loop name"  # the NAME of `for NAME in`
_LOOP_IN = "loop in"  # the word after `for NAME`, which must be a written `in`
# The word after `select`: bash's select loop takes a NAME there, and any other word is a
# syntax error in bash (nothing on that line runs) and an argument in dash, where `select`
# is an ordinary command: the lexer follows only that case.
_SELECT_NAME = "select name"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_CLOSED = "closed"  # after ')', 'fi', 'done', '}': only redirections and separators follow

_AS_CODE = "which the shell parses again as code"
_AS_NAMES = "which bash reads as variable names or arithmetic, where a[$(cmd)] runs cmd"
_REPARSING = {
    **dict.fromkeys(("eval", "trap", "alias", "fc"), _AS_CODE),
    **dict.fromkeys(
        (
            "let", "unset", "read", "declare", "typeset", "local", "export", "readonly",
            "mapfile", "readarray", "getopts", "wait",
        ),
        _AS_NAMES,
    ),
    # bash's completion builtins expand a word list again (compgen -W '$(cmd)') and run a
    # command or function (-C, -F); bind -x binds a key to a command; enable -f loads a
    # shared object's code.
    **dict.fromkeys(("compgen", "complete"), "which bash expands again or runs as code"),
    "bind": "which binds keys to code that bash runs (bind -x)",
    "enable": "which loads code from a shared object (enable -f)",
}  # fmt: skip
# Command names whose arguments the shell itself may read as code: a value may not be one.
CODE_COMMANDS = frozenset({*_REPARSING, "command", "builtin", "printf", "test", "["})
# Arguments that test and [ read as operators (POSIX test plus bash's and dash's own).
TEST_OPERATORS = frozenset(
    {"!", "(", ")", "=", "==", "!=", "<", ">", "-a", "-o", "-eq", "-ne", "-lt", "-le", "-gt"}
    | {"-ge", "-nt", "-ot", "-ef"}
    | {"-" + letter for letter in "abcdefghklnoprstuvwxzGLNOSR"}
)
_OPENERS = frozenset({"if", "then", "else", "elif", "while", "until", "do", "{", "!"})
_CLOSERS = frozenset({"fi", "done", "}"})
_COMPOUND_STARTS = frozenset({"if", "while", "until", "for", "{"})  # ended by a closer
# Reserved words (POSIX §2.4 and bash's own) whose grammar this lexer does not follow.
_UNFOLLOWED = frozenset(
    {"case", "esac", "in", "function", "coproc", "time", "[[", "]]", "((", "))"}
)
# Unquoted characters with a meaning inside a word: patterns, tilde and brace expansion,
# bash's history expansion.  A part of their own, so quoting differences are visible.
ACTIVE = frozenset("*?[]{}~!")
_EXPANDS = {
    "[": "a bracket pattern",
    "]": "a bracket pattern",
    "{": "bash's brace expansion",
    "}": "bash's brace expansion",
    "~": "tilde expansion",
    "!": "bash's history expansion",
}
# Operators recognised by longest match (§2.3 rule 2-3), with bash's extra ones so that they
# can be refused rather than misread as two POSIX operators.
_OPERATOR = re.compile(r"<<<|<<-|<<|>>|>\||>&|<&|<>|&>>|&>|&&|\|\||\|&|;;&|;;|;&|[;&|<>()]")
_REDIRECTIONS = frozenset({">", ">>", ">|", "<", "<>"})
# Operators that a command must follow: a newline after one is a linebreak, not a separator.
_NEEDS_A_COMMAND = frozenset({"|", "&&", "||"})
_BASH_OPERATORS = {
    "<<<": "a here-string ('<<<', bash only)",
    "&>": "'&>' (bash redirects both streams; dash runs the command in the background)",
    "&>>": "'&>>' (bash only)",
    "|&": "'|&' (bash only)",
    ";;": "';;' (a case statement)",
    ";&": "';&' (a case statement)",
    ";;&": "';;&' (a case statement)",
    ">&": "'>&' with a target other than a written file descriptor (a file in bash only)",
    "<&": "'<&' with a target other than a written file descriptor",
    "<<": "a here-document ('<<'), whose body the shell reads with other rules",
    "<<-": "a here-document ('<<-'), whose body the shell reads with other rules",
}
# bash's brace expansion (`{a,b}`, `{1..3}`) makes several words of one, where dash keeps the
# word as written: `sh {-c,} {x}` is `sh -c {x}` in bash.  A ',' or '..' anywhere between an
# unquoted '{' and '}' of a word (quoted or not: a superset) stops the lexer.
_BRACE_LIST = re.compile(r",|\.\.")
_BRACE_EXPANSION = (
    "bash's brace expansion ('{a,b}', '{1..3}'), which makes several words in bash and one "
    "in dash, so the renderer cannot tell which word is which program's argument"
)
_PARENTHESIS = "a '(' other than a subshell's (a function, '((', an array, a pattern)"
_BACKQUOTE = "a backquote command substitution, whose body has its own rules"
# (Not before '<' or '>': dash reads `2>&1>f` as `2>&` and an IO number 1, a syntax error.)
_DESCRIPTOR = re.compile(r"[ \t]*([0-9]+|-)(?=[ \t\n;&|)]|\Z)")
# Blanks, and line continuations after a blank: elsewhere a continuation would join two
# operators or a '$' and what follows into one token, so the word lexer stops there.
_BLANKS = re.compile(r"[ \t]+(?:\\\n[ \t]*)*")
_PLAIN = re.compile(r"[^ \t\n|&;<>()$`\\\"'\0*?\[\]{}~!]+")
# A word of plain characters and single-quoted strings only, up to a delimiter.  (One plain
# character per repetition: a run of them repeated, `(?:[^…]+|'…')+`, backtracked through every
# way to split the run when the word went on past it, as it does at a field: 2^n steps, and
# `curl http://127.0.0.1:8080/api/users/{id}` never finished.)
_SIMPLE_WORD = re.compile(
    r"(?:[^ \t\n|&;<>()$`\\\"'\0*?\[\]{}~!]|'[^'\0]*')+(?=[ \t\n|&;<>()]|\Z)"
)
_SINGLE_QUOTED = re.compile(r"'([^']*)'")
_NAME_PARAMETER = re.compile(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])")
_BRACED_PARAMETER = re.compile(r"\$\{(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])\}")
_DOUBLE_PLAIN = re.compile(r"[^\"\\$`\0]+")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
# bash's other assignment words, `NAME+=value` and `NAME[subscript]=value`, which dash reads as
# a command's name: `n+=x eval {a}` runs eval in bash, and a subscript is arithmetic.
_BASH_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\[|\+=)")
# In a list of the fields that may reach a command's input: the fields whose values became
# shell variables (an expansion in a command before it may print them).
_VARIABLES = -1
# In a command string's lexer, the fields of the values that chose where git fetches from
# before it (`git remote add o {url}; sh -c 'git pull o main; make'`), see note_script.
_GIT_SOURCE = -2
# Why a value choosing the tree a git command writes with its hooks on is refused.
_TREE_HOOKS = (
    "in a git command that writes the working tree from a revision, branch, patch or "
    "repository a value names, with git's hooks on: when the repository's core.hooksPath is "
    "in the tree (husky's .husky), git runs the hooks of the tree it has just written "
    "(post-checkout, post-merge, post-index-change), so the value chooses the code that runs"
)
# Why a value choosing the directory a later git command works in is refused, and the start
# of why one is for another program that runs code of that directory (see DIRECTORY_CODE).
_CHOSEN_DIRECTORY = (
    "the directory cd (or pushd, env -C, unshare --wd, find's starting point before -execdir) "
    "makes current for a git command, which works in " + CHOSEN_REPOSITORY
)
_CHOSEN_CODE_DIRECTORY = (
    "the directory cd (or pushd, env -C, unshare --wd, find's starting point before -execdir) "
    "makes current for {}, which runs " + DIRECTORY_CODE
)
# git named anywhere in a template's text (not `digit`), and the other programs that run code
# of their working directory (see directory_code_reader), as words.
_GIT_WORD = re.compile(r"\bgit\b")
_CHANGES_DIRECTORY = re.compile(r"(?<![\w.-])(?:cd|pushd)(?![\w.-])")
_DIRECTORY_CODE_WORD = re.compile(
    r"(?<![\w.-])(?:python|pypy|ipython|node|nodejs|npx|hg|R|Rscript|irb|yarn|yarnpkg)[\d.]*"
    r"(?![\w.-])"
)
# The variables of an expansion (`$f`, `${f}`, `$1`; `$(` gives "("), and those the system sets
# to a directory, which hold no value unless a loop of the text sets them.
_EXPANDED_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|.)")
_NO_VALUE_VARIABLES = frozenset(
    {"HOME", "PWD", "OLDPWD", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}
)
# A word that may give a value to a shell variable (`for f in`, `set --`, bash's `printf -v`).
_SETS_VARIABLES = re.compile(r"(?<![\w-])(?:for|set|printf[ \t]+-v)(?![\w-])")
# Builtins that read a line of a file into variables (`read -r v < f`).
_READS_LINES = re.compile(r"(?<![\w-])(?:read|mapfile|readarray)(?![\w-])")
#: Where a URL starts in a word: its scheme and `//`, at the word's start or after an option's
#: `=` (`--url=https://...`).
URL_START = re.compile(r"(?:^|(?<==))[A-Za-z][A-Za-z0-9+.-]*://")
# bash's `$_` (also `${_}`): the last argument of the command before, so every value that
# is an argument (or a command's name) becomes that variable: `true {x}; eval "$_"` ran x.
# Any `${_...}` counts, with an operator too (`${_:-x}`, `${_#}`, `${#_}`, `${!_}`, `${_@P}`).
_LAST_ARGUMENT = re.compile(r"\$\{?[#!]?_(?![A-Za-z0-9_])")
# `_` as a whole word: bash's arithmetic reads `$_` by that bare name (`(( _ ))`, `$(( _ + 1))`,
# `[[ _ -eq 1 ]]`), where its text a[$(cmd)] runs cmd.
_BARE_LAST_ARGUMENT = re.compile(r"(?<![A-Za-z0-9_$])_(?![A-Za-z0-9_])")
# A word that is one double-quoted parameter: its value is one word, as a field's is.
_QUOTED_PARAMETER = re.compile(r'"\$(?:\{?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9])\}?)"')
# The static start of a word (up to its first field) that a value may still turn into
# NAME=value: nothing, a name's start, or NAME= itself.
_MAY_ASSIGN = re.compile(r"(?:[A-Za-z_][A-Za-z0-9_]*(?:=.*)?)?\Z", re.DOTALL)
# Static characters that may touch a field inside one word: they combine with nothing.
_NEIGHBOURS = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:@%+=,-#"
)
_TOUCHING = "only letters, digits, _./:@%+=,-# or a quote may touch a field in one word"
# Word parts whose text the shell computes when it runs the command.
_EXPANSIONS = frozenset({"param", "sub", "double"})


Part = tuple[str, Any]  # (kind, text): see Word


class Word(NamedTuple):
    """A word and its role.  ``parts`` are ``(kind, value)`` pairs, adjacent literals merged:
    ``lit`` (text the shell takes as is: quoted, escaped or plain), ``active`` (one unquoted
    character of ``ACTIVE``), ``param`` (``$name`` as written), ``double`` (a double-quoted
    string holding expansions: its text chunks and ``param``/``sub`` parts), ``sub``
    (``$( )``: its tokens) and ``field`` (the field's index)."""

    role: str
    parts: tuple[Part, ...]


class Operator(NamedTuple):
    """An operator token, or ``"\\n"`` for a newline."""

    text: str


Token = Word | Operator


class Span(NamedTuple):
    """Where a word that holds a field starts and ends in the text, its role and parts."""

    start: int
    end: int
    role: str
    parts: tuple[Part, ...]


class Lexed(NamedTuple):
    """What lexing a text found.

    ``tokens`` up to ``stop`` (the offset where an unfollowed construct starts, or None);
    ``stop_reason`` describes that construct; ``refusals`` maps a field index to why it
    cannot stand where it is; ``fields`` says, per field index, the role of its word and
    whether it is a whole word; ``spans`` are the words that hold a field directly;
    ``operands`` the fields that are arguments of ``test``/``[`` (an operator is refused there);
    ``options`` maps the fields that start a word a program would read as an option, if the
    value starts with ``-``, to that program (one with options that run code);
    ``assignments`` maps the fields that are a whole word a program would read as
    ``NAME=value``, if the value holds ``=``, to that program (env, sudo, make);
    ``command_names`` are the fields that name the command ``command`` or ``builtin`` runs;
    ``comments`` tells whether the text has a comment; ``glued`` maps the fields that complete
    an option's name or cluster written in the static text (``ssh -v{x}``, ``tar --{x}``) to
    the program that would read a letter of the value as an option of its own; ``split`` maps
    the fields whose value a program gets as the words the shell splits it into to whether
    those are also expanded as patterns: inside an unquoted ``$( )`` (``ssh $(echo {x})`` with
    ``h -oProxyCommand=cmd``: True), or read from a pipe into a variable (``... | while read
    v; do git ls-remote "$v" r; done``: False).
    """

    tokens: tuple[Token, ...]
    stop: int | None
    stop_reason: str
    refusals: dict[int, str]
    fields: dict[int, tuple[str, bool]]
    spans: tuple[Span, ...]
    operands: frozenset[int]
    options: dict[int, str]
    assignments: dict[int, str]
    command_names: frozenset[int]
    comments: bool
    glued: dict[int, str]
    split: dict[int, bool]
    # the fields whose text a program gets through an expansion (`"$(echo {x})"`, a variable
    # `read` from a pipe) that may not be the value: "echo" (dash's echo reads backslash
    # escapes), "any" (a filter, `read` without -r, an IFS the text sets)
    altered: dict[int, str]
    # the fields in an argument their program parses further (``ssh -J {x}``), and how:
    # checked when rendered (:func:`._shell_programs.argument_refusal`)
    rules: dict[int, list[ArgumentRule]] = {}  # noqa: RUF012 (never changed)


class _Stop(Exception):
    """Raised inside the lexer at a construct it does not follow."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason


class _Lexer:
    """One pass over a text, recursive for ``$( )`` and ``( )`` (depth-limited)."""

    def __init__(self, text: str, nesting: int = 0) -> None:
        self.text = text
        self.nesting = nesting  # how many command strings this text is inside (sh -c 'sh -c')
        self.i = 0
        self.field = 0  # index of the next field marker
        self.refusals: dict[int, str] = {}
        self.fields: dict[int, tuple[str, bool]] = {}
        self.spans: list[Span] = []
        self.operands: set[int] = set()  # fields that are operands of test or [
        self.options: dict[int, str] = {}  # fields an option-reading program would take
        self.assignments: dict[int, str] = {}  # fields a NAME=value-reading program would take
        self.command_names: set[int] = set()  # fields naming what `command`/`builtin` runs
        self.glued: dict[int, str] = {}  # fields completing an option's name: see Lexed
        self.split: dict[int, bool] = {}  # fields a program gets split into words: see Lexed
        # how each field's text may change on its way to a command's output (see Lexed), and
        # the fields whose output an expansion gives a program that reads options
        self.output_kind: dict[int, str] = {}
        self.through_output: set[int] = set()
        self.rules: dict[int, list[ArgumentRule]] = {}  # fields in an argument parsed further
        self.comments = False
        self.stdin: tuple[int, ...] = ()  # the fields that may reach the current word's input
        # fields whose values became shell variables (a for loop's, set's positional
        # parameters): a later expansion may hold them
        self.variables: list[int] = []
        # whether the text may give a field's value to a variable (else expansions are not
        # checked for it: most templates have neither `for` nor `set`)
        # whether the text expands bash's `$_`, which may hold any argument's value
        self.last_argument = FIELD in text and _LAST_ARGUMENT.search(text) is not None
        self.may_set_variables = self.last_argument or (
            FIELD in text
            # (a bare `_` may be bash's `$_` read by arithmetic: `let m=_+1`)
            and (_SETS_VARIABLES.search(text) or _BARE_LAST_ARGUMENT.search(text)) is not None
        )
        # how expansions use them: why that is code, or (option taker, NAME=value reader)
        self.variable_uses: list[str | tuple[str, str] | ArgumentRule] = []
        # per level of ( ) and $( ) open: the first field of its current pipeline
        self.pipelines: list[int] = []
        # per level: where in command_log its current pipeline starts, and whether a `|` joined
        # it yet (its commands before a write run at the same time as the writer)
        self.pipeline_logs: list[int] = []
        self.pipe_seen: list[bool] = []
        # Files that a command writes with a field's value in them (`echo {x} > s.sh`, `... |
        # tee s.sh`), by name, and every command with its redirections, to find one that runs
        # such a file (`sh s.sh`, `. ./s.sh`, `./s.sh`, `sh < s.sh`) wherever it stands (a
        # loop may run it after the write).  Only when the text may write a file at all.
        # (and when cd may choose the directory of a program that runs its code: its commands
        # are recorded here too, see chosen_directory_refusal)
        self.may_write_files = FIELD in text and (
            ">" in text
            or any(writer in text for writer in VALUE_WRITERS)
            or bool(_CHANGES_DIRECTORY.search(text) and _DIRECTORY_CODE_WORD.search(text))
        )
        self.file_writes: dict[str, set[int]] = {}
        # the fields written to a file a value names by a program not known to run nothing
        # (`curl -o {f} {url}`, `cp a {f}`, `./process {x} > {f}`), with the position in
        # command_log of the first command that may read it after (0: any, in a loop) and the
        # writer's own (whose words are no reader of its output); and whether a command of
        # the template may run after a later one (a loop, a trap, a pipe or `&`)
        self.value_outputs: list[tuple[int, int, set[int]]] = []
        self.value_use_at: dict[int, int] = {}  # (value_uses' commands' positions, by id)
        self.command_at: dict[int, int] = {}  # (check_files': command_log's positions, by id)
        self.unordered = False
        # whether a command may run again (a loop): then a writer's program may read what it
        # wrote before (curl ~/.curlrc), and the positions of the writers whose program counts
        self.repeats = False
        self.rerun_writers: set[int] = set()
        # the fields of values that chose where git fetches from (`git remote add o {url}`)
        # that no git writer after them took yet (`git pull o main` writes what they chose)
        self.git_sources: list[int] = []
        # the fields choosing the tree a git command writes with its hooks on (check_files)
        self.tree_hooks: set[int] = set()
        # the fields that are a command's argument word alone (`{f}`, not `--source={f}`), or
        # after a static `./` (`./{f}`, a path)
        self.operand_words: set[int] = set()
        # the fields of a directory `cd` (or pushd) makes current: a git command there obeys
        # that repository's own settings (check_files)
        self.directories: set[int] = set()
        self.target_fields: set[int] = set()  # (the fields of redirections' targets)
        self.written_index = _PathIndex()  # (file_writes' names, for fields_read)
        # per `for` loop's NAME, the fields of its word list; the names `export` (or declare
        # -x) puts in the environment; the names assigned an expansion (`x=$1`)
        self.loops: dict[str, list[int]] = {}
        self.exported: set[str] = set()
        self.copied: set[str] = set()
        # per file name: the commands (their words, their redirections) that name it
        self.file_uses: dict[
            str, list[tuple[tuple[str | None, ...], tuple[tuple[str, str], ...]]]
        ] = {}
        self.uses_index = _PathIndex()  # (file_uses' names, for check_files)
        # the commands with a value among their words, which may name any file
        self.value_uses: list[tuple[tuple[str | None, ...], tuple[tuple[str, str], ...]]] = []
        self.code_namings: list[tuple[CodeNaming, list[str]]] = []  # (check_files': per command)
        # (check_files': the commands by the runs of word characters in their words, and under
        # "" those with SQL that reads files, which any file's reader may be)
        self.commands_by_token: dict[str, list[int]] = {}
        # every command so far (its words); per compound command open, where its commands
        # start there; the commands of the one just closed, which a redirection after its
        # closer (`{ sh; } < f`, `done < f`) is theirs; the input redirections of an `exec`
        # without a command (`exec < f`, `exec 3< f`), which are every command's after it
        self.command_log: list[tuple[str | None, ...]] = []
        self.made_executable: list[str] | None = None  # (executables(), once all are read)
        self.compound_starts: list[int] = []
        self.closed_compound: tuple[tuple[str | None, ...], ...] = ()
        self.exec_inputs: list[tuple[tuple[str, str], ...]] = []
        # per variable, the values written in the static text that it is assigned (`f=s.sh`)
        self.assigned: dict[str, set[str]] = {}
        # command strings (`sh -c S`, `eval S`, `trap S`) whose commands the lexer cannot follow
        self.unfollowed: list[str] = []
        # the programs the template runs that read files as code by name alone (make's Makefile)
        self.implicit_readers: set[str] = set()
        # the words that put a variable programs may read as naming code in the environment
        # (`PERL5OPT=-Mm`, `NODE_OPTIONS='-r ./x.js'`, `PATH=.:$PATH`), by their variable
        self.environment: dict[str, str] = {}
        # the command words of every command the template runs ("" for a value or expansion),
        # and the programs that finally run (past env, sudo, timeout...)
        self.commands_run: set[str] = set()
        self.programs_run: set[str] = set()
        # File names written inside another word, after '=' or an option's letter (`BASH_ENV=f`,
        # `make --file=f`, `ssh -Ff`): per name, that word.
        self.embedded: dict[str, str] = {}
        # per level of `( )`/`$( )` nesting: the assignments before the current command that
        # name the standard input as a file (`BASH_ENV=/dev/stdin bash -c :`)
        self.stdin_variables: dict[int, list[str]] = {}
        # such assignments by name, and those the template exports (in the environment of
        # every command after: `export BASH_ENV=/dev/stdin; ... | bash -c :`)
        self.stdin_assigned: dict[str, str] = {}
        self.stdin_exported: list[str] = []
        # File names that a command inside `$( )`, or `read`, brings back into the shell, whose
        # expansions may then hold what a value wrote there (`eval "$(cat f)"`).
        self.read_back: set[str] = set()
        self.substitutions = 0  # how many `$( )` the lexer is inside
        if self.may_write_files and ("$(" in text or _READS_LINES.search(text)):
            self.may_set_variables = True  # (the expansions' uses are checked at the end)

    def refuse(self, index: int, why: str) -> None:
        self.refusals.setdefault(index, why)

    def refuse_near_git(self, indexes: Iterable[int]) -> None:
        """Refuse the fields of a directory a command runs another in (``env -C {d}``, find's
        starting point before ``-execdir``) when the text names git anywhere, or another
        program that runs code of its working directory (``python3``, ``node``): the runner's
        command may be it, and the words of ``env --chdir={d}`` hide it from the lexer."""
        if _GIT_WORD.search(self.text):
            why = _CHOSEN_DIRECTORY
        elif found := _DIRECTORY_CODE_WORD.search(self.text):
            why = _CHOSEN_CODE_DIRECTORY.format(found.group())
        else:
            return
        for index in indexes:
            self.refuse(index, why)

    def new_pipeline(self) -> None:
        """Start this level's next pipeline, after a separator that waits for the last."""
        self.pipelines[-1] = self.field
        self.pipeline_logs[-1] = len(self.command_log)
        self.pipe_seen[-1] = False

    def pop_pipeline(self) -> None:
        """Close this level's pipeline, at its end."""
        self.pipelines.pop()
        self.pipeline_logs.pop()
        self.pipe_seen.pop()

    # -- commands -------------------------------------------------------------------------

    def commands(
        self, depth: int, closing: bool, out: list[Token], stdin: tuple[int, ...] = ()
    ) -> None:
        """Tokens until the end (or, if ``closing``, the ``)`` that ends this level).
        ``stdin``: the fields whose output may reach this level's standard input (a
        subshell or ``$( )`` reads the standard input of the command it stands in)."""
        if depth > _MAX_DEPTH:
            raise _Stop(self.i, f"parentheses nested more than {_MAX_DEPTH} deep")
        text = self.text
        n = len(text)
        position = COMMAND  # the role the next word would have
        loop_header = False  # inside `for NAME in ...` up to its separator
        loop_name = ""  # the NAME of the last `for NAME in`
        via_command = False  # the simple command so far started with `command` or `builtin`
        redirect = ""  # the pending redirection operator, whose target comes next
        files: list[tuple[str, str]] = []  # the command's redirections to written file names
        command: list[str | None] = CommandWords()  # the simple command so far (None: a value)
        # per word of `command`: an expansion ($x, $( ), "$x"), as its text as written (for
        # the files it names: `tee "$HOME/.perldb"`), else False
        expanded: list[bool | str] = []
        # The fields whose output may reach this command's standard input: those of the
        # commands before it in its pipeline, and of any pipeline into a compound command or
        # subshell it is part of (every command of `{ ...; }` reads the group's input).
        piped: list[int] = list(stdin)
        first_field = self.field  # the first field of this command
        groups: list[int] = []  # the first field of each compound command open (`{`, `if`...)
        inputs: list[list[int]] = []  # the standard input of each compound command open
        self.pipelines.append(self.field)  # the first field of this level's pipeline
        self.pipeline_logs.append(len(self.command_log))
        self.pipe_seen.append(False)
        while True:
            match = _BLANKS.match(text, self.i)
            if match:
                self.i = match.end()
            if self.i >= n:
                if closing:
                    raise _Stop(self.i, "an unclosed '(' or '$('")
                if redirect:
                    raise _Stop(self.i, f"a redirection {redirect!r} with no target")
                self.check_pipe(
                    piped, [] if loop_header else command, expanded, first_field, files
                )
                self.pop_pipeline()
                return
            c = text[self.i]
            if c == "\n" and out and isinstance(out[-1], Operator) and (
                out[-1].text in _NEEDS_A_COMMAND
            ):
                # A newline (or a comment's end) after '|', '&&' or '||' is a linebreak
                # (§2.10: `pipe_sequence '|' linebreak command`): the pipeline or list goes on
                # on the next line, so nothing is reset (`echo {x} |⏎sh` ran the value).
                self.i += 1
                continue
            if c == "\n":
                if position == _SELECT_NAME:
                    raise _Stop(self.i, "bash's select loop")
                if redirect:
                    raise _Stop(self.i, f"a redirection {redirect!r} with no target")
                out.append(Operator("\n"))
                self.i += 1
                self.check_pipe(
                    piped, [] if loop_header else command, expanded, first_field, files
                )
                position, loop_header, command, expanded = COMMAND, False, CommandWords(), []
                piped = list(inputs[-1] if inputs else stdin)
                if not groups:
                    self.new_pipeline()
                first_field = self.field
                continue
            if c == "#":  # a token that starts with '#' starts a comment (§2.3 rule 10)
                end = text.find("\n", self.i)
                end = n if end < 0 else end
                self.comments = True
                while (marker := text.find(FIELD, self.i, end)) >= 0:
                    self.refuse(self.field, "inside a shell comment, so the shell never sees it")
                    self.field += 1
                    self.i = marker + 1
                self.i = end
                continue
            operator = _OPERATOR.match(text, self.i)
            if operator and position == _SELECT_NAME:
                raise _Stop(self.i, "bash's select loop")
            if operator:
                op = operator.group()
                start = self.i
                if op in (">&", "<&"):
                    descriptor = _DESCRIPTOR.match(text, operator.end())
                    if descriptor and not redirect:  # `2>&1`, `>&-`: a static descriptor
                        out += (Operator(op), Word(TARGET, (("lit", descriptor.group(1)),)))
                        self.i = descriptor.end()
                        continue
                if op in _BASH_OPERATORS:
                    raise _Stop(start, _BASH_OPERATORS[op])
                if redirect and op == "(":
                    raise _Stop(start, f"process substitution ('{redirect}(', bash only)")
                if redirect:
                    raise _Stop(start, f"a redirection {redirect!r} with no target")
                self.i = operator.end()
                if op == "(":
                    after_word = start and text[start - 1] not in " \t\n;&|("
                    if position != COMMAND or after_word or text.startswith("(", self.i):
                        raise _Stop(start, _PARENTHESIS)
                    out.append(Operator("("))
                    start = len(self.command_log)
                    self.commands(depth + 1, True, out, tuple(piped))
                    self.closed_compound = tuple(self.command_log[start:])
                    out.append(Operator(")"))
                    position = _CLOSED
                elif op == ")":
                    if not closing:
                        raise _Stop(start, "a ')' that closes nothing")
                    self.alter_passed(piped, [] if loop_header else command, first_field)
                    self.check_pipe(
                        piped, [] if loop_header else command, expanded, first_field, files
                    )
                    self.pop_pipeline()
                    return
                elif op in _REDIRECTIONS:
                    out.append(Operator(op))
                    redirect = op
                else:  # a separator
                    out.append(Operator(op))
                    # (`sh s.sh & cp a {f}`: the two run at once, as do `sh s.sh | cp a {f}`,
                    # but not `sh s.sh | cat; cp a {f}`: the shell waits for a pipeline's end)
                    self.unordered = self.unordered or op == "&"
                    self.pipe_seen[-1] = self.pipe_seen[-1] or op == "|"
                    read = self.check_pipe(
                        piped, [] if loop_header else command, expanded, first_field, files
                    )
                    if op == "|":
                        self.alter_passed(piped, command, first_field)
                        piped = [*piped, *range(first_field, self.field), *read]
                        if any(expanded) and _VARIABLES not in piped:
                            piped.append(_VARIABLES)  # `echo "$f" | sh`: what a variable holds
                    else:
                        piped = list(inputs[-1] if inputs else stdin)
                        if not groups:
                            self.new_pipeline()
                    position, loop_header, command, expanded = COMMAND, False, CommandWords(), []
                    first_field = self.field
                continue
            start_field = self.field
            word_start = self.i
            if position == _CLOSED and not redirect:
                raise _Stop(word_start, "a word after a closing ')', 'fi', 'done' or '}'")
            self.stdin = tuple(piped)  # for a `$( )` in the word
            parts = self.word(depth)
            if (
                not redirect
                and self.i < n
                and text[self.i] in "<>"
                and text[word_start : self.i].isdigit()
            ):  # an IO number (`2>&1`, `3<f`): part of the redirection, not a word
                out.append(Word(ARGUMENT, parts))
                continue
            if position == _SELECT_NAME:
                decoded = "".join(str(item) for _, item in parts)
                if start_field < self.field or _NAME.match(decoded):
                    raise _Stop(word_start, "bash's select loop")
                position = ARGUMENT
            if position == _LOOP_IN and not redirect:
                if text[word_start : self.i] != "in":
                    raise _Stop(word_start, "a for loop without a written 'in'")
                position = ARGUMENT
            role = TARGET if redirect else position
            if role == COMMAND:
                role = self.command_role(parts, word_start)
            if role == RESERVED:
                word = text[word_start : self.i]
                if word in _COMPOUND_STARTS:
                    groups.append(first_field)
                    inputs.append(piped)
                    self.compound_starts.append(len(self.command_log))
                elif word in _CLOSERS and groups:
                    first_field = groups.pop()  # a pipe after it takes the whole compound
                    piped = inputs.pop()
                    start = self.compound_starts.pop()
                    self.closed_compound = tuple(self.command_log[start:])
                if word in ("for", "while", "until"):
                    # (a command before may run after one after it, or again)
                    self.unordered = self.repeats = True
                if word == "for":
                    loop_header, position = True, LOOP_NAME
                elif word in _OPENERS:
                    position = COMMAND
                else:
                    position = _CLOSED
            elif role == COMMAND:
                position = _SELECT_NAME if text[word_start : self.i] == "select" else ARGUMENT
            elif role == LOOP_NAME:
                position = _LOOP_IN
                loop_name = text[word_start : self.i]
            if role == COMMAND:
                command, expanded = CommandWords(), []
                via_command = False  # whether `command` or `builtin` came before
            dynamic = any(kind in _EXPANSIONS for kind, _ in parts)
            if role in (COMMAND, ARGUMENT):
                static = all(kind in ("lit", "active") for kind, _ in parts)
                command.append("".join(str(item) for _, item in parts) if static else None)
                expanded.append(_shown_word(parts) if dynamic else False)
                while command and (
                    command[0] in ("command", "builtin")
                    or (command[0] in ("-p", "--") and role == ARGUMENT and len(command) == 1)
                ):  # `command eval x` and `command -p eval x` are still eval
                    del command[0], expanded[0]
                    via_command = True
                if via_command and command == [None] and role == ARGUMENT:
                    # `command {x} ...`: the value names the command, as in command position
                    self.command_names.update(range(start_field, self.field))
                if command[:1] in (["set"], ["shopt"]) and _keyword_mode(command):
                    raise _Stop(
                        word_start,
                        "bash's keyword mode (set -k, set -o keyword), in which an argument "
                        "NAME=value of any later command is a variable of that command",
                    )
                if command[:1] in (["set"], ["shopt"]) and _keyword_mode(command, "a"):
                    raise _Stop(
                        word_start,
                        "the shell's allexport mode (set -a, set -o allexport), in which every "
                        "variable a value sets is in the environment of the commands after it",
                    )
                if command[:1] == ["shopt"] and command[-1] == "lastpipe":
                    raise _Stop(
                        word_start,
                        "bash's lastpipe option, which runs the last command of a pipeline in "
                        "the shell itself, so that a variable `read` sets there keeps what the "
                        "pipe brought for the commands after it",
                    )
                if role == ARGUMENT and _exports(command) and self.may_write_files:
                    self.note_environment(text[word_start : self.i])  # (`export PATH=.:$PATH`)
                if role == ARGUMENT and _exports(command) and command[-1]:
                    self.exported.add(command[-1].partition("=")[0])
                    variable, equals, file = command[-1].partition("=")
                    if equals and file in STDIN_FILES:  # `export BASH_ENV=/dev/stdin`
                        self.stdin_exported.append(command[-1])
                    elif not equals and variable in self.stdin_assigned:  # `export BASH_ENV`
                        self.stdin_exported.append(self.stdin_assigned[variable])
                if command[:1] in (["alias"], ["hash"]):
                    raise _Stop(
                        word_start,
                        f"{command[0]!r}, after which a command's name may run another program "
                        "(dash expands aliases in scripts, bash's hash -p maps a name to any file)",
                    )
                if self.may_set_variables and _arithmetic_names(command, text[word_start : self.i]):
                    raise _Stop(
                        word_start,
                        f"bash's {command[0]} with a variable holding a value, where bash's "
                        "arithmetic may read the variable by its bare name and evaluate its text "
                        "(let m=n+1, declare -i, a subscript a[n]: a value a[$(cmd)] runs cmd)",
                    )
                if command[:1] in (["history"], ["fc"]):
                    raise _Stop(
                        word_start,
                        f"bash's {command[0]!r}, whose history list is code that fc runs again "
                        "(history -s stores a command, fc -s runs it)",
                    )
                if command[:1] in (["mapfile"], ["readarray"]) and _callback(command):
                    raise _Stop(
                        word_start,
                        f"{command[0]} -C, which evaluates its callback with each line it reads "
                        "appended as code",
                    )
            if loop_header and role == ARGUMENT and parts == (("lit", "do"),):
                raise _Stop(word_start, "'do' with no ';' or newline before it")
            if role == ARGUMENT and start_field < self.field and not loop_header:
                # (a for loop's words are no program's arguments: they become its variable,
                # checked where an expansion uses it)
                indexes = range(start_field, self.field)
                direct = [index for index in indexes if ("field", index) in parts]
                nested = [index for index in indexes if index not in direct]
                if direct and (len(parts) == 1 or parts[:1] == (("lit", "./"),) == parts[:-1]):
                    self.operand_words.update(direct)  # (no option's name glued before it)
                self.alter(direct, _emits_arguments(command))  # (those in a `$( )`: its own)
                self.check_builtin(command, indexes, _prefix(parts))
                if self.may_write_files and value_names_output(command, _prefix(parts)):
                    # (`curl -o {f} {url}; sh s.sh` with s.sh: a value may name any file)
                    files += [(">", name) for name in _VALUE_PATHS]
                if value_names_directory(command, _prefix(parts)):
                    self.refuse_near_git(indexes)  # (`env -C {d} git status`, as `cd {d}`)
                if (  # (`ssh "$(echo {x})"`: its output; `"x$(…)"` starts with x)
                    start_field in self.options
                    and ("field", start_field) not in parts
                    and _shown_word(parts).startswith("$")
                ):
                    self.through_output.update(indexes)
                    if len(indexes) > 1:  # (only the first is checked, and '' or '-' joins)
                        self.alter(indexes, "any")
                self.check_assignment(command, indexes, parts)
                self.check_option_name(command, parts)
                if (rule := argument_rule(command, _quoted_prefix(parts))) is not None:
                    for index in indexes:
                        self.rules.setdefault(index, []).append(rule)
                    self.check_substituted_rule(rule, parts, nested)
                if nested and _in_url(parts):
                    for index in nested:
                        self.refuse(index, f"in a command substitution in {_IN_URL}")
            if role == ARGUMENT and piped and dynamic and command:
                self.check_expansion(piped, command, text[word_start : self.i], parts)
            if role == TARGET and (lead := _socket_lead(parts)) is not None:
                self.check_target(parts, range(start_field, self.field), piped, lead)
            if self.may_set_variables and dynamic and role in (COMMAND, ARGUMENT):
                self.check_variables(command, role, parts, text[word_start : self.i])
            if role == ASSIGNMENT and dynamic:
                self.check_assigned_expansion(piped, text[word_start : self.i], "")
            if role == COMMAND:  # `BASH_ENV=$1 bash -c :`: the command's environment
                for token in _prefix_assignments(out):
                    shown = _shown_word(token.parts)
                    self.check_assigned_expansion(piped, shown, "in the environment of a command")
            if loop_header and role == ARGUMENT and start_field < self.field:
                self.loops.setdefault(loop_name, []).extend(range(start_field, self.field))
            if role == ASSIGNMENT and dynamic:
                self.copied.add(text[word_start : self.i].partition("=")[0])  # `x=$1`
            if start_field < self.field and (
                (role == ARGUMENT and (loop_header or command[:1] == ["set"] or _printf_v(command)))
                or (self.last_argument and role in (COMMAND, ARGUMENT))
            ):  # `for f in {x}`, `set -- {x}`, `cmd {x}` before `$_`: the values become variables
                self.add_variables(range(start_field, self.field))
            if self.i < n and text[self.i] in "<>" and role != TARGET:
                # A word touching '<' or '>' may be read as a file descriptor number.
                for index in range(start_field, self.field):
                    self.refuse(index, "touching a redirection operator")
            alone = len(parts) == 1
            for kind, item in parts:
                if kind == "sub":  # its output is split into words and expanded as patterns
                    self.split.update(dict.fromkeys(_nested_fields(item), True))
            for index in range(start_field, self.field):
                self.note_field(index, role, alone, parts)
            if any(kind == "field" for kind, _ in parts):
                self.spans.append(Span(word_start, self.i, role, parts))
            if role == ASSIGNMENT and self.may_write_files:
                self.note_embedded(text[word_start : self.i])  # `BASH_ENV=f bash -c :`
                self.note_environment(text[word_start : self.i])
            if role == ASSIGNMENT and all(kind == "lit" for kind, _ in parts):
                assigned = "".join(str(item) for _, item in parts)
                variable, _, value = assigned.partition("=")
                self.assigned.setdefault(variable, set()).add(value)
                if assigned.partition("=")[2] in STDIN_FILES:  # `BASH_ENV=/dev/stdin bash`
                    self.stdin_variables.setdefault(len(self.pipelines), []).append(assigned)
                    self.stdin_assigned[assigned.partition("=")[0]] = assigned
                    if ENVIRONMENT_NAME.match(assigned):  # (upper-case: the caller may export it)
                        self.stdin_exported.append(assigned)
            if role == TARGET and all(kind in ("lit", "active") for kind, _ in parts):
                # (a tilde prefix too, named as written: `> ~/s.sh` and `sh ~/s.sh` are one
                # file, and `~/.lesskey` ends as less's key file does)
                files.append((redirect, "".join(str(item) for _, item in parts)))
            elif role == TARGET and (dynamic_target := _expanded_target(parts)) is not None:
                # (`> "$HOME/.gitconfig"`: an expansion may be $HOME, so the path is checked
                # as `~/.gitconfig` would be, by the name as written)
                files.append((redirect, dynamic_target))
            elif role == TARGET and start_field < self.field:
                # (`echo {x} > {out}; sh s.sh` with s.sh: a value may name any file)
                self.target_fields.update(range(start_field, self.field))
                files += [(redirect, name) for name in _VALUE_PATHS]
            out.append(Word(role, parts))
            redirect = ""

    def check_builtin(self, command: list[str | None], indexes: range, prefix: str) -> None:
        """Refuse fields in the arguments of builtins that read them again as code or as
        variable names (bash runs the code in an array subscript ``a[$(cmd)]``), and of
        programs that do (``sh -c``, ``python -c``, ``awk``..., see :mod:`._shell_programs`).
        ``prefix`` is the field's word's static text before its first field."""
        name = command[0] if command else None
        why = _builtin_code(command)
        if why is None and name in ("test", "["):
            self.operands.update(indexes)
            return
        if why is None:
            why = code_argument(command, prefix)
            taker = pipe_file_option(command, prefix) if prefix else option_taker(command)
            reader = None
            if why is None:  # `sh -c 'eval "$1"' sh {x}`: the string's use of its parameter
                why, inner_taker, reader = _positional_use(command, self.nesting)
                taker = taker or (None if prefix else inner_taker or None)
                for rule in _positional_rules(command, self.nesting):
                    for index in indexes:  # (`bash -c 'echo > "$1"' sh {x}`: checked there)
                        self.rules.setdefault(index, []).append(rule)
            if taker is not None:
                self.options[indexes[0]] = taker
            if reader and len(indexes) == 1 and not prefix:
                self.assignments.setdefault(indexes[0], reader)
            if why is None:
                return
        for index in indexes:
            self.refuse(index, why)

    def check_option_name(self, command: list[str | None], parts: tuple[Part, ...]) -> None:
        """Record the fields that complete an option written in the static text, before any
        '=' of its word: the value of ``ssh -v{x}``, ``ssh -{x}``, ``tar --{x}``, ``tar -{x}f``
        is read as option letters (or a long option's name) of its own, so ``oProxyCommand=cmd``
        or ``to-command=cmd`` runs cmd.  Checked when rendered: a value with no letter stays
        accepted (``kill -{n}``, ``make -j{n}``), and so does the argument of a letter the
        tables know to take one (``gcc -I{dir}``, ``ssh -p{port}``)."""
        if not parts or parts[0][0] != "lit" or not str(parts[0][1]).startswith("-"):
            return
        taker = option_taker(command)
        if taker is None or glued_argument(command, _prefix(parts)):
            return
        for kind, item in parts:
            if kind == "field":
                self.glued[int(item)] = taker
            elif kind == "lit" and "=" in str(item):
                return  # (a value after '=' is the option's argument)

    def check_assignment(
        self, command: list[str | None], indexes: range, parts: tuple[Part, ...]
    ) -> None:
        """Refuse fields in a word that env, sudo or make would read as ``NAME=value``, a
        variable it sets (programs run PAGER, GIT_SSH_COMMAND, BASH_ENV, make's CC as code);
        a field that is the whole word is refused later if its value holds ``=``."""
        prefix = _prefix(parts)
        reader = assignment_reader(command, prefix)
        if reader is None and len(parts) == 1:
            # `./configure {x}`: refused in shell.py if the value starts with NAME=
            setter = environment_setter(command, "X=")
            if setter is not None:
                self.assignments.setdefault(indexes[0], setter)
            return
        if reader is None:
            setter = environment_setter(command, prefix)
            for index in indexes if setter is not None else ():
                self.refuse(
                    index,
                    f"in a word NAME=value of {setter} with an upper-case NAME, as the "
                    "system's programs name the environment variables they read: "
                    f"{setter} may set it for a command it runs (./configure CC=, systemctl "
                    "set-environment, strace -E, kubectl set env), and programs run variables "
                    "such as PAGER, BASH_ENV or LD_PRELOAD as code",
                )
            return
        if len(parts) == 1:  # the value alone decides: see shell.py
            self.assignments[indexes[0]] = reader
        elif _MAY_ASSIGN.match(prefix):
            what = (
                f"an environment variable that {reader} sets for the command it runs, and "
                "programs run variables such as PAGER, GIT_SSH_COMMAND, BASH_ENV or LD_PRELOAD "
                "as code"
                if reader in ("env", "sudo")
                else f"a variable of {reader}, which {reader} expands ($(shell cmd) runs cmd) "
                "and pastes into the recipes its shell runs as code"
            )
            for index in indexes:
                self.refuse(index, f"in a word {reader} reads as NAME=value: {what}")

    def check_pipe(
        self,
        piped: list[int],
        command: list[str | None],
        expanded: list[bool | str],
        own: int,
        files: list[tuple[str, str]],
    ) -> list[int]:
        """Refuse the fields whose output may reach the standard input of ``command``
        (``piped``) when ``command`` reads its program there: a shell or interpreter
        (``echo {x} | sh``, ``curl {url} | bash``), a tool whose input is its commands (``ed``,
        ``gdb``), a program an expansion names (``$SHELL``), or a program running a command
        string, written in the static text, that does (``sh -c 'cat | sh'``, ``ssh h sh``).
        Returns the fields of the written files that ``command`` reads (``cat f | sh``), which
        its output may carry on."""
        marked = [EXPANDED if dynamic else word for word, dynamic in zip(command, expanded)]
        variables = [*self.stdin_exported, *self.stdin_variables.pop(len(self.pipelines), [])]
        shown = [text if isinstance(text, str) else w for w, text in zip(command, expanded)]
        if variables and marked:  # (read as env's: `env BASH_ENV=/dev/stdin bash -c :`)
            marked = ["env", *variables, *marked]
            shown = ["env", *variables, *shown]
        read = self.fields_read(marked, shown, files) if self.file_writes else []
        if self.may_write_files:
            self.note_files(piped, marked, own, files, shown, read)
        self.closed_compound = ()
        files.clear()
        if not command:
            return read
        self.check_data_runner(piped, marked, own)
        if self.may_set_variables:
            self.check_reparsed(marked)
        if not piped:
            return read
        name = reads_program_from_stdin(marked)
        script = stdin_script(marked) if name is None else None
        if script is not None and _script_reads_code(script, self.nesting + 1):
            name = f"{command[0]} running {script!r}"
        appended = xargs_appended(marked) if name is None else None
        if appended is not None and any(_positional_use(list(appended), self.nesting)):
            name = "xargs running a command string that uses what it reads"  # (as "$1")
        why = f"in a pipeline into {name}, which reads it as code, its program"
        if name is None and script is None and (name := value_named_code_file(marked)):
            why = (
                f"in a pipeline into {name}, whose file of code a value names: that value may "
                "be - or /dev/stdin (or /proc/self/fd/0), this pipe, which it then reads as code"
            )
        if name is None and script is None and (name := unknown_input_reader(marked)):
            why = f"in a pipeline into {name}, {_NOT_KNOWN_DATA}"
        if name is not None and _VARIABLES in piped:
            self.use_variables(f"an expansion's output reaches {why[3:]}")
        for index in self.unfold(piped) if name is not None else ():
            self.refuse(index, why)
        return read

    def fields_read(
        self,
        marked: list[str | None],
        shown: list[str | None],
        files: list[tuple[str, str]],
    ) -> list[int]:
        """The fields written to files that a command may read: the files its words, the
        names after their '=' (``if=f``) and its ``<`` redirections may name (any spelling:
        :func:`_may_be_the_file`), but those it writes itself.  What it writes, or pipes on,
        may hold them (``cat f | sh``, ``tr -d q < f > s.sh``, ``cp f s.sh``)."""
        writes = {posixpath.normpath(name) for op, name in files if op != "<"}
        words = [target for op, target in files if op in ("<", "<>")]
        for word, text in zip(marked[1:], shown[1:]):
            if word == EXPANDED and text is not None and text != EXPANDED:
                word = text  # (as written: `cat "$HOME/f"`, `cat "$f"`)
            if word is not None and word != EXPANDED:
                words += [word, word.partition("=")[2]]
        ran = command_run(marked) if marked else []
        if ran and ran[0] not in (None, EXPANDED) and program(ran[0]) == "find":
            words.append("*")  # (find gives the names of the files it lists: `find . | sh`)
        read: set[int] = set()
        self.written_index.update(self.file_writes)
        for word in words:
            if word and posixpath.normpath(word) not in writes:
                for name in self.written_index.named_by(word):
                    read.update(self.file_writes[name])
        return sorted(read)

    def check_reparsed(self, command: list[str | None]) -> None:
        """Check the variables' fields against the string, written in the static text, that
        ``eval`` or ``trap`` parses again as code (``for f in {x}; do eval 'sh -c "$f"'; done``,
        ``trap 'eval "$1"' EXIT; set -- {x}``): lexed as a command string after ``set --
        VALUE``, any expansion where code goes may hold a value, as for ``sh -c``'s string."""
        name = command[0]
        words = [word for word in command[1:] if word != "--"]
        if name == "trap":
            words = words[:1]
        elif name != "eval":
            return
        if not words or any(word is None or word == EXPANDED for word in words):
            return  # (no string, or one holding a value or an expansion: checked as such)
        script = " ".join(words)  # type: ignore[arg-type]
        if "$" not in script:
            return
        lexed = lex(f"set -- {FIELD}\n{script}", self.nesting + 1)
        if lexed.stop is not None:
            why = f"with {lexed.stop_reason}, which the renderer does not follow"
        elif 0 in lexed.refusals:
            inner = lexed.refusals[0].partition("$_): ")  # (drop what it repeats)
            why = f"where {inner[2] or inner[0]}"
        else:  # (`eval 'echo hi > "$f"'`: a parsed argument, checked on the values)
            for rule in lexed.rules.get(0, ()):
                self.use_variables(rule)
            return
        self.use_variables(f"{name} parses {script!r} again as code, {why}")

    def note_files(
        self,
        piped: list[int],
        marked: list[str | None],
        own: int,
        files: list[tuple[str, str]],
        shown: list[str | None],
        read: list[int],
    ) -> None:
        """Record the files a command writes with fields' values in them (its redirections
        `>`, `>>`, `>|`, `<>`, tee's operands and the files of :func:`output_files`, with the
        command's own fields, those piped into it and those of the written files it ``read``),
        and the command itself, for :meth:`check_files`."""
        logged = tuple(marked)  # (one object: uses find their command's position by it)
        written = [name for op, name in files if op != "<"]
        # (`shown`: an expansion's word as written, `tee "$HOME/.perldb"`, `dd of="$HOME/x"`)
        names_only = self.target_fields  # (fields of a file's name, not of what it holds)
        if marked and marked[0] not in (None, EXPANDED) and program(marked[0]) == "tee":
            written += [w for w in shown[1:] if w not in (None, EXPANDED) and w[:1] != "-"]
            if None in shown[1:]:  # (`… | tee {out}`: its operands are names only)
                written += _VALUE_PATHS
                names_only = names_only.union(range(own, self.field))
        written += output_files(shown)
        expansions = [w for m, w in zip(marked[1:], shown[1:]) if m == EXPANDED and w]
        held = self.holding([*expansions, *(name for name in written if "$" in name)], piped)
        fields = [*range(own, self.field), *self.unfold(piped), *read]
        fields += self.variables if held else []
        chosen = [None if m == EXPANDED and w in held else w for m, w in zip(marked, shown)]
        if any(name in held for name in written):
            written += _VALUE_PATHS  # (`cp a "$1"`, `> "$1"`: the variable may name any file)
            if not any(word in held for word in expansions):  # (`echo hi > "$1"`: its name)
                names_only = names_only.union(self.variables)
        chooses = value_chooses_files(chosen)
        if fields and marked[:1] in (["cd"], ["pushd"]):
            self.directories.update(fields)  # (`cd {d} && git status` ran its core.fsmonitor)
        if runs_in_found_directories(chosen):  # (`find {d} -execdir git status \;`)
            self.refuse_near_git(fields)
        if (
            chooses
            and runs_hooks_of_its_tree(chosen)
            and value_picks_git_tree(chosen)
            and not self.restores_paths_only(marked, chosen, fields, own)
        ):
            self.tree_hooks.update(fields)  # (`git checkout {ref}` ran the ref's post-checkout)
        if fields and sets_git_source(chosen):
            self.git_sources += fields
            # (a later git writer may run first: in a loop, after a `&`, in a trap)
            chooses = self.repeats or self.unordered
        elif self.git_sources and writes_git_tree(marked):
            # (`git remote add o {url}; git pull o main`: the first git writer after them, as
            # every command after a later one is after it too, so each source counts once)
            if runs_hooks_of_its_tree(marked):  # (`git remote add o {url}; git pull o main`)
                self.tree_hooks.update(self.git_sources)
            fields += self.git_sources
            self.git_sources = []
            chooses = True
        # (`cp a {f}`, `tar -xf {a}`, `git checkout {ref}`, `patch < {f}`: a value's choice)
        if chooses or (fields and writes_files_its_input_names(marked)):
            written += _VALUE_PATHS
        if not _writes_only_data(marked) and any(name in _VALUE_PATHS for name in written):
            # (`curl -o {f} {url}`, `./process {x} > {f}`: checked against the commands after)
            written = [name for name in written if name not in _VALUE_PATHS] + [*_OUTPUT_PATHS]
            self.note_output(marked, fields)
        elif any(name in _VALUE_PATHS for name in written) and not self.writes_own_text(marked):
            # (`cat payload > {f}`, `… | tee {f}`: the file's contents are not the text's)
            self.note_output(marked, fields)
        if marked and not waits_for_what_it_runs(marked):
            self.unordered = True  # (`setsid -f sh -c 'sleep 1; sh s.sh'`: done after it)
        for name in written if fields else ():
            kept = fields
            if name in _VALUE_PATHS:  # (what a value's name holds: the name alone is no code)
                kept = [index for index in fields if index not in names_only]
            if kept and posixpath.normpath(name) != "/dev/null":  # (it keeps nothing to run)
                self.file_writes.setdefault(posixpath.normpath(name), set()).update(kept)
        if marked:
            implicit, words, programs = _ran_by([logged])
            self.implicit_readers |= implicit
            self.commands_run |= words
            self.programs_run |= programs
            self.command_log.append(logged)
            self.unordered = self.unordered or marked[0] == "trap"  # (its string runs at the end)
        inputs = tuple((op, target) for op, target in files if op in ("<", "<>"))
        if not marked and inputs:  # `{ sh; } < f`, `while …; do …; done < f`, `( sh ) < f`
            for inner in self.closed_compound:
                for _, target in inputs:
                    self.file_uses.setdefault(posixpath.normpath(target), []).append(
                        (inner, inputs)
                    )
        if marked == ["exec"] and inputs:
            self.exec_inputs.append(inputs)
        appended = xargs_appended(marked)
        if appended is not None:
            # `ls | xargs sh`, `… | xargs -I{} sh {}`: xargs gives the names it reads, which
            # may be any file's
            named = tuple("*" if word is None or word == "{}" else word for word in appended)
            self.file_uses.setdefault("*", []).append((named, ()))
        for action in find_actions(marked):
            # `find . -name '*.sh' -exec sh {} \;`: so does find, for the files it lists
            listed = tuple(None if word is None else word.replace("{}", "./*") for word in action)
            self.file_uses.setdefault("*", []).append((listed, ()))
            action_script = stdin_script(listed)  # (`-exec sh -c 'sh s.sh' \;`, `'sh {}'`)
            if action_script is not None:
                self.note_script(action_script, fields)
        ran = command_run(marked) if marked else []
        if any(word not in marked for word in ran):
            # `env -S 'sh s.sh'`: the runner splits a word into the words of the command run
            for word in {word for word in ran if word is not None and word != EXPANDED}:
                uses = self.file_uses.setdefault(posixpath.normpath(word), [])
                uses.append((tuple(ran), tuple(files)))
        use = (logged, tuple(files))
        if _may_name_code(marked):
            # `echo {x} > s.sh; sh {y}` with s.sh: a value may name any file, as an expansion
            # may, so its word is read as one (`{cmd} s.sh` with sh runs s.sh)
            valued = tuple(_A_VALUE if word is None else word for word in marked)
            self.value_uses.append((valued, tuple(files)))
            self.value_use_at[id(valued)] = len(self.command_log) - 1
        names = {target for _, target in files}.union(
            word for word in marked if word is not None and word != EXPANDED
        )
        for name in {posixpath.normpath(name) for name in names if name}:
            self.file_uses.setdefault(name, []).append(use)
            if self.substitutions or (
                marked and marked[0] in ("read", "mapfile", "readarray")
            ) or (any(op in ("<", "<>") for op, _ in files) and _READS_LINES.search(self.text)):
                self.read_back.add(name)  # (a `while read` loop's input too)
        for at, text in enumerate(shown):
            if marked[at] == EXPANDED and text is not None and text != EXPANDED:
                # `f=$(mktemp); echo {x} > "$f"; sh "$f"`: the same expansion, as written,
                # names the same file
                named_as = (*marked[:at], text, *marked[at + 1 :])
                uses = self.file_uses.setdefault(posixpath.normpath(text), [])
                uses.append((named_as, tuple(files)))
        script = stdin_script(marked) if marked else None
        if script is not None:
            self.note_script(script, fields)
        own_writes = {posixpath.normpath(name) for name in written}
        responses = reads_response_files(marked[0] if marked else None)
        for argument in marked[1:]:
            if argument is not None and argument != EXPANDED:
                self.note_embedded(argument, own_writes, responses)

    def holding(self, expansions: list[str], piped: list[int]) -> list[str]:
        """Those of ``expansions`` (a writing command's words, or the names it writes, that the
        shell expands) that may hold a field's value: one held in a shell variable (``set --
        {x}``, a loop's, a command string's positional parameters) or piped into ``read``
        (``sh -c 'cp a "$1"; make' sh {f}`` copies to the file the value names, as ``cp a
        {f}`` does); not ``$HOME`` and the like, unless a loop sets them."""
        if not (self.variables or (self.unfold(piped) and _READS_LINES.search(self.text))):
            return []
        return [
            word
            for word in expansions
            if any(
                name not in _NO_VALUE_VARIABLES or name in self.loops
                for name in _EXPANDED_VARIABLE.findall(word)
            )
        ]

    def writes_own_text(self, marked: list[str | None]) -> bool:
        """Whether the command ``marked`` writes only words of the template's static text: a
        redirection alone (``> f``, not a compound command's, ``{ cat a; } > f``), or echo,
        printf, true, false or ``:`` with no value or expansion among their words (``echo hi >
        {f}``), which read no file nor their standard input."""
        if not marked:
            return not self.closed_compound
        return marked[0] in _OWN_TEXT_WRITERS and all(
            word is not None and word != EXPANDED for word in marked
        )

    def note_output(self, marked: list[str | None], fields: list[int]) -> None:
        """Record the ``fields`` of a command ``marked`` that writes a file a value names,
        with what is not the template's own words (``curl -o {f} {url}``, ``cp a {f}``,
        ``./process {x} > {f}``, ``cat a > {f}``, ``git checkout {ref}``): what it writes comes
        from a file, the network or a program, not the text, so the name's fields count too.
        Only the commands after it may read it (curl reads ~/.curlrc before it writes), unless
        a command may run after a later one (a trap, a pipe, `&`: then any command may) or
        again (a loop, a runner such as xargs or find -exec in front of the writer: then the
        writer's program as well, but not its words)."""
        rerun = self.repeats or len(command_run(marked)) != len(marked)
        writer = len(self.command_log) if marked else -1
        if rerun:
            self.rerun_writers.add(writer)
        # (the commands of a pipeline the writer is in, `sh s.sh | cp a {f}`, from its start)
        joined = [at for at, seen in zip(self.pipeline_logs, self.pipe_seen) if seen]
        after = 0 if rerun or self.unordered else min([writer + 1, *joined])
        self.value_outputs.append((after, writer, set(fields)))

    def note_script(self, script: str, fields: list[int]) -> None:
        """Record the files that a command string written in the static text (``sh -c S``,
        ``eval S``, ``trap S EXIT``) writes and uses as if its commands were the template's
        (``echo {x} > s.sh; eval 'sh s.sh'``); what it writes from its positional parameters
        or its standard input holds ``fields`` (``… | sh -c 'cat > s.sh'``)."""
        inner = _Lexer(f"set -- {FIELD}\n{script}", self.nesting + 1)
        inner.may_write_files = True
        inner.git_sources = [_GIT_SOURCE] if self.git_sources else []
        try:
            if inner.nesting > _MAX_DEPTH:
                raise _Stop(0, "command strings nested too deep")
            inner.commands(0, False, [], (0,))
        except _Stop:
            self.unfollowed.append(script)
            return
        for name, written in inner.file_writes.items():
            if written and fields:
                self.file_writes.setdefault(name, set()).update(fields)
        for name, uses in inner.file_uses.items():
            self.file_uses.setdefault(name, []).extend(uses)
        if _GIT_SOURCE in inner.tree_hooks:  # (`git remote add o {url}; sh -c 'git pull o m'`)
            self.tree_hooks.update(self.git_sources)
        offset = len(self.command_log)
        for after, writer, written in inner.value_outputs:
            if _GIT_SOURCE in written:  # (`git remote add o {url}; sh -c 'git pull o main'`)
                self.value_outputs.append(
                    (after and after + offset, writer + offset, set(self.git_sources))
                )
        self.command_log += inner.command_log
        self.exec_inputs += inner.exec_inputs
        self.unfollowed += inner.unfollowed
        self.unordered = self.unordered or inner.unordered  # (`sh -c '(sh s.sh) &'`)
        self.repeats = self.repeats or inner.repeats
        self.implicit_readers |= inner.implicit_readers
        self.commands_run |= inner.commands_run
        self.programs_run |= inner.programs_run
        for name, word in inner.embedded.items():
            self.embedded.setdefault(name, word)
        for variable, values in inner.assigned.items():
            self.assigned.setdefault(variable, set()).update(values)

    def note_environment(self, word: str) -> None:
        """Record ``word`` if it sets an upper-case variable (one the environment of a command
        gets) that is not known to name no code or file of code (:func:`names_no_code`)."""
        if ENVIRONMENT_NAME.match(word) and not names_no_code(word.partition("=")[0]):
            self.environment.setdefault(word.partition("=")[0], word)

    def note_embedded(
        self, word: str, own_writes: frozenset[str] | set[str] = frozenset(), at: bool = False
    ) -> None:
        """Record the file names ``word`` holds after its first '=' (``BASH_ENV=f``,
        ``--config=f``, ``include.path=f``), after an option's letters (``-Ff``) or after '@'
        (``gcc @opts``, a file of options: ``-wrapper`` in it ran a command), when ``at`` says
        the program may read such a file, but those its command writes (``dd of=f``, ``wget
        -Of``)."""
        names = []
        if "=" in word:
            names.append(word.partition("=")[2])
        if at and word[:1] == "@":  # a response file: gcc, clang, java, ld read options there
            names.append(word[1:])
        if word[:1] == "-" and word[1:2] not in ("-", ""):
            names += [word[k:] for k in range(2, len(word))]
        for name in names:
            if name and posixpath.normpath(name) not in own_writes:
                self.embedded.setdefault(posixpath.normpath(name), word)

    def check_environment(self) -> None:
        """Refuse the fields of a `for` loop whose variable is in the environment of the
        commands it runs: a name the caller may have exported (upper-case, as the variables
        that programs read are named: ``for BASH_ENV in {x}; do bash -c :; done``), or one the
        template exports; and every variable's field when it exports a name assigned an
        expansion (``set -- {x}; f=$1; export f``)."""
        for name, fields in self.loops.items():
            if ENVIRONMENT_NAME.match(name + "="):
                why = (
                    f"in the word list of a for loop whose variable {name} has an upper-case "
                    "name, as the environment variables that programs read are named: if the "
                    "caller exports it (PAGER, EDITOR, BASH_ENV), the commands run in the loop "
                    "get the value in their environment, and programs run such variables as code"
                )
            elif name in self.exported:
                why = f"in the word list of a for loop whose variable {name} the text exports"
            else:
                continue
            for index in fields:
                self.refuse(index, why)
        if not self.exported.isdisjoint(self.copied):
            self.use_variables(
                "an assignment of it to a variable that the text exports, so every program "
                "run after gets it in its environment (programs run BASH_ENV, PAGER or "
                "LD_PRELOAD as code)"
            )

    def check_files(self, stopped: bool) -> None:
        """Refuse the fields written to a file that a command of the template runs or reads
        as code (``echo {x} > s.sh; sh s.sh``); all of them if the lexer ``stopped``, as
        what comes after may run the file."""
        # (read once here for every file asked about: the commands and their uses are all known)
        self.uses_index.update(self.file_uses)
        self.code_namings = [
            (CodeNaming(command), database_script_files(command)) for command in self.command_log
        ]
        for at, (naming, database_files) in enumerate(self.code_namings):
            for token in naming.tokens if not database_files else ("",):
                self.commands_by_token.setdefault(token, []).append(at)
        for name, fields in self.file_writes.items():
            if name in self.read_back:
                # what a command brings back from the file is an expansion's text: checked as
                # a variable holding the values, wherever the template uses one (first, as
                # its reason is the more exact: `sh -c "$(cat f)"` also names f's last part)
                self.add_variables(sorted(fields))
            if name in _OUTPUT_NAMES:
                continue  # (check_outputs: by the commands after the writer)
            why = self.file_reader(name)
            for spelling, assignment in self.values_of(name):
                why = why or self.file_reader(spelling, assignment)
            if why is not None and name in _VALUE_NAMES:
                why = (
                    "written to the file a value names, which may be any file (s.sh, Makefile, "
                    f"~/.profile), and which a command of the template {why}"
                )
            elif why is not None:
                why = f"written to the file {name!r}, which a command of the template {why}"
            elif stopped:
                why = (
                    f"written to the file {name!r}, and the renderer does not follow the rest "
                    "of the template, so it cannot prove that no command there runs that file"
                )
            if why is not None:
                for index in sorted(fields):
                    self.refuse(index, why)
        self.check_outputs()
        if self.directories and (why := self.chosen_directory_refusal(stopped)):
            for index in sorted(self.directories):
                self.refuse(index, why)
        for index in sorted(self.tree_hooks):  # (last: a reader after the write says more)
            self.refuse(index, _TREE_HOOKS)

    def chosen_directory_refusal(self, stopped: bool) -> str | None:
        """Why the fields of a directory ``cd`` makes current (:attr:`directories`) are
        refused: a git command of the template works in it (or, the lexer ``stopped``, may),
        or another command runs code of it that no word names (``python3 -m http.server``
        imports its http/); None if no command does."""
        readers = {r for command in self.command_log if (r := directory_code_reader(command))}
        if stopped or "git" in self.programs_run or "git" in readers:
            return _CHOSEN_DIRECTORY
        return _CHOSEN_CODE_DIRECTORY.format(min(readers)) if readers else None

    def restores_paths_only(
        self, marked: list[str | None], chosen: list[str | None], fields: list[int], own: int
    ) -> bool:
        """Whether the values of the command ``marked`` are only the paths that ``git restore``
        restores from the index or the revision the text names (``git restore {f}``, as
        ``git restore -- {f}``): each its own word (not ``--source={rev}``), none through an
        expansion or a pipe."""
        return (
            restores_paths(marked)
            and chosen.count(None) == marked.count(None)
            and set(fields) == set(range(own, self.field))
            and self.operand_words.issuperset(fields)
        )

    def check_outputs(self) -> None:
        """Refuse the fields of :meth:`note_output`'s writes that a command after the writer
        runs or reads as code (``curl -o {f} {url}; sh s.sh``: the value may name s.sh)."""
        if not self.value_outputs or not any(map(self.file_reader, _OUTPUT_NAMES)):
            return  # (no reader at all: one look for every write)
        self.command_at = {id(command): at for at, command in enumerate(self.command_log)}
        self.command_at.update(self.value_use_at)
        last, last_why = self.last_reader({after for after, _, _ in self.value_outputs if after})
        # (by the writer's words, and whether its program counts)
        unordered: dict[tuple[tuple[str | None, ...], bool], str | None] = {}
        for after, writer, fields in self.value_outputs:
            why = last_why if 0 < after <= last else None
            if not after:
                words = self.command_log[writer] if writer >= 0 else ()
                key = (words, writer in self.rerun_writers)
                if key not in unordered:
                    unordered[key] = self.output_reader(0, writer)
                why = unordered[key]
            for index in sorted(fields) if why is not None else ():
                self.refuse(
                    index,
                    "in a command writing a file a value names or fills (its output option's "
                    "argument, a copy's destination or source, an archive, repository, git "
                    "revision, patch or URL whose files it writes under their own names, a "
                    "directory it writes into, the target of a program not known to run "
                    "nothing, or of a redirection or tee writing what a file, a pipe or an "
                    "expansion holds rather than the template's own words): that may be any "
                    f"file (s.sh, Makefile, ~/.profile), which a command after it {why}",
                )

    def last_reader(self, starts: set[int]) -> tuple[int, str | None]:
        """The last of ``starts`` (positions in command_log) from which on a command reads
        a file a value may name as code, and how: a binary search, as a reader from a start
        on is one from any start before (one look per doubling of the writes, not per write)."""
        ordered = sorted(starts)
        found: tuple[int, str | None] = (0, None)
        low, high = 0, len(ordered) - 1
        while low <= high:
            middle = (low + high) // 2
            why = self.output_reader(ordered[middle], ordered[middle] - 1)
            if why is None:
                high = middle - 1
            else:
                found, low = (ordered[middle], why), middle + 1
        return found

    def output_reader(self, after: int, writer: int) -> str | None:
        """How a command from position ``after`` on, but the ``writer``'s words, runs or reads
        as code a file a value may name (:meth:`file_reader`), else None."""
        looks = (self.file_reader(name, "", after, writer) for name in _OUTPUT_NAMES)
        return next(filter(None, looks), None)

    def values_of(self, name: str) -> list[tuple[str, str]]:
        """The names a file written as ``name`` has when the variable it starts with holds a
        value written in the text (``f=s.sh; echo {x} > "$f"``: ``s.sh``), each with the
        assignment that gives it (``f=s.sh``)."""
        found = _LEADING_VARIABLE.match(name)
        if found is None:
            return []
        variable, rest = found.group(1) or found.group(2), name[found.end() :]
        values = sorted(self.assigned.get(variable, ()))
        return [(value + rest, f"{variable}={value}") for value in values]

    def file_reader(
        self, name: str, assignment: str = "", after: int = 0, writer: int = -1
    ) -> str | None:
        """How a command of the template runs the file ``name`` or reads it as code: as its
        program (``./s.sh``), a script (``sh s.sh``, ``. s.sh``, ``make -f s.mk``), the
        standard input of a reader (``sh < s.sh``), or by its name alone (``make`` reads
        ``Makefile``, pytest ``conftest.py``), else None.  (``assignment``: the word that
        gave the name, ``f=s.sh``, which is not a use of it; ``after``, ``writer``: the
        position in command_log of the first command to look at, and of one whose words are
        not looked at, see :meth:`note_output`.)"""
        implicit, commands_run, programs_run = (
            (self.implicit_readers, self.commands_run, self.programs_run)
            if writer < 0
            else self.ran_after(after, writer)
        )
        for reader in sorted(implicit):
            if reads_by_name(reader, name):
                return f"runs as code by its name alone ({reader} reads it without being told)"
        last = _last_part(name)
        readers = sorted(
            word or "a program an expansion names"
            for word in commands_run
            if reads_home_files(word)
        )
        if "PATH" in self.environment:  # (`PATH=.:$PATH ls` runs no known ls)
            readers = sorted(word or "a program an expansion names" for word in commands_run)
        if self.environment and readers:
            variable, setting = next(iter(self.environment.items()))
            return (
                f"may read as code through the variable {variable} that {setting!r} sets: "
                "programs load or run a file that such a variable names, in any spelling "
                "(PERL5OPT=-Mm loads m.pm, NODE_OPTIONS='-r ./x.js' and RUBYOPT=-r./m.rb "
                "run those files, PATH=.:$PATH runs a written ./ls), and only variables "
                "known to name no code (LC_ALL, LANG, TZ, TERM…) are allowed beside a written "
                "value"
            )
        if in_home_hidden(name) and readers:
            return (
                f"may read by its name alone: {readers[0]} is not known to read no startup "
                "file from $HOME, and programs keep theirs under hidden names there (perl -d "
                "runs ~/.perldb, tmux ~/.tmux.conf's run-shell, Python a ~/.local/lib/python3.X/"
                "site-packages/*.pth line starting with import, npm ~/.npmrc's script-shell)"
            )
        # (the same last part: an expansion there, `f=$(mktemp)`, is a variable's value,
        # whose uses are followed as such)
        embedded = [
            word
            for file, word in self.embedded.items()
            if _last_part(file) == last and word != assignment  # (not the name's own)
        ]
        if embedded:
            return (
                f"names in the word {embedded[0]!r}, a variable or an option that may "
                "make a program read it as code or settings (BASH_ENV=f runs f in bash, make "
                "--file=f, git -c include.path=f, wget --config=f, gcc @f reads options)"
            )
        uses = [use for file in self.uses_index.naming(name) for use in self.file_uses[file]]
        uses += [(command, inputs) for inputs in self.exec_inputs for command in self.command_log]
        uses += self.value_uses
        if writer >= 0:  # (a use whose command is not known, `find -exec`'s, counts)
            known = [(self.command_at.get(id(use[0])), use) for use in uses]
            uses = [use for at, use in known if at is None or after <= at != writer]
        if self.unfollowed:
            return (
                f"may run through the command string {self.unfollowed[0]!r}, which the "
                "renderer does not follow"
            )
        token = naming_token(last)
        by_token = self.commands_by_token
        ask = (
            range(len(self.command_log))
            if token is None
            else sorted({*by_token.get(token, ()), *by_token.get("", ())})
        )
        for at in ask if writer < 0 else [at for at in ask if after <= at != writer]:
            command, (naming, database_files) = self.command_log[at], self.code_namings[at]
            why = naming.naming(last)
            if why is not None:
                return (
                    f"names in code ({why}), which may run or load it (exec(open('s.py')"
                    ".read()), import s, do 's.pl', vim -c '!sh s.sh')"
                )
            if any(_may_be_the_file(file, name) for file in database_files):
                return (
                    f"gives to {program(command[0] or '')} in a command of its own that reads "
                    "a file as SQL and commands (.read, \\i, source: their .shell, \\!, "
                    "system lines run commands) or loads it as code (.load)"
                )
        for marked, files in uses:
            ran = command_run(marked)
            run = ran[0] if ran and ran[0] not in (None, EXPANDED) else None
            if run is not None and _may_be_the_file(run, name) and (
                "/" in run or run[:1] == "$"
            ):
                return "runs as a program"  # (also behind a runner: `env ./s.sh`, `nohup ./s.sh`)
            if run is not None and run == last:
                return (
                    "runs as a program by its name, which the shell looks for on PATH: the "
                    "file may be there (`install f ~/bin/t; t`, or a `cd` into such a directory)"
                )
            named = program(marked[0]) if marked and marked[0] not in (None, EXPANDED) else ""
            for op, target in files:
                if op not in ("<", "<>") or not _may_be_the_file(target, name):
                    continue
                if reads_program_from_stdin(marked) or runs_its_data(marked, self.reads_code):
                    return f"gives to {named or 'a program'} on its standard input as code"
                if (unknown := unknown_input_reader(marked)) is not None:  # (as a pipe)
                    return f"gives on its standard input to {unknown}, {_NOT_KNOWN_DATA}"
            # (the command strings whose commands are followed: note_script)
            scripts = {stdin_script(marked), *map(stdin_script, find_actions(marked))}
            for at, word in enumerate(marked):
                if word is None or word == EXPANDED or word in scripts:
                    continue
                if not _may_be_the_file(word, name):
                    continue
                if at == 0 and ("/" in word or word[:1] == "$"):
                    return "runs as a program"
                option = marked[at - 1] if at > 1 else None
                writes = {posixpath.normpath(file) for file in output_files(list(marked))}
                if (
                    option is not None
                    and name not in writes  # (its own output: `wget -O f`, `sort -o f`)
                    # (a pattern there is the option's, as written: `find -name '*.txt'`,
                    # `tar --exclude '*.o'`)
                    and (_last_part(word) == last or "$" in word or "`" in word)
                    and option[:1] == "-"
                    and option != "--"
                    and named
                    and named not in PLAIN_OPTION_PROGRAMS
                    and "=" not in option
                    and not find_data_argument(marked, at)
                    and not is_program_text(marked, at)  # (`awk -F, '{print $1}'`)
                ):
                    return (
                        f"gives to {named} as the argument of its option {option!r}, which may "
                        "be a file of settings or code it reads (ssh -F f runs its "
                        "ProxyCommand, wget --config f its use_askpass program)"
                    )
                swapped = [*marked[:at], "/dev/stdin", *marked[at + 1 :]]
                runs = runs_its_data(list(marked), self.reads_code)
                if at and (reads_program_from_stdin(swapped) or runs):
                    return f"gives to {named} to read as code"
                if python_file_run(marked) == word:
                    return f"gives to {named} run, which runs a .py file with Python"
                if (
                    at
                    and "/" in word
                    and (named not in PLAIN_OPTION_PROGRAMS or "/" in (marked[0] or ""))
                    and named not in WRITING_PROGRAMS  # (`install t ~/bin/t` copies it)
                    and any(_may_be_the_file(file, name) for file in self.executables())
                ):
                    return (
                        f"makes executable and gives to {named} by its path, which {named} is "
                        "not known not to run (perl -e 'exec @ARGV' ./s.sh, watch ./s.sh, pixi "
                        "run ./s.sh)"
                    )
                if (
                    at > 1
                    and (named not in DATA_OPTION_PROGRAMS or "/" in (marked[0] or ""))
                    and named not in SHELLS  # (`sh -c 'wc -l "$1"' sh f`: $0 and $1)
                ):
                    # by allow-list: a program not known to run no command of its arguments
                    # may run the shell or interpreter a word before names (`screen -dm sh f`,
                    # `watch sh f`, `pixi run sh f`, `cgexec -g cpu:x sh f` each run it)
                    for start in range(1, at):
                        starts = marked[start]
                        if (
                            starts in (None, EXPANDED, ".", "source")  # (builtins: no program)
                            or not reads_program_from_stdin(swapped[start:])
                        ):
                            continue
                        return (
                            f"gives to {program(starts)}, which {named} is not known not to "
                            "run as a command made of its arguments (screen -dm sh f, watch sh "
                            "f, pixi run sh f, cgexec … sh f each ran f)"
                        )
        project = sorted(
            word or "a program an expansion names"
            for word in programs_run
            if reads_project_files(word)
        )
        # (a file the text gives a command, `probe f`, is that command's data)
        given = any(
            any(w not in (None, EXPANDED) and _may_be_the_file(w, name) for w in marked[1:])
            or any(op in ("<", "<>") and _may_be_the_file(target, name) for op, target in files)
            for marked, files in uses
        )
        if project and not given and _in_working_directory(name):
            return (
                f"may read by its name alone: no command names it, and {project[0]} is not "
                "known to read no file of the working directory as code or settings, as build "
                "and project tools do (docker build runs a Dockerfile's RUN lines, ninja "
                "build.ninja's commands, gradle build.gradle, pre-commit its config's hooks)"
            )
        return None

    def executables(self) -> list[str]:
        """The files the template's commands make executable (:func:`made_executable`), once
        the lexer has read them all: found once, not per use of a file (a template of n
        commands with a path in each looked at n² commands)."""
        if self.made_executable is None:
            self.made_executable = [
                file for command in self.command_log for file in made_executable(command)
            ]
        return self.made_executable

    def ran_after(self, after: int, writer: int) -> tuple[set[str], set[str], set[str]]:
        """The implicit readers, command words and programs run of the commands from position
        ``after`` on but the ``writer``, whose program counts when it may run again
        (``xargs cp {} {dest}`` runs cp again, and a loop curl, which reads ~/.curlrc; not a
        pipe's or ``&``'s: ``echo {x} | git apply`` runs git once)."""
        log = [command for at, command in enumerate(self.command_log) if after <= at != writer]
        if not after and writer in self.rerun_writers:
            log.append(tuple(command_run(self.command_log[writer])))
        return _ran_by(log)

    def reads_code(self, script: str) -> bool:
        """Whether a command string written in the static text (an awk program's literal
        command, ``print | "sh"``) runs what reaches its standard input as code."""
        return _script_reads_code(script, self.nesting + 1)

    def check_data_runner(self, piped: list[int], marked: list[str | None], own: int) -> None:
        """Refuse every field that reaches a program written in the static text that runs
        its data (``awk '{system($0)}' {f}``, ``echo {x} | sed e``, ``awk -v v={x}
        '{system(v)}'``): the command's own fields (from ``own`` on: its arguments, its
        redirections, the ``$( )`` in them) and those whose output reaches its input."""
        runs = runs_its_data(marked, self.reads_code)
        if runs is None:
            return
        if _VARIABLES in piped or EXPANDED in marked[1:]:
            self.use_variables(f"an expansion reaches {runs}")
        for index in [*range(own, self.field), *self.unfold(piped)]:
            self.refuse(index, f"data of {runs}")

    def check_variables(
        self, command: list[str | None], role: str, parts: tuple[Part, ...], word: str
    ) -> None:
        """Refuse the fields whose values became shell variables (``for f in {x}``, ``set --
        {x}``) where an expansion ``word`` may hold them and stands where code goes: the
        command's name (``$f``), an argument a builtin or program reads as code (``eval
        "$f"``, ``sh -c "$1"``), NAME=value or an option of a program whose options run code
        (checked on the value when ``word`` is exactly ``"$name"``, as for a field there)."""
        prefix = _prefix(parts)
        why: str | None = "the command's name"
        if role != COMMAND:
            why = _builtin_code(command) or code_argument(command, prefix)
            taker = option_taker(command) if not prefix else pipe_file_option(command, prefix)
            reader = assignment_reader(command, prefix) or (
                None if prefix else environment_setter(command, "X=")
            )
            if why is None:  # `sh -c 'eval "$1"' sh "$f"`
                why, inner_taker, inner_reader = _positional_use(command, self.nesting)
                taker = taker or (inner_taker if not prefix else None) or None
                reader = reader or inner_reader or None
            if why is None and (taker or reader):
                if _QUOTED_PARAMETER.fullmatch(word) or _quoted_substitution(parts):
                    self.use_variables((taker or "", reader or ""))
                else:
                    why = f"an argument of {taker or reader}, which reads options or NAME=value"
            rule = argument_rule(command, prefix) if why is None else None
            if why is None and not prefix and _QUOTED_PARAMETER.fullmatch(word):
                for inner in _positional_rules(command, self.nesting):
                    self.use_variables(inner)  # (`sh -c 'cmd > "$1"' sh "$f"`)
            if rule is not None and _QUOTED_PARAMETER.fullmatch(word):
                self.use_variables(rule)  # (checked on the value, as for a field there)
            elif rule is not None:  # (`curl https://h/u/$id` with {7,..}: around the value)
                why = f"in {rule.where}, an argument its program parses further"
            elif _in_url(parts):  # (`wget http://h/u/$id` with ../../admin)
                why = f"in {_IN_URL}"
        if why is not None:
            self.use_variables(f"the expansion {word} puts where code goes ({why})")

    def check_assigned_expansion(self, piped: list[int], word: str, where: str) -> None:
        """Refuse the fields that an expansion in the assignment ``word`` may hold (a
        variable's, or what the pipe brought and ``read`` stored) when the variable is one
        that programs or the shell may read as code: in the environment of a command it
        prefixes (``where``), or named in upper case, as the shell's own (``PS4``, ``IFS``) and
        the environment's (``BASH_ENV``, ``PAGER``) are, or exported
        (``set -- {x}; BASH_ENV=$1 bash -c :`` and ``PS4=$1; set -x`` ran the value)."""
        name = word.partition("=")[0]
        if not where and not ENVIRONMENT_NAME.match(name + "=") and name not in self.exported:
            return
        why = (
            f"the assignment {word} puts it {where or 'in a variable with an upper-case name'}, "
            "and programs and the shell run variables such as BASH_ENV, PAGER, PS4 or "
            "LD_PRELOAD as code"
        )
        if self.may_set_variables:
            self.use_variables(why)
        for index in self.unfold(piped):
            self.refuse(index, f"in a pipeline into a variable: {why}")

    def alter(self, indexes: Sequence[int], kind: str) -> None:
        """Record that the fields' text may change as ``kind`` says on its way to output."""
        for index in indexes:
            if kind == "any" or self.output_kind.get(index) != "any":
                self.output_kind[index] = kind or self.output_kind.get(index, "")

    def alter_passed(self, piped: list[int], command: list[str | None], own: int) -> None:
        """Record that the output of ``command`` (piped on, or a ``$( )``'s) may be any text
        made of the fields it reads, unless it copies its input (``… | tr _ - | …``, ``"$(echo
        {x} | tr _ -)"``); after a compound command (no ``command``), of all its fields."""
        if not command:
            self.alter([*self.unfold(piped), *range(own, self.field)], "any")
        elif not _copies_input(command):
            self.alter(self.unfold(piped), "any")

    def altered(self) -> dict[int, str]:
        """Per field whose output an expansion gives a program that reads options, how that
        output may differ from the value (see Lexed): unless a command known to copy it
        verbatim printed it, anything (a filter, ``cat {f}``), and anything everywhere when
        the text sets ``IFS`` (``IFS=,; ssh $(echo {x})`` split ``h,-oProxyCommand=cmd``) or
        runs ``read`` without ``-r`` (it drops backslashes: ``\\-o`` became ``-o``)."""
        everything = _SETS_IFS.search(self.text) or _READ_WITHOUT_R.search(self.text)
        return {
            index: "any" if everything else self.output_kind.get(index, "any")
            for index in self.through_output
        }

    def use_variables(self, use: str | tuple[str, str] | ArgumentRule) -> None:
        """Record that an expansion uses the variables' values in ``use`` (why that is code,
        or the option taker and NAME=value reader that then read them) and check every
        variable's field for it: those that exist, and those that come later (a loop may run
        the expansion again after them)."""
        if use in self.variable_uses:
            return  # each use is checked once, so that many expansions stay linear
        self.variable_uses.append(use)
        self.check_variable_fields(self.variables, [use])

    def add_variables(self, indexes: Sequence[int]) -> None:
        """Record fields whose values become shell variables, checked for each use so far."""
        self.variables.extend(indexes)
        self.check_variable_fields(indexes, self.variable_uses)

    def check_variable_fields(
        self, indexes: Sequence[int], uses: list[str | tuple[str, str] | ArgumentRule]
    ) -> None:
        for use in uses:
            for index in indexes:
                if isinstance(use, ArgumentRule):
                    self.rules.setdefault(index, []).append(use)
                elif isinstance(use, str):
                    self.refuse(
                        index,
                        "in a shell variable (of a for loop, set's positional parameters or "
                        f"bash's $_): {use}",
                    )
                else:
                    if use[0]:
                        self.options.setdefault(index, use[0])
                    if use[1]:
                        self.assignments.setdefault(index, use[1])

    def unfold(self, piped: list[int]) -> list[int]:
        """``piped`` with :data:`_VARIABLES` replaced by the variables' fields."""
        if _VARIABLES not in piped:
            return piped
        return [index for index in piped if index != _VARIABLES] + self.variables

    def check_expansion(
        self, piped: list[int], command: list[str | None], word: str, parts: tuple[Part, ...]
    ) -> None:
        """Refuse the fields whose output may reach the input of ``command`` when the
        expansion ``word`` (its last word) is code there: ``eval "$(cat)"``, ``sh -c "$l"``
        after ``read l`` compute code from what the pipe brings."""
        prefix = _prefix(parts)
        why = (
            _builtin_code(command)
            or code_argument(command, prefix)
            or _positional_use(command, self.nesting)[0]
        )
        parsed = self.parsed_input(command, word, parts) if why is None else None
        if parsed is not None:
            why = (
                f"in a pipeline into {command[0]}, whose expansion {word} may hold what it "
                f"reads and stands in {parsed}, where the renderer cannot check it"
            )
        elif why is None:
            self.check_piped_options(piped, command, prefix)
            return
        else:
            why = (
                f"in a pipeline into {command[0]}, which reads it as code: its expansion "
                f"{word} may hold what it reads and stands where code goes"
            )
        if _VARIABLES in piped:
            self.use_variables(f"an expansion's output reaches {why[3:]}")
        for index in self.unfold(piped):
            self.refuse(index, why)

    def check_target(
        self, parts: tuple[Part, ...], indexes: range, piped: list[int], lead: str
    ) -> None:
        """A redirection's target whose start a value or an expansion gives (``> {f}``, ``>
        "$f"``, after its static ``lead``) is checked on each value that may reach it
        (:data:`REDIRECTION_TARGET`): bash reads ``/dev/tcp/HOST/PORT`` there as a network
        connection, dash as a path.  The values are the fields in the word, those in a ``$( )``
        starting it, the variables of a loop or of ``set --`` (also a command string's
        positional parameters) and the lines a pipe brings to ``read``."""
        nested = [index for index in indexes if ("field", index) not in parts]
        for index in indexes:
            self.rules.setdefault(index, []).append(REDIRECTION_TARGET)
        dynamic = "$" in _shown_word(parts)  # (a `$( )` or a variable, quoted or not)
        if lead and (nested or dynamic):  # (`> "/dev/$(printf %s {x})"`: checked apart from it)
            why = (
                f"in an expansion that completes {lead!r} in a redirection's target, where "
                "bash reads /dev/tcp/HOST/PORT as a network connection"
            )
            for index in [*nested, *self.unfold(piped)]:
                self.refuse(index, why)
            if self.may_set_variables or _VARIABLES in piped:
                self.use_variables(why)
            return
        # A `$( )` starting the target gives its start: its output is checked as the value
        # where a command that copies the value prints it, and refused after a filter
        # (`"$(echo {x} | tr A-Z a-z)"` made /dev/tcp of /DEV/TCP); `> "$(printf %s {f}).log"`
        # stays accepted.
        self.through_output.update(nested)
        if len(nested) > 1:  # (several values join: '/dev/' and 'tcp/h/80')
            self.alter(nested, "any")
        if not dynamic:
            return
        if self.may_set_variables or _VARIABLES in piped:
            self.use_variables(REDIRECTION_TARGET)
        fields = self.unfold(piped)
        if len(fields) > 1:  # (`printf %s {a} {b}`: '/dev/' and 'tcp/h/80' join)
            self.alter(fields, "any")
        for index in fields:  # (each line, as `read` stores it, is checked: see _bash_socket)
            self.rules.setdefault(index, []).append(REDIRECTION_TARGET)
            self.through_output.add(index)

    def check_substituted_rule(
        self, rule: ArgumentRule, parts: tuple[Part, ...], nested: list[int]
    ) -> None:
        """Fields inside a ``$( )`` in an argument its program parses further (``rule``) are
        checked as that argument only where the word is that one double-quoted ``$( )``,
        whose output, if a command that copies the value prints it, is the value (``kill
        "$(printf %s {pid})"``).  Elsewhere the program parses text the renderer cannot see:
        the word's own text around it (``curl "https://h/u/$(echo {id})/a"`` with ``{7,..}``
        fetched another path), or the words an unquoted one is split into."""
        if not nested:
            return
        if _quoted_substitution(parts):
            self.through_output.update(nested)  # (a filter's output is refused: see altered)
            if len(nested) > 1:  # (several values join: '-' and '1')
                self.alter(nested, "any")
            return
        for index in nested:
            self.refuse(
                index,
                f"in a command substitution in {rule.where}, an argument its program parses "
                "further, with other text of the argument around it or unquoted, so the "
                "renderer cannot check the argument the program gets",
            )

    def parsed_input(
        self, command: list[str | None], word: str, parts: tuple[Part, ...]
    ) -> str | None:
        """Where the expansion ``word`` (a ``read`` variable, ``"$(cat)"``) that may hold what
        the pipe brought stands in an argument its program parses further, or in a part of a
        URL (``… | while read -r p; do kill "$p"; done`` with 0): what that is, else None.
        What ``read`` stored is a line of the pipe's text, or a part of one, which no check
        sees; a whole curl URL (``curl "$u"``) may be any, as ``curl {url}`` may."""
        if not _READS_LINES.search(self.text) and "$(" not in self.text:
            return None  # (no `read`, no `$( )`: no variable holds what the pipe brought)
        rule = argument_rule(command, _quoted_prefix(parts))
        if rule is not None and not (any_whole_word(rule) and _QUOTED_PARAMETER.fullmatch(word)):
            return f"{rule.where}, an argument its program parses further"
        return _IN_URL if _in_url(parts) else None

    def check_piped_options(
        self, piped: list[int], command: list[str | None], prefix: str
    ) -> None:
        """Where an expansion that may hold what the pipe brought (``read v`` then ``"$v"``)
        stands where a program reads options or NAME=value (``... | while read -r v; do git
        ls-remote "$v" r; done`` with ``--upload-pack=cmd``), check each word of the values
        that reach the pipe when rendered, as for a field written there."""
        taker = option_taker(command) if not prefix else pipe_file_option(command, prefix)
        reader = assignment_reader(command, prefix) or (
            None if prefix else environment_setter(command, "X=")
        )
        if not (taker or reader):
            return
        if _VARIABLES in piped:
            self.use_variables((taker or "", reader or ""))
        if len(self.unfold(piped)) > 1:  # (`printf %s {a} {b}` with '-' and 'oProxyCommand=')
            self.alter(self.unfold(piped), "any")
        for index in self.unfold(piped):
            if taker:
                self.options.setdefault(index, taker)
            if reader:
                self.assignments.setdefault(index, reader)
            self.split.setdefault(index, False)
            self.through_output.add(index)

    def command_role(self, parts: tuple[Part, ...], start: int) -> str:
        """The role of a word in command position: reserved word, assignment or command."""
        raw = self.text[start : self.i]  # a reserved word is recognised only unquoted
        if raw in _OPENERS or raw in _CLOSERS or raw == "for":
            return RESERVED
        if raw in _UNFOLLOWED:
            raise _Stop(start, f"the reserved word {raw!r}")
        if parts and parts[0][0] == "lit" and _ASSIGNMENT.match(self.text, start):
            return ASSIGNMENT
        if _BASH_ASSIGNMENT.match(raw):
            raise _Stop(
                start,
                "bash's append or array assignment ('NAME+=', 'NAME[...]='), which dash reads "
                "as a command's name",
            )
        return COMMAND

    def note_field(
        self, index: int, role: str, alone: bool, parts: tuple[Part, ...]
    ) -> None:
        """Record a field's word and refuse it where its role or neighbours are unsafe."""
        self.fields[index] = (role, alone)
        if role == ASSIGNMENT:
            self.refuse(index, "in an assignment (NAME=value before a command)")
        elif role == LOOP_NAME:
            self.refuse(index, "the variable name of a for loop")
        for position, (kind, value) in enumerate(parts):
            if kind != "active" or value not in "[]{}~!":
                continue
            home = (
                position == 0
                and len(parts) > 1
                and parts[1][0] == "lit"
                and str(parts[1][1]).startswith("/")
            )
            if value != "~" or not home:  # '~/{x}': the value is past the tilde prefix
                self.refuse(
                    index,
                    f"in one word with an unquoted {value!r}, which the shell would expand "
                    f"together with the value ({_EXPANDS[str(value)]})",
                )

    # -- words ----------------------------------------------------------------------------

    def word(self, depth: int) -> tuple[Part, ...]:
        """The parts of one word, starting at ``self.i`` (not at a blank or operator)."""
        text = self.text
        simple = _SIMPLE_WORD.match(text, self.i)
        if simple:  # the common case, in one regex: plain text and single quotes only
            self.i = simple.end()
            return (("lit", _SINGLE_QUOTED.sub(r"\1", simple.group())),)
        n = len(text)
        parts: list[Part] = []
        brace: int | None = None  # where an unquoted '{' is, which may start a brace expansion

        def add(kind: str, value: object) -> None:
            if kind == "lit" and parts and parts[-1][0] == "lit":
                parts[-1] = ("lit", str(parts[-1][1]) + str(value))
            else:
                parts.append((kind, value))

        while self.i < n:
            c = text[self.i]
            start = self.i
            if c in " \t\n;&|<>()":
                break
            if c == FIELD:
                index = self.field
                self.field += 1
                self.i += 1
                self.check_neighbours(index, start)
                parts.append(("field", index))
            elif c == "'":
                end = text.find("'", start + 1)
                if end < 0:
                    raise _Stop(start, "an unclosed single quote")
                body = text[start + 1 : end]
                while FIELD in body:
                    self.refuse(
                        self.field,
                        "inside single quotes written in the static text, where quoting "
                        "its value would break",
                    )
                    self.field += 1
                    body = body.replace(FIELD, "", 1)
                add("lit", body)
                self.i = end + 1
            elif c == '"':
                items = self.double(depth)
                if all(isinstance(item, str) for item in items):
                    add("lit", "".join(map(_unescape_double, items)))  # type: ignore[arg-type]
                else:
                    add("double", items)
            elif c == "\\":
                if start + 1 >= n:
                    raise _Stop(start, "a backslash at the end of the text")
                following = text[start + 1]
                if following == FIELD:
                    raise _Stop(
                        start, "a backslash right before a field, which would escape its quote"
                    )
                if following == "\n":
                    raise _Stop(start, "a line continuation inside a word or after an operator")
                self.i += 2
                add("lit", following)
            elif c == "$":
                add(*self.dollar(depth, start))
            elif c == "`":
                raise _Stop(start, _BACKQUOTE)
            elif c in ACTIVE:
                if c == "{" and brace is None:
                    brace = start
                elif c == "}" and brace is not None and _BRACE_LIST.search(text, brace, start):
                    raise _Stop(brace, _BRACE_EXPANSION)
                parts.append(("active", c))
                self.i += 1
            else:
                match = _PLAIN.match(text, start)
                assert match is not None
                add("lit", match.group())
                self.i = match.end()
        return tuple(parts)

    def check_neighbours(self, index: int, start: int) -> None:
        """Refuse a field whose static neighbours could join its value to something."""
        text = self.text
        before = text[start - 1] if start else " "
        after = text[start + 1] if start + 1 < len(text) else " "
        if before == "\\":
            self.refuse(index, "right after a backslash, which would escape its opening quote")
        elif before == "$":
            self.refuse(index, "right after '$', which would make its value an expansion")
        elif before == "}" and self.closes_parameter(start - 1):
            pass  # (`${dir}{x}`: the braces end the name, as the quotes of `"$dir"{x}` do)
        elif before not in _NEIGHBOURS and before not in " \t\n;&|()<>'\"" and before != FIELD:
            self.refuse(index, f"right after {before!r}: {_TOUCHING}")
        elif before in _NEIGHBOURS and _NAME_PARAMETER.search(self.word_prefix(start)):
            self.refuse(index, "right after a $name, whose name its value could extend")
        if after not in _NEIGHBOURS and after not in " \t\n;&|)'\"\\" and after != FIELD:
            self.refuse(index, f"right before {after!r}: {_TOUCHING}")

    def closes_parameter(self, brace: int) -> bool:
        """Whether the '}' at ``brace`` closes a ``${name}`` (no operator)."""
        opening = self.text.rfind("${", 0, brace)
        if opening < 0:
            return False
        return _BRACED_PARAMETER.fullmatch(self.text, opening, brace + 1) is not None

    def word_prefix(self, start: int) -> str:
        """The unquoted letters right before ``start`` back to a ``$``, if any."""
        j = start
        while j and (self.text[j - 1].isalnum() or self.text[j - 1] == "_"):
            j -= 1
        return self.text[j - 1 : start] if j and self.text[j - 1] == "$" else ""

    def dollar(self, depth: int, start: int) -> Part:
        """A part starting with ``$``: ``$name``, ``${name}`` or ``$( )``; others stop."""
        text = self.text
        if text.startswith("$((", start):
            raise _Stop(start, "arithmetic expansion ('$((')")
        if text.startswith("$(", start):
            self.i = start + 2
            inner: list[Token] = []
            stdin = self.stdin
            self.substitutions += 1
            self.commands(depth + 1, True, inner, stdin)
            self.substitutions -= 1
            self.stdin = stdin
            return ("sub", tuple(inner))
        match = _BRACED_PARAMETER.match(text, start) or _NAME_PARAMETER.match(text, start)
        if match:
            self.i = match.end()
            return ("param", match.group())
        following = text[start + 1 : start + 2]
        if following == "[":
            raise _Stop(start, "bash's arithmetic '$[', which spans blanks")
        if following == "{":
            raise _Stop(start, "a parameter expansion with an operator ('${...}')")
        if following == "'":
            raise _Stop(start, "$'...' quoting (bash reads a C string, dash a '$' and a quote)")
        if following == '"':
            raise _Stop(start, "$\"...\" quoting (bash reads a translated string, dash a '$')")
        if following == FIELD:
            self.refuse(self.field, "right after '$', which would make its value an expansion")
        self.i = start + 1
        return ("lit", "$")

    def double(self, depth: int) -> tuple[object, ...]:
        """The inside of a double-quoted string starting at ``self.i`` (§2.2.3)."""
        text = self.text
        start = self.i
        self.i += 1
        items: list[object] = []
        while True:
            if self.i >= len(text):
                raise _Stop(start, "an unclosed double quote")
            c = text[self.i]
            if c == '"':
                self.i += 1
                return tuple(items)
            if c == FIELD:
                self.refuse(
                    self.field,
                    "inside double quotes written in the static text, where quoting its "
                    "value would break",
                )
                self.field += 1
                self.i += 1
            elif c == "\\":
                following = text[self.i + 1 : self.i + 2]
                if following == FIELD:
                    self.refuse(self.field, "right after a backslash")
                    self.i += 1
                elif following == "\n":  # (`"$\⏎(cmd)"` is `"$(cmd)"`: the shell drops it first)
                    raise _Stop(self.i, "a line continuation in a double-quoted string")
                else:
                    items.append(text[self.i : self.i + 2])
                    self.i += 2
            elif c == "$":
                items.append(self.dollar(depth, self.i))
            elif c == "`":
                raise _Stop(self.i, _BACKQUOTE)
            else:
                match = _DOUBLE_PLAIN.match(text, self.i)
                assert match is not None
                items.append(match.group())
                self.i = match.end()


# What, in the last part of a path as the shell reads it, makes the name one the text does not
# spell: an expansion, a glob, bash's brace expansion (`s.{sh,x}`; `{}` is two letters, as is
# a `~` there).
_LEADING_VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
# A value's word, read as the name of a file: any name, as an expansion's (`$` says so).
_A_VALUE = "${value}"
# A redirection's target that a value names, as the names it may be: any file in the working
# directory (a name a command substitution computes matches every name) or under a hidden
# name in $HOME (`> {out}` with .profile or ~/.bashrc), where programs read files by name.
_VALUE_PATHS = ("./$(a value)", "$HOME/.$(a value)")
_VALUE_NAMES = frozenset(posixpath.normpath(name) for name in _VALUE_PATHS)  # (as recorded)
# The same files, written by a program not known to run nothing (`curl -o {f} {url}`): under
# other spellings, checked only against the commands after the writer (Lexer.note_output)
_OUTPUT_PATHS = ("$PWD/$(a value)", "${HOME}/.$(a value)")
_OUTPUT_NAMES = tuple(posixpath.normpath(name) for name in _OUTPUT_PATHS)
# The programs whose output is their static words alone, or nothing (Lexer.writes_own_text).
_OWN_TEXT_WRITERS = frozenset({"echo", "printf", "true", "false", ":"})
_EXPANDED_NAME = re.compile(r"[$`*?[]|\{[^{}]*(?:,|\.\.)[^{}]*\}")
_SUBSTITUTION = re.compile(r"\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`")


def _in_working_directory(name: str) -> bool:
    """Whether the written file ``name`` may be in the working directory (of the template, or
    after its ``cd``): a relative path, or one under ``$PWD``."""
    return not name.startswith(("/", "~", "$")) or name.startswith(("$PWD/", "${PWD}/", "$(pwd)/"))


def _ran_by(log: Sequence[tuple[str | None, ...]]) -> tuple[set[str], set[str], set[str]]:
    """The implicit readers, command words and programs run (past env, sudo...) of the
    commands of ``log``, as :meth:`_Lexer.note_files` records them for the whole template."""
    implicit = {reader for command in log if (reader := implicit_code_reader(command))}
    words = {"" if command[0] in (None, EXPANDED) else command[0] for command in log}
    programs: set[str] = set()
    for command in log:
        ran = command_run(command)
        if ran and ran[0] is not None:  # (a field there is refused as such)
            programs.add("" if ran[0] == EXPANDED else ran[0])
    return implicit, words, programs


def _writes_only_data(marked: list[str | None]) -> bool:
    """Whether the command ``marked`` (none: a redirection alone) is a program known to run
    nothing (``echo``, ``printf``, ``tee``): only then is a file a value names, written with
    another value, recorded as any file (a program of unknown kind writing its own output,
    ``./process {x} > {out}``, would count as that file's reader)."""
    first = marked[0] if marked else "echo"
    return first not in (None, EXPANDED) and "/" not in first and first in DATA_OPTION_PROGRAMS


def _may_name_code(marked: list[str | None]) -> bool:
    """Whether a value among the words of ``marked`` may name a file the command runs or reads
    as code: a value past the command's name (``sh {y}``), or as the name of a command given
    arguments (``{cmd} s.sh``; alone, it is a program the value names, as before), but in
    the arguments of a program known to run nothing (``cat {f}``, ``echo {x}``)."""
    if None not in marked[1:] and not (marked[:1] == [None] and len(marked) > 1):
        return False
    first = marked[0]
    return first in (None, EXPANDED) or "/" in first or first not in DATA_OPTION_PROGRAMS


def _may_be_the_file(word: str, name: str) -> bool:
    """Whether the path ``word`` may name the file written as ``name``.  The directories
    before a file's name cannot be compared (``~/s.sh``, ``"$HOME/s.sh"``, ``$PWD/s.sh`` and,
    after a ``cd``, ``s.sh`` may all be one file), so the same last part counts as the same
    file, and so does a last part of ``word`` that the shell expands (``"$f"``, ``s.s?``,
    ``*``, ``$(ls)``: the file system's names, which the template writes).  (A file written
    through an expansion, ``> "$f"``, is one the text's own words name in the same spelling.)"""
    last = _last_part(word)
    if last == _last_part(name) or _EXPANDED_NAME.search(last):
        return True
    # A name a command substitution computes may be any name its fixed parts allow (`mv a
    # "$(printf b.sh)"; sh b.sh` ran the value; `> "log-$(date +%s).txt"` is no `b.sh`).
    pattern = _SUBSTITUTION.sub("\0", name)
    written = glob_escape(_last_part(pattern)).replace("\0", "*")
    return "\0" in pattern and fnmatchcase(last, written)


class _PathIndex:
    """Paths (the names files are written under, or the words that may name them) by their
    last part, so that those :func:`_may_be_the_file` matches are found without a look at
    each: a template that writes and reads many files is read in linear time."""

    def __init__(self) -> None:
        self.places: dict[str, int] = {}  # each path, and its place in the order added
        self._by_last: dict[str, list[str]] = {}
        self._expanded: list[str] = []  # those whose last part the shell expands (`"$f"`, `*`)
        self._computed: list[str] = []  # those with a command substitution (`log-$(date)`)

    def update(self, paths: Iterable[str]) -> None:
        """Add the paths of ``paths`` past those added before (a dict that only grows)."""
        for path in itertools.islice(paths, len(self.places), None):
            self.places[path] = len(self.places)
            last = _last_part(path)
            self._by_last.setdefault(last, []).append(path)
            if _EXPANDED_NAME.search(last):
                self._expanded.append(path)
            if _computed_name(path):
                self._computed.append(path)

    def naming(self, name: str) -> list[str]:
        """The paths that may name the file written as ``name``, in order."""
        if _computed_name(name):  # (a pattern to match each last part against: rare)
            return [path for path in self.places if _may_be_the_file(path, name)]
        found = {*self._by_last.get(_last_part(name), ()), *self._expanded}
        return sorted(found, key=self.places.__getitem__)

    def named_by(self, word: str) -> list[str]:
        """The paths, as files are written under them, that ``word`` may name, in order."""
        if _EXPANDED_NAME.search(_last_part(word)):
            return list(self.places)
        computed = (path for path in self._computed if _may_be_the_file(word, path))
        found = {*self._by_last.get(_last_part(word), ()), *computed}
        return sorted(found, key=self.places.__getitem__)


def _computed_name(name: str) -> bool:
    """Whether a command substitution computes part of the file name ``name``."""
    return "\0" in _SUBSTITUTION.sub("\0", name)


def _last_part(path: str) -> str:
    """The file's own name in ``path`` (``s.sh`` in ``"$HOME/./s.sh"``)."""
    return posixpath.basename(posixpath.normpath(path))


def _expanded_target(parts: Sequence[Part]) -> str | None:
    """A redirection's target that starts with an expansion (``"$HOME/.gitconfig"``,
    ``${HOME}/.profile``, ``$(pwd)/.git/hooks/x``), as written (:func:`_shown_word`), else
    None: the expansion may be ``$HOME`` or the working directory."""
    first = parts[0] if parts else None
    if first and first[0] == "double" and isinstance(first[1], tuple) and first[1]:
        first = first[1][0] if isinstance(first[1][0], tuple) else None
    if not first or first[0] not in ("param", "sub"):
        return None
    return _shown_word(parts)


def _shown_word(parts: Sequence[Part]) -> str:
    """A word as written, with each ``$name`` and ``${name}`` as is, a command substitution
    as ``$(...)`` and the quotes of a double-quoted string dropped."""
    flat: list[object] = []
    for kind, item in parts:
        flat.extend(item if kind == "double" and isinstance(item, tuple) else [(kind, item)])
    text = []
    for piece in flat:
        if isinstance(piece, str):
            text.append(piece)
        elif isinstance(piece, tuple) and piece[0] in ("lit", "active", "param"):
            text.append(str(piece[1]))
        else:
            text.append("$(...)")
    return "".join(text)


def _unescape_double(chunk: str) -> str:
    """A chunk of double-quoted text, with ``\\$ \\` \\" \\\\`` and a backslash-newline
    unescaped (§2.2.3)."""
    if len(chunk) == 2 and chunk[0] == "\\" and chunk[1] in '$`"\\\n':
        return chunk[1] if chunk[1] != "\n" else ""
    return chunk


def lex(text: str, nesting: int = 0) -> Lexed:
    """Lex ``text`` (fields marked by NUL) into tokens, as far as the subset reaches.
    ``nesting``: how many command strings ``text`` is inside."""
    lexer = _Lexer(text, nesting)
    tokens: list[Token] = []
    stop: int | None = None
    reason = ""
    try:
        lexer.commands(0, False, tokens)
    except _Stop as stopped:
        stop, reason = stopped.offset, stopped.reason
        if not lexer.last_argument and _BARE_LAST_ARGUMENT.search(text, stop):
            # what follows may read `$_` by its bare name: every argument's value may be there
            lexer.last_argument = True
            lexer.add_variables(
                [index for index, (role, _) in lexer.fields.items() if role in (COMMAND, ARGUMENT)]
            )
        lexer.check_files(stopped=True)
        lexer.check_environment()
        # A variable that holds a value may be used in what follows, which is unknown: bash
        # evaluates `$(($1))`, `${!1}`, `[[ $f -eq 1 ]]` with a value a[$(cmd)] and runs cmd.
        for index in lexer.variables:
            lexer.refuse(
                index,
                "in a shell variable (of a for loop, set's positional parameters or bash's $_) "
                f"that the text may use at or after {reason}, which the renderer does not "
                "follow, so it cannot prove the variable is used only as data (bash evaluates "
                "$(($1)) or ${!1} with a value a[$(cmd)] and runs cmd)",
            )
        # What follows the construct is unknown, so is where the output of the pipeline it
        # stands in goes (`echo {x} | time sh`, `echo {x} > >(sh)`, `echo {x} |& sh`,
        # `echo {x} $'' | sh`): refuse the fields of that pipeline (of the outermost one
        # open, as a `( )` or `$( )` writes into the pipeline around it).
        for index in range(lexer.pipelines[0] if lexer.pipelines else 0, lexer.field):
            lexer.refuse(
                index,
                f"in a pipeline with {reason}, which the renderer does not follow, so it "
                "cannot prove where the value goes (a shell reading its program from a pipe "
                "would run it)",
            )
    if stop is None:
        lexer.check_files(stopped=False)
        lexer.check_environment()
    spans = tuple(lexer.spans)
    operands = frozenset(lexer.operands)
    return Lexed(
        tuple(tokens), stop, reason, lexer.refusals, lexer.fields, spans, operands,
        lexer.options, lexer.assignments, frozenset(lexer.command_names), lexer.comments,
        lexer.glued, lexer.split, lexer.altered(), lexer.rules,
    )  # fmt: skip


def _nested_fields(tokens: Sequence[Token]) -> list[int]:
    """The fields anywhere in ``tokens`` (the inside of a ``$( )``), also in nested ones."""
    found: list[int] = []
    for token in tokens:
        for kind, item in token.parts if isinstance(token, Word) else ():
            if kind == "field":
                found.append(int(item))
            elif kind == "sub":
                found += _nested_fields(item)
            elif kind == "double":
                for part in item:
                    if isinstance(part, tuple) and part[0] == "sub":
                        found += _nested_fields(part[1])
    return found


def _builtin_code(command: list[str | None]) -> str | None:
    """Why the shell itself reads the last word of ``command`` as code, a variable name or a
    format (``eval``, ``read``, ``printf -v``, ``test -v``, ``set -o``), else None.  The
    same rule for a field written there and for an expansion that may hold a value (``set
    -- {x}; printf -v "$1" y``): bash evaluates the subscript of a name ``a[$(cmd)]`` and
    runs cmd."""
    name, before = command[0] if command else None, command[1:-1]
    if name in _REPARSING:
        return f"an argument of {name}, {_REPARSING[name]}"
    rest = before[2:] if name == "printf" and before[:1] == ["-v"] else before  # (-v NAME)
    if name == "printf" and (before == ["-v"] or rest in ([], ["--"])):  # (`printf -v v -- {x}`)
        return "printf's format or -v variable name, which printf interprets"
    if (name == "set" and before and before[-1] == "-o") or name == "shopt":
        return (
            f"a shell option of {name}, which changes how bash reads the commands after it "
            "(set -o keyword makes an argument NAME=value a variable of its command)"
        )
    if name in ("test", "[") and ("-v" in before or "-R" in before):
        return f"an operand of {name} -v, a variable name whose subscript bash evaluates"
    return None


def _prefix_assignments(tokens: Sequence[Token]) -> list[Word]:
    """The assignment words holding an expansion right before the end of ``tokens``: those
    of the command whose name comes next (``BASH_ENV=$1 bash``)."""
    found = []
    for token in reversed(tokens):
        if not isinstance(token, Word) or token.role != ASSIGNMENT:
            break
        if any(kind in _EXPANSIONS for kind, _ in token.parts):
            found.append(token)
    return found


# Builtins that may evaluate a variable's text as arithmetic by its bare name: always (let),
# with an option other than those known to set no integer or name-reference attribute
# (declare -i, -n; -r, -x, -p... are known), or in a subscript of a name operand (`test -v
# 'a[n]'`, `printf -v 'a[n]'`, `read 'a[n]'`, `wait -p 'a[n]'`, `declare 'a[n]=1'`).
_DECLARING = frozenset({"declare", "typeset", "local"})
_PLAIN_DECLARE_OPTIONS = frozenset("rxpgfFlut")
_NAME_OPERAND_COMMANDS = frozenset(
    {"test", "[", "printf", "read", "mapfile", "readarray", "wait", "unset", "export", "readonly"}
)
_SUBSCRIPT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[\"']*\[")


def _arithmetic_names(command: list[str | None], word: str) -> bool:
    """Whether bash may read a variable by its bare name as arithmetic in ``command``, whose
    last word is ``word`` as written: ``let``, ``declare``, ``typeset``, ``local``, or a
    subscript ``NAME[`` in an argument of a builtin that takes variable names."""
    name = command[0] if command else None
    if name == "let":
        return True
    if name in _DECLARING and len(command) > 1:
        last = command[-1]
        if last is None or (
            last[:1] in ("-", "+") and not _PLAIN_DECLARE_OPTIONS.issuperset(last[1:])
        ):
            return True  # (`declare -i n`, `declare -n r`, or an option from an expansion)
    in_names = name in _NAME_OPERAND_COMMANDS or name in _DECLARING
    return in_names and _SUBSCRIPT.search(word) is not None


# printf formats that print their argument as is (a line each).
_COPY_FORMATS = frozenset({"%s", "%s\\n"})
# A word that may set IFS, the characters the shell splits an expansion's output at.
_SETS_IFS = re.compile(r"(?<![A-Za-z0-9_])IFS(?![A-Za-z0-9_])")
# A `read` whose options (up to the end of its command) have no -r.
_READ_WITHOUT_R = re.compile(r"(?<![\w-])read(?![\w-])(?![^;&|\n)]*[ \t]-[A-Za-z]*r)")


def _emits_arguments(command: list[str | None]) -> str:
    """How the output of ``command`` may differ from the text of its last argument: "" for
    ``printf %s``/``printf '%s\\n'``, ``set`` (its ``$1`` is the value) and ``dirname``, "echo" for
    echo (dash's reads backslash escapes: ``\\055`` is ``-``), else "any"."""
    if command[:1] == ["set"] or (command[:1] == ["printf"] and len(command) > 2):
        return "" if command[0] == "set" or command[1] in _COPY_FORMATS else "any"
    if command[:1] == ["dirname"]:
        return ""  # (its output starts as the value does, or is '.' or '/')
    return "echo" if command[:1] == ["echo"] else "any"


def _copies_input(command: list[str | None]) -> bool:
    """Whether ``command`` copies its standard input to its output as it is: ``cat`` or
    ``tee`` with no option."""
    return command[0] in ("cat", "tee") and all(
        word is not None and word[:1] != "-" for word in command[1:]
    )


def _printf_v(command: list[str | None]) -> bool:
    """Whether ``command`` is bash's ``printf -v NAME ...``, which stores its output (the
    value of an argument) in the variable NAME, as ``set --`` does in ``$1``."""
    return command[:2] == ["printf", "-v"]


def _callback(command: list[str | None]) -> bool:
    """Whether a ``mapfile``/``readarray`` command has a ``-C`` option (bash evaluates
    ``CALLBACK INDEX 'LINE'`` every ``-c`` lines), in a cluster too, or a word it cannot read."""
    return any(
        word is None or (word[:1] == "-" and "C" in word) for word in command[1:]
    )


def _quoted_substitution(parts: tuple[Part, ...]) -> bool:
    """Whether a word is one double-quoted ``$( )`` (``"$(cat f)"``): its output is one word,
    as a field's value is."""
    return (
        len(parts) == 1
        and parts[0][0] == "double"
        and len(parts[0][1]) == 1
        and isinstance(parts[0][1][0], tuple)
        and parts[0][1][0][0] == "sub"
    )


# The long names of set's option letters that _keyword_mode looks for.
_SET_OPTIONS = {"k": "keyword", "a": "allexport"}


def _exports(command: list[str | None]) -> bool:
    """Whether ``command`` puts the variables its arguments name in the environment:
    ``export``, or ``declare``/``typeset``/``local`` with ``-x`` (also in a cluster)."""
    if command[:1] == ["export"]:
        return True
    return command[:1] != [] and command[0] in ("declare", "typeset", "local") and any(
        word is not None and word[:1] == "-" and "x" in word for word in command[1:]
    )


def _keyword_mode(command: list[str | None], letter: str = "k") -> bool:
    """Whether ``set`` or ``shopt -o`` turns on bash's keyword mode with its last word: ``set
    -k`` (also in a cluster, ``set -ek``), ``set -o keyword``, ``shopt -os keyword``; with
    ``letter`` "a", the allexport mode (``set -a``, ``set -o allexport``)."""
    word = command[-1]
    if word is None:
        return False
    if command[0] == "set" and word[:1] == "-" and word[1:2] != "-" and letter in word[1:]:
        return True
    return word == _SET_OPTIONS[letter] and any(
        option is not None and option[:1] == "-" and "o" in option[1:] for option in command[1:-1]
    )


def _positional_use(command: list[str | None], nesting: int) -> tuple[str | None, str, str]:
    """For a word that is a positional parameter of a shell's command string written in the
    static text (``sh -c 'eval "$1"' sh {x}``): why the string puts it where code goes, else
    ``(None, option taker, NAME=value reader)`` of the program that the string hands it to
    (``sh -c 'ssh "$1" ls' sh {h}``: ssh), as for a field written there."""
    found = positional_script(command)
    if found is None:
        return None, "", ""
    return _positional_in_script(*found, nesting + 1)


@lru_cache(maxsize=256)
def _positional_in_script(shell: str, script: str, nesting: int) -> tuple[str | None, str, str]:
    """:func:`_positional_use` for the command string ``script`` of ``shell``: lexed after
    ``set -- VALUE``, the positional parameters are variables holding the value, which every
    expansion in a place of code may hold (``$1``, ``"$@"``, ``$0``, ``f=$1; eval "$f"``)."""
    where = f"a positional parameter of {shell} -c {script!r}"
    if nesting > _MAX_DEPTH:
        return f"{where}, in command strings nested more than {_MAX_DEPTH} deep", "", ""
    lexed = lex(f"set -- {FIELD}\n{script}", nesting)
    if lexed.stop is not None:
        return (
            f"{where}, a command string with {lexed.stop_reason}, which the renderer does not "
            "follow, so it cannot prove that the string uses the value only as data",
            "",
            "",
        )
    why = lexed.refusals.get(0)
    if why is not None:
        return f"{where}, which puts it where code goes: {why}", "", ""
    return None, lexed.options.get(0, ""), lexed.assignments.get(0, "")


def _positional_rules(command: list[str | None], nesting: int) -> tuple[ArgumentRule, ...]:
    """The rules of the arguments a shell's command string written in the static text puts
    its positional parameter in (``bash -c 'echo hi > "$1"' sh {x}``: a redirection's target),
    so that the value is checked as a field written there."""
    found = positional_script(command)
    return () if found is None else _positional_rules_in(found[1], nesting + 1)


@lru_cache(maxsize=256)
def _positional_rules_in(script: str, nesting: int) -> tuple[ArgumentRule, ...]:
    if nesting > _MAX_DEPTH:
        return ()  # (refused by _positional_in_script)
    return tuple(lex(f"set -- {FIELD}\n{script}", nesting).rules.get(0, ()))


def _script_reads_code(script: str, nesting: int) -> bool:
    """Whether the command string ``script`` (``sh -c 'cat | sh'``) may run what it reads on
    its standard input as code: lexed as the input of a pipe from a field, that field is
    refused.  Past ``_MAX_DEPTH`` nested command strings the answer is yes, never a
    RecursionError."""
    if nesting > _MAX_DEPTH:
        return True
    return 0 in lex(f"{FIELD} | (\n{script}\n)", nesting).refusals


def word_at(text: str, start: int) -> tuple[tuple[Part, ...], int]:
    """Lex the one word of ``text`` that starts at ``start``: its parts and where it ends.
    Raises ``ValueError`` if the lexer stops inside it."""
    simple = _SIMPLE_WORD.match(text, start)
    if simple:  # the fast path of _Lexer.word, without building a lexer
        return (("lit", _SINGLE_QUOTED.sub(r"\1", simple.group())),), simple.end()
    lexer = _Lexer(text)
    lexer.i = start
    try:
        return lexer.word(0), lexer.i
    except _Stop as stopped:
        raise ValueError(stopped.reason) from None


def command_role(text: str, parts: tuple[Part, ...], start: int, end: int) -> str:
    """The role the word ``text[start:end]`` (lexed to ``parts``) has in command position:
    ``COMMAND``, ``ASSIGNMENT`` or ``RESERVED``.  Raises ``ValueError`` for a reserved word
    the lexer does not follow."""
    lexer = _Lexer(text)
    lexer.i = end
    try:
        return lexer.command_role(parts, start)
    except _Stop as stopped:
        raise ValueError(stopped.reason) from None


# A value in an expansion in a URL after the URL's own text: judged only in a field written there.
_IN_URL = (
    "a part of a URL after the URL's own text, which the renderer checks only for a field "
    "written there (curl and wget squash '..': ../../admin fetched /admin)"
)


def _in_url(parts: tuple[Part, ...]) -> bool:
    """Whether a word's own text before its first expansion starts a URL (``https://h/u/$id``,
    ``"--url=https://h/$(…)"``): what that expansion holds is a part of the URL."""
    text = ""
    for kind, item in parts:
        for piece in item if kind == "double" and isinstance(item, tuple) else [(kind, item)]:
            if not isinstance(piece, str) and piece[0] not in ("lit", "active"):
                return URL_START.search(text) is not None
            text += piece if isinstance(piece, str) else str(piece[1])
    return False


def _socket_lead(parts: tuple[Part, ...]) -> str | None:
    """The static start of a redirection's target (``""`` for ``> {f}``, ``"/dev/"`` for ``>
    /dev/{x}``) when the rest, a value's or an expansion's, may make it one of bash's network
    names (``/dev/tcp/HOST/PORT``); None when it cannot: its start is other text, or the name
    is written whole in the text (``> /dev/tcp/{host}/80``, the author's own socket)."""
    if all(kind in ("lit", "active") for kind, _ in parts):
        return None
    flat: list[object] = []
    for kind, item in parts:  # (the text before the first field or expansion, quoted too)
        flat.extend(item if kind == "double" and isinstance(item, tuple) else [(kind, item)])
    lead = ""
    for piece in flat:
        if not isinstance(piece, str) and not (
            isinstance(piece, tuple) and piece[0] in ("lit", "active")
        ):
            break
        lead += piece if isinstance(piece, str) else str(piece[1])
    sockets = ("/dev/tcp/", "/dev/udp/")
    return lead if any(name.startswith(lead) and lead != name for name in sockets) else None


def _quoted_prefix(parts: tuple[Part, ...]) -> str:
    """:func:`_prefix`, with the text of double quotes too (``-o "ProxyJump="{x}``)."""
    prefix = ""
    for kind, item in parts:
        inner = item if kind == "double" and isinstance(item, tuple) else (item,)
        if kind not in ("lit", "active", "double") or not all(isinstance(i, str) for i in inner):
            break
        prefix += "".join(str(i) for i in inner)
    return prefix


def _prefix(parts: tuple[Part, ...]) -> str:
    """A word's plain text before its first field or expansion (``-e`` of ``-e{x}``)."""
    prefix = ""
    for kind, item in parts:
        if kind not in ("lit", "active"):
            break
        prefix += str(item)
    return prefix
