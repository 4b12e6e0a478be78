"""Counting Zzzzs, the readable reference engine: the rulebook as code, decision ids from interpretations.md.

A :class:`Game` holds one game (TAG's GameState); the functions below are its forward model in the
order of a turn (Z3): the draw (and morning, Z4), the element into the own dream (Z3.2, Z5, Z7, Z8),
the second play (Z3.3: a discard, an element into an opponent's dream, or an action card with its Blocks,
Z9-Z13), the scoring of woken dreams (Z14) and the win at 40 (Z15). Every choice goes through
:func:`ask`, which hands the legal options (ascending codes, Z18.2) to the deciding seat's agent; a
single option is taken without asking (Z18.1).

The numba engine :mod:`.fast` mirrors this module function for function, same names, same order. The
bots live in :mod:`.bots` and read only what their seat may know (Z17).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from simcore.rng import GameRng

from .common import (BEND_OWN, BEND_THEME, BEND_TYPE, BENDER, BLOCK, CANCEL_ANY, CAUSE_CARD, CAUSE_MORNING,
                     CAUSE_STUCK, CAUSE_TEN, CONTEXT, END_FORTY, END_MORNING, FORCE_NEGATIVE,
                     FORCE_POSITIVE, FORCE_THEME0, FORCED_NEG, FORCED_POS, NEGATIVE, POSITIVE, UNFORCED,
                     WAKE_ONE, WAKE_SELF, WAKE_UP, CardSet, Setup)

# Option codes (Z18.2): MOVE * move + TARGET * target + card row. Targets: a seat, or for a Force on a
# context card SLOT * seat + position in the dream.
MOVE, TARGET, SLOT = 1 << 16, 1 << 8, 16
M_DISCARD, M_ELEMENT, M_WAKE, M_BENDER, M_FORCE = range(5)
PASS = -1                     # "extra" and "block": play nothing
NO_BEND = -1
MAX_TURNS = 2000              # a deck of 400 cards ends far sooner (every turn draws, Z3.1); a safety net
KINDS = ("element", "second", "extra", "block")


class Pending(Exception):
    """Raised by a scripted agent that has no answer left: the game waits at this decision."""

    def __init__(self, kind: str, seat: int) -> None:
        super().__init__(kind)
        self.kind = kind
        self.seat = seat


def encode(move: int, target: int, card: int) -> int:
    return move * MOVE + target * TARGET + card


def decode(code: int) -> tuple[int, int, int]:
    """(move, target, card) of an option code."""
    return code // MOVE, code % MOVE // TARGET, code % TARGET


@dataclass
class Dream:
    """One player's dream: element card rows in play order, each one's forced polarity (Z11) and the
    Force card under it (-1: none), and a Force placeholder at the end (Z12; -1: none)."""

    cards: list[int] = field(default_factory=list)
    forced: list[int] = field(default_factory=list)
    force_card: list[int] = field(default_factory=list)
    holder_theme: int = -1
    holder_card: int = -1

    def copy(self) -> "Dream":
        return Dream(list(self.cards), list(self.forced), list(self.force_card), self.holder_theme, self.holder_card)


@dataclass
class Game:
    """One game of Counting Zzzzs (TAG's GameState). ``deck[0]`` is the top; hands, the discard pile and
    the Wake Ups removed at setup (Z2.2, public unless the variant hidden-removal) are counts per card row."""

    setup: Setup
    cards: CardSet
    deck: list[int]
    hands: list[list[int]]
    dreams: list[Dream]
    discard: list[int]
    banned: list[int]
    score: list[int] = field(default_factory=list)
    active: int = 0
    turns: int = 0
    over: bool = False
    end: int = 0
    winners: list[int] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    agents: list = field(default_factory=list)
    log: list[str] | None = None
    removed: list[int] = field(default_factory=list)

    @property
    def players(self) -> int:
        return self.setup.players

    def copy(self) -> "Game":
        """An independent copy (agents and log are not copied)."""
        stats = {k: [list(r) for r in v] for k, v in self.stats.items()}
        return Game(self.setup, self.cards, list(self.deck), [list(h) for h in self.hands],
                    [d.copy() for d in self.dreams], list(self.discard), list(self.banned), list(self.score),
                    self.active, self.turns, self.over, self.end, list(self.winners), stats,
                    removed=list(self.removed))


def empty_stats(players: int, cards: CardSet) -> dict:
    e = sum(cards.element)
    return {"dreams": [[0] for _ in range(players)], "dream_elements": [[0] for _ in range(players)],
            "scored_dreams": [[0] for _ in range(players)], "woke": [[0] * 4 for _ in range(players)],
            "played": [[0] * 4 for _ in range(players)], "blocked": [[0] * 4 for _ in range(players)],
            "element_scored": [[0] * e for _ in range(players)]}


def blank_game(setup: Setup, banned: list[int] | None = None) -> Game:
    """A game with no cards anywhere (scenarios fill it in)."""
    p, n = setup.players, len(setup.cards)
    return Game(setup, setup.cards, [], [[0] * n for _ in range(p)], [Dream() for _ in range(p)], [0] * n,
                list(banned or [0] * p), [0] * p, stats=empty_stats(p, setup.cards), removed=[0] * n)


def say(game: Game, text: str) -> None:
    if game.log is not None:
        game.log.append(text)


def name(game: Game, c: int) -> str:
    return game.cards.names[c]


def new_game(setup: Setup, seed: int, game_index: int, banned: list[int] | None = None) -> Game:
    """Game ``game_index``'s deal (Z2): shuffle every copy, take out Wake Ups, deal the hands."""
    cards = setup.cards
    game = blank_game(setup, banned)
    rng = GameRng(seed, game_index)
    deck = [c for c in range(len(cards)) for _ in range(cards.count[c])]
    rng.shuffle(deck)                                              # Z2.1
    deal(game, deck)
    return game


def deal(game: Game, deck: list[int]) -> None:
    """Z2.2, Z2.3 from a deck order (top first, every copy of the card file): the first N Wake Ups from the
    top are taken out (recorded in ``game.removed``; who sees them: Z17.1), then the hands are dealt one
    card at a time, the first player first."""
    cards, setup = game.cards, game.setup
    left = setup.removed
    kept = []
    for c in deck:
        if left and not cards.element[c] and cards.kind[c] == WAKE_UP:
            left -= 1
            game.removed[c] += 1
        else:
            kept.append(c)
    game.deck = kept
    for _ in range(setup.hand):                                    # Z2.3
        for s in range(setup.players):
            game.hands[s][game.deck.pop(0)] += 1


def ask(game: Game, seat: int, kind: str, options: list[int], info=None) -> int:
    """Seat ``seat``'s answer among ``options``; a single option is taken without asking (Z18.1)."""
    if len(options) == 1:
        return options[0]
    return game.agents[seat].choose(game, seat, kind, options, info)


def may_play(game: Game, seat: int, kind: int) -> bool:
    """The seat's bot may play action cards of this kind (restricted play: BOT/no-ACTION)."""
    return not game.banned[seat] >> kind & 1


# ---------------------------------------------------------------- the turn (Z3)

def play_game(game: Game) -> Game:
    while not game.over:
        play_turn(game)
        if game.turns >= MAX_TURNS:
            raise RuntimeError("Counting Zzzzs game did not end")
    return game


def play_turn(game: Game) -> None:
    """One turn of the active seat (Z3): draw, own element, second play, next seat."""
    game.turns += 1
    seat = game.active
    say(game, f"turn {game.turns}: seat {seat + 1} ({game.score[seat]} points, dream of "
              f"{len(game.dreams[seat].cards)}), {len(game.deck)} cards in the deck")
    if draw_up(game, seat):
        return
    if element_step(game, seat) and not game.over:
        second_step(game, seat)
    if not game.over:
        end_turn(game, seat)


def draw_up(game: Game, seat: int) -> bool:
    """Z3.1, Z4.1: draw to 5, one card at a time; pulling the last card brings morning (True)."""
    hand = game.hands[seat]
    while sum(hand) < game.setup.hand:
        hand[game.deck.pop(0)] += 1
        if not game.deck:
            say(game, f"seat {seat + 1} pulls the last card: morning")
            morning(game)
            return True
    return False


def element_step(game: Game, seat: int) -> bool:
    """Z3.2: an element into the own dream; False when the turn ends here (Z7 stuck, Z8 the 10th)."""
    options = element_options(game, seat)
    if not options:
        stuck(game, seat)
        return False
    card = ask(game, seat, "element", options)
    return play_own_element(game, seat, card)


def second_step(game: Game, seat: int) -> None:
    """Z3.3: the second play."""
    code = ask(game, seat, "second", second_options(game, seat))
    do_second(game, seat, code)


def end_turn(game: Game, seat: int) -> None:
    game.active = (seat + 1) % game.players


def play_own_element(game: Game, seat: int, card: int) -> bool:
    """The step-Z3.2 element; True when the player is still asleep (Z8.1)."""
    say(game, f"seat {seat + 1} dreams {name(game, card)}")
    return not put_element(game, seat, seat, card)


# ---------------------------------------------------------------- sequencing (Z5, Z6)

def can_follow(game: Game, owner: int, card: int, bend: int, own: bool) -> bool:
    """May ``card`` go into ``owner``'s dream? ``own``: the player's own dream (may be empty, Z5.1);
    ``bend``: BEND_THEME / BEND_TYPE waive that condition (Z10.1)."""
    cards = game.cards
    dream = game.dreams[owner]
    if not dream.cards:
        return own                                                 # Z6.1: nobody starts a dream for another
    last = dream.cards[-1]
    if bend != BEND_TYPE and cards.kind[card] == cards.kind[last]:
        return False                                               # Z5.1 kinds differ
    if bend == BEND_THEME:
        return True
    need = 1 << dream.holder_theme if dream.holder_theme >= 0 else cards.themes[last]   # Z5.2
    return bool(cards.themes[card] & need)


def element_options(game: Game, seat: int) -> list[int]:
    """Z3.2: the element rows in hand that may follow in the own dream."""
    cards = game.cards
    return [c for c in range(len(cards)) if game.hands[seat][c] and cards.element[c]
            and can_follow(game, seat, c, NO_BEND, True)]


def put_element(game: Game, by: int, owner: int, card: int) -> bool:
    """``by`` plays ``card`` from hand into ``owner``'s dream, over a placeholder (Z12.1); the 10th
    element wakes the owner (Z6.2, Z8.1). True when the owner woke."""
    game.hands[by][card] -= 1
    dream = game.dreams[owner]
    dream.cards.append(card)
    dream.forced.append(UNFORCED)
    dream.force_card.append(-1)
    if dream.holder_card >= 0:
        game.discard[dream.holder_card] += 1
        dream.holder_theme = dream.holder_card = -1
    if len(dream.cards) >= game.setup.max_dream:
        say(game, f"seat {owner + 1}'s dream reaches {game.setup.max_dream} elements")
        wake(game, owner, CAUSE_TEN, False)
        check_forty(game)
        return True
    return False


# ---------------------------------------------------------------- scoring and waking (Z14-Z16)

def dream_points(cards: CardSet, dream: Dream) -> int:
    """Z14.1-Z14.5 without the 5-element threshold: base + values + modifiers."""
    pos = neg = 0
    for c, f in zip(dream.cards, dream.forced):
        pol = cards.polarity[c]
        if pol == POSITIVE or (pol == CONTEXT and f == FORCED_POS):
            pos += 1
        elif pol == NEGATIVE or (pol == CONTEXT and f == FORCED_NEG):
            neg += 1
    total = len(dream.cards)                                       # Z14.1 base
    for i, (c, f) in enumerate(zip(dream.cards, dream.forced)):
        pol = cards.polarity[c]
        if pol == POSITIVE:
            total += cards.plus[c]
        elif pol == NEGATIVE:
            total -= cards.minus[c]
        elif pol == CONTEXT:                                       # Z14.2 the tally turns unforced ones
            if f == FORCED_POS or (f == UNFORCED and pos > neg):
                total += cards.plus[c]
            elif f == FORCED_NEG or (f == UNFORCED and neg > pos):
                total -= cards.minus[c]
        for row, points, need in cards.modifiers:                  # Z14.4
            if row == c and any(d == need for j, d in enumerate(dream.cards) if j != i):
                total += points
    return total


def wake(game: Game, seat: int, cause: int, at_morning: bool) -> None:
    """The seat wakes: its dream is scored (5+ elements, or any at morning, Z14.1, Z16.1) and discarded."""
    dream = game.dreams[seat]
    n = len(dream.cards)
    if n:
        st = game.stats
        st["dreams"][seat][0] += 1
        st["dream_elements"][seat][0] += n
        st["woke"][seat][cause] += 1
        if n >= game.setup.min_dream or at_morning:
            points = dream_points(game.cards, dream)
            game.score[seat] += points
            st["scored_dreams"][seat][0] += 1
            for c in dream.cards:
                st["element_scored"][seat][c] += 1          # element rows come first in a CardSet
            say(game, f"seat {seat + 1} wakes and scores {points} for a dream of {n} (total {game.score[seat]})")
        else:
            say(game, f"seat {seat + 1} wakes; a dream of {n} elements does not count")
    for c in dream.cards:
        game.discard[c] += 1
    for c in dream.force_card:
        if c >= 0:
            game.discard[c] += 1
    if dream.holder_card >= 0:
        game.discard[dream.holder_card] += 1
    game.dreams[seat] = Dream()


def set_winners(game: Game, end: int) -> None:
    """The highest total wins; equal highest totals share (Z15.2, Z16.2)."""
    best = max(game.score)
    game.winners = [s for s in range(game.players) if game.score[s] == best]
    game.over = True
    game.end = end
    say(game, f"seat(s) {', '.join(str(s + 1) for s in game.winners)} win with {best} points")


def check_forty(game: Game) -> None:
    """Z15.1: after every scoring, the goal (40; knob goal) or more wins."""
    if not game.over and max(game.score) >= game.setup.goal:
        set_winners(game, END_FORTY)


def morning(game: Game) -> None:
    """Z16: every started dream is scored, short ones too; the most points win."""
    for s in range(game.players):
        wake(game, s, CAUSE_MORNING, True)
    set_winners(game, END_MORNING)


def stuck(game: Game, seat: int) -> None:
    """Z7.1: no valid element: the hand is discarded, the seat wakes and the turn ends."""
    hand = game.hands[seat]
    say(game, f"seat {seat + 1} has no element to play and discards the hand")
    for c in range(len(hand)):
        game.discard[c] += hand[c]
        hand[c] = 0
    wake(game, seat, CAUSE_STUCK, False)
    check_forty(game)


# ---------------------------------------------------------------- the second play (Z3.3, Z9-Z13)

def second_options(game: Game, seat: int) -> list[int]:
    """Every legal second play, ascending codes (Z18.2)."""
    cards, hand, p = game.cards, game.hands[seat], game.players
    out = []
    for c in range(len(cards)):
        if not hand[c]:
            continue
        out.append(encode(M_DISCARD, 0, c))                        # Z3.3 a discard is always possible
        if cards.element[c]:
            for s in range(p):
                if s != seat and can_follow(game, s, c, NO_BEND, False):
                    out.append(encode(M_ELEMENT, s, c))            # Z6.1
            continue
        kind, effect = cards.kind[c], cards.effect[c]
        if kind == BLOCK or not may_play(game, seat, kind):
            continue                                               # Z3.4
        started = [s for s in range(p) if game.dreams[s].cards]
        if kind == WAKE_UP:                                        # Z9.1, Z9.2
            if effect == WAKE_ONE:
                out += [encode(M_WAKE, s, c) for s in started if s != seat]
            else:
                out.append(encode(M_WAKE, 0, c))
        elif kind == BENDER:
            out.append(encode(M_BENDER, 0, c))                     # Z10.2
        elif effect <= FORCE_NEGATIVE:                             # Z11.1, Z11.2
            for s in started:
                d = game.dreams[s]
                out += [encode(M_FORCE, SLOT * s + i, c) for i, e in enumerate(d.cards)
                        if cards.polarity[e] == CONTEXT and d.forced[i] == UNFORCED]
        else:                                                      # Z12.1
            out += [encode(M_FORCE, s, c) for s in started if game.dreams[s].holder_card < 0]
    return sorted(out)


def do_second(game: Game, seat: int, code: int) -> None:
    """Carry out a second play."""
    move, target, card = decode(code)
    cards = game.cards
    if move == M_DISCARD:
        game.hands[seat][card] -= 1
        game.discard[card] += 1
        say(game, f"seat {seat + 1} discards {name(game, card)}")
        return
    if move == M_ELEMENT:
        say(game, f"seat {seat + 1} plays {name(game, card)} into seat {target + 1}'s dream")
        put_element(game, seat, target, card)
        return
    kind = cards.kind[card]
    game.hands[seat][card] -= 1
    game.discard[card] += 1                                        # actions are discarded once played
    game.stats["played"][seat][kind] += 1
    say(game, f"seat {seat + 1} plays {cards.describe(card)}")
    if blocked(game, seat, code):
        game.stats["blocked"][seat][kind] += 1
        return
    if move == M_WAKE:
        wake_targets(game, seat, target, card)
    elif move == M_BENDER:
        extra_play(game, seat, cards.effect[card])
    else:
        place_force(game, target, card)


def blocked(game: Game, seat: int, code: int) -> bool:
    """Z13.2: the other seats, in turn order from the next one, may cancel the action with a Block."""
    cards = game.cards
    kind = cards.kind[decode(code)[2]]
    for k in range(1, game.players):
        b = (seat + k) % game.players
        if not may_play(game, b, BLOCK):
            continue
        options = [PASS] + [c for c in range(len(cards)) if game.hands[b][c] and not cards.element[c]
                            and cards.kind[c] == BLOCK and cards.effect[c] in (kind, CANCEL_ANY)]
        choice = ask(game, b, "block", options, code)
        if choice != PASS:
            game.hands[b][choice] -= 1
            game.discard[choice] += 1
            game.stats["played"][b][BLOCK] += 1
            say(game, f"seat {b + 1} blocks it with {name(game, choice)}")
            return True
    return False


def wake_seats(game: Game, seat: int, target: int, card: int) -> list[int]:
    """Z9.1: the seats a Wake Up played by ``seat`` wakes (those with a started dream), in turn order."""
    effect = game.cards.effect[card]
    if effect == WAKE_SELF:
        seats = [seat]
    elif effect == WAKE_ONE:
        seats = [target]
    else:
        seats = [(seat + k) % game.players for k in range(game.players)]
    return [s for s in seats if game.dreams[s].cards]


def wake_targets(game: Game, seat: int, target: int, card: int) -> list[int]:
    """Z9.1, Z9.3: wake every target, then Z15.2."""
    seats = wake_seats(game, seat, target, card)
    for s in seats:
        wake(game, s, CAUSE_CARD, False)                           # Z9.3 hands are kept
    check_forty(game)                                              # Z15.2 after all of them
    return seats


def extra_options(game: Game, seat: int, bend: int) -> list[int]:
    """Z10.1: PASS, then the extra element plays a Bender allows."""
    cards, hand = game.cards, game.hands[seat]
    out = [PASS]
    for c in range(len(cards)):
        if not hand[c] or not cards.element[c]:
            continue
        for s in range(game.players):
            if bend == BEND_OWN and s != seat:
                continue
            rule = NO_BEND if bend == BEND_OWN else bend
            if can_follow(game, s, c, rule, s == seat):
                out.append(encode(M_ELEMENT, s, c))
    return sorted(out)


def extra_play(game: Game, seat: int, bend: int) -> None:
    """Z10.1, Z10.2: the Bender's one extra element play (optional)."""
    code = ask(game, seat, "extra", extra_options(game, seat, bend), bend)
    if code != PASS:
        _, owner, card = decode(code)
        say(game, f"seat {seat + 1} bends the rules: {name(game, card)} into seat {owner + 1}'s dream")
        put_element(game, seat, owner, card)


def place_force(game: Game, target: int, card: int) -> None:
    """Z11.1 under a context card, or Z12.1 a placeholder at the end of a dream."""
    effect = game.cards.effect[card]
    if effect <= FORCE_NEGATIVE:
        owner, pos = divmod(target, SLOT)
        d = game.dreams[owner]
        d.forced[pos] = FORCED_POS if effect == FORCE_POSITIVE else FORCED_NEG
        d.force_card[pos] = card
        game.discard[card] -= 1                                    # it stays in the dream until scored
    else:
        d = game.dreams[target]
        d.holder_theme = effect - FORCE_THEME0
        d.holder_card = card
        game.discard[card] -= 1
