/* The compiled two-player race, Pegs and Fives (docs/rules.md PEGS-1..9, FIVES-1..7),
 * float64, built at install time. race_solver.py explains the equations (its module
 * docstring); this file only walks the tables.
 *
 * Boards are indices of a race_box.RaceBox (N boards); a pair's value is
 * V[position[mover] * N + position[opponent]] in an N x N float64 table, kept with its
 * transpose (VT[position[opponent] * N + position[mover]], the same numbers): the tables'
 * rows and columns hold the open boards by level of progress, then index, the complete boards
 * after them (race_solver.kernel_tables' position; see Order), so that the opponents of a
 * chunk are neighbouring columns. The two players may have boards of their own (two boxes on
 * the same rows: the boards reachable from each one's board, NA and NB of them): the first
 * mover's table is then NA x NB, the second's NB x NA, each Race reading the other's positions
 * and rest points as its opponent's (opp_N, opp_position, opp_RP). The rules enter through tables the Python side builds from
 * the engine (race_solver.kernel_tables):
 *
 *   coef[j, need, d, ta, h, c]  naming the row of position j with need steps to go and h
 *       hits on a choice throw of d dice, ta throws after it (ta = t - 1), leads to:
 *       c = 0 the turn ending where the cycle began (an overthrow, PEGS-6); c = 1..goal the
 *       turn ending with the row c steps on (PEGS-5/9, FIVES-3); c = goal + 1 .. 2 goal a
 *       fresh start with the row c - goal steps on (PEGS-8, FIVES-4/5); c = 2 goal + t2 a
 *       PEGS-7 choice throw of d - dice_per_hit * need dice with t2 throws left, the row in;
 *   reach[j, need, d, ta, t2]   whether that PEGS-7 column is ever nonzero;
 *   the choice throws of d dice grouped by their hits on the open rows (groups
 *       group_start[d] .. group_start[d + 1], probabilities group_p), each group a list of
 *       entries j * HM + h (HM = dice + 1), most hits first, then the higher row: the
 *       tie-break order of every choice here;
 *   solo[x, t - 1, g]  the solo-optimal entry of group g at a choice throw of board x
 *       (-1: no legal row), filled by solo_tables from the expected turns E.
 *
 * An option is OS[i] * X + OR[i] (i = j * HM + h): OS the chance that the turn ends where
 * the cycle began, worth X; OR the value of every other ending. A complete row has OS = 0,
 * OR = -BIG: never chosen, and a throw with nothing else ends the turn.
 *
 * Leaves: a turn ending on board x' is worth es * END(x') + eo to the mover, a fresh start
 * RESTART(x') + ro, a complete board term. For the race END is the opponent's value of
 * (y, x') (es = -1, eo = 1 for Pegs, 0 for Fives), RESTART the mover's own value of (x', y);
 * for the solo tables both are the expected turns E (RESTART read as E - 1: the restart
 * identity of turn.TurnValue).
 *
 * A board with complete rows sees fewer throw groups: the groups whose hits on its open rows
 * agree are merged (Merged), so the choices of a turn walk only the distinct ones.
 *
 * Order (make_plan): a pair (a, b) reads only pairs where one board is one step or more
 * further on, (a', b) and (a, b'), of a higher level of progress (the sum of a board's
 * steps). The open boards are ordered by level, then index, and cut into chunks of LANES; a
 * tile is a chunk of movers a against a chunk of opponents b, both sides of each pair (the
 * mover a's TA[a, b] and the opponent's TB[b, a]) solved together. The levels of b from the
 * highest down are phases; in a phase, each chunk of b is a unit that solves its tiles against
 * the a of every level from the highest down, reading only its own pairs and earlier phases'.
 * Threads take the units of a phase as they come and wait for each other between phases. One
 * policy for both (symmetric): a system per unordered pair, a the board of the higher level
 * (the higher index on one level), those of one level in a phase of their own after the
 * others.
 *
 * Lanes (Batch, _race_c_lanes.h): the side of one mover against the LANES opponents of a
 * chunk shares the open rows, throw groups and options; only the leaves differ, read from the
 * tables' rows (a gather of the chunk's columns). The PEGS-7 throws, the first Newton step of
 * every pair of a tile and the counts run on the lanes; the few pairs the first step does not
 * settle go on alone (evaluate). Newton's method starts from the neighbours' extrapolation
 * V[a', b] + V[a, b'] - V[a', b'], a' and b' one step further on their first open row (the
 * bracket's middle when one is complete), and is done when the step stays inside both sides'
 * radius of linearity (evaluate): every value is the same whatever the threads and the code
 * path (a lane's arithmetic is the scalar one), and so are the counts (summed per tile, then
 * in order).
 *
 * No fused multiply-adds (fp-contract off, whatever the compiler flags): the arithmetic is
 * that of the plain float64 formulas, term by term.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#include "_c_paths.h"   /* X86_PATHS: GCC on x86-64, the AVX-512 and AVX2 paths besides the portable one */
#if defined(X86_PATHS)
#include <immintrin.h>
#endif

#define BIG 1e300               /* minus the value of a complete row's option */
#define TIE 1e-12               /* relative tolerance of equal options (race_solver.TIE) */
#define MAXK 12                 /* open rows */
#define MAXHM 7                 /* hits 0..dice per row */
#define MAXT 4                  /* throw budget T (kernel_tables allows PEGS-7 throws for T <= 3) */
#define MAXGOAL 12
#define ROWS 3                  /* work rows: 0 the solo tables', 1 and 2 the sides of a pair */
#define MEMO_BITS 15            /* slots of the memo of PEGS-7 choice-throw values (of LANES opponents each) */

/* The choice throws of d dice as a board with the open rows `mask` sees them: the groups
 * whose hits on those rows agree merged into one (probabilities added in group order), the
 * entries of complete rows left out (never chosen). A board with complete rows then walks
 * fewer groups and entries; a merged group keeps its members' solo choice (the same legal
 * rows in the same order) through its first member. */
typedef struct {
    int nmask;
    int64_t *start;             /* [d * nmask + mask] .. [+ 1]: the merged groups of d dice under mask */
    double *p;                  /* [m] the chance of merged group m */
    int64_t *first;             /* [m] its first original group */
    int64_t *entry_start;       /* [m] .. [m + 1]: its entries */
    int64_t *entry;             /* the original entry e */
    int64_t *idx;               /* entry_idx[e]: the option j * HM + h */
    uint16_t *open;             /* [x] the open rows of board x as a bit set */
} Merged;

typedef struct {
    int64_t N, groups;
    int k, goal, dice, T, HM, ncol;
    const int64_t *digits;      /* [x, j] */
    const uint8_t *complete;    /* [x] */
    int64_t stride[MAXK];
    int per_hit[MAXK];
    const double *coef;         /* [j, need, d, ta, h, c] */
    const uint8_t *reach;       /* [j, need, d, ta, t2] */
    const int64_t *group_start, *entry_start, *entry_idx;
    const double *group_p;
    int32_t *solo;              /* [x, t - 1, g] */
    const double *RP;           /* FIVES-6 rest points of every board */
    const int64_t *position;    /* [x] the row and column of board x in the pair tables (make_plan) */
    /* The opponent's boards (the same boards, or the other player's in a race of two sets of
     * boards): their number (a row of the tables this mover reads), positions and rest points. */
    int64_t opp_N;
    const int64_t *opp_position;
    const double *opp_RP;
    Merged merged;              /* the groups as each set of open rows sees them (merge_groups) */
    /* The steps c of each coefficient row [j, need, d, ta, h] whose ending or fresh start has a
     * chance (h = 0: those of any h), terms[term_start[row] .. term_start[row + 1]] (list_terms;
     * most coefficients are 0). */
    int64_t *term_start;
    uint8_t *terms;
} Race;

/* The scalar work space of one thread: per work row the options' stays and rests, the PEGS-7
 * values following each row going in [j][t2], and the leaf values [ending or fresh
 * start][steps]. */
typedef struct {
    double S[ROWS][MAXK * MAXHM], R[ROWS][MAXK * MAXHM];
    double PN[ROWS][MAXK][MAXT];
    double E[ROWS][2][MAXGOAL + 1];
} Work;

