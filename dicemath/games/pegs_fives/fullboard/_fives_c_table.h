/* The Fives kernel's work on a value table of type TABLE (double or float), included by
 * _fives_c_kernel.h once per type with TYPED(name) naming its functions.
 *
 * Option values are filled into V[entry].v[lane] (see _fives_c.c); a value read from the
 * table at the complete board counts 1 more (its W = E - 1 is read as E, so that the
 * continuation's "- 1" of a restart is right there too). */

static inline double TYPED(read)(const TABLE *T, int64_t index, int64_t last) {
    return (double)T[index] + (index == last ? 1.0 : 0.0);
}

/* The options of axis j at progress s0 of board b, read from T, into lane `lane` of V:
 * coef row + sum over the successors i = 1..goal - s0 along the axis; BIG on a complete
 * axis. */
static void TYPED(fill_axis_lane)(const Geo *G, const TABLE *T, int64_t b, int j, int s0, Lanes *V, int lane) {
    int first = G->entry_base[j], count = G->hits_max[j], need = G->goal - s0;
    if (need == 0) {
        for (int h = 0; h < count; h++) V[first + h].v[lane] = BIG;
        return;
    }
    const double *c = coef_row(G, j, s0);
    double acc[WIDTH];
    for (int h = 0; h < WIDTH; h++) acc[h] = c[h];
    for (int i = 1; i <= need; i++) {
        double v = TYPED(read)(T, b + i * G->stride[j], G->last);
        for (int h = 0; h < WIDTH; h++) acc[h] += c[i * WIDTH + h] * v;
    }
    for (int h = 0; h < count; h++) V[first + h].v[lane] = acc[h];
}

/* Every axis of board b into lane `lane` of V (and of S: the guide's options for a
 * lookahead, the fitting ones for safe greedy); returns the mask of open axes. */
static int TYPED(fill_board)(const Geo *G, const TABLE *T, const TABLE *guide, int mode, int64_t b, Lanes *V,
                              Lanes *S, int lane) {
    int mask = 0;
    int64_t rest = b;
    for (int j = 0; j < G->k; j++) {
        int s0 = (int)(rest % (G->goal + 1));
        rest /= G->goal + 1;
        mask |= (s0 < G->goal) << j;
        TYPED(fill_axis_lane)(G, T, b, j, s0, V, lane);
        if (mode == MODE_LOOKAHEAD) TYPED(fill_axis_lane)(G, guide, b, j, s0, S, lane);
        if (mode == MODE_SAFE_GREEDY) {
            int first = G->entry_base[j];
            for (int h = 0; h < G->hits_max[j]; h++)
                S[first + h].v[lane] = G->fits[(j * (G->goal + 1) + s0) * WIDTH + h] > 0.0 ? V[first + h].v[lane] : BIG;
        }
    }
    return mask;
}

/* E[b] = W + 1 with W = (sum + P0) / (1 - P0) for the boards of the first n lanes (FIVES-2:
 * no legal number ends the turn on b); 0 for the complete board. */
static inline void TYPED(store)(const Geo *G, TABLE *E, const int64_t *board, int n, const Lanes *sum,
                                const double *stay) {
    for (int l = 0; l < n; l++) {
        double w = (sum->v[l] + stay[l]) / (1.0 - stay[l]);
        E[board[l]] = board[l] == G->last ? (TABLE)0.0 : (TABLE)(w + 1.0);
    }
}

/* Solve boards[0..n), 16 at a time (the last group padded with its last board). */
static void TYPED(solve_boards)(const Geo *G, TABLE *E, const TABLE *guide, const int64_t *boards, int64_t n,
                                int mode, Scratch *W) {
    for (int64_t group = 0; group < n; group += LANES) {
        double stay[LANES];
        for (int l = 0; l < LANES; l++) {
            int64_t b = boards[group + l < n ? group + l : n - 1];
            stay[l] = G->p0[TYPED(fill_board)(G, E, guide, mode, b, W->V, W->S, l)];
        }
        Lanes sum;
        PATH(chosen_sum)(G, mode, W->V, W->S, &sum);
        TYPED(store)(G, E, boards + group, n - group < LANES ? (int)(n - group) : LANES, &sum, stay);
    }
}

/* An axis whose progress s0 is the same in every lane (a lower axis of the slabs): the
 * coefficients are common, each term is one 16-lane multiply-add. */
