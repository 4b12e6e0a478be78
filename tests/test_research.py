"""Smoke tests of the research scripts (research/, not installed): each runs end to end on a tiny budget.

The scripts reproduce the measurements of docs/research/; these runs check that they
still run in the current house and print what they promise, not the numbers (which
need thousands of games). Marked slow where a run plays search games.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESEARCH = ROOT / "research"


def run(script: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RESEARCH / script), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_every_research_script_is_smoke_tested_here():
    """A new script in research/ needs a smoke test that runs it (here or beside its library's tests), or is deleted."""
    text = "".join(f.read_text() for f in Path(__file__).parent.glob("test_*.py"))
    scripts = sorted(p.name for p in RESEARCH.iterdir() if p.suffix in (".py", ".sh") and not p.name.startswith("_")
                     and p.name not in ("diagnostics.py", "diagnostic_games.py"))  # the two libraries: tests/test_diagnostics.py
    assert scripts, "research/ holds no script"
    missing = [s for s in scripts if f'"{s}"' not in text and f'/ "{s}"' not in text]
    assert not missing, f"research scripts without a smoke test: {missing}"


@pytest.mark.slow  # a research script compiling its own kernels (about a minute); the product's search is tested by default
def test_phase_split_runs_and_writes_its_json(tmp_path):
    out = tmp_path / "split.json"
    done = run("phase_split.py", "--players", "2", "--games", "4", "--playouts", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data and isinstance(data, (dict, list))


@pytest.mark.slow
def test_late_decisions_runs_on_a_tiny_budget():
    done = run("late_decisions.py", "--players", "2", "--playouts", "1", "--train-games", "20", "--test-games", "10")
    assert done.returncode == 0, done.stderr
    assert "regret" in (done.stdout + done.stderr).lower()


@pytest.mark.slow
def test_late_search_frontier_runs_on_a_tiny_budget(tmp_path):
    out = tmp_path / "frontier.json"
    done = run("late_search_frontier.py", "--players", "2", "--games", "4", "--speed-games", "4", "--json", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    names = [row["level"] for row in data["levels"]]
    assert names[0] == "search:expert@8:late" and "search:expert@2:late:buy+perform" in names
    assert all(len(row["gain"]) == 2 and row["games_per_s"] > 0 for row in data["levels"])


@pytest.mark.slow
def test_late_search_doubling_ladder_pairs_its_levels_on_the_same_deals(tmp_path):
    """A "doubling" from K to the same K plays the same games: every step's gain is exactly 0 in every seat."""
    out = tmp_path / "ladder.json"
    done = run("late_search_frontier.py", "--players", "2", "--games", "6", "--ladder", "1,1,2", "--json", str(out))
    assert done.returncode == 0, done.stderr
    seats = json.loads(out.read_text())["seats"]
    assert [s["seat"] for s in seats] == [1, 2]
    assert all(s["steps"][0]["gain"] == [0.0, 0.0, 0.0] and s["steps"][1]["from"] == 1 and s["steps"][1]["to"] == 2
               for s in seats)


def test_train_expert_recipe_matches_the_shipped_tables():  # "train_expert.sh"
    """train_expert.sh writes every shipped expert table, with options `dreamscape train` accepts."""
    text = (RESEARCH / "train_expert.sh").read_text()
    outs = set(re.findall(r"--out (\S+)", text))
    shipped = ROOT / "simcore" / "games" / "dreamscape" / "bots" / "data" / "expert"
    loops = re.findall(r"for v in ([^;]+); do for p in ([^;]+); do", text) + \
        [(m, "1") for m in re.findall(r"for v in ([^;]+); do\n  dreamscape train --players 1", text)]
    written = {f"{p}p-{v}.toml" for vs, ps in loops for v in vs.split() for p in ps.split()}
    assert written == {p.name for p in shipped.glob("*.toml")}
    assert all("simcore/games/dreamscape/bots/data/expert/" in o for o in outs)
    help_text = subprocess.run([str(Path(sys.executable).with_name("dreamscape")), "train", "--help"],
                               capture_output=True, text=True, timeout=120).stdout
    for option in set(re.findall(r"(--[a-z-]+)", text)) - {"--out"}:
        assert option in help_text, option


def test_train_strong_recipe_matches_the_shipped_values():  # "train_strong.sh"
    """train_strong.sh writes every shipped value of the strong bot, with options `dreamscape train` accepts;
    what it writes beyond the shipped values is exactly the configurations that play a declared stand-in."""
    from simcore.games.dreamscape.bots.strong import STAND_IN

    text = (RESEARCH / "train_strong.sh").read_text()
    shipped = ROOT / "simcore" / "games" / "dreamscape" / "bots" / "data" / "strong"
    # each loop over rules options and player counts, the games it trains on, the pairs it skips
    loops = re.findall(r"for v in ([^;]+); do for p in ([^;]+); do\n(.*?)done; done", text, re.S)
    games_of = {}
    for vs, ps, body in loops:
        skipped = set(re.findall(r'\[ "\$p-\$v" = "(\d)-([a-z+-]+)" \] && continue', body))
        for v in vs.split():
            for p in ps.split():
                if (p, v) not in skipped:
                    games_of[f"{p}p-{v}.npz"] = int(re.search(r"--games (\d+)", body).group(1))
    written = set(games_of)
    assert len(written) == 12  # 2-4 players x base, sleep token, shifting, both
    # then one value per player count across the single-swap decks (research/train_strong_swaps.py)
    family_loop = re.findall(r"for p in ([^;]+); do\s+python -m research.train_strong_swaps --players \$p", text)
    family = {f"{p}p-base-single-swaps.npz" for ps in family_loop for p in ps.split()}
    assert family == {f"{p}p-base-single-swaps.npz" for p in (2, 3, 4)}
    on_disk = {p.name for p in shipped.glob("*.npz")}
    assert on_disk - family <= written

    def name(key):
        players, sleep, shifting = key
        return f"{players}p-" + ("+".join(["sleep-token"] * sleep + ["shifting-tokens"] * shifting) or "base") + ".npz"

    assert {name(key) for key in STAND_IN} == written - on_disk
    assert set(re.findall(r"--out (\S+)", text)) == {"simcore/games/dreamscape/bots/data/strong/${p}p-$v.npz",
                                                     "simcore/games/dreamscape/bots/data/strong/${p}p-base-single-swaps.npz"}
    help_text = subprocess.run([str(Path(sys.executable).with_name("dreamscape")), "train", "--help"],
                               capture_output=True, text=True, timeout=120).stdout
    for option in set(re.findall(r"(--[a-z-]+)", text)) - {"--out"}:
        assert option in help_text, option
    # each shipped file says it was made with the recipe's settings
    import numpy as np
    for path in shipped.glob("*.npz"):
        meta = json.loads(str(np.load(path)["meta"]))
        # the games of the recipe's loop that writes it (20,000 across the single swaps)
        games = 20000 if "single-swaps" in path.name else games_of[path.name]
        assert (meta["games"], meta["trees"], meta["leaves"], meta["seed"]) == (games, 100, 63, 1), path.name


def test_strong_measure_runs_on_a_tiny_budget(tmp_path):  # "strong_measure.py"
    out = tmp_path / "gain.json"
    done = run("strong_measure.py", "gain", "--players", "2", "--games", "30", "--json", str(out))
    assert done.returncode == 0, done.stderr
    rows = json.loads(out.read_text())
    assert [r["seat"] for r in rows] == [1, 2] and all(r["lo"] <= r["gain"] <= r["hi"] for r in rows)
    assert all(abs(r["gain"] - (r["strong"] - r["expert"])) < 1e-9 for r in rows)
    done = run("strong_measure.py", "speed", "--players", "2", "--games", "20", "--reps", "1")
    assert done.returncode == 0 and "games/s" in done.stdout, done.stderr


def test_train_strong_pooled_fits_the_rows_of_each_rules_option_in_turn(tmp_path):  # "train_strong_pooled.py"
    import numpy as np

    from analyses.games.dreamscape.train_strong import value_rows
    from research.train_strong_pooled import pooled_rows
    from simcore.games.dreamscape import parse_setup
    from simcore.games.dreamscape.bots.strong import read_value

    pooled = pooled_rows(2, ["base", "shifting-tokens"], 30, seed=5)
    parts = [value_rows(2, parse_setup(2, v).variant.options, parse_setup(2, v).deck(), 30, 5)
             for v in ("base", "shifting-tokens")]
    # each option's rows are `dreamscape train`'s own for that option, base first, with their own game numbers
    assert np.array_equal(pooled.enc, np.concatenate([parts[0].enc, parts[1].enc]))
    assert np.array_equal(pooled.win, np.concatenate([parts[0].win, parts[1].win]))
    assert np.array_equal(pooled.game, np.concatenate([parts[0].game, parts[1].game]))
    assert not np.array_equal(parts[0].enc[:50], parts[1].enc[:50])  # the tokens' costs change the views
    out = tmp_path / "v.npz"
    done = run("train_strong_pooled.py", "--players", "2", "--games", "40", "--trees", "2", "--leaves", "3",
               "--out", str(out))
    assert done.returncode == 0, done.stderr
    meta = read_value(out).meta
    assert (meta["players"], meta["variant"], meta["pooled"], meta["games"]) == (
        2, "shifting-tokens", ["base", "shifting-tokens"], 80)
    bad = run("train_strong_pooled.py", "--players", "2", "--variants", "base,knob:bonus=1", "--out", str(out))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    unwritable = run("train_strong_pooled.py", "--players", "2", "--games", "40", "--trees", "2", "--leaves", "3",
                     "--out", str(out / "v.npz"))  # a file stands where the folder should be
    assert unwritable.returncode == 2 and "Traceback" not in unwritable.stderr, unwritable.stderr
    assert unwritable.stderr.strip().splitlines()[-1].startswith("train_strong_pooled: cannot write")


def test_train_strong_swaps_writes_a_value_across_the_single_swaps(tmp_path):  # "train_strong_swaps.py"
    from simcore.games.dreamscape.bots.strong import read_value

    out = tmp_path / "v.npz"
    done = run("train_strong_swaps.py", "--players", "2", "--games", "40", "--trees", "2", "--leaves", "3",
               "--out", str(out))
    assert done.returncode == 0, done.stderr
    meta = read_value(out).meta
    assert (meta["players"], meta["variant"], meta["deck"], meta["games"]) == (2, "base", "single-swaps", 40)
    bad = run("train_strong_swaps.py", "--players", "2", "--games", "5", "--out", str(out))
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    unwritable = run("train_strong_swaps.py", "--players", "2", "--games", "40", "--trees", "2", "--leaves", "3",
                     "--out", str(out / "v.npz"))  # a file stands where the folder should be
    assert unwritable.returncode == 2 and "Traceback" not in unwritable.stderr, unwritable.stderr
    assert unwritable.stderr.strip().splitlines()[-1].startswith("train_strong_swaps: cannot write")


def test_strong_swap_measure_plays_one_seats_cell(tmp_path):  # "strong_swap_measure.py"
    out = tmp_path / "cell.json"
    done = run("strong_swap_measure.py", "--strategy", "expert", "--players", "2", "--variant", "PR:ID", "--seat", "2",
               "--games", "6", "--playouts", "1", "--json", str(out))
    assert done.returncode == 0, done.stderr
    row = json.loads(out.read_text())
    assert (row["seat"], row["games"], row["search"]) == (2, 6, "search:expert@1:late")
    assert abs(row["gain"] - (row["search_win"] - row["own_win"])) < 1e-9  # paired over the same six deals


def run_module(module: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"research.{module}", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


@pytest.mark.slow  # plays search games
def test_expert_kind_split_prints_one_row_per_kind_asked():  # "expert_kind_split.py"
    done = run_module("expert_kind_split", "--variant", "PR:ID", "--seat", "3", "--games", "2", "--playouts", "1",
                      "--kinds", "late,late:buy,late:invasive_dreaming")
    assert done.returncode == 0, done.stderr
    rows = [line.split()[0] for line in done.stdout.splitlines() if " gain " in line]
    assert rows == ["late", "late:buy", "late:invasive_dreaming"]


@pytest.mark.slow  # plays search games
def test_expert_disagreements_names_the_picks_where_they_differ():  # "expert_disagreements.py"
    done = run_module("expert_disagreements", "--variant", "PR:ID", "--seat", "3", "--games", "2", "--playouts", "1")
    assert done.returncode == 0, done.stderr
    assert "searcher's pick minus table's pick" in done.stdout


@pytest.mark.slow  # plays search games to label the options
def test_fit_invasive_rows_then_expansion_columns_write_tables_the_bot_reads(tmp_path):
    # "fit_invasive_rows.py", "fit_expansion_columns.py"
    import tomllib

    from simcore.games.dreamscape.bots.expert import read_table

    rows, columns = tmp_path / "rows.toml", tmp_path / "columns.toml"
    done = run_module("fit_invasive_rows", "--variant", "PR:ID", "--games", "2", "--playouts", "1", "--out", str(rows))
    assert done.returncode == 0, done.stderr
    fitted = tomllib.loads(rows.read_text())
    assert fitted["overlay"] is True and set(k for k in fitted if isinstance(fitted[k], dict)) == {"invasive_dreaming"}
    done = run_module("fit_expansion_columns", "--variant", "PR:ID", "--games", "2", "--playouts", "1",
                      "--rows", str(rows), "--out", str(columns))
    assert done.returncode == 0, done.stderr
    assert read_table(columns)[1].shape == read_table(rows)[1].shape  # both load as expert tables of the same layout


@pytest.mark.slow  # plays search games
def test_strong_kind_split_pairs_late_with_late_without_each_kind():  # "strong_kind_split.py"
    done = run_module("strong_kind_split", "--players", "2", "--variant", "shifting-tokens", "--seat", "1",
                      "--games", "2", "--playouts", "1", "--without", "buy,perform,take_z")
    assert done.returncode == 0, done.stderr
    rows = [line.split(" gain ")[0].strip() for line in done.stdout.splitlines() if " gain " in line]
    assert rows == ["late", "late without buy", "late without perform", "late without take_z"]
    # strong plays the expert table at buy (its lookahead skips buy, take Z and Collective Dream): exact there;
    # it looks ahead at a perform, which the row without perform plays by the table: marked; and at take Z in
    # 2-player shifting-tokens games (scratch.STRONG_RELEASED): marked too
    buy, perform, take_z = [line for line in done.stdout.splitlines() if " without " in line]
    assert "not exact" not in buy and "not exact" in perform and "not exact" in take_z


def test_a_seat_cell_run_records_the_command_that_repeats_it(tmp_path):
    """The JSON's command is quoted as a shell reads it: an empty argument (``--without ""``) stays one."""
    import argparse
    import shlex
    import time

    from research._seat_cell import write_run

    argv = ["--players", "2", "--seat", "1", "--without", "", "--json", str(tmp_path / "run.json")]
    args = argparse.Namespace(json=tmp_path / "run.json", seed=3, first=5)
    write_run(args, "research.strong_kind_split", argv, time.perf_counter(), [{"gain": 0.1}])
    run_json = json.loads((tmp_path / "run.json").read_text())
    assert shlex.split(run_json["command"]) == ["python", "-m", "research.strong_kind_split", *argv]
    assert (run_json["seed"], run_json["first"], run_json["rows"]) == (3, 5, [{"gain": 0.1}])
    write_run(argparse.Namespace(json=None, seed=3, first=5), "m", [], 0.0, [])  # no --json: nothing written


def test_strong_kind_split_searches_every_kind_but_the_one_left_out():
    from research.strong_kind_split import without
    from simcore.games.dreamscape.fast.strategies import kind_skip_bits
    from simcore.games.dreamscape.rules import DECISION_ID

    phases = without("buy")
    assert phases.startswith("late:")
    assert kind_skip_bits(phases[len("late:"):].split("+")) == 1 << DECISION_ID["buy"]


STRONG_SPLIT_PAGE = ROOT / "docs" / "research" / "2026-11-28-strong-shifting-tokens.md"
STRONG_SPLIT_DATA = ROOT / "docs" / "research" / "data"


@pytest.mark.parametrize("pattern", ["2026-11-28-strong-split-*.json", "2026-11-28-strong-table-*.json"])
def test_the_strong_split_page_shows_its_runs_as_their_json_holds_them(pattern):
    """Every number of the page's two tables is printed from the runs' JSON (``strong_kind_split table``)."""
    from research.strong_kind_split import table_lines

    runs = sorted(STRONG_SPLIT_DATA.glob(pattern))
    assert runs, f"no run {pattern} kept in docs/research/data"
    table = "\n".join(table_lines([json.loads(p.read_text()) for p in runs]))
    assert table in STRONG_SPLIT_PAGE.read_text(), (
        f"{STRONG_SPLIT_PAGE.name}: its table differs from the runs; print it with `python -m research.strong_kind_split "
        f"table {' '.join('docs/research/data/' + p.name for p in runs)}`")


@pytest.mark.slow  # plays search games
def test_sharp_measure_keeps_each_run_s_games_by_bot_seat_and_seed(tmp_path):  # "sharp_measure.py"
    import numpy as np

    done = run("sharp_measure.py", "h2h", str(tmp_path / "h2h"), "--games", "2", "--seed", "3")
    assert done.returncode == 0, done.stderr
    # strong on every seat, then sharp in each seat on the same deals (the pairing of the head to head)
    assert sorted(p.name for p in (tmp_path / "h2h").iterdir()) == [
        "h2h-sharp-seat1-3-2.npy", "h2h-sharp-seat2-3-2.npy", "h2h-sharp-seat3-3-2.npy", "h2h-strong-3-2.npy"]
    assert all(len(np.load(p)) == 2 for p in (tmp_path / "h2h").iterdir())  # one row per game asked
    done = run("sharp_measure.py", "exploit", str(tmp_path / "ex"), "--games", "2", "--seed", "3", "--playouts", "1",
               "--seats", "1")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "ex").iterdir()) == ["exploit-sharp-3-2.npy",
                                                                   "exploit-sharp-k1-seat1-3-2.npy"]


def _strong_games(players: int, variant: str, bot: str, games: int = 40):
    from simcore.games.dreamscape.fast import SimConfig, simulate
    from simcore.games.dreamscape.variants import parse_variant

    result = simulate(SimConfig(players, parse_variant(variant).options), games, 7, bot, chunk_size=games)
    return result.win, result.score, result.length


@pytest.mark.parametrize("players, variant", [(3, "base"), (3, "shifting-tokens")])
def test_a_strong_variant_with_strong_s_own_mask_plays_strong_s_games_bit_for_bit(players, variant):
    # "strong_passed_kinds.py": a copy of the record that clears no bit is the shipped bot, game for game
    import numpy as np

    from research.strong_passed_kinds import register_variant

    ours = _strong_games(players, variant, register_variant("strong+none"))
    shipped = _strong_games(players, variant, "strong")
    for a, b in zip(ours, shipped):
        assert np.array_equal(a, b)


def test_looking_ahead_at_collective_dream_changes_3_player_games_and_no_2_player_game():
    # R6.7: Collective Dream copies an opponent's top REM card; with one opponent (2 players) there is no choice
    # of target, so a lookahead there never runs and strong+cd plays strong's 2-player games exactly. In 3 players
    # it chooses between two targets: clearing the bit must change some of strong's games (else the mask is ignored).
    import numpy as np

    from research.strong_passed_kinds import register_variant

    cd = register_variant("strong+cd")
    for a, b in zip(_strong_games(2, "shifting-tokens", cd), _strong_games(2, "shifting-tokens", "strong")):
        assert np.array_equal(a, b)
    assert not np.array_equal(_strong_games(3, "shifting-tokens", cd, 100)[1],
                              _strong_games(3, "shifting-tokens", "strong", 100)[1])


def test_strong_passed_kinds_registers_only_strong_s_passed_kinds():
    from research.strong_passed_kinds import looked_at, register_variant
    from simcore.games.dreamscape.fast.scratch import STRONG_PASSED
    from simcore.games.dreamscape.fast.strategies import get_record
    from simcore.games.dreamscape.rules import DECISION_ID

    assert looked_at("strong+cd+takez") == ["collective_dream", "take_z"]
    assert looked_at("strong+perform") is None and looked_at("expert") is None and looked_at("strong+cd+cd") is None
    strong = get_record("strong")
    both = get_record(register_variant("strong+cd+takez"))
    assert strong.skip & ~both.skip == (1 << DECISION_ID["collective_dream"]) | (1 << DECISION_ID["take_z"])
    assert both.skip & STRONG_PASSED == 1 << DECISION_ID["buy"]
    with pytest.raises(ValueError):
        register_variant("strong+perform")


@pytest.mark.slow  # plays search games
def test_strong_passed_kinds_runs_each_measurement_on_a_tiny_budget(tmp_path):  # "strong_passed_kinds.py"
    h2h, gain, speed = tmp_path / "h2h.json", tmp_path / "gain.json", tmp_path / "speed.json"
    done = run_module("strong_passed_kinds", "h2h", "--players", "2", "--variant", "shifting-tokens",
                      "--bots", "strong+takez", "--games", "6", "--json", str(h2h))
    assert done.returncode == 0, done.stderr
    row = json.loads(h2h.read_text())["rows"][0]
    assert (row["seatings"], row["deals"]) == (2, 6)
    # 2 players, each deal in both seatings: one win credit per game, split between the two bots
    assert abs(row["bot_win"] + row["opponent_win"] - 1) < 1e-9
    done = run_module("strong_passed_kinds", "gain", "--players", "2", "--variant", "shifting-tokens", "--seat", "1",
                      "--bots", "strong,strong+takez", "--games", "3", "--playouts", "1", "--json", str(gain))
    assert done.returncode == 0, done.stderr
    rows = json.loads(gain.read_text())["rows"]
    assert [r["search"] for r in rows] == ["search:strong@1:late", "search:strong+takez@1:late"]
    assert "versus" not in rows[0] and rows[1]["versus"] == "strong"
    assert abs(rows[1]["gain_change"] - (rows[1]["gain"] - rows[0]["gain"])) < 1e-9  # the same three deals
    alone = tmp_path / "alone.json"
    done = run_module("strong_passed_kinds", "alone", "--players", "2", "--variant", "shifting-tokens", "--seat", "1",
                      "--bots", "strong+takez", "--games", "3", "--playouts", "1", "--json", str(alone))
    assert done.returncode == 0, done.stderr
    row = json.loads(alone.read_text())["rows"][0]
    # the same three deals: the strong and search seatings are the gain run's first row's
    assert (row["strong_win"], row["search_win"]) == (rows[0]["own_win"], rows[0]["search_win"])
    assert abs(row["left"] + row["bot_gain"] - row["search_gain"]) < 1e-9
    done = run_module("strong_passed_kinds", "speed", "--players", "2", "--bots", "strong+cd", "--games", "10",
                      "--reps", "1", "--json", str(speed))
    assert done.returncode == 0 and "ratio" in done.stdout, done.stderr
    table = run_module("strong_passed_kinds", "table", str(h2h), str(gain), str(alone), str(speed))
    assert table.returncode == 0 and sum(line.startswith("|---") for line in table.stdout.splitlines()) == 4
    bad = run_module("strong_passed_kinds", "h2h", "--bots", "strong+perform")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr


PASSED_KINDS_PAGE = ROOT / "docs" / "research" / "2026-11-28-strong-passed-kinds.md"


@pytest.mark.parametrize("what", ["h2h", "gain", "alone", "speed", "nested-takez"])
def test_the_passed_kinds_page_shows_its_runs_as_their_json_holds_them(what):
    """Every number of the page's tables is printed from the runs' JSON (``strong_passed_kinds table``)."""
    from research.strong_passed_kinds import table_lines

    runs = sorted(STRONG_SPLIT_DATA.glob(f"2026-11-28-strong-passed-{what}-*.json"))
    assert runs, f"no {what} run kept in docs/research/data"
    table = "\n".join(table_lines([json.loads(p.read_text()) for p in runs]))
    assert table in PASSED_KINDS_PAGE.read_text(), (
        f"{PASSED_KINDS_PAGE.name}: its {what} table differs from the runs; print it with `python -m "
        f"research.strong_passed_kinds table {' '.join('docs/research/data/' + p.name for p in runs)}`")


def test_the_shifting_token_cells_before_and_after_are_printed_from_the_kept_cells():
    """The page's before-and-after table: the kept file's shifting-token cells against the first ones, as
    ``kept.change_lines`` prints them, so no number there is typed by hand; the kept file itself is checked
    against the engine by tests/test_kept_strong.py."""
    from analyses.games.dreamscape import kept

    before = json.loads((STRONG_SPLIT_DATA / "2026-11-28-strong-kept-shifting-40k.json").read_text())["cells"]
    after = [c for c in kept.load_kept() if c["bot"] == "strong" and c["search"] == "search:strong@8:late"
             and c["variant"] in ("shifting-tokens", "sleep-token+shifting-tokens")]
    lines = kept.change_lines(before, after)
    assert len(lines) == 2 + 18  # 2 to 4 players x two options, every seat, measured both times
    assert "\n".join(lines) in STRONG_SPLIT_PAGE.read_text(), (
        f"{STRONG_SPLIT_PAGE.name}: its before-and-after table differs from the kept cells")


def test_change_lines_pairs_the_same_cell_and_marks_an_interval_that_excludes_zero():
    from analyses.games.dreamscape import kept

    # counts: [search's credit, strong's credit, deals]. 6 deals: search won 5 where strong lost, both lost 1
    # (worked out in test_kept_strong.py: +83.3, +40.5 to +126.2, bold). 4 deals, one won by each alone, one by
    # both, one by neither: differences 0, 0, -1, +1, mean 0, sample variance 2/3, standard error sqrt(1/6),
    # t(3) = 3.182446: 0 -+ 1.2992, so +0.0 (-129.9 to +129.9), not bold
    won = {"bot": "strong", "search": "search:strong@8:late", "players": 3, "variant": "base", "seat": 1, "games": 6,
           "counts": [[0.0, 0.0, 1], [1.0, 0.0, 5]]}
    even = {**won, "games": 4, "counts": [[0.0, 0.0, 1], [1.0, 1.0, 1], [0.0, 1.0, 1], [1.0, 0.0, 1]]}
    other_seat = {**won, "seat": 2}
    lines = kept.change_lines([even, other_seat], [won])
    assert lines[2] == "| 3 | base game | 1 | +0.0 (\u2212129.9 to +129.9) | **+83.3 (+40.5 to +126.2)** |"
    assert len(lines) == 3  # seat 2 was measured once only
