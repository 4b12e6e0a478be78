"""Counting Zzzzs' study plans (study.toml, study_quick.toml) read into configurations.

The lab's study pipeline (``dreamscape study --game counting-zzzzs``) plays them into a study folder; the
tables are :mod:`analyses.games.counting_zzzzs`, the report :mod:`reports.games.counting_zzzzs`.
"""
from __future__ import annotations

from pathlib import Path

from simcore.files import read_toml_file

from .common import ACTION_TYPES, CZError
from .config import parse_setup, variant_name

PACKAGE_DIR = Path(__file__).resolve().parent
PLAN = PACKAGE_DIR / "study.toml"
QUICK_PLAN = PACKAGE_DIR / "study_quick.toml"


def plan_configs(path: Path, cards=None) -> tuple[dict, list[dict]]:
    """(the plan's top keys, its configurations: label, variant, players, strategies, games)."""
    from . import check_strategy
    data = read_toml_file(path, "study plan", CZError, label=f"study plan {path}")  # size, nesting limits
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
