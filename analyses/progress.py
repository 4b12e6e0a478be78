"""The progress bar of every long run (studies, simulate, tune, tournament): on stderr, so stdout stays clean for --json."""
from __future__ import annotations

import sys


def progress_bar(total: int, unit: str = "games", enabled: bool = True, leave: bool = True):
    """A tqdm bar on stderr with the rate (``unit``/s) and ETA; ``enabled=False`` draws nothing.

    ``leave=False`` removes the bar when it closes (a command that prints its result right after).
    """
    from tqdm.auto import tqdm  # loaded when a bar is drawn, not with every module that may draw one

    return tqdm(total=total, unit=unit, unit_scale=True, disable=not enabled, dynamic_ncols=True,
                smoothing=0.1, file=sys.stderr, mininterval=0.5, leave=leave)