/* A table read as value(y, x) = base[y * sy + x * sx]: rows of a table (sy = N, sx = 1) or
 * of its transpose (sy = 1, sx = N). */
typedef struct {
    const double *base;
    int64_t sy, sx;
} View;

static inline double at(View v, int64_t y, int64_t x) { return v.base[y * v.sy + x * v.sx]; }

static inline int reaches(const Race *R, int j, int need, int d, int ta, int t2) {
    return R->reach[((((int64_t)j * (R->goal + 1) + need) * (R->dice + 1) + d) * R->T + ta) * R->T + t2];
}

static inline int64_t row_steps(const Race *R, int64_t x, int j) { return R->digits[x * R->k + j]; }

/* The leaves a turn of the mover reads: END = end (the opponent's value, es and eo), RESTART
 * = restart (+ ro), term for a complete board, y the opponent's board. */
typedef struct {
    View end, restart;
    int64_t y;
    double es, eo, ro, term;
} Leaves;

/* OS = W->S[row], OR = W->R[row] of every option of a choice throw of d dice, t throws left,
 * on board x; W->PN[row][j][t2] holds the PEGS-7 choice throws that follow row j going in. */
static void fill_options(const Race *R, Work *W, int64_t x, int d, int t, const Leaves *L, int row) {
    const int goal = R->goal, HM = R->HM, T = R->T;
    double *S = W->S[row], *OR = W->R[row];
    double *E0 = W->E[row][0], *E1 = W->E[row][1];
    for (int j = 0; j < R->k; j++) {
        int base = j * HM;
        int64_t s = row_steps(R, x, j);
        if (s >= goal) {
            for (int h = 0; h < HM; h++) {
                S[base + h] = 0.0;
                OR[base + h] = -BIG;
            }
            continue;
        }
        int need = goal - (int)s;
        const int64_t cell = (((int64_t)j * (goal + 1) + need) * (R->dice + 1) + d) * T + t - 1;
        const int64_t rows = cell * (R->dice + 1);
        for (int64_t n = R->term_start[rows]; n < R->term_start[rows + 1]; n++) {
            int c = R->terms[n];
            int64_t xc = x + c * R->stride[j];
            if (R->complete[xc]) {
                E0[c] = L->term;
                E1[c] = L->term;
            } else {
                E0[c] = L->es * at(L->end, L->y, xc) + L->eo;
                E1[c] = at(L->restart, L->y, xc) + L->ro;
            }
        }
        for (int h = 1; h <= d / R->per_hit[j]; h++) {
            const double *cf = &R->coef[(rows + h) * R->ncol];
            double r = 0.0;
            for (int64_t n = R->term_start[rows + h]; n < R->term_start[rows + h + 1]; n++) {
                int c = R->terms[n];                  /* the other steps add 0 * E0 + 0 * E1: nothing */
                r += cf[c] * E0[c] + cf[goal + c] * E1[c];
            }
            for (int t2 = 1; t2 < T; t2++) r += cf[2 * goal + t2] * W->PN[row][j][t2];
            S[base + h] = cf[0];
            OR[base + h] = r;
        }
    }
}

/* F(X), its slope and radius of a turn's first choice throw: F is linear with this slope for
 * every X' with |X' - X| < radius (no throw's best option can change: its lead over the
 * second best exceeds the step times the spread of the options' slopes). */
typedef struct {
    double value, slope, radius;
} Piece;

/* A throw group's best option at X (of the options idx[from .. to), the first of equals in
 * their order): its value, the largest slope among the options of that value, the second
 * best value (the best again on a tie) and the range of the options' slopes. */
typedef struct {
    double best, slope, second, smin, smax;
} Best;

static inline Best best_option(const double *S, const double *OR, const int64_t *idx, int64_t from, int64_t to,
                               double X) {
    Best b = {-BIG, 0.0, -BIG, 1.0, 0.0};
    for (int64_t e = from; e < to; e++) {
        double s = S[idx[e]];
        double v = s * X + OR[idx[e]];
        if (v > b.best || (v == b.best && s > b.slope)) {
            b.second = b.best;
            b.best = v;
            b.slope = s;
        } else if (v > b.second) {
            b.second = v;
        }
        if (s < b.smin) b.smin = s;
        if (s > b.smax) b.smax = s;
    }
    return b;
}

static Piece evaluate(const Race *R, const Work *W, double X, int race, int64_t x, int row) {
    const Merged *M = &R->merged;
    const double *S = W->S[row], *OR = W->R[row];
    const int T = R->T;
    const int64_t cell = R->dice * M->nmask + M->open[x];
    double total = 0.0, slope = 0.0, radius = INFINITY;
    for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
        double p = M->p[m];
        if (race) {
            Best b = best_option(S, OR, M->idx, M->entry_start[m], M->entry_start[m + 1], X);
            double best = b.best, second = b.second, bs = b.slope, smin = b.smin, smax = b.smax;
            if (best > -BIG) {
                total += p * best;
                slope += p * bs;
                if (second > -BIG) {
                    double spread = smax - bs > bs - smin ? smax - bs : bs - smin;
                    double gap = best - second;
                    /* min(radius, gap / spread), dividing only when the quotient may be smaller */
                    if (spread > 0.0 && gap < radius * spread * (1.0 + 1e-12)) {
                        double r = gap / spread;
                        if (r < radius) radius = r;
                    }
                }
            } else {
                total += p * X;
                slope += p;
            }
        } else {
            int32_t e = R->solo[(x * T + T - 1) * R->groups + M->first[m]];
            if (e < 0) {
                total += p * X;
                slope += p;
            } else {
                int64_t i = R->entry_idx[e];
                total += p * (S[i] * X + OR[i]);
                slope += p * S[i];
            }
        }
    }
    Piece piece = {total, slope, radius};
    return piece;
}

/* Solo-optimal play from the expected turns E: solo[x, t - 1, g] the entry chosen on throw
 * group g (-1: no legal row) at every choice throw (d dice of the group, t throws left),
 * the least stay * E[x] + rest (first of equals in entry order, TIE); CE[x, d, t] the
 * expected turns of a PEGS-7 choice throw (d below all dice), boards from the most progress
 * down. */
static void solo_tables(const Race *R, Work *W, const double *E, double *CE) {
    const int goal = R->goal, dice = R->dice, T = R->T;
    View table = {E, 0, 1};
    Leaves L = {table, table, 0, 1.0, 0.0, -1.0, 0.0};
    for (int64_t x = R->N - 1; x >= 0; x--) {
        if (R->complete[x]) continue;
        double here = E[x];
        for (int d = dice; d >= 1; d--) {
            for (int t = T; t >= 1; t--) {
                if ((d == dice) != (t == T)) continue;   /* turn starts (all dice, the full budget) and PEGS-7 throws */
                for (int j = 0; j < R->k; j++) {
                    int64_t s = row_steps(R, x, j);
                    if (s >= goal) continue;
                    int need = goal - (int)s;
                    int d2 = d - R->per_hit[j] * need;
                    int64_t xin = x + need * R->stride[j];
                    for (int t2 = 1; t2 < T; t2++) {
                        W->PN[0][j][t2] = 0.0;
                        if (d2 >= 1 && !R->complete[xin] && reaches(R, j, need, d, t - 1, t2))
                            W->PN[0][j][t2] = CE[(xin * (dice + 1) + d2) * (T + 1) + t2];
                    }
                }
                fill_options(R, W, x, d, t, &L, 0);
                double total = 0.0;
                for (int64_t g = R->group_start[d]; g < R->group_start[d + 1]; g++) {
                    double best = 0.0;
                    int64_t chosen = -1;
                    for (int64_t e = R->entry_start[g]; e < R->entry_start[g + 1]; e++) {
                        int64_t i = R->entry_idx[e];
                        if (W->R[0][i] <= -BIG) continue;
                        double v = W->S[0][i] * here + W->R[0][i];
                        if (chosen < 0 || v < best - TIE * (1.0 + fabs(best))) {
                            best = v;
                            chosen = e;
                        }
                    }
                    R->solo[(x * T + t - 1) * R->groups + g] = (int32_t)chosen;
                    total += R->group_p[g] * (chosen >= 0 ? best : here);
                }
                if (d < dice) CE[(x * (dice + 1) + d) * (T + 1) + t] = total;
            }
        }
    }
}

