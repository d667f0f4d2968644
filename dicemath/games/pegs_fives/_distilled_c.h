/* The distilled model of the board value (distilled.py, DistilledValue), its one statement
 * in C: included by fullboard/_network_c.c (DistilledValue.values and the guides' slabs) and
 * by _race_simulation_c.c (the compiled race games).
 *
 *   E(b) = 0                                   b complete
 *        = endgame[offsets[mask] + local]      at most endgame_rows open rows (exact, float32)
 *        = relu(relu(h1) @ w2 + b2) @ w3 + b3  otherwise, the network, float32:
 *          h1 = b1 + w1[0 * (goal + 1) + b_0] + w1[1 * (goal + 1) + b_1] + ... (one-hot input,
 *          the rows' weight rows added in row order)
 *
 * mask: the open rows as bits (row j -> bit j); local = sum over the open rows, in increasing
 * order, of b_j * goal**rank (endgame_offsets in distilled.py). Layout: w1 [rows * (goal + 1),
 * units], w2 [units, width], w3 [width] (w3's one column), float32, C order.
 *
 * The network's second layer sums the active units (relu > 0) in increasing unit order and
 * the output sums the width in order, each product rounded before it is added (the default
 * build fuses no multiply-add outside the vector paths): distilled_value is the same
 * arithmetic on every CPU. The
 * guides' vector paths (fullboard/_network_c_path.h) share the gathering of active units
 * and this second layer for widths their vectors do not divide.
 */
#ifndef DICEMATH_DISTILLED_C_H
#define DICEMATH_DISTILLED_C_H

#include <stdint.h>
#include <string.h>

#define MAXUNITS 1024   /* first-layer units */
#define MAXWIDTH 128    /* second-layer units */
#define MAXROWS 12

typedef struct {
    int rows, goal, units, width, endgame_rows;
    const int64_t *offsets;             /* [2**rows + 1]: each mask's block in endgame, -1 outside */
    const float *endgame;
    const float *w1, *b1, *w2, *b2, *w3;
    float b3;
} DistilledModel;

/* Appends the active units (first[j] + offset[j] > 0) among j = from .. units - 1 to index and
 * input after their first count entries; returns the new count. Entries are written for
 * every unit and kept when active: no branch to mispredict. */
static inline int gather_active(const float *first, const float *offset, int from, int units, int *index,
                                float *input, int count) {
    for (int j = from; j < units; j++) {
        float x = first[j] + offset[j];
        index[count] = j;
        input[count] = x;
        count += x > 0.0f;
    }
    return count;
}

/* relu(sum over the count active units of input * w2[unit] + b2) @ w3 + b3, in order. */
static inline float second_layer_in_order(const int *index, const float *input, int count, const float *w2,
                                          int width, const float *b2, const float *w3, float b3) {
    float hidden[MAXWIDTH];
    memcpy(hidden, b2, sizeof(float) * (size_t)width);
    for (int t = 0; t < count; t++) {
        const float *row = w2 + (size_t)index[t] * width;
        for (int k = 0; k < width; k++) hidden[k] += input[t] * row[k];
    }
    float total = b3;
    for (int k = 0; k < width; k++)
        if (hidden[k] > 0.0f) total += hidden[k] * w3[k];
    return total;
}

/* The network on board b (progress per row), float32. */
static inline float distilled_network(const DistilledModel *m, const int *b) {
    static const float no_offset[MAXUNITS];     /* zeros: h1 is whole, x + 0 = x */
    float h1[MAXUNITS], input[MAXUNITS];
    int index[MAXUNITS];
    memcpy(h1, m->b1, sizeof(float) * (size_t)m->units);
    for (int j = 0; j < m->rows; j++) {
        const float *w = m->w1 + (size_t)(j * (m->goal + 1) + b[j]) * m->units;
        for (int u = 0; u < m->units; u++) h1[u] += w[u];
    }
    int count = gather_active(h1, no_offset, 0, m->units, index, input, 0);
    return second_layer_in_order(index, input, count, m->w2, m->width, m->b2, m->w3, m->b3);
}

/* E(b) (the module comment), float64. */
static inline double distilled_value(const DistilledModel *m, const int *b) {
    int open = 0, mask = 0;
    int64_t local = 0, power = 1;
    for (int j = 0; j < m->rows; j++)
        if (b[j] < m->goal) {
            open++;
            mask |= 1 << j;
            local += b[j] * power;
            power *= m->goal;
        }
    if (open == 0) return 0.0;
    if (open <= m->endgame_rows) return (double)m->endgame[m->offsets[mask] + local];
    return (double)distilled_network(m, b);
}

#endif
