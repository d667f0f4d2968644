/* The compiled proof search of BohnDuell (docs/rules.md BOHN-1..BOHN-7), built at install time.
 *
 * The same search as proof.py's _Prover, step for step: MTD(f) over null-window probes of
 * "is V(me, opp) >= gamma?" whose every answer is a proven bound kept in a transposition table
 * (a lower bound with the move that reaches it, an upper bound; they only tighten), the moves
 * searched the table's proven move first, then harvests (nearest the pot first), then sows by
 * immediate gain (captures first, smaller sows first among equal gains), with the enhanced
 * transposition cut-off before the moves are searched. Leaves: the endgame table (both sides in
 * it: exact), the end of the game (V = 0, BOHN-6) and the static bounds of proof_format.py.
 *
 * What differs is the memory. A position is a key of two 64-bit words (one byte a count:
 * stock and cups of each side, so at most MAX_CUPS cups) and an entry is 24 bytes: the key,
 * both bounds (int16), the move (int8) and its work (1 + log2 of the positions expanded under
 * it, 0: empty). A position may lie in either of two buckets of WAYS entries (two hashes; a new
 * one goes to the emptier); the table doubles when half full (or both buckets are) while below
 * its limit of entries and, once there, a new position replaces the entry of least work in its
 * two buckets. The entries of the start and of its first moves are pinned (never
 * replaced). A probe copies its entry before searching the moves and looks it up again after
 * (it may have been replaced meanwhile), so a replaced bound is only ever lost, never wrong.
 *
 * The certificate's rows (proof_format.py: LOWER with its move, UPPER) are gathered from the
 * claims as proof.py gathers them; a bound a row needs whose entry was replaced is proven again
 * by a probe (with no budget). The rows are written in row_dtype's layout, unsorted.
 *
 * Function:
 *   prove(cups, every, start_me, start_opp, table, table_stock, node_limit, seconds,
 *         all_first_moves, guess, max_entries, rows)
 *     -> (lower, upper, [(move code, lower, upper) per first move], nodes, positions, replaced,
 *         exhausted, rows bytes)
 *   start_me, start_opp: the sides as bytes (stock, c_1..c_n) of the position searched (the
 *   mover's, the other's); table: None or the tuple of _dense_c's index arrays (sides, powers,
 *   rank, potentials, starts, block_offsets, movable) followed by the int8 values; node_limit < 0
 *   and seconds < 0 mean no limit; rows false: no certificate (the rows bytes are empty);
 *   transpositions: None (a table of at most max_entries entries for this call alone) or a
 *   Transpositions object of the same cups and capture rule, kept from call to call (its own
 *   limit of entries; max_entries is then unused); replaced counts this call's replacements.
 *
 * Type:
 *   Transpositions(cups, every, max_entries): a transposition table kept between searches. A
 *   proven bound is the game's, whatever the position searched or the endgame table (every
 *   table's values are exact), so a search reuses what the searches before it proved. The pins
 *   of a search are released when it ends (their work then that of the whole search). One
 *   search at a time uses it (another is refused). Attributes: positions, replaced (in all),
 *   capacity (the most entries), bytes (allocated now). Method drop_beyond(side, total) empties
 *   the entries of positions with a side of more than `side` beans or more than `total` in all:
 *   a side's beans never grow (sowing stays in the sower's row, harvests and captures go to a
 *   pot, BOHN-3..BOHN-5), so the later positions of a game never reach them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "_dense_c_sides.h"
#include "_dense_c_table.h"

#define MAX_CUPS 7                  /* a side's n + 1 counts fit one 64-bit word */
#define MAX_CHILDREN (2 * MAX_CUPS) /* n harvests and n sows at most */
#define NO_MOVE 127                 /* the move code of a lower bound without a move */
#define LOWER 1
#define UPPER 2
#define WAYS 4
#define PINNED 255                  /* the work of an entry never replaced */
#define MAX_PINS (MAX_CHILDREN + 1)
#define FIRST_BUCKETS (1u << 12)

typedef struct {
    uint64_t me, opp;
    int16_t lower, upper;
    int8_t move;
    uint8_t work;
    uint8_t pad[2];
} Entry;

typedef struct {
    int gain, code;
    uint64_t me, opp;               /* the position after the move: next mover's side, next other's side */
} Child;

typedef struct {
    int n, every;
    DenseTable table;               /* the endgame table (held 0: none) */
    /* the transposition table */
    Entry *tt;
    uint64_t buckets, max_buckets, entries, replaced;
    uint64_t pins[MAX_PINS][2];
    int pin_count;
    /* the budget */
    int64_t nodes, limit;
    int timed, exhausted;
    double deadline;
    int failed;                     /* out of memory, or an internal inconsistency */
} Search;

