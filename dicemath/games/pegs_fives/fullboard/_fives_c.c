/* The compiled exact Fives kernel (docs/rules.md FIVES-1..5), built at install time.
 *
 * With W(b) = E(b) - 1 (W = 0 for the complete board), a choice throw on board b either has
 * no legal number, which ends the turn on b (FIVES-2), or the player names a number n with
 * h hits, whose value is an affine function of the values of the boards that differ from b
 * in n only (the cycle's marks stand, FIVES-3..5): the option (n, h). With S the sum over
 * the throws with a legal number of weight x the best option and P0 the chance of no legal
 * number, W = S + P0 (W + 1), so W = (S + P0) / (1 - P0) in closed form. fives_kernel.py
 * builds the tables (the coefficients of the options, the choice throws, P0); this file
 * evaluates them.
 *
 * Layout: board index = sum_j s_j (goal + 1)^j (s_j the progress of open number j, see
 * layout.py). Entry entry_base[j] + h - 1 is the option (axis j, h hits). The kernel
 * evaluates 16 boards at once (the lanes): the option values are V[entry].v[lane], so that
 * a minimum over the options of a throw is a 16-lane vector operation. Boards of a call
 * must be mutually independent and their successors final.
 *
 * Work per 16 boards:
 *   fill   V[entry] for every axis: coef[j][s0][0][h] + sum_{i=1..goal-s0} coef[j][s0][i][h]
 *          * E(b + i e_j) (E read as E + 1 at the complete board); BIG on a complete axis;
 *   sum    optimal play: a program of minima (fives_kernel.min_program): shared minima of
 *          two items each, then per throw the minimum over its items, weighted and summed
 *          in throw order (a throw with every option BIG counts 0); the policies read the
 *          throws' option lists instead (greedy and safe greedy: the first open option in
 *          list order, more hits then the higher number; lookahead: the least score in the
 *          guide's option values, the first on a tie);
 *   store  E = W + 1.
 * solve() takes any independent boards (16 a group); solve_slabs() sweeps up to 16 slabs
 * (the top axes fixed per lane) together from the highest lower index down, so that the
 * lower axes have the same progress in every lane and their coefficients are common.
 *
 * Modes: 0 optimal, 1 greedy, 2 safe greedy, 3 lookahead. The table E and the guide are
 * float64 or float32 (one macro-expanded copy of the table code each); arithmetic is
 * float64, every sum in the order of the numba kernel this replaces.
 *
 * Code paths: the kernel is compiled once per instruction set (AVX-512, AVX2 with FMA,
 * portable) and the fastest path the CPU runs is chosen at import, or the one the
 * environment variable DICEMATH_SIMD names (avx512, avx2, scalar). The avx512 and avx2
 * paths fuse multiply-adds, the scalar one does not: values agree within float64 rounding
 * across paths, not bit for bit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_c_paths.h"   /* X86_PATHS: GCC on x86-64, the AVX-512 and AVX2 paths besides the portable one */
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define LANES 16        /* boards evaluated together */
#define WIDTH 8         /* coefficient columns per (axis, s0, i): hits 1..8 */
#define MAXK 12
#define BIG 1e300       /* option value of a complete axis: never the best */

enum { MODE_OPTIMAL, MODE_GREEDY, MODE_SAFE_GREEDY, MODE_LOOKAHEAD };

typedef struct { double v[LANES]; } __attribute__((aligned(64))) Lanes;

typedef struct {
    int k, goal, entries, lists, nodes;
    int64_t last;                       /* the complete board */
    int64_t stride[MAXK];
    int entry_base[MAXK], hits_max[MAXK];
    const int64_t *list_start, *list_entry;     /* the throws' option lists (CSR) */
    const int64_t *node;                /* shared minima: item pairs */
    const int64_t *group_start, *group_item;    /* the throws' items for the minima (CSR) */
    const double *coef;                 /* [k][goal + 1][goal + 1][WIDTH] */
    const double *fits;                 /* [k][goal + 1][WIDTH]: 1 where h + 1 hits fit below the goal */
    const double *weight;               /* [lists] */
    const double *p0;                   /* [1 << k] by the mask of open axes */
} Geo;

