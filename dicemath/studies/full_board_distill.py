"""Distil the exact full-board table into the compact :class:`dicemath.games.pegs_fives.distilled.DistilledValue`.

``analyses/pegs_fives_full_board.py sample`` draws the training sample from the optimal full
table (:func:`table_sample`; committed, tens of MB) and ``... distill`` trains the model on
it (:func:`distill`), so that training needs no table; numpy only (float32 training, seeded):

1. **end game**: every board with at most ``endgame_rows`` open rows is copied from the
   table (:func:`endgame_values`);
2. **samples** for the network, every other board: boards visited at choice throws in
   whole games played optimally from the empty board
   (:mod:`dicemath.games.pegs_fives.fullboard.simulate`; they weight the opening and
   middle game as play meets them), each with one board a cycle ahead (a row
   advanced, the boards the advisor's lookahead reads), plus *coverage* boards
   (:func:`coverage_boards`: every number of open rows equally, progress spread from empty
   to nearly full); targets are the table's exact values;
3. **network**: two hidden ReLU layers fitted by least squares with Adam
   (:func:`train_network`), the learning rate decaying per epoch.

Run it with one BLAS thread (``OPENBLAS_NUM_THREADS=1``, as the analyses script does): the
products are small, and on a busy machine BLAS threads spin, so more threads make an epoch
many times slower.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.distilled import DistilledValue, activations, endgame_offsets, one_hot
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.fullboard.simulate import recording, simulate_games, table_policy
from dicemath.games.pegs_fives.rules import Rules


def endgame_values(layout: BoardLayout, values: np.ndarray, endgame_rows: int) -> np.ndarray:
    """The end-game table of :func:`dicemath.games.pegs_fives.distilled.endgame_offsets` read from a full table
    (float32)."""
    rules = layout.rules
    goal, rows = rules.goal, rules.rows
    offsets = endgame_offsets(rows, goal, endgame_rows)
    out = np.empty(offsets[-1], dtype=np.float32)
    for k in range(1, endgame_rows + 1):
        local = np.arange(goal ** k)
        digits = (local[:, None] // goal ** np.arange(k)) % goal
        for open_rows in combinations(range(rows), k):
            mask = sum(1 << r for r in open_rows)
            boards = np.full((len(local), rows), goal, dtype=np.int64)
            boards[:, list(open_rows)] = digits
            index = boards @ np.array(layout.strides, dtype=np.int64)
            out[offsets[mask]:offsets[mask] + len(local)] = values[index]
    return out


def coverage_boards(rules: Rules, count: int, min_open: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` random boards with ``min_open .. rows`` open rows (each number equally
    likely, the open rows a random set), the open rows' progress either uniform below the
    goal or binomial with a random fill level (so that nearly empty boards are met too).
    int64 ``[board, row - 1]``."""
    goal, rows = rules.goal, rules.rows
    open_count = rng.integers(min_open, rows + 1, count)
    order = np.argsort(rng.random((count, rows)), axis=1)
    is_open = np.argsort(order, axis=1) < open_count[:, None]
    fill = rng.random((count, 1))
    progress = np.where(rng.random((count, 1)) < 0.5, rng.integers(0, goal, (count, rows)),
                        rng.binomial(goal - 1, fill, (count, rows)))
    return np.where(is_open, progress, goal).astype(np.int64)


def played_boards(rules: Rules, layout: BoardLayout, values: np.ndarray, games: int, seed: int,
                  rng: np.random.Generator) -> np.ndarray:
    """The boards of every choice throw in ``games`` optimal games from the empty board,
    each followed by the same board with one random open row advanced by 1..goal - progress
    (int64 ``[board, row - 1]``)."""
    seen: list = []
    simulate_games(rules, recording(table_policy(rules, layout, values), seen.append), games, seed)
    boards = np.array(seen, dtype=np.int64)
    ahead = boards.copy()
    for board in ahead:
        open_rows = np.flatnonzero(board < rules.goal)
        row = rng.choice(open_rows)
        board[row] = rng.integers(board[row] + 1, rules.goal + 1)
    return np.concatenate([boards, ahead])


