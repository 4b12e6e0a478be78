"""Findings at every skill level (reports/robust.py): verdicts worked out by hand on small tables."""
from __future__ import annotations

import polars as pl
import pytest

from reports.games.dreamscape.data import StudyTables
from reports.games.dreamscape.findings import make_findings
from reports.games.dreamscape.robust import Distance, Level, check_findings, level_key, verdict

# A distance from search of a level, by hand: its one-seat search gain's upper bound is what counts.
NEAR = Distance("expert", "search:expert@8:late", 3, "base", 1, 0.03, 0.01, 0.05, 300)  # at most 5 points
FAR = Distance("expert", "search:expert@8:late", 3, "base", 1, 0.10, 0.08, 0.12, 300)  # up to 12 points
STRONG_NEAR = Distance("strong", "search:strong@8:late", 3, "base", 1, 0.03, 0.01, 0.05, 300)


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


def _cell(bot, players, variant, seat, gain, low, high, games=300):
    """A row of an exploit table (seats from 1): search over ``bot`` gains ``gain`` in one seat."""
    return {"strategy": bot, "search": f"search:{bot}@8:late", "players": players, "variant": variant, "seat": seat,
            "games": games, "search_win": 0.0, "search_low": 0.0, "search_high": 0.0, "own_win": 0.0, "own_low": 0.0,
            "own_high": 0.0, "gain": gain, "gain_low": low, "gain_high": high, "significant": low > 0 or high < 0}


def exploit() -> pl.DataFrame:
    """expert's distance from search: up to 5 points in every 3-player base seat, up to 2 in 2 players."""
    rows = [_cell("expert", 3, "base", s, 0.03, 0.01, 0.05) for s in (1, 2, 3)]
    rows += [_cell("expert", 2, v, s, 0.01, 0.0, 0.02) for v in ("base", "sleep-token") for s in (1, 2)]
    return pl.DataFrame(rows)


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
    return StudyTables(seats=pl.DataFrame(seats), compare=pl.DataFrame(compare), exploit=exploit())


def test_verdicts_by_hand():
    main = Level("expert", 0.45, 0.44, 0.46, 1 / 3, 1000, True)
    agree = Level("linear", 0.50, 0.49, 0.51, 1 / 3, 1000, True)
    wide = Level("search:expert@4", 0.40, 0.30, 0.50, 1 / 3, 100, False)
    against = Level("linear", 0.30, 0.29, 0.31, 1 / 3, 1000, True)
    # every level significant, one sign; the reading level (expert) is at least 0.44 - 1/3 = 10.7 points above
    # its fair share: more than NEAR's 5 points could move, less than FAR's 12
    assert verdict([main, agree], "expert", NEAR) == "robust"
    assert verdict([main, agree], "expert", FAR) == "within distance"
    assert verdict([main, agree], "expert") == "unmeasured"  # no distance measured: nothing holds
    assert verdict([main, agree, wide], "expert", NEAR) == "unconfirmed"
    assert verdict([main, against, wide], "expert", NEAR) == "flips"
    assert verdict([main], "expert", NEAR) == "main only"
    not_sig = Level("expert", 0.34, 0.30, 0.38, 1 / 3, 1000, False)
    assert verdict([not_sig, agree], "expert", NEAR) == "unconfirmed"  # the main bot's own claim is not significant
    # above its fair share by a hair, not significantly: a significant level below it does not make it flip
    # (#12's last note: "flips" was said of estimates that claimed no sign)
    assert verdict([not_sig, against], "expert", NEAR) == "unconfirmed"
    assert verdict([main, against], "expert", NEAR) == "flips"  # the same level against a significant claim
    # the main bot claims no edge and no other level finds one either; but expert's interval reaches
    # 33.3 - 30.0 = 3.3 points below the fair share, past the 2-point margin: not a null that holds
    null_linear = Level("linear", 0.35, 0.31, 0.39, 1 / 3, 1000, False)
    assert verdict([not_sig, null_linear], "expert", NEAR) == "unconfirmed"
    # inside the margin: 32.5-35.0% lies within 31.3-35.3% (a third +-2 points)
    narrow = Level("expert", 0.34, 0.325, 0.35, 1 / 3, 20_000, False)
    assert verdict([narrow, null_linear], "expert", NEAR) == "no effect"
    assert verdict([narrow, null_linear], "expert") == "no effect"  # a null needs no distance: no claim to move
    assert verdict([main, null_linear], "expert", NEAR) == "unconfirmed"  # a claim the other level cannot confirm


