#!/usr/bin/env bash
# Trains the shipped values of the strong bot, simcore/games/dreamscape/bots/data/strong/ (run from the
# repository root, in the venv of `python3 dev.py setup`): one `dreamscape train --strategy strong` per player
# count and rules option, 120,000 games each, then 100 trees (about 5 to 8 minutes each on a quiet 2-core machine,
# 16 minutes for 4 players under load; the shifting-token options had 40,000 games until
# docs/research/2026-11-28-strong-shifting-tokens.md measured the 120,000-game fits). Then one value per player count across the 24 single-swap decks of the base rules
# (R1.4; each block of 50 training games' deck drawn from the seed, research/train_strong_swaps.py), which strong
# plays in every single-swap deck: 20,000 games each, so that a fit fits in a session on a loaded machine
# (docs/research/2026-11-28-strong-values-for-swaps.md says which player counts are shipped).
set -e
for v in base sleep-token shifting-tokens sleep-token+shifting-tokens; do for p in 3 2 4; do
  dreamscape train --strategy strong --players $p --variant $v --games 120000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-$v.npz --no-progress
done; done
for p in 3 2 4; do
  python -m research.train_strong_swaps --players $p --games 20000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-base-single-swaps.npz
done
echo ALL DONE
