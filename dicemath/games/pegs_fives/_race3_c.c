/* The compiled three-player race, Pegs and Fives (docs/rules.md PEGS-1..9, FIVES-1..7), float64,
 * built at install time. race_table_compiled.py states the positions, values and choices; this
 * file only walks the tables.
 *
 * Seats 0, 1, 2 move in turn. Each seat has its own boards, a race_box.RaceBox on the open rows
 * all three share (the boards reachable from its board): box i holds N[i] boards, a board's
 * steps in digits[x, j]. A triple is (a, b, c), the boards of seats 0, 1, 2, at index
 * (a * N[1] + b) * N[2] + c; its value with seat s to move, at the start of his turn, is the
 * vector V[s, triple, 0..2] of every seat's outcome (Pegs: the chance of finishing first,
 * PEGS-2; Fives: the expected rest points at the end of the round, FIVES-6). A triple with a
 * complete board is no position (the round is over): its entries are not written.
 *
 * The rules enter through the tables race_solver.kernel_tables builds from the engine (the same
 * as the two-player kernel _race_c.c reads): coef[j, need, d, ta, h, c] the chance that naming
 * row j with need steps to go for h hits on a choice throw of d dice, ta = t - 1 throws after
 * it, ends: c = 0 where the cycle began (an overthrow, PEGS-6), c = 1..goal the turn c steps on
 * (PEGS-5/9, FIVES-3), goal + c a fresh start c steps on (PEGS-8, FIVES-4/5), 2 goal + t2 a
 * PEGS-7 choice throw of d - per_hit * need dice with t2 throws left, the row in. The choice
 * throws of d dice come grouped by their hits on the open rows (group_start, group_p,
 * entry_start, entry_idx = j * HM + h); a board with complete rows sees the groups whose hits on
 * its open rows agree as one (Merged).
 *
 * A mover's turn ending on x' leads to the next seat's turn at the triple with x' (or, x'
 * complete, the end of the round: Pegs the unit vector of the mover, Fives every other seat's
 * rest points); a fresh start on x'' to his own next turn at the triple with x''. Every such
 * triple has more progress (the sum of the three boards' steps) and is solved before: the
 * triples are solved by level of progress from the highest down, the triples of one level
 * independent of each other (threads take rows of them). The turn ending on the mover's board
 * itself (an overthrow, or no legal row on the first choice throw) leads to the next seat at
 * the same triple: the three turns of a triple form one cycle.
 *
 * A player's choice maximises his own entry (Pegs) or objective u = (the others' rest points) /
 * 2 - his own (Fives); among options within TIE (relative) of the best, the lowest row. A
 * "solo" seat names the row of the solo table instead (race_solver.solo_choice_table). With the
 * choices of the cycle's three first choice throws fixed, each seat's value is linear in the
 * next one's, V_s = alpha_s V_{s+1} + beta_s (alpha_s the chance of ending where the turn
 * began), solved at once; the choices are then chosen again at the new values (policy
 * iteration on each mover's own value) until none changes. The choices later in a turn (PEGS-7
 * choice throws) read only triples solved before.
 *
 * No fused multiply-adds (fp-contract off): the values are the same whatever the threads.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("fp-contract=off")
#endif
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TIE 1e-12               /* relative tolerance of equal options (race_solver.TIE) */
#define MAXK 12                 /* open rows */
#define MAXHM 7                 /* hits 0..dice per row */
#define MAXT 4                  /* throw budget T (kernel_tables compiles PEGS-7 throws for T <= 3) */
#define MAXGOAL 12
#define SEATS 3
#define MAX_STEPS 200           /* policy iterations of one triple before it counts as not converging */

typedef struct {
    double v[SEATS];
} Vec;

/* The boards of one seat (a RaceBox): their steps, strides, completeness, rest points, open rows
 * as a bit set and as an index of Merged's masks, and the solo choices (NULL: not read). */
typedef struct {
    int64_t N;
    const int64_t *digits;      /* [x, j] */
    int64_t stride[MAXK];
    const uint8_t *complete;    /* [x] */
    const double *RP;           /* [x] FIVES-6 rest points */
    const int32_t *solo;        /* [x, t - 1, g] the solo entry of group g, -1: no legal row */
    int32_t *mask;              /* [x] Merged's index of the board's open rows */
} Box;

