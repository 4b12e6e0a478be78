"""Counting Zzzzs bots on the reference engine: random, greedy and search@K (specs: :func:`.common.parse_bot`).

* random: uniform over the legal options, from the game's decision stream.
* greedy: scores every option by what it does to the dreams' worth (in tenths of a point, integers so
  that the numba twin computes the very same numbers): its own dream counts ``players - 1`` times, each
  opponent's once against it. A dream's worth asleep is ``10 W + 5 (10 - n)`` (its points so far plus
  half a point per element still to come), woken it is ``10 W`` if it scores (Z14.1) else 0; reaching
  40 is worth +-BIG (Z15). Blocks what would cost its own dream more than a card (Z13).
* search@K: at its ``element`` and ``second`` decisions, K samples of the hidden cards (Z17.2); in each,
  every option is played out by greedy for every seat for two rounds; the option with the best summed
  outcome wins (first on ties). Greedy elsewhere.

Every bot reads only what its seat knows (Z17.1): the own hand, the dreams, the discard pile, the totals
and the sizes of hidden zones. The numba engine :mod:`.fast` holds the same bots function for function.
"""
from __future__ import annotations

from simcore.rng import GameRng

from . import reference as R
from .common import (CONTEXT, FORCE, FORCE_POSITIVE, FORCE_NEGATIVE, FORCED_NEG, FORCED_POS,
                     NEGATIVE, POSITIVE, STRATEGIES, UNFORCED, WAKE_UP, Bot, Setup)

BIG = 1_000_000
HALF_POINT = 5                 # the worth of an element still to come, in tenths of a point
BLOCK_COST = 16                # what a Block card is worth keeping (keep() of an action)
THEME_FORCE = 5                # what a placeholder costs the dream it constrains
FOLLOW = 3                     # per element row in hand that could follow the element played
HORIZON_ROUNDS = 2             # search playouts: two more rounds of turns
WIN_CREDIT = 100_000
__all__ = ["STRATEGIES", "RandomAgent", "GreedyAgent", "SearchAgent", "play_one"]


# ---------------------------------------------------------------- random

class RandomAgent:
    """Uniform over the legal options, from the game's decision stream."""

    def __init__(self, rng: GameRng) -> None:
        self.rng = rng

    def choose(self, game, seat, kind, options, info):
        return options[self.rng.below(len(options))]


# ---------------------------------------------------------------- greedy

def asleep_value(points: int, n: int, max_dream: int) -> int:
    """A dream still asleep: its points and half a point per element still to come (to max_dream, Z8.1)."""
    return 10 * points + HALF_POINT * (max_dream - n)


def banked_value(points: int, n: int, min_dream: int) -> int:
    """A dream woken now: its points if it scores (min_dream elements or more, Z14.1), else nothing."""
    return 10 * points if n >= min_dream else 0


def keep(game, c: int) -> int:
    """What holding card row ``c`` is worth (the price of discarding or spending it)."""
    cards = game.cards
    if not cards.element[c]:
        return BLOCK_COST
    pol = cards.polarity[c]
    if pol == POSITIVE or pol == CONTEXT:
        return 10 + 4 * cards.plus[c]
    if pol == NEGATIVE:
        return 10 + 2 * cards.minus[c]
    return 10


def followers(game, seat: int, c: int) -> int:
    """Element rows in hand (after playing one ``c``) that could follow ``c`` (Z5.1)."""
    cards, hand = game.cards, game.hands[seat]
    out = 0
    for d in range(len(cards)):
        if cards.element[d] and hand[d] - (d == c) > 0 and cards.kind[d] != cards.kind[c] \
                and cards.themes[d] & cards.themes[c]:
            out += 1
    return out


def element_change(game, owner: int, card: int) -> tuple[int, int]:
    """(change of the owner's dream worth, 1 if it makes the owner reach 40) when ``card`` joins it."""
    dream, rules = game.dreams[owner], game.setup
    before = asleep_value(R.dream_points(game.cards, dream), len(dream.cards), rules.max_dream)
    after_dream = dream.copy()
    after_dream.cards.append(card)
    after_dream.forced.append(UNFORCED)
    after_dream.force_card.append(-1)
    w2, n2 = R.dream_points(game.cards, after_dream), len(after_dream.cards)
    if n2 >= rules.max_dream:
        return banked_value(w2, n2, rules.min_dream) - before, int(game.score[owner] + w2 >= rules.goal)
    return asleep_value(w2, n2, rules.max_dream) - before, 0


def wake_change(game, seat: int, who: list[int], me: int) -> int:
    """The worth change for ``me`` when the seats ``who`` wake (Z14, Z15.2): own dream x (p-1), others x -1."""
    q, rules = game.players - 1, game.setup
    value = 0
    totals = list(game.score)
    for s in who:
        d = game.dreams[s]
        w, n = R.dream_points(game.cards, d), len(d.cards)
        value += (q if s == me else -1) * (banked_value(w, n, rules.min_dream) - asleep_value(w, n, rules.max_dream))
        if n >= rules.min_dream:
            totals[s] += w
    best = max(totals)
    if best >= rules.goal:
        value += BIG if totals[me] == best else -BIG
    return value


