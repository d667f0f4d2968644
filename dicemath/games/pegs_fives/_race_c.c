/* The compiled two-player race, Pegs and Fives (docs/rules.md PEGS-1..9, FIVES-1..7),
 * float64, built at install time. race_solver.py explains the equations (its module
 * docstring); this file only walks the tables.
 *
 * Boards are indices of fullboard.layout.BoardLayout (N boards); a pair's value is
 * V[mover * N + opponent] in an N x N float64 table, kept with its transpose
 * (VT[opponent * N + mover], the same numbers). The rules enter through tables the Python
 * side builds from the engine (race_solver.kernel_tables):
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
 * Order (solve_lo_passes): the lower board index lo from the highest down and, for each, hi
 * from the highest down to lo; a pair reads only pairs whose boards are both at least as far
 * on, one further, so they are final. Both (hi, lo) and (lo, hi) are solved there, with their
 * mirrors. A side whose opponent is lo (fixed while hi runs) reads its leaves along rows of
 * the tables; a side whose mover is lo reads them along rows of the transposes (the column
 * of the opponent hi), so that consecutive pairs read neighbouring memory. Threads take the
 * passes of lo in turn, each waiting for the passes above it to be done down to its hi. Each
 * pair starts Newton's method from the neighbours' extrapolation V[a + 1, b] + V[a, b + 1] -
 * V[a + 1, b + 1] (the bracket's middle when a neighbour is complete) and is done when the
 * step stays inside both sides' radius of linearity (evaluate): every value is the same
 * whatever the threads, and so are the counts (summed per pass of lo, then in order).
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

#define BIG 1e300               /* minus the value of a complete row's option */
#define TIE 1e-12               /* relative tolerance of equal options (race_solver.TIE) */
#define MAXK 8                  /* open rows */
#define MAXHM 7                 /* hits 0..dice per row */
#define MAXT 4                  /* throw budget T (kernel_tables allows PEGS-7 throws for T <= 3) */
#define MAXGOAL 12
#define ROWS 10                 /* work rows: 1..dice the PEGS-7 throws, dice + 2 and dice + 3 the sides */
#define MEMO_BITS 16            /* slots of the memo of PEGS-7 choice-throw values */

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
    Merged merged;              /* the groups as each set of open rows sees them (merge_groups) */
    /* The steps c of each coefficient row [j, need, d, ta, h] whose ending or fresh start has a
     * chance (h = 0: those of any h), terms[term_start[row] .. term_start[row + 1]] (list_terms;
     * most coefficients are 0). */
    int64_t *term_start;
    uint8_t *terms;
} Race;

/* The work space of one thread: per work row the options' stays and rests, the PEGS-7 values
 * following each row going in [j][t2], and the leaf values [ending or fresh start][steps]. */
typedef struct {
    double S[ROWS][MAXK * MAXHM], R[ROWS][MAXK * MAXHM];
    double PN[ROWS][MAXK][MAXT];
    double E[ROWS][2][MAXGOAL + 1];
    int64_t *memo_key;
    double *memo_value;
} Work;

static Work *work_new(void) {
    Work *W = (Work *)calloc(1, sizeof(Work));
    if (W == NULL) return NULL;
    W->memo_key = (int64_t *)malloc(sizeof(int64_t) << MEMO_BITS);
    W->memo_value = (double *)malloc(sizeof(double) << MEMO_BITS);
    if (W->memo_key == NULL || W->memo_value == NULL) {
        free(W->memo_key);
        free(W->memo_value);
        free(W);
        return NULL;
    }
    for (size_t i = 0; i < ((size_t)1 << MEMO_BITS); i++) W->memo_key[i] = -1;
    return W;
}

static void work_free(Work *W) {
    free(W->memo_key);
    free(W->memo_value);
    free(W);
}

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

/* The value of a choice throw of d dice whose turn-ending-here is worth here: per throw group
 * the best option (race) or the solo table's, here when no row is legal. */
