"""Estimated game-optimal play at tables too large to solve: 5 to 8 players (PIT-1..PIT-8).

**Where it is exact.** :func:`.table_solver.solve_table` solves any table whose work fits
:data:`.table_solver.MAX_WORK`: 2 to 4 players from 9 stripes, 5 players from at most 3
stripes (cap stripes + 1) ... Those answers are exact (float64). Beyond, this module
*estimates*, and says so (``exact`` is False).

**The estimate: one exact round, estimated values after it.** The round being played is
solved exactly (:mod:`.table_round`: every player maximises his own value of the round's
end, seeing the best throw, its holders, penalties, eliminations and the limit), so the
decision rules of PIT-4..PIT-8 are all respected. Only the *values of the states the round
leads to* are estimated, by a Luce (softmax) model

    P(position k wins) = exp(s(a_k, f_k) + d_n(k)) / sum_j exp(s(a_j, f_j) + d_n(j)),

with a *strength* ``s`` per stripe count and has-wiped flag and a small effect ``d`` of the
turn position. Why this form: if every player's time to finish were exponential with rate
``exp(s)``, independent of the others, the first to finish would be exactly Luce-distributed,
whatever the number of players; strengths measured at one table size carry over to another.
The strengths are fitted (least squares on the log-ratios ``log P_k / P_0``) to the exact
four-player solution with the same rules and cap (:func:`fit_strengths`); the position effects
of four players are stretched over n positions. After an elimination, tables of at most
``exact_upto`` players read their exact values (see :func:`estimate_table`).

**How good.** Measured where both can be run (:func:`measure_estimate`): the error of the
estimated values, and the *loss* of a player (seat 0) who decides by the estimate while the
others play exactly. By the performance-difference identity his loss of P(win the game) is
the expected sum, over his decisions in games played that way, of the exact value he gives
up at each (the exact best choice minus the exact value of his choice), which a simulation
estimates with a small standard error. Round-optimal play (:class:`RoundMaximiser`, blind to
the stripes) is the yardstick:

=====================================  ==============  ========================  ==================
table (fit)                            value error     loss of the estimate      loss, round-optimal
=====================================  ==============  ========================  ==================
5 players, 2 stripes (fit: 4 players)  max .028, mean  3.0e-5 +- 0.4e-5 (111 of  1.5e-3 +- 0.1e-3
                                       .010            8,765 decisions differ)
5 players, 3 stripes (fit: 4 players)  max .033, mean  3.9e-5 +- 1.1e-5 (25 of
                                       .013            12,612)
4 players, 9 stripes (fit: 3 players)  max .055, mean  5.5e-5 +- 0.8e-5 (144 of   2.4e-3 +- 0.2e-3
                                       .022; opening   45,038)
                                       1.4e-3
=====================================  ==============  ========================  ==================

(3,000 simulated games each, 1,000 for round-optimal play at four; with the fit to three
players instead of four, the loss at five players from 2 stripes is 1.2e-4, so the fit uses
the largest exact solution.) The estimate recovers about 98% of what game-optimal play gains
over round-optimal play where this can be checked; at six to eight players it is an
extrapolation of the same model.

Float64; the estimates carry no error bound.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.rules import STANDARD, Rules, check_players
from dicemath.games.pitjesbak.table_solver import (
    DEFAULT_CAP_EXTRA,
    TableSolution,
    TableValues,
    solve_table,
    two_player_cap,
    two_player_solution,
)
from dicemath.games.pitjesbak.table_luce import fit_luce, luce_values
from dicemath.games.pitjesbak.table_round import TableRound, solve_table_round

FIT_PLAYERS = 4
"""The players of the exact solution the strengths are fitted to."""


@dataclass(frozen=True)
class Strengths:
    """A fitted Luce model of game values (see the module text).

    Attributes:
        rules: the rules of the exact solution it was fitted to.
        cap: stripe counts above are read as the cap.
        strength: ``strength[(a - 1) * 2 + flag]`` for stripes ``a`` 1..cap.
        position: effects of the turn positions of the solution fitted to (position 0: 0).
        fit_error: largest and mean absolute error of the fit on its own solution.
    """

    rules: Rules
    cap: int
    strength: np.ndarray
    position: np.ndarray
    fit_error: tuple[float, float]

    def delta(self) -> np.ndarray:
        """``delta[c, k]``: position effect of turn position ``k`` at a table of ``c`` players
        (the fitted effects stretched over ``c`` positions)."""
        m = len(self.position)
        out = np.zeros((9, 8))
        for c in range(2, 9):
            x = np.arange(c) * (m - 1) / (c - 1)
            out[c, :c] = np.interp(x, np.arange(m), self.position)
        return out

    def values(self, stripes: Sequence[int], wiped: Sequence[bool]) -> np.ndarray:
        """The estimated P(each position wins) at the start of a round (turn order)."""
        n = len(stripes)
        scores = np.array([self.strength[(min(a, self.cap) - 1) * 2 + int(bool(f))]
                           for a, f in zip(stripes, wiped)]) + self.delta()[n, :n]
        weights = np.exp(scores - scores.max())
        return weights / weights.sum()


SHIPPED = {
    ("traditional", 9, 11, 4): (
        (-1.0147758379198721, 2.5309839257425635, -1.0147758379198721, 1.754706228487735, -1.0147758379198721,
         1.2792926674765357, -1.0147758379198721, 0.7847652926591929, -1.0147758379198721, 0.38031189125885323,
         -1.0147758379198721, 0.04911224061213577, -1.0147758379198721, -0.24341223594608005, -1.0147758379198721,
         -0.4843769933581484, -1.0147758379198721, -0.6765203650143001, -1.2162738383415737, -0.8283207544083661,
         -1.372791056039742, -0.9427011652089323),
        (0.0, -0.03216605868177602, -0.05489627251883006, -0.06613770718501531),
        (0.08052146707930796, 0.008735249475423415)),
}
"""The strengths :func:`fit_strengths` fits for the default rules (traditional values, 9
stripes, cap 11, from the exact four-player solution), kept here so that an estimate at a large
table needs no four-player solve (a minute); a slow test checks them against a fresh fit.
Key: (die values, stripes, cap, players fitted to)."""


STRENGTHS_FORMAT = 1
"""The format version of the cache entries ``pitjesbak-estimate-strengths``: change it when its computation
or layout changes."""


def fit_strengths(rules: Rules | None = None, *, cap: int | None = None, players: int = FIT_PLAYERS,
                  use_cache: bool = True, fresh: bool = False) -> Strengths:
    """Fit the Luce strengths to the exact solution at a table of ``players`` (default
    :data:`FIT_PLAYERS`) of ``rules`` (stripes, die values; solved by
    :func:`.table_solver.solve_table` or read from the cache).

    Example:
        >>> fitted = fit_strengths(Rules(stripes=1), cap=2, use_cache=False)
        >>> bool(fitted.strength[0] > fitted.strength[2])   # 1 stripe (wiped) beats 2
        True
    """
    rules = (rules or STANDARD).with_players(players)
    cap = cap if cap is not None else rules.stripes + DEFAULT_CAP_EXTRA
    shipped = SHIPPED.get((rules.die_values, rules.stripes, cap, players))
    if shipped is not None and not fresh:
        strength, position, error = shipped
        return Strengths(rules, cap, np.array(strength), np.array(position), error)
    source = solve_table(rules, cap=cap, use_cache=use_cache)

    def build():
        strength, position = fit_luce(source.values, players, cap, rules.stripes)
        error = np.abs(luce_values(strength, position, players, cap, rules.stripes) - source.values)
        return {"strength": strength, "position": position, "error": np.array([error.max(), error.mean()])}

    arrays = cached_arrays("pitjesbak-estimate-strengths", (rules, cap), build,
                           format_version=STRENGTHS_FORMAT, use_cache=use_cache)
    return Strengths(rules, cap, arrays["strength"], arrays["position"],
                     (float(arrays["error"][0]), float(arrays["error"][1])))


@dataclass(frozen=True, eq=False)
class EstimateSolution(TableValues):
    """Estimated game values and advice at a table of ``players`` (see the module text);
    used like a :class:`.table_solver.TableSolution` (``exact`` is False).

    Attributes:
        rules: the rules (players, starting stripes, die values).
        strengths: the fitted Luce model.
        subgames: exact solutions at tables of 2..``exact_upto`` players (after eliminations).
        exact_upto: tables of at most this many players use exact values.
    """

    rules: Rules
    strengths: Strengths
    subgames: dict
    exact_upto: int = 1
    _rounds: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def exact(self) -> bool:
        """False: an estimate."""
        return False

    @property
    def cap(self) -> int:
        """No stripe count is refused: counts above the model's cap are read as the cap."""
        return 10 ** 6

    def _smaller(self, players: int):
        if self.exact_upto < players < self.players:
            return EstimateSolution(self.rules.with_players(players), self.strengths, self.subgames, self.exact_upto)
        return super()._smaller(players)

    def _next_values(self) -> tuple:
        s = self.strengths
        return np.zeros((1, 1, self.players)), 1, self.exact_upto, s.strength, s.delta(), s.cap

    def value(self, stripes: Sequence[int], wiped: Sequence[bool]) -> tuple[float, ...]:
        """Estimated P(each turn position wins) at the start of a round: the round played out
        against the estimated values after it."""
        return self.round_at(stripes, wiped).values


