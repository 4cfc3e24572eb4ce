/* The exact Quarto search in C: the twin of tabletop_quarto/search.py (same algorithm,
 * same scores). Optional: tabletop_quarto.solver falls back to the Python search when this
 * module is not built.
 *
 * Scores are for the player to act, relative to the root: WIN - k for a win at the k-th
 * placement, -(WIN - k) for a loss, 0 for a draw or "not decided within the horizon".
 * Negamax with fail-soft alpha-beta over turns (place the piece in hand, then give one),
 * deadly-piece pruning, turns ordered by the opponent's safe replies (none: a win at once),
 * mate-distance pruning, and a transposition table keyed by the canonical form of
 * symmetry.py: least image over the board symmetries of (occupancy, sorted counted
 * attribute columns after XOR with the piece in hand). Built by setup.py (optional).
 *
 * Interface (all called from tabletop_quarto/kernel.py):
 *   configure(patterns: bytes, attr8: int, counted: int, symmetries: bytes) -> None
 *   reset() -> None                       forget the transposition table
 *   table_bits(bits: int) -> None         resize the table to 2**bits entries
 *   root(board: bytes, pool: int, hand: int, rem: int, alpha: int, beta: int,
 *        max_nodes: int, seconds: float) -> (score, square, give, nodes, aborted)
 * board holds 16 piece numbers, 255 for an empty square; hand is -1 in the GIVE phase;
 * max_nodes < 0 and seconds < 0 mean no budget. nodes counts since the last reset().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define WIN 64
#define MATE 32
#define INF 100
/* Tuning, measured with bench/bench_solver.py (override with -D for experiments):
 * positions with at least TT_MIN empty squares go into the table of 2**TT_BITS entries
 * (16 bytes each; table_bits() changes it at run time);
 * turns are ordered by the opponent's safe replies from ORDER_MIN empty squares on, and
 * with COUNT3 the same count settles 3-empty positions without recursion. */
#ifndef TT_MIN
#define TT_MIN 7
#endif
#ifndef TT_BITS
#define TT_BITS 22
#endif
#ifndef COUNT3
#define COUNT3 1
#endif
#ifndef ORDER_MIN
#define ORDER_MIN 5
#endif

typedef struct {
    uint64_t cols;
    uint16_t occ;
    int8_t lo, hi;
    uint8_t depth, gen, used, pad;
} Entry;

static int npat;
static uint16_t pat_mask[19];
static uint8_t pat_sq[19][4];
static uint8_t attr8, counted;
static int nlanes;
static int lanes[4];
static uint16_t deadly[256];
static uint8_t enc_tab[16];
static int nsym;
static uint16_t img_lo[32][256], img_hi[32][256];

static uint8_t bff[16];  /* encoded piece per square, 0xFF when empty */
static uint16_t col[4];  /* squares whose piece has attribute bit i */

static Entry *tt;
static int tt_bits = TT_BITS;
static uint8_t gen = 1;
static uint64_t nodes, max_nodes, check_at;
static double deadline;
static int aborted;
static int best_sq, best_give;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* the thinking thread's CPU time */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void tick(void) {
    check_at = nodes + 4096;
    if (nodes > max_nodes || (deadline > 0 && now() > deadline)) aborted = 1;
}

static inline uint16_t image(int k, uint16_t v) { return img_lo[k][v & 255] | img_hi[k][v >> 8]; }

