"""What a Project Dreamscape study records of each chunk: named, typed columns (:attr:`simcore.games.Game.study_tables`).

``play_games(..., tables=True)`` returns these tables beside its arrays, and the lab's one
study path (:mod:`analyses.study.gamechunks`) writes each as a chunk file, adding the
``config`` column in front and each seat's ``strategy`` after ``seat``:

* ``agg``: per-chunk sums per seat, enough for every rate, mean and interval the analyses
  (:mod:`analyses.games.dreamscape.balance`, ...) and the report read;
* ``games``: one row per game and seat (paired analyses, the per-game charts);
* ``pairs``: per seat and card label, the cards held in the REM stack at game end.

Only NumPy here: the game package names no module of an upper layer.
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.rules import MAX_PLAYERS, SOLO_BANDS

BAND_HIGHS = np.array([high for _, high, _ in SOLO_BANDS[:-1]], dtype=np.float64)  # R10.5 upper bounds
BAND_LABELS = tuple(label for _, _, label in SOLO_BANDS)
SUMMED = ("win", "score", "z", "turns", "length")  # sum_X / sum2_X of the agg table, in file order

# Every table's columns in file order, each with its dtype ("str": text). The lab adds config and strategy.
STUDY_TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    "agg": (
        ("seat", "int8"), ("n", "int64"),
        *((f"{s}_{name}", "float64") for name in SUMMED for s in ("sum", "sum2")),
        ("aborted", "int64"),
        *((f"sum_winx_{j}", "float64") for j in range(MAX_PLAYERS)),
        ("sum_ws", "float64"), ("sum2_ws", "float64"),
        *(col for code in CODES for col in ((f"sum_performed_{code}", "int64"), (f"sum_chain_{code}", "int64"),
                                              (f"more_{code}", "int64"), (f"wins_more_{code}", "float64"))),
        *((f"band_{k}", "int64") for k in range(len(BAND_LABELS))),
    ),
    "games": (
        ("game", "int64"), ("seat", "int8"), ("score", "int16"), ("z", "int16"), ("turns", "int16"),
        ("win", "float64"), ("length", "int16"), ("aborted", "bool"),
        *(col for code in CODES for col in ((f"performed_{code}", "int16"), (f"chain_{code}", "int16"))),
    ),
    "pairs": (
        ("seat", "int8"), ("card", "str"), ("seat_games_held", "int64"), ("wins_held", "float64"), ("copies", "int64"),
    ),
}


def study_result(result) -> dict:
    """What ``play_games(..., tables=True)`` returns for the games of one
    :class:`~simcore.games.dreamscape.fast.runner.SimResult`: its arrays and its :func:`study_tables`."""
    return {
        "game": np.arange(result.first_game, result.first_game + result.n_games, dtype=np.int64),
        "win": result.win,
        "score": result.score,
        "turns": result.length,
        "aborted": result.aborted,
        "tables": study_tables(result),
    }


def study_tables(result) -> dict[str, dict[str, np.ndarray]]:
    """The tables of :data:`STUDY_TABLES` of one chunk's :class:`~simcore.games.dreamscape.fast.runner.SimResult`
    (``pairs`` left out when the result holds no cards: a stand-in engine's)."""
    tables = {"agg": agg_table(result), "games": games_table(result)}
    pairs = pairs_table(result)
    if pairs is not None:
        tables["pairs"] = pairs
    return tables


def games_table(result) -> dict[str, np.ndarray]:
    """One row per game and seat: score, Z cards, turns, win credit (R8.3), game length, aborted (R8.4), and every
    dream type's performances and chain points (R8.2)."""
    n, p = result.score.shape
    columns = {
        "game": np.repeat(np.arange(result.first_game, result.first_game + n, dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "score": result.score.reshape(-1).astype(np.int16),
        "z": result.z.reshape(-1).astype(np.int16),
        "turns": result.turns.reshape(-1).astype(np.int16),
        "win": result.win.reshape(-1).astype(np.float64),
        "length": np.repeat(result.length, p).astype(np.int16),
        "aborted": np.repeat(result.aborted, p).astype(bool),
    }
    perf = result.performed.reshape(n * p, len(CODES))
    chain = result.chain_by_type.reshape(n * p, len(CODES))
    for t, code in enumerate(CODES):
        columns[f"performed_{code}"] = perf[:, t].astype(np.int16)
        columns[f"chain_{code}"] = chain[:, t].astype(np.int16)
    return columns


def agg_table(result) -> dict[str, np.ndarray]:
    """Per-chunk sums per seat (one row per seat).

    * ``n`` games; ``aborted`` aborted games (R8.4, the same on every seat row);
    * ``sum_X`` / ``sum2_X`` (sum and sum of squares) of ``win`` (win credit,
      R8.3), ``score``, ``z``, ``turns`` and ``length`` (game length);
    * ``sum_winx_J`` (J = 0..3): sum over games of this seat's win credit times
      seat J's (covariances of seat win rates, for paired seat contrasts);
    * ``sum_ws`` / ``sum2_ws``: sum over games of this seat's win credit times
      the game's winning score (and its square). Summed over seats they give
      the sum (of squares) of the winning score over the non-aborted games,
      since the credits of a game add up to 1 and every winner has the
      highest score (R8.3);
    * ``sum_performed_XX`` / ``sum_chain_XX`` per dream type XX;
      ``more_XX``: games in which this seat performed XX more often than the
      mean over the game's seats, ``wins_more_XX`` the win credit in them;
    * ``band_0`` .. ``band_5``: games whose score falls in each R10.5 band.
    """
    score = np.asarray(result.score)
    n, p = score.shape
    win = np.asarray(result.win, dtype=np.float64)
    cols: dict[str, np.ndarray] = {"seat": np.arange(p, dtype=np.int8), "n": np.full(p, n, dtype=np.int64)}
    length = np.broadcast_to(np.asarray(result.length, dtype=np.float64)[:, None], (n, p))
    for name, arr in (("win", win), ("score", score), ("z", result.z), ("turns", result.turns), ("length", length)):
        a = np.asarray(arr, dtype=np.float64)
        cols[f"sum_{name}"] = a.sum(axis=0)
        cols[f"sum2_{name}"] = (a * a).sum(axis=0)
    cols["aborted"] = np.full(p, int(np.asarray(result.aborted).sum()), dtype=np.int64)
    for j in range(MAX_PLAYERS):
        cols[f"sum_winx_{j}"] = (win * win[:, j:j + 1]).sum(axis=0) if j < p else np.zeros(p)
    ws = (win * score).sum(axis=1)[:, None]
    cols["sum_ws"] = (win * ws).sum(axis=0)
    cols["sum2_ws"] = (win * ws * ws).sum(axis=0)
    perf = np.asarray(result.performed, dtype=np.int64)
    chain = np.asarray(result.chain_by_type, dtype=np.int64)
    more = perf * p > perf.sum(axis=1, keepdims=True)  # performed more than the game's mean over seats
    perf_sum, chain_sum, more_sum = perf.sum(axis=0), chain.sum(axis=0), more.sum(axis=0)
    wins_more = (more * win[:, :, None]).sum(axis=0)
    for t, code in enumerate(CODES):
        cols[f"sum_performed_{code}"] = perf_sum[:, t]
        cols[f"sum_chain_{code}"] = chain_sum[:, t]
        cols[f"more_{code}"] = more_sum[:, t].astype(np.int64)
        cols[f"wins_more_{code}"] = wins_more[:, t]
    bands = np.searchsorted(BAND_HIGHS, score, side="left")  # score <= high of band k (R10.5)
    for k in range(len(BAND_LABELS)):
        cols[f"band_{k}"] = (bands == k).sum(axis=0).astype(np.int64)
    return cols


def pairs_table(result) -> dict[str, np.ndarray] | None:
    """Per seat and card label (``"FF/IS"`` as the deck writes it, R1.3): ``seat_games_held`` (games in which the
    seat's REM stack held at least one copy), ``wins_held`` (win credit in those games) and ``copies`` (copies held,
    summed over games). None when the result holds no cards."""
    labels = list(result.card_labels or [])
    held = result.held
    if held is None or not labels:
        return None
    held = np.asarray(held)
    n, p, c = held.shape
    uniq = list(dict.fromkeys(labels))
    index = {lab: i for i, lab in enumerate(uniq)}
    onehot = np.zeros((c, len(uniq)), dtype=np.float32)
    onehot[np.arange(c), [index[lab] for lab in labels]] = 1.0
    # float32 matrix product (BLAS): exact for these small counts, and much faster than integers.
    copies = np.rint(held.reshape(n * p, c).astype(np.float32) @ onehot).astype(np.int64).reshape(n, p, len(uniq))
    anyheld = copies > 0
    win = np.asarray(result.win, dtype=np.float64)
    seat_games = anyheld.sum(axis=0)  # (p, L)
    wins = (anyheld * win[:, :, None]).sum(axis=0)
    total = copies.sum(axis=0)
    L = len(uniq)
    return {
        "seat": np.repeat(np.arange(p, dtype=np.int8), L),
        "card": np.array(uniq * p, dtype=object),
        "seat_games_held": seat_games.reshape(-1).astype(np.int64),
        "wins_held": wins.reshape(-1),
        "copies": total.reshape(-1).astype(np.int64),
    }
