"""How every number with its 95% interval is written: :mod:`analyses.lab.plot.numbers` (the charts of the
Python API write their numbers the same way), re-exported for the reports."""
from __future__ import annotations

from analyses.lab.plot.numbers import NO_INTERVAL, change_with_interval, mean_with_interval, rate_with_interval

__all__ = ["NO_INTERVAL", "change_with_interval", "mean_with_interval", "rate_with_interval"]