/* ------------------------------------------------------------------------------------ */
/* Sides and leaves.                                                                     */

static inline uint64_t pack(const int64_t *side, int n) {
    uint64_t key = 0;
    for (int j = 0; j <= n; j++) key |= (uint64_t)side[j] << (8 * j);
    return key;
}

static inline void unpack(uint64_t key, int n, int64_t *side) {
    for (int j = 0; j <= n; j++) side[j] = (int64_t)((key >> (8 * j)) & 255);
}

static inline int64_t beans(const int64_t *side, int n) {
    int64_t total = 0;
    for (int j = 0; j <= n; j++) total += side[j];
    return total;
}

/* Whether the owner of side can sow or harvest (BOHN-3, BOHN-5); else he passes (BOHN-6). */
static inline int can_move(const int64_t *side, int n) {
    if (sow_limit(side, n) > 0) return 1;
    for (int d = 1; d <= n; d++)
        if (can_harvest(side, d)) return 1;
    return 0;
}

/* Beans in cups holding more than their distance: they never reach their owner's pot (BOHN-5). */
static inline int64_t dead_beans(const int64_t *side, int n) {
    int64_t total = 0;
    for (int d = 1; d <= n; d++)
        if (side[d] > d) total += side[d];
    return total;
}

/* proof_format.static_bounds: (-(B - dead(opp)), B - dead(me)). */
static inline void static_bounds(const int64_t *me, const int64_t *opp, int n, int *low, int *high) {
    int64_t all = beans(me, n) + beans(opp, n);
    *low = (int)-(all - dead_beans(opp, n));
    *high = (int)(all - dead_beans(me, n));
}

static inline int64_t rank_of(const Search *s, const int64_t *side) {
    int64_t code = 0;
    for (int j = 0; j <= s->n; j++) code += side[j] * s->table.powers[j];
    return dense_table_rank(&s->table, code);
}

/* The exact V of a leaf: the table's when both sides lie in it, 0 at the end of the game
 * (BOHN-6). Returns 1 with *value set, or 0 elsewhere. */
static int exact(const Search *s, const int64_t *me, const int64_t *opp, int *value) {
    int n = s->n;
    if (s->table.held && beans(me, n) <= s->table.stock && beans(opp, n) <= s->table.stock) {
        int64_t r_me = rank_of(s, me), r_opp = rank_of(s, opp);
        if (r_me >= 0 && r_opp >= 0) {
            *value = s->table.values[dense_table_position(&s->table, r_me, r_opp)];
            return 1;
        }
    }
    if (!can_move(me, n) && !can_move(opp, n)) {
        *value = 0;
        return 1;
    }
    return 0;
}

/* Every move of the mover in the search's order (proof._Prover.children): harvests nearest
 * the pot first, then sows by gain, largest first, smaller sows first among equal gains; the
 * pass alone when the mover cannot move and the other can; none at the end of the game. */
static int children(const Search *s, const int64_t *me, const int64_t *opp, Child *out) {
    int n = s->n, count = 0;
    int64_t new_me[MAX_CUPS + 1], new_opp[MAX_CUPS + 1];
    uint64_t key_opp = pack(opp, n);
    for (int d = 1; d <= n; d++) {
        if (!can_harvest(me, d)) continue;
        int gain = (int)harvest(me, n, d, new_me);
        out[count++] = (Child){gain, -d, key_opp, pack(new_me, n)};
    }
    int sows = count;
    for (int k = 1; k <= sow_limit(me, n); k++) {
        int gain = (int)sow(me, opp, n, k, s->every, new_me, new_opp);
        Child child = {gain, k, pack(new_opp, n), pack(new_me, n)};
        int at = count++;
        while (at > sows && out[at - 1].gain < gain) {      /* a stable sort by gain, largest first */
            out[at] = out[at - 1];
            at--;
        }
        out[at] = child;
    }
    if (count == 0 && can_move(opp, n)) out[count++] = (Child){0, 0, key_opp, pack(me, n)};
    return count;
}

/* ------------------------------------------------------------------------------------ */
/* The transposition table.                                                              */

static inline uint64_t mix(uint64_t h) {     /* MurmurHash3's finaliser: a bijection of 64-bit words */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}

static inline uint64_t hash(uint64_t me, uint64_t opp) { return mix(me ^ mix(opp + 0x9E3779B97F4A7C15ULL)); }

