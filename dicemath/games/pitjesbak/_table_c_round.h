/* One round by backward induction (PIT-4..PIT-8); included by _table_c.c.
 *
 * The functions marked INLINE take the number of players n as an argument and are compiled
 * once per n (round_backward_N below): the loops over the components of a value vector then
 * have a fixed length. */

#define INLINE static inline __attribute__((always_inline))

/* The outcomes of the last position's counting throw at (b >= 0, code): the atom rows they
 * end in and their masses (a flagged 1-1-1 wins the game and has no row, PIT-6). */
static inline int last_rows(const Graph *g, int64_t b, int64_t code, int flagged, int64_t *rows, double *masses) {
    const int64_t pj = g->powR[g->n - 1], t_b = g->level_type[b];
    int m = 0;
    if (!flagged) {
        rows[m] = (code + 3 * pj) * 4 + t_b;
        masses[m++] = g->mass_apen;
    }
    for (int p = 0; p < 2; p++) {
        double w = g->below_mass[(b + 1) * 2 + p];          /* below the best: a penalty stays */
        if (w > 0.0) {
            rows[m] = (code + p * pj) * 4 + t_b;
            masses[m++] = w;
        }
        w = g->mass_lp[b * 2 + p];                          /* equal to the best: one more holder */
        if (w > 0.0) {
            rows[m] = (code + best_digit(g, p) * pj) * 4 + t_b;
            masses[m++] = w;
        }
    }
    const int64_t dcode = demoted(g, b, code);              /* above the best: the only holder */
    for (int t = 0; t < 4; t++)
        for (int p = 0; p < 2; p++) {
            const double w = g->above_mass[((b + 1) * 4 + t) * 2 + p];
            if (w > 0.0) {
                rows[m] = (dcode + best_digit(g, p) * pj) * 4 + t;
                masses[m++] = w;
            }
        }
    return m;
}

/* The last position's turn at (b, code): the atoms do not depend on the limit, so one
 * recursion gives its values for the limits 1, 2 and 3 (W at s1, s1 + step, s1 + 2 step). */
INLINE void last_node(const Graph *g, const int n, int flagged, const double *atoms, double *W, int64_t b,
                      int64_t code) {
    const int j = n - 1;
    const int64_t step = (g->NL + 1) * g->powR[j];          /* from one limit to the next */
    const int64_t s1 = slot_of(g, j, 1, b, code);
    const double apen = g->mass_apen;
    int64_t rows[16];
    double masses[16], E[MAXN] = {0}, tmp[MAXN];
    if (b < 0) {                                            /* everybody else is out: he wins (PIT-8) */
        for (int L = 0; L < 3; L++) {
            double *w = W + (s1 + L * step) * n;
            for (int c = 0; c < n; c++) w[c] = 0.0;
            w[j] = 1.0;
        }
        return;
    }
    const int m = last_rows(g, b, code, flagged, rows, masses);
    /* limit 1: every outcome counts (a flagged 1-1-1 wins the game, PIT-6) */
    for (int c = 0; c < n; c++) E[c] = 0.0;
    if (flagged) E[j] = apen;
    for (int i = 0; i < m; i++) {
        const double w = masses[i], *a = atoms + rows[i] * n;
        for (int c = 0; c < n; c++) E[c] += w * a[c];
    }
    for (int c = 0; c < n; c++) W[s1 * n + c] = E[c];
    for (int L = 1; L < 3; L++) {
        const double own = E[j];
        for (int c = 0; c < n; c++) tmp[c] = E[c];
        if (flagged) {                                      /* 1-1-1 is worth 1 to him: he stops */
            for (int c = 0; c < n; c++) tmp[c] -= apen * E[c];
            tmp[j] += apen;
        }
        for (int i = 0; i < m; i++) {
            const double *a = atoms + rows[i] * n;
            if (a[j] >= own) {
                const double w = masses[i];
                for (int c = 0; c < n; c++) tmp[c] += w * (a[c] - E[c]);
            }
        }
        double *out = W + (s1 + L * step) * n;
        for (int c = 0; c < n; c++) {
            E[c] = tmp[c];
            out[c] = tmp[c];
        }
    }
}

