"""Swap findings at every skill level: the headline swap decks played again under other bots.

A study plays every single swap under its main bot (the main study: 288 decks
under ``expert``). Playing all of them again under every other bot would cost
more than the rest of the study: the search player plays some tens of games
per second. The report's swap findings quote few decks: per player count, the
swap that lowers the seat spread most and the one that raises it most, under
the main rules option (:func:`reports.games.dreamscape.findings.swap_findings`). A study file's
``[[recheck]]`` tables play exactly those decks again, with their no-swap
deck, under other bots, once the study's own games are done::

    [[recheck]]
    label = "skill levels: headline swaps"   # optional
    strategy = "linear"
    games = 20000

so that :mod:`reports.games.dreamscape.robust` can read each swap finding under every bot.
The decks follow from the study's own results (same seed, same decks), so a
resumed study replays the same ones.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analyses.study.model import RunConfig, StudyError
from analyses.games.dreamscape.sweep import swap_sweep


@dataclass(frozen=True)
class Recheck:
    """One ``[[recheck]]`` table: play the headline swap decks with ``strategy`` on every seat, ``games`` each."""

    label: str
    strategy: str
    games: int
    players: tuple[int, ...] | None = None  # only the decks of these player counts (None: every count)

    # --- a later stage of a study plan (analyses.study.studyfile.PlanStage) -------------------------------
    def configs(self, folder: str | Path) -> list[RunConfig]:
        """The configurations it plays, chosen from the finished study in ``folder``."""
        return recheck_configs(folder, [self])[0][1]

    def fingerprint(self) -> list:
        """Its part of the plan's fingerprint (a plan without rechecks keeps the fingerprint it had)."""
        return [self.strategy, self.games] + ([list(self.players)] if self.players is not None else [])

    def plan_line(self) -> str:
        """What it plays, for the study's progress lines before the headline decks are known."""
        return (f"{self.label}: {self.strategy} on every seat, {self.games:,} games per deck (the headline swap decks, "
                "chosen once the swaps are played)")

    def start_line(self, configs: int) -> str:
        """The line when it starts, with the number of configurations it plays."""
        return (f"{self.label}: {configs} configurations x {self.games:,} games "
                f"(the decks the swap findings quote, {self.strategy} on every seat)")


def headline_swaps(folder: str | Path) -> list[tuple[int, str, str]]:
    """``(players, swap variant, its no-swap variant)`` of every deck the study's swap findings quote.

    Per player count, among the single-swap decks the study's main bot (the
    bot that played most of them) played under the main rules option (``base``
    when there, else the first): the one with the lowest seat spread and the
    one with the highest. The ordering is the findings' own: they rank the
    swaps by the paired change against the no-swap deck, which ranks them as
    their spreads do, since every swap is compared with the same no-swap games.
    """
    try:
        sweep = swap_sweep(folder)
    except StudyError:
        return []
    single = sweep.filter((pl.col("players") >= 2) & (pl.col("swaps") != "none") & ~pl.col("swaps").str.contains(r"\+")
                          & ~pl.col("strategies").str.contains("/"))
    if single.height == 0:
        return []
    bots = single["strategies"].to_list()
    main = max(sorted(set(bots)), key=bots.count)
    single = single.filter(pl.col("strategies") == main)
    out = []
    for players in sorted(single["players"].unique().to_list()):
        here = single.filter(pl.col("players") == players)
        options = here["options"].to_list()
        main_options = "base" if "base" in options else options[0]
        here = here.filter(pl.col("options") == main_options).sort(["seat_spread", "variant"])
        for row in dict.fromkeys((0, here.height - 1)):
            out.append((players, here["variant"][row], main_options))
    return out


def recheck_configs(folder: str | Path, rechecks: list[Recheck]) -> list[tuple[Recheck, list[RunConfig]]]:
    """Per ``[[recheck]]`` table, the configurations it plays: each headline swap deck and its no-swap deck."""
    decks = headline_swaps(folder)
    out = []
    for r in rechecks:
        configs = {}
        for players, variant, baseline in decks:
            if r.players is not None and players not in r.players:
                continue
            for v in (variant, baseline):
                c = RunConfig(v, players, (r.strategy,) * players)
                configs[c.id] = c
        out.append((r, list(configs.values())))
    return out