def test_a_finding_the_distance_could_move_fails_the_rule():
    """#42's case: shifting tokens in 3 players, +6.0 (+3.3 to +8.7) under strong, where a search player gains
    7 to 12 points over strong: at least 3.3 points of effect against up to 12 of distance -> not confirmed."""
    expert = Level("expert", 0.067, 0.063, 0.071, 0.0, 200_000, True)
    linear = Level("linear", 0.004, -0.010, 0.018, 0.0, 20_000, False)
    strong = Level("strong", 0.060, 0.033, 0.087, 0.0, 3000, True)
    seven_to_twelve = Distance("strong", "search:strong@32:late", 3, "shifting-tokens", 2, 0.095, 0.07, 0.12, 300)
    assert verdict([linear, expert, strong], "expert", seven_to_twelve) == "within distance"
    assert verdict([linear, expert, strong], "expert", None) == "unmeasured"  # the value never searched there
    # a strong bot search gains at most 3 points over (3.3 > 3.0): the same numbers hold under strong play
    close = Distance("strong", "search:strong@32:late", 3, "shifting-tokens", 2, 0.01, -0.01, 0.03, 300)
    assert verdict([linear, expert, strong], "expert", close) == "strong play"
    # a search player that loses to the bot moves nothing: the bound is 0, not negative
    worse = Distance("strong", "search:strong@32:late", 3, "shifting-tokens", 2, -0.05, -0.07, -0.03, 300)
    assert verdict([linear, expert, strong], "expert", worse) == "strong play"


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
    assert checks == [] and len(after) == len(texts)
    for f, text in zip(after, texts):
        if f.row.get("variant", "base") == "base":
            assert f.text == text  # the printed game: nothing added
        else:  # Sleep Token, a changed game: the bot's training status and its distance, no verdict (#41 item 4)
            assert f.text.startswith(text + " Bots' training on Sleep Token: expert fitted. Read under expert; its "
                                            "distance from search: ")


def test_ladder_order():
    bots = ["search:expert@4", "expert", "linear", "mybot.py:f", "greedy", "search:linear"]
    assert sorted(bots, key=level_key) == ["greedy", "linear", "search:linear", "expert", "search:expert@4", "mybot.py:f"]


def test_the_strong_level_weighs_first():
    """#26: the strongest plain level decides; a weaker bot that disagrees is outweighed, search over it is not.
    strong's claim is at least 0.40 - 1/3 = 6.7 points: beyond STRONG_NEAR's 5."""
    main = Level("expert", 0.45, 0.44, 0.46, 1 / 3, 200_000, True)
    linear_against = Level("linear", 0.30, 0.29, 0.31, 1 / 3, 20_000, True)
    strong = Level("strong", 0.42, 0.40, 0.44, 1 / 3, 3000, True)
    strong_against = Level("strong", 0.29, 0.27, 0.31, 1 / 3, 3000, True)
    strong_wide = Level("strong", 0.36, 0.32, 0.40, 1 / 3, 3000, False)
    strong_null = Level("strong", 0.335, 0.32, 0.35, 1 / 3, 30_000, False)  # within a third +-2 points
    search_against = Level("search:strong@8:late", 0.30, 0.28, 0.32, 1 / 3, 400, True)
    search_wide = Level("search:strong@8:late", 0.40, 0.30, 0.50, 1 / 3, 400, False)
    d = STRONG_NEAR
    assert verdict([main, strong], "expert", d) == "robust"
    assert verdict([linear_against, main, strong], "expert", d) == "strong play"  # linear's flip is outweighed
    assert verdict([linear_against, main, strong, search_wide], "expert", d) == "strong play"  # no contradiction
    assert verdict([main, strong, search_against], "expert", d) == "flips"  # search over strong says otherwise
    assert verdict([main, strong_against], "expert", d) == "flips"
    assert verdict([linear_against, main, strong_wide], "expert", d) == "bot's effect"  # none, and 0.45 ruled out
    strong_unsure = Level("strong", 0.40, 0.32, 0.48, 1 / 3, 3000, False)  # holds the fair third and 0.45 alike
    assert verdict([linear_against, main, strong_unsure], "expert", d) == "unconfirmed"  # more games would tell
    not_sig = Level("expert", 0.34, 0.30, 0.38, 1 / 3, 1000, False)
    assert verdict([not_sig, strong], "expert", d) == "strong play"  # strong settles what expert's games could not
    assert verdict([not_sig, strong_against], "expert", d) == "unconfirmed"  # the signs differ: no claim held
    # neither expert nor strong finds an edge: "no effect" when strong's interval is within the margin, whatever
    # the weaker linear says, unless search over strong finds one; strong_wide reaches 6.7 points: unconfirmed
    assert verdict([linear_against, not_sig, strong_null], "expert", d) == "no effect"
    assert verdict([not_sig, strong_null, search_wide], "expert", d) == "no effect"
    assert verdict([not_sig, strong_null, search_against], "expert", d) == "unconfirmed"
    assert verdict([linear_against, not_sig, strong_wide], "expert", d) == "unconfirmed"
    # without a level stronger than the main bot, every level counts alike (the rule before #26)
    assert verdict([main, linear_against], "expert", d) == "flips"


