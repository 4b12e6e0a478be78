"""The simulate table's Counting Zzzzs column names the goal actually played (Z15.1, knob:goal): "ends at 40
points" in the rulebook's game, "ends at 30 points" with knob:goal=30."""
from __future__ import annotations

from analyses.lab.play import described
from analyses.games import get_game


def game_labels(variant: str) -> list[str]:
    cz = get_game("counting-zzzzs")
    summary = described(cz, cz.parse_setup(3, variant, None), {})
    return [c["label"] for c in summary["columns"]["game"]]


def test_the_rulebook_game_ends_at_40_points():
    assert "ends at 40 points" in game_labels("base")


def test_the_label_reads_the_goal_knob():
    labels = game_labels("knob:goal=30")
    assert "ends at 30 points" in labels and not any("40" in label for label in labels)


def test_labels_of_other_games_are_their_declared_text():
    pd = get_game("pleasant-dreams")
    summary = described(pd, pd.parse_setup(2, "knob:wake=7", None), {})
    assert [c["label"] for c in summary["columns"]["game"]] == [c[1] for c in pd.columns["game"]]
