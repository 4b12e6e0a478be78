"""The lab's game registry and the written protocol between the lab and a game.

Two halves, one per layer:

* :class:`simcore.games.Game` is what the lab asks of a game: its setups, bots, engines
  (``play_games``), win credit, scenarios and narration. It lives in the game's
  ``simcore/games/<game>`` package and names no module of an upper layer.
* :class:`GameWing` is what a game's *lab wing* (``analyses/games/<game>``) gives the lab: the
  game itself (``game``, with the capabilities of the upper layers it declares in
  :attr:`~simcore.games.Game.extensions`) and the game's own steps of the lab's commands where it
  has more to say than the generic step (:class:`LabWing`'s hooks; None: the generic one).

Games are registered *from above*: every entry point of the group ``dreamscape.games``
(:data:`ENTRY_POINTS`; its name is the ``--game`` name, its target the wing object, or just the
:class:`~simcore.games.Game` of a game with no hooks, which gets a plain :class:`LabWing`) is a game,
the built-in ones included (``pyproject.toml``), so a designer's game in a package of their own
is found once that package is installed, without editing the lab. :func:`register` adds a wing
made at run time (a notebook, a test). Commands list the lab's own games in the order they have
always listed them (:data:`LISTING_ORDER`), then every other game by name.

A game's report is found the same way, through the group ``dreamscape.reports``
(:data:`REPORT_ENTRY_POINTS`, same names), so no layer below the reports names a report module.

Listing the names imports no game; a wing (and its ``simcore`` package) loads on first use.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from simcore.games import Game, GameError

ENTRY_POINTS = "dreamscape.games"  # name: the --game name; target: the game's lab wing (a GameWing)
REPORT_ENTRY_POINTS = "dreamscape.reports"  # name: the --game name; target: the game's report (build_report, summary_output)
DEFAULT_GAME = "dreamscape"  # the game of a command given no --game (its studies keep their historical folder names)
# Only the order `--help` and errors list the games in (entry points come sorted by name): a name here without
# an entry point is skipped, and a game not here is listed after these. Nothing else depends on it.
LISTING_ORDER = ("dreamscape", "pleasant-dreams", "counting-zzzzs")


@runtime_checkable
class CardSwaps(Protocol):
    """A game's card swaps (:attr:`LabWing.card_swaps`; Project Dreamscape's swap decks, R1.4): what
    ``dreamscape sweep`` and ``dreamscape decks`` ask of it."""

    def sweep_variants(self, swaps: str, options: str, spec) -> list[str]:
        """The variants a sweep plays: every swap deck of ``swaps`` (``all``, or a list) under every rules option of
        ``options``, on the composition ``spec`` (None: the game's own cards)."""

    def swap_decks(self, swaps: str = "all", spec=None) -> list[str]:
        """The swap decks ``swaps`` selects (``all``, ``none``, ``single``, patterns such as ``FF:*``), ``base`` first."""

    def swap_deck_table(self, spec, swaps: str) -> dict:
        """``dreamscape decks``: the swap decks of ``swaps`` on the composition ``spec`` (``source``, ``rows``, ``decks``)."""


@dataclass(frozen=True)
class RulesKnob:
    """One rules knob of a game: a printed number a designer may change (docs/guide/knobs.md), one row of the
    game's table of its rulebook's numbers.

    ``token`` is the knob's name in a variant (``start-z``: ``knob:start-z=VALUE``), ``rule`` the rule id that
    prints the number (``R2.2``), ``printed`` the value the engines play by default, ``range`` what the knob
    takes, ``meaning`` what it changes."""

    token: str
    rule: str
    what: str
    printed: str
    range: str
    meaning: str


@runtime_checkable
class PrintedGame(Protocol):
    """What a designer may change of a game as printed (:attr:`LabWing.printed_game`): its rules knobs and the
    card file it plays when given none. The what-if page (:mod:`analyses.lab.ui.core`) offers these knobs and
    compares an uploaded card file with that one."""

    knobs: tuple[RulesKnob, ...]  # every rules knob, once each, in the order of the rulebook
    card_file: Path | None  # the game's own card file (``--cards`` replaces it); None: it has none


@dataclass(frozen=True)
class PrintedParts:
    """The usual :class:`PrintedGame`: the knobs and the card file, as data."""

    knobs: tuple[RulesKnob, ...] = ()
    card_file: Path | None = None


def rules_knobs(rows: Iterable[tuple[str, str, str, str, str, str]]) -> tuple[RulesKnob, ...]:
    """:class:`RulesKnob` rows from ``(token, rule, what, printed, range, meaning)`` of a game's numbers table,
    each token once (a knob the table lists under two rules is offered once, at its first rule)."""
    out: dict[str, RulesKnob] = {}
    for row in rows:
        out.setdefault(row[0], RulesKnob(*row))
    return tuple(out.values())


@runtime_checkable
class SeatFixes(Protocol):
    """A game's search of its rules knobs for seat balance (:attr:`LabWing.fix_seats`): ``dreamscape fix-seats``."""

    def base_variant(self, setup) -> str:
        """The variant the search starts from (its knobs at their printed values)."""

    def parse_search(self, text: str | None) -> tuple[str, ...]:
        """The knob families of ``--search`` (None: the game's default); ValueError naming a bad one."""

    def check_search(self, families: tuple[str, ...], base: str) -> None:
        """ValueError when ``families`` cannot be searched from ``base``."""

    def search(self, *args, **kwargs):
        """``(measured, tried)``: the baseline measured and every trial of the search."""

    def best_candidates(self, trials: list[dict], k: int) -> list[str]:
        """The ``k`` best variants of the trials."""

    def fixes_table(self, folder, baseline: str, candidates: list[str], target: float):
        """The verified candidates as the report's "Suggested fixes" table (a polars frame)."""

    def save_fixes(self, folder, frame, meta: dict):
        """Keep that table (and ``meta``) in the study folder."""


@runtime_checkable
class StudyReport(Protocol):
    """A game's report (:attr:`LabWing.report`; the entry point of ``dreamscape.reports`` under its name)."""

    def build_report(self, folder, pdf=None, png_dir=None):
        """Write the report of a study folder; returns its files (``pdf``, ``pages``, ``pngs``)."""

    def summary_output(self, folder, as_json: bool) -> list[str]:
        """``dreamscape summarize``: the folder's summary as lines (one line of JSON with ``as_json``)."""


@runtime_checkable
class StrategyShipping(Protocol):
    """How a Dask backend (:mod:`analyses.study.backends`) readies a game in its workers (:attr:`LabWing.strategy_shipping`)."""

    def recipes(self, specs) -> dict:
        """Picklable recipes of the strategy specs ``specs`` as this process has them, keyed by spec."""

    def install(self, recipes: dict) -> None:
        """In a worker: register every recipe's strategy unless it is already exactly so."""

    def warm_worker(self) -> dict:
        """In a worker: load (or compile) the engine with one small chunk; returns its cache counts
        (``cache_hits``, ``cache_misses``)."""


@runtime_checkable
class StudyFileRules(Protocol):
    """A game's part of its study files (:attr:`LabWing.study_file`): the keys the lab's one reader
    (:func:`analyses.study.studyfile.load_study_file`) leaves to the game, beside its own (game, name, seed,
    games, precision, max_games, chunk_size, aggregate_only, and every ``[[configs]]`` group's label and games).

    The lab's rules for a game without its own: :data:`analyses.study.studyfile.LAB_RULES` (``cards``,
    ``[solver]``; groups of players, variants, strategy or strategies, restrict and actions).
    """

    top_keys: frozenset[str]  # the game's top-level keys
    group_keys: frozenset[str]  # the keys of a [[configs]] group beside label and games
    groups_at_top: bool  # one group's keys may stand at the top level of the file (a study of one group)

    def deal(self, game: Game, data: dict, path, where: str, cards) -> tuple[Any, Any]:
        """``(GameDeal, cards)``: the plan's game with its cards or deck as data (``cards``: a ``--cards``
        path given on the command line, or None), and the cards the groups are read with."""

    def group(self, game: Game, group: dict, where: str, cards, notes: dict) -> list:
        """The :class:`~analyses.study.model.RunConfig` of one group (its label and games taken off);
        ``notes`` is the reader's scratch dict for :meth:`finish`."""

    def finish(self, game: Game, plan, data: dict, where: str, notes: dict):
        """The plan once every group is read (every group's new configurations as one part, each
        configuration's most games in ``config_games``): the game's rules for parts and games per group,
        its other keys (``plan.meta``, ``plan.stages``). Returns the plan."""


@runtime_checkable
class GameWing(Protocol):
    """What a game's lab wing gives the lab (``analyses/games/<game>``; an entry point of ``dreamscape.games``).

    ``game``
        The :class:`simcore.games.Game`, with the capabilities its wing implements in the
        analyses layer declared in :attr:`~simcore.games.Game.extensions` (``analyses``: its findings;
        ``trainer``, ``tuner``, ``solo_bands``).

    Then one hook per step of a lab command where the game has more to say than the generic
    step; each is a callable or None (None: the lab's generic step). :class:`LabWing` documents
    each hook's arguments.
    """

    game: Game
    strategy_note: str | None
    card_swaps: Callable[[], CardSwaps] | None
    fix_seats: Callable[[], SeatFixes] | None
    printed_game: Callable[[], PrintedGame] | None
    report: Callable[[], StudyReport] | None
    deck_record: Callable[[Any], dict] | None
    deck_of_record: Callable[[dict], Any] | None
    study_file: Callable[[], StudyFileRules] | None
    restriction_names: Callable[[], Mapping[str, str]] | None
    strategy_shipping: Callable[[], StrategyShipping] | None
    after_study: Callable[..., None] | None
    summary_data: Callable[..., dict] | None
    prepare_engine: Callable[..., None] | None
    warm_local: Callable[..., None] | None
    warm_up: Callable[..., dict] | None
    bench: Callable[..., dict] | None
    load_bots: Callable[[Iterable[str]], list[str]] | None
    simulate_summary: Callable[..., dict] | None
    conformance: Callable[..., dict] | None
    strategy_rows: Callable[[], list[tuple[str, str]]] | None
    tournament_field: Callable[[], list[str]] | None
    exploit: Callable[..., Any] | None
    restrict: Callable[..., Any] | None
    train: Callable[..., dict] | None
    train_strong: Callable[..., dict] | None
    tune: Callable[..., dict] | None
    training_status: Callable[[Any, str], Any] | None
    distance_search: Callable[[Any, str], str | None] | None
    charts: Callable[[], Any] | None
    report_tables: Callable[..., Any] | None
    figures: Callable[..., dict] | None
    certify: Callable[[], Any] | None
    bot_rows: Callable[[Any, dict | None], Mapping[str, str]] | None


# The hooks of GameWing: the game's own step of a lab command (None: the lab's generic step).
HOOKS = ("card_swaps", "fix_seats", "printed_game", "report", "deck_record", "deck_of_record", "study_file", "restriction_names", "strategy_shipping", "after_study", "summary_data", "prepare_engine", "warm_local", "warm_up", "bench", "load_bots", "simulate_summary", "conformance",
         "strategy_rows", "tournament_field", "exploit", "restrict", "train", "train_strong", "tune", "training_status",
         "distance_search", "charts", "report_tables", "figures", "certify", "bot_rows")


@dataclass(frozen=True)
class LabWing:
    """The usual :class:`GameWing`: a game and the hooks it fills in (the others stay None, the generic step).

    ``strategy_note``: one line under ``dreamscape strategies``' table (how a spec is written), or None.

    Hooks
    -----
    card_swaps() -> CardSwaps
        The game's card swaps (:class:`CardSwaps`; Project Dreamscape's swap decks, R1.4): ``dreamscape
        sweep`` and ``dreamscape decks``, and the ``--sleep-token``/``--swap``/``--deck`` flags. None: those
        commands refuse the game in one line (:func:`need_hook`).
    fix_seats() -> SeatFixes
        The game's search of its rules knobs for seat balance (:class:`SeatFixes`): ``dreamscape fix-seats``.
    printed_game() -> PrintedGame
        What a designer may change of the printed game (:class:`PrintedGame`): its rules knobs
        (:class:`RulesKnob`, the rows of its numbers table) and its own card file. The what-if page
        (``dreamscape ui``) offers those knobs and compares an uploaded card file with that one. None: the
        page offers no knob and refuses an uploaded card file in one line (:func:`need_hook`).
    report() -> StudyReport
        The game's report (:class:`StudyReport`). Filled in by the registry from the entry point of
        ``dreamscape.reports`` under the game's name when the wing leaves it None.
    deck_record(cards) -> dict, deck_of_record(record) -> cards
        A game whose study folders record a card composition in the manifest's ``deck`` (Project
        Dreamscape's ``--deck``): the game's cards (:meth:`~simcore.games.Game.load_cards`) as that JSON
        record, and back (ValueError when the record is damaged). The record travels in the study's
        :class:`~analyses.study.model.GameDeal` as data; its keys but ``name`` and ``source`` say what
        the cards are. None: the game's cards travel as the text of their file (``meta.cards``).
    study_file() -> StudyFileRules
        The game's part of its study files when it has keys of its own (:class:`StudyFileRules`;
        Project Dreamscape: decks, swaps, tournaments, rotations, rechecks); None: the lab's rules
        (:data:`analyses.study.studyfile.LAB_RULES`). Either way one reader reads the file.
    restriction_names() -> {type: name}
        Readable names of what ``dreamscape restrict`` forbids (Project Dreamscape's dream types).
    strategy_shipping() -> StrategyShipping
        How a Dask backend sends the game's strategies to its workers and readies a worker's engine
        (:class:`StrategyShipping`; Project Dreamscape: recipes of its registered strategies, so a
        strategy file need not exist on the workers); None: the game's bots are part of its package.
    after_study(folder, plan, progress=None)
        The game's own work once a study's games are played (Pleasant Dreams: its solver).
    summary_data(folder) -> dict
        A study folder's summary when the game has its own; None: the lab's.
    prepare_engine(notice, interrupts)
        Ready the engine before a command plays (say once that it compiles, with ``notice``).
    warm_local(backend, scheduler, notice)
        Load the compiled kernels before a run's progress bar starts, so the bar counts play only.
    warm_up(say) -> dict, bench(quick, say) -> dict
        ``dreamscape warmup`` and ``dreamscape bench`` for this game.
    load_bots(specs) -> names
        The engine's names of strategy specs (a strategy file is loaded and registered).
    simulate_summary(setup, seats, games, seed, chunk_size, ...) -> dict
        ``dreamscape simulate``'s summary when the game reports more than the seat rows.
    conformance(paths, engine) -> dict
        ``dreamscape conformance`` when a scenario file can fail to load apart from failing.
    strategy_rows() -> [(name, description)], tournament_field() -> [spec]
        ``dreamscape strategies``' table, ``dreamscape tournament``'s default field.
    exploit(...), restrict(...), train(...), train_strong(...), tune(...)
        The game's own ``exploit``, ``restrict``, ``train``, ``train-strong`` and ``tune``.
    training_status(setup, bot) -> TrainingStatus or None
        What a bot's play on this setup was adapted to (:class:`simcore.games.TrainingStatus`: ``fitted``
        to this rule set, ``rule-aware`` or ``out-of-distribution``, and a detail); None: not known (a
        bot of the user's). Every result on a changed game names it (:mod:`analyses.tools.distance`);
        a game without the hook names none.
    distance_search(setup, bot) -> spec or None
        The search player whose one-seat gain over ``bot`` is the bot's distance from search on a
        changed game (Project Dreamscape: ``search:BOT@8:late``); None: no search over that bot. Without
        the hook: ``game.search(bot, 8)`` where the game has a search player over ``bot``.
    charts() -> module
        The game's chart functions (each takes a frame or the folder's tables and returns a matplotlib
        Figure or None): :func:`analyses.lab.plot.charts`, and ``analyses.lab.plot.<name>`` for the
        default game's (the names in the module's ``__all__``). None: the game has no charts of its own.
    report_tables(folder) -> tables
        Every table a study folder's report is drawn from, seats counted from 1 and rates as fractions
        (``lab.open_study(folder).tables``, :func:`analyses.lab.frames.study_tables`).
    figures(tables) -> {name: Figure}
        Every chart of the report drawn from those tables, by name in report order
        (:func:`analyses.lab.plot.study_figures`).
    certify() -> module
        The game's certified top rung (``dreamscape certify``: every headline finding of a study read again
        by a level above its strongest bot; Project Dreamscape: :mod:`analyses.games.dreamscape.certify`,
        its ``run(study, games, doubling, backend, progress, command)`` and ``DEFAULT_GAMES``). None: the
        command refuses the game in one line.
    bot_rows(config, deck) -> {strategy: digest}
        The digest of what each bot of a study configuration (:class:`~analyses.study.model.RunConfig`; ``deck``:
        the manifest's deck record) plays there, as the engine looks it up (Project Dreamscape: the sha256 of
        its whole engine row, :func:`analyses.games.dreamscape.botrows.bot_rows`). A study folder records it
        per configuration; a resume refuses to add games of a bot whose digest changed, and a report names
        the configurations played by other rows (:mod:`analyses.study.botrows`). None: the game's bots have
        no rows to record.
    """

    game: Game
    strategy_note: str | None = None
    card_swaps: Callable[[], CardSwaps] | None = None
    fix_seats: Callable[[], SeatFixes] | None = None
    report: Callable[[], StudyReport] | None = None
    deck_record: Callable[[Any], dict] | None = None
    deck_of_record: Callable[[dict], Any] | None = None
    study_file: Callable[[], StudyFileRules] | None = None
    restriction_names: Callable[[], Mapping[str, str]] | None = None
    strategy_shipping: Callable[[], StrategyShipping] | None = None
    after_study: Callable[..., None] | None = None
    summary_data: Callable[..., dict] | None = None
    prepare_engine: Callable[..., None] | None = None
    warm_local: Callable[..., None] | None = None
    warm_up: Callable[..., dict] | None = None
    bench: Callable[..., dict] | None = None
    load_bots: Callable[[Iterable[str]], list[str]] | None = None
    simulate_summary: Callable[..., dict] | None = None
    conformance: Callable[..., dict] | None = None
    strategy_rows: Callable[[], list[tuple[str, str]]] | None = None
    tournament_field: Callable[[], list[str]] | None = None
    exploit: Callable[..., Any] | None = None
    restrict: Callable[..., Any] | None = None
    train: Callable[..., dict] | None = None
    train_strong: Callable[..., dict] | None = None
    tune: Callable[..., dict] | None = None
    training_status: Callable[[Any, str], Any] | None = None
    distance_search: Callable[[Any, str], str | None] | None = None
    charts: Callable[[], Any] | None = None
    report_tables: Callable[..., Any] | None = None
    figures: Callable[..., dict] | None = None
    printed_game: Callable[[], PrintedGame] | None = None  # after the older hooks: a wing built with positional hooks keeps them
    certify: Callable[[], Any] | None = None  # newest last, for the same reason
    bot_rows: Callable[[Any, dict | None], Mapping[str, str]] | None = None


_REGISTERED: dict[str, GameWing] = {}  # wings given to register(), by --game name
_LOADED: dict[str, GameWing] = {}  # wings loaded from entry points (with their report declared), by --game name


def _entry_points(group: str) -> dict[str, metadata.EntryPoint]:
    """The group's entry points by name (the first one installed of a name)."""
    out: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=group):
        out.setdefault(ep.name, ep)
    return out


