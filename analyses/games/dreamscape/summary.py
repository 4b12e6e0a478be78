"""Project Dreamscape's study summary: every analysis a folder has data for (:func:`study_kinds`).

:func:`summary_data` gathers the tables as lists of row dicts (its wing's ``summary_data``
hook), :func:`analyses.study.runsummary.json_ready` makes them strict JSON (``--json``);
:mod:`reports.tables` prints them for a terminal. :func:`simulation_summary` (in
:mod:`analyses.games.dreamscape.runsummary`, re-exported here) is the summary of one
in-memory run (``dreamscape simulate`` without ``--out``).
"""
from __future__ import annotations

from pathlib import Path

from analyses.games.dreamscape.balance import game_lengths, seat_advantage
from analyses.tools.compare import compare_variants
from analyses.study.botrows import read_bot_rows
from analyses.study.model import StudyError
from analyses.study.runsummary import json_ready  # noqa: F401 - part of this module's API
from analyses.games.dreamscape.runsummary import simulation_summary  # noqa: F401 - part of this module's API
from analyses.stats.skill import skill_vs_luck
from analyses.games.dreamscape.solo import solo_bands
from analyses.games.dreamscape.strength import CODES, pair_strength, type_strength
from analyses.study.folder import check_study, finished_configs, seat_totals
from analyses.study.folder import study_kinds as lab_kinds
from analyses.games.dreamscape.sweep import swap_sweep
from analyses.tools.tournament import tournament_from_study, tournament_groups
from simcore.games.dreamscape.variants import VariantError, parse_variant


def study_kinds(folder: str | Path) -> set[str]:
    """The lab's kinds of analysis a folder has data for (:func:`analyses.study.folder.study_kinds`), and
    ``sweep``: any variant with Controlled Study swaps (R1.4)."""
    kinds = lab_kinds(folder)
    if any(_removes_cards(c.variant) for c in finished_configs(folder)):
        kinds.add("sweep")
    return kinds


def _removes_cards(variant: str) -> bool:
    try:
        return bool(parse_variant(variant).removed)
    except VariantError:
        return False


def summary_data(folder: str | Path) -> dict:
    """Every analysis the folder has data for, as lists of row dicts (JSON-ready)."""
    folder = Path(folder)
    m = check_study(folder)  # every chunk as recorded, or one line naming the first that is not
    kinds = study_kinds(folder)
    if not kinds:
        raise StudyError(f"{folder}: the study has no finished chunk yet")
    out: dict = {
        "folder": str(folder), "name": m.meta.get("name", ""), "kind": m.meta.get("kind", ""), "command": m.command,
        "seed": m.seed, "configs": len(m.configs), "games": m.total_games(), "aggregate_only": m.aggregate_only,
        "precision": m.meta.get("precision"), "deck": (m.deck or {}).get("source", "default deck"),
        "kinds": sorted(kinds),
        "seats": seat_advantage(folder).to_dicts(),
        "game_length": game_lengths(folder).to_dicts(),
    }
    rows = read_bot_rows(m).lines()  # configurations played by other bot rows than the code's; none recorded
    if rows:  # a folder whose rows are all the code's says nothing more (its summary as before)
        out["bot_rows"] = rows
    if "compare" in kinds:
        out["compare"] = compare_variants(folder).to_dicts()
    if "sweep" in kinds:
        out["sweep"] = swap_sweep(folder).to_dicts()
    if "types" in kinds and f"sum_performed_{CODES[0]}" in seat_totals(folder).columns:
        # dream-type strength reads Project Dreamscape's per-type columns; another game's chunks have none
        out["types"] = type_strength(folder).to_dicts()
        try:
            out["pairs"] = pair_strength(folder).to_dicts()
        except StudyError:
            out["pairs"] = []
    if "tournament" in kinds:
        out["tournament"] = []
        for players, variant in tournament_groups(folder):
            t = tournament_from_study(folder, players, variant)
            out["tournament"].append({
                "players": players, "variant": variant, "games_per_seating": t.games_per_seating,
                "standings": t.standings.to_dicts(), "payoff": t.payoff.to_dicts(),
                "dominant": t.dominant, "cycles": [list(c) for c in t.cycles],
            })
    if "skill" in kinds:
        out["skill"] = skill_vs_luck(folder).to_dicts()
    if "solo" in kinds:
        out["solo"] = solo_bands(folder).to_dicts()
    return out
