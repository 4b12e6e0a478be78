"""Study folders have one writer and verified contents (issue 13): the README's promise, tested as written.

"A study folder has one writer; damaged chunks are named and replayed": a second
process writing into a folder gets one line and exit code 2; every chunk file's
size and sha256 are in the manifest, so ``summarize``, ``report`` and a resume
name a missing, truncated, emptied or altered chunk file, and re-running the
study command plays just that chunk again, giving the undamaged study's files.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyses.study import folder as study_module
from analyses.study.model import RunConfig, StudyError
from analyses.study.folder import Study, check_study, load_manifest, lock_folder, scan_games
from analyses.study.studyfile import StudyPlan, run_plan
from cli import app
from cli_checks import assert_one_line_error
from fake_chunks import fake_chunk

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
CONFIGS = [RunConfig("base", 3, ("greedy",) * 3), RunConfig("sleep-token", 3, ("greedy",) * 3),
           RunConfig("base", 3, ("greedy", "chain", "linear")), RunConfig("base", 3, ("linear", "greedy", "chain"))]


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def make(folder: Path, configs=CONFIGS, games=300, seed=4, chunk_size=100) -> None:
    run_plan(StudyPlan(list(configs), games=games, seed=seed, chunk_size=chunk_size), folder, chunk_fn=fake_chunk,
             progress=False)


def chunk_path(folder: Path, kind: str, config: RunConfig = CONFIGS[0], first: int = 100) -> Path:
    return folder / "chunks" / config.id / f"{kind}-{first:012d}.parquet"


# ----------------------------------------------------------------------------- one writer


HOLD = textwrap.dedent("""
    import sys
    from analyses.study.folder import lock_folder
    lock_folder(sys.argv[1])
    print("held", flush=True)
    sys.stdin.read()  # hold the lock until the test closes our stdin
""")


def holder(folder: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, env=env)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_writer_gets_one_line_and_exit_2_and_the_folder_is_untouched(tmp_path):
    folder = tmp_path / "s"
    make(folder, CONFIGS[:1])
    before = (folder / "manifest.json").read_bytes()
    proc = holder(folder)
    try:
        result = run("simulate", "--players", "2", "--games", "20", "--out", folder, "--no-progress")
        assert_one_line_error(result, str(folder), "another process", f"pid {proc.pid}")
        exploit = run("exploit", "--strategy", "greedy", "--players", "2", "--variant", "base", "--games", "5",
                      "--playouts", "1", "--out", folder)
        assert_one_line_error(exploit, "another process")
        assert not (folder / "exploit.parquet").exists()
        with pytest.raises(StudyError, match="another process"):
            Study(folder, [CONFIGS[1]], games=10, seed=4, chunk_size=100)
        assert (folder / "manifest.json").read_bytes() == before
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    # The lock ends with its process (no stale lock): the next writer adds its configuration.
    make(folder, CONFIGS[1:2])
    assert {c.id for c in load_manifest(folder).configs} == {CONFIGS[0].id, CONFIGS[1].id}


WRITER = textwrap.dedent("""
    import sys
    from analyses.study.model import RunConfig, StudyError
    from analyses.study.folder import Study
    from fake_chunks import fake_chunk
    config = RunConfig(sys.argv[2], 2, ("greedy", "greedy"))
    try:
        Study(sys.argv[1], [config], games=4000, seed=1, chunk_size=50).run(fake_chunk, progress=False)
    except StudyError as exc:
        print("refused:", exc)
        sys.exit(2)
    print("wrote", config.id)
