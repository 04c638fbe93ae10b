"""The :mod:`ast` module's names, in a module of their own that the check imports as ``ast``.

Why: on Python 3.12 and 3.13, :mod:`ast` defines a module ``__getattr__`` (for the deprecated
``ast.Num`` and its kind), and CPython does not specialize an attribute read on a module that
has one: each ``ast.Constant`` the check reads (hundreds per cell) went through the generic
lookup, ~7% of the instructions of a cell check with a finding (callgrind).  The same names read
from this module are specialized reads.
"""

import ast as _ast
from ast import *  # noqa: F403  (every public name; ast has no __all__)

__all__ = [name for name in vars(_ast) if not name.startswith("_")]  # (what the * brought)
