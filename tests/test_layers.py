"""The project's import layers: simcore < strategies < analyses < reports < cli.py.

A module may import its own layer and the layers below it, never one above
(a lazy import inside a function counts too: it is the same dependency, only
later). Within the project no two modules may import each other, directly or
round a longer loop, and no module uses another module's private (``_x``)
names. The checks read every module's source (``ast``) and so cost no import;
one slow test (``-m slow``) also imports each module of ``strategies`` alone
in a fresh process.

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
        "simcore/low.py": "def f():\n    from strategies import ok\n    return ok\n",
        "simcore/ok.py": "from . import base\nfrom .base import _ours as fine\n",
        "simcore/base.py": "import simcore.ok\n_ours = simcore.ok._state = 1\n",
        "strategies/__init__.py": "",
        "strategies/top.py": "from strategies.mid import x\nimport strategies.ok as ok\nok._hidden()\n",
        "strategies/mid.py": "from strategies.top import y\nfrom simcore.low import _secret\n",
        "strategies/ok.py": "import simcore.ok\n\ndef _hidden():\n    return simcore.ok\n",
        "cli.py": "from strategies import top\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    made_up = ImportGraph(tmp_path)
    assert made_up.upward() == {("simcore/low.py", "strategies")}
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
