/* The kernels of the dense BohnDuell solver (docs/rules.md BOHN-1..BOHN-6), built at install time.
 *
 * Values: V(me, opp), the mover's future pot gain minus the other's under best play, exact
 * integers in [-2S, 2S] stored as int8, one byte a position. A position with a move is worth
 * the best over its moves of gain - V(position after), the other player moving there; one
 * where the mover must pass (BOHN-6) is worth -V(same sides swapped), or 0 when neither can
 * move (the game is over).
 *
 * The rules are in _dense_c_sides.h (the twin of sides.py). These kernels only walk the table
 * of solver_dense.SideIndex, whose arrays every function takes, in this order ("the index"):
 *   sides          int64[NP][n + 1]   the side (stock, c_1..c_n) of each rank
 *   powers         int64[n + 1]       (S + 1) ** j: a side's code is sum side[j] * powers[j]
 *   rank           int32[(S + 1) ** (n + 1)]  the rank of each code (-1: not a side)
 *   potentials     int64[NP]          the potential K of each rank
 *   starts         int64[Kmax + 2]    ranks starts[K] .. starts[K + 1] - 1 have potential K
 *   block_offsets  int64[Kmax + 1][Kmax + 1]  first position of block (K(mover), K(other))
 *   movable        bool[NP]           whether the side's owner has a move (BOHN-3, BOHN-5)
 * Positions lie in blocks (K(mover), K(other)) ordered by Phi = K(mover) + K(other), inside one
 * Phi by K(other), inside a block mover-major (position()). Every move lowers Phi, a pass keeps
 * it: solve_moves solves the positions of one Phi with a move from the smaller ones, then
 * solve_passes those of the same Phi where the mover passes.
 *
 * Functions (arrays as buffers, C-contiguous, dtypes checked by solver_dense; every one but
 * reach and overfill_scan works on one range of other sides' ranks of one Phi and releases the
 * GIL, so threads solve the ranges of one Phi in parallel; none keeps state between calls):
 *   solve_moves(phi, opp_first, opp_last, every, <index>, values, out, out_base)
 *   solve_passes(phi, opp_first, opp_last, <index>, values)
 *   reach(start_me, start_opp, every, <index>, seen) -> reachable positions
 *   overfill_scan(every, <index>, values, seen) -> (better, tie, worse, summed loss, positions)
 *   count_reads(phi, opp_first, opp_last, owner, every, <index>, block_ids, block_starts,
 *               block_owner, seen, totals)
 * `every` is the capture variant (BOHN-4); `seen` a bit array over the positions (bit i & 7 of
 * byte i >> 3).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "_dense_c_sides.h"

#define MAX_CUPS 10                 /* Rules.cups is 3..10 (BOHN-1) */
#define MAX_MOVES (2 * MAX_CUPS)    /* n harvests and n sows at most */
#define BEST_START (-1000)          /* below every value (|V| <= 2S <= 126) */
#define INDEX_ARRAYS 7

typedef struct {
    int n;                          /* cups */
    int kmax;                       /* largest potential, (n + 1) * S */
    int64_t count;                  /* NP, ranked sides */
    int64_t codes;                  /* entries of rank */
    const int64_t *sides, *powers, *potentials, *starts, *block_offsets;
    const int32_t *rank;
    const uint8_t *movable;
} Index;

/* The sides of one position and the moves of its mover (successors()). */
typedef struct {
    int64_t me[MAX_CUPS + 1], opp[MAX_CUPS + 1], new_me[MAX_CUPS + 1], new_opp[MAX_CUPS + 1];
    int64_t gain[MAX_MOVES];        /* the mover's pot gain */
    int64_t following[MAX_MOVES];   /* the table index of the position after the move */
    uint8_t over[MAX_MOVES];        /* whether the move overfills a cup (overfills()) */
} Moves;

/* ------------------------------------------------------------------------------------ */
/* The table's layout.                                                                   */