/* The last position's knowledge states with best levels b = share - 1 (mod shares). */
INLINE void last_position(const Graph *g, const int n, const int64_t *flags, const double *atoms, double *W,
                          int share, int shares) {
    for (int64_t b = share - 1; b < g->NL; b += shares) {
        int64_t count;
        const int64_t *codes = codes_of(g, n - 1, b, &count);
        for (int64_t i = 0; i < count; i++) last_node(g, n, flags[n - 1] != 0, atoms, W, b, codes[i]);
    }
}

/* For every limit and every status code without a holder at position j: the value vectors
 * of position j taking the best alone with each item (level, penalty) as suffix sums from
 * the top item, his own values and whether they rise monotonely from each item on. */
INLINE void above_tables(const Graph *g, const int n, int j, const double *W, Above *a) {
    const int K = g->K;
    const int64_t pj = g->powR[j], most = a->most;
    for (int L = 1; L <= 3; L++)
        for (int64_t q = 0; q < g->nb_count[j]; q++) {
            const int64_t dcode = g->nb_code[q];
            double *suf = a->suf_val + ((L - 1) * most + q) * (K + 1) * n;
            double *own = a->own + ((L - 1) * most + q) * K;
            char *mono = a->mono + ((L - 1) * most + q) * K;
            for (int c = 0; c < n; c++) suf[K * n + c] = 0.0;
            mono[K - 1] = 1;
            for (int k = K - 1; k >= 0; k--) {
                const int64_t s2 = slot_of(g, j + 1, L, g->item_level[k], dcode + best_digit(g, (int)g->item_pen[k]) * pj);
                const double w = g->item_mass[k], *v = W + s2 * n;
                for (int c = 0; c < n; c++) suf[k * n + c] = suf[(k + 1) * n + c] + w * v[c];
                own[k] = v[j];
                if (k < K - 1) mono[k] = mono[k + 1] && own[k] <= own[k + 1];
            }
        }
}

/* The outcomes of position j's counting throw (j not the last) at (L, b, code) that keep the
 * best where it is or add a holder: the knowledge slots of j + 1 they lead to and their
 * masses (a flagged 1-1-1 wins the game and has no slot, PIT-6); *dcode: the code a new
 * holder of the best leaves behind. */
static inline int kept_rows(const Graph *g, int j, int flagged, int64_t L, int64_t b, int64_t code, int64_t *rows,
                            double *masses, int64_t *dcode) {
    const int64_t pj = g->powR[j];
    int m = 0;
    if (!flagged) {
        rows[m] = slot_of(g, j + 1, L, b, code + 3 * pj);
        masses[m++] = g->mass_apen;
    }
    *dcode = code;
    if (b >= 0) {
        for (int p = 0; p < 2; p++) {
            double w = g->below_mass[(b + 1) * 2 + p];
            if (w > 0.0) {
                rows[m] = slot_of(g, j + 1, L, b, code + p * pj);
                masses[m++] = w;
            }
            w = g->mass_lp[b * 2 + p];
            if (w > 0.0) {
                rows[m] = slot_of(g, j + 1, L, b, code + best_digit(g, p) * pj);
                masses[m++] = w;
            }
        }
        *dcode = demoted(g, b, code);
    }
    return m;
}

/* The turn of position j (not the last) at (L, b, code): the few outcomes that keep the best
 * directly, the many that take it (one per level above) by suffix sums, where the player's
 * own value rises with the level (a threshold), else one by one. */