/* ------------------------------------------------------------------------------------ */
/* The turn-start choices (race against race): how often the solo-optimal row loses.     */

/* What solve_pairs fills besides the tables. */
typedef struct {
    double *stats;              /* [choice chance, differing chance, pairs, pairs differing] */
    double *ex_loss;            /* [n] the largest losses kept (-1: empty) */
    int64_t *ex_info;           /* [n, 6] mover, opponent, group, race entry, solo entry; [0, 5] the smallest's slot */
    double *ex_value;           /* [n, 2] race and solo values */
    int64_t examples;
    int64_t newton_steps, systems;
} Counts;

/* Whether an example (loss, mover, opponent, group) ranks below another: a smaller loss, or
 * an equal one at a later (mover, opponent, group). A total order, so that the examples kept
 * are the same in whatever order they come. */
static int ranks_below(double loss, const int64_t *info, double other_loss, const int64_t *other) {
    if (loss != other_loss) return loss < other_loss;
    for (int i = 0; i < 3; i++)
        if (info[i] != other[i]) return info[i] > other[i];
    return 0;
}

/* Keep an example if it ranks above the lowest kept (whose slot is in ex_info[0, 5]). */
static void keep_example(Counts *C, double loss, const int64_t *info, const double *values) {
    int64_t worst = C->ex_info[5];
    if (!ranks_below(C->ex_loss[worst], &C->ex_info[worst * 6], loss, info)) return;
    C->ex_loss[worst] = loss;
    memcpy(&C->ex_info[worst * 6], info, 5 * sizeof(int64_t));
    memcpy(&C->ex_value[worst * 2], values, 2 * sizeof(double));
    for (int64_t n = 0; n < C->examples; n++)
        if (ranks_below(C->ex_loss[n], &C->ex_info[n * 6], C->ex_loss[worst], &C->ex_info[worst * 6])) worst = n;
    C->ex_info[5] = worst;
}

/* ------------------------------------------------------------------------------------ */
/* Lanes: one side of LANES pairs at once (_race_c_lanes.h, a code path per instruction set). */

#define LANES 8                 /* pairs per batch: 8 float64, one AVX-512 register */
typedef double Lanes __attribute__((vector_size(8 * LANES)));
typedef int64_t LaneMask __attribute__((vector_size(8 * LANES)));

/* The options of a choice throw for every lane: stays S (the same in every lane), rests OR;
 * the PEGS-7 values PN[j][t2] that follow row j going in and the leaves E[ending or fresh
 * start][steps] per lane. */
typedef struct {
    Lanes OR[MAXK * MAXHM];
    Lanes PN[MAXK][MAXT];
    Lanes E[2][MAXGOAL + 1];
    double S[MAXK * MAXHM];
} LaneRow;

/* One side of LANES pairs: mover x against the opponents y[l] (lanes a chunk of Plan.order,
 * padded with its first board: y[0] names it), his policy, his leaves (Leaves as rows of the
 * tables: END(l, x') = oppT[position[x'] * N + column[l]], RESTART(l, x') = own[position[x'] *
 * N + column[l]], es, eo, ro, term per lane), ctx his tables in the memo, and the options of
 * his turn's first choice throw. */
typedef struct {
    LaneRow first;
    Lanes term;
    const double *own, *oppT;
    double es, eo, ro;
    int64_t x;
    LaneMask y, column;         /* the opponents and their columns in the tables */
    int race, ctx;
} Batch;

typedef struct {
    Lanes value, slope, radius;
} Pieces;

#pragma GCC diagnostic ignored "-Wpsabi"   /* the lane functions pass vectors only between inlined helpers */
#if defined(X86_PATHS)
#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512cd,avx512dq,avx512vl,avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx512
#define PATH_AVX512 1
#include "_race_c_lanes.h"
#undef PATH_AVX512
#undef PATH
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,bmi,bmi2,f16c,fma,lzcnt,movbe,popcnt")
#define PATH(name) name##_avx2
#define PATH_AVX2 1
#include "_race_c_lanes.h"
#undef PATH_AVX2
#undef PATH
#pragma GCC pop_options
#endif

#define PATH(name) name##_scalar
#include "_race_c_lanes.h"
#undef PATH

typedef struct {
    const char *name;
    int (*runs)(void);          /* this CPU has the path's instructions */
    void (*fill_lanes)(const Race *, const Batch *, int64_t, int, int, LaneRow *);
    void (*choice_lanes)(const Race *, const Batch *, const LaneRow *, const Lanes *, int64_t, int, int, Lanes *);
    void (*evaluate_batch)(const Race *, const Batch *, const Lanes *, Pieces *);
    void (*count_lanes)(const Race *, const Batch *, const Lanes *, const int *, Counts *);
} LanePath;

#define PATH_ENTRY(name) \
    {#name, runs_##name, fill_lanes_##name, choice_lanes_##name, evaluate_batch_##name, count_lanes_##name}
static const LanePath paths[] = {   /* fastest first */
#if defined(X86_PATHS)
    PATH_ENTRY(avx512),
    PATH_ENTRY(avx2),
#endif
    PATH_ENTRY(scalar)};
#undef PATH_ENTRY

static const LanePath *lanes = &paths[sizeof(paths) / sizeof(paths[0]) - 1];   /* chosen at import */

/* ------------------------------------------------------------------------------------ */
/* PEGS-7 choice throws inside a race turn.                                               */

/* The lane work space of one thread: the sides of a tile, the PEGS-7 throws after a turn's
 * first choice throw (depth 1 and 2), and the memo of their values. */
typedef struct {
    Batch side_a[LANES], side_b[LANES];
    LaneRow depth[3];
    int64_t *memo_key;
    Lanes *memo_value;
} LaneWork;

static LaneWork *lane_work_new(void) {
    LaneWork *LW = (LaneWork *)aligned_alloc(64, sizeof(LaneWork));
    if (LW == NULL) return NULL;
    memset(LW, 0, sizeof(*LW));
    LW->memo_key = (int64_t *)malloc(sizeof(int64_t) << MEMO_BITS);
    LW->memo_value = (Lanes *)aligned_alloc(64, sizeof(Lanes) << MEMO_BITS);
    if (LW->memo_key == NULL || LW->memo_value == NULL) {
        free(LW->memo_key);
        free(LW->memo_value);
        free(LW);
        return NULL;
    }
    for (size_t i = 0; i < ((size_t)1 << MEMO_BITS); i++) LW->memo_key[i] = -1;
    return LW;
}

static void lane_work_free(LaneWork *LW) {
    free(LW->memo_key);
    free(LW->memo_value);
    free(LW);
}

/* The memo's key of a PEGS-7 choice throw of d dice, t throws left, on board x against the
 * side's opponents (named by y[0]) and its slot. */
static inline int64_t memo_key(const Race *R, const Batch *B, int64_t x, int d, int t) {
    return (((x * R->opp_N + B->y[0]) * 8 + d) * 8 + t) * 2 + B->ctx;
}

static inline size_t memo_slot(int64_t key) {
    return (size_t)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS));
}

/* The turn-ending-here of board x to the side's mover, per lane: es * END(y, x) + eo. */
static inline void ending_here(const Race *R, const Batch *B, int64_t x, Lanes *here) {
    const double *row = &B->oppT[R->position[x] * R->opp_N];
    for (int l = 0; l < LANES; l++) (*here)[l] = B->es * row[B->column[l]] + B->eo;
}

/* The mover's race value of a PEGS-7 choice throw of d dice with one throw left on board x,
 * per lane: no PEGS-7 throw can follow it; the choice by his policy, a throw with no legal
 * row ending the turn on x. Memoised: it reads only final pairs. */
static void last_throw_value(const Race *R, LaneWork *LW, const Batch *B, int64_t x, int d, int depth, Lanes *out) {
    const int64_t key = memo_key(R, B, x, d, 1);
    const size_t slot = memo_slot(key);
    if (LW->memo_key[slot] == key) {
        *out = LW->memo_value[slot];
        return;
    }
    LaneRow *row = &LW->depth[depth];
    memset(row->PN, 0, sizeof(row->PN));
    lanes->fill_lanes(R, B, x, d, 1, row);
    Lanes here;
    ending_here(R, B, x, &here);
    lanes->choice_lanes(R, B, row, &here, x, d, 1, out);
    LW->memo_key[slot] = key;
    LW->memo_value[slot] = *out;
}

