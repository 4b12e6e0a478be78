"""The tools (compare, tournament, exploit, restrict, bench) on Pleasant Dreams, through the Game interface only.

Every expected number is worked out here from the game's own ``play_games``
(win credits of the same seeds and game indices) or from what must hold
whatever the games (two players' credits add up to the games played), never
read back from the tool under test. A game without the capability a tool
needs is one GameError naming it.
"""
from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

from analyses.study.model import GameDeal, RunConfig
from analyses.study.studyfile import StudyPlan, run_plan
from analyses.tools import bench
from analyses.tools.bench import cli_command, run_bench
from analyses.tools.compare import compare_variants, comparison_variants
from analyses.tools.exploit import exploit_table
from analyses.tools.restrict import restrict_table
from analyses.tools.tournament import run_tournament
from analyses.games import get_game
from simcore.games import GameError

PD = "pleasant-dreams"


@pytest.fixture(scope="module")
def pd():
    return get_game(PD)


def credits(game, players, variant, seats, games, seed, first=0):
    """Win credit (games, seats) of one seating, straight from the game's interface."""
    setup = game.setup(players, variant)
    return game.seat_wins(game.play_games(setup, list(seats), seed, first, games), setup)


# ----------------------------------------------------------------------------- tournament


def test_pd_tournament_standings_are_the_seatings_win_credits(pd):
    n, seed = 40, 3
    t = run_tournament(["random", "threshold", "search@4"], players=2, games_per_seating=n, seed=seed, game=PD)
    seatings = [("random", "threshold"), ("threshold", "random"), ("random", "search@4"), ("search@4", "random"),
                ("threshold", "search@4"), ("search@4", "threshold")]
    wins = {"random": 0.0, "threshold": 0.0, "search@4": 0.0}
    for seating in seatings:
        w = credits(pd, 2, "base", seating, n, seed)
        for seat, name in enumerate(seating):
            wins[name] += w[:, seat].sum()
    rows = {r["strategy"]: r for r in t.standings.iter_rows(named=True)}
    for name, total in wins.items():
        assert rows[name]["games"] == 4 * n  # two groups, two seatings each
        assert rows[name]["win_rate"] == pytest.approx(total / (4 * n), abs=1e-12)
    # every game of two players has one winner: the credits of all seats add up to the games played
    assert sum(r["win_rate"] * r["games"] for r in rows.values()) == pytest.approx(6 * n)
    payoff = {(r["strategy"], r["opponent"]): r["win_rate"] for r in t.payoff.iter_rows(named=True)}
    assert payoff[("threshold", "random")] + payoff[("random", "threshold")] == pytest.approx(1.0)
    assert np.isnan(rows["random"]["mean_score"])  # Pleasant Dreams reports no scores
    assert t.variant == "base" and t.players == 2


def test_pd_tournament_rejects_a_solo_table_and_an_unknown_bot(pd):
    with pytest.raises(GameError, match="tournament"):
        run_tournament(["random", "threshold"], players=1, games_per_seating=5, game=PD)
    with pytest.raises(pd.errors, match="unknown bot"):
        run_tournament(["random", "nobody"], players=2, games_per_seating=5, game=PD)


# ----------------------------------------------------------------------------- exploit


def test_pd_exploit_search_over_random_gains_clearly_on_the_same_deals(pd):
    n, seed = 60, 4
    df = exploit_table("random", search="search@4", players=[2], variants=["base"], games=n, seed=seed,
                       chunk_size=25, game=PD)
    assert df["seat"].to_list() == [1, 2] and set(df["search"]) == {"search@4"}
    own = credits(pd, 2, "base", ["random", "random"], n, seed)
    for r in df.iter_rows(named=True):
        s = r["seat"] - 1
        seats = ["random", "random"]
        seats[s] = "search@4"
        mine = credits(pd, 2, "base", seats, n, seed)[:, s]
        assert r["search_win"] == pytest.approx(mine.mean(), abs=1e-12)
        assert r["own_win"] == pytest.approx(own[:, s].mean(), abs=1e-12)
        assert r["gain"] == pytest.approx((mine - own[:, s]).mean(), abs=1e-12)
        assert r["gain_low"] > 0.1 and r["significant"]  # searching beats playing at random by far


def test_pd_exploit_default_search_is_the_games_search_over_threshold(pd):
    df = exploit_table("threshold", players=[2], variants=["lucid"], games=10, seed=2, game=PD, playouts=3)
    assert df["search"].to_list() == ["search@3", "search@3"] and set(df["variant"]) == {"lucid"}
    assert df["games"].to_list() == [10, 10]


# ----------------------------------------------------------------------------- restrict


