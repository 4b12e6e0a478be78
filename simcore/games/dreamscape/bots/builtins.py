"""The built-in strategies, registered (as built-ins) on import.

Each hand-written bot is an ordinary strategy function of the public API
(``(kind, seat, features, state) -> float`` over the afterstate features of
:mod:`simcore.games.dreamscape.bots.features`), so it is exactly what a designer can write
themselves. ``random`` and ``greedy`` come from the engine
(:mod:`simcore.games.dreamscape.fast.strategies`); ``linear`` plays the shipped weights file;
``rollout`` is the engine's flat Monte Carlo player with the tuned linear bot
in its playouts. A user strategy cannot take any of these names.
"""
from __future__ import annotations

from pathlib import Path

from numba import njit

from simcore.games.dreamscape.fast.layout import CD, FF, IS, LD, NT, PR, RD  # dream type ids as plain ints (numba constants)
from simcore.games.dreamscape.fast.strategies import register_linear, register_rollout
from simcore.games.dreamscape.rules import DECISION_ID
from simcore.games.dreamscape.bots import features as F
from simcore.games.dreamscape.bots.expert import register_shipped
from simcore.games.dreamscape.bots.strong import register_shipped as register_shipped_strong
from simcore.games.dreamscape.bots.sharp import register_shipped as register_shipped_sharp
from simcore.games.dreamscape.bots.linear import read_weights
from simcore.games.dreamscape.bots.registry import compile_strategy

BUY = DECISION_ID["buy"]
TAKE_Z = DECISION_ID["take_z"]
SLEEP_TOKEN = DECISION_ID["sleep_token"]
PERFORM = DECISION_ID["perform"]
FLOATING_FREE = DECISION_ID["floating_free"]
NIGHT_TERROR = DECISION_ID["night_terror"]
LUCID = DECISION_ID["lucid_dreaming"]
INTERRUPTED = DECISION_ID["interrupted_sleep"]
COLLECTIVE = DECISION_ID["collective_dream"]
INVASIVE = DECISION_ID["invasive_dreaming"]
EMPOWERED = DECISION_ID["empowered_dreaming"]
PARADIGM = DECISION_ID["paradigm_shift"]

# Feature slots as plain ints (numba freezes them as constants).
DELTA, BUDGET_AFTER, BUDGET_NOW, COST = F.DELTA, F.BUDGET_AFTER, F.BUDGET_NOW, F.COST
TOP_A, TOP_B, OPEN_MAX = F.TOP_RUN_A, F.TOP_RUN_B, F.OPEN_RUN_MAX
DECK_FRACTION = F.DECK_FRACTION
LEADER, TARGET_Z, GAP, DENY = F.TARGET_IS_LEADER, F.TARGET_Z, F.TARGET_GAP, F.LEADER_DENY
ARG = F.ARG
PERF = F.PERFORM_BASE  # + dream type id


@njit(cache=True)
def wants_z(features) -> float:
    """A Z card is worth buying power while much of the game is left (it costs 1 point at the end)."""
    return 1.4 if features[BUDGET_NOW] <= 2.0 and features[DECK_FRACTION] > 0.25 else 0.0


def chain_builder(kind, seat, features, state):
    """Extends the longest open chains; keeps enough Z cards to reach the card it wants."""
    delta = features[DELTA]
    if kind == BUY or kind == FLOATING_FREE:
        longest = max(features[TOP_A], features[TOP_B])
        return delta + 0.45 * longest + 0.1 * features[OPEN_MAX] - 0.05 * features[COST]
    if kind == TAKE_Z:
        return delta + (1.4 if features[BUDGET_NOW] <= 2.0 and features[DECK_FRACTION] > 0.2 else 0.0) * features[ARG]
    if kind == SLEEP_TOKEN:
        return delta + 0.8 * (features[BUDGET_AFTER] - features[BUDGET_NOW])
    if kind == PERFORM:
        # Floating Free and Recurring Dream rebuild chains; Perfect Respite buys time early.
        return delta + 0.9 * features[PERF + FF] + 0.7 * features[PERF + RD] + 0.5 * features[PERF + CD] \
            + (1.2 * features[DECK_FRACTION]) * features[PERF + PR] + 0.3 * features[PERF + LD]
    return delta


