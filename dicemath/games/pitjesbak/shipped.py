"""Solutions shipped with the package, read instead of solved on first use (PIT-1..PIT-8).

The table solver (:func:`.table_solver.solve_table`) takes about half a minute of CPU for four
players from 9 stripes, and the two-player game solver (:func:`.game_solver.solve_game`) a
second; the presets' solutions (9 stripes, either die values) are therefore shipped in
``data/solutions.npz`` (2.5 MB), written by ``analyses/pitjesbak_shipped_solutions.py`` from
the solvers themselves: the tables of three and four players (cap 11) and the two-player game
(cap 17, with and without its comparison of policies).

Each entry of the file is what a solver's cache entry holds (:func:`dicemath.core.cache.cached_arrays`),
under the same name and parameters: ``key_<i>`` is the ``repr`` of ``(name, params)``,
``format_<i>`` the solver's format version when it was written, and ``<i>_<array>`` its
arrays. A solver reads an entry only when its name, its parameters and its format version all
match: after a change of a solver's computation (a new format version) its entries are
ignored until the file is written again, and the solutions are solved as before.

Example:
    >>> from dicemath.games.pitjesbak.rules import Rules
    >>> shipped_arrays("pitjesbak-table-solution", (Rules(players=4), 11, 1e-12, 100), 1)["values"].shape
    (38416, 4)
    >>> shipped_arrays("pitjesbak-table-solution", (Rules(players=4, stripes=3), 5, 1e-12, 100), 1) is None
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

SHIPPED = Path(__file__).resolve().parent / "data" / "solutions.npz"
"""Where the shipped solutions are (see the module docstring)."""

Entry = tuple[str, Any, int, Mapping[str, NDArray[Any]]]
"""One shipped solution: ``(name, params, format version, arrays)``, as the solver caches it."""


@lru_cache(maxsize=4)
def _index(path: Path) -> dict[str, tuple[int, int]]:
    """``{repr((name, params)): (entry, format version)}`` of a shipped file (empty without one)."""
    if not path.exists():
        return {}
    with np.load(path, allow_pickle=False) as data:
        count = sum(1 for name in data.files if name.startswith("key_"))
        return {str(data[f"key_{i}"]): (i, int(data[f"format_{i}"])) for i in range(count)}


def shipped_arrays(name: str, params: Any, format_version: int,
                   path: Path = SHIPPED) -> dict[str, NDArray[Any]] | None:
    """The shipped arrays of solution ``name`` for ``params`` (matched by their ``repr``; read-only,
    read once a process), or None when none is shipped for them with format version ``format_version``."""
    entry, written = _index(path).get(repr((name, params)), (-1, 0))
    return dict(_entry(path, entry)) if written == format_version else None


@lru_cache(maxsize=16)
def _entry(path: Path, entry: int) -> dict[str, NDArray[Any]]:
    """The arrays of entry ``entry`` of a shipped file, read once a process (read-only: every
    solver handed them shares them)."""
    prefix = f"{entry}_"
    with np.load(path, allow_pickle=False) as data:
        arrays = {key[len(prefix):]: data[key] for key in data.files if key.startswith(prefix)}
    for array in arrays.values():
        array.flags.writeable = False
    return arrays


def write_shipped(entries: Sequence[Entry], path: Path = SHIPPED) -> int:
    """Write ``entries`` to ``path`` (compressed); returns its size in bytes.

    Raises:
        ValueError: an entry without arrays, or two entries of the same name and parameters.
    """
    arrays: dict[str, NDArray[Any]] = {}
    keys = [repr((name, params)) for name, params, _, _ in entries]
    if len(set(keys)) != len(keys):
        raise ValueError("two shipped entries have the same name and parameters")
    for i, (key, (_, _, format_version, solution)) in enumerate(zip(keys, entries)):
        if not solution:
            raise ValueError(f"the shipped entry {key} has no arrays")
        arrays.update({f"key_{i}": np.array(key), f"format_{i}": np.array(format_version)})
        arrays.update({f"{i}_{field}": np.asarray(value) for field, value in solution.items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as stream:
        np.savez_compressed(stream, **cast(dict[str, Any], arrays))  # names of arrays, not savez's options
    _index.cache_clear()
    _entry.cache_clear()
    return path.stat().st_size
