"""Pleasant Dreams' report wing (:class:`reports.wing.ReportWing`): title, findings in plain sentences, one
chart per analysis, on the framework's pages (:mod:`reports.pdf`).

The numbers come from :func:`analyses.games.pleasant_dreams.pd_summary`; every rate is
shown with its 95% interval (written by :mod:`reports.numbers`), seats are numbered from 1
(seat 1 plays first), and a finding is flagged ★ when its interval excludes the fair share (rates)
or zero (changes), as every game's report does.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display: files only
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analyses.games.pleasant_dreams import after_study, pd_summary  # noqa: E402
from analyses.study.folder import check_study, load_manifest  # noqa: E402
from reports.charts import PAGE, Chart, styled  # noqa: E402
from reports.findings import Finding  # noqa: E402
from reports.labels import PALETTE, SIGNIFICANT  # noqa: E402
from reports.numbers import change_with_interval, rate_with_interval  # noqa: E402
from reports.pdf import ReportFiles, write_report  # noqa: E402
from reports.wing import GameReport  # noqa: E402

NAME = "pleasant-dreams"
TOPICS = {
    "first": "First-player advantage",
    "cards": "Value of each action card",
    "expansion": "Lucid Dreams expansion against the base game",
    "difficulty": "Difficulty levels (starting wakefulness; a solo rule, P2.2)",
    "solo": "The solo challenge: how many action cards from a wakefulness of 4?",
    "solver": "How close each bot plays to the exact solver",
}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def variant_text(variant: str) -> str:
    """``lucid+start=3`` -> ``Lucid Dreams, start 3`` (for sentences)."""
    parts = []
    for token in variant.split("+"):
        if token == "base":
            parts.append("base game")
        elif token == "lucid":
            parts.append("Lucid Dreams")
        elif token.startswith("start="):
            parts.append(f"starting wakefulness {token[6:]}")
        elif token.startswith("actions="):
            parts.append(f"{token[8:]} random action card(s)")
        elif token.startswith("hand="):
            parts.append(f"holding {token[5:].replace(',', ', ')}")
        elif token == "public-backs":
            parts.append("backs public (variant)")
        else:
            parts.append(token)
    return ", ".join(parts)


# ============================================================================ findings


def make_findings(s: dict) -> list[Finding]:
    """Plain sentences from the summary's rows, each quoting its row's numbers."""
    out: list[Finding] = []
    for r in s["first_player"]:
        out.append(Finding(f"In 2-player games ({variant_text(r['variant'])}, {r['strategy']} bot on both seats) seat 1 "
                           f"wins {rate_with_interval(r['rate'], r['low'], r['high'])} against a fair 50.0%; games last "
                           f"{r['turns']:.1f} turns.", r["significant"], "first", "first_player", r))
    for r in s["action_value"]:
        value = change_with_interval(r["value"], r["low"], r["high"])
        out.append(Finding(f"{r['action'].replace('-', ' ').title()} is worth {value} points of win rate to the seat that "
                           f"may use it ({r['strategy']} bot, {variant_text(r['variant'])}; {pct(r['with'])} with it, "
                           f"{pct(r['without'])} never using it; paired on {r['games']:,} deals).",
                           r["significant"], "cards", "action_value", r))
    for r in s["holding"]:
        out.append(Finding(f"Dealt {r['action'].replace('-', ' ').title()} ({variant_text(r['variant'])}, {r['strategy']} "
                           f"bot), a seat wins {pct(r['rate_holding'])} against {pct(r['rate_not'])} without it "
                           f"(difference {change_with_interval(r['difference'], r['low'], r['high'])} points).",
                           r["significant"], "cards", "holding", r))
    for r in s["expansion"]:
        extra = " in the public-backs variant" if "public-backs" in r["base_variant"] else ""
        out.append(Finding(f"With the {r['strategy']} bot{extra}, Lucid Dreams moves seat 1's win rate from {pct(r['base_rate'])} to "
                           f"{pct(r['lucid_rate'])} (change {change_with_interval(r['change'], r['low'], r['high'])} points) "
                           f"and the game length from {r['base_turns']:.1f} to {r['lucid_turns']:.1f} turns (change "
                           f"{change_with_interval(r['turns_change'], r['turns_low'], r['turns_high'], digits=2, scale=1)}).",
                           r["significant"], "expansion", "expansion", r))
    groups: dict[tuple, list[dict]] = {}
    for r in s["difficulty"]:
        groups.setdefault((r["players"], r["strategy"]), []).append(r)
    for (players, bot), rows in groups.items():
        lo, hi = rows[0], rows[-1]
        what = "stays asleep" if players == 1 else "seat 1 wins"
        sig = lo["high"] < hi["low"] or hi["high"] < lo["low"]
        steps = ", ".join(f"start {r['start']}: {rate_with_interval(r['rate'], r['low'], r['high'])}" for r in rows)
        who = ("Solo (the rulebook's difficulty levels)" if players == 1 else
               "2-player difficulty variant (not in the rulebook: difficulty is a solo rule; both seats start there)")
        out.append(Finding(f"{who}, {bot} bot: {what} {steps}.", sig, "difficulty", "difficulty", {"rows": rows}))
    chosen: dict[str, list[dict]] = {}
    for r in s.get("solo_chosen", []):
        chosen.setdefault(r["strategy"], []).append(r)
    for bot, rows in chosen.items():
        steps = "; ".join(f"{r['actions']}: {r['hand'].replace(',', ', ') or 'none'} "
                          f"{rate_with_interval(r['rate'], r['low'], r['high'])}" for r in rows)
        need = next((r for r in rows if r["low"] > 0.5), None)
        verdict = (f"The answer to the rulebook's question: {need['actions']} card(s), "
                   f"{need['hand'].replace(',', ', ')}." if need else
                   f"Even the best {rows[-1]['actions']} card(s) do not keep it asleep more often than not.")
        out.append(Finding(f"As asked (the player chooses its cards, P7.5): starting solo at wakefulness 4, the best set "
                           f"of N cards for the {bot} bot (every set of the 16 searched, the best measured on other deals) "
                           f"stays asleep with {steps}. {verdict}", need is not None, "solo", "solo_chosen", {"rows": rows}))
    by_bot: dict[str, list[dict]] = {}
    for r in s["solo_challenge"]:
        by_bot.setdefault(r["strategy"], []).append(r)
    for bot, rows in by_bot.items():
        steps = "; ".join(f"{r['actions']} card(s): {rate_with_interval(r['rate'], r['low'], r['high'])}" for r in rows)
        half = next((r for r in rows if r["low"] > 0.5), None)
        verdict = (f"It needs {half['actions']} random card(s) to stay asleep more often than not."
                   if half else f"Even with {rows[-1]['actions']} random card(s) it does not stay asleep more often than not.")
        out.append(Finding(f"Random-deal reading (N random cards of all 16, P7.3): starting solo at wakefulness 4, the "
                           f"{bot} bot stays asleep to the end with {steps}. {verdict}",
                           half is not None, "solo", "solo_challenge", {"rows": rows}))
    for r in s["solver"]:
        sig = r["gap_low"] > 0
        out.append(Finding(f"On {r['positions']:,} small positions ({r['players']} players, {variant_text(r['variant'])}, "
                           f"at most {r['max_cards']} cards left) the {r['strategy']} bot wins {pct(r['bot_win'])} where "
                           f"the exact solver wins {pct(r['solver_win'])}: a gap of "
                           f"{change_with_interval(r['gap'], r['gap_low'], r['gap_high'])} points.", sig, "solver", "solver", r))
    return out


# ============================================================================ pages


def title_facts(folder: Path, s: dict) -> tuple[str, list[tuple[str, str]]]:
    """The title page's subtitle and facts: command, seed, games, time, cards, conventions."""
    m = load_manifest(folder)
    seconds = sum(r.seconds for recs in m.chunks.values() for r in recs)
    total = m.total_games()
    facts = [
        ("Command", m.command or "(not recorded)"),
        ("Seed", f"{m.seed}: game g of every configuration plays random stream (seed, g), so configurations share deals"),
        ("Games", f"{total:,} in {s['configurations']} configurations"),
        ("Simulation time", f"{seconds:.0f} s playing chunks ({total / seconds:,.0f} games/s)" if seconds else "-"),
        ("Cards", "the shipped list of 19 dream fragments: ASSUMED (only The Bear and The Music Box are printed)"
                  if m.meta.get("cards") is None else "a --cards file (kept in the manifest)"),
        ("Conventions", "every estimate with its 95% interval; seat 1 plays first; solo: the player wins by staying "
                        "asleep to the end of the deck; the bots never use a back no one has seen (P1.4, P9.5) nor "
                        "where a card went in a secret insertion (P9.4)"),
    ]
    return f"{m.meta.get('name') or ''}: study folder {folder}", facts


