"""Train the strong bot's value across the single-swap decks (R1.4, base rules) of one player count.

    python -m research.train_strong_swaps --players 3 --games 40000 --trees 100 --leaves 63 --seed 1 \
        --out simcore/games/dreamscape/bots/data/strong/3p-base-single-swaps.npz

The games are expert self-play as for every strong value (``dreamscape train --strategy strong``), except that
game g is played with one of the Controlled Study's 24 single-swap decks, drawn for it from the run's seed
(:func:`analyses.games.dreamscape.train_strong.swap_family_draw`), so one value serves every single swap of the
player count: the value's inputs count the unseen cards of each of the 11 dream types and read the types of the
market cards and of the REM tops (simcore/games/dreamscape/fast/encoding.py), so they see which swap is played.
Why a family and not the headline decks: the headline decks follow from a study's results and change with them;
a value fitted across the family serves whichever single swap a study or a designer picks.
Why a script and not a ``dreamscape train`` option: the command line is kept as it is while the value is
measured (docs/research/2026-11-28-strong-values-for-swaps.md).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file (python research/NAME.py) as well as a module
    sys.path.insert(0, str(ROOT))

from research._value_file import write_and_report  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True, choices=(2, 3, 4))
    parser.add_argument("--games", type=int, default=40_000)
    parser.add_argument("--trees", type=int, default=100)
    parser.add_argument("--leaves", type=int, default=63)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.games < 20 or args.trees < 1 or args.leaves < 2:
        print("train_strong_swaps: --games must be at least 20, --trees at least 1, --leaves at least 2",
              file=sys.stderr)
        return 2

    from analyses.games.dreamscape.train_strong import SINGLE_SWAPS, train_strong
    from simcore.games.dreamscape.rules import Options

    def step(what: str, done: int, total: int) -> None:
        if what == "games" and (done == total or done % 5000 == 0):
            print(f"games {done:,}/{total:,}", file=sys.stderr, flush=True)
        elif what == "fit":
            print("fit done", file=sys.stderr, flush=True)

    model = train_strong(args.players, Options(), "base", SINGLE_SWAPS, args.games, args.seed, args.trees,
                         args.leaves, progress=step)
    model.meta["command"] = (f"python -m research.train_strong_swaps --players {args.players} --games {args.games} "
                             f"--trees {args.trees} --leaves {args.leaves} --seed {args.seed} --out {args.out}")
    return write_and_report("train_strong_swaps", args.out, model, ("players", "variant", "deck", "games", "rows",
                                                                    "held_out_r2", "games_seconds", "fit_seconds",
                                                                    "seconds"))


if __name__ == "__main__":
    raise SystemExit(main())
