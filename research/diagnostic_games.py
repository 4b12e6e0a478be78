"""Search games for the expert diagnostics: extra labels on the same decisions, search restricted to some kinds.

:func:`collect_labelled` plays the games :func:`simcore.games.dreamscape.fast.runner.collect_search`
plays (same seed, same games, same records, bit for bit) and, at every kept
search decision, also evaluates the decision's options again with other
playout counts on *independent* playouts (the same turn-start state and
prefix; the hidden cards and the playouts' stream drawn from a salted copy of
the decision's stream). So each decision carries the label the game's search
used (K playouts) and, say, a second K = 4 label and a K = 16 label on the
very same options: what the label noise ceiling needs.

:func:`play_restricted` plays games in which a search seat searches only the
decision kinds of its bit mask and plays its policy (the rollout policy, e.g.
``expert``) at every other kind: where does the search's gain come from?

Why here and not in :mod:`simcore.games.dreamscape.fast`: both are small drivers on the search
player's public loop, wanted by a diagnostic only. They do not copy the loop: they build it with three hooks
(:func:`simcore.games.dreamscape.fast.isearch.search_loop` and
:class:`~simcore.games.dreamscape.fast.isearch.SearchHooks`): which kinds each seat searches this
turn, the extra evaluations before the game's own, and their rows after its record. The tests check
that the games and records are the engine's.

numba caches these drivers beside this file; the guard of
:mod:`simcore.games.dreamscape.fast.cache` drops that cache when any fast-engine source (or
this file) changed, since the kernels inline the engine's.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from simcore.numba_cache import guard_kernels

guard_kernels(Path(__file__).resolve().parent)  # every file these kernels read, this one included

from numba import njit, prange  # noqa: E402 - after the cache guard, as simcore.games.dreamscape.fast does

from simcore.games.dreamscape.fast import SimConfig  # noqa: E402
from simcore.games.dreamscape.fast.batch import start_game  # noqa: E402
from simcore.games.dreamscape.fast.faults import clear_fault, raise_fault  # noqa: E402
from simcore.games.dreamscape.fast.isearch import (  # noqa: E402
    ALL_KINDS_MASK,
    REC_DECISION,
    REC_WIDTH,
    SearchHooks,
    nested_buffers,
    search_decision,
    search_loop,
)
from simcore.games.dreamscape.fast.jit import kernel  # noqa: E402
from simcore.games.dreamscape.fast.layout import (  # noqa: E402
    H_ABORTED,
    H_DECK_PTR,
    H_N_CARDS,
    H_N_WINNERS,
    H_WINNERS,
    MAX_SEATS,
    knob_vector,
)
from simcore.games.dreamscape.fast.decisions import COLLECT_WIDTH  # noqa: E402
from simcore.games.dreamscape.fast.prefix import PX_KIND_BITS, PX_KINDS, PX_PHASE_SHIFT  # noqa: E402
from simcore.fast_rng import decision_state, mix64, seed_key, stream_state  # noqa: E402
from simcore.games.dreamscape.fast.runner import deck_arrays, resolve_strategies, strategy_args  # noqa: E402
from simcore.games.dreamscape.fast.scratch import (  # noqa: E402
    FW_COLLECT_AT,
    MD_PLAYOUTS,
    MD_SCORE,
    MODE_SEARCH,
    n_opt_rows,
    new_work,
)

ALL_KINDS = ALL_KINDS_MASK  # every kind searched, in every phase
# A mask may also skip game phases (simcore.games.dreamscape.fast.prefix.PX_PHASE_SHIFT): ``only_phase(mask, p)`` searches
# the mask's kinds in phase p alone (0 early, 1 mid, 2 late: the expert tables' thirds of the Sleep Deck).
PHASES = ("early", "mid", "late")
EVERY_TURN = np.full(MAX_SEATS, 1 << 30, dtype=np.int64)  # deck_at_most of a seat that searches in every turn


def only_phase(mask: int, phase: int) -> int:
    """``mask`` restricted to game phase ``phase``: the skip bits of the other two phases set."""
    if not 0 <= phase < len(PHASES):
        raise ValueError(f"phase must be 0, 1 or 2, got {phase}")
    skip = sum(1 << (PX_PHASE_SHIFT + p) for p in range(len(PHASES)) if p != phase)
    return (mask & PX_KIND_BITS) | skip
LABEL_SALT = np.uint64(0x5DEECE66D1B54A33)  # extra label e draws from mix64(stop stream ^ (e + 1) * salt)


# The hooks (simcore.games.dreamscape.fast.isearch.SearchHooks) the labelled games plug into the engine's
# search loop. Their ``data``: (masks, deck_at_most, extra_k, extra, vals, m2), see labelled_chunk.


@kernel
def masked_turn_start(data, st, rwk, base, modes):
    """Each search seat searches its mask's kinds, in the turns that start near enough to the deck's end."""
    masks = data[0]
    deck_at_most = data[1]
    for s in range(MAX_SEATS):
        if modes[MD_SCORE, s] == MODE_SEARCH:
            near = st[H_N_CARDS] - st[H_DECK_PTR] <= deck_at_most[s]  # zones.deck_left at the turn start
            rwk[base + PX_KINDS, s] = masks[s] if near else 0


@kernel
def label_before_search(data, fw, st0, rwk, base, strats, modes, weights, kind, seat, n, stop_rng,
                        pst, pwk, pfw, slots, cards, deal, totals):
    """A decision keep_record will keep (room aside) is first evaluated again at each extra playout count.

    Each extra label draws from a salted copy of the stop's stream; the game's own evaluation comes
    after this hook, so it sets the stream as in a game.
    """
    extra_k = data[2]
    vals = data[4]
    m2 = data[5]
    if fw[FW_COLLECT_AT] <= 0 or fw[np.int64(fw[FW_COLLECT_AT])] != n:
        return
    for e in range(extra_k.shape[0]):
        for s in range(m2.shape[1]):
            m2[MD_PLAYOUTS, s] = modes[MD_PLAYOUTS, s]
        m2[MD_PLAYOUTS, seat] = extra_k[e]
        salted = mix64(stop_rng ^ (np.uint64(e + 1) * LABEL_SALT))
        search_decision(st0, rwk, base, strats, m2, weights, kind, seat, n, salted,
                        pst, pwk, pfw, slots, cards, deal, totals, data[6])
        for i in range(n):
            vals[e, i] = totals[i]


@kernel
def label_after_record(data, row, rec_n, n):
    """The extra labels join the decision's rows when keep_record kept it (only kept decisions were labelled)."""
    extra = data[3]
    vals = data[4]
    if rec_n[0] == row + n:
        for e in range(vals.shape[0]):
            for i in range(n):
                extra[row + i, e] = vals[e, i]