def estimate_table(rules: Rules | None = None, *, exact_upto: int | None = None,
                   strengths: Strengths | None = None, use_cache: bool = True) -> EstimateSolution:
    """The estimate for a table of ``rules.players`` players (5..8 typically; any 2..8 works,
    for comparisons).

    Args:
        rules: the rules (players, starting stripes, die values).
        exact_upto: tables of at most this many players (after eliminations) use exact
            values, 1..4 (1: none). Default: 3 at a table of four; from five players up 1:
            one elimination leaves a table that is estimated anyway, and a round that puts two
            or more players out (a few in 10,000) changes the values by about 1e-6, not worth
            the exact solves on a first question.
        strengths: the Luce model (default :func:`fit_strengths` of ``rules``).
        use_cache: use the on-disk cache for the exact solutions and the fit.

    Raises:
        InvalidRulesError: players outside 2..8.
        InvalidStateError: ``exact_upto`` outside 1..4.
    """
    rules = rules or STANDARD
    check_players(rules.players)
    if exact_upto is None:
        exact_upto = 3 if rules.players == 4 else 1
    if isinstance(exact_upto, bool) or exact_upto not in (1, 2, 3, 4):
        raise InvalidStateError(f"exact_upto must be 1..4, got {exact_upto!r}")
    strengths = strengths or fit_strengths(rules, use_cache=use_cache)
    cap = strengths.cap
    subgames: dict = {}
    if exact_upto >= 2:
        subgames[2] = two_player_solution(rules, two_player_cap(rules, cap), use_cache=use_cache)
    for k in range(3, exact_upto + 1):
        subgames[k] = solve_table(rules.with_players(k), cap=cap, use_cache=use_cache)
    return EstimateSolution(rules, strengths, subgames, exact_upto)


