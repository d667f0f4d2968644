"""Exact cubeful bear-off equities for money play (docs/rules.md BG-6, BG-7, BG-8).

For every pair of home boards of at most ``checkers`` checkers (the two-sided bear-off
database; 924 x 924 boards for 6 checkers on 6 points) this module computes, for the player
on roll, per unit of the current cube value:

* ``no_double``: his equity if he does not double now and both sides play the cube (and the
  checkers) optimally afterwards -- what GNU Backgammon's two-sided database stores;
* ``optimal``: his equity with his optimal cube action now, and that ``action`` (codes into
  :data:`~dicemath.games.backgammon.cube.ACTIONS`: no double, double/take, double/pass,
  too good);

for the three cube positions of :data:`~dicemath.games.backgammon.cube.CUBE_STATES`:
``centred``, ``owned`` (by the player on roll) and ``opponent_owned``. Also the cubeless
winning chance of the player on roll (each side maximising its winning chance).

Why three cube states suffice
-----------------------------
A state of the cubeful game is (boards, who is on roll, cube value v, cube owner). With at
most 8 (< 15) checkers a side, at least one checker of each side is already off, so there
are no gammons or backgammons (BG-7): every game ends with +-v. Every payoff is therefore
proportional to v, and so is every comparison the players make (take vs pass: ``2v E`` vs
``v``; double vs not: ``v`` times per-unit equities), so the optimal strategies do not
depend on v and the equity is ``v * E(boards, owner)``: the cube value factors out and only
its owner matters. This is exact for an unbounded cube, which is also GNU Backgammon's
model: its ``makebearoff -t 6x6`` database agrees with these tables within 1.3e-4 (gnubg
stores each value in 16 bits, steps of 3e-5, and computes in single precision).

BG-8 caps the cube at 64: a player owning 64 cannot redouble, so strictly the cube value
does not factor out near the cap. :func:`build_cubeful_arrays` with ``max_cube=64`` solves
the capped game exactly (cube levels 1, 2, ..., 64 as extra states; checked against the
exact recursion). On the 6x6 database the capped equities differ from the three-state
ones by at most 6.9e-5 with the cube centred, 6.2e-4 for a cube of 2 owned by the player
on roll and 1.0e-4 owned by his opponent (measured; the gap grows near the cap, where a
redouble is no longer possible). The database functions (:func:`cubeful_table`,
:func:`exact_equities`) default to the unbounded cube, the model they are checked against
GNU Backgammon with; the player-facing query :func:`position_equities` (and the CLI)
default to the letter of BG-8, ``max_cube=64`` (:data:`MAX_CUBE`).

The recursion (equities of the player on roll; ``-E`` seen by the other side; a move to
the empty board wins +1 at once)::

    ND_c(x, y) = sum_r P(r) max_{x' in plays(x, r)} -C(y, x')
    ND_o(x, y) = sum_r P(r) max_{x'} -X(y, x')      (after my roll the opponent faces
    ND_x(x, y) = sum_r P(r) max_{x'} -O(y, x')       the cube with owners swapped)
    C = act(ND_c, 2 ND_x),  O = act(ND_o, 2 ND_x),  X = ND_x
    act(nd, dt) = min(1, dt) if min(1, dt) > nd else nd   (pass = +1, take = 2 ND_x)

Checkers are played to maximise the cubeful equity of each cube state separately (the
best play can differ between cube states). Every play reduces the pip count, so the states
can be solved in order: with the dense board index of :mod:`~.bearoff` (successors have
smaller indices), step ``n`` fills row ``n`` (board n on roll against every smaller board)
and then column ``n``. The default kernel is a small C loop over the compressed move
table of :func:`~.bearoff.move_table`; its numpy twin (vectorised gathers and
``np.maximum.reduceat``) gives the same numbers and is kept as a cross-check. Floats
(float64); the tests check them against a second, exact method (:func:`exact_equities`,
Fractions and plain recursion) and against GNU Backgammon. The 6x6 tables are built in
seconds (``benchmarks/bench_cube.py`` times the build against ``makebearoff -t 6x6``).

Example:
    >>> table = cubeful_table(2)
    >>> result = table.equities((0, 2, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0))
    >>> result["action"]["centred"], round(result["centred"], 6)  # 2 (2 * 26/36 - 1) = 8/9
    ('double/take', 0.888889)
    >>> round(result["win_probability"], 6)  # he misses only with 2-1 .. 6-1 (10 of 36)
    0.722222
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dicemath.core.cache import cached_arrays
from dicemath.core.dice import TWO_DICE_ROLLS, two_dice_rolls
from dicemath.core.errors import InvalidStateError
from dicemath.core.progress import progress
from dicemath.games.backgammon._cube_kernels import cubeful_tables
from dicemath.games.backgammon.bearoff import (
    ROLL_WEIGHTS,
    check_board,
    move_table,
    position_from_index,
    position_index,
    positions_count,
    positions_up_to,
    successors,
)
from dicemath.games.backgammon.cube import (
    ACTIONS,
    CUBE_STATES,
    MAX_CUBE,
    NO_DOUBLE,
    TIE_TOLERANCE,
    cube_action,
    cube_decision,
)
from dicemath.games.backgammon.limits import MAX_CUBEFUL_CHECKERS
from dicemath.games.backgammon.rules import STANDARD

_CENTRED, _OWNED, _OPPONENT = 0, 1, 2


def _check_table_checkers(checkers: int) -> int:
    if not isinstance(checkers, (int, np.integer)) or not 1 <= checkers <= MAX_CUBEFUL_CHECKERS:
        raise InvalidStateError(
            f"cubeful bear-off tables cover 1..{MAX_CUBEFUL_CHECKERS} checkers a side, got {checkers!r}")
    return int(checkers)


def _act(no_double: np.ndarray, double_take: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Optimal equity and action code of a player who may double (vectorised)."""
    codes, equity = cube_action(no_double, double_take)
    return equity, codes.astype(np.int8)


