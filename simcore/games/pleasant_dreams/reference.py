"""Pleasant Dreams, the readable reference engine: the rulebook as code, rule ids from interpretations.md.

A :class:`Game` holds one game (TAG's GameState); the functions below are its forward model, in the
order a turn happens (P4): the start of the turn (Mirror, Premonition, the flow size), the draw, Deep
Sleep, Dream Compass, the resolution of each card (Barrier, Shimmer, Suppression, the symbols), Recurring
Dreams and the end of the turn. Every choice goes through :func:`ask`, which lists the legal options and
hands them to the seat's agent; an option list of one is taken without asking (P10.2).

The numba engine :mod:`.fast` mirrors this module function for function, same names, same order; the
bots at the end of this file (random, threshold, search) read only what their seat may know (P9).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from simcore.rng import GameRng

from .common import (ACTION_TYPES, BARRIER, COMPASS, CROSS, DEEP_SLEEP, EQUAL, FLIP,
                     MIRROR, PREMONITION, RECURRING, SHIMMER, SUPPRESSION, WAKE_LIMIT, CardList,
                     Setup)
from .bots import Bot

# Choice codes of the "turn" decision (P4.1, P8.9): 0..5 = flow size, then the start-of-turn cards.
TURN_MIRROR, TURN_PREMONITION = 6, 7
# Choice codes of the "resolve" decision (P8.2, P8.4, P8.7).
RESOLVE, USE_BARRIER, USE_SHIMMER, USE_SUPPRESSION = 0, 1, 2, 3
MAX_TURNS = 1000          # no game comes near this (P6.4); reaching it is an engine bug
ALL_SEATS = 3             # knowledge bits: seat s knows a slot when bit s is set (P9)
UNSEEN_BACK = 0           # what a bot counts for a back no one has seen (P9.5): neutral
KINDS = ("turn", "deep_sleep", "compass", "resolve", "flip", "place", "recurring")


class Pending(Exception):
    """Raised by a scripted agent that has no answer left: the game waits at this decision."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass
class Slot:
    """One card in the dream deck: which card, which side shows (P1.3), who knows it is here (P9)."""

    card: int
    side: int
    known: int = 0


@dataclass
class Game:
    """One game of Pleasant Dreams (TAG's GameState). ``deck[0]`` is the top of the dream deck."""

    setup: Setup
    cards: CardList
    deck: list[Slot]
    wake: list[int]
    held: list[list[int]]            # unused action cards of each type, per seat
    dealt: list[list[int]]
    used: list[list[int]]
    banned: list[int]                # per seat, action types its bot never uses (restricted play, P7.4)
    aside: list[list[tuple[int, int]]] = field(default_factory=lambda: [[], []])   # Suppression (P8.7)
    discard: list[tuple[int, int]] = field(default_factory=list)
    flow: list[tuple[int, int]] = field(default_factory=list)    # resolution order: flow[0] resolves first
    active: int = 0
    turns: int = 0
    over: bool = False
    winner: int = -1
    agents: list = field(default_factory=list)
    log: list[str] | None = None
    back_seen: list[bool] = field(default_factory=list)   # per card: its back has been shown (P9.5), public

    @property
    def players(self) -> int:
        return self.setup.players

    def copy(self) -> "Game":
        """An independent copy (agents and log are not copied)."""
        return Game(self.setup, self.cards, [Slot(s.card, s.side, s.known) for s in self.deck],
                    list(self.wake), [list(h) for h in self.held], [list(d) for d in self.dealt],
                    [list(u) for u in self.used], list(self.banned), [list(a) for a in self.aside],
                    list(self.discard), list(self.flow), self.active, self.turns, self.over, self.winner,
                    back_seen=list(self.back_seen))


def say(game: Game, text: str) -> None:
    if game.log is not None:
        game.log.append(text)


