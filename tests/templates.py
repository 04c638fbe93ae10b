"""Building templates in the tests without the extension: ``T("a ", (value, "x"), " b")``.

Where a test can run through a real shell (``ishell``) it writes the i-literal itself; the
renderer tests build templates directly, so that each case states its exact parts.
"""

from __future__ import annotations

from ipy_istring.template import Interpolation, InterpolationTemplate


def T(*parts: object) -> InterpolationTemplate:
    """A template from strings and (value, expression[, conversion[, spec]]) tuples."""
    return InterpolationTemplate(
        *(p if isinstance(p, str) else Interpolation(*p) for p in parts)  # type: ignore[misc]
    )