/* The table index of the position (mover's rank me, other's rank opp). */
static inline int64_t position(const Index *ix, int64_t me, int64_t opp) {
    int64_t k_me = ix->potentials[me], k_opp = ix->potentials[opp];
    return ix->block_offsets[k_me * (ix->kmax + 1) + k_opp] +
           (me - ix->starts[k_me]) * (ix->starts[k_opp + 1] - ix->starts[k_opp]) + (opp - ix->starts[k_opp]);
}

/* The rank of a side, or -1 when it is not in the index. */
static inline int64_t rank_of(const Index *ix, const int64_t *side) {
    int64_t code = 0;
    for (int j = 0; j <= ix->n; j++) code += side[j] * ix->powers[j];
    return code < ix->codes ? ix->rank[code] : -1;
}

static inline void load_side(const Index *ix, int64_t rank, int64_t *out) {
    const int64_t *side = ix->sides + rank * (ix->n + 1);
    for (int j = 0; j <= ix->n; j++) out[j] = side[j];
}

static inline int is_seen(const uint8_t *seen, int64_t i) { return (seen[i >> 3] >> (i & 7)) & 1; }

static inline void mark(uint8_t *seen, int64_t i) { seen[i >> 3] |= (uint8_t)(1u << (i & 7)); }

/* Every harvest (BOHN-5) and sow (BOHN-3, BOHN-4) of the loaded mover m->me against m->opp:
 * its gain, the index of the position after it and whether it overfills. Returns the count,
 * or -1 if a side after a move is not in the index (an index not closed under the moves). */
static int successors(const Index *ix, int every, Moves *m) {
    int n = ix->n, count = 0;
    int64_t r_opp = rank_of(ix, m->opp);
    for (int d = 1; d <= n; d++) {
        if (!can_harvest(m->me, d)) continue;
        m->gain[count] = harvest(m->me, n, d, m->new_me);
        int64_t r_me = rank_of(ix, m->new_me);
        if (r_me < 0 || r_opp < 0) return -1;
        m->following[count] = position(ix, r_opp, r_me);
        m->over[count] = (uint8_t)overfills(m->me, n, 1, d);
        count++;
    }
    for (int k = 1; k <= sow_limit(m->me, n); k++) {
        m->gain[count] = sow(m->me, m->opp, n, k, every, m->new_me, m->new_opp);
        int64_t r_me = rank_of(ix, m->new_me), r_other = rank_of(ix, m->new_opp);
        if (r_me < 0 || r_other < 0) return -1;
        m->following[count] = position(ix, r_other, r_me);
        m->over[count] = (uint8_t)overfills(m->me, n, 0, k);
        count++;
    }
    return count;
}

/* The potential K(mover) of the positions of Phi = phi whose other side has rank opp, or -1
 * when there are none. */
static inline int64_t mover_potential(const Index *ix, int64_t phi, int64_t opp) {
    int64_t k_me = phi - ix->potentials[opp];
    return (k_me < 0 || k_me > ix->kmax) ? -1 : k_me;
}

/* ------------------------------------------------------------------------------------ */
/* The kernels (no Python calls: they run without the GIL).                              */

/* The positions of Phi = phi with the other side's rank in [opp_first, opp_last) and a move:
 * out[i - out_base] for the position at index i, from the solved values of smaller Phi.
 * Returns 0, or -1 (a side outside the index, or a position outside out). */
static int solve_moves(const Index *ix, int64_t phi, int64_t opp_first, int64_t opp_last, int every,
                       const int8_t *values, int8_t *out, int64_t out_base, int64_t out_len) {
    Moves m;
    for (int64_t opp = opp_first; opp < opp_last; opp++) {
        int64_t k_me = mover_potential(ix, phi, opp);
        if (k_me < 0) continue;
        load_side(ix, opp, m.opp);
        for (int64_t me = ix->starts[k_me]; me < ix->starts[k_me + 1]; me++) {
            if (!ix->movable[me]) continue;
            load_side(ix, me, m.me);
            int found = successors(ix, every, &m);
            int64_t at = position(ix, me, opp) - out_base;
            if (found < 0 || at < 0 || at >= out_len) return -1;
            int64_t best = BEST_START;
            for (int i = 0; i < found; i++) {
                int64_t value = m.gain[i] - values[m.following[i]];
                if (value > best) best = value;
            }
            out[at] = (int8_t)best;
        }
    }
    return 0;
}

