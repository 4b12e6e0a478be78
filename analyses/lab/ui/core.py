"""The what-if page's work, without the page: what a designer can change, playing a change, its history.

A *change* is one question: a game, a player count and one change of the printed game (a rules knob,
a rules variant, a Controlled Study swap, or a card file), played against the printed game on the same
deals (:func:`analyses.lab.compared`, the paired comparison of ``dreamscape compare``). The page
(:mod:`analyses.lab.ui.page`) only shows what this module returns, so every number it shows is one
of the Python API's; :func:`command_line` is the ``dreamscape compare`` call that prints the same
numbers, and :func:`study_file` a study file that plays the same games.
"""
from __future__ import annotations

import hashlib
import json
import os
import shlex
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from analyses.games import DEFAULT_GAME, PrintedGame, RulesKnob, game_names, get_game, need_hook, wing_of
from analyses.lab.errors import LabInputError
from simcore.games import GameError

KINDS = ("knob", "variant", "swap", "cards")  # what a change can be
DEFAULT_GAMES = 20_000
# Games per chunk: the page's bar and its Cancel move once per chunk. Results do not depend on it (a game's
# deal is its own random stream (seed, game), simcore.rng), so the exported command line, which plays
# 50,000-game chunks, gives the same numbers.
CHUNK_SIZE = 5_000


class RunCancelled(Exception):
    """The designer pressed Cancel: the run stopped at the next chunk (or search game)."""


# One rules knob as the page offers it: its token (``knob:TOKEN=VALUE``), rule id, printed value, range and meaning
# (docs/guide/knobs.md), as the game's wing declares it (its printed_game hook).
Knob = RulesKnob


@dataclass(frozen=True)
class Change:
    """One what-if question. ``value``: the knob's value, the variant or swap text, or the card file's path."""

    game: str = DEFAULT_GAME
    players: int = 3
    kind: str = "knob"
    name: str = ""          # the knob's token (kind knob)
    value: str = ""
    games: int = DEFAULT_GAMES
    seed: int = 1
    distance: bool = True   # also the bots' distance from search in the changed game (about 20 s)
    strategy: str = ""      # "": the game's default bot

    def side(self) -> str:
        """The changed side's variant text (a card file plays the printed rules, ``base``)."""
        if self.kind == "knob":
            return f"knob:{self.name}={self.value}"
        return "base" if self.kind == "cards" else self.value

    def label(self) -> str:
        """The change as the page's history lists it."""
        what = Path(self.value).name if self.kind == "cards" else self.side()
        return f"{self.game}, {self.players} players: {what}"


def as_change(data: dict) -> Change:
    """A change from its dict (a history entry), ignoring keys it does not know."""
    known = {f for f in Change.__dataclass_fields__}
    return Change(**{k: v for k, v in data.items() if k in known})


# --------------------------------------------------------------------------- what can be changed


def games() -> list[tuple[str, str]]:
    """(name, title) of every game the lab's registry finds."""
    return [(name, get_game(name).title) for name in game_names()]


def printed(game_name: str) -> PrintedGame | None:
    """What a designer may change of the game as printed: its wing's ``printed_game`` hook (its rules knobs and
    its own card file, :class:`analyses.games.PrintedGame`), or None for a game whose wing declares none."""
    declared = wing_of(game_name).printed_game
    return declared() if declared is not None else None


def knobs(game_name: str) -> list[Knob]:
    """Every rules knob of the game (the rows of docs/guide/knobs.md), as its wing declares them; none for a game
    whose wing declares no printed numbers."""
    parts = printed(game_name)
    return list(parts.knobs) if parts is not None else []


def variants(game_name: str, players: int) -> list[str]:
    """The rules variants the game sets side by side at ``players`` seats, the printed game left out."""
    the = get_game(game_name)
    if not the.has("variants") or players not in the.seat_counts:
        return []
    return [v for v in the.variants(players) if v != "base"]


def swaps(game_name: str) -> list[str]:
    """The game's single card swaps (Project Dreamscape's Controlled Study, R1.4: ``FF:ID``, ...), if it has any."""
    swaps_of = wing_of(game_name).card_swaps  # the wing's typed hook (analyses.games.CardSwaps); None: no swaps
    if swaps_of is None:
        return []
    return [s for s in swaps_of().swap_decks("single") if s != "base"]