def game_names() -> tuple[str, ...]:
    """Every ``--game`` name, in the order commands list them (:data:`LISTING_ORDER`, then by name)."""
    names = set(_entry_points(ENTRY_POINTS)) | set(_REGISTERED)
    return tuple(sorted(names, key=lambda n: (LISTING_ORDER.index(n) if n in LISTING_ORDER else len(LISTING_ORDER), n)))


def as_wing(target: object) -> object:
    """A registered object as a wing: a bare :class:`~simcore.games.Game` gets a :class:`LabWing` of its own."""
    return LabWing(target) if isinstance(target, Game) else target


def register(wing: GameWing | Game) -> GameWing:
    """Add a game made at run time (a notebook, a test) under its game's name; returns the wing.

    ``wing`` may be a bare :class:`~simcore.games.Game` (the generic step everywhere)."""
    wing = as_wing(wing)
    check_wing(wing, "register()")
    _REGISTERED[wing.game.name] = wing
    _LOADED.pop(wing.game.name, None)
    return wing


def unregister(name: str) -> None:
    """Take a game given to :func:`register` off the registry again."""
    _REGISTERED.pop(name, None)
    _LOADED.pop(name, None)


def check_wing(wing: object, where: str) -> None:
    """GameError unless ``wing`` keeps the protocol: a :class:`~simcore.games.Game` and callable-or-None hooks."""
    if not isinstance(wing, GameWing) or not isinstance(wing.game, Game):
        raise GameError(f"{where}: not a game's lab wing (a GameWing with a simcore.games.Game), "
                        f"got {type(wing).__name__}")
    bad = [h for h in HOOKS if getattr(wing, h) is not None and not callable(getattr(wing, h))]
    if bad:
        raise GameError(f"{where}: hook {bad[0]} of {wing.game.name} is neither callable nor None")