/* As last_throw_value with two throws left: a row going in on this choice throw with dice
 * left is followed by a PEGS-7 choice throw with one throw left. (Only the rules' three
 * throws, PEGS-3, are compiled: race_solver.kernel_tables checks.) */
static void two_throws_value(const Race *R, LaneWork *LW, const Batch *B, int64_t x, int d, int depth, Lanes *out) {
    const int64_t key = memo_key(R, B, x, d, 2);
    const size_t slot = memo_slot(key);
    if (LW->memo_key[slot] == key) {
        *out = LW->memo_value[slot];
        return;
    }
    LaneRow *row = &LW->depth[depth];
    memset(row->PN, 0, sizeof(row->PN));
    for (int j = 0; j < R->k; j++) {
        int64_t s = row_steps(R, x, j);
        if (s >= R->goal) continue;
        int need = R->goal - (int)s;
        int d2 = d - R->per_hit[j] * need;
        int64_t xin = x + need * R->stride[j];
        if (reaches(R, j, need, d, 1, 1)) {
            if (R->complete[xin]) row->PN[j][1] = B->term;
            else if (d2 >= 1) last_throw_value(R, LW, B, xin, d2, depth + 1, &row->PN[j][1]);
        }
    }
    lanes->fill_lanes(R, B, x, d, 2, row);
    Lanes here;
    ending_here(R, B, x, &here);
    lanes->choice_lanes(R, B, row, &here, x, d, 2, out);
    LW->memo_key[slot] = key;
    LW->memo_value[slot] = *out;
}

/* The side of mover x against each opponent y[l] with his own table OWN and the opponent's
 * transposed OPPT (see Batch): the PEGS-7 values that follow each row going in on the first
 * choice throw, then its options. */
static void batch_side(const Race *R, LaneWork *LW, Batch *B, int64_t x, const int64_t *y, int race, int ctx,
                       int pegs, const double *own, const double *oppT) {
    const int goal = R->goal, dice = R->dice, T = R->T;
    B->own = own;                                               /* field by field: the rows are overwritten */
    B->oppT = oppT;
    B->es = -1.0;
    B->eo = pegs ? 1.0 : 0.0;
    B->ro = 0.0;
    B->x = x;
    B->race = race;
    B->ctx = ctx;
    for (int l = 0; l < LANES; l++) {
        B->y[l] = y[l];
        B->column[l] = R->opp_position[y[l]];
        B->term[l] = pegs ? 1.0 : R->opp_RP[y[l]];
    }
    LaneRow *row = &B->first;
    for (int j = 0; j < R->k; j++) {
        int64_t s = row_steps(R, x, j);
        if (s >= goal) continue;
        int need = goal - (int)s;
        int d2 = dice - R->per_hit[j] * need;
        int64_t xin = x + need * R->stride[j];
        for (int t2 = 1; t2 < T; t2++) {
            const Lanes zero = {0};
            row->PN[j][t2] = zero;
            if (!reaches(R, j, need, dice, T - 1, t2)) continue;
            if (R->complete[xin]) row->PN[j][t2] = B->term;
            else if (d2 >= 1 && t2 == 1) last_throw_value(R, LW, B, xin, d2, 1, &row->PN[j][t2]);
            else if (d2 >= 1) two_throws_value(R, LW, B, xin, d2, 1, &row->PN[j][t2]);
        }
    }
    lanes->fill_lanes(R, B, x, dice, T, row);
}

/* ------------------------------------------------------------------------------------ */
/* The pairs.                                                                             */

/* The four tables: A the first mover's policy to move (TA[a * N + b]), B the second's, and
 * their transposes (the same arrays when both play one policy). */
typedef struct {
    double *A, *B, *AT, *BT;
} Tables;

static inline double mirror(double v, int pegs) { return pegs ? 1.0 - v : -v; }

/* Lane l of a batch as the scalar options of work row `row` (for evaluate). */
static void lane_to_row(const Race *R, Work *W, const Batch *B, int l, int row) {
    for (int i = 0; i < R->k * R->HM; i++) {
        W->S[row][i] = B->first.S[i];
        W->R[row][i] = B->first.OR[i][l];
    }
}

/* Newton's method on the active pieces of u = F_a(m(F_b(m(u)))) inside the bracket [lo, hi]:
 * u the mover a's value, w the opponent b's. */
typedef struct {
    double lo, hi, u, w;
} Newton;

/* One step from the pieces fb of F_b at m(u) and fa of F_a at m(fb.value). Returns 1 when u
 * and w are the root (the step stays within both sides' radius of linearity), 2 when u is
 * (the step is below rounding) and w is F_b at m(u) still to evaluate, 0 to go on from the
 * new u. */
static int newton_step(Newton *s, Piece fa, Piece fb, int pegs) {
    const double Y = mirror(s->u, pegs);
    s->w = fb.value;
    const double X = mirror(s->w, pegs), h = fa.value, phi = s->u - h;
    if (phi == 0.0) return 1;
    if (phi < 0.0) s->lo = s->u;
    else s->hi = s->u;
    const double slope = fa.slope * fb.slope;
    double next = 0.5 * (s->lo + s->hi);
    if (slope < 1.0) {
        double newton = (h - slope * s->u) / (1.0 - slope);
        if (s->lo <= newton && newton <= s->hi) {
            next = newton;
            double w_next = s->w + fb.slope * (mirror(next, pegs) - Y);
            if (fabs(next - s->u) < fb.radius && fabs(mirror(w_next, pegs) - X) < fa.radius) {
                s->u = next;                                    /* the same pieces: the root itself */
                s->w = w_next;
                return 1;
            }
        }
    }
    const int last = fabs(next - s->u) <= 1e-15 * (1.0 + fabs(s->u));
    s->u = next;
    return last ? 2 : 0;
}

/* Go on from a first step that returned `result` with the scalar options of the sides in the
 * work rows 1 (mover a) and 2 (mover b), up to 500 steps in all. Returns 0 when
 * the pair did not converge. */
static int newton_finish(const Race *RA, const Race *RB, const Work *W, Newton *s, int64_t a, int64_t b, int race_a,
                         int race_b, int pegs, int result, Counts *C) {
    const int row_a = 1, row_b = 2;
    for (int step = 1; result == 0 && step < 500; step++) {
        C->newton_steps++;
        Piece fb = evaluate(RB, W, mirror(s->u, pegs), race_b, b, row_b);
        Piece fa = evaluate(RA, W, mirror(fb.value, pegs), race_a, a, row_a);
        result = newton_step(s, fa, fb, pegs);
    }
    if (result == 2) s->w = evaluate(RB, W, mirror(s->u, pegs), race_b, b, row_b).value;
    return result != 0;
}

/* The pairs solved together: the movers a[0 .. na) against the opponents b[0 .. nb), every
 * one of each from one level of progress (upper: only the systems with a >= b). */
typedef struct {
    int32_t a, b;               /* where they start in Plan.order */
    uint8_t na, nb, upper;
} Tile;

/* The plan of a solve (solve_pairs, make_plan): the tiles in units, each unit's tiles solved
 * in order by one thread, the units of a phase in any order by any thread, the phases one
 * after the other. */
typedef struct {
    const Race *RA, *RB;        /* the first mover's boards and the second's (the same Race: one set) */
    const Tables *V;
    int race1, race2, symmetric, pegs, count, threads;
    int64_t *order_a, *order_b; /* the open boards of each by progress (sum of their steps), then index */
    Tile *tiles;
    int64_t ntiles, units;
    int phases;
    int64_t *unit_start;        /* [units + 1]: the tiles of each unit */
    int64_t *phase_start;       /* [phases + 1]: the units of each phase */
    double *stats;              /* [ntiles, 4] the counts of each tile (with count), added in tile order at the end */
    int64_t *taken;             /* [phases] the units of each phase handed out */
    int64_t *arrived;           /* [phases] the threads done with each phase */
    int running;                /* the threads that run (those started) */
    int failed;                 /* a pair did not converge (or a thread did not start): every thread stops */
} Plan;

/* Newton's start for (a, b): V1[a', b] + V1[a, b'] - V1[a', b'], a' and b' the boards one step
 * further on their first open row (solved before; NaN when one is complete: the bracket's
 * middle). */
