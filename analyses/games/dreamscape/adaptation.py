"""What Project Dreamscape's bots were adapted to, and the search player that measures how far they are (#41).

The wing's two hooks (:class:`analyses.games.GameWing`): :func:`training_status`, the bots' own
account of what they were fitted to (``simcore/games/dreamscape/bots/training.py``), and
:func:`distance_search`, the search player whose one-seat gain measures how far a bot is from search.
"""
from __future__ import annotations

DISTANCE_SEARCH = "search:{bot}@8:late"  # the one-seat search over the bot: late game, 8 playouts


def training_status(setup, bot: str):
    """``bot``'s training status on ``setup``: the bots' own account (:func:`simcore.games.dreamscape.bots.training.training_status`:
    fitted to the shipped tables and values of this player count and rules options on the printed deck,
    rule-aware where the features read a changed number from the state, out of distribution elsewhere)."""
    from simcore.games.dreamscape.bots.training import training_status as status

    return status(setup, bot)


def distance_search(setup, bot: str) -> str | None:
    """``search:BOT@8:late`` (the issue's measure; late-game search is the cheap one), or None for a bot that is
    itself a search player."""
    if bot.startswith("search:"):
        return None
    return DISTANCE_SEARCH.format(bot=bot)
