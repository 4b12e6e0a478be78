"""One output style for every game: ``simulate``'s header and seat rows have the same structure for the three
games, the deck named is the one played, and each game's own columns are the designer's words for values
checked here against the games played directly."""
from __future__ import annotations

import dataclasses
import re
import time
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from analyses.games import game_names, get_game

GAME_NAMES = game_names()

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
RATE = r"\d+\.\d% \(\d+\.\d-\d+\.\d%\)"  # 58.8% (58.5-59.0%)
HEADER_FIELDS = ("players", "bot", "rules", "deck", "games", "seed", "time")


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def header_fields(line: str) -> list[str]:
    """What each comma-separated field of a header names: its first word, or what a number counts."""
    title, rest = line.split(": ", 1)
    names = []
    for part in rest.split(", "):
        if re.fullmatch(r"(solo|\d+ players)", part):
            names.append("players")
        elif re.fullmatch(r"[\d,]+ games", part):
            names.append("games")
        elif re.fullmatch(r"[\d.]+ s \([\d,]+ games/s\)", part):
            names.append("time")
        else:
            names.append(part.split(" ", 1)[0])
    return names


@pytest.mark.parametrize("game", GAME_NAMES)
def test_simulate_has_one_layout_for_every_game(game):
    the = get_game(game)
    players = 2 if 2 in the.seat_counts else max(the.seat_counts)
    lines = run("simulate", "--game", game, "-p", str(players), "-n", "300", "--seed", "3")
    head, columns, *rows = lines
    assert head.startswith(f"{the.title}: ")
    assert header_fields(head) == list(HEADER_FIELDS)
    assert re.search(r", deck \S+ \(\d+ cards\), ", head)
    assert columns.split()[:6] == ["seat", "strategy", "win", "rate", "(95%", "CI)"]
    seat_rows = rows[:players]
    assert [r.split()[0] for r in seat_rows] == [str(s) for s in range(1, players + 1)]
    for r in seat_rows:
        assert r.split()[1] == the.default_strategy
        assert re.match(rf"\d\s+\S+\s+{RATE}", r), r
    assert rows[players].startswith("per game: ")
    # every column has its own name: no two labels glued together, no key names with underscores
    assert "_" not in columns


def test_columns_of_every_game_are_declared_as_data():
    for game in GAME_NAMES:
        the = get_game(game)
        assert the.columns["seat"] and the.columns["game"], game
        for column in (*the.columns["seat"], *the.columns["game"]):
            key, label, fmt = column[:3]
            assert "_" not in label and fmt in ("pct", ".2f", ",d"), column


def test_counting_zzzzs_columns_are_rates_and_means_of_the_games_played():
    cz = get_game("counting-zzzzs")
    lines = run("simulate", "--game", "counting-zzzzs", "-p", "3", "-n", "400", "--seed", "5")
    direct = cz.play_games(cz.setup(3), ["greedy"] * 3, 5, 0, 400)
    seat, strategy, rest = lines[1].split(None, 2)
    labels = [seat, strategy, *re.split(r"\s{2,}", rest.strip())]
    assert labels == ["seat", "strategy", "win rate (95% CI)", "score", "dreams", "dream elements", "scored dreams",
                      "won or shared"]
    for seat in range(3):
        cells = re.split(r"\s{2,}", lines[2 + seat].strip())
        assert cells[3] == f"{direct['score'][:, seat].mean():.2f}"
        assert cells[5] == f"{direct['dream_elements'][:, seat].mean():.2f}"
        # a seat among k winners of a game counts it whole here (the win rate splits it, Z15.2)
        assert cells[7] == f"{100 * direct['winners'][:, seat].mean():.1f}%"
    forty = (direct["end"] == 1).mean()  # Z: the game ends when a player reaches 40 points, else in the morning
    assert f"ends at 40 points {100 * forty:.1f}%" in lines[5]
    assert "end 2.00" not in lines[5] and "winners" not in "\n".join(lines)


