"""The reference engine: Project Dreamscape in plain Python, rule by rule.

This module is the specification in code. Every rule function is a generator
that ``yield``s a :class:`Decision` whenever a player must choose and receives
the choice back, so nested effects (Floating Free -> a card's Recurring Dream
-> ...) read top to bottom like the rulebook. Rule ids refer to
``shared/rules/interpretations.md``.

Use it through :class:`Game`::

    game = Game.new(deck, players=3, rng=GameRng(seed, g))   # the deal stream shuffles
    while not game.over:
        decision = game.pending            # kind, deciding seat, legal choices
        game.apply(decision.choices[0])    # an illegal choice raises, state untouched

Bots break their ties on the game's separate decision stream,
``GameRng.decisions(seed, g)`` (see :mod:`simcore.rng`).

The fast engine (:mod:`simcore.games.dreamscape.fast`) mirrors these functions one for one.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from simcore.games.dreamscape.cards import CODES, Card, DreamType, card_code, type_from_code
from simcore.games.dreamscape.decks import Deck, check_deck_fits
from simcore.rng import GameRng
from simcore.games.dreamscape.rules import N_POSITIONS, TURN_CAP, Options
from simcore.games.dreamscape.scoring import chain_points

Choice = Any  # a JSON value, as in conformance/FORMAT.md
Flow = Generator["Decision", Choice, Any]


class IllegalChoice(ValueError):
    """A choice the pending decision does not allow; the game is unchanged."""


@dataclass(frozen=True)
class Decision:
    """A point where a player must choose (R11: only with two or more options).

    Attributes
    ----------
    kind : str
        One of :data:`simcore.games.dreamscape.rules.DECISION_KINDS`.
    seat : int
        The deciding seat.
    choices : tuple
        The legal choices, JSON values as in conformance/FORMAT.md.
    card : int or None
        The card being performed or acted for, when there is one.
    on_discard_pile : bool
        A solo Floating Free whose choices index the discard pile (R10.1).
    """

    kind: str
    seat: int
    choices: tuple
    card: int | None = None
    on_discard_pile: bool = False

    def is_legal(self, choice: Choice) -> bool:
        if self.kind == "shifting_dreams":
            # Any of the 120 orders is legal (FORMAT.md); `choices` lists one
            # order per distinct outcome.
            return _is_permutation_of_positions(choice)
        key = _key(choice)
        return any(_key(c) == key for c in self.choices)


def _key(value: Choice) -> str:
    # JSON text tells true from 1, which == would not.
    return json.dumps(value, sort_keys=True)


def _is_permutation_of_positions(choice: Choice) -> bool:
    return (
        isinstance(choice, list)
        and all(isinstance(p, int) and not isinstance(p, bool) for p in choice)
        and sorted(choice) == list(range(1, N_POSITIONS + 1))
    )


# ============================================================================ state


@dataclass
class Seat:
    """One participant's area."""

    rem: list[int] = field(default_factory=list)  # card ids, bottom first
    deep_sleep: list[int] = field(default_factory=list)  # Z cards, bottom first (R3.3)
    spent: int = 0  # R3.1/R3.3: spending is a count, not a set
    reserved: list[int] = field(default_factory=list)  # R6.4, in reserve order
    ready: list[bool] = field(default_factory=list)  # parallel to `reserved`

    @property
    def z(self) -> int:
        return len(self.deep_sleep)

    @property
    def unspent(self) -> int:
        return len(self.deep_sleep) - self.spent


