/* The compiled exact Pegs kernel (docs/rules.md PEGS-1..9), built at install time.
 *
 * One board at a time; the work inside a board is vectorised over the throws of a choice
 * throw (8 throws a vector). A throw's options are the open rows it hits: row j with h hits
 * has value T[j][h] (h = 0: no hit, the value BIG), so the best option of 8 throws is the
 * minimum over the open rows of a table look-up T[j][H[j][throw]] (one permute of an
 * 8-entry table with AVX-512). Hence no lanes of different boards, no divergence between
 * them and no planning of batches.
 *
 * Values of a turn (see pegs_kernel.py for the cycle tables A and the restart identity):
 *   top(b)        x = E[b] solves x = 1 + sum_throws p * min_options (stay * x + rest)
 *   two(b, d)     a PEGS-7 choice throw of d dice with 2 throws left (and, in the same pass,
 *                 the one with 1 throw left)
 *   one(b, d)     a PEGS-7 choice throw of d dice with 1 throw left
 * The unknown x of top() is found by Newton steps on the concave piecewise-linear right
 * side: a pass at x gives the minimising options' stay and rest sums S, R and the smallest
 * gap between a throw's best and second-best option; x' = (1 + R) / (1 - S) is the fixed
 * point when |x' - x| is below that gap (no choice can change between x and x', as the
 * value of every option moves by at most |x' - x|, stays being probabilities).
 *
 * Modes: 0 optimal, 1 greedy, 2 safe greedy, 3 lookahead (choose by the values under the
 * guide table, later choices of the guide optimal; evaluate with E; on a board where every
 * choice of the turn's first throw overthrows, the guide's value of the board is replaced by
 * the solution of its own equation, as Advisor.start_value does). Ties in the key are
 * broken by more hits, then the higher row (the policies' tie-break).
 *
 * The table E and the guide are float64 or float32 (read through one macro-expanded copy of
 * the solver each); arithmetic is float64.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#define HS 8            /* table entries per row: hits 0..7 */
#define MAXK 12
#define MAXC 16         /* cycle-table columns: steps + 4, steps = max(goal, 5) <= 12 */
#define BIG 1e300
#define MAXG 464        /* throws of 6 dice (462 multisets), padded to 8 */

typedef struct {
    int k, goal, dice, throws, steps, ncols;
    int64_t stride[MAXK];
    int per_hit[MAXK];
    int cls[MAXK];                      /* cycle-table class of row j (rows with equal tables share one) */
    int classes;
    int reach_hits[7][MAXK];            /* most hits of row j with d dice (0: row never hit) */
    const double *A;                    /* [table][ncols][HS] */
    const uint8_t *H[7];                /* H[d]: [k][npad[d]] hits of each throw of d dice */
    uint16_t hit[7][MAXG / 8];          /* hit[d][v]: bit j set when row j has a hit in vector v of d dice */
    const double *P[7];                 /* P[d]: [npad[d]] probabilities (0 for padding) */
    int npad[7];
} Geo;

typedef struct { double v[HS]; } __attribute__((aligned(64))) Row;

/* PEGS-7 values kept across the boards of one solve (optimal play): a direct-mapped cache
 * of the choice throws of d dice with one (x1) and two (x2) throws left on board b. A value
 * is final once computed (it reads only boards beyond b, all final), and the boards that
 * ask for it are near each other in a sweep of decreasing indices: the boards with row r
 * a few steps back, for every row r that b has in. */
#define CACHE_BITS 18
typedef struct {
    int64_t key;                        /* (b * 8 + d) * 2 + (x2 known); -1: empty */
    double x2, x1;
} CacheEntry;

typedef struct {
    CacheEntry *entry;                  /* the values of the solve's own policy */
    CacheEntry *guide;                  /* lookahead: optimal play on the guide's values (its keys) */
} Memo;