def build_cubeful_arrays(checkers: int = 6, *, max_cube: int | None = None,
                         show_progress: bool = False, compiled: bool = True) -> dict[str, np.ndarray]:
    """Solve the cubeful money game of every two-sided bear-off position (float64).

    Args:
        checkers: at most this many checkers a side (1..8); 6 gives the 924 x 924 database.
        max_cube: ``None`` for an unbounded cube (three cube states, see the module
            docstring); or the largest cube value (a power of two, e.g. 64 for BG-8), in
            which case the game is solved with explicit cube levels and the arrays returned
            are those of cube value 1.
        show_progress: show a progress bar (numpy kernel only).
        compiled: the C kernel (default) or the vectorised numpy one (same values; kept
            as a cross-check, slower).

    Returns:
        ``{"no_double": (3, N, N), "optimal": (3, N, N), "action": (3, N, N) int8,
        "cubeless": (N, N)}``; index ``[state, x, y]`` with ``x`` the dense index (of
        :mod:`~.bearoff`) of the board of the player on roll, ``y`` the opponent's, states in
        the order of :data:`CUBE_STATES`; ``cubeless`` is the cubeless winning chance. Row 0
        (the player on roll has no checkers left: he has won) is +1 (win chance 1).

    Raises:
        InvalidStateError: ``checkers`` outside 1..8 or ``max_cube`` not a power of two >= 1.
    """
    checkers = _check_table_checkers(checkers)
    levels = 0
    if max_cube is not None:
        if max_cube < 1 or max_cube & (max_cube - 1):
            raise InvalidStateError(f"max_cube must be a power of two >= 1, got {max_cube!r}")
        levels = max_cube.bit_length() - 1          # cube values 2**0 .. 2**levels
    count = positions_count(checkers)
    moves = move_table(STANDARD)
    rolls = len(TWO_DICE_ROLLS)
    starts = moves.starts[:count * rolls + 1]
    targets = moves.targets[:starts[-1]].astype(np.int64)
    if np.any(np.diff(starts) == 0):
        raise InvalidStateError("a (board, roll) without any play: not a standard bear-off table")

    # Value layers, all "equity of the player on roll" arrays of shape (count, count):
    #   uncapped: [C, O, X, Q]; capped: [C, O_1..O_L, X_1..X_L, Q] (O_l: owned at 2**l).
    # Q is the cubeless equity 2P - 1 (checkers played for the best winning chance).
    # ``source[k]`` is the layer the opponent sees after my roll for layer k's no-double value.
    if levels == 0:
        names = ["C", "O", "X", "Q"]
        source = [0, 2, 1, 3]
    else:
        names = ["C"] + [f"O{l}" for l in range(1, levels + 1)] + \
                [f"X{l}" for l in range(1, levels + 1)] + ["Q"]
        source = [0] + [levels + l for l in range(1, levels + 1)] + \
                 [l for l in range(1, levels + 1)] + [len(names) - 1]
    layers = len(names)
    # take_layer[k]: the layer whose no-double value, doubled, is the double/take equity of
    # layer k (the opponent then owns the doubled cube); -1 where no double is possible.
    if levels == 0:
        take_layer = [2, 2, -1, -1]
    else:
        take_layer = [levels + 1] + [levels + l + 1 if l < levels else -1
                                     for l in range(1, levels + 1)] + [-1] * (levels + 1)
    value = np.zeros((layers, count, count))        # optimal equity (after cube action)
    no_double = np.zeros((layers, count, count))    # equity without doubling now
    codes = np.zeros((layers, count, count), dtype=np.int8)
    value[:, 0, :] = 1.0                             # on roll with no checkers: already won
    no_double[:, 0, :] = 1.0
    value[:, 1:, 0] = -1.0                           # opponent already off: lost
    no_double[:, 1:, 0] = -1.0
    kernel = _cubeful_compiled if compiled else _cubeful_numpy
    # Integer roll weights (out of 36), divided at the end, so sure wins come out exactly +1.
    kernel(starts, targets, ROLL_WEIGHTS.astype(np.float64), np.array(source, dtype=np.int64),
           np.array(take_layer, dtype=np.int64), value, no_double, codes, show_progress)

    picks = [0, 1, 2] if levels == 0 else [0, 1, levels + 1]
    result = {
        "no_double": no_double[picks],                  # (indexing with a list copies)
        "optimal": value[picks],
        "action": codes[picks],
        "cubeless": (no_double[-1] + 1.0) / 2.0,
    }
    if levels:
        # Per-unit equities with the cube at 2, 4, ..., max_cube owned by the player on
        # roll (``owned_levels[l - 1]``: cube 2**l) or by his opponent.
        result["owned_levels"] = value[1:levels + 1].copy()
        result["opponent_levels"] = value[levels + 1:2 * levels + 1].copy()
    return result


