"""Findings checked at every skill level: which hold whoever plays, which belong to the bot.

A study that plays the same configurations with bots of several strengths
(the main study: ``linear``, ``expert`` and ``strong`` on every seat)
lets each headline finding of the main bot be read again under every other
bot. The finding's claim is its *sign* (a seat wins more or less than its fair
share; a rules option raises or lowers a metric) and its *significance* (the
95% interval excludes the fair share or zero).

The strongest level weighs first. The *reading level* is the strongest bot
that played the configuration on every seat, not counting search players over
it (:func:`level_key`: ``strong`` above ``expert`` above ``linear``); the search
players over it are the levels *above* it. Verdicts:

* ``robust``: every level has the data, every level is significant, and all
  agree on the sign;
* ``strong play``: the reading level is stronger than the main bot, significant
  with the main bot's sign, and no level above it is significant against it,
  while some weaker level is not significant or disagrees: the finding holds
  under strong play and belongs to the game, not to the weaker bots;
* ``flips``: the main bot's own estimate is significant and a level that
  counts is significant with the opposite sign: the finding depends on the
  style of play. When the reading level is stronger than the main bot, the
  levels that count are the reading level and those above it (a weaker bot that
  disagrees is outweighed); otherwise every level counts. An estimate of the
  main bot that is not significant claims no sign, so nothing can flip it;
* ``bot's effect``: the main bot's estimate is significant, the reading level
  (stronger) is not, and its interval rules the main bot's estimate out: under
  strong play the effect is significantly smaller and not distinguishable from
  none, so its size belonged to the main bot's style of play;
* ``no effect``: the main bot's estimate is not significant (it claims no
  change, or no edge over the fair share), and neither is any level that
  counts: no bot that counts finds an effect, and the reading level's interval
  (quoted in the finding) bounds what could be there. A weaker level that finds
  one is outweighed, as for ``strong play``;
* ``unconfirmed``: not significant at the reading level (or, without a stronger
  level, at some level) while nothing contradicts it and nothing rules the main
  bot's estimate out: more games at the reading level would tell;
* ``main only``: no other level played the configuration.

Only the topics whose configurations the other levels play are checked: seat
advantage (``seats``), rules options (``compare``), dream types (``types``:
the same one-bot games give every bot's type strength) and expansion swaps
(``swaps``: the main study plays the swap decks its swap findings quote again
under the other bots, a study file's ``[[recheck]]``, see
:mod:`analyses.games.dreamscape.recheck`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl

from analyses.games.dreamscape.frames import LEVEL_ORDER, level_key  # noqa: F401 - the ladder order, shared with the charts
from reports.games.dreamscape.data import StudyTables, homogeneous
from reports.games.dreamscape.findings import Finding
from reports.numbers import change_with_interval, rate_with_interval
from reports.games.dreamscape.labels import players_label, seat_label, variant_label

CHECKED_TOPICS = ("seats", "compare", "types", "swaps")
RATE_TOPICS = ("seats", "types")  # a claim about a rate against its fair share; the others are changes
VERDICT_WORDS = {
    "robust": "holds at every skill level",
    "strong play": "holds under strong play (a weaker bot does not confirm it)",
    "bot's effect": "belongs to the bot (under strong play no effect, and significantly smaller)",
    "flips": "depends on the style of play (the sign flips with the bot)",
    "no effect": "no effect at the levels that count (none finds one)",
    "unconfirmed": "not confirmed at every skill level",
    "main only": "checked under one bot only",
}


@dataclass
class Level:
    """A finding's claim read under one bot."""

    bot: str
    value: float  # the rate or change (a fraction)
    low: float
    high: float
    reference: float  # the fair share (rates) or 0 (changes)
    games: int
    significant: bool

    @property
    def sign(self) -> int:
        return (self.value > self.reference) - (self.value < self.reference)


@dataclass
class Check:
    """One finding of the main bot and its claim at every level that played it."""

    finding: Finding
    claim: str  # short: "3p base game: seat 1's win rate" / "3p: Sleep Token on seat spread"
    levels: list[Level] = field(default_factory=list)
    verdict: str = "main only"


def bot_of(strategies: str) -> str:
    """The bot of a homogeneous configuration's label (``linear`` or ``linear/linear/linear``)."""
    return str(strategies).split("/")[0]


def seat_levels(t: StudyTables, row: dict) -> list[Level]:
    """The seat's win rate in this players x variant under every homogeneous bot of the study."""
    df = homogeneous(t.seats)
    if df is None:
        return []
    df = df.filter((pl.col("players") == row["players"]) & (pl.col("variant") == row["variant"])
                   & (pl.col("seat") == row["seat"]))
    return [Level(bot_of(r["strategies"]), r["win_rate"], r["win_low"], r["win_high"], r["fair"], int(r["games"]),
                  bool(r["significant"])) for r in df.iter_rows(named=True)]


def compare_levels(t: StudyTables, row: dict) -> list[Level]:
    """The change of this metric by this variant against its baseline under every homogeneous bot."""
    df = homogeneous(t.compare)
    if df is None:
        return []
    df = df.filter((pl.col("players") == row["players"]) & (pl.col("variant") == row["variant"])
                   & (pl.col("baseline") == row["baseline"]) & (pl.col("metric") == row["metric"]))
    games = "games" if "games" in df.columns else None
    return [Level(bot_of(r["strategies"]), r["diff"], r["diff_low"], r["diff_high"], 0.0,
                  int(r[games]) if games else 0, bool(r["significant"])) for r in df.iter_rows(named=True)]


