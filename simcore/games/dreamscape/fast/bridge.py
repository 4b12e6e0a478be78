"""Between the engines: traced single games, option decoding and state export.

Used by the differential test: :func:`play_traced` plays game ``g`` of a
run on the fast engine with the trace on; :func:`decode_trace` turns the
recorded decisions into reference notation (kind, seat, choices, chosen
choice as JSON values of conformance/FORMAT.md); :func:`dump_fast_state`
writes a fast state vector in :func:`simcore.games.dreamscape.notation.dump_state` format.
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.cards import CODES, card_code
from simcore.games.dreamscape.decks import Deck
from simcore.games.dreamscape.fast.layout import (
    BUY_POSITION,
    BUY_RESERVED,
    BUY_STOP,
    H_ACTIVE,
    H_CHAIN_AT,
    H_COSTS,
    H_DECK_PTR,
    H_DISCARD_LEN,
    H_DS_CARD,
    H_DS_DOWN,
    H_GAME_OVER,
    H_N_CARDS,
    H_N_SEATS,
    H_OPT_SHIFT_TOKENS,
    H_OPT_SLEEP_TOKEN,
    H_SEATS,
    H_WINNERS,
    S_CHAIN,
    SEAT_STRIDE,
    S_REM_LEN,
    S_RES_LEN,
    S_SPENT,
    S_Z_LEN,
    TOKEN_DISCARD,
    TOKEN_POINT,
    PERM5,
    N_POS,
    knob_vector,
    python_offsets,
)
from simcore.games.dreamscape.fast.scratch import TC_DECISIONS, TC_OVERFLOW, TC_ROWS, TR_FIRST_ROW, WK_TAIL, WK_TRACE_COUNTERS
from simcore.fast_rng import seed_key
from simcore.games.dreamscape.fast.batch import play_one
from simcore.games.dreamscape.fast.faults import clear_fault, raise_fault
from simcore.games.dreamscape.fast.runner import deck_arrays, resolve_strategies, strategy_args
from simcore.games.dreamscape.rules import DECISION_KINDS, Options
from simcore.games.dreamscape.scoring import chain_points


def play_traced(deck: Deck, players: int, options: Options, seed: int, game: int, strategies, max_decisions: int = 20_000):
    """Play game ``game`` of run ``seed`` with the trace on.

    Returns ``(state, meta, opts)``: the final state vector, one row per asked
    decision (kind, seat, n options, chosen index, first option row) and the
    option rows.
    """
    names = resolve_strategies(strategies, players)
    a, b = deck_arrays(deck)
    cap_t, cap_r = max_decisions, max_decisions * 8
    clear_fault()
    st, wk = play_one(
        a, b, players, bool(options.sleep_token), bool(options.shifting_tokens),
        knob_vector(options, players), seed_key(seed), game, *strategy_args(names, players, options, deck), cap_t, cap_r,
    )
    raise_fault()  # a user strategy failed (simcore.games.dreamscape.fast.faults)
    counters = wk[WK_TRACE_COUNTERS]
    if counters[TC_OVERFLOW]:
        raise RuntimeError("trace buffers overflowed; raise max_decisions")
    base_t = wk.shape[0] - WK_TAIL - cap_t - cap_r
    meta = wk[base_t : base_t + counters[TC_DECISIONS], : TR_FIRST_ROW + 1].copy()
    opts = wk[base_t + cap_t : base_t + cap_t + counters[TC_ROWS]].copy()
    return st, meta, opts


def decode_option(kind: str, row: np.ndarray):
    """One option row as the reference's JSON choice value (FORMAT.md)."""
    if kind == "sleep_token":
        return "discard" if row[0] == TOKEN_DISCARD else ("point" if row[0] == TOKEN_POINT else "pass")
    if kind in ("take_z", "night_terror_spent", "target_discard"):
        return bool(row[0])
    if kind == "buy":
        if row[0] == BUY_STOP:
            return "stop"
        if row[0] == BUY_POSITION:
            return {"position": int(row[1])}
        assert row[0] == BUY_RESERVED
        return {"reserved": int(row[1])}
    if kind == "perform":
        return CODES[int(row[0])]
    if kind in ("shifting_dreams", "shifting_tokens"):
        return [int(x) for x in PERM5[row[0]]]  # the option names a PERM5 row
    if kind == "invasive_dreaming":
        if row[0] < 0:
            return {"position": int(row[1])}
        return {"seat": int(row[0]), "position": int(row[1])}
    if kind in ("paradigm_shift", "solo_discard_order"):
        return [int(x) for x in row[1 : 1 + int(row[0])]]
    return int(row[0])