static double start_guess(const Race *RA, const Race *RB, const Tables *V, int64_t a, int64_t b) {
    const int64_t N = RB->N;
    int ja = 0, jb = 0;
    while (row_steps(RA, a, ja) >= RA->goal) ja++;
    while (row_steps(RB, b, jb) >= RB->goal) jb++;
    const int64_t pa = RA->position[a], pa1 = RA->position[a + RA->stride[ja]];
    const int64_t pb = RB->position[b], pb1 = RB->position[b + RB->stride[jb]];
    return V->A[pa1 * N + pb] + V->A[pa * N + pb1] - V->A[pa1 * N + pb1];
}

/* Count the turn-start choices of a solved tile (both playing to win): of each mover a
 * against the b at b's value, then of each b against the a (a != b) at a's. */
static void count_tile(const Plan *P, const LaneWork *LW, const Tile *tile, const int64_t *a, const int64_t *b,
                       int valid[LANES][LANES], Newton s[LANES][LANES], Counts *C) {
    int count[LANES];
    Lanes X;
    for (int i = 0; i < tile->na; i++) {
        for (int l = 0; l < LANES; l++) {
            count[l] = valid[i][l];
            X[l] = count[l] ? mirror(s[i][l].w, P->pegs) : 0.0;
        }
        lanes->count_lanes(P->RA, &LW->side_a[i], &X, count, C);
    }
    for (int j = 0; j < tile->nb; j++) {
        for (int l = 0; l < LANES; l++) {
            count[l] = valid[l][j] && a[l] != b[j];
            X[l] = count[l] ? mirror(s[l][j].u, P->pegs) : 0.0;
        }
        lanes->count_lanes(P->RB, &LW->side_b[j], &X, count, C);
    }
}

/* Solve the systems of a tile: TA[a, b] (mover a) and TB[b, a] for each a and b. The first
 * Newton step of every system runs on the lanes (side b of each b across the a, then side a
 * of each a across the b), the few systems it does not settle go on alone. With count, the
 * turn-start choices are counted. Returns 0 when a pair did not converge. */
static int solve_tile(const Plan *P, Work *W, LaneWork *LW, const Tile *tile, Counts *C) {
    const Race *RA = P->RA, *RB = P->RB;
    const Tables *V = P->V;
    const int64_t NA = RA->N, NB = RB->N;
    const int row_a = 1, row_b = 2, ctx2 = P->symmetric ? 0 : 1;
    Batch *side_a = LW->side_a, *side_b = LW->side_b;
    int64_t a[LANES], b[LANES];
    int valid[LANES][LANES];
    for (int l = 0; l < LANES; l++) {
        a[l] = P->order_a[tile->a + (l < tile->na ? l : 0)];
        b[l] = P->order_b[tile->b + (l < tile->nb ? l : 0)];
    }
    for (int i = 0; i < LANES; i++)
        for (int j = 0; j < LANES; j++)
            valid[i][j] = i < tile->na && j < tile->nb && (!tile->upper || a[i] >= b[j]);
    for (int j = 0; j < tile->nb; j++) batch_side(RB, LW, &side_b[j], b[j], a, P->race2, ctx2, P->pegs, V->B, V->AT);
    for (int i = 0; i < tile->na; i++) batch_side(RA, LW, &side_a[i], a[i], b, P->race1, 0, P->pegs, V->A, V->BT);
    Newton s[LANES][LANES];
    for (int i = 0; i < tile->na; i++)
        for (int j = 0; j < tile->nb; j++) {
            if (!valid[i][j]) continue;
            double lo = P->pegs ? -1.0 : -RA->RP[a[i]] - 1.0, hi = P->pegs ? 2.0 : RB->RP[b[j]] + 1.0;
            double guess = start_guess(RA, RB, V, a[i], b[j]);
            s[i][j] = (Newton){lo, hi, (lo < guess && guess < hi) ? guess : 0.5 * (lo + hi), 0.0};
        }
    Pieces fb[LANES], fa[LANES];
    for (int j = 0; j < tile->nb; j++) {
        Lanes Y;
        for (int l = 0; l < LANES; l++) Y[l] = valid[l][j] ? mirror(s[l][j].u, P->pegs) : 0.0;
        lanes->evaluate_batch(RB, &side_b[j], &Y, &fb[j]);
    }
    for (int i = 0; i < tile->na; i++) {
        Lanes X;
        for (int l = 0; l < LANES; l++) X[l] = valid[i][l] ? mirror(fb[l].value[i], P->pegs) : 0.0;
        lanes->evaluate_batch(RA, &side_a[i], &X, &fa[i]);
    }
    for (int i = 0; i < tile->na; i++)
        for (int j = 0; j < tile->nb; j++) {
            if (!valid[i][j]) continue;
            Newton *n = &s[i][j];
            Piece pb = {fb[j].value[i], fb[j].slope[i], fb[j].radius[i]};
            Piece pa = {fa[i].value[j], fa[i].slope[j], fa[i].radius[j]};
            C->newton_steps++;
            int result = newton_step(n, pa, pb, P->pegs);
            if (result != 1) {
                lane_to_row(RA, W, &side_a[i], j, row_a);
                lane_to_row(RB, W, &side_b[j], i, row_b);
                if (!newton_finish(RA, RB, W, n, a[i], b[j], P->race1, P->race2, P->pegs, result, C)) return 0;
            }
            C->systems++;
            const int64_t at_a = RA->position[a[i]], at_b = RB->position[b[j]];
            V->A[at_a * NB + at_b] = n->u;
            V->AT[at_b * NA + at_a] = n->u;
            V->B[at_b * NA + at_a] = n->w;
            V->BT[at_a * NB + at_b] = n->w;
        }
    if (P->count) count_tile(P, LW, tile, a, b, valid, s, C);
    return 1;
}

/* Counting (fill 0) or listing (fill 1) the tiles, units and phases of a plan. */
typedef struct {
    Plan *P;
    int fill;
    int64_t tiles, units, phases;
} Lister;

static void list_phase(Lister *L) {
    if (L->fill) L->P->phase_start[L->phases] = L->units;
    L->phases++;
}

static void list_unit(Lister *L) {
    if (L->fill) L->P->unit_start[L->units] = L->tiles;
    L->units++;
}

static void list_tile(Lister *L, int64_t ca, int64_t na, int64_t cb, int64_t nb, int upper) {
    if (L->fill)
        L->P->tiles[L->tiles] = (Tile){(int32_t)ca, (int32_t)cb, (uint8_t)(na < LANES ? na : LANES),
                                       (uint8_t)(nb < LANES ? nb : LANES), (uint8_t)upper};
    L->tiles++;
}

/* The tiles of the levels (L1 from, from - 1, .. to) of a (level_a) against the chunk cb of b,
 * nb boards b from it to the end of its level. */
static void list_levels(Lister *L, const int64_t *level_a, int from, int to, int64_t cb, int64_t nb) {
    for (int L1 = from; L1 >= to; L1--)
        for (int64_t ca = level_a[L1]; ca < level_a[L1 + 1]; ca += LANES)
            list_tile(L, ca, level_a[L1 + 1] - ca, cb, nb, 0);
}

/* A pair (a, b) reads only pairs where one board is one step or more further on: (a', b) and
 * (a, b') with a' of a higher level of progress than a, b' than b. So the levels of b from
 * the highest down are phases; a unit is a chunk of LANES boards b of that level against the
 * boards a of every level, from the highest down (reading only its own pairs and earlier
 * phases'). Symmetric (one set of boards, one system per unordered pair, a of the higher
 * level, the higher index on one level): the boards a of the levels above b's, then, in a
 * phase of their own, those of b's level. level_a, level_b: where each level starts in
 * order_a, order_b. */
