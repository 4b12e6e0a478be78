"""Test-wide setup: the built-in bots, and strategies that exist for the tests only.

The built-ins are registered for every test (``rollout``, ``chain`` ... live in
:mod:`simcore.games.dreamscape.bots.builtins`, above the engine), so an engine test that names one
does not depend on which test module ran first.

The test strategies run the engine's own 'random' and 'greedy' functions
through the generic strategy hook (MODE_CALL: every option scored by a call)
instead of the engine's shortcuts, to check that the shortcuts change no game:

* ``random-hook``, ``greedy-hook``: called at every decision kind;
* ``greedy-hook-kinds``: greedy declaring the kinds where an option can change
  its own score at once (``DELTA_KINDS``), so the engine skips the rest.

Warm start is off for every command a test runs (``DREAMSCAPE_SERVER=off``).

Hypothesis draws the same examples on every run (profile ``repeatable``), so a
red run is red again on the next try and CI never fails by chance. To hunt for
new counterexamples, set ``HYPOTHESIS_PROFILE=explore`` (fresh random examples
every run; a failure prints the seed that replays it).
"""
from __future__ import annotations

import os

# Warm start (simcore.warmstart) stays off for the commands the tests run in subprocesses: a spare
# process left behind would outlive the test run. tests/test_warmstart.py turns it on in its own folder.
os.environ["DREAMSCAPE_SERVER"] = "off"

from hypothesis import settings  # noqa: E402

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

import simcore.games.dreamscape.bots.builtins  # noqa: F401 - registers the built-in bots
from simcore.games.dreamscape.fast.features import DELTA_KINDS
from simcore.games.dreamscape.fast.strategies import greedy_strategy, random_strategy, register

register("random-hook", random_strategy, "'random' scored through the strategy hook (tests)")
register("greedy-hook", greedy_strategy, "'greedy' scored through the strategy hook (tests)")
register("greedy-hook-kinds", greedy_strategy, "'greedy' through the hook, declaring its kinds (tests)",
         decides=DELTA_KINDS)
