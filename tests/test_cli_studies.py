"""The study commands through typer's CliRunner, on the real engine with small game counts."""
from __future__ import annotations

import json
import types
from pathlib import Path

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint
from typer.testing import CliRunner

from analyses.study.folder import load_manifest, scan_aggs
from cli import app
from cli_checks import assert_one_line_error

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def ok(*args: str):
    result = run(*args)
    assert result.exit_code == 0, result.output
    return result


def as_json(result) -> dict:
    return json.loads(result.stdout)


# ----------------------------------------------------------------------------- simulate --out


def test_simulate_out_with_variant_deck_and_aggregates_resumes_and_summarizes(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text((ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text())
    out = tmp_path / "s"
    args = ["simulate", "--players", "2", "--variant", "sleep-token+FF:ID", "--deck", deck, "--games", "600",
            "--chunk-size", "250", "--aggregate-only", "--seed", "3", "--out", out, "--json",
            "--no-distance"]  # the folder and its numbers are the point; the distance from search is test_whatif's
    first = as_json(ok(*args))
    m = load_manifest(out)
    assert m.aggregate_only and m.deck["source"] == str(deck) and m.configs[0].variant == "sleep-token+FF:ID"
    assert first["seats"][0]["games"] == 600 and first["kinds"] == ["seats", "sweep", "types"]
    # The same numbers as the plain command with the same flags.
    plain = as_json(ok("simulate", "--players", "2", "--sleep-token", "--swap", "FF:ID", "--games", "600", "--seed", "3", "--json",
                       "--no-distance"))
    assert [s["win_rate"] for s in first["seats"]] == pytest.approx([s["win_rate"] for s in plain["seats"]], abs=1e-12)
    again = ok(*args)  # resume: nothing left to play, the same summary
    assert as_json(again)["seats"] == first["seats"]
    text = ok("summarize", out).output
    assert "2 players, variant sleep-token+FF:ID" in text and "win rate (95% CI)" in text


def test_simulate_to_a_precision_and_its_cap(tmp_path):
    # --games is the first round: 200 games leave a seat's interval wider than +-0.04 (a rate near 3/4 needs
    # about 1.96**2 * 0.75 * 0.25 / 0.04**2 = 450 games), so the run must add rounds and stop near that need
    # (without --games the first round was the default 100,000 games, and no round was ever added)
    data = as_json(ok("simulate", "--players", "2", "--precision", "0.04", "--games", "200", "--chunk-size", "200",
                      "--out", tmp_path / "p", "--json"))
    for seat in data["seats"]:
        lo, hi = proportion_confint(seat["win_rate"] * seat["games"], seat["games"], alpha=0.05, method="wilson")
        assert (hi - lo) / 2 <= 0.04
        assert 200 < seat["games"] < 1000
    capped = as_json(ok("simulate", "--players", "2", "--precision", "0.001", "--max-games", "300", "--chunk-size", "200",
                        "--out", tmp_path / "c", "--json"))
    assert {s["games"] for s in capped["seats"]} == {300}


# ----------------------------------------------------------------------------- compare


def test_compare_pairs_variants_on_the_same_deals(tmp_path):
    out = tmp_path / "cmp"
    data = as_json(ok("compare", "--variant", "base", "--variant", "shifting-tokens", "--players", "3", "--strategy", "linear",
                      "--games", "1500", "--chunk-size", "500", "--out", out, "--json"))
    assert data["kinds"] == ["compare", "seats", "types"]
    rows = {r["metric"]: r for r in data["compare"]}
    assert set(rows) == {"seat_spread", "first_seat_win", "winning_score", "game_length"}
    length = rows["game_length"]
    assert length["paired"] and length["baseline"] == "base" and length["variant"] == "shifting-tokens"
    # Common random numbers: shifting tokens changes few games, so the paired interval is much narrower.
    assert length["diff_high"] - length["diff_low"] < 0.7 * (length["unpaired_high"] - length["unpaired_low"])
    text = ok("summarize", out).output
    assert "Variants against the baseline" in text and "game length" in text  # compare's metric labels
    from reports.numbers import change_with_interval  # and its form of a change: +0.05 (+0.01 to +0.09)

    assert change_with_interval(length["diff"], length["diff_low"], length["diff_high"], 2, 1.0) + "*" * length["significant"] in text


# ----------------------------------------------------------------------------- sweep


def test_sweep_of_a_filter_writes_an_aggregate_study(tmp_path):
    out = tmp_path / "sw"
    # --no-distance: the table and the folder are the point here; the changed decks' distance from search (search
    # games per changed row) is tests/test_whatif.py's
    data = as_json(ok("sweep", "--swaps", "FF:ID,NT:ED", "--players", "2", "--options", "base,sleep-token", "--games", "300",
                      "--out", out, "--json", "--no-distance"))
    variants = sorted(r["variant"] for r in data["sweep"])
    assert variants == sorted(["base", "FF:ID", "NT:ED", "sleep-token", "sleep-token+FF:ID", "sleep-token+NT:ED"])
    assert load_manifest(out).aggregate_only
    assert all(r["games"] == 300 and r["strongest_type"] for r in data["sweep"])
    text = ok("summarize", out).output
    assert "Swap sweep" in text and "2 players: 6 configurations" in text


# ----------------------------------------------------------------------------- tournament, solo


def test_tournament_out_gives_the_in_memory_standings(tmp_path):
    args = ["tournament", "--strategy", "greedy", "--strategy", "random", "--strategy", "chain", "--players", "2",
            "--games", "150", "--seed", "6", "--json"]
    memory = as_json(ok(*args))
    study = as_json(ok(*args, "--out", tmp_path / "t", "--chunk-size", "100"))
    assert study["folder"] == str(tmp_path / "t")
    for a, b in zip(memory["standings"], study["standings"]):
        assert a["strategy"] == b["strategy"] and a["games"] == b["games"]
        assert (a["win_rate"], a["rating"]) == pytest.approx((b["win_rate"], b["rating"]), abs=1e-12)
    assert study["payoff"] == memory["payoff"] and study["dominant"] == memory["dominant"]
    summary = as_json(ok("summarize", tmp_path / "t", "--json"))
    assert {"tournament", "skill"} <= set(summary["kinds"])
    assert summary["tournament"][0]["standings"][0]["strategy"] == memory["standings"][0]["strategy"]


def test_solo_reports_the_rulebook_bands(tmp_path):
    data = as_json(ok("solo", "--strategy", "greedy", "--strategy", "random", "--variant", "base", "--games", "400",
                      "--out", tmp_path / "solo", "--json"))
    assert data["kinds"] == ["solo"]
    for strategy in ("greedy", "random"):
        rows = [r for r in data["solo"] if r["strategy"] == strategy]
        assert [r["band"] for r in rows] == ["under 15", "15-24", "25-34", "35-44", "45-54", "55+"]
        assert sum(r["count"] for r in rows) == 400
    text = ok("summarize", tmp_path / "solo").output
    assert "Solo score bands" in text and "under 15" in text


# ----------------------------------------------------------------------------- report and study delegate


def test_report_and_study_delegate_to_the_games_report_and_the_lab(tmp_path, monkeypatch):
    """``report`` builds the report the folder's game declares; ``study`` runs the lab's study runner
    (it was ``reports.main_study.run_main_study``: studies are run by the lab, issue #25)."""
    import analyses.lab.studies
    import reports.games.dreamscape

    ok("simulate", "--players", "2", "--games", "100", "--out", tmp_path / "s")
    calls = {}

    def build_report(folder, pdf=None, png_dir=None):
        calls["report"] = (Path(folder), pdf, png_dir)
        return types.SimpleNamespace(pdf=tmp_path / "r.pdf", pngs=[tmp_path / "a.png"])

    monkeypatch.setattr(reports.games.dreamscape, "build_report", build_report)
    out = ok("report", tmp_path / "s", "--pdf", tmp_path / "r.pdf").output
    assert calls["report"] == (tmp_path / "s", tmp_path / "r.pdf", None)
    assert str(tmp_path / "r.pdf") in out and str(tmp_path / "a.png") in out

    def run_study(out=None, quick=False, config=None, seed=1, progress=True, backend=None, restart_changed=False):
        calls["study"] = (out, quick, config, seed, backend.name, restart_changed)
        return tmp_path / "study-x"

    monkeypatch.setattr(analyses.lab.studies, "run_study", run_study)
    out = ok("study", "--quick", "--out", tmp_path / "o", "--seed", "7").output
    assert calls["study"] == (tmp_path / "o", True, None, 7, "local", False)
    assert str(tmp_path / "study-x") in out
    ok("study", "--quick", "--out", tmp_path / "o", "--restart-changed")  # the bot rows' restart, passed on
    assert calls["study"] == (tmp_path / "o", True, None, 1, "local", True)


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, words",
    [
        (["compare", "--variant", "base", "--out", "{tmp}/x"], ["at least two different variants"]),
        (["compare", "--variant", "base", "--variant", "sleepy", "--out", "{tmp}/x"], ["unknown token", "sleepy"]),
        (["compare", "--variant", "base", "--variant", "FF:NT", "--out", "{tmp}/x"], ["cannot add NT"]),
        (["compare", "--variant", "base", "--variant", "sleep-token", "--players", "2", "--players", "3",
          "--strategy", "greedy", "--strategy", "random", "--out", "{tmp}/x"], ["one --strategy for all seats"]),
        (["sweep", "--swaps", "QQ:*", "--out", "{tmp}/x"], ["no swap deck matches"]),
        (["sweep", "--options", "sleepy", "--out", "{tmp}/x"], ["unknown option set"]),
        (["sweep", "--players", "1", "--out", "{tmp}/x"], ["2 to 4"]),
        (["sweep", "--precision", "0.7", "--out", "{tmp}/x"], ["--precision"]),
        (["simulate", "--precision", "0.01"], ["add --out"]),
        (["simulate", "--variant", "base", "--sleep-token"], ["not both"]),
        (["simulate", "--out", "{tmp}/x", "--max-games", "0", "--precision", "0.1"], ["--max-games"]),
        (["simulate", "--out", "{tmp}/x", "--backend", "cloud"], ["unknown backend", "cloud"]),
        (["solo", "--strategy", "genius", "--out", "{tmp}/x"], ["unknown strategy", "genius"]),
        (["solo", "--games", "0", "--out", "{tmp}/x"], ["--games"]),
        (["tournament", "--strategy", "greedy", "--out", "{tmp}/x"], ["two different"]),
        (["summarize", "{tmp}/nothing"], ["not a study folder"]),
        (["report", "{tmp}/nothing"], ["not a study folder"]),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, words):
    assert_one_line_error(run(*[a.replace("{tmp}", str(tmp_path)) for a in args]), *words)


def test_a_bad_study_file_fails_before_anything_runs(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('players = 3\nstrategy = "genius"\n')
    assert_one_line_error(run("study", "--config", bad), str(bad), "genius")


def test_resuming_with_another_seed_or_a_damaged_chunk_is_one_line(tmp_path):
    out = tmp_path / "s"
    ok("simulate", "--players", "2", "--games", "200", "--chunk-size", "100", "--out", out)
    assert_one_line_error(run("simulate", "--players", "2", "--games", "200", "--seed", "2", "--out", out), "seed 1")
    next(out.glob("chunks/*/agg-000000000100.parquet")).unlink()
    assert_one_line_error(run("summarize", out), "chunk file missing")
    m = json.loads((out / "manifest.json").read_text())
    m["configs"][0]["players"] = "two"
    (out / "manifest.json").write_text(json.dumps(m))
    assert_one_line_error(run("summarize", out), "damaged manifest")


def test_the_aggregates_of_a_cli_study_add_up(tmp_path):
    ok("simulate", "--players", "3", "--games", "500", "--chunk-size", "200", "--out", tmp_path / "s")
    aggs = scan_aggs(tmp_path / "s").collect()
    assert aggs["n"].sum() == 3 * 500
    # Win credits of a game add up to 1 (R8.3) when no game is aborted (R8.4).
    assert aggs["sum_win"].sum() == pytest.approx(500 - aggs.filter(pl.col("seat") == 0)["aborted"].sum())


def test_simulate_without_a_folder_gives_the_same_summary_whatever_the_chunk_size():
    """Same seed, same numbers, bit for bit: one game a chunk, odd chunks or one chunk."""
    def summary(chunk):
        data = as_json(ok("simulate", "--players", "4", "--games", "60", "--seed", "11", "--chunk-size", chunk,
                          "--no-progress", "--json"))
        data.pop("seconds"), data.pop("games_per_s")
        return data

    one_chunk = summary("60")
    assert one_chunk["games"] == 60 and len(one_chunk["seats"]) == 4
    assert summary("1") == one_chunk and summary("7") == one_chunk
