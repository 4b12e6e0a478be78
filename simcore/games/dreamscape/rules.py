"""Rule constants shared by both engines and everything that reads their output."""
from __future__ import annotations

from typing import NamedTuple

from simcore.games.dreamscape.cards import CODES

N_POSITIONS = 5  # R2.3: the Dreamscape has five positions, 1..5
DEFAULT_COSTS = (1, 2, 3, 4, 5)  # R2.3: cost k on position k
# R8.2: the printed chain chart, points for a run of 2, 3, ..., 14 cards (a run of 1 scores 0).
RULEBOOK_CHAIN = (2, 4, 6, 8, 10, 13, 16, 20, 24, 29, 34, 40, 46)
MAX_RUN = 256  # the longest run any deck can hold (decks.MAX_DECK_CARDS): chain tables cover 0..MAX_RUN


def rulebook_chain_step(length: int) -> int:
    """R8.2: the chart's increase from a run of ``length - 1`` to one of ``length`` cards (``length`` >= 3).

    +2 up to a run of 6, then each step size twice: +3, +3, +4, +4, ... (7 -> 13,
    8 -> 16, ..., 14 -> 46, and for a designer's longer runs 15 -> 53, 16 -> 60).
    """
    return 2 if length <= 6 else 3 + (length - 7) // 2


