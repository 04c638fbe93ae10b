"""The data-flow core: follow formatted strings to the sinks, without running anything.

A string is *formatted* when values were put into its text by an f-string, ``%``,
``.format()``, ``+`` or ``str.join`` with a part that is not a known constant.  The analysis
follows such a string through names (``q = f"..."``, ``q += ...``, ``q: str = ...``),
attributes (``self.query``), function returns, module-level names used inside functions,
both branches of an ``if``, wrappers that keep the text (``text()``, ``textwrap.dedent``,
``.strip()``...) and, for notebooks and IPython, from one cell to the next (one
:class:`Analysis` reads the cells in order).  Each sink argument that receives one is a
:class:`Finding`.  Names bound to constant strings stay constants: ``f"select * from {TABLE}"``
with ``TABLE = "users"`` is not a finding.

What it does not do: follow values through containers other than a list built by
``.append``, across modules, or through calls to functions it has not seen.
"""

from __future__ import annotations

import bisect
import builtins
import contextlib
import dataclasses
import functools
import itertools
import operator
import re
import shlex
import string
import sys
from collections.abc import Callable, Container, Iterable, Iterator, Mapping
from dataclasses import MISSING, dataclass, field, replace
from typing import Any

from .. import _shell_programs
from .._lines import python_lines
from ..rewrite import has_istring
from ..template import _speedups as _compiled
from . import _ast as ast  # (ast's names, read faster: see _ast.py)
from .click_options import NUMBER, click_parameters
from .numbers import NUMBER_ANNOTATIONS, CallIndex, numeric_parameter
from .roles import role_refusal, samples
from .sinks import IMPORT_STATEMENTS, SQL_WORDS, WRITING_METHODS, Sink, imported_by, sinks

__all__ = ["ROLE_REFUSED", "Analysis", "Finding", "Formatted", "as_written", "bound_names"]

IPYTHON_EXPANSION = "IPython's {}/$ expansion"
# A finding's `how` for validated values in a role the renderer refuses, its reason after it
# (see _RoleFinding).
ROLE_REFUSED = (
    "an f-string whose values were validated, but in a role the renderer refuses whatever "
    "their characters: "
)
_FIX_HINT = {
    "!": "{shlex.quote(str(x))} for each value, or c.IStringExtension.safe_shell_escapes = True"
    " (which renders the line by sh)",
    "shell": "sh(i'...') for a shell, or argv(i'...') with shell=False",
    "sql": "*sql(i'...'), which passes the values as parameters",
}


# (Not frozen, though nothing assigns to one: a frozen dataclass's __init__ costs four times
# as much, and a cell with a finding makes several.)
@dataclass(slots=True)
class Formatted:
    """What is known of a string value: its written text, and how values got into it
    (``how`` is None for a constant)."""

    how: str | None
    text: str
    line: int = 0
    first: Formatted | None = None  # a tuple's first item (`return query, params`)

    @property
    def constant(self) -> bool:
        """Whether the whole string is known (no value formatted into it)."""
        return self.how is None


class _ShellWord(Formatted):
    """A name a pattern with ``-`` validated (``[a-z][a-z0-9-]*``): safe as a shell word
    (no ``-`` first, no character a shell reads), not in SQL (``--`` starts a comment).
    Anything built from it is formatted (a plain :class:`Formatted`); a shell sink accepts
    an f-string written in its call whose fields are such names (:meth:`_shell_words_only`).
    ``samples``: the values besides ``main`` the role check tries (:func:`.roles.samples`)."""

    __slots__ = ("samples",)
    samples: tuple[str, ...]


SHELL_WORD = "a value its pattern allows only as a shell word"


class _Checked(Formatted):
    """A name a check left one of a set of constants or a string of a plain pattern's
    (``\\w+``): a constant to the flow (nothing can break out of its place), whose role in a
    command or query the renderer is still asked about (:meth:`Analysis._check_roles`), with
    ``samples`` as :class:`_ShellWord`'s."""

    __slots__ = ("samples",)
    samples: tuple[str, ...]


def _checked(
    name: str, line: int, shell_word: bool | None, samples: tuple[str, ...] = ()
) -> Formatted:
    """What a name holds after a check that leaves it a string of a pattern's (whose values
    besides ``main`` with a role of their own are ``samples``), or with ``shell_word`` None one
    of a set of constants: a checked name (a pattern with ``-``: a shell word), or a constant
    (the code's own, as ``REF = "main"`` is: no role to ask)."""
    if shell_word is None:
        return Formatted(None, name, line)
    held = _ShellWord(SHELL_WORD, name, line) if shell_word else _Checked(None, name, line)
    held.samples = samples
    return held


@dataclass(frozen=True)
class Finding:
    """One formatted string reaching a sink: where, which call, how it was built, the fix."""

    line: int
    column: int  # 1-based, in characters (as editors count), as are the other columns
    call: str
    destination: str  # "shell" or "sql"
    how: str  # "an f-string", "%-formatting", "IPython's {} expansion"...
    via: str = ""  # the name or function it travelled through, if any
    origin_line: int = 0
    end_line: int = 0
    end_column: int = 0
    sink: Sink | None = field(default=None, compare=False, repr=False)
    cell: int | None = None
    call_column: int = 0  # where the call starts (1-based)
    lone_argument: bool = False  # the call passes nothing else
    fixed: str | None = None  # the fixed line(s), when a safe fix exists
    no_fix: str | None = None  # why there is no automatic fix
    runs: str = ""  # a script file written here: the call that runs it (and where)

    def message(self) -> str:
        """A sentence for a warning or a report."""
        via = f" (through {self.via}, line {self.origin_line})" if self.via else ""
        if self.runs:
            return (
                f"{self.call}() writes a script built by {self.how}{via}, which {self.runs} "
                "runs as shell code: its values reach the shell unquoted (injection). Quote "
                "each value as one shell word where the script is built (shlex.quote(str(x))); "
                "no automatic fix: a script's text is lines of shell code, not one command line"
            )
        fix = _FIX_HINT["!" if self.how == IPYTHON_EXPANSION else self.destination]
        return (
            f"{self.call}() gets a string built by {self.how}{via}: its values reach the "
            f"{self.destination} unquoted (injection). Use {fix}."
        )

    @property
    def refused(self) -> str:
        """The renderer's reason, for validated values in a role it refuses (else "")."""
        return ""

    @classmethod
    def _made(cls, **values: Any) -> Finding:
        """The finding of ``values`` (its fields by name; those left out take their default).

        The check's own way to make one: the ``__init__`` a frozen dataclass gets sets each
        of the fields through ``object.__setattr__``, a tenth of the cell check of a cell
        with a finding in IPython (callgrind); this sets them in one update."""
        finding = object.__new__(cls)
        finding.__dict__.update(_FINDING_DEFAULTS, **values)
        return finding


_FINDING_DEFAULTS = {
    f.name: f.default for f in dataclasses.fields(Finding) if f.default is not MISSING
}


@dataclass(frozen=True)
class _RoleFinding(Finding):
    """Validated values in a role the renderer refuses (``git checkout {ref}``): ``how`` is
    :data:`ROLE_REFUSED` and the renderer's reason.  (A class of its own, so that a usual
    finding's message pays nothing for it.)"""

    @property
    def refused(self) -> str:
        return self.how[len(ROLE_REFUSED) :]

    def message(self) -> str:
        via = f" (through {self.via}, line {self.origin_line})" if self.via else ""
        return f"{self.call}() gets {self.how}{via}"


# Calls that give back their argument's text (wrappers around a query or a command).
_WRAPPERS = frozenset(
    {"text", "dedent", "cleandoc", "str", "SQL", "literal_column", "indent", "escape_string",
     "Template", "frozenset", "set", "tuple", "list", "sorted", "quote_name"}
)
# String methods whose result keeps the receiver's text (and its formatting).
_KEEP_METHODS = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "title", "expandtabs",
     "removeprefix", "removesuffix", "encode", "decode", "center", "ljust", "rjust", "zfill"}
)  # fmt: skip
# Calls whose result cannot carry code into a command: numbers, and shell-quoted words.
_SAFE_VALUES = frozenset(
    {"int", "float", "len", "bool", "round", "abs", "shlex.quote", "pipes.quote", "uuid.UUID",
     "datetime.date", "datetime.datetime", "datetime.date.fromisoformat",
     "datetime.datetime.fromisoformat", "datetime.date.today", "datetime.datetime.now",
     "decimal.Decimal", "ipaddress.ip_address", "ipaddress.ip_network", "shlex.join",
     "datetime.timedelta", "range", "uuid.uuid1", "uuid.uuid3", "uuid.uuid4", "uuid.uuid5",
     "os.cpu_count", "os.process_cpu_count", "multiprocessing.cpu_count", "os.getpid",
     "os.getppid", "os.getuid", "os.geteuid", "os.getgid", "time.time", "time.time_ns",
     "time.monotonic", "time.perf_counter", "math.floor", "math.ceil", "random.randint",
     # a date or time parsed from text (or a ValueError): its text is digits and separators
     # whatever the text parsed was (a format of the code's gives more text: `.strftime`
     # with constant arguments, as any method of a constant)
     "datetime.datetime.strptime", "datetime.time.fromisoformat",
     "datetime.datetime.fromtimestamp", "datetime.date.fromtimestamp",
     "datetime.datetime.utcfromtimestamp", "datetime.datetime.today",
     "datetime.datetime.utcnow"}
)  # fmt: skip
# Attributes of the running interpreter and platform: the installation's, no outside value.
# (A path may hold a space, which a shell splits: a robustness bug, not an injection.)
_PROCESS_CONSTANTS = frozenset(
    {"sys.executable", "sys.prefix", "sys.base_prefix", "sys.exec_prefix", "sys.platform",
     "os.sep", "os.pathsep", "os.linesep", "os.curdir", "os.pardir", "os.devnull"}
)  # fmt: skip
_PROCESS_CONSTANT_ATTRIBUTES = frozenset(name.rpartition(".")[2] for name in _PROCESS_CONSTANTS)
# The attributes that give text or numbers of the values the check knows as constants
# (uuids, dates and times, numbers, IP addresses, paths).
_VALUE_ATTRIBUTES = frozenset(
    {"hex", "int", "urn", "version", "year", "month", "day", "hour", "minute", "second",
     "microsecond", "days", "seconds", "microseconds", "real", "imag", "numerator",
     "denominator", "compressed", "exploded", "network_address", "broadcast_address",
     "netmask", "prefixlen", "name", "stem", "suffix", "parent", "anchor"}
)  # fmt: skip
# What a Django model's options (`Model._meta`) name: the schema's own names, set by the
# model's code (its `Meta.db_table`, its fields' `db_column`), no outside value;
# `_meta.pk.column`, `_meta.get_field(name).column` (a name that is no field's raises
# FieldDoesNotExist).  `getattr(model, name)` is no such name.
_DJANGO_META_NAMES = frozenset(
    {"db_table", "column", "attname", "db_column", "model_name", "app_label", "object_name",
     "label", "label_lower", "db_tablespace", "name"}
)  # fmt: skip
# Methods that list a database's own tables, views or schemas (SQLAlchemy's inspector):
# names whoever created the schema gave, no outside value (as a catalogue query's rows).
_CATALOGUE_METHODS = frozenset(
    {"get_table_names", "get_view_names", "get_schema_names", "get_temp_table_names",
     "get_materialized_view_names", "get_sequence_names", "get_foreign_table_names"}
)  # fmt: skip
# Calls that make a path of their arguments (`Path("data") / "raw"`): as their parts are.
_PATH_CALLS = frozenset(
    {"pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.PurePosixPath",
     "os.path.join", "posixpath.join"}
)  # fmt: skip
# Methods of a constant path (or file) that give what is outside the code: file names, a
# file's text, a link's target.
_READING_METHODS = frozenset(
    {"glob", "rglob", "iterdir", "walk", "read_text", "read_bytes", "read", "readline",
     "readlines", "open", "readlink", "resolve", "absolute", "expanduser", "owner", "group",
     "stat", "lstat", "cwd", "home", "listdir", "scandir"}
)  # fmt: skip
# The methods of a list or dict that add an item (the last argument, or keywords).
_ADDING_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault"})
_LIST_ADDING = frozenset({"append", "extend", "insert"})
# A dict's (or any container's) methods that give back its items or keys, as it holds them.
_ITEM_METHODS = frozenset({"get", "values", "items", "keys", "copy", "pop"})
# `%` conversions that only take numbers (not %c, which takes a character).
_PERCENT = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(.)")
_NUMERIC_CONVERSIONS = frozenset("diouxXeEfFgG%")


