"""Every result on a changed game names its bots' training status and their distance from search (issue #41,
items 2 and 4), and #40's output leftovers: simulate --out prints simulate's table, report refuses another
game's folder for its files, compare's time is the play's wall time.

The known answers: the shipped expert tables and strong values (their files, one per player count and rules
option) say where a bot is fitted; a knob or a swap lies outside every fit; the distance is the mean over the
deals of (the search seat's win credit - the bot's own in that seat), played here game by game through the
game's interface.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyses.games import get_game
from analyses.tools.distance import changed, distance_search, search_distance, training_status
from cli import app
from cli_checks import assert_one_line_error

runner = CliRunner()
PD, CZ = "pleasant-dreams", "counting-zzzzs"
SHIPPED = Path(__file__).resolve().parents[1] / "simcore" / "games" / "dreamscape" / "bots" / "data"


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def contents(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


# ----------------------------------------------------------------------------- what a changed game is


def test_a_changed_game_is_any_variant_but_the_baseline_or_a_deck_file(tmp_path):
    ds = get_game("dreamscape")
    assert not changed(ds, ds.setup(3, "base"))
    for variant in ("sleep-token", "FF:ID", "knob:costs=2,2,3,4,5"):
        assert changed(ds, ds.setup(3, variant)), variant
    assert changed(ds, ds.setup(3, "base"), cards=tmp_path / "deck.toml")
    cz = get_game(CZ)  # its baseline is the rulebook's removal, whatever the player count
    assert not changed(cz, cz.setup(2, "base")) and changed(cz, cz.setup(2, "remove=0"))


# ----------------------------------------------------------------------------- training status


@pytest.mark.parametrize("players, variant, bot, kind", [
    (3, "base", "expert", "fitted"),                       # data/expert/3p-base.toml
    (3, "sleep-token", "expert", "fitted"),                # data/expert/3p-sleep-token.toml
    (2, "shifting-tokens", "expert", "fitted"),            # data/expert/2p-shifting-tokens.toml
    (3, "knob:z-penalty=2", "expert", "out-of-distribution"),  # its features count a Z card as the printed 1 point
    (3, "knob:costs=2,2,3,4,5", "expert", "rule-aware"),   # its features read the costs from the state (R2.3)
    (3, "FF:ID", "expert", "out-of-distribution"),         # a swap deck: no table fitted to it
    (3, "sleep-token", "strong", "fitted"),                # data/strong/3p-sleep-token.npz
    (4, "sleep-token+shifting-tokens", "strong", "fitted"),  # data/strong/4p-sleep-token+shifting-tokens.npz
    (3, "PR:ID+NT:ED", "strong", "out-of-distribution"),  # two swaps: the 3p base value, fitted to the printed deck
    (3, "base", "linear", "fitted"),                       # linear_default.toml: tuned 3 players, base
    (3, "sleep-token", "greedy", "rule-aware"),            # hand-written, nothing fitted
    (3, "knob:z-penalty=2", "random", "rule-aware"),
    (3, "knob:z-penalty=2", "search:expert@8:late", "out-of-distribution"),  # a search player: its bot's status
])
def test_dreamscape_training_status(players, variant, bot, kind):
    ds = get_game("dreamscape")
    status = training_status(ds, ds.setup(players, variant), bot)
    assert status.kind == kind, status
    assert status.detail


def test_the_status_cases_read_the_shipped_files():
    """The table above is the shipped data's: a fitted case has its file, an out-of-distribution one has none."""
    assert (SHIPPED / "expert" / "3p-sleep-token.toml").is_file()
    assert (SHIPPED / "strong" / "3p-sleep-token.npz").is_file()
    assert (SHIPPED / "strong" / "4p-sleep-token+shifting-tokens.npz").is_file()
    assert not (SHIPPED / "strong" / "3p-PR:ID+NT:ED.npz").exists()  # nothing is fitted to a two-swap deck


def test_other_games_bots_are_rule_aware_on_their_variants():
    pd, cz = get_game(PD), get_game(CZ)
    for bot in ("random", "threshold", "search@8"):
        assert training_status(pd, pd.setup(2, "lucid+start=3"), bot).kind == "rule-aware"
    for bot in ("random", "greedy", "search@8"):  # its greedy reads the goal and dream sizes from the state
        assert training_status(cz, cz.setup(3, "remove=0+knob:goal=30"), bot).kind == "rule-aware"


# ----------------------------------------------------------------------------- distance from search