def new_game(setup: Setup, seed: int, game_index: int, banned: list[int] | None = None) -> Game:
    """Set up game ``game_index`` from its deal stream (P2): shuffle the deck, deal the action cards."""
    cards = setup.cards
    rng = GameRng(seed, game_index)
    order = list(range(len(cards)))
    rng.shuffle(order)                                            # P2.1: all flip cards front up
    deck = [Slot(c, 0, 0) for c in order]
    p = setup.players
    held = [[0] * len(ACTION_TYPES) for _ in range(p)]
    k = setup.dealt_at_random()
    if setup.hand is not None:                                    # P7.5: the solo player's chosen cards
        held[0] = list(setup.hand)
    elif k < 0:                                                   # P2.4: barrier + premonition each
        for s in range(p):
            held[s][BARRIER] = 1
            held[s][PREMONITION] = 1
    else:                                                         # P7.2, P7.3: k random cards of all 16
        pile = [t for t in range(len(ACTION_TYPES)) for _ in range(setup.copies)]   # P11: knob copies
        rng.shuffle(pile)
        for s in range(p):
            for t in pile[s * k:(s + 1) * k]:
                held[s][t] += 1
    return Game(setup, cards, deck, [setup.start] * p, held, [list(h) for h in held],
                [[0] * len(ACTION_TYPES) for _ in range(p)], list(banned or [0] * p),
                [[] for _ in range(p)], back_seen=[setup.public_backs] * len(cards))   # P9.5


def can_use(game: Game, seat: int, action: int) -> bool:
    """Seat holds an unused ``action`` card and its bot may use it (P7.1, P7.4)."""
    return game.held[seat][action] > 0 and not game.banned[seat] >> action & 1


def use_card(game: Game, seat: int, action: int, on: tuple[int, int] | None = None) -> None:
    """Turn an action card face down (P7.1)."""
    game.held[seat][action] -= 1
    game.used[seat][action] += 1
    target = f" on {game.cards.label(*on)}" if on is not None else ""
    say(game, f"seat {seat + 1} uses {ACTION_TYPES[action]}{target}")


def ask(game: Game, kind: str, options, **info):
    """The active seat's answer to a decision; a single legal option is taken without asking (P10.2).

    ``options`` is a list of choice codes, except for "compass" (the flow's length; a choice is None
    or an order) and "recurring" (how many candidates; a choice is a tuple of their indices).
    """
    if isinstance(options, list) and len(options) == 1:
        return options[0]
    return game.agents[game.active].choose(game, kind, options, info)


def raise_wake(game: Game, seat: int, change: int) -> None:
    """P3.1: wakefulness never below 0; reaching 5 (knob wake, P11) wakes the seat at once and ends the
    game (P6.1)."""
    limit = game.setup.wake_limit
    game.wake[seat] = max(0, game.wake[seat] + change)
    if game.wake[seat] >= limit:
        game.wake[seat] = limit
        game.over = True
        game.winner = -1 if game.players == 1 else 1 - seat
        say(game, f"seat {seat + 1} wakes up")


def play_game(game: Game) -> Game:
    """Play turns until the game is over (P6)."""
    while not game.over:
        play_turn(game)
        if game.turns >= MAX_TURNS:
            raise RuntimeError("Pleasant Dreams game did not end")
    return game


def play_turn(game: Game) -> None:
    """One turn of the active seat (P4)."""
    game.turns += 1
    seat = game.active
    say(game, f"turn {game.turns}: seat {seat + 1} at wakefulness {game.wake[seat]}, {len(game.deck)} cards in the deck")
    n = start_of_turn(game, seat)
    rest_of_turn(game, seat, n)


def rest_of_turn(game: Game, seat: int, n: int) -> None:
    """The turn after its flow size is chosen: draw, resolve, the win check (P6.2), the next seat."""
    draw_flow(game, seat, n)
    offer_deep_sleep(game, seat)
    offer_compass(game, seat)
    nightmares = resolve_flow(game, seat)
    if game.over:
        return
    offer_recurring(game, seat, nightmares)
    end_turn(game, seat)


def turn_options(game: Game, seat: int) -> list[int]:
    """P4.1, P4.2, P8.9: flow sizes 1..min(5, deck) (0 on an empty deck), then Mirror, Premonition."""
    d = len(game.deck)
    options = list(range(1, min(game.setup.max_flow, d) + 1)) if d else [0]     # P11: knob flow
    if d and can_use(game, seat, MIRROR):             # P8.6: any holder, the one who used the first too
        options.append(TURN_MIRROR)
    if d and can_use(game, seat, PREMONITION):
        options.append(TURN_PREMONITION)
    return options


