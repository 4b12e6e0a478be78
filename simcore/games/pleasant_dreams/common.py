"""Pleasant Dreams: constants, the card list, the setup (TAG's Parameters) and bot specs.

Everything here is plain Python shared by both engines (:mod:`.reference`, :mod:`.fast`).
Rule ids (P1, P2.3, ...) refer to ``interpretations.md`` in this package.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from simcore.files import read_toml_file, shown


NAME = "pleasant-dreams"
TITLE = "Pleasant Dreams"
SEAT_COUNTS = (1, 2)
ACTION_TYPES = ("barrier", "premonition", "deep-sleep", "shimmer", "dream-compass",
                "mirror", "suppression", "recurring-dreams")
# Action type ids (P7): the index in ACTION_TYPES.
BARRIER, PREMONITION, DEEP_SLEEP, SHIMMER, COMPASS, MIRROR, SUPPRESSION, RECURRING = range(8)
COPIES_PER_ACTION = 2            # P7.1: 16 action cards, two of each type
WAKE_LIMIT = 5                   # P3.1: a token on 5 wakes the player up
MAX_FLOW = 5                     # P4.1: a dream flow is 1 to 5 cards
MAX_CARDS = 30                   # largest card list a file may give (array sizes of the fast engine)
MAX_START = WAKE_LIMIT - 1
PREMONITION_SHOWS = 3            # P8.1: Premonition shows the top three cards
FLIP_EXTRA = 1                   # P5.2: a flip takes one more point off
LUCID_DEAL = 2                   # P7.2: Lucid Dreams deals two action cards to each player
PACKAGE_DIR = Path(__file__).resolve().parent
SCENARIOS_DIR = PACKAGE_DIR / "scenarios"
CARDS_FILE = PACKAGE_DIR / "cards.toml"

# Faces (P1.3): side 0 is the front, side 1 the back. Symbols of a face:
FLIP, CROSS, EQUAL = 0, 1, 2
SYMBOL_NAMES = ("flip", "cross", "equal")


class PDError(ValueError):
    """Every bad input to the Pleasant Dreams package: a one-line message naming the problem."""


class Knob(NamedTuple):
    """One rules knob (P11): a number the rulebook prints that a designer may change (``knob:TOKEN=VALUE``).

    ``field`` is the :class:`Setup` field holding it, ``low``..``high`` its range (inclusive), ``default``
    the rulebook's value."""

    token: str
    field: str
    rule: str
    low: int
    high: int
    default: int
    meaning: str


# The rulebook's numbers a designer may change (P11.1; the ranges are argued in P11.2). ``start`` is the
# variant ``start=N`` spelt as a knob (both at once: one line, exit 2, P11.3); parse_setup holds it below
# the wake knob's value, so its range here is only the widest. ``flow`` stops at the printed 5 because the
# turn decision's codes for Mirror and Premonition follow the flow sizes (P10.1).
KNOBS: tuple[Knob, ...] = (
    Knob("start", "start", "P2.2", 0, 9, 1, "wakefulness each seat starts on (below the waking value)"),
    Knob("wake", "wake_limit", "P3.1", 2, 10, WAKE_LIMIT, "wakefulness that wakes the player (loses at once)"),
    Knob("flow", "max_flow", "P4.1", 1, MAX_FLOW, MAX_FLOW, "most cards a dream flow may take"),
    Knob("flip", "flip_extra", "P5.2", 0, 4, FLIP_EXTRA, "extra wakefulness a flip takes off (floor 0)"),
    Knob("copies", "copies", "P7.1", 1, 4, COPIES_PER_ACTION, "copies of each of the 8 action types"),
    Knob("deal", "lucid_deal", "P7.2", 0, 8, LUCID_DEAL, "action cards Lucid Dreams deals to each player"),
    Knob("premonition", "premonition", "P8.1", 1, 10, PREMONITION_SHOWS, "cards Premonition shows from the top"),
)
KNOB_BY_TOKEN = {k.token: k for k in KNOBS}


@dataclass(frozen=True)
class CardList:
    """The dream fragment cards (P1.2): card ``c`` has ``names[c]``, and ``flip[c]`` says whether
    it is a two-faced flip card (front: flip symbol, back: cross symbol) or an equal card."""

    names: tuple[str, ...]
    flip: tuple[bool, ...]
    front: tuple[int, ...]
    back: tuple[int, ...]
    source: str = "cards.toml"

    def __len__(self) -> int:
        return len(self.names)

    def value(self, card: int, side: int) -> int:
        """Wakefulness change of ``card`` showing ``side`` (P1.3)."""
        return self.back[card] if side else self.front[card]

    def symbol(self, card: int, side: int) -> int:
        """FLIP, CROSS or EQUAL: the symbol on the face that shows (P1.3)."""
        if not self.flip[card]:
            return EQUAL
        return CROSS if side else FLIP

    def label(self, card: int, side: int) -> str:
        """A face as people read it, e.g. ``The Bear (-1 flip)``."""
        return f"{self.names[card]} ({self.value(card, side):+d} {SYMBOL_NAMES[self.symbol(card, side)]})"


