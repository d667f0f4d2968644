/* The lane functions of _race_c.c, compiled once per code path (PATH(name), see PyInit): one
 * side of LANES pairs that share the mover (the same open rows, throw groups and options) and
 * differ in the opponent. Each lane does the arithmetic of the scalar fill_options and
 * evaluate term by term, in the same order (so do the choice values and counts on every path):
 * a lane's numbers are those of the scalar functions bit for bit. The choices compare and select in parts of PART lanes, the width of
 * the path's registers (8 AVX-512, 4 AVX2, 2 otherwise), a part at a time. */

#if defined(PATH_AVX512)
#define PART 8
#elif defined(PATH_AVX2)
#define PART 4
#else
#define PART 2
#endif
#define Part PATH(Part)
#define PartMask PATH(PartMask)
typedef double Part __attribute__((vector_size(8 * PART)));
typedef int64_t PartMask __attribute__((vector_size(8 * PART)));

static inline __attribute__((always_inline)) Part PATH(pick)(PartMask m, Part a, Part b) {
    return (Part)(((PartMask)a & m) | ((PartMask)b & ~m));
}

static inline __attribute__((always_inline)) int PATH(any)(PartMask m) {
#if defined(PATH_AVX512)
    return _mm512_test_epi64_mask((__m512i)m, (__m512i)m) != 0;
#else
    int64_t bits = 0;
    for (int l = 0; l < PART; l++) bits |= m[l];
    return bits != 0;
#endif
}

/* Part q of lanes v. */
static inline __attribute__((always_inline)) Part PATH(part)(const Lanes *v, int q) {
    Part out;
    memcpy(&out, (const double *)v + q * PART, sizeof(out));
    return out;
}

static inline __attribute__((always_inline)) void PATH(set_part)(Lanes *v, int q, Part value) {
    memcpy((double *)v + q * PART, &value, sizeof(value));
}

/* The values table[y[l]] of the lanes. */
static inline __attribute__((always_inline)) Lanes PATH(gather)(const double *table, const LaneMask *y) {
#if defined(PATH_AVX512)
    return (Lanes)_mm512_i64gather_pd((__m512i)*y, table, 8);
#else
    Lanes v;
    for (int l = 0; l < LANES; l++) v[l] = table[(*y)[l]];
    return v;
#endif
}

/* fill_options for every lane: row->S the options' stays at a choice throw of d dice, t
 * throws left, on board x (the same in every lane), row->OR their rests per lane, from the
 * PEGS-7 values row->PN and the side's leaves (see Batch): a row of each table, at the
 * neighbouring columns of the lanes' opponents. */
static void PATH(fill_lanes)(const Race *R, const Batch *B, int64_t x, int d, int t, LaneRow *row) {
    const int goal = R->goal, HM = R->HM, T = R->T;
    const int64_t N = R->opp_N;                                /* a row of the tables this mover reads */
    const Lanes zero = {0}, none = zero - BIG;
    Lanes *E0 = row->E[0], *E1 = row->E[1];
    for (int j = 0; j < R->k; j++) {
        const int base = j * HM;
        const int64_t s = row_steps(R, x, j);
        if (s >= goal) {
            for (int h = 0; h < HM; h++) {
                row->S[base + h] = 0.0;
                row->OR[base + h] = none;
            }
            continue;
        }
        const int need = goal - (int)s;
        const int64_t cell = (((int64_t)j * (goal + 1) + need) * (R->dice + 1) + d) * T + t - 1;
        const int64_t rows = cell * (R->dice + 1);
        for (int64_t n = R->term_start[rows]; n < R->term_start[rows + 1]; n++) {
            const int c = R->terms[n];
            const int64_t xc = x + c * R->stride[j];
            if (R->complete[xc]) {
                E0[c] = B->term;
                E1[c] = B->term;
                continue;
            }
            const int64_t at = R->position[xc] * N;
            E0[c] = B->es * PATH(gather)(&B->oppT[at], &B->column) + B->eo;
            E1[c] = PATH(gather)(&B->own[at], &B->column) + B->ro;
        }
        for (int h = 1; h <= d / R->per_hit[j]; h++) {
            const double *cf = &R->coef[(rows + h) * R->ncol];
            Lanes r = zero;
            for (int64_t n = R->term_start[rows + h]; n < R->term_start[rows + h + 1]; n++) {
                const int c = R->terms[n];
                r += cf[c] * E0[c] + cf[goal + c] * E1[c];
            }
            for (int t2 = 1; t2 < T; t2++) r += cf[2 * goal + t2] * row->PN[j][t2];
            row->S[base + h] = cf[0];
            row->OR[base + h] = r;
        }
    }
}

