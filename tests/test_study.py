"""The study runner: chunks, resume after an interruption, chunk-size independence."""
from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analyses.study import RunConfig, Study, StudyError, load_manifest, scan_games
from simcore.cards import N_TYPES
from simcore.fast.runner import SimResult
from simcore.rng import mix64

CONFIG = RunConfig("sleep-token", 3, ("greedy", "greedy", "random"))


def fake_chunk(config, seed, first, games):
    """Deterministic in (seed, game) like the engines: a stand-in that needs no compiling."""
    p = config.players
    vals = np.array([[mix64(seed * 1_000_003 + g * 7 + s) for s in range(p)] for g in range(first, first + games)], dtype=np.uint64)
    score = (vals % np.uint64(40)).astype(np.int32) - 5
    win = np.zeros((games, p))
    best = score.max(axis=1, keepdims=True)
    win[score == best] = 1.0
    win /= win.sum(axis=1, keepdims=True)
    perf = (vals[:, :, None] >> np.arange(N_TYPES, dtype=np.uint64)) % np.uint64(3)
    return SimResult(
        players=p, strategies=list(config.strategies), first_game=first,
        score=score, z=(vals % np.uint64(5)).astype(np.int32) + 1, turns=np.full((games, p), 12, np.int32),
        win=win, length=np.full(games, 36, np.int32), aborted=np.zeros(games, bool),
        performed=perf.astype(np.int32), chain_by_type=(perf * 2).astype(np.int32),
    )


def table(folder) -> pl.DataFrame:
    return scan_games(folder).collect().sort(["config", "game", "seat"])


def test_a_study_writes_every_game_once(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=1000, seed=5, chunk_size=300).run(fake_chunk, progress=False)
    df = table(tmp_path / "s")
    assert df.height == 3000
    assert df["game"].n_unique() == 1000 and df["game"].min() == 0 and df["game"].max() == 999
    m = load_manifest(tmp_path / "s")
    assert [r.first for r in m.chunks[CONFIG.id]] == [0, 300, 600, 900]
    assert m.done_games(CONFIG.id) == 1000
    assert m.versions["numba"] and m.seed == 5


def test_results_do_not_depend_on_chunk_size(tmp_path):
    Study(tmp_path / "a", [CONFIG], games=700, seed=9, chunk_size=100).run(fake_chunk, progress=False)
    Study(tmp_path / "b", [CONFIG], games=700, seed=9, chunk_size=333).run(fake_chunk, progress=False)
    assert table(tmp_path / "a").equals(table(tmp_path / "b"))


def test_resume_after_a_kill_gives_exactly_the_uninterrupted_result(tmp_path):
    Study(tmp_path / "whole", [CONFIG], games=900, seed=3, chunk_size=200).run(fake_chunk, progress=False)

    calls = []

    def dies_on_third_chunk(config, seed, first, games):
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the third chunk
        calls.append(first)
        return fake_chunk(config, seed, first, games)

    with pytest.raises(KeyboardInterrupt):
        Study(tmp_path / "cut", [CONFIG], games=900, seed=3, chunk_size=200).run(dies_on_third_chunk, progress=False)
    m = load_manifest(tmp_path / "cut")
    assert m.done_games(CONFIG.id) == 400  # the two finished chunks are kept
    # Re-running the same command resumes: only the missing chunks are computed.
    computed = []

    def counting(config, seed, first, games):
        computed.append(first)
        return fake_chunk(config, seed, first, games)

    Study(tmp_path / "cut", [CONFIG], games=900, seed=3, chunk_size=200).run(counting, progress=False)
    assert computed == [400, 600, 800]
    assert table(tmp_path / "cut").equals(table(tmp_path / "whole"))


def test_a_crash_while_writing_leaves_no_half_chunk(tmp_path, monkeypatch):
    study = Study(tmp_path / "s", [CONFIG], games=200, seed=1, chunk_size=100)

    original = pl.DataFrame.write_parquet
    def broken_write(self, path, *a, **k):
        original(self, path, *a, **k)
        raise OSError("disk full")
    monkeypatch.setattr(pl.DataFrame, "write_parquet", broken_write)
    with pytest.raises(OSError):
        study.run(fake_chunk, progress=False)
    monkeypatch.undo()
    m = load_manifest(tmp_path / "s")
    assert m.done_games(CONFIG.id) == 0  # not marked done: it will be recomputed
    Study(tmp_path / "s", [CONFIG], games=200, seed=1, chunk_size=100).run(fake_chunk, progress=False)
    assert table(tmp_path / "s").height == 600


def test_resume_with_another_seed_is_refused(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=10, seed=1, chunk_size=10).run(fake_chunk, progress=False)
    with pytest.raises(StudyError, match="seed 1"):
        Study(tmp_path / "s", [CONFIG], games=10, seed=2)


def test_a_damaged_manifest_is_a_clear_error(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=10, seed=1, chunk_size=10).run(fake_chunk, progress=False)
    (tmp_path / "s" / "manifest.json").write_text("{ broken")
    with pytest.raises(StudyError, match="damaged manifest"):
        load_manifest(tmp_path / "s")


def test_a_missing_chunk_file_is_a_clear_error(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=20, seed=1, chunk_size=10).run(fake_chunk, progress=False)
    m = json.loads((tmp_path / "s" / "manifest.json").read_text())
    (tmp_path / "s" / m["chunks"][CONFIG.id][0]["file"]).unlink()
    with pytest.raises(StudyError, match="chunk file missing"):
        scan_games(tmp_path / "s")


# ----------------------------------------------------------------------------- through the CLI


def test_simulate_out_writes_a_study_that_summarize_reloads_and_resumes(tmp_path):
    from typer.testing import CliRunner

    from analyses.balance import seat_advantage
    from cli import app

    runner = CliRunner()
    out = tmp_path / "study"
    args = ["simulate", "--players", "3", "--games", "3000", "--seed", "4", "--chunk-size", "1000", "--out", str(out)]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    seats = seat_advantage(out)
    assert seats["games"].to_list() == [3000, 3000, 3000]
    # Win credits of a game add up to 1 (R8.3, no aborted games), so the three rates sum to 1.
    assert abs(sum(seats["win_rate"].to_list()) - 1.0) < 1e-9
    # The same numbers as a plain simulate with the same seed.
    plain = runner.invoke(app, ["simulate", "--players", "3", "--games", "3000", "--seed", "4", "--json"])
    rates = [s["win_rate"] for s in json.loads(plain.stdout)["seats"]]
    assert seats["win_rate"].to_list() == pytest.approx(rates, abs=1e-12)
    again = runner.invoke(app, args)  # a re-run resumes: nothing left to play
    assert again.exit_code == 0
    summary = runner.invoke(app, ["summarize", str(out), "--json"])
    assert summary.exit_code == 0
    assert json.loads(summary.stdout)["seats"][0]["games"] == 3000


def test_summarize_a_damaged_folder_is_one_line_exit_2(tmp_path):
    from typer.testing import CliRunner

    from cli import app

    (tmp_path / "manifest.json").write_text("{ nope")
    result = CliRunner().invoke(app, ["summarize", str(tmp_path)])
    assert result.exit_code == 2 and "damaged manifest" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(app, ["summarize", str(tmp_path / "nothing")])
    assert result.exit_code == 2 and "not a study folder" in result.output
