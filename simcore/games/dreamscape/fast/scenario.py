"""Conformance scenarios on the fast engine: setup loading, script encoding, scripted play.

A scenario (shared/conformance/FORMAT.md) is loaded once by
:func:`simcore.games.dreamscape.notation.state_from_setup` (the same validation and card ids as
the reference engine), turned into a fast state vector by :func:`fast_state`,
and played by :func:`play_scenario`: every seat plays the scripted mode of
:mod:`simcore.games.dreamscape.fast.script`, each scripted choice encoded as the engine's
option row by :func:`encode_choice` (the inverse of
:func:`simcore.games.dreamscape.fast.bridge.decode_option`). The result is the position where
the script ran out (the pending decision kind and the state in
:func:`simcore.games.dreamscape.notation.dump_state` format), or the reason the script failed,
worded as the reference runner words it.

Scenarios fix all hidden information in their setup (the Sleep Deck order is
given), and the reference engine's game flow draws nothing from a random
stream (only strategies do), so scripted play needs no stream: a choice is
either the scripted one or, after the script, option 0.
"""
from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from simcore.games.dreamscape.cards import CODE_TO_TYPE, Card
from simcore.games.dreamscape.fast.bridge import decode_option, dump_cards_state
from simcore.games.dreamscape.fast.batch import play_scripted
from simcore.games.dreamscape.fast.scratch import MODE_SCRIPT, N_MD, WK_TAIL, max_options, new_work
from simcore.games.dreamscape.fast.zones import new_state, rank_positions_by_cost, set_knobs
from simcore.games.dreamscape.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    H_ACTIVE,
    H_COSTS,
    H_DECK_PTR,
    H_DISCARD_LEN,
    H_DS_CARD,
    H_DS_DOWN,
    MAX_SEATS,
    N_FEATURES,
    OPT_WIDTH,
    PERM5,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_Z_LEN,
    SEAT_STRIDE,
    H_SEATS,
    TOKEN_DISCARD,
    TOKEN_PASS,
    TOKEN_POINT,
    python_offsets,
    knob_vector,
    state_size,
)
from simcore.games.dreamscape.fast.script import (
    FAIL_ACCEPTED,
    FAIL_REFUSED,
    FAIL_WRONG_KIND,
    SCRIPT_DONE,
    SCRIPT_FAILED,
    SR_ENTRIES,
    SR_INFO,
    SR_STATUS,
    script_rows,
)
from simcore.games.dreamscape.fast.strategies import get_strategy
from simcore.games.dreamscape.reference import GameState
from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS
from simcore.games.dreamscape.scoring import chain_points

_BOOL_KINDS = ("take_z", "night_terror_spent", "target_discard")
_INT_KINDS = (
    "floating_free", "interrupted_sleep", "night_terror", "lucid_dreaming",
    "collective_dream", "empowered_dreaming",
)
_PERM_INDEX = {tuple(int(x) for x in row): i for i, row in enumerate(PERM5)}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def encode_choice(kind: str, value) -> list[int] | None:
    """A scripted choice (FORMAT.md JSON value) as the fast engine's option row, or None.

    The inverse of :func:`simcore.games.dreamscape.fast.bridge.decode_option`; None when the
    value is no choice of that kind at all (the engine then lists no option
    matching it, as the reference's JSON comparison would refuse it: ``1`` is
    not ``true``).
    """
    row = [0] * OPT_WIDTH
    if kind == "sleep_token":
        codes = {"discard": TOKEN_DISCARD, "point": TOKEN_POINT, "pass": TOKEN_PASS}
        if not isinstance(value, str) or value not in codes:
            return None
        row[0] = codes[value]
    elif kind in _BOOL_KINDS:
        if not isinstance(value, bool):
            return None
        row[0] = int(value)
    elif kind in _INT_KINDS:
        if not _is_int(value) or not -(2**31) < value < 2**31:
            return None
        row[0] = value
    elif kind == "perform":
        if not isinstance(value, str) or value not in CODE_TO_TYPE:
            return None
        row[0] = CODE_TO_TYPE[value]
    elif kind == "buy":
        if value == "stop":
            row[0] = BUY_STOP
        elif isinstance(value, dict) and len(value) == 1 and "position" in value and _is_int(value["position"]):
            row[0], row[1] = BUY_POSITION, value["position"]
        elif isinstance(value, dict) and len(value) == 1 and "reserved" in value and _is_int(value["reserved"]):
            row[0], row[1] = BUY_RESERVED, value["reserved"]
        else:
            return None
    elif kind in ("shifting_dreams", "shifting_tokens"):
        if not isinstance(value, list) or not all(_is_int(x) for x in value) or tuple(value) not in _PERM_INDEX:
            return None
        row[0] = _PERM_INDEX[tuple(value)]
    elif kind == "invasive_dreaming":
        if not isinstance(value, dict) or "position" not in value or not _is_int(value["position"]):
            return None
        if set(value) == {"position"}:
            row[0] = -1  # solo (R10.2)
        elif set(value) == {"seat", "position"} and _is_int(value["seat"]) and value["seat"] >= 0:
            row[0] = value["seat"]
        else:
            return None
        row[1] = value["position"]
    elif kind in ("paradigm_shift", "solo_discard_order"):
        if not isinstance(value, list) or len(value) > OPT_WIDTH - 1 or not all(_is_int(x) for x in value):
            return None
        row[0] = len(value)
        row[1 : 1 + len(value)] = value
    else:
        return None
    if any(not -(2**31) < x < 2**31 for x in row):
        return None
    return row


