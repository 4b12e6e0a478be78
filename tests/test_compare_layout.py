"""``compare`` prints one layout for every game, and decks are compared on the same deals the way variants are.

The header has the same fields for the three games and the rows the same columns; the deck comparison names
both deck files with their card counts, and the same deck twice differs by exactly 0 on every game (the
same random stream plays the same games), so its paired interval has zero width.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyses.games import game_names, get_game
from cli import app

runner = CliRunner()
GAME_NAMES = game_names()
ROOT = Path(__file__).resolve().parents[1]
DECK = (ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text()
HEADER_FIELDS = ["players", "bot", "baseline", "variants", "deck", "games", "seed", "time"]
DECK_FIELDS = ["players", "bot", "baseline", "decks", "rules", "games", "seed", "time"]
CHANGE = r"[+-]\d+\.\d+ \([+-]\d+\.\d+ to [+-]\d+\.\d+\)"  # +2.6 (+1.2 to +4.1)
VALUE = r"(\d+\.\d%|\d+\.\d\d|n/a)"


def run(*args: str) -> list[str]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def before_notes(lines: list[str]) -> list[str]:
    """The comparison's own lines: those before its bots' notes on the changed games (a deck file is one)."""
    return lines[:next((i for i, line in enumerate(lines) if line.startswith("Bots on the changed game")), len(lines))]


def header_fields(line: str) -> list[str]:
    """What each comma-separated field of a header names: its first word, or what a number counts."""
    _, rest = line.split(": ", 1)
    names = []
    for part in rest.split(", "):
        if re.fullmatch(r"(solo|[\d+]+ players)", part):
            names.append("players")
        elif re.fullmatch(r"[\d,]+ games", part):
            names.append("games")
        elif re.fullmatch(r"[\d.]+ s", part):
            names.append("time")
        else:
            names.append(part.split(" ", 1)[0])
    return names


def row_cells(line: str) -> list[str]:
    """A row's cells: the columns are separated by two spaces or more."""
    return re.split(r"\s{2,}", line.strip())


def two_player(game: str) -> str:
    the = get_game(game)
    return str(2 if 2 in the.seat_counts else max(the.seat_counts))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_compare_has_one_layout_for_every_game(game, tmp_path):
    the = get_game(game)
    lines = run("compare", "--game", game, "-p", two_player(game), "-n", "200", "--seed", "3", "--no-distance",
                "--out", str(tmp_path / "cmp"))
    # every side but the baseline is a changed game: its bot's training status and distance lines close the table
    notes_at = next(i for i, line in enumerate(lines) if line.startswith("Bots on the changed game"))
    lines, notes = lines[:notes_at], lines[notes_at + 1:]
    sides = the.variants(int(two_player(game)))[1:]
    assert len(notes) == 2 * len(sides)
    assert [n.split(", ")[1] for n in notes[::2]] == list(sides)
    assert all(n.startswith("  distance from search: skipped") for n in notes[1::2])
    head, note, columns, *rows = lines
    assert head.startswith(f"{the.title}: ")
    assert header_fields(head) == HEADER_FIELDS
    variants = the.variants(int(two_player(game)))
    assert f", baseline {variants[0]}, variants {'/'.join(variants[1:])}, " in head
    assert re.search(r", deck \S.* \(\d+ cards\), ", head), head
    assert "paired interval" in note
    assert row_cells(columns) == ["variant", "metric", "baseline", "side", "difference (95% CI)", "unpaired CI"]
    table, legend = rows[:-1], rows[-1]
    assert legend.startswith("rates in %")
    metrics = [row_cells(r)[1] for r in table]
    # every two-player game has the win-based metrics and its length
    assert {"seat spread", "seat 1 wins", "game length"} <= set(metrics)
    for r in table:
        cells = row_cells(r)
        assert len(cells) == 6, r
        assert cells[0] != variants[0]  # a row is a side against the baseline, never the baseline itself
        assert re.fullmatch(VALUE, cells[2]) and re.fullmatch(VALUE, cells[3]), r
        assert re.fullmatch(CHANGE + r"\*?", cells[4]), r
        assert re.fullmatch(r"\([+-]\d+\.\d+ to [+-]\d+\.\d+\)", cells[5]), r


