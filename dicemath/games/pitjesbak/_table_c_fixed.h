/* One player on fixed decisions, the others maximising (table_compare.py); included by
 * _table_c.c.
 *
 * The player at turn position `fixed` decides by another round's values (atoms_ro, and W_ro
 * that round_backward solved from them: his round-optimal choices, say) while every other
 * player maximises his own component of the values of `atoms`. He stops when stopping is
 * worth at least his value of throwing again less TIE: his round-optimal values are
 * fractions of 216**k, and exact ties must not be broken by rounding. */

typedef struct {
    Above above, above_ro;              /* suffix tables of W and (his position) of W_ro */
    double *atoms, *W;                  /* sweep_fixed: one state's atoms and knowledge slots */
} FixedWork;

static int fixed_alloc(FixedWork *f, const Graph *g, int fixed) {
    int ok = above_alloc(&f->above, g);
    if (fixed > 0 && fixed < g->n - 1) ok = above_alloc(&f->above_ro, g) && ok;
    return ok;
}

static void fixed_free(FixedWork *f) {
    above_free(&f->above);
    above_free(&f->above_ro);
    free(f->atoms);
    free(f->W);
}

/* last_node for a last player who decides by the values of atoms_ro while W is filled from
 * atoms. */
static void fixed_last_node(const Graph *g, int flagged, const double *atoms, double *W, const double *atoms_ro,
                            int64_t b, int64_t code) {
    const int n = g->n, j = n - 1;
    const int64_t step = (g->NL + 1) * g->powR[j];
    const int64_t s1 = slot_of(g, j, 1, b, code);
    const double apen = g->mass_apen;
    int64_t rows[16];
    double masses[16], E[MAXN] = {0}, tmp[MAXN], Er[MAXN] = {0}, tmpr[MAXN];
    if (b < 0) {
        for (int L = 0; L < 3; L++) {
            double *w = W + (s1 + L * step) * n;
            for (int c = 0; c < n; c++) w[c] = 0.0;
            w[j] = 1.0;
        }
        return;
    }
    const int m = last_rows(g, b, code, flagged, rows, masses);
    for (int c = 0; c < n; c++) E[c] = Er[c] = 0.0;
    if (flagged) E[j] = Er[j] = apen;                       /* a flagged 1-1-1 wins the game (PIT-6) */
    for (int i = 0; i < m; i++) {
        const double w = masses[i], *a = atoms + rows[i] * n, *ar = atoms_ro + rows[i] * n;
        for (int c = 0; c < n; c++) {
            E[c] += w * a[c];
            Er[c] += w * ar[c];
        }
    }
    for (int c = 0; c < n; c++) W[s1 * n + c] = E[c];
    for (int L = 1; L < 3; L++) {
        const double own = Er[j];
        for (int c = 0; c < n; c++) tmp[c] = tmpr[c] = 0.0;
        if (flagged) {
            tmp[j] += apen;
            tmpr[j] += apen;
        }
        for (int i = 0; i < m; i++) {
            const double w = masses[i], *a = atoms + rows[i] * n, *ar = atoms_ro + rows[i] * n;
            const int stop = ar[j] >= own - TIE;
            for (int c = 0; c < n; c++) {
                tmp[c] += w * (stop ? a[c] : E[c]);
                tmpr[c] += w * (stop ? ar[c] : Er[c]);
            }
        }
        for (int c = 0; c < n; c++) {
            E[c] = tmp[c];
            Er[c] = tmpr[c];
            W[(s1 + L * step) * n + c] = tmp[c];
        }
    }
}

/* middle_node for a player who decides by the round of W_ro (its knowledge slots solved
 * already): his choices follow his own values there (a_ro, above_tables of W_ro), the values
 * written are those of W (a, above_tables of W). */
