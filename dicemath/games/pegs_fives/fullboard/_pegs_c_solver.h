/* The board values of _pegs_c.c for one stored dtype: included once with FLOAT double and
 * once with FLOAT float (SUFFIX names the copy). V is the value table, Gd the guide; memo
 * (NULL when it could not be allocated) keeps PEGS-7 values across boards, with the guide's
 * own in memo->guide for the lookahead. */

static double SUFFIX(one)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                          const Digits *D, int d);
static void SUFFIX(two)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                        const Digits *D, int d, double *x2, double *x1);

/* The PEGS-7 values that follow row j going in exactly (need steps, left dice) on a choice
 * throw with ta throws after it: two and one throws left (0 where none can follow). */
static inline void SUFFIX(pegs7)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                                 const Digits *D, int j, int need, int left, int ta, double *x2, double *x1) {
    *x2 = *x1 = 0.0;
    if (D->open == 1 || left < 1 || ta < 1) return;
    Digits in = *D;                                 /* the board with row j in */
    in.s[j] = G->goal;
    in.open--;
    if (ta >= 2) SUFFIX(two)(G, V, Gd, mode, memo, b + need * G->stride[j], &in, left, x2, x1);
    else *x1 = SUFFIX(one)(G, V, Gd, mode, memo, b + need * G->stride[j], &in, left);
}

/* Ask the memory for the memo slots of the PEGS-7 values that the rows going in will read
 * (pegs7 with ta throws after the choice throw of d0 dice), before they are read: the slots
 * of boards far apart are rarely in the cache, and one row's wait no longer holds up the next. */
static inline void SUFFIX(prefetch_pegs7)(const Geo *G, const Memo *memo, int64_t b, const Digits *D, int d0, int ta,
                                          const int *rows, int n) {
    if (!memo || D->open == 1 || ta < 1) return;
    for (int i = 0; i < (rows ? n : G->k); i++) {       /* no rows: every open row (n unused) */
        int j = rows ? rows[i] : i, need = G->goal - D->s[j], left = d0 - G->per_hit[j] * need;
        if (need < 1 || left < 1) continue;
        size_t slot = memo_index(b + need * G->stride[j], left);
        __builtin_prefetch(&memo->entry[slot]);
        if (memo->guide) __builtin_prefetch(&memo->guide[slot]);
    }
}

/* Stay (P(overthrow), PEGS-6) and rest of every option (row j, h hits) of a choice throw of
 * d0 dice with ta throws after it on board b: the cycle table's dot product with V at the
 * row's next steps, the PEGS-7 choice throws that follow the row going in and the restart
 * constant (PEGS-8). */
static void SUFFIX(tables)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                           const Digits *D, int d0, int ta, const int *rows, int n, Row *S, Row *R) {
    int last = D->open == 1;
    SUFFIX(prefetch_pegs7)(G, memo, b, D, d0, ta, rows, n);
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        int need = G->goal - D->s[j];
        double x2, x1;
        SUFFIX(pegs7)(G, V, Gd, mode, memo, b, D, j, need, d0 - G->per_hit[j] * need, ta, &x2, &x1);
        int64_t st = G->stride[j];
        const double *a = G->A + (size_t)tab(G, G->cls[j], need, d0, ta, last) * G->ncols * HS;
        Acc r = acc_term(acc_term(acc_load(a + (G->steps + 3) * HS), a + (G->steps + 1) * HS, x2),
                         a + (G->steps + 2) * HS, x1);
        for (int c = 1; c <= need; c++) r = acc_term(r, a + c * HS, (double)V[b + c * st]);
        acc_store(&R[j], r);
        acc_store(&S[j], acc_load(a));
    }
}

/* tables of V (S, R; the lookahead, mode 3, with its memo) and, in the same loop (they share
 * the rows' cycle tables), the keys K: the option values under the guide at x = Gd[b], its
 * later choices optimal (memo->guide), no hit INFINITY (see choose); their rests (K = S x + Rg)
 * in Rg. */
