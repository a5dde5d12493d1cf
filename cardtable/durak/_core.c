/* The compiled core of durak: not written yet.  READY stays false, so the pure engine runs
 * (see cardtable/_engine.py). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "../_native.h"

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.durak._core",
    .m_doc = "The compiled core of durak (not complete: READY is false).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "READY", Py_False) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