def _cubeful_numpy(starts: npt.NDArray[np.int64], targets: npt.NDArray[np.int64],
                   weights: npt.NDArray[np.float64], source: npt.NDArray[np.int64],
                   take_layer: npt.NDArray[np.float64], value: npt.NDArray[np.float64],
                   no_double: npt.NDArray[np.float64], codes: npt.NDArray[np.int8],
                   show_progress: bool = False) -> None:
    """Fill the tables in place, vectorised with numpy (see :func:`build_cubeful_arrays`)."""
    rolls = len(weights)
    count = value.shape[1]
    layers = value.shape[0]
    segment_starts = starts[:-1]
    probabilities = np.tile(weights, count)

    def finish(nd: np.ndarray, rows: int | slice | npt.NDArray[np.intp],
               cols: int | slice | npt.NDArray[np.intp]) -> None:
        no_double[:, rows, cols] = nd
        for k in range(layers):
            t = take_layer[k]
            if t < 0:
                value[k, rows, cols] = nd[k]
            else:
                v, c = _act(nd[k], 2.0 * nd[t])
                value[k, rows, cols] = v
                codes[k, rows, cols] = c

    steps = range(1, count)
    if show_progress:
        steps = progress(steps, desc="cubeful bear-off", total=count - 1)
    for n in steps:
        # Row n: board n on roll against boards 1..n-1, then (n, n).
        a, b = starts[n * rolls], starts[(n + 1) * rolls]
        own = targets[a:b]
        seg = segment_starts[n * rolls:(n + 1) * rolls] - a
        for cols in (np.arange(1, n), np.array([n])):
            if cols.size == 0:
                continue
            gathered = -value[source[:, None, None], cols[None, :, None], own[None, None, :]]
            best = np.maximum.reduceat(gathered, seg, axis=2)  # (layers, k, rolls)
            finish((best @ weights) / 36.0, n, cols)
        # Column n: boards 1..n-1 on roll against board n.
        if n > 1:
            a, b = starts[rolls], starts[n * rolls]
            gathered = -value[source[:, None], n, targets[a:b][None, :]]
            best = np.maximum.reduceat(gathered, segment_starts[rolls:n * rolls] - a, axis=1)
            nd = (best * probabilities[rolls:n * rolls]).reshape(layers, n - 1, rolls).sum(axis=2) / 36.0
            finish(nd, np.arange(1, n), n)


