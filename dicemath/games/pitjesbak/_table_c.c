/* The compiled loops of the n-player Pitjesbak round and game solvers (docs/rules.md
 * PIT-4..PIT-8), built at install time.
 *
 * Called by table_round.py (one round: round_backward, continuation), table_solver.py (the
 * value iteration: sweep_states, evaluate_states, state_atoms) and table_compare.py (one
 * player on fixed decisions: round_backward_fixed, sweep_fixed). Every function is plain
 * arithmetic on the arrays of a RoundGraph (table_round.py) and the status digits below.
 *
 * Layout (table_round.py describes the knowledge states and atoms):
 *   the knowledge states of turn position j (1..n-1) with best level b are (L, b, code) for
 *   every limit L and the codes code_list[code_ptr[j][b + 1][0] .. [1]); the knowledge slot
 *   of one is slot_off[j] + ((L - 1) * (NL + 1) + b + 1) * R**j + code
 *   (limit L, best level b, -1: everybody before is out; code: the status digits of
 *   positions 0..j-1 in base R: 0 below, 1 below with a 2-2-3 penalty, 2 best, 3 out,
 *   4 best with a penalty); W[slot][n] is its value vector (every position's value);
 *   an atom (the end of a round) is row code * 4 + type, code the digits of all n positions
 *   and type the (wipe, penalty) type of the best level; atoms[row][n] its value vector.
 *
 * A player indifferent between stopping and throwing again stops. The sums run in a fixed
 * order without fused multiply-adds, so the values are the same bit for bit on every build.
 * Each round solver is compiled once per table size n = 2..8 (the loops over the n components
 * of a value vector unrolled) and chosen by n; the positions of a large round are solved by
 * two threads (_table_c_round.h).
 *
 * The game (_table_c_game.h): a state between rounds is the stripes and has-wiped flags of
 * the players still in, seen from the start player, as a dense index (state_index);
 * game_atoms gives every atom of a state its value vector (PIT-5..PIT-8) from the values of
 * the states the round leads to. _table_c_policy.h records a round's decisions as a linear
 * map of those states, for the policy evaluation of the game solver.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXN 8                          /* players (PIT-1) */
#define MAXNL 64                        /* rank levels (PIT-3: 41 with the traditional values) */
#define TIE 1e-12                       /* see table_compare.py: ties of a fixed player's choice */

/* The arrays of a RoundGraph (RoundGraph.kernel_args gives them in the order of GRAPH_ARRAYS). */
typedef struct {
    int n, NL, R, K;                    /* players, rank levels, radix, items (level, penalty) */
    int64_t slots, atom_table;          /* rows of W and of the atom table */
    int64_t atom_count;                 /* atoms the rules can produce */
    double mass_apen;                   /* P(1-1-1) */
    const int64_t *powR;                /* [n + 1] */
    const int64_t *slot_off;            /* [n + 1] */
    const int64_t *code_ptr;            /* [n][NL + 1][2]: the status codes of the knowledge states of */
    const int64_t *code_list;           /* position j with best level b: code_list[start..end) */
    const double *mass_lp;              /* [NL][2]: P(a class of level l, penalty p) */
    const double *below_mass;           /* [NL + 1][2]: below best level b (row b + 1) */
    const double *above_mass;           /* [NL + 1][4][2]: above b, by type and penalty */
    const int64_t *level_type;          /* [NL] */
    const int64_t *best_pen;            /* [NL] */
    const int64_t *demote;              /* [2][R**(n-1)]: holders of the best made "below" */
    const int64_t *nb_count;            /* [n]: status codes without a holder of position j */
    const int64_t *nb_code, *nb_index;
    const int64_t *item_level, *item_pen, *item_start;
    const double *item_mass, *suf_mass;
    const int64_t *atom_rows;           /* [atom_count]: the rows the rules can produce */
    const int64_t *type_wipe, *type_penalty;    /* [4]: of the best level's type */
} Graph;

