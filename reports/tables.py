"""Every table the command line prints, formatted in one place.

The numbers come from :mod:`analyses` as row dicts (the same that ``--json``
prints); these functions only lay them out for a terminal, long tables cut to
their most telling rows.
"""
from __future__ import annotations

from pathlib import Path

from reports.certify import certify_lines  # noqa: F401 - `dreamscape certify`'s table (cli.emit finds it here)
from reports.numbers import rate_with_interval

# polars and the study summaries are imported in the functions that read a study
# folder: `dreamscape simulate`, `decks` and `strategies` print their tables
# without loading them (about a second of start-up).

MAX_SEAT_CONFIGS = 12  # per-seat tables for at most this many configurations
MAX_ROWS = 10


def summary_output(folder: str | Path, as_json: bool) -> list[str]:
    """A study folder's summary, as its game's report writes it (:func:`reports.games.summary_output`); its
    text ends with the bots' training status on the changed games it read (:func:`folder_training_line`)."""
    from reports.games import summary_output as of_folder

    lines = of_folder(folder, as_json)
    training = None if as_json else folder_training_line(folder)
    return lines + ([training] if training else [])


def folder_training_line(folder: str | Path) -> str | None:
    """One line naming the bots' training status on a study folder's changed configurations (issue #41), e.g.
    ``Bots on the changed games: expert fitted to this rule set in 3 configurations, out of distribution in 2
    (tables fitted to ...)``; None when the folder reads no changed game."""
    from analyses.study.folder import MANIFEST
    from analyses.tools.distance import folder_training

    rows = folder_training(folder) if (Path(folder) / MANIFEST).is_file() else []  # a report of tables alone: none
    if not rows:
        return None
    parts = []
    for bot in dict.fromkeys(r["strategy"] for r in rows):
        mine = [r for r in rows if r["strategy"] == bot]
        parts.append(f"{bot} " + ", ".join(
            f"{KIND_WORDS[r['training']]} in {r['configurations']} configuration{'s' if r['configurations'] != 1 else ''}"
            + (f" ({'e.g. ' if r['configurations'] > 1 else ''}{r['detail']})" if r["training"] == "out-of-distribution"
               else "") for r in mine))
    return "Bots on the changed games: " + "; ".join(parts) + " (distance from search: dreamscape exploit, or " \
        "simulate on that game)"


def simulation_lines(summary: dict) -> list[str]:
    """``dreamscape simulate``, one layout for every game: a header (game, players, bot, rules, deck, games,
    seed, time), one row per seat (seat from 1, strategy, win rate with its 95% Wilson interval, then the
    game's own columns under the names it declares), and the game's per-game means."""
    columns = summary["columns"]
    mode = "solo" if summary["players"] == 1 else f"{summary['players']} players"
    cards = f" ({summary['deck_cards']:,} cards)" if summary.get("deck_cards") is not None else ""
    rate = summary["games_per_s"] or 0
    head = [f"{summary['title']}: {mode}", f"bot {bots_of(summary['seats'])}", f"rules {summary['variant']}",
            f"deck {summary['deck']}{cards}", f"{summary['games']:,} games", f"seed {summary['seed']}",
            f"{summary['seconds']:.2f} s ({rate:,.0f} games/s)"]
    width = max([16] + [len(str(s["strategy"])) + 2 for s in summary["seats"]])  # long names (search:expert@16) keep a gap
    win = f"{columns['solo_win'] if summary['players'] == 1 and columns.get('solo_win') else 'win rate'} (95% CI)"
    widths = [max(8, len(c["label"]) + 2) for c in columns["seat"]]
    lines = [", ".join(head),
             f"{'seat':<5}{'strategy':<{width}}{win:<26}" + "".join(f"{c['label']:>{w}}" for c, w in zip(columns["seat"], widths))]
    for s in summary["seats"]:
        lo, hi = s["win_ci"]
        cells = "".join(f"{cell(s[c['key']], c['format']):>{w}}" for c, w in zip(columns["seat"], widths))
        lines.append(f"{s['seat'] + 1:<5}{s['strategy']:<{width}}{rate_with_interval(s['win_rate'], lo, hi):<26}{cells}")
    if columns["game"]:
        lines.append("per game: " + ", ".join(f"{c['label']} {cell(summary[c['key']], c['format'])}" for c in columns["game"]))
    return lines + capped_games_lines(summary) + bot_note_lines(summary.get("bot_notes"))


def capped_games_lines(summary: dict) -> list[str]:
    """A warning when games ended at the game's safety cap with no winner (Project Dreamscape R8.4): under
    changed rules the bots may never end a game (e.g. ``knob:min-buys=0`` lets a seat pass forever), and the win
    rates above would then describe capped games, not the game. Said in words, not left to a count in a column."""
    capped = int(summary.get("aborted") or 0)
    if not capped:
        return []
    share = capped / summary["games"]
    return [f"warning: {capped:,} of {summary['games']:,} games ({share:.0%}) hit the safety cap on turns and have no "
            "winner: the bots do not finish the game under these rules, so the rates above describe capped games"]


