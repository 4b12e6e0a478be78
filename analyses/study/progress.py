"""The progress bar of every long run (studies, simulate, tune, tournament): on stderr, so stdout stays clean for --json.

A bar is drawn only when stderr is a terminal: piped or redirected
(``dreamscape simulate ... 2>&1 | tee run.log``) nothing is written, so logs
get no carriage-return frames. ``dreamscape ... --progress/--no-progress``
overrides that (:func:`set_progress`).
"""
from __future__ import annotations

import sys

_CHOICE: list[bool | None] = [None]  # None: draw bars when stderr is a terminal
_LISTENER: list = [None]  # a callable (done, total) that every bar reports to instead of stderr (None: stderr)


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


def listen(callback) -> None:
    """Send every bar's progress to ``callback(done, total)`` instead of stderr (the what-if page's bar), or
    stop with None. The callback may raise to stop the run (a page's Cancel): the bar's ``update`` raises it."""
    _LISTENER[0] = callback


def progress_bar(total: int, unit: str = "games", enabled: bool = True, leave: bool = True):
    """A tqdm bar on stderr with the rate (``unit``/s) and ETA.

    ``enabled=False`` draws nothing; otherwise :func:`progress_wanted` decides.
    ``leave=False`` removes the bar when it closes (a command that prints its result right after).
    With a :func:`listen` callback the bar reports to it instead (whatever ``enabled`` says).
    """
    if _LISTENER[0] is not None:
        return _listened_bar(total, unit, _LISTENER[0])
    from tqdm.auto import tqdm  # loaded when a bar is drawn, not with every module that may draw one

    return tqdm(total=total, unit=unit, unit_scale=True, disable=not (enabled and progress_wanted()),
                dynamic_ncols=True, smoothing=0.1, file=sys.stderr, mininterval=0.5, leave=leave)


def _listened_bar(total: int, unit: str, callback):
    """A bar that writes nothing and tells ``callback(done, total)`` after every update."""
    import io

    from tqdm import tqdm

    class ListenedBar(tqdm):
        def update(self, n=1):
            shown = super().update(n)
            callback(self.n, self.total or 0)
            return shown

    return ListenedBar(total=total, unit=unit, file=io.StringIO(), mininterval=0, leave=False)
