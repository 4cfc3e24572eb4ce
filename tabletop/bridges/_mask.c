/* The action mask's one pass in C, for every game: the twin of the Python loop in
 * tabletop/bridges/encoder.py (``for i in legal_ids: marks[at + i] = 1``).
 * Optional: encoder.py falls back to that loop when this module is not built (setup.py).
 *
 * Interface (METH_FASTCALL):
 *   mark(out, ids) -> None
 *     out  a writable C-contiguous buffer of bytes (format 'b' or 'B'), e.g. a numpy int8
 *          row of a zero-filled block;
 *     ids  a list or tuple of ints, each 0 <= id < len(out).
 *   out[id] = 1 for each id. Every id is checked before out is touched: anything else
 *   raises TypeError or ValueError, out left as it was.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *mark(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "mark(out, ids) takes 2 arguments, not %zd", nargs);
        return NULL;
    }
    PyObject *ids = args[1];
    PyObject **items;
    Py_ssize_t count;
    if (PyList_Check(ids)) {
        items = PySequence_Fast_ITEMS(ids);
        count = PyList_GET_SIZE(ids);
    } else if (PyTuple_Check(ids)) {
        items = PySequence_Fast_ITEMS(ids);
        count = PyTuple_GET_SIZE(ids);
    } else {
        PyErr_Format(PyExc_TypeError, "mark: ids is %.50s, not a list or tuple of ints",
                     Py_TYPE(ids)->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_CONTIG | PyBUF_FORMAT) < 0)
        return NULL;
    if (view.itemsize != 1 || view.format == NULL ||
        (view.format[0] != 'b' && view.format[0] != 'B') || view.format[1] != '\0') {
        PyErr_Format(PyExc_TypeError, "mark: out holds '%s' items, not bytes ('b' or 'B')",
                     view.format ? view.format : "B");
        PyBuffer_Release(&view);
        return NULL;
    }
    Py_ssize_t size = view.len;
    for (Py_ssize_t k = 0; k < count; k++) { /* every id checked first: all or nothing */
        PyObject *item = items[k];
        if (!PyLong_Check(item)) {
            PyErr_Format(PyExc_TypeError, "mark: id %.50s is not an int", Py_TYPE(item)->tp_name);
            PyBuffer_Release(&view);
            return NULL;
        }
        Py_ssize_t id = PyLong_AsSsize_t(item);
        if ((id == -1 && PyErr_Occurred()) || id < 0 || id >= size) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "mark: id %R is not 0-%zd", item, size - 1);
            PyBuffer_Release(&view);
            return NULL;
        }
    }
    char *out = (char *)view.buf;
    for (Py_ssize_t k = 0; k < count; k++)
        out[PyLong_AsSsize_t(items[k])] = 1;
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"mark", (PyCFunction)(void (*)(void))mark, METH_FASTCALL,
     "mark(out, ids): out[id] = 1 for each id of the list or tuple ids."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_mask", "The action mask's one pass in C (optional).", -1, methods,
};

PyMODINIT_FUNC PyInit__mask(void) { return PyModule_Create(&module); }