/* The status codes of position j's knowledge states with best level b (any limit). */
static inline const int64_t *codes_of(const Graph *g, int j, int64_t b, int64_t *count) {
    const int64_t *ptr = g->code_ptr + (j * (g->NL + 1) + b + 1) * 2;
    *count = ptr[1] - ptr[0];
    return g->code_list + ptr[0];
}

static inline int64_t slot_of(const Graph *g, int j, int64_t L, int64_t b, int64_t code) {
    return g->slot_off[j] + ((L - 1) * (g->NL + 1) + b + 1) * g->powR[j] + code;
}

/* The status digit of a new holder of the best: 2, or 4 with a penalty when R is 5. */
static inline int64_t best_digit(const Graph *g, int p) { return (g->R == 4 || p == 0) ? 2 : 4; }

/* Holders of the best made "below" (keeping their penalty) when a higher level comes. */
static inline int64_t demoted(const Graph *g, int64_t b, int64_t code) {
    int64_t mode = g->R == 4 ? g->best_pen[b] : 0;
    return g->demote[mode * g->powR[g->n - 1] + code];
}

/* Work arrays of a round: the suffix tables of the outcomes that take the best, and where
 * theta is set, the thresholds of the decisions (for round_forward in _table_c_policy.h). */
typedef struct {
    double *suf_val;                    /* [3][most][K + 1][n] */
    double *own;                        /* [3][most][K] */
    char *mono;                         /* [3][most][K] */
    int64_t most;
    double *theta;                      /* [slots][2]: a middle position's own value with 1, 2 throws left */
    double start_theta[2];              /* the start player's value of throwing again after throw 1, 2 */
} Above;

static int above_alloc(Above *a, const Graph *g) {
    a->most = g->n > 2 ? g->nb_count[g->n - 2] : 1;
    size_t cells = (size_t)(3 * a->most);
    a->suf_val = malloc(cells * (size_t)(g->K + 1) * (size_t)g->n * sizeof(double));
    a->own = malloc(cells * (size_t)g->K * sizeof(double));
    a->mono = malloc(cells * (size_t)g->K);
    a->theta = NULL;
    return a->suf_val && a->own && a->mono;
}

static void above_free(Above *a) {
    free(a->suf_val);
    free(a->own);
    free(a->mono);
}

#include "_table_c_round.h"
#include "_table_c_game.h"
#include "_table_c_fixed.h"
#include "_table_c_policy.h"

/* ------------------------------------------------------------------------------------- */
/* Python interface: arrays as buffers (numpy arrays, C-contiguous, dtypes checked by the   */
/* callers in table_round.py, table_solver.py and table_compare.py).                      */

#define GRAPH_BUFFERS 21

typedef struct {
    Py_buffer view[GRAPH_BUFFERS];
    int count;
} GraphViews;

static void graph_release(GraphViews *v) {
    for (int i = 0; i < v->count; i++) PyBuffer_Release(&v->view[i]);
    v->count = 0;
}

