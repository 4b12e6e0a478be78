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
players over it are the levels *above* it.

**What the reading level could move.** A verdict rests on the reading level, so
it names that level's *distance from search* in the configurations the finding
reads (:func:`level_distance`): the win rate a search player gains in one seat
over the bot there, the bot in the other seats, on the same deals (the study's
``rotate = ["search:BOT@K", "BOT"]`` cells, a kept ``dreamscape exploit`` run in the folder, or for ``strong``
a kept run of the same seed, deck and value, :mod:`analyses.games.dreamscape.kept`;
the largest upper bound over the seats and configurations read, so the worst
case), or says plainly that it was not measured. A finding *holds* at a level
only when its smallest size consistent with the data (the edge of its 95%
interval nearest the fair share or zero) is larger than that distance's upper
bound (:func:`beyond_distance`): a bot that leaves d points on the table in a
seat could be moving a seat's win rate by about d, so an effect no larger than
d may belong to the bot's mistakes rather than to the game. Without a measured
distance a finding does not hold, however significant.

**One family per page.** Every level's significance is Holm-corrected across
all the claims the page checks (every finding at every level;
:mod:`analyses.stats.multiple` says why Holm), so the verdicts' "significant"
is the corrected one (:func:`correct_levels`).

Verdicts:

* ``robust``: every level has the data, every level is significant, all agree
  on the sign, and the reading level's effect is larger than its distance;
* ``strong play``: the reading level is stronger than the main bot, significant
  with the main bot's sign, no level above it is significant against it, and
  its effect is larger than its distance, while some weaker level is not
  significant or disagrees: the finding holds under strong play and belongs to
  the game, not to the weaker bots;
* ``within distance``: it would be ``robust`` or ``strong play``, but the
  reading level's effect is not larger than its measured distance from search:
  a stronger player could move it by as much;
* ``unmeasured``: the same, but the reading level's distance from search was
  never measured in the configurations read: nothing says what it could move;
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
* ``no effect``: the main bot's estimate is not significant, neither is any
  level that counts, and the reading level's interval lies inside the
  equivalence margin (:data:`EQUIVALENCE_MARGIN`, 2 points either side of the
  fair share or zero): whatever is there is smaller than a designer would act
  on. A weaker level that finds one is outweighed, as for ``strong play``;
* ``unconfirmed``: not significant at the reading level (or, without a stronger
  level, at some level) while nothing contradicts it and nothing rules the main
  bot's estimate out, or a null whose interval reaches past the margin: more
  games at the reading level would tell;
* ``main only``: no other level played the configuration;
* ``other rows``: a level the finding reads was played, in a configuration it
  reads, by a bot whose engine row the folder recorded as other than what the
  code plays now (:mod:`analyses.study.botrows`): its numbers are another
  bot's, so no verdict stands on them until they are measured again.

A finding that reads a changed game (a rules option, a knob, a swap deck) also
names each level's training status there in one line (:func:`training_line`,
:func:`simcore.games.dreamscape.bots.training.training_status`).

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
from analyses.stats.multiple import holm, p_from_interval
from reports.games.dreamscape.data import StudyTables, homogeneous
from reports.games.dreamscape.findings import Finding
from reports.numbers import change_with_interval, rate_with_interval
from reports.games.dreamscape.labels import players_label, seat_label, variant_label

CHECKED_TOPICS = ("seats", "compare", "types", "swaps")
RATE_TOPICS = ("seats", "types")  # a claim about a rate against its fair share; the others are changes
# "No effect" needs the reading level's interval inside +-2 points of the fair share or zero: the smallest
# seat-spread or win-rate change the designer's pages call worth a rules change (docs/guide/studies.md).
EQUIVALENCE_MARGIN = 0.02
CORRECTION = "Holm"  # analyses.stats.multiple: family-wise error at 5% across the page's claims
VERDICT_WORDS = {
    "robust": "holds at every skill level",
    "strong play": "holds under strong play (a weaker bot does not confirm it)",
    "within distance": "not confirmed: no larger than the reading level's distance from search could move",
    "unmeasured": "not confirmed: the reading level's distance from search was not measured here",
    "bot's effect": "belongs to the bot (under strong play no effect, and significantly smaller)",
    "flips": "depends on the style of play (the sign flips with the bot)",
    "no effect": "no effect at the levels that count (none finds one, and the interval is within +-2 points)",
    "unconfirmed": "not confirmed at every skill level",
    "main only": "checked under one bot only",
    "other rows": "played by other bot rows (a bot it reads was played with another engine row than the code "
                  "plays now: measure it again)",
}


