"""Goofspiel, the readable reference engine: the rules as code, rule ids from ``interpretations.md``.

A :class:`Game` holds one game (TAG's GameState); the functions below are its forward model in the
order a round happens (G3): reveal the prize, every seat bids, the bids are revealed and spent, the
highest single bid takes the prize (G4), and after the last prize the scores decide (G5). Every bid goes
through :func:`ask_bid`, which lists the legal cards and hands them to the seat's agent; a hand of one
card is played without asking (G3.4).

The numba engine :mod:`.fast` mirrors this module function for function, same names, same order. The
bots at the end of this file (random, match, search) read only what their seat may know (G6).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from simcore.rng import GameRng

from .bots import BOT_MATCH, BOT_RANDOM, Bot
from .common import Setup


class Pending(Exception):
    """Raised by a scripted agent that has no answer left: the game waits for ``seat``'s bid."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.seat = seat


@dataclass
class Game:
    """One game of Goofspiel (TAG's GameState)."""

    setup: Setup
    prizes: list[int]                # the prize deck, top first; its order is hidden (G6.1)
    hands: list[list[int]]           # each seat's unplayed cards, lowest first; public (G6.1)
    scores: list[int]
    pile: int = 0                    # value of the prizes waiting for a taker (G4.1, G4.3)
    discarded: int = 0               # value of the prizes nobody took (G4.2, G5.1)
    rounds: int = 0
    over: bool = False
    winners: list[bool] = field(default_factory=list)
    agents: list = field(default_factory=list)
    log: list[str] | None = None

    @property
    def players(self) -> int:
        return self.setup.players


def say(game: Game, text: str) -> None:
    if game.log is not None:
        game.log.append(text)


def new_game(setup: Setup, seed: int, game_index: int) -> Game:
    """Set up game ``game_index`` from its deal stream (G2): every seat holds the suit, the prizes are shuffled."""
    prizes = list(setup.values)
    GameRng(seed, game_index).shuffle(prizes)                     # G2.1
    hands = [list(setup.values) for _ in range(setup.players)]    # G1.2
    return Game(setup, prizes, hands, [0] * setup.players)


def play_game(game: Game, trace: list | None = None) -> Game:
    """Play rounds until the prize deck is used up (G5.1)."""
    while not game.over:
        play_round(game, trace)
    return game


def play_round(game: Game, trace: list | None = None) -> None:
    """One round (G3). ``trace`` (a list) receives (round, seat, cards held, bid) for every bid."""
    prize = reveal_prize(game)
    # G3.2: the bids are secret and simultaneous; seats are asked in seat order, and no agent is shown
    # another seat's bid of this round (the engines only tell them the position before the round).
    bids = [ask_bid(game, seat) for seat in range(game.players)]
    if trace is not None:
        trace.extend((game.rounds, seat, len(game.hands[seat]), bids[seat]) for seat in range(game.players))
    say(game, f"round {game.rounds}: prize {prize}" + (f" ({game.pile} at stake)" if game.pile != prize else "")
        + "; bids " + ", ".join(f"seat {s + 1}: {b}" for s, b in enumerate(bids)))
    resolve_round(game, bids)


def reveal_prize(game: Game) -> int:
    """G3.1: the top prize card is turned up and joins the prizes at stake."""
    game.rounds += 1
    prize = game.prizes.pop(0)
    game.pile += prize
    return prize


def ask_bid(game: Game, seat: int) -> int:
    """The seat's bid among the cards it holds (G3.2); a single card is played without asking (G3.4)."""
    options = list(game.hands[seat])
    if len(options) == 1:
        return options[0]
    return game.agents[seat].bid(game, seat, options)


def resolve_round(game: Game, bids: list[int]) -> None:
    """G3.3 the bids are spent, G4 the prize goes to the highest single bid, G5 the game may end."""
    for seat, bid in enumerate(bids):
        game.hands[seat].remove(bid)
    take_prize(game, bids)
    if not game.prizes:
        end_game(game)


def single_highest(bids: list[int]) -> int:
    """G4.1: the seat of the highest bid no other seat matched; -1 when every bid is matched."""
    best = -1
    for seat, bid in enumerate(bids):
        if bids.count(bid) == 1 and (best < 0 or bid > bids[best]):
            best = seat
    return best


