"""What game-optimal play gains over round-optimal play at a table of n players (PIT-1..PIT-8).

A *round-maximiser* plays every round to win that round: his stop-or-throw choices are those
of the round in which every player maximises his probability of winning the round
(:func:`.table_round.solve_table_round`, the round-optimal play of :mod:`.round_solver`);
they depend on the has-wiped flags (PIT-6) and on what he sees in the round, not on the
stripes. How much he gives up is measured two ways.

**Exact, 2 to 4 players** (:func:`solve_round_maximiser`): one player keeps to round-optimal
play and the others play game-optimally *against him*: each maximises his own probability of
winning the game, knowing how the round-maximiser plays (as the two-player comparison of
:func:`.game_solver.solve_game` does). Value iteration on the vector of win probabilities
over the states of :mod:`.table_solver`, one value vector per state and per turn position of
the round-maximiser (after a round the start moves on, PIT-8, and so does his position);
once he is out by 1-1-1 (PIT-6) the others play on game-optimally (:mod:`.table_solver`'s
subgames); with fewer players left and him still in, this module's solutions at the smaller tables. A
round is the backward induction of :mod:`.table_round` with his decisions taken from the
round-optimal round at the same flags (``round_backward_fixed`` of :mod:`._table_c`). Same
cap and clipping as :mod:`.table_solver`. With two players it reproduces the two-player
solver's comparison (rigorous bounds) to 2e-16 (tested to 1e-9). From 9 stripes, to 1e-10
(Gauss-Seidel from the game-optimal values): two players (cap 17) 7 sweeps, three players 7
sweeps, four players 8 sweeps; two and three players take seconds, four players minutes
(each state is solved once for each position of the round-maximiser). Losses at the opening by his turn
position in the first round: two players 0.003045, 0.003202; three 0.002785, 0.002810,
0.002819; four 0.002429, 0.002436, 0.002429, 0.002424.

**Simulated, any table** (:func:`simulated_loss`): the first start player plays
round-optimally, the others keep to the game-optimal play of the table (exact up to four
players, :mod:`.table_estimate` beyond) - they do not adapt to him. By the
performance-difference identity his loss of P(win the game) is the expected sum, over his
decisions, of the value he gives up at each (the reference's best choice minus the
reference's value of his choice), estimated by simulated games with a standard error
(:func:`.table_estimate.measure_estimate`). From five players the values are estimates, so
is the loss.

Example:
    >>> from dicemath.games.pitjesbak.rules import Rules
    >>> solved = solve_round_maximiser(Rules(players=3, stripes=1), cap=2, use_cache=False)
    >>> loss = solved.opening_loss(0)
    >>> 0 <= loss < 0.01
    True
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidRulesError
from dicemath.core.mdp import sweep_to_convergence
from dicemath.games.pitjesbak import _table_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pitjesbak.rules import STANDARD, Rules
from dicemath.games.pitjesbak.table_solver import (
    SOLVED_PLAYERS,
    TableSolution,
    _checked_cap,
    flat_solutions,
    solve_table,
)
from dicemath.games.pitjesbak.table_round import round_graph, round_win_atoms, solve_table_round
from dicemath.games.pitjesbak.table_states import all_states, state_index


@dataclass(frozen=True, eq=False)
class RoundMaximiserSolution:
    """Game values when one player plays round-optimally and the others game-optimally
    against him (float64; see the module text).

    Attributes:
        rules: the rules (``rules.players`` = n).
        cap: stripe counts above are clipped to it (as :mod:`.table_solver`).
        values: ``(n, N, n)``: ``values[p, state_index(...), k]`` = P(turn position k wins)
            when the round-maximiser sits at turn position ``p``.
        optimal: the game-optimal solution (every player maximises P(win the game)).
        sweeps, residual, seconds: the value iteration.
        subgames: the solutions at tables with fewer players and the round-maximiser still in.
    """

    rules: Rules
    cap: int
    values: np.ndarray
    optimal: TableSolution
    sweeps: int
    residual: float
    seconds: float
    subgames: dict = field(default_factory=dict, repr=False)

    @property
    def players(self) -> int:
        """n."""
        return self.rules.players

    def value(self, position: int, stripes, wiped) -> tuple[float, ...]:
        """P(each turn position wins) at the start of a round with the round-maximiser at turn
        position ``position`` (0 = the start player).

        Raises:
            InvalidStateError: see :meth:`.table_solver.TableValues.check`.
        """
        stripes, wiped = self.optimal.check(stripes, wiped)
        return tuple(float(v) for v in self.values[position, state_index(stripes, wiped, self.cap,
                                                                         self.rules.stripes)])

    def opening_loss(self, position: int = 0) -> float:
        """How much P(win the game) the player at turn ``position`` of the first round loses at
        the opening by playing round-optimally (against game-optimal play by the others)."""
        opening = self.optimal.opening
        return self.optimal.opening_values[position] - self.value(position, *opening)[position]


def round_optimal_slots(rules: Rules) -> np.ndarray:
    """The knowledge slots of the round-optimal round (every player maximises P(win the round))
    for every combination of has-wiped flags: ``[combo]``, bit k of ``combo`` the flag of turn
    position k."""
    n = rules.players
    graph = round_graph(n, rules)
    slots = np.empty((2 ** n, graph.slots, n))
    for combo in range(2 ** n):
        solved = solve_table_round(rules, [bool((combo >> k) & 1) for k in range(n)])
        slots[combo] = solved.W
    return slots


ROUND_MAX_FORMAT = 1
"""The format version of the cache entries ``pitjesbak-round-max-solution``: change it when its computation
or layout changes."""


def solve_round_maximiser(rules: Rules | None = None, *, cap: int | None = None, tol: float = 1e-10,
                          max_sweeps: int = 100, use_cache: bool = True) -> RoundMaximiserSolution:
    """Solve a table of 2 to 4 players with one round-maximiser, at every turn position, and
    the others game-optimal against him (see the module text).

    Args:
        rules: the rules (players 2..4, stripes, die values); default 2 players, 9 stripes.
        cap: stripe counts above are clipped (default ``stripes + 2``, as :func:`.solve_table`).
        tol: stop when a sweep changes no value by this much (Gauss-Seidel from the
            game-optimal values).
        max_sweeps: safety limit.
        use_cache: keep the values in the on-disk cache (name ``pitjesbak-round-max-solution``).

    Raises:
        InvalidRulesError: more than four players, or a table :func:`.solve_table` refuses.
        InvalidStateError: a cap below the starting stripes.
    """
    rules = rules or STANDARD
    n = rules.players
    if n > SOLVED_PLAYERS[-1]:
        raise InvalidRulesError(f"the round-maximiser is solved exactly at tables of 2 to {SOLVED_PLAYERS[-1]} "
                                f"players, got {n}; simulated_loss measures larger tables")
    cap = _checked_cap(rules, cap)
    optimal = solve_table(rules, cap=cap, use_cache=use_cache)
    subgames: dict[int, RoundMaximiserSolution] = {}
    if n >= 3:
        subgames[2] = solve_round_maximiser(rules.with_players(2), cap=optimal.subgames[2].cap, tol=tol,
                                            max_sweeps=max_sweeps, use_cache=use_cache)
    for k in range(3, n):
        subgames[k] = solve_round_maximiser(rules.with_players(k), cap=cap, tol=tol, max_sweeps=max_sweeps,
                                            use_cache=use_cache)

    def build() -> dict[str, np.ndarray]:
        start = time.perf_counter()
        graph = round_graph(n, rules)
        sub_values, sub_offset, sub_cap, _ = flat_solutions(optimal.subgames)
        f_values, f_offset, f_cap, f_count = flat_solutions(subgames)
        values = np.ascontiguousarray(np.repeat(optimal.values[None], n, axis=0))
        totals = all_states(n, cap, rules.stripes)[0].sum(axis=1)
        order = np.argsort(totals, kind="stable")
        bounds = np.searchsorted(totals[order], np.arange(n, n * cap + 2))
        blocks = [order[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
        args = (sub_values, sub_offset, sub_cap, f_values, f_offset, f_cap, f_count, round_win_atoms(graph),
                round_optimal_slots(rules))

        def update(block: np.ndarray) -> float:
            return _table_c.sweep_fixed(graph.kernel_args, block, values, cap, rules.stripes, *args)

        sweeps, residual = sweep_to_convergence(blocks, update, tolerance=tol, max_sweeps=max_sweeps,
                                                desc=f"pitjesbak {n} players, a round-maximiser")
        return {"values": values, "sweeps": np.array(sweeps), "residual": np.array(residual),
                "seconds": np.array(time.perf_counter() - start)}

    arrays = cached_arrays("pitjesbak-round-max-solution", (rules, cap, tol, max_sweeps), build,
                           format_version=ROUND_MAX_FORMAT, use_cache=use_cache)
    return RoundMaximiserSolution(rules, cap, arrays["values"], optimal, int(arrays["sweeps"]),
                                  float(arrays["residual"]), float(arrays["seconds"]), subgames)


# -- simulated, at any table -------------------------------------------------------------------

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def simulated_loss(reference, *, games: int, seed: int = 0) -> dict:
    """The first start player's loss of P(win the game) from playing round-optimally while the
    others keep to ``reference`` (a :class:`.table_solver.TableSolution` or an estimate of
    :mod:`.table_estimate`), by simulation (see the module text).

    Returns:
        ``{"players", "games", "loss", "standard_error", "low", "high" (the 95% interval),
        "decisions", "different", "seconds", "exact_values"}`` (``exact_values``: whether the
        reference's values are exact, not estimates).
    """
    from dicemath.games.pitjesbak.table_estimate import RoundMaximiser, measure_estimate

    result = measure_estimate(reference, RoundMaximiser(reference.rules), games=games, seed=seed)
    half = Z95 * result["standard_error"]
    return {"players": reference.rules.players, **result, "low": result["loss"] - half,
            "high": result["loss"] + half, "exact_values": bool(reference.exact)}