@dataclass
class Level:
    """A finding's claim read under one bot.

    ``significant`` is the claim's significance as the verdicts read it: its 95% interval's until
    :func:`correct_levels` replaces it with the page's Holm-corrected one (``p`` then holds the claim's
    uncorrected p-value).
    """

    bot: str
    value: float  # the rate or change (a fraction)
    low: float
    high: float
    reference: float  # the fair share (rates) or 0 (changes)
    games: int
    significant: bool
    p: float | None = None

    @property
    def sign(self) -> int:
        return (self.value > self.reference) - (self.value < self.reference)

    @property
    def smallest_effect(self) -> float:
        """The smallest size of the claim the interval allows (a fraction; 0 when it holds the reference)."""
        if self.sign > 0:
            return max(self.low - self.reference, 0.0)
        if self.sign < 0:
            return max(self.reference - self.high, 0.0)
        return 0.0


@dataclass
class Distance:
    """A level's measured distance from search where a finding reads it: the one-seat search gain (a
    fraction of games won) of the worst-case cell, with the number of cells it is the worst of."""

    bot: str
    search: str
    players: int
    variant: str
    seat: int  # from 1
    gain: float
    low: float
    high: float
    games: int
    cells: int = 1
    source: str | None = None  # where the worst cell was measured: this folder, or a kept run (seed, games)

    def words(self) -> str:
        """``search:strong@8:late in one seat gains +7.0 (+3.1 to +10.9) points over strong (3 players, ...)``."""
        where = f"{self.players} players, {variant_label(self.variant)}, {seat_label(self.seat - 1)}"
        worst = f"; the largest of {self.cells} cells" if self.cells > 1 else ""
        kept = f"; {self.source}" if self.source and self.source.startswith("from a kept run") else ""
        return (f"{self.search} in one seat gains {change_with_interval(self.gain, self.low, self.high)} points "
                f"over {self.bot} ({where}, {self.games:,} deals{worst}{kept})")


@dataclass
class Check:
    """One finding of the main bot and its claim at every level that played it."""

    finding: Finding
    claim: str  # short: "3p base game: seat 1's win rate" / "3p: Sleep Token on seat spread"
    levels: list[Level] = field(default_factory=list)
    verdict: str = "main only"
    distance: Distance | None = None  # the reading level's distance from search, None: not measured
    training: str | None = None  # the levels' training status on a changed game, one line


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


def read_configurations(topic: str, row: dict) -> list[str]:
    """The variants a finding reads: its own, and for a change its baseline too."""
    if topic in ("compare", "swaps"):
        return list(dict.fromkeys([row["variant"], row["baseline"]]))
    return [row["variant"]]


def level_distance(exploit: pl.DataFrame | None, bot: str, topic: str, row: dict) -> Distance | None:
    """The level's distance from search where the finding reads it, or None when it was not measured there.

    The cells of ``bot`` (any search player over it) in the finding's player count and in every variant it
    reads (:func:`read_configurations`); a seat finding reads its own seat, the others every seat. The
    worst case counts: the cell with the largest upper bound. A variant read with no cell leaves the
    distance unmeasured, whatever the other variant's cells say.
    """
    if exploit is None or exploit.height == 0:
        return None
    cells = exploit.filter((pl.col("strategy") == bot) & (pl.col("players") == row["players"]))
    if topic == "seats":
        cells = cells.filter(pl.col("seat") == int(row["seat"]) + 1)  # exploit tables count seats from 1
    variants = read_configurations(topic, row)
    cells = cells.filter(pl.col("variant").is_in(variants))
    if cells.height == 0 or set(cells["variant"].to_list()) != set(variants):
        return None
    worst = cells.sort(["gain_high", "variant", "seat"], descending=[True, False, False]).row(0, named=True)
    return Distance(bot, worst["search"], int(worst["players"]), worst["variant"], int(worst["seat"]),
                    worst["gain"], worst["gain_low"], worst["gain_high"], int(worst["games"]), cells.height,
                    worst.get("source"))


