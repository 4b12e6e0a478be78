"""The lab's ground floor knows no game: it reaches every game through the registry and the protocol.

The ground floor is the study pipeline, the statistics, the tools, the lab API and the report
framework (``analyses/study``, ``analyses/stats``, ``analyses/tools``, ``analyses/lab``, and
``reports/`` outside ``reports/games/``). None of its modules imports a game package
(``simcore.games.<game>``, ``analyses.games.<game>`` or ``reports.games.<game>``): statically,
lazily inside a function, or by name through ``importlib``. What it needs of a game comes
through :mod:`analyses.games` (the registry, :class:`~analyses.games.GameWing` and its typed
hooks), :mod:`reports.games` (the report registry) and :class:`simcore.games.Game`. The scan
reads the source (``ast``), as ``tests/test_layers.py`` does.
"""
from __future__ import annotations

from pathlib import Path

from test_layers import ImportGraph

ROOT = Path(__file__).resolve().parents[1]
GROUND_FLOOR = ("analyses.study", "analyses.stats", "analyses.tools", "analyses.lab", "reports")
GAME_HOUSES = ("reports.games",)  # below a ground-floor prefix, but the games' own (each game's report)

# (module, game package it imports) still on the ground floor: none (each game's frames and charts are in
# its wing, reached through the registry). The list only shrinks: a new pair fails, and a pair no longer
# found must be taken off.
KNOWN_GAME_IMPORTS: set[tuple[str, str]] = set()
NO_GAME_AT_ALL = ("analyses.study", "analyses.stats", "analyses.tools")  # the pipeline itself: no allowance ever


def game_packages(root: Path) -> set[str]:
    """Every game package: a package under simcore/games, a module or package under analyses/games or reports/games."""
    out = {f"simcore.games.{p.name}" for p in (root / "simcore" / "games").iterdir() if (p / "__init__.py").is_file()}
    for house in ("analyses", "reports"):
        wings = root / house / "games"
        if not wings.is_dir():
            continue
        out |= {f"{house}.games.{p.name}" for p in wings.iterdir() if (p / "__init__.py").is_file()}
        out |= {f"{house}.games.{p.stem}" for p in wings.glob("*.py") if p.stem != "__init__"}
    return out


def on_the_ground_floor(module: str) -> bool:
    return module.startswith(GROUND_FLOOR) and not any(module == h or module.startswith(h + ".") for h in GAME_HOUSES)


def game_imports(graph: ImportGraph, packages: set[str]) -> set[tuple[str, str]]:
    """(ground-floor module, game package) for every import of a game package (static, lazy or by name)."""
    out = set()
    for module, imports in graph.imports.items():
        if not on_the_ground_floor(module):
            continue
        for _, target, name in imports:
            for dotted in (target, f"{target}.{name}" if name else target):
                hit = next((p for p in packages if dotted == p or dotted.startswith(p + ".")), None)
                if hit is not None:
                    out.add((module, hit))
    return out


def test_the_ground_floor_imports_no_game_package():
    graph = ImportGraph(ROOT)
    found = game_imports(graph, game_packages(ROOT))
    new = found - KNOWN_GAME_IMPORTS
    assert not new, f"game packages imported by the ground floor: {sorted(new)}"
    fixed = KNOWN_GAME_IMPORTS - found
    assert not fixed, f"no longer import a game package: take them off KNOWN_GAME_IMPORTS: {sorted(fixed)}"
    assert not any(m.startswith(NO_GAME_AT_ALL) for m, _ in KNOWN_GAME_IMPORTS)


def test_the_ground_floor_is_what_the_scan_reads():
    """The scan sees the modules it guards (a renamed folder would make the test above pass on nothing)."""
    modules = set(ImportGraph(ROOT).imports)
    for floor in GROUND_FLOOR:
        assert any(m.startswith(floor) for m in modules if on_the_ground_floor(m)), floor
    assert not on_the_ground_floor("reports.games.dreamscape.report") and on_the_ground_floor("reports.pdf")
    assert {"reports.games.dreamscape", "analyses.games.dreamscape", "simcore.games.dreamscape"} <= game_packages(ROOT)


def test_the_scan_finds_every_kind_of_game_import(tmp_path):
    """A made-up project: a static, a lazy, a from-package and an importlib import of a game are each found;
    the registry and the Game interface are not game packages."""
    files = {
        "simcore/__init__.py": "", "simcore/games/__init__.py": "",
        "simcore/games/chess/__init__.py": "", "simcore/games/chess/rules.py": "",
        "analyses/__init__.py": "", "analyses/games/__init__.py": "", "analyses/games/chess.py": "",
        "analyses/study/__init__.py": "",
        "analyses/study/static.py": "from simcore.games.chess.rules import Board\n",
        "analyses/study/lazy.py": "def f():\n    import simcore.games.chess\n",
        "analyses/study/member.py": "from analyses.games import chess\n",
        "analyses/study/named.py": "import importlib\nimportlib.import_module('analyses.games.chess')\n",
        "analyses/study/fine.py": "from analyses.games import get_game\nfrom simcore.games import Game\n",
        "analyses/games/other.py": "from simcore.games import chess\n",  # a wing may import its game
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    packages = game_packages(tmp_path)
    assert packages == {"simcore.games.chess", "analyses.games.chess", "analyses.games.other"}
    assert game_imports(ImportGraph(tmp_path), packages) == {
        ("analyses.study.static", "simcore.games.chess"), ("analyses.study.lazy", "simcore.games.chess"),
        ("analyses.study.member", "analyses.games.chess"), ("analyses.study.named", "analyses.games.chess")}