def start_of_turn(game: Game, seat: int) -> int:
    """P8.9: Mirror and Premonition at the start of the turn, in any order, then the flow size."""
    while True:
        choice = ask_turn(game, turn_options(game, seat))
        if choice < TURN_MIRROR:
            return choice
        use_start_card(game, seat, choice)


def ask_turn(game: Game, options: list[int]) -> int:
    """The "turn" decision: the only one the search bot searches (the others it takes as threshold)."""
    return ask(game, "turn", options)


def use_start_card(game: Game, seat: int, choice: int) -> None:
    if choice == TURN_MIRROR:
        use_mirror(game, seat)
    else:
        use_premonition(game, seat)


def use_mirror(game: Game, seat: int) -> None:
    """P8.6: flip the whole deck over: its order reverses and every card shows its other side."""
    use_card(game, seat, MIRROR)
    game.deck.reverse()
    for slot in game.deck:
        if game.cards.flip[slot.card]:
            slot.side = 1 - slot.side
    reveal_top(game)


def reveal(game: Game, card: int, side: int) -> None:
    """P9.5: a back that shows in view (drawn, on top, flipped, Premonition) is seen by both seats."""
    if side:
        game.back_seen[card] = True


def reveal_top(game: Game) -> None:
    """P4.4: the top card's showing face is in view."""
    if game.deck:
        reveal(game, game.deck[0].card, game.deck[0].side)


def use_premonition(game: Game, seat: int) -> None:
    """P8.1: both players see the showing faces of the top three cards (they stay in place)."""
    use_card(game, seat, PREMONITION)
    shown = game.deck[:game.setup.premonition]       # P11: knob premonition
    for slot in shown:
        slot.known = ALL_SEATS
        reveal(game, slot.card, slot.side)
    say(game, "premonition shows " + ", ".join(game.cards.label(s.card, s.side) for s in shown))


def draw_flow(game: Game, seat: int, n: int) -> None:
    """P4.3: draw n cards one at a time; the last drawn lies farthest and resolves first.
    Cards set aside by Suppression join at the far end (P8.7)."""
    drawn = [(s.card, s.side) for s in game.deck[:n]]
    del game.deck[:n]
    for card, side in drawn:
        reveal(game, card, side)
    reveal_top(game)
    game.flow = drawn[::-1]
    for card in reversed(game.aside[seat]):           # P8.7: "on a later turn" = the next one (l. 174)
        game.flow.insert(0, card)
    game.aside[seat] = []
    say(game, f"seat {seat + 1} draws {n}: " + ", ".join(game.cards.label(c, s) for c, s in drawn))


def offer_deep_sleep(game: Game, seat: int) -> None:
    """P8.3: after the draw, the top card of the deck may join the far end of the flow."""
    if not game.deck or not can_use(game, seat, DEEP_SLEEP):
        return
    if ask(game, "deep_sleep", [0, 1]):
        use_card(game, seat, DEEP_SLEEP)
        slot = game.deck.pop(0)
        game.flow.insert(0, (slot.card, slot.side))
        reveal_top(game)


def offer_compass(game: Game, seat: int) -> None:
    """P8.5: before any card resolves, the flow may be put in any order."""
    if len(game.flow) < 2 or not can_use(game, seat, COMPASS):
        return
    order = ask(game, "compass", len(game.flow))
    if order is not None:
        use_card(game, seat, COMPASS)
        game.flow = [game.flow[i] for i in order]


def resolve_flow(game: Game, seat: int) -> list[tuple[int, int]]:
    """P4.3: resolve the flow card by card, farthest first, each completely (P3.1: waking stops it).
    Returns the nightmarish cards discarded this turn (P8.8)."""
    nightmares: list[tuple[int, int]] = []
    while game.flow and not game.over:
        card, side = game.flow.pop(0)
        resolve_card(game, seat, card, side, nightmares)
    game.flow = []
    return nightmares


