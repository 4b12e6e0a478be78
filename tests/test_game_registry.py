"""The lab's game registry: games are found from above, through the ``dreamscape.games`` entry points.

A designer's game in a package of their own is found once it is installed, without
editing the lab: here a made-up installed distribution (a ``.dist-info`` folder with
its ``entry_points.txt`` on ``sys.path``, as pip leaves it) declares a game whose wing
reuses Counting Zzzzs' engine under another name.
"""
from __future__ import annotations

import dataclasses
import importlib

import numpy as np
import pytest

from analyses.games import (LISTING_ORDER, GameWing, LabWing, game_names, get_game, get_wing, register, unregister,
                            wing_of)
from simcore.games import GameError

WING_MODULE = '''
import dataclasses
from analyses.games import LabWing
from simcore.games.counting_zzzzs import GAME
WING = LabWing(game=dataclasses.replace(GAME, name="my-zzzzs", title="My Zzzzs"))
'''


@pytest.fixture
def installed_game(tmp_path, monkeypatch):
    """A distribution ``my-zzzzs-lab`` installed on sys.path, declaring the game ``my-zzzzs``."""
    (tmp_path / "my_zzzzs_lab.py").write_text(WING_MODULE, encoding="utf-8")
    dist = tmp_path / "my_zzzzs_lab-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: my-zzzzs-lab\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[dreamscape.games]\nmy-zzzzs = my_zzzzs_lab:WING\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield "my-zzzzs"
    unregister("my-zzzzs")


def test_a_broken_installed_game_is_one_line(tmp_path, monkeypatch):
    dist = tmp_path / "broken_lab-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-lab\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[dreamscape.games]\nbroken = no_such_module_here:WING\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    assert "broken" in game_names()
    with pytest.raises(GameError) as info:
        get_game("broken")
    assert str(info.value) == ("entry point dreamscape.games broken = no_such_module_here:WING cannot be loaded: "
                               "ModuleNotFoundError: No module named 'no_such_module_here'")


def test_the_lab_lists_its_own_games_in_their_order():
    assert game_names()[:3] == LISTING_ORDER == ("dreamscape", "pleasant-dreams", "counting-zzzzs")


def test_a_designers_installed_game_is_found_and_played(installed_game):
    assert game_names() == LISTING_ORDER + (installed_game,)  # after the lab's own games
    game = get_game(installed_game)
    assert (game.name, game.title) == ("my-zzzzs", "My Zzzzs")
    assert isinstance(get_wing(installed_game), GameWing)
    setup = game.setup(2, "base")
    ours = game.play_games(setup, ["random", "random"], 5, 0, 20, engine="reference")
    theirs = get_game("counting-zzzzs").play_games(setup, ["random", "random"], 5, 0, 20, engine="reference")
    np.testing.assert_array_equal(ours["winners"], theirs["winners"])  # the same engine under another name


def test_a_designers_game_plays_through_the_lab(installed_game):
    from analyses import lab

    frame = lab.simulate(game=installed_game, players=2, games=40, seed=3, strategies=["random"])
    assert frame.height == 2 and abs(float(frame["win_rate"].sum()) - 1.0) < 1e-9  # two seats share every game


def test_unknown_game_names_the_games_in_order():
    with pytest.raises(GameError) as info:
        get_game("chess")
    assert str(info.value) == "unknown game 'chess' (games: dreamscape, pleasant-dreams, counting-zzzzs)"


def test_a_wing_registered_at_run_time_is_found_and_taken_off_again():
    base = get_game("counting-zzzzs")
    wing = register(LabWing(game=dataclasses.replace(base, name="zzz-now", title="Zzz now"), strategy_note="note"))
    try:
        assert "zzz-now" in game_names() and get_wing("zzz-now").strategy_note == "note"
        assert wing_of(get_game("zzz-now")).game.name == "zzz-now" and wing is not None
    finally:
        unregister("zzz-now")
    assert "zzz-now" not in game_names()


def test_a_bare_game_registers_with_the_generic_steps():
    game = dataclasses.replace(get_game("counting-zzzzs"), name="bare-zzz", title="Bare Zzz")
    try:
        wing = register(game)
        assert isinstance(wing, LabWing) and get_game("bare-zzz") is game and wing.prepare_engine is None
    finally:
        unregister("bare-zzz")


def test_a_game_outside_the_registry_gets_the_generic_steps():
    loose = dataclasses.replace(get_game("counting-zzzzs"), name="loose", title="Loose")
    wing = wing_of(loose)
    assert wing.game is loose and wing.prepare_engine is None and wing.simulate_summary is None


def test_the_built_in_wings_carry_their_own_steps():
    """Project Dreamscape's own steps are hooks of its wing; the two other games use the generic ones."""
    ds, pd, cz = (get_wing(n) for n in LISTING_ORDER)
    assert callable(ds.prepare_engine) and callable(ds.simulate_summary) and callable(ds.train)
    assert pd.prepare_engine is None and cz.prepare_engine is None and cz.train is None
    assert pd.strategy_note and "/no-" in pd.strategy_note
    assert all(w.report is not None for w in (ds, pd, cz))  # each found through dreamscape.reports
    assert callable(ds.card_swaps) and callable(ds.fix_seats) and pd.card_swaps is None and cz.fix_seats is None
