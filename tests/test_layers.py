"""The project's import layers: simcore < strategies < analyses < reports < cli.py.

A module may import its own layer and the layers below it, never one above
(a lazy import inside a function counts too: it is the same dependency, only
later). Within the project no two modules may import each other, directly or
round a longer loop, and no module uses another module's private (``_x``)
names. The checks read every module's source (``ast``) and so cost no import;
one slow test (``-m slow``) also imports each module of ``strategies`` alone
in a fresh process. An import by name counts as an import: a literal string
given to ``importlib.import_module`` (or ``__import__``), and the target of every
entry point ``pyproject.toml`` declares; no string in ``simcore`` names a module
of a higher layer.

Known offenders that other work removes are listed here explicitly; a new
offender fails, and a fixed one should be taken off its list.
"""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"simcore": 0, "strategies": 1, "analyses": 2, "reports": 3, "cli": 4}

# (file, package of the higher layer it imports)
KNOWN_UPWARD: set[tuple[str, str]] = set()
# Sets of modules that import each other.
KNOWN_CYCLES: list[set[str]] = []
# (file, module, private name) used across modules.
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def project_files(root: Path) -> list[Path]:
    files = [root / "cli.py"] if (root / "cli.py").is_file() else []
    for package in LAYERS:
        if (root / package).is_dir():
            files += sorted((root / package).rglob("*.py"))
    return files


class ImportGraph:
    """Every import of every project module (anywhere in the file), from its source."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = {module_name(f, root): f for f in project_files(root)}
        # module -> [(line, imported module or module.name, name or None)]
        self.imports: dict[str, list[tuple[int, str, str | None]]] = {}
        self.trees = {m: ast.parse(f.read_text("utf-8"), str(f)) for m, f in self.files.items()}
        for module, tree in self.trees.items():
            self.imports[module] = list(self._imports(module, tree))

    def _target(self, module: str, node: ast.ImportFrom) -> str:
        """The absolute module a ``from ... import`` reads (relative ones resolved)."""
        if not node.level:
            return node.module or ""
        base = module.split(".") if self.files[module].name == "__init__.py" else module.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))

    def _imports(self, module: str, tree: ast.AST):
        for node in ast.walk(tree):
            named = imported_by_name(node)
            if named is not None:
                yield node.lineno, named, None
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield node.lineno, alias.name, None
            elif isinstance(node, ast.ImportFrom):
                target = self._target(module, node)
                for alias in node.names:
                    yield node.lineno, target, alias.name

    def resolve(self, dotted: str) -> str | None:
        """The project module a dotted import name lands in (longest known prefix)."""
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            candidate = ".".join(parts[:i])
            if candidate in self.files:
                return candidate
        return None

    def file(self, module: str) -> str:
        return self.files[module].relative_to(self.root).as_posix()

    def upward(self) -> set[tuple[str, str]]:
        """(file, higher package) for every import of a higher layer."""
        out = set()
        for module, imports in self.imports.items():
            own = LAYERS[module.split(".")[0]]
            for _, target, _ in imports:
                top = target.split(".")[0]
                if top in LAYERS and LAYERS[top] > own:
                    out.add((self.file(module), top))
        return out

    def edges(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for module, imports in self.imports.items():
            deps = set()
            for _, target, name in imports:
                hit = self.resolve(f"{target}.{name}" if name else target)
                if hit and hit != module:
                    deps.add(hit)
            out[module] = deps
        return out

    def cycles(self) -> list[set[str]]:
        """Strongly connected components of two or more modules (Tarjan)."""
        edges, index, low, stack, on_stack, found = self.edges(), {}, {}, [], set(), []

        def visit(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on_stack.add(v)
            for w in sorted(edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                component = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.add(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(component)

        for v in sorted(edges):
            if v not in index:
                visit(v)
        return found

    def private_uses(self) -> set[tuple[str, str, str]]:
        """(file, module, name) for every ``_name`` of another project module used here.

        Seen: ``from module import _name`` and ``alias._name`` where ``alias``
        is bound to a project module by an import.
        """
        out = set()
        for module, tree in self.trees.items():
            bound: dict[str, str] = {}  # local name -> the project module it is bound to
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    for alias in node.names:
                        local = alias.asname or alias.name.split(".")[0]
                        target = alias.name if alias.asname else local
                        if target in self.files:
                            bound[local] = target
                elif isinstance(node, ast.ImportFrom):
                    target = self._target(module, node)
                    for alias in node.names:
                        source = self.resolve(target)
                        if source is not None and source != module and _private(alias.name):
                            out.add((self.file(module), source, alias.name))
                        if f"{target}.{alias.name}" in self.files:
                            bound[alias.asname or alias.name] = f"{target}.{alias.name}"
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Attribute) and _private(node.attr)):
                    continue
                chain = _dotted(node.value)  # e.g. ["simcore", "ok"] for simcore.ok._state
                if chain and chain[0] in bound:
                    owner = ".".join([bound[chain[0]]] + chain[1:])
                    if owner in self.files and owner != module:
                        out.add((self.file(module), owner, node.attr))
        return out


def imported_by_name(node: ast.AST) -> str | None:
    """The module a call imports by a literal name (``importlib.import_module("x.y")``, ``__import__("x")``)."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return node.args[0].value if name in ("import_module", "__import__") else None


def entry_point_targets(root: Path) -> dict[str, dict[str, str]]:
    """``pyproject.toml``'s entry points: group -> {name: target module}."""
    import tomllib

    data = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    groups = data.get("project", {}).get("entry-points", {})
    return {g: {n: t.split(":")[0].strip() for n, t in eps.items()} for g, eps in groups.items()}


