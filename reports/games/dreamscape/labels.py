"""Words and numbers as a designer reads them: variant names, seats, percentages.

Seats are numbered from 1 in everything a designer reads ("seat 1" is seat
index 0 in the data). The variant and type words are the charts' own
(:mod:`analyses.games.dreamscape.words`), so a chart drawn from Python and
the report say the same.
"""
from __future__ import annotations

from analyses.games.dreamscape.words import (OPTION_ORDER, OPTION_WORDS, VariantParts, options_label,  # noqa: F401
                                            split_variant, strategies_label, swap_words, type_name, variant_label)
from reports.labels import PALETTE, SIGNIFICANT, pct, players_label, pm_pct, points, seat_label  # noqa: F401
