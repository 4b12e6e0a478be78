"""Writing a trained strong value from a research trainer: the machine in its meta, an --out that cannot be written as
one line (exit 2), then one line of the figures. Used by train_strong_pooled.py and train_strong_swaps.py."""
from __future__ import annotations

import os
import platform
import sys
from pathlib import Path


def write_and_report(script: str, out: Path, model, keys: tuple[str, ...]) -> int:
    """Write ``model`` (a ValueModel) to ``out`` and print ``key=value`` of ``keys``; 2 with one line if it cannot."""
    from simcore.games.dreamscape.bots.errors import StrategyError
    from simcore.games.dreamscape.bots.strong import write_value

    model.meta["machine"] = f"{os.cpu_count()} cores ({platform.machine()}, Python {platform.python_version()})"
    try:
        write_value(out, model)
    except StrategyError as exc:  # an --out that cannot be written: one line, not a traceback
        print(f"{script}: {exc}", file=sys.stderr)
        return 2
    print(" ".join(f"{k}={model.meta[k]}" for k in keys))
    return 0
