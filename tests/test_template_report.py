"""The template game's report wing (templates/goofspiel/goofspiel/report.py) on tables written by hand:
the framework's protocol, its sentences and their stars. The whole report, from a study the lab plays,
is in tests/test_add_a_game.py."""
from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

TEMPLATE = Path(__file__).resolve().parents[1] / "templates" / "goofspiel"
if str(TEMPLATE) not in sys.path:
    sys.path.insert(0, str(TEMPLATE))

from goofspiel import report  # noqa: E402
from reports.wing import ReportWing  # noqa: E402


def seat_row(players, strategies, variant, seat, strategy, win, low, high):
    return {"config": f"{variant}__{players}p__{strategies}", "variant": variant, "players": players,
            "strategies": strategies, "seat": seat, "strategy": strategy, "games": 2000, "win": win, "low": low,
            "high": high, "fair": 1 / players, "mean_score": 30.0}


def tables() -> dict:
    seats = pl.DataFrame([
        seat_row(2, "match", "base", 1, "match", 0.485, 0.463, 0.507),
        seat_row(2, "match", "base", 2, "match", 0.515, 0.493, 0.537),
        seat_row(3, "random", "carry", 1, "random", 0.354, 0.334, 0.376),
        seat_row(2, "search@8/match", "base", 1, "search@8", 0.938, 0.895, 0.963),
    ])
    carry = pl.DataFrame([{"players": 3, "strategies": "random", "base_win": 0.349, "carry_win": 0.354,
                           "change": 0.0057, "low": 0.0021, "high": 0.0093, "discarded": 0.52,
                           "discarded_low": 0.44, "discarded_high": 0.61}])
    return {"seats": seats, "carry": carry}


def test_the_wing_keeps_the_framework_protocol():
    assert isinstance(report.WING, ReportWing) and report.WING.game == "goofspiel"
    assert list(report.WING.topics) == ["seats", "carry", "bots"]


def test_findings_read_one_row_each_in_the_framework_forms():
    found = report.findings(tables())
    texts = [f.text for f in found]
    assert texts == [
        "Seat 1, 2 players, all match, base: wins 48.5% (46.3-50.7%) against a fair 50.0%.",
        "Seat 1, 3 players, all random, carry: wins 35.4% (33.4-37.6%) against a fair 33.3%.",
        "Carrying tied prizes, 3 players, all random: seat 1's win share changes by +0.6 (+0.2 to +0.9) points; "
        "the base rule discards 0.5 (0.4-0.6) prize points a game.",
        "Bots: search@8 in seat 1 of search@8/match (base) wins 93.8% (89.5-96.3%) against a fair 50.0%.",
    ]
    # starred when the interval leaves out the fair share (rates) or zero (the change): 46.3-50.7% holds 50%,
    # 33.4-37.6% leaves out 33.3%, +0.2 to +0.9 leaves out 0, 89.5-96.3% leaves out 50%
    assert [f.significant for f in found] == [False, True, True, True]
    assert [f.topic for f in found] == ["seats", "seats", "carry", "bots"]
