"""Pilot of `dreamscape certify`'s control variate: how much does strong on the same deal tell about the top rung?

Plays ``strong`` and the top rung (``search:strong@8:late`` on every seat) on the same deals (games
0..games-1 of ``--seed``, each variant of ``--variant`` at ``--players``) into a study folder (resumable: run
it again to continue), then measures, per finding certify reads (each seat's win credit; the seat-spread
change of every variant against the first), the correlation of the two levels' per-deal values, the best
beta cov(Y, X) / var(X), and the variance reduction factor of the control variate
(:mod:`analyses.stats.control_variate`) with beta fixed at ``--beta`` when strong played ``--ratio`` times as
many deals as the top rung, each with a bootstrap 95% interval over the deals.

    python research/certify_pilot.py --players 3 --variant base --variant sleep-token --games 300 --seed 2 \\
        --out out/certify-pilot --json out/certify-pilot.json

Results: docs/research/2026-11-28-certify.md.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analyses.games.dreamscape.certify import _spread_contrast, _wins, top_rung  # noqa: E402
from analyses.stats.control_variate import best_beta  # noqa: E402
from analyses.stats.crossfit import crossfit_reduction  # noqa: E402
from analyses.study.folder import Study, scan_games  # noqa: E402
from analyses.study.model import GameDeal, RunConfig  # noqa: E402


def reduction(y: np.ndarray, x: np.ndarray, beta: float, ratio: float) -> float:
    """Var(plain mean of Y) / Var(Y_cv) when strong played ``ratio`` times the top rung's deals (N = ratio n):
    the control variate's variance, s2(Y - beta (1 - f) X) / n + beta^2 (1 - f)^2 s2(X) / (N - n), over s2(Y) / n."""
    f = 1.0 / ratio
    shrink = beta * (1 - f)
    n = y.size
    var_cv = np.var(y - shrink * x, ddof=1) / n + (shrink ** 2 * np.var(x, ddof=1) / (n * (ratio - 1)) if ratio > 1 else 0.0)
    return float(np.var(y, ddof=1) / n / var_cv) if var_cv > 0 else float("nan")


CROSSFIT = ("crossfit_win", "crossfit_win_score", "crossfit_all")  # the cross-fitted candidates measured


def measure(y: np.ndarray, x: np.ndarray, beta: float, ratio: float, resamples: int, seed: int = 0,
            controls: np.ndarray | None = None) -> dict:
    """Correlation, best beta and the fixed-beta reduction of the seat-win control ``x``; with ``controls`` (deals
    x m: strong's outcomes on the same deal, ``x`` first), the cross-fitted reductions (2 folds,
    :mod:`analyses.stats.crossfit`) of ``x`` alone, of ``x`` and the next column, and of every column."""
    def stats(yy, xx, cc):
        corr = float(np.corrcoef(yy, xx)[0, 1]) if yy.std() > 0 and xx.std() > 0 else float("nan")
        out = [corr, best_beta(yy, xx), reduction(yy, xx, beta, ratio)]
        if cc is not None:
            out += [crossfit_reduction(yy, cc[:, :1], ratio), crossfit_reduction(yy, cc[:, :2], ratio),
                    crossfit_reduction(yy, cc, ratio)]
        return out

    point = stats(y, x, controls)
    rng = np.random.default_rng(seed)
    boot = np.array([stats(y[i], x[i], None if controls is None else controls[i])
                     for i in (rng.integers(0, y.size, y.size) for _ in range(resamples))])
    low, high = np.nanpercentile(boot, [2.5, 97.5], axis=0)
    result = {"correlation": point[0], "correlation_ci": [low[0], high[0]], "best_beta": point[1],
              "best_beta_ci": [low[1], high[1]], "reduction": point[2], "reduction_ci": [low[2], high[2]]}
    for j, name in enumerate(CROSSFIT if controls is not None else ()):
        result[name] = point[3 + j]
        result[f"{name}_ci"] = [low[3 + j], high[3 + j]]
    return result


