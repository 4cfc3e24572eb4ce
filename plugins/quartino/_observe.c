/* Quartino's observation in C: the twin of tabletop_quartino/encoding.py's ``observe`` (the
 * same 217 float32 numbers, in encoding.LAYOUT order, as ``observation(view(state, p), p)``).
 * Optional: encoding.observer() falls back to the Python ``observe`` when this module is
 * not built, or when its OFFSETS are not the layout encoding.py declares (a stale build).
 * Built by setup.py (optional).
 *
 * Interface (METH_FASTCALL, so that Game.observer hands the bridges this function itself):
 *   observe(state: State, player: int, out) -> None
 *     state  the rules' State NamedTuple (a tuple read by index: board, supply, stands,
 *            done, to_act, owed, batch, turns, winner, check, cfg; cfg = (situations,
 *            mirror, max_turns, by_lot, hand, cards, ring, pawns, one_each)); to_act -1 is a
 *            chance step (the deal, N2);
 *     out    a writable C-contiguous float32 ('f') buffer of at least SIZE items, e.g. a
 *            memoryview of a numpy row or an array.array("f"); its first SIZE items are
 *            overwritten.
 *   OFFSETS: the start of each LAYOUT block, then SIZE.
 * Of the stands it reads only ``player``'s own cards and every stand's size, as the view
 * shows them (N7). The whole state is read and checked into a local vector before out is
 * touched: anything unexpected raises TypeError or ValueError, out left as it was.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NFIELDS 9
#define NCOLOURS 4
#define CARDS 24
#define SEATS 4

#define COUNTS 0
#define TOPS (COUNTS + NFIELDS * NCOLOURS)
#define SUPPLY (TOPS + NFIELDS * NCOLOURS)
#define STAND (SUPPLY + NCOLOURS)
#define DONE (STAND + CARDS)
#define SIZES (DONE + SEATS * CARDS)
#define TO_ACT (SIZES + SEATS)
#define ME (TO_ACT + SEATS)
#define WINNER (ME + SEATS)
#define OWED (WINNER + SEATS)
#define LEFT (OWED + 2)
#define OPTIONS (LEFT + 1)
#define SIZE (OPTIONS + 2)

#define STATE_FIELDS 11
#define CONFIG_FIELDS 9 /* situations, mirror, max_turns, by_lot, hand, cards, ring, pawns,
                          one_each */

/* An int of ``what`` into *value; with a range check unless lo > hi. */
static int as_int(PyObject *o, long lo, long hi, const char *what, long *value) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "Quartino observe: %s is %.50s, not an int", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "Quartino observe: %s is out of range", what);
        return -1;
    }
    if (lo <= hi && (v < lo || v > hi)) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: %s is %ld, not %ld-%ld", what, v, lo,
                     hi);
        return -1;
    }
    *value = v;
    return 0;
}

