"""Variant notation, parsed and validated in one place.

A variant is ``base`` or ``+``-joined tokens: ``sleep-token`` (R9),
``shifting-tokens`` (R6.8 variant) and swaps ``XX:YY`` (remove XX, add YY;
R1.4), e.g. ``sleep-token+FF:ID+NT:ED``. Its canonical text puts the options
first, then the swaps sorted by removed type, so two spellings of the same
variant compare equal.
"""
from __future__ import annotations

from dataclasses import dataclass

from simcore.decks import Deck, DeckError, DeckSpec, build_deck, default_spec, parse_swap, swap_label, validate_swaps
from simcore.rules import Options

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
        if self.removed:
            tokens.append(swap_label(self.removed, self.added))
        return "+".join(tokens) if tokens else "base"

    def deck(self, spec: DeckSpec | None = None) -> Deck:
        return build_deck(spec or default_spec(), self.removed, self.added)

    def __str__(self) -> str:
        return self.name


def parse_variant(text: str) -> Variant:
    """Parse ``base`` or ``token+token+...``; raises :class:`VariantError`."""
    if not isinstance(text, str) or not text.strip():
        raise VariantError("empty variant: use 'base' or tokens like sleep-token+FF:ID")
    text = text.strip()
    if text == "base":
        return Variant()
    flags = {"sleep_token": False, "shifting_tokens": False}
    removed: list[int] = []
    added: list[int] = []
    for token in text.split("+"):
        token = token.strip()
        if token in OPTION_TOKENS:
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
            known = ", ".join(["base", *OPTION_TOKENS, "XX:YY"])
            raise VariantError(f"variant {text!r}: unknown token {token!r} (known: {known})")
    try:
        removed_set, added_set = validate_swaps(removed, added)
    except DeckError as exc:
        raise VariantError(f"variant {text!r}: {exc}") from None
    return Variant(Options(**flags), removed_set, added_set)


def variant_from_flags(sleep_token: bool, shifting_tokens: bool, swaps: list[str] | None) -> Variant:
    """The variant meant by the ``--sleep-token --shifting-tokens --swap`` flags."""
    tokens = [tok for tok, on in (("sleep-token", sleep_token), ("shifting-tokens", shifting_tokens)) if on]
    tokens += list(swaps or [])
    return parse_variant("+".join(tokens) if tokens else "base")
