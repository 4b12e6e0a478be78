"""The command line, through typer's CliRunner: output, exit codes, one-line errors."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from cli_checks import assert_one_line_error

runner = CliRunner()
SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"


def run(*args: str):
    return runner.invoke(app, list(args))


# ----------------------------------------------------------------------------- conformance


def test_conformance_on_shared_scenarios_passes_all_18():
    result = run("conformance", str(SHARED))
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1] == "18 passed, 0 failed"
    assert sum(line.startswith("PASS ") for line in lines) == 18


def test_conformance_reports_a_failing_scenario_and_exits_1(tmp_path):
    scenario = json.loads((SHARED / "04-basic-turn.json").read_text())
    scenario["expect"]["seats"][0]["z"] = 5  # R6.5 gives 4 Z cards in this scenario, not 5
    bad = tmp_path / "wrong-z.json"
    bad.write_text(json.dumps(scenario))
    result = run("conformance", str(SHARED / "04-basic-turn.json"), str(bad))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines[0] == "PASS 04-basic-turn"
    assert lines[1].startswith("FAIL 04-basic-turn: seats[0].z: expected 5, got 4")
    assert lines[-1] == "1 passed, 1 failed"


def test_conformance_unloadable_files_are_failed_scenarios_not_crashes(tmp_path):
    (tmp_path / "a-broken.json").write_text("{ not json")
    (tmp_path / "b-unknown-card.json").write_text(
        json.dumps({"setup": {"sleep_deck": ["FF/XX"], "dreamscape": [None] * 5, "seats": [{"deep_sleep": ["FF/IS"]}]}, "expect": {}})
    )
    result = run("conformance", str(tmp_path), str(tmp_path / "missing.json"))
    assert result.exit_code == 2  # bad input: listed as failures, and exit code 2
    lines = result.output.strip().splitlines()
    assert lines[0].startswith("FAIL a-broken: not valid JSON")
    assert lines[1].startswith("FAIL b-unknown-card: malformed scenario: setup.sleep_deck[0]: unknown dream type 'XX'")
    assert lines[2].startswith("FAIL missing: cannot read scenario file")
    assert lines[-1] == "0 passed, 3 failed"
    assert "Traceback" not in result.output


def test_conformance_detects_an_illegal_choice_the_engine_accepts(tmp_path):
    scenario = json.loads((SHARED / "04-basic-turn.json").read_text())
    # Marking a legal purchase (position 2 for 2 with 2 Z cards, R5.1) as illegal must fail.
    scenario["choices"][3]["illegal"] = True
    path = tmp_path / "wrongly-illegal.json"
    path.write_text(json.dumps(scenario))
    result = run("conformance", str(path))
    assert result.exit_code == 1
    assert "was accepted" in result.output


# ----------------------------------------------------------------------------- play


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_play_narrates_a_whole_game(players):
    result = run("play", "--players", str(players), "--seed", "3", "--strategy", "random")
    assert result.exit_code == 0, result.output
    out = result.output
    # People count seats from 1: seat 1 plays first, the last seat is seat N, there is no seat 0.
    assert "--- Turn 1: seat 1 ---" in out
    assert out.count("Seat 1: Z") >= 2  # the table after set-up and after turns
    assert f"Seat {players}: Z" in out and f"Seat {players + 1}: Z" not in out
    assert not re.search(r"\b[Ss]eat 0\b", out)
    assert "Final scores (R8.2" in out
    assert re.search(r"Winner\(s\): seat [1-4]", out)
    if players == 1:
        assert "band" in out  # R10.5


def test_play_final_scores_match_the_last_table():
    result = run("play", "--players", "3", "--seed", "1")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    final = {int(m.group(1)): int(m.group(2)) for m in (re.match(r"  Seat (\d) \(\w+\): (-?\d+) with", l) for l in lines) if m}
    last_table = {}
    for line in lines:
        m = re.match(r"  Seat (\d): Z +\d+  score +(-?\d+)", line)
        if m:
            last_table[int(m.group(1))] = int(m.group(2))
    assert final == last_table and len(final) == 3


def test_play_is_reproducible_from_its_seed():
    a = run("play", "--players", "2", "--seed", "11", "--sleep-token", "--shifting-tokens")
    b = run("play", "--players", "2", "--seed", "11", "--sleep-token", "--shifting-tokens")
    c = run("play", "--players", "2", "--seed", "12", "--sleep-token", "--shifting-tokens")
    assert a.exit_code == 0 and a.output == b.output
    assert a.output != c.output


def test_play_with_swaps_and_a_deck_file(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text(
        Path(__file__).resolve().parents[1].joinpath("simcore/games/dreamscape/data/default_deck.toml").read_text()
    )
    result = run("play", "--players", "2", "--swap", "FF:ID", "--swap", "NT:ED", "--deck", str(deck))
    assert result.exit_code == 0, result.output
    # R1.4: 52 - 13 (FF) - 13 (NT) + 2 (the two FF/NT cards were removed twice) = 28 base
    # cards, plus 14 ID cards + 14 ED cards - 2 ID/ED cards counted in both = 26: 54 cards.
    assert "deck FF:ID+NT:ED (54 cards" in result.output


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, words",
    [
        (["play", "--players", "5"], ["--players", "1 to 4"]),
        (["play", "--players", "0"], ["--players"]),
        (["play", "--players", "three"], ["--players"]),
        (["play", "--swap", "FF:XX"], ["unknown dream type", "XX"]),
        (["play", "--swap", "FFID"], ["FFID"]),
        (["play", "--swap", "ID:FF"], ["cannot remove ID"]),
        (["play", "--swap", "FF:NT"], ["cannot add NT"]),
        (["play", "--swap", "FF:ID", "--swap", "NT:ID"], ["added twice"]),
        (["play", "--strategy", "genius"], ["unknown strategy", "genius"]),
        (["play", "--players", "3", "--strategy", "random", "--strategy", "greedy"], ["one --strategy per seat"]),
        (["play", "--deck", "/nonexistent/deck.toml"], ["cannot read deck file"]),
        (["decks", "--swaps", "quadruple"], ["--swaps"]),
        (["no-such-command"], ["no-such-command"]),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(args, words):
    assert_one_line_error(run(*args), *words)


@pytest.mark.parametrize(
    "content, words",
    [
        ("[base\n", ["not valid TOML"]),
        ('[base]\n"FF/FF" = 2\n', ["same dream type twice"]),
        ('[base]\n"FF/QQ" = 2\n', ["unknown dream type", "QQ"]),
        ('[base]\n"FF/IS" = -1\n', ["count"]),
        ('[base]\n"FF/IS" = 2\n"IS/FF" = 1\n', ["twice"]),
        ('[base]\n"FF/ID" = 2\n', ["expansion type"]),
        ('[base]\n"FF/IS" = 3\n', ["too small to set up"]),
    ],
)
def test_malformed_deck_files_get_one_line_and_exit_2(tmp_path, content, words):
    deck = tmp_path / "mine.toml"
    deck.write_text(content)
    result = run("play", "--deck", str(deck))
    assert_one_line_error(result, str(deck), *words)


# ----------------------------------------------------------------------------- decks


def test_decks_lists_165_swap_decks_and_single_swaps():
    result = run("decks")
    assert result.exit_code == 0
    assert result.output.strip().splitlines()[-1].startswith("165 deck(s)")
    single = run("decks", "--swaps", "single")
    rows = single.output.strip().splitlines()[1:-1]
    assert len(rows) == 24  # 8 base types x 3 expansion types (R1.4)
    for row in rows:
        label, size, *counts = row.split()
        counts = list(map(int, counts))
        removed, added = label.split(":")
        assert counts[["FF", "IS", "NT", "LD", "PR", "RD", "CD", "SD", "ID", "ED", "PS"].index(added)] == 14
        assert counts[["FF", "IS", "NT", "LD", "PR", "RD", "CD", "SD"].index(removed)] == 0
        assert int(size) == 52 - 13 + 14  # remove 13 cards with the type, add its 14 (R1.4)


def test_simulate_knows_every_builtin_bot_by_name_in_a_fresh_process(tmp_path):
    # A fresh interpreter: nothing registered beforehand, as for a user's first command.
    import subprocess
    import sys

    code = ("import sys; from cli import app; sys.argv = ['dreamscape', 'simulate', '--games', '20', '--json', "
            "'--strategy', 'chain', '--strategy', 'economist', '--strategy', 'spoiler']; app()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr
    assert [s["strategy"] for s in json.loads(done.stdout)["seats"]] == ["chain", "economist", "spoiler"]
