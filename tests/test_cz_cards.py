"""Counting Zzzzs card files: the shipped example deck, every class of bad file as one line naming the card and
the field (CZError), and a hypothesis fuzz of the reader: anything in -> a CardSet or CZError, never another
exception."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from simcore.games.counting_zzzzs import CZError, load_cards, parse_setup
from simcore.games.counting_zzzzs.cards import read_cards
from simcore.games.counting_zzzzs.common import CARDS_FILE, CONTEXT, NEGATIVE, NEUTRAL, POSITIVE

GOOD = """
[[element]]
name = "Mom"
kind = "person"
themes = ["domestic", "fantasy"]
value = 1
modifiers = ["+2 with Cooking"]
count = 2

[[element]]
name = "Cooking"
kind = "verb"
themes = ["domestic"]
value = "+2/-1"

[[element]]
name = "Spider"
kind = "thing"
themes = ["nightmare"]
value = -2
count = 30

[[element]]
name = "Key"
kind = "thing"
themes = ["surreal"]
value = "neutral"

[[action]]
name = "Garbage Truck"
kind = "wake up"
wakes = "one opponent"
count = 4

[[action]]
name = "Cold Sweat"
kind = "force"
sets = "theme"
to = "nightmare"

[[action]]
name = "Snooze Button"
kind = "block"
cancels = "wake up"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path, text: str) -> str:
    with pytest.raises(CZError) as info:
        load_cards(write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message and message.startswith("card file ")
    return message


def test_shipped_deck_has_the_rulebooks_counts_and_says_it_is_invented():
    cards = load_cards(None)
    elements = [n for c, n in enumerate(cards.count) if cards.element[c]]
    actions = [n for c, n in enumerate(cards.count) if not cards.element[c]]
    assert sum(elements) == 112 and sum(actions) == 28
    per_kind = [sum(n for c, n in enumerate(cards.count) if cards.element[c] and cards.kind[c] == k) for k in range(4)]
    assert per_kind == [28, 28, 28, 28]
    assert {cards.kind[c] for c in range(len(cards)) if not cards.element[c]} == {0, 1, 2, 3}
    assert cards.wake_up_cards() >= 4                      # Z2.2 removes up to 4 with 2 players
    text = CARDS_FILE.read_text(encoding="utf-8")
    assert "INVENTED FOR ILLUSTRATION" in text and "illustrative = true" in text


def test_a_good_file_becomes_typed_rows(tmp_path):
    cards = load_cards(write(tmp_path, GOOD))
    assert cards.names == ("Mom", "Cooking", "Spider", "Key", "Garbage Truck", "Cold Sweat", "Snooze Button")
    assert cards.polarity[:4] == (POSITIVE, CONTEXT, NEGATIVE, NEUTRAL)
    assert (cards.plus[1], cards.minus[1]) == (2, 1) and cards.minus[2] == 2
    assert cards.themes[0] == 0b01010                      # domestic (bit 3) + fantasy (bit 1)
    assert cards.modifiers == ((0, 2, 1),)                 # Mom gets +2 with Cooking (row 1)
    assert cards.count == (2, 1, 30, 1, 4, 1, 1)
    assert cards.effect[4:] == (1, 2, 0)                   # one opponent; theme nightmare = 2 + 0; cancels wake up
    array = cards.array()
    assert array.shape == (8, 7) and array[7].sum() == 40


@pytest.mark.parametrize("old, new, words", [
    ('themes = ["domestic", "fantasy"]', 'themes = ["domestic", "horror"]', ["'Mom'", "themes", "'horror'"]),
    ('themes = ["domestic", "fantasy"]', 'themes = []', ["'Mom'", "themes"]),
    ('themes = ["domestic", "fantasy"]', 'themes = ["domestic", "domestic"]', ["'Mom'", "themes", "twice"]),
    ('kind = "person"', 'kind = "animal"', ["'Mom'", "kind", "'animal'"]),
    ('value = 1\n', 'value = "lots"\n', ["'Mom'", "value", "'lots'"]),
    ('value = 1\n', 'value = 99\n', ["'Mom'", "value", "99"]),
    ('value = 1\n', 'value = "+0/-2"\n', ["'Mom'", "value", "+a/-b"]),
    ('value = 1\n', '', ["'Mom'", "value", "missing"]),
    ('"+2 with Cooking"', '"+2 with Baking"', ["'Mom'", "modifiers", "'Baking'"]),
    ('"+2 with Cooking"', '"two with Cooking"', ["'Mom'", "modifiers", "'two with Cooking'"]),
    ('"+2 with Cooking"', '"+0 with Cooking"', ["'Mom'", "modifiers"]),
    ('"+2 with Cooking"', '"+2 with Garbage Truck"', ["'Mom'", "modifiers", "not an element card"]),
    ('count = 2\n', 'count = 0\n', ["'Mom'", "count", "0"]),
    ('count = 2\n', 'count = true\n', ["'Mom'", "count", "True"]),
    ('count = 2\n', 'count = 2\ncolour = "red"\n', ["'Mom'", "colour", "unknown field"]),
    ('name = "Cooking"', 'name = "Mom"', ["'Mom'", "name", "twice"]),
    ('wakes = "one opponent"', 'wakes = "everyone"', ["'Garbage Truck'", "wakes", "'everyone'"]),
    ('wakes = "one opponent"', '', ["'Garbage Truck'", "wakes", "missing"]),
    ('wakes = "one opponent"', 'cancels = "force"', ["'Garbage Truck'", "cancels", "not a field"]),
    ('to = "nightmare"', 'to = "positive"', ["'Cold Sweat'", "to", "'positive'"]),
    ('sets = "theme"', 'sets = "mood"', ["'Cold Sweat'", "sets", "'mood'"]),
    ('cancels = "wake up"', 'cancels = "everything"', ["'Snooze Button'", "cancels", "'everything'"]),
    ('kind = "block"', 'kind = "trick"', ["'Snooze Button'", "kind", "'trick'"]),
])
def test_each_bad_field_is_one_line_naming_card_and_field(tmp_path, old, new, words):
    assert old in GOOD
    message = error_of(tmp_path, GOOD.replace(old, new, 1))
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("text, words", [
    ("this is [not toml", ["not valid TOML"]),
    ("[[action]]\nname = \"A\"\nkind = \"block\"\ncancels = \"any\"\n", ["no [[element]]"]),
    ("colour = 1\n" + GOOD, ["unknown top-level key", "'colour'"]),
    ("[deck]\nname = \"x\"\nowner = \"me\"\n" + GOOD, ["[deck]", "'owner'"]),
    ("element = 3\n", ["element must be [[element]] tables"]),
    ('[[element]]\nname = ""\nkind = "person"\nthemes = ["work"]\nvalue = 1\n', ["element card 1", "name"]),
])
def test_file_level_problems_are_one_line(tmp_path, text, words):
    message = error_of(tmp_path, text)
    for word in words:
        assert word in message, message


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(CZError, match="no such file"):
        load_cards(tmp_path / "nope.toml")
    path = tmp_path / "latin1.toml"
    path.write_bytes("name = \"caf\xe9\"".encode("latin-1"))
    with pytest.raises(CZError, match="latin1.toml: not UTF-8 text"):
        load_cards(path)


def test_limits_on_size(tmp_path):
    many = "".join(f'[[element]]\nname = "E{i}"\nkind = "person"\nthemes = ["work"]\nvalue = 1\ncount = 40\n' for i in range(11))
    assert "at most 400" in error_of(tmp_path, many)
    rows = "".join(f'[[element]]\nname = "E{i}"\nkind = "person"\nthemes = ["work"]\nvalue = 1\n' for i in range(129))
    assert "at most 128" in error_of(tmp_path, rows)


def test_a_deck_too_small_for_the_players_is_refused_by_the_setup(tmp_path):
    small = load_cards(write(tmp_path, GOOD.replace("count = 30", "count = 3")))   # 13 cards
    assert parse_setup(2, "remove=0", small).removed == 0        # 13 cards deal two hands and leave 3 (Z4.2)
    with pytest.raises(CZError, match="more than 15 cards"):
        parse_setup(3, "remove=0", small)
    with pytest.raises(CZError, match="only 4 Wake Up"):
        parse_setup(3, "remove=5", load_cards(write(tmp_path, GOOD)))


# ----------------------------------------------------------------------------- hypothesis: the reader

FIELDS = ["name", "kind", "themes", "value", "modifiers", "count", "wakes", "bends", "sets", "to", "cancels", "colour"]
WORDS = ["person", "place", "verb", "wake up", "bender", "force", "block", "self", "all", "theme", "polarity",
         "positive", "negative", "any", "nightmare", "work", "+1/-2", "+2 with A", "neutral", "A", "B", ""]
values = st.one_of(st.sampled_from(WORDS), st.integers(min_value=-50, max_value=50),
                   st.lists(st.sampled_from(WORDS), max_size=3), st.booleans(), st.floats(allow_nan=False),
                   st.text(max_size=8))


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v) if abs(v) != float("inf") else "inf"
    if isinstance(v, (str, list)):
        return json.dumps(v)
    return str(v)


