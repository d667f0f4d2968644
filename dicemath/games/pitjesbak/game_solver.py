"""Game-optimal play of two-player Pitjesbak by value iteration (PIT-1..PIT-8).

State between rounds: ``(a, fa, b, fb)`` = the start player's stripes and has-wiped flag,
the follower's stripes and flag (in two-player games the start alternates, PIT-8). Its value
``V`` is the probability that the start player wins the game. Given the values of the next
states, one round is a finite game of perfect information: the start player's stop
decisions after throws 1 and 2 (which set the limit, PIT-4), then the follower's decisions
with everything seen; the counting throws decide wipes, penalties (PIT-5, PIT-7), drie apen
(PIT-6) and the next state. Backward induction over that round is the Bellman operator
``T``; the start player maximises and the follower minimises ``V`` (two players: the game
ends with probability 1, see below, so P(follower wins) = 1 - V).

Truncation bound. Stripes can grow without limit through 2-2-3 penalties, so states with a
stripe count above ``cap`` are not stored; a transition into one goes to a *boundary* whose
value is only known to lie in ``[0, 1]``. ``T`` is monotone (a max/min of expectations of
next values), so starting from ``low = 0`` with boundary 0 and ``high = 1`` with boundary 1
(where the lower bound of a state uses ``1 - high`` of the next, whose start player is the
other player, and vice versa), every iterate satisfies ``low <= V_true <= high`` by
induction: ``V_true`` is a fixed point of ``T`` with boundary values in ``[0, 1]``. Both
sequences are monotone; the solver stops when a sweep changes nothing by more than ``tol``,
and the reported bound is ``high - low``. It covers the truncation and the unfinished
iteration together, so a value is exact to the stated precision whatever the cap.
(The game ends with probability 1: whatever the policies, all of a follower's at most three
throws are 1-1-1 with probability >= 216**-3 per round, and a counting 1-1-1 ends a
two-player game, PIT-6/PIT-8.)

States are swept in order of ``a + b`` (Gauss-Seidel): most rounds lower the total, so one
sweep propagates almost everything. The sweeps are the core's
:func:`~dicemath.core.mdp.bounded_value_iteration`; this module supplies ``T``, compiled at
install (``_game_c.c``: about 5 us per state and bound on an AMD EPYC); :func:`round_backward`
is the same round in numpy, used for one state's solved round (:meth:`GameSolution.round_at`; equal values within 1e-12,
the sums run in another order). Float64; classes are the 42 throw classes of
:func:`~dicemath.games.pitjesbak.throws.class_space`.

Three or more players: see :mod:`dicemath.games.pitjesbak.table_solver` (values are vectors
because Pitjesbak with more than two players is not zero-sum, and the bound sandwich used
here does not carry over).

Example:
    >>> solution = solve_game(Rules(stripes=2), use_cache=False)
    >>> 0.5 < solution.start_player_win_probability < 0.7 and solution.bound < 1e-9
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidStateError
from dicemath.core.mdp import bounded_value_iteration
from dicemath.games.pitjesbak import _game_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pitjesbak.rules import STANDARD, Rules, check_stripes
from dicemath.games.pitjesbak.shipped import shipped_arrays
from dicemath.games.pitjesbak.throws import class_space

DEFAULT_EXTRA = 8
"""Default cap: starting stripes plus this many (the bound shows it is ample)."""

# outcome columns of a round in the start player's frame
_SW, _FW, _TIE, _SAPEN, _FAPEN = 0, 8, 16, 20, 21
_TYPES = ((1, 0), (1, 1), (2, 0), (3, 0))
"""(wipe, penalty) of a winning class: regular, 2-2-3, zand, 6-5-4."""


@lru_cache(maxsize=None)
def _class_arrays(die_values: str) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """Probabilities, and the map (S class, F class) -> outcome column."""
    space = class_space(Rules(die_values=die_values))
    size = space.size
    probs = space.probabilities()
    kinds = [_TYPES.index((c.wipe, c.penalty)) if not c.is_apen else -1 for c in space.classes]
    pens = [c.penalty for c in space.classes]
    columns = np.zeros((size, size), dtype=np.intp)
    for i in range(size):
        for j in range(size):
            if i == space.apen:
                columns[i, j] = _SAPEN
            elif j == space.apen:
                columns[i, j] = _FAPEN
            elif space.levels[i] > space.levels[j]:
                columns[i, j] = _SW + kinds[i] * 2 + pens[j]
            elif space.levels[i] < space.levels[j]:
                columns[i, j] = _FW + kinds[j] * 2 + pens[i]
            else:
                columns[i, j] = _TIE + pens[i] * 2 + pens[j]
    return probs, columns


@dataclass(frozen=True)
class StateSpace:
    """Dense indices of the states ``(a, fa, b, fb)`` with stripes 1..cap.

    Index ``n`` is the boundary (a stripe count above ``cap``), ``n + 1`` a start-player
    win, ``n + 2`` a follower win.
    """

    cap: int

    @property
    def n(self) -> int:
        """Number of stored states."""
        return 4 * self.cap * self.cap

    def index(self, a: int, fa: bool, b: int, fb: bool) -> int:
        """The index of a state, or the boundary index if a count exceeds the cap."""
        if a > self.cap or b > self.cap:
            return self.n
        return (((a - 1) * 2 + int(fa)) * self.cap + (b - 1)) * 2 + int(fb)

    def state(self, index: int) -> tuple[int, bool, int, bool]:
        """The state of an index."""
        fb = index % 2
        rest = index // 2
        b = rest % self.cap + 1
        rest //= self.cap
        return rest // 2 + 1, bool(rest % 2), b, bool(fb)

    def atoms(self) -> np.ndarray:
        """For every state the 24 successor indices of a round (S frame), see :func:`_atoms_of`."""
        atoms = np.empty((self.n, 24), dtype=np.intp)
        for index in range(self.n):
            atoms[index] = _atoms_of(self, *self.state(index))
        return atoms

    def layers(self) -> list[np.ndarray]:
        """State indices grouped by ``a + b``, ascending."""
        totals = np.array([self.state(i)[0] + self.state(i)[2] for i in range(self.n)])
        return [np.flatnonzero(totals == t) for t in range(2, 2 * self.cap + 1)]


def _atoms_of(space: StateSpace, a: int, fa: bool, b: int, fb: bool) -> list[int]:
    """Successors of ``(a, fa, b, fb)``: S wins with each type and F penalty (8), F wins
    (8), S wins a roll-off (4), F wins a roll-off (4); PIT-5, PIT-7, PIT-8."""
    s_win, f_win = space.n + 1, space.n + 2

    def s_wins(wipe: int, s_pen: int, f_pen: int) -> int:
        a2 = max(0, a - wipe) + s_pen
        return s_win if a2 == 0 else space.index(b + f_pen, fb, a2, True)

    def f_wins(wipe: int, f_pen: int, s_pen: int) -> int:
        b2 = max(0, b - wipe) + f_pen
        return f_win if b2 == 0 else space.index(b2, True, a + s_pen, fa)

    atoms = [s_wins(w, p, pj) for (w, p) in _TYPES for pj in (0, 1)]
    atoms += [f_wins(w, p, pi) for (w, p) in _TYPES for pi in (0, 1)]
    atoms += [s_wins(1, pi, pj) for pi in (0, 1) for pj in (0, 1)]
    atoms += [f_wins(1, pj, pi) for pi in (0, 1) for pj in (0, 1)]
    return atoms


def _outcomes(atoms: np.ndarray, flags: np.ndarray, other: np.ndarray, boundary_other: float) -> np.ndarray:
    """The 22 outcome values (P(start wins)) of a batch of states.

    ``other`` holds the current values of the states (start player's frame); a successor's
    start player is the other player, hence ``1 - other``.
    """
    n = other.shape[0]
    ext = np.empty(n + 3)
    ext[:n] = 1.0 - other
    ext[n] = 1.0 - boundary_other
    ext[n + 1] = 1.0
    ext[n + 2] = 0.0
    values = ext[atoms]
    out = np.empty((atoms.shape[0], 22))
    out[:, :16] = values[:, :16]
    out[:, 16:20] = 0.5 * (values[:, 16:20] + values[:, 20:24])
    out[:, _SAPEN] = flags[:, 0]
    out[:, _FAPEN] = 1.0 - flags[:, 1]
    return out


@dataclass(frozen=True)
class TwoPlayerRound:
    """One round's backward induction in the start player's frame (P(start wins game)).

    Attributes:
        result: ``result[i, j]`` value when S counts class i and F counts class j.
        follower: ``follower[r-1, i]`` value when S counted ``i`` and F has ``r`` throws
            left, playing optimally (or by the fixed policy).
        start: ``start[t-1, i]`` value when S stops on ``i`` after throw ``t`` (= follower
            with limit t).
        start_continue: ``start_continue[t-1]`` value of throwing again after throw t (t=1,2).
        value: the round's value.
    """

    result: np.ndarray
    follower: np.ndarray
    start_continue: np.ndarray
    value: np.ndarray

    def start_stops(self) -> np.ndarray:
        """``[t-1, i]``: S stops after throw t on class i (ties: stop)."""
        return self.follower[:2] >= self.start_continue[..., :, None]

    def follower_stops(self) -> np.ndarray:
        """``[r-1, i, x]``: F, with ``r`` more throws allowed after this one, stops on x
        against S's class i (ties: stop)."""
        return self.result[..., None, :, :] <= self.follower[..., :2, :, None]


def round_backward(result: np.ndarray, probs: np.ndarray, start_masks: np.ndarray | None = None,
                   follower_masks: np.ndarray | None = None) -> TwoPlayerRound:
    """Backward induction of a two-player round on a batch of result matrices.

    Args:
        result: ``(..., C, C)`` value for the start player of each pair of counting classes.
        probs: class probabilities.
        start_masks: fixed stop decisions ``(..., 2, C)`` of S, or None to maximise.
        follower_masks: fixed stop decisions ``(..., 2, C, C)`` of F by throws left, or
            None to minimise.
    """
    ef = [result @ probs]
    for r in (1, 2):
        keep = ef[-1][..., :, None]
        if follower_masks is None:
            chosen = np.minimum(result, keep)
        else:
            chosen = np.where(follower_masks[..., r - 1, :, :], result, keep)
        ef.append(chosen @ probs)
    follower = np.stack(ef, axis=-2)
    c3 = ef[2] @ probs
    if start_masks is None:
        g2 = np.maximum(ef[1], c3[..., None])
    else:
        g2 = np.where(start_masks[..., 1, :], ef[1], c3[..., None])
    c2 = g2 @ probs
    if start_masks is None:
        g1 = np.maximum(ef[0], c2[..., None])
    else:
        g1 = np.where(start_masks[..., 0, :], ef[0], c2[..., None])
    value = g1 @ probs
    return TwoPlayerRound(result, follower, np.stack([c2, c3], axis=-1), value)


def round_maximising_round(rules: Rules, fa: bool, fb: bool) -> TwoPlayerRound:
    """The round-maximising two-player round (each maximises P(win the round)), PIT-4..6."""
    probs, columns = _class_arrays(rules.die_values)
    out = np.zeros(22)
    out[_SW:_SW + 8] = 1.0
    out[_FW:_FW + 8] = 0.0
    out[_TIE:_TIE + 4] = 0.5
    out[_SAPEN] = float(fa)
    out[_FAPEN] = 1.0 - float(fb)
    return round_backward(out[columns], probs)


def _round_max_masks(rules: Rules) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Round-maximising decisions for each flag pair ``2*fa + fb``."""
    start, follower = [], []
    for fa in (False, True):
        for fb in (False, True):
            solved_round = round_maximising_round(rules, fa, fb)
            start.append(solved_round.start_stops())
            follower.append(solved_round.follower_stops())
    return np.array(start), np.array(follower)


def _iterate(space: StateSpace, rules: Rules, *, tol: float, max_sweeps: int,
             policies: tuple[str, str] = ("opt", "opt"),
             desc: str = "pitjesbak value iteration") -> tuple[NDArray[np.float64], NDArray[np.float64], int]:
    """Bound-sandwich value iteration (:func:`dicemath.core.mdp.bounded_value_iteration`);
    returns (low, high, sweeps), the bounds as ``[frame, state]`` arrays.

    ``policies`` says how player 0 and player 1 decide: ``"opt"`` (game-optimal for
    themselves) or ``"round"`` (round-maximising). With two optimal players one frame
    suffices; otherwise frame k holds the states where player k starts. ``T`` is the
    compiled :meth:`_Operands.round_values` (the values of :func:`round_backward`).
    """
    operands = _Operands.of(space, rules)
    symmetric = policies[0] == policies[1]
    frames = 1 if symmetric else 2
    low = np.zeros((frames, space.n))
    high = np.ones((frames, space.n))

    def operator(idx: np.ndarray, low: np.ndarray,
                 high: np.ndarray) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """``T`` on one layer: lower bounds from the other frame's upper bounds (its start
        player is the other player, so values enter as ``1 - V``), and vice versa."""
        new_low = np.empty((frames, idx.size))
        new_high = np.empty((frames, idx.size))
        for frame in range(frames):
            other = (frame + 1) % frames
            starter = policies[frame]
            follower = policies[1 - frame] if not symmetric else policies[0]
            fixed = (starter == "round", follower == "round")
            operands.round_values(idx, high[other], 1.0, fixed, new_low[frame])
            operands.round_values(idx, low[other], 0.0, fixed, new_high[frame])
        return new_low, new_high

    layers = [layer.astype(np.int64) for layer in space.layers()]
    sweeps = bounded_value_iteration(layers, operator, low, high, tolerance=tol, max_sweeps=max_sweeps,
                                     desc=desc)
    return low, high, sweeps


@dataclass(frozen=True)
class _Operands:
    """The arrays of :func:`round_values` for one state space and rules (see ``_game_c.c``)."""

    atoms: NDArray[np.int64]
    flags: NDArray[np.float64]
    combo: NDArray[np.int64]
    columns: NDArray[np.int64]
    probs: NDArray[np.float64]
    start_masks: NDArray[np.uint8]
    follower_masks: NDArray[np.uint8]

    @classmethod
    def of(cls, space: StateSpace, rules: Rules) -> _Operands:
        """The operands of ``space`` (round-maximising masks by flag pair ``2*fa + fb``)."""
        probs, columns = _class_arrays(rules.die_values)
        flags = np.array([[space.state(i)[1], space.state(i)[3]] for i in range(space.n)], dtype=np.float64)
        combo = (2 * flags[:, 0] + flags[:, 1]).astype(np.int64)
        start, follower = _round_max_masks(rules)
        return cls(np.ascontiguousarray(space.atoms(), dtype=np.int64), flags, combo,
                   np.ascontiguousarray(columns, dtype=np.int64), np.ascontiguousarray(probs, dtype=np.float64),
                   np.ascontiguousarray(start, dtype=np.uint8), np.ascontiguousarray(follower, dtype=np.uint8))

    def round_values(self, states: NDArray[np.int64], other: NDArray[np.float64], boundary_other: float,
                     fixed: tuple[bool, bool], out: NDArray[np.float64]) -> None:
        """Into ``out``: the round value of each of ``states`` (``round_backward(...).value``)
        given ``other``, the values of every state in the next start player's frame, and the
        boundary's; ``fixed`` says whether the start player and the follower play the
        round-maximising decisions (else they maximise and minimise).

        Raises:
            ValueError: ``out`` is not a C-contiguous float64 array of one value per state.
        """
        if out.dtype != np.float64 or not out.flags.c_contiguous or out.shape != states.shape:
            raise ValueError("round_values: out must be a C-contiguous float64 array, one value per state")
        _game_c.round_values(np.ascontiguousarray(states, dtype=np.int64), self.atoms, self.flags, self.combo,
                             self.columns, self.probs, self.start_masks, self.follower_masks, int(fixed[0]),
                             int(fixed[1]), np.ascontiguousarray(other, dtype=np.float64), boundary_other, out)


@dataclass(frozen=True)
class GameSolution:
    """Values of two-player Pitjesbak (P(start player wins the game)) with rigorous bounds.

    Attributes:
        rules: the rules (stripes, die values; two players).
        cap: highest stripe count stored (above: the [0, 1] boundary).
        low, high: lower and upper bounds of the value of every state (float64).
        sweeps: value-iteration sweeps used.
        comparison: values at the opening state under other policy pairs (see
            :func:`solve_game`), each as (low, high).
    """

    rules: Rules
    cap: int
    low: np.ndarray
    high: np.ndarray
    sweeps: int
    comparison: dict

    @property
    def space(self) -> StateSpace:
        """The state indexing."""
        return StateSpace(self.cap)

    @property
    def values(self) -> np.ndarray:
        """Midpoint values of all states."""
        return 0.5 * (self.low + self.high)

    def check_state(self, a: int, fa: bool, b: int, fb: bool) -> int:
        """Index of a state; raises for counts outside 1..cap."""
        for name, count in (("start player's stripes", a), ("follower's stripes", b)):
            check_stripes(count, name)
            if not 1 <= count <= self.cap:
                raise InvalidStateError(f"{name} must be 1..{self.cap} for this solution, got {count}")
        return self.space.index(a, bool(fa), b, bool(fb))

    def value(self, a: int, fa: bool, b: int, fb: bool) -> float:
        """P(the start player wins the game) at the start of a round (midpoint of the bounds).

        Raises:
            InvalidStateError: a stripe count outside 1..cap.
        """
        index = self.check_state(a, fa, b, fb)
        return float(0.5 * (self.low[index] + self.high[index]))

    def bounds(self, a: int, fa: bool, b: int, fb: bool) -> tuple[float, float]:
        """Rigorous lower and upper bounds of :meth:`value`."""
        index = self.check_state(a, fa, b, fb)
        return float(self.low[index]), float(self.high[index])

    @property
    def opening(self) -> tuple[int, bool, int, bool]:
        """The state at the start of a game."""
        return (self.rules.stripes, False, self.rules.stripes, False)

    @property
    def start_player_win_probability(self) -> float:
        """P(the first start player wins the game), both playing game-optimally."""
        return self.value(*self.opening)

    @property
    def bound(self) -> float:
        """Width of the bound at the opening state."""
        low, high = self.bounds(*self.opening)
        return high - low

    def _repr_markdown_(self) -> str:
        low, high = self.bounds(*self.opening)
        lines = [f"**Two-player Pitjesbak**, {self.rules.stripes} stripes, {self.rules.die_values} values: "
                 f"P(first start player wins) = {self.start_player_win_probability:.10f} "
                 f"(bounds {low:.12f} .. {high:.12f}, cap {self.cap}, {self.sweeps} sweeps)"]
        for key, (lo, hi) in self.comparison.items():
            lines.append(f"- {key.replace('_', ' ')}: {(lo + hi) / 2:.6f}")
        return "\n".join(lines)

    def round_at(self, a: int, fa: bool, b: int, fb: bool) -> TwoPlayerRound:
        """The game-optimal round at a state (values: P(start player wins the game))."""
        self.check_state(a, fa, b, fb)
        probs, columns = _class_arrays(self.rules.die_values)
        atoms = np.array([_atoms_of(self.space, a, bool(fa), b, bool(fb))])
        flags = np.array([[float(fa), float(fb)]])
        out = _outcomes(atoms, flags, self.values, 0.5)
        return round_backward(out[0][columns], probs)


GAME_SOLUTION_FORMAT = 1
"""The format version of the cache entries ``pitjesbak-game`` and of the shipped ones (:mod:`.shipped`): change it
when their computation or layout changes (and write the shipped ones again:
``analyses/pitjesbak_shipped_solutions.py``)."""


def solve_game(rules: Rules | None = None, *, cap: int | None = None, tol: float = 1e-14,
               max_sweeps: int = 200, use_cache: bool = True, compare: bool = True) -> GameSolution:
    """Solve two-player Pitjesbak for the policies maximising P(win the game).

    Args:
        rules: the rules; ``rules.players`` is ignored (two players).
        cap: highest stripe count stored (default ``stripes + 8``).
        tol: stop when a sweep changes no bound by more than this.
        max_sweeps: safety limit of sweeps.
        use_cache: read the solution shipped with the package under the same parameters
            (:mod:`.shipped`: the presets' default solves), else read/write the on-disk cache
            (:mod:`dicemath.core.cache`); False solves afresh.
        compare: also evaluate the round-maximising policy (for player 0, the first start
            player, against a game-optimal player 1; and for both players).

    Returns:
        The :class:`GameSolution`; ``comparison`` holds (low, high) bounds of:
        ``"round_vs_optimal"``: P(first start player wins) when it maximises round wins and
        the other maximises its game win probability (against that policy);
        ``"round_second_vs_optimal"``: P(the round-maximiser wins) when it is the second
        player; ``"round_vs_round"``: P(first start player wins) when both maximise round wins.
    """
    rules = (rules or STANDARD).with_players(2)
    cap = cap if cap is not None else rules.stripes + DEFAULT_EXTRA
    if cap < rules.stripes:
        raise InvalidStateError(f"cap must be at least the starting stripes {rules.stripes}, got {cap}")
    space = StateSpace(cap)

    def build() -> dict[str, np.ndarray]:
        low, high, sweeps = _iterate(space, rules, tol=tol, max_sweeps=max_sweeps)
        arrays = {"low": low[0], "high": high[0], "sweeps": np.array(sweeps)}
        if compare:
            opening = space.index(rules.stripes, False, rules.stripes, False)
            low, high, _ = _iterate(space, rules, tol=tol, max_sweeps=max_sweeps,
                                    policies=("round", "opt"), desc="round-max vs optimal")
            arrays["round_vs_optimal"] = np.array([low[0][opening], high[0][opening],
                                                   1 - high[1][opening], 1 - low[1][opening]])
            low, high, _ = _iterate(space, rules, tol=tol, max_sweeps=max_sweeps,
                                    policies=("round", "round"), desc="round-max vs round-max")
            arrays["round_vs_round"] = np.array([low[0][opening], high[0][opening]])
        return arrays

    name, params = "pitjesbak-game", (rules, cap, tol, max_sweeps, compare)
    arrays = (shipped_arrays(name, params, GAME_SOLUTION_FORMAT) if use_cache else None) or cached_arrays(
        name, params, build, format_version=GAME_SOLUTION_FORMAT, use_cache=use_cache)
    comparison = {}
    if "round_vs_optimal" in arrays:
        rvo = arrays["round_vs_optimal"]
        comparison["round_vs_optimal"] = (float(rvo[0]), float(rvo[1]))
        comparison["round_second_vs_optimal"] = (float(rvo[2]), float(rvo[3]))
        rvr = arrays["round_vs_round"]
        comparison["round_vs_round"] = (float(rvr[0]), float(rvr[1]))
    return GameSolution(rules, cap, arrays["low"], arrays["high"], int(arrays["sweeps"]), comparison)