static void list_plan(Lister *L, const int64_t *level_a, const int64_t *level_b, int levels) {
    const Plan *P = L->P;
    for (int L2 = levels - 1; L2 >= 0; L2--) {
        list_phase(L);
        for (int64_t cb = level_b[L2]; cb < level_b[L2 + 1]; cb += LANES) {
            list_unit(L);
            list_levels(L, level_a, levels - 1, P->symmetric ? L2 + 1 : 0, cb, level_b[L2 + 1] - cb);
        }
        if (!P->symmetric) continue;
        list_phase(L);
        for (int64_t cb = level_b[L2]; cb < level_b[L2 + 1]; cb += LANES) {
            list_unit(L);
            for (int64_t ca = cb; ca < level_b[L2 + 1]; ca += LANES)
                list_tile(L, ca, level_b[L2 + 1] - ca, cb, level_b[L2 + 1] - cb, ca == cb);
        }
    }
    if (L->fill) {
        L->P->phase_start[L->phases] = L->units;
        L->P->unit_start[L->units] = L->tiles;
    }
}

/* The open boards of R by level of progress (the sum of their steps), then index, into *order,
 * and where each level starts (level_start[0 .. levels]); 0 when out of memory, -1 when R's
 * positions are not that order (the complete boards after it). */
static int order_boards(const Race *R, int levels, int64_t **order, int64_t *level_start) {
    int64_t next[MAXK * MAXGOAL + 2];
    memset(level_start, 0, (levels + 1) * sizeof(int64_t));
    *order = (int64_t *)malloc(R->N * sizeof(int64_t));
    if (*order == NULL) return 0;
    for (int pass = 0; pass < 2; pass++) {                      /* count the boards of each level, then place them */
        for (int L = 0; L <= levels; L++) next[L] = level_start[L];
        for (int64_t x = 0; x < R->N; x++) {
            if (R->complete[x]) continue;
            int level = 0;
            for (int j = 0; j < R->k; j++) level += (int)row_steps(R, x, j);
            if (pass == 0) level_start[level + 1]++;
            else (*order)[next[level]++] = x;
        }
        for (int L = 0; pass == 0 && L < levels; L++) level_start[L + 1] += level_start[L];
    }
    const int64_t open = level_start[levels];
    for (int64_t p = 0; p < open; p++)
        if (R->position[(*order)[p]] != p) return -1;
    for (int64_t x = 0; x < R->N; x++)
        if (R->complete[x] && (R->position[x] < open || R->position[x] >= R->N)) return -1;
    return 1;
}

/* Order the open boards of both sets by progress and list the plan; 0 when out of memory, -1
 * when the tables' positions are not that order (the complete boards after it). */
static int make_plan(Plan *P) {
    const int levels = P->RA->k * P->RA->goal + 1;
    int64_t level_a[MAXK * MAXGOAL + 2], level_b[MAXK * MAXGOAL + 2];
    int ordered = order_boards(P->RA, levels, &P->order_a, level_a);
    if (ordered != 1) return ordered;
    if (P->RB == P->RA) {
        P->order_b = P->order_a;
        memcpy(level_b, level_a, sizeof(level_a));
    } else if ((ordered = order_boards(P->RB, levels, &P->order_b, level_b)) != 1) {
        return ordered;
    }
    Lister count = {P, 0, 0, 0, 0};
    list_plan(&count, level_a, level_b, levels);
    P->ntiles = count.tiles;
    P->units = count.units;
    P->phases = (int)count.phases;
    P->tiles = (Tile *)malloc((P->ntiles + 1) * sizeof(Tile));
    P->unit_start = (int64_t *)malloc((P->units + 1) * sizeof(int64_t));
    P->phase_start = (int64_t *)malloc((P->phases + 1) * sizeof(int64_t));
    P->stats = P->count ? (double *)calloc(P->ntiles * 4 + 1, sizeof(double)) : NULL;
    P->taken = (int64_t *)calloc(P->phases + 1, sizeof(int64_t));
    P->arrived = (int64_t *)calloc(P->phases + 1, sizeof(int64_t));
    if (!P->tiles || !P->unit_start || !P->phase_start || (P->count && !P->stats) || !P->taken || !P->arrived)
        return 0;
    Lister fill = {P, 1, 0, 0, 0};
    list_plan(&fill, level_a, level_b, levels);
    return 1;
}

static void plan_free(Plan *P) {
    if (P->order_b != P->order_a) free(P->order_b);
    free(P->order_a);
    free(P->tiles);
    free(P->unit_start);
    free(P->phase_start);
    free(P->stats);
    free(P->taken);
    free(P->arrived);
}

typedef struct {
    Plan *plan;
    int index;
    Work *W;
    LaneWork *LW;
    Counts C;
    int ok;
} Worker;

/* Wait until every running thread is done with the phase. */
static void wait_for_all(Plan *P, int phase) {
    __atomic_add_fetch(&P->arrived[phase], 1, __ATOMIC_ACQ_REL);
    int spins = 0;
    while (__atomic_load_n(&P->arrived[phase], __ATOMIC_ACQUIRE) < __atomic_load_n(&P->running, __ATOMIC_ACQUIRE))
        if (++spins > 64) sched_yield();
}

/* The threads take the units of each phase in turn, then wait for each other. */
static void *solve_tiles(void *arg) {
    Worker *K = (Worker *)arg;
    Plan *P = K->plan;
    K->ok = 1;
    for (int phase = 0; phase < P->phases; phase++) {
        for (;;) {
            int64_t u = P->phase_start[phase] + __atomic_fetch_add(&P->taken[phase], 1, __ATOMIC_RELAXED);
            if (u >= P->phase_start[phase + 1] || __atomic_load_n(&P->failed, __ATOMIC_RELAXED)) break;
            for (int64_t t = P->unit_start[u]; t < P->unit_start[u + 1] && K->ok; t++) {
                K->C.stats = P->count ? &P->stats[t * 4] : NULL;
                if (!solve_tile(P, K->W, K->LW, &P->tiles[t], &K->C)) {
                    __atomic_store_n(&P->failed, 1, __ATOMIC_RELAXED);
                    K->ok = 0;
                }
            }
        }
        wait_for_all(P, phase);
    }
    return NULL;
}

/* Run the plan on its threads, the counts of every thread added into C (the examples of
 * thread 0 kept in C's arrays, the others' merged into them; the tiles' stats added in tile
 * order). Returns 1, 0 when a pair did not converge, -1 when out of memory or threads. */
static int solve_pairs(Plan *P, Counts *C) {
    const int n = P->threads;
    const int64_t kept = C->examples;
    double *stats = C->stats;
    Worker *workers = (Worker *)calloc(n, sizeof(Worker));
    double *ex = (double *)calloc((size_t)n * 3 * kept, sizeof(double));
    int64_t *info = (int64_t *)calloc((size_t)n * 6 * kept, sizeof(int64_t));
    pthread_t *ids = (pthread_t *)calloc(n, sizeof(pthread_t));
    int result = workers && ex && info && ids ? 1 : -1;
    for (int t = 0; t < n && result == 1; t++) {
        Worker *K = &workers[t];
        K->plan = P;
        K->index = t;
        K->W = (Work *)calloc(1, sizeof(Work));
        K->LW = lane_work_new();
        K->C = *C;
        if (t > 0) {                                            /* thread 0 keeps its examples in C's arrays */
            K->C.ex_loss = &ex[(size_t)t * 3 * kept];
            K->C.ex_value = &ex[(size_t)t * 3 * kept + kept];
            K->C.ex_info = &info[(size_t)t * 6 * kept];
            for (int64_t i = 0; i < kept; i++) K->C.ex_loss[i] = -1.0;
        }
        if (K->W == NULL || K->LW == NULL) result = -1;
    }
    P->running = n;
    int started = 0;
    while (result == 1 && started + 1 < n) {
        if (pthread_create(&ids[started + 1], NULL, solve_tiles, &workers[started + 1]) != 0) {
            __atomic_store_n(&P->failed, 1, __ATOMIC_RELAXED);   /* the threads started stop */
            __atomic_store_n(&P->running, started + 1, __ATOMIC_RELEASE);
            result = -1;
            break;
        }
        started++;
    }
    if (started > 0 || result == 1) solve_tiles(&workers[0]);  /* thread 0 waits with the others */
    for (int t = 1; t <= started; t++) pthread_join(ids[t], NULL);
    for (int t = 0; t < n && result == 1; t++) {
        const Counts *K = &workers[t].C;
        if (!workers[t].ok) result = 0;
        C->newton_steps += K->newton_steps;
        C->systems += K->systems;
        for (int64_t i = 0; t > 0 && i < kept; i++)
            if (K->ex_loss[i] > 0.0) keep_example(C, K->ex_loss[i], &K->ex_info[i * 6], &K->ex_value[i * 2]);
    }
    for (int64_t t = 0; P->stats != NULL && t < P->ntiles && result == 1; t++)
        for (int i = 0; i < 4; i++) stats[i] += P->stats[t * 4 + i];
    for (int t = 0; workers != NULL && t < n; t++) {
        free(workers[t].W);
        if (workers[t].LW != NULL) lane_work_free(workers[t].LW);
    }
    free(workers);
    free(ex);
    free(info);
    free(ids);
    return result;
}

