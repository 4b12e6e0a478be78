"""The strong bot's value of a position at a turn boundary (issue #26): its input and its trees.

The strong bot (:mod:`simcore.games.dreamscape.bots.strong`) looks one turn
ahead: each option of a late decision is followed by the rest of the turn,
and the position the turn ends in is scored by a learned value, the deciding
seat's chance to win from there. This module holds the two kernels that value
needs, below the search player that calls them
(:func:`simcore.games.dreamscape.fast.isearch.lookahead_decision`):

* :func:`encode_view`: the ``N_VIEW`` inputs, what a seat may know of the
  position (:func:`simcore.games.dreamscape.fast.encoding.encode_position`)
  and where the seat to move sits from it (one-hot over 0: itself, 1: the
  next seat, ...);
* :func:`tree_value`: a gradient-boosted regression forest (scikit-learn's
  ``HistGradientBoostingRegressor``, fitted by
  :mod:`analyses.games.dreamscape.train_strong`) evaluated from flat arrays,
  adding the trees in the order scikit-learn adds them, so the two agree bit
  for bit.

Where the trees travel: behind the expert table in the seat's row of the
engine's ``weights`` (columns from ``VALUE_AT``), so no kernel signature
changes for them::

    [VALUE_AT + 0]   number of trees T
    [VALUE_AT + 1]   number of nodes N (all trees)
    [VALUE_AT + 2]   the baseline (the mean the trees correct)
    [.. + T]         each tree's root node
    [.. + N] x 5     per node: feature (-1 at a leaf), threshold, left, right, leaf value

A node sends ``x`` left when ``x[feature] <= threshold`` (scikit-learn's
rule for a numeric split; the inputs are never missing).

The sharp bot (:mod:`simcore.games.dreamscape.bots.sharp`) is strong plus a
linear correction per decision kind, fitted on search's labels of strong's own
decisions (docs/research/2026-11-28-sharp.md). It travels right behind the
trees (:func:`correction_at`), so a row without it (strong's, or strong's
padded with zeros beside a sharp seat) reads a 0 flag there and is played
exactly as before::

    [at + 0]                       1.0: a correction follows (0 or absent: none)
    [at + 1 + k * (1 + N_VIEW)]    1.0 when decision kind k is corrected
    [.. + 1 .. + N_VIEW]           kind k's coefficient of each view input

so an option scores ``tree_value(view) + sum_j coef[k, j] * view[j]`` (summed
in input order from 0.0, as the reference bot sums it).

Imports: layout, encoding; imported by isearch.
"""
from __future__ import annotations

import numpy as np

from simcore.games.dreamscape.fast.encoding import N_ENC, encode_position
from simcore.games.dreamscape.fast.jit import kernel
from simcore.games.dreamscape.fast.layout import H_ACTIVE, H_N_SEATS, MAX_SEATS
from simcore.games.dreamscape.fast.scratch import EXPERT_WIDTH
from simcore.games.dreamscape.rules import DECISION_KINDS

N_VIEW = N_ENC + MAX_SEATS  # the value's inputs
VALUE_AT = EXPERT_WIDTH  # where a strong seat's trees start in its weights row
VALUE_HEAD = 3  # trees, nodes, baseline
NODE_FIELDS = 5  # feature, threshold, left, right, leaf value
N_KINDS = len(DECISION_KINDS)
CORRECTION_KIND_WIDTH = 1 + N_VIEW  # per kind: its flag, then one coefficient per view input
CORRECTION_WIDTH = 1 + N_KINDS * CORRECTION_KIND_WIDTH


def packed_width(n_trees: int, n_nodes: int) -> int:
    """Columns the packed trees take behind ``VALUE_AT``."""
    return VALUE_HEAD + n_trees + NODE_FIELDS * n_nodes


def pack_trees(feature, threshold, left, right, leaf_value, roots, baseline) -> np.ndarray:
    """The flat layout of the module docstring from per-node arrays (left/right numbered over all trees)."""
    n_trees, n_nodes = len(roots), len(feature)
    out = np.empty(packed_width(n_trees, n_nodes), dtype=np.float64)
    out[0], out[1], out[2] = n_trees, n_nodes, baseline
    at = VALUE_HEAD
    for column in (roots, feature, threshold, left, right, leaf_value):
        out[at : at + len(column)] = column
        at += len(column)
    return out


@kernel
def encode_view(st, seat, out):
    """Write the value's N_VIEW inputs for ``seat`` in ``st`` into ``out[:N_VIEW]``.

    ``encode_position`` of the seat, then a one-hot of where the seat to move
    (``H_ACTIVE``) sits from it: at a turn start that seat plays next, which
    is worth knowing in the last turns.
    """
    encode_position(st, seat, out, 0)
    n = st[H_N_SEATS]
    for j in range(MAX_SEATS):
        out[N_ENC + j] = 0.0
    out[N_ENC + (st[H_ACTIVE] - seat) % n] = 1.0


@kernel
def has_value(w):
    """True when the weights row ``w`` carries trees (a strong seat's)."""
    return w.shape[0] > VALUE_AT + VALUE_HEAD and w[VALUE_AT] > 0.0


@kernel
def tree_value(x, w):
    """The forest packed in ``w`` from ``VALUE_AT`` at the inputs ``x``: baseline + each tree's leaf, in order."""
    n_trees = np.int64(w[VALUE_AT])
    n_nodes = np.int64(w[VALUE_AT + 1])
    total = w[VALUE_AT + 2]
    roots = VALUE_AT + VALUE_HEAD
    feature = roots + n_trees
    threshold = feature + n_nodes
    left = threshold + n_nodes
    right = left + n_nodes
    leaf = right + n_nodes
    for t in range(n_trees):
        k = np.int64(w[roots + t])
        f = np.int64(w[feature + k])
        while f >= 0:
            k = np.int64(w[left + k]) if x[f] <= w[threshold + k] else np.int64(w[right + k])
            f = np.int64(w[feature + k])
        total += w[leaf + k]
    return total


def pack_correction(coef_by_kind) -> np.ndarray:
    """The correction block of the module docstring from ``{kind id: N_VIEW coefficients}``."""
    out = np.zeros(CORRECTION_WIDTH, dtype=np.float64)
    out[0] = 1.0
    for kind, coef in coef_by_kind.items():
        at = 1 + int(kind) * CORRECTION_KIND_WIDTH
        out[at] = 1.0
        out[at + 1 : at + 1 + N_VIEW] = coef
    return out


@kernel
def correction_at(w, kind):
    """Where kind ``kind``'s coefficients start in the row ``w`` (-1: the row corrects no such kind)."""
    at = VALUE_AT + VALUE_HEAD + np.int64(w[VALUE_AT]) + NODE_FIELDS * np.int64(w[VALUE_AT + 1])
    if w.shape[0] < at + CORRECTION_WIDTH or w[at] != 1.0 or kind < 0 or kind >= N_KINDS:
        return -1
    k = at + 1 + kind * CORRECTION_KIND_WIDTH
    return k + 1 if w[k] == 1.0 else -1


@kernel
def view_correction(x, w, at):
    """The linear term whose coefficients start at ``w[at]`` (:func:`correction_at`) at the view ``x``."""
    total = 0.0
    for j in range(N_VIEW):
        total += w[at + j] * x[j]
    return total