INLINE void middle_node(const Graph *g, const int n, int j, int flagged, double *W, const Above *a, int64_t L,
                        int64_t b, int64_t code) {
    const int K = g->K;
    const double apen = g->mass_apen;
    int64_t rows[8], dcode;
    double masses[8], E[MAXN], tmp[MAXN];
    const int m = kept_rows(g, j, flagged, L, b, code, rows, masses, &dcode);
    const int64_t s = slot_of(g, j, L, b, code);
    const int64_t cell = (L - 1) * a->most + g->nb_index[dcode];
    const int start = (int)g->item_start[b + 1];
    const double *suf = a->suf_val + cell * (K + 1) * n, *own = a->own + cell * K;
    const char *mono = a->mono + cell * K;
    /* limit 1 left: every outcome counts (a flagged 1-1-1 wins the game, PIT-6) */
    for (int c = 0; c < n; c++) E[c] = suf[start * n + c];
    if (flagged) E[j] += apen;
    for (int i = 0; i < m; i++) {
        const double w = masses[i], *v = W + rows[i] * n;
        for (int c = 0; c < n; c++) E[c] += w * v[c];
    }
    for (int64_t left = 1; left < L; left++) {
        const double theta = E[j];
        if (a->theta) a->theta[s * 2 + left - 1] = theta;
        for (int c = 0; c < n; c++) tmp[c] = E[c];
        if (flagged) {
            for (int c = 0; c < n; c++) tmp[c] -= apen * E[c];
            tmp[j] += apen;
        }
        for (int i = 0; i < m; i++) {
            const double *v = W + rows[i] * n;
            if (v[j] >= theta) {
                const double w = masses[i];
                for (int c = 0; c < n; c++) tmp[c] += w * (v[c] - E[c]);
            }
        }
        if (start == K) {
        } else if (mono[start]) {
            int lo = start, hi = K;
            while (lo < hi) {                               /* first item with own value >= theta */
                int mid = (lo + hi) / 2;
                if (own[mid] >= theta) hi = mid;
                else lo = mid + 1;
            }
            const double taken = g->suf_mass[lo];
            for (int c = 0; c < n; c++) tmp[c] += suf[lo * n + c] - taken * E[c];
        } else {
            for (int i = start; i < K; i++)
                if (own[i] >= theta) {
                    const double w = g->item_mass[i];
                    for (int c = 0; c < n; c++) tmp[c] += suf[i * n + c] - suf[(i + 1) * n + c] - w * E[c];
                }
        }
        for (int c = 0; c < n; c++) E[c] = tmp[c];
    }
    for (int c = 0; c < n; c++) W[s * n + c] = E[c];
}

/* Position j's knowledge states with best levels b = share - 1 (mod shares). */
INLINE void middle_position(const Graph *g, const int n, int j, const int64_t *flags, double *W, const Above *a,
                            int share, int shares) {
    for (int64_t L = 1; L <= 3; L++)
        for (int64_t b = share - 1; b < g->NL; b += shares) {
            int64_t count;
            const int64_t *codes = codes_of(g, j, b, &count);
            for (int64_t i = 0; i < count; i++) middle_node(g, n, j, flags[j] != 0, W, a, L, b, codes[i]);
        }
}

/* The start player's outcomes when he stops after throw t (the limit becomes t): masses and
 * pointers to their value vectors (`alone`: the game won by a flagged 1-1-1, PIT-6). */
INLINE int start_outcomes(const Graph *g, const int n, int t, const int64_t *flags, const double *W,
                          const double *alone, double *masses, const double **vals) {
    int m = 0;
    vals[m] = flags[0] ? alone : W + slot_of(g, 1, t, -1, 3) * n;
    masses[m++] = g->mass_apen;
    for (int level = 0; level < g->NL; level++)
        for (int p = 0; p < 2; p++) {
            const double w = g->mass_lp[level * 2 + p];
            if (w > 0.0) {
                vals[m] = W + slot_of(g, 1, t, level, best_digit(g, p)) * n;
                masses[m++] = w;
            }
        }
    return m;
}

/* The start player: stopping after throw t sets the limit t (PIT-4); writes the round's value. */
INLINE void start_position(const Graph *g, const int n, const int64_t *flags, const double *W, Above *a,
                           double *out) {
    double cont[MAXN], tmp[MAXN], alone[MAXN] = {0}, masses[2 * MAXNL + 1];
    const double *vals[2 * MAXNL + 1];
    alone[0] = 1.0;
    for (int c = 0; c < n; c++) cont[c] = 0.0;
    for (int t = 3; t > 0; t--) {
        int m = start_outcomes(g, n, t, flags, W, alone, masses, vals);
        if (t < 3) a->start_theta[t - 1] = cont[0];
        for (int c = 0; c < n; c++) tmp[c] = 0.0;
        for (int k = 0; k < m; k++) {
            const double w = masses[k];
            if (t == 3 || vals[k][0] >= cont[0])
                for (int c = 0; c < n; c++) tmp[c] += w * vals[k][c];
            else
                for (int c = 0; c < n; c++) tmp[c] += w * cont[c];
        }
        for (int c = 0; c < n; c++) cont[c] = tmp[c];
    }
    for (int c = 0; c < n; c++) out[c] = cont[c];
}