/* The positions of Phi = phi (other side's rank in [opp_first, opp_last)) where the mover
 * must pass (BOHN-6): -V(same sides swapped), solved by solve_moves, or 0 when neither can
 * move. Writes values in place. */
static void solve_passes(const Index *ix, int64_t phi, int64_t opp_first, int64_t opp_last, int8_t *values) {
    for (int64_t opp = opp_first; opp < opp_last; opp++) {
        int64_t k_me = mover_potential(ix, phi, opp);
        if (k_me < 0) continue;
        for (int64_t me = ix->starts[k_me]; me < ix->starts[k_me + 1]; me++) {
            if (ix->movable[me]) continue;
            values[position(ix, me, opp)] = ix->movable[opp] ? (int8_t)-values[position(ix, opp, me)] : 0;
        }
    }
}

/* Mark in `seen` every position reachable from (start_me, start_opp): Phi downwards, inside
 * one Phi the passes first (they lead to the same Phi). Returns their number, or -1 (a side
 * outside the index). */
static int64_t reach(const Index *ix, int64_t start_me, int64_t start_opp, int every, uint8_t *seen) {
    Moves m;
    int kmax = ix->kmax;
    int64_t total = 0;
    mark(seen, position(ix, start_me, start_opp));
    for (int64_t phi = 2 * kmax; phi >= 0; phi--) {
        int64_t lo = phi > kmax ? phi - kmax : 0, hi = phi < kmax ? phi : kmax;
        for (int passes = 1; passes >= 0; passes--) {
            for (int64_t k_opp = lo; k_opp <= hi; k_opp++) {
                int64_t k_me = phi - k_opp;
                for (int64_t opp = ix->starts[k_opp]; opp < ix->starts[k_opp + 1]; opp++) {
                    for (int64_t me = ix->starts[k_me]; me < ix->starts[k_me + 1]; me++) {
                        if (ix->movable[me] == passes) continue;
                        int64_t i = position(ix, me, opp);
                        if (!is_seen(seen, i)) continue;
                        total++;
                        if (passes) {
                            if (ix->movable[opp]) mark(seen, position(ix, opp, me));
                            continue;
                        }
                        load_side(ix, me, m.me);
                        load_side(ix, opp, m.opp);
                        int found = successors(ix, every, &m);
                        if (found < 0) return -1;
                        for (int j = 0; j < found; j++) mark(seen, m.following[j]);
                    }
                }
            }
        }
    }
    return total;
}

/* Over the positions marked in `seen` that offer both an overfilling and a clean move:
 * result[0..2] the positions where the best overfilling move is strictly better, equal,
 * strictly worse than the best clean one, result[3] the summed loss when worse, result[4]
 * the positions. Returns 0, or -1 (a side outside the index). */
static int overfill_scan(const Index *ix, int every, const int8_t *values, const uint8_t *seen, int64_t *result) {
    Moves m;
    for (int64_t me = 0; me < ix->count; me++) {
        if (!ix->movable[me]) continue;
        load_side(ix, me, m.me);
        for (int64_t opp = 0; opp < ix->count; opp++) {
            if (!is_seen(seen, position(ix, me, opp))) continue;
            load_side(ix, opp, m.opp);
            int found = successors(ix, every, &m);
            if (found < 0) return -1;
            int64_t best_over = BEST_START, best_clean = BEST_START;
            for (int j = 0; j < found; j++) {
                int64_t value = m.gain[j] - values[m.following[j]];
                int64_t *best = m.over[j] ? &best_over : &best_clean;
                if (value > *best) *best = value;
            }
            if (best_over == BEST_START || best_clean == BEST_START) continue;
            result[4]++;
            if (best_over > best_clean) result[0]++;
            else if (best_over == best_clean) result[1]++;
            else {
                result[2]++;
                result[3] += best_clean - best_over;
            }
        }
    }
    return 0;
}

