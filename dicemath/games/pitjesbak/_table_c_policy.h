/* Policy evaluation between the game solver's full sweeps (table_solver._iterate); included
 * by _table_c.c.
 *
 * With every decision of a round fixed, the round is a Markov chain over its knowledge
 * states that ends in atoms, so a state's value is linear in the values of the states its
 * round leads to:
 *   V[s][c] = base[s][c] + sum_i coef[s][i] * V[next[s][i]][(c + n - 1) % n]
 * (with all n players still in, the next start player is position 1 of this round, PIT-8;
 * base: the games won in the round, and the tables of fewer players after an elimination).
 * A full sweep (round_backward) records the decisions' thresholds, and round_forward then
 * follows the probability of every knowledge slot from the start of the round to its atoms
 * (policy_row turns them into the terms above); evaluate_states sweeps the linear map, at a
 * small part of a full sweep's cost. The decisions are those of the full sweep exactly (the
 * same comparisons of the same values). */

typedef struct {
    double *base;                       /* [N][n] */
    int32_t *next;                      /* [N][most] */
    double *coef;                       /* [N][most] */
    int32_t *terms;                     /* [N] */
    int64_t most;                       /* terms a state can have: n * 3 * 2**n (winner, wipe, penalties) */
} Policy;

/* Work arrays of round_forward and policy_row. */
typedef struct {
    double *reach;                      /* [slots]: P(the round reaches a knowledge slot) */
    double *end;                        /* [atom_table]: P(the round ends in an atom) */
    int32_t *where;                     /* [N]: a state's term in the row being built, or -1 */
    double *taken;                      /* [3][most][K + 1]: P(the best taken from item k on, own values rising) */
} Forward;

static int forward_alloc(Forward *f, const Graph *g, int64_t states, int64_t most) {
    f->taken = calloc((size_t)(3 * most * (g->K + 1)), sizeof(double));
    f->reach = malloc((size_t)g->slots * sizeof(double));
    f->end = malloc((size_t)g->atom_table * sizeof(double));
    f->where = malloc((size_t)states * sizeof(int32_t));
    if (f->where)
        for (int64_t s = 0; s < states; s++) f->where[s] = -1;
    return f->reach && f->end && f->where && f->taken;
}

static void forward_free(Forward *f) {
    free(f->reach);
    free(f->end);
    free(f->where);
    free(f->taken);
}

/* Spread the probability p of a knowledge state of position j (not the last) over its
 * outcomes, throw by throw (L throws left at most): a throw is kept where the player's own
 * value of it is at least his value of throwing again (the recorded thresholds). Where his
 * own values rise with the level taken (above_tables), the outcomes that take the best are
 * kept from a threshold item on: f->taken collects those probabilities by first item, and
 * spread_taken gives them to the items' knowledge slots once for the whole position. */
static void forward_middle(const Graph *g, int j, int flagged, const double *W, const Above *a, int64_t L, int64_t b,
                           int64_t code, double p, Forward *f, double *won) {
    const int n = g->n, K = g->K;
    const int64_t pj = g->powR[j], s = slot_of(g, j, L, b, code);
    int64_t rows[8], dcode;
    double masses[8];
    const int m = kept_rows(g, j, flagged, L, b, code, rows, masses, &dcode);
    const int start = (int)g->item_start[b + 1];
    const int64_t cell = (L - 1) * a->most + g->nb_index[dcode];
    const double *own = a->own + cell * K;
    const int rising = start < K && a->mono[cell * K + start];
    for (int64_t left = L; left >= 1; left--) {
        const double theta = left > 1 ? a->theta[s * 2 + left - 2] : -1.0;   /* own values are >= 0 */
        double again = 0.0;
        if (flagged) won[j] += p * g->mass_apen;            /* 1-1-1 wins the game (PIT-6) */
        for (int i = 0; i < m; i++) {
            if (W[rows[i] * n + j] >= theta) f->reach[rows[i]] += p * masses[i];
            else again += masses[i];
        }
        if (rising) {
            int lo = start, hi = K;
            while (lo < hi) {                               /* first item with own value >= theta */
                int mid = (lo + hi) / 2;
                if (own[mid] >= theta) hi = mid;
                else lo = mid + 1;
            }
            f->taken[cell * (K + 1) + lo] += p;
            again += g->suf_mass[start] - g->suf_mass[lo];
        } else {
            for (int i = start; i < K; i++) {
                if (own[i] >= theta)
                    f->reach[slot_of(g, j + 1, L, g->item_level[i], dcode + best_digit(g, (int)g->item_pen[i]) * pj)] +=
                        p * g->item_mass[i];
                else again += g->item_mass[i];
            }
        }
        p *= again;
    }
}

/* The probabilities f->taken of position j given to the knowledge slots of position j + 1
 * (item k gets those collected at items up to k). */
