"""A corpus of realistic script and notebook code for scoring the unsafe-format check.

Each :class:`Case` is one small file (``code``) or notebook (``cells``): *vulnerable* when a
value the code does not control reaches a shell or a SQL engine as code, *safe* when it looks
alike but is not (SQL-looking f-strings that are only printed or rebound, constants, values
passed as parameters, i-strings, shell variables IPython does not expand).  The test suite
scores ``ipy_istring.check`` on it; ``benchmarks/bench_check.py`` scores bandit and ruff beside.
"""

from __future__ import annotations

from .cases import CASES, Case, Score, score

__all__ = ["CASES", "Case", "Score", "score"]