/* Read RoundGraph.kernel_args(): (n, NL, R, slots, mass_apen, then the arrays below). */
static int read_graph(PyObject *args, Graph *g, GraphViews *v) {
    const void **field[GRAPH_BUFFERS] = {
        (const void **)&g->powR, (const void **)&g->slot_off, (const void **)&g->code_ptr,
        (const void **)&g->code_list, (const void **)&g->mass_lp, (const void **)&g->below_mass,
        (const void **)&g->above_mass, (const void **)&g->level_type, (const void **)&g->best_pen,
        (const void **)&g->demote, (const void **)&g->nb_count, (const void **)&g->nb_code,
        (const void **)&g->nb_index, (const void **)&g->item_level, (const void **)&g->item_pen,
        (const void **)&g->item_mass, (const void **)&g->item_start, (const void **)&g->suf_mass,
        (const void **)&g->atom_rows, (const void **)&g->type_wipe, (const void **)&g->type_penalty};
    v->count = 0;
    if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) != 5 + GRAPH_BUFFERS) {
        PyErr_SetString(PyExc_TypeError, "a graph is the tuple of RoundGraph.kernel_args()");
        return 0;
    }
    g->n = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 0));
    g->NL = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 1));
    g->R = (int)PyLong_AsLong(PyTuple_GET_ITEM(args, 2));
    g->slots = PyLong_AsLongLong(PyTuple_GET_ITEM(args, 3));
    g->mass_apen = PyFloat_AsDouble(PyTuple_GET_ITEM(args, 4));
    if (PyErr_Occurred()) return 0;
    for (int i = 0; i < GRAPH_BUFFERS; i++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(args, 5 + i), &v->view[i], PyBUF_C_CONTIGUOUS) < 0) {
            graph_release(v);
            return 0;
        }
        v->count++;
        *field[i] = v->view[i].buf;
    }
    g->K = (int)(v->view[13].len / 8);                   /* item_level */
    g->atom_count = v->view[18].len / 8;                 /* atom_rows */
    g->atom_table = g->powR[g->n] * 4;
    if (g->n < 2 || g->n > MAXN || g->NL < 1 || g->NL > MAXNL || g->K < 1 || (g->R != 4 && g->R != 5)) {
        PyErr_SetString(PyExc_ValueError, "inconsistent round graph");
        graph_release(v);
        return 0;
    }
    return 1;
}

/* A buffer of `count` items of `size` bytes (the caller's array), or an error. */
static int check_len(const Py_buffer *b, Py_ssize_t count, Py_ssize_t size, const char *what) {
    if (b->len != count * size) {
        PyErr_Format(PyExc_ValueError, "%s: need %zd items, got %zd bytes", what, count, b->len);
        return 0;
    }
    return 1;
}

static void release_all(Py_buffer *b, int count) {
    for (int i = 0; i < count; i++) PyBuffer_Release(&b[i]);
}

/* round_backward(graph, flags, atoms, W, out) */
static PyObject *py_round_backward(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs;
    Py_buffer b[4] = {{0}};
    if (!PyArg_ParseTuple(args, "Oy*y*w*w*", &gargs, &b[0], &b[1], &b[2], &b[3])) return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 4); return NULL; }
    int ok = check_len(&b[0], g.n, 8, "flags") && check_len(&b[1], g.atom_table * g.n, 8, "atoms") &&
             check_len(&b[2], g.slots * g.n, 8, "W") && check_len(&b[3], g.n, 8, "out");
    Above above = {0};
    if (ok && !above_alloc(&above, &g)) { PyErr_NoMemory(); ok = 0; }
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        round_backward(&g, &above, (const int64_t *)b[0].buf, (const double *)b[1].buf, (double *)b[2].buf,
                       (double *)b[3].buf);
        Py_END_ALLOW_THREADS
    }
    above_free(&above);
    graph_release(&v);
    release_all(b, 4);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* continuation(graph, position, limit, b, code, throws_left, flags, atoms, W, out) */
static PyObject *py_continuation(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs;
    int position, limit, throws_left;
    long long best, code;
    Py_buffer b[4] = {{0}};
    if (!PyArg_ParseTuple(args, "OiiLLiy*y*y*w*", &gargs, &position, &limit, &best, &code, &throws_left, &b[0],
                          &b[1], &b[2], &b[3]))
        return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 4); return NULL; }
    int ok = check_len(&b[0], g.n, 8, "flags") && check_len(&b[1], g.atom_table * g.n, 8, "atoms") &&
             check_len(&b[2], g.slots * g.n, 8, "W") && check_len(&b[3], g.n, 8, "out");
    if (ok && (position < 1 || position >= g.n || limit < 1 || limit > 3 || throws_left < 1 || best < -1 ||
               best >= g.NL)) {
        PyErr_SetString(PyExc_ValueError, "bad knowledge state");
        ok = 0;
    }
    if (ok)
        continuation(&g, position, limit, best, code, throws_left, (const int64_t *)b[0].buf,
                     (const double *)b[1].buf, (const double *)b[2].buf, (double *)b[3].buf);
    graph_release(&v);
    release_all(b, 4);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* The solutions giving the values of the states after a round (table_solver.flat_solutions and _next_values). */
