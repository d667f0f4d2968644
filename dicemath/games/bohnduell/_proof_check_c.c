/* The compiled checker of BohnDuell proof certificates (docs/rules.md BOHN-1..BOHN-7), built at install time.
 *
 * It replays every row of a certificate's body (proof_format.py: row_dtype, LOWER with its move,
 * UPPER) exactly as proof_check._Replay does, and trusts only the rules, the endgame table and the
 * format: its sowing, harvest, capture and pass (BOHN-3..BOHN-6, both capture rules of BOHN-4) and its
 * static bounds (proof_format.static_bounds, dead_beans) are written here, sharing no rules with the
 * proof search (_proof_c.c, _dense_c_sides.h); both read the table through its layout alone
 * (_dense_c_table.h).
 *
 * Two passes, as the Python checker raises:
 *   1. the rows one by one: both sides hold at most the certificate's stock, the rows are strictly
 *      ascending by (kind, mover's side, other's side) (so no duplicate), an UPPER row names no move;
 *   2. every row against the rules: at a known position (both sides in the table, or the end of the
 *      game, BOHN-6) the exact value; a LOWER row's move is legal and its gain minus a proven upper
 *      bound of the position after it reaches the row's value; every move of an UPPER row has its
 *      gain minus a proven lower bound of the position after it at most the row's value. A bound is
 *      proven by the table, the end of the game, the static bounds or a row of that kind at least as
 *      tight, found through a hash of the rows' sides (open addressing: 8 bytes a slot, the key's hash
 *      and the row's number, at most three quarters full). Each row is prepared (its successors, where
 *      their values or rows lie, prefetched) AHEAD rows before it is decided, in file order, so the
 *      memory reads of several rows overlap and the first failing row is the one reported.
 *
 * Functions:
 *   check(cups, every, stock, body, table, table_stock) -> (phase, row)
 *     body: the rows' bytes (row_dtype(cups)); table: None or the tuple of the index arrays of
 *     solver_dense.SideIndex.kernel_arrays() (sides, powers, rank, potentials, starts, block_offsets,
 *     movable) followed by the int8 values; table_stock: the table's per-side bean bound. phase 0: every
 *     row holds (row -1); else the first row that fails pass 1 or pass 2.
 *   moves(cups, every, me, opp) -> [(move code, gain, next mover's side, next other's side)]
 *     the checker's own successors of a position (sides as bytes): for the tests.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_dense_c_table.h"

#define MAX_CUPS 10                 /* the most cups of the rules (BOHN-1) */
#define MAX_NEXT (2 * MAX_CUPS)     /* n harvests and n sows at most */
#define LOWER 1
#define UPPER 2
#define EMPTY UINT64_MAX
#define MAX_ROWS UINT32_MAX      /* a slot holds a row number in its low 32 bits */

typedef struct {
    int code, gain;
    int me[MAX_CUPS + 1], opp[MAX_CUPS + 1]; /* the position after the move: next mover's side, next other's */
} Next;

typedef struct {
    int n, every, width, sides_bytes;
    /* the rows and their hash: slot -> the key's hash in the high 32 bits, the row number in the low (EMPTY: none) */
    const uint8_t *body;
    int64_t rows;
    uint64_t *slots;
    uint64_t mask;
    DenseTable table;               /* the endgame table (held 0: none) */
} Checker;

/* ------------------------------------------------------------------------------------ */
/* The rules on one pair of sides (docs/rules.md section 5).                              */

static int can_move(int n, const int *side) {
    if (side[0] > 0) return 1;
    for (int d = 1; d <= n; d++)
        if (side[d] == d) return 1;
    return 0;
}

/* Whether the move of this code (proof_format.encode_move: k a sow, -d a harvest, 0 the pass) is legal for
 * the owner of me; when it is, the position after it into *x. A sow of k beans: 1 <= k <= min(n, stock),
 * one bean each into d = n, n-1, ..., n-k+1, a bean landing in an empty cup capturing the facing cup
 * n + 1 - d (the last bean only, or every bean when every) (BOHN-3, BOHN-4). A harvest of d: the cup
 * holds exactly d, one bean into each nearer cup and one into the pot (BOHN-5). The pass: the mover has
 * no sow or harvest and the other has one (BOHN-6). */
