"""Which parameters annotated as numbers (or dates) every call in the code gives one.

``def free_port(port: int)`` formatting ``port`` into a shell command is safe when each call
of ``free_port`` passes a number: a number's text cannot carry code into a command.  The
annotation alone is no proof (Python does not check it), so the calls are read: every use of
the function's name in the tree is a call of it, at least one, and each passes, for the
parameter, a value whose text is a number (a number, ``int(...)``, ``len(...)``, arithmetic of
them, a name bound only to such or by ``for i in range(n)``) or nothing, with a number as the
default.  The same for a parameter annotated ``datetime.date`` (or ``datetime``) and a date
made by ``strptime``, ``fromisoformat``, ``today``...  A use that is not a call (the function
passed as a callback), ``*args``/``**kwargs`` at a call, a name bound to anything else, or
those builtins bound anew refuse it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from . import _ast as ast

__all__ = ["NUMBER_ANNOTATIONS", "CallIndex", "numeric_parameter"]

# The annotations that say a parameter is a number (a bool's text is True or False) or a
# date (its text digits, separators and a space).
NUMBER_ANNOTATIONS = frozenset(
    {"int", "float", "bool", "date", "datetime", "datetime.date", "datetime.datetime"}
)
# Calls whose result is a number whatever they are given (or an error).
_NUMBER_CALLS = frozenset({"int", "float", "len", "round", "abs", "bool"})
_BUILTINS = _NUMBER_CALLS | {"range"}
# Calls that make a date or a time from any text (or raise), as written after the imports
# `import datetime` and `from datetime import date, datetime`.
_DATE_CALLS = frozenset(
    f"{owner}.{method}"
    for owner in ("datetime.datetime", "datetime.date", "datetime", "date")
    for method in ("strptime", "fromisoformat", "today", "now", "fromtimestamp")
)

_Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass
class CallIndex:
    """The calls of each name in a tree, with the scope each is in, and how often each
    name is read at all (a read that is no call's function passes the function on)."""

    calls: dict[str, list[tuple[ast.Call, _Scope]]] = field(default_factory=dict)
    reads: dict[str, int] = field(default_factory=dict)
    # The builtins this module reads as numbers that something in the tree binds anew.
    shadowed: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, tree: ast.Module) -> CallIndex:
        index = cls()
        todo: list[tuple[ast.AST, _Scope]] = [(tree, tree)]
        while todo:
            node, scope = todo.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                scope = node
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                index.calls.setdefault(node.func.id, []).append((node, scope))
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                index.reads[node.id] = index.reads.get(node.id, 0) + 1
            elif _BUILTINS.intersection(_names_bound(node)):
                index.shadowed.update(_BUILTINS.intersection(_names_bound(node)))
            todo.extend((child, scope) for child in ast.iter_child_nodes(node))
        return index


def numeric_parameter(
    function: ast.FunctionDef | ast.AsyncFunctionDef, parameter: ast.arg, index: CallIndex
) -> bool:
    """Whether every call of ``function`` (a top-level function of the indexed tree) gives
    ``parameter`` a number, as the module docstring says."""
    calls = index.calls.get(function.name, [])
    if not calls or index.reads.get(function.name, 0) != len(calls):
        return False  # never called here, or passed on as a value
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    place = next((i for i, a in enumerate(positional) if a is parameter), None)
    default = _default(function, parameter)
    for call, scope in calls:
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return False  # `f(*args)`, `f(**options)`: what they hold is not read here
        given = [k.value for k in call.keywords if k.arg == parameter.arg]
        if place is not None and place < len(call.args):
            given.append(call.args[place])
        if not given and not (default is not None and _is_number(default, scope, index)):
            return False
        if not all(_is_number(value, scope, index) for value in given):
            return False
    return True


def _names_bound(node: ast.AST) -> list[str]:
    """The names ``node`` binds (a store, a ``def``, a ``class``, an import)."""
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [a.asname or a.name.partition(".")[0] for a in node.names]
    return []


def _default(
    function: ast.FunctionDef | ast.AsyncFunctionDef, parameter: ast.arg
) -> ast.expr | None:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    with_default = positional[len(positional) - len(arguments.defaults) :]
    pairs: list[tuple[ast.arg, ast.expr | None]] = [*zip(with_default, arguments.defaults)]
    pairs += zip(arguments.kwonlyargs, arguments.kw_defaults)
    return next((d for a, d in pairs if a is parameter), None)


def _is_number(
    node: ast.expr, scope: _Scope, index: CallIndex, seen: frozenset[str] = frozenset()
) -> bool:
    """Whether ``node``'s value in ``scope`` is a number (or a date) whatever the outside
    gives."""
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float, bool)
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "date" and not node.args:
            return _is_number(func.value, scope, index, seen)  # `datetime.strptime(...).date()`
        if isinstance(func, ast.Attribute):
            return ast.unparse(func) in _DATE_CALLS
        return (
            isinstance(func, ast.Name)
            and func.id in _NUMBER_CALLS
            and func.id not in index.shadowed
        )
    if isinstance(node, ast.UnaryOp):
        return _is_number(node.operand, scope, index, seen)
    if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.Mod):  # (`"%s" % x`)
        return _is_number(node.left, scope, index, seen) and _is_number(
            node.right, scope, index, seen
        )
    if isinstance(node, ast.Name):
        if node.id in seen:
            return True  # (`n = n + 1`: the other bindings decide)
        values = list(_bindings(node.id, scope, "range" not in index.shadowed))
        seen |= {node.id}
        return bool(values) and all(
            v is not None and _is_number(v, scope, index, seen) for v in values
        )
    return False


def _bindings(name: str, scope: _Scope, range_is_builtin: bool) -> Iterator[ast.expr | None]:
    """The values ``scope`` binds ``name`` to (None: a binding whose value is not read
    here, as a parameter, a loop's variable other than ``for i in range(n)``'s, an import,
    or a name another scope may bind)."""
    if not isinstance(scope, ast.Module):
        arguments = scope.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        if any(a.arg == name for a in every):
            yield None
    body = [scope.body] if isinstance(scope, ast.Lambda) else scope.body
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id == name:
                    yield node.value
                elif any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(target)):
                    yield None  # `a, n = ...`
            if node.value is not None:
                todo.append(node.value)  # (a walrus in it; its targets are read above)
            continue
        elif (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and node.target.id == name
            and isinstance(node.iter, ast.Call)
            and isinstance(node.iter.func, ast.Name)
            and node.iter.func.id == "range"
            and range_is_builtin
        ):
            yield ast.Constant(0)  # `for i in range(n)`: each a number (or a TypeError)
            todo.extend([*node.body, *node.orelse])
            continue
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            yield None
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            yield None  # a loop's or a `with`'s variable, `del`, a walrus
        elif isinstance(node, (ast.Import, ast.ImportFrom)) and any(
            (a.asname or a.name.partition(".")[0]) == name for a in node.names
        ):
            yield None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            if isinstance(scope, ast.Module) and _declares_global(node, name):
                yield None  # a function that rebinds the module's name
            continue
        todo.extend(ast.iter_child_nodes(node))


def _declares_global(node: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Global) and name in n.names for n in ast.walk(node))
