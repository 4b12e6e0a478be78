"""Counting Zzzzs: constants, the typed card set, the setup (TAG's Parameters) and bot specs.

Plain Python shared by both engines (:mod:`.reference`, :mod:`.fast`) and the bots (:mod:`.bots`).
Rule ids (Z1, Z7, ...) refer to ``interpretations.md`` in this package.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.games.botspec import Bot, BotNotation

NAME = "counting-zzzzs"
TITLE = "Counting Zzzzs"
SEAT_COUNTS = (2, 3, 4)
PACKAGE_DIR = Path(__file__).resolve().parent
SCENARIOS_DIR = PACKAGE_DIR / "scenarios"
CARDS_FILE = PACKAGE_DIR / "cards.toml"

# The rulebook's numbers: the defaults of the rules knobs (config.KNOBS, Z19); the engines read them from
# the Setup, never from here.
HAND_SIZE = 5                 # Z2.3, Z3.1: deal 5 cards, draw to fill the hand to 5
MIN_SCORED = 5                # Z14: a dream of fewer elements scores nothing (except at morning, Z16)
MAX_DREAM = 10                # Z8: the 10th element wakes the dreamer
WIN_POINTS = 40               # Z15
DREAM_CAP = 15                # the most elements a dream may hold under any knob (an option code's SLOT is 16)
# Z2: Wake Ups removed from the deck before shuffling, by player count (the rulebook's balance rule).
RULEBOOK_REMOVED = {2: 4, 3: 2, 4: 0}

ELEMENT_KINDS = ("person", "place", "thing", "verb")
THEMES = ("nightmare", "fantasy", "work", "domestic", "surreal")
ACTION_KINDS = ("wake up", "bender", "force", "block")
ACTION_TYPES = ("wake-up", "bender", "force", "block")     # the same as /no-ACTION words (restricted play)
WAKE_UP, BENDER, FORCE, BLOCK = range(4)
WAKES = ("self", "one opponent", "all")                   # Z9
WAKE_SELF, WAKE_ONE, WAKE_ALL = range(3)
BENDS = ("own dream", "theme", "type")                    # Z10
BEND_OWN, BEND_THEME, BEND_TYPE = range(3)
CANCELS = ("wake up", "bender", "force", "any")           # Z13
CANCEL_ANY = 3
# Force effects (Z11, Z12): 0 positive, 1 negative, 2 + t = the theme t for the next element.
FORCE_POSITIVE, FORCE_NEGATIVE, FORCE_THEME0 = 0, 1, 2
# Polarity classes of element cards (Z14).
NEUTRAL, POSITIVE, NEGATIVE, CONTEXT = range(4)
# Forced polarity of a context card in a dream (Z11).
UNFORCED, FORCED_POS, FORCED_NEG = range(3)

MAX_TYPES = 128               # card rows a file may give (array sizes of the fast engine)
MAX_COPIES = 40
MAX_TOTAL = 400               # physical cards in a deck
MAX_VALUE = 20
MAX_MODIFIERS = 256           # modifiers over the whole file

STRATEGIES = {
    "random": "uniform over the legal choices at every decision",
    "greedy": "scores each option by the change it makes to every dream's worth; blocks what hurts its own dream",
    "search": "search@K: K samples of the hidden cards (hands, deck, removed), every play played out by greedy",
}
DEFAULT_STRATEGY = "greedy"
DEFAULT_SEARCH_BUDGET = 8
MAX_SEARCH_BUDGET = 1000


class CZError(ValueError):
    """Every bad input to the Counting Zzzzs package: a one-line message naming the problem."""


@dataclass(frozen=True)
class CardSet:
    """A deck as typed arrays, one row per card of the file (elements first, then actions).

    Attributes (one entry per row ``c``)
    ----------
    names : card name.   element : True for element cards.   kind : ELEMENT_KINDS / ACTION_KINDS index.
    themes : bit mask over THEMES (elements).   polarity : NEUTRAL, POSITIVE, NEGATIVE or CONTEXT.
    plus, minus : a positive card's N in plus, a negative card's N in minus (so its value is -N),
    a context card's +a/-b as plus = a, minus = b.   effect : the action's WAKES / BENDS / CANCELS index,
    or the force effect (FORCE_POSITIVE, FORCE_NEGATIVE, FORCE_THEME0 + theme).   count : copies.
    modifiers : (card row, points, row of the card it needs) triples (Z14).
    """

    names: tuple[str, ...]
    element: tuple[bool, ...]
    kind: tuple[int, ...]
    themes: tuple[int, ...]
    polarity: tuple[int, ...]
    plus: tuple[int, ...]
    minus: tuple[int, ...]
    effect: tuple[int, ...]
    count: tuple[int, ...]
    modifiers: tuple[tuple[int, int, int], ...]
    source: str = "cards.toml"

    def __len__(self) -> int:
        return len(self.names)

    @property
    def total(self) -> int:
        return sum(self.count)

    def wake_up_cards(self) -> int:
        """Physical Wake Up cards in the file (Z2 removes some of them)."""
        return sum(n for c, n in enumerate(self.count) if not self.element[c] and self.kind[c] == WAKE_UP)

    def array(self) -> np.ndarray:
        """The fast engine's card table: rows ELEMENT, KIND, THEMES, POLARITY, PLUS, MINUS, EFFECT, COUNT."""
        return np.array([[int(e) for e in self.element], list(self.kind), list(self.themes), list(self.polarity),
                         list(self.plus), list(self.minus), list(self.effect), list(self.count)], dtype=np.int64)

    def modifier_array(self) -> np.ndarray:
        """(M, 3) int64: card, points, needed card; at least one row (-1 marks 'none' for numba's typing)."""
        rows = list(self.modifiers) or [(-1, 0, -1)]
        return np.array(rows, dtype=np.int64).reshape(-1, 3)

    def describe(self, c: int) -> str:
        """A card as people read it, e.g. ``Mom (person, +1)`` or ``Alarm Clock (wake up: one opponent)``."""
        if self.element[c]:
            pol = self.polarity[c]
            value = ("neutral", f"+{self.plus[c]}", f"-{self.minus[c]}", f"+{self.plus[c]}/-{self.minus[c]}")[pol]
            return f"{self.names[c]} ({ELEMENT_KINDS[self.kind[c]]}, {value})"
        return f"{self.names[c]} ({ACTION_KINDS[self.kind[c]]}: {effect_text(self, c)})"