KIND_WORDS = {"fitted": "fitted to this rule set", "rule-aware": "rule-aware",
              "out-of-distribution": "out of distribution"}
NOTES_HEAD = ("Bots on the changed game: training status, and distance from search (the win rate a search player in "
              "one seat gains over the bot there, the bot in the other seats, same deals, 95% paired interval)")


def training_line(note: dict) -> str:
    """A bot's training status on one changed configuration, in one line (the measured distance when out of
    distribution, issue #41): ``fitted to this rule set``, ``rule-aware`` or ``out of distribution``."""
    from reports.numbers import change_with_interval

    measured = note.get("gain") is not None
    distance = change_with_interval(note["gain"], note["gain_low"], note["gain_high"]) + " points" if measured else None
    if note.get("training") is None:
        status = "training status not known (a bot the game does not describe)"
    elif note["training"] == "out-of-distribution":
        status = "out of distribution (" + (f"measured distance {distance}; " if measured else "") \
            + f"{note['training_detail']})"
    else:
        status = f"{KIND_WORDS[note['training']]} ({note['training_detail']})"
    return f"{note['strategy']} on {note['players']} players, {note['variant']}, deck {note['deck']}: {status}"


def distance_line(note: dict) -> str:
    """The bot's distance from search on one changed configuration, with its interval (or why it is not measured)."""
    from reports.numbers import change_with_interval

    if note.get("gain") is None:
        why = "skipped (--no-distance)" if note.get("distance") == "skipped" else "none (the game has no search player " \
            "over this bot)"
        return f"  distance from search: {why}"
    gain = change_with_interval(note["gain"], note["gain_low"], note["gain_high"])
    return (f"  distance from search: {note['search']} in one seat gains {gain} points over {note['strategy']}, "
            f"{note['games']:,} deals")


def bot_note_lines(notes: list[dict] | None) -> list[str]:
    """Under every result on a changed game: per configuration and bot, its training status (one line) and its
    distance from search (:func:`analyses.lab.whatif.bot_notes`); nothing for the base game."""
    if not notes:
        return []
    lines = [NOTES_HEAD]
    for note in notes:
        lines += [training_line(note), distance_line(note)]
    return lines


def simulation_output(summary: dict, as_json: bool) -> list[str]:
    """``dreamscape simulate``'s output: :func:`simulation_lines` (with ``--out``, then where the folder was
    written), or one JSON object: the summary, or with ``--out`` the folder's summary as ``summarize --json``
    writes it, its bots' notes added (``bot_notes``)."""
    import json

    if not as_json:
        folder = summary.get("folder")
        return simulation_lines(summary) + ([f"wrote {folder} (dreamscape summarize or report read it)"] if folder else [])
    if summary.get("folder"):
        return folder_output(summary, True)
    return [json.dumps(summary)]


def folder_output(data: dict, as_json: bool) -> list[str]:
    """A command whose result is a study folder (``sweep``): the folder's summary as ``summarize`` prints it, then
    the notes of its bots on the changed games it shows; JSON: ``summarize --json``'s object with ``bot_notes``."""
    import json

    if as_json:
        return [json.dumps({**json.loads(summary_output(data["folder"], True)[0]), "bot_notes": data.get("bot_notes", [])})]
    return summary_output(data["folder"], False) + bot_note_lines(data.get("bot_notes"))


