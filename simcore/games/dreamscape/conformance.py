"""Play conformance scenarios (shared/conformance/FORMAT.md) on the reference and the fast engine.

Both engines answer the same scripted choices from the same loaded setup
(:func:`simcore.games.dreamscape.notation.state_from_setup`) and their positions, dumped as
:func:`simcore.games.dreamscape.notation.dump_state` dicts, are checked by the one
:func:`compare_expect`. A scenario passes on ``"both"`` only if it passes on
each engine; the reason of a failure names the engine.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.games.dreamscape.cards import CardError, parse_card
from simcore.files import read_text_file
from simcore.games.dreamscape.notation import ScenarioError, dump_state, state_from_setup
from simcore.games.dreamscape.reference import Game, GameState, IllegalChoice

ENGINES = ("reference", "fast")
ENGINE_CHOICES = ("reference", "fast", "both")


@dataclass(frozen=True)
class ScenarioResult:
    path: Path
    name: str
    passed: bool
    reason: str = ""
    malformed: bool = False  # the file could not be loaded as a scenario (bad input)


def scenario_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given; folders contribute their ``*.json`` files, subfolders too, in name order.

    A folder's files are sorted by their path relative to it, so ``a/x.json``
    comes before ``b.json`` and ``b/y.json``.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(
                (p for p in path.rglob("*.json") if p.is_file()), key=lambda p: p.relative_to(path).parts
            )
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


def compare_expect(expect: dict, got: dict, pending: str | None) -> list[str]:
    """Differences between ``expect`` and a position (empty when it matches).

    ``got`` is the position as a :func:`simcore.games.dreamscape.notation.dump_state` dict (the
    fast engine's :func:`simcore.games.dreamscape.fast.bridge.dump_fast_state` writes the same
    format), ``pending`` the kind of its pending decision (None: game over).
    Raises ScenarioError for an ``expect`` that does not follow FORMAT.md.
    """
    if not isinstance(expect, dict):
        raise ScenarioError("expect must be an object")
    problems: list[str] = []

    def differ(field: str, want: Any, have: Any) -> None:
        problems.append(f"{field}: expected {json.dumps(want)}, got {json.dumps(have)}")

    for field, want in expect.items():
        if field == "pending":
            if want != pending:
                differ(field, want, pending)
        elif field in ("game_over", "active", "costs", "sleep_deck_count"):
            if want != got[field]:
                differ(field, want, got[field])
        elif field in ("dreamscape", "sleep_deck", "discard"):
            if _norm_cards(want, f"expect.{field}") != _norm_cards(got[field], field):
                differ(field, want, got[field])
        elif field == "winners":
            have = sorted(got["winners"]) if got["game_over"] else None
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


def load_scenario(data: Any) -> tuple[dict, list[dict], dict]:
    """Check a scenario object's shape; returns (setup, choices, expect) or raises ScenarioError.

    The setup is loaded once and ``expect`` compared against it, so a
    malformed field is reported whatever either engine does later.
    """
    if not isinstance(data, dict):
        raise ScenarioError("the file must hold one JSON object")
    for required in ("setup", "expect"):
        if required not in data:
            raise ScenarioError(f"'{required}' is missing")
    initial = state_from_setup(data["setup"])
    choices = data.get("choices", [])
    if not isinstance(choices, list):
        raise ScenarioError("'choices' must be a list")
    for n, entry in enumerate(choices):
        if not isinstance(entry, dict) or "decision" not in entry or "choice" not in entry:
            raise ScenarioError(f"choices[{n}] needs 'decision' and 'choice'")
        if not isinstance(entry["decision"], str):
            raise ScenarioError(f"choices[{n}].decision must be a decision kind")
    compare_expect(data["expect"], dump_state(initial), None)  # raises for a malformed expect
    return data["setup"], choices, data["expect"]


def play_reference(s: GameState, choices: list[dict]) -> tuple[str | None, str | None, dict | None]:
    """Play the choices on the reference engine: (failure, pending kind, position dump)."""
    game = Game(s)
    for n, entry in enumerate(choices, start=1):
        kind, choice = entry["decision"], entry["choice"]
        pending = game.pending
        if entry.get("illegal", False):
            before = json.dumps(dump_state(game.state), sort_keys=True)
            try:
                game.apply(choice, kind)
            except IllegalChoice:
                if json.dumps(dump_state(game.state), sort_keys=True) != before:
                    return f"choice {n}: refusing {kind} {json.dumps(choice)} changed the game", None, None
                continue
            return f"choice {n}: illegal {kind} {json.dumps(choice)} was accepted", None, None
        if pending is None:
            return f"choice {n}: the game is over, but the scenario answers {kind}", None, None
        if pending.kind != kind:
            return (
                f"choice {n}: pending decision is {pending.kind} (seat {pending.seat + 1}), "
                f"the scenario answers {kind}"
            ), None, None
        try:
            game.apply(choice, kind)
        except IllegalChoice:
            legal = ", ".join(json.dumps(c) for c in pending.choices[:12])
            return f"choice {n}: {kind} {json.dumps(choice)} was refused (legal: {legal})", None, None
    return None, (game.pending.kind if game.pending else None), dump_state(game.state)


def play_fast(s: GameState, choices: list[dict]) -> tuple[str | None, str | None, dict | None]:
    """Play the choices on the fast engine: (failure, pending kind, position dump)."""
    from simcore.games.dreamscape.fast.scenario import play_scenario  # numba: compiled on first use only

    result = play_scenario(s, choices)
    return result.failure, result.pending, result.state


PLAYERS = {"reference": play_reference, "fast": play_fast}


def run_scenario_data(data: Any, engine: str = "reference") -> tuple[bool, str]:
    """Play one scenario object on one engine; (passed, reason). Raises ScenarioError if malformed."""
    setup, choices, expect = load_scenario(data)
    failure, pending, got = PLAYERS[engine](state_from_setup(setup), choices)
    if failure:
        return False, failure
    problems = compare_expect(expect, got, pending)
    if problems:
        return False, "; ".join(problems)
    return True, ""


def engines_of(engine: str) -> tuple[str, ...]:
    """The engines a ``--engine`` value names (``both``: reference and fast)."""
    if engine not in ENGINE_CHOICES:
        raise ValueError(f"engine must be one of {', '.join(ENGINE_CHOICES)}, got {engine!r}")
    return ENGINES if engine == "both" else (engine,)


def run_scenario_file(path: Path, engine: str = "reference") -> ScenarioResult:
    """Play one scenario file on ``engine`` (reference, fast or both).

    A file that cannot be loaded is a failed scenario with a one-line reason.
    With ``both`` it passes only if it passes on each engine; every failing
    engine's reason is given, prefixed with the engine's name.
    """
    engines = engines_of(engine)
    name = path.stem
    try:
        text = read_text_file(path, "scenario file", ScenarioError)
    except ScenarioError as exc:
        return ScenarioResult(path, name, False, str(exc).removeprefix(f"{path}: "), True)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return ScenarioResult(path, name, False, f"not valid JSON ({exc})", True)
    except RecursionError:  # the folder run goes on: this file alone fails
        return ScenarioResult(path, name, False, "not a scenario: JSON nested too deeply", True)
    if isinstance(data, dict) and isinstance(data.get("id"), str):
        name = data["id"]
    try:
        load_scenario(data)
    except ScenarioError as exc:
        return ScenarioResult(path, name, False, f"malformed scenario: {exc}", True)
    except RecursionError:
        return ScenarioResult(path, name, False, "malformed scenario: nested too deeply", True)
    failed: dict[str, str] = {}
    for one in engines:
        try:
            passed, reason = run_scenario_data(data, one)
        except Exception as exc:  # an engine bug must fail the scenario, not crash the run
            passed, reason = False, f"engine error: {type(exc).__name__}: {exc}"
        if not passed:
            failed[one] = reason
    return ScenarioResult(path, name, not failed, failure_reason(failed, engines))


def failure_reason(failed: dict[str, str], engines: tuple[str, ...]) -> str:
    """One line naming the failing engine(s); "" when none failed.

    Each engine's reason is prefixed with its name (``fast: ...``), except
    when every engine played failed for the same reason: then the reason is
    given once, followed by the engines, e.g. ``(reference and fast)``.
    """
    if not failed:
        return ""
    reasons = set(failed.values())
    if len(failed) == len(engines) and len(reasons) == 1:
        return f"{reasons.pop()} ({' and '.join(engines)})"
    return "; ".join(f"{one}: {reason}" for one, reason in failed.items())
