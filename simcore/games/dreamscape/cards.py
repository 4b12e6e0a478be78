"""Dream types and cards (interpretations R1.1, R1.2).

A card shows two *different* dream types; its back is a Z. The eleven dream
types have stable integer ids used everywhere (data files, arrays, reports)
and two-letter codes used in every file a designer reads or writes.
"""
from __future__ import annotations

from enum import IntEnum

from simcore.files import shown  # an error echoes at most a few dozen characters of a user's text


class DreamType(IntEnum):
    """The eleven dream types with their stable ids (R1.1)."""

    FLOATING_FREE = 0
    INTERRUPTED_SLEEP = 1
    NIGHT_TERROR = 2
    LUCID_DREAMING = 3
    PERFECT_RESPITE = 4
    RECURRING_DREAM = 5
    COLLECTIVE_DREAM = 6
    SHIFTING_DREAMS = 7
    INVASIVE_DREAMING = 8
    EMPOWERED_DREAMING = 9
    PARADIGM_SHIFT = 10


N_TYPES = 11
CODES: tuple[str, ...] = ("FF", "IS", "NT", "LD", "PR", "RD", "CD", "SD", "ID", "ED", "PS")
NAMES: tuple[str, ...] = (
    "Floating Free",
    "Interrupted Sleep",
    "Night Terror",
    "Lucid Dreaming",
    "Perfect Respite",
    "Recurring Dream",
    "Collective Dream",
    "Shifting Dreams",
    "Invasive Dreaming",
    "Empowered Dreaming",
    "Paradigm Shift",
)
BASE_TYPES: frozenset[int] = frozenset(range(8))
EXPANSION_TYPES: frozenset[int] = frozenset({8, 9, 10})
CODE_TO_TYPE: dict[str, int] = {code: i for i, code in enumerate(CODES)}

# A card is a pair of type ids, kept in the order it was written so that what
# we print back matches what the designer wrote ("FF/SD" stays "FF/SD").
Card = tuple[int, int]


class CardError(ValueError):
    """A card or dream-type code that does not exist or breaks R1.2."""


def type_from_code(code: str) -> int:
    """Type id for a two-letter code, e.g. ``"NT" -> 2``."""
    try:
        return CODE_TO_TYPE[code.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(
            f"unknown dream type {shown(code)} (known: {', '.join(CODES)})"
        ) from None


def parse_card(text: str) -> Card:
    """Parse ``"FF/SD"`` into a pair of type ids; both types must differ (R1.2)."""
    if not isinstance(text, str) or text.count("/") != 1:
        raise CardError(f"card {shown(text)} is not written as two codes like 'FF/SD'")
    left, right = text.split("/")
    a, b = type_from_code(left), type_from_code(right)
    if a == b:
        raise CardError(f"card {shown(text)} shows the same dream type twice (R1.2)")
    return (a, b)


def card_code(card: Card) -> str:
    """``(0, 7) -> "FF/SD"``."""
    return f"{CODES[card[0]]}/{CODES[card[1]]}"


def same_pair(a: Card, b: Card) -> bool:
    """Cards with the same pair of types are interchangeable (R1.2)."""
    return frozenset(a) == frozenset(b)


def type_label(t: int) -> str:
    return f"{NAMES[t]} ({CODES[t]})"
