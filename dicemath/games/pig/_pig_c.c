/* The sweep of one layer of the Pig solution (docs/rules.md PIG-2..PIG-6), built at install time.
 *
 * sweep_layer(win, total, goal, faces) -> the largest change: one Gauss-Seidel sweep of the
 * Bellman equation over the layer of the decision states whose two scores add up to `total`
 * (pig/solver.py), in place. win is float64[goal][goal][goal], C-contiguous: win[i][j][k] is the
 * probability that the player to move, with score i against j and turn total k (i + k < goal),
 * wins when both play to win; a turn total that reaches the goal is worth 1 (hold and win,
 * PIG-6). For each pair of scores the turn totals are swept from the highest down, so a roll
 * sees the newest values of the totals it leads to (PIG-4); a 1 (PIG-3) hands the opponent
 * win[j][i][0], a hold (PIG-5) win[j][i + k][0] of a layer solved before (PIG-2: no hold at 0).
 *
 * The arithmetic is float64 in a fixed order, without fused multiply-adds (fp-contract=off, even
 * in a build for a CPU that has them): the solution is the same bit for bit on every build.
 * Releases the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

__attribute__((optimize("fp-contract=off")))
static double sweep_layer(double *win, Py_ssize_t total, Py_ssize_t goal, Py_ssize_t faces) {
    double change = 0.0, share = 1.0 / (double)faces;
    Py_ssize_t low = total - goal + 1 > 0 ? total - goal + 1 : 0, high = total < goal - 1 ? total : goal - 1;
#define WIN(i, j, k) win[((i) * goal + (j)) * goal + (k)]
    for (Py_ssize_t i = low; i <= high; i++) {
        Py_ssize_t j = total - i;
        double lose = 1.0 - WIN(j, i, 0);
        for (Py_ssize_t k = goal - i - 1; k >= 0; k--) {
            double roll = lose * share;
            for (Py_ssize_t face = 2; face <= faces; face++) {
                Py_ssize_t after = k + face;
                roll += share * (i + after >= goal ? 1.0 : WIN(i, j, after));
            }
            double value = roll;
            if (k > 0) {
                double hold = 1.0 - WIN(j, i + k, 0);
                if (hold > value) value = hold;
            }
            double delta = fabs(value - WIN(i, j, k));
            if (delta > change) change = delta;
            WIN(i, j, k) = value;
        }
    }
#undef WIN
    return change;
}

static PyObject *py_sweep_layer(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer win = {0};
    Py_ssize_t total, goal, faces;
    if (!PyArg_ParseTuple(args, "w*nnn", &win, &total, &goal, &faces)) return NULL;
    if (goal < 1 || faces < 2 || total < 0 || total > 2 * goal - 2 || win.len != goal * goal * goal * 8) {
        PyBuffer_Release(&win);
        PyErr_SetString(PyExc_ValueError, "win must be float64[goal, goal, goal], 0 <= total <= 2 goal - 2");
        return NULL;
    }
    double change;
    Py_BEGIN_ALLOW_THREADS
    change = sweep_layer(win.buf, total, goal, faces);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&win);
    return PyFloat_FromDouble(change);
}

static PyMethodDef methods[] = {
    {"sweep_layer", py_sweep_layer, METH_VARARGS,
     "sweep_layer(win, total, goal, faces) -> the largest change of one sweep of layer total, in place."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_pig_c", "The sweep of one layer of the Pig solution "
                                    "(see pig/solver.py).", -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__pig_c(void) { return PyModule_Create(&module); }
