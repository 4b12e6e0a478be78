"""The study runner: chunks, resume after an interruption, chunk-size independence."""
from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analyses.study.model import RunConfig, StudyError
from analyses.study.folder import Study, load_manifest, scan_games
from simcore.games.dreamscape.cards import N_TYPES
from simcore.games.dreamscape.fast.runner import SimResult
from simcore.games.dreamscape.study_tables import study_result
from simcore.rng import mix64

CONFIG = RunConfig("sleep-token", 3, ("greedy", "greedy", "random"))


def fake_chunk(task):
    """Deterministic in (seed, game) like the engines: a stand-in that needs no compiling."""
    config, seed, first, games = task.config, task.seed, task.first, task.games
    p = config.players
    vals = np.array([[mix64(seed * 1_000_003 + g * 7 + s) for s in range(p)] for g in range(first, first + games)], dtype=np.uint64)
    score = (vals % np.uint64(40)).astype(np.int32) - 5
    win = np.zeros((games, p))
    best = score.max(axis=1, keepdims=True)
    win[score == best] = 1.0
    win /= win.sum(axis=1, keepdims=True)
    perf = (vals[:, :, None] >> np.arange(N_TYPES, dtype=np.uint64)) % np.uint64(3)
    return study_result(SimResult(
        players=p, strategies=list(config.strategies), first_game=first,
        score=score, z=(vals % np.uint64(5)).astype(np.int32) + 1, turns=np.full((games, p), 12, np.int32),
        win=win, length=np.full(games, 36, np.int32), aborted=np.zeros(games, bool),
        performed=perf.astype(np.int32), chain_by_type=(perf * 2).astype(np.int32),
    ))


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

    def dies_on_third_chunk(task):
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the third chunk
        calls.append(task.first)
        return fake_chunk(task)

    with pytest.raises(KeyboardInterrupt):
        Study(tmp_path / "cut", [CONFIG], games=900, seed=3, chunk_size=200).run(dies_on_third_chunk, progress=False)
    m = load_manifest(tmp_path / "cut")
    assert m.done_games(CONFIG.id) == 400  # the two finished chunks are kept
    # Re-running the same command resumes: only the missing chunks are computed.
    computed = []

    def counting(task):
        computed.append(task.first)
        return fake_chunk(task)

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
    (tmp_path / "s" / m["chunks"][CONFIG.id][0]["files"]["games"]).unlink()
    with pytest.raises(StudyError, match="chunk file missing"):
        scan_games(tmp_path / "s")


# ----------------------------------------------------------------------------- through the CLI


def test_simulate_out_writes_a_study_that_summarize_reloads_and_resumes(tmp_path):
    from typer.testing import CliRunner

    from analyses.games.dreamscape.balance import seat_advantage
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


# ----------------------------------------------------------------------------- format version 2

from analyses.study import folder as study_module  # noqa: E402
from analyses.study.model import ChunkTask  # noqa: E402
from analyses.study.folder import scan_aggs, scan_pairs  # noqa: E402
from fake_chunks import CARD_LABELS, fake_chunk as fake_task_chunk  # noqa: E402


def test_every_chunk_has_agg_games_and_pairs_files(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=250, seed=2, chunk_size=100).run(fake_task_chunk, progress=False)
    m = load_manifest(tmp_path / "s")
    assert m.format_version == 2
    recs = m.chunks[CONFIG.id]
    assert [(r.first, r.games) for r in recs] == [(0, 100), (100, 100), (200, 50)]
    for r in recs:
        assert set(r.files) == {"agg", "games", "pairs"}
        assert all((tmp_path / "s" / f).is_file() for f in r.files.values())
    aggs = scan_aggs(tmp_path / "s").collect()
    assert aggs.height == 3 * 3  # three chunks x three seats
    # The chunk sums add up to the per-game rows.
    games = table(tmp_path / "s")
    assert aggs["n"].sum() == games.height
    assert aggs["sum_win"].sum() == pytest.approx(games["win"].sum())
    pairs = scan_pairs(tmp_path / "s").collect()
    assert sorted(pairs["card"].unique().to_list()) == sorted(set(CARD_LABELS))


def test_aggregate_only_keeps_no_per_game_rows(tmp_path):
    Study(tmp_path / "s", [CONFIG], games=200, seed=2, chunk_size=100, aggregate_only=True).run(fake_task_chunk, progress=False)
    m = load_manifest(tmp_path / "s")
    assert all(set(r.files) == {"agg", "pairs"} for r in m.chunks[CONFIG.id])
    assert not list((tmp_path / "s").rglob("games-*.parquet"))
    with pytest.raises(StudyError, match="aggregate-only"):
        scan_games(tmp_path / "s")
    assert scan_aggs(tmp_path / "s").collect()["n"].sum() == 3 * 200