def force_change(game, owner: int, pos: int, card: int) -> int:
    """The change of the owner's dream worth when a polarity Force goes under its element ``pos`` (Z11)."""
    d = game.dreams[owner]
    w = R.dream_points(game.cards, d)
    forced = d.copy()
    forced.forced[pos] = FORCED_POS if game.cards.effect[card] == FORCE_POSITIVE else FORCED_NEG
    return 10 * (R.dream_points(game.cards, forced) - w)


def extra_value(game, seat: int, code: int) -> int:
    if code == R.PASS:
        return 0
    _, owner, card = R.decode(code)
    delta, win = element_change(game, owner, card)
    if owner == seat:
        return (game.players - 1) * delta + BIG * win
    return -delta - BIG * win


def greedy_element(game, seat: int, options: list[int]) -> int:
    best, best_value = options[0], None
    for c in options:
        delta, win = element_change(game, seat, c)
        value = delta + FOLLOW * followers(game, seat, c) + BIG * win
        if best_value is None or value > best_value:
            best, best_value = c, value
    return best


def second_value(game, seat: int, code: int) -> int:
    """Greedy's score of a second play (Z3.3)."""
    cards, q = game.cards, game.players - 1
    move, target, card = R.decode(code)
    value = -q * keep(game, card)
    if move == R.M_ELEMENT:
        delta, win = element_change(game, target, card)
        return value - delta - BIG * win
    if move == R.M_WAKE:
        return value + wake_change(game, seat, R.wake_seats(game, seat, target, card), seat)
    if move == R.M_BENDER:
        bend = cards.effect[card]
        return value + max(extra_value(game, seat, c) for c in R.extra_options(game, seat, bend))
    if move == R.M_FORCE:
        if cards.effect[card] <= FORCE_NEGATIVE:
            owner, pos = divmod(target, R.SLOT)
            delta = force_change(game, owner, pos, card)
            return value + (q * delta if owner == seat else -delta)
        return value + (-q * THEME_FORCE if target == seat else THEME_FORCE)
    return value


def greedy_second(game, seat: int, options: list[int]) -> int:
    best, best_value = options[0], None
    for code in options:
        value = second_value(game, seat, code)
        if best_value is None or value > best_value:
            best, best_value = code, value
    return best


def greedy_extra(game, seat: int, options: list[int]) -> int:
    best, best_value = options[0], None
    for code in options:
        value = extra_value(game, seat, code)
        if best_value is None or value > best_value:
            best, best_value = code, value
    return best


def greedy_block(game, seat: int, options: list[int], action: int) -> int:
    """Block (the first fitting Block) when the action would cost this seat more than the card (Z13)."""
    cards = game.cards
    _, target, card = R.decode(action)
    kind, actor = cards.kind[card], game.active
    delta = 0
    if kind == WAKE_UP:
        who = R.wake_seats(game, actor, target, card)
        if who:
            delta = wake_change(game, actor, who, seat) if seat in who else _others_win(game, who, seat)
    elif kind == FORCE:
        if cards.effect[card] <= FORCE_NEGATIVE:
            owner, pos = divmod(target, R.SLOT)
            if owner == seat:
                delta = force_change(game, owner, pos, card)
        elif target == seat:
            delta = -THEME_FORCE
    return options[1] if delta < -BLOCK_COST else options[0]


def _others_win(game, who: list[int], me: int) -> int:
    """-BIG when waking ``who`` makes another seat win (Z15.2), else 0."""
    totals = list(game.score)
    for s in who:
        d = game.dreams[s]
        if len(d.cards) >= game.setup.min_dream:
            totals[s] += R.dream_points(game.cards, d)
    best = max(totals)
    return -BIG if best >= game.setup.goal and totals[me] != best else 0


def greedy_choice(game, seat: int, kind: str, options: list[int], info) -> int:
    if kind == "element":
        return greedy_element(game, seat, options)
    if kind == "second":
        return greedy_second(game, seat, options)
    if kind == "extra":
        return greedy_extra(game, seat, options)
    return greedy_block(game, seat, options, info)


class GreedyAgent:
    def choose(self, game, seat, kind, options, info):
        return greedy_choice(game, seat, kind, options, info)


# ---------------------------------------------------------------- search@K (Z17.2)

def unseen_counts(game, seat: int) -> list[int]:
    """Per card row, the copies the seat cannot see (Z17.1): every copy of the card file but its own hand,
    the discard pile, the dreams (elements, Forces under them, placeholders) and, when the removal is
    public (Z2.2, not hidden-removal), the removed Wake Ups. Read from public counts and the own hand
    alone; with hidden-removal the removed cards are not read (they stay among the unseen)."""
    cards = game.cards
    unseen = list(cards.count)
    for c in range(len(cards)):
        unseen[c] -= game.hands[seat][c] + game.discard[c]
        if not game.setup.hidden_removal:
            unseen[c] -= game.removed[c]                           # Z2.2: removed face up
    for d in game.dreams:
        for i, c in enumerate(d.cards):
            unseen[c] -= 1
            if d.force_card[i] >= 0:
                unseen[d.force_card[i]] -= 1
        if d.holder_card >= 0:
            unseen[d.holder_card] -= 1
    return unseen


