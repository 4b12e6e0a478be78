"""Bad input, part two (issue #44): every file a user names is read with limits, every number has a bound,
every write fails in one line without a partial file, and the Python API checks its arguments.

The command-line cases run in this process through typer's runner (nothing is played: each fails before
a game starts) and must end in one line naming the file or the bound, exit code 2. The hypothesis cases
fuzz the card files of the two games with card files, the strong value file and the API's arguments.
"""
from __future__ import annotations

import errno
import io
import json
import os
import threading
import zipfile
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from analyses import lab
from analyses.lab.validate import ArgumentTypeError, ArgumentValueError
from simcore import files
from simcore.games.counting_zzzzs import CZError
from simcore.games.counting_zzzzs.cards import load_cards as cz_cards
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.strong import read_value
from simcore.games.pleasant_dreams.common import PDError, load_cards as pd_cards
from test_bad_inputs import invoke

ROOT = Path(__file__).resolve().parents[1]
PD_CARDS = (ROOT / "simcore/games/pleasant_dreams/cards.toml").read_text()
CZ_CARDS = (ROOT / "simcore/games/counting_zzzzs/cards.toml").read_text()
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.function_scoped_fixture])


def one_line(result, *words: str) -> str:
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, (result.exit_code, repr(result.exception), result.output[-2000:])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(("dreamscape: error:", "root: error:")), result.output[-2000:]
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


# ----------------------------------------------------------------------------- readers with limits

@pytest.mark.parametrize("game", ["pleasant-dreams", "counting-zzzzs"])
def test_deeply_nested_card_file_is_one_line(tmp_path, game):
    deep = write(tmp_path, "deep.toml", "x = " + "[" * 5000 + "]" * 5000 + "\n")
    one_line(invoke(["simulate", "--game", game, "--cards", deep, "--games", "1"]), str(deep), "nested")


