"""What a game's report gives the report framework: the :class:`ReportWing` protocol.

A game's report lives in one place, ``reports/games/<game>.py`` (or a package), and exports ``WING``, an
object with the attributes below. The framework (``reports/`` outside ``reports/games/``) knows no game:
``dreamscape report`` and ``dreamscape summarize`` find the wing of a folder's game in the registry
(:func:`reports.games.report_wing`: the built-in wings, then the ``dreamscape.reports`` entry-point group)
and call it. A wing builds its report from the framework's parts (:func:`reports.pdf.write_report`: the
title page, the findings pages in the framework's sentence forms, its own text pages, one page per chart,
the PDF and PNG files), writes every interval with :mod:`reports.numbers`, and reads its numbers from
its game's analyses (``analyses/games/<game>``).

Written down in docs/architecture.md ("Reports").
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from reports.findings import Finding


@runtime_checkable
class ReportWing(Protocol):
    """A game's report, as the framework asks for it.

    Attributes
    ----------
    game : str
        The game's registry name (:func:`analyses.games.game_names`), e.g. ``"counting-zzzzs"``.
    topics : mapping of str to str
        The findings' topic keys and their headings, in page order (:attr:`Finding.topic`).
    tables : callable
        ``tables(folder) -> object``: the game's tables of a study folder, read once (its own type).
    findings : callable
        ``findings(tables) -> list[Finding]``: the findings sentences, each quoting one row.
    build_report : callable
        ``build_report(folder, pdf=None, png_dir=None) -> reports.pdf.ReportFiles``: the whole report
        (``pdf`` default ``folder/report.pdf``, PNGs in ``png_dir``, default ``folder/charts``).
    summary_output : callable
        ``summary_output(folder, as_json) -> list[str]``: ``dreamscape summarize``, one line of strict
        JSON or the lines of its tables.
    after_study : callable or None
        ``after_study(folder, plan, progress=None)``: the game's own work once a study's games are
        played, before its report (Pleasant Dreams: its solver); None when there is none.
    play_narration : callable or None
        ``play_narration(setup, strategies, seed, as_json) -> (record or None, lines)``: ``dreamscape play``
        told the game's own way (Project Dreamscape: the table after every turn); None: the game's
        short narration (:attr:`simcore.games.Game.narrate`).
    """

    game: str
    topics: Mapping[str, str]
    tables: Callable[[Path], Any]
    findings: Callable[[Any], list[Finding]]
    build_report: Callable[..., Any]
    summary_output: Callable[[Path, bool], list[str]]
    after_study: Callable[..., None] | None
    play_narration: Callable[..., tuple] | None


@dataclass(frozen=True)
class GameReport:
    """The plain :class:`ReportWing` every built-in game's report uses (a designer's may too)."""

    game: str
    topics: Mapping[str, str]
    tables: Callable[[Path], Any]
    findings: Callable[[Any], list[Finding]]
    build_report: Callable[..., Any]
    summary_output: Callable[[Path, bool], list[str]]
    after_study: Callable[..., None] | None = None
    play_narration: Callable[..., tuple] | None = None
