"""The strong bot (issue #26): a one-turn lookahead on a learned value of the position.

At every decision of the late game (the last third of the Sleep Deck) with
two or more options, except buy, take Z and Collective Dream (left to the
expert table: the lookahead there costs a quarter of the bot's time and was
worth nothing measurable, docs/research/2026-11-26-strong-bot.md), the strong
bot follows each option (at most 16, a random subset on the decision's stream
when there are more: a Shifting Dreams decision has up to 120) to the end of the
turn (the rest of the turn played by the expert table, in a world dealt from
the cards it cannot see) and takes the option whose turn ends in the
position with the best value: its chance to win from there as a model learned
from expert self-play predicts it, from what the seat may know
(:func:`simcore.games.dreamscape.fast.value.encode_view`). A turn that ends
the game counts its outcome instead. Everywhere else it plays the expert
table. Why a turn and not one decision: a purchase's worth depends on what
the rest of the turn can still buy, so the value is learned, and asked, only
at turn boundaries (docs/research/2026-11-26-turn-lookahead.md).

The value is a gradient-boosted forest fitted by ``dreamscape train
--strategy strong`` (:mod:`analyses.games.dreamscape.train_strong`), one per
configuration. Files (``.npz``, numpy arrays, no pickle)::

    feature     int32[N]    per node: the input it splits on, -1 at a leaf
    threshold   float64[N]  goes left when input <= threshold
    left, right int32[N]    child nodes (numbered over all trees)
    leaf_value  float64[N]  a leaf's value
    roots       int64[T]    each tree's first node
    baseline    float64[1]  the value before the trees
    meta        str         JSON: name, players, variant, inputs, trees, the
                            training's seed and games, held-out R², seconds,
                            and the sha256 of the arrays

A file that cannot be read, misses an array, has the wrong shapes, a node
pointing out of its tree, non-finite numbers or a checksum that does not
match is refused with one line (:class:`StrategyError`, exit 2 on the command
line).

``--strategy strong`` plays the shipped value of the configuration being
played (``simcore/games/dreamscape/bots/data/strong/``, one per player count
2-4 and rules option). In a deck of one Controlled Study swap of the printed
deck under the base rules (R1.4, :func:`simcore.games.dreamscape.decks.deck_family`)
it plays its player count's value trained across all 24 single swaps
(``3p-base-single-swaps.npz``) where one is shipped: its inputs count the
unseen cards of every dream type and read the types on the market and the REM
tops, so one value sees which swap is played (issue #41). Every other deck
(two or three swaps, a card file, a rules option or a knob with a swap) plays
the value of its players and rules options. A rules option without a shipped value plays the base
game's value of its player count, a stand-in declared where the values are
registered (:data:`STAND_IN`, never found by a silent lookup) and reported as
out of distribution by
:func:`simcore.games.dreamscape.bots.training.training_status`. Solo
(no opponent to beat, so a win chance is no guide) plays the expert table.
``--strategy strong:FILE.npz`` plays one file's value in games of the player
count it was trained for, under every rules option (the user's choice;
``training_status`` names the rule set it was made for).
"""
from __future__ import annotations

import hashlib
import json
import io
import zipfile
from collections.abc import Iterator, Mapping
from functools import partial
from pathlib import Path

import numpy as np

from simcore.files import parse_json, shown, write_file
from simcore.games.dreamscape.decks import SINGLE_SWAP
from simcore.games.dreamscape.bots.errors import StrategyError
from simcore.games.dreamscape.fast.strategies import get_record, register_strong
from simcore.games.dreamscape.fast.value import N_VIEW, pack_trees
from simcore.games.dreamscape.variants import parse_variant

SHIPPED_DIR = Path(__file__).with_name("data") / "strong"
FORMAT = 1
ARRAYS = ("feature", "threshold", "left", "right", "leaf_value", "roots", "baseline")
WORLDS = 1  # dealt worlds per option: one measured as strong as two (research page), at half the time