def train_network(boards: np.ndarray, targets: np.ndarray, goal: int, *, hidden: tuple[int, int] = (64, 32),
                  epochs: int = 24, rate: float = 2e-3, decay: float = 0.88, batch: int = 2048, seed: int = 0,
                  check: tuple[np.ndarray, np.ndarray] | None = None,
                  log: Callable[[str], None] = print) -> tuple[np.ndarray, ...]:
    """Fit the network of :class:`dicemath.games.pegs_fives.distilled.DistilledValue` to ``targets`` (least squares,
    Adam, He initialisation; float32).

    Args:
        boards, targets: training boards (int ``[board, row - 1]``) and exact values.
        goal: the rules' goal (one-hot width ``goal + 1`` per row).
        hidden: hidden layer widths.
        epochs, rate, decay, batch: passes over the data, Adam's step size (times ``decay``
            per epoch), boards per step.
        seed: initialisation and shuffling.
        check: held-out ``(boards, targets)`` whose RMS error is logged after every epoch.
        log: receives one line per epoch.

    Returns:
        The layers ``W1, b1, W2, b2, ...`` (float32).
    """
    rng = np.random.default_rng(seed)
    inputs = one_hot(boards, goal)
    targets = np.asarray(targets, dtype=np.float32)
    sizes = [inputs.shape[1], *hidden, 1]
    layers = []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        layers += [(rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)).astype(np.float32),
                   np.zeros(fan_out, dtype=np.float32)]
    first = [np.zeros_like(p) for p in layers]
    second = [np.zeros_like(p) for p in layers]
    beta1, beta2, step = 0.9, 0.999, 0
    check_inputs = None if check is None else one_hot(check[0], goal)
    for epoch in range(epochs):
        start = time.perf_counter()
        size = rate * decay ** epoch
        for chosen in np.array_split(rng.permutation(len(targets)), max(1, len(targets) // batch)):
            outputs = activations(layers, inputs[chosen])
            error = (2.0 / len(chosen)) * (outputs[-1][:, 0] - targets[chosen])[:, None]
            gradients: list[np.ndarray | None] = [None] * len(layers)
            for i in range(len(layers) - 2, -1, -2):
                gradients[i] = outputs[i // 2].T @ error
                gradients[i + 1] = error.sum(axis=0)
                if i:
                    error = (error @ layers[i].T) * (outputs[i // 2] > 0)
            step += 1
            for p, g, m, v in zip(layers, gradients, first, second):
                if g is None:
                    raise DicemathError("the network's layers must come in (weights, bias) pairs")
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                p -= size * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + 1e-8)
        line = f"epoch {epoch + 1}/{epochs}: {time.perf_counter() - start:.0f} s"
        if check is not None and check_inputs is not None:
            error = activations(layers, check_inputs)[-1][:, 0] - check[1]
            line += f", held-out RMS {np.sqrt(np.mean(error ** 2)):.4f}, max {np.abs(error).max():.3f}"
        log(line)
    return tuple(layers)


@dataclass(frozen=True)
class Sample:
    """What distillation needs from a full table, small enough to commit (tens of MB), so
    that a model can be trained again on a machine without the table.

    Attributes:
        boards: full-board indices (uint32;
            :class:`dicemath.games.pegs_fives.fullboard.layout.BoardLayout` of every row), the last
            ``held_out`` of them kept out of training.
        targets: their exact values (float32).
        held_out: boards for measuring the model, not for training.
        endgame_rows: boards with at most this many open rows are stored exactly.
        endgame: the end-game table (:func:`endgame_values`).
    """

    boards: np.ndarray
    targets: np.ndarray
    held_out: int
    endgame_rows: int
    endgame: np.ndarray

    def save(self, path: Path | str) -> None:
        """Write the sample as a compressed ``.npz``."""
        np.savez_compressed(path, boards=self.boards, targets=self.targets, held_out=self.held_out,
                            endgame_rows=self.endgame_rows, endgame=self.endgame)

    @classmethod
    def read(cls, path: Path | str) -> Sample:
        """Read a sample written by :meth:`save`."""
        with np.load(path) as data:
            return cls(data["boards"], data["targets"], int(data["held_out"]), int(data["endgame_rows"]),
                       data["endgame"])


def table_sample(layout: BoardLayout, values: np.ndarray, *, endgame_rows: int = 4, coverage: int = 2_000_000,
                 games: int = 4_000, held_out: int = 120_000, seed: int = 0,
                 log: Callable[[str], None] = print) -> Sample:
    """The training sample of the optimal table ``values`` of the full ``layout`` (module
    docstring, steps 1 and 2).

    Args:
        layout: the full board's layout. values: its optimal table.
        endgame_rows: boards with at most this many open rows are stored exactly.
        coverage: coverage boards; games: optimal games whose boards are sampled.
        held_out: coverage boards kept out of training, for measuring the model.
        seed: every random choice.
        log: progress lines.
    """
    rules = layout.rules
    rng = np.random.default_rng(seed)
    strides = np.array(layout.strides, dtype=np.int64)
    start = time.perf_counter()
    played = played_boards(rules, layout, values, games, seed, rng)
    log(f"{len(played)} boards from {games} optimal games in {time.perf_counter() - start:.0f} s")
    boards = np.concatenate([played, coverage_boards(rules, coverage + held_out, endgame_rows + 1, rng)])
    boards = boards[(boards < rules.goal).sum(axis=1) > endgame_rows]
    index = boards @ strides
    return Sample(index.astype(np.uint32), values[index].astype(np.float32), held_out, endgame_rows,
                  endgame_values(layout, values, endgame_rows))


def distill(layout: BoardLayout, sample: Sample, *, hidden: tuple[int, int] = (64, 32), epochs: int = 24,
            seed: int = 0, log: Callable[[str], None] = print) -> DistilledValue:
    """Train the distilled model of the full ``layout`` on ``sample`` (module docstring,
    step 3); needs no table.

    Args:
        layout: the full board's layout. sample: see :func:`table_sample`.
        hidden, epochs: the network (see :func:`train_network`).
        seed: initialisation and shuffling.
        log: progress lines.
    """
    rules = layout.rules
    boards = (sample.boards.astype(np.int64)[:, None] // np.array(layout.strides, dtype=np.int64)) % layout.base
    targets = sample.targets
    cut = len(targets) - sample.held_out
    layers = train_network(boards[:cut], targets[:cut], rules.goal, hidden=hidden, epochs=epochs, seed=seed,
                           check=(boards[cut:], targets[cut:]), log=log)
    return DistilledValue(rules, sample.endgame_rows, sample.endgame, layers)
