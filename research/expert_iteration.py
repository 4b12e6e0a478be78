"""Expert iteration on the positions strong reaches (issue #42, item 4): labels, a correction, held-out regret.

Run from the repository root (in the project's venv)::

    # labels: strong self-play, every kept strong decision's options scored by 32 playouts of search:strong
    python research/expert_iteration.py collect OUT --players 3 --variant base --seed 11 --games 600 --chunk 20
    # the correction and its held-out regret by decision kind
    python research/expert_iteration.py fit OUT [--save CORRECTION.npz]
    # the sharp bot's shipped correction
    python research/expert_iteration.py fit OUT --inputs view --only-kinds lucid_dreaming,interrupted_sleep \
        --save simcore/games/dreamscape/bots/data/sharp/3p-base.npz

``collect`` writes one file per chunk of games (``chunk-FIRSTGAME.npz``) and skips the chunks already there,
so a run that was stopped goes on where it stopped, and the same seed gives the same files whatever the
chunking of the runs (each game is its own seed's game index). Labels: :mod:`research.iteration_games`.

``fit`` splits the games by index (``game % 10``: 0-5 train, 6-7 validation, 8-9 test), fits for every
decision kind a pairwise logistic ranking (scikit-learn ``LogisticRegression``, no intercept) on the
differences between each option and strong's pick: inputs the difference of strong's own value and of the
64 afterstate features, target whether the option's label beats the pick's, weight the size of the label
difference (so close decisions count little and clear ones much: a loss aimed at the pick). Two
regularisations are fitted and the one with the lower validation regret kept; a kind whose best fit does not
lower the validation regret below strong's keeps strong's pick (no correction there). On the test games it
prints, per kind, the regret of strong's pick and of the corrected pick (label of the best option minus the
label of the pick) and their paired difference, each with a 95% interval clustered by game.

The label is the mean of 2 * half playouts, and the regret against the best label is biased up by the
noise of the maximum; so the regret is also given with the pick's own half kept apart: the best option by
half A scored on half B (and the other way round), which has no such bias. Same seed, same numbers.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

REC_KIND, REC_SEAT, REC_N, REC_OPTION, REC_VALUE, REC_CHOSEN, REC_DECISION, REC_FEATURES = range(8)
N_FEATURES = 64
C_GRID = (0.01, 1.0)  # the two regularisations fitted per kind (LogisticRegression's C); the better one is kept
MIN_DECISIONS = 40  # a kind with fewer training decisions keeps strong's pick


# ---------------------------------------------------------------- the data


def fail(message: str) -> None:
    """Bad input: one line naming the problem, exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


def load(folder: Path) -> dict[str, np.ndarray]:
    files = sorted(f for f in folder.glob("chunk-*.npz") if not f.name.endswith(".part.npz"))
    if not files:
        fail(f"{folder} holds no chunk-*.npz (run collect first)")
    parts = [np.load(f) for f in files]
    out = {k: np.concatenate([p[k] for p in parts]) for k in ("records", "labels", "game", "views", "ends")}
    # decision numbers restart in every chunk: renumber by (game, decision)
    rec = out["records"]
    key = out["game"] * 1_000_000 + rec[:, REC_DECISION].astype(np.int64)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rec[:, REC_DECISION] = inverse
    order = np.lexsort((rec[:, REC_OPTION], rec[:, REC_DECISION]))
    return {k: v[order] for k, v in out.items()}


