/* The rules that move checkers (docs/rules.md BG-3..BG-6), written once, for the rules
 * engine (plays.py, moves.py) and the bear-off move table (bearoff.py).
 *
 * A side is 25 int8 checker counts in its owner's numbering: index p - 1 is his point p
 * (1..24, he bears off from his home board 1..6), index 24 his bar. The mover's side is
 * `mine`, his opponent's `theirs` (in the opponent's numbering: my point p is his point
 * 25 - p). A step moves one checker with one die from `source` (1..24, or the bar 25) to
 * `target` (1..24, or borne off, 0).
 *
 *   step_target    where a step of one die lands, or -1 when the rules forbid it (BG-4
 *                  closed points and the playtive limit, BG-5 the bar first, BG-6 bearing off)
 *   move_checker   the two sides after a step, hitting a blot (BG-5)
 *   play_levels    BG-3: the level of the legal plays of a roll (both dice if possible, else
 *                  one die, the larger if either; doubles four times), over any representation
 *                  of levels (a level holds the distinct states after as many dice)
 *
 * play_levels runs over two representations:
 *
 *   positions      (roll_plays) a state is both sides, the opponent's blots hit (a bit per
 *                  point of the mover, 1..24) and the steps of one play reaching it; states are
 *                  merged by key (the mover's counts as runs of ones in bits 0..38, the hits
 *                  in bits 39..62); of merged plays the one whose sorted steps are highest is
 *                  kept. A step is coded source * 32 + target in 10 bits; a play's steps,
 *                  sorted from the highest down, are packed four to an int64 (the first step
 *                  in the highest bits), so two plays of as many steps compare like the tuples
 *                  of their sorted steps. Results are ordered by key.
 *   home boards    (bearoff_successors) a state is the dense index of a home board (the order
 *                  of bearoff.py), its single steps read from a table filled by step_target
 *                  and move_checker (single_step_table); the targets of each board and roll
 *                  are sorted.
 *
 * The count of dice is strict, as in GNU Backgammon: a play that bears off the last checker
 * with one die is not legal when another play uses both dice.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BAR 25
#define OFF 0
#define SIDE 25          /* counts of a side: points 1..24 and the bar */
#define STEP_BITS 10
#define HIT_SHIFT 39
#define LEVELS 6         /* levels of one roll: the start and at most five more */
#define ROLLS 21
#define LEVEL_ROOM 1296  /* home boards a level can hold: at most 6^4 sequences of single steps */

/* ---------------------------------------------------------------------------------------
 * The step rules (BG-4..BG-6)
 * ------------------------------------------------------------------------------------- */

/* Where a checker of the mover on `source` lands with `die`, or -1 if he may not.
 * BG-5: with a checker on the bar, only the bar moves. BG-4: a point holding two or more
 * opposing checkers is closed; with limit > 0 (playtive: 5) so is a point holding `limit`
 * of his own. BG-6: bearing off (target 0) needs every checker home, and a die above the
 * point only bears off from the highest one. */
static int step_target(const int8_t *mine, const int8_t *theirs, int source, int die, int limit) {
    if (mine[source - 1] == 0) return -1;
    if (mine[BAR - 1] > 0 && source != BAR) return -1;
    int target = source - die;
    if (target >= 1) {
        if (theirs[24 - target] >= 2) return -1;
        if (limit > 0 && mine[target - 1] >= limit) return -1;
        return target;
    }
    for (int point = 7; point <= BAR; point++)
        if (mine[point - 1] > 0) return -1;
    if (target < 0)
        for (int point = source + 1; point < 7; point++)
            if (mine[point - 1] > 0) return -1;
    return OFF;
}

/* Write both sides after the step source -> target (assumed legal); return 1 if it hits a
 * blot, which goes to the opponent's bar (BG-5), else 0. */
