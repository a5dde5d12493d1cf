/* Writing research tensors without a Python loop per card.
 *
 * The episodes (cardtable/adapters) know what a seat sees as 52-bit card masks and small
 * counts; turning them into float32 tensors one card at a time is most of the time a
 * tensor costs in Python.  ``encode`` zeroes a float32 buffer and writes many pieces in
 * one call; ``as_list`` gives the same tensor as a list of floats (pyspiel's form);
 * ``outcomes`` lists a chance node's cards with their probability.  The pure
 * Python writers (``Episode.write``) stay the reference: the tests check both give the
 * same tensors.  This module is optional: without a C compiler the adapters use numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Zero out[0..size) and write the pieces: for each (offset, mask) pair of the flat tuple
 * ``masks`` set out[offset + i] = 1 for every bit i of mask (a card mask of at most 64
 * bits), and for each (offset, value) pair of the flat tuple ``values`` set
 * out[offset] = value.  Offsets are checked against the size: a bad one raises
 * ValueError (returns -1) and nothing past it is written. */
static int write_pieces(float *out, Py_ssize_t size, PyObject *masks, PyObject *values) {
    memset(out, 0, (size_t)size * sizeof(float));
    Py_ssize_t n = PyTuple_GET_SIZE(masks);
    if (n % 2 || PyTuple_GET_SIZE(values) % 2) {
        PyErr_SetString(PyExc_ValueError, "masks and values are flat (offset, item) pairs");
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k += 2) {
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(masks, k));
        unsigned long long mask =
            PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(masks, k + 1));
        if (PyErr_Occurred()) return -1;
        if (!mask) continue;
        int top = 63 - __builtin_clzll(mask);
        if (at < 0 || at + top >= size) goto bad_offset;
        while (mask) {
            out[at + __builtin_ctzll(mask)] = 1.0f;
            mask &= mask - 1;
        }
    }
    n = PyTuple_GET_SIZE(values);
    for (Py_ssize_t k = 0; k < n; k += 2) {
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(values, k));
        double value = PyFloat_AsDouble(PyTuple_GET_ITEM(values, k + 1));
        if (PyErr_Occurred()) return -1;
        if (at < 0 || at >= size) goto bad_offset;
        out[at] = (float)value;
    }
    return 0;
bad_offset:
    PyErr_SetString(PyExc_ValueError, "a piece falls outside the tensor");
    return -1;
}

/* encode(buffer, masks, values): write_pieces into a writable float32 buffer. */
static PyObject *encode(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer view;
    PyObject *masks, *values;
    if (!PyArg_ParseTuple(args, "w*O!O!", &view, &PyTuple_Type, &masks, &PyTuple_Type,
                          &values))
        return NULL;
    if (view.len % 4) {
        PyErr_SetString(PyExc_ValueError, "the buffer must hold float32");
        PyBuffer_Release(&view);
        return NULL;
    }
    int failed = write_pieces((float *)view.buf, view.len / 4, masks, values);
    PyBuffer_Release(&view);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

/* The floats 0.0 and 1.0, shared by every list ``as_list`` makes (most of a tensor). */
static PyObject *zero_float, *one_float;

/* as_list(size, masks, values): the tensor write_pieces makes, as a list of ``size``
 * Python floats (what pyspiel's observation_tensor() returns).  The zeros and ones are
 * two shared float objects, so a list costs its references and not a float each. */
static PyObject *as_list(PyObject *self, PyObject *args) {
    (void)self;
    Py_ssize_t size;
    PyObject *masks, *values;
    if (!PyArg_ParseTuple(args, "nO!O!", &size, &PyTuple_Type, &masks, &PyTuple_Type,
                          &values))
        return NULL;
    if (size < 0 || size > (1 << 24)) {
        PyErr_SetString(PyExc_ValueError, "size must be 0 to 2**24");
        return NULL;
    }
    float *buffer = PyMem_Malloc((size_t)(size ? size : 1) * sizeof(float));
    if (!buffer) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (write_pieces(buffer, size, masks, values)) goto done;
    out = PyList_New(size);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < size; i++) {
        float x = buffer[i];
        PyObject *item;
        if (x == 0.0f) {
            item = Py_NewRef(zero_float);
        } else if (x == 1.0f) {
            item = Py_NewRef(one_float);
        } else {
            item = PyFloat_FromDouble((double)x);
            if (!item) {
                Py_CLEAR(out);
                goto done;
            }
        }
        PyList_SET_ITEM(out, i, item);
    }
done:
    PyMem_Free(buffer);
    return out;
}

/* outcomes(mask): [(index, 1/n), ...] for the n cards of a card mask, lowest first: a
 * chance node dealing one of them, each equally likely. */
static PyObject *outcomes(PyObject *self, PyObject *arg) {
    (void)self;
    unsigned long long mask = PyLong_AsUnsignedLongLong(arg);
    if (PyErr_Occurred()) return NULL;
    int n = __builtin_popcountll(mask);
    PyObject *out = PyList_New(n);
    if (!out) return NULL;
    PyObject *p = PyFloat_FromDouble(n ? 1.0 / n : 0.0);
    if (!p) {
        Py_DECREF(out);
        return NULL;
    }
    for (int k = 0; k < n; k++) {
        PyObject *index = PyLong_FromLong(__builtin_ctzll(mask));
        if (!index) goto fail;
        Py_INCREF(p);
        PyObject *pair = PyTuple_Pack(2, index, p);
        Py_DECREF(index);
        Py_DECREF(p);
        if (!pair) goto fail;
        PyList_SET_ITEM(out, k, pair);
        mask &= mask - 1;
    }
    Py_DECREF(p);
    return out;
fail:
    Py_DECREF(p);
    Py_DECREF(out);
    return NULL;
}

/* nth_card(mask, n): the index of the n-th card (from 0, lowest first) of a card mask of at
 * most 64 bits; -1 when it holds n cards or fewer (a chance node's card drawn by number). */
static PyObject *nth_card(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long mask;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "Kn", &mask, &n))
        return NULL;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "n must be 0 or more");
        return NULL;
    }
    while (n-- > 0 && mask)
        mask &= mask - 1;
    return PyLong_FromLong(mask ? __builtin_ctzll(mask) : -1);
}

static PyMethodDef methods[] = {
    {"encode", encode, METH_VARARGS,
     "encode(buffer, masks, values): zero a float32 buffer and write card masks and "
     "values at their offsets (flat (offset, item) tuples)."},
    {"as_list", as_list, METH_VARARGS,
     "as_list(size, masks, values): the tensor encode writes, as a list of size floats."},
    {"nth_card", nth_card, METH_VARARGS,
     "nth_card(mask, n): the index of the n-th card (from 0, lowest first) of a mask."},
    {"outcomes", outcomes, METH_O,
     "outcomes(mask): [(card index, probability), ...] for the cards of a mask, lowest "
     "first, equally likely."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_tensor",
    "Research tensors written in one call (see cardtable/adapters/tensors.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tensor(void) {
    if (!zero_float && !(zero_float = PyFloat_FromDouble(0.0))) return NULL;
    if (!one_float && !(one_float = PyFloat_FromDouble(1.0))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "READY", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
