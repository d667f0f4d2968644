"""Compiled full-board race games (numba, float64): the approximate race policy of
:mod:`.race_advice` against solo-optimal play by the distilled model's lookahead (the
advisor ``pegs advise`` / ``fives advise`` use without a table), seeded, for the head-to-head
figures of ``analyses/pegs_fives_race.py``.

Imported on demand (numba). The rules enter through tables built from the engine
(:func:`.race_solver.cycle_coefficients`, the cycle terminals of :func:`.state.after_hits`
and :func:`.state.miss`) and :func:`.fullboard.pegs_kernel.throw_groups`; the game itself is
played by :func:`_play_turn`, a transcription of :func:`.state.after_hits` / :func:`.state.miss`
(PEGS-3..9, FIVES-2..5) with thrown dice. A board is 12 digits (base ``goal + 1``).

Board values ``E`` are the distilled model (:class:`.distilled.DistilledValue`: the exact
end-game table, else the network, here evaluated in float32 like numpy) cached in a
direct-mapped memo. A row choice scores each legal row by the within-turn model on leaf
values, the chosen row the highest (the solo leaves are ``-E``, ``-(E - 1)`` for a fresh start;
the race leaves those of :class:`.race_advice.RaceLeaves`, tabulated lazily per opponent
board on the grid of :class:`.race_advice.TurnLaws`). Among equal values the first of the
throw-group order wins (most hits, then the higher row), as in the Python advisors.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from dicemath.core.jit import announce_compiles

announce_compiles()


MEMO_BITS = 22


@njit(cache=True, inline="always")
def _slot(key, bits):
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@njit(cache=True)
def _value(b, M, memo_key, memo_val, bits):
    """``E(b)``: 0 when complete, the end-game table, else the network (float32)."""
    offsets, endgame, W1, b1, W2, b2, W3, b3, goal, endgame_rows = M
    rows = b.shape[0]
    key = 0
    open_count = 0
    mask = 0
    for j in range(rows - 1, -1, -1):
        key = key * (goal + 1) + b[j]
    for j in range(rows):
        if b[j] < goal:
            open_count += 1
            mask |= 1 << j
    if open_count == 0:
        return 0.0
    s = _slot(key, bits)
    if memo_key[0][s] == key:
        return memo_val[0][s]
    if open_count <= endgame_rows:
        local = 0
        rank = 0
        for j in range(rows):
            if b[j] < goal:
                local += b[j] * goal ** rank
                rank += 1
        v = np.float64(endgame[offsets[mask] + local])
    else:
        h1 = b1.copy()
        for j in range(rows):
            w = W1[j * (goal + 1) + b[j]]
            for u in range(h1.shape[0]):
                h1[u] += w[u]
        out = b3[0]
        h2 = b2.copy()
        for u in range(h1.shape[0]):
            x = h1[u]
            if x > 0:
                for k in range(h2.shape[0]):
                    h2[k] += x * W2[u, k]
        for k in range(h2.shape[0]):
            if h2[k] > 0:
                out += h2[k] * W3[k, 0]
        v = np.float64(out)
    memo_key[0][s] = key
    memo_val[0][s] = v
    return v


@njit(cache=True)
def _rest(b, goal):
    r = 0
    for j in range(b.shape[0]):
        r += (goal - b[j]) * (j + 1)
    return np.float64(r)


@njit(cache=True)
def _grid_at(table, stamp, R, Lw, i, kind, pegs):
    """Row ``i`` of the opponent's leaf table ``kind`` (0 end, 1 fresh, 2 own end, 3 own fresh),
    computed on first use this turn (``R``: the opponent's arrays, ``stamp``)."""
    pmf, rest, lo, hi = Lw
    alive, shifted, F, Ffresh, ends, turn = R
    if stamp[kind, i] == turn[0]:
        return table[kind, i]
    total = 0.0
    if kind == 0:
        for n in range(lo[i], hi[i]):
            total += pmf[i, n] * (alive[n] if pegs else F[n])
    elif kind == 1:
        for n in range(lo[i], hi[i]):
            total += pmf[i, n] * (shifted[n] if pegs else Ffresh[n])
    elif kind == 2:
        for n in range(1, rest.shape[1]):
            total += rest[i, n - 1] * ends[n]
    else:
        for n in range(rest.shape[1]):
            total += rest[i, n] * ends[n]
    table[kind, i] = total
    stamp[kind, i] = turn[0]
    return total


@njit(cache=True)
def _leaf(b, fresh, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term):
    """The mover's leaf value of board ``b`` (end of turn, or a fresh start)."""
    goal = M[8]
    e = _value(b, M, memo_key, memo_val, bits)
    complete = True
    for j in range(b.shape[0]):
        if b[j] < goal:
            complete = False
    if not race:
        if complete:
            return 0.0
        return -(e - 1.0) if fresh else -e
    if complete:
        return term
    step, top = grid
    x = (min(max(e, 1.0), top) - 1.0) / step
    i = min(int(x), table.shape[1] - 2)
    w = x - i
    kind = 1 if fresh else 0
    v = (1 - w) * _grid_at(table, stamp, R, Lw, i, kind, pegs) + w * _grid_at(table, stamp, R, Lw, i + 1, kind, pegs)
    if not pegs:
        rp = _rest(b, goal)
        own = (1 - w) * _grid_at(table, stamp, R, Lw, i, kind + 2, pegs) \
            + w * _grid_at(table, stamp, R, Lw, i + 1, kind + 2, pegs)
        v -= rp * own
    return v


@njit(cache=True)
def _option_core(b, j, h, d, t, X, n1, n2, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs,
                 term):
    """Value of naming row ``j`` (0-based) with ``h`` hits on a choice throw of ``d`` dice,
    ``t`` throws left before it (1 without a limit), the turn ending here worth ``X``; ``n1``,
    ``n2``: the values of the PEGS-7 choice throws with 1 and 2 throws left that may follow."""
    coef, per_hit, group_start, group_p, entry_start, entry_row, entry_hits, goal, T = C
    need = goal - b[j]
    s = b[j]
    total = coef[j, need, d, t - 1, h, 0] * X
    for c in range(1, need + 1):
        a = coef[j, need, d, t - 1, h, c]
        f = coef[j, need, d, t - 1, h, goal + c]
        if a != 0.0 or f != 0.0:
            b[j] = s + c
            if a != 0.0:
                total += a * _leaf(b, False, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
            if f != 0.0:
                total += f * _leaf(b, True, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
            b[j] = s
    if T > 1:
        total += coef[j, need, d, t - 1, h, 2 * goal + 1] * n1
    if T > 2:
        total += coef[j, need, d, t - 1, h, 2 * goal + 2] * n2
    return total


@njit(cache=True)
def _nested(b, d, t, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term):
    """Expected leaf value of a PEGS-7 choice throw of ``d`` dice, ``t`` throws left (1 or 2),
    on ``b`` (memoised per board, dice, throws and opponent)."""
    coef, per_hit, group_start, group_p, entry_start, entry_row, entry_hits, goal, T = C
    complete = True
    key = 0
    for j in range(b.shape[0] - 1, -1, -1):
        key = key * (goal + 1) + b[j]
        if b[j] < goal:
            complete = False
    if complete:
        return term if race else 0.0
    nkey, nval, nstamp = memo_key[1], memo_val[1], memo_key[2]
    key = (key * 8 + d) * 4 + t
    slot = _slot(key, 20)
    context = R[5][0] if race else -1
    if nkey[slot] == key and nstamp[slot] == context:
        return nval[slot]
    X = _leaf(b, False, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
    total = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        best = 0.0
        found = False
        for e in range(entry_start[g], entry_start[g + 1]):
            j = entry_row[e]
            if b[j] >= goal:
                continue
            n1 = 0.0
            if t == 2:
                need = goal - b[j]
                d2 = d - per_hit[j] * need
                if d2 >= 1 and coef[j, need, d, t - 1, entry_hits[e], 2 * goal + 1] != 0.0:
                    s = b[j]
                    b[j] = goal
                    n1 = _nested1(b, d2, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
                    b[j] = s
            v = _option_core(b, j, entry_hits[e], d, t, X, n1, 0.0, race, C, M, memo_key, memo_val, bits, table,
                             stamp, R, Lw, grid, pegs, term)
            if not found or v > best:
                best = v
                found = True
        total += group_p[g] * (best if found else X)
    nkey[slot] = key
    nval[slot] = total
    nstamp[slot] = context
    return total


@njit(cache=True)
def _nested1(b, d, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term):
    """:func:`_nested` with one throw left (no PEGS-7 throw can follow)."""
    coef, per_hit, group_start, group_p, entry_start, entry_row, entry_hits, goal, T = C
    complete = True
    key = 0
    for j in range(b.shape[0] - 1, -1, -1):
        key = key * (goal + 1) + b[j]
        if b[j] < goal:
            complete = False
    if complete:
        return term if race else 0.0
    nkey, nval, nstamp = memo_key[1], memo_val[1], memo_key[2]
    key = (key * 8 + d) * 4 + 1
    slot = _slot(key, 20)
    context = R[5][0] if race else -1
    if nkey[slot] == key and nstamp[slot] == context:
        return nval[slot]
    X = _leaf(b, False, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
    total = 0.0
    for g in range(group_start[d], group_start[d + 1]):
        best = 0.0
        found = False
        for e in range(entry_start[g], entry_start[g + 1]):
            j = entry_row[e]
            if b[j] >= goal:
                continue
            v = _option_core(b, j, entry_hits[e], d, 1, X, 0.0, 0.0, race, C, M, memo_key, memo_val, bits, table,
                             stamp, R, Lw, grid, pegs, term)
            if not found or v > best:
                best = v
                found = True
        total += group_p[g] * (best if found else X)
    nkey[slot] = key
    nval[slot] = total
    nstamp[slot] = context
    return total


@njit(cache=True)
def _option(b, j, h, d, t, X, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term, depth):
    """:func:`_option_core` with the PEGS-7 choice throws that may follow computed."""
    coef, per_hit, group_start, group_p, entry_start, entry_row, entry_hits, goal, T = C
    need = goal - b[j]
    d2 = d - per_hit[j] * need
    n1 = 0.0
    n2 = 0.0
    if T > 1 and d2 >= 1:
        s = b[j]
        b[j] = goal
        if coef[j, need, d, t - 1, h, 2 * goal + 1] != 0.0:
            n1 = _nested1(b, d2, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
        if T > 2 and coef[j, need, d, t - 1, h, 2 * goal + 2] != 0.0:
            n2 = _nested(b, d2, 2, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
        b[j] = s
    return _option_core(b, j, h, d, t, X, n1, n2, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid,
                        pegs, term)


@njit(cache=True)
def _hits(row, counts):
    """Hits for ``row`` (1..12) in a throw with ``counts[face]`` (the rules' section on hits)."""
    if row <= 6:
        return counts[row]
    total = 0
    for a in range(max(1, row - 6), row // 2 + 1):
        c = row - a
        if a == c:
            total += counts[a] // 2
        else:
            total += min(counts[a], counts[c])
    return total


@njit(cache=True)
def _choose(b, legal_j, legal_h, n, d, t, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs,
            term):
    """The chosen row position among ``n`` legal options (most hits, then the higher row first)."""
    if n == 1:
        return legal_j[0]
    X = _leaf(b, False, race, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term)
    best = 0.0
    chosen = -1
    for _ in range(n):                      # order: most hits, then the higher row
        pick = -1
        for k in range(n):
            if legal_h[k] < 0:
                continue
            if pick < 0 or legal_h[k] > legal_h[pick] or (legal_h[k] == legal_h[pick] and legal_j[k] > legal_j[pick]):
                pick = k
        j, h = legal_j[pick], legal_h[pick]
        legal_h[pick] = -1 - h
        v = _option(b, j, h, d, t, X, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term, 0)
        if chosen < 0 or v > best + 1e-12 * (1.0 + abs(best)):
            best = v
            chosen = j
    for k in range(n):
        legal_h[k] = -1 - legal_h[k]
    return chosen


@njit(cache=True)
def _play_turn(b, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term, flags, stats):
    """Play one turn on ``b`` (changed in place) with thrown dice. ``flags``: overthrow,
    on_complete fresh, throws (0: no limit), dice. ``stats[0]``: choices with two or more rows."""
    coef, per_hit, group_start, group_p, entry_start, entry_row, entry_hits, goal, T = C
    overthrow, fresh_on_complete, limit, D = flags[0], flags[1], flags[2], flags[3]
    rows = b.shape[0]
    counts = np.zeros(7, np.int64)
    legal_j = np.zeros(rows, np.int64)
    legal_h = np.zeros(rows, np.int64)
    dice = D
    throws = limit
    while True:                                            # a choice throw
        for f in range(7):
            counts[f] = 0
        for _ in range(dice):
            counts[np.random.randint(1, 7)] += 1
        n = 0
        for j in range(rows):
            if b[j] < goal:
                h = _hits(j + 1, counts)
                if h > 0:
                    legal_j[n] = j
                    legal_h[n] = h
                    n += 1
        if n == 0:
            return                                         # PEGS-4 / FIVES-2: the turn ends
        t = throws if limit > 0 else 1
        if n > 1:
            stats[0] += 1
        row = _choose(b, legal_j, legal_h, n, dice, t, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw,
                      grid, pegs, term)
        count = _hits(row + 1, counts)
        if limit > 0:
            throws -= 1
        dice -= count * per_hit[row]
        while True:                                        # after_hits
            need = goal - b[row]
            if count > need:
                if overthrow:
                    return                                 # PEGS-6
                count = need
            if count == need:
                b[row] = goal
                done = True
                for j in range(rows):
                    if b[j] < goal:
                        done = False
                if done:
                    return
                if dice == 0:                              # PEGS-8 before PEGS-7
                    dice = D
                    throws = limit
                    break
                if fresh_on_complete:                      # FIVES-5
                    dice = D
                    throws = limit
                    break
                if limit == 0 or throws > 0:               # PEGS-7
                    break
                return
            if dice == 0:                                  # PEGS-8 / FIVES-4
                b[row] += count
                dice = D
                throws = limit
                break
            if limit > 0 and throws == 0:                  # PEGS-9
                b[row] += count
                return
            for f in range(7):                             # PEGS-5 / FIVES-3: throw on
                counts[f] = 0
            for _ in range(dice):
                counts[np.random.randint(1, 7)] += 1
            if limit > 0:
                throws -= 1
            k = _hits(row + 1, counts)
            if k == 0:
                b[row] += count                            # a miss: the count stands
                return
            count += k
            dice -= k * per_hit[row]


@njit(cache=True)
def _opponent_arrays(e, r, Lsurv, Lrest, grid, R, pegs):
    """Fill the opponent's arrays ``R`` for expected turns ``e`` and rest points ``r``."""
    alive, shifted, F, Ffresh, ends, turn = R
    step, top = grid
    x = (min(max(e, 1.0), top) - 1.0) / step
    i = min(int(x), Lsurv.shape[0] - 2)
    w = x - i
    H = alive.shape[0]
    for n in range(H):
        alive[n] = (1 - w) * Lsurv[i, n] + w * Lsurv[i + 1, n]
    shifted[0] = 1.0
    for n in range(1, H):
        shifted[n] = alive[n - 1]
    ends[0] = 0.0
    for n in range(1, H):
        ends[n] = shifted[n] - alive[n]
    if not pegs:
        for n in range(H):
            q = r * ((1 - w) * Lrest[i, n] + w * Lrest[i + 1, n])
            F[n] = q                                        # alive * (q / alive), one opponent
        Ffresh[0] = r
        for n in range(1, H):
            Ffresh[n] = F[n - 1]
    turn[0] += 1


@njit(cache=True)
def play_games(games, seed, kinds, C, M, bits, Lw, Lsurv, Lrest, grid, pegs, flags, out, stats):
    """Play ``games`` races of ``kinds[0]`` (player A) against ``kinds[1]`` (B; 1 race, 0 solo),
    A moving first in even games. ``out[g] = (winner, rest A, rest B, turns of A, turns of B)``."""
    np.random.seed(seed)
    goal = C[7]
    H = Lsurv.shape[1]
    G = Lsurv.shape[0]
    memo_key = (np.full(1 << bits, -1, np.int64), np.full(1 << 20, -1, np.int64), np.zeros(1 << 20, np.int64))
    memo_val = (np.zeros(1 << bits), np.zeros(1 << 20))
    table = np.zeros((4, G))
    stamp = np.zeros((4, G), np.int64)
    R = (np.zeros(H), np.zeros(H), np.zeros(H), np.zeros(H), np.zeros(H), np.zeros(1, np.int64))
    boards = np.zeros((2, 12), np.int64)
    for g in range(games):
        boards[:, :] = 0
        turns = np.zeros(2, np.int64)
        current = g % 2
        while True:
            me = boards[current]
            other = boards[1 - current]
            race = kinds[current] == 1
            term = 1.0
            if race:
                e = _value(other, M, memo_key, memo_val, bits)
                r = _rest(other, goal)
                term = 1.0 if pegs else r
                _opponent_arrays(e, r, Lsurv, Lrest, grid, R, pegs)
            _play_turn(me, race, C, M, memo_key, memo_val, bits, table, stamp, R, Lw, grid, pegs, term, flags, stats)
            turns[current] += 1
            done = True
            for j in range(12):
                if me[j] < goal:
                    done = False
            if done:
                out[g, 0] = current
                out[g, 1] = _rest(boards[0], goal)
                out[g, 2] = _rest(boards[1], goal)
                out[g, 3] = turns[0]
                out[g, 4] = turns[1]
                break
            current = 1 - current


_TABLES: dict = {}


def simulation_tables(rules):
    """The constant tables of :func:`play_games` for ``rules`` (cached per process)."""
    if rules in _TABLES:
        return _TABLES[rules]
    from dicemath.games.pegs_fives.distilled import DistilledValue
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import throw_groups
    from dicemath.games.pegs_fives.race_advice import GRID_MAX, GRID_STEP, turn_laws
    from dicemath.games.pegs_fives.race_solver import cycle_coefficients

    goal, dice = rules.goal, rules.dice
    T = rules.throws or 1
    rows = tuple(range(1, rules.rows + 1))
    coef = cycle_coefficients(rules, rows)
    groups = throw_groups(rules, rows)
    per_hit = np.array([rules.dice_per_hit[r - 1] for r in rows], np.int64)
    C = (coef, per_hit, groups["group_start"], groups["group_p"], groups["entry_start"], groups["entry_row"],
         groups["entry_hits"], goal, T)
    model = DistilledValue.load(rules)
    W1, b1, W2, b2, W3, b3 = (np.ascontiguousarray(a, dtype=np.float32) for a in model.layers)
    M = (model.offsets.astype(np.int64), model.endgame.astype(np.float32), W1, b1, W2, b2, W3, b3, goal,
         model.endgame_rows)
    laws = turn_laws(rules)
    support = laws.pmf > 1e-15
    lo = np.argmax(support, axis=1).astype(np.int64)
    hi = (laws.pmf.shape[1] - np.argmax(support[:, ::-1], axis=1)).astype(np.int64)
    Lw = (laws.pmf, laws.rest, lo, hi)
    flags = np.array([int(rules.overthrow), int(rules.on_complete == "fresh"), rules.throws or 0, dice], np.int64)
    tables = (C, M, Lw, laws.survival, laws.rest, (GRID_STEP, GRID_MAX), rules.scoring == "first_out", flags)
    _TABLES[rules] = tables
    return tables


def simulate(rules, kinds: tuple[int, int], games: int, seed: int) -> tuple[np.ndarray, dict]:
    """Play ``games`` seeded races (:func:`play_games`); returns ``out`` and timing."""
    C, M, Lw, surv, rest, grid, pegs, flags = simulation_tables(rules)
    out = np.zeros((games, 5), np.int64)
    stats = np.zeros(1, np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    play_games(games, seed, np.array(kinds, np.int64), C, M, MEMO_BITS, Lw, surv, rest, grid, pegs, flags, out,
               stats)
    return out, {"wall_seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu,
                 "choices": int(stats[0])}
