"""Counting Zzzzs study: the plan files read into configurations by the lab's one study-file reader, the
analysis tables against numbers worked out by hand on small made-up results, and the quick study end to end
through the lab's pipeline (study folder, PDF, PNG, CSV)."""
from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from analyses.games import counting_zzzzs as A
from analyses.stats.intervals import wilson
from simcore.games.counting_zzzzs import QUICK_STUDY_PLAN, STUDY_PLAN
from simcore.games.counting_zzzzs.common import empty_results
from simcore.games.counting_zzzzs.config import parse_setup
from analyses.study.studyfile import load_study_file


T_975_3DF = 3.182446  # the 97.5% quantile of Student's t with 3 degrees of freedom (any t table)


def made_up(players: int, winners: list[int], turns: list[int], end: list[int], dreams=None, elements=None):
    setup = parse_setup(players)
    r = empty_results(setup, 0, len(winners))
    for i, w in enumerate(winners):
        r["winners"][i, w] = 1
        r["winner"][i] = w
    r["turns"][:] = turns
    r["end"][:] = end
    r["dreams"][:] = 1 if dreams is None else dreams
    r["dream_elements"][:] = 5 if elements is None else elements
    return r


def test_plans_hold_every_question():
    for path in (STUDY_PLAN, QUICK_STUDY_PLAN):
        plan = load_study_file(path)
        assert plan.game.game == "counting-zzzzs"
        keys = {(c.players, c.variant, tuple(c.strategies)) for c in plan.configs}
        for p in (2, 3, 4):
            assert (p, "base", ("greedy",) * p) in keys and (p, "base", ("random",) * p) in keys
            for n in (0, 2, 4, 6):
                assert (p, "base" if n == {2: 4, 3: 2, 4: 0}[p] else f"remove={n}", ("greedy",) * p) in keys
            for action in ("wake-up", "bender", "force", "block"):
                assert (p, "base", (f"greedy/no-{action}",) + ("greedy",) * (p - 1)) in keys
        assert (3, "base", ("search@16", "greedy", "greedy")) in keys


def test_first_player_and_game_shape_by_hand():
    # 3 players, 4 games: seat 1 wins 2; turns 30, 33, 36, 39; 1 of 4 ends at 40 points
    r = made_up(3, [0, 1, 0, 2], [30, 33, 36, 39], [1, 2, 2, 2])
    rows, configs = A.frame_of_results([(r, "base", 3, ["greedy"] * 3)])
    fp = A.first_player(rows, configs).row(0, named=True)
    rate, lo, hi = 0.5, *wilson(2, 4)[1:]
    assert fp["seat1_win"] == rate and (fp["low"], fp["high"]) == (lo, hi) and fp["fair"] == pytest.approx(1 / 3)
    # Wilson by hand: centre (0.5 + z^2/8) / (1 + z^2/4), half z sqrt(0.0625 + z^2/64) / (1 + z^2/4)
    z = 1.959963984540054
    d = 1 + z * z / 4
    assert lo == pytest.approx((0.5 + z * z / 8) / d - z * math.sqrt(0.0625 + z * z / 64) / d)
    shape = A.game_shape(rows, configs).row(0, named=True)
    assert shape["turns"] == 34.5 and shape["rounds"] == 11.5 and shape["removed"] == 2 and shape["rulebook"]
    # means get Student's t interval (the lab's one statistics module): t(0.975, 3 df) = 3.18245 from a t table
    sd = np.std([30, 33, 36, 39], ddof=1)
    assert shape["turns_high"] - shape["turns"] == pytest.approx(T_975_3DF * sd / 2, rel=1e-5)
    assert shape["forty_share"] == 0.25 and shape["dream_length"] == 5.0


def test_game_shape_does_not_depend_on_the_order_of_the_rows():
    # dream lengths such as 7/3 and 9/7 have no exact binary form, so a mean that adds them in another order
    # may differ in its last digit: the table must be the same bit for bit however the rows come
    rng = np.random.default_rng(3)
    n = 40_000  # enough rows for polars to group them on several threads
    dreams = rng.integers(1, 8, size=(n, 3))
    elements = dreams * 4 + rng.integers(0, 5, size=(n, 3))
    r = made_up(3, list(rng.integers(0, 3, n)), list(rng.integers(20, 60, n)), [2] * n, dreams, elements)
    rows, configs = A.frame_of_results([(r, "base", 3, ["greedy"] * 3)])
    shuffled = rows.sample(fraction=1.0, shuffle=True, seed=11)
    assert A.game_shape(rows, configs).equals(A.game_shape(shuffled, configs))
    length = elements.sum(axis=1) / dreams.sum(axis=1)  # by hand, games in order
    assert A.game_shape(shuffled, configs)["dream_length"][0] == float(length.mean())


def test_action_kinds_pair_games_by_index():
    full = made_up(2, [0, 0, 1, 1], [20] * 4, [2] * 4)
    no_block_seat1 = made_up(2, [1, 0, 1, 1], [20] * 4, [2] * 4)      # seat 1 loses game 0 without blocks
    rows, configs = A.frame_of_results([(full, "base", 2, ["greedy", "greedy"]),
                                        (no_block_seat1, "base", 2, ["greedy/no-block", "greedy"])])
    t = A.action_kinds(rows, configs).row(0, named=True)
    assert (t["players"], t["action"], t["seat_games"]) == (2, "block", 4)
    assert t["win_change"] == -0.25                                      # differences -1, 0, 0, 0
    # Student's t with 3 degrees of freedom: sd of (-1, 0, 0, 0) = 0.5, so the half-width is 3.18245 x 0.5 / 2
    assert t["high"] - t["win_change"] == pytest.approx(T_975_3DF * 0.5 / 2, rel=1e-5)


