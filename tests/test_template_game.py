"""The template game (templates/goofspiel), without installing it: both engines, its scenarios, games
scored by hand from its rules (G1..G7 of its interpretations.md), determinism, and the lab's game
contract (tests/test_games_contract.py) applied to its Game object.

The package is imported from its folder (added to sys.path here), as a designer's checkout would be
before `pip install -e templates/goofspiel`; the tests that need the lab's registry register it for the test.
"""
from __future__ import annotations

import inspect
import json
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

TEMPLATE = Path(__file__).resolve().parents[1] / "templates" / "goofspiel"
if str(TEMPLATE) not in sys.path:
    sys.path.insert(0, str(TEMPLATE))

import goofspiel  # noqa: E402
from goofspiel import GAME, GoofspielError, fast, reference  # noqa: E402
from goofspiel.wing import WING  # noqa: E402
from goofspiel.bots import parse_bot  # noqa: E402

import test_games_contract as contract  # noqa: E402  (the lab's contract, applied to GAME below)

SEED = 5


def same(a: dict, b: dict) -> None:
    assert set(a) == set(b)
    for key in a:
        assert a[key].dtype == b[key].dtype, key
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def reference_trace(setup, specs, seed, game_index) -> np.ndarray:
    trace: list = []
    reference.play_one(setup, [parse_bot(s) for s in specs], seed, game_index, trace=trace)
    return np.array(trace, dtype=np.int64).reshape(-1, fast.TR_WIDTH)


# ------------------------------------------------------------------ the two engines, decision by decision


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant, bots, games", [
    ("base", ("random",), 300),
    ("carry", ("match",), 300),
    ("carry+cards=6", ("match", "random"), 300),
    ("base", ("search@2", "match"), 8),
])
def test_engines_agree_bid_by_bid(players, variant, bots, games):
    """Every bid of every game (round, seat, cards held, bid) is the same on both engines (G7.2)."""
    setup = goofspiel.parse_setup(players, variant)
    specs = [bots[s % len(bots)] for s in range(players)]
    parsed = [parse_bot(s) for s in specs]
    for g in range(games):
        ref = reference_trace(setup, specs, SEED, g)
        assert ref.shape == (setup.n_cards * players, fast.TR_WIDTH)
        np.testing.assert_array_equal(fast.trace_game(setup, parsed, SEED, g), ref, err_msg=f"game {g}")
    same(goofspiel.play_games(setup, specs, SEED, 0, games, engine="reference"),
         goofspiel.play_games(setup, specs, SEED, 0, games, engine="fast"))


def test_engines_agree_on_a_designers_suit(tmp_path):
    suit = tmp_path / "suit.toml"
    suit.write_text("values = [2, 3, 5, 8, 13, 21]\n", encoding="utf-8")
    setup = goofspiel.parse_setup(3, "carry", goofspiel.load_cards(suit))
    specs = ["random", "match", "search@2"]
    same(goofspiel.play_games(setup, specs, 9, 0, 20, engine="reference"),
         goofspiel.play_games(setup, specs, 9, 0, 20, engine="fast"))


# ------------------------------------------------------------------------------------- scenarios