def _cubeful_compiled(starts: npt.NDArray[np.int64], targets: npt.NDArray[np.int64],
                      weights: npt.NDArray[np.float64], source: npt.NDArray[np.int64],
                      take_layer: npt.NDArray[np.float64], value: npt.NDArray[np.float64],
                      no_double: npt.NDArray[np.float64], codes: npt.NDArray[np.int8],
                      show_progress: bool = False) -> None:
    """The C twin of :func:`_cubeful_numpy` (:func:`~._cube_kernels.cubeful_tables`)."""
    cubeful_tables(starts, targets, weights, source, take_layer, value, no_double, codes, TIE_TOLERANCE)


@dataclass(frozen=True)
class CubefulBearoffTable:
    """Exact cubeful money equities of every two-sided bear-off position (float64).

    Attributes:
        checkers: boards of at most this many checkers a side.
        no_double: ``[state, x, y]`` equity of the player on roll (board index ``x``) against
            board ``y`` if he does not double now, states as in :data:`CUBE_STATES`.
        optimal: the same with his optimal cube action now.
        action: the optimal action codes (into :data:`ACTIONS`).
        cubeless: his cubeless winning chance ``[x, y]``.
        max_cube: None (unbounded cube) or the cap the table was solved with.
    """

    checkers: int
    no_double: np.ndarray = field(repr=False)
    optimal: np.ndarray = field(repr=False)
    action: np.ndarray = field(repr=False)
    cubeless: np.ndarray = field(repr=False)
    max_cube: int | None = None

    def indices(self, board: Iterable[int], versus: Iterable[int]) -> tuple[int, int]:
        """Dense indices of two home boards, checked to fit this table.

        Raises:
            InvalidStateError: a bad board, a board with no checkers, or one with more
                checkers than the table.
        """
        result = []
        for name, item in (("position", board), ("versus", versus)):
            item = check_board(item)
            if sum(item) > self.checkers:
                raise InvalidStateError(
                    f"{name} {item} has {sum(item)} checkers; this table covers at most {self.checkers}")
            if sum(item) == 0:
                raise InvalidStateError(f"{name} has no checkers: the game is already over")
            result.append(position_index(item))
        return result[0], result[1]

    def equities(self, board: Iterable[int], versus: Iterable[int]) -> dict[str, Any]:
        """Equities and actions of the player on roll with ``board`` against ``versus``.

        Args:
            board: his home board, counts on points 1..6 (1-point first).
            versus: the opponent's home board.

        Returns:
            ``{"centred", "owned", "opponent_owned"}`` equities with the optimal action now,
            ``"no_double"`` (the same keys without doubling now), ``"action"`` (same keys,
            action names), ``"win_probability"`` (cubeless), ``"position"``, ``"versus"``.
        """
        x, y = self.indices(board, versus)
        result: dict[str, Any] = {"position": list(check_board(board)), "versus": list(check_board(versus))}
        for k, name in enumerate(CUBE_STATES):
            result[name] = float(self.optimal[k, x, y])
        result["no_double"] = {name: float(self.no_double[k, x, y]) for k, name in enumerate(CUBE_STATES)}
        result["action"] = {name: ACTIONS[int(self.action[k, x, y])] for k, name in enumerate(CUBE_STATES)}
        result["win_probability"] = float(self.cubeless[x, y])
        result["max_cube"] = self.max_cube
        return result