def own_card_file(game) -> Path | None:
    """The card file the game plays when given none, which an uploaded card file is compared with (its wing's
    ``printed_game`` hook); None when the game declares none."""
    parts = printed(game.name)
    return parts.card_file if parts is not None else None


# --------------------------------------------------------------------------- checking a change


def check(change: Change) -> Change:
    """The change, checked before any game is played: one :class:`LabInputError` naming the problem.

    The game parses the changed side (a bad knob value is the game's own one line) and loads a card file.
    """
    if change.game not in game_names():
        raise LabInputError(f"unknown game {change.game!r}: one of {', '.join(game_names())}")
    the = get_game(change.game)
    if change.kind not in KINDS:
        raise LabInputError(f"a change is one of {', '.join(KINDS)}, got {change.kind!r}")
    if change.players not in the.seat_counts:
        counts = ", ".join(map(str, the.seat_counts))
        raise LabInputError(f"{the.title} is played by {counts} players, got {change.players}")
    if not isinstance(change.games, int) or not 1 <= change.games <= 1_000_000:
        raise LabInputError(f"games must be 1 to 1,000,000, got {change.games}")
    if not isinstance(change.seed, int) or not 0 <= change.seed < 2 ** 64:
        raise LabInputError(f"seed must be 0 to 2**64-1, got {change.seed}")
    if change.kind == "knob" and not change.name:
        raise LabInputError("pick a knob")
    if not str(change.value).strip():
        raise LabInputError({"knob": f"give knob {change.name} a value", "variant": "give a variant",
                             "swap": "pick a swap", "cards": "upload a card file"}[change.kind])
    if change.kind == "cards":
        try:  # the card file an uploaded one is compared with is the game's declared one (its printed_game hook)
            need_hook(the, "printed_game", "ui")
        except GameError as error:
            raise LabInputError(str(error)) from None
    try:
        if change.kind == "cards":
            if own_card_file(the) is None:
                raise LabInputError(f"{the.title} has no card file of its own to compare an uploaded one with")
            setup = the.setup(change.players, "base", change.value)
        else:
            setup = the.setup(change.players, change.side())
            if the.variant_name(setup) == "base":
                raise LabInputError(f"{change.side()} is the printed game: nothing to compare")
        if change.strategy:
            the.check_strategy(change.strategy, setup)
    except the.errors as error:
        raise LabInputError(str(error)) from None
    return change


# --------------------------------------------------------------------------- playing it


def lab_arguments(change: Change) -> dict:
    """The keyword arguments of :func:`analyses.lab.compared` that play the change (without the folder)."""
    the = get_game(change.game)
    args = {"game": change.game, "players": [change.players], "games": change.games, "seed": change.seed,
            "distance": change.distance, "strategies": [change.strategy] if change.strategy else None}
    if change.kind == "cards":
        args.update(cards=[own_card_file(the), Path(change.value)], variants=None)
    else:
        args.update(cards=[], variants=["base", change.side()])
    return args


def run(change: Change, progress: Callable[[str, int, int], None] | None = None,
        cancel: threading.Event | None = None) -> dict:
    """Play the change against the printed game on the same deals; the page's whole result, as plain data.

    ``progress(stage, done, total)``: ``stage`` is ``games`` (the paired games) then ``distance`` (the search
    games of the bots' distance). ``cancel`` set: :class:`RunCancelled` at the next chunk. Returns
    :func:`analyses.lab.compared`'s summary (``rows``: the paired metrics; ``bot_notes``) with ``seats``:
    each seat's paired change of win rate and mean score (:func:`seat_effects`).
    """
    from analyses.lab.studies import compared
    from analyses.study.progress import listen

    check(change)
    bars: list[list[int]] = []  # (done, total) of each bar so far: the first are the paired games'
    game_bars = 2 if change.kind == "cards" else 1  # two card files: one study folder (and bar) each

    def told(done: int, total: int) -> None:
        if cancel is not None and cancel.is_set():
            raise RunCancelled("cancelled")
        if not bars or done <= bars[-1][0] or total != bars[-1][1]:
            bars.append([done, total])  # a new bar: its count starts again
        bars[-1][0] = done
        if progress is not None:
            progress("games" if len(bars) <= game_bars else "distance", done, total)

    listen(told)
    try:
        with tempfile.TemporaryDirectory(prefix="dreamscape-whatif-") as scratch:
            started = time.perf_counter()
            summary = compared(**lab_arguments(change), out=Path(scratch) / "compare", chunk_size=CHUNK_SIZE,
                                   progress=False)
            summary["seats"] = seat_effects([Path(f) for f in summary["folders"]])
            summary["wall_seconds"] = time.perf_counter() - started
    finally:
        listen(None)
    summary.pop("folders", None)  # gone with the scratch folder
    return json.loads(json.dumps(summary, default=_plain))


