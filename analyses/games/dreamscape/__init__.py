"""Project Dreamscape's lab wing: the game, its analyses, and its own steps of the lab's commands.

:data:`WING` is what the lab's registry finds under ``dreamscape`` (the entry-point group
``dreamscape.games``): the game of :mod:`simcore.games.dreamscape` with the capabilities this
wing implements (balance analyses, training, solo bands), its card swaps and rules-knob search, its deck
records and study files (its study chunks go the lab's one way: the tables its ``play_games`` records), and the steps of the lab's commands where it has more to say than the
generic one (:mod:`analyses.games.dreamscape.commands`; they load the engine on first use).
"""
from __future__ import annotations

import dataclasses

from analyses.games import LabWing, extension_loaders
from analyses.games.dreamscape import adaptation, commands
from simcore.games.dreamscape import GAME as ENGINE_GAME


def _study():
    from analyses.games.dreamscape import study

    return study


def deck_record(cards):
    """A ``--deck`` composition as the study manifest's deck record (:mod:`analyses.games.dreamscape.study`)."""
    return _study().deck_record(cards)


def deck_of_record(record):
    """The composition of a study manifest's deck record; ValueError when damaged."""
    return _study().deck_of_record(record)


def _shipping():
    from analyses.games.dreamscape.shipping import SHIPPING

    return SHIPPING


def restriction_names():
    """Readable names of the dream types ``dreamscape restrict`` forbids (:mod:`analyses.games.dreamscape.balance`)."""
    from analyses.games.dreamscape.balance import restriction_type_names

    return restriction_type_names()


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


def study_file():
    """Project Dreamscape's part of its study files: decks, swaps, tournaments, rotations, rechecks."""
    from analyses.games.dreamscape.studyfile import RULES

    return RULES


def printed_game():
    """What a designer may change of the printed game: every rules knob of its numbers table (docs/guide/knobs.md,
    :mod:`simcore.games.dreamscape.numbers`) and its default deck file (R1.3, ``data/default_deck.toml``)."""
    from pathlib import Path

    import simcore.games.dreamscape as package
    from analyses.games import PrintedParts, rules_knobs
    from simcore.games.dreamscape.numbers import rulebook_numbers

    knobs = rules_knobs((n.knob.removeprefix("knob:"), n.rule, n.what, n.value, n.range, n.meaning)
                        for n in rulebook_numbers() if n.knob)
    return PrintedParts(knobs, Path(package.__file__).parent / "data" / "default_deck.toml")


def summary_data(folder):
    """Every analysis of a study folder played through this game's own study chunks (seats, Z cards, swaps...)."""
    from analyses.games.dreamscape.summary import summary_data as full_summary

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


def bot_rows(config, deck=None) -> dict:
    """The digest of the engine row every bot of a study configuration plays (:mod:`analyses.games.dreamscape.botrows`)."""
    from analyses.games.dreamscape.botrows import bot_rows as rows

    return rows(config, deck)


def _certify():
    """The certified top rung (:mod:`analyses.games.dreamscape.certify`), loaded by ``dreamscape certify`` only."""
    from analyses.games.dreamscape import certify

    return certify


GAME = dataclasses.replace(ENGINE_GAME, extensions=extension_loaders(
    analyses=_analyses, trainer=_trainer, tuner=_tuner, solo_bands=_solo_bands))

WING = LabWing(
    game=GAME,
    strategy_note=commands.STRATEGY_NOTE,
    strategy_shipping=_shipping,  # a strategy file (bot.py:function) travels to Dask workers as a recipe
    restriction_names=restriction_names,
    card_swaps=_card_swaps,  # the swap decks of R1.4: sweep, decks, --swap/--deck
    fix_seats=_knobs,  # the rules knobs searched for seat balance: fix-seats
    printed_game=printed_game,  # the knobs and deck file the what-if page offers to change
    deck_record=deck_record,
    deck_of_record=deck_of_record,
    study_file=study_file,
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
    training_status=adaptation.training_status,
    distance_search=adaptation.distance_search,
    charts=charts,
    report_tables=report_tables,
    figures=figures,
    certify=_certify,  # dreamscape certify: the top rung above strong reads the study's findings again
    bot_rows=bot_rows,  # a study folder records what its bots played; a resume and a report check it
)