def economist(kind, seat, features, state):
    """Buys Z cards while they pay for chains, and sheds them as the deck runs out."""
    delta = features[DELTA]
    late = 1.0 - features[DECK_FRACTION]
    if kind == TAKE_Z:
        value = 1.5 if features[BUDGET_NOW] <= 3.0 and features[DECK_FRACTION] > 0.3 else 0.2
        return delta + value * features[ARG]
    if kind == SLEEP_TOKEN:
        # Late in the game a discarded Z card is a sure point; early the point buys more.
        return delta * (0.5 + late) + 0.7 * (1.0 - late) * (features[BUDGET_AFTER] - features[BUDGET_NOW])
    if kind == BUY:
        return delta + 0.25 * max(features[TOP_A], features[TOP_B]) - 0.08 * features[COST] * late
    if kind == PERFORM:
        return delta + (1.3 * features[DECK_FRACTION]) * features[PERF + PR] + 0.6 * features[PERF + FF] \
            + 0.5 * features[PERF + RD] + 0.3 * features[PERF + CD]
    if kind == FLOATING_FREE:
        return delta + 0.3 * max(features[TOP_A], features[TOP_B])
    return delta


def spoiler(kind, seat, features, state):
    """Aims Night Terror, Lucid Dreaming and Interrupted Sleep at the leader."""
    delta = features[DELTA]
    if kind == PERFORM:
        return delta + 0.8 * features[PERF + NT] + 0.7 * features[PERF + LD] + 0.5 * features[PERF + IS] \
            + 0.6 * features[PERF + FF] + 0.5 * features[PERF + RD] + features[DECK_FRACTION] * features[PERF + PR]
    if kind == NIGHT_TERROR:
        return 2.0 * features[LEADER] + (1.0 if features[TARGET_Z] >= 2.0 else 0.0) + 0.1 * features[GAP]
    if kind == LUCID or kind == INTERRUPTED or kind == EMPOWERED or kind == PARADIGM:
        return delta + features[DENY]
    if kind == INVASIVE or kind == COLLECTIVE:
        return delta + features[LEADER] + 0.1 * features[GAP] + features[DENY]
    if kind == BUY or kind == FLOATING_FREE:
        return delta + 0.3 * max(features[TOP_A], features[TOP_B])
    if kind == TAKE_Z:
        return delta + wants_z(features) * features[ARG]
    return delta


# The kinds each bot tells options apart at; at every other kind it returns
# features[DELTA], which is 0 there (no immediate own-score change), so all
# options tie and the engine may skip the calls (register(decides=...)).
OWN_SCORE_KINDS = ["buy", "take_z", "sleep_token", "perform", "floating_free"]
SPOILER_KINDS = OWN_SCORE_KINDS + [
    "night_terror", "lucid_dreaming", "interrupted_sleep", "empowered_dreaming", "paradigm_shift",
    "invasive_dreaming", "collective_dream",
]
compile_strategy("chain", chain_builder, "chain builder: extends long chains, values open runs",
                 decides=OWN_SCORE_KINDS, builtin=True)
compile_strategy("economist", economist, "economist: Z cards as budget now vs penalty later",
                 decides=OWN_SCORE_KINDS, builtin=True)
compile_strategy("spoiler", spoiler, "spoiler: Night Terror, Lucid Dreaming, Interrupted Sleep aimed at the leader",
                 decides=SPOILER_KINDS, builtin=True)

# The linear bot with the shipped weights (written by `dreamscape tune`, see the file's header).
LINEAR_DEFAULT = Path(__file__).with_name("data") / "linear_default.toml"
_linear_name, LINEAR_WEIGHTS = read_weights(LINEAR_DEFAULT)
register_linear("linear", LINEAR_WEIGHTS,
                f"linear bot, weights tuned by CMA-ES ({_linear_name}); your own: linear:FILE.toml", builtin=True)
# Playouts with the tuned linear bot: greedy playouts never take a Z card and
# so misjudge every purchase that spends budget (measured: they lose to 'linear').
register_rollout("rollout", playouts=8, policy=LINEAR_WEIGHTS, builtin=True,
                 description="flat Monte Carlo at purchases: 8 playouts per option with the tuned linear bot")

# The expert bot: the shipped tables trained by `dreamscape train` (simcore/games/dreamscape/bots/data/expert/), one per
# player count and rules option; `expert` plays the table of the configuration being played.
register_shipped()

# The strong bot: a one-turn lookahead on the values trained by `dreamscape train --strategy strong`
# (simcore/games/dreamscape/bots/data/strong/), on top of the expert tables registered just above.
register_shipped_strong()

# The sharp bot: strong plus the linear correction per decision kind fitted on search's labels of strong's own
# decisions (simcore/games/dreamscape/bots/data/sharp/), where strong plays the value it was fitted on.
register_shipped_sharp()
