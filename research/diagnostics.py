"""Where does the search player's gain over ``expert`` come from? Held-out measures of one-ply models.

The data are the search player's decisions (:mod:`research.diagnostic_games`):
one row per option, columns ``simcore.games.dreamscape.fast.isearch.REC_*`` (the decision,
its kind, the option's afterstate features, its mean playout outcome, the
option the search took). A *model* is anything that scores the options of a
decision; it picks the option(s) of highest score.

The two measures, per decision (ties among a model's top options count as a
uniform draw among them, as the engine's tie break on the stream would):

* **agreement**: the chance that the model picks the option a reference
  picked (the search's choice, or the best option under another label);
* **regret**: the best option's value minus the value of the model's pick,
  under a given label (mean playout outcomes: win credit + score margin /
  1000, so ``100 * regret`` is in win points).

Models compared (:func:`fit_scores`): the shipped expert table, the trainer's
ridge fit (:func:`analyses.games.dreamscape.train.fit_table`), LightGBM's lambdarank (one
ranking model over all kinds, the group is the decision), scikit-learn's
histogram gradient boosting and a small MLP regressing the centred outcome.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analyses.games.dreamscape.train import centred, fit_table, phase_of
from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_FEATURES, REC_KIND, REC_VALUE
from simcore.games.dreamscape.fast.layout import F_DECK_FRACTION
from simcore.games.dreamscape.fast.scratch import EXPERT_ROWS
from simcore.games.dreamscape.rules import DECISION_KINDS
from simcore.games.dreamscape.bots.features import N_FEATURES

MODELS = ("expert", "ridge", "lightgbm", "hgb", "mlp")


def decision_starts(decision: np.ndarray) -> np.ndarray:
    """Index of the first row of each decision (rows of one decision are contiguous)."""
    decision = np.asarray(decision)
    if decision.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.r_[True, decision[1:] != decision[:-1]])


def _per_decision(starts: np.ndarray, n_rows: int) -> np.ndarray:
    """Rows per decision."""
    return np.diff(np.r_[starts, n_rows])


def top_rows(scores: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """True for each row whose score is its decision's highest (ties: every tied row)."""
    scores = np.asarray(scores, dtype=float)
    starts = decision_starts(decision)
    if starts.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    best = np.maximum.reduceat(scores, starts)
    return scores == np.repeat(best, _per_decision(starts, scores.shape[0]))


