"""Tournament analysis on a stand-in game whose strengths are known in advance."""
import numpy as np
import pytest

from analyses.tools.tournament import run_tournament, schedule

STRENGTH = {"weak": 0.0, "mid": 3.0, "strong": 6.0, "rock": 0.0, "paper": 0.0, "scissors": 0.0}
BEATS = {("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")}


def stand_in(players, variant, seating, seed, first, games):
    """Score = strength + luck (+8 against the one it beats in rock-paper-scissors)."""
    rng = np.random.default_rng([seed, first])
    score = np.array([[STRENGTH[s] for s in seating]] * games) + rng.normal(0, 4, size=(games, players))
    for i, a in enumerate(seating):  # rock-paper-scissors: a bonus against the beaten one
        for b in seating:
            if (a, b) in BEATS:
                score[:, i] += 8
    score = np.round(score).astype(np.int32)
    win = (score == score.max(axis=1, keepdims=True)).astype(float)
    win /= win.sum(axis=1, keepdims=True)
    return {"win": win, "score": score}


def test_schedule_rotates_every_group_through_every_seat():
    seatings = schedule(["a", "b", "c", "d"], 3)
    assert len(seatings) == 4 * 6  # C(4,3) groups x 3! seatings
    for seat in range(3):
        assert sorted({s[seat] for s in seatings}) == ["a", "b", "c", "d"]
    assert len(schedule(["a", "b"], 3)) == 3  # two names fill three seats, each seating distinct


def test_the_ladder_orders_by_strength_and_flags_the_dominant_one():
    t = run_tournament(["weak", "mid", "strong"], players=3, games_per_seating=800, play=stand_in)
    assert t.standings["strategy"].to_list() == ["strong", "mid", "weak"]
    strong = t.standings.row(0, named=True)
    assert strong["win_low"] > 1 / 3 and strong["lift"] > 0
    assert t.standings["games"].to_list() == [4800, 4800, 4800]
    assert t.dominant == "strong" and t.cycles == []
    ratings = t.standings["rating"].to_list()
    assert ratings[0] > ratings[1] > ratings[2]


def test_a_rock_paper_scissors_field_is_a_cycle_with_no_dominant_strategy():
    t = run_tournament(["rock", "paper", "scissors", "weak"], players=2, games_per_seating=600, play=stand_in)
    assert t.dominant is None
    assert len(t.cycles) == 1 and set(t.cycles[0]) == {"rock", "paper", "scissors"}