def test_pd_restrict_an_action_the_bot_never_uses_costs_exactly_nothing(pd):
    n, seed = 80, 6
    setup = pd.setup(2, "base")
    used = pd.play_games(setup, ["threshold", "threshold"], seed, 0, n)["used"].sum(axis=(0, 1))
    actions = [r[3:] for r in pd.restrictions(setup)]
    never = [a for a, k in zip(actions, used) if k == 0]
    most = actions[int(np.argmax(used))]
    # the base game deals only its own actions, so the expansion's are never used (found here, not assumed)
    assert never, "the threshold bot uses every action in these games: pick another seed"
    df = restrict_table("threshold", [2], ["base"], [f"no-{never[0]}", f"no-{most}"], games=n, seed=seed, game=PD)
    rows = {r["type"]: r for r in df.iter_rows(named=True)}
    assert set(rows) == {never[0], most} and set(df["restriction"]) == {"no"}
    # the same games to the bit: the restricted seat's wins are the bot's own
    assert rows[never[0]]["loss"] == 0.0 and rows[never[0]]["win"] == rows[never[0]]["base_win"]
    # the action it uses most changes its games: its credits differ from the bot's somewhere
    mine = np.concatenate([credits(pd, 2, "base", ["threshold/no-" + most, "threshold"], n, seed)[:, 0],
                           credits(pd, 2, "base", ["threshold", "threshold/no-" + most], n, seed)[:, 1]])
    own = credits(pd, 2, "base", ["threshold", "threshold"], n, seed)
    assert rows[most]["loss"] == pytest.approx((own.T.reshape(-1) - mine).mean(), abs=1e-12)
    assert not np.array_equal(mine, own.T.reshape(-1))
    assert rows[most]["base_win"] == pytest.approx(0.5)  # one winner per 2-player game: the bot's own rate is 1/2


def test_pd_restrict_every_action_by_default_and_unknown_names_are_one_line(pd):
    df = restrict_table("threshold", [2], games=4, seed=1, game=PD)
    assert sorted(df["type"]) == sorted(r[3:] for r in pd.restrictions(pd.setup(2, "base")))
    assert sorted(df["rank"]) == list(range(1, df.height + 1))  # one block: the actions ranked together
    with pytest.raises(GameError, match="unknown restriction 'no-flying'"):
        restrict_table("threshold", [2], restrictions=["no-flying"], games=4, game=PD)


# ----------------------------------------------------------------------------- compare


@pytest.fixture(scope="module")
def pd_compare_folder(tmp_path_factory):
    """A Pleasant Dreams study: base, lucid and start=1 (the base game spelt otherwise), threshold on both seats."""
    folder = tmp_path_factory.mktemp("pdcompare") / "study"
    configs = [RunConfig(v, 2, ("threshold", "threshold")) for v in ("base", "lucid", "start=1")]
    run_plan(StudyPlan(configs, games=90, seed=8, chunk_size=40, game=GameDeal(PD)), folder, progress=False)
    return folder


def test_pd_compare_base_against_lucid_end_to_end(pd, pd_compare_folder):
    table = compare_variants(pd_compare_folder)
    lucid = {r["metric"]: r for r in table.filter(table["variant"] == "lucid").iter_rows(named=True)}
    assert set(lucid) == {"seat_spread", "first_seat_win", "game_length"}  # no scores: no winning score
    base_w, lucid_w = credits(pd, 2, "base", ["threshold"] * 2, 90, 8), credits(pd, 2, "lucid", ["threshold"] * 2, 90, 8)
    r = lucid["first_seat_win"]
    assert (r["baseline_value"], r["variant_value"]) == pytest.approx((base_w[:, 0].mean(), lucid_w[:, 0].mean()))
    assert r["diff"] == pytest.approx((lucid_w[:, 0] - base_w[:, 0]).mean(), abs=1e-12)
    assert r["paired"] and r["games"] == 90
    setup_b, setup_l = pd.setup(2, "base"), pd.setup(2, "lucid")
    turns_b = pd.play_games(setup_b, ["threshold"] * 2, 8, 0, 90)["turns"].astype(float)
    turns_l = pd.play_games(setup_l, ["threshold"] * 2, 8, 0, 90)["turns"].astype(float)
    assert lucid["game_length"]["diff"] == pytest.approx((turns_l - turns_b).mean(), abs=1e-12)


def test_pd_compare_a_base_equivalent_variant_differs_by_exactly_nothing(pd_compare_folder):
    table = compare_variants(pd_compare_folder)
    same = table.filter(table["variant"] == "start=1")
    assert same.height == 3 and set(same["baseline"]) == {"base"}
    assert same["diff"].to_list() == [0.0, 0.0, 0.0] and not any(same["significant"])
    # the baseline can be named in any spelling the game reads
    assert compare_variants(pd_compare_folder, baseline="lucid")["baseline"].unique().to_list() == ["lucid"]