def test_deeply_nested_deck_and_study_file_are_one_line(tmp_path):
    deep = write(tmp_path, "deep.toml", "[base]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    one_line(invoke(["simulate", "--deck", deep, "--games", "1"]), str(deep), "nested")
    one_line(invoke(["study", "--config", deep, "--out", tmp_path / "s"]), str(deep), "nested")


def test_a_5001_digit_integer_in_a_pleasant_dreams_card_file_is_one_line(tmp_path):
    huge = write(tmp_path, "huge.toml", PD_CARDS.replace("front = -1", "front = -" + "9" * 5001, 1))
    one_line(invoke(["simulate", "--game", "pleasant-dreams", "--cards", huge, "--games", "1"]), str(huge))
    with pytest.raises(PDError, match="card file"):
        pd_cards(huge)


def test_an_endless_device_is_read_only_up_to_the_limit():
    one_line(invoke(["simulate", "--game", "counting-zzzzs", "--cards", "/dev/zero", "--games", "1"]),
             "/dev/zero", "too large")
    one_line(invoke(["simulate", "--game", "pleasant-dreams", "--cards", "/dev/zero", "--games", "1"]),
             "/dev/zero", "too large")


def test_a_10_mb_field_is_not_echoed_whole(tmp_path):
    field = "Z" * 10_000_000
    big = write(tmp_path, "big.toml", CZ_CARDS.replace('kind = "person"', f'kind = "{field}"', 1))
    line = one_line(invoke(["simulate", "--game", "counting-zzzzs", "--cards", big, "--games", "1"]), str(big))
    assert len(line) < 1000
    for game in ("pleasant-dreams", "dreamscape"):  # a bot name is echoed in its error line
        line = one_line(invoke(["simulate", "--game", game, "--strategy", "search@" + field, "--games", "1"]))
        assert len(line) < 1000


def fifo_with(tmp_path: Path, text: str) -> Path:
    """A named pipe that gives ``text`` to its first reader only (as ``<(cat cards.toml)`` does)."""
    path = tmp_path / "cards.fifo"
    os.mkfifo(path)

    def feed():
        with open(path, "w") as fh:
            fh.write(text)

    threading.Thread(target=feed, daemon=True).start()
    return path


def test_a_pipe_is_read_once_and_what_is_kept_is_what_was_read(tmp_path):
    from analyses.study.gamechunks import cards_text

    pipe = fifo_with(tmp_path, CZ_CARDS)
    played = cz_cards(pipe)  # the cards the study plays
    assert played.total == cz_cards(None).total
    assert cards_text(pipe) == CZ_CARDS  # the text a study folder keeps: the same, not an empty second read


def test_a_value_file_whose_header_claims_an_enormous_array_is_refused(tmp_path):
    header = {"descr": "<f8", "fortran_order": False, "shape": (10**12,)}
    npy = io.BytesIO()
    np.lib.format.write_array_header_1_0(npy, header)
    npy.write(b"\0" * 64)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("threshold.npy", npy.getvalue())
    path = write(tmp_path, "huge.npz", buf.getvalue())
    with pytest.raises(StrategyError, match="claims 8,000,000,000,000 bytes"):
        read_value(path)


@given(raw=st.one_of(st.binary(max_size=200), st.builds(lambda shape: json.dumps(shape).encode(), st.lists(
    st.integers(min_value=0, max_value=2**62), max_size=4))))
@FUZZ
def test_value_files_fuzzed(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("v") / "v.npz"
    npy = io.BytesIO()
    npy.write(b"\x93NUMPY\x01\x00")
    npy.write(len(raw).to_bytes(2, "little"))
    npy.write(raw)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("feature.npy", npy.getvalue())
    for data in (buf.getvalue(), raw):
        path.write_bytes(data)
        with pytest.raises(StrategyError) as info:
            read_value(path)
        assert "\n" not in str(info.value) and str(path) in str(info.value)


card_values = st.one_of(st.integers(min_value=-(10**4200), max_value=10**4200), st.text(max_size=30),
                        st.floats(allow_nan=True), st.booleans())


@given(field=st.sampled_from(["front", "back", "name", "symbol"]), value=card_values)
@FUZZ
def test_pleasant_dreams_card_files_fuzzed(tmp_path_factory, field, value):
    shown = json.dumps(value) if not isinstance(value, int) or isinstance(value, bool) else str(value)
    if isinstance(value, bool):
        shown = "true" if value else "false"
    if isinstance(value, float) and value != value:
        shown = "nan"
    elif isinstance(value, float) and abs(value) == float("inf"):
        shown = "inf" if value > 0 else "-inf"
    text = PD_CARDS.replace(f"{field} = ", f"{field} = {shown}\nold_{field} = ", 1)
    path = tmp_path_factory.mktemp("pd") / "cards.toml"
    path.write_text(text)
    try:
        pd_cards(path)
    except PDError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 2000


@given(field=st.sampled_from(["value", "count", "name", "kind", "themes", "modifiers"]), value=card_values)
@FUZZ
def test_counting_zzzzs_card_files_fuzzed(tmp_path_factory, field, value):
    shown = json.dumps(value) if not isinstance(value, int) or isinstance(value, bool) else str(value)
    if isinstance(value, float) and (value != value or abs(value) == float("inf")):
        shown = "nan" if value != value else ("inf" if value > 0 else "-inf")
    text = CZ_CARDS.replace(f"\n{field} = ", f"\n{field} = {shown}\nold_{field} = ", 1)
    path = tmp_path_factory.mktemp("cz") / "cards.toml"
    path.write_text(text)
    try:
        cz_cards(path)
    except CZError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 2000


# ----------------------------------------------------------------------------- numbers with bounds

def test_search_budget_has_a_bound_named_in_the_error():
    line = one_line(invoke(["exploit", "--strategy", "greedy", "-k", "99999999999999999999", "--games", "1"]))
    assert "10000" in line
    line = one_line(invoke(["train", "-k", "99999999999999999999", "--out", "x.toml"]))
    assert "10000" in line


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "pleasant-dreams", "--strategy", "search@²", "--games", "1"],
    ["simulate", "--game", "counting-zzzzs", "--strategy", "search@²", "--games", "1"],
    ["simulate", "--game", "pleasant-dreams", "--strategy", "search@" + "9" * 5000, "--games", "1"],
    ["simulate", "--strategy", "search:greedy@²", "--games", "1"],
    ["simulate", "--strategy", "search:greedy@99999999999999999999", "--games", "1"],
])
def test_superscript_and_huge_budgets_in_bot_names_are_one_line(args):
    # The game's engine is compiled first by a good run of its own (a first run announces its compile on
    # stderr before the bots are read; this test is about the error line, not the compile notice).
    game = args[args.index("--game") + 1] if "--game" in args else None
    if game is not None:
        assert invoke(["simulate", "--game", game, "--games", "1"]).exit_code == 0
    one_line(invoke(args), "K")


