"""Project Dreamscape's lab wing: the game, its analyses, and its own steps of the lab's commands.

:data:`WING` is what the lab's registry finds under ``dreamscape`` (the entry-point group
``dreamscape.games``): the game of :mod:`simcore.games.dreamscape` with the capabilities this
wing implements (its study chunks and study files, balance analyses, training, rules knobs,
card swaps, solo bands), and the steps of the lab's commands where it has more to say than the
generic one (:mod:`analyses.games.dreamscape.commands`; they load the engine on first use).
"""
from __future__ import annotations

import dataclasses

from analyses.games import LabWing, extension_loaders
from analyses.games.dreamscape import commands
from simcore.games.dreamscape import GAME as ENGINE_GAME


def _study():
    from analyses.games.dreamscape import study

    return study


def _analyses():
    from analyses.games.dreamscape import balance

    return balance


def _trainer():
    from analyses.games.dreamscape import train

    return train


def _tuner():
    from simcore.games.dreamscape.bots import tuner

    return tuner


def _knobs():
    from analyses.games.dreamscape import fixseats

    return fixseats


def _card_swaps():
    from analyses.games.dreamscape import sweep

    return sweep


def _solo_bands():
    from analyses.games.dreamscape import solo

    return solo


def load_study_file(path, seed=None, cards=None):
    """A Project Dreamscape study file, with its own keys (swaps, rotations, rechecks, decks)."""
    from analyses.games.dreamscape.study import load_study_file as load

    return load(path, seed=seed, cards=cards)


def summary_data(folder):
    """Every analysis of a study folder played through this game's own study chunks (seats, Z cards, swaps...)."""
    from analyses.study.summary import summary_data as full_summary

    return full_summary(folder)


def charts():
    """The game's charts of the Python API (matplotlib is loaded only when a chart is asked for)."""
    from analyses.games.dreamscape import plot

    return plot


def report_tables(folder):
    """Every table of a study folder's report, seats counted from 1 (:func:`analyses.games.dreamscape.frames.collect`)."""
    return charts().tables(folder)


def figures(tables) -> dict:
    """Every chart of the report from :func:`report_tables`, by name in report order."""
    return charts().figures(tables)


GAME = dataclasses.replace(ENGINE_GAME, extensions=extension_loaders(
    study=_study, analyses=_analyses, trainer=_trainer, tuner=_tuner, knobs=_knobs, card_swaps=_card_swaps,
    solo_bands=_solo_bands))

WING = LabWing(
    game=GAME,
    strategy_note=commands.STRATEGY_NOTE,
    ships_strategies=True,  # a strategy file (bot.py:function) travels to Dask workers as a recipe
    load_study_file=load_study_file,
    summary_data=summary_data,
    prepare_engine=commands.prepare_engine,
    warm_local=commands.warm_local,
    warm_up=commands.warm_up,
    bench=commands.bench,
    load_bots=commands.load_bots,
    simulate_summary=commands.simulate_summary,
    conformance=commands.conformance,
    strategy_rows=commands.strategy_rows,
    tournament_field=commands.tournament_field,
    exploit=commands.exploit,
    restrict=commands.restrict,
    train=commands.train,
    train_strong=commands.train_strong,
    tune=commands.tune,
    charts=charts,
    report_tables=report_tables,
    figures=figures,
)
