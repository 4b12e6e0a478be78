"""Bad input, replayed end to end (issue #44): the probes that still failed on a fresh clone, as tests.

Each case is a file a user names whose shape the reader trusted: a strong value file whose meta is nested
100,000 deep or holds a 5,001-digit number (a RecursionError or ValueError traceback), a weight written
as a whole number too large for a float (an OverflowError traceback) in a linear weights or expert file,
and error lines that echoed a 10 MB deck key or a 4,000-digit number whole through the Python API.
Each must be the reader's own error in one short line naming the file; the command line prints it as
one line with exit code 2.
"""
from __future__ import annotations

import errno
import io
import json
import os
import re
import stat
import zipfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from simcore.files import MAX_ECHO
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.bots.expert import read_table
from simcore.games.dreamscape.bots.linear import read_weights
from simcore.games.dreamscape.bots.strong import read_value
from test_bad_inputs import invoke
from test_bad_inputs_files import FUZZ, one_line, write

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_VALUE = ROOT / "simcore/games/dreamscape/bots/data/strong/3p-base.npz"
LINEAR = (ROOT / "simcore/games/dreamscape/bots/data/linear_default.toml").read_text()
EXPERT = (ROOT / "simcore/games/dreamscape/bots/data/expert/3p-base.toml").read_text()
DIGITS_5001 = "9" * 5001


def value_file_with_meta(path: Path, meta_text: str) -> Path:
    """The shipped value file with its meta array replaced by ``meta_text`` (the arrays untouched)."""
    with zipfile.ZipFile(SHIPPED_VALUE) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "meta.npy":
                buf = io.BytesIO()
                np.save(buf, np.array(meta_text))
                data = buf.getvalue()
            target.writestr(info.filename, data)
    return path


def shipped_meta() -> dict:
    with zipfile.ZipFile(SHIPPED_VALUE) as z:
        return json.loads(str(np.load(io.BytesIO(z.read("meta.npy")))))


META_CASES = {
    "nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "players of 5,001 digits": json.dumps(shipped_meta()).replace('"players": 3', '"players": ' + DIGITS_5001),
    "an extra field of 5,001 digits": json.dumps(dict(shipped_meta(), extra=0)).replace('"extra": 0',
                                                                                         '"extra": ' + DIGITS_5001),
}


def test_the_shipped_meta_has_the_field_the_cases_replace():
    assert '"players": 3' in json.dumps(shipped_meta())  # else the 5,001-digit case would test nothing


