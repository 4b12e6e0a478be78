"""Scripted play on the fast engine (conformance): the seat mode that answers from a script.

A conformance scenario (shared/conformance/FORMAT.md) answers each asked
decision with a given choice. :mod:`simcore.games.dreamscape.fast.scenario` encodes those
choices as option rows and stores them in the work array's trace rows; every
seat plays ``MODE_SCRIPT`` and the engine's ``decide`` hands each asked
decision (2+ options, R11) to :func:`script_pick`, which

* consumes the script entries marked illegal first: one whose kind is the
  asked kind and whose row matches a legal option is a failure (the engine
  would have accepted it); otherwise it was refused and nothing is applied;
* checks the next entry's kind against the asked kind, and picks the option
  whose row matches the entry's row, or fails ("refused", the legal options
  are copied out for the message);
* once the script has run out, records the asked decision (kind, seat) and a
  snapshot of the state vector: that is the position ``expect`` is checked
  against. Every later decision (and every decision after a failure) takes
  option 0 so the current turn ends; the driver then stops.

This module sits below :mod:`simcore.games.dreamscape.fast.decisions` (which imports
:func:`script_pick`), so it imports only the layout.

Script block (rows of ``OPT_WIDTH`` ints from ``base``, the first trace row)
--------------------------------------------------------------------------
====================  ======================================================
``base + SR_STATUS``  next entry, entries, status, failure code, failing
                      entry, asked kind (at the snapshot or the failure)
``base + SR_INFO``    asked seat, options copied out, state length, rows
                      reserved for the copied options (``n_opt``)
``base + SR_ENTRIES`` two rows per entry: (kind id, illegal, encodable) and
                      the option row (see simcore.games.dreamscape.fast.layout)
then                  the options copied out at a refusal (``n_opt`` rows)
then                  the state snapshot (``ceil(len(st) / OPT_WIDTH)`` rows)
====================  ======================================================
"""
from __future__ import annotations

from simcore.games.dreamscape.fast.jit import kernel
from simcore.games.dreamscape.fast.layout import (
    BUY_STOP,
    H_DS_CARD,
    K_BUY,
    K_INVASIVE_DREAMING,
    K_PARADIGM_SHIFT,
    K_SHIFTING_DREAMS,
    K_SOLO_DISCARD_ORDER,
    OPT_WIDTH,
    PERM5,
)

# Rows of the script block.
SR_STATUS = 0
SR_INFO = 1
SR_ENTRIES = 2

# Status (row SR_STATUS, column 2).
SCRIPT_RUNNING = 0
SCRIPT_DONE = 1  # the script ran out and the snapshot was taken
SCRIPT_FAILED = 2

# Failure codes (row SR_STATUS, column 3).
FAIL_NONE = 0
FAIL_WRONG_KIND = 1  # the asked decision is not the entry's kind
FAIL_REFUSED = 2  # no legal option matches the entry
FAIL_ACCEPTED = 3  # an entry marked illegal matches a legal option


def script_rows(n_entries: int, n_opt: int, state_len: int) -> int:
    """Trace rows the script block of ``n_entries`` entries needs."""
    return SR_ENTRIES + 2 * n_entries + n_opt + -(-state_len // OPT_WIDTH)


@kernel
def script_running(wk, base):
    """True while the script has entries left to answer (no snapshot, no failure yet)."""
    return wk[base + SR_STATUS, 2] == SCRIPT_RUNNING


@kernel
def option_matches(st, kind, opt, entry):
    """True if option row ``opt`` is the choice of entry row ``entry`` (only the columns the kind uses)."""
    if kind == K_BUY:
        if opt[0] != entry[0]:
            return False
        return opt[0] == BUY_STOP or opt[1] == entry[1]
    if kind == K_INVASIVE_DREAMING:
        return opt[0] == entry[0] and opt[1] == entry[1]
    if kind == K_PARADIGM_SHIFT or kind == K_SOLO_DISCARD_ORDER:
        if opt[0] != entry[0]:
            return False
        for j in range(opt[0]):
            if opt[1 + j] != entry[1 + j]:
                return False
        return True
    if kind == K_SHIFTING_DREAMS:
        # Any of the 120 orders is legal (FORMAT.md) but the engine lists one
        # order per outcome: two orders have the same outcome when they differ
        # only in which empty position moves where (cards are distinct).
        for p in range(5):
            a = PERM5[opt[0], p]
            b = PERM5[entry[0], p]
            if a != b and (st[H_DS_CARD + a - 1] >= 0 or st[H_DS_CARD + b - 1] >= 0):
                return False
        return True
    return opt[0] == entry[0]


@kernel
def script_pick(st, wk, kind, seat, n, base):
    """The option index the script answers at an asked decision (see the module docstring)."""
    status = wk[base + SR_STATUS]
    if status[2] != SCRIPT_RUNNING:
        return 0
    while status[0] < status[1]:
        e = SR_ENTRIES + 2 * status[0]
        head = wk[base + e]
        row = wk[base + e + 1]
        found = -1
        if head[0] == kind and head[2] != 0:
            for i in range(n):
                if option_matches(st, kind, wk[i], row):
                    found = i
                    break
        if head[1] != 0:  # marked illegal: must match nothing, then nothing is applied
            if found >= 0:
                return script_fail(wk, base, FAIL_ACCEPTED, kind, seat, 0)
            status[0] += 1
            continue
        if head[0] != kind:
            return script_fail(wk, base, FAIL_WRONG_KIND, kind, seat, 0)
        if found < 0:
            return script_fail(wk, base, FAIL_REFUSED, kind, seat, n)
        status[0] += 1
        return found
    # The script ran out: this is the pending decision expect is checked at.
    status[2] = SCRIPT_DONE
    status[5] = kind
    wk[base + SR_INFO, 0] = seat
    snapshot(st, wk, base)
    return 0


@kernel
def script_fail(wk, base, code, kind, seat, n):
    """Record a failure at the current entry (copying the ``n`` legal options out); option 0 goes on."""
    status = wk[base + SR_STATUS]
    status[2] = SCRIPT_FAILED
    status[3] = code
    status[4] = status[0]
    status[5] = kind
    wk[base + SR_INFO, 0] = seat
    wk[base + SR_INFO, 1] = n
    dump = base + SR_ENTRIES + 2 * status[1]
    for i in range(n):
        for j in range(OPT_WIDTH):
            wk[dump + i, j] = wk[i, j]
    return 0


@kernel
def snapshot(st, wk, base):
    """Copy the state vector into the script block's snapshot rows."""
    status = wk[base + SR_STATUS]
    start = base + SR_ENTRIES + 2 * status[1] + wk[base + SR_INFO, 3]
    wk[base + SR_INFO, 2] = st.shape[0]
    for i in range(st.shape[0]):
        wk[start + i // OPT_WIDTH, i % OPT_WIDTH] = st[i]
