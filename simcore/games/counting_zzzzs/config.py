"""Counting Zzzzs configurations: a Setup from a player count, the variant notation and a card set.

Kept apart from :mod:`.common` because it reads the shipped deck through :mod:`.cards`, which builds on
:mod:`.common`.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .cards import load_cards
from .common import (DREAM_CAP, HAND_SIZE, MAX_DREAM, MIN_SCORED, RULEBOOK_REMOVED, SEAT_COUNTS, WIN_POINTS, CardSet,
                     CZError, Setup)


_DEFAULT: list[CardSet] = []


def default_cards() -> CardSet:
    """The shipped example deck (invented for illustration), read once."""
    if not _DEFAULT:
        _DEFAULT.append(load_cards(None))
    return _DEFAULT[0]


class Knob(NamedTuple):
    """One rules knob (Z19): a number the rulebook prints that a designer may change (``knob:TOKEN=VALUE``).

    ``field`` is the :class:`~.common.Setup` field holding it; ``low``..``high`` its range (inclusive);
    ``default`` the rulebook's value (``None``: it depends on the player count, the removal of Z2.2).
    """

    token: str
    field: str
    rule: str
    low: int
    high: int
    default: int | None
    meaning: str


# The rulebook's numbers a designer may change (Z19). Ranges: the goal from 5 (one shortest scoring dream)
# to 200 (five times the printed 40); the hand from 2 (Z3.3: after the own element a card must be left for
# the second play) to 10 (twice the printed 5; the fast engine holds 16 distinct cards a hand); a dream's end
# from 2 to DREAM_CAP (option codes number a dream's elements below 16); the fewest elements that score from
# 1 to the dream's end (min-dream above max-dream is refused: no dream could score on waking). ``remove`` is
# the variant ``remove=N`` spelled as a knob (both at once: one line, exit 2); it is bounded by the card
# file's Wake Up cards as well.
KNOBS: tuple[Knob, ...] = (
    Knob("remove", "removed", "Z2.2", 0, 40, None, "Wake Ups removed from the deck before shuffling "
         "(rulebook: 4 with 2 players, 2 with 3, 0 with 4)"),
    Knob("hand", "hand", "Z2.3", 2, 10, HAND_SIZE, "cards dealt to each player and the hand refilled to each turn"),
    Knob("min-dream", "min_dream", "Z14.1", 1, DREAM_CAP, MIN_SCORED,
         "fewest elements a dream needs to score on waking (not at morning, Z16.1)"),
    Knob("max-dream", "max_dream", "Z8.1", 2, DREAM_CAP, MAX_DREAM, "elements that end a dream at once (Z6.2, Z8.1)"),
    Knob("goal", "goal", "Z15.1", 5, 200, WIN_POINTS, "points that win at once"),
)
KNOB_BY_TOKEN = {k.token: k for k in KNOBS}
HIDDEN_REMOVAL = "hidden-removal"   # Z2.2's named variant: the removed Wake Ups stay face down, unseen
VARIANT_HELP = "base, remove=N, hidden-removal or knob:NAME=VALUE, joined by '+'"


def parse_knob(token: str, where: str) -> tuple[Knob, int]:
    """``knob:NAME=VALUE`` as (knob, value); CZError naming the problem."""
    name, sep, raw = token[len("knob:"):].partition("=")
    k = KNOB_BY_TOKEN.get(name.strip())
    if k is None:
        raise CZError(f"{where}: unknown knob {name.strip()[:40]!r} (known: {', '.join(x.token for x in KNOBS)})")
    example = k.default if k.default is not None else 2
    if not sep or not raw.strip():
        raise CZError(f"{where}: knob {k.token} needs a value, e.g. knob:{k.token}={example}")
    raw = raw.strip()
    if not re.fullmatch(r"[0-9]{1,6}", raw):
        raise CZError(f"{where}: knob {k.token} value {raw[:40]!r} is not a whole number from {k.low} to {k.high}")
    value = int(raw)
    if not k.low <= value <= k.high:
        raise CZError(f"{where}: knob {k.token} value {value} is outside {k.low}..{k.high} ({k.rule}: {k.meaning})")
    return k, value


def parse_setup(players: int, variant: str = "base", cards: CardSet | None = None) -> Setup:
    """A Setup from a player count and the variant notation (Z2.2, Z19): ``base`` (the rulebook), or tokens
    joined by ``+``: ``remove=N`` (N Wake Ups removed whatever the player count), ``hidden-removal`` (the
    removed Wake Ups unseen), ``knob:NAME=VALUE`` (:data:`KNOBS`). CZError on anything else."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_COUNTS:
        raise CZError(f"players must be 2, 3 or 4, not {players!r}")
    if cards is not None and not isinstance(cards, CardSet):
        raise CZError("cards must come from load_cards")
    cards = cards if cards is not None else default_cards()
    if not isinstance(variant, str) or not variant.strip():
        raise CZError(f"variant is empty (use {VARIANT_HELP})")
    text = variant.strip()
    where = f"variant {text[:80]!r}"
    fields: dict[str, int | bool] = {}
    set_by: dict[str, str] = {}
    tokens = [t.strip() for t in text.split("+")]
    if tokens != ["base"]:
        for token in tokens:
            if token.startswith("knob:"):
                k, value = parse_knob(token, where)
                field, label = k.field, f"knob:{k.token}"
            elif re.fullmatch(r"remove=\d{1,6}", token):
                field, value, label = "removed", int(token.split("=")[1]), "remove=N"
            elif token == HIDDEN_REMOVAL:
                field, value, label = "hidden_removal", True, HIDDEN_REMOVAL
            else:
                raise CZError(f"{where}: unknown part {token[:40]!r} (use {VARIANT_HELP})")
            if field in set_by:
                raise CZError(f"{where}: {label} and {set_by[field]} both set the same number: "
                              f"a knob combined with a variant that fixes the same number"
                              if label != set_by[field] else f"{where}: {label} appears twice")
            fields[field] = value
            set_by[field] = label
    removed = int(fields.pop("removed", RULEBOOK_REMOVED[players]))
    setup = Setup(players, removed, cards, **fields)
    if removed > cards.wake_up_cards():
        raise CZError(f"{where}: the deck has only {cards.wake_up_cards()} Wake Up cards to remove")
    if setup.min_dream > setup.max_dream:
        raise CZError(f"{where}: knob min-dream {setup.min_dream} is above max-dream {setup.max_dream} "
                      f"(a dream that ends at {setup.max_dream} elements could never score, Z14.1)")
    if cards.total - removed <= setup.hand * players:
        raise CZError(f"the deck ({cards.total - removed} cards after removing {removed} Wake Ups) must have more "
                      f"than {setup.hand * players} cards to deal {players} hands (Z4)")
    return setup


def removed_in(variant: str, players: int) -> int:
    """The Wake Ups a canonical variant text (variant_name's) removes with ``players`` players (Z2.2): read
    from the text alone, for tables of studies already played (no card file needed)."""
    for token in variant.split("+"):
        if token.strip().startswith(("remove=", "knob:remove=")):
            return int(token.split("=")[1])
    return RULEBOOK_REMOVED[players]


def variant_name(setup: Setup) -> str:
    """The canonical variant text (parse_setup round-trips it): ``base`` for the rulebook, else ``remove=N``
    when the removal is not the rulebook's, ``hidden-removal``, then the knobs away from the rulebook in
    :data:`KNOBS` order, joined by ``+``."""
    parts = [] if setup.removed == RULEBOOK_REMOVED[setup.players] else [f"remove={setup.removed}"]
    if setup.hidden_removal:
        parts.append(HIDDEN_REMOVAL)
    for k in KNOBS:
        if k.default is not None and getattr(setup, k.field) != k.default:
            parts.append(f"knob:{k.token}={getattr(setup, k.field)}")
    return "+".join(parts) or "base"
