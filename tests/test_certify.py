"""`dreamscape certify`: the control variate on known numbers, the certified rows of a tiny study worked out
again from its games, resume, one writer, local against Dask, and bad input in one line (exit 2)."""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import typer

try:  # typer >= 0.29 vendors click
    from typer._click.testing import CliRunner as ClickRunner
except ImportError:  # pragma: no cover - typer on top of click
    from click.testing import CliRunner as ClickRunner

from analyses.games.dreamscape import certify as rung
from analyses.stats.control_variate import best_beta, control_variate
from analyses.study.folder import Study, load_manifest
from analyses.study.model import GameDeal, RunConfig
from cli import app
from cli_checks import assert_one_line_error

ROOT = Path(__file__).resolve().parents[1]
COMMAND = typer.main.get_command(app)
Z = 1.959963984540054


def invoke(*args):
    return ClickRunner().invoke(COMMAND, [str(a) for a in args])


# ----------------------------------------------------------------------------- the estimator on known numbers


def test_control_variate_equals_the_hand_computation():
    # 4 certified deals, 8 strong deals (the same 4 first), beta 1/2:
    # mean(Y) = 3/4, mean(X over 4) = 1/2, mean(X over 8) = 3/8 -> Y_cv = 3/4 - 1/2 (1/2 - 3/8) = 11/16.
    y, x_common, x_rest = [1, 0, 1, 1], [1, 0, 0, 1], [0, 0, 1, 0]
    cv = control_variate(y, x_common, x_rest, 0.5)
    assert cv.estimate.value == pytest.approx(11 / 16, abs=1e-15)
    # variance: Y - beta (1 - f) X = [3/4, 0, 1, 3/4] has sample variance 3/16, over 4 deals 3/64; the other
    # 4 deals' X has sample variance 1/4, over 4 deals 1/16, times (beta (1 - f))^2 = 1/16: 1/256.
    half = Z * math.sqrt(3 / 64 + 1 / 256)
    assert cv.estimate.low == pytest.approx(11 / 16 - half, abs=1e-12)
    assert cv.estimate.high == pytest.approx(11 / 16 + half, abs=1e-12)
    # the plain mean of Y: 3/4, sample variance 1/4 over 4 deals
    assert cv.plain.value == 0.75 and cv.plain.high == pytest.approx(0.75 + Z * math.sqrt(1 / 16), abs=1e-12)
    assert cv.reduction == pytest.approx((1 / 16) / (3 / 64 + 1 / 256))
    assert (cv.deals, cv.control_deals) == (4, 8)


def test_when_strong_played_no_other_deal_the_estimate_is_the_plain_mean():
    cv = control_variate([1, 0, 1, 0, 1], [1, 1, 0, 0, 1], [], 0.7)
    assert cv.estimate == cv.plain and cv.estimate.value == pytest.approx(0.6)


def test_a_fixed_beta_keeps_the_estimate_unbiased_and_the_interval_covers():
    # Y = X + noise on each deal (true mean of Y: 0.3); strong's X on 4x the deals. Over many repeats the mean of
    # the estimates is the true mean, and about 95% of the intervals hold it.
    rng = np.random.default_rng(7)
    values, covered, reductions = [], 0, []
    for _ in range(2000):
        x = rng.binomial(1, 0.3, 400).astype(float)
        y = np.where(rng.random(100) < 0.8, x[:100], rng.binomial(1, 0.3, 100))
        cv = control_variate(y, x[:100], x[100:], 0.6)
        values.append(cv.estimate.value)
        covered += cv.estimate.low <= 0.3 <= cv.estimate.high
        reductions.append(cv.reduction)
    assert abs(np.mean(values) - 0.3) < 3 * np.std(values) / math.sqrt(len(values))
    assert 0.93 <= covered / 2000 <= 0.97
    # correlation 0.8, beta (1 - f) = 0.6 * 3/4 = 0.45: Var(Y - 0.45 X) = (1 - 2 * 0.45 * 0.8 + 0.45^2) s2 = 0.4825 s2
    # over 100 deals, plus 0.45^2 s2 over the other 300: 0.55 s2 / 100 against s2 / 100, a reduction of about 1.8
    assert np.median(reductions) > 1.5


