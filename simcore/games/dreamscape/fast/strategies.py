"""The strategy hook of the fast engine: one fixed numba function type.

A fast strategy scores one legal option of a decision::

    score = strategy(kind, seat, features, state)

* ``kind`` (int64): decision kind id, :data:`simcore.games.dreamscape.rules.DECISION_ID`;
* ``seat`` (int64): the deciding seat;
* ``features`` (float64[::1], length :data:`~simcore.games.dreamscape.fast.layout.N_FEATURES`):
  the option's afterstate features, slots documented in :mod:`simcore.games.dreamscape.fast.layout`
  (slot 0 is the immediate own-score delta of ``immediate_score_delta``);
* ``state`` (int32[::1]): the game's state vector *before* the option, to be
  treated as read-only.

The engine gives every option a score, the best wins, and exact ties are
broken by the game's own stream (``below(n_tied)`` over tied options in engine
order), exactly as :mod:`simcore.games.dreamscape.bots.reference_bots` does.

Two kinds of strategy need no cfunc at all and run as engine modes:
:func:`register_linear` (MODE_LINEAR, ``dot(weights, features)`` computed by
the engine) and :func:`register_rollout` (MODE_ROLLOUT, flat Monte Carlo at
buy decisions). Every registered strategy is one :class:`StrategyRecord`.

Why cfuncs: the engine kernels take strategies as arguments of the explicit
first-class type :data:`STRATEGY_TYPE`, so they are compiled (and cached on
disk) once whatever strategies are plugged in. Numba passes a ``cfunc`` as a
value of that type; a plain ``@njit`` dispatcher would instead make the
kernels specialise (and recompile) per strategy, and a cfunc captured as a
global would disable the on-disk cache. :func:`register` therefore compiles
every strategy, whatever form it is given in, into a cfunc of the fixed
signature.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
from numba import cfunc, types
from numba.core.ccallback import CFunc

from simcore.games.dreamscape.fast.layout import F_DELTA, N_FEATURES
from simcore.games.dreamscape.fast.prefix import PX_PHASE_SHIFT
from simcore.games.dreamscape.fast.scratch import (
    EXPERT_WIDTH,
    LOOK_NESTED,
    LOOK_OFF,
    LOOK_VALUE,
    MODE_CALL,
    MODE_DELTA,
    MODE_EXPERT,
    MODE_LINEAR,
    MODE_ROLLOUT,
    MODE_SEARCH,
    MODE_ZERO,
    STRONG_PASSED,
)
from simcore.games.dreamscape.rules import DECISION_ID, DECISION_KINDS

STRATEGY_SIG = types.float64(types.int64, types.int64, types.float64[::1], types.int32[::1])
STRATEGY_TYPE = types.FunctionType(STRATEGY_SIG)


@cfunc(STRATEGY_SIG, cache=True)
def random_strategy(kind, seat, features, state):
    """Uniform random: every option scores 0, so the game's stream picks (ties)."""
    return 0.0


@cfunc(STRATEGY_SIG, cache=True)
def greedy_strategy(kind, seat, features, state):
    """Greedy on the immediate change of its own score (reference 'greedy')."""
    return features[F_DELTA]


ALL_KINDS = (1 << len(DECISION_KINDS)) - 1


def kinds_mask(decides) -> int:
    """Bit mask of decision kinds (names or ids); ``None`` means every kind."""
    if decides is None:
        return ALL_KINDS
    if isinstance(decides, str):
        decides = [decides]
    mask = 0
    for kind in decides:
        if isinstance(kind, str):
            if kind not in DECISION_ID:
                raise ValueError(f"unknown decision kind {kind!r} (known: {', '.join(DECISION_KINDS)})")
            kind = DECISION_ID[kind]
        if not 0 <= int(kind) < len(DECISION_KINDS):
            raise ValueError(f"decision kind id {kind!r} out of range 0..{len(DECISION_KINDS) - 1}")
        mask |= 1 << int(kind)
    return mask

