"""Counting Zzzzs, the fast engine's batch driver: many games in parallel (numba prange), one state each.

Game g plays from the streams of (seed, g) whatever thread plays it, so results do not depend on the
thread count or on how games are cut into calls.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from simcore.fast_rng import decision_state, seed_key

from .common import Bot, Setup, empty_results
from .fast import play_game
from .fast_state import (BANNED, BOT, BUDGET, DECK_END, DECK_POS, END, MT, S_BLOCKED, S_DREAMS, S_ELEMS, S_ESCORED,
                         S_PLAYED, S_SCORED, S_WOKE, SC_WIDTH, SCORE, SIZE, TURNS, WINNERS, card_table, new_game,
                         new_work, rules_array)


@njit(cache=True)
def run_one(cd, rules, bots, budgets, banned, seed_mixed, g, st, rng, script, wk):
    new_game(st, cd, rules, seed_mixed, g)
    players = rules[0]
    for s in range(players):
        st[BOT + s] = bots[s]
        st[BUDGET + s] = budgets[s]
        st[BANNED + s] = banned[s]
    rng[0] = decision_state(seed_mixed, np.uint64(g))
    play_game(st, cd, rng, script, wk)


@njit(cache=True, parallel=True)
def play_batch(cd, rules, bots, budgets, banned, seed_mixed, first_game, n_games, per_task,
               winner, winners, turns, end, deck_left, score, dreams, elems, scored, woke, played, blocked_n,
               escored):
    """Games first_game .. first_game + n_games - 1, ``per_task`` consecutive games per parallel task.

    A task allocates its state, decision stream and search work area once and reuses them for its games
    (new_game clears the state, the search overwrites what it reads), so the cut changes no result.
    """
    ne = escored.shape[2]
    players = rules[0]
    n_tasks = (n_games + per_task - 1) // per_task
    for t in prange(n_tasks):
        st = np.empty(SIZE, np.int64)
        rng = np.empty(1, np.uint64)
        script = np.zeros((0, SC_WIDTH), np.int64)
        wk = new_work()
        for i in range(t * per_task, min(n_games, (t + 1) * per_task)):
            run_one(cd, rules, bots, budgets, banned, seed_mixed, first_game + i, st, rng,
                    script, wk)
            k = 0
            for s in range(players):
                k += st[WINNERS + s]
            winner[i] = -1
            for s in range(players):
                winners[i, s] = st[WINNERS + s]
                if k == 1 and st[WINNERS + s] == 1:
                    winner[i] = s
                score[i, s] = st[SCORE + s]
                dreams[i, s] = st[S_DREAMS + s]
                elems[i, s] = st[S_ELEMS + s]
                scored[i, s] = st[S_SCORED + s]
                for j in range(4):
                    woke[i, s, j] = st[S_WOKE + s * 4 + j]
                    played[i, s, j] = st[S_PLAYED + s * 4 + j]
                    blocked_n[i, s, j] = st[S_BLOCKED + s * 4 + j]
                for c in range(ne):
                    escored[i, s, c] = st[S_ESCORED + s * MT + c]
            turns[i] = st[TURNS]
            end[i] = st[END]
            deck_left[i] = st[DECK_END] - st[DECK_POS]


def games_per_task(n_games: int) -> int:
    """Games per parallel task: up to 64 (a task's allocations and start then cost nothing per game), but
    at least 8 tasks per thread so that the threads finish together when game lengths differ (search)."""
    return max(1, min(64, n_games // (8 * numba.get_num_threads())))


def play_games_fast(setup: Setup, bots: list[Bot], seed: int, first_game: int, n_games: int) -> dict:
    out = empty_results(setup, first_game, n_games)
    play_batch(card_table(setup.cards), rules_array(setup),
               np.array([b.kind for b in bots], np.int64), np.array([b.budget for b in bots], np.int64),
               np.array([b.banned for b in bots], np.int64), seed_key(seed), first_game, n_games,
               games_per_task(n_games),
               out["winner"], out["winners"], out["turns"], out["end"], out["deck_left"], out["score"],
               out["dreams"], out["dream_elements"], out["scored_dreams"], out["woke"], out["played"],
               out["blocked"], out["element_scored"])
    return out
