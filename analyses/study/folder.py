"""Resumable batch studies: configurations x games, cut into chunks, saved as parquet.

A study folder holds::

    manifest.json                                what was asked, seed, deck, versions, chunk status, timings,
                                                 the digest of every bot's row per configuration (botrows.py)
    chunks/<config-id>/agg-<first>.parquet       per-chunk sums per (config, seat, strategy): always written
    chunks/<config-id>/games-<first>.parquet     per-game rows (one row per game and seat), unless aggregate-only
    chunks/<config-id>/pairs-<first>.parquet     per (config, seat, strategy, card) sums: cards held at game end

A chunk is the game range ``[first, first + games)`` of one configuration;
game ``g`` always plays from the random streams of ``(seed, g)`` (deal and
decisions, :mod:`simcore.rng`), so results do not depend on chunk size, thread
count or backend (common random numbers: game ``g`` of two variants of a deck
is the same deal and the same decision stream), and
re-running the same command resumes: finished chunks are kept, nothing is
computed twice.

Consistency: every chunk file is written to a temporary name and renamed into
place *before* the manifest lists it. The manifest is rewritten (also
atomically) at most every :data:`SAVE_EVERY` seconds and always when a run
ends or is interrupted (Ctrl-C), so a study of thousands of small chunks does
not spend its time rewriting a large manifest. After a hard kill the chunks
finished since the last save have files but no manifest entry; a resume
simply computes them again (same games, same bytes).

The manifest lists every chunk's files in ``files`` (``{"agg": ...,
"games": ..., "pairs": ...}``, format version 2, :mod:`analyses.study.model`), and
their size and sha256 in ``checks``; its ``identity`` holds the seed and the
fingerprint of the plan that made the folder, and every ``agg`` file the
seed, configuration and games it holds (parquet metadata ``dreamscape_chunk``).

One writer, verified contents: a :class:`Study` holds the folder's OS lock
(:func:`lock_folder`) from creation to :meth:`Study.close`, so a second
process gets a one-line :class:`StudyError`; :func:`check_study` (summaries,
reports) names the first missing, truncated, emptied or altered chunk file,
and a resumed :class:`Study` drops such chunks (one line on stderr each), so
its run plays exactly them again.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import json
import os
import platform
import shutil
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numpy as np
import polars as pl

from analyses.study.backends import LocalBackend
from analyses.study import gamechunks
from analyses.study.botrows import check_before_play
from analyses.study.chunks import ChunkFn, play_chunk
from analyses.study.model import (MAX_CHUNK_SIZE, MAX_SEATS, ChunkRecord, ChunkTask, GameDeal, RunConfig, StudyError,
                            StudyManifest, deck_key, exploit_cell)
from analyses.study.progress import progress_bar
from simcore.files import WRITE_FAILURES, read_text_file
from simcore.rng import MAX_GAMES, MAX_SEED

MANIFEST = "manifest.json"
SAVE_EVERY = 2.0  # seconds between manifest saves during a run
# Every per-chunk sum is a whole number of 1/144: win credits are multiples of 1/12 (R8.3: a win shared by
# k <= 4 seats credits 1/k), products of two credits multiples of 1/144, the rest whole numbers.
SUM_UNITS = 144


def library_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("dreamscape-lab", "numba", "numpy", "polars", "pandas", "scipy", "statsmodels"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file of its own in ``path``'s folder, then rename it into place.

    The temporary name is unique (pid and random part), so two processes
    never write into the same temporary file; a failed write leaves no
    temporary file behind.
    """
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ============================================================================ one writer per folder

LOCK = ".lock"
_LOCKS: dict[Path, list] = {}  # resolved folder -> [open lock file, holders in this process]


