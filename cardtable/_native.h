/* What both games' compiled cores share: card masks and a seeded generator of their own.
 *
 * The cores (cardtable/pasur/_core.c, cardtable/durak/_core.c) keep the pure-Python
 * engine's representation: a set of cards is a 52-bit mask with bit (rank - 1) * 4 + suit,
 * exactly ``Card.mask``, so masks cross between the two engines unchanged.
 */
#ifndef CARDTABLE_NATIVE_H
#define CARDTABLE_NATIVE_H

#include <stdint.h>

typedef uint64_t ct_mask;

static inline int ct_count(ct_mask mask) { return __builtin_popcountll(mask); }

/* The index of the lowest card in a non-empty mask. */
static inline int ct_low(ct_mask mask) { return __builtin_ctzll(mask); }

/* The generator the cores' playouts use: xoshiro256** (Blackman and Vigna), seeded through
 * splitmix64 from one 64-bit number, so a playout is reproducible from the seed the Python
 * side draws from its own random.Random. */
typedef struct { uint64_t s[4]; } ct_rng;

static inline uint64_t ct_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void ct_rng_seed(ct_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng->s[i] = ct_splitmix64(&seed);
}

static inline uint64_t ct_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t ct_next(ct_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = ct_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ct_rotl(s[3], 45);
    return result;
}