static void SUFFIX(tables_guided)(const Geo *G, const FLOAT *V, const FLOAT *Gd, Memo *memo, int64_t b,
                                  const Digits *D, int d0, int ta, const int *rows, int n, Row *S, Row *R, Row *K,
                                  Row *Rg) {
    int last = D->open == 1;
    Memo own = {memo ? memo->guide : NULL, NULL};
    Memo *guide = own.entry ? &own : NULL;
    double xg = (double)Gd[b];
    SUFFIX(prefetch_pegs7)(G, memo, b, D, d0, ta, rows, n);
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        int need = G->goal - D->s[j], left = d0 - G->per_hit[j] * need;
        double x2, x1, g2, g1;
        SUFFIX(pegs7)(G, V, Gd, 3, memo, b, D, j, need, left, ta, &x2, &x1);
        SUFFIX(pegs7)(G, Gd, Gd, 0, guide, b, D, j, need, left, ta, &g2, &g1);
        int64_t st = G->stride[j];
        const double *a = G->A + (size_t)tab(G, G->cls[j], need, d0, ta, last) * G->ncols * HS;
        Acc r = acc_term(acc_term(acc_load(a + (G->steps + 3) * HS), a + (G->steps + 1) * HS, x2),
                         a + (G->steps + 2) * HS, x1);
        Acc k = acc_term(acc_term(acc_load(a + (G->steps + 3) * HS), a + (G->steps + 1) * HS, g2),
                         a + (G->steps + 2) * HS, g1);
        for (int c = 1; c <= need; c++) {
            r = acc_term(r, a + c * HS, (double)V[b + c * st]);
            k = acc_term(k, a + c * HS, (double)Gd[b + c * st]);
        }
        acc_store(&R[j], r);
        acc_store(&S[j], acc_load(a));
        acc_store(&Rg[j], k);
        acc_store_hits(&K[j], acc_term(k, a, xg), INFINITY);
    }
}

/* Option values stay * x + rest; no hit (h = 0): BIG. */
static inline void SUFFIX(values)(const int *rows, int n, const Row *S, const Row *R, double x, Row *T) {
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        acc_store_hits(&T[j], acc_term(acc_load(R[j].v), S[j].v, x), BIG);
    }
}

/* Option values at x = V[b] of a choice throw of d0 dice with no throw after it (T1) and,
 * with T2, with one throw after it: dot products of the cycle tables with x (the overthrow,
 * PEGS-6) and V at the row's next steps, plus the PEGS-7 value and the restart constant. */
static void SUFFIX(level_values)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                                 const Digits *D, int d0, const int *rows, int n, double x, Row *T2, Row *T1) {
    int last = D->open == 1;
    if (T2) SUFFIX(prefetch_pegs7)(G, memo, b, D, d0, 1, rows, n);
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        int need = G->goal - D->s[j];
        int64_t st = G->stride[j];
        const double *a0 = G->A + (size_t)tab(G, G->cls[j], need, d0, 0, last) * G->ncols * HS;
        double x1 = 0.0, x2;
        const double *a1 = NULL;
        if (T2) {
            SUFFIX(pegs7)(G, V, Gd, mode, memo, b, D, j, need, d0 - G->per_hit[j] * need, 1, &x2, &x1);
            a1 = G->A + (size_t)tab(G, G->cls[j], need, d0, 1, last) * G->ncols * HS;
        }
        Acc t1 = acc_term(acc_load(a0 + (G->steps + 3) * HS), a0, x), t2;
        if (T2)
            t2 = acc_term(acc_term(acc_load(a1 + (G->steps + 3) * HS), a1, x), a1 + (G->steps + 2) * HS, x1);
        for (int c = 1; c <= need; c++) {
            double e = (double)V[b + c * st];
            t1 = acc_term(t1, a0 + c * HS, e);
            if (T2) t2 = acc_term(t2, a1 + c * HS, e);
        }
        acc_store_hits(&T1[j], t1, BIG);
        if (T2) acc_store_hits(&T2[j], t2, BIG);
    }
}

/* level_values of V (T2, T1; the solve's mode and memo) and of the guide (K2, K1: keys, its
 * later choices optimal, with memo->guide) for a PEGS-7 throw in the lookahead (mode 3), in
 * one loop: the two share the rows' cycle tables. Without T2 and K2, one throw left only. */
