"""``dreamscape play``: one game told for people, for every game.

A game whose report wing has its own narration (``play_narration``: Project Dreamscape's table after every
turn) tells it that way; any other game its own short form (:attr:`simcore.games.Game.narrate`) and, with
``--json``, its per-game result through the game interface.
"""
from __future__ import annotations


def narration(game, setup, bots, seed: int, as_json: bool) -> tuple[dict | None, list[str]]:
    """Game 0 of ``seed`` told for people (and its record with ``as_json``)."""
    from analyses.study.model import StudyError
    from reports.games import report_wing

    try:
        own = report_wing(game.name).play_narration
    except StudyError:  # a game without a report still narrates
        own = None
    if own is not None:
        return own(setup, bots, seed, as_json)
    lines = game.narrate(setup, bots, seed, 0)
    if not as_json:
        return None, lines
    from analyses.study.runsummary import json_ready

    result = game.play_games(setup, bots, seed, 0, 1, engine="reference")
    wins = game.seat_wins(result, setup)[0]
    return json_ready({
        "game": game.name, "players": setup.players, "variant": game.variant_name(setup), "seed": seed,
        "seats": [{"seat": i, "strategy": name, "win": float(wins[i])} for i, name in enumerate(bots)],
        "result": {key: values[0].tolist() for key, values in result.items()},
        "narration": list(lines),
    }), lines