def _with_report(wing: GameWing) -> GameWing:
    """The wing with the report the group ``dreamscape.reports`` has under its game's name (unless it has one)."""
    ep = _entry_points(REPORT_ENTRY_POINTS).get(wing.game.name)
    if ep is None or wing.report is not None or not dataclasses.is_dataclass(wing):
        return wing
    return dataclasses.replace(wing, report=ep.load)


# What a game lacking a hook lacks, in the words of the one line that refuses it (need_hook).
HOOK_NEEDS = {"card_swaps": "card swaps (expansion decks)", "fix_seats": "rules knobs", "report": "study report",
              "printed_game": "printed numbers declared (rules knobs, its card file)",
              "certify": "certified top rung (a stronger level that reads a study's findings again)"}


def need_hook(game: Game | str, hook: str, command: str):
    """What the game's wing gives for ``hook`` (the hook called); GameError naming what the game lacks and the
    command that needs it when the wing leaves the hook None (one line, exit 2)."""
    wing = wing_of(game)
    step = getattr(wing, hook)
    if step is None:
        raise GameError(f"{wing.game.title} has no {HOOK_NEEDS.get(hook, hook.replace('_', ' '))}, "
                        f"which `dreamscape {command}` needs")
    return step()


def get_wing(name: str) -> GameWing:
    """The lab wing of the game called ``name``; GameError naming the games otherwise."""
    wing = _LOADED.get(name)
    if wing is not None:
        return wing
    if name in _REGISTERED:
        wing = _REGISTERED[name]
    else:
        ep = _entry_points(ENTRY_POINTS).get(name)
        if ep is None:
            known = game_names()
            if not known:  # an install from before the entry points existed
                raise GameError("no games are registered: reinstall the lab (python3 dev.py setup, or pip install -e .)")
            raise GameError(f"unknown game {name!r} (games: {', '.join(known)})")
        try:
            target = ep.load()
        except Exception as exc:  # a designer's broken or half-installed package: one line, not a traceback
            first = (str(exc).splitlines() or [""])[0]
            raise GameError(f"entry point {ENTRY_POINTS} {name} = {ep.value} cannot be loaded: "
                            f"{type(exc).__name__}: {first}") from None
        wing = as_wing(target)
        check_wing(wing, f"entry point {ENTRY_POINTS} {name} = {ep.value}")
        if wing.game.name != name:
            raise GameError(f"entry point {ENTRY_POINTS} {name} = {ep.value} is the game {wing.game.name!r}")
    wing = _LOADED[name] = _with_report(wing)
    return wing