@lru_cache(maxsize=2)
def _round_optimal_round(rules: Rules, wiped: tuple[bool, ...]) -> TableRound:
    return solve_table_round(rules, wiped)


@dataclass(frozen=True, eq=False)
class RoundMaximiser:
    """Round-optimal play (each player maximises P(win the round), blind to the stripes, as
    :mod:`.round_solver`) in the form :func:`measure_estimate` takes, for comparison (the last
    two rounds asked are kept: a round of eight players holds 176 MB)."""

    rules: Rules
    cap: int = 10 ** 6
    exact: bool = False
    tie: float = 1e-12
    """Stop when stopping is worth at least throwing again less this: round-optimal values are
    fractions of 216**k, and exact ties (108/216 either way) must not be broken by rounding."""

    def solution_for(self, players: int) -> RoundMaximiser:
        """The same play at a table of ``players``."""
        return RoundMaximiser(self.rules.with_players(players))

    def round_at(self, stripes: Sequence[int], wiped: Sequence[bool]) -> TableRound:
        """The round-optimal round at these has-wiped flags (the stripes do not matter)."""
        return _round_optimal_round(self.rules.with_players(len(wiped)), tuple(bool(w) for w in wiped))


# -- measuring the estimate where the exact answer is known ---------------------------------------

def _decision_args(state):
    order = state.order
    return ([state.stripes[s] for s in order], [state.wiped[s] for s in order], state.turn,
            list(state.results), state.limit if state.turn else None, state.current, state.throws)


def measure_estimate(exact: TableSolution, estimate, *, games: int = 200, seed: int = 0) -> dict:
    """The loss of a player (seat 0, the first start player) who decides by ``estimate``
    while the others play ``exact``: the mean over simulated games of the exact value he gives
    up at his decisions (performance-difference identity: its expectation is his loss of
    P(win the game)), with its standard error; and how often his decisions differ.

    Returns:
        ``{"games", "loss", "standard_error", "decisions", "different", "seconds"}``.
    """
    from dicemath.games.pitjesbak.simulate import step
    from dicemath.games.pitjesbak.state import STOP, THROW, initial_state

    rules = exact.rules
    rng = random.Random(seed)
    start = time.perf_counter()
    losses = []
    decisions = different = 0

    def exact_values(answering, args):
        stripes, wiped, position, before, limit, dice, throws = args
        stripes = [min(a, answering.cap) for a in stripes]
        stop, again = answering.round_at(stripes, wiped).decision(position, before=before, limit=limit, dice=dice,
                                                              throws=throws)
        return stop[position], (None if again is None else again[position])

    for _ in range(games):
        state = initial_state(rules)
        loss = 0.0

        def policy(s):
            nonlocal loss, decisions, different
            args = _decision_args(s)
            answering = exact.solution_for(len(s.order))
            stop, again = exact_values(answering, args)
            best = STOP if again is None or stop >= again else THROW
            if s.player != 0:
                return best
            other = estimate.solution_for(len(s.order))
            e_stop, e_again = exact_values(other, args)
            chosen = STOP if e_again is None or e_stop >= e_again - getattr(other, "tie", 0.0) else THROW
            decisions += 1
            if chosen != best:
                different += 1
                loss += (stop if best == STOP else again) - (stop if chosen == STOP else again)
            return chosen

        while state.winner < 0:
            state = step(state, policy, rng)
        losses.append(loss)
    losses_a = np.array(losses)
    return {"games": games, "loss": float(losses_a.mean()),
            "standard_error": float(losses_a.std(ddof=1) / np.sqrt(games)) if games > 1 else float("nan"),
            "decisions": decisions, "different": different, "seconds": time.perf_counter() - start}
