"""What each bot was trained for, against the rule set being played (issue #41, "say what was adapted").

:func:`training_status` answers, for a setup (players, variant, deck) and a
bot name, one of three kinds:

* ``fitted``: the bot's numbers were fitted to this very rule set (a shipped
  expert table or strong value of this player count and rules options, on the
  printed deck with every knob at its rulebook value);
* ``rule-aware``: nothing was fitted to this rule set alone, but everything the bot
  reads of a changed number it reads from the game state (the market costs by
  position, R2.3; the chain table and the bonus, R8.2; the cards removed
  unseen and the Z cards dealt, R2.2: :data:`RULE_AWARE_KNOBS`), so its decisions follow
  the change; how far that carries is measured, not assumed
  (docs/research/2026-11-27-bots-for-changed-games.md); so is ``strong`` in
  a single-swap deck under the base rules, whose value was fitted across all
  24 single swaps of its player count and reads the dream types in play
  (docs/research/2026-11-28-strong-values-for-swaps.md);
* ``out-of-distribution``: the bot plays numbers fitted to another rule set
  and reads something that changed as if it had not (a swap deck's dream types
  the tables never weighed, a knob its features do not look at, a rules option
  without its own value).

It reads file names only (no numba, no value file opened), so a command can
print it at start-up; with a swap deck, ``expert``'s status also reads its fitted rows file, one small
TOML (:func:`expert_rows_types`).
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from simcore.games.dreamscape.rules import KNOBS

KINDS = ("fitted", "rule-aware", "out-of-distribution")
DATA_DIR = Path(__file__).with_name("data")

# The knobs whose numbers the expert features (simcore/games/dreamscape/fast/features.py) and the strong
# value's inputs (fast/encoding.py) read from the state, each with where:
#   costs      F_COST, F_POS_COST, F_BUYS_LEFT, F_NEXT_REACH (H_COSTS, H_POS_BY_COST; R2.3, R7.1); encoding's cost slots
#   chain      every chain gain through the state's chain table (chain_at; R8.2); encoding's scores (S_CHAIN)
#   bonus      where it decides the winner: F_LAST_SCORE, F_END_WIN (S_BONUS; R8.2, R8.3); encoding's scores
#   remove     the unseen-card counts (H_REMOVED; R2.2)
#   start-z    only the dealt state: every feature reads the Z cards a seat holds (R2.2)
# Not read: z-penalty (F_DELTA and F_SCORE_* count a Z card as the printed 1 point until the last turn, R8.2),
# max-buys (F_BUYS_LEFT counts purchases past the limit, R5.2), and any knob added later until it is listed here.
RULE_AWARE_KNOBS = frozenset({"costs", "chain", "bonus", "remove", "start-z"})
# strong plays the expert table and, late, its value: rule-aware only where both are. The value reads the
# costs (encoding's cost slots) but was fitted where they never left 1..5 (the base game's never even moved),
# so a cost it never saw is out of its distribution, however the slot reads it.
STRONG_RULE_AWARE_KNOBS = RULE_AWARE_KNOBS - {"costs"}
# Bots with nothing fitted: rules of thumb over the same features (simcore/games/dreamscape/bots/builtins.py).
NOT_REFITTED = ": not refitted (dream types it never saw weigh 0)"
HAND_WRITTEN = frozenset({"random", "greedy", "chain", "economist", "spoiler"})
LINEAR_FITTED = (3, "base")  # the linear bot's weights were tuned in 3-player base games (bots/data/linear_default.toml)


class TrainingStatus(NamedTuple):
    """A bot's training status for one rule set: ``kind`` (one of :data:`KINDS`) and one line of ``detail``."""

    kind: str
    detail: str


def option_label(sleep_token: bool, shifting_tokens: bool) -> str:
    """The rules options as a file name writes them (``base``, ``sleep-token``, ``sleep-token+shifting-tokens``)."""
    flags = [name for name, on in (("sleep-token", sleep_token), ("shifting-tokens", shifting_tokens)) if on]
    return "+".join(flags) or "base"


def changed_knobs(options) -> list[str]:
    """The knobs away from the rulebook (their tokens, :data:`~simcore.games.dreamscape.rules.KNOBS` order)."""
    return [t.split("=", 1)[0][len("knob:"):] for t in options.knob_tokens()]


def deck_change(setup) -> str:
    """What differs from the printed deck (R1.3, R1.4): '' when nothing does."""
    from simcore.games.dreamscape.decks import default_spec

    parts = []
    if setup.variant.removed:
        parts.append(f"swap deck {setup.variant.deck(setup.cards).label}")
    if setup.cards is not None and setup.cards != default_spec():
        parts.append("a deck composition of its own (--cards)")
    return " and ".join(parts)


