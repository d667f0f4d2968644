/* One code path of _pegs_c.c: the passes over the throws and the option values (Acc), then
 * the board values of _pegs_c_solver.h for both stored dtypes, compiled for the path's
 * instruction set. The includer defines PATH(name), which appends the path's suffix to a
 * name (solve_boards_f64_avx512), and PATH_AVX512 for the AVX-512 passes (the portable
 * passes otherwise); the names below are the path's own. */
#define hit_index PATH(hit_index)
#define hsum PATH(hsum)
#define pass_min PATH(pass_min)
#define pass_min2 PATH(pass_min2)
#define pass_newton PATH(pass_newton)
#define choose PATH(choose)
#define hsum8 PATH(hsum8)
#define pass_key PATH(pass_key)
#define pass_key_pair PATH(pass_key_pair)
#define Acc PATH(Acc)
#define acc_load PATH(acc_load)
#define acc_store PATH(acc_store)
#define acc_store_hits PATH(acc_store_hits)
#define acc_term PATH(acc_term)

/* ------------------------------------------------------------------------------------ */
/* Passes over the throws of d dice. rows[0..n): open row positions hit by d dice.       */

#if defined(PATH_AVX512)
/* The hits of 8 throws as permute indices: the 8 bytes broadcast, lane i shifted right by
 * 8 i (the permute reads the low 3 bits; hits are below 8). A broadcast load and a shift
 * instead of a widening move, which competes with the permutes for the same port. */
static inline __m512i hit_index(const uint8_t *p) {
    int64_t bytes;
    memcpy(&bytes, p, sizeof(bytes));
    return _mm512_srlv_epi64(_mm512_set1_epi64(bytes), _mm512_set_epi64(56, 48, 40, 32, 24, 16, 8, 0));
}
static inline double hsum(__m512d v) { return _mm512_reduce_add_pd(v); }

/* sum_throws p * (best option, or x with none): one value table per row. */
static double pass_min(const Geo *G, int d, const int *rows, int n, const Row *T, double x) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d];
    __m512d acc = _mm512_setzero_pd(), vx = _mm512_set1_pd(x), big = _mm512_set1_pd(BIG);
    unsigned set = row_set(rows, n);
    for (int g = 0; g < np; g += 8) {
        __m512d best = big;
        FOR_HIT_ROWS(G, d, g, set, j) {
            __m512d v = _mm512_permutexvar_pd(hit_index(H + (size_t)j * np + g), _mm512_load_pd(T[j].v));
            best = _mm512_min_pd(best, v);
        }
        __mmask8 none = _mm512_cmp_pd_mask(best, big, _CMP_GE_OQ);
        best = _mm512_mask_blend_pd(none, best, vx);
        acc = _mm512_fmadd_pd(_mm512_loadu_pd(P + g), best, acc);
    }
    return hsum(acc);
}

/* The same for two value tables at once (2 and 1 throws left). */
static void pass_min2(const Geo *G, int d, const int *rows, int n, const Row *T2, const Row *T1, double x,
                      double *out2, double *out1) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d];
    __m512d a2 = _mm512_setzero_pd(), a1 = _mm512_setzero_pd(), vx = _mm512_set1_pd(x),
            big = _mm512_set1_pd(BIG);
    unsigned set = row_set(rows, n);
    for (int g = 0; g < np; g += 8) {
        __m512d b2 = big, b1 = big;
        FOR_HIT_ROWS(G, d, g, set, j) {
            __m512i idx = hit_index(H + (size_t)j * np + g);
            b2 = _mm512_min_pd(b2, _mm512_permutexvar_pd(idx, _mm512_load_pd(T2[j].v)));
            b1 = _mm512_min_pd(b1, _mm512_permutexvar_pd(idx, _mm512_load_pd(T1[j].v)));
        }
        __m512d p = _mm512_loadu_pd(P + g);
        b2 = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(b2, big, _CMP_GE_OQ), b2, vx);
        b1 = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(b1, big, _CMP_GE_OQ), b1, vx);
        a2 = _mm512_fmadd_pd(p, b2, a2);
        a1 = _mm512_fmadd_pd(p, b1, a1);
    }
    *out2 = hsum(a2);
    *out1 = hsum(a1);
}