# Engine modes (simcore.games.dreamscape.fast.scratch.Mode): the built-ins' scores are known
# without calling them, so the engine may skip the call with the same outcome.
# MODE_LINEAR scores dot(weights, features) inside the engine; MODE_ROLLOUT is
# the flat Monte Carlo player, MODE_SEARCH the search player (simcore.games.dreamscape.fast.isearch).
_NO_WEIGHTS = np.zeros(N_FEATURES)
_NO_WEIGHTS.setflags(write=False)  # shared by every record that does not score linearly


@dataclass(frozen=True, eq=False)  # eq=False: a numpy field has no truth value to compare by
class StrategyRecord:
    """Everything the engine needs to play one registered strategy.

    Attributes
    ----------
    name : str
        The name ``simulate(..., strategies=[name, ...])`` takes.
    compiled : numba cfunc of STRATEGY_SIG
        The scoring function (called in MODE_CALL; a placeholder for the engine modes).
    mode : int
        How the engine scores an option: MODE_CALL (call ``compiled``),
        MODE_ZERO / MODE_DELTA (the built-ins' known scores, no call),
        MODE_LINEAR (``dot(weights, features)``), MODE_ROLLOUT or MODE_SEARCH
        (:func:`register_search`).
    decides : int
        Bit mask over DECISION_ID of the kinds the strategy is called at.
    weights : float64[N_FEATURES], read-only
        Linear weights (MODE_LINEAR) or the linear rollout policy; zeros when unused.
    playouts : int
        Playouts per option of a rollout player (0 when unused).
    policy : int
        Mode of a rollout player's default policy (MODE_DELTA or MODE_LINEAR),
        or of a search player's playout policy (MODE_SEARCH: ``compiled``,
        ``weights`` and ``decides`` are the policy's).
    description : str
        One line shown in listings.
    builtin : bool
        A built-in strategy: user code cannot register another strategy under its name.
    tables : dict, optional
        MODE_EXPERT (or a search over it): the expert table per configuration,
        keyed ``(players, sleep_token, shifting_tokens)``; ``weights`` is the
        table played where no key matches (:func:`weights_for`).
    skip : int
        MODE_SEARCH: the game phases and decision kinds it does not search (:func:`phase_skip_bits`,
        :func:`kind_skip_bits`); 0 searches every decision.
    lookahead : int
        MODE_SEARCH: how it decides (``scratch.LOOK_*``): LOOK_OFF by
        playouts; LOOK_VALUE by the one-turn lookahead on a learned value (the
        strong bot, :func:`register_strong`; ``playouts`` is then the number
        of dealt worlds per option and each table carries the value's trees
        behind the expert table); LOOK_NESTED by playouts whose later turns
        the strong bot plays (``search:strong@K``, :func:`register_search`).
    """

    name: str
    compiled: CFunc
    mode: int = MODE_CALL
    decides: int = ALL_KINDS
    weights: np.ndarray = field(default_factory=lambda: _NO_WEIGHTS)
    playouts: int = 0
    policy: int = MODE_DELTA
    description: str = ""
    builtin: bool = False
    tables: Mapping | None = None
    skip: int = 0
    lookahead: int = LOOK_OFF


def weights_for(record: "StrategyRecord", players: int | None = None, sleep_token: bool = False,
                shifting_tokens: bool = False, deck_family: str | None = None) -> np.ndarray:
    """The weights a record plays in a configuration (its own table there, else its default).

    ``deck_family`` (:func:`simcore.games.dreamscape.decks.deck_family`) is added to the key only for
    tables that ask for it (``deck_families``: the strong bot's values, one of which is trained across the
    single-swap decks); every other table is keyed by players and rules options alone.
    """
    if record.tables is None or players is None:
        return record.weights
    key = (int(players), bool(sleep_token), bool(shifting_tokens))
    if deck_family is not None and getattr(record.tables, "deck_families", False):
        key += (deck_family,)
    return record.tables.get(key, record.weights)


_RECORDS: dict[str, StrategyRecord] = {}


_COMPILE_NOTICE: list[Callable[[str], None]] = []


