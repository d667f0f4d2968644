"""The compiled loops of the n-player round and game solvers (numba).

Imported on first use only (numba is loaded then), by :mod:`.table_round`,
:mod:`.table_solver` and :mod:`.table_compare`; the data layout (knowledge slots, atoms, state indices) is described
there. Every function here is plain arithmetic on arrays; nothing here knows the rules
beyond what the arrays say.

Layout shared with :mod:`.table_round`:

* a *knowledge slot* of turn position ``j`` (1..n-1) is
  ``slot_off[j] + ((L - 1) * (NL + 1) + b + 1) * R**j + code``: limit ``L``, best level
  ``b`` (-1: everybody before is out) and the status digits of positions ``0..j-1``
  (base ``R``: 0 below, 1 below with a 2-2-3 penalty, 2 best, 3 out, 4 best with a penalty);
* an *atom* (the end of a round) is ``code * 4 + type``, ``code`` the digits of all ``n``
  positions and ``type`` the (wipe, penalty) type of the best level (``_TYPES``).
"""

from __future__ import annotations

import numba
import numpy as np

from dicemath.core.jit import announce_compiles

announce_compiles()


@numba.njit(cache=True, inline="always")
def _slot(slot_off, j, L, b, NL, powR, code):
    return slot_off[j] + ((L - 1) * (NL + 1) + b + 1) * powR[j] + code


@numba.njit(cache=True)
def _stop_recursion(masses, vals, m, me, L, E, tmp):
    """Value of a turn with ``L`` throws over ``m`` outcomes (ties: stop); writes ``E``."""
    n = vals.shape[1]
    for c in range(n):
        E[c] = 0.0
    for k in range(m):
        w = masses[k]
        for c in range(n):
            E[c] += w * vals[k, c]
    for _ in range(L - 1):
        for c in range(n):
            tmp[c] = 0.0
        own = E[me]
        for k in range(m):
            w = masses[k]
            if vals[k, me] >= own:
                for c in range(n):
                    tmp[c] += w * vals[k, c]
            else:
                for c in range(n):
                    tmp[c] += w * E[c]
        for c in range(n):
            E[c] = tmp[c]


