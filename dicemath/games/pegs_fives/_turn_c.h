/* A turn of Pegs or Fives (docs/rules.md PEGS-3..9, FIVES-2..5) in C: the rules as compiled
 * code plays them with thrown dice. The Python engine states the same rules for the exact
 * solvers (state.after_hits, state.miss, hits.hits_from_counts); _race_simulation_c.c tests
 * this statement against it state by state (tests/pegs_fives/test_race_advice.py).
 *
 * Rows are 0-based here (row j is the rules' row j + 1); a board holds each row's progress
 * 0..goal; a throw is given as counts[face] for faces 1..6 (counts[0] unused).
 *
 * play_turn plays a whole turn: the dice come from a ThrowDice function and the row named
 * after each choice throw from a ChooseRow function (the policy), both the caller's.
 */
#ifndef DICEMATH_TURN_C_H
#define DICEMATH_TURN_C_H

#define TURN_MAXROWS 12

/* The rule points of Rules (rules.py) that a turn depends on. */
typedef struct {
    int rows, goal, dice;
    int throws;                     /* the budget of a cycle (PEGS-3); 0: no limit (FIVES-3) */
    int overthrow;                  /* PEGS-6; else hits beyond the goal are lost (FIVES-5) */
    int all_dice_first;             /* PEGS-8 before PEGS-7 */
    int fresh_budget_on_all_dice;   /* PEGS-8's fresh budget, else the throws left */
    int fresh_on_complete;          /* FIVES-5: a complete row gives all dice again */
    int per_hit[TURN_MAXROWS];      /* dice a hit sets aside: 1 for rows 1..6, 2 for 7..12 */
} TurnRules;

/* The dice in hand and the throws left (not counted without a limit). */
typedef struct {
    int dice, throws;
} Hand;

/* What follows hits set aside: the turn is over, a choice throw, or a throw on for the row. */
typedef enum { TURN_OVER, CHOICE_THROW, THROW_ON } TurnStep;

/* counts[1..6] <- the faces of a throw of dice dice. */
typedef void (*ThrowDice)(void *source, int dice, int counts[7]);

/* The row (0-based) the policy names among the n legal rows rows[] with hits[] hits (rows in
 * increasing order), the board at the choice throw, dice thrown and throws left before it.
 * The board may be changed while choosing but must be restored. */
typedef int (*ChooseRow)(void *policy, int *board, const int *rows, const int *hits, int n, int dice, int throws);

/* Hits for row j in a throw (docs/rules.md, hits): the faces j + 1 for rows 1..6; for rows
 * 7..12 the most pairs of dice, none used twice, whose faces add up to the row. */
static inline int row_hits(int j, const int counts[7]) {
    int target = j + 1;
    if (target <= 6) return counts[target];
    int total = 0;
    for (int low = target - 6; 2 * low < target; low++) {
        int a = counts[low], b = counts[target - low];
        total += a < b ? a : b;
    }
    if (target % 2 == 0) total += counts[target / 2] / 2;
    return total;
}

/* The open rows with at least one hit in the throw (PEGS-4, FIVES-2); returns how many. */
static inline int legal_rows(const TurnRules *r, const int *board, const int counts[7], int *rows, int *hits) {
    int n = 0;
    for (int j = 0; j < r->rows; j++) {
        if (board[j] >= r->goal) continue;
        int h = row_hits(j, counts);
        if (h > 0) {
            rows[n] = j;
            hits[n++] = h;
        }
    }
    return n;
}

static inline int board_complete(const TurnRules *r, const int *board) {
    for (int j = 0; j < r->rows; j++)
        if (board[j] < r->goal) return 0;
    return 1;
}

/* A throw costs one of the budget (PEGS-3). */
static inline void spend_throw(const TurnRules *r, Hand *hand) {
    if (r->throws > 0) hand->throws--;
}

/* The rules once hits are set aside (state.after_hits): count hits this cycle for row j
 * (not yet on the board), hand the dice left and throws left. Commits the row's move to the
 * board when the cycle ends, and sets the hand of the next choice throw. */
static inline TurnStep after_hits(const TurnRules *r, int *board, int j, int count, Hand *hand) {
    int need = r->goal - board[j];
    if (count > need) {
        if (r->overthrow) return TURN_OVER;                             /* PEGS-6 */
        count = need;                                                   /* FIVES-5: hits beyond lost */
    }
    if (count == need) {
        board[j] = r->goal;
        if (board_complete(r, board)) return TURN_OVER;
        if (hand->dice == 0 && r->all_dice_first) {                     /* PEGS-8 before PEGS-7 */
            if (r->fresh_budget_on_all_dice) hand->throws = r->throws;
            hand->dice = r->dice;
            return CHOICE_THROW;
        }
        if (r->fresh_on_complete) {                                     /* FIVES-5 */
            *hand = (Hand){r->dice, r->throws};
            return CHOICE_THROW;
        }
        if (hand->dice > 0 && (r->throws == 0 || hand->throws > 0)) return CHOICE_THROW;   /* PEGS-7 */
        return TURN_OVER;
    }
    if (hand->dice == 0) {                                              /* PEGS-8 / FIVES-4 */
        board[j] += count;
        if (r->fresh_budget_on_all_dice) hand->throws = r->throws;
        hand->dice = r->dice;
        return r->throws > 0 && hand->throws == 0 ? TURN_OVER : CHOICE_THROW;
    }
    if (r->throws > 0 && hand->throws == 0) {                           /* PEGS-9 */
        board[j] += count;
        return TURN_OVER;
    }
    return THROW_ON;                                                    /* PEGS-5 / FIVES-3 */
}

/* A throw on without a hit for row j: the count stands and the turn ends (PEGS-5/9,
 * FIVES-3; state.miss). */
static inline void miss(int *board, int j, int count) {
    board[j] += count;
}

/* One turn on board (changed in place; PEGS-3..9, FIVES-2..5). */
static inline void play_turn(const TurnRules *r, int *board, ThrowDice throw_dice, void *source, ChooseRow choose,
                             void *policy) {
    int counts[7], rows[TURN_MAXROWS], hits[TURN_MAXROWS];
    Hand hand = {r->dice, r->throws};
    for (;;) {                                                          /* a choice throw */
        throw_dice(source, hand.dice, counts);
        int n = legal_rows(r, board, counts, rows, hits);
        if (n == 0) return;                                             /* PEGS-4 / FIVES-2: the turn ends */
        int j = choose(policy, board, rows, hits, n, hand.dice, hand.throws);
        int count = row_hits(j, counts);
        spend_throw(r, &hand);
        hand.dice -= count * r->per_hit[j];
        TurnStep step;
        while ((step = after_hits(r, board, j, count, &hand)) == THROW_ON) {
            throw_dice(source, hand.dice, counts);
            spend_throw(r, &hand);
            int k = row_hits(j, counts);
            if (k == 0) {
                miss(board, j, count);
                return;
            }
            count += k;
            hand.dice -= k * r->per_hit[j];
        }
        if (step == TURN_OVER) return;
    }
}

#endif
