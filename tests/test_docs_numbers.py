"""No hand-typed result number in the README, the guides and the game pages.

A **result number** is a number the lab measures: a win rate or any other share (``58.8%``), a mean or a
difference with decimals (``8.82``, ``+2.6``), a speed (``32,049 games/s``), a duration (``6.24 s``,
``9 minutes``), a count of games a run or study played (``10,247,400``, ``10.4 million``), a count of tests
or scenarios, a factor (``1.06×``). Such a number changes when the code changes, so a page may show it
only through a recorded run (``{{ run(...) }}``, ``{{ rate(...) }}``, ... of docs/data/measured.py, which
tests/test_docs_data.py replays) or inside a code block that tests/test_docs_blocks.py runs.

Not result numbers, and allowed as typed: **rule numbers** (what a rulebook or an interpretations file
prints: 52 cards, costs 1 to 5, a 1,000-turn cap), **bounds and defaults of a command** (``--games`` up to
10\\*\\*12, ``--chunk-size`` up to 1,000,000, ``--target 5``) and **arguments in a command**, which are
inside code spans or blocks and not scanned. The few such numbers that look like results (a percent, a
thousands separator, a unit) are listed in ALLOWED with the rule or option they come from.

What is scanned: the prose of README.md, docs/index.md, docs/getting-started.md, docs/guide/*.md (but
knobs.md, the table of the rulebook's own numbers that tests/test_rulebook_numbers.py checks against the
code) and docs/games/*.md; not code blocks, inline code, macro expressions, link targets or HTML comments.
The research log (docs/research/) and docs/architecture.md's measurements are dated records of a run, not
instructions, and keep their numbers.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def scanned_pages() -> list[Path]:
    pages = [ROOT / "README.md", DOCS / "index.md", DOCS / "getting-started.md"]
    pages += sorted(p for p in (DOCS / "guide").glob("*.md") if p.name != "knobs.md")
    pages += sorted((DOCS / "games").glob("*.md"))
    return pages


# Numbers that look like results but are rules, bounds or conventions: the phrase as written -> where from.
ALLOWED = {
    "95%": "the interval level every estimate uses (a convention of the lab)",
    "1,000 turns": "R8.4: the safety cap on a game's length",
    "1,000-turn": "R8.4: the safety cap on a game's length",
    "10\\*\\*12": "the bound of --games",
    "1,000,000": "the bound of --chunk-size",
    "1 to 10,000": "the bound of --playouts / K of search@K",
    "1 to 1,000": "the bound of K in Counting Zzzzs",
    "16 MB": "the reading limit of an input file (simcore/files.py)",
    "256 MB": "the reading limit of a strong value file",
    "4,300 digits": "the reading limit of an integer in an input file",
    "±10%": "fix-seats' limit on the change of game length (its --length-tolerance)",
    "10%": "fix-seats' limit on the change of game length",
    "1 kB": "the bound of --chunk-size: a chunk's per-game arrays in memory",
    "15 minutes": "DREAMSCAPE_SERVER_IDLE's default: how long a spare process waits",
    "10^6": "the restricted bot's penalty on a forbidden option (simcore/games/dreamscape/bots/restricted.py)",
    "30 minutes": "Project Dreamscape's playing time as its box prints it",
    "Python 3.11": "the lowest Python the package installs on",
    "3.11": "the lowest Python the package installs on",
    "2\\*\\*64-1": "the bound of --seed",
    "2\\*\\*64": "the bound of --seed",
    "8786": "Dask's default scheduler port",
    "9000:9100": "an example port range of dask worker",
    "192.168.1.10": "an example address",
    "50%": "a fair share of 2 players",
    "33.3%": "a fair share of 3 players",
    "25%": "a fair share of 4 players",
}

RESULT = re.compile(
    r"""(?<![\w.\-/:=@])(?:
        [+\-−]?\d+(?:\.\d+)?\s?%                                   # a share: 58.8%, 9%
      | [+\-−]?\d[\d,]*\.\d+                                       # decimals: 8.82, +2.6, 10.4 (million)
      | \d{1,3}(?:,\d{3})+                                         # thousands: 10,247,400
      | \d+(?:\.\d+)?\s?(?:games/s|s|ms|min|minutes|seconds|hours|MB|GB|kB|tests|scenarios|[×x])(?![\w])
      | \d+\s(?:million|billion)
      | \d+\s(?:[\w-]+\s){1,2}(?:scenarios|tests)(?![\w])                # 24 hand-worked scenarios
      | [+\-−]\d+\spoints                                             # a change: +20 points
    )""",
    re.X,
)


def prose(text: str) -> str:
    """The page without what is not prose: code blocks, inline code, macros, link targets, HTML comments."""
    text = re.sub(r"^\s*(```|~~~).*?^\s*\1[^\n]*$", " ", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
    text = re.sub(r"``.*?``|`[^`\n]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return text


def result_numbers(text: str) -> list[str]:
    text = prose(text)
    for phrase in sorted(ALLOWED, key=len, reverse=True):
        text = re.sub(r"(?<![\w.])" + re.escape(phrase) + r"(?![\w%])", " ", text)
    found = []
    for line in text.splitlines():
        for m in RESULT.finditer(line):
            found.append(f"{m.group(0).strip()!r} in: {line.strip()[:160]}")
    return found


@pytest.mark.parametrize("page", scanned_pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_hand_typed_result_number(page):
    found = result_numbers(page.read_text("utf-8"))
    assert not found, (f"{page.relative_to(ROOT)} types {len(found)} result number(s) by hand; quote a recorded "
                       "run instead (docs/data/measured.py):\n" + "\n".join(found))


@pytest.mark.parametrize("sample", [
    "seat 1 wins 58.8% of the games", "about 100,000 games/s", "10.4 million games", "in about 9 minutes",
    "1,845 tests", "7 min 32 s", "its 24 hand-worked scenarios", "a ratio of 0.94", "1.06× as fast",
    "16 scenarios", "+2.6 points",
])
def test_a_result_number_is_found(sample):
    assert result_numbers(sample), sample


@pytest.mark.parametrize("sample", [
    "R6.12 ends the chain", "3 players", "costs 1 to 5", "a 95% interval", "the 1,000-turn cap (R8.4)",
    "`--games 20000`", "{{ rate('simulate-3p', 'seats.0.win_rate') }}", "see [the log](../research/2026-11-26.md)",
    "seat 1 plays first", "Python 3.11 or newer", "R1–R11", "`58.8%`",
])
def test_a_rule_number_or_argument_is_not(sample):
    assert not result_numbers(sample), sample