def test_balance_rule_spread():
    shape = pl.DataFrame([{"players": p, "removed": n, "bot": "greedy", "rounds": rounds, "dream_length": dl}
                          for p, n, rounds, dl in [(2, 4, 20.0, 6.0), (3, 2, 18.0, 5.5), (4, 0, 15.0, 5.0),
                                                   (2, 0, 24.0, 6.5), (3, 0, 19.0, 5.8)]])
    table = A.balance_rule(shape)
    rows = {r["policy"]: r for r in table.iter_rows(named=True)}
    assert rows["rulebook"]["rounds_spread"] == 5.0 and rows["rulebook"]["removed"] == "4 / 2 / 0"
    assert rows["remove 0 always"]["rounds_spread"] == 9.0
    assert rows["remove 0 always"]["dream_length_spread"] == pytest.approx(1.5)
    assert "remove 2 always" not in rows                                 # not measured for every count


def test_element_cards_difference():
    r = made_up(2, [0, 0, 1, 1] * 10, [20] * 40, [2] * 40)
    r["element_scored"][:, 0, 3] = 1                                     # seat 1 always scored card 3
    won = np.array([0, 0, 1, 1] * 10) == 0
    r["element_scored"][won, 0, 5] = 1                                   # seat 1 scored card 5 in its wins only
    other = made_up(2, [1] * 40, [20] * 40, [2] * 40)                     # kept without card columns:
    rows, _ = A.frame_of_results([(r, "base", 2, ["greedy", "greedy"])])
    rows_other, _ = A.frame_of_results([(other, "remove=0", 2, ["greedy", "greedy"])], elements=False)
    names = [f"E{i}" for i in range(r["element_scored"].shape[2])]
    t = A.element_cards(pl.concat([rows, rows_other], how="diagonal"), names, min_seats=10)
    row = t.filter(pl.col("card") == "E3").row(0, named=True)   # its rows must not count as "without"
    assert row["win_with"] == 0.5 and row["win_without"] == 0.5 and row["difference"] == 0.0
    # card 5: with = seat 1's 20 wins (1.0); without = seat 1's 20 losses and seat 2's 40 games (20 wins):
    # 20 / 60 (the other configuration's 80 seat-games, where seat 2 always wins, left out)
    row = t.filter(pl.col("card") == "E5").row(0, named=True)
    assert row["win_with"] == 1.0 and row["win_without"] == pytest.approx(1 / 3)
    assert row["scored_share"] == 0.25


def test_report_of_a_pipeline_study_folder(tmp_path):
    """The lab's study runner plays the quick plan into a folder; the package's report reads that folder."""
    from typer.testing import CliRunner

    from cli import app
    from reports.games.counting_zzzzs import build_report
    out = tmp_path / "study"
    result = CliRunner().invoke(app, ["study", "--config", str(QUICK_STUDY_PLAN), "--out", str(out), "--no-progress"])
    assert (out / "manifest.json").exists(), result.output
    files = build_report(out)
    assert files.pdf == out / "report.pdf" and files.pdf.stat().st_size > 10_000
    assert [p.parent for p in files.pngs] == [out / "charts"] * 6
    assert {p.stem for p in files.pngs} == {"first_player", "balance_rule", "how_games_end", "action_kinds",
                                            "element_cards", "bot_strength"}
    # the framework's pages: title, findings, then one page per chart
    findings = [p for p in files.pages if p.startswith("Findings")]
    assert files.pages[0] == "Title" and files.pages[1:1 + len(findings)] == \
        ["Findings"] + ["Findings (continued)"] * (len(findings) - 1)
    assert len(files.pages) == 1 + len(findings) + 6
    assert {p.stem for p in files.csvs} == {"first_player", "game_shape", "balance_rule", "action_kinds",
                                            "element_cards", "bot_strength"}
    fp = pl.read_csv(out / "charts" / "first_player.csv")
    assert sorted(fp["players"].to_list()) == [2, 2, 3, 3, 4, 4] and (fp["games"] == 1000).all()
    # the folder's rows keep whether a seat scored each element card as one bit (a full study's rows would
    # not fit in 1 GB as counts), and the card table reads the same from them as from the counts
    from reports.games.counting_zzzzs import read_folder
    rows, _, names, _, _ = read_folder(out)
    cards = [c for c in rows.columns if c.startswith("element_scored_")]
    assert cards and all(rows.schema[c] == pl.Boolean for c in cards)
    import json
    ids = [c["id"] for c in json.loads((out / "manifest.json").read_text())["configs"]]  # read_folder's order
    counts = pl.concat([pl.read_parquet(f) for i in ids for f in sorted((out / "chunks" / i).glob("games-*.parquet"))],
                       how="diagonal")
    assert any(counts[c].max() > 1 for c in cards)  # a seat may score a card twice: the bits do drop counts
    assert A.element_cards(rows, names).equals(A.element_cards(counts.select(rows.columns), names))
