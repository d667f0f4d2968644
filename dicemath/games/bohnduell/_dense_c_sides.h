/* The rules of BohnDuell on one pair of sides (docs/rules.md BOHN-3..BOHN-5), for the kernels
 * of _dense_c.c.
 *
 * The C twin of sides.py, function for function (same names, same loops): the rules engine runs
 * sides.py in Python on tuples, the kernels run these on small arrays. A side is one player's
 * (stock, c_1, ..., c_n), n cups indexed by the distance d from his pot (BOHN-2); n is passed
 * explicitly. The tests check the two against each other: the dense table (these rules) equals
 * the memoised search of the engine (sides.py) on every pair of sides of small games.
 */
#ifndef DENSE_C_SIDES_H
#define DENSE_C_SIDES_H

#include <stdint.h>

/* Whether the cup at distance d can be harvested: it holds exactly d (BOHN-5). */
static inline int can_harvest(const int64_t *side, int d) { return side[d] == d; }

/* The largest sow open to the owner of side: min(n, stock) beans (BOHN-3). */
static inline int sow_limit(const int64_t *side, int n) { return side[0] < n ? (int)side[0] : n; }

/* Sow k beans of the owner of me; write both new sides, return his pot gain.
 * BOHN-3: the beans come from the stock, one each into the cups at distances n, n-1, ...,
 * n-k+1. BOHN-4: a bean landing in an empty cup at distance d captures the opponent's facing
 * cup n + 1 - d: only the last sown bean captures, or every sown bean when `every`.
 * Assumed legal (1 <= k <= sow_limit). */
static inline int64_t sow(const int64_t *me, const int64_t *opp, int n, int k, int every, int64_t *new_me,
                          int64_t *new_opp) {
    for (int j = 0; j <= n; j++) {
        new_me[j] = me[j];
        new_opp[j] = opp[j];
    }
    int64_t gain = 0;
    new_me[0] -= k;
    int last = n - k + 1;
    for (int d = n; d >= last; d--) {
        if (me[d] == 0 && (every || d == last)) {
            int facing = n + 1 - d;
            gain += new_opp[facing];
            new_opp[facing] = 0;
        }
        new_me[d] += 1;
    }
    return gain;
}

/* Harvest the cup at distance d of the owner of me (it holds exactly d, BOHN-5): one bean
 * into each cup nearer the pot and one into the pot. Writes his new side, returns the gain 1. */
static inline int64_t harvest(const int64_t *me, int n, int d, int64_t *new_me) {
    for (int j = 0; j <= n; j++) new_me[j] = me[j];
    new_me[d] = 0;
    for (int j = 1; j < d; j++) new_me[j] += 1;
    return 1;
}

/* Whether the move (a harvest of the cup at distance `count`, or a sow of `count` beans) puts
 * a bean into an own cup that already holds its distance (BOHN-5: it can then no longer be
 * harvested). */
static inline int overfills(const int64_t *side, int n, int is_harvest, int count) {
    if (is_harvest) {
        for (int j = 1; j < count; j++)
            if (side[j] == j) return 1;
        return 0;
    }
    for (int d = n; d > n - count; d--)
        if (side[d] == d) return 1;
    return 0;
}

#endif
