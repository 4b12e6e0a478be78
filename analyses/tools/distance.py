"""What a result on a changed game is worth: the bots' training status and their distance from search (#41).

A bot fitted to the shipped rules may play a changed game (a knob, a rules variant, a swap or
a deck file) badly, and a finding made with it may then belong to the bot rather than to the
game. Every result on a changed game therefore says, per bot:

* its **training status** (:func:`training_status`): ``fitted`` to this rule set, ``rule-aware``,
  or ``out-of-distribution``, from the game wing's ``training_status`` hook
  (:class:`simcore.games.TrainingStatus`); a game without the hook names none;
* its **distance from search** (:func:`search_distance`): the win rate a search player over the
  bot gains in one seat, the bot in every other seat, against the bot itself in that seat on the
  same deals, with its paired 95% interval. It is ``dreamscape exploit``'s cell
  (:func:`analyses.tools.exploit.cell_row` over :func:`analyses.tools.gameplay.seat_win_credits`),
  made cheap: the deals are cut into one block per seat and the search player sits in block *s*'s
  seat *s*, so every deal is played twice (once by the bots alone) whatever the player count, and
  the gain is a one-seat gain averaged over the seats. The search player is the wing's
  ``distance_search`` (Project Dreamscape: ``search:BOT@8:late``), else the game's own search
  player over the bot with :data:`PLAYOUTS` playouts. Game *g* deals from ``(seed, g)``: the
  same seed gives the same numbers.

A setup is *changed* (:func:`changed`) when its variant is not the game's baseline or it plays a
card file of the user's; the base game gets neither line.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from analyses.games import wing_of
from analyses.tools.exploit import cell_row
from analyses.tools.gameplay import seat_win_credits

DISTANCE_GAMES = 300  # deals per measured distance: a few hundred, cheap (a few seconds of search games)
PLAYOUTS = 8  # the search player's playouts per option where the game's wing names no search player
CHUNK = 100  # games per play_games call of a distance run (memory only: the numbers do not depend on it)
KIND_WORDS = {"fitted": "fitted to this rule set", "rule-aware": "rule-aware",
              "out-of-distribution": "out of distribution"}


def baseline_variant(game, players: int) -> str:
    """The variant text of the game as shipped: the first of its comparable variants, else ``base``."""
    return game.variants(players)[0] if game.has("variants") else "base"


def changed(game, setup, cards=None) -> bool:
    """Whether ``setup`` is a changed game: a variant other than the baseline (a knob, a rules option, a swap)
    or a card file of the user's (``cards``)."""
    return cards is not None or game.variant_name(setup) != baseline_variant(game, setup.players)


def training_status(game, setup, bot: str):
    """The bot's :class:`~simcore.games.TrainingStatus` on ``setup`` from the game's wing, or None (not known)."""
    hook = wing_of(game).training_status
    return hook(setup, bot) if hook is not None else None


def distance_search(game, setup, bot: str) -> str | None:
    """The search player whose gain over ``bot`` measures its distance, or None when the game has none over it."""
    hook = wing_of(game).distance_search
    if hook is not None:
        return hook(setup, bot)
    if not game.has("search"):
        return None
    try:
        return game.check_strategy(game.search(bot, PLAYOUTS, None), setup)
    except game.errors:  # a search player over another bot only (Pleasant Dreams: over threshold)
        return None


def search_distance(game, setup, bot: str, search: str, games: int = DISTANCE_GAMES, seed: int = 1,
                    progress: Callable[[int], None] | None = None) -> dict:
    """The one-seat gain of ``search`` over ``bot`` on ``setup``: games 0..games-1 of ``seed``, each played
    by the bots alone and once with the search player in one seat (block *s* of the deals: seat *s*).

    Returns :func:`analyses.tools.exploit.cell_row`'s row (``gain``, ``gain_low``, ``gain_high`` ...)
    with ``seat`` None (every seat in turn).
    """
    players = setup.players
    own = seat_win_credits(game, setup, [bot] * players, games, seed, CHUNK, progress)
    edges = np.linspace(0, games, players + 1).round().astype(int)
    mine, theirs = [], []
    for seat in range(players):
        first, last = int(edges[seat]), int(edges[seat + 1])
        if last <= first:
            continue
        seats = [bot] * players
        seats[seat] = search
        credit = seat_win_credits(game, setup, seats, last - first, seed, CHUNK, progress, first=first)
        mine.append(credit[:, seat])
        theirs.append(own[first:last, seat])
    row = cell_row(bot, search, players, game.variant_name(setup), 0, np.concatenate(mine), np.concatenate(theirs))
    return {**row, "seat": None}


def folder_training(folder) -> list[dict]:
    """The training status of every bot of a study folder on its changed configurations, counted: one row per
    bot and kind (``strategy``, ``training``, ``configurations``, and one ``detail`` of them), for the one line
    a report or a summary gives it. Empty when the folder reads no changed game or the game names no status."""
    from analyses.games import get_game
    from analyses.study.folder import finished_configs, read_manifest
    from analyses.study.gamechunks import config_setup
    from analyses.study.model import GameDeal

    deal = GameDeal.of_meta(read_manifest(folder).meta)
    game = get_game(deal.game)
    cards = deal.cards  # a card file's text travels in the deal: a changed game, whatever it holds
    counts: dict[tuple[str, str], dict] = {}
    for config in finished_configs(folder):
        setup = config_setup(deal, config)
        if not changed(game, setup, cards):
            continue
        for bot in dict.fromkeys(config.strategies):
            status = training_status(game, setup, bot)
            if status is None:
                continue
            row = counts.setdefault((bot, status.kind), {"strategy": bot, "training": status.kind,
                                                         "configurations": 0, "detail": status.detail})
            row["configurations"] += 1
    return list(counts.values())


__all__ = ["DISTANCE_GAMES", "KIND_WORDS", "changed", "training_status", "distance_search", "search_distance",
           "baseline_variant", "folder_training"]