def agreement(scores: np.ndarray, chosen: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """Per decision: the chance that a pick among the top-scored options (uniform on ties) is a chosen one.

    ``chosen`` is 1 for the reference's option(s) (several: each counts, e.g. tied best values).
    """
    starts = decision_starts(decision)
    if starts.shape[0] == 0:
        return np.zeros(0)
    top = top_rows(scores, decision).astype(float)
    hit = np.add.reduceat(top * (np.asarray(chosen) > 0), starts)
    return hit / np.add.reduceat(top, starts)


def regret(scores: np.ndarray, values: np.ndarray, decision: np.ndarray) -> np.ndarray:
    """Per decision: the highest value minus the mean value of the top-scored options (uniform on ties)."""
    values = np.asarray(values, dtype=float)
    starts = decision_starts(decision)
    if starts.shape[0] == 0:
        return np.zeros(0)
    top = top_rows(scores, decision).astype(float)
    picked = np.add.reduceat(top * values, starts) / np.add.reduceat(top, starts)
    return np.maximum.reduceat(values, starts) - picked


def decision_kinds(records: np.ndarray) -> np.ndarray:
    """The kind of each decision (its first row's)."""
    return records[decision_starts(records[:, REC_DECISION]), REC_KIND].astype(np.int64)


def table_scores(records: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Each option's expert score: the dot product with its kind and phase's row of ``table``."""
    x = records[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    rows = records[:, REC_KIND].astype(np.int64) * 3 + phase_of(records[:, REC_FEATURES + F_DECK_FRACTION])
    return np.einsum("ij,ij->i", x, table.reshape(EXPERT_ROWS, N_FEATURES)[rows])


def with_values(records: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``records`` with ``REC_VALUE`` replaced (to fit on another label)."""
    out = records.copy()
    out[:, REC_VALUE] = values
    return out


def tree_inputs(records: np.ndarray) -> np.ndarray:
    """Inputs of the non-linear models: raw features, features centred within the decision, and the kind."""
    x = records[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    xc, _ = centred(records)
    return np.column_stack([x, xc, records[:, REC_KIND]])


def rank_labels(records: np.ndarray) -> np.ndarray:
    """Graded relevance for lambdarank: an option's rank by value within its decision (0 = worst; ties share)."""
    values = records[:, REC_VALUE]
    decision = records[:, REC_DECISION]
    starts = decision_starts(decision)
    out = np.zeros(values.shape[0], dtype=np.int64)
    for s, n in zip(starts, _per_decision(starts, values.shape[0])):
        v = values[s : s + n]
        out[s : s + n] = np.searchsorted(np.unique(v), v)
    return out


@dataclass
class Fitted:
    """A model's scores on the test rows (and on the training rows, to see how well it fits at all)."""

    name: str
    test: np.ndarray
    train: np.ndarray


def fit_scores(name: str, train: np.ndarray, test: np.ndarray, table: np.ndarray, seed: int = 1) -> Fitted:
    """Fit model ``name`` (one of :data:`MODELS`) on ``train`` records and score both sets.

    ``table`` is the shipped expert table: ``expert`` plays it as it is, and
    ``ridge`` keeps its rows where the training data have too few rows (as
    the trainer does). Every model is deterministic for a given ``seed``.
    """
    from threadpoolctl import threadpool_limits  # scikit-learn's own dependency

    # one thread: OpenMP teams spinning at their barriers on a loaded 2-core machine cost minutes per fit
    with threadpool_limits(1):
        return _fit(name, train, test, table, seed)


def _fit(name: str, train: np.ndarray, test: np.ndarray, table: np.ndarray, seed: int) -> Fitted:
    if name == "expert":
        return Fitted(name, table_scores(test, table), table_scores(train, table))
    if name == "ridge":
        fitted = fit_table(train, table)
        return Fitted(name, table_scores(test, fitted), table_scores(train, fitted))
    x_train, x_test = tree_inputs(train), tree_inputs(test)
    kind_column = x_train.shape[1] - 1
    if name == "lightgbm":
        import lightgbm as lgb

        starts = decision_starts(train[:, REC_DECISION])
        model = lgb.LGBMRanker(
            objective="lambdarank", n_estimators=300, learning_rate=0.05, num_leaves=31, min_child_samples=20,
            random_state=seed, deterministic=True, force_row_wise=True, n_jobs=1, verbose=-1,
        )
        model.fit(x_train, rank_labels(train), group=_per_decision(starts, train.shape[0]),
                  categorical_feature=[kind_column])
        return Fitted(name, model.predict(x_test), model.predict(x_train))
    _, y = centred(train)
    if name == "hgb":
        from sklearn.ensemble import HistGradientBoostingRegressor

        cats = np.zeros(x_train.shape[1], dtype=bool)
        cats[kind_column] = True
        model = HistGradientBoostingRegressor(max_iter=300, learning_rate=0.1, categorical_features=cats,
                                              random_state=seed)
        model.fit(x_train, y)
        return Fitted(name, model.predict(x_test), model.predict(x_train))
    if name == "mlp":
        from sklearn.neural_network import MLPRegressor
        from sklearn.preprocessing import StandardScaler

        def inputs(x: np.ndarray) -> np.ndarray:
            kinds = np.zeros((x.shape[0], len(DECISION_KINDS)))
            kinds[np.arange(x.shape[0]), x[:, kind_column].astype(np.int64)] = 1.0
            return np.column_stack([x[:, :kind_column], kinds])

        scaler = StandardScaler().fit(inputs(x_train))
        model = MLPRegressor(hidden_layer_sizes=(64, 32), alpha=1e-3, max_iter=30, batch_size=512, early_stopping=True,
                             random_state=seed)
        model.fit(scaler.transform(inputs(x_train)), y)
        return Fitted(name, model.predict(scaler.transform(inputs(x_test))),
                      model.predict(scaler.transform(inputs(x_train))))
    raise ValueError(f"unknown model {name!r} (known: {', '.join(MODELS)})")

