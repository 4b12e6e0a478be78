"""The Controlled Study swap sweep: every swap deck (R1.4) x player counts x rules options.

:func:`sweep_variants` lists the variants a sweep plays (the base deck is
always included as the reference); :func:`swap_sweep` reads a study folder
into one row per configuration with the balance numbers a designer compares
across decks. Everything comes from the per-chunk aggregates, so the sweep
runs ``--aggregate-only``.
"""
from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path

import polars as pl

from analyses.games.dreamscape.balance import seat_spread, winning_score
from analyses.study.model import StudyError
from analyses.stats.intervals import wilson
from analyses.games.dreamscape.strength import type_rows
from analyses.study.folder import finished_configs, seat_totals, to_output
from simcore.games.dreamscape.cards import CODES
from simcore.games.dreamscape.decks import DeckError, DeckSpec, all_swap_sets, build_deck, swap_label
from simcore.games.dreamscape.variants import VariantError, parse_variant

SWAP_SIZES = {"none": (0,), "single": (1,), "double": (2,), "triple": (3,), "all": (0, 1, 2, 3)}
OPTION_SETS = {
    "base": "",
    "sleep-token": "sleep-token",
    "shifting-tokens": "shifting-tokens",
    "sleep-token+shifting-tokens": "sleep-token+shifting-tokens",
}
ALL_OPTIONS = tuple(OPTION_SETS)
MIN_MORE_SHARE = 0.01  # the strongest type needs "more" seat-games in at least 1% of seat-games (and 30)


def parse_options(text: str) -> list[str]:
    """``all``, or comma-separated option sets: base, sleep-token, shifting-tokens, sleep-token+shifting-tokens.

    A set may also be any variant without swaps, rules knobs included
    (``knob:start-z=0,1,1``, ``sleep-token+knob:z-penalty=2``): its canonical name.
    """
    out: list[str] = []
    parts: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:  # '' or ',,' is not "all": every part must be written
            raise StudyError(f"--options {text!r}: an empty option set (write all for every one, or e.g. base,sleep-token)")
        if piece[0].isdigit() and parts and "knob:" in parts[-1]:
            # a list knob's next value (knob:start-z=0,1,1), maybe followed by more tokens
            # (knob:costs=2,2,3,4,6+knob:chain=3,5): no option set starts with a digit
            parts[-1] += "," + piece
        else:
            parts.append(piece)
    for part in parts:
        if part == "all":
            out.extend(ALL_OPTIONS)
            continue
        if part in ("shifting-tokens+sleep-token", "both"):
            part = "sleep-token+shifting-tokens"
        if part not in OPTION_SETS and "knob:" in part:
            try:
                v = parse_variant(part)
            except VariantError as exc:
                raise StudyError(f"--options {text!r}: {exc}") from None
            if v.removed:
                raise StudyError(f"--options {text!r}: {part!r} holds swaps; give swaps with --swaps")
            out.append(v.name)
            continue
        if part not in OPTION_SETS:
            raise StudyError(f"--options {text!r}: unknown option set {part!r} (use all, {', '.join(ALL_OPTIONS)}, comma-separated)")
        out.append(part)
    return list(dict.fromkeys(out))


def swap_decks(swaps: str = "all", spec: DeckSpec | None = None) -> list[str]:
    """Swap labels (``base``, ``FF:ID``, ``FF:ID+NT:ED`` ...) selected by ``--swaps``.

    ``swaps`` is ``all``, ``none``, ``single``, ``double``, ``triple``, or
    comma-separated shell patterns matched against the deck label, e.g.
    ``FF:*`` (decks whose first swap removes FF), ``*NT:*`` (any deck removing
    NT), ``*:ID*`` (any deck adding ID). The base deck is always included as
    the reference. Raises StudyError when a pattern matches nothing.
    """
    text = swaps.strip()
    if not text or not all(p.strip() for p in text.split(",")):  # '' or ',,' is not "all"
        raise StudyError(f"--swaps {swaps!r}: an empty swap pattern (write all for every deck, none, or e.g. FF:*)")
    labels = []
    for removed, added in all_swap_sets():
        labels.append((len(removed), swap_label(removed, added)))
    if text.lower() in SWAP_SIZES:
        sizes = SWAP_SIZES[text.lower()]
        chosen = [lab for k, lab in labels if k in sizes]
    else:
        patterns = [p.strip().upper() for p in text.split(",") if p.strip()]
        chosen = []
        for pattern in patterns:
            hits = [lab for k, lab in labels if k > 0 and fnmatchcase(lab, pattern)]
            if not hits:
                raise StudyError(f"--swaps {swaps!r}: no swap deck matches {pattern!r} "
                                 "(use all, none, single, double, triple or patterns like FF:*, *NT:*, *:ID*)")
            chosen.extend(hits)
    chosen = list(dict.fromkeys(["base", *chosen]))
    for label in chosen:  # every deck must build from the composition (a --deck file may lack cards)
        if label != "base":
            try:
                v = parse_variant(label)
                build_deck(spec, v.removed, v.added)
            except (DeckError, VariantError) as exc:
                raise StudyError(f"swap deck {label}: {exc}") from None
    return chosen


SWAP_COUNTS = {"all": None, "none": 0, "single": 1, "double": 2, "triple": 3}


