"""The lab's ground floor knows no game: it reaches every game through the registry and the protocol.

The ground floor is the study pipeline, the statistics, the tools, the lab API and the report
framework (``analyses/study``, ``analyses/stats``, ``analyses/tools``, ``analyses/lab``, and
``reports/`` outside ``reports/games/``). None of its modules imports a game package
(``simcore.games.<game>``, ``analyses.games.<game>`` or ``reports.games.<game>``): statically,
lazily inside a function, or by name through ``importlib``. What it needs of a game comes
through :mod:`analyses.games` (the registry, :class:`~analyses.games.GameWing` and its typed
hooks), :mod:`reports.games` (the report registry) and :class:`simcore.games.Game`. The scan
reads the source (``ast``), as ``tests/test_layers.py`` does.

Nor does it tell games apart by what their objects are (:func:`shape_branches`): no
``isinstance`` against a class a game package defines, nor on a chunk's ``result`` (every game's
result is the same dict of arrays), no ``hasattr`` (a game's optional parts are typed hooks of
its wing, :data:`analyses.games.HOOKS`), no string-keyed ``.extension(...)`` lookup, and no default
game slipped into a lookup (``meta.get("game", "dreamscape")``, ``meta.get("game") or DEFAULT_GAME``:
a record's missing game is read in one place, :func:`analyses.games.recorded_game`).
"""
from __future__ import annotations

import ast
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


# ---------------------------------------------------------------------------- shape and type branches

PROTOCOL_MODULES = ("simcore.games", "analyses.games", "reports.games")  # their own classes are the protocol's
RESULT_NAMES = {"result", "results", "chunk_result"}  # a chunk's result: one shape for every game


def game_classes(graph: ImportGraph, packages: set[str]) -> set[str]:
    """The names of the classes every game package defines (its setup, results, errors...), less the protocol's."""
    protocol = {node.name for m in PROTOCOL_MODULES if m in graph.trees
                for node in ast.walk(graph.trees[m]) if isinstance(node, ast.ClassDef)}
    out = set()
    for module, tree in graph.trees.items():
        if any(module == p or module.startswith(p + ".") for p in packages):
            out |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    return out - protocol


def _names(node: ast.AST) -> list[str]:
    """The class names an isinstance's second argument spells (``Setup``, ``dreamscape.Setup``, a tuple of them)."""
    if isinstance(node, ast.Tuple):
        return [n for elt in node.elts for n in _names(elt)]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Name):
        return [node.id]
    return []


def _default_game(node: ast.AST) -> bool:
    """A default that stands for a game: a text, or a name or attribute (``DEFAULT_GAME``), not None nor empty."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value != ""
    return isinstance(node, (ast.Name, ast.Attribute))


def _get_game(node: ast.AST) -> bool:
    """``X.get("game" ...)``."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "game")


def shape_branches(graph: ImportGraph, packages: set[str], only: str | None = None,
                   classes: set[str] | None = None) -> set[tuple[str, int, str]]:
    """(ground-floor module, line, what) for every branch on what a game's objects are (see the module docstring);
    ``only``: that module alone."""
    classes = game_classes(graph, packages) if classes is None else classes
    out = set()
    for module, tree in graph.trees.items():
        if not on_the_ground_floor(module) or only not in (None, module):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and _get_game(node.values[0]) \
                    and any(_default_game(v) for v in node.values[1:]):
                out.add((module, node.lineno, "a default game"))
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name in ("isinstance", "issubclass") and len(node.args) == 2:
                subject = node.args[0]
                if isinstance(subject, ast.Name) and subject.id in RESULT_NAMES:
                    out.add((module, node.lineno, "isinstance on a result"))
                hit = sorted(set(_names(node.args[1])) & classes)
                if hit:
                    out.add((module, node.lineno, f"isinstance of a game's {hit[0]}"))
            elif name == "hasattr" and isinstance(func, ast.Name):
                out.add((module, node.lineno, "hasattr"))
            elif name == "extension" and isinstance(func, ast.Attribute):
                out.add((module, node.lineno, ".extension()"))
            elif _get_game(node) and len(node.args) > 1 and _default_game(node.args[1]):
                out.add((module, node.lineno, "a default game"))
    return out


def test_the_ground_floor_tells_no_game_apart_by_its_objects():
    graph = ImportGraph(ROOT)
    found = shape_branches(graph, game_packages(ROOT))
    assert not found, f"shape or type branches on the ground floor: {sorted(found)}"


def test_the_shape_scan_catches_each_kind_of_branch():
    """A copy of a real ground-floor module (the lab's bots) with one forbidden line planted at a time: each is
    found, at its line, and nothing else; the same lines in a game's own wing are not the ground floor's business,
    and the lines that only look alike are not branches."""
    graph = ImportGraph(ROOT)
    packages = game_packages(ROOT)
    classes = game_classes(graph, packages)
    assert {"Setup", "SimResult", "DeckSpec"} <= classes  # Project Dreamscape's own types
    assert "Game" not in classes  # the protocol's Game (a game's engine may reuse the name)
    real = graph.files["analyses.lab.bots"].read_text("utf-8")
    last = len(real.splitlines())
    planted = {
        "isinstance(setup, dreamscape.Setup)": "isinstance of a game's Setup",
        "isinstance(x, (int, SimResult))": "isinstance of a game's SimResult",
        "isinstance(result, dict)": "isinstance on a result",
        "hasattr(the, 'trainer')": "hasattr",
        "the.extension('card_swaps', 'sweep')": ".extension()",
        "meta.get('game', 'dreamscape')": "a default game",
        "meta.get('game', DEFAULT_GAME)": "a default game",
        "meta.get('game') or DEFAULT_GAME": "a default game",
    }
    fine = ("isinstance(value, dict)", "isinstance(target, Game)", "the.columns.get('game', ())",
            "meta.get('game')", "getattr(wing, hook)")

    def scan(module: str, line: str) -> set:
        kept = graph.trees[module]
        graph.trees[module] = ast.parse(f"{real}\n\ndef planted(the, setup, x, result, meta, value, target, wing, hook):"
                                        f"\n    return {line}\n")
        try:
            return shape_branches(graph, packages, module, classes)
        finally:
            graph.trees[module] = kept

    for line, what in planted.items():
        assert scan("analyses.lab.bots", line) == {("analyses.lab.bots", last + 4, what)}, line
        assert scan("analyses.games.dreamscape.commands", line) == set(), line  # a wing may know its own game
    for line in fine:
        assert scan("analyses.lab.bots", line) == set(), line
