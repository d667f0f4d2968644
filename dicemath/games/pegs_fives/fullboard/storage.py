"""Full-board value tables on disk, in the core table store (:mod:`dicemath.core.table_store`).

A table folder holds one array, ``values``: the values ``E`` of every board in the layout
order of :class:`.layout.BoardLayout` (float32 or float64), built slab by slab, one chunk
of the store per slab of the :class:`.layout.SlabPlan`; a finished slab is marked done, so
an interrupted build resumes at the first unfinished slab.

A table is identified by its spec (:func:`table_spec`): the format version
:data:`FULLBOARD_FORMAT`, rules, open rows, policy, dtype, slab plan, the digest of a guide's
source and, for a lookahead table, its guide (its folder and a digest of its spec). The
format version changes on purpose when the computation or the layout of the values changes;
no source file's bytes enter the spec, so an edit that leaves the computation alone keeps
every hours-long build. Its default home is ``<cache dir>/fullboard/<key>``
(:func:`table_key`, :func:`dicemath.core.cache.cache_dir`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dicemath.core.cache import cache_dir
from dicemath.core.errors import InvalidRulesError
from dicemath.core.table_store import FORMAT_KEY, TableError, TableStore, read_manifest
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rules import Rules

KIND = "fullboard"
"""The store kind of full-board tables."""

VALUES = "values"
"""The store array holding the values."""

FULLBOARD_FORMAT = 1
"""The format version of full-board tables (their spec's ``format``): change it when the
computation of the values (the kernels of Fives and Pegs, the policies) or their layout
(:class:`.layout.BoardLayout`, :class:`.layout.SlabPlan`) changes. A table of another
version is not opened (:func:`open_table`) nor resumed, and the default folder
(:func:`table_key`) moves with the version."""

__all__ = ["FULLBOARD_FORMAT", "KIND", "VALUES", "Table", "TableError", "create_table", "default_table_dir",
           "open_table", "rules_dict", "table_key", "table_spec"]


def rules_dict(rules: Rules) -> dict:
    """The rule fields of ``rules`` as a JSON-ready dict."""
    return dataclasses.asdict(rules)


def table_spec(game: str, rules: Rules, rows: tuple[int, ...], policy: str, dtype: str, top: int,
               digest: str | None = None, guide: str | None = None) -> dict:
    """What decides a table's values (the store's spec).

    Args:
        game: the kernel's game structure (``"fives"`` or ``"pegs"``).
        rules, rows: the game and the open rows of the layout.
        policy: the policy the values belong to (``"optimal"``, ``"greedy"``, ...,
            ``"guide-<name>"`` for a guide).
        dtype: ``"float32"`` or ``"float64"``.
        top: top axes per slab (:class:`.layout.SlabPlan`).
        digest: for a guide table, the digest of its values' source (e.g. its model's); None
            for a table the kernels compute (:data:`FULLBOARD_FORMAT` stands for their code).
        guide: for a lookahead table, the guide table's directory; the spec also holds a
            digest of the guide's spec (``guide_digest``), so a build is never resumed on a
            guide rebuilt there from another source.
    """
    spec = {FORMAT_KEY: FULLBOARD_FORMAT, "game": game, "rules": rules_dict(rules), "rows": list(rows),
            "policy": policy, "dtype": dtype, "top": top, "digest": digest, "guide": guide}
    if guide is not None:
        manifest = read_manifest(Path(guide))
        spec["guide_digest"] = None if manifest is None else hashlib.sha256(
            json.dumps(manifest.spec, sort_keys=True).encode()).hexdigest()[:16]
    return spec


def create_table(directory: Path, spec: dict) -> TableStore:
    """Create the store of the table ``spec`` in ``directory``, or resume the one there.

    Raises:
        TableError: ``directory`` holds another table.
    """
    layout = BoardLayout(Rules(**spec["rules"]), tuple(spec["rows"]))
    slabs = (layout.rules.goal + 1) ** spec["top"]
    return TableStore.create(directory, KIND, spec, {VALUES: (spec["dtype"], (layout.size,))}, slabs)


def table_key(game: str, rules: Rules, rows: tuple[int, ...], policy: str) -> str:
    """The directory name of a table in the default location: the rules' name, the rows, the
    policy and 12 hex digits of a SHA-256 of :data:`FULLBOARD_FORMAT` and the parameters."""
    label = "full" if len(rows) == rules.rows else "rows" + "-".join(map(str, rows))
    digest = hashlib.sha256(f"{FULLBOARD_FORMAT}|{game}|{rules!r}|{rows}|{policy}".encode()).hexdigest()[:12]
    return f"{rules.name}-{label}-{policy}-{digest}"


def default_table_dir(game: str, rules: Rules, rows: tuple[int, ...], policy: str = "optimal") -> Path:
    """Where :func:`.driver.build_table` puts a table unless told otherwise."""
    return cache_dir() / "fullboard" / table_key(game, rules, rows, policy)


@dataclass
class Table:
    """A finished table opened for queries.

    Attributes:
        store: its store (folder, manifest, finished slabs).
        layout: its board layout.
        rules: its rules.
        values: the read-only memory-mapped values (float32 or float64).
    """

    store: TableStore
    layout: BoardLayout
    rules: Rules
    values: np.ndarray | None = field(repr=False)

    @property
    def directory(self) -> Path:
        """Where the table lives."""
        return self.store.directory

    @property
    def spec(self) -> dict:
        """What the values are (:func:`table_spec`)."""
        return self.store.manifest.spec

    @property
    def policy(self) -> str:
        """The policy the values belong to."""
        return self.spec["policy"]

    @property
    def dtype(self) -> str:
        """The stored dtype."""
        return self.spec["dtype"]

    @property
    def slab_count(self) -> int:
        """Slabs of the build."""
        return self.store.manifest.chunks

    @property
    def cpu_seconds(self) -> float:
        """Compute seconds of the build, summed over its slabs (one core each)."""
        return float(sum(self.store.done().values()))

    @property
    def wall_seconds(self) -> float:
        """Wall-clock seconds of the build, summed over its runs."""
        return self.store.manifest.wall_seconds

    def open_values(self) -> np.ndarray:
        """:attr:`values`, while the table is open.

        Raises:
            TableError: the table was closed (:meth:`close`).
        """
        if self.values is None:
            raise TableError(f"the table in {self.directory} is closed")
        return self.values

    def value(self, board: Sequence[int]) -> float:
        """Expected turns of a whole board (a tuple of ``rules.rows`` entries) under the
        table's policy, at the start of a turn (float64)."""
        return float(self.open_values()[self.layout.index(board)])

    def close(self) -> None:
        """Drop the memory map (``values`` is no longer usable)."""
        self.values = None


def open_table(directory: Path, rules: Rules | None = None) -> Table:
    """Open a finished table.

    Args:
        directory: the table directory.
        rules: if given, the rules the caller needs; a table for other rules is refused.

    Raises:
        TableError: no table there, an unfinished one, another kind of table, or one of
            another format version (:data:`FULLBOARD_FORMAT`).
        InvalidRulesError: the table was built for other rules.
    """
    store = TableStore.open(directory, KIND, format_version=FULLBOARD_FORMAT)
    spec = store.manifest.spec
    table_rules = Rules(**spec["rules"])
    if rules is not None and table_rules != rules:
        differ = [k for k, v in rules_dict(rules).items() if spec["rules"].get(k) != v]
        raise InvalidRulesError(f"the table in {directory} was built for other rules "
                                f"(differing fields: {', '.join(differ)})")
    return Table(store, BoardLayout(table_rules, tuple(spec["rows"])), table_rules, store.array(VALUES))