def test_comparison_variants_come_from_the_game_when_not_given(pd):
    assert comparison_variants(PD, 2) == ["base", "lucid"]
    assert comparison_variants(PD, 2, ["start=1", "lucid"], baseline="lucid") == ["lucid", "base"]
    with pytest.raises(GameError, match="two different variants"):
        comparison_variants(PD, 2, ["base", "start=1"])


# ----------------------------------------------------------------------------- bench


def test_pd_bench_times_every_bot_on_both_engines(pd):
    report = run_bench(game=PD, quick=True, fast_games=20, reference_games=2, strategies=("random", "threshold"))
    got = [(r["engine"], r["players"], r["variant"], r["strategy"]) for r in report["rows"]]
    want = [(e, p, v, s) for p in (1, 2) for v in ("base", "lucid") for s in ("random", "threshold")
            for e in ("fast", "reference")]
    assert got == want  # no strategy-hook or rollout rows: those time Project Dreamscape's engine
    assert all(r["games_per_s"] > 0 for r in report["rows"]) and report["cold_start_s"] is None


def test_bench_starts_the_console_script_not_an_import_of_cli():
    command = cli_command()
    assert command[0].endswith("dreamscape") or command[1:] == ["-m", "cli"]
    assert "import cli" not in inspect.getsource(bench)
    assert bench.small_run_args(PD)[:3] == ("simulate", "--game", PD)
    assert bench.start_args("dreamscape") == ["simulate", "--game", "dreamscape", "--games", "1000", "--json"]


def test_bench_defaults_are_the_games_own():
    """Project Dreamscape keeps the rows it always timed; Pleasant Dreams gets its seat counts, variants and bots."""
    ds = get_game("dreamscape")
    assert bench.default_variants(ds, 3) == ("base", "sleep-token+shifting-tokens")
    assert ds.reference_strategies(ds.setup(3, "base")) == ("greedy", "random")
    assert ds.seat_counts == (1, 2, 3, 4)
    assert bench.default_variants(get_game(PD), 2) == ("base", "lucid")


# ----------------------------------------------------------------------------- missing capabilities


def test_a_game_without_a_capability_is_one_game_error_naming_it(pd):
    bare = dataclasses.replace(pd, search=None, restrictions=None, restrict=None, variants=None)
    with pytest.raises(GameError, match="no search player, which `dreamscape exploit`"):
        exploit_table("threshold", players=[2], games=2, game=bare)
    with pytest.raises(GameError, match="restricted play .*`dreamscape restrict`"):
        restrict_table("threshold", [2], games=2, game=bare)
    with pytest.raises(GameError, match="rules variants to compare, which `dreamscape compare`"):
        comparison_variants(bare, 2)
    # given its variants, compare needs no declared ones
    assert comparison_variants(bare, 2, ["base", "lucid"]) == ["base", "lucid"]


def test_pd_tournament_from_a_study_folder_equals_the_one_played_in_memory(tmp_path):
    from itertools import permutations

    from analyses.tools.tournament import tournament_from_study

    names = ["random", "threshold", "search@2"]
    configs = [RunConfig("base", 2, s) for a, b in [(0, 1), (0, 2), (1, 2)] for s in permutations((names[a], names[b]))]
    run_plan(StudyPlan(configs, games=30, seed=9, chunk_size=16, game=GameDeal(PD)), tmp_path / "t", progress=False)
    memory = run_tournament(names, players=2, games_per_seating=30, seed=9, game=PD)
    study = tournament_from_study(tmp_path / "t")
    assert study.standings.drop("mean_score").equals(memory.standings.drop("mean_score"))
    assert study.standings["mean_score"].is_nan().all() and memory.standings["mean_score"].is_nan().all()
    assert study.payoff.sort(["strategy", "opponent"]).equals(memory.payoff.sort(["strategy", "opponent"]))


def test_pd_tool_numbers_do_not_depend_on_the_chunk_size():
    """Game g plays from (seed, g) whatever the chunking: 7-game chunks give the tables of one 30-game chunk."""
    a = exploit_table("threshold", players=[2], variants=["base"], games=30, seed=12, chunk_size=7, game=PD, playouts=2)
    b = exploit_table("threshold", players=[2], variants=["base"], games=30, seed=12, chunk_size=30, game=PD, playouts=2)
    assert a.equals(b)
    a = restrict_table("threshold", [2], ["lucid"], ["no-deep-sleep"], games=30, seed=12, chunk_size=7, game=PD)
    b = restrict_table("threshold", [2], ["lucid"], ["no-deep-sleep"], games=30, seed=12, chunk_size=30, game=PD)
    assert a.equals(b)
    c = restrict_table("threshold", [2], ["lucid"], ["no-deep-sleep"], games=30, seed=13, chunk_size=30, game=PD)
    assert not a.equals(c)  # another seed deals other games
