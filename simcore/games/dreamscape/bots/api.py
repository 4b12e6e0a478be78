"""The strategy plug-in API: a strategy is a scoring function for one option.

Write a plain Python function in numba's subset and register it::

    from strategies import strategy, features as F

    @strategy("hoarder", description="keeps Z cards, buys only what chains")
    def hoarder(kind, seat, features, state):
        return features[F.DELTA] + 0.3 * features[F.BUDGET_AFTER]

At every decision with two or more legal options the fast engine computes each
option's afterstate features and calls the deciding seat's strategy once per
option; the best score wins, exact ties are broken by the game's own random
stream. The function is compiled once (a numba ``cfunc`` of one fixed
signature), so the engine itself is never recompiled and stays in numba's
on-disk cache.

Load one from the command line with ``--strategy path/to/bot.py:function`` or
``--strategy package.module:function``; ``--strategy linear:FILE.toml`` plays
the linear bot with the weights of a TOML file (see :mod:`simcore.games.dreamscape.bots.linear`);
``--strategy search:NAME@K`` searches every decision with K playouts per
option played by NAME (:mod:`simcore.games.dreamscape.fast.isearch`).
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

# Importing the built-ins registers them before any user strategy can be
# registered through this module, so no user strategy takes a built-in's name.
import simcore.games.dreamscape.bots.builtins  # noqa: F401
from simcore.games.dreamscape.fast.strategies import (GAME_PHASES, SEARCH_PLAYOUTS, describe, get_strategy, is_builtin, register_search,
                                     strategy_names)
from simcore.files import shown
from simcore.games.dreamscape.bots.errors import StrategyError, error_line
from simcore.games.dreamscape.bots.linear import load_linear
from simcore.games.dreamscape.bots.expert import load_expert
from simcore.games.dreamscape.bots.strong import load_strong
from simcore.games.dreamscape.bots.registry import SIGNATURE_TEXT, compile_strategy
from simcore.games.dreamscape.rules import DECISION_KINDS

MAX_SEARCH_PLAYOUTS = 10_000  # K of search:NAME@K (Pleasant Dreams caps its K at 10,000 too); more would take days a move


def strategy(name: str, description: str = "", decides: Sequence[str] | None = None) -> Callable:
    """Decorator: compile ``fn`` with the fixed strategy signature and register it as ``name``.

    Parameters
    ----------
    name : str
        The name ``--strategy`` takes.
    description : str, optional
        One line for ``dreamscape strategies``.
    decides : list of decision kind names, optional
        Only if the strategy gives every option the same score at all other
        kinds: the engine then skips calling it there (same games, faster;
        e.g. Shifting Dreams asks for up to 120 orders, R6.8). Names are
        ``simcore.games.dreamscape.rules.DECISION_KINDS``. Default: called at every kind.
    """

    def decorate(fn: Callable) -> Callable:
        compile_strategy(name, fn, description, decides=decides)
        fn.strategy_name = name  # type: ignore[attr-defined]
        return fn

    return decorate


def load_strategy(spec: str) -> str:
    """Resolve a ``--strategy`` value to a registered strategy name (loading it if needed).

    ``spec`` is a registered name (``greedy``), ``linear:FILE.toml``, ``expert:FILE.toml``,
    ``strong:FILE.npz`` (``strong:FILE.npz+expert:TABLE.toml``: with that expert table), ``path/to/bot.py:function``, ``package.module:function``, or
    ``search:SPEC`` / ``search:SPEC@K``: the search player (every decision
    played out K times per option, default 8) with the strategy SPEC (any of
    the forms above) in its playouts, registered on first use;
    ``search:SPEC@K:late`` (``:mid+late`` ...) searches the decisions of those
    game phases only (thirds of the Sleep Deck) and plays SPEC at the others;
    ``search:SPEC@K:late:buy+perform`` searches only those decision kinds
    (names of :data:`simcore.games.dreamscape.rules.DECISION_KINDS`) there.
    """
    if spec.startswith("search:"):
        return _load_search(spec)
    if spec in strategy_names():
        return spec
    if spec.startswith("linear:"):
        return load_linear(spec[len("linear:"):])
    if spec.startswith("expert:"):
        return load_expert(spec[len("expert:"):])
    if spec.startswith("strong:"):
        return load_strong(spec[len("strong:"):])
    if ":" not in spec:
        raise StrategyError(
            f"unknown strategy {shown(spec)} (built-in: {', '.join(builtin_names())}; "
            "or path/to/bot.py:function, package.module:function, linear:FILE.toml, expert:FILE.toml, strong:FILE.npz[+expert:FILE.toml], search:NAME[@K[:PHASES]])"
        )
    target, func_name = spec.rsplit(":", 1)
    module = _import_file(target) if target.endswith(".py") or "/" in target else _import_module(target)
    fn = getattr(module, func_name, None)
    if fn is None:
        raise StrategyError(f"strategy {spec}: {target} has no function {func_name!r}")
    registered = getattr(fn, "strategy_name", None)
    if registered and registered in strategy_names():
        return registered
    compile_strategy(spec, fn, (inspect.getdoc(fn) or "").split("\n")[0], source=spec)
    return spec


def _load_search(spec: str) -> str:
    inner, k_text, phases, kinds = spec[len("search:"):], None, None, None
    if "@" in inner:
        inner, k_text = inner.rsplit("@", 1)
        # search:NAME@K:late: the game phases it searches (not "/": a study's tables join seats' bots with "/")
        if ":" in k_text:
            k_text, phase_text = k_text.split(":", 1)
            # search:NAME@K:PHASES:KINDS: the decision kinds it searches, e.g. search:expert@2:late:buy+perform
            phase_text, has_kinds, kind_text = phase_text.partition(":")
            phases = phase_text.split("+")
            if not all(p in GAME_PHASES for p in phases) or len(set(phases)) != len(phases):
                raise StrategyError(f"strategy {shown(spec)}: the game phases in search:NAME@K:PHASES are "
                                    f"{', '.join(GAME_PHASES)} joined with +, e.g. search:expert@8:late, got {phase_text!r}")
            if has_kinds:
                kinds = kind_text.split("+")
                if not all(k in DECISION_KINDS for k in kinds) or len(set(kinds)) != len(kinds):
                    raise StrategyError(f"strategy {shown(spec)}: the decision kinds in search:NAME@K:PHASES:KINDS are "
                                        f"{', '.join(DECISION_KINDS)} joined with +, e.g. search:expert@2:late:buy+perform, "
                                        f"got {kind_text!r}")
    if not inner:
        raise StrategyError(f"strategy {shown(spec)}: name the playout strategy, e.g. search:linear or search:linear@16")
    playouts = SEARCH_PLAYOUTS
    if k_text is not None:
        # ASCII digits only ("@²" passes isdigit() and int() refuses it); K is bounded like the other games' K
        if not (k_text.isascii() and k_text.isdecimal()) or len(k_text) > len(str(MAX_SEARCH_PLAYOUTS)) \
                or not 1 <= int(k_text) <= MAX_SEARCH_PLAYOUTS:
            raise StrategyError(f"strategy {shown(spec)}: playouts K in search:NAME@K must be a whole number 1 to "
                                f"{MAX_SEARCH_PLAYOUTS:,}, got {k_text[:20]!r}")
        playouts = int(k_text)
    policy = load_strategy(inner)
    try:
        return register_search(policy, playouts, phases, kinds)
    except ValueError as exc:
        raise StrategyError(f"strategy {shown(spec)}: {exc}") from None


def _import_file(path_text: str):
    path = Path(path_text)
    if not path.is_file():
        raise StrategyError(f"strategy file {path_text} does not exist")
    # A name fixed by the file's path (not hash(), which changes per process): numba's on-disk cache
    # of the file's strategies refers to their module by name and imports it when loading them.
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    name = f"dreamscape_user_strategy_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before running it: a @strategy in the file compiles (or loads) right away
    try:
        _run_file(path_text, module, spec)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _run_file(path_text: str, module, spec) -> None:
    with contained_import(f"strategy file {path_text}"):
        spec.loader.exec_module(module)


def _import_module(name: str):
    with contained_import(f"strategy module {name}"):
        return importlib.import_module(name)


class _ExitCalled(Exception):
    """Raised in place of ``os._exit`` while a strategy file is imported."""


def _refuse_exit(code=0):
    raise _ExitCalled(code)


@contextlib.contextmanager
def contained_import(what: str):
    """Run a strategy file's or module's import so that nothing it does ends or silences the process.

    * Anything it raises, ``SystemExit`` (``sys.exit``), ``KeyboardInterrupt``
      and other ``BaseException`` included, becomes a one-line
      :class:`StrategyError`; ``os._exit`` raises instead of ending the process.
      A real Ctrl-C (:func:`simcore.interrupts.received`) stays an interrupt.
    * What it prints goes to stderr, so ``--json`` output on stdout stays one JSON object.

    Parameters
    ----------
    what : str
        How the message names the file or module, e.g. ``"strategy file bot.py"``.
    """
    real_exit = os._exit
    sys.stdout.flush()
    os._exit = _refuse_exit  # the file's `import os; os._exit(0)` looks the name up when it calls it
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    except StrategyError as exc:  # from a decorator in the file: say which file
        raise StrategyError(f"{what}: {exc}") from None
    except SyntaxError as exc:
        raise StrategyError(f"{what} does not load: SyntaxError line {exc.lineno}: {exc.msg}") from None
    except _ExitCalled as exc:
        raise StrategyError(f"{what} calls os._exit({exc.args[0]!r}) when imported; a strategy file must not exit") from None
    except SystemExit as exc:
        raise StrategyError(f"{what} calls sys.exit({exc.code!r}) when imported; a strategy file must not exit") from None
    except KeyboardInterrupt:
        if _interrupted():
            raise
        raise StrategyError(f"{what} raises KeyboardInterrupt when imported") from None
    except BaseException as exc:  # noqa: BLE001 - user code: any failure is one line
        raise StrategyError(f"{what} does not load: {type(exc).__name__}: {error_line(exc)}") from None
    finally:
        os._exit = real_exit


def _interrupted() -> bool:
    """Whether the user pressed Ctrl-C (only known where :mod:`simcore.interrupts` is installed)."""
    interrupts = sys.modules.get("simcore.interrupts")
    return interrupts is None or interrupts.received()


def builtin_names() -> list[str]:
    """Names of the built-in strategies, sorted."""
    return [n for n in strategy_names() if is_builtin(n)]


def strategy_table() -> list[tuple[str, str]]:
    """(name, one-line description) of every built-in strategy."""
    return [(n, describe(n)) for n in builtin_names()]


__all__ = [
    "strategy", "compile_strategy", "load_strategy", "StrategyError", "SIGNATURE_TEXT",
    "strategy_table", "builtin_names", "get_strategy",
]


_LOADED: dict[str, str] = {}


def load_strategies(specs: Iterable[str]) -> list[str]:
    """Load (in this process) and return the registered names of ``--strategy`` values."""
    out = []
    for spec in specs:
        name = _LOADED.get(spec)
        if name is None:
            name = _LOADED[spec] = load_strategy(spec)
        out.append(name)
    return out
