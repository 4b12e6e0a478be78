"""What a study folder's bots played: recorded per configuration, checked before a resume, read by reports.

A study folder's chunks name the strategies that played, not what those names played: a bot's table,
value or file can change between the run that wrote a chunk and the run (or the report) that reads it.
So the manifest's ``bot_rows`` keeps, per configuration, the digest of every bot's engine row as its
game's wing gives it (:attr:`analyses.games.LabWing.bot_rows`; Project Dreamscape: the sha256 of the
whole row the engine plays there, :mod:`analyses.games.dreamscape.botrows`), written when the
configuration's first games are played (issue #42).

* **Resume** (:func:`check_before_play`, called by :meth:`analyses.study.folder.Study.run` before any game):
  a configuration that still has games to play, whose recorded digest of a bot differs from what the
  code plays now, is refused in one :class:`~analyses.study.model.StudyError` line naming the
  configuration and the bot: its new games would be another bot's than its old ones. Asked to
  (``dreamscape study --restart-changed``), the study drops that configuration's games and plays
  them all again under the current rows instead.
* **Reading** (:func:`read_bot_rows`): the configurations played by other rows than the code's, one line
  each, and whether the folder recorded none (a folder written before rows were recorded: ``bot rows
  not recorded``). A report marks the verdicts that rest on such a configuration.

A configuration played before rows were recorded gets no record when a resume adds games to it (what
its first games played is unknown, so nothing is claimed). A game without the hook records nothing and
its reports say nothing of rows.
"""
from __future__ import annotations

import contextlib
import copy
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from analyses.study.model import RunConfig, StudyError, StudyManifest

NOT_RECORDED = "bot rows not recorded"
OTHER_ROWS = "played by other bot rows"
RESTART_FLAG = "--restart-changed"


def rows_hook(manifest: StudyManifest):
    """The wing's ``bot_rows`` hook of the game a manifest records (None: its bots have no rows)."""
    from analyses.games import wing_of
    from analyses.study.model import GameDeal

    return wing_of(GameDeal.of_meta(manifest.meta).game).bot_rows


def changed_bots(config: RunConfig, recorded: dict[str, str], now: dict[str, str]) -> list[str]:
    """The bots of ``config`` (in seat order, each once) whose recorded digest is missing or differs from ``now``."""
    return [s for s in dict.fromkeys(config.strategies) if recorded.get(s) != now.get(s)]


def short(digest: str | None) -> str:
    return "none" if digest is None else digest[:12]


def check_before_play(folder: Path, manifest: StudyManifest, configs: Iterable[RunConfig], pending: set[str],
                      restart: bool = False, cache: dict | None = None) -> None:
    """Check and record the bot rows of ``configs`` before a run plays ``pending`` (config ids with games to play).

    A configuration with finished games and a record: every bot's digest must be what the code plays now,
    else a one-line StudyError (``restart``: its games are dropped, said on stderr, and played again). A
    configuration without finished games gets the current digests recorded. ``cache``: digests already
    computed in this process, by config id (the rows do not change while a study runs).
    """
    hook = rows_hook(manifest)
    if hook is None:
        return
    cache = {} if cache is None else cache
    for config in configs:
        if config.id not in pending and not restart:
            continue
        now = cache.get(config.id)
        if now is None:
            now = cache[config.id] = dict(hook(config, manifest.deck))
        played = manifest.chunks.get(config.id)
        held = manifest.bot_rows.get(config.id)
        if played and held is None:
            continue  # played before rows were recorded: what those games played is unknown, nothing is claimed
        changed = changed_bots(config, held, now) if played else []
        if changed and not restart:
            if config.id not in pending:
                continue  # nothing to add: the report says which rows it was played by
            bot = changed[0]
            # a study can play such configurations again; other runs (certify's folder, a kept run) have no flag
            remedy = (f"use another folder (`dreamscape study {RESTART_FLAG}` plays a study's such configurations again)"
                      if manifest.meta.get("kind", "file") == "file" else "use another folder, or delete this one")
            raise StudyError(f"{folder}: configuration {config.id} was played by another {bot} than the code plays now "
                             f"(recorded row {short(held.get(bot))}, now {short(now.get(bot))}), so new games would mix two "
                             f"bots; {remedy}")
        if changed:
            games = sum(r.games for r in played)
            print(f"dreamscape: {folder}: {config.id} was played by another {', '.join(changed)} than the code plays "
                  f"now; playing its {games:,} games again", file=sys.stderr, flush=True)
            drop_games(folder, manifest, config.id)
        if config.id in pending or changed:
            manifest.bot_rows[config.id] = now


def refuse_changed_rows(folder: Path, manifest: StudyManifest, configs: Iterable[RunConfig], games) -> None:
    """:func:`check_before_play`'s refusal, before a command prints anything (its refusal is then its one line):
    ``games(config)`` is the games the command asks of a configuration. Records nothing."""
    configs = list(configs)
    pending = {c.id for c in configs
               if manifest.done_games(c.id) < max(int(games(c)), manifest.target_games.get(c.id, 0))}
    check_before_play(folder, copy.deepcopy(manifest), configs, pending)


def drop_games(folder: Path, manifest: StudyManifest, config_id: str) -> None:
    """Forget every finished chunk of a configuration and delete its files (the chunk is played again)."""
    for rec in manifest.chunks.pop(config_id, []):
        for rel in rec.files.values():
            with contextlib.suppress(OSError):
                (Path(folder) / rel).unlink()


@dataclass
class RowsReading:
    """What a study folder's record of its bots' rows says against the code that reads it.

    ``kept``: the game records rows (False: nothing to say). ``unrecorded``: played configurations with no
    record. ``changed``: config id -> the bots whose recorded digest differs from the code's.
    """

    kept: bool = False
    unrecorded: list[str] = field(default_factory=list)
    changed: dict[str, list[str]] = field(default_factory=dict)
    played: dict[str, RunConfig] = field(default_factory=dict)  # config id -> the configuration, finished games only

    def lines(self) -> list[str]:
        """One line per configuration played by other rows, then one if the folder recorded none (or not all)."""
        out = []
        for cid, bots in self.changed.items():
            c = self.played[cid]
            out.append(f"{c.players} players, {c.variant}, {c.label}: {OTHER_ROWS} ({', '.join(bots)}: "
                       "the recorded row differs from what the code plays now)")
        if self.unrecorded:
            some = len(self.unrecorded) < len(self.played)
            out.append(NOT_RECORDED + (f" for {len(self.unrecorded):,} of {len(self.played):,} configurations"
                                       if some else " (a folder written before studies recorded them)"))
        return out

    def changed_bots(self, players: int, variant: str) -> set[str]:
        """The bots played by other rows in any configuration of this players x variant."""
        return {b for cid, bots in self.changed.items()
                if (self.played[cid].players, self.played[cid].variant) == (int(players), variant) for b in bots}


def read_bot_rows(manifest: StudyManifest) -> RowsReading:
    """The folder's recorded rows against the code's, for every configuration with finished games."""
    hook = rows_hook(manifest)
    if hook is None:
        return RowsReading()
    out = RowsReading(kept=True)
    for config in manifest.configs:
        if not manifest.chunks.get(config.id):
            continue
        out.played[config.id] = config
        held = manifest.bot_rows.get(config.id)
        if held is None:
            out.unrecorded.append(config.id)
            continue
        changed = changed_bots(config, held, dict(hook(config, manifest.deck)))
        if changed:
            out.changed[config.id] = changed
    return out