@pytest.mark.parametrize("game", GAME_NAMES)
def test_compare_json_keeps_the_summary_and_adds_the_comparison(game, tmp_path):
    out = tmp_path / "cmp"
    # --no-distance: the JSON's keys are the point; the changed sides' distance from search (search games per
    # side) is tests/test_whatif.py's
    args = ["--game", game, "-p", two_player(game), "-n", "120", "--seed", "4", "--out", str(out), "--no-distance"]
    data = json.loads(run("compare", *args, "--json")[0])
    before = json.loads(run("summarize", str(out), "--json")[0])
    assert set(before) <= set(data)  # the keys summarize gives stay
    comparison = data["comparison"]
    assert comparison["game"] == game and comparison["seed"] == 4 and comparison["compared"] == "variants"
    for r in comparison["rows"]:  # the printed value difference is the mean paired difference
        assert r["variant_value"] - r["baseline_value"] == pytest.approx(r["diff"], abs=1e-12)


def write_decks(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "shipped.toml"
    a.write_text(DECK)
    b = tmp_path / "one-more.toml"
    b.write_text(DECK.replace('"FF/IS" = 2', '"FF/IS" = 3', 1))  # one more copy of one card: 53 cards
    assert b.read_text() != DECK
    return a, b


def test_two_decks_are_compared_on_the_same_deals(tmp_path):
    a, b = write_decks(tmp_path)
    lines = before_notes(run("compare", "--deck", str(a), "--deck", str(b), "-p", "3", "-n", "150", "--seed", "2",
                             "--no-distance", "--out", str(tmp_path / "decks")))
    head, note, columns, *rows = lines
    assert head.startswith("Project Dreamscape: 3 players, ")
    assert header_fields(head) == DECK_FIELDS
    assert ", baseline shipped.toml (52 cards), decks one-more.toml (53 cards), rules base, " in head
    assert "paired interval" in note
    assert row_cells(columns)[0] == "deck"
    table = rows[:-1]
    assert table and all(row_cells(r)[0] == "one-more.toml" for r in table)
    assert {row_cells(r)[1] for r in table} == {"seat spread", "seat 1 wins", "winning score", "game length"}


def test_the_same_deck_twice_differs_by_exactly_zero(tmp_path):
    a, _ = write_decks(tmp_path)
    copy = tmp_path / "copy.toml"
    copy.write_text(DECK)
    data = json.loads(run("compare", "--deck", str(a), "--deck", str(copy), "-p", "3", "-n", "120", "--seed", "6",
                          "--out", str(tmp_path / "same"), "--json")[0])
    rows = data["compare"]
    assert len(rows) == 4
    for r in rows:  # the same deck on the same random stream plays the same games: every difference is 0
        assert r["paired"] and r["games"] == 120
        assert r["diff"] == 0.0 and r["diff_low"] == 0.0 and r["diff_high"] == 0.0
        assert r["baseline_value"] == r["variant_value"]
        assert not r["significant"]
        assert (r["baseline"], r["variant"]) == ("shipped.toml", "copy.toml")


def test_a_bad_second_deck_is_one_line_exit_2(tmp_path):
    a, _ = write_decks(tmp_path)
    bad = tmp_path / "bad.toml"
    bad.write_text('[base]\n"FF/XX" = 2\n')
    result = runner.invoke(app, ["compare", "--deck", str(a), "--deck", str(bad), "-n", "50",
                                 "--out", str(tmp_path / "bad-run")])
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "bad-run").exists()  # checked before any deck plays


def test_deck_and_cards_together_are_one_line_exit_2(tmp_path):
    a, b = write_decks(tmp_path)
    result = runner.invoke(app, ["compare", "--deck", str(a), "--cards", str(b), "-n", "50"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output


def test_card_lists_of_another_game_are_compared_the_same_way(tmp_path):
    shipped = (ROOT / "simcore/games/pleasant_dreams/cards.toml").read_text()
    a, b = tmp_path / "mine.toml", tmp_path / "theirs.toml"
    a.write_text(shipped)
    b.write_text(shipped)
    lines = before_notes(run("compare", "--game", "pleasant-dreams", "--cards", str(a), "--cards", str(b), "-p", "2",
                             "-n", "100", "--no-distance", "--out", str(tmp_path / "pd")))
    assert ", baseline mine.toml (" in lines[0] and ", decks theirs.toml (" in lines[0]
    table = lines[3:-1]
    assert table and all(row_cells(r)[0] == "theirs.toml" for r in table)
    # the same cards on the same deals: every difference 0 with a zero-width paired interval
    assert all(re.fullmatch(r"\+0\.0+ \(\+0\.0+ to \+0\.0+\)", row_cells(r)[4]) for r in table), table