static CacheEntry *cache_new(void) {
    size_t bytes = sizeof(CacheEntry) << CACHE_BITS;                   /* a multiple of 2 MiB */
    CacheEntry *entry = (CacheEntry *)aligned_alloc((size_t)1 << 21, bytes);
#if defined(MADV_HUGEPAGE)
    if (entry) madvise(entry, bytes, MADV_HUGEPAGE);                   /* fewer TLB misses */
#endif
    if (entry)
        for (size_t i = 0; i < ((size_t)1 << CACHE_BITS); i++) entry[i].key = -1;
    return entry;
}

/* The slot of (b, d): the low bits, so that the entries of nearby boards, asked for together
 * in a sweep, share cache lines and pages. */
static inline size_t memo_index(int64_t b, int d) {
    return (size_t)((uint64_t)(b * 8 + d) & (((uint64_t)1 << CACHE_BITS) - 1));
}

static inline CacheEntry *memo_entry(const Memo *m, int64_t b, int d) { return &m->entry[memo_index(b, d)]; }

/* What a Newton pass keeps per vector of 8 throws (see pass_newton). */
typedef struct { double s[MAXG / 8], r[MAXG / 8], gap[MAXG / 8], at[MAXG / 8]; } NewtonStore;

/* Row of the cycle tables (pegs_kernel.option_table with the row's class for its position). */
static inline int tab(const Geo *G, int c, int need, int d0, int ta, int last) {
    return (((c * (G->goal + 1) + need) * (G->dice + 1) + d0) * G->throws + ta) * 2 + last;
}

/* ------------------------------------------------------------------------------------ */
/* Passes over the throws of d dice. rows[0..n): open row positions hit by d dice.       */

/* rows[0..n) as a bit set. */
static inline unsigned row_set(const int *rows, int n) {
    unsigned set = 0;
    for (int i = 0; i < n; i++) set |= 1u << rows[i];
    return set;
}

/* The rows of `set` with a hit in vector g / 8 of the throws of d dice, in increasing order
 * (j: the row), as the passes' row loops: a row with no hit in any of the 8 throws offers no
 * option there (value BIG, key INFINITY), so it is left out, which changes no result. */
#define FOR_HIT_ROWS(G, d, g, set, j) \
    for (unsigned m_ = (set) & (G)->hit[d][(g) / 8], j = 0; m_ && ((j = __builtin_ctz(m_)), 1); m_ &= m_ - 1)

#if defined(__AVX512F__)
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

/* ------------------------------------------------------------------------------------ */
/* Board values, once per stored dtype (FLOAT = double or float).                        */

/* The option values of the 8 hits of one row, built term by term as a value (so that it stays
 * in a register: through a pointer every term went to memory and back). */
#if defined(__AVX512F__)
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

typedef struct {
    int s[MAXK];        /* digits */
    int open;           /* open rows */
} Digits;

static inline void digits_of(const Geo *G, int64_t b, Digits *D) {
    D->open = 0;
    for (int j = 0; j < G->k; j++) {
        D->s[j] = (int)((b / G->stride[j]) % (G->goal + 1));
        D->open += D->s[j] < G->goal;
    }
}

/* The open rows that d dice can hit. */
static inline int hit_rows(const Geo *G, const Digits *D, int d, int *rows) {
    int n = 0;
    for (int j = 0; j < G->k; j++)
        if (D->s[j] < G->goal && G->reach_hits[d][j] > 0) rows[n++] = j;
    return n;
}

/* Static keys of the fixed policies, unique within a throw (the tie-break is in them):
 * greedy -(16 h + j), the most hits, then the higher row; safe greedy the same plus 1000
 * for an overthrow (PEGS-6). */
static void policy_keys(const Geo *G, int mode, const Digits *D, const int *rows, int n, Row *K) {
    for (int i = 0; i < n; i++) {
        int j = rows[i];
        K[j].v[0] = BIG;
        for (int h = 1; h < HS; h++)
            K[j].v[h] = ((mode == 2 && D->s[j] + h > G->goal) ? 1000.0 : 0.0) - (16.0 * h + j);
    }
}

