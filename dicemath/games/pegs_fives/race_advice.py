"""Race-aware row advice on the full board, Pegs and Fives: playing to win against the
boards on the table.

Solo advice (:mod:`.fullboard.advice`) minimises the player's own expected number of turns.
The games reward something else: Pegs is won by whoever first has every peg in (PEGS-2);
a Fives round ends the moment one player completes every number and everybody else scores
rest points (FIVES-6), the lowest total over the rounds winning (FIVES-7). The exact race
(:mod:`.race_solver`) is solved late in a game, when at most
:data:`~.race_solver.RACE_MAX_PAIRS` pairs of boards are still reachable; the full pair space
(about 10^18 pairs) is not. :func:`race_advice` approximates it:

1. **Turn counts.** ``N(x)``, the number of turns a player still needs from board ``x`` at
   the start of his turn under solo-optimal play, has its exact law (:func:`solo_laws`) when
   at most :data:`LAW_MAX_BOARDS` boards are left for him to reach (the default: on reduced
   boards at a table of three its values and choices are closer to the exact answer than the
   fitted law's, ``analyses/pegs_fives_tables.py``); otherwise it is modelled by a *discrete
   Weibull hazard*: ``P(N > n) = exp(-(n / lam) ** k)`` for ``n = 0, 1, ...``; the shape ``k`` is a
   fitted function of the expected turns ``mu = E(x)`` (:data:`SHAPE`; ``k = 1`` is the
   geometric law of a lone row, larger ``k`` the tighter spread of many rows) and ``lam``
   is solved so that ``E[N] = mu`` exactly. ``E(x)`` comes from the first source of
   :func:`solo_chain` that covers the board: a table, a compiled solve, or the shipped
   distilled model.
2. **Fives rest points.** The expected rest points ``Q_x(j)`` of board ``x`` after ``j`` more
   turns (0 once complete) come with the exact law; with the fitted law they are modelled
   as ``R(x) * (E[(N - j)^+] / E(x)) ** BETA``: they fall with the expected work left (:data:`BETA`, fitted).
3. **The race.** Players are independent (each plays solo-optimally, as the opponents are
   assumed to): with the opponents' laws fixed, a mover's board ``x'`` at the end of his turn
   (the opponents move next) wins with ``P(N(x') < N_j for every opponent j)`` (PEGS-2:
   after the mover's turn every opponent moves before he does), a fresh start inside the
   turn (all dice back, PEGS-8, FIVES-4/5: the same player moves on) with
   ``P(N(x'') <= N_j for every j)``. In Fives the value is the expected objective at the
   end of the round: the opponents' mean rest points minus the mover's (FIVES-6), each
   player's rest points those on his board when the round ends, which depends on who ends
   it and on the order of the seats (:class:`RaceLeaves`; with one opponent exactly the
   zero-sum difference of :mod:`.race_solver`).
4. **The choice.** Every legal row after the throw is scored by the exact within-turn model
   (:class:`.turn.TurnValue`, overthrows PEGS-6, PEGS-7 choice throws and fresh dice
   included) on those leaf values, later choices of the turn maximising them as well.

Race advice answers from its own chain of sources (:data:`RACE_CHAIN`, each limit stated
once in its ``covers``): ``"exact race"`` for two players on a board pair whose open rows
together number at most :data:`EXACT_ON_DEMAND_ROWS` (or ``exact_max_rows``) and from which
at most :data:`~.race_solver.RACE_MAX_PAIRS` pairs are reachable (the mover's boards against
the opponent's, :class:`.race_box.RaceBox`): the exact race on those pairs
(:func:`.race_solver.solve_race_compiled`, both playing to win thereafter) gives the values
(``exact: True``); ``"exact three-player race"`` the same for two opponents when at most
:data:`~.race_table_compiled.TRIPLES_MAX` triples of boards are reachable
(:func:`.race_table_compiled.race3_model`, every player playing to win thereafter); otherwise
``"turn-count model"``, estimates (``exact: False``). In the model the opponents are taken as
independent solo-optimal players (the stated approximation): Pegs' value is the chance of
finishing before all of them, Fives' the difference above. The solo values (expected turns of a
board) come from their own chain, :func:`solo_chain`.

Example:
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> r = race_advice(PEGS, [0] * 12, (1, 1, 2, 3, 5, 6), [[5] * 11 + [0]])
    >>> r.extras["objective"], r.exact, r.best.action == r.extras["race_best"]
    ('win', False, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dicemath.core.advice import Advice, Option
from dicemath.core.cache import cached_arrays
from dicemath.core.errors import DicemathError, IllegalMoveError
from dicemath.core.sources import Source, SourceChain
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.fullboard.advice import (
    ExactAdvisor, board_advisor, estimate_source, solve_source, table_source)
from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.race_solver import (
    BOX_MAX_BOARDS, BOX_MAX_ROWS, RACE_MAX_PAIRS, Legal, SoloOptimal, _RaceTurn, check_race_rows, kernel_tables,
    mirror, solve_race_compiled, win_value)
from dicemath.games.pegs_fives.race_table_compiled import TRIPLES_MAX, race3_boxes, race3_model
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.solver import solve_reduced
from dicemath.games.pegs_fives.state import (
    BoardTuple, InvalidBoardError, Policy, State, check_board, check_roll, check_throws_left, grouped_choice_throws,
    legal_rows, rest_points)
from dicemath.games.pegs_fives.turn import end_board_model, open_rows_of, turn_distribution

BoardValues = Callable[[BoardTuple], "Fraction | float"]
"""Expected turns of a board (solo play), the mover's and the opponents' values here."""

Opponents = Sequence[Sequence[int]] | Sequence[int] | None
"""One opponent's board, or a list of boards (as given; :func:`_check_opponents`)."""

SHAPE = {
    "pegs": (1.0, 0.39, 1.0),
    "fives": (1.0, 0.44, 1.0),
}
"""Weibull shape ``k(mu) = max(1, a + b * (mu - 1) ** c)`` per game: ``(a, b, c)``, fitted to
solo-optimal turn counts (``analyses/pegs_fives_race.py fit``)."""