def scores(folder: Path, config) -> np.ndarray:
    """Final scores (games, seats) of one configuration, games in order."""
    part = scan_games(folder, [config.id]).select(["game", "seat", "score"]).collect().sort(["game", "seat"])
    return part["score"].to_numpy().astype(np.float64).reshape(-1, config.players)


def seat_controls(win: np.ndarray, score: np.ndarray, seat: int) -> np.ndarray:
    """Strong's outcomes on each deal as controls of a seat's finding: its win, its score minus the others' mean,
    then every other seat's win but the last (the wins sum to 1: the last adds nothing) and score margin."""
    players = win.shape[1]
    margin = score - (score.sum(axis=1, keepdims=True) - score) / (players - 1)
    others = [s for s in range(players) if s != seat]
    columns = [win[:, seat], margin[:, seat]] + [win[:, s] for s in others[:-1]] + [margin[:, s] for s in others]
    return np.column_stack(columns)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--variant", action="append", default=None)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--beta", type=float, default=0.5)
    ap.add_argument("--ratio", type=float, default=4.5, help="strong's deals per top-rung deal (the main study: 4,500/1,000)")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--out", type=Path, default=Path("out/certify-pilot"))
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--no-play", action="store_true", help="only read what the folder holds (the deals all its levels played)")
    args = ap.parse_args(argv)
    variants = args.variant or ["base", "sleep-token"]
    strong = [RunConfig(v, args.players, ("strong",) * args.players) for v in variants]
    top = [RunConfig(v, args.players, (top_rung(),) * args.players) for v in variants]
    start = time.perf_counter()
    if not args.no_play:
        with Study(args.out, strong + top, args.games, seed=args.seed, chunk_size=25, game=GameDeal.default()) as study:
            study.run(progress=False)
    seconds = time.perf_counter() - start
    findings = {}
    wins = {c.id: _wins(args.out, c) for c in strong + top}
    n = min(w.shape[0] for w in wins.values())  # a folder resumed with fewer games keeps more: read the common deals
    wins = {cid: w[:n] for cid, w in wins.items()}
    score = {c.id: scores(args.out, c)[:n] for c in strong}
    for s, t in zip(strong, top):
        for seat in range(args.players):
            findings[f"{s.variant} seat {seat + 1} wins"] = measure(
                wins[t.id][:, seat], wins[s.id][:, seat], args.beta, args.ratio, args.resamples,
                controls=seat_controls(wins[s.id], score[s.id], seat))
    for s, t in zip(strong[1:], top[1:]):
        y = _spread_contrast(wins[t.id]) - _spread_contrast(wins[top[0].id])
        x = _spread_contrast(wins[s.id]) - _spread_contrast(wins[strong[0].id])
        findings[f"{s.variant} vs {variants[0]}: seat spread"] = measure(y, x, args.beta, args.ratio, args.resamples)
    result = {"players": args.players, "variants": variants, "games": n, "seed": args.seed, "beta": args.beta,
              "ratio": args.ratio, "seconds": round(seconds, 1), "findings": findings}
    for name, m in findings.items():
        print(f"{name:<36} corr {m['correlation']:+.2f} ({m['correlation_ci'][0]:+.2f} to {m['correlation_ci'][1]:+.2f})"
              f"  best beta {m['best_beta']:.2f} ({m['best_beta_ci'][0]:.2f} to {m['best_beta_ci'][1]:.2f})"
              f"  reduction {m['reduction']:.2f} ({m['reduction_ci'][0]:.2f} to {m['reduction_ci'][1]:.2f})"
              + "".join(f"  {c} {m[c]:.2f} ({m[c + '_ci'][0]:.2f} to {m[c + '_ci'][1]:.2f})"
                        for c in CROSSFIT if c in m))
    print(f"played in {seconds:.1f} s (both levels; a resumed run counts only what it played)")
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
