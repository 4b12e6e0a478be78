"""Memory layout of the fast engine: one flat ``int32`` state vector per game.

Everything on the table lives in a single vector (pgx style) so that a game
position is trivially copied (``state.copy()``), handed read-only to a
strategy, or stored. The vector is a fixed header followed by card-sized
blocks; ``C`` is the number of cards in the deck (any deck a designer builds,
up to a few hundred cards), so every stack fits without bounds checks:
a REM stack, a Deep Sleep stack, a reserve or the discard pile can never hold
more than ``C`` cards.

Header (absolute indices)
-------------------------
====================  ========================================================
``H_N_SEATS``          number of seats (1 = Virtual Dreaming, R10)
``H_N_CARDS``          C, the number of cards (ids 0..C-1 index the deck)
``H_ACTIVE``           active seat (R2.4, R7.3)
``H_TOKEN_POINT``      1 while the Sleep Token's +1 is available (R9)
``H_TURNS``            turns played so far (R8.4 cap)
``H_GAME_OVER``        1 once the game ended (R7.2 / R8.4)
``H_ABORTED``          1 if the R8.4 safety cap ended it
``H_DECK_PTR``         index in the deck order of the next card to draw
``H_DISCARD_LEN``      cards in the discard pile
``H_OPT_SLEEP_TOKEN``  rules option R9
``H_OPT_SHIFT_TOKENS`` rules option R6.8 variant
``H_PURCHASE_ID``      id of the purchase resolving now (R6.12 loop guard)
``H_WINNERS``          bit mask of winning seats (R8.3)
``H_N_WINNERS``        number of winners
``H_Z_PENALTY``        rules knob z-penalty: points per Z card at the end (R8.2; 1)
``H_MAX_BUYS``         rules knob max-buys: most purchases per turn (R5.2; 0 = no limit)
``H_REMOVED``          rules knob remove: cards taken unseen off the shuffled deck (R2.2; 0)
``H_DS_CARD + p``      card id at position p+1 (-1 = empty), p = 0..4
``H_DS_DOWN + p``      1 if that card is face down (a Z card, R6.2)
``H_COSTS + p``        cost token on position p+1 (R2.3, R6.8 variant)
``seat_base(s) + k``   per-seat scalars: ``S_REM_LEN``, ``S_Z_LEN``,
                       ``S_SPENT``, ``S_RES_LEN``, ``S_TURNS``, ``S_CHAIN``
                       (chain points of the REM stack, kept up to date),
                       ``S_START_Z`` and ``S_BONUS`` (rules knobs start-z,
                       R2.2, and bonus, R8.2)
``H_PERF + 11*s + t``  times seat s performed dream type t
``H_POS_BY_COST + k``  position index (0..4) of the k+1-th cheapest position
                       (R7.1; equal costs: the lower position first); with
                       the printed tokens 1..5, the position of cost k+1
``H_CHAIN_AT``         where the chain table starts (see below)
====================  ========================================================

Blocks (offsets from ``HEADER``; read them through the helpers below)
---------------------------------------------------------------------
card type A, card type B (the card's two types in stored order), the card's
type bit mask ``(1 << A) | (1 << B)`` (one test per "does it show type t"), the deck
order (card ids, top = index ``H_DECK_PTR``), the discard pile (bottom
first), the R6.12 mark per card (purchase id when last performed), then per
seat (4 seats always reserved): REM stack, the REM cards' type masks (kept
parallel to the REM stack, so run scans read one array), Deep Sleep stack
(bottom first), reserve, ready flags. Last, the chain table: ``C + 1``
entries, run length 0..C -> chain points (R8.2 or the chain knob), read as
``st[st[H_CHAIN_AT] + length]`` (:func:`chain_at`).

Feature vector handed to strategies (``N_FEATURES`` float64 per option)
----------------------------------------------------------------------
==================  ==========================================================
``F_DELTA``          0: immediate change of the deciding seat's own score,
                     exactly ``simcore.games.dreamscape.bots.reference_bots.immediate_score_delta``
``F_SCORE_AFTER``    1: own score now + F_DELTA
``F_SCORE_NOW``      2: own score now (R8.2: chain points - Z cards)
``F_BUDGET_AFTER``   3: own budget after the option's immediate effect (R3.1:
                     buy: minus its cost, +1 more for a face-down card, an
                     unspent Z card by R5.4; take_z yes: +1; perform PR
                     with cards in the deck: +1; sleep token "point": +1,
                     "discard": -1 while an unspent Z card is discarded)
``F_COST``           4: cost paid by the option (buy only, else 0)
``F_DECK_LEFT``      5: cards left in the Sleep Deck
``F_BEST_OPP``       6: best opponent score now (solo: 0)
``F_Z_AFTER``        7: own Z cards after the option's immediate effect
``F_OPTION_INDEX``   8: index of the option in engine order
``F_N_OPTIONS``      9: number of legal options
``F_TURN``          10: turns played so far
``F_ARG``           11: the option's main value (position, seat, type id,
                     reserve index, 1/0 for yes/no choices, -1 for "stop",
                     the order's index in layout.PERM5 for shifting_*)
``F_REM_LEN``       12: own REM stack size
``F_CHAIN_NOW``     13: own chain points now
``F_N_SEATS``       14: number of seats
``F_AUX``           15: 1 for a Floating Free on the solo discard pile
``F_TOP_RUN_A``     16: options putting a card on top of the own REM stack
                     (buy of a face-up Dreamscape card or of a reserved card;
                     floating_free on the own REM stack): length of the top
                     run of the card's first type after the option, the card
                     included (the open chain it extends, R8.2); else 0
``F_TOP_RUN_B``     17: the same for the card's second type
``F_OPEN_RUN_MAX``  18: longest top run (any type) of the own REM stack after
                     the option's immediate effect (only the top card's two
                     types have a top run); unchanged for other options
``F_CHAIN_AFTER``   19: own chain points after the immediate effect (chain
                     now + change for REM-changing options, else chain now)
``F_DECK_FRACTION`` 20: cards left in the Sleep Deck / deck size (0..1)
``F_TARGET_IS_LEADER`` 21: options targeting a seat (night_terror,
                     collective_dream, invasive_dreaming): 1 if that seat has
                     the highest score among the deciding seat's opponents
                     (1 for each of tied leaders), else 0; 0 for others
``F_TARGET_Z``      22: the targeted seat's Z cards (0 without a target)
``F_TARGET_GAP``    23: targeted seat's score - own score (0 without a target)
``F_LEADER_DENY``   24: options that take away, flip or reserve a Dreamscape
                     card (lucid_dreaming, interrupted_sleep,
                     empowered_dreaming, invasive_dreaming's position, the
                     positions paradigm_shift discards, summed): the chain
                     gain (top_add_delta) the leading opponent would get by
                     putting that card on top of their REM stack. The leading
                     opponent is the opponent with the highest score, the
                     first in seat order among tied ones; solo: 0
``F_OPP_MAX_Z``     25: largest Z card count among opponents (solo: 0)
``F_BUDGET_NOW``    26: own budget now (R3.1, with the Sleep Token point)
``F_POS_COST``      27: options naming a Dreamscape position (buy of a
                     position, interrupted_sleep, lucid_dreaming,
                     empowered_dreaming, invasive_dreaming): the cost on that
                     position now; else 0
``F_NEXT_GAIN``     28: options naming a Dreamscape card (the positions of
                     F_LEADER_DENY and the buy of a face-up card): the chain
                     gain (top_add_delta) the next seat in turn order would
                     get by putting that card on top of its REM stack; solo 0
``F_BUY_DENY``      29: buy of a face-up Dreamscape card: F_LEADER_DENY for
                     the bought card (the leading opponent's chain gain from
                     it); else 0 (F_LEADER_DENY itself stays 0 at buys)
``F_NEXT_REACH``    30: buy options (stop included): the best chain gain the
                     next seat could get from one face-up card left in the
                     Dreamscape after the option that it can afford next
                     turn: after the slide (R7.1) the k-th cheapest card left
                     costs the k-th cheapest position's cost (k in the printed
                     rules, R2.3; the costs knob's value), and its budget then is its Z cards (R7.3: all
                     unspent) + 1 while the Sleep Deck has cards (R4.1);
                     0 if none, solo 0. Cards the refill brings are unknown
``F_BUYS_LEFT``     31: buy options: how many purchases are affordable right
                     after the option (R5.1: other occupied positions costing
                     at most F_BUDGET_AFTER, other ready reserved cards while
                     F_BUDGET_AFTER >= 1; the max-buys knob is not looked
                     at); stop: 0
``F_PERFORM_BASE``  32..42: ``perform`` options: one-hot of the performed
                     dream type, slot 32 + type id (R1.1 order); else 0
``F_OWN_NEXT_GAIN`` 43: buy options: the best own chain gain of one more
                     purchase among those F_BUYS_LEFT counts, the option's
                     card on top of the REM stack (a face-down card: -1, a Z
                     card); 0 if none or stop
``F_SUPPLY_A``      44: options naming one card (F_CARD_BASE): how many other
                     cards showing its first type are unseen (the Sleep Deck,
                     every Deep Sleep stack, cards the remove knob took) or
                     face up in the Dreamscape: the cards that may still come
                     to extend a run of that type; else 0
``F_SUPPLY_B``      45: the same for the card's second type
``F_RUN_SUPPLY``    46: F_TOP_RUN_A * F_SUPPLY_A + F_TOP_RUN_B * F_SUPPLY_B
                     (an open run is worth more while its type is plentiful)
``F_FF_BEST``       47: ``perform`` options of Floating Free: the best chain
                     change R6.1 allows on the own REM stack now (moving any
                     card but the top one to the top, ff_delta); else 0
``F_CARD_BASE``     48..58: options naming one card (buy of a face-up or
                     reserved card, floating_free on the own REM stack,
                     lucid_dreaming, interrupted_sleep, empowered_dreaming,
                     invasive_dreaming's position): 1 in slot 48 + type id
                     for each of the card's two types; else 0
``F_OPP_BEST_GAIN`` 59: options naming a Dreamscape card (as F_NEXT_GAIN):
                     the largest chain gain any opponent would get from it
``F_ENDS_NOW``      60: 1 when, after the option's immediate effect, the game
                     surely ends at this turn's Phase 3 (R7.2): the Sleep
                     Deck holds fewer cards than the Dreamscape has empty
                     positions, even if no more cards leave it (deck - empty
                     never grows within a turn: a purchase or a take empties
                     a position, R6.5 / R4.1 / R6.11 draw, R10.3 fills one
                     and draws one). Counted as the option's immediate
                     effect: take_z yes (a card drawn), buy of a Dreamscape
                     card, lucid_dreaming and empowered_dreaming (a position
                     emptied), paradigm_shift (its draws), and at ``perform``
                     the sure effect of the type: Perfect Respite (a draw,
                     while the deck has cards), Lucid Dreaming (while a
                     face-up card is there), Empowered Dreaming (while any
                     card is there); else 0
``F_END_WIN``       61: F_ENDS_NOW x the deciding seat's win credit if the game
                     ended with the scores after the option (R8.2 with the
                     rules knobs z-penalty and bonus, zones.final_score, as
                     the engine ends it; R8.3: highest score, then most Z
                     cards, a remaining tie shared 1/k; solo: 1); the
                     option's own score and Z cards as F_SCORE_AFTER /
                     F_Z_AFTER, opponents' as now (a night_terror target:
                     one Z card less, R3.2)
``F_LAST_TURN``     62: 1 when, after the option's immediate effect, the turn
                     is the deciding seat's last: F_ENDS_NOW, or the cards
                     left after this turn's refill (Sleep Deck - empty
                     positions, as F_ENDS_NOW counts them) are fewer than
                     the other seats: each of their turns takes at least one
                     card at its refill (its first purchase from the
                     Dreamscape empties a position, R5.5, R7.2), so the game
                     ends before this seat moves again (a seat that buys
                     only a reserved card takes none: the one way it is not
                     sure); else 0
``F_LAST_SCORE``    63: F_LAST_TURN x the deciding seat's final score after the
                     option (R8.2 with the rules knobs, as F_END_WIN): in its
                     last turn a point now is a point at the end, and open
                     runs, reserved cards (R6.4, R8.3) and budget left are
                     worth nothing more
==================  ==========================================================
Slots 28..31 and 43..63
were added for the expert bot (issue #12; 60..63, the end of the game, in a
later round); the built-in linear weights give
them 0, so linear plays as before. They cost the most to compute, so a
linear seat whose weights give all of them 0 does not compute them
(``decisions.decide_with``; they keep stale values its sum never reads).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from itertools import permutations

from simcore.games.dreamscape.cards import DreamType
from simcore.games.dreamscape.rules import DECISION_ID, MAX_PLAYERS, MAX_RUN, N_POSITIONS
from simcore.games.dreamscape.scoring import CHAIN_POINTS_TABLE

MAX_SEATS = MAX_PLAYERS  # R2.1: seat blocks of the state vector
N_TYPES = len(DreamType)
N_POS = N_POSITIONS  # R2.3: Dreamscape positions 1..5 are indices 0..4 of the H_DS_* / H_COSTS slots

# Dream type ids (R1.1), the one source being simcore.games.dreamscape.cards.DreamType. Plain
# ints: numba freezes them into the kernels as constants.
FF = int(DreamType.FLOATING_FREE)
IS = int(DreamType.INTERRUPTED_SLEEP)
NT = int(DreamType.NIGHT_TERROR)
LD = int(DreamType.LUCID_DREAMING)
PR = int(DreamType.PERFECT_RESPITE)
RD = int(DreamType.RECURRING_DREAM)
CD = int(DreamType.COLLECTIVE_DREAM)
SD = int(DreamType.SHIFTING_DREAMS)
ID = int(DreamType.INVASIVE_DREAMING)
ED = int(DreamType.EMPOWERED_DREAMING)
PS = int(DreamType.PARADIGM_SHIFT)

# ---------------------------------------------------------------- header slots
H_N_SEATS = 0
H_N_CARDS = 1
H_ACTIVE = 2
H_TOKEN_POINT = 3
H_TURNS = 4
H_GAME_OVER = 5
H_ABORTED = 6
H_DECK_PTR = 7
H_DISCARD_LEN = 8
H_OPT_SLEEP_TOKEN = 9
H_OPT_SHIFT_TOKENS = 10
H_PURCHASE_ID = 11
H_WINNERS = 12
H_N_WINNERS = 13
H_Z_PENALTY = 14
H_MAX_BUYS = 15
H_DS_CARD = 16
H_DS_DOWN = 21
H_COSTS = 26
H_REMOVED = 31
H_SEATS = 32
SEAT_STRIDE = 16
S_REM_LEN = 0
S_Z_LEN = 1
S_SPENT = 2
S_RES_LEN = 3
S_TURNS = 4
S_CHAIN = 5
S_START_Z = 6
S_BONUS = 7
H_PERF = H_SEATS + MAX_SEATS * SEAT_STRIDE  # 96
H_POS_BY_COST = H_PERF + MAX_SEATS * N_TYPES + 4  # 144: position index (0..4) holding cost k+1
H_CHAIN_AT = H_POS_BY_COST + N_POS  # 149: offset of the chain table (a spare slot of the header)
HEADER = H_POS_BY_COST + 8  # 152

# ---------------------------------------------------------------- rules knobs
# The knob vector a game is started with (int32[N_KNOBS]): see knob_vector.
KN_Z_PENALTY = 0
KN_MAX_BUYS = 1
KN_REMOVED = 2
KN_START_Z = 3  # 3..6, one per seat
KN_BONUS = 7  # 7..10, one per seat
KN_COSTS = KN_BONUS + MAX_SEATS  # 11..15: the cost of positions 1..5 (R2.3)
KN_CHAIN = KN_COSTS + N_POS  # 16..: run length 0..MAX_RUN -> chain points (R8.2)
N_KNOBS = KN_CHAIN + MAX_RUN + 1


def knob_vector(options, players: int) -> np.ndarray:
    """The rules knobs of :class:`simcore.games.dreamscape.rules.Options` as the int32 vector ``start_game`` takes.

    Raises :class:`simcore.games.dreamscape.rules.KnobError` when a per-seat knob does not fit ``players``.
    """
    v = np.zeros(N_KNOBS, dtype=np.int32)
    v[KN_Z_PENALTY] = options.z_penalty
    v[KN_MAX_BUYS] = options.max_buys
    v[KN_REMOVED] = options.removed
    v[KN_START_Z : KN_START_Z + players] = options.seat_values("start_z", players)
    v[KN_BONUS : KN_BONUS + players] = options.seat_values("bonus", players)
    v[KN_COSTS : KN_COSTS + N_POS] = options.market_costs()
    v[KN_CHAIN:] = options.chain_table()
    return v


# ---------------------------------------------------------------- stack ids
# A "stack" argument names a REM stack by its seat (0..3), the discard pile,
# or no stack at all (a card outside any stack, R6.10).
STACK_NONE = -1
STACK_DISCARD = 4

# ---------------------------------------------------------------- decision kinds
K_SLEEP_TOKEN = DECISION_ID["sleep_token"]
K_TAKE_Z = DECISION_ID["take_z"]
K_BUY = DECISION_ID["buy"]
K_PERFORM = DECISION_ID["perform"]
K_FLOATING_FREE = DECISION_ID["floating_free"]
K_INTERRUPTED_SLEEP = DECISION_ID["interrupted_sleep"]
K_NIGHT_TERROR = DECISION_ID["night_terror"]
K_NIGHT_TERROR_SPENT = DECISION_ID["night_terror_spent"]
K_LUCID_DREAMING = DECISION_ID["lucid_dreaming"]
K_COLLECTIVE_DREAM = DECISION_ID["collective_dream"]
K_SHIFTING_DREAMS = DECISION_ID["shifting_dreams"]
K_SHIFTING_TOKENS = DECISION_ID["shifting_tokens"]
K_INVASIVE_DREAMING = DECISION_ID["invasive_dreaming"]
K_EMPOWERED_DREAMING = DECISION_ID["empowered_dreaming"]
K_PARADIGM_SHIFT = DECISION_ID["paradigm_shift"]
K_TARGET_DISCARD = DECISION_ID["target_discard"]
K_SOLO_DISCARD_ORDER = DECISION_ID["solo_discard_order"]
N_KINDS = len(DECISION_ID)

# Option encoding in the engine's scratch buffer (one row of OPT_WIDTH ints).
OPT_WIDTH = 6
# sleep_token: row[0] = 0 "discard", 1 "point", 2 "pass"
TOKEN_DISCARD, TOKEN_POINT, TOKEN_PASS = 0, 1, 2
# buy: row[0] = BUY_POSITION (row[1] = position 1..5), BUY_RESERVED (row[1] = index), BUY_STOP
BUY_POSITION, BUY_RESERVED, BUY_STOP = 0, 1, 2
# paradigm_shift / solo_discard_order: row[0] = count, row[1..] = positions
# shifting_dreams / shifting_tokens: row[0] = index of the order in PERM5 below
#   (the 120 orders of positions 1..5 in lexicographic order)
# invasive_dreaming: row[0] = seat (-1 solo), row[1] = position
# all others: row[0] = the value (position, seat, index, type id, 0/1)

# ---------------------------------------------------------------- features
N_FEATURES = 64
F_DELTA = 0
F_SCORE_AFTER = 1
F_SCORE_NOW = 2
F_BUDGET_AFTER = 3
F_COST = 4
F_DECK_LEFT = 5
F_BEST_OPP = 6
F_Z_AFTER = 7
F_OPTION_INDEX = 8
F_N_OPTIONS = 9
F_TURN = 10
F_ARG = 11
F_REM_LEN = 12
F_CHAIN_NOW = 13
F_N_SEATS = 14
F_AUX = 15
F_TOP_RUN_A = 16
F_TOP_RUN_B = 17
F_OPEN_RUN_MAX = 18
F_CHAIN_AFTER = 19
F_DECK_FRACTION = 20
F_TARGET_IS_LEADER = 21
F_TARGET_Z = 22
F_TARGET_GAP = 23
F_LEADER_DENY = 24
F_OPP_MAX_Z = 25
F_BUDGET_NOW = 26
F_POS_COST = 27
F_NEXT_GAIN = 28
F_BUY_DENY = 29
F_NEXT_REACH = 30
F_BUYS_LEFT = 31
F_PERFORM_BASE = 32  # 32 + dream type id, 11 slots (32..42)
F_OWN_NEXT_GAIN = 43
F_SUPPLY_A = 44
F_SUPPLY_B = 45
F_RUN_SUPPLY = 46
F_FF_BEST = 47
F_CARD_BASE = 48  # 48 + dream type id, 11 slots (48..58)
F_OPP_BEST_GAIN = 59
F_ENDS_NOW = 60
F_END_WIN = 61
F_LAST_TURN = 62
F_LAST_SCORE = 63


N_BLOCKS = 6  # card A, card B, mask, deck, discard, mark
SEAT_BLOCKS = 5  # REM, REM masks, Deep Sleep, reserve, ready


# ---------------------------------------------------------------- block offsets
# Tiny inlined helpers: the offset of each block from the deck size stored in
# the header. (Card types are read as st[HEADER + card] / st[HEADER + C + card]
# and the type mask as st[HEADER + 2C + card]: blocks 0-2.)
@njit(inline="always", cache=True)
def off_deck(st):
    return HEADER + 3 * st[H_N_CARDS]


@njit(inline="always", cache=True)
def off_discard(st):
    return HEADER + 4 * st[H_N_CARDS]


@njit(inline="always", cache=True)
def off_mark(st):
    return HEADER + 5 * st[H_N_CARDS]


@njit(inline="always", cache=True)
def off_rem(st, seat):
    c = st[H_N_CARDS]
    return HEADER + N_BLOCKS * c + seat * SEAT_BLOCKS * c


@njit(inline="always", cache=True)
def off_z(st, seat):
    c = st[H_N_CARDS]
    return HEADER + N_BLOCKS * c + seat * SEAT_BLOCKS * c + 2 * c


@njit(inline="always", cache=True)
def off_res(st, seat):
    c = st[H_N_CARDS]
    return HEADER + N_BLOCKS * c + seat * SEAT_BLOCKS * c + 3 * c


@njit(inline="always", cache=True)
def off_ready(st, seat):
    c = st[H_N_CARDS]
    return HEADER + N_BLOCKS * c + seat * SEAT_BLOCKS * c + 4 * c


@njit(inline="always", cache=True)
def off_chain(n_cards):
    """Where the chain table starts in a state of ``n_cards`` cards (after the last seat's blocks)."""
    return HEADER + N_BLOCKS * n_cards + MAX_SEATS * SEAT_BLOCKS * n_cards


@njit(inline="always", cache=True)
def chain_at(st, length):
    """Chain points of a run of ``length`` cards (R8.2 or the chain knob): the state's chain table."""
    return st[st[H_CHAIN_AT] + length]


@njit(inline="always", cache=True)
def seat_base(seat):
    return H_SEATS + seat * SEAT_STRIDE


def state_size(n_cards: int) -> int:
    """Length of the state vector for a deck of ``n_cards`` cards (the chain table last, runs 0..n_cards)."""
    return HEADER + N_BLOCKS * n_cards + MAX_SEATS * SEAT_BLOCKS * n_cards + n_cards + 1


def python_offsets(n_cards: int) -> dict[str, int]:
    """Block offsets as plain ints (for Python readers of a state vector)."""
    c = n_cards
    out = {
        "card_a": HEADER,
        "card_b": HEADER + c,
        "mask": HEADER + 2 * c,
        "deck": HEADER + 3 * c,
        "discard": HEADER + 4 * c,
        "mark": HEADER + 5 * c,
    }
    for s in range(MAX_SEATS):
        base = HEADER + N_BLOCKS * c + s * SEAT_BLOCKS * c
        out[f"rem{s}"] = base
        out[f"rem_mask{s}"] = base + c
        out[f"z{s}"] = base + 2 * c
        out[f"res{s}"] = base + 3 * c
        out[f"ready{s}"] = base + 4 * c
    return out


# R8.2 chain chart, run length -> points (long enough for any deck).
CHAIN_TABLE = np.array(CHAIN_POINTS_TABLE, dtype=np.int32)


# ---------------------------------------------------------------- Dreamscape orders
# All 120 orders of positions 1..5 in lexicographic order (itertools order):
# the option lists of shifting_tokens and (filtered) shifting_dreams, R6.8.
PERM5 = np.array(list(permutations(range(1, N_POS + 1))), dtype=np.int32)
N_ORDERS = PERM5.shape[0]


def _distinct_rows():
    """For each set of empty positions (bit mask), the PERM5 rows distinct_rearrangements keeps.

    Only empty positions are interchangeable (cards are distinct and an empty
    position is always face up), so an order is the lexicographically first
    of its class exactly when the empty positions it draws from appear in
    ascending order.
    """
    n_masks = 1 << N_POS
    rows = np.zeros((n_masks, N_ORDERS), dtype=np.int32)
    counts = np.zeros(n_masks, dtype=np.int32)
    for mask in range(n_masks):
        for r, order in enumerate(PERM5):
            empties = [int(q) for q in order if mask >> (int(q) - 1) & 1]
            if empties == sorted(empties):
                rows[mask, counts[mask]] = r
                counts[mask] += 1
    return rows, counts


# reference.distinct_rearrangements as a table: DISTINCT_ROWS[mask, :DISTINCT_COUNTS[mask]]
DISTINCT_ROWS, DISTINCT_COUNTS = _distinct_rows()