def load_cards(path: str | os.PathLike | None = None) -> CardList:
    """Read and check a card list (TOML, see the shipped ``cards.toml``); None = the shipped list.

    Raises
    ------
    PDError
        One line naming the file and the problem.
    """
    file = Path(path) if path is not None else CARDS_FILE
    if not file.exists() and not file.is_symlink():
        raise PDError(f"card file {file}: no such file")
    # size, nesting and integer-length limits, a pipe read once (simcore.files); one line naming the file
    data = read_toml_file(file, "card file", PDError, label=f"card file {file}")
    cards = data.get("card")
    extra = sorted(set(data) - {"card"})
    if extra:
        raise PDError(f"card file {file}: unknown top-level key {shown(extra[0])} (only [[card]] tables)")
    if not isinstance(cards, list) or not cards:
        raise PDError(f"card file {file}: no [[card]] tables")
    names, flips, fronts, backs = [], [], [], []
    for i, card in enumerate(cards, 1):
        where = f"card file {file}: card {i}"
        if not isinstance(card, dict):
            raise PDError(f"{where}: not a table")
        name = card.get("name")
        if not isinstance(name, str) or not name.strip():
            raise PDError(f"{where}: needs a non-empty name")
        if name in names:
            raise PDError(f"{where}: name {shown(name)} used twice (give one table a count instead, P1.5)")
        symbol = card.get("symbol")
        keys = {"flip": {"name", "symbol", "front", "back"}, "equal": {"name", "symbol", "value"}}
        if symbol not in keys:
            raise PDError(f"{where} ({shown(name)[1:-1]}): symbol must be \"flip\" or \"equal\", not {shown(symbol)}")
        if set(card) - {"count"} != keys[symbol]:
            raise PDError(f"{where} ({shown(name)[1:-1]}): a {symbol} card has exactly the keys "
                          f"{', '.join(sorted(keys[symbol]))} (and optionally count)")
        count = card.get("count", 1)                 # P1.5: copies of one card (the printed deck repeats names)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_CARDS:
            raise PDError(f"{where} ({shown(name)[1:-1]}): count must be a whole number from 1 to {MAX_CARDS}, not {shown(count)}")
        values = [card[k] for k in (("front", "back") if symbol == "flip" else ("value",))]
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not -WAKE_LIMIT <= v <= WAKE_LIMIT:
                raise PDError(f"{where} ({shown(name)[1:-1]}): values are whole numbers from -5 to 5, not {shown(v)}")
        if len(names) + count > MAX_CARDS:
            raise PDError(f"card file {file}: more than {MAX_CARDS} cards (counts included)")
        for _ in range(count):
            names.append(name)
            flips.append(symbol == "flip")
            fronts.append(values[0])
            backs.append(values[-1])
    return CardList(tuple(names), tuple(flips), tuple(fronts), tuple(backs), source=str(file))


@dataclass(frozen=True)
class Setup:
    """Everything that fixes a configuration (TAG's Parameters), P2.

    players 1 or 2; expansion = the Lucid Dreams deal (P7.2); start = starting wakefulness (P2.2);
    actions = solo challenge, deal this many random action cards from all 16 (-1 = the rules' default,
    P7.3); cards = the fragment cards; public_backs = the variant where both faces of every card are
    known from the start (P9.5); hand = the solo player's chosen action cards, a count per type (P7.5).
    The rules knobs (P11, :data:`KNOBS`): wake_limit (P3.1), max_flow (P4.1), flip_extra (P5.2), copies
    (P7.1), lucid_deal (P7.2), premonition (P8.1); their defaults are the rulebook's.
    """

    players: int = 2
    expansion: bool = False
    start: int = 1
    actions: int = -1
    cards: CardList | None = None
    public_backs: bool = False
    hand: tuple[int, ...] | None = None
    wake_limit: int = WAKE_LIMIT
    max_flow: int = MAX_FLOW
    flip_extra: int = FLIP_EXTRA
    copies: int = COPIES_PER_ACTION
    lucid_deal: int = LUCID_DEAL
    premonition: int = PREMONITION_SHOWS

    def dealt_at_random(self) -> int:
        """How many action cards each seat draws at random from all the action cards; -1 = barrier +
        premonition."""
        if self.actions >= 0:
            return self.actions
        return self.lucid_deal if self.expansion else -1

    def action_cards(self) -> int:
        """All the action cards (P7.1): ``copies`` of each type."""
        return len(ACTION_TYPES) * self.copies


