"""The doubling cube of money play (docs/rules.md BG-7, BG-8): the cube decision, and the models.

The rules (:mod:`.cube_rules`, imported here): :func:`check_cube` (values 1, 2, ..., 64 and
owners), :func:`may_double`, :func:`takes` and :func:`cube_decision` (double or not, take or
pass, too good), the one statement of the cube decision that every cube computation of the
package calls.

The models start from the *cubeless* outcome probabilities of a position, seen by the
player who may double ("the doubler", on roll):

* ``win``: he wins (any kind), ``win_gammon``: he wins a gammon or backgammon,
  ``win_backgammon``: he wins a backgammon; ``lose_gammon`` and ``lose_backgammon`` the same
  for his losses. The probability of losing is ``1 - win``.

Average values of a win and of a loss (BG-7: single 1, gammon 2, backgammon 3 points)::

    W = (win + win_gammon + win_backgammon) / win
    L = (lose + lose_gammon + lose_backgammon) / lose

Money play, no Jacoby rule, no beavers (BG-8). All equities are per unit of the current
cube value. Floats (float64) throughout: these are models, not exact solutions.

Models
------
Dead cube (the cube can never be turned again). The taker, with average values
``W_t = L`` and ``L_t = W`` seen from his side, takes when his winning chance is at least::

    TP_dead = (L_t - 1/2) / (W_t + L_t)                         (1/4 without gammons)

Live cube (Janowski's fully efficient cube, which for W = L = 1 is the Keeler-Spencer
continuous game)::

    TP_live = (L_t - 1/2) / (W_t + L_t + 1/2)                   (1/5 without gammons)

Janowski's interpolation with cube efficiency ``x`` in [0, 1] (Rick Janowski, "Take-Points
in Money Games", 1993; the same model gnubg uses for its cubeful evaluations): the cubeful
equity is ``E_x = (1 - x) E_dead + x E_live``, so::

    TP(x) = (L_t - 1/2) / (W_t + L_t + x/2)
    CP(x) = 1 - TP(x)           (the doubler's cash point: beyond it the taker passes)

with the cubeless win probability ``p`` as the variable and W, L held fixed:

* ``E_dead(p) = p W - (1 - p) L`` (cubeless equity);
* ``E_live``: piecewise linear through the points where the cube is turned, for the doubler
  with the opponent's cash point ``TP = (L - 1/2)/(W + L + 1/2)`` (his own take point) and his
  cash point ``CP = (L + 1)/(W + L + 1/2)``:

  - cube owned by him: (0, -L) -- (CP, +1) -- (1, W);
  - cube owned by the opponent: (0, -L) -- (TP, -1) -- (1, W);
  - cube centred: (0, -L) -- (TP, -1) -- (CP, +1) -- (1, W).

The doubler's decision (:func:`cube_decision`) compares ``E_x`` (no double) with
double/take ``2 E_x^opp`` (the cube doubled, owned by the opponent) and double/pass ``+1``:
he doubles when ``min(1, 2 E_x^opp) > E_x``; the opponent passes when ``2 E_x^opp > 1``;
the position is "too good" when ``E_x >= 1`` and the opponent would pass. The *doubling point* is the smallest
``p`` at which doubling is right (bisection on the piecewise-linear functions); the *market
window* is ``[doubling point, cash point]``.

Keeler & Spencer ("Optimal doubling in backgammon", Operations Research 23, 1975) treat the
continuous game: the winning chance moves as a continuous martingale, so the cube is turned
exactly when it is efficient. :func:`keeler_spencer` solves that limit numerically (a fine
symmetric random walk of ``p`` with optimal cube play, solved by value iteration) and finds
doubling point 0.8 and take point 0.2.

Example:
    >>> model = CubeModel(CubelessProbabilities(0.72, win_gammon=0.12, lose_gammon=0.03))
    >>> round(model.take_point(efficiency=0.0), 4)  # dead cube: (7/6 - 1/2) / (31/28 + 7/6)
    0.2932
    >>> round(CubeModel(CubelessProbabilities(0.5)).take_point(efficiency=1.0), 4)
    0.2
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from typing import Any, overload

import numpy as np
import numpy.typing as npt

from dicemath.core.errors import InvalidProbabilityError, InvalidStateError  # noqa: F401 (re-exported)
from dicemath.games.backgammon._cube_kernels import decide_all
from dicemath.games.backgammon.cube_rules import (
    ACTIONS, CUBE_OWNERS, DOUBLE_PASS, DOUBLE_TAKE, MAX_CUBE, NO_DOUBLE, TIE_TOLERANCE, TOO_GOOD, VERDICTS, check_cube,  # noqa: F401 (re-exported)
    cube_decision, may_double, takes)  # noqa: F401 (re-exported)

FloatArray = npt.NDArray[np.float64]
"""An array of floats (the vectorised forms of the cube functions)."""

CUBE_STATES = ("centred", "owned", "opponent_owned")
"""The three cube positions of the models and tables, seen by the player on roll (the would-be doubler)."""

DEFAULT_EFFICIENCY = 0.68
"""Janowski cube efficiency used when none is given (gnubg's default for contact positions)."""


class InvalidCubeStateError(InvalidProbabilityError):
    """A cube state name that is not one of :data:`CUBE_STATES`, or an efficiency outside [0, 1]."""


@dataclass(frozen=True)
class CubelessProbabilities:
    """Cubeless outcome probabilities of the player on roll (BG-7).

    Args:
        win: probability that he wins (single, gammon or backgammon).
        win_gammon: probability that he wins a gammon or backgammon (<= ``win``).
        win_backgammon: probability that he wins a backgammon (<= ``win_gammon``).
        lose_gammon: probability that he loses a gammon or backgammon (<= ``1 - win``).
        lose_backgammon: probability that he loses a backgammon (<= ``lose_gammon``).

    Raises:
        InvalidProbabilityError: a value that is not a finite number in [0, 1], gammons above
            wins (or backgammons above gammons), or win + lose_gammon summing over 1.
    """

    win: float
    win_gammon: float = 0.0
    win_backgammon: float = 0.0
    lose_gammon: float = 0.0
    lose_backgammon: float = 0.0

    def __post_init__(self) -> None:
        tolerance = 1e-12
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
            value = getattr(self, name)
            try:
                value = float(value)
            except (TypeError, ValueError):
                raise InvalidProbabilityError(f"{name} must be a number, got {value!r}") from None
            if not math.isfinite(value) or value < -tolerance or value > 1 + tolerance:
                raise InvalidProbabilityError(f"{name} must be a probability in [0, 1], got {value!r}")
            object.__setattr__(self, name, min(max(value, 0.0), 1.0))
        if self.win_gammon > self.win + tolerance:
            raise InvalidProbabilityError(
                f"win_gammon {self.win_gammon} exceeds win {self.win} (gammons are wins)")
        if self.win_backgammon > self.win_gammon + tolerance:
            raise InvalidProbabilityError(
                f"win_backgammon {self.win_backgammon} exceeds win_gammon {self.win_gammon}")
        if self.win + self.lose_gammon > 1 + tolerance:
            raise InvalidProbabilityError(
                f"win {self.win} + lose_gammon {self.lose_gammon} sum over 1 "
                "(gammon losses are losses)")
        if self.lose_backgammon > self.lose_gammon + tolerance:
            raise InvalidProbabilityError(
                f"lose_backgammon {self.lose_backgammon} exceeds lose_gammon {self.lose_gammon}")

    @property
    def lose(self) -> float:
        """Probability that the player on roll loses."""
        return 1.0 - self.win

    @property
    def average_win(self) -> float:
        """W: points won per win (1 when he never wins; 1..3)."""
        if self.win <= 0:
            return 1.0
        return (self.win + self.win_gammon + self.win_backgammon) / self.win

    @property
    def average_loss(self) -> float:
        """L: points lost per loss (1 when he never loses; 1..3)."""
        if self.lose <= 0:
            return 1.0
        return (self.lose + self.lose_gammon + self.lose_backgammon) / self.lose

    @property
    def cubeless_equity(self) -> float:
        """Cubeless equity of the player on roll, per unit stake."""
        return (self.win + self.win_gammon + self.win_backgammon
                - self.lose - self.lose_gammon - self.lose_backgammon)

    def swapped(self) -> "CubelessProbabilities":
        """The same probabilities seen by the opponent."""
        return CubelessProbabilities(self.lose, self.lose_gammon, self.lose_backgammon,
                                     self.win_gammon, self.win_backgammon)


def _check_efficiency(x: float) -> float:
    x = float(x)
    if not (0.0 <= x <= 1.0):
        raise InvalidCubeStateError(f"cube efficiency must be in [0, 1], got {x!r}")
    return x


def _check_cube(cube: str) -> str:
    if cube not in CUBE_STATES:
        raise InvalidCubeStateError(f"cube must be one of {CUBE_STATES}, got {cube!r}")
    return cube


@overload
def take_point(average_win_taker: float, average_loss_taker: float, efficiency: float) -> float: ...
@overload
def take_point(average_win_taker: npt.ArrayLike, average_loss_taker: npt.ArrayLike,
               efficiency: npt.ArrayLike) -> float | FloatArray: ...
def take_point(average_win_taker: npt.ArrayLike, average_loss_taker: npt.ArrayLike,
               efficiency: npt.ArrayLike) -> float | FloatArray:
    """Janowski's take point: the taker's minimum winning chance to take (vectorised).

    Args:
        average_win_taker: W_t, points the taker wins per win (>= 1).
        average_loss_taker: L_t, points he loses per loss (>= 1).
        efficiency: cube efficiency x in [0, 1] (0 dead cube, 1 fully live).

    Returns:
        ``(L_t - 1/2) / (W_t + L_t + x/2)`` (Janowski 1993).

    >>> take_point(1.0, 1.0, 0.0), take_point(1.0, 1.0, 1.0)
    (0.25, 0.2)
    """
    w = np.asarray(average_win_taker, dtype=float)
    lo = np.asarray(average_loss_taker, dtype=float)
    result = (lo - 0.5) / (w + lo + 0.5 * np.asarray(efficiency, dtype=float))
    return float(result) if result.ndim == 0 else result


@overload
def janowski_equity(p: float, efficiency: float, cube: str = ..., average_win: float = ...,
                    average_loss: float = ...) -> float: ...
@overload
def janowski_equity(p: npt.NDArray[Any], efficiency: npt.ArrayLike, cube: str = ..., average_win: npt.ArrayLike = ...,
                    average_loss: npt.ArrayLike = ...) -> FloatArray: ...
@overload
def janowski_equity(p: npt.ArrayLike, efficiency: npt.ArrayLike, cube: str = ..., average_win: npt.ArrayLike = ...,
                    average_loss: npt.ArrayLike = ...) -> float | FloatArray: ...
def janowski_equity(p: npt.ArrayLike, efficiency: npt.ArrayLike, cube: str = "centred",
                    average_win: npt.ArrayLike = 1.0, average_loss: npt.ArrayLike = 1.0) -> float | FloatArray:
    """Janowski's cubeful equity (no double now) as a function of the win chance ``p``.

    Vectorised over ``p`` (and the other arguments) with numpy broadcasting.

    Args:
        p: cubeless winning chance(s) of the player on roll, in [0, 1].
        efficiency: cube efficiency x in [0, 1].
        cube: "centred", "owned" (by the player on roll) or "opponent_owned".
        average_win: W of the player on roll.
        average_loss: L of the player on roll.

    Returns:
        ``(1 - x) E_dead(p) + x E_live(p)`` per unit cube (float or array).

    Raises:
        InvalidCubeStateError: unknown ``cube`` or ``efficiency`` outside [0, 1].

    >>> round(janowski_equity(0.6, 1.0, "centred"), 6), round(janowski_equity(0.8, 1.0, "owned"), 6)
    (0.333333, 1.0)
    """
    _check_cube(cube)
    x = np.asarray(efficiency, dtype=float)
    if np.any((x < 0) | (x > 1)):
        raise InvalidCubeStateError(f"cube efficiency must be in [0, 1], got {efficiency!r}")
    p = np.asarray(p, dtype=float)
    w = np.asarray(average_win, dtype=float)
    lo = np.asarray(average_loss, dtype=float)
    dead = p * (w + lo) - lo
    tp = (lo - 0.5) / (w + lo + 0.5)       # opponent's cash point = own take point
    cp = (lo + 1.0) / (w + lo + 0.5)       # own cash point
    with np.errstate(divide="ignore", invalid="ignore"):
        low = -lo + (lo - 1.0) * p / tp                     # (0,-L) -- (TP,-1)
        mid = -1.0 + 2.0 * (p - tp) / (cp - tp)             # (TP,-1) -- (CP,1)
        high = 1.0 + (w - 1.0) * (p - cp) / (1.0 - cp)      # (CP,1) -- (1,W)
        own_low = -lo + (lo + 1.0) * p / cp                 # (0,-L) -- (CP,1)
        opp_high = -1.0 + (w + 1.0) * (p - tp) / (1.0 - tp)  # (TP,-1) -- (1,W)
    if cube == "centred":
        live = np.where(p < tp, low, np.where(p < cp, mid, high))
    elif cube == "owned":
        live = np.where(p < cp, own_low, high)
    else:
        live = np.where(p < tp, low, opp_high)
    result = (1.0 - x) * dead + x * live
    return float(result) if result.ndim == 0 else result


@overload
def cube_action(no_double: float, double_take: float, may_double: bool = ...) -> tuple[int, float]: ...  # noqa: F811
@overload
def cube_action(no_double: npt.NDArray[Any], double_take: npt.ArrayLike,
                may_double: npt.ArrayLike = ...) -> tuple[npt.NDArray[np.int64], FloatArray]: ...  # noqa: F811
@overload
def cube_action(no_double: npt.ArrayLike, double_take: npt.ArrayLike,
                may_double: npt.ArrayLike = ...) -> tuple[int, float] | tuple[npt.NDArray[np.int64], FloatArray]: ...  # noqa: F811
def cube_action(no_double: npt.ArrayLike, double_take: npt.ArrayLike, may_double: npt.ArrayLike = True,  # noqa: F811 (shadows the import)
                ) -> tuple[int, float] | tuple[npt.NDArray[np.int64], FloatArray]:
    """:func:`cube_decision` for numbers or arrays (the cube at stake 1: double/pass is +1).

    Arrays go through the compiled decision (C, :func:`~._cube_kernels.decide_all`).

    Args:
        no_double: equity if the player does not double now.
        double_take: equity if he doubles and the opponent takes.
        may_double: whether he may double at all (False when the opponent owns the cube).

    Returns:
        ``(codes, equity)``: codes index :data:`ACTIONS`; equity with the optimal action.

    >>> cube_action(0.4, 0.6)
    (1, 0.6)
    >>> cube_action(0.9, 1.4)
    (2, 1.0)
    """
    nd, dt, may = (np.array(a) for a in np.broadcast_arrays(np.asarray(no_double, dtype=float),
                                                          np.asarray(double_take, dtype=float),
                                                          np.asarray(may_double, dtype=bool)))
    if nd.ndim == 0:
        code, equity = cube_decision(float(nd), float(dt), 1.0, bool(may), TIE_TOLERANCE)
        return int(code), float(equity)
    codes, equity = np.empty(nd.shape, dtype=np.int64), np.empty(nd.shape)
    decide_all(nd.ravel(), dt.ravel(), may.ravel(), TIE_TOLERANCE, codes.reshape(-1), equity.reshape(-1))
    return codes, equity


@dataclass(frozen=True)
class CubeModel:
    """Cube decisions of the player on roll for given cubeless probabilities (BG-8).

    Args:
        probabilities: the cubeless outcome probabilities of the player on roll.

    Example:
        >>> model = CubeModel(CubelessProbabilities(0.5))
        >>> model.take_point(0.0), round(model.cash_point(1.0), 6)
        (0.25, 0.8)
    """

    probabilities: CubelessProbabilities

    @property
    def W(self) -> float:  # noqa: N802 - the standard name
        """Average points per win of the player on roll."""
        return self.probabilities.average_win

    @property
    def L(self) -> float:  # noqa: N802
        """Average points per loss of the player on roll."""
        return self.probabilities.average_loss

    def take_point(self, efficiency: float = DEFAULT_EFFICIENCY) -> float:
        """The opponent's minimum winning chance to take a double (his perspective)."""
        return take_point(self.L, self.W, _check_efficiency(efficiency))

    def dead_take_point(self) -> float:
        """Take point with a dead cube: ``(L_t - 1/2) / (W_t + L_t)``."""
        return self.take_point(0.0)

    def live_take_point(self) -> float:
        """Take point with a fully live cube: ``(L_t - 1/2) / (W_t + L_t + 1/2)``."""
        return self.take_point(1.0)

    def cash_point(self, efficiency: float = DEFAULT_EFFICIENCY) -> float:
        """The doubler's winning chance above which the opponent passes: ``1 - TP``."""
        return 1.0 - self.take_point(efficiency)

    def own_take_point(self, efficiency: float = DEFAULT_EFFICIENCY) -> float:
        """The player on roll's own take point (his minimum chance to take a double)."""
        return take_point(self.W, self.L, _check_efficiency(efficiency))

    def equity(self, cube: str = "centred", efficiency: float = DEFAULT_EFFICIENCY,
               p: float | None = None) -> float:
        """Janowski cubeful equity without doubling now, at ``p`` (default: the actual win)."""
        p = self.probabilities.win if p is None else p
        return janowski_equity(p, _check_efficiency(efficiency), cube, self.W, self.L)

    def double_take_equity(self, efficiency: float = DEFAULT_EFFICIENCY,
                           p: float | None = None) -> float:
        """Equity per current cube if he doubles and the opponent takes: ``2 E^opp``."""
        return 2.0 * self.equity("opponent_owned", efficiency, p)

    def action(self, cube: str = "centred", efficiency: float = DEFAULT_EFFICIENCY,
               p: float | None = None) -> tuple[str, float]:
        """The optimal cube action and the equity with it.

        Args:
            cube: "centred", "owned" or "opponent_owned" (then he cannot double).
            efficiency: cube efficiency x.
            p: win chance to evaluate at (default: the actual one).

        Returns:
            ``(action name from ACTIONS, equity per unit cube)``.
        """
        _check_cube(cube)
        code, equity = cube_action(self.equity(cube, efficiency, p), self.double_take_equity(efficiency, p),
                                   cube != "opponent_owned")
        return ACTIONS[code], equity

    def doubling_point(self, efficiency: float = DEFAULT_EFFICIENCY, cube: str = "centred") -> float:
        """Smallest win chance at which doubling is at least as good as not (``cube`` "centred"
        or "owned").

        Found by a grid scan and bisection on the piecewise-linear Janowski equities; returns
        ``nan`` if doubling is never right (for example gammonish positions where every
        double is either premature or too good).
        """
        if cube not in ("centred", "owned"):
            raise InvalidCubeStateError(f"only a centred or owned cube can be turned, got {cube!r}")
        x = _check_efficiency(efficiency)

        def gain(q: npt.ArrayLike) -> FloatArray:
            nd = janowski_equity(q, x, cube, self.W, self.L)
            dt = 2.0 * janowski_equity(q, x, "opponent_owned", self.W, self.L)
            return np.where(takes(dt), dt, 1.0) - nd

        grid = np.linspace(0.0, 1.0, 2001)
        values = gain(grid)
        positive = np.nonzero(values >= -1e-12)[0]
        if positive.size == 0:
            return float("nan")
        k = positive[0]
        if k == 0:
            return 0.0
        lo, hi = grid[k - 1], grid[k]
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            if gain(mid) >= -1e-12:
                hi = mid
            else:
                lo = mid
        return float(hi)

    def market_window(self, efficiency: float = DEFAULT_EFFICIENCY) -> tuple[float, float]:
        """``(doubling point, cash point)`` of the player on roll with the cube centred."""
        return self.doubling_point(efficiency), self.cash_point(efficiency)

    def _repr_markdown_(self) -> str:
        """A small table of the model's numbers at the default efficiency (for notebooks)."""
        summary = model_summary(self.probabilities.win, self.probabilities.win_gammon,
                                self.probabilities.win_backgammon, self.probabilities.lose_gammon,
                                self.probabilities.lose_backgammon)
        lines = ["| quantity | value |", "| :--- | ---: |"]
        for key, value in summary.items():
            if isinstance(value, dict):
                continue
            lines.append(f"| {key} | {value:.4f} |" if isinstance(value, float) else f"| {key} | {value} |")
        return "\n".join(lines)


def model_summary(win: float, gammon: float = 0.0, backgammon: float = 0.0, lose_gammon: float = 0.0,
                  lose_backgammon: float = 0.0, *, efficiency: float | None = None) -> dict[str, Any]:
    """Everything the cube models say about one position, as a JSON-ready dict.

    Keys: ``win``, ``gammon``, ``backgammon``, ``lose_gammon``, ``lose_backgammon``,
    ``average_win``, ``average_loss``, ``cubeless_equity``, ``efficiency``,
    ``take_point`` (the opponent's, at ``efficiency``), ``take_point_dead``,
    ``take_point_live``, ``cash_point``, ``doubling_point``, ``redoubling_point``,
    ``cubeful_equity`` (centred cube, optimal action now), ``no_double`` (equities without
    doubling for the three cube states), ``double_take``, ``action`` (centred cube).

    Raises:
        InvalidProbabilityError: invalid probabilities (see :class:`CubelessProbabilities`).

    >>> summary = model_summary(0.5, efficiency=1.0)
    >>> summary["take_point"], summary["action"]
    (0.2, 'no double')
    """
    x = DEFAULT_EFFICIENCY if efficiency is None else _check_efficiency(efficiency)
    probabilities = CubelessProbabilities(win, gammon, backgammon, lose_gammon, lose_backgammon)
    model = CubeModel(probabilities)
    action, equity = model.action("centred", x)

    def clean(value: float) -> float | None:
        return None if math.isnan(value) else float(value)

    return {
        "win": probabilities.win,
        "gammon": probabilities.win_gammon,
        "backgammon": probabilities.win_backgammon,
        "lose_gammon": probabilities.lose_gammon,
        "lose_backgammon": probabilities.lose_backgammon,
        "average_win": model.W,
        "average_loss": model.L,
        "cubeless_equity": probabilities.cubeless_equity,
        "efficiency": x,
        "take_point": model.take_point(x),
        "take_point_dead": model.dead_take_point(),
        "take_point_live": model.live_take_point(),
        "cash_point": model.cash_point(x),
        "doubling_point": clean(model.doubling_point(x)),
        "redoubling_point": clean(model.doubling_point(x, "owned")),
        "cubeful_equity": equity,
        "no_double": {cube: model.equity(cube, x) for cube in CUBE_STATES},
        "double_take": model.double_take_equity(x),
        "action": action,
    }


@dataclass(frozen=True)
class KeelerSpencerSolution:
    """The continuous-game cube solved on a grid: equities per unit cube and the cube points.

    Attributes:
        p: the grid of winning chances of player A, ``k / steps``.
        centred, owned, opponent_owned: A's equities (per unit cube) on the grid.
        doubling_point: where A first doubles with the cube centred (interpolated).
        take_point: B's smallest winning chance at which he still takes (interpolated).
        iterations: value-iteration sweeps used.
    """

    p: np.ndarray
    centred: np.ndarray
    owned: np.ndarray
    opponent_owned: np.ndarray
    doubling_point: float
    take_point: float
    iterations: int


def keeler_spencer(steps: int = 50, tolerance: float = 1e-11,
                   max_iterations: int = 200_000) -> KeelerSpencerSolution:
    """Solve Keeler & Spencer's continuous doubling game numerically (float64).

    The winning chance ``p`` of player A is a martingale; on the grid ``k / steps`` it moves
    one step up or down with probability 1/2 each (the discrete version of Brownian motion),
    and 0 and 1 end the game (A loses or wins 1 per unit cube; no gammons). Before each step
    the owner of the cube (or either player when it is centred) may double; the opponent
    takes (cube doubled, he owns it) or passes (BG-8, money play). With A's equities per unit
    cube ``O`` (A owns), ``X`` (B owns), ``C`` (centred), value iteration solves::

        O = max(step(O), min(1, 2 X))
        X = min(step(X), max(-1, 2 O))
        C = step(C), raised to min(1, 2 X) if A gains by doubling,
                     lowered to max(-1, 2 O) if B gains by doubling

    where ``step(E)(k) = (E(k-1) + E(k+1)) / 2``. As ``steps`` grows the doubling point tends
    to 0.8 and the take point to 0.2 (Keeler & Spencer 1975), within about ``1 / steps``.

    Args:
        steps: grid intervals (>= 10).
        tolerance: stop when no equity changes by more than this in a sweep.
        max_iterations: safety bound on sweeps.

    Returns:
        A :class:`KeelerSpencerSolution`.

    Raises:
        InvalidProbabilityError: ``steps`` below 10.

    >>> solution = keeler_spencer(40)
    >>> abs(solution.doubling_point - 0.8) < 0.03, abs(solution.take_point - 0.2) < 0.03
    (True, True)
    """
    if steps < 10:
        raise InvalidProbabilityError(f"keeler_spencer needs at least 10 grid steps, got {steps}")
    p = np.linspace(0.0, 1.0, steps + 1)
    # Start from the cubeless equity 2p - 1 (any start converges; this one is close).
    owned = 2 * p - 1
    opp = owned.copy()
    centred = owned.copy()
    iterations = 0
    for iterations in range(1, max_iterations + 1):  # noqa: B007 (the count is read after the loop)
        new_owned = owned.copy()
        new_opp = opp.copy()
        new_centred = centred.copy()
        new_owned[1:-1] = np.maximum(0.5 * (owned[:-2] + owned[2:]), np.minimum(1.0, 2 * opp[1:-1]))
        new_opp[1:-1] = np.minimum(0.5 * (opp[:-2] + opp[2:]), np.maximum(-1.0, 2 * owned[1:-1]))
        cont = 0.5 * (centred[:-2] + centred[2:])
        cont = np.maximum(cont, np.minimum(1.0, 2 * opp[1:-1]))
        new_centred[1:-1] = np.minimum(cont, np.maximum(-1.0, 2 * owned[1:-1]))
        change = max(np.max(np.abs(new_owned - owned)), np.max(np.abs(new_opp - opp)),
                     np.max(np.abs(new_centred - centred)))
        owned, opp, centred = new_owned, new_opp, new_centred
        if change < tolerance:
            break
    # Doubling point: first root of (double/take value) - (continuation) for A, centred cube.
    continuation = np.concatenate([[-1.0], 0.5 * (centred[:-2] + centred[2:]), [1.0]])
    gain = np.minimum(1.0, 2 * opp) - continuation
    doubling_point = _first_crossing(p, gain, 1, steps)
    # Take point: B takes at A's chance p while 2 X(p) <= 1; the largest such p is A's cash
    # point, and B's take point is 1 minus it.
    take_gain = 1.0 - 2 * opp
    cash = _last_crossing(p, take_gain)
    return KeelerSpencerSolution(p, centred, owned, opp, doubling_point, 1.0 - cash, iterations)


def keeler_spencer_points(steps: int = 40) -> tuple[float, float]:
    """Keeler-Spencer doubling and take points extrapolated to the continuous limit.

    The grid doubling point approaches 0.8 like ``0.8 - c / steps``; Richardson
    extrapolation from ``steps`` and ``2 * steps`` removes that first-order error.

    Returns:
        ``(doubling point, take point)``.

    >>> dp, tp = keeler_spencer_points(20)
    >>> round(dp, 3), round(tp, 3)
    (0.8, 0.2)
    """
    coarse, fine = keeler_spencer(steps), keeler_spencer(2 * steps)
    return (2 * fine.doubling_point - coarse.doubling_point,
            2 * fine.take_point - coarse.take_point)


def _first_crossing(p: FloatArray, values: FloatArray, start: int, stop: int) -> float:
    """Linear interpolation of the first index in [start, stop) where values turns >= 0."""
    for k in range(start, stop):
        if values[k] >= -1e-12:
            if k == start or values[k - 1] >= 0:
                return float(p[k])
            a, b = values[k - 1], values[k]
            return float(p[k - 1] + (p[k] - p[k - 1]) * (-a) / (b - a))
    return float("nan")


def _last_crossing(p: FloatArray, values: FloatArray) -> float:
    """Linear interpolation of the last point where a decreasing ``values`` is still >= 0."""
    nonneg = np.nonzero(values >= -1e-12)[0]
    k = nonneg[-1]
    if k + 1 >= len(p) or values[k] == 0:
        return float(p[k])
    a, b = values[k], values[k + 1]
    return float(p[k] + (p[k + 1] - p[k]) * a / (a - b))


def fit_efficiency(p: npt.ArrayLike, equities: npt.ArrayLike, cube: str = "centred",
                   average_win: npt.ArrayLike = 1.0, average_loss: npt.ArrayLike = 1.0,
                   weights: npt.ArrayLike | None = None) -> tuple[float, float, float]:
    """The Janowski cube efficiency x that best explains observed cubeful equities.

    Least squares over x in [0, 1] (bounded scalar minimisation, scipy) of
    ``janowski_equity(p, x, cube) - equities``.

    Args:
        p: cubeless winning chances (array).
        equities: cubeful equities without doubling now, same shape.
        cube: which cube state the equities belong to.
        average_win, average_loss: W and L (1 for races without gammons).
        weights: optional non-negative weights.

    Returns:
        ``(x, rms error, max abs error)``.

    >>> q = np.linspace(0, 1, 101)
    >>> x, rms, worst = fit_efficiency(q, janowski_equity(q, 0.6, "owned"), "owned")
    >>> round(x, 4), rms < 1e-6
    (0.6, True)
    """
    from scipy.optimize import minimize_scalar

    _check_cube(cube)
    p = np.asarray(p, dtype=float)
    equities = np.asarray(equities, dtype=float)
    w = np.ones_like(p) if weights is None else np.asarray(weights, dtype=float)

    def loss(x: float) -> float:
        r = janowski_equity(p, x, cube, average_win, average_loss) - equities
        return float(np.sum(w * r * r) / np.sum(w))

    best = minimize_scalar(loss, bounds=(0.0, 1.0), method="bounded",
                           options={"xatol": 1e-7})
    x = float(best.x)
    r = janowski_equity(p, x, cube, average_win, average_loss) - equities
    return x, float(np.sqrt(np.sum(w * r * r) / np.sum(w))), float(np.max(np.abs(r)))