def _python_dotted(node: ast.expr) -> str:
    """``os.system`` for ``os.system``, ``get_ipython().system`` for that call's function."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            parts.append(_python_dotted(node.func) + "()")
            break
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            break
        else:
            parts.append("?")
            break
    return ".".join(reversed(parts))


# (In C when the accelerator is in use: the name of every call a sink may be is read so.)
_dotted = _python_dotted if _compiled is None else _compiled.dotted


class _Scope:
    """One function's (or the module's) names, looked up through the enclosing scopes."""

    def __init__(
        self, parent: _Scope | None, class_name: str | None = None, is_class: bool = False
    ) -> None:
        self.names: dict[str, Formatted | None] = {}
        # Names bound to what a call returned, by the call's name: `ip = get_ipython()` makes
        # `ip.system` the sink `get_ipython().system`.
        self.made_by: dict[str, str] = {}
        self.annotations: dict[str, str] = {}  # parameter -> the name of its annotation
        # Names bound to a dict of keyword arguments (`KW = dict(shell=True)`, for
        # `run(cmd, **KW)`): the keys it sets to a true constant.
        self.true_keys: dict[str, frozenset[str]] = {}
        self.parent = parent
        self.class_name = class_name  # the class whose `self` this scope's code sees
        self.is_class = is_class
        # The module's: reads the statements put aside for a name (Analysis.put_aside).
        self.resolve: Callable[[str], bool] | None = None

    def lookup(self, name: str) -> Formatted | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            if scope.resolve is not None and scope.resolve(name):
                return scope.names.get(name)
            scope = scope.parent
        return None

    def maker(self, name: str) -> str | None:
        """The call whose result ``name`` holds (``"get_ipython()"``), if known."""
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names or name in scope.made_by:
                return scope.made_by.get(name)
            if scope.resolve is not None and scope.resolve(name):  # a cell put aside
                return scope.made_by.get(name)
            scope = scope.parent
        return None

    def bound(self, name: str) -> bool:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names or (scope.resolve is not None and scope.resolve(name)):
                return True
            scope = scope.parent
        return False

    def copy(self) -> dict[str, Formatted | None]:
        return dict(self.names)


def _merge(a: Formatted | None, b: Formatted | None) -> Formatted | None:
    """Two branches: formatted if either is; a constant only if both are."""
    if a is not None and not a.constant:
        return a
    if b is not None and not b.constant:
        return b
    if a is not None and b is not None:
        return a
    return None


class Analysis:
    """Reads module trees (a file, or a notebook's cells one after the other) and collects
    the findings.  Imports, module-level names and functions carry over from one tree to the
    next, as they do from one cell to the next in a kernel."""

    def __init__(self, known_names: Container[str] = ()) -> None:
        self.module = _Scope(None)
        self.module.resolve = self._read_put_aside
        # Module-level statements binding a name, not read yet (cells that call no sink), and
        # the name's value before them.
        self.put_aside_names: dict[str, tuple[list[ast.stmt], Formatted | _Missing | None]] = {}
        self.imports: dict[str, str] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        # Top-level functions not read yet: a cell's, put aside, or a big file's that name no
        # sink, not even parsed (a callable that parses it): read the first time something
        # needs what they return.
        self.unparsed: dict[str, _Function | Callable[[], _Function | None]] = {}
        self.returns: dict[str, Formatted | None] = {}
        # The functions put aside whose leading `if` statements raise (a validation of a
        # parameter, perhaps): a call statement of one that a cell read lazily puts aside
        # (`ensure(t)`) is read with the name it is given (see _put_aside_validations).
        # They are looked for when the count of functions put aside changes.
        self.validators: set[str] = set()
        self._unparsed_count = 0
        self.lambdas: dict[str, ast.Lambda] = {}  # names bound to a lambda, in any scope
        self.attributes: dict[tuple[str, str], Formatted] = {}
        self.enums: set[str] = set()  # Enum classes defined here: their values are constants
        # (class, field) of the dataclasses defined here whose `__post_init__` raises unless
        # the field is one of a container of constants: the field of one of them holds one.
        self.validated_fields: set[tuple[str, str]] = set()
        # Functions, lambdas and partials defined here that pass a parameter to a sink.
        # The module's functions and lambdas that call a sink or another such helper, and
        # the sinks they are (a parameter passed on to a sink), worked out on first call.
        self.helpers: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda] = {}
        self._helper_sinks: dict[str, list[Sink]] = {}
        # The same for methods: method name -> class name -> the method (a call through
        # `self.` in that class, or an object that class made, is a sink of its own).
        self.method_helpers: dict[str, dict[str, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        self._method_helper_pattern: tuple[tuple[str, ...], re.Pattern[str]] | None = None
        # The module's classes (at its top level) and the names of the methods each defines.
        self.class_methods: dict[str, frozenset[str]] = {}
        self._decorator_sinks: dict[str, Sink | None] = {}
        self.partials: dict[str, ast.Call] = {}
        self._partials_read: set[str] = set()  # the partial objects whose call is being read
        self.patterns: dict[str, str] = {}  # names of regexes compiled from a constant
        # argparse: the destinations of arguments restricted to constant `choices`, and the
        # names bound to what `parse_args()` returned (`args.env` is then one of them).
        self.choice_destinations: set[str] = set()
        self.parsed_arguments: set[str] = set()
        self._return_sink: tuple[str, Sink] | None = None
        self._helper_patterns: (
            tuple[tuple[tuple[str, ...], ...], re.Pattern[str] | None, re.Pattern[str] | None]
            | None
        ) = None
        # The last text helper_calls() searched, with the names it searched for (helpers,
        # partials; method helpers), and what it found.
        self._helper_calls_memo: (
            tuple[
                tuple[tuple[tuple[str, ...], ...], tuple[str, ...]],
                str,
                tuple[int, ...],
            ]
            | None
        ) = None
        self.findings: list[Finding] = []
        # Names defined outside the code read (a kernel's namespace): IPython can expand them.
        self.known_names = known_names
        self._reporting = True
        self._sink_lines: list[int] = []
        self._call_places: list[tuple[int, int]] | None = None
        self._tree_text: str | None = None
        self._tree_ascii: bool | None = None  # (whether it is, once asked)
        self._tree_lines: list[str] | None = None
        self._in_progress: set[str] = set()
        self._cell: int | None = None
        self._scope = self.module
        self._line_offset = 0
        self._all_lines = True
        self._return_value: Formatted | None = None
        self._statement_origins: set[tuple[int, str]] = set()
        self._deferred: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, _Scope, str | None]] = []
        self._rebound_in: dict[int, set[str]] = {}  # id of a function -> what it rebinds
        self._possible_sinks_memo: dict[tuple[object, ...], list[Sink]] = {}
        # plumbum's command objects (`sh = local["sh"]`): name -> the program, its words so
        # far and its sink.  Once plumbum is imported, each text is read whole: a command is
        # an object, bound and run anywhere, by no name the search of sink calls knows.
        self.commands: dict[str, tuple[str, list[ast.expr], Sink]] = {}
        self._plumbum = False
        # Files written with a formatted text (a script, then run: `_check_script_run`), by
        # each key of their path (:meth:`_path_keys`), and the files open for writing, by the
        # name of the file object (and the scope that binds it).
        self._written: dict[tuple[object, ...], list[_Written]] = {}
        self._open_files: dict[tuple[_Scope, str], frozenset[tuple[object, ...]]] = {}
        self._scripts_reported: set[tuple[int | None, int, int]] = set()
        # Names bound to an identifier a database library quoted (`t = preparer.quote(x)`),
        # by the scope that binds them: True while that is the only value they may hold.
        self._quoted_names: dict[tuple[_Scope, str], bool] = {}
        # ... and names bound to a SQL f-string whose fields are such identifiers only
        # (`q = f"select * from {preparer.quote(t)}"`), the same way.
        self._quoted_queries: dict[tuple[_Scope, str], bool] = {}
        # Whether a check validated a name (see _check_roles: only then is it asked); the
        # values besides `main` its pattern allows, by the name a pattern's test checks; and
        # the f-strings of constants and validated names made since, by the id of their value
        # (`cmd = f"git checkout {ref}"`, run by name), with the value.
        self._validated = False
        self._pattern_samples: dict[ast.Name, tuple[str, ...]] = {}
        self._role_fstrings: dict[int, tuple[Formatted, ast.JoinedStr]] = {}
        # The last list comprehension bound to each name, and the text of its tree.
        self._rejections: dict[str, tuple[ast.Assign, str | None]] = {}
        # The tree being read, while it is (_note_quoted); the statements put aside that bind
        # a name, while they are read (_read_put_aside).
        self._tree: ast.Module | list[ast.stmt] | None = None
        # The calls in the tree being read, indexed when a number parameter asks (.numbers).
        self._call_index: tuple[ast.Module | list[ast.stmt], CallIndex] | None = None
        #: How a finding's message names the cell (by its number) where a script written in
        #: another cell runs.
        self.cell_name: Callable[[int], str] = "cell {}".format

    # entry points

    def check(
        self,
        tree: ast.Module,
        source: str | None = None,
        cell: int | None = None,
        line_offset: int = 0,
        calls: list[int] | None = None,
        lazy: bool = False,
        imports: Mapping[str, str] = {},
        own_imports: Mapping[str, str] | None = None,
        *,
        text: str | None = None,
    ) -> list[Finding]:
        """Analyse one module or cell; returns its findings (also kept in :attr:`findings`).

        With ``source``, statements and functions whose lines name no sink are only read for
        the names they bind, not searched for sink calls (the speed of the check); ``calls``
        are the offsets of those calls in ``source`` if already known.  ``lazy`` (a cell in
        IPython, ``tree`` parsed from ``source`` as it is): the statements that call no sink
        are only put aside, and nothing is read when :meth:`may_reach_sink` says no
        (``imports``: those written in ``source``; ``own_imports``: what the import
        statements of ``tree`` bind, when the caller has read them, as for :meth:`put_aside`).
        ``text``: the text ``tree`` was parsed from, when not ``source`` itself (its i-string
        rewrite) or without ``source``: the findings' columns count its characters (UTF-8
        bytes when no text is known; :func:`as_written` moves them to the text as written)."""
        self._cell = cell
        self._line_offset = line_offset
        self._tree = tree
        if source is not None and (self._plumbum or "plumbum" in source):
            source, calls, lazy = None, None, False  # (see :attr:`commands`)
        if source is not None and calls is None:
            calls = sinks.calls_in(source, self.imports)
        self._all_lines = source is None
        self._sink_lines = _line_numbers(source, calls) if source is not None and calls else []
        if source is None:
            self._note_choices(tree.body)
        elif "choices" in source:  # (only the statements that may say so: a big file's walk)
            lines = _line_numbers(source, [m.start() for m in _ARGPARSE_WORDS.finditer(source)])
            self._note_choices([tree.body[i] for i in _statements_on(tree.body, lines)])
        if (
            source is None or calls or self.helpers or self.partials or "partial(" in source
            or self.method_helpers or self.commands
        ):
            # helpers of the user's that pass a parameter to a sink: their calls are sinks
            extra = self._derived_calls(tree, source)
            if extra and source is not None:
                calls = sorted({*(calls or ()), *extra})
        # Where the sink calls are, as the tree counts (line, UTF-8 column), when the tree
        # is of ``source`` as written (a cell's: IPython parsed it; a file's: no i-literal
        # rewritten): then a statement's sink calls are found from their places, not by
        # walking all its nodes.
        self._call_places = (
            _places(source, calls)
            if source is not None and calls and (lazy or not has_istring(source))
            else None
        )
        # A cell: none of it is read when its sink calls surely get no formatted string
        # (the usual case); it is only put aside.
        if (
            lazy
            and self._call_places is not None
            and source is not None
            and not self._may_reach(tree, source, self._call_places, imports)
            # (a file written: read, a shell may run it later; one written before: a sink
            # call with constant words may run it)
            and not self._written
            and not (("write" in source or "file" in source) and _writes_at(source, calls))
        ):
            self.put_aside(tree.body, own_imports, source)
            self._tree = None
            return []
        self._sink_lines = _line_numbers(source, calls) if source is not None and calls else []
        self._all_lines = source is None
        # (for :meth:`_sets_attribute` and :meth:`_column`, which split it into lines)
        self._tree_text, self._tree_lines = text if text is not None else source, None
        self._tree_ascii = None
        before = len(self.findings)
        deferred: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, _Scope, str | None]] = []
        self._scope = self.module
        self._deferred = deferred
        if lazy:
            # Only the statements that call a sink are read now; the others are put aside
            # and read if one of those uses what they bind.
            body, aside_from = tree.body, 0
            read = _statements_on(body, self._sink_lines)
            # The cell's imports (``own_imports``) are noted with the first statements put
            # aside when they all come before the first statement read (the usual cell).
            cell_imports = own_imports
            if read and any(type(s) in IMPORT_STATEMENTS for s in body[read[0] :]):
                cell_imports = None  # (each is read in its turn)
            for index in read:
                self.put_aside(body[aside_from:index], cell_imports, source)
                cell_imports = None
                aside_from = index + 1
                self._statement(body[index])
            self.put_aside(body[aside_from:], cell_imports, source)
        else:
            self._block(tree.body)
        # Function bodies run after the module's code: they see its final names.
        while deferred:
            function, parent, class_name = deferred.pop(0)
            if self._names_sink(function) or self._sets_attribute(function):
                self._function(function, parent, class_name)
        found = self.findings[before:]
        found.sort(key=lambda f: (f.line, f.column))
        self._tree = self._call_index = None  # (not kept alive: its caller frees it)
        return found

    def names_now(self) -> _Names:
        """A copy of the module's names as they stand now (those read, those put aside, and
        the calls that made them): :meth:`as_of` reads code with them, at this place."""
        return (
            dict(self.module.names),
            {name: (list(made), before) for name, (made, before) in self.put_aside_names.items()},
            dict(self.module.made_by),
        )

    @contextlib.contextmanager
    def as_of(self, names: _Names, kept: Iterable[str]) -> Iterator[None]:
        """Read code with the module's names as :meth:`names_now` copied them: the Python
        a magic of a cell runs (``%time f(x)``), at its place in the cell, not with the names
        the whole cell left.  Of what that code binds, the names in ``kept`` (those no later
        statement of the cell binds again) keep their values afterwards."""
        live = (self.module.names, self.put_aside_names, self.module.made_by)
        read, put_aside, made_by = names
        self.module.names, self.module.made_by = dict(read), dict(made_by)
        self.put_aside_names = {name: (list(m), b) for name, (m, b) in put_aside.items()}
        try:
            yield
            values = {name: self.module.lookup(name) for name in kept}
        finally:
            self.module.names, self.put_aside_names, self.module.made_by = live
        for name, value in values.items():
            self.put_aside_names.pop(name, None)
            self.module.names[name] = value

    def from_outside(self, tree: ast.Module) -> None:
        """The names the module-level statements of ``tree`` bind hold values from outside
        the code (a notebook's parameters cell, which papermill replaces with a run's
        values): bound, but no longer known constants."""
        for statement in tree.body:
            for name in _bound_names(statement):
                self.put_aside_names.pop(name, None)
                self.module.names[name] = None

    def _note_choices(self, statements: list[ast.stmt]) -> None:
        """Note argparse's arguments restricted to constant ``choices``
        (``parser.add_argument("env", choices=["dev", "prod"])``) and the names bound to what
        ``parse_args()`` returns: their attributes of those names hold one of the choices."""
        for node in itertools.chain.from_iterable(map(ast.walk, statements)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "add_argument":
                    destination = _choices_destination(node)
                    if destination is not None:
                        self.choice_destinations.add(destination)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                func = node.value.func
                if isinstance(func, ast.Attribute) and func.attr in _PARSE_METHODS:
                    for target in node.targets:
                        if isinstance(target, ast.Tuple) and target.elts:  # parse_known_args
                            target = target.elts[0]
                        if isinstance(target, ast.Name):
                            self.parsed_arguments.add(target.id)

    def put_aside(
        self,
        statements: list[ast.stmt],
        imports: Mapping[str, str] | None = None,
        source: str | None = None,
    ) -> None:
        """Take note of module-level statements (a cell that calls no sink) without reading
        them: those that bind a name are read only if later code uses that name.
        ``imports``: what the import statements among ``statements`` bind (local name -> full
        name), when the caller has read them already (a cell's, for the search of its sink
        calls): they are then not read again.  ``source``: the text they are of (a cell's):
        a validation among them (``ensure(t)``) is then put aside with its name, which it
        changes (without it, it is lost, and the name read later as it was bound before)."""
        if imports is not None:
            self._note_imports(imports.items())
            for name in imports:  # (the names the imports bind are new)
                self.module.names.pop(name, None)
        if source is not None:  # (no call more for a cell put aside: see _note_validators)
            if len(self.unparsed) != self._unparsed_count:
                self._note_validators()
            if self.validators and any(name in source for name in self.validators):
                statements = self._put_aside_validations(statements)
        if _compiled is None:
            self._python_put_aside(statements, imports is not None)
        else:  # (this runs for every statement of most cells)
            _compiled.put_aside(
                statements, imports is not None, self.put_aside_names, self.module.names,
                self.helpers, self.unparsed, self.functions, self.returns, _MISSING,
                self._forget_helper, self._put_aside_other,
            )  # fmt: skip

    def _note_validators(self) -> None:
        """Note the functions put aside that may validate a parameter: their leading ``if``
        statements raise or exit (:meth:`_note_validating_call` reads them when called)."""
        self._unparsed_count = len(self.unparsed)
        for name, node in self.unparsed.items():
            if type(node) in _FUNCTION_DEFINITIONS and _leading_raising_checks(node):  # type: ignore[arg-type]
                self.validators.add(name)

    def _put_aside_validations(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        """Put aside the statements before each call statement of a validator among
        ``statements`` (``ensure(t)``, its other arguments constants), then that call as a
        change of the name it is given: read with that name, in its order among the name's
        bindings, it validates it (:meth:`_note_validating_call`).  Put aside like any
        call, it was lost, and the name read as it was bound before.  Returns the
        statements after the last such call."""
        start = 0
        for index, statement in enumerate(statements):
            call = statement.value if type(statement) is ast.Expr else None
            if type(call) is not ast.Call or getattr(call.func, "id", None) not in self.validators:
                continue
            given = [*call.args, *(k.value for k in call.keywords)]
            names = [a for a in given if type(a) is not ast.Constant]
            if len(names) == 1 and type(names[0]) is ast.Name:
                self.put_aside(statements[start:index])  # (its imports read again: the same)
                self._put_aside_binding(names[0].id, statement, rebinds=False)
                start = index + 1
        return statements[start:]

    def _python_put_aside(self, statements: list[ast.stmt], imports_read: bool) -> None:
        """The loop of :meth:`put_aside` (the reference for its C version): the usual
        statements noted here, the others by :meth:`_put_aside_other`."""
        put_aside, module, helpers = self.put_aside_names, self.module.names, self.helpers
        # (The statement types as locals, and no call for the usual statement.)
        assign, expr, function, async_function, call_type, attribute, name_type = _PUT_ASIDE_TYPES
        unparsed, functions, returns = self.unparsed, self.functions, self.returns
        for statement in statements:
            kind = type(statement)
            if kind is assign:
                targets = statement.targets  # type: ignore[attr-defined]
                if len(targets) == 1 and type(targets[0]) is name_type:  # the usual case
                    name = targets[0].id
                    # (A name put aside already: what came before it no longer matters.)
                    put_aside[name] = (
                        [statement], _MISSING if name in put_aside else module.pop(name, _MISSING)
                    )  # fmt: skip
                    if name in helpers and helpers[name] is not statement.value:  # type: ignore[attr-defined]
                        self._forget_helper(name)  # (bound again to what calls no sink)
                    continue
            elif kind is expr:
                call = statement.value  # type: ignore[attr-defined]
                if type(call) is call_type:
                    func = call.func
                    if type(func) is attribute and type(func.value) is name_type:
                        # `parts.append(...)` changes `parts`
                        self._put_aside_binding(func.value.id, statement, rebinds=False)
                continue
            elif kind is function or kind is async_function:
                name = statement.name  # type: ignore[attr-defined]
                functions.pop(name, None)
                returns.pop(name, None)
                unparsed[name] = statement  # type: ignore[assignment]
                if name in helpers and helpers[name] is not statement:
                    self._forget_helper(name)  # (defined again: it calls no sink now)
                continue
            if not (imports_read and kind in IMPORT_STATEMENTS):
                self._put_aside_other(statement)

    def _put_aside_other(self, statement: ast.stmt) -> None:
        """Put aside a statement of the kinds :meth:`_python_put_aside` leaves."""
        if type(statement) in IMPORT_STATEMENTS:
            self._import(statement)  # type: ignore[arg-type]
        elif isinstance(statement, ast.ClassDef):
            for method in statement.body:
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self._put_aside_function(f"{statement.name}.{method.name}", method)
                    self._put_aside_function(method.name, method)
        else:
            rebinds = isinstance(statement, (ast.Assign, ast.AnnAssign))
            for name in _bound_names(statement):
                self._put_aside_binding(name, statement, rebinds)

    def _put_aside_binding(self, name: str, statement: ast.stmt, rebinds: bool) -> None:
        entry = self.put_aside_names.get(name)
        if entry is None:
            before = self.module.names.pop(name, _MISSING)
            self.put_aside_names[name] = ([statement], before)
        elif rebinds:  # what came before no longer matters
            self.put_aside_names[name] = ([statement], _MISSING)
        elif entry[0][-1] is not statement:
            entry[0].append(statement)

    def _forget_helper(self, name: str) -> None:
        """``name`` is no longer a helper that passes a parameter to a sink."""
        del self.helpers[name]
        self._helper_sinks.pop(name, None)
        self._decorator_sinks.pop(name, None)

    def _put_aside_function(self, name: str, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.pop(name, None)
        self.returns.pop(name, None)
        self.unparsed[name] = node

    def _read_put_aside(self, name: str) -> bool:
        """Read the statements put aside that bind ``name``; whether there were any."""
        entry = self.put_aside_names.pop(name, None)
        if entry is None:
            return False
        statements, before = entry
        if not isinstance(before, _Missing):
            self.module.names[name] = before
        saved = (self._scope, self._reporting, self._all_lines, self._sink_lines, self._deferred)
        tree, self._tree = self._tree, statements  # (what binds the name: see _note_quoted)
        self._scope, self._reporting, self._all_lines, self._sink_lines = (
            self.module, False, False, [],
        )  # fmt: skip
        self._deferred = []
        try:
            for statement in statements:
                self._statement(statement)
        finally:
            self._scope, self._reporting, self._all_lines, self._sink_lines, self._deferred = saved
            self._tree = tree
        return True

    # statements

    def _names_sink(self, node: ast.stmt) -> bool:
        if self._all_lines:
            return True
        return _spans(self._sink_lines, node)

    def _sets_attribute(self, node: ast.stmt) -> bool:
        """Whether a function sets ``self.x`` (``self.query = f"..."`` in ``__init__``, used
        by a method that calls a sink)."""
        if self._all_lines:
            return True
        if self._tree_lines is None:
            self._tree_lines = python_lines(self._tree_text or "")
        text = "\n".join(self._tree_lines[node.lineno - 1 : node.end_lineno])
        return ATTRIBUTE_ASSIGNMENT.search(text) is not None

    def _block(self, body: list[ast.stmt]) -> None:
        for statement in body:
            self._statement(statement)

    def _statement(self, node: ast.stmt) -> None:
        scope = self._scope
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            key = f"{scope.class_name}.{node.name}" if scope.class_name else node.name
            self.functions[key] = node
            self.functions.setdefault(node.name, node)
            self.returns.pop(key, None)
            self.returns.pop(node.name, None)
            self._deferred.append((node, scope, scope.class_name))
            if scope is not self.module and not scope.is_class:
                scope.names[node.name] = None
            self._scan_calls(node.decorator_list)
            return
        if isinstance(node, ast.ClassDef):
            inner = _Scope(scope, class_name=node.name, is_class=True)
            self._scope = inner
            self._block(node.body)
            self._scope = scope
            scope.names[node.name] = None
            for name, value in inner.names.items():  # `self.CMD` reads the class's `CMD`
                if value is not None:
                    self.attributes.setdefault((node.name, name), value)
            if any(self._resolve(base)[0].rpartition(".")[2] in _ENUMS for base in node.bases):
                self.enums.add(node.name)
            if node.decorator_list:
                self._note_validated_fields(node)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            self._import(node)
            return
        if self._names_sink(node):
            self._statement_origins = set()
            self._scan_calls(_own_expressions(node))
        if isinstance(node, ast.Assign):
            value = self.value(node.value)
            for target in node.targets:
                self._bind(target, value, node.value)
            if type(node.value) is ast.Call and len(node.targets) == 1:
                self._note_open(node.targets[0], node.value)  # `f = open("job.sh", "w")`
            elif type(node.value) is ast.ListComp and type(node.targets[0]) is ast.Name:
                # (`bad = [c for c in header if not P(c)]`, perhaps before `if bad: raise`)
                self._rejections[node.targets[0].id] = (node, self._tree_text)
        elif isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self._bind(node.target, self.value(node.value), node.value)
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, (ast.Name, ast.Attribute)):
                current = self.value(node.target)
                self._bind(node.target, self._binop(node.op, current, node.value), node.value)
        elif isinstance(node, ast.Return):
            if node.value is not None:
                returned = self.value(node.value)
                self._return_value = (
                    returned  # (the first: a constant is no unknown value merged)
                    if self._return_value is _NOTHING_RETURNED
                    else _merge(self._return_value, returned)
                )
                if self._return_sink is not None:  # `@shell_command` runs what this returns
                    decorator, sink = self._return_sink
                    call = ast.Call(func=ast.Name(id=decorator), args=[node.value], keywords=[])
                    self._check_sink(ast.copy_location(call, node.value), decorator, sink)
        elif isinstance(node, ast.If):
            self._walruses(node.test)
            self._branches([self._narrowed(node), node.orelse])
            guarded = self._allow_listed(node)
            if guarded is not None:
                checked, shell_word = guarded
                samples = self._pattern_samples.get(checked, ())
                self._scope.names[checked.id] = _checked(
                    checked.id, node.lineno, shell_word, samples
                )
                self._validated = True
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            self._walruses(getattr(node, "test", None))
            iterated = self.value(getattr(node, "iter", None))
            each = None  # `for table in TABLES`: a constant; `for c in commands`: as they are
            if iterated is not None:
                each = replace(iterated, first=None, line=iterated.line or node.lineno)
            names = getattr(node, "target", None)
            if (
                each is not None
                and type(names) is ast.Tuple
                and _items_call(getattr(node, "iter", None))
            ):
                for element in names.elts:  # `for name, command in jobs.items()`
                    self._bind(element, each, None)
            else:
                self._bind(names, each, None)
            self._branches([node.body, []])
            self._block(node.orelse)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self._bind(item.optional_vars, None, item.context_expr)
                if type(item.context_expr) is ast.Call:
                    self._note_open(item.optional_vars, item.context_expr)
            self._block(node.body)
        elif isinstance(node, ast.Try) or type(node).__name__ == "TryStar":
            self._block(node.body)  # type: ignore[attr-defined]
            for handler in node.handlers:  # type: ignore[attr-defined]
                self._block(handler.body)
            self._block(node.orelse)  # type: ignore[attr-defined]
            self._block(node.finalbody)  # type: ignore[attr-defined]
        elif isinstance(node, ast.Match):
            self._branches([case.body for case in node.cases] + [[]])
        elif isinstance(node, ast.Expr):
            self._append(node.value)
            if type(node.value) is ast.Call:
                self._note_write(node.value)
                if type(node.value.func) is ast.Name:  # (`ensure_table(t)`)
                    self._note_validating_call(node.value)

    def _walruses(self, test: ast.expr | None) -> None:
        """Bind the names an ``if``'s or ``while``'s test binds (``if (q := f"..."):``)."""
        if test is not None and type(test) is not ast.Name:
            for node in ast.walk(test):
                if type(node) is ast.NamedExpr:
                    self.value(node)

    def _branches(self, bodies: list[list[ast.stmt]]) -> None:
        scope = self._scope
        before = scope.copy()
        outcomes = []
        for body in bodies:
            scope.names = dict(before)
            self._block(body)
            outcomes.append(scope.names)
        merged: dict[str, Formatted | None] = {}
        for names in outcomes:
            for name in names:
                if name not in merged:
                    values = [
                        o.get(name, scope.parent.lookup(name) if scope.parent else None)
                        for o in outcomes
                    ]
                    result = values[0]
                    for v in values[1:]:
                        result = _merge(result, v)
                    merged[name] = result
        scope.names = merged

    def _append(self, call: ast.expr) -> None:
        """``parts.append(f"...")`` makes ``parts`` a list of formatted strings; a value the
        check does not know, added to a list or dict of constants (``.append(x)``,
        ``.update(x)``), makes it a container of values it does not know."""
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in _ADDING_METHODS
            and isinstance(call.func.value, ast.Name)
            and (call.args or call.keywords)
        ):
            name = call.func.value.id
            for item in [*call.args[-1:], *(k.value for k in call.keywords)]:
                added = self.value(item)
                if added is not None and not added.constant:
                    known = self._scope.lookup(name)
                    if known is not None and known.text:  # (its items' text: SQL words)
                        added = Formatted(added.how, f"{known.text} {added.text}", added.line)
                    self._scope.names[name] = added
                    return
                if added is None and not isinstance(item, ast.Constant):
                    known = self._scope.lookup(name)
                    if known is not None and known.constant:
                        # a list's words and one the check cannot see, joined later into
                        # a command as `[tool, *args]` is; a dict's values are not known
                        joined = call.func.attr in _LIST_ADDING and known.text
                        self._scope.names[name] = (
                            Formatted("str.join()", f"{known.text}  ", call.lineno)
                            if joined else None
                        )  # fmt: skip

    def _bind(
        self, target: ast.expr | None, value: Formatted | None, node: ast.expr | None
    ) -> None:
        if target is None:
            return
        if isinstance(target, ast.Name):
            if (
                self._quoted_names
                or self._quoted_queries
                or (type(node) is ast.Call and _may_quote(node))
                or (type(node) is ast.JoinedStr and _quoting_field(node))
            ):
                self._note_quoted(target.id, node)  # (before the name is bound: see there)
            self._scope.names[target.id] = value
            self._scope.made_by.pop(target.id, None)
            if self._open_files:
                self._open_files.pop((self._scope, target.id), None)  # (see _note_open)
            self._scope.true_keys.pop(target.id, None)
            if type(node) is ast.Lambda:
                self.lambdas[target.id] = node
            elif self.lambdas:
                self.lambdas.pop(target.id, None)
            if self._plumbum:
                command = self._command(node) if node is not None else None
                if command is not None:
                    self.commands[target.id] = command
                else:
                    self.commands.pop(target.id, None)
            if node is not None and (true_keys := _dict_true_keys(node)):
                self._scope.true_keys[target.id] = true_keys
            if isinstance(node, ast.Call):
                made = self._resolve(node.func)[0] + "()"
                self._scope.made_by[target.id] = _SAME_CALLS.get(made, made)
                pattern = node.args[0] if node.args else None
                if made == "re.compile()" and isinstance(pattern, ast.Constant):
                    self.patterns[target.id] = str(pattern.value)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `queries["k"] = f"..."`: the container now holds a formatted string
            if value is None or not value.constant:
                name = target.value.id
                known = self._scope.lookup(name)
                self._scope.names[name] = _merge(known, value) if value else None
        elif isinstance(target, ast.Attribute):
            owner = self._attribute_owner(target)
            if owner is not None and value is not None:
                self.attributes[owner] = _merge(self.attributes.get(owner), value) or value
        elif isinstance(target, (ast.Tuple, ast.List)):
            values: list[ast.expr | None] = (
                list(node.elts) if isinstance(node, (ast.Tuple, ast.List)) else []
            )
            for i, element in enumerate(target.elts):
                inner = values[i] if len(values) == len(target.elts) else None
                if inner is None and value is not None and value.constant:
                    # unpacking a constant (`for name, kind in COLUMNS.items()`): constants
                    self._bind(element, replace(value, first=None), None)
                    continue
                self._bind(element, self.value(inner) if inner is not None else None, inner)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, None, None)

    # files written, then run as scripts

    def _note_open(self, target: ast.expr | None, call: ast.Call) -> None:
        """``target`` names a file ``call`` opened for writing (``open("job.sh", "w")``,
        ``path.open("w")``): its writes are writes of that path."""
        if type(target) is not ast.Name:
            return
        key = (self._scope, target.id)
        path = _opened_for_writing(call)
        func = call.func
        if (
            path is None
            and (func.attr if type(func) is ast.Attribute else getattr(func, "id", ""))
            == "NamedTemporaryFile"
            and self._resolve(func)[0] == "tempfile.NamedTemporaryFile"
            and _writing_mode(_argument(call, 0, ("mode",)), "w+b")
        ):
            # (a temporary file is known by its name: `f.name`, where a shell may run it)
            path = ast.Attribute(ast.Name(target.id, ast.Load()), "name", ast.Load())
        if path is None:
            self._open_files.pop(key, None)
        else:
            self._open_files[key] = self._path_keys(path)

    def _note_write(self, call: ast.Call) -> None:
        """Note a formatted text written to a file (``Path(p).write_text(f"...")``,
        ``f.write(...)`` of a file open for writing, ``print(..., file=f)``): a script, if
        a shell runs that file later (:meth:`_check_script_run`)."""
        func = call.func
        keys: frozenset[tuple[object, ...]] = frozenset()
        texts: list[ast.expr] = []
        if type(func) is ast.Attribute and func.attr in WRITING_METHODS and call.args:
            texts = call.args[:1]
            if func.attr == "write_text":
                keys = self._path_keys(func.value)
            elif type(func.value) is ast.Name:
                keys = self._open_file(func.value.id)
            elif type(func.value) is ast.Call:
                opened = _opened_for_writing(func.value)
                keys = self._path_keys(opened) if opened is not None else keys
        elif type(func) is ast.Name and func.id == "print":
            file = next((k.value for k in call.keywords if k.arg == "file"), None)
            if type(file) is ast.Name:
                keys = self._open_file(file.id)
                texts = [a for a in call.args if type(a) is not ast.Starred]
        if not keys or not self._reporting:
            return
        for text in texts:
            value = self.value(text)
            if value is None or value.constant:
                continue
            written = _Written(
                text, value, self._line_offset, self._cell,
                self._column(text.lineno, text.col_offset),
                self._column(text.end_lineno or text.lineno, text.end_col_offset or 0),
                _dotted(func), self._column(call.lineno, call.col_offset),
            )  # fmt: skip
            for key in keys:
                self._written.setdefault(key, []).append(written)

    def _open_file(self, name: str) -> frozenset[tuple[object, ...]]:
        """The keys of the path of the file ``name`` holds open for writing, if it does
        (after reading the statements put aside that bind it: `f = open(...)` of a cell
        whose write only is read)."""
        key = (self._scope, name)
        if key not in self._open_files:
            self._scope.lookup(name)
        return self._open_files.get(key, frozenset())

    def _path_keys(self, node: ast.expr) -> frozenset[tuple[object, ...]]:
        """How a path is known, to find it again where a shell runs it: its text when it is
        a constant (``"./job.sh"`` and ``"job.sh"`` alike), the name bound to it in this
        scope, or its expression."""
        while (
            type(node) is ast.Call
            and len(node.args) == 1
            and not node.keywords
            and self._resolve(node.func)[0] in _PATH_WRAPPERS
        ):
            node = node.args[0]  # `str(script)`, `Path("job.sh")`, `os.fspath(p)`
        keys: set[tuple[object, ...]] = set()
        scope = _nearest_function(self._scope)  # (the object, alive as long as the key)
        if type(node) is ast.Name:
            keys.add(("name", scope, node.id))
        else:
            keys.add(("expression", scope, ast.dump(node)))
        value = self.value(node)
        if value is not None and value.constant and (
            type(node) is ast.Constant or type(node) is ast.Name
        ):
            keys.add(("text", _path_text(value.text)))
        return frozenset(keys)

    def _check_script_run(self, call: ast.Call, sink: Sink) -> None:
        """A shell sink running a file written before with a formatted text
        (``subprocess.run(["bash", "job.sh"])``, ``["sbatch", script]``, ``["./job.sh"]``,
        ``os.system("chmod +x job.sh && ./job.sh")``): each such write is a finding."""
        argument = _argument(call, sink.argument, sink.keywords)
        commands: list[list[ast.expr | str]] = []
        if isinstance(argument, (ast.List, ast.Tuple)):
            commands.append(list(argument.elts))
        elif type(argument) is ast.Constant and isinstance(argument.value, str):
            commands.extend(_command_words(argument.value))
        elif type(argument) is ast.JoinedStr:  # `os.system(f"bash {f.name}")`
            commands.extend(_formatted_command_words(argument))
        elif sink.argv0 or sink.name.endswith("create_subprocess_exec"):
            commands.append(list(call.args))
        for words in commands:
            for word in _script_words(words, self._word_text):
                keys = (
                    frozenset({("text", _path_text(word))})
                    if isinstance(word, str)
                    else self._path_keys(word)
                )
                for key in keys:
                    for written in self._written.get(key, ()):
                        self._report_script(written, call)

    def _word_text(self, word: ast.expr | str) -> str | None:
        if isinstance(word, str):
            return word
        value = self.value(word)
        return value.text if value is not None and value.constant else None

    def _report_script(self, written: _Written, call: ast.Call) -> None:
        if not self._reporting:
            return
        node, value = written.text, written.value
        line = node.lineno + written.line_offset
        if (written.cell, line, written.column) in self._scripts_reported:
            return
        self._scripts_reported.add((written.cell, line, written.column))
        run_line = call.lineno + self._line_offset
        where = f"line {run_line}"
        if self._cell is not None and self._cell != written.cell:
            where += f" of {self.cell_name(self._cell)}"
        via = _dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else ""
        self.findings.append(
            Finding._made(
                line=line,
                column=written.column,
                call=written.call,
                destination="shell",
                how=value.how,
                via=via if via and value.line != node.lineno else "",
                origin_line=value.line + written.line_offset,
                end_line=(node.end_lineno or node.lineno) + written.line_offset,
                end_column=written.end_column,
                sink=_SCRIPT_SINK,
                cell=written.cell,
                call_column=written.call_column,
                lone_argument=False,
                runs=f"{_dotted(call.func)}() on {where}",
            )
        )

    def _attribute_owner(self, node: ast.Attribute) -> tuple[str, str] | None:
        """``self.query`` inside class ``C`` is ``("C", "query")``; ``obj.query`` is
        ``("obj", "query")`` for a plain name."""
        if isinstance(node.value, ast.Name):
            if node.value.id in ("self", "cls") and self._scope.class_name:
                return (self._scope.class_name, node.attr)
            return (node.value.id, node.attr)
        return None

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        self._note_imports(imported_by(node))
        names = self._scope.names
        for alias in node.names:
            names.pop(alias.asname or alias.name, None)

    def _note_imports(self, imported: Iterable[tuple[str, str]]) -> None:
        """Take note of imports: local name, full name."""
        for local, full in imported:
            self.imports[local] = full
            if "plumbum" in full:
                self._plumbum = True


    def _function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        parent: _Scope,
        class_name: str | None,
        reporting: bool = True,
    ) -> Formatted | None:
        """Analyse a function's body; returns what it returns."""
        saved = (self._scope, self._reporting, self._return_value, self._deferred)
        saved_return_sink = self._return_sink
        self._return_sink = next(
            (
                (d.id, sink)
                for d in _decorators(node)
                if isinstance(d, ast.Name) and (sink := self.decorator_sink(d.id)) is not None
            ),
            None,
        )
        scope = _Scope(_nearest_function(parent), class_name)
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for parameter in every:
            scope.names[parameter.arg] = None
            annotation = parameter.annotation
            if isinstance(annotation, ast.Name):
                scope.annotations[parameter.arg] = annotation.id
                number = annotation.id in NUMBER_ANNOTATIONS
            else:  # (`day: datetime.date`)
                number = isinstance(annotation, ast.Attribute) and (
                    _python_dotted(annotation) in NUMBER_ANNOTATIONS
                )
            if number and self._numeric_parameter(node, parameter, class_name):
                scope.names[parameter.arg] = Formatted(None, "0", node.lineno)  # a number
        if node.decorator_list:  # (`@click.option("--env", type=click.Choice([...]))`)
            for name, kind in click_parameters(
                node.decorator_list, self._click_resolved, self._constant_expression
            ).items():
                if name in scope.names:
                    # (a number, or one of the code's constants: no role to ask about)
                    text = "0" if kind == NUMBER else name
                    scope.names[name] = Formatted(None, text, node.lineno)
        if node.name == "handle" and class_name and arguments.kwarg is not None:
            # a Django command's `handle(self, *args, **options)`: `options["table"]` is what
            # its parser's `add_argument("table", choices=[...])` let through
            scope.made_by[arguments.kwarg.arg] = _COMMAND_OPTIONS
        if every and any(self._resolve(d)[0] in _TASK_DECORATORS for d in _decorators(node)):
            scope.made_by[every[0].arg] = "invoke.Context()"  # a fabric/invoke task's context
        self._scope, self._reporting, self._return_value = (
            scope,
            reporting and self._reporting,
            _NOTHING_RETURNED,
        )
        self._deferred = []
        try:
            self._block(node.body)
            while self._deferred:
                inner, inner_parent, inner_class = self._deferred.pop(0)
                self._function(inner, inner_parent, inner_class, reporting)
            returned = self._return_value
            result = None if returned is _NOTHING_RETURNED else returned
        finally:
            self._scope, self._reporting, self._return_value, self._deferred = saved
            self._return_sink = saved_return_sink
        return result

    def _click_resolved(self, func: ast.expr) -> str:
        """The full name of ``func`` (:meth:`_resolve`), or "" for a builtin the code binds
        to something else (``int = str``)."""
        if type(func) is ast.Name and (self._scope.bound(func.id) or func.id in self.functions):
            return ""
        return self._resolve(func)[0]

    def _constant_expression(self, node: ast.expr) -> bool:
        value = self.value(node)
        return value is not None and value.constant

    def _numeric_parameter(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        parameter: ast.arg,
        class_name: str | None,
    ) -> bool:
        """Whether every call in the tree being read of ``node``, one of its top-level
        functions, gives ``parameter`` a number (see :mod:`.numbers`)."""
        tree = self._tree
        if class_name is not None or tree is None:
            return False
        body = tree.body if isinstance(tree, ast.Module) else tree
        if not any(statement is node for statement in body):
            return False  # (a function of an earlier cell: its calls there are not read)
        if self._call_index is None or self._call_index[0] is not tree:
            module = tree if isinstance(tree, ast.Module) else ast.Module(list(tree), [])
            self._call_index = (tree, CallIndex.of(module))
        return numeric_parameter(node, parameter, self._call_index[1])

    def _function_node(self, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        node = self.functions.get(name)
        if node is None and name in self.unparsed:
            given = self.unparsed.pop(name)
            node = given if isinstance(given, ast.AST) else given()
            if node is not None:
                self.functions[name] = node
        return node

    def _returns(self, name: str) -> Formatted | None:
        """What the function ``name`` returns, computed once (without reporting)."""
        if name in self.returns:
            return self.returns[name]
        node = self._function_node(name)
        if node is None or name in self._in_progress:
            return None
        self._in_progress.add(name)
        try:
            class_name = name.partition(".")[0] if "." in name else None
            result = self._function(node, self.module, class_name, reporting=False)
        finally:
            self._in_progress.discard(name)
        self.returns[name] = result
        return result

    # expressions

    def value(self, node: ast.expr | None) -> Formatted | None:
        """What is known of ``node`` as a string (None: not a string, or unknown)."""
        if node is None:
            return None
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return Formatted(None, node.value, node.lineno)
            if isinstance(node.value, (int, float)):  # a number's text cannot carry code
                return Formatted(None, str(node.value), node.lineno)
            return None
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node)
        if isinstance(node, ast.Name):
            known = self._scope.lookup(node.id)
            if known is None and _CONSTANT_NAME.match(node.id) and "." in self.imports.get(
                node.id, ""
            ):
                return Formatted(None, node.id, node.lineno)  # `from settings import DATA_DIR`
            return known
        if isinstance(node, ast.BinOp):
            return self._binop_chain(node)
        if isinstance(node, ast.Attribute):
            if node.attr in ("value", "name") and self._is_enum_member(node.value):
                return Formatted(None, node.attr, node.lineno)
            owner = self._attribute_owner(node)
            known = self.attributes.get(owner) if owner is not None else None
            if known is not None:
                return known
            if node.attr in _PROCESS_CONSTANT_ATTRIBUTES and (
                self._resolve(node)[0] in _PROCESS_CONSTANTS
            ):
                return Formatted(None, node.attr, node.lineno)  # `sys.executable`
            if (
                node.attr in self.choice_destinations
                and type(node.value) is ast.Name
                and node.value.id in self.parsed_arguments
            ):
                return Formatted(None, node.attr, node.lineno)  # one of argparse's `choices`
            if node.attr in _DJANGO_META_NAMES and _django_meta_name(node):
                return Formatted(None, node.attr, node.lineno)  # `Order._meta.db_table`
            if self.validated_fields and self._validated_field(node):
                return Formatted(None, node.attr, node.lineno)  # `cfg.table`, checked
            if node.attr in _VALUE_ATTRIBUTES and type(node.value) in _NAME_OR_CALL:
                # An attribute of a known constant (`uuid.uuid4().hex`, `day.year`): none
                # of the code's values is in it.
                of = self.value(node.value)
                if of is not None and of.constant:
                    return Formatted(None, of.text, node.lineno)
            return None
        if isinstance(node, ast.Call):
            return self._call_value(node)
        if isinstance(node, ast.IfExp):
            return _merge(self.value(node.body), self.value(node.orelse))
        if isinstance(node, ast.BoolOp):
            result = self.value(node.values[0])
            for v in node.values[1:]:
                result = _merge(result, self.value(v))
            return result
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return self._elements(node.elts, node)
        if isinstance(node, ast.Dict):  # (its keys too: `.items()`, `for key in d`)
            return self._elements([*(k for k in node.keys if k is not None), *node.values], node)
        if isinstance(node, ast.Subscript):
            # An item of a container of constant strings is one of them (`QUERIES[kind]`,
            # a table name picked from an allow-list dict); otherwise as the container.
            if (
                type(node.value) is ast.Name
                and type(node.slice) is ast.Constant
                and node.slice.value in self.choice_destinations
                and self._scope.maker(node.value.id) == _COMMAND_OPTIONS
            ):
                return Formatted(None, str(node.slice.value), node.lineno)  # one of `choices`
            return self.value(node.value)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self._comprehension(node)
        if isinstance(node, ast.Await):
            return self.value(node.value)
        if isinstance(node, ast.NamedExpr):
            result = self.value(node.value)
            self._scope.names[node.target.id] = result
            return result
        return None

    def _comprehension(
        self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp
    ) -> Formatted | None:
        """A comprehension's items: its variables hold constants when they range over
        constants or are filtered by an allow-list (``[k for k in fields if k in OK]``)."""
        saved = dict(self._scope.names)
        try:
            for generator in node.generators:
                iterated = self.value(generator.iter)
                constant = iterated is not None and iterated.constant
                if isinstance(generator.target, ast.Name):
                    name = generator.target.id
                    allowed = constant or any(
                        self._membership(test, name) for test in generator.ifs
                    )
                    self._scope.names[name] = (
                        Formatted(None, name, node.lineno)
                        if allowed
                        else self._filtered(generator.ifs, name, node.lineno)
                    )
                elif constant:  # `for name, columns in TABLES.items()`: each part too
                    for part in ast.walk(generator.target):
                        if isinstance(part, ast.Name):
                            self._scope.names[part.id] = Formatted(None, part.id, node.lineno)
                else:
                    self._bind(generator.target, None, None)
            return self._elements([node.elt], node)
        finally:
            self._scope.names = saved

    def _filtered(self, tests: list[ast.expr], name: str, line: int) -> Formatted | None:
        """What a comprehension's variable ``name`` holds when one of its ``if`` filters is a
        pattern's test of it (``[c for c in header if IDENT.fullmatch(c)]``): a checked
        value, a shell word only if each such test allows no more; else unknown (None)."""
        words = [
            checked[1]
            for checked in map(self._pattern_test, tests)
            if checked is not None and checked[0].id == name
        ]
        if not words:
            return None
        self._validated = True
        return _checked(name, line, all(words))

    def _each_checked(self, test: ast.expr, negated: bool) -> tuple[ast.Name, bool] | None:
        """The name ``xs`` whose every item a test that fails for one of them checks:
        ``not all(P(x) for x in xs)`` (``negated``) or ``any(not P(x) for x in xs)``, with
        ``P`` a pattern's test (:meth:`_pattern_test`) and the builtins not bound anew."""
        if not (
            type(test) is ast.Call
            and type(test.func) is ast.Name
            and test.func.id == ("all" if negated else "any")
            and len(test.args) == 1
            and not test.keywords
            and type(test.args[0]) is ast.GeneratorExp
            and not self._scope.bound(test.func.id)
            and test.func.id not in self.functions
        ):
            return None
        generator_expression = test.args[0]
        generators = generator_expression.generators
        if len(generators) != 1 or generators[0].ifs or generators[0].is_async:
            return None
        target, iterated = generators[0].target, generators[0].iter
        each = generator_expression.elt
        if not negated:  # any(not P(x) ...)
            if not (type(each) is ast.UnaryOp and type(each.op) is ast.Not):
                return None
            each = each.operand
        checked = self._pattern_test(each)
        if (
            checked is None
            or type(target) is not ast.Name
            or type(iterated) is not ast.Name
            or checked[0].id != target.id
        ):
            return None
        return iterated, checked[1]

    def _rejected_none(self, node: ast.If, name: str) -> tuple[ast.Name, bool] | None:
        """The name ``xs`` whose every item ``if bad: raise`` checks, right after ``bad = [x
        for x in xs if not P(x)]`` (``P`` a pattern's test), with nothing between them but
        blank lines and comments, at the same indentation (one block: neither name can be
        bound anew between them)."""
        record = self._rejections.get(name)
        if record is None or record[1] is not self._tree_text:
            return None
        assign, _ = record
        comprehension = assign.value
        assert type(comprehension) is ast.ListComp
        generators = comprehension.generators
        if (
            len(generators) != 1
            or len(generators[0].ifs) != 1
            or generators[0].is_async
            or type(generators[0].target) is not ast.Name
            or type(generators[0].iter) is not ast.Name
            or type(comprehension.elt) is not ast.Name
            or comprehension.elt.id != generators[0].target.id
            or not self._adjacent(assign, node)
        ):
            return None
        test = generators[0].ifs[0]
        if not (type(test) is ast.UnaryOp and type(test.op) is ast.Not):
            return None
        checked = self._pattern_test(test.operand)
        if checked is None or checked[0].id != generators[0].target.id:
            return None
        return generators[0].iter, checked[1]

    def _adjacent(self, first: ast.stmt, second: ast.stmt) -> bool:
        """Whether ``second`` follows ``first`` in one block, with only blank lines and
        comments between them (read in the tree's text)."""
        if self._tree_lines is None:
            self._tree_lines = python_lines(self._tree_text or "")
        lines = self._tree_lines
        end = first.end_lineno or first.lineno
        if first.col_offset != second.col_offset or not end < second.lineno <= len(lines):
            return False
        rest = lines[end - 1].encode()[first.end_col_offset or 0 :].decode(errors="replace")
        between = [rest, *lines[end : second.lineno - 1]]
        return all(not text.strip() or text.strip().startswith("#") for text in between)

    def _membership(self, test: ast.expr, name: str) -> bool:
        """Whether ``test`` is ``name in CONSTANTS``."""
        return (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and test.left.id == name
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.In)
            and _constant_value(self.value(test.comparators[0]), test.comparators[0])
        )

    def _elements(self, elements: list[ast.expr], node: ast.expr) -> Formatted | None:
        """A list of strings, as far as joining it goes: formatted if any element is."""
        values = [self.value(e) for e in elements]
        if isinstance(node, ast.Tuple) and values and values[0] is not None:
            merged = self._merged_elements(values, node)
            return replace(merged or values[0], first=values[0])
        return self._merged_elements(values, node)

    def _merged_elements(
        self, values: list[Formatted | None], node: ast.expr
    ) -> Formatted | None:
        for v in values:
            if v is not None and not v.constant:
                # (with the other items' text: `[f"... {x}", "select ..."]` joined is SQL)
                text = " ".join(w.text if w is not None else " " for w in values)
                return Formatted(v.how, text, v.line) if len(values) > 1 else v
        if all(v is not None for v in values):
            return Formatted(None, " ".join(v.text for v in values if v), node.lineno)
        if isinstance(node, (ast.List, ast.Tuple)) and values:
            # `[tool, *args]`: values the check cannot see, joined later into a command
            text = " ".join(v.text if v is not None else " " for v in values)
            return Formatted("str.join()", text, node.lineno)
        return None

    def _fstring(self, node: ast.JoinedStr) -> Formatted:
        texts: list[str] = []
        formatted = False
        for part in node.values:
            if isinstance(part, ast.Constant):
                texts.append(str(part.value))
            elif isinstance(part, ast.FormattedValue):
                inner = self.value(part.value)
                if (
                    inner is not None
                    and inner.constant
                    and (part.format_spec is None or self._written_spec(part.format_spec))
                ):
                    texts.append(inner.text)  # (`{LIMIT:d}`, `{n:>{WIDTH}}`: the code's text)
                elif inner is not None and not inner.constant:
                    formatted = True
                    texts.append(inner.text)
                else:
                    formatted = True
                    texts.append(" ")
        made = Formatted("an f-string" if formatted else None, "".join(texts), node.lineno)
        if self._validated and not formatted:  # (its roles are asked where it runs)
            self._role_fstrings[id(made)] = (made, node)
        return made

    def _written_spec(self, spec: ast.expr) -> bool:
        """Whether the code wrote all of a field's format spec (its own fields constants:
        ``{x:>{WIDTH}}``), not a value (whose fill character would be text in the string)."""
        if not isinstance(spec, ast.JoinedStr):
            return False
        for part in spec.values:
            value = self.value(part.value if isinstance(part, ast.FormattedValue) else part)
            if value is None or not value.constant or getattr(part, "format_spec", None):
                return False
        return True

    def _binop_chain(self, node: ast.BinOp) -> Formatted | None:
        # A long chain of `+` is a deep left-nested tree: walk it with a loop, not recursion.
        chain: list[ast.BinOp] = []
        left: ast.expr = node
        while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
            chain.append(left)
            left = left.left
        if not chain:
            return self._binop(node.op, self.value(node.left), node.right)
        value = self.value(left)
        for link in reversed(chain):
            value = self._binop(link.op, value, link.right)
        return value

    def _binop(
        self, op: ast.operator, left: Formatted | None, right_node: ast.expr
    ) -> Formatted | None:
        if isinstance(op, ast.Add):
            right = self.value(right_node)
            if left is not None and not left.constant:
                return Formatted(left.how, left.text + (right.text if right else " "), left.line)
            if right is not None and not right.constant:
                text = (left.text if left else " ") + right.text
                return Formatted(right.how, text, right.line)
            if left is not None and right is not None:
                return Formatted(None, left.text + right.text, left.line)
            known = left or right
            if known is not None and not _is_number(right_node):
                return Formatted("concatenation", known.text, right_node.lineno)
            return None
        if isinstance(op, ast.Mod) and left is not None:
            values = right_node.elts if isinstance(right_node, ast.Tuple) else [right_node]
            if left.constant and all(_constant_value(self.value(v), v) for v in values):
                return left  # "%s" % ("a",) with constants only
            conversions = {m.group(1) for m in _PERCENT.finditer(left.text)}
            if left.constant and conversions and conversions <= _NUMERIC_CONVERSIONS:
                return left  # "LIMIT %d" % n: a number or a TypeError
            return Formatted(left.how or "%-formatting", left.text, right_node.lineno)
        if isinstance(op, ast.Mult) and left is not None:
            return left  # ["?"] * n, "-" * 20
        right = self.value(right_node)
        if left is not None and left.constant and right is not None and right.constant:
            return Formatted(None, left.text, left.line)  # date.today() - timedelta(1)
        return None

    def _call_value(self, node: ast.Call) -> Formatted | None:
        func = node.func
        called = self._resolve(func)[0]
        if called in _SAFE_VALUES:
            # Not a builtin (`int`) that the code binds to something else (`def int(x)`,
            # `int = str`, a parameter), read or put aside: looked up without a call, as
            # the usual `len(...)` is asked often.
            name = func.id if type(func) is ast.Name else None
            scope: _Scope | None = self._scope
            while name is not None and scope is not None and name not in scope.names:
                scope = scope.parent
            if name is None or (
                scope is None
                and name not in self.functions
                and name not in self.unparsed
                and name not in self.put_aside_names
            ):
                return Formatted(None, "0", node.lineno)  # a number, or a value quoted for a shell
        if (
            isinstance(func, ast.Name)
            and func.id in ("min", "max")
            and all(_constant_value(self.value(a), a) for a in node.args)
        ):
            return Formatted(None, "0", node.lineno)
        if called in _PATH_CALLS and node.args:  # `Path("data", name)`: as its parts are
            return self._merged_elements([self.value(a) for a in node.args], node)
        if isinstance(func, ast.Attribute):
            method = func.attr
            if method in ("format", "format_map", "substitute", "safe_substitute"):
                receiver = self.value(func.value)
                if receiver is None:
                    return self._unknown_template_filled(node)
                if receiver.constant and self._is_composed_sql(func.value):
                    return receiver  # psycopg quotes what it composes: Identifier, Literal
                arguments = [*node.args, *(k.value for k in node.keywords)]
                if receiver.constant and all(_constant_value(self.value(a), a) for a in arguments):
                    return receiver
                how = "Template.substitute()" if "substitute" in method else "str.format()"
                return Formatted(receiver.how or how, receiver.text, node.lineno)
            if method == "join" and node.args:
                separator = self.value(func.value)
                if separator is None:
                    return None
                joined = self.value(node.args[0])
                if joined is not None and joined.how == "str.join()" and separator.constant:
                    # values the check cannot see, in a list written here: the text is the
                    # known items joined by the separator (`"/".join([base, url])` is a path,
                    # which a generic sink such as `.fetch` does not take for SQL)
                    items = node.args[0]
                    if isinstance(items, (ast.List, ast.Tuple)) and not any(
                        isinstance(item, ast.Starred) for item in items.elts
                    ):
                        texts = (self.value(item) for item in items.elts)
                        text = separator.text.join(t.text if t is not None else "" for t in texts)
                        return Formatted(joined.how, text, joined.line)
                if joined is not None and not joined.constant:
                    return Formatted(joined.how, joined.text, joined.line)
                if joined is None and isinstance(
                    node.args[0], (ast.List, ast.Tuple, ast.ListComp, ast.GeneratorExp)
                ):
                    return Formatted("str.join()", separator.text, node.lineno)
                return joined
            if method == "replace" and len(node.args) >= 2:
                receiver = self.value(func.value)
                new = self.value(node.args[1])
                if receiver is not None and (new is None or not new.constant):
                    return Formatted(receiver.how or "str.replace()", receiver.text, node.lineno)
                if receiver is None and not _constant_value(new, node.args[1]):
                    old = self.value(node.args[0])
                    if old is not None and old.constant and old.text:
                        # a placeholder of a text read at run time (a .sql file) filled in
                        how = "str.replace() of a text read at run time"
                        return Formatted(how, "", node.lineno)
                return receiver
            if method in _ITEM_METHODS:
                # `ORDERINGS.get(key, ORDERINGS["new"])`, `jobs.items()`: what the container
                # holds (or the default given)
                container = self.value(func.value)
                if container is not None and len(node.args) == 2 and method in ("get", "pop"):
                    return _merge(container, self.value(node.args[1]))
                if container is not None and len(node.args) < 2 and not node.keywords:
                    return container
            if method in _CATALOGUE_METHODS or (
                node.args and self._reads_catalogue(method, node.args[0])
            ):
                return Formatted(None, "", node.lineno)  # the database's own table names
            if method in _KEEP_METHODS:
                return self.value(func.value)
            if method in _WRAPPERS and node.args:
                return self.value(node.args[0])
            # obj.method() of a class defined here: what the method returns.
            owner = self._attribute_owner(func)
            if owner is not None and f"{owner[0]}.{method}" in self.functions:
                return self._returns(f"{owner[0]}.{method}")
            if self._function_node(method) and isinstance(func.value, ast.Name):
                return self._returns(method)
            receiver = self.value(func.value)
            arguments = [*node.args, *(k.value for k in node.keywords)]
            if (
                receiver is not None
                and receiver.constant
                and method not in _READING_METHODS
                and all(_constant_value(self.value(a), a) for a in arguments)
            ):
                return Formatted(None, receiver.text, node.lineno)  # `day.isoformat()`
            return None
        if isinstance(func, ast.Name):
            name = func.id
            if self._function_node(name) and self._scope.lookup(name) is None:
                returned = self._returns(name)
                if returned is not None and not returned.constant:
                    return replace(returned, how=f"{returned.how}, returned by {name}()")
                return returned
            if name in _WRAPPERS and node.args:
                return self.value(node.args[0])
            if (
                (name in self.lambdas or name in self.put_aside_names)
                and self._scope.lookup(name) is None  # (reads a binding put aside)
                and name in self.lambdas
            ):
                return self._lambda_returns(name, self.lambdas[name])
        return None

    def _lambda_returns(self, name: str, node: ast.Lambda) -> Formatted | None:
        """What a call of the lambda ``name`` gives: its body, the parameters unknown."""
        key = f"lambda {name}"
        if key in self._in_progress:
            return None
        scope = _Scope(self._scope)
        arguments = node.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        for parameter in every:
            scope.names[parameter.arg] = None
        saved, self._scope = self._scope, scope
        self._in_progress.add(key)
        try:
            returned = self.value(node.body)
        finally:
            self._scope = saved
            self._in_progress.discard(key)
        if returned is not None and not returned.constant:
            return replace(returned, how=f"{returned.how}, returned by {name}()")
        return returned

    def _reads_catalogue(self, method: str, query: ast.expr) -> bool:
        """Whether ``.method(query)``, a SQL sink, reads only the database's catalogue of its
        own tables and columns (``SELECT name FROM sqlite_master``) by a constant query: its
        rows are names that whoever created the schema gave, no outside value."""
        if type(query) is not ast.Constant or not isinstance(query.value, str):
            return False
        if not any(sink.destination == "sql" for sink in sinks.lookup("." + method)):
            return False
        sources = _QUERY_SOURCES.findall(query.value)
        return bool(sources) and all(
            _CATALOGUE.fullmatch(source) and not comma for source, comma in sources
        )

    def _unknown_template_filled(self, node: ast.Call) -> Formatted | None:
        """``template.format(**values)``, ``Template(text).substitute(x=x)`` of a template
        the check cannot see (a parameter, a file's text): the values it formats in are the
        text's, unless each is a constant or composed by psycopg (``sql.Identifier(t)``)."""
        arguments = [*node.args, *(k.value for k in node.keywords)]
        if all(
            _constant_value(self.value(a), a) or self._is_composed_part(a) for a in arguments
        ):
            return None
        how = "Template.substitute()" if "substitute" in _dotted(node.func) else "str.format()"
        return Formatted(f"{how} of a template read at run time", "", node.lineno)

    def _is_composed_part(self, node: ast.expr) -> bool:
        """``sql.Identifier(t)``, ``sql.Literal(v)``...: psycopg quotes what it composes."""
        if not isinstance(node, ast.Call):
            return False
        made = self._resolve(node.func)[0]
        return made.rpartition(".")[2] in _COMPOSED_PARTS and (
            made.startswith(("psycopg.sql.", "psycopg2.sql.", "sql."))
        )

    def _allow_listed(self, node: ast.If) -> tuple[ast.Name, bool | None] | None:
        """The name an ``if name not in ALLOWED: raise`` (or return, continue, abort...)
        leaves holding one of a container of constants (or a string a pattern allows:
        :meth:`_pattern_checked`); and whether only as a shell word (None: a constant)."""
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self._pattern_checked(node, test.operand)
        if type(test) is ast.Call and not node.orelse and _leaves(node.body):
            return self._each_checked(test, negated=False)  # `if any(not P(x) for x in xs)`
        if type(test) is ast.Name and not node.orelse and _leaves(node.body):
            return self._rejected_none(node, test.id)  # `if bad: raise`
        if not (
            isinstance(test, ast.Compare)
            and isinstance(test.left, ast.Name)
            and len(test.ops) == 1
            and isinstance(test.ops[0], ast.NotIn)
            and node.body
            and not node.orelse
        ):
            return None
        allowed = self.value(test.comparators[0])
        if _leaves(node.body) and allowed is not None and allowed.constant:
            return test.left, None  # (one of the constants)
        return None

    def _narrowed(self, node: ast.If) -> list[ast.stmt]:
        """The body of ``node``, after a binding of the name its test ``name in ALLOWED``
        (a container of constants, not a string: ``in`` of a string finds any part of it)
        leaves holding one of those constants there: ``if name in TABLES: return name``."""
        test = node.test
        if not (
            type(test) is ast.Compare
            and type(test.left) is ast.Name
            and len(test.ops) == 1
            and type(test.ops[0]) is ast.In
            and type(test.comparators[0]) is not ast.Constant
        ):
            return node.body
        allowed = self.value(test.comparators[0])
        if allowed is None or not allowed.constant:
            return node.body
        name = test.left.id
        narrowing = ast.Assign([ast.Name(name, ast.Store())], ast.Constant(name))
        for part in ast.walk(narrowing):
            ast.copy_location(part, test)
        return [narrowing, *node.body]

    def _note_validating_call(self, call: ast.Call) -> None:
        """After ``ensure_table(t)``, a call of a function of the code's that starts by
        raising unless its parameter is one of a container of constants (or matches a plain
        pattern), as :meth:`_allow_listed` reads an ``if``: ``t`` holds such a value."""
        func = call.func
        if type(func) is not ast.Name or (
            func.id not in self.functions and func.id not in self.unparsed
        ):
            return
        node = self._function_node(func.id)
        if node is None or self._scope.lookup(func.id) is not None:
            return  # (a name bound to something else here)
        arguments = node.args
        if arguments.vararg is not None or any(type(a) is ast.Starred for a in call.args):
            return
        positions = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        passed = dict(zip(positions, call.args))
        passed.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
        saved, self._scope = self._scope, self.module  # (the function's names: the module's)
        try:
            checked = [self._allow_listed(test) for test in _leading_raising_checks(node)]
        finally:
            self._scope = saved
        for guarded in checked:
            given = passed.get(guarded[0].id) if guarded is not None else None
            if type(given) is ast.Name and guarded is not None:
                samples = self._pattern_samples.get(guarded[0], ())
                self._scope.names[given.id] = _checked(given.id, call.lineno, guarded[1], samples)
                self._validated = True

    def _pattern_checked(self, node: ast.If, test: ast.expr) -> tuple[ast.Name, bool] | None:
        """The name an ``if not re.fullmatch(r"[a-z_]+", name): raise`` (or the same with a
        pattern compiled by ``re.compile``) leaves holding only letters, digits and ``_``;
        with ``-`` too, but never first (``[a-z][a-z0-9-]*``), as a shell word only (in SQL,
        ``--`` starts a comment)."""
        if node.orelse or not _leaves(node.body):
            return None
        return self._pattern_test(test) or self._each_checked(test, negated=True)

    def _pattern_test(self, test: ast.expr) -> tuple[ast.Name, bool] | None:
        """The name the call ``test`` is true of only when it holds a string of a plain
        pattern's (``re.fullmatch(r"\\w+", name)``, ``name.isidentifier()``), and whether
        only as a shell word (see :meth:`_pattern_checked`)."""
        if not isinstance(test, ast.Call):
            return None
        func = test.func
        if (  # `if not name.isidentifier(): raise`: letters, digits and `_`, as `\w+`
            type(func) is ast.Attribute
            and func.attr in _WORD_PREDICATES
            and type(func.value) is ast.Name
            and not test.args
            and not test.keywords
        ):
            return func.value, False
        function, method = self._resolve(test.func)
        arguments = test.args
        if method in (".fullmatch", ".match") and isinstance(test.func, ast.Attribute):
            compiled = test.func.value  # IDENT.fullmatch(name)
            if isinstance(compiled, ast.Name) and compiled.id in self.patterns:
                function = "re" + method
                arguments = [ast.Constant(self.patterns[compiled.id]), *arguments]
        if not (
            len(arguments) >= 2
            and isinstance(arguments[1], ast.Name)
            and isinstance(arguments[0], ast.Constant)
            and isinstance(arguments[0].value, str)
        ):
            return None
        pattern = arguments[0].value
        whole = function == "re.fullmatch" or (
            function == "re.match" and pattern.endswith(("$", "\\Z"))
        )
        if whole and _PLAIN_PATTERN.fullmatch(pattern):
            self._pattern_samples[arguments[1]] = samples(pattern)
            return arguments[1], False
        # (not `$`, which lets a newline end the value: in a shell, another command)
        if whole and not pattern.endswith("$") and _SHELL_WORD_PATTERN.fullmatch(pattern):
            self._pattern_samples[arguments[1]] = samples(pattern)
            return arguments[1], True
        return None

    def _note_validated_fields(self, node: ast.ClassDef) -> None:
        """Note the fields a dataclass ``node`` validates: its ``__post_init__`` starts by
        raising unless ``self.field`` is one of a container of constants (as
        :meth:`_allow_listed` reads an ``if``), and nothing in the tree being read assigns
        that attribute (``obj.field = x``, ``setattr``) or subclasses the class (a subclass
        may not validate).  ``__post_init__`` runs for each object ``__init__`` and
        ``dataclasses.replace`` make, so such a field holds one of those constants."""
        for name in list(self.validated_fields):
            if name[0] == node.name:  # (the class defined again)
                self.validated_fields.discard(name)
        if not any(
            self._resolve(d.func if type(d) is ast.Call else d)[0] in _DATACLASS_DECORATORS
            for d in node.decorator_list
        ):
            return
        post_init = next(
            (m for m in node.body if type(m) is ast.FunctionDef and m.name == "__post_init__"),
            None,
        )
        if post_init is None or not post_init.args.args:
            return
        this = post_init.args.args[0].arg
        fields = set()
        for check in _leading_raising_checks(post_init):
            test = check.test
            if (
                type(test) is ast.Compare
                and type(test.left) is ast.Attribute
                and type(test.left.value) is ast.Name
                and test.left.value.id == this
                and len(test.ops) == 1
                and type(test.ops[0]) is ast.NotIn
                and not check.orelse
                and _constant_value(self.value(test.comparators[0]), test.comparators[0])
            ):
                fields.add(test.left.attr)
        tree = self._tree_read() if fields else None
        if tree is not None:
            changed = _fields_changed(tree, node.name)
            if changed is not None:
                self.validated_fields.update((node.name, f) for f in fields - changed)

    def _validated_field(self, node: ast.Attribute) -> bool:
        """Whether ``node`` is ``obj.field`` of a field :meth:`_note_validated_fields` noted,
        ``obj`` a parameter annotated with the class, a name bound to what the class made,
        or ``self`` in its methods."""
        owner = node.value
        if type(owner) is not ast.Name:
            return False
        if owner.id == "self" and self._scope.class_name:
            made = self._scope.class_name
        else:
            made = self._scope.annotations.get(owner.id) or (
                self._scope.maker(owner.id) or ""
            ).removesuffix("()")
        return (made, node.attr) in self.validated_fields

    def _is_enum_member(self, node: ast.expr) -> bool:
        """``Table.ORDERS``, ``Table(x)`` or a parameter annotated ``Table``, for an Enum
        ``Table`` defined here."""
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Name) and (
            self._scope.annotations.get(node.id) in self.enums
            or (self._scope.maker(node.id) or "").removesuffix("()") in self.enums
        ):
            return True  # `t: Table`, `field = SortField(sort)`
        if isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in self.enums

    def _is_composed_sql(self, node: ast.expr) -> bool:
        """Whether ``node`` is psycopg's ``sql.SQL(...)`` (or a name bound to one), whose
        ``.format()`` composes quoted identifiers and literals, not text."""
        if isinstance(node, ast.Call):
            made = self._resolve(node.func)[0] + "()"
        elif isinstance(node, ast.Name):
            made = self._scope.maker(node.id) or ""
        else:
            return False
        return made.startswith(("psycopg.sql.SQL(", "psycopg2.sql.SQL(")) or made in (
            "sql.SQL()",
            "SQL()",
        )

    # sinks

    def may_reach_sink(
        self, tree: ast.Module, source: str, calls: list[int], imports: Mapping[str, str] = {}
    ) -> bool:
        """Whether a formatted string may reach the sink calls at ``calls`` (offsets in
        ``source``, of which ``tree`` is the module), judged from each call alone, before any
        data flow: False when each passes a constant string, a parameter its function never
        rebinds, nothing in the command's place (``*sql(...)``) or what a call to a function
        defined nowhere here returns (an i-string render: ``sh(i"...")``).  Most sink calls
        are such, and this spares them the analysis.  ``imports``: those written in
        ``source`` (local name -> full name).  Each call is found from its place in the
        tree, without walking the tree."""
        if has_istring(source):  # the tree is of the rewritten source: places differ
            return True
        return self._may_reach(tree, source, _places(source, calls), imports)

    def _may_reach(
        self,
        tree: ast.Module,
        source: str,
        places: list[tuple[int, int]],
        imports: Mapping[str, str],
    ) -> bool:
        self._rebound_in = {}  # (the tree is alive: its nodes' ids are theirs)
        if _compiled is not None:  # (this runs for every cell that calls a sink)
            tables = (
                self.partials, self.helpers, self.method_helpers, self.imports,
                self._possible_sinks_memo, self._rebound_in, sinks.version,
            )  # fmt: skip
            callbacks = (self._possible_sinks, self._passes_no_format, _plain_program)
            return bool(_compiled.may_reach(tree.body, places, source, imports, tables, callbacks))
        return self._python_may_reach(tree, source, places, imports)

    def _python_may_reach(
        self,
        tree: ast.Module,
        source: str,
        places: list[tuple[int, int]],
        imports: Mapping[str, str],
    ) -> bool:
        """The loop of :meth:`_may_reach` (the reference for its C version, which judges
        the usual calls itself and asks :meth:`_passes_no_format` of the others)."""
        for line, column in places:
            index = bisect.bisect_right(tree.body, line, key=_LINE) - 1
            found = _call_at(tree.body[index], line, column) if index >= 0 else None
            if found is None:
                return True  # not a call the tree shows where the text does: be thorough
            call, functions = found
            if isinstance(call.func, ast.Name) and call.func.id in self.partials:
                return True
            shapes = set()  # sinks that take their command alike are judged once
            for sink in self._possible_sinks(call.func, imports):
                if sink.passing in shapes:
                    continue
                shapes.add(sink.passing)
                if not self._passes_no_format(call, sink, functions, source):
                    return True
        return False

    def _possible_sinks(self, func: ast.expr, imports: Mapping[str, str]) -> list[Sink]:
        """Every sink ``func`` may name, whatever the names in scope are bound to (as
        :meth:`_resolve` would, with the imports of ``imports`` too).  Remembered by all
        that decides it (the name, what its first part and ``imports`` are imported as, the
        sink table's version), but for a helper's or a noted method's name."""
        if not isinstance(func, (ast.Attribute, ast.Name)):
            return []
        last = func.attr if isinstance(func, ast.Attribute) else func.id
        if last in self.helpers or last in self.method_helpers:
            return self._sinks_named(func, last, imports)
        name = _dotted(func)
        head = name.partition(".")[0]
        key = (
            name, type(func), imports.get(head), self.imports.get(head),
            last in imports or last in self.imports, sinks.version,
        )  # fmt: skip
        found = self._possible_sinks_memo.get(key)
        if found is None:
            if len(self._possible_sinks_memo) >= _SINKS_MEMO_KEPT:
                self._possible_sinks_memo.clear()
            found = self._possible_sinks_memo[key] = self._sinks_named(func, last, imports)
        return found

    def _sinks_named(
        self, func: ast.Attribute | ast.Name, last: str, imports: Mapping[str, str]
    ) -> list[Sink]:
        """:meth:`_possible_sinks` worked out (``last``: the last part of ``func``'s name)."""
        if (
            not sinks.ending_in(last)
            and last not in imports
            and last not in self.imports
            and last not in self.helpers
            and last not in self.method_helpers
        ):
            return []  # (the usual call: `from os import system as run` is not one)
        name = _dotted(func)
        head, dot, rest = name.partition(".")
        found = sinks.lookup(name)
        for full in {imports.get(head), self.imports.get(head), "pandas" if head == "pd" else None}:
            if full is not None:
                found = found + sinks.lookup(full + dot + rest)
        if isinstance(func, ast.Attribute):
            found = found + sinks.lookup("." + func.attr)
        if dot and head not in imports and head not in self.imports:
            # a method of an object some call made (`ip.system` with `ip = get_ipython()`,
            # `hook.run` with `hook = PostgresHook()`): every sink so named
            found = found + sinks.ending_in(last)
        if last in self.method_helpers:
            found = found + self._method_sinks_named(last)
        return found + self.helper_sinks(last)

    def _passes_no_format(
        self,
        call: ast.Call,
        sink: Sink,
        functions: list[ast.FunctionDef | ast.AsyncFunctionDef],
        source: str,
    ) -> bool:
        """Whether ``call`` of ``sink``, inside ``functions``, surely gets no formatted string
        (see :meth:`may_reach_sink`)."""
        argument = _argument(call, sink.argument, sink.keywords)
        if (
            sink.shell_keyword is not None
            and not _keyword_true(call, sink.shell_keyword)
            and not any(k.arg is None for k in call.keywords)  # `**options` may set it
        ):
            if not (sink.shell_argv and isinstance(argument, (ast.List, ast.Tuple))):
                return True
            argument = _shell_c_argument(argument)
        elif sink.split or (sink.shell_argv and sink.shell_keyword is None):
            argument = _code_argument(call, sink, argument)
        if argument is None:
            return True
        if sink.magic_names:
            magic = _argument(call, 0, ("magic_name",))
            if not (isinstance(magic, ast.Constant) and magic.value in sink.magic_names):
                return True  # `%time ...`, `%matplotlib inline`: no shell
        if isinstance(argument, ast.Starred):  # `*sql(i"...")`, `*build(...)`: what it holds
            argument = argument.value
        if isinstance(argument, ast.Constant):
            # (`!ls`, `%sx ls`: a constant, but IPython expands `{x}` and `$x` in it.)
            value = argument.value
            expands = isinstance(value, str) and ("{" in value or "$" in value)
            return not (sink.ipython_expands and expands)
        if isinstance(argument, ast.Name):
            if not functions or argument.id not in _parameters(functions):
                return False
            # (What the outermost function rebinds: walked once per check of a cell.)
            outer = functions[0]
            rebound = self._rebound_in.get(id(outer))
            if rebound is None:
                rebound = self._rebound_in[id(outer)] = _rebound(outer.body)
            return argument.id not in rebound
        if isinstance(argument, ast.Call) and isinstance(argument.func, ast.Name):
            name = argument.func.id
            return not (
                name in _WRAPPERS
                or name in self.functions
                or name in self.unparsed
                or name in self.put_aside_names
                or name in self.lambdas
                or re.search(rf"\bdef\s+{re.escape(name)}\b", source) is not None
            )
        return False

    def _scan_calls(self, expressions: Iterable[ast.expr]) -> None:
        places = self._call_places
        for expression in expressions:
            if places is not None:
                start = bisect.bisect_left(places, (expression.lineno, expression.col_offset))
                end = bisect.bisect_left(
                    places, (expression.end_lineno or 0, expression.end_col_offset or 0)
                )
                calls = [_call_at(expression, *place) for place in places[start:end]]
                if None not in calls:  # (else a place in a string, say: walk it all)
                    for found in calls:
                        assert found is not None
                        self._check_call(found[0])
                    continue
            for node in _walk(expression):
                if isinstance(node, ast.Call):
                    self._check_call(node)
                elif self._plumbum and type(node) is ast.Subscript:
                    self._check_command(node)

    def _resolve(self, func: ast.expr) -> tuple[str, str]:
        """The called function's full name (after imports) and its method name."""
        name = _dotted(func)
        head, dot, rest = name.partition(".")
        maker = self._scope.maker(head) if dot else None
        if maker is not None:
            name = maker + dot + rest  # `ip.system` with `ip = get_ipython()`
        elif head in self.imports and self._scope.lookup(head) is None:
            name = self.imports[head] + dot + rest
        elif (  # `Connection(host).run`, the maker imported by name
            head[-2:] == "()"
            and head[:-2] in self.imports
            and self._scope.lookup(head[:-2]) is None
        ):
            name = self.imports[head[:-2]] + "()" + dot + rest
        if name.startswith("pd."):  # the universal alias, even when imported elsewhere
            name = "pandas." + name[3:]
        method = "." + func.attr if isinstance(func, ast.Attribute) else ""
        return name, method

    def _table_sinks(self, func: ast.expr) -> tuple[str, list[Sink]]:
        """The called function's full name and the sinks of the table it may be (see
        :func:`_lookup`): by its name, or by its method name alone (``cur.execute``), unless
        the object is known to be no library's, whatever its method is called."""
        name, method = self._resolve(func)
        if method and self._no_library_object(func):
            method = ""
        return name, _lookup(name, method)

    def _no_library_object(self, func: ast.expr) -> bool:
        """Whether the method call ``func`` is on an object known to be no database's or
        remote shell's: a module of the standard library (``copy.copy(x)`` is no psycopg
        ``cursor.copy``; its sinks, ``os.system``..., are in the table by their full names)
        or ``self`` of a class that defines the method itself (``self.sql(node)`` in a class
        with its own ``def sql``: no DuckDB ``con.sql``; what that method does with its
        parameters is judged as for any method of the user's, :meth:`method_sinks`)."""
        if not isinstance(func, ast.Attribute):
            return False
        if isinstance(func.value, ast.Name) and func.value.id in ("self", "cls"):
            owner = self._scope.class_name
            return owner is not None and func.attr in self.class_methods.get(owner, ())
        head = _dotted(func).partition(".")[0]
        full = self.imports.get(head)
        return (
            full is not None
            and self._scope.lookup(head) is None
            and self._scope.maker(head) is None
            and full.partition(".")[0] in _STANDARD_MODULES
        )

    def _check_call(self, call: ast.Call) -> None:
        func = call.func
        last = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if self._plumbum and (last is None or last in self.commands):
            self._check_command(call)  # `local["sh"]("-c", CODE)`, `sh("-c", CODE)`
        if last is None or (
            not sinks.ending_in(last)
            and last not in self.imports
            and last not in self.helpers
            and last not in self.partials
            and last not in self.method_helpers
        ):
            return  # no sink is named so (the usual call)
        partial = self.partials.get(last) if isinstance(func, ast.Name) else None
        if partial is not None and last not in self._partials_read:
            self._check_partial(call, last, partial)
            return
        name, found = self._table_sinks(func)
        candidates = found or self.method_sinks(func)
        for sink in candidates:
            self._check_sink(call, name, sink)
        if candidates or not isinstance(call.func, ast.Name):
            return
        for sink in self.helper_sinks(call.func.id):
            self._check_sink(call, name, sink)

    def _check_partial(self, call: ast.Call, name: str, partial: ast.Call) -> None:
        """Check the call of the partial object ``name`` (``run = partial(subprocess.run,
        shell=True)``, then ``run(cmd)``) as the call of its function with all the arguments."""
        function = partial.args[0]
        imported = self.imports.get(name)
        if type(function) is ast.Name and function.id == name and imported:
            # `run = partial(run, shell=True)`: inside, `run` is what it was imported as
            function = ast.parse(imported, mode="eval").body
        merged = ast.Call(
            func=function,
            args=[*partial.args[1:], *call.args],
            keywords=[*partial.keywords, *call.keywords],
        )
        self._partials_read.add(name)  # (`f = partial(f, ...)` of a name not imported)
        try:
            self._check_call(ast.copy_location(merged, call))
        finally:
            self._partials_read.discard(name)

    # plumbum's commands: a program's object, given its words by subscript or call.

    def _command(self, node: ast.expr) -> tuple[str, list[ast.expr], Sink] | None:
        """The program, its words so far and the sink, if ``node`` is a command object:
        ``local["sh"]``, ``plumbum.cmd.bash``, such with words (``local["sh"]["-c", x]``),
        or a name bound to one."""
        if type(node) is ast.Name and node.id in self.commands:
            self._scope.lookup(node.id)  # (reads the statements put aside that bind it)
            return self.commands.get(node.id)
        if type(node) is ast.Subscript:
            index = node.slice
            base = node.value
            if type(base) in (ast.Name, ast.Attribute):
                maker = next((s for s in _lookup(self._resolve(base)[0], "") if s.maker), None)
                if maker is not None:  # `local["sh"]`
                    program = self.value(index)
                    if program is None or not program.constant or not program.text:
                        return None
                    return program.text, [], maker
            command = self._command(base)
            if command is None:
                return None
            words = list(index.elts) if type(index) is ast.Tuple else [index]
            return command[0], [*command[1], *words], command[2]
        if type(node) in (ast.Name, ast.Attribute):
            name = self._resolve(node)[0]
            for sink in sinks.lookup(name):
                if sink.program:  # `from plumbum.cmd import bash`
                    return sink.program, [], sink
        return None

    def _check_command(self, node: ast.Subscript | ast.Call) -> None:
        """A command given words (``sh["-c", CODE]``, ``local["bash"]("-c", CODE)``): a
        finding if they give a shell a formatted string as code."""
        if type(node) is ast.Subscript:
            func, index = node.value, node.slice
            added = list(index.elts) if type(index) is ast.Tuple else [index]
        else:
            assert isinstance(node, ast.Call)
            func, added = node.func, list(node.args)
            bound = isinstance(func, ast.Name) and func.id in self.commands
            if not (bound or type(func) is ast.Subscript):
                return  # (`bash("-c", CODE)`: a sink of the table, checked as one)
        command = self._command(func) if added else None
        if command is None:
            return
        program, words, sink = command[0], [*command[1], *added], command[2]
        if any(type(word) is ast.Starred for word in words):
            return  # (the places of the words after it are unknown)
        code = _shell_c_argument(ast.List(elts=[ast.Constant(program), *words], ctx=ast.Load()))
        value = self.value(code) if code is not None else None
        if code is None or value is None or value.how is None:
            return
        named = ast.Name(id=ast.unparse(func), ctx=ast.Load())
        call = ast.copy_location(ast.Call(func=named, args=words, keywords=[]), node)
        self._report(call, named.id, sink, code, value, value.how)

    # Helpers that pass a parameter on to a sink: sinks of their own.

    def _derived_calls(self, tree: ast.Module, source: str | None) -> list[int]:
        """Note the module's functions and lambdas that may hand a parameter to a sink, and
        its ``functools.partial`` objects of sinks (:attr:`helpers`, :attr:`partials`); the
        offsets of the calls of every such name in ``source``.  What a helper does is worked
        out only when a call of it is read (:meth:`helper_sinks`)."""
        # (The words usually absent, which a search reads the whole text for: _has_text.)
        found = None
        if (
            source is None or "def " in source or _has_text(source, "lambda")
            or _has_text(source, "partial")
        ):  # fmt: skip
            found = self._note_helpers(tree, source)
        if source is None or _has_text(source, "class "):
            self._note_method_helpers(tree, source)
            found = None
        if source is None or not (
            self.helpers or self.partials or self.method_helpers or self.commands
        ):
            return []
        return self.helper_calls(source) if found is None else found

    def _note_method_helpers(self, tree: ast.Module, source: str | None) -> None:
        """Note the methods of the module's classes that pass a parameter to a sink, or to
        such a method (see :attr:`method_helpers`)."""
        methods = [
            (statement.name, method)
            for statement in tree.body
            if isinstance(statement, ast.ClassDef)
            for method in statement.body
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        if not methods:
            return
        own: dict[str, set[str]] = {}
        for owner, method in methods:
            own.setdefault(owner, set()).add(method.name)
        self.class_methods.update((owner, frozenset(names)) for owner, names in own.items())
        for statement in tree.body:  # (what a method calls is resolved through the imports)
            if isinstance(statement, (ast.Import, ast.ImportFrom)):
                self._import(statement)
        for _ in range(2):  # a method that calls such a method
            calls = self.method_helper_calls(source) if source is not None else []
            lines = _line_numbers(source, calls) if source is not None and calls else []
            noted = []
            for owner, method in methods:
                classes = self.method_helpers.get(method.name, {})
                if classes.get(owner) is method or not (
                    self._names_sink(method) or _spans(lines, method)
                ):
                    continue
                self.method_helpers.setdefault(method.name, {})[owner] = method
                self._helper_sinks.pop(f"{owner}.{method.name}", None)
                noted.append((owner, method.name))
            # Worked out now: a method that passes no parameter to a sink is no helper, and
            # the calls of its name need no reading.
            for owner, name in dict.fromkeys(noted):
                if not self._method_sinks_of(owner, name):
                    del self.method_helpers[name][owner]
                    if not self.method_helpers[name]:
                        del self.method_helpers[name]
            if not noted:
                break

    def method_helper_calls(self, source: str) -> list[int]:
        """The offsets in ``source`` of the calls ``.name(`` of the methods noted so far."""
        names = tuple(self.method_helpers)
        if not names:
            return []
        if self._method_helper_pattern is None or self._method_helper_pattern[0] != names:
            pattern = re.compile(rf"\.\s*(?:{'|'.join(map(re.escape, names))})\s*\(")
            self._method_helper_pattern = (names, pattern)
        pattern = self._method_helper_pattern[1]
        return [m.start() for m in pattern.finditer(source)]

    def method_sinks(self, func: ast.expr) -> list[Sink]:
        """The sinks a call of the method ``func`` is, when it is a method noted in
        :attr:`method_helpers` of the class of its object: ``self`` inside that class, a name
        bound to what the class made (``db = SensorDB(...)``), or ``SensorDB(...)`` itself."""
        if not isinstance(func, ast.Attribute) or func.attr not in self.method_helpers:
            return []
        receiver, owner = func.value, None
        if isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"):
            owner = self._scope.class_name
        elif isinstance(receiver, ast.Name):
            owner = (self._scope.maker(receiver.id) or "").removesuffix("()")
        elif isinstance(receiver, ast.Call):
            owner = _dotted(receiver.func)
        return self._method_sinks_of(owner or "", func.attr)

    def _method_sinks_of(self, owner: str, method: str) -> list[Sink]:
        """The sinks a call of the method ``method`` of the class ``owner`` is (worked out
        once, as for :meth:`helper_sinks`, from the method without its ``self``)."""
        node = self.method_helpers.get(method, {}).get(owner)
        if node is None:
            return []
        key = f"{owner}.{method}"
        found = self._helper_sinks.get(key)
        if found is None:
            self._helper_sinks[key] = []  # (a method calling itself)
            arguments = node.args
            if not any(_dotted(d) == "staticmethod" for d in node.decorator_list):
                # the call passes the object itself as the first parameter
                positional = [*arguments.posonlyargs, *arguments.args][1:]
                arguments = ast.arguments(
                    posonlyargs=[], args=positional, vararg=arguments.vararg,
                    kwonlyargs=arguments.kwonlyargs, kw_defaults=arguments.kw_defaults,
                    kwarg=arguments.kwarg, defaults=arguments.defaults,
                )  # fmt: skip
            found = self._helper_sinks[key] = self._derive(
                key, arguments, list(node.body), class_name=owner
            )
        return found

    def _method_sinks_named(self, name: str) -> list[Sink]:
        """The sinks of the noted methods called ``name``, whatever their class (for a
        judgement from the call alone)."""
        return [
            sink
            for owner in self.method_helpers.get(name, {})
            for sink in self._method_sinks_of(owner, name)
        ]

    def _note_helpers(self, tree: ast.Module, source: str | None) -> list[int] | None:
        """Note the helpers and partial objects of ``tree`` (see :meth:`_derived_calls`);
        what :meth:`helper_calls` now gives for ``source``, when it is known already."""
        body = tree.body
        # A helper calls a sink or another helper: in a cell, only the statements on the lines
        # of those calls may define one (found without looking at the others), unless it may
        # make a partial object, which names its sink without calling it.
        every = source is None or _has_text(source, "partial")
        candidates = _helper_candidates(body) if every else []
        if every and not candidates:
            return None
        if every or not source:  # (a partial's name is resolved through the imports)
            for statement in body:
                if isinstance(statement, (ast.Import, ast.ImportFrom)):
                    self._import(statement)
        helpers, partial_objects, found = self.helpers, self.partials, None
        for _ in range(2):  # a helper that calls a helper
            known, partials = len(helpers), len(partial_objects)
            found = self.helper_calls(source) if source is not None and helpers else None
            helper_lines = _line_numbers(source, found) if source is not None and found else []
            if not every:
                # (the sink lines are sorted and distinct, as _line_numbers gives them)
                lines = sorted({*self._sink_lines, *helper_lines}) if helper_lines else (
                    self._sink_lines
                )
                candidates = _helper_statements(body, lines)
            for statement in candidates:
                node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                if isinstance(statement, _FUNCTION_DEFINITIONS):
                    name, node = statement.name, statement
                    # (A function found by its lines spans a sink's or a helper's line.)
                    if every and not (
                        self._names_sink(statement) or _spans(helper_lines, statement)
                    ):
                        continue
                else:
                    assert isinstance(statement, ast.Assign)
                    target, value = statement.targets[0], statement.value
                    assert isinstance(target, ast.Name)
                    if isinstance(value, ast.Call):
                        if value.args and self._resolve(value.func)[0] == "functools.partial":
                            partial_objects[target.id] = value  # names the sink, calls it not
                        continue
                    if not (isinstance(value, ast.Lambda) and self._names_sink(statement)):
                        continue
                    name, node = target.id, value
                if helpers.get(name) is not node:
                    helpers[name] = node
                    self._helper_sinks.pop(name, None)
                    self._decorator_sinks.pop(name, None)
            if len(helpers) == known:
                break
        # (No name noted since: the calls found are those of the names now.)
        return found if len(helpers) == known and len(partial_objects) == partials else None

    def helper_sinks(self, name: str) -> list[Sink]:
        """The sinks a call of the helper ``name`` is: one for each parameter its body passes,
        unchanged, to a sink (worked out once, when first asked)."""
        if name not in self.helpers:
            return []
        found = self._helper_sinks.get(name)
        if found is None:
            self._helper_sinks[name] = []  # (a helper calling itself)
            node = self.helpers[name]
            body: list[ast.stmt] = (
                [ast.Expr(node.body)] if isinstance(node, ast.Lambda) else list(node.body)
            )
            found = self._helper_sinks[name] = self._derive(name, node.args, body)
        return found

    def decorator_sink(self, name: str) -> Sink | None:
        """The sink a decorator ``name`` of the user's passes the result of the function it
        wraps to (``cmd = func(*args); os.system(cmd)``), if it does."""
        node = self.helpers.get(name)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if name not in self._decorator_sinks:
            self._decorator_sinks[name] = None
            self._decorator_sinks[name] = self._derive_decorator(node)
        return self._decorator_sinks[name]

    def helper_calls(self, source: str) -> list[int]:
        """The offsets in ``source`` of the calls of the helpers noted so far (functions,
        lambdas, partials, methods) and of the ``def`` of each function one of them decorates:
        the places of sink calls of the user's own making."""
        helpers, partials, commands = self.helpers, self.partials, self.commands
        methods = self.method_helpers
        if not (helpers or partials or commands or methods):
            return []  # (none noted: most notebooks, asked for each cell)
        # (tuple() of a dictionary is dear, and most of these are empty)
        names = (
            tuple(helpers) if helpers else (),
            tuple(partials) if partials else (),
            tuple(commands) if commands else (),
        )
        memo, memo_key = self._helper_calls_memo, (names, tuple(methods) if methods else ())
        if memo is not None and memo[1] == source and memo[0] == memo_key:
            return list(memo[2])  # (a cell asks twice: before and while it is read)
        calls = names[0] + names[1]
        found = _called_offsets(source, calls, names[2])
        if names[0] and "@" in source:
            patterns = self._helper_patterns
            if patterns is None or patterns[0] != names:
                decorated = re.compile(
                    rf"^[ \t]*@(?:{'|'.join(map(re.escape, names[0]))})\b.*\n"
                    r"(?:[ \t]*@.*\n)*[ \t]*(?:async[ \t]+)?def\b",
                    re.MULTILINE,
                )
                patterns = self._helper_patterns = (names, None, decorated)  # (calls: above)
            assert patterns[2] is not None
            found += [m.end() - 3 for m in patterns[2].finditer(source)]
        if methods:
            found = sorted(found + self.method_helper_calls(source))
        self._helper_calls_memo = (memo_key, source, tuple(found) if found else ())
        return found

    def _derive_decorator(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Sink | None:
        """The sink ``node``'s wrapper passes the wrapped function's result to, if any."""
        arguments = [*node.args.posonlyargs, *node.args.args]
        if len(arguments) != 1:
            return None
        wrapped = arguments[0].arg
        nodes = list(ast.walk(node))
        results = {
            target.id
            for n in nodes
            if isinstance(n, ast.Assign) and _calls_name(n.value, wrapped)
            for target in n.targets
            if isinstance(target, ast.Name)
        }
        for sink, argument in self._sink_arguments(nodes, node.args):
            if _calls_name(argument, wrapped) or (
                isinstance(argument, ast.Name) and argument.id in results
            ):
                return _own_sink(sink, node.name, 0, ())
        return None

    def _derive(
        self,
        name: str,
        arguments: ast.arguments,
        body: list[ast.stmt],
        class_name: str | None = None,
    ) -> list[Sink]:
        """A sink ``name`` for each parameter its body passes, unchanged, to a sink (a method
        of ``class_name``'s: without its ``self``), and for each keyword argument it passes
        from its ``**kwargs`` (``kwargs["command"]``, ``kwargs.get("command")``)."""
        positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)]
        parameters = {*positional, *(a.arg for a in arguments.kwonlyargs)}
        nodes = [node for statement in body for node in _walk(statement)]
        reassigned = {
            n.id for n in nodes if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
        }
        found: list[Sink] = []
        for sink, argument in self._sink_arguments(nodes, arguments, class_name):
            kwargs = arguments.kwarg
            keyword = _keyword_passed_on(argument, kwargs, nodes)
            if keyword is not None and kwargs is not None and kwargs.arg not in reassigned:
                found.append(_own_sink(sink, name, 1 << 20, (keyword,)))
                continue
            if not isinstance(argument, ast.Name) or argument.id not in parameters:
                continue
            if argument.id in reassigned:
                continue
            index = positional.index(argument.id) if argument.id in positional else 1 << 20
            found.append(_own_sink(sink, name, index, (argument.id,)))
        return found

    def _sink_arguments(
        self, nodes: Iterable[ast.AST], arguments: ast.arguments, class_name: str | None = None
    ) -> Iterator[tuple[Sink, ast.expr | None]]:
        """Each sink call among ``nodes``, the body of a function taking ``arguments`` (with
        ``shell=True`` where it needs it), and what it passes as the command or query,
        unwrapped (``cmd`` of ``text(cmd)``); a method's body if ``class_name``."""
        saved = self._scope
        self._scope = _Scope(self.module, class_name)  # its parameters shadow the module's
        for parameter in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            self._scope.names[parameter.arg] = None
        try:
            for call in nodes:
                if not isinstance(call, ast.Call):
                    continue
                for sink in self._sinks_of(call):
                    if sink.shell_keyword is None or self._keyword_true(call, sink.shell_keyword):
                        argument = _argument(call, sink.argument, sink.keywords)
                        if sink.split or (sink.shell_argv and sink.shell_keyword is None):
                            argument = _code_argument(call, sink, argument)
                        yield sink, _unwrapped(argument)
        finally:
            self._scope = saved

    def _sinks_of(self, call: ast.Call) -> list[Sink]:
        found = self._table_sinks(call.func)[1]
        if not found and isinstance(call.func, ast.Name):
            found = self.helper_sinks(call.func.id)
        if not found:
            found = self.method_sinks(call.func)  # `self.run_query(query)`
        return found

    def _check_sink(self, call: ast.Call, name: str, sink: Sink) -> None:
        if sink.maker:
            return  # (a command maker: see _check_command)
        if self._written and sink.destination == "shell":
            self._check_script_run(call, sink)
        argument = given = _argument(call, sink.argument, sink.keywords)
        if sink.shell_keyword is not None and not self._keyword_true(call, sink.shell_keyword):
            if sink.shell_argv and isinstance(argument, (ast.List, ast.Tuple)):
                argument = _shell_c_argument(argument)
            else:
                return
        elif sink.split or (sink.shell_argv and sink.shell_keyword is None):
            argument = _code_argument(call, sink, argument)
        if argument is None:
            return
        if sink.magic_names:
            magic = _argument(call, 0, ("magic_name",))
            if not (isinstance(magic, ast.Constant) and magic.value in sink.magic_names):
                return
        if isinstance(argument, ast.Starred):  # `cur.execute(*build(...))`: the query
            value = self.value(argument.value)
            value = value.first if value is not None and value.first is not None else value
        else:
            value = self.value(argument)
        how = None if value is None or value.constant else value.how
        if type(value) is _ShellWord:
            return  # the checked value itself: nothing formatted into it
        if how is not None and sink.destination == "shell" and self._shell_words_only(argument):
            # `f"systemctl restart {service}.service"`, `service` a checked shell word
            if value is not None:
                self._check_roles(call, name, sink, argument, value)  # type: ignore[arg-type]
            return
        if (
            sink.split
            and argument is given
            and value is not None
            and not _splits_into_shell_code(value.text)
        ):
            return  # a command line split into a program's words: no shell parses it
        expands = how is None and sink.ipython_expands and value is not None
        if expands and value is not None and self._expands_values(value.text, sink.jinja):
            how = IPYTHON_EXPANSION
        if how is None or value is None:
            if self._validated and value is not None:
                made = self._role_fstrings.get(id(value), (None, argument))
                written = made[1] if made[0] is value else argument
                if type(written) is ast.JoinedStr:
                    self._check_roles(call, name, sink, written, value)
            return
        if sink.sql_text_only and value.text.strip() and not SQL_WORDS.search(value.text):
            return
        if sink.destination == "sql" and (
            (type(argument) is ast.JoinedStr and self._quoted_identifiers_only(argument))
            or (self._quoted_queries and self._marked(_as_text(argument), self._quoted_queries))
        ):
            return  # `f"select * from {preparer.quote(t)}"`, or a name bound to it alone
        self._report(call, name, sink, argument, value, how)

    def _check_roles(
        self, call: ast.Call, name: str, sink: Sink, node: ast.JoinedStr, value: Formatted
    ) -> None:
        """Report the f-string ``node`` whose fields are constants and validated names (one
        at least) when the renderer refuses a validated value in the role it has there
        (``git checkout {ref}``, ``select * from {fn} ()``): see :mod:`.roles`."""
        strings = [""]
        fields: list[tuple[str, str | tuple[str, ...]]] = []
        for part in node.values:
            if type(part) is ast.Constant:
                strings[-1] += str(part.value)
                continue
            if type(part) is not ast.FormattedValue or part.conversion > 0 or part.format_spec:
                return  # (a spec or conversion: its own text, not the value's alone)
            held = self.value(part.value)
            if held is None or not (held.constant or type(held) is _ShellWord):
                return
            validated = type(held) is _Checked or type(held) is _ShellWord
            kept = getattr(held, "samples", ()) if validated else held.text
            fields.append((ast.unparse(part.value), kept))
            strings.append("")
        if all(isinstance(text, str) for _, text in fields):
            return
        reason = role_refusal(strings, fields, sink.destination)
        if reason is not None:
            reported = len(self.findings)
            self._report(call, name, sink, node, value, ROLE_REFUSED + reason)
            if len(self.findings) > reported:
                object.__setattr__(self.findings[-1], "__class__", _RoleFinding)

    def _shell_words_only(self, node: ast.expr) -> bool:
        """Whether ``node`` is an f-string each field of which is a name holding a constant
        or a checked shell word (:class:`_ShellWord`; one at least), without a format spec
        (whose fill character would be text of the value's)."""
        if type(node) is not ast.JoinedStr:
            return False
        words = False
        for part in node.values:
            if type(part) is ast.FormattedValue:
                if part.format_spec is not None or type(part.value) is not ast.Name:
                    return False
                value = self.value(part.value)
                if type(value) is _ShellWord:
                    words = True
                elif value is None or not value.constant:
                    return False
        return words

    def _quoted_identifiers_only(self, node: ast.JoinedStr) -> bool:
        """Whether each field of the SQL f-string ``node`` that is not a constant is a name
        a database library quoted as an identifier (:meth:`_quotes_identifier`), standing as
        a token of its own in code, as every dialect's lexer reads the f-string.

        Why that is safe: such a name is wrapped in the identifier quote with each quote
        inside doubled (checked in sqlite3 and PostgreSQL with ``t" where 0 union select
        'pwned' --``), so where a name stands it is one name whatever it holds.  In a string
        literal, a quoted identifier or a comment it is text of that token, which its
        quotes (or a newline) would end: a finding there."""
        for part in node.values:
            if type(part) is ast.FormattedValue and self._identifier_field(part.value):
                break
        else:
            return False  # (the usual f-string: no such field)
        from .._sql_tokens import MARKER, tokens

        texts: list[str] = []
        fields: list[int] = []
        for part in node.values:
            if type(part) is ast.Constant:
                texts.append(str(part.value))
                continue
            assert isinstance(part, ast.FormattedValue)
            plain = part.conversion == -1 and part.format_spec is None
            if plain and self._identifier_field(part.value):
                fields.append(sum(map(len, texts)))
                texts.append(MARKER)
                continue
            value = self.value(part.value)
            if not plain or value is None or not value.constant:
                return False
            texts.append(value.text)
        text = "".join(texts)
        if not fields or text.count(MARKER) != len(fields):
            return False
        for dialect in _sql_dialects():
            alone = [start for kind, start, _ in tokens(text, dialect) if kind == "field"]
            if alone != fields:
                return False
        return True

    def _identifier_field(self, node: ast.expr) -> bool:
        """Whether the field ``node`` is a quoted identifier: the quoting call itself, or a
        name that holds only what one returned (``t = preparer.quote(table)``)."""
        return self._quotes_identifier(node) or (
            bool(self._quoted_names) and self._marked(node, self._quoted_names)
        )

    def _quotes_identifier(self, node: ast.expr) -> bool:
        """Whether ``node`` is a call of a database library that quotes a name as an
        identifier: SQLAlchemy's ``<dialect>.identifier_preparer.quote(name)`` (or
        ``.quote_identifier``), psycopg 3's ``sql.Identifier(...).as_string(conn)``,
        psycopg2's ``extensions.quote_ident(name, scope)``."""
        if type(node) is not ast.Call:  # (no call: the usual field)
            return False
        func = node.func
        if getattr(func, "attr", None) == "quote_ident" or getattr(func, "id", None) == (
            "quote_ident"
        ):  # psycopg2's, given a scope
            return (
                self._resolve(func)[0] == "psycopg2.extensions.quote_ident"
                and len(node.args) == 2
                and not node.keywords
            )
        if type(func) is not ast.Attribute:
            return False
        if func.attr in ("quote", "quote_identifier"):
            owner = func.value
            return (
                type(owner) is ast.Attribute
                and owner.attr == "identifier_preparer"
                and len(node.args) == 1
                and not node.keywords
            )
        return (
            func.attr == "as_string"
            and type(func.value) is ast.Call
            and self._resolve(func.value.func)[0] == "psycopg.sql.Identifier"
        )

    def _note_quoted(self, name: str, node: ast.expr | None) -> None:
        """Note whether ``name``, about to be bound to ``node``, holds only an identifier a
        database library quoted (:meth:`_quotes_identifier`), or only a SQL f-string whose
        fields are such identifiers where a name stands (:meth:`_quoted_identifiers_only`):
        so when it is bound to one here, was bound to nothing before (in this scope or one
        around it) and every binding of it in the tree being read (or the statements put
        aside that bind it, read now) is one too (an ``if`` that binds it to a raw value, or
        a loop that rebinds it after its use, would let the raw value in)."""
        key = (self._scope, name)
        for marks, accepts in (
            (self._quoted_names, self._quotes_identifier),
            (self._quoted_queries, self._quoted_query),
        ):
            if node is None or not accepts(node):
                marks.pop(key, None)
                continue
            tree = self._tree_read()
            marks[key] = (
                not self._scope.bound(name)
                and tree is not None
                and _only_bound_by(tree, name, node, accepts)
            )

    def _tree_read(self) -> ast.Module | None:
        """The tree being read, or the statements put aside being read, as a module."""
        tree = self._tree
        return ast.Module(tree, []) if isinstance(tree, list) else tree

    def _quoted_query(self, node: ast.expr) -> bool:
        """Whether ``node`` is a SQL f-string whose fields that are not constants are quoted
        identifiers standing where a name stands (:meth:`_quoted_identifiers_only`)."""
        return type(node) is ast.JoinedStr and self._quoted_identifiers_only(node)

    def _marked(self, node: ast.expr, marks: dict[tuple[_Scope, str], bool]) -> bool:
        """Whether ``node`` is a name ``marks`` says holds only a quoted identifier (or a
        query of them: see :meth:`_note_quoted`), where it is read."""
        if type(node) is not ast.Name:
            return False
        self._scope.lookup(node.id)  # (reads the statements put aside that bind it)
        scope: _Scope | None = self._scope
        while scope is not None and node.id not in scope.names:
            scope = scope.parent
        return scope is not None and marks.get((scope, node.id), False)

    def _keyword_true(self, call: ast.Call, name: str) -> bool:
        """Whether ``call`` may set the keyword ``name`` true, itself (:func:`_keyword_true`)
        or through ``**options``: a dict that does (``**{"shell": True}``), or a name bound to
        one."""
        return _keyword_true(call, name) or any(
            k.arg is None
            and name
            in (
                self._true_keys(k.value.id)
                if isinstance(k.value, ast.Name)
                else _dict_true_keys(k.value)
            )
            for k in call.keywords
        )

    def _true_keys(self, name: str) -> frozenset[str]:
        """The keys the dict ``name`` holds sets to a true constant (:func:`_dict_true_keys`)."""
        self._scope.lookup(name)  # (reads the statements put aside that bind it)
        scope: _Scope | None = self._scope
        while scope is not None:
            if name in scope.names or name in scope.true_keys:
                return scope.true_keys.get(name, frozenset())
            scope = scope.parent
        return frozenset()

    def _expands_values(self, command: str, jinja: bool = False) -> bool:
        """Whether IPython's expansion of ``command`` (``{expr}``, ``$name``) puts in a value
        that is not a known constant.

        IPython evaluates every field or expands none: a field that does not parse, or names
        something undefined (``$HOME``, ``awk '{print $1}'``), leaves the command as written."""
        formatted = False
        for expression in _ipython_expansions(command, jinja):
            try:
                tree = ast.parse(expression.strip(), mode="eval")
            except SyntaxError:
                return False
            for node in _walk(tree.body):
                if isinstance(node, ast.Name) and not self._defined(node.id):
                    return False
            if not _constant_value(self.value(tree.body), tree.body):
                formatted = True
        return formatted

    def _defined(self, name: str) -> bool:
        return (
            self._scope.bound(name)
            or name in self.imports
            or name in self.functions
            or name in self.unparsed
            or name in self.known_names
            or hasattr(builtins, name)
        )

    def _report(
        self,
        call: ast.Call,
        name: str,
        sink: Sink,
        argument: ast.expr,
        value: Formatted,
        how: str,
    ) -> None:
        if not self._reporting:
            return
        # `conn.execute(text(f"..."))` is two sinks of one string: one finding.
        origin = (value.line, value.text)
        if origin in self._statement_origins:
            return
        self._statement_origins.add(origin)
        via = ""
        if isinstance(argument, (ast.Name, ast.Attribute)):
            via = _dotted(argument)
        elif isinstance(argument, ast.Call) and not _is_formatting_call(argument):
            via = f"{_dotted(argument.func)}()"
        finding = Finding._made(
            line=argument.lineno + self._line_offset,
            column=self._column(argument.lineno, argument.col_offset),
            call=_dotted(call.func),
            destination=sink.destination,
            how=how,
            via=via if via and value.line != argument.lineno else "",
            origin_line=value.line + self._line_offset,
            end_line=(argument.end_lineno or argument.lineno) + self._line_offset,
            end_column=self._column(
                argument.end_lineno or argument.lineno, argument.end_col_offset or 0
            ),
            sink=sink,
            cell=self._cell,
            call_column=self._column(call.lineno, call.col_offset),
            lone_argument=len(call.args) + len(call.keywords) == 1,
        )
        self.findings.append(finding)

    def _column(self, line: int, utf8_offset: int) -> int:
        """The 1-based column, in characters, of a place the tree gives in UTF-8 bytes
        (``col_offset``), when the text of the tree is known (else in bytes)."""
        if self._tree_text is None:
            return utf8_offset + 1
        if self._tree_ascii is None:  # (asked once per text: a file may have many findings)
            self._tree_ascii = self._tree_text.isascii()
        if self._tree_ascii:
            return utf8_offset + 1
        if self._tree_lines is None:
            self._tree_lines = python_lines(self._tree_text)
        if not 0 < line <= len(self._tree_lines):
            return utf8_offset + 1
        before = self._tree_lines[line - 1].encode()[:utf8_offset]
        return len(before.decode(errors="replace")) + 1


