"""``lab.open_study`` reads every game's study folders (issue #44: a Counting Zzzzs folder raised KeyError 'sum_z')."""
from __future__ import annotations

import pytest

from analyses import lab


@pytest.mark.parametrize("game, players", [("counting-zzzzs", 3), ("pleasant-dreams", 2)])
def test_open_study_of_a_simulated_folder(tmp_path, game, players):
    folder = tmp_path / "sim"
    lab.simulate(game=game, players=players, games=60, seed=3, out=folder)
    study = lab.open_study(folder)
    assert study.seats.height == players
    # every game hands out one win in all (a tie shares it): the seats' wins add up to the games played
    assert study.seats["wins"].sum() == pytest.approx(60)
    assert study.seats["games"].to_list() == [60] * players