# ----------------------------------------------------------------------------- writes

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EFBIG])
def test_a_failed_write_of_a_whole_file_says_what_to_do_and_leaves_nothing(tmp_path, code):
    target = tmp_path / "value.npz"

    def fill(fh):
        fh.write(b"half a file")
        raise OSError(code, os.strerror(code))

    with pytest.raises(StrategyError) as info:
        files.write_file(target, fill, "strong value file", StrategyError)
    line = str(info.value)
    assert str(target) in line and "run the same command again" in line
    assert "resume" not in line  # a value file is written whole: a rerun starts it again
    assert list(tmp_path.iterdir()) == []  # no .part, no half file


@pytest.mark.parametrize("code, meaning", [(errno.ENOSPC, "disk is full"), (errno.EDQUOT, "quota"),
                                           (errno.EFBIG, "file-size limit")])
def test_a_failed_write_while_training_a_value_is_one_line_without_resume(tmp_path, code, meaning):
    """train's value file: the error says what failed and to run again (not "resume": it starts again), no .part."""
    from simcore.games.dreamscape.bots import strong

    model = mock.Mock(meta={}, n_trees=1, digest=lambda: "x", arrays=lambda: {"a": np.zeros(3)})

    def half_written(fh, **arrays):  # what a full disk does: some bytes land, then the write fails
        fh.write(b"PK half an archive")
        raise OSError(code, os.strerror(code))

    with mock.patch.object(np, "savez_compressed", side_effect=half_written):
        with pytest.raises(StrategyError, match=meaning) as info:
            strong.write_value(tmp_path / "v.npz", model)
    assert str(tmp_path / "v.npz") in str(info.value) and "run the same command again" in str(info.value)
    assert "resume" not in str(info.value) and "\n" not in str(info.value)
    assert list(tmp_path.iterdir()) == []  # neither the value file nor a .part beside it


def test_a_file_size_limit_in_a_study_folder_is_one_line_with_resume():
    import cli

    line = cli.one_line(OSError(errno.EFBIG, "File too large", "out/study/chunk-1.parquet"))
    assert "out/study/chunk-1.parquet" in line and "file-size limit" in line and "resume" in line


def test_a_file_size_limit_while_a_study_writes_a_chunk_is_one_line_exit_2(tmp_path, monkeypatch):
    """The command, not only its error line: EFBIG from a chunk's write (``ulimit -f``) ends the run in one
    line and exit 2, not a traceback (the study folder's atomic write keeps what it had: it resumes)."""
    import analyses.study.folder as study_folder

    real = study_folder.write_atomic

    def limited(path, data):
        if path.suffix == ".parquet":  # os.write's EFBIG carries no file name, as the real one
            raise OSError(errno.EFBIG, "File too large")
        return real(path, data)

    args = ["simulate", "--players", "2", "--strategy", "greedy", "--games", "20", "--chunk-size", "10", "--seed", "5",
            "--no-progress"]
    # a cold cache announces its compiles (a study folder's run readies the search loop too) here, not below
    assert invoke([*args, "--out", tmp_path / "warm"]).exit_code == 0
    monkeypatch.setattr(study_folder, "write_atomic", limited)
    result = invoke([*args, "--out", tmp_path / "s"])
    # the line names the chunk's file, though os.write's EFBIG carries no name
    one_line(result, "file-size limit", "run the same command again to resume", ".parquet", str(tmp_path / "s"))
    assert not list((tmp_path / "s").rglob("*.parquet"))


