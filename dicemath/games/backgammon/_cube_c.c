/* The cube decision of money play (docs/rules.md BG-8) and the loops that use it: the cube
 * actions of whole arrays (cube.cube_action) and the exact cubeful bear-off tables
 * (cubeful_bearoff.build_cubeful_arrays).
 *
 * cube_decision is the statement of cube_rules.cube_decision for float64 (that one also
 * serves exact Fractions); the tests compare the two on ties and near-ties. Codes index
 * cube_rules.ACTIONS: 0 no double, 1 double/take, 2 double/pass, 3 too good.
 *
 * Cubeful tables: value layers of shape (layers, count, count), [k, x, y] the equity of the
 * player on roll with board x (dense index of bearoff.py) against y. source[k] is the layer
 * the opponent sees after the roll for layer k's no-double value, take_layer[k] the layer
 * whose no-double value, doubled, is layer k's double/take equity (-1: no double possible).
 * Step n fills board n on roll against every board up to n, then every smaller board on
 * roll against n (the successors of a board have smaller indices). The first half reads,
 * for each play n' of n, the values of every opponent board y against n': the kernel keeps
 * the value layers transposed in place while it runs, so that those are contiguous and the
 * loop over y is a vector loop (each element's max and sum in the order of the scalar
 * loop: the same bits).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define ROLLS 21
enum { NO_DOUBLE, DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD };

/* BG-8: the optimal cube action of the player on roll (returned) and its equity (*equity).
 * The opponent takes when taking costs him no more than passing (ties: take); the player
 * doubles when that answer is worth more to him than not doubling (ties: no double); he is
 * too good when the opponent would pass and playing on is worth at least the cash. */
static int cube_decision(double no_double, double double_take, double double_pass, int may_double, double tie,
                         double *equity) {
    *equity = no_double;
    if (!may_double) return NO_DOUBLE;
    int code = double_take <= double_pass + tie ? DOUBLE_TAKE : DOUBLE_PASS;
    double after = code == DOUBLE_TAKE ? double_take : double_pass;
    if (after > no_double + tie) {
        *equity = after;
        return code;
    }
    if (code == DOUBLE_PASS && no_double >= double_pass - tie) return TOO_GOOD;
    return NO_DOUBLE;
}

typedef struct {
    int64_t count, layers, plane;       /* boards, value layers, count * count */
    const int64_t *starts, *targets, *source, *take_layer;
    const double *weights;
    double *turned;                     /* the value layers transposed: [k, y, x] */
    double *no_double;
    int8_t *codes;
    double tie;
} Tables;

/* Transpose every layer of `layers` square count x count matrices in place. */
static void transpose_layers(double *layers_of, int64_t layers, int64_t count) {
    for (int64_t k = 0; k < layers; k++) {
        double *m = layers_of + k * count * count;
        for (int64_t i = 0; i < count; i++)
            for (int64_t j = i + 1; j < count; j++) {
                double swap = m[i * count + j];
                m[i * count + j] = m[j * count + i];
                m[j * count + i] = swap;
            }
    }
}

/* Store the pair (x on roll, y) of every layer from its no-double values nd[k * stride]:
 * the no-double value, the cube decision and the optimal value. */
static void finish_pair(const Tables *t, int64_t x, int64_t y, const double *nd, int64_t stride) {
    for (int64_t k = 0; k < t->layers; k++) {
        int64_t layer = t->take_layer[k], at = k * t->plane + x * t->count + y;
        t->no_double[at] = nd[k * stride];
        t->codes[at] = (int8_t)cube_decision(nd[k * stride], layer >= 0 ? 2.0 * nd[layer * stride] : 0.0, 1.0,
                                             layer >= 0, t->tie, &t->turned[k * t->plane + y * t->count + x]);
    }
}

/* Board n on roll against every board y < n at once: nd[k * count + y] = sum_r w_r max over
 * the plays n' of -value[source[k], y, n'] / 36, read from the transposed layers, where the
 * values of all y for one n' are contiguous (the max and the sum in the order of
 * pair_from_row, element by element); best: room for count values. */
static void row_against_smaller(const Tables *t, int64_t n, double *nd, double *best) {
    int64_t count = t->count;
    for (int64_t k = 0; k < t->layers; k++)
        for (int64_t y = 1; y < n; y++) nd[k * count + y] = 0.0;
    for (int r = 0; r < ROLLS; r++) {
        int64_t a = t->starts[n * ROLLS + r], b = t->starts[n * ROLLS + r + 1];
        double w = t->weights[r];
        for (int64_t k = 0; k < t->layers; k++) {
            for (int64_t y = 1; y < n; y++) best[y] = -1e300;
            for (int64_t i = a; i < b; i++) {
                const double *column = t->turned + t->source[k] * t->plane + t->targets[i] * count;
                for (int64_t y = 1; y < n; y++) {
                    double v = -column[y];
                    best[y] = v > best[y] ? v : best[y];
                }
            }
            double *sums = nd + k * count;
            for (int64_t y = 1; y < n; y++) sums[y] += w * best[y];
        }
    }
    for (int64_t k = 0; k < t->layers; k++)
        for (int64_t y = 1; y < n; y++) nd[k * count + y] /= 36.0;
}