static void SUFFIX(level_values_guided)(const Geo *G, const FLOAT *V, const FLOAT *Gd, Memo *memo, int64_t b,
                                        const Digits *D, int d0, const int *rows, int n, Row *T2, Row *T1, Row *K2,
                                        Row *K1) {
    int last = D->open == 1;
    Memo own = {memo ? memo->guide : NULL, NULL};
    Memo *guide = own.entry ? &own : NULL;
    double x = (double)V[b], xg = (double)Gd[b];
    if (T2) SUFFIX(prefetch_pegs7)(G, memo, b, D, d0, 1, rows, n);
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        int need = G->goal - D->s[j], left = d0 - G->per_hit[j] * need;
        int64_t st = G->stride[j];
        const double *a0 = G->A + (size_t)tab(G, G->cls[j], need, d0, 0, last) * G->ncols * HS;
        Acc t1 = acc_term(acc_load(a0 + (G->steps + 3) * HS), a0, x), t2;
        Acc k1 = acc_term(acc_load(a0 + (G->steps + 3) * HS), a0, xg), k2;
        const double *a1 = NULL;
        if (T2) {
            double x1, g1, unused;
            SUFFIX(pegs7)(G, V, Gd, 3, memo, b, D, j, need, left, 1, &unused, &x1);
            SUFFIX(pegs7)(G, Gd, Gd, 0, guide, b, D, j, need, left, 1, &unused, &g1);
            a1 = G->A + (size_t)tab(G, G->cls[j], need, d0, 1, last) * G->ncols * HS;
            t2 = acc_term(acc_term(acc_load(a1 + (G->steps + 3) * HS), a1, x), a1 + (G->steps + 2) * HS, x1);
            k2 = acc_term(acc_term(acc_load(a1 + (G->steps + 3) * HS), a1, xg), a1 + (G->steps + 2) * HS, g1);
        }
        for (int c = 1; c <= need; c++) {
            double e = (double)V[b + c * st], eg = (double)Gd[b + c * st];
            t1 = acc_term(t1, a0 + c * HS, e);
            k1 = acc_term(k1, a0 + c * HS, eg);
            if (T2) {
                t2 = acc_term(t2, a1 + c * HS, e);
                k2 = acc_term(k2, a1 + c * HS, eg);
            }
        }
        acc_store_hits(&T1[j], t1, BIG);
        acc_store_hits(&K1[j], k1, INFINITY);
        if (T2) {
            acc_store_hits(&T2[j], t2, BIG);
            acc_store_hits(&K2[j], k2, INFINITY);
        }
    }
}

/* A PEGS-7 choice throw of d dice with one throw left on board b. */
static double SUFFIX(one)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                          const Digits *D, int d) {
    int rows[MAXK];
    int n = hit_rows(G, D, d, rows);
    double x = (double)V[b];
    if (n == 0) return x;
    CacheEntry *kept = memo ? memo_entry(memo, b, d) : NULL;
    if (kept && kept->key >> 1 == b * 8 + d) return kept->x1;
    Row T[MAXK];
    double out;
    if (mode == 0) {
        SUFFIX(level_values)(G, V, Gd, mode, memo, b, D, d, rows, n, x, NULL, T);
        out = pass_min(G, d, rows, n, T, x);
    } else {
        Row K[MAXK];
        if (mode == 3) {                    /* and the guide's option values (keys) */
            SUFFIX(level_values_guided)(G, V, Gd, memo, b, D, d, rows, n, NULL, T, NULL, K);
        } else {
            SUFFIX(level_values)(G, V, Gd, mode, memo, b, D, d, rows, n, x, NULL, T);
            policy_keys(G, mode, D, rows, n, K);
        }
        const Row *Vs[1] = {T};
        /* mode 3: K is the guide's own one(); keep its value, asked for next */
        CacheEntry *g = mode == 3 && memo && memo->guide ? &memo->guide[memo_index(b, d)] : NULL;
        double gx1;
        int keep = g && g->key >> 1 != b * 8 + d;
        pass_key(G, d, rows, n, K, mode != 3, 1, Vs, &x, &out, (double)Gd[b], keep ? &gx1 : NULL);
        if (keep) {
            g->x1 = gx1;
            g->key = (b * 8 + d) * 2;
        }
    }
    if (kept) {
        kept->key = (b * 8 + d) * 2;
        kept->x1 = out;
    }
    return out;
}

