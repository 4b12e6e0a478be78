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

NAME is an expert bot (``expert``, ``expert:FILE.toml``), a linear bot
(``linear``, ``linear:FILE.toml``) or any strategy the engine calls (a
``path.py:function`` or built-in function bot, called through its compiled
cfunc; compiled once per run). Rollout and search players play inside the
engine and cannot be wrapped.

* linear: the weights are baked into the wrapper (cached on disk by numba,
  keyed on the weights), which sums them exactly as MODE_LINEAR does.
* expert: the table depends on the configuration (players, Sleep Token,
  Shifting Tokens: :func:`simcore.games.dreamscape.fast.strategies.weights_for`), so
  ``restricted`` takes the configuration and the registered name carries it
  (``expert!no-buy:FF@3p-base``): two configurations never share a wrapper.
  The wrapper scores exactly as MODE_EXPERT (:func:`expert_total`: the row
  of the decision kind and phase, summed in slot order from 0.0) and is not
  called at the two Shifting kinds, where the expert's options all tie
  (the engine then draws ``below(n)``, as MODE_EXPERT does).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from simcore.games.dreamscape.cards import CODES, DreamType
from simcore.games.dreamscape.fast.layout import (
    F_ARG,
    F_DECK_FRACTION,
    F_PERFORM_BASE,
    F_POS_COST,
    H_DS_CARD,
    H_DS_DOWN,
    H_N_CARDS,
    HEADER,
    N_FEATURES,
    off_res,
)
from simcore.games.dreamscape.fast.scratch import EXPERT_PHASES, MODE_CALL, MODE_EXPERT, MODE_LINEAR
from simcore.games.dreamscape.fast.strategies import ALL_KINDS, get_record, register, weights_for
from simcore.games.dreamscape.rules import DECISION_ID, Options
from simcore.games.dreamscape.bots.errors import StrategyError

BUY = DECISION_ID["buy"]
PERFORM = DECISION_ID["perform"]
SHIFTING_KINDS = (DECISION_ID["shifting_dreams"], DECISION_ID["shifting_tokens"])
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
    if features[F_POS_COST] > 0.0:  # a Dreamscape position (costs are 1..10, knob costs); a reserved card names none
        p = np.int64(features[F_ARG]) - 1
        if state[H_DS_DOWN + p] != 0:  # R5.4: a Z card, no type shown
            return False
        card = state[H_DS_CARD + p]
    else:
        card = state[off_res(state, seat) + np.int64(features[F_ARG])]
    mask = state[HEADER + 2 * state[H_N_CARDS] + card]  # the card's two types as bits (layout)
    return (mask >> t) & 1 != 0


@njit(cache=True)
def expert_total(table, kind, features):
    """MODE_EXPERT's score of one option: dot(table row of ``kind`` and the phase, features).

    The same operations in the same order as the engine
    (:func:`simcore.games.dreamscape.fast.scratch.expert_row`, :func:`simcore.games.dreamscape.fast.decisions.expert_score`):
    phase 0 while more than 2/3 of the Sleep Deck is left, 1 while more
    than 1/3, else 2; every slot summed in slot order from 0.0. The table
    is an argument, so this is compiled once for every table.
    """
    fraction = features[F_DECK_FRACTION]
    phase = 0 if fraction > 2.0 / 3.0 else (1 if fraction > 1.0 / 3.0 else 2)
    row = (kind * EXPERT_PHASES + phase) * N_FEATURES
    total = 0.0
    for j in range(N_FEATURES):
        total += table[row + j] * features[j]
    return total


def config_suffix(players: int, options: Options) -> str:
    """The configuration an expert table is chosen by, as a name suffix: ``3p-base``, ``2p-sleep-token``, ..."""
    flags = [f for f, on in (("sleep-token", options.sleep_token), ("shifting-tokens", options.shifting_tokens)) if on]
    return f"{int(players)}p-{'+'.join(flags) or 'base'}"


