"""A study folder belongs to one game and one kind of run: every command that writes into an existing folder
refuses another game's, another kind's, or one another process is writing, in one line (exit 2), with every
file of the folder unchanged, byte for byte."""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyses.study.folder import MANIFEST, StudyError, claim_folder
from cli import app
from cli_checks import assert_one_line_error

runner = CliRunner()
PD, CZ = "pleasant-dreams", "counting-zzzzs"


def run(*args: str):
    return runner.invoke(app, list(args))


def contents(folder: Path) -> dict[str, str]:
    """Every file of the folder and its sha256."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def pd_folder(tmp_path_factory) -> Path:
    """A Pleasant Dreams folder written by ``simulate --out`` (kind simulate)."""
    folder = tmp_path_factory.mktemp("claim") / "pd-simulate"
    result = run("simulate", "--game", PD, "-n", "40", "--chunk-size", "20", "--out", str(folder))
    assert result.exit_code == 0, result.output
    return folder


@pytest.mark.parametrize("command", [
    ["simulate", "--game", "dreamscape", "-n", "20"],
    ["simulate", "--game", CZ, "-n", "20"],
    ["tournament", "--game", "dreamscape", "-n", "10", "--strategy", "greedy", "--strategy", "random", "-p", "2"],
    ["compare", "--game", CZ, "-n", "20"],
    ["exploit", "--game", CZ, "--strategy", "greedy", "-p", "2", "-n", "5", "-k", "1"],
    ["restrict", "--game", CZ, "--strategy", "greedy", "-p", "2", "-n", "5"],
])
def test_a_folder_of_another_game_is_refused_unchanged(pd_folder, command):
    before = contents(pd_folder)
    result = run(*command, "--out", str(pd_folder))
    assert_one_line_error(result, str(pd_folder), PD)
    assert contents(pd_folder) == before


@pytest.mark.parametrize("command", [
    ["compare", "--game", PD, "-n", "20"],
    ["tournament", "--game", PD, "-n", "10", "--strategy", "threshold", "--strategy", "random"],
    ["exploit", "--game", PD, "--strategy", "threshold", "-p", "2", "-n", "5", "-k", "1"],
])
def test_a_folder_of_another_kind_of_run_is_refused_unchanged(pd_folder, command):
    before = contents(pd_folder)
    result = run(*command, "--out", str(pd_folder))
    assert_one_line_error(result, str(pd_folder), "simulate")
    assert contents(pd_folder) == before


def test_the_same_game_and_kind_resumes(pd_folder, tmp_path):
    mine = tmp_path / "again"
    shutil.copytree(pd_folder, mine)
    result = run("simulate", "--game", PD, "-n", "60", "--chunk-size", "20", "--out", str(mine))
    assert result.exit_code == 0, result.output
    assert json.loads((mine / MANIFEST).read_text())["meta"]["kind"] == "simulate"


def test_a_folder_another_process_writes_is_refused_unchanged(pd_folder, tmp_path):
    mine = tmp_path / "locked"
    shutil.copytree(pd_folder, mine)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from analyses.study.folder import lock_folder; "
                               "lock_folder(sys.argv[1]); print('held', flush=True); time.sleep(60)", str(mine)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        before = contents(mine)
        result = run("simulate", "--game", PD, "-n", "60", "--chunk-size", "20", "--out", str(mine))
        assert_one_line_error(result, str(mine), "another process")
        assert contents(mine) == before
    finally:
        holder.kill()
        holder.wait()


def test_a_folder_without_a_kind_is_its_games_study(pd_folder, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(pd_folder, old)
    manifest = json.loads((old / MANIFEST).read_text())
    del manifest["meta"]["kind"]
    (old / MANIFEST).write_text(json.dumps(manifest))
    before = contents(old)
    with pytest.raises(StudyError, match="file run, not simulate"):
        claim_folder(old, PD, "simulate")
    with pytest.raises(StudyError, match=f"of {PD}, not {CZ}"):
        claim_folder(old, CZ, "file")
    assert contents(old) == before
    release = claim_folder(old, PD, "file")
    release()


def test_a_new_folder_is_free(tmp_path):
    release = claim_folder(tmp_path / "new", CZ, "simulate")
    try:
        assert (tmp_path / "new").is_dir()
    finally:
        release()
    time.sleep(0)  # the lock is dropped: a second claim from this process succeeds too
    claim_folder(tmp_path / "new", PD, "compare")()