def shipped_file(bot: str, players: int, options: str, family: str = "") -> Path | None:
    """The shipped expert table / strong value file of a configuration (``family``: a deck family's file name
    suffix, ``-single-swaps``, bots/strong.py FAMILY_SUFFIX), or None."""
    suffix = {"expert": "toml", "strong": "npz"}[bot]
    path = DATA_DIR / bot / f"{players}p-{options}{family}.{suffix}"
    return path if path.exists() else None


def expert_rows_types(players: int, options: str) -> frozenset[int]:
    """The expansion types (R1.4) whose weights the expert table's fitted rows file of a configuration gives
    (``bots/data/expert/rows/<P>p-<options>.toml``, :data:`simcore.games.dreamscape.bots.expert.ROWS_DIR`): a type
    counts when its decision's rows or its ``card_``/``perform_`` slots carry a weight. Empty without the file.
    Reads that one small file, and only when a swap deck is played."""
    path = DATA_DIR / "expert" / "rows" / f"{players}p-{options}.toml"
    if not path.exists():
        return frozenset()
    from simcore.files import read_toml_file
    from simcore.games.dreamscape.cards import CODES

    data = read_toml_file(path, "expert rows file", ValueError, label=f"expert rows file {path}")
    decision_type = {"invasive_dreaming": "ID", "empowered_dreaming": "ED", "paradigm_shift": "PS"}  # R6.9-R6.11
    types = set()
    for kind, phases in data.items():
        if not isinstance(phases, dict):
            continue
        for weights in phases.values():
            if not any(w for w in weights.values()):
                continue
            if kind in decision_type:
                types.add(CODES.index(decision_type[kind]))
            for slot, w in weights.items():
                code = slot.partition("_")[2]
                if w and slot.startswith(("card_", "perform_")) and code in ("ID", "ED", "PS"):
                    types.add(CODES.index(code))
    return frozenset(types)


def is_single_swap(setup) -> bool:
    """Setup plays one Controlled Study swap of the printed deck under the base rules, no knob
    (:func:`simcore.games.dreamscape.decks.deck_family`, which picks strong's value by the same rule)."""
    from simcore.games.dreamscape.decks import SINGLE_SWAP, deck_family

    return len(setup.variant.removed) == 1 and deck_family(setup.deck(), setup.variant.options) == SINGLE_SWAP


def training_status(setup, bot_name: str) -> TrainingStatus:
    """The training status of bot ``bot_name`` in ``setup`` (a :class:`simcore.games.dreamscape.Setup`).

    A search player (``search:BOT@K...``) and a restricted bot (``BOT!no-...``) have the status of the bot they
    are built on. A bot from a user's file (``expert:FILE.toml``, ``strong:FILE.npz``, ``path.py:function``) is
    out of distribution unless its file names this rule set; a strategy file is the user's own to judge.
    """
    name = bot_name.strip()
    if name.startswith("search:"):
        inner = name[len("search:"):].split("@", 1)[0]
        return training_status(setup, inner or "linear")
    if "!" in name:
        return training_status(setup, name.split("!", 1)[0])
    players = int(setup.players)
    opts = setup.variant.options
    label = option_label(opts.sleep_token, opts.shifting_tokens)
    if name == "sharp":  # strong, plus its correction where strong plays the value it was fitted on (bots/sharp.py)
        inner = training_status(setup, "strong")
        family = players >= 2 and is_single_swap(setup) and shipped_file("strong", players, label, "-single-swaps")
        corrected = (players, label) == (3, "base") and not family
        return TrainingStatus(inner.kind, inner.detail + (
            "; plus sharp's correction, fitted on search's labels of strong's decisions in 3-player base games"
            if corrected else "; sharp plays strong here (its correction was fitted on 3-player base games)"))
    knobs = changed_knobs(opts)
    deck = deck_change(setup)
    aware = STRONG_RULE_AWARE_KNOBS if name == "strong" or name.startswith("strong:") else RULE_AWARE_KNOBS
    unread = [k for k in knobs if k not in aware]
    config = f"{players} player{'s' if players != 1 else ''}, {label}"
    if name in HAND_WRITTEN:
        return TrainingStatus("rule-aware", f"{name}: hand-written rules of thumb, nothing fitted; "
                                            "reads the rule numbers from the game state")
    if name == "linear":
        base = LINEAR_FITTED == (players, label) and not knobs and not deck
        return TrainingStatus("fitted" if base else "rule-aware",
                              "linear: weights tuned in 3-player base games" + ("" if base else
                              ", played as they are in every rule set (the features read the rule numbers)"))
    if name == "strong" and players >= 2 and is_single_swap(setup):
        family = shipped_file("strong", players, label, "-single-swaps")
        if family is not None:
            return TrainingStatus("rule-aware", f"strong's value fitted across the 24 single-swap decks of {config} "
                                                f"({family.name}), {deck} among them; its inputs read the dream types "
                                                "(its early and mid game is the expert table of the printed deck)")
    if name in ("expert", "strong"):
        status = _shipped_status(name, players, label, config, knobs, unread, deck)
        covered = expert_rows_types(players, label) if name == "expert" and deck else frozenset()
        if covered and setup.variant.added and set(setup.variant.added) <= covered:
            from simcore.games.dreamscape.cards import CODES

            types = ", ".join(CODES[t] for t in sorted(setup.variant.added))
            fitted = (f": not refitted but for {types}, whose weights (its decision, its card and perform slots) "
                      f"were fitted in decks that hold it (rows/{players}p-{label}.toml)")
            return TrainingStatus(status.kind, status.detail.replace(NOT_REFITTED, fitted))
        return status
    if name.startswith("expert:") or name.startswith("strong:"):
        return _file_status(name, setup)
    return TrainingStatus("out-of-distribution", f"{name}: a strategy of your own, fitted to nothing the lab knows of")


