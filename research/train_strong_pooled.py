"""Train one strong value on the games of several rules options of one player count (pooled rows).

    python -m research.train_strong_pooled --players 2 --variants base,shifting-tokens --games 120000 \
        --trees 100 --leaves 63 --seed 1 --out 2p-pooled.npz

Why: in 2-player shifting-tokens games the base game's value, used as a stand-in, left a late search +1.7 points
over strong in seat 1, where the value fitted to the shifting tokens left +8.5 (40,000 games) and +8.8 (120,000)
(docs/research/2026-11-28-strong-shifting-tokens.md). The value's inputs read each market position's current
cost (simcore/games/dreamscape/fast/encoding.py), so one value can learn from games with the printed costs and
with the tokens' order; this script measures whether that pays. The rows of each option are
``dreamscape train --strategy strong``'s own (:func:`analyses.games.dreamscape.train_strong.value_rows`: expert
self-play, games 0 .. games-1 of the seed under each option), concatenated in the order given; the fit is
``fit_value``'s, with every tenth game of each option held out. Why a script and not a ``dreamscape train`` option:
a value shipped from it would be measured first, as the swap family's was (research/train_strong_swaps.py).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

from research._value_file import write_and_report  # noqa: E402


RULES_OPTIONS = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")  # printed rules, printed deck


def pooled_rows(players: int, variants: list[str], games: int, seed: int, deck_at_most: int = 20):
    """The rows of ``games`` expert self-play games under each rules option of ``variants``, one ValueRows."""
    import numpy as np

    from analyses.games.dreamscape.train_strong import ValueRows, value_rows
    from simcore.games.dreamscape import parse_setup

    parts = []
    for variant in variants:
        setup = parse_setup(players, variant)
        parts.append(value_rows(players, setup.variant.options, setup.deck(), games, seed, deck_at_most))
    return ValueRows(np.concatenate([p.enc for p in parts]), np.concatenate([p.seat for p in parts]),
                     np.concatenate([p.win for p in parts]), np.concatenate([p.game for p in parts]),
                     sum(p.dropped for p in parts), sum(p.seconds for p in parts))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--variants", default="base,shifting-tokens",
                        help="comma-separated rules options whose games are pooled; the last names the file's variant")
    parser.add_argument("--games", type=int, default=120_000, help="games under each option")
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--leaves", type=int, default=63)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    if args.games < 20 or args.trees < 1 or args.leaves < 2 or not variants:
        print("train_strong_pooled: --games must be at least 20, --trees at least 1, --leaves at least 2, "
              "--variants at least one", file=sys.stderr)
        return 2
    unknown = [v for v in variants if v not in RULES_OPTIONS]
    if unknown:
        print(f"train_strong_pooled: {unknown[0]!r} is not a rules option ({', '.join(RULES_OPTIONS)})", file=sys.stderr)
        return 2

    from analyses.games.dreamscape.train_strong import fit_value, trainer_versions
    from simcore.games.dreamscape.bots.strong import ValueModel

    t0 = time.perf_counter()
    rows = pooled_rows(args.players, variants, args.games, args.seed)
    print(f"games done: {rows.game.size:,} rows", file=sys.stderr, flush=True)
    model, figures = fit_value(rows, args.trees, args.leaves, 0.1, args.seed)
    meta = {
        "name": f"strong-{args.players}p-{variants[-1]}-pooled", "game": "project-dreamscape", "players": args.players,
        "variant": variants[-1], "pooled": variants, "deck": "base", "games": args.games * len(variants),
        "seed": args.seed, "deck_at_most": 20, "leaves": args.leaves, "learning_rate": 0.1,
        "games_seconds": round(rows.seconds, 1), "seconds": round(time.perf_counter() - t0, 1),
        "versions": trainer_versions(),
        **{k: (round(v, 4) if isinstance(v, float) else v) for k, v in figures.items()},
        "command": (f"python -m research.train_strong_pooled --players {args.players} --variants {','.join(variants)} "
                    f"--games {args.games} --trees {args.trees} --leaves {args.leaves} --seed {args.seed} "
                    f"--out {args.out}"),
    }
    return write_and_report("train_strong_pooled", args.out, ValueModel.from_sklearn(model, meta),
                            ("players", "variant", "pooled", "games", "rows", "held_out_r2", "games_seconds",
                             "fit_seconds", "seconds"))


if __name__ == "__main__":
    raise SystemExit(main())
