"""The study model: what a study asks for and what its folder records.

Plain data only (no files, no engine), so every other study module can build
on it: :mod:`analyses.study.chunks` plays a :class:`ChunkTask`,
:mod:`analyses.study.backends` ships tasks to where they are played,
:mod:`analyses.study.folder` writes the folder its :class:`StudyManifest` describes.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from analyses.games import DEFAULT_GAME, recorded_game

FORMAT_VERSION = 2  # study folder format: every chunk lists its files ({"agg": ..., "games": ..., "pairs": ...})
# Seat columns of the per-seat sums (sum_winx_0..3): the most seats of any game the lab plays (Project Dreamscape's
# R2.1: 4). A folder's column set must not depend on the game, so this is the lab's constant, not a game's.
MAX_SEATS = 4
# Games per chunk: a chunk's per-game arrays are held in memory at once, about 1 kB per game of
# 4 players (held cards, performed and chain counts per type), so a million games take about 1 GB.
MAX_CHUNK_SIZE = 1_000_000


class StudyError(ValueError):
    """A study folder or request that cannot be used; the message says why."""


_UNSAFE = re.compile(r"[^A-Za-z0-9_.=-]")
LABEL_SLASH = "\u2215"  # a "/" inside a strategy's name, in RunConfig.label (where "/" separates seats)


def exploit_cell(strategies) -> tuple[str, str, int] | None:
    """``(bot, search, seat index)`` when one seat plays ``search:BOT[@K]`` and every other BOT, else None.

    Such a configuration is an exploit cell (:mod:`analyses.tools.exploit`).
    Tournaments and skill against luck leave it out: it measures the bot, not
    the game.
    """
    searching = [i for i, s in enumerate(strategies) if s.startswith("search:")]
    if len(strategies) < 2 or len(searching) != 1:
        return None
    seat = searching[0]
    search = strategies[seat]
    inner = search[len("search:"):]
    bot = inner.rsplit("@", 1)[0] if "@" in inner else inner
    others = {s for i, s in enumerate(strategies) if i != seat}
    return (bot, search, seat) if others == {bot} else None


@dataclass(frozen=True)
class RunConfig:
    """One configuration of a study: variant x player count x strategy per seat.

    ``strategies`` holds what ``--strategy`` was given (a built-in name,
    ``linear:FILE.toml``, ``path/to/bot.py:function``), so any process can
    load it again (:func:`analyses.study.chunks.play_chunk`).
    """

    variant: str
    players: int
    strategies: tuple[str, ...]

    @property
    def id(self) -> str:
        """A folder-safe identifier, e.g. ``sleep-token_FF-ID__3p__greedy``."""
        bots = "-".join(self.strategies) if len(set(self.strategies)) > 1 else self.strategies[0]
        text = f"{self.variant}__{self.players}p__{bots}".replace(":", "-").replace("+", "_")
        if _UNSAFE.search(text) or len(text) > 120:  # strategy paths: keep it short and unique
            digest = hashlib.sha1(repr((self.variant, self.players, self.strategies)).encode()).hexdigest()[:10]
            text = _UNSAFE.sub("-", text)[:80] + "-" + digest
        return text

    @property
    def label(self) -> str:
        """The strategies as one text, ``greedy`` or ``greedy/greedy/random``.

        The tables of a study (their ``strategies`` column) split this text on
        ``/`` to tell one bot from several, so a ``/`` inside a strategy's own
        name (a strategy file given by its path, ``bots/mine.py:f``) is written
        as the look-alike ``∕`` (DIVISION SLASH): ``bots∕mine.py:f``.
        """
        names = [name.replace("/", LABEL_SLASH) for name in self.strategies]
        return names[0] if len(set(names)) == 1 else "/".join(names)

    def to_json(self) -> dict:
        return {"id": self.id, "variant": self.variant, "players": self.players, "strategies": list(self.strategies)}

    @staticmethod
    def from_json(data: dict) -> "RunConfig":
        return RunConfig(str(data["variant"]), int(data["players"]), tuple(str(s) for s in data["strategies"]))


@dataclass
class ChunkRecord:
    """One finished chunk: games ``first .. first + games - 1`` and its files (relative paths).

    ``checks`` holds each file's size in bytes and sha256 (``{"agg": [size, "hex"], ...}``), so a
    truncated, emptied or altered file is found before it is read; folders written before the
    checks existed have none, and only their files' presence and parquet framing are checked.
    """

    first: int
    games: int
    files: dict[str, str]
    seconds: float
    status: str = "done"
    checks: dict[str, tuple[int, str]] = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {"first": self.first, "games": self.games, "files": self.files, "seconds": self.seconds, "status": self.status}
        if self.checks:
            out["checks"] = {k: [int(n), str(h)] for k, (n, h) in self.checks.items()}
        return out

    @staticmethod
    def from_json(data: dict) -> "ChunkRecord":
        files = {str(k): str(v) for k, v in data["files"].items()}
        checks = {str(k): (int(v[0]), str(v[1])) for k, v in (data.get("checks") or {}).items()}
        if set(checks) - set(files):
            raise ValueError(f"chunk at game {data['first']}: checks for files it does not list")
        return ChunkRecord(int(data["first"]), int(data["games"]), files, float(data.get("seconds", 0.0)),
                           str(data.get("status", "done")), checks)


def _json_list(value, what: str) -> list:
    """``value`` if it is a JSON list; a ValueError naming ``what`` otherwise (a string or an object is not one)."""
    if not isinstance(value, list):
        raise ValueError(f"{what}: {type(value).__name__}, not a list")
    return value


def _bot_rows(data) -> dict[str, dict[str, str]]:
    """A manifest's ``bot_rows`` record (ValueError naming what is not ``{config id: {strategy: digest text}}``)."""
    if not isinstance(data, dict) or not all(isinstance(rows, dict) for rows in data.values()):
        raise ValueError("bot_rows: not a record of records")
    out = {str(cid): dict(rows) for cid, rows in data.items()}
    if not all(isinstance(s, str) and isinstance(d, str) for rows in out.values() for s, d in rows.items()):
        raise ValueError("bot_rows: a strategy's digest that is not text")
    return out


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
    deck: dict | None = None  # the game's deck record (GameDeal.deck: a --deck composition), None: its own cards
    meta: dict = field(default_factory=dict)  # name, kind, precision, max_games, ...
    # What identifies the study: {"seed": S, "plan": fingerprint of the plan that created it (None when
    # it was made without a plan)}; a manifest copied from another study is told by it (analyses.study.folder).
    identity: dict = field(default_factory=dict)
    # The engine row of every bot each configuration played, as its game's wing digests it
    # (GameWing.bot_rows): {config id: {strategy: sha256}}. A resume refuses to add games of a bot whose
    # row changed, and a report names the configurations the code no longer plays (analyses.study.botrows).
    # Empty in a folder written before rows were recorded, and for a game whose bots have no rows.
    bot_rows: dict[str, dict[str, str]] = field(default_factory=dict)

    def done_games(self, config_id: str) -> int:
        return sum(c.games for c in self.chunks.get(config_id, []))

    def total_games(self) -> int:
        return sum(self.done_games(c.id) for c in self.configs)

    def config(self, config_id: str) -> RunConfig:
        for c in self.configs:
            if c.id == config_id:
                return c
        raise KeyError(config_id)

    def to_json(self) -> dict:
        return {
            "format_version": FORMAT_VERSION,
            "command": self.command,
            "created": self.created,
            "updated": self.updated,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "aggregate_only": self.aggregate_only,
            "versions": self.versions,
            "deck": self.deck,
            "identity": self.identity,
            "meta": self.meta,
            "configs": [c.to_json() for c in self.configs],
            "target_games": self.target_games,
            "chunks": {cid: [r.to_json() for r in recs] for cid, recs in self.chunks.items()},
            **({"bot_rows": self.bot_rows} if self.bot_rows else {}),  # other games' manifests as they were
        }

    @staticmethod
    def from_json(data: dict) -> "StudyManifest":
        agg_only = bool(data["aggregate_only"])
        version = int(data.get("format_version", 1))
        if version != FORMAT_VERSION:
            raise ValueError(f"format version {version}; this program reads version {FORMAT_VERSION} only")
        return StudyManifest(
            seed=int(data["seed"]),
            chunk_size=int(data["chunk_size"]),
            aggregate_only=agg_only,
            configs=[RunConfig.from_json(c) for c in data["configs"]],
            target_games={k: int(v) for k, v in data["target_games"].items()},
            chunks={cid: [ChunkRecord.from_json(c) for c in _json_list(recs, f"chunks of {cid}")]
                    for cid, recs in data.get("chunks", {}).items()},
            command=data.get("command", ""),
            created=data.get("created", ""),
            updated=data.get("updated", ""),
            versions=data.get("versions", {}),
            format_version=version,
            deck=data.get("deck"),
            meta=dict(data.get("meta") or {}),
            identity=dict(data.get("identity") or {}),
            bot_rows=_bot_rows(data.get("bot_rows") or {}),
        )


