"""What every lab function shares: its input error, the games, option checks, default folders, study runs.

A lab function validates its inputs here before any game is played, so bad
input is one :class:`LabInputError` (or a game's own one-line error) and never
a traceback. Nothing here knows a game by name: a game's own implementation of
a step is a hook of its lab wing (:class:`analyses.games.GameWing`, found by
:func:`analyses.games.wing_of`), the generic one is used where it has none.
"""
from __future__ import annotations

import re
import sys
import zlib
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from analyses.study.model import GameDeal
from analyses.study.progress import set_progress
from simcore.files import check_output_file, check_output_folder
from analyses.games import DEFAULT_GAME, get_game, wing_of
from analyses.lab.errors import LabInputError, ParameterError, parameter_error

DEFAULT_PLAYERS = 3  # a quick question's table: three players where the game allows it (else its largest count)
OUT_ROOT = Path("out")  # default folders of commands that write one (fix-seats-3p, compare-3p-base-vs-...)
_NOTICES: set[str] = set()


@dataclass(frozen=True)
class FolderOptions:
    """The options every command that writes a study folder shares (one definition, one check).

    ``out`` None: a default folder under ``out/`` named after the question.
    """

    out: Path | None = None
    backend: str = "local"
    scheduler: str | None = None
    workers: int | None = None
    seed: int | None = 1  # None (``study`` only): the study file's seed
    chunk_size: int = 50_000
    progress: bool | None = None
    interrupts: bool = False

    def check(self) -> "FolderOptions":
        check_study_numbers(chunk_size=self.chunk_size, workers=self.workers)
        return self

    def folder(self, kind: str, *words: object) -> Path:
        """``out``, or the default folder of the question (said on stderr)."""
        return writable_folder(Path(self.out) if self.out is not None else default_out(kind, *words))


def stderr_line(line: str) -> None:
    """The default ``say`` of lab functions: one line on stderr (stdout stays clean for ``--json``)."""
    print(line, file=sys.stderr, flush=True)


def notice(line: str, say: Callable[[str], None] = stderr_line) -> None:
    """``line`` once per process (e.g. that the engine compiles first)."""
    if line not in _NOTICES:
        _NOTICES.add(line)
        say(line)


def forget_notices() -> None:
    """Let every notice be said again (a warm spare process says its next command's own)."""
    _NOTICES.clear()


def game_of(game) -> object:
    """The :class:`simcore.games.Game` of a registry name (a Game passes through)."""
    return get_game(game) if isinstance(game, str) else game


def prepare(game, progress: bool | None = None, say: Callable[[str], None] = stderr_line,
            interrupts: bool = False) -> None:
    """Apply ``progress`` (None: bars only on a terminal) and let the game ready its engine.

    A game whose engine compiles on first use says so once, before it starts, and how long it took
    (Project Dreamscape: :func:`analyses.games.dreamscape.commands.prepare_engine`, per game loop;
    every other game: :func:`analyses.study.warmup.ready_game_engine`, compiled here so that no
    timed run counts it); ``interrupts`` (the process is a console command): Ctrl-C also stops compiled code.
    """
    set_progress(progress)
    ready = wing_of(game).prepare_engine
    if ready is not None:
        ready(lambda line: notice(line, say), interrupts)
    else:
        from analyses.study.warmup import ready_game_engine

        ready_game_engine(game, lambda line: notice(line, say))


def default_players(game) -> int:
    """The player count of a quick question: 3 where the game is played by three, else its largest count."""
    return DEFAULT_PLAYERS if DEFAULT_PLAYERS in game.seat_counts else max(game.seat_counts)


def check_players(game, players: int, least: int = 1, why: str = "") -> int:
    """``players`` is a count the game is played by (and at least ``least``), else one line.

    ``why``: the line for too few players, naming the parameter as ``{players}`` (the Python
    parameter ``players``, the command line's ``--players``).
    """
    if players not in game.seat_counts:
        low, high = min(game.seat_counts), max(game.seat_counts)
        raise parameter_error("players", f"must be {low} to {high}, got {players}")
    if players < least:
        if why:
            raise ParameterError(why.format(players="players"), why.format(players="--players"))
        raise parameter_error("players", f"must be {least} to {max(game.seat_counts)}, got {players}")
    return players


