#!/usr/bin/env bash
# Trains the 16 shipped expert tables of simcore/games/dreamscape/bots/data/expert/ (run from the repository root, in the
# venv of `python3 dev.py setup`): one `dreamscape train` per player count and rules option. The six
# tables the exploit targets name (2, 3, 4 players x base, Sleep Token) get the larger budget.
set -e
for v in base sleep-token; do for p in 3 2 4; do
  dreamscape train --players $p --variant $v --iterations 3 --games 300 --playouts 4 --check-games 2000 --seed 1 \
    --out simcore/games/dreamscape/bots/data/expert/${p}p-$v.toml --no-progress
done; done
for v in base sleep-token shifting-tokens sleep-token+shifting-tokens; do
  dreamscape train --players 1 --variant $v --iterations 2 --games 200 --playouts 4 --check-games 1000 --seed 1 \
    --out simcore/games/dreamscape/bots/data/expert/1p-$v.toml --no-progress
done
for v in shifting-tokens sleep-token+shifting-tokens; do for p in 2 3 4; do
  dreamscape train --players $p --variant $v --iterations 2 --games 200 --playouts 4 --check-games 1000 --seed 1 \
    --out simcore/games/dreamscape/bots/data/expert/${p}p-$v.toml --no-progress
done; done
echo ALL DONE
