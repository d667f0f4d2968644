"""Game-optimal play of three-player Pitjesbak (small stripe counts), by value iteration.

Each player maximises their own probability of winning the game (PIT-1); with three
players this is not zero-sum, so values are vectors and a round is solved by backward
induction over the three players' stop decisions (ties: stop). The state between rounds is
``(a0, f0, a1, f1, a2, f2)`` in turn order from the start player (stripes and has-wiped
flags); after a round the start moves left (PIT-8), so the next state is seen from the old
position 1. When a player is eliminated by 1-1-1 (PIT-6), the two others play on: the
remaining round is still resolved here and the game continues as a two-player game whose
values come from :func:`~dicemath.games.pitjesbak.game_solver.solve_game`.

What limits it. A round has 42**3 = 74,088 joint counting throws per state (reduced to 99
outcome patterns for the successor values, but the three players' backward induction runs
over all of them), and the state space is ``(2 * cap)**3``. With 2 stripes (cap 4, 512
states) a solve takes about 30 s; with the full 9 stripes and cap 11 (10,648 states) it took
638 s and 11 sweeps on a shared core (measured), so it is a library call with the cache,
not a CLI default (the CLI allows at most 3 stripes). Without zero-sum structure the
monotone sandwich of the two-player solver does not apply, so states above the cap are
*clipped* to the cap (an approximation); :attr:`Game3Solution.residual` is the last sweep's
change and the cap's effect is measured by solving with ``cap + 1``. Float64.

Measured (9 stripes): P(win) by turn position 0.341291, 0.332149, 0.326560 with cap 11
(638 s) and cap 12 (829 s, 13,824 states); the two caps differ by less than 3e-8.

Example (a solve takes tens of seconds, so only the state indexing runs here):
    >>> space = Space3(cap=4)
    >>> space.state(space.index(2, True, 4, False, 1, True))
    (2, True, 4, False, 1, True)
    >>> solve_game3(Rules(players=3, stripes=1), cap=3).opening_values  # doctest: +SKIP
    (0.4293831156426313, 0.2745617035555297, 0.2960551808018387)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from dicemath.core.cache import cached_arrays
from dicemath.core.errors import InvalidStateError
from dicemath.core.mdp import sweep_to_convergence
from dicemath.games.pitjesbak.advice import game_policy
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.throws import class_space, classify

_TYPES = ((1, 0), (1, 1), (2, 0), (3, 0))
MAX_CAP = 12
"""Largest cap accepted: (2 * 12)**3 = 13,824 states, roughly a minute per sweep."""


@lru_cache(maxsize=None)
def _patterns(die_values: str):
    """Map every triple of counting classes to a pattern: (apen mask, best set among the
    others, wipe type of a single best, penalty bits)."""
    space = class_space(Rules(die_values=die_values))
    size, apen = space.size, space.apen
    keys: dict[tuple, int] = {}
    table = np.empty((size, size, size), dtype=np.intp)
    for i in range(size):
        for j in range(size):
            for k in range(size):
                triple = (i, j, k)
                apens = tuple(c == apen for c in triple)
                ranked = [(space.levels[c], pos) for pos, c in enumerate(triple) if c != apen]
                if len(ranked) >= 1:
                    top = max(level for level, _ in ranked)
                    best = tuple(pos for level, pos in ranked if level == top)
                else:
                    best = ()
                wipe_type = -1
                if len(best) == 1:
                    c = space.classes[triple[best[0]]]
                    wipe_type = _TYPES.index((c.wipe, c.penalty))
                pens = tuple(0 if c == apen else space.classes[c].penalty for c in triple)
                key = (apens, best, wipe_type, pens)
                table[i, j, k] = keys.setdefault(key, len(keys))
    return table, tuple(keys)


@dataclass(frozen=True)
class Space3:
    """Dense indices of three-player states with stripes 1..cap (clipped above)."""

    cap: int

    @property
    def n(self) -> int:
        """Number of states."""
        return (2 * self.cap) ** 3

    def index(self, a0, f0, a1, f1, a2, f2) -> int:
        """Dense index of a state (stripes clipped to the cap)."""
        m = self.cap
        a0, a1, a2 = min(a0, m), min(a1, m), min(a2, m)
        return ((((((a0 - 1) * 2 + int(f0)) * m + a1 - 1) * 2 + int(f1)) * m + a2 - 1) * 2 + int(f2))

    def state(self, index: int):
        """The state ``(a0, f0, a1, f1, a2, f2)`` of an index."""
        m = self.cap
        out = []
        for _ in range(3):
            f = index % 2
            index //= 2
            a = index % m + 1
            index //= m
            out = [a, bool(f)] + out
        return tuple(out)


def _pattern_atoms(space: Space3, state, key, v2):
    """(constant vector, [(weight, next 3-player index)]) of one pattern at one state."""
    a = [state[0], state[2], state[4]]
    f = [state[1], state[3], state[5]]
    apens, best, wipe_type, pens = key
    alive = [True, True, True]
    for pos in range(3):
        if apens[pos]:
            if f[pos]:
                return np.eye(3)[pos], []
            alive[pos] = False
            if sum(alive) == 1:
                return np.eye(3)[alive.index(True)], []
    const = np.zeros(3)
    nexts = []
    share = 1.0 / len(best)
    for winner in best:
        wipe, _ = _TYPES[wipe_type] if len(best) == 1 else (1, 0)
        stripes = list(a)
        stripes[winner] = max(0, stripes[winner] - wipe)
        for pos in range(3):
            if alive[pos]:
                stripes[pos] += pens[pos]
        flags = list(f)
        flags[winner] = True
        if stripes[winner] == 0:
            const[winner] += share
            continue
        if all(alive):
            nexts.append((share, space.index(stripes[1], flags[1], stripes[2], flags[2],
                                             stripes[0], flags[0])))
            continue
        # two players left: the next start is the first alive after position 0 (PIT-8)
        first = 1 if alive[1] else 2
        second = [p for p in (2, 0) if alive[p] and p != first][0] if first == 1 else 0
        if first == 1 and not alive[2]:
            second = 0
        p_first = v2(stripes[first], flags[first], stripes[second], flags[second])
        const[first] += share * p_first
        const[second] += share * (1 - p_first)
    return const, nexts


def _round3(result: np.ndarray, probs: np.ndarray):
    """Backward induction of a three-player round on results ``(n, 3, C, C, C)``
    (player value first, then the classes of positions 0, 1, 2).

    Returns (value (n, 3), start stop values H (n, 3 limits, 3, C), start continue
    (n, 2, 3), follower-1 continuation values per limit, follower-2 values E by throws)."""
    e = [result @ probs]                               # (n, 3, C, C): F2 with 1 throw
    for _ in (1, 2):
        keep = e[-1][..., None]
        mask = result[:, 2:3] >= keep[:, 2:3]
        e.append(np.where(mask, result, keep) @ probs)
    h = []
    g_by_limit = []
    for limit in (1, 2, 3):
        q = e[limit - 1]                               # F1 stops on j: F2 has `limit` throws
        g = [q @ probs]                                # (n, 3, C)
        for _ in range(limit - 1):
            keep = g[-1][..., None]
            mask = q[:, 1:2] >= keep[:, 1:2]
            g.append(np.where(mask, q, keep) @ probs)
        g_by_limit.append(g)
        h.append(g[-1])                                # S stops after throw `limit`
    c3 = h[2] @ probs                                  # (n, 3)
    g2 = np.where(h[1][:, 0:1] >= c3[:, 0:1, None], h[1], c3[..., None])
    c2 = g2 @ probs
    g1 = np.where(h[0][:, 0:1] >= c2[:, 0:1, None], h[0], c2[..., None])
    value = g1 @ probs
    return value, np.stack(h, axis=1), np.stack([c2, c3], axis=1), g_by_limit, e


@dataclass(frozen=True)
class Game3Solution:
    """Values of three-player Pitjesbak: ``values[index, k]`` = P(turn position k wins).

    Attributes:
        rules: the rules (3 players).
        cap: stripe counts above are clipped to it.
        values: ``(n, 3)`` float64.
        sweeps: sweeps used; residual: the last sweep's largest change.
    """

    rules: Rules
    cap: int
    values: np.ndarray
    sweeps: int
    residual: float

    @property
    def space(self) -> Space3:
        return Space3(self.cap)

    def value(self, a0, f0, a1, f1, a2, f2) -> np.ndarray:
        """P(each turn position wins) at the start of a round (start player first).

        Raises:
            InvalidStateError: a stripe count outside 1..cap.
        """
        for count in (a0, a1, a2):
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= self.cap:
                raise InvalidStateError(f"stripes must be 1..{self.cap} here, got {count!r}")
        return self.values[self.space.index(a0, f0, a1, f1, a2, f2)].copy()

    @property
    def opening_values(self) -> tuple[float, float, float]:
        """P(win) of the first start player, the next and the last, at the opening."""
        s = self.rules.stripes
        return tuple(float(v) for v in self.value(s, False, s, False, s, False))  # type: ignore[return-value]


def _tables(rules: Rules, cap: int):
    space = Space3(cap)
    pattern_map, keys = _patterns(rules.die_values)
    two = solve_game(rules.with_players(2), cap=max(cap + 4, rules.stripes + 8), compare=False)

    def v2(a, fa, b, fb):
        return two.value(min(a, two.cap), fa, min(b, two.cap), fb)

    n, p = space.n, len(keys)
    const = np.zeros((n, p, 3))
    weights = np.zeros((n, p, 3))
    nexts = np.zeros((n, p, 3), dtype=np.intp)
    for s in range(n):
        state = space.state(s)
        for k, key in enumerate(keys):
            c, succ = _pattern_atoms(space, state, key, v2)
            const[s, k] = c
            for b, (w, idx) in enumerate(succ):
                weights[s, k, b] = w
                nexts[s, k, b] = idx
    return space, pattern_map, const, weights, nexts


def _results(values, idx, pattern_map, const, weights, nexts):
    rotated = values[:, [2, 0, 1]]                     # next frame (P1, P2, P0) -> (P0, P1, P2)
    table = const[idx] + np.einsum("spb,spbv->spv", weights[idx], rotated[nexts[idx]])
    return np.ascontiguousarray(table.transpose(0, 2, 1))[:, :, pattern_map]


def solve_game3(rules: Rules | None = None, *, cap: int | None = None, tol: float = 1e-12,
                max_sweeps: int = 100, use_cache: bool = True, batch: int = 16) -> Game3Solution:
    """Solve three-player Pitjesbak (each player maximises P(win the game)).

    Args:
        rules: the rules (``players`` is set to 3); default 2 stripes.
        cap: highest stripe count (default ``stripes + 2``); above it counts are clipped.
        tol: stop when a sweep changes no value by more than this.
        max_sweeps: safety limit.
        use_cache: use the on-disk cache.
        batch: states solved together (memory: about 1.8 MB per state).

    Raises:
        InvalidStateError: a cap above :data:`MAX_CAP` or below the stripes.

    Two-player continuations (after an elimination) use :func:`solve_game` with a cap at
    least 4 above this one.
    """
    rules = (rules or Rules(stripes=2)).with_players(3)
    cap = cap if cap is not None else rules.stripes + 2
    if not rules.stripes <= cap <= MAX_CAP:
        raise InvalidStateError(f"three-player cap must be stripes..{MAX_CAP} (time), got {cap}")
    probs = class_space(rules).probabilities()

    def build():
        space, pattern_map, const, weights, nexts = _tables(rules, cap)
        values = np.full((space.n, 3), 1.0 / 3.0)
        totals = np.array([sum(space.state(i)[0::2]) for i in range(space.n)])
        order = np.argsort(totals, kind="stable")
        blocks = [order[start:start + batch] for start in range(0, space.n, batch)]

        def update(idx: np.ndarray) -> float:
            new = _round3(_results(values, idx, pattern_map, const, weights, nexts), probs)[0]
            change = float(np.abs(new - values[idx]).max())
            values[idx] = new
            return change

        sweeps, residual = sweep_to_convergence(blocks, update, tolerance=tol, max_sweeps=max_sweeps,
                                                desc="pitjesbak 3 players")
        return {"values": values, "sweeps": np.array(sweeps), "residual": np.array(residual)}

    arrays = cached_arrays("pitjesbak-game3", (rules, cap, tol, max_sweeps), build, use_cache=use_cache)
    return Game3Solution(rules, cap, arrays["values"], int(arrays["sweeps"]), float(arrays["residual"]))


def game3_policy(solution: Game3Solution):
    """Simulator policy: game-optimal for three alive players, the two-player game policy after
    an elimination."""
    rules = solution.rules
    space = class_space(rules)
    pattern_map, keys = _patterns(rules.die_values)
    v2_solution = solve_game(rules.with_players(2), cap=max(solution.cap + 4, rules.stripes + 8),
                             compare=False)
    two = game_policy(v2_solution)
    memo: dict = {}

    def v2(a, fa, b, fb):
        return v2_solution.value(min(a, v2_solution.cap), fa, min(b, v2_solution.cap), fb)

    def tables(key):
        if key not in memo:
            s3 = solution.space
            state_index = s3.index(*key)
            const = np.zeros((1, len(keys), 3))
            weights = np.zeros((1, len(keys), 3))
            nexts = np.zeros((1, len(keys), 3), dtype=np.intp)
            for k, pattern in enumerate(keys):
                c, succ = _pattern_atoms(s3, s3.state(state_index), pattern, v2)
                const[0, k] = c
                for b, (w, idx) in enumerate(succ):
                    weights[0, k, b] = w
                    nexts[0, k, b] = idx
            result = _results(solution.values, np.array([0]), pattern_map, const, weights, nexts)
            memo[key] = (result, _round3(result, space.probabilities()))
        return memo[key]

    def decide(state: State) -> str:
        if len(state.order) == 2:                      # a two-player game after an elimination
            return two(state)
        key = tuple(x for seat in state.order for x in (min(state.stripes[seat], solution.cap),
                                                         state.wiped[seat]))
        result, (_, h, cont, g_by_limit, e) = tables(key)
        x = space.index(classify(state.current, rules))  # type: ignore[arg-type]
        t = state.throws
        if state.turn == 0:
            return STOP if h[0, t - 1, 0, x] >= cont[0, t - 1, 0] else THROW
        limit = state.limit
        left = limit - t
        apen_row = space.apen
        c0 = space.index(classify(state.results[0], rules)) if state.results[0] is not None else apen_row
        if state.turn == 1:
            q = e[limit - 1]
            return STOP if q[0, 1, c0, x] >= g_by_limit[limit - 1][left - 1][0, 1, c0] else THROW
        c1 = space.index(classify(state.results[1], rules)) if state.results[1] is not None else apen_row
        return STOP if result[0, 2, c0, c1, x] >= e[left - 1][0, 2, c0, c1] else THROW
    return decide