typedef struct {
    Py_buffer sub_values, sub_offset, sub_cap;
} SubViews;

/* state_atoms(graph, stripes, flags, U, cap, s0, sub_values, sub_offset, sub_cap, exact_upto,
 *             strength, delta, luce_cap, atoms) */
static PyObject *py_state_atoms(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs;
    int cap, s0, exact_upto, luce_cap;
    Py_buffer b[10] = {{0}};
    if (!PyArg_ParseTuple(args, "Oy*y*y*iiy*y*y*iy*y*iw*", &gargs, &b[0], &b[1], &b[2], &cap, &s0, &b[3], &b[4],
                          &b[5], &exact_upto, &b[6], &b[7], &luce_cap, &b[8]))
        return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 9); return NULL; }
    int ok = check_len(&b[0], g.n, 8, "stripes") && check_len(&b[1], g.n, 8, "flags") &&
             check_len(&b[4], 9, 8, "sub_offset") && check_len(&b[5], 9, 8, "sub_cap") &&
             check_len(&b[7], 9 * 8, 8, "delta") && check_len(&b[8], g.atom_table * g.n, 8, "atoms");
    if (ok) {
        Next next = {(const double *)b[2].buf, (int64_t)(b[2].len / 8 / g.n), cap, s0,
                     (const double *)b[3].buf, (const int64_t *)b[4].buf, (const int64_t *)b[5].buf,
                     NULL, NULL, NULL, NULL, exact_upto, (const double *)b[6].buf, (const double *)b[7].buf,
                     luce_cap};
        game_atoms(&g, &next, -1, (const int64_t *)b[0].buf, (const int64_t *)b[1].buf, (double *)b[8].buf);
    }
    graph_release(&v);
    release_all(b, 9);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* Policy buffers (policy_buffers) or None. */
static int read_policy(PyObject *objs[4], Py_buffer views[4], Policy *pol, int n, int64_t states) {
    if (objs[0] == Py_None) return 1;
    for (int i = 0; i < 4; i++)
        if (PyObject_GetBuffer(objs[i], &views[i], PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
            release_all(views, i);
            return 0;
        }
    pol->base = views[0].buf;
    pol->next = views[1].buf;
    pol->coef = views[2].buf;
    pol->terms = views[3].buf;
    pol->most = (int64_t)n * 3 << n;
    if (!check_len(&views[0], states * n, 8, "base") || !check_len(&views[1], states * pol->most, 4, "next") ||
        !check_len(&views[2], states * pol->most, 8, "coef") || !check_len(&views[3], states, 4, "terms")) {
        release_all(views, 4);
        return 0;
    }
    return 1;
}

/* sweep_states(graph, states, V, V_new, cap, s0, sub_values, sub_offset, sub_cap, base, next, coef, terms)
 * -> largest change: the new values of `states` from V written to V_new (V itself: Gauss-Seidel);
 * the last four: the policy buffers to record the decisions' rows in, or None. */
static PyObject *py_sweep_states(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs, *objs[4];
    int cap, s0;
    Py_buffer b[6] = {{0}}, pv[4] = {{0}};
    if (!PyArg_ParseTuple(args, "Oy*w*w*iiy*y*y*OOOO", &gargs, &b[0], &b[1], &b[5], &cap, &s0, &b[2], &b[3], &b[4],
                          &objs[0], &objs[1], &objs[2], &objs[3]))
        return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 6); return NULL; }
    int64_t count = (int64_t)(b[1].len / 8 / g.n);
    Policy pol = {0};
    int ok = check_len(&b[3], 9, 8, "sub_offset") && check_len(&b[4], 9, 8, "sub_cap") &&
             check_len(&b[5], count * g.n, 8, "V_new") &&
             states_in_range((const int64_t *)b[0].buf, b[0].len / 8, count) &&
             read_policy(objs, pv, &pol, g.n, count);
    double change = 0.0;
    if (ok) {
        double one = 0.0;
        int64_t ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
        double no_delta[9 * 8] = {0};
        Next next = {(double *)b[1].buf, count, cap, s0, (const double *)b[2].buf, (const int64_t *)b[3].buf,
                     (const int64_t *)b[4].buf, &one, ones, ones, ones, g.n, &one, no_delta, 1};
        Policy *record = objs[0] == Py_None ? NULL : &pol;
        Py_BEGIN_ALLOW_THREADS
        change = sweep_states(&g, &next, (const int64_t *)b[0].buf, b[0].len / 8, (double *)b[5].buf, record);
        Py_END_ALLOW_THREADS
        if (record) release_all(pv, 4);
        if (change < 0) { PyErr_NoMemory(); ok = 0; }
    }
    graph_release(&v);
    release_all(b, 6);
    if (!ok) return NULL;
    return PyFloat_FromDouble(change);
}