def as_written(
    findings: list[Finding], tree_text: str, written: str, line_offset: int = 0
) -> list[Finding]:
    """``findings`` of a tree parsed from ``tree_text``, the i-string rewrite of ``written``
    (the lines of a cell or file start at ``line_offset``), with their columns where the same
    text stands in ``written``: on a line with an i-literal before the finding, the rewrite's
    call is longer or shorter than the literal.  A column whose text is not found once in the
    line as written is left as it was."""
    if tree_text == written:
        return findings
    tree_lines, lines = python_lines(tree_text), python_lines(written)
    moved = []
    for finding in findings:
        index = finding.line - line_offset - 1
        if finding.end_line == finding.line and 0 <= index < min(len(tree_lines), len(lines)):
            line, as_written = tree_lines[index], lines[index]
            literal = line[finding.column - 1 : finding.end_column - 1]
            if line != as_written and literal and as_written.count(literal) == 1:
                shift = as_written.index(literal) - finding.column + 1
                call = line[finding.call_column - 1 : finding.column - 1]
                call_start = finding.call_column - 1 + shift
                call_moves = as_written[call_start : call_start + len(call)] == call
                finding = replace(
                    finding,
                    column=finding.column + shift,
                    end_column=finding.end_column + shift,
                    call_column=finding.call_column + shift if call_moves else finding.call_column,
                )
        moved.append(finding)
    return moved


