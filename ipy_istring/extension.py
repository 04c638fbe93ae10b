"""The IPython extension: wires the rewrite, the display and the ``%istring`` magic into a shell.

``%load_ext ipy_istring`` calls :func:`load`, which

- appends the rewrite to ``input_transformers_post`` (after IPython's own transforms, so
  ``%%bash`` bodies, ``!cmd`` lines, strings and comments are never touched);
- makes :func:`~ipy_istring.rewrite.build_template` the builtin ``__ipy_istring__`` that
  rewritten code calls (a builtin, so it survives ``%reset`` and works in any namespace);
- makes tracebacks, ``%debug``, ``%pdb`` and ``%tb`` show a rewritten cell as the user wrote
  it (IPython caches the source it compiles under the cell's name in :mod:`linecache`;
  the extension caches the user's text there instead);
- teaches the terminal's "submit or continue" check (``check_complete``, which never runs
  post transformers) to read i-literals as the f-literals they look like;
- registers the ``%istring`` magic, whose traits are the extension's configuration
  (``c.IStringExtension.default_renderer = "sql"`` in ``ipython_config.py``, or ``%config``);
- on Python 3.14, shows native ``string.templatelib.Template`` objects with the same display;
- puts the renderers ``sh``, ``argv``, ``sql`` and ``html`` in the user's namespace (unless
  ``c.IStringExtension.renderers_in_namespace = False``), so ``sh(i"cat {file}")`` works as
  the README writes it.

:func:`unload` undoes each of these.
"""

from __future__ import annotations

import builtins
import contextlib
import linecache
import sys
from collections.abc import Callable
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring
from traitlets import Bool, Int, Unicode, observe

from . import display
from ._lines import python_lines
from .check import CellChecker
from .display_options import reset_options, set_options
from .escapes import SafeShellEscapes
from .registry import renderers
from .rewrite import (
    BUILDER_NAME,
    RewrittenLiteral,
    build_template,
    explain,
    rewrite,
    swap_to_fstrings,
)
from .template import NativeTemplate, from_template

__all__ = ["IStringExtension", "load", "unload"]


