"""Every number the Project Dreamscape rulebook prints, with its rule id and whether a designer can change it.

The values are read from the code's data (:mod:`simcore.games.dreamscape.rules`, the default deck
file of :mod:`simcore.games.dreamscape.decks`), never typed here, so the table in
docs/guide/knobs.md (:func:`markdown_table`, checked by tests/test_rulebook_numbers.py) says
what the engines play.
"""
from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from simcore.games.dreamscape.cards import BASE_TYPES, EXPANSION_TYPES, N_TYPES
from simcore.games.dreamscape.decks import DeckSpec, default_spec
from simcore.games.dreamscape.rules import (
    KNOB_BY_TOKEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_Z_KEPT,
    N_POSITIONS,
    NIGHT_TERROR_MIN_Z,
    PARADIGM_SHIFT_MAX_DISCARD,
    PERFECT_RESPITE_Z,
    RESERVED_COST,
    RULEBOOK_CHAIN,
    SLEEP_TOKEN_DISCARD_MIN_Z,
    SLEEP_TOKEN_POINT,
    SOLO_BANDS,
)


class RulebookNumber(NamedTuple):
    """One printed number (or list of numbers) of the rulebook."""

    rule: str  # its rule id in shared/rules/interpretations.md
    what: str
    value: str  # as the engines play it by default
    knob: str  # "knob:TOKEN" when a designer can change it, else ""
    meaning: str

    @property
    def range(self) -> str:
        """The knob's documented range, or "" for a number that is not a knob yet."""
        if not self.knob:
            return ""
        k = KNOB_BY_TOKEN[self.knob[len("knob:"):]]
        if k.values != (1, 1):
            fewest, most = k.values
            count = str(fewest) if fewest == most else f"{fewest} to {most}"
            return f"{count} values, each {k.low}–{k.high}"
        return f"{k.low}–{k.high}" + (" per seat" if k.per_seat else "")


def _knob_value(token: str) -> str:
    default = KNOB_BY_TOKEN[token].default
    return ", ".join(str(v) for v in default) if isinstance(default, tuple) else str(default)


def _copies(spec: DeckSpec) -> tuple[str, str]:
    """The base and expansion decks as 'N cards: c pairs × k copies, ...' (R1.3)."""
    out = []
    for part in (spec.base, spec.expansion):
        by_copies = Counter(n for _, n in part)
        cards = sum(n for _, n in part)
        pairs = ", ".join(f"{count} pairs × {n}" for n, count in sorted(by_copies.items(), reverse=True))
        out.append(f"{cards} cards ({pairs})")
    return out[0], out[1]


def _cards_per_type(spec: DeckSpec) -> str:
    counts = [0] * N_TYPES
    for (a, b), n in spec.base:
        counts[a] += n
        counts[b] += n
    shown = sorted({counts[t] for t in BASE_TYPES})
    return ", ".join(str(c) for c in shown)


def rulebook_numbers(spec: DeckSpec | None = None) -> list[RulebookNumber]:
    """The rulebook's numbers in rule order, each with its default value and knob (if any)."""
    spec = spec or default_spec()
    base, expansion = _copies(spec)
    bands = ", ".join(label for _, _, label in SOLO_BANDS)
    return [
        RulebookNumber("R1.1", "dream types", f"{len(BASE_TYPES)} base + {len(EXPANSION_TYPES)} expansion", "",
                       "a game uses eight of the eleven"),
        RulebookNumber("R1.3", "base Sleep Deck", base, "", "copies per pair of base types (the deck file)"),
        RulebookNumber("R1.3", "cards per base type", _cards_per_type(spec), "", "why the printed chain chart stops at 13"),
        RulebookNumber("R1.3", "expansion deck", expansion, "", "the Controlled Study deck (R1.4 swaps draw on it)"),
        RulebookNumber("R2.1", "players", f"{MIN_PLAYERS}–{MAX_PLAYERS}", "", "1 = Virtual Dreaming (R10)"),
        RulebookNumber("R2.2", "Z cards dealt at setup", _knob_value("start-z"), "knob:start-z", KNOB_BY_TOKEN["start-z"].meaning),
        RulebookNumber("R2.2", "cards removed before dealing", _knob_value("remove"), "knob:remove", KNOB_BY_TOKEN["remove"].meaning),
        RulebookNumber("R2.3", "Dreamscape positions", str(N_POSITIONS), "", "the market size"),
        RulebookNumber("R2.3", "market costs by position", _knob_value("costs"), "knob:costs", KNOB_BY_TOKEN["costs"].meaning),
        RulebookNumber("R3.2", "fewest Z cards kept", str(MIN_Z_KEPT), "", "an effect never takes a player's last Z card"),
        RulebookNumber("R5.1", "cost of a ready reserved card", str(RESERVED_COST), "", "Lucid Dreaming's reserve (R6.4)"),
        RulebookNumber("R5.2", "purchases per turn", "no limit", "knob:max-buys", KNOB_BY_TOKEN["max-buys"].meaning),
        RulebookNumber("R6.3", "Night Terror: Z cards the target must hold", str(NIGHT_TERROR_MIN_Z), "",
                       "below that nothing happens (R3.2)"),
        RulebookNumber("R6.5", "Perfect Respite: Z cards taken", str(PERFECT_RESPITE_Z), "", "from the top of the Sleep Deck"),
        RulebookNumber("R6.11", "Paradigm Shift: Dreamscape cards discarded", f"0–{PARADIGM_SHIFT_MAX_DISCARD}", "",
                       "then slide (R7.1) and refill as many"),
        RulebookNumber("R8.2", "chain points, runs of 2, 3, ... 14 cards", ", ".join(map(str, RULEBOOK_CHAIN)), "knob:chain",
                       "a run of 1 scores 0; longer runs continue +7, +7, +8, +8, ..."),
        RulebookNumber("R8.2", "points per Z card at the end", "−" + _knob_value("z-penalty"), "knob:z-penalty",
                       KNOB_BY_TOKEN["z-penalty"].meaning),
        RulebookNumber("R8.2", "points added to a seat's score", _knob_value("bonus"), "knob:bonus", KNOB_BY_TOKEN["bonus"].meaning),
        RulebookNumber("R9", "Sleep Token: budget of its point side", f"+{SLEEP_TOKEN_POINT}", "", "for that turn only"),
        RulebookNumber("R9", "Sleep Token: Z cards its discard side needs", str(SLEEP_TOKEN_DISCARD_MIN_Z), "",
                       "discards the top Z card"),
        RulebookNumber("R10.5", "Virtual Dreaming score bands", bands, "", "the solo report's bands"),
    ]


def markdown_table(spec: DeckSpec | None = None) -> str:
    """The table of docs/guide/knobs.md (between its two marker comments)."""
    lines = [
        "| rule | number | rulebook value | status | range | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for n in rulebook_numbers(spec):
        status = f"`{n.knob}`" if n.knob else "not a knob yet"
        lines.append(f"| {n.rule} | {n.what} | {n.value} | {status} | {n.range} | {n.meaning} |")
    return "\n".join(lines) + "\n"