def check_study_numbers(games: int | None = None, precision: float | None = None, max_games: int = 1,
                        chunk_size: int = 1, workers: int | None = None) -> None:
    """The numbers of the study-folder options (--games, --precision, --max-games, --chunk-size, --workers)."""
    if games is not None and games < 1:
        raise parameter_error("games", f"must be at least 1, got {games}")
    if precision is not None and not 0 < precision < 0.5:
        raise parameter_error("precision", f"must be between 0 and 0.5 (a rate's half-width, e.g. 0.01), got {precision}")
    if max_games < 1:
        raise parameter_error("max_games", f"must be at least 1, got {max_games}")
    if chunk_size < 1:
        raise parameter_error("chunk_size", f"must be at least 1, got {chunk_size}")
    if workers is not None and workers < 1:
        raise parameter_error("workers", f"must be at least 1, got {workers}")


def writable_folder(path: Path, option: str = "--out") -> Path:
    """``path`` can be written as a folder (it may not exist yet), else one line, before any work."""
    with python_words(option):
        check_output_folder(path, option, LabInputError)
    return Path(path)


def writable_file(path: Path, option: str = "--out") -> Path:
    """``path`` can be written as a file, else one line, before any work."""
    with python_words(option):
        check_output_file(path, option, LabInputError)
    return Path(path)


@contextmanager
def python_words(option: str):
    """An error of the command line's ``option`` (``--out x: ...``) named by the Python parameter (``out x: ...``)."""
    try:
        yield
    except LabInputError as exc:
        text = str(exc)
        if isinstance(exc, ParameterError) or not text.startswith(option + " "):
            raise
        raise ParameterError(option.removeprefix("--").replace("-", "_") + text[len(option):], text) from None


def slug(text: str, limit: int = 60) -> str:
    """``text`` as a file name: runs of other characters than letters, digits, ``+ . -`` become ``_``.

    A long name keeps its start and gets a short checksum of the whole, so two
    questions never share a folder by truncation.
    """
    name = re.sub(r"[^A-Za-z0-9+.-]+", "_", text).strip("_") or "run"
    if len(name) > limit:
        name = f"{name[:limit - 9]}-{zlib.crc32(text.encode()):08x}"
    return name


def default_out(kind: str, *words: object, suffix: str = "", say: Callable[[str], None] = stderr_line) -> Path:
    """The folder (or file) a quick question writes when no ``--out`` is given: ``out/<kind>-<words>``.

    Named after the question, like ``fix-seats``' ``out/fix-seats-3p``, so the same
    question resumes its folder; said on stderr.
    """
    path = OUT_ROOT / (slug("-".join([kind, *(str(w) for w in words)])) + suffix)
    say(f"writing {path} (give --out to choose)")
    return path


def variant_text(variant: str | None, flags: dict[str, object], swaps: Sequence[str] | None = None) -> str | None:
    """One variant text from ``--variant`` or the rules flags (``--sleep-token`` ... ``--swap``), not both.

    ``flags`` maps a flag (``--sleep-token``) to whether it is given; each
    given flag is the variant token of its name.
    """
    tokens = [flag.removeprefix("--") for flag, on in flags.items() if on]
    for swap in swaps or []:
        if swap.count(":") != 1:
            raise LabInputError(f"--swap {swap!r}: give REMOVED:ADDED, e.g. FF:ID (R1.4)")
        tokens.append(swap)
    if variant is not None and tokens:
        raise LabInputError("give --variant or the --sleep-token/--shifting-tokens/--swap flags, not both")
    return variant if variant is not None else ("+".join(tokens) or None)