SCENARIOS = sorted(goofspiel.SCENARIOS_DIR.glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_scenarios_pass_on_both_engines(path, engine):
    data = json.loads(path.read_text("utf-8"))
    assert data["rules"] and all(r.startswith("G") for r in data["rules"])   # every scenario cites its rules
    assert goofspiel.check_scenario(path, engine) is None


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_wrong_expectation_fails_the_scenario(tmp_path, engine):
    data = json.loads((goofspiel.SCENARIOS_DIR / "01-highest-single-bid.json").read_text("utf-8"))
    data["expect"]["scores"] = [0, 5, 0]                 # the matched 4s taking the prize: wrong (G4.1)
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert goofspiel.check_scenario(path, engine) == "scores: expected [0, 5, 0], got [0, 0, 5]"
    data["choices"][2] = {"seat": 2, "bid": 4, "illegal": True}   # seat 3 may bid its 4: accepted
    path.write_text(json.dumps(data), encoding="utf-8")
    assert goofspiel.check_scenario(path, engine) == "seat 2 bid 4 was accepted but is marked illegal"


# ------------------------------------------------------------------------- games scored by hand


def scripted(setup_fields: dict, bids: list[tuple[int, int]], engine: str, suit: Path | None = None) -> dict:
    """Play a scripted game through the scenario driver and return its final snapshot."""
    from goofspiel import scenario

    data = {"setup": dict(setup_fields, **({"cards": str(suit)} if suit else {})),
            "choices": [{"seat": s, "bid": b} for s, b in bids]}
    return scenario.run_reference(data) if engine == "reference" else scenario.run_fast(data)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_three_card_game_scored_by_hand(engine):
    # 2 players, cards 1-3, prizes in the order 2, 3, 1.
    # Round 1, prize 2: bids 1 and 3 -> seat 2 takes 2 (G4.1).            scores 0-2
    # Round 2, prize 3: bids 2 and 1 -> seat 1 takes 3.                   scores 3-2
    # Round 3, prize 1: one card each (3 and 2), no asking (G3.4) -> seat 1 takes 1.  scores 4-2
    end = scripted({"players": 2, "variant": "cards=3", "prizes": [2, 3, 1]}, [(0, 1), (1, 3), (0, 2), (1, 1)],
                   engine)
    assert end["game_over"] and end["scores"] == [4, 2] and end["winners"] == [0] and end["discarded"] == 0


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_three_player_game_on_a_designers_suit_scored_by_hand(engine, tmp_path):
    suit = tmp_path / "suit.toml"
    suit.write_text("name = 'odd suit'\nvalues = [9, 2, 5]\n", encoding="utf-8")   # G1.1: read lowest first
    # Prizes 9, 2, 5. Round 1: bids 9, 9, 5 -> the 9s match, seat 3's 5 is the highest single bid: +9.
    # Round 2 (hands 2,5 / 2,5 / 2,9): bids 5, 2, 2 -> seat 1 takes 2.
    # Round 3: last cards 2, 5, 9 played without asking -> seat 3 takes 5.   Scores 2, 0, 14.
    end = scripted({"players": 3, "prizes": [9, 2, 5]}, [(0, 9), (1, 9), (2, 5), (0, 5), (1, 2), (2, 2)], engine, suit)
    assert end["scores"] == [2, 0, 14] and end["winners"] == [2] and end["hands"] == [[], [], []]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_carry_against_discard_in_the_same_bids(engine):
    # 2 players, cards 1-3, prizes 3, 1, 2, bids (3, 3) (1, 2) then (2, 1) by force.
    # Base: the 3 is discarded; seat 2 takes 1, seat 1 takes 2 -> 2-1, seat 1 wins, 3 discarded (G4.2).
    # Carry: the 3 waits; seat 2 takes 3 + 1 = 4, seat 1 takes 2 -> 2-4, seat 2 wins (G4.3).
    bids = [(0, 3), (1, 3), (0, 1), (1, 2)]
    base = scripted({"players": 2, "variant": "cards=3", "prizes": [3, 1, 2]}, bids, engine)
    carry = scripted({"players": 2, "variant": "carry+cards=3", "prizes": [3, 1, 2]}, bids, engine)
    assert (base["scores"], base["winners"], base["discarded"]) == ([2, 1], [0], 3)
    assert (carry["scores"], carry["winners"], carry["discarded"]) == ([2, 4], [1], 0)


@pytest.mark.parametrize("players, variant", [(2, "base"), (3, "carry"), (4, "cards=5")])
def test_every_prize_is_scored_or_discarded(players, variant):
    """G4, G5.1: the scores and the discarded prizes add up to the prize suit; G5.2: the winners hold the top score."""
    setup = goofspiel.parse_setup(players, variant)
    r = goofspiel.play_games(setup, ["random"] * players, 3, 0, 500)
    total = sum(setup.values)
    np.testing.assert_array_equal(r["score"].sum(axis=1) + r["discarded"], total)
    np.testing.assert_array_equal(r["winners"], r["score"] == r["score"].max(axis=1, keepdims=True))
    assert (r["turns"] == setup.n_cards).all()
    if players == 2 and variant == "base":
        # 2 players: a prize is discarded exactly when both bid the same card (G4.2); random bids tie in
        # some games (a round ties with chance 1 / cards left) and in others never
        assert (r["discarded"] == 0).any() and (r["discarded"] > 0).any()
    credit = GAME.seat_wins(r, setup)
    np.testing.assert_allclose(credit.sum(axis=1), 1.0)          # shared wins split one win (G5.2)


def test_match_bids_near_the_stake():
    # G7.1: stake 5, so the target is 4, 5 or 6. Holding 1, 4, 9 the nearest card is 4 for every target.
    from simcore.rng import GameRng

    rng = GameRng(1, 1)
    assert {reference.match_bid([1, 4, 9], 5, rng) for _ in range(60)} == {4}
    picks = {reference.match_bid([3, 7], 5, rng) for _ in range(60)}
    assert picks == {3, 7}          # targets 4 (3 nearer), 5 (tie: the lower, 3) and 6 (7 nearer)


# ------------------------------------------------------------------------------ determinism, chunks


@pytest.mark.parametrize("players, variant, bots", [(3, "carry", ("match", "random")), (4, "base", ("random",)),
                                                    (2, "cards=7", ("search@3", "match"))])
def test_same_seed_same_games_whatever_the_chunks(players, variant, bots):
    setup = goofspiel.parse_setup(players, variant)
    specs = [bots[s % len(bots)] for s in range(players)]
    whole = goofspiel.play_games(setup, specs, 21, 10, 40)
    same(whole, goofspiel.play_games(setup, specs, 21, 10, 40))
    parts = [goofspiel.play_games(setup, specs, 21, first, n, engine=engine)
             for (first, n), engine in zip(((10, 13), (23, 1), (24, 26)), ("fast", "reference", "fast"))]
    same(whole, {k: np.concatenate([p[k] for p in parts]) for k in whole})
    other = goofspiel.play_games(setup, specs, 22, 10, 40)
    assert not np.array_equal(whole["score"], other["score"])


# ------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("call, words", [
    (lambda: goofspiel.parse_setup(5), "players must be 2, 3 or 4, not 5"),
    (lambda: goofspiel.parse_setup(2, "cards=2"), "cards must be 3 to 13"),
    (lambda: goofspiel.parse_setup(2, "carry+carry"), "carry given twice"),
    (lambda: goofspiel.parse_setup(2, "sudden-death"), "unknown part 'sudden-death'"),
    (lambda: goofspiel.check_strategy("search@0", goofspiel.parse_setup(2)), "K in search@K must be 1 to 10000"),
    (lambda: goofspiel.check_strategy("match/no-bids", goofspiel.parse_setup(2)), "restriction 'no-bids'"),
    (lambda: goofspiel.play_games(goofspiel.parse_setup(2), ["match"], 1, 0, 1), "need 2 strategies"),
    (lambda: goofspiel.search_strategy("random", 4), "playouts with match"),
])
def test_bad_input_is_one_line(call, words):
    with pytest.raises(GoofspielError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("text, words", [
    ("values = [1, 2]\n", "values must be a list of 3 to 16 numbers"),
    ("values = [1, 2, 2, 4]\n", "values must be distinct"),
    ("values = [1, 2, 0]\n", "whole numbers from 1 to 99, not 0"),
    ("values = [1, 2, 3]\ncolour = 'red'\n", "unknown key 'colour'"),
])
def test_bad_suit_files_are_one_line(tmp_path, text, words):
    path = tmp_path / "suit.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(GoofspielError) as info:
        goofspiel.load_cards(path)
    assert words in str(info.value) and str(path) in str(info.value)


def test_narration_tells_the_rounds():
    lines = goofspiel.narrate(goofspiel.parse_setup(3, "cards=4"), ["match", "random", "search@2"], 2, 7)
    assert lines[1:4] == ["seat 1 plays match", "seat 2 plays random", "seat 3 plays search@2"]
    assert sum(line.startswith("round ") for line in lines) == 4
    assert "win" in lines[-1]


# ---------------------------------------------------------------------------- the lab's contract


CONTRACT_CHECKS = [name for name, f in vars(contract).items()
                   if name.startswith("test_") and inspect.isfunction(f) and "game" in inspect.signature(f).parameters]


@pytest.fixture
def registered():
    """The template in the lab's registry for one test (analyses.games.register), as its entry point would."""
    from analyses.games import register, unregister

    register(WING)
    yield GAME
    unregister(GAME.name)


@pytest.mark.parametrize("check", CONTRACT_CHECKS)
def test_template_passes_the_game_contract(check, registered, tmp_path):
    # The contract's identity check reads the registry's names: the template is registered for the test.
    f = getattr(contract, check)
    kwargs = {"game": GAME, "tmp_path": tmp_path}
    f(**{k: v for k, v in kwargs.items() if k in inspect.signature(f).parameters})


def test_contract_checks_were_found():
    assert {"test_both_engines_play_the_same_games", "test_scenarios_pass_on_both_engines",
            "test_results_do_not_depend_on_how_games_are_cut"} <= set(CONTRACT_CHECKS)


# -------------------------------------------------------------------- the package as a designer ships it


def test_pyproject_declares_the_entry_points():
    meta = tomllib.loads((TEMPLATE / "pyproject.toml").read_text("utf-8"))
    points = meta["project"]["entry-points"]
    module, _, attr = points["dreamscape.games"]["goofspiel"].partition(":")
    assert getattr(sys.modules[module], attr) is WING and WING.game is GAME  # its lab wing, with its hooks
    assert "dreamscape.reports" in points
    assert meta["tool"]["setuptools"]["packages"] == ["goofspiel"]


def test_study_files_read_as_the_lab_reads_them(registered):
    from analyses.study.studyfile import load_study_file

    for kind, path in GAME.study_plans.items():
        plan = load_study_file(path)
        assert plan.configs, kind


def test_the_lab_plays_the_template_through_its_game_object(registered):
    """simulate, tournament, exploit and conformance of the lab, on Goofspiel registered for this test
    (analyses.games.register, as its entry point does once installed); `compare`, the study report and
    the commands as processes: tests/test_add_a_game.py.
    """
    from analyses import lab

    sim = lab.simulate_summary("goofspiel", players=3, games=600, seed=1)
    assert sim["title"] == "Goofspiel" and sim["strategies"] == ["match"] * 3 and sim["games"] == 600
    assert abs(sum(seat["win_rate"] for seat in sim["seats"]) - 1) < 1e-9      # shared wins split one win (G5.2)
    assert all(seat["win_ci"][0] < seat["win_rate"] < seat["win_ci"][1] for seat in sim["seats"])
    checked = lab.conformance("goofspiel")
    assert len(checked["scenarios"]) == len(SCENARIOS) and all(s["passed"] for s in checked["scenarios"])
    table = lab.tournament_data("goofspiel", strategies=["random", "match"], players=2, games=100)
    assert {row["strategy"] for row in table["standings"]} == {"random", "match"}
    found = lab.exploit("goofspiel", players=[2], games=20, playouts=[2])
    assert found["strategy"] == "match" and found["search"] == "search@2" and found["rows"]


def test_the_quick_study_plays_into_a_study_folder(registered, tmp_path):
    """The lab's study runner plays study_quick.toml into a checked study folder, game g of each
    configuration being play_games' game g (seed 1). The report waits for the report framework."""
    import polars as pl

    from analyses.lab.common import run_study_plan
    from analyses.study.folder import check_study
    from analyses.study.studyfile import load_study_file

    folder = tmp_path / "quick"
    run_study_plan(GAME, load_study_file(GAME.study_plans["quick"]), folder, command="test")
    manifest = check_study(folder)
    # the file: 3 seat counts x 2 rules x 2 bots at 2,000 games each, then search@8 against match at 200
    assert len(manifest.configs) == 13 and sum(manifest.target_games.values()) == 12 * 2000 + 200
    assert manifest.meta["game"] == "goofspiel"
    rows = pl.concat([pl.read_parquet(p) for p in sorted((folder / "chunks" / "carry__3p__match").glob("games-*"))])
    rows = rows.sort(["game", "seat"])
    direct = goofspiel.play_games(goofspiel.parse_setup(3, "carry"), ["match"] * 3, 1, 0, 2000)
    np.testing.assert_array_equal(rows["score"].to_numpy().reshape(2000, 3), direct["score"])
    np.testing.assert_array_equal(rows["winners"].to_numpy().reshape(2000, 3), direct["winners"])
