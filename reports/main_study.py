"""The main job, ``dreamscape study``: a balance study and its report in one folder (what it plays).

The lab runs it (:func:`analyses.lab.run_study`); this module keeps the
names older scripts import, and the description of what the main study plays.

The main study is a study file like any designer's (:mod:`analyses.study.studyfile`):
``simcore/games/dreamscape/studies/main.toml`` (``--quick``: ``main_study_quick.toml``),
run by the one study runner, :func:`analyses.study.studyfile.run_plan`. What it plays:

* **rules options**: 2, 3 and 4 players x base, Sleep Token, shifting tokens
  and both, the ``expert`` bot on every seat (12 configurations);
* **single swaps**: the same 12 x every Controlled Study deck with exactly one
  swap (R1.4: 8 base types x 3 expansion types = 24 decks), 288 configurations;
* **skill against luck**: one ``expert`` seat among ``linear`` bots, seats
  rotated, for every player count and rules option but the 3-player base game
  (the tournament's);
* **tournament**: round robin of random, greedy, chain, economist, spoiler,
  linear and expert in 3-player base games, every seating of every group of three;
* **ladder**: a 2-player round robin of the same bots and the strong bot in base
  games, both seatings of every pair on the same deals, read as head-to-head steps
  from the weakest bot to the strongest (:mod:`analyses.tools.ladder`, 54
  configurations of 2,000 games: expert against linear is skill against luck's already);
* **bot strength**: ``search:expert@8:late`` (the search player over expert in
  the last third of the game, where search gains most) in one seat against ``expert`` in the
  others, in every seat of 2, 3 and 4 players x base and Sleep Token (18 cells
  of 300 games), paired game by game with the all-expert games of the rules
  options: the report's page "How strong were the bots?"
  (:func:`analyses.tools.exploit.exploit_from_study`) and a step of the ladder.
  Search over the strong bot is too slow for the study: ``dreamscape exploit
  --strategy strong --phases late --out FOLDER`` (with ``-k 4 -k 8 -k 16``, the
  budget ladder) keeps its table in the study folder, and the report shows it beside;
* **solo**: ``expert``, ``greedy`` and ``linear`` in Virtual Dreaming (R10) under
  the four rules options, for the R10.5 score bands;
* **skill levels**: the rules options again under ``linear`` (12
  configurations of 20,000 games) and under ``strong`` (12 configurations: 6,000
  games each in 2 players, 4,500 in 3, 3,000 in 4), so that :mod:`reports.games.dreamscape.robust` can read each seat and rules-option
  finding at three strengths, the strong level first;
* **skill levels: headline swaps** (``[[recheck]]``, :mod:`analyses.games.dreamscape.recheck`):
  once the swaps are played, the decks the swap findings quote (per player
  count the largest fall and the largest rise of seat spread) are played again
  under ``linear`` (20,000 games) and ``strong`` (7,000 games in 2 players, 5,000
  in 3, 4,000 in 4), so that
  the swap findings are checked at every skill level too.

651 configurations and 10,247,400 games, plus the recheck's; the quick study plays the single
swaps under the base rules only, the strong level in 3-player games only and
the bot-strength cells of 2- and 3-player base games, with fewer games (414
configurations, 532,700 games). Sizing: see the docs' game page.
"""
from __future__ import annotations

from analyses.lab.studies import (default_folder, main_plan, plan_lines, request_of, run_study,  # noqa: F401
                                  study_plan)

run_main_study = run_study  # the older name: the study is run by the lab, the report written by the game's report