class Decisions:
    """The rows of a set of decisions, grouped: ``starts`` the first row of each decision."""

    def __init__(self, data: dict[str, np.ndarray], mask: np.ndarray | None = None, inputs: str = "afterstate"):
        rec, lab, game = data["records"], data["labels"], data["game"]
        views = data.get("views")
        ends = data.get("ends", np.zeros(rec.shape[0]))
        if mask is not None:
            rec, lab, game, ends = rec[mask], lab[mask], game[mask], ends[mask]
            views = None if views is None else views[mask]
        self.rec, self.labels, self.game = rec, lab, game
        d = rec[:, REC_DECISION].astype(np.int64)
        self.starts = np.flatnonzero(np.r_[True, d[1:] != d[:-1]]) if d.size else np.zeros(0, dtype=np.int64)
        self.sizes = np.diff(np.r_[self.starts, d.size])
        self.id = np.repeat(np.arange(self.starts.size), self.sizes)
        self.kind = rec[self.starts, REC_KIND].astype(np.int64) if d.size else np.zeros(0, dtype=np.int64)
        self.dgame = game[self.starts] if d.size else np.zeros(0, dtype=np.int64)
        self.label = lab.mean(axis=1)
        self.value = rec[:, REC_VALUE]
        # the correction's inputs: the option's 64 afterstate features (kept at the decision), or the view strong's
        # value reads at the end of the option's turn (what the engine has at hand when it plays a correction);
        # zeros where the turn ended the game (the outcome is then the value, and no correction applies)
        self.ends = ends > 0.5
        self.features = rec[:, REC_FEATURES: REC_FEATURES + N_FEATURES] if inputs == "afterstate" else views
        self.features = np.where(self.ends[:, None], 0.0, self.features)
        self.chosen = rec[:, REC_CHOSEN] > 0.5

    def pick_of(self, scores: np.ndarray) -> np.ndarray:
        """Per decision: the row of the highest score (the first on ties)."""
        best = np.maximum.reduceat(scores, self.starts)
        top = scores == np.repeat(best, self.sizes)
        rows = np.flatnonzero(top)
        first = np.unique(self.id[rows], return_index=True)[1]
        return rows[first]

    def strong_pick(self) -> np.ndarray:
        rows = np.flatnonzero(self.chosen)
        return rows  # one per decision, in decision order

    def regret(self, picks: np.ndarray, labels: np.ndarray | None = None) -> np.ndarray:
        """Per decision: the best label minus the pick's label."""
        lab = self.label if labels is None else labels
        return np.maximum.reduceat(lab, self.starts) - lab[picks]

    def split_regret(self, picks: np.ndarray) -> np.ndarray:
        """Per decision: the pick's shortfall from the best option by one half of the playouts, both scored on the
        other half (mean of the two ways round): free of the max-of-noise bias of :meth:`regret`."""
        a, b = self.labels[:, 0], self.labels[:, 1]
        best_a, best_b = self.pick_of(a), self.pick_of(b)
        return 0.5 * ((b[best_a] - b[picks]) + (a[best_b] - a[picks]))


# ---------------------------------------------------------------- the correction


