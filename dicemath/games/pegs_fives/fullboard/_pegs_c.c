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
 *
 * Code paths: the passes and the solver are compiled once per instruction set (the
 * AVX-512 passes; the portable passes for AVX2 and FMA; the portable passes for any CPU)
 * and the fastest path the CPU runs is chosen at import, or the one environment variable
 * DICEMATH_SIMD names (avx512, avx2, scalar), so one build runs on every x86-64 CPU. Other
 * CPUs and compilers build the portable path alone. The avx512 and avx2 paths use fused
 * multiply-adds, the scalar one does not, and the portable passes of optimal play sum a
 * pass in throw order: values agree within float64 rounding across paths, not bit for bit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define X86_PATHS 1   /* GCC on x86-64: the AVX-512 and AVX2 paths besides the portable one */
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
/* Rows and digits of a board, shared by the code paths.                                 */

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

/* ------------------------------------------------------------------------------------ */
/* Code paths: _pegs_c_passes.h once per instruction set, chosen at import (see PyInit).  */

#if defined(X86_PATHS)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx512
#define PATH_AVX512 1
#include "_pegs_c_passes.h"
#undef PATH_AVX512
#undef PATH
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx2
#include "_pegs_c_passes.h"
#undef PATH
#pragma GCC pop_options
#endif

#define PATH(name) name##_scalar
#include "_pegs_c_passes.h"
#undef PATH

typedef struct {
    const char *name;
    int (*runs)(void);                  /* this CPU has the path's instructions */
    void (*solve_f64)(const Geo *, double *, const double *, const int64_t *, int64_t, Py_ssize_t, int, long long *,
                      long long *);
    void (*solve_f32)(const Geo *, float *, const float *, const int64_t *, int64_t, Py_ssize_t, int, long long *,
                      long long *);
    void (*options_f64)(const Geo *, const double *, int64_t, int, int, double *, double *);
    void (*options_f32)(const Geo *, const float *, int64_t, int, int, double *, double *);
} Path;

#if defined(X86_PATHS)
static int runs_avx512(void) { return __builtin_cpu_supports("x86-64-v4"); }
static int runs_avx2(void) { return __builtin_cpu_supports("x86-64-v3"); }
#endif
static int runs_scalar(void) { return 1; }

#define PATH_ENTRY(name) \
    {#name, runs_##name, solve_boards_f64_##name, solve_boards_f32_##name, option_tables_f64_##name, \
     option_tables_f32_##name}
static const Path paths[] = {   /* fastest first */
#if defined(X86_PATHS)
    PATH_ENTRY(avx512),
    PATH_ENTRY(avx2),
#endif
    PATH_ENTRY(scalar),
};
#undef PATH_ENTRY

static const Path *path;        /* the one in use, set once at import */

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
    if (is64) path->solve_f64(&G, (double *)B.E.buf, (const double *)B.Gd.buf, boards, hi, n, mode, &stuck, &vectors);
    else path->solve_f32(&G, (float *)B.E.buf, (const float *)B.Gd.buf, boards, hi, n, mode, &stuck, &vectors);
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
        if (is64) path->options_f64(&G, (const double *)B.E.buf, board, d0, ta, (double *)so.buf, (double *)ro.buf);
        else path->options_f32(&G, (const float *)B.E.buf, board, d0, ta, (double *)so.buf, (double *)ro.buf);
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
    return PyUnicode_FromString(path->name);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Solve boards in the order given (see pegs_kernel.PegsKernel.solve)."},
    {"solve_range", py_solve_range, METH_VARARGS, "Solve a range of boards, highest index first."},
    {"options", py_options, METH_VARARGS, "Stay and rest of every option of one choice throw."},
    {"simd", py_simd, METH_NOARGS, "The code path in use (avx512, avx2 or scalar), chosen at import."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pegs_c",
                                    "The compiled exact Pegs kernel (see pegs_kernel.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* The path: DICEMATH_SIMD's if set (ImportError if this CPU or build has no such path), else
 * the fastest this CPU runs. PATHS: the names of the paths it runs, fastest first. */
PyMODINIT_FUNC PyInit__pegs_c(void) {
    const char *forced = getenv("DICEMATH_SIMD");
    if (forced != NULL && forced[0] == '\0') forced = NULL;
    __builtin_cpu_init();
    const Path *chosen = NULL;
    PyObject *names = PyList_New(0);
    for (size_t i = 0; names != NULL && i < sizeof(paths) / sizeof(paths[0]); i++) {
        if (!paths[i].runs()) continue;
        if (chosen == NULL && (forced == NULL || strcmp(forced, paths[i].name) == 0)) chosen = &paths[i];
        PyObject *name = PyUnicode_FromString(paths[i].name);
        if (name == NULL || PyList_Append(names, name) < 0) Py_CLEAR(names);
        Py_XDECREF(name);
    }
    if (names == NULL) return NULL;
    if (chosen == NULL) {
        PyErr_Format(PyExc_ImportError, "DICEMATH_SIMD=%s: not a code path this CPU runs (%R)", forced, names);
        Py_DECREF(names);
        return NULL;
    }
    path = chosen;
    PyObject *m = PyModule_Create(&module), *tuple = PyList_AsTuple(names);
    Py_DECREF(names);
    if (m == NULL || tuple == NULL || PyModule_AddObject(m, "PATHS", tuple) < 0) {
        Py_XDECREF(tuple);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