class ValueModel:
    """One fitted value: the forest's arrays and its description (``meta``)."""

    def __init__(self, feature, threshold, left, right, leaf_value, roots, baseline, meta: dict):
        self.feature = np.ascontiguousarray(feature, dtype=np.int32)
        self.threshold = np.ascontiguousarray(threshold, dtype=np.float64)
        self.left = np.ascontiguousarray(left, dtype=np.int32)
        self.right = np.ascontiguousarray(right, dtype=np.int32)
        self.leaf_value = np.ascontiguousarray(leaf_value, dtype=np.float64)
        self.roots = np.ascontiguousarray(roots, dtype=np.int64)
        self.baseline = float(np.ravel(baseline)[0])
        self.meta = dict(meta)

    @classmethod
    def from_sklearn(cls, model, meta: dict) -> "ValueModel":
        """A fitted ``HistGradientBoostingRegressor`` (numeric inputs only) as flat arrays."""
        trees = [p[0].nodes for p in model._predictors]
        sizes = [t.shape[0] for t in trees]
        roots = np.cumsum([0] + sizes)[:-1].astype(np.int64)
        nodes = np.concatenate(trees)
        shift = np.repeat(roots, sizes)
        leaf = nodes["is_leaf"].astype(bool)
        feature = np.where(leaf, -1, nodes["feature_idx"]).astype(np.int32)
        left = np.where(leaf, 0, nodes["left"].astype(np.int64) + shift).astype(np.int32)
        right = np.where(leaf, 0, nodes["right"].astype(np.int64) + shift).astype(np.int32)
        return cls(feature, nodes["num_threshold"], left, right, np.where(leaf, nodes["value"], 0.0), roots,
                   np.ravel(model._baseline_prediction)[:1], meta)

    @property
    def n_trees(self) -> int:
        return int(self.roots.shape[0])

    def arrays(self) -> dict[str, np.ndarray]:
        return {"feature": self.feature, "threshold": self.threshold, "left": self.left, "right": self.right,
                "leaf_value": self.leaf_value, "roots": self.roots, "baseline": np.array([self.baseline])}

    def digest(self) -> str:
        """sha256 over the arrays, in ARRAYS order (what ``meta["sha256"]`` keeps)."""
        h = hashlib.sha256()
        for name, a in self.arrays().items():
            h.update(name.encode())
            h.update(np.ascontiguousarray(a).tobytes())
        return h.hexdigest()

    def packed(self) -> np.ndarray:
        """The engine's flat layout (:func:`simcore.games.dreamscape.fast.value.pack_trees`)."""
        return pack_trees(self.feature, self.threshold, self.left, self.right, self.leaf_value, self.roots,
                          self.baseline)

    def predict(self, x: np.ndarray) -> np.ndarray:
        """The value at each row of ``x`` (numpy; the engine's kernel adds the trees in the same order)."""
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        out = np.full(x.shape[0], self.baseline)
        for i, row in enumerate(x):
            total = self.baseline
            for r in self.roots:
                k = int(r)
                while self.feature[k] >= 0:
                    k = int(self.left[k]) if row[self.feature[k]] <= self.threshold[k] else int(self.right[k])
                total += self.leaf_value[k]
            out[i] = total
        return out


def write_value(path: str | Path, model: ValueModel) -> None:
    """Write ``model`` (meta gets the format, inputs and checksum) as a file :func:`read_value` reads back."""
    path = Path(path)
    meta = dict(model.meta, format=FORMAT, inputs=N_VIEW, trees=model.n_trees, sha256=model.digest())
    # whole or not at all: a reader never sees half a file, a full disk leaves no .part behind
    write_file(path, lambda fh: np.savez_compressed(fh, meta=np.array(json.dumps(meta, sort_keys=True)),
                                                    **model.arrays()), "strong value file", StrategyError)


