"""Every number the Pleasant Dreams rulebook prints, with its rule id and whether a designer can change it.

Values are read from the code (:mod:`.common`, the shipped card list) where the code names them, so the
Pleasant Dreams table of docs/guide/knobs.md (:func:`markdown_table`, checked by
tests/test_rulebook_numbers.py) says what the engines play. Rule ids are those of ``interpretations.md``.
None of these is a ``knob:`` yet; the difficulty is the variant ``start=N`` and the card list is a file.
"""
from __future__ import annotations

from typing import NamedTuple

from .common import ACTION_TYPES, COPIES_PER_ACTION, MAX_FLOW, MAX_START, SEAT_COUNTS, WAKE_LIMIT, load_cards


class RulebookNumber(NamedTuple):
    """One printed number of the rulebook."""

    rule: str
    what: str
    value: str        # as the engines play it by default
    status: str       # how a designer changes it today ("" when not at all)
    meaning: str


def rulebook_numbers() -> list[RulebookNumber]:
    """The rulebook's numbers in rule order."""
    cards = load_cards(None)
    return [
        RulebookNumber("P1.1", "dream fragment cards", str(len(cards.names)), "the card file (`--cards`)",
                       "only The Bear and The Music Box are printed (P1.2)"),
        RulebookNumber("P2", "players", f"{SEAT_COUNTS[0]}–{SEAT_COUNTS[-1]}", "", "1 = solo play"),
        RulebookNumber("P2.2", "starting wakefulness", "1", f"variant `start=N` (0–{MAX_START})",
                       "the solo difficulty (P2.2); with 2 players a variant the rulebook does not define"),
        RulebookNumber("P2.4", "action cards each seat holds", "1 Barrier, 1 Premonition", "variant `hand=A,B,..` (solo)",
                       "Lucid Dreams deals from all of them instead (P7.2)"),
        RulebookNumber("P3.1", "wakefulness that wakes the player", str(WAKE_LIMIT), "",
                       "the token on 5 loses (P6.1); wakefulness never goes below 0"),
        RulebookNumber("P4.1", "cards in a dream flow", f"1–{MAX_FLOW}", "", "never more than the deck holds"),
        RulebookNumber("P5.2", "extra wakefulness a flip takes off", "1", "", "then the card turns to its back"),
        RulebookNumber("P7.1", "action cards", f"{len(ACTION_TYPES) * COPIES_PER_ACTION} ({COPIES_PER_ACTION} of each "
                       f"of {len(ACTION_TYPES)} types)", "", "one use each, on the owner's own turn"),
        RulebookNumber("P8.1", "cards Premonition shows", "3", "", "the showing faces of the top three"),
    ]


def markdown_table() -> str:
    """The Pleasant Dreams table of docs/guide/knobs.md (between its two marker comments)."""
    lines = [
        "| rule | number | rulebook value | status | meaning |",
        "|---|---|---|---|---|",
    ]
    for n in rulebook_numbers():
        lines.append(f"| {n.rule} | {n.what} | {n.value} | {n.status or 'not a knob yet'} | {n.meaning} |")
    return "\n".join(lines) + "\n"
