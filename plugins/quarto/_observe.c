/* Quarto's observation fast path in C: the twin of tabletop_quarto/encoding.py's
 * observer (same numbers, same layout; the conformance kit and
 * tests/test_quarto_observe_c.py check that both agree). Optional: encoding.py falls back
 * to the Python observer when this module is not built (setup.py, optional=True).
 *
 * Interface (called from tabletop_quarto/encoding.py):
 *   bind(tails: bytes) -> observe
 * tails holds the last TAIL float32 numbers of the vector (phase, player to act, observing
 * player, variant) for every index 9 * phase + 3 * to_act + player, as encoding.py builds
 * them for one variant. The returned builtin is observe(state, player, out): it writes
 * player's observation of state (a State tuple: board, occupied, pool, hand, player,
 * phase, last, rules) into out, a writable, zero-filled, contiguous float32 buffer of at
 * least SIZE items (a memoryview of a numpy row, an array.array("f")), and returns None.
 * Nothing is hidden in Quarto (Q1.3), so the whole state may be read.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define BOARD 0
#define HAND 256
#define POOL 272
#define LAST 288
#define PHASE 304
#define SIZE 318
#define TAIL (SIZE - PHASE)

static int read_small(PyObject *value, long low, long high, const char *name, long *into) {
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Format(PyExc_TypeError, "a Quarto state's %s must be an int", name);
        return -1;
    }
    if (v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "a Quarto state's %s must be %ld-%ld, not %ld", name, low,
                     high, v);
        return -1;
    }
    *into = v;
    return 0;
}

/* The board's 16 bytes (square s in bits 8s..8s+7) as two 64-bit halves. */
static int read_board(PyObject *board, unsigned long long *low, unsigned long long *high) {
    if (!PyLong_Check(board)) {
        PyErr_SetString(PyExc_TypeError, "a Quarto state's board must be an int");
        return -1;
    }
    *low = PyLong_AsUnsignedLongLongMask(board);
    if (*low == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    PyObject *shift = PyLong_FromLong(64);
    if (shift == NULL)
        return -1;
    PyObject *upper = PyNumber_Rshift(board, shift);
    Py_DECREF(shift);
    if (upper == NULL)
        return -1;
    *high = PyLong_AsUnsignedLongLongMask(upper);
    Py_DECREF(upper);
    if (*high == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    return 0;
}

static PyObject *observe(PyObject *tails, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "observe(state, player, out) takes 3 arguments, not %zd",
                     nargs);
        return NULL;
    }
    PyObject *state = args[0];
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) < 7) {
        PyErr_SetString(PyExc_TypeError, "observe needs a Quarto State");
        return NULL;
    }
    unsigned long long low, high;
    long occupied, pool, hand, acting, phase, last, player;
    if (read_board(PyTuple_GET_ITEM(state, 0), &low, &high) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 1), 0, 0xFFFF, "occupied", &occupied) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 2), 0, 0xFFFF, "pool", &pool) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 3), -1, 15, "hand", &hand) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 4), 0, 2, "player", &acting) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 5), 0, 4, "phase", &phase) < 0 ||
        read_small(PyTuple_GET_ITEM(state, 6), -1, 15, "last", &last) < 0 ||
        read_small(args[1], 0, 2, "observing player", &player) < 0)
        return NULL;
    Py_ssize_t index = 9 * phase + 3 * acting + player;
    if ((index + 1) * TAIL * (Py_ssize_t)sizeof(float) > PyBytes_GET_SIZE(tails)) {
        PyErr_SetString(PyExc_ValueError, "observe was bound to too short a table of tails");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[2], &view, PyBUF_CONTIG | PyBUF_FORMAT) < 0)
        return NULL;
    if (view.itemsize != sizeof(float) || view.format == NULL || strcmp(view.format, "f") != 0 ||
        view.len < SIZE * (Py_ssize_t)sizeof(float)) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "observe writes into a float32 buffer of %d numbers",
                     SIZE);
        return NULL;
    }
    float *out = (float *)view.buf;
    for (int s = 0; s < 16; s++) {
        if (occupied >> s & 1) {
            unsigned long long half = s < 8 ? low : high;
            out[BOARD + 16 * s + (int)(half >> (8 * (s & 7)) & 15)] = 1.0f;
        }
    }
    if (hand >= 0)
        out[HAND + hand] = 1.0f;
    for (int p = 0; p < 16; p++)
        out[POOL + p] = (float)(pool >> p & 1);
    if (last >= 0)
        out[LAST + last] = 1.0f;
    memcpy(out + PHASE, PyBytes_AS_STRING(tails) + index * TAIL * sizeof(float),
           TAIL * sizeof(float));
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef observe_def = {
    "observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
    "observe(state, player, out): player's observation of state written into out.",
};

static PyObject *bind(PyObject *module, PyObject *tails) {
    if (!PyBytes_Check(tails) || PyBytes_GET_SIZE(tails) % (TAIL * sizeof(float)) != 0) {
        PyErr_Format(PyExc_TypeError, "bind needs bytes of %d float32 numbers a tail", TAIL);
        return NULL;
    }
    return PyCFunction_New(&observe_def, tails);
}

static PyMethodDef methods[] = {
    {"bind", bind, METH_O, "bind(tails: bytes) -> observe(state, player, out)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_observe", "Quarto's compiled observer (see encoding.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__observe(void) { return PyModule_Create(&module); }