/* A whole number in [0, n), n > 0, without modulo bias (Lemire's method). */
static inline uint32_t ct_below(ct_rng *rng, uint32_t n)
{
    uint64_t m = (uint64_t)(uint32_t)(ct_next(rng) >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (uint64_t)(uint32_t)(ct_next(rng) >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* A double in [0, 1). */
static inline double ct_unit(ct_rng *rng) { return (double)(ct_next(rng) >> 11) * 0x1.0p-53; }

/* The alpha-beta steps both cores' exact endgame searches share (a fail-soft search with a
 * table of bounds per position: each entry holds a lower and an upper bound on the
 * position's value). */

/* A position's remembered bounds [low, high] against the window (alpha, beta): 1 with
 * *value set when they decide it, else 0 with the window narrowed to them. */
static inline int ct_ab_window(double low, double high, double *alpha, double *beta,
                               double *value)
{
    if (low >= *beta) {
        *value = low;
        return 1;
    }
    if (high <= *alpha || low == high) {
        *value = high;
        return 1;
    }
    if (low > *alpha)
        *alpha = low;
    if (high < *beta)
        *beta = high;
    return 0;
}

/* One child's score taken into *best (the side to move maximising or not), the window
 * narrowed: 1 when the child is the best so far (the caller remembers its move). */
static inline int ct_ab_take(int maximise, double score, double *best, double *alpha,
                             double *beta)
{
    if (maximise) {
        if (score > *best) {
            *best = score;
            if (score > *alpha)
                *alpha = score;
            return 1;
        }
    } else if (score < *best) {
        *best = score;
        if (score < *beta)
            *beta = score;
        return 1;
    }
    return 0;
}

/* The bounds to remember for a position searched in the window (alpha0, beta0) that it
 * was entered with, from its remembered [low, high] and the value found. */
static inline void ct_ab_store(double best, double alpha0, double beta0, double low,
                               double high, double *new_low, double *new_high)
{
    if (best <= alpha0) {
        *new_low = low;
        *new_high = high < best ? high : best;
    } else if (best >= beta0) {
        *new_low = low > best ? low : best;
        *new_high = high;
    } else {
        *new_low = *new_high = best;
    }
}

/* The research adapters' tensors, written by a core in one call (cardtable/adapters): into
 * a float32 buffer the caller passes (anything with the buffer protocol: a numpy vector, an
 * array('f'), a memoryview), or, given a size instead, into a new list of Python floats
 * (pyspiel's form, its 0.0 and 1.0 shared objects).  Every write is checked against the
 * size: a piece outside it raises ValueError.  Needs Python.h included first. */
#ifdef Py_PYTHON_H
typedef struct {
    float *data;
    Py_ssize_t size;
    Py_buffer view;
    int is_view, bad;
} ct_tensor;

/* Open ``out`` (a writable float32 buffer, or an int size) zeroed: 0, or -1 with an error. */
static inline int ct_tensor_open(PyObject *out, ct_tensor *t)
{
    t->is_view = 0;
    t->bad = 0;
    if (PyLong_Check(out)) {
        t->size = PyLong_AsSsize_t(out);
        if (t->size < 0 || t->size > (1 << 24)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a tensor's size is 0 to 2**24");
            return -1;
        }
        t->data = PyMem_Calloc((size_t)(t->size ? t->size : 1), sizeof(float));
        if (t->data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        return 0;
    }
    if (PyObject_GetBuffer(out, &t->view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS
                           | PyBUF_FORMAT) < 0)
        return -1;
    const char *format = t->view.format ? t->view.format : "B";
    if (t->view.itemsize != 4 || (strcmp(format, "f") != 0 && strcmp(format, "<f") != 0
                                  && strcmp(format, "=f") != 0)) {
        PyBuffer_Release(&t->view);
        PyErr_SetString(PyExc_ValueError, "the tensor must be a contiguous float32 buffer");
        return -1;
    }
    t->is_view = 1;
    t->data = t->view.buf;
    t->size = t->view.len / 4;
    memset(t->data, 0, (size_t)t->view.len);
    return 0;
}

/* out[at + i] = 1 for every card i of mask (a write outside the tensor marks it bad). */
static inline void ct_tensor_bits(ct_tensor *t, long long at, ct_mask mask)
{
    if (!mask)
        return;
    if (at < 0 || at + 63 - __builtin_clzll(mask) >= t->size) {
        t->bad = 1;
        return;
    }
    while (mask) {
        t->data[at + __builtin_ctzll(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

static inline void ct_tensor_set(ct_tensor *t, long long at, double value)
{
    if (at < 0 || at >= t->size)
        t->bad = 1;
    else
        t->data[at] = (float)value;
}

/* Close the tensor: None (a buffer written), the list of floats (a size given), or NULL
 * with ValueError when a piece fell outside it. */
static inline PyObject *ct_tensor_close(ct_tensor *t)
{
    /* Eight equal 0.0 objects and eight 1.0, item i holding number i % 8: a list's release
     * (and its making) changes each item's reference count, and on one shared object those
     * changes queue one behind the other (a Durak observation of 497 items: 1.7 us, two
     * thirds of it releasing the list); spread over eight they overlap. */
    enum { SPREAD = 8 };
    static PyObject *zero[SPREAD], *one[SPREAD];
    PyObject *out = NULL;
    if (t->bad) {
        PyErr_SetString(PyExc_ValueError, "a piece falls outside the tensor");
        goto done;
    }
    if (t->is_view) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    for (int k = 0; k < SPREAD; k++)
        if (one[k] == NULL) {
            if (zero[k] == NULL && (zero[k] = PyFloat_FromDouble(0.0)) == NULL)
                goto done;
            if ((one[k] = PyFloat_FromDouble(1.0)) == NULL)
                goto done;
        }
    out = PyList_New(t->size);
    if (out == NULL)
        goto done;
    /* Every item first the zero of its number, then the few others put in; the shared
     * floats' references are counted once at the end, for the same reason.  A float that
     * fails to be made leaves the list whole (counted as it stands) for its release. */
    PyObject **items = ((PyListObject *)out)->ob_item;
    size_t size = (size_t)t->size;
    for (size_t i = 0; i < size; i++)
        items[i] = zero[i % SPREAD];
    Py_ssize_t zeros[SPREAD], ones[SPREAD] = {0};
    for (size_t k = 0; k < SPREAD; k++)
        zeros[k] = (Py_ssize_t)(size / SPREAD + (k < size % SPREAD));
    int failed = 0;
    for (size_t i = 0; i < size && !failed; i++) {
        if (i % SPREAD == 0 && size - i >= SPREAD) {   /* a block of eight all 0.0: skip */
            uint64_t block[SPREAD / 2];
            memcpy(block, t->data + i, sizeof block);
            if (!(block[0] | block[1] | block[2] | block[3])) {
                i += SPREAD - 1;
                continue;
            }
        }
        float x = t->data[i];
        if (x == 0.0f)
            continue;
        size_t k = i % SPREAD;
        if (x == 1.0f) {
            items[i] = one[k];
            ones[k]++;
        } else {
            PyObject *item = PyFloat_FromDouble(x);
            if (item == NULL) {
                failed = 1;
                continue;
            }
            items[i] = item;
        }
        zeros[k]--;
    }
    for (int k = 0; k < SPREAD; k++) {
        Py_SET_REFCNT(zero[k], Py_REFCNT(zero[k]) + zeros[k]);
        Py_SET_REFCNT(one[k], Py_REFCNT(one[k]) + ones[k]);
    }
    if (failed)
        Py_CLEAR(out);
done:
    if (t->is_view)
        PyBuffer_Release(&t->view);
    else
        PyMem_Free(t->data);
    return out;
}
#endif

/* The rows a vector's batched step writes (cardtable.adapters.vector), a row per
 * environment: float32 observations, a byte an action for the legal actions and a status
 * byte, held as writable buffers from open to close. */
typedef struct {
    float *obs;
    int8_t *masks;
    int8_t *status;
    Py_ssize_t row;   /* the floats of one observation */
    Py_buffer views[3];
} ct_step_rows;

static inline void ct_step_rows_close(ct_step_rows *rows)
{
    for (int i = 0; i < 3; i++)
        PyBuffer_Release(&rows->views[i]);
}

/* Hold the three buffers for ``count`` environments of ``actions`` actions each: 0, or -1
 * with an error and nothing held. */
static inline int ct_step_rows_open(ct_step_rows *rows, PyObject *obs, PyObject *masks,
                                    PyObject *status, Py_ssize_t count, Py_ssize_t actions)
{
    PyObject *objects[3] = {obs, masks, status};
    for (int i = 0; i < 3; i++) {
        if (PyObject_GetBuffer(objects[i], &rows->views[i],
                               PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
            while (i-- > 0)
                PyBuffer_Release(&rows->views[i]);
            return -1;
        }
    }
    Py_buffer *o = &rows->views[0];
    rows->row = count ? o->len / 4 / count : 0;
    if (count == 0 || o->itemsize != 4 || o->len != rows->row * 4 * count
        || rows->views[1].len != actions * count || rows->views[2].len != count) {
        PyErr_SetString(PyExc_ValueError, "the observations are float32 rows, the masks "
                        "one byte an action and the status one byte, a row per environment");
        ct_step_rows_close(rows);
        return -1;
    }
    rows->obs = (float *)o->buf;
    rows->masks = (int8_t *)rows->views[1].buf;
    rows->status = (int8_t *)rows->views[2].buf;
    return 0;
}

#endif
