"""The progress bar of every long run (studies, simulate, tune, tournament): on stderr, so stdout stays clean for --json.

A bar is drawn only when stderr is a terminal: piped or redirected
(``dreamscape simulate ... 2>&1 | tee run.log``) nothing is written, so logs
get no carriage-return frames. ``dreamscape ... --progress/--no-progress``
overrides that (:func:`set_progress`).
"""
from __future__ import annotations

import sys

_CHOICE: list[bool | None] = [None]  # None: draw bars when stderr is a terminal


def set_progress(show: bool | None) -> None:
    """Force progress bars on (True) or off (False); None restores the default (only on a terminal)."""
    _CHOICE[0] = show


def progress_wanted() -> bool:
    """Whether bars are drawn: the ``--progress/--no-progress`` choice, else whether stderr is a terminal."""
    if _CHOICE[0] is not None:
        return _CHOICE[0]
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stderr
        return False


def progress_bar(total: int, unit: str = "games", enabled: bool = True, leave: bool = True):
    """A tqdm bar on stderr with the rate (``unit``/s) and ETA.

    ``enabled=False`` draws nothing; otherwise :func:`progress_wanted` decides.
    ``leave=False`` removes the bar when it closes (a command that prints its result right after).
    """
    from tqdm.auto import tqdm  # loaded when a bar is drawn, not with every module that may draw one

    return tqdm(total=total, unit=unit, unit_scale=True, disable=not (enabled and progress_wanted()),
                dynamic_ncols=True, smoothing=0.1, file=sys.stderr, mininterval=0.5, leave=leave)