BETA = 1.0
"""Exponent of the Fives rest-point decline (module docstring, point 2)."""

GRID_STEP = 0.02
"""Spacing of the expected-turns grid on which the turn-count laws are tabulated."""

GRID_MAX = 80.0
"""The largest expected turns tabulated (larger values are clipped to it)."""

HORIZON = 512
"""Turns tabulated per law (``P(N > n)`` for ``n < HORIZON``; the tail beyond is dropped)."""

EXACT_ON_DEMAND_ROWS = BOX_MAX_ROWS
"""The most open rows (both boards together) whose exact race :func:`race_advice` solves on
demand by default (the ``"exact race"`` source of :data:`RACE_CHAIN`): every race the exact
solver takes. It solves the mover's boards reachable from his board against the opponent's
(:meth:`.race_box.RaceBox.of_board`, two sets of boards) when they make at most
:data:`~.race_solver.RACE_MAX_PAIRS` pairs, and caches the opponent's leaves; how often that
holds in played games and what it costs: ``benchmarks/bench_race_box.py``. ``exact_max_rows``
lowers the limit; beyond it, or for too many pairs, the answer is the turn-count estimate."""

LAW_MAX_BOARDS = 36
"""The most boards reachable from a board (its :class:`.race_box.RaceBox`) whose exact turn
laws the turn-count model takes by default (:func:`solo_laws`; two open rows, 36 boards, a
twentieth of a second); beyond it, the fitted law."""

SOLO_SOLVE_MAX_ROWS = {"pegs": 6, "fives": 8}
"""The most open rows of a board whose reduced table :func:`race_advice` solves on demand for
its solo values (the ``"solve"`` source of :func:`solo_chain`), per game (other rules: Pegs');
a board with more open rows and no table gets the estimate (``solo_exact`` False). The
mover's and each opponent's board may need a solve, so the limit keeps a race answer's
solves short (their times: ``benchmarks/bench_race_advice.py``)."""


class OpponentError(InvalidBoardError):
    """An opponent's board that cannot be raced against (none given, or a bad board)."""


# ---------------------------------------------------------------------------------------------
# The turn-count law
# ---------------------------------------------------------------------------------------------