def test_findings_read_at_the_strong_level():
    t = tables()
    extra = [_seat("strong", 3, 0, 0.50, 0.48, 0.52), _seat("strong", 3, 1, 0.28, 0.26, 0.30),
             _seat("strong", 3, 2, 0.22, 0.20, 0.24)]
    t.seats = pl.concat([t.seats, pl.DataFrame(extra)], how="diagonal_relaxed")
    # strong's distance: up to 5 points in seats 1 and 3, measured; seat 3's claim is at least 33.3 - 24 = 9.3
    # points below fair, seat 1's at least 48 - 33.3 = 14.7 above: both beyond 5 points
    t.exploit = pl.concat([t.exploit, pl.DataFrame([_cell("strong", 3, "base", s, 0.03, 0.01, 0.05) for s in (1, 3)])])
    findings, checks = check_findings(make_findings(t), t)
    verdicts = {(c.finding.row["players"], c.finding.row["seat"]): c.verdict for c in checks if c.finding.topic == "seats"}
    # seat 3 of 3: linear flipped it, strong agrees with expert significantly -> holds under strong play
    assert verdicts[(3, 2)] == "strong play" and verdicts[(3, 0)] == "robust"
    worst = next(c for c in checks if c.finding.topic == "seats" and c.finding.row["seat"] == 2 and c.finding.row["players"] == 3)
    assert [lv.bot for lv in worst.levels] == ["linear", "expert", "search:expert@4", "strong"]
    assert "Under strong: 22.0% (20.0-24.0%)." in worst.finding.text and "holds under strong play" in worst.finding.text
    # the verdict names the level it rests on and that level's measured distance where the finding reads it
    assert ("Read under strong; its distance from search: search:strong@8:late in one seat gains +3.0 (+1.0 to +5.0) "
            "points over strong (3 players") in worst.finding.text and "seat 3, 300 deals" in worst.finding.text
    assert worst.distance.seat == 3 and worst.distance.high == 0.05

    # seat 3's distance up to 10 points: a claim of at least 9.3 points is within it
    t.exploit = t.exploit.with_columns(
        pl.when((pl.col("strategy") == "strong") & (pl.col("seat") == 3)).then(0.10).otherwise(pl.col("gain_high"))
        .alias("gain_high"))
    verdicts = {(c.finding.row["players"], c.finding.row["seat"]): c.verdict
                for c in check_findings(make_findings(t), t)[1] if c.finding.topic == "seats"}
    assert verdicts[(3, 2)] == "within distance" and verdicts[(3, 0)] == "robust"
    # no cell of strong in seat 3: unmeasured, and said so in the sentence
    t.exploit = t.exploit.filter(~((pl.col("strategy") == "strong") & (pl.col("seat") == 3)))
    findings, checks = check_findings(make_findings(t), t)
    worst = next(c for c in checks if c.finding.topic == "seats" and c.finding.row["seat"] == 2 and c.finding.row["players"] == 3)
    assert worst.verdict == "unmeasured" and worst.distance is None
    assert "Read under strong; its distance from search: not measured (3 players" in worst.finding.text


def test_strong_sorts_above_search_over_expert():
    bots = ["search:strong@8:late", "strong", "search:expert@8:late", "expert", "linear"]
    assert sorted(bots, key=level_key) == ["linear", "expert", "search:expert@8:late", "strong", "search:strong@8:late"]


# ----------------------------------------------------------------------------- multiple comparisons (#42 item 1)