def comparison_lines(summary: dict) -> list[str]:
    """``dreamscape compare``, one layout for every game and for variants or decks alike.

    A header like simulate's (game, players, bot(s), baseline and the sides compared, the deck each side
    played with its card count — one deck when all sides share it —, games, seed, time), then one row per
    side x metric: the baseline's value, the side's value, the paired difference (side - baseline) with
    its 95% interval in the report framework's form (:func:`reports.numbers.change_with_interval`), ``*``
    when that interval excludes 0, and the unpaired (Welch) interval alongside. The metrics and how they are
    written are the data the comparison declares (``summary["metrics"]``).
    """
    from reports.numbers import change_with_interval

    players = "+".join(map(str, summary["players"]))
    mode = "solo" if summary["players"] == [1] else f"{players} players"
    decks = summary["decks"]
    what = summary["compared"]
    if what == "decks":  # the sides are the deck files: each named with its card count, the rules they share
        sides = [f"baseline {_deck_text(decks[0])}", "decks " + " / ".join(_deck_text(d) for d in decks[1:]),
                 f"rules {'/'.join(summary['variants'])}"]
    else:
        shared = len({(d["deck"], d["cards"]) for d in decks}) == 1  # a swap variant plays another deck
        sides = [f"baseline {summary['baseline']}",
                 f"variants {'/'.join(s for s in summary['sides'] if s != summary['baseline'])}",
                 f"deck {_deck_text(decks[0])}" if shared
                 else "decks " + " / ".join(f"{d['side']}: {_deck_text(d)}" for d in decks)]
    bots = summary["bots"]
    head = [f"{summary['title']}: {mode}", f"{'bots' if len(bots) > 1 else 'bot'} {'/'.join(bots)}", *sides,
            f"{summary['games']:,} games", f"seed {summary['seed']}", f"{summary['seconds']:.2f} s"]
    rows = summary["rows"]
    if not rows:
        return [", ".join(head), "no comparison: the folder has no finished configuration to compare",
                *bot_note_lines(summary.get("bot_notes"))]
    paired = all(r["paired"] for r in rows)
    side_width = max([10] + [len(str(r["variant"])) + 2 for r in rows])
    many = len(summary["players"]) > 1
    lines = [", ".join(head),
             ("difference = side - baseline on the same deals, 95% paired interval (* excludes 0); unpaired interval "
              "alongside" if paired else "difference = side - baseline, 95% unpaired interval (aggregate-only study; "
                                         "* excludes 0)"),
             (f"{'players':<9}" if many else "") + f"{what[:-1]:<{side_width}}{'metric':<16}{'baseline':>10}{'side':>10}"
             f"  {'difference (95% CI)':<28}unpaired CI"]
    for r in rows:
        metric = summary["metrics"][r["metric"]]
        pct = metric["format"] == "pct"
        value = (lambda x: "n/a" if x != x else cell(x, metric["format"]))
        scale, digits = (100.0, 1) if pct else (1.0, 2)
        diff = change_with_interval(r["diff"], r["diff_low"], r["diff_high"], digits, scale) \
            + ("*" if r["significant"] else "")
        unpaired = change_with_interval(r["diff"], r["unpaired_low"], r["unpaired_high"], digits, scale).split(" ", 1)[1]
        lines.append((f"{r['players']:<9}" if many else "") + f"{r['variant']:<{side_width}}{metric['label']:<16}"
                     f"{value(r['baseline_value']):>10}{value(r['variant_value']):>10}  {diff:<28}{unpaired}")
    lines.append("rates in %, their differences in percentage points; means and their differences as they are")
    return lines + bot_note_lines(summary.get("bot_notes"))


def comparison_output(summary: dict, as_json: bool) -> list[str]:
    """``dreamscape compare``'s output: :func:`comparison_lines`, or one JSON object.

    The JSON of a variant comparison is its folder's summary as ``summarize --json`` writes it (its keys
    unchanged, ``compare`` among them) with the header and rows added under ``comparison``; a deck
    comparison's has ``compare`` (the rows) and ``comparison``.
    """
    import json

    from analyses.study.runsummary import json_ready

    if not as_json:
        return comparison_lines(summary)
    if summary["compared"] == "decks":
        data = {"compare": summary["rows"]}
    else:
        data = json.loads(summary_output(summary["folders"][0], True)[0])
    return [json.dumps(json_ready({**data, "comparison": summary}), allow_nan=False)]


def _deck_text(deck: dict) -> str:
    return deck["deck"] + (f" ({deck['cards']:,} cards)" if deck.get("cards") is not None else "")


def cell(value, fmt: str) -> str:
    """One value of a game's declared column: ``pct`` a rate in percent, else a format spec (``.2f``, ``,d``)."""
    if fmt == "pct":
        return f"{100 * value:.1f}%"
    return format(int(value) if fmt.endswith("d") else value, fmt)


def bots_of(seats: list[dict]) -> str:
    """The bots of a table's header: one name when every seat plays it, else each once in seat order."""
    return "/".join(dict.fromkeys(s["strategy"] for s in seats))


def game_strategy_lines(title: str, default: str, rows: list[tuple[str, str]], note: str | None = None) -> list[str]:
    """``dreamscape strategies``: the game's bots, one row each, its default bot, and how to bring your own (``note``)."""
    width = max(len(name) for name, _ in rows) + 2
    owner = f"{title}{chr(39) if title.endswith('s') else chr(39) + 's'}"
    return [f"{name:<{width}}{description}" for name, description in rows] + [
        f"{owner} default bot: {default} (every command's, unless --strategy)." + (f" {note}" if note else "")]


def strategy_lines(data: dict) -> list[str]:
    """``dreamscape strategies``' table from the lab's data (:func:`game_strategy_lines`)."""
    return game_strategy_lines(data["title"], data["default"], [(s["name"], s["description"]) for s in data["strategies"]],
                               data["note"])


def tune_lines(data: dict) -> list[str]:
    """``dreamscape tune``: the file written and the best candidate's mean win credit."""
    return [f"wrote {data['out']}: best mean win credit {100 * data['best_win_credit']:.1f}% (fair share "
            f"{100 / data['players']:.1f}%) after {data['evaluations']} evaluations"]