/* The choice throws of d dice as a board with the open rows of mask index m sees them: the
 * groups whose hits on those rows agree merged into one (chances added), the entries of
 * complete rows left out, the others in increasing row order; first names a member (the solo
 * table's group). */
typedef struct {
    int nmasks;
    int64_t *start;             /* [d * nmasks + m] .. [+ 1]: the merged groups */
    double *p;
    int64_t *first;
    int64_t *entry_start;       /* [g] .. [g + 1]: its options */
    int64_t *idx;               /* the option j * HM + h */
} Merged;

typedef struct {
    int k, goal, dice, T, HM, ncol, pegs;
    int64_t groups;
    int race[SEATS];
    int per_hit[MAXK];
    const double *coef;
    const int64_t *group_start, *entry_start, *entry_idx;
    const double *group_p;
    Box box[SEATS];
    int64_t NT;                 /* triples */
    double *V;                  /* [seat to move, triple, seat] */
    Merged merged;
} Race3;

static inline int64_t steps_of(const Box *B, int k, int64_t x, int j) { return B->digits[x * k + j]; }

static inline int64_t triple_of(const Race3 *R, const int64_t *boards) {
    return (boards[0] * R->box[1].N + boards[1]) * R->box[2].N + boards[2];
}

/* Seat s's own value of an outcome vector: his entry (Pegs), or his objective u (Fives). */
static inline double own(const Race3 *R, int s, const Vec *w) {
    if (R->pegs) return w->v[s];
    return 0.5 * (w->v[0] + w->v[1] + w->v[2] - w->v[s]) - w->v[s];
}

/* The end of the round when seat s completes his board (the others' boards in boards). */
static Vec terminal(const Race3 *R, int s, const int64_t *boards) {
    Vec t;
    for (int i = 0; i < SEATS; i++)
        t.v[i] = R->pegs ? (i == s) : (i == s ? 0.0 : R->box[i].RP[boards[i]]);
    return t;
}

/* Seat s's turn ending on x (fresh 0: the next seat moves) or a fresh start on x (fresh 1: he
 * moves again), the others' boards in boards. */
static Vec leaf(const Race3 *R, int s, const int64_t *boards, int64_t x, int fresh) {
    if (R->box[s].complete[x]) return terminal(R, s, boards);
    int64_t moved[SEATS] = {boards[0], boards[1], boards[2]};
    moved[s] = x;
    const int mover = fresh ? s : (s + 1) % SEATS;
    const double *at = &R->V[(mover * R->NT + triple_of(R, moved)) * SEATS];
    Vec w = {{at[0], at[1], at[2]}};
    return w;
}

/* The PEGS-7 choice throws already valued in one seat's turn at one triple (a turn reaches the
 * same board, dice and throws by completing two rows in either order): keys x * 64 + d * 8 + t
 * in MEMO_SLOTS slots, valid for the generation they were written in. */
#define MEMO_SLOTS 256
typedef struct {
    int64_t key[MEMO_SLOTS];
    int64_t generation[MEMO_SLOTS];
    Vec value[MEMO_SLOTS];
    int64_t now;
} Memo;

static Vec choice_throw(const Race3 *R, Memo *memo, int s, const int64_t *boards, int64_t x, int d, int t);

/* The options of a choice throw of d dice, t throws left, on seat s's board x: S[i] the chance
 * that the turn ends where the cycle began, O[i] the value of every other ending and U[i] its
 * own value to seat s (i = j * HM + h). */