def pair_rows(dec: Decisions, kind: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs, targets and weights of the pairwise ranking: every other option against strong's pick, both ways."""
    pick = dec.strong_pick()
    pick_row = pick[dec.id]
    rows = np.flatnonzero((dec.kind[dec.id] == kind) & ~dec.chosen)
    x = np.column_stack([dec.value[rows] - dec.value[pick_row[rows]],
                         dec.features[rows] - dec.features[pick_row[rows]]])
    diff = dec.label[rows] - dec.label[pick_row[rows]]
    keep = diff != 0
    x, diff = x[keep], diff[keep]
    y = (diff > 0).astype(int)
    # both orders of each pair: the fit without intercept stays antisymmetric, and both classes are present
    return np.vstack([x, -x]), np.r_[y, 1 - y], np.r_[np.abs(diff), np.abs(diff)]


class Correction:
    """Per kind: strong's value plus a linear term of the inputs (a kind without one: strong's value alone).

    The fit ranks by ``a * value + w . x``; with ``a > 0`` that ranks as ``value + (w / a) . x``, the form kept
    (``coef[kind]`` is ``w / a``), so an option whose turn ended the game (x = 0) keeps its outcome as score.
    """

    def __init__(self):
        self.coef: dict[int, np.ndarray] = {}
        self.info: dict[int, dict] = {}

    def picks(self, dec: Decisions) -> np.ndarray:
        """Per decision: the corrected pick where the kind has a correction, else strong's own (its tie breaks
        included, as the engine plays it)."""
        mine = dec.pick_of(self.scores(dec))
        corrected = np.isin(dec.kind, list(self.coef))
        return np.where(corrected, mine, dec.strong_pick())

    def scores(self, dec: Decisions) -> np.ndarray:
        """Every option's score: strong's value where its kind has no correction, else the fitted score."""
        s = dec.value.copy()
        kinds = dec.kind[dec.id]
        for kind, w in self.coef.items():
            rows = kinds == kind
            s[rows] += dec.features[rows] @ w
        return s

    def arrays(self) -> dict[str, np.ndarray]:
        kinds = np.array(sorted(self.coef), dtype=np.int64)
        coef = np.array([self.coef[k] for k in kinds]).reshape(len(kinds), -1)
        return {"kinds": kinds, "coef": coef}


def fit_correction(train: Decisions, valid: Decisions, seed: int = 1) -> Correction:
    """Fit the pairwise ranking per kind, two regularisations, keep the better on validation (or none)."""
    from sklearn.linear_model import LogisticRegression

    corr = Correction()
    vpick = valid.strong_pick()
    for kind in np.unique(train.kind):
        n_train = int(np.sum(train.kind == kind))
        vmask = valid.kind == kind
        base = float(valid.regret(vpick)[vmask].mean()) if vmask.any() else float("nan")
        info = {"train decisions": n_train, "validation decisions": int(vmask.sum()), "strong regret": base}
        corr.info[int(kind)] = info
        if n_train < MIN_DECISIONS or not vmask.any():
            info["kept"] = "strong (too few decisions)"
            continue
        x, y, w = pair_rows(train, int(kind))
        if len(np.unique(y)) < 2:
            info["kept"] = "strong (no pairs)"
            continue
        scale = np.sqrt(np.average(x ** 2, axis=0, weights=w)) + 1e-12
        best = None
        for c in C_GRID:
            model = LogisticRegression(C=c, fit_intercept=False, max_iter=2000, random_state=seed)
            model.fit(x / scale, y, sample_weight=w / w.mean())
            coef = model.coef_[0] / scale
            if coef[0] <= 0:  # the fit turned strong's own value down or off: no correction of this form
                info[f"validation regret C={c}"] = float("inf")
                continue
            coef = coef[1:] / coef[0]
            trial = Correction()
            trial.coef[int(kind)] = coef
            r = float(valid.regret(trial.picks(valid))[vmask].mean())
            info[f"validation regret C={c}"] = r
            if best is None or r < best[0]:
                best = (r, coef, c)
        if best is not None and best[0] < base:
            corr.coef[int(kind)] = best[1]
            info["kept"] = f"fit C={best[2]}"
        else:
            info["kept"] = "strong (no fit beat it on validation)"
    return corr


def tree_picks(train: Decisions, valid: Decisions, test: Decisions, seed: int = 1) -> tuple[np.ndarray, dict]:
    """A nonlinear correction, for comparison (not played by the engine): gradient-boosted trees predict each
    option's label difference from strong's pick (squared loss on the difference, weighted toward the pick's
    decision only: every option's row is one difference) from the difference of strong's value and of the
    inputs, the pick's own inputs and the kind; an option replaces the pick when its predicted difference is
    above a margin chosen on the validation games (0 or one of three small margins). Returns the test picks."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    def rows(dec: Decisions):
        pick = dec.strong_pick()
        pr = pick[dec.id]
        x = np.column_stack([dec.value - dec.value[pr], dec.features - dec.features[pr], dec.features[pr],
                             dec.kind[dec.id]])
        return x, dec.label - dec.label[pr], pr

    x, y, pr = rows(train)
    other = np.arange(y.size) != pr
    model = HistGradientBoostingRegressor(max_iter=200, max_leaf_nodes=31, learning_rate=0.05, random_state=seed,
                                          categorical_features=[x.shape[1] - 1])
    model.fit(x[other], y[other])

    def picks(dec: Decisions, margin: float) -> np.ndarray:
        xx, _, prr = rows(dec)
        pred = model.predict(xx)
        pred[np.arange(pred.size) == prr] = margin  # the pick stays unless an option is predicted above the margin
        return dec.pick_of(pred + np.where(np.arange(pred.size) == prr, 1e-12, 0.0))

    tried = {m: float(valid.regret(picks(valid, m)).mean()) for m in (0.0, 0.002, 0.005, 0.01)}
    best = min(tried, key=tried.get)
    return picks(test, best), {"validation regret by margin": tried, "margin": best,
                               "strong validation regret": float(valid.regret(valid.strong_pick()).mean())}


# ---------------------------------------------------------------- intervals


def clustered_mean(values: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """Mean over decisions and its 95% interval, the variance clustered by game (decisions of a game correlate)."""
    n = values.size
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    mean = float(values.mean())
    _, g = np.unique(games, return_inverse=True)
    sums = np.bincount(g, weights=values - mean)
    se = float(np.sqrt(np.sum(sums ** 2)) / n)
    return mean, mean - 1.96 * se, mean + 1.96 * se


def fmt(m: tuple[float, float, float], scale: float = 100.0) -> str:
    a, lo, hi = (scale * v for v in m)
    return f"{a:+.2f} ({lo:+.2f} to {hi:+.2f})"


# ---------------------------------------------------------------- commands


def collect(args) -> None:
    from simcore.games.dreamscape.fast import SimConfig
    from simcore.games.dreamscape.variants import parse_variant
    from research.iteration_games import collect_iteration

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    variant = parse_variant(args.variant)
    config = SimConfig(players=args.players, options=variant.options)
    meta = {"players": args.players, "variant": args.variant, "seed": args.seed, "half": args.half}
    meta_file = out / "collect.json"
    if meta_file.exists() and json.loads(meta_file.read_text()) != meta:
        fail(f"{out} holds labels of another collection ({meta_file.read_text().strip()})")
    meta_file.write_text(json.dumps(meta, sort_keys=True) + "\n")
    for first in range(args.first, args.first + args.games, args.chunk):
        path = out / f"chunk-{first:07d}.npz"
        if path.exists():
            continue
        n = min(args.chunk, args.first + args.games - first)
        t0 = time.time()
        got = collect_iteration(config, n, args.seed, args.half, first_game=first)
        tmp = path.with_suffix(".part.npz")
        np.savez_compressed(tmp, **got)
        tmp.rename(path)
        dec = np.unique(got["records"][:, REC_DECISION]).size if got["records"].size else 0
        print(f"games {first}..{first + n - 1}: {dec} decisions, {got['skipped']} not kept, "
              f"{time.time() - t0:.0f} s", flush=True)


KIND_NAMES = None


def kind_name(kind: int) -> str:
    from simcore.games.dreamscape.rules import DECISION_KINDS

    return DECISION_KINDS[kind]


def fit(args) -> None:
    data = load(Path(args.folder))
    part = data["game"] % 10
    train = Decisions(data, part <= 5, args.inputs)
    valid = Decisions(data, (part == 6) | (part == 7), args.inputs)
    test = Decisions(data, part >= 8, args.inputs)
    print(f"decisions: {train.starts.size} train, {valid.starts.size} validation, {test.starts.size} test "
          f"({np.unique(data['game']).size} games)")
    t0 = time.time()
    corr = fit_correction(train, valid, seed=args.seed)
    print(f"fit: {time.time() - t0:.1f} s")
    if args.only_kinds:  # keep the correction at these kinds only (sharp ships Lucid Dreaming and Interrupted
        # Sleep: docs/research/2026-11-28-sharp.md); the others keep strong's pick
        from simcore.games.dreamscape.rules import DECISION_ID

        keep = {DECISION_ID[k] for k in args.only_kinds.split(",")}
        for kind in [k for k in corr.coef if k not in keep]:
            del corr.coef[kind]
            corr.info[kind]["kept"] = "strong (--only-kinds)"
    for kind, info in sorted(corr.info.items()):
        print(f"  {kind_name(kind)}: " + ", ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}"
                                                   for k, v in info.items()))
    s_pick = test.strong_pick()
    c_pick = corr.picks(test)
    if args.model == "trees":
        t0 = time.time()
        c_pick, info = tree_picks(train, valid, test, seed=args.seed)
        print(f"trees instead (not playable): {time.time() - t0:.1f} s, {info}")
    rows = []
    print("\nheld-out regret, points of win credit (x100), 95% intervals clustered by game")
    print("| kind | decisions | changed | strong | strong + correction | difference | strong (split) | corrected (split) |")
    print("|---|---:|---:|---|---|---|---|---|")
    kinds = list(np.unique(test.kind)) + [None]
    for kind in kinds:
        mask = np.ones(test.starts.size, bool) if kind is None else test.kind == kind
        g = test.dgame[mask]
        rs, rc = test.regret(s_pick)[mask], test.regret(c_pick)[mask]
        ss, sc = test.split_regret(s_pick)[mask], test.split_regret(c_pick)[mask]
        changed = int(np.sum(s_pick[mask] != c_pick[mask]))
        name = "every kind" if kind is None else kind_name(int(kind))
        line = (f"| {name} | {mask.sum()} | {changed} | {fmt(clustered_mean(rs, g))} | {fmt(clustered_mean(rc, g))} | "
                f"{fmt(clustered_mean(rc - rs, g))} | {fmt(clustered_mean(ss, g))} | {fmt(clustered_mean(sc, g))} |")
        print(line)
        rows.append(line)
    if args.save:
        import sklearn

        collected = json.loads((Path(args.folder) / "collect.json").read_text())
        arrays = corr.arrays()
        meta = {"players": collected["players"], "variant": collected["variant"], "labels seed": collected["seed"],
                "playouts per option": 2 * collected["half"], "games": int(np.unique(data["game"]).size),
                "inputs": args.inputs, "train decisions": int(train.starts.size),
                "validation decisions": int(valid.starts.size), "fit seed": args.seed,
                "scikit-learn": sklearn.__version__, "numpy": np.__version__,
                "kept": {kind_name(k): v["kept"] for k, v in corr.info.items()}}
        if args.inputs == "view":  # the form the engine plays (sharp): the shipped file's format, tied to the
            # strong value the labels' games played (its sha256), so sharp corrects only that value
            from simcore.games.dreamscape.bots.sharp import Correction, write_correction
            from simcore.games.dreamscape.bots.strong import read_value, shipped_values
            from simcore.games.dreamscape.variants import parse_variant

            options = parse_variant(collected["variant"]).options
            value = read_value(shipped_values()[(collected["players"], bool(options.sleep_token),
                                                 bool(options.shifting_tokens))])
            meta["strong value"] = value.digest()
            write_correction(args.save, Correction(arrays["kinds"], arrays["coef"], meta))
        else:
            np.savez_compressed(args.save, **arrays, meta=np.array(json.dumps(meta, sort_keys=True)))
        print(f"saved {args.save}")


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("out")
    c.add_argument("--players", type=int, default=3)
    c.add_argument("--variant", default="base")
    c.add_argument("--seed", type=int, default=11)
    c.add_argument("--games", type=int, default=600)
    c.add_argument("--first", type=int, default=0)
    c.add_argument("--chunk", type=int, default=20)
    c.add_argument("--half", type=int, default=16, help="playouts per half of the label (default 16: K = 32)")
    f = sub.add_parser("fit")
    f.add_argument("folder")
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--save")
    f.add_argument("--model", choices=("linear", "trees"), default="linear",
                   help="linear: the pairwise ranking the engine plays (default); trees: a nonlinear correction, "
                        "for comparison only")
    f.add_argument("--only-kinds", help="keep the fitted correction at these decision kinds only (comma-separated "
                                        "names); the others keep strong's pick")
    f.add_argument("--inputs", choices=("afterstate", "view"), default="view",
                   help="the correction's inputs: the end-of-turn view strong's value reads (default) or the 64 "
                        "afterstate features")
    a = p.parse_args(argv)
    if a.command == "collect" and (not 2 <= a.players <= 4 or a.games < 1 or a.chunk < 1 or a.half < 1 or a.first < 0):
        p.error("need 2-4 players, 1+ games, a chunk of 1+, 1+ playouts per half, a first game >= 0")
    return a


def main(argv=None) -> int:
    args = parse(argv)
    if args.command == "collect":
        collect(args)
    else:
        fit(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