static int play(int n, int every, const int *me, const int *opp, int code, Next *x) {
    int *mine = x->opp, *theirs = x->me;
    x->code = code;
    x->gain = 0;
    if (code > 0) {
        if (code > n || code > me[0]) return 0;
        memcpy(mine, me, sizeof(int) * (n + 1));
        memcpy(theirs, opp, sizeof(int) * (n + 1));
        mine[0] -= code;
        int last = n - code + 1;
        for (int d = n; d >= last; d--) {
            if (me[d] == 0 && (every || d == last)) {
                x->gain += theirs[n + 1 - d];
                theirs[n + 1 - d] = 0;
            }
            mine[d]++;
        }
        return 1;
    }
    if (code < 0) {
        int d = -code;
        if (d > n || me[d] != d) return 0;
        memcpy(mine, me, sizeof(int) * (n + 1));
        memcpy(theirs, opp, sizeof(int) * (n + 1));
        mine[d] = 0;
        for (int j = 1; j < d; j++) mine[j]++;
        x->gain = 1;
        return 1;
    }
    if (can_move(n, me) || !can_move(n, opp)) return 0;
    memcpy(mine, me, sizeof(int) * (n + 1));
    memcpy(theirs, opp, sizeof(int) * (n + 1));
    return 1;
}

/* Every legal move of the owner of me (harvests by distance, then sows by size, else the pass) and the
 * position after it; returns how many. */
static int successors(int n, int every, const int *me, const int *opp, Next *out) {
    int count = 0;
    for (int d = 1; d <= n; d++) count += play(n, every, me, opp, -d, &out[count]);
    for (int k = 1; k <= n; k++) count += play(n, every, me, opp, k, &out[count]);
    if (count == 0) count += play(n, every, me, opp, 0, &out[count]);
    return count;
}

static int sum(int n, const int *side) {
    int total = 0;
    for (int j = 0; j <= n; j++) total += side[j];
    return total;
}

/* proof_format.dead_beans: beans in cups holding more than their distance (BOHN-5). */
static int dead_beans(int n, const int *side) {
    int total = 0;
    for (int d = 1; d <= n; d++)
        if (side[d] > d) total += side[d];
    return total;
}

/* ------------------------------------------------------------------------------------ */
/* Known values, rows and proven bounds.                                                 */

static int in_table(const Checker *c, const int *side, int64_t *rank) {
    if (sum(c->n, side) > c->table.stock) return 0;
    int64_t code = 0;
    for (int j = 0; j <= c->n; j++) code += side[j] * c->table.powers[j];
    *rank = dense_table_rank(&c->table, code);
    return *rank >= 0;
}

/* Where the table holds V(me, opp) (solver_dense.SideIndex.position), or -1 when a side is not in it. */
static int64_t table_index(const Checker *c, const int *me, const int *opp) {
    int64_t r_me, r_opp;
    if (!c->table.held || !in_table(c, me, &r_me) || !in_table(c, opp, &r_opp)) return -1;
    return dense_table_position(&c->table, r_me, r_opp);
}