class GameDeal(NamedTuple):
    """The game a study plays (its registry name, :mod:`simcore.games`), and its cards, as data.

    ``cards`` is the text of a ``--cards`` file (None: the game's own cards), so
    the manifest can keep it (``meta.cards``) and any process can load it again.
    ``deck`` is the same for a game whose wing records its card composition in the
    manifest's ``deck`` (:attr:`analyses.games.LabWing.deck_record`; Project Dreamscape's
    ``--deck``): that record as JSON text (None: the game's own deck), so a task is data
    that pickles to any worker and compares by value.
    """

    game: str
    cards: str | None = None
    deck: str | None = None

    @staticmethod
    def of_meta(meta: dict, deck: dict | None = None) -> "GameDeal":
        """The game a manifest's ``meta`` records (folders written before there were other games name none:
        they hold the registry's default game), with the manifest's ``deck`` record."""
        return GameDeal(recorded_game(meta.get("game")), meta.get("cards"), deck_text(deck))

    @staticmethod
    def default() -> "GameDeal":
        """The registry's default game with its own cards: what a manifest or plan that names no game plays."""
        return GameDeal(DEFAULT_GAME)

    @property
    def named(self) -> tuple[str, str | None]:
        """(game, cards): what a manifest's ``meta`` records of the deal (the deck has its own record)."""
        return self.game, self.cards

    @property
    def deck_record(self) -> dict | None:
        """The manifest's ``deck`` record of this deal (None: the game's own deck)."""
        return None if self.deck is None else json.loads(self.deck)


def deck_text(record: dict | None) -> str | None:
    """A deck record as the text a :class:`GameDeal` carries (key order kept: the record is the game's)."""
    return None if record is None else json.dumps(record, separators=(",", ":"))


def deck_key(record: dict | None):
    """What a deck record says about the cards: every key but ``name`` and ``source``, which only say where it
    came from (one composition read from two files is one deck)."""
    if record is None:
        return None
    return json.dumps({k: v for k, v in record.items() if k not in ("name", "source")}, sort_keys=True)


class ChunkTask(NamedTuple):
    """One chunk: games ``first .. first + games - 1`` of ``config`` on stream ``seed``, of the game ``game``
    with its cards (:class:`GameDeal`: the deck travels in it, as data)."""

    config: RunConfig
    seed: int
    first: int
    games: int
    game: GameDeal = GameDeal(DEFAULT_GAME)  # which game plays it (analyses.study.gamechunks.play_chunk)