#define FLOAT double
#define SUFFIX(name) name##_f64
#include "_pegs_c_solver.h"
#undef FLOAT
#undef SUFFIX
#define FLOAT float
#define SUFFIX(name) name##_f32
#include "_pegs_c_solver.h"
#undef FLOAT
#undef SUFFIX

/* ------------------------------------------------------------------------------------ */
/* Python interface                                                                      */

typedef struct {
    Py_buffer geo, F, H, E, Gd, boards;
} Buffers;

static void release(Buffers *B) {
    Py_buffer *all[] = {&B->geo, &B->F, &B->H, &B->E, &B->Gd, &B->boards};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (all[i]->obj) PyBuffer_Release(all[i]);
}

/* geo, int64: k, goal, dice, throws, steps, classes, stride[k], per_hit[k], cls[k],
 * npad[1..6]; F, float64: A, P (pegs_kernel.py). */
static int read_geo(Geo *G, const Buffers *B) {
    const int64_t *g = (const int64_t *)B->geo.buf;
    Py_ssize_t len = B->geo.len / 8;
    if (len < 6) goto bad;
    G->k = (int)g[0]; G->goal = (int)g[1]; G->dice = (int)g[2]; G->throws = (int)g[3]; G->steps = (int)g[4];
    G->classes = (int)g[5];
    G->ncols = G->steps + 4;
    if (G->k < 1 || G->k > MAXK || G->dice != 6 || G->ncols > MAXC || G->goal < 1 || G->goal > G->steps ||
        G->goal >= HS - 1 || G->classes < 1 || G->classes > G->k)
        goto bad;
    size_t tables = (size_t)tab(G, G->classes, 0, 0, 0, 0);
    const int64_t *q = g + 6;
    if ((size_t)len != 6 + 3 * (size_t)G->k + 6) goto bad;
    for (int j = 0; j < G->k; j++) {
        G->stride[j] = q[j];
        G->per_hit[j] = (int)q[G->k + j];
        G->cls[j] = (int)q[2 * G->k + j];
        if (G->cls[j] < 0 || G->cls[j] >= G->classes || G->per_hit[j] < 1) goto bad;
    }
    q += 3 * G->k;
    const double *f = (const double *)B->F.buf;
    G->A = f;
    size_t hoff = 0, poff = tables * G->ncols * HS;
    for (int d = 1; d <= 6; d++) {
        G->npad[d] = (int)q[d - 1];
        if (G->npad[d] % 8 || G->npad[d] > MAXG) goto bad;
        G->H[d] = (const uint8_t *)B->H.buf + hoff;
        G->P[d] = f + poff;
        hoff += (size_t)G->k * G->npad[d];
        poff += G->npad[d];
        for (int j = 0; j < G->k; j++) {
            int most = d / G->per_hit[j];
            G->reach_hits[d][j] = most < HS ? most : HS - 1;
        }
        if (hoff > (size_t)B->H.len) goto bad;
        for (int v = 0; v < G->npad[d] / 8; v++) {
            G->hit[d][v] = 0;
            for (int j = 0; j < G->k; j++)
                for (int t = 0; t < 8; t++)
                    if (G->H[d][(size_t)j * G->npad[d] + 8 * v + t]) G->hit[d][v] |= (uint16_t)(1u << j);
        }
    }
    if ((size_t)B->H.len != hoff || (size_t)B->F.len != poff * 8) goto bad;
    for (size_t i = 0; i < hoff; i++)
        if (((const uint8_t *)B->H.buf)[i] >= HS) goto bad;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "inconsistent Pegs kernel geometry");
    return 0;
}

/* solve(geo, F, H, E, guide, boards, mode, is64) -> (stuck, vectors): boards in the order
 * given; solve_range(geo, F, H, E, guide, lo, hi, mode, is64): indices hi - 1 down to lo. */