def test_best_beta_is_the_regression_slope():
    x = np.array([0.0, 1, 2, 3])
    assert best_beta(2 * x + 1, x) == pytest.approx(2.0)


# ----------------------------------------------------------------------------- a tiny study, certified


STRONG = [RunConfig("base", 3, ("strong",) * 3), RunConfig("sleep-token", 3, ("strong",) * 3)]


def tiny_study(folder: Path, games: int = 12) -> Path:
    """A study folder as `dreamscape study` writes it, with strong on every seat in two rules options."""
    with Study(folder, STRONG, games, seed=3, chunk_size=6, meta={"kind": "file", "name": "tiny study"},
               game=GameDeal.default()) as s:
        s.run(progress=False)
    return folder


@pytest.fixture(scope="module")
def parent(tmp_path_factory) -> Path:
    return tiny_study(tmp_path_factory.mktemp("certify") / "study")


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(rung, "CHUNK_SIZE", 2)


def copy(parent: Path, to: Path) -> Path:
    shutil.copytree(parent, to, ignore=shutil.ignore_patterns(rung.SUBFOLDER, ".lock"))
    return to


def win_table(folder: Path) -> dict[str, np.ndarray]:
    """Every configuration's win credits (games, seats), read straight from its games files."""
    frames = [pl.read_parquet(p) for p in sorted((folder / "chunks").glob("*/games-*.parquet"))]
    games = pl.concat(frames).sort(["config", "game", "seat"])
    out = {}
    for cid in games["config"].unique().to_list():
        part = games.filter(pl.col("config") == cid)
        out[cid] = part["win"].to_numpy().reshape(-1, part["seat"].max() + 1)
    return out


def chunk_checks(folder: Path) -> dict:
    return {(cid, r.first): r.checks for cid, recs in load_manifest(folder).chunks.items() for r in recs}


def test_certified_rows_are_the_control_variate_worked_out_from_the_games(parent, tmp_path, small_chunks):
    study = copy(parent, tmp_path / "study")
    out = rung.run(study, games=4, progress=False)
    assert out["played"] == 8  # 4 deals of each strong configuration, all seats the top rung
    rows = pl.DataFrame(out["findings"])
    strong, top = win_table(study), win_table(study / rung.SUBFOLDER)
    beta = rung.BETA["seat"]
    for c in STRONG:
        y_all = top[rung.twin(c, rung.PLAYOUTS).id]
        assert y_all.shape == (4, 3)
        x = strong[c.id]
        for seat in range(3):
            r = rows.filter((pl.col("topic") == "seat") & (pl.col("variant") == c.variant)
                            & (pl.col("seat") == seat + 1)).row(0, named=True)
            y = y_all[:, seat]
            expected = y.mean() - beta * (x[:4, seat].mean() - x[:, seat].mean())
            assert r["value"] == pytest.approx(expected, abs=1e-12)
            assert (r["deals"], r["control_deals"], r["reference"]) == (4, 12, pytest.approx(1 / 3))
            assert r["strong_value"] == pytest.approx(x[:, seat].mean(), abs=1e-12)
    # the spread change of Sleep Token against base: each level's best-minus-worst seat contrast, deal by deal
    def contrast(w):
        rates = w.mean(axis=0)
        return w[:, rates.argmax()] - w[:, rates.argmin()]

    base, sleep = STRONG
    k = rung.PLAYOUTS
    y = contrast(top[rung.twin(sleep, k).id]) - contrast(top[rung.twin(base, k).id])
    x = contrast(strong[sleep.id]) - contrast(strong[base.id])
    r = rows.filter(pl.col("topic") == "spread change").row(0, named=True)
    assert (r["variant"], r["baseline"]) == ("sleep-token", "base")
    assert r["value"] == pytest.approx(y.mean() - rung.BETA["spread change"] * (x[:4].mean() - x.mean()), abs=1e-12)