def read_npz(path: Path, what: str, arrays: tuple[str, ...], kind: str, file_format: int,
             max_bytes: int = None) -> tuple[dict, dict]:
    """The named arrays and the checked meta of a bot's .npz file (strong's value, sharp's correction).

    One reader for every such file, so each gets the same guards: a size limit read once, no pickle,
    no array header claiming more than its member holds, one line (StrategyError) for every way it
    can fail, and the meta's format and input count checked against this engine.
    """
    max_bytes = MAX_VALUE_BYTES if max_bytes is None else max_bytes
    description = f"{kind} (.npz: a zip archive of {', '.join(arrays)} and meta)"
    try:
        raw = _read_value_bytes(path, what, kind, max_bytes)
        if not raw.startswith((b"PK", np.lib.format.MAGIC_PREFIX)):  # else numpy tries it as a pickle and
            # says so, with advice to load it unsafely: not a user's problem nor a thing to do
            raise StrategyError(f"{what} is not a {description}")
        _check_array_headers(raw, what, max_bytes)  # before np.load: a header claiming an enormous array is refused
        data = np.load(io.BytesIO(raw), allow_pickle=False)
        if not isinstance(data, np.lib.npyio.NpzFile):
            raise StrategyError(f"{what} is one array, not a {description}")
        with data:
            missing = [a for a in arrays + ("meta",) if a not in data.files]
            if missing:
                raise StrategyError(f"{what} has no array {missing[0]!r} (a {kind} has {', '.join(arrays)} and meta)")
            found = {a: data[a] for a in arrays}
            meta_text = str(data["meta"])
    except StrategyError:
        raise
    except FileNotFoundError:
        raise StrategyError(f"{what} does not exist") from None
    except IsADirectoryError:
        raise StrategyError(f"{what} is a folder, not a file") from None
    except OSError as exc:
        raise StrategyError(f"{what} cannot be read ({exc.strerror or exc})") from None
    except (ValueError, zipfile.BadZipFile, EOFError, KeyError) as exc:
        raise StrategyError(f"{what} is not a {kind} (.npz): {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    # nesting and integer-length limits (simcore.files): a meta nested 100,000 deep or holding a 5,001-digit
    # number is one line, not a RecursionError or ValueError
    meta = parse_json(meta_text, f"{what}: its meta", StrategyError)
    if not isinstance(meta, dict) or meta.get("format") != file_format:
        raise StrategyError(f"{what}: unknown format {shown(meta.get('format') if isinstance(meta, dict) else meta)} "
                            f"(this version reads format {file_format})")
    if meta.get("inputs") != N_VIEW:
        raise StrategyError(f"{what} was made for {shown(meta.get('inputs'))} inputs; this engine's value has {N_VIEW}")
    return found, meta


def read_value(path: str | Path) -> ValueModel:
    """The value of a strong file; StrategyError in one line if it cannot be used (module docstring)."""
    path = Path(path)
    what = f"strong file {path}"
    arrays, meta = read_npz(path, what, ARRAYS, "strong value file", FORMAT)
    players = meta.get("players")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise StrategyError(f"{what}: players must be 2 to 4, got {shown(players)}")
    _check_arrays(what, arrays)
    model = ValueModel(meta=meta, **arrays)
    if model.digest() != meta.get("sha256"):
        raise StrategyError(f"{what}: the checksum does not match its arrays (the file was changed or damaged)")
    return model


MAX_VALUE_BYTES = 256 * 1024 * 1024  # a trained value of 100 trees is about a megabyte; this is no such file


def _read_value_bytes(path: Path, what: str, kind: str = "strong value file", max_bytes: int = None) -> bytes:
    """The file's bytes, read once with a size limit (a pipe or device too), else StrategyError in one line."""
    if not path.exists() and not path.is_symlink():
        raise FileNotFoundError(path)
    if path.is_dir():
        raise IsADirectoryError(path)
    max_bytes = MAX_VALUE_BYTES if max_bytes is None else max_bytes
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise StrategyError(f"{what}: more than {max_bytes:,} bytes is too large for a {kind}")
    return data


def _check_array_headers(raw: bytes, what: str, max_bytes: int = None) -> None:
    """Every array's header in the .npz claims no more data than its member holds (else one line)."""
    if not raw.startswith(b"PK"):
        return  # not a zip: np.load says what it is
    max_bytes = MAX_VALUE_BYTES if max_bytes is None else max_bytes
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        total = 0
        for info in archive.infolist():
            total += info.file_size
            if total > max_bytes:
                raise StrategyError(f"{what}: its arrays unpack to more than {max_bytes:,} bytes")
            if not info.filename.endswith(".npy"):
                continue
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) \
                    else np.lib.format.read_array_header_2_0
                shape, _fortran, dtype = read_header(member)
                claimed = int(np.prod(shape, dtype=object)) * dtype.itemsize
                if claimed > info.file_size:
                    raise StrategyError(f"{what}: array {info.filename[:-4][:40]!r} claims {claimed:,} bytes "
                                        f"(shape {str(shape)[:60]}), but the file holds {info.file_size:,}")