static PyObject *solve(PyObject *args, int range) {
    Buffers B = {0};
    int mode, is64;
    long long lo = 0, hi = 0;
    int ok = range ? PyArg_ParseTuple(args, "y*y*y*w*y*LLii", &B.geo, &B.F, &B.H, &B.E, &B.Gd, &lo, &hi, &mode, &is64)
                   : PyArg_ParseTuple(args, "y*y*y*w*y*y*ii", &B.geo, &B.F, &B.H, &B.E, &B.Gd, &B.boards, &mode, &is64);
    if (!ok) return NULL;
    Geo G;
    if (!read_geo(&G, &B)) { release(&B); return NULL; }
    Py_ssize_t size = B.E.len / (is64 ? 8 : 4), n = range ? (Py_ssize_t)(hi - lo) : B.boards.len / 8;
    const int64_t *boards = range ? NULL : (const int64_t *)B.boards.buf;
    if (B.Gd.len != B.E.len || mode < 0 || mode > 3 || (range && (lo < 0 || hi > size || lo > hi))) {
        PyErr_SetString(PyExc_ValueError, "bad guide, mode or range");
        release(&B);
        return NULL;
    }
    long long stuck = 0, vectors = 0;
    Py_BEGIN_ALLOW_THREADS
    if (is64) solve_boards_f64(&G, (double *)B.E.buf, (const double *)B.Gd.buf, boards, hi, n, mode, &stuck, &vectors);
    else solve_boards_f32(&G, (float *)B.E.buf, (const float *)B.Gd.buf, boards, hi, n, mode, &stuck, &vectors);
    Py_END_ALLOW_THREADS
    release(&B);
    return Py_BuildValue("LL", stuck, vectors);
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    return solve(args, 0);
}

static PyObject *py_solve_range(PyObject *self, PyObject *args) {
    (void)self;
    return solve(args, 1);
}

/* options(geo, F, H, E, board, d0, ta, is64, stay_out, rest_out): optimal later choices. */
static PyObject *py_options(PyObject *self, PyObject *args) {
    (void)self;
    Buffers B = {0};
    long long board;
    int d0, ta, is64;
    Py_buffer so = {0}, ro = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*Liiiw*w*", &B.geo, &B.F, &B.H, &B.E, &board, &d0, &ta, &is64, &so, &ro))
        return NULL;
    Geo G;
    int ok = read_geo(&G, &B);
    if (ok && (so.len != G.k * HS * 8 || ro.len != G.k * HS * 8 || d0 < 1 || d0 > G.dice || ta < 0 ||
               ta >= G.throws)) {
        PyErr_SetString(PyExc_ValueError, "bad option arrays, dice or throws");
        ok = 0;
    }
    if (ok) {
        if (is64) option_tables_f64(&G, (const double *)B.E.buf, board, d0, ta, (double *)so.buf, (double *)ro.buf);
        else option_tables_f32(&G, (const float *)B.E.buf, board, d0, ta, (double *)so.buf, (double *)ro.buf);
    }
    release(&B);
    PyBuffer_Release(&so);
    PyBuffer_Release(&ro);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_simd(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
#if defined(__AVX512F__)
    return PyUnicode_FromString("avx512");
#else
    return PyUnicode_FromString("scalar");
#endif
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Solve boards in the order given (see pegs_kernel.PegsKernel.solve)."},
    {"solve_range", py_solve_range, METH_VARARGS, "Solve a range of boards, highest index first."},
    {"options", py_options, METH_VARARGS, "Stay and rest of every option of one choice throw."},
    {"simd", py_simd, METH_NOARGS, "The instruction set the passes were compiled for."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pegs_c",
                                    "The compiled exact Pegs kernel (see pegs_kernel.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__pegs_c(void) { return PyModule_Create(&module); }