def test_the_header_names_the_deck_actually_played(tmp_path):
    # Project Dreamscape: a deck file with one card fewer of the first base card than the default deck
    default = tomllib.loads((ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text())
    first = next(iter(default["base"]))
    text = (ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text()
    mine = tmp_path / "my.toml"
    mine.write_text(re.sub(rf'(?m)^("?{re.escape(first)}"?\s*=\s*)(\d+)', lambda m: m[1] + str(int(m[2]) - 1), text, 1))
    cards = sum(tomllib.loads(mine.read_text())["base"].values())
    head = run("simulate", "-n", "50", "--deck", str(mine))[0]
    assert f"deck {mine} ({cards} cards)" in head
    assert "deck base (" in run("simulate", "-n", "50")[0]
    # Counting Zzzzs: the designer's file (here a copy of the shipped one), every copy of every card in it
    shipped = ROOT / "simcore/games/counting_zzzzs/cards.toml"
    cz_file = tmp_path / "zzz.toml"
    cz_file.write_text(shipped.read_text())
    copies = sum(card.get("count", 1) for section in tomllib.loads(cz_file.read_text()).values()
                 if isinstance(section, list) for card in section)
    head = run("simulate", "--game", "counting-zzzzs", "-n", "50", "--cards", str(cz_file))[0]
    assert f"deck {cz_file} ({copies} cards)" in head
    assert f"deck base ({copies} cards)" in run("simulate", "--game", "counting-zzzzs", "-n", "50")[0]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_tournament_has_one_layout_for_every_game(game):
    the = get_game(game)
    players = 2 if 2 in the.seat_counts else min(c for c in the.seat_counts if c > 1)
    bots = sorted(the.strategies())[:2] if game != "dreamscape" else ["greedy", "random"]
    lines = run("tournament", "--game", game, "-p", str(players), "-n", "40",
                *[w for b in bots for w in ("--strategy", b)])
    assert lines[0].startswith(f"{the.title} tournament: ")
    assert header_fields(lines[0].replace(" tournament", "", 1))[:1] == ["players"]
    assert lines[1].split()[:3] == ["rank", "strategy", "win"]
    for i, r in enumerate(lines[2:2 + len(bots)], start=1):
        assert re.match(rf"\s*{i}\s+\S+\s+{RATE}", r), r


def test_simulate_games_per_second_count_play_only():
    """An engine that spends a second on its first call (a compile) is ready before the clock starts."""
    from analyses.study.gamechunks import simulate_game

    cz = get_game("counting-zzzzs")
    calls = []

    def compiling_first(*args, **kwargs):
        if not calls:
            time.sleep(1.0)
        calls.append(args[3:5])
        return cz.play_games(*args, **kwargs)

    setup = cz.setup(3)
    summary = simulate_game(dataclasses.replace(cz, play_games=compiling_first), setup, ["greedy"] * 3, 50, 2, 25)
    direct = simulate_game(cz, setup, ["greedy"] * 3, 50, 2, 25)
    assert summary["seconds"] < 0.9 and summary["games_per_s"] > 50 / 0.9
    assert calls[1:] == [(0, 25), (25, 25)]  # then the games of the run, in its chunks
    assert summary["seats"] == direct["seats"]


def test_exploit_and_restrict_name_the_game_in_their_words():
    pd = get_game("pleasant-dreams")
    found = run("exploit", "--game", "pleasant-dreams", "--strategy", "threshold", "-p", "2", "-n", "10", "-k", "1")
    assert found[0].startswith(f"{pd.title}: How strong is threshold?")
    kept = run("restrict", "--game", "pleasant-dreams", "-p", "2", "-n", "10")
    assert kept[0].startswith(f"{pd.title}: Restricted play with threshold: ")
    text = "\n".join(kept)
    assert "dream type" not in text and "never no" not in text  # Project Dreamscape's words, not this game's
    # one row per action type the game can forbid (P: no-ACTION), each named once
    names = [r.split()[1] for r in kept[3:] if "%" in r]
    assert sorted(names) == sorted(r.removeprefix("no-") for r in pd.restrictions(pd.setup(2)))


def test_games_ended_at_the_safety_cap_are_named_in_words():
    """A run whose games end at the turn cap (no winner, R8.4) says so; a run without one says nothing."""
    from reports.tables import capped_games_lines

    assert capped_games_lines({"games": 10, "aborted": 0}) == []
    assert capped_games_lines({"games": 10}) == []  # a game without a cap
    (line,) = capped_games_lines({"games": 8, "aborted": 2})
    assert line.startswith("warning: 2 of 8 games (25%) hit the safety cap")


def test_a_rule_change_that_stalls_the_bots_warns_in_simulate():
    """knob:min-buys=0 (R5.2) lets a seat buy nothing; greedy then never ends the game: every game is capped."""
    from typer.testing import CliRunner
    from cli import app

    out = CliRunner().invoke(app, ["simulate", "--players", "3", "--strategy", "greedy", "--variant",
                                   "knob:min-buys=0", "--games", "40", "--seed", "1", "--no-distance"])
    assert out.exit_code == 0, out.output
    capped = [line for line in out.output.splitlines() if line.startswith("warning: ")]
    aborted = int(next(l for l in out.output.splitlines() if l.startswith("per game:")).rsplit("aborted games ", 1)[1])
    assert aborted > 0 and capped == [capped[0]] and capped[0].startswith(f"warning: {aborted} of 40 games")
    base = CliRunner().invoke(app, ["simulate", "--players", "3", "--games", "40", "--seed", "1"])
    assert base.exit_code == 0 and "warning:" not in base.output