# What a function read so far has returned when it has returned nothing yet.
_NOTHING_RETURNED = Formatted(None, "")


class _Missing:
    """No value before: the name was not bound."""


_MISSING = _Missing()
_PUT_ASIDE_TYPES = (
    ast.Assign, ast.Expr, ast.FunctionDef, ast.AsyncFunctionDef, ast.Call, ast.Attribute, ast.Name
)  # fmt: skip
_Function = ast.FunctionDef | ast.AsyncFunctionDef


def bound_names(statements: Iterable[ast.stmt]) -> set[str]:
    """The names module-level ``statements`` bind (assignments, imports, definitions...)."""
    return {name for statement in statements for name in _bound_names(statement)}


def _bound_names(statement: ast.stmt) -> Iterator[str]:
    """The names a module-level statement binds (or changes: ``parts.append(...)``)."""
    if isinstance(statement, ast.Expr):
        call = statement.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name)
        ):
            yield call.func.value.id
        return
    targets: list[ast.expr]
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, (ast.AnnAssign, ast.AugAssign)):
        targets = [statement.target]
    else:  # compound statements, and the rest: every name stored anywhere in them
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                yield node.id
        return
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id
        else:
            for node in ast.walk(target):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    yield node.id


# (what a Django command's `**options` is made by, for _Scope.made_by)
_COMMAND_OPTIONS = "django BaseCommand.handle(**options)"
_PARSE_METHODS = frozenset({"parse_args", "parse_known_args", "parse_intermixed_args"})
# The words on the lines of what _note_choices notes: `choices=` and the parse methods.
_ARGPARSE_WORDS = re.compile(r"choices|parse_")
_PLAIN_TYPES = frozenset({"str", "int", "float", "str.lower", "str.upper", "str.strip"})


