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
from simcore.games.dreamscape.decks import MAX_SWAPS, DeckSpec, default_spec
from simcore.games.dreamscape.rules import (
    KNOB_BY_TOKEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_POSITIONS,
    NIGHT_TERROR_MIN_Z,
    PARADIGM_SHIFT_MAX_DISCARD,
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
    why_not: str = "not a knob yet"  # the status column of a number that is not a knob: why

    @property
    def range(self) -> str:
        """The knob's documented range, or "" for a number that is not a knob."""
        if not self.knob:
            return ""
        k = KNOB_BY_TOKEN[self.knob[len("knob:"):]]
        if k.token == "copies":
            return f"{k.values[0]} to {k.values[1]} cards, each {k.low}–{k.high} copies"
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
    def knob(token: str, rule: str, what: str, value: str | None = None) -> RulebookNumber:
        k = KNOB_BY_TOKEN[token]
        return RulebookNumber(rule, what, _knob_value(token) if value is None else value, f"knob:{token}", k.meaning)

    return [
        RulebookNumber("R1.1", "dream types", f"{len(BASE_TYPES)} base + {len(EXPANSION_TYPES)} expansion", "",
                       "a game uses eight of the eleven",
                       "not a knob: which types play is the Controlled Study swap (variant XX:YY, R1.4)"),
        knob("copies", "R1.3", "base Sleep Deck", base),
        RulebookNumber("R1.3", "cards per base type", _cards_per_type(spec), "", "why the printed chain chart stops at 13",
                       "follows `knob:copies` (the cards showing each type)"),
        RulebookNumber("R1.3", "expansion deck", expansion, "", "the Controlled Study deck (R1.4 swaps draw on it)",
                       "`knob:copies` sets these cards too (a card showing an expansion type)"),
        RulebookNumber("R1.4", "Controlled Study swaps", f"0–{MAX_SWAPS}, one for one", "",
                       "expansion types in for base types",
                       "not a knob: the swaps themselves are variant tokens XX:YY"),
        RulebookNumber("R2.1", "players", f"{MIN_PLAYERS}–{MAX_PLAYERS}", "", "1 = Virtual Dreaming (R10)",
                       "not a knob: the player count (`--players`)"),
        knob("start-z", "R2.2", "Z cards dealt at setup"),
        knob("remove", "R2.2", "cards removed before dealing"),
        RulebookNumber("R2.3", "Dreamscape positions", str(N_POSITIONS), "", "the market size (also R7.2's refill to five)",
                       "not a knob yet: the fast engine's state, its 120 Shifting Dreams orders (R6.8) and the bots' "
                       "features are laid out for five positions"),
        knob("costs", "R2.3", "market costs by position"),
        knob("z-floor", "R3.2", "fewest Z cards kept"),
        knob("take-z", "R4.1", "Phase 1: Z cards taken"),
        knob("reserve-cost", "R5.1", "cost of a ready reserved card"),
        knob("min-buys", "R5.2", "purchases a turn must make"),
        knob("max-buys", "R5.2", "purchases per turn", "no limit"),
        RulebookNumber("R6.3", "Night Terror: Z cards the target must hold", str(NIGHT_TERROR_MIN_Z), "",
                       "below that nothing happens (R3.2)", "follows `knob:z-floor` (one more than the floor)"),
        knob("terror-z", "R6.3", "Night Terror: Z cards the target discards"),
        knob("reserve-limit", "R6.4", "cards a seat may hold reserved", "no limit"),
        knob("respite-z", "R6.5", "Perfect Respite: Z cards taken"),
        RulebookNumber("R6.8", "shifting-tokens variant: cost tokens", "1, 2, 3, 4, 5", "", "the printed Z shield tokens it moves",
                       "not a knob: the tokens are R2.3's costs; `knob:costs` with shifting-tokens is refused (one line)"),
        knob("paradigm-max", "R6.11", "Paradigm Shift: Dreamscape cards discarded", f"0–{PARADIGM_SHIFT_MAX_DISCARD}"),
        knob("chain", "R8.2", "chain points, runs of 2, 3, ... 14 cards", ", ".join(map(str, RULEBOOK_CHAIN))),
        knob("z-penalty", "R8.2", "points per Z card at the end", "−" + _knob_value("z-penalty")),
        knob("bonus", "R8.2", "points added to a seat's score"),
        knob("token-point", "R9", "Sleep Token: budget of its point side", f"+{SLEEP_TOKEN_POINT}"),
        RulebookNumber("R9", "Sleep Token: Z cards its discard side needs", str(SLEEP_TOKEN_DISCARD_MIN_Z), "",
                       "discards the top Z card", "follows `knob:z-floor` (one more than the floor)"),
        RulebookNumber("R10.3", "Virtual Dreaming Night Terror: empty positions filled", "1", "",
                       "the solo Night Terror (its own Z cards discarded: `knob:terror-z`)", "not a knob yet"),
        RulebookNumber("R10.5", "Virtual Dreaming score bands", bands, "", "the solo report's bands",
                       "not a knob: the bands label a solo score in reports; no rule of play reads them"),
    ]


def markdown_table(spec: DeckSpec | None = None) -> str:
    """The table of docs/guide/knobs.md (between its two marker comments)."""
    lines = [
        "| rule | number | rulebook value | status | range | meaning |",
        "|---|---|---|---|---|---|",
    ]
    for n in rulebook_numbers(spec):
        status = f"`{n.knob}`" if n.knob else n.why_not
        lines.append(f"| {n.rule} | {n.what} | {n.value} | {status} | {n.range} | {n.meaning} |")
    return "\n".join(lines) + "\n"
