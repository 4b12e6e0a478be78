"""Strong self-play games whose strong decisions are labelled by a search over strong (expert iteration, issue #42).

:func:`collect_iteration` plays strong in every seat (the games ``simulate`` plays with ``strong``, bit for
bit: the hooks only add evaluations before the game's own, which then sets the stream as in a game) and keeps
every late decision strong looks ahead at with at most ``COLLECT_MAX`` options (the training records of
:func:`simcore.games.dreamscape.fast.isearch.keep_record`: kind, seat, strong's value of each option, strong's
pick and the option's 64 afterstate features). Each kept option also gets a label: its mean outcome (win
credit + score margin / 1000) over ``2 * half`` playouts of ``search:strong`` (the option forced, the rest of
the turn by expert, every later turn by strong in every seat: :func:`simcore.games.dreamscape.fast.isearch.playout`
with the nested strong bot). Every option of a decision is played in the same dealt worlds on the same streams
(common random numbers, so differences between options are paired), drawn from a salted copy of the
decision's stream (independent of the game's own). The two halves of the playouts are kept apart (columns 0
and 1), so a pick made with one half can be scored on the other.

Why a module of its own: numba caches these drivers beside this file, and the guard of
:mod:`simcore.games.dreamscape.fast.cache` drops that cache when any fast-engine source (or this file) changed.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from simcore.numba_cache import guard_kernels

guard_kernels(Path(__file__).resolve().parent)  # every file these kernels read, this one included

from numba import njit, prange  # noqa: E402 - after the cache guard, as simcore.games.dreamscape.fast does

from simcore.fast_rng import decision_state, mix64, seed_key, stream_state  # noqa: E402
from simcore.games.dreamscape.fast import SimConfig  # noqa: E402
from simcore.games.dreamscape.fast.batch import start_game  # noqa: E402
from simcore.games.dreamscape.fast.decisions import COLLECT_WIDTH  # noqa: E402
from simcore.games.dreamscape.fast.faults import clear_fault, raise_fault  # noqa: E402
from simcore.games.dreamscape.fast.isearch import (  # noqa: E402
    REC_DECISION,
    REC_WIDTH,
    SearchHooks,
    LOOKAHEAD_SALT,
    deal_world,
    hidden_places,
    nested_buffers,
    no_turn_start,
    playout,
    playout_scratch,
    search_loop,
)
from simcore.games.dreamscape.fast.jit import kernel  # noqa: E402
from simcore.games.dreamscape.fast.kernels import play_turn  # noqa: E402
from simcore.games.dreamscape.fast.layout import H_ABORTED, H_GAME_OVER, H_N_CARDS, H_N_WINNERS, H_TURNS, H_WINNERS, MAX_SEATS, knob_vector  # noqa: E402
from simcore.games.dreamscape.fast.runner import deck_arrays, resolve_strategies, strategy_args  # noqa: E402
from simcore.games.dreamscape.fast.value import N_VIEW, encode_view  # noqa: E402
from simcore.games.dreamscape.fast.scratch import (  # noqa: E402
    FW_COLLECT_AT,
    LOOK_NESTED,
    LOOK_VALUE,
    MD_LOOKAHEAD,
    MD_POLICY,
    WK_MODES,
    n_opt_rows,
    new_work,
)

ITER_SALT = np.uint64(0xD1B54A32D192ED03)  # the labels' worlds: a stream apart from the game's and strong's own


@kernel
def label_options(data, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng,
                  pst, pwk, pfw, slots, cards, deal, totals):
    """A strong decision keep_record will keep is first labelled: 2 * half nested playouts per option.

    Playout k of every option uses world k and stream k (common random numbers); the halves
    k < half and k >= half are kept apart. The game's own lookahead comes after this hook and sets
    the stream at the stop again, so the game is the one strong self-play plays.
    """
    half = data[0]
    vals = data[1]
    inner = data[2]
    if modes[MD_LOOKAHEAD, seat] != LOOK_VALUE:
        return
    if fw[FW_COLLECT_AT] <= 0 or fw[np.int64(fw[FW_COLLECT_AT])] != n:
        return
    policy = modes[MD_POLICY, seat]
    pbase, length = playout_scratch(st0, rwk, base, modes, weights, seat, pwk, pfw)
    f = strats[seat]
    pstrats = (f, f, f, f)
    m = hidden_places(st0, rwk, base, slots, cards)
    # strong's own look at each option (lookahead_decision's world 0, its only one): the view of the position the
    # turn ends in, what a correction played by the engine would read (zeros and ends[i] = 1 when the game ended)
    views = data[4]
    ends = data[5]
    prows = pwk.shape[0]
    look = mix64(stop_rng ^ LOOKAHEAD_SALT ^ np.uint64(length))
    for i in range(n):
        deal_world(st0, pst, pwk, pbase, length, i, look, 0, slots, cards, deal, m)
        play_turn(pst, pwk, pfw, pstrats)
        for s in range(MAX_SEATS):
            pwk[prows + WK_MODES, s] = policy
        if pst[H_GAME_OVER] != 0:
            ends[i] = 1.0
            for j in range(N_VIEW):
                views[i, j] = 0.0
        else:
            ends[i] = 0.0
            encode_view(pst, seat, views[i])
    sample = mix64(stop_rng ^ ITER_SALT ^ (np.uint64(st0[H_TURNS]) << np.uint64(8)) ^ np.uint64(length))
    for i in range(n):
        for h in range(2):
            total = 0.0
            for k in range(h * half, (h + 1) * half):
                total += playout(st0, pst, pwk, pfw, pstrats, pbase, length, i, seat, policy, sample, k,
                                 slots, cards, deal, m, True, inner)
            vals[h, i] = total / half


@kernel
def keep_labels(data, row, rec_n, n):
    """The labels join the decision's rows when keep_record kept it."""
    vals = data[1]
    extra = data[3]
    views = data[4]
    ends = data[5]
    out_views = data[6]
    if rec_n[0] == row + n:
        for i in range(n):
            for h in range(2):
                extra[row + i, h] = vals[h, i]
            extra[row + i, 2] = ends[i]
            for j in range(N_VIEW):
                out_views[row + i, j] = views[i, j]


