"""Game-optimal Pitjesbak at a table of n players, by value iteration (PIT-1..PIT-8).

Solved here: any table whose solve fits :data:`MAX_WORK` (2 to 4 players from 9 stripes;
5 players from at most 3 stripes with cap ``stripes + 1`` ...); larger tables get estimates
(:mod:`.table_estimate`); :mod:`.table_game` chooses between them and gives the advice.

Every player maximises his own probability of winning the game (PIT-1). With more than two
players the game is not zero-sum, so a state's value is a *vector*: ``values[s, k]`` is the
probability that turn position ``k`` (0 = this round's start player) wins. A state between
rounds is the stripes and has-wiped flags of the players still in, in turn order from the
start player (PIT-4); after a round the start moves one seat to the left, skipping players
out by 1-1-1 (PIT-8), so the next state is seen from the next start player.

**Bellman operator.** Given the values of the states a round can lead to, a round is solved
by backward induction over the seats in turn order (:mod:`.table_round`: each player sees the
best counting throw so far, who holds it, who pays a 2-2-3 penalty, who is out and the
limit). The round's *atoms* (its possible ends) get their value vectors here: the round
winner wipes 1, 2 or 3 stripes (PIT-5; one after a fair roll-off), every counting 2-2-3 adds
one (PIT-7, settled together), a winner at zero stripes wins the game, a flagged 1-1-1 wins at
once and an unflagged one puts its player out (PIT-6), and a player left alone wins (PIT-8).
After an elimination the game goes on with fewer players: those values come from the
solutions at the smaller tables (two players: the exact two-player solution of :mod:`.game_solver`, with
its cap ``max(cap + 4, stripes + 8)``; three players: this module).

**Value iteration** (states in order of their total stripes, so that most rounds lead to
states already updated in the sweep) until a full sweep changes no value by ``tol``
(default 1e-12), with the decisions of each full sweep evaluated in between (modified policy
iteration, :func:`_iterate`: 5 full sweeps instead of the 10 or 11 of plain value iteration,
whose values it reproduces to 2e-15). Ties between stopping and throwing again: stop.

**The stripe cap.** 2-2-3 penalties can push stripes without bound. Stripe counts above
``cap`` (default ``stripes + 2``) are *clipped* to the cap (the
monotone sandwich of the two-player solver needs zero-sum values and does not carry over).
The cap's effect is *measured* by solving again with ``cap + 1`` (:func:`cap_effect`: the
largest change over the states with at most the starting stripes). From 9 stripes, cap 11
against cap 12: 2 players 1.9e-8, 3 players 9.8e-8 (2.7e-8 at the opening), 4 players
2.4e-7 (9.7e-8 at the opening).

**States.** Only states the rules can produce are stored: a player who never wiped a stripe
has the starting stripes plus his penalties (PIT-1, PIT-6, PIT-7), so each position has
``2 cap - stripes + 1`` (stripes, flag) values (:func:`state_index`): 14 with 9 stripes and
cap 11, 38,416 states for four players.

Float64 throughout (the values are not exact fractions). Measured agreement (tests in
``tests/pitjesbak/test_table.py``):

* 2 players: equal to the two-player solver :func:`.game_solver.solve_game` (rigorous
  bounds) to 2e-15 on every state with at most the starting stripes with the same cap 17
  (2e-13 with cap 13, 1.9e-8 with the default cap 11, the cap's effect); P(first start
  player wins) 0.5095710116;
* 3 players: equal to an independent solver that enumerates the 42**3 joint throws to
  9e-15 on all its states from 9 stripes with cap 11 and 4e-15 with 1 and 2 stripes (its
  values for 1 and 2 stripes are kept in ``tests/pitjesbak/data/game_solver3_values.npz``);
  P(win) by turn position 0.341291, 0.332149, 0.326560;
* 4 players from 9 stripes: 0.256698, 0.251134, 0.247200, 0.244968.

Cost: a round of four has 5,382 knowledge states; from 9 stripes a solve takes 5 full sweeps
(of 38,416 rounds for four players), and each round is solved once more to record its
decisions: about half a minute of CPU, so the presets' solutions of three and four players
are shipped with the package and read instead (:mod:`.shipped`).
``benchmarks/bench_pitjesbak_table.py`` measures the times (its docstring records them).

Example:
    >>> solution = solve_table(Rules(players=3, stripes=1), cap=2, use_cache=False)
    >>> [round(p, 4) for p in solution.value((1, 1, 1), (False, False, False))]
    [0.4294, 0.2746, 0.2961]
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidRulesError, InvalidStateError
from dicemath.core.mdp import sweep_to_convergence
from dicemath.games.pitjesbak import _table_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.limits import GAME_SOLUTION_PLAYERS, TABLE_SOLUTION_PLAYERS
from dicemath.games.pitjesbak.rules import STANDARD, Rules, check_stripes
from dicemath.games.pitjesbak.shipped import shipped_arrays
from dicemath.games.pitjesbak.state import State
from dicemath.games.pitjesbak.table_luce import fit_luce, luce_values
from dicemath.games.pitjesbak.table_round import TableRound, round_graph, solve_table_round
from dicemath.games.pitjesbak.table_states import all_states, state_count, state_index, state_of

DEFAULT_CAP_EXTRA = 2
"""Default cap: the starting stripes plus this many."""

SOLVED_PLAYERS = (GAME_SOLUTION_PLAYERS, *TABLE_SOLUTION_PLAYERS)
"""Table sizes solved exactly (the limits of the game's chain of sources, :mod:`.limits`)."""

MAX_WORK = 400_000_000
"""Largest solve :func:`solve_table` accepts: states times knowledge states of a round (four
players from 9 stripes with cap 11 is 38,416 x 5,382 = 2.1e8; cap 12 is 3.5e8)."""

ROUND_MEMORY = 128 * 2 ** 20
"""Bytes of knowledge slots of solved rounds a table's solution (:class:`TableValues`) keeps for repeated
questions (about 390 rounds of four players; always the last one, a round of eight holds 176
MB)."""


class TableValues:
    """What a table's solution (:class:`TableSolution`) and its estimate
    (:class:`.table_estimate.EstimateSolution`) share: the players, the check of a state, the
    solutions at the smaller tables after eliminations (``subgames``), the value vectors of a round's ends and
    the solved rounds.

    A subclass is a frozen dataclass with ``rules``, ``cap``, ``subgames`` and ``_rounds`` (an
    ``OrderedDict``), and says what a round's ends are worth through :meth:`_next_values`.
    """

    # the subclass's fields (annotations only: no class attribute for the dataclass to read)
    rules: Rules
    subgames: dict[int, TableValues]
    _rounds: OrderedDict[tuple[tuple[int, ...], tuple[bool, ...]], TableRound]
    if TYPE_CHECKING:
        @property
        def cap(self) -> int:
            """Stripe counts above are refused or read as the cap (a field, or a property)."""

        @property
        def exact(self) -> bool:
            """Whether the values are exact (a solution) or an estimate."""

        def value(self, stripes: Sequence[int], wiped: Sequence[bool]) -> tuple[float, ...]:
            """P(each turn position wins the game) at the start of a round."""

    @property
    def players(self) -> int:
        """n."""
        return self.rules.players

    @property
    def opening(self) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """The state at the start of a game (PIT-1)."""
        return (self.rules.stripes,) * self.players, (False,) * self.players

    def check(self, stripes: Sequence[int], wiped: Sequence[bool]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """Validate a state of this table; return it as tuples.

        Raises:
            InvalidStateError: another number of players, a stripe count that is not a whole
                number 1..cap, a player who never wiped with fewer than the starting stripes.
        """
        stripes, wiped = tuple(stripes), tuple(bool(w) for w in wiped)
        n = self.players
        if len(stripes) != n or len(wiped) != n:
            raise InvalidStateError(f"this table has {n} players: need {n} stripe counts and flags, "
                                    f"got {len(stripes)} and {len(wiped)}")
        for pos, a in enumerate(stripes):
            check_stripes(a, f"stripes of position {pos}")
            if a == 0:
                raise InvalidStateError(f"position {pos} has no stripes left: the game is over (PIT-1)")
            if a > self.cap:
                raise InvalidStateError(f"stripes of position {pos} ({a}) exceed this solution's cap {self.cap}; "
                                        f"solve with cap >= {a}")
            if not wiped[pos] and a < self.rules.stripes:
                raise InvalidStateError(f"position {pos} has never wiped a stripe, so has at least the starting "
                                        f"{self.rules.stripes} stripes (PIT-1, PIT-6), got {a}")
        return stripes, wiped

    def solution_for(self, players: int) -> TableValues:
        """This solution (``players`` = n) or the one answering for fewer players still in."""
        if players == self.players:
            return self
        if players in self.subgames:
            return self.subgames[players]
        return self._smaller(players)

    def _smaller(self, players: int) -> TableValues:
        raise InvalidStateError(f"no solution for {players} players under this {self.players}-player one")

    def _next_values(self) -> tuple:
        """What the states after a round are worth, as the kernel reads them: ``(values``
        ``(1, N, n)`` of this table and its ``cap``, ``exact_upto`` (tables of more players are
        estimated), ``strength``, ``delta`` and ``luce_cap)`` of the Luce model
        (:class:`.table_estimate.Strengths`)."""
        raise NotImplementedError

    def atoms(self, stripes: Sequence[int], wiped: Sequence[bool]) -> np.ndarray:
        """The value vector of every end of a round at a state (the atoms of
        :class:`.table_round.RoundGraph`; PIT-5..PIT-8)."""
        stripes, wiped = self.check(stripes, wiped)
        graph = round_graph(self.players, self.rules)
        values, cap, exact_upto, strength, delta, luce_cap = self._next_values()
        atoms = np.zeros((graph.atom_rows, self.players))
        _table_c.state_atoms(graph.kernel_args, np.array(stripes, dtype=np.int64), np.array(wiped, dtype=np.int64),
                             _floats(values), cap, self.rules.stripes, *flat_solutions(self.subgames)[:3], exact_upto,
                             _floats(strength), _floats(delta), luce_cap, atoms)
        return atoms

    def round_at(self, stripes: Sequence[int], wiped: Sequence[bool]) -> TableRound:
        """The round at a state, every player maximising his own P(win the game): a
        :class:`.table_round.TableRound` (the last few asked are kept: up to
        :data:`ROUND_MEMORY` bytes)."""
        key = (tuple(stripes), tuple(bool(w) for w in wiped))
        cached = self._rounds.get(key)
        if cached is not None:
            self._rounds.move_to_end(key)
            return cached
        graph = round_graph(self.players, self.rules)
        while len(self._rounds) >= max(1, ROUND_MEMORY // (graph.slots * self.players * 8)):
            self._rounds.popitem(last=False)          # first, so that its knowledge slots serve the new round
        solved = solve_table_round(self.rules, key[1], atoms=self.atoms(*key))
        self._rounds[key] = solved
        return solved


@dataclass(frozen=True, eq=False)
class TableSolution(TableValues):
    """Game values of Pitjesbak at a table of ``n`` players (float64).

    Attributes:
        rules: the rules (``rules.players`` = n, ``rules.stripes`` the starting stripes).
        cap: stripe counts above are clipped to it.
        values: ``(N, n)``: ``values[state_index(..., cap, rules.stripes), k]`` = P(turn
            position k wins).
        sweeps: value-iteration sweeps; residual: the last sweep's largest change.
        seconds: time the solve took (when this process, the cache or the shipped file measured it).
        subgames: the solutions at tables of fewer players (after an elimination), by player count.
        source: ``"table_solver"`` (this module) or ``"game_solver"`` (two players, exact bounds).
    """

    rules: Rules
    cap: int
    values: np.ndarray
    sweeps: int
    residual: float
    seconds: float
    subgames: dict = field(default_factory=dict, repr=False)
    source: str = "table_solver"
    _rounds: OrderedDict = field(default_factory=OrderedDict, repr=False)

    @property
    def exact(self) -> bool:
        """True: a full solve (float64 value iteration to ``tol``; not an estimate)."""
        return True

    def value(self, stripes: Sequence[int], wiped: Sequence[bool]) -> tuple[float, ...]:
        """P(each turn position wins the game) at the start of a round, the start player first.

        Raises:
            InvalidStateError: see :meth:`TableValues.check`.
        """
        stripes, wiped = self.check(stripes, wiped)
        return tuple(float(v) for v in self.values[state_index(stripes, wiped, self.cap, self.rules.stripes)])

    @property
    def opening_values(self) -> tuple[float, ...]:
        """P(win) of the first start player, the next, ... at the opening."""
        return self.value(*self.opening)

    def win_probabilities(self, state: State) -> tuple[float, ...]:
        """P(each seat wins the game) at an engine state at the start of a round (or a finished
        game), by seat (0 for a player who is out).

        Raises:
            InvalidStateError: a state in the middle of a round, or whose table of players
                still in is not this solution's or one of its subgames'.
        """
        seats = state.rules.players
        if state.winner >= 0:
            return tuple(1.0 if seat == state.winner else 0.0 for seat in range(seats))
        if state.turn or state.results or state.current is not None or state.rolloff or state.throws:
            raise InvalidStateError("win_probabilities needs a state at the start of a round; "
                                    "use table_advice for a decision in the middle of one")
        answering = self.solution_for(len(state.order))
        values = answering.value([state.stripes[s] for s in state.order], [state.wiped[s] for s in state.order])
        out = [0.0] * seats
        for pos, seat in enumerate(state.order):
            out[seat] = values[pos]
        return tuple(out)

    def _next_values(self) -> tuple:
        return self.values[None], self.cap, self.players, np.zeros(2), np.zeros((9, 8)), 1

    def _repr_markdown_(self) -> str:
        values = ", ".join(f"{v:.6f}" for v in self.opening_values)
        return (f"**Pitjesbak, {self.players} players**, {self.rules.stripes} stripes, cap {self.cap}: "
                f"P(win) by turn position from the first start player = {values} "
                f"({self.sweeps} sweeps, residual {self.residual:.1e}, {self.seconds:.0f} s)")


def _floats(array: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(array, dtype=np.float64)


def flat_solutions(solutions: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Solutions by player count (``{k: solution}``, each with ``values`` and ``cap``) flattened
    for the kernels: ``(values, offset, cap, count)``, ``k`` players from ``values[offset[k]:]``
    with cap ``cap[k]`` and ``count[k]`` states (``values.shape[-2]``); indexed 0..8."""
    parts = [np.zeros(0)]
    offset = np.zeros(9, dtype=np.int64)
    caps = np.ones(9, dtype=np.int64)
    counts = np.ones(9, dtype=np.int64)
    total = 0
    for k, solution in sorted(solutions.items()):
        offset[k], caps[k], counts[k] = total, solution.cap, solution.values.shape[-2]
        flat = np.ascontiguousarray(solution.values).ravel()
        parts.append(flat)
        total += flat.size
    return np.concatenate(parts), offset, caps, counts


def two_player_solution(rules: Rules, cap: int, *, use_cache: bool = True) -> TableSolution:
    """The two-player solution of :func:`.game_solver.solve_game` (rigorous bounds, midpoint
    values) as a :class:`TableSolution` (the subgame after an elimination at three players)."""
    rules = rules.with_players(2)
    start = time.perf_counter()
    game = solve_game(rules, cap=cap, compare=False, use_cache=use_cache)
    space = game.space
    count = state_count(2, cap, rules.stripes)
    values = np.empty((count, 2))
    for index in range(count):
        (a, b), (fa, fb) = state_of(index, 2, cap, rules.stripes)
        v = float(game.values[space.index(a, fa, b, fb)])
        values[index] = (v, 1.0 - v)
    return TableSolution(rules, cap, values, game.sweeps, float(np.max(game.high - game.low)),
                         time.perf_counter() - start, {}, "game_solver")


def two_player_cap(rules: Rules, cap: int) -> int:
    """The cap of the two-player solution a larger table falls back on after eliminations:
    ``max(cap + 4, stripes + 8)`` (the two-player solver's default, or more)."""
    return max(cap + 4, rules.stripes + 8)


def table_work(rules: Rules, cap: int) -> int:
    """The work of solving a table of ``rules.players`` with stripes capped at ``cap``: its
    states (:func:`state_count`) times the knowledge states of a round; :func:`solve_table`
    takes at most :data:`MAX_WORK`.

    Example:
        >>> round_nodes = sum(round_graph(3, Rules(stripes=1)).nodes)
        >>> table_work(Rules(players=3, stripes=1), 2) == state_count(3, 2, 1) * round_nodes
        True
    """
    return state_count(rules.players, cap, rules.stripes) * sum(round_graph(rules.players, rules).nodes)


def table_cap(rules: Rules, stripes: Sequence[int] = ()) -> int:
    """The cap of the solution for a table holding ``stripes``: :data:`DEFAULT_CAP_EXTRA` above the
    starting stripes, or the most stripes held (PIT-7 penalties).

    Example:
        >>> table_cap(Rules(stripes=9)), table_cap(Rules(stripes=9), (9, 12, 4))
        (11, 12)
    """
    return max((rules.stripes + DEFAULT_CAP_EXTRA, *stripes))


def table_solvable(rules: Rules, stripes: Sequence[int]) -> bool:
    """Whether the table solver answers a table holding ``stripes`` (one count a player, in
    turn order) exactly: :data:`.limits.TABLE_SOLUTION_PLAYERS` players and a work
    (:func:`table_work` at :func:`table_cap`) within :data:`MAX_WORK`.

    Example:
        >>> table_solvable(STANDARD, (9, 9, 9)), table_solvable(STANDARD, (9, 9))
        (True, False)
    """
    if len(stripes) not in TABLE_SOLUTION_PLAYERS:
        return False
    return table_work(rules.with_players(len(stripes)), table_cap(rules, stripes)) <= MAX_WORK


def _checked_cap(rules: Rules, cap: int | None) -> int:
    cap = cap if cap is not None else rules.stripes + DEFAULT_CAP_EXTRA
    if isinstance(cap, bool) or not isinstance(cap, int) or cap < rules.stripes:
        raise InvalidStateError(f"cap must be a whole number >= the starting stripes {rules.stripes}, got {cap!r}")
    count = state_count(rules.players, cap, rules.stripes)
    if table_work(rules, cap) > MAX_WORK:
        raise InvalidRulesError(f"{rules.players} players from {rules.stripes} stripes with cap {cap}: {count:,} "
                                f"states of {sum(round_graph(rules.players, rules).nodes):,} knowledge states a "
                                f"round, above what this solver takes (MAX_WORK = {MAX_WORK:.0e}); use fewer "
                                "stripes")
    return cap


SOLUTION_FORMAT = 1
"""The format version of the cache entries ``pitjesbak-table-solution`` and of the shipped ones (:mod:`.shipped`):
change it when their computation or layout changes (and write the shipped ones again:
``analyses/pitjesbak_shipped_solutions.py``)."""


def solve_table(rules: Rules | None = None, *, cap: int | None = None, tol: float = 1e-12,
                max_sweeps: int = 100, use_cache: bool = True) -> TableSolution:
    """Solve Pitjesbak at a table of ``rules.players`` players: every player maximises his own
    probability of winning the game (PIT-1..PIT-8).

    Args:
        rules: the rules (players 2..8, stripes, die values); default 2 players, 9 stripes.
        cap: stripe counts above are clipped (default ``stripes + 2``); its effect is measured
            by :func:`cap_effect` (cap + 1).
        tol: stop when a sweep changes no value by this much (Gauss-Seidel value iteration).
        max_sweeps: safety limit.
        use_cache: read the solution shipped with the package under the same name and
            parameters (:mod:`.shipped`: the presets' tables of three and four players), else
            keep the values in the on-disk cache
            (:mod:`dicemath.core.cache`, name ``pitjesbak-table-solution``; the subgames are
            cached on their own); False solves afresh.

    Returns:
        The :class:`TableSolution`; its subgames (fewer players) are solved first.

    Raises:
        InvalidRulesError: players outside 2..8, or a table beyond :data:`MAX_WORK`.
        InvalidStateError: a cap below the starting stripes.
    """
    rules = rules or STANDARD
    cap = _checked_cap(rules, cap)
    n = rules.players
    subgames: dict[int, TableSolution] = {}
    if n >= 3:
        subgames[2] = two_player_solution(rules, two_player_cap(rules, cap), use_cache=use_cache)
    for k in range(3, n):
        sub = solve_table(rules.with_players(k), cap=cap, tol=tol, max_sweeps=max_sweeps, use_cache=use_cache)
        subgames[k] = sub
        for j, deeper in sub.subgames.items():
            subgames.setdefault(j, deeper)

    def build() -> dict[str, np.ndarray]:
        start = time.perf_counter()
        values, sweeps, residual = _iterate(rules, cap, subgames, tol=tol, max_sweeps=max_sweeps)
        return {"values": values, "sweeps": np.array(sweeps), "residual": np.array(residual),
                "seconds": np.array(time.perf_counter() - start)}

    name, params = "pitjesbak-table-solution", (rules, cap, tol, max_sweeps)
    arrays = (shipped_arrays(name, params, SOLUTION_FORMAT) if use_cache else None) or cached_arrays(
        name, params, build, format_version=SOLUTION_FORMAT, use_cache=use_cache)
    return TableSolution(rules, cap, arrays["values"], int(arrays["sweeps"]), float(arrays["residual"]),
                         float(arrays["seconds"]), subgames)


EVALUATION_TOLERANCE = 0.1
"""Between two full sweeps the decisions of the last one are evaluated until a pass changes no
value by this fraction of ``tol`` (or :data:`MAX_EVALUATIONS` passes)."""

MAX_EVALUATIONS = 1000

LAST_SWEEP = 1e-5
"""A full sweep after one that changed no value by this much records no decisions."""


def policy_buffers(states: int, players: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arrays in which a full sweep records each state's round under its decisions as a
    linear map of the states it leads to (``base``, ``next``, ``coef``, ``terms``; see
    ``_table_c_policy.h``): at most ``n * 3 * 2**n`` states a round leads to with every
    player still in (the winner, his wipe, who pays a 2-2-3 penalty)."""
    most = players * 3 << players
    return (np.zeros((states, players)), np.zeros((states, most), dtype=np.int32), np.zeros((states, most)),
            np.zeros(states, dtype=np.int32))


def _iterate(rules: Rules, cap: int, subgames: dict[int, TableSolution], *, tol: float,
             max_sweeps: int) -> tuple[NDArray[np.float64], int, float]:
    """Value iteration of the table's Bellman operator with policy evaluation between the full
    sweeps (modified policy iteration), from the Luce model of the solution at the next smaller table
    (:func:`_first_guess`).

    A full sweep solves every state's round by backward induction, the states in blocks of
    equal total stripes in ascending order (most rounds lead to fewer stripes), each block in
    two halves solved side by side (two threads): Gauss-Seidel within a half, the other half's
    values of the block read from before the block (so the result does not depend on the
    threads' timing, nor on their number). It records every round's decisions as a linear map
    of the states it leads to; Gauss-Seidel passes of that map then carry the values towards
    those decisions' values (until a pass changes no value by :data:`EVALUATION_TOLERANCE`
    times ``tol``) before the next full sweep. A full sweep after a recording one that changed
    no value by :data:`LAST_SWEEP` records nothing (it is most likely the last). Stops after a full sweep
    that changes no value by ``tol``: the values are a fixed point of the Bellman operator to
    the criterion of plain value iteration (which needs 10 or 11 full sweeps from 9 stripes;
    this needs 5)."""
    n = rules.players
    graph = round_graph(n, rules)
    sub_values, sub_offset, sub_cap, _ = flat_solutions(subgames)
    values = _first_guess(rules, cap, subgames)
    other = values.copy()                               # the second half's view of the values
    totals = all_states(n, cap, rules.stripes)[0].sum(axis=1)
    order = np.argsort(totals, kind="stable")
    bounds = np.searchsorted(totals[order], np.arange(n, n * cap + 2))
    halves = [[np.ascontiguousarray(half) for half in np.array_split(order[lo:hi], 2)]
              for lo, hi in zip(bounds[:-1], bounds[1:]) if hi > lo]
    policy = policy_buffers(len(values), n)
    last = {"change": float("inf"), "recorded": False}

    def sweep_half(states: np.ndarray, view: np.ndarray, record: bool) -> float:
        return _table_c.sweep_states(graph.kernel_args, states, view, view, cap, rules.stripes, sub_values,
                                     sub_offset, sub_cap, *(policy if record else (None,) * 4))

    def update(states: np.ndarray) -> float:
        record = not last["recorded"] or last["change"] >= LAST_SWEEP
        change = 0.0
        with ThreadPoolExecutor(min(2, _cpus())) as pool:
            for first, second in halves:
                done = pool.map(sweep_half, (first, second), (values, other), (record, record))
                change = max(change, *done)
                other[first] = values[first]
                values[second] = other[second]
        for _ in range(MAX_EVALUATIONS if record and change >= tol else 0):
            if _table_c.evaluate_states(n, states, values, *policy) < tol * EVALUATION_TOLERANCE:
                break
        other[:] = values
        last.update(change=change, recorded=record)
        return change

    sweeps, residual = sweep_to_convergence([order], update, tolerance=tol, max_sweeps=max_sweeps,
                                            desc=f"pitjesbak {n} players")
    return values, sweeps, residual


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _first_guess(rules: Rules, cap: int, subgames: dict[int, TableSolution]) -> NDArray[np.float64]:
    """Where the value iteration starts: the Luce model (:mod:`.table_luce`) fitted to the
    table of one player fewer when it has the same cap (4 players: 0.08 from the solution at
    worst, one full sweep fewer), else ``1/n`` everywhere."""
    n = rules.players
    smaller = subgames.get(n - 1)
    if smaller is None or smaller.cap != cap:
        return np.full((state_count(n, cap, rules.stripes), n), 1.0 / n)
    with np.errstate(all="ignore"):                      # a value of 0 has no logarithm: no fit
        strength, position = fit_luce(smaller.values, n - 1, cap, rules.stripes)
        stretched = np.interp(np.arange(n) * (n - 2) / (n - 1), np.arange(n - 1), position)
        guess = np.ascontiguousarray(luce_values(strength, stretched, n, cap, rules.stripes))
    return guess if np.isfinite(guess).all() else np.full_like(guess, 1.0 / n)


def cap_effect(rules: Rules | None = None, *, cap: int | None = None, use_cache: bool = True) -> float:
    """How much the cap moves the answers: the largest difference, over the states with every
    stripe count at most the starting stripes, between the solutions with ``cap`` and ``cap + 1``
    (both solved, or read from the cache)."""
    rules = rules or STANDARD
    cap = _checked_cap(rules, cap)
    low = solve_table(rules, cap=cap, use_cache=use_cache)
    high = solve_table(rules, cap=cap + 1, use_cache=use_cache)
    stripes, _ = all_states(rules.players, cap, rules.stripes)
    keep = np.flatnonzero((stripes <= rules.stripes).all(axis=1))
    worst = 0.0
    for index in keep:
        state = state_of(int(index), rules.players, cap, rules.stripes)
        other = state_index(*state, cap + 1, rules.stripes)
        worst = max(worst, float(np.max(np.abs(low.values[index] - high.values[other]))))
    return worst