def conformance_lines(data: dict) -> list[str]:
    """``dreamscape conformance``: one line per scenario (PASS, or FAIL with its reason), then the counts."""
    return [f"PASS {r['name']}" if r["passed"] else f"FAIL {r['name']}: {r['reason']}" for r in data["scenarios"]] \
        + [f"{data['passed']} passed, {data['failed']} failed"]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _rate(r: dict, value: str, low: str, high: str) -> str:
    if r[value] is None or r[value] != r[value]:  # no seat-game to rate (NaN)
        return "n/a (no games)"
    from reports.numbers import rate_with_interval

    return rate_with_interval(r[value], r[low], r[high])


def summary_lines(folder: str | Path, data: dict | None = None) -> list[str]:
    """The summary for a terminal (``data``: the folder's summary, else read through its game's wing)."""
    from analyses.lab.studies import summary_data

    d = data or summary_data(folder)
    lines = []
    title = d["name"] or Path(d["folder"]).name
    bots = bots_of(d["seats"]) if d["seats"] else "none"
    lines.append(f"study {title}: {d['configs']} configuration(s), {d['games']:,} games, seed {d['seed']}, "
                 f"{'bots' if '/' in bots else 'bot'} {bots}"
                 + (f", precision +-{100 * d['precision']:.1f} points" if d.get("precision") else "")
                 + (", aggregates only" if d["aggregate_only"] else "") + f"; deck {d['deck']}")
    lines.append("has: " + ", ".join(d["kinds"]))
    lines += [f"bot rows: {line}" for line in d.get("bot_rows", [])]  # what the bots played, against the code
    lines += _seat_lines(d)
    if d.get("compare"):
        if "sweep" in d["kinds"] and len(d["compare"]) > 4 * MAX_ROWS:
            lines += ["", f"Variants against the base deck: {len(d['compare'])} comparisons in --json (the sweep below ranks the decks)"]
        else:
            lines += _compare_lines(d["compare"])
    if d.get("sweep"):
        lines += _sweep_lines(d["sweep"])
    if d.get("types"):
        lines += _type_lines(d["types"])
    for t in d.get("tournament", []):
        lines += ["", *tournament_lines(t)]
    if d.get("skill"):
        lines += _skill_lines(d["skill"])
    if d.get("solo"):
        lines += _solo_lines(d["solo"])
    return lines


def _seat_lines(d: dict) -> list[str]:
    seats = [r for r in d["seats"] if r["players"] >= 2]
    lengths = {r["config"]: r for r in d["game_length"]}
    configs = list(dict.fromkeys(r["config"] for r in seats))
    if not configs:
        return []
    lines = ["", "Seat advantage (win rate with 95% Wilson interval; * = interval excludes the fair share 1/players)"]
    if len(configs) > MAX_SEAT_CONFIGS:
        lines.append(f"  {len(configs)} multi-player configurations: per-seat tables in --json; the sweep below ranks them")
        return lines
    for config in configs:
        part = [r for r in seats if r["config"] == config]
        first, length = part[0], lengths[config]
        lines.append(f"{first['players']} players, variant {first['variant']}, {first['strategies']}, {first['games']:,} games; "
                     f"mean game length {length['mean_length']:.2f} turns ({length['length_low']:.2f}-{length['length_high']:.2f})")
        lines.append(f"  {'seat':<5}{'strategy':<16}{'win rate (95% CI)':<26}{'vs fair':>9}{'mean score':>12}{'mean Z':>8}")
        for r in part:
            flag = "*" if r["significant"] else " "
            lines.append(f"  {r['seat'] + 1:<5}{r['strategy']:<16}{_rate(r, 'win_rate', 'win_low', 'win_high'):<26}"
                         f"{100 * r['lift']:>+6.1f} pt{flag}{r['mean_score']:>11.2f}{r['mean_z']:>8.2f}")
    return lines


