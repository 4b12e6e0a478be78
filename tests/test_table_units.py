"""The seat table's "vs fair" column is a difference of win rates, so it is written in points, never as a percent
(a seat winning 38.3% of 3-player games is 5.0 points above the fair 33.3%, not "5.0%" of anything)."""
from reports.tables import _seat_lines


def test_vs_fair_is_written_in_points():
    fair = 1 / 3
    row = {"config": "c", "players": 3, "variant": "base", "strategies": "expert", "games": 1200, "seat": 0,
           "strategy": "expert", "win_rate": fair + 0.05, "win_low": fair + 0.02, "win_high": fair + 0.08,
           "lift": 0.05, "significant": True, "mean_score": 20.0, "mean_z": 1.0}
    length = {"config": "c", "mean_length": 10.0, "length_low": 9.9, "length_high": 10.1}
    lines = _seat_lines({"seats": [row], "game_length": [length]})
    seat_row = next(line for line in lines if line.strip().startswith("1 "))
    assert "+5.0 pt*" in seat_row
    assert "+5.0%" not in seat_row
