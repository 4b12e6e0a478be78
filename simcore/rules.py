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


class Options(NamedTuple):
    """Rules options chosen before the game (R6.8 toggle, R9)."""

    sleep_token: bool = False
    shifting_tokens: bool = False

    def label(self) -> str:
        parts = [name.replace("_", "-") for name, on in self._asdict().items() if on]
        return "+".join(parts) if parts else "base"