def _compare_lines(rows: list[dict]) -> list[str]:
    """A study folder's variant comparisons, written as ``dreamscape compare`` writes them (its metric labels, a
    change with its interval: reports/numbers.py), with the players and bots of each row."""
    from analyses.tools.compare import METRIC_COLUMNS
    from reports.numbers import change_with_interval

    paired = rows[0]["paired"]
    lines = ["", "Variants against the baseline (difference variant - baseline, 95% "
             + ("paired interval on common random numbers; unpaired alongside)" if paired else "unpaired interval: aggregate-only study)")]
    lines.append(f"  {'players':<8}{'strategies':<14}{'variant':<30}{'metric':<16}{'baseline':>9}{'variant':>9}"
                 f"  {'difference (95% CI)':<28}unpaired CI")
    shown = rows if len(rows) <= 4 * MAX_ROWS else sorted(rows, key=lambda r: -abs(r["diff"]) if r["significant"] else 0)[:4 * MAX_ROWS]
    for r in shown:
        pct = r["metric"] in ("seat_spread", "first_seat_win")
        f = (lambda x: f"{100 * x:.1f}%") if pct else (lambda x: f"{x:.2f}")
        scale, digits = (100.0, 1) if pct else (1.0, 2)
        diff = change_with_interval(r["diff"], r["diff_low"], r["diff_high"], digits, scale) \
            + ("*" if r["significant"] else "")
        unpaired = change_with_interval(r["diff"], r["unpaired_low"], r["unpaired_high"], digits, scale).split(" ", 1)[1]
        label = METRIC_COLUMNS.get(r["metric"], {}).get("label", r["metric"])
        lines.append(f"  {r['players']:<8}{r['strategies'][:13]:<14}{r['variant'][:29]:<30}{label:<16}"
                     f"{f(r['baseline_value']):>9}{f(r['variant_value']):>9}  {diff:<28}{unpaired}")
    if len(shown) < len(rows):
        lines.append(f"  ... {len(rows) - len(shown)} more rows in --json")
    lines.append("  * the interval excludes 0; baseline " + rows[0]["baseline"]
                 + "; rates in %, their differences in percentage points; means and their differences as they are")
    return lines


def _sweep_lines(rows: list[dict]) -> list[str]:
    lines = ["", "Swap sweep (seat spread = best seat's win rate - worst seat's, 95% interval)"]
    import polars as pl

    df = pl.DataFrame(rows)
    from analyses.lab.whatif import shown_sweep_rows

    for (players,), part in df.sort("players").group_by(["players"], maintain_order=True):
        lines.append(f"{players} players: {part.height} configurations; most balanced first"
                     + (f" (top and bottom {MAX_ROWS // 2})" if part.height > MAX_ROWS else ""))
        lines.append(f"  {'variant':<40}{'games':>8}{'seat spread (95% CI)':>26}{'seat 1 wins':>12}{'win score':>10}"
                     f"{'length':>8}  strongest type")
        for r in shown_sweep_rows(part.to_dicts(), MAX_ROWS):
            if r is None:
                lines.append("  ...")
                continue
            lines.append(f"  {r['variant'][:39]:<40}{r['games']:>8,}{_rate(r, 'seat_spread', 'spread_low', 'spread_high'):>26}"
                         f"{_pct(r['first_seat_win']):>12}{r['mean_winning_score']:>10.2f}{r['mean_length']:>8.2f}"
                         f"  {r['strongest_type'] or '-'} ({100 * r['strongest_lift']:+.1f})")
    return lines


def _type_lines(rows: list[dict]) -> list[str]:
    groups = list(dict.fromkeys((r["variant"], r["players"]) for r in rows))
    lines = ["", "Dream-type strength (win rate of seats performing the type more than the table's mean; * = excludes fair)"]
    if len(groups) > 4:
        lines.append(f"  {len(groups)} variant x player groups: tables in --json")
        return lines
    for variant, players in groups:
        lines.append(f"{players} players, variant {variant}")
        lines.append(f"  {'type':<22}{'per game':>9}{'share':>8}{'win rate when more (95% CI)':>32}{'lift':>8}{'chain pts':>10}")
        for r in (r for r in rows if r["variant"] == variant and r["players"] == players):
            flag = "*" if r["significant"] else " "
            lines.append(f"  {r['type'] + ' ' + r['name']:<22}{r['performed_per_game']:>9.2f}{_pct(r['pick_share']):>8}"
                         f"{_rate(r, 'win_rate_more', 'win_low', 'win_high'):>32}"
                         + (f"{100 * r['lift']:>+7.1f}{flag}" if r["lift"] == r["lift"] else f"{'n/a':>7} ")
                         + f"{r['chain_points_per_game']:>10.2f}")
    return lines


def tournament_lines(t: dict) -> list[str]:
    """A round robin's standings (``dreamscape tournament``, and a study's tournament in its summary)."""
    fair = 100 / t["players"]
    title = f"{t['title']} tournament" if t.get("title") else "Tournament"  # a study's tournament: its summary names the game
    bots = "/".join(r["strategy"] for r in t["standings"])
    deck = f", deck {t['deck']}" + (f" ({t['deck_cards']:,} cards)" if t.get("deck_cards") is not None else "") \
        if t.get("deck") else ""
    seed = f", seed {t['seed']}" if t.get("seed") is not None else ""
    lines = [f"{title}: {t['players']} players, bots {bots}, rules {t['variant']}{deck}, {t['games_per_seating']:,} "
             f"games per seating{seed} (fair share {fair:.1f}%)",
             f"  {'rank':<6}{'strategy':<24}{'win rate (95% CI)':<26}{'lift':>8}{'mean score':>12}{'rating':>9}"]
    for i, r in enumerate(t["standings"], start=1):
        lines.append(f"  {i:<6}{r['strategy'][:23]:<24}{_rate(r, 'win_rate', 'win_low', 'win_high'):<26}"
                     f"{100 * r['lift']:>+5.1f} pt{r['mean_score']:>12.2f}{r['rating']:>9.2f}")
    lines.append("  dominant strategy: " + (t["dominant"] or "none"))
    lines.append("  cycles: " + ("; ".join(" > ".join(c) + f" > {c[0]}" for c in t["cycles"]) if t["cycles"] else "none"))
    return lines + bot_note_lines(t.get("bot_notes"))