static int as_tuple(PyObject *o, const char *what) {
    if (!PyTuple_Check(o)) {
        PyErr_Format(PyExc_TypeError, "Quartino observe: %s is %.50s, not a tuple", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    return 0;
}

/* One-hot 1.0 at at[card] for each card of ``cards`` (a tuple of card numbers). */
static int mark_cards(PyObject *cards, float *at, const char *what) {
    if (as_tuple(cards, what) < 0)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    for (Py_ssize_t i = 0; i < n; i++) {
        long card;
        if (as_int(PyTuple_GET_ITEM(cards, i), 0, CARDS - 1, what, &card) < 0)
            return -1;
        at[card] = 1.0f;
    }
    return 0;
}

static int fill(PyObject *state, long player, float *v) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != STATE_FIELDS) {
        PyErr_Format(PyExc_TypeError, "Quartino observe: the state is %.50s, not a Quartino "
                     "State", Py_TYPE(state)->tp_name);
        return -1;
    }
    PyObject *board = PyTuple_GET_ITEM(state, 0), *supply = PyTuple_GET_ITEM(state, 1);
    PyObject *stands = PyTuple_GET_ITEM(state, 2), *done = PyTuple_GET_ITEM(state, 3);
    PyObject *cfg = PyTuple_GET_ITEM(state, 10);
    long c = 0, value, turns, max_turns;

    if (as_tuple(board, "the board") < 0)
        return -1;
    if (PyTuple_GET_SIZE(board) != NFIELDS) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: the board has %zd fields, not %d",
                     PyTuple_GET_SIZE(board), NFIELDS);
        return -1;
    }
    for (int f = 0; f < NFIELDS; f++) {
        PyObject *stack = PyTuple_GET_ITEM(board, f);
        if (as_tuple(stack, "a stack") < 0)
            return -1;
        Py_ssize_t n = PyTuple_GET_SIZE(stack);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (as_int(PyTuple_GET_ITEM(stack, i), 0, NCOLOURS - 1, "a pawn's colour", &c) < 0)
                return -1;
            v[COUNTS + NCOLOURS * f + c] += 1.0f;
        }
        if (n)
            v[TOPS + NCOLOURS * f + c] = 1.0f; /* c: the last pawn's, the top */
    }

    if (as_tuple(supply, "the supply") < 0)
        return -1;
    if (PyTuple_GET_SIZE(supply) != NCOLOURS) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: the supply has %zd colours, not %d",
                     PyTuple_GET_SIZE(supply), NCOLOURS);
        return -1;
    }
    for (int i = 0; i < NCOLOURS; i++) {
        if (as_int(PyTuple_GET_ITEM(supply, i), 1, 0, "a supply count", &value) < 0)
            return -1;
        v[SUPPLY + i] = (float)value;
    }

    if (as_tuple(stands, "the stands") < 0 || as_tuple(done, "the completed cards") < 0)
        return -1;
    Py_ssize_t players = PyTuple_GET_SIZE(stands);
    if (players < 1 || players > SEATS || PyTuple_GET_SIZE(done) > SEATS) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: %zd stands and %zd completed, not "
                     "1-%d", players, PyTuple_GET_SIZE(done), SEATS);
        return -1;
    }
    if (player < 1 || player > players) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: player %ld, not 1-%zd", player,
                     players);
        return -1;
    }
    for (Py_ssize_t s = 0; s < players; s++) {
        PyObject *stand = PyTuple_GET_ITEM(stands, s);
        if (s == player - 1) { /* the own stand's cards; of the others only their sizes */
            if (mark_cards(stand, v + STAND, "a card of the stand") < 0)
                return -1;
        } else if (as_tuple(stand, "a stand") < 0) {
            return -1;
        }
        v[SIZES + s] = (float)PyTuple_GET_SIZE(stand);
    }
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(done); s++)
        if (mark_cards(PyTuple_GET_ITEM(done, s), v + DONE + CARDS * s, "a completed card") < 0)
            return -1;

    if (as_int(PyTuple_GET_ITEM(state, 4), -1, SEATS, "the player to act", &value) < 0)
        return -1;
    if (value > 0) /* -1: chance (the deal), no one's turn */
        v[TO_ACT + value - 1] = 1.0f;
    if (as_int(PyTuple_GET_ITEM(state, 8), 0, SEATS, "the winner", &value) < 0)
        return -1;
    if (value)
        v[WINNER + value - 1] = 1.0f;
    v[ME + player - 1] = 1.0f;
    if (as_int(PyTuple_GET_ITEM(state, 5), 1, 0, "owed", &value) < 0)
        return -1;
    v[OWED] = (float)value;
    if (as_int(PyTuple_GET_ITEM(state, 6), 1, 0, "batch", &value) < 0)
        return -1;
    v[OWED + 1] = (float)value;

    if (!PyTuple_Check(cfg) || PyTuple_GET_SIZE(cfg) != CONFIG_FIELDS) {
        PyErr_Format(PyExc_TypeError, "Quartino observe: the config is %.50s, not a Quartino "
                     "Config", Py_TYPE(cfg)->tp_name);
        return -1;
    }
    if (as_int(PyTuple_GET_ITEM(state, 7), 1, 0, "turns", &turns) < 0 ||
        as_int(PyTuple_GET_ITEM(cfg, 2), 1, 0, "max_turns", &max_turns) < 0)
        return -1;
    v[LEFT] = (float)(max_turns - turns);
    for (int i = 0; i < 2; i++) { /* situations, mirror: bools */
        if (as_int(PyTuple_GET_ITEM(cfg, i), 1, 0, "an option", &value) < 0)
            return -1;
        v[OPTIONS + i] = (float)value;
    }
    return 0;
}

static int is_float32(const Py_buffer *view) {
    const char *f = view->format;
    if (view->itemsize != 4 || f == NULL)
        return 0;
    if (*f == '@' || *f == '=' ||
#if PY_BIG_ENDIAN
        *f == '>' || *f == '!'
#else
        *f == '<'
#endif
    )
        f++;
    return f[0] == 'f' && f[1] == '\0';
}

static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "observe(state, player, out) takes 3 arguments, not %zd",
                     nargs);
        return NULL;
    }
    long player;
    if (as_int(args[1], 1, 0, "the player", &player) < 0)
        return NULL;
    float v[SIZE];
    memset(v, 0, sizeof v);
    if (fill(args[0], player, v) < 0)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[2], &view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "Quartino observe: out (%.50s) is not a writable "
                     "contiguous float32 buffer", Py_TYPE(args[2])->tp_name);
        return NULL;
    }
    if (!is_float32(&view)) {
        PyErr_Format(PyExc_TypeError, "Quartino observe: out holds '%.20s' items, not float32 "
                     "'f'", view.format ? view.format : "B");
        PyBuffer_Release(&view);
        return NULL;
    }
    if (view.len < (Py_ssize_t)sizeof v) {
        PyErr_Format(PyExc_ValueError, "Quartino observe: out has %zd numbers, not at least %d",
                     view.len / 4, SIZE);
        PyBuffer_Release(&view);
        return NULL;
    }
    memcpy(view.buf, v, sizeof v);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(state, player, out): player's observation of state written into out (float32, "
     "at least SIZE items), as tabletop_quartino.encoding.observe writes it."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_observe",
    "Quartino's observation in C (see tabletop_quartino.encoding.observer).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__observe(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    PyObject *offsets = Py_BuildValue("(iiiiiiiiiiiii)", COUNTS, TOPS, SUPPLY, STAND, DONE, SIZES,
                                      TO_ACT, ME, WINNER, OWED, LEFT, OPTIONS, SIZE);
    if (offsets == NULL || PyModule_AddObject(m, "OFFSETS", offsets) < 0) {
        Py_XDECREF(offsets);
        Py_DECREF(m);
        return NULL;
    }
    /* built for the State of the deal's chance steps (issue 35): encoding.observer checks */
    if (PyModule_AddIntConstant(m, "CHANCE_STEPS", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