def _shipped_status(bot, players, label, config, knobs, unread, deck) -> TrainingStatus:
    if bot == "strong" and players == 1:
        # solo has no opponent to beat, so a win chance is no guide: strong plays the expert table (bots/strong.py)
        inner = _shipped_status("expert", players, label, config, knobs, unread, deck)
        return TrainingStatus(inner.kind, "strong plays the expert table in solo games; " + inner.detail)
    what = "table" if bot == "expert" else "value"
    path = shipped_file(bot, players, label)
    if path is None:
        base = shipped_file(bot, players, "base")
        if bot == "strong" and base is not None:  # the declared stand-in (bots/strong.py stand_ins)
            return TrainingStatus("out-of-distribution", f"strong: no value fitted to {config}; it plays the "
                                                         f"{players}-player base game's value ({base.name})")
        return TrainingStatus("out-of-distribution",
                              f"{bot}: no {what} fitted to {config}; it plays "
                              + ("the expert table alone" if bot == "strong" else "the 3-player base table"))
    fitted_to = f"{bot}'s {what} fitted to {config} ({path.name})"
    if not knobs and not deck:
        return TrainingStatus("fitted", fitted_to)
    if deck:
        return TrainingStatus("out-of-distribution", f"{fitted_to} on the printed deck, played with {deck}"
                                                     + NOT_REFITTED)
    if unread:
        why = "a number its value never saw" if unread == ["costs"] and bot == "strong" else \
            "which its inputs take as printed"
        return TrainingStatus("out-of-distribution", f"{fitted_to}, played with knob {', '.join(unread)}, {why}")
    return TrainingStatus("rule-aware", f"{fitted_to} at the printed numbers; its inputs read the changed "
                                        f"{', '.join(knobs)} from the game state")


def _file_status(name, setup) -> TrainingStatus:
    """A user's table or value file: *fitted* when its header names this very rule set (player count, rules options,
    knobs and swaps, as ``dreamscape train --variant`` wrote it) on a deck of the printed composition, else out of
    distribution. A deck file of its own (``--cards``) is never matched: the header does not record one."""
    from simcore.games.dreamscape.decks import default_spec

    from simcore.games.dreamscape.bots.expert import read_table
    from simcore.games.dreamscape.bots.strong import read_value, value_and_table
    from simcore.games.dreamscape.variants import VariantError, parse_variant

    players = int(setup.players)
    bot, _, path_text = name.partition(":")
    # strong:VALUE.npz+expert:TABLE.toml: both files must name this rule set (the table plays strong's early game)
    if bot == "expert":
        files = [("expert", path_text)]
    else:
        value_text, table_text = value_and_table(path_text)
        files = [("strong", value_text)] + ([("expert", table_text)] if table_text else [])
    own_cards = setup.cards is not None and setup.cards != default_spec()
    for kind, file_text in files:
        try:
            fields = read_table(file_text)[0] if kind == "expert" else read_value(file_text).meta
        except ValueError as exc:  # StrategyError: the file cannot be read
            return TrainingStatus("out-of-distribution", f"{name}: {exc}")
        made_for = (fields.get("players"), str(fields.get("variant", "")))
        try:
            variant = parse_variant(made_for[1])
        except VariantError:
            return TrainingStatus("out-of-distribution", f"{name}: {file_text} was made for variant {made_for[1]!r}, "
                                                         "not this rule set")
        if not (made_for[0] == players and variant == setup.variant and not own_cards):
            return TrainingStatus("out-of-distribution", f"{name}: {file_text} was made for {made_for[0]} players, "
                                                         f"{made_for[1]}; not this rule set")
    return TrainingStatus("fitted", f"{name}: made for {players} players, {setup.variant.name}")


__all__ = ["KINDS", "RULE_AWARE_KNOBS", "STRONG_RULE_AWARE_KNOBS", "TrainingStatus", "training_status"]
