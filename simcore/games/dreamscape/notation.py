"""Positions in the scenario JSON notation of shared/conformance/FORMAT.md.

``state_from_setup`` loads a ``setup`` object into a reference-engine
:class:`~simcore.games.dreamscape.reference.GameState`; ``dump_state`` writes a state back in
the same notation, with the derived fields of ``expect`` (z, spent, score...).
"""
from __future__ import annotations

from typing import Any

from simcore.games.dreamscape.cards import CardError, card_code, parse_card
from simcore.games.dreamscape.reference import GameState, Seat
from simcore.games.dreamscape.rules import DEFAULT_COSTS, N_POSITIONS, RULE_FLAGS, Options


class ScenarioError(ValueError):
    """A setup or expectation that does not follow FORMAT.md; the message says where."""


def _cards_list(value: Any, where: str, cards: list, allow_face: bool = False) -> list:
    if not isinstance(value, list):
        raise ScenarioError(f"{where} must be a list of cards like \"FF/SD\"")
    out = []
    for i, text in enumerate(value):
        if allow_face and text is None:
            out.append(None)
            continue
        down = False
        if allow_face and isinstance(text, str) and text.startswith("~"):
            down, text = True, text[1:]
        try:
            pair = parse_card(text)
        except CardError as exc:
            raise ScenarioError(f"{where}[{i}]: {exc}") from None
        cards.append(pair)
        out.append((len(cards) - 1, down) if allow_face else len(cards) - 1)
    return out


def _knob_fields(text: Any, flags: dict) -> dict:
    """``setup.knobs``: rules knobs in the variant notation (``knob:costs=2,2,3,4,5+knob:chain=3``), as Options fields.

    An extension of the shared format, read by this project only: a file
    without it plays the printed rules. Only knobs (no option, no swap: the
    options go in ``setup.options``, the cards are written out).
    """
    from simcore.games.dreamscape.variants import OPTION_TOKENS, VariantError, check_combination, parse_variant

    if not isinstance(text, str):
        raise ScenarioError("setup.knobs must be a text like \"knob:costs=2,2,3,4,5+knob:chain=3\"")
    if text.strip() != "base" and any(not tok.strip().startswith("knob:") for tok in text.split("+")):
        raise ScenarioError(f"setup.knobs may only hold knob:NAME=VALUE tokens joined by '+', got {text!r}")
    try:
        # Parsed with the scenario's options on, so that a knob needing one (token-point: sleep-token) is judged with it.
        on = [tok for tok, field in OPTION_TOKENS.items() if flags.get(field)]
        full = "+".join(on + ([text] if text.strip() != "base" else [])) or "base"
        knobs = {k: v for k, v in parse_variant(full).options._asdict().items() if k not in RULE_FLAGS}
        if knobs["copies"]:
            raise ScenarioError("setup.knobs: knob copies changes the deck file; a scenario writes its cards out")
        check_combination(Options(**flags, **knobs), text)  # e.g. knob costs with shifting_tokens
    except VariantError as exc:
        raise ScenarioError(f"setup.knobs: {exc}") from None
    return knobs


