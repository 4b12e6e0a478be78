"""The report framework (issue #40): it imports no game, writes every interval one way, picks a finding's
row by what it says, finds each game's report by name (built in or through the entry-point group), and
builds every game's report from a study folder."""
from __future__ import annotations

import ast
import json
import re
import sys
import textwrap
import tomllib
from importlib.metadata import EntryPoint
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from reports.findings import Finding, best_row, excludes, worst_row
from reports.numbers import change_with_interval, mean_with_interval, rate_with_interval

ROOT = Path(__file__).resolve().parents[1]
FRAMEWORK = ROOT / "reports"
# A game package: one game's engine (simcore.games.<game>), analyses (analyses.games.<game>) or report
# (reports.games.<game>). The registries themselves (simcore.games, analyses.games, reports.games) know no
# game's code.
GAME_MODULE = re.compile(r"^(simcore\.games\.\w+|analyses\.games\.\w+|reports\.games\.\w+)(\.|$)")
GAME_STRING = re.compile(r"\b(simcore\.games\.[a-z_]+|analyses\.games\.[a-z_]+|reports\.games\.[a-z_]+)")


def framework_files() -> list[Path]:
    """reports/ minus reports/games/."""
    return sorted(p for p in FRAMEWORK.rglob("*.py") if "games" not in p.relative_to(FRAMEWORK).parts[:-1])


def is_package_dir(module: str) -> bool:
    """``module`` is a module or package of this project's source tree."""
    base = ROOT.joinpath(*module.split("."))
    return base.is_dir() or base.with_suffix(".py").is_file()