/* ------------------------------------------------------------------------------------ */
/* The coefficients' terms and the merged groups.                                         */

/* Fill R->term_start and R->terms; 0 when out of memory. */
static int list_terms(Race *R) {
    const int goal = R->goal;
    const int64_t rows = (int64_t)R->k * (goal + 1) * (R->dice + 1) * R->T * (R->dice + 1);
    R->term_start = (int64_t *)malloc((rows + 1) * sizeof(int64_t));
    R->terms = (uint8_t *)malloc(rows * goal + 1);
    if (R->term_start == NULL || R->terms == NULL) return 0;
    int64_t n = 0;
    for (int64_t row = 0; row < rows; row++) {
        const int64_t first = row - row % (R->dice + 1);        /* h = 0 of the same [j, need, d, ta] */
        R->term_start[row] = n;
        for (int c = 1; c <= goal; c++) {
            int used = 0;
            for (int64_t h = row == first ? first : row; h <= (row == first ? first + R->dice : row); h++)
                used |= R->coef[h * R->ncol + c] != 0.0 || R->coef[h * R->ncol + goal + c] != 0.0;
            if (used) R->terms[n++] = (uint8_t)c;
        }
    }
    R->term_start[rows] = n;
    return 1;
}

static void merged_free(Merged *M);

static void race_free(Race *R) {
    free(R->term_start);
    free(R->terms);
    R->term_start = NULL;
    R->terms = NULL;
    merged_free(&R->merged);
}


static void merged_free(Merged *M) {
    free(M->start);
    free(M->p);
    free(M->first);
    free(M->entry_start);
    free(M->entry);
    free(M->idx);
    free(M->open);
    memset(M, 0, sizeof(*M));
}

/* Fill R->merged (see Merged) for the sets of open rows R's boards have (the others' cells
 * empty); 0 when out of memory. */
static int merge_groups(Race *R) {
    Merged *M = &R->merged;
    const int nmask = 1 << R->k;
    M->nmask = nmask;
    M->open = (uint16_t *)malloc(R->N * sizeof(uint16_t));
    uint8_t *present = (uint8_t *)calloc(nmask, 1);
    if (M->open == NULL || present == NULL) {
        free(present);
        merged_free(M);
        return 0;
    }
    int64_t masks = 0;
    for (int64_t x = 0; x < R->N; x++) {
        unsigned open = 0;
        for (int j = 0; j < R->k; j++)
            if (row_steps(R, x, j) < R->goal) open |= 1u << j;
        M->open[x] = (uint16_t)open;
        masks += !present[open];
        present[open] = 1;
    }
    const int64_t cells = (int64_t)(R->dice + 1) * nmask, most = R->groups * masks;
    const int64_t entries = R->entry_start[R->groups] * masks;
    M->start = (int64_t *)malloc((cells + 1) * sizeof(int64_t));
    M->p = (double *)malloc((most + 1) * sizeof(double));
    M->first = (int64_t *)malloc((most + 1) * sizeof(int64_t));
    M->entry_start = (int64_t *)malloc((most + 1) * sizeof(int64_t));
    M->entry = (int64_t *)malloc((entries + 1) * sizeof(int64_t));
    M->idx = (int64_t *)malloc((entries + 1) * sizeof(int64_t));
    if (!M->start || !M->p || !M->first || !M->entry_start || !M->entry || !M->idx) {
        free(present);
        merged_free(M);
        return 0;
    }
    int64_t m = 0, n = 0;
    M->entry_start[0] = 0;
    for (int d = 0; d <= R->dice; d++) {
        for (int mask = 0; mask < nmask; mask++) {
            int64_t begin = m;
            M->start[d * nmask + mask] = m;
            if (!present[mask]) continue;
            for (int64_t g = R->group_start[d]; g < R->group_start[d + 1]; g++) {
                int64_t kept[MAXK];
                int len = 0;
                for (int64_t e = R->entry_start[g]; e < R->entry_start[g + 1]; e++)
                    if (mask >> (R->entry_idx[e] / R->HM) & 1) kept[len++] = e;
                int64_t same = -1;
                for (int64_t q = begin; q < m && same < 0; q++)
                    if (M->entry_start[q + 1] - M->entry_start[q] == len &&
                        memcmp(&M->entry[M->entry_start[q]], kept, len * sizeof(int64_t)) == 0)
                        same = q;
                if (same >= 0) {
                    M->p[same] += R->group_p[g];
                    continue;
                }
                M->p[m] = R->group_p[g];
                M->first[m] = g;
                for (int i = 0; i < len; i++) {
                    M->entry[n] = kept[i];
                    M->idx[n++] = R->entry_idx[kept[i]];
                }
                M->entry_start[++m] = n;
            }
        }
    }
    M->start[cells] = m;
    free(present);
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Python interface.                                                                      */

/* The buffers of kernel_tables, in the order of race_solver.C_FIELDS. */
enum { DIGITS, COMPLETE, STRIDES, PER_HIT, COEF, REACH, GROUP_START, GROUP_P, ENTRY_START, ENTRY_IDX, SOLO, RP,
       POSITION, NBUF };

typedef struct {
    Py_buffer b[NBUF];
} Geometry;

static void release(Py_buffer *b, int n) {
    for (int i = 0; i < n; i++)
        if (b[i].obj != NULL) PyBuffer_Release(&b[i]);
}

static int parse_geometry(PyObject *tuple, Geometry *G) {
    memset(G, 0, sizeof(*G));
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != NBUF) {
        PyErr_SetString(PyExc_TypeError, "the race tables are a tuple of 13 arrays (race_solver.C_FIELDS)");
        return 0;
    }
    for (int i = 0; i < NBUF; i++) {
        int flags = i == SOLO ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tuple, i), &G->b[i], flags) < 0) {
            release(G->b, i);
            return 0;
        }
    }
    return 1;
}

/* Fill R from the buffers and shape = (N, k, goal, dice, T); 0 with ValueError if they do
 * not fit together. */
static int read_race(Race *R, const Geometry *G, int64_t N, int k, int goal, int dice, int T) {
    const Py_buffer *b = G->b;
    memset(R, 0, sizeof(*R));
    if (k < 1 || k > MAXK || goal < 1 || goal > MAXGOAL || dice < 1 || dice > MAXHM - 1 || T < 1 || T >= MAXT ||
        N < 1)
        goto bad;
    R->N = N;
    R->k = k;
    R->goal = goal;
    R->dice = dice;
    R->T = T;
    R->HM = dice + 1;
    R->ncol = 2 * goal + T;
    R->groups = b[GROUP_P].len / 8;
    if (b[DIGITS].len != N * k * 8 || b[COMPLETE].len != N || b[STRIDES].len != k * 8 || b[PER_HIT].len != k * 8 ||
        b[COEF].len != (Py_ssize_t)k * (goal + 1) * (dice + 1) * T * (dice + 1) * R->ncol * 8 ||
        b[REACH].len != (Py_ssize_t)k * (goal + 1) * (dice + 1) * T * T || b[GROUP_START].len != (dice + 2) * 8 ||
        b[ENTRY_START].len != (R->groups + 1) * 8 || (b[SOLO].len != 0 && b[SOLO].len != N * T * R->groups * 4) ||
        b[RP].len != N * 8 || b[POSITION].len != N * 8)
        goto bad;
    R->digits = (const int64_t *)b[DIGITS].buf;
    R->complete = (const uint8_t *)b[COMPLETE].buf;
    for (int j = 0; j < k; j++) {
        R->stride[j] = ((const int64_t *)b[STRIDES].buf)[j];
        R->per_hit[j] = (int)((const int64_t *)b[PER_HIT].buf)[j];
        if (R->per_hit[j] < 1) goto bad;
    }
    R->coef = (const double *)b[COEF].buf;
    R->reach = (const uint8_t *)b[REACH].buf;
    R->group_start = (const int64_t *)b[GROUP_START].buf;
    R->group_p = (const double *)b[GROUP_P].buf;
    R->entry_start = (const int64_t *)b[ENTRY_START].buf;
    R->entry_idx = (const int64_t *)b[ENTRY_IDX].buf;
    R->solo = b[SOLO].len ? (int32_t *)b[SOLO].buf : NULL;    /* empty: no choice reads the solo table */
    R->RP = (const double *)b[RP].buf;
    R->position = (const int64_t *)b[POSITION].buf;
    R->opp_N = N;                                               /* one set of boards until solve_pairs pairs two */
    R->opp_position = R->position;
    R->opp_RP = R->RP;
    if (R->group_start[0] != 0 || R->group_start[dice + 1] != R->groups ||
        R->entry_start[R->groups] != b[ENTRY_IDX].len / 8)
        goto bad;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "inconsistent race kernel tables");
    return 0;
}

