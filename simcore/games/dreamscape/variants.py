"""Variant notation, parsed and validated in one place.

A variant is ``base`` or ``+``-joined tokens: ``sleep-token`` (R9),
``shifting-tokens`` (R6.8 variant), rules knobs ``knob:NAME=VALUE``
(:data:`simcore.games.dreamscape.rules.KNOBS`, e.g. ``knob:start-z=0,1,1`` or
``knob:z-penalty=2``) and swaps ``XX:YY`` (remove XX, add YY; R1.4), e.g.
``sleep-token+knob:bonus=0,0,2+FF:ID``. Its canonical text puts the options
first, then the knobs away from the rulebook in :data:`~simcore.games.dreamscape.rules.KNOBS`
order, then the swaps sorted by removed type, so two spellings of the same
variant compare equal (a knob written at its rulebook value is dropped).
"""
from __future__ import annotations

from dataclasses import dataclass

from simcore.games.dreamscape.cards import CardError, parse_card
from simcore.games.dreamscape.decks import (
    Deck,
    DeckError,
    DeckSpec,
    build_deck,
    default_spec,
    parse_swap,
    swap_label,
    validate_swaps,
    with_copies,
)
from simcore.games.dreamscape.rules import (
    KNOB_BY_TOKEN,
    KNOBS,
    RULEBOOK_CHAIN,
    KnobError,
    Options,
    chain_table,
    rulebook_chain_step,
)

OPTION_TOKENS = {"sleep-token": "sleep_token", "shifting-tokens": "shifting_tokens"}


class VariantError(ValueError):
    """A variant text that cannot be played; the message names the bad token."""


@dataclass(frozen=True)
class Variant:
    options: Options = Options()
    removed: frozenset[int] = frozenset()
    added: frozenset[int] = frozenset()

    @property
    def name(self) -> str:
        tokens = [tok for tok, field in OPTION_TOKENS.items() if getattr(self.options, field)]
        tokens += self.options.knob_tokens()
        if self.removed:
            tokens.append(swap_label(self.removed, self.added))
        return "+".join(tokens) if tokens else "base"

    def deck(self, spec: DeckSpec | None = None) -> Deck:
        spec = spec or default_spec()
        if self.options.copies:
            spec = with_copies(spec, self.options.copies)  # knob copies (R1.3)
        return build_deck(spec, self.removed, self.added)

    def __str__(self) -> str:
        return self.name


def parse_variant(text: str) -> Variant:
    """Parse ``base`` or ``token+token+...``; raises :class:`VariantError`."""
    if not isinstance(text, str) or not text.strip():
        raise VariantError("empty variant: use 'base' or tokens like sleep-token+FF:ID")
    text = text.strip()
    if text == "base":
        return Variant()
    flags: dict = {"sleep_token": False, "shifting_tokens": False}
    removed: list[int] = []
    added: list[int] = []
    for token in text.split("+"):
        token = token.strip()
        if token.startswith("knob:"):
            field, value = parse_knob(token, text)
            if field in flags:
                raise VariantError(f"variant {text!r}: knob {token.split('=')[0][5:]} appears twice")
            flags[field] = value
        elif token in OPTION_TOKENS:
            if flags[OPTION_TOKENS[token]]:
                raise VariantError(f"variant {text!r}: {token} appears twice")
            flags[OPTION_TOKENS[token]] = True
        elif ":" in token:
            try:
                r, a = parse_swap(token)
            except DeckError as exc:
                raise VariantError(f"variant {text!r}: {exc}") from None
            removed.append(r)
            added.append(a)
        else:
            known = ", ".join(["base", *OPTION_TOKENS, "knob:NAME=VALUE", "XX:YY"])
            raise VariantError(f"variant {text!r}: unknown token {token!r} (known: {known})")
    try:
        removed_set, added_set = validate_swaps(removed, added)
    except DeckError as exc:
        raise VariantError(f"variant {text!r}: {exc}") from None
    options = Options(**flags)
    check_combination(options, text)
    return Variant(options, removed_set, added_set)


def parse_knob(token: str, text: str = "") -> tuple[str, object]:
    """``knob:NAME=VALUE`` as (Options field, value); raises :class:`VariantError` naming the problem."""
    where = f"variant {text or token!r}"
    name, sep, raw = token[len("knob:"):].partition("=")
    k = KNOB_BY_TOKEN.get(name.strip())
    if k is None:
        raise VariantError(f"{where}: unknown knob {name!r} (known: {', '.join(k.token for k in KNOBS)})")
    if not sep or not raw.strip():
        raise VariantError(f"{where}: knob {k.token} needs a value, e.g. knob:{k.token}={example_value(k)}")
    parts = [p.strip() for p in raw.split(",")]
    if k.token == "copies":
        return k.field, parse_copies(parts, k, where)
    if k.values != (1, 1):
        fewest, most = k.values
        if not fewest <= len(parts) <= most:
            count = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise VariantError(f"{where}: knob {k.token} takes {count} values ({k.meaning}), got {len(parts)}")
    elif not k.per_seat and len(parts) != 1:
        raise VariantError(f"{where}: knob {k.token} takes one value, got {raw!r}")
    if k.per_seat and len(parts) > 4:
        raise VariantError(f"{where}: knob {k.token} takes at most 4 values (one per seat), got {len(parts)}")
    values = []
    for part in parts:
        try:
            v = int(part)
        except ValueError:
            raise VariantError(f"{where}: knob {k.token} value {part!r} is not a whole number") from None
        if not k.low <= v <= k.high:
            raise VariantError(f"{where}: knob {k.token} value {v} is outside {k.low}..{k.high} ({k.rule}: {k.meaning})")
        values.append(v)
    if k.token == "chain":
        return k.field, canonical_chain(values, where)
    if k.values != (1, 1):
        return k.field, () if tuple(values) == k.default else tuple(values)
    if k.per_seat:
        # Written at the rulebook value for every seat: the printed game, canonically ().
        return k.field, () if all(v == k.default for v in values) else tuple(values)
    return k.field, values[0]