tables = st.lists(st.tuples(st.sampled_from(["element", "action", "deck"]),
                            st.dictionaries(st.sampled_from(FIELDS), values, max_size=7)), max_size=5)
card_texts = tables.map(lambda ts: "".join(
    (f"[[{t}]]\n" if t != "deck" else "[deck]\n") + "".join(f"{k} = {toml_value(v)}\n" for k, v in d.items())
    for t, d in ts))
file_bytes = st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode), card_texts.map(str.encode),
                       st.just(GOOD.encode("utf-16")))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=file_bytes)
@example(data=GOOD.encode())
@example(data=GOOD.replace("count = 30", "count = 1000").encode())
def test_fuzz_the_reader_gives_cards_or_one_line(data):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "deck.toml"
        path.write_bytes(data)
        try:
            cards = load_cards(path)
        except CZError as exc:
            assert str(exc) and "\n" not in str(exc)
            return
    assert 1 <= len(cards) <= 128 and 1 <= cards.total <= 400 and any(cards.element)


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["element", "action", "deck", "x"]),
                            st.one_of(values, st.lists(st.dictionaries(st.sampled_from(FIELDS), values, max_size=6),
                                                       max_size=3)), max_size=3))
def test_fuzz_parsed_data_gives_cards_or_one_line(data):
    try:
        read_cards(data, "fuzz")
    except CZError as exc:
        assert "\n" not in str(exc)