static void fill_options(const Race3 *R, Memo *memo, int s, const int64_t *boards, int64_t x, int d, int t,
                         double *S, Vec *O, double *U) {
    const Box *B = &R->box[s];
    const int goal = R->goal, T = R->T;
    for (int j = 0; j < R->k; j++) {
        const int64_t st = steps_of(B, R->k, x, j);
        if (st >= goal) continue;
        const int need = goal - (int)st;
        const int64_t rows = ((((int64_t)j * (goal + 1) + need) * (R->dice + 1) + d) * T + t - 1) * (R->dice + 1);
        const int most = d / R->per_hit[j];
        Vec E0[MAXGOAL + 1], E1[MAXGOAL + 1], PN[MAXT];
        int used0[MAXGOAL + 1] = {0}, used1[MAXGOAL + 1] = {0}, usedp[MAXT] = {0};
        for (int h = 1; h <= most; h++) {
            const double *cf = &R->coef[(rows + h) * R->ncol];
            for (int c = 1; c <= need; c++) {
                used0[c] |= cf[c] != 0.0;
                used1[c] |= cf[goal + c] != 0.0;
            }
            for (int t2 = 1; t2 < T; t2++) usedp[t2] |= cf[2 * goal + t2] != 0.0;
        }
        for (int c = 1; c <= need; c++) {
            if (used0[c]) E0[c] = leaf(R, s, boards, x + c * B->stride[j], 0);
            if (used1[c]) E1[c] = leaf(R, s, boards, x + c * B->stride[j], 1);
        }
        const int64_t xin = x + need * B->stride[j];
        const int d2 = d - R->per_hit[j] * need;
        for (int t2 = 1; t2 < T; t2++) {
            if (!usedp[t2]) continue;
            if (B->complete[xin]) PN[t2] = terminal(R, s, boards);
            else if (d2 >= 1) PN[t2] = choice_throw(R, memo, s, boards, xin, d2, t2);
            else usedp[t2] = 0;     /* no dice left: the column is never reached */
        }
        for (int h = 1; h <= most; h++) {
            const double *cf = &R->coef[(rows + h) * R->ncol];
            Vec r = {{0.0, 0.0, 0.0}};
            for (int c = 1; c <= need; c++) {
                if (used0[c] && cf[c] != 0.0)
                    for (int i = 0; i < SEATS; i++) r.v[i] += cf[c] * E0[c].v[i];
                if (used1[c] && cf[goal + c] != 0.0)
                    for (int i = 0; i < SEATS; i++) r.v[i] += cf[goal + c] * E1[c].v[i];
            }
            for (int t2 = 1; t2 < T; t2++)
                if (usedp[t2] && cf[2 * goal + t2] != 0.0)
                    for (int i = 0; i < SEATS; i++) r.v[i] += cf[2 * goal + t2] * PN[t2].v[i];
            S[j * R->HM + h] = cf[0];
            O[j * R->HM + h] = r;
            U[j * R->HM + h] = own(R, s, &r);
        }
    }
}

/* The option seat s takes in merged group m at own value X of ending where the cycle began:
 * race, the best S X + U (the lowest row among those within TIE); solo, the solo table's (at t
 * throws left on board x). Returns the option j * HM + h, -1 for no legal row. */
static int64_t chosen_option(const Race3 *R, int s, int64_t x, int t, int64_t m, const double *S, const double *U,
                             double X) {
    const Merged *M = &R->merged;
    if (!R->race[s]) {
        const int32_t e = R->box[s].solo[(x * R->T + t - 1) * R->groups + M->first[m]];
        return e < 0 ? -1 : R->entry_idx[e];
    }
    const int64_t from = M->entry_start[m], n = M->entry_start[m + 1] - from;
    if (n == 0) return -1;
    const int64_t *idx = &M->idx[from];
    double v[MAXK], best = -INFINITY;
    for (int64_t e = 0; e < n; e++) {
        v[e] = S[idx[e]] * X + U[idx[e]];
        if (v[e] > best) best = v[e];
    }
    const double floor = best - TIE * (1.0 + fabs(best));
    int64_t e = 0;
    while (v[e] < floor) e++;                  /* the options in increasing row order */
    return idx[e];
}

/* A PEGS-7 choice throw of d dice, t throws left, on seat s's board x (incomplete): every
 * ending is a triple solved before. */
static Vec choice_throw(const Race3 *R, Memo *memo, int s, const int64_t *boards, int64_t x, int d, int t) {
    const int64_t key = x * 64 + d * 8 + t;
    const size_t slot = (size_t)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    if (memo->generation[slot] == memo->now && memo->key[slot] == key) return memo->value[slot];
    const Merged *M = &R->merged;
    double S[MAXK * MAXHM], U[MAXK * MAXHM];
    Vec O[MAXK * MAXHM];
    fill_options(R, memo, s, boards, x, d, t, S, O, U);
    const Vec here = leaf(R, s, boards, x, 0);
    const double X = own(R, s, &here);
    const int64_t cell = (int64_t)d * M->nmasks + R->box[s].mask[x];
    Vec total = {{0.0, 0.0, 0.0}};
    for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
        const int64_t i = chosen_option(R, s, x, t, m, S, U, X);
        for (int q = 0; q < SEATS; q++)
            total.v[q] += M->p[m] * (i < 0 ? here.v[q] : S[i] * here.v[q] + O[i].v[q]);
    }
    memo->key[slot] = key;
    memo->generation[slot] = memo->now;
    memo->value[slot] = total;
    return total;
}