def _choices_destination(call: ast.Call) -> str | None:
    """The attribute ``parse_args()`` sets for an ``add_argument(...)`` call whose
    ``choices`` is a literal list, tuple or set of constants (argparse's own rule: ``dest=``,
    else the first long option, else the first option or the positional name, ``-`` made
    ``_``); None for any other call."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    choices = keywords.get("choices")
    if not (
        isinstance(choices, (ast.List, ast.Tuple, ast.Set))
        and choices.elts
        and all(isinstance(e, ast.Constant) for e in choices.elts)
        and None not in keywords  # (`**options` may set `dest`, or `type`)
        # (argparse compares the value `type=` made with the choices: a type of the user's
        # could make one that equals a choice and prints otherwise)
        and ast.unparse(keywords.get("type", ast.Name("str"))) in _PLAIN_TYPES
    ):
        return None
    destination = keywords.get("dest")
    if destination is not None:
        named = destination.value if isinstance(destination, ast.Constant) else None
        return named if isinstance(named, str) else None
    names = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not names or len(names) != len(call.args):
        return None
    long = [n for n in names if n.startswith("--")]
    chosen = long[0] if long else names[0]
    return chosen.lstrip("-").replace("-", "_") or None


# What Analysis.names_now copies: the module's names read, put aside, and their makers.
_Names = tuple[
    dict[str, "Formatted | None"],
    dict[str, "tuple[list[ast.stmt], Formatted | _Missing | None]"],
    dict[str, str],
]


@dataclass(slots=True)
class _Written:
    """A formatted text written to a file (:meth:`Analysis._note_write`), where it was."""

    text: ast.expr
    value: Formatted
    line_offset: int
    cell: int | None
    column: int
    end_column: int
    call: str
    call_column: int


# What runs a script file given as a word after it: shells, and batch schedulers (whose job
# scripts a shell runs); the words that run the next word as a command.
_SCRIPT_RUNNERS = frozenset(
    {"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "source", ".", "sbatch",
     "qsub", "bsub", "srun"}
)  # fmt: skip
_COMMAND_PREFIXES = frozenset(
    {"sudo", "nohup", "env", "nice", "time", "exec", "command", "timeout", "stdbuf", "setsid"}
)  # fmt: skip
_PATH_WRAPPERS = frozenset(
    {"str", "os.fspath", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath",
     "os.path.abspath", "os.path.realpath", "os.path.normpath"}
)  # fmt: skip
# (The sink of a written script's finding: no automatic fix, see Finding.message.)
_SCRIPT_SINK = Sink("<a script file a shell runs>", "shell")
# Shell operators that end a command (`chmod +x job.sh && ./job.sh`).
_COMMAND_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", ";;", "|&", "(", ")"})


def _opened_for_writing(call: ast.Call) -> ast.expr | None:
    """The path ``call`` opens for writing: ``open(path, "w")`` (``"a"``, ``"x"``, ``"+"``)
    or ``path.open("w")``; None for any other call."""
    func = call.func
    if type(func) is ast.Name and func.id == "open" and call.args:
        path, mode = call.args[0], _argument(call, 1, ("mode",))
    elif type(func) is ast.Attribute and func.attr == "open":
        path, mode = func.value, _argument(call, 0, ("mode",))
    else:
        return None
    return path if _writing_mode(mode) else None


# The methods that quote an identifier (see Analysis._quotes_identifier).
_QUOTING_METHODS = frozenset({"quote", "quote_identifier", "as_string"})


def _as_text(node: ast.expr) -> ast.expr:
    """``q`` of ``text(q)``, ``str(q)``, ``dedent(q)`` (a query passed on as its text)."""
    while (
        type(node) is ast.Call
        and len(node.args) == 1
        and not node.keywords
        and _dotted(node.func).rpartition(".")[2] in ("text", "str", "dedent")
    ):
        node = node.args[0]
    return node


def _quoting_field(node: ast.JoinedStr) -> bool:
    """Whether a field of the f-string ``node`` calls a method that may quote an identifier
    (``{preparer.quote(t)}``): only then may a name bound to it hold a quoted query."""
    for part in node.values:
        value = part.value if type(part) is ast.FormattedValue else None
        if type(value) is ast.Call and _may_quote(value):
            return True
    return False


def _may_quote(node: ast.expr | None) -> bool:
    """Whether ``node`` calls a method or function that may quote an identifier (by its
    name alone: :meth:`Analysis._quotes_identifier` decides)."""
    if type(node) is not ast.Call:
        return False
    func = node.func
    if type(func) is ast.Attribute:
        return func.attr in _QUOTING_METHODS or func.attr == "quote_ident"
    return type(func) is ast.Name and func.id == "quote_ident"


def _only_bound_by(
    tree: ast.Module, name: str, binding: ast.expr, quoting: Callable[[ast.expr], bool]
) -> bool:
    """Whether ``binding`` is in ``tree`` and each binding of ``name`` in ``tree`` is a
    plain ``name = <call>`` whose call ``quoting`` accepts (no parameter, loop variable,
    import, ``with ... as``, augmented or unpacking assignment of it)."""
    seen = False
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if type(node) is ast.Assign and len(node.targets) == 1:
            target = node.targets[0]
            if type(target) is ast.Name and target.id == name and quoting(node.value):
                allowed.add(id(target))
                seen = seen or node.value is binding
    if not seen:
        return False
    for node in ast.walk(tree):
        if type(node) is ast.Name:
            if node.id == name and type(node.ctx) is not ast.Load and id(node) not in allowed:
                return False
        elif type(node) in _NAMES_BINDING:
            if name in node.names:  # type: ignore[attr-defined]
                return False
        elif name in (getattr(node, attribute, None) for attribute in _BINDING_ATTRIBUTES):
            return False  # a parameter, `import name`, `def name`, `except E as name`, `case name`
    return True


_NAMES_BINDING = (ast.Global, ast.Nonlocal)
# (arg; alias; FunctionDef, ClassDef, ExceptHandler, MatchAs, MatchStar; MatchMapping)
_BINDING_ATTRIBUTES = ("arg", "asname", "name", "rest")


def _writing_mode(mode: ast.expr | None, default: str = "r") -> bool:
    """Whether the file mode ``mode`` (a call's argument; ``default`` when not given) opens
    a file for writing: ``"w"``, ``"a"``, ``"x"`` or ``"+"``."""
    if mode is None:
        return bool(set("wax+") & set(default))
    return type(mode) is ast.Constant and isinstance(mode.value, str) and bool(
        set("wax+") & set(mode.value)
    )


def _sql_dialects() -> tuple[Any, ...]:
    """Every reading of SQL text the ``sql`` renderer knows (each database's lexer)."""
    from .._sql_tokens import DIALECTS, dialects

    return tuple(d for name in DIALECTS for d in dialects(name, "qmark"))


def _writes_at(source: str, calls: list[int] | None) -> bool:
    """Whether one of the calls at ``calls`` (offsets in ``source``) writes to a file."""
    return any(_WRITING_CALL.match(source, at) for at in calls or ())


# (`print(` too: a cell's print calls are among its calls when it passes `file=`, see
# cell._with_prints_to_files; hence "file" in the source is asked before)
_WRITING_CALL = re.compile(rf"\.\s*(?:{'|'.join(sorted(WRITING_METHODS))})\s*\(|print\s*\(")


def _path_text(text: str) -> str:
    """A path's text as written to compare it: ``./job.sh`` is ``job.sh``."""
    while text.startswith("./"):
        text = text[2:].lstrip("/")
    return text


def _command_words(command: str) -> list[list[ast.expr | str]]:
    """The simple commands of a constant command line, as words (none if it does not
    split: an unclosed quote)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:
        return []
    commands: list[list[ast.expr | str]] = [[]]
    for word in words:
        if word in _COMMAND_SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(word)
    return [c for c in commands if c]


def _formatted_command_words(node: ast.JoinedStr) -> list[list[ast.expr | str]]:
    """The simple commands of a command line an f-string makes, as words: a field that is a
    word alone (``{f.name}``, ``"{f.name}"``) is that word (its expression); any other word
    is its text (a field's part of it not known)."""
    fields: dict[str, ast.expr] = {}
    text = []
    for part in node.values:
        if type(part) is ast.Constant:
            text.append(str(part.value))
        elif type(part) is ast.FormattedValue and part.conversion == -1 and not part.format_spec:
            marker = f"\0{len(fields)}\0"
            fields[marker] = part.value
            text.append(marker)
        else:
            text.append("\0?\0")
    return [
        [fields.get(word, word) if isinstance(word, str) else word for word in words]
        for words in _command_words("".join(text))
    ]


def _script_words(
    words: list[ast.expr | str], text: Callable[[ast.expr | str], str | None]
) -> list[ast.expr | str]:
    """The words of a command that may be a script it runs: those after a shell or a batch
    scheduler (``bash job.sh``, ``sbatch job.sh``), or the command's own name (``./job.sh``).
    ``text``: a word's constant text, if known."""
    index = 0
    while index < len(words):
        program = text(words[index])
        if program is None or program.rpartition("/")[2] not in _COMMAND_PREFIXES:
            break
        index += 1
        while index < len(words) and (text(words[index]) or "").startswith("-"):
            index += 1  # (`sudo -u x`, `nice -n 5`: their options; `timeout 10` is ignored)
    if index == len(words):
        return []
    program = text(words[index])
    if program is not None and program.rpartition("/")[2] in _SCRIPT_RUNNERS:
        return words[index + 1 :]
    return [words[index]]


def _django_meta_name(node: ast.Attribute) -> bool:
    """Whether ``node`` is a name a Django model's options give: ``X._meta.db_table``,
    ``X._meta.pk.column``, ``X._meta.get_field(...).column``."""
    owner = node.value
    if type(owner) is ast.Attribute and owner.attr == "pk":
        owner = owner.value
    elif (
        type(owner) is ast.Call
        and type(owner.func) is ast.Attribute
        and owner.func.attr == "get_field"
    ):
        owner = owner.func.value
    return type(owner) is ast.Attribute and owner.attr == "_meta"


def _nearest_function(scope: _Scope) -> _Scope:
    """Methods do not see their class's names: skip class scopes."""
    while scope.is_class and scope.parent is not None:
        scope = scope.parent
    return scope


def _is_number(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float))


def _constant_value(value: Formatted | None, node: ast.expr) -> bool:
    """A known constant: a constant string, or a number/None/bool literal."""
    if value is not None:
        return value.constant
    return isinstance(node, ast.Constant)


def _is_formatting_call(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr in (
        "format",
        "join",
        "format_map",
    )


def _argument(call: ast.Call, position: int, keywords: tuple[str, ...]) -> ast.expr | None:
    if position == 0 and call.args and isinstance(call.args[0], ast.Starred):
        for k in call.keywords:
            if k.arg is not None and k.arg in keywords:
                return k.value
        return call.args[0]  # the query of `execute(*(query, params))`
    if len(call.args) > position and not any(
        isinstance(a, ast.Starred) for a in call.args[: position + 1]
    ):
        return call.args[position]
    for k in call.keywords:
        if k.arg is not None and k.arg in keywords:
            return k.value
    return None


def _keyword_true(call: ast.Call, name: str) -> bool:
    """Whether ``call`` may set the keyword ``name`` true: to anything but a false constant
    (``shell=use_shell``, ``shell=os.name == "nt"``: the command may reach a shell)."""
    return any(
        k.arg == name and not (isinstance(k.value, ast.Constant) and not k.value.value)
        for k in call.keywords
    )


def _dict_true_keys(node: ast.expr) -> frozenset[str]:
    """The keys a dict display or ``dict(...)`` call sets to a true constant
    (``{"shell": True}``, ``dict(shell=True, text=True)``)."""
    if isinstance(node, ast.Dict):
        pairs = [
            (k.value if isinstance(k, ast.Constant) else None, v)
            for k, v in zip(node.keys, node.values, strict=True)
        ]
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        pairs = [(k.arg, k.value) for k in node.keywords]
    else:
        return frozenset()
    return frozenset(
        key
        for key, value in pairs
        if isinstance(key, str) and isinstance(value, ast.Constant) and bool(value.value)
    )


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "cmd", "powershell", "pwsh"})


def _shell_c_argument(argv: ast.List | ast.Tuple) -> ast.expr | None:
    """In ``["bash", "-c", CODE]``, the CODE (else as :func:`_argv_shell_code` finds it)."""
    elements = argv.elts
    if len(elements) < 3:
        return _argv_shell_code(elements)
    program, flag = elements[0], elements[1]
    if not (isinstance(program, ast.Constant) and isinstance(program.value, str)):
        return None
    if program.value.rsplit("/", 1)[-1] not in _SHELLS:
        return _argv_shell_code(elements)
    if not (isinstance(flag, ast.Constant) and isinstance(flag.value, str)):
        return _argv_shell_code(elements)
    option = flag.value
    return (
        elements[2]
        if (option.startswith("-") and option.endswith("c")) or option == "/c"
        else _argv_shell_code(elements)
    )


_SINKS_MEMO_KEPT = 1024  # the called names whose possible sinks are remembered


@functools.lru_cache(maxsize=256)
def _plain_program(word: str) -> bool:
    """Whether an argument list whose first word is ``word`` surely holds no shell code (as
    :func:`_shell_c_argument` finds it): ``word`` names no shell, nor a program that runs
    one of its words as shell code (``ls``, not ``bash``, ``ssh`` or ``sudo``)."""
    return (
        word.rsplit("/", 1)[-1] not in _SHELLS
        and _shell_programs.program(word) not in _shell_programs.SHELL_CODE_PROGRAMS
    )


def _argv_shell_code(elements: list[ast.expr]) -> ast.expr | None:
    """The first word of an argument list that is not a constant and that a shell parses as
    code once the programs run it, as ``_shell_programs.code_argument`` follows them: ssh's
    remote command (``["ssh", host, CODE]``), a shell's ``-c`` string after runners
    (``["sudo", "sh", "-c", CODE]``, ``["docker", "exec", c, "sh", "-c", CODE]``)."""
    first = elements[0] if elements else None
    if not (
        isinstance(first, ast.Constant)
        and isinstance(first.value, str)
        and _shell_programs.program(first.value) in _shell_programs.SHELL_CODE_PROGRAMS
    ):
        return None  # (the usual list: a program that runs no shell code)
    words: list[str | None] = []
    for element in elements:
        if isinstance(element, ast.Starred):
            return None  # the places of the words after it are unknown
        if isinstance(element, ast.Constant) and isinstance(element.value, str):
            words.append(element.value)
            continue
        code = _shell_programs.code_argument(
            [*words, None], _static_prefix(element), shells_only=True
        )
        if code is not None:
            return element
        words.append(None)
    return None


def _static_prefix(node: ast.expr) -> str:
    """The text of a word before its first value (``--eval=`` of ``f"--eval={x}"``)."""
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return ""


def _lookup(name: str, method: str) -> list[Sink]:
    """The sinks a call of ``name`` may be: by its full name, by the class that made its
    object (``PostgresHook().run`` for ``airflow....postgres.PostgresHook().run``), or by
    its method name alone (``.execute``)."""
    found = sinks.lookup(name)
    if not found and "()." in name:
        made, _, rest = name.rpartition("().")
        found = sinks.lookup(made.rpartition(".")[2] + "()." + rest)
    if not found and method:
        found = sinks.lookup(method)
    return found


def _own_sink(sink: Sink, name: str, argument: int, keywords: tuple[str, ...]) -> Sink:
    """``sink`` as a helper ``name`` of the user's makes it: the command is the helper's
    parameter, and the helper's call needs nothing more (no ``shell=True``, no fix)."""
    return replace(
        sink, name=name, argument=argument, keywords=keywords, shell_keyword=None,
        shell_argv=False, fix="", magic_names=(), ipython_expands=False,
    )  # fmt: skip


def _keyword_passed_on(
    node: ast.expr | None, kwargs: ast.arg | None, body: list[ast.AST]
) -> str | None:
    """The keyword ``node`` takes from a function's ``**kwargs`` as its caller gave it
    (``kwargs["command"]``, ``kwargs.get("command", ...)``): ``"command"``, unless ``body``
    (the function's nodes) changes ``kwargs`` (an item set or deleted, a method that does)."""
    if kwargs is None or node is None:
        return None
    if isinstance(node, ast.Subscript):
        owner, key = node.value, node.slice
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "pop")
        and node.args
    ):
        owner, key = node.func.value, node.args[0]
    else:
        return None
    if not (
        isinstance(owner, ast.Name)
        and owner.id == kwargs.arg
        and isinstance(key, ast.Constant)
        and isinstance(key.value, str)
    ):
        return None
    for other in body:  # `kwargs["command"] = ...`, `kwargs.update(...)`: not the caller's
        changes = (
            isinstance(other, ast.Subscript) and not isinstance(other.ctx, ast.Load)
        ) or (isinstance(other, ast.Attribute) and other.attr in _CHANGING_METHODS)
        target = getattr(other, "value", None)
        if changes and isinstance(target, ast.Name) and target.id == kwargs.arg:
            return None
    return key.value


