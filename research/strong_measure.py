"""How strong and how fast is the strong bot? Measurements for docs/research (issue #26).

Run from the repository root in the project's environment::

    python research/strong_measure.py gain  [--players 3] [--variant base] [--games 1000] [--seed 5]
    python research/strong_measure.py speed [--players 3] [--variant base] [--games 2000] [--reps 3]
    python research/strong_measure.py h2h   [--games 400] [--seed 5] [--playouts 8]
    python research/strong_measure.py kinds [--players 3] [--variant base] [--games 1500] [--reps 3] --kinds buy ...

``gain``: the strong bot in one seat, expert in the others, against all-expert games on the same deals
(the same seed): its win rate minus expert's in that seat, with a 95% interval paired over the deals.
``speed``: games/s of strong self-play and of expert self-play, alternately in one process (whole
``simulate`` calls after a warm-up compile), and their ratio per repetition.
``h2h``: 2 players, strong against ``search:expert@K:late``, both seatings on the same deals: strong's
mean win credit over the two seatings (0.5 is even), with a 95% interval paired over the deals.
``kinds``: where strong's time goes. For each group of decision kinds (``--kinds buy --kinds
shifting_dreams+shifting_tokens ...``), a copy of strong that leaves that group to the expert table
(research only: a search over strong still plays the whole bot in its playouts): how much faster it
is (strong, then the copy, alternately in one process, ``--reps`` times; the median ratio), and what
the lookahead at those kinds is worth (strong in one seat among copies, against the copies' self-play
on the same deals, 95% interval paired over the deals).
The exploitability of the strong bot is the project's own command::

    dreamscape exploit --strategy strong --players 3 --variant base --games 400 --phases late --playouts 8 --seed 5
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

import numpy as np  # noqa: E402

import simcore.games.dreamscape.bots.builtins  # noqa: E402,F401
from simcore.games.dreamscape.bots.api import load_strategy  # noqa: E402
from simcore.games.dreamscape.fast import SimConfig, simulate  # noqa: E402
from simcore.games.dreamscape.variants import parse_variant  # noqa: E402


def paired(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Mean of a - b in points (x100) and its 95% interval (normal, paired over the deals)."""
    d = a - b
    h = 1.96 * d.std(ddof=1) / np.sqrt(d.size)
    return 100 * d.mean(), 100 * (d.mean() - h), 100 * (d.mean() + h)


def gain(players: int, variant: str, games: int, seed: int) -> list[dict]:
    cfg = SimConfig(players, parse_variant(variant).options)
    own = simulate(cfg, games, seed, ["expert"] * players, chunk_size=500)
    rows = []
    for s in range(players):
        names = ["expert"] * players
        names[s] = "strong"
        t0 = time.perf_counter()
        mine = simulate(cfg, games, seed, names, chunk_size=200)
        g, lo, hi = paired(mine.win[:, s], own.win[:, s])
        rows.append({"players": players, "variant": variant, "seat": s + 1, "games": games, "seed": seed,
                     "strong": 100 * mine.win[:, s].mean(), "expert": 100 * own.win[:, s].mean(), "gain": g,
                     "lo": lo, "hi": hi, "seconds": time.perf_counter() - t0})
        print(f"{players}p {variant} seat {s + 1}: strong {rows[-1]['strong']:.1f}% expert {rows[-1]['expert']:.1f}%"
              f"  gain {g:+.1f} ({lo:+.1f} to {hi:+.1f})", flush=True)
    return rows


def speed(players: int, variant: str, games: int, reps: int) -> list[dict]:
    cfg = SimConfig(players, parse_variant(variant).options)
    simulate(cfg, 200, 1, "strong", chunk_size=200)  # compile / load
    simulate(cfg, 2000, 1, "expert")
    rows = []
    for rep in range(reps):
        t0 = time.perf_counter()
        simulate(cfg, 20 * games, 100 + rep, "expert", chunk_size=50_000)
        te = 20 * games / (time.perf_counter() - t0)
        t0 = time.perf_counter()
        simulate(cfg, games, 100 + rep, "strong", chunk_size=500)
        ts = games / (time.perf_counter() - t0)
        rows.append({"rep": rep + 1, "expert_games_per_s": te, "strong_games_per_s": ts, "ratio": te / ts})
        print(f"rep {rep + 1}: expert {te:,.0f} games/s, strong {ts:,.0f} games/s (1/{te / ts:.1f} of expert)",
              flush=True)
    return rows


