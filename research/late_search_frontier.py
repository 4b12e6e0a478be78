"""What a late-game searcher gains over expert, and what it costs, when it searches only some decision kinds (#26).

For each level ``search:expert@K:late[:KINDS]`` (the decision kinds it searches; none: every kind):

* its gain in each seat over ``expert`` there, with ``expert`` in every other seat, on the same deals
  (paired; :func:`analyses.tools.exploit.exploit_table`, as ``dreamscape exploit --strategy expert
  --phases late:KINDS --playouts K``);
* its speed with every seat playing it (``dreamscape simulate --strategy LEVEL``), as a fraction of
  expert's games/s measured in the same run.

Run from the repository root; same seed, same gains (the speeds are the machine's)::

    python research/late_search_frontier.py --players 3 --games 1000 --seed 5 [--json FILE]

``--ladder 4,8,16,32`` measures instead the budget-doubling ladder of the late searcher over expert:
``search:expert@K:late`` in one seat, expert elsewhere, on the same deals for every K, and the gain of each
doubling (paired over the deals) with its 95% interval: is the examiner itself converged?
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

from analyses.stats.intervals import mean_ci  # noqa: E402
from analyses.tools.exploit import exploit_table  # noqa: E402
from simcore.games.dreamscape.bots.api import load_strategy  # noqa: E402
from simcore.games.dreamscape.fast import SimConfig, simulate  # noqa: E402
from simcore.games.dreamscape.variants import parse_variant  # noqa: E402

LEVELS = [(8, None), (2, None), (1, None), (4, "buy+perform"), (2, "buy+perform"), (1, "buy+perform"), (2, "buy"),
          (1, "buy")]


def games_per_s(config: SimConfig, name: str, games: int) -> float:
    simulate(config, 2, 99, name)  # compiled or loaded outside the timing
    t0 = time.perf_counter()
    simulate(config, games, 7, name, chunk_size=max(1, games // 8))
    return games / (time.perf_counter() - t0)


def frontier(players: int, games: int, seed: int, speed_games: int) -> dict:
    config = SimConfig(players, parse_variant("base").options)
    expert = load_strategy("expert")
    expert_speed = games_per_s(config, expert, 20000)
    rows = []
    for k, kinds in LEVELS:
        name = load_strategy(f"search:expert@{k}:late" + (f":{kinds}" if kinds else ""))
        frame = exploit_table(expert, name, [players], ["base"], games, seed, chunk_size=100)
        n = speed_games if kinds else max(40, speed_games // (2 * k))  # every kind at K = 8 runs at tens of games/s
        speed = games_per_s(config, name, n)
        rows.append({"level": name, "playouts": k, "kinds": kinds or "every kind", "games_per_s": speed,
                     "expert_per_level": expert_speed / speed,
                     "gain": [[round(100 * r[c], 1) for c in ("gain", "gain_low", "gain_high")] for r in frame.to_dicts()]})
        gains = "  ".join(f"{g:+.1f} ({lo:+.1f} to {hi:+.1f})" for g, lo, hi in rows[-1]["gain"])
        print(f"{name:<36} {speed:8,.0f} games/s (1/{expert_speed / speed:,.0f} of expert)  gain per seat: {gains}",
              flush=True)
    return {"players": players, "games": games, "seed": seed, "expert_games_per_s": expert_speed, "levels": rows}


def doubling_ladder(players: int, games: int, seed: int, ks: list[int]) -> dict:
    """Per seat: the win rate of search:expert@K:late there for each K, and each step's paired gain."""
    config = SimConfig(players, parse_variant("base").options)
    expert = load_strategy("expert")
    seats = []
    for seat in range(players):
        wins = {}
        for k in ks:
            field = [expert] * players
            field[seat] = load_strategy(f"search:expert@{k}:late")
            wins[k] = simulate(config, games, seed, field, chunk_size=100).win[:, seat]
        steps = []
        for a, b in zip(ks, ks[1:]):
            e = mean_ci(100 * (wins[b] - wins[a]))
            steps.append({"from": a, "to": b, "gain": [round(e[0], 1), round(e[1], 1), round(e[2], 1)]})
        seats.append({"seat": seat + 1, "win": {k: round(100 * float(w.mean()), 1) for k, w in wins.items()},
                      "steps": steps})
        text = "  ".join(f"@{x['from']}->@{x['to']} {x['gain'][0]:+.1f} ({x['gain'][1]:+.1f} to {x['gain'][2]:+.1f})"
                         for x in steps)
        print(f"seat {seat + 1}: win " + ", ".join(f"@{k} {v}%" for k, v in seats[-1]["win"].items()) + f"  |  {text}",
              flush=True)
    return {"players": players, "games": games, "seed": seed, "ks": ks, "seats": seats}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=1000, help="deals per seat for the gains")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--speed-games", type=int, default=300, help="games of every-seat play per level for its speed")
    ap.add_argument("--ladder", default=None, help="playouts K of the doubling ladder instead, e.g. 4,8,16,32")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    if a.ladder:
        data = doubling_ladder(a.players, a.games, a.seed, [int(k) for k in a.ladder.split(",")])
    else:
        data = frontier(a.players, a.games, a.seed, a.speed_games)
        print(f"expert: {data['expert_games_per_s']:,.0f} games/s, every seat", flush=True)
    if a.json:
        a.json.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