def _plain(value):
    """JSON for what a summary may hold beyond JSON's types (numpy numbers, paths)."""
    import numpy as np  # loaded with the first summary, as below

    if isinstance(value, np.generic):  # numpy's numbers
        return value.item()
    return str(value)


def seat_effects(folders: list[Path]) -> list[dict]:
    """Each seat's paired change, changed side minus printed game on the same deals (game ``g`` against game
    ``g``): win rate (a fraction) and, where the game keeps scores, mean score; each with its 95% paired t
    interval. One folder: its first configuration is the printed game, the second the change; two folders
    (two card files): the first configuration of each."""
    import numpy as np

    from analyses.stats.intervals import mean_ci
    from analyses.study.folder import finished_configs, scan_games

    if len(folders) == 1:
        configs = finished_configs(folders[0])
        sides = [(folders[0], configs[0]), (folders[0], configs[1])]
    else:
        sides = [(f, finished_configs(f)[0]) for f in folders[:2]]
    frames = []
    for folder, config in sides:
        frame = scan_games(folder, [config.id]).collect().sort(["game", "seat"])
        frames.append(frame)
    players = sides[0][1].players
    columns = [c for c in ("win", "score") if all(c in f.columns for f in frames)]
    games = [f["game"].to_numpy().reshape(-1, players)[:, 0] for f in frames]
    common, ia, ib = np.intersect1d(games[0], games[1], assume_unique=True, return_indices=True)
    out = []
    for seat in range(players):
        row = {"seat": seat + 1, "games": int(common.size)}
        for column in columns:
            a = frames[0][column].to_numpy().astype(float).reshape(-1, players)[ia, seat]
            b = frames[1][column].to_numpy().astype(float).reshape(-1, players)[ib, seat]
            estimate = mean_ci(b - a)
            name = "win_rate" if column == "win" else "score"
            row.update({f"{name}_base": float(a.mean()), f"{name}_changed": float(b.mean()),
                        f"{name}_diff": estimate.value, f"{name}_low": estimate.low, f"{name}_high": estimate.high})
        out.append(row)
    return out


# --------------------------------------------------------------------------- the result in words


def points(row: dict) -> tuple[str, str, str]:
    """A metric row's two values and its difference with interval, as the command line writes them."""
    if row["metric"] in ("seat_spread", "first_seat_win"):
        return (f"{row['baseline_value']:.1%}", f"{row['variant_value']:.1%}",
                f"{100 * row['diff']:+.1f} points (95% CI {100 * row['diff_low']:+.1f} to {100 * row['diff_high']:+.1f})")
    return (f"{row['baseline_value']:.2f}", f"{row['variant_value']:.2f}",
            f"{row['diff']:+.2f} (95% CI {row['diff_low']:+.2f} to {row['diff_high']:+.2f})")


def metric_label(metric: str) -> str:
    """A metric as the command line's comparison table names it (``seat 1 wins``, not ``first_seat_win``)."""
    from analyses.tools.compare import METRIC_COLUMNS

    return METRIC_COLUMNS.get(metric, {}).get("label", metric.replace("_", " "))


METRIC_WORDS = {"seat_spread": "the seat spread (best seat's win rate minus the worst's)",
                "first_seat_win": "seat 1 wins", "winning_score": "the winning score", "game_length": "a game lasts"}


def sentence(result: dict) -> str:
    """The result in one paragraph: each metric's printed and changed value, its paired change and interval,
    and whether the interval leaves out 0 (a clear change) or not."""
    if not result.get("rows"):
        return "No paired games to compare."
    change = result["sides"][-1]
    parts = []
    for row in result["rows"]:
        before, after, diff = points(row)
        verdict = "" if row["significant"] else ", no clear change"
        unit = " turns" if row["metric"] == "game_length" else ""
        parts.append(f"{METRIC_WORDS.get(row['metric'], row['metric'])}: {before}{unit} -> {after}{unit}, "
                     f"{diff}{verdict}")
    games = result["games"]
    return (f"With {change} against {result['baseline']} on the same {games:,} deals "
            f"({', '.join(map(str, result['players']))} players, {', '.join(result['bots'])}): "
            + "; ".join(parts) + ".")