def test_p_from_interval_keeps_a_lone_claims_verdict():
    from analyses.stats.multiple import p_from_interval

    # +3.0 (+0.5 to +5.5) points: the half facing zero is 2.5 points, a standard error of 2.5 / 1.96 = 1.276,
    # z = 3.0 / 1.276 = 2.352 and a two-sided p of 0.0187 (a normal table's 2 x 0.00934)
    assert p_from_interval(0.03, 0.005, 0.055, 0.0) == pytest.approx(0.0187, abs=5e-4)
    # an interval that just reaches the reference gives p = 0.05; one that leaves it out, less
    assert p_from_interval(0.03, 0.0, 0.06, 0.0) == pytest.approx(0.05, abs=1e-9)
    assert p_from_interval(0.40, 0.38, 0.42, 1 / 3) < 0.05 < p_from_interval(0.34, 0.30, 0.38, 1 / 3)
    # a rate below its fair share reads the half above it: 30% (29-33%) against a third, 3.33 / (3 / 1.96) = 2.18
    assert p_from_interval(0.30, 0.29, 0.33, 1 / 3) == pytest.approx(0.0294, abs=5e-4)


def test_a_claim_that_loses_its_significance_after_holms_correction():
    """Three claims: +3.0 (+0.5 to +5.5) (p = 0.0187, significant alone) beside two nulls. Holm tests the
    smallest p at 0.05 / 3 = 0.0167: 0.0187 fails, and the step-down stops, so none is significant. Beside a
    claim of tiny p instead, it is tested second, at 0.05 / 2 = 0.025, and stays (Bonferroni's 0.0167 for every
    claim would have dropped it)."""
    from reports.findings import Finding
    from reports.games.dreamscape.robust import Check, correct_levels

    def check(*levels):
        return Check(Finding("", True, "compare", "compare", {}), "", list(levels))

    claim = Level("expert", 0.03, 0.005, 0.055, 0.0, 1000, True)
    null_1 = Level("expert", 0.001, -0.02, 0.022, 0.0, 1000, False)
    null_2 = Level("expert", -0.002, -0.03, 0.026, 0.0, 1000, False)
    assert correct_levels([check(claim), check(null_1), check(null_2)]) == 3
    assert not claim.significant and not null_1.significant and claim.p == pytest.approx(0.0187, abs=5e-4)

    claim = Level("expert", 0.03, 0.005, 0.055, 0.0, 1000, True)
    huge = Level("expert", 0.20, 0.18, 0.22, 0.0, 1000, True)
    correct_levels([check(claim, huge), check(null_1)])
    assert claim.significant and huge.significant and not null_1.significant


def test_the_correction_changes_a_verdict_and_the_findings_star():
    """A 2-player change significant at both levels alone (robust with expert's distance of 2 points) is read in
    a family where its linear reading does not survive Holm: the verdict drops to unconfirmed, and the star of
    the expert finding follows expert's corrected significance."""
    compare = [_change("expert", 2, -0.05, -0.08, -0.03), _change("linear", 2, -0.03, -0.055, -0.005)]
    # four nulls under both bots (3-player rows with seat 1's fair third in their intervals)
    seats = [_seat(bot, 3, s, 0.333, 0.30, 0.37) for bot in ("expert", "linear") for s in (0, 1, 2)]
    t = StudyTables(seats=pl.DataFrame(seats), compare=pl.DataFrame(compare), exploit=exploit())
    findings, checks = check_findings(make_findings(t), t)
    change = next(c for c in checks if c.finding.topic == "compare")
    linear = next(lv for lv in change.levels if lv.bot == "linear")
    # linear: p = 0.0187 (as above); the family: 2 compare claims + 2 seat findings x 2 bots = 6 claims; expert's
    # change (z = 0.05 / (0.02 / 1.96) = 4.9) is tested first at 0.05 / 6, linear's second at 0.05 / 5 = 0.01
    assert len([lv for c in checks for lv in c.levels]) == 6
    assert linear.p == pytest.approx(0.0187, abs=5e-4) and not linear.significant
    assert change.verdict == "unconfirmed" and change.finding.significant
    nulls = [c for c in checks if c.finding.topic == "seats"]
    assert nulls and all(not c.finding.significant for c in nulls)


# ----------------------------------------------------------------------------- training status (#41 item 4)