def effect_text(cards: CardSet, c: int) -> str:
    k, e = cards.kind[c], cards.effect[c]
    if k == WAKE_UP:
        return WAKES[e]
    if k == BENDER:
        return BENDS[e]
    if k == BLOCK:
        return CANCELS[e]
    if e == FORCE_POSITIVE:
        return "positive"
    if e == FORCE_NEGATIVE:
        return "negative"
    return f"theme {THEMES[e - FORCE_THEME0]}"


@dataclass(frozen=True)
class Setup:
    """A configuration (TAG's Parameters): players 2-4, Wake Ups removed before shuffling (Z2.2), the cards,
    whether the removal is hidden (the variant ``hidden-removal``, Z2.2) and the rulebook's numbers as
    rules knobs (Z19): the goal (Z15), the hand size (Z2.3, Z3.1), the fewest elements a dream scores with
    on waking (Z14.1) and the elements that end a dream (Z8)."""

    players: int = 3
    removed: int = 2
    cards: CardSet | None = None
    hidden_removal: bool = False
    goal: int = WIN_POINTS
    hand: int = HAND_SIZE
    min_dream: int = MIN_SCORED
    max_dream: int = MAX_DREAM


BOTS = ("random", "greedy", "search")  # kind 0, 1, 2 of a Bot


NOTATION = BotNotation(BOTS, ACTION_TYPES, CZError, Setup, DEFAULT_SEARCH_BUDGET, MAX_SEARCH_BUDGET)
parse_bot = NOTATION.parse            # random, greedy, search@K, then any number of /no-ACTION; CZError naming the problem
check_strategy = NOTATION.check_strategy
check_run = NOTATION.check_run


# Per-game results (the contract's dict of arrays); END codes and WAKE causes.
END_FORTY, END_MORNING = 1, 2
CAUSES = ("card", "ten", "stuck", "morning")     # how a dream ended: Wake Up card, 10th element, no valid card, morning
CAUSE_CARD, CAUSE_TEN, CAUSE_STUCK, CAUSE_MORNING = range(4)


def empty_results(setup: Setup, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """The arrays play_games fills (see the package docstring for what each holds)."""
    p, e = setup.players, sum(setup.cards.element)
    return {
        "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
        "winner": np.zeros(n_games, np.int8),             # the winning seat, -1 when the win is shared
        "winners": np.zeros((n_games, p), np.int8),       # 1 for every seat sharing the win (Z15, Z16)
        "turns": np.zeros(n_games, np.int16),
        "end": np.zeros(n_games, np.int8),                # END_FORTY or END_MORNING
        "deck_left": np.zeros(n_games, np.int16),
        "score": np.zeros((n_games, p), np.int16),
        "dreams": np.zeros((n_games, p), np.int16),       # dreams ended (scored or not)
        "dream_elements": np.zeros((n_games, p), np.int16),   # elements in those dreams, summed
        "scored_dreams": np.zeros((n_games, p), np.int16),    # dreams that scored (5+ elements, or morning)
        "woke": np.zeros((n_games, p, len(CAUSES)), np.int16),  # dreams ended per cause
        "played": np.zeros((n_games, p, len(ACTION_KINDS)), np.int16),   # action cards played per kind
        "blocked": np.zeros((n_games, p, len(ACTION_KINDS)), np.int16),  # own actions cancelled by a block
        "element_scored": np.zeros((n_games, p, e), np.int8),  # copies of each element row in scored dreams
    }