labelled_loop = search_loop(SearchHooks(masked_turn_start, label_before_search, label_after_record))


@njit(cache=True)
def labelled_game(st, wk, fw, strats, modes, weights, masks, deck_at_most, rec, rec_n, extra_k, extra):
    """The engine's search game with the labelling hooks."""
    vals = np.zeros((extra_k.shape[0], 2 * n_opt_rows(st[H_N_CARDS])), dtype=np.float64)  # totals' length
    labelled_loop(st, wk, fw, strats, modes, weights, rec, rec_n,
                  (masks, deck_at_most, extra_k, extra, vals, modes.copy(), nested_buffers(st, modes, weights)))


@njit(cache=True, parallel=True)
def labelled_chunk(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game, s0, s1, s2, s3,
                   modes, weights, masks, deck_at_most, collect, extra_k, rec, rec_n, extra, win_out):
    """Games ``first_game ..`` (n = win_out.shape[0]) as simcore.games.dreamscape.fast.batch.collect_chunk plays them.

    ``collect`` False: nothing is recorded (``rec`` / ``extra`` may have no rows, one block per game).
    """
    n = win_out.shape[0]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)
        # as simcore.games.dreamscape.fast.isearch.collect_game_search: room for the features at each stop. Always a new
        # array: an array variable reassigned in one branch of a prange body freed twice (numba 0.68)
        gfw = np.zeros(fw.shape[0] + (COLLECT_WIDTH if collect else 0), dtype=np.float64)
        gfw[: fw.shape[0]] = fw
        if collect:
            gfw[FW_COLLECT_AT] = fw.shape[0]
        labelled_game(st, wk, gfw, strats, modes, weights, masks, deck_at_most, rec[i], rec_n[i], extra_k, extra[i])
        aborted = st[H_ABORTED] != 0
        nw = st[H_N_WINNERS]
        for s in range(n_seats):
            win_out[i, s] = 1.0 / nw if (not aborted and nw > 0 and (st[H_WINNERS] >> s) & 1) else 0.0


def _setup(config: SimConfig, seed: int, strategies: str | Sequence[str], masks: Sequence[int] | None):
    names = resolve_strategies(strategies, config.players)
    fns = strategy_args(names, config.players, config.options, config.deck)
    a, b = deck_arrays(config.deck)
    knobs = knob_vector(config.options, config.players)
    m = np.full(MAX_SEATS, ALL_KINDS, dtype=np.int64)
    if masks is not None:
        m[: len(masks)] = np.asarray(masks, dtype=np.int64)
    return a, b, knobs, seed_key(seed), fns, m