def test_the_search_player_of_each_game_comes_from_its_wing_or_its_search():
    ds, pd = get_game("dreamscape"), get_game(PD)
    assert distance_search(ds, ds.setup(3, "sleep-token"), "expert") == "search:expert@8:late"
    assert distance_search(ds, ds.setup(3, "sleep-token"), "search:expert@8") is None
    assert distance_search(pd, pd.setup(2, "lucid"), "threshold") == "search@8"
    assert distance_search(pd, pd.setup(2, "lucid"), "random") is None  # its search plays threshold playouts only


def test_the_distance_is_the_one_seat_gain_on_the_same_deals():
    """Deals 0..n-1 cut in one block per seat; in block s the search player sits in seat s: the gain is the mean
    of its win credit minus the bot's own in that seat on the same deal, computed here from the games."""
    pd = get_game(PD)
    setup = pd.setup(2, "lucid")
    games, seed = 30, 7
    row = search_distance(pd, setup, "threshold", "search@2", games, seed)
    own = pd.seat_wins(pd.play_games(setup, ["threshold", "threshold"], seed, 0, games), setup)
    first = pd.seat_wins(pd.play_games(setup, ["search@2", "threshold"], seed, 0, 15), setup)[:, 0]
    second = pd.seat_wins(pd.play_games(setup, ["threshold", "search@2"], seed, 15, 15), setup)[:, 1]
    diff = np.concatenate([first - own[:15, 0], second - own[15:, 1]])
    assert row["games"] == games
    assert row["gain"] == pytest.approx(diff.mean(), abs=1e-12)
    assert row["gain_low"] < row["gain"] < row["gain_high"] or diff.std() == 0
    again = search_distance(pd, setup, "threshold", "search@2", games, seed)
    assert again == row  # same seed, same numbers


# ----------------------------------------------------------------------------- the command lines