def parse_copies(parts: list[str], k, where: str) -> tuple[tuple[int, int, int], ...]:
    """``XX/YY:N`` entries of the copies knob (R1.3) as sorted (type a, type b, copies) with a < b."""
    fewest, most = k.values
    if not fewest <= len(parts) <= most:
        raise VariantError(f"{where}: knob copies takes {fewest} to {most} entries XX/YY:N, got {len(parts)}")
    out: dict[tuple[int, int], int] = {}
    for part in parts:
        card_text, sep, count_text = part.partition(":")
        if not sep:
            raise VariantError(f"{where}: knob copies entry {part!r} is not written XX/YY:N, e.g. knob:copies=FF/SD:2")
        try:
            a, b = parse_card(card_text.strip())
        except CardError as exc:
            raise VariantError(f"{where}: knob copies entry {part!r}: {exc}") from None
        try:
            n = int(count_text)
        except ValueError:
            raise VariantError(f"{where}: knob copies value {count_text.strip()!r} is not a whole number") from None
        if not k.low <= n <= k.high:
            raise VariantError(f"{where}: knob copies value {n} is outside {k.low}..{k.high} ({k.rule}: {k.meaning})")
        pair = (min(a, b), max(a, b))
        if pair in out:
            raise VariantError(f"{where}: knob copies names the card {card_text.strip()} twice")
        out[pair] = n
    return tuple((a, b, n) for (a, b), n in sorted(out.items()))


def canonical_chain(values: list[int], where: str) -> tuple[int, ...]:
    """The chain knob's values, checked (never falling, R8.2) and cut to the shortest list playing the same game.

    Values equal to what the rulebook's steps would give anyway are dropped
    from the end (``knob:chain=3,5,7`` and ``knob:chain=3,5,7,9`` are one game);
    the rulebook's own chart is ``()``.
    """
    for length, (shorter, longer) in enumerate(zip(values, values[1:]), start=3):
        if longer < shorter:
            raise VariantError(
                f"{where}: knob chain must never fall (R8.2): a run of {length} scores {longer}, "
                f"less than the {shorter} of a run of {length - 1}"
            )
    table = chain_table(tuple(values))
    while values and (len(values) == 1 and values[0] == RULEBOOK_CHAIN[0] or len(values) > 1 and values[-1] == values[-2] + rulebook_chain_step(len(values) + 1)):
        values = values[:-1]
    assert chain_table(tuple(values)) == table  # dropping a value the steps give back keeps the game
    return tuple(values)


def check_combination(options: Options, text: str) -> None:
    """Refuse a knob combined with a variant that fixes the same number."""
    if options.costs and options.shifting_tokens:
        raise VariantError(
            f"variant {text!r}: knob costs and shifting-tokens both set the market costs "
            f"(R6.8's variant moves the printed tokens 1..5): a knob combined with a variant that fixes the same number"
        )
    if options.token_point != KNOB_BY_TOKEN["token-point"].default and not options.sleep_token:
        raise VariantError(f"variant {text!r}: knob token-point changes the Sleep Token (R9): add sleep-token")


def example_value(k) -> str:
    """A value of knob ``k`` to show in an error (its rulebook value)."""
    if isinstance(k.default, tuple):
        return ",".join(str(v) for v in k.default)
    return str(k.default if k.default or k.low == 0 else k.low)


def check_variant_fits(variant: Variant, players: int) -> None:
    """Raise :class:`VariantError` when a per-seat knob does not fit ``players`` seats."""
    try:
        variant.options.check_fits(players)
    except KnobError as exc:
        raise VariantError(f"variant {variant.name!r}: {exc}") from None


def variant_from_flags(sleep_token: bool, shifting_tokens: bool, swaps: list[str] | None) -> Variant:
    """The variant meant by the ``--sleep-token --shifting-tokens --swap`` flags."""
    tokens = [tok for tok, on in (("sleep-token", sleep_token), ("shifting-tokens", shifting_tokens)) if on]
    tokens += list(swaps or [])
    return parse_variant("+".join(tokens) if tokens else "base")