@magics_class
class IStringExtension(Magics):
    """The extension's state in one shell: its configuration and the ``%istring`` magic.

    ``%istring``               show the status and configuration
    ``%istring on`` / ``off``  turn the rewrite of i-literals on or off
    ``%istring renderer sql``  choose the renderer the display shows first
    ``%%istring --show``       print how the cell's i-literals are rewritten, without running it
    """

    enabled = Bool(True, help="Rewrite i-literals in every cell.").tag(config=True)
    default_renderer = Unicode(
        "format", help="The renderer whose output the display shows first."
    ).tag(config=True)
    use_widget = Bool(
        True,
        help="In a kernel, display templates as a live widget (static HTML is always included).",
    ).tag(config=True)
    check_cells = Bool(
        True,
        help="Warn when a cell passes a string formatted by an f-string, % or .format() to a "
        "shell or SQL call (os.system(f'...'), cur.execute(f'...')).",
    ).tag(config=True)
    safe_shell_escapes = Bool(
        False,
        help="Render each !cmd line by the sh renderer, its {expr}/$name expansions the fields: "
        "each value one shell word, and a field where quoting is not enough (!sh -c {x}, "
        "!echo {x} | sh) refused before anything runs. Off by default: it changes what "
        "!{cmd} with a whole command line in cmd means; while off, the cell check warns about "
        "each unquoted expansion.",
    ).tag(config=True)
    max_value_chars = Int(
        200, help="Characters of a value's repr shown before it is cut in the display."
    ).tag(config=True)
    renderers_in_namespace = Bool(
        True,
        help="Put the renderers sh, argv, sql and html in the user's namespace on load "
        "(a name the user already defined is left alone).",
    ).tag(config=True)

    def __init__(self, shell: Any, **kwargs: Any) -> None:
        super().__init__(shell=shell, **kwargs)
        #: The renderers :func:`load` put in the user's namespace (removed on unload).
        self.pushed_renderers: list[str] = []
        self._original_check_complete: Callable[[str], Any] | None = None
        self._original_cache: Callable[..., str] | None = None
        self._written = _WrittenCells()
        self.checker = CellChecker(
            known_names=shell.user_ns if shell is not None else {}, written=self._written.get
        )
        if shell is not None:
            self.checker.transform = shell.transform_cell
        self.shell_escapes: SafeShellEscapes | None = None
        self._sync_display_options()

    # configuration

    @observe("check_cells")
    def _on_check_change(self, change: Any) -> None:
        if self._loaded():
            _hook_checker(self.shell, self.checker, on=change["new"])

    @observe("safe_shell_escapes")
    def _on_shell_escapes_change(self, change: Any) -> None:
        if self._loaded():
            _hook_shell_escapes(self, on=change["new"])

    def _loaded(self) -> bool:
        """Whether this is the extension loaded in its shell: an instance made otherwise, or
        one unloaded, still sees ``%config`` but must not hook anything into the shell."""
        return self.shell is not None and _EXTENSIONS.get(id(self.shell)) is self

    @observe("default_renderer", "use_widget", "max_value_chars")
    def _on_display_change(self, change: Any) -> None:
        self._sync_display_options()

    def _sync_display_options(self) -> None:
        set_options(
            default_renderer=self.default_renderer,
            # A widget needs a frontend: only a kernel has one, terminal IPython never does.
            use_widget=self.use_widget and _in_kernel(self.shell),
            max_value_chars=self.max_value_chars,
        )

    # the rewrite, as IPython calls it

    def transform(self, lines: list[str]) -> list[str]:
        """The post input transformer: rewrite the cell's i-literals, keeping its lines."""
        if not self.enabled:
            return lines
        source = "".join(lines)
        try:
            rewritten = rewrite(source, filename=_cell_name(self.shell))
        except SyntaxError:
            raise
        except Exception as error:  # a bug of ours must not lose the user's cell
            raise SyntaxError(
                f"i-string: the rewrite failed ({type(error).__name__}: {error}); "
                "please report this cell at the ipy_istring issue tracker"
            ) from error
        if rewritten is source:
            return lines
        self._written.remember(rewritten, source)
        return rewritten.splitlines(keepends=True)

    def cache(self, transformed_code: str, number: int = 0, raw_code: str | None = None) -> str:
        """IPython's ``shell.compile.cache``, which names a cell and puts the source it runs
        into :mod:`linecache` for tracebacks and debuggers: for a cell the rewrite changed,
        the source put there is the cell as written (same lines, so line numbers hold)."""
        if self._original_cache is None:  # pragma: no cover - load() sets it first
            raise RuntimeError("IStringExtension.cache runs only once the extension is loaded")
        name = self._original_cache(transformed_code, number, raw_code)
        self.checker.named(name, transformed_code if raw_code is None else raw_code)
        written = self._written.get(transformed_code)
        if written is not None:
            lines = [line + "\n" for line in python_lines(written)]
            linecache.cache[name] = (len(written), None, lines, name)
        return name

    def check_complete(self, cell: str) -> Any:
        """The terminal's check, made to see i-literals as the f-literals they look like."""
        if self._original_check_complete is None:  # pragma: no cover - load() sets it first
            return ("invalid", None)
        if self.enabled:
            # The check must answer whatever the input: on any failure keep the cell as is.
            with contextlib.suppress(Exception):
                cell = swap_to_fstrings(cell)
        return self._original_check_complete(cell)

    # the magic

    @magic_arguments()
    @argument("action", nargs="?", help="on | off | renderer")
    @argument("name", nargs="?", help="with 'renderer': the renderer's name")
    @argument("--show", action="store_true", help="cell magic: print the rewritten cell")
    @line_cell_magic
    def istring(self, line: str, cell: str | None = None) -> None:
        """Show or change the i-string extension's state; ``%%istring --show`` shows a
        cell's rewrite."""
        args = parse_argstring(self.istring, line)
        if cell is not None:
            rewritten, literals = explain(cell, filename=_cell_name(self.shell))
            if args.show:
                print(_shown(rewritten, literals))
            elif self.shell is not None:  # run it rewritten, even with the rewrite turned off
                self._written.remember(rewritten, cell)
                self.shell.run_cell(rewritten, store_history=False)
            return
        if args.action in ("on", "off"):
            self.enabled = args.action == "on"
            print(f"i-strings: {args.action}")
        elif args.action == "renderer":
            if not args.name:
                raise UsageError(f"%istring renderer NAME, one of: {', '.join(renderers)}")
            if args.name not in renderers:
                raise UsageError(
                    f"no renderer named {args.name!r}; registered: {', '.join(renderers)}"
                )
            self.default_renderer = args.name
            print(f"default renderer: {args.name}")
        elif args.action is not None:
            raise UsageError(f"unknown action {args.action!r}: use on, off or renderer NAME")
        else:
            print(self.status())

    def status(self) -> str:
        """A short description of the extension's state in this shell."""
        return "\n".join(
            [
                f"i-strings: {'on' if self.enabled else 'off'}",
                f"default renderer: {self.default_renderer}",
                f"renderers: {', '.join(renderers)}",
                f"widget: {'on' if display.options.use_widget else 'off'}",
                f"check cells for f-strings into shells and SQL: "
                f"{'on' if self.check_cells else 'off'}",
                f"quote !cmd expansions: {'on' if self.safe_shell_escapes else 'off'}",
                f"value repr cut at: {self.max_value_chars} characters",
                "renderers in your namespace: "
                + (", ".join(self.pushed_renderers) or "none")
                + ("" if self.renderers_in_namespace else " (renderers_in_namespace is off)"),
            ]
        )