static double choice_value(const Race *R, const Work *W, double here, int race, int64_t x, int d, int t, int row) {
    const Merged *M = &R->merged;
    const double *S = W->S[row], *OR = W->R[row];
    const int64_t cell = d * M->nmask + M->open[x];
    double total = 0.0;
    for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
        if (race) {
            double best = -BIG;
            for (int64_t e = M->entry_start[m]; e < M->entry_start[m + 1]; e++) {
                int64_t i = M->idx[e];
                double v = S[i] * here + OR[i];
                if (v > best) best = v;
            }
            total += M->p[m] * (best > -BIG ? best : here);
        } else {
            int32_t e = R->solo[(x * R->T + t - 1) * R->groups + M->first[m]];
            if (e < 0) {
                total += M->p[m] * here;
            } else {
                int64_t i = R->entry_idx[e];
                total += M->p[m] * (S[i] * here + OR[i]);
            }
        }
    }
    return total;
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
/* PEGS-7 choice throws inside a race turn.                                               */

/* One side of a pair: mover x against opponent y, his policy (race: play to win, else the
 * solo table) and the leaves he reads; ctx names his tables in the memo (0 or 1). */
typedef struct {
    int64_t x, y;
    int race, ctx;
    Leaves leaves;
} Side;

static inline int64_t memo_key(const Race *R, const Side *side, int64_t x, int d, int t) {
    return (((x * R->N + side->y) * 8 + d) * 8 + t) * 2 + side->ctx;
}

static inline size_t memo_slot(int64_t key) {
    return (size_t)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - MEMO_BITS));
}

/* The mover's race value of a PEGS-7 choice throw of d dice with one throw left on board x:
 * no PEGS-7 throw can follow it; the choice by his policy, a throw with no legal row ending
 * the turn on x. Memoised: it reads only final pairs. */
static double last_throw_value(const Race *R, Work *W, const Side *side, int64_t x, int d, int depth) {
    int64_t key = memo_key(R, side, x, d, 1);
    size_t slot = memo_slot(key);
    if (W->memo_key[slot] == key) return W->memo_value[slot];
    for (int j = 0; j < R->k; j++)
        for (int t2 = 0; t2 < R->T; t2++) W->PN[depth][j][t2] = 0.0;
    const Leaves *L = &side->leaves;
    fill_options(R, W, x, d, 1, L, depth);
    double total = choice_value(R, W, L->es * at(L->end, L->y, x) + L->eo, side->race, x, d, 1, depth);
    W->memo_key[slot] = key;
    W->memo_value[slot] = total;
    return total;
}

/* As last_throw_value with two throws left: a row going in on this choice throw with dice
 * left is followed by a PEGS-7 choice throw with one throw left. (Only the rules' three
 * throws, PEGS-3, are compiled: race_solver.kernel_tables checks.) */
static double two_throws_value(const Race *R, Work *W, const Side *side, int64_t x, int d, int depth) {
    int64_t key = memo_key(R, side, x, d, 2);
    size_t slot = memo_slot(key);
    if (W->memo_key[slot] == key) return W->memo_value[slot];
    const Leaves *L = &side->leaves;
    for (int j = 0; j < R->k; j++) {
        for (int t2 = 0; t2 < R->T; t2++) W->PN[depth][j][t2] = 0.0;
        int64_t s = row_steps(R, x, j);
        if (s >= R->goal) continue;
        int need = R->goal - (int)s;
        int d2 = d - R->per_hit[j] * need;
        int64_t xin = x + need * R->stride[j];
        if (reaches(R, j, need, d, 1, 1)) {
            if (R->complete[xin]) W->PN[depth][j][1] = L->term;
            else if (d2 >= 1) W->PN[depth][j][1] = last_throw_value(R, W, side, xin, d2, depth + 1);
        }
    }
    fill_options(R, W, x, d, 2, L, depth);
    double total = choice_value(R, W, L->es * at(L->end, L->y, x) + L->eo, side->race, x, d, 2, depth);
    W->memo_key[slot] = key;
    W->memo_value[slot] = total;
    return total;
}

