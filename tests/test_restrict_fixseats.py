"""Restricted play (``dreamscape restrict``) and the seat-compensation search (``dreamscape fix-seats``)."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from analyses.games.dreamscape.fixseats import change_size, knob_tokens, load_fixes, spread_interval, with_knobs
from analyses.study.model import RunConfig
from analyses.tools.restrict import load_restrict, rank_and_flag, restrict_data, restrict_table, save_restrict
from analyses.study.folder import Study
from cli import app
from cli_checks import assert_one_line_error
from reports import build_report
from reports.games.dreamscape.data import collect
from reports.games.dreamscape.findings import make_findings
from simcore.games.dreamscape.cards import CODES, DreamType
from simcore.games.dreamscape.decks import build_deck, deck_from_swap_texts
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.fast.bridge import decode_trace, play_traced
from simcore.games.dreamscape.reference import Game
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import Options
from simcore.games.dreamscape.bots.restricted import restricted

runner = CliRunner()
DECK = build_deck()


def run(*args: str):
    return runner.invoke(app, list(args))


# ----------------------------------------------------------------------------- the restricted bot


@pytest.mark.parametrize("what", ["buy", "perform"])
def test_a_restriction_that_never_binds_plays_the_bots_own_games(what):
    # Invasive Dreaming is not in the base deck: the wrapper never subtracts,
    # and its score is the engine's linear sum, so every pick and tie is the same.
    name = restricted("linear", DreamType.INVASIVE_DREAMING, what)
    cfg = SimConfig(3, Options(), DECK)
    a = simulate(cfg, 40, 3, [name, "linear", "linear"])
    b = simulate(cfg, 40, 3, "linear")
    assert np.array_equal(a.score, b.score) and np.array_equal(a.length, b.length)


def test_never_perform_never_chooses_the_type():
    name = restricted("linear", DreamType.FLOATING_FREE, "perform")
    chosen, others = [], []
    for game in range(6):
        st, meta, opts = play_traced(DECK, 3, Options(), 4, game, [name, "linear", "linear"])
        for kind, seat, choices, choice in decode_trace(meta, opts):
            if kind == "perform":
                (chosen if seat == 0 else others).append(choice)
    assert chosen and "FF" not in chosen  # a card's other type is always there (R1.2)
    assert "FF" in others  # the unrestricted seats do perform it


def test_never_buy_buys_a_card_showing_the_type_only_when_forced():
    t = DreamType.LUCID_DREAMING
    name = restricted("linear", t, "buy")
    forced = free = 0
    for game in range(6):
        st, meta, opts = play_traced(DECK, 3, Options(), 8, game, [name, "linear", "linear"])
        g = Game.new(DECK, 3, GameRng(8, game), Options())
        for kind, seat, choices, choice in decode_trace(meta, opts):
            if kind == "buy" and seat == 0:
                s = g.state

                def shows(c) -> bool:
                    if c == "stop":
                        return False
                    if "position" in c:
                        p = c["position"]
                        return not s.face_down[p - 1] and t in s.cards[s.dreamscape[p - 1]]
                    return t in s.cards[s.seats[0].reserved[c["reserved"]]]

                if shows(choice):
                    assert all(shows(c) for c in choices)  # R11: every option forbidden, no "stop" (R5.2)
                    forced += 1
                else:
                    free += 1
            g.apply(choice)
    assert free > 0 and g.over


def test_rank_and_flag_by_hand():
    def row(loss, low, high):
        return {"loss": loss, "loss_low": low, "loss_high": high}

    out = rank_and_flag([row(0.05, 0.01, 0.09), row(0.30, 0.2, 0.4), row(0.0, -0.03, 0.03), row(0.12, 0.05, 0.19)])
    assert [r["loss"] for r in out] == [0.30, 0.12, 0.05, 0.0]
    assert [r["rank"] for r in out] == [1, 2, 3, 4]
    assert [r["flag"] for r in out] == ["dominant", "", "", "irrelevant"]  # 0.30 >= 2 x 0.12
    close = rank_and_flag([row(0.30, 0.2, 0.4), row(0.20, 0.1, 0.3)])
    assert [r["flag"] for r in close] == ["", ""]  # 0.30 < 2 x 0.20: no type dwarfs the others


@pytest.fixture(scope="module")
def small_table():
    return restrict_table("linear", [2], ["CD:ID+RD:ED+SD:PS"], ["perform"], games=40, seed=2, chunk_size=20)


def test_the_loss_is_the_bots_win_rate_minus_the_restricted_one_on_the_same_deals(small_table):
    deck = deck_from_swap_texts(["CD:ID", "RD:ED", "SD:PS"])
    assert sorted(small_table["type"].to_list()) == sorted(CODES[t] for t in deck.types_in_play)
    assert {"ID", "ED", "PS"} <= set(small_table["type"].to_list())  # the expansion types are measured too
    r = small_table.filter(small_table["type"] == "FF").row(0, named=True)
    cfg = SimConfig(2, Options(), deck)
    name = restricted("linear", DreamType.FLOATING_FREE, "perform")
    base = simulate(cfg, 40, 2, "linear").win
    mine = [simulate(cfg, 40, 2, [name if s == seat else "linear" for s in range(2)]).win[:, seat] for seat in range(2)]
    assert r["base_win"] == pytest.approx(base.mean())
    assert r["win"] == pytest.approx(np.concatenate(mine).mean())
    assert r["loss"] == pytest.approx(base.mean() - np.concatenate(mine).mean())
    assert r["loss_low"] <= r["loss"] <= r["loss_high"]


def test_a_study_with_restrict_data_gets_the_page(small_table, tmp_path):
    folder = tmp_path / "study"
    Study(folder, [RunConfig("base", 2, ("greedy",) * 2)], games=200, seed=1).run(progress=False)
    save_restrict(folder, small_table, restrict_data(small_table))
    assert load_restrict(folder).height == small_table.height
    out = build_report(folder)
    assert "Restricted play: which dream types matter?" in out.pages
    found = [f for f in make_findings(collect(folder)) if f.topic == "restrict"]
    top = small_table.sort("loss", descending=True).row(0, named=True)
    assert len(found) == 1 and top["type_name"] in found[0].text


def test_restrict_command_prints_the_table_and_json():
    res = run("restrict", "-p", "2", "-n", "20", "--restriction", "perform", "--no-progress")
    assert res.exit_code == 0, res.output
    assert "never perform" in res.output and "Floating Free (FF)" in res.output
    res = run("restrict", "-p", "2", "-n", "20", "--restriction", "perform", "--json", "--no-progress")
    data = json.loads(res.output)
    assert len(data["rows"]) == 8 and {r["rank"] for r in data["rows"]} == set(range(1, 9))
    assert data["strategy"] == "expert"  # the strongest fast bot by default (issue 14)


@pytest.mark.parametrize(
    "args, words",
    [
        (["-p", "1"], ["--players 2 to 4"]),
        (["--restriction", "hold"], ["--restriction", "hold"]),
        (["--strategy", "rollout"], ["cannot be restricted"]),
        (["--strategy", "nobody"], ["unknown strategy"]),
        (["--variant", "knob:bonus=11"], ["outside 0..10"]),
        (["-p", "3", "--variant", "knob:start-z=0,1"], ["2 values", "3 seat"]),
        (["-n", "0"], ["--games"]),
    ],
)
def test_restrict_bad_input_is_one_line(args, words):
    assert_one_line_error(run("restrict", *args), *words)


# ----------------------------------------------------------------------------- fix-seats


def test_knob_tokens_and_change_size_by_hand():
    params = {"start_z_0": 0, "start_z_1": 1, "start_z_2": 2, "bonus_1": 0, "bonus_2": 3, "z_penalty": 1,
              "max_buys": 0, "removed": 4}
    assert knob_tokens(params, 3) == ["knob:start-z=0,1,2", "knob:bonus=0,0,3", "knob:remove=4"]
    # moved: start-z seat 1 (1), seat 3 (1), bonus seat 3 (3), remove (4): 4 values, distance 9
    assert change_size(params, 3) == pytest.approx(4 + 0.9)
    rulebook = {"start_z_0": 1, "start_z_1": 1, "bonus_1": 0, "z_penalty": 1, "max_buys": 0, "removed": 0}
    assert knob_tokens(rulebook, 2) == [] and change_size(rulebook, 2) == 0
    assert with_knobs("sleep-token", ["knob:remove=4"]) == "sleep-token+knob:remove=4"


def test_spread_interval_by_hand():
    # two seats at 0.6 / 0.4 over 400 games: var = (0.24 + 0.24 + 2 * 0.24) / 400 = 0.0024
    spread, low, high = spread_interval([0.6, 0.4], 400)
    assert spread == pytest.approx(0.2)
    assert high - spread == pytest.approx(1.959963984540054 * math.sqrt(0.0024))
    assert spread - low == pytest.approx(high - spread)


def test_fix_seats_is_reproducible_and_writes_a_study_with_the_fixes_page(tmp_path):
    args = ["fix-seats", "-p", "2", "--trials", "4", "--games", "60", "--verify", "80", "--candidates", "2",
            "--seed", "3", "--json", "--no-progress"]
    one = run(*args, "--out", str(tmp_path / "a"))
    two = run(*args, "--out", str(tmp_path / "b"))
    assert one.exit_code == 0, one.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert a["tried"] == b["tried"] and a["rows"] == b["rows"]  # seeded: the same search and verification
    assert len(a["tried"]) == 4 and "base" in [r["variant"] for r in a["tried"]]  # the printed game is tried first
    assert a["strategy"] == "expert"  # the default bot
    assert [r["seat"] for r in a["rows"]] == [0, 1] * (len(a["rows"]) // 2)  # JSON: seat indexes (README)
    fixes = load_fixes(tmp_path / "a")
    assert fixes["candidate"].to_list()[:2] == [0, 0] and fixes["variant"][0] == "base"
    base = fixes.filter(fixes["candidate"] == 0)
    assert base["length_change"].to_list() == [0.0, 0.0]
    assert base["win_rate"].sum() == pytest.approx(1.0)  # 2 seats: every game's credit is 1 (R8.3)
    assert set(fixes["strategy"].to_list()) == {"expert"}
    out = build_report(tmp_path / "a")
    assert "Suggested fixes" in out.pages


@pytest.mark.parametrize(
    "args, words",
    [
        (["-p", "1"], ["--players 2 to 4"]),
        (["--variant", "knob:start-z=0,1,1"], ["without knobs"]),
        (["--variant", "XX:YY"], ["XX"]),
        (["--target", "0"], ["--target"]),
        (["--trials", "0"], ["--trials"]),
    ],
)
def test_fix_seats_bad_input_is_one_line(args, words):
    assert_one_line_error(run("fix-seats", *args), *words)


def test_simulate_rejects_a_bad_knob_in_one_line():
    assert_one_line_error(run("simulate", "--variant", "knob:start-z=9", "-n", "10"), "start-z", "0..3")
    assert_one_line_error(run("simulate", "-p", "4", "--variant", "knob:start-z=0,1,1", "-n", "10"), "3 values")