def _check_arrays(what: str, a: dict) -> None:
    n = a["feature"].shape
    for name in ARRAYS:
        if a[name].ndim != 1:
            raise StrategyError(f"{what}: {name} must be one-dimensional, got shape {a[name].shape}")
        if name not in ("roots", "baseline") and a[name].shape != n:
            raise StrategyError(f"{what}: {name} has {a[name].shape[0]} values for {n[0]} nodes")
        kind = a[name].dtype.kind
        if kind not in "iuf" or (name in ("feature", "left", "right", "roots") and kind == "f"):
            raise StrategyError(f"{what}: {name} has the wrong type ({a[name].dtype})")
    if a["baseline"].shape != (1,):
        raise StrategyError(f"{what}: baseline must be one number, got shape {a['baseline'].shape}")
    for name in ("threshold", "leaf_value", "baseline"):
        if not np.all(np.isfinite(a[name])):
            raise StrategyError(f"{what}: {name} has a value that is not a finite number")
    nodes, roots = n[0], a["roots"].astype(np.int64)
    if roots.shape[0] == 0 or roots[0] != 0 or np.any(np.diff(roots) <= 0) or roots[-1] >= nodes:
        raise StrategyError(f"{what}: roots must start at node 0 and rise, within the {nodes} nodes")
    feature = a["feature"].astype(np.int64)
    if np.any((feature < -1) | (feature >= N_VIEW)):
        raise StrategyError(f"{what}: a node splits on an input outside 0..{N_VIEW - 1}")
    ends = np.append(roots[1:], nodes)
    tree_end = np.repeat(ends, np.diff(np.append(roots, nodes)))
    split = feature >= 0
    idx = np.arange(nodes)
    for name in ("left", "right"):
        child = a[name].astype(np.int64)
        # a child after its node and inside its tree: every walk down a tree ends at a leaf
        if np.any(split & ((child <= idx) | (child >= tree_end))):
            raise StrategyError(f"{what}: a node's {name} child points outside its tree")


class StrongTables(Mapping):
    """The strong bot's engine rows by configuration: the expert table, then the packed value.

    Rows are made the first time a configuration is played (reading a value
    file takes a moment). ``values`` maps ``(players, sleep_token,
    shifting_tokens)`` to a :class:`ValueModel` or a callable returning one;
    ``stand_ins`` maps a configuration without one to the configuration whose
    value it plays (declared by the caller, so :func:`training_status
    <simcore.games.dreamscape.bots.training.training_status>` can say so;
    issue #41: the base game's value used to stand in for the shifting tokens
    by a silent lookup). A configuration with neither has no value: its row is
    the expert table alone (the engine then plays it as expert,
    :func:`simcore.games.dreamscape.fast.runner.strategy_args`). With
    ``only_players`` set (a file given by the user), a game of another player
    count is refused and every rules option of that count plays the file.
    """

    def __init__(self, values: Mapping, only_players: int | None = None, source: str = "strong",
                 stand_ins: Mapping | None = None, table: np.ndarray | None = None):
        self.values = dict(values)
        self.table = table  # an expert table of the user's (strong:VALUE.npz+expert:TABLE.toml), else the shipped ones
        self.stand_ins = dict(stand_ins or {})
        self.only_players = only_players
        self.source = source
        self.rows: dict[tuple[int, bool, bool], np.ndarray] = {}

    deck_families = True  # weights_for adds the deck family to the key (a value trained across single swaps)

    def value_for(self, key) -> ValueModel | None:
        """The value played in configuration ``key``: ``(players, sleep_token, shifting_tokens)``, with the deck
        family last when the deck is one (:func:`simcore.games.dreamscape.decks.deck_family`): the
        family's own value when there is one, else the value of the players and options (or its stand-in)."""
        players = int(key[0])
        if self.only_players is not None and players != self.only_players:
            raise StrategyError(f"{self.source} was trained for {self.only_players} players; "
                                f"this game has {players}")
        if self.only_players is not None:
            key = next(iter(self.values))  # the user's one file, whatever the rules options and deck
        family = key[3] if len(key) > 3 else None
        key = (players, bool(key[1]), bool(key[2]))
        if family is not None and key + (family,) in self.values:
            key = key + (family,)
        elif key not in self.values:
            key = self.stand_ins.get(key)
            if key not in self.values:
                return None
        v = self.values[key]
        if callable(v):
            v = self.values[key] = v()
        return v

    def __getitem__(self, key) -> np.ndarray:
        key = (int(key[0]), bool(key[1]), bool(key[2])) + tuple(key[3:4])
        if key not in self.rows:
            expert = get_record("expert")
            rules = key[:3]  # the expert table is the rules options' whatever the deck
            table = self.table if self.table is not None else \
                expert.tables.get(rules, expert.weights) if expert.tables is not None else expert.weights
            value = self.value_for(key)
            row = table if value is None else np.concatenate([table, value.packed()])
            row = np.array(row, dtype=np.float64)
            row.setflags(write=False)
            self.rows[key] = row
        return self.rows[key]

    def __iter__(self) -> Iterator[tuple[int, bool, bool]]:
        return iter(get_record("expert").tables or ())

    def __len__(self) -> int:
        return len(get_record("expert").tables or ())

    def get(self, key, default=None):  # every configuration has a row (see __getitem__)
        return self[key]


