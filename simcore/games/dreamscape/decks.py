"""Deck compositions, Controlled Study swaps and their validation (R1.3, R1.4).

A *composition* (``DeckSpec``) is what a deck file holds: the base Sleep Deck
and the expansion deck, as card -> number of copies. A *deck* (``Deck``) is the
list of physical cards one game is played with, built from a composition and a
set of swaps.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from pathlib import Path

from simcore.games.dreamscape.cards import (
    BASE_TYPES,
    CODES,
    EXPANSION_TYPES,
    N_TYPES,
    Card,
    CardError,
    card_code,
    parse_card,
    type_from_code,
)
from simcore.files import parse_toml, read_text_file, shown
from simcore.games.dreamscape.rules import N_POSITIONS, Options
from simcore.games.dreamscape.scoring import CHAIN_POINTS_TABLE

MAX_SWAPS = 3  # R1.4: 0 to 3 swaps
# A deck file holds at most this many cards in all ([base] + [expansion]): a chain run cannot be longer
# than the deck, and the chain chart (R8.2, continued for designers' decks) is tabled for runs up to
# 256 cards in both engines. 256 is 2.4 times the default composition (106 cards); games of larger decks
# would mostly end at the 1,000-turn cap (R8.4) instead of at R7.2.
MAX_DECK_CARDS = len(CHAIN_POINTS_TABLE) - 1


class DeckError(ValueError):
    """A deck file, a swap or a deck that cannot be used; the message says why."""


@dataclass(frozen=True)
class DeckSpec:
    """A deck composition: base cards and expansion cards with copy counts."""

    name: str
    base: tuple[tuple[Card, int], ...]
    expansion: tuple[tuple[Card, int], ...]
    source: str = "default deck"


@dataclass(frozen=True)
class Deck:
    """The physical cards of one game's Sleep Deck (before shuffling)."""

    cards: tuple[Card, ...]
    removed: frozenset[int] = frozenset()
    added: frozenset[int] = frozenset()
    source: str = "default deck"

    def __len__(self) -> int:
        return len(self.cards)

    @property
    def label(self) -> str:
        """``base`` or swaps like ``FF:ID+NT:ED`` (R1.4: pairing is only cosmetic)."""
        return swap_label(self.removed, self.added)

    @property
    def types_in_play(self) -> tuple[int, ...]:
        return tuple(sorted((BASE_TYPES - self.removed) | self.added))

    def type_counts(self) -> list[int]:
        """How many cards show each dream type."""
        counts = [0] * N_TYPES
        for a, b in self.cards:
            counts[a] += 1
            counts[b] += 1
        return counts


def swap_label(removed: Iterable[int], added: Iterable[int]) -> str:
    removed, added = sorted(removed), sorted(added)
    if not removed:
        return "base"
    return "+".join(f"{CODES[r]}:{CODES[a]}" for r, a in zip(removed, added))


# ----------------------------------------------------------------------------- files


def default_spec() -> DeckSpec:
    """The default composition shipped with the package (R1.3)."""
    text = resources.files("simcore.games.dreamscape").joinpath("data/default_deck.toml").read_text("utf-8")
    return parse_spec(text, source="default deck")


def load_spec(path: str | Path) -> DeckSpec:
    """Load a designer's deck file (same format as ``simcore/games/dreamscape/data/default_deck.toml``)."""
    path = Path(path)
    return parse_spec(read_text_file(path, "deck file", DeckError), source=str(path))