def state_from_setup(setup: Any) -> GameState:
    """Load a scenario ``setup`` object; every card written is a distinct physical card."""
    if not isinstance(setup, dict):
        raise ScenarioError("setup must be an object")
    known = {"options", "knobs", "costs", "sleep_deck", "dreamscape", "discard", "active", "seats"}
    unknown = set(setup) - known
    if unknown:
        raise ScenarioError(f"setup has unknown field(s): {', '.join(sorted(unknown))}")
    for required in ("sleep_deck", "dreamscape", "seats"):
        if required not in setup:
            raise ScenarioError(f"setup.{required} is missing")

    raw_options = setup.get("options", {}) or {}
    if not isinstance(raw_options, dict) or set(raw_options) - set(RULE_FLAGS):
        raise ScenarioError(f"setup.options may only hold {', '.join(RULE_FLAGS)}")
    if any(not isinstance(v, bool) for v in raw_options.values()):
        raise ScenarioError("setup.options values must be true or false")
    options = Options(**raw_options, **_knob_fields(setup.get("knobs", "base"), raw_options))

    # The position costs: the printed tokens 1..5 in some order (R2.3, moved by
    # R6.8's variant), or with the knob costs exactly the knob's (they never move).
    costs = setup.get("costs", list(options.market_costs()))
    if not isinstance(costs, list) or any(isinstance(c, bool) or not isinstance(c, int) for c in costs):
        raise ScenarioError(f"setup.costs must list five whole numbers, got {costs!r}")
    if options.costs and costs != list(options.costs):
        raise ScenarioError(f"setup.costs must be the knob's costs {list(options.costs)} (they never move), got {costs!r}")
    if not options.costs and sorted(costs) != list(DEFAULT_COSTS):
        raise ScenarioError(f"setup.costs must be the five costs 1..5 in some order, got {costs!r}")

    cards: list = []
    sleep_deck = _cards_list(setup["sleep_deck"], "setup.sleep_deck", cards)
    if not isinstance(setup["dreamscape"], list) or len(setup["dreamscape"]) != N_POSITIONS:
        raise ScenarioError("setup.dreamscape must list exactly 5 positions (card, \"~card\" or null)")
    row = _cards_list(setup["dreamscape"], "setup.dreamscape", cards, allow_face=True)
    discard = _cards_list(setup.get("discard", []) or [], "setup.discard", cards)

    raw_seats = setup["seats"]
    if not isinstance(raw_seats, list) or not 1 <= len(raw_seats) <= 4:
        raise ScenarioError("setup.seats must list 1 to 4 seats")
    seats = []
    for i, raw in enumerate(raw_seats):
        if not isinstance(raw, dict):
            raise ScenarioError(f"setup.seats[{i}] must be an object")
        extra = set(raw) - {"rem", "deep_sleep", "reserved"}
        if extra:
            raise ScenarioError(f"setup.seats[{i}] has unknown field(s): {', '.join(sorted(extra))}")
        rem = _cards_list(raw.get("rem", []), f"setup.seats[{i}].rem", cards)
        deep = _cards_list(raw.get("deep_sleep", []), f"setup.seats[{i}].deep_sleep", cards)
        reserved = _cards_list(raw.get("reserved", []) or [], f"setup.seats[{i}].reserved", cards)
        seats.append(Seat(rem=rem, deep_sleep=deep, reserved=reserved, ready=[True] * len(reserved)))

    active = setup.get("active", 0)
    if not isinstance(active, int) or isinstance(active, bool) or not 0 <= active < len(seats):
        raise ScenarioError(f"setup.active must be a seat from 0 to {len(seats) - 1}, got {active!r}")

    return GameState(
        cards=cards,
        sleep_deck=sleep_deck,
        dreamscape=[None if x is None else x[0] for x in row],
        face_down=[False if x is None else x[1] for x in row],
        costs=list(costs),
        discard=discard,
        seats=seats,
        active=active,
        options=options,
    )


def position_text(s: GameState, p: int) -> str | None:
    """A Dreamscape position (1..5) as ``"FF/SD"``, ``"~FF/SD"`` or None."""
    card = s.dreamscape[p - 1]
    if card is None:
        return None
    return ("~" if s.face_down[p - 1] else "") + card_code(s.cards[card])


def dump_state(s: GameState) -> dict:
    """The position in scenario notation plus the derived fields ``expect`` can check."""
    return {
        "options": s.options.flags(),
        "costs": list(s.costs),
        "sleep_deck": [s.code(c) for c in s.sleep_deck],
        "sleep_deck_count": len(s.sleep_deck),
        "dreamscape": [position_text(s, p) for p in range(1, N_POSITIONS + 1)],
        "discard": [s.code(c) for c in s.discard],
        "active": s.active,
        "game_over": s.game_over,
        "winners": list(s.winners) if s.game_over else None,
        "seats": [
            {
                "rem": [s.code(c) for c in st.rem],
                "deep_sleep": [s.code(c) for c in st.deep_sleep],
                "z": st.z,
                "spent": st.spent,
                "reserved": [s.code(c) for c in st.reserved],
                "score": s.score(i),
            }
            for i, st in enumerate(s.seats)
        ],
    }