/* PEGS-7 choice throws of d dice with two and with one throw left on board b. */
static void SUFFIX(two)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int mode, Memo *memo, int64_t b,
                        const Digits *D, int d, double *x2, double *x1) {
    int rows[MAXK];
    int n = hit_rows(G, D, d, rows);
    double x = (double)V[b];
    if (n == 0) {
        *x2 = *x1 = x;
        return;
    }
    CacheEntry *kept = memo ? memo_entry(memo, b, d) : NULL;
    if (kept && kept->key == (b * 8 + d) * 2 + 1) {
        *x2 = kept->x2;
        *x1 = kept->x1;
        return;
    }
    Row T2[MAXK], T1[MAXK];
    if (mode == 0) {
        SUFFIX(level_values)(G, V, Gd, mode, memo, b, D, d, rows, n, x, T2, T1);
        pass_min2(G, d, rows, n, T2, T1, x, x2, x1);
    } else {
        Row K2[MAXK] = {0}, K1[MAXK];          /* written for the rows hit (zeroed: the compiler cannot see it) */
        if (mode == 3) {                    /* and the guide's option values, two and one throws left */
            SUFFIX(level_values_guided)(G, V, Gd, memo, b, D, d, rows, n, T2, T1, K2, K1);
        } else {
            SUFFIX(level_values)(G, V, Gd, mode, memo, b, D, d, rows, n, x, T2, T1);
            policy_keys(G, mode, D, rows, n, K2);
        }
        /* mode 3: K2, K1 are the guide's own two(); keep its values, asked for next */
        CacheEntry *g = mode == 3 && memo && memo->guide ? &memo->guide[memo_index(b, d)] : NULL;
        double gx2, gx1;
        int keep = g && g->key != (b * 8 + d) * 2 + 1;
        if (mode == 3) {
            pass_key_pair(G, d, rows, n, K2, T2, K1, T1, x, (double)Gd[b], x2, x1, keep ? &gx2 : NULL,
                          keep ? &gx1 : NULL);
        } else {                            /* one selection by the policy's keys, both values */
            const Row *Vs[2] = {T2, T1};
            double xs[2] = {x, x}, out[2];
            pass_key(G, d, rows, n, K2, 1, 2, Vs, xs, out, 0.0, NULL);
            *x2 = out[0];
            *x1 = out[1];
        }
        if (keep) {
            g->x2 = gx2;
            g->x1 = gx1;
            g->key = (b * 8 + d) * 2 + 1;
        }
    }
    if (kept) {
        kept->key = (b * 8 + d) * 2 + 1;
        kept->x2 = *x2;
        kept->x1 = *x1;
    }
}

/* A starting value for Newton: the pair estimate E(b+e_i) + E(b+e_j) - E(b+e_i+e_j) of the
 * two lowest open rows, corrected by that estimate's error one step on along the third;
 * with one open row an extrapolation along it. */
static double SUFFIX(guess)(const Geo *G, const FLOAT *V, int64_t b, const Digits *D) {
    int n = 0, first = 0;
    int64_t s0 = 0, s1 = 0, s2 = 0;
    for (int j = 0; j < G->k; j++) {
        if (D->s[j] >= G->goal) continue;
        if (n == 0) { s0 = G->stride[j]; first = D->s[j]; }
        else if (n == 1) s1 = G->stride[j];
        else if (n == 2) s2 = G->stride[j];
        n++;
    }
    double x;
    if (n == 1) {
        if (first + 2 > G->goal) return 1.0;
        x = 2.0 * V[b + s0] - (double)V[b + 2 * s0];
    } else {
        x = (double)V[b + s0] + (double)V[b + s1] - (double)V[b + s0 + s1];
        if (n >= 3)
            x += (double)V[b + s2] -
                 ((double)V[b + s2 + s0] + (double)V[b + s2 + s1] - (double)V[b + s2 + s0 + s1]);
    }
    return x >= 1.0 ? x : 1.0;
}