def collect_labelled(
    config: SimConfig,
    n_games: int,
    seed: int,
    strategies: str | Sequence[str],
    extra_k: Sequence[int] = (),
    *,
    first_game: int = 0,
    chunk_size: int = 16,
    max_rows: int = 4096,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The games and records of :func:`simcore.games.dreamscape.fast.runner.collect_search`, each decision also labelled at ``extra_k``.

    Returns ``(records, extra, wins, skipped)``: ``records``, ``wins`` and
    ``skipped`` as collect_search's (the same numbers, bit for bit);
    ``extra`` float64[rows, len(extra_k)]: column e is each option's mean
    outcome over ``extra_k[e]`` playouts independent of the game's own
    (and of the other columns').
    """
    a, b, knobs, key, fns, masks = _setup(config, seed, strategies, None)
    ks = np.asarray(list(extra_k), dtype=np.int64)
    if np.any(ks < 1):
        raise ValueError(f"playouts per option must be at least 1, got {list(extra_k)}")
    parts, extras, wins, skipped, next_decision, done = [], [], [], 0, 0, 0
    clear_fault()
    while done < n_games:
        n = min(chunk_size, n_games - done)
        rec = np.zeros((n, max_rows, REC_WIDTH), np.float64)
        rec_n = np.zeros((n, 2), np.int64)
        ext = np.zeros((n, max_rows, ks.shape[0]), np.float64)
        win = np.zeros((n, config.players), np.float64)
        labelled_chunk(a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens),
                       knobs, key, first_game + done, *fns, masks, EVERY_TURN, True, ks, rec, rec_n, ext, win)
        raise_fault()
        for i in range(n):
            rows = rec[i, : rec_n[i, 0]].copy()
            if rows.shape[0]:
                rows[:, REC_DECISION] += next_decision
                next_decision = int(rows[-1, REC_DECISION]) + 1
            parts.append(rows)
            extras.append(ext[i, : rec_n[i, 0]].copy())
            skipped += int(rec_n[i, 1])
        wins.append(win)
        done += n
        if progress is not None:
            progress(done, n_games)
    records = np.concatenate(parts) if parts else np.zeros((0, REC_WIDTH))
    extra = np.concatenate(extras) if extras else np.zeros((0, ks.shape[0]))
    return records, extra, np.concatenate(wins) if wins else np.zeros((0, config.players)), skipped


def play_restricted(
    config: SimConfig,
    n_games: int,
    seed: int,
    strategies: str | Sequence[str],
    masks: Sequence[int],
    *,
    deck_at_most: Sequence[int] | None = None,
    first_game: int = 0,
    chunk_size: int = 16,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Win credits float64[n_games, players] of games whose search seats search only the kinds of their mask.

    ``masks[s]``: bit k set when seat s (0-based) searches decisions of kind k
    (:data:`simcore.games.dreamscape.rules.DECISION_KINDS`); ignored for seats that do not
    search; bits ``PX_PHASE_SHIFT + p`` skip game phase p (:func:`only_phase`).
    :data:`ALL_KINDS` everywhere plays the games ``simulate`` plays.
    ``deck_at_most[s]``: seat s searches only in the turns that start with
    at most that many cards in the Sleep Deck (None: every turn).
    """
    a, b, knobs, key, fns, m = _setup(config, seed, strategies, masks)
    near = EVERY_TURN.copy()
    if deck_at_most is not None:
        near[: len(deck_at_most)] = np.asarray(deck_at_most, dtype=np.int64)
    ks = np.zeros(0, dtype=np.int64)
    wins, done = [], 0
    clear_fault()
    while done < n_games:
        n = min(chunk_size, n_games - done)
        rec = np.zeros((n, 0, REC_WIDTH), np.float64)
        ext = np.zeros((n, 0, 0), np.float64)
        rec_n = np.zeros((n, 2), np.int64)
        win = np.zeros((n, config.players), np.float64)
        labelled_chunk(a, b, config.players, bool(config.options.sleep_token), bool(config.options.shifting_tokens),
                       knobs, key, first_game + done, *fns, m, near, False, ks, rec, rec_n, ext, win)
        raise_fault()
        wins.append(win)
        done += n
        if progress is not None:
            progress(done, n_games)
    return np.concatenate(wins) if wins else np.zeros((0, config.players))