def restricted_name(name: str, dream: int, what: str, config: str = "") -> str:
    """The registered name of NAME's bot restricted from ``dream`` (``linear!no-buy:FF``).

    ``config`` (:func:`config_suffix`, expert bots only) is appended after
    ``@``: ``expert!no-buy:FF@3p-base``.
    """
    out = f"{name}!no-{what}:{CODES[dream]}"
    return f"{out}@{config}" if config else out


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


def _expert_wrapper(table: np.ndarray, t: int, what: int):
    tb = np.array(table, dtype=np.float64)  # a closure constant: numba caches one entry per (table, t, what)

    def restricted_expert(kind, seat, features, state):
        total = expert_total(tb, kind, features)
        if forbidden(kind, seat, features, state, t, what):
            total -= PENALTY
        return total

    return restricted_expert


def _call_wrapper(inner, t: int, what: int):
    def restricted_call(kind, seat, features, state):
        total = inner(kind, seat, features, state)
        if forbidden(kind, seat, features, state, t, what):
            total -= PENALTY
        return total

    return restricted_call


_EXPERT_TABLES: dict[str, np.ndarray] = {}  # registered expert wrapper -> the table baked into it


def restricted(name: str, dream: int, what: str, players: int | None = None, options: Options | None = None) -> str:
    """Register (once) NAME's bot forbidden to buy or to perform ``dream``; returns its name.

    Parameters
    ----------
    name : str
        A registered expert, linear or function strategy.
    dream : int
        The dream type (:class:`simcore.games.dreamscape.cards.DreamType`).
    what : str
        "buy" or "perform".
    players, options : optional
        The configuration played (options default to the base game). Needed
        for an expert bot, whose table depends on it; ignored otherwise.

    Raises
    ------
    StrategyError
        ``what`` is not "buy" or "perform", NAME is a rollout/search player,
        or NAME is an expert bot and ``players`` is not given.
    """
    if what not in RESTRICTIONS:
        raise StrategyError(f"restriction must be one of {', '.join(RESTRICTIONS)}, got {what!r}")
    dream = int(DreamType(dream))
    record = get_record(name)
    code = FORBID_BUY if what == "buy" else FORBID_PERFORM
    if record.mode == MODE_EXPERT:
        if players is None:
            raise StrategyError(f"restricting the expert bot {name!r} needs the configuration (players, options)")
        opts = options if options is not None else Options()
        table = weights_for(record, players, opts.sleep_token, opts.shifting_tokens)
        out = restricted_name(name, dream, what, config_suffix(players, opts))
        known = _EXPERT_TABLES.get(out)
        if known is not None and np.array_equal(known, table):
            return out  # registered with this very table (an expert:FILE re-read with another gets a new wrapper)
        register(out, _expert_wrapper(table, dream, code), _description(name, dream, what) + f" ({config_suffix(players, opts)})",
                 decides=[k for k in range(ALL_KINDS.bit_length()) if k not in SHIFTING_KINDS])
        _EXPERT_TABLES[out] = np.array(table, dtype=np.float64)
        return out
    out = restricted_name(name, dream, what)
    try:
        get_record(out)
        return out
    except KeyError:
        pass
    if record.mode == MODE_LINEAR:
        fn = _linear_wrapper(record.weights, dream, code)
        decides = None
    elif record.mode == MODE_CALL:
        fn = _call_wrapper(record.compiled, dream, code)
        mask = record.decides | (1 << BUY) | (1 << PERFORM)
        decides = None if mask == ALL_KINDS else [k for k in range(ALL_KINDS.bit_length()) if mask >> k & 1]
    else:
        raise StrategyError(f"strategy {name!r} plays inside the engine (rollout/search) and cannot be restricted")
    register(out, fn, _description(name, dream, what), decides=decides)
    return out


def _description(name: str, dream: int, what: str) -> str:
    return f"{name} never {'buying a card showing' if what == 'buy' else 'performing'} {DreamType(dream).name}"