/* Fill W->S[row], W->R[row] for the options of the first choice throw of the side's turn. */
static void fill_side(const Race *R, Work *W, const Side *side, int row) {
    const int goal = R->goal, dice = R->dice, T = R->T;
    const int64_t x = side->x;
    for (int j = 0; j < R->k; j++) {
        int64_t s = row_steps(R, x, j);
        if (s >= goal) continue;
        int need = goal - (int)s;
        int d2 = dice - R->per_hit[j] * need;
        int64_t xin = x + need * R->stride[j];
        for (int t2 = 1; t2 < T; t2++) {
            double v = 0.0;
            if (reaches(R, j, need, dice, T - 1, t2)) {
                if (R->complete[xin]) v = side->leaves.term;
                else if (d2 >= 1 && t2 == 1) v = last_throw_value(R, W, side, xin, d2, 1);
                else if (d2 >= 1) v = two_throws_value(R, W, side, xin, d2, 1);
            }
            W->PN[row][j][t2] = v;
        }
    }
    fill_options(R, W, x, dice, T, &side->leaves, row);
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

/* Add the turn-start choices of mover x against y (race play, X solved, options in row) to
 * the counts: chances summed over pairs (invariant under how throws are grouped); keep the
 * largest losses. */
static void count_choices(const Race *R, const Work *W, int64_t x, int64_t y, double X, int row, Counts *C) {
    const Merged *M = &R->merged;
    const double *S = W->S[row], *OR = W->R[row];
    const int T = R->T;
    const int64_t cell = R->dice * M->nmask + M->open[x];
    int differs = 0;
    for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
        if (M->entry_start[m + 1] - M->entry_start[m] < 2) continue;
        double best = 0.0;
        int64_t race_e = -1;
        for (int64_t e = M->entry_start[m]; e < M->entry_start[m + 1]; e++) {
            int64_t i = M->idx[e];
            double v = S[i] * X + OR[i];
            if (race_e < 0 || v > best) {
                best = v;
                race_e = M->entry[e];
            }
        }
        C->stats[0] += M->p[m];
        int32_t e = R->solo[(x * T + T - 1) * R->groups + M->first[m]];
        int64_t i = R->entry_idx[e];
        double value = S[i] * X + OR[i];
        if (value < best - TIE * (1.0 + fabs(best))) {
            differs = 1;
            C->stats[1] += M->p[m];
            int64_t info[5] = {x, y, M->first[m], race_e, e};
            double values[2] = {best, value};
            keep_example(C, best - value, info, values);
        }
    }
    C->stats[2] += 1.0;
    if (differs) C->stats[3] += 1.0;
}

/* ------------------------------------------------------------------------------------ */
/* The pairs.                                                                             */

/* The four tables: A the first mover's policy to move (TA[a * N + b]), B the second's, and
 * their transposes (the same arrays when both play one policy). */
typedef struct {
    double *A, *B, *AT, *BT;
} Tables;

static inline double mirror(double v, int pegs) { return pegs ? 1.0 - v : -v; }

/* The side of mover x against y with his own table OWN (and its transpose OWNT) and the
 * opponent's OPP (OPPT): leaves along rows of OPP and OWNT when y <= x (y is the loop's lo),
 * else along rows of OPPT and OWN. */
static Side make_side(const Race *R, int64_t x, int64_t y, int race, int ctx, int pegs, const double *own,
                      const double *ownT, const double *opp, const double *oppT) {
    const int64_t N = R->N;
    Side side = {x, y, race, ctx, {{0}, {0}, y, -1.0, pegs ? 1.0 : 0.0, 0.0, pegs ? 1.0 : R->RP[y]}};
    if (y <= x) {
        side.leaves.end = (View){opp, N, 1};
        side.leaves.restart = (View){ownT, N, 1};
    } else {
        side.leaves.end = (View){oppT, 1, N};
        side.leaves.restart = (View){own, 1, N};
    }
    return side;
}

/* Solve TA[a, b] (mover a) and TB[b, a] together: Newton's method on the active pieces of
 * u = F_a(m(F_b(m(u)))) inside a bracket, from guess; done when the step stays within both
 * sides' radius of linearity (or is below rounding). Returns 0 when it did not converge. */
