"""What a deciding seat may know of a position, as a fixed vector (the strong bot's input, issue #26).

:func:`encode_position` writes ``N_ENC`` floats describing the game state a
seat decides in, read only from what that seat can see (R2.2, R4.1, R6.2):

* per seat, in turn order from the deciding seat (relative seat 0 is its
  own, 1 the next seat, ...; zeros for seats the game does not have):
  final score now (R8.2 with the rules knobs), its lead over the deciding
  seat (0 for the seat itself), Z cards, Z cards spent this turn, reserved
  cards, REM stack size, and for each of the 11 dream types the length of the
  open run of that type at the top of the REM stack (R8.2; 0 unless the top
  card shows it). ``ENC_SEAT`` values per seat.
* per Dreamscape position 1..5 (R2.3): occupied, face down (R6.2), its cost
  token, and a one-hot of the card's two types (a face-down card's types
  too: everyone saw it face up before it was turned). ``ENC_POS`` values each.
* per dream type, how many unseen cards show it, and how many cards are
  unseen in all: the Sleep Deck, every Deep Sleep stack (Z cards stay face
  down, even to their owner) and the cards the remove knob took. These are
  counted as a multiset over those places, so the order of the hidden cards
  (and which Deep Sleep stack holds which) never enters the vector.
* the game: cards left in the Sleep Deck, that over the deck size, turns
  played / 30, whether the Sleep Token point is available, whether the
  deciding seat is the active one, the number of seats (one-hot 1..4).

Nothing else of the state is read: not the Sleep Deck order, not the
identity of any Z card. ``tests/test_strong_bot.py`` reshuffles the hidden
cards of positions and checks that the vector (and the strong bot's choices) stay
the same.

A leaf of the import chain (layout only), so :mod:`simcore.games.dreamscape.fast.decisions`
can keep a training game's positions (``collect_features``).
"""
from __future__ import annotations

from simcore.games.dreamscape.fast.jit import kernel
from simcore.games.dreamscape.fast.layout import (
    H_ACTIVE,
    H_COSTS,
    H_DECK_PTR,
    H_DS_CARD,
    H_DS_DOWN,
    H_N_CARDS,
    H_N_SEATS,
    H_REMOVED,
    H_TOKEN_POINT,
    H_TURNS,
    H_Z_PENALTY,
    HEADER,
    MAX_SEATS,
    N_POS,
    N_TYPES,
    S_BONUS,
    S_CHAIN,
    S_REM_LEN,
    S_RES_LEN,
    S_SPENT,
    S_Z_LEN,
    off_deck,
    off_rem,
    off_z,
    seat_base,
)

ENC_SEAT = 6 + N_TYPES  # score, lead, Z cards, spent, reserved, REM size, top run per type
ENC_POS = 3 + N_TYPES  # occupied, face down, cost, types one-hot
ENC_SEATS_AT = 0
ENC_POS_AT = MAX_SEATS * ENC_SEAT
ENC_UNSEEN_AT = ENC_POS_AT + N_POS * ENC_POS  # N_TYPES counts, then the total
ENC_GAME_AT = ENC_UNSEEN_AT + N_TYPES + 1
ENC_GAME = 5 + MAX_SEATS
N_ENC = ENC_GAME_AT + ENC_GAME


@kernel
def _final(st, s):
    b = seat_base(s)
    return st[b + S_CHAIN] - st[H_Z_PENALTY] * st[b + S_Z_LEN] + st[b + S_BONUS]


@kernel
def _add_types(st, out, at, card):
    out[at + st[HEADER + card]] += 1.0
    out[at + st[HEADER + st[H_N_CARDS] + card]] += 1.0


@kernel
def encode_position(st, seat, out, at):
    """Write the N_ENC values of what ``seat`` may know of ``st`` into ``out[at : at + N_ENC]`` (see module)."""
    c = st[H_N_CARDS]
    n_seats = st[H_N_SEATS]
    for j in range(N_ENC):
        out[at + j] = 0.0
    own = _final(st, seat)
    for r in range(n_seats):
        s = (seat + r) % n_seats
        b = seat_base(s)
        o = at + ENC_SEATS_AT + r * ENC_SEAT
        sc = _final(st, s)
        out[o] = sc
        out[o + 1] = sc - own
        out[o + 2] = st[b + S_Z_LEN]
        out[o + 3] = st[b + S_SPENT]
        out[o + 4] = st[b + S_RES_LEN]
        n = st[b + S_REM_LEN]
        out[o + 5] = n
        if n > 0:
            rem = off_rem(st, s)
            masks = rem + c
            top = masks + n - 1
            for t in range(N_TYPES):
                if (st[top] >> t) & 1:
                    run = 0
                    k = n - 1
                    while k >= 0 and (st[masks + k] >> t) & 1:
                        run += 1
                        k -= 1
                    out[o + 6 + t] = run
    for p in range(N_POS):
        card = st[H_DS_CARD + p]
        o = at + ENC_POS_AT + p * ENC_POS
        out[o + 2] = st[H_COSTS + p]
        if card >= 0:
            out[o] = 1.0
            out[o + 1] = 1.0 if st[H_DS_DOWN + p] != 0 else 0.0
            _add_types(st, out, o + 3, card)
    u = at + ENC_UNSEEN_AT
    dk = off_deck(st)
    total = 0
    for k in range(st[H_REMOVED]):
        _add_types(st, out, u, st[dk + k])
        total += 1
    for k in range(st[H_DECK_PTR], c):
        _add_types(st, out, u, st[dk + k])
        total += 1
    for s in range(n_seats):
        oz = off_z(st, s)
        for k in range(st[seat_base(s) + S_Z_LEN]):
            _add_types(st, out, u, st[oz + k])
            total += 1
    out[u + N_TYPES] = total
    g = at + ENC_GAME_AT
    left = c - st[H_DECK_PTR]
    out[g] = left
    out[g + 1] = left / c if c > 0 else 0.0
    out[g + 2] = st[H_TURNS] / 30.0
    out[g + 3] = 1.0 if st[H_TOKEN_POINT] != 0 else 0.0
    out[g + 4] = 1.0 if st[H_ACTIVE] == seat else 0.0
    if 1 <= n_seats <= MAX_SEATS:
        out[g + 5 + n_seats - 1] = 1.0