/* The lookahead's escape from a trap of its guide (Advisor.start_value): on a board where
 * every option it names on the turn's first throw overthrows (PEGS-6), the guide's value x of
 * the board is replaced by the solution of the board's own equation under the guide,
 * x = 1 + sum_throws p * min_options (stay * x + rest) (Newton, as for optimal play), and the
 * keys K become stay * x + rest. Returns 0 when no option of any throw can move a peg (the
 * board is a trap for every choice). */
static int SUFFIX(escape_keys)(const Geo *G, const int *rows, int n, const Row *S, const Row *Rg, double x,
                               Row *K) {
    Row T[MAXK];
    NewtonStore store;
    int count = G->npad[G->dice] / 8;
    for (int it = 0; it < 400; it++) {
        SUFFIX(values)(rows, n, S, Rg, x, T);
        pass_newton(G, G->dice, rows, n, T, S, Rg, x, &store, 1);
        double s = 0.0, r = 0.0;
        for (int v = 0; v < count; v++) { s += store.s[v]; r += store.r[v]; }
        double xn = 1.0 - s <= 1e-12 ? 2.0 * fabs(x) + 1.0 : (1.0 + r) / (1.0 - s);   /* still stuck: go far up */
        if (!(xn < 1e300)) return 0;
        if (xn == x) break;
        x = xn;
    }
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        acc_store_hits(&K[j], acc_term(acc_load(Rg[j].v), S[j].v, x), INFINITY);
    }
    return 1;
}

/* Ask the memory, a cache line of boards ahead of a sweep of decreasing indices, for the
 * table entries the boards b0 .. b0 + line - 1 will read (D: the digits of a board just above
 * them): the boards one row step on (the turn's first throw) and, for each row that can go in
 * with dice left (PEGS-7), the boards one step on from the board with that row in (both ends
 * of each run of line boards: it may span two cache lines). Each is one stream of decreasing addresses per row and step, too many streams
 * for the hardware prefetchers once the rows' strides leave the caches. */
static void SUFFIX(prefetch_line)(const Geo *G, const FLOAT *V, const FLOAT *Gd, int64_t b0, int line,
                                  const Digits *D) {
    int guided = Gd != V;
    for (int j = 0; j < G->k; j++) {
        if (D->s[j] >= G->goal) continue;
        int need = G->goal - D->s[j];
        int64_t st = G->stride[j];
        for (int c = 1; c <= need; c++) {           /* both ends: the boards may span two lines */
            __builtin_prefetch(&V[b0 + c * st]);
            __builtin_prefetch(&V[b0 + line - 1 + c * st]);
            if (guided) {
                __builtin_prefetch(&Gd[b0 + c * st]);
                __builtin_prefetch(&Gd[b0 + line - 1 + c * st]);
            }
        }
        int left = G->dice - G->per_hit[j] * need;
        if (left < 1 || D->open == 1) continue;
        int64_t in = b0 + need * st;
        for (int m = 0; m < G->k; m++) {
            if (m == j || D->s[m] >= G->goal || G->reach_hits[left][m] == 0) continue;
            for (int c = 1; c <= G->goal - D->s[m]; c++) {
                int64_t at = in + c * G->stride[m];
                __builtin_prefetch(&V[at]);
                __builtin_prefetch(&V[at + line - 1]);
                if (guided) {
                    __builtin_prefetch(&Gd[at]);
                    __builtin_prefetch(&Gd[at + line - 1]);
                }
            }
        }
    }
}

/* E[b] for each board in order: boards[0..nb), or without boards the indices hi - 1 down
 * to hi - nb (each board's successors are final before it: boards of the same total
 * progress, or decreasing indices). Returns in *stuck the boards a fixed policy never
 * leaves (value inf) and in *vectors the vectors of 8 throws examined at the turns' starts. */