@dataclass
class GameState:
    """Everything on the table. Card ids index ``cards``; positions 1..5 are indices 0..4."""

    cards: list[Card]
    sleep_deck: list[int]  # top first
    dreamscape: list[int | None]
    face_down: list[bool]
    costs: list[int]
    discard: list[int]  # bottom first (last = top)
    seats: list[Seat]
    active: int = 0
    options: Options = Options()
    token_point: bool = False  # R9: the Sleep Token's +1 point is available this turn
    turns_played: int = 0
    seat_turns: list[int] = field(default_factory=list)
    game_over: bool = False
    aborted: bool = False
    winners: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    # The log's structured twin, one dict per line said (``dreamscape play --json``): None unless asked for.
    events: list[dict] | None = field(default=None, repr=False, compare=False)
    # Called with the state at the end of every turn (after Phase 3), for narration.
    on_turn_end: Callable[["GameState"], None] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.seat_turns:
            self.seat_turns = [0] * len(self.seats)

    # --- small queries -------------------------------------------------------
    @property
    def solo(self) -> bool:
        return len(self.seats) == 1  # R2.1, R10

    def code(self, card: int) -> str:
        return card_code(self.cards[card])

    def opponents(self, seat: int) -> list[int]:
        return [s for s in range(len(self.seats)) if s != seat]

    def budget(self, seat: int) -> int:
        """R3.1: unspent Z cards, plus the Sleep Token point while it is available (R9, knob token-point)."""
        return self.seats[seat].unspent + (self.options.token_point if self.token_point and seat == self.active else 0)

    def occupied(self) -> list[int]:
        """Positions (1..5) holding a card, either face."""
        return [p for p in range(1, N_POSITIONS + 1) if self.dreamscape[p - 1] is not None]

    def face_up_positions(self) -> list[int]:
        return [p for p in self.occupied() if not self.face_down[p - 1]]

    def positions_by_cost(self) -> list[int]:
        """Positions (1..5) from cheapest to most expensive by the current cost tokens.

        With equal costs (knob costs) the lower position counts as cheaper (R7.1, rules.KNOBS).
        """
        return sorted(range(1, N_POSITIONS + 1), key=lambda p: (self.costs[p - 1], p))

    def score(self, seat: int) -> int:
        """R8.2: chain points (by the knob chain's table) minus Z cards, of the position as it stands (the bots' view)."""
        st = self.seats[seat]
        return chain_points([self.cards[c] for c in st.rem], self.options.chain_table()) - st.z

    def final_score(self, seat: int) -> int:
        """R8.2 with the rules knobs z-penalty and bonus: what decides the game (R8.3).

        Equal to :meth:`score` with the knobs at the rulebook's values; the
        bots keep judging positions by :meth:`score`.
        """
        st = self.seats[seat]
        chain = chain_points([self.cards[c] for c in st.rem], self.options.chain_table())
        return self.options.final_score(chain, st.z, seat, len(self.seats))

    def draw(self) -> int:
        return self.sleep_deck.pop(0)

    def say(self, text: str, event: str | None = None, **fields: Any) -> None:
        """One line of the log; with ``events`` on, also ``{"event": event, **fields}`` (seats as indexes)."""
        self.log.append(text)
        if self.events is not None and event is not None:
            self.events.append({"event": event, **fields})


@dataclass
class Purchase:
    """What R6.12's loop guard remembers while one purchase resolves."""

    buyer: int
    performed: set[int] = field(default_factory=set)  # card identities


@dataclass(frozen=True)
class Performance:
    """One type being performed: who acts, for which card, and on which stacks.

    ``source_stack`` is the stack the source card is in for R6.6 (None for a
    card outside any stack, R6.10). ``own_stack`` is "your REM stack" for R6.1
    (the discard pile when a solo player targets it, R10.1). ``invader`` is
    the player who swapped this card in by Invasive Dreaming (R6.9).
    """

    acting: int
    card: int
    source_stack: list[int] | None
    own_stack: list[int]
    invader: int | None = None


# ============================================================================ decisions


def ask(kind: str, seat: int, choices: list, card: int | None = None, on_discard_pile: bool = False) -> Flow:
    """R11: stop only at decisions with two or more legal options.

    One legal option is taken without asking; none returns ``None`` (the
    effect then does nothing).
    """
    if not choices:
        return None
    if len(choices) == 1:
        return choices[0]
    return (yield Decision(kind, seat, tuple(choices), card, on_discard_pile))


# ============================================================================ a game


def play_game(s: GameState) -> Flow:
    """Turns until the game ends at R7.2 (or the R8.4 safety cap)."""
    while not s.game_over:
        yield from play_turn(s)


def play_turn(s: GameState) -> Flow:
    if s.turns_played >= TURN_CAP:  # R8.4
        s.game_over, s.aborted, s.winners = True, True, []
        s.say(f"The game hits the safety cap of {TURN_CAP} turns and is aborted.", "aborted", turns=TURN_CAP)
        return
    seat = s.active
    s.turns_played += 1
    s.seat_turns[seat] += 1
    s.say(f"--- Turn {s.turns_played}: seat {seat + 1} ---", "turn", turn=s.turns_played, seat=seat)
    if s.options.sleep_token:
        yield from use_sleep_token(s, seat)
    yield from deep_sleep_accumulation(s, seat)
    yield from direct_your_sleep(s, seat)
    if s.solo:
        yield from prepare_next_solo(s)
    else:
        prepare_next(s)
    if s.on_turn_end is not None:
        s.on_turn_end(s)


