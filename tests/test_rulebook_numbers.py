"""docs/guide/knobs.md lists every number the rulebook prints; its table must be what the code plays.

The table is generated from rules.py and the default deck file
(simcore.games.dreamscape.numbers.markdown_table); the page's copy must match it, and the values
themselves are checked against the rulebook (shared/rules/interpretations.md) as printed there.
"""
from __future__ import annotations

from pathlib import Path

from simcore.games.dreamscape.numbers import markdown_table, rulebook_numbers
from simcore.games.dreamscape.rules import KNOBS

PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "knobs.md"


def test_the_knobs_page_table_is_the_generated_one():
    text = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- numbers:start -->\n", "<!-- numbers:end -->"
    assert start in text and end in text
    on_page = text[text.index(start) + len(start) : text.index(end)]
    expected = markdown_table()
    assert on_page == expected, "docs/guide/knobs.md is stale; paste in:\n" + expected


def test_every_knob_is_in_the_table_once():
    knobs = [n.knob for n in rulebook_numbers() if n.knob]
    assert sorted(knobs) == sorted(f"knob:{k.token}" for k in KNOBS)


def test_the_table_holds_the_printed_values():
    # Values as R1.3, R2.1, R2.3, R8.2 print them (interpretations.md), typed from there.
    by_what = {n.what: n.value for n in rulebook_numbers()}
    assert by_what["market costs by position"] == "1, 2, 3, 4, 5"
    assert by_what["Dreamscape positions"] == "5"
    assert by_what["chain points, runs of 2, 3, ... 14 cards"] == "2, 4, 6, 8, 10, 13, 16, 20, 24, 29, 34, 40, 46"
    assert by_what["base Sleep Deck"].startswith("52 cards")
    assert by_what["expansion deck"].startswith("54 cards")
    assert by_what["cards per base type"] == "13"
    assert by_what["players"] == "1–4"


def test_the_counting_zzzzs_table_is_the_generated_one():
    from simcore.games.counting_zzzzs.numbers import markdown_table as cz_table

    text = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- counting-zzzzs-numbers:start -->\n", "<!-- counting-zzzzs-numbers:end -->"
    assert start in text and end in text
    on_page = text[text.index(start) + len(start) : text.index(end)]
    assert on_page == cz_table(), "docs/guide/knobs.md is stale (Counting Zzzzs); paste in:\n" + cz_table()


def test_the_pleasant_dreams_table_is_the_generated_one():
    from simcore.games.pleasant_dreams.numbers import markdown_table as pd_table
    from simcore.games.pleasant_dreams.numbers import rulebook_numbers as pd_numbers

    text = PAGE.read_text(encoding="utf-8")
    start, end = "<!-- pleasant-dreams-numbers:start -->\n", "<!-- pleasant-dreams-numbers:end -->"
    assert start in text and end in text
    on_page = text[text.index(start) + len(start) : text.index(end)]
    assert on_page == pd_table(), "docs/guide/knobs.md is stale (Pleasant Dreams); paste in:\n" + pd_table()
    # as the rulebook prints them (pleasant-dreams-rulebook.md): 19 dream fragments, a token on 5 wakes,
    # flows of 1 to 5 cards, 16 action cards, two of each type
    by_what = {n.what: n.value for n in pd_numbers()}
    assert by_what["dream fragment cards"] == "19"
    assert by_what["wakefulness that wakes the player"] == "5"
    assert by_what["cards in a dream flow"] == "1–5"
    assert by_what["action cards"] == "16 (2 of each of 8 types)"
