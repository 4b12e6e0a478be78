"""The what-if page (``dreamscape ui``): a NiceGUI page over :mod:`analyses.lab.ui.core`, on loopback only.

The page holds no numbers of its own: it checks a change with :func:`core.check`, plays it with
:func:`core.run` in a worker thread (one run at a time: the engine's progress listener is the process's),
and shows the returned result. A timer reads the run's progress into the bar; Cancel sets the run's event,
which stops it at its next chunk. Every failure is one line on the page.
"""
from __future__ import annotations

import base64
import html
import io
import socket
import threading
from pathlib import Path

from analyses.lab.common import default_players
from analyses.lab.ui import core

HOST = "127.0.0.1"  # loopback only: the page plays games on this machine for the person at it
KIND_LABELS = {"knob": "knob", "variant": "variant", "swap": "swap", "cards": "card file"}


def free_port(host: str = HOST) -> int:
    """A port nothing listens on now (the operating system's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Runner:
    """The one run the page may have going: its progress, its cancel event, and whether it is busy."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.cancel = threading.Event()
        self.stage, self.done, self.total = "", 0, 0

    def progress(self, stage: str, done: int, total: int) -> None:
        self.stage, self.done, self.total = stage, done, total


def _png(figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


def metrics_table(result: dict) -> str:
    """The paired metrics as an HTML table; each difference cell carries its metric (``data-metric``)."""
    head = "<tr><th>metric</th><th>printed game</th><th>changed</th><th>change (95% paired CI)</th></tr>"
    body = []
    for row in result.get("rows") or []:
        before, after, diff = core.points(row)
        mark = " *" if row["significant"] else ""
        body.append(f"<tr><td>{html.escape(core.metric_label(row['metric']))}</td><td>{before}</td><td>{after}</td>"
                    f"<td class='whatif-diff' data-metric='{row['metric']}'>{html.escape(diff)}{mark}</td></tr>")
    return f"<table class='whatif-table'>{head}{''.join(body)}</table>"


def seats_table(result: dict) -> str:
    """Each seat's paired change of win rate (and of mean score, where the game keeps scores)."""
    seats = result.get("seats") or []
    scored = bool(seats) and "score_diff" in seats[0]
    head = "<tr><th>seat</th><th>win rate: printed</th><th>changed</th><th>change (95% CI)</th>" + \
        ("<th>mean score: printed</th><th>changed</th><th>change (95% CI)</th>" if scored else "") + "</tr>"
    body = []
    for s in seats:
        cells = (f"<td>{s['seat']}</td><td>{s['win_rate_base']:.1%}</td><td>{s['win_rate_changed']:.1%}</td>"
                 f"<td class='whatif-seat' data-seat='{s['seat']}'>{100 * s['win_rate_diff']:+.1f} points "
                 f"({100 * s['win_rate_low']:+.1f} to {100 * s['win_rate_high']:+.1f})</td>")
        if scored:
            cells += (f"<td>{s['score_base']:.2f}</td><td>{s['score_changed']:.2f}</td>"
                      f"<td>{s['score_diff']:+.2f} ({s['score_low']:+.2f} to {s['score_high']:+.2f})</td>")
        body.append(f"<tr>{cells}</tr>")
    return f"<table class='whatif-table'>{head}{''.join(body)}</table>"


STYLE = """
<style>
.whatif-table { border-collapse: collapse; font-size: 0.9rem; }
.whatif-table td, .whatif-table th { border-bottom: 1px solid #ddd; padding: 2px 10px; text-align: left; }
</style>
"""


def build(history: core.History, runner: Runner) -> None:
    """The page's content (one per browser tab; the history and the runner are the server's)."""
    from nicegui import run, ui

    ui.add_head_html(STYLE)
    ui.label("Dreamscape lab: what if?").classes("text-2xl font-bold")
    ui.label("Change one thing of a game and play it against the printed game on the same deals.").classes(
        "text-gray-600")
    names = dict(core.games())
    state = {"card_file": ""}

    with ui.row().classes("w-full items-start no-wrap gap-6"):
        with ui.card().classes("w-96"):
            game = ui.select(names, value=next(iter(names)), label="game").classes("w-full whatif-game")
            players = ui.select([3], value=3, label="players").classes("w-full whatif-players")
            kind = ui.toggle(KIND_LABELS, value="knob").classes("whatif-kind")
            knob = ui.select({}, label="knob").classes("w-full whatif-knob")
            knob_help = ui.label("").classes("text-sm text-gray-600")
            value = ui.input("value", placeholder="e.g. 0,1,1").classes("w-full whatif-value")
            variant = ui.select([], label="variant (or type one)", with_input=True, new_value_mode="add-unique") \
                .classes("w-full whatif-variant")
            swap = ui.select([], label="swap (expansion type in for a base type)").classes("w-full whatif-swap")
            upload = ui.upload(label="card file (TOML)", auto_upload=True, max_files=1).classes("w-full")
            upload_name = ui.label("").classes("text-sm")
            with ui.row():
                games = ui.number("games", value=core.DEFAULT_GAMES, min=1, max=1_000_000, step=1000, format="%d") \
                    .classes("w-28 whatif-games")
                seed = ui.number("seed", value=1, min=0, step=1, format="%d").classes("w-20 whatif-seed")
            distance = ui.checkbox("bots' distance from search (a few hundred search games more)", value=True) \
                .classes("whatif-distance")
            with ui.row():
                go = ui.button("Run", icon="play_arrow").classes("whatif-run")
                stop = ui.button("Cancel", icon="stop", color="negative").classes("whatif-cancel")
            stop.disable()
            bar = ui.linear_progress(value=0, show_value=False).classes("whatif-progress")
            bar.set_visibility(False)
            status = ui.label("").classes("text-sm whatif-status")
            message = ui.label("").classes("text-red-700 whatif-message")

        with ui.column().classes("grow"):
            result_box = ui.column().classes("w-full")
            ui.label("History").classes("text-lg font-bold mt-4")
            history_box = ui.column().classes("w-full whatif-history")

    def refresh_choices() -> None:
        the = core.get_game(game.value)
        players.set_options(list(the.seat_counts), value=players.value if players.value in the.seat_counts
                            else default_players(the))
        knobs = core.knobs(game.value)
        knob.set_options({k.token: f"{k.token} ({k.rule}: {k.what})" for k in knobs},
                         value=knob.value if any(k.token == knob.value for k in knobs) else
                         (knobs[0].token if knobs else None))
        variant.set_options(core.variants(game.value, players.value))
        swap.set_options(core.swaps(game.value))
        show_kind()

    def show_knob_help() -> None:
        k = next((k for k in core.knobs(game.value) if k.token == knob.value), None)
        knob_help.text = f"printed: {k.printed}; range: {k.range}. {k.meaning}" if k else ""

    def show_kind() -> None:
        for element, wanted in ((knob, "knob"), (knob_help, "knob"), (value, "knob"), (variant, "variant"),
                                (swap, "swap"), (upload, "cards"), (upload_name, "cards")):
            element.set_visibility(kind.value == wanted)
        show_knob_help()

    game.on_value_change(lambda _: refresh_choices())
    players.on_value_change(lambda _: variant.set_options(core.variants(game.value, players.value or 1)))
    kind.on_value_change(lambda _: show_kind())
    knob.on_value_change(lambda _: show_knob_help())

    async def uploaded(event) -> None:
        content = await event.file.read()
        state["card_file"] = str(core.keep_card_file(event.file.name, content))
        upload_name.text = f"uploaded: {event.file.name}"
        upload.reset()

    upload.on_upload(uploaded)

    def change_of_form() -> core.Change:
        chosen = {"knob": value.value, "variant": variant.value, "swap": swap.value, "cards": state["card_file"]}
        return core.Change(game=game.value, players=int(players.value or 0), kind=kind.value,
                           name=knob.value or "" if kind.value == "knob" else "",
                           value=str(chosen[kind.value] or "").strip(), games=_whole(games.value, "games"),
                           seed=_whole(seed.value, "seed"), distance=bool(distance.value))

    def fill_form(change: core.Change) -> None:
        game.value = change.game
        refresh_choices()
        players.value = change.players
        kind.value = change.kind
        if change.kind == "knob":
            knob.value, value.value = change.name, change.value
        elif change.kind == "variant":
            variant.set_options(sorted({*core.variants(change.game, change.players), change.value}),
                                value=change.value)
        elif change.kind == "swap":
            swap.value = change.value
        else:
            state["card_file"] = change.value
            upload_name.text = f"uploaded: {Path(change.value).name}"
        games.value, seed.value, distance.value = change.games, change.seed, change.distance
        show_kind()

    def show_result(change: core.Change, result: dict) -> None:
        result_box.clear()
        with result_box:
            ui.label(change.label()).classes("text-lg font-bold")
            ui.label(core.sentence(result)).classes("whatif-sentence")
            figure = core.effect_figure(result)
            if figure is not None:
                ui.image(_png(figure)).props("no-transition no-spinner").classes("w-full max-w-4xl")
            ui.html(metrics_table(result), sanitize=False)
            ui.html(seats_table(result), sanitize=False).classes("mt-2")
            ui.label("* the 95% paired interval leaves out 0. Rates in %, their changes in percentage points.") \
                .classes("text-xs text-gray-600")
            ui.label("The bots in the changed game").classes("font-bold mt-2")
            for line in core.distance_lines(result) or ["the change leaves the game as printed: no note"]:
                ui.label(line).classes("text-sm whatif-distance-line")
            ui.label(f"played in {result.get('wall_seconds', 0):.1f} s").classes("text-xs text-gray-600 whatif-time")
            export_buttons(change)

    def export_buttons(change: core.Change) -> None:
        command = core.command_line(change)
        ui.label("The same question from the command line:").classes("text-sm mt-2")
        ui.code(command, language="bash").classes("w-full whatif-command")
        with ui.row():
            ui.button("command line", icon="download",
                      on_click=lambda: ui.download.content(command + "\n", "whatif.sh")).props("flat dense")
            ui.button("study file", icon="download",
                      on_click=lambda: ui.download.content(core.study_file(change), "whatif.toml")).props("flat dense")

    def show_history() -> None:
        history_box.clear()
        with history_box:
            if not history.entries:
                ui.label("Nothing tried yet.").classes("text-sm text-gray-600")
            for entry in reversed(history.entries):
                change = core.as_change(entry["change"])
                with ui.row().classes("items-center gap-2"):
                    ui.label(f"{entry['when']}  {change.label()}, {change.games:,} games, seed {change.seed}") \
                        .classes("text-sm")
                    ui.button("reopen", on_click=lambda _, e=entry: reopen(e)).props("flat dense") \
                        .classes(f"whatif-reopen-{entry['id']}")
                    ui.button("command line", on_click=lambda _, c=change: ui.download.content(
                        core.command_line(c) + "\n", "whatif.sh")).props("flat dense")
                    ui.button("study file", on_click=lambda _, c=change: ui.download.content(
                        core.study_file(c), "whatif.toml")).props("flat dense")

    def reopen(entry: dict) -> None:
        change = core.as_change(entry["change"])
        fill_form(change)
        show_result(change, entry["result"])

    async def start() -> None:
        message.text = ""
        try:
            change = core.check(change_of_form())
        except Exception as error:  # bad input of any kind: its one line on the page
            message.text = _one_line(error)
            return
        if not runner.lock.acquire(blocking=False):
            message.text = "a run is going on already (in this or another tab): wait for it or cancel it"
            return
        runner.cancel.clear()
        runner.progress("starting", 0, 0)
        go.disable()
        stop.enable()
        bar.value = 0
        bar.set_visibility(True)
        timer = ui.timer(0.25, lambda: show_progress())
        try:
            result = await run.io_bound(core.run, change, runner.progress, runner.cancel)
        except core.RunCancelled:
            message.text = "cancelled"
            return
        except Exception as error:  # the lab's one-line errors (and anything else) stay one line on the page
            message.text = _one_line(error)
            return
        finally:
            timer.cancel()
            runner.lock.release()
            go.enable()
            stop.disable()
            bar.set_visibility(False)
            status.text = ""
        if result is None:  # the server is shutting down
            return
        history.add(change, result)
        show_result(change, result)
        show_history()

    def show_progress() -> None:
        if runner.total:
            bar.value = runner.done / runner.total
            what = "paired games" if runner.stage == "games" else "search games (distance)"
            status.text = f"{what}: {runner.done:,} of {runner.total:,}"
        else:
            status.text = "getting the engine ready..."

    def cancel() -> None:
        runner.cancel.set()
        status.text = "cancelling..."

    go.on_click(start)
    stop.on_click(cancel)
    refresh_choices()
    show_history()


def _whole(value, name: str) -> int:
    if value is None or float(value) != int(float(value)):
        raise core.LabInputError(f"{name} must be a whole number, got {value}")
    return int(float(value))


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


def serve(port: int | None = None, open_browser: bool = True, history_file: Path | None = None,
          say=print) -> None:
    """Serve the page on 127.0.0.1 (``port``, else a free one) until interrupted; open it in the browser."""
    try:
        from nicegui import app, ui
    except ImportError:
        raise core.LabInputError("the what-if page needs NiceGUI: pip install 'dreamscape-lab[ui]'") from None
    if port is not None and not 1 <= port <= 65535:
        raise core.LabInputError(f"port must be 1 to 65535, got {port}")
    port = port or free_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if probe.connect_ex((HOST, port)) == 0:
            raise core.LabInputError(f"port {port} is taken on {HOST}: give another --port, or none for a free one")
    history = core.History.load(history_file)
    runner = Runner()

    @ui.page("/")
    def index() -> None:
        build(history, runner)

    app.on_shutdown(runner.cancel.set)
    say(f"dreamscape ui: http://{HOST}:{port}/ (Ctrl-C stops it; history in {history.path})")
    ui.run(host=HOST, port=port, show=open_browser, reload=False, title="Dreamscape lab: what if?",
           show_welcome_message=False, favicon="🎲")


__all__ = ["serve", "build", "free_port", "metrics_table", "seats_table"]