/* Board x on roll against board n, whose values against the smaller boards z, as the
 * opponent sees them after a roll, are seen[z * layers + k] = value[source[k], n, z]:
 * nd[k] = sum_r w_r max over the plays x' of -value[source[k], n, x'] / 36; best: room for
 * a value per layer. */
static void pair_from_row(const Tables *t, int64_t x, const double *seen, double *nd, double *best) {
    int64_t layers = t->layers;
    for (int64_t k = 0; k < layers; k++) nd[k] = 0.0;
    for (int r = 0; r < ROLLS; r++) {
        int64_t a = t->starts[x * ROLLS + r], b = t->starts[x * ROLLS + r + 1];
        for (int64_t k = 0; k < layers; k++) best[k] = -1e300;
        for (int64_t i = a; i < b; i++) {
            const double *values = seen + t->targets[i] * layers;
            for (int64_t k = 0; k < layers; k++) {
                double v = -values[k];
                best[k] = v > best[k] ? v : best[k];
            }
        }
        for (int64_t k = 0; k < layers; k++) nd[k] += t->weights[r] * best[k];
    }
    for (int64_t k = 0; k < layers; k++) nd[k] /= 36.0;
}

/* Fill the tables; value (as t->turned, transposed in place meanwhile), no_double and
 * codes hold their presets (row 0: the player on roll has won; column 0: he has lost), the
 * only entries read before they are computed. Step n fills board n on roll against every
 * board up to n, then every smaller board on roll against n (the successors of a board
 * have smaller indices). */
static int cubeful_tables(Tables *t) {
    int64_t count = t->count, layers = t->layers;
    double *nd = malloc((size_t)(layers * count) * sizeof(double));
    double *best = malloc((size_t)(count > layers ? count : layers) * sizeof(double));
    double *seen = malloc((size_t)(count * layers) * sizeof(double));
    if (nd == NULL || best == NULL || seen == NULL) {
        free(nd);
        free(best);
        free(seen);
        return -1;
    }
    transpose_layers(t->turned, layers, count);
    for (int64_t n = 1; n < count; n++) {
        row_against_smaller(t, n, nd, best);
        for (int64_t y = 1; y < n; y++) finish_pair(t, n, y, nd + y, count);
        for (int64_t z = 0; z < n; z++)
            for (int64_t k = 0; k < layers; k++)
                seen[z * layers + k] = t->turned[t->source[k] * t->plane + z * count + n];
        for (int64_t x = 1; x <= n; x++) {
            pair_from_row(t, x, seen, nd, best);
            finish_pair(t, x, n, nd, 1);
        }
    }
    transpose_layers(t->turned, layers, count);
    free(nd);
    free(best);
    free(seen);
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Python interface (arrays checked and allocated by _cube_kernels.py)
 * ------------------------------------------------------------------------------------- */

/* decide(no_double, double_take, may_double, tie, codes, equity): cube_decision of every
 * element with the cube at stake 1 (float64, float64, bool; writes int64 codes, float64). */
static PyObject *py_decide(PyObject *self, PyObject *args) {
    Py_buffer nd, dt, may, codes, equity;
    double tie;
    if (!PyArg_ParseTuple(args, "y*y*y*dw*w*", &nd, &dt, &may, &tie, &codes, &equity)) return NULL;
    const double *no_double = nd.buf, *double_take = dt.buf;
    const uint8_t *may_double = may.buf;
    int64_t *code = codes.buf;
    double *out = equity.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < nd.len / 8; i++)
        code[i] = cube_decision(no_double[i], double_take[i], 1.0, may_double[i], tie, &out[i]);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&nd);
    PyBuffer_Release(&dt);
    PyBuffer_Release(&may);
    PyBuffer_Release(&codes);
    PyBuffer_Release(&equity);
    Py_RETURN_NONE;
}

/* cubeful_tables(starts, targets, weights, source, take_layer, value, no_double, codes, tie) */
static PyObject *py_cubeful_tables(PyObject *self, PyObject *args) {
    Py_buffer b[8];
    double tie;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*w*w*w*d", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &tie))
        return NULL;
    int64_t count = (b[0].len / 8 - 1) / ROLLS;
    Tables tables = {count, b[3].len / 8, count * count, b[0].buf, b[1].buf, b[3].buf, b[4].buf, b[2].buf,
                     b[5].buf, b[6].buf, b[7].buf, tie};
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = cubeful_tables(&tables);
    Py_END_ALLOW_THREADS
    for (int i = 0; i < 8; i++) PyBuffer_Release(&b[i]);
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"decide", py_decide, METH_VARARGS, "The cube decision of every element of arrays (BG-8)."},
    {"cubeful_tables", py_cubeful_tables, METH_VARARGS, "The exact cubeful bear-off tables, in place."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cube_c",
                                    "The cube decision and the cubeful bear-off tables (see _cube_kernels.py).",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cube_c(void) { return PyModule_Create(&module); }