/* A position of a large round is solved by two threads, each for half of the best levels
 * (every knowledge state on its own: the same values). */
#define SPLIT_NODES 20000               /* knowledge states of a position worth a second thread */

typedef struct {
    const Graph *g;
    const int64_t *flags;
    const double *atoms;
    double *W;
    const Above *a;
    int j, share, shares;
} Share;

INLINE void position_share(const Graph *g, const int n, const Share *s) {
    if (s->j == n - 1) last_position(g, n, s->flags, s->atoms, s->W, s->share, s->shares);
    else middle_position(g, n, s->j, s->flags, s->W, s->a, s->share, s->shares);
}

#define POSITION_SHARE_N(N) \
    static void *position_share_##N(void *share) { position_share(((const Share *)share)->g, N, share); return NULL; }
POSITION_SHARE_N(2)
POSITION_SHARE_N(3)
POSITION_SHARE_N(4)
POSITION_SHARE_N(5)
POSITION_SHARE_N(6)
POSITION_SHARE_N(7)
POSITION_SHARE_N(8)

static void *(*const position_share_by_n[MAXN + 1])(void *) = {
    NULL, NULL, position_share_2, position_share_3, position_share_4, position_share_5, position_share_6,
    position_share_7, position_share_8};

static int more_than_one_cpu(void) {
    static int cpus = 0;
    if (cpus == 0) cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return cpus > 1;
}

static int64_t position_codes(const Graph *g, int j) {
    const int64_t *ptr = g->code_ptr + j * (g->NL + 1) * 2;
    int64_t count = 0;
    for (int b = 0; b <= g->NL; b++) count += ptr[b * 2 + 1] - ptr[b * 2];
    return count;
}

INLINE void solve_position(const Graph *g, const int n, int j, const int64_t *flags, const double *atoms, double *W,
                           const Above *a) {
    Share first = {g, flags, atoms, W, a, j, 0, 1};
    if (position_codes(g, j) * 3 >= SPLIT_NODES && more_than_one_cpu()) {
        Share second = first;
        pthread_t thread;
        first.shares = second.shares = 2;
        second.share = 1;
        if (pthread_create(&thread, NULL, position_share_by_n[n], &second) == 0) {
            position_share(g, n, &first);
            pthread_join(thread, NULL);
            return;
        }
        first.shares = 1;
    }
    position_share(g, n, &first);
}

INLINE void round_backward_n(const Graph *g, const int n, Above *a, const int64_t *flags, const double *atoms,
                             double *W, double *out) {
    solve_position(g, n, n - 1, flags, atoms, W, a);
    for (int j = n - 2; j > 0; j--) {
        above_tables(g, n, j, W, a);
        solve_position(g, n, j, flags, atoms, W, a);
    }
    start_position(g, n, flags, W, a, out);
}

#define ROUND_BACKWARD_N(N)                                                                                      \
    static void round_backward_##N(const Graph *g, Above *a, const int64_t *flags, const double *atoms, double *W, \
                                   double *out) {                                                                \
        round_backward_n(g, N, a, flags, atoms, W, out);                                                         \
    }
ROUND_BACKWARD_N(2)
ROUND_BACKWARD_N(3)
ROUND_BACKWARD_N(4)
ROUND_BACKWARD_N(5)
ROUND_BACKWARD_N(6)
ROUND_BACKWARD_N(7)
ROUND_BACKWARD_N(8)

/* Backward induction of one round: fills W (every knowledge slot's value vector) and writes
 * the round's value vector (at its start) to out. */
