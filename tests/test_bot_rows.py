"""A study folder records what its bots played (issue #42): the digest of every bot's engine row per
configuration, refused on a resume when the code plays another row, named by the summary, report and certify.

The expected digests are worked out here from the shipped files (the expert table a configuration plays,
strong's value after it), not taken from the code that records them.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from analyses.study.botrows import NOT_RECORDED, OTHER_ROWS, read_bot_rows
from analyses.study.folder import MANIFEST, Study, load_manifest
from analyses.study.model import RunConfig, StudyError
from fake_chunks import fake_chunk
from simcore.games.dreamscape.bots.expert import SHIPPED_DIR as TABLES, ROWS_DIR, read_table, shipped_table
from simcore.games.dreamscape.bots.strong import SHIPPED_DIR as VALUES, read_value
from simcore.games.dreamscape.fast.layout import N_FEATURES

ROOT = Path(__file__).resolve().parents[1]
EXPERT = RunConfig("base", 2, ("expert", "expert"))
STRONG = RunConfig("base", 3, ("strong", "strong", "strong"))
SEARCH = RunConfig("sleep-token", 3, ("search:strong@8:late", "strong", "strong"))
PLAIN = RunConfig("base", 2, ("greedy", "random"))


def sha(*parts: np.ndarray) -> str:
    return hashlib.sha256(np.concatenate([np.asarray(p, dtype=np.float64) for p in parts]).tobytes()).hexdigest()


def overlaid(name: str) -> np.ndarray:
    """The shipped expert table of a file with its fitted rows overlaid (issue #41; the overlay itself is tested in
    tests/test_expert_rows.py)."""
    return shipped_table(TABLES / name)


def tamper(folder: Path, config: RunConfig, bot: str, digest: str = "0" * 64, drop_last_chunk: bool = True) -> None:
    """Write another digest for ``bot`` in ``config``'s record; drop its last chunk's record so a resume has games
    to play (as after a hard kill: the chunk's files stay, the manifest no longer lists them)."""
    data = json.loads((folder / MANIFEST).read_text())
    data["bot_rows"][config.id][bot] = digest
    if drop_last_chunk:
        data["chunks"][config.id] = data["chunks"][config.id][:-1]
    (folder / MANIFEST).write_text(json.dumps(data))


def test_a_clean_run_records_the_digest_of_every_shipped_row(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT, STRONG, SEARCH, PLAIN], games=40, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    rows = load_manifest(folder).bot_rows
    # 2 players, base: the table of 2p-base.toml (no fitted rows there)
    assert not (ROWS_DIR / "2p-base.toml").exists()
    assert rows[EXPERT.id] == {"expert": sha(read_table(TABLES / "2p-base.toml")[1])}
    # 3 players, base: strong plays the 3-player table with its fitted rows, then the 3p-base value
    strong_base = sha(overlaid("3p-base.toml"), read_value(VALUES / "3p-base.npz").packed())
    assert rows[STRONG.id] == {"strong": strong_base}
    # a search player is recorded by the row of the bot it searches over, in the configuration's rules
    strong_token = sha(overlaid("3p-sleep-token.toml"), read_value(VALUES / "3p-sleep-token.npz").packed())
    assert rows[SEARCH.id] == {"search:strong@8:late": strong_token, "strong": strong_token}
    assert strong_token != strong_base
    # bots without weights play the empty row
    zeros = sha(np.zeros(N_FEATURES))
    assert rows[PLAIN.id] == {"greedy": zeros, "random": zeros}
    assert read_bot_rows(load_manifest(folder)).lines() == []


def test_the_fitted_rows_are_part_of_strong_s_3_player_row():
    """The 3-player base table has fitted rows (issue #41): the row recorded is not the file's table alone."""
    assert (ROWS_DIR / "3p-base.toml").exists()
    assert not np.array_equal(overlaid("3p-base.toml"), np.asarray(read_table(TABLES / "3p-base.toml")[1], float))


def test_a_resume_refuses_a_changed_row_and_restart_plays_the_configuration_again(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT, PLAIN], games=40, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    first = load_manifest(folder)
    tamper(folder, EXPERT, "expert")
    with pytest.raises(StudyError) as err:
        Study(folder, [EXPERT, PLAIN], games=40, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    line = str(err.value)
    assert "\n" not in line and EXPERT.id in line and "another expert" in line and "--restart-changed" in line
    assert load_manifest(folder).done_games(EXPERT.id) == 20  # nothing was played or recorded
    played = []

    def counting(task):
        played.append((task.config.id, task.first))
        return fake_chunk(task)

    Study(folder, [EXPERT, PLAIN], games=40, seed=3, chunk_size=20, restart_changed=True).run(counting, progress=False)
    assert sorted(played) == [(EXPERT.id, 0), (EXPERT.id, 20)]  # the whole configuration again, the other kept
    again = load_manifest(folder)
    assert again.bot_rows == first.bot_rows  # the code's rows, recorded again
    assert [r.checks for r in again.chunks[EXPERT.id]] == [r.checks for r in first.chunks[EXPERT.id]]


def test_a_refused_run_that_is_not_a_study_is_not_sent_to_the_study_s_flag(tmp_path):
    """certify's own folder (kind "certify") has no --restart-changed: its refusal names the remedy it has."""
    folder = tmp_path / "certify"
    meta = {"kind": "certify", "name": "certified top rung"}
    Study(folder, [EXPERT], games=40, seed=3, chunk_size=20, meta=meta).run(fake_chunk, progress=False)
    tamper(folder, EXPERT, "expert")
    with pytest.raises(StudyError) as err:
        Study(folder, [EXPERT], games=40, seed=3, chunk_size=20, meta=meta).run(fake_chunk, progress=False)
    line = str(err.value)
    assert "another expert" in line and "--restart-changed" not in line and "delete this one" in line


def test_a_resume_with_the_same_rows_plays_on(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT], games=20, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    Study(folder, [EXPERT], games=40, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    assert load_manifest(folder).done_games(EXPERT.id) == 40


def test_an_older_folder_is_not_given_rows_its_first_games_may_not_have_played(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT], games=20, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    data = json.loads((folder / MANIFEST).read_text())
    del data["bot_rows"]  # as a folder written before rows were recorded
    (folder / MANIFEST).write_text(json.dumps(data))
    assert read_bot_rows(load_manifest(folder)).lines() == [f"{NOT_RECORDED} (a folder written before studies recorded them)"]
    Study(folder, [EXPERT], games=40, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    m = load_manifest(folder)
    assert m.done_games(EXPERT.id) == 40 and EXPERT.id not in m.bot_rows


def test_a_damaged_rows_record_is_a_damaged_manifest(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT], games=20, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    data = json.loads((folder / MANIFEST).read_text())
    data["bot_rows"][EXPERT.id]["expert"] = 7
    (folder / MANIFEST).write_text(json.dumps(data))
    with pytest.raises(StudyError, match="damaged manifest.*bot_rows"):
        load_manifest(folder)


def test_the_reading_names_each_configuration_played_by_other_rows(tmp_path):
    folder = tmp_path / "s"
    Study(folder, [EXPERT, STRONG, PLAIN], games=20, seed=3, chunk_size=20).run(fake_chunk, progress=False)
    tamper(folder, STRONG, "strong", drop_last_chunk=False)
    reading = read_bot_rows(load_manifest(folder))
    assert reading.lines() == [f"3 players, base, strong: {OTHER_ROWS} (strong: the recorded row differs from what "
                               "the code plays now)"]
    assert reading.changed_bots(3, "base") == {"strong"} and reading.changed_bots(2, "base") == set()


def test_a_verdict_resting_on_other_rows_says_so():
    from analyses.study.botrows import RowsReading
    from reports.games.dreamscape.robust import VERDICT_WORDS, Level, played_by_other_rows

    reading = RowsReading(kept=True, changed={STRONG.id: ["strong"]}, played={STRONG.id: STRONG, EXPERT.id: EXPERT})
    t = SimpleNamespace(bot_rows=reading)
    levels = [Level("expert", 0.5, 0.4, 0.6, 1 / 3, 100, True), Level("strong", 0.5, 0.4, 0.6, 1 / 3, 100, True)]
    assert played_by_other_rows(t, levels, "seats", {"players": 3, "variant": "base", "seat": 0})
    assert not played_by_other_rows(t, levels, "seats", {"players": 3, "variant": "sleep-token", "seat": 0})
    # a change reads its baseline too: a changed base game marks the Sleep Token finding
    assert played_by_other_rows(t, levels, "compare", {"players": 3, "variant": "sleep-token", "baseline": "base"})
    assert not played_by_other_rows(t, levels[:1], "seats", {"players": 3, "variant": "base", "seat": 0})
    assert VERDICT_WORDS["other rows"].startswith(OTHER_ROWS)


def cli(*args):
    from typer.testing import CliRunner

    from cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


STUDY_FILE = """name = "rows"
seed = 5
chunk_size = 100

[[configs]]
games = 200
players = 2
variants = ["base"]
strategy = "expert"
"""


def test_the_command_line_refuses_a_changed_row_in_one_line_exit_2_and_restarts_it_when_asked(tmp_path):
    from cli_checks import assert_one_line_error

    (tmp_path / "rows.toml").write_text(STUDY_FILE)
    folder = tmp_path / "out"
    study = ("study", "--config", tmp_path / "rows.toml", "--out", folder, "--json")
    done = cli(*study)
    assert done.exit_code == 0, done.output
    first = load_manifest(folder)
    (config,) = first.configs
    tamper(folder, config, "expert", "f" * 64)
    assert_one_line_error(cli(*study), config.id, "another expert", "--restart-changed")
    summary = cli("summarize", folder)
    assert summary.exit_code == 0, summary.output
    assert f"bot rows: 2 players, base, expert: {OTHER_ROWS}" in summary.stdout
    again = cli(*study, "--restart-changed")
    assert again.exit_code == 0, again.output
    m = load_manifest(folder)
    assert m.bot_rows == first.bot_rows and m.done_games(config.id) == 200
    # the same seed plays the same games: the chunks played again are byte for byte the first run's
    assert [r.checks for r in m.chunks[config.id]] == [r.checks for r in first.chunks[config.id]]
    assert OTHER_ROWS not in cli("summarize", folder).stdout


def test_the_report_s_title_page_and_certify_name_the_configurations_played_by_other_rows(tmp_path):
    from analyses.games.dreamscape.certify import bot_rows_lines, mark_other_rows
    from analyses.games.dreamscape.frames import collect
    from reports.games.dreamscape.report import bot_rows_facts

    folder = tmp_path / "s"
    Study(folder, [STRONG, RunConfig("sleep-token", 3, ("strong",) * 3)], games=20, seed=3,
          chunk_size=20).run(fake_chunk, progress=False)
    assert bot_rows_facts(collect(folder))[0][1].startswith("recorded for every configuration")
    tamper(folder, STRONG, "strong", drop_last_chunk=False)
    assert bot_rows_facts(collect(folder)) == [
        ("Bot rows", f"3 players, base, strong: {OTHER_ROWS} (strong: the recorded row differs from what the code "
                     "plays now)")]
    assert bot_rows_lines(folder) == [f"study: 3 players, base, strong: {OTHER_ROWS} (strong: the recorded row "
                                      "differs from what the code plays now)"]
    rows = [{"players": 3, "variant": "sleep-token", "baseline": "base", "verdict": "above", "strong_verdict": "above"},
            {"players": 3, "variant": "sleep-token", "baseline": None, "verdict": "above", "strong_verdict": "above"}]
    marked = mark_other_rows(rows, folder)
    assert (marked[0]["verdict"], marked[0]["strong_verdict"]) == (OTHER_ROWS, OTHER_ROWS)  # reads the base game
    assert (marked[1]["verdict"], marked[1]["strong_verdict"]) == ("above", "above")  # Sleep Token's rows are the code's
    data = json.loads((folder / MANIFEST).read_text())
    del data["bot_rows"]
    (folder / MANIFEST).write_text(json.dumps(data))
    assert bot_rows_facts(collect(folder)) == [("Bot rows", f"{NOT_RECORDED} (a folder written before studies recorded them)")]


def test_the_title_page_keeps_its_size_when_many_configurations_changed():
    from analyses.study.botrows import RowsReading
    from reports.games.dreamscape.report import MAX_ROWS_LINES, bot_rows_facts

    configs = [RunConfig(v, p, ("expert",) * p) for p in (2, 3, 4) for v in ("base", "sleep-token", "shifting-tokens")]
    reading = RowsReading(kept=True, changed={c.id: ["expert"] for c in configs}, played={c.id: c for c in configs})
    facts = bot_rows_facts(SimpleNamespace(bot_rows=reading))
    assert len(facts) == MAX_ROWS_LINES < len(configs)
    assert facts[-1][1].startswith(f"... and {len(configs) - MAX_ROWS_LINES + 1} more configurations")
    assert len(reading.lines()) == len(configs)  # the summary lists every one


def test_a_strategy_file_is_recorded_by_its_source_too(tmp_path):
    """A user's strategy has no weights (its row is the empty one): its digest carries its source's fingerprint,
    so an edited file is another bot, and the same file the same one."""
    from analyses.games.dreamscape.botrows import bot_digest

    first, edited = tmp_path / "first.py", tmp_path / "edited.py"
    first.write_text("def bot(kind, seat, features, state):\n    return features[0]\n")
    edited.write_text("def bot(kind, seat, features, state):\n    return -features[0]\n")
    zeros = sha(np.zeros(N_FEATURES))
    a = bot_digest(f"{first}:bot", 2, "base")
    assert a != zeros and a == bot_digest(f"{first}:bot", 2, "base")
    assert bot_digest(f"{edited}:bot", 2, "base") not in (a, zeros)
    assert bot_digest(f"search:{first}:bot@4", 2, "base") == a  # a search over it: its base bot's digest


def test_the_verdicts_resting_on_a_configuration_played_by_other_rows_say_so_and_the_others_stand():
    """tests/test_robust.py's hand-worked tables: linear's 3-player base games recorded as another linear. Every
    3-player finding reads linear there (the seats; Sleep Token against the base game), the 2-player ones do not."""
    from analyses.study.botrows import RowsReading
    from reports.games.dreamscape.findings import make_findings
    from reports.games.dreamscape.robust import check_findings
    from test_robust import tables

    linear3 = RunConfig("base", 3, ("linear",) * 3)
    t = tables()
    t.bot_rows = RowsReading(kept=True, changed={linear3.id: ["linear"]}, played={linear3.id: linear3})
    _, checks = check_findings(make_findings(t), t)
    seats = {(c.finding.row["players"], c.finding.row["seat"]): c.verdict for c in checks if c.finding.topic == "seats"}
    assert seats == {(3, 0): "other rows", (3, 2): "other rows", (2, 1): "unconfirmed"}  # was robust, flips
    compare = {c.finding.row["players"]: c.verdict for c in checks if c.finding.topic == "compare"}
    assert compare == {3: "other rows", 2: "robust"}  # the 3-player change reads its base game
    marked = next(c for c in checks if c.verdict == "other rows")
    assert OTHER_ROWS in marked.finding.text and marked.finding.robustness == "other rows"