def game_imports(path: Path, package: str = "reports") -> list[str]:
    """Every place ``path`` names a game package: an import (top level or inside a function, relative ones
    resolved), or a string an importlib call could load (``"simcore.games.dreamscape"``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:  # from .games import x -> reports.games.x
                module = ".".join([package, module]).rstrip(".")
            # from a registry, only a submodule (a game's package) counts: from reports.games import dreamscape
            names = [module] + [f"{module}.{a.name}" for a in node.names if is_package_dir(f"{module}.{a.name}")]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            names = [m.group(1) for m in GAME_STRING.finditer(node.value)]
            found += [f"{path.name}:{node.lineno} names {n} in a string" for n in names]
            continue
        found += [f"{path.name}:{node.lineno} imports {n}" for n in names if GAME_MODULE.match(n)]
    return found


def test_the_report_framework_imports_no_game_package():
    files = framework_files()
    assert {p.name for p in files} >= {"pdf.py", "charts.py", "findings.py", "numbers.py", "wing.py", "tables.py",
                                       "labels.py", "narrate.py"}
    found = [hit for path in files for hit in game_imports(path)]
    assert not found, found


def test_the_scan_finds_every_kind_of_game_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(textwrap.dedent('''\
        """Docstrings may name simcore.games.dreamscape."""
        import simcore.games.counting_zzzzs
        from analyses.games.pleasant_dreams import pd_summary
        from analyses.games import get_game
        from reports.games import report_wing

        def later():
            from reports.games.dreamscape.data import collect
            from .games import counting_zzzzs
            import importlib
            return importlib.import_module("simcore.games.pleasant_dreams")
        '''), encoding="utf-8")
    hits = game_imports(sample)
    assert [h.split(":")[1].split(" ")[0] for h in hits] == ["2", "3", "8", "9", "11"], hits
    assert not any("simcore.games import" in h or h.endswith("imports reports.games") for h in hits)


# ----------------------------------------------------------------------------- one way to write an interval


def test_a_rate_is_written_as_the_dreamscape_tables_write_it():
    assert rate_with_interval(0.588, 0.585, 0.590) == "58.8% (58.5-59.0%)"
    assert rate_with_interval(1 / 3, 0.30, 0.36667) == "33.3% (30.0-36.7%)"
    assert rate_with_interval(0.5, 0.41234, 0.58766, digits=2) == "50.00% (41.23-58.77%)"
    assert rate_with_interval(1.0, float("nan"), float("nan")) == "100.0% (no interval)"


def test_a_change_is_signed_with_its_bounds_joined_by_to():
    assert change_with_interval(0.026, 0.012, 0.041) == "+2.6 (+1.2 to +4.1)"
    assert change_with_interval(-0.014, -0.031, 0.0049) == "-1.4 (-3.1 to +0.5)"
    # a change of means is written as measured (scale 1), here in turns with two decimals
    assert change_with_interval(0.4, -0.127, 0.9271, digits=2, scale=1) == "+0.40 (-0.13 to +0.93)"
    assert change_with_interval(0.0, float("-inf"), float("inf")) == "+0.0 (no interval)"
    assert change_with_interval(-0.0001, -0.01, 0.01) == "+0.0 (-1.0 to +1.0)"   # a rounded zero is never -0.0


def test_a_mean_is_written_with_its_bounds_joined_by_a_dash():
    assert mean_with_interval(11.5, 10.24, 12.76) == "11.5 (10.2-12.8)"
    assert mean_with_interval(5.123, 5.0449, 5.2011, digits=2) == "5.12 (5.04-5.20)"
    assert mean_with_interval(7.0, float("nan"), float("nan")) == "7.0 (no interval)"


def test_every_game_table_and_report_writes_intervals_through_the_framework():
    """No table or report writes a rate's interval by hand (``[lo, hi]`` or ``(lo% to hi%)``) any more."""
    by_hand = re.compile(r"\[\{[^}]*low[^}]*\}, \{[^}]*high|\(\{pct\(r\['low'\]\)\} to|\\u00b1\{100 \* half")
    for path in [*FRAMEWORK.rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        assert not by_hand.search(text), f"{path.relative_to(ROOT)} writes an interval by hand"


# ----------------------------------------------------------------------------- findings pick the right row


def test_best_and_worst_rows_are_picked_by_value_first_on_a_tie():
    seats = [{"seat": 1, "rate": 0.31}, {"seat": 2, "rate": 0.36}, {"seat": 3, "rate": 0.36}, {"seat": 4, "rate": 0.2}]
    assert best_row(seats, "rate")["seat"] == 2   # seats 2 and 3 tie: the first listed
    assert worst_row(seats, "rate")["seat"] == 4
    assert best_row([], "rate") is None
    assert excludes(0.26, 0.31, 0.25) and excludes(-0.05, -0.01, 0.0) and not excludes(0.24, 0.3, 0.25)


def _no_tables(**tables) -> dict:
    empty = {k: pl.DataFrame() for k in ("first_player", "game_shape", "balance_rule", "action_kinds",
                                         "element_cards", "bot_strength")}
    return {**empty, **tables}


def test_a_counting_zzzzs_finding_names_the_action_kind_that_costs_most():
    from reports.games.counting_zzzzs import findings
    kinds = pl.DataFrame([
        {"players": 3, "action": "bender", "seat_games": 300, "win_change": -0.021, "low": -0.05, "high": 0.008},
        {"players": 3, "action": "block", "seat_games": 300, "win_change": -0.084, "low": -0.118, "high": -0.05},
        {"players": 3, "action": "force", "seat_games": 300, "win_change": 0.012, "low": -0.02, "high": 0.044},
        {"players": 2, "action": "force", "seat_games": 200, "win_change": -0.01, "low": -0.04, "high": 0.02},
    ])
    out = [f for f in findings(_no_tables(action_kinds=kinds)) if f.topic == "actions"]
    assert [f.row["action"] for f in out] == ["force", "block"]           # 2 players, then 3: the largest loss each
    three = out[1]
    assert three.significant and not out[0].significant                  # -11.8 to -5.0 leaves 0 out
    assert "without block a seat's win credit changes by -8.4 (-11.8 to -5.0) points" in three.text


def test_a_counting_zzzzs_first_player_finding_is_starred_only_when_the_fair_share_is_out():
    from reports.games.counting_zzzzs import findings
    fp = pl.DataFrame([
        {"players": 2, "variant": "base", "bot": "greedy", "games": 1000, "seat1_win": 0.56, "low": 0.529,
         "high": 0.5902, "fair": 0.5},
        {"players": 4, "variant": "base", "bot": "greedy", "games": 1000, "seat1_win": 0.26, "low": 0.234,
         "high": 0.288, "fair": 0.25},
    ])
    out = findings(_no_tables(first_player=fp))
    assert [f.significant for f in out] == [True, False]
    assert out[0].text == ("First player, 2 players (greedy): seat 1 wins 56.0% (52.9-59.0%) against a fair 50.0%.")


# ----------------------------------------------------------------------------- the registry


def test_each_built_in_game_has_one_report_wing():
    from reports.games import report_wing
    from reports.wing import ReportWing
    from analyses.games import game_names

    for name in game_names():
        wing = report_wing(name)
        assert isinstance(wing, ReportWing) and wing.game == name
        assert wing.topics and all(isinstance(h, str) for h in wing.topics.values())


def test_the_pyproject_entry_points_name_the_built_in_wings():
    from reports.games import ENTRY_POINT_GROUP, built_in_module
    from analyses.games import game_names

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][ENTRY_POINT_GROUP]
    assert declared == {name: f"{built_in_module(name)}:WING" for name in game_names()}