CUBEFUL_TABLE_FORMAT = 1
"""The format version of the cached table ``backgammon-cubeful-bearoff``: change it when its computation
or layout changes."""


@lru_cache(maxsize=4)
def cubeful_table(checkers: int = 6, max_cube: int | None = None) -> CubefulBearoffTable:
    """The cubeful bear-off table for boards of at most ``checkers`` checkers (cached on disk).

    Args:
        checkers: 1..8 (6 is GNU Backgammon's standard two-sided database size).
        max_cube: None (unbounded cube, three cube states) or the BG-8 cap 64 (then "owned"
            and "opponent_owned" mean a cube of 2 after the first double).

    Returns:
        A :class:`CubefulBearoffTable`.

    Raises:
        InvalidStateError: ``checkers`` outside 1..8 or a bad ``max_cube``.
    """
    checkers = _check_table_checkers(checkers)
    arrays = cached_arrays("backgammon-cubeful-bearoff", (checkers, max_cube, STANDARD),
                           lambda: build_cubeful_arrays(checkers, max_cube=max_cube),
                           format_version=CUBEFUL_TABLE_FORMAT)
    return CubefulBearoffTable(checkers, arrays["no_double"], arrays["optimal"],
                               arrays["action"], arrays["cubeless"], max_cube)


def position_equities(position: Iterable[int], versus: Iterable[int],
                      max_cube: int | None = MAX_CUBE) -> dict[str, Any]:
    """Cubeful equities of one bear-off position: the ``dicemath backgammon cube`` result.

    Uses the 6-checker table when both boards fit it, else the 7- or 8-checker one.

    Args:
        position: home board of the player on roll (six counts, 1-point first).
        versus: home board of the opponent.
        max_cube: the BG-8 cap (64, the default: the rules as played) or None for an
            unbounded cube (GNU Backgammon's model, the tables' research default).

    Returns:
        See :meth:`CubefulBearoffTable.equities`.

    Raises:
        InvalidStateError: bad boards, an empty board, or more than
            :data:`~.limits.MAX_CUBEFUL_CHECKERS` checkers a side.

    >>> position_equities([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])["centred"]
    1.0
    """
    size = max(sum(check_board(position)), sum(check_board(versus)))
    if size > MAX_CUBEFUL_CHECKERS:
        raise InvalidStateError(
            f"cubeful bear-off equities cover at most {MAX_CUBEFUL_CHECKERS} checkers a side, got {size}")
    return cubeful_table(max(size, 6), max_cube).equities(position, versus)


# ----------------------------------------------------------------------------------------
# Second method: exact Fractions by plain recursion (small positions only)
# ----------------------------------------------------------------------------------------

_FRACTION_ROLLS = tuple((roll, Fraction(weight, 36)) for roll, weight in two_dice_rolls())


@lru_cache(maxsize=None)
def _exact(board: tuple, versus: tuple, state: int, level: int = 0,
           top: int | None = None) -> tuple[Fraction, Fraction, int]:
    """(no-double equity, optimal equity, action code) of the player on roll, exact.

    ``state`` 0/1/2 = cube centred / owned by him / by the opponent, at cube value
    ``2**level``; ``top``: the highest level (None: unbounded, ``level`` stays 0).
    """
    if sum(board) == 0:
        return Fraction(1), Fraction(1), 0
    follow = {_CENTRED: _CENTRED, _OWNED: _OPPONENT, _OPPONENT: _OWNED}[state]
    nd = Fraction(0)
    for roll, weight in _FRACTION_ROLLS:
        best = None
        for play in successors(STANDARD, board, roll):
            v = Fraction(1) if sum(play) == 0 else -_exact(versus, play, follow, level, top)[1]
            if best is None or v > best:
                best = v
        if best is None:
            raise InvalidStateError(f"no play of {roll} from {board}")
        nd += weight * best
    if state == _OPPONENT or (top is not None and level >= top):
        return nd, nd, NO_DOUBLE
    next_level = level if top is None else level + 1
    take = 2 * _exact(board, versus, _OPPONENT, next_level, top)[0]
    code, optimal = cube_decision(nd, take, Fraction(1), True, 0)
    return nd, optimal, code