@pytest.mark.parametrize("meta_text", META_CASES.values(), ids=META_CASES.keys())
def test_a_value_file_with_a_nested_or_enormous_meta_is_one_line(tmp_path, meta_text):
    path = value_file_with_meta(tmp_path / "bad.npz", meta_text)
    with pytest.raises(StrategyError) as info:
        read_value(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message and len(message) < 400, message
    line = one_line(invoke(["simulate", "--strategy", f"strong:{path}", "--games", "1"]), str(path))
    assert len(line) < 400


def test_the_unchanged_meta_still_reads(tmp_path):
    """The control: the same rewrite with the shipped meta gives a value file that reads."""
    path = value_file_with_meta(tmp_path / "same.npz", json.dumps(shipped_meta(), sort_keys=True))
    assert read_value(path).meta["players"] == 3


def first_weight_replaced(text: str, number: str) -> str:
    """``text`` with the first ``name = number`` line after the first table header set to ``number``."""
    start = text.index("\n[") + 1
    match = re.search(r"^(\w+) = (-?[0-9.e+-]+)$", text[start:], re.M)
    return text[:start + match.start(2)] + number + text[start + match.end(2):]


WEIGHT_FILES = {"linear weights": (LINEAR, read_weights, "linear"), "expert": (EXPERT, read_table, "expert")}


@pytest.mark.parametrize("kind", WEIGHT_FILES)
@pytest.mark.parametrize("number", ["9" * 4000, "-" + "9" * 400, "1" + "0" * 309])
def test_a_weight_too_large_for_a_float_is_one_line(tmp_path, kind, number):
    text, read, strategy = WEIGHT_FILES[kind]
    path = write(tmp_path, "w.toml", first_weight_replaced(text, number))
    with pytest.raises(StrategyError, match="must be a finite number") as info:
        read(path)
    assert str(path) in str(info.value) and len(str(info.value)) < 400
    one_line(invoke(["simulate", "--strategy", f"{strategy}:{path}", "--games", "1"]), str(path), "finite")


@given(number=st.integers(min_value=-(10**4200), max_value=10**4200))
@FUZZ
def test_whole_number_weights_fuzzed(tmp_path_factory, number):
    """A whole-number weight reads as its float when one holds it (up to 1.8e308), else is refused in one line."""
    folder = tmp_path_factory.mktemp("w")
    for kind, (text, read, _strategy) in WEIGHT_FILES.items():
        path = write(folder, "w.toml", first_weight_replaced(text, str(number)))
        if abs(number) < 2**1023:
            weights = read(path)[1]
            assert float(number) in weights, kind
        elif abs(number) >= 2**1024:  # beyond the largest float, whatever the rounding
            with pytest.raises(StrategyError, match="must be a finite number") as info:
                read(path)
            assert len(str(info.value)) < 400


# ----------------------------------------------------------------------------- what an error line echoes

DECK = (ROOT / "simcore/games/dreamscape/data/default_deck.toml").read_text()
PD_CARDS = (ROOT / "simcore/games/pleasant_dreams/cards.toml").read_text()
CZ_CARDS = (ROOT / "simcore/games/counting_zzzzs/cards.toml").read_text()
STUDY = (ROOT / "simcore/games/dreamscape/studies/quick.toml").read_text()
LONG_TEXT = "F" * 10_000_000
DIGITS_4000 = "9" * 4000  # under Python's 4,300-digit limit: the reader gets the number, and its error echoed it


def _deck(path):
    from simcore.games.dreamscape.decks import load_spec
    return load_spec(path)


def _pd(path):
    from simcore.games.pleasant_dreams.common import load_cards
    return load_cards(path)


def _cz(path):
    from simcore.games.counting_zzzzs.cards import load_cards
    return load_cards(path)


def _study(path):
    from analyses.study.studyfile import load_study_file
    return load_study_file(path)


ECHO_CASES = {  # a file whose one bad field is 10 MB of text or a 4,000-digit number, and its reader
    "deck card 10 MB": (_deck, DECK.replace('"FF/SD" = 1', f'"{LONG_TEXT}" = 1', 1)),
    "deck key 10 MB": (_deck, f'"{LONG_TEXT}" = 1\n' + DECK),
    "deck count 4,000 digits": (_deck, DECK.replace('"FF/SD" = 1', f'"FF/SD" = {DIGITS_4000}', 1)),
    "pleasant dreams value 4,000 digits": (_pd, PD_CARDS.replace("front = -1", f"front = {DIGITS_4000}", 1)),
    "pleasant dreams name 10 MB": (_pd, PD_CARDS.replace("front = -1", "front = 9", 1)
                                   .replace('name = "The Bear"', f'name = "{LONG_TEXT}"', 1)),
    "pleasant dreams key 10 MB": (_pd, f'"{LONG_TEXT}" = 1\n' + PD_CARDS),
    "counting zzzzs value 4,000 digits": (_cz, CZ_CARDS.replace("value = 1", f"value = {DIGITS_4000}", 1)),
    "study games 4,000 digits": (_study, STUDY.replace("games = 10000", f"games = {DIGITS_4000}", 1)),
    "study seed 4,000 digits": (_study, STUDY.replace("seed = 1", f"seed = {DIGITS_4000}", 1)),
}


@pytest.mark.parametrize("case", ECHO_CASES)
def test_an_error_echoes_no_more_than_a_short_piece_of_the_field(tmp_path, case):
    read, text = ECHO_CASES[case]
    path = write(tmp_path, "bad.toml", text)
    with pytest.raises(ValueError) as info:  # every reader's error class is a ValueError
        read(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    assert len(message) < len(str(path)) + 300, message[:400]  # the file, the problem, <= MAX_ECHO of the field
    assert MAX_ECHO < 300


@pytest.mark.parametrize("content", [b"hello", b"", b"\x80\x04K\x01.", b"[weights]\ndelta = 1\n"])
def test_a_file_that_is_no_archive_is_called_no_value_file(tmp_path, content):
    """Text, an empty file or a pickle: numpy's answer was "contains pickled data ... load it unsafely"."""
    path = write(tmp_path, "v.npz", content)
    with pytest.raises(StrategyError, match="is not a strong value file") as info:
        read_value(path)
    assert "pickle" not in str(info.value)


def _raise_in(filename: str, code: int):
    """An OSError without a file name, raised by code that says it is ``filename`` (as os.write's is)."""
    source = "def _save_data(path):\n    raise OSError(code, 'File too large')\n"
    scope = {"OSError": OSError, "code": code}
    exec(compile(source, filename, "exec"), scope)
    try:
        scope["_save_data"]("/venv/engine/__pycache__/game.nbc")
    except OSError as exc:
        return exc


def test_a_write_without_a_file_name_is_not_called_a_study_file_nor_resumable():
    """train --strategy strong under ``ulimit -f 16`` failed in numba saving a compile: the line said "writing
    a study file ... run the same command again to resume", though no study folder was being written."""
    import cli

    line = cli.one_line(_raise_in("/venv/site-packages/numba/core/caching.py", errno.EFBIG))
    assert "numba's compile cache (/venv/engine/__pycache__/game.nbc)" in line and "file-size limit" in line
    assert "study file" not in line and "resume" not in line
    line = cli.one_line(_raise_in("/somewhere/else.py", errno.ENOSPC))
    assert "the disk is full writing a file" in line and "study file" not in line and "resume" not in line


@pytest.mark.parametrize("device", ["/dev/full", "/dev/null"])
def test_out_naming_a_device_is_refused_before_any_work(tmp_path, device):
    """``train --out /dev/full`` trained, then renamed its file over the device (root may write in /dev)."""
    before = os.stat(device)
    for args in (["train", "--players", "2", "--games", "10", "--iterations", "1", "--check-games", "0"],
                 ["train", "--strategy", "strong", "--players", "2", "--games", "20"],
                 ["tune", "--players", "2", "--budget", "2", "--games-per-eval", "10"]):
        one_line(invoke([*args, "--out", device]), device, "device or pipe")
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_out_naming_a_fifo_is_refused(tmp_path):
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    one_line(invoke(["tune", "--players", "2", "--budget", "2", "--games-per-eval", "10", "--out", fifo]),
             str(fifo), "device or pipe")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_full_disk_while_a_report_writes_leaves_no_partial_png_and_names_the_file(tmp_path):
    """``report F --png-dir`` on a full 64 kB tmpfs left an empty ``scores.png`` and said "writing a study
    file ... to resume"."""
    import cli
    from matplotlib.figure import Figure
    from reports.charts import Chart
    from reports.pdf import write_pdf

    def png_on_a_full_disk(fname, *args, **kwargs):
        if kwargs.get("format") != "png":  # the PDF page of the chart: written as usual
            return Figure.savefig(bad, fname, *args, **kwargs)
        Path(fname).write_bytes(b"\x89PNG")  # a few bytes, then the disk is full (no file name, as os.write)
        raise OSError(errno.ENOSPC, "No space left on device")

    good, bad = Figure(), Figure()
    bad.savefig = png_on_a_full_disk
    charts = [Chart("seats", "Seats", good), Chart("scores", "Scores", bad)]
    png_dir = tmp_path / "charts"
    with pytest.raises(OSError) as info:
        write_pdf(tmp_path / "report.pdf", png_dir, "t", [], charts)
    assert info.value.filename == str(png_dir / "scores.png")
    assert not (png_dir / "scores.png").exists() and not list(png_dir.glob(".*.tmp"))
    assert not (tmp_path / "report.pdf").exists() and not list(tmp_path.glob(".report.pdf.*"))
    line = cli.one_line(info.value)
    assert "the disk is full writing " + str(png_dir / "scores.png") in line and "resume" not in line