static int solve_system(const Race *R, Work *W, const Tables *V, int64_t a, int64_t b, int race_a, int race_b,
                        int ctx_b, int pegs, double guess, Counts *C) {
    const int64_t N = R->N;
    const int row_a = R->dice + 2, row_b = R->dice + 3;
    Side side_a = make_side(R, a, b, race_a, 0, pegs, V->A, V->AT, V->B, V->BT);
    Side side_b = make_side(R, b, a, race_b, ctx_b, pegs, V->B, V->BT, V->A, V->AT);
    fill_side(R, W, &side_a, row_a);
    fill_side(R, W, &side_b, row_b);
    double lo = pegs ? -1.0 : -R->RP[a] - 1.0, hi = pegs ? 2.0 : R->RP[b] + 1.0;
    double u = (lo < guess && guess < hi) ? guess : 0.5 * (lo + hi);
    double w = 0.0;
    int done = 0;
    for (int step = 0; step < 500; step++) {
        C->newton_steps++;
        double Y = mirror(u, pegs);
        Piece fb = evaluate(R, W, Y, race_b, b, row_b);
        w = fb.value;
        double X = mirror(w, pegs);
        Piece fa = evaluate(R, W, X, race_a, a, row_a);
        double h = fa.value;
        double phi = u - h;
        if (phi == 0.0) {
            done = 1;
            break;
        }
        if (phi < 0.0) lo = u;
        else hi = u;
        double slope = fa.slope * fb.slope;
        double next = 0.5 * (lo + hi);
        if (slope < 1.0) {
            double newton = (h - slope * u) / (1.0 - slope);
            if (lo <= newton && newton <= hi) {
                next = newton;
                double w_next = w + fb.slope * (mirror(next, pegs) - Y);
                if (fabs(next - u) < fb.radius && fabs(mirror(w_next, pegs) - X) < fa.radius) {
                    u = next;                                   /* the same pieces: the root itself */
                    w = w_next;
                    done = 1;
                    break;
                }
            }
        }
        if (fabs(next - u) <= 1e-15 * (1.0 + fabs(u))) {
            u = next;
            w = evaluate(R, W, mirror(u, pegs), race_b, b, row_b).value;
            done = 1;
            break;
        }
        u = next;
    }
    if (!done) return 0;
    V->A[a * N + b] = u;
    V->AT[b * N + a] = u;
    V->B[b * N + a] = w;
    V->BT[a * N + b] = w;
    return 1;
}

/* V1[a + 1, b] + V1[a, b + 1] - V1[a + 1, b + 1], read from the transpose when b is the
 * loop's lo (along_b), else from V1 itself: neighbouring memory from one pair to the next. */
static inline double neighbours(const Tables *V, int64_t N, int64_t a, int64_t b, int along_b) {
    if (along_b) return V->AT[b * N + a + 1] + V->AT[(b + 1) * N + a] - V->AT[(b + 1) * N + a + 1];
    return V->A[(a + 1) * N + b] + V->A[a * N + b + 1] - V->A[(a + 1) * N + b + 1];
}

/* A solve of the pairs whose lower board index is in lo_from down to lo_to (inclusive): for
 * each such lo, every hi >= lo from the highest index down (every value a pair reads is then
 * final). V->A is the first mover's policy (race1) to move, V->B the second's (the same
 * arrays when symmetric). With count (both playing to win), the turn-start choices are
 * counted.
 *
 * Threads take the lo in turn (thread t the lo_from - t - n * threads). A pair (hi, lo) reads
 * only pairs of a larger lo at an index hi' >= hi, or of its own lo at hi' > hi; so a thread
 * goes on with (hi, lo) once each of the threads - 1 lo above it has published, in
 * progress[lo'], that it is done down to hi (-1: done). */
typedef struct {
    const Race *R;
    const Tables *V;
    int race1, race2, symmetric, pegs, count, threads;
    int64_t lo_from, lo_to;
    int64_t *progress;          /* [N] the last hi solved in the pass of lo (N: not begun, -1: done) */
    double *sums;               /* [N, 4] the counts' sums of each pass of lo, added in order at the end */
    int failed;                 /* a pair did not converge (or a thread did not start): every thread stops */
} Plan;