def resolve_card(game: Game, seat: int, card: int, side: int, nightmares: list) -> None:
    """One card: the action cards that act before it (P8.2, P8.4, P8.7), its value (P3.1), its symbol (P5)."""
    cards = game.cards
    while True:
        options = [RESOLVE]
        symbol = cards.symbol(card, side)
        if symbol in (CROSS, EQUAL) and can_use(game, seat, BARRIER):
            options.append(USE_BARRIER)
        if symbol == CROSS and can_use(game, seat, SHIMMER):
            options.append(USE_SHIMMER)
        if can_use(game, seat, SUPPRESSION):
            options.append(USE_SUPPRESSION)
        choice = ask(game, "resolve", options, card=card, side=side)
        if choice == USE_BARRIER:                     # P8.2: no effect; to the bottom, in plain view
            use_card(game, seat, BARRIER, (card, side))
            game.deck.append(Slot(card, side, ALL_SEATS))
            return
        if choice == USE_SUPPRESSION:                 # P8.7: set aside for the seat's next turn
            use_card(game, seat, SUPPRESSION, (card, side))
            game.aside[seat].append((card, side))
            return
        if choice == USE_SHIMMER:                     # P8.4: the card shows its front again
            use_card(game, seat, SHIMMER, (card, side))
            side = 0
            continue
        break
    value = cards.value(card, side)
    after = min(game.setup.wake_limit, max(0, game.wake[seat] + value))
    say(game, f"seat {seat + 1} resolves {cards.label(card, side)}: wakefulness {game.wake[seat]} -> {after}")
    raise_wake(game, seat, value)
    if game.over:
        return
    if symbol == FLIP and game.deck and ask(game, "flip", [0, 1], card=card, side=side):
        raise_wake(game, seat, -game.setup.flip_extra)   # P5.2: the extra point, never below 0 (knob flip)
        say(game, f"seat {seat + 1} flips it (wakefulness {game.wake[seat]})")
        reveal(game, card, 1)                         # P5.2: the flipped card is shown to the other player
        insert_secretly(game, seat, card, 1)
        return
    game.discard.append((card, side))                 # P5.1, P5.3
    if value > 0:
        nightmares.append((card, side))               # P8.8: nightmarish = raised wakefulness