# The methods of a dict that change its items.
_CHANGING_METHODS = frozenset({"update", "setdefault", "__setitem__", "__delitem__", "clear"})


def _items_call(node: ast.expr | None) -> bool:
    """Whether ``node`` is ``container.items()``: pairs of a key and what it holds."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "items"
        and not node.args
    )


def _calls_name(node: ast.expr | None, name: str) -> bool:
    """Whether ``node`` is a call of the name ``name``."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name


def _unwrapped(node: ast.expr | None) -> ast.expr | None:
    """``cmd`` of ``text(cmd)``, ``cmd.strip()``, ``textwrap.dedent(cmd)``, ``" ".join(cmd)``..."""
    while isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _KEEP_METHODS and isinstance(func, ast.Attribute) and not node.args:
            node = func.value
        elif (name in _WRAPPERS and node.args) or _joins_words(node):
            node = node.args[0]
        else:
            break
    return node


def _joins_words(node: ast.Call) -> bool:
    """``" ".join(words)``: the words, joined into a command as they are."""
    func = node.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "join"
        and isinstance(func.value, ast.Constant)
        and len(node.args) == 1
    )


def _code_argument(call: ast.Call, sink: Sink, argument: ast.expr | None) -> ast.expr | None:
    """What ``call`` passes as code to ``sink``, a program run without a shell (``split``,
    or ``shell_argv`` without a ``shell_keyword``), ``argument`` being what it passes in the
    command's place: the CODE of ``["sh", "-c", CODE]`` or ``spawn("bash", ["-c", CODE])``;
    else a command line (not a program's path, for a ``sink.argv0``)."""
    if sink.split:
        if isinstance(argument, (ast.List, ast.Tuple)):
            return _shell_c_argument(argument)
        return argument  # (a string: judged by its words, see _splits_into_shell_code)
    if sink.program:  # `sh.bash("-c", CODE)`: the words after the program
        if any(isinstance(a, ast.Starred) for a in call.args):
            return None  # (the places of the words are unknown)
        return _shell_c_argument(ast.List(elts=[ast.Constant(sink.program), *call.args]))
    code = _program_c_argument(call, argument, sink)
    return code if code is not None or sink.argv0 else argument