static void fixed_middle_node(const Graph *g, int j, int flagged, double *W, const double *W_ro, const Above *a,
                              const Above *a_ro, int64_t L, int64_t b, int64_t code) {
    const int n = g->n, K = g->K;
    const double apen = g->mass_apen;
    int64_t rows[8], dcode;
    double masses[8], E[MAXN], tmp[MAXN], Er[MAXN], tmpr[MAXN];
    const int m = kept_rows(g, j, flagged, L, b, code, rows, masses, &dcode);
    const int64_t cell = (L - 1) * a->most + g->nb_index[dcode];
    const int start = (int)g->item_start[b + 1];
    const double *suf = a->suf_val + cell * (K + 1) * n, *suf_ro = a_ro->suf_val + cell * (K + 1) * n;
    const double *own_ro = a_ro->own + cell * K;
    const char *mono_ro = a_ro->mono + cell * K;
    for (int c = 0; c < n; c++) {
        E[c] = suf[start * n + c];
        Er[c] = suf_ro[start * n + c];
    }
    if (flagged) {
        E[j] += apen;
        Er[j] += apen;
    }
    for (int i = 0; i < m; i++) {
        const double w = masses[i], *v = W + rows[i] * n, *vr = W_ro + rows[i] * n;
        for (int c = 0; c < n; c++) {
            E[c] += w * v[c];
            Er[c] += w * vr[c];
        }
    }
    for (int64_t left = 1; left < L; left++) {
        const double theta = Er[j] - TIE;
        for (int c = 0; c < n; c++) {
            tmp[c] = E[c];
            tmpr[c] = Er[c];
        }
        if (flagged) {
            for (int c = 0; c < n; c++) {
                tmp[c] -= apen * E[c];
                tmpr[c] -= apen * Er[c];
            }
            tmp[j] += apen;
            tmpr[j] += apen;
        }
        for (int i = 0; i < m; i++) {
            const double *v = W + rows[i] * n, *vr = W_ro + rows[i] * n;
            if (vr[j] >= theta) {
                const double w = masses[i];
                for (int c = 0; c < n; c++) {
                    tmp[c] += w * (v[c] - E[c]);
                    tmpr[c] += w * (vr[c] - Er[c]);
                }
            }
        }
        if (start == K) {
        } else if (mono_ro[start]) {
            int lo = start, hi = K;
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (own_ro[mid] >= theta) hi = mid;
                else lo = mid + 1;
            }
            const double taken = g->suf_mass[lo];
            for (int c = 0; c < n; c++) {
                tmp[c] += suf[lo * n + c] - taken * E[c];
                tmpr[c] += suf_ro[lo * n + c] - taken * Er[c];
            }
        } else {
            for (int i = start; i < K; i++)
                if (own_ro[i] >= theta) {
                    const double w = g->item_mass[i];
                    for (int c = 0; c < n; c++) {
                        tmp[c] += suf[i * n + c] - suf[(i + 1) * n + c] - w * E[c];
                        tmpr[c] += suf_ro[i * n + c] - suf_ro[(i + 1) * n + c] - w * Er[c];
                    }
                }
        }
        for (int c = 0; c < n; c++) {
            E[c] = tmp[c];
            Er[c] = tmpr[c];
        }
    }
    const int64_t s = slot_of(g, j, L, b, code);
    for (int c = 0; c < n; c++) W[s * n + c] = E[c];
}

static void fixed_last(const Graph *g, const int64_t *flags, const double *atoms, double *W, const double *atoms_ro) {
    for (int64_t b = -1; b < g->NL; b++) {
        int64_t count;
        const int64_t *codes = codes_of(g, g->n - 1, b, &count);
        for (int64_t i = 0; i < count; i++)
            fixed_last_node(g, flags[g->n - 1] != 0, atoms, W, atoms_ro, b, codes[i]);
    }
}

static void fixed_middle(const Graph *g, int j, const int64_t *flags, double *W, const double *W_ro, const Above *a,
                         const Above *a_ro) {
    for (int64_t L = 1; L <= 3; L++)
        for (int64_t b = -1; b < g->NL; b++) {
            int64_t count;
            const int64_t *codes = codes_of(g, j, b, &count);
            for (int64_t i = 0; i < count; i++)
                fixed_middle_node(g, j, flags[j] != 0, W, W_ro, a, a_ro, L, b, codes[i]);
        }
}

