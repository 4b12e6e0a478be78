"""Every number the Pleasant Dreams rulebook prints, with its rule id and whether a designer can change it.

Values are read from the code (:data:`.common.KNOBS`, :mod:`.common`, the shipped card list), never typed
here, so the Pleasant Dreams table of docs/guide/knobs.md (:func:`markdown_table`, checked by
tests/test_rulebook_numbers.py) says what the engines play. Rule ids are those of ``interpretations.md``;
the knobs and their ranges are its P11.
"""
from __future__ import annotations

from typing import NamedTuple

from simcore.games.numbers import markdown_table as knob_table

from .common import ACTION_TYPES, KNOB_BY_TOKEN, SEAT_COUNTS, load_cards


class RulebookNumber(NamedTuple):
    """One printed number of the rulebook."""

    rule: str
    what: str
    value: str        # as the engines play it by default
    status: str       # "knob:TOKEN", "card file", "variant ..." or "" (not a knob, and the meaning says why)
    meaning: str

    @property
    def range(self) -> str:
        """The knob's range, or "" for a number that is not a knob."""
        if not self.status.startswith("knob:"):
            return ""
        k = KNOB_BY_TOKEN[self.status[len("knob:"):]]
        if k.token == "start":
            return f"{k.low} to knob wake − 1"
        return f"{k.low}–{k.high}"


def _knob(token: str, meaning: str = "") -> tuple[str, str, str]:
    k = KNOB_BY_TOKEN[token]
    return str(k.default), f"knob:{k.token}", meaning or k.meaning


def rulebook_numbers() -> list[RulebookNumber]:
    """The rulebook's numbers in rule order, each with its default value and knob (if any)."""
    cards = load_cards(None)
    copies = KNOB_BY_TOKEN["copies"].default
    return [
        RulebookNumber("P1.1", "dream fragment cards", str(len(cards.names)), "card file",
                       "only The Bear and The Music Box are printed (P1.2)"),
        RulebookNumber("P2", "players", f"{SEAT_COUNTS[0]}–{SEAT_COUNTS[-1]}", "",
                       "the game is written for solo and two players (P11.5)"),
        RulebookNumber("P2.2", "starting wakefulness", *_knob("start", "the same number as the variant start=N; the "
                       "solo difficulty, with 2 players a variant the rulebook does not define")),
        RulebookNumber("P2.4", "action cards each seat holds", "1 Barrier, 1 Premonition", "variant `hand=A,B,..` (solo)",
                       "cards, not a number; Lucid Dreams deals from all of them instead (P7.2)"),
        RulebookNumber("P3.1", "wakefulness that wakes the player", *_knob("wake")),
        RulebookNumber("P4.1", "cards in a dream flow", f"1–{KNOB_BY_TOKEN['flow'].default}", "knob:flow",
                       "the knob sets the most; never more than the deck holds; at most the printed 5 (the turn "
                       "decision's codes, P10.1, P11.2)"),
        RulebookNumber("P5.2", "extra wakefulness a flip takes off", *_knob("flip")),
        RulebookNumber("P7.1", "action cards", f"{len(ACTION_TYPES) * copies} ({copies} of each of "
                       f"{len(ACTION_TYPES)} types)", "knob:copies", "copies of each type: the random deals' pile "
                       "(P7.2, P7.3)"),
        RulebookNumber("P7.2", "action cards Lucid Dreams deals each player", *_knob("deal")),
        RulebookNumber("P8.1", "cards Premonition shows", *_knob("premonition")),
    ]


def markdown_table() -> str:
    """The Pleasant Dreams table of docs/guide/knobs.md (between its two marker comments)."""
    return knob_table(rulebook_numbers())