def decode_trace(meta: np.ndarray, opts: np.ndarray) -> list[tuple[str, int, list, object]]:
    """Recorded decisions as (kind, seat, choices, chosen choice)."""
    out = []
    for kind_id, seat, n, chosen, row in meta:
        kind = DECISION_KINDS[kind_id]
        choices = [decode_option(kind, opts[row + i]) for i in range(n)]
        out.append((kind, int(seat), choices, choices[chosen]))
    return out


def dump_fast_state(st: np.ndarray, deck: Deck) -> dict:
    """A fast state vector in :func:`simcore.games.dreamscape.notation.dump_state` format."""
    return dump_cards_state(st, deck.cards)


def dump_cards_state(st: np.ndarray, cards) -> dict:
    """:func:`dump_fast_state` for a card table given as a sequence of cards (card id -> types).

    Seats carry one more key than dump_state, ``_cached_score``: the score
    from the engine's cached chain points (equal to ``score`` unless the
    cache is stale).
    """
    c = int(st[H_N_CARDS])
    off = python_offsets(c)
    code = lambda i: card_code(cards[int(i)])  # noqa: E731
    ptr = int(st[H_DECK_PTR])
    dreamscape = []
    for p in range(N_POS):
        card = int(st[H_DS_CARD + p])
        dreamscape.append(None if card < 0 else ("~" if st[H_DS_DOWN + p] else "") + code(card))
    seats = []
    table = [int(x) for x in st[int(st[H_CHAIN_AT]) : int(st[H_CHAIN_AT]) + c + 1]]  # R8.2 or the chain knob
    for s in range(int(st[H_N_SEATS])):
        base = H_SEATS + SEAT_STRIDE * s
        rem = [int(x) for x in st[off[f"rem{s}"] : off[f"rem{s}"] + st[base + S_REM_LEN]]]
        deep = [int(x) for x in st[off[f"z{s}"] : off[f"z{s}"] + st[base + S_Z_LEN]]]
        res = [int(x) for x in st[off[f"res{s}"] : off[f"res{s}"] + st[base + S_RES_LEN]]]
        seats.append(
            {
                "rem": [code(x) for x in rem],
                "deep_sleep": [code(x) for x in deep],
                "z": len(deep),
                "spent": int(st[base + S_SPENT]),
                "reserved": [code(x) for x in res],
                # recomputed from the cards, which also checks the engine's cached chain points
                "score": chain_points([cards[x] for x in rem], table) - len(deep),
                "_cached_score": int(st[base + S_CHAIN]) - len(deep),
            }
        )
    over = bool(st[H_GAME_OVER])
    return {
        "options": Options(bool(st[H_OPT_SLEEP_TOKEN]), bool(st[H_OPT_SHIFT_TOKENS])).flags(),
        "costs": [int(x) for x in st[H_COSTS : H_COSTS + N_POS]],
        "sleep_deck": [code(x) for x in st[off["deck"] + ptr : off["deck"] + c]],
        "sleep_deck_count": c - ptr,
        "dreamscape": dreamscape,
        "discard": [code(x) for x in st[off["discard"] : off["discard"] + st[H_DISCARD_LEN]]],
        "active": int(st[H_ACTIVE]),
        "game_over": over,
        "winners": [s for s in range(int(st[H_N_SEATS])) if (int(st[H_WINNERS]) >> s) & 1] if over else None,
        "seats": seats,
    }
