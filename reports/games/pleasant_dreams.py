"""Pleasant Dreams' report wing (:class:`reports.wing.ReportWing`): title, findings in plain sentences, one
chart per analysis, on the framework's pages (:mod:`reports.pdf`).

The numbers come from :func:`analyses.games.pleasant_dreams.pd_summary`; every rate is
shown with its 95% interval (written by :mod:`reports.numbers`), seats are numbered from 1
(seat 1 plays first), and a finding is flagged ★ when its interval excludes the fair share (rates)
or zero (changes), as every game's report does.
"""
from __future__ import annotations

from pathlib import Path

from analyses.games.pleasant_dreams import after_study, pd_summary
from analyses.games import pleasant_dreams_plot as plot
from analyses.games.pleasant_dreams_plot import variant_text  # noqa: F401 - the variant in words, shared with the charts
from analyses.study.folder import check_study, load_manifest
from reports.charts import Chart
from reports.findings import Finding
from reports.numbers import change_with_interval, rate_with_interval
from reports.pdf import ReportFiles, write_report
from reports.wing import GameReport

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


PAGES = (  # (file stem, page title, drawing of analyses.games.pleasant_dreams_plot), in report order
    ("pd-first-player", "First-player advantage", plot.first_player),
    ("pd-action-value", "Value of each action card", plot.action_value),
    ("pd-holding", "Holding an action card", plot.holding),
    ("pd-expansion", "Lucid Dreams against the base game", plot.expansion),
    ("pd-difficulty", "Difficulty levels", plot.difficulty),
    ("pd-solo-challenge", "The solo challenge", plot.solo_challenge),
    ("pd-solver-gap", "Distance to the solver", plot.solver_gap),
)


def make_charts(s: dict) -> list[Chart]:
    """Every chart the study has data for (the Python API's drawings), in report order."""
    return [Chart(name, title, fig) for name, title, draw in PAGES if (fig := draw(s)) is not None]


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