/* evaluate_states(states, V, base, next, coef, terms) -> largest change */
static PyObject *py_evaluate_states(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *objs[4];
    Py_buffer b[2] = {{0}}, pv[4] = {{0}};
    int n;
    if (!PyArg_ParseTuple(args, "iy*w*OOOO", &n, &b[0], &b[1], &objs[0], &objs[1], &objs[2], &objs[3])) return NULL;
    int64_t count = n >= 2 && n <= MAXN ? (int64_t)(b[1].len / 8 / n) : 0;
    Policy pol = {0};
    int ok = count > 0 && objs[0] != Py_None && states_in_range((const int64_t *)b[0].buf, b[0].len / 8, count) &&
             read_policy(objs, pv, &pol, n, count);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad players, values or policy");
    double change = 0.0;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        change = evaluate_states(&pol, n, (const int64_t *)b[0].buf, b[0].len / 8, (double *)b[1].buf);
        Py_END_ALLOW_THREADS
        release_all(pv, 4);
    }
    release_all(b, 2);
    if (!ok) return NULL;
    return PyFloat_FromDouble(change);
}

/* round_backward_fixed(graph, fixed, flags, atoms, W, atoms_ro, W_ro, out) */
static PyObject *py_round_backward_fixed(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs;
    int fixed;
    Py_buffer b[6] = {{0}};
    if (!PyArg_ParseTuple(args, "Oiy*y*w*y*y*w*", &gargs, &fixed, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]))
        return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 6); return NULL; }
    int ok = check_len(&b[0], g.n, 8, "flags") && check_len(&b[1], g.atom_table * g.n, 8, "atoms") &&
             check_len(&b[2], g.slots * g.n, 8, "W") && check_len(&b[3], g.atom_table * g.n, 8, "atoms_ro") &&
             check_len(&b[4], g.slots * g.n, 8, "W_ro") && check_len(&b[5], g.n, 8, "out");
    if (ok && (fixed < -1 || fixed >= g.n)) {
        PyErr_SetString(PyExc_ValueError, "fixed must be -1 or a turn position");
        ok = 0;
    }
    FixedWork work = {0};
    if (ok && !fixed_alloc(&work, &g, fixed)) { PyErr_NoMemory(); ok = 0; }
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        round_backward_fixed(&g, &work, fixed, (const int64_t *)b[0].buf, (const double *)b[1].buf,
                             (double *)b[2].buf, (const double *)b[3].buf, (const double *)b[4].buf,
                             (double *)b[5].buf);
        Py_END_ALLOW_THREADS
    }
    fixed_free(&work);
    graph_release(&v);
    release_all(b, 6);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* sweep_fixed(graph, states, U, cap, s0, sub_values, sub_offset, sub_cap, fsub_values, fsub_offset,
 *             fsub_cap, fsub_count, atoms_ro, W_ro) -> largest change */
