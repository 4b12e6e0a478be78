"""Adding a game, end to end (docs/guide/add-a-game.md): the template copied into a package of its own,
registered through its entry points only, then played by the lab's commands.

The copy sits in a temporary directory with a ``.dist-info`` folder beside it (METADATA and the
entry_points.txt its pyproject.toml declares), which is what ``pip install`` leaves; with that directory on
``sys.path`` (or PYTHONPATH for the CLI) ``importlib.metadata`` finds both entry points, so the lab meets
the game exactly as it meets a designer's installed package. No pip, no network.

In this process the copy is imported under the template's own module name, so the template's modules
loaded by tests/test_template_game.py are put aside for the module and restored after it.

Expected values are the rules' (a game lasts as many rounds as there are cards, G5.1; a shared win is
split, G5.2) or the game's own ``play_games`` read directly, game g of a seed being game g of every
lab command with that seed.
"""
from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "templates" / "goofspiel"
DREAMSCAPE = Path(sys.executable).with_name("dreamscape")

import analyses.games as registry  # noqa: E402  (the lab's game registry: entry points and register())


def install_without_pip(site: Path) -> dict:
    """The template's package copied into ``site`` with the .dist-info pip would write for it; its entry points."""
    meta = tomllib.loads((TEMPLATE / "pyproject.toml").read_text("utf-8"))
    project = meta["project"]
    for package in meta["tool"]["setuptools"]["packages"]:
        shutil.copytree(TEMPLATE / package, site / package, ignore=shutil.ignore_patterns("__pycache__"))
    dist = site / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
                                   encoding="utf-8")
    groups = project["entry-points"]
    (dist / "entry_points.txt").write_text(
        "".join(f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) + "\n"
                for group, points in groups.items()), encoding="utf-8")
    return groups


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The installed copy, importable in this process for the module's tests; everything put back after."""
    site = tmp_path_factory.mktemp("site")
    groups = install_without_pip(site)
    assert set(groups) == {"dreamscape.games", "dreamscape.reports"}
    aside = {name: sys.modules.pop(name) for name in list(sys.modules) if name.split(".")[0] == "goofspiel"}
    from analyses.study import gamechunks

    # a test file run before this one in the same process (any order under pytest-xdist) may have played the
    # template's own classes: their cached setups would be refused by the copy's engine
    registry.unregister("goofspiel")
    gamechunks._SETUPS.clear()
    gamechunks._CARDS.clear()
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    try:
        yield site
    finally:
        registry.unregister("goofspiel")
        gamechunks._SETUPS.clear()   # setups of the copy's classes, which the template's engine would refuse
        gamechunks._CARDS.clear()
        sys.path.remove(str(site))
        for name in [n for n in sys.modules if n.split(".")[0] == "goofspiel"]:
            del sys.modules[name]
        sys.modules.update(aside)
        importlib.invalidate_caches()