def rules_flags(game, given: dict[str, object]) -> None:
    """Flags that only a game with card swaps has (--sleep-token, --swap, --deck): one line for another game."""
    used = [name for name, value in given.items() if value]
    if used and wing_of(game).card_swaps is None:
        raise LabInputError(f"{', '.join(used)} {'is' if len(used) == 1 else 'are'} not {game.title}'s: "
                            f"give its rules as --variant")


def one_cards(deck: Path | None, cards: Path | None) -> Path | None:
    """``--deck`` and ``--cards`` name the same file (a deck composition or another game's card list): not both."""
    if deck is not None and cards is not None:
        raise ParameterError("give deck or cards, not both", "give --deck or --cards, not both")
    return deck if deck is not None else cards


def card_files(deck: Sequence[Path] | None, cards: Sequence[Path] | None) -> list[Path]:
    """The card files of a repeatable ``--deck`` or ``--cards`` (the same files; not both), in order."""
    if deck and cards:
        raise ParameterError("give deck or cards, not both", "give --deck or --cards, not both")
    return [Path(p) for p in (deck or cards or [])]


def deal(game, cards: Path | None) -> dict:
    """The StudyPlan field of a card file: the :class:`GameDeal` that carries the cards as data, the deck record
    of a game whose wing keeps one (:attr:`analyses.games.LabWing.deck_record`), else the file's text."""
    from analyses.games import wing_of
    from analyses.study.gamechunks import cards_text
    from analyses.study.model import deck_text

    record = wing_of(game).deck_record
    if record is not None:
        return {"game": GameDeal(game.name, deck=deck_text(record(game.load_cards(cards))) if cards is not None else None)}
    return {"game": GameDeal(game.name, cards_text(cards))}


def command_line() -> str:
    """The command as typed (kept in a study folder's manifest)."""
    return " ".join(["dreamscape", *sys.argv[1:]])


def warm(game, backend: str, scheduler: str | None = None, say: Callable[[str], None] = stderr_line) -> None:
    """Load (or compile) a game's kernels before a run's progress bar starts, so it counts play only."""
    step = wing_of(game).warm_local
    if step is not None:
        step(backend, scheduler, lambda line: notice(line, say))


def run_study_plan(game, plan, out: Path, backend: str = "local", scheduler: str | None = None,
                   workers: int | None = None, command: str | None = None,
                   played: Callable[[float], None] | None = None):
    """Play a study plan into the folder ``out`` on the chosen backend (closed afterwards); resumes it.

    ``played``: called with the wall time of the play, from when the engine is ready (its compile and
    loading not counted, as simulate's time)."""
    import time

    from analyses.study.backends import make_backend
    from analyses.study.studyfile import run_plan

    check_study_numbers(workers=workers)
    writable_folder(out, "--out")
    release = claim(out, game, plan.kind)
    try:
        warm(game, backend, scheduler)
        engine = make_backend(backend, scheduler, workers)
        try:
            t0 = time.perf_counter()
            result = run_plan(plan, out, command=command or command_line(), backend=engine, progress=True)
            if played is not None:
                played(time.perf_counter() - t0)
            return result
        finally:
            engine.close()
    finally:
        release()


def claim(folder: Path, game, kinds) -> Callable[[], None]:
    """The folder's lock for a run of ``game`` of one of ``kinds``: a folder of another game or kind of run,
    or one another process writes, is refused in one line before anything is played or written
    (:func:`analyses.study.folder.claim_folder`)."""
    from analyses.study.folder import claim_folder

    return claim_folder(folder, game_of(game).name, kinds)


@contextmanager
def claimed(folder: Path | None, the, kinds):
    """Hold ``folder`` (None: no folder) for a run of ``the`` of one of ``kinds`` while it is played and
    written: a folder of another game or kind of run is refused before any game is played
    (:func:`claim`)."""
    release = claim(Path(folder), the, kinds) if folder is not None else (lambda: None)
    try:
        yield
    finally:
        release()


__all__ = ["DEFAULT_GAME", "LabInputError", "default_out", "check_study_numbers"]
