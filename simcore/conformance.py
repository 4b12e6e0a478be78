"""Play conformance scenarios (shared/conformance/FORMAT.md) on the reference engine."""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.cards import CardError, parse_card
from simcore.notation import ScenarioError, dump_state, state_from_setup
from simcore.reference import Game, IllegalChoice


@dataclass(frozen=True)
class ScenarioResult:
    path: Path
    name: str
    passed: bool
    reason: str = ""
    malformed: bool = False  # the file could not be loaded as a scenario (bad input)


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given; folders contribute their ``*.json`` files in name order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.iterdir() if p.suffix == ".json" and p.is_file())
        else:
            yield path


def _norm_card(text: Any) -> Any:
    """Cards compare by their pair of types and face: "FF/SD" == "SD/FF"."""
    if text is None:
        return None
    if not isinstance(text, str):
        raise ScenarioError(f"{text!r} is not a card")
    down = text.startswith("~")
    try:
        pair = parse_card(text[1:] if down else text)
    except CardError as exc:
        raise ScenarioError(str(exc)) from None
    return (down, frozenset(pair))


def _norm_cards(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise ScenarioError(f"{where} must be a list of cards")
    return [_norm_card(v) for v in value]


def compare_expect(expect: dict, game: Game) -> list[str]:
    """Differences between ``expect`` and the game as it stands (empty when it matches)."""
    if not isinstance(expect, dict):
        raise ScenarioError("expect must be an object")
    s = game.state
    got = dump_state(s)
    problems: list[str] = []

    def differ(field: str, want: Any, have: Any) -> None:
        problems.append(f"{field}: expected {json.dumps(want)}, got {json.dumps(have)}")

    for field, want in expect.items():
        if field == "pending":
            have = game.pending.kind if game.pending else None
            if want != have:
                differ(field, want, have)
        elif field in ("game_over", "active", "costs", "sleep_deck_count"):
            if want != got[field]:
                differ(field, want, got[field])
        elif field in ("dreamscape", "sleep_deck", "discard"):
            if _norm_cards(want, f"expect.{field}") != _norm_cards(got[field], field):
                differ(field, want, got[field])
        elif field == "winners":
            have = sorted(s.winners) if s.game_over else None
            if not isinstance(want, list) or sorted(want) != have:
                differ(field, want, have)
        elif field == "seats":
            if not isinstance(want, list) or len(want) > len(got["seats"]):
                raise ScenarioError("expect.seats must list at most one object per seat")
            for i, seat_want in enumerate(want):
                if not isinstance(seat_want, dict):
                    raise ScenarioError(f"expect.seats[{i}] must be an object")
                seat_got = got["seats"][i]
                for key, value in seat_want.items():
                    where = f"seats[{i}].{key}"
                    if key in ("rem", "deep_sleep", "reserved"):
                        if _norm_cards(value, f"expect.{where}") != _norm_cards(seat_got[key], where):
                            differ(where, value, seat_got[key])
                    elif key in ("z", "spent", "score"):
                        if value != seat_got[key]:
                            differ(where, value, seat_got[key])
                    else:
                        raise ScenarioError(f"expect.{where} is not a field FORMAT.md knows")
        else:
            raise ScenarioError(f"expect.{field} is not a field FORMAT.md knows")
    return problems


def run_scenario_data(data: Any) -> tuple[bool, str]:
    """Play one scenario object; (passed, reason)."""
    if not isinstance(data, dict):
        raise ScenarioError("the file must hold one JSON object")
    for required in ("setup", "expect"):
        if required not in data:
            raise ScenarioError(f"'{required}' is missing")
    game = Game(state_from_setup(data["setup"]))
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise ScenarioError("'choices' must be a list")
    for n, entry in enumerate(choices, start=1):
        if not isinstance(entry, dict) or "decision" not in entry or "choice" not in entry:
            raise ScenarioError(f"choices[{n - 1}] needs 'decision' and 'choice'")
        kind, choice = entry["decision"], entry["choice"]
        pending = game.pending
        if entry.get("illegal", False):
            before = json.dumps(dump_state(game.state), sort_keys=True)
            try:
                game.apply(choice, kind)
            except IllegalChoice:
                if json.dumps(dump_state(game.state), sort_keys=True) != before:
                    return False, f"choice {n}: refusing {kind} {json.dumps(choice)} changed the game"
                continue
            return False, f"choice {n}: illegal {kind} {json.dumps(choice)} was accepted"
        if pending is None:
            return False, f"choice {n}: the game is over, but the scenario answers {kind}"
        if pending.kind != kind:
            return False, (
                f"choice {n}: pending decision is {pending.kind} (seat {pending.seat}), "
                f"the scenario answers {kind}"
            )
        try:
            game.apply(choice, kind)
        except IllegalChoice:
            legal = ", ".join(json.dumps(c) for c in pending.choices[:12])
            return False, f"choice {n}: {kind} {json.dumps(choice)} was refused (legal: {legal})"
    problems = compare_expect(data["expect"], game)
    if problems:
        return False, "; ".join(problems)
    return True, ""


def run_scenario_file(path: Path) -> ScenarioResult:
    """A file that cannot be loaded is a failed scenario with a one-line reason."""
    name = path.stem
    try:
        data = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        return ScenarioResult(path, name, False, f"cannot read file ({exc.strerror or exc})", True)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return ScenarioResult(path, name, False, f"not valid JSON ({exc})", True)
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        name = data["id"]
    try:
        passed, reason = run_scenario_data(data)
    except ScenarioError as exc:
        return ScenarioResult(path, name, False, f"malformed scenario: {exc}", True)
    except Exception as exc:  # an engine bug must fail the scenario, not crash the run
        return ScenarioResult(path, name, False, f"engine error: {type(exc).__name__}: {exc}")
    return ScenarioResult(path, name, passed, reason)