def test_a_version_1_folder_is_refused_in_one_line(tmp_path):
    folder = tmp_path / "old"
    folder.mkdir()
    recs = [{"first": 0, "games": 100, "file": f"chunks/{CONFIG.id}/games-000000000000.parquet", "seconds": 0.1}]
    manifest = {"format_version": 1, "seed": 4, "chunk_size": 100, "aggregate_only": False,
                "configs": [CONFIG.to_json()], "target_games": {CONFIG.id: 200}, "chunks": {CONFIG.id: recs}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(StudyError, match="format version 1; this program reads version 2 only"):
        load_manifest(folder)


def test_manifest_saves_are_batched_but_the_end_is_always_saved(tmp_path, monkeypatch):
    saves = []
    original = study_module.save_manifest
    monkeypatch.setattr(study_module, "save_manifest", lambda folder, m: (saves.append(1), original(folder, m)))
    monkeypatch.setattr(study_module, "SAVE_EVERY", 3600.0)
    study = Study(tmp_path / "s", [CONFIG], games=2000, seed=1, chunk_size=50)
    before = len(saves)
    study.run(fake_task_chunk, progress=False)
    assert len(saves) - before == 1  # 40 chunks, one save at the end
    assert load_manifest(tmp_path / "s").done_games(CONFIG.id) == 2000


def test_chunks_finished_after_the_last_save_are_recomputed_on_resume(tmp_path):
    Study(tmp_path / "whole", [CONFIG], games=500, seed=3, chunk_size=100).run(fake_task_chunk, progress=False)
    Study(tmp_path / "cut", [CONFIG], games=500, seed=3, chunk_size=100).run(fake_task_chunk, progress=False)
    # A hard kill before the manifest was saved: the last two chunks have files but no entry.
    path = tmp_path / "cut" / "manifest.json"
    m = json.loads(path.read_text())
    m["chunks"][CONFIG.id] = m["chunks"][CONFIG.id][:3]
    path.write_text(json.dumps(m))
    computed = []

    def counting(task):
        computed.append(task.first)
        return fake_task_chunk(task)

    Study(tmp_path / "cut", [CONFIG], games=500, seed=3, chunk_size=100).run(counting, progress=False)
    assert computed == [300, 400]
    assert table(tmp_path / "cut").equals(table(tmp_path / "whole"))


class ReversedBackend:
    """Yields results in reverse order, like a cluster finishing chunks out of order."""

    def imap_unordered(self, fn, tasks):
        for i in reversed(range(len(tasks))):
            yield i, fn(tasks[i]), 0.0

    def close(self):
        pass


def test_a_backend_finishing_chunks_in_any_order_gives_the_same_study(tmp_path):
    Study(tmp_path / "a", [CONFIG], games=700, seed=8, chunk_size=100).run(fake_task_chunk, progress=False)
    Study(tmp_path / "b", [CONFIG], games=700, seed=8, chunk_size=100).run(fake_task_chunk, progress=False, backend=ReversedBackend())
    assert table(tmp_path / "a").equals(table(tmp_path / "b"))
    assert [r.first for r in load_manifest(tmp_path / "b").chunks[CONFIG.id]] == [0, 100, 200, 300, 400, 500, 600]


def test_a_target_that_grows_after_a_short_last_chunk_continues_it(tmp_path):
    study = Study(tmp_path / "s", [CONFIG], games=250, seed=1, chunk_size=100)
    study.run(fake_task_chunk, progress=False)
    study.set_target(CONFIG, 420)
    assert [(first, n) for _, first, n in study.pending_chunks()] == [(250, 50), (300, 100), (400, 20)]
    study.run(fake_task_chunk, progress=False)
    df = table(tmp_path / "s")
    assert df["game"].n_unique() == 420 and df.height == 3 * 420
    Study(tmp_path / "ref", [CONFIG], games=420, seed=1, chunk_size=100).run(fake_task_chunk, progress=False)
    assert df.equals(table(tmp_path / "ref"))


def test_the_deck_composition_is_recorded_and_a_resume_plays_it(tmp_path):
    """The deck travels in the deal as data (its manifest record); a resume given no deck plays the recorded one."""
    from analyses.games.dreamscape.study import deck_of_record, deck_record, task_deck
    from analyses.study.model import GameDeal, deck_text
    from simcore.games.dreamscape.decks import default_spec, parse_spec

    small = parse_spec('[base]\n"FF/IS" = 6\n"NT/LD" = 6\n"PR/RD" = 6\n[expansion]\n"ID/FF" = 2\n', source="small.toml")
    with_small = GameDeal("dreamscape", deck=deck_text(deck_record(small)))
    seen = []

    def spy(task: ChunkTask):
        seen.append(task_deck(task))
        return fake_task_chunk(task)

    Study(tmp_path / "s", [CONFIG], games=100, seed=1, chunk_size=100, game=with_small).run(spy, progress=False)
    resumed = Study(tmp_path / "s", [CONFIG], games=200, seed=1, chunk_size=100)  # no --deck given again
    resumed.run(spy, progress=False)
    assert seen == [small, small] and deck_of_record(deck_record(small)) == small
    assert load_manifest(tmp_path / "s").deck["source"] == "small.toml"
    assert load_manifest(tmp_path / "s").meta.get("game") is None  # the default game's folders name no game
    with pytest.raises(StudyError, match="another deck"):
        Study(tmp_path / "s", [CONFIG], games=200, seed=1, chunk_size=100,
              game=GameDeal("dreamscape", deck=deck_text(deck_record(default_spec()))))
    # the same composition read from another file is the same deck (name and source only say where it came from)
    again = parse_spec('[base]\n"FF/IS" = 6\n"NT/LD" = 6\n"PR/RD" = 6\n[expansion]\n"ID/FF" = 2\n', source="copy.toml")
    Study(tmp_path / "s", [CONFIG], games=200, seed=1, chunk_size=100,
          game=GameDeal("dreamscape", deck=deck_text(deck_record(again)))).close()


def test_a_config_id_is_folder_safe_for_strategy_paths():
    a = RunConfig("sleep-token+FF:ID", 2, ("linear:weights/mine.toml", "bots/x.py:hoarder"))
    b = RunConfig("sleep-token+FF:ID", 2, ("linear:weights/other.toml", "bots/x.py:hoarder"))
    assert "/" not in a.id and ":" not in a.id and a.id != b.id
    assert RunConfig("sleep-token+FF:ID", 3, ("greedy",) * 3).id == "sleep-token_FF-ID__3p__greedy"


def test_the_real_engine_chunk_function_takes_a_task(tmp_path):
    from analyses.study.chunks import play_chunk

    config = RunConfig("base", 2, ("random", "greedy"))
    result = play_chunk(ChunkTask(config, 5, 10, 40))
    assert list(result["game"]) == list(range(10, 50)) and result["win"].shape == (40, 2)
    tables = result["tables"]  # what the game declares it records (simcore.games.dreamscape.study_tables)
    assert list(tables["agg"]["n"]) == [40, 40] and list(tables["games"]["game"][::2]) == list(range(10, 50))
    cards = list(tables["pairs"]["card"])  # every card label of the deck, once per seat
    assert cards and cards[: len(cards) // 2] == cards[len(cards) // 2:] and len(set(cards)) == len(cards) // 2


def test_the_summary_is_byte_identical_for_every_chunk_size(tmp_path):
    """Chunk sums are added exactly: 14,000 games in chunks of 1,000 or 7,000 give the same JSON, byte for byte."""
    from analyses.study.studyfile import StudyPlan, run_plan
    from analyses.games.dreamscape.summary import json_ready, summary_data

    configs = [RunConfig("base", 3, ("greedy",) * 3), RunConfig("sleep-token", 3, ("greedy",) * 3)]
    texts = []
    for size in (1000, 7000):
        plan = StudyPlan(list(configs), games=14_000, seed=3, chunk_size=size)
        run_plan(plan, tmp_path / str(size), chunk_fn=fake_task_chunk, progress=False)
        data = summary_data(tmp_path / str(size))
        assert data.pop("folder") == str(tmp_path / str(size))
        texts.append(json.dumps(json_ready(data), allow_nan=False))
    assert [len(load_manifest(tmp_path / str(s)).chunks[configs[0].id]) for s in (1000, 7000)] == [14, 2]
    assert texts[0] == texts[1]
    wins = json.loads(texts[0])["seats"]
    assert sum(r["win_rate"] for r in wins if r["variant"] == "base") < 1  # shared and aborted games: credits of 1/k


def test_a_declared_table_is_written_as_declared_and_a_mismatch_is_one_line():
    """A game's declared study table becomes a chunk frame: config first, each seat's strategy after seat, the
    declared dtypes; a column missing, undeclared or of another dtype is one StudyError naming it."""
    import dataclasses

    from analyses.games import get_game
    from analyses.study.gamechunks import table_frame

    schema = (("seat", "int8"), ("card", "str"), ("copies", "int64"))
    game = dataclasses.replace(get_game("counting-zzzzs"), study_tables={"held": schema})
    config = RunConfig("base", 2, ("alpha", "beta"))
    cols = {"seat": np.array([0, 0, 1], np.int8), "card": np.array(["x", "y", "x"], dtype=object),
            "copies": np.array([1, 2, 3], np.int64)}
    frame = table_frame(game, "held", cols, config)
    assert frame.columns == ["config", "seat", "strategy", "card", "copies"]
    assert frame["config"].to_list() == [config.id] * 3 and frame["strategy"].to_list() == ["alpha", "alpha", "beta"]
    assert (frame.schema["seat"], frame.schema["card"], frame.schema["copies"]) == (pl.Int8, pl.Utf8, pl.Int64)
    for broken, words in (({**cols, "copies": cols["copies"].astype(np.int32)}, "column 'copies' is int32, declared int64"),
                          ({**cols, "card": np.array([1, 2, 3])}, "column 'card' is int64, declared str"),
                          ({k: v for k, v in cols.items() if k != "card"}, "lacks its declared column 'card'"),
                          ({**cols, "spare": cols["copies"]}, "does not declare: 'spare'")):
        with pytest.raises(StudyError, match=words) as info:
            table_frame(game, "held", broken, config)
        assert "\n" not in str(info.value)