def upper_module_names(path: Path, own_layer: int) -> list[tuple[int, str]]:
    """(line, text) of every string constant that is exactly a dotted name in a higher layer (``reports.pdf``,
    ``analyses.games.x:WING``; a bare word such as ``"strategies"`` is only a word)."""
    import re

    higher = "|".join(p for p, layer in LAYERS.items() if layer > own_layer)
    pattern = re.compile(rf"(?:{higher})(?:(?:\.\w+)+(?::\w+)?|:\w+)")
    tree = ast.parse(path.read_text("utf-8"), str(path))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and pattern.fullmatch(n.value)
            and not n.value.endswith(".py")]  # a file name (cli.py), not a module


def _dotted(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ["a", "b", "c"], or None for anything but names and attributes."""
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return head + [node.attr] if head else None
    return None


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return ImportGraph(ROOT)


def test_no_module_imports_a_higher_layer(graph):
    new = graph.upward() - KNOWN_UPWARD
    assert not new, f"imports of a higher layer: {sorted(new)}"


def test_entry_points_land_in_their_layer(graph):
    """Every entry point's target is a project module; a game (dreamscape.games) is its lab wing in
    analyses/games, a report (dreamscape.reports) sits in the reports layer or below."""
    groups = entry_point_targets(ROOT)
    assert set(groups["dreamscape.games"]) >= {"dreamscape", "pleasant-dreams", "counting-zzzzs"}
    for group, targets in groups.items():
        for name, target in targets.items():
            assert graph.resolve(target) == target, f"{group} {name}: {target} is not a project module"
            if group == "dreamscape.games":
                assert target.startswith("analyses.games."), (name, target)
            if group == "dreamscape.reports":
                assert LAYERS[target.split(".")[0]] <= LAYERS["reports"], (name, target)


def test_simcore_names_no_module_of_a_higher_layer():
    """No string in simcore is the name of an analyses/reports/cli module (a hidden, importlib-loaded dependency)."""
    found = {}
    for path in sorted((ROOT / "simcore").rglob("*.py")):
        hits = upper_module_names(path, LAYERS["simcore"])
        if hits:
            found[path.relative_to(ROOT).as_posix()] = hits
    assert not found, found


def test_no_modules_import_each_other(graph):
    new = [sorted(c) for c in graph.cycles() if c not in KNOWN_CYCLES]
    assert not new, f"import cycles: {new}"
    assert not any(c & {m for m in graph.files if m.startswith("strategies")} for c in graph.cycles())


def test_no_private_names_cross_modules(graph):
    new = graph.private_uses() - KNOWN_PRIVATE
    assert not new, f"private names used across modules: {sorted(new)}"


def test_the_checks_find_what_they_look_for(tmp_path):
    """A made-up project with known offences: every check reports exactly those."""
    files = {
        "simcore/__init__.py": "",
        "simcore/low.py": "def f():\n    from strategies import ok\n    return ok, 'strategies'\n",
        "simcore/ok.py": "from . import base\nfrom .base import _ours as fine\n",
        "simcore/base.py": "import simcore.ok\n_ours = simcore.ok._state = 1\n",
        "strategies/__init__.py": "",
        "strategies/top.py": "from strategies.mid import x\nimport strategies.ok as ok\nok._hidden()\n",
        "strategies/mid.py": "from strategies.top import y\nfrom simcore.low import _secret\n",
        "strategies/ok.py": "import simcore.ok\n\ndef _hidden():\n    return simcore.ok\n",
        "strategies/named.py": "import importlib\n\ndef late():\n    return importlib.import_module('analyses.deep')\n",
        "analyses/__init__.py": "",
        "analyses/deep.py": "",
        "cli.py": "from strategies import top\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    made_up = ImportGraph(tmp_path)
    assert made_up.upward() == {("simcore/low.py", "strategies"), ("strategies/named.py", "analyses")}
    assert upper_module_names(tmp_path / "strategies/named.py", LAYERS["strategies"]) == [(4, "analyses.deep")]
    assert upper_module_names(tmp_path / "simcore/low.py", LAYERS["simcore"]) == []  # "strategies" alone is a word
    assert sorted(map(sorted, made_up.cycles())) == [["simcore.base", "simcore.ok"], ["strategies.mid", "strategies.top"]]
    assert made_up.private_uses() == {
        ("strategies/mid.py", "simcore.low", "_secret"),
        ("strategies/top.py", "strategies.ok", "_hidden"),
        ("simcore/ok.py", "simcore.base", "_ours"),
        ("simcore/base.py", "simcore.ok", "_state"),
    }


CHECK_ALONE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("analyses", "reports", "cli"))))
"""


@pytest.mark.slow  # a fresh process per module loads numba and compiles the built-ins: ~40 s on 2 cores
def test_each_strategies_module_imports_alone_without_higher_layers():
    """Imported first in a fresh process, every module loads (no import-order dependence) and
    pulls in nothing above the strategy layer."""
    modules = sorted(m for m in ImportGraph(ROOT).files if m.split(".")[0] == "strategies")
    assert {"strategies.api", "strategies.builtins", "strategies.linear", "strategies.errors"} <= set(modules)
    procs = {
        m: subprocess.Popen([sys.executable, "-c", CHECK_ALONE, m], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
        for m in modules
    }
    for module, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, f"{module}: {err.strip().splitlines()[-1:]}"
        assert json.loads(out.strip().splitlines()[-1]) == [], module