static void SUFFIX(solve_boards)(const Geo *G, FLOAT *E, const FLOAT *Gd, const int64_t *boards, int64_t hi,
                                 Py_ssize_t nb, int mode, long long *stuck, long long *vectors) {
    Memo memo = {cache_new(), mode == 3 ? cache_new() : NULL};
    Memo *cache = memo.entry && (mode != 3 || memo.guide) ? &memo : NULL;
    for (Py_ssize_t i = 0; i < nb; i++) {
        int64_t b = boards ? boards[i] : hi - 1 - i;
        Digits D;
        digits_of(G, b, &D);
        const int line = 64 / (int)sizeof(FLOAT);
        if (!boards) {
            if (b % line == 0 && b >= line) SUFFIX(prefetch_line)(G, E, Gd, b - line, line, &D);
            if (b >= 1) SUFFIX(prefetch_pegs7)(G, cache, b - 1, &D, G->dice, G->throws - 1, NULL, -1);   /* the next board's */
        }
        if (D.open == 0) {
            E[b] = 0;
            continue;
        }
        int rows[MAXK];
        int n = hit_rows(G, &D, G->dice, rows);
        Row S[MAXK], R[MAXK], K[MAXK], Rg[MAXK];
        if (mode == 3) SUFFIX(tables_guided)(G, E, Gd, cache, b, &D, G->dice, G->throws - 1, rows, n, S, R, K, Rg);
        else SUFFIX(tables)(G, E, Gd, mode, cache, b, &D, G->dice, G->throws - 1, rows, n, S, R);
        double x;
        if (mode != 0) {
            if (mode != 3) policy_keys(G, mode, &D, rows, n, K);
            const Row *Vs[2] = {S, R};
            double none[2] = {1.0, 0.0}, sr[2];
            pass_key(G, G->dice, rows, n, K, mode != 3, 2, Vs, none, sr, 0.0, NULL);
            *vectors += G->npad[G->dice] / 8;
            if (mode == 3 && 1.0 - sr[0] <= 1e-15 && SUFFIX(escape_keys)(G, rows, n, S, Rg, (double)Gd[b], K))
                pass_key(G, G->dice, rows, n, K, 0, 2, Vs, none, sr, 0.0, NULL);
            if (1.0 - sr[0] <= 1e-15) {
                x = INFINITY;
                (*stuck)++;
            } else {
                x = (1.0 + sr[1]) / (1.0 - sr[0]);
            }
        } else {
            x = SUFFIX(guess)(G, E, b, &D);
            Row T[MAXK];
            NewtonStore store;
            SUFFIX(values)(rows, n, S, R, x, T);
            *vectors += pass_newton(G, G->dice, rows, n, T, S, R, x, &store, 1);
            int count = G->npad[G->dice] / 8;
            for (int it = 0; it < 200; it++) {
                double s = 0.0, r = 0.0;
                for (int v = 0; v < count; v++) { s += store.s[v]; r += store.r[v]; }
                if (1.0 - s <= 1e-12) {            /* this policy never leaves b: go far up */
                    x = 2.0 * x + 1.0;
                    SUFFIX(values)(rows, n, S, R, x, T);
                    *vectors += pass_newton(G, G->dice, rows, n, T, S, R, x, &store, 1);
                    continue;
                }
                double xn = (1.0 + r) / (1.0 - s);
                if (xn == x) break;
                x = xn;
                SUFFIX(values)(rows, n, S, R, x, T);
                int examined = pass_newton(G, G->dice, rows, n, T, S, R, x, &store, 0);
                *vectors += examined;
                if (!examined) break;
            }
        }
        E[b] = (FLOAT)x;
    }
    free(memo.entry);
    free(memo.guide);
}

/* Stay and rest ([k][HS], zero for rows not open or not hit) of every option of one choice
 * throw of d0 dice with ta throws after it, later choices optimal (advice). */
static void SUFFIX(option_tables)(const Geo *G, const FLOAT *V, int64_t b, int d0, int ta, double *stay,
                                  double *rest) {
    Digits D;
    digits_of(G, b, &D);
    int rows[MAXK] = {0};
    int n = hit_rows(G, &D, d0, rows);
    Row S[MAXK], R[MAXK];
    SUFFIX(tables)(G, V, V, 0, NULL, b, &D, d0, ta, rows, n, S, R);
    memset(stay, 0, sizeof(double) * G->k * HS);
    memset(rest, 0, sizeof(double) * G->k * HS);
    for (int i = 0; i < n; i++)
        for (int h = 1; h < HS; h++) {
            stay[rows[i] * HS + h] = S[rows[i]].v[h];
            rest[rows[i] * HS + h] = R[rows[i]].v[h];
        }
}
