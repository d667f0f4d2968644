/* The dynamic programmes of the exact bear-off tables (docs/rules.md BG-3, BG-6): the one-
 * and two-sided tables of bearoff.py and the block kernel of bearoff_database.py.
 *
 * Boards are dense indices (the order of bearoff.py: index 0 is the empty board). The plays
 * come from the move table (_plays_c.c): the boards reached from board x with roll r (index
 * in the 21 rolls) are targets[starts[x * 21 + r] .. starts[x * 21 + r + 1]); a roll whose
 * only target is x itself is blocked (playtive only) and passes the turn.
 *
 *   one_sided      per board, the expected rolls to bear off every checker and their
 *                  distribution (each roll played to minimise the expected rolls; ties: the
 *                  lowest index), and the same until at least one checker is off (gammons),
 *                  boards solved in order of pip count
 *   two_sided      P(on roll wins) of every pair of boards, solved in order of the total pip
 *                  count; under playtive a blocked roll passes the turn, and such pairs are
 *                  solved as a 2x2 linear system
 *   database_block one block of a database table in 32-bit fixed point (integer arithmetic:
 *                  every run gives the same bits)
 *
 * float64 arithmetic in the order of the sums written here, no fused multiply-adds: the
 * tables are the same bits on every machine. The database block, integer arithmetic, has an
 * AVX2 copy besides the portable one on x86-64 (chosen by the CPU at load time).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ROLLS 21

#if defined(__x86_64__) && defined(__GNUC__)
/* An AVX2 copy of a function besides the portable one, chosen when the CPU runs it (for
 * integer loops: both give the same bits). */
#define INTEGER_VECTOR_PATHS __attribute__((target_clones("avx2", "default")))
#else
#define INTEGER_VECTOR_PATHS
#endif

/* Whether board x's only play of roll r leaves it where it is (a blocked roll). */
static int blocked(const int64_t *starts, const int64_t *targets, int64_t x, int r) {
    int64_t a = starts[x * ROLLS + r];
    return starts[x * ROLLS + r + 1] - a == 1 && targets[a] == x;
}

/* The one-sided tables, boards taken in `order` (by pips, the empty board first): mean and
 * dist (count x length) of the rolls to bear off, gmean and gdist of the rolls until a
 * checker is off (a play that lowers the board's checker count `totals` ends it), each
 * roll played to minimise the mean. Outputs start zeroed. */
static void one_sided(const int64_t *order, int64_t count, const int64_t *starts, const int64_t *targets,
                     const double *weights, const int64_t *totals, int64_t length,
                     double *mean, double *dist, double *gmean, double *gdist) {
    int64_t best[ROLLS], gbest[ROLLS];
    dist[0] = 1.0;
    gdist[0] = 1.0;
    for (int64_t k = 0; k < count; k++) {
        int64_t x = order[k];
        if (x == 0) continue;
        double stay = 0.0, acc = 0.0, gacc = 0.0;
        for (int r = 0; r < ROLLS; r++) {
            double w = weights[r];
            if (blocked(starts, targets, x, r)) {
                stay += w;
                best[r] = gbest[r] = -1;
                continue;
            }
            double bv = 1e300, gv = 1e300;
            int64_t bi = -1, gi = -1;
            for (int64_t j = starts[x * ROLLS + r]; j < starts[x * ROLLS + r + 1]; j++) {
                int64_t y = targets[j];
                if (mean[y] < bv) {
                    bv = mean[y];
                    bi = y;
                }
                double g = totals[y] < totals[x] ? 0.0 : gmean[y];
                if (g < gv) {
                    gv = g;
                    gi = y;
                }
            }
            best[r] = bi;
            gbest[r] = gi;
            acc += w * bv;
            gacc += w * gv;
        }
        mean[x] = (1.0 + acc) / (1.0 - stay);
        gmean[x] = (1.0 + gacc) / (1.0 - stay);
        for (int64_t n = 1; n < length; n++) {
            double p = stay * dist[x * length + n - 1], gp = stay * gdist[x * length + n - 1];
            for (int r = 0; r < ROLLS; r++) {
                if (best[r] < 0) continue;
                p += weights[r] * dist[best[r] * length + n - 1];
                int64_t y = gbest[r];
                if (totals[y] < totals[x]) {
                    if (n == 1) gp += weights[r];
                } else
                    gp += weights[r] * gdist[y * length + n - 1];
            }
            dist[x * length + n] = p;
            gdist[x * length + n] = gp;
        }
    }
}