static void spread_taken(const Graph *g, int j, int64_t most, Forward *f) {
    const int K = g->K;
    const int64_t pj = g->powR[j];
    for (int64_t L = 1; L <= 3; L++)
        for (int64_t q = 0; q < g->nb_count[j]; q++) {
            double *taken = f->taken + ((L - 1) * most + q) * (K + 1);
            double p = 0.0;
            for (int k = 0; k < K; k++) {
                p += taken[k];
                taken[k] = 0.0;
                if (p != 0.0)
                    f->reach[slot_of(g, j + 1, L, g->item_level[k],
                                     g->nb_code[q] + best_digit(g, (int)g->item_pen[k]) * pj)] += p * g->item_mass[k];
            }
            taken[K] = 0.0;
        }
}

/* The same for the last position at (b, code), all limits at once: his decisions with l
 * throws left do not depend on the limit (his value with l throws is the knowledge slot of
 * limit l), so the probability of throwing with l left is that of arriving with limit l plus
 * that of throwing again with l + 1 left. */
static void forward_last(const Graph *g, int flagged, const double *atoms, const double *W, int64_t b, int64_t code,
                         Forward *f, double *won) {
    const int n = g->n, j = n - 1;
    const int64_t step = (g->NL + 1) * g->powR[j], s1 = slot_of(g, j, 1, b, code);
    int64_t rows[16];
    double masses[16];
    const double reach[3] = {f->reach[s1], f->reach[s1 + step], f->reach[s1 + 2 * step]};
    if (b < 0) {                                            /* everybody else is out: he wins (PIT-8) */
        won[j] += reach[0] + reach[1] + reach[2];
        return;
    }
    if (reach[0] == 0.0 && reach[1] == 0.0 && reach[2] == 0.0) return;
    const int m = last_rows(g, b, code, flagged, rows, masses);
    double p = 0.0;
    for (int64_t left = 3; left >= 1; left--) {
        p += reach[left - 1];
        const double theta = left > 1 ? W[(s1 + (left - 2) * step) * n + j] : -1.0;
        double again = 0.0;
        if (flagged) won[j] += p * g->mass_apen;            /* 1-1-1 wins the game (PIT-6) */
        for (int i = 0; i < m; i++) {
            if (atoms[rows[i] * n + j] >= theta) f->end[rows[i]] += p * masses[i];
            else again += masses[i];
        }
        p *= again;
    }
}

/* Follow a round solved by round_backward (with a->theta recorded) from its start to its
 * ends: f->end (P of every atom) and won (P each position wins the game in the round). */
static void round_forward(const Graph *g, const int64_t *flags, const double *atoms, const double *W, Above *a,
                          Forward *f, double *won) {
    const int n = g->n;
    double alone[MAXN] = {0}, masses[2 * MAXNL + 1], p = 1.0;
    const double *vals[2 * MAXNL + 1];
    memset(f->reach, 0, (size_t)g->slots * sizeof(double));
    memset(f->end, 0, (size_t)g->atom_table * sizeof(double));
    for (int c = 0; c < n; c++) won[c] = 0.0;
    alone[0] = 1.0;
    for (int t = 1; t <= 3; t++) {                          /* the start player sets the limit (PIT-4) */
        const int m = start_outcomes(g, n, t, flags, W, alone, masses, vals);
        double again = 0.0;
        for (int k = 0; k < m; k++) {
            if (t == 3 || vals[k][0] >= a->start_theta[t - 1]) {
                if (vals[k] == alone) won[0] += p * masses[k];
                else f->reach[(vals[k] - W) / n] += p * masses[k];
            } else {
                again += masses[k];
            }
        }
        p *= again;
    }
    for (int j = 1; j < n - 1; j++) {
        above_tables(g, n, j, W, a);                        /* position j's own values of the items */
        for (int64_t L = 1; L <= 3; L++)
            for (int64_t b = -1; b < g->NL; b++) {
                int64_t count;
                const int64_t *codes = codes_of(g, j, b, &count);
                for (int64_t i = 0; i < count; i++) {
                    const double r = f->reach[slot_of(g, j, L, b, codes[i])];
                    if (r != 0.0) forward_middle(g, j, flags[j] != 0, W, a, L, b, codes[i], r, f, won);
                }
            }
        spread_taken(g, j, a->most, f);
    }
    for (int64_t b = -1; b < g->NL; b++) {
        int64_t count;
        const int64_t *codes = codes_of(g, n - 1, b, &count);
        for (int64_t i = 0; i < count; i++) forward_last(g, flags[n - 1] != 0, atoms, W, b, codes[i], f, won);
    }
}

/* Add weight times the value of the n-player state `index` to a state's row. */
static void add_term(Policy *pol, int64_t s, Forward *f, int64_t index, double weight) {
    int32_t *terms = pol->terms + s;
    if (f->where[index] < 0) {
        f->where[index] = *terms;
        pol->next[s * pol->most + *terms] = (int32_t)index;
        pol->coef[s * pol->most + *terms] = 0.0;
        (*terms)++;
    }
    pol->coef[s * pol->most + f->where[index]] += weight;
}