def use_sleep_token(s: GameState, seat: int) -> Flow:
    """R9: discard the top Z card (while holding 2+), take +1 budget, or pass.

    Discard needs one Z card more than the floor R3.2 keeps (knob z-floor); the point side adds the
    knob token-point (1 as printed).
    """
    choices = (["discard"] if s.seats[seat].z > s.options.z_floor else []) + ["point", "pass"]
    choice = yield from ask("sleep_token", seat, choices)
    if choice == "discard":
        discard_top_z(s, seat)
        s.say(f"Seat {seat + 1} flips the Sleep Token to restless sleep and discards a Z card.",
              "sleep_token", seat=seat, use="discard", z=s.seats[seat].z)
    elif choice == "point":
        s.token_point = True
        s.say(f"Seat {seat + 1} flips the Sleep Token to restful sleep: +{s.options.token_point} point this turn.",
              "sleep_token", seat=seat, use="point")


def deep_sleep_accumulation(s: GameState, seat: int) -> Flow:
    """R4.1: the player may take the Sleep Deck's top card as an unspent Z card.

    Knob take-z: that many cards, as far as the deck allows (0: Phase 1 asks nothing).
    """
    if not s.sleep_deck or not s.options.take_z:
        return
    take = yield from ask("take_z", seat, [True, False])
    if take:
        for _ in range(min(s.options.take_z, len(s.sleep_deck))):
            s.seats[seat].deep_sleep.append(s.draw())
        s.say(f"Seat {seat + 1} takes a Z card (now {s.seats[seat].z}).", "take_z", seat=seat, z=s.seats[seat].z)


def direct_your_sleep(s: GameState, seat: int) -> Flow:
    """R5.2: at least one purchase if any is affordable, then more or stop.

    The knob max-buys ends the phase after that many purchases (R5.2); the knob min-buys 0 lets the
    player stop before the first.
    """
    purchases = 0
    while True:
        if s.options.max_buys and purchases >= s.options.max_buys:
            return
        choices = purchase_options(s, seat) + (["stop"] if purchases >= s.options.min_buys else [])
        if not choices or choices == ["stop"]:
            return
        choice = yield from ask("buy", seat, choices)
        if choice == "stop":
            return
        yield from purchase(s, seat, choice)
        purchases += 1


def purchase_options(s: GameState, seat: int) -> list[dict]:
    """R5.1: a Dreamscape card at its position's cost, or a ready reserved card for 1 (knob reserve-cost)."""
    budget = s.budget(seat)
    options: list[dict] = [
        {"position": p} for p in s.occupied() if s.costs[p - 1] <= budget
    ]
    if budget >= s.options.reserve_cost:
        st = s.seats[seat]
        options += [{"reserved": i} for i, ready in enumerate(st.ready) if ready]
    return options


def pay(s: GameState, seat: int, cost: int) -> None:
    """R3.1: unspent Z cards first; the Sleep Token point covers only what they cannot."""
    st = s.seats[seat]
    from_z = min(cost, st.unspent)
    st.spent += from_z
    if cost > from_z:
        s.token_point = False  # R9: the token point is used up


def purchase(s: GameState, seat: int, choice: dict) -> Flow:
    st = s.seats[seat]
    if "position" in choice:
        p = choice["position"]
        cost = s.costs[p - 1]
        pay(s, seat, cost)
        card, was_face_down = take_from_dreamscape(s, p)
        if was_face_down:  # R5.4: a Z card goes to Deep Sleep unspent, nothing performed
            st.deep_sleep.append(card)
            s.say(f"Seat {seat + 1} buys the face-down card at position {p} for {cost}: a Z card (now {st.z}).",
                  "buy", seat=seat, card=None, position=p, cost=cost, face_down=True, z=st.z)
            return
        s.say(f"Seat {seat + 1} buys {s.code(card)} at position {p} for {cost}.",
              "buy", seat=seat, card=s.code(card), position=p, cost=cost, face_down=False)
    else:
        i = choice["reserved"]
        cost = s.options.reserve_cost
        pay(s, seat, cost)
        card = st.reserved.pop(i)
        st.ready.pop(i)
        s.say(f"Seat {seat + 1} buys reserved {s.code(card)} for {cost}.",
              "buy", seat=seat, card=s.code(card), position=None, cost=cost, reserved=True)
    st.rem.append(card)  # R5.3: on top of the REM stack, then perform one type
    yield from perform_card(s, Purchase(buyer=seat), card, seat, source_stack=st.rem)


def take_from_dreamscape(s: GameState, p: int) -> tuple[int, bool]:
    """R5.5: the position is left empty; nothing slides until Phase 3."""
    card, was_face_down = s.dreamscape[p - 1], s.face_down[p - 1]
    s.dreamscape[p - 1], s.face_down[p - 1] = None, False
    return card, was_face_down