def swap_deck_table(spec: DeckSpec, swaps: str = "all") -> dict:
    """``dreamscape decks``: the Controlled Study decks (R1.4) of ``spec`` with ``swaps`` swaps (all, none, single ...).

    Returns the composition's source, the decks themselves (``decks``) and
    one row per deck: its label, size, removed and added types, cards per type.
    """
    from simcore.games.dreamscape.decks import all_swap_decks

    if swaps not in SWAP_COUNTS:
        raise StudyError(f"--swaps must be one of {', '.join(SWAP_COUNTS)}, got {swaps!r}")
    count = SWAP_COUNTS[swaps]
    chosen = [d for d in all_swap_decks(spec) if count is None or len(d.removed) == count]
    rows = [{"deck": d.label, "cards": len(d), "removed": [CODES[t] for t in sorted(d.removed)],
             "added": [CODES[t] for t in sorted(d.added)],
             "type_counts": dict(zip(CODES, (int(n) for n in d.type_counts())))} for d in chosen]
    return {"source": str(spec.source), "decks": chosen, "rows": rows}


def sweep_variants(swaps: str = "all", options: str = "all", spec: DeckSpec | None = None) -> list[str]:
    """Canonical variant names: every selected swap deck x every selected option set."""
    out = []
    for opt in parse_options(options):
        for label in swap_decks(swaps, spec):
            tokens = [t for t in (OPTION_SETS.get(opt, "" if opt == "base" else opt), "" if label == "base" else label) if t]
            out.append(parse_variant("+".join(tokens) if tokens else "base").name)
    return out


def describe_variant(variant: str) -> dict[str, str]:
    """swaps (``FF:ID+NT:ED`` or ``none``), removed (``FF+NT``), added (``ID+ED``), options (``base`` ...)."""
    v = parse_variant(variant)
    return {
        "swaps": swap_label(v.removed, v.added) if v.removed else "none",
        "removed": "+".join(CODES[t] for t in sorted(v.removed)),
        "added": "+".join(CODES[t] for t in sorted(v.added)),
        "options": v.options.label(),
    }


_SCHEMA = {
    "variant": pl.Utf8, "swaps": pl.Utf8, "removed": pl.Utf8, "added": pl.Utf8, "options": pl.Utf8,
    "players": pl.Int64, "strategies": pl.Utf8, "games": pl.Int64, "seat_spread": pl.Float64,
    "spread_low": pl.Float64, "spread_high": pl.Float64, "first_seat_win": pl.Float64, "first_low": pl.Float64,
    "first_high": pl.Float64, "mean_winning_score": pl.Float64, "ws_low": pl.Float64, "ws_high": pl.Float64,
    "mean_length": pl.Float64, "strongest_type": pl.Utf8, "strongest_lift": pl.Float64,
}


def swap_sweep(folder: str | Path, pandas: bool = False):
    """One row per multi-player configuration: the balance numbers of its deck, options and player count.

    Columns: variant, swaps (``FF:ID+NT:ED`` or ``none``), removed (``FF+NT``
    or ``""``), added, options (``base``, ``sleep-token``, ...), players,
    strategies, games, seat_spread (best seat's win rate minus the worst
    seat's) with spread_low/spread_high (delta-method: the 95% t interval of
    the per-game difference of those two seats' win credits, see
    :func:`analyses.games.dreamscape.balance.seat_spread`), first_seat_win with
    first_low/first_high (Wilson), mean_winning_score with ws_low/ws_high
    (mean over non-aborted games of the highest score, t interval; exact from
    the aggregates since winners hold the highest score, R8.3), mean_length
    (turns), strongest_type (the dream type with the highest win-rate lift of
    the seats performing it more than the game's mean, among types with such
    seat-games in at least 1% of all seat-games and at least 30) and its
    strongest_lift.
    """
    configs = [c for c in finished_configs(folder) if c.players >= 2]
    if not configs:
        return to_output(pl.DataFrame(schema=_SCHEMA), pandas)
    totals = seat_totals(folder)
    parts = {key[0]: part for key, part in totals.group_by(["config"])}
    rows = []
    for c in configs:
        part = parts.get(c.id)
        if part is None:
            continue
        seat_rows = part.sort("seat").to_dicts()
        n = seat_rows[0]["n"]
        spread, _, _, _ = seat_spread(seat_rows)
        first = wilson(seat_rows[0]["sum_win"], n)
        ws, _, _, _ = winning_score(seat_rows)
        strongest, lift = "", float("nan")
        min_more = max(30, MIN_MORE_SHARE * n * c.players)
        for t in type_rows(part, c.variant, c.players):
            if t["games_more"] >= min_more and (strongest == "" or t["lift"] > lift):
                strongest, lift = t["type"], t["lift"]
        try:
            desc = describe_variant(c.variant)
        except VariantError:
            desc = {"swaps": "", "removed": "", "added": "", "options": ""}
        rows.append({
            "variant": c.variant, **desc, "players": c.players, "strategies": c.label, "games": n,
            "seat_spread": spread.value, "spread_low": spread.low, "spread_high": spread.high,
            "first_seat_win": first.value, "first_low": first.low, "first_high": first.high,
            "mean_winning_score": ws.value, "ws_low": ws.low, "ws_high": ws.high,
            "mean_length": seat_rows[0]["sum_length"] / n, "strongest_type": strongest, "strongest_lift": lift,
        })
    return to_output(pl.DataFrame(rows, schema=_SCHEMA), pandas)