def chain_table(chain: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Run length 0..MAX_RUN -> points: the knob's values for runs of 2, 3, ..., then the rulebook's steps.

    ``()`` is the rulebook (R8.2). A run of 0 or 1 card scores 0 whatever the knob.
    """
    table = [0, 0]
    for length in range(2, MAX_RUN + 1):
        i = length - 2
        if i < len(chain):
            table.append(chain[i])
        elif length == 2:
            table.append(RULEBOOK_CHAIN[0])
        else:
            table.append(table[-1] + rulebook_chain_step(length))
    return tuple(table)
TURN_CAP = 1000  # R8.4 safety cap
MIN_PLAYERS, MAX_PLAYERS = 1, 4  # R2.1 (1 = Virtual Dreaming, R10)
# The rulebook's other numbers (docs/guide/knobs.md lists them all): the printed values, each the
# default of the knob named beside it (KNOBS).
PHASE1_Z = 1  # R4.1: Z cards Phase 1 may take (knob take-z)
RESERVED_COST = 1  # R5.1, R6.4: a ready reserved card is bought for 1 (knob reserve-cost)
MIN_BUYS = 1  # R5.2: purchases a turn must make when one is affordable (knob min-buys)
MIN_Z_KEPT = 1  # R3.2: a player never goes below 1 Z card (knob z-floor)
NIGHT_TERROR_MIN_Z = MIN_Z_KEPT + 1  # R6.3: the opponent discards a Z card only holding 2 or more (R3.2)
NIGHT_TERROR_Z = 1  # R6.3, R10.3: Z cards Night Terror makes its target discard (knob terror-z)
PERFECT_RESPITE_Z = 1  # R6.5: Z cards taken from the Sleep Deck (knob respite-z)
PARADIGM_SHIFT_MAX_DISCARD = 2  # R6.11: Dreamscape cards discarded, 0 to 2 (knob paradigm-max)
SLEEP_TOKEN_POINT = 1  # R9: budget the token's "point" side adds for the turn (knob token-point)
SLEEP_TOKEN_DISCARD_MIN_Z = MIN_Z_KEPT + 1  # R9: the "discard" side needs 2 or more Z cards (R3.2)
MAX_COPIES = 8  # knob copies: most copies of one card (pair of types); the printed deck has 1 or 2 (R1.3)

# Decision kinds of the protocol (conformance/FORMAT.md) with stable ids for arrays.
DECISION_KINDS: tuple[str, ...] = (
    "sleep_token",
    "take_z",
    "buy",
    "perform",
    "floating_free",
    "interrupted_sleep",
    "night_terror",
    "night_terror_spent",
    "lucid_dreaming",
    "collective_dream",
    "shifting_dreams",
    "shifting_tokens",
    "invasive_dreaming",
    "empowered_dreaming",
    "paradigm_shift",
    "target_discard",
    "solo_discard_order",
)
DECISION_ID = {kind: i for i, kind in enumerate(DECISION_KINDS)}

# R10.5: the rulebook's score bands for Virtual Dreaming, as (low, high, label).
SOLO_BANDS: tuple[tuple[float, float, str], ...] = (
    (float("-inf"), 14, "under 15"),
    (15, 24, "15-24"),
    (25, 34, "25-34"),
    (35, 44, "35-44"),
    (45, 54, "45-54"),
    (55, float("inf"), "55+"),
)


def solo_band(score: float) -> str:
    """The R10.5 band a solo score falls in."""
    for low, high, label in SOLO_BANDS:
        if score <= high:
            return label
    return SOLO_BANDS[-1][2]


def copies_text(a: int, b: int, n: int) -> str:
    """One entry of the copies knob, ``FF/SD:2`` (R1.1 codes)."""
    return f"{CODES[a]}/{CODES[b]}:{n}"


class KnobError(ValueError):
    """A rules knob value outside its documented range, or not fitting the seat count."""


class Knob(NamedTuple):
    """One rules knob: a number the rulebook fixes that a designer may change.

    Attributes
    ----------
    token : str
        Its name in the variant notation (``knob:TOKEN=VALUE``).
    field : str
        The :class:`Options` field holding it.
    rule : str
        The rule id of shared/rules/interpretations.md it changes.
    low, high : int
        The documented range (inclusive) of each value.
    per_seat : bool
        True: one value per seat (seat 1 first), or one value for every seat.
    default : int or tuple of int
        The rulebook's value (a tuple for a list knob).
    meaning : str
        One line for help texts and the README.
    values : tuple of int
        How many values a list knob takes, (fewest, most); ``(1, 1)`` for a
        knob of one value and for a per-seat knob (1 to 4 values).
    """

    token: str
    field: str
    rule: str
    low: int
    high: int
    per_seat: bool
    default: int | tuple[int, ...]
    meaning: str
    values: tuple[int, int] = (1, 1)


# The knobs a designer reaches for first against seat advantage and the Z-card
# rush. Defaults are the rulebook; with every knob at its default both engines
# play the printed game bit for bit.
#
# costs (R2.3): the market cost of positions 1..5, each 1..10. At least 1: R5.1
# buys by paying Z cards (R3.1), a free card would make the market a give-away
# (and the bots' features read cost 0 as "no position", a reserved card); at
# most 10, twice the printed top cost, already beyond most budgets. R6.8's cost-token variant
# moves the printed tokens 1..5, so the knob and shifting-tokens together are
# refused (a knob combined with a variant that fixes the same number). R7.1
# slides the cards left to "the cheapest positions": with equal costs the lower
# position counts as cheaper (R2.3 numbers the positions by rising cost), and
# the R7.2 refill goes most expensive first by the same order reversed; the
# setup fill stays positions 5..1 (R2.3). Costs need not rise with the
# position: the slide and refill follow the costs, not the position numbers.
#
# chain (R8.2): points for a run of 2, 3, ... cards, 1 to 20 values of 0..200,
# never falling (a longer run of a type never scores less than the shorter run
# it grew from, as in the printed chart, so putting a card on a run never costs
# points). Longer runs continue with the rulebook's steps (R8.2: +2 up to 6
# cards, then +3, +3, +4, +4, ...: rulebook_chain_step). A run of 1 scores 0.
KNOBS: tuple[Knob, ...] = (
    Knob("start-z", "start_z", "R2.2", 0, 3, True, 1, "Z cards dealt to each seat at setup"),
    Knob("bonus", "bonus", "R8.2", 0, 10, True, 0, "points added to each seat's final score"),
    Knob("z-penalty", "z_penalty", "R8.2", 0, 3, False, 1, "points lost per Z card at the end"),
    Knob("max-buys", "max_buys", "R5.2", 1, 5, False, 0, "most purchases per turn (default: no limit)"),
    Knob("remove", "removed", "R2.2", 0, 20, False, 0, "cards removed unseen from the shuffled Sleep Deck before dealing"),
    Knob("costs", "costs", "R2.3", 1, 10, False, DEFAULT_COSTS, "market cost of positions 1..5", (5, 5)),
    Knob("chain", "chain", "R8.2", 0, 200, False, RULEBOOK_CHAIN, "chain points for a run of 2, 3, ... cards (longer runs: the rulebook's steps)", (1, 20)),
    Knob("take-z", "take_z", "R4.1", 0, 3, False, PHASE1_Z, "Z cards Phase 1 may take (0: no Phase 1)"),
    Knob("reserve-cost", "reserve_cost", "R5.1", 1, 5, False, RESERVED_COST, "cost of a ready reserved card"),
    Knob("min-buys", "min_buys", "R5.2", 0, 1, False, MIN_BUYS, "purchases a turn must make while one is affordable"),
    Knob("reserve-limit", "reserve_limit", "R6.4", 1, 5, False, 0, "most cards a seat may hold reserved (default: no limit)"),
    Knob("z-floor", "z_floor", "R3.2", 0, 3, False, MIN_Z_KEPT, "Z cards an effect never takes from a player"),
    Knob("terror-z", "terror_z", "R6.3", 1, 3, False, NIGHT_TERROR_Z, "Z cards Night Terror makes its target discard (solo: its own, R10.3)"),
    Knob("respite-z", "respite_z", "R6.5", 0, 3, False, PERFECT_RESPITE_Z, "Z cards Perfect Respite takes"),
    Knob("paradigm-max", "paradigm_max", "R6.11", 0, 2, False, PARADIGM_SHIFT_MAX_DISCARD, "most Dreamscape cards Paradigm Shift discards"),
    Knob("token-point", "token_point", "R9", 1, 3, False, SLEEP_TOKEN_POINT, "budget the Sleep Token's point side adds (needs sleep-token)"),
    Knob("copies", "copies", "R1.3", 0, MAX_COPIES, False, (), "copies of a card in the deck file: XX/YY:N, ... (0 takes it out)", (1, 28)),
)
KNOB_BY_TOKEN = {k.token: k for k in KNOBS}
RULEBOOK_CHAIN_TABLE = chain_table()
RULE_FLAGS = ("sleep_token", "shifting_tokens")  # the two on/off options (R9, R6.8 variant)


class Options(NamedTuple):
    """Rules chosen before the game: the R6.8 toggle, R9, and the rules knobs (:data:`KNOBS`).

    A per-seat knob holds ``()`` (the rulebook's value for every seat), one
    value (every seat) or one value per seat, seat 1 first. ``max_buys`` 0
    means no limit (R5.2 as printed).
    """

    sleep_token: bool = False
    shifting_tokens: bool = False
    start_z: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()
    z_penalty: int = 1
    max_buys: int = 0
    removed: int = 0
    costs: tuple[int, ...] = ()  # () = DEFAULT_COSTS (R2.3)
    chain: tuple[int, ...] = ()  # () = the rulebook's chart (R8.2); else runs of 2, 3, ... (chain_table)
    take_z: int = PHASE1_Z
    reserve_cost: int = RESERVED_COST
    min_buys: int = MIN_BUYS
    reserve_limit: int = 0  # 0 = no limit (R6.4 as printed)
    z_floor: int = MIN_Z_KEPT
    respite_z: int = PERFECT_RESPITE_Z
    terror_z: int = NIGHT_TERROR_Z
    paradigm_max: int = PARADIGM_SHIFT_MAX_DISCARD
    token_point: int = SLEEP_TOKEN_POINT
    copies: tuple[tuple[int, int, int], ...] = ()  # (type a, type b, copies), a < b, sorted: deck file overrides (R1.3)

    def flags(self) -> dict[str, bool]:
        """The two on/off options, as scenario files write them (conformance/FORMAT.md)."""
        return {name: bool(getattr(self, name)) for name in RULE_FLAGS}

    def knob_tokens(self) -> list[str]:
        """The knobs away from the rulebook, as variant tokens (``knob:start-z=0,1,1``), in :data:`KNOBS` order."""
        out = []
        for k in KNOBS:
            value = getattr(self, k.field)
            if k.token == "copies":
                if value:
                    out.append(f"knob:{k.token}=" + ",".join(copies_text(a, b, n) for a, b, n in value))
            elif k.values != (1, 1):
                if value:  # canonical: () at the rulebook's values (variants.parse_knob)
                    out.append(f"knob:{k.token}=" + ",".join(str(v) for v in value))
            elif k.per_seat:
                if value and any(v != k.default for v in value):
                    out.append(f"knob:{k.token}=" + ",".join(str(v) for v in value))
            elif value != k.default:
                out.append(f"knob:{k.token}={value}")
        return out

    @property
    def has_knobs(self) -> bool:
        return bool(self.knob_tokens())

    def seat_values(self, field: str, players: int) -> tuple[int, ...]:
        """A per-seat knob's value for each of ``players`` seats; raises :class:`KnobError` if it does not fit."""
        k = next(k for k in KNOBS if k.field == field)
        value = getattr(self, field)
        if not value:
            return (k.default,) * players
        if len(value) == 1:
            return tuple(value) * players
        if len(value) != players:
            raise KnobError(
                f"knob:{k.token} gives {len(value)} values but the game has {players} seat(s): "
                f"give one value or one per seat"
            )
        return tuple(value)

    def check_fits(self, players: int) -> None:
        """Raise :class:`KnobError` unless every per-seat knob fits ``players`` seats."""
        for k in KNOBS:
            if k.per_seat:
                self.seat_values(k.field, players)

    def market_costs(self) -> tuple[int, ...]:
        """The cost on positions 1..5 at setup (R2.3, knob costs)."""
        return self.costs or DEFAULT_COSTS

    def chain_table(self) -> tuple[int, ...]:
        """Run length 0..MAX_RUN -> chain points (R8.2, knob chain)."""
        return chain_table(self.chain) if self.chain else RULEBOOK_CHAIN_TABLE

    def setup_cards(self, players: int) -> int:
        """Cards setup takes from the shuffled deck before the Dreamscape: removed ones, then Z cards (R2.2)."""
        return self.removed + sum(self.seat_values("start_z", players))

    def final_score(self, chain: int, z_cards: int, seat: int, players: int) -> int:
        """R8.2 with the knobs: chain points - z_penalty per Z card + the seat's bonus."""
        bonus = self.seat_values("bonus", players)[seat] if self.bonus else 0
        return chain - self.z_penalty * z_cards + bonus

    def label(self) -> str:
        parts = [name.replace("_", "-") for name in RULE_FLAGS if getattr(self, name)]
        parts += self.knob_tokens()
        return "+".join(parts) if parts else "base"