/* A Newton pass at x over the throw vectors whose choice may have changed since they were
 * last examined (every vector with full): per vector, the p-weighted stay and rest of the
 * minimising options (no option: stay 1, rest 0), the smallest gap between a best option
 * and one of another stay, and the x examined at. Returns the vectors examined. */
static int pass_newton(const Geo *G, int d, const int *rows, int n, const Row *V, const Row *S, const Row *R,
                       double x, NewtonStore *st, int full) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d], examined = 0;
    __m512d big = _mm512_set1_pd(BIG), one = _mm512_set1_pd(1.0);
    unsigned set = row_set(rows, n);
    for (int g = 0; g < np; g += 8) {
        int v8 = g / 8;
        if (!full && fabs(x - st->at[v8]) < st->gap[v8]) continue;
        examined++;
        __m512d best = big, second = big, bs = one, br = _mm512_setzero_pd();
        FOR_HIT_ROWS(G, d, g, set, j) {
            __m512i idx = hit_index(H + (size_t)j * np + g);
            __m512d v = _mm512_permutexvar_pd(idx, _mm512_load_pd(V[j].v));
            __m512d s = _mm512_permutexvar_pd(idx, _mm512_load_pd(S[j].v));
            __mmask8 lt = _mm512_cmp_pd_mask(v, best, _CMP_LT_OQ);
            __mmask8 differ = _mm512_cmp_pd_mask(s, bs, _CMP_NEQ_UQ);
            second = _mm512_mask_min_pd(second, differ, second, _mm512_max_pd(v, best));
            best = _mm512_min_pd(best, v);
            bs = _mm512_mask_blend_pd(lt, bs, s);
            br = _mm512_mask_blend_pd(lt, br, _mm512_permutexvar_pd(idx, _mm512_load_pd(R[j].v)));
        }
        __m512d p = _mm512_loadu_pd(P + g);
        __mmask8 real = _mm512_cmp_pd_mask(second, big, _CMP_LT_OQ);
        st->s[v8] = hsum(_mm512_mul_pd(p, bs));
        st->r[v8] = hsum(_mm512_mul_pd(p, br));
        st->gap[v8] = _mm512_reduce_min_pd(_mm512_mask_sub_pd(big, real, second, best));
        st->at[v8] = x;
    }
    return examined;
}

/* One selection by key over the rows of one vector of 8 throws: the best key *bk and the
 * chosen option's value in each of nv value tables (bv, preset to the no-option values).
 * With tiebreak, ties in the key go to the larger tie-break h * 16 + j (more hits, then the
 * higher row): the rows come in increasing position j (hit_rows), so a later row j' > j
 * wins a tie exactly when it has at least as many hits (16 (h' - h) + j' - j > 0 iff h' >= h,
 * as 0 < j' - j < 16). Without, a plain minimum (keys that hold the tie-break). */
static inline void choose(const Geo *G, int d, int g, unsigned set, const Row *K, int nv,
                          const Row *const *Vs, int tiebreak, __m512d *bk, __m512d *bv) {
    const uint8_t *H = G->H[d];
    int np = G->npad[d];
    __m512d best = _mm512_set1_pd(BIG);
    __m512i seven = _mm512_set1_epi64(HS - 1), best_hits = _mm512_setzero_si512();
    FOR_HIT_ROWS(G, d, g, set, j) {
        __m512i idx = hit_index(H + (size_t)j * np + g);
        __m512d key = _mm512_permutexvar_pd(idx, _mm512_load_pd(K[j].v));
        __mmask8 take = _mm512_cmp_pd_mask(key, best, _CMP_LT_OQ);
        if (tiebreak) {                         /* no hit: key INFINITY, never equal to best (from BIG) */
            __m512i hits = _mm512_and_si512(idx, seven);
            take |= _mm512_cmp_pd_mask(key, best, _CMP_EQ_OQ) & _mm512_cmpge_epi64_mask(hits, best_hits);
            best_hits = _mm512_mask_mov_epi64(best_hits, take, hits);
        }
        best = _mm512_mask_blend_pd(take, best, key);
        for (int v = 0; v < nv; v++)
            bv[v] = _mm512_mask_blend_pd(take, bv[v], _mm512_permutexvar_pd(idx, _mm512_load_pd(Vs[v][j].v)));
    }
    *bk = best;
}

