"""Chain points and final score (interpretations R8.2).

Small pure functions over a REM stack given as type pairs, bottom to top.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from simcore.games.dreamscape.cards import N_TYPES, Card
from simcore.games.dreamscape.rules import MAX_RUN, RULEBOOK_CHAIN_TABLE, rulebook_chain_step


def chain_points_for_run(length: int) -> int:
    """Points for one maximal run of ``length`` adjacent cards sharing a type.

    R8.2: 1 -> 0, 2 -> 2, 3 -> 4, 4 -> 6, 5 -> 8, 6 -> 10, 7 -> 13, 8 -> 16,
    9 -> 20, 10 -> 24, 11 -> 29, 12 -> 34, 13 -> 40, 14 -> 46, and beyond
    (only possible with a designer's own deck) the chart's steps continue in
    pairs: +7, +7, +8, +8, ... (15 -> 53, 16 -> 60, 17 -> 68, 18 -> 76).
    """
    if length < 2:
        return 0
    points = 2
    for n in range(3, length + 1):
        points += rulebook_chain_step(n)  # +2 up to a run of 6, then +3, +3, +4, +4, ...
    return points


# Table form used by the fast engine and by reports; long enough for any deck
# a designer can set up (a run can never exceed the number of cards). The
# chain knob's tables (rules.chain_table) have the same length.
CHAIN_POINTS_TABLE: tuple[int, ...] = tuple(chain_points_for_run(n) for n in range(0, MAX_RUN + 1))
assert CHAIN_POINTS_TABLE == RULEBOOK_CHAIN_TABLE  # the chart in two forms (R8.2)


def chain_runs(rem: Sequence[Card]) -> list[tuple[int, int, int]]:
    """Every maximal run of length >= 2: ``(type, start_index, length)``.

    A card counts in the runs of both its types (R8.2).
    """
    runs: list[tuple[int, int, int]] = []
    for t in range(N_TYPES):
        start = None
        for i, card in enumerate(list(rem) + [None]):
            has = card is not None and t in card
            if has and start is None:
                start = i
            elif not has and start is not None:
                if i - start >= 2:
                    runs.append((t, start, i - start))
                start = None
    return runs


def chain_points(rem: Iterable[Card], table: Sequence[int] = CHAIN_POINTS_TABLE) -> int:
    """Total chain points of a REM stack (bottom to top); ``table``: run length -> points (the chain knob)."""
    return sum(table[length] for _, _, length in chain_runs(list(rem)))


def final_score(rem: Iterable[Card], z_cards: int) -> int:
    """Score = chain points - number of Z cards (R8.2)."""
    return chain_points(rem) - z_cards


def chain_points_by_type(rem: Sequence[Card]) -> list[int]:
    """Chain points split by dream type (a card in two runs counts in both)."""
    out = [0] * N_TYPES
    for t, _, length in chain_runs(rem):
        out[t] += chain_points_for_run(length)
    return out