/* The two buckets a position may lie in (two choices of WAYS entries each). */
static inline void buckets_of(const Search *s, uint64_t me, uint64_t opp, Entry **first, Entry **second) {
    uint64_t h = hash(me, opp), mask = s->buckets - 1, one = h & mask, two = (h >> 32) & mask;
    if (two == one) two = one ^ 1;
    *first = s->tt + one * WAYS;
    *second = s->tt + (two & mask) * WAYS;
}

static Entry *find(const Search *s, uint64_t me, uint64_t opp) {
    Entry *b[2];
    buckets_of(s, me, opp, &b[0], &b[1]);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < WAYS; i++)
            if (b[k][i].work && b[k][i].me == me && b[k][i].opp == opp) return &b[k][i];
    return NULL;
}

/* The way for a new position: an empty one of the emptier of its two buckets (the first on a
 * tie), else the unpinned entry of least work (NULL when all are pinned). */
static Entry *way_for(const Search *s, uint64_t me, uint64_t opp) {
    Entry *b[2], *empty[2] = {NULL, NULL}, *victim = NULL;
    int used[2] = {0, 0};
    buckets_of(s, me, opp, &b[0], &b[1]);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < WAYS; i++) {
            if (!b[k][i].work) {
                if (empty[k] == NULL) empty[k] = &b[k][i];
                continue;
            }
            used[k]++;
            if (b[k][i].work != PINNED && (victim == NULL || b[k][i].work < victim->work)) victim = &b[k][i];
        }
    if (empty[0] != NULL && (empty[1] == NULL || used[0] <= used[1])) return empty[0];
    return empty[1] != NULL ? empty[1] : victim;
}

/* Double the table (while below its limit); 0 when memory ran out (the table stays as it was).
 * An entry whose two buckets are full in the new table (never seen: it is at most half full)
 * replaces one as insert does. */
static int grow(Search *s) {
    uint64_t buckets = s->buckets * 2;
    Entry *table = calloc(buckets * WAYS, sizeof(Entry));
    if (table == NULL) return 0;
    Entry *old = s->tt;
    uint64_t old_buckets = s->buckets;
    s->tt = table;
    s->buckets = buckets;
    for (uint64_t i = 0; i < old_buckets * WAYS; i++) {
        if (!old[i].work) continue;
        Entry *way = way_for(s, old[i].me, old[i].opp);
        if (way == NULL) continue;
        if (way->work) {
            s->replaced++;
            s->entries--;
        }
        *way = old[i];
    }
    free(old);
    return 1;
}

static int pinned(const Search *s, uint64_t me, uint64_t opp) {
    for (int i = 0; i < s->pin_count; i++)
        if (s->pins[i][0] == me && s->pins[i][1] == opp) return 1;
    return 0;
}

/* A new entry (the position must not be in the table): an empty way of its two buckets (the
 * table doubled first when half full, or when both are full, while below its limit), else the
 * unpinned entry of least work. NULL when every way is pinned. */
static Entry *insert(Search *s, uint64_t me, uint64_t opp, int lower, int upper) {
    if (s->entries >= s->buckets * WAYS / 2 && s->buckets < s->max_buckets) grow(s);
    Entry *victim = way_for(s, me, opp);
    while (victim != NULL && victim->work && s->buckets < s->max_buckets && grow(s)) victim = way_for(s, me, opp);
    if (victim == NULL) return NULL;
    if (victim->work) s->replaced++;
    else s->entries++;
    *victim = (Entry){me, opp, (int16_t)lower, (int16_t)upper, NO_MOVE, pinned(s, me, opp) ? PINNED : 1, {0, 0}};
    return victim;
}

/* The work of an entry with `expanded` positions under it: 1 + log2, below PINNED. */
static inline int work_of(int64_t expanded) {
    int work = 1;
    while (expanded > 1 && work < PINNED - 1) {
        expanded >>= 1;
        work++;
    }
    return work;
}

/* The entry of a searched position after its moves were searched: found again, or put back
 * with the bounds it had (low, high, move); its work raised to cover `expanded` positions. */
static Entry *refind(Search *s, uint64_t me, uint64_t opp, int low, int high, int move, int64_t expanded) {
    Entry *e = find(s, me, opp);
    if (e == NULL) {
        e = insert(s, me, opp, low, high);
        if (e == NULL) return NULL;
        e->move = (int8_t)move;
    }
    int work = work_of(expanded);
    if (e->work != PINNED && work > e->work) e->work = (uint8_t)work;
    return e;
}