/* Choose by key, then sum p * the chosen option's value in each of nv value tables (no
 * option: x_i); with kmin, also sum p * the best key (no option: xk) into *kmin, which is
 * pass_min over the keys at x = xk. Ties in the key go to the larger tie-break (see
 * choose); with unique keys (no two options of a throw equal, as the fixed policies' keys,
 * which hold the tie-break) a plain minimum. */
static void pass_key(const Geo *G, int d, const int *rows, int n, const Row *K, int unique, int nv,
                     const Row *const *Vs, const double *xs, double *out, double xk, double *kmin) {
    const double *P = G->P[d];
    int np = G->npad[d];
    __m512d acc[3], big = _mm512_set1_pd(BIG);
    __m512d ak = _mm512_setzero_pd(), vxk = _mm512_set1_pd(xk);
    for (int v = 0; v < nv; v++) acc[v] = _mm512_setzero_pd();
    unsigned set = row_set(rows, n);
    for (int g = 0; g < np; g += 8) {
        __m512d bk, bv[3];
        for (int v = 0; v < nv; v++) bv[v] = _mm512_set1_pd(xs[v]);
        choose(G, d, g, set, K, nv, Vs, !unique, &bk, bv);
        __m512d p = _mm512_loadu_pd(P + g);
        __mmask8 real = _mm512_cmp_pd_mask(p, _mm512_setzero_pd(), _CMP_NEQ_OQ);   /* padding: 0 * inf */
        for (int v = 0; v < nv; v++) acc[v] = _mm512_mask3_fmadd_pd(p, bv[v], acc[v], real);
        if (kmin) {                             /* the best key, as pass_min sums it */
            bk = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(bk, big, _CMP_GE_OQ), bk, vxk);
            ak = _mm512_fmadd_pd(p, bk, ak);
        }
    }
    for (int v = 0; v < nv; v++) out[v] = hsum(acc[v]);
    if (kmin) *kmin = hsum(ak);
}

/* Two selections of pass_key at once, over the same throws and rows (a PEGS-7 throw with two
 * and with one throw left, mode 3: keys not unique, one value table each): what two calls of
 * pass_key(..., nv = 1, ...) give, sharing the hit indices. */
static void pass_key_pair(const Geo *G, int d, const int *rows, int n, const Row *Ka, const Row *Ta, const Row *Kb,
                          const Row *Tb, double x, double xk, double *outa, double *outb, double *kmina,
                          double *kminb) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d];
    __m512d big = _mm512_set1_pd(BIG), vx = _mm512_set1_pd(x), vxk = _mm512_set1_pd(xk);
    __m512d aa = _mm512_setzero_pd(), ab = _mm512_setzero_pd(), ka = _mm512_setzero_pd(), kb = _mm512_setzero_pd();
    __m512i seven = _mm512_set1_epi64(HS - 1);
    unsigned set = row_set(rows, n);
    for (int g = 0; g < np; g += 8) {
        __m512d bka = big, bkb = big, va = vx, vb = vx;
        __m512i ha = _mm512_setzero_si512(), hb = _mm512_setzero_si512();
        FOR_HIT_ROWS(G, d, g, set, j) {         /* the tie-break of choose, for both selections */
            __m512i idx = hit_index(H + (size_t)j * np + g), hits = _mm512_and_si512(idx, seven);
            __m512d key = _mm512_permutexvar_pd(idx, _mm512_load_pd(Ka[j].v));
            __mmask8 take = _mm512_cmp_pd_mask(key, bka, _CMP_LT_OQ) |
                            (_mm512_cmp_pd_mask(key, bka, _CMP_EQ_OQ) & _mm512_cmpge_epi64_mask(hits, ha));
            ha = _mm512_mask_mov_epi64(ha, take, hits);
            bka = _mm512_mask_blend_pd(take, bka, key);
            va = _mm512_mask_blend_pd(take, va, _mm512_permutexvar_pd(idx, _mm512_load_pd(Ta[j].v)));
            key = _mm512_permutexvar_pd(idx, _mm512_load_pd(Kb[j].v));
            take = _mm512_cmp_pd_mask(key, bkb, _CMP_LT_OQ) |
                   (_mm512_cmp_pd_mask(key, bkb, _CMP_EQ_OQ) & _mm512_cmpge_epi64_mask(hits, hb));
            hb = _mm512_mask_mov_epi64(hb, take, hits);
            bkb = _mm512_mask_blend_pd(take, bkb, key);
            vb = _mm512_mask_blend_pd(take, vb, _mm512_permutexvar_pd(idx, _mm512_load_pd(Tb[j].v)));
        }
        __m512d p = _mm512_loadu_pd(P + g);
        __mmask8 real = _mm512_cmp_pd_mask(p, _mm512_setzero_pd(), _CMP_NEQ_OQ);   /* padding: 0 * inf */
        aa = _mm512_mask3_fmadd_pd(p, va, aa, real);
        ab = _mm512_mask3_fmadd_pd(p, vb, ab, real);
        if (kmina) {
            ka = _mm512_fmadd_pd(p, _mm512_mask_blend_pd(_mm512_cmp_pd_mask(bka, big, _CMP_GE_OQ), bka, vxk), ka);
            kb = _mm512_fmadd_pd(p, _mm512_mask_blend_pd(_mm512_cmp_pd_mask(bkb, big, _CMP_GE_OQ), bkb, vxk), kb);
        }
    }
    *outa = hsum(aa);
    *outb = hsum(ab);
    if (kmina) {
        *kmina = hsum(ka);
        *kminb = hsum(kb);
    }
}