static inline const double *coef_row(const Geo *G, int j, int s0) {
    return G->coef + (size_t)(j * (G->goal + 1) + s0) * (G->goal + 1) * WIDTH;
}

/* A top axis of a slab sweep: its progress per lane, fixed for the call. */
typedef struct {
    int j;
    int reach;                          /* the most successors of an open lane (goal - least s0) */
    int s0[LANES], open[LANES];
    Lanes *coef;                        /* [goal + 1][WIDTH]: a complete lane BIG, then 0 */
    int64_t (*step)[LANES];             /* [goal + 1]: index step to successor i (open lanes) */
} TopAxis;

typedef struct {
    int n, top;                         /* slabs (lanes in use), top axes */
    int64_t size;                       /* boards per slab */
    int64_t start[LANES];               /* first board of each lane's slab */
    int top_mask[LANES];                /* open top axes of each lane */
    TopAxis top_axis[MAXK];
} Slabs;

typedef struct {
    Lanes *V;                           /* option values, then the shared minima */
    Lanes *S;                           /* scores: the fitting options or the guide's */
} Scratch;

/* ------------------------------------------------------------------------------------ */
/* Code paths: _fives_c_kernel.h once per instruction set, chosen at import (see PyInit). */

#if defined(X86_PATHS)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx512
#define VEC_BYTES 64
#include "_fives_c_kernel.h"
#undef VEC_BYTES
#undef PATH
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx2
#define VEC_BYTES 32
#include "_fives_c_kernel.h"
#undef VEC_BYTES
#undef PATH
#pragma GCC pop_options
#endif

#define PATH(name) name##_scalar
#define VEC_BYTES 16
#include "_fives_c_kernel.h"
#undef VEC_BYTES
#undef PATH

typedef struct {
    const char *name;
    int (*runs)(void);                  /* this CPU has the path's instructions (_c_paths.h) */
    void (*boards_f64)(const Geo *, double *, const double *, const int64_t *, int64_t, int, Scratch *);
    void (*boards_f32)(const Geo *, float *, const float *, const int64_t *, int64_t, int, Scratch *);
    void (*slabs_f64)(const Geo *, double *, const double *, const Slabs *, int, Scratch *);
    void (*slabs_f32)(const Geo *, float *, const float *, const Slabs *, int, Scratch *);
    void (*options_f64)(const Geo *, const double *, int64_t, Lanes *, double *);
    void (*options_f32)(const Geo *, const float *, int64_t, Lanes *, double *);
} Path;