/* The last of the `blocks` sorted block_starts that is <= i: the block holding position i. */
static inline int64_t block_of(const int64_t *block_starts, int64_t blocks, int64_t i) {
    int64_t lo = 0, hi = blocks;     /* block_starts[lo] <= i < block_starts[hi] (hi: past the end) */
    while (hi - lo > 1) {
        int64_t mid = lo + (hi - lo) / 2;
        if (block_starts[mid] <= i) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* The reads of the positions with a move of one part of Phi = phi, owned by worker `owner`
 * (strong_cost.remote_reads): totals[0] += successor values read, totals[1] += those in a
 * block of another worker (block_owner, by flat block id K(mover) * (Kmax + 1) + K(other);
 * block_ids[b] is the id of the b-th non-empty block in table order, block_starts[b] its
 * first position), totals[2] += those not yet marked in `seen` (which are then marked).
 * Returns 0, or -1 (a side outside the index). */
static int count_reads(const Index *ix, int64_t phi, int64_t opp_first, int64_t opp_last, int64_t owner, int every,
                       const int64_t *block_ids, const int64_t *block_starts, int64_t blocks,
                       const int64_t *block_owner, uint8_t *seen, int64_t *totals) {
    Moves m;
    for (int64_t opp = opp_first; opp < opp_last; opp++) {
        int64_t k_me = mover_potential(ix, phi, opp);
        if (k_me < 0) continue;
        load_side(ix, opp, m.opp);
        for (int64_t me = ix->starts[k_me]; me < ix->starts[k_me + 1]; me++) {
            if (!ix->movable[me]) continue;
            load_side(ix, me, m.me);
            int found = successors(ix, every, &m);
            if (found < 0) return -1;
            for (int j = 0; j < found; j++) {
                int64_t i = m.following[j];
                totals[0]++;
                if (block_owner[block_ids[block_of(block_starts, blocks, i)]] == owner) continue;
                totals[1]++;
                if (!is_seen(seen, i)) {
                    mark(seen, i);
                    totals[2]++;
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* Python bindings.                                                                      */

/* The buffers of one call: the index's first, then the others (released together). */
typedef struct {
    Py_buffer index[INDEX_ARRAYS];
    Py_buffer extra[5];
} Buffers;

static void release(Buffers *b) {
    for (int i = 0; i < INDEX_ARRAYS; i++)
        if (b->index[i].obj != NULL) PyBuffer_Release(&b->index[i]);
    for (int i = 0; i < 5; i++)
        if (b->extra[i].obj != NULL) PyBuffer_Release(&b->extra[i]);
}

/* Read the index from its buffers (in the order of the module comment), checking their sizes;
 * 0 with a ValueError set if they do not fit together. */
static int open_index(Index *ix, const Py_buffer *b) {
    const Py_buffer *sides = &b[0], *powers = &b[1], *rank = &b[2], *potentials = &b[3], *starts = &b[4],
                    *offsets = &b[5], *movable = &b[6];
    ix->n = (int)(powers->len / 8) - 1;
    ix->kmax = (int)(starts->len / 8) - 2;
    ix->count = movable->len;
    ix->codes = rank->len / 4;
    int64_t blocks = (int64_t)(ix->kmax + 1) * (ix->kmax + 1);
    if (ix->n < 1 || ix->n > MAX_CUPS || ix->kmax < 0 || sides->len != ix->count * (ix->n + 1) * 8 ||
        potentials->len != ix->count * 8 || offsets->len != blocks * 8 || rank->len % 4 != 0) {
        PyErr_SetString(PyExc_ValueError, "the index arrays do not fit together (see solver_dense.SideIndex)");
        return 0;
    }
    ix->sides = sides->buf;
    ix->powers = powers->buf;
    ix->rank = rank->buf;
    ix->potentials = potentials->buf;
    ix->starts = starts->buf;
    ix->block_offsets = offsets->buf;
    ix->movable = movable->buf;
    if (ix->starts[ix->kmax + 1] != ix->count) {
        PyErr_SetString(PyExc_ValueError, "the index's starts do not end at its number of sides");
        return 0;
    }
    return 1;
}

/* The positions of the table: NP ** 2. */
static inline int64_t positions(const Index *ix) { return ix->count * ix->count; }

static int check_ranks(const Index *ix, Py_ssize_t first, Py_ssize_t last) {
    if (first < 0 || first > last || last > ix->count) {
        PyErr_SetString(PyExc_ValueError, "the range of ranks lies outside the index");
        return 0;
    }
    return 1;
}

static int check_length(const Py_buffer *b, int64_t expected, const char *what) {
    if (b->len != expected) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, the table needs %lld", what, b->len, (long long)expected);
        return 0;
    }
    return 1;
}

static PyObject *outside_index(void) {
    PyErr_SetString(PyExc_ValueError, "a move leads to a side outside the index, or a position outside the output");
    return NULL;
}

#define INDEX_FORMAT "y*y*y*y*y*y*y*"
#define INDEX_ARGS(b) &(b).index[0], &(b).index[1], &(b).index[2], &(b).index[3], &(b).index[4], \
                      &(b).index[5], &(b).index[6]

static PyObject *py_solve_moves(PyObject *self, PyObject *args) {
    (void)self;
    Buffers b = {0};
    Py_ssize_t phi, first, last, base;
    int every;
    if (!PyArg_ParseTuple(args, "nnnp" INDEX_FORMAT "y*w*n", &phi, &first, &last, &every, INDEX_ARGS(b),
                          &b.extra[0], &b.extra[1], &base))
        return NULL;
    Index ix;
    int ok = open_index(&ix, b.index) && check_ranks(&ix, first, last) &&
             check_length(&b.extra[0], positions(&ix), "values");
    if (ok) {
        const int8_t *values = b.extra[0].buf;
        int8_t *out = b.extra[1].buf;
        Py_ssize_t out_len = b.extra[1].len;
        Py_BEGIN_ALLOW_THREADS
        ok = solve_moves(&ix, phi, first, last, every, values, out, base, out_len) == 0;
        Py_END_ALLOW_THREADS
        if (!ok) outside_index();
    }
    release(&b);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_solve_passes(PyObject *self, PyObject *args) {
    (void)self;
    Buffers b = {0};
    Py_ssize_t phi, first, last;
    if (!PyArg_ParseTuple(args, "nnn" INDEX_FORMAT "w*", &phi, &first, &last, INDEX_ARGS(b), &b.extra[0]))
        return NULL;
    Index ix;
    int ok = open_index(&ix, b.index) && check_ranks(&ix, first, last) &&
             check_length(&b.extra[0], positions(&ix), "values");
    if (ok) {
        int8_t *values = b.extra[0].buf;
        Py_BEGIN_ALLOW_THREADS
        solve_passes(&ix, phi, first, last, values);
        Py_END_ALLOW_THREADS
    }
    release(&b);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_reach(PyObject *self, PyObject *args) {
    (void)self;
    Buffers b = {0};
    Py_ssize_t start_me, start_opp;
    int every;
    if (!PyArg_ParseTuple(args, "nnp" INDEX_FORMAT "w*", &start_me, &start_opp, &every, INDEX_ARGS(b), &b.extra[0]))
        return NULL;
    Index ix;
    int64_t total = -1;
    int ok = open_index(&ix, b.index) && check_ranks(&ix, start_me, start_me + 1) &&
             check_ranks(&ix, start_opp, start_opp + 1) && check_length(&b.extra[0], (positions(&ix) + 7) / 8, "seen");
    if (ok) {
        uint8_t *seen = b.extra[0].buf;
        Py_BEGIN_ALLOW_THREADS
        total = reach(&ix, start_me, start_opp, every, seen);
        Py_END_ALLOW_THREADS
        if (total < 0) {
            outside_index();
            ok = 0;
        }
    }
    release(&b);
    return ok ? PyLong_FromLongLong(total) : NULL;
}

static PyObject *py_overfill_scan(PyObject *self, PyObject *args) {
    (void)self;
    Buffers b = {0};
    int every;
    if (!PyArg_ParseTuple(args, "p" INDEX_FORMAT "y*y*", &every, INDEX_ARGS(b), &b.extra[0], &b.extra[1]))
        return NULL;
    Index ix;
    int64_t result[5] = {0};
    int ok = open_index(&ix, b.index) && check_length(&b.extra[0], positions(&ix), "values") &&
             check_length(&b.extra[1], (positions(&ix) + 7) / 8, "seen");
    if (ok) {
        const int8_t *values = b.extra[0].buf;
        const uint8_t *seen = b.extra[1].buf;
        Py_BEGIN_ALLOW_THREADS
        ok = overfill_scan(&ix, every, values, seen, result) == 0;
        Py_END_ALLOW_THREADS
        if (!ok) outside_index();
    }
    release(&b);
    if (!ok) return NULL;
    return Py_BuildValue("LLLLL", (long long)result[0], (long long)result[1], (long long)result[2],
                         (long long)result[3], (long long)result[4]);
}

static PyObject *py_count_reads(PyObject *self, PyObject *args) {
    (void)self;
    Buffers b = {0};
    Py_ssize_t phi, first, last, owner;
    int every;
    if (!PyArg_ParseTuple(args, "nnnnp" INDEX_FORMAT "y*y*y*w*w*", &phi, &first, &last, &owner, &every,
                          INDEX_ARGS(b), &b.extra[0], &b.extra[1], &b.extra[2], &b.extra[3], &b.extra[4]))
        return NULL;
    Index ix;
    int ok = open_index(&ix, b.index) && check_ranks(&ix, first, last);
    int64_t blocks = b.extra[1].len / 8;
    if (ok && (blocks < 1 || b.extra[0].len != blocks * 8 ||
               b.extra[2].len != (int64_t)(ix.kmax + 1) * (ix.kmax + 1) * 8 || b.extra[4].len != 3 * 8)) {
        PyErr_SetString(PyExc_ValueError, "bad block arrays or totals");
        ok = 0;
    }
    ok = ok && check_length(&b.extra[3], (positions(&ix) + 7) / 8, "seen");
    if (ok) {
        const int64_t *block_ids = b.extra[0].buf, *block_starts = b.extra[1].buf, *block_owner = b.extra[2].buf;
        uint8_t *seen = b.extra[3].buf;
        int64_t *totals = b.extra[4].buf;
        Py_BEGIN_ALLOW_THREADS
        ok = count_reads(&ix, phi, first, last, owner, every, block_ids, block_starts, blocks, block_owner, seen,
                         totals) == 0;
        Py_END_ALLOW_THREADS
        if (!ok) outside_index();
    }
    release(&b);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve_moves", py_solve_moves, METH_VARARGS,
     "solve_moves(phi, opp_first, opp_last, every, *index, values, out, out_base): the positions with a move."},
    {"solve_passes", py_solve_passes, METH_VARARGS,
     "solve_passes(phi, opp_first, opp_last, *index, values): the pass positions, in place."},
    {"reach", py_reach, METH_VARARGS,
     "reach(start_me, start_opp, every, *index, seen) -> the number of positions reachable, marked in seen."},
    {"overfill_scan", py_overfill_scan, METH_VARARGS,
     "overfill_scan(every, *index, values, seen) -> (better, tie, worse, summed loss, positions)."},
    {"count_reads", py_count_reads, METH_VARARGS,
     "count_reads(phi, opp_first, opp_last, owner, every, *index, block_ids, block_starts, block_owner, seen, "
     "totals): a part's reads of other workers' values."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dense_c",
                                    "The kernels of the dense BohnDuell solver (see solver_dense.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__dense_c(void) { return PyModule_Create(&module); }
