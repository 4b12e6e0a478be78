"""The top rung against strong head to head (analyses/games/dreamscape/toprung.py): the margin worked out by hand,
the kept cells replayed on the current engine, and a kept cell read only where it matches what the code plays."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from analyses.games.dreamscape import certify as rung
from analyses.games.dreamscape import toprung
from analyses.study.model import StudyError

Z = 1.959963984540054


def test_the_margin_is_the_per_deal_share_against_the_fair_share_from_the_counts():
    # 2 players, four deals whose searcher's share was 0, 1/2, 1/2, 1: mean 1/2, margin 0; sample variance
    # (1/4 + 0 + 0 + 1/4) / 3 = 1/6, so the half-width is 1.96 sqrt(1/6) / 2.
    cell = {"players": 2, "counts": [[0.0, 1], [0.5, 2], [1.0, 1]]}
    e = toprung.margin(cell)
    half = Z * math.sqrt(1 / 6) / 2
    assert e.value == pytest.approx(0.0, abs=1e-15)
    assert (e.low, e.high) == (pytest.approx(-half), pytest.approx(half))
    # 3 players: every deal 1/2 to the searcher (two seats of three): margin +1/6 and no spread
    e = toprung.margin({"players": 3, "counts": [[0.5, 10]]})
    assert (e.value, e.low, e.high) == (pytest.approx(1 / 6), pytest.approx(1 / 6), pytest.approx(1 / 6))


def test_the_per_deal_share_averages_every_seat_the_searcher_held():
    s, t = "S", "T"
    seatings = [(s, t, s), (t, s, s), (s, s, t)]
    win = np.zeros((3, 2, 3))
    win[0, 0] = [1, 0, 0]  # deal 0: seat 1 wins: a searcher in seating 1, strong in seating 2
    win[1, 0] = [1, 0, 0]
    win[2, 0] = [0, 0.5, 0.5]  # seating 3 shares the win (R8.3) between a searcher (seat 2) and strong (seat 3)
    win[:, 1] = [0, 1, 0]  # deal 1: seat 2 wins every seating: strong in seating 1, a searcher in 2 and 3
    shares = toprung.per_deal_share(win, seatings, s)
    # the searcher holds 6 seats a deal: deal 0 credits 1 + 0 + 0.5, deal 1 credits 0 + 1 + 1
    assert shares.tolist() == pytest.approx([1.5 / 6, 2 / 6])


def test_the_kept_cells_match_the_code():
    """Every kept cell: the deck and strong's value the code plays now, its counts summing to its deals, certify's
    default budget measured in 2, 3 and 4 players (its first games are replayed by the slow test below)."""
    cells = toprung.load_cells()
    assert cells, f"{toprung.RUNG_FILE} holds no kept cell"
    from analyses.games.dreamscape.kept import deck_digest, value_digest

    for cell in cells:
        again = f"{cell['players']}p {cell['variant']} K={cell['playouts']}: measure again with `{toprung.command_of(cell)}`"
        assert cell["search"] == rung.top_rung(cell["playouts"]), again
        assert cell["deck_digest"] == deck_digest(cell["players"], cell["variant"]), f"{again} (another deck)"
        assert cell["value_digest"] == value_digest("strong", cell["players"], cell["variant"]), f"{again} (another value)"
        assert sum(n for _, n in cell["counts"]) == cell["games"], again
        # the tournament of two bots seats each in half the seats (3 players: two searchers), every choice of the
        # searchers' seats once: 2 players 2 seatings, 3 players (S, S, T) 3, 4 players (S, S, T, T) 6
        assert len(cell["outcomes"]) == len(cell["seatings"]) == math.comb(cell["players"], cell["players"] // 2), again
    # certify's default budget is measured in 2, 3 and 4 players, base
    assert {(c["players"], c["variant"]) for c in cells if c["playouts"] == rung.PLAYOUTS} >= {
        (2, "base"), (3, "base"), (4, "base")}


@pytest.mark.slow  # the searchers' games: tens of seconds on a loaded machine
def test_the_kept_cells_replay_on_the_current_engine():
    """A change to strong, its value, the search player or the engine that was not measured again fails here,
    naming the cell and the command that measures it."""
    for cell in toprung.load_cells():
        again = f"{cell['players']}p {cell['variant']} K={cell['playouts']}: measure again with `{toprung.command_of(cell)}`"
        assert toprung.replay_digests(cell) == cell["outcomes"], f"{again} (the games play differently)"


def test_a_kept_cell_is_read_only_where_it_matches_and_a_damaged_file_is_one_line(tmp_path):
    path = tmp_path / "rung.json"
    cell = toprung.measure_cell(2, "base", 1, 2, seed=4, progress=False)  # K = 1: a few search games
    toprung.keep(cell, path)
    assert toprung.load_cells(path) == [json.loads(json.dumps(cell))]
    assert toprung.rung_margin(2, "base", 1, path) is not None
    assert toprung.rung_margin(2, "base", 2, path) is None  # another budget
    assert toprung.rung_margin(3, "base", 1, path) is None  # another configuration
    assert toprung.replay_digests(cell) == cell["outcomes"]
    stale = dict(cell, value_digest="0" * 64)  # strong's value changed since
    toprung.keep(stale, path)
    assert toprung.rung_margin(2, "base", 1, path) is None
    assert "not measured" in toprung.margin_words(None, 2, "base", 1)
    path.write_text("{not json")
    with pytest.raises(StudyError, match="not a kept file"):
        toprung.load_cells(path)


def test_a_cell_extended_by_more_deals_equals_one_measured_on_all_of_them():
    short = toprung.measure_cell(2, "base", 1, 2, seed=6, progress=False)
    whole = toprung.measure_cell(2, "base", 1, 4, seed=6, progress=False)
    grown = toprung.extend_cell(short, 2, progress=False)
    assert grown["games"] == 4 and grown["counts"] == whole["counts"]
    assert grown["outcomes"] == short["outcomes"] == whole["outcomes"]  # the first games' digests stay the first games'


def test_a_damaged_kept_file_is_named_before_anything_is_played(tmp_path, capsys):
    from analyses.games.dreamscape import toprung

    bad = tmp_path / "rung.json"
    bad.write_text("not json")
    assert toprung.main(["--players", "3", "--playouts", "16", "--games", "2", "--path", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(bad) in err and err.count("\n") == 1


def test_standing_says_stronger_only_when_the_margins_interval_lies_above_zero():
    # 2 players, fair share 0.5. 100 deals at 0.6 and 100 at 0.5: margin +5 points, sd 0.05 a deal, interval
    # about +5 +- 0.7 points: stronger. 100 deals at 1.0 and 100 at 0.0: margin 0, interval +-7 points: not shown.
    above = {"players": 2, "variant": "base", "games": 200, "seed": 11, "bot": "strong",
             "counts": [[0.5, 100], [0.6, 100]]}
    level = dict(above, counts=[[0.0, 100], [1.0, 100]])
    below = dict(above, counts=[[0.4, 100], [0.5, 100]])
    assert toprung.standing(above) == toprung.STRONGER
    assert toprung.standing(level) == toprung.NOT_SHOWN
    assert toprung.standing(below) == toprung.NOT_SHOWN
    assert toprung.standing(None) == toprung.NOT_MEASURED
    assert toprung.margin_words(above).startswith("+5.0 points (+4.3 to +5.7) head to head over strong")
    assert toprung.margin_words(above).endswith(": stronger")
    assert toprung.margin_words(level).endswith(": not shown stronger")


def test_the_certified_page_counts_the_budgets_where_the_rung_is_not_shown_stronger():
    from reports.games.dreamscape.certified import rung_margin_text

    cell = {"players": 3, "variant": "base", "games": 200, "seed": 11, "bot": "strong"}
    shown = toprung.margin_words(dict(cell, counts=[[0.4, 100], [0.5, 100]]))  # fair 1/3: +11.7 points
    level = toprung.margin_words(dict(cell, variant="sleep-token", counts=[[0.0, 100], [2 / 3, 100]]))  # +0, wide
    rows = [{"playouts": 16, "players": 3, "variant": "base", "rung_margin": shown},
            {"playouts": 16, "players": 3, "variant": "sleep-token", "rung_margin": level},
            {"playouts": 16, "players": 3, "variant": "shifting-tokens",
             "rung_margin": toprung.margin_words(None, 3, "shifting-tokens", 16)}]
    text = rung_margin_text(rows)
    assert shown in text and level in text
    assert "not shown stronger than strong in 1 of the 3 certified" in text
    assert "not measured in 1 of the 3 certified" in text
    assert "not shown stronger" not in rung_margin_text(rows[:1]) and "not measured" not in rung_margin_text(rows[:1])