#define PATH_ENTRY(name) \
    {#name, runs_##name, solve_boards_f64_##name, solve_boards_f32_##name, solve_slabs_f64_##name, \
     solve_slabs_f32_##name, options_f64_##name, options_f32_##name}
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
/* Tables from Python                                                                    */

typedef struct {
    Py_buffer geo, F, E, guide, boards;
} Buffers;

static void release(Buffers *B) {
    Py_buffer *all[] = {&B->geo, &B->F, &B->E, &B->guide, &B->boards};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (all[i]->obj) PyBuffer_Release(all[i]);
}

/* CSR starts: start[0] = 0, non-decreasing (increasing when `nonempty`), start[n] = total. */
static int check_starts(const int64_t *start, int n, int64_t total, int nonempty) {
    if (start[0] != 0 || start[n] != total) return 0;
    for (int i = 0; i < n; i++)
        if (start[i + 1] < start[i] + nonempty) return 0;
    return 1;
}

static int check_items(const int64_t *item, int64_t n, int64_t below) {
    for (int64_t i = 0; i < n; i++)
        if (item[i] < 0 || item[i] >= below) return 0;
    return 1;
}

/* geo, int64: k, goal, entries, lists, list_entries, nodes, group_items, last, stride[k],
 * entry_base[k], hits_max[k], list_start[lists + 1], list_entry[list_entries],
 * node[2 nodes], group_start[lists + 1], group_item[group_items]; F, float64: coef, fits,
 * weight[lists], p0[1 << k] (fives_kernel.FivesTables.geometry). */
static int read_geo(Geo *G, const Buffers *B) {
    const int64_t *g = (const int64_t *)B->geo.buf;
    Py_ssize_t len = B->geo.len / 8;
    if (len < 8) goto bad;
    G->k = (int)g[0]; G->goal = (int)g[1]; G->entries = (int)g[2]; G->lists = (int)g[3];
    int64_t list_entries = g[4], group_items = g[6];
    G->nodes = (int)g[5]; G->last = g[7];
    if (G->k < 1 || G->k > MAXK || G->goal < 1 || G->goal > 64 || G->entries < 1 || G->lists < 0 ||
        G->nodes < 0 || list_entries < 0 || group_items < 0)
        goto bad;
    if (len != 8 + 3 * G->k + 2 * (G->lists + 1) + list_entries + 2 * G->nodes + group_items) goto bad;
    const int64_t *q = g + 8;
    for (int j = 0; j < G->k; j++) {
        G->stride[j] = q[j];
        G->entry_base[j] = (int)q[G->k + j];
        G->hits_max[j] = (int)q[2 * G->k + j];
        if (G->hits_max[j] < 1 || G->hits_max[j] > WIDTH || G->entry_base[j] < 0 ||
            G->entry_base[j] + G->hits_max[j] > G->entries)
            goto bad;
    }
    q += 3 * G->k;
    G->list_start = q; q += G->lists + 1;
    G->list_entry = q; q += list_entries;
    G->node = q; q += 2 * G->nodes;
    G->group_start = q; q += G->lists + 1;
    G->group_item = q;
    if (!check_starts(G->list_start, G->lists, list_entries, 1) ||
        !check_items(G->list_entry, list_entries, G->entries) ||
        !check_starts(G->group_start, G->lists, group_items, 1) ||
        !check_items(G->group_item, group_items, (int64_t)G->entries + G->nodes))
        goto bad;
    for (int n = 0; n < G->nodes; n++)         /* a shared minimum reads entries and earlier minima */
        if (!check_items(G->node + 2 * n, 2, (int64_t)G->entries + n)) goto bad;
    size_t coefs = (size_t)G->k * (G->goal + 1) * (G->goal + 1) * WIDTH, fits = (size_t)G->k * (G->goal + 1) * WIDTH;
    if ((size_t)B->F.len != 8 * (coefs + fits + (size_t)G->lists + ((size_t)1 << G->k))) goto bad;
    G->coef = (const double *)B->F.buf;
    G->fits = G->coef + coefs;
    G->weight = G->fits + fits;
    G->p0 = G->weight + G->lists;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "inconsistent Fives kernel geometry");
    return 0;
}

static int scratch_new(Scratch *W, const Geo *G) {
    size_t rows = (size_t)G->entries + G->nodes;
    W->V = (Lanes *)aligned_alloc(64, rows * sizeof(Lanes));
    W->S = (Lanes *)aligned_alloc(64, rows * sizeof(Lanes));
    if (W->V == NULL || W->S == NULL) {
        free(W->V);
        free(W->S);
        PyErr_NoMemory();
        return 0;
    }
    return 1;
}

static void scratch_free(Scratch *W) {
    free(W->V);
    free(W->S);
}

/* The table buffers: E (written) and guide of one dtype and one size; is64 picks it. */
static int check_tables(const Buffers *B, int is64, int mode, int64_t *size) {
    *size = B->E.len / (is64 ? 8 : 4);
    if (B->guide.len != B->E.len || mode < MODE_OPTIMAL || mode > MODE_LOOKAHEAD) {
        PyErr_SetString(PyExc_ValueError, "bad guide or mode");
        return 0;
    }
    return 1;
}