class _WrittenCells:
    """The last few cells the rewrite changed: rewritten text -> text as written."""

    KEEP = 16  # ipykernel may transform a cell twice before running it; a few is plenty

    def __init__(self) -> None:
        self._cells: dict[str, str] = {}

    def remember(self, rewritten: str, written: str) -> None:
        self._cells.pop(rewritten, None)
        self._cells[rewritten] = written
        while len(self._cells) > self.KEEP:
            del self._cells[next(iter(self._cells))]

    def get(self, rewritten: str) -> str | None:
        return self._cells.get(rewritten)


def _shown(rewritten: str, literals: list[RewrittenLiteral]) -> str:
    """What ``%%istring --show`` prints: the rewritten cell, then each i-literal as written,
    its fields and the call that builds its template."""
    out = [rewritten.rstrip("\n"), ""]
    if not literals:
        out.append("(no i-literal in this cell: it runs unchanged)")
    for literal in literals:
        out.append(f"line {literal.line}: {literal.written}")
        for number, (expression, conversion, spec, computed) in enumerate(literal.fields, 1):
            spec_text = f"{spec!r}, computed each time" if computed else repr(spec)
            out.append(
                f"  field {number}: expression {expression!r}, conversion {conversion!r}, "
                f"format spec {spec_text}"
            )
        if not literal.fields:
            out.append("  no fields: the template holds only its text")
        out.append(f"  becomes: {literal.call}")
    out.append(
        f"({BUILDER_NAME}(KEY, ...) builds the template: KEY names the literal's static "
        "strings, expressions, conversions and constant specs, worked out once; the values "
        "of the fields follow, evaluated now, left to right.)"
    )
    return "\n".join(out)


_EXTENSIONS: dict[int, IStringExtension] = {}


def _cell_name(shell: Any) -> str:
    return f"<cell {getattr(shell, 'execution_count', '?')}>"


def load(shell: Any) -> None:
    """Install the extension in ``shell``; doing it twice changes nothing."""
    if id(shell) in _EXTENSIONS:
        return
    extension = IStringExtension(shell)
    _EXTENSIONS[id(shell)] = extension
    shell.register_magics(extension)
    from .sql_magic import load as load_sql_magic  # %%isql: SQL cells that bind their fields

    load_sql_magic(shell)
    shell.input_transformers_post.append(extension.transform)
    _hook_checker(shell, extension.checker, on=extension.check_cells)
    _hook_shell_escapes(extension, on=extension.safe_shell_escapes)
    setattr(builtins, BUILDER_NAME, build_template)

    manager = shell.input_transformer_manager
    extension._original_check_complete = manager.check_complete
    manager.check_complete = extension.check_complete
    extension._original_cache = shell.compile.cache
    shell.compile.cache = extension.cache

    if _in_kernel(shell):
        from .widget import pre_run_cell

        # A cell run again closes the widgets its previous run displayed (no comm leaks).
        shell.events.register("pre_run_cell", pre_run_cell)

    if extension.renderers_in_namespace:
        extension.pushed_renderers = _push_renderers(shell)

    if NativeTemplate is not None:
        formatters = shell.display_formatter
        formatters.formatters["text/html"].for_type(NativeTemplate, _native_html)
        formatters.formatters["text/plain"].for_type(NativeTemplate, _native_pretty)
        formatters.mimebundle_formatter.for_type(NativeTemplate, _native_mimebundle)


