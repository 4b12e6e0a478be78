"""The strategy layer's error and its one-line messages (a leaf: imports nothing of the project)."""
from __future__ import annotations


class StrategyError(ValueError):
    """A strategy that cannot be found, loaded or compiled; the message says why in one line."""


def error_line(exc: BaseException, limit: int = 200) -> str:
    """The first meaningful line of an exception's message, for a one-line error.

    Numba's typing errors span many lines (source excerpts, "During:" notes,
    carets); the first line that is none of those says what went wrong.

    Parameters
    ----------
    exc : BaseException
        The error to summarise.
    limit : int, optional
        At most this many characters are kept.

    Returns
    -------
    str
        That line, or the exception's type name when no line qualifies.
    """
    for line in str(exc).splitlines():
        line = line.strip()
        if line and not line.startswith(("During:", "File ", "^", "[1]", "-", "<source")):
            return line[:limit]
    return type(exc).__name__