/* The start player deciding by W_ro (fixed = 0) or by W: the round's value vector. */
static void fixed_start(const Graph *g, int fixed, const int64_t *flags, const double *W, const double *W_ro,
                        double *out) {
    const int n = g->n;
    double cont[MAXN] = {0}, cont_ro[MAXN] = {0}, tmp[MAXN], tmpr[MAXN], alone[MAXN] = {0};
    double masses[2 * MAXNL + 1], masses_ro[2 * MAXNL + 1];
    const double *vals[2 * MAXNL + 1], *vals_ro[2 * MAXNL + 1];
    alone[0] = 1.0;
    for (int t = 3; t > 0; t--) {
        const int m = start_outcomes(g, n, t, flags, W, alone, masses, vals);
        if (fixed == 0) start_outcomes(g, n, t, flags, W_ro, alone, masses_ro, vals_ro);
        for (int c = 0; c < n; c++) tmp[c] = tmpr[c] = 0.0;
        for (int k = 0; k < m; k++) {
            const double w = masses[k];
            const int stop = fixed == 0 ? (t == 3 || vals_ro[k][0] >= cont_ro[0] - TIE)
                                        : (t == 3 || vals[k][0] >= cont[0]);
            for (int c = 0; c < n; c++) tmp[c] += w * (stop ? vals[k][c] : cont[c]);
            if (fixed == 0)
                for (int c = 0; c < n; c++) tmpr[c] += w * (stop ? vals_ro[k][c] : cont_ro[c]);
        }
        for (int c = 0; c < n; c++) {
            cont[c] = tmp[c];
            cont_ro[c] = tmpr[c];
        }
    }
    for (int c = 0; c < n; c++) out[c] = cont[c];
}

/* round_backward with the player at `fixed` deciding by the round of atoms_ro and W_ro;
 * fixed = -1 is round_backward. Fills W and out. */
static void round_backward_fixed(const Graph *g, FixedWork *f, int fixed, const int64_t *flags, const double *atoms,
                                 double *W, const double *atoms_ro, const double *W_ro, double *out) {
    const int n = g->n;
    if (fixed == n - 1) fixed_last(g, flags, atoms, W, atoms_ro);
    else last_position(g, n, flags, atoms, W, 0, 1);
    for (int j = n - 2; j > 0; j--) {
        above_tables(g, n, j, W, &f->above);
        if (j == fixed) {
            above_tables(g, n, j, W_ro, &f->above_ro);
            fixed_middle(g, j, flags, W, W_ro, &f->above, &f->above_ro);
        } else {
            middle_position(g, n, j, flags, W, &f->above, 0, 1);
        }
    }
    fixed_start(g, fixed, flags, W, W_ro, out);
}

/* One Gauss-Seidel pass of sweep_states for every position of the fixed player:
 * U[position][state][n]; W_ro_all[flags] the knowledge slots of his round by the has-wiped
 * flags of the positions (bit k for position k). Returns the largest change (-1: out of
 * memory). */
static double sweep_fixed(const Graph *g, const Next *x, const int64_t *states, Py_ssize_t count, double *U,
                          const double *atoms_ro, const double *W_ro_all) {
    const int n = g->n;
    int64_t stripes[MAXN], flags[MAXN];
    double out[MAXN], change = 0.0;
    FixedWork f = {0};
    f.atoms = calloc((size_t)(g->atom_table * n), sizeof(double));
    f.W = calloc((size_t)(g->slots * n), sizeof(double));
    if (!f.atoms || !f.W || !above_alloc(&f.above, g) || !above_alloc(&f.above_ro, g)) change = -1.0;
    for (Py_ssize_t i = 0; change >= 0 && i < count; i++) {
        const int64_t s = states[i];
        state_digits(s, n, x->cap, x->s0, stripes, flags);
        int combo = 0;
        for (int k = 0; k < n; k++) combo += (int)(flags[k] << k);
        for (int fixed = 0; fixed < n; fixed++) {
            game_atoms(g, x, fixed, stripes, flags, f.atoms);
            round_backward_fixed(g, &f, fixed, flags, f.atoms, f.W, atoms_ro, W_ro_all + (int64_t)combo * g->slots * n,
                                 out);
            double *u = U + ((int64_t)fixed * x->count + s) * n;
            for (int c = 0; c < n; c++) {
                const double d = fabs(out[c] - u[c]);
                if (d > change) change = d;
                u[c] = out[c];
            }
        }
    }
    fixed_free(&f);
    return change;
}