_DEFAULT_CARDS: list[CardList] = []


def default_cards() -> CardList:
    """The shipped card list, read once."""
    if not _DEFAULT_CARDS:
        _DEFAULT_CARDS.append(load_cards(None))
    return _DEFAULT_CARDS[0]


VARIANT_HELP = "base, lucid, start=N, actions=N, hand=A,B,.., public-backs, knob:NAME=VALUE"


def parse_knob(token: str, where: str) -> tuple[Knob, int]:
    """``knob:NAME=VALUE`` as (knob, value), the value inside the knob's range (P11); PDError otherwise."""
    name, sep, raw = token[len("knob:"):].partition("=")
    k = KNOB_BY_TOKEN.get(name.strip())
    if k is None:
        raise PDError(f"{where}: unknown knob {name.strip()[:40]!r} (known: {', '.join(x.token for x in KNOBS)})")
    raw = raw.strip()
    if not sep or not raw:
        raise PDError(f"{where}: knob {k.token} needs a value, e.g. knob:{k.token}={k.default}")
    if not re.fullmatch(r"[0-9]{1,6}", raw):
        raise PDError(f"{where}: knob {k.token} value {raw[:40]!r} is not a whole number from {k.low} to {k.high}")
    value = int(raw)
    if not k.low <= value <= k.high:
        raise PDError(f"{where}: knob {k.token} value {value} is outside {k.low}..{k.high} ({k.rule}: {k.meaning})")
    return k, value


def parse_setup(players: int, variant: str = "base", cards: CardList | None = None) -> Setup:
    """A Setup from a player count and the variant notation ("base", "lucid", "start=N", "actions=N",
    "hand=A,B,..", "public-backs", "knob:NAME=VALUE" (P11), joined by "+"). PDError on anything else."""
    if isinstance(players, bool) or not isinstance(players, int) or players not in SEAT_COUNTS:
        raise PDError(f"players must be 1 (solo) or 2, not {players!r}")
    if not isinstance(variant, str) or not variant.strip():
        raise PDError("variant is empty (use base, lucid, start=N, actions=N joined by +)")
    if cards is not None and not isinstance(cards, CardList):
        raise PDError("cards must come from load_cards")
    where = f"variant {variant.strip()[:80]!r}"
    expansion, seen, public_backs, hand_part = False, set(), False, None
    knobs: dict[str, int] = {}           # Setup field -> value, from knob:NAME=VALUE or start=N / actions=N
    set_by: dict[str, str] = {}          # Setup field -> the token that set it
    for part in variant.strip().split("+"):
        part = part.strip()
        m = re.fullmatch(r"(start|actions)=(-?\d+)", part)
        key = m.group(1) if m else part.partition("=")[0] if part.startswith(("hand=", "knob:")) else part
        if part.startswith("knob:"):
            k, value = parse_knob(part, where)
            field, label = k.field, f"knob:{k.token}"
        elif m:
            field, value, label = key, int(m.group(2)), f"{key}=N"
        else:
            field = None
        if field is not None:
            if field in set_by:
                raise PDError(f"{where}: {label} appears twice" if label == set_by[field] else
                              f"{where}: {label} and {set_by[field]} both set the same number: "
                              "a knob combined with a variant that fixes the same number")
            knobs[field], set_by[field] = value, label
            continue
        if key in seen:
            raise PDError(f"{where}: {key} given twice")
        seen.add(key)
        if part == "base":
            continue
        if part == "lucid":
            expansion = True
        elif part == "public-backs":                 # P9.5: both faces of every card known (a variant)
            public_backs = True
        elif key == "hand":                          # P7.5: the solo challenge with chosen cards
            hand_part = part[5:]
        else:
            raise PDError(f"{where}: unknown part {part[:40]!r} ({VARIANT_HELP})")
    if "base" in seen and len(seen) > 1 and "lucid" in seen:
        raise PDError(f"{where}: base and lucid exclude each other")
    wake_limit = knobs.get("wake_limit", WAKE_LIMIT)
    start = knobs.get("start", 1)
    copies = knobs.get("copies", COPIES_PER_ACTION)
    actions = knobs.get("actions", -1)
    total = len(ACTION_TYPES) * copies
    hand = parse_hand(variant, hand_part, copies) if hand_part is not None else None
    if not 0 <= start < wake_limit:                  # P2.2, P3.1: a seat on the waking value is awake already
        raise PDError(f"{where}: start must be 0 to {wake_limit - 1} ({wake_limit} is awake), not {start}")
    if "actions" in knobs and not 0 <= actions <= total:
        raise PDError(f"{where}: actions must be 0 to {total}, not {actions}")
    if actions >= 0 and players != 1:
        raise PDError(f"{where}: actions=N is the solo challenge and needs 1 player")
    if actions >= 0 and expansion:
        raise PDError(f"{where}: actions=N already deals from all {total} cards; drop lucid")
    if hand is not None and players != 1:
        raise PDError(f"{where}: hand=.. is the solo challenge and needs 1 player")
    if hand is not None and (expansion or actions >= 0):
        raise PDError(f"{where}: hand=.. chooses the cards; drop lucid and actions=N")
    if "lucid_deal" in knobs and "actions" in knobs:   # P11.3: both count the action cards dealt at random
        raise PDError(f"{where}: knob:deal and actions=N both set the action cards dealt: a knob combined with "
                      "a variant that fixes the same number")
    if "lucid_deal" in knobs and not expansion:      # P7.2: the number is the Lucid Dreams deal's
        raise PDError(f"{where}: knob deal is the Lucid Dreams deal (P7.2); add lucid (solo without it: actions=N)")
    if expansion and players * knobs.get("lucid_deal", LUCID_DEAL) > total:
        raise PDError(f"{where}: {players} players x {knobs.get('lucid_deal', LUCID_DEAL)} action cards is more "
                      f"than the {total} action cards (knob copies={copies})")
    if not expansion and actions < 0 and hand is None and copies < players:   # P2.4: one Barrier and one
        raise PDError(f"{where}: knob copies={copies} leaves too few Barriers and Premonitions for "   # Premonition
                      f"{players} players (each holds one, P2.4)")                                      # each
    fields = {k: v for k, v in knobs.items() if k not in ("start", "actions")}
    return Setup(players, expansion, start, actions, cards if cards is not None else default_cards(),
                 public_backs, hand, **fields)


