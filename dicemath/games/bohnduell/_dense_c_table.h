/* The layout of a dense BohnDuell table (solver_dense.SideIndex, DenseTable) as the compiled
 * proof search (_proof_c.c) and its checker (_proof_check_c.c) read it.
 *
 * Python hands a table over as one tuple: SideIndex.kernel_arrays() (sides, powers, rank,
 * potentials, starts, block_offsets, movable) followed by the int8 values. A side
 * (stock, c_1, ..., c_n) has the code sum side[j] * powers[j]; rank[code] is its rank (-1: not
 * in the table); the value of the pair of ranks (me, opp) lies in the block of their potentials
 * (SideIndex.position). This is the table's format only: the rules stay with each reader, so the
 * checker shares no rules code with the search.
 */
#ifndef DENSE_C_TABLE_H
#define DENSE_C_TABLE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define TABLE_ARRAYS 8              /* the index arrays of SideIndex.kernel_arrays() and the values */

typedef struct {
    int held;                       /* 1 once the buffers are held (0: no table) */
    int64_t stock, codes, kmax;
    const int64_t *powers, *potentials, *starts, *block_offsets;
    const int32_t *rank;
    const int8_t *values;
    Py_buffer arrays[TABLE_ARRAYS];
} DenseTable;

/* Hold the buffers of ``table`` (None: no table) for sides of ``cups`` cups and at most ``stock``
 * beans. Returns 0, or -1 with a Python exception set (release the table either way). */
static int dense_table_open(DenseTable *t, PyObject *table, int cups, int64_t stock) {
    if (table == Py_None) return 0;
    Py_buffer *a = t->arrays;
    if (!PyArg_ParseTuple(table, "y*y*y*y*y*y*y*y*", &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7]))
        return -1;
    t->held = 1;
    t->stock = stock;
    t->powers = a[1].buf;
    t->rank = a[2].buf;
    t->codes = a[2].len / 4;
    t->potentials = a[3].buf;
    t->starts = a[4].buf;
    t->kmax = a[4].len / 8 - 2;
    t->block_offsets = a[5].buf;
    t->values = a[7].buf;
    if (a[1].len != 8 * (cups + 1) || t->kmax < 0 || a[5].len != 8 * (t->kmax + 1) * (t->kmax + 1)) {
        PyErr_SetString(PyExc_ValueError, "the table's index arrays do not fit its cups (see solver_dense.SideIndex)");
        return -1;
    }
    return 0;
}

static void dense_table_release(DenseTable *t) {
    if (t->held)
        for (int i = 0; i < TABLE_ARRAYS; i++) PyBuffer_Release(&t->arrays[i]);
    t->held = 0;
}

/* The rank of the side whose code is ``code``, or -1 when the table does not hold it. */
static inline int64_t dense_table_rank(const DenseTable *t, int64_t code) {
    return code < t->codes ? t->rank[code] : -1;
}

/* Where the table holds the value of the pair of ranks (mover's, other's): SideIndex.position. */
static inline int64_t dense_table_position(const DenseTable *t, int64_t me, int64_t opp) {
    int64_t k_me = t->potentials[me], k_opp = t->potentials[opp];
    return t->block_offsets[k_me * (t->kmax + 1) + k_opp] +
           (me - t->starts[k_me]) * (t->starts[k_opp + 1] - t->starts[k_opp]) + (opp - t->starts[k_opp]);
}

#endif
