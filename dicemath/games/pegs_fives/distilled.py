"""A compact model of the exact board value, distilled from the full-board table.

``E(board)``, the expected number of turns still needed from a board at the start of a turn
under optimal play, is known exactly for every board of the 12-row game once the full
table is built (:mod:`.fullboard`; 8.7 GB). :class:`DistilledValue` carries what a player's
installation can ship instead (a few MB in ``data/``) and evaluates it compiled (C built at
install: ``_distilled_c.h``, the model's one statement in C, run by ``fullboard/_network_c.c``;
the compiled race games of :mod:`._race_simulation` include the same header):

* **the end game exactly**: the table's value of every board with at most
  ``endgame_rows`` open rows (float32, as stored in the table);
* **the rest by a small neural network** (a multilayer perceptron): the board as one-hot
  progress per row (``rows x (goal + 1)`` inputs), two hidden layers with ReLU, one
  output; trained by least squares on boards sampled from the exact table
  (:mod:`dicemath.studies.full_board_distill`, whose training runs the batches through
  :func:`activations`, every layer's output kept for the gradients).

Its values are estimates (float32 arithmetic in one fixed order, the same on every CPU,
returned as float64); the advisor scores
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

from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.rules import Rules

DATA = Path(__file__).resolve().parent / "data"

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


@dataclass(frozen=True, eq=False)
class DistilledValue:
    """``V(board)``: exact for the end game, a small network otherwise (module docstring).

    Attributes:
        rules: the game.
        endgame_rows: boards with at most this many open rows are looked up exactly.
        endgame: float32 values of those boards (order of :func:`endgame_offsets`).
        layers: float32 weights and biases ``W1, b1, W2, b2, W3, b3`` of the network (two
            hidden layers); ``W1`` has ``rules.rows * (goal + 1)`` rows (one-hot progress,
            row by row).

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

    @cached_property
    def compiled(self) -> tuple[np.ndarray, ...]:
        """The model's arrays as the compiled evaluation reads them: ``dims`` (int32 rows,
        goal, endgame_rows), the end-game offsets and table, and the layers (float32,
        contiguous; ``W3`` as its one column).

        Raises:
            DicemathError: the network does not have two hidden layers.
        """
        if len(self.layers) != 6 or self.layers[-2].shape[1] != 1:
            raise DicemathError(f"a distilled network has two hidden layers and one output, got "
                                f"{[layer.shape for layer in self.layers]}")
        dims = np.array([self.rules.rows, self.rules.goal, self.endgame_rows], dtype=np.int32)
        floats = (np.ascontiguousarray(a, dtype=np.float32) for a in (self.endgame, *self.layers))
        return (dims, np.ascontiguousarray(self.offsets, dtype=np.int64), *floats)

    def values(self, boards: np.ndarray) -> np.ndarray:
        """Estimates for many boards: ``boards`` int array ``[board, row - 1]``; float64
        (float32 arithmetic), 0 for a complete board.

        Raises:
            DicemathError: not boards of these rules (shape, or progress outside ``0..goal``).
        """
        from dicemath.games.pegs_fives.fullboard import _network_c  # type: ignore[attr-defined]  # C extension, no stubs

        boards = np.ascontiguousarray(boards, dtype=np.int32)
        if boards.ndim != 2 or boards.shape[1] != self.rules.rows or (
                boards.size and not 0 <= boards.min() <= boards.max() <= self.rules.goal):
            raise DicemathError(f"not boards of {self.rules.name}: shape {boards.shape}, progress 0..{self.rules.goal}")
        out = np.empty(len(boards))
        _network_c.values(boards, *self.compiled, out)
        return out

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
    a batch of ``inputs`` (matrix products): the inputs, each hidden layer after its ReLU,
    and the linear output last. The training's pass (it needs every layer for the
    gradients); a model's values are :meth:`DistilledValue.values`."""
    outputs = [inputs]
    for i in range(0, len(layers), 2):
        linear = outputs[-1] @ layers[i] + layers[i + 1]
        outputs.append(linear if i == len(layers) - 2 else np.maximum(linear, 0.0))
    return outputs