/* ------------------------------------------------------------------------------------ */
/* The search.                                                                           */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The tightest bounds on V(me, opp) known now (proven, exact or static). */
static void bounds(const Search *s, uint64_t key_me, uint64_t key_opp, int *low, int *high) {
    const Entry *e = find(s, key_me, key_opp);
    if (e != NULL) {
        *low = e->lower;
        *high = e->upper;
        return;
    }
    int64_t me[MAX_CUPS + 1] = {0}, opp[MAX_CUPS + 1] = {0};
    unpack(key_me, s->n, me);
    unpack(key_opp, s->n, opp);
    int value;
    if (exact(s, me, opp, &value)) *low = *high = value;
    else static_bounds(me, opp, s->n, low, high);
}

/* Null-window test of V(me, opp) >= gamma, fail-soft (proof._Prover.probe): g >= gamma proves
 * V >= g, g < gamma proves V <= g. Sets s->exhausted (and returns 0) when the budget ran out. */
static int probe(Search *s, uint64_t key_me, uint64_t key_opp, int gamma) {
    int n = s->n;
    int64_t me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
    unpack(key_me, n, me);
    unpack(key_opp, n, opp);
    int low, high, move = NO_MOVE;
    Entry *e = find(s, key_me, key_opp);
    if (e == NULL) {
        int value;
        if (exact(s, me, opp, &value)) return value;
        static_bounds(me, opp, n, &low, &high);
        e = insert(s, key_me, key_opp, low, high);
    }
    if (e != NULL) {
        low = e->lower;
        high = e->upper;
        move = e->move;
    }
    if (low >= gamma) return low;
    if (high < gamma) return high;
    if (s->nodes >= s->limit || (s->timed && (s->nodes & 1023) == 0 && now() > s->deadline)) {
        s->exhausted = 1;
        return 0;
    }
    s->nodes++;
    int64_t first_node = s->nodes;
    Child c[MAX_CHILDREN];
    int count = children(s, me, opp, c);
    for (int i = 0; i < count; i++) {                       /* a move already proven good enough? */
        const Entry *after = find(s, c[i].me, c[i].opp);
        int bound;
        if (after != NULL) {
            bound = after->upper;
        } else {
            int64_t next_me[MAX_CUPS + 1], next_opp[MAX_CUPS + 1];
            unpack(c[i].me, n, next_me);
            unpack(c[i].opp, n, next_opp);
            if (!exact(s, next_me, next_opp, &bound)) continue;
        }
        if (c[i].gain - bound >= gamma) {
            if (c[i].gain - bound > low) {
                Entry *own = refind(s, key_me, key_opp, low, high, move, 1);
                if (own != NULL && c[i].gain - bound > own->lower) {
                    own->lower = (int16_t)(c[i].gain - bound);
                    own->move = (int8_t)c[i].code;
                }
            }
            return c[i].gain - bound;
        }
    }
    if (move != NO_MOVE) {
        for (int i = 1; i < count; i++) {
            if (c[i].code != move) continue;
            Child first = c[i];
            memmove(&c[1], &c[0], (size_t)i * sizeof(Child));
            c[0] = first;
            break;
        }
    }
    int best = INT32_MIN, best_move = NO_MOVE;
    for (int i = 0; i < count; i++) {
        int answer = probe(s, c[i].me, c[i].opp, c[i].gain - gamma + 1);
        if (s->exhausted || s->failed) return 0;
        int value = c[i].gain - answer;
        if (value > best) {
            best = value;
            best_move = c[i].code;
            if (best >= gamma) break;
        }
    }
    Entry *own = refind(s, key_me, key_opp, low, high, move, s->nodes - first_node + 1);
    if (own != NULL) {
        if (best >= gamma) {
            if (best > own->lower) {
                own->lower = (int16_t)best;
                own->move = (int8_t)best_move;
            }
        } else if (best < own->upper) {
            own->upper = (int16_t)best;
        }
    }
    return best;
}

/* Null-window probes around guess until V(me, opp) is exact (MTD(f)), or the budget runs out. */
static void mtdf(Search *s, uint64_t me, uint64_t opp, int guess) {
    int low, high;
    bounds(s, me, opp, &low, &high);
    int g = guess < low ? low : (guess > high ? high : guess);
    while (low < high) {
        g = probe(s, me, opp, g == low ? g + 1 : g);
        if (s->exhausted || s->failed) return;
        bounds(s, me, opp, &low, &high);
    }
}

/* ------------------------------------------------------------------------------------ */
/* The certificate's rows.                                                               */

typedef struct {
    uint64_t me, opp;
    int kind, need;
} Claim;

typedef struct {
    Claim *items;
    size_t count, size;
} Claims;