def set_compile_notice(notice: Callable[[str], None] | None) -> None:
    """Call ``notice(where)`` before a strategy is compiled rather than loaded from numba's cache (None: silent)."""
    _COMPILE_NOTICE[:] = [notice] if notice is not None else []


def cached_entries(py: Callable) -> int:
    """How many compiled versions of ``py`` numba's on-disk cache holds for its current source (0: must compile).

    Reads the cache's index file (numba invalidates it when the source file's
    stamp changes, or for another numba version) without compiling or loading
    anything; works for ``@njit`` dispatchers (their Python function) and plain
    functions. 0 when numba cannot cache ``py`` at all.
    """
    from numba.core.caching import FunctionCache

    py = getattr(py, "py_func", py)
    try:
        index = FunctionCache(py)._cache_file._load_index()  # noqa: SLF001 - numba has no public query
    except Exception:  # no cache locator, unreadable index: treat as not cached
        return 0
    code = hashlib.sha256(py.__code__.co_code).hexdigest()
    # An entry's key ends with (bytecode hash, closure hash): count the entries of this very bytecode.
    return sum(1 for key in index if len(key) > 2 and key[2][0] == code)


def compile_cfunc(py: Callable, label: str | None = None) -> CFunc:
    """Compile a Python function into a cfunc of :data:`STRATEGY_SIG`, through numba's on-disk cache.

    A function defined in a file is cached beside it (``__pycache__``, or
    numba's user-wide cache folder when that is not writable): the next run
    loads it instead of compiling it again (``compiled.cache_hits == 1``).
    Numba keys the cache on the file's stamp (modification time and size)
    and the function's bytecode, so an edited file is compiled again and an
    unchanged one is not. A function numba cannot cache (defined in a
    string or at the interactive prompt) is compiled without the cache.
    ``label`` names it in the compile notice (default: the function's name).
    """
    if _COMPILE_NOTICE and not cached_entries(py):
        _COMPILE_NOTICE[0](label or getattr(py, "__qualname__", "strategy"))
    try:
        return cfunc(STRATEGY_SIG, cache=True)(py)
    except Exception:  # noqa: BLE001 - numba could not cache it ("no locator available for file ...", or a
        pass  # module a Dask worker loaded under another path); a real compile error is raised again just below
    return cfunc(STRATEGY_SIG)(py)


