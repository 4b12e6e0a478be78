#!/usr/bin/env bash
# Trains the shipped values of the strong bot, simcore/games/dreamscape/bots/data/strong/ (run from the
# repository root, in the venv of `python3 dev.py setup`): one `dreamscape train --strategy strong` per player
# count and rules option. Base and Sleep Token: 120,000 games, then 100 trees, about 5 minutes each on a quiet
# 2-core machine. The shifting-token options (issue #41, so that strong never plays another configuration's
# value): 40,000 games each, the same fit (docs/research/2026-11-27-bots-for-changed-games.md; 20 to 25 minutes
# each on a loaded machine). Then one value per player count across the 24 single-swap decks of the base rules
# (R1.4; each block of 50 training games' deck drawn from the seed, research/train_strong_swaps.py), which strong
# plays in every single-swap deck: 20,000 games each, so that a fit fits in a session on a loaded machine
# (docs/research/2026-11-28-strong-values-for-swaps.md says which player counts are shipped).
set -e
for v in base sleep-token; do for p in 3 2 4; do
  dreamscape train --strategy strong --players $p --variant $v --games 120000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-$v.npz --no-progress
done; done
for v in shifting-tokens sleep-token+shifting-tokens; do for p in 3 2 4; do
  dreamscape train --strategy strong --players $p --variant $v --games 40000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-$v.npz --no-progress
done; done
for p in 3 2 4; do
  python -m research.train_strong_swaps --players $p --games 20000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-base-single-swaps.npz
done
echo ALL DONE