def _splits_into_shell_code(command: str) -> bool:
    """Whether the written text of a command line that is split into words (as
    ``shlex.split`` does) and run without a shell gives a shell code: ``sh -c '...'``, or
    such after a runner (``sudo sh -c``, ``ssh host ...``)."""
    try:
        words: list[str | None] = list(shlex.split(command))
    except ValueError:  # (an unbalanced quote: the words are unknown)
        words = list(command.split())
    # (A shell's code comes after a few words, runners and options; each place is judged
    # from the words before it: the first ones only, so a long command line costs no more.)
    return any(
        _shell_programs.code_argument([*words[:end], None], shells_only=True) is not None
        for end in range(1, min(len(words), _COMMAND_WORDS))
    )


_COMMAND_WORDS = 32


def _program_c_argument(call: ast.Call, program: ast.expr | None, sink: Sink) -> ast.expr | None:
    """The CODE of a call naming a shell and passing ``-c CODE`` after it: in a list
    (``spawn("bash", ["-c", CODE])``) or as further positional arguments (after the
    program's own name, for a ``sink.argv0``: ``execl("/bin/sh", "sh", "-c", CODE)``)."""
    if program is None or not isinstance(program, ast.Constant):
        return None
    after = sink.argument + 1
    rest = _argument(call, after, ("args", "argv"))
    elements = list(rest.elts) if isinstance(rest, (ast.List, ast.Tuple)) else call.args[after:]
    if sink.argv0:
        elements = elements[1:]
    return _shell_c_argument(ast.List(elts=[program, *elements], ctx=ast.Load()))


