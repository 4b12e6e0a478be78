"""The card file reader: a designer's TOML card list -> :class:`~.common.CardSet` (typed arrays).

The format is documented in ``docs/games/counting-zzzzs.md`` and in the header of the shipped
``cards.toml``. Every problem raises :class:`~.common.CZError` with one line naming the file, the card
and the field, so the command line reports it and exits 2. This is the package's one input reader.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from simcore.files import read_toml_file

from .common import (ACTION_KINDS, BENDS, CANCELS, CARDS_FILE, CONTEXT, ELEMENT_KINDS, FORCE_NEGATIVE,
                     FORCE_POSITIVE, FORCE_THEME0, MAX_COPIES, MAX_MODIFIERS, MAX_TOTAL, MAX_TYPES, MAX_VALUE,
                     NEGATIVE, NEUTRAL, POSITIVE, THEMES, WAKES, CardSet, CZError)

TOP_KEYS = {"deck", "element", "action"}
DECK_KEYS = {"name", "illustrative", "note"}
ELEMENT_KEYS = {"name", "kind", "themes", "value", "modifiers", "count"}
# The key that says what each action kind does, and its allowed words.
EFFECT_KEY = {"wake up": ("wakes", WAKES), "bender": ("bends", BENDS), "block": ("cancels", CANCELS)}
CONTEXT_RE = re.compile(r"\+(\d+)\s*/\s*-(\d+)")
MODIFIER_RE = re.compile(r"([+-]\d+)\s+with\s+(\S.*)")


def _text(value) -> str:
    """A value as it appears in a message (short, one line)."""
    text = repr(value)
    text = text.replace("\n", " ").replace("\r", " ")
    return text if len(text) <= 60 else text[:57] + "..."


def load_cards(path: str | os.PathLike | None = None) -> CardSet:
    """Read and check a card file (None: the shipped example deck).

    Raises
    ------
    CZError
        One line: ``card file F: element card 'Mom': themes: ...`` (the file, the card, the field).
    """
    file = Path(path) if path is not None else CARDS_FILE
    if not file.exists() and not file.is_symlink():
        raise CZError(f"card file {file}: no such file")
    # size, nesting and integer-length limits, a pipe read once (simcore.files); one line naming the file
    return read_cards(read_toml_file(file, "card file", CZError, label=f"card file {file}"), str(file))


def read_cards(data: dict, file: str = "cards") -> CardSet:
    """Check a parsed card file; CZError (one line) on the first problem."""
    where = f"card file {file}"
    extra = sorted(set(data) - TOP_KEYS)
    if extra:
        raise CZError(f"{where}: unknown top-level key {_text(extra[0])} (only [deck], [[element]], [[action]])")
    deck = data.get("deck", {})
    if not isinstance(deck, dict):
        raise CZError(f"{where}: deck must be a table ([deck])")
    bad = sorted(set(deck) - DECK_KEYS)
    if bad:
        raise CZError(f"{where}: [deck]: unknown key {_text(bad[0])} (name, illustrative, note)")
    elements, actions = data.get("element", []), data.get("action", [])
    for key, tables in (("element", elements), ("action", actions)):
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            raise CZError(f"{where}: {key} must be [[{key}]] tables")
    if not elements:
        raise CZError(f"{where}: no [[element]] cards")
    if len(elements) + len(actions) > MAX_TYPES:
        raise CZError(f"{where}: {len(elements) + len(actions)} cards, at most {MAX_TYPES} different cards")
    rows: dict[str, list] = {k: [] for k in ("names", "element", "kind", "themes", "polarity", "plus", "minus",
                                             "effect", "count")}
    pending_mods: list[tuple[int, int, str, str]] = []   # (row, points, needed name, card label)
    for i, card in enumerate(elements, 1):
        _element(card, i, where, rows, pending_mods)
    for i, card in enumerate(actions, 1):
        _action(card, i, where, rows)
    names = rows["names"]
    modifiers = []
    for row, points, need, label in pending_mods:
        if need not in names or not rows["element"][names.index(need)]:
            raise CZError(f"{label}: modifiers: {_text(need)} is not an element card of this file")
        modifiers.append((row, points, names.index(need)))
    if len(modifiers) > MAX_MODIFIERS:
        raise CZError(f"{where}: {len(modifiers)} modifiers, at most {MAX_MODIFIERS}")
    total = sum(rows["count"])
    if total > MAX_TOTAL:
        raise CZError(f"{where}: {total} cards in all, at most {MAX_TOTAL}")
    return CardSet(tuple(names), tuple(rows["element"]), tuple(rows["kind"]), tuple(rows["themes"]),
                   tuple(rows["polarity"]), tuple(rows["plus"]), tuple(rows["minus"]), tuple(rows["effect"]),
                   tuple(rows["count"]), tuple(modifiers), source=file)


def _name(card: dict, what: str, i: int, where: str, names: list[str]) -> tuple[str, str]:
    name = card.get("name")
    if not isinstance(name, str) or not name.strip() or "\n" in name or len(name) > 60:
        raise CZError(f"{where}: {what} card {i}: name: needs a one-line name of 1 to 60 characters, not {_text(name)}")
    name = name.strip()
    label = f"{where}: {what} card {name!r}"
    if name in names:
        raise CZError(f"{label}: name: used twice")
    return name, label


def _count(card: dict, label: str) -> int:
    count = card.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COPIES:
        raise CZError(f"{label}: count: a whole number from 1 to {MAX_COPIES}, not {_text(count)}")
    return count


def _choice(card: dict, key: str, words: tuple[str, ...], label: str) -> int:
    value = card.get(key)
    if value is None:
        raise CZError(f"{label}: {key}: missing (one of {', '.join(words)})")
    if not isinstance(value, str) or value.strip().lower() not in words:
        raise CZError(f"{label}: {key}: {_text(value)} is not one of {', '.join(words)}")
    return words.index(value.strip().lower())


def _value(value, label: str) -> tuple[int, int, int]:
    """(polarity, plus, minus) from a value field: N > 0, -N, 0 or "neutral", or "+a/-b" (Z14)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if not -MAX_VALUE <= value <= MAX_VALUE:
            raise CZError(f"{label}: value: {_text(value)} is outside -{MAX_VALUE}..{MAX_VALUE}")
        if value > 0:
            return POSITIVE, value, 0
        if value < 0:
            return NEGATIVE, 0, -value
        return NEUTRAL, 0, 0
    if isinstance(value, str):
        text = value.strip().lower()
        if text == "neutral":
            return NEUTRAL, 0, 0
        m = CONTEXT_RE.fullmatch(text)
        if m:
            a, b = int(m.group(1)), int(m.group(2))
            if not (1 <= a <= MAX_VALUE and 1 <= b <= MAX_VALUE):
                raise CZError(f"{label}: value: a context card's +a/-b needs a and b from 1 to {MAX_VALUE}, "
                              f"not {_text(value)}")
            return CONTEXT, a, b
    raise CZError(f"{label}: value: {_text(value)} is not N, -N, \"neutral\" or a context \"+a/-b\"")