@pytest.mark.slow  # certify writes through the study pipeline, whose resume tests run by default (test_containment, test_backends)
def test_a_rerun_continues_and_ends_with_the_same_bytes(parent, tmp_path, small_chunks):
    straight = copy(parent, tmp_path / "straight")
    rung.run(straight, games=6, progress=False)
    resumed = copy(parent, tmp_path / "resumed")
    first = rung.run(resumed, games=2, progress=False)  # stopped after the first chunk of each configuration
    assert first["played"] == 4
    kept = chunk_checks(resumed / rung.SUBFOLDER)
    second = rung.run(resumed, games=6, progress=False)
    assert second["played"] == 8  # only what was missing
    after = chunk_checks(resumed / rung.SUBFOLDER)
    assert all(after[k] == v for k, v in kept.items())
    assert after == chunk_checks(straight / rung.SUBFOLDER)
    assert rung.run(resumed, games=6, progress=False)["played"] == 0


@pytest.mark.slow  # the study pipeline's kill-and-resume tests run by default (test_backends, test_containment)
def test_a_killed_certify_resumes_to_the_same_bytes(parent, tmp_path):
    straight = copy(parent, tmp_path / "straight")
    env = {**os.environ, "DREAMSCAPE_SERVER": "off"}
    args = [sys.executable, "-c", "import cli; cli.main()", "certify", "--games", "4", "--json", "--no-progress"]
    done = subprocess.run(args[:4] + [str(straight)] + args[4:], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr
    killed = copy(parent, tmp_path / "killed")
    proc = subprocess.Popen(args[:4] + [str(killed)] + args[4:], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    sub = killed / rung.SUBFOLDER / "manifest.json"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        if sub.is_file() and any(json.loads(sub.read_text()).get("chunks", {}).values()):
            break
        time.sleep(0.2)
    proc.kill()
    proc.wait()
    before = chunk_checks(killed / rung.SUBFOLDER)
    assert 0 < len(before) < len(chunk_checks(straight / rung.SUBFOLDER))  # killed part-way
    again = subprocess.run(args[:4] + [str(killed)] + args[4:], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=900)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["played"] < json.loads(done.stdout)["played"]
    assert chunk_checks(killed / rung.SUBFOLDER) == chunk_checks(straight / rung.SUBFOLDER)


def test_a_second_certify_at_once_is_kept_out(parent, tmp_path):
    study = copy(parent, tmp_path / "study")
    (study / rung.SUBFOLDER).mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); "
                               "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)",
                               str(study / rung.SUBFOLDER / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert_one_line_error(invoke("certify", study, "--games", "2"), "another process is writing", rung.SUBFOLDER)
    finally:
        holder.kill()
        holder.wait()
    assert not (study / rung.SUBFOLDER / "manifest.json").exists()


def test_the_report_shows_the_certified_column(parent, tmp_path, small_chunks):
    from reports.games.dreamscape.certified import CERTIFIED_TITLE, certified_pages

    study = copy(parent, tmp_path / "study")
    assert certified_pages(study) == []  # nothing certified yet: no page
    rung.run(study, games=2, progress=False)
    pages = certified_pages(study)
    assert [t for t, _ in pages] == [CERTIFIED_TITLE]
    texts = [t.get_text() for t in pages[0][1].texts]
    assert any("3p sleep-token vs base: seat spread" in t for t in texts)
    assert any(t == rung.top_rung(rung.PLAYOUTS) for t in texts)
    # the page names the rung's own head-to-head margin over strong where a kept cell measured it, and counts the
    # certified configurations where none did (its words are toprung.margin_words', tested in test_toprung.py)
    from analyses.games.dreamscape import toprung

    measured = {v: toprung.rung_margin(3, v, rung.PLAYOUTS) for v in ("base", "sleep-token")}
    header = next(t for t in texts if "head to head over" in t or "margin over strong is not measured" in t)
    for v, cell in measured.items():
        assert (cell is not None) == (toprung.margin_words(cell) in header), v
    missing = sum(c is None for c in measured.values())
    assert (f"not measured in {missing} of the 2 certified" in header) == (missing > 0)


def test_verdicts_read_the_interval_against_the_reference_and_margin():
    third = 1 / 3
    assert rung.verdict(0.36, 0.40, third, deals=100) == "above"
    assert rung.verdict(0.20, 0.30, third, deals=100) == "below"
    assert rung.verdict(-0.015, 0.019, 0.0, deals=100) == "no effect"  # inside +-2 points of zero
    assert rung.verdict(-0.025, 0.019, 0.0, deals=100) == "unconfirmed"  # reaches past the margin
    assert rung.verdict(0.36, 0.40, third, deals=rung.MIN_VERDICT_DEALS - 1) == "too few deals"
    assert rung.verdict(0.0, 0.0, third, deals=100) == "too few deals"  # every deal the same: no width


def _claim(seat, k, p, verdict, strong_p=1.0, strong_verdict=rung.TOO_FEW):
    return {"topic": "seat", "players": 3, "variant": "base", "baseline": None, "seat": seat, "playouts": k,
            "p": p, "verdict": verdict, "strong_p": strong_p, "strong_verdict": strong_verdict}


def test_the_certified_page_is_corrected_by_holm_on_a_known_family():
    # Four certified claims, p = 0.01, 0.04, 0.03, 0.005 (strong's cells make no claim: too few deals). Holm at 5%,
    # by hand: sorted 0.005 <= 0.05/4 keep, 0.01 <= 0.05/3 keep, 0.03 > 0.05/2 stop: seats 1 and 4 keep their
    # verdicts, seats 2 and 3 (significant alone) become unconfirmed; "no effect" is no significance claim.
    rows = [_claim(1, 8, 0.01, "above"), _claim(2, 8, 0.04, "above"), _claim(3, 8, 0.03, "below"),
            _claim(4, 8, 0.005, "below"), _claim(5, 8, 0.9, "no effect")]
    out = rung.correct_page(rows)
    assert [r["verdict"] for r in out] == ["above", "unconfirmed", "unconfirmed", "below", "no effect"]
    assert [r["verdict_95"] for r in out] == ["above", "above", "below", "below", "no effect"]
    assert {r["family"] for r in out} == {5}
    assert rows[1]["verdict"] == "above"  # the caller's rows are left alone


def test_a_findings_strong_cell_is_one_claim_however_many_budgets_read_it():
    # Seat 1 at K = 8 and 16 (p 0.001 and 0.04), strong once (p 0.024): a family of 3. Holm: 0.001 <= 0.05/3,
    # 0.024 <= 0.05/2, 0.04 <= 0.05: all kept. Counted twice (a family of 4), 0.024 > 0.05/3 would drop strong.
    rows = [_claim(1, 8, 0.001, "above", 0.024, "above"), _claim(1, 16, 0.04, "above", 0.024, "above")]
    out = rung.correct_page(rows)
    assert [(r["verdict"], r["strong_verdict"], r["family"]) for r in out] == [("above", "above", 3)] * 2
    # strong at p 0.03 instead: 0.03 > 0.05/2 stops the steps; strong and the K = 16 claim become unconfirmed in
    # every row that shows them
    rows = [_claim(1, 8, 0.001, "above", 0.03, "above"), _claim(1, 16, 0.04, "above", 0.03, "above")]
    out = rung.correct_page(rows)
    assert [(r["verdict"], r["strong_verdict"]) for r in out] == [("above", "unconfirmed"),
                                                                   ("unconfirmed", "unconfirmed")]
    assert [r["strong_verdict_95"] for r in out] == ["above", "above"]


def test_doubling_changes_lists_the_findings_whose_verdict_the_doubled_budget_changes():
    def row(seat, k, verdict):
        return {"topic": "seat", "players": 3, "variant": "base", "baseline": None, "seat": seat, "playouts": k,
                "verdict": verdict}

    rows = pl.DataFrame([row(1, 8, "above"), row(1, 16, "above"), row(2, 8, "unconfirmed"), row(2, 16, "below"),
                         row(3, 8, "below"),  # seat 3 has no 2K reading: nothing to compare
                         row(4, 8, "above"), row(4, 16, "too few deals")])  # nor has seat 4 a verdict at 2K
    changed = rung.doubling_changes(rows)
    assert changed.select("seat", "playouts", "verdict", "verdict_2k").rows() == [(2, 8, "unconfirmed", "below")]
    assert rung.doubling_changes(rows.filter(pl.col("playouts") == 8)).height == 0


def test_doubling_plays_the_top_rung_at_2k_on_the_same_deals(parent, tmp_path, small_chunks):
    study = copy(parent, tmp_path / "study")
    out = rung.run(study, games=2, doubling=True, progress=False, playouts=8)  # K = 8: the cheaper games
    assert out["played"] == 8  # 2 configurations x 2 deals, at K = 8 and at K = 16
    rows = pl.DataFrame(out["findings"])
    assert sorted(set(rows["level"])) == ["search:strong@16:late", "search:strong@8:late"]
    held = load_manifest(study / rung.SUBFOLDER)
    assert {c.id for c in held.configs} == {rung.twin(c, k).id for c in STRONG for k in (8, 16)}
    assert all(r.first == 0 for recs in held.chunks.values() for r in recs)  # the study's first deals, both budgets


# ----------------------------------------------------------------------------- local against Dask


@pytest.mark.slow  # the study pipeline's Dask-equals-local test runs by default (test_backends)
def test_certify_on_a_local_dask_cluster_equals_the_local_run(parent, tmp_path, small_chunks):
    pytest.importorskip("distributed")
    from analyses.study.backends import make_backend

    local = copy(parent, tmp_path / "local")
    rung.run(local, games=4, progress=False)
    remote = copy(parent, tmp_path / "dask")
    backend = make_backend("dask", None, 2)
    try:
        rung.run(remote, games=4, progress=False, backend=backend)
    finally:
        backend.close()
    assert chunk_checks(remote / rung.SUBFOLDER) == chunk_checks(local / rung.SUBFOLDER)
    assert len(chunk_checks(local / rung.SUBFOLDER)) == 4  # 2 configurations x 2 chunks of 2 deals


# ----------------------------------------------------------------------------- bad input


def test_not_a_study_folder_is_one_line(tmp_path):
    assert_one_line_error(invoke("certify", tmp_path / "nowhere"), "not a study folder")
    (tmp_path / "empty").mkdir()
    assert_one_line_error(invoke("certify", tmp_path / "empty"), "not a study folder")
    (tmp_path / "file.txt").write_text("x")
    assert_one_line_error(invoke("certify", tmp_path / "file.txt"), "not a study folder")
    assert_one_line_error(invoke("certify", tmp_path / "empty", "--games", "1"))


def test_another_games_folder_is_one_line(tmp_path):
    out = tmp_path / "pd"
    assert invoke("simulate", "--game", "pleasant-dreams", "--players", "2", "--games", "20", "--out", out).exit_code == 0
    assert_one_line_error(invoke("certify", out), "Pleasant Dreams has no certified top rung", "certify")


def test_another_kind_of_run_and_a_study_without_strong_are_one_line(tmp_path):
    sim = tmp_path / "sim"
    assert invoke("simulate", "--players", "3", "--games", "20", "--out", sim).exit_code == 0
    assert_one_line_error(invoke("certify", sim), "simulate run")
    plain = tmp_path / "plain"
    with Study(plain, [RunConfig("base", 3, ("expert",) * 3)], 10, seed=1, meta={"kind": "file"},
               game=GameDeal.default()) as s:
        s.run(progress=False)
    assert_one_line_error(invoke("certify", plain), "no configuration was played with strong")


def test_a_certify_folder_of_another_study_is_one_line(parent, tmp_path, small_chunks):
    quick = copy(parent, tmp_path / "quick")
    rung.run(quick, games=2, progress=False)
    main = tiny_study(tmp_path / "main", games=8)  # another study: its own seed's plan, a main rather than a quick
    manifest = json.loads((main / "manifest.json").read_text())
    manifest["meta"]["name"] = "main study"
    (main / "manifest.json").write_text(json.dumps(manifest))
    shutil.copytree(quick / rung.SUBFOLDER, main / rung.SUBFOLDER, ignore=shutil.ignore_patterns(".lock"))
    before = (main / rung.SUBFOLDER / "manifest.json").read_bytes()
    assert_one_line_error(invoke("certify", main, "--games", "2"), "certifies another study", "tiny study", "main study")
    assert (main / rung.SUBFOLDER / "manifest.json").read_bytes() == before


@pytest.mark.slow  # a research script: its library (the certify kernels) is tested above
def test_the_pilot_script_runs_on_a_tiny_budget(tmp_path):  # "certify_pilot.py"
    done = subprocess.run([sys.executable, str(ROOT / "research" / "certify_pilot.py"), "--games", "4",
                           "--resamples", "20", "--out", str(tmp_path / "pilot"), "--json", str(tmp_path / "p.json")],
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "p.json").read_text())
    assert set(data["findings"]) == {f"{v} seat {s} wins" for v in ("base", "sleep-token") for s in (1, 2, 3)} | {
        "sleep-token vs base: seat spread"}


def test_the_commands_table_names_holms_family_and_the_rungs_margin():
    from reports.certify import certify_lines

    row = {"topic": "seat", "players": 2, "variant": "base", "baseline": None, "seat": 1, "level": rung.top_rung(8),
           "playouts": 8, "value": 0.6, "low": 0.55, "high": 0.65, "strong_value": 0.58, "strong_low": 0.56,
           "strong_high": 0.60, "verdict": "above", "strong_verdict": "above", "deals": 300, "correlation": 0.3,
           "reduction": 1.1, "family": 7, "rung_margin": "+0.3 points (-2.1 to +2.7) head to head over strong"}
    lines = certify_lines({"folder": "f", "played": 0, "findings": [row]})
    assert any("Holm's correction across the 7 claims" in line for line in lines)
    assert f"{rung.top_rung(8)} against strong, 2p base: +0.3 points (-2.1 to +2.7) head to head over strong" in lines


def test_a_correlation_strong_gives_no_spread_to_is_shown_as_not_available():
    """Over 20 deals a 4-player seat 4 can lose every one of strong's games: nothing varies, the correlation is
    undefined (NaN), and the table says n/a rather than +nan."""
    from reports.certify import certify_lines

    row = {"topic": "seat", "players": 4, "variant": "sleep-token", "baseline": None, "seat": 4,
           "level": rung.top_rung(16), "playouts": 16, "value": 0.06, "low": -0.03, "high": 0.16, "strong_value": 0.04,
           "strong_low": 0.036, "strong_high": 0.051, "verdict": "below", "strong_verdict": "below", "deals": 20,
           "correlation": float("nan"), "reduction": 1.0, "family": 7, "rung_margin": ""}
    line = next(line for line in certify_lines({"folder": "f", "played": 0, "findings": [row]}) if "seat 4 wins" in line)
    assert "n/a" in line and "nan" not in line
    assert "+0.34" in next(line for line in certify_lines({"folder": "f", "played": 0,
                                                           "findings": [dict(row, correlation=0.34)]}) if "seat 4" in line)
