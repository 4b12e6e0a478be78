"""cli.py stays a thin layer over the lab (issue #25), and nothing outside a game's package branches on a game's name.

The command line parses options, calls one function of :mod:`analyses.lab` and
prints: so it is short, imports no engine, and no command body grows long. What
a game can do is its declared capabilities (:meth:`simcore.games.Game.need`),
never a comparison with its name; the scan reads the source (``ast``).
"""
from __future__ import annotations

import ast
from pathlib import Path

from simcore.games import GAME_NAMES

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "cli.py"
MAX_CLI_LINES = 700
MAX_COMMAND_BODY = 45
# Files outside cli.py that still compare a value with a game's name (or DEFAULT_GAME), or key a dict by one;
# the lead removes these branches (issue #25). A fixed file should be taken off the list; a new one fails.
KNOWN_NAME_BRANCHES: set[str] = set()
# (file, key) of dict keys that spell a game's name but mean something else.
NOT_GAMES = {("narrate.py", "dreamscape")}  # the row of five cards on the table, in a game's record


def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def command_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The functions registered with ``@app.command(...)``."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for dec in node.decorator_list:
                target = dec.func if isinstance(dec, ast.Call) else dec
                if isinstance(target, ast.Attribute) and target.attr == "command":
                    out.append(node)
    return out


def test_cli_is_short():
    lines = len(CLI.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_CLI_LINES, f"cli.py has {lines} lines"


def test_cli_imports_no_game_package_and_no_engine():
    for node in ast.walk(tree_of(CLI)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        for name in names:
            assert not name.startswith("simcore.games."), f"cli.py line {node.lineno} imports {name}"


def test_every_command_body_is_short():
    commands = command_functions(tree_of(CLI))
    assert len(commands) >= 20  # every command of `dreamscape --help`
    for fn in commands:
        body = fn.body[-1].end_lineno - fn.body[0].lineno + 1
        assert body <= MAX_COMMAND_BODY, f"{fn.name}: {body} lines"


def name_branches(path: Path) -> list[str]:
    """Where a file compares a value with a game's name or DEFAULT_GAME, keys a dict by a name, or says dreamscape_only."""
    def is_name(node) -> bool:
        if isinstance(node, ast.Call):  # GameDeal(DEFAULT_GAME), get_game("dreamscape"): a game known by name
            return any(is_name(a) for a in node.args)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value in GAME_NAMES
        return isinstance(node, ast.Name) and node.id == "DEFAULT_GAME" or \
            isinstance(node, ast.Attribute) and node.attr == "DEFAULT_GAME"

    found = []
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Compare) and any(is_name(x) for x in [node.left, *node.comparators]):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} compares with a game's name")
        elif isinstance(node, ast.Dict) and any(k is not None and is_name(k) and (path.name, k.value) not in NOT_GAMES
                                                for k in node.keys):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} keys a dict by a game's name")
        elif isinstance(node, (ast.Name, ast.FunctionDef)) and getattr(node, "id", getattr(node, "name", "")) == "dreamscape_only":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} dreamscape_only")
    return found


def scanned_files() -> list[Path]:
    files = [CLI]
    for package in ("analyses", "reports", "strategies"):
        files += sorted((ROOT / package).rglob("*.py"))
    return files


def test_nothing_outside_a_game_package_branches_on_a_game_name():
    found = {}
    for path in scanned_files():
        hits = name_branches(path)
        if hits:
            found[path.relative_to(ROOT).as_posix()] = hits
    assert "cli.py" not in found, found.get("cli.py")
    new = {f: hits for f, hits in found.items() if f not in KNOWN_NAME_BRANCHES}
    assert not new, new
    fixed = KNOWN_NAME_BRANCHES - set(found)
    assert not fixed, f"no longer branch on a game name: take them off KNOWN_NAME_BRANCHES: {sorted(fixed)}"


def test_the_scan_finds_a_name_branch(tmp_path):
    """The scan itself: a comparison, a dict key and dreamscape_only are each found; a capability check is not."""
    sample = tmp_path / "sample.py"
    sample.write_text('if game == "pleasant-dreams":\n    pass\nx = {"dreamscape": 1}\ny = DEFAULT_GAME != g\n'
                      'dreamscape_only(g, "sweep")\nthe.need("card_swaps", "sweep")\n', encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        hits = name_branches(sample)
    finally:
        ROOT = saved
    assert [h.split(":")[1].split()[0] for h in hits] == ["1", "3", "4", "5"], hits
