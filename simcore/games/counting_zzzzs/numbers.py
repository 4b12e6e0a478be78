"""Every number the Counting Zzzzs rulebook prints, with its rule id and whether a designer can change it.

The values are read from the code's data (:data:`.config.KNOBS`, :mod:`.common`, the shipped card file),
never typed here, so the Counting Zzzzs table of docs/guide/knobs.md (:func:`markdown_table`, checked by
tests/test_rulebook_numbers.py) says what the engines play. Rule ids are those of ``interpretations.md``.
"""
from __future__ import annotations

from typing import NamedTuple

from simcore.games.numbers import markdown_table as knob_table

from .cards import load_cards
from .common import ACTION_KINDS, ELEMENT_KINDS, RULEBOOK_REMOVED, SEAT_COUNTS, THEMES
from .config import KNOB_BY_TOKEN


class RulebookNumber(NamedTuple):
    """One printed number of the rulebook."""

    rule: str
    what: str
    value: str        # as the engines play it by default
    status: str       # "knob:TOKEN", "card file" or ""
    meaning: str

    @property
    def range(self) -> str:
        """The knob's range, or "" for a number that is not a knob."""
        if not self.status.startswith("knob:"):
            return ""
        k = KNOB_BY_TOKEN[self.status[len("knob:"):]]
        extra = " (at most the card file's Wake Ups)" if k.token == "remove" else ""
        return f"{k.low}–{k.high}{extra}"


def _knob(token: str) -> tuple[str, str, str]:
    k = KNOB_BY_TOKEN[token]
    return str(k.default), f"knob:{k.token}", k.meaning


def rulebook_numbers() -> list[RulebookNumber]:
    """The rulebook's numbers in rule order, each with its default value and knob (if any)."""
    cards = load_cards(None)
    elements = [c for c in range(len(cards)) if cards.element[c]]
    per_kind = sorted({sum(cards.count[c] for c in elements if cards.kind[c] == k) for k in range(len(ELEMENT_KINDS))})
    n_elements = sum(cards.count[c] for c in elements)
    n_actions = cards.total - n_elements
    removed = ", ".join(f"{RULEBOOK_REMOVED[p]} ({p} players)" for p in SEAT_COUNTS)
    k = KNOB_BY_TOKEN["remove"]
    return [
        RulebookNumber("Z1.1", "element cards", f"{n_elements} ({', '.join(map(str, per_kind))} per kind)", "card file",
                       "the shipped example deck keeps the printed counts; a designer's deck sets its own"),
        RulebookNumber("Z1.1", "action cards", str(n_actions), "card file", "Wake Ups, Benders, Forces and Blocks"),
        RulebookNumber("Z1.2", "key cards", "4", "", "reference only, not modelled"),
        RulebookNumber("Z1.3", "dream themes, element kinds, action kinds",
                       f"{len(THEMES)}, {len(ELEMENT_KINDS)}, {len(ACTION_KINDS)}", "", "the game's structure"),
        RulebookNumber("Z2", "players", f"{SEAT_COUNTS[0]}–{SEAT_COUNTS[-1]}", "", "the rulebook's player counts"),
        RulebookNumber("Z2.2", "Wake Ups removed before shuffling", removed, f"knob:{k.token}",
                       "the same number as the variant remove=N; the removed cards are public (hidden-removal: "
                       "face down)"),
        RulebookNumber("Z2.3", "hand size (cards dealt, hand refilled to)", *_knob("hand")),
        RulebookNumber("Z8.1", "elements that end a dream", *_knob("max-dream")),
        RulebookNumber("Z14.1", "fewest elements that score on waking", *_knob("min-dream")),
        RulebookNumber("Z15.1", "points that win at once", *_knob("goal")),
    ]


def markdown_table() -> str:
    """The Counting Zzzzs table of docs/guide/knobs.md (between its two marker comments)."""
    return knob_table(rulebook_numbers())