def _new(title: str, subtitle: str) -> Figure:
    fig = Figure(figsize=PAGE, layout="constrained")
    fig.suptitle(title, fontsize=15, fontweight="bold", x=0.01, y=0.995, ha="left", va="top")
    lines = textwrap.wrap(subtitle, 150)
    fig.text(0.01, 0.952, "\n".join(lines), fontsize=10, color="#333333", ha="left", va="top", linespacing=1.3)
    fig.get_layout_engine().set(rect=(0, 0, 1, 0.945 - 0.027 * len(lines)))
    return fig


def _forest(ax, labels: list[str], value, low, high, ref: float, scale: float = 100.0) -> None:
    y = np.arange(len(labels))[::-1]
    value, low, high = (np.asarray(a, dtype=float) * scale for a in (value, low, high))
    sig = (low > ref) | (high < ref)
    colours = [SIGNIFICANT if s else PALETTE[0] for s in sig]
    ax.hlines(y, low, high, colors=colours, lw=3)
    ax.scatter(value, y, color=colours, s=36, zorder=3)
    ax.axvline(ref, color="#555555", lw=1, ls="--")
    ax.set_yticks(y, labels)


@styled
def first_player_chart(s: dict) -> list[Chart]:
    rows = s["first_player"]
    if not rows:
        return []
    fig = _new("First-player advantage", "Seat 1's win rate in 2-player games with the same bot on both seats, "
               "with its 95% Wilson interval; the dashed line is a fair 50%. Red: the interval excludes 50%.")
    ax = fig.add_subplot()
    _forest(ax, [f"{r['strategy']}, {variant_text(r['variant'])}" for r in rows], [r["rate"] for r in rows],
            [r["low"] for r in rows], [r["high"] for r in rows], 50.0)
    ax.set_xlabel("seat 1 win rate (%)")
    return [Chart("pd-first-player", "First-player advantage", fig)]


