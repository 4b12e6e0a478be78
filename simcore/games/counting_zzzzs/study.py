"""Counting Zzzzs study, standalone: play a study plan (study.toml), compute the balance tables, write the
report (PDF with findings, PNG charts). ``python -m simcore.games.counting_zzzzs.study [--quick] [--cards F]``.

The lab's study pipeline (``dreamscape study --game counting-zzzzs``) is meant to play the same plan files
with its folders, chunks and resume; this module is the game's own end-to-end path until the pipeline
reads a package's plan and report sections, and the place its tables and charts are defined. It plays
every configuration of the plan with :func:`~.play.play_games` on the fast engine, in chunks (memory stays
a chunk's), and keeps the per-game rows the analyses need.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import polars as pl

from simcore.files import read_toml_file

from .common import ACTION_TYPES, CZError
from .config import parse_setup, variant_name

PACKAGE_DIR = Path(__file__).resolve().parent
PLAN = PACKAGE_DIR / "study.toml"
QUICK_PLAN = PACKAGE_DIR / "study_quick.toml"


def plan_configs(path: Path, cards=None) -> tuple[dict, list[dict]]:
    """(the plan's top keys, its configurations: label, variant, players, strategies, games)."""
    from . import check_strategy
    data = read_toml_file(path, "study plan", CZError, label=f"study plan {path}")
    out = []
    for group in data.get("configs", []):
        players = group.get("players", 3)
        players = players if isinstance(players, list) else [players]
        variants = group.get("variants", [group.get("variant", "base")])
        for variant in variants:
            for p in players:
                setup = parse_setup(p, variant, cards)
                if "strategies" in group:
                    seatings = [tuple(group["strategies"])]
                elif "restrict" in group:
                    bot = group["restrict"]
                    seatings = [(bot,) * p] + [tuple(f"{bot}/no-{a}" if s == seat else bot for s in range(p))
                                               for a in group.get("actions", ACTION_TYPES) for seat in range(p)]
                else:
                    bots = group.get("strategy", "greedy")
                    seatings = [(b,) * p for b in (bots if isinstance(bots, list) else [bots])]
                for seating in seatings:
                    out.append({"label": group.get("label", ""), "variant": variant_name(setup), "players": p,
                                "strategies": [check_strategy(s, setup) for s in seating], "setup": setup,
                                "games": int(group.get("games", data.get("games", 1000)))})
    seen, unique = set(), []
    for c in out:                                   # a configuration asked twice is played once
        key = (c["variant"], c["players"], tuple(c["strategies"]))
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return data, unique


def play_plan(path: Path, cards=None, progress=print) -> tuple[pl.DataFrame, pl.DataFrame, dict]:
    """Play every configuration of the plan; (rows, configs, timing)."""
    from .analysis import frame_of_results
    from .play import play_games
    data, configs = plan_configs(path, cards)
    seed, chunk = int(data.get("seed", 1)), int(data.get("chunk_size", 10000))
    frames, metas, t0, games = [], [], time.perf_counter(), 0
    for c in configs:
        parts = []
        for first in range(0, c["games"], chunk):
            n = min(chunk, c["games"] - first)
            result = play_games(c["setup"], c["strategies"], seed, first, n)
            parts.append(result)
        merged = {k: np.concatenate([r[k] for r in parts]) for k in parts[0]}
        del parts
        # card attribution reads the base game with one bot on every seat; elsewhere the per-card columns
        # (most of a row) are left out, which keeps the full study's rows well under 1 GB
        attribution = c["variant"] == "base" and len(set(c["strategies"])) == 1 and "/no-" not in c["strategies"][0]
        rows, meta = frame_of_results([(merged, c["variant"], c["players"], c["strategies"])], elements=attribution)
        label = f"{c['label']}: {c['players']}p {c['variant']} {' / '.join(c['strategies'])}"
        frames.append(rows)
        metas.append(meta.with_columns(pl.lit(c["label"]).alias("label")))
        games += c["games"]
        progress(f"{label}: {c['games']} games")
    seconds = time.perf_counter() - t0
    return pl.concat(frames, how="diagonal"), pl.concat(metas), {"games": games, "seconds": seconds}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cards", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("cz-study"))
    args = parser.parse_args(argv)
    from .cards import load_cards
    from .report import write_report
    cards = load_cards(args.cards) if args.cards else None
    t0 = time.perf_counter()
    rows, configs, timing = play_plan(QUICK_PLAN if args.quick else PLAN, cards)
    names = [n for n, e in zip((cards or parse_setup(3).cards).names, (cards or parse_setup(3).cards).element) if e]
    pdf = write_report(rows, configs, names, args.out, timing, source=str(args.cards or "shipped example deck"))
    print(f"report {pdf} ({timing['games']} games in {timing['seconds']:.0f} s, "
          f"{time.perf_counter() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()