def discard_top_z(s: GameState, seat: int, from_spent: bool = False) -> bool:
    """R3.2/R3.3: the top Z card goes face up to the discard pile.

    It lowers the unspent count, or the spent count when none is unspent or
    when the player may and does give up a spent one (R6.9, R10.3). A player
    never goes below 1 Z card (knob z-floor): then nothing happens and this returns False.
    """
    st = s.seats[seat]
    if st.z <= s.options.z_floor:  # R3.2
        return False
    use_spent = (from_spent and st.spent > 0) or st.unspent == 0
    s.discard.append(st.deep_sleep.pop())
    if use_spent:
        st.spent -= 1
    return True


# ============================================================================ performing


def perform_card(
    s: GameState,
    ctx: Purchase,
    card: int,
    acting: int,
    source_stack: list[int] | None,
    *,
    may_target_discard: bool = False,
    invader: int | None = None,
) -> Flow:
    """R5.3/R6: the acting player chooses one of the card's two types and performs it."""
    if card in ctx.performed:  # R6.12 loop guard: does nothing and asks nothing
        s.say(f"  {s.code(card)} has already been performed this purchase (R6.12): nothing happens.",
              "already_performed", seat=acting, card=s.code(card))
        return
    ctx.performed.add(card)  # R6.12: performed from the moment its performance starts
    first, second = s.cards[card]
    code = yield from ask("perform", acting, [CODES[first], CODES[second]], card=card)
    dream = type_from_code(code)
    s.say(f"  Seat {acting + 1} performs {code} of {s.code(card)}.", "perform", seat=acting, type=code,
          card=s.code(card))
    own_stack = s.seats[acting].rem
    if may_target_discard:
        # R10.1/R10.2: without target_discard, "your REM stack" stays the REM
        # stack (so a copied Recurring Dream finds nothing beneath it).
        source_stack = own_stack
        if dream in (DreamType.FLOATING_FREE, DreamType.RECURRING_DREAM):
            if (yield from ask("target_discard", acting, [False, True], card=card)):
                source_stack = own_stack = s.discard
                s.say("    targeting the discard pile (R10.1).", "target_discard", seat=acting)
    yield from PERFORMERS[dream](s, ctx, Performance(acting, card, source_stack, own_stack, invader))


def nested_stack(s: GameState, stack: list[int], acting: int) -> list[int]:
    """R10.1: effects nested below a solo discard-pile target use the REM stack again."""
    return s.seats[acting].rem if stack is s.discard else stack