static int move_checker(const int8_t *mine, const int8_t *theirs, int source, int target,
                        int8_t *new_mine, int8_t *new_theirs) {
    memmove(new_mine, mine, SIDE);
    memmove(new_theirs, theirs, SIDE);
    new_mine[source - 1] -= 1;
    if (target == OFF) return 0;
    new_mine[target - 1] += 1;
    if (theirs[24 - target] == 1) {
        new_theirs[24 - target] = 0;
        new_theirs[BAR - 1] += 1;
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * BG-3 over levels
 * ------------------------------------------------------------------------------------- */

/* A representation of levels: level 0 is the start; expand and unite make a new level and
 * return its number (-1: out of memory); count tells how many states a level holds. */
typedef struct Levels Levels;
struct Levels {
    int (*expand)(Levels *levels, int level, int die, int limit);
    int (*unite)(Levels *levels, int first, int second);
    int64_t (*count)(Levels *levels, int level);
};

/* BG-3: the level of the legal plays of the roll first-second from level 0, and in *used the
 * dice every play uses. Both dice are played if possible, else one die, and then the larger
 * if either can be played; doubles are played four times, or as many times as possible. A
 * state with no checker left (the game is won) has no step: a play ends there. Level 0 and
 * used 0 when nothing can be played; -1 when out of memory. */
static int play_levels(Levels *levels, int first, int second, int limit, int *used) {
    *used = 0;
    if (first == second) {
        int level = 0;
        for (int i = 0; i < 4; i++) {
            int following = levels->expand(levels, level, first, limit);
            if (following < 0) return -1;
            if (levels->count(levels, following) == 0) break;
            level = following;
            *used += 1;
        }
        return level;
    }
    int high = first > second ? first : second, low = first > second ? second : first;
    int after_high = levels->expand(levels, 0, high, limit);
    int after_low = after_high < 0 ? -1 : levels->expand(levels, 0, low, limit);
    int high_low = after_low < 0 ? -1 : levels->expand(levels, after_high, low, limit);
    int low_high = high_low < 0 ? -1 : levels->expand(levels, after_low, high, limit);
    int both = low_high < 0 ? -1 : levels->unite(levels, high_low, low_high);
    if (both < 0) return -1;
    if (levels->count(levels, both) > 0) {
        *used = 2;
        return both;
    }
    if (levels->count(levels, after_high) > 0) {
        *used = 1;
        return after_high;
    }
    if (levels->count(levels, after_low) > 0) {
        *used = 1;
        return after_low;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Levels of positions (roll_plays)
 * ------------------------------------------------------------------------------------- */

typedef struct {
    int8_t mine[SIDE], theirs[SIDE];
    uint64_t hits;      /* bit p - 1: the opponent's blot on the mover's point p was hit */
    uint64_t steps;     /* the packed steps of one play reaching the state */
    uint64_t key;
} State;

typedef struct {
    Levels base;
    State *states[LEVELS];
    int64_t counts[LEVELS];
    int made;           /* levels made so far */
} PositionLevels;

static uint64_t step_code(int source, int target) { return (uint64_t)(source * 32 + target); }

/* The packed steps `steps` (at most three) with the step code `step` added in order. */
static uint64_t with_step(uint64_t steps, uint64_t step) {
    uint64_t result = 0;
    int read = 0, placed = 0;
    for (int slot = 0; slot < 4; slot++) {
        uint64_t current = read < 4 ? (steps >> (STEP_BITS * (3 - read))) & 1023 : 0, value;
        if (!placed && step > current) {
            value = step;
            placed = 1;
        } else {
            value = current;
            read++;
        }
        result |= value << (STEP_BITS * (3 - slot));
    }
    return result;
}

/* The key of a state (see the module comment): equal keys, equal states. */
static uint64_t state_key(const int8_t *mine, uint64_t hits) {
    uint64_t key = 0;
    int bit = 0;
    for (int i = 0; i < BAR; i++) {
        key |= ((UINT64_C(1) << mine[i]) - 1) << bit;
        bit += mine[i] + 1;
    }
    return key | (hits << HIT_SHIFT);
}

/* A new level of room for `rows` states, or -1. */
static int new_position_level(PositionLevels *levels, int64_t rows) {
    int level = levels->made;
    levels->states[level] = malloc((size_t)rows * sizeof(State));
    if (levels->states[level] == NULL) return -1;
    levels->counts[level] = 0;
    levels->made++;
    return level;
}

/* An open-addressing table of at least 2 * rows slots (-1: free), or NULL. */
static int64_t *new_slots(int64_t rows, uint64_t *mask) {
    int64_t size = 16;
    while (size < 2 * rows) size *= 2;
    int64_t *slots = malloc((size_t)size * sizeof(int64_t));
    if (slots != NULL) memset(slots, 0xff, (size_t)size * sizeof(int64_t));
    *mask = (uint64_t)size - 1;
    return slots;
}

/* Keep the state just written after the level's states unless it is there already, in which
 * case that one keeps the higher steps. */
static void keep(State *states, int64_t *count, int64_t *slots, uint64_t mask) {
    State *state = &states[*count];
    state->key = state_key(state->mine, state->hits);
    uint64_t slot = (state->key ^ (state->key >> 17) ^ (state->key >> 31)) & mask;
    while (slots[slot] >= 0 && states[slots[slot]].key != state->key) slot = (slot + 1) & mask;
    if (slots[slot] >= 0) {
        if (state->steps > states[slots[slot]].steps) states[slots[slot]].steps = state->steps;
        return;
    }
    slots[slot] = *count;
    (*count)++;
}

/* Every state one legal step of `die` away from a state of `level`, merged. */
static int expand_positions(Levels *base, int level, int die, int limit) {
    PositionLevels *levels = (PositionLevels *)base;
    int64_t count = levels->counts[level], rows = 16 * count + 1;  /* at most 15 checkers move */
    int made = new_position_level(levels, rows);
    uint64_t mask;
    int64_t *slots = made < 0 ? NULL : new_slots(rows, &mask);
    if (slots == NULL) return -1;
    const State *from = levels->states[level];
    State *to = levels->states[made];
    for (int64_t i = 0; i < count; i++) {
        for (int source = BAR; source > 0; source--) {
            int target = step_target(from[i].mine, from[i].theirs, source, die, limit);
            if (target < 0) continue;
            State *state = &to[levels->counts[made]];
            int hit = move_checker(from[i].mine, from[i].theirs, source, target, state->mine, state->theirs);
            state->hits = hit ? from[i].hits | (UINT64_C(1) << (target - 1)) : from[i].hits;
            state->steps = with_step(from[i].steps, step_code(source, target));
            keep(to, &levels->counts[made], slots, mask);
        }
    }
    free(slots);
    return made;
}

/* The states of two levels together, merged. */
static int unite_positions(Levels *base, int first, int second) {
    PositionLevels *levels = (PositionLevels *)base;
    int64_t rows = levels->counts[first] + levels->counts[second] + 1;
    int made = new_position_level(levels, rows);
    uint64_t mask;
    int64_t *slots = made < 0 ? NULL : new_slots(rows, &mask);
    if (slots == NULL) return -1;
    int parts[2] = {first, second};
    for (int part = 0; part < 2; part++)
        for (int64_t i = 0; i < levels->counts[parts[part]]; i++) {
            levels->states[made][levels->counts[made]] = levels->states[parts[part]][i];
            keep(levels->states[made], &levels->counts[made], slots, mask);
        }
    free(slots);
    return made;
}

static int64_t count_positions(Levels *base, int level) { return ((PositionLevels *)base)->counts[level]; }

static int by_key(const void *a, const void *b) {
    uint64_t x = ((const State *)a)->key, y = ((const State *)b)->key;
    return (x > y) - (x < y);
}

/* ---------------------------------------------------------------------------------------
 * Levels of home boards (the bear-off move table)
 * ------------------------------------------------------------------------------------- */

typedef struct {
    Levels base;
    const int64_t *single;  /* single-step table, (count, 7, 6) */
    int64_t *mark;          /* per board: the stamp of the level that last took it */
    int64_t stamp;
    int32_t *boards[LEVELS];
    int64_t counts[LEVELS];
    int made;
} BoardLevels;

/* Every board one single step of `die` away from a board of `level`, each taken once (a new
 * stamp marks the boards taken). */
static int expand_boards(Levels *base, int level, int die, int limit) {
    (void)limit;            /* the single-step table follows the limit it was filled with */
    BoardLevels *levels = (BoardLevels *)base;
    int made = levels->made++;
    int64_t stamp = ++levels->stamp, found = 0;
    for (int64_t i = 0; i < levels->counts[level]; i++) {
        const int64_t *after = &levels->single[(int64_t)levels->boards[level][i] * 42 + die * 6];
        for (int p = 0; p < 6; p++)
            if (after[p] >= 0 && levels->mark[after[p]] != stamp) {
                levels->mark[after[p]] = stamp;
                levels->boards[made][found++] = (int32_t)after[p];
            }
    }
    levels->counts[made] = found;
    return made;
}

/* The boards of two levels together, each taken once. */
static int unite_boards(Levels *base, int first, int second) {
    BoardLevels *levels = (BoardLevels *)base;
    int made = levels->made++;
    int64_t stamp = ++levels->stamp, found = 0;
    int parts[2] = {first, second};
    for (int part = 0; part < 2; part++)
        for (int64_t i = 0; i < levels->counts[parts[part]]; i++) {
            int32_t board = levels->boards[parts[part]][i];
            if (levels->mark[board] != stamp) {
                levels->mark[board] = stamp;
                levels->boards[made][found++] = board;
            }
        }
    levels->counts[made] = found;
    return made;
}

static int64_t count_boards(Levels *base, int level) { return ((BoardLevels *)base)->counts[level]; }

/* Sort a short list of boards (the results of one roll) in place. */
static void sort_boards(int32_t *boards, int64_t count) {
    for (int64_t i = 1; i < count; i++) {
        int32_t board = boards[i];
        int64_t j = i;
        for (; j > 0 && boards[j - 1] > board; j--) boards[j] = boards[j - 1];
        boards[j] = board;
    }
}

/* The dense index of the home board mine[0..5] (keys: the sorted base-16 keys of every
 * board, order: their indices). */
static int64_t board_index(const int8_t *mine, const int64_t *keys, const int64_t *order, int64_t count) {
    int64_t key = 0;
    for (int p = 5; p >= 0; p--) key = key * 16 + mine[p];
    int64_t low = 0, high = count;
    while (low < high) {
        int64_t middle = (low + high) / 2;
        if (keys[middle] < key) low = middle + 1;
        else high = middle;
    }
    return order[low];
}

/* table[i, die, p - 1]: the index of board i after its checker on point p moves (or bears
 * off) with die, or -1 when the rules forbid it. */
static void single_step_table(const int64_t *boards, int64_t count, const int64_t *keys, const int64_t *order,
                              int64_t all, int limit, int64_t *table) {
    int8_t mine[SIDE], theirs[SIDE], new_mine[SIDE], new_theirs[SIDE];
    memset(mine, 0, SIDE);
    memset(theirs, 0, SIDE);
    for (int64_t x = 0; x < count; x++) {
        for (int p = 0; p < 6; p++) mine[p] = (int8_t)boards[x * 6 + p];
        for (int die = 0; die < 7; die++)
            for (int point = 1; point <= 6; point++) {
                int target = die == 0 ? -1 : step_target(mine, theirs, point, die, limit);
                int64_t after = -1;
                if (target >= 0) {
                    move_checker(mine, theirs, point, target, new_mine, new_theirs);
                    after = board_index(new_mine, keys, order, all);
                }
                table[(x * 7 + die) * 6 + point - 1] = after;
            }
    }
}

/* ---------------------------------------------------------------------------------------
 * Python interface
 * ------------------------------------------------------------------------------------- */

static int check_side(const Py_buffer *side) {
    if (side->len != SIDE) {
        PyErr_Format(PyExc_ValueError, "a side is %d int8 counts, got %zd bytes", SIDE, side->len);
        return 0;
    }
    return 1;
}

static PyObject *py_step_target(PyObject *self, PyObject *args) {
    Py_buffer mine, theirs;
    int source, die, limit;
    if (!PyArg_ParseTuple(args, "y*y*iii", &mine, &theirs, &source, &die, &limit)) return NULL;
    PyObject *result = NULL;
    if (check_side(&mine) && check_side(&theirs)) {
        if (source < 1 || source > BAR || die < 1 || die > 6)
            PyErr_Format(PyExc_ValueError, "no step from %d with a die of %d", source, die);
        else
            result = PyLong_FromLong(step_target(mine.buf, theirs.buf, source, die, limit));
    }
    PyBuffer_Release(&mine);
    PyBuffer_Release(&theirs);
    return result;
}

static PyObject *py_move_checker(PyObject *self, PyObject *args) {
    Py_buffer mine, theirs;
    int source, target;
    if (!PyArg_ParseTuple(args, "y*y*ii", &mine, &theirs, &source, &target)) return NULL;
    PyObject *result = NULL;
    if (check_side(&mine) && check_side(&theirs)) {
        if (source < 1 || source > BAR || target < OFF || target >= BAR)
            PyErr_Format(PyExc_ValueError, "no step %d/%d", source, target);
        else {
            int8_t new_mine[SIDE], new_theirs[SIDE];
            int hit = move_checker(mine.buf, theirs.buf, source, target, new_mine, new_theirs);
            result = Py_BuildValue("y#y#i", (const char *)new_mine, (Py_ssize_t)SIDE, (const char *)new_theirs,
                                   (Py_ssize_t)SIDE, hit);
        }
    }
    PyBuffer_Release(&mine);
    PyBuffer_Release(&theirs);
    return result;
}

/* roll_plays(mine, theirs, first, second, limit) -> (mines, theirs, steps, used): bytearrays
 * of the k results ordered by key (k * 25 int8 each, k int64 packed steps). */
static PyObject *py_roll_plays(PyObject *self, PyObject *args) {
    Py_buffer mine, theirs;
    int first, second, limit;
    if (!PyArg_ParseTuple(args, "y*y*iii", &mine, &theirs, &first, &second, &limit)) return NULL;
    PyObject *result = NULL;
    PositionLevels levels = {{expand_positions, unite_positions, count_positions}, {NULL}, {0}, 0};
    int level = -2, used = 0;
    if (check_side(&mine) && check_side(&theirs)) {
        if (first < 1 || first > 6 || second < 1 || second > 6)
            PyErr_Format(PyExc_ValueError, "dice are 1..6, got %d-%d", first, second);
        else if (new_position_level(&levels, 1) == 0) {
            State *start = &levels.states[0][0];
            memcpy(start->mine, mine.buf, SIDE);
            memcpy(start->theirs, theirs.buf, SIDE);
            start->hits = start->steps = 0;
            start->key = state_key(start->mine, 0);
            levels.counts[0] = 1;
            level = play_levels(&levels.base, first, second, limit, &used);
        }
    }
    if (level == -1 || (level == -2 && !PyErr_Occurred())) PyErr_NoMemory();
    if (level >= 0) {
        int64_t count = levels.counts[level];
        State *states = levels.states[level];
        qsort(states, (size_t)count, sizeof(State), by_key);
        PyObject *mines = PyByteArray_FromStringAndSize(NULL, count * SIDE);
        PyObject *others = PyByteArray_FromStringAndSize(NULL, count * SIDE);
        PyObject *steps = PyByteArray_FromStringAndSize(NULL, count * 8);
        if (mines != NULL && others != NULL && steps != NULL) {
            for (int64_t i = 0; i < count; i++) {
                memcpy(PyByteArray_AS_STRING(mines) + i * SIDE, states[i].mine, SIDE);
                memcpy(PyByteArray_AS_STRING(others) + i * SIDE, states[i].theirs, SIDE);
                memcpy(PyByteArray_AS_STRING(steps) + i * 8, &states[i].steps, 8);
            }
            result = Py_BuildValue("OOOi", mines, others, steps, used);
        }
        Py_XDECREF(mines);
        Py_XDECREF(others);
        Py_XDECREF(steps);
    }
    for (int i = 0; i < levels.made; i++) free(levels.states[i]);
    PyBuffer_Release(&mine);
    PyBuffer_Release(&theirs);
    return result;
}

/* The plays of every board and roll: writes starts (count * 21 + 1 int64) and returns the
 * targets as a bytearray of int32; NULL when out of memory. */
static int32_t *board_plays(const int64_t *single, int64_t count, const int64_t *highs, const int64_t *lows,
                            int limit, int64_t *starts, int64_t *total) {
    int64_t room = 8 * count * ROLLS + 64;
    int32_t *targets = malloc((size_t)room * sizeof(int32_t));
    BoardLevels levels = {{expand_boards, unite_boards, count_boards}, single, calloc((size_t)count, 8), 0,
                          {NULL}, {0}, 0};
    int ok = targets != NULL && levels.mark != NULL;
    for (int i = 0; ok && i < LEVELS; i++) ok = (levels.boards[i] = malloc(LEVEL_ROOM * sizeof(int32_t))) != NULL;
    *total = 0;
    starts[0] = 0;
    for (int64_t x = 0; ok && x < count; x++)
        for (int r = 0; ok && r < ROLLS; r++) {
            levels.boards[0][0] = (int32_t)x;
            levels.counts[0] = 1;
            levels.made = 1;
            int used, level = play_levels(&levels.base, (int)highs[r], (int)lows[r], limit, &used);
            int64_t n = levels.counts[level];
            if (*total + n > room) {
                room = 2 * room + n;
                int32_t *larger = realloc(targets, (size_t)room * sizeof(int32_t));
                if (larger == NULL) ok = 0;
                else targets = larger;
            }
            if (!ok) break;
            memcpy(targets + *total, levels.boards[level], (size_t)n * sizeof(int32_t));
            sort_boards(targets + *total, n);
            *total += n;
            starts[x * ROLLS + r + 1] = *total;
        }
    for (int i = 0; i < LEVELS; i++) free(levels.boards[i]);
    free(levels.mark);
    if (!ok) {
        free(targets);
        return NULL;
    }
    return targets;
}

/* bearoff_moves(boards, keys, order, highs, lows, limit, single, starts) -> targets.
 * boards: (count, 6) int64 home boards in dense order; keys, order: the sorted base-16 keys
 * of every board and their dense indices; highs, lows: the 21 rolls; single: writable
 * (count, 7, 6) int64, filled with the single-step table; starts: writable count * 21 + 1
 * int64. Returns the targets, a bytearray of int32. */
static PyObject *py_bearoff_moves(PyObject *self, PyObject *args) {
    Py_buffer boards, keys, order, highs, lows, single, starts;
    int limit;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*iw*w*", &boards, &keys, &order, &highs, &lows, &limit, &single, &starts))
        return NULL;
    int64_t count = boards.len / 48, total = 0;
    PyObject *result = NULL;
    int32_t *targets = NULL;
    if (single.len != count * 42 * 8 || starts.len != (count * ROLLS + 1) * 8 || highs.len != ROLLS * 8
        || lows.len != ROLLS * 8 || keys.len != order.len)
        PyErr_SetString(PyExc_ValueError, "bearoff_moves: arrays of the wrong sizes");
    else {
        Py_BEGIN_ALLOW_THREADS
        single_step_table(boards.buf, count, keys.buf, order.buf, keys.len / 8, limit, single.buf);
        targets = board_plays(single.buf, count, highs.buf, lows.buf, limit, starts.buf, &total);
        Py_END_ALLOW_THREADS
        if (targets == NULL) PyErr_NoMemory();
        else result = PyByteArray_FromStringAndSize((const char *)targets, total * (Py_ssize_t)sizeof(int32_t));
        free(targets);
    }
    PyBuffer_Release(&boards);
    PyBuffer_Release(&keys);
    PyBuffer_Release(&order);
    PyBuffer_Release(&highs);
    PyBuffer_Release(&lows);
    PyBuffer_Release(&single);
    PyBuffer_Release(&starts);
    return result;
}

static PyMethodDef methods[] = {
    {"step_target", py_step_target, METH_VARARGS, "Where a step of one die lands, or -1 (BG-4..BG-6)."},
    {"move_checker", py_move_checker, METH_VARARGS, "Both sides after a step, and whether it hits (BG-5)."},
    {"roll_plays", py_roll_plays, METH_VARARGS, "Every distinct result of the legal plays of a roll (BG-3)."},
    {"bearoff_moves", py_bearoff_moves, METH_VARARGS, "The plays of every home board and roll."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_plays_c",
                                    "The rules that move checkers, BG-3..BG-6 (see plays.py).", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__plays_c(void) { return PyModule_Create(&module); }