def shape_of(rules: Rules, mu: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The Weibull shape ``k`` for expected turns ``mu`` (:data:`SHAPE`)."""
    a, b, c = SHAPE.get(rules.name, SHAPE["pegs"])
    return np.maximum(1.0, a + b * np.maximum(np.asarray(mu, dtype=np.float64) - 1.0, 0.0) ** c)


def weibull_survival(mu: npt.ArrayLike, k: npt.ArrayLike, horizon: int = HORIZON) -> np.ndarray:
    """``S[i, n] = P(N > n)`` of the discrete Weibull law with mean ``mu[i]`` and shape ``k[i]``
    (``n = 0 .. horizon - 1``; ``S[i, 0] = 1``); ``mu >= 1``. The scale is solved by Newton's
    method on its logarithm (the mean is increasing in it), each row until its mean is within
    ``1e-11`` (relative) of ``mu[i]``: a pass computes only the rows still short of that."""
    mu = np.atleast_1d(np.asarray(mu, dtype=np.float64))
    k = np.broadcast_to(np.asarray(k, dtype=np.float64), mu.shape)
    n = np.arange(horizon, dtype=np.float64)
    lam = np.maximum(mu - 0.5, 1e-3) / np.array([math.gamma(1 + 1 / x) for x in k])
    active = np.arange(mu.size)                            # rows whose mean is not yet within tolerance
    for _ in range(60):
        target, shape = mu[active], k[active, None]
        z = (n[None, :] / lam[active, None]) ** shape
        s = np.exp(-z)
        mean = s.sum(axis=1)
        slope = (s * z * shape).sum(axis=1)                # d mean / d log(lam)
        step = np.where(slope > 0, (target - mean) / np.maximum(slope, 1e-300), 0.0)
        lam[active] *= np.exp(np.clip(step, -1.0, 1.0))
        active = active[np.abs(target - mean) >= 1e-11 * target]
        if not active.size:
            break
    s = np.exp(-(n[None, :] / lam[:, None]) ** k[:, None])
    s[:, 0] = 1.0
    return s


@dataclass(frozen=True, eq=False)
class TurnLaws:
    """The turn-count laws of one game tabulated on a grid of expected turns.

    Attributes:
        rules: the game.
        mu: the grid (``1, 1 + GRID_STEP, ..., GRID_MAX``).
        survival: ``[i, n] = P(N > n)`` for expected turns ``mu[i]``.
        pmf: ``[i, n] = P(N = n)`` (``pmf[:, 0] = 0``).
        rest: ``[i, j] = (E[(N - j)^+] / mu[i]) ** BETA``: the share of the rest points left
            after ``j`` turns (Fives, module docstring).
    """

    rules: Rules
    mu: np.ndarray
    survival: np.ndarray
    pmf: np.ndarray
    rest: np.ndarray

    def position(self, mu: float) -> tuple[int, float]:
        """Grid row ``i`` and weight ``w`` with ``mu = (1 - w) mu[i] + w mu[i + 1]`` (clipped)."""
        x = (min(max(mu, 1.0), GRID_MAX) - 1.0) / GRID_STEP
        i = min(int(x), len(self.mu) - 2)
        return i, x - i

    def row(self, table: np.ndarray, mu: float) -> np.ndarray:
        """``table``'s row interpolated at ``mu``."""
        i, w = self.position(mu)
        return (1 - w) * table[i] + w * table[i + 1]


@lru_cache(maxsize=4)
def turn_laws(rules: Rules) -> TurnLaws:
    """The :class:`TurnLaws` of ``rules`` (computed once per process, in a fraction of a second)."""
    mu = 1.0 + GRID_STEP * np.arange(int(round((GRID_MAX - 1.0) / GRID_STEP)) + 1)
    survival = weibull_survival(mu, shape_of(rules, mu))
    pmf = np.zeros_like(survival)
    pmf[:, 1:] = survival[:, :-1] - survival[:, 1:]
    left = np.cumsum(survival[:, ::-1], axis=1)[:, ::-1]   # E[(N - j)^+] = sum_{n >= j} P(N > n)
    rest = np.clip(left / mu[:, None], 0.0, 1.0) ** BETA
    return TurnLaws(rules, mu, survival, pmf, rest)


# ---------------------------------------------------------------------------------------------
# The race against fixed opponents
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class TurnLaw:
    """One player's remaining turns from his board at the start of his turn, and his rest
    points along the way (FIVES-6), as the race leaves read them.

    Attributes:
        survival: ``[n] = P(N > n)`` for ``n = 0 .. HORIZON - 1`` (``survival[0] = 1``).
        rest: ``[n] = E[R_n; N > n]``, the rest points still on his board after ``n`` more
            turns (0 once complete); ``rest[0]`` is his board's.
    """

    survival: np.ndarray
    rest: np.ndarray

    @property
    def pmf(self) -> np.ndarray:
        """``[n] = P(N = n)`` (``pmf[0] = 0``)."""
        return np.concatenate([[0.0], self.survival[:-1] - self.survival[1:]])


def fitted_law(rules: Rules, expected_turns: float, rest_points: float) -> TurnLaw:
    """The fitted :class:`TurnLaw` of a board with ``expected_turns`` and ``rest_points``
    (module docstring, points 1 and 2: the Weibull law and the rest-point decline)."""
    laws = turn_laws(rules)
    return TurnLaw(laws.row(laws.survival, expected_turns), rest_points * laws.row(laws.rest, expected_turns))


def _shift(a: np.ndarray) -> np.ndarray:
    """``a`` one turn later along its last axis: ``[..., n] = a[..., n - 1]`` (``n = 0`` keeps ``a[..., 0]``)."""
    return np.concatenate([a[..., :1], a[..., :-1]], axis=-1)


class RaceLeaves:
    """The mover's race value of his boards against fixed opponents (module docstring, 3).

    Args:
        rules: the game.
        opponents: each opponent in the order they move after the mover, all incomplete: his
            :class:`TurnLaw`, or his expected turns ``E`` and rest points ``R`` ``(E, R)``
            (the fitted law, :func:`fitted_law`).

    ``end(mu, rp)``: the value of the mover's turn ending on a board with expected turns
    ``mu`` and rest points ``rp`` (the opponents move next); ``fresh(mu, rp)``: of a fresh
    start on such a board (the mover moves on); both on the mover's fitted law.
    ``end_law(law)`` and ``fresh_law(law)``: the same on the mover's law given.
    ``complete()``: of a finished board.

    Fives with two or more opponents: the mover's objective is the opponents' mean rest
    points minus his own (FIVES-6); when opponent ``j`` ends the round in his ``n``-th turn,
    the opponents before him in the order have played ``n`` turns and those after him
    ``n - 1``, as the mover has, and each scores the rest points on his board then.
    """

    def __init__(self, rules: Rules, opponents: Sequence[tuple[float, float] | TurnLaw]):
        self.rules = rules
        self.laws = turn_laws(rules)
        self.pegs = rules.scoring == "first_out"
        others = [o if isinstance(o, TurnLaw) else fitted_law(rules, *o) for o in opponents]
        survivals = np.array([o.survival for o in others])
        alive = np.prod(survivals, axis=0)                             # P(every opponent needs more than n)
        shifted = np.concatenate([[1.0], alive[:-1]])                  # ... more than n - 1
        self._alive, self._shifted = alive, shifted
        self._rows: dict[tuple[int, int], tuple[float, float]] = {}
        if self.pegs:
            self._complete = 1.0
            return
        k = len(others)
        rests = np.array([o.rest for o in others])
        F = sum(rests[j] * np.prod(np.delete(survivals, j, axis=0), axis=0) for j in range(k)) / k
        G = np.zeros_like(alive)                   # the others' rest points as one opponent ends the round
        for j in range(k):
            now = [survivals[i] if i < j else _shift(survivals[i]) for i in range(k)]
            rest_now = [rests[i] if i < j else _shift(rests[i]) for i in range(k)]
            pmf_j = _shift(survivals[j]) - survivals[j]
            for i in range(k):
                if i != j:
                    G += pmf_j * rest_now[i] * np.prod([now[m] for m in range(k) if m not in (i, j)], axis=0) / k
        self._F, self._F_fresh, self._G = F, np.concatenate([[rests[:, 0].mean()], F[:-1]]), G
        self._ends = shifted - alive                                   # P(the first opponent out at n)
        self._complete = float(rests[:, 0].mean())

    def _row(self, i: int, kind: int) -> tuple[float, float]:
        """The value on the fitted law of grid row ``i`` (``kind`` 0: a turn's end, 1: a fresh
        start) without the mover's rest points, and his rest-point share lost (Fives)."""
        key = (i, kind)
        v = self._rows.get(key)
        if v is None:
            laws = self.laws
            if self.pegs:
                v = (float(laws.pmf[i] @ (self._shifted if kind else self._alive)), 0.0)
            elif kind:
                v = (float(laws.pmf[i] @ self._F_fresh + laws.survival[i] @ self._G),
                     float(laws.rest[i] @ self._ends))
            else:
                v = (float(laws.pmf[i] @ self._F + _shift(laws.survival[i]) @ self._G),
                     float(_shift(laws.rest[i]) @ self._ends))
            self._rows[key] = v
        return v

    def _at(self, mu: float, rp: float, kind: int) -> float:
        i, w = self.laws.position(mu)
        (a, own_a), (b, own_b) = self._row(i, kind), self._row(i + 1, kind)
        return (1 - w) * (a - rp * own_a) + w * (b - rp * own_b)

    def complete(self) -> float:
        return self._complete

    def end(self, mu: float, rp: float) -> float:
        return self._at(mu, rp, 0)

    def fresh(self, mu: float, rp: float) -> float:
        return self._at(mu, rp, 1)

    def end_law(self, law: TurnLaw) -> float:
        if self.pegs:
            return float(law.pmf @ self._alive)
        return float(law.pmf @ self._F + _shift(law.survival) @ self._G - _shift(law.rest) @ self._ends)

    def fresh_law(self, law: TurnLaw) -> float:
        if self.pegs:
            return float(law.pmf @ self._shifted)
        return float(law.pmf @ self._F_fresh + law.survival @ self._G - law.rest @ self._ends)


def race_value(rules: Rules, mover: tuple[float, float], opponents: Sequence[tuple[float, float]]) -> float:
    """The approximate race value of the mover to move: ``mover`` and each opponent given
    as ``(E, R)`` (expected turns, rest points; the mover's board incomplete).

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> 0.45 < race_value(PEGS, (24.1, 0), [(24.1, 0)]) < 0.6
        True
    """
    return float(RaceLeaves(rules, opponents).fresh(*mover))


# ---------------------------------------------------------------------------------------------
# Advice
# ---------------------------------------------------------------------------------------------

def _check_opponents(rules: Rules, opponents: Opponents) -> list[BoardTuple]:
    if opponents is None:
        raise OpponentError("race advice needs at least one opponent's board")
    boards: list[Any] = list(opponents)                     # as given: checked below
    if boards and isinstance(boards[0], (int, np.integer)) and not isinstance(boards[0], bool):
        boards = [boards]                                   # one board given flat
    if not boards:
        raise OpponentError("race advice needs at least one opponent's board")
    checked = []
    for i, board in enumerate(boards, 1):
        try:
            b = check_board(board, rules)
        except (InvalidBoardError, TypeError) as error:
            raise OpponentError(f"opponent {i}'s board is invalid: {error}") from None
        if not open_rows_of(b, rules.goal):
            raise OpponentError(f"opponent {i}'s board {list(b)} is complete: the round is already over")
        checked.append(b)
    return checked


@lru_cache(maxsize=8)
def solo_chain(rules: Rules) -> SourceChain:
    """The chain of the solo values race advice reads (expected turns of a board, solo play):
    the game's table and estimate sources around a solve of at most
    :data:`SOLO_SOLVE_MAX_ROWS` open rows (:mod:`.fullboard.advice`)."""
    limit = SOLO_SOLVE_MAX_ROWS.get(rules.name, SOLO_SOLVE_MAX_ROWS["pegs"])
    return SourceChain(table_source(), solve_source(limit), estimate_source())


def _solo(rules: Rules, board: BoardTuple, table: Path | str | None) -> ExactAdvisor | Advisor:
    """The solo values of the first source of :func:`solo_chain` that covers ``board`` (checked)."""
    return board_advisor(solo_chain(rules), State(rules, board, rules.dice, rules.throws), table=table)


class _Leaves:
    """End / restart values of the mover's boards for :class:`.race_solver._RaceTurn`: on a
    board's law from ``own_laws`` where it has one, else on the fitted law of its expected
    turns ``value``."""

    def __init__(self, rules: Rules, value: BoardValues, leaves: RaceLeaves,
                 own_laws: Mapping[BoardTuple, TurnLaw] | None = None) -> None:
        self.rules, self.value, self.leaves = rules, value, leaves
        self.own_laws = own_laws or {}
        self.memo: dict[tuple[BoardTuple, int], float] = {}

    def _of(self, board: BoardTuple, kind: int) -> float:
        key = (board, kind)
        v = self.memo.get(key)
        if v is None:
            law = self.own_laws.get(board)
            if not open_rows_of(board, self.rules.goal):
                v = self.leaves.complete()
            elif law is not None:
                v = self.leaves.end_law(law) if kind == 0 else self.leaves.fresh_law(law)
            else:
                mu = float(self.value(board))
                rp = float(rest_points(board, self.rules.goal))
                v = self.leaves.end(mu, rp) if kind == 0 else self.leaves.fresh(mu, rp)
            self.memo[key] = v
        return v

    def end(self, board: BoardTuple) -> float:
        return self._of(board, 0)

    def restart(self, board: BoardTuple) -> float:
        return self._of(board, 1)


def race_turn_model(rules: Rules, value: BoardValues, opponents: Sequence[tuple[float, float] | TurnLaw], *,
                    own_laws: Mapping[BoardTuple, TurnLaw] | None = None) -> _RaceTurn:
    """The within-turn model (:class:`.race_solver._RaceTurn`) of a mover whose boards are
    valued by ``value`` (expected turns; the fitted law) or by their laws in ``own_laws``,
    against opponents given as :class:`RaceLeaves` takes them: its
    ``race_option(board, row, hits, dice, throws_after)`` is ``(stay, rest)`` in race value,
    and :meth:`end` of the board itself is the value of a turn ending where it began."""
    leaves = _Leaves(rules, value, RaceLeaves(rules, opponents), own_laws)
    model = _RaceTurn(rules, leaves.end, leaves.restart, exact=False)
    model.end = leaves.end
    return model


def solo_laws(rules: Rules, board: Sequence[int], value: BoardValues, *,
              max_boards: int = LAW_MAX_BOARDS) -> dict[BoardTuple, TurnLaw]:
    """The exact :class:`TurnLaw` of ``board`` and of every board it can reach (its
    :class:`.race_box.RaceBox`) under solo-optimal play by the expected turns ``value``
    (:class:`.race_solver.SoloOptimal`): each turn's end-board distribution
    (:func:`.turn.turn_distribution`, fresh starts inside the turn followed), then
    ``P(N > n)`` and ``E[R_n; N > n]`` turn by turn to :data:`HORIZON`.

    Raises:
        DicemathError: the box holds more than ``max_boards`` boards.

    Example:
        Only the 12s open (Pegs), solved exactly: the law's mean is the board's expected turns.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.solver import solve_reduced
        >>> s = solve_reduced(PEGS, [12], exact=False)
        >>> law = solo_laws(PEGS, s.start, s.values.__getitem__)[s.start]
        >>> bool(abs(law.survival.sum() - s.expected_turns) < 1e-9)
        True
    """
    goal = rules.goal
    b = check_board(board, rules)
    box = RaceBox.of_board(rules, open_rows_of(b, goal), b)
    if box.size > max_boards:
        raise DicemathError(f"the boards reachable from {list(b)} number {box.size:,}, more than the {max_boards:,} "
                            "whose turn laws are computed")
    boards = [box.board(i) for i in range(box.size)]
    live = np.array([bool(open_rows_of(x, goal)) for x in boards])
    solo = SoloOptimal(rules, value, exact=False)
    model = end_board_model(rules, solo)
    step = np.zeros((box.size, box.size))
    for i, x in enumerate(boards):
        if live[i]:
            for y, p in turn_distribution(rules, x, solo, model=model).items():
                step[i, box.index(y)] += float(p)
    step[:, ~live] = 0.0
    survival = np.zeros((box.size, HORIZON))
    rest = np.zeros((box.size, HORIZON))
    survival[:, 0] = live
    rest[:, 0] = [rest_points(x, goal) for x in boards]
    for n in range(1, HORIZON):
        survival[:, n] = step @ survival[:, n - 1]
        rest[:, n] = step @ rest[:, n - 1]
    return {x: TurnLaw(survival[i], rest[i]) for i, x in enumerate(boards) if live[i]}


def _small_box_laws(rules: Rules, board: BoardTuple, value: BoardValues) -> dict[BoardTuple, TurnLaw]:
    """The exact laws of ``board``'s box (:func:`solo_laws`) when it holds at most
    :data:`LAW_MAX_BOARDS` boards, else none."""
    if math.prod(rules.goal + 1 - s for s in board if s < rules.goal) > LAW_MAX_BOARDS:
        return {}
    return solo_laws(rules, board, value)


def _exact_boxes(rules: Rules, board: BoardTuple, opponents: list[BoardTuple], rows: tuple[int, ...],
                 max_rows: int) -> tuple[RaceBox, RaceBox] | None:
    """The boards reachable from ``board`` and from the one opponent's on the open ``rows``
    (:meth:`.race_box.RaceBox.of_board`), whose exact race values the pair; None when no exact
    race is solved (more opponents, more rows than ``max_rows``, more pairs than
    :data:`~.race_solver.RACE_MAX_PAIRS` or boards than :data:`~.race_solver.BOX_MAX_BOARDS`)."""
    if len(opponents) != 1 or not 0 < len(rows) <= min(max_rows, BOX_MAX_ROWS):
        return None
    mine, theirs = RaceBox.of_board(rules, rows, board), RaceBox.of_board(rules, rows, opponents[0])
    fits = mine.size * theirs.size <= RACE_MAX_PAIRS and max(mine.size, theirs.size) <= BOX_MAX_BOARDS
    return (mine, theirs) if fits else None


RACE_PAIR_FORMAT = 1
"""The format version of the cached table ``pegs-fives-race-pair``: change it when its computation or layout changes."""


def _exact_model(rules: Rules, board: BoardTuple, opponent: BoardTuple, boxes: tuple[RaceBox, RaceBox]
                 ) -> tuple[_RaceTurn, float]:
    """The exact race's within-turn model (both playing to win) on the boards reachable from
    the pair, ``boxes`` (the mover's, the opponent's), and the mover's value of the pair: the
    race of the mover's boards against the opponent's (the opponent's row and column cached:
    the leaves of every turn the mover can play against him)."""
    mine, theirs = boxes

    def solve() -> dict[str, np.ndarray]:
        race = solve_race_compiled(rules, mine.rows, floors=mine.floors, second_floors=theirs.floors,
                                   decisions=False)
        o = theirs.index(opponent)
        return {"end": race.V2[o].copy(), "restart": race.V1[:, o].copy()}

    leaves = cached_arrays("pegs-fives-race-pair", (rules, mine.rows, mine.floors, theirs.floors), solve,
                           format_version=RACE_PAIR_FORMAT)
    ends, restarts = leaves["end"], leaves["restart"]
    win = win_value(rules, opponent)
    goal = rules.goal

    def end(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else mirror(rules, float(ends[mine.index(x)]))

    def restart(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else float(restarts[mine.index(x)])

    model = _RaceTurn(rules, end, restart, exact=False)
    model.end = end
    return model, float(restarts[mine.index(board)])


OBJECTIVES = ("win", "rest_points")
"""What race advice maximises: ``"win"``, the chance of finishing first (PEGS-2; in Fives the
chance of ending the round), or ``"rest_points"``, the expected rest-point difference (FIVES-6;
Fives only)."""


UNITS = {"win": "win probability", "rest_points": "expected rest-point difference"}
"""The unit of race advice per objective (higher is better)."""


def check_objective(rules: Rules, objective: str | None) -> str:
    """``objective`` checked for ``rules`` (None: the game's own, ``"win"`` for Pegs,
    ``"rest_points"`` for Fives).

    Raises:
        DicemathError: an unknown objective, or rest points in a game that scores none.
    """
    if objective is None:
        return "win" if rules.scoring == "first_out" else "rest_points"
    if objective not in OBJECTIVES:
        raise DicemathError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    if objective == "rest_points" and rules.scoring == "first_out":
        raise DicemathError(f"{rules.name} scores no rest points (PEGS-2: the first out wins): the objective is win")
    return objective


def race_advice(rules: Rules, board: Sequence[int], throw: Sequence[int], opponents: Opponents, *,
                dice: int | None = None, throws: int | None = None, table: Path | str | None = None,
                objective: str | None = None,
                exact_max_rows: int = EXACT_ON_DEMAND_ROWS) -> Advice:
    """Every legal row after a choice throw, valued for the race against ``opponents``: the
    inputs checked once (:func:`race_position`), then the first source of :data:`RACE_CHAIN`
    that covers them.

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES`.
        board: the mover's board (PEGS-1 / FIVES-1).
        throw: the choice throw.
        opponents: one opponent's board, or a list of boards (three or more players).
        dice, throws: dice in hand and throws left before the throw (default: all dice, the
            full budget; fewer dice: a PEGS-7 choice throw).
        table: a table directory for the solo values (:func:`solo_chain`; without a table,
            a board of at most :data:`SOLO_SOLVE_MAX_ROWS` open rows is solved, a larger one
            estimated).
        objective: ``"win"`` or ``"rest_points"`` (:data:`OBJECTIVES`; default the game's own).
        exact_max_rows: use the exact race solver for one opponent when the two boards' open
            rows together number at most this many and the solver takes the race (0: never;
            default :data:`EXACT_ON_DEMAND_ROWS`, which says what it takes; the setting of the
            ``"exact race"`` source). A race solved is kept in the cache.

    Returns:
        The :class:`~dicemath.core.advice.Advice` (unit :data:`UNITS` of the objective, higher
        is better; source ``"exact race"``, ``"exact three-player race"`` or ``"turn-count model"``):
        ``exact`` when every value
        is exact (the exact race solver, both players playing to win thereafter), False for the
        approximation. Per option, best first for the race: ``row``, ``hits``, ``race_value``,
        ``expected_turns`` (the solo advice beside it: turns still needed after this turn, fewer
        is better) and ``solo_exact`` (whether that solo value is exact). Extras:

        * ``board``, ``roll``, ``opponents`` (lists of steps);
        * ``objective``: ``"win"`` (PEGS-2; Fives: ending the round first) or ``"rest_points"``
          (Fives, FIVES-6); ``value``: what ``race_value`` measures, in words;
        * ``method``: ``"exact_race"`` or ``"turn_count_model"``; ``approximation``: the
          assumptions in words;
        * ``race_value_now``: the mover's race value at the start of this turn (before the throw);
        * ``race_pairs``: the pairs of boards the exact race was solved on (the mover's boards
          reachable from here against the opponent's), None for the estimate;
        * ``race_triples``: the triples of boards the exact three-player race was solved on
          (each player's boards reachable from here), None otherwise;
        * ``board_expected_turns``, ``opponent_expected_turns`` (one per opponent), and
          ``solo_sources``: the source of each (the mover's first; ``"table"``, ``"solve"`` or
          ``"estimate"``, :data:`SOLO_SOLVE_MAX_ROWS`);
        * ``race_best`` and ``solo_best`` (None without a legal row), ``differs`` (whether
          they differ).

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError: a bad board, throw or budget.
        OpponentError: no opponent, an invalid opponent board, or a complete one.
        DicemathError: a bad objective (:func:`check_objective`).
        InvalidBoardError: the mover's board is complete (nothing to decide).

    Example:
        Fives, the opponent one mark from the end: the mover takes the 12s, which cut his
        rest points most (FIVES-6).

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> r = race_advice(FIVES, [3] * 12, (6, 6, 6, 6, 2, 1), [[5] * 11 + [4]])
        >>> r.best.action, r.extras["objective"]
        (12, 'rest_points')
    """
    position = race_position(rules, board, throw, opponents, dice=dice, throws=throws, objective=objective)
    return RACE_CHAIN.advise(position, table=table, exact_max_rows=exact_max_rows)


@dataclass(frozen=True)
class RacePosition:
    """A race decision, checked once (:func:`race_position`): the mover's choice throw
    against the opponents' boards, what the sources of :data:`RACE_CHAIN` answer.

    Attributes:
        rules: the game.
        objective: ``"win"`` or ``"rest_points"`` (:data:`OBJECTIVES`).
        board: the mover's board (incomplete).
        roll: the choice throw, sorted.
        dice, throws: dice in hand and throws left before the throw.
        opponents: the opponents' boards (incomplete).
        legal: the legal rows after the throw, ``(row, hits)``.
        text: the state's text form: after the throw, or before it when no row is legal.
    """

    rules: Rules
    objective: str
    board: BoardTuple
    roll: tuple[int, ...]
    dice: int
    throws: int | None
    opponents: tuple[BoardTuple, ...]
    legal: tuple[tuple[int, int], ...]
    text: str

    @property
    def race_rules(self) -> Rules:
        """The rules the race is valued under: scoring by the objective."""
        return replace(self.rules, scoring="first_out" if self.objective == "win" else "rest_points")

    @property
    def rows(self) -> tuple[int, ...]:
        """The rows open on the mover's board or an opponent's."""
        goal = self.rules.goal
        return tuple(sorted(set(open_rows_of(self.board, goal)).union(*(open_rows_of(o, goal)
                                                                         for o in self.opponents))))


def race_position(rules: Rules, board: Sequence[int], throw: Sequence[int], opponents: Opponents, *,
                  dice: int | None = None, throws: int | None = None, objective: str | None = None) -> RacePosition:
    """The checked :class:`RacePosition` of :func:`race_advice`'s inputs (see there).

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError, OpponentError, DicemathError:
            bad input, as :func:`race_advice` says.
    """
    b = check_board(board, rules)
    objective = check_objective(rules, objective)
    if not open_rows_of(b, rules.goal):
        raise InvalidBoardError(f"the mover's board {list(b)} is complete: nothing to decide")
    others = _check_opponents(rules, opponents)
    dice = rules.dice if dice is None else dice
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= rules.dice:
        raise IllegalMoveError(f"dice in hand must be 1..{rules.dice}, got {dice!r}")
    faces = check_roll(throw, dice)
    throws = check_throws_left(rules, throws)
    legal = tuple(legal_rows(b, faces, rules.goal))
    start = State(rules, b, dice, throws)
    chosen = replace(start, throws=None if throws is None else throws - 1, roll=faces) if legal else start
    return RacePosition(rules, objective, b, faces, dice, throws, tuple(others), legal, str(chosen))


def _exact_race_covers(position: RacePosition, *, exact_max_rows: int = EXACT_ON_DEMAND_ROWS,
                       **settings: object) -> bool:
    return _position_boxes(position, exact_max_rows) is not None


def _position_boxes(position: RacePosition, exact_max_rows: int) -> tuple[RaceBox, RaceBox] | None:
    return _exact_boxes(position.race_rules, position.board, list(position.opponents), position.rows,
                        exact_max_rows)


def _exact_race_advice(position: RacePosition, *, table: Path | str | None = None,
                       exact_max_rows: int = EXACT_ON_DEMAND_ROWS, **settings: object) -> Advice:
    boxes = _position_boxes(position, exact_max_rows)
    if boxes is None:                           # the chain asks only when _exact_race_covers
        raise DicemathError(f"no exact race is solved for {position.text}")
    model, now = _exact_model(position.race_rules, position.board, position.opponents[0], boxes)
    return _race_answer(position, model, now, boxes, table)


def _exact_race3_covers(position: RacePosition, *, exact_max_rows: int = EXACT_ON_DEMAND_ROWS,
                        **settings: object) -> bool:
    return race3_boxes(position.race_rules, position.board, position.opponents, position.rows,
                       exact_max_rows) is not None


def _exact_race3_advice(position: RacePosition, *, table: Path | str | None = None,
                        exact_max_rows: int = EXACT_ON_DEMAND_ROWS, **settings: object) -> Advice:
    boxes = race3_boxes(position.race_rules, position.board, position.opponents, position.rows, exact_max_rows)
    if boxes is None:                           # the chain asks only when _exact_race3_covers
        raise DicemathError(f"no exact three-player race is solved for {position.text}")
    model, now = race3_model(position.race_rules, position.board, position.opponents, boxes)
    return _race_answer(position, model, now, boxes, table)


def _model_race_advice(position: RacePosition, *, table: Path | str | None = None, **settings: object) -> Advice:
    return _race_answer(position, None, None, None, table)


RACE_CHAIN = SourceChain(
    Source("exact race", True,
           f"one opponent, the two boards' open rows together at most exact_max_rows (default "
           f"{EXACT_ON_DEMAND_ROWS}), at most {RACE_MAX_PAIRS:,} pairs of boards reachable from the pair and "
           f"{BOX_MAX_BOARDS:,} a side: the exact race solved on them, both playing to win",
           _exact_race_covers, _exact_race_advice),
    Source("exact three-player race", True,
           f"two opponents, the three boards' open rows together at most exact_max_rows (default "
           f"{EXACT_ON_DEMAND_ROWS}), at most {TRIPLES_MAX:,} triples of boards reachable from the position: the "
           f"exact three-player race solved on them, every player playing to win",
           _exact_race3_covers, _exact_race3_advice),
    Source("turn-count model", False, "any race: the turn-count model on the solo values of solo_chain",
           lambda position, **settings: True, _model_race_advice))
"""The sources of race advice, each limit stated once in its ``covers``: they take a
:class:`RacePosition` and the settings ``table`` (for the solo values, :func:`solo_chain`)
and ``exact_max_rows``."""


def _race_answer(position: RacePosition, model: _RaceTurn | None, now: float | None,
                 boxes: tuple[RaceBox, ...] | None, table: Path | str | None) -> Advice:
    """The advice of a race source: the exact race's ``model`` and value ``now`` on ``boxes``,
    or (None) the turn-count model on the solo values; the solo advice beside it."""
    rules, b, faces, dice, throws = position.rules, position.board, position.roll, position.dice, position.throws
    others = position.opponents
    solo = _solo(rules, b, table)
    solo_rows = solo.checked_ranking(b, faces, dice, throws).rows if position.legal else []
    solo_exact = bool(getattr(solo, "exact", False))
    opponent_solo = [_solo(rules, o, table) for o in others]
    opponent_e = [float(advisor.value(o)) for advisor, o in zip(opponent_solo, others)]
    opponent_r = [float(rest_points(o, rules.goal)) for o in others]
    exact = boxes is not None
    if model is None or now is None:
        laws = [_small_box_laws(rules, o, advisor.value).get(o) for advisor, o in zip(opponent_solo, others)]
        model = race_turn_model(position.race_rules, solo.value,
                                [law or (e, r) for law, e, r in zip(laws, opponent_e, opponent_r)],
                                own_laws=_small_box_laws(rules, b, solo.value))
        now = model._restart(b)
    here = model.end(b)
    after = None if throws is None else throws - 1
    options = []
    for row, hits in position.legal:
        stay, rest = model.race_option(b, row, hits, dice, after)
        options.append((float(stay * here + rest), row, hits))
    ranking = sorted(options, key=lambda o: (-o[0], -o[2], -o[1]))
    objective = position.objective
    pegs = objective == "win"
    solo_by_row = {a.row: a.expected_turns for a in solo_rows}
    advice_options = tuple(Option(row, str(row), value, {"row": row, "hits": hits, "race_value": value,
                                                         "expected_turns": solo_by_row.get(row),
                                                         "solo_exact": solo_exact})
                           for value, row, hits in ranking)
    return Advice(
        game=rules.name, state=position.text, unit=UNITS[objective], higher_is_better=True, exact=exact,
        source="turn-count model" if boxes is None else "exact race" if len(boxes) == 2 else "exact three-player race",
        options=advice_options,
        extras={
            "board": list(b), "roll": sorted(faces), "opponents": [list(o) for o in others],
            "objective": objective,
            "value": ("the mover's probability of finishing first (PEGS-2, FIVES-6)" if pegs else
                      "expected rest points of the opponents (mean, in rounds the mover ends) minus the mover's "
                      "(FIVES-6)"),
            "method": "exact_race" if exact else "turn_count_model",
            "approximation": None if exact else (
                "each player's remaining turns follow his exact law under solo-optimal play when at most "
                f"{LAW_MAX_BOARDS} boards are left for him to reach, else a discrete Weibull law around his expected "
                "turns; opponents independent and solo-optimal" + ("" if pegs else
                "; rest points fall with the expected work left") + (
                "" if all(advisor.exact for advisor in (solo, *opponent_solo)) else
                "; a board's expected turns estimated where no table covers it and it has too many open rows "
                "to solve now")),
            "race_value_now": float(now),
            "race_pairs": None if boxes is None or len(boxes) != 2 else boxes[0].size * boxes[1].size,
            "race_triples": None if boxes is None or len(boxes) != 3 else math.prod(box.size for box in boxes),
            "board_expected_turns": float(solo.value(b)),
            "opponent_expected_turns": opponent_e,
            "solo_sources": [advisor.source for advisor in (solo, *opponent_solo)],
            "race_best": ranking[0][1] if ranking else None,
            "solo_best": solo_rows[0].row if solo_rows else None,
            "differs": bool(ranking) and ranking[0][1] != solo_rows[0].row,
        })


class RacePolicy:
    """The approximate race policy as a policy maker (:mod:`.races`):
    ``maker(own_board, opponent_board) -> Policy`` choosing every row by the turn-count model
    against that opponent (one opponent), the boards valued by ``value`` (expected turns).

    Args:
        rules: the game.
        value: expected turns of a board (e.g. an exact reduced table, or the distilled model).
    """

    def __init__(self, rules: Rules, value: BoardValues) -> None:
        self.rules = rules
        self.value = value
        self._models: dict[BoardTuple, _RaceTurn] = {}

    def model(self, opponent: BoardTuple) -> _RaceTurn:
        m = self._models.get(opponent)
        if m is None:
            if not open_rows_of(opponent, self.rules.goal):
                raise DicemathError("the opponent's board is complete")
            m = self._models[opponent] = race_turn_model(
                self.rules, self.value, [(float(self.value(opponent)), float(rest_points(opponent, self.rules.goal)))])
            m._chosen = {}
        return m

    def choose(self, opponent: BoardTuple, board: BoardTuple, legal: Legal, dice: int, throws: int | None) -> int:
        """The row the policy names (most hits, then the higher row, among equals)."""
        if len(legal) == 1:
            return legal[0][0]
        model = self.model(tuple(opponent))
        key = (board, legal, dice, throws)
        row = model._chosen.get(key)
        if row is None:
            after = None if throws is None else throws - 1
            here = model.end(board)
            best = None
            for r, h in sorted(legal, key=lambda rh: (-rh[1], -rh[0])):
                stay, rest = model.race_option(board, r, h, dice, after)
                v = stay * here + rest
                if best is None or v > best + 1e-12 * (1 + abs(best)):
                    best, row = v, r
            if row is None:                     # not reached: two or more legal rows here
                raise IllegalMoveError(f"no legal row to choose on {board}: legal is {legal!r}")
            model._chosen[key] = row
        return row

    def __call__(self, own: BoardTuple, opponent: BoardTuple) -> Policy:
        return lambda board, legal, dice, throws: self.choose(opponent, board, legal, dice, throws)


def decision_agreement(rules: Rules, open_rows: Sequence[int], *, pairs: int | None = None, seed: int = 0) -> dict:
    """How often the approximate race choice equals the exact one on a reduced board.

    At every turn start of the pairs (all, or ``pairs`` drawn with ``seed``) of the two-player
    race on ``open_rows``, for every choice throw with two or more legal rows, the row of
    :class:`RacePolicy` (the turn-count model on the exact solo values) is compared with the
    exact best response to a solo-optimal opponent (:func:`.race_solver.solve_race_compiled`,
    ``race`` against ``solo``), the opponent the model assumes.

    Returns:
        ``open_rows``, ``pairs``, ``choices`` (throw groups compared), ``agreement`` (the
        chance-weighted share of those choices where the rows agree; a row worth the same as
        the best, within 1e-12, counts as agreeing), ``mean_loss`` (the exact race value the
        approximate row gives up per such choice, chance-weighted), ``max_loss``.
    """
    rows = check_race_rows(rules, open_rows)
    tables = solve_race_compiled(rules, rows, first="race", second="solo", examples=0)
    layout = kernel_tables(rules, rows)["layout"]
    solo = solve_reduced(rules, rows, exact=False).values
    policy = RacePolicy(rules, solo.__getitem__)
    goal = rules.goal
    live = [layout.board(i) for i in range(layout.size) if open_rows_of(layout.board(i), goal)]
    all_pairs = [(a, b) for a in live for b in live]
    if pairs is not None and pairs < len(all_pairs):
        pick = np.random.default_rng(seed).choice(len(all_pairs), pairs, replace=False)
        all_pairs = [all_pairs[i] for i in sorted(pick)]
    solo_policy = SoloOptimal(rules, solo.__getitem__, exact=False)
    weight = agree = loss = worst = solo_agree = solo_loss = 0.0
    count = 0
    total = 6 ** rules.dice
    for a, b in all_pairs:
        ib = layout.index(b)
        win = win_value(rules, b)

        def end(x: BoardTuple, ib: int = ib, win: int = win) -> float:
            return win if not open_rows_of(x, goal) else mirror(rules, float(tables.V2[ib, layout.index(x)]))

        def restart(x: BoardTuple, ib: int = ib, win: int = win) -> float:
            return win if not open_rows_of(x, goal) else float(tables.V1[layout.index(x), ib])

        model = _RaceTurn(rules, end, restart, exact=False)
        here = end(a)
        after = None if rules.throws is None else rules.throws - 1
        for w, legal in grouped_choice_throws(rules.dice, open_rows_of(a, goal)):
            if len(legal) < 2:
                continue
            p = w / total
            values = {}
            for row, h in legal:
                stay, rest = model.race_option(a, row, h, rules.dice, after)
                values[row] = stay * here + rest
            best = max(values.values())
            chosen = policy.choose(b, a, legal, rules.dice, rules.throws)
            gap = best - values[chosen]
            weight += p
            count += 1
            agree += p * (gap <= 1e-12 * (1 + abs(best)))
            loss += p * gap
            worst = max(worst, gap)
            solo_gap = best - values[solo_policy(a, legal, rules.dice, rules.throws)]
            solo_agree += p * (solo_gap <= 1e-12 * (1 + abs(best)))
            solo_loss += p * solo_gap
    return {"open_rows": list(rows), "pairs": len(all_pairs), "choices": count,
            "agreement": agree / weight if weight else 1.0, "mean_loss": loss / weight if weight else 0.0,
            "max_loss": worst, "solo_agreement": solo_agree / weight if weight else 1.0,
            "solo_mean_loss": solo_loss / weight if weight else 0.0}
