"""The full-board row advisor: "which row should I pick?"

The 12-row board has 6**12 (Pegs) boards, whose exact values are a table of 8.7 GB that a
player's installation does not hold, so the advisor combines an **exact one-turn lookahead**
with an **estimated board value**:

* For every legal row after a choice throw, :class:`.turn.TurnValue` computes exactly the
  expected value ``E[V(end-of-turn board)]`` when that row is played this cycle and the
  later choices of the same turn minimise it (overthrow risk, PEGS-7 / PEGS-8 restarts,
  FIVES-4/5 fresh dice all included).
* ``V`` is, by default, the **distilled model** shipped for the preset games
  (:class:`.distilled.DistilledValue`: the exact values of every board with at most four
  open rows and a small network for the rest, distilled from the full table). Its
  lookahead, evaluated exactly over every board, takes 0.034% (Pegs) and 0.024% (Fives)
  more turns from the empty board than optimal play; on every reduced board with at most
  four open rows it is optimal play.
* For rules without a shipped model (a variant), ``V`` is the **fitted value**
  (:class:`BoardValue`), which the presets do not use: its lookahead
  takes 8.7% more turns than optimal play on the full Fives board, and its board values are
  off by 2.0 turns (RMS) over every Pegs board, against 0.023 for the distilled model
  (``dicemath/studies/data/full_board_results.json``). On the full Pegs board its plain
  lookahead never finishes: on some boards it rates every board one row further as worse
  than the board itself and overthrows (PEGS-6) forever. The advisor finds such a **trap**
  exactly and values the board there by its own equation instead (:meth:`Advisor.start_value`),
  so that its play always finishes.

The fitted value ``V`` (:class:`BoardValue`) estimates the expected number of turns still
needed from a board. It is linear in features built from the *exact single-row values*
``E_r(s)`` of :mod:`.rows`: their sum and its square root (turns grow less than
linearly with the work left, because a turn can serve several rows), the largest and
second largest (the slowest rows set the end game: row 12 alone takes ~17 turns), the
number of open rows and the missing steps (the second largest and the square root halve
the mean gap to the optimum on reduced Pegs boards against the sum, largest, open rows and
missing steps alone).
The weights are fitted by least squares (approximate dynamic programming, policy
evaluation) to two kinds of exact or unbiased targets:

1. the exact optimal values of every board of many reduced games (:mod:`.solver`), which
   teach the end game;
2. Monte Carlo remaining turns of whole games played from the empty board by the
   safe greedy policy (:class:`.state.SafeGreedy`), which teach the opening and middle
   game. Further rounds of approximate policy iteration (refitting on the advisor's own
   games, ``iterations``) are available but play worse, so the default is none.

The presets' weights are stored in :data:`FITTED_WEIGHTS` (a slow test refits them); a
variant's are fitted once and kept in the on-disk cache
(:func:`dicemath.core.cache.cached_object`). All advisor numbers are float64.

With the fitted value, over every reduced board with 2 or 3 open rows the lookahead's
expected turns exceed the optimum by about 1% or less on average (a few percent at most), safe
greedy's by several percent; ``benchmarks/bench_pegs_fives.py --all-gaps 3`` prints the
gaps.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from dicemath.core.cache import cached_object
from dicemath.core.errors import IllegalMoveError
from dicemath.core.mdp import DecisionOutcome, solve_self_referential
from dicemath.games.pegs_fives.distilled import DistilledValue, ModelUnavailableError
from dicemath.games.pegs_fives.rows import row_table
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, Policy, SafeGreedy, check_board, check_roll, grouped_choice_throws, legal_rows, play_turn)
from dicemath.games.pegs_fives.turn import TurnValue, open_rows_of, stays_forever

FEATURES = ("sum_expected", "max_expected", "second_max_expected", "open_rows", "missing_steps",
            "sqrt_sum_expected", "constant")
"""Names of the board features (the constant applies to incomplete boards only)."""


@lru_cache(maxsize=16)
def single_row_values(rules: Rules) -> np.ndarray:
    """Float array ``[row - 1, step]`` of exact single-row expected turns."""
    return np.array([[float(e) for e in row_table(rules, r).expected_turns_from]
                     for r in range(1, rules.rows + 1)])


def board_features(rules: Rules, board: Sequence[int]) -> np.ndarray:
    """The feature vector of :data:`FEATURES` for a board (all zero for a complete board)."""
    table = single_row_values(rules)
    e = table[np.arange(rules.rows), np.asarray(board)]
    open_rows = sum(1 for s in board if s < rules.goal)
    if not open_rows:
        return np.zeros(len(FEATURES))
    top = np.sort(e)
    second = top[-2] if len(top) > 1 else 0.0
    total = e.sum()
    return np.array([total, top[-1], second, open_rows, sum(rules.goal - s for s in board), np.sqrt(total), 1.0])


@dataclass(frozen=True)
class BoardValue:
    """``V(board)`` = weights . features(board): estimated turns still needed (0 when complete).

    Attributes:
        rules: the game.
        weights: one weight per :data:`FEATURES` entry.
    """

    rules: Rules
    weights: tuple[float, ...]

    def __call__(self, board: Sequence[int]) -> float:
        return _board_value(self, tuple(board))

    def explain(self, board: Sequence[int]) -> dict:
        """The features of ``board`` and the resulting value."""
        f = board_features(self.rules, board)
        return {**{n: float(x) for n, x in zip(FEATURES, f)}, "value": float(f @ np.array(self.weights))}


@lru_cache(maxsize=1_000_000)
def _board_value(value: BoardValue, board: BoardTuple) -> float:
    return max(0.0, float(board_features(value.rules, board) @ np.array(value.weights)))


def _reduced_targets(rules: Rules, subsets: Sequence[Sequence[int]]) -> tuple[list[np.ndarray], list[float]]:
    from dicemath.games.pegs_fives.solver import solve_reduced

    xs: list[np.ndarray] = []
    ys: list[float] = []
    for rows in subsets:
        solution = solve_reduced(rules, rows, exact=False)
        for board, v in solution.values.items():
            if v > 0:
                xs.append(board_features(rules, board))
                ys.append(float(v))
    return xs, ys


def _simulated_targets(rules: Rules, policy: Policy, games: int, seed: int
                       ) -> tuple[list[np.ndarray], list[float]]:
    rng = random.Random(seed)
    xs: list[np.ndarray] = []
    ys: list[float] = []
    for _ in range(games):
        board = (0,) * rules.rows
        seen = []
        while any(s < rules.goal for s in board):
            seen.append(board)
            board = play_turn(rules, board, policy, rng)
        for k, b in enumerate(seen):
            xs.append(board_features(rules, b))
            ys.append(float(len(seen) - k))
    return xs, ys


def _fit(xs: Sequence[np.ndarray], ys: Sequence[float], sample_weights: Sequence[float]) -> tuple[float, ...]:
    x = np.array(xs)
    y = np.array(ys)
    w = np.sqrt(np.array(sample_weights))
    coef, *_ = np.linalg.lstsq(x * w[:, None], y * w, rcond=None)
    return tuple(float(c) for c in coef)


def fit_board_value(rules: Rules, *, games: int = 300, iterations: int = 0, seed: int = 0,
                    triples: int = 24) -> BoardValue:
    """Fit :class:`BoardValue` weights (see the module docstring); float64, seeded.

    Args:
        rules: the game.
        games: simulated whole games per round.
        iterations: rounds of approximate policy iteration after the greedy round.
        seed: the simulations' seed.
        triples: how many 3-row reduced games (chosen with ``seed``) add exact targets.
    """
    rng = random.Random(seed)
    subsets = [[r] for r in range(1, rules.rows + 1)]
    subsets += [list(p) for p in combinations(range(1, rules.rows + 1), 2)]
    all_triples = list(combinations(range(1, rules.rows + 1), 3))
    subsets += [list(t) for t in rng.sample(all_triples, min(triples, len(all_triples)))]
    rx, ry = _reduced_targets(rules, subsets)
    sx, sy = _simulated_targets(rules, SafeGreedy(rules.goal), games, seed)
    # Give the two sources equal total weight.
    weights = [0.5 / len(rx)] * len(rx) + [0.5 / len(sx)] * len(sx)
    value = BoardValue(rules, _fit(rx + sx, ry + sy, weights))
    for round_ in range(iterations):
        advisor = Advisor(rules, value)
        ax, ay = _simulated_targets(rules, advisor.policy, max(1, games // 3), seed + 1 + round_)
        weights = [0.5 / len(rx)] * len(rx) + [0.5 / len(ax)] * len(ax)
        value = BoardValue(rules, _fit(rx + ax, ry + ay, weights))
    return value


FITTED_WEIGHTS = {
    "pegs": (0.2677813117299272, 0.3160078822945507, -0.01907072466880431, -1.3358342184708583,
             0.1387413465295598, 1.7534896766860149, -0.7974448024301777),
    "fives": (0.3353220777663889, 0.4010767295155834, -0.13431856281574736, -1.4518259621378584,
              0.13062543427435067, 0.9931126398086475, 0.4896528207342472),
}
"""The weights :func:`fit_board_value` returns for the two presets (default arguments),
stored so that an advisor query needs no fitting; ``tests/pegs_fives`` refits them
(marked slow) and compares."""


def board_value(rules: Rules, *, use_cache: bool = True) -> BoardValue:
    """The fitted board value for ``rules``.

    The presets use :data:`FITTED_WEIGHTS`; a variant is fitted once (in seconds) and kept
    in the disk cache.
    """
    from dicemath.games.pegs_fives.rules import PRESETS

    for name, weights in FITTED_WEIGHTS.items():
        if PRESETS[name] == rules:
            return BoardValue(rules, weights)
    return _cached_value(rules, use_cache)


BOARD_VALUE_FORMAT = 1
"""The format version of the cached table ``pegs-fives-board-value``: change it when its computation
or layout changes."""


@lru_cache(maxsize=8)
def _cached_value(rules: Rules, use_cache: bool) -> BoardValue:
    weights = cached_object("pegs-fives-board-value", rules, lambda: fit_board_value(rules).weights,
                            format_version=BOARD_VALUE_FORMAT, use_cache=use_cache)
    return BoardValue(rules, tuple(weights))


@dataclass(frozen=True)
class RowAdvice:
    """One legal row after a choice throw.

    Attributes:
        row: the row. hits: its hits in the throw.
        expected_turns: turns still needed after this turn ends (optimal play when
            ``exact``, else an estimate).
        p_no_progress: chance the turn ends on this same board (an overthrow).
    """

    row: int
    hits: int
    expected_turns: float
    p_no_progress: float


@dataclass(frozen=True)
class Ranking:
    """The legal rows after a choice throw, best first, and the board's own value in them.

    Attributes:
        rows: every legal row, best first (:func:`ranked`).
        board_value: the value the ranking gives the board when the turn ends on it (an
            overthrow): ``E(board)`` of an exact table, ``V(board)`` of an estimate, or the
            advisor's own value on a trap of ``V`` (:meth:`Advisor.start_value`). Each row's
            ``expected_turns`` is ``p_no_progress * board_value`` plus the rest of its turn.
    """

    rows: list[RowAdvice]
    board_value: float


def ranked(options: Iterable[RowAdvice]) -> list[RowAdvice]:
    """``options`` best first: fewest expected turns, then more hits, then the higher row."""
    return sorted(options, key=lambda a: (a.expected_turns, -a.hits, -a.row))


class Advisor:
    """Ranks the legal rows of any board and choice throw (see the module docstring).

    Args:
        rules: the game.
        value: the board value (default: the shipped distilled model of ``rules``, else the
            fitted :func:`board_value`; ``estimator`` says which).
        escape_traps: on a board where the plain lookahead on ``value`` would never move,
            value the board by the advisor's own equation (:meth:`start_value`), as the
            full-board kernel's lookahead does; False gives the plain lookahead (the one
            whose full-board evaluation is recorded as never finishing).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.solver import solve_reduced
        >>> exact = solve_reduced(PEGS, [12], exact=False)
        >>> adv = Advisor(PEGS, lambda b: exact.values.get(tuple(b), 0.0))
        >>> [a.row for a in adv.rank((5,) * 11 + (0,), (6, 6, 6, 6, 1, 1))]
        [12]
    """

    exact = False
    """Its values are estimates (an exact advisor says True)."""
    source = "estimate"
    """Where its values come from, for the output."""
    estimator = "given"
    """The board value it looks ahead to: ``"distilled"`` (the shipped model), ``"fitted"``
    (:func:`board_value`, for rules without a model) or ``"given"`` (the ``value`` passed)."""

    def __init__(self, rules: Rules, value: Callable[[BoardTuple], float] | None = None, *,
                 escape_traps: bool = True) -> None:
        self.rules = rules
        if value is None:
            try:
                value, self.estimator = DistilledValue.load(rules), "distilled"
            except ModelUnavailableError:
                value, self.estimator = board_value(rules), "fitted"
        self.value = value
        self.escape_traps = escape_traps
        self.evaluator = TurnValue(rules, self.value, exact=False)
        self._start_values: dict[BoardTuple, float] = {}

    def rank(self, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
             throws: int | None = None) -> list[RowAdvice]:
        """Every legal row, best first, with its expected remaining turns (the rows of
        :meth:`ranking`)."""
        return self.ranking(board, throw, dice=dice, throws=throws).rows

    def ranking(self, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
                throws: int | None = None) -> Ranking:
        """Every legal row, best first, with its expected remaining turns, and the board
        value they use.

        Args:
            board: the board at this choice throw.
            throw: the choice throw.
            dice, throws: dice in hand and throws left before the throw (default: the
                start of a cycle with all dice and the full budget).

        Raises:
            InvalidBoardError, InvalidRollError, IllegalMoveError: bad input.
        """
        rules = self.rules
        b = check_board(board, rules)
        dice = rules.dice if dice is None else dice
        if throws is None:
            throws = rules.throws
        elif rules.throws is not None and not 1 <= throws <= rules.throws:
            raise IllegalMoveError(f"throws left must be 1..{rules.throws}, got {throws!r}")
        return self.checked_ranking(b, check_roll(throw, dice), dice, throws)

    def checked_ranking(self, board: BoardTuple, roll: tuple[int, ...], dice: int, throws: int | None) -> Ranking:
        """:meth:`ranking` of inputs already checked (a state's): ``throws`` left before the throw."""
        return self._rank(board, legal_rows(board, roll, self.rules.goal), dice, throws)

    def _options(self, board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int, throws: int | None
                 ) -> list[tuple[int, int, float, float]]:
        """``(row, hits, stay, rest)`` of every legal row."""
        after = None if throws is None else throws - 1
        return [(row, h, *self.evaluator.option(board, row, h, dice, after)) for row, h in legal]

    def _rank(self, board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int, throws: int | None) -> Ranking:
        options = self._options(board, legal, dice, throws)
        here = self.value(board)
        advice = _valued(options, here)
        if (self.escape_traps and dice == self.rules.dice and throws == self.rules.throws
                and advice[0].p_no_progress == 1 and min(a.p_no_progress for a in advice) < 1):
            here = self.start_value(board)
            advice = _valued(options, here)
        return Ranking(advice, here)

    def policy(self, board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int, throws: int | None) -> int:
        """The advisor as a :data:`.state.Policy` (for simulation and exact evaluation)."""
        if len(legal) == 1:
            return legal[0][0]
        return self._rank(board, legal, dice, throws).rows[0].row

    def start_value(self, board: Sequence[int]) -> float:
        """The value the advisor gives ``board`` when a turn ends there: ``V(board)``, except
        on a **trap** of ``V``, where ``V(board)`` contradicts the advisor's own play.

        A trap is a board from which the plain lookahead on ``V`` never moves
        (:func:`.turn.stays_forever`): ``V`` rates every board one row further as worse than
        the board itself, so on every throw the lookahead names a row that overthrows
        (PEGS-6) and the turn ends where it began, forever (pegs never move back, so a
        policy never finishes exactly when it reaches such a board). There the advisor values
        the board by its own equation, ``x = 1 + E[best option at x]`` over the turn's first
        throw with ``V`` on every other board (:func:`dicemath.core.mdp.solve_self_referential`),
        which exceeds ``V(board)`` and whose best options leave the board with positive
        probability. Only the turn's first choice throw uses it (``escape_traps``). Off a trap
        the ranking is the plain lookahead's; an exact table has no trap (its values solve
        their own equation), so exact advice never changes.
        """
        b = tuple(board)
        found = self._start_values.get(b)
        if found is None:
            trapped = self.escape_traps and stays_forever(self.rules, b, self._lookahead_policy)
            found = self._start_values[b] = self._own_value(b) if trapped else self.value(b)
        return found

    def _lookahead_policy(self, board: BoardTuple, legal: Sequence[tuple[int, int]], dice: int,
                          throws: int | None) -> int:
        """The plain lookahead on ``V`` (no trap check)."""
        return _valued(self._options(board, legal, dice, throws), self.value(board))[0].row

    def _own_value(self, board: BoardTuple) -> float:
        rules = self.rules
        outcomes = []
        for weight, legal in grouped_choice_throws(rules.dice, open_rows_of(board, rules.goal)):
            tie_order = sorted(legal, key=lambda option: (-option[1], -option[0]))    # first among equals
            outcomes.append((weight / 6 ** rules.dice,
                             [DecisionOutcome(stay, rest)
                              for _, _, stay, rest in self._options(board, tie_order, rules.dice, rules.throws)]))
        return float(solve_self_referential(1.0, outcomes, "min")[0])


def _valued(options: Iterable[tuple[int, int, float, float]], here: float) -> list[RowAdvice]:
    """``(row, hits, stay, rest)`` options as ranked advice, the board valued ``here``."""
    return ranked(RowAdvice(row, h, stay * here + rest, stay) for row, h, stay, rest in options)
