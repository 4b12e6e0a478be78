"""Pleasant Dreams through the study pipeline: folder sums and analyses against the games played directly.

Every expected number here is worked out from ``play_games`` itself (win
counts, turns, paired differences of the same deals), not read back from the
study, so a wrong sum, a lost chunk or a mispaired game fails.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from analyses.study.studyfile import load_study_file, restricted_seatings
from analyses.study.model import StudyError
from analyses.games.pleasant_dreams import pd_summary
from analyses.study.folder import load_manifest, seat_totals
from analyses.study.studyfile import run_plan
from analyses.games import get_game

GAMES = 60
PLAN = """
game = "pleasant-dreams"
name = "test study"
seed = 5
games = {games}
chunk_size = {chunk}

[[configs]]
players = 2
variants = ["base", "lucid"]
strategy = "threshold"

[[configs]]
players = 2
variants = ["base"]
restrict = "threshold"
actions = ["barrier"]

[[configs]]
players = 1
variants = ["start=4+actions=0", "start=4+actions=2"]
strategy = "threshold"
"""


@pytest.fixture(scope="module")
def pd():
    return get_game("pleasant-dreams")


def write_plan(tmp_path, games=GAMES, chunk=25, name="plan.toml"):
    path = tmp_path / name
    path.write_text(PLAN.format(games=games, chunk=chunk), encoding="utf-8")
    return path


def run_study(tmp_path, folder="study", **kw):
    plan = load_study_file(write_plan(tmp_path, **kw))
    run_plan(plan, tmp_path / folder, progress=False)
    return tmp_path / folder


def play(pd, players, variant, bots, n=GAMES, seed=5):
    setup = pd.setup(players, variant)
    return pd.play_games(setup, bots, seed, 0, n)


def test_restricted_seatings_put_the_restriction_on_each_seat_in_turn():
    from analyses.games import get_game

    pd = get_game("pleasant-dreams")
    setup = pd.setup(2, "base")
    assert restricted_seatings(pd, "threshold", ["mirror"], 2, setup) == [
        ("threshold", "threshold"), ("threshold/no-mirror", "threshold"), ("threshold", "threshold/no-mirror")]
    # no actions named: every restriction the game declares, in its order, each on every seat in turn
    every = restricted_seatings(pd, "threshold", None, 2, setup)
    assert len(every) == 1 + 2 * len(pd.restrictions(setup))
    assert every[1:3] == [(f"threshold/{pd.restrictions(setup)[0]}", "threshold"),
                          ("threshold", f"threshold/{pd.restrictions(setup)[0]}")]


def test_plan_reads_configurations_and_game(tmp_path):
    plan = load_study_file(write_plan(tmp_path))
    assert plan.game.game == "pleasant-dreams" and plan.game.cards is None
    assert [(c.variant, c.players, c.strategies) for c in plan.configs] == [
        ("base", 2, ("threshold", "threshold")), ("lucid", 2, ("threshold", "threshold")),
        ("base", 2, ("threshold/no-barrier", "threshold")), ("base", 2, ("threshold", "threshold/no-barrier")),
        ("start=4+actions=0", 1, ("threshold",)), ("start=4+actions=2", 1, ("threshold",))]


def test_folder_sums_equal_the_games_played_directly(pd, tmp_path):
    folder = run_study(tmp_path)
    m = load_manifest(folder)
    assert m.meta["game"] == "pleasant-dreams"
    totals = seat_totals(folder)
    direct = play(pd, 2, "lucid", ["threshold", "threshold"])
    rows = totals.filter(totals["variant"] == "lucid").sort("seat")
    assert rows["n"].to_list() == [GAMES, GAMES]
    assert rows["sum_win"].to_list() == [float((direct["winner"] == s).sum()) for s in (0, 1)]
    assert rows["sum_turns"].to_list() == [float(direct["turns"].sum())] * 2
    assert rows["sum_wake"].to_list() == [float(direct["wake"][:, s].sum()) for s in (0, 1)]
    assert rows["sum_dealt_3"].to_list() == [float(direct["dealt"][:, s, 3].sum()) for s in (0, 1)]


def test_analyses_equal_hand_computed_rates(pd, tmp_path):
    folder = run_study(tmp_path)
    s = pd_summary(folder)
    base = play(pd, 2, "base", ["threshold", "threshold"])
    first = {r["variant"]: r for r in s["first_player"]}
    assert first["base"]["rate"] == pytest.approx((base["winner"] == 0).mean())
    assert first["base"]["low"] < first["base"]["rate"] < first["base"]["high"]
    # restricted play: the same deals with and without barrier, seat 1 then seat 2 restricted, pooled
    r0 = play(pd, 2, "base", ["threshold/no-barrier", "threshold"])
    r1 = play(pd, 2, "base", ["threshold", "threshold/no-barrier"])
    with_card = np.concatenate([base["winner"] == 0, base["winner"] == 1]).astype(float)
    without = np.concatenate([r0["winner"] == 0, r1["winner"] == 1]).astype(float)
    (value,) = s["action_value"]
    assert value["action"] == "barrier" and value["games"] == 2 * GAMES
    assert value["value"] == pytest.approx(with_card.mean() - without.mean())
    assert value["with"] == pytest.approx(with_card.mean()) and value["without"] == pytest.approx(without.mean())
    # expansion: seat 1's rate in lucid minus base, paired on the game index
    lucid = play(pd, 2, "lucid", ["threshold", "threshold"])
    (exp,) = s["expansion"]
    assert exp["change"] == pytest.approx((lucid["winner"] == 0).mean() - (base["winner"] == 0).mean())
    assert exp["turns_change"] == pytest.approx(lucid["turns"].mean() - base["turns"].mean())
    # solo challenge: staying asleep = winner 0
    solo = {r["actions"]: r for r in s["solo_challenge"]}
    assert sorted(solo) == [0, 2]
    for n_cards in (0, 2):
        direct = play(pd, 1, f"start=4+actions={n_cards}", ["threshold"])
        assert solo[n_cards]["rate"] == pytest.approx((direct["winner"] == 0).mean())
    # holding (lucid): seats dealt each card against seats not dealt it
    held = {r["action"]: r for r in s["holding"]}
    from simcore.games.pleasant_dreams import ACTION_TYPES

    dealt_mirror = lucid["dealt"][:, :, ACTION_TYPES.index("mirror")].reshape(-1) > 0
    wins = np.stack([lucid["winner"] == 0, lucid["winner"] == 1], axis=1).reshape(-1).astype(float)
    assert held["mirror"]["seats_holding"] == int(dealt_mirror.sum())
    assert held["mirror"]["rate_holding"] == pytest.approx(wins[dealt_mirror].mean())
    assert held["mirror"]["rate_not"] == pytest.approx(wins[~dealt_mirror].mean())


def test_chunk_size_and_resume_do_not_change_the_numbers(tmp_path):
    small = pd_summary(run_study(tmp_path, "a", chunk=7))
    big = pd_summary(run_study(tmp_path, "b", chunk=1000))
    half = tmp_path / "c"
    run_plan(load_study_file(write_plan(tmp_path, games=GAMES // 2, chunk=7, name="half.toml")), half,
             progress=False)
    resumed = pd_summary(run_study(tmp_path, "c", chunk=7))
    for other in (big, resumed):
        for key in ("first_player", "action_value", "expansion", "solo_challenge", "holding"):
            assert other[key] == small[key], key


def test_a_study_of_another_game_or_cards_is_not_resumed(tmp_path):
    folder = run_study(tmp_path, games=10)
    cards = tmp_path / "cards.toml"
    shipped = (get_game("pleasant-dreams").load_cards(None).source)
    cards.write_text(open(shipped, encoding="utf-8").read(), encoding="utf-8")
    plan = load_study_file(write_plan(tmp_path, games=10), cards=cards)
    with pytest.raises(StudyError, match="other cards"):
        run_plan(plan, folder, progress=False)
    dreamscape = load_study_file(write_dreamscape_plan(tmp_path))  # the one reader reads any game's file
    with pytest.raises(StudyError, match="game pleasant-dreams"):
        run_plan(dreamscape, folder, progress=False)


def write_dreamscape_plan(tmp_path):
    path = tmp_path / "ds.toml"
    path.write_text('seed = 5\ngames = 10\n[[configs]]\nplayers = 2\nstrategy = "random"\n', encoding="utf-8")
    return path


def test_bad_study_files_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    for text, words in [
        ('game = "pleasant-dreams"\n[[configs]]\nplayers = 2\nvariants = ["lucid+x"]\n', "lucid+x"),
        ('game = "pleasant-dreams"\n[[configs]]\nplayers = 2\nstrategy = "nobody"\n', "nobody"),
        ('game = "pleasant-dreams"\n[[configs]]\nplayers = 3\n', "3"),
        ('game = "pleasant-dreams"\n[[configs]]\nplayers = 2\nswaps = "all"\n', "swaps"),
        ('game = "pleasant-dreams"\ncards = "missing.toml"\n[[configs]]\nplayers = 2\n', "cards"),
    ]:
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(StudyError) as info:
            load_study_file(bad)
        assert "\n" not in str(info.value) and words in str(info.value), str(info.value)


def test_shipped_plans_load():

    for path in (get_game("pleasant-dreams").study_plans["main"], get_game("pleasant-dreams").study_plans["quick"]):
        plan = load_study_file(path)
        assert plan.game.game == "pleasant-dreams" and plan.meta["solver"]["strategies"]
        assert json.loads(json.dumps(plan.meta))  # the manifest keeps it as JSON


def test_restricted_seatings_of_a_game_without_restricted_play_is_one_line():
    import dataclasses

    from analyses.games import get_game

    pd = get_game("pleasant-dreams")
    bare = dataclasses.replace(pd, restrictions=None, restrict=None)
    with pytest.raises(StudyError, match="has no restricted play"):
        restricted_seatings(bare, "threshold", None, 2, pd.setup(2, "base"))