def _skill_lines(rows: list[dict]) -> list[str]:
    lines = ["", "Skill vs luck (the stronger bot's win rate in games where it met the weaker one)",
             f"  {'variant':<30}{'players':>8}  {'stronger > weaker':<28}{'games':>9}{'win rate (95% CI)':>26}{'fair':>8}"]
    for r in rows[:4 * MAX_ROWS]:
        lines.append(f"  {r['variant'][:29]:<30}{r['players']:>8}  {(r['stronger'] + ' > ' + r['weaker'])[:27]:<28}"
                     f"{r['games']:>9,}{_rate(r, 'stronger_win_rate', 'win_low', 'win_high'):>26}{_pct(r['fair']):>8}")
    if len(rows) > 4 * MAX_ROWS:
        lines.append(f"  ... {len(rows) - 4 * MAX_ROWS} more rows in --json")
    return lines


def _solo_lines(rows: list[dict]) -> list[str]:
    lines = ["", "Solo score bands (R10.5; share of games with 95% Wilson interval)"]
    groups = list(dict.fromkeys((r["variant"], r["strategy"]) for r in rows))
    for variant, strategy in groups:
        part = [r for r in rows if r["variant"] == variant and r["strategy"] == strategy]
        r0 = part[0]
        lines.append(f"variant {variant}, {strategy}, {r0['games']:,} games, mean score {r0['mean_score']:.2f} "
                     f"({r0['score_low']:.2f}-{r0['score_high']:.2f})")
        lines.append("  " + "  ".join(f"{r['band']}: {_rate(r, 'share', 'share_low', 'share_high')}" for r in part))
    return lines


def exploit_lines(data: dict) -> list[str]:
    """``dreamscape exploit``: per player count, variant and seat, the search player's gain over the bot.

    With several budgets, a column names the search player of each row, and the
    budget ladder follows: what each doubling of the playouts gains.
    """
    searches = data.get("searches") or [data["search"]]
    who = data["search"] if len(searches) == 1 else "search"
    title = f"{data['title']}: " if data.get("title") else ""
    lines = [f"{title}How strong is {data['strategy']}? {who} in one seat against {data['strategy']} everywhere else, "
             f"vs {data['strategy']} itself there on the same deals ({data['games_per_cell']:,} games per cell, seed {data['seed']})",
             f"  {'players':>7}  {'variant':<16}{'seat':>5}" + (f"  {'search':<24}" if len(searches) > 1 else "")
             + f"{'search wins (95% CI)':>25}{'bot wins (95% CI)':>25}{'gain, points (95% CI)':>27}"]
    for r in data["rows"]:
        gain = _pp(r, "gain", "gain_low", "gain_high")
        lines.append(f"  {r['players']:>7}  {r['variant'][:15]:<16}{r['seat']:>5}"
                     + (f"  {r['search'][:23]:<24}" if len(searches) > 1 else "")
                     + f"{_rate(r, 'search_win', 'search_low', 'search_high'):>25}"
                       f"{_rate(r, 'own_win', 'own_low', 'own_high'):>25}{gain:>27}")
    if data.get("doubling"):
        lines.append("Budget ladder: the search seat's win rate at the larger budget minus at the smaller, same deals")
        lines.append(f"  {'players':>7}  {'variant':<16}{'seat':>5}{'doubling':>12}{'gain, points (95% CI)':>27}")
        for r in data["doubling"]:
            gain = _pp(r, "gain", "gain_low", "gain_high")
            step = f"{r['from_playouts']} -> {r['to_playouts']}"
            lines.append(f"  {r['players']:>7}  {r['variant'][:15]:<16}{r['seat']:>5}{step:>12}{gain:>27}")
    if data["rows"]:
        seconds = f" in {data['seconds']:.0f} s" if data.get("seconds") is not None else ""
        lines.append(f"  largest gain {100 * data['max_gain']:+.1f} points; {data['games_played']:,} games played{seconds}")
    return lines


def train_lines(data: dict) -> list[str]:
    """``dreamscape train``: one row per expert iteration and the file written."""
    lines = [f"Expert iteration for {data['players']} players, {data['variant']} ({data['deck']}), "
             f"search@{data['playouts']} at every seat, seed {data['seed']}",
             f"  {'iteration':>9}{'games':>8}{'decisions':>11}{'agreement':>11}  {data['check']}"]
    for h in data["iterations"]:
        mark = "  <- kept" if h["kept"] else ""
        lines.append(f"  {h['iteration']:>9}{h['games']:>8,}{h['decisions']:>11,}{_pct(h['agreement']):>11}  {h['check']:.3f}{mark}")
    lines.append(f"  wrote {data['out']} in {data['seconds']:.0f} s; play it with --strategy expert:{data['out']}")
    return lines