/* The canonical key of "place ``hand`` on the current board" (see symmetry.py). */
static void canon(uint16_t occ, int hand, uint16_t *kocc, uint64_t *kcols) {
    uint16_t least = 0xFFFF, im[32], c[4];
    int k, i, j;
    for (k = 0; k < nsym; k++) {
        im[k] = image(k, occ);
        if (im[k] < least) least = im[k];
    }
    for (i = 0; i < nlanes; i++) {
        int a = lanes[i];
        c[i] = col[a] ^ ((hand >> a) & 1 ? occ : 0);
    }
    uint64_t best = ~(uint64_t)0;
    for (k = 0; k < nsym; k++) {
        if (im[k] != least) continue;
        uint16_t v[4];
        for (i = 0; i < nlanes; i++) {
            uint16_t x = image(k, c[i]);
            for (j = i; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
            v[j] = x;
        }
        uint64_t key = 0;
        for (i = 0; i < nlanes; i++) key = key << 16 | v[i];
        if (key < best) best = key;
    }
    *kocc = least;
    *kcols = best;
}

static inline Entry *bucket(uint16_t kocc, uint64_t kcols) {
    uint64_t h = (kcols ^ ((uint64_t)kocc << 48) ^ kocc) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9ULL;
    return tt + ((h >> (64 - tt_bits)) & ~(uint64_t)1);
}

static inline int to_node(int v, int ply) { return v > MATE ? v + ply : v < -MATE ? v - ply : v; }
static inline int to_root(int v, int ply) { return v > MATE ? v - ply : v < -MATE ? v + ply : v; }

static void store(uint16_t kocc, uint64_t kcols, int score, int alpha, int beta, int ply,
                  int need) {
    Entry *b = bucket(kocc, kcols), *e = NULL;
    int rel = to_node(score, ply), lo, hi;
    if (score <= alpha) { lo = -INF; hi = rel; }
    else if (score >= beta) { lo = rel; hi = INF; }
    else { lo = hi = rel; }
    for (int i = 0; i < 2; i++) {
        Entry *x = b + i;
        if (x->used && x->gen == gen && x->occ == kocc && x->cols == kcols) {
            if (x->depth > need) return;
            if (x->depth == need) {
                if (x->lo > lo) lo = x->lo;
                if (x->hi < hi) hi = x->hi;
            }
            e = x;
            break;
        }
    }
    if (e == NULL) {
        /* Replace a stale entry, else the one searched to the smaller depth. */
        Entry *x = b, *y = b + 1;
        int sx = (x->used && x->gen == gen) ? x->depth + 1 : 0;
        int sy = (y->used && y->gen == gen) ? y->depth + 1 : 0;
        e = sy < sx ? y : x;
    }
    e->cols = kcols;
    e->occ = kocc;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->depth = (uint8_t)need;
    e->gen = gen;
    e->used = 1;
}

typedef struct {
    int count, square;
    uint16_t safe;
} Move;

typedef struct {
    uint8_t square, give, key;
} Turn;



static int place(uint16_t occ, uint16_t pool, int hand, int ply, int rem, int alpha, int beta,
                 int root) {
    nodes++;
    if (nodes >= check_at) tick();
    if (aborted) return 0;
    uint8_t eh = enc_tab[hand];
    uint16_t free = (uint16_t)~occ;
    uint16_t tq[19], pq[19];
    uint8_t tv[19], pv[19];
    int nt = 0, np = 0, p, s;
    for (p = 0; p < npat; p++) {
        uint16_t m = pat_mask[p], f = occ & m;
        int n = __builtin_popcount(f);
        if (n == 3) {
            const uint8_t *q = pat_sq[p];
            uint8_t v = bff[q[0]] & bff[q[1]] & bff[q[2]] & bff[q[3]] & attr8;
            if (v) {
                if (v & eh) { /* Q4.2: the piece in hand completes this pattern */
                    if (root) {
                        best_sq = __builtin_ctz(m ^ f);
                        best_give = -1;
                    }
                    return WIN - ply - 1;
                }
                tq[nt] = m ^ f;
                tv[nt++] = v;
            }
        } else if (n == 2) {
            const uint8_t *q = pat_sq[p];
            uint8_t v = bff[q[0]] & bff[q[1]] & bff[q[2]] & bff[q[3]] & eh & attr8;
            if (v) {
                pq[np] = m ^ f;
                pv[np++] = v;
            }
        }
    }
    int empties = __builtin_popcount(free);
    if (empties == 1) { /* the 16th piece goes down without a win: a draw */
        if (root) {
            best_sq = __builtin_ctz(free);
            best_give = -1;
        }
        return 0;
    }
    if (rem <= 0) return 0;
    int best_possible = empties >= 3 ? WIN - ply - 3 : 0;
    int worst = ply + 2 - WIN;
    if (best_possible <= alpha) return best_possible;
    if (worst >= beta) return worst;
    int need = rem < empties ? rem : empties;
    uint16_t kocc = 0;
    uint64_t kcols = 0;
    int keyed = 0;
    if (empties >= TT_MIN && !root) {
        keyed = 1;
        canon(occ, hand, &kocc, &kcols);
        Entry *b = bucket(kocc, kcols);
        for (int i = 0; i < 2; i++) {
            Entry *x = b + i;
            if (!(x->used && x->gen == gen && x->occ == kocc && x->cols == kcols)) continue;
            int ok = x->depth >= need, lo = x->lo, hi = x->hi;
            lo = (lo == -INF || !(ok || lo > MATE)) ? -INF : to_root(lo, ply);
            hi = (hi == INF || !(ok || hi < -MATE)) ? INF : to_root(hi, ply);
            if (lo >= beta) return lo;
            if (hi <= alpha) return hi;
            if (lo == hi) return lo;
            if (lo > alpha) alpha = lo;
            if (hi < beta) beta = hi;
            break;
        }
    }
    Move order[16];
    int nm = 0, losing = -1, i, j;
    for (s = 0; s < 16; s++) {
        uint16_t bit = (uint16_t)(1u << s);
        if (!(free & bit)) continue;
        uint8_t t = 0;
        for (i = 0; i < nt; i++)
            if (tq[i] != bit) t |= tv[i];
        for (i = 0; i < np; i++)
            if (pq[i] & bit) t |= pv[i];
        uint16_t safe = pool & (uint16_t)~deadly[t];
        if (safe) {
            Move mv = {__builtin_popcount(safe), s, safe};
            for (j = nm; j > 0 && order[j - 1].count > mv.count; j--) order[j] = order[j - 1];
            order[j] = mv;
            nm++;
        } else if (losing < 0) {
            losing = s;
        }
    }
    int score = -INF;
    if (losing >= 0) { /* every piece left to give wins for the opponent */
        score = worst;
        if (root) {
            best_sq = losing;
            best_give = -1;
        }
    }
    if (nm == 0) goto done;
    if (empties == 2) { /* the opponent places the last piece without a win: a draw */
        if (root) {
            best_sq = order[0].square;
            best_give = __builtin_ctz(order[0].safe);
        }
        score = 0;
        goto done;
    }
    /* Each turn (s, g) keyed by the opponent's safe replies: pairs (placement of g, piece
     * that is safe to give back). None means the opponent loses at once (a win at ply + 3);
     * fewest first. Where counting does not pay, the key is the safe pieces left by s. */
    Turn turns[256];
    int nturn = 0, lowest = 255, highest = 0;
    int counting = empties >= ORDER_MIN || (COUNT3 && empties == 3);
    for (i = 0; i < nm; i++) {
        s = order[i].square;
        uint16_t safe = order[i].safe, seen = 0;
        uint16_t occ2 = occ | (uint16_t)(1u << s), free2 = (uint16_t)~occ2;
        uint8_t others[16], pair_at[16];
        if (counting) {
            uint8_t thr_at[16], base_all = 0;
            memset(thr_at, 0, sizeof thr_at);
            memset(pair_at, 0, sizeof pair_at);
            bff[s] = eh;
            for (p = 0; p < npat; p++) {
                uint16_t m = pat_mask[p], f = occ2 & m;
                int n = __builtin_popcount(f);
                if (n < 2 || n == 4) continue;
                const uint8_t *q = pat_sq[p];
                uint8_t v = bff[q[0]] & bff[q[1]] & bff[q[2]] & bff[q[3]] & attr8;
                if (!v) continue;
                if (n == 3) {
                    thr_at[__builtin_ctz(m ^ f)] |= v;
                    base_all |= v;
                } else {
                    uint16_t e2 = m ^ f;
                    pair_at[__builtin_ctz(e2)] |= v;
                    pair_at[15 - __builtin_clz((unsigned)e2 << 16)] |= v;
                }
            }
            bff[s] = 0xFF;
            /* the threats left when the opponent fills t2 (its own threat is filled) */
            for (uint16_t f2 = free2; f2; f2 &= (uint16_t)(f2 - 1)) {
                int t2 = __builtin_ctz(f2);
                uint8_t o = base_all;
                if (thr_at[t2]) {
                    o = 0;
                    for (int u = 0; u < 16; u++)
                        if (u != t2) o |= thr_at[u];
                }
                others[t2] = o;
            }
        }
        while (safe) {
            int g = __builtin_ctz(safe);
            safe &= (uint16_t)(safe - 1);
            uint16_t cls = (uint16_t)(1u << (g & counted));
            if (seen & cls) continue; /* same counted values as a piece already tried */
            seen |= cls;
            int key = order[i].count;
            if (counting) {
                uint16_t pool2 = pool & (uint16_t)~(1u << g);
                uint8_t eg = enc_tab[g];
                key = 0;
                for (uint16_t f2 = free2; f2; f2 &= (uint16_t)(f2 - 1)) {
                    int t2 = __builtin_ctz(f2);
                    uint16_t back = pool2 & (uint16_t)~deadly[others[t2] | (pair_at[t2] & eg)];
                    key += __builtin_popcount(back);
                }
                if (key == 0) { /* the opponent has no safe reply: we win at ply + 3 */
                    if (root) {
                        best_sq = s;
                        best_give = g;
                    }
                    score = WIN - ply - 3;
                    goto done;
                }
                if (key > 255) key = 255;
            }
            turns[nturn].square = (uint8_t)s;
            turns[nturn].give = (uint8_t)g;
            turns[nturn].key = (uint8_t)key;
            if (key < lowest) lowest = key;
            if (key > highest) highest = key;
            nturn++;
        }
    }
    if (COUNT3 && empties == 3) { /* every reply leaves a safe piece: the last one draws */
        if (score < 0) {
            score = 0;
            if (root) {
                best_sq = turns[0].square;
                best_give = turns[0].give;
            }
        }
        goto done;
    }
    /* A stable counting sort by key over the keys that occur. */
    Turn sorted[256];
    int bins[257];
    if (nturn == 0 || highest < lowest) goto done; /* cannot happen: each s has a safe g */
    for (i = lowest; i <= highest + 1; i++) bins[i] = 0;
    for (i = 0; i < nturn; i++) bins[turns[i].key + 1]++;
    for (i = lowest + 1; i <= highest; i++) bins[i] += bins[i - 1];
    for (i = 0; i < nturn; i++) sorted[bins[turns[i].key]++] = turns[i];
    int a = alpha > score ? alpha : score;
    for (i = 0; i < nturn && score < beta; i++) {
        s = sorted[i].square;
        int g = sorted[i].give;
        bff[s] = eh;
        for (int k = 0; k < 4; k++) col[k] |= (uint16_t)(((hand >> k) & 1) << s);
        int v = -place(occ | (uint16_t)(1u << s), pool & (uint16_t)~(1u << g), g, ply + 1,
                       rem - 1, -beta, -a, 0);
        bff[s] = 0xFF;
        for (int k = 0; k < 4; k++) col[k] &= (uint16_t)~(1u << s);
        if (aborted) return 0;
        if (v > score) {
            score = v;
            if (root) {
                best_sq = s;
                best_give = g;
            }
            if (v > a) a = v;
        }
    }
done:
    if (keyed) store(kocc, kcols, score, alpha, beta, ply, need);
    return score;
}

static uint16_t deadly_now(uint16_t occ) {
    uint8_t t = 0;
    for (int p = 0; p < npat; p++) {
        if (__builtin_popcount(occ & pat_mask[p]) == 3) {
            const uint8_t *q = pat_sq[p];
            t |= bff[q[0]] & bff[q[1]] & bff[q[2]] & bff[q[3]] & attr8;
        }
    }
    return deadly[t];
}

static int give(uint16_t occ, uint16_t pool, int rem, int alpha, int beta) {
    nodes++;
    uint16_t dead = deadly_now(occ);
    int score = -INF, pass, seen = 0;
    best_sq = best_give = -1;
    for (pass = 0; pass < 2 && score < beta; pass++) {
        for (int g = 0; g < 16; g++) {
            if (!((pool >> g) & 1) || ((dead >> g) & 1) != pass) continue;
            int cls = 1 << ((g & counted) + 16 * pass);
            if (seen & cls) continue;
            seen |= cls;
            int v;
            if (pass) {
                v = 1 - WIN; /* the opponent places it and wins at once */
            } else {
                v = -place(occ, pool & (uint16_t)~(1u << g), g, 0, rem, -beta,
                           -(alpha > score ? alpha : score), 0);
                if (aborted) return 0;
            }
            if (v > score) {
                score = v;
                best_sq = -1;
                best_give = g;
                if (v >= beta) break;
            }
        }
    }
    return score;
}

static PyObject *py_configure(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer pats, syms;
    int a8, cm;
    if (!PyArg_ParseTuple(args, "y*iiy*", &pats, &a8, &cm, &syms)) return NULL;
    if (pats.len % 4 || pats.len / 4 > 19 || syms.len % 16 || syms.len / 16 > 32 ||
        syms.len == 0) {
        PyBuffer_Release(&pats);
        PyBuffer_Release(&syms);
        PyErr_SetString(PyExc_ValueError, "bad pattern or symmetry table");
        return NULL;
    }
    const uint8_t *pp = pats.buf, *sp = syms.buf;
    npat = (int)(pats.len / 4);
    for (int p = 0; p < npat; p++) {
        pat_mask[p] = 0;
        for (int k = 0; k < 4; k++) {
            pat_sq[p][k] = pp[4 * p + k] & 15;
            pat_mask[p] |= (uint16_t)(1u << pat_sq[p][k]);
        }
    }
    attr8 = (uint8_t)a8;
    counted = (uint8_t)(cm & 15);
    nlanes = 0;
    for (int i = 0; i < 4; i++)
        if ((counted >> i) & 1) lanes[nlanes++] = i;
    for (int p = 0; p < 16; p++) enc_tab[p] = (uint8_t)(p | ((~p & 15) << 4));
    for (int t = 0; t < 256; t++) {
        deadly[t] = 0;
        for (int p = 0; p < 16; p++)
            if (enc_tab[p] & t) deadly[t] |= (uint16_t)(1u << p);
    }
    nsym = (int)(syms.len / 16);
    for (int k = 0; k < nsym; k++) {
        for (int b = 0; b < 256; b++) {
            uint16_t lo = 0, hi = 0;
            for (int i = 0; i < 8; i++) {
                if ((b >> i) & 1) {
                    lo |= (uint16_t)(1u << (sp[16 * k + i] & 15));
                    hi |= (uint16_t)(1u << (sp[16 * k + 8 + i] & 15));
                }
            }
            img_lo[k][b] = lo;
            img_hi[k][b] = hi;
        }
    }
    PyBuffer_Release(&pats);
    PyBuffer_Release(&syms);
    if (++gen == 0) gen = 1;
    nodes = 0;
    Py_RETURN_NONE;
}

static PyObject *py_reset(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    if (++gen == 0) { /* generations wrapped: really clear */
        if (tt) memset(tt, 0, sizeof(Entry) << tt_bits);
        gen = 1;
    }
    nodes = 0;
    Py_RETURN_NONE;
}

static PyObject *py_table_bits(PyObject *self, PyObject *args) {
    (void)self;
    int bits;
    if (!PyArg_ParseTuple(args, "i", &bits)) return NULL;
    if (bits < 10 || bits > 30) {
        PyErr_SetString(PyExc_ValueError, "table bits must be 10-30");
        return NULL;
    }
    if (bits != tt_bits) {
        free(tt);
        tt = NULL; /* allocated again at the next root() */
        tt_bits = bits;
    }
    Py_RETURN_NONE;
}

static PyObject *py_root(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer board;
    int pool, hand, rem, alpha, beta;
    long long budget;
    double seconds;
    if (!PyArg_ParseTuple(args, "y*iiiiiLd", &board, &pool, &hand, &rem, &alpha, &beta, &budget,
                          &seconds))
        return NULL;
    if (board.len != 16 || npat == 0) {
        PyBuffer_Release(&board);
        PyErr_SetString(PyExc_ValueError, "board must be 16 bytes after configure()");
        return NULL;
    }
    if (tt == NULL) {
        size_t bytes = sizeof(Entry) << tt_bits;
#ifdef __linux__
        /* Huge pages: the table is probed at random, and TLB misses would dominate. */
        void *mem = NULL;
        if (posix_memalign(&mem, (size_t)1 << 21, bytes) == 0) {
            madvise(mem, bytes, MADV_HUGEPAGE);
            memset(mem, 0, bytes);
            tt = mem;
        }
#else
        tt = calloc((size_t)1 << tt_bits, sizeof(Entry));
#endif
        if (tt == NULL) {
            PyBuffer_Release(&board);
            return PyErr_NoMemory();
        }
    }
    const uint8_t *bp = board.buf;
    uint16_t occ = 0;
    memset(col, 0, sizeof col);
    for (int s = 0; s < 16; s++) {
        if (bp[s] < 16) {
            occ |= (uint16_t)(1u << s);
            bff[s] = enc_tab[bp[s]];
            for (int k = 0; k < 4; k++) col[k] |= (uint16_t)(((bp[s] >> k) & 1) << s);
        } else {
            bff[s] = 0xFF;
        }
    }
    PyBuffer_Release(&board);
    max_nodes = budget < 0 ? UINT64_MAX : (uint64_t)budget;
    deadline = seconds < 0 ? 0 : now() + seconds;
    aborted = 0;
    check_at = nodes + 1;
    best_sq = best_give = -1;
    int score;
    if (hand >= 0)
        score = place(occ, (uint16_t)pool, hand, 0, rem, alpha, beta, 1);
    else
        score = give(occ, (uint16_t)pool, rem, alpha, beta);
    return Py_BuildValue("(iiiKi)", score, best_sq, best_give, (unsigned long long)nodes, aborted);
}

static PyMethodDef methods[] = {
    {"configure", py_configure, METH_VARARGS, "Set the variant: patterns, attr8, counted, syms."},
    {"table_bits", py_table_bits, METH_VARARGS, "Use a table of 2**bits entries (16 bytes each)."},
    {"reset", py_reset, METH_NOARGS, "Forget the transposition table and the node count."},
    {"root", py_root, METH_VARARGS, "Search the root position: (score, square, give, nodes, "
                                    "aborted)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "The compiled Quarto search (see solver.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
