/* The compiled Bellman operator of two-player Pitjesbak (docs/rules.md PIT-4..PIT-8), built
 * at install time; called by game_solver.py (the value iteration of solve_game).
 *
 * round_values computes, for a batch of states between rounds, the value of one round's
 * backward induction (P(the start player wins the game)) given the values of the states the
 * round leads to. It is game_solver.round_backward's `value`, state by state:
 *
 *   outcome values (22, the start player's frame; game_solver._outcomes): the 16 win
 *   columns are 1 - V(next) (the next state's start player is the other player, PIT-8), the
 *   4 tie columns the mean of the two roll-off results (PIT-5), then the start player's and
 *   the follower's drie apen (PIT-6: a win with the has-wiped flag, else out);
 *   result[i][j] = outcome[columns[i][j]] for the start player's class i and the follower's j;
 *   the follower with r throws left after this one (r = 0, 1, 2) against i:
 *     ef[0][i] = sum_j result[i][j] p_j,
 *     ef[r][i] = sum_j min(result[i][j], ef[r-1][i]) p_j    (the follower minimises V),
 *   the start player (maximises V; stopping after throw t sets the limit t, PIT-4):
 *     c3 = sum_i ef[2][i] p_i,  c2 = sum_i max(ef[1][i], c3) p_i,
 *     value = sum_i max(ef[0][i], c2) p_i.
 * With fixed decisions (the round-maximising policy of game_solver._round_max_masks) a
 * player takes the masked choice instead of the min or max: stop (the first term) where the
 * mask is set. The sums run over the classes in index order without fused multiply-adds,
 * so the values are the same on every build (numpy's matrix products in round_backward sum
 * in another order: the two agree within a few ulp).
 *
 * Layout (float64 / int64 / uint8 arrays, C-contiguous, dtypes checked by game_solver.py):
 *   atoms[state][24]: successor indices (game_solver._atoms_of): n = the boundary, n + 1 a
 *     start-player win, n + 2 a follower win; flags[state][2]: has-wiped flags (fa, fb);
 *   combo[state] = 2 fa + fb, the row of the fixed decisions;
 *   start_masks[combo][2][C], follower_masks[combo][2][C][C]: stop decisions of the fixed
 *     policies (start: after throw 1, 2; follower: with 1, 2 more throws allowed).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

#define MAXC 64                         /* throw classes (42 with the traditional values) */
#define ATOMS 24                        /* successors of a round, see game_solver._atoms_of */
#define OUTCOMES 22                     /* outcome columns, see game_solver._outcomes */
#define TIES 16                         /* first roll-off column */
#define SAPEN 20                        /* the start player's drie apen */
#define FAPEN 21                        /* the follower's drie apen */

typedef struct {
    int64_t n;                          /* stored states */
    int C;                              /* throw classes */
    const int64_t *atoms, *combo, *columns;
    const double *flags, *probs;
    const uint8_t *start_masks;         /* NULL: the start player maximises */
    const uint8_t *follower_masks;      /* NULL: the follower minimises */
} Game;

/* The 22 outcome values of state s from the other frame's values `other`. */
static void outcomes(const Game *g, int64_t s, const double *other, double boundary_other, double *out) {
    double next[ATOMS];
    for (int k = 0; k < ATOMS; k++) {
        int64_t a = g->atoms[s * ATOMS + k];
        next[k] = a < g->n ? 1.0 - other[a] : a == g->n ? 1.0 - boundary_other : a == g->n + 1 ? 1.0 : 0.0;
    }
    for (int k = 0; k < TIES; k++) out[k] = next[k];
    for (int k = 0; k < 4; k++) out[TIES + k] = 0.5 * (next[TIES + k] + next[TIES + 4 + k]);
    out[SAPEN] = g->flags[s * 2];
    out[FAPEN] = 1.0 - g->flags[s * 2 + 1];
}

/* The follower's values ef[r][i] (r more throws allowed after this one). */
static void follower_values(const Game *g, const double *result, const uint8_t *masks, double ef[3][MAXC]) {
    const int C = g->C;
    const double *p = g->probs;
    for (int i = 0; i < C; i++) {
        double sum = 0.0;
        for (int j = 0; j < C; j++) sum += result[i * C + j] * p[j];
        ef[0][i] = sum;
    }
    for (int r = 1; r < 3; r++) {
        const uint8_t *stop = masks ? masks + (size_t)(r - 1) * C * C : NULL;
        for (int i = 0; i < C; i++) {
            const double keep = ef[r - 1][i];
            double sum = 0.0;
            for (int j = 0; j < C; j++) {
                double x = result[i * C + j];
                double chosen = stop ? (stop[i * C + j] ? x : keep) : (x < keep ? x : keep);
                sum += chosen * p[j];
            }
            ef[r][i] = sum;
        }
    }
}