/* The work space of a thread: each seat's first choice throw at the triple, and the chosen
 * option of each merged group. */
typedef struct {
    double S[SEATS][MAXK * MAXHM], U[SEATS][MAXK * MAXHM];
    Vec O[SEATS][MAXK * MAXHM];
    int64_t *chosen;            /* [SEATS, groups] */
    Memo memo;
    int64_t steps, triples, most_steps;
    int ok;
} Work3;

/* Solve the cycle of triple (a, b, c): the three seats' first choice throws, then policy
 * iteration. Returns 0 when it does not converge. */
static int solve_triple(const Race3 *R, Work3 *W, const int64_t *boards) {
    const Merged *M = &R->merged;
    int64_t from[SEATS], to[SEATS];
    for (int s = 0; s < SEATS; s++) {
        const int64_t x = boards[s];
        W->memo.now++;
        fill_options(R, &W->memo, s, boards, x, R->dice, R->T, W->S[s], W->O[s], W->U[s]);
        const int64_t cell = (int64_t)R->dice * M->nmasks + R->box[s].mask[x];
        from[s] = M->start[cell];
        to[s] = M->start[cell + 1];
    }
    double X[SEATS];
    for (int s = 0; s < SEATS; s++) X[s] = R->pegs ? 1.0 / SEATS : 0.0;
    Vec Wv[SEATS];
    for (int step = 1; step <= MAX_STEPS; step++) {
        int changed = step == 1;
        double alpha[SEATS];
        Vec beta[SEATS];
        for (int s = 0; s < SEATS; s++) {
            int64_t *chosen = &W->chosen[s * R->groups];
            alpha[s] = 0.0;
            beta[s] = (Vec){{0.0, 0.0, 0.0}};
            for (int64_t m = from[s]; m < to[s]; m++) {
                const int64_t i = chosen_option(R, s, boards[s], R->T, m, W->S[s], W->U[s], X[s]);
                if (step > 1 && chosen[m - from[s]] != i) changed = 1;
                chosen[m - from[s]] = i;
                const double p = M->p[m];
                if (i < 0) {
                    alpha[s] += p;
                    continue;
                }
                alpha[s] += p * W->S[s][i];
                for (int q = 0; q < SEATS; q++) beta[s].v[q] += p * W->O[s][i].v[q];
            }
        }
        if (!changed) {
            W->steps += step - 1;
            if (step - 1 > W->most_steps) W->most_steps = step - 1;
            const int64_t tri = triple_of(R, boards);
            for (int s = 0; s < SEATS; s++)
                memcpy(&R->V[(s * R->NT + tri) * SEATS], Wv[s].v, sizeof(Wv[s].v));
            W->triples++;
            return 1;
        }
        /* W0 = alpha0 W1 + beta0, W1 = alpha1 W2 + beta1, W2 = alpha2 W0 + beta2 */
        const double loop = 1.0 - alpha[0] * alpha[1] * alpha[2];
        if (!(loop > 0.0)) return 0;
        for (int q = 0; q < SEATS; q++) {
            Wv[0].v[q] = (beta[0].v[q] + alpha[0] * beta[1].v[q] + alpha[0] * alpha[1] * beta[2].v[q]) / loop;
            Wv[2].v[q] = alpha[2] * Wv[0].v[q] + beta[2].v[q];
            Wv[1].v[q] = alpha[1] * Wv[2].v[q] + beta[1].v[q];
        }
        for (int s = 0; s < SEATS; s++) X[s] = own(R, s, &Wv[(s + 1) % SEATS]);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------ */
/* The merged groups.                                                                     */

static void merged_free(Merged *M) {
    free(M->start);
    free(M->p);
    free(M->first);
    free(M->entry_start);
    free(M->idx);
    memset(M, 0, sizeof(*M));
}

/* Fill R->merged for the open rows the boards of the three boxes have, and each box's mask
 * indices; 0 when out of memory. */
static int merge_groups(Race3 *R) {
    Merged *M = &R->merged;
    const int full = 1 << R->k;
    int32_t *index = (int32_t *)malloc(full * sizeof(int32_t));
    int *masks = (int *)malloc(full * sizeof(int));
    if (index == NULL || masks == NULL) {
        free(index);
        free(masks);
        return 0;
    }
    for (int i = 0; i < full; i++) index[i] = -1;
    int nmasks = 0;
    for (int b = 0; b < SEATS; b++) {
        Box *B = &R->box[b];
        for (int64_t x = 0; x < B->N; x++) {
            int open = 0;
            for (int j = 0; j < R->k; j++)
                if (steps_of(B, R->k, x, j) < R->goal) open |= 1 << j;
            if (index[open] < 0) {
                index[open] = nmasks;
                masks[nmasks++] = open;
            }
            B->mask[x] = index[open];
        }
    }
    free(index);
    M->nmasks = nmasks;
    const int64_t cells = (int64_t)(R->dice + 1) * nmasks, most = R->groups * nmasks;
    const int64_t entries = R->entry_start[R->groups] * nmasks;
    M->start = (int64_t *)malloc((cells + 1) * sizeof(int64_t));
    M->p = (double *)malloc((most + 1) * sizeof(double));
    M->first = (int64_t *)malloc((most + 1) * sizeof(int64_t));
    M->entry_start = (int64_t *)malloc((most + 1) * sizeof(int64_t));
    M->idx = (int64_t *)malloc((entries + 1) * sizeof(int64_t));
    if (!M->start || !M->p || !M->first || !M->entry_start || !M->idx) {
        free(masks);
        merged_free(M);
        return 0;
    }
    int64_t m = 0, n = 0;
    M->entry_start[0] = 0;
    for (int d = 0; d <= R->dice; d++) {
        for (int q = 0; q < nmasks; q++) {
            const int64_t begin = m;
            M->start[d * nmasks + q] = m;
            for (int64_t g = R->group_start[d]; g < R->group_start[d + 1]; g++) {
                int64_t kept[MAXK];
                int len = 0;
                for (int64_t e = R->entry_start[g]; e < R->entry_start[g + 1]; e++) {
                    const int64_t i = R->entry_idx[e];
                    if (!(masks[q] >> (i / R->HM) & 1)) continue;
                    int at = len++;                     /* in increasing row order (one entry a row) */
                    for (; at > 0 && kept[at - 1] > i; at--) kept[at] = kept[at - 1];
                    kept[at] = i;
                }
                int64_t same = -1;
                for (int64_t o = begin; o < m && same < 0; o++)
                    if (M->entry_start[o + 1] - M->entry_start[o] == len &&
                        memcmp(&M->idx[M->entry_start[o]], kept, len * sizeof(int64_t)) == 0)
                        same = o;
                if (same >= 0) {
                    M->p[same] += R->group_p[g];
                    continue;
                }
                M->p[m] = R->group_p[g];
                M->first[m] = g;
                for (int i = 0; i < len; i++) M->idx[n++] = kept[i];
                M->entry_start[++m] = n;
            }
        }
    }
    M->start[cells] = m;
    free(masks);
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Levels and threads.                                                                    */

/* A row of work: board a of seat 0 against the boards of seat 1 on level lb and of seat 2 on
 * level lc. */
typedef struct {
    int64_t a;
    int lb, lc;
} Row3;

typedef struct {
    const Race3 *R;
    int64_t *order[SEATS];      /* each seat's open boards by level */
    int64_t *level_start[SEATS];
    Row3 *rows;
    int64_t nrows, taken;
    int failed;
} Level3;

typedef struct {
    Level3 *L;
    Work3 W;
} Worker3;

static void *solve_rows(void *arg) {
    Worker3 *K = (Worker3 *)arg;
    Level3 *L = K->L;
    const Race3 *R = L->R;
    for (;;) {
        const int64_t r = __atomic_fetch_add(&L->taken, 1, __ATOMIC_RELAXED);
        if (r >= L->nrows || __atomic_load_n(&L->failed, __ATOMIC_RELAXED)) break;
        const Row3 *row = &L->rows[r];
        int64_t boards[SEATS] = {row->a, 0, 0};
        for (int64_t ib = L->level_start[1][row->lb]; ib < L->level_start[1][row->lb + 1]; ib++) {
            boards[1] = L->order[1][ib];
            for (int64_t ic = L->level_start[2][row->lc]; ic < L->level_start[2][row->lc + 1]; ic++) {
                boards[2] = L->order[2][ic];
                if (!solve_triple(R, &K->W, boards)) {
                    __atomic_store_n(&L->failed, 1, __ATOMIC_RELAXED);
                    K->W.ok = 0;
                    return NULL;
                }
            }
        }
    }
    return NULL;
}

/* Order seat s's open boards by level (the sum of their steps): order[s], level_start[s][0 ..
 * levels]. 0 when out of memory. */
static int order_boards(const Race3 *R, int s, int levels, Level3 *L) {
    const Box *B = &R->box[s];
    L->order[s] = (int64_t *)malloc((B->N + 1) * sizeof(int64_t));
    L->level_start[s] = (int64_t *)calloc(levels + 2, sizeof(int64_t));
    int64_t *next = (int64_t *)calloc(levels + 2, sizeof(int64_t));
    if (L->order[s] == NULL || L->level_start[s] == NULL || next == NULL) {
        free(next);
        return 0;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int64_t x = 0; x < B->N; x++) {
            if (B->complete[x]) continue;
            int level = 0;
            for (int j = 0; j < R->k; j++) level += (int)steps_of(B, R->k, x, j);
            if (pass == 0) L->level_start[s][level + 1]++;
            else L->order[s][next[level]++] = x;
        }
        if (pass == 0) {
            for (int v = 0; v < levels; v++) L->level_start[s][v + 1] += L->level_start[s][v];
            memcpy(next, L->level_start[s], (levels + 1) * sizeof(int64_t));
        }
    }
    free(next);
    return 1;
}

/* Solve every triple, level by level from the most progress down, on `threads` threads.
 * Returns 1, 0 when a triple did not converge, -1 when out of memory or threads. */
static int solve_all(const Race3 *R, int threads, Work3 *total) {
    const int levels = R->k * R->goal + 1;
    Level3 L;
    memset(&L, 0, sizeof(L));
    L.R = R;
    int result = 1;
    for (int s = 0; s < SEATS && result == 1; s++)
        if (!order_boards(R, s, levels, &L)) result = -1;
    const Box *A = &R->box[0];
    L.rows = result == 1 ? (Row3 *)malloc((A->N * levels + 1) * sizeof(Row3)) : NULL;
    Worker3 *workers = (Worker3 *)calloc(threads, sizeof(Worker3));
    pthread_t *ids = (pthread_t *)calloc(threads, sizeof(pthread_t));
    if (L.rows == NULL || workers == NULL || ids == NULL) result = -1;
    for (int t = 0; t < threads && result == 1; t++) {
        workers[t].L = &L;
        workers[t].W.ok = 1;
        workers[t].W.chosen = (int64_t *)malloc((SEATS * R->groups + 1) * sizeof(int64_t));
        if (workers[t].W.chosen == NULL) result = -1;
    }
    for (int level = 3 * (levels - 1); level >= 0 && result == 1; level--) {
        L.nrows = 0;
        L.taken = 0;
        for (int la = 0; la < levels; la++) {
            const int64_t a0 = L.level_start[0][la], a1 = L.level_start[0][la + 1];
            if (a0 == a1) continue;
            for (int lb = 0; lb < levels; lb++) {
                const int lc = level - la - lb;
                if (lc < 0 || lc >= levels || L.level_start[1][lb] == L.level_start[1][lb + 1] ||
                    L.level_start[2][lc] == L.level_start[2][lc + 1])
                    continue;
                for (int64_t ia = a0; ia < a1; ia++) L.rows[L.nrows++] = (Row3){L.order[0][ia], lb, lc};
            }
        }
        if (L.nrows == 0) continue;
        const int n = L.nrows < threads ? (int)L.nrows : threads;
        int started = 0;
        for (int t = 1; t < n; t++) {
            if (pthread_create(&ids[t], NULL, solve_rows, &workers[t]) != 0) {
                __atomic_store_n(&L.failed, 1, __ATOMIC_RELAXED);
                result = -1;
                break;
            }
            started = t;
        }
        solve_rows(&workers[0]);
        for (int t = 1; t <= started; t++) pthread_join(ids[t], NULL);
        for (int t = 0; t < threads && result == 1; t++)
            if (!workers[t].W.ok) result = 0;
    }
    for (int t = 0; workers != NULL && t < threads; t++) {
        total->steps += workers[t].W.steps;
        total->triples += workers[t].W.triples;
        if (workers[t].W.most_steps > total->most_steps) total->most_steps = workers[t].W.most_steps;
        free(workers[t].W.chosen);
    }
    free(workers);
    free(ids);
    free(L.rows);
    for (int s = 0; s < SEATS; s++) {
        free(L.order[s]);
        free(L.level_start[s]);
    }
    return result;
}

/* ------------------------------------------------------------------------------------ */
/* Python interface.                                                                      */

enum { COEF, GROUP_START, GROUP_P, ENTRY_START, ENTRY_IDX, PER_HIT, NSHARED };
enum { DIGITS, STRIDES, COMPLETE, RP, SOLO, NBOX };

static void release(Py_buffer *b, int n) {
    for (int i = 0; i < n; i++)
        if (b[i].obj != NULL) PyBuffer_Release(&b[i]);
}

static int get_buffers(PyObject *tuple, Py_buffer *b, int n, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
        PyErr_Format(PyExc_TypeError, "the %s are a tuple of %d arrays (race_table_compiled)", what, n);
        return 0;
    }
    for (int i = 0; i < n; i++)
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tuple, i), &b[i], PyBUF_C_CONTIGUOUS) < 0) {
            release(b, i);
            return 0;
        }
    return 1;
}

