"""Can any model of the 64 afterstate slots play the late game like search? (issue #12)

Run from the repository root (in the project's venv)::

    python research/late_decisions.py --players 3 --variant base --train-games 3000 --test-games 1000

Every seat plays ``search:expert@K:late`` (the late-game searcher: it searches
the decisions of the last third of the Sleep Deck and plays expert before), and
every searched decision is kept with each option's afterstate slots and mean
playout value (the trainer's records, ``simcore.games.dreamscape.fast.runner.collect_search``).
Training and test games are different games of the same seed. On the held-out
decisions it prints, per model, the regret: the best option's playout value
minus the value of the model's pick, summed over a game's decisions (all seats;
win credit, so 1.0 is one game's win). The models: the shipped expert table of
the configuration; ridge refitted on the late records (as ``dreamscape train``
fits, per kind); ridge per kind and bucket of cards left in the Sleep Deck;
ridge with every slot also times the deck left and times the score lead;
LightGBM (optional extra ``pip install -e .[diagnostics]``); and the first
option, for scale (ties among top-scored options count as a uniform pick, as in
``research.diagnostics.regret``). The playout values are noisy (K playouts), so no pick has
regret 0; the models are compared on the same values.

Then the Z-card decision (``take_z``): how often the searcher and the shipped
table take a Z card, by cards left and by score lead.

Same seed, same numbers. Bad input: usage and one error line, exit code 2.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TEST_FIRST_GAME = 500_000  # test games come from their own range of game indices of the seed
DECK_BUCKETS = (3.5, 6.5, 9.5, 12.5)  # cards left in the Sleep Deck: <= 3, <= 6, <= 9, <= 12, more


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=int, default=5)
    p.add_argument("--playouts", type=int, default=8, help="K of the late-game searcher (default 8)")
    p.add_argument("--train-games", type=int, default=3000)
    p.add_argument("--test-games", type=int, default=1000)
    a = p.parse_args(argv)
    if not 2 <= a.players <= 4 or a.playouts < 1 or a.train_games < 10 or a.test_games < 10:
        p.error("need 2-4 players, 1+ playouts, 10+ training and test games")
    return a


def records(config, games: int, seed: int, first: int, playouts: int) -> np.ndarray:
    from simcore.games.dreamscape.fast.runner import collect_search
    from simcore.games.dreamscape.bots.api import load_strategy

    searcher = load_strategy(f"search:expert@{playouts}:late")
    rec, _, _ = collect_search(config, games, seed, searcher, first_game=first)
    return rec


def centre(x: np.ndarray, rec: np.ndarray) -> np.ndarray:
    """``x`` minus its decision's mean (only differences between a decision's options count)."""
    from simcore.games.dreamscape.fast.isearch import REC_DECISION

    _, inverse, counts = np.unique(rec[:, REC_DECISION].astype(np.int64), return_inverse=True, return_counts=True)
    mean = np.zeros((counts.shape[0], x.shape[1]))
    np.add.at(mean, inverse, x)
    return x - (mean / counts[:, None])[inverse]


def ridge_scores(x_train, y_train, group_train, x_test, group_test) -> np.ndarray:
    """Ridge per group (decision kind, or kind and deck bucket), as the trainer fits a table row."""
    from sklearn.linear_model import Ridge

    from analyses.games.dreamscape.train import MIN_ROWS, RIDGE_ALPHA

    out = np.zeros(x_test.shape[0])
    for g in np.unique(group_train):
        mask = group_train == g
        if mask.sum() < MIN_ROWS:
            continue
        w = Ridge(alpha=RIDGE_ALPHA, fit_intercept=False).fit(x_train[mask], y_train[mask]).coef_
        at = group_test == g
        out[at] = x_test[at] @ w
    return out


def run(args: argparse.Namespace) -> None:
    import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers expert
    from research.diagnostics import decision_kinds, regret, table_scores
    from analyses.games.dreamscape.train import centred
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.fast.isearch import REC_DECISION, REC_FEATURES, REC_KIND, REC_VALUE
    from simcore.games.dreamscape.fast.layout import F_ARG, F_BEST_OPP, F_DECK_LEFT, F_OPTION_INDEX, F_SCORE_NOW
    from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS
    from simcore.games.dreamscape.variants import parse_variant
    from simcore.games.dreamscape.bots.expert import config_key, shipped_tables
    from simcore.games.dreamscape.bots.features import N_FEATURES

    variant = parse_variant(args.variant)
    config = SimConfig(args.players, variant.options, variant.deck())
    t0 = time.perf_counter()
    train = records(config, args.train_games, args.seed, 0, args.playouts)
    test = records(config, args.test_games, args.seed, TEST_FIRST_GAME, args.playouts)
    print(f"Late decisions of search:expert@{args.playouts}:late self-play, {args.players} players, {args.variant}, "
          f"seed {args.seed}: {args.train_games:,} games to fit, {args.test_games:,} held out "
          f"({time.perf_counter() - t0:.0f} s)")
    x_tr = train[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    x_te = test[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    k_tr = train[:, REC_KIND].astype(np.int64)
    k_te = test[:, REC_KIND].astype(np.int64)
    use = np.ones(N_FEATURES, dtype=bool)
    use[F_OPTION_INDEX] = False
    xc, yc = centred(train)

    def bucket(x):
        return np.digitize(x[:, F_DECK_LEFT], DECK_BUCKETS)

    def crossed(x):
        lead = np.tanh((x[:, F_SCORE_NOW] - x[:, F_BEST_OPP]) / 5.0)[:, None]
        base = x[:, use]
        return np.hstack([base, base * x[:, F_DECK_LEFT][:, None] / 10.0, base * lead])

    tables = shipped_tables()
    key = config_key(args.players, variant.options)
    table = tables[key][1]
    models = {
        "shipped expert table": table_scores(test, table),
        "ridge on these records": ridge_scores(xc[:, use], yc, k_tr, x_te[:, use], k_te),
        "ridge per kind x deck bucket": ridge_scores(xc[:, use], yc, k_tr * 10 + bucket(x_tr), x_te[:, use],
                                                     k_te * 10 + bucket(x_te)),
        "ridge, slots x deck and lead": ridge_scores(centre(crossed(x_tr), train), yc, k_tr, crossed(x_te), k_te),
        "first option": -x_te[:, F_OPTION_INDEX],
    }
    try:
        import lightgbm

        booster = lightgbm.LGBMRegressor(n_estimators=400, num_leaves=63, learning_rate=0.05, min_child_samples=50,
                                         verbose=-1, random_state=args.seed, n_jobs=2, deterministic=True)
        booster.fit(np.hstack([x_tr[:, use], k_tr[:, None]]), yc, categorical_feature=[int(use.sum())])
        models["lightgbm"] = booster.predict(np.hstack([x_te[:, use], k_te[:, None]]))
    except ImportError:
        print("  (lightgbm not installed: pip install -e .[diagnostics])")
    print(f"  {'model':<32}{'regret per game':>16}   largest kinds")
    kinds = decision_kinds(test)
    for name, score in models.items():
        r = regret(score, test[:, REC_VALUE], test[:, REC_DECISION])
        per_kind = sorted(((r[kinds == k].sum() / args.test_games, DECISION_KINDS[k]) for k in np.unique(kinds)),
                          reverse=True)
        print(f"  {name:<32}{r.sum() / args.test_games:>16.2f}   "
              + ", ".join(f"{kind} {v:.2f}" for v, kind in per_kind[:3]))

    take = test[k_te == DECISION_ID["take_z"]]
    if take.shape[0] == 0:
        return
    xt = take[:, REC_FEATURES : REC_FEATURES + N_FEATURES]
    scores = table_scores(take, table)
    first, second = slice(0, None, 2), slice(1, None, 2)  # take_z decisions have two options, in order
    takes_first = xt[first, F_ARG] == 1
    v_take = np.where(takes_first, take[first, REC_VALUE], take[second, REC_VALUE])
    v_keep = np.where(takes_first, take[second, REC_VALUE], take[first, REC_VALUE])
    s_take = np.where(takes_first, scores[first], scores[second])
    s_keep = np.where(takes_first, scores[second], scores[first])
    table_takes = s_take > s_keep
    ties = int((s_take == s_keep).sum())  # the engine breaks ties at random: counted as not taking here
    search_takes = v_take > v_keep
    deck = xt[first, F_DECK_LEFT]
    print(f"\nTaking a Z card (take_z), {takes_first.shape[0]:,} held-out late decisions: the searcher takes in "
          f"{100 * search_takes.mean():.0f}%, the shipped table in {100 * table_takes.mean():.0f}% ({ties} ties)")
    for lo, hi in ((0, 3), (4, 6), (7, 9), (10, 12), (13, 99)):
        m = (deck >= lo) & (deck <= hi)
        if m.any():
            print(f"  {lo:>2}-{min(hi, 17):<2} cards left: {m.sum():>5} decisions, searcher takes "
                  f"{100 * search_takes[m].mean():3.0f}%, table {100 * table_takes[m].mean():3.0f}%, "
                  f"taking worth {(v_take - v_keep)[m].mean():+.3f} wins on average")


def main(argv: list[str] | None = None) -> int:
    run(parse(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
