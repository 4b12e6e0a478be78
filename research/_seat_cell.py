"""The command line the one-seat measurement scripts share: a bot, a table size, the seat measured, the deals.

Used by expert_kind_split.py, strong_kind_split.py and strong_swap_measure.py; each adds its own options.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path


def seat_cell_parser(doc: str, strategy: str, games: int, first: bool = True) -> argparse.ArgumentParser:
    """The shared options (the bot, players, rules, seat from 1, deals, playouts, seed, JSON out)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--strategy", default=strategy)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--variant", default="base")
    parser.add_argument("--seat", type=int, required=True, help="from 1")
    parser.add_argument("--games", type=int, default=games)
    if first:
        parser.add_argument("--first", type=int, default=0, help="first game index (games first .. first + games - 1)")
    parser.add_argument("--playouts", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    return parser


def bad_seat(args: argparse.Namespace, prog: str) -> bool:
    """True (after one line on stderr) when --seat is not a seat of the table."""
    if 1 <= args.seat <= args.players:
        return False
    print(f"{prog}: --seat must be 1 to {args.players}", file=sys.stderr)
    return True


def write_run(args: argparse.Namespace, module: str, argv: list[str], started: float, rows: list[dict]) -> None:
    """The run's JSON at ``--json`` (nothing without it): the command that repeats it, quoted as a shell reads it
    (an empty ``--without ""`` stays an argument), its seed and first game, its seconds and its rows."""
    if args.json is None:
        return
    out = {"command": shlex.join(["python", "-m", module, *argv]), "seed": args.seed, "first": args.first,
           "seconds": round(time.perf_counter() - started, 1), "rows": rows}
    args.json.write_text(json.dumps(out, indent=1) + "\n")
