"""Findings: plain sentences a designer can read aloud, each built from one row of one table (every game).

Every :class:`Finding` keeps the table row it quotes (``row``) and the name of that table (``source``),
so the numbers of a sentence can be checked against the data. A finding is ``significant`` when the
95% interval it quotes excludes the fair share (rates) or zero (differences). Seats are numbered from 1
("seat 1" = seat index 0). The numbers in a sentence are written by :mod:`reports.numbers`.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Finding:
    """One sentence of the findings page.

    Attributes
    ----------
    text : str
        The sentence, numbers formatted from ``row``.
    significant : bool
        The quoted 95% interval excludes the fair share or zero.
    topic : str
        The key of the heading it is listed under (the wing's ``topics``).
    source : str
        The table ``row`` comes from (a table name of the game's report).
    row : dict
        The table row the sentence quotes, as it is in the table.
    robustness : str or None
        Project Dreamscape: the verdict of its skill-level check
        (``reports.games.dreamscape.robust.check_findings``) when the study played the
        finding's configurations under bots of several strengths.
    """

    text: str
    significant: bool
    topic: str
    source: str
    row: dict = field(repr=False)
    robustness: str | None = None


def best_row(rows: list[dict], key: str) -> dict | None:
    """The row with the largest ``key`` (the best seat, the leader); the first such row on a tie; None if empty."""
    best = None
    for row in rows:
        if best is None or row[key] > best[key]:
            best = row
    return best


def worst_row(rows: list[dict], key: str) -> dict | None:
    """The row with the smallest ``key`` (the worst seat, the largest loss); the first such row on a tie."""
    worst = None
    for row in rows:
        if worst is None or row[key] < worst[key]:
            worst = row
    return worst


def excludes(low: float, high: float, reference: float) -> bool:
    """The interval [low, high] leaves out ``reference`` (the fair share, or 0): the finding is significant."""
    return high < reference or low > reference