/* The sum over the rolls of board x, on roll against y, of the best play's winning chance
 * (1 - P[y, x'], or 1 when x' is empty), blocked rolls left out. */
static double unblocked_value(int64_t x, int64_t y, int64_t count, const int64_t *starts, const int64_t *targets,
                              const double *weights, const double *table) {
    double acc = 0.0;
    for (int r = 0; r < ROLLS; r++) {
        if (blocked(starts, targets, x, r)) continue;
        double bv = 0.0;
        for (int64_t k = starts[x * ROLLS + r]; k < starts[x * ROLLS + r + 1]; k++) {
            int64_t z = targets[k];
            double v = z == 0 ? 1.0 : 1.0 - table[y * count + z];
            if (v > bv) bv = v;
        }
        acc += weights[r] * bv;
    }
    return acc;
}

/* The two-sided table P (count x count, zeroed) of boards grouped by pips
 * (bucket_items[bucket_starts[p] .. bucket_starts[p + 1]) have p pips): P[x, y] =
 * sum_r w_r max_x' (1 - P[y, x']), solved for growing pip sums. P[0, y] = 1. */
static int two_sided(int64_t count, const int64_t *bucket_starts, int64_t levels, const int64_t *bucket_items,
                     const int64_t *starts, const int64_t *targets, const double *weights, double *table) {
    double *stays = calloc((size_t)count, sizeof(double));
    if (stays == NULL) return -1;
    for (int64_t x = 1; x < count; x++)
        for (int r = 0; r < ROLLS; r++)
            if (blocked(starts, targets, x, r)) stays[x] += weights[r];
    for (int64_t y = 0; y < count; y++) table[y] = 1.0;   /* the player on roll has already borne off */
    for (int64_t s = 1; s < 2 * levels; s++) {
        int64_t first = s - levels + 1 > 0 ? s - levels + 1 : 0, last = s < levels - 1 ? s : levels - 1;
        for (int64_t px = first; px <= last; px++) {
            int64_t py = s - px;
            for (int64_t i = bucket_starts[px]; i < bucket_starts[px + 1]; i++) {
                int64_t x = bucket_items[i];
                if (x == 0) continue;
                for (int64_t j = bucket_starts[py]; j < bucket_starts[py + 1]; j++) {
                    int64_t y = bucket_items[j];
                    table[x * count + y] = y == 0 ? 0.0 : unblocked_value(x, y, count, starts, targets, weights, table);
                }
            }
        }
        /* blocked rolls (playtive): P_xy = A_xy + s_x (1 - P_yx), solved pairwise */
        for (int64_t px = first; px <= last; px++) {
            int64_t py = s - px;
            if (px > py) continue;
            for (int64_t i = bucket_starts[px]; i < bucket_starts[px + 1]; i++) {
                int64_t x = bucket_items[i];
                for (int64_t j = bucket_starts[py]; j < bucket_starts[py + 1]; j++) {
                    int64_t y = bucket_items[j];
                    if (x == 0 || y == 0 || (px == py && y < x)) continue;
                    double sx = stays[x], sy = stays[y];
                    if (sx == 0.0 && sy == 0.0) continue;
                    double axy = table[x * count + y], ayx = table[y * count + x];
                    double pxy = (axy + sx - sx * ayx - sx * sy) / (1.0 - sx * sy);
                    double pyx = ayx + sy * (1.0 - pxy);
                    table[x * count + y] = pxy;
                    table[y * count + x] = pyx;
                }
            }
        }
    }
    free(stays);
    return 0;
}

/* One block of a two-sided database table: out[i, t] (uint32, `one` = 1) is the value of
 * board a_boards[i] on roll against b_boards[t], the roll-weighted sum (integer weights out
 * of 36) of the best play, one - min over the successors a' of read[row(a'), b_start + t]
 * (the other side's value on roll against a'; rows succ_rows[succ_starts[a * 21 + r] ..],
 * a negative row a play reaching the goal, worth one), divided by 36 and rounded half up.
 * a = 0 (nothing left to bear off) is one; otherwise b = 0 (the other side has finished)
 * is 0. For fixed a' the values for all t are contiguous: the inner loops are vector
 * minimums and sums. */
