"""Safe shell escapes: ``!cmd {x}`` rendered by the ``sh`` renderer, each value one word.

IPython expands ``{expr}`` and ``$name`` in a ``!`` line (and ``x = !cmd``) by formatting the
values into the command text as they are: ``!cat {name}`` with ``name = "a; rm -rf ~"`` runs
two commands.  With ``c.IStringExtension.safe_shell_escapes = True`` the line becomes a
template instead: its text is the static text, each expansion a field holding the value as
IPython formats it, and ``sh`` renders it as it renders an i-string.  So each value is one
shell word, *and* a field where quoting is not enough is refused with ``sh``'s reason, before
anything runs: ``!sh -c {x}`` (the shell parses the word again as code), ``!echo {x} | sh``
(the pipe feeds a shell its program), ``!cat "{x}"``, ``!ssh {host} ls`` with a host that
starts with ``-``...  The command text written in the cell is left alone, so pipes,
redirections and ``$HOME`` (a shell variable, not a Python name) work as before.

It replaces the shell's ``system`` and ``getoutput`` (what ``!`` lines call) for as long as it
is on; IPython's own expansion inside them is skipped, the command being rendered already
(a second expansion would evaluate ``{...}`` written *in a value* as Python).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from typing import Any

from IPython.utils.text import DollarFormatter

from .fields import RenderError
from .shell import sh
from .template import Interpolation, InterpolationTemplate

__all__ = ["SafeShellEscapes"]


class _FieldMarkingFormatter(DollarFormatter):
    """IPython's ``{expr}``/``$name`` expansion (its parsing, evaluation, conversion and spec),
    with a marker in the text where each value goes: the text and the values then make a
    template.  (IPython swallows an exception raised while it expands and runs the line
    unexpanded, so nothing here raises: the template is rendered after.)"""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.expressions: list[str] = []
        self.values: list[str] = []

    def parse(self, format_string: str) -> Iterator[tuple[str, str | None, str | None, str | None]]:
        for literal, field, spec, conversion in super().parse(format_string):
            if field is not None:
                self.expressions.append(field)
            yield literal, field, spec, conversion

    def format_field(self, value: Any, format_spec: str) -> str:
        self.values.append(str(super().format_field(value, format_spec)))
        return self.marker


class SafeShellEscapes:
    """Installs ``sh`` rendering for one shell's ``!`` lines; :meth:`uninstall` undoes it."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell

    @property
    def installed(self) -> bool:
        """Whether ``!`` lines in the shell are rendered by ``sh`` now."""
        return bool(self.shell.__dict__.get("system") == self.system)

    def install(self) -> None:
        """Render every ``!`` line by ``sh`` from now on."""
        self.shell.system = self.system
        self.shell.getoutput = self.getoutput

    def uninstall(self) -> None:
        """Back to IPython's own expansion."""
        for name in ("system", "getoutput"):
            if self.shell.__dict__.get(name) == getattr(self, name):
                delattr(self.shell, name)

    def _render(self, cmd: str) -> str:
        """The ``!`` line ``cmd`` rendered by ``sh``: its expansions evaluated as IPython
        evaluates them (in the frame of the line's code), each a field of a template whose
        text is the line's."""
        __tracebackhide__ = True  # (IPython shows the refusal at the user's line)
        marker = f"\0{secrets.token_hex(8)}\0"  # (no command line holds a NUL)
        formatter = _FieldMarkingFormatter(marker)
        # Frames: var_expand, this method, system/getoutput, then the `!` line's code, whose
        # local names the expansion must see, as IPython's own would.
        expanded: str = self.shell.var_expand(cmd, depth=2, formatter=formatter)
        strings = expanded.split(marker)
        if len(strings) != len(formatter.values) + 1:
            return cmd  # IPython could not expand it, and so runs it as written
        if len(strings) == 1:
            return expanded  # no field ({{ and $$ undoubled, as IPython does)
        parts: list[str | Interpolation] = [strings[0]]
        for expression, value, string in zip(
            formatter.expressions, formatter.values, strings[1:], strict=True
        ):
            parts += [Interpolation(value, expression), string]
        try:
            return sh(InterpolationTemplate(*parts))
        except RenderError as error:
            raise error.with_traceback(None) from None  # (sh's frames say nothing here)

    @contextlib.contextmanager
    def _expanded(self) -> Iterator[None]:
        """IPython's own expansion off: the command is rendered already."""
        self.shell.var_expand = lambda cmd, depth=0, formatter=None: cmd
        try:
            yield
        finally:
            del self.shell.var_expand

    def system(self, cmd: str) -> Any:
        """``!cmd``: IPython's ``system`` with the line rendered by ``sh``."""
        __tracebackhide__ = True
        rendered = self._render(cmd)
        with self._expanded():
            return type(self.shell).system(self.shell, rendered)

    def getoutput(self, cmd: str, split: bool = True, depth: int = 0) -> Any:
        """``x = !cmd``: IPython's ``getoutput`` with the line rendered by ``sh``."""
        __tracebackhide__ = True
        rendered = self._render(cmd)
        with self._expanded():
            return type(self.shell).getoutput(self.shell, rendered, split, depth)