static PyObject *py_sweep_fixed(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *gargs;
    int cap, s0;
    Py_buffer b[11] = {{0}};
    if (!PyArg_ParseTuple(args, "Oy*w*iiy*y*y*y*y*y*y*y*y*", &gargs, &b[0], &b[1], &cap, &s0, &b[2], &b[3], &b[4],
                          &b[5], &b[6], &b[7], &b[8], &b[9], &b[10]))
        return NULL;
    Graph g;
    GraphViews v;
    if (!read_graph(gargs, &g, &v)) { release_all(b, 11); return NULL; }
    int64_t count = (int64_t)(b[1].len / 8 / g.n / g.n);
    int ok = check_len(&b[3], 9, 8, "sub_offset") && check_len(&b[4], 9, 8, "sub_cap") &&
             check_len(&b[6], 9, 8, "fsub_offset") && check_len(&b[7], 9, 8, "fsub_cap") &&
             check_len(&b[8], 9, 8, "fsub_count") && check_len(&b[9], g.atom_table * g.n, 8, "atoms_ro") &&
             check_len(&b[10], ((Py_ssize_t)1 << g.n) * g.slots * g.n, 8, "W_ro") &&
             states_in_range((const int64_t *)b[0].buf, b[0].len / 8, count);
    double change = 0.0;
    if (ok) {
        double one = 0.0;
        double no_delta[9 * 8] = {0};
        Next next = {(double *)b[1].buf, count, cap, s0, (const double *)b[2].buf, (const int64_t *)b[3].buf,
                     (const int64_t *)b[4].buf, (const double *)b[5].buf, (const int64_t *)b[6].buf,
                     (const int64_t *)b[7].buf, (const int64_t *)b[8].buf, g.n, &one, no_delta, 1};
        Py_BEGIN_ALLOW_THREADS
        change = sweep_fixed(&g, &next, (const int64_t *)b[0].buf, b[0].len / 8, (double *)b[1].buf,
                             (const double *)b[9].buf, (const double *)b[10].buf);
        Py_END_ALLOW_THREADS
        if (change < 0) { PyErr_NoMemory(); ok = 0; }
    }
    graph_release(&v);
    release_all(b, 11);
    if (!ok) return NULL;
    return PyFloat_FromDouble(change);
}

static PyMethodDef methods[] = {
    {"round_backward", py_round_backward, METH_VARARGS,
     "round_backward(graph, flags, atoms, W, out): one round by backward induction; fills W and out."},
    {"continuation", py_continuation, METH_VARARGS,
     "continuation(graph, position, limit, b, code, throws_left, flags, atoms, W, out): the value vector of "
     "a player at a knowledge state with throws still to come."},
    {"state_atoms", py_state_atoms, METH_VARARGS,
     "state_atoms(graph, stripes, flags, U, cap, s0, sub_values, sub_offset, sub_cap, exact_upto, strength, "
     "delta, luce_cap, atoms): the value vector of every end of a round at one state."},
    {"sweep_states", py_sweep_states, METH_VARARGS,
     "sweep_states(graph, states, V, V_new, cap, s0, sub_values, sub_offset, sub_cap, base, next, coef, terms): "
     "one pass (Gauss-Seidel when V_new is V), recording the rows of its decisions unless base is None; returns "
     "the largest change."},
    {"evaluate_states", py_evaluate_states, METH_VARARGS,
     "evaluate_states(n, states, V, base, next, coef, terms): one Gauss-Seidel pass of the recorded decisions' "
     "linear map; returns the largest change."},
    {"round_backward_fixed", py_round_backward_fixed, METH_VARARGS,
     "round_backward_fixed(graph, fixed, flags, atoms, W, atoms_ro, W_ro, out): a round with the player at "
     "position fixed deciding by the round of atoms_ro and W_ro."},
    {"sweep_fixed", py_sweep_fixed, METH_VARARGS,
     "sweep_fixed(graph, states, U, cap, s0, sub_values, sub_offset, sub_cap, fsub_values, fsub_offset, "
     "fsub_cap, fsub_count, atoms_ro, W_ro): one Gauss-Seidel pass for every position of the fixed player."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_table_c",
                                    "The compiled loops of the Pitjesbak table solvers (see table_round.py).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__table_c(void) { return PyModule_Create(&module); }