def _element(card: dict, i: int, where: str, rows: dict, mods: list) -> None:
    name, label = _name(card, "element", i, where, rows["names"])
    bad = sorted(set(card) - ELEMENT_KEYS)
    if bad:
        raise CZError(f"{label}: {bad[0]}: unknown field (an element has {', '.join(sorted(ELEMENT_KEYS))})")
    kind = _choice(card, "kind", ELEMENT_KINDS, label)
    themes = card.get("themes")
    if not isinstance(themes, list) or not themes:
        raise CZError(f"{label}: themes: a non-empty list of {', '.join(THEMES)}, not {_text(themes)}")
    mask = 0
    for t in themes:
        if not isinstance(t, str) or t.strip().lower() not in THEMES:
            raise CZError(f"{label}: themes: {_text(t)} is not one of {', '.join(THEMES)}")
        bit = 1 << THEMES.index(t.strip().lower())
        if mask & bit:
            raise CZError(f"{label}: themes: {t!r} given twice")
        mask |= bit
    if "value" not in card:
        raise CZError(f"{label}: value: missing (N, -N, \"neutral\" or \"+a/-b\")")
    polarity, plus, minus = _value(card["value"], label)
    row = len(rows["names"])
    modifiers = card.get("modifiers", [])
    if not isinstance(modifiers, list):
        raise CZError(f"{label}: modifiers: a list like [\"+2 with Mom\"], not {_text(modifiers)}")
    seen = set()
    for m in modifiers:
        match = MODIFIER_RE.fullmatch(m.strip()) if isinstance(m, str) else None
        if match is None:
            raise CZError(f"{label}: modifiers: {_text(m)} is not like \"+2 with Mom\"")
        points, need = int(match.group(1)), match.group(2).strip()
        if points == 0 or abs(points) > MAX_VALUE:
            raise CZError(f"{label}: modifiers: {_text(m)} needs points from 1 to {MAX_VALUE} (or -1 to -{MAX_VALUE})")
        if need in seen:
            raise CZError(f"{label}: modifiers: two modifiers with {need!r}")
        seen.add(need)
        mods.append((row, points, need, label))
    count = _count(card, label)
    for key, v in (("names", name), ("element", True), ("kind", kind), ("themes", mask), ("polarity", polarity),
                   ("plus", plus), ("minus", minus), ("effect", 0), ("count", count)):
        rows[key].append(v)


def _action(card: dict, i: int, where: str, rows: dict) -> None:
    name, label = _name(card, "action", i, where, rows["names"])
    kind = _choice(card, "kind", ACTION_KINDS, label)
    word = ACTION_KINDS[kind]
    keys = {"name", "kind", "count"} | ({"sets", "to"} if word == "force" else {EFFECT_KEY[word][0]})
    bad = sorted(set(card) - keys)
    if bad:
        raise CZError(f"{label}: {bad[0]}: not a field of a {word} card (it has {', '.join(sorted(keys))})")
    if word == "force":
        sets = _choice(card, "sets", ("polarity", "theme"), label)
        if sets == 0:
            effect = (FORCE_POSITIVE, FORCE_NEGATIVE)[_choice(card, "to", ("positive", "negative"), label)]
        else:
            effect = FORCE_THEME0 + _choice(card, "to", THEMES, label)
    else:
        key, words = EFFECT_KEY[word]
        effect = _choice(card, key, words, label)
    count = _count(card, label)
    for key, v in (("names", name), ("element", False), ("kind", kind), ("themes", 0), ("polarity", NEUTRAL),
                   ("plus", 0), ("minus", 0), ("effect", effect), ("count", count)):
        rows[key].append(v)