/* The value of a choice throw of d dice, t throws left, on board x whose turn-ending-here is
 * worth here[l], per lane: per throw group the best option (race) or the solo table's, here
 * when no row is legal. */
static void PATH(choice_lanes)(const Race *R, const Batch *B, const LaneRow *row, const Lanes *at_here, int64_t x,
                               int d, int t, Lanes *out) {
    const Merged *M = &R->merged;
    const int64_t cell = d * M->nmask + M->open[x];
    const Part zero = {0}, none = zero - BIG;
    for (int q = 0; q < LANES / PART; q++) {
        const Part here = PATH(part)(at_here, q);
        Part total = zero;
        for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
            const double p = M->p[m];
            if (B->race) {
                Part best = none;
                for (int64_t e = M->entry_start[m]; e < M->entry_start[m + 1]; e++) {
                    const int64_t i = M->idx[e];
                    const Part v = row->S[i] * here + PATH(part)(&row->OR[i], q);
                    best = PATH(pick)(v > best, v, best);
                }
                total += p * PATH(pick)(best > none, best, here);
            } else {
                const int32_t e = R->solo[(x * R->T + t - 1) * R->groups + M->first[m]];
                if (e < 0) {
                    total += p * here;
                } else {
                    const int64_t i = R->entry_idx[e];
                    total += p * (row->S[i] * here + PATH(part)(&row->OR[i], q));
                }
            }
        }
        PATH(set_part)(out, q, total);
    }
}

/* evaluate for every lane at its own X: the pieces (value, slope, radius) of each lane. */
static void PATH(evaluate_batch)(const Race *R, const Batch *B, const Lanes *at_X, Pieces *out) {
    const Merged *M = &R->merged;
    const LaneRow *row = &B->first;
    const int64_t cell = R->dice * M->nmask + M->open[B->x];
    const Part zero = {0}, none = zero - BIG, one = zero + 1.0;
    for (int q = 0; q < LANES / PART; q++) {
        const Part X = PATH(part)(at_X, q);
        Part total = zero, slope = zero, radius = zero + INFINITY;
        for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
            const double p = M->p[m];
            if (B->race) {
                Part best = none, second = none, bs = zero;
                double smin = 1.0, smax = 0.0;
                for (int64_t e = M->entry_start[m]; e < M->entry_start[m + 1]; e++) {
                    const int64_t i = M->idx[e];
                    const double s = row->S[i];
                    const Part sv = zero + s, v = s * X + PATH(part)(&row->OR[i], q);
                    const PartMask up = (v > best) | ((v == best) & (sv > bs));
                    second = PATH(pick)(up, best, PATH(pick)(v > second, v, second));
                    best = PATH(pick)(up, v, best);
                    bs = PATH(pick)(up, sv, bs);
                    if (s < smin) smin = s;
                    if (s > smax) smax = s;
                }
                const PartMask legal = best > none;
                total += p * PATH(pick)(legal, best, X);
                slope += p * PATH(pick)(legal, bs, one);
                const Part above = smax - bs, below = bs - smin;
                const Part spread = PATH(pick)(above > below, above, below), gap = best - second;
                /* min(radius, gap / spread), dividing only when the quotient may be smaller */
                const PartMask near = (second > none) & (spread > 0.0) & (gap < radius * spread * (1.0 + 1e-12));
                if (PATH(any)(near)) {
                    const Part r = gap / spread;
                    radius = PATH(pick)(near & (r < radius), r, radius);
                }
            } else {
                const int32_t e = R->solo[(B->x * R->T + R->T - 1) * R->groups + M->first[m]];
                if (e < 0) {
                    total += p * X;
                    slope += p;
                } else {
                    const int64_t i = R->entry_idx[e];
                    total += p * (row->S[i] * X + PATH(part)(&row->OR[i], q));
                    slope += p * row->S[i];
                }
            }
        }
        PATH(set_part)(&out->value, q, total);
        PATH(set_part)(&out->slope, q, slope);
        PATH(set_part)(&out->radius, q, radius);
    }
}