def test_a_finding_on_a_changed_game_names_the_bots_training_status():
    from reports.games.dreamscape.robust import training_line

    levels = [Level(bot, 0.0, -0.01, 0.01, 0.0, 100, False) for bot in ("linear", "expert", "search:expert@8:late",
                                                                        "strong")]
    row = {"players": 2, "variant": "sleep-token", "baseline": "base"}
    # shipped: expert/2p-sleep-token.toml and strong/2p-sleep-token.npz; linear was tuned in 3-player base games
    assert training_line(levels, "compare", row) == ("Bots' training on Sleep Token: linear rule-aware; "
                                                     "expert fitted; strong fitted.")
    assert training_line(levels, "seats", {"players": 3, "variant": "base", "seat": 0}) is None  # the printed game
    # one swap: expert's table never saw its dream types; strong plays its player count's value across the
    # 24 single-swap decks (shipped: strong/2p-base-single-swaps.npz)
    swap = training_line(levels, "swaps", {"players": 2, "variant": "FF:ID", "baseline": "base"})
    assert "expert out of distribution (" in swap and "swap deck" in swap and "strong rule-aware" in swap
    # two swaps are outside that family: no value was fitted there
    two = training_line(levels, "swaps", {"players": 2, "variant": "PR:ID+NT:ED", "baseline": "base"})
    assert "expert out of distribution (" in two and "strong out of distribution (" in two


def test_the_training_line_is_in_the_finding_with_the_distance():
    compare = [_change("expert", 2, -0.05, -0.07, -0.03), _change("linear", 2, -0.02, -0.03, -0.01)]
    t = StudyTables(compare=pl.DataFrame(compare), exploit=exploit())
    findings, checks = check_findings(make_findings(t), t)
    (change,) = checks
    # expert's claim is at least 3 points, its distance in 2-player base and Sleep Token at most 2: robust
    assert change.verdict == "robust"
    assert "Read under expert; its distance from search: search:expert@8:late in one seat gains +1.0 (+0.0 to +2.0)" \
        in change.finding.text and "the largest of 4 cells" in change.finding.text
    assert change.finding.text.endswith("Bots' training on Sleep Token: linear rule-aware; expert fitted.")


def test_the_report_says_which_correction_over_how_many_claims_and_each_levels_distance():
    from reports.games.dreamscape.report import CORRECTED_NOTE, correction_fact, skill_level_pages

    t = tables()
    findings, checks = check_findings(make_findings(t), t)
    # 3 seat findings x 3 levels and 2 changes x 2 levels (see tables()): 13 claims in one family
    assert correction_fact(checks) == ("Multiple comparisons", "the significance of the 5 findings read at every skill "
                                       "level is Holm-corrected as one family of 13 claims (every finding at every "
                                       "level; family-wise error 5%); the other findings' stars are their own 95% "
                                       "intervals'")
    assert "Holm's correction" in CORRECTED_NOTE
    (page,) = skill_level_pages(checks)
    words = [text.get_text() for text in page.texts]
    assert any("Holm's correction across the page's 13 claims" in w for w in words)
    assert "distance" in words and words.count("not measured") == 1  # 3 players' compare: no Sleep Token cell
    assert "+3.0 (+1.0 to +5.0)" in words  # expert's worst 3-player base seat, read by the seat findings


def test_the_skill_level_legend_explains_every_verdict_and_clears_the_column_headers():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from reports.games.dreamscape.report import LEVELS_HEADER_Y, skill_level_pages
    from reports.games.dreamscape.robust import VERDICT_WORDS

    t = tables()
    _, checks = check_findings(make_findings(t), t)
    (page,) = skill_level_pages(checks)
    legend = next(x for x in page.texts if x.get_text().startswith("Each headline finding"))
    text = legend.get_text().lower()
    # every verdict the Verdict column can print is named in the legend as "<verdict>:" or "<verdict> /"
    missing = [v for v in VERDICT_WORDS if f"{v}:" not in text and f"{v} /" not in text]
    assert missing == []
    renderer = FigureCanvasAgg(page).get_renderer()
    header = next(x for x in page.texts if x.get_text() == "Claim")
    assert header.get_position()[1] == LEVELS_HEADER_Y
    # the legend's last line ends above the column headers' top (figure fractions of the page's height)
    legend_bottom = legend.get_window_extent(renderer).y0 / page.bbox.height
    header_top = header.get_window_extent(renderer).y1 / page.bbox.height
    assert legend_bottom > header_top
