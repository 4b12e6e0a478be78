"""Training the expert bot by expert iteration (``dreamscape train``).

One iteration:

1. play ``games`` self-play games in which every seat is the search player
   ``search:TABLE@K`` over the current table (:mod:`simcore.games.dreamscape.fast.isearch`:
   every decision with 2+ options played out K times per option, hidden cards
   dealt anew for every playout);
2. keep every searched decision: each option's afterstate features and its
   mean playout outcome (win credit + score margin / 1000);
3. fit a new table: per decision kind and game phase, a ridge regression of
   the outcome on the features, both centred within each decision (only the
   differences between a decision's options matter, so whatever the options
   share drops out). The fitted table is the search player distilled: a
   one-ply policy that tries to pick what K playouts would pick.

The first iteration starts from the linear bot's weights in every row (the
table that plays exactly like ``linear``). Each iteration's games come from
their own range of game indices of the seed, so training is reproducible
from its seed, bit for bit, whatever the thread count.

Why ridge regression (scikit-learn's ``Ridge``): the engine scores an option
with a dot product it computes itself (``Mode.EXPERT``, as fast as the linear
bot), so the model must be linear in the afterstate features; the kind and
phase split gives it the non-linearity that matters most (a Z card is worth
more early, a point more late). Ridge is the least-squares fit that stays
well defined when features are collinear within a decision (``delta`` and
``score_after`` move together), and scikit-learn is the well-kept standard
for it.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simcore.games.dreamscape.decks import Deck
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_FEATURES, REC_KIND, REC_VALUE
from simcore.games.dreamscape.fast.layout import F_ARG, F_DECK_FRACTION, F_OPTION_INDEX, K_SHIFTING_DREAMS, K_SHIFTING_TOKENS
from simcore.games.dreamscape.fast.runner import collect_search
from simcore.games.dreamscape.fast.scratch import EXPERT_PHASES, EXPERT_ROWS
from simcore.games.dreamscape.fast.strategies import register_expert, register_search
from simcore.games.dreamscape.rules import DECISION_KINDS, Options
from simcore.games.dreamscape.bots.expert import PHASES, config_key, table_from_linear
from simcore.games.dreamscape.bots.features import N_FEATURES

DECISIONS_PER_ITERATION = 10**9
TRAIN_NAME = "expert-training"  # the name the table in training is registered under
MIN_ROWS = 200  # a kind and phase with fewer option rows borrows the kind's fit over all phases
RIDGE_ALPHA = 1e-3
# Slots a table never weighs: the option's place in the engine's list (an artefact of the order) and, at
# the Shifting kinds, everything (their 120 orders differ only in index and arg; the engine ties them).
EXCLUDED = (F_OPTION_INDEX,)


@dataclass
class Iteration:
    """What one training iteration did (one row of the training log)."""

    iteration: int
    games: int
    decisions: int
    rows: int
    skipped: int
    agreement: float  # share of searched decisions where the new table picks what the search picked
    seconds: float
    check: float = float("nan")  # see check_value: higher is better
    kept: bool = False  # the table returned is this iteration's


@dataclass
class TrainResult:
    """A trained table and its training log."""

    table: np.ndarray
    history: list[Iteration] = field(default_factory=list)
    seconds: float = 0.0


def phase_of(deck_fraction: np.ndarray) -> np.ndarray:
    """The table phase of each row (as the engine's ``expert_row``: > 2/3 early, > 1/3 mid)."""
    return np.where(deck_fraction > 2.0 / 3.0, 0, np.where(deck_fraction > 1.0 / 3.0, 1, 2))


def centred(records: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Features and outcomes minus their decision's mean (rows grouped by ``REC_DECISION``)."""
    x = records[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    y = records[:, REC_VALUE]
    decision = records[:, REC_DECISION].astype(np.int64)
    _, inverse, counts = np.unique(decision, return_inverse=True, return_counts=True)
    mean_x = np.zeros((counts.shape[0], N_FEATURES))
    np.add.at(mean_x, inverse, x)
    mean_y = np.bincount(inverse, weights=y, minlength=counts.shape[0])
    return x - (mean_x / counts[:, None])[inverse], y - (mean_y / counts)[inverse]


def fit_table(records: np.ndarray, previous: np.ndarray, alpha: float = RIDGE_ALPHA) -> np.ndarray:
    """The table distilled from search records (see the module docstring); rows without data keep ``previous``."""
    from sklearn.linear_model import Ridge

    table = previous.copy()
    if records.shape[0] == 0:
        return table
    xc, yc = centred(records)
    kind = records[:, REC_KIND].astype(np.int64)
    phase = phase_of(records[:, REC_FEATURES + F_DECK_FRACTION])
    use = np.ones(N_FEATURES, dtype=bool)
    use[list(EXCLUDED)] = False

    def fit(mask: np.ndarray) -> np.ndarray:
        model = Ridge(alpha=alpha, fit_intercept=False).fit(xc[mask][:, use], yc[mask])
        w = np.zeros(N_FEATURES)
        w[use] = model.coef_
        return w

    for k in range(len(DECISION_KINDS)):
        if k in (K_SHIFTING_DREAMS, K_SHIFTING_TOKENS):
            table[k * EXPERT_PHASES * N_FEATURES : (k + 1) * EXPERT_PHASES * N_FEATURES] = 0.0
            continue
        of_kind = kind == k
        if of_kind.sum() < MIN_ROWS:
            continue
        pooled = fit(of_kind)
        for p in range(EXPERT_PHASES):
            mask = of_kind & (phase == p)
            w = fit(mask) if mask.sum() >= MIN_ROWS else pooled
            base = (k * EXPERT_PHASES + p) * N_FEATURES
            table[base : base + N_FEATURES] = w
    return table


def agreement(records: np.ndarray, table: np.ndarray) -> float:
    """Share of the recorded decisions where ``table`` ranks first the option with the best playout mean."""
    if records.shape[0] == 0:
        return float("nan")
    x = records[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    rows = records[:, REC_KIND].astype(np.int64) * EXPERT_PHASES + phase_of(records[:, REC_FEATURES + F_DECK_FRACTION])
    score = np.einsum("ij,ij->i", x, table.reshape(EXPERT_ROWS, N_FEATURES)[rows])
    decision = records[:, REC_DECISION].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])
    best_value = np.maximum.reduceat(records[:, REC_VALUE], starts)
    best_score = np.maximum.reduceat(score, starts)
    counts = np.diff(np.r_[starts, decision.shape[0]])
    value_top = records[:, REC_VALUE] == np.repeat(best_value, counts)
    score_top = score == np.repeat(best_score, counts)
    hit = np.logical_or.reduceat(value_top & score_top, starts)
    return float(hit.mean())


def train(
    players: int,
    options: Options,
    deck: Deck,
    start: np.ndarray,
    *,
    iterations: int = 3,
    games: int = 400,
    playouts: int = 4,
    seed: int = 1,
    check_games: int = 2000,
    window: int = 2,
    progress: Callable[[int, int], None] | None = None,
) -> TrainResult:
    """Expert iteration for one configuration (see the module docstring).

    Parameters
    ----------
    players, options, deck :
        The configuration trained for.
    start : float64[N_FEATURES] or float64[EXPERT_WIDTH]
        Linear weights (every row starts from them) or a table to start from.
    iterations, games, playouts : int
        Iterations; self-play games per iteration; playouts per option (K).
    seed : int
        Iteration i plays games ``i * games ..`` of this seed.
    check_games : int
        Games per seat of the check against ``linear`` after each iteration
        (0: none). With checks, the table returned is the iteration's table
        with the best check (its history row is marked ``kept``).
    window : int
        Each fit uses the records of the last ``window`` iterations (smooths
        the oscillation of a policy fitted to its own playouts).
    progress : callable(done, total), optional
        Called with games done over all iterations.
    """
    config = SimConfig(players, options, deck)
    table = table_from_linear(start) if start.shape[0] == N_FEATURES else start.copy()
    key = config_key(players, options)
    result = TrainResult(table)
    t_all = time.perf_counter()
    total = iterations * games
    recent: list[np.ndarray] = []
    best = -np.inf
    for it in range(iterations):
        t0 = time.perf_counter()
        register_expert(TRAIN_NAME, {key: table}, key)
        search = register_search(TRAIN_NAME, playouts)
        done_before = it * games
        records, _, skipped = collect_search(
            config, games, seed, search, first_game=it * games,
            progress=(lambda d, n: progress(done_before + d, total)) if progress else None,
        )
        records[:, REC_DECISION] += it * DECISIONS_PER_ITERATION  # decisions of different iterations stay apart
        recent = (recent + [records])[-window:]
        table = fit_table(np.concatenate(recent), table)
        row = Iteration(
            iteration=it + 1, games=games, rows=int(records.shape[0]), skipped=skipped,
            decisions=int(np.unique(records[:, REC_DECISION]).shape[0]) if records.shape[0] else 0,
            agreement=agreement(records, table), seconds=time.perf_counter() - t0,
        )
        if check_games:
            register_expert(TRAIN_NAME, {key: table}, key)
            row.check = check_value(config, TRAIN_NAME, check_games, seed)
            if row.check > best:
                best, result.table = row.check, table
                for earlier in result.history:
                    earlier.kept = False
                row.kept = True
        else:
            result.table, row.kept = table, True
        result.history.append(row)
    result.seconds = time.perf_counter() - t_all
    return result


CHECK_SEED_OFFSET = 7919  # the checks play other deals than the training games


def check_value(config: SimConfig, bot: str, games: int, seed: int, field_bot: str = "linear") -> float:
    """How good a table is (higher is better): what keeps the best iteration.

    With opponents: the mean over seats of ``bot``'s win rate in that seat
    against ``field_bot`` everywhere else, times the player count (1.0: as
    good as the field). Solo: the mean final score (R10.5).
    """
    chunk = max(1, min(games, 20_000))
    if config.players == 1:
        return float(simulate(config, games, seed + CHECK_SEED_OFFSET, [bot], chunk_size=chunk).score[:, 0].mean())
    shares = []
    for seat in range(config.players):
        names = [field_bot] * config.players
        names[seat] = bot
        res = simulate(config, games, seed + CHECK_SEED_OFFSET, names, chunk_size=chunk)
        shares.append(float(res.win[:, seat].mean()))
    return float(np.mean(shares) * config.players)


def check_label(players: int) -> str:
    """What :func:`check_value` measures, for tables and files."""
    return "mean solo score" if players == 1 else "win share against linear (1 = fair share)"


__all__ = ["train", "fit_table", "agreement", "centred", "check_value", "check_label", "TrainResult", "Iteration",
           "PHASES", "TRAIN_NAME"]


def train_data(result: TrainResult, players: int, variant: str, deck_label: str, seed: int, playouts: int,
               out: str) -> dict:
    """The JSON-ready description of a training run (``dreamscape train --json``; seats not involved)."""
    return {
        "out": out, "players": players, "variant": variant, "deck": deck_label, "seed": seed, "playouts": playouts,
        "seconds": round(result.seconds, 2), "check": check_label(players),
        "iterations": [
            {"iteration": h.iteration, "games": h.games, "decisions": h.decisions, "option_rows": h.rows,
             "not_kept": h.skipped, "agreement": h.agreement, "check": h.check, "kept": h.kept,
             "seconds": round(h.seconds, 2)}
            for h in result.history
        ],
    }


def train_comment(data: dict, command: str, machine: str) -> str:
    """The header comment of a trained table file: how to make it again and what it took."""
    kept = [h for h in data["iterations"] if h["kept"]]
    lines = [
        f"Trained by `{command}`",
        f"expert iteration: {len(data['iterations'])} iterations of {data['iterations'][0]['games'] if data['iterations'] else 0} "
        f"self-play games, search:TABLE@{data['playouts']} at every seat; seed {data['seed']}",
        f"{data['seconds']:.0f} s on {machine}",
    ]
    for h in data["iterations"]:
        lines.append(f"iteration {h['iteration']}: {h['decisions']:,} searched decisions, agreement {100 * h['agreement']:.1f}%, "
                     f"{data['check']} {h['check']:.3f}{'  <- kept' if h['kept'] else ''}")
    if not kept:
        lines.append("the last iteration's table is kept")
    return "\n".join(lines)
