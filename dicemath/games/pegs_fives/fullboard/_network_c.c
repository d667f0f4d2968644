/* The distilled network (distilled.py) compiled at install: the model's values of boards
 * (DistilledValue.values: end game and network, ../_distilled_c.h, the one statement of the
 * model in C) and the network on a whole slab of boards (guides.distilled_slab_values).
 *
 * values: E(b) of each board as ../_distilled_c.h states it, the same arithmetic on every CPU.
 *
 * network, the guides' loop:
 *
 *   out[i] = relu(relu(first[i] + offset) @ w2 + b2) @ w3[:, 0] + b3[0]
 *
 * A guide table evaluates it on every board of the full layout (2.2e9 boards). Per board,
 * the first layer's active units (the ReLU's positive inputs, about three in four for the
 * Pegs model) are gathered into a short list first, so the second layer's products skip the
 * inactive ones without a branch per unit; the second layer's outputs stay in registers (the
 * compiler's vectors: 16 units each with AVX-512, 8 with AVX2; two sets of them for the even
 * and odd active units, so that consecutive products do not wait for each other). The
 * arithmetic is float32, as the model's own (values), in another order of summation: equal
 * within float32 rounding.
 * The loop is compiled once per instruction set (_network_c_path.h: avx512, avx2, scalar)
 * and the fastest path the CPU runs is chosen at import, or the one the environment variable
 * DICEMATH_SIMD names, so one build runs on every x86-64 CPU (other CPUs and compilers build
 * the scalar path alone).
 * The GIL is released, so the guide's threads run it in parallel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_c_paths.h"   /* X86_PATHS: GCC on x86-64, the AVX-512 and AVX2 paths besides the scalar one */
#if defined(X86_PATHS)
#include <immintrin.h>
#endif

#include "../_distilled_c.h"      /* MAXUNITS, MAXWIDTH (8 vectors of 16) */

typedef float (*SecondLayer)(const int *, const float *, int, const float *, int, const float *, const float *,
                             float);

#if defined(X86_PATHS)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx512
#define PATH_AVX512 1
#define LANES 16
#include "_network_c_path.h"
#undef LANES
#undef PATH_AVX512
#undef PATH
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx2
#define LANES 8
#include "_network_c_path.h"
#undef LANES
#undef PATH
#pragma GCC pop_options
#endif

#define PATH(name) name##_scalar
#include "_network_c_path.h"
#undef PATH

/* A code path: SUMMATION, the order of the float32 sums (its vector width), which the last
 * bits of a value depend on, is the path's name. */
typedef struct {
    const char *name;
    int (*runs)(void);                  /* this CPU has the path's instructions (_c_paths.h) */
    void (*boards)(const float *, const float *, int, const float *, int, const float *, const float *, float,
                   Py_ssize_t, double *);
} Path;

static const Path paths[] = {   /* fastest first */
#if defined(X86_PATHS)
    {"avx512", runs_avx512, network_boards_avx512},
    {"avx2", runs_avx2, network_boards_avx2},
#endif
    {"scalar", runs_scalar, network_boards_scalar},
};

static const Path *path;        /* the one in use, set once at import */

/* network(first, offset, w2, b2, w3, b3, out): float32 buffers ([board, unit], [unit],
 * [unit, width], [width], [width], [1]) and float64 out [board], written. */
