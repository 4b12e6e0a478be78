"""cli.py stays a thin layer over the lab (issue #25), and nothing outside a game's package branches on a game's name.

The command line parses options, calls one function of :mod:`analyses.lab` and
prints: so it is short, imports no engine, and no command body grows long. What
a game can do is its declared capabilities (:meth:`simcore.games.Game.need`),
never a comparison with its name; the scan reads the source (``ast``).
"""
from __future__ import annotations

import ast
from pathlib import Path

from analyses.games import game_names

ROOT = Path(__file__).resolve().parents[1]
CLI = ROOT / "cli.py"
MAX_CLI_LINES = 700
MAX_COMMAND_BODY = 45
# Files outside cli.py that still compare a value with a game's name (or DEFAULT_GAME), or key a dict by one;
# the lead removes these branches (issue #25). A fixed file should be taken off the list; a new one fails.
KNOWN_NAME_BRANCHES: set[str] = set()
# Files that still branch on a game's type or a result's shape instead of a capability or hook (issue #40).
KNOWN_SHAPE_BRANCHES: set[str] = set()
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
            return node.value in game_names()
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


GAME_PACKAGES = ("simcore.games.", "analyses.games.", "reports.games.")  # where each game has its own package


def game_package_names() -> set[str]:
    """Every game package (``simcore.games.dreamscape``, ``analyses.games.pleasant_dreams``, ...), from the tree."""
    out = set()
    for prefix in GAME_PACKAGES:
        folder = ROOT.joinpath(*prefix.strip(".").split("."))
        if folder.is_dir():
            out |= {prefix + p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
            out |= {prefix + p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
    return out


GAME_PACKAGE_NAMES = game_package_names()


def game_bound_names(tree: ast.Module) -> set[str]:
    """Local names an import binds to a game package or to something in one (``Setup``, ``dreamscape``)."""
    def in_game(module: str) -> bool:
        return any(module == p or module.startswith(p + ".") for p in GAME_PACKAGE_NAMES)

    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if in_game(node.module) or in_game(f"{node.module}.{alias.name}"):
                    out.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            out |= {a.asname for a in node.names if a.asname and in_game(a.name)}
    return out


def shape_branches(path: Path, cli: bool = False) -> list[str]:
    """Branches on a game's type or a result's shape: ``isinstance(x, <a game's type>)``, a game's name as a
    call's argument (``meta.get("game", "dreamscape")``), and in cli.py a text key tested with ``in``."""
    tree = tree_of(path)
    bound = game_bound_names(tree)

    def game_type(node) -> bool:
        if isinstance(node, ast.Tuple):
            return any(game_type(e) for e in node.elts)
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id in bound

    def game_name(node) -> bool:
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in game_names()

    where = path.relative_to(ROOT)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "isinstance" and len(node.args) == 2 \
                    and game_type(node.args[1]):
                found.append(f"{where}:{node.lineno} isinstance of a game's type")
            elif any(game_name(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                found.append(f"{where}:{node.lineno} passes a game's name")
        elif cli and isinstance(node, ast.Compare) and isinstance(node.left, ast.Constant) \
                and isinstance(node.left.value, str) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            found.append(f"{where}:{node.lineno} tests a result's shape ({node.left.value!r} in ...)")
    return found


def test_nothing_outside_a_game_package_branches_on_a_game_type_or_shape():
    found = {}
    for path in scanned_files():
        module = path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
        inside_game = any(module == p or module.startswith(p + ".") for p in GAME_PACKAGE_NAMES)
        hits = [] if inside_game else shape_branches(path, cli=path == CLI)
        if hits:
            found[path.relative_to(ROOT).as_posix()] = hits
    new = {f: hits for f, hits in found.items() if f not in KNOWN_SHAPE_BRANCHES}
    assert not new, new
    fixed = KNOWN_SHAPE_BRANCHES - set(found)
    assert not fixed, f"no longer branch on a game's type or shape: take them off KNOWN_SHAPE_BRANCHES: {sorted(fixed)}"


def test_the_scan_finds_a_type_or_shape_branch(tmp_path):
    """The issue's three examples are each found; a capability check and a registry lookup are not."""
    sample = tmp_path / "sample.py"
    sample.write_text("from simcore.games import dreamscape\nfrom simcore.games.pleasant_dreams import Setup as PDSetup\n"
                      "if isinstance(setup, dreamscape.Setup):\n    pass\n"
                      "game = load_game(meta.get('game', 'dreamscape'))\n"
                      "table = 'game_lines' if 'title' in summary else 'lines'\n"
                      "ok = isinstance(setup, (int, PDSetup))\n"
                      "fine = the.has('card_swaps') and isinstance(game, Game) and get_game(name)\n", encoding="utf-8")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        as_cli, elsewhere = shape_branches(sample, cli=True), shape_branches(sample)
    finally:
        ROOT = saved
    assert sorted(int(h.split(":")[1].split()[0]) for h in as_cli) == [3, 5, 6, 7], as_cli
    assert sorted(int(h.split(":")[1].split()[0]) for h in elsewhere) == [3, 5, 7], elsewhere


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
