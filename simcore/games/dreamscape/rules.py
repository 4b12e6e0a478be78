"""Rule constants shared by both engines and everything that reads their output."""
from __future__ import annotations

from typing import NamedTuple

N_POSITIONS = 5  # R2.3: the Dreamscape has five positions, 1..5
DEFAULT_COSTS = (1, 2, 3, 4, 5)  # R2.3: cost k on position k
TURN_CAP = 1000  # R8.4 safety cap
MIN_PLAYERS, MAX_PLAYERS = 1, 4  # R2.1 (1 = Virtual Dreaming, R10)

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
    default : int
        The rulebook's value.
    meaning : str
        One line for help texts and the README.
    """

    token: str
    field: str
    rule: str
    low: int
    high: int
    per_seat: bool
    default: int
    meaning: str


# The knobs a designer reaches for first against seat advantage and the Z-card
# rush. Defaults are the rulebook; with every knob at its default both engines
# play the printed game bit for bit. The five position costs are deliberately
# not a knob: R6.8's cost-token variant and R7.1's slide order assume the
# costs are the tokens 1..5, so changing their values would change two more
# rules at once.
KNOBS: tuple[Knob, ...] = (
    Knob("start-z", "start_z", "R2.2", 0, 3, True, 1, "Z cards dealt to each seat at setup"),
    Knob("bonus", "bonus", "R8.2", 0, 10, True, 0, "points added to each seat's final score"),
    Knob("z-penalty", "z_penalty", "R8.2", 0, 3, False, 1, "points lost per Z card at the end"),
    Knob("max-buys", "max_buys", "R5.2", 1, 5, False, 0, "most purchases per turn (default: no limit)"),
    Knob("remove", "removed", "R2.2", 0, 20, False, 0, "cards removed unseen from the shuffled Sleep Deck before dealing"),
)
KNOB_BY_TOKEN = {k.token: k for k in KNOBS}
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

    def flags(self) -> dict[str, bool]:
        """The two on/off options, as scenario files write them (conformance/FORMAT.md)."""
        return {name: bool(getattr(self, name)) for name in RULE_FLAGS}

    def knob_tokens(self) -> list[str]:
        """The knobs away from the rulebook, as variant tokens (``knob:start-z=0,1,1``), in :data:`KNOBS` order."""
        out = []
        for k in KNOBS:
            value = getattr(self, k.field)
            if k.per_seat:
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