/* Add the turn-start choices of the mover against each lane's opponent where count[l] (race
 * play, X[l] solved) to the counts: per throw group of two options or more, the race choice
 * (the first of the best) beside the solo one, chances summed over pairs (invariant under how
 * throws are grouped) per lane in group order, then lane by lane (the same sums on every
 * path); keep the largest losses. */
static void PATH(count_lanes)(const Race *R, const Batch *B, const Lanes *at_X, const int *count, Counts *C) {
    const Merged *M = &R->merged;
    const LaneRow *row = &B->first;
    const int64_t cell = R->dice * M->nmask + M->open[B->x];
    const Part zero = {0}, none = zero - BIG;
    double choice = 0.0;                                        /* the same in every lane */
    Lanes differing;
    for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++)
        if (M->entry_start[m + 1] - M->entry_start[m] >= 2) choice += M->p[m];
    for (int q = 0; q < LANES / PART; q++) {
        const Part X = PATH(part)(at_X, q);
        Part lost = zero;
        for (int64_t m = M->start[cell]; m < M->start[cell + 1]; m++) {
            if (M->entry_start[m + 1] - M->entry_start[m] < 2) continue;
            Part best = none;
            PartMask race_e = (PartMask){0} - 1;
            for (int64_t e = M->entry_start[m]; e < M->entry_start[m + 1]; e++) {
                const int64_t i = M->idx[e];
                const Part v = row->S[i] * X + PATH(part)(&row->OR[i], q);
                const PartMask up = v > best;
                best = PATH(pick)(up, v, best);
                race_e = (up & ((PartMask){0} + M->entry[e])) | (~up & race_e);
            }
            const int32_t e = R->solo[(B->x * R->T + R->T - 1) * R->groups + M->first[m]];
            const int64_t i = R->entry_idx[e];
            const Part value = row->S[i] * X + PATH(part)(&row->OR[i], q);
            const Part size = PATH(pick)(best < 0.0, -best, best);
            PartMask loses = value < best - TIE * (1.0 + size);
            for (int l = 0; l < PART; l++)
                if (!count[q * PART + l]) loses[l] = 0;
            if (!PATH(any)(loses)) continue;
            lost += PATH(pick)(loses, zero + M->p[m], zero);
            for (int l = 0; l < PART; l++) {
                if (!loses[l]) continue;
                int64_t info[5] = {B->x, B->y[q * PART + l], M->first[m], race_e[l], e};
                double values[2] = {best[l], value[l]};
                keep_example(C, best[l] - value[l], info, values);
            }
        }
        PATH(set_part)(&differing, q, lost);
    }
    for (int l = 0; l < LANES; l++) {
        if (!count[l]) continue;
        C->stats[0] += choice;
        C->stats[1] += differing[l];
        C->stats[2] += 1.0;
        if (differing[l] > 0.0) C->stats[3] += 1.0;
    }
}

#undef Part
#undef PartMask
#undef PART
