"""The tables a report is drawn from: :mod:`analyses.games.dreamscape.frames` (the Python API reads a study folder the
same way, so a chart drawn from a notebook and the report's show the same numbers)."""
from __future__ import annotations

from analyses.games.dreamscape.frames import (ALL_KINDS, StudyTables, Tournament, collect, exploit_tables,  # noqa: F401
                                              homogeneous, main_strategy, round_robins, skill_rows)