static void TYPED(fill_axis_lanes)(const Geo *G, const TABLE *T, const int64_t *at, int j, int s0, Lanes *V) {
    int first = G->entry_base[j], count = G->hits_max[j], need = G->goal - s0;
    if (need == 0) {
        for (int h = 0; h < count; h++)
            for (int l = 0; l < LANES; l++) V[first + h].v[l] = BIG;
        return;
    }
    const double *c = coef_row(G, j, s0);
    VEC acc[WIDTH][VECS];
    for (int h = 0; h < count; h++)
        for (int v = 0; v < VECS; v++) acc[h][v] = c[h] + (VEC){0};
    for (int i = 1; i <= need; i++) {
        Lanes value;
        int64_t step = i * G->stride[j];
        for (int l = 0; l < LANES; l++) value.v[l] = TYPED(read)(T, at[l] + step, G->last);
        for (int h = 0; h < count; h++)
            for (int v = 0; v < VECS; v++) acc[h][v] += c[i * WIDTH + h] * PATH(vecs)(&value)[v];
    }
    for (int h = 0; h < count; h++)
        for (int v = 0; v < VECS; v++) PATH(vecs)(&V[first + h])[v] = acc[h][v];
}

/* A top axis of the slabs (its progress fixed per lane for the whole call): the per-lane
 * coefficients and steps of Top. A complete lane has the constant BIG and reads nothing. */
static void TYPED(fill_top_lanes)(const Geo *G, const TABLE *T, const int64_t *at, const TopAxis *A, Lanes *V) {
    int first = G->entry_base[A->j], count = G->hits_max[A->j];
    VEC acc[WIDTH][VECS];
    for (int h = 0; h < count; h++)
        for (int v = 0; v < VECS; v++) acc[h][v] = PATH(cvecs)(&A->coef[h])[v];
    for (int i = 1; i <= A->reach; i++) {
        Lanes value;
        for (int l = 0; l < LANES; l++)
            value.v[l] = A->open[l] ? TYPED(read)(T, at[l] + A->step[i][l], G->last) : 0.0;
        for (int h = 0; h < count; h++)
            for (int v = 0; v < VECS; v++)
                acc[h][v] += PATH(cvecs)(&A->coef[i * WIDTH + h])[v] * PATH(vecs)(&value)[v];
    }
    for (int h = 0; h < count; h++)
        for (int v = 0; v < VECS; v++) PATH(vecs)(&V[first + h])[v] = acc[h][v];
}

/* Every board of slabs[0..n) (n <= 16, one lane each, the last slab repeated in spare
 * lanes): all lanes sweep their slab from the highest lower index down, so the lower axes
 * have the same progress in every lane. */
static void TYPED(solve_slabs)(const Geo *G, TABLE *E, const TABLE *guide, const Slabs *P, int mode, Scratch *W) {
    int lower = G->k - P->top, base = G->goal + 1, s[MAXK], top_s0[MAXK][LANES];
    for (int j = 0; j < lower; j++) s[j] = G->goal;
    for (int t = 0; t < P->top; t++)
        for (int l = 0; l < LANES; l++) top_s0[t][l] = P->top_axis[t].s0[l];
    for (int64_t position = P->size - 1; position >= 0; position--) {
        int64_t at[LANES], board[LANES];
        for (int l = 0; l < LANES; l++) at[l] = board[l] = P->start[l] + position;
        int mask = 0;
        for (int j = 0; j < lower; j++) {
            int same[LANES];
            mask |= (s[j] < G->goal) << j;
            TYPED(fill_axis_lanes)(G, E, at, j, s[j], W->V);
            if (mode == MODE_LOOKAHEAD) TYPED(fill_axis_lanes)(G, guide, at, j, s[j], W->S);
            if (mode == MODE_SAFE_GREEDY) {
                for (int l = 0; l < LANES; l++) same[l] = s[j];
                PATH(fit_axis)(G, j, same, W->V, W->S);
            }
        }
        for (int t = 0; t < P->top; t++) {
            TYPED(fill_top_lanes)(G, E, at, &P->top_axis[t], W->V);
            if (mode == MODE_LOOKAHEAD) TYPED(fill_top_lanes)(G, guide, at, &P->top_axis[t], W->S);
            if (mode == MODE_SAFE_GREEDY) PATH(fit_axis)(G, P->top_axis[t].j, top_s0[t], W->V, W->S);
        }
        double stay[LANES];
        for (int l = 0; l < LANES; l++) stay[l] = G->p0[mask | P->top_mask[l]];
        Lanes sum;
        PATH(chosen_sum)(G, mode, W->V, W->S, &sum);
        TYPED(store)(G, E, board, P->n, &sum, stay);
        for (int j = 0; j < lower && --s[j] < 0; j++) s[j] = base - 1;   /* position - 1 in digits */
    }
}

/* The option values of every entry of board b (one lane) into out[0..entries). */
static void TYPED(options)(const Geo *G, const TABLE *T, int64_t b, Lanes *V, double *out) {
    TYPED(fill_board)(G, T, T, MODE_OPTIMAL, b, V, V, 0);
    for (int e = 0; e < G->entries; e++) out[e] = V[e].v[0];
}
