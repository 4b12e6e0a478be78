"""Findings at every skill level (reports/robust.py): verdicts worked out by hand on small tables."""
from __future__ import annotations

import polars as pl

from reports.games.dreamscape.data import StudyTables
from reports.games.dreamscape.findings import make_findings
from reports.games.dreamscape.robust import Level, check_findings, level_key, verdict


def _seat(bot, players, seat, rate, low, high):
    fair = 1 / players
    return {"config": f"{bot}{players}", "variant": "base", "players": players, "strategies": "/".join([bot] * players),
            "seat": seat, "strategy": bot, "games": 1000, "win_rate": rate, "win_low": low, "win_high": high,
            "fair": fair, "lift": rate - fair, "significant": not (low <= fair <= high), "mean_score": 10.0,
            "score_low": 9.0, "score_high": 11.0, "mean_z": 1.0, "mean_turns": 10.0, "aborted": 0}


def _change(bot, players, diff, low, high):
    return {"players": players, "strategies": "/".join([bot] * players), "baseline": "base", "variant": "sleep-token",
            "metric": "seat_spread", "baseline_value": 0.2, "variant_value": 0.2 + diff, "diff": diff,
            "diff_low": low, "diff_high": high, "significant": not (low <= 0 <= high)}


def tables() -> StudyTables:
    seats = [
        # 3 players: seat 1 best under expert; every level agrees and is significant -> robust
        _seat("expert", 3, 0, 0.45, 0.44, 0.46), _seat("linear", 3, 0, 0.50, 0.49, 0.51),
        _seat("search:expert@4", 3, 0, 0.40, 0.35, 0.45),
        _seat("expert", 3, 1, 0.30, 0.29, 0.31), _seat("linear", 3, 1, 0.14, 0.13, 0.15),
        _seat("search:expert@4", 3, 1, 0.30, 0.25, 0.35),
        # seat 3 worst under expert (25%), but linear's seat 3 wins significantly MORE than a third -> flips
        _seat("expert", 3, 2, 0.25, 0.24, 0.26), _seat("linear", 3, 2, 0.36, 0.35, 0.37),
        _seat("search:expert@4", 3, 2, 0.30, 0.25, 0.35),
        # 2 players: seat 2 best under expert; search's interval holds the fair 50% -> unconfirmed
        _seat("expert", 2, 0, 0.45, 0.44, 0.46), _seat("expert", 2, 1, 0.55, 0.54, 0.56),
        _seat("linear", 2, 0, 0.40, 0.39, 0.41), _seat("linear", 2, 1, 0.60, 0.59, 0.61),
        _seat("search:expert@4", 2, 0, 0.47, 0.40, 0.54), _seat("search:expert@4", 2, 1, 0.53, 0.46, 0.60),
    ]
    compare = [
        _change("expert", 3, -0.05, -0.07, -0.03), _change("linear", 3, +0.04, +0.02, +0.06),  # flips
        _change("expert", 2, -0.05, -0.07, -0.03), _change("linear", 2, -0.02, -0.03, -0.01),  # robust
    ]
    return StudyTables(seats=pl.DataFrame(seats), compare=pl.DataFrame(compare))


def test_verdicts_by_hand():
    main = Level("expert", 0.45, 0.44, 0.46, 1 / 3, 1000, True)
    agree = Level("linear", 0.50, 0.49, 0.51, 1 / 3, 1000, True)
    wide = Level("search:expert@4", 0.40, 0.30, 0.50, 1 / 3, 100, False)
    against = Level("linear", 0.30, 0.29, 0.31, 1 / 3, 1000, True)
    assert verdict([main, agree], "expert") == "robust"
    assert verdict([main, agree, wide], "expert") == "unconfirmed"
    assert verdict([main, against, wide], "expert") == "flips"
    assert verdict([main], "expert") == "main only"
    not_sig = Level("expert", 0.34, 0.30, 0.38, 1 / 3, 1000, False)
    assert verdict([not_sig, agree], "expert") == "unconfirmed"  # the main bot's own claim is not significant
    # above its fair share by a hair, not significantly: a significant level below it does not make it flip
    # (#12's last note: "flips" was said of estimates that claimed no sign)
    assert verdict([not_sig, against], "expert") == "unconfirmed"
    assert verdict([main, against], "expert") == "flips"  # the same level against a significant claim
    # the main bot claims no edge and no other level finds one either: a null that holds, not one to settle
    null_linear = Level("linear", 0.35, 0.31, 0.39, 1 / 3, 1000, False)
    assert verdict([not_sig, null_linear], "expert") == "no effect"
    assert verdict([main, null_linear], "expert") == "unconfirmed"  # a claim the other level cannot confirm