def train_strong_lines(data: dict) -> list[str]:
    """``dreamscape train --strategy strong``: the games, the fit and the file written."""
    return [
        f"Strong bot's value for {data['players']} players, {data['variant']} ({data['deck']}), seed {data['seed']}",
        f"  games     {data['games']:,} expert self-play games, {data['rows']:,} late turn starts x seats, "
        f"{data['games_seconds']:.0f} s",
        f"  fit       {data['trees']} trees of at most {data['leaves']} leaves, {data['fit_seconds']:.0f} s; "
        f"held-out R2 {data['held_out_r2']:.3f} on {data['held_out_rows']:,} rows of every tenth game",
        f"  wrote {data['out']} in {data['seconds']:.0f} s; play it with --strategy strong:{data['out']}",
    ]


def restrict_lines(data: dict) -> list[str]:
    """``dreamscape restrict``: per player count, variant and restriction, the types ranked by the loss they cause."""
    title = f"{data['title']}: " if data.get("title") else ""
    lines = [f"{title}Restricted play with {data['strategy']}: one seat may never take one kind of action (a row), the "
             f"others play unrestricted; loss = the bot's win rate in that seat minus the restricted one's, same deals "
             f"({data['games_per_seat']:,} deals per seat, seed {data['seed']})"]
    key = None
    for r in data["rows"]:
        if (r["players"], r["variant"], r["restriction"]) != key:
            key = (r["players"], r["variant"], r["restriction"])
            never = f"never {r['restriction']}" if r["restriction"] != "no" else "never one kind of action"
            lines.append(f"  {r['players']} players, {r['variant']}, {never} "
                         f"(the unrestricted bot wins {_pct(r['base_win'])} of its seats on these deals)")
            lines.append(f"    {'rank':>4}  {'type':<24}{'restricted wins (95% CI)':>26}{'loss, points (95% CI)':>27}  flag")
        loss = f"{100 * r['loss']:+.1f} ({100 * r['loss_low']:+.1f} to {100 * r['loss_high']:+.1f})"
        what = r["type_name"] + (f" ({r['type']})" if r["type"] != r["type_name"] else "")
        lines.append(f"    {r['rank']:>4}  {what:<24}{_rate(r, 'win', 'win_low', 'win_high'):>26}{loss:>27}  {r['flag']}")
    if data["rows"] and data.get("seconds") is not None:
        lines.append(f"  {data['seconds']:.0f} s")
    return lines + bot_note_lines(data.get("bot_notes"))


def fix_lines(data: dict) -> list[str]:
    """``dreamscape fix-seats``: the unmodified game and the verified candidates, seat by seat."""
    n_ok = sum(1 for r in data["tried"] if r["feasible"])
    lines = [f"fix-seats, {data['players']} players, {data['variant']}, {data['strategy']} on every seat: "
             f"{data['trials']} settings tried on {data['games_per_trial']:,} games each ({n_ok} met the target of "
             f"{data['target']:g} points with the length within +-10%); verified on {data['verify_games']:,} fresh "
             f"games each (study folder {data['folder']})"]
    key = None
    for r in data["rows"]:
        if r["candidate"] != key:
            key = r["candidate"]
            label = "unmodified" if key == 0 else f"candidate {key}"
            verdict = "meets the target" if r["meets_target"] else "misses the target"
            lines.append(f"  {label}: {r['variant']}")
            lines.append(f"    spread {100 * r['spread']:.1f} points (95% CI {100 * r['spread_low']:.1f} to "
                         f"{100 * r['spread_high']:.1f}), {verdict}; mean length {r['mean_length']:.2f} turns "
                         f"({100 * r['length_change']:+.1f}% vs unmodified)")
        lines.append(f"    seat {r['seat']}: wins {_rate(r, 'win_rate', 'win_low', 'win_high')}")
    return lines + bot_note_lines(data.get("bot_notes"))


# ----------------------------------------------------------------------------- other games (simcore.games)


def _ci(r: dict, value: str = "rate", low: str = "low", high: str = "high") -> str:
    from reports.numbers import rate_with_interval

    return rate_with_interval(r[value], r[low], r[high])


def _pp(r: dict, value: str, low: str = "low", high: str = "high") -> str:
    from reports.numbers import change_with_interval

    return change_with_interval(r[value], r[low], r[high])