def take_prize(game: Game, bids: list[int]) -> None:
    """G4.1 the taker scores the prizes at stake; G4.2 nobody takes them: discarded, or G4.3 they carry."""
    taker = single_highest(bids)
    if taker >= 0:
        game.scores[taker] += game.pile
        say(game, f"seat {taker + 1} takes {game.pile} (scores {'-'.join(map(str, game.scores))})")
        game.pile = 0
    elif not game.setup.carry:
        say(game, f"no single highest bid: {game.pile} discarded")
        game.discarded += game.pile
        game.pile = 0
    else:
        say(game, f"no single highest bid: {game.pile} carries to the next round")


def end_game(game: Game) -> None:
    """G5: after the last prize the highest score wins; equal highest scores share the win (G5.2)."""
    game.discarded += game.pile          # G4.3: prizes still carried after the last round are discarded
    game.pile = 0
    game.over = True
    best = max(game.scores)
    game.winners = [score == best for score in game.scores]


# ------------------------------------------------------------------------------------------------ bots
# Every bot reads the public position (hands, scores, the prizes at stake, the prizes still to come as a
# set: G6.1) and the game's decision stream; all seats share that one stream, in seat order.


def random_bid(options: list[int], rng: GameRng) -> int:
    """random: any held card, uniformly."""
    return options[rng.below(len(options))]


def match_bid(options: list[int], stake: int, rng: GameRng) -> int:
    """match: the held card nearest ``stake`` shifted by -1, 0 or +1 at random; the lower card on a tie.

    The shift keeps the bot from being a pure, predictable rule: two copies of it would otherwise
    play every 2-player game as the same string of ties.
    """
    target = stake + rng.below(3) - 1
    best = options[0]
    for card in options[1:]:
        if abs(card - target) < abs(best - target):
            best = card
    return best


def search_bid(game: Game, seat: int, options: list[int], budget: int, rng: GameRng) -> int:
    """search@K: each held card (lowest first) in K playouts; the card with the largest summed margin
    (own score minus the best other score) wins, the lowest on a tie.

    The playouts draw from their own stream, started from one draw of the decision stream, so a search
    costs the game's decision stream one number whatever K is.
    """
    playout_rng = GameRng.__new__(GameRng)
    playout_rng.state = rng.next_u64()
    best, best_total = options[0], None
    for card in options:
        total = 0
        for _ in range(budget):
            total += playout(game, seat, card, playout_rng)
        if best_total is None or total > best_total:
            best, best_total = card, total
    return best


def playout(game: Game, seat: int, card: int, rng: GameRng) -> int:
    """One playout: ``seat`` bids ``card`` now, every other bid is match's; the unseen prize order is a
    fresh shuffle (G6.1). Returns the seat's final margin over the best other seat."""
    g = Game(game.setup, list(game.prizes), [list(h) for h in game.hands], list(game.scores), game.pile,
             game.discarded, game.rounds)
    bids = [card if s == seat else match_bid(g.hands[s], g.pile, rng) for s in range(g.players)]
    resolve_round(g, bids)
    rng.shuffle(g.prizes)
    while not g.over:
        reveal_prize(g)
        resolve_round(g, [match_bid(g.hands[s], g.pile, rng) for s in range(g.players)])
    return g.scores[seat] - max(g.scores[s] for s in range(g.players) if s != seat)


class BotAgent:
    """A seat played by a built-in bot on the game's decision stream."""

    def __init__(self, bot: Bot, rng: GameRng) -> None:
        self.bot, self.rng = bot, rng

    def bid(self, game: Game, seat: int, options: list[int]) -> int:
        if self.bot.kind == BOT_RANDOM:
            return random_bid(options, self.rng)
        if self.bot.kind == BOT_MATCH:
            return match_bid(options, game.pile, self.rng)
        return search_bid(game, seat, options, self.bot.budget, self.rng)


def play_one(setup: Setup, bots: list[Bot], seed: int, game_index: int, log: list[str] | None = None,
             trace: list | None = None) -> Game:
    """Game ``game_index`` of a run seeded ``seed``, start to end (the deal and decision streams of simcore.rng)."""
    game = new_game(setup, seed, game_index)
    rng = GameRng.decisions(seed, game_index)
    game.agents = [BotAgent(bot, rng) for bot in bots]
    game.log = log
    return play_game(game, trace)