/* Fill R from the buffers; 0 with ValueError if they do not fit together. */
static int read_race(Race3 *R, Py_buffer *shared, Py_buffer box[SEATS][NBOX], int k, int goal, int dice, int T) {
    if (k < 1 || k > MAXK || goal < 1 || goal > MAXGOAL || dice < 1 || dice > MAXHM - 1 || T < 1 || T >= MAXT)
        return 0;
    R->k = k;
    R->goal = goal;
    R->dice = dice;
    R->T = T;
    R->HM = dice + 1;
    R->ncol = 2 * goal + T;
    R->groups = shared[GROUP_P].len / 8;
    if (shared[COEF].len != (Py_ssize_t)k * (goal + 1) * (dice + 1) * T * (dice + 1) * R->ncol * 8 ||
        shared[GROUP_START].len != (dice + 2) * 8 || shared[ENTRY_START].len != (R->groups + 1) * 8 ||
        shared[PER_HIT].len != k * 8)
        return 0;
    R->coef = (const double *)shared[COEF].buf;
    R->group_start = (const int64_t *)shared[GROUP_START].buf;
    R->group_p = (const double *)shared[GROUP_P].buf;
    R->entry_start = (const int64_t *)shared[ENTRY_START].buf;
    R->entry_idx = (const int64_t *)shared[ENTRY_IDX].buf;
    if (R->group_start[0] != 0 || R->group_start[dice + 1] != R->groups ||
        R->entry_start[R->groups] != shared[ENTRY_IDX].len / 8)
        return 0;
    for (int64_t e = 0; e < R->entry_start[R->groups]; e++)
        if (R->entry_idx[e] < 0 || R->entry_idx[e] >= k * R->HM) return 0;
    for (int j = 0; j < k; j++) {
        R->per_hit[j] = (int)((const int64_t *)shared[PER_HIT].buf)[j];
        if (R->per_hit[j] < 1) return 0;
    }
    R->NT = 1;
    for (int s = 0; s < SEATS; s++) {
        Box *B = &R->box[s];
        B->N = box[s][RP].len / 8;
        R->NT *= B->N;
        if (B->N < 1 || box[s][DIGITS].len != B->N * k * 8 || box[s][STRIDES].len != k * 8 ||
            box[s][COMPLETE].len != B->N ||
            (box[s][SOLO].len != 0 && box[s][SOLO].len != B->N * T * R->groups * 4) ||
            (!R->race[s] && box[s][SOLO].len == 0))
            return 0;
        B->digits = (const int64_t *)box[s][DIGITS].buf;
        B->complete = (const uint8_t *)box[s][COMPLETE].buf;
        B->RP = (const double *)box[s][RP].buf;
        B->solo = box[s][SOLO].len ? (const int32_t *)box[s][SOLO].buf : NULL;
        for (int j = 0; j < k; j++) B->stride[j] = ((const int64_t *)box[s][STRIDES].buf)[j];
        for (int64_t x = 0; x < B->N * k; x++)
            if (B->digits[x] < 0 || B->digits[x] > goal) return 0;
    }
    return 1;
}