def type_arrays(cards: list[Card]) -> tuple[np.ndarray, np.ndarray]:
    """The card table's two type columns (card id -> first type, second type)."""
    return np.array([c[0] for c in cards], dtype=np.int32), np.array([c[1] for c in cards], dtype=np.int32)


def fast_state(s: GameState) -> np.ndarray:
    """A reference position at a turn start as a fast state vector (same card ids).

    The card table is ``s.cards`` (a scenario's physical cards); the caches
    the kernels keep are filled as :func:`simcore.games.dreamscape.fast.zones.new_state` and
    the kernels expect: the REM type masks, chain points, positions by cost.
    Only turn-start positions are representable (no Sleep Token point taken,
    no purchase resolving, so every R6.12 mark is 0).
    """
    a, b = type_arrays(s.cards)
    c = len(s.cards)
    st = new_state(a, b, len(s.seats), bool(s.options.sleep_token), bool(s.options.shifting_tokens))
    set_knobs(st, knob_vector(s.options, len(s.seats)))  # the chain table, z-penalty, ... (costs: below)
    off = python_offsets(c)
    # The deck block holds the draw order with the next card at H_DECK_PTR:
    # the Sleep Deck (top first) fills its tail.
    ptr = c - len(s.sleep_deck)
    st[off["deck"] + ptr : off["deck"] + c] = s.sleep_deck
    st[H_DECK_PTR] = ptr
    for p in range(5):
        card = s.dreamscape[p]
        st[H_DS_CARD + p] = -1 if card is None else card
        st[H_DS_DOWN + p] = int(card is not None and s.face_down[p])
        st[H_COSTS + p] = s.costs[p]
    rank_positions_by_cost(st)
    st[off["discard"] : off["discard"] + len(s.discard)] = s.discard
    st[H_DISCARD_LEN] = len(s.discard)
    mask = off["mask"]
    for i, seat in enumerate(s.seats):
        base = H_SEATS + SEAT_STRIDE * i
        rem = off[f"rem{i}"]
        st[rem : rem + len(seat.rem)] = seat.rem
        st[off[f"rem_mask{i}"] : off[f"rem_mask{i}"] + len(seat.rem)] = [st[mask + x] for x in seat.rem]
        st[base + S_REM_LEN] = len(seat.rem)
        st[off[f"z{i}"] : off[f"z{i}"] + len(seat.deep_sleep)] = seat.deep_sleep
        st[base + S_Z_LEN] = len(seat.deep_sleep)
        st[off[f"res{i}"] : off[f"res{i}"] + len(seat.reserved)] = seat.reserved
        st[off[f"ready{i}"] : off[f"ready{i}"] + len(seat.reserved)] = [int(r) for r in seat.ready]
        st[base + S_RES_LEN] = len(seat.reserved)
        st[base + S_CHAIN] = chain_points([s.cards[x] for x in seat.rem], s.options.chain_table())
    st[H_ACTIVE] = s.active
    return st