static PyObject *py_network(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer first = {0}, offset = {0}, w2 = {0}, b2 = {0}, w3 = {0}, b3 = {0}, out = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*w*", &first, &offset, &w2, &b2, &w3, &b3, &out)) return NULL;
    Py_ssize_t units = offset.len / 4, width = b2.len / 4, boards = out.len / 8;
    int ok = units >= 1 && units <= MAXUNITS && width >= 1 && width <= MAXWIDTH && first.len == boards * units * 4 &&
             w2.len == units * width * 4 && w3.len == width * 4 && b3.len == 4;
    if (ok) {
        const float *f = (const float *)first.buf, *o = (const float *)offset.buf, *a = (const float *)w2.buf,
                    *b = (const float *)b2.buf, *c = (const float *)w3.buf, last = *(const float *)b3.buf;
        double *values = (double *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        path->boards(f, o, (int)units, a, (int)width, b, c, last, boards, values);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "inconsistent network shapes");
    }
    PyBuffer_Release(&first);
    PyBuffer_Release(&offset);
    PyBuffer_Release(&w2);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&w3);
    PyBuffer_Release(&b3);
    PyBuffer_Release(&out);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* values(boards, dims, offsets, endgame, w1, b1, w2, b2, w3, b3, out): boards int32 [board, row],
 * dims int32 (rows, goal, endgame_rows), offsets int64, the model's float32 arrays
 * (../_distilled_c.h) and float64 out [board], written. */
static PyObject *py_values(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer boards = {0}, dims = {0}, offsets = {0}, endgame = {0}, w1 = {0}, b1 = {0}, w2 = {0}, b2 = {0},
              w3 = {0}, b3 = {0}, out = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*w*", &boards, &dims, &offsets, &endgame, &w1, &b1, &w2, &b2,
                          &w3, &b3, &out))
        return NULL;
    const int *d = (const int *)dims.buf;
    Py_ssize_t count = out.len / 8;
    int ok = dims.len == 3 * 4;
    DistilledModel m = {0};
    if (ok) {
        m = (DistilledModel){.rows = d[0], .goal = d[1], .endgame_rows = d[2], .units = (int)(b1.len / 4),
                             .width = (int)(b2.len / 4), .offsets = offsets.buf, .endgame = endgame.buf,
                             .w1 = w1.buf, .b1 = b1.buf, .w2 = w2.buf, .b2 = b2.buf, .w3 = w3.buf};
        ok = m.rows >= 1 && m.rows <= MAXROWS && m.goal >= 1 && m.units >= 1 && m.units <= MAXUNITS &&
             m.width >= 1 && m.width <= MAXWIDTH && boards.len == count * m.rows * 4 &&
             offsets.len == ((Py_ssize_t)1 << m.rows) * 8 + 8 && endgame.len == m.offsets[1 << m.rows] * 4 &&
             w1.len == (Py_ssize_t)m.rows * (m.goal + 1) * m.units * 4 &&
             w2.len == (Py_ssize_t)m.units * m.width * 4 && w3.len == m.width * 4 && b3.len == 4;
    }
    if (ok) {
        m.b3 = *(const float *)b3.buf;
        const int *b = (const int *)boards.buf;
        double *values = (double *)out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < count; i++) values[i] = distilled_value(&m, b + i * m.rows);
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "inconsistent model shapes");
    }
    Py_buffer *all[] = {&boards, &dims, &offsets, &endgame, &w1, &b1, &w2, &b2, &w3, &b3, &out};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) PyBuffer_Release(all[i]);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"values", py_values, METH_VARARGS, "The distilled model's values of boards (see distilled.py)."},
    {"network", py_network, METH_VARARGS, "The distilled network on a slab of boards (see guides.py)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_network_c",
                                    "The distilled model, compiled: values of boards and the network on a slab.", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* The path (choose_path). SUMMATION names it (guides.distilled_guide_digest puts it in a
 * guide's digest, so a guide table is never resumed by a build that sums in another order);
 * PATHS: the names of the paths this CPU runs, fastest first. */
PyMODINIT_FUNC PyInit__network_c(void) {
    PyObject *names = NULL;
    path = choose_path(paths, sizeof(paths) / sizeof(paths[0]), sizeof(paths[0]), &names);
    if (path == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL || PyModule_AddStringConstant(m, "SUMMATION", path->name) < 0 ||
        PyModule_AddObject(m, "PATHS", names) < 0) {
        Py_XDECREF(names);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
