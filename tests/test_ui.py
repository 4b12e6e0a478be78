"""The what-if page's work (analyses.lab.ui.core), without a browser: what can be changed, checks, a run, its
history, and the command line and study file it exports (tests/test_ui_browser.py drives the page itself)."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from analyses.lab.ui import core

ROOT = Path(__file__).resolve().parents[1]
GAMES = 400  # few games: the numbers are checked against another path to them, not against a size


def test_knobs_are_the_numbers_tables_knobs():
    """The rulebook's knobs (docs/guide/knobs.md): R2.2's Z cards at setup, printed 1; R2.3's market costs 1..5."""
    knobs = {k.token: k for k in core.knobs("dreamscape")}
    assert knobs["start-z"].rule == "R2.2" and knobs["start-z"].printed == "1"
    assert knobs["costs"].rule == "R2.3" and knobs["costs"].printed == "1, 2, 3, 4, 5"
    assert "chain" in knobs and "z-penalty" in knobs
    # Counting Zzzzs' Wake Ups removed (Z2.3) and Pleasant Dreams' starting wakefulness (P2.2) are knobs too
    assert "remove" in {k.token for k in core.knobs("counting-zzzzs")}
    assert core.knobs("pleasant-dreams")[0].token == "start" and core.knobs("pleasant-dreams")[0].rule == "P2.2"


def test_swaps_and_variants_are_the_games_own():
    """R1.4: 8 base types x 3 expansion types = 24 single swaps; the printed game is not offered as a change."""
    assert len(core.swaps("dreamscape")) == 24 and "FF:ID" in core.swaps("dreamscape")
    assert core.swaps("pleasant-dreams") == []
    assert "sleep-token" in core.variants("dreamscape", 3) and "base" not in core.variants("dreamscape", 3)


