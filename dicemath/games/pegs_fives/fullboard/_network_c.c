/* The distilled network on a whole slab of boards (guides.distilled_slab_values), built at
 * install time with the Pegs kernel.
 *
 *   out[i] = relu(relu(first[i] + offset) @ w2 + b2) @ w3[:, 0] + b3[0]
 *
 * A guide table evaluates it on every board of the full layout (2.2e9 boards). Per board,
 * the first layer's active units (the ReLU's positive inputs, about half) are gathered into
 * a short list first, so the second layer's products skip the inactive ones without a branch
 * per unit; the second layer's outputs stay in registers (one vector of 16 per 16 units of
 * width with AVX-512, of 8 with AVX2; two sets of them for the even and odd
 * active units, so that consecutive products do not wait for each other). The arithmetic is float32, as the model's own
 * (distilled.activations), in another order of summation: equal within float32 rounding.
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
/* relu(sum over the active units of input * w2[unit] + b2) @ w3 + b3 for widths that are a
 * multiple of 16: W vectors of output, two accumulators each. */
#define SECOND_LAYER(W)                                                                         \
    static float second_layer_##W(const int *index, const float *input, int count, const float *w2, \
                                  int width, const float *b2, const float *w3, float b3) {      \
        __m512 even[W], odd[W];                                                                 \
        for (int q = 0; q < W; q++) {                                                           \
            even[q] = _mm512_loadu_ps(b2 + 16 * q);                                             \
            odd[q] = _mm512_setzero_ps();                                                       \
        }                                                                                       \
        int t = 0;                                                                              \
        for (; t + 2 <= count; t += 2) {                                                        \
            const float *r0 = w2 + (size_t)index[t] * width, *r1 = w2 + (size_t)index[t + 1] * width; \
            __m512 x0 = _mm512_set1_ps(input[t]), x1 = _mm512_set1_ps(input[t + 1]);           \
            for (int q = 0; q < W; q++) {                                                       \
                even[q] = _mm512_fmadd_ps(x0, _mm512_loadu_ps(r0 + 16 * q), even[q]);           \
                odd[q] = _mm512_fmadd_ps(x1, _mm512_loadu_ps(r1 + 16 * q), odd[q]);             \
            }                                                                                   \
        }                                                                                       \
        if (t < count) {                                                                        \
            const float *r0 = w2 + (size_t)index[t] * width;                                    \
            __m512 x0 = _mm512_set1_ps(input[t]);                                               \
            for (int q = 0; q < W; q++) even[q] = _mm512_fmadd_ps(x0, _mm512_loadu_ps(r0 + 16 * q), even[q]); \
        }                                                                                       \
        __m512 total = _mm512_setzero_ps();                                                     \
        for (int q = 0; q < W; q++) {                                                           \
            __m512 hidden = _mm512_max_ps(_mm512_add_ps(even[q], odd[q]), _mm512_setzero_ps()); \
            total = _mm512_fmadd_ps(hidden, _mm512_loadu_ps(w3 + 16 * q), total);               \
        }                                                                                       \
        return b3 + _mm512_reduce_add_ps(total);                                                \
    }
SECOND_LAYER(1)
SECOND_LAYER(2)
SECOND_LAYER(4)
SECOND_LAYER(8)
#elif defined(__AVX2__)
/* The same with vectors of 8 (the compiler's vector extension). */
typedef float Vec8 __attribute__((vector_size(32)));
typedef int32_t Mask8 __attribute__((vector_size(32)));

static inline Vec8 load8(const float *p) {
    Vec8 v;
    memcpy(&v, p, sizeof(v));
    return v;
}

#define SECOND_LAYER(W)                                                                         \
    static float second_layer_##W(const int *index, const float *input, int count, const float *w2, \
                                  int width, const float *b2, const float *w3, float b3) {      \
        Vec8 even[W], odd[W];                                                                   \
        for (int q = 0; q < W; q++) {                                                           \
            even[q] = load8(b2 + 8 * q);                                                        \
            odd[q] = (Vec8){0};                                                                 \
        }                                                                                       \
        int t = 0;                                                                              \
        for (; t + 2 <= count; t += 2) {                                                        \
            const float *r0 = w2 + (size_t)index[t] * width, *r1 = w2 + (size_t)index[t + 1] * width; \
            float x0 = input[t], x1 = input[t + 1];                                             \
            for (int q = 0; q < W; q++) {                                                       \
                even[q] += x0 * load8(r0 + 8 * q);                                              \
                odd[q] += x1 * load8(r1 + 8 * q);                                               \
            }                                                                                   \
        }                                                                                       \
        if (t < count)                                                                          \
            for (int q = 0; q < W; q++) even[q] += input[t] * load8(w2 + (size_t)index[t] * width + 8 * q); \
        Vec8 total = {0};                                                                       \
        for (int q = 0; q < W; q++) {                                                           \
            Vec8 hidden = even[q] + odd[q];                                                     \
            hidden = (Vec8)((Mask8)hidden & (hidden > 0.0f));     /* ReLU */                    \
            total += hidden * load8(w3 + 8 * q);                                                \
        }                                                                                       \
        float sum = b3;                                                                         \
        for (int k = 0; k < 8; k++) sum += total[k];                                            \
        return sum;                                                                             \
    }
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
#if defined(__AVX512F__)
    switch (width) {
        case 16: return second_layer_1;
        case 32: return second_layer_2;
        case 64: return second_layer_4;
        case 128: return second_layer_8;
        default: break;
    }
#elif defined(__AVX2__)
    switch (width) {
        case 16: return second_layer_2;
        case 32: return second_layer_4;
        case 64: return second_layer_8;
        case 128: return second_layer_16;
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

PyMODINIT_FUNC PyInit__network_c(void) { return PyModule_Create(&module); }