def beyond_distance(level: Level, distance: Distance | None) -> bool:
    """The level's claim is larger than its measured distance from search could move: the interval's edge
    nearest the reference lies farther from it than the distance's upper bound. Unmeasured: never."""
    return distance is not None and level.smallest_effect > max(distance.high, 0.0)


def equivalent(level: Level, margin: float = EQUIVALENCE_MARGIN) -> bool:
    """The level's whole interval lies within ``margin`` of the reference: no effect a designer would act on."""
    return level.reference - margin <= level.low and level.high <= level.reference + margin


def verdict(levels: list[Level], main: str, distance: Distance | None = None,
            margin: float = EQUIVALENCE_MARGIN) -> str:
    """See the module docstring. ``distance``: the reading level's distance from search (None: not measured)."""
    own = next((lv for lv in levels if lv.bot == main), None)
    others = [lv for lv in levels if lv.bot != main]
    if own is None or not others:
        return "main only"
    top = reading_level(levels)
    stronger = top is not None and level_key(top.bot) > level_key(main)
    # the levels that count: the reading level and search over it when it is stronger; else every level alike
    counted = [lv for lv in levels if level_key(lv.bot) >= level_key(top.bot)] if stronger else levels
    if own.significant and own.sign != 0 and any(lv.significant and lv.sign == -own.sign for lv in counted):
        return "flips"
    every_level = all(lv.significant for lv in levels) and len({lv.sign for lv in levels}) == 1 and own.sign != 0
    at_top = stronger and top.significant and top.sign != 0 and top.sign == own.sign \
        and not any(lv.significant and lv.sign == -top.sign for lv in counted)
    if every_level or at_top:
        if top is None or not beyond_distance(top, distance):
            return "within distance" if distance is not None else "unmeasured"
        return "robust" if every_level else "strong play"
    if stronger and own.significant and not top.significant and not top.low <= own.value <= top.high:
        return "bot's effect"  # strong play finds no effect and rules out the main bot's size: a decided answer
    if not own.significant and not any(lv.significant for lv in counted) and top is not None and equivalent(top, margin):
        return "no effect"  # nobody that counts finds one, and the reading level bounds it within the margin
    return "unconfirmed"


def played_by_other_rows(t: StudyTables, levels: list[Level], topic: str, row: dict) -> bool:
    """Whether a level the finding reads was played, in a configuration it reads, by a bot whose recorded engine
    row differs from what the code plays now (:func:`analyses.study.botrows.read_bot_rows`)."""
    rows = t.bot_rows
    if rows is None or not rows.changed:
        return False
    changed = set().union(*(rows.changed_bots(row["players"], v) for v in read_configurations(topic, row)))
    return any(lv.bot in changed for lv in levels)


def correct_levels(checks: list["Check"]) -> int:
    """Replace every level's significance by the page's Holm-corrected one, in place; the family's size.

    The family is every claim the page checks: each finding at each level that played it. A level
    keeps its uncorrected p-value in ``p``.
    """
    family = [lv for c in checks for lv in c.levels]
    for lv in family:
        lv.p = p_from_interval(lv.value, lv.low, lv.high, lv.reference)
    for lv, significant in zip(family, holm([lv.p for lv in family])):
        lv.significant = significant
    return len(family)


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


def distance_words(top: Level | None, distance: Distance | None, topic: str, row: dict) -> str:
    """The sentence naming the level a verdict rests on and its distance from search (or that none was measured)."""
    if top is None:
        return ""
    if distance is not None:
        return f"Read under {top.bot}; its distance from search: {distance.words()}."
    where = " and ".join(variant_label(v) for v in read_configurations(topic, row))
    return f"Read under {top.bot}; its distance from search: not measured ({row['players']} players, {where})."