def cli(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(site), DREAMSCAPE_SERVER="off")
    done = subprocess.run([str(DREAMSCAPE), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600)
    assert done.returncode == 0, f"dreamscape {' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}"
    return done


def cli_here(*args: str, cwd: Path):
    """The same command in this process: the ``site`` fixture put the copy on sys.path, where the registry reads
    its entry points as a process started with PYTHONPATH does (the CLI test's simulate proves that path)."""
    from contextlib import chdir

    from typer.testing import CliRunner

    from cli import app

    with chdir(cwd):
        done = CliRunner().invoke(app, list(args))
    assert done.exit_code == 0, f"dreamscape {' '.join(args)}: exit {done.exit_code}\n{done.output[-2000:]}"
    return done


def credit(game, players: int, variant: str, strategies: list[str], seed: int, games: int) -> np.ndarray:
    """Win credit per game and seat, straight from the game's play_games (G5.2: a shared win is split)."""
    setup = game.parse_setup(players, variant, None)
    return game.seat_wins(game.play_games(setup, strategies, seed, 0, games, engine="fast"), setup)


# ----------------------------------------------------------------------------- found through the entry points


def test_the_registry_finds_the_copy_and_its_report(site):
    from reports.games import report_wing

    assert "goofspiel" in registry.game_names()
    game = registry.get_game("goofspiel")
    module = sys.modules[type(game.parse_setup(2, "base", None)).__module__]
    assert Path(module.__file__).is_relative_to(site)          # the copy, not the lab's templates/ folder
    wing = report_wing("goofspiel")
    assert wing.game == "goofspiel" and Path(sys.modules[wing.build_report.__module__].__file__).is_relative_to(site)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", ["base", "carry"])
def test_the_copys_engines_agree_decision_by_decision(site, players, variant):
    """Every bid (round, seat, cards held, bid) of 40 games, reference against fast (G7.2)."""
    game = registry.get_game("goofspiel")
    fast, reference = (importlib.import_module(f"goofspiel.{m}") for m in ("fast", "reference"))
    from goofspiel.bots import parse_bot

    setup = game.parse_setup(players, variant, None)
    specs = [("match", "random", "search@2")[s % 3] for s in range(players)]
    bots = [parse_bot(s) for s in specs]
    for g in range(40):
        trace: list = []
        reference.play_one(setup, bots, 11, g, trace=trace)
        ref = np.array(trace, dtype=np.int64).reshape(-1, fast.TR_WIDTH)
        assert ref.shape[0] == setup.n_cards * players                  # every seat bids every round (G3)
        np.testing.assert_array_equal(fast.trace_game(setup, bots, 11, g), ref, err_msg=f"game {g}")


# ------------------------------------------------------------------------------------- the lab's commands


def test_simulate_compare_and_tournament_through_the_lab(site, tmp_path):
    from analyses import lab

    game = registry.get_game("goofspiel")
    sim = lab.simulate_summary("goofspiel", players=3, variant="carry", games=500, seed=4)
    direct = credit(game, 3, "carry", ["match"] * 3, 4, 500).mean(axis=0)
    np.testing.assert_allclose([s["win_rate"] for s in sim["seats"]], direct)
    assert sum(direct) == pytest.approx(1.0)                                       # G5.2
    # the lab's own comparison rows (the folder summary every game without one of its own gets)
    rows = {r["metric"]: r for r in lab.compare("goofspiel", players=2, games=300, seed=5,
                                                  out=tmp_path / "cmp", progress=False).iter_rows(named=True)}
    assert (rows["game_length"]["baseline_value"], rows["game_length"]["variant_value"]) == (13, 13)   # G5.1
    base = credit(game, 2, "base", ["match", "match"], 5, 300)[:, 0]
    carry = credit(game, 2, "carry", ["match", "match"], 5, 300)[:, 0]
    assert rows["first_seat_win"]["baseline_value"] == pytest.approx(base.mean())
    assert rows["first_seat_win"]["variant_value"] == pytest.approx(carry.mean())
    table = lab.tournament_data("goofspiel", strategies=["random", "search@4"], players=2, games=60, seed=2)
    top = table["standings"][0]
    assert {r["strategy"] for r in table["standings"]} == {"random", "search@4"} and top["strategy"] == "search@4"


def test_the_cli_plays_compares_studies_and_reports_the_copy(site, tmp_path):
    """simulate, compare, tournament, study --quick and report. simulate is a `dreamscape` process finding the
    game through PYTHONPATH and the entry points only; the others run in this process on the same entry points
    (a process each cost seconds of imports and proved nothing more)."""
    game = registry.get_game("goofspiel")

    sim = json.loads(cli(site, "simulate", "--game", "goofspiel", "-p", "2", "-n", "300", "--seed", "3", "--json",
                         cwd=tmp_path).stdout)
    direct = credit(game, 2, "base", ["match", "match"], 3, 300).mean(axis=0)
    np.testing.assert_allclose([s["win_rate"] for s in sim["seats"]], direct)
    assert sim["mean_turns"] == 13                                # ace to king: 13 rounds (G5.1)

    # compare prints the folder's summary as the game's report writes it: Goofspiel's base-against-carry table
    out = json.loads(cli_here("compare", "--game", "goofspiel", "-p", "2", "--games", "400", "--out",
                              str(tmp_path / "cmp"), "--json", cwd=tmp_path).stdout)
    base = credit(game, 2, "base", ["match", "match"], 1, 400)[:, 0]
    carry = credit(game, 2, "carry", ["match", "match"], 1, 400)[:, 0]
    (row,) = out["carry"]
    assert (row["players"], row["strategies"]) == (2, "match")
    assert (row["base_win"], row["carry_win"]) == (pytest.approx(base.mean()), pytest.approx(carry.mean()))
    assert row["change"] == pytest.approx(carry.mean() - base.mean())

    tour = json.loads(cli_here("tournament", "--game", "goofspiel", "-p", "2", "--strategy", "random", "--strategy", "match",
                               "-n", "100", "--json", cwd=tmp_path).stdout)
    assert {r["strategy"] for r in tour["standings"]} == {"random", "match"}

    folder = tmp_path / "quick"
    cli_here("study", "--game", "goofspiel", "--quick", "--out", str(folder), cwd=tmp_path)
    assert (folder / "report.pdf").stat().st_size > 0
    assert {p.name for p in (folder / "charts").glob("*.png")} == {"seats.png", "carry.png"}
    cli_here("report", str(folder), "--pdf", str(tmp_path / "again.pdf"), "--png-dir", str(tmp_path / "png"),
             cwd=tmp_path)
    assert (tmp_path / "again.pdf").stat().st_size > 0 and (tmp_path / "png" / "carry.png").is_file()

    # the report's numbers, read back through `summarize --json` (the wing's summary), against direct play
    summary = json.loads(cli_here("summarize", str(folder), "--json", cwd=tmp_path).stdout)
    seat1 = {(r["players"], r["strategies"], r["variant"]): r for r in summary["seats"] if r["seat"] == 1}
    carried = credit(game, 3, "carry", ["random"] * 3, 1, 2000)[:, 0]
    assert seat1[(3, "random", "carry")]["win"] == pytest.approx(carried.mean())
    kept = credit(game, 3, "base", ["random"] * 3, 1, 2000)[:, 0]
    change = {(r["players"], r["strategies"]): r for r in summary["carry"]}[(3, "random")]
    assert change["change"] == pytest.approx(carried.mean() - kept.mean())
    assert change["low"] < change["change"] < change["high"]
    setup = game.parse_setup(4, "base", None)
    discarded = game.play_games(setup, ["match"] * 4, 1, 0, 2000, engine="fast")["discarded"]
    assert {(r["players"], r["strategies"]): r for r in summary["carry"]}[(4, "match")]["discarded"] == \
        pytest.approx(discarded.mean())