def distance_lines(result: dict) -> list[str]:
    """The bots' training status and distance from search in the changed game, one line per bot."""
    lines = []
    for note in result.get("bot_notes") or []:
        line = f"{note['strategy']}: {note['training'] or 'no training status'}"
        if note.get("training_detail"):
            line += f" ({note['training_detail']})"
        if note.get("gain") is not None:
            line += (f"; distance from search: {note['search']} in one seat gains {100 * note['gain']:+.1f} points "
                     f"(95% CI {100 * note['gain_low']:+.1f} to {100 * note['gain_high']:+.1f}) over "
                     f"{note['strategy']}, {note['games']:,} deals")
        elif note.get("distance") == "skipped":
            line += "; distance from search skipped"
        lines.append(line)
    return lines


# --------------------------------------------------------------------------- the same question elsewhere


def command_line(change: Change, json_output: bool = True) -> str:
    """The ``dreamscape compare`` command that plays the same games and prints the same numbers."""
    words = ["dreamscape", "compare", "--game", change.game, "--players", str(change.players)]
    if change.kind == "cards":
        words += ["--cards", str(own_card_file(get_game(change.game))), "--cards", str(change.value)]
    else:
        words += ["--variant", "base", "--variant", change.side()]
    if change.strategy:
        words += ["--strategy", change.strategy]
    words += ["--games", str(change.games), "--seed", str(change.seed)]
    if not change.distance:
        words.append("--no-distance")
    if json_output:
        words.append("--json")
    return shlex.join(words)


def study_file(change: Change) -> str:
    """A study file (``dreamscape study --config FILE``) that plays the change and the printed game on the
    same deals: one group of the two variants, whose paired effect (``dreamscape summarize``'s variants, or
    :func:`analyses.tools.compare.compare_variants` of the folder) is the page's.

    A card file: a study plays one card file, so the file plays the uploaded cards under the printed rules, and
    the printed game's side is the same file with the game's own cards (``--cards``, which replaces the file's),
    into a second folder; game ``g`` of both is the same deal (:func:`analyses.tools.compare.compare_decks` pairs
    them). The first lines say the commands, with ``--seed``: the command's seed is the study's (default 1).
    """
    the = get_game(change.game)
    strategy = change.strategy or the.default_strategy
    lines = [f"# What-if: {change.label()} (dreamscape ui)"]
    if change.kind == "cards":
        own = own_card_file(the)
        lines += ["# Play it: the uploaded cards, then the game's own cards on the same deals (--cards replaces the",
                  "# file's cards; --seed sets the study's seed):",
                  f"#   dreamscape study --config whatif.toml --seed {change.seed} --out whatif-changed",
                  f"#   dreamscape study --config whatif.toml --cards {shlex.quote(str(own))} --seed {change.seed} "
                  f"--out whatif-printed"]
    else:
        lines.append(f"# Play it: dreamscape study --config whatif.toml --seed {change.seed} --out whatif "
                     f"(--seed sets the study's seed)")
    lines += [f"game = {json.dumps(change.game)}",
              f"name = {json.dumps('what-if: ' + change.label())}", f"seed = {change.seed}",
              f"games = {change.games}"]
    if change.kind == "cards":
        lines.append(f"{card_key(the)} = {json.dumps(str(change.value))}  # the changed cards")
        variants_text = '["base"]'
    else:
        variants_text = json.dumps(["base", change.side()])
    lines += ["", "[[configs]]", 'label = "what-if"', f"players = {change.players}", f"variants = {variants_text}",
              f"strategy = {json.dumps(strategy)}", ""]
    return "\n".join(lines)


def card_key(game) -> str:
    """The study-file key that names a card file in the game's study files (``cards``, or ``deck`` where the
    game's own reader of study files names it so: Project Dreamscape's decks, R1.3)."""
    from analyses.games import wing_of

    rules = wing_of(game).study_file
    keys = rules().top_keys if rules is not None else frozenset({"cards"})
    return "cards" if "cards" in keys or "deck" not in keys else "deck"


