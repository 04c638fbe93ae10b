"""Safe shell escapes: ``!cmd {x}`` with each expanded value quoted as one shell word.

IPython expands ``{expr}`` and ``$name`` in a ``!`` line (and ``x = !cmd``) by formatting the
values into the command text as they are: ``!cat {name}`` with ``name = "a; rm -rf ~"`` runs
two commands.  With ``c.IStringExtension.safe_shell_escapes = True`` each expansion goes
through ``shlex.quote`` instead, as the ``sh`` renderer quotes an i-string's fields: the value
is one word, whatever it holds.  The command text written in the cell is left alone, so
pipes, redirections and ``$HOME`` (a shell variable, not a Python name) work as before.

It replaces the shell's ``system`` and ``getoutput`` (what ``!`` lines call) for as long as it
is on; IPython's own expansion inside them is skipped, the command being expanded already.
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Iterator
from typing import Any

from IPython.utils.text import DollarFormatter

__all__ = ["SafeShellEscapes"]


class _QuotingFormatter(DollarFormatter):
    """IPython's ``{expr}``/``$name`` expansion, each value one shell word."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return shlex.quote(str(super().format_field(value, format_spec)))


_QUOTING = _QuotingFormatter()


class SafeShellEscapes:
    """Installs quoting expansion for one shell's ``!`` lines; :meth:`uninstall` undoes it."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell

    @property
    def installed(self) -> bool:
        """Whether ``!`` lines in the shell quote their expansions now."""
        return bool(self.shell.__dict__.get("system") == self.system)

    def install(self) -> None:
        """Quote every expansion of the shell's ``!`` lines from now on."""
        self.shell.system = self.system
        self.shell.getoutput = self.getoutput

    def uninstall(self) -> None:
        """Back to IPython's own expansion."""
        for name in ("system", "getoutput"):
            if self.shell.__dict__.get(name) == getattr(self, name):
                delattr(self.shell, name)

    def _expand(self, cmd: str) -> str:
        # Frames: var_expand, this method, system/getoutput, then the code of the `!` line,
        # whose local names the expansion must see, as IPython's own would.
        expanded: str = self.shell.var_expand(cmd, depth=2, formatter=_QUOTING)
        return expanded

    @contextlib.contextmanager
    def _expanded(self) -> Iterator[None]:
        """IPython's own expansion off: the command is expanded (and quoted) already."""
        self.shell.var_expand = lambda cmd, depth=0, formatter=None: cmd
        try:
            yield
        finally:
            del self.shell.var_expand

    def system(self, cmd: str) -> Any:
        """``!cmd``: IPython's ``system`` with each expanded value quoted."""
        expanded = self._expand(cmd)
        with self._expanded():
            return type(self.shell).system(self.shell, expanded)

    def getoutput(self, cmd: str, split: bool = True, depth: int = 0) -> Any:
        """``x = !cmd``: IPython's ``getoutput`` with each expanded value quoted."""
        expanded = self._expand(cmd)
        with self._expanded():
            return type(self.shell).getoutput(self.shell, expanded, split, depth)