def exact_equities(board: Iterable[int], versus: Iterable[int], *, max_cube: int | None = None) -> dict[str, Any]:
    """Exact cubeful equities by plain recursion with Fractions (the slow second method).

    Args:
        board: home board of the player on roll; versus: the opponent's (small boards only:
            the recursion visits every reachable position).
        max_cube: None (unbounded cube) or the cube cap (power of two); with a cap,
            "owned" and "opponent_owned" are at cube value 2 (after one double).

    Returns:
        ``{"no_double": {state: Fraction}, "optimal": {state: Fraction},
        "action": {state: name}}``.

    Raises:
        InvalidStateError: bad or empty boards.

    >>> exact_equities((0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0))["optimal"]["centred"]
    Fraction(1, 1)
    """
    board, versus = check_board(board), check_board(versus)
    if sum(board) == 0 or sum(versus) == 0:
        raise InvalidStateError("both home boards need at least one checker")
    top = None if max_cube is None else max_cube.bit_length() - 1
    levels = (0, 0, 0) if top is None else (0, 1, 1)
    values = [_exact(board, versus, s, levels[s], top) for s in range(3)]
    return {"no_double": {name: values[k][0] for k, name in enumerate(CUBE_STATES)},
            "optimal": {name: values[k][1] for k, name in enumerate(CUBE_STATES)},
            "action": {name: ACTIONS[values[k][2]] for k, name in enumerate(CUBE_STATES)}}


# ----------------------------------------------------------------------------------------
# GNU Backgammon's two-sided database (for checking)
# ----------------------------------------------------------------------------------------

def gnubg_index(board: Sequence[int], points: int = 6, checkers: int = 6) -> int:
    """Index of a one-sided board in GNU Backgammon's bear-off databases.

    A port of gnubg's ``PositionBearoff`` (combinatorial ranking of the board as a bit
    pattern); in a two-sided file the record of (player on roll, opponent) is
    ``gnubg_index(player) * C(points + checkers, points) + gnubg_index(opponent)``.

    >>> gnubg_index((0, 1, 0, 0, 0, 0)), gnubg_index((0, 0, 0, 0, 0, 0))
    (2, 0)
    """
    from math import comb

    board = check_board(board)
    j = points - 1 + sum(board[:points])
    bits = 1 << j
    for i in range(points - 1):
        j -= board[i] + 1
        bits |= 1 << j
    n, r, index = checkers + points, points, 0
    while n > r:
        if bits & (1 << (n - 1)):
            index += comb(n - 1, r)
            r -= 1
        n -= 1
    return index


def read_gnubg_two_sided(path: str | Path, points: int = 6, checkers: int = 6) -> np.ndarray:
    """Read a cubeful two-sided database written by ``makebearoff -t PxC``.

    The file is a 40-byte header (``gnubg-TS-PP-CC-1...``) and, for every (player on roll,
    opponent) pair in gnubg's order, four little-endian 16-bit values ``u`` encoding
    ``u / 32767.5 - 1``: cubeless equity, cube owned, cube centred, opponent owns (the same
    four lines ``bearoffdump`` prints).

    Returns:
        float64 array ``(N, N, 4)`` indexed by **our** dense indices (player on roll,
        opponent), columns [cubeless, owned, centred, opponent owns].

    Raises:
        InvalidStateError: the header does not describe a cubeful ``points x checkers`` file.
    """
    from math import comb

    data = Path(path).read_bytes()
    header = data[:40].decode("ascii", "replace")
    expected = f"gnubg-TS-{points:02d}-{checkers:02d}-1"
    if not header.startswith(expected):
        raise InvalidStateError(f"{path} is not a cubeful {points}x{checkers} two-sided database "
                                f"(header {header[:20]!r})")
    size = comb(points + checkers, points)
    raw = np.frombuffer(data, dtype="<u2", offset=40)
    if raw.size != size * size * 4:
        raise InvalidStateError(f"{path}: expected {size * size * 4} values, found {raw.size}")
    values = raw.reshape(size, size, 4) / 32767.5 - 1.0
    if points != 6:
        raise InvalidStateError("only 6-point databases map onto the dense bear-off index")
    boards = positions_up_to(checkers)
    ours_to_gnubg = np.array([gnubg_index(b, points, checkers) for b in boards])
    return values[np.ix_(ours_to_gnubg, ours_to_gnubg)]


