/* One code path of the Fives kernel (see _fives_c.c), included once per instruction set with
 * PATH(name) naming its functions: the sums over the choice throws, by mode, then the table
 * part (_fives_c_table.h) once per table type.
 *
 * A row of 16 lanes is VECS vectors of VEC_BYTES (two with AVX-512, four with AVX2, eight
 * SSE2 vectors in the portable path on x86-64), GCC's vector extension. */

/* The path's vector: VEC_BYTES / 8 doubles, VECS of them a row of 16 lanes (a Lanes). */
#define VEC PATH(Vec)
#define BITS PATH(Bits)
#define VECS ((int)(sizeof(Lanes) / VEC_BYTES))
typedef double VEC __attribute__((vector_size(VEC_BYTES)));
typedef long long BITS __attribute__((vector_size(VEC_BYTES)));

static inline VEC *PATH(vecs)(Lanes *row) { return (VEC *)row->v; }
static inline const VEC *PATH(cvecs)(const Lanes *row) { return (const VEC *)row->v; }

/* x where `take` (a comparison's all-ones lanes), else y. */
static inline VEC PATH(select)(BITS take, VEC x, VEC y) { return (VEC)(((BITS)x & take) | ((BITS)y & ~take)); }

/* The lane-wise minimum (no NaN here: either operand on a tie). */
static inline VEC PATH(vmin)(VEC a, VEC b) {
#if VEC_BYTES == 64
    return (VEC)_mm512_min_pd((__m512d)a, (__m512d)b);
#elif VEC_BYTES == 32
    return (VEC)_mm256_min_pd((__m256d)a, (__m256d)b);
#elif defined(__SSE2__)
    return (VEC)_mm_min_pd((__m128d)a, (__m128d)b);
#else
    return PATH(select)(a < b, a, b);
#endif
}

/* d = the lane-wise minimum of a and b. */
static inline void PATH(lanes_min)(Lanes *d, const Lanes *a, const Lanes *b) {
    for (int v = 0; v < VECS; v++) PATH(vecs)(d)[v] = PATH(vmin)(PATH(cvecs)(a)[v], PATH(cvecs)(b)[v]);
}

/* d = x where x is below BIG, else y (per lane). */
static inline void PATH(lanes_open_or)(Lanes *d, const Lanes *x, const Lanes *y) {
    for (int v = 0; v < VECS; v++) {
        VEC a = PATH(cvecs)(x)[v];
        PATH(vecs)(d)[v] = PATH(select)(a < BIG, a, PATH(cvecs)(y)[v]);
    }
}

/* acc += w * m per lane, a lane whose m is BIG (no legal number) counting 0. */
static inline void PATH(lanes_accumulate)(Lanes *acc, double w, const Lanes *m) {
    for (int v = 0; v < VECS; v++) {
        VEC x = PATH(cvecs)(m)[v];
        PATH(vecs)(acc)[v] += w * (VEC)((BITS)x & (x < BIG));
    }
}

/* Optimal play: acc = the sum over the choice throws of weight x the least option of the
 * throw. The minima run the program of the tables (fives_kernel.min_program): first the
 * shared minima of two items each, then each throw's minimum over its items; the sum is
 * in throw order. */
static void PATH(optimal_sum)(const Geo *G, Lanes *V, Lanes *acc) {
    Lanes *shared = V + G->entries;
    for (int n = 0; n < G->nodes; n++)
        PATH(lanes_min)(&shared[n], &V[G->node[2 * n]], &V[G->node[2 * n + 1]]);
    VEC sum[VECS], m[VECS];
    for (int v = 0; v < VECS; v++) sum[v] = (VEC){0};
    for (int t = 0; t < G->lists; t++) {
        const int64_t *item = G->group_item + G->group_start[t], *end = G->group_item + G->group_start[t + 1];
        for (int v = 0; v < VECS; v++) m[v] = PATH(cvecs)(&V[*item])[v];
        for (item++; item < end; item++)
            for (int v = 0; v < VECS; v++) m[v] = PATH(vmin)(m[v], PATH(cvecs)(&V[*item])[v]);
        double w = G->weight[t];
        for (int v = 0; v < VECS; v++) sum[v] += w * (VEC)((BITS)m[v] & (m[v] < BIG));
    }
    for (int v = 0; v < VECS; v++) PATH(vecs)(acc)[v] = sum[v];
}

