#!/usr/bin/env bash
# Trains the six shipped values of the strong bot, simcore/games/dreamscape/bots/data/strong/ (run from the
# repository root, in the venv of `python3 dev.py setup`): one `dreamscape train --strategy strong` per player
# count and rules option. Each takes about 5 minutes on 2 cores (120,000 games, then 100 trees).
set -e
for v in base sleep-token; do for p in 3 2 4; do
  dreamscape train --strategy strong --players $p --variant $v --games 120000 --trees 100 --leaves 63 --seed 1 \
    --out simcore/games/dreamscape/bots/data/strong/${p}p-$v.npz --no-progress
done; done
echo ALL DONE