# A regex that can only match letters, digits, `_`, `-` and `.` (a validated name, a
# version: `v\d+\.\d+\.\d+`), none of them code to a shell or SQL.
# The standard library's modules, but sqlite3: a name imported from one of these is a module, a
# function or a class whose sinks the table names in full (its connections have `.execute`).
_STANDARD_MODULES = frozenset(sys.stdlib_module_names) - {"sqlite3"}
# str methods true only of a string of letters, digits or `_` (at least one): what
# `re.fullmatch(r"\w+", name)` lets through, or less.
_WORD_PREDICATES = frozenset({"isidentifier", "isalnum", "isalpha", "isdigit", "isdecimal"})
_PLAIN_PATTERN = re.compile(
    r"""\^?
    (?: \[ (?: [A-Za-z0-9_.] | \\w | \\d | \\\.                                 # a class
            | (?<=[a-z])-(?=[a-z]) | (?<=[A-Z])-(?=[A-Z]) | (?<=[0-9])-(?=[0-9]) )+ \]
      | \\w | \\d | [A-Za-z0-9_] | \\\.                                       # one of them
      | [+*?] | \{\d+(?:,\d*)?\}                                                 # repeats
    )+
    (?:\$|\\Z)?""",
    re.VERBOSE,
)
# A pattern of _PLAIN_PATTERN's with `-` too (a class's first or last, or escaped), but not
# in its first item, which must match once at least: `[a-z][a-z0-9-]*`, `\w[\w.-]{0,40}`.
_SHELL_WORD_PATTERN = re.compile(
    r"""\^?
    (?: \[ (?: [A-Za-z0-9_.] | \\w | \\d | \\\.
            | (?<=[a-z])-(?=[a-z]) | (?<=[A-Z])-(?=[A-Z]) | (?<=[0-9])-(?=[0-9]) )+ \]
      | \\w | \\d | [A-Za-z0-9_] | \\\. )
    (?: \+ | \{[1-9]\d*(?:,\d*)?\} )? (?! [*?] | \{0 )           # the first item: once at least
    (?: \[ (?: [A-Za-z0-9_.] | \\w | \\d | \\\. | \\-
            | (?<=[a-z])-(?=[a-z]) | (?<=[A-Z])-(?=[A-Z]) | (?<=[0-9])-(?=[0-9])
            | (?<=\[)- | -(?=\]) )+ \]
      | \\w | \\d | [A-Za-z0-9_] | \\\. | \\?-
      | [+*?] | \{\d+(?:,\d*)?\}
    )*
    (?:\$|\\Z)?""",
    re.VERBOSE,
)
# What a query reads from (`FROM x`, `JOIN y`; a comma after it: more tables), and the
# catalogue tables of table and column names (SQLite, the SQL standard's information_schema,
# PostgreSQL's, DuckDB's).
_QUERY_SOURCES = re.compile(r"\b(?:from|join)\s+([\w.\"]+(?:\(\))?)(\s*,)?", re.IGNORECASE)
_CATALOGUE = re.compile(
    r"""(?:main\.|temp\.)?(?:sqlite_master|sqlite_schema|sqlite_temp_master)
      | information_schema\.(?:tables|columns|schemata|views)
      | (?:pg_catalog\.)?(?:pg_tables|pg_views|pg_matviews|pg_class|pg_namespace|pg_indexes)
      | duckdb_(?:tables|columns|views|schemas)\(\)""",
    re.IGNORECASE | re.VERBOSE,
)
# A module-level constant by convention (`DATA_DIR`), imported from configuration.
_CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*\Z")


def _leading_raising_checks(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.If]:
    """The ``if`` statements a function starts with (after its docstring) whose body
    raises or exits (not returns: the caller goes on then)."""
    body = node.body
    if body and type(body[0]) is ast.Expr and type(body[0].value) is ast.Constant:
        body = body[1:]
    checks: list[ast.If] = []
    for statement in body:  # (an `if` that returns first: the next ones may not run)
        if type(statement) is not ast.If or type(statement.body[-1]) is ast.Return:
            break
        if not _leaves(statement.body):
            break
        checks.append(statement)
    return checks


def _leaves(body: list[ast.stmt]) -> bool:
    """Whether a block always leaves: it ends in raise, return, continue, break, or a call
    such as ``abort(400)`` or ``sys.exit()``."""
    last = body[-1]
    return isinstance(last, (ast.Raise, ast.Return, ast.Continue, ast.Break)) or (
        isinstance(last, ast.Expr) and isinstance(last.value, ast.Call)
        and _dotted(last.value.func).rpartition(".")[2] in ("abort", "exit", "fail")
    )  # fmt: skip


_DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "dataclass"})


def _fields_changed(tree: ast.Module, class_name: str) -> set[str] | None:
    """The attributes ``tree`` assigns or deletes (``obj.table = x``); None (any of them)
    when it calls ``setattr`` or subclasses ``class_name``."""
    changed: set[str] = set()
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Attribute and type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
            changed.add(node.attr)  # type: ignore[attr-defined]
        elif (kind is ast.Call and "setattr" in _dotted(node.func)) or (  # type: ignore[attr-defined]
            kind is ast.ClassDef
            and any(
                _dotted(base).rpartition(".")[2] == class_name
                for base in node.bases  # type: ignore[attr-defined]
            )
        ):
            return None
    return changed


# psycopg's composable parts, which its SQL.format() quotes (or, for SQL, keeps as code).
_COMPOSED_PARTS = frozenset({"Identifier", "Literal", "Placeholder", "SQL", "Composed"})
# Base classes that make an Enum (their members' values are constants).
_ENUMS = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})
# The same call under another name (`from IPython import get_ipython`).
_SAME_CALLS = {
    "IPython.get_ipython()": "get_ipython()",
    "IPython.core.getipython.get_ipython()": "get_ipython()",
}
# Decorators of fabric and invoke tasks, whose first parameter runs shell commands.
_TASK_DECORATORS = frozenset(
    {"fabric.task", "invoke.task", "fabric.tasks.task", "invoke.tasks.task"}
)


def _decorators(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.expr]:
    """The decorators' callables (``task`` of ``@task`` and of ``@task(hosts=...)``)."""
    for decorator in node.decorator_list:
        yield decorator.func if isinstance(decorator, ast.Call) else decorator


_JINJA_FIELD = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
# IPython expands `$name` and `$name.attr` (not `$$`) outside single quotes, and `{expr}`.
_DOLLAR = re.compile(r"(?<!\$)\$([A-Za-z_][\w.]*)")


def _ipython_expansions(command: str, jinja: bool = False) -> Iterator[str]:
    """The expressions IPython's ``var_expand`` evaluates in a ``!`` command (and, with
    ``jinja``, the ``{{name}}`` that jupysql substitutes)."""
    if jinja:
        yield from _JINJA_FIELD.findall(command)
    unquoted = re.sub(r"'[^']*'", "''", command)
    for match in _DOLLAR.finditer(unquoted):
        yield match.group(1).rstrip(".")
    try:
        fields = [name for _, name, _, _ in string.Formatter().parse(command) if name]
    except ValueError:
        return  # IPython leaves a command it cannot parse as written
    yield from fields


def _python_call_at(
    statement: ast.AST, line: int, column: int
) -> tuple[ast.Call, list[ast.FunctionDef | ast.AsyncFunctionDef]] | None:
    """The call whose function's name is at ``line``/``column`` (where the text search
    found ``.execute(`` or ``os.system(``) in ``statement`` (or an expression), and the
    functions around it, outermost first: found by going down the nodes that span that
    place, not by a walk."""
    position = (line, column)
    todo: list[tuple[ast.AST, list[ast.FunctionDef | ast.AsyncFunctionDef]]] = [(statement, [])]
    while todo:
        node, functions = todo.pop()
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            functions = [*functions, node]  # type: ignore[list-item]
        elif kind is ast.Call and _spans_place(node.func, position):  # type: ignore[attr-defined]
            # `cur.execute(` is found at its dot, `os.system(` at `os`: the call is the one
            # whose function's dotted name spans the place, not a call inside it.
            inner = node.func  # type: ignore[attr-defined]
            while isinstance(inner, ast.Attribute):
                inner = inner.value
            if isinstance(inner, ast.Name) or not _spans_place(inner, position):
                return node, functions  # type: ignore[return-value]
        for child in _child_nodes(node):
            # (Nodes without a place, such as a comprehension's `for` part, may span it.)
            end = getattr(child, "end_lineno", None)
            if end is None or (
                (child.lineno, child.col_offset)  # type: ignore[attr-defined]
                <= position
                < (end, child.end_col_offset)  # type: ignore[attr-defined]
            ):
                todo.append((child, functions))
    return None


def _spans_place(node: ast.AST, position: tuple[int, int]) -> bool:
    start = (node.lineno, node.col_offset)  # type: ignore[attr-defined]
    end = (node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]
    return start <= position < end


def _parameters(functions: list[ast.FunctionDef | ast.AsyncFunctionDef]) -> set[str]:
    """The parameters of ``functions`` (nested, outermost first); those that no code in
    them binds again (:func:`_rebound`) have the caller's values, never formatted here."""
    names: set[str] = set()
    for function in functions:
        arguments = function.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        names.update(a.arg for a in every)
    return names


def _python_rebound(body: list[ast.stmt]) -> set[str]:
    """The names code in ``body`` binds (assigns, deletes, imports)."""
    found: set[str] = set()
    todo: list[ast.AST] = list(body)
    while todo:  # (a walk without a generator: this runs for most cells with a sink)
        node = todo.pop()
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is not ast.Load:  # type: ignore[attr-defined]
                found.add(node.id)  # type: ignore[attr-defined]
        elif kind is ast.alias:
            found.add((node.asname or node.name).partition(".")[0])  # type: ignore[attr-defined]
        else:
            todo.extend(_child_nodes(node))
    return found


# The tree walks of every cell with a sink call, in C when the accelerator is in use (the
# Python versions are the reference: tests/test_speedups.py compares them).
_call_at = _python_call_at if _compiled is None else _compiled.call_at
_rebound = _python_rebound if _compiled is None else _compiled.rebound


def _own_expressions(node: ast.stmt) -> list[ast.expr]:
    """The expressions of a statement itself, not of the statements nested in it."""
    found: list[ast.expr] = []
    for _, value in ast.iter_fields(node):
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.expr):
                found.append(item)
            elif isinstance(item, ast.withitem):
                found.append(item.context_expr)
    return found


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` (but the ``Load``/``Store`` contexts), without recursion
    (deep expressions are fine)."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        todo.extend(_child_nodes(current))


_FUNCTION_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LAMBDA_OR_CALL = (ast.Lambda, ast.Call)
_LINE = operator.attrgetter("lineno")
_NAME_OR_CALL = (ast.Name, ast.Call)
# Per node type, the fields that may hold nodes (ast.iter_child_nodes, without its cost), each
# with whether it is a list that may hold something else too (`None` among a dict's keys and
# among the defaults of keyword-only parameters, the names of `global`).
_NODE_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}
_MIXED_LISTS = {(ast.Dict, "keys"), (ast.arguments, "kw_defaults")}
_MIXED_LISTS |= {(ast.Global, "names"), (ast.Nonlocal, "names")}
_MIXED_LISTS.add((getattr(ast, "MatchClass", ast.Dict), "kwd_attrs"))


def _child_nodes(node: ast.AST) -> list[ast.AST]:
    kind = type(node)
    fields = _NODE_FIELDS.get(kind)
    if fields is None:
        fields = tuple(
            (f, (kind, f) in _MIXED_LISTS)
            for f in kind._fields
            if f != "ctx" and kind is not ast.Constant and kind is not ast.Name
        )
        _NODE_FIELDS[kind] = fields
    children: list[ast.AST] = []
    for name, mixed in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            if mixed:
                children += [item for item in value if isinstance(item, ast.AST)]
            else:  # (every item a node)
                children += value
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


ATTRIBUTE_ASSIGNMENT = re.compile(r"\b(?:self|cls)\.\w+\s*[+]?=[^=]")


def _python_places(source: str, offsets: list[int]) -> list[tuple[int, int]]:
    """The places of ``offsets`` (sorted) in ``source`` as the tree counts them: line, and
    column in UTF-8 bytes."""
    places = []
    for offset, line in zip(offsets, _python_line_numbers(source, offsets, True), strict=True):
        start = source.rfind("\n", 0, offset) + 1
        before = source[start:offset]
        places.append((line, len(before) if before.isascii() else len(before.encode())))
    return places


def _python_line_numbers(source: str, offsets: list[int], every: bool = False) -> list[int]:
    """The line numbers of ``offsets`` (sorted) in ``source``: distinct, or ``every`` one."""
    lines: list[int] = []
    line = 1
    position = 0
    for offset in offsets:
        line += source.count("\n", position, offset)
        position = offset
        if every or not lines or lines[-1] != line:
            lines.append(line)
    return lines


# (In C when the accelerator is in use: every cell with a sink call asks.)
_places = _python_places if _compiled is None else _compiled.places
_line_numbers = _python_line_numbers if _compiled is None else _compiled.line_numbers


def _helper_candidates(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``body`` that may define a helper: functions, and assignments of
    a lambda or of a call (``functools.partial(...)``) to a name."""
    candidates: list[ast.stmt] = []
    for statement in body:
        kind = type(statement)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            candidates.append(statement)
        elif kind is ast.Assign:
            targets = statement.targets  # type: ignore[attr-defined]
            if (
                len(targets) == 1
                and type(targets[0]) is ast.Name
                and type(statement.value) in _LAMBDA_OR_CALL  # type: ignore[attr-defined]
            ):
                candidates.append(statement)
    return candidates


def _python_statements_on(body: list[ast.stmt], lines: list[int]) -> list[int]:
    """The indexes, in order, of the statements of ``body`` that span one of ``lines``
    (sorted): each statement :func:`_spans` says so of, found without asking each."""
    found: set[int] = set()
    for line in lines:
        index = bisect.bisect_right(body, line, key=_LINE) - 1
        # (Statements never overlap: those that reach the line end the run before it.)
        while index >= 0 and (body[index].end_lineno or body[index].lineno) >= line:
            found.add(index)
            index -= 1
    return sorted(found)


def _python_helper_statements(body: list[ast.stmt], lines: list[int]) -> list[ast.stmt]:
    """The statements of ``body`` on ``lines`` (sorted) that may define a helper."""
    return _helper_candidates([body[i] for i in _python_statements_on(body, lines)])


@functools.lru_cache(maxsize=16)
def _called_pattern(calls: tuple[str, ...], commands: tuple[str, ...]) -> re.Pattern[str]:
    # (No look-behind before the names: the regex engine then scans for their first letters
    # at C speed; the characters before a match are checked by _python_called_offsets.)
    alternatives = [rf"(?:{'|'.join(map(re.escape, calls))})\s*\("] if calls else []
    if commands:  # a command's words by subscript too: `sh["-c", CODE]()`
        alternatives.append(rf"(?:{'|'.join(map(re.escape, commands))})\s*[(\[]")
    return re.compile("|".join(alternatives))


def _python_called_offsets(
    source: str, calls: tuple[str, ...], commands: tuple[str, ...]
) -> list[int]:
    """The offsets in ``source`` of the calls ``name(`` of the names ``calls``, and
    ``name(`` or ``name[`` of the names ``commands``: the matches of a regex of those (in
    order: the leftmost, each after the one before), but those after a letter, a digit,
    ``_``, ``.`` or ``def ``."""
    found: list[int] = []
    if not (calls or commands):
        return found
    for match in _called_pattern(calls, commands).finditer(source):
        start = match.start()
        before = source[start - 1] if start else " "
        if not (before.isalnum() or before in "_.") and not source.endswith("def ", 0, start):
            found.append(start)
    return found


def _python_has_text(source: str, text: str) -> bool:
    """``text in source`` (in C: memchr for its first character, cheaper than the str
    search through a text where that character is rare, as the letters asked about are)."""
    return text in source


# (In C when the accelerator is in use: each cell that calls a sink asks, once a helper of
# the user's is known.)
_has_text = _python_has_text if _compiled is None else _compiled.has_text
_statements_on = _python_statements_on if _compiled is None else _compiled.statements_on
_helper_statements = (
    _python_helper_statements if _compiled is None else _compiled.helper_statements
)
_called_offsets = _python_called_offsets if _compiled is None else _compiled.called_offsets


def _spans(lines: list[int], node: ast.stmt) -> bool:
    """Whether one of ``lines`` (sorted) is within ``node``."""
    start = node.lineno
    i = bisect.bisect_left(lines, start)
    return i < len(lines) and lines[i] <= (node.end_lineno or start)