iteration_loop = search_loop(SearchHooks(no_turn_start, label_options, keep_labels))


@njit(cache=True)
def iteration_game(st, wk, fw, strats, modes, weights, rec, rec_n, half, extra, out_views):
    """One strong self-play game with its strong decisions labelled (module docstring)."""
    width = 2 * n_opt_rows(st[H_N_CARDS])
    vals = np.zeros((2, width), dtype=np.float64)
    views = np.zeros((width, N_VIEW), dtype=np.float64)
    ends = np.zeros(width, dtype=np.float64)
    nmodes = modes.copy()
    nmodes[MD_LOOKAHEAD, 0] = LOOK_NESTED  # the playouts' inner strong bots: seat 0's value row, as search:strong
    iteration_loop(st, wk, fw, strats, modes, weights, rec, rec_n,
                   (half, vals, nested_buffers(st, nmodes, weights), extra, views, ends, out_views))


@njit(cache=True, parallel=True)
def iteration_chunk(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game, s0, s1, s2, s3,
                    modes, weights, half, rec, rec_n, extra, views, win_out):
    """Games ``first_game ..`` (n = win_out.shape[0]) as collect_chunk plays them, labelled."""
    n = win_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)
        gfw = np.zeros(fw.shape[0] + COLLECT_WIDTH, dtype=np.float64)
        gfw[: fw.shape[0]] = fw
        gfw[FW_COLLECT_AT] = fw.shape[0]
        iteration_game(st, wk, gfw, strats, modes, weights, rec[i], rec_n[i], half, extra[i], views[i])
        aborted = st[H_ABORTED] != 0
        nw = st[H_N_WINNERS]
        for s in range(n_seats):
            win_out[i, s] = 1.0 / nw if (not aborted and nw > 0 and (st[H_WINNERS] >> s) & 1) else 0.0


def collect_iteration(
    config: SimConfig,
    n_games: int,
    seed: int,
    half: int = 16,
    *,
    strategy: str = "strong",
    first_game: int = 0,
    chunk_size: int = 4,
    max_rows: int = 2048,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games`` of ``seed``, strong in every seat, labelled.

    Returns ``records`` (keep_record's rows, REC_* columns; REC_VALUE is strong's value of the
    option, REC_CHOSEN strong's pick), ``labels`` float64[rows, 2] (the two halves' means), ``views``
    float64[rows, N_VIEW] (the view strong's value read at the end of the option's turn; zeros where the turn
    ended the game, ``ends`` 1 there),
    ``game`` int64[rows] (the game index of each row), ``wins`` float64[games, players] and
    ``skipped`` (decisions not kept: more than COLLECT_MAX options, Shifting orders, no room).
    """
    if half < 1:
        raise ValueError(f"playouts per half must be at least 1, got {half}")
    from simcore.games.dreamscape.bots.api import load_strategy

    strategy = load_strategy(strategy)  # registers the built-in bots (strong among them) on first use
    names = resolve_strategies(strategy, config.players)
    fns = strategy_args(names, config.players, config.options, config.deck)
    a, b = deck_arrays(config.deck)
    knobs = knob_vector(config.options, config.players)
    key = seed_key(seed)
    parts, labels, ends, views, games, wins, skipped, next_decision, done = [], [], [], [], [], [], 0, 0, 0
    clear_fault()
    while done < n_games:
        n = min(chunk_size, n_games - done)
        rec = np.zeros((n, max_rows, REC_WIDTH), np.float64)
        rec_n = np.zeros((n, 2), np.int64)
        ext = np.zeros((n, max_rows, 3), np.float64)
        view = np.zeros((n, max_rows, N_VIEW), np.float64)
        win = np.zeros((n, config.players), np.float64)
        iteration_chunk(a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens),
                        knobs, key, first_game + done, *fns, int(half), rec, rec_n, ext, view, win)
        raise_fault()
        for i in range(n):
            rows = rec[i, : rec_n[i, 0]].copy()
            if rows.shape[0]:
                rows[:, REC_DECISION] += next_decision
                next_decision = int(rows[-1, REC_DECISION]) + 1
            parts.append(rows)
            labels.append(ext[i, : rec_n[i, 0], :2].copy())
            ends.append(ext[i, : rec_n[i, 0], 2].copy())
            views.append(view[i, : rec_n[i, 0]].copy())
            games.append(np.full(rows.shape[0], first_game + done + i, dtype=np.int64))
            skipped += int(rec_n[i, 1])
        wins.append(win)
        done += n
        if progress is not None:
            progress(done, n_games)
    return {
        "records": np.concatenate(parts) if parts else np.zeros((0, REC_WIDTH)),
        "labels": np.concatenate(labels) if labels else np.zeros((0, 2)),
        "ends": np.concatenate(ends) if ends else np.zeros(0),
        "views": np.concatenate(views) if views else np.zeros((0, N_VIEW)),
        "game": np.concatenate(games) if games else np.zeros(0, dtype=np.int64),
        "wins": np.concatenate(wins) if wins else np.zeros((0, config.players)),
        "skipped": np.array(skipped),
    }