def test_train_out_a_symlink_loop_is_one_line(tmp_path):
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    one_line(invoke(["train", "--out", loop, "--games", "1"]), str(loop), "symbolic link")
    inside = tmp_path / "loop"  # a loop as a folder on the way to the file
    inside.symlink_to(inside)
    one_line(invoke(["train", "--out", inside / "expert.toml", "--games", "1"]), str(inside), "symbolic link")


def test_train_out_under_an_existing_file_is_one_line(tmp_path):
    plain = write(tmp_path, "plain.txt", "x")
    one_line(invoke(["train", "--out", plain / "expert.toml", "--games", "1"]), str(plain))
    one_line(invoke(["train", "--strategy", "strong", "--out", plain / "v.npz", "--games", "100"]), str(plain))


# ----------------------------------------------------------------------------- the Python API

@pytest.mark.parametrize("call, kind, name", [
    (lambda: lab.simulate(games="2000"), TypeError, "games"),
    (lambda: lab.simulate(players=3.0, games=10), TypeError, "players"),
    (lambda: lab.simulate(games=10, seed=-1), ValueError, "seed"),
    (lambda: lab.simulate(games=10, seed=2**64), ValueError, "seed"),
    (lambda: lab.simulate(games=True), TypeError, "games"),
    (lambda: lab.simulate(games=10**13), ValueError, "games"),
    (lambda: lab.simulate(games=10, chunk_size=0), ValueError, "chunk_size"),
    (lambda: lab.exploit(strategy="greedy", playouts="8"), TypeError, "playouts"),
    (lambda: lab.exploit(strategy="greedy", playouts=[4, 99999999999999999999]), ValueError, "playouts"),
    (lambda: lab.tournament(games=2.5), TypeError, "games"),
    (lambda: lab.compare(players=[2, "3"]), TypeError, "players"),
    (lambda: lab.train(iterations="3"), TypeError, "iterations"),
    (lambda: lab.simulate(game=3), TypeError, "game"),
    (lambda: lab.simulate(games=10, strategies="greedy"), TypeError, "strategies"),
])
def test_the_api_names_the_python_parameter(call, kind, name):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value).startswith(f"{name} must be"), str(info.value)
    assert isinstance(info.value, (ArgumentTypeError, ArgumentValueError))


@given(name=st.sampled_from(["games", "seed", "players", "chunk_size"]),
       value=st.one_of(st.integers(min_value=-(2**70), max_value=-1), st.integers(min_value=2**64 + 1),
                       st.floats(), st.text(max_size=5), st.booleans()))
@FUZZ
def test_api_arguments_fuzzed(name, value):
    """Out-of-bounds or mistyped: TypeError/ValueError naming the parameter before anything is played."""
    with pytest.raises((TypeError, ValueError)) as info:
        lab.simulate(**{"games": 10, name: value})
    assert str(info.value).startswith(name)


@pytest.mark.parametrize("args", [["train", "--games", "1"], ["train", "--strategy", "strong", "--games", "100"],
                                  ["tune", "--budget", "1", "--games-per-eval", "1"]])
def test_a_file_where_the_default_out_folder_goes_is_one_line(tmp_path, monkeypatch, args):
    """Without --out these write into ./out/: a file of that name is one error line and exit 2, before any game
    (it ended in FileExistsError once the training was set up), and the file is left as it was."""
    (tmp_path / "out").write_text("x")
    monkeypatch.chdir(tmp_path)
    result = invoke(args)
    assert result.exit_code == 2 and "Traceback" not in result.output, (repr(result.exception), result.output)
    errors = [line for line in result.output.splitlines() if "error:" in line]
    assert len(errors) == 1 and "out exists and is not a folder" in errors[0], result.output
    assert (tmp_path / "out").read_text() == "x"
