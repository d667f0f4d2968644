/* Full-board race games, compiled at install (_race_simulation.py is the wrapper): the
 * approximate race policy of race_advice.py against solo-optimal play by the distilled
 * model's one-turn lookahead, with seeded dice, for analyses/pegs_fives_race.py.
 *
 * The turn is _turn_c.h's (docs/rules.md PEGS-3..9, FIVES-2..5) and the board value E(b) is
 * _distilled_c.h's (the distilled model: end game exactly, else the network, float32), kept
 * in a direct-mapped memo. A row choice scores each legal row by the within-turn model on
 * leaf values, the chosen row the highest; among equal values (within 1e-12, relative) the
 * first of the order most hits, then the higher row, wins, as in the Python advisors.
 *
 *   solo leaves   -E(b) at the end of the turn, -(E(b) - 1) for a fresh start, 0 complete
 *   race leaves   those of race_advice.RaceLeaves against the opponent's board: the laws of
 *                 the opponent's remaining turns (race_advice.TurnLaws, a grid of expected
 *                 turns 1, 1 + step, ..., top) interpolated at the mover's E(b), tabulated
 *                 lazily per opponent board (the grid table below); complete: 1 (Pegs: the
 *                 win) or the opponent's rest points (Fives)
 *
 * The within-turn model (race_solver.cycle_coefficients): coef[j, need, d, t - 1, h, c] is the
 * chance that a cycle for row j (need steps to the goal) begun by h hits on a choice throw of
 * d dice, t throws left, ends in column c: 0 the turn ends where it began (a leaf of the
 * unchanged board, X), c = 1..goal the turn ends with the row c steps on, goal + c a fresh
 * start with the row c steps on, 2 goal + 1 and 2 goal + 2 a PEGS-7 choice throw with the row
 * in and 1 or 2 throws left (valued by nested(), memoised per board, dice, throws and
 * opponent). The throws of d dice come grouped by the rows they hit and how often
 * (fullboard.pegs_kernel.throw_groups: group_p, and per group its entries, row and hits).
 *
 * Dice: the Mersenne Twister MT19937 seeded with init_genrand(seed), a face 1 + the low three
 * bits of a 32-bit draw, drawn again while they exceed 5: the draws of numpy's legacy
 * np.random.seed(seed); np.random.randint(1, 7) (and numba's). The float64 arithmetic rounds
 * every product in the order written here (the default build has no fused multiply-add outside
 * the vector paths of other kernels; a -march=native build may fuse).
 *
 * A game: boards from 0, player A (kinds[0]; 1 race, 0 solo) moving first in even games;
 * out[g] = (winner, rest points of A, of B, turns of A, of B). The GIL is released.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_distilled_c.h"
#include "_turn_c.h"

#define VALUE_BITS 22   /* memo of E(b) */
#define NESTED_BITS 20  /* memo of nested() */
#define MT_N 624
#define MT_M 397

/* MT19937 (numba's and numpy's legacy generator). */
typedef struct {
    uint32_t mt[MT_N];
    int index;
} Twister;

static void twister_seed(Twister *tw, uint32_t seed) {
    for (int i = 0; i < MT_N; i++) {
        tw->mt[i] = seed;
        seed = 1812433253U * (seed ^ (seed >> 30)) + (uint32_t)i + 1U;
    }
    tw->index = MT_N;
}