""")


def test_two_concurrent_writers_never_lose_a_configuration(tmp_path):
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{TESTS}"}
    for round_ in range(3):
        folder = tmp_path / f"s{round_}"
        procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(folder), variant], stdout=subprocess.PIPE,
                                  text=True, env=env) for variant in ("base", "sleep-token")]
        outs = [(p.communicate(timeout=300)[0], p.returncode) for p in procs]
        m = load_manifest(folder)
        for out, code in outs:
            assert code in (0, 2), out
            if code == 0:  # every writer that says it wrote has all its games in the manifest
                cid = out.split()[-1]
                assert m.done_games(cid) == 4000 and cid in {c.id for c in m.configs}
            else:
                assert "another process" in out
        assert any(code == 0 for _, code in outs)
        check_study(folder)


def test_the_same_study_in_one_process_shares_the_lock(tmp_path):
    first = Study(tmp_path / "s", CONFIGS[:1], games=100, seed=1, chunk_size=100)
    second = Study(tmp_path / "s", CONFIGS[:1], games=100, seed=1, chunk_size=100)  # re-entrant in one process
    second.close()
    first.close()
    release = lock_folder(tmp_path / "s")  # and free again once both are closed
    release()


def test_temporary_files_are_unique_and_never_left_behind(tmp_path, monkeypatch):
    names = []
    real = study_module.tempfile.mkstemp

    def spy(*a, **k):
        fd, name = real(*a, **k)
        names.append(name)
        return fd, name

    monkeypatch.setattr(study_module.tempfile, "mkstemp", spy)
    make(tmp_path / "s", CONFIGS[:1])
    assert len(names) == len(set(names)) > 3
    assert not [p for p in (tmp_path / "s").rglob("*") if p.name.endswith(".tmp")]


# ----------------------------------------------------------------------------- verified contents


def damage_truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-40])


def damage_empty(path: Path) -> None:
    path.write_bytes(b"")


def damage_alter(path: Path) -> None:  # same size, one byte changed in the middle
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def damage_delete(path: Path) -> None:
    path.unlink()


DAMAGES = {"truncated": (damage_truncate, "bytes"), "empty": (damage_empty, "empty"),
           "altered": (damage_alter, "sha256"), "missing": (damage_delete, "missing")}


@pytest.mark.parametrize("kind", ["agg", "games", "pairs"])
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_chunk_is_named_by_summarize_and_report(tmp_path, kind, damage):
    folder = tmp_path / "s"
    make(folder)
    target = chunk_path(folder, kind)
    fn, word = DAMAGES[damage]
    fn(target)
    for command in (["summarize", folder], ["summarize", folder, "--json"], ["report", folder]):
        assert_one_line_error(run(*command), f"{kind}-000000000100.parquet", word, "games 100-199", CONFIGS[0].id,
                              "run the study command again")
    assert not (folder / "report.pdf").exists()


def test_a_deleted_games_file_does_not_make_a_shorter_report(tmp_path):
    """Issue 13: report exited 0 with 1 chart instead of 5 when a games-*.parquet was gone."""
    folder = tmp_path / "s"
    make(folder)
    chunk_path(folder, "games", CONFIGS[1], 200).unlink()
    assert_one_line_error(run("report", folder), "chunk file missing", "games-000000000200.parquet")
    assert not (folder / "report.pdf").exists() and not (folder / "charts").exists()


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_rerunning_the_study_replays_just_the_damaged_chunk_and_matches_an_undamaged_run(tmp_path, damage, capsys):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    make(whole)
    make(cut)
    DAMAGES[damage][0](chunk_path(cut, "games", CONFIGS[2], 200))
    played = []

    def counting(task):
        played.append((task.config.id, task.first, task.games))
        return fake_chunk(task)

    run_plan(StudyPlan(list(CONFIGS), games=300, seed=4, chunk_size=100), cut, chunk_fn=counting, progress=False)
    assert played == [(CONFIGS[2].id, 200, 100)]
    said = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(said) == 1 and "games-000000000200.parquet" in said[0] and "playing games 200-299" in said[0]
    # Identical to the undamaged run: every chunk's recorded size and sha256, and so every byte read.
    a, b = load_manifest(whole), load_manifest(cut)
    assert {cid: [(r.first, r.checks) for r in recs] for cid, recs in a.chunks.items()} == \
           {cid: [(r.first, r.checks) for r in recs] for cid, recs in b.chunks.items()}
    assert scan_games(cut).collect().sort(["config", "game", "seat"]).equals(
        scan_games(whole).collect().sort(["config", "game", "seat"]))


def test_the_cli_study_command_replays_a_damaged_chunk(tmp_path):
    out = tmp_path / "s"
    args = ["simulate", "--players", "2", "--games", "300", "--chunk-size", "100", "--seed", "5", "--out", out,
            "--json", "--no-progress"]
    first = run(*args)
    assert first.exit_code == 0, first.output
    seats = json.loads(first.stdout)["seats"]
    damage_alter(next(out.glob("chunks/*/agg-000000000200.parquet")))
    assert_one_line_error(run("summarize", out), "agg-000000000200.parquet", "sha256")
    again = run(*args)
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["seats"] == seats
    assert run("summarize", out).exit_code == 0


def test_every_chunk_file_has_its_size_and_sha256_in_the_manifest(tmp_path):
    import hashlib

    make(tmp_path / "s", CONFIGS[:1])
    for rec in load_manifest(tmp_path / "s").chunks[CONFIGS[0].id]:
        assert set(rec.checks) == set(rec.files) == {"agg", "games", "pairs"}
        for kind, rel in rec.files.items():
            data = (tmp_path / "s" / rel).read_bytes()
            assert rec.checks[kind] == (len(data), hashlib.sha256(data).hexdigest())


# ----------------------------------------------------------------------------- what identifies a study


def test_the_manifest_carries_the_seed_and_plan(tmp_path):
    plan = StudyPlan(CONFIGS[:1], games=100, seed=9, chunk_size=100)
    run_plan(plan, tmp_path / "s", chunk_fn=fake_chunk, progress=False)
    assert load_manifest(tmp_path / "s").identity == {"seed": 9, "plan": plan.fingerprint()}


def test_a_manifest_copied_from_another_seed_is_named(tmp_path):
    make(tmp_path / "one", seed=1)
    make(tmp_path / "two", seed=2)
    shutil.copy(tmp_path / "two" / "manifest.json", tmp_path / "one" / "manifest.json")
    for command in (["summarize", tmp_path / "one"], ["report", tmp_path / "one"]):
        assert_one_line_error(run(*command), "manifest.json", "belongs to another study", "seed 2", "seed 1")
    with pytest.raises(StudyError, match="belongs to another study"):  # and a resume does not "repair" it
        make(tmp_path / "one", seed=2)


def test_a_manifest_that_lists_other_games_for_a_chunk_is_named(tmp_path):
    make(tmp_path / "s")
    path = tmp_path / "s" / "manifest.json"
    m = json.loads(path.read_text())
    m["chunks"][CONFIGS[0].id][1]["games"] = 150  # says 100-249, the file holds 100-199
    path.write_text(json.dumps(m))
    assert_one_line_error(run("summarize", tmp_path / "s"), "damaged manifest", "games 100-249")


def test_the_study_command_names_a_folder_holding_another_plan(tmp_path):
    a, b = tmp_path / "a.toml", tmp_path / "b.toml"
    a.write_text("games = 30\nchunk_size = 30\nplayers = 2\nstrategy = \"random\"\n")
    b.write_text("games = 30\nchunk_size = 30\nplayers = 2\nstrategy = \"greedy\"\n")
    out = tmp_path / "s"
    from reports.main_study import run_main_study

    run_main_study(out=out, config=a, progress=False)
    with pytest.raises(StudyError, match="holds another study"):
        run_main_study(out=out, config=b, progress=False)
    assert_one_line_error(run("study", "--config", b, "--out", out, "--no-progress"), "holds another study", "plan")
    run_main_study(out=out, config=a, progress=False)  # the same request resumes


def test_a_reader_sees_the_manifest_as_it_is_on_disk_now(tmp_path):
    """read_manifest keeps a checked manifest between scans, but never one the folder no longer holds."""
    from analyses.study.folder import read_manifest

    make(tmp_path / "s", configs=CONFIGS[:1], games=200)
    assert read_manifest(tmp_path / "s") is read_manifest(tmp_path / "s")  # kept between reads
    assert sum(r.games for r in read_manifest(tmp_path / "s").chunks[CONFIGS[0].id]) == 200
    make(tmp_path / "s", configs=CONFIGS[:1], games=300)  # the study resumed: one more chunk
    assert sum(r.games for r in read_manifest(tmp_path / "s").chunks[CONFIGS[0].id]) == 300
    assert scan_games(tmp_path / "s").select("game").unique().collect().height == 300
    (tmp_path / "s" / "manifest.json").write_text("{")  # damaged after it was read
    with pytest.raises(StudyError, match="damaged manifest"):
        read_manifest(tmp_path / "s")
