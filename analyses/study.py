"""Resumable batch studies: configurations x games, cut into chunks, saved as parquet.

A study folder holds::

    manifest.json                     what was asked, seed, versions, chunk status, timings
    chunks/<config-id>/games-<first>.parquet    per-game rows of one chunk (tidy: one row per game and seat)
    chunks/<config-id>/agg-<first>.parquet      or per-chunk aggregates (--aggregate-only)

A chunk is the game range ``[first, first + size)`` of one configuration; game
``g`` always plays from the random stream ``(seed, g)``, so results do not
depend on chunk size, thread count or backend, and re-running the same
command resumes: finished chunks are kept, nothing is computed twice. Every
file is written to a temporary name and renamed into place, and the manifest
is rewritten the same way after each chunk, so an interrupted run (Ctrl-C, a
killed process) leaves a consistent folder.
"""
from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import numpy as np
import polars as pl

from simcore.cards import CODES, N_TYPES
from simcore.variants import Variant, parse_variant

MANIFEST = "manifest.json"
FORMAT_VERSION = 1


class StudyError(ValueError):
    """A study folder or request that cannot be used; the message says why."""


@dataclass(frozen=True)
class RunConfig:
    """One configuration of a study: variant x player count x strategy per seat."""

    variant: str
    players: int
    strategies: tuple[str, ...]

    @property
    def id(self) -> str:
        bots = "-".join(self.strategies) if len(set(self.strategies)) > 1 else self.strategies[0]
        return f"{self.variant}__{self.players}p__{bots}".replace(":", "-").replace("+", "_")

    def parsed_variant(self) -> Variant:
        return parse_variant(self.variant)

    def to_json(self) -> dict:
        return {"id": self.id, "variant": self.variant, "players": self.players, "strategies": list(self.strategies)}

    @staticmethod
    def from_json(data: dict) -> "RunConfig":
        return RunConfig(data["variant"], int(data["players"]), tuple(data["strategies"]))


@dataclass
class ChunkRecord:
    first: int
    games: int
    file: str
    seconds: float
    status: str = "done"


@dataclass
class StudyManifest:
    seed: int
    chunk_size: int
    aggregate_only: bool
    configs: list[RunConfig]
    target_games: dict[str, int]  # config id -> games asked for (grows with --precision)
    chunks: dict[str, list[ChunkRecord]] = field(default_factory=dict)
    command: str = ""
    created: str = ""
    updated: str = ""
    versions: dict[str, str] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    def done_games(self, config_id: str) -> int:
        return sum(c.games for c in self.chunks.get(config_id, []))

    def to_json(self) -> dict:
        return {
            "format_version": self.format_version,
            "command": self.command,
            "created": self.created,
            "updated": self.updated,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "aggregate_only": self.aggregate_only,
            "versions": self.versions,
            "configs": [c.to_json() for c in self.configs],
            "target_games": self.target_games,
            "chunks": {cid: [asdict(c) for c in recs] for cid, recs in self.chunks.items()},
        }

    @staticmethod
    def from_json(data: dict) -> "StudyManifest":
        return StudyManifest(
            seed=int(data["seed"]),
            chunk_size=int(data["chunk_size"]),
            aggregate_only=bool(data["aggregate_only"]),
            configs=[RunConfig.from_json(c) for c in data["configs"]],
            target_games={k: int(v) for k, v in data["target_games"].items()},
            chunks={cid: [ChunkRecord(**c) for c in recs] for cid, recs in data.get("chunks", {}).items()},
            command=data.get("command", ""),
            created=data.get("created", ""),
            updated=data.get("updated", ""),
            versions=data.get("versions", {}),
            format_version=int(data.get("format_version", FORMAT_VERSION)),
        )