def test_a_designers_report_is_found_through_the_entry_point_group(tmp_path, monkeypatch):
    import reports.games as registry
    from analyses.study.model import StudyError

    (tmp_path / "tiny_game_report.py").write_text(textwrap.dedent('''\
        from reports.wing import GameReport
        WING = GameReport(game="tiny-game", topics={"first": "First player"}, tables=lambda folder: {},
                          findings=lambda tables: [], build_report=lambda folder, pdf=None, png_dir=None: "built",
                          summary_output=lambda folder, as_json: ["tiny"])
        '''), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    points = [EntryPoint("tiny-game", "tiny_game_report:WING", registry.ENTRY_POINT_GROUP),
              EntryPoint("not-a-wing", "json:dumps", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: [p for p in points if p.group == group])
    assert registry.report_wing("tiny-game").build_report(tmp_path) == "built"
    with pytest.raises(StudyError, match="not a report wing of not-a-wing"):
        registry.report_wing("not-a-wing")
    with pytest.raises(StudyError, match="no-such-game has no study report"):
        registry.report_wing("no-such-game")
    sys.modules.pop("tiny_game_report", None)


# ----------------------------------------------------------------------------- the framework's pages


def test_a_report_is_title_findings_the_games_pages_then_charts(tmp_path):
    from matplotlib.figure import Figure

    from reports.charts import Chart
    from reports.pdf import write_report

    chart = Figure()
    chart.add_subplot().plot([0, 1], [1, 0])
    findings = [Finding("Seat 1 wins 52.0% (50.1-53.9%) against a fair 50.0%.", True, "first", "seats", {}),
                Finding("Games last 12.0 (11.8-12.2) turns.", False, "length", "length", {})]
    files = write_report(tmp_path, None, None, pdf_title="t", heading="A game's balance report", subtitle="s",
                         facts=[("Seed", "1")], findings=findings, topics={"first": "Seats", "length": "Length"},
                         extra_pages=[("Notes", Figure())], charts=[Chart("seats", "Seat advantage", chart)])
    assert files.pages == ["Title", "Findings", "Notes", "Seat advantage"]
    assert files.pdf == tmp_path / "report.pdf" and files.pdf.stat().st_size > 1000
    assert files.pngs == [tmp_path / "charts" / "seats.png"] and files.pngs[0].stat().st_size > 1000


# ----------------------------------------------------------------------------- every game's report from a folder

SMALL_CZ_PLAN = """\
game = "counting-zzzzs"
name = "small"
seed = 3
games = 120
chunk_size = 60

[[configs]]
players = [2, 3]
variants = ["base"]
strategy = ["random", "greedy"]

[[configs]]
games = 60
players = [2]
variants = ["base"]
restrict = "greedy"
"""


@pytest.fixture(scope="module")
def cz_folder(tmp_path_factory):
    from typer.testing import CliRunner

    from cli import app

    tmp = tmp_path_factory.mktemp("cz")
    (tmp / "plan.toml").write_text(SMALL_CZ_PLAN, encoding="utf-8")
    result = CliRunner().invoke(app, ["study", "--config", str(tmp / "plan.toml"), "--out", str(tmp / "study"),
                                      "--no-progress"])
    assert (tmp / "study" / "manifest.json").exists(), result.output
    return tmp / "study"


def test_counting_zzzzs_report_and_summary_through_the_command_line(cz_folder, tmp_path):
    from typer.testing import CliRunner

    from cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["report", str(cz_folder), "--pdf", str(tmp_path / "r.pdf"),
                                 "--png-dir", str(tmp_path / "png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r.pdf").stat().st_size > 10_000 and (tmp_path / "png" / "first_player.png").exists()
    result = runner.invoke(app, ["summarize", str(cz_folder), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # seat 1's win share of every one-bot configuration, recounted by hand from the folder's rows (a shared
    # win counts 1/k), with Wilson's interval worked out from its formula
    from reports.games.counting_zzzzs import read_folder

    rows, configs, _, _, _ = read_folder(cz_folder)
    z = 1.959963984540054
    for r in data["first_player"]:
        config = [c["config"] for c in configs.iter_rows(named=True)
                  if c["players"] == r["players"] and c["strategies"] == [r["bot"]] * r["players"]]
        seat1 = rows.filter((pl.col("config") == config[0]) & (pl.col("seat") == 0))
        n, k = seat1.height, float(seat1["win"].sum())
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        assert (r["games"], r["seat1_win"]) == (n, pytest.approx(p))
        assert (r["low"], r["high"]) == (pytest.approx(centre - half), pytest.approx(centre + half))
    assert {r["players"] for r in data["first_player"]} == {2, 3}
    lines = runner.invoke(app, ["summarize", str(cz_folder)]).output
    assert "First player, 2 players (greedy): seat 1 wins " in lines and "% (" in lines


def test_counting_zzzzs_summary_means_use_students_t(cz_folder):
    """The game-length interval is the t interval of the per-game turn counts (one statistics module)."""
    from scipy import stats

    from reports.games.counting_zzzzs import read_folder, tables

    t = tables(cz_folder)
    rows, configs, _, _, _ = read_folder(cz_folder)
    shape = t["game_shape"].filter((pl.col("players") == 2) & (pl.col("bot") == "greedy")).row(0, named=True)
    config = [c["config"] for c in configs.iter_rows(named=True) if c["strategies"] == ["greedy", "greedy"]][0]
    turns = rows.filter((pl.col("config") == config) & (pl.col("seat") == 0)).sort("game")["turns"].to_numpy()
    half = stats.t.ppf(0.975, turns.size - 1) * turns.std(ddof=1) / np.sqrt(turns.size)
    assert shape["turns"] == pytest.approx(turns.mean())
    assert shape["turns_high"] - shape["turns"] == pytest.approx(half)


def test_pleasant_dreams_findings_write_rates_and_changes_in_the_one_form():
    from reports.games.pleasant_dreams import make_findings

    s = {"first_player": [{"variant": "base", "strategy": "threshold", "rate": 0.497, "low": 0.494, "high": 0.5,
                           "turns": 13.6, "significant": False}],
         "action_value": [{"action": "barrier", "value": 0.117, "low": 0.115, "high": 0.119, "strategy": "threshold",
                           "variant": "base", "with": 0.6, "without": 0.483, "games": 1000, "significant": True}],
         "holding": [], "expansion": [], "difficulty": [], "solo_challenge": [], "solo_chosen": [], "solver": []}
    first, barrier = make_findings(s)
    assert "seat 1 wins 49.7% (49.4-50.0%) against a fair 50.0%" in first.text and not first.significant
    assert barrier.text.startswith("Barrier is worth +11.7 (+11.5 to +11.9) points of win rate") and barrier.significant
