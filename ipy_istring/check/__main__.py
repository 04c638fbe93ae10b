"""``python -m ipy_istring.check``."""

import sys

from .cli import main

sys.exit(main())