#else  /* portable scalar passes (same arithmetic order per throw; sums in throw order) */

static double pass_min(const Geo *G, int d, const int *rows, int n, const Row *T, double x) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d];
    double acc = 0.0;
    for (int g = 0; g < np; g++) {
        double best = BIG;
        for (int i = 0; i < n; i++) {
            double v = T[rows[i]].v[H[(size_t)rows[i] * np + g]];
            best = v < best ? v : best;
        }
        acc += P[g] * (best >= BIG ? x : best);
    }
    return acc;
}

static void pass_min2(const Geo *G, int d, const int *rows, int n, const Row *T2, const Row *T1, double x,
                      double *out2, double *out1) {
    *out2 = pass_min(G, d, rows, n, T2, x);
    *out1 = pass_min(G, d, rows, n, T1, x);
}

static int pass_newton(const Geo *G, int d, const int *rows, int n, const Row *V, const Row *S, const Row *R,
                       double x, NewtonStore *st, int full) {
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d], examined = 0;
    for (int g8 = 0; g8 < np; g8 += 8) {
        int v8 = g8 / 8;
        if (!full && fabs(x - st->at[v8]) < st->gap[v8]) continue;
        examined++;
        double as = 0.0, ar = 0.0, gp = BIG;
        for (int g = g8; g < g8 + 8; g++) {
            double best = BIG, second = BIG, bs = 1.0, br = 0.0;
            for (int i = 0; i < n; i++) {
                int j = rows[i], h = H[(size_t)j * np + g];
                double v = V[j].v[h], s = S[j].v[h];
                double hi = v > best ? v : best;
                if (s != bs && hi < second) second = hi;
                if (v < best) { best = v; bs = s; br = R[j].v[h]; }
            }
            as += P[g] * bs;
            ar += P[g] * br;
            if (second < BIG && second - best < gp) gp = second - best;
        }
        st->s[v8] = as;
        st->r[v8] = ar;
        st->gap[v8] = gp;
        st->at[v8] = x;
    }
    return examined;
}

/* The sum of 8 lanes in the order of _mm512_reduce_add_pd. */
static inline double hsum8(const double *a) {
    return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7]));
}

/* Sums in 8 lanes, as the vector pass: a throw's term goes to lane g % 8, so a fixed policy
 * that never leaves a board gets the same stay sum (terms p * 1) as with AVX-512. */
