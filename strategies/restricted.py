"""Restricted play (Jaffe et al., AIIDE 2012): a bot forbidden one dream type.

``restricted(NAME, type, "buy")`` registers NAME's bot that never buys a card
showing that dream type; ``restricted(NAME, type, "perform")`` the one that
never chooses that type when performing a card. The restriction is a wrapper
around NAME's score: a forbidden option loses :data:`PENALTY` points, so it
is taken only when every legal option is forbidden (R11: the bot must still
pick a legal one; "never buy" then means stopping, which R5.2 allows after a
first purchase, otherwise the bot buys its best forbidden card) and, among
forbidden options, the inner bot's order stands.

What counts (rule ids of shared/rules/interpretations.md):

* buy: a purchase (R5.1) of a face-up Dreamscape card or of a ready reserved
  card whose two types include the type. A face-down card shows no type and
  becomes a Z card (R5.4), so buying it is allowed; "stop" is always allowed.
* perform: the ``perform`` decision (R5.3, and every nested performance of
  R6) choosing that type. A card's two types differ (R1.2), so the other
  type is always there.

NAME is a linear bot (``linear``, ``linear:FILE.toml``; its weights are
baked into the wrapper, cached on disk by numba) or any strategy the engine
calls (a ``path.py:function`` or built-in function bot, called through its
compiled cfunc; compiled once per run). Rollout and search players play
inside the engine and cannot be wrapped.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.cards import CODES, DreamType
from simcore.fast.layout import F_ARG, F_PERFORM_BASE, F_POS_COST, H_DS_CARD, H_DS_DOWN, H_N_CARDS, HEADER, N_FEATURES, off_res
from simcore.fast.scratch import MODE_CALL, MODE_LINEAR
from simcore.fast.strategies import ALL_KINDS, get_record, register
from simcore.rules import DECISION_ID
from strategies.errors import StrategyError

BUY = DECISION_ID["buy"]
PERFORM = DECISION_ID["perform"]
RESTRICTIONS = ("buy", "perform")
FORBID_BUY, FORBID_PERFORM = 0, 1
PENALTY = 1.0e6  # far beyond any score a bot gives (scores are points, features are small counts)


@njit(cache=True)
def forbidden(kind, seat, features, state, t, what):
    """True when the option buys a card showing type ``t`` (what 0) or performs ``t`` (what 1)."""
    if what == FORBID_PERFORM:
        return kind == PERFORM and features[F_PERFORM_BASE + t] != 0.0
    if kind != BUY or features[F_ARG] < 0.0:  # not a buy, or "stop"
        return False
    if features[F_POS_COST] > 0.0:  # a Dreamscape position (costs are 1..5); a reserved card names none
        p = np.int64(features[F_ARG]) - 1
        if state[H_DS_DOWN + p] != 0:  # R5.4: a Z card, no type shown
            return False
        card = state[H_DS_CARD + p]
    else:
        card = state[off_res(state, seat) + np.int64(features[F_ARG])]
    mask = state[HEADER + 2 * state[H_N_CARDS] + card]  # the card's two types as bits (layout)
    return (mask >> t) & 1 != 0


def restricted_name(name: str, dream: int, what: str) -> str:
    """The registered name of NAME's bot restricted from ``dream`` (``linear!no-buy:FF``)."""
    return f"{name}!no-{what}:{CODES[dream]}"


def _linear_wrapper(weights: np.ndarray, t: int, what: int):
    w = np.array(weights, dtype=np.float64)

    def restricted_linear(kind, seat, features, state):
        total = 0.0
        for j in range(N_FEATURES):  # the engine's MODE_LINEAR sum, in slot order from 0.0
            total += w[j] * features[j]
        if forbidden(kind, seat, features, state, t, what):
            total -= PENALTY
        return total

    return restricted_linear


def _call_wrapper(inner, t: int, what: int):
    def restricted_call(kind, seat, features, state):
        total = inner(kind, seat, features, state)
        if forbidden(kind, seat, features, state, t, what):
            total -= PENALTY
        return total

    return restricted_call


def restricted(name: str, dream: int, what: str) -> str:
    """Register (once) NAME's bot forbidden to buy or to perform ``dream``; returns its name.

    Raises
    ------
    StrategyError
        ``what`` is not "buy" or "perform", or NAME is a rollout/search player.
    """
    if what not in RESTRICTIONS:
        raise StrategyError(f"restriction must be one of {', '.join(RESTRICTIONS)}, got {what!r}")
    dream = int(DreamType(dream))
    out = restricted_name(name, dream, what)
    try:
        get_record(out)
        return out
    except KeyError:
        pass
    record = get_record(name)
    code = FORBID_BUY if what == "buy" else FORBID_PERFORM
    if record.mode == MODE_LINEAR:
        fn = _linear_wrapper(record.weights, dream, code)
        decides = None
    elif record.mode == MODE_CALL:
        fn = _call_wrapper(record.compiled, dream, code)
        mask = record.decides | (1 << BUY) | (1 << PERFORM)
        decides = None if mask == ALL_KINDS else [k for k in range(ALL_KINDS.bit_length()) if mask >> k & 1]
    else:
        raise StrategyError(f"strategy {name!r} plays inside the engine (rollout/search) and cannot be restricted")
    register(out, fn, f"{name} never {'buying a card showing' if what == 'buy' else 'performing'} {DreamType(dream).name}",
             decides=decides)
    return out