def sample_world(game, seat: int, rng: GameRng):
    """A copy of the game whose hidden cards are redealt (Z17.2): every card the seat cannot see
    (:func:`unseen_counts`: the deck, the other hands, and with hidden-removal the removed Wake Ups)
    shuffled among those places, keeping their sizes. It never depends on where hidden cards are."""
    cards = game.cards
    unseen = unseen_counts(game, seat)
    pool = [c for c in range(len(cards)) for _ in range(unseen[c])]
    rng.shuffle(pool)
    world = game.copy()
    k = 0
    for s in range(game.players):
        if s == seat:
            continue
        size = sum(game.hands[s])
        hand = [0] * len(cards)
        for c in pool[k:k + size]:
            hand[c] += 1
        world.hands[s] = hand
        k += size
    world.deck = pool[k:k + len(game.deck)]
    return world


def dream_outlook(points: int, n: int, min_dream: int) -> int:
    """What a dream still asleep at the horizon is worth: its points, in proportion n / 5 while it is too
    short to score (Z14.1). Unlike greedy's asleep_value it gives nothing for elements still to come, so a
    playout is not rewarded for ending a dream and starting a new one before the horizon."""
    # 2 * n = 10 * n / 5 at the printed min-dream 5; a knob's min-dream keeps the same proportion n / min-dream
    return 10 * points if n >= min_dream else 10 * points * n // min_dream


def evaluate(game, seat: int) -> int:
    """A playout's outcome for ``seat``: a win's share, then the lead in points and dream outlook."""
    value = 0
    if game.over and seat in game.winners:
        value += WIN_CREDIT // len(game.winners)
    mine, best_other = 0, None
    for s in range(game.players):
        d = game.dreams[s]
        v = 10 * game.score[s]
        if not game.over and d.cards:
            v += dream_outlook(R.dream_points(game.cards, d), len(d.cards), game.setup.min_dream)
        if s == seat:
            mine = v
        elif best_other is None or v > best_other:
            best_other = v
    return value + mine - best_other


def playout(world, seat: int, kind: str, option: int) -> int:
    """Play ``option`` at the pending decision, then greedy for every seat for HORIZON_ROUNDS rounds."""
    world.agents = [GreedyAgent()] * world.players
    if kind == "element":
        if R.play_own_element(world, seat, option) and not world.over:
            playout_second_step(world, seat)
    else:
        R.do_second(world, seat, option)
    if not world.over:
        R.end_turn(world, seat)
    for _ in range(HORIZON_ROUNDS * world.players):
        if world.over:
            break
        playout_turn(world)
    return evaluate(world, seat)


def playout_second_step(world, seat: int) -> None:
    """second_step with greedy's choice (the playouts' own copy, as in the fast engine)."""
    options = R.second_options(world, seat)
    code = options[0] if len(options) == 1 else greedy_second(world, seat, options)
    R.do_second(world, seat, code)


def playout_turn(world) -> None:
    """play_turn with greedy's choices at the element and second steps (the playouts' own loop)."""
    world.turns += 1
    seat = world.active
    if R.draw_up(world, seat):
        return
    options = R.element_options(world, seat)
    if not options:
        R.stuck(world, seat)
    else:
        card = options[0] if len(options) == 1 else greedy_element(world, seat, options)
        if R.play_own_element(world, seat, card) and not world.over:
            playout_second_step(world, seat)
    if not world.over:
        R.end_turn(world, seat)


def search_choice(game, seat: int, kind: str, options: list[int], rng: GameRng, budget: int) -> int:
    """K sampled worlds; in each, every option is played out (the same worlds for all options)."""
    totals = [0] * len(options)
    for _ in range(budget):
        world = sample_world(game, seat, rng)
        for j, option in enumerate(options):
            totals[j] += playout(world.copy(), seat, kind, option)
    return options[totals.index(max(totals))]


class SearchAgent:
    def __init__(self, rng: GameRng, budget: int) -> None:
        self.rng = rng
        self.budget = budget

    def choose(self, game, seat, kind, options, info):
        if kind in ("element", "second"):
            return search_choice(game, seat, kind, options, self.rng, self.budget)
        return greedy_choice(game, seat, kind, options, info)


def make_agents(bots: list[Bot], rng: GameRng) -> list:
    out = []
    for b in bots:
        out.append(RandomAgent(rng) if b.kind == 0 else GreedyAgent() if b.kind == 1 else SearchAgent(rng, b.budget))
    return out


def play_one(setup: Setup, bots: list[Bot], seed: int, game_index: int, log: list[str] | None = None):
    """Game ``game_index`` from start to end on the reference engine; seats share the decision stream."""
    game = R.new_game(setup, seed, game_index, [b.banned for b in bots])
    game.agents = make_agents(bots, GameRng.decisions(seed, game_index))
    game.log = log
    return R.play_game(game)
