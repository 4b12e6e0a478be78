"""Strict JSON of any summary: light enough for a quick ``dreamscape simulate``.

Nothing here loads polars, pandas or scipy.stats, so a 10-game run starts in
about the time of ``dreamscape --help``.
"""
from __future__ import annotations

import math


def json_ready(obj):
    """``obj`` with NaN and infinite floats as None, so ``json.dumps`` writes strict JSON."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    return obj
