"""A compact model of the exact board value, distilled from the full-board table.

``E(board)``, the expected number of turns still needed from a board at the start of a turn
under optimal play, is known exactly for every board of the 12-row game once the full
table is built (:mod:`.fullboard`; 8.7 GB). :class:`DistilledValue` carries what a player's
installation can ship instead (a few MB in ``data/``) and evaluates with numpy alone:

* **the end game exactly**: the table's value of every board with at most
  ``endgame_rows`` open rows (float32, as stored in the table);
* **the rest by a small neural network** (a multilayer perceptron): the board as one-hot
  progress per row (``rows x (goal + 1)`` inputs), two hidden layers with ReLU, one
  output; trained by least squares on boards sampled from the exact table
  (:mod:`dicemath.studies.full_board_distill`).

Its values are estimates (float32 arithmetic, returned as float64); the advisor scores
every legal row with them one turn ahead (:class:`.advisor.Advisor`), which is the
``lookahead`` policy of the kernels evaluated exactly in the analyses. The measured errors
and that policy's exact value are in ``dicemath/studies/data/full_board_results.json``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.rules import Rules

DATA = Path(__file__).resolve().parent / "data"

BATCH = 8192
"""Boards evaluated per matrix product."""


class ModelUnavailableError(DicemathError):
    """No distilled model is shipped for these rules."""


def model_path(rules: Rules) -> Path:
    """Where the distilled model of ``rules`` is shipped: ``data/<name>_distilled.npz``."""
    return DATA / f"{rules.name}_distilled.npz"


def endgame_offsets(rows: int, goal: int, endgame_rows: int) -> np.ndarray:
    """Where each set of open rows starts in the end-game table.

    The end-game table lists, for every set of ``1..endgame_rows`` open rows (bit mask over
    the rows, increasing), the ``goal ** k`` boards of those ``k`` rows below the goal
    (index ``sum_j s_j * goal**j`` over the open rows in increasing order).

    Returns:
        int64 array of ``2**rows + 1`` entries: the start of each mask's block (-1 for a
        mask outside the table), and the table's length last.
    """
    masks = np.arange(2 ** rows)
    open_count = np.array([bin(m).count("1") for m in masks])
    inside = (open_count >= 1) & (open_count <= endgame_rows)
    sizes = np.where(inside, goal ** open_count, 0)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    return np.append(np.where(inside, starts[:-1], -1), starts[-1]).astype(np.int64)


def endgame_index(boards: np.ndarray, goal: int, offsets: np.ndarray) -> np.ndarray:
    """The end-game table index of each board (-1 where the board has too many open rows
    or none). ``boards``: int array ``[board, row - 1]``."""
    boards = np.asarray(boards, dtype=np.int64)
    open_ = boards < goal
    mask = (open_ << np.arange(boards.shape[1])).sum(axis=1)
    rank: npt.NDArray[np.int64] = np.cumsum(open_, axis=1) - open_
    local = (np.where(open_, boards, 0) * goal ** rank).sum(axis=1)
    start = offsets[mask]
    return np.where(start >= 0, start + local, -1)


@dataclass(frozen=True, eq=False)
class DistilledValue:
    """``V(board)``: exact for the end game, a small network otherwise (module docstring).

    Attributes:
        rules: the game.
        endgame_rows: boards with at most this many open rows are looked up exactly.
        endgame: float32 values of those boards (order of :func:`endgame_offsets`).
        layers: float32 weights and biases ``W1, b1, W2, b2, W3, b3`` of the network;
            ``W1`` has ``rules.rows * (goal + 1)`` rows (one-hot progress, row by row).

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> model = DistilledValue.load(FIVES)
        >>> model((5,) * 12), 18 < model((0,) * 12) < 20
        (0.0, True)
    """

    rules: Rules
    endgame_rows: int
    endgame: np.ndarray
    layers: tuple[np.ndarray, ...]

    @cached_property
    def offsets(self) -> np.ndarray:
        """:func:`endgame_offsets` of this model."""
        return endgame_offsets(self.rules.rows, self.rules.goal, self.endgame_rows)

    @cached_property
    def digest(self) -> str:
        """A digest of the model's numbers (names the guide tables built from it)."""
        digest = hashlib.sha256(repr((self.rules, self.endgame_rows)).encode())
        for array in (self.endgame, *self.layers):
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:16]

    def __call__(self, board: Sequence[int]) -> float:
        """The estimate for one board (0 for a complete board)."""
        return float(self.values(np.asarray([board]))[0])

    def values(self, boards: np.ndarray) -> np.ndarray:
        """Estimates for many boards: ``boards`` int array ``[board, row - 1]``; float64
        (float32 arithmetic), 0 for a complete board."""
        boards = np.asarray(boards, dtype=np.int64)
        result = np.empty(len(boards))
        where = endgame_index(boards, self.rules.goal, self.offsets)
        exact = where >= 0
        result[exact] = self.endgame[where[exact]]
        result[(boards >= self.rules.goal).all(axis=1)] = 0.0
        rest = np.flatnonzero((where < 0) & (boards < self.rules.goal).any(axis=1))
        for start in range(0, len(rest), BATCH):
            chosen = rest[start:start + BATCH]
            result[chosen] = self.network(boards[chosen])
        return result

    def network(self, boards: np.ndarray) -> np.ndarray:
        """The network's output for ``boards`` (float32; no end-game lookup)."""
        return activations(self.layers, one_hot(boards, self.rules.goal))[-1][:, 0]

    def save(self, path: Path | str) -> None:
        """Write the model as a compressed ``.npz``."""
        arrays = {f"layer{i}": a for i, a in enumerate(self.layers)}
        np.savez_compressed(path, rules=np.array(repr(self.rules)), endgame_rows=np.array(self.endgame_rows),
                            endgame=self.endgame, **arrays)  # type: ignore[arg-type]  # stub: **arrays may be allow_pickle

    @classmethod
    def read(cls, rules: Rules, path: Path | str) -> DistilledValue:
        """Read a model written by :meth:`save` for ``rules``.

        Raises:
            ModelUnavailableError: no file, or a file for other rules.
        """
        path = Path(path)
        if not path.exists():
            raise ModelUnavailableError(f"no distilled model for {rules.name} ({path} is missing)")
        with np.load(path) as data:
            if str(data["rules"]) != repr(rules):
                raise ModelUnavailableError(f"{path} was distilled for other rules: {data['rules']}")
            count = sum(1 for name in data.files if name.startswith("layer"))
            layers = tuple(data[f"layer{i}"] for i in range(count))
            return cls(rules, int(data["endgame_rows"]), data["endgame"], layers)

    @classmethod
    def load(cls, rules: Rules) -> DistilledValue:
        """The shipped model of ``rules`` (cached).

        Raises:
            ModelUnavailableError: none is shipped for these rules.
        """
        return _shipped(rules)


@lru_cache(maxsize=4)
def _shipped(rules: Rules) -> DistilledValue:
    return DistilledValue.read(rules, model_path(rules))


def one_hot(boards: np.ndarray, goal: int) -> np.ndarray:
    """The network's input: float32 ``[board, row * (goal + 1) + progress]`` = 1."""
    boards = np.asarray(boards, dtype=np.int64)
    count, rows = boards.shape
    encoded = np.zeros((count, rows * (goal + 1)), dtype=np.float32)
    encoded[np.arange(count)[:, None], np.arange(rows) * (goal + 1) + boards] = 1.0
    return encoded


def activations(layers: Sequence[np.ndarray], inputs: np.ndarray) -> list[np.ndarray]:
    """Every layer's output of the network ``layers`` (weights and biases alternating) for
    ``inputs``: the inputs, each hidden layer after its ReLU, and the linear output last."""
    outputs = [inputs]
    for i in range(0, len(layers), 2):
        linear = outputs[-1] @ layers[i] + layers[i + 1]
        outputs.append(linear if i == len(layers) - 2 else np.maximum(linear, 0.0))
    return outputs
