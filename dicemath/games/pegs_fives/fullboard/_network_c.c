/* The distilled network on a whole slab of boards (guides.distilled_slab_values), built at
 * install time with the Pegs kernel.
 *
 *   out[i] = relu(relu(first[i] + offset) @ w2 + b2) @ w3[:, 0] + b3[0]
 *
 * A guide table evaluates it on every board of the full layout (2.2e9 boards). Per board,
 * the first layer's active units (the ReLU's positive inputs, about three in four for the
 * Pegs model) are gathered into a short list first, so the second layer's products skip the
 * inactive ones without a branch per unit; the second layer's outputs stay in registers (the
 * compiler's vectors: 16 units each with AVX-512, 8 with AVX2; two sets of them for the even
 * and odd active units, so that consecutive products do not wait for each other). The
 * arithmetic is float32, as the model's own (distilled.activations), in another order of
 * summation: equal within float32 rounding.
 * The GIL is released, so the guide's threads run it in parallel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#define MAXUNITS 1024   /* first-layer units */
#define MAXWIDTH 128    /* second-layer units (8 vectors of 16) */

/* The active units of one board: their indices and inputs, in increasing unit order (index
 * and input hold units + 16 entries: whole vectors are written). */
static int active_units(const float *first, const float *offset, int units, int *index, float *input) {
    int count = 0;
    int j = 0;
#if defined(__AVX512F__)
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
    for (; j < units; j++) {            /* written always, kept when positive: no branch to mispredict */
        float x = first[j] + offset[j];
        index[count] = j;
        input[count] = x;
        count += x > 0.0f;
    }
    return count;
}

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX2__)
#define LANES 8
#endif

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
    static float second_layer_##W(const int *index, const float *input, int count, const float *w2, \
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

/* The same for any width, scalar. */
static float second_layer_any(const int *index, const float *input, int count, const float *w2, int width,
                              const float *b2, const float *w3, float b3) {
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

typedef float (*SecondLayer)(const int *, const float *, int, const float *, int, const float *, const float *,
                             float);

static SecondLayer second_layer_for(int width) {
#if defined(LANES)
    if (width % LANES == 0)
        switch (width / LANES) {
            case 1: return second_layer_1;
            case 2: return second_layer_2;
            case 4: return second_layer_4;
            case 8: return second_layer_8;
            case 16: return second_layer_16;
            default: break;
        }
#endif
    return second_layer_any;
}

/* network(first, offset, w2, b2, w3, b3, out): float32 buffers ([board, unit], [unit],
 * [unit, width], [width], [width], [1]) and float64 out [board], written. */
static PyObject *py_network(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer first = {0}, offset = {0}, w2 = {0}, b2 = {0}, w3 = {0}, b3 = {0}, out = {0};
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*w*", &first, &offset, &w2, &b2, &w3, &b3, &out)) return NULL;
    Py_ssize_t units = offset.len / 4, width = b2.len / 4, boards = out.len / 8;
    int ok = units >= 1 && units <= MAXUNITS && width >= 1 && width <= MAXWIDTH && first.len == boards * units * 4 &&
             w2.len == units * width * 4 && w3.len == width * 4 && b3.len == 4;
    if (ok) {
        const float *f = (const float *)first.buf, *o = (const float *)offset.buf, *a = (const float *)w2.buf,
                    *b = (const float *)b2.buf, *c = (const float *)w3.buf, last = *(const float *)b3.buf;
        double *values = (double *)out.buf;
        SecondLayer layer = second_layer_for((int)width);
        Py_BEGIN_ALLOW_THREADS
        int index[MAXUNITS + 16];
        float input[MAXUNITS + 16];
        for (Py_ssize_t i = 0; i < boards; i++) {
            int count = active_units(f + (size_t)i * units, o, (int)units, index, input);
            values[i] = (double)layer(index, input, count, a, (int)width, b, c, last);
        }
        Py_END_ALLOW_THREADS
    } else {
        PyErr_SetString(PyExc_ValueError, "inconsistent network shapes");
    }
    PyBuffer_Release(&first);
    PyBuffer_Release(&offset);
    PyBuffer_Release(&w2);
    PyBuffer_Release(&b2);
    PyBuffer_Release(&w3);
    PyBuffer_Release(&b3);
    PyBuffer_Release(&out);
    if (!ok) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"network", py_network, METH_VARARGS, "The distilled network on a slab of boards (see guides.py)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_network_c",
                                    "The distilled network on a slab of boards, compiled.", -1, methods,
                                    NULL, NULL, NULL, NULL};

/* SUMMATION names the order of the float32 sums this build uses (its vector width), which
 * the last bits of a value depend on: guides.distilled_guide_digest puts it in a guide's
 * digest, so a guide table is never resumed by a build that sums in another order. */
#if defined(__AVX512F__)
#define SUMMATION "avx512"
#elif defined(__AVX2__)
#define SUMMATION "avx2"
#else
#define SUMMATION "scalar"
#endif

PyMODINIT_FUNC PyInit__network_c(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SUMMATION", SUMMATION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