/* Greedy (P = V, no fallback) and safe greedy (P = the fitting options, fallback V): acc =
 * the sum over the choice throws of weight x the first option of the throw's list (more
 * hits, then the higher number) that is below BIG in P, or with the fallback in V when none
 * is. Scanned backwards: each step is one select. */
static void PATH(first_open_sum)(const Geo *G, const Lanes *V, const Lanes *P, int fallback, Lanes *acc) {
    Lanes sum = {{0.0}}, big;
    for (int l = 0; l < LANES; l++) big.v[l] = BIG;
    for (int t = 0; t < G->lists; t++) {
        Lanes chosen = big, other = big;
        for (int64_t i = G->list_start[t + 1] - 1; i >= G->list_start[t]; i--) {
            int64_t e = G->list_entry[i];
            PATH(lanes_open_or)(&chosen, &P[e], &chosen);
            if (fallback) PATH(lanes_open_or)(&other, &V[e], &other);
        }
        if (fallback) PATH(lanes_open_or)(&chosen, &chosen, &other);
        PATH(lanes_accumulate)(&sum, G->weight[t], &chosen);
    }
    *acc = sum;
}

/* Lookahead: acc = the sum over the choice throws of weight x the value in V of the
 * throw's option with the least score in S (the first in list order on a tie). */
static void PATH(picked_sum)(const Geo *G, const Lanes *V, const Lanes *S, Lanes *acc) {
    Lanes sum = {{0.0}};
    for (int t = 0; t < G->lists; t++) {
        int64_t i = G->list_start[t];
        Lanes best = S[G->list_entry[i]], chosen = V[G->list_entry[i]];
        for (i++; i < G->list_start[t + 1]; i++) {
            const VEC *x = PATH(cvecs)(&S[G->list_entry[i]]), *y = PATH(cvecs)(&V[G->list_entry[i]]);
            for (int v = 0; v < VECS; v++) {
                BITS better = x[v] < PATH(vecs)(&best)[v];
                PATH(vecs)(&best)[v] = PATH(select)(better, x[v], PATH(vecs)(&best)[v]);
                PATH(vecs)(&chosen)[v] = PATH(select)(better, y[v], PATH(vecs)(&chosen)[v]);
            }
        }
        PATH(lanes_accumulate)(&sum, G->weight[t], &chosen);
    }
    *acc = sum;
}

/* acc = the sum over the choice throws of weight x the option that mode names (option
 * values V, scores S: the fitting options for safe greedy, the guide's for lookahead). */
static void PATH(chosen_sum)(const Geo *G, int mode, Lanes *V, const Lanes *S, Lanes *acc) {
    switch (mode) {
    case MODE_OPTIMAL: PATH(optimal_sum)(G, V, acc); break;
    case MODE_GREEDY: PATH(first_open_sum)(G, V, V, 0, acc); break;
    case MODE_SAFE_GREEDY: PATH(first_open_sum)(G, V, S, 1, acc); break;
    default: PATH(picked_sum)(G, V, S, acc); break;
    }
}

/* Safe greedy's first choices: S[e] = V[e] for the options of axis j whose hits fit below
 * the goal at progress s0[lane], BIG for the others. */
static inline void PATH(fit_axis)(const Geo *G, int j, const int *s0, const Lanes *V, Lanes *S) {
    int first = G->entry_base[j];
    for (int h = 0; h < G->hits_max[j]; h++)
        for (int l = 0; l < LANES; l++)
            S[first + h].v[l] = G->fits[(j * (G->goal + 1) + s0[l]) * WIDTH + h] > 0.0 ? V[first + h].v[l] : BIG;
}

#define TABLE double
#define TYPED(name) PATH(name##_f64)
#include "_fives_c_table.h"
#undef TYPED
#undef TABLE

#define TABLE float
#define TYPED(name) PATH(name##_f32)
#include "_fives_c_table.h"
#undef TYPED
#undef TABLE

#undef VECS
#undef BITS
#undef VEC