typedef struct {
    const Plan *plan;
    int index;
    Work *W;
    Counts C;
    int ok;
} Worker;

/* Wait until the passes of lo + 1 .. lo + threads - 1 are done down to hi; 0 if a thread failed. */
static int wait_for(const Plan *P, int64_t lo, int64_t hi) {
    for (int64_t above = lo + 1; above < lo + P->threads && above <= P->lo_from; above++) {
        int spins = 0;
        while (__atomic_load_n(&P->progress[above], __ATOMIC_ACQUIRE) > hi) {
            if (__atomic_load_n(&P->failed, __ATOMIC_RELAXED)) return 0;
            if (++spins > 64) sched_yield();
        }
    }
    return 1;
}

static void publish(const Plan *P, int64_t lo, int64_t hi) {
    __atomic_store_n(&P->progress[lo], hi, __ATOMIC_RELEASE);
}

static void *solve_lo_passes(void *arg) {
    Worker *K = (Worker *)arg;
    const Plan *P = K->plan;
    const Race *R = P->R;
    const Tables *V = P->V;
    const int64_t N = R->N;
    const int ctx2 = P->symmetric ? 0 : 1;
    K->ok = 1;
    for (int64_t lo = P->lo_from - K->index; lo >= P->lo_to; lo -= P->threads) {
        K->C.stats = &P->sums[lo * 4];
        for (int64_t hi = N - 1; hi >= lo && !R->complete[lo]; hi--) {
            if (R->complete[hi]) continue;
            if (!wait_for(P, lo, hi)) {
                K->ok = 0;
                return NULL;
            }
            int systems = P->symmetric || hi == lo ? 1 : 2;
            for (int system = 0; system < systems; system++) {
                int64_t a = system == 0 ? hi : lo, b = system == 0 ? lo : hi;
                /* Newton's start: the neighbours' extrapolation (NaN when one is complete: the
                 * bracket's middle), the same whatever the threads */
                double start = a + 1 < N && b + 1 < N ? neighbours(V, N, a, b, system == 0) : NAN;
                if (!solve_system(R, K->W, V, a, b, P->race1, P->race2, ctx2, P->pegs, start, &K->C)) {
                    __atomic_store_n((int *)&P->failed, 1, __ATOMIC_RELAXED);   /* the others stop waiting */
                    K->ok = 0;
                    return NULL;
                }
                K->C.systems++;
            }
            if (P->count) {
                count_choices(R, K->W, hi, lo, mirror(V->B[lo * N + hi], P->pegs), R->dice + 2, &K->C);
                if (hi != lo) count_choices(R, K->W, lo, hi, mirror(V->AT[lo * N + hi], P->pegs), R->dice + 3, &K->C);
            }
            publish(P, lo, hi);
        }
        publish(P, lo, -1);
    }
    return NULL;
}

/* Run the plan on its threads, the counts of every thread added into C (the examples of
 * thread 0 kept in C's arrays, the others' merged into them). Returns 1, 0 when a pair did
 * not converge, -1 when out of memory or threads. */