@pytest.mark.parametrize("change, words", [
    (core.Change(kind="knob", name="start-z", value="9"), "outside 0..3"),
    (core.Change(kind="knob", name="costs", value="1,2"), "takes 5 values"),
    (core.Change(kind="knob", name="start-z", value="1"), "printed game"),
    (core.Change(kind="variant", value="nonsense"), "unknown token"),
    (core.Change(players=7), "played by 1, 2, 3, 4 players"),
    (core.Change(kind="knob", name="start-z", value="0,1,1", games=0), "games must be"),
    (core.Change(kind="swap", value=""), "pick a swap"),
])
def test_bad_input_is_one_line(change, words):
    with pytest.raises(core.LabInputError) as error:
        core.check(change)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_broken_card_file_is_one_line(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("this is [not toml", encoding="utf-8")
    with pytest.raises(core.LabInputError) as error:
        core.check(core.Change(kind="cards", value=str(broken)))
    assert "broken.toml" in str(error.value) and "\n" not in str(error.value)


@pytest.fixture(scope="module")
def knob_run():
    change = core.Change(kind="knob", name="start-z", value="0,1,1", games=GAMES, seed=3, distance=False)
    seen = []
    result = core.run(change, progress=lambda stage, done, total: seen.append((stage, done, total)))
    return change, result, seen


def test_a_run_reports_progress_of_the_paired_games(knob_run):
    _, _, seen = knob_run
    # two sides x GAMES games, in chunks of CHUNK_SIZE: the bar ends full
    assert seen[-1] == ("games", 2 * GAMES, 2 * GAMES)


def test_seat_effects_agree_with_the_compare_rows(knob_run):
    """Seat 1's paired change is compare's first_seat_win row (two code paths); one game's win credits add up
    to 1 on both sides (a winner, or 1/k for k shared winners), so the seats' changes add up to 0."""
    _, result, _ = knob_run
    first = next(r for r in result["rows"] if r["metric"] == "first_seat_win")
    seats = result["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    assert seats[0]["win_rate_diff"] == pytest.approx(first["diff"], abs=1e-12)
    assert seats[0]["win_rate_base"] == pytest.approx(first["baseline_value"], abs=1e-12)
    assert sum(s["win_rate_diff"] for s in seats) == pytest.approx(0, abs=1e-9)
    assert all(s["win_rate_low"] <= s["win_rate_diff"] <= s["win_rate_high"] for s in seats)


def test_the_exported_command_line_gives_the_same_numbers(knob_run, tmp_path):
    change, result, _ = knob_run
    words = core.command_line(change).split()
    assert words[:2] == ["dreamscape", "compare"]
    env = dict(os.environ, DREAMSCAPE_SERVER="off")
    done = subprocess.run([str(Path(sys.executable).parent / "dreamscape"), *words[1:], "--out", str(tmp_path / "c")],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout)
    rows = printed["compare"]  # the folder's summary keeps the comparison's rows under "compare"
    assert [(r["metric"], r["diff"], r["diff_low"], r["diff_high"]) for r in rows] == \
        [(r["metric"], r["diff"], r["diff_low"], r["diff_high"]) for r in result["rows"]]


def test_the_sentence_says_the_numbers(knob_run):
    _, result, _ = knob_run
    first = next(r for r in result["rows"] if r["metric"] == "first_seat_win")
    text = core.sentence(result)
    assert f"{100 * first['diff']:+.1f} points" in text and f"{GAMES:,} deals" in text


def test_the_study_file_plays_the_same_configurations(tmp_path):
    from analyses.lab.studies import study_plan

    change = core.Change(kind="knob", name="start-z", value="0,1,1", games=GAMES, seed=3)
    path = tmp_path / "whatif.toml"
    path.write_text(core.study_file(change), encoding="utf-8")
    assert "--seed 3" in core.study_file(change)  # the command's --seed sets a study's seed, so the file says it
    plan = study_plan("dreamscape", config=path, seed=3)
    assert [(c.players, c.variant) for c in plan.configs] == [(3, "base"), (3, "knob:start-z=0,1,1")]
    assert plan.seed == 3 and plan.games_of(plan.configs[0]) == GAMES


# The numbers two paths to the same paired comparison must agree on, bit for bit: the games, both sides' values,
# the paired difference and its interval.
NUMBERS = ("metric", "games", "baseline_value", "variant_value", "diff", "diff_low", "diff_high")


def exported_commands(text: str, path: Path, folder: Path) -> list[list[str]]:
    """The ``dreamscape study`` commands a study file's first lines give, as argv for this file and folder
    (``whatif.toml`` is where the page's download is saved; each ``--out`` gets a folder of its own)."""
    commands = []
    for line in text.splitlines():
        if not line.startswith("#") or "dreamscape study" not in line:
            continue
        words = shlex.split(line.partition("dreamscape study")[2].partition(" (")[0])
        words = [str(path) if w == "whatif.toml" else w for w in words]
        at = words.index("--out")
        words[at + 1] = str(folder / words[at + 1])
        commands.append(["study", *words])
    return commands


def play_study(argv: list[str]) -> Path:
    """``dreamscape study ...`` in this process (the engine already loaded); the study folder it wrote."""
    from typer.testing import CliRunner

    from cli import app

    done = CliRunner().invoke(app, argv, env={"DREAMSCAPE_SERVER": "off"})
    assert done.exit_code == 0, done.output
    return Path(argv[argv.index("--out") + 1])


def test_a_history_entrys_study_file_plays_the_pages_numbers(knob_run, tmp_path):
    """The study file exported from a history entry, played as its first line says (``dreamscape study --config
    whatif.toml --seed S --out DIR``), plays the page's games: game g of both is dealt from the stream (seed, g)
    and played by the same bots, so the paired comparison of the study folder is the page's, bit for bit, every
    metric and every seat (simcore.rng; only the chunk size differs, which changes no game)."""
    from analyses.tools.compare import compare_variants

    change, result, _ = knob_run
    history = core.History.load(tmp_path / "history.json")
    entry = history.add(change, result)
    reopened = core.as_change(core.History.load(tmp_path / "history.json").get(entry["id"])["change"])
    text = core.study_file(reopened)
    path = tmp_path / "whatif.toml"
    path.write_text(text, encoding="utf-8")
    (command,) = exported_commands(text, path, tmp_path)
    assert command[command.index("--seed") + 1] == str(change.seed)
    folder = play_study(command)
    rows = compare_variants(folder).to_dicts()
    assert [r["variant"] for r in rows] == ["knob:start-z=0,1,1"] * len(rows) and len(rows) == 4
    assert [[r[k] for k in NUMBERS] for r in rows] == [[r[k] for k in NUMBERS] for r in result["rows"]]
    assert core.seat_effects([folder]) == result["seats"]


def test_a_card_files_study_file_plays_the_pages_numbers(tmp_path):
    """An uploaded deck (the default deck with one more FF/IS card, R1.3) on the page, and its exported study file
    played as its first lines say: the uploaded cards, then the game's own (``--cards``) into a second folder on
    the same seed. Paired deck against deck, the two folders give the page's numbers bit for bit."""
    import re

    from analyses.tools.compare import compare_decks

    own = core.own_card_file(core.get_game("dreamscape"))
    deck = re.sub(r'^"FF/IS" = (\d+)$', lambda m: f'"FF/IS" = {int(m.group(1)) + 1}', own.read_text("utf-8"),
                  count=1, flags=re.M)
    assert deck != own.read_text("utf-8")
    kept = core.keep_card_file("one-more-ff-is.toml", deck.encode(), tmp_path / "data")
    change = core.Change(game="dreamscape", players=3, kind="cards", value=str(kept), games=GAMES, seed=2,
                         distance=False)
    result = core.run(change)
    text = core.study_file(change)
    path = tmp_path / "whatif.toml"
    path.write_text(text, encoding="utf-8")
    changed, printed = (play_study(c) for c in exported_commands(text, path, tmp_path))
    rows = compare_decks([printed, changed], ["printed", "changed"]).to_dicts()
    assert len(rows) == 4 and any(r["diff"] != 0 for r in rows)  # one more card changes some games
    assert [[r[k] for k in NUMBERS] for r in rows] == [[r[k] for k in NUMBERS] for r in result["rows"]]
    assert core.seat_effects([printed, changed]) == result["seats"]


def test_cancel_stops_the_run_at_the_next_chunk():
    change = core.Change(kind="knob", name="start-z", value="0,1,1", games=4 * core.CHUNK_SIZE, distance=False)
    cancel, seen = threading.Event(), []

    def told(stage, done, total):
        seen.append(done)
        cancel.set()  # the designer presses Cancel as the first chunk ends

    with pytest.raises(core.RunCancelled):
        core.run(change, progress=told, cancel=cancel)
    assert seen == [core.CHUNK_SIZE]  # one chunk of the eight played


def test_history_is_kept_in_its_file(tmp_path):
    history = core.History.load(tmp_path / "h.json")
    change = core.Change(kind="swap", value="FF:ID")
    entry = history.add(change, {"rows": [], "games": 1})
    again = core.History.load(tmp_path / "h.json")
    assert again.get(entry["id"])["change"] == entry["change"]
    assert core.as_change(again.entries[0]["change"]) == change


def test_a_broken_history_file_is_set_aside(tmp_path):
    (tmp_path / "h.json").write_text("{not json", encoding="utf-8")
    assert core.History.load(tmp_path / "h.json").entries == []
    assert (tmp_path / "h.bad").is_file()


def test_an_uploaded_card_file_is_kept_by_content(tmp_path):
    text = (ROOT / "simcore/games/pleasant_dreams/cards.toml").read_bytes()
    first = core.keep_card_file("my cards.toml", text, tmp_path)
    assert first == core.keep_card_file("my cards.toml", text, tmp_path) and first.read_bytes() == text
    core.check(core.Change(game="pleasant-dreams", players=2, kind="cards", value=str(first)))


def test_the_command_takes_no_bad_port():
    env = dict(os.environ, DREAMSCAPE_SERVER="off")
    done = subprocess.run([str(Path(sys.executable).parent / "dreamscape"), "ui", "--port", "0", "--no-browser"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1 and "--port" in done.stderr


def test_a_card_file_equal_to_the_games_own_changes_nothing(tmp_path):
    """The uploaded file is compared with the game's own cards on the same deals: the same cards played on the
    same deals give the same games, so every paired change is exactly 0 (compare_decks' own check)."""
    own = core.own_card_file(core.get_game("pleasant-dreams"))
    copy = core.keep_card_file("same.toml", own.read_bytes(), tmp_path)
    change = core.Change(game="pleasant-dreams", players=2, kind="cards", value=str(copy), games=200, distance=False)
    result = core.run(change)
    assert result["compared"] == "decks" and result["rows"]
    assert all(r["diff"] == 0 and r["diff_low"] == 0 == r["diff_high"] for r in result["rows"])
    assert all(s["win_rate_diff"] == 0 for s in result["seats"])
    assert "--cards" in core.command_line(change) and str(own) in core.command_line(change)


def test_a_swap_is_played_as_its_variant():
    change = core.Change(kind="swap", value="FF:ID", players=2, games=200, distance=False)
    result = core.run(change)
    assert result["sides"] == ["base", "FF:ID"] and result["players"] == [2]
    assert {r["metric"] for r in result["rows"]} == {"seat_spread", "first_seat_win", "winning_score", "game_length"}


def test_a_taken_port_is_one_line():
    import socket

    env = dict(os.environ, DREAMSCAPE_SERVER="off")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = subprocess.run([str(Path(sys.executable).parent / "dreamscape"), "ui", "--port", str(port),
                               "--no-browser"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stderr.strip() == \
        f"dreamscape: error: port {port} is taken on 127.0.0.1: give another --port, or none for a free one"


@pytest.mark.parametrize("game, players, cards", [
    ("pleasant-dreams", 2, "simcore/games/pleasant_dreams/cards.toml"),
    ("dreamscape", 3, "simcore/games/dreamscape/data/default_deck.toml"),
])
def test_the_study_file_of_a_card_file_plays_it(game, players, cards, tmp_path):
    from analyses.lab.studies import study_plan

    change = core.Change(game=game, players=players, kind="cards", value=str(ROOT / cards), games=GAMES)
    path = tmp_path / "whatif.toml"
    path.write_text(core.study_file(change), encoding="utf-8")
    plan = study_plan(game, config=path, seed=1)
    assert [(c.players, c.variant) for c in plan.configs] == [(players, "base")]
    assert plan.game.cards is not None or plan.game.deck is not None  # the file's cards are the study's


def test_metrics_are_named_as_the_command_line_names_them(knob_run):
    """The page's metric table and chart say "seat 1 wins", as compare's table does, not the column name."""
    from analyses.lab.ui.page import metrics_table

    _, result, _ = knob_run
    table = metrics_table(result)
    assert "seat 1 wins" in table and "seat spread" in table and "first seat win" not in table
    assert [core.metric_label(m) for m in ("first_seat_win", "game_length")] == ["seat 1 wins", "game length"]