def type_levels(t: StudyTables, row: dict) -> list[Level]:
    """The win rate of the seats performing this type more than average, in this players x variant, under every bot."""
    df = homogeneous(t.strength)
    if df is None:
        return []
    df = df.filter((pl.col("players") == row["players"]) & (pl.col("variant") == row["variant"])
                   & (pl.col("type") == row["type"]) & pl.col("win_rate_more").is_not_nan())
    return [Level(bot_of(r["strategies"]), r["win_rate_more"], r["win_low"], r["win_high"], r["fair"],
                  int(r["games_more"]), bool(r["significant"])) for r in df.iter_rows(named=True)]


LEVELS = {"seats": seat_levels, "compare": compare_levels, "swaps": compare_levels, "types": type_levels}


def reading_level(levels: list[Level]) -> Level | None:
    """The strongest level that is not a search player over another (None without levels)."""
    plain = [lv for lv in levels if not lv.bot.startswith("search:")]
    return max(plain, key=lambda lv: level_key(lv.bot)) if plain else None


def verdict(levels: list[Level], main: str) -> str:
    """See the module docstring."""
    own = next((lv for lv in levels if lv.bot == main), None)
    others = [lv for lv in levels if lv.bot != main]
    if own is None or not others:
        return "main only"
    if all(lv.significant for lv in levels) and len({lv.sign for lv in levels}) == 1 and own.sign != 0:
        return "robust"
    top = reading_level(levels)
    stronger = top is not None and level_key(top.bot) > level_key(main)
    # the levels that count: the reading level and search over it when it is stronger; else every level alike
    counted = [lv for lv in levels if level_key(lv.bot) >= level_key(top.bot)] if stronger else levels
    if own.significant and own.sign != 0 and any(lv.significant and lv.sign == -own.sign for lv in counted):
        return "flips"
    if stronger and top.significant and top.sign != 0 and top.sign == own.sign \
            and not any(lv.significant and lv.sign == -top.sign for lv in counted):
        return "strong play"
    if stronger and own.significant and not top.significant and not top.low <= own.value <= top.high:
        return "bot's effect"  # strong play finds no effect and rules out the main bot's size: a decided answer
    if not own.significant and not any(lv.significant for lv in counted):
        return "no effect"  # the main bot claimed none and no level that counts finds one: a null that holds
    return "unconfirmed"


def claim_of(f: Finding) -> str:
    r = f.row
    if f.topic == "seats":
        return f"{players_label(r['players'])}, {variant_label(r['variant'])}: {seat_label(r['seat'])}'s win rate"
    if f.topic == "types":
        return f"{players_label(r['players'])}, {variant_label(r['variant'])}: seats performing {r['name']} more"
    if f.topic == "swaps":
        return f"{players_label(r['players'])}: the swap {variant_label(r['variant'])} on {r['metric'].replace('_', ' ')}"
    return f"{players_label(r['players'])}: {variant_label(r['variant'])} on {r['metric'].replace('_', ' ')}"


def main_bot(findings: list[Finding]) -> str | None:
    """The bot most checked findings were made with."""
    bots = [bot_of(f.row.get("strategies", "")) for f in findings if f.topic in CHECKED_TOPICS]
    return max(sorted(set(bots)), key=bots.count) if bots else None


def check_findings(findings: list[Finding], t: StudyTables) -> tuple[list[Finding], list[Check]]:
    """The findings with the other bots' duplicates of checked topics dropped and a verdict on the main bot's.

    When the study played the checked topics under one bot only, the findings
    come back unchanged and there are no checks.
    """
    main = main_bot(findings)
    checked = [f for f in findings if f.topic in CHECKED_TOPICS]
    if main is None or len({bot_of(f.row.get("strategies", "")) for f in checked}) < 2:
        return findings, []
    out, checks = [], []
    for f in findings:
        if f.topic not in CHECKED_TOPICS:
            out.append(f)
            continue
        if bot_of(f.row.get("strategies", "")) != main:
            continue  # the same claim under another bot: shown in the skill-level check instead
        levels = LEVELS[f.topic](t, f.row)
        levels.sort(key=lambda lv: level_key(lv.bot))
        check = Check(f, claim_of(f), levels, verdict(levels, main))
        checks.append(check)
        f.robustness = check.verdict
        top = reading_level(levels)
        if top is not None and level_key(top.bot) > level_key(main):  # the report is read at the strongest level
            f.text = f"{f.text} Under {top.bot}: {level_cell(top, f.topic).rstrip('*')}."
        f.text = f"{f.text} Checked under {', '.join(lv.bot for lv in levels)}: {VERDICT_WORDS[check.verdict]}."
        out.append(f)
    return out, checks


def level_cell(lv: Level, topic: str) -> str:
    """``"53.5% (52.9-54.1%)"`` for a rate, ``"+2.1 (+1.0 to +3.2)"`` points for a change; a star when significant."""
    star = "*" if lv.significant else ""
    if topic in RATE_TOPICS:
        return f"{rate_with_interval(lv.value, lv.low, lv.high)}{star}"
    return f"{change_with_interval(lv.value, lv.low, lv.high)}{star}"


def check_rows(checks: list[Check]) -> list[dict]:
    """Plain rows of the checks (JSON and the report page)."""
    return [
        {"topic": c.finding.topic, "claim": c.claim, "verdict": c.verdict,
         "levels": [{"bot": lv.bot, "value": lv.value, "low": lv.low, "high": lv.high, "reference": lv.reference,
                     "significant": lv.significant} for lv in c.levels]}
        for c in checks
    ]


__all__ = ["check_findings", "check_rows", "verdict", "reading_level", "Level", "Check", "VERDICT_WORDS", "level_cell", "level_key"]