static void pass_key(const Geo *G, int d, const int *rows, int n, const Row *K, int unique, int nv,
                     const Row *const *Vs, const double *xs, double *out, double xk, double *kmin) {
    (void)unique;                               /* the tie-break below is exact either way */
    const uint8_t *H = G->H[d];
    const double *P = G->P[d];
    int np = G->npad[d];
    double ak[8] = {0}, acc[3][8] = {{0}};
    for (int g = 0; g < np; g++) {
        double bk = BIG, btb = -1.0;
        int bj = -1, bh = 0;
        for (int i = 0; i < n; i++) {
            int j = rows[i], h = H[(size_t)j * np + g];
            double key = K[j].v[h], tb = h * 16.0 + j;
            if (key < BIG && (key < bk || (key == bk && tb > btb))) { bk = key; btb = tb; bj = j; bh = h; }
        }
        if (kmin) ak[g % 8] += P[g] * (bj < 0 ? xk : bk);      /* the best key, as pass_min sums it */
        if (P[g] == 0.0) continue;                  /* padding (its value may be inf) */
        for (int v = 0; v < nv; v++) acc[v][g % 8] += P[g] * (bj < 0 ? xs[v] : Vs[v][bj].v[bh]);
    }
    for (int v = 0; v < nv; v++) out[v] = hsum8(acc[v]);
    if (kmin) *kmin = hsum8(ak);
}
static void pass_key_pair(const Geo *G, int d, const int *rows, int n, const Row *Ka, const Row *Ta, const Row *Kb,
                          const Row *Tb, double x, double xk, double *outa, double *outb, double *kmina,
                          double *kminb) {
    const Row *Va[1] = {Ta}, *Vb[1] = {Tb};
    pass_key(G, d, rows, n, Ka, 0, 1, Va, &x, outa, xk, kmina);
    pass_key(G, d, rows, n, Kb, 0, 1, Vb, &x, outb, xk, kminb);
}
#endif

/* The option values of the 8 hits of one row, built term by term as a value (so that it stays
 * in a register: through a pointer every term went to memory and back). */
#if defined(PATH_AVX512)
typedef __m512d Acc;
static inline Acc acc_load(const double *a) { return _mm512_loadu_pd(a); }
static inline void acc_store(Row *r, Acc t) { _mm512_store_pd(r->v, t); }
/* The same with no hit (h = 0) valued none. */
static inline void acc_store_hits(Row *r, Acc t, double none) {
    _mm512_store_pd(r->v, _mm512_mask_blend_pd(1, t, _mm512_set1_pd(none)));
}

/* t + a * e for the 8 hits, where e may be infinite (a fixed policy that never finishes
 * from a board, PEGS-6): a term with probability 0 adds nothing (not 0 * inf = NaN). */
static inline Acc acc_term(Acc t, const double *a, double e) {
    __m512d va = _mm512_loadu_pd(a);
    if (__builtin_expect(isinf(e), 0))
        return _mm512_mask_add_pd(t, _mm512_cmp_pd_mask(va, _mm512_setzero_pd(), _CMP_NEQ_UQ), t, _mm512_set1_pd(e));
    return _mm512_fmadd_pd(va, _mm512_set1_pd(e), t);
}
#else
typedef Row Acc;
static inline Acc acc_load(const double *a) {
    Acc t;
    memcpy(t.v, a, sizeof(t.v));
    return t;
}
static inline void acc_store(Row *r, Acc t) { *r = t; }
static inline void acc_store_hits(Row *r, Acc t, double none) {
    t.v[0] = none;
    *r = t;
}
static inline Acc acc_term(Acc t, const double *a, double e) {
    for (int h = 0; h < HS; h++)
        if (!isinf(e)) t.v[h] += a[h] * e;
        else if (a[h] != 0.0) t.v[h] += e;
    return t;
}
#endif

/* ------------------------------------------------------------------------------------ */
/* Board values, once per stored dtype (FLOAT = double or float).                        */

#define FLOAT double
#define SUFFIX(name) PATH(name##_f64)
#include "_pegs_c_solver.h"
#undef FLOAT
#undef SUFFIX
#define FLOAT float
#define SUFFIX(name) PATH(name##_f32)
#include "_pegs_c_solver.h"
#undef FLOAT
#undef SUFFIX

#undef hit_index
#undef hsum
#undef pass_min
#undef pass_min2
#undef pass_newton
#undef choose
#undef hsum8
#undef pass_key
#undef pass_key_pair
#undef Acc
#undef acc_load
#undef acc_store
#undef acc_store_hits
#undef acc_term