def parse_hand(variant: str, text: str, copies: int = COPIES_PER_ACTION) -> tuple[int, ...]:
    """``barrier,shimmer,shimmer`` -> a count per action type; at most the ``copies`` of each (P7.1, P7.5)."""
    counts = [0] * len(ACTION_TYPES)
    names = [t.strip() for t in text.split(",")]
    for name in names:
        if name not in ACTION_TYPES:
            raise PDError(f"variant {variant!r}: hand: unknown action card {name!r} (known: {', '.join(ACTION_TYPES)})")
        counts[ACTION_TYPES.index(name)] += 1
        if counts[ACTION_TYPES.index(name)] > copies:
            raise PDError(f"variant {variant!r}: hand: {name} more than {copies} times (there are "
                          f"{copies} copies)")
    return tuple(counts)


def hand_text(hand: tuple[int, ...]) -> str:
    """A count per type -> ``barrier,shimmer,shimmer`` (ACTION_TYPES order, the canonical notation)."""
    return ",".join(a for t, a in enumerate(ACTION_TYPES) for _ in range(hand[t]))


def variant_name(setup: Setup) -> str:
    """The canonical variant notation of ``setup``; parse_setup(setup.players, it) gives it back. The
    starting wakefulness is written ``start=N`` however it was given; the other knobs away from the
    rulebook follow as ``knob:NAME=VALUE`` in :data:`KNOBS` order (P11)."""
    parts = ["lucid"] if setup.expansion else []
    if setup.start != 1:
        parts.append(f"start={setup.start}")
    if setup.actions >= 0:
        parts.append(f"actions={setup.actions}")
    if setup.hand is not None:
        parts.append(f"hand={hand_text(setup.hand)}")
    if setup.public_backs:
        parts.append("public-backs")
    for k in KNOBS:
        if k.token != "start" and getattr(setup, k.field) != k.default:
            parts.append(f"knob:{k.token}={getattr(setup, k.field)}")
    return "+".join(parts) or "base"


def empty_results(setup: Setup, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    p, a = setup.players, len(ACTION_TYPES)
    return {
        "game": np.arange(first_game, first_game + n_games, dtype=np.int64),
        "winner": np.zeros(n_games, np.int8),
        "turns": np.zeros(n_games, np.int16),
        "wake": np.zeros((n_games, p), np.int8),
        "deck_left": np.zeros(n_games, np.int16),
        "dealt": np.zeros((n_games, p, a), np.int8),
        "used": np.zeros((n_games, p, a), np.int8),
    }
