"""The Counting Zzzzs study plans its removal variants from the deck it is given (issue #44).

The quick study compares removing 0, 2, 4 and 6 Wake Ups. A designer's deck with 4 Wake Ups cannot play
remove=6: that variant is left out, with one line saying so, and the rest of the study is planned as for
the shipped deck (8 Wake Ups: 2 Alarm Clocks, 4 Garbage Trucks, 2 Car Alarms).
"""
from __future__ import annotations

from pathlib import Path

from analyses.study.studyfile import load_study_file
from analyses.games import get_game

CZ = get_game("counting-zzzzs")
SHIPPED = Path(CZ.study_plans["quick"]).parent / "cards.toml"


def four_wake_ups(tmp_path: Path) -> Path:
    text = SHIPPED.read_text(encoding="utf-8")
    block = '[[action]]\nname = "Garbage Truck"\nkind = "wake up"\nwakes = "one opponent"\ncount = 4\n'
    assert block in text
    deck = tmp_path / "four.toml"
    deck.write_text(text.replace(block, ""), encoding="utf-8")  # 2 Alarm Clocks and 2 Car Alarms are left
    return deck


def test_a_deck_with_four_wake_ups_leaves_out_remove_6_with_one_line_each(tmp_path):
    shipped = load_study_file(CZ.study_plans["quick"])
    mine = load_study_file(CZ.study_plans["quick"], cards=four_wake_ups(tmp_path))
    removed_6 = [c for c in shipped.configs if c.variant == "remove=6"]
    assert len(removed_6) == 3  # 2, 3 and 4 players
    assert [c.id for c in mine.configs] == [c.id for c in shipped.configs if c.variant != "remove=6"]
    lines = mine.meta["left_out"]
    assert len(lines) == 3
    assert all(line.startswith("remove=6 at ") and "only 4 Wake Up" in line for line in lines)
    assert "left_out" not in shipped.meta