def library_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for dist in ("dreamscape-lab", "numba", "numpy", "polars", "pandas"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def save_manifest(folder: Path, manifest: StudyManifest) -> None:
    manifest.updated = _now()
    write_atomic(folder / MANIFEST, json.dumps(manifest.to_json(), indent=1).encode())


def load_manifest(folder: str | Path) -> StudyManifest:
    folder = Path(folder)
    path = folder / MANIFEST
    if not path.is_file():
        raise StudyError(f"{folder}: not a study folder (no {MANIFEST})")
    try:
        return StudyManifest.from_json(json.loads(path.read_text("utf-8")))
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise StudyError(f"{path}: damaged manifest ({type(exc).__name__}: {exc})") from None


# ============================================================================ per-game rows


def games_frame(result, config: RunConfig) -> pl.DataFrame:
    """Tidy per-game rows of a chunk: one row per game and seat.

    Columns: config, game, seat, strategy, score, z, turns, win, length,
    aborted, performed_XX and chain_XX for every dream type code XX.
    """
    n, p = result.score.shape
    games = np.repeat(np.arange(result.first_game, result.first_game + n, dtype=np.int64), p)
    columns = {
        "config": pl.Series([config.id] * (n * p), dtype=pl.Categorical),
        "game": games,
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "strategy": pl.Series([config.strategies[s] for _ in range(n) for s in range(p)], dtype=pl.Categorical),
        "score": result.score.reshape(-1).astype(np.int16),
        "z": result.z.reshape(-1).astype(np.int16),
        "turns": result.turns.reshape(-1).astype(np.int16),
        "win": result.win.reshape(-1),
        "length": np.repeat(result.length, p).astype(np.int16),
        "aborted": np.repeat(result.aborted, p),
    }
    perf = result.performed.reshape(n * p, N_TYPES)
    chain = result.chain_by_type.reshape(n * p, N_TYPES)
    for t, code in enumerate(CODES):
        columns[f"performed_{code}"] = perf[:, t].astype(np.int16)
        columns[f"chain_{code}"] = chain[:, t].astype(np.int16)
    return pl.DataFrame(columns)


def aggregate_frame(games: pl.DataFrame) -> pl.DataFrame:
    """Per-chunk sums per seat, enough for rates, means and their intervals."""
    sums = [pl.len().alias("n")]
    for col in ("win", "score", "z", "turns", "length"):
        sums += [pl.col(col).cast(pl.Float64).sum().alias(f"sum_{col}"), (pl.col(col).cast(pl.Float64) ** 2).sum().alias(f"sum2_{col}")]
    sums.append(pl.col("aborted").sum().alias("aborted"))
    for code in CODES:
        sums += [pl.col(f"performed_{code}").cast(pl.Int64).sum().alias(f"sum_performed_{code}"),
                 pl.col(f"chain_{code}").cast(pl.Int64).sum().alias(f"sum_chain_{code}")]
    return games.group_by(["config", "seat", "strategy"]).agg(sums).sort("seat")


# ============================================================================ running


ChunkFn = Callable[[RunConfig, int, int, int], object]  # (config, seed, first, games) -> SimResult


def fast_chunk(config: RunConfig, seed: int, first: int, games: int, deck_spec=None):
    """Play one chunk on the fast engine (the default chunk function)."""
    from simcore.fast import SimConfig, iter_chunks

    variant = config.parsed_variant()
    sim = SimConfig(players=config.players, options=variant.options, deck=variant.deck(deck_spec))
    (result,) = list(iter_chunks(sim, games, seed, list(config.strategies), chunk_size=games, first_game=first))
    return result


class Study:
    """A study folder: create it or resume it, then run its missing chunks.

    Parameters
    ----------
    folder : path
        The study folder (created if missing).
    configs : list of RunConfig
        What to simulate. When the folder exists, the configurations must be
        the same as the ones it was started with (a resume), or new ones are added.
    games : int
        Games per configuration.
    seed : int
        The study's seed (game g of every configuration plays stream (seed, g)).
    chunk_size : int
        Games per chunk; a resumed study keeps the chunk size it started with.
    aggregate_only : bool
        Keep per-chunk aggregates instead of per-game rows.
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
    ) -> None:
        if games < 0:
            raise StudyError("games must be >= 0")
        if chunk_size < 1:
            raise StudyError("chunk size must be >= 1")
        self.folder = Path(folder)
        if (self.folder / MANIFEST).exists():
            m = load_manifest(self.folder)
            if m.seed != seed:
                raise StudyError(f"{self.folder}: this study was started with seed {m.seed}, not {seed}; use another folder")
            if m.aggregate_only != aggregate_only:
                raise StudyError(f"{self.folder}: this study was started {'with' if m.aggregate_only else 'without'} --aggregate-only")
            known = {c.id for c in m.configs}
            for c in configs:
                if c.id not in known:
                    m.configs.append(c)
                m.target_games[c.id] = max(m.target_games.get(c.id, 0), games)
            self.manifest = m
        else:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.manifest = StudyManifest(
                seed=seed,
                chunk_size=chunk_size,
                aggregate_only=aggregate_only,
                configs=list(configs),
                target_games={c.id: games for c in configs},
                command=command,
                created=_now(),
                versions=library_versions(),
            )
            save_manifest(self.folder, self.manifest)
        # The configurations this run plays: the ones asked for, or all of a resumed study's.
        asked = {c.id for c in configs}
        self.configs = [c for c in self.manifest.configs if c.id in asked] if asked else list(self.manifest.configs)

    # --- bookkeeping ------------------------------------------------------------------
    def pending_chunks(self) -> list[tuple[RunConfig, int, int]]:
        """(config, first game, games) of every chunk still to play, in a fixed order."""
        m, out = self.manifest, []
        for c in self.configs:
            done = {rec.first for rec in m.chunks.get(c.id, [])}
            target = m.target_games.get(c.id, 0)
            for first in range(0, target, m.chunk_size):
                if first not in done:
                    out.append((c, first, min(m.chunk_size, target - first)))
        return out

    def extend(self, config: RunConfig, games: int) -> None:
        """Ask for ``games`` more games of ``config`` (adaptive precision)."""
        self.manifest.target_games[config.id] = self.manifest.target_games.get(config.id, 0) + games
        save_manifest(self.folder, self.manifest)

    def record(self, config: RunConfig, first: int, result, seconds: float) -> None:
        """Write one finished chunk, then mark it done in the manifest (in that order)."""
        frame = games_frame(result, config)
        kind = "agg" if self.manifest.aggregate_only else "games"
        if self.manifest.aggregate_only:
            frame = aggregate_frame(frame)
        sub = self.folder / "chunks" / config.id
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / f"{kind}-{first:012d}.parquet"
        tmp = path.with_name(path.name + ".tmp")
        frame.write_parquet(tmp)
        os.replace(tmp, path)
        recs = self.manifest.chunks.setdefault(config.id, [])
        recs[:] = [r for r in recs if r.first != first]
        recs.append(ChunkRecord(first, result.n_games, str(path.relative_to(self.folder)), round(seconds, 4)))
        recs.sort(key=lambda r: r.first)
        save_manifest(self.folder, self.manifest)

    def run(self, chunk_fn: ChunkFn | None = None, progress: bool = True, deck_spec=None) -> None:
        """Play every missing chunk, saving each as soon as it is done."""
        pending = self.pending_chunks()
        if not pending:
            return
        run_chunk = chunk_fn or (lambda c, s, f, g: fast_chunk(c, s, f, g, deck_spec))
        bar = _progress_bar(sum(g for _, _, g in pending), progress)
        try:
            for config, first, games in pending:
                bar.set_postfix_str(f"{config.id} games {first}..{first + games - 1}", refresh=False)
                t0 = time.perf_counter()
                result = run_chunk(config, self.manifest.seed, first, games)
                self.record(config, first, result, time.perf_counter() - t0)
                bar.update(games)
        finally:
            bar.close()


def _progress_bar(total: int, enabled: bool):
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", unit_scale=True, disable=not enabled, dynamic_ncols=True, smoothing=0.1)


# ============================================================================ reading


def scan_games(folder: str | Path) -> pl.LazyFrame:
    """All per-game rows of a study as a lazy frame (polars scans the parquet files)."""
    folder = Path(folder)
    m = load_manifest(folder)
    if m.aggregate_only:
        raise StudyError(f"{folder}: an --aggregate-only study keeps no per-game rows")
    files = [folder / rec.file for recs in m.chunks.values() for rec in recs]
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise StudyError(f"{folder}: damaged study, chunk file missing: {missing[0]}")
    if not files:
        raise StudyError(f"{folder}: the study has no finished chunk yet")
    return pl.scan_parquet([str(f) for f in files])


def chunk_files(folder: str | Path) -> Iterable[Path]:
    folder = Path(folder)
    m = load_manifest(folder)
    for recs in m.chunks.values():
        for rec in recs:
            yield folder / rec.file