static void round_backward(const Graph *g, Above *a, const int64_t *flags, const double *atoms, double *W,
                           double *out) {
    static void (*const by_n[MAXN + 1])(const Graph *, Above *, const int64_t *, const double *, double *,
                                        double *) = {NULL, NULL, round_backward_2, round_backward_3, round_backward_4,
                                                     round_backward_5, round_backward_6, round_backward_7,
                                                     round_backward_8};
    by_n[g->n](g, a, flags, atoms, W, out);
}

/* ------------------------------------------------------------------------------------- */
/* One decision inside a round (TableRound.continuation).                                 */

/* The outcomes of position j's counting throw at a knowledge state: masses and the value
 * vectors they lead to (knowledge slots of j + 1, or atoms for the last position). */
static int gather(const Graph *g, int j, int64_t L, int64_t b, int64_t code, const int64_t *flags,
                  const double *atoms, const double *W, const double *alone, double *masses, const double **vals) {
    const int n = g->n, last = j == n - 1;
    const int64_t pj = g->powR[j];
    int m = 0;
#define TARGET(level, code2) (last ? atoms + ((code2) * 4 + g->level_type[level]) * n \
                                   : W + slot_of(g, j + 1, L, level, code2) * n)
    vals[m] = flags[j] ? alone : TARGET(b, code + 3 * pj);  /* 1-1-1 (PIT-6) */
    masses[m++] = g->mass_apen;
    int64_t dcode = code;
    if (b >= 0) {
        for (int p = 0; p < 2; p++) {
            double w = g->below_mass[(b + 1) * 2 + p];      /* below the best: a penalty stays */
            if (w > 0.0) {
                vals[m] = TARGET(b, code + p * pj);
                masses[m++] = w;
            }
            w = g->mass_lp[b * 2 + p];                      /* equal to the best: one more holder */
            if (w > 0.0) {
                vals[m] = TARGET(b, code + best_digit(g, p) * pj);
                masses[m++] = w;
            }
        }
        dcode = demoted(g, b, code);
    }
#undef TARGET
    if (last) {                                             /* above the best: the only holder */
        for (int t = 0; t < 4; t++)
            for (int p = 0; p < 2; p++) {
                const double w = g->above_mass[((b + 1) * 4 + t) * 2 + p];
                if (w > 0.0) {
                    vals[m] = atoms + ((dcode + best_digit(g, p) * pj) * 4 + t) * n;
                    masses[m++] = w;
                }
            }
    } else {
        for (int64_t level = b + 1; level < g->NL; level++)
            for (int p = 0; p < 2; p++) {
                const double w = g->mass_lp[level * 2 + p];
                if (w > 0.0) {
                    vals[m] = W + slot_of(g, j + 1, L, level, dcode + best_digit(g, p) * pj) * n;
                    masses[m++] = w;
                }
            }
    }
    return m;
}

/* The value vector of position j at knowledge (L, b, code) with `left` throws still to come
 * (ties: stop). */
static void continuation(const Graph *g, int j, int64_t L, int64_t b, int64_t code, int left, const int64_t *flags,
                         const double *atoms, const double *W, double *E) {
    const int n = g->n;
    double alone[MAXN] = {0}, masses[2 * MAXNL + 8], tmp[MAXN];
    const double *vals[2 * MAXNL + 8];
    alone[j] = 1.0;
    int m = gather(g, j, L, b, code, flags, atoms, W, alone, masses, vals);
    for (int c = 0; c < n; c++) E[c] = 0.0;
    for (int k = 0; k < m; k++)
        for (int c = 0; c < n; c++) E[c] += masses[k] * vals[k][c];
    for (int i = 0; i < left - 1; i++) {
        for (int c = 0; c < n; c++) tmp[c] = 0.0;
        const double own = E[j];
        for (int k = 0; k < m; k++) {
            const double *v = vals[k][j] >= own ? vals[k] : E;
            for (int c = 0; c < n; c++) tmp[c] += masses[k] * v[c];
        }
        for (int c = 0; c < n; c++) E[c] = tmp[c];
    }
}
