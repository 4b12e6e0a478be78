"""Swap findings at every skill level: a study file's [[recheck]] replays the headline swap decks (analyses/games/dreamscape/recheck.py)."""
from __future__ import annotations

import pytest

from analyses.study.model import RunConfig, StudyError
from analyses.games.dreamscape.recheck import headline_swaps
from analyses.study.folder import read_manifest
from analyses.study.studyfile import load_study_file, run_plan
from reports.games.dreamscape.data import collect
from reports.games.dreamscape.findings import make_findings
from reports.games.dreamscape.robust import check_findings
from simcore.games.dreamscape.fast import SimConfig, simulate
from simcore.games.dreamscape.variants import parse_variant

GAMES = 400
STUDY = f"""
name = "swaps"
seed = 4
chunk_size = 200

[[configs]]
games = {GAMES}
players = 2
variants = ["base"]
strategy = "greedy"

[[configs]]
games = {GAMES}
players = 2
swaps = "FF:*"
options = "base"
strategy = "greedy"

[[recheck]]
label = "again"
strategy = "random"
games = 120
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("recheck")
    (root / "swaps.toml").write_text(STUDY)
    run_plan(load_study_file(root / "swaps.toml"), root / "study", progress=False)
    return root / "study"


def _spread(variant: str, strategy: str, games: int) -> float:
    """Best seat's win rate minus the worst seat's, played here directly."""
    v = parse_variant(variant)
    win = simulate(SimConfig(2, v.options, v.deck()), games, 4, strategy).win.mean(axis=0)
    return float(win.max() - win.min())


def test_the_headline_decks_are_the_swaps_with_the_lowest_and_highest_seat_spread(folder):
    spreads = {v: _spread(v, "greedy", GAMES) for v in ("FF:ID", "FF:ED", "FF:PS")}
    low, high = min(spreads, key=spreads.get), max(spreads, key=spreads.get)
    assert headline_swaps(folder) == [(2, low, "base"), (2, high, "base")]


def test_the_recheck_plays_them_and_their_no_swap_deck_under_its_bot(folder):
    m = read_manifest(folder)
    played = {c.id: m.target_games[c.id] for c in m.configs if c.strategies == ("random", "random")}
    decks = {v for _, v, _ in headline_swaps(folder)} | {"base"}
    assert played == {RunConfig(v, 2, ("random", "random")).id: 120 for v in decks}
    assert {p["label"] for p in m.meta["parts"]} >= {"again"}


def test_the_swap_findings_are_checked_under_the_recheck_bot(folder):
    t = collect(folder)
    findings, checks = check_findings(make_findings(t), t)
    swaps = [c for c in checks if c.finding.topic == "swaps"]
    assert swaps and all({lv.bot for lv in c.levels} == {"greedy", "random"} for c in swaps)
    for c in swaps:  # the finding is the main bot's (greedy played every swap), its random level the recheck's games
        assert c.finding.row["strategies"] == "greedy"
        rnd = next(lv for lv in c.levels if lv.bot == "random")
        expected = _spread(c.finding.row["variant"], "random", 120) - _spread("base", "random", 120)
        assert rnd.value == pytest.approx(expected) and rnd.games == 120
    # a checked swap finding says so in its sentence
    assert all("Checked under" in f.text for f in findings if f.topic == "swaps")


def test_a_resumed_study_replays_nothing(folder, tmp_path):
    before = read_manifest(folder).chunks
    run_plan(load_study_file(folder.parent / "swaps.toml"), folder, progress=False)
    assert read_manifest(folder).chunks == before


@pytest.mark.parametrize("table,words", [
    ('[[recheck]]\nstrategy = "linear"\n', ["games is missing"]),
    ('[[recheck]]\ngames = 10\n', ["strategy must name one bot"]),
    ('[[recheck]]\nstrategy = "nosuchbot"\ngames = 10\n', ["nosuchbot"]),
    ('[[recheck]]\nstrategy = "linear"\ngames = 0\n', ["games"]),
    ('[[recheck]]\nstrategy = "linear"\ngames = 10\ncolour = "red"\n', ["unknown key", "colour"]),
    ('recheck = 3\n', ["[[recheck]]"]),
    ('[[recheck]]\nstrategy = "linear"\ngames = 10\nplayers = 5\n', ["players", "2 to 4"]),
    ('[[recheck]]\nstrategy = "linear"\ngames = 10\nplayers = "two"\n', ["players", "2 to 4"]),
])
def test_a_bad_recheck_table_is_one_clear_error(tmp_path, table, words):
    path = tmp_path / "s.toml"
    configs = '[[configs]]\ngames = 10\nplayers = 2\nstrategy = "greedy"\n\n'
    # a top-level key must stand before the first table
    path.write_text("seed = 1\n" + (configs + table if table.startswith("[[") else table + configs))
    with pytest.raises(StudyError) as err:
        load_study_file(path)
    assert all(w in str(err.value) for w in words) and "\n" not in str(err.value)


def test_a_study_without_swaps_has_nothing_to_recheck(tmp_path):
    (tmp_path / "s.toml").write_text('seed = 2\ngames = 30\nplayers = 2\nstrategy = "greedy"\n\n'
                                     '[[recheck]]\nstrategy = "random"\ngames = 10\n')
    run_plan(load_study_file(tmp_path / "s.toml"), tmp_path / "study", progress=False)
    m = read_manifest(tmp_path / "study")
    assert [c.strategies for c in m.configs] == [("greedy", "greedy")] and headline_swaps(tmp_path / "study") == []


def test_a_recheck_of_some_player_counts_plays_only_their_decks(folder):
    """The main study gives the strong level more games in 2 players than in 3 or 4 (#26): one table per count."""
    from analyses.games.dreamscape.recheck import Recheck, recheck_configs

    every = recheck_configs(folder, [Recheck("all", "random", 120)])[0][1]
    assert len(every) == 3  # this study's two headline 2-player decks and their no-swap deck
    two, three = [c for _, c in recheck_configs(folder, [Recheck("2p", "random", 120, (2,)),
                                                         Recheck("3p", "random", 120, (3,))])]
    assert [c.id for c in two] == [c.id for c in every] and three == []
    plan = load_study_file_text(folder.parent, STUDY.replace('games = 120\n', 'games = 120\nplayers = [2, 3]\n'))
    assert plan.stages[0].players == (2, 3) and plan.fingerprint() != load_study_file_text(folder.parent, STUDY).fingerprint()


def load_study_file_text(where, text):
    path = where / "again.toml"
    path.write_text(text)
    return load_study_file(path)