def unload(shell: Any) -> None:
    """Remove everything :func:`load` added to ``shell``."""
    extension = _EXTENSIONS.pop(id(shell), None)
    if extension is None:
        return
    if extension.transform in shell.input_transformers_post:
        shell.input_transformers_post.remove(extension.transform)
    _hook_checker(shell, extension.checker, on=False)
    _hook_shell_escapes(extension, on=False)
    manager = shell.input_transformer_manager
    if manager.__dict__.get("check_complete") == extension.check_complete:
        del manager.check_complete
    if shell.compile.__dict__.get("cache") == extension.cache:
        del shell.compile.cache
    if not _EXTENSIONS and getattr(builtins, BUILDER_NAME, None) is build_template:
        delattr(builtins, BUILDER_NAME)
    for kind in ("line", "cell"):
        shell.magics_manager.magics[kind].pop("istring", None)
    shell.magics_manager.registry.pop(type(extension).__name__, None)
    from .sql_magic import unload as unload_sql_magic

    unload_sql_magic(shell)
    # (Magics joined shell.configurables when made with the shell as its parent.)
    shell.configurables[:] = [c for c in shell.configurables if c is not extension]
    if NativeTemplate is not None:
        formatters = shell.display_formatter
        for formatter in (
            formatters.formatters["text/html"],
            formatters.formatters["text/plain"],
            formatters.mimebundle_formatter,
        ):
            formatter.type_printers.pop(NativeTemplate, None)
    _pop_renderers(shell, extension.pushed_renderers)
    # Back to the defaults: nothing of this shell's configuration outlives the extension.
    reset_options()
    if "ipy_istring.widget" in sys.modules:
        from .widget import close_display_widgets, pre_run_cell

        if pre_run_cell in shell.events.callbacks["pre_run_cell"]:
            shell.events.unregister("pre_run_cell", pre_run_cell)
        close_display_widgets()


def _hook_checker(shell: Any, checker: CellChecker, on: bool) -> None:
    """Add or remove the cell check, which reads the tree IPython parses for each cell (not an
    AST transformer: registering one makes IPython fix the locations of every cell's tree)."""
    if on:
        checker.install(shell.compile)
    else:
        checker.uninstall(shell.compile)


def _builtin_renderers() -> dict[str, Any]:
    from .html import html
    from .shell import argv, sh
    from .sql import sql

    return {"sh": sh, "argv": argv, "sql": sql, "html": html}


def _push_renderers(shell: Any) -> list[str]:
    """Put the built-in renderers in the user's namespace where the name is free."""
    free = {
        name: renderer
        for name, renderer in _builtin_renderers().items()
        if name not in shell.user_ns
    }
    shell.push(free, interactive=False)  # interactive=False: %who does not list them
    return list(free)


def _pop_renderers(shell: Any, names: list[str]) -> None:
    """Remove the renderers :func:`_push_renderers` put there, unless the user rebound them."""
    builtin = _builtin_renderers()
    for name in names:
        if name in shell.user_ns and shell.user_ns[name] is builtin[name]:
            del shell.user_ns[name]


def _hook_shell_escapes(extension: IStringExtension, on: bool) -> None:
    """Render ``!`` lines by ``sh``, or stop."""
    extension.checker.escapes_rendered = on
    if on and extension.shell_escapes is None:
        extension.shell_escapes = SafeShellEscapes(extension.shell)
        extension.shell_escapes.install()
    elif not on and extension.shell_escapes is not None:
        extension.shell_escapes.uninstall()
        extension.shell_escapes = None


def _in_kernel(shell: Any) -> bool:
    """Whether a frontend that can show widgets may be attached (terminal IPython: never)."""
    return getattr(shell, "kernel", None) is not None


def _native_html(template: Any) -> str:
    return display.to_html(from_template(template))


def _native_pretty(template: Any, printer: Any, cycle: bool) -> None:
    display.pretty(from_template(template), printer, cycle)


def _native_mimebundle(template: Any) -> Any:
    return display.mimebundle(from_template(template), None, None)