def floating_free(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.1: move a card other than the top one to the top and perform it."""
    stack = perf.own_stack
    if len(stack) < 2:
        return
    on_discard = stack is s.discard
    where = "discard pile" if on_discard else "REM stack"
    i = yield from ask("floating_free", perf.acting, list(range(len(stack) - 1)), perf.card, on_discard)
    card = stack.pop(i)
    stack.append(card)
    s.say(f"    Floating Free pulls {s.code(card)} to the top of the {where}.", "floating_free", seat=perf.acting,
          card=s.code(card), stack="discard" if on_discard else "rem")
    yield from perform_card(s, ctx, card, perf.acting, nested_stack(s, stack, perf.acting))


def interrupted_sleep(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.2: turn a Dreamscape card over (face up <-> face down)."""
    p = yield from ask("interrupted_sleep", perf.acting, s.occupied(), card=perf.card)
    if p is None:
        return
    s.face_down[p - 1] = not s.face_down[p - 1]
    side = "face down (a Z card)" if s.face_down[p - 1] else "face up"
    s.say(f"    Interrupted Sleep turns position {p} {side}.", "interrupted_sleep", seat=perf.acting, position=p,
          face_down=s.face_down[p - 1])


def night_terror(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.3: an opponent with 2+ Z cards discards their top one (R3.2)."""
    if s.solo:
        yield from night_terror_solo(s, ctx, perf)
        return
    target = yield from ask("night_terror", perf.acting, s.opponents(perf.acting), card=perf.card)
    st = s.seats[target]
    from_spent = False
    if perf.invader == target:  # R6.9: the invader may give up a Z card it spent this turn
        from_spent = yield from ask_give_up_spent(s, target, perf.card)
    # Knob terror-z: that many Z cards, each as R3.2 allows; R6.9's choice is asked once, for the first.
    for _ in range(s.options.terror_z - 1):
        if discard_top_z(s, target, from_spent=from_spent):
            from_spent = False
            s.say(f"    Night Terror: seat {target + 1} discards a Z card (now {st.z}).", "night_terror",
                  seat=perf.acting, target=target, discarded=True, z=st.z)
    if discard_top_z(s, target, from_spent=from_spent):
        s.say(f"    Night Terror: seat {target + 1} discards a Z card (now {st.z}).", "night_terror",
              seat=perf.acting, target=target, discarded=True, z=st.z)
    else:
        s.say(f"    Night Terror on seat {target + 1}, who holds one Z card: nothing happens (R3.2).", "night_terror",
              seat=perf.acting, target=target, discarded=False, z=st.z)


def ask_give_up_spent(s: GameState, seat: int, card: int) -> Flow:
    """R6.9/R10.3: asked only while the seat can lose a Z card (R3.2, knob z-floor), some spent and some unspent."""
    st = s.seats[seat]
    if st.z > s.options.z_floor and st.spent > 0 and st.unspent > 0:
        return (yield from ask("night_terror_spent", seat, [False, True], card=card))
    return False


def night_terror_solo(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R10.3: fill the cheapest empty position from the deck, then discard an own Z card."""
    empty = [p for p in s.positions_by_cost() if s.dreamscape[p - 1] is None]
    if empty and s.sleep_deck:
        p = empty[0]
        s.dreamscape[p - 1], s.face_down[p - 1] = s.draw(), False
        s.say(f"    Night Terror fills position {p} with {s.code(s.dreamscape[p - 1])}.", "night_terror_fill",
              seat=perf.acting, position=p, card=s.code(s.dreamscape[p - 1]))
    st = s.seats[perf.acting]
    from_spent = yield from ask_give_up_spent(s, perf.acting, perf.card)
    for _ in range(s.options.terror_z - 1):  # knob terror-z: that many own Z cards, the choice for the first
        if discard_top_z(s, perf.acting, from_spent=from_spent):
            from_spent = False
            s.say(f"    Night Terror: seat {perf.acting + 1} discards one of its own Z cards (now {st.z}).",
                  "night_terror", seat=perf.acting, target=perf.acting, discarded=True, z=st.z)
    if discard_top_z(s, perf.acting, from_spent=from_spent):
        s.say(f"    Night Terror: seat {perf.acting + 1} discards one of its own Z cards (now {st.z}).", "night_terror",
              seat=perf.acting, target=perf.acting, discarded=True, z=st.z)


def lucid_dreaming(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.4: reserve a face-up Dreamscape card; it is ready from Phase 3 on.

    Knob reserve-limit: a seat holding that many reserved cards reserves nothing (and is asked nothing).
    """
    if s.options.reserve_limit and len(s.seats[perf.acting].reserved) >= s.options.reserve_limit:
        s.say(f"    Lucid Dreaming: seat {perf.acting + 1} holds {s.options.reserve_limit} reserved cards, "
              "the limit: nothing happens.")
        return
    p = yield from ask("lucid_dreaming", perf.acting, s.face_up_positions(), card=perf.card)
    if p is None:
        return
    card, _ = take_from_dreamscape(s, p)
    st = s.seats[perf.acting]
    st.reserved.append(card)
    st.ready.append(False)
    s.say(f"    Lucid Dreaming: seat {perf.acting + 1} reserves {s.code(card)} from position {p}.", "lucid_dreaming",
          seat=perf.acting, card=s.code(card), position=p)


def perfect_respite(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.5: the Sleep Deck's top card becomes an unspent Z card (knob respite-z: that many, as far as the deck allows)."""
    if s.sleep_deck and s.options.respite_z:
        for _ in range(min(s.options.respite_z, len(s.sleep_deck))):
            s.seats[perf.acting].deep_sleep.append(s.draw())
        s.say(f"    Perfect Respite: seat {perf.acting + 1} gains a Z card (now {s.seats[perf.acting].z}).",
              "perfect_respite", seat=perf.acting, z=s.seats[perf.acting].z)
    return
    yield  # a generator like every performer


def recurring_dream(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.6: perform the card directly beneath the source card in its stack."""
    stack = perf.source_stack
    if stack is None or perf.card not in stack or stack.index(perf.card) == 0:
        s.say("    Recurring Dream finds nothing beneath its card.", "recurring_dream", seat=perf.acting, card=None)
        return
    beneath = stack[stack.index(perf.card) - 1]
    s.say(f"    Recurring Dream replays {s.code(beneath)}.", "recurring_dream", seat=perf.acting, card=s.code(beneath))
    yield from perform_card(s, ctx, beneath, perf.acting, nested_stack(s, stack, perf.acting))


def collective_dream(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.7: perform the top card of an opponent's REM stack (R10.1 solo: the discard pile's)."""
    if s.solo:
        if not s.discard:
            return
        top = s.discard[-1]
        s.say(f"    Collective Dream copies {s.code(top)} from the discard pile.", "collective_dream",
              seat=perf.acting, target=None, card=s.code(top))
        yield from perform_card(s, ctx, top, perf.acting, None, may_target_discard=True)
        return
    targets = [o for o in s.opponents(perf.acting) if s.seats[o].rem]
    target = yield from ask("collective_dream", perf.acting, targets, card=perf.card)
    if target is None:
        return
    their = s.seats[target].rem
    s.say(f"    Collective Dream copies seat {target + 1}'s top card {s.code(their[-1])}.", "collective_dream",
          seat=perf.acting, target=target, card=s.code(their[-1]))
    # R6.7: the copied card's stack is the source stack for R6.6.
    yield from perform_card(s, ctx, their[-1], perf.acting, their)


def shifting_dreams(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.8: rearrange the Dreamscape (or, with the variant, the cost tokens)."""
    if s.options.shifting_tokens:
        orders = [list(o) for o in permutations(range(1, N_POSITIONS + 1))]
        costs = yield from ask("shifting_tokens", perf.acting, orders, card=perf.card)
        s.costs = list(costs)
        s.say(f"    Shifting Dreams moves the cost tokens: costs now {s.costs}.", "shifting_tokens",
              seat=perf.acting, costs=list(s.costs))
        return
    order = yield from ask("shifting_dreams", perf.acting, distinct_rearrangements(s), card=perf.card)
    if order is None:
        return
    old = list(zip(s.dreamscape, s.face_down))
    for p, from_p in enumerate(order):
        s.dreamscape[p], s.face_down[p] = old[from_p - 1]
    s.say(f"    Shifting Dreams rearranges the Dreamscape (position p takes old {list(order)}).", "shifting_dreams",
          seat=perf.acting, order=list(order))


def distinct_rearrangements(s: GameState) -> list[list[int]]:
    """One order (the first in lexicographic order) per distinct resulting Dreamscape."""
    seen: set[tuple] = set()
    out: list[list[int]] = []
    for order in permutations(range(1, N_POSITIONS + 1)):
        result = tuple((s.dreamscape[q - 1], s.face_down[q - 1]) for q in order)
        if result not in seen:
            seen.add(result)
            out.append(list(order))
    return out


def invasive_dreaming(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.9: swap an opponent's top REM card with a Dreamscape card; they perform it."""
    if s.solo:
        yield from invasive_dreaming_solo(s, ctx, perf)
        return
    choices = [
        {"seat": o, "position": p}
        for o in s.opponents(perf.acting)
        if s.seats[o].rem
        for p in s.occupied()
    ]
    choice = yield from ask("invasive_dreaming", perf.acting, choices, card=perf.card)
    if choice is None:
        return
    target, p = choice["seat"], choice["position"]
    their = s.seats[target].rem
    incoming, _ = take_from_dreamscape(s, p)
    outgoing = their.pop()
    their.append(incoming)  # face up on their REM stack
    s.dreamscape[p - 1], s.face_down[p - 1] = outgoing, False  # their old top, face up
    s.say(
        f"    Invasive Dreaming swaps seat {target + 1}'s top card {s.code(outgoing)} with "
        f"{s.code(incoming)} at position {p}; seat {target + 1} must perform it.",
        "invasive_dreaming", seat=perf.acting, target=target, position=p, card=s.code(incoming),
        returned=s.code(outgoing),
    )
    yield from perform_card(s, ctx, incoming, target, their, invader=perf.acting)


def invasive_dreaming_solo(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R10.2: swap a face-up Dreamscape card with the discard pile's top card, perform it."""
    if not s.discard:
        return
    choices = [{"position": p} for p in s.face_up_positions()]
    choice = yield from ask("invasive_dreaming", perf.acting, choices, card=perf.card)
    if choice is None:
        return
    p = choice["position"]
    incoming, _ = take_from_dreamscape(s, p)
    outgoing = s.discard.pop()
    s.discard.append(incoming)
    s.dreamscape[p - 1], s.face_down[p - 1] = outgoing, False
    s.say(f"    Invasive Dreaming swaps {s.code(incoming)} at position {p} with the discard pile's {s.code(outgoing)}.",
          "invasive_dreaming", seat=perf.acting, target=None, position=p, card=s.code(incoming),
          returned=s.code(outgoing))
    yield from perform_card(s, ctx, incoming, perf.acting, None, may_target_discard=True)


def empowered_dreaming(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.10: take a Dreamscape card (either face), perform it, then discard it."""
    p = yield from ask("empowered_dreaming", perf.acting, s.occupied(), card=perf.card)
    if p is None:
        return
    card, _ = take_from_dreamscape(s, p)
    s.say(f"    Empowered Dreaming takes {s.code(card)} from position {p}.", "empowered_dreaming", seat=perf.acting,
          card=s.code(card), position=p)
    yield from perform_card(s, ctx, card, perf.acting, None)  # in no stack: R6.6 finds nothing
    s.discard.append(card)


def paradigm_shift(s: GameState, ctx: Purchase, perf: Performance) -> Flow:
    """R6.11: discard 0-2 Dreamscape cards (knob paradigm-max: 0 to that many), slide, draw as many as were discarded."""
    occupied = s.occupied()
    most = s.options.paradigm_max
    choices = ([[]] + ([[p] for p in occupied] if most >= 1 else [])
               + ([[p, q] for p in occupied for q in occupied if p != q] if most >= 2 else []))
    chosen = yield from ask("paradigm_shift", perf.acting, choices, card=perf.card)
    for p in chosen:
        card, _ = take_from_dreamscape(s, p)
        s.discard.append(card)
    slide(s)  # R7.1, even when nothing was discarded
    empty = [p for p in reversed(s.positions_by_cost()) if s.dreamscape[p - 1] is None]
    drawn = 0
    for p in empty[: len(chosen)]:
        if not s.sleep_deck:
            break  # as far as the deck allows; never ends the game
        s.dreamscape[p - 1], s.face_down[p - 1] = s.draw(), False
        drawn += 1
    s.say(f"    Paradigm Shift discards {len(chosen)} card(s), slides and draws {drawn}.", "paradigm_shift",
          seat=perf.acting, positions=list(chosen), drawn=drawn)


PERFORMERS = {
    DreamType.FLOATING_FREE: floating_free,
    DreamType.INTERRUPTED_SLEEP: interrupted_sleep,
    DreamType.NIGHT_TERROR: night_terror,
    DreamType.LUCID_DREAMING: lucid_dreaming,
    DreamType.PERFECT_RESPITE: perfect_respite,
    DreamType.RECURRING_DREAM: recurring_dream,
    DreamType.COLLECTIVE_DREAM: collective_dream,
    DreamType.SHIFTING_DREAMS: shifting_dreams,
    DreamType.INVASIVE_DREAMING: invasive_dreaming,
    DreamType.EMPOWERED_DREAMING: empowered_dreaming,
    DreamType.PARADIGM_SHIFT: paradigm_shift,
}


# ============================================================================ phase 3 and the end


def slide(s: GameState) -> None:
    """R7.1: the cards left move, keeping their order of cost, to the cheapest positions."""
    by_cost = s.positions_by_cost()
    left = [(s.dreamscape[p - 1], s.face_down[p - 1]) for p in by_cost if s.dreamscape[p - 1] is not None]
    for p in by_cost:
        s.dreamscape[p - 1], s.face_down[p - 1] = None, False
    for p, (card, down) in zip(by_cost, left):
        s.dreamscape[p - 1], s.face_down[p - 1] = card, down


def refill(s: GameState) -> bool:
    """R7.2: fill the empty positions, most expensive first, if the deck can fill them all."""
    empty = [p for p in reversed(s.positions_by_cost()) if s.dreamscape[p - 1] is None]
    if len(s.sleep_deck) < len(empty):
        return False
    for p in empty:
        s.dreamscape[p - 1], s.face_down[p - 1] = s.draw(), False
    return True


def start_next_turn(s: GameState) -> None:
    """R7.3: spent Z cards become unspent, reserved cards ready, the next seat is active."""
    for st in s.seats:
        st.spent = 0
        st.ready = [True] * len(st.reserved)
    s.token_point = False
    s.active = (s.active + 1) % len(s.seats)


def prepare_next(s: GameState) -> None:
    """Phase 3 (R7): slide, refill or end the game, pass the turn."""
    slide(s)
    if not refill(s):
        s.say("The Sleep Deck cannot refill the Dreamscape: the project ends (R7.2).", "end", rule="R7.2")
        end_game(s)
        return
    start_next_turn(s)


def prepare_next_solo(s: GameState) -> Flow:
    """R10.4: discard the face-up cards in a chosen order, slide and turn up the rest, refill."""
    face_up = s.face_up_positions()
    orders = [list(o) for o in permutations(face_up)]
    order = yield from ask("solo_discard_order", s.active, orders)
    for p in order or []:
        card, _ = take_from_dreamscape(s, p)
        s.discard.append(card)
    slide(s)
    s.face_down = [False] * N_POSITIONS
    if not refill(s):
        s.say("The Sleep Deck cannot refill the Dreamscape: the project ends (R10.4).", "end", rule="R10.4")
        end_game(s)
        return
    start_next_turn(s)


def end_game(s: GameState) -> None:
    """R8.3: discard unplayed reserves; highest score, then most Z cards; else shared."""
    s.game_over = True
    for st in s.seats:  # seat 0's reserve first, each in order
        s.discard.extend(st.reserved)
        st.reserved, st.ready = [], []
    scores = [s.final_score(i) for i in range(len(s.seats))]
    best = max(scores)
    tied = [i for i, sc in enumerate(scores) if sc == best]
    most_z = max(s.seats[i].z for i in tied)
    s.winners = [i for i in tied if s.seats[i].z == most_z]
    s.say(f"Final scores {scores}; winner(s): {', '.join(f'seat {w + 1}' for w in s.winners)}.", "final",
          scores=scores, winners=list(s.winners))


# ============================================================================ the driver


class Game:
    """A game on the reference engine, driven one decision at a time.

    The game always rests at its next decision with two or more legal choices
    (R11), or at its end.
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._initial = copy.deepcopy(state)
        self.history: list[tuple[str, Choice]] = []
        self._flow = play_game(state)
        self._pending: Decision | None = None
        self._resume(None, first=True)

    # --- construction ----------------------------------------------------------------
    @classmethod
    def new(cls, deck: Deck, players: int, rng: GameRng, options: Options = Options(),
            events: bool = False) -> "Game":
        """Set up a fresh game (R2): shuffle, deal one Z card per seat, fill the Dreamscape.

        ``rng`` is the game's deal stream, ``GameRng(seed, game)``; it is used for
        the shuffle only (decisions draw from ``GameRng.decisions(seed, game)``).
        ``events``: keep the log's structured twin in ``state.events`` too.
        """
        if not 1 <= players <= 4:
            raise ValueError(f"players must be 1 to 4, got {players}")
        options.check_fits(players)  # KnobError (a ValueError) for a per-seat knob of the wrong length
        check_deck_fits(deck, players, options.setup_cards(players))
        order = list(range(len(deck.cards)))
        rng.shuffle(order)
        state = setup_state(list(deck.cards), order, players, options)
        if events:
            state.events = []
        return cls(state)

    # --- protocol --------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        return self._pending

    @property
    def over(self) -> bool:
        return self.state.game_over

    def apply(self, choice: Choice, kind: str | None = None) -> None:
        """Answer the pending decision; an illegal choice raises and changes nothing."""
        d = self._pending
        if d is None:
            raise IllegalChoice("the game is over: there is no decision to answer")
        if kind is not None and kind != d.kind:
            raise IllegalChoice(f"the pending decision is {d.kind!r}, not {kind!r}")
        if not d.is_legal(choice):
            raise IllegalChoice(f"{choice!r} is not a legal {d.kind} choice for seat {d.seat + 1}")
        self.history.append((d.kind, choice))
        self._resume(choice)

    def _resume(self, choice: Choice, first: bool = False) -> None:
        try:
            self._pending = next(self._flow) if first else self._flow.send(choice)
        except StopIteration:
            self._pending = None

    def copy(self) -> "Game":
        """An independent copy at the same decision (replays the choices made so far)."""
        twin = Game(copy.deepcopy(self._initial))
        for kind, choice in self.history:
            twin.apply(choice, kind)
        return twin


def setup_state(cards: list[Card], order: list[int], players: int, options: Options = Options()) -> GameState:
    """R2.2/R2.3 from a given deck order (card ids, top first).

    The knob ``remove`` first takes that many cards off the top, out of the
    game unseen; the knob ``start-z`` deals each seat its number of Z cards,
    seat 0's all first (R2.2 deals one each).
    """
    deck = list(order)
    del deck[: options.removed]
    seats = [Seat() for _ in range(players)]
    for st, n in zip(seats, options.seat_values("start_z", players)):  # R2.2: in seat order from seat 0
        for _ in range(n):
            st.deep_sleep.append(deck.pop(0))
    dreamscape: list[int | None] = [None] * N_POSITIONS
    for p in range(N_POSITIONS, 0, -1):  # R2.3: positions 5, 4, 3, 2, 1
        dreamscape[p - 1] = deck.pop(0)
    return GameState(
        cards=cards,
        sleep_deck=deck,
        dreamscape=dreamscape,
        face_down=[False] * N_POSITIONS,
        costs=list(options.market_costs()),  # R2.3, knob costs
        discard=[],
        seats=seats,
        options=options,
    )
