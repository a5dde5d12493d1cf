/* Writing research tensors without a Python loop per card.
 *
 * The episodes (cardtable/adapters) know what a seat sees as 52-bit card masks and small
 * counts; turning them into float32 tensors one card at a time is most of the time a
 * tensor costs in Python.  ``encode`` zeroes a float32 buffer and writes many pieces in
 * one call; ``outcomes`` lists a chance node's cards with their probability.  The pure
 * Python writers (``Episode.write``) stay the reference: the tests check both give the
 * same tensors.  This module is optional: without a C compiler the adapters use numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* encode(buffer, masks, values): zero the writable float32 buffer, then for each
 * (offset, mask) pair of the flat tuple ``masks`` set buffer[offset + i] = 1 for every
 * bit i of mask (a card mask of at most 64 bits), and for each (offset, value) pair of the
 * flat tuple ``values`` set buffer[offset] = value.  Offsets are checked against the
 * buffer: a bad one raises ValueError and nothing past it is written. */
static PyObject *encode(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer view;
    PyObject *masks, *values;
    if (!PyArg_ParseTuple(args, "w*O!O!", &view, &PyTuple_Type, &masks, &PyTuple_Type,
                          &values))
        return NULL;
    if (view.len % 4) goto bad_buffer;
    Py_ssize_t size = view.len / 4;
    float *out = (float *)view.buf;
    memset(out, 0, (size_t)size * sizeof(float));
    Py_ssize_t n = PyTuple_GET_SIZE(masks);
    if (n % 2 || PyTuple_GET_SIZE(values) % 2) {
        PyErr_SetString(PyExc_ValueError, "masks and values are flat (offset, item) pairs");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < n; k += 2) {
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(masks, k));
        unsigned long long mask =
            PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(masks, k + 1));
        if (PyErr_Occurred()) goto fail;
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
        if (PyErr_Occurred()) goto fail;
        if (at < 0 || at >= size) goto bad_offset;
        out[at] = (float)value;
    }
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
bad_offset:
    PyErr_SetString(PyExc_ValueError, "a piece falls outside the tensor");
    goto fail;
bad_buffer:
    PyErr_SetString(PyExc_ValueError, "the buffer must hold float32");
fail:
    PyBuffer_Release(&view);
    return NULL;
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

static PyMethodDef methods[] = {
    {"encode", encode, METH_VARARGS,
     "encode(buffer, masks, values): zero a float32 buffer and write card masks and "
     "values at their offsets (flat (offset, item) tuples)."},
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
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "READY", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
