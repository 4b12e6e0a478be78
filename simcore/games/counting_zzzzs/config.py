"""Counting Zzzzs configurations: a Setup from a player count, the variant notation and a card set.

Kept apart from :mod:`.common` because it reads the shipped deck through :mod:`.cards`, which builds on
:mod:`.common`.
"""
from __future__ import annotations

import re

from .cards import load_cards
from .common import HAND_SIZE, RULEBOOK_REMOVED, SEAT_COUNTS, CardSet, CZError, Setup


_DEFAULT: list[CardSet] = []


def default_cards() -> CardSet:
    """The shipped example deck (invented for illustration), read once."""
    if not _DEFAULT:
        _DEFAULT.append(load_cards(None))
    return _DEFAULT[0]


def parse_setup(players: int, variant: str = "base", cards: CardSet | None = None) -> Setup:
    """A Setup from a player count and the variant notation: ``base`` (the rulebook's removal, Z2) or
    ``remove=N`` (N Wake Ups removed whatever the player count). CZError on anything else."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_COUNTS:
        raise CZError(f"players must be 2, 3 or 4, not {players!r}")
    if cards is not None and not isinstance(cards, CardSet):
        raise CZError("cards must come from load_cards")
    cards = cards if cards is not None else default_cards()
    if not isinstance(variant, str) or not variant.strip():
        raise CZError("variant is empty (use base or remove=N)")
    text = variant.strip()
    m = re.fullmatch(r"remove=(\d+)", text)
    if text == "base":
        removed = RULEBOOK_REMOVED[players]
    elif m:
        removed = int(m.group(1))
    else:
        raise CZError(f"variant {variant!r}: unknown (base, or remove=N Wake Ups before shuffling)")
    if removed > cards.wake_up_cards():
        raise CZError(f"variant {variant!r}: the deck has only {cards.wake_up_cards()} Wake Up cards to remove")
    if cards.total - removed <= HAND_SIZE * players:
        raise CZError(f"the deck ({cards.total - removed} cards after removing {removed} Wake Ups) must have more "
                      f"than {HAND_SIZE * players} cards to deal {players} hands (Z4)")
    return Setup(players, removed, cards)


def variant_name(setup: Setup) -> str:
    """``base`` when the setup removes the rulebook's count, else ``remove=N`` (parse_setup round-trips it)."""
    return "base" if setup.removed == RULEBOOK_REMOVED[setup.players] else f"remove={setup.removed}"