@numba.njit(cache=True)
def _gather(j, n, L, b, code, flags, atoms, W, NL, R, powR, slot_off, mass_lp, below_mass,
            above_mass, mass_apen, level_type, best_pen, demote, masses, vals):
    """The outcomes of position ``j``'s counting throw at a knowledge slot: masses and the
    value vectors they lead to (knowledge slots of ``j + 1`` or atoms). Returns their number."""
    last = j == n - 1
    m = 0
    pj = powR[j]
    # 1-1-1 (PIT-6)
    if flags[j]:
        for c in range(n):
            vals[m, c] = 0.0
        vals[m, j] = 1.0
    else:
        code2 = code + 3 * pj
        if last:
            row = code2 * 4 + level_type[b]
            for c in range(n):
                vals[m, c] = atoms[row, c]
        else:
            s2 = _slot(slot_off, j + 1, L, b, NL, powR, code2)
            for c in range(n):
                vals[m, c] = W[s2, c]
    masses[m] = mass_apen
    m += 1
    if b >= 0:
        for p in range(2):
            # below the best (a penalty is the only thing that stays)
            w = below_mass[b + 1, p]
            if w > 0.0:
                code2 = code + p * pj
                if last:
                    row = code2 * 4 + level_type[b]
                    for c in range(n):
                        vals[m, c] = atoms[row, c]
                else:
                    s2 = _slot(slot_off, j + 1, L, b, NL, powR, code2)
                    for c in range(n):
                        vals[m, c] = W[s2, c]
                masses[m] = w
                m += 1
            # equal to the best: one more holder
            w = mass_lp[b, p]
            if w > 0.0:
                digit = 2 if (R == 4 or p == 0) else 4
                code2 = code + digit * pj
                if last:
                    row = code2 * 4 + level_type[b]
                    for c in range(n):
                        vals[m, c] = atoms[row, c]
                else:
                    s2 = _slot(slot_off, j + 1, L, b, NL, powR, code2)
                    for c in range(n):
                        vals[m, c] = W[s2, c]
                masses[m] = w
                m += 1
        mode = best_pen[b] if R == 4 else 0
        dcode = demote[mode, code]
    else:
        dcode = code
    # above the best: the only holder
    if last:
        for t in range(4):
            for p in range(2):
                w = above_mass[b + 1, t, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    row = (dcode + digit * pj) * 4 + t
                    for c in range(n):
                        vals[m, c] = atoms[row, c]
                    masses[m] = w
                    m += 1
    else:
        for level in range(b + 1, NL):
            for p in range(2):
                w = mass_lp[level, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    s2 = _slot(slot_off, j + 1, L, level, NL, powR, dcode + digit * pj)
                    for c in range(n):
                        vals[m, c] = W[s2, c]
                    masses[m] = w
                    m += 1
    return m


@numba.njit(cache=True)
def _start_outcomes(n, t, flags, W, NL, powR, slot_off, mass_lp, mass_apen, R, masses, vals):
    """The start player's outcomes when he stops after throw ``t`` (the limit becomes ``t``)."""
    m = 0
    if flags[0]:
        for c in range(n):
            vals[m, c] = 0.0
        vals[m, 0] = 1.0
    else:
        s2 = _slot(slot_off, 1, t, -1, NL, powR, 3)
        for c in range(n):
            vals[m, c] = W[s2, c]
    masses[m] = mass_apen
    m += 1
    for level in range(NL):
        for p in range(2):
            w = mass_lp[level, p]
            if w > 0.0:
                digit = 2 if (R == 4 or p == 0) else 4
                s2 = _slot(slot_off, 1, t, level, NL, powR, digit)
                for c in range(n):
                    vals[m, c] = W[s2, c]
                masses[m] = w
                m += 1
    return m


@numba.njit(cache=True)
def _last_position(n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp,
                   below_mass, above_mass, mass_apen, level_type, best_pen, demote, masses, vals, E, tmp):
    """The last player's turns: the atoms do not depend on the limit, so one recursion over a
    knowledge state ``(b, code)`` gives its values for the limits 1, 2 and 3. (The outcomes
    are those of :func:`_gather`, read as atom rows in place.)"""
    j = n - 1
    pj = powR[j]
    rows = np.empty(16, dtype=np.int64)
    count = (node_ptr[j + 1] - node_ptr[j]) // 3         # the nodes of limit 1 come first
    flagged = flags[j] != 0
    for k in range(node_ptr[j], node_ptr[j] + count):
        b = node_b[k]
        code = node_code[k]
        s1 = _slot(slot_off, j, 1, b, NL, powR, code)
        step = (NL + 1) * powR[j]                        # from one limit to the next
        if b < 0:                                        # everybody else is out: he wins (PIT-8)
            for L in range(3):
                for c in range(n):
                    W[s1 + L * step, c] = 0.0
                W[s1 + L * step, j] = 1.0
            continue
        t_b = level_type[b]
        m = 0
        if not flagged:
            rows[m] = (code + 3 * pj) * 4 + t_b
            masses[m] = mass_apen
            m += 1
        for p in range(2):
            w = below_mass[b + 1, p]
            if w > 0.0:
                rows[m] = (code + p * pj) * 4 + t_b
                masses[m] = w
                m += 1
            w = mass_lp[b, p]
            if w > 0.0:
                digit = 2 if (R == 4 or p == 0) else 4
                rows[m] = (code + digit * pj) * 4 + t_b
                masses[m] = w
                m += 1
        dcode = demote[best_pen[b] if R == 4 else 0, code]
        for t in range(4):
            for p in range(2):
                w = above_mass[b + 1, t, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    rows[m] = (dcode + digit * pj) * 4 + t
                    masses[m] = w
                    m += 1
        # limit 1: every outcome counts (a flagged 1-1-1 wins the game, PIT-6)
        for c in range(n):
            E[c] = 0.0
        if flagged:
            E[j] = mass_apen
        for i in range(m):
            w = masses[i]
            row = rows[i]
            for c in range(n):
                E[c] += w * atoms[row, c]
        for c in range(n):
            W[s1, c] = E[c]
        for L in range(1, 3):
            own = E[j]
            for c in range(n):
                tmp[c] = E[c]
            if flagged:                                   # 1-1-1 is worth 1 to him: he stops
                for c in range(n):
                    tmp[c] -= mass_apen * E[c]
                tmp[j] += mass_apen
            for i in range(m):
                row = rows[i]
                if atoms[row, j] >= own:
                    w = masses[i]
                    for c in range(n):
                        tmp[c] += w * (atoms[row, c] - E[c])
            for c in range(n):
                E[c] = tmp[c]
                W[s1 + L * step, c] = tmp[c]


@numba.njit(cache=True)
def _above_tables(j, n, W, NL, R, powR, slot_off, nb_codes, item_level, item_pen, item_mass, suf_val, own, mono):
    """For every limit and every status code without a holder (``nb_codes``) at position
    ``j``: the value vectors of position ``j`` taking the best alone with each item (level,
    penalty) as suffix sums from the top item, his own values and where they rise monotonely."""
    K = item_level.shape[0]
    pj = powR[j]
    for L in range(1, 4):
        for q in range(nb_codes.shape[0]):
            dcode = nb_codes[q]
            for c in range(n):
                suf_val[L - 1, q, K, c] = 0.0
            mono[L - 1, q, K - 1] = True
            for k in range(K - 1, -1, -1):
                digit = 2 if (R == 4 or item_pen[k] == 0) else 4
                s2 = _slot(slot_off, j + 1, L, item_level[k], NL, powR, dcode + digit * pj)
                w = item_mass[k]
                for c in range(n):
                    suf_val[L - 1, q, k, c] = suf_val[L - 1, q, k + 1, c] + w * W[s2, c]
                own[L - 1, q, k] = W[s2, j]
                if k < K - 1:
                    mono[L - 1, q, k] = mono[L - 1, q, k + 1] and own[L - 1, q, k] <= own[L - 1, q, k + 1]


@numba.njit(cache=True)
def _middle_position(j, n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                     mass_lp, below_mass, mass_apen, best_pen, demote, nb_index, item_level, item_pen,
                     item_mass, item_start, suf_mass, suf_val, own, mono, masses, vals, E, tmp):
    """The turns of position ``j`` (not the last): the few outcomes that keep the best directly,
    the many that take it (one per level above) by suffix sums, where the player's own value
    rises with the level (a threshold), else one by one. (The outcomes are those of
    :func:`_gather`.)"""
    K = item_level.shape[0]
    pj = powR[j]
    rows = np.empty(8, dtype=np.int64)
    flagged = flags[j] != 0
    for k in range(node_ptr[j], node_ptr[j + 1]):
        L = node_L[k]
        b = node_b[k]
        code = node_code[k]
        s = _slot(slot_off, j, L, b, NL, powR, code)
        m = 0
        if not flagged:
            rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + 3 * pj)
            masses[m] = mass_apen
            m += 1
        if b >= 0:
            for p in range(2):
                w = below_mass[b + 1, p]
                if w > 0.0:
                    rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + p * pj)
                    masses[m] = w
                    m += 1
                w = mass_lp[b, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + digit * pj)
                    masses[m] = w
                    m += 1
            dcode = demote[best_pen[b] if R == 4 else 0, code]
        else:
            dcode = code
        q = nb_index[dcode]
        start = item_start[b + 1]
        # limit 1 left: every outcome counts (a flagged 1-1-1 wins the game, PIT-6)
        for c in range(n):
            E[c] = suf_val[L - 1, q, start, c]
        if flagged:
            E[j] += mass_apen
        for i in range(m):
            w = masses[i]
            row = rows[i]
            for c in range(n):
                E[c] += w * W[row, c]
        for _ in range(L - 1):
            theta = E[j]
            for c in range(n):
                tmp[c] = E[c]
            if flagged:
                for c in range(n):
                    tmp[c] -= mass_apen * E[c]
                tmp[j] += mass_apen
            for i in range(m):
                row = rows[i]
                if W[row, j] >= theta:
                    w = masses[i]
                    for c in range(n):
                        tmp[c] += w * (W[row, c] - E[c])
            if start == K:
                pass
            elif mono[L - 1, q, start]:
                lo = start
                hi = K
                while lo < hi:                           # first item with own value >= theta
                    mid = (lo + hi) // 2
                    if own[L - 1, q, mid] >= theta:
                        hi = mid
                    else:
                        lo = mid + 1
                taken = suf_mass[lo]
                for c in range(n):
                    tmp[c] += suf_val[L - 1, q, lo, c] - taken * E[c]
            else:
                for i in range(start, K):
                    if own[L - 1, q, i] >= theta:
                        w = item_mass[i]
                        for c in range(n):
                            tmp[c] += suf_val[L - 1, q, i, c] - suf_val[L - 1, q, i + 1, c] - w * E[c]
            for c in range(n):
                E[c] = tmp[c]
        for c in range(n):
            W[s, c] = E[c]


@numba.njit(cache=True)
def round_backward(n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                   mass_lp, below_mass, above_mass, mass_apen, level_type, best_pen, demote, nb_count,
                   nb_code, nb_index, item_level, item_pen, item_mass, item_start, suf_mass, out):
    """Backward induction of one round: fills ``W`` (every knowledge slot's value vector) and
    writes the round's value vector (at its start) to ``out``."""
    size = 2 * NL + 8
    masses = np.empty(size)
    vals = np.empty((size, n))
    E = np.empty(n)
    tmp = np.empty(n)
    K = item_level.shape[0]
    _last_position(n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp,
                   below_mass, above_mass, mass_apen, level_type, best_pen, demote, masses, vals, E, tmp)
    if n > 2:
        most = nb_count[n - 2]
        suf_val = np.empty((3, most, K + 1, n))
        own = np.empty((3, most, K))
        mono = np.empty((3, most, K), dtype=np.bool_)
        for j in range(n - 2, 0, -1):
            _above_tables(j, n, W, NL, R, powR, slot_off, nb_code[:nb_count[j]], item_level, item_pen,
                          item_mass, suf_val, own, mono)
            _middle_position(j, n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                             mass_lp, below_mass, mass_apen, best_pen, demote, nb_index, item_level, item_pen,
                             item_mass, item_start, suf_mass, suf_val, own, mono, masses, vals, E, tmp)
    # the start player: stopping after throw t sets the limit t (PIT-4)
    cont = np.zeros(n)
    for t in range(3, 0, -1):
        m = _start_outcomes(n, t, flags, W, NL, powR, slot_off, mass_lp, mass_apen, R, masses, vals)
        for c in range(n):
            tmp[c] = 0.0
        for k in range(m):
            w = masses[k]
            if t == 3 or vals[k, 0] >= cont[0]:
                for c in range(n):
                    tmp[c] += w * vals[k, c]
            else:
                for c in range(n):
                    tmp[c] += w * cont[c]
        for c in range(n):
            cont[c] = tmp[c]
    for c in range(n):
        out[c] = cont[c]


@numba.njit(cache=True)
def _index(stripes, flags, order, count, cap, s0):
    """Index of the state seen from ``order`` (its first entry starts), stripes clipped to the
    cap: a digit per position, ``a - 1`` with the has-wiped flag, ``cap + a - s0`` without
    (a player who never wiped has at least the starting ``s0`` stripes), base ``2 cap - s0 + 1``."""
    index = 0
    radix = 2 * cap - s0 + 1
    for k in range(count):
        pos = order[k]
        a = stripes[pos]
        if a > cap:
            a = cap
        index = index * radix + (a - 1 if flags[pos] else cap + a - s0)
    return index


@numba.njit(cache=True)
def game_atoms(n, fixed, stripes, flags, atom_rows, atom_T, atom_P, atom_O, atom_wipe, U, cap, s0, sub_values,
               sub_offset, sub_cap, fsub_values, fsub_offset, fsub_cap, fsub_count, exact_upto, strength, delta,
               luce_cap, atoms, new_stripes, new_flags, order, work):
    """The value vector of every atom (end of a round) of one state (PIT-5..PIT-8).

    Where the next state is read:

    * more than ``exact_upto`` players still in: estimated by the Luce model
      ``strength``/``delta`` (stripes above ``luce_cap`` read as it; :func:`_luce`);
    * all ``n`` players: ``U[p, index]`` (cap ``cap``), ``p`` the new turn position of the
      player at ``fixed`` (``fixed = -1``: nobody keeps to a policy of his own, ``p = 0``);
    * fewer, the player at ``fixed`` out by 1-1-1 or ``fixed = -1``: the ``k``-player values
      ``sub_values[sub_offset[k]:]`` (cap ``sub_cap[k]``);
    * fewer, with him still in: ``fsub_values[fsub_offset[k]:]`` (cap ``fsub_cap[k]``,
      ``fsub_count[k]`` states for each of his positions).
    """
    for a in range(atom_rows.shape[0]):
        row = atom_rows[a]
        T = atom_T[a]
        P = atom_P[a]
        O = atom_O[a]
        for c in range(n):
            atoms[row, c] = 0.0
        alive = 0
        last_alive = -1
        for pos in range(n):
            if not (O >> pos) & 1:
                alive += 1
                last_alive = pos
        if alive == 1:                               # a player left alone wins (PIT-8)
            atoms[row, last_alive] = 1.0
            continue
        holders = 0
        for pos in range(n):
            holders += (T >> pos) & 1
        share = 1.0 / holders
        wipe = atom_wipe[a] if holders == 1 else 1   # a roll-off winner wipes one (PIT-5)
        for w in range(n):
            if not (T >> w) & 1:
                continue
            for pos in range(n):
                new_stripes[pos] = stripes[pos] + ((P >> pos) & 1)
                new_flags[pos] = flags[pos]
            left = stripes[w] - wipe
            if left < 0:
                left = 0
            new_stripes[w] = left + ((P >> w) & 1)   # wipes and penalties together (PIT-7)
            if new_stripes[w] == 0:                  # the round winner is out of stripes
                atoms[row, w] += share
                continue
            new_flags[w] = 1
            count = 0
            where = -1
            for step in range(1, n + 1):             # next start: left of this one (PIT-8)
                pos = step % n
                if not (O >> pos) & 1:
                    if pos == fixed:
                        where = count
                    order[count] = pos
                    count += 1
            if count > exact_upto:
                _luce(new_stripes, new_flags, order, count, luce_cap, strength, delta, work, share, atoms, row)
            elif count == n:
                index = _index(new_stripes, new_flags, order, count, cap, s0)
                p = where if where >= 0 else 0
                for k in range(n):
                    atoms[row, order[k]] += share * U[p, index, k]
            elif where < 0:
                index = _index(new_stripes, new_flags, order, count, sub_cap[count], s0)
                base = sub_offset[count] + index * count
                for k in range(count):
                    atoms[row, order[k]] += share * sub_values[base + k]
            else:
                index = _index(new_stripes, new_flags, order, count, fsub_cap[count], s0)
                base = fsub_offset[count] + (where * fsub_count[count] + index) * count
                for k in range(count):
                    atoms[row, order[k]] += share * fsub_values[base + k]


@numba.njit(cache=True)
def _digits(index, n, cap, s0, stripes, flags):
    """The state of an index (:func:`_index`)."""
    radix = 2 * cap - s0 + 1
    for pos in range(n - 1, -1, -1):
        d = index % radix
        index //= radix
        if d < cap:
            stripes[pos] = d + 1
            flags[pos] = 1
        else:
            stripes[pos] = d - cap + s0
            flags[pos] = 0


@numba.njit(cache=True)
def sweep_states(states, n, V, cap, s0, atom_rows, atom_T, atom_P, atom_O, atom_wipe, sub_values, sub_offset,
                 sub_cap, slots, atom_count, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp,
                 below_mass, above_mass, mass_apen, level_type, best_pen, demote, nb_count, nb_code, nb_index,
                 item_level, item_pen, item_mass, item_start, suf_mass):
    """One Gauss-Seidel pass over ``states`` (in place); returns the largest change."""
    stripes = np.empty(n, dtype=np.int64)
    flags = np.empty(n, dtype=np.int64)
    new_stripes = np.empty(n, dtype=np.int64)
    new_flags = np.empty(n, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    work = np.empty(n)
    atoms = np.zeros((atom_count, n))
    W = np.zeros((slots, n))
    out = np.empty(n)
    U = V.reshape((1, V.shape[0], n))
    no_values = np.zeros(1)
    no_tables = np.ones(9, dtype=np.int64)
    no_delta = np.zeros((9, 8))
    change = 0.0
    for i in range(states.shape[0]):
        s = states[i]
        _digits(s, n, cap, s0, stripes, flags)
        game_atoms(n, -1, stripes, flags, atom_rows, atom_T, atom_P, atom_O, atom_wipe, U, cap, s0, sub_values,
                   sub_offset, sub_cap, no_values, no_tables, no_tables, no_tables, n, no_values, no_delta, 1, atoms,
                   new_stripes, new_flags, order, work)
        round_backward(n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                       mass_lp, below_mass, above_mass, mass_apen, level_type, best_pen, demote, nb_count,
                       nb_code, nb_index, item_level, item_pen, item_mass, item_start, suf_mass, out)
        for c in range(n):
            d = abs(out[c] - V[s, c])
            if d > change:
                change = d
            V[s, c] = out[c]
    return change


@numba.njit(cache=True)
def state_atoms(n, stripes, flags, atom_rows, atom_T, atom_P, atom_O, atom_wipe, U, cap, s0, sub_values, sub_offset,
                sub_cap, exact_upto, strength, delta, luce_cap, atoms):
    """:func:`game_atoms` of one state (nobody on a policy of his own), for a caller outside the
    kernels."""
    new_stripes = np.empty(n, dtype=np.int64)
    new_flags = np.empty(n, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    work = np.empty(n)
    no_tables = np.ones(9, dtype=np.int64)
    game_atoms(n, -1, stripes, flags, atom_rows, atom_T, atom_P, atom_O, atom_wipe, U, cap, s0, sub_values,
               sub_offset, sub_cap, np.zeros(1), no_tables, no_tables, no_tables, exact_upto, strength, delta, luce_cap,
               atoms, new_stripes, new_flags, order, work)


@numba.njit(cache=True)
def _luce(stripes, flags, order, count, cap, strength, delta, out_order, share, atoms, row):
    """Add ``share`` times the estimated value vector of the ``count``-player state seen from
    ``order`` (a Luce model: ``exp(strength + position effect)``, normalised) to the atom row."""
    top = -1e300
    for k in range(count):
        pos = order[k]
        a = stripes[pos]
        if a > cap:
            a = cap
        v = strength[(a - 1) * 2 + flags[pos]] + delta[count, k]
        out_order[k] = v
        if v > top:
            top = v
    total = 0.0
    for k in range(count):
        out_order[k] = np.exp(out_order[k] - top)
        total += out_order[k]
    for k in range(count):
        atoms[row, order[k]] += share * out_order[k] / total


# -- one player on fixed (round-optimal) decisions, the others maximising (table_compare) ---------

TIE = 1e-12
"""The fixed player stops when stopping is worth at least his value of throwing again less
this: his round-optimal values are fractions of 216**k, and exact ties (a follower tying
score 105 with one throw left and the has-wiped flag: 108/216 either way) must not be broken
by rounding (ties: stop, as the exact round solver)."""

@numba.njit(cache=True)
def _fixed_last(n, flags, atoms, W, atoms_ro, NL, R, powR, slot_off, node_ptr, node_b, node_code, mass_lp,
                below_mass, above_mass, mass_apen, level_type, best_pen, demote, masses, E, tmp, Er, tmpr):
    """:func:`_last_position` for a last player who decides by the values of ``atoms_ro`` (his
    stop-or-throw choices are those of the round they define) while ``W`` is filled from
    ``atoms``."""
    j = n - 1
    pj = powR[j]
    rows = np.empty(16, dtype=np.int64)
    count = (node_ptr[j + 1] - node_ptr[j]) // 3
    flagged = flags[j] != 0
    for k in range(node_ptr[j], node_ptr[j] + count):
        b = node_b[k]
        code = node_code[k]
        s1 = _slot(slot_off, j, 1, b, NL, powR, code)
        step = (NL + 1) * powR[j]
        if b < 0:
            for L in range(3):
                for c in range(n):
                    W[s1 + L * step, c] = 0.0
                W[s1 + L * step, j] = 1.0
            continue
        t_b = level_type[b]
        m = 0
        if not flagged:
            rows[m] = (code + 3 * pj) * 4 + t_b
            masses[m] = mass_apen
            m += 1
        for p in range(2):
            w = below_mass[b + 1, p]
            if w > 0.0:
                rows[m] = (code + p * pj) * 4 + t_b
                masses[m] = w
                m += 1
            w = mass_lp[b, p]
            if w > 0.0:
                digit = 2 if (R == 4 or p == 0) else 4
                rows[m] = (code + digit * pj) * 4 + t_b
                masses[m] = w
                m += 1
        dcode = demote[best_pen[b] if R == 4 else 0, code]
        for t in range(4):
            for p in range(2):
                w = above_mass[b + 1, t, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    rows[m] = (dcode + digit * pj) * 4 + t
                    masses[m] = w
                    m += 1
        for c in range(n):
            E[c] = 0.0
            Er[c] = 0.0
        if flagged:                                      # a flagged 1-1-1 wins the game (PIT-6)
            E[j] = mass_apen
            Er[j] = mass_apen
        for i in range(m):
            w = masses[i]
            row = rows[i]
            for c in range(n):
                E[c] += w * atoms[row, c]
                Er[c] += w * atoms_ro[row, c]
        for c in range(n):
            W[s1, c] = E[c]
        for L in range(1, 3):
            own = Er[j]
            for c in range(n):
                tmp[c] = 0.0
                tmpr[c] = 0.0
            if flagged:
                tmp[j] += mass_apen
                tmpr[j] += mass_apen
            for i in range(m):
                w = masses[i]
                row = rows[i]
                if atoms_ro[row, j] >= own - TIE:
                    for c in range(n):
                        tmp[c] += w * atoms[row, c]
                        tmpr[c] += w * atoms_ro[row, c]
                else:
                    for c in range(n):
                        tmp[c] += w * E[c]
                        tmpr[c] += w * Er[c]
            for c in range(n):
                E[c] = tmp[c]
                Er[c] = tmpr[c]
                W[s1 + L * step, c] = tmp[c]


@numba.njit(cache=True)
def _fixed_middle(j, n, flags, W, W_ro, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp,
                  below_mass, mass_apen, best_pen, demote, nb_index, item_level, item_pen, item_mass, item_start,
                  suf_mass, suf_val, suf_ro, own_ro, mono_ro, masses, E, tmp, Er, tmpr):
    """:func:`_middle_position` for a player who decides by the round of ``W_ro`` (its knowledge
    slots solved already): his choices follow his own values there (``suf_ro``, ``own_ro``,
    ``mono_ro`` from :func:`_above_tables` of ``W_ro``), the values written are those of ``W``
    (``suf_val`` from :func:`_above_tables` of ``W``)."""
    K = item_level.shape[0]
    pj = powR[j]
    rows = np.empty(8, dtype=np.int64)
    flagged = flags[j] != 0
    for k in range(node_ptr[j], node_ptr[j + 1]):
        L = node_L[k]
        b = node_b[k]
        code = node_code[k]
        s = _slot(slot_off, j, L, b, NL, powR, code)
        m = 0
        if not flagged:
            rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + 3 * pj)
            masses[m] = mass_apen
            m += 1
        if b >= 0:
            for p in range(2):
                w = below_mass[b + 1, p]
                if w > 0.0:
                    rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + p * pj)
                    masses[m] = w
                    m += 1
                w = mass_lp[b, p]
                if w > 0.0:
                    digit = 2 if (R == 4 or p == 0) else 4
                    rows[m] = _slot(slot_off, j + 1, L, b, NL, powR, code + digit * pj)
                    masses[m] = w
                    m += 1
            dcode = demote[best_pen[b] if R == 4 else 0, code]
        else:
            dcode = code
        q = nb_index[dcode]
        start = item_start[b + 1]
        for c in range(n):
            E[c] = suf_val[L - 1, q, start, c]
            Er[c] = suf_ro[L - 1, q, start, c]
        if flagged:
            E[j] += mass_apen
            Er[j] += mass_apen
        for i in range(m):
            w = masses[i]
            row = rows[i]
            for c in range(n):
                E[c] += w * W[row, c]
                Er[c] += w * W_ro[row, c]
        for _ in range(L - 1):
            theta = Er[j] - TIE
            for c in range(n):
                tmp[c] = E[c]
                tmpr[c] = Er[c]
            if flagged:
                for c in range(n):
                    tmp[c] -= mass_apen * E[c]
                    tmpr[c] -= mass_apen * Er[c]
                tmp[j] += mass_apen
                tmpr[j] += mass_apen
            for i in range(m):
                row = rows[i]
                if W_ro[row, j] >= theta:
                    w = masses[i]
                    for c in range(n):
                        tmp[c] += w * (W[row, c] - E[c])
                        tmpr[c] += w * (W_ro[row, c] - Er[c])
            if start == K:
                pass
            elif mono_ro[L - 1, q, start]:
                lo = start
                hi = K
                while lo < hi:
                    mid = (lo + hi) // 2
                    if own_ro[L - 1, q, mid] >= theta:
                        hi = mid
                    else:
                        lo = mid + 1
                taken = suf_mass[lo]
                for c in range(n):
                    tmp[c] += suf_val[L - 1, q, lo, c] - taken * E[c]
                    tmpr[c] += suf_ro[L - 1, q, lo, c] - taken * Er[c]
            else:
                for i in range(start, K):
                    if own_ro[L - 1, q, i] >= theta:
                        w = item_mass[i]
                        for c in range(n):
                            tmp[c] += suf_val[L - 1, q, i, c] - suf_val[L - 1, q, i + 1, c] - w * E[c]
                            tmpr[c] += suf_ro[L - 1, q, i, c] - suf_ro[L - 1, q, i + 1, c] - w * Er[c]
            for c in range(n):
                E[c] = tmp[c]
                Er[c] = tmpr[c]
        for c in range(n):
            W[s, c] = E[c]


@numba.njit(cache=True)
def round_backward_fixed(n, fixed, flags, atoms, W, atoms_ro, W_ro, NL, R, powR, slot_off, node_ptr, node_L, node_b,
                         node_code, mass_lp, below_mass, above_mass, mass_apen, level_type, best_pen, demote,
                         nb_count, nb_code, nb_index, item_level, item_pen, item_mass, item_start, suf_mass, out):
    """:func:`round_backward` with the player at position ``fixed`` deciding by another round's
    values (``atoms_ro``, and ``W_ro`` that :func:`round_backward` solved from them: his
    round-optimal choices, say) while every other player maximises his own component of the
    values of ``atoms``; ``fixed = -1`` is :func:`round_backward`. Fills ``W`` and ``out``."""
    size = 2 * NL + 8
    masses = np.empty(size)
    vals = np.empty((size, n))
    vals_ro = np.empty((size, n))
    E = np.empty(n)
    tmp = np.empty(n)
    Er = np.empty(n)
    tmpr = np.empty(n)
    K = item_level.shape[0]
    if fixed == n - 1:
        _fixed_last(n, flags, atoms, W, atoms_ro, NL, R, powR, slot_off, node_ptr, node_b, node_code, mass_lp,
                    below_mass, above_mass, mass_apen, level_type, best_pen, demote, masses, E, tmp, Er, tmpr)
    else:
        _last_position(n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp,
                       below_mass, above_mass, mass_apen, level_type, best_pen, demote, masses, vals, E, tmp)
    if n > 2:
        most = nb_count[n - 2]
        suf_val = np.empty((3, most, K + 1, n))
        own = np.empty((3, most, K))
        mono = np.empty((3, most, K), dtype=np.bool_)
        if 0 < fixed < n - 1:
            suf_ro = np.empty((3, most, K + 1, n))
            own_ro = np.empty((3, most, K))
            mono_ro = np.empty((3, most, K), dtype=np.bool_)
        for j in range(n - 2, 0, -1):
            if j == fixed:
                _above_tables(j, n, W, NL, R, powR, slot_off, nb_code[:nb_count[j]], item_level, item_pen,
                              item_mass, suf_val, own, mono)
                _above_tables(j, n, W_ro, NL, R, powR, slot_off, nb_code[:nb_count[j]], item_level, item_pen,
                              item_mass, suf_ro, own_ro, mono_ro)
                _fixed_middle(j, n, flags, W, W_ro, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                              mass_lp, below_mass, mass_apen, best_pen, demote, nb_index, item_level, item_pen,
                              item_mass, item_start, suf_mass, suf_val, suf_ro, own_ro, mono_ro, masses, E, tmp, Er,
                              tmpr)
                continue
            _above_tables(j, n, W, NL, R, powR, slot_off, nb_code[:nb_count[j]], item_level, item_pen,
                          item_mass, suf_val, own, mono)
            _middle_position(j, n, flags, atoms, W, NL, R, powR, slot_off, node_ptr, node_L, node_b, node_code,
                             mass_lp, below_mass, mass_apen, best_pen, demote, nb_index, item_level, item_pen,
                             item_mass, item_start, suf_mass, suf_val, own, mono, masses, vals, E, tmp)
    cont = np.zeros(n)
    cont_ro = np.zeros(n)
    for t in range(3, 0, -1):
        m = _start_outcomes(n, t, flags, W, NL, powR, slot_off, mass_lp, mass_apen, R, masses, vals)
        if fixed == 0:
            _start_outcomes(n, t, flags, W_ro, NL, powR, slot_off, mass_lp, mass_apen, R, masses, vals_ro)
        for c in range(n):
            tmp[c] = 0.0
            tmpr[c] = 0.0
        for k in range(m):
            w = masses[k]
            if fixed == 0:
                stop = t == 3 or vals_ro[k, 0] >= cont_ro[0] - TIE
            else:
                stop = t == 3 or vals[k, 0] >= cont[0]
            if stop:
                for c in range(n):
                    tmp[c] += w * vals[k, c]
                if fixed == 0:
                    for c in range(n):
                        tmpr[c] += w * vals_ro[k, c]
            else:
                for c in range(n):
                    tmp[c] += w * cont[c]
                if fixed == 0:
                    for c in range(n):
                        tmpr[c] += w * cont_ro[c]
        for c in range(n):
            cont[c] = tmp[c]
            cont_ro[c] = tmpr[c]
    for c in range(n):
        out[c] = cont[c]


@numba.njit(cache=True)
def sweep_fixed(states, n, U, cap, s0, atom_rows, atom_T, atom_P, atom_O, atom_wipe, sub_values, sub_offset,
                sub_cap, fsub_values, fsub_offset, fsub_cap, fsub_count, atoms_ro, W_ro, slots, atom_count, NL, R,
                powR, slot_off, node_ptr, node_L, node_b, node_code, mass_lp, below_mass, above_mass, mass_apen,
                level_type, best_pen, demote, nb_count, nb_code, nb_index, item_level, item_pen, item_mass,
                item_start, suf_mass):
    """One Gauss-Seidel pass of :func:`sweep_states` for every position of the fixed player:
    ``U[position, state]``; ``W_ro[flags]`` the knowledge slots of his round (by the has-wiped
    flags of the positions, bit k for position k). Returns the largest change."""
    stripes = np.empty(n, dtype=np.int64)
    flags = np.empty(n, dtype=np.int64)
    new_stripes = np.empty(n, dtype=np.int64)
    new_flags = np.empty(n, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    work = np.empty(n)
    atoms = np.zeros((atom_count, n))
    W = np.zeros((slots, n))
    out = np.empty(n)
    no_values = np.zeros(1)
    no_delta = np.zeros((9, 8))
    change = 0.0
    for i in range(states.shape[0]):
        s = states[i]
        _digits(s, n, cap, s0, stripes, flags)
        combo = 0
        for k in range(n):
            combo += flags[k] << k
        for fixed in range(n):
            game_atoms(n, fixed, stripes, flags, atom_rows, atom_T, atom_P, atom_O, atom_wipe, U, cap, s0, sub_values,
                       sub_offset, sub_cap, fsub_values, fsub_offset, fsub_cap, fsub_count, n, no_values, no_delta, 1,
                       atoms, new_stripes, new_flags, order, work)
            round_backward_fixed(n, fixed, flags, atoms, W, atoms_ro, W_ro[combo], NL, R, powR, slot_off, node_ptr,
                                 node_L, node_b, node_code, mass_lp, below_mass, above_mass, mass_apen, level_type,
                                 best_pen, demote, nb_count, nb_code, nb_index, item_level, item_pen, item_mass,
                                 item_start, suf_mass, out)
            for c in range(n):
                d = abs(out[c] - U[fixed, s, c])
                if d > change:
                    change = d
                U[fixed, s, c] = out[c]
    return change
