/* The game between rounds (PIT-5..PIT-8): the value of every end of a round, and the sweeps
 * of the value iteration; included by _table_c.c.
 *
 * A state's dense index (table_solver.state_index): a digit per position from the start
 * player, a - 1 with the has-wiped flag and cap + a - s0 without (a player who never wiped
 * has at least the starting s0 stripes), base 2 cap - s0 + 1, stripes clipped to the cap. */

/* Where the states after a round are read (table_solver.TableValues._next_values and
 * flat_solutions):
 *   more than exact_upto players still in: the Luce model strength/delta, stripes above
 *     luce_cap read as it (table_estimate.Strengths);
 *   all n players: U[p][index][n] (cap `cap`), p the new turn position of the player at
 *     `fixed` (-1: nobody keeps to a policy of his own, p = 0);
 *   fewer, the fixed player out by 1-1-1 or none: the k-player values sub_values from
 *     sub_offset[k] (cap sub_cap[k]);
 *   fewer, with him still in: fsub_values from fsub_offset[k] (cap fsub_cap[k],
 *     fsub_count[k] states for each of his positions). */
typedef struct {
    const double *U;
    int64_t count;                      /* states of U per position of the fixed player */
    int cap, s0;
    const double *sub_values;
    const int64_t *sub_offset, *sub_cap;
    const double *fsub_values;
    const int64_t *fsub_offset, *fsub_cap, *fsub_count;
    int exact_upto;
    const double *strength, *delta;     /* [(a - 1) * 2 + flag], [9][8] */
    int luce_cap;
} Next;

/* The index of the state seen from order[0..count) (order[0] starts). */
static int64_t state_index(const int64_t *stripes, const int64_t *flags, const int *order, int count, int64_t cap,
                           int s0) {
    int64_t index = 0, radix = 2 * cap - s0 + 1;
    for (int k = 0; k < count; k++) {
        const int pos = order[k];
        int64_t a = stripes[pos] > cap ? cap : stripes[pos];
        index = index * radix + (flags[pos] ? a - 1 : cap + a - s0);
    }
    return index;
}

/* The state of an index (state_index in turn order). */
static void state_digits(int64_t index, int n, int cap, int s0, int64_t *stripes, int64_t *flags) {
    const int64_t radix = 2 * cap - s0 + 1;
    for (int pos = n - 1; pos >= 0; pos--) {
        const int64_t d = index % radix;
        index /= radix;
        stripes[pos] = d < cap ? d + 1 : d - cap + s0;
        flags[pos] = d < cap;
    }
}

static int states_in_range(const int64_t *states, Py_ssize_t count, int64_t limit) {
    for (Py_ssize_t i = 0; i < count; i++)
        if (states[i] < 0 || states[i] >= limit) {
            PyErr_SetString(PyExc_IndexError, "state index out of range");
            return 0;
        }
    return 1;
}

/* Add share times the estimated value vector of the count-player state seen from order (a
 * Luce model: exp(strength + position effect), normalised) to the atom row. */
static void luce(const Next *x, const int64_t *stripes, const int64_t *flags, const int *order, int count,
                 double share, double *row) {
    double v[MAXN], top = -1e300, total = 0.0;
    for (int k = 0; k < count; k++) {
        const int pos = order[k];
        const int64_t a = stripes[pos] > x->luce_cap ? x->luce_cap : stripes[pos];
        v[k] = x->strength[(a - 1) * 2 + flags[pos]] + x->delta[count * 8 + k];
        if (v[k] > top) top = v[k];
    }
    for (int k = 0; k < count; k++) {
        v[k] = exp(v[k] - top);
        total += v[k];
    }
    for (int k = 0; k < count; k++) row[order[k]] += share * v[k] / total;
}

/* Who holds the best (T), pays a 2-2-3 penalty (P, PIT-7) and is out (O) at the end of a round
 * with the status digits `code` (bit k: position k), the best level's type with or without a
 * penalty. */
static inline void atom_bits(const Graph *g, int64_t code, int64_t penalty, int64_t *T, int64_t *P, int64_t *O) {
    *T = *P = *O = 0;
    for (int pos = 0; pos < g->n; pos++) {
        const int64_t digit = g->R == 4 ? (code >> 2 * pos) & 3 : code / g->powR[pos] % g->R;
        const int64_t bit = (int64_t)1 << pos;
        if (digit == 2 || digit == 4) *T |= bit;
        if (digit == 1 || digit == 4 || (digit == 2 && penalty)) *P |= bit;
        if (digit == 3) *O |= bit;
    }
}