/* The row of state s (stripes, flags) from the ends of its round (f->end, won): the atoms'
 * next states as game_atoms reads them, with all n players (x->U) as terms, the rest in base. */
static void policy_row(const Graph *g, const Next *x, int64_t s, const int64_t *stripes, const int64_t *flags,
                       Forward *f, const double *won, Policy *pol) {
    const int n = g->n;
    double *base = pol->base + s * n;
    int64_t new_stripes[MAXN], new_flags[MAXN];
    int order[MAXN];
    for (int c = 0; c < n; c++) base[c] = won[c];
    pol->terms[s] = 0;
    for (int64_t a = 0; a < g->atom_count; a++) {
        const double pa = f->end[g->atom_rows[a]];
        if (pa == 0.0) continue;
        AtomEnd e;
        atom_end(g, g->atom_rows[a], &e);
        if (e.alive == 1) {
            base[e.last_alive] += pa;
            continue;
        }
        const double share = pa / e.holders;
        for (int w = 0; w < n; w++) {
            if (!((e.T >> w) & 1)) continue;
            int where;
            const int count = next_state(&e, n, w, -1, stripes, flags, new_stripes, new_flags, order, &where);
            if (count == 0) {
                base[w] += share;
                continue;
            }
            if (count == n) {
                add_term(pol, s, f, state_index(new_stripes, new_flags, order, count, x->cap, x->s0), share);
            } else {
                const int64_t index = state_index(new_stripes, new_flags, order, count, x->sub_cap[count], x->s0);
                const double *u = x->sub_values + x->sub_offset[count] + index * count;
                for (int k = 0; k < count; k++) base[order[k]] += share * u[k];
            }
        }
    }
    for (int32_t i = 0; i < pol->terms[s]; i++) f->where[pol->next[s * pol->most + i]] = -1;
}

/* One Gauss-Seidel pass of the linear map of the recorded decisions over `states` (in place
 * in V); returns the largest change. */
static double evaluate_states(const Policy *pol, int n, const int64_t *states, Py_ssize_t count, double *V) {
    double change = 0.0, out[MAXN];
    for (Py_ssize_t i = 0; i < count; i++) {
        const int64_t s = states[i];
        const int32_t *next = pol->next + s * pol->most;
        const double *coef = pol->coef + s * pol->most;
        for (int c = 0; c < n; c++) out[c] = pol->base[s * n + c];
        for (int32_t k = 0; k < pol->terms[s]; k++) {
            const double *v = V + (int64_t)next[k] * n;
            for (int c = 0; c < n; c++) out[c] += coef[k] * v[(c + n - 1) % n];
        }
        for (int c = 0; c < n; c++) {
            const double d = fabs(out[c] - V[s * n + c]);
            if (d > change) change = d;
            V[s * n + c] = out[c];
        }
    }
    return change;
}

/* One pass over `states`: their new values from x->U written to V[N][n] (Gauss-Seidel when V
 * is x->U, else Jacobi), recording the rows of the decisions taken in pol (NULL: none);
 * returns the largest change, or -1 when out of memory. */
static double sweep_states(const Graph *g, const Next *x, const int64_t *states, Py_ssize_t count, double *V,
                           Policy *pol) {
    const int n = g->n;
    int64_t stripes[MAXN], flags[MAXN];
    double out[MAXN], won[MAXN], change = 0.0;
    double *atoms = calloc((size_t)(g->atom_table * n), sizeof(double));
    double *W = calloc((size_t)(g->slots * n), sizeof(double));
    Above above = {0};
    Forward forward = {0};
    int ok = atoms && W && above_alloc(&above, g);
    if (ok && pol) {
        above.theta = malloc((size_t)g->slots * 2 * sizeof(double));
        ok = above.theta && forward_alloc(&forward, g, x->count, above.most);
    }
    for (Py_ssize_t i = 0; ok && i < count; i++) {
        const int64_t s = states[i];
        state_digits(s, n, x->cap, x->s0, stripes, flags);
        game_atoms(g, x, -1, stripes, flags, atoms);
        round_backward(g, &above, flags, atoms, W, out);
        if (pol) {
            round_forward(g, flags, atoms, W, &above, &forward, won);
            policy_row(g, x, s, stripes, flags, &forward, won, pol);
        }
        for (int c = 0; c < n; c++) {
            const double d = fabs(out[c] - x->U[s * n + c]);
            if (d > change) change = d;
            V[s * n + c] = out[c];
        }
    }
    free(above.theta);
    above_free(&above);
    forward_free(&forward);
    free(atoms);
    free(W);
    return ok ? change : -1.0;
}