def recorded_game(name: str | None) -> str:
    """The ``--game`` name a record holds (a study folder's manifest ``meta``, a study file's ``game``): ``name``, or
    :data:`DEFAULT_GAME` for a record that names none (folders and study files of the default game name none, as
    those written before there were other games). The one place a record's missing game is read."""
    return DEFAULT_GAME if name is None else name


def get_game(name: str) -> Game:
    """The game called ``name`` (:func:`game_names`); GameError naming the games otherwise."""
    return get_wing(name).game


def wing_of(game: Game | str) -> GameWing:
    """The lab wing of a game (or a ``--game`` name); a Game the registry does not hold has no hooks."""
    if isinstance(game, str):
        return get_wing(game)
    if game.name in _LOADED or game.name in game_names():
        return get_wing(game.name)
    return LabWing(game)


def game_input_errors() -> tuple[type[Exception], ...]:
    """The input errors of every game loaded so far (a command reports them in one line, exit 2)."""
    out: list[type[Exception]] = [GameError]
    for wing in _LOADED.values():
        out += [e for e in wing.game.errors if e not in out]
    return tuple(out)


def extension_loaders(**modules: Callable[[], Any]) -> Mapping[str, Callable[[], Any]]:
    """``Game.extensions`` from capability=loader keywords, checked against the declared capabilities."""
    from simcore.games import CAPABILITIES

    unknown = sorted(set(modules) - set(CAPABILITIES))
    if unknown:
        raise KeyError(f"unknown capability {unknown[0]!r} (known: {', '.join(CAPABILITIES)})")
    return dict(modules)


__all__ = ["ENTRY_POINTS", "REPORT_ENTRY_POINTS", "DEFAULT_GAME", "LISTING_ORDER", "GameWing", "LabWing", "StudyFileRules", "CardSwaps", "SeatFixes", "StudyReport", "PrintedGame", "PrintedParts", "RulesKnob", "rules_knobs", "HOOKS", "HOOK_NEEDS", "need_hook", "game_names",
           "get_game", "recorded_game", "get_wing", "wing_of", "register", "as_wing", "unregister", "game_input_errors", "check_wing",
           "extension_loaders"]
