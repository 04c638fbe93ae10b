"""The parameters of a click command that click itself converts to a number or a constant.

``@click.option("--env", type=click.Choice(["dev", "prod"]))`` on a ``@click.command()``
function: click calls the function with one of the choices (or None, left out), having
refused anything else on the command line; ``type=int`` (``float``, ``bool``, ``click.INT``,
``click.IntRange(...)``...) and ``is_flag=True`` give a number or a bool.  Only these, on a
function a click command decorator wraps (so it is called through click's parsing), without
``multiple``, ``nargs`` (a tuple) or a ``callback`` (which may return anything).  The name
click gives the parameter is read as click does: a declaration that is an identifier, else
the longest-prefixed option (``--dry-run`` → ``dry_run``), or an argument's name.
"""

from __future__ import annotations

from collections.abc import Callable

from . import _ast as ast  # (ast's names, read faster: see _ast.py)

__all__ = ["CHOICE", "NUMBER", "click_parameters"]

NUMBER, CHOICE = "number", "choice"
_COMMANDS = frozenset({"click.command", "click.group"})
_PARAMETERS = frozenset({"click.option", "click.argument"})
_NUMBER_TYPES = frozenset(
    {"int", "float", "bool", "click.INT", "click.FLOAT", "click.BOOL", "click.IntRange",
     "click.FloatRange"}
)  # fmt: skip
_CHANGED_BY = frozenset({"multiple", "nargs", "callback"})


def click_parameters(
    decorators: list[ast.expr],
    resolve: Callable[[ast.expr], str],
    constant: Callable[[ast.expr], bool],
) -> dict[str, str]:
    """The parameters the click ``decorators`` of a function convert (by name: ``NUMBER``
    or ``CHOICE``); ``resolve`` gives the imported name a call's function is
    (``"click.option"``), ``constant`` whether an expression is a known constant."""
    calls = [d for d in decorators if type(d) is ast.Call]
    if not any(_is_command(call, resolve) for call in calls):
        return {}
    found: dict[str, str] = {}
    for call in calls:
        kind = resolve(call.func)
        if kind not in _PARAMETERS or any(k.arg in _CHANGED_BY for k in call.keywords):
            continue
        name = _parameter_name(call.args, kind == "click.argument")
        converted = _converted(call, resolve, constant)
        if name is not None and converted is not None:
            found[name] = converted
    return found


def _is_command(call: ast.Call, resolve: Callable[[ast.expr], str]) -> bool:
    """``@click.command()``, ``@click.group()``, or ``@cli.command()`` of a group."""
    func = call.func
    return resolve(func) in _COMMANDS or (
        type(func) is ast.Attribute and func.attr in ("command", "group")
    )


def _parameter_name(declarations: list[ast.expr], argument: bool) -> str | None:
    """The name click gives the parameter the ``declarations`` declare, or None."""
    texts = [d.value for d in declarations if type(d) is ast.Constant and type(d.value) is str]
    if len(texts) != len(declarations) or not texts:
        return None
    if argument:
        return texts[0].replace("-", "_").lower() if len(texts) == 1 else None
    named = [t for t in texts if t.isidentifier()]
    if named:
        return named[0] if len(named) == 1 else None
    options = [t.split("/")[0] for t in texts]
    options.sort(key=lambda t: -(len(t) - len(t.lstrip("-"))))  # (stable, as click's)
    if not options[0].startswith("-"):
        return None
    return options[0].lstrip("-").replace("-", "_").lower()


def _converted(
    call: ast.Call, resolve: Callable[[ast.expr], str], constant: Callable[[ast.expr], bool]
) -> str | None:
    """``NUMBER`` or ``CHOICE`` for a parameter click converts so, else None."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    flag = keywords.get("is_flag")
    if type(flag) is ast.Constant and flag.value is True:
        return NUMBER
    given = keywords.get("type")
    if given is None:
        return None
    made = given.func if type(given) is ast.Call else given
    if resolve(made) in _NUMBER_TYPES:
        return NUMBER
    if resolve(made) == "click.Choice" and type(given) is ast.Call and given.args:
        return CHOICE if constant(given.args[0]) else None
    return None