def gnubg_columns(table: CubefulBearoffTable) -> np.ndarray:
    """Our table in gnubg's four columns [cubeless, owned, centred, opponent owns], (N, N, 4)."""
    return np.stack([2.0 * table.cubeless - 1.0, table.no_double[_OWNED],
                     table.no_double[_CENTRED], table.no_double[_OPPONENT]], axis=-1)


def board_text(index: int) -> str:
    """A board as ``"2,2,0,0,0,0"`` from its dense index (for reports)."""
    return ",".join(str(c) for c in position_from_index(index))


def fit_janowski(table: CubefulBearoffTable, cube: str = "centred",
                 pip_range: tuple[int, int] | None = None) -> dict:
    """Fit Janowski's cube efficiency x to the exact no-double equities of a table.

    The model (:func:`~.cube.janowski_equity`, W = L = 1 as there are no gammons) is
    evaluated at the exact cubeless winning chance of every position (both boards non-empty)
    and x chosen by least squares (:func:`~.cube.fit_efficiency`).

    Args:
        table: a cubeful bear-off table.
        cube: "centred", "owned" or "opponent_owned".
        pip_range: only positions whose total pip count (both sides) is in ``[lo, hi)``.

    Returns:
        ``{"cube", "x", "rms", "max_error", "positions", "pip_range"}``; ``rms`` and
        ``max_error`` in equity per unit cube.

    Raises:
        InvalidCubeStateError: unknown cube state.
    """
    from dicemath.games.backgammon.bearoff import pip_counts
    from dicemath.games.backgammon.cube import _check_cube, fit_efficiency

    k = CUBE_STATES.index(_check_cube(cube))
    p = table.cubeless[1:, 1:]
    equity = table.no_double[k, 1:, 1:]
    mask = np.ones(p.shape, dtype=bool)
    if pip_range is not None:
        pips = pip_counts(positions_up_to(table.checkers))[1:]
        total = pips[:, None] + pips[None, :]
        mask = (total >= pip_range[0]) & (total < pip_range[1])
    x, rms, worst = fit_efficiency(p[mask], equity[mask], cube)
    return {"cube": cube, "x": x, "rms": rms, "max_error": worst, "positions": int(mask.sum()),
            "pip_range": pip_range}


def fit_janowski_by_pips(table: CubefulBearoffTable, cube: str = "centred") -> dict:
    """Fit a cube efficiency growing linearly with the race length: ``x = a + b * pips``.

    ``pips`` is the total pip count of both sides; ``x`` is clipped to [0, 1]. Least squares
    (scipy) of Janowski's no-double equity against the exact one over every position.

    Returns:
        ``{"cube", "a", "b", "rms", "max_error", "positions"}``.

    Raises:
        InvalidCubeStateError: unknown cube state.
    """
    from scipy.optimize import least_squares

    from dicemath.games.backgammon.bearoff import pip_counts
    from dicemath.games.backgammon.cube import _check_cube, janowski_equity

    k = CUBE_STATES.index(_check_cube(cube))
    p = table.cubeless[1:, 1:].ravel()
    equity = table.no_double[k, 1:, 1:].ravel()
    pips = pip_counts(positions_up_to(table.checkers))[1:]
    total = (pips[:, None] + pips[None, :]).ravel().astype(float)

    def residual(params: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        x = np.clip(params[0] + params[1] * total, 0.0, 1.0)
        return janowski_equity(p, x, cube) - equity

    start = fit_janowski(table, cube)["x"]
    solution = least_squares(residual, x0=[start, 0.0], method="trf")
    r = residual(solution.x)
    return {"cube": cube, "a": float(solution.x[0]), "b": float(solution.x[1]),
            "rms": float(np.sqrt(np.mean(r * r))), "max_error": float(np.max(np.abs(r))),
            "positions": int(p.size)}