def test_findings_are_marked_and_the_other_bots_duplicates_dropped():
    t = tables()
    findings, checks = check_findings(make_findings(t), t)
    by_claim = {c.claim: c for c in checks}
    seat_checks = [c for c in checks if c.finding.topic == "seats"]
    # the main bot (expert) made every checked finding; linear's and search's own seat sentences are gone
    assert all("expert bot" in c.finding.text for c in seat_checks)
    assert not any("linear bot" in f.text for f in findings if f.topic == "seats")
    verdicts = {(c.finding.row["players"], c.finding.row["seat"]): c.verdict for c in seat_checks}
    assert verdicts == {(3, 0): "robust", (3, 2): "flips", (2, 1): "unconfirmed"}
    compare = {c.finding.row["players"]: c.verdict for c in checks if c.finding.topic == "compare"}
    assert compare == {3: "flips", 2: "robust"}
    flipped = next(c for c in seat_checks if c.verdict == "flips")
    assert "depends on the style of play" in flipped.finding.text and flipped.finding.robustness == "flips"
    assert [lv.bot for lv in flipped.levels] == ["linear", "expert", "search:expert@4"]  # ladder order
    assert len(by_claim) == len(checks)


def test_one_bot_only_leaves_the_findings_alone():
    t = tables()
    t.seats = t.seats.filter(pl.col("strategy") == "expert")
    t.compare = t.compare.filter(pl.col("strategies").str.starts_with("expert"))
    before = make_findings(t)
    texts = [f.text for f in before]
    after, checks = check_findings(before, t)
    assert checks == [] and [f.text for f in after] == texts


def test_ladder_order():
    bots = ["search:expert@4", "expert", "linear", "mybot.py:f", "greedy", "search:linear"]
    assert sorted(bots, key=level_key) == ["greedy", "linear", "search:linear", "expert", "search:expert@4", "mybot.py:f"]


def test_the_strong_level_weighs_first():
    """#26: the strongest plain level decides; a weaker bot that disagrees is outweighed, search over it is not."""
    main = Level("expert", 0.45, 0.44, 0.46, 1 / 3, 200_000, True)
    linear_against = Level("linear", 0.30, 0.29, 0.31, 1 / 3, 20_000, True)
    strong = Level("strong", 0.42, 0.40, 0.44, 1 / 3, 3000, True)
    strong_against = Level("strong", 0.29, 0.27, 0.31, 1 / 3, 3000, True)
    strong_wide = Level("strong", 0.36, 0.32, 0.40, 1 / 3, 3000, False)
    search_against = Level("search:strong@8:late", 0.30, 0.28, 0.32, 1 / 3, 400, True)
    search_wide = Level("search:strong@8:late", 0.40, 0.30, 0.50, 1 / 3, 400, False)
    assert verdict([main, strong], "expert") == "robust"
    assert verdict([linear_against, main, strong], "expert") == "strong play"  # linear's flip is outweighed
    assert verdict([linear_against, main, strong, search_wide], "expert") == "strong play"  # above it: no contradiction
    assert verdict([main, strong, search_against], "expert") == "flips"  # search over strong says otherwise
    assert verdict([main, strong_against], "expert") == "flips"
    assert verdict([linear_against, main, strong_wide], "expert") == "bot's effect"  # none, and 0.45 ruled out
    strong_unsure = Level("strong", 0.40, 0.32, 0.48, 1 / 3, 3000, False)  # holds the fair third and 0.45 alike
    assert verdict([linear_against, main, strong_unsure], "expert") == "unconfirmed"  # more games would tell
    not_sig = Level("expert", 0.34, 0.30, 0.38, 1 / 3, 1000, False)
    assert verdict([not_sig, strong], "expert") == "strong play"  # strong settles what expert's games could not
    assert verdict([not_sig, strong_against], "expert") == "unconfirmed"  # the estimates' signs differ: no claim held
    # neither expert nor strong finds an edge: "no effect", whatever the weaker linear says, unless search over
    # strong finds one
    assert verdict([linear_against, not_sig, strong_wide], "expert") == "no effect"
    assert verdict([not_sig, strong_wide, search_wide], "expert") == "no effect"
    assert verdict([not_sig, strong_wide, search_against], "expert") == "unconfirmed"
    # without a level stronger than the main bot, every level counts alike (the rule before #26)
    assert verdict([main, linear_against], "expert") == "flips"


def test_findings_read_at_the_strong_level():
    t = tables()
    extra = [_seat("strong", 3, 0, 0.50, 0.48, 0.52), _seat("strong", 3, 1, 0.28, 0.26, 0.30),
             _seat("strong", 3, 2, 0.22, 0.20, 0.24)]
    t.seats = pl.concat([t.seats, pl.DataFrame(extra)], how="diagonal_relaxed")
    findings, checks = check_findings(make_findings(t), t)
    verdicts = {(c.finding.row["players"], c.finding.row["seat"]): c.verdict for c in checks if c.finding.topic == "seats"}
    # seat 3 of 3: linear flipped it, strong agrees with expert significantly -> holds under strong play
    assert verdicts[(3, 2)] == "strong play" and verdicts[(3, 0)] == "robust"
    worst = next(c for c in checks if c.finding.topic == "seats" and c.finding.row["seat"] == 2 and c.finding.row["players"] == 3)
    assert [lv.bot for lv in worst.levels] == ["linear", "expert", "search:expert@4", "strong"]
    assert "Under strong: 22.0% (20.0-24.0%)." in worst.finding.text and "holds under strong play" in worst.finding.text


def test_strong_sorts_above_search_over_expert():
    bots = ["search:strong@8:late", "strong", "search:expert@8:late", "expert", "linear"]
    assert sorted(bots, key=level_key) == ["linear", "expert", "search:expert@8:late", "strong", "search:strong@8:late"]