def h2h(games: int, seed: int, playouts: int) -> dict:
    cfg = SimConfig(2)
    searcher = load_strategy(f"search:expert@{playouts}:late")
    t0 = time.perf_counter()
    a = simulate(cfg, games, seed, ["strong", searcher], chunk_size=20)
    b = simulate(cfg, games, seed, [searcher, "strong"], chunk_size=20)
    share = (a.win[:, 0] + b.win[:, 1]) / 2
    m, lo, hi = paired(share, np.full(games, 0.5))
    out = {"games": games, "seed": seed, "opponent": searcher, "strong_share": 50 + m, "lo": 50 + lo, "hi": 50 + hi,
           "strong_first": 100 * a.win[:, 0].mean(), "strong_second": 100 * b.win[:, 1].mean(),
           "seconds": time.perf_counter() - t0}
    print(f"strong against {searcher}, 2 players, both seatings of {games} deals: strong's share "
          f"{out['strong_share']:.1f}% ({out['lo']:.1f} to {out['hi']:.1f}); as first {out['strong_first']:.1f}%, "
          f"as second {out['strong_second']:.1f}%", flush=True)
    return out


def kinds(players: int, variant: str, games: int, seed: int, reps: int, groups: list[str]) -> list[dict]:
    from dataclasses import replace

    from simcore.games.dreamscape.fast import strategies
    from simcore.games.dreamscape.rules import DECISION_ID

    cfg = SimConfig(players, parse_variant(variant).options)
    simulate(cfg, 20, 1, "strong", chunk_size=20)  # compile / load
    strong = strategies.get_record("strong")
    rows = []
    for group in groups:
        names = group.split("+")
        bits = sum(1 << DECISION_ID[k] for k in names)
        strategies._RECORDS["strong-less"] = replace(strong, name="strong-less", skip=strong.skip | bits)
        ratios = []
        for rep in range(reps):
            t0 = time.perf_counter()
            simulate(cfg, games, 100 + rep, "strong", chunk_size=250)
            t1 = time.perf_counter()
            simulate(cfg, games, 100 + rep, "strong-less", chunk_size=250)
            ratios.append((t1 - t0) / (time.perf_counter() - t1))
        own = simulate(cfg, games, seed, "strong-less", chunk_size=250)
        worth = []
        for s in range(players):
            seats = ["strong-less"] * players
            seats[s] = "strong"
            mine = simulate(cfg, games, seed, seats, chunk_size=250)
            worth.append(paired(mine.win[:, s], own.win[:, s]))
        rows.append({"players": players, "variant": variant, "kinds": names, "games": games, "seed": seed,
                     "speedup": float(np.median(ratios)), "speedups": ratios,
                     "worth": [{"seat": s + 1, "gain": g, "lo": lo, "hi": hi} for s, (g, lo, hi) in enumerate(worth)]})
        print(f"{'+'.join(names)}: {np.median(ratios):.2f} times as fast without it ("
              + ", ".join(f"{r:.2f}" for r in ratios) + "); worth "
              + ", ".join(f"seat {s + 1} {g:+.1f} ({lo:+.1f} to {hi:+.1f})" for s, (g, lo, hi) in enumerate(worth)),
              flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["gain", "speed", "h2h", "kinds"])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--variant", default="base")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--playouts", type=int, default=8)
    ap.add_argument("--kinds", action="append", default=[], help="kinds: a group of kinds joined with +")
    ap.add_argument("--json", help="also write the rows here")
    a = ap.parse_args()
    if a.what == "kinds":
        from simcore.games.dreamscape.rules import DECISION_ID

        unknown = sorted({k for g in a.kinds for k in g.split("+")} - set(DECISION_ID))
        if not a.kinds or unknown:
            ap.error(f"kinds: name decision kinds with --kinds (unknown: {', '.join(unknown) or 'none given'}); "
                     f"known: {', '.join(DECISION_ID)}")
    if a.what == "gain":
        out = gain(a.players, a.variant, a.games, a.seed)
    elif a.what == "speed":
        out = speed(a.players, a.variant, a.games, a.reps)
    elif a.what == "kinds":
        out = kinds(a.players, a.variant, a.games, a.seed, a.reps, a.kinds)
    else:
        out = h2h(a.games, a.seed, a.playouts)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