def register(
    name: str,
    fn: Callable | CFunc,
    description: str = "",
    *,
    decides=None,
    mode: int = MODE_CALL,
    weights=None,
    playouts: int = 0,
    policy: int = MODE_DELTA,
    builtin: bool = False,
) -> CFunc:
    """Register a strategy under ``name`` and return its compiled cfunc.

    Registering a name again replaces its record, except that only a built-in
    registration may replace a built-in strategy.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    fn : callable or numba cfunc
        A cfunc of :data:`STRATEGY_SIG`, a numba ``@njit`` function, or a plain
        Python function with the signature ``(kind, seat, features, state) ->
        float`` written in the numba-compatible subset; it is compiled once.
    description : str, optional
        One line shown in listings.
    decides : list of decision kinds (names or ids), optional
        The kinds whose options the strategy tells apart. At any other kind
        the engine does not call it and picks as it would if every option
        scored the same (``below(n)`` on the game's stream), so declaring the
        kinds changes no game, only the time: e.g. Shifting Dreams' up to 120
        orders (R6.8) differ only in ``option_index`` and ``arg``. ``None``
        (the default) calls the strategy at every kind.
    mode, weights, playouts, policy : optional
        The engine mode and its parameters (:class:`StrategyRecord`); the
        defaults describe a strategy the engine calls. :func:`register_linear`
        and :func:`register_rollout` set them for their modes.
    builtin : bool, optional
        Register a built-in strategy (the shipped bots only).

    Raises
    ------
    ValueError
        ``name`` is empty or names a built-in strategy and ``builtin`` is false,
        or ``decides`` names an unknown decision kind.
    TypeError
        ``fn`` is not callable, or a cfunc of another signature.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("a strategy needs a non-empty name")
    if is_builtin(name) and not builtin:
        raise ValueError(f"{name!r} is the name of a built-in strategy; give your strategy another name")
    mask = kinds_mask(decides)
    if isinstance(fn, CFunc):
        if fn._sig != STRATEGY_SIG:  # noqa: SLF001 - numba keeps the signature here
            raise TypeError(f"strategy {name!r}: cfunc signature must be {STRATEGY_SIG}")
        compiled = fn
    else:
        py = getattr(fn, "py_func", fn)  # an @njit dispatcher: compile its Python source
        if not callable(py):
            raise TypeError(f"strategy {name!r} is not callable")
        # the notice names the strategy as the user knows it, not a generated wrapper's __qualname__
        compiled = compile_cfunc(py, label=name)
    _RECORDS[name] = StrategyRecord(
        name=name,
        compiled=compiled,
        mode=int(mode),
        decides=mask,
        weights=_NO_WEIGHTS if weights is None else _check_weights(
            name, weights, EXPERT_WIDTH if np.size(weights) == EXPERT_WIDTH else N_FEATURES),
        playouts=int(playouts),
        policy=int(policy),
        description=description or (getattr(fn, "__doc__", "") or "").strip().split("\n")[0],
        builtin=builtin,
    )
    return compiled


def get_record(name: str) -> StrategyRecord:
    """The record of the strategy registered under ``name`` (KeyError naming the known ones)."""
    try:
        return _RECORDS[name]
    except KeyError:
        raise KeyError(f"unknown fast strategy {name!r} (known: {', '.join(sorted(_RECORDS))})") from None


def get_strategy(name: str) -> CFunc:
    """The compiled strategy registered under ``name``."""
    return get_record(name).compiled


def get_mode(name: str) -> int:
    """The engine mode of a registered strategy (MODE_CALL for every user strategy)."""
    return get_record(name).mode


def is_builtin(name: str) -> bool:
    """Whether ``name`` is registered as a built-in strategy."""
    record = _RECORDS.get(name)
    return record is not None and record.builtin


def _check_weights(name: str, weights, width: int = N_FEATURES) -> np.ndarray:
    w = np.array(weights, dtype=np.float64)  # a copy: the record must not change under the caller
    if w.shape != (width,):
        raise ValueError(f"strategy {name!r}: weights must be a vector of {width} numbers, got shape {w.shape}")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"strategy {name!r}: weights must be finite")
    w.setflags(write=False)
    return w


def register_linear(name: str, weights: np.ndarray, description: str = "", *, builtin: bool = False) -> None:
    """Register a linear strategy: an option scores ``dot(weights, features)``.

    The engine computes the dot product itself (MODE_LINEAR: no strategy call
    and no compilation per weight vector), summing ``weights[j] * features[j]``
    in slot order from 0.0, so it picks exactly what a strategy looping
    ``total += w[j] * features[j]`` picks.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    weights : array of N_FEATURES floats
        One weight per feature slot (:mod:`simcore.games.dreamscape.fast.layout`).
    description : str, optional
        One line shown in listings.
    builtin : bool, optional
        Register a built-in strategy (the shipped bots only).
    """
    w = _check_weights(name, weights)
    register(name, greedy_strategy, description or "linear scoring of the afterstate features",
             mode=MODE_LINEAR, weights=w, builtin=builtin)


class CheckedTables(Mapping):
    """An expert bot's tables by configuration key, each checked the first time it is asked for.

    A value given as a zero-argument callable (a file reader) is called then,
    not before: every command registers the shipped ``expert`` bot at start-up,
    and reading its 16 table files there cost about a third of a second of
    every command's start (issue #17), while a run plays one or two of them.

    Parameters
    ----------
    name : str
        The strategy's name, for error messages.
    sources : Mapping
        ``(players, sleep_token, shifting_tokens)`` -> float64[EXPERT_WIDTH],
        or a callable returning it.
    """

    def __init__(self, name: str, sources: Mapping):
        self.name = name
        self.sources = {(int(k[0]), bool(k[1]), bool(k[2])): v for k, v in sources.items()}
        self.checked: dict[tuple[int, bool, bool], np.ndarray] = {}

    def __getitem__(self, key) -> np.ndarray:
        if key not in self.checked:
            source = self.sources[key]  # KeyError for a configuration without a table, as a dict
            self.checked[key] = _check_weights(self.name, source() if callable(source) else source, EXPERT_WIDTH)
        return self.checked[key]

    def __iter__(self) -> Iterator[tuple[int, bool, bool]]:
        return iter(self.sources)

    def __len__(self) -> int:
        return len(self.sources)


def register_expert(
    name: str, tables: Mapping, default: tuple, description: str = "", *, builtin: bool = False
) -> None:
    """Register an expert bot (MODE_EXPERT): a linear model per decision kind and game phase.

    An option scores ``dot(table[kind * EXPERT_PHASES + phase], features)``
    (:func:`simcore.games.dreamscape.fast.decisions.expert_score`); the engine computes it
    itself, so nothing is compiled per table.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    tables : Mapping
        ``(players, sleep_token, shifting_tokens)`` -> float64[EXPERT_WIDTH]
        (rows of N_FEATURES weights, see :data:`simcore.games.dreamscape.fast.scratch.EXPERT_ROWS`),
        or a callable returning it, called when that configuration is first
        played (:class:`CheckedTables`).
    default : tuple
        The key whose table is played in a configuration without its own.
    description : str, optional
        One line shown in listings.
    builtin : bool, optional
        Register a built-in strategy (the shipped bots only).
    """
    if default not in tables:
        raise ValueError(f"strategy {name!r}: the default table {default} is not among the tables")
    checked = CheckedTables(name, tables)
    default_weights = checked[(int(default[0]), bool(default[1]), bool(default[2]))]
    register(name, greedy_strategy, description or "expert bot: a linear model per decision kind and phase",
             mode=MODE_EXPERT, builtin=builtin)
    _RECORDS[name] = replace(_RECORDS[name], weights=default_weights, tables=checked)


def register_rollout(
    name: str, playouts: int = 8, policy="greedy", description: str = "", *, builtin: bool = False
) -> None:
    """Register a flat Monte Carlo strategy (MODE_ROLLOUT) running inside the engine.

    At every buy decision with 2+ options it plays ``playouts`` games to the
    end per option (rest of the Sleep Deck reshuffled, every seat playing the
    default policy) and takes the best mean of win credit + score margin /
    1000; every other decision it plays like the default policy.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    playouts : int
        Playouts per option (K >= 1).
    policy : "greedy" or array of N_FEATURES floats
        The default policy: greedy (immediate own-score change) or a linear
        weight vector (as :func:`register_linear`).
    description : str, optional
        One line shown in listings.
    builtin : bool, optional
        Register a built-in strategy (the shipped bots only).
    """
    k = int(playouts)
    if k < 1 or k != playouts:
        raise ValueError(f"strategy {name!r}: playouts must be a whole number >= 1, got {playouts!r}")
    if isinstance(policy, str):
        if policy != "greedy":
            raise ValueError(f"strategy {name!r}: policy must be 'greedy' or a weight vector, got {policy!r}")
        w, pmode = _NO_WEIGHTS, MODE_DELTA
    else:
        w, pmode = _check_weights(name, policy), MODE_LINEAR
    register(name, greedy_strategy, description or f"flat Monte Carlo at buys, {k} playouts per option",
             mode=MODE_ROLLOUT, weights=w, playouts=k, policy=pmode, builtin=builtin)


SEARCH_PLAYOUTS = 8  # default K of search:NAME


GAME_PHASES = ("early", "mid", "late")  # the expert tables' thirds of the Sleep Deck (scratch.expert_phase)


def phase_skip_bits(phases) -> int:
    """The search mask bits (simcore.games.dreamscape.fast.prefix.PX_PHASE_SHIFT) that skip every game phase not in ``phases``.

    ``phases`` names game phases of :data:`GAME_PHASES`; None or all three: 0 (every phase searched).
    """
    if phases is None:
        return 0
    unknown = [p for p in phases if p not in GAME_PHASES]
    if unknown or not phases:
        raise ValueError(f"game phases are {', '.join(GAME_PHASES)} (joined with +), got {'+'.join(phases) or 'none'}")
    return sum(1 << (PX_PHASE_SHIFT + i) for i, p in enumerate(GAME_PHASES) if p not in phases)


def kind_skip_bits(kinds) -> int:
    """The search mask bits that skip every decision kind not in ``kinds`` (names of DECISION_KINDS; None: none skipped)."""
    if kinds is None:
        return 0
    if not kinds:
        raise ValueError("name at least one decision kind to search")
    return ALL_KINDS & ~kinds_mask(list(kinds))


def search_name(policy: str, playouts: int = SEARCH_PLAYOUTS, phases=None, kinds=None) -> str:
    """The registered name of the search player over ``policy``.

    ``search:NAME`` (default K), ``search:NAME@K``, with game phases
    ``search:NAME@K:late`` (``:mid+late``: the phases it searches, in game order),
    and with decision kinds ``search:NAME@K:late:buy+perform`` (the kinds it
    searches, in DECISION_KINDS order; ``:early+mid+late:buy`` searches the
    purchases of every phase).
    """
    if kinds is not None and kind_skip_bits(kinds) != 0:
        text = "+".join(p for p in GAME_PHASES if phases is None or p in phases)
        return f"search:{policy}@{playouts}:{text}:" + "+".join(k for k in DECISION_KINDS if k in kinds)
    if phases is not None and phase_skip_bits(phases) != 0:
        return f"search:{policy}@{playouts}:" + "+".join(p for p in GAME_PHASES if p in phases)
    return f"search:{policy}" if playouts == SEARCH_PLAYOUTS else f"search:{policy}@{playouts}"


def register_search(policy: str, playouts: int = SEARCH_PLAYOUTS, phases=None, kinds=None) -> str:
    """Register the search player (MODE_SEARCH, :mod:`simcore.games.dreamscape.fast.isearch`) over a registered policy.

    At every decision with 2+ options the seat plays each option out
    ``playouts`` times, hidden cards dealt anew for every playout and every
    seat playing ``policy`` after it, and takes the best mean of win credit +
    score margin / 1000.

    Parameters
    ----------
    policy : str
        A registered strategy that plays the playouts (any but a rollout or
        search player: a playout never searches).
    playouts : int
        Playouts per option (K >= 1).
    phases : sequence of str, optional
        Search only at decisions in these game phases (``early``, ``mid``,
        ``late``: more than 2/3, more than 1/3, or less of the Sleep Deck
        left, the expert tables' split) and play ``policy`` at the others.
        Default: every phase.
    kinds : sequence of str, optional
        Search only decisions of these kinds (names of
        :data:`simcore.games.dreamscape.rules.DECISION_KINDS`, e.g. ``buy``,
        ``perform``) and play ``policy`` at the others: search costs time
        where it gains little (docs/research/2026-11-25-late-search-frontier.md).
        Default: every kind.

    Returns
    -------
    str
        The registered name (:func:`search_name`).

    Raises
    ------
    ValueError
        ``playouts`` is not a whole number >= 1, ``phases`` or ``kinds``
        names none or an unknown one, or ``policy`` is a rollout or search player.
    KeyError
        ``policy`` is not registered.
    """
    k = int(playouts)
    if k < 1 or k != playouts:
        raise ValueError(f"search:{policy}: playouts must be a whole number >= 1, got {playouts!r}")
    base = get_record(policy)
    nested = base.lookahead == LOOK_VALUE  # search over the strong bot: its later turns in the playouts
    if base.mode in (MODE_ROLLOUT, MODE_SEARCH) and not nested:
        raise ValueError(f"search:{policy}: {policy!r} searches itself; a playout policy must be a plain strategy "
                         "or the strong bot")
    phase_skip, kind_skip = phase_skip_bits(phases), kind_skip_bits(kinds)
    skip = phase_skip | kind_skip
    name = search_name(policy, k, phases, kinds)
    what = "every decision" if kind_skip == 0 else "every " + ", ".join(x for x in DECISION_KINDS if x in kinds) + " decision"
    where = what if phase_skip == 0 else what + " of the " + " and ".join(p for p in GAME_PHASES if p in phases) + " game"
    # registered again on every use: the policy may have been re-registered (linear:FILE)
    register(name, base.compiled, f"search at {where}: {k} playouts per option with {policy!r}",
             mode=MODE_SEARCH, weights=None if nested else base.weights, playouts=k, policy=base.mode)
    # the policy's kinds (a MODE_CALL policy is called only there in the playouts), tables and phases
    _RECORDS[name] = replace(_RECORDS[name], decides=base.decides, tables=base.tables, skip=skip,
                             lookahead=LOOK_NESTED if nested else LOOK_OFF)
    if nested:  # the strong bot's policy (expert) finishes a playout's turn, its lookahead the turns after
        _RECORDS[name] = replace(_RECORDS[name], policy=base.policy, weights=base.weights, description=(
            f"search at {where}: {k} playouts per option, this turn finished by expert, later turns by {policy!r}"))
    return name


def register_strong(
    name: str, tables: Mapping, default: np.ndarray, worlds: int = 1, phases=("late",), description: str = "",
    *, builtin: bool = False,
) -> None:
    """Register a strong bot (MODE_SEARCH with ``lookahead``): a one-turn lookahead on a learned value.

    At every decision of ``phases`` with 2+ options the seat follows each
    option to the end of the turn in ``worlds`` dealt worlds, the rest of the
    turn played by the expert table, and takes the best mean value of the
    position the turn ends in (:func:`simcore.games.dreamscape.fast.isearch.lookahead_decision`);
    everywhere else it plays the expert table.

    Parameters
    ----------
    name : str
        Name used in ``simulate(..., strategies=[name, ...])``.
    tables : Mapping
        ``(players, sleep_token, shifting_tokens)`` -> float64 row: the expert
        table (EXPERT_WIDTH) followed by the value's packed trees
        (:mod:`simcore.games.dreamscape.fast.value`). A row of the expert
        table alone (a configuration without a value) plays the expert table.
    default : float64 array
        The row played where ``tables`` has no key.
    worlds : int
        Dealt worlds per option (>= 1).
    phases : sequence of str
        The game phases it looks ahead in (:data:`GAME_PHASES`).
    """
    k = int(worlds)
    if k < 1 or k != worlds:
        raise ValueError(f"strategy {name!r}: worlds must be a whole number >= 1, got {worlds!r}")
    register(name, greedy_strategy, description or "strong bot: one-turn lookahead on a learned value",
             mode=MODE_SEARCH, playouts=k, policy=MODE_EXPERT, builtin=builtin)
    _RECORDS[name] = replace(_RECORDS[name], weights=default, tables=tables, skip=phase_skip_bits(list(phases)) | STRONG_PASSED,
                             lookahead=LOOK_VALUE)


def get_decides(name: str) -> int:
    """Bit mask over DECISION_ID of the kinds the strategy is called at."""
    return get_record(name).decides


def get_params(name: str) -> tuple[np.ndarray, int, int]:
    """(weights, playouts, rollout policy mode) of a registered strategy (zeros/0 when unused)."""
    record = get_record(name)
    return record.weights, record.playouts, record.policy


def strategy_names() -> list[str]:
    """Registered strategy names, sorted."""
    return sorted(_RECORDS)


def describe(name: str) -> str:
    """The one-line description of a registered strategy ('' for an unknown name)."""
    record = _RECORDS.get(name)
    return record.description if record is not None else ""


register("random", random_strategy, "uniform random legal choices", mode=MODE_ZERO, builtin=True)
register("greedy", greedy_strategy, "maximises the immediate change of its own score", mode=MODE_DELTA, builtin=True)