/* How a round's end (atom) settles (PIT-5..PIT-8): the bits of the best throw's holders (T),
 * of the 2-2-3 penalties (P) and of the players out (O); the players still in, the last of
 * them, the holders, and the stripes a holder who wins the round wipes (a roll-off winner
 * wipes one, PIT-5). */
typedef struct {
    int64_t T, P, O, wipe;
    int alive, last_alive, holders;
} AtomEnd;

static void atom_end(const Graph *g, int64_t atom_row, AtomEnd *e) {
    const int64_t type = atom_row & 3;
    atom_bits(g, atom_row >> 2, g->type_penalty[type], &e->T, &e->P, &e->O);
    e->alive = 0;
    e->last_alive = -1;
    e->holders = 0;
    for (int pos = 0; pos < g->n; pos++) {
        if (!((e->O >> pos) & 1)) {
            e->alive++;
            e->last_alive = pos;
        }
        e->holders += (int)((e->T >> pos) & 1);
    }
    e->wipe = e->holders == 1 ? g->type_wipe[type] : 1;
}

/* The next state when holder w wins the round ending in e: every stripe count after the wipes
 * and penalties (PIT-7, settled together) and the flags; 0 when w is out of stripes (he wins
 * the game), else the players still in, whose turn order from the next start (left of this
 * one, PIT-8) is written to order; *where is the index there of turn position `fixed` (or -1). */
static int next_state(const AtomEnd *e, int n, int w, int fixed, const int64_t *stripes, const int64_t *flags,
                      int64_t *new_stripes, int64_t *new_flags, int *order, int *where) {
    for (int pos = 0; pos < n; pos++) {
        new_stripes[pos] = stripes[pos] + ((e->P >> pos) & 1);
        new_flags[pos] = flags[pos];
    }
    int64_t left = stripes[w] - e->wipe;
    if (left < 0) left = 0;
    new_stripes[w] = left + ((e->P >> w) & 1);
    if (new_stripes[w] == 0) return 0;
    new_flags[w] = 1;
    int count = 0;
    *where = -1;
    for (int step = 1; step <= n; step++) {
        const int pos = step % n;
        if (!((e->O >> pos) & 1)) {
            if (pos == fixed) *where = count;
            order[count++] = pos;
        }
    }
    return count;
}

/* The value vector of every atom (end of a round) of one state (PIT-5..PIT-8), the player
 * at turn position `fixed` (or -1) followed into the next state. */
static void game_atoms(const Graph *g, const Next *x, int fixed, const int64_t *stripes, const int64_t *flags,
                       double *atoms) {
    const int n = g->n;
    int64_t new_stripes[MAXN], new_flags[MAXN];
    int order[MAXN];
    for (int64_t a = 0; a < g->atom_count; a++) {
        AtomEnd e;
        atom_end(g, g->atom_rows[a], &e);
        double *row = atoms + g->atom_rows[a] * n;
        for (int c = 0; c < n; c++) row[c] = 0.0;
        if (e.alive == 1) {                                 /* a player left alone wins (PIT-8) */
            row[e.last_alive] = 1.0;
            continue;
        }
        const double share = 1.0 / e.holders;
        for (int w = 0; w < n; w++) {
            if (!((e.T >> w) & 1)) continue;
            int where;
            const int count = next_state(&e, n, w, fixed, stripes, flags, new_stripes, new_flags, order, &where);
            if (count == 0) {                               /* the round winner is out of stripes */
                row[w] += share;
                continue;
            }
            if (count > x->exact_upto) {
                luce(x, new_stripes, new_flags, order, count, share, row);
            } else if (count == n) {
                const int64_t index = state_index(new_stripes, new_flags, order, count, x->cap, x->s0);
                const double *u = x->U + ((where >= 0 ? where : 0) * x->count + index) * n;
                for (int k = 0; k < n; k++) row[order[k]] += share * u[k];
            } else if (where < 0) {
                const int64_t index = state_index(new_stripes, new_flags, order, count, x->sub_cap[count], x->s0);
                const double *u = x->sub_values + x->sub_offset[count] + index * count;
                for (int k = 0; k < count; k++) row[order[k]] += share * u[k];
            } else {
                const int64_t index = state_index(new_stripes, new_flags, order, count, x->fsub_cap[count], x->s0);
                const double *u = x->fsub_values + x->fsub_offset[count] + (where * x->fsub_count[count] + index) * count;
                for (int k = 0; k < count; k++) row[order[k]] += share * u[k];
            }
        }
    }
}