INTEGER_VECTOR_PATHS
static int database_block(uint32_t *out, const uint32_t *read, int64_t read_columns, const int64_t *a_boards,
                          int64_t na, const int64_t *b_boards, int64_t nb, int64_t b_start,
                          const int64_t *succ_starts, const int32_t *succ_rows, const int64_t *weights, uint32_t one) {
    uint32_t *best = malloc((size_t)nb * sizeof(uint32_t));
    int64_t *acc = malloc((size_t)nb * sizeof(int64_t));
    if (best == NULL || acc == NULL) {
        free(best);
        free(acc);
        return -1;
    }
    for (int64_t i = 0; i < na; i++) {
        uint32_t *row_out = out + i * nb;
        int64_t a = a_boards[i];
        if (a == 0) {
            for (int64_t t = 0; t < nb; t++) row_out[t] = one;
            continue;
        }
        memset(acc, 0, (size_t)nb * sizeof(int64_t));
        for (int r = 0; r < ROLLS; r++) {
            for (int64_t t = 0; t < nb; t++) best[t] = one;
            for (int64_t k = succ_starts[a * ROLLS + r]; k < succ_starts[a * ROLLS + r + 1]; k++) {
                if (succ_rows[k] < 0) {
                    memset(best, 0, (size_t)nb * sizeof(uint32_t));
                    break;
                }
                const uint32_t *values = read + succ_rows[k] * read_columns + b_start;
                for (int64_t t = 0; t < nb; t++) best[t] = values[t] < best[t] ? values[t] : best[t];
            }
            int64_t w = weights[r];
            for (int64_t t = 0; t < nb; t++) acc[t] += w * ((int64_t)one - (int64_t)best[t]);
        }
        for (int64_t t = 0; t < nb; t++) row_out[t] = b_boards[t] == 0 ? 0 : (uint32_t)((acc[t] + 18) / 36);
    }
    free(best);
    free(acc);
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Python interface (arrays checked and allocated by _bearoff_kernels.py)
 * ------------------------------------------------------------------------------------- */

static void release(Py_buffer *buffers, int n) {
    for (int i = 0; i < n; i++) PyBuffer_Release(&buffers[i]);
}

static PyObject *done(int status) {
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* one_sided(order, starts, targets, weights, totals, mean, dist, gmean, gdist) */
static PyObject *py_one_sided(PyObject *self, PyObject *args) {
    Py_buffer b[9];
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*w*w*w*w*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8]))
        return NULL;
    int64_t count = b[0].len / 8, length = b[6].len / b[5].len;
    Py_BEGIN_ALLOW_THREADS
    one_sided(b[0].buf, count, b[1].buf, b[2].buf, b[3].buf, b[4].buf, length, b[5].buf, b[6].buf,
                       b[7].buf, b[8].buf);
    Py_END_ALLOW_THREADS
    release(b, 9);
    Py_RETURN_NONE;
}

/* two_sided(bucket_starts, bucket_items, starts, targets, weights, table) */
static PyObject *py_two_sided(PyObject *self, PyObject *args) {
    Py_buffer b[6];
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*w*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5])) return NULL;
    int64_t count = b[1].len / 8, levels = b[0].len / 8 - 1;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = two_sided(count, b[0].buf, levels, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf);
    Py_END_ALLOW_THREADS
    release(b, 6);
    return done(status);
}

/* database_block(out, read, read_columns, a_boards, b_boards, b_start, succ_starts, succ_rows, weights, one) */
static PyObject *py_database_block(PyObject *self, PyObject *args) {
    Py_buffer b[7];
    long long read_columns, b_start;
    unsigned int one;
    if (!PyArg_ParseTuple(args, "w*y*Ly*y*Ly*y*y*I", &b[0], &b[1], &read_columns, &b[2], &b[3], &b_start, &b[4],
                          &b[5], &b[6], &one))
        return NULL;
    int64_t na = b[2].len / 8, nb = b[3].len / 8;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = database_block(b[0].buf, b[1].buf, read_columns, b[2].buf, na, b[3].buf, nb, b_start, b[4].buf,
                            b[5].buf, b[6].buf, one);
    Py_END_ALLOW_THREADS
    release(b, 7);
    return done(status);
}

static PyMethodDef methods[] = {
    {"one_sided", py_one_sided, METH_VARARGS, "The one-sided bear-off tables, in place."},
    {"two_sided", py_two_sided, METH_VARARGS, "The two-sided bear-off table, in place."},
    {"database_block", py_database_block, METH_VARARGS, "One block of a bear-off database table, in place."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bearoff_c",
                                    "The bear-off dynamic programmes (see _bearoff_kernels.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__bearoff_c(void) { return PyModule_Create(&module); }