/* The start player's value of a round: stop on ef[t-1][i] after throw t or throw again. */
static double start_value(const Game *g, double ef[3][MAXC], const uint8_t *masks) {
    const int C = g->C;
    const double *p = g->probs;
    double cont = 0.0;
    for (int i = 0; i < C; i++) cont += ef[2][i] * p[i];
    for (int t = 1; t >= 0; t--) {
        double sum = 0.0;
        for (int i = 0; i < C; i++) {
            double stop = ef[t][i];
            double chosen = masks ? (masks[t * C + i] ? stop : cont) : (stop >= cont ? stop : cont);
            sum += chosen * p[i];
        }
        cont = sum;
    }
    return cont;
}

static double round_value(const Game *g, int64_t s, const double *other, double boundary_other, double *result) {
    double out[OUTCOMES], ef[3][MAXC];
    const int C = g->C;
    outcomes(g, s, other, boundary_other, out);
    for (int k = 0; k < C * C; k++) result[k] = out[g->columns[k]];
    int64_t c = g->combo[s];
    follower_values(g, result, g->follower_masks ? g->follower_masks + c * 2 * C * C : NULL, ef);
    return start_value(g, ef, g->start_masks ? g->start_masks + c * 2 * C : NULL);
}

/* ------------------------------------------------------------------------------------- */
/* Python interface: arrays as buffers (numpy arrays, C-contiguous, dtypes checked by      */
/* game_solver.py).                                                                        */

static void release_all(Py_buffer *b, int count) {
    for (int i = 0; i < count; i++) PyBuffer_Release(&b[i]);
}

/* round_values(states, atoms, flags, combo, columns, probs, start_masks, follower_masks,
 *              fixed_start, fixed_follower, other, boundary_other, out) */
static PyObject *py_round_values(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer b[10] = {{0}};
    int fixed_start, fixed_follower;
    double boundary_other;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*iiy*dw*", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7],
                          &fixed_start, &fixed_follower, &b[8], &boundary_other, &b[9]))
        return NULL;
    Game g;
    g.n = b[3].len / 8;
    g.C = (int)(b[5].len / 8);
    g.atoms = b[1].buf;
    g.flags = b[2].buf;
    g.combo = b[3].buf;
    g.columns = b[4].buf;
    g.probs = b[5].buf;
    g.start_masks = fixed_start ? b[6].buf : NULL;
    g.follower_masks = fixed_follower ? b[7].buf : NULL;
    const int64_t *states = b[0].buf;
    Py_ssize_t count = b[0].len / 8;
    const double *other = b[8].buf;
    double *out = b[9].buf;
    int ok = g.C >= 1 && g.C <= MAXC && b[1].len == g.n * ATOMS * 8 && b[2].len == g.n * 2 * 8 &&
             b[4].len == (Py_ssize_t)g.C * g.C * 8 && b[8].len == g.n * 8 && b[9].len == count * 8 &&
             (!fixed_start || b[6].len == 4 * 2 * g.C) && (!fixed_follower || b[7].len == 4 * 2 * g.C * g.C);
    for (Py_ssize_t k = 0; ok && k < count; k++) ok = states[k] >= 0 && states[k] < g.n;
    for (int64_t s = 0; ok && s < g.n; s++) ok = g.combo[s] >= 0 && g.combo[s] < 4;
    for (int64_t k = 0; ok && k < (int64_t)g.C * g.C; k++) ok = g.columns[k] >= 0 && g.columns[k] < OUTCOMES;
    double *result = ok ? malloc((size_t)g.C * g.C * sizeof(double)) : NULL;
    if (!result) {
        release_all(b, 10);
        if (ok) return PyErr_NoMemory();
        PyErr_SetString(PyExc_ValueError, "round_values: inconsistent arrays");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < count; k++) out[k] = round_value(&g, states[k], other, boundary_other, result);
    Py_END_ALLOW_THREADS
    free(result);
    release_all(b, 10);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"round_values", py_round_values, METH_VARARGS,
     "round_values(states, atoms, flags, combo, columns, probs, start_masks, follower_masks, fixed_start, "
     "fixed_follower, other, boundary_other, out): the round value of each state (see game_solver.py)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_game_c",
                                    "The compiled Bellman operator of two-player Pitjesbak (see game_solver.py).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__game_c(void) { return PyModule_Create(&module); }
