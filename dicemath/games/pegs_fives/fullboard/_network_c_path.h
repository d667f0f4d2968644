/* One code path of _network_c.c, compiled for the path's instruction set: the includer
 * defines PATH(name), which appends the path's suffix to a name (network_boards_avx2),
 * LANES (16 or 8: the compiler's vectors; none for the scalar path) and PATH_AVX512 for the
 * AVX-512 gathering of the active units. The names below are the path's own. */
#define active_units PATH(active_units)
#define VecF PATH(VecF)
#define VecI PATH(VecI)
#define load_lanes PATH(load_lanes)
#define sum_lanes PATH(sum_lanes)
#define second_layer_any PATH(second_layer_any)
#define second_layer_for PATH(second_layer_for)
#define network_boards PATH(network_boards)

/* The active units of one board: their indices and inputs, in increasing unit order (index
 * and input hold units + 16 entries: whole vectors are written). */
static int active_units(const float *first, const float *offset, int units, int *index, float *input) {
    int count = 0;
    int j = 0;
#if defined(PATH_AVX512)
    const __m512i step = _mm512_set1_epi32(16);
    __m512i at = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (; j + 16 <= units; j += 16) {
        __m512 x = _mm512_add_ps(_mm512_loadu_ps(first + j), _mm512_loadu_ps(offset + j));
        __mmask16 positive = _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_GT_OQ);
        _mm512_storeu_ps(input + count, _mm512_maskz_compress_ps(positive, x));   /* not compressstoreu: slow */
        _mm512_storeu_si512(index + count, _mm512_maskz_compress_epi32(positive, at));
        count += __builtin_popcount(positive);
        at = _mm512_add_epi32(at, step);
    }
#endif
    return gather_active(first, offset, j, units, index, input, count);
}

#if defined(LANES)
/* The compiler's vectors of LANES floats (AVX-512 or AVX2 registers). */
typedef float VecF __attribute__((vector_size(4 * LANES)));
typedef int32_t VecI __attribute__((vector_size(4 * LANES)));

static inline VecF load_lanes(const float *p) {
    VecF v;
    memcpy(&v, p, sizeof(v));
    return v;
}

/* The sum of the lanes, halving (a tree, not a chain of LANES dependent adds). */
static inline float sum_lanes(VecF v) {
    float a[LANES];
    memcpy(a, &v, sizeof(a));
    for (int half = LANES / 2; half > 0; half /= 2)
        for (int k = 0; k < half; k++) a[k] += a[k + half];
    return a[0];
}

/* relu(sum over the active units of input * w2[unit] + b2) @ w3 + b3 for a width of W
 * vectors: two accumulators per vector, for the even and the odd active units. */
#define SECOND_LAYER(W)                                                                         \
    static float PATH(second_layer_##W)(const int *index, const float *input, int count, const float *w2, \
                                  int width, const float *b2, const float *w3, float b3) {      \
        VecF even[W], odd[W];                                                                   \
        for (int q = 0; q < W; q++) {                                                           \
            even[q] = load_lanes(b2 + LANES * q);                                               \
            odd[q] = (VecF){0};                                                                 \
        }                                                                                       \
        int t = 0;                                                                              \
        for (; t + 2 <= count; t += 2) {                                                        \
            const float *r0 = w2 + (size_t)index[t] * width, *r1 = w2 + (size_t)index[t + 1] * width; \
            float x0 = input[t], x1 = input[t + 1];                                             \
            for (int q = 0; q < W; q++) {                                                       \
                even[q] += x0 * load_lanes(r0 + LANES * q);                                     \
                odd[q] += x1 * load_lanes(r1 + LANES * q);                                      \
            }                                                                                   \
        }                                                                                       \
        if (t < count)                                                                          \
            for (int q = 0; q < W; q++) even[q] += input[t] * load_lanes(w2 + (size_t)index[t] * width + LANES * q); \
        VecF total = {0};                                                                       \
        for (int q = 0; q < W; q++) {                                                           \
            VecF hidden = even[q] + odd[q];                                                     \
            hidden = (VecF)((VecI)hidden & (hidden > 0.0f));      /* ReLU */                    \
            total += hidden * load_lanes(w3 + LANES * q);                                       \
        }                                                                                       \
        return b3 + sum_lanes(total);                                                           \
    }
SECOND_LAYER(1)
SECOND_LAYER(2)
SECOND_LAYER(4)
SECOND_LAYER(8)
SECOND_LAYER(16)
#endif

/* The same for any width: _distilled_c.h's order, compiled (inlined) for this path. */
static float second_layer_any(const int *index, const float *input, int count, const float *w2, int width,
                              const float *b2, const float *w3, float b3) {
    return second_layer_in_order(index, input, count, w2, width, b2, w3, b3);
}

static SecondLayer second_layer_for(int width) {
#if defined(LANES)
    if (width % LANES == 0)
        switch (width / LANES) {
            case 1: return PATH(second_layer_1);
            case 2: return PATH(second_layer_2);
            case 4: return PATH(second_layer_4);
            case 8: return PATH(second_layer_8);
            case 16: return PATH(second_layer_16);
            default: break;
        }
#endif
    return second_layer_any;
}


/* out[i] for the boards i < boards (first: [board, unit]). */
static void network_boards(const float *first, const float *offset, int units, const float *w2, int width,
                           const float *b2, const float *w3, float b3, Py_ssize_t boards, double *out) {
    SecondLayer layer = second_layer_for(width);
    int index[MAXUNITS + 16];
    float input[MAXUNITS + 16];
    for (Py_ssize_t i = 0; i < boards; i++) {
        int count = active_units(first + (size_t)i * units, offset, units, index, input);
        out[i] = (double)layer(index, input, count, w2, width, b2, w3, b3);
    }
}

#undef active_units
#undef VecF
#undef VecI
#undef load_lanes
#undef sum_lanes
#undef second_layer_any
#undef second_layer_for
#undef network_boards