def training_line(levels: list[Level], topic: str, row: dict) -> str | None:
    """One line naming every plain level's training status on the changed game a finding reads (#41), with the
    reading level's measured distance said beside it by the verdict; None when it reads the printed game only."""
    from simcore.games.dreamscape import parse_setup
    from simcore.games.dreamscape.bots.training import training_status
    from simcore.games import GameError

    variant = row["variant"]
    if variant == "base":
        return None
    words = {"fitted": "fitted", "rule-aware": "rule-aware", "out-of-distribution": "out of distribution"}
    parts = []
    for lv in levels:
        if lv.bot.startswith("search:"):
            continue  # a search player has the status of the bot it searches over, named beside it
        try:
            status = training_status(parse_setup(int(row["players"]), variant), lv.bot)
        except (GameError, ValueError):
            continue
        detail = f" ({status.detail.removeprefix(lv.bot + ': ')})" if status.kind == "out-of-distribution" else ""
        parts.append(f"{lv.bot} {words[status.kind]}{detail}")
    if not parts:
        return None
    return f"Bots' training on {variant_label(variant)}: " + "; ".join(parts) + "."


def check_findings(findings: list[Finding], t: StudyTables) -> tuple[list[Finding], list[Check]]:
    """The findings with the other bots' duplicates of checked topics dropped and a verdict on the main bot's.

    Every level's significance is first Holm-corrected across the page's checks (:func:`correct_levels`),
    and a checked finding's star follows the main bot's corrected significance. When the study played the
    checked topics under one bot only, the findings come back unchanged and there are no checks.
    """
    main = main_bot(findings)
    checked = [f for f in findings if f.topic in CHECKED_TOPICS]
    exploit = getattr(t, "exploit", None)
    if main is None or len({bot_of(f.row.get("strategies", "")) for f in checked}) < 2:
        for f in checked:  # one bot: no verdict, but a changed game still names the bot's training and distance
            own = Level(bot_of(f.row.get("strategies", "")), 0.0, 0.0, 0.0, 0.0, 0, False)
            line = training_line([own], f.topic, f.row)
            if line:
                distance = level_distance(exploit, own.bot, f.topic, f.row)
                f.text = f"{f.text} {line} {distance_words(own, distance, f.topic, f.row)}"
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
        checks.append(Check(f, claim_of(f), levels))
        out.append(f)
    correct_levels(checks)
    for check in checks:
        f, levels = check.finding, check.levels
        top = reading_level(levels)
        check.distance = level_distance(exploit, top.bot, f.topic, f.row) if top is not None else None
        check.verdict = verdict(levels, main, check.distance)
        if played_by_other_rows(t, levels, f.topic, f.row):
            check.verdict = "other rows"  # the numbers are another bot's than the one the code plays: no verdict stands
        check.training = training_line(levels, f.topic, f.row)
        f.robustness = check.verdict
        own = next((lv for lv in levels if lv.bot == main), None)
        if own is not None:
            f.significant = own.significant
        if top is not None and level_key(top.bot) > level_key(main):  # the report is read at the strongest level
            f.text = f"{f.text} Under {top.bot}: {level_cell(top, f.topic).rstrip('*')}."
        f.text = f"{f.text} Checked under {', '.join(lv.bot for lv in levels)}: {VERDICT_WORDS[check.verdict]}."
        if check.verdict != "main only":
            f.text = f"{f.text} {distance_words(top, check.distance, f.topic, f.row)}"
        if check.training:
            f.text = f"{f.text} {check.training}"
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
        {"topic": c.finding.topic, "claim": c.claim, "verdict": c.verdict, "correction": CORRECTION,
         "distance": None if c.distance is None else {
             "bot": c.distance.bot, "search": c.distance.search, "players": c.distance.players,
             "variant": c.distance.variant, "seat": c.distance.seat, "gain": c.distance.gain,
             "low": c.distance.low, "high": c.distance.high, "games": c.distance.games, "source": c.distance.source},
         "training": c.training,
         "levels": [{"bot": lv.bot, "value": lv.value, "low": lv.low, "high": lv.high, "reference": lv.reference,
                     "significant": lv.significant, "p": lv.p} for lv in c.levels]}
        for c in checks
    ]


__all__ = ["check_findings", "check_rows", "verdict", "reading_level", "Level", "Check", "Distance", "VERDICT_WORDS",
           "EQUIVALENCE_MARGIN", "CORRECTION", "level_cell", "level_key", "level_distance", "beyond_distance",
           "equivalent", "correct_levels", "training_line"]