def parse_spec(text: str, source: str = "deck file") -> DeckSpec:
    data = parse_toml(text, source, DeckError)  # nesting and integer-length limits: one line, not a traceback
    unknown = set(data) - {"name", "base", "expansion"}
    if unknown:
        raise DeckError(
            f"{source}: unknown key(s) {', '.join(shown(k)[1:-1] for k in sorted(unknown))}; "
            "expected 'name', [base] and [expansion]"
        )
    base = _parse_section(data.get("base", {}), "base", source)
    expansion = _parse_section(data.get("expansion", {}), "expansion", source)
    if not base:
        raise DeckError(f"{source}: the [base] section holds no cards")
    total = sum(n for _, n in base) + sum(n for _, n in expansion)
    if total > MAX_DECK_CARDS:
        raise DeckError(f"{source}: {total:,} cards in [base] and [expansion] together; "
                        f"a deck file holds at most {MAX_DECK_CARDS}")
    for card, _ in base:
        if not set(card) <= BASE_TYPES:
            raise DeckError(
                f"{source}: [base] card {card_code(card)} shows an expansion type; "
                "put it under [expansion]"
            )
    for card, _ in expansion:
        if not set(card) & EXPANSION_TYPES:
            raise DeckError(
                f"{source}: [expansion] card {card_code(card)} shows no expansion type "
                "(ID, ED or PS)"
            )
    name = data.get("name", source)
    if not isinstance(name, str):
        raise DeckError(f"{source}: 'name' must be a string")
    return DeckSpec(name=name, base=base, expansion=expansion, source=source)


def _parse_section(table, section: str, source: str) -> tuple[tuple[Card, int], ...]:
    if not isinstance(table, dict):
        raise DeckError(f"{source}: [{section}] must be a table of \"XX/YY\" = count lines")
    seen: dict[frozenset[int], str] = {}
    cards: list[tuple[Card, int]] = []
    for key, count in table.items():
        try:
            card = parse_card(key)
        except CardError as exc:
            raise DeckError(f"{source}: [{section}] {exc}") from None
        pair = frozenset(card)
        if pair in seen:
            raise DeckError(
                f"{source}: [{section}] lists the pair {shown(key)} twice (also as {shown(seen[pair])})"
            )
        seen[pair] = key
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_DECK_CARDS:
            raise DeckError(
                f"{source}: [{section}] {shown(key)} = {shown(count)}: the count must be a whole number "
                f"from 0 to {MAX_DECK_CARDS}"
            )
        if count:
            cards.append((card, count))
    return tuple(cards)


def with_copies(spec: DeckSpec, copies: Iterable[tuple[int, int, int]]) -> DeckSpec:
    """The composition with the copies knob applied (R1.3): each (type a, type b, n) sets that card's copies to n.

    A card the file does not list is added, under [base] when both its types are base types (R1.1),
    else under [expansion]; n = 0 takes it out. The file's order is kept, added cards go last.
    """
    wanted = {frozenset((a, b)): n for a, b, n in copies}
    sections = []
    for part, is_base in ((spec.base, True), (spec.expansion, False)):
        out = []
        for card, count in part:
            n = wanted.pop(frozenset(card), count)
            if n:
                out.append((card, n))
        for pair, n in list(wanted.items()):
            if n and (pair <= BASE_TYPES) == is_base:
                out.append((tuple(sorted(pair)), n))
                del wanted[pair]
        sections.append(tuple(out))
    total = sum(n for part in sections for _, n in part)
    if total > MAX_DECK_CARDS:
        raise DeckError(f"{spec.source}: knob copies makes {total} cards; a deck file holds at most {MAX_DECK_CARDS}")
    return DeckSpec(name=spec.name, base=sections[0], expansion=sections[1], source=spec.source)


# ----------------------------------------------------------------------------- swaps