/* solo_tables(tables, shape, E, CE): fills tables' solo and CE (see solo_tables). */
static PyObject *py_solo_tables(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tuple;
    long long N;
    int k, goal, dice, T;
    Py_buffer E = {0}, CE = {0};
    if (!PyArg_ParseTuple(args, "O(Liiii)y*w*", &tuple, &N, &k, &goal, &dice, &T, &E, &CE)) return NULL;
    Geometry G;
    Race R;
    int ok = parse_geometry(tuple, &G);
    if (ok) {
        ok = read_race(&R, &G, N, k, goal, dice, T);
        if (ok && (E.len != N * 8 || CE.len != N * (dice + 1) * (T + 1) * 8 || R.solo == NULL)) {
            PyErr_SetString(PyExc_ValueError, "E is [N], CE is [N, dice + 1, T + 1], solo [N, T, groups]");
            ok = 0;
        }
        Work *W = ok ? (Work *)calloc(1, sizeof(Work)) : NULL;
        if (ok && (W == NULL || !list_terms(&R))) {
            PyErr_NoMemory();
            ok = 0;
        }
        if (ok) {
            Py_BEGIN_ALLOW_THREADS
            solo_tables(&R, W, (const double *)E.buf, (double *)CE.buf);
            Py_END_ALLOW_THREADS
        }
        free(W);
        race_free(&R);
        release(G.b, NBUF);
    }
    PyBuffer_Release(&E);
    PyBuffer_Release(&CE);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* solve_pairs(tables_a, shape_a, tables_b, shape_b, (V1, V2, V1T, V2T),
 *             (race1, race2, symmetric, pegs, count), stats, ex_loss, ex_info, ex_value, threads)
 *   -> (newton_steps, systems)
 * The first mover's boards are those of tables_a (NA of them), the second's those of tables_b
 * (NB; the same object: one set of boards, NA = NB = N), both on the same open rows: V1 and V2T
 * NA x NB, V2 and V1T NB x NA. Symmetric (V1 and V2 the same arrays) needs one set. */
static PyObject *py_solve_pairs(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tuple_a, *tuple_b;
    long long NA, NB;
    int k, goal, dice, T, kb, goal_b, dice_b, T_b, race1, race2, symmetric, pegs, count, threads;
    Py_buffer buf[8];
    memset(buf, 0, sizeof(buf));
    if (!PyArg_ParseTuple(args, "O(Liiii)O(Liiii)(w*w*w*w*)(ppppp)w*w*w*w*i", &tuple_a, &NA, &k, &goal, &dice, &T,
                          &tuple_b, &NB, &kb, &goal_b, &dice_b, &T_b, &buf[0], &buf[1], &buf[2], &buf[3], &race1,
                          &race2, &symmetric, &pegs, &count, &buf[4], &buf[5], &buf[6], &buf[7], &threads))
        return NULL;
    const int one = tuple_b == tuple_a;
    Geometry GA, GB;
    Race RA, RB;
    memset(&RB, 0, sizeof(RB));
    int ok = parse_geometry(tuple_a, &GA), got_b = 0, result = 1;
    Counts C = {0};
    if (ok && !one) ok = got_b = parse_geometry(tuple_b, &GB);
    if (ok) {
        ok = read_race(&RA, &GA, NA, k, goal, dice, T) && (one || read_race(&RB, &GB, NB, kb, goal_b, dice_b, T_b));
        if (ok && !one && (kb != k || goal_b != goal || dice_b != dice || T_b != T || symmetric)) {
            PyErr_SetString(PyExc_ValueError, "two sets of boards need the same rows and rules, and two tables");
            ok = 0;
        }
        if (ok && one && NB != NA) ok = 0;
        if (ok && (!race1 || !race2 || count) && (RA.solo == NULL || (!one && RB.solo == NULL))) {
            PyErr_SetString(PyExc_ValueError, "a solo policy or the counts read the solo tables: they are empty");
            ok = 0;
        }
        if (ok && !one) {
            RA.opp_N = RB.N;
            RA.opp_position = RB.position;
            RA.opp_RP = RB.RP;
            RB.opp_N = RA.N;
            RB.opp_position = RA.position;
            RB.opp_RP = RA.RP;
        }
        int64_t examples = buf[5].len / 8;
        for (int i = 0; ok && i < 4; i++)
            if (buf[i].len != NA * NB * 8) ok = 0;
        if (ok && (buf[4].len != 4 * 8 || examples < 1 || buf[6].len != examples * 6 * 8 ||
                   buf[7].len != examples * 2 * 8 || threads < 1 || threads > 256))
            ok = 0;
        if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad race tables, counts or threads");
        Tables V = {(double *)buf[0].buf, (double *)buf[1].buf, (double *)buf[2].buf, (double *)buf[3].buf};
        const Race *second = one ? &RA : &RB;
        Plan P = {&RA, second, &V, race1, race2, symmetric, pegs, count, threads};
        int planned = ok && list_terms(&RA) && merge_groups(&RA) && (one || (list_terms(&RB) && merge_groups(&RB)))
                          ? make_plan(&P) : 0;
        if (ok && planned < 0) PyErr_SetString(PyExc_ValueError, "the race tables' positions are not the boards' order");
        else if (ok && planned == 0) PyErr_NoMemory();
        ok = ok && planned > 0;
        if (ok) {
            C.stats = (double *)buf[4].buf;
            C.ex_loss = (double *)buf[5].buf;
            C.ex_info = (int64_t *)buf[6].buf;
            C.ex_value = (double *)buf[7].buf;
            C.examples = examples;
            Py_BEGIN_ALLOW_THREADS
            result = solve_pairs(&P, &C);
            Py_END_ALLOW_THREADS
        }
        plan_free(&P);
        race_free(&RA);
        if (!one) race_free(&RB);
    }
    release(GA.b, NBUF);
    if (got_b) release(GB.b, NBUF);
    release(buf, 8);
    if (!ok) return NULL;
    if (result < 0) return PyErr_NoMemory();
    if (result == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the race equations of a pair did not converge");
        return NULL;
    }
    return Py_BuildValue("LL", (long long)C.newton_steps, (long long)C.systems);
}

/* simd(): the name of the lane code path in use. */
static PyObject *py_simd(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyUnicode_FromString(lanes->name);
}

static PyMethodDef methods[] = {
    {"solo_tables", py_solo_tables, METH_VARARGS, "Solo-optimal choices and PEGS-7 expected turns."},
    {"solve_pairs", py_solve_pairs, METH_VARARGS, "Solve the race pairs of every open board."},
    {"simd", py_simd, METH_NOARGS, "The lane code path in use (avx512, avx2 or scalar), chosen at import."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_race_c",
                                    "The compiled two-player race (see race_solver.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* The lane path (choose_path); PATHS: the names of the paths this CPU runs, fastest first. */
PyMODINIT_FUNC PyInit__race_c(void) {
    PyObject *names = NULL;
    lanes = choose_path(paths, sizeof(paths) / sizeof(paths[0]), sizeof(paths[0]), &names);
    if (lanes == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL || PyModule_AddObject(m, "PATHS", names) < 0) {
        Py_XDECREF(names);
        Py_XDECREF(m);
        return NULL;
    }
    return m;
}
