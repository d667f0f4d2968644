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
 * roll against n (the successors of a board have smaller indices).
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

/* The cube layers of board x on roll against y; nd: room for a value per layer. */
static void solve_pair(int64_t x, int64_t y, int64_t count, int64_t layers, const int64_t *starts,
                       const int64_t *targets, const double *weights, const int64_t *source,
                       const int64_t *take_layer, double *value, double *no_double, int8_t *codes, double *nd,
                       double tie) {
    int64_t plane = count * count;
    for (int64_t k = 0; k < layers; k++) nd[k] = 0.0;
    for (int r = 0; r < ROLLS; r++) {
        int64_t a = starts[x * ROLLS + r], b = starts[x * ROLLS + r + 1];
        for (int64_t k = 0; k < layers; k++) {
            const double *row = value + source[k] * plane + y * count;
            double best = -1e300;
            for (int64_t i = a; i < b; i++) {
                double v = -row[targets[i]];
                if (v > best) best = v;
            }
            nd[k] += weights[r] * best;
        }
    }
    for (int64_t k = 0; k < layers; k++) nd[k] /= 36.0;
    for (int64_t k = 0; k < layers; k++) {
        int64_t t = take_layer[k], at = k * plane + x * count + y;
        no_double[at] = nd[k];
        codes[at] = (int8_t)cube_decision(nd[k], t >= 0 ? 2.0 * nd[t] : 0.0, 1.0, t >= 0, tie, &value[at]);
    }
}

static int cubeful_tables(int64_t count, int64_t layers, const int64_t *starts, const int64_t *targets,
                          const double *weights, const int64_t *source, const int64_t *take_layer, double *value,
                          double *no_double, int8_t *codes, double tie) {
    double *nd = calloc((size_t)layers, sizeof(double));
    if (nd == NULL) return -1;
    for (int64_t n = 1; n < count; n++) {
        for (int64_t y = 1; y <= n; y++)
            solve_pair(n, y, count, layers, starts, targets, weights, source, take_layer, value, no_double, codes,
                       nd, tie);
        for (int64_t x = 1; x < n; x++)
            solve_pair(x, n, count, layers, starts, targets, weights, source, take_layer, value, no_double, codes,
                       nd, tie);
    }
    free(nd);
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
    int64_t layers = b[3].len / 8, count = (b[0].len / 8 - 1) / ROLLS;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = cubeful_tables(count, layers, b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf,
                            b[7].buf, tie);
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