typedef struct {
    uint8_t *bytes;                 /* rows of row_dtype: me, opp (n + 1 bytes each), kind, move, value (int16) */
    size_t count, size, width;
    uint64_t *slots;                /* a set of rows by (me, opp, kind): row index + 1, open addressing */
    size_t slot_count;              /* a power of two */
} Rows;

static int push(Claims *c, uint64_t me, uint64_t opp, int kind, int need) {
    if (c->count == c->size) {
        size_t size = c->size ? 2 * c->size : 1024;
        Claim *items = realloc(c->items, size * sizeof(Claim));
        if (items == NULL) return 0;
        c->items = items;
        c->size = size;
    }
    c->items[c->count++] = (Claim){me, opp, kind, need};
    return 1;
}

/* The position and kind of row `at`. */
static void row_key(const Rows *r, size_t at, uint64_t *me, uint64_t *opp, int *kind) {
    const uint8_t *row = r->bytes + at * r->width;
    size_t sides = (r->width - 4) / 2;
    *me = *opp = 0;
    for (size_t j = 0; j < sides; j++) {
        *me |= (uint64_t)row[j] << (8 * j);
        *opp |= (uint64_t)row[sides + j] << (8 * j);
    }
    *kind = row[2 * sides];
}

/* The slot of (me, opp, kind): its row index + 1, or the empty slot where it goes. */
static uint64_t *slot_of(const Rows *r, uint64_t me, uint64_t opp, int kind) {
    size_t mask = r->slot_count - 1, i = hash(me, opp ^ (uint64_t)kind) & mask;
    for (; r->slots[i]; i = (i + 1) & mask) {
        uint64_t row_me, row_opp;
        int row_kind;
        row_key(r, (size_t)r->slots[i] - 1, &row_me, &row_opp, &row_kind);
        if (row_me == me && row_opp == opp && row_kind == kind) break;
    }
    return &r->slots[i];
}

static int grow_rows(Rows *r) {
    size_t size = r->size ? 2 * r->size : 1024;
    uint8_t *bytes = realloc(r->bytes, size * r->width);
    if (bytes == NULL) return 0;
    r->bytes = bytes;
    r->size = size;
    size_t slots = 2 * size;                     /* the set at most half full */
    if (slots <= r->slot_count) return 1;
    uint64_t *old = r->slots;
    size_t old_count = r->slot_count;
    r->slots = calloc(slots, sizeof(uint64_t));
    if (r->slots == NULL) {
        r->slots = old;
        return 0;
    }
    r->slot_count = slots;
    for (size_t i = 0; i < old_count; i++) {
        if (!old[i]) continue;
        uint64_t me, opp;
        int kind;
        row_key(r, (size_t)old[i] - 1, &me, &opp, &kind);
        *slot_of(r, me, opp, kind) = old[i];
    }
    free(old);
    return 1;
}

static void write_row(const Search *s, Rows *r, size_t at, uint64_t me, uint64_t opp, int kind, int value,
                      int move) {
    uint8_t *row = r->bytes + at * r->width;
    int n = s->n;
    for (int j = 0; j <= n; j++) {
        row[j] = (uint8_t)(me >> (8 * j));
        row[n + 1 + j] = (uint8_t)(opp >> (8 * j));
    }
    row[2 * n + 2] = (uint8_t)kind;
    row[2 * n + 3] = (uint8_t)(int8_t)move;
    row[2 * n + 4] = (uint8_t)(value & 255);
    row[2 * n + 5] = (uint8_t)((value >> 8) & 255);
}

/* Every proven bound the claims rely on (proof._Prover.rows), each (position, kind) once;
 * a bound whose entry was replaced is proven again. Returns 0 on failure (s->failed set). */