def place_options(game: Game) -> list[int]:
    """P5.4: a secret position is any of 1..d (0 is the top, which shows); solo: exactly the centre."""
    d = len(game.deck)
    if game.players == 1:
        return [(d + 1) // 2]
    return list(range(1, d + 1))


def insert_secretly(game: Game, seat: int, card: int, side: int) -> None:
    """P5.2, P5.4: the inserting seat alone knows where the card went (solo: the centre, known).
    P9.4: any other seat no longer knows where its known cards below the top are (each may have moved
    down one place), so it forgets those positions."""
    pos = ask(game, "place", place_options(game), card=card, side=side)
    game.deck.insert(pos, Slot(card, side, 1 << seat))
    keep = ~ALL_SEATS | 1 << seat
    for slot in game.deck[1:]:
        slot.known &= keep
    say(game, f"seat {seat + 1} puts {game.cards.label(card, side)} back into the deck")


def offer_recurring(game: Game, seat: int, nightmares: list[tuple[int, int]]) -> None:
    """P8.8: after the flow, nightmarish cards may go back to secret positions instead of the discard."""
    if not nightmares or not game.deck or not can_use(game, seat, RECURRING):
        return
    chosen = ask(game, "recurring", len(nightmares))
    if not chosen:
        return
    use_card(game, seat, RECURRING)
    for i in chosen:
        game.discard.remove(nightmares[i])
        insert_secretly(game, seat, *nightmares[i])


def end_turn(game: Game, seat: int) -> None:
    """P6.2: asleep, empty deck and no card set aside: the seat wins. Otherwise the next seat plays."""
    if not game.deck and not game.aside[seat]:
        game.over = True
        game.winner = seat
        say(game, f"seat {seat + 1} ends the turn asleep on an empty deck and wins")
        return
    game.active = (seat + 1) % game.players


# ---------------------------------------------------------------- bots (P9: they read only what they know)

def knows(game: Game, seat: int, i: int) -> bool:
    """P9.1: the top card shows; other slots are known through Premonition, Barrier or own placing."""
    return i == 0 or bool(game.deck[i].known >> seat & 1)


def face_known(game: Game, card: int, side: int) -> bool:
    """P9.5: a front is public; a back only once it has been seen (or in the public-backs variant)."""
    return side == 0 or game.back_seen[card]


def seen_value(game: Game, card: int, side: int) -> int:
    """The value a bot may count for a face (P9.5): the real one when the face is known, else UNSEEN_BACK."""
    return game.cards.value(card, side) if face_known(game, card, side) else UNSEEN_BACK


def exact(game: Game, seat: int, i: int) -> bool:
    """The seat knows both which card is in slot i and the value of its showing face (P9.1, P9.5)."""
    return knows(game, seat, i) and face_known(game, game.deck[i].card, game.deck[i].side)


def unseen_total(game: Game, seat: int) -> tuple[int, int, bool]:
    """Sum of the values the seat may count (P9.5) and count of the deck cards it cannot place exactly,
    and whether those values may differ (P9.2: the deck's contents are public, only their order is
    hidden; unplaced cards of one known value are as good as known; an unseen back is never known)."""
    total = count = 0
    low, high = WAKE_LIMIT, -WAKE_LIMIT
    hidden = False
    for i, slot in enumerate(game.deck):
        if not exact(game, seat, i):
            v = seen_value(game, slot.card, slot.side)
            hidden = hidden or not face_known(game, slot.card, slot.side)
            total += v
            count += 1
            low, high = min(low, v), max(high, v)
    return total, count, hidden or (count > 1 and low < high)


class RandomAgent:
    """Uniform over the legal options, from the game's decision stream."""

    def __init__(self, rng: GameRng) -> None:
        self.rng = rng

    def choose(self, game: Game, kind: str, options, info):
        return random_choice(self.rng, kind, options)


def random_choice(rng: GameRng, kind: str, options):
    if kind == "compass":
        if rng.below(2) == 0:
            return None
        order = list(range(options))
        rng.shuffle(order)
        return tuple(order)
    if kind == "recurring":
        return tuple(i for i in range(options) if rng.below(2))
    return options[rng.below(len(options))]


class ThresholdAgent:
    """The threshold bot: deterministic rules of thumb over what the seat knows."""

    def choose(self, game: Game, kind: str, options, info):
        return threshold_choice(game, kind, options, info)


def threshold_choice(game: Game, kind: str, options, info):
    seat = game.active
    if kind == "turn":
        return threshold_turn(game, seat, options)
    if kind == "deep_sleep":
        return threshold_deep_sleep(game, seat)
    if kind == "compass":
        return threshold_compass(game, seat)
    if kind == "resolve":
        return threshold_resolve(game, seat, options, info["card"], info["side"])
    if kind == "flip":
        return threshold_flip(game, seat, info["card"])
    if kind == "place":
        return threshold_place(game, options, info["card"], info["side"])
    return threshold_recurring(game, options)


def threshold_turn(game: Game, seat: int, options: list[int]) -> int:
    """Mirror when the deck's other sides are kinder by 2 or more in all; Premonition from wakefulness 2
    when the 2nd or 3rd card is unknown; then the flow size with the lowest expected final wakefulness
    whose expected peak stays below 4 (5 when the flow's unplaced cards all have one value), the whole
    deck when that is safe."""
    cards = game.cards
    if TURN_MIRROR in options:                        # P9.5: unseen backs count UNSEEN_BACK
        delta = sum(seen_value(game, s.card, 1 - s.side) - seen_value(game, s.card, s.side) for s in game.deck)
        if delta <= -2:
            return TURN_MIRROR
    if TURN_PREMONITION in options and game.wake[seat] >= 2:
        if any(not exact(game, seat, i) for i in range(1, min(game.setup.premonition, len(game.deck)))):
            return TURN_PREMONITION
    d = len(game.deck)
    if d == 0:
        return 0
    total, count, varied = unseen_total(game, seat)
    scale = max(count, 1)
    best, best_final = 1, None
    wake_limit = game.setup.wake_limit
    for n in range(1, min(game.setup.max_flow, d) + 1):
        w = game.wake[seat] * scale
        safe, all_known = True, True
        for card, side in reversed(game.aside[seat]):
            w = max(0, w + cards.value(card, side) * scale)
        for i in range(n - 1, -1, -1):
            if exact(game, seat, i):
                w = max(0, w + cards.value(game.deck[i].card, game.deck[i].side) * scale)
            else:
                all_known = all_known and not varied
                w = max(0, w + total)
            limit = wake_limit if all_known else wake_limit - 1
            if w >= limit * scale:
                safe = False
        if not safe:
            continue
        if n == d:
            return n
        if best_final is None or w < best_final:
            best, best_final = n, w
    return best


def threshold_deep_sleep(game: Game, seat: int) -> int:
    """Deep Sleep when the showing top card lowers wakefulness and there is wakefulness to lower."""
    top = game.deck[0]
    return int(game.cards.value(top.card, top.side) <= -1 and game.wake[seat] >= 1)


def flow_outcome(game: Game, seat: int, flow: list[tuple[int, int]]) -> tuple[int, int]:
    """(woke, final wakefulness) of resolving ``flow`` by value alone."""
    w = game.wake[seat]
    for card, side in flow:
        w = max(0, w + game.cards.value(card, side))
        if w >= game.setup.wake_limit:
            return 1, w
    return 0, w


def threshold_compass(game: Game, seat: int):
    """Dream Compass: greedily the largest value that still fits under 5, else the lowest; use the card
    when that order ends better (not woken, then lower final wakefulness)."""
    cards = game.cards
    left = list(range(len(game.flow)))
    w = game.wake[seat]
    order = []
    while left:
        pick = -1
        for i in left:
            v = cards.value(*game.flow[i])
            if w + v < game.setup.wake_limit and (pick < 0 or v > cards.value(*game.flow[pick])):
                pick = i
        if pick < 0:
            for i in left:
                if pick < 0 or cards.value(*game.flow[i]) < cards.value(*game.flow[pick]):
                    pick = i
        order.append(pick)
        left.remove(pick)
        w = max(0, w + cards.value(*game.flow[pick]))
    if flow_outcome(game, seat, [game.flow[i] for i in order]) < flow_outcome(game, seat, game.flow):
        return tuple(order)
    return None


def threshold_resolve(game: Game, seat: int, options: list[int], card: int, side: int) -> int:
    """Barrier a card that would wake the seat, or is worth +3 or more while the deck is not empty
    (a Barrier on an empty deck would spoil the empty-deck win, P6.2); Shimmer a back that would wake
    it or whose front is 2 or more kinder; Suppression for a card that would wake it."""
    cards = game.cards
    v = cards.value(card, side)
    w = game.wake[seat]
    limit = game.setup.wake_limit
    if USE_BARRIER in options and (w + v >= limit or (v >= 3 and len(game.deck) > 0)):
        return USE_BARRIER
    if USE_SHIMMER in options and cards.front[card] < v and (w + v >= limit or v - cards.front[card] >= 2):
        return USE_SHIMMER
    if USE_SUPPRESSION in options and w + v >= limit:
        return USE_SUPPRESSION
    return RESOLVE


def threshold_flip(game: Game, seat: int, card: int) -> int:
    """Flip for the extra point when awake enough for it to count; solo (where the card comes back to the
    player) not when its back has been seen to be above +1 (P9.5: decided before looking at the back,
    rulebook lines 37-39, so an unseen back counts UNSEEN_BACK; never flipping an unseen back would throw
    away the extra points the solo player needs)."""
    return int(game.wake[seat] >= 1 and (game.players == 2 or seen_value(game, card, 1) <= 1))


def threshold_place(game: Game, options: list[int], card: int, side: int) -> int:
    """A nightmare just under the top (for the opponent), anything else at the bottom."""
    return options[0] if game.cards.value(card, side) > 0 else options[-1]


def threshold_recurring(game: Game, count: int):
    """Two players: every nightmare goes back for the opponent; solo: never (they would come back to you)."""
    return tuple(range(count)) if game.players == 2 else ()


def model_cards(game: Game) -> CardList:
    """The card list as the seats may know it (P9.5): a back no one has seen has the value UNSEEN_BACK."""
    c = game.cards
    back = tuple(b if not f or game.back_seen[i] else UNSEEN_BACK for i, (f, b) in enumerate(zip(c.flip, c.back)))
    return CardList(c.names, c.flip, c.front, back, c.source)


def sample_world(game: Game, seat: int, rng: GameRng, cards: CardList | None = None) -> Game:
    """A copy of the game whose deck order is redrawn where ``seat`` cannot see it (P9.3): the cards of
    the unknown slots, taken in a fixed order (sorted, so the real order cannot leak in, P9.4), are
    shuffled among those slots; ``cards`` (model_cards) replaces the values no seat has seen (P9.5)."""
    world = game.copy()
    if cards is not None:
        world.cards = cards
    slots = [i for i in range(len(world.deck)) if not knows(world, seat, i)]
    contents = sorted((world.deck[i].card, world.deck[i].side, world.deck[i].known) for i in slots)
    rng.shuffle(contents)
    for i, (c, s, k) in zip(slots, contents):
        world.deck[i] = Slot(c, s, k)
    return world


class SearchAgent:
    """search@K: at every "turn" decision, K sampled deck orders, each option played out with the
    threshold bot for everyone; the option with the most wins (first on ties). Threshold elsewhere."""

    def __init__(self, rng: GameRng, budget: int) -> None:
        self.rng = rng
        self.budget = budget

    def choose(self, game: Game, kind: str, options, info):
        if kind != "turn":
            return threshold_choice(game, kind, options, info)
        return search_turn(game, game.active, options, self.rng, self.budget)


def search_turn(game: Game, seat: int, options: list[int], rng: GameRng, budget: int) -> int:
    """K sampled worlds; in each, every option is played out (the same worlds for all options)."""
    wins = [0] * len(options)
    cards = model_cards(game)
    for _ in range(budget):
        world = sample_world(game, seat, rng, cards)
        for j, option in enumerate(options):
            wins[j] += playout(world.copy(), seat, option)
    return options[wins.index(max(wins))]


def playout(game: Game, seat: int, option: int) -> int:
    """Play ``option`` at the pending "turn" decision, then the threshold bot for every seat to the
    end; 1 when ``seat`` wins."""
    game.agents = [ThresholdAgent()] * game.players
    if option < TURN_MIRROR:
        n = option
    else:
        use_start_card(game, seat, option)
        n = playout_start_of_turn(game, seat)
    rest_of_turn(game, seat, n)
    while not game.over:
        game.turns += 1
        n = playout_start_of_turn(game, game.active)
        rest_of_turn(game, game.active, n)
        if game.turns >= MAX_TURNS:
            raise RuntimeError("Pleasant Dreams game did not end")
    return int(game.winner == (0 if game.players == 1 else seat))


def playout_start_of_turn(game: Game, seat: int) -> int:
    """start_of_turn with the threshold bot's choices (the playouts' own loop, as in the fast engine,
    where it keeps the search out of its own call graph)."""
    while True:
        options = turn_options(game, seat)
        choice = options[0] if len(options) == 1 else threshold_turn(game, seat, options)
        if choice < TURN_MIRROR:
            return choice
        use_start_card(game, seat, choice)


def play_one(setup: Setup, bots: list[Bot], seed: int, game_index: int, log: list[str] | None = None) -> Game:
    """Game ``game_index`` from start to end. Seats share the one decision stream of the game."""
    game = new_game(setup, seed, game_index, [b.banned for b in bots])
    rng = GameRng.decisions(seed, game_index)
    agents = []
    for b in bots:
        if b.kind == 0:
            agents.append(RandomAgent(rng))
        elif b.kind == 1:
            agents.append(ThresholdAgent())
        else:
            agents.append(SearchAgent(rng, b.budget))
    game.agents = agents
    game.log = log
    return play_game(game)
