"""The card games' shared bot notation (simcore.games.botspec.BotNotation): each game's names, actions,
budgets, error and Setup, one reader and writer."""
from __future__ import annotations

import pytest

from simcore.games.counting_zzzzs import common as cz
from simcore.games.counting_zzzzs.config import parse_setup as cz_setup
from simcore.games.pleasant_dreams import bots as pd
from simcore.games.pleasant_dreams.common import ACTION_TYPES as PD_ACTIONS, PDError, parse_setup as pd_setup


def test_a_spec_reads_into_the_games_own_bot_and_back():
    mirror = PD_ACTIONS.index("mirror")
    bot = pd.parse_bot("search@8/no-mirror")
    assert (bot.kind, bot.budget, bot.banned) == (2, 8, 1 << mirror)
    assert bot.spec == "search@8/no-mirror" and pd.parse_bot(bot.spec) == bot
    # no budget given: the game's own default (Pleasant Dreams 16, Counting Zzzzs 8)
    assert pd.parse_bot("search").budget == pd.DEFAULT_SEARCH_BUDGET == 16
    assert cz.parse_bot("search").budget == cz.DEFAULT_SEARCH_BUDGET == 8
    # the same text names another game's bot: greedy is Counting Zzzzs' second bot, not Pleasant Dreams'
    assert cz.parse_bot("greedy/no-bender").spec == "greedy/no-bender"
    with pytest.raises(PDError, match="unknown bot 'greedy'"):
        pd.parse_bot("greedy")


def test_each_game_checks_with_its_own_setup_and_error():
    with pytest.raises(cz.CZError, match="needs a Setup from parse_setup"):
        cz.check_strategy("greedy", pd_setup(2))
    assert cz.check_strategy("search@4", cz_setup(3)) == "search@4"
    with pytest.raises(cz.CZError, match="need 3 strategies"):
        cz.check_run(cz_setup(3), ["greedy", "greedy"], 1, 0, 10, "fast")
    bots = pd.check_run(pd_setup(2), ["threshold", "search@2/no-mirror"], 1, 0, 10, "reference")
    assert [b.spec for b in bots] == ["threshold", "search@2/no-mirror"]
    with pytest.raises(PDError, match="K in search@K must be 1 to 10000"):
        pd.parse_bot("search@0")