static int gather_rows(Search *s, Claims *stack, Rows *rows) {
    int n = s->n;
    while (stack->count) {
        Claim claim = stack->items[--stack->count];
        int low, high;
        Entry *e = find(s, claim.me, claim.opp);
        int64_t me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
        unpack(claim.me, n, me);
        unpack(claim.opp, n, opp);
        if (e == NULL) bounds(s, claim.me, claim.opp, &low, &high);
        else static_bounds(me, opp, n, &low, &high);
        if (claim.kind == LOWER ? low >= claim.need : high <= claim.need) continue;
        if (rows->count == rows->size && !grow_rows(rows)) return s->failed = 1, 0;
        uint64_t *slot = slot_of(rows, claim.me, claim.opp, claim.kind);
        size_t at = rows->count;
        if (*slot) {                                        /* a row there already: strong enough? */
            at = (size_t)*slot - 1;
            const uint8_t *row = rows->bytes + at * rows->width;
            int value = (int16_t)(row[2 * n + 4] | (row[2 * n + 5] << 8));
            if (claim.kind == LOWER ? value >= claim.need : value <= claim.need) continue;
        }
        int proven = e != NULL && (claim.kind == LOWER ? e->lower >= claim.need && e->move != NO_MOVE
                                                        : e->upper <= claim.need);
        if (!proven) {                                      /* replaced: prove it again */
            probe(s, claim.me, claim.opp, claim.kind == LOWER ? claim.need : claim.need + 1);
            e = find(s, claim.me, claim.opp);
            if (s->failed || e == NULL || (claim.kind == LOWER ? e->lower < claim.need || e->move == NO_MOVE
                                                                : e->upper > claim.need))
                return s->failed = 1, 0;
            slot = slot_of(rows, claim.me, claim.opp, claim.kind);   /* the probe kept the rows as they were */
        }
        int value = claim.kind == LOWER ? e->lower : e->upper, move = claim.kind == LOWER ? e->move : 0;
        write_row(s, rows, at, claim.me, claim.opp, claim.kind, value, move);
        if (at == rows->count) {
            rows->count++;
            *slot = (uint64_t)(at + 1);
        }
        Child c[MAX_CHILDREN];
        int count = children(s, me, opp, c);
        for (int i = 0; i < count; i++) {
            if (claim.kind == LOWER && c[i].code != move) continue;
            int ok = claim.kind == LOWER ? push(stack, c[i].me, c[i].opp, UPPER, c[i].gain - value)
                                         : push(stack, c[i].me, c[i].opp, LOWER, c[i].gain - value);
            if (!ok) return s->failed = 1, 0;
        }
    }
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* The whole proof (proof.prove): the start, its first moves, the claims and their rows.   */

typedef struct {
    int lower, upper, count;
    int codes[MAX_CHILDREN], lows[MAX_CHILDREN], highs[MAX_CHILDREN];
} Outcome;

static int run(Search *s, const int64_t *start_me, const int64_t *start_opp, int all_first_moves, int guess,
               int gather, Outcome *out, Rows *rows) {
    int n = s->n;
    uint64_t me = pack(start_me, n), opp = pack(start_opp, n);
    Child c[MAX_CHILDREN];
    int count = children(s, start_me, start_opp, c);
    s->pins[s->pin_count][0] = me;
    s->pins[s->pin_count++][1] = opp;
    for (int i = 0; i < count; i++) {
        s->pins[s->pin_count][0] = c[i].me;
        s->pins[s->pin_count++][1] = c[i].opp;
    }
    for (int i = 0; i < s->pin_count; i++) {              /* entries of a kept table: pinned from now on */
        Entry *e = find(s, s->pins[i][0], s->pins[i][1]);
        if (e != NULL) e->work = PINNED;
    }
    int low, high;
    mtdf(s, me, opp, guess);
    if (all_first_moves && !s->exhausted && !s->failed) {
        bounds(s, me, opp, &low, &high);
        for (int i = 0; i < count && !s->exhausted && !s->failed; i++) mtdf(s, c[i].me, c[i].opp, c[i].gain - low);
    }
    if (s->failed) return 0;
    int exhausted = s->exhausted;
    s->limit = INT64_MAX;                                  /* the rows' probes: no budget */
    s->timed = 0;
    s->exhausted = 0;
    bounds(s, me, opp, &low, &high);
    out->lower = low;
    out->upper = high;
    out->count = count;
    Claims stack = {0};
    int ok = push(&stack, me, opp, LOWER, low) && push(&stack, me, opp, UPPER, high);
    for (int i = 0; i < count && ok; i++) {
        int child_low, child_high;
        bounds(s, c[i].me, c[i].opp, &child_low, &child_high);
        out->codes[i] = c[i].code;
        out->lows[i] = c[i].gain - child_high;
        out->highs[i] = c[i].gain - child_low < high ? c[i].gain - child_low : high;
        ok = push(&stack, c[i].me, c[i].opp, UPPER, child_high);
        if (ok && c[i].gain - child_low < high) ok = push(&stack, c[i].me, c[i].opp, LOWER, child_low);
    }
    if (!ok) s->failed = 1;
    else if (gather) gather_rows(s, &stack, rows);
    free(stack.items);
    s->exhausted = exhausted;
    int work = work_of(s->nodes);
    for (int i = 0; i < s->pin_count; i++) {              /* released for the searches after this one */
        Entry *e = find(s, s->pins[i][0], s->pins[i][1]);
        if (e != NULL) e->work = (uint8_t)work;
    }
    s->pin_count = 0;
    return !s->failed;
}

/* ------------------------------------------------------------------------------------ */
/* Python binding.                                                                       */


typedef struct {
    PyObject_HEAD
    int cups, every, busy;
    Entry *tt;
    uint64_t buckets, max_buckets, entries, replaced;
} Transpositions;

/* The most buckets of at most max_entries entries (a power of two), and the first size. */
static void sizes_for(Py_ssize_t max_entries, uint64_t *max_buckets, uint64_t *buckets) {
    *max_buckets = 1;
    while (*max_buckets * 2 * WAYS <= (uint64_t)max_entries) *max_buckets *= 2;
    *buckets = FIRST_BUCKETS < *max_buckets ? FIRST_BUCKETS : *max_buckets;
}

static int transpositions_init(Transpositions *self, PyObject *args, PyObject *kwds) {
    static char *names[] = {"cups", "every", "max_entries", NULL};
    int cups, every;
    Py_ssize_t max_entries;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ipn", names, &cups, &every, &max_entries)) return -1;
    if (cups < 1 || cups > MAX_CUPS || max_entries < WAYS) {
        PyErr_Format(PyExc_ValueError, "cups must be 1..%d, max_entries >= %d", MAX_CUPS, WAYS);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the transposition table is in use by a search");
        return -1;
    }
    Entry *tt;
    uint64_t max_buckets, buckets;
    sizes_for(max_entries, &max_buckets, &buckets);
    tt = calloc(buckets * WAYS, sizeof(Entry));
    if (tt == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    free(self->tt);
    *self = (Transpositions){self->ob_base, cups, every, 0, tt, buckets, max_buckets, 0, 0};
    return 0;
}

static void transpositions_dealloc(Transpositions *self) {
    free(self->tt);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *transpositions_get(Transpositions *self, void *which) {
    switch ((int)(intptr_t)which) {
    case 0: return PyLong_FromUnsignedLongLong(self->entries);
    case 1: return PyLong_FromUnsignedLongLong(self->replaced);
    case 2: return PyLong_FromUnsignedLongLong(self->max_buckets * WAYS);
    default: return PyLong_FromUnsignedLongLong(self->buckets * WAYS * sizeof(Entry));
    }
}

/* Beans of a packed side. */
static inline int64_t key_beans(uint64_t key) {
    int64_t total = 0;
    for (; key; key >>= 8) total += (int64_t)(key & 255);
    return total;
}

static PyObject *transpositions_drop_beyond(Transpositions *self, PyObject *args) {
    Py_ssize_t side, total;
    if (!PyArg_ParseTuple(args, "nn", &side, &total)) return NULL;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the transposition table is in use by a search");
        return NULL;
    }
    uint64_t dropped = 0;
    for (uint64_t i = 0; self->tt != NULL && i < self->buckets * WAYS; i++) {
        Entry *e = &self->tt[i];
        if (!e->work) continue;
        int64_t me = key_beans(e->me), opp = key_beans(e->opp);
        if (me > side || opp > side || me + opp > total) {
            e->work = 0;
            dropped++;
        }
    }
    self->entries -= dropped;
    return PyLong_FromUnsignedLongLong(dropped);
}

static PyMethodDef transpositions_methods[] = {
    {"drop_beyond", (PyCFunction)transpositions_drop_beyond, METH_VARARGS,
     "drop_beyond(side, total) -> entries dropped: those with a side of more than side beans or more than total "
     "beans in all (no later position of a game whose sides hold at most these reaches them, BOHN-3..BOHN-5)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef transpositions_fields[] = {
    {"positions", (getter)transpositions_get, NULL, "entries held", (void *)0},
    {"replaced", (getter)transpositions_get, NULL, "entries replaced by another position, in all", (void *)1},
    {"capacity", (getter)transpositions_get, NULL, "the most entries", (void *)2},
    {"bytes", (getter)transpositions_get, NULL, "bytes allocated now", (void *)3},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject TranspositionsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "_proof_c.Transpositions",
    .tp_doc = "Transpositions(cups, every, max_entries): a transposition table kept between searches.",
    .tp_basicsize = sizeof(Transpositions),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)transpositions_init,
    .tp_dealloc = (destructor)transpositions_dealloc,
    .tp_getset = transpositions_fields,
    .tp_methods = transpositions_methods,
};

static int read_side(const Py_buffer *b, int n, int64_t *side) {
    if (b->len != n + 1) return 0;
    for (int j = 0; j <= n; j++) side[j] = ((const uint8_t *)b->buf)[j];
    return 1;
}

static PyObject *py_prove(PyObject *self, PyObject *args) {
    (void)self;
    int cups, every, all_first_moves, guess, gather;
    Py_buffer start[2] = {{0}};
    PyObject *table, *kept = Py_None;
    Py_ssize_t table_stock, node_limit, max_entries;
    double seconds;
    if (!PyArg_ParseTuple(args, "ipy*y*Onndpinp|O", &cups, &every, &start[0], &start[1], &table, &table_stock,
                          &node_limit, &seconds, &all_first_moves, &guess, &max_entries, &gather, &kept))
        return NULL;
    Search s = {0};
    int64_t me[MAX_CUPS + 1], opp[MAX_CUPS + 1];
    PyObject *result = NULL;
    Transpositions *own = NULL;                             /* the kept table, once accepted */
    if (kept != Py_None) {
        Transpositions *given = (Transpositions *)kept;
        if (!PyObject_TypeCheck(kept, &TranspositionsType) || given->tt == NULL) {
            PyErr_SetString(PyExc_TypeError, "transpositions must be None or a Transpositions object");
            goto done;
        }
        if (given->cups != cups || given->every != every || given->busy) {
            PyErr_Format(PyExc_ValueError, "the transposition table is of cups=%d, every=%d%s; the search has "
                         "cups=%d, every=%d", given->cups, given->every, given->busy ? " and in use" : "", cups,
                         every);
            goto done;
        }
        own = given;
    }
    if (cups < 1 || cups > MAX_CUPS || !read_side(&start[0], cups, me) || !read_side(&start[1], cups, opp) ||
        max_entries < WAYS) {
        PyErr_Format(PyExc_ValueError, "cups must be 1..%d, each side cups + 1 bytes, max_entries >= %d", MAX_CUPS,
                     WAYS);
        goto done;
    }
    s.n = cups;
    s.every = every;
    if (dense_table_open(&s.table, table, cups, table_stock) < 0) goto done;
    s.limit = node_limit < 0 ? INT64_MAX : node_limit;
    s.timed = seconds >= 0;
    if (own != NULL) {
        s.tt = own->tt;
        s.buckets = own->buckets;
        s.max_buckets = own->max_buckets;
        s.entries = own->entries;
        own->busy = 1;
    } else {
        sizes_for(max_entries, &s.max_buckets, &s.buckets);
        s.tt = calloc(s.buckets * WAYS, sizeof(Entry));
    }
    Rows rows = {0};
    rows.width = 2 * (size_t)(cups + 1) + 4;
    if (s.tt == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Outcome out = {0};
    int ok;
    Py_BEGIN_ALLOW_THREADS
    s.deadline = now() + seconds;
    ok = run(&s, me, opp, all_first_moves, guess, gather, &out, &rows);
    Py_END_ALLOW_THREADS
    if (own != NULL) {                                     /* the table kept, as it grew */
        own->tt = s.tt;
        own->buckets = s.buckets;
        own->entries = s.entries;
        own->replaced += s.replaced;
        own->busy = 0;
        s.tt = NULL;
    }
    if (!ok) {
        PyErr_SetString(PyExc_MemoryError, "the proof search ran out of memory, or could not prove a bound again");
    } else {
        PyObject *moves = PyList_New(out.count);
        for (int i = 0; moves != NULL && i < out.count; i++)
            PyList_SET_ITEM(moves, i, Py_BuildValue("iii", out.codes[i], out.lows[i], out.highs[i]));
        if (moves != NULL)
            result = Py_BuildValue("iiNLKKNy#", out.lower, out.upper, moves, (long long)s.nodes,
                                   (unsigned long long)s.entries, (unsigned long long)s.replaced,
                                   PyBool_FromLong(s.exhausted), rows.bytes ? (const char *)rows.bytes : "",
                                   (Py_ssize_t)(rows.count * rows.width));
    }
    free(rows.bytes);
    free(rows.slots);
done:
    free(s.tt);                                            /* NULL when the table is kept */
    PyBuffer_Release(&start[0]);
    PyBuffer_Release(&start[1]);
    dense_table_release(&s.table);
    return result;
}

static PyMethodDef methods[] = {
    {"prove", py_prove, METH_VARARGS,
     "prove(cups, every, start_me, start_opp, table, table_stock, node_limit, seconds, all_first_moves, guess, "
     "max_entries, rows[, transpositions]) -> (lower, upper, first moves, nodes, positions, replaced, exhausted, "
     "rows)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_proof_c",
                                    "The compiled proof search of BohnDuell (see proof_compiled.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__proof_c(void) {
    if (PyType_Ready(&TranspositionsType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&TranspositionsType);
    if (PyModule_AddObject(m, "Transpositions", (PyObject *)&TranspositionsType) < 0) {
        Py_DECREF(&TranspositionsType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