def test_a_base_game_gets_no_note():
    result = run("simulate", "--game", PD, "-n", "40", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "distance from search" not in result.output and "Bots on the changed game" not in result.output


def test_a_knob_changed_game_is_out_of_distribution_for_expert():
    result = run("simulate", "--players", "3", "-n", "200", "--variant", "knob:z-penalty=2", "--no-distance")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    status = next(line for line in lines if line.startswith("expert on 3 players"))
    assert "out of distribution" in status and "z-penalty" in status
    assert "distance from search: skipped (--no-distance)" in result.output


def test_simulate_on_a_changed_game_measures_the_distance():
    args = ["simulate", "--game", PD, "--variant", "lucid", "-n", "60", "--seed", "3", "--no-progress"]
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    (note,) = json.loads(result.stdout)["bot_notes"]
    pd = get_game(PD)
    direct = search_distance(pd, pd.setup(2, "lucid"), "threshold", "search@8", note["games"], 3)
    assert (note["strategy"], note["search"], note["training"]) == ("threshold", "search@8", "rule-aware")
    assert note["gain"] == pytest.approx(direct["gain"], abs=1e-12)
    text = run(*args).output
    assert "threshold on 2 players, lucid" in text and "distance from search: search@8 in one seat gains" in text


def test_tournament_restrict_and_compare_name_their_bots_on_a_changed_game(tmp_path):
    t = run("tournament", "--game", PD, "--variant", "lucid", "--strategy", "threshold", "--strategy", "random",
            "-n", "10", "--no-distance", "--json")
    assert t.exit_code == 0, t.output
    notes = {n["strategy"]: n for n in json.loads(t.stdout)["bot_notes"]}
    assert set(notes) == {"threshold", "random"} and notes["random"]["training"] == "rule-aware"
    r = run("restrict", "--game", CZ, "--strategy", "greedy", "-p", "2", "--variant", "remove=0", "-n", "5",
            "--no-distance", "--json")
    assert r.exit_code == 0, r.output
    assert [(n["variant"], n["training"]) for n in json.loads(r.stdout)["bot_notes"]] == [("remove=0", "rule-aware")]
    c = run("compare", "--game", CZ, "-n", "20", "--no-distance", "--out", tmp_path / "c")
    assert c.exit_code == 0, c.output
    assert "greedy on 3 players, remove=0" in c.output  # the changed side only, not the base game
    assert "greedy on 3 players, base" not in c.output


def test_simulate_out_prints_the_simulate_table_then_the_folder(tmp_path):
    args = ["simulate", "--game", PD, "-n", "60", "--chunk-size", "20", "--seed", "2", "--no-progress"]
    plain = run(*args)
    written = run(*args, "--out", tmp_path / "s")
    assert plain.exit_code == 0 and written.exit_code == 0, written.output
    rows = lambda out: [line for line in out.splitlines()[1:] if line[:1].isdigit()]  # noqa: E731 - the seat rows
    assert rows(written.output) == rows(plain.output) and rows(plain.output)
    assert written.output.splitlines()[0].startswith("Pleasant Dreams: 2 players")
    assert written.output.splitlines()[-1].startswith(f"wrote {tmp_path / 's'}")


def test_report_refuses_a_pdf_or_pngs_into_another_games_folder(tmp_path):
    pd_folder, cz_folder = tmp_path / "pd", tmp_path / "cz"
    assert run("simulate", "--game", PD, "-n", "20", "--out", pd_folder).exit_code == 0
    assert run("simulate", "--game", CZ, "-n", "20", "--out", cz_folder).exit_code == 0
    before = contents(cz_folder)
    assert_one_line_error(run("report", pd_folder, "--pdf", cz_folder / "report.pdf"), str(cz_folder), PD)
    assert_one_line_error(run("report", pd_folder, "--png-dir", cz_folder / "charts"), str(cz_folder), PD)
    assert contents(cz_folder) == before


def test_compare_time_is_the_plays_wall_time(tmp_path):
    """compare's header time is the wall time of its play once the engine is ready: at most the whole call's."""
    import time

    from analyses import lab

    t0 = time.perf_counter()
    data = lab.compared(PD, variants=["base", "lucid"], games=40, distance=False, out=tmp_path / "c", chunk_size=10)
    outer = time.perf_counter() - t0
    assert 0 < data["seconds"] <= outer


def test_a_deck_file_of_ones_own_is_out_of_distribution_for_expert(tmp_path):
    ds = get_game("dreamscape")
    deck = (Path(__file__).resolve().parents[1] / "simcore/games/dreamscape/data/default_deck.toml").read_text()
    more = tmp_path / "more.toml"
    more.write_text(deck.replace('"FF/IS" = 2', '"FF/IS" = 3', 1))  # one more copy of one card
    assert training_status(ds, ds.setup(3, "base", more), "expert").kind == "out-of-distribution"


def test_a_folders_summary_and_report_name_the_bots_status_on_its_changed_games(tmp_path, monkeypatch):
    """base and a Z-penalty knob compared: the knob's configuration is the one changed game, out of distribution
    for expert; the summary's last line says so, and the report's title page carries the same line."""
    out = tmp_path / "cmp"
    result = run("compare", "-p", "2", "-n", "40", "--variant", "base", "--variant", "knob:z-penalty=2",
                 "--no-distance", "--out", out)
    assert result.exit_code == 0, result.output
    last = run("summarize", out).output.splitlines()[-1]
    assert last.startswith("Bots on the changed games: expert out of distribution in 1 configuration ("), last
    import reports.pdf as pdf

    seen = []
    title_page = pdf.title_page
    monkeypatch.setattr(pdf, "title_page", lambda heading, subtitle, facts, *rest: seen.append(dict(facts))
                        or title_page(heading, subtitle, facts, *rest))
    assert run("report", out).exit_code == 0
    assert "Bots on the changed games: " + seen[0]["Bots"] == last


def test_sweep_names_its_bots_on_the_changed_decks_its_table_shows(tmp_path):
    """A sweep of the base deck and one swap: the swap deck (FF:ID, R1.4) is the one changed game; expert has no
    table fitted to a swap deck."""
    result = run("sweep", "--swaps", "FF:ID", "--options", "base", "-p", "2", "-n", "20", "--no-distance",
                 "--out", tmp_path / "sw", "--json")
    assert result.exit_code == 0, result.output
    notes = json.loads(result.stdout)["bot_notes"]
    assert [(n["variant"], n["strategy"], n["training"]) for n in notes] == [("FF:ID", "expert", "out-of-distribution")]


def test_fix_seats_names_its_bot_on_every_verified_knob_setting(tmp_path):
    result = run("fix-seats", "-p", "2", "--trials", "3", "-n", "10", "--verify", "10", "--candidates", "1",
                 "--no-distance", "--out", tmp_path / "fix", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    candidates = [r["variant"] for r in data["rows"] if r["candidate"] != 0]
    notes = data["bot_notes"]
    assert candidates and [n["variant"] for n in notes] == list(dict.fromkeys(candidates))
    assert all(n["training"] in ("rule-aware", "out-of-distribution") for n in notes)  # a knob: never fitted
