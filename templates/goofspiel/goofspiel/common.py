"""Goofspiel: constants, the suit (card file), the setup (TAG's Parameters) and the result arrays.

Everything here is plain Python shared by both engines (:mod:`.reference`, :mod:`.fast`). Rule ids
(G1, G4.2, ...) refer to ``interpretations.md`` in this package.
"""
from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NAME = "goofspiel"
TITLE = "Goofspiel"
SEAT_COUNTS = (2, 3, 4)          # G1.2: 2 to 4 players
MAX_PLAYERS = max(SEAT_COUNTS)
MIN_CARDS, MAX_CARDS = 3, 16     # G1.1: a suit of 3 to 16 cards (the fast engine's array sizes)
MAX_VALUE = 99
PACKAGE_DIR = Path(__file__).resolve().parent
SCENARIOS_DIR = PACKAGE_DIR / "scenarios"
CARDS_FILE = PACKAGE_DIR / "cards.toml"


class GoofspielError(ValueError):
    """Every bad input to the Goofspiel package: a one-line message naming the problem."""


@dataclass(frozen=True)
class Suit:
    """The values of one suit, lowest first (G1.1); every hand and the prize deck are one such suit."""

    values: tuple[int, ...]
    name: str = "cards.toml"
    source: str = "cards.toml"

    def __len__(self) -> int:
        return len(self.values)


def load_cards(path: str | os.PathLike | None = None) -> Suit:
    """Read and check a suit (TOML: ``values = [...]`` and an optional ``name``); None = the shipped suit.

    Raises
    ------
    GoofspielError
        One line naming the file and the problem.
    """
    file = Path(path) if path is not None else CARDS_FILE
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except FileNotFoundError:
        raise GoofspielError(f"card file {file}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GoofspielError(f"card file {file}: cannot read it ({type(exc).__name__})") from None
    except tomllib.TOMLDecodeError as exc:
        raise GoofspielError(f"card file {file}: not valid TOML ({str(exc).splitlines()[0]})") from None
    extra = sorted(set(data) - {"name", "values"})
    if extra:
        raise GoofspielError(f"card file {file}: unknown key {extra[0]!r} (only name and values)")
    values = data.get("values")
    if not isinstance(values, list) or not MIN_CARDS <= len(values) <= MAX_CARDS:
        raise GoofspielError(f"card file {file}: values must be a list of {MIN_CARDS} to {MAX_CARDS} numbers")
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= MAX_VALUE:
            raise GoofspielError(f"card file {file}: values are whole numbers from 1 to {MAX_VALUE}, not {v!r}")
    if len(set(values)) != len(values):  # G4.1 compares bids by value: two equal cards would be one card
        raise GoofspielError(f"card file {file}: values must be distinct")
    name = data.get("name", file.name)
    if not isinstance(name, str) or not name.strip():
        raise GoofspielError(f"card file {file}: name must be a non-empty text")
    return Suit(tuple(sorted(values)), name, str(file))


@dataclass(frozen=True)
class Setup:
    """Everything that fixes a configuration (TAG's Parameters): players (G1.2), how many cards of the
    suit are played (``cards=N``, G1.3), whether tied prizes carry over (G4.3), and the suit."""

    players: int = 2
    n_cards: int = 13
    carry: bool = False
    cards: Suit | None = None

    @property
    def values(self) -> tuple[int, ...]:
        """The values in play: the suit's ``n_cards`` lowest (G1.3)."""
        return self.cards.values[:self.n_cards]


_DEFAULT_CARDS: list[Suit] = []


def default_cards() -> Suit:
    """The shipped suit, read once."""
    if not _DEFAULT_CARDS:
        _DEFAULT_CARDS.append(load_cards(None))
    return _DEFAULT_CARDS[0]


def parse_setup(players: int, variant: str = "base", cards: Suit | None = None) -> Setup:
    """A Setup from a player count and the variant notation (``base``, ``carry``, ``cards=N``, joined by
    ``+``). GoofspielError on anything else."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_COUNTS:
        raise GoofspielError(f"players must be 2, 3 or 4, not {players!r}")
    if not isinstance(variant, str) or not variant.strip():
        raise GoofspielError("variant is empty (use base, carry, cards=N joined by +)")
    if cards is not None and not isinstance(cards, Suit):
        raise GoofspielError("cards must come from load_cards")
    suit = cards if cards is not None else default_cards()
    n_cards, carry, seen = len(suit), False, set()
    for part in variant.strip().split("+"):
        part = part.strip()
        m = re.fullmatch(r"cards=(\d+)", part)
        key = "cards" if m else part
        if key in seen:
            raise GoofspielError(f"variant {variant!r}: {key} given twice")
        seen.add(key)
        if part == "base":
            continue
        if part == "carry":                            # G4.3
            carry = True
        elif m:                                        # G1.3
            n_cards = int(m.group(1))
            if not MIN_CARDS <= n_cards <= len(suit):
                raise GoofspielError(f"variant {variant!r}: cards must be {MIN_CARDS} to {len(suit)} "
                                     f"(the suit has {len(suit)}), not {n_cards}")
        else:
            raise GoofspielError(f"variant {variant!r}: unknown part {part!r} (base, carry, cards=N)")
    return Setup(players, n_cards, carry, suit)


def variant_name(setup: Setup) -> str:
    """The canonical variant notation of ``setup``; parse_setup(setup.players, it) gives it back."""
    parts = ["carry"] if setup.carry else []
    if setup.n_cards != len(setup.cards):
        parts.append(f"cards={setup.n_cards}")
    return "+".join(parts) or "base"


def empty_results(setup: Setup, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """The arrays play_games returns, one row per game: the rounds played, each seat's score (G5.1),
    which seats won (G5.2, shared wins all True) and the prize value nobody took (G4.2)."""
    p = setup.players
    return {
        "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
        "turns": np.zeros(n_games, np.int16),
        "score": np.zeros((n_games, p), np.int16),
        "winners": np.zeros((n_games, p), np.bool_),
        "discarded": np.zeros(n_games, np.int16),
    }