static int solve_pairs(Plan *P, Counts *C) {
    const int n = P->threads;
    const int64_t kept = C->examples;
    Worker *workers = (Worker *)calloc(n, sizeof(Worker));
    double *ex = (double *)calloc((size_t)n * 3 * kept, sizeof(double));
    int64_t *info = (int64_t *)calloc((size_t)n * 6 * kept, sizeof(int64_t));
    pthread_t *ids = (pthread_t *)calloc(n, sizeof(pthread_t));
    int result = workers && ex && info && ids ? 1 : -1;
    for (int t = 0; t < n && result == 1; t++) {
        Worker *K = &workers[t];
        K->plan = P;
        K->index = t;
        K->W = work_new();
        K->C = *C;
        if (t > 0) {                                            /* thread 0 keeps its examples in C's arrays */
            K->C.ex_loss = &ex[(size_t)t * 3 * kept];
            K->C.ex_value = &ex[(size_t)t * 3 * kept + kept];
            K->C.ex_info = &info[(size_t)t * 6 * kept];
            for (int64_t i = 0; i < kept; i++) K->C.ex_loss[i] = -1.0;
        }
        if (K->W == NULL) result = -1;
    }
    int started = 0;
    while (result == 1 && started + 1 < n) {
        if (pthread_create(&ids[started + 1], NULL, solve_lo_passes, &workers[started + 1]) != 0) {
            __atomic_store_n(&P->failed, 1, __ATOMIC_RELAXED);   /* the threads started stop */
            result = -1;
            break;
        }
        started++;
    }
    if (result == 1) solve_lo_passes(&workers[0]);
    for (int t = 1; t <= started; t++) pthread_join(ids[t], NULL);
    for (int t = 0; t < n && result == 1; t++) {
        const Counts *K = &workers[t].C;
        if (!workers[t].ok) result = 0;
        C->newton_steps += K->newton_steps;
        C->systems += K->systems;
        for (int64_t i = 0; t > 0 && i < kept; i++)
            if (K->ex_loss[i] > 0.0) keep_example(C, K->ex_loss[i], &K->ex_info[i * 6], &K->ex_value[i * 2]);
    }
    for (int64_t lo = P->lo_from; lo >= P->lo_to && result == 1; lo--)
        for (int i = 0; i < 4; i++) C->stats[i] += P->sums[lo * 4 + i];
    for (int t = 0; workers != NULL && t < n; t++)
        if (workers[t].W != NULL) work_free(workers[t].W);
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

/* Fill R->merged (see Merged); 0 when out of memory. */
static int merge_groups(Race *R) {
    Merged *M = &R->merged;
    const int nmask = 1 << R->k;
    const int64_t cells = (int64_t)(R->dice + 1) * nmask, most = R->groups * nmask;
    const int64_t entries = R->entry_start[R->groups] * nmask;
    M->nmask = nmask;
    M->start = (int64_t *)malloc((cells + 1) * sizeof(int64_t));
    M->p = (double *)malloc(most * sizeof(double));
    M->first = (int64_t *)malloc(most * sizeof(int64_t));
    M->entry_start = (int64_t *)malloc((most + 1) * sizeof(int64_t));
    M->entry = (int64_t *)malloc((entries + 1) * sizeof(int64_t));
    M->idx = (int64_t *)malloc((entries + 1) * sizeof(int64_t));
    M->open = (uint16_t *)malloc(R->N * sizeof(uint16_t));
    if (!M->start || !M->p || !M->first || !M->entry_start || !M->entry || !M->idx || !M->open) {
        merged_free(M);
        return 0;
    }
    int64_t m = 0, n = 0;
    M->entry_start[0] = 0;
    for (int d = 0; d <= R->dice; d++) {
        for (int mask = 0; mask < nmask; mask++) {
            int64_t begin = m;
            M->start[d * nmask + mask] = m;
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
    for (int64_t x = 0; x < R->N; x++) {
        unsigned open = 0;
        for (int j = 0; j < R->k; j++)
            if (row_steps(R, x, j) < R->goal) open |= 1u << j;
        M->open[x] = (uint16_t)open;
    }
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Python interface.                                                                      */

/* The buffers of kernel_tables, in the order of race_solver.C_FIELDS. */
enum { DIGITS, COMPLETE, STRIDES, PER_HIT, COEF, REACH, GROUP_START, GROUP_P, ENTRY_START, ENTRY_IDX, SOLO, RP,
       NBUF };

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
        PyErr_SetString(PyExc_TypeError, "the race tables are a tuple of 12 arrays (race_solver.C_FIELDS)");
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
        b[ENTRY_START].len != (R->groups + 1) * 8 || b[SOLO].len != N * T * R->groups * 4 || b[RP].len != N * 8)
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
    R->solo = (int32_t *)b[SOLO].buf;
    R->RP = (const double *)b[RP].buf;
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
        if (ok && (E.len != N * 8 || CE.len != N * (dice + 1) * (T + 1) * 8)) {
            PyErr_SetString(PyExc_ValueError, "E is [N], CE is [N, dice + 1, T + 1]");
            ok = 0;
        }
        Work *W = ok ? work_new() : NULL;
        if (ok && (W == NULL || !list_terms(&R))) {
            PyErr_NoMemory();
            ok = 0;
        }
        if (ok) {
            Py_BEGIN_ALLOW_THREADS
            solo_tables(&R, W, (const double *)E.buf, (double *)CE.buf);
            Py_END_ALLOW_THREADS
        }
        if (W != NULL) work_free(W);
        race_free(&R);
        release(G.b, NBUF);
    }
    PyBuffer_Release(&E);
    PyBuffer_Release(&CE);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

/* solve_pairs(tables, shape, (V1, V2, V1T, V2T), (race1, race2, symmetric, pegs, count),
 *             stats, ex_loss, ex_info, ex_value, lo_from, lo_to, threads) -> (newton_steps, systems) */
static PyObject *py_solve_pairs(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *tuple;
    long long N, lo_from, lo_to;
    int k, goal, dice, T, race1, race2, symmetric, pegs, count, threads;
    Py_buffer buf[8];
    memset(buf, 0, sizeof(buf));
    if (!PyArg_ParseTuple(args, "O(Liiii)(w*w*w*w*)(ppppp)w*w*w*w*LLi", &tuple, &N, &k, &goal, &dice, &T, &buf[0],
                          &buf[1], &buf[2], &buf[3], &race1, &race2, &symmetric, &pegs, &count, &buf[4], &buf[5],
                          &buf[6], &buf[7], &lo_from, &lo_to, &threads))
        return NULL;
    Geometry G;
    Race R;
    int ok = parse_geometry(tuple, &G), result = 1;
    int64_t *progress = NULL;
    double *sums = NULL;
    Counts C = {0};
    if (ok) {
        ok = read_race(&R, &G, N, k, goal, dice, T);
        int64_t examples = buf[5].len / 8;
        for (int i = 0; ok && i < 4; i++)
            if (buf[i].len != N * N * 8) ok = 0;
        if (ok && (buf[4].len != 4 * 8 || examples < 1 || buf[6].len != examples * 6 * 8 ||
                   buf[7].len != examples * 2 * 8 || lo_from >= N || lo_to < 0 || threads < 1 || threads > 256))
            ok = 0;
        if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad race tables, counts, range or threads");
        progress = ok ? (int64_t *)malloc(N * sizeof(int64_t)) : NULL;
        sums = ok ? (double *)calloc(N * 4, sizeof(double)) : NULL;
        if (ok && (progress == NULL || sums == NULL || !list_terms(&R) || !merge_groups(&R))) {
            PyErr_NoMemory();
            ok = 0;
        }
        if (ok) {
            Tables V = {(double *)buf[0].buf, (double *)buf[1].buf, (double *)buf[2].buf, (double *)buf[3].buf};
            for (int64_t lo = 0; lo < N; lo++) progress[lo] = lo_to <= lo && lo <= lo_from ? N : -1;
            Plan P = {&R, &V, race1, race2, symmetric, pegs, count, threads, lo_from, lo_to, progress, sums, 0};
            C.stats = (double *)buf[4].buf;
            C.ex_loss = (double *)buf[5].buf;
            C.ex_info = (int64_t *)buf[6].buf;
            C.ex_value = (double *)buf[7].buf;
            C.examples = examples;
            Py_BEGIN_ALLOW_THREADS
            result = solve_pairs(&P, &C);
            Py_END_ALLOW_THREADS
        }
        race_free(&R);
        release(G.b, NBUF);
    }
    free(progress);
    free(sums);
    release(buf, 8);
    if (!ok) return NULL;
    if (result < 0) return PyErr_NoMemory();
    if (result == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the race equations of a pair did not converge");
        return NULL;
    }
    return Py_BuildValue("LL", (long long)C.newton_steps, (long long)C.systems);
}

static PyMethodDef methods[] = {
    {"solo_tables", py_solo_tables, METH_VARARGS, "Solo-optimal choices and PEGS-7 expected turns."},
    {"solve_pairs", py_solve_pairs, METH_VARARGS, "Solve the race pairs of a range of lower board indices."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_race_c",
                                    "The compiled two-player race (see race_solver.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__race_c(void) { return PyModule_Create(&module); }