/* The hash of a row's kind and sides (2 (n + 1) bytes). */
static uint64_t hash_key(const uint8_t *sides, int length, int kind) {
    uint64_t words[3] = {0, 0, 0};
    memcpy(words, sides, (size_t)length);
    uint64_t h = (uint64_t)kind * 0x9E3779B97F4A7C15ull;
    for (int w = 0; w < 3; w++) {
        h = (h ^ words[w]) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    h *= 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

static const uint8_t *row_at(const Checker *c, int64_t i) { return c->body + (size_t)i * c->width; }

static int row_value(const uint8_t *row, int sides_bytes) {
    return (int16_t)(row[sides_bytes + 2] | (row[sides_bytes + 3] << 8));
}

/* ------------------------------------------------------------------------------------ */
/* Proven bounds, looked up in two steps: prepare (find where the value or the row lies and prefetch    */
/* it), then decide, some rows later, so that the memory reads of several rows overlap.                */

enum { DECIDED, BY_TABLE, BY_ROW };

/* Whether a bound of a position is proven: decided at once (the end of the game, BOHN-6, or the static
 * bounds), or by the table's value at `at`, or by the row of `kind` whose sides are `key`. */
typedef struct {
    int how, holds, need, kind;
    int64_t at;
    uint64_t hash;
    uint8_t key[2 * (MAX_CUPS + 1)];
} Bound;

/* Prepare "V(me, opp) >= need" (kind LOWER) or "V(me, opp) <= need" (kind UPPER): exact (table, end of
 * the game), static bounds (proof_format.static_bounds), else a row of that kind at least as tight. */
static void prepare_bound(const Checker *c, const int *me, const int *opp, int kind, int need, Bound *b) {
    b->need = need;
    b->kind = kind;
    b->at = table_index(c, me, opp);
    if (b->at >= 0) {
        b->how = BY_TABLE;
        __builtin_prefetch(&c->table.values[b->at]);
        return;
    }
    b->how = DECIDED;
    if (!can_move(c->n, me) && !can_move(c->n, opp)) {
        b->holds = kind == LOWER ? 0 >= need : 0 <= need;
        return;
    }
    int all = sum(c->n, me) + sum(c->n, opp);
    if (kind == LOWER ? -(all - dead_beans(c->n, opp)) >= need : all - dead_beans(c->n, me) <= need) {
        b->holds = 1;
        return;
    }
    b->holds = 0;
    for (int j = 0; j <= c->n; j++) {
        if (me[j] > 255 || opp[j] > 255) return;         /* no row holds a count above a byte */
        b->key[j] = (uint8_t)me[j];
        b->key[c->n + 1 + j] = (uint8_t)opp[j];
    }
    b->how = BY_ROW;
    b->hash = hash_key(b->key, c->sides_bytes, kind);
    __builtin_prefetch(&c->slots[b->hash & c->mask]);
}

static int bound_holds(const Checker *c, const Bound *b) {
    if (b->how == DECIDED) return b->holds;
    if (b->how == BY_TABLE)
        return b->kind == LOWER ? c->table.values[b->at] >= b->need : c->table.values[b->at] <= b->need;
    for (uint64_t slot = b->hash & c->mask;; slot = (slot + 1) & c->mask) {
        uint64_t entry = c->slots[slot];
        if (entry == EMPTY) return 0;
        if (entry >> 32 != b->hash >> 32) continue;
        const uint8_t *row = row_at(c, (int64_t)(entry & 0xFFFFFFFFu));
        if (row[c->sides_bytes] == b->kind && memcmp(row, b->key, c->sides_bytes) == 0) {
            int value = row_value(row, c->sides_bytes);
            return b->kind == LOWER ? value >= b->need : value <= b->need;
        }
    }
}

/* ------------------------------------------------------------------------------------ */
/* The two passes.                                                                       */

static void read_sides(const Checker *c, const uint8_t *row, int *me, int *opp) {
    for (int j = 0; j <= c->n; j++) {
        me[j] = row[j];
        opp[j] = row[c->n + 1 + j];
    }
}

/* Pass 1: the first row breaking the stock, the order or the UPPER row's empty move; -1 for none. */
static int64_t first_malformed(const Checker *c, int stock) {
    int me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
    for (int64_t i = 0; i < c->rows; i++) {
        const uint8_t *row = row_at(c, i);
        read_sides(c, row, me, opp);
        if (sum(c->n, me) > stock || sum(c->n, opp) > stock) return i;
        if (i > 0) {
            const uint8_t *before = row_at(c, i - 1);
            int order = (int)before[c->sides_bytes] - (int)row[c->sides_bytes];
            if (order == 0) order = memcmp(before, row, c->sides_bytes);
            if (order >= 0) return i;
        }
        if (row[c->sides_bytes] == UPPER && row[c->sides_bytes + 1] != 0) return i;
    }
    return -1;
}

/* One row of pass 2 between prepare and decide: the bounds that prove it (all must hold). At a known
 * position, its own exact value; else a LOWER row's move is legal (illegal: fails) and the position
 * after it is worth at most gain - value; an UPPER row's every move's position after it is worth at
 * least gain - value. */
typedef struct {
    int count, fails;
    Bound bounds[MAX_NEXT];
} Pending;

static void prepare_row(const Checker *c, int64_t i, Pending *p) {
    const uint8_t *row = row_at(c, i);
    int me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
    read_sides(c, row, me, opp);
    int kind = row[c->sides_bytes], code = (int8_t)row[c->sides_bytes + 1], value = row_value(row, c->sides_bytes);
    p->fails = 0;
    p->count = 1;
    Bound *own = &p->bounds[0];                         /* a known position: its exact value decides */
    own->kind = kind == LOWER ? LOWER : UPPER;
    own->need = value;
    own->at = table_index(c, me, opp);
    if (own->at >= 0) {
        own->how = BY_TABLE;
        __builtin_prefetch(&c->table.values[own->at]);
        return;
    }
    if (!can_move(c->n, me) && !can_move(c->n, opp)) {
        own->how = DECIDED;
        own->holds = own->kind == LOWER ? 0 >= value : 0 <= value;
        return;
    }
    Next next[MAX_NEXT];
    if (kind == LOWER) {
        if (!play(c->n, c->every, me, opp, code, &next[0])) p->fails = 1;
        else prepare_bound(c, next[0].me, next[0].opp, UPPER, next[0].gain - value, &p->bounds[0]);
        return;
    }
    p->count = successors(c->n, c->every, me, opp, next);
    for (int m = 0; m < p->count; m++)
        prepare_bound(c, next[m].me, next[m].opp, LOWER, next[m].gain - value, &p->bounds[m]);
}

static int row_holds(const Checker *c, const Pending *p) {
    if (p->fails) return 0;
    for (int m = 0; m < p->count; m++)
        if (!bound_holds(c, &p->bounds[m])) return 0;
    return 1;
}

#define AHEAD 8                     /* rows prepared before the first of them is decided */

/* Pass 2: the first row that does not hold; -1 for none. */
static int64_t first_false(const Checker *c) {
    Pending ring[AHEAD];
    for (int64_t i = 0; i < c->rows + AHEAD; i++) {
        if (i >= AHEAD && !row_holds(c, &ring[(i - AHEAD) % AHEAD])) return i - AHEAD;
        if (i < c->rows) prepare_row(c, i, &ring[i % AHEAD]);
    }
    return -1;
}

/* ------------------------------------------------------------------------------------ */
/* Python binding.                                                                       */

static PyObject *py_check(PyObject *self, PyObject *args) {
    (void)self;
    int cups, every, stock;
    Py_buffer body = {0};
    PyObject *table, *result = NULL;
    Py_ssize_t table_stock;
    if (!PyArg_ParseTuple(args, "ipiy*On", &cups, &every, &stock, &body, &table, &table_stock)) return NULL;
    Checker c = {0};
    c.n = cups;
    c.every = every;
    c.sides_bytes = 2 * (cups + 1);
    c.width = c.sides_bytes + 4;
    if (cups < 1 || cups > MAX_CUPS || stock < 0 || body.len % c.width != 0 || body.len / c.width >= (Py_ssize_t)MAX_ROWS) {
        PyErr_Format(PyExc_ValueError, "cups must be 1..%d, stock >= 0, the body whole rows (fewer than 2**32 - 1)",
                     MAX_CUPS);
        goto done;
    }
    c.body = body.buf;
    c.rows = body.len / c.width;
    if (dense_table_open(&c.table, table, cups, table_stock) < 0) goto done;
    uint64_t size = 16;
    while (size * 3 < 4 * (uint64_t)c.rows) size *= 2;  /* at most three quarters full */
    c.mask = size - 1;
    c.slots = malloc(size * sizeof(uint64_t));
    if (c.slots == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int phase = 0;
    int64_t failed = -1;
    Py_BEGIN_ALLOW_THREADS
    failed = first_malformed(&c, stock);
    if (failed >= 0) {
        phase = 1;
    } else {
        memset(c.slots, 0xFF, size * sizeof(uint64_t));
        uint64_t hashes[64];
        for (int64_t first = 0; first < c.rows; first += 64) { /* hash a block, prefetch its slots, insert it */
            int64_t count = c.rows - first < 64 ? c.rows - first : 64;
            for (int64_t j = 0; j < count; j++) {
                const uint8_t *row = row_at(&c, first + j);
                hashes[j] = hash_key(row, c.sides_bytes, row[c.sides_bytes]);
                __builtin_prefetch(&c.slots[hashes[j] & c.mask], 1);
            }
            for (int64_t j = 0; j < count; j++) {
                uint64_t slot = hashes[j] & c.mask;
                while (c.slots[slot] != EMPTY) slot = (slot + 1) & c.mask;
                c.slots[slot] = (hashes[j] >> 32 << 32) | (uint64_t)(first + j);
            }
        }
        failed = first_false(&c);
        if (failed >= 0) phase = 2;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("iL", phase, (long long)failed);
done:
    free(c.slots);
    PyBuffer_Release(&body);
    dense_table_release(&c.table);
    return result;
}

static PyObject *side_bytes(const int *side, int n) {
    char raw[MAX_CUPS + 1];
    for (int j = 0; j <= n; j++) raw[j] = (char)side[j];
    return PyBytes_FromStringAndSize(raw, n + 1);
}

static PyObject *py_moves(PyObject *self, PyObject *args) {
    (void)self;
    int cups, every;
    Py_buffer sides[2] = {{0}};
    if (!PyArg_ParseTuple(args, "ipy*y*", &cups, &every, &sides[0], &sides[1])) return NULL;
    PyObject *result = NULL;
    if (cups < 1 || cups > MAX_CUPS || sides[0].len != cups + 1 || sides[1].len != cups + 1) {
        PyErr_Format(PyExc_ValueError, "cups must be 1..%d and each side cups + 1 bytes", MAX_CUPS);
    } else {
        int me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
        for (int j = 0; j <= cups; j++) {
            me[j] = ((const uint8_t *)sides[0].buf)[j];
            opp[j] = ((const uint8_t *)sides[1].buf)[j];
        }
        Next next[MAX_NEXT];
        int count = successors(cups, every, me, opp, next);
        result = PyList_New(count);
        for (int m = 0; result != NULL && m < count; m++) {
            PyObject *item = Py_BuildValue("iiNN", next[m].code, next[m].gain, side_bytes(next[m].me, cups),
                                           side_bytes(next[m].opp, cups));
            if (item == NULL) Py_CLEAR(result);
            else PyList_SET_ITEM(result, m, item);
        }
    }
    PyBuffer_Release(&sides[0]);
    PyBuffer_Release(&sides[1]);
    return result;
}

static PyMethodDef methods[] = {
    {"check", py_check, METH_VARARGS,
     "check(cups, every, stock, body, table, table_stock) -> (phase, row): 0, -1 when every row holds, else the "
     "pass (1: stock, order, move of an upper bound; 2: the rules) and the first row failing it."},
    {"moves", py_moves, METH_VARARGS,
     "moves(cups, every, me, opp) -> [(move code, gain, next mover's side, next other's side)]: the checker's "
     "successors."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_proof_check_c",
                                    "The compiled checker of BohnDuell proof certificates (see proof_check.py).", -1,
                                    methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__proof_check_c(void) { return PyModule_Create(&module); }