# --------------------------------------------------------------------------- history


def data_dir() -> Path:
    """Where the page keeps its history and uploaded card files: ``DREAMSCAPE_UI_DATA``, else
    ``$XDG_DATA_HOME/dreamscape`` (``~/.local/share/dreamscape``)."""
    given = os.environ.get("DREAMSCAPE_UI_DATA")
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "dreamscape"


def keep_card_file(name: str, content: bytes, folder: Path | None = None) -> Path:
    """An uploaded card file, kept under the data folder by its content (so a history entry reopens it)."""
    folder = (folder or data_dir()) / "cards"
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(content).hexdigest()[:12]
    stem = "".join(c if c.isalnum() or c in "-_" else "-" for c in Path(name).stem) or "cards"
    path = folder / f"{stem}-{digest}.toml"
    if not path.exists():
        path.write_bytes(content)
    return path


@dataclass
class History:
    """What was tried, newest last, kept in ``whatif-history.json`` of the data folder after every run."""

    path: Path
    entries: list[dict] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path | None = None) -> "History":
        """The history file (a missing or unreadable file is an empty history, kept aside as ``.bad``)."""
        path = Path(path) if path is not None else data_dir() / "whatif-history.json"
        entries: list[dict] = []
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                entries = [e for e in data.get("entries", []) if isinstance(e, dict) and "change" in e]
            except (OSError, ValueError, AttributeError):
                path.replace(path.with_suffix(".bad"))
        return cls(path, entries)

    def add(self, change: Change, result: dict) -> dict:
        """Record a finished run and save the file; returns the entry."""
        entry = {"id": max((e.get("id", 0) for e in self.entries), default=0) + 1,
                 "when": time.strftime("%Y-%m-%d %H:%M:%S"), "change": asdict(change), "result": result}
        self.entries.append(entry)
        self.save()
        return entry

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"entries": self.entries}, indent=1), encoding="utf-8")
        temporary.replace(self.path)

    def get(self, entry_id: int) -> dict | None:
        return next((e for e in self.entries if e.get("id") == entry_id), None)


# --------------------------------------------------------------------------- the chart


def effect_figure(result: dict):
    """The paired effects as a matplotlib Figure: each seat's change of win rate (points), and each metric's
    change (rates in points, means in their units), every bar with its 95% paired interval; bars whose
    interval leaves out 0 are dark. None when the result has nothing to draw."""
    from matplotlib.figure import Figure

    seats, rows = result.get("seats") or [], result.get("rows") or []
    if not seats and not rows:
        return None
    figure = Figure(figsize=(9, 3.2), layout="constrained")
    left, right = figure.subplots(1, 2, width_ratios=[max(len(seats), 1), max(len(rows), 1)])

    def bars(axis, labels, values, lows, highs, title):
        clear = [not (lo <= 0 <= hi) for lo, hi in zip(lows, highs)]
        errors = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
        axis.bar(labels, values, color=["#1f5f8b" if c else "#9dbdd6" for c in clear], yerr=errors, capsize=4)
        axis.axhline(0, color="black", linewidth=0.8)
        axis.set_title(title, fontsize=10)

    if seats:
        bars(left, [f"seat {s['seat']}" for s in seats], [100 * s["win_rate_diff"] for s in seats],
             [100 * s["win_rate_low"] for s in seats], [100 * s["win_rate_high"] for s in seats],
             "win rate per seat, change (points)")
    rate = {"seat_spread", "first_seat_win"}
    scale = [100 if r["metric"] in rate else 1 for r in rows]
    if rows:
        bars(right, [metric_label(r["metric"]) for r in rows], [k * r["diff"] for k, r in zip(scale, rows)],
             [k * r["diff_low"] for k, r in zip(scale, rows)], [k * r["diff_high"] for k, r in zip(scale, rows)],
             "metrics, change (rates in points)")
        right.tick_params(axis="x", labelrotation=15, labelsize=8)
    return figure


__all__ = ["KINDS", "Change", "Knob", "History", "RunCancelled", "as_change", "check", "command_line", "data_dir",
           "distance_lines", "effect_figure", "games", "keep_card_file", "knobs", "lab_arguments", "metric_label", "own_card_file",
           "printed", "run", "seat_effects", "sentence", "study_file", "swaps", "variants"]