/* solve(geo, F, E, guide, boards, mode, is64): the boards in groups of 16. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    (void)self;
    Buffers B = {0};
    int mode, is64;
    if (!PyArg_ParseTuple(args, "y*y*w*y*y*ii", &B.geo, &B.F, &B.E, &B.guide, &B.boards, &mode, &is64)) return NULL;
    Geo G;
    Scratch W = {0};
    int64_t size;
    int ok = read_geo(&G, &B) && check_tables(&B, is64, mode, &size);
    const int64_t *boards = (const int64_t *)B.boards.buf;
    int64_t n = B.boards.len / 8;
    for (int64_t i = 0; ok && i < n; i++)
        if (boards[i] < 0 || boards[i] >= G.last || G.last + 1 != size) {
            PyErr_SetString(PyExc_ValueError, "board index out of range");
            ok = 0;
        }
    if (ok && n > 0) ok = scratch_new(&W, &G);
    if (ok && n > 0) {
        Py_BEGIN_ALLOW_THREADS
        if (is64) path->boards_f64(&G, (double *)B.E.buf, (const double *)B.guide.buf, boards, n, mode, &W);
        else path->boards_f32(&G, (float *)B.E.buf, (const float *)B.guide.buf, boards, n, mode, &W);
        Py_END_ALLOW_THREADS
        scratch_free(&W);
    }
    release(&B);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* The lanes of slabs[0..n) with `top` top axes: starts, top axes' per-lane coefficients
 * and steps (allocated in *memory). */
