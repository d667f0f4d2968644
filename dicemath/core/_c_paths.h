/* Choosing a kernel's code path at import, for the kernels compiled once per instruction set.
 *
 * A kernel lists its paths fastest first, in an array of structs whose first two members are
 *     const char *name;        "avx512", "avx2" or "scalar"
 *     int (*runs)(void);       this CPU has the path's instructions (runs_avx512, ...)
 * and calls choose_path() in its module's init: the path the environment variable
 * DICEMATH_SIMD names if it is set (ImportError if this CPU or build has no such path), else
 * the fastest this CPU runs. X86_PATHS is defined where GCC compiles for x86-64, the only
 * place with the AVX-512 and AVX2 paths. */
#ifndef DICEMATH_C_PATHS_H
#define DICEMATH_C_PATHS_H

#include <Python.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define X86_PATHS 1
static int runs_avx512(void) { return __builtin_cpu_supports("x86-64-v4"); }
static int runs_avx2(void) { return __builtin_cpu_supports("x86-64-v3"); }
#endif
static int runs_scalar(void) { return 1; }

typedef struct {
    const char *name;
    int (*runs)(void);
} PathHead;

/* The chosen one of the count paths at paths (each size bytes); *names becomes a new tuple of
 * the names of the paths this CPU runs, fastest first. NULL with an exception set on failure. */
static const void *choose_path(const void *paths, size_t count, size_t size, PyObject **names) {
    const char *forced = getenv("DICEMATH_SIMD");
    if (forced != NULL && forced[0] == '\0') forced = NULL;
#if defined(X86_PATHS)
    __builtin_cpu_init();
#endif
    const void *chosen = NULL;
    PyObject *runnable = PyList_New(0);
    for (size_t i = 0; runnable != NULL && i < count; i++) {
        const PathHead *head = (const PathHead *)((const char *)paths + i * size);
        if (!head->runs()) continue;
        if (chosen == NULL && (forced == NULL || strcmp(forced, head->name) == 0)) chosen = head;
        PyObject *name = PyUnicode_FromString(head->name);
        if (name == NULL || PyList_Append(runnable, name) < 0) Py_CLEAR(runnable);
        Py_XDECREF(name);
    }
    if (runnable == NULL) return NULL;
    if (chosen == NULL) {
        PyErr_Format(PyExc_ImportError, "DICEMATH_SIMD=%s: not a code path this CPU runs (%R)", forced, runnable);
        Py_DECREF(runnable);
        return NULL;
    }
    *names = PyList_AsTuple(runnable);
    Py_DECREF(runnable);
    return *names == NULL ? NULL : chosen;
}

#endif