# The shipped file of the value trained across the single-swap decks of a player count (R1.4, base rules; the
# trainer: analyses/games/dreamscape/train_strong.py single_swap_decks), e.g. 3p-base-single-swaps.npz.
FAMILY_SUFFIX = {SINGLE_SWAP: "-single-swaps"}


def shipped_key(path: Path) -> tuple:
    """The configuration a shipped file's name gives (``3p-sleep-token.npz``: 3 players, Sleep Token;
    ``3p-base-single-swaps.npz``: 3 players, base rules, the single-swap decks)."""
    players, _, variant = path.stem.partition("p-")
    family = next((f for f, suffix in FAMILY_SUFFIX.items() if variant.endswith(suffix)), None)
    if family is not None:
        variant = variant[: -len(FAMILY_SUFFIX[family])]
    options = parse_variant(variant).options
    key = (int(players), bool(options.sleep_token), bool(options.shifting_tokens))
    return key if family is None else key + (family,)


def shipped_values() -> dict[tuple[int, bool, bool], Path]:
    """The shipped value files by configuration key."""
    return {shipped_key(p): p for p in sorted(SHIPPED_DIR.glob("*.npz"))}


def stand_ins(keys) -> dict[tuple[int, bool, bool], tuple[int, bool, bool]]:
    """The strong bot's stand-ins: each configuration (2-4 players x rules options) without a value in ``keys``,
    mapped to its player count's base-game value (:class:`StrongTables`; ``training_status`` reports the same)."""
    out = {}
    for players in (2, 3, 4):
        for key in ((players, s, t) for s in (False, True) for t in (False, True)):
            if key not in keys and (players, False, False) in keys:
                out[key] = (players, False, False)
    return out


# The one place a stand-in is declared (training_status reports the same rule, reading the same files): the
# configurations still without their own shipped value play their player count's base value. Issue #41 asks
# for none; docs/research/2026-11-27-bots-for-changed-games.md lists which are still stand-ins.
STAND_IN = stand_ins(shipped_values())


def register_shipped() -> bool:
    """Register ``strong`` with the shipped values (False when none is shipped); files are read when played."""
    files = shipped_values()
    if not files:
        return False
    tables = StrongTables({k: partial(read_value, p) for k, p in files.items()}, stand_ins=STAND_IN)
    # the row played where the configuration is unknown: the expert table alone (the engine plays it as expert)
    register_strong(
        "strong", tables, get_record("expert").weights, WORLDS, builtin=True,
        description=f"strong bot: one-turn lookahead in the late game on a learned value ({len(files)} values, one per "
                    "player count and rules option); yours: strong:FILE.npz",
    )
    return True


TABLE_PART = "+expert:"  # strong:VALUE.npz+expert:TABLE.toml: a value and the expert table strong plays beside it


def value_and_table(path_text: str) -> tuple[str, str]:
    """``(VALUE.npz, TABLE.toml)`` of the text after ``strong:``; the table is '' when none is given."""
    value_text, _, table_text = path_text.partition(TABLE_PART)
    return value_text, table_text


def load_strong(path_text: str) -> str:
    """Register the strong bot of one value file (games of its player count); returns its name.

    ``VALUE.npz+expert:TABLE.toml`` also replaces the expert table strong plays in its early and mid game and at the
    decisions it leaves to the table (a refit of both for a changed game, docs/guide/bots.md); without it strong plays
    the shipped table of the rules options."""
    value_text, table_text = value_and_table(path_text)
    model = read_value(value_text)
    table = None
    if table_text:
        from simcore.games.dreamscape.bots.expert import read_table

        table = read_table(table_text)[1]
    players = int(model.meta["players"])
    key = (players, False, False)
    tables = StrongTables({key: model}, only_players=players, source=f"strong file {value_text}", table=table)
    name = f"strong:{path_text}"
    register_strong(name, tables, tables[key], WORLDS, description=f"strong bot, value {value_text}"
                    + (f", expert table {table_text}" if table_text else ""))
    return name