def pd_summary_lines(d: dict) -> list[str]:
    """Pleasant Dreams' analyses of a study folder as tables (seats from 1, 95% intervals)."""
    mark = lambda r: "*" if r.get("significant") else " "  # noqa: E731
    lines = [f"{d['title']}: {d['configurations']} configurations, {d['games']:,} games, seed {d['seed']}"]
    if d["first_player"]:
        lines += ["", "First-player advantage (2 players, seat 1's win rate, fair 50%):",
                  f"  {'variant':<16}{'bot':<14}{'seat 1 wins (95% CI)':<26}{'turns':>7}{'games':>10}"]
        lines += [f"{mark(r)} {r['variant']:<16}{r['strategy']:<14}{_ci(r):<26}{r['turns']:>7.1f}{r['games']:>10,}"
                  for r in d["first_player"]]
    if d["action_value"]:
        lines += ["", "Value of each action card (restricted play, paired on the same deals; points of win rate):",
                  f"  {'variant':<16}{'bot':<14}{'card':<18}{'value (95% CI)':<26}{'deals':>10}"]
        lines += [f"{mark(r)} {r['variant']:<16}{r['strategy']:<14}{r['action']:<18}{_pp(r, 'value'):<26}{r['games']:>10,}"
                  for r in d["action_value"]]
    if d["holding"]:
        lines += ["", "Holding an action card (Lucid Dreams; dealt minus not dealt, points):",
                  f"  {'bot':<14}{'card':<18}{'holding':>9}{'not':>9}  {'difference (95% CI)':<26}"]
        lines += [f"{mark(r)} {r['strategy']:<14}{r['action']:<18}{100 * r['rate_holding']:>8.1f}%{100 * r['rate_not']:>8.1f}%  "
                  f"{_pp(r, 'difference'):<26}" for r in d["holding"][:MAX_ROWS * 2]]
    if d["expansion"]:
        lines += ["", "Lucid Dreams against the base game (paired; seat 1's win rate in points, length in turns):",
                  f"  {'bot':<14}{'seat 1 change (95% CI)':<28}{'turns base':>11}{'lucid':>8}"]
        lines += [f"{mark(r)} {r['strategy']:<14}{_pp(r, 'change'):<28}{r['base_turns']:>11.1f}{r['lucid_turns']:>8.1f}"
                  for r in d["expansion"]]
    if d["difficulty"]:
        lines += ["", "Difficulty (a solo rule, P2.2; solo: stays asleep; 2 players: a variant the rulebook does "
                      "not define, seat 1 wins):",
                  f"  {'players':<9}{'bot':<14}{'start':>6}  {'rate (95% CI)':<26}{'turns':>7}"]
        lines += [f"  {r['players']:<9}{r['strategy']:<14}{r['start']:>6}  {_ci(r):<26}{r['turns']:>7.1f}"
                  f"{'' if r.get('rulebook', True) else '  variant'}" for r in d["difficulty"]]
    solo = d.get("solo_chosen", []) + d["solo_challenge"]
    if solo:
        lines += ["", "Solo challenge: from wakefulness 4, the chance of staying asleep with N action cards "
                      "(chosen by the player, P7.5, or dealt at random, P7.3):",
                  f"  {'bot':<14}{'reading':<14}{'cards':>6}  {'stays asleep (95% CI)':<26}{'games':>10}  hand"]
        lines += [f"  {r['strategy']:<14}{r.get('reading', 'random deal'):<14}{r['actions']:>6}  {_ci(r):<26}"
                  f"{r['games']:>10,}  {', '.join(r['hand']) if isinstance(r.get('hand'), (list, tuple)) else (r.get('hand') or '-')}"
                  for r in solo]
    if d["solver"]:
        lines += ["", "Distance to the exact solver (small positions; win chance of the player to move):",
                  f"  {'bot':<14}{'positions':>10}{'solver':>9}{'bot':>8}  {'gap (95% CI)':<26}"]
        lines += [f"  {r['strategy']:<14}{r['positions']:>10,}{100 * r['solver_win']:>8.1f}%{100 * r['bot_win']:>7.1f}%  "
                  f"{_pp(r, 'gap', 'gap_low', 'gap_high')}" for r in d["solver"]]
    lines += ["", "* the 95% interval excludes the fair share (rates) or zero (changes)"]
    return lines


def server_lines(data: dict) -> list[str]:
    """``dreamscape server``: whether warm start is on and the spare processes waiting (or loading)."""
    lines = [f"warm start: {'on' if data['enabled'] else 'off (DREAMSCAPE_SERVER=off)'}; sockets in {data['folder']}"]
    if data["stopped"]:
        lines.append(f"stopped {data['stopped']} spare process{'es' if data['stopped'] != 1 else ''}")
    spares = [s for s in data["spares"] if not data["stopped"]]
    if not spares:
        lines.append("no spare process is waiting: the next command that plays games starts one when it ends")
    for s in spares:
        state = "waiting" if s["ready"] else "loading"
        which = "this code and settings" if s["current"] else "other code or settings (never used for this code)"
        lines.append(f"  spare pid {s['pid']}: {state}, for {which}")
    return lines