def parse_swap(text: str) -> tuple[int, int]:
    """``"FF:ID"`` -> (removed base type, added expansion type)."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise DeckError(f"swap {shown(text)} is not written as REMOVED:ADDED, e.g. FF:ID")
    left, right = text.split(":")
    try:
        removed, added = type_from_code(left), type_from_code(right)
    except CardError as exc:
        raise DeckError(f"swap {shown(text)}: {exc}") from None
    return removed, added


def validate_swaps(removed: Iterable[int], added: Iterable[int]) -> tuple[frozenset[int], frozenset[int]]:
    """Check a Controlled Study swap set (R1.4) and return it as two sets."""
    removed_list, added_list = list(removed), list(added)
    for t in removed_list:
        if t not in BASE_TYPES:
            raise DeckError(f"cannot remove {CODES[t]}: only base types (FF IS NT LD PR RD CD SD) can be swapped out")
    for t in added_list:
        if t not in EXPANSION_TYPES:
            raise DeckError(f"cannot add {CODES[t]}: only expansion types (ID ED PS) can be swapped in")
    if max(len(removed_list), len(added_list)) > MAX_SWAPS:
        raise DeckError(f"at most {MAX_SWAPS} swaps are allowed, got {max(len(removed_list), len(added_list))}")
    removed_set, added_set = frozenset(removed_list), frozenset(added_list)
    if len(removed_set) != len(removed_list):
        raise DeckError("a base type is removed twice")
    if len(added_set) != len(added_list):
        raise DeckError("an expansion type is added twice")
    if len(removed_set) != len(added_set):
        raise DeckError(
            f"swaps are one-for-one: {len(removed_set)} type(s) removed but {len(added_set)} added"
        )
    return removed_set, added_set


def build_deck(
    spec: DeckSpec | None = None,
    removed: Iterable[int] = (),
    added: Iterable[int] = (),
) -> Deck:
    """The Sleep Deck for a set of swaps (R1.4).

    The base cards with no removed type, plus the expansion cards whose types
    are both in play ((base - removed) | added) with at least one added type.
    """
    spec = spec or default_spec()
    removed_set, added_set = validate_swaps(removed, added)
    in_play = (BASE_TYPES - removed_set) | added_set
    cards: list[Card] = []
    for card, count in spec.base:
        if not set(card) & removed_set:
            cards.extend([card] * count)
    for card, count in spec.expansion:
        if set(card) <= in_play and set(card) & added_set:
            cards.extend([card] * count)
    for t in added_set:
        if not any(t in card for card in cards):
            raise DeckError(f"{spec.source}: no expansion card with {CODES[t]} fits this swap set")
    return Deck(cards=tuple(cards), removed=removed_set, added=added_set, source=spec.source)


def deck_from_swap_texts(swaps: Iterable[str], spec: DeckSpec | None = None) -> Deck:
    """Build a deck from CLI-style swaps like ``["FF:ID", "NT:ED"]``."""
    pairs = [parse_swap(s) for s in swaps]
    return build_deck(spec, [r for r, _ in pairs], [a for _, a in pairs])


def all_swap_sets(max_swaps: int = MAX_SWAPS) -> Iterator[tuple[frozenset[int], frozenset[int]]]:
    """Every distinct Controlled Study swap set: 1 + 24 + 84 + 56 = 165 for 0..3 swaps."""
    for k in range(0, max_swaps + 1):
        for removed in combinations(sorted(BASE_TYPES), k):
            for added in combinations(sorted(EXPANSION_TYPES), k):
                yield frozenset(removed), frozenset(added)


def all_swap_decks(spec: DeckSpec | None = None, max_swaps: int = MAX_SWAPS) -> Iterator[Deck]:
    spec = spec or default_spec()
    for removed, added in all_swap_sets(max_swaps):
        yield build_deck(spec, removed, added)


SINGLE_SWAP = "single-swap"  # deck_family's one family: a value trained across it serves each of its decks


def deck_family(deck: Deck | None, options: Options | None = None) -> str | None:
    """:data:`SINGLE_SWAP` for a deck of one Controlled Study swap (R1.4) of the printed composition (R1.3) played
    under the base rules with every knob printed; None for every other deck (no swap, two or three swaps, a
    deck file of other cards, a rules option or a knob), which a bot's tables key by players and options alone."""
    opts = options if options is not None else Options()
    if deck is None or len(deck.removed) != 1 or opts.sleep_token or opts.shifting_tokens or opts.has_knobs:
        return None
    return SINGLE_SWAP if deck.cards == build_deck(None, deck.removed, deck.added).cards else None


def check_deck_fits(deck: Deck, players: int, setup_cards: int | None = None) -> None:
    """A deck must deal the Z cards of setup and fill the five positions (R2.2, R2.3).

    ``setup_cards`` is the number of cards setup takes before the Dreamscape:
    one Z card per seat as printed (the default), or what the rules knobs
    ``start-z`` and ``remove`` make it (:meth:`simcore.games.dreamscape.rules.Options.setup_cards`).
    """
    needed = (players if setup_cards is None else setup_cards) + N_POSITIONS
    if len(deck) < needed:
        raise DeckError(
            f"{deck.source}: deck of {len(deck)} cards is too small to set up "
            f"{players} player(s) (needs at least {needed})"
        )
