"""The strong bot's training games: expert self-play, the position at each late turn start and who won.

:func:`value_chunk` plays the games :func:`simcore.games.dreamscape.fast.batch.run_chunk`
plays for the same arguments (the same streams, turn by turn, so the same
games), and at every turn start with at most ``deck_at_most`` cards left in
the Sleep Deck writes one row per seat: the seat's view of the position
(:func:`simcore.games.dreamscape.fast.value.encode_view`). When the game is
over, each row gets that seat's win credit (1/k for k shared winners, R8.3;
0 in an aborted game). The strong bot's value is fitted to these rows
(:mod:`analyses.games.dreamscape.train_strong`).

Imports: batch, kernels, value (the top of the chain, beside batch).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from simcore.fast_rng import decision_state, stream_state
from simcore.games.dreamscape.fast.batch import start_game
from simcore.games.dreamscape.fast.kernels import play_turn
from simcore.games.dreamscape.fast.layout import H_ABORTED, H_DECK_PTR, H_GAME_OVER, H_N_CARDS, H_N_WINNERS, H_WINNERS
from simcore.games.dreamscape.fast.scratch import new_work
from simcore.games.dreamscape.fast.value import encode_view


@njit(cache=True, parallel=True)
def value_chunk(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, key, first_game, s0, s1, s2, s3,
                modes, weights, deck_at_most, enc, seat, win, n_rows):
    """Play games ``first_game ..`` (n = enc.shape[0]) and keep their late turn starts.

    Game i's rows go to ``enc[i, r]`` (float32[n, cap, N_VIEW]), ``seat[i, r]``
    and ``win[i, r]``; ``n_rows[i]`` says how many (at most ``cap``: later turn
    starts are dropped, and ``n_rows[i]`` counts them past ``cap``).
    """
    n = enc.shape[0]
    cap = enc.shape[1]
    c = cards_a.shape[0]
    strats = (s0, s1, s2, s3)
    for i in prange(n):
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = stream_state(key, first_game + i)
        st = start_game(cards_a, cards_b, n_seats, sleep_token, shifting_tokens, knobs, rng)
        wk, fw = new_work(c, decision_state(key, first_game + i), 0, 0, modes, weights)
        view = np.zeros(enc.shape[2], dtype=np.float64)
        r = 0
        while st[H_GAME_OVER] == 0:
            if st[H_N_CARDS] - st[H_DECK_PTR] <= deck_at_most:
                for s in range(n_seats):
                    if r < cap:
                        encode_view(st, s, view)
                        for j in range(view.shape[0]):
                            enc[i, r, j] = view[j]
                        seat[i, r] = s
                    r += 1
            play_turn(st, wk, fw, strats)
        n_rows[i] = r
        aborted = st[H_ABORTED] != 0
        nw = st[H_N_WINNERS]
        for k in range(min(r, cap)):
            s = seat[i, k]
            win[i, k] = 1.0 / nw if (not aborted and nw > 0 and (st[H_WINNERS] >> s) & 1) else 0.0
