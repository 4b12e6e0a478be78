"""Where in the game does the search player's gain over ``expert`` sit? (issue #12: is it the endgame?)

Run from the repository root (in the project's venv)::

    python research/phase_split.py --players 3 --variant base --seed 1 --games 400

One seat plays ``search:expert@K`` but searches only the decisions of one game
phase (early, mid, late: the thirds of the Sleep Deck the expert tables use,
``simcore.games.dreamscape.fast.scratch.expert_phase``), or with ``--deck-at-most`` only the
turns that start with at most N cards in the Sleep Deck (the last rounds),
and plays ``expert`` at every other decision; every other seat plays ``expert``. Each run is paired with expert
itself in that seat on the same deals (paired t intervals), as step 4 of
``research/expert_diagnostics.py`` pairs one kind. The deals are the ones that
script's measured split plays for the same ``--seed`` (seed + 104,729), so the
"every decision" row is its "every kind" row.

``--late-kinds take_z,buy`` adds runs that search only those decision kinds, in
the late phase only (what mending one kind of the bot's decisions could win at
most). ``--strategy expert:FILE.toml`` measures another table (searched over and
played by every other seat). Same seed, same numbers.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from research.expert_diagnostics import KIND_SEED_OFFSET  # noqa: E402 - the same deals as the kind split


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--variant", default="base")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=400)
    p.add_argument("--playouts", type=int, default=4, help="K of the search player (default 4)")
    p.add_argument("--seat", type=int, default=1, help="the searching seat (from 1)")
    p.add_argument("--strategy", default="expert", help="the bot: expert or expert:FILE.toml")
    p.add_argument("--deck-at-most", default="",
                   help="also: searching only the turns that start with at most N cards in the Sleep Deck "
                        "(comma-separated N, e.g. 4,8,12)")
    p.add_argument("--late-kinds", default="",
                   help="also: searching only these decision kinds in the late phase (comma-separated groups, "
                        "kinds within a group joined by +, e.g. take_z,buy,perform+floating_free)")
    p.add_argument("--json", dest="json_out", default=None)
    a = p.parse_args(argv)
    from simcore.games.dreamscape.rules import DECISION_ID

    a.late_kinds = [tuple(k.strip() for k in group.split("+")) for group in a.late_kinds.split(",") if group.strip()]
    unknown = sorted({k for group in a.late_kinds for k in group if k not in DECISION_ID})
    if unknown:
        p.error(f"--late-kinds: unknown decision kind {unknown[0]!r} (known: {', '.join(DECISION_ID)})")
    try:
        a.deck_at_most = [int(x) for x in a.deck_at_most.split(",") if x.strip()]
    except ValueError:
        p.error(f"--deck-at-most: comma-separated whole numbers, got {a.deck_at_most!r}")
    if not 2 <= a.players <= 4 or not 1 <= a.seat <= a.players or a.games < 2 or a.playouts < 1:
        p.error("need 2-4 players, a seat among them, 2+ games and 1+ playouts")
    return a


def run(args: argparse.Namespace) -> dict:
    from research.diagnostic_games import ALL_KINDS, PHASES, only_phase, play_restricted
    from analyses.stats.intervals import paired_difference
    from simcore.games.dreamscape.fast import SimConfig, simulate
    from simcore.games.dreamscape.rules import DECISION_ID
    from simcore.games.dreamscape.variants import parse_variant
    from simcore.games.dreamscape.bots.api import load_strategy

    variant = parse_variant(args.variant)
    config = SimConfig(args.players, variant.options, variant.deck())
    p, seat, g, seed = args.players, args.seat - 1, args.games, args.seed + KIND_SEED_OFFSET
    names = [args.strategy] * p
    names[seat] = load_strategy(f"search:{args.strategy}@{args.playouts}")
    t0 = time.perf_counter()
    base = simulate(config, g, seed, [args.strategy] * p, chunk_size=g).win[:, seat]
    rows = []
    runs = [("every decision", ALL_KINDS, None)] + [(f"{PHASES[q]} only", only_phase(ALL_KINDS, q), None)
                                                    for q in range(len(PHASES))]
    runs += [(f"deck <= {n} at turn", ALL_KINDS, n) for n in args.deck_at_most]
    runs += [("late " + "+".join(group), only_phase(sum(1 << DECISION_ID[k] for k in group), 2), None)
             for group in args.late_kinds]
    for label, mask, near in runs:
        masks = [0] * p
        masks[seat] = mask
        at_most = None
        if near is not None:
            at_most = [1 << 30] * p
            at_most[seat] = near
        t1 = time.perf_counter()
        win = play_restricted(config, g, seed, names, masks, deck_at_most=at_most)[:, seat]
        est = paired_difference(win, base)
        rows.append({"phases": label, "win": float(win.mean()), "bot_win": float(base.mean()), "gain": est.value,
                     "low": est.low, "high": est.high, "seconds": round(time.perf_counter() - t1, 1)})
        print(f"  {label:<20}{100 * win.mean():7.1f}%{100 * base.mean():7.1f}%"
              f"{100 * est.value:>+9.1f} ({100 * est.low:+.1f} to {100 * est.high:+.1f})  {rows[-1]['seconds']:.0f} s",
              flush=True)
    return {"players": p, "variant": args.variant, "seed": args.seed, "games": g, "playouts": args.playouts,
            "seat": args.seat, "strategy": args.strategy, "runs": rows, "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    print(f"Seat {args.seat} searches one game phase only (search:{args.strategy}@{args.playouts}), {args.strategy} "
          f"everywhere else, vs {args.strategy} in that seat on the same {args.games} deals "
          f"({args.players} players, {args.variant}, seed {args.seed})")
    print(f"  {'phases searched':<20}{'win':>8}{'bot':>8}{'gain, points (95% CI)':>26}")
    data = run(args)
    print(f"  {data['seconds']:.0f} s in all")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