static int plan_slabs(const Geo *G, Slabs *P, const int64_t *slabs, int n, int top, void **memory) {
    int lower = G->k - top, base = G->goal + 1, columns = (G->goal + 1) * WIDTH;
    P->n = n;
    P->top = top;
    P->size = 1;
    for (int j = 0; j < lower; j++) P->size *= base;
    Lanes *coef = (Lanes *)aligned_alloc(64, (size_t)(top ? top : 1) * columns * sizeof(Lanes));
    int64_t(*step)[LANES] = malloc((size_t)(top ? top : 1) * (G->goal + 1) * sizeof(*step));
    memory[0] = coef;                   /* freed by the caller */
    memory[1] = step;
    if (coef == NULL || step == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    for (int l = 0; l < LANES; l++) {
        int64_t slab = slabs[l < n ? l : n - 1];
        P->start[l] = slab * P->size;
        P->top_mask[l] = 0;
        for (int t = 0; t < top; t++, slab /= base) {
            TopAxis *A = &P->top_axis[t];
            A->s0[l] = (int)(slab % base);
            A->open[l] = A->s0[l] < G->goal;
            P->top_mask[l] |= A->open[l] << (lower + t);
        }
    }
    for (int t = 0; t < top; t++) {
        TopAxis *A = &P->top_axis[t];
        A->j = lower + t;
        A->coef = coef + (size_t)t * columns;
        A->step = step + (size_t)t * (G->goal + 1);
        A->reach = 0;
        for (int l = 0; l < LANES; l++) {
            int need = G->goal - A->s0[l];
            const double *c = coef_row(G, A->j, A->s0[l]);
            if (need > A->reach) A->reach = need;
            for (int i = 0; i <= G->goal; i++) {
                A->step[i][l] = (int64_t)(i < need ? i : need) * G->stride[A->j];
                for (int h = 0; h < WIDTH; h++)
                    A->coef[i * WIDTH + h].v[l] = need > 0 ? c[i * WIDTH + h] : (i == 0 ? BIG : 0.0);
            }
        }
    }
    return 1;
}

/* solve_slabs(geo, F, E, guide, slabs, top, mode, is64): up to 16 independent slabs. */
static PyObject *py_solve_slabs(PyObject *self, PyObject *args) {
    (void)self;
    Buffers B = {0};
    int top, mode, is64;
    if (!PyArg_ParseTuple(args, "y*y*w*y*y*iii", &B.geo, &B.F, &B.E, &B.guide, &B.boards, &top, &mode, &is64))
        return NULL;
    Geo G;
    Scratch W = {0};
    Slabs P;
    void *memory[2] = {NULL, NULL};
    int64_t size;
    int ok = read_geo(&G, &B) && check_tables(&B, is64, mode, &size);
    const int64_t *slabs = (const int64_t *)B.boards.buf;
    int n = (int)(B.boards.len / 8);
    if (ok && (top < 0 || top >= G.k || n < 1 || n > LANES || G.last + 1 != size)) {
        PyErr_SetString(PyExc_ValueError, "bad slabs, top axes or table size");
        ok = 0;
    }
    int64_t slab_count = 1;
    for (int t = 0; ok && t < top; t++) slab_count *= G.goal + 1;
    for (int i = 0; ok && i < n; i++)
        if (slabs[i] < 0 || slabs[i] >= slab_count) {
            PyErr_SetString(PyExc_ValueError, "slab index out of range");
            ok = 0;
        }
    if (ok) ok = plan_slabs(&G, &P, slabs, n, top, memory);
    if (ok) ok = scratch_new(&W, &G);
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        if (is64) path->slabs_f64(&G, (double *)B.E.buf, (const double *)B.guide.buf, &P, mode, &W);
        else path->slabs_f32(&G, (float *)B.E.buf, (const float *)B.guide.buf, &P, mode, &W);
        Py_END_ALLOW_THREADS
        scratch_free(&W);
    }
    free(memory[0]);
    free(memory[1]);
    release(&B);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* options(geo, F, E, board, is64, out): the option value of every entry of one board. */
static PyObject *py_options(PyObject *self, PyObject *args) {
    (void)self;
    Buffers B = {0};
    long long board;
    int is64;
    Py_buffer out = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*Liw*", &B.geo, &B.F, &B.E, &board, &is64, &out)) return NULL;
    Geo G;
    Scratch W = {0};
    int ok = read_geo(&G, &B);
    if (ok && (out.len != 8 * (Py_ssize_t)G.entries || board < 0 || board >= G.last ||
               G.last + 1 != B.E.len / (is64 ? 8 : 4))) {
        PyErr_SetString(PyExc_ValueError, "bad board, table or output array");
        ok = 0;
    }
    if (ok) ok = scratch_new(&W, &G);
    if (ok) {
        if (is64) path->options_f64(&G, (const double *)B.E.buf, board, W.V, (double *)out.buf);
        else path->options_f32(&G, (const float *)B.E.buf, board, W.V, (double *)out.buf);
        scratch_free(&W);
    }
    release(&B);
    PyBuffer_Release(&out);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_simd(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyUnicode_FromString(path->name);
}

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS, "Solve independent boards, 16 at a time (see fives_kernel.FivesKernel.solve)."},
    {"solve_slabs", py_solve_slabs, METH_VARARGS, "Solve up to 16 independent slabs together."},
    {"options", py_options, METH_VARARGS, "The option value of every entry of one board."},
    {"simd", py_simd, METH_NOARGS, "The code path in use (avx512, avx2 or scalar), chosen at import."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fives_c",
                                    "The compiled exact Fives kernel (see fives_kernel.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* The path (choose_path); PATHS: the names of the paths this CPU runs, fastest first. */
PyMODINIT_FUNC PyInit__fives_c(void) {
    PyObject *names = NULL;
    path = choose_path(paths, sizeof(paths) / sizeof(paths[0]), sizeof(paths[0]), &names);
    if (path == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL || PyModule_AddObject(m, "PATHS", names) < 0) {
        Py_XDECREF(names);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