/* solve_triples(shared, (box0, box1, box2), (k, goal, dice, T), V, (race0, race1, race2, pegs), threads)
 *   -> (policy_steps, triples, most_steps)
 * shared = (coef, group_start, group_p, entry_start, entry_idx, per_hit); a box = (digits,
 * strides, complete, RP, solo), solo empty for a seat that plays race; V [3, N0, N1, N2, 3]. */
static PyObject *py_solve_triples(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *shared_tuple, *boxes;
    int k, goal, dice, T, pegs, threads, race[SEATS];
    Py_buffer shared[NSHARED], box[SEATS][NBOX], V = {0};
    memset(shared, 0, sizeof(shared));
    memset(box, 0, sizeof(box));
    if (!PyArg_ParseTuple(args, "OO(iiii)w*(pppp)i", &shared_tuple, &boxes, &k, &goal, &dice, &T, &V, &race[0],
                          &race[1], &race[2], &pegs, &threads))
        return NULL;
    Race3 R;
    memset(&R, 0, sizeof(R));
    R.pegs = pegs;
    for (int s = 0; s < SEATS; s++) R.race[s] = race[s];
    int ok = get_buffers(shared_tuple, shared, NSHARED, "shared race tables"), got = 0;
    if (ok && (!PyTuple_Check(boxes) || PyTuple_GET_SIZE(boxes) != SEATS)) {
        PyErr_SetString(PyExc_TypeError, "the boxes are a tuple of three");
        ok = 0;
    }
    for (int s = 0; ok && s < SEATS; s++) {
        ok = get_buffers(PyTuple_GET_ITEM(boxes, s), box[s], NBOX, "box tables");
        got = ok ? s + 1 : got;
    }
    int result = 1;
    Work3 total = {0};
    if (ok) {
        ok = read_race(&R, shared, box, k, goal, dice, T) && V.len == R.NT * SEATS * SEATS * 8 && threads >= 1 &&
             threads <= 256;
        if (!ok) PyErr_SetString(PyExc_ValueError, "inconsistent three-player race tables, values or threads");
    }
    for (int s = 0; ok && s < SEATS; s++) {
        R.box[s].mask = (int32_t *)malloc(R.box[s].N * sizeof(int32_t));
        if (R.box[s].mask == NULL) ok = 0;
    }
    if (ok && !merge_groups(&R)) ok = 0;
    if (!ok && !PyErr_Occurred()) PyErr_NoMemory();
    if (ok) {
        R.V = (double *)V.buf;
        Py_BEGIN_ALLOW_THREADS
        result = solve_all(&R, threads, &total);
        Py_END_ALLOW_THREADS
    }
    merged_free(&R.merged);
    for (int s = 0; s < SEATS; s++) free(R.box[s].mask);
    release(shared, NSHARED);
    for (int s = 0; s < got; s++) release(box[s], NBOX);
    PyBuffer_Release(&V);
    if (!ok) return NULL;
    if (result < 0) return PyErr_NoMemory();
    if (result == 0) {
        PyErr_SetString(PyExc_RuntimeError, "the three-player race equations of a triple did not converge");
        return NULL;
    }
    return Py_BuildValue("LLL", (long long)total.steps, (long long)total.triples, (long long)total.most_steps);
}

static PyMethodDef methods[] = {
    {"solve_triples", py_solve_triples, METH_VARARGS, "Solve the three-player race on three boxes of boards."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_race3_c",
                                    "The compiled three-player race (see race_table_compiled.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__race3_c(void) { return PyModule_Create(&module); }
