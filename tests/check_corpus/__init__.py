"""A corpus of realistic script and notebook code for scoring the unsafe-format check.

Each :class:`Case` is one small file (``code``) or notebook (``cells``): *vulnerable* when a
value the code does not control reaches a shell or a SQL engine as code, *safe* when it looks
alike but is not (SQL-looking f-strings that are only printed or rebound, constants, values
passed as parameters, i-strings, shell variables IPython does not expand).  The test suite
scores ``ipy_istring.check`` on it; ``benchmarks/bench_check.py`` scores bandit and ruff beside.

:data:`HELDOUT` to :data:`HELDOUT10` are corpora written blind to the check
(without reading its code or running it) from patterns in public repositories, each by an
engineer who had not seen the others.  Their first scores, before the check learnt from them:

- HELDOUT: recall 0.93, precision 0.96 (bandit 0.71/0.79, ruff 0.69/0.76);
- HELDOUT2, written after the check had learnt from HELDOUT: recall 0.88, precision 0.94
  (bandit 0.67/0.74, ruff 0.65/0.69);
- HELDOUT3, written after it had learnt from both: recall 0.84, precision 0.91 (bandit
  0.68/0.71, ruff 0.67/0.70);
- HELDOUT4, a representative sample modelled on code a search of public repositories finds,
  written after it had learnt from the three: recall 0.99, precision 0.97 (bandit 0.68/0.71,
  ruff 0.65/0.69);
- HELDOUT5, 126 cases modelled on public code (79 vulnerable, 24 notebooks), written after it
  had learnt from the four: recall 0.87 (69 of 79), precision 0.97 (2 false alarms of 47)
  (bandit 0.58/0.74, ruff 0.57/0.75);
- HELDOUT6, 130 cases modelled on public code (78 vulnerable, 26 notebooks), written after it
  had learnt from the five: recall 0.91 (71 of 78), precision 0.99 (1 false alarm of 52)
  (bandit 0.47/0.71, ruff 0.46/0.72);
- HELDOUT7, 141 cases modelled on public code (84 vulnerable, 16 notebooks), written after it
  had learnt from the six: recall 0.94 (79 of 84), precision 0.92 (7 false alarms of 57)
  (bandit 0.56/0.67, ruff 0.55/0.67);
- HELDOUT8, 140 cases modelled on public code (87 vulnerable, 25 notebooks), written after it
  had learnt from the seven: recall 0.95 (83 of 87), precision 0.95 (4 false alarms of 53)
  (bandit 0.63/0.72, ruff 0.61/0.73);
- HELDOUT9, 120 cases modelled on public code (69 vulnerable, 20 notebooks), written after it
  had learnt from the eight: recall 0.99 (68 of 69), precision 0.94 (4 false alarms of 51)
  (bandit 0.72/0.69, ruff 0.72/0.69).  The check has not learnt from it;
- HELDOUT10, 121 cases modelled on public code (71 vulnerable, 20 notebooks), written after
  it had learnt from the eight, by a helper who read none of the check, its tests, its
  benchmark or the other held-out corpora: recall 0.93 (66 of 71), precision 0.96 (3 false
  alarms of 50) (bandit 0.70/0.68, ruff 0.70/0.69).  Missed: pony_select_fstring,
  snowflake_put_upload, geopandas_read_postgis_bbox, ogr_execute_sql_postgis,
  slurm_generated_job_script; false alarms: django_cursor_model_table,
  django_command_choices_table, sqlite_cli_date_parsed.  The check has not learnt from it.

Every score since is on code the check has learnt from.
"""

from __future__ import annotations

from .cases import CASES, SCRIPTS, Case, Score, dense_file, score
from .heldout import HELDOUT
from .heldout2 import HELDOUT2
from .heldout3 import HELDOUT3
from .heldout4 import HELDOUT4
from .heldout5 import HELDOUT5
from .heldout6 import HELDOUT6
from .heldout7 import HELDOUT7
from .heldout8 import HELDOUT8
from .heldout9 import HELDOUT9
from .heldout10 import HELDOUT10

__all__ = [
    "CASES",
    "HELDOUT",
    "HELDOUT2",
    "HELDOUT3",
    "HELDOUT4",
    "HELDOUT5",
    "HELDOUT6",
    "HELDOUT7",
    "HELDOUT8",
    "HELDOUT9",
    "HELDOUT10",
    "SCRIPTS",
    "Case",
    "Score",
    "dense_file",
    "score",
]