def lock_folder(folder: str | Path) -> Callable[[], None]:
    """Take the study folder's writer lock for this process; returns the function that releases it.

    The lock is an OS lock (``flock``) on ``folder/.lock``, not a lock file
    whose existence is the lock: the kernel drops it when the process ends
    in any way (Ctrl-C, kill -9, a crash), so no stale lock is ever left to
    clean up by hand, and the standard library suffices. Within one process
    it is re-entrant (every :class:`Study` of the folder shares it); a
    second *process* gets a :class:`StudyError` at once, naming the holder.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    key = folder.resolve()
    held = _LOCKS.get(key)
    if held is None:
        fh = open(key / LOCK, "a+")
        try:
            _os_lock(fh)
        except OSError:
            fh.seek(0)
            holder = fh.read().strip()
            fh.close()
            raise StudyError(f"{folder}: another process{f' (pid {holder})' if holder.isdigit() else ''} is writing "
                             "this study folder; wait until it ends or use another folder") from None
        fh.seek(0)
        fh.truncate()
        fh.write(str(os.getpid()))
        fh.flush()
        held = _LOCKS[key] = [fh, 0]
    held[1] += 1
    released = []

    def release() -> None:
        if released:
            return
        released.append(True)
        entry = _LOCKS.get(key)
        if entry is not None:
            entry[1] -= 1
            if entry[1] <= 0:
                del _LOCKS[key]
                entry[0].close()  # closing the file drops the OS lock

    return release


@contextlib.contextmanager
def updating(path: str | Path):
    """Hold ``path``'s update lock (a ``.lock`` file beside it) while a read-merge-write of ``path`` runs.

    Two producers filing cells into one kept file at once (two ``measure`` commands finishing together) would
    otherwise each read the file, add their own cells and write it back, and the later write would drop the
    earlier one's cells. A second writer waits here for the first to finish.
    """
    lock = Path(str(path) + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a+b") as fh:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            import msvcrt

            fh.seek(0)
            msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
            try:
                yield
            finally:
                fh.seek(0)
                msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
            return
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def _os_lock(fh) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        msvcrt.locking(fh.fileno(), msvcrt.LK_NBLCK, 1)
        return
    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)


def save_manifest(folder: Path, manifest: StudyManifest) -> None:
    manifest.updated = _now()
    write_study_file(Path(folder) / MANIFEST, json.dumps(manifest.to_json(), separators=(",", ":")).encode())


DISK_FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)  # every write failure a rerun can get past


def write_study_file(path: Path, data: bytes) -> None:
    """:func:`write_atomic` for a study folder's files: a full disk is a one-line StudyError, not a crash.

    The write is atomic, so the folder keeps what it had: freeing space and
    running the same command again resumes it.
    """
    try:
        write_atomic(path, data)
    except OSError as exc:
        if exc.errno not in DISK_FULL:
            raise
        raise disk_full(path, len(data), exc.errno) from None


def disk_full(path: Path, size: int, code: int = errno.ENOSPC) -> StudyError:
    """The line of a write that found the disk full: the file, the space it needs and the space free.

    ``code`` EFBIG: the file is over the process's file-size limit (``ulimit -f``), not the disk's space;
    the line names the file all the same (os.write's own error carries no file name).
    """
    if code == errno.EFBIG:
        return StudyError(f"writing {path}: {WRITE_FAILURES[errno.EFBIG]} ({size:,} bytes); raise the limit "
                          "and run the same command again to resume")
    where = Path(path).parent
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        free = shutil.disk_usage(where).free
    except OSError:
        free = 0
    return StudyError(f"disk full writing {path}: it needs {size:,} bytes and {free:,} are free on its disk; "
                      "free some space and run the same command again to resume")


def load_manifest(folder: str | Path) -> StudyManifest:
    """Read a study folder's manifest; :class:`StudyError` when missing or damaged."""
    folder = Path(folder)
    path = folder / MANIFEST
    if not folder.is_dir():
        raise StudyError(f"{folder}: not a study folder ({'a file' if folder.exists() else 'no such folder'})")
    if not path.is_file():
        raise StudyError(f"{folder}: not a study folder (no {MANIFEST})")
    text = read_text_file(path, "study manifest", StudyError, max_bytes=1 << 30)
    try:
        manifest = StudyManifest.from_json(json.loads(text))
        _check_manifest(manifest)
    except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError) as exc:
        raise StudyError(f"{path}: damaged manifest ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
    return manifest


_READ: dict[Path, tuple[tuple, StudyManifest]] = {}


def read_manifest(folder: str | Path) -> StudyManifest:
    """:func:`load_manifest` for readers: the checked manifest is kept until the file changes.

    A report reads a study's manifest hundreds of times (every scan of a
    configuration's rows); reading and checking a main study's manifest takes
    about 0.05 s each. The manifest returned is shared: readers must not change
    it (the runner, which does, calls :func:`load_manifest`).
    """
    folder = Path(folder)
    try:
        st = (folder / MANIFEST).stat()
        stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        return load_manifest(folder)  # says in one line what is wrong
    key = folder.resolve()
    hit = _READ.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    manifest = load_manifest(folder)
    _READ.clear()  # one folder at a time: a study's manifest can hold thousands of chunk records
    _READ[key] = (stamp, manifest)
    return manifest


def _check_manifest(m: StudyManifest) -> None:
    """Values no study writes: each raises ValueError (a damaged manifest)."""
    if not 0 <= m.seed <= MAX_SEED:
        raise ValueError(f"seed {m.seed} is not 0 to 2**64-1")
    if not 1 <= m.chunk_size <= MAX_CHUNK_SIZE:
        raise ValueError(f"chunk size {m.chunk_size}")
    ids = set()
    for c in m.configs:
        if not 1 <= c.players <= MAX_SEATS or len(c.strategies) != c.players:
            raise ValueError(f"configuration {c.id}: {c.players} players but {len(c.strategies)} strategies")
        ids.add(c.id)
    if m.deck is not None:  # a resume would play it: it must be a deck of the folder's game
        if not isinstance(m.deck, dict):
            raise ValueError(f"deck: {type(m.deck).__name__}, not a record")
        from analyses.games import wing_of

        read = wing_of(GameDeal.of_meta(m.meta).game).deck_of_record
        if read is None:
            raise ValueError(f"a deck record, which the game {GameDeal.of_meta(m.meta).game} does not keep")
        read(m.deck)
    for cid, n in m.target_games.items():
        if cid not in ids or not 0 <= n <= MAX_GAMES:
            raise ValueError(f"target of {cid!r}: {n}")
    for cid, rows in m.bot_rows.items():
        if cid not in ids:
            raise ValueError(f"bot rows of an unknown configuration {cid!r}")
    for cid, recs in m.chunks.items():
        if cid not in ids:
            raise ValueError(f"chunks of an unknown configuration {cid!r}")
        if not recs:  # a study drops a configuration's entry when its last chunk goes (Study._replay_damaged)
            raise ValueError(f"chunks of {cid}: an empty list")
        for rec in recs:
            if rec.first < 0 or not 1 <= rec.games <= MAX_GAMES or "agg" not in rec.files:
                raise ValueError(f"chunk of {cid} at game {rec.first}: {rec.games} games, files {sorted(rec.files)}")
            for rel in rec.files.values():  # chunk files live inside the folder, nowhere else
                parts = Path(rel).parts
                if Path(rel).is_absolute() or ".." in parts or not parts or parts[0] != "chunks":
                    raise ValueError(f"chunk file {rel!r} outside the folder's chunks/")


# ============================================================================ chunk files


def write_frame_atomic(frame: pl.DataFrame, path: Path, metadata: dict | None = None) -> tuple[int, str]:
    """Write ``frame`` as parquet atomically (:func:`write_atomic`); returns the file's (size, sha256)."""
    buf = io.BytesIO()
    frame.write_parquet(buf, compression="lz4", statistics=False, metadata=metadata)
    data = buf.getvalue()
    write_study_file(path, data)
    return len(data), hashlib.sha256(data).hexdigest()


CHUNK_META = "dreamscape_chunk"  # parquet key of the agg file: the seed and games it was played for


def file_check(path: Path) -> tuple[int, str]:
    """(size, sha256) of a file as it is on disk."""
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    return size, h.hexdigest()


def chunk_problem(folder: Path, rec: ChunkRecord) -> str | None:
    """What is wrong with a finished chunk's files, in a few words, or None when they are as recorded."""
    for kind, rel in rec.files.items():
        path = folder / rel
        if not path.is_file():
            return f"chunk file missing: {rel}"
        want = rec.checks.get(kind)
        if want is None:  # written before checks existed: the parquet framing at least
            size = path.stat().st_size
            with open(path, "rb") as fh:
                head = fh.read(4)
                fh.seek(max(size - 4, 0))
                tail = fh.read(4)
            if size < 12 or head != b"PAR1" or tail != b"PAR1":
                return f"chunk file damaged: {rel} ({'empty' if size == 0 else 'not a whole parquet file'})"
            continue
        size, digest = file_check(path)
        if size != want[0]:
            what = "empty" if size == 0 else f"{size:,} bytes, {want[0]:,} recorded"
            return f"chunk file damaged: {rel} ({what})"
        if digest != want[1]:
            return f"chunk file damaged: {rel} (its content differs from the recorded sha256)"
    return None


def _chunk_identity(folder: Path, rec: ChunkRecord) -> dict | None:
    """The seed and games an agg file says it was played for (None when unreadable)."""
    try:
        meta = pl.read_parquet_metadata(folder / rec.files["agg"])
        return json.loads(meta[CHUNK_META])
    except Exception:  # noqa: BLE001 - a damaged file simply tells nothing
        return None


def damaged_chunks(folder: str | Path, manifest: StudyManifest | None = None) -> list[tuple[str, ChunkRecord, str]]:
    """Every finished chunk whose files are missing or differ from the manifest: (config id, record, problem).

    Raises
    ------
    StudyError
        The manifest is not this folder's: a chunk was played with another
        seed than the manifest says (a manifest copied from another study).
    """
    folder = Path(folder)
    m = manifest or load_manifest(folder)
    out = []
    for cid, recs in m.chunks.items():
        for rec in recs:
            problem = chunk_problem(folder, rec)
            if problem is not None and "missing" in problem:
                out.append((cid, rec, problem))
                continue
            # The agg file says what it holds; a manifest that says otherwise is not this folder's.
            ident = _chunk_identity(folder, rec) if problem is not None or rec.checks else None
            if ident is not None and ident.get("seed") != m.seed:
                raise StudyError(
                    f"{folder / MANIFEST}: belongs to another study: it says seed {m.seed}, but the chunk files "
                    f"were played with seed {ident.get('seed')}; restore this folder's manifest or use another folder")
            if problem is None and ident is not None and \
                    (ident.get("config"), ident.get("first"), ident.get("games")) != (cid, rec.first, rec.games):
                raise StudyError(
                    f"{folder / MANIFEST}: damaged manifest: it lists games {rec.first}-{rec.first + rec.games - 1} "
                    f"of {cid} for {rec.files['agg']}, which holds games {ident.get('first')}.. of {ident.get('config')}")
            if problem is not None:
                out.append((cid, rec, problem))
    return out


def check_study(folder: str | Path) -> StudyManifest:
    """The manifest of a study folder whose every finished chunk is as recorded; else one-line StudyError.

    Reports and summaries call this before reading any chunk, so a missing,
    truncated, emptied or altered chunk is named instead of read, and no
    analysis silently leaves it out.
    """
    folder = Path(folder)
    m = load_manifest(folder)
    bad = damaged_chunks(folder, m)
    if bad:
        cid, rec, problem = bad[0]
        more = f" (and {len(bad) - 1} more chunk(s))" if len(bad) > 1 else ""
        raise StudyError(f"{folder}: damaged study, {problem}, games {rec.first}-{rec.first + rec.games - 1} of "
                         f"{cid}{more}; run the study command again to replay it")
    return m


# ============================================================================ the study


class Study:
    """A study folder: create it or resume it, then run its missing chunks.

    Parameters
    ----------
    folder : path
        The study folder (created if missing).
    configs : list of RunConfig
        What to simulate. When the folder exists, configurations it does not
        hold yet are added; ``[]`` means all of a resumed study's.
    games : int
        Games per configuration (a resumed study never shrinks its targets).
    seed : int
        The study's seed (game g of every configuration plays stream (seed, g)).
    chunk_size : int
        Games per chunk; a resumed study keeps the chunk size it started with.
    aggregate_only : bool
        Keep per-chunk aggregates only, no per-game rows.
    command : str
        The command line, recorded in the manifest.
    meta : dict, optional
        Free-form facts for reports (name, kind, precision, ...), merged into
        the manifest's ``meta``.
    restart_changed : bool
        A configuration whose recorded bot rows differ from what the code plays
        now is played again from its first game; without it, :meth:`run` refuses
        it in one StudyError (:mod:`analyses.study.botrows`).
    """

    def __init__(
        self,
        folder: str | Path,
        configs: Sequence[RunConfig],
        games: int,
        seed: int = 0,
        chunk_size: int = 100_000,
        aggregate_only: bool = False,
        command: str = "",
        meta: dict | None = None,
        plan: str | None = None,
        game: GameDeal | None = None,
        restart_changed: bool = False,
    ) -> None:
        if not 0 <= games <= MAX_GAMES:
            raise StudyError(f"games must be 0 to {MAX_GAMES:,}")
        if not 1 <= chunk_size <= MAX_CHUNK_SIZE:
            raise StudyError(f"chunk size must be 1 to {MAX_CHUNK_SIZE:,}")
        if not 0 <= seed <= MAX_SEED:
            raise StudyError(f"seed must be 0 to 2**64-1, got {seed}")
        self.folder = Path(folder)
        # a configuration whose recorded bot rows differ from the code's: its games are played again, not refused
        self.restart_changed = restart_changed
        self._rows: dict[str, dict[str, str]] = {}  # the bot rows the code plays, by config id (analyses.study.botrows)
        if self.folder.exists() and not self.folder.is_dir():
            raise StudyError(f"{self.folder}: exists and is not a folder")
        deck_json = game.deck_record if game is not None else None
        # One writer per folder: held until close() (or until this object is collected).
        self._release = lock_folder(self.folder)
        self._finalizer = weakref.finalize(self, self._release)
        if game is not None and game.named != GameDeal.default().named:  # a manifest that names no game holds the
            meta = {**(meta or {}), "game": game.game, "cards": game.cards}  # default one (every folder from before others)
        try:
            self._open(configs, games, seed, chunk_size, aggregate_only, command, deck_json, meta, plan)
        except BaseException:
            self.close()
            raise

    def _open(self, configs, games, seed, chunk_size, aggregate_only, command, deck_json, meta, plan) -> None:
        if (self.folder / MANIFEST).exists():
            m = load_manifest(self.folder)
            if m.identity.get("seed", m.seed) != m.seed:
                raise StudyError(f"{self.folder / MANIFEST}: damaged manifest (identity seed "
                                 f"{m.identity.get('seed')} but seed {m.seed})")
            if m.seed != seed:
                raise StudyError(f"{self.folder}: this study was started with seed {m.seed}, not {seed}; use another folder")
            if m.aggregate_only != aggregate_only:
                raise StudyError(f"{self.folder}: this study was started {'with' if m.aggregate_only else 'without'} --aggregate-only")
            held, asked = GameDeal.of_meta(m.meta), GameDeal.of_meta(meta or {})
            if meta is not None and held != asked:
                raise StudyError(f"{self.folder}: this study was started with game {held.game}"
                                 f"{' and other cards' if held.game == asked.game else ''}; use another folder")
            if deck_json is not None and deck_key(m.deck) != deck_key(deck_json):
                raise StudyError(f"{self.folder}: this study was started with "
                                 f"{'another deck' if m.deck else 'the default deck'}; use another folder")
            known = {c.id for c in m.configs}
            for c in configs:
                if c.id not in known:
                    m.configs.append(c)
                    known.add(c.id)
                m.target_games[c.id] = max(m.target_games.get(c.id, 0), games)
            m.meta.update(meta or {})
            self.manifest = m
            self._replay_damaged()
        else:
            self.manifest = StudyManifest(
                seed=seed,
                chunk_size=chunk_size,
                aggregate_only=aggregate_only,
                configs=list(dict((c.id, c) for c in configs).values()),
                target_games={c.id: games for c in configs},
                command=command,
                created=_now(),
                versions=library_versions(),
                deck=deck_json,
                meta=dict(meta or {}),
                identity={"seed": seed, "plan": plan},
            )
        self.save()
        # The configurations this run plays: the ones asked for, or all of a resumed study's.
        asked = {c.id for c in configs}
        self.configs = [c for c in self.manifest.configs if c.id in asked] if asked else list(self.manifest.configs)
        self._last_save = time.monotonic()
        self._stats: dict[str, dict[int, tuple[int, np.ndarray, np.ndarray]]] = {}

    def close(self) -> None:
        """Release the folder's writer lock (the object can still be read)."""
        self._finalizer()

    def __enter__(self) -> "Study":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _replay_damaged(self) -> None:
        """Drop the records of chunks whose files are missing or altered, naming each on stderr: run() plays them again."""
        for cid, rec, problem in damaged_chunks(self.folder, self.manifest):
            print(f"dreamscape: {self.folder}: {problem}; playing games {rec.first}-{rec.first + rec.games - 1} "
                  f"of {cid} again", file=sys.stderr, flush=True)
            self.manifest.chunks[cid].remove(rec)
            if not self.manifest.chunks[cid]:
                del self.manifest.chunks[cid]

    # --- bookkeeping ------------------------------------------------------------------
    @property
    def game(self) -> GameDeal:
        """The game this study plays, with its cards or deck (a folder that names none plays the default game)."""
        return GameDeal.of_meta(self.manifest.meta, self.manifest.deck)

    def save(self) -> None:
        """Write the manifest now (atomically)."""
        save_manifest(self.folder, self.manifest)
        self._last_save = time.monotonic()

    def _maybe_save(self) -> None:
        if time.monotonic() - self._last_save >= SAVE_EVERY:
            self.save()

    def target(self, config: RunConfig) -> int:
        return self.manifest.target_games.get(config.id, 0)

    def done(self, config: RunConfig) -> int:
        return self.manifest.done_games(config.id)

    def pending_chunks(self) -> list[tuple[RunConfig, int, int]]:
        """(config, first game, games) of every chunk still to play, in a fixed order.

        Chunks lie on the grid of multiples of the chunk size; the games of
        ``[0, target)`` that no finished chunk covers are cut at the grid
        lines (a target that grew after a short last chunk continues it).
        """
        m, out = self.manifest, []
        size = m.chunk_size
        for c in self.configs:
            target = m.target_games.get(c.id, 0)
            pos = 0
            for rec in sorted(m.chunks.get(c.id, []), key=lambda r: r.first) + [None]:
                end = target if rec is None else min(rec.first, target)
                while pos < end:
                    stop = min(end, (pos // size + 1) * size)
                    out.append((c, pos, stop - pos))
                    pos = stop
                if rec is not None:
                    pos = max(pos, rec.first + rec.games)
        return out

    def set_target(self, config: RunConfig, games: int) -> None:
        """Ask for ``games`` games of ``config`` in all (adaptive precision; never shrinks)."""
        self.manifest.target_games[config.id] = max(self.target(config), int(games))

    def extend(self, config: RunConfig, games: int) -> None:
        """Ask for ``games`` more games of ``config``."""
        self.set_target(config, self.target(config) + games)
        self.save()

    def record(self, config: RunConfig, first: int, result, seconds: float, save: bool = True) -> None:
        """Write one finished chunk's files, then list it in the manifest (in that order)."""
        n = gamechunks.result_games(result)
        sub = self.folder / "chunks" / config.id
        sub.mkdir(parents=True, exist_ok=True)
        files: dict[str, str] = {}
        checks: dict[str, tuple[int, str]] = {}
        frames = gamechunks.chunk_frames(result, config, self.manifest.aggregate_only, gamechunks.load_game(self.game.game))
        agg = frames[0][1]
        # The agg file says which seed and games it holds: a manifest copied from another study is told by it.
        ident = json.dumps({"seed": self.manifest.seed, "config": config.id, "first": first, "games": n})
        for kind, frame in frames:
            metadata = {CHUNK_META: ident} if kind == "agg" else None
            files[kind] = f"chunks/{config.id}/{kind}-{first:012d}.parquet"
            checks[kind] = write_frame_atomic(frame, sub / f"{kind}-{first:012d}.parquet", metadata)
        recs = self.manifest.chunks.setdefault(config.id, [])
        recs[:] = [r for r in recs if r.first != first]
        recs.append(ChunkRecord(first, n, files, round(seconds, 4), checks=checks))
        recs.sort(key=lambda r: r.first)
        self._stats.setdefault(config.id, {})[first] = _seat_stats_of(agg)
        if save:
            self.save()

    def seat_stats(self, config: RunConfig) -> tuple[int, np.ndarray, np.ndarray]:
        """(games, win credit per seat, games per R10.5 band per seat) over the finished chunks.

        Summed in game order, so the numbers (and any decision taken on them,
        :mod:`analyses.stats.precision`) do not depend on the order chunks finished in.
        """
        cache = self._stats.setdefault(config.id, {})
        games, wins, bands = 0, np.zeros(config.players, np.int64), None
        for rec in sorted(self.manifest.chunks.get(config.id, []), key=lambda r: r.first):
            if rec.first not in cache:
                cache[rec.first] = _seat_stats_of(_read_agg(self.folder, rec))
            n, w, b = cache[rec.first]
            games += n
            wins = wins + w
            bands = b if bands is None else bands + b
        bands = np.zeros((config.players, 0)) if bands is None else bands
        return games, wins / SUM_UNITS, bands

    def run(self, chunk_fn: ChunkFn | None = None, progress=True, backend=None) -> int:
        """Play every missing chunk through ``backend`` (default: this process); returns games played.

        Parameters
        ----------
        chunk_fn : callable, optional
            ``fn(ChunkTask) -> result``, module-level for remote backends
            (default :func:`analyses.study.chunks.play_chunk`).
        progress : bool or progress bar
            Show a progress bar (games/s and ETA) on stderr, or update this one.
        backend : object with ``imap_unordered(fn, tasks)``, optional
            :class:`analyses.study.backends.LocalBackend` when omitted.

        Every task carries the folder's :attr:`game` (with its cards or deck, as data). Before any game, the
        bot rows of the configurations to play are checked against the manifest's record and recorded
        (:func:`analyses.study.botrows.check_before_play`: a changed row is a one-line StudyError).
        """
        pending = self.pending_chunks()
        if pending or self.restart_changed:
            check_before_play(self.folder, self.manifest, self.configs, {c.id for c, _, _ in pending},
                              self.restart_changed, self._rows)
            pending = self.pending_chunks()  # a configuration played again from its first game
            for cid in set(self._stats) - set(self.manifest.chunks):
                del self._stats[cid]
        if not pending:
            self.save()
            return 0
        game = self.game
        fn = chunk_fn or play_chunk
        count = gamechunks.result_games
        tasks = [ChunkTask(c, self.manifest.seed, first, games, game) for c, first, games in pending]
        own_backend = backend is None
        backend = backend or LocalBackend()
        own_bar = isinstance(progress, bool)
        bar = progress_bar(sum(t.games for t in tasks), enabled=progress) if own_bar else progress
        if not own_bar:
            bar.total = (bar.total or 0) + sum(t.games for t in tasks)
            bar.refresh()
        played = 0
        try:
            for i, result, seconds in backend.imap_unordered(fn, tasks):
                task = tasks[i]
                n = count(result)
                if n != task.games:
                    raise StudyError(f"chunk {task.config.id} games {task.first}..: got {n} games, expected {task.games}")
                self.record(task.config, task.first, result, seconds, save=False)
                self._maybe_save()
                played += task.games
                bar.update(task.games)
        finally:
            self.save()
            if own_bar:
                bar.close()
            if own_backend:
                backend.close()
        return played


def units(column: str) -> pl.Expr:
    """A per-chunk float sum as the exact whole number of 1/:data:`SUM_UNITS` it stands for.

    Chunk sums are added in these integers and divided once, so a study's
    numbers do not depend on its chunk size (float sums would, in the last
    digit). The float sum of one chunk is far closer to its exact value than
    half a unit, so rounding recovers it.
    """
    return (pl.col(column) * SUM_UNITS).round().cast(pl.Int64)


def _seat_stats_of(agg: pl.DataFrame) -> tuple[int, np.ndarray, np.ndarray]:
    agg = agg.sort("seat")
    n = int(agg["n"][0]) if agg.height else 0
    wins = agg.select(units("sum_win"))["sum_win"].to_numpy()  # in units: summed exactly by seat_stats
    band_columns = sorted((c for c in agg.columns if c.startswith("band_")), key=lambda c: int(c[5:]))
    bands = np.stack([agg[c].to_numpy() for c in band_columns], axis=1).astype(np.float64) if band_columns \
        else np.zeros((agg.height, 0))  # score bands: games whose declared agg table has them (solo, R10.5)
    return n, wins, bands


def _read_agg(folder: Path, rec: ChunkRecord) -> pl.DataFrame:
    path = folder / rec.files["agg"]
    if not path.is_file():
        raise StudyError(f"{folder}: damaged study, chunk file missing: {path}")
    return pl.read_parquet(path)


# ============================================================================ reading


def _files(folder: Path, m: StudyManifest, kind: str, configs: Iterable[str] | None = None) -> list[Path]:
    wanted = None if configs is None else set(configs)
    files = [folder / rec.files[kind] for cid, recs in m.chunks.items() if wanted is None or cid in wanted
             for rec in recs if kind in rec.files]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise StudyError(f"{folder}: damaged study, chunk file missing: {missing[0]}")
    return files


def _nonempty(folder: Path, m: StudyManifest) -> None:
    if not any(m.chunks.values()):
        raise StudyError(f"{folder}: the study has no finished chunk yet")


def scan_games(folder: str | Path, configs: Iterable[str] | None = None) -> pl.LazyFrame:
    """Per-game rows of a study as a lazy frame (one row per game and seat).

    ``configs``: only these configuration ids (only their files are read,
    which keeps memory to one configuration's rows in the analyses).
    """
    folder = Path(folder)
    m = read_manifest(folder)
    if m.aggregate_only:
        raise StudyError(f"{folder}: an --aggregate-only study keeps no per-game rows")
    _nonempty(folder, m)
    files = _files(folder, m, "games", configs)
    if not files:
        raise StudyError(f"{folder}: no finished chunk of configuration(s) {', '.join(sorted(configs or []))}")
    lf = pl.scan_parquet([str(f) for f in files])
    return lf.with_columns(pl.col("config").cast(pl.Utf8), pl.col("strategy").cast(pl.Utf8))


def has_games(folder: str | Path) -> bool:
    """Whether the study keeps per-game rows (not --aggregate-only)."""
    return not read_manifest(folder).aggregate_only


def scan_aggs(folder: str | Path) -> pl.LazyFrame:
    """All per-chunk aggregates (the ``agg`` files, :mod:`analyses.study.gamechunks`) of a study as a lazy frame."""
    folder = Path(folder)
    m = read_manifest(folder)
    _nonempty(folder, m)
    files = _files(folder, m, "agg")
    return pl.scan_parquet([str(f) for f in files]).with_columns(
        pl.col("config").cast(pl.Utf8), pl.col("strategy").cast(pl.Utf8))


def scan_pairs(folder: str | Path) -> pl.LazyFrame:
    """All per-card sums (Project Dreamscape's ``pairs`` frames) of a study; StudyError when it has none."""
    folder = Path(folder)
    m = read_manifest(folder)
    _nonempty(folder, m)
    files = _files(folder, m, "pairs")
    if not files:
        raise StudyError(f"{folder}: this study holds no held-card data (written before the engine reported it)")
    return pl.scan_parquet([str(f) for f in files])


def chunk_files(folder: str | Path) -> Iterable[Path]:
    folder = Path(folder)
    m = read_manifest(folder)
    for recs in m.chunks.values():
        for rec in recs:
            for path in rec.files.values():
                yield folder / path


def configs_frame(folder: str | Path) -> pl.DataFrame:
    """One row per configuration of a study: config, variant, players, strategies (``a/b/c`` or one name)."""
    m = read_manifest(folder)
    return pl.DataFrame(
        {"config": [c.id for c in m.configs], "variant": [c.variant for c in m.configs],
         "players": [c.players for c in m.configs], "strategies": [c.label for c in m.configs]},
        schema={"config": pl.Utf8, "variant": pl.Utf8, "players": pl.Int64, "strategies": pl.Utf8},
    )


_TOTALS: dict[Path, tuple[tuple, list[Path], pl.DataFrame]] = {}


def seat_totals(folder: str | Path) -> pl.DataFrame:
    """Every agg column summed over chunks per (config, seat, strategy), joined with the configurations.

    Float columns are added exactly (:func:`units`): the totals do not depend on the chunk size.

    Cached per folder until its manifest changes (a report reads it many times).
    """
    folder = Path(folder)
    path = folder / MANIFEST
    try:
        st = path.stat()
        stamp = (st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None
    key = folder.resolve()
    hit = _TOTALS.get(key)
    if stamp is not None and hit is not None and hit[0] == stamp:
        missing = [f for f in hit[1] if not f.is_file()]
        if missing:
            raise StudyError(f"{folder}: damaged study, chunk file missing: {missing[0]}")
        return hit[2]
    aggs = scan_aggs(folder)
    sums = [(units(c).sum() / SUM_UNITS).alias(c) if dtype.is_float() else pl.col(c).sum()
            for c, dtype in aggs.collect_schema().items() if c not in ("config", "seat", "strategy")]
    out = aggs.group_by(["config", "seat", "strategy"]).agg(sums).collect()
    out = out.join(configs_frame(folder), on="config").sort(["players", "variant", "config", "seat"])
    if stamp is not None:
        _TOTALS.clear()
        _TOTALS[key] = (stamp, list(chunk_files(folder)), out)
    return out


def folder_game(folder: str | Path) -> str:
    """The game a study folder plays (the default game for every folder written before there were others)."""
    return GameDeal.of_meta(read_manifest(folder).meta).game


def finished_configs(folder: str | Path) -> list[RunConfig]:
    """The configurations with at least one finished chunk, in manifest order."""
    m = read_manifest(folder)
    return [c for c in m.configs if m.chunks.get(c.id)]


# ============================================================================ what a folder holds


def study_kinds(folder: str | Path) -> set[str]:
    """Which analyses a study folder has data for.

    * ``seats`` / ``types``: any multi-player configuration;
    * ``solo``: any one-player configuration (R10.5 bands);
    * ``compare``: the same players and strategies played in two or more variants;
    * ``tournament``: two or more seatings of the same players and variant, at
      least one of them mixing strategies;
    * ``skill``: a tournament, or any configuration mixing strategies.

    Exploit cells (one seat searching over the bot of the others,
    :func:`analyses.study.model.exploit_cell`) count for neither of the last two.
    A game's own summary adds its own kinds (Project Dreamscape's ``sweep``:
    :func:`analyses.games.dreamscape.summary.study_kinds`).
    """
    configs = finished_configs(folder)
    kinds: set[str] = set()
    bot_tables = [c for c in configs if exploit_cell(c.strategies) is None]  # exploit cells measure the bot
    if any(c.players >= 2 for c in configs):
        kinds |= {"seats", "types"}
    if any(c.players == 1 for c in configs):
        kinds.add("solo")
    by_table: dict[tuple, set[str]] = {}
    by_game: dict[tuple, list[RunConfig]] = {}
    for c in configs:
        by_table.setdefault((c.players, c.strategies), set()).add(c.variant)
        by_game.setdefault((c.players, c.variant), []).append(c)
    if any(len(vs) >= 2 for vs in by_table.values()):
        kinds.add("compare")
    for (players, _), group in by_game.items():
        group = [c for c in group if c in bot_tables]
        if players >= 2 and len(group) >= 2 and any(len(set(c.strategies)) > 1 for c in group):
            kinds.add("tournament")
    if "tournament" in kinds or any(c.players >= 2 and len(set(c.strategies)) > 1 for c in bot_tables):
        kinds.add("skill")
    return kinds


def to_output(frame: pl.DataFrame, pandas: bool):
    """Return a polars frame, or pandas when asked."""
    return frame.to_pandas() if pandas else frame


# ============================================================================ one game and one kind of run per folder

STUDY_KIND = "file"  # the kind of a study run from a study file (`dreamscape study`), and of every folder older than kinds
TABLE_KINDS = (STUDY_KIND,)  # the folders a tool may keep its table in (exploit, restrict: the study's report pages)


def folder_kind(meta: dict) -> str:
    """The kind of run a manifest's ``meta`` records (a folder written before kinds were recorded: a study)."""
    return meta.get("kind") or STUDY_KIND


def claim_folder(folder: str | Path, game: str, kinds: str | Iterable[str]) -> Callable[[], None]:
    """Take a folder for a run of ``game`` whose kind is one of ``kinds``; returns the lock's release.

    A folder that already holds a study (its manifest) belongs to the game and the kind of run that
    started it: a run of another game or kind would mix its numbers into that study's report, or replace
    its tables. Such a run is refused in one :class:`StudyError`, before anything in the folder is
    touched; so is a folder another process is writing (:func:`lock_folder`). A folder without a
    manifest (new, or holding only tools' tables) is free. The lock is taken here and held until the
    returned function is called (re-entrant: a :class:`Study` of the same process shares it).
    """
    folder = Path(folder)
    wanted = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    if not _lock_free(folder):
        lock_folder(folder)  # refused, naming the holder; nothing written
    if (folder / MANIFEST).is_file():
        meta = read_manifest(folder).meta
        held_game, held_kind = GameDeal.of_meta(meta).game, folder_kind(meta)
        if held_game != game:
            raise StudyError(f"{folder}: a study folder of {held_game}, not {game}; use another folder")
        if held_kind not in wanted:
            raise StudyError(f"{folder}: a study folder of a {held_kind} run, not {' or '.join(wanted)}; "
                             "use another folder")
    return lock_folder(folder)


def _lock_free(folder: Path) -> bool:
    """Whether this process could take the folder's lock now, found without writing anything into the folder."""
    path = folder / LOCK
    if not path.is_file() or path.parent.resolve() in _LOCKS:
        return True
    with open(path, "a+") as fh:  # closing the file drops the lock just taken
        try:
            _os_lock(fh)
        except OSError:
            return False
    return True