@dataclass(frozen=True)
class ScriptedResult:
    """The outcome of a scripted game on the fast engine.

    ``failure`` is None when every choice was answered as the script says;
    then ``pending`` is the kind of the decision the script ran out at (None:
    the game is over) and ``state`` that position in dump_state format.
    """

    failure: str | None
    pending: str | None
    state: dict | None


def play_scenario(s: GameState, choices: list[dict]) -> ScriptedResult:
    """Play a loaded scenario's choices on the fast engine (entries as in FORMAT.md, already validated)."""
    st = fast_state(s)
    c = len(s.cards)
    n_opt = max_options(c)
    rows = script_rows(len(choices), n_opt, state_size(c))
    modes = np.zeros((N_MD, MAX_SEATS), dtype=np.int64)
    modes[0, :] = MODE_SCRIPT
    wk, fw = new_work(c, np.uint64(0), 0, rows, modes, np.zeros((MAX_SEATS, N_FEATURES)))
    base = wk.shape[0] - WK_TAIL - rows  # the first trace row: the script block
    encoded = []
    for n, entry in enumerate(choices):
        row = encode_choice(entry["decision"], entry["choice"])
        encoded.append(row)
        head = wk[base + SR_ENTRIES + 2 * n]
        head[0] = DECISION_ID.get(entry["decision"], -1)
        head[1] = int(bool(entry.get("illegal", False)))
        head[2] = int(row is not None)
        if row is not None:
            wk[base + SR_ENTRIES + 2 * n + 1] = row
    wk[base + SR_STATUS, 1] = len(choices)
    wk[base + SR_INFO, 3] = n_opt
    fn = get_strategy("random")  # never called: MODE_SCRIPT answers every decision
    with warnings.catch_warnings():
        # numba notes, when it types the strategy tuple, that first-class function types are
        # experimental: a scenario run's output is its report lines only.
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        play_scripted(st, wk, fw, (fn, fn, fn, fn))

    status = wk[base + SR_STATUS]
    done, failed = status[2] == SCRIPT_DONE, status[2] == SCRIPT_FAILED
    if failed:
        k = int(status[4])
        entry = choices[k]
        asked = DECISION_KINDS[status[5]]
        seat = int(wk[base + SR_INFO, 0])
        kind, value = entry["decision"], json.dumps(entry["choice"])
        if status[3] == FAIL_ACCEPTED:
            return ScriptedResult(f"choice {k + 1}: illegal {kind} {value} was accepted", None, None)
        if status[3] == FAIL_WRONG_KIND:
            return ScriptedResult(
                f"choice {k + 1}: pending decision is {asked} (seat {seat + 1}), the scenario answers {kind}", None, None
            )
        assert status[3] == FAIL_REFUSED
        dump = base + SR_ENTRIES + 2 * len(choices)
        legal = [decode_option(asked, wk[dump + i]) for i in range(int(wk[base + SR_INFO, 1]))]
        listed = ", ".join(json.dumps(x) for x in legal[:12])
        return ScriptedResult(f"choice {k + 1}: {kind} {value} was refused (legal: {listed})", None, None)
    if done:
        start = base + SR_ENTRIES + 2 * len(choices) + n_opt
        length = int(wk[base + SR_INFO, 2])
        snap = wk[start:].reshape(-1)[:length].copy()
        return ScriptedResult(None, DECISION_KINDS[status[5]], dump_cards_state(snap, s.cards))
    # The game ended before the script ran out: only entries the engine must refuse may remain.
    for k in range(int(status[0]), len(choices)):
        if not choices[k].get("illegal", False):
            return ScriptedResult(
                f"choice {k + 1}: the game is over, but the scenario answers {choices[k]['decision']}", None, None
            )
    return ScriptedResult(None, None, dump_cards_state(st, s.cards))