@styled
def action_chart(s: dict) -> list[Chart]:
    charts = []
    rows = s["action_value"]
    if rows:
        fig = _new("Value of each action card (restricted play)",
                   "Win rate a seat gains from being allowed to use the card: the bot against the same bot that never "
                   "uses it (BOT/no-ACTION), paired on the same deals, both seats pooled; 95% interval, in points.")
        ax = fig.add_subplot()
        _forest(ax, [f"{r['action']} ({r['strategy']}, {variant_text(r['variant'])})" for r in rows],
                [r["value"] for r in rows], [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
        ax.set_xlabel("win rate the card is worth (percentage points)")
        charts.append(Chart("pd-action-value", "Value of each action card", fig))
    rows = s["holding"]
    if rows:
        fig = _new("Holding an action card (Lucid Dreams)",
                   "Win rate of a seat dealt the card minus that of a seat not dealt it, in Lucid Dreams games with the "
                   "same bot on both seats (different games: Welch 95% interval), in points.")
        ax = fig.add_subplot()
        _forest(ax, [f"{r['action']} ({r['strategy']})" for r in rows], [r["difference"] for r in rows],
                [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
        ax.set_xlabel("holding minus not holding (percentage points)")
        charts.append(Chart("pd-holding", "Holding an action card", fig))
    return charts


@styled
def expansion_chart(s: dict) -> list[Chart]:
    rows = s["expansion"]
    if not rows:
        return []
    fig = _new("Lucid Dreams against the base game", "Paired on the same game indices, per bot: the change in seat 1's "
               "win rate (points) and in game length (turns), each with its 95% interval.")
    ax1, ax2 = fig.subplots(1, 2)
    labels = [r["strategy"] for r in rows]
    _forest(ax1, labels, [r["change"] for r in rows], [r["low"] for r in rows], [r["high"] for r in rows], 0.0)
    ax1.set_xlabel("change in seat 1 win rate (points)")
    _forest(ax2, labels, [r["turns_change"] for r in rows], [r["turns_low"] for r in rows],
            [r["turns_high"] for r in rows], 0.0, scale=1.0)
    ax2.set_xlabel("change in game length (turns)")
    return [Chart("pd-expansion", "Lucid Dreams against the base game", fig)]


def _rate_lines(ax, groups: dict, xkey: str) -> None:
    for i, (label, rows) in enumerate(groups.items()):
        x = np.array([r[xkey] for r in rows], dtype=float)
        v, lo, hi = (np.array([r[k] for r in rows]) * 100 for k in ("rate", "low", "high"))
        ax.errorbar(x + 0.04 * i, v, yerr=np.clip(np.vstack([v - lo, hi - v]), 0, None), marker="o", capsize=3,
                    color=PALETTE[i % len(PALETTE)], label=label)
    ax.legend()


@styled
def difficulty_chart(s: dict) -> list[Chart]:
    rows = s["difficulty"]
    if not rows:
        return []
    fig = _new("Difficulty levels", "Starting wakefulness 1 to 4 (the rulebook's default is 1; difficulty is a solo rule): "
               "solo, the chance of staying asleep to the end; the 2-player line is a variant the rulebook does not "
               "define (both seats start there), seat 1's win rate; 95% Wilson intervals.")
    groups: dict[str, list[dict]] = {}
    for r in rows:
        label = "solo" if r["players"] == 1 else "2-player variant, seat 1"
        groups.setdefault(f"{label} ({r['strategy']})", []).append(r)
    ax = fig.add_subplot()
    _rate_lines(ax, groups, "start")
    ax.set_xlabel("starting wakefulness")
    ax.set_ylabel("win rate (%)")
    ax.set_xticks(sorted({r["start"] for r in rows}))
    return [Chart("pd-difficulty", "Difficulty levels", fig)]


@styled
def solo_chart(s: dict) -> list[Chart]:
    rows = s["solo_challenge"] + s.get("solo_chosen", [])
    if not rows:
        return []
    fig = _new("The solo challenge", "\"How many action cards do you need if you start on a wakefulness of 4?\" The "
               "chance of staying asleep to the end of the deck with N action cards, per bot: chosen by the player "
               "(the best set of N of the 16, measured on deals it was not chosen on; the question as asked) and "
               "dealt at random from all 16; 95% Wilson intervals.")
    groups: dict[str, list[dict]] = {}
    for r in rows:
        groups.setdefault(f"{r['strategy']}, {r.get('reading', 'random deal')}", []).append(r)
    ax = fig.add_subplot()
    _rate_lines(ax, groups, "actions")
    ax.axhline(50, color="#555555", lw=1, ls="--")
    ax.set_xlabel("action cards (chosen or dealt)")
    ax.set_ylabel("stays asleep (%)")
    ax.set_xticks(sorted({r["actions"] for r in rows}))
    return [Chart("pd-solo-challenge", "The solo challenge", fig)]


@styled
def solver_chart(s: dict) -> list[Chart]:
    rows = s["solver"]
    if not rows:
        return []
    fig = _new("How close each bot plays to the exact solver", "On small positions sampled from play: the solver's win "
               "chance minus the bot's, for the player to move, with its 95% interval (0 = plays perfectly there).")
    ax = fig.add_subplot()
    _forest(ax, [f"{r['strategy']} ({r['players']}p, {variant_text(r['variant'])})" for r in rows],
            [r["gap"] for r in rows], [r["gap_low"] for r in rows], [r["gap_high"] for r in rows], 0.0)
    ax.set_xlabel("solver minus bot (percentage points)")
    return [Chart("pd-solver-gap", "Distance to the solver", fig)]


def make_charts(s: dict) -> list[Chart]:
    return [*first_player_chart(s), *action_chart(s), *expansion_chart(s), *difficulty_chart(s), *solo_chart(s),
            *solver_chart(s)]


def build_pd_report(folder, pdf=None, png_dir=None) -> ReportFiles:
    """Write the report of a Pleasant Dreams study folder (PDF and one PNG per chart)."""
    folder = Path(folder)
    check_study(folder)
    s = pd_summary(folder)
    subtitle, facts = title_facts(folder, s)
    return write_report(folder, pdf, png_dir, pdf_title=f"{s['title']} balance report: {folder.name}",
                        heading=f"{s['title']} balance report", subtitle=subtitle, facts=facts,
                        findings=make_findings(s), topics=TOPICS, charts=make_charts(s), tables=s)


build_report = build_pd_report


def summary_output(folder, as_json: bool) -> list[str]:
    """Pleasant Dreams' summary of a study folder (``dreamscape summarize``): strict JSON or its tables."""
    import json

    from reports.tables import pd_summary_lines

    check_study(folder)
    data = pd_summary(folder)
    if as_json:
        return [json.dumps(data, allow_nan=False)]
    return pd_summary_lines(data)


def _tables(folder) -> dict:
    check_study(folder)
    return pd_summary(folder)


WING = GameReport(game=NAME, topics=TOPICS, tables=_tables, findings=make_findings, build_report=build_pd_report,
                  summary_output=summary_output, after_study=after_study)
