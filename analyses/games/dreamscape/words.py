"""Project Dreamscape's words as a designer reads them in charts and reports: variant names, types, bots.

Variants keep the notation of ``simcore.games.dreamscape.variants`` in
files and become words here ("Sleep Token", "Night Terror -> Invasive Dreaming").
"""
from __future__ import annotations

from dataclasses import dataclass

from simcore.games.dreamscape.cards import CODES, NAMES
from simcore.games.dreamscape.variants import OPTION_TOKENS, VariantError, parse_variant

OPTION_WORDS = {"sleep-token": "Sleep Token", "shifting-tokens": "shifting tokens"}
OPTION_ORDER = ("base", "sleep-token", "shifting-tokens", "sleep-token+shifting-tokens")



@dataclass(frozen=True)
class VariantParts:
    """A variant split into its rules options and its swaps."""

    text: str
    options: str  # "base", "sleep-token", "shifting-tokens" or "sleep-token+shifting-tokens"
    swaps: tuple[tuple[str, str], ...]  # (removed code, added code), sorted by removed type
    knobs: tuple[str, ...] = ()  # rules knobs away from the rulebook, "start-z=0,1,1" (simcore.games.dreamscape.rules.KNOBS)

    @property
    def has_swaps(self) -> bool:
        return bool(self.swaps)


def split_variant(text: str) -> VariantParts:
    """``"sleep-token+NT:ID"`` -> options ``sleep-token``, swaps ``(("NT", "ID"),)``."""
    try:
        v = parse_variant(text)
    except VariantError:
        return VariantParts(text, text, ())
    opts = [tok for tok, field in OPTION_TOKENS.items() if getattr(v.options, field)]
    swaps = tuple(zip((CODES[t] for t in sorted(v.removed)), (CODES[t] for t in sorted(v.added))))
    knobs = tuple(tok[len("knob:"):] for tok in v.options.knob_tokens())
    return VariantParts(text, "+".join(opts) if opts else "base", swaps, knobs)


def options_label(options: str) -> str:
    """``"sleep-token+shifting-tokens"`` -> ``"Sleep Token + shifting tokens"``."""
    if options == "base":
        return "base game"
    return " + ".join(OPTION_WORDS.get(tok, tok) for tok in options.split("+"))


def type_name(code: str) -> str:
    """``"NT"`` -> ``"Night Terror"`` (unknown codes are returned as they are)."""
    return NAMES[CODES.index(code)] if code in CODES else code


def swap_words(removed: str, added: str) -> str:
    """``("NT", "ID")`` -> ``"Night Terror -> Invasive Dreaming"`` (codes may be ``+``-joined)."""
    out = " + ".join(type_name(c) for c in removed.split("+") if c)
    into = " + ".join(type_name(c) for c in added.split("+") if c)
    return f"{out} \u2192 {into}"


def variant_label(text: str, short: bool = False) -> str:
    """A variant for a legend or a sentence: ``"Sleep Token, NT\u2192ID"``."""
    parts = split_variant(text)
    if parts.options == parts.text and not parts.has_swaps and parts.text not in OPTION_ORDER:
        return text  # not a variant we can parse: show it as written
    label = options_label(parts.options)
    if parts.knobs:  # house rules are part of the name: "start-z=0,1,1, bonus=0,0,2"
        knobs = ", ".join(parts.knobs)
        label = knobs if parts.options == "base" else f"{label}, {knobs}"
    if not parts.has_swaps:
        return label
    if short:
        swaps = ", ".join(f"{r}\u2192{a}" for r, a in parts.swaps)
    else:
        swaps = ", ".join(swap_words(r, a) for r, a in parts.swaps)
    return swaps if parts.options == "base" and not parts.knobs else f"{label}, {swaps}"


def strategies_label(strategies: str) -> str:
    """``"linear/linear/linear"`` -> ``"linear"``; mixed seats stay as written."""
    names = strategies.split("/")
    return names[0] if len(set(names)) == 1 else " vs ".join(names)