static uint32_t twister_next(Twister *tw) {
    if (tw->index >= MT_N) {
        for (int i = 0; i < MT_N; i++) {
            uint32_t y = (tw->mt[i] & 0x80000000U) | (tw->mt[(i + 1) % MT_N] & 0x7fffffffU);
            tw->mt[i] = tw->mt[(i + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
        }
        tw->index = 0;
    }
    uint32_t y = tw->mt[tw->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* A ThrowDice of _turn_c.h: each die 1 + (draw & 7), drawn again above 5. */
static void throw_dice(void *source, int dice, int counts[7]) {
    memset(counts, 0, 7 * sizeof(int));
    for (int i = 0; i < dice; i++) {
        uint32_t r;
        do r = twister_next(source) & 7U;
        while (r >= 6);
        counts[1 + r]++;
    }
}

/* The opponent as the race leaves see him (race_advice.RaceLeaves, one opponent): the laws'
 * rows interpolated at his expected turns, and the grid table of the mover's leaves. */
typedef struct {
    double *alive, *shifted, *F, *Ffresh, *ends;    /* [H] */
    double *table;                                  /* [4, G]: end, fresh, own end, own fresh */
    int64_t *stamp;                                 /* [4, G]: the turn a table entry is of */
    int64_t turn;                                   /* opponent boards seen (the memo's context) */
} Opponent;

typedef struct {
    TurnRules rules;
    DistilledModel model;
    int pegs;                                       /* first out wins (else rest points) */
    int race;                                       /* the mover plays the race policy */
    double term;                                    /* the race leaf of a complete board */
    /* the within-turn model: coef [rows, goal + 1, dice + 1, T, dice + 1, 2 goal + T] */
    const double *coef, *group_p;
    int64_t cs[5];                                  /* coef's strides (elements) of its first 5 axes */
    int T;                                          /* the budget, 1 without a limit */
    const int64_t *group_start, *entry_start, *entry_row, *entry_hits;
    /* the turn laws on the grid: pmf, rest, survival, rest survival [G, H]; pmf's support [lo, hi) */
    const double *pmf, *rest, *surv, *lrest;
    const int64_t *lo, *hi;
    int G, H;
    double step, top;
    /* memos */
    int64_t *value_key, *nested_key, *nested_stamp;
    double *value_val, *nested_val;
    Opponent opp;
    Twister twister;
    int64_t choices;                                /* choice throws with two or more legal rows */
} Sim;

static inline int64_t slot_of(int64_t key, int bits) {
    return (int64_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

/* The board's number, base goal + 1, row 1 the lowest digit. */
static inline int64_t board_key(const Sim *s, const int *b) {
    int64_t key = 0;
    for (int j = s->rules.rows - 1; j >= 0; j--) key = key * (s->rules.goal + 1) + b[j];
    return key;
}

static double value(Sim *s, const int *b) {
    if (board_complete(&s->rules, b)) return 0.0;
    int64_t key = board_key(s, b), slot = slot_of(key, VALUE_BITS);
    if (s->value_key[slot] == key) return s->value_val[slot];
    double v = distilled_value(&s->model, b);
    s->value_key[slot] = key;
    s->value_val[slot] = v;
    return v;
}

/* Rest points (FIVES-6). */
static double rest_points(const Sim *s, const int *b) {
    int64_t r = 0;
    for (int j = 0; j < s->rules.rows; j++) r += (int64_t)(s->rules.goal - b[j]) * (j + 1);
    return (double)r;
}

/* Grid position of expected turns e: index i and weight w of i + 1. */
static inline int grid_at(const Sim *s, double e, double *w) {
    double clipped = e > 1.0 ? e : 1.0;
    if (clipped > s->top) clipped = s->top;
    double x = (clipped - 1.0) / s->step;
    int i = (int)x;
    if (i > s->G - 2) i = s->G - 2;
    *w = x - i;
    return i;
}

/* Row i of the grid table kind (0 end, 1 fresh, 2 own end, 3 own fresh), computed on first
 * use against this opponent. */
static double grid_entry(Sim *s, int i, int kind) {
    Opponent *o = &s->opp;
    int64_t at = (int64_t)kind * s->G + i;
    if (o->stamp[at] == o->turn) return o->table[at];
    const double *pmf = s->pmf + (size_t)i * s->H, *rest = s->rest + (size_t)i * s->H;
    double total = 0.0;
    if (kind == 0) {
        const double *after = s->pegs ? o->alive : o->F;
        for (int64_t n = s->lo[i]; n < s->hi[i]; n++) total += pmf[n] * after[n];
    } else if (kind == 1) {
        const double *after = s->pegs ? o->shifted : o->Ffresh;
        for (int64_t n = s->lo[i]; n < s->hi[i]; n++) total += pmf[n] * after[n];
    } else if (kind == 2) {
        for (int n = 1; n < s->H; n++) total += rest[n - 1] * o->ends[n];
    } else {
        for (int n = 0; n < s->H; n++) total += rest[n] * o->ends[n];
    }
    o->table[at] = total;
    o->stamp[at] = o->turn;
    return total;
}

/* The mover's leaf value of board b at the end of the turn, or at a fresh start. */
static double leaf(Sim *s, int *b, int fresh) {
    double e = value(s, b);
    int complete = board_complete(&s->rules, b);
    if (!s->race) {
        if (complete) return 0.0;
        return fresh ? -(e - 1.0) : -e;
    }
    if (complete) return s->term;
    double w;
    int i = grid_at(s, e, &w);
    double v = (1 - w) * grid_entry(s, i, fresh) + w * grid_entry(s, i + 1, fresh);
    if (!s->pegs) {
        double own = (1 - w) * grid_entry(s, i, fresh + 2) + w * grid_entry(s, i + 1, fresh + 2);
        v -= rest_points(s, b) * own;
    }
    return v;
}

static inline const double *coef_at(const Sim *s, int j, int need, int d, int t, int h) {
    return s->coef + j * s->cs[0] + need * s->cs[1] + d * s->cs[2] + (t - 1) * s->cs[3] + h * s->cs[4];
}

/* Naming row j with h hits on a choice throw of d dice, t throws left: X the leaf of the turn
 * ending here, n1 and n2 the values of the PEGS-7 choice throws (1 and 2 throws left) that
 * may follow. */
static double option_core(Sim *s, int *b, int j, int h, int d, int t, double X, double n1, double n2) {
    const int goal = s->rules.goal;
    int need = goal - b[j], at = b[j];
    const double *c = coef_at(s, j, need, d, t, h);
    double total = c[0] * X;
    for (int k = 1; k <= need; k++) {
        double a = c[k], f = c[goal + k];
        if (a != 0.0 || f != 0.0) {
            b[j] = at + k;
            if (a != 0.0) total += a * leaf(s, b, 0);
            if (f != 0.0) total += f * leaf(s, b, 1);
            b[j] = at;
        }
    }
    if (s->T > 1) total += c[2 * goal + 1] * n1;
    if (s->T > 2) total += c[2 * goal + 2] * n2;
    return total;
}

/* The expected leaf value of a PEGS-7 choice throw of d dice, t throws left (1 or 2), on b. */
static double nested(Sim *s, int *b, int d, int t) {
    const int goal = s->rules.goal;
    if (board_complete(&s->rules, b)) return s->race ? s->term : 0.0;
    int64_t key = (board_key(s, b) * 8 + d) * 4 + t, slot = slot_of(key, NESTED_BITS);
    int64_t context = s->race ? s->opp.turn : -1;
    if (s->nested_key[slot] == key && s->nested_stamp[slot] == context) return s->nested_val[slot];
    double X = leaf(s, b, 0), total = 0.0;
    for (int64_t g = s->group_start[d]; g < s->group_start[d + 1]; g++) {
        double best = 0.0;
        int found = 0;
        for (int64_t e = s->entry_start[g]; e < s->entry_start[g + 1]; e++) {
            int j = (int)s->entry_row[e], h = (int)s->entry_hits[e];
            if (b[j] >= goal) continue;
            double n1 = 0.0;
            if (t == 2) {
                int need = goal - b[j], left = d - s->rules.per_hit[j] * need;
                if (left >= 1 && coef_at(s, j, need, d, t, h)[2 * goal + 1] != 0.0) {
                    int at = b[j];
                    b[j] = goal;
                    n1 = nested(s, b, left, 1);
                    b[j] = at;
                }
            }
            double v = option_core(s, b, j, h, d, t, X, n1, 0.0);
            if (!found || v > best) {
                best = v;
                found = 1;
            }
        }
        total += s->group_p[g] * (found ? best : X);
    }
    s->nested_key[slot] = key;
    s->nested_val[slot] = total;
    s->nested_stamp[slot] = context;
    return total;
}

/* option_core with the PEGS-7 choice throws that may follow valued. */
static double option(Sim *s, int *b, int j, int h, int d, int t, double X) {
    const int goal = s->rules.goal;
    int need = goal - b[j], left = d - s->rules.per_hit[j] * need;
    double n1 = 0.0, n2 = 0.0;
    if (s->T > 1 && left >= 1) {
        const double *c = coef_at(s, j, need, d, t, h);
        int at = b[j];
        b[j] = goal;
        if (c[2 * goal + 1] != 0.0) n1 = nested(s, b, left, 1);
        if (s->T > 2 && c[2 * goal + 2] != 0.0) n2 = nested(s, b, left, 2);
        b[j] = at;
    }
    return option_core(s, b, j, h, d, t, X, n1, n2);
}

/* A ChooseRow of _turn_c.h: the legal row of the highest value, in the order most hits,
 * then the higher row (rows[] come in increasing order). */
static int choose(void *policy, int *b, const int *rows, const int *hits, int n, int dice, int throws) {
    Sim *s = policy;
    if (n == 1) return rows[0];
    s->choices++;
    int t = s->rules.throws > 0 ? throws : 1;
    double X = leaf(s, b, 0), best = 0.0;
    int chosen = -1;
    for (int most = s->rules.dice; most >= 1; most--)
        for (int k = n - 1; k >= 0; k--) {
            if (hits[k] != most) continue;
            double v = option(s, b, rows[k], hits[k], dice, t, X);
            if (chosen < 0 || v > best + 1e-12 * (1.0 + fabs(best))) {
                best = v;
                chosen = rows[k];
            }
        }
    return chosen;
}

/* The opponent's arrays for his expected turns e and rest points r. */
static void face_opponent(Sim *s, double e, double r) {
    Opponent *o = &s->opp;
    double w;
    int i = grid_at(s, e, &w);
    const double *s0 = s->surv + (size_t)i * s->H, *s1 = s0 + s->H;
    for (int n = 0; n < s->H; n++) o->alive[n] = (1 - w) * s0[n] + w * s1[n];
    o->shifted[0] = 1.0;
    for (int n = 1; n < s->H; n++) o->shifted[n] = o->alive[n - 1];
    o->ends[0] = 0.0;
    for (int n = 1; n < s->H; n++) o->ends[n] = o->shifted[n] - o->alive[n];
    if (!s->pegs) {
        const double *r0 = s->lrest + (size_t)i * s->H, *r1 = r0 + s->H;
        for (int n = 0; n < s->H; n++) o->F[n] = r * ((1 - w) * r0[n] + w * r1[n]);
        o->Ffresh[0] = r;
        for (int n = 1; n < s->H; n++) o->Ffresh[n] = o->F[n - 1];
    }
    o->turn++;
}

static void play_games(Sim *s, Py_ssize_t games, uint32_t seed, const int kinds[2], int64_t *out) {
    twister_seed(&s->twister, seed);
    for (Py_ssize_t g = 0; g < games; g++) {
        int boards[2][TURN_MAXROWS] = {{0}};
        int64_t turns[2] = {0, 0};
        int current = (int)(g % 2);
        for (;;) {
            int *me = boards[current], *other = boards[1 - current];
            s->race = kinds[current] == 1;
            s->term = 1.0;
            if (s->race) {
                double r = rest_points(s, other);
                s->term = s->pegs ? 1.0 : r;
                face_opponent(s, value(s, other), r);
            }
            play_turn(&s->rules, me, throw_dice, &s->twister, choose, s);
            turns[current]++;
            if (board_complete(&s->rules, me)) {
                int64_t *row = out + 5 * g;
                row[0] = current;
                row[1] = (int64_t)rest_points(s, boards[0]);
                row[2] = (int64_t)rest_points(s, boards[1]);
                row[3] = turns[0];
                row[4] = turns[1];
                break;
            }
            current = 1 - current;
        }
    }
}

/* The memos and the opponent's arrays; 0 when out of memory. */
static int allocate(Sim *s) {
    size_t values = (size_t)1 << VALUE_BITS, nested_slots = (size_t)1 << NESTED_BITS, grid = 4 * (size_t)s->G;
    s->value_key = malloc(values * sizeof(int64_t));
    s->value_val = calloc(values, sizeof(double));
    s->nested_key = malloc(nested_slots * sizeof(int64_t));
    s->nested_stamp = calloc(nested_slots, sizeof(int64_t));
    s->nested_val = calloc(nested_slots, sizeof(double));
    s->opp.alive = calloc(5 * (size_t)s->H, sizeof(double));
    s->opp.table = calloc(grid, sizeof(double));
    s->opp.stamp = calloc(grid, sizeof(int64_t));
    if (!s->value_key || !s->value_val || !s->nested_key || !s->nested_stamp || !s->nested_val || !s->opp.alive ||
        !s->opp.table || !s->opp.stamp)
        return 0;
    memset(s->value_key, 0xff, values * sizeof(int64_t));          /* -1: no board */
    memset(s->nested_key, 0xff, nested_slots * sizeof(int64_t));
    s->opp.shifted = s->opp.alive + s->H;
    s->opp.F = s->opp.shifted + s->H;
    s->opp.Ffresh = s->opp.F + s->H;
    s->opp.ends = s->opp.Ffresh + s->H;
    return 1;
}

static void release(Sim *s) {
    free(s->value_key);
    free(s->value_val);
    free(s->nested_key);
    free(s->nested_stamp);
    free(s->nested_val);
    free(s->opp.alive);
    free(s->opp.table);
    free(s->opp.stamp);
}

enum { B_RULES, B_COEF_SHAPE, B_COEF, B_GROUP_START, B_GROUP_P, B_ENTRY_START, B_ENTRY_ROW, B_ENTRY_HITS,
       B_MODEL_DIMS, B_OFFSETS, B_ENDGAME, B_W1, B_B1, B_W2, B_B2, B_W3, B_B3, B_PMF, B_REST, B_LO, B_HI, B_SURV,
       B_LREST, B_GRID, B_OUT, B_COUNT };

/* Reads the tables (the order of the enum above; _race_simulation.simulation_tables) into s;
 * 0 when their sizes disagree. rules: int32 [rows, goal, dice, throws (0: none), overthrow,
 * all_dice_first, fresh_budget_on_all_dice, fresh_on_complete, first_out, per_hit x rows];
 * coef_shape int64 [6]; model_dims int32 [rows, goal, endgame_rows]; grid float64 [step, top]. */
static int read_tables(Sim *s, Py_buffer *b, Py_ssize_t games) {
    const int *r = b[B_RULES].buf;
    const int64_t *shape = b[B_COEF_SHAPE].buf;
    const int *md = b[B_MODEL_DIMS].buf;
    if (b[B_RULES].len < 9 * 4 || b[B_COEF_SHAPE].len != 6 * 8 || b[B_MODEL_DIMS].len != 3 * 4 ||
        b[B_GRID].len != 2 * 8 || b[B_B3].len != 4)
        return 0;
    int rows = r[0];
    if (rows != TURN_MAXROWS || b[B_RULES].len != (9 + rows) * 4) return 0;
    s->rules = (TurnRules){.rows = rows, .goal = r[1], .dice = r[2], .throws = r[3], .overthrow = r[4],
                           .all_dice_first = r[5], .fresh_budget_on_all_dice = r[6], .fresh_on_complete = r[7]};
    for (int j = 0; j < rows; j++) s->rules.per_hit[j] = r[9 + j];
    s->pegs = r[8];
    s->T = r[3] > 0 ? r[3] : 1;
    int64_t size = 1;
    for (int a = 5; a >= 0; a--) {
        if (a < 5) s->cs[a] = size;
        size *= shape[a];
    }
    s->model = (DistilledModel){.rows = md[0], .goal = md[1], .endgame_rows = md[2], .units = (int)(b[B_B1].len / 4),
                                .width = (int)(b[B_B2].len / 4), .offsets = b[B_OFFSETS].buf,
                                .endgame = b[B_ENDGAME].buf, .w1 = b[B_W1].buf, .b1 = b[B_B1].buf,
                                .w2 = b[B_W2].buf, .b2 = b[B_B2].buf, .w3 = b[B_W3].buf,
                                .b3 = *(const float *)b[B_B3].buf};
    s->coef = b[B_COEF].buf;
    s->group_start = b[B_GROUP_START].buf;
    s->group_p = b[B_GROUP_P].buf;
    s->entry_start = b[B_ENTRY_START].buf;
    s->entry_row = b[B_ENTRY_ROW].buf;
    s->entry_hits = b[B_ENTRY_HITS].buf;
    s->pmf = b[B_PMF].buf;
    s->rest = b[B_REST].buf;
    s->surv = b[B_SURV].buf;
    s->lrest = b[B_LREST].buf;
    s->lo = b[B_LO].buf;
    s->hi = b[B_HI].buf;
    s->G = (int)(b[B_LO].len / 8);
    s->H = s->G > 0 ? (int)(b[B_PMF].len / 8 / s->G) : 0;
    const double *grid = b[B_GRID].buf;
    s->step = grid[0];
    s->top = grid[1];
    Py_ssize_t table = (Py_ssize_t)s->G * s->H * 8;
    const DistilledModel *m = &s->model;
    return shape[0] == rows && shape[1] == s->rules.goal + 1 && shape[2] == s->rules.dice + 1 && shape[3] == s->T &&
           shape[4] == s->rules.dice + 1 && shape[5] == 2 * s->rules.goal + s->T && b[B_COEF].len == size * 8 &&
           m->rows == rows && m->goal == s->rules.goal && m->units >= 1 && m->units <= MAXUNITS &&
           m->width >= 1 && m->width <= MAXWIDTH && b[B_OFFSETS].len == ((Py_ssize_t)1 << rows) * 8 + 8 &&
           b[B_ENDGAME].len == m->offsets[1 << rows] * 4 && b[B_W1].len == (Py_ssize_t)rows * (m->goal + 1) * m->units * 4 &&
           b[B_W2].len == (Py_ssize_t)m->units * m->width * 4 && b[B_W3].len == m->width * 4 &&
           b[B_GROUP_START].len == (s->rules.dice + 2) * 8 && b[B_GROUP_P].len == s->group_start[s->rules.dice + 1] * 8 &&
           b[B_ENTRY_START].len == b[B_GROUP_P].len + 8 &&
           b[B_ENTRY_ROW].len == s->entry_start[b[B_GROUP_P].len / 8] * 8 && b[B_ENTRY_HITS].len == b[B_ENTRY_ROW].len &&
           s->G >= 2 && b[B_HI].len == b[B_LO].len &&
           b[B_PMF].len == table && b[B_REST].len == table && b[B_SURV].len == table && b[B_LREST].len == table &&
           b[B_OUT].len == games * 5 * 8;
}

/* play_games(games, seed, kind_a, kind_b, *tables, out, stats): the tables (arguments, not a
 * tuple: PyArg_ParseTuple keeps a nested tuple's buffers in a short list) and out as read_tables
 * reads them (out int64 [games, 5], written); stats int64 [1] += the choice throws with two
 * or more legal rows. */
static PyObject *py_play_games(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t games;
    unsigned int seed;
    int kinds[2];
    Py_buffer b[B_COUNT], stats = {0};
    memset(b, 0, sizeof(b));
    if (!PyArg_ParseTuple(args, "nIiiy*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*w*w*", &games, &seed, &kinds[0],
                          &kinds[1], &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10],
                          &b[11], &b[12], &b[13], &b[14], &b[15], &b[16], &b[17], &b[18], &b[19], &b[20], &b[21],
                          &b[22], &b[23], &b[B_OUT], &stats))
        return NULL;
    Sim s;
    memset(&s, 0, sizeof(s));
    int ok = games >= 0 && stats.len == 8 && read_tables(&s, b, games);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "inconsistent simulation tables");
    } else if (!allocate(&s)) {
        ok = 0;
        PyErr_NoMemory();
    } else {
        int64_t *out = b[B_OUT].buf;
        Py_BEGIN_ALLOW_THREADS
        play_games(&s, games, seed, kinds, out);
        Py_END_ALLOW_THREADS
        *(int64_t *)stats.buf += s.choices;
    }
    release(&s);
    for (int i = 0; i < B_COUNT; i++) PyBuffer_Release(&b[i]);
    PyBuffer_Release(&stats);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* after_hits(rules, board, row, count, dice, throws) -> (step, board, dice, throws): _turn_c.h's
 * after_hits on one state (rules as read_tables reads them, board int32 [rows]; row 0-based);
 * step 0 the turn is over, 1 a choice throw, 2 a throw on. For the test against the engine. */
static PyObject *py_after_hits(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer rules = {0}, board = {0};
    int j, count, dice, throws;
    if (!PyArg_ParseTuple(args, "y*y*iiii", &rules, &board, &j, &count, &dice, &throws)) return NULL;
    const int *r = rules.buf;
    int ok = rules.len >= 9 * 4 && r[0] >= 1 && r[0] <= TURN_MAXROWS && rules.len == (9 + r[0]) * 4 &&
             board.len == r[0] * 4 && j >= 0 && j < r[0];
    PyObject *result = NULL;
    if (ok) {
        TurnRules t = {.rows = r[0], .goal = r[1], .dice = r[2], .throws = r[3], .overthrow = r[4],
                       .all_dice_first = r[5], .fresh_budget_on_all_dice = r[6], .fresh_on_complete = r[7]};
        int b[TURN_MAXROWS];
        for (int k = 0; k < t.rows; k++) {
            t.per_hit[k] = r[9 + k];
            b[k] = ((const int *)board.buf)[k];
        }
        Hand hand = {dice, throws};
        TurnStep step = after_hits(&t, b, j, count, &hand);
        PyObject *cells = PyTuple_New(t.rows);
        for (int k = 0; cells != NULL && k < t.rows; k++) PyTuple_SET_ITEM(cells, k, PyLong_FromLong(b[k]));
        if (cells != NULL) result = Py_BuildValue("(iNii)", (int)step, cells, hand.dice, hand.throws);
    } else {
        PyErr_SetString(PyExc_ValueError, "inconsistent rules or board");
    }
    PyBuffer_Release(&rules);
    PyBuffer_Release(&board);
    return result;
}

static PyMethodDef methods[] = {
    {"play_games", py_play_games, METH_VARARGS, "Seeded full-board race games (see _race_simulation.py)."},
    {"after_hits", py_after_hits, METH_VARARGS, "The C statement of state.after_hits on one state (for tests)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_race_simulation_c",
                                    "Full-board race games with seeded dice, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__race_simulation_c(void) { return PyModule_Create(&module); }
