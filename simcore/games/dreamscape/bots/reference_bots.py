"""Bots for the reference engine: uniform random and greedy on immediate score.

Both follow the engine-wide decision contract that the fast engine mirrors:

* a bot gives every legal option a score; the best score wins;
* when two or more options share the best score (exact equality), the game's
  decision stream (``GameRng.decisions(seed, game)``, not the deal stream that
  shuffled) picks among them with ``rng.below(number_tied)``, the
  tied options kept in the engine's option order; with a single best option
  no random number is drawn;
* decisions with a single legal option are never shown to a bot (R11).

"Uniform random" is the bot that scores every option 0, so every decision is
a tie broken by the stream. "Greedy" scores an option by the change of its
own score (R8.2: chain points - Z cards) that the option causes at once,
before any nested effect it may trigger (see :func:`immediate_score_delta`).
"""
from __future__ import annotations

from collections.abc import Callable

from simcore.games.dreamscape.cards import DreamType, type_from_code
from simcore.games.dreamscape.reference import Decision, GameState
from simcore.rng import GameRng
from simcore.games.dreamscape.scoring import chain_points

ScoreFn = Callable[[GameState, Decision, object], float]


def _chain(s: GameState, stack: list[int]) -> int:
    return chain_points([s.cards[c] for c in stack], s.options.chain_table())  # R8.2, knob chain


def immediate_score_delta(s: GameState, d: Decision, choice) -> float:
    """Change of the deciding seat's own score caused directly by ``choice``.

    * ``buy``: a face-up or reserved card adds its chain points on top of the
      REM stack; a face-down card adds a Z card (-1); ``stop`` 0.
    * ``take_z``: true -1.  ``sleep_token``: "discard" +1.
    * ``perform``: Perfect Respite -1 while the Sleep Deck is not empty.
    * ``floating_free`` on the deciding seat's REM stack: the chain change of
      moving that card to the top (0 on a solo discard pile, R10.1).
    * everything else: 0.
    """
    st = s.seats[d.seat]
    if d.kind == "buy":
        if choice == "stop":
            return 0.0
        if "reserved" in choice:
            card = st.reserved[choice["reserved"]]
        else:
            p = choice["position"]
            if s.face_down[p - 1]:
                return -1.0
            card = s.dreamscape[p - 1]
        return float(_chain(s, st.rem + [card]) - _chain(s, st.rem))
    if d.kind == "take_z":
        return -1.0 if choice else 0.0
    if d.kind == "sleep_token":
        return 1.0 if choice == "discard" else 0.0
    if d.kind == "perform":
        if type_from_code(choice) == DreamType.PERFECT_RESPITE and s.sleep_deck:
            return -1.0
        return 0.0
    if d.kind == "floating_free" and not d.on_discard_pile:
        moved = st.rem[:choice] + st.rem[choice + 1:] + [st.rem[choice]]
        return float(_chain(s, moved) - _chain(s, st.rem))
    return 0.0


def pick_best(scores: list[float], rng: GameRng) -> int:
    """Index of the best score; exact ties broken by the game's decision stream."""
    best = max(scores)
    tied = [i for i, x in enumerate(scores) if x == best]
    if len(tied) == 1:
        return tied[0]
    return tied[rng.below(len(tied))]


class ReferenceBot:
    """A bot for :class:`simcore.games.dreamscape.reference.Game`: scores options, picks the best."""

    def __init__(self, name: str, score: ScoreFn, description: str) -> None:
        self.name, self.score, self.description = name, score, description

    def choose(self, s: GameState, d: Decision, rng: GameRng):
        return d.choices[pick_best([self.score(s, d, c) for c in d.choices], rng)]


REFERENCE_BOTS: dict[str, ReferenceBot] = {
    "random": ReferenceBot("random", lambda s, d, c: 0.0, "uniform random legal choices"),
    "greedy": ReferenceBot("greedy", immediate_score_delta, "maximises the immediate change of its own score"),
}
