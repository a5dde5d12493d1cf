/* The compiled core of Pasur: a hand's play on 52-bit masks, and playouts run in C.
 *
 * ``Board(hand)`` copies the state of a ``pasur.Hand`` (the pure engine, the reference):
 * each seat's cards, the table, the captures, surs, the deals still to come.  On it,
 * ``legal()`` lists the legal moves as (card index, mask taken) in exactly the order
 * ``Hand.legal_moves`` does (for each card in hand in card order: the card left on the
 * table first where it may stay, then each capture in mask order), ``push``/``pop`` play
 * and undo them as ``Hand.push``/``Hand.pop`` do (deal rounds, the last capturer's sweep,
 * surs), and ``playout`` plays to the end of a deal round or of the hand with a seeded
 * generator of its own (``cardtable/_native.h``) and the bots' random or basic policy.
 * tests/pasur/test_pasur_core.py holds it to the pure engine move for move.
 *
 * Every capture setting of the rules is modelled (forced capture, multi-set captures,
 * kings and queens taking all, the three jacks, kids' pasur) and every sur setting: the
 * hand reads them off its own rules.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>
#include <limits.h>
#include "../_native.h"

#define NUMBER_MASK ((1ULL << 40) - 1)
#define JACK_MASK (0xFULL << 40)
#define ALL_MASK ((1ULL << 52) - 1)
#define CLUBS_MASK 0x1111111111111ULL
#define RANK_MASK(rank) (0xFULL << (4 * ((rank) - 1)))
#define UP_TO_RANK(rank) ((rank) >= 13 ? ALL_MASK : ((1ULL << (4 * (rank))) - 1))
#define MAX_ROUNDS 12
#define MAX_STACK 64   /* a hand has at most 48 moves after the opening table */

enum { JACK_SWEEP = 0, JACK_SWEEP_ALL = 1, JACK_ELEVEN = 2 };
enum { KIND_TRAIL = 0, KIND_CAPTURE = 1, KIND_SUR = 2 };
enum { POLICY_RANDOM = 0, POLICY_BASIC = 1 };

/* -- the capture rules --------------------------------------------------------------- */

typedef struct {
    int forced, multi, take_all, kids, jack;
    ct_mask reach[52];   /* every table card card i could ever take */
} Setting;

static void setting_init(Setting *s)
{
    for (int i = 0; i < 52; i++) {
        int rank = i / 4 + 1;
        ct_mask reach;
        if (rank <= 10)
            reach = s->kids ? RANK_MASK(rank) : UP_TO_RANK(11 - rank);
        else if (rank == 11)
            reach = s->jack == JACK_SWEEP ? (NUMBER_MASK | JACK_MASK)
                  : s->jack == JACK_SWEEP_ALL ? ALL_MASK
                  : s->kids ? JACK_MASK : (NUMBER_MASK | JACK_MASK);
        else
            reach = RANK_MASK(rank);
        s->reach[i] = reach;
    }
}

/* A growable list of masks. */
typedef struct {
    ct_mask *items;
    Py_ssize_t size, room;
} Masks;

static int masks_add(Masks *m, ct_mask value)
{
    if (m->size == m->room) {
        Py_ssize_t room = m->room ? 2 * m->room : 64;
        ct_mask *items = realloc(m->items, (size_t)room * sizeof(ct_mask));
        if (items == NULL)
            return -1;
        m->items = items;
        m->room = room;
    }
    m->items[m->size++] = value;
    return 0;
}

static int compare_masks(const void *a, const void *b)
{
    ct_mask x = *(const ct_mask *)a, y = *(const ct_mask *)b;
    return (x > y) - (x < y);
}

/* Sort and drop repeats. */
static void masks_sort(Masks *m)
{
    if (m->size < 2)
        return;
    qsort(m->items, (size_t)m->size, sizeof(ct_mask), compare_masks);
    Py_ssize_t kept = 1;
    for (Py_ssize_t i = 1; i < m->size; i++)
        if (m->items[i] != m->items[kept - 1])
            m->items[kept++] = m->items[i];
    m->size = kept;
}

/* Every set of the number cards in ``cards`` whose values add up to ``left``. */
static int sum_sets(const int *ranks, const ct_mask *bits, int count, int at, int left,
                    ct_mask chosen, Masks *out)
{
    if (left == 0)
        return masks_add(out, chosen);
    for (int k = at; k < count; k++) {
        if (ranks[k] > left)
            break;   /* (the cards come in rank order) */
        if (sum_sets(ranks, bits, count, k + 1, left - ranks[k], chosen | bits[k], out) < 0)
            return -1;
    }
    return 0;
}

static int add_sums(ct_mask numbers, int total, Masks *out)
{
    int ranks[40];
    ct_mask bits[40];
    int count = 0;
    while (numbers) {
        int index = ct_low(numbers);
        numbers &= numbers - 1;
        ranks[count] = index / 4 + 1;
        bits[count++] = 1ULL << index;
    }
    return sum_sets(ranks, bits, count, 0, total, 0, out);
}

/* Every union of one or more pairwise disjoint sets among out[from:], in place. */
static int disjoint_unions(Masks *out, Py_ssize_t from)
{
    Masks unions = {0};
    if (masks_add(&unions, 0) < 0)
        return -1;
    for (Py_ssize_t p = from; p < out->size; p++) {
        ct_mask part = out->items[p];
        Py_ssize_t known = unions.size;
        for (Py_ssize_t u = 0; u < known; u++)
            if (!(unions.items[u] & part) && masks_add(&unions, unions.items[u] | part) < 0) {
                free(unions.items);
                return -1;
            }
        masks_sort(&unions);
    }
    out->size = from;
    for (Py_ssize_t u = 0; u < unions.size; u++)
        if (unions.items[u] && masks_add(out, unions.items[u]) < 0) {
            free(unions.items);
            return -1;
        }
    free(unions.items);
    return 0;
}

/* Append card ``index``'s legal moves on ``table`` to ``out`` as masks taken (0: the card
 * stays on the table), in the order of ``OptionMemory.options``. */
static int add_options(const Setting *s, int index, ct_mask table, Masks *out)
{
    int rank = index / 4 + 1;
    ct_mask near = table & s->reach[index];
    if (!near)
        return masks_add(out, 0);
    int sweeping = rank == 11 && s->jack != JACK_ELEVEN;
    if (sweeping || (rank > 11 && (s->take_all || !(near & (near - 1))))) {
        if (!s->forced && masks_add(out, 0) < 0)
            return -1;
        return masks_add(out, near);
    }
    Py_ssize_t start = out->size;
    if (!s->forced && masks_add(out, 0) < 0)
        return -1;
    Py_ssize_t from = out->size;
    if (rank > 11 || s->kids) {
        for (ct_mask rest = near; rest; rest &= rest - 1)
            if (masks_add(out, 1ULL << ct_low(rest)) < 0)
                return -1;
    } else {
        if (rank == 11)
            for (ct_mask rest = near & JACK_MASK; rest; rest &= rest - 1)
                if (masks_add(out, 1ULL << ct_low(rest)) < 0)
                    return -1;
        if (add_sums(near & NUMBER_MASK, rank == 11 ? 11 : 11 - rank, out) < 0)
            return -1;
    }
    if (out->size == from) {
        /* nothing to take: the card stays */
        out->size = start;
        return masks_add(out, 0);
    }
    if (s->multi && rank <= 11 && out->size - from > 1) {   /* (kings and queens: one) */
        if (disjoint_unions(out, from) < 0)
            return -1;
    } else {
        qsort(out->items + from, (size_t)(out->size - from), sizeof(ct_mask), compare_masks);
    }
    return 0;
}

/* -- the board ------------------------------------------------------------------------ */

typedef struct {
    uint8_t index, seat, kind, dealt, ended;
    int8_t last;          /* the last capturer before (-1: none) */
    ct_mask taken, held, table, captured;
} Snap;

typedef struct {
    PyObject_HEAD
    Setting setting;
    int players, sides, sur_in_last_deal, sur_live;
    int side[4], next[4];
    ct_mask sur_cards;
    ct_mask held[4];
    ct_mask table, swept;
    ct_mask captured[4];
    int surs[4];
    int last, to_move;
    long round, rounds, base;
    ct_mask deals[MAX_ROUNDS][4];   /* deal round base + 1 + k: each seat's cards */
    int points[52];                 /* each card's points (the basic policy's values) */
    int sur_points;
    int depth;
    Snap stack[MAX_STACK];
    Masks legal;                    /* scratch: (index << 56 | taken) per legal move */
    Masks scratch;
} Board;

static PyTypeObject BoardType;

static int board_legal(Board *b)
{
    b->legal.size = 0;
    if (b->to_move < 0)
        return 0;
    for (ct_mask rest = b->held[b->to_move]; rest; rest &= rest - 1) {
        int index = ct_low(rest);
        b->scratch.size = 0;
        if (add_options(&b->setting, index, b->table, &b->scratch) < 0)
            return -1;
        for (Py_ssize_t k = 0; k < b->scratch.size; k++)
            if (masks_add(&b->legal, (ct_mask)index << 56 | b->scratch.items[k]) < 0)
                return -1;
    }
    return 0;
}

static void board_end_round(Board *b, int following, Snap *snap)
{
    if (b->round < b->rounds) {
        b->round += 1;
        for (int s = 0; s < b->players; s++)
            b->held[s] = b->deals[b->round - b->base - 1][s];
        b->sur_live = b->round < b->rounds || b->sur_in_last_deal;
        b->to_move = following;
        snap->dealt = 1;
        return;
    }
    b->to_move = -1;
    snap->ended = 1;
    ct_mask rest = b->table;
    if (rest && b->last >= 0) {
        b->swept = rest;
        b->table = 0;
        b->captured[b->side[b->last]] |= rest;
    }
}

/* Play a legal move (the caller knows it is one). */
static void board_play(Board *b, int index, ct_mask taken)
{
    int mover = b->to_move;
    ct_mask bit = 1ULL << index;
    Snap *snap = &b->stack[b->depth++];
    snap->index = (uint8_t)index;
    snap->seat = (uint8_t)mover;
    snap->dealt = snap->ended = 0;
    snap->taken = taken;
    snap->held = b->held[mover];
    snap->table = b->table;
    b->held[mover] &= ~bit;
    if (taken) {
        int side = b->side[mover];
        snap->captured = b->captured[side];
        snap->last = (int8_t)b->last;
        ct_mask rest = b->table ^ taken;
        b->captured[side] |= taken | bit;
        if (rest || !b->sur_live || !(b->sur_cards & bit)) {
            snap->kind = KIND_CAPTURE;
        } else {
            snap->kind = KIND_SUR;
            b->surs[side] += 1;
        }
        b->last = mover;
        b->table = rest;
    } else {
        snap->kind = KIND_TRAIL;
        b->table |= bit;
    }
    int following = b->next[mover];
    if (b->held[following])
        b->to_move = following;
    else
        board_end_round(b, following, snap);
}

static void board_undo(Board *b)
{
    Snap *snap = &b->stack[--b->depth];
    if (snap->ended) {
        if (b->swept) {
            b->captured[b->side[b->last]] ^= b->swept;
            b->swept = 0;
        }
    } else if (snap->dealt) {
        b->round -= 1;
        for (int s = 0; s < b->players; s++)
            b->held[s] = 0;
        b->sur_live = b->round < b->rounds || b->sur_in_last_deal;
    }
    int seat = snap->seat;
    b->held[seat] = snap->held;
    b->table = snap->table;
    if (snap->kind != KIND_TRAIL) {
        int side = b->side[seat];
        b->captured[side] = snap->captured;
        b->last = snap->last;
        if (snap->kind == KIND_SUR)
            b->surs[side] -= 1;
    }
    b->to_move = seat;
}

/* -- the basic policy (the Pasur kit's ``playout``, move for move) ---------------------- */

static int mask_points(const Board *b, ct_mask mask)
{
    int total = 0;
    for (; mask; mask &= mask - 1)
        total += b->points[ct_low(mask)];
    return total;
}

static double static_value(const Board *b, int index, ct_mask taken)
{
    ct_mask bit = 1ULL << index;
    if (taken) {
        ct_mask mask = taken | bit;
        double value = (double)mask_points(b, mask) + 0.5 * ct_count(mask & CLUBS_MASK)
                       + 0.1 * ct_count(mask);
        if (index / 4 + 1 == 11)
            value -= 1.5;
        return value;
    }
    int rank = index / 4 + 1;
    return -((double)mask_points(b, bit) + 0.5 * ct_count(bit & CLUBS_MASK)
             + 0.05 * (rank < 11 ? rank : 11));
}

static double gain(const Board *b, int index, ct_mask taken, ct_mask table)
{
    double score = static_value(b, index, taken);
    if (taken == table && taken && (b->sur_cards & (1ULL << index)))
        score += b->sur_points;
    return score;
}

/* The best a hand can take from ``table``. */
static int reply(Board *b, ct_mask table, ct_mask hand, double *found)
{
    *found = 0.0;
    for (; hand; hand &= hand - 1) {
        int index = ct_low(hand);
        b->scratch.size = 0;
        if (add_options(&b->setting, index, table, &b->scratch) < 0)
            return -1;
        for (Py_ssize_t k = 0; k < b->scratch.size; k++) {
            ct_mask taken = b->scratch.items[k];
            if (taken) {
                double v = gain(b, index, taken, table);
                if (v > *found)
                    *found = v;
            }
        }
    }
    return 0;
}

/* The move number the policy plays now (legal moves listed in b->legal). */
static int choose(Board *b, int policy, double variety, ct_rng *rng, Py_ssize_t *chosen)
{
    Py_ssize_t n = b->legal.size;
    if (n == 1) {
        *chosen = 0;
        return 0;
    }
    if (policy == POLICY_RANDOM) {
        *chosen = ct_below(rng, (uint32_t)n);
        return 0;
    }
    if (variety > 0 && ct_unit(rng) < variety) {
        *chosen = ct_below(rng, (uint32_t)n);
        return 0;
    }
    int mover = b->to_move;
    int nxt = (mover + 1) % b->players;
    ct_mask reply_hand = b->held[nxt];
    double sign = b->side[nxt] != b->side[mover] ? -1.0 : 0.5;
    ct_mask table = b->table;
    /* (reply() reuses the scratch list, so the moves are copied first) */
    ct_mask moves[256];
    ct_mask *list = n <= 256 ? moves : malloc((size_t)n * sizeof(ct_mask));
    if (list == NULL)
        return -1;
    memcpy(list, b->legal.items, (size_t)n * sizeof(ct_mask));
    Py_ssize_t best = 0;
    double best_score = -INFINITY;
    for (Py_ssize_t k = 0; k < n; k++) {
        int index = (int)(list[k] >> 56);
        ct_mask taken = list[k] & ALL_MASK;
        double score = gain(b, index, taken, table);
        ct_mask after = taken ? table ^ taken : table | (1ULL << index);
        if (after && reply_hand) {
            double answer;
            if (reply(b, after, reply_hand, &answer) < 0) {
                if (list != moves)
                    free(list);
                return -1;
            }
            score += sign * answer;
        }
        if (score > best_score) {
            best = k;
            best_score = score;
        }
    }
    if (list != moves)
        free(list);
    *chosen = best;
    return 0;
}

/* -- Python's side ---------------------------------------------------------------------- */

static int read_mask(PyObject *value, ct_mask *out)
{
    unsigned long long mask = PyLong_AsUnsignedLongLong(value);
    if (mask == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (mask & ~ALL_MASK) {
        PyErr_SetString(PyExc_ValueError, "a card mask has 52 bits");
        return -1;
    }
    *out = (ct_mask)mask;
    return 0;
}

static int read_bytes_mask(PyObject *value, ct_mask *out)
{
    char *data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(value, &data, &size) < 0)
        return -1;
    ct_mask mask = 0;
    for (Py_ssize_t k = 0; k < size; k++) {
        unsigned char index = (unsigned char)data[k];
        if (index >= 52) {
            PyErr_SetString(PyExc_ValueError, "a card index is 0 to 51");
            return -1;
        }
        mask |= 1ULL << index;
    }
    *out = mask;
    return 0;
}

static int read_int(PyObject *object, const char *name, long *out)
{
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    if (value == Py_None) {
        *out = -1;
    } else {
        *out = PyLong_AsLong(value);
        if (*out == -1 && PyErr_Occurred()) {
            Py_DECREF(value);
            return -1;
        }
    }
    Py_DECREF(value);
    return 0;
}

static int read_flag(PyObject *object, const char *name, int *out)
{
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    int truth = PyObject_IsTrue(value);
    Py_DECREF(value);
    if (truth < 0)
        return -1;
    *out = truth;
    return 0;
}

/* Read a sequence attribute of ints (or masks) into ``out`` (``count`` of them). */
static int read_ints(PyObject *object, const char *name, int count, int *out)
{
    PyObject *value = PyObject_GetAttrString(object, name);
    if (value == NULL)
        return -1;
    PyObject *seq = PySequence_Fast(value, "expected a sequence");
    Py_DECREF(value);
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s holds %d entries", name, count);
        return -1;
    }
    for (int k = 0; k < count; k++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        out[k] = (int)v;
    }
    Py_DECREF(seq);
    return 0;
}

static int read_memory_setting(PyObject *memory, Setting *s);

static int read_setting(PyObject *hand, Setting *s)
{
    PyObject *memory = PyObject_GetAttrString(hand, "_memory");
    if (memory == NULL)
        return -1;
    int status = read_memory_setting(memory, s);
    Py_DECREF(memory);
    return status;
}

/* The capture rules of an OptionMemory (cardtable/pasur/_options.py). */
static int read_memory_setting(PyObject *memory, Setting *s)
{
    int ok = read_flag(memory, "forced", &s->forced) == 0
             && read_flag(memory, "multi", &s->multi) == 0
             && read_flag(memory, "take_all", &s->take_all) == 0
             && read_flag(memory, "kids", &s->kids) == 0;
    if (ok) {
        PyObject *jack = PyObject_GetAttrString(memory, "jack");
        ok = jack != NULL;
        if (ok) {
            if (PyUnicode_CompareWithASCIIString(jack, "sweep") == 0)
                s->jack = JACK_SWEEP;
            else if (PyUnicode_CompareWithASCIIString(jack, "sweep_all") == 0)
                s->jack = JACK_SWEEP_ALL;
            else if (PyUnicode_CompareWithASCIIString(jack, "eleven") == 0)
                s->jack = JACK_ELEVEN;
            else {
                PyErr_SetString(PyExc_ValueError, "an unknown jack rule");
                ok = 0;
            }
            Py_DECREF(jack);
        }
    }
    if (!ok)
        return -1;
    setting_init(s);
    return 0;
}

static int read_hand(Board *b, PyObject *hand)
{
    long value;
    if (read_setting(hand, &b->setting) < 0)
        return -1;
    if (read_int(hand, "players", &value) < 0)
        return -1;
    if (value < 2 || value > 4) {
        PyErr_SetString(PyExc_ValueError, "a hand has 2 to 4 players");
        return -1;
    }
    b->players = (int)value;
    if (read_int(hand, "sides", &value) < 0)
        return -1;
    b->sides = (int)value;
    if (read_ints(hand, "_side", b->players, b->side) < 0
        || read_ints(hand, "_next", b->players, b->next) < 0
        || read_ints(hand, "_surs", b->sides, b->surs) < 0)
        return -1;
    if (read_int(hand, "_last", &value) < 0)
        return -1;
    b->last = (int)value;
    if (read_int(hand, "_to_move", &value) < 0)
        return -1;
    b->to_move = (int)value;
    if (read_int(hand, "_round", &b->round) < 0 || read_int(hand, "_rounds", &b->rounds) < 0)
        return -1;
    b->base = b->round;
    if (b->rounds - b->round > MAX_ROUNDS) {
        PyErr_SetString(PyExc_ValueError, "too many deal rounds to come");
        return -1;
    }
    if (read_flag(hand, "_sur_live", &b->sur_live) < 0)
        return -1;
    PyObject *rules = PyObject_GetAttrString(hand, "rules");
    if (rules == NULL)
        return -1;
    int status = read_flag(rules, "sur_in_last_deal", &b->sur_in_last_deal);
    Py_DECREF(rules);
    if (status < 0)
        return -1;
    PyObject *object;
    object = PyObject_GetAttrString(hand, "_sur_cards");
    if (object == NULL)
        return -1;
    status = read_mask(object, &b->sur_cards);
    Py_DECREF(object);
    if (status < 0)
        return -1;
    object = PyObject_GetAttrString(hand, "_table");
    if (object == NULL)
        return -1;
    status = read_mask(object, &b->table);
    Py_DECREF(object);
    if (status < 0)
        return -1;
    object = PyObject_GetAttrString(hand, "_swept");
    if (object == NULL)
        return -1;
    status = read_mask(object, &b->swept);
    Py_DECREF(object);
    if (status < 0)
        return -1;
    object = PyObject_GetAttrString(hand, "_captured");
    if (object == NULL)
        return -1;
    for (int side = 0; side < b->sides && status == 0; side++) {
        PyObject *item = PySequence_GetItem(object, side);
        status = item == NULL ? -1 : read_mask(item, &b->captured[side]);
        Py_XDECREF(item);
    }
    Py_DECREF(object);
    if (status < 0)
        return -1;
    object = PyObject_GetAttrString(hand, "_held");
    if (object == NULL)
        return -1;
    for (int seat = 0; seat < b->players && status == 0; seat++) {
        PyObject *item = PySequence_GetItem(object, seat);
        status = item == NULL ? -1 : read_bytes_mask(item, &b->held[seat]);
        Py_XDECREF(item);
    }
    Py_DECREF(object);
    if (status < 0)
        return -1;
    object = PyObject_GetAttrString(hand, "_deals");
    if (object == NULL)
        return -1;
    for (long number = b->round + 1; number <= b->rounds && status == 0; number++) {
        PyObject *dealt = PySequence_GetItem(object, number);
        if (dealt == NULL) {
            status = -1;
            break;
        }
        for (int seat = 0; seat < b->players && status == 0; seat++) {
            PyObject *item = PySequence_GetItem(dealt, seat);
            status = item == NULL ? -1
                     : read_bytes_mask(item, &b->deals[number - b->base - 1][seat]);
            Py_XDECREF(item);
        }
        Py_DECREF(dealt);
    }
    Py_DECREF(object);
    return status;
}

/* -- the compiled hand: pasur.Hand's state and hot half in C ------------------------------
 *
 * ``HandCore`` is the base of the compiled ``pasur.Hand`` (cardtable/pasur/compiled.py): a
 * Board (the state above and its moves) with what a hand adds, its rules, deck, history
 * and the Move objects it played.  It deals a new hand from a deal order, lists the legal
 * moves as the pure engine's interned ``Move`` objects, and plays and undoes them.  The
 * pure engine's cold half (views, scores, parsing and refusing moves, determinizing) runs
 * on it unchanged: it reads and writes the hand's fields under the pure engine's names
 * (``_held``, ``_table``, ``_deals``...) through the getters and setters here. */

typedef struct {
    Board b;                     /* (its object header is the hand's) */
    PyObject *rules, *memory, *deck, *history, *totals;
    PyObject *legal_list;        /* the legal moves listed (NULL: not listed since a move) */
    PyObject *moves[MAX_STACK];  /* the Move played by each entry of b.stack */
    int leader, dealer;
    long deals_len;              /* the length of the pure engine's _deals list */
} HandCore;

/* The interned moves, by taken << 6 | index (+ 1, so that 0 marks a free slot): the
 * objects move_of gave, kept alive here. */
#define INTERN_SIZE (1 << 15)
static struct { uint64_t key; PyObject *move; } interned[INTERN_SIZE];
static Py_ssize_t interned_count;
static PyObject *move_of_function;   /* cardtable.pasur.moves.move_of (bind_hand) */

static PyObject *interned_move(int index, ct_mask taken)
{
    uint64_t key = (taken << 6 | (uint64_t)index) + 1;
    size_t at = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 49) & (INTERN_SIZE - 1);
    while (interned[at].key) {
        if (interned[at].key == key)
            return Py_NewRef(interned[at].move);
        at = (at + 1) & (INTERN_SIZE - 1);
    }
    if (move_of_function == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the pasur core is not bound to its moves");
        return NULL;
    }
    PyObject *move = PyObject_CallFunction(move_of_function, "iK", index,
                                           (unsigned long long)taken);
    if (move == NULL)
        return NULL;
    if (interned_count >= INTERN_SIZE / 2) {
        /* forget them all (the moves stay alive where they are held) */
        for (size_t k = 0; k < INTERN_SIZE; k++)
            if (interned[k].key) {
                interned[k].key = 0;
                Py_CLEAR(interned[k].move);
            }
        interned_count = 0;
        at = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 49) & (INTERN_SIZE - 1);
    }
    interned[at].key = key;
    interned[at].move = Py_NewRef(move);
    interned_count++;
    return move;
}

static PyTypeObject HandCoreType;

static void hand_forget_legal(HandCore *h) { Py_CLEAR(h->legal_list); }

static PyObject *HandCore_new(PyTypeObject *type, PyObject *Py_UNUSED(args),
                              PyObject *Py_UNUSED(kwargs))
{
    HandCore *h = (HandCore *)type->tp_alloc(type, 0);
    if (h == NULL)
        return NULL;
    h->b.last = -1;
    h->b.to_move = -1;
    h->rules = Py_NewRef(Py_None);
    h->memory = Py_NewRef(Py_None);
    h->deck = Py_NewRef(Py_None);
    h->history = PyTuple_New(0);
    h->totals = Py_NewRef(Py_None);
    if (h->history == NULL) {
        Py_DECREF(h);
        return NULL;
    }
    return (PyObject *)h;
}

static void HandCore_dealloc(HandCore *h)
{
    for (int k = 0; k < h->b.depth; k++)
        Py_CLEAR(h->moves[k]);
    Py_CLEAR(h->rules);
    Py_CLEAR(h->memory);
    Py_CLEAR(h->deck);
    Py_CLEAR(h->history);
    Py_CLEAR(h->totals);
    Py_CLEAR(h->legal_list);
    free(h->b.legal.items);
    free(h->b.scratch.items);
    PyTypeObject *type = Py_TYPE(h);
    type->tp_free((PyObject *)h);
}

/* _bind(setup): a blank hand under a Setup (cardtable/pasur/_setup.py): its rules, seats,
 * sides and capture rules; no cards anywhere yet. */
static int HandCore_bind_read(HandCore *h, PyObject *setup);

static PyObject *HandCore_bind(HandCore *h, PyObject *setup)
{
    /* The last setup bound, read once: a Setup is made once per rules and player count
     * and never changed (a hand is dealt under the same one again and again). */
    static PyObject *known_setup;
    static HandCore known;
    Board *b = &h->b;
    if (setup == known_setup) {
        size_t head = offsetof(Board, setting);
        memcpy((char *)b + head, (char *)&known.b + head, offsetof(Board, sur_live) - head);
        memcpy(b->side, known.b.side, sizeof b->side);
        memcpy(b->next, known.b.next, sizeof b->next);
        b->sur_cards = known.b.sur_cards;
        Py_SETREF(h->memory, Py_NewRef(known.memory));
        Py_SETREF(h->rules, Py_NewRef(known.rules));
        Py_RETURN_NONE;
    }
    if (HandCore_bind_read(h, setup) < 0)
        return NULL;
    size_t head = offsetof(Board, setting);
    memcpy((char *)&known.b + head, (char *)b + head, offsetof(Board, sur_live) - head);
    memcpy(known.b.side, b->side, sizeof b->side);
    memcpy(known.b.next, b->next, sizeof b->next);
    known.b.sur_cards = b->sur_cards;
    Py_XSETREF(known.memory, Py_NewRef(h->memory));
    Py_XSETREF(known.rules, Py_NewRef(h->rules));
    Py_XSETREF(known_setup, Py_NewRef(setup));
    Py_RETURN_NONE;
}

static int HandCore_bind_read(HandCore *h, PyObject *setup)
{
    Board *b = &h->b;
    PyObject *memory = PyObject_GetAttrString(setup, "memory");
    PyObject *rules = memory ? PyObject_GetAttrString(setup, "rules") : NULL;
    if (rules == NULL) {
        Py_XDECREF(memory);
        return -1;
    }
    Py_SETREF(h->memory, memory);
    Py_SETREF(h->rules, rules);
    long sides;
    int status = read_memory_setting(memory, &b->setting);
    PyObject *side = status < 0 ? NULL : PyObject_GetAttrString(setup, "side");
    if (side == NULL)
        return -1;
    Py_ssize_t players = PyTuple_Check(side) ? PyTuple_GET_SIZE(side) : -1;
    Py_DECREF(side);
    if (players < 2 || players > 4) {
        PyErr_SetString(PyExc_ValueError, "a hand has 2 to 4 players");
        return -1;
    }
    b->players = (int)players;
    if (read_ints(setup, "side", b->players, b->side) < 0
        || read_ints(setup, "following", b->players, b->next) < 0
        || read_int(setup, "sides", &sides) < 0
        || read_flag(rules, "sur_in_last_deal", &b->sur_in_last_deal) < 0)
        return -1;
    b->sides = (int)sides;
    PyObject *sur = PyObject_GetAttrString(setup, "sur_cards");
    if (sur == NULL)
        return -1;
    status = read_mask(sur, &b->sur_cards);
    Py_DECREF(sur);
    if (status < 0)
        return -1;
    return 0;
}

/* _deal(order, opening): deal a new hand from a deal order (52 card indexes, bytes),
 * as Hand.new does; False, and nothing dealt, when the opening table holds a card of
 * ``opening`` (the opening-table rule then changes the order first). */
static PyObject *HandCore_deal(HandCore *h, PyObject *args)
{
    PyObject *order;
    unsigned long long opening;
    if (!PyArg_ParseTuple(args, "SK:_deal", &order, &opening))
        return NULL;
    Board *b = &h->b;
    const unsigned char *cards = (const unsigned char *)PyBytes_AS_STRING(order);
    ct_mask all = 0;
    if (PyBytes_GET_SIZE(order) == 52)
        for (int k = 0; k < 52; k++)
            all |= cards[k] < 52 ? 1ULL << cards[k] : 0;
    if (all != ALL_MASK) {
        PyErr_SetString(PyExc_ValueError, "a deal order holds each card index once");
        return NULL;
    }
    int players = b->players, start = 4 * players;
    if (players < 2) {
        PyErr_SetString(PyExc_ValueError, "the hand is not bound to its rules");
        return NULL;
    }
    ct_mask table = 1ULL << cards[start] | 1ULL << cards[start + 1]
                    | 1ULL << cards[start + 2] | 1ULL << cards[start + 3];
    if (table & opening)
        Py_RETURN_FALSE;
    long rounds = 48 / start;
    for (long number = 1; number <= rounds; number++) {
        int base = number == 1 ? 0 : start + 4 + (int)(number - 2) * start;
        for (int k = 0; k < players; k++) {
            const unsigned char *four = cards + base + 4 * k;
            b->deals[number - 1][(h->leader + k) % players] =
                1ULL << four[0] | 1ULL << four[1] | 1ULL << four[2] | 1ULL << four[3];
        }
    }
    for (int seat = 0; seat < players; seat++)
        b->held[seat] = b->deals[0][seat];
    b->table = table;
    b->base = 0;
    h->deals_len = rounds + 1;
    b->round = 1;
    b->rounds = rounds;
    b->to_move = h->leader;
    b->sur_live = rounds > 1 || b->sur_in_last_deal;
    Py_SETREF(h->deck, Py_NewRef(order));
    hand_forget_legal(h);
    Py_RETURN_TRUE;
}

static int hand_list_legal(HandCore *h)
{
    if (board_legal(&h->b) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t n = h->b.legal.size;
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        ct_mask item = h->b.legal.items[k];
        PyObject *move = interned_move((int)(item >> 56), item & ALL_MASK);
        if (move == NULL) {
            Py_DECREF(list);
            return -1;
        }
        PyList_SET_ITEM(list, k, move);
    }
    Py_XSETREF(h->legal_list, list);
    return 0;
}

static PyObject *HandCore_legal_moves(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    if (h->b.to_move < 0)
        return PyList_New(0);
    if (h->legal_list == NULL && hand_list_legal(h) < 0)
        return NULL;
    return PyList_GetSlice(h->legal_list, 0, PyList_GET_SIZE(h->legal_list));
}

static int hand_read_move(PyObject *move, int *index, ct_mask *taken)
{
    PyObject *value = PyObject_GetAttrString(move, "index");
    if (value == NULL)
        return -1;
    long got = PyLong_AsLong(value);
    Py_DECREF(value);
    if (got == -1 && PyErr_Occurred())
        return -1;
    value = PyObject_GetAttrString(move, "taken");
    if (value == NULL)
        return -1;
    int status = read_mask(value, taken);
    Py_DECREF(value);
    if (status < 0)
        return -1;
    if (got < 0 || got >= 52) {
        PyErr_SetString(PyExc_ValueError, "a move's card index is 0 to 51");
        return -1;
    }
    *index = (int)got;
    return 0;
}

/* push(move, *, seat=None): the pure Hand.push.  A move from the legal moves just listed
 * is found by identity; anything else goes through the pure engine's checks (_vet), which
 * raise what it raises or return the legal move meant. */
static PyObject *HandCore_push(HandCore *h, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    PyObject *move = NULL, *seat = Py_None;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 2 || nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "push(move, *, seat=None)");
        return NULL;
    }
    if (nargs == 1)
        move = args[0];
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        if (PyUnicode_CompareWithASCIIString(name, "seat") == 0)
            seat = args[nargs + k];
        else if (move == NULL && PyUnicode_CompareWithASCIIString(name, "move") == 0)
            move = args[nargs + k];
        else {
            PyErr_Format(PyExc_TypeError, "push() got an unexpected keyword argument '%U'",
                         name);
            return NULL;
        }
    }
    if (move == NULL) {
        PyErr_SetString(PyExc_TypeError, "push() missing 1 required positional argument: "
                                         "'move'");
        return NULL;
    }
    Board *b = &h->b;
    Py_ssize_t chosen = -1;
    if (seat == Py_None && h->legal_list != NULL) {
        Py_ssize_t n = PyList_GET_SIZE(h->legal_list);
        for (Py_ssize_t k = 0; k < n; k++)
            if (PyList_GET_ITEM(h->legal_list, k) == move) {
                chosen = k;
                break;
            }
    }
    if (chosen >= 0) {
        Py_INCREF(move);
    } else {
        move = PyObject_CallMethod((PyObject *)h, "_vet", "OO", move, seat);
        if (move == NULL)
            return NULL;
        int index;
        ct_mask taken;
        if (hand_read_move(move, &index, &taken) < 0 || board_legal(b) < 0) {
            if (!PyErr_Occurred())
                PyErr_NoMemory();
            Py_DECREF(move);
            return NULL;
        }
        ct_mask wanted = (ct_mask)index << 56 | taken;
        for (Py_ssize_t k = 0; k < b->legal.size; k++)
            if (b->legal.items[k] == wanted) {
                chosen = k;
                break;
            }
        if (chosen < 0) {
            Py_DECREF(move);
            PyErr_SetString(PyExc_RuntimeError, "the pure checks passed a move the core "
                                                "does not list");
            return NULL;
        }
    }
    if (b->depth >= MAX_STACK || b->round < b->base || b->rounds - b->base > MAX_ROUNDS) {
        /* (only fields set by hand out of their order could come here) */
        Py_DECREF(move);
        PyErr_SetString(PyExc_RuntimeError, b->depth >= MAX_STACK
                        ? "the hand's undo stack is full"
                        : "the hand's deal rounds do not fit its deals");
        return NULL;
    }
    ct_mask item = b->legal.items[chosen];
    h->moves[b->depth] = move;   /* (the reference taken above) */
    board_play(b, (int)(item >> 56), item & ALL_MASK);
    hand_forget_legal(h);
    Py_RETURN_NONE;
}

static PyObject *HandCore_pop(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    if (h->b.depth == 0) {
        int earlier = PyTuple_Check(h->history) && PyTuple_GET_SIZE(h->history) > 0;
        PyErr_SetString(PyExc_IndexError,
                        earlier ? "no move to undo: the moves before were made before this "
                                  "hand was determinized or copied without its stack"
                                : "no move to undo");
        return NULL;
    }
    board_undo(&h->b);
    PyObject *move = h->moves[h->b.depth];
    h->moves[h->b.depth] = NULL;
    hand_forget_legal(h);
    return move;
}

/* -- the research episode's moves and tensor (cardtable/adapters/pasur.py) --------------- */

/* _by_card(): the legal moves grouped by the card played, {card index: (moves, by what
 * they take, ascending)}, the cards in the order their first move is listed (what
 * PasurEpisode._refresh makes of legal_moves(), the reference).  The moves are the
 * listed ones (b.legal and legal_list agree while the list is kept). */
static PyObject *HandCore_by_card(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyDict_New();
    if (out == NULL || h->b.to_move < 0)
        return out;
    /* the legal list as legal_moves() lists it, so that push finds a move by identity */
    if (h->legal_list == NULL && hand_list_legal(h) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    Py_ssize_t n = h->b.legal.size;
    ct_mask *taken = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(ct_mask));
    if (taken == NULL) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    int order[52], count = 0;
    Py_ssize_t seen[52] = {0};
    for (Py_ssize_t k = 0; k < n; k++) {
        int index = (int)(h->b.legal.items[k] >> 56);
        if (!seen[index]++)
            order[count++] = index;
    }
    for (int c = 0; c < count && out != NULL; c++) {
        int index = order[c];
        Py_ssize_t m = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            ct_mask item = h->b.legal.items[k];
            if ((int)(item >> 56) != index)
                continue;
            ct_mask x = item & ALL_MASK;
            Py_ssize_t j = m++;
            while (j > 0 && taken[j - 1] > x) {   /* a stable insertion sort */
                taken[j] = taken[j - 1];
                j--;
            }
            taken[j] = x;
        }
        PyObject *moves = PyTuple_New(m);
        for (Py_ssize_t j = 0; moves != NULL && j < m; j++) {
            PyObject *move = interned_move(index, taken[j]);
            if (move == NULL)
                Py_CLEAR(moves);
            else
                PyTuple_SET_ITEM(moves, j, move);
        }
        PyObject *key = moves ? PyLong_FromLong(index) : NULL;
        if (key == NULL || PyDict_SetItem(out, key, moves) < 0)
            Py_CLEAR(out);
        Py_XDECREF(key);
        Py_XDECREF(moves);
    }
    PyMem_Free(taken);
    return out;
}

/* _tensor(out, seat, starts, pending, picked, round, stock): a seat's observation while
 * seats play (what PasurEpisode.pieces gives, the reference) written in one call: into
 * ``out``, a float32 buffer (None back), or, when ``out`` is a size, into a new list of
 * floats.  ``starts`` holds the pieces' offsets in the episode's _OBSERVATION order;
 * ``pending`` is the card whose capture is being chosen (-1: none) and ``picked`` the
 * cards named so far; ``round`` the deal round and ``stock`` the cards left to deal. */
enum { O_PLAYER, O_TO_MOVE, O_HAND, O_TABLE, O_CAPTURED, O_PENDING, O_PICKED, O_SURS,
       O_HAND_SIZES, O_ROUND, O_STOCK, O_LAST, O_STARTS };

/* The observation's pieces written into an open (zeroed) tensor. */
static void write_observation(const Board *b, ct_tensor *t, int seat, const long long *at,
                              int pending, ct_mask picked, int round, int stock)
{
    ct_tensor_bits(t, at[O_PLAYER], (ct_mask)1 << seat);
    ct_tensor_bits(t, at[O_HAND], b->held[seat]);
    ct_tensor_bits(t, at[O_TABLE], b->table);
    ct_tensor_bits(t, at[O_ROUND], (ct_mask)1 << (round - 1));
    ct_tensor_set(t, at[O_STOCK], stock);
    if (b->to_move >= 0)
        ct_tensor_bits(t, at[O_TO_MOVE], (ct_mask)1 << b->to_move);
    if (pending >= 0) {
        ct_tensor_bits(t, at[O_PENDING], (ct_mask)1 << pending);
        ct_tensor_bits(t, at[O_PICKED], picked);
    }
    for (int side = 0; side < b->sides; side++) {
        ct_tensor_bits(t, at[O_CAPTURED] + 52 * side, b->captured[side]);
        ct_tensor_set(t, at[O_SURS] + side, b->surs[side]);
    }
    if (b->last >= 0)
        ct_tensor_bits(t, at[O_LAST], (ct_mask)1 << b->last);
    for (int other = 0; other < b->players; other++)
        ct_tensor_set(t, at[O_HAND_SIZES] + other, ct_count(b->held[other]));
}

static PyObject *HandCore_tensor(HandCore *h, PyObject *args)
{
    int seat, pending, round, stock;
    unsigned long long picked;
    PyObject *out, *starts;
    if (!PyArg_ParseTuple(args, "OiO!iKii", &out, &seat, &PyTuple_Type, &starts, &pending,
                          &picked, &round, &stock))
        return NULL;
    const Board *b = &h->b;
    if (seat < 0 || seat >= b->players || PyTuple_GET_SIZE(starts) != O_STARTS
        || pending >= 52 || round < 1 || round > 64) {
        PyErr_SetString(PyExc_ValueError, "a seat of the hand, one start per piece, a card "
                        "or -1 pending, and a deal round from 1");
        return NULL;
    }
    long long at[O_STARTS];
    for (int i = 0; i < O_STARTS; i++) {
        at[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(starts, i));
        if (at[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    ct_tensor t;
    if (ct_tensor_open(out, &t) < 0)
        return NULL;
    write_observation(b, &t, seat, at, pending, (ct_mask)picked, round, stock);
    return ct_tensor_close(&t);
}

static PyObject *HandCore_is_over(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(h->b.to_move < 0);
}

/* _stack(): (seat, move, sur) for each move that can be undone, in order. */
static PyObject *HandCore_stack(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    PyObject *out = PyList_New(h->b.depth);
    for (int k = 0; out != NULL && k < h->b.depth; k++) {
        Snap *snap = &h->b.stack[k];
        PyObject *entry = Py_BuildValue("(iOO)", snap->seat, h->moves[k],
                                        snap->kind == KIND_SUR ? Py_True : Py_False);
        if (entry == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, entry);
    }
    return out;
}

static PyObject *HandCore_copy(HandCore *h, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"stack", NULL};
    int stack = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$p:copy", names, &stack))
        return NULL;
    PyObject *history;
    if (stack || h->b.depth == 0) {
        history = Py_NewRef(h->history);
    } else {
        PyObject *more = HandCore_stack(h, NULL);
        if (more == NULL)
            return NULL;
        PyObject *tail = PyList_AsTuple(more);
        Py_DECREF(more);
        if (tail == NULL)
            return NULL;
        history = PySequence_Concat(h->history, tail);
        Py_DECREF(tail);
        if (history == NULL)
            return NULL;
    }
    PyTypeObject *type = Py_TYPE(h);
    HandCore *other = (HandCore *)type->tp_alloc(type, 0);
    if (other == NULL) {
        Py_DECREF(history);
        return NULL;
    }
    size_t head = offsetof(Board, setting);
    memcpy((char *)&other->b + head, (char *)&h->b + head, offsetof(Board, legal) - head);
    other->rules = Py_NewRef(h->rules);
    other->memory = Py_NewRef(h->memory);
    other->deck = Py_NewRef(h->deck);
    other->totals = Py_NewRef(h->totals);
    other->history = history;
    other->leader = h->leader;
    other->dealer = h->dealer;
    other->deals_len = h->deals_len;
    if (stack)
        for (int k = 0; k < h->b.depth; k++)
            other->moves[k] = Py_NewRef(h->moves[k]);
    else
        other->b.depth = 0;
    return (PyObject *)other;
}

/* _getstate(): the state as bytes and the objects it holds (pickling, same build). */
static PyObject *HandCore_getstate(HandCore *h, PyObject *Py_UNUSED(ignored))
{
    size_t head = offsetof(Board, setting);
    PyObject *raw = PyBytes_FromStringAndSize((char *)&h->b + head,
                                              (Py_ssize_t)(offsetof(Board, legal) - head));
    PyObject *moves = PyTuple_New(h->b.depth);
    if (raw == NULL || moves == NULL) {
        Py_XDECREF(raw);
        Py_XDECREF(moves);
        return NULL;
    }
    for (int k = 0; k < h->b.depth; k++)
        PyTuple_SET_ITEM(moves, k, Py_NewRef(h->moves[k]));
    return Py_BuildValue("(NNOOOOOiil)", raw, moves, h->rules, h->memory, h->deck,
                         h->history, h->totals, h->leader, h->dealer, h->deals_len);
}

static PyObject *HandCore_setstate(HandCore *h, PyObject *state)
{
    PyObject *raw, *moves, *rules, *memory, *deck, *history, *totals;
    int leader, dealer;
    long deals_len;
    if (!PyArg_ParseTuple(state, "SO!OOOO!Oiil:_setstate", &raw, &PyTuple_Type, &moves,
                          &rules, &memory, &deck, &PyTuple_Type, &history, &totals,
                          &leader, &dealer, &deals_len))
        return NULL;
    size_t head = offsetof(Board, setting), size = offsetof(Board, legal) - head;
    if ((size_t)PyBytes_GET_SIZE(raw) != size || h->b.depth != 0) {
        PyErr_SetString(PyExc_ValueError, "a hand's state from another build");
        return NULL;
    }
    Board saved;
    memcpy((char *)&saved + head, PyBytes_AS_STRING(raw), size);
    int sane = saved.players >= 2 && saved.players <= 4 && saved.sides >= 2
               && saved.sides <= saved.players && saved.to_move >= -1
               && saved.to_move < saved.players && saved.last >= -1
               && saved.last < saved.players && saved.base >= 0
               && saved.round >= saved.base && saved.rounds >= saved.round
               && saved.rounds - saved.base <= MAX_ROUNDS && saved.depth >= 0
               && saved.depth <= MAX_STACK && PyTuple_GET_SIZE(moves) == saved.depth;
    for (int k = 0; sane && k < saved.players; k++)
        sane = saved.side[k] >= 0 && saved.side[k] < saved.sides && saved.next[k] >= 0
               && saved.next[k] < saved.players;
    for (int k = 0; sane && k < saved.depth; k++)
        sane = saved.stack[k].seat < saved.players && saved.stack[k].last >= -1
               && saved.stack[k].last < saved.players;
    if (!sane) {
        PyErr_SetString(PyExc_ValueError, "a hand's state from another build");
        return NULL;
    }
    memcpy((char *)&h->b + head, (char *)&saved + head, size);
    for (int k = 0; k < saved.depth; k++)
        h->moves[k] = Py_NewRef(PyTuple_GET_ITEM(moves, k));
    Py_SETREF(h->rules, Py_NewRef(rules));
    Py_SETREF(h->memory, Py_NewRef(memory));
    Py_SETREF(h->deck, Py_NewRef(deck));
    Py_SETREF(h->history, Py_NewRef(history));
    Py_SETREF(h->totals, Py_NewRef(totals));
    h->leader = leader;
    h->dealer = dealer;
    h->deals_len = deals_len;
    hand_forget_legal(h);
    Py_RETURN_NONE;
}

/* -- the fields under the pure engine's names -- */

static PyObject *bytes_of_mask(ct_mask mask)
{
    char data[52];
    int n = 0;
    for (; mask; mask &= mask - 1)
        data[n++] = (char)ct_low(mask);
    return PyBytes_FromStringAndSize(data, n);
}

static PyObject *list_of_masks(const ct_mask *masks, int count)
{
    PyObject *out = PyList_New(count);
    for (int k = 0; out != NULL && k < count; k++) {
        PyObject *item = PyLong_FromUnsignedLongLong(masks[k]);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static int refuse_delete(PyObject *value)
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "a hand's fields cannot be deleted");
        return -1;
    }
    return 0;
}

/* Read a sequence of ``count`` items with ``read`` into ``out``. */
static int read_each(PyObject *value, int count, ct_mask *out,
                     int (*read)(PyObject *, ct_mask *))
{
    PyObject *seq = PySequence_Fast(value, "expected a sequence");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "expected %d entries", count);
        return -1;
    }
    for (int k = 0; k < count; k++)
        if (read(PySequence_Fast_GET_ITEM(seq, k), &out[k]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

static PyObject *Hand_get_held(HandCore *h, void *Py_UNUSED(c))
{
    PyObject *out = PyList_New(h->b.players);
    for (int k = 0; out != NULL && k < h->b.players; k++) {
        PyObject *item = bytes_of_mask(h->b.held[k]);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static int Hand_set_held(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    ct_mask held[4];
    if (refuse_delete(value) < 0 || read_each(value, h->b.players, held, read_bytes_mask) < 0)
        return -1;
    memcpy(h->b.held, held, sizeof(ct_mask) * (size_t)h->b.players);
    hand_forget_legal(h);
    return 0;
}

static PyObject *Hand_get_hand_masks(HandCore *h, void *Py_UNUSED(c))
{
    return list_of_masks(h->b.held, h->b.players);
}

static PyObject *Hand_get_captured(HandCore *h, void *Py_UNUSED(c))
{
    return list_of_masks(h->b.captured, h->b.sides);
}

static int Hand_set_captured(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    ct_mask captured[4];
    if (refuse_delete(value) < 0 || read_each(value, h->b.sides, captured, read_mask) < 0)
        return -1;
    memcpy(h->b.captured, captured, sizeof(ct_mask) * (size_t)h->b.sides);
    return 0;
}

static PyObject *Hand_get_surs(HandCore *h, void *Py_UNUSED(c))
{
    PyObject *out = PyList_New(h->b.sides);
    for (int k = 0; out != NULL && k < h->b.sides; k++) {
        PyObject *item = PyLong_FromLong(h->b.surs[k]);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static int read_count(PyObject *value, ct_mask *out)
{
    long n = PyLong_AsLong(value);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0 || n > 1000) {
        PyErr_SetString(PyExc_ValueError, "a count of surs is 0 or more");
        return -1;
    }
    *out = (ct_mask)n;
    return 0;
}

static int Hand_set_surs(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    ct_mask surs[4];
    if (refuse_delete(value) < 0 || read_each(value, h->b.sides, surs, read_count) < 0)
        return -1;
    for (int k = 0; k < h->b.sides; k++)
        h->b.surs[k] = (int)surs[k];
    return 0;
}

static PyObject *Hand_get_table(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromUnsignedLongLong(h->b.table);
}

static int Hand_set_table(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0 || read_mask(value, &h->b.table) < 0)
        return -1;
    hand_forget_legal(h);
    return 0;
}

static PyObject *Hand_get_swept(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromUnsignedLongLong(h->b.swept);
}

static int Hand_set_swept(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    return refuse_delete(value) < 0 ? -1 : read_mask(value, &h->b.swept);
}

static PyObject *Hand_get_sur_cards(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromUnsignedLongLong(h->b.sur_cards);
}

static PyObject *seat_or_none(int seat)
{
    return seat < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(seat);
}

static int read_seat_or_none(HandCore *h, PyObject *value, int *out)
{
    if (refuse_delete(value) < 0)
        return -1;
    if (value == Py_None) {
        *out = -1;
        return 0;
    }
    long seat = PyLong_AsLong(value);
    if (seat == -1 && PyErr_Occurred())
        return -1;
    if (seat < 0 || seat >= h->b.players) {
        PyErr_SetString(PyExc_ValueError, "a seat of the hand, or None");
        return -1;
    }
    *out = (int)seat;
    return 0;
}

static PyObject *Hand_get_last(HandCore *h, void *Py_UNUSED(c))
{
    return seat_or_none(h->b.last);
}

static int Hand_set_last(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    return read_seat_or_none(h, value, &h->b.last);
}

static PyObject *Hand_get_to_move(HandCore *h, void *Py_UNUSED(c))
{
    return seat_or_none(h->b.to_move);
}

static int Hand_set_to_move(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    hand_forget_legal(h);
    return read_seat_or_none(h, value, &h->b.to_move);
}

static int read_round(PyObject *value, long *out)
{
    if (refuse_delete(value) < 0)
        return -1;
    long n = PyLong_AsLong(value);
    if (n == -1 && PyErr_Occurred())
        return -1;
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "deal rounds count from 1");
        return -1;
    }
    *out = n;
    return 0;
}

static PyObject *Hand_get_round(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromLong(h->b.round);
}

static int Hand_set_round(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    return read_round(value, &h->b.round);
}

static PyObject *Hand_get_rounds(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromLong(h->b.rounds);
}

static int Hand_set_rounds(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    return read_round(value, &h->b.rounds);
}

static PyObject *Hand_get_sur_live(HandCore *h, void *Py_UNUSED(c))
{
    return PyBool_FromLong(h->b.sur_live);
}

static int Hand_set_sur_live(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0)
        return -1;
    int truth = PyObject_IsTrue(value);
    if (truth < 0)
        return -1;
    h->b.sur_live = truth;
    return 0;
}

static PyObject *int_tuple(const int *values, int count)
{
    PyObject *out = PyTuple_New(count);
    for (int k = 0; out != NULL && k < count; k++) {
        PyObject *item = PyLong_FromLong(values[k]);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

static PyObject *Hand_get_side(HandCore *h, void *Py_UNUSED(c))
{
    return int_tuple(h->b.side, h->b.players);
}

static PyObject *Hand_get_next(HandCore *h, void *Py_UNUSED(c))
{
    return int_tuple(h->b.next, h->b.players);
}

/* _deals: per deal round (from 1), each seat's cards as bytes; None for a round not
 * known (a hand from a position does not know its own round's deal). */
static PyObject *Hand_get_deals(HandCore *h, void *Py_UNUSED(c))
{
    const Board *b = &h->b;
    PyObject *out = PyList_New(h->deals_len);
    for (long k = 0; out != NULL && k < h->deals_len; k++) {
        PyObject *item;
        if (k <= b->base) {
            item = Py_NewRef(Py_None);
        } else {
            item = PyTuple_New(b->players);
            for (int seat = 0; item != NULL && seat < b->players; seat++) {
                PyObject *cards = bytes_of_mask(b->deals[k - b->base - 1][seat]);
                if (cards == NULL)
                    Py_CLEAR(item);
                else
                    PyTuple_SET_ITEM(item, seat, cards);
            }
        }
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static int Hand_set_deals(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0)
        return -1;
    PyObject *seq = PySequence_Fast(value, "_deals is a list");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq), first = n;
    for (Py_ssize_t k = 1; k < n; k++)
        if (PySequence_Fast_GET_ITEM(seq, k) != Py_None) {
            first = k;
            break;
        }
    if (n < 1 || n - first > MAX_ROUNDS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "_deals holds 1 to 12 deal rounds to come");
        return -1;
    }
    ct_mask deals[MAX_ROUNDS][4];
    for (Py_ssize_t k = first; k < n; k++)
        if (read_each(PySequence_Fast_GET_ITEM(seq, k), h->b.players, deals[k - first],
                      read_bytes_mask) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    memcpy(h->b.deals, deals, sizeof deals);
    h->b.base = (long)first - 1;
    h->deals_len = (long)n;
    return 0;
}

static PyObject *Hand_get_deck(HandCore *h, void *Py_UNUSED(c))
{
    return Py_NewRef(h->deck);
}

static int Hand_set_deck(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0)
        return -1;
    if (value != Py_None && !PyBytes_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_deck is bytes or None");
        return -1;
    }
    Py_SETREF(h->deck, Py_NewRef(value));
    return 0;
}

static PyObject *Hand_get_history(HandCore *h, void *Py_UNUSED(c))
{
    return Py_NewRef(h->history);
}

static int Hand_set_history(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0)
        return -1;
    if (!PyTuple_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "_history is a tuple");
        return -1;
    }
    Py_SETREF(h->history, Py_NewRef(value));
    return 0;
}

static PyObject *Hand_get_totals(HandCore *h, void *Py_UNUSED(c))
{
    return Py_NewRef(h->totals);
}

static int Hand_set_totals(HandCore *h, PyObject *value, void *Py_UNUSED(c))
{
    if (refuse_delete(value) < 0)
        return -1;
    Py_SETREF(h->totals, Py_NewRef(value));
    return 0;
}

static PyObject *Hand_get_depth(HandCore *h, void *Py_UNUSED(c))
{
    return PyLong_FromLong(h->b.depth);
}

/* The position of Hand.from_masks put in place (the checks done): each seat's cards, the
 * table, the stock dealt in card order (4 cards to each seat from the leader on, each
 * later round), the piles and surs (NULL: left as they are) and the last capturer. */
static void hand_place(HandCore *h, const ct_mask *held, ct_mask table, ct_mask stock,
                       long deal_round, const ct_mask *captured, const int *surs, int last)
{
    Board *b = &h->b;
    int players = b->players;
    long rounds = ct_count(stock) / (4 * players);
    ct_mask rest = stock;
    for (long r = 0; r < rounds; r++)
        for (int k = 0; k < players; k++) {
            ct_mask four = 0;
            for (int c = 0; c < 4; c++) {
                ct_mask bit = rest & -rest;
                four |= bit;
                rest ^= bit;
            }
            b->deals[r][(h->leader + k) % players] = four;
        }
    memcpy(b->held, held, sizeof(ct_mask) * (size_t)players);
    b->table = table;
    if (captured != NULL)
        memcpy(b->captured, captured, sizeof(ct_mask) * (size_t)b->sides);
    if (surs != NULL)
        memcpy(b->surs, surs, sizeof(int) * (size_t)b->sides);
    b->last = last;
    b->base = deal_round;
    h->deals_len = deal_round + 1 + rounds;
    b->round = deal_round;
    b->rounds = deal_round + rounds;
    b->to_move = h->leader;
    b->sur_live = b->round < b->rounds || b->sur_in_last_deal;
    hand_forget_legal(h);
}

/* _place(held, table, stock, deal_round, captured, surs, last): Hand.from_masks's checked
 * position put in place, as the pure Hand._place does (the stock dealt in card order, 4
 * cards to each seat from the leader on, each later round). */
static PyObject *HandCore_place(HandCore *h, PyObject *args)
{
    PyObject *held_list, *captured_list, *surs_list, *last;
    unsigned long long table_value, stock_value;
    long deal_round;
    if (!PyArg_ParseTuple(args, "OKKlOOO:_place", &held_list, &table_value, &stock_value,
                          &deal_round, &captured_list, &surs_list, &last))
        return NULL;
    Board *b = &h->b;
    int players = b->players, per_round = 4 * players;
    ct_mask held[4], captured[4], surs[4] = {0};
    ct_mask stock = (ct_mask)stock_value, table = (ct_mask)table_value;
    long rounds = players ? ct_count(stock) / per_round : 0;
    int last_seat = -1;
    if (players < 2 || deal_round < 1 || (table | stock) & ~ALL_MASK
        || ct_count(stock) % per_round || rounds > MAX_ROUNDS
        || read_each(held_list, players, held, read_mask) < 0
        || (captured_list != Py_None
            && read_each(captured_list, b->sides, captured, read_mask) < 0)
        || (surs_list != Py_None && read_each(surs_list, b->sides, surs, read_count) < 0)
        || read_seat_or_none(h, last, &last_seat) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "not a position to place");
        return NULL;
    }
    int sur_counts[4];
    for (int k = 0; k < b->sides; k++)
        sur_counts[k] = (int)surs[k];
    hand_place(h, held, table, stock, deal_round, captured_list != Py_None ? captured : NULL,
               surs_list != Py_None ? sur_counts : NULL, last_seat);
    Py_RETURN_NONE;
}

static PyGetSetDef HandCore_getset[] = {
    {"_held", (getter)Hand_get_held, (setter)Hand_set_held, "Each seat's cards (bytes).", NULL},
    {"hand_masks", (getter)Hand_get_hand_masks, NULL, "Each seat's cards as masks.", NULL},
    {"_captured", (getter)Hand_get_captured, (setter)Hand_set_captured, NULL, NULL},
    {"captured_masks", (getter)Hand_get_captured, NULL, "Each side's pile as a mask.", NULL},
    {"_surs", (getter)Hand_get_surs, (setter)Hand_set_surs, NULL, NULL},
    {"surs", (getter)Hand_get_surs, NULL, "Surs made so far per side.", NULL},
    {"_table", (getter)Hand_get_table, (setter)Hand_set_table, NULL, NULL},
    {"table_mask", (getter)Hand_get_table, NULL, "The table as a mask.", NULL},
    {"_swept", (getter)Hand_get_swept, (setter)Hand_set_swept, NULL, NULL},
    {"_sur_cards", (getter)Hand_get_sur_cards, NULL, NULL, NULL},
    {"_last", (getter)Hand_get_last, (setter)Hand_set_last, NULL, NULL},
    {"last_capturer", (getter)Hand_get_last, NULL, "The last seat to capture.", NULL},
    {"_to_move", (getter)Hand_get_to_move, (setter)Hand_set_to_move, NULL, NULL},
    {"to_move", (getter)Hand_get_to_move, NULL, "The seat to play (None: over).", NULL},
    {"_round", (getter)Hand_get_round, (setter)Hand_set_round, NULL, NULL},
    {"deal_round", (getter)Hand_get_round, NULL, "The deal round (from 1).", NULL},
    {"_rounds", (getter)Hand_get_rounds, (setter)Hand_set_rounds, NULL, NULL},
    {"deal_rounds", (getter)Hand_get_rounds, NULL, "The hand's deal rounds.", NULL},
    {"_sur_live", (getter)Hand_get_sur_live, (setter)Hand_set_sur_live, NULL, NULL},
    {"_side", (getter)Hand_get_side, NULL, NULL, NULL},
    {"_next", (getter)Hand_get_next, NULL, NULL, NULL},
    {"_deals", (getter)Hand_get_deals, (setter)Hand_set_deals, NULL, NULL},
    {"_deck", (getter)Hand_get_deck, (setter)Hand_set_deck, NULL, NULL},
    {"_history", (getter)Hand_get_history, (setter)Hand_set_history, NULL, NULL},
    {"_depth", (getter)Hand_get_depth, NULL, "Moves that can be undone.", NULL},
    {"_totals", (getter)Hand_get_totals, (setter)Hand_set_totals, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef HandCore_members[] = {
    {"rules", T_OBJECT, offsetof(HandCore, rules), READONLY, "The hand's rules."},
    {"_memory", T_OBJECT, offsetof(HandCore, memory), READONLY, NULL},
    {"players", T_INT, offsetof(HandCore, b) + offsetof(Board, players), READONLY, NULL},
    {"sides", T_INT, offsetof(HandCore, b) + offsetof(Board, sides), READONLY, NULL},
    {"leader", T_INT, offsetof(HandCore, leader), 0, NULL},
    {"dealer", T_INT, offsetof(HandCore, dealer), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef HandCore_methods[] = {
    {"_bind", (PyCFunction)HandCore_bind, METH_O,
     "_bind(setup): a blank hand under a pasur Setup."},
    {"_deal", (PyCFunction)HandCore_deal, METH_VARARGS,
     "_deal(order, opening): deal from a deal order; False if the opening table holds a "
     "card of the mask opening (nothing dealt)."},
    {"_place", (PyCFunction)HandCore_place, METH_VARARGS,
     "_place(held, table, stock, deal_round, captured, surs, last): Hand.from_masks's "
     "checked position put in place."},
    {"_by_card", (PyCFunction)HandCore_by_card, METH_NOARGS,
     "The legal moves by card index, each card's by what they take (the research episode's)."},
    {"_tensor", (PyCFunction)HandCore_tensor, METH_VARARGS,
     "A seat's research observation written into a float32 buffer, or as a list of floats."},
    {"legal_moves", (PyCFunction)HandCore_legal_moves, METH_NOARGS,
     "Every legal move of the seat to move (empty once the hand is over)."},
    {"push", (PyCFunction)(void (*)(void))HandCore_push, METH_FASTCALL | METH_KEYWORDS,
     "push(move, *, seat=None): play a legal move (or its text) for the seat to move."},
    {"pop", (PyCFunction)HandCore_pop, METH_NOARGS, "Undo the last move and return it."},
    {"is_over", (PyCFunction)HandCore_is_over, METH_NOARGS, "Whether the hand is over."},
    {"_stack", (PyCFunction)HandCore_stack, METH_NOARGS,
     "(seat, move, sur) for each move that can be undone."},
    {"copy", (PyCFunction)(void (*)(void))HandCore_copy, METH_VARARGS | METH_KEYWORDS,
     "copy(*, stack=True): an independent copy (without stack: its moves cannot be "
     "undone)."},
    {"_getstate", (PyCFunction)HandCore_getstate, METH_NOARGS, NULL},
    {"_setstate", (PyCFunction)HandCore_setstate, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject HandCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.pasur._core.HandCore",
    .tp_doc = "A hand of Pasur in C: the compiled pasur.Hand's base.",
    .tp_basicsize = sizeof(HandCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = HandCore_new,
    .tp_dealloc = (destructor)HandCore_dealloc,
    .tp_methods = HandCore_methods,
    .tp_members = HandCore_members,
    .tp_getset = HandCore_getset,
};

/* bind_hand(move_of): the function that interns moves (cardtable.pasur.moves.move_of). */
static PyObject *core_bind_hand(PyObject *Py_UNUSED(module), PyObject *function)
{
    Py_XSETREF(move_of_function, Py_NewRef(function));
    Py_RETURN_NONE;
}

/* The card indexes 0 to 51 in the order of their keys, as bytes (stable, as Python's
 * sort: equal keys keep their order). */
static PyObject *sorted_by_keys(const double *keys)
{
    unsigned char order[52];
    for (int k = 0; k < 52; k++) {
        int at = k;
        while (at > 0 && keys[k] < keys[order[at - 1]]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = (unsigned char)k;
    }
    return PyBytes_FromStringAndSize((const char *)order, 52);
}

/* The 52 keys of random.Random's own random(), drawn in one getrandbits call: random()
 * makes each double from two 32-bit outputs of the generator (a >> 5, b >> 6), and
 * getrandbits(64 * 52) returns 104 outputs in order, the first in the lowest bits. */
static int draw_keys_at_once(PyObject *rng, double *keys)
{
    PyObject *bits = PyObject_CallMethod(rng, "getrandbits", "i", 64 * 52);
    if (bits == NULL)
        return -1;
    PyObject *raw = PyObject_CallMethod(bits, "to_bytes", "is", 8 * 52, "little");
    Py_DECREF(bits);
    if (raw == NULL)
        return -1;
    if (!PyBytes_Check(raw) || PyBytes_GET_SIZE(raw) != 8 * 52) {
        Py_DECREF(raw);
        PyErr_SetString(PyExc_ValueError, "getrandbits gave an odd number");
        return -1;
    }
    const unsigned char *data = (const unsigned char *)PyBytes_AS_STRING(raw);
    for (int k = 0; k < 52; k++) {
        uint32_t word[2];
        for (int w = 0; w < 2; w++) {
            const unsigned char *p = data + 8 * k + 4 * w;
            word[w] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16
                      | (uint32_t)p[3] << 24;
        }
        uint32_t a = word[0] >> 5, b = word[1] >> 6;
        keys[k] = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    Py_DECREF(raw);
    return 0;
}

/* shuffled(rng, plain=False): cardtable.pasur.deal.shuffled as bytes: 52 draws of
 * rng.random() and the card indexes in the order of their keys (a stable sort, as
 * Python's).  ``plain``: rng is a random.Random itself (its random() and getrandbits are
 * the generator's own), so the 52 draws are made in one call. */
static PyObject *core_shuffled(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rng;
    int plain = 0;
    if (!PyArg_ParseTuple(args, "O|p:shuffled", &rng, &plain))
        return NULL;
    double keys[52];
    if (plain) {
        if (draw_keys_at_once(rng, keys) < 0)
            return NULL;
        return sorted_by_keys(keys);
    }
    PyObject *random = PyObject_GetAttrString(rng, "random");
    if (random == NULL)
        return NULL;
    for (int k = 0; k < 52; k++) {
        PyObject *drawn = PyObject_CallNoArgs(random);
        if (drawn == NULL) {
            Py_DECREF(random);
            return NULL;
        }
        keys[k] = PyFloat_AsDouble(drawn);
        Py_DECREF(drawn);
        if (keys[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(random);
            return NULL;
        }
    }
    Py_DECREF(random);
    return sorted_by_keys(keys);
}

static PyObject *Board_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"hand", "points", "sur_points", NULL};
    PyObject *hand, *points = Py_None;
    int sur_points = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Oi:Board", names, &hand, &points,
                                     &sur_points))
        return NULL;
    Board *b = (Board *)type->tp_alloc(type, 0);
    if (b == NULL)
        return NULL;
    if (PyObject_TypeCheck(hand, &HandCoreType)) {
        /* a compiled hand: its fields as they are, the deals to come from round + 1 */
        const Board *from = &((HandCore *)hand)->b;
        size_t head = offsetof(Board, setting);
        memcpy((char *)b + head, (const char *)from + head, offsetof(Board, base) - head);
        b->base = from->round;
        for (long number = from->round + 1; number <= from->rounds; number++)
            memcpy(b->deals[number - b->base - 1], from->deals[number - from->base - 1],
                   sizeof b->deals[0]);
    } else if (read_hand(b, hand) < 0) {
        Py_DECREF(b);
        return NULL;
    }
    b->sur_points = sur_points;
    if (points != Py_None) {
        PyObject *seq = PySequence_Fast(points, "points are 52 whole numbers");
        if (seq == NULL || PySequence_Fast_GET_SIZE(seq) != 52) {
            if (seq != NULL)
                PyErr_SetString(PyExc_ValueError, "points are 52 whole numbers");
            Py_XDECREF(seq);
            Py_DECREF(b);
            return NULL;
        }
        for (int k = 0; k < 52; k++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, k));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                Py_DECREF(b);
                return NULL;
            }
            b->points[k] = (int)v;
        }
        Py_DECREF(seq);
    }
    return (PyObject *)b;
}

static void Board_dealloc(Board *b)
{
    free(b->legal.items);
    free(b->scratch.items);
    Py_TYPE(b)->tp_free((PyObject *)b);
}

static PyObject *move_tuple(ct_mask item)
{
    return Py_BuildValue("(iK)", (int)(item >> 56), (unsigned long long)(item & ALL_MASK));
}

static PyObject *Board_legal(Board *b, PyObject *Py_UNUSED(ignored))
{
    if (board_legal(b) < 0)
        return PyErr_NoMemory();
    PyObject *out = PyList_New(b->legal.size);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t k = 0; k < b->legal.size; k++) {
        PyObject *move = move_tuple(b->legal.items[k]);
        if (move == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, move);
    }
    return out;
}

static PyObject *Board_push(Board *b, PyObject *args)
{
    int index;
    unsigned long long taken;
    if (!PyArg_ParseTuple(args, "iK:push", &index, &taken))
        return NULL;
    if (b->depth >= MAX_STACK) {
        PyErr_SetString(PyExc_ValueError, "the board's stack is full");
        return NULL;
    }
    if (board_legal(b) < 0)
        return PyErr_NoMemory();
    ct_mask wanted = (ct_mask)(index & 63) << 56 | ((ct_mask)taken & ALL_MASK);
    for (Py_ssize_t k = 0; k < b->legal.size; k++)
        if (index >= 0 && index < 52 && taken == (taken & ALL_MASK)
            && b->legal.items[k] == wanted) {
            board_play(b, index, (ct_mask)taken);
            Py_RETURN_NONE;
        }
    PyErr_Format(PyExc_ValueError, "not a legal move: card %d taking %llx", index, taken);
    return NULL;
}

static PyObject *Board_pop(Board *b, PyObject *Py_UNUSED(ignored))
{
    if (b->depth == 0) {
        PyErr_SetString(PyExc_IndexError, "no move to undo");
        return NULL;
    }
    Snap *snap = &b->stack[b->depth - 1];
    PyObject *move = move_tuple((ct_mask)snap->index << 56 | snap->taken);
    if (move == NULL)
        return NULL;
    board_undo(b);
    return move;
}

static PyObject *mask_tuple(const ct_mask *masks, int count)
{
    PyObject *out = PyTuple_New(count);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < count; k++) {
        PyObject *item = PyLong_FromUnsignedLongLong(masks[k]);
        if (item == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, k, item);
    }
    return out;
}

static PyObject *Board_state(Board *b, PyObject *Py_UNUSED(ignored))
{
    PyObject *held = mask_tuple(b->held, b->players);
    PyObject *captured = mask_tuple(b->captured, b->sides);
    PyObject *surs = PyTuple_New(b->sides);
    if (held == NULL || captured == NULL || surs == NULL) {
        Py_XDECREF(held);
        Py_XDECREF(captured);
        Py_XDECREF(surs);
        return NULL;
    }
    for (int k = 0; k < b->sides; k++) {
        PyObject *n = PyLong_FromLong(b->surs[k]);
        if (n == NULL) {
            Py_DECREF(held);
            Py_DECREF(captured);
            Py_DECREF(surs);
            return NULL;
        }
        PyTuple_SET_ITEM(surs, k, n);
    }
    PyObject *last = b->last < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(b->last);
    PyObject *to_move = b->to_move < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(b->to_move);
    if (last == NULL || to_move == NULL) {
        Py_DECREF(held);
        Py_DECREF(captured);
        Py_DECREF(surs);
        Py_XDECREF(last);
        Py_XDECREF(to_move);
        return NULL;
    }
    return Py_BuildValue("{sNsKsNsNsNsNslsK}", "held", held, "table",
                         (unsigned long long)b->table, "captured", captured, "surs", surs,
                         "last", last, "to_move", to_move, "round", b->round, "swept",
                         (unsigned long long)b->swept);
}

static PyObject *Board_score(Board *b, PyObject *Py_UNUSED(ignored))
{
    /* (captured masks, surs, over): what the rewards read off a finished playout */
    PyObject *captured = mask_tuple(b->captured, b->sides);
    if (captured == NULL)
        return NULL;
    PyObject *surs = PyList_New(b->sides);
    if (surs == NULL) {
        Py_DECREF(captured);
        return NULL;
    }
    for (int k = 0; k < b->sides; k++) {
        PyObject *n = PyLong_FromLong(b->surs[k]);
        if (n == NULL) {
            Py_DECREF(captured);
            Py_DECREF(surs);
            return NULL;
        }
        PyList_SET_ITEM(surs, k, n);
    }
    return Py_BuildValue("(NNO)", captured, surs, b->to_move < 0 ? Py_True : Py_False);
}

static PyObject *Board_moves(Board *b, PyObject *Py_UNUSED(ignored))
{
    /* (seat, index, taken, sur) for each move played on the board */
    PyObject *out = PyList_New(b->depth);
    if (out == NULL)
        return NULL;
    for (int k = 0; k < b->depth; k++) {
        Snap *snap = &b->stack[k];
        PyObject *entry = Py_BuildValue("(iiKO)", snap->seat, snap->index,
                                        (unsigned long long)snap->taken,
                                        snap->kind == KIND_SUR ? Py_True : Py_False);
        if (entry == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, entry);
    }
    return out;
}

static PyObject *Board_copy(Board *b, PyObject *Py_UNUSED(ignored))
{
    Board *other = (Board *)BoardType.tp_alloc(&BoardType, 0);
    if (other == NULL)
        return NULL;
    /* everything but the scratch lists (and the object's own header) */
    size_t head = offsetof(Board, setting);
    memcpy((char *)other + head, (char *)b + head, offsetof(Board, legal) - head);
    return (PyObject *)other;
}

static PyObject *Board_playout(Board *b, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"policy", "seed", "stop_round", "variety", NULL};
    const char *policy_name;
    unsigned long long seed;
    long stop_round = LONG_MAX;
    double variety = 0.05;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "sK|ld:playout", names, &policy_name,
                                     &seed, &stop_round, &variety))
        return NULL;
    int policy;
    if (strcmp(policy_name, "random") == 0)
        policy = POLICY_RANDOM;
    else if (strcmp(policy_name, "basic") == 0)
        policy = POLICY_BASIC;
    else {
        PyErr_Format(PyExc_ValueError, "the policy is 'random' or 'basic', not '%s'",
                     policy_name);
        return NULL;
    }
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    long steps = 0;
    while (b->to_move >= 0 && b->round <= stop_round && b->depth < MAX_STACK) {
        Py_ssize_t chosen;
        if (board_legal(b) < 0 || choose(b, policy, variety, &rng, &chosen) < 0)
            return PyErr_NoMemory();
        ct_mask move = b->legal.items[chosen];
        board_play(b, (int)(move >> 56), move & ALL_MASK);
        steps++;
    }
    return PyLong_FromLong(steps);
}


/* -- the exact endgame search (cardtable.bots.solver.Solver, step for step) ------------ */

typedef struct {
    ct_mask held[4], table, captured[4];
    int8_t surs[4], last, to_move;
} Key;

typedef struct {
    Key key;
    double low, high;
    ct_mask best;        /* index << 56 | taken, or NO_MOVE */
    int used;
} Entry;

#define NO_MOVE (~0ULL)

typedef struct {
    Board *board;
    PyObject *value;     /* value(captured, surs) -> the searching seat's reward */
    int mine;            /* the seats that maximise, as bits */
    long nodes, max_nodes;
    double deadline;
    int out;             /* 1: out of budget; -1: a Python error */
    Entry *entries;
    size_t size, used;   /* size: a power of two */
} Search;

static void key_of(const Board *b, Key *key)
{
    memset(key, 0, sizeof *key);
    for (int s = 0; s < b->players; s++)
        key->held[s] = b->held[s];
    for (int s = 0; s < b->sides; s++) {
        key->captured[s] = b->captured[s];
        key->surs[s] = (int8_t)b->surs[s];
    }
    key->table = b->table;
    key->last = (int8_t)b->last;
    key->to_move = (int8_t)b->to_move;
}

static uint64_t key_hash(const Key *key)
{
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    uint64_t words[sizeof(Key) / 8];
    memcpy(words, key, sizeof words);
    for (size_t k = 0; k < sizeof words / 8; k++) {
        uint64_t x = h ^ words[k];
        h = ct_splitmix64(&x);
    }
    return h;
}

static Entry *search_find(Search *search, const Key *key, int add)
{
    if (add && 2 * (search->used + 1) > search->size) {
        size_t size = search->size ? 2 * search->size : 1024;
        Entry *entries = calloc(size, sizeof(Entry));
        if (entries == NULL)
            return NULL;
        for (size_t k = 0; k < search->size; k++)
            if (search->entries[k].used) {
                size_t at = key_hash(&search->entries[k].key) & (size - 1);
                while (entries[at].used)
                    at = (at + 1) & (size - 1);
                entries[at] = search->entries[k];
            }
        free(search->entries);
        search->entries = entries;
        search->size = size;
    }
    if (search->size == 0)
        return NULL;
    size_t at = key_hash(key) & (search->size - 1);
    while (search->entries[at].used) {
        if (memcmp(&search->entries[at].key, key, sizeof *key) == 0)
            return &search->entries[at];
        at = (at + 1) & (search->size - 1);
    }
    if (!add)
        return NULL;
    Entry *entry = &search->entries[at];
    entry->used = 1;
    entry->key = *key;
    entry->low = -INFINITY;
    entry->high = INFINITY;
    entry->best = NO_MOVE;
    search->used++;
    return entry;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);   /* time.perf_counter's clock on Linux */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double leaf_value(Search *search)
{
    Board *b = search->board;
    PyObject *captured = mask_tuple(b->captured, b->sides);
    PyObject *surs = captured == NULL ? NULL : PyList_New(b->sides);
    for (int k = 0; surs != NULL && k < b->sides; k++) {
        PyObject *n = PyLong_FromLong(b->surs[k]);
        if (n == NULL) {
            Py_CLEAR(surs);
            break;
        }
        PyList_SET_ITEM(surs, k, n);
    }
    if (surs == NULL) {
        Py_XDECREF(captured);
        search->out = -1;
        return 0.0;
    }
    PyObject *got = PyObject_CallFunctionObjArgs(search->value, captured, surs, NULL);
    Py_DECREF(captured);
    Py_DECREF(surs);
    if (got == NULL) {
        search->out = -1;
        return 0.0;
    }
    double value = PyFloat_AsDouble(got);
    Py_DECREF(got);
    if (value == -1.0 && PyErr_Occurred())
        search->out = -1;
    return value;
}

static double search_node(Search *search, double alpha, double beta)
{
    Board *b = search->board;
    search->nodes++;
    if (search->nodes > search->max_nodes
        || (!(search->nodes & 1023) && now() > search->deadline)) {
        search->out = 1;
        return 0.0;
    }
    if (b->to_move < 0)
        return leaf_value(search);
    Key key;
    key_of(b, &key);
    Entry *found = search_find(search, &key, 0);
    double low = found ? found->low : -INFINITY, high = found ? found->high : INFINITY;
    ct_mask remembered = found ? found->best : NO_MOVE;
    double decided;
    if (ct_ab_window(low, high, &alpha, &beta, &decided))
        return decided;
    double alpha0 = alpha, beta0 = beta;
    if (board_legal(b) < 0) {
        PyErr_NoMemory();
        search->out = -1;
        return 0.0;
    }
    Py_ssize_t n = b->legal.size;
    ct_mask *moves = n ? malloc((size_t)n * sizeof(ct_mask)) : NULL;
    double *scores = n ? malloc((size_t)n * sizeof(double)) : NULL;
    if (moves == NULL || scores == NULL) {
        free(moves);
        free(scores);
        PyErr_NoMemory();
        search->out = -1;
        return 0.0;
    }
    /* the kit's order: the quick value, best first, ties as listed (a stable sort) */
    for (Py_ssize_t k = 0; k < n; k++) {
        ct_mask move = b->legal.items[k];
        double score = static_value(b, (int)(move >> 56), move & ALL_MASK);
        Py_ssize_t at = k;
        while (at > 0 && scores[at - 1] < score) {
            moves[at] = moves[at - 1];
            scores[at] = scores[at - 1];
            at--;
        }
        moves[at] = move;
        scores[at] = score;
    }
    if (remembered != NO_MOVE)
        for (Py_ssize_t k = 0; k < n; k++)
            if (moves[k] == remembered) {
                memmove(moves + 1, moves, (size_t)k * sizeof(ct_mask));
                moves[0] = remembered;
                break;
            }
    int maximise = (search->mine >> b->to_move) & 1;
    double best = maximise ? -INFINITY : INFINITY;
    ct_mask chosen = NO_MOVE;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k == 0)
            chosen = moves[0];   /* (the first move, unless a better one is found) */
        board_play(b, (int)(moves[k] >> 56), moves[k] & ALL_MASK);
        double score = search_node(search, alpha, beta);
        board_undo(b);
        if (search->out) {
            free(moves);
            free(scores);
            return 0.0;
        }
        if (ct_ab_take(maximise, score, &best, &alpha, &beta))
            chosen = moves[k];
        if (alpha >= beta)
            break;
    }
    free(moves);
    free(scores);
    Entry *entry = search_find(search, &key, 1);
    if (entry == NULL) {
        PyErr_NoMemory();
        search->out = -1;
        return 0.0;
    }
    ct_ab_store(best, alpha0, beta0, low, high, &entry->low, &entry->high);
    entry->best = chosen;
    return best;
}

static PyObject *Board_solve(Board *b, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"value", "mine", "max_nodes", "deadline", "low", "high", NULL};
    Search search = {0};
    double low = -1.0, high = 1.0;
    search.deadline = INFINITY;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oil|ddd:solve", names, &search.value,
                                     &search.mine, &search.max_nodes, &search.deadline,
                                     &low, &high))
        return NULL;
    if (b->to_move < 0) {
        PyErr_SetString(PyExc_ValueError, "the hand is over: nothing to solve");
        return NULL;
    }
    search.board = b;
    int depth = b->depth;
    double value = search_node(&search, low, high);
    while (b->depth > depth)   /* (an error stops the search anywhere) */
        board_undo(b);
    PyObject *out = NULL;
    if (search.out < 0) {
        /* a Python error is set */
    } else if (search.out > 0) {
        out = Py_BuildValue("(OOl)", Py_None, Py_None, search.nodes);
    } else {
        Key key;
        key_of(b, &key);
        Entry *entry = search_find(&search, &key, 0);
        if (entry == NULL)
            PyErr_SetString(PyExc_RuntimeError, "the search stored no move for its root");
        else
            out = Py_BuildValue("(dNl)", value, move_tuple(entry->best), search.nodes);
    }
    free(search.entries);
    return out;
}

/* -- ISMCTS (cardtable.bots.ismcts.ISMCTSBot's search, for a Pasur hand) ---------------- */

/* A move in the tree, as ISMCTSBot's _Node: who made it, how often it was tried, how often
 * it could be.  Children are a list through ``sibling`` (indexes into the tree's array). */
typedef struct {
    ct_mask move;                /* index << 56 | taken */
    double total;
    int player, visits, avail, child, sibling;
} TreeNode;

/* One other seat's move this deal round, for the inference (the Pasur kit's _Evidence). */
typedef struct {
    int who;
    int index;
    ct_mask table, taken, since;
} Seen;

/* What a search position's reward depends on: per side the card points, the cards the
 * bonus counts and the surs, and whether the hand is over (the reward is Python's,
 * remembered by this key). */
typedef struct {
    int16_t points[4];
    uint8_t counts[4], surs[4];
    uint8_t over, used;
} RewardKey;

#define REWARDS 4096   /* (a power of 2) */

typedef struct {
    RewardKey key;
    double value[4];
} RewardEntry;

typedef struct {
    ct_mask held[4];
    ct_mask deals[MAX_ROUNDS][4];
} Deal;

typedef struct {
    Board *root, *work;
    int seat;
    uint8_t pool[52];
    int pool_size;
    Seen *seen;
    Py_ssize_t seen_count;
    ct_mask counted;
    PyObject *reward;
    RewardEntry *rewards;
    int reward_count;
    TreeNode *nodes;
    Py_ssize_t size, room;
    Masks walk;                  /* scratch: the legal moves of a tree position */
} Searcher;

static Py_ssize_t tree_add(Searcher *s, ct_mask move, int player)
{
    if (s->size == s->room) {
        Py_ssize_t room = s->room ? 2 * s->room : 1024;
        TreeNode *nodes = realloc(s->nodes, (size_t)room * sizeof(TreeNode));
        if (nodes == NULL)
            return -1;
        s->nodes = nodes;
        s->room = room;
    }
    TreeNode *node = &s->nodes[s->size];
    node->move = move;
    node->total = 0.0;
    node->player = player;
    node->visits = node->avail = 0;
    node->child = node->sibling = -1;
    return s->size++;
}

static Py_ssize_t tree_child(const Searcher *s, Py_ssize_t parent, ct_mask move)
{
    for (Py_ssize_t k = s->nodes[parent].child; k >= 0; k = s->nodes[k].sibling)
        if (s->nodes[k].move == move)
            return k;
    return -1;
}

static Py_ssize_t tree_new_child(Searcher *s, Py_ssize_t parent, ct_mask move, int player)
{
    Py_ssize_t k = tree_add(s, move, player);
    if (k < 0)
        return -1;
    s->nodes[k].sibling = s->nodes[parent].child;
    s->nodes[parent].child = k;
    return k;
}

/* Deal the cards the seat cannot see afresh (Hand.determinize: the other hands and every
 * later deal round, sizes kept, shuffled from card order). */
static void deal_unseen(Searcher *s, Deal *deal, ct_rng *rng)
{
    uint8_t cards[52];
    int n = s->pool_size;
    memcpy(cards, s->pool, (size_t)n);
    for (int i = n - 1; i > 0; i--) {
        int j = (int)ct_below(rng, (uint32_t)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    const Board *root = s->root;
    int next = 0;
    for (int seat = 0; seat < root->players; seat++) {
        deal->held[seat] = root->held[seat];
        if (seat == s->seat)
            continue;
        ct_mask mask = 0;
        for (int k = ct_count(root->held[seat]); k > 0; k--)
            mask |= 1ULL << cards[next++];
        deal->held[seat] = mask;
    }
    for (long round = 0; round < root->rounds - root->base; round++)
        for (int seat = 0; seat < root->players; seat++) {
            ct_mask mask = 0;
            for (int k = ct_count(root->deals[round][seat]); k > 0; k--)
                mask |= 1ULL << cards[next++];
            deal->deals[round][seat] = mask;
        }
}

/* The work board: the root with ``deal``'s hidden cards. */
static void deal_board(Searcher *s, const Deal *deal)
{
    Board *work = s->work, *root = s->root;
    size_t head = offsetof(Board, players);
    memcpy((char *)work + head, (char *)root + head, offsetof(Board, stack) - head);
    memcpy(work->held, deal->held, sizeof(deal->held));
    memcpy(work->deals, deal->deals, sizeof(deal->deals));
    work->depth = 0;
}

/* How likely the moves seen are with the hands of the work board (_Evidence.weight). */
static int seen_weight(Searcher *s, double *weight)
{
    Board *b = s->work;
    double shortfall = 0.0;
    for (Py_ssize_t m = 0; m < s->seen_count; m++) {
        const Seen *seen = &s->seen[m];
        ct_mask table = seen->table;
        double best = gain(b, seen->index, seen->taken, table), made = best;
        for (ct_mask rest = seen->since | b->held[seen->who]; rest; rest &= rest - 1) {
            int index = ct_low(rest);
            b->scratch.size = 0;
            if (add_options(&b->setting, index, table, &b->scratch) < 0)
                return -1;
            for (Py_ssize_t k = 0; k < b->scratch.size; k++) {
                double value = gain(b, index, b->scratch.items[k], table);
                if (value > best)
                    best = value;
            }
        }
        shortfall += best - made;
    }
    *weight = exp(-shortfall / 1.5);
    return 0;
}

#define SAMPLE_TRIES 24

/* A deal for one iteration: uniform, or with the inference by rejection
 * (_Evidence.sample: at most SAMPLE_TRIES deals, the likeliest if none is accepted). */
static int sample_deal(Searcher *s, Deal *deal, ct_rng *rng)
{
    if (s->seen_count == 0) {
        deal_unseen(s, deal, rng);
        return 0;
    }
    Deal best;
    memset(&best, 0, sizeof(best));
    double best_weight = -1.0;
    for (int t = 0; t < SAMPLE_TRIES; t++) {
        double weight;
        deal_unseen(s, deal, rng);
        deal_board(s, deal);
        if (seen_weight(s, &weight) < 0)
            return -1;
        if (ct_unit(rng) < weight)
            return 0;
        if (weight > best_weight) {
            best = *deal;
            best_weight = weight;
        }
    }
    *deal = best;
    return 0;
}

/* The reward of each seat for the work board as it stands: Python's ``reward(captured,
 * surs, over)``, remembered by what it depends on. */
static int board_reward(Searcher *s, double *out)
{
    Board *b = s->work;
    RewardKey key;
    memset(&key, 0, sizeof(key));
    for (int side = 0; side < b->sides; side++) {
        key.points[side] = (int16_t)mask_points(b, b->captured[side]);
        key.counts[side] = (uint8_t)ct_count(b->captured[side] & s->counted);
        key.surs[side] = (uint8_t)(b->surs[side] > 255 ? 255 : b->surs[side]);
    }
    key.over = b->to_move < 0;
    key.used = 1;
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *bytes = (const unsigned char *)&key;
    for (size_t k = 0; k < sizeof(key); k++)
        h = (h ^ bytes[k]) * 1099511628211ULL;
    size_t slot = (size_t)h & (REWARDS - 1);
    while (s->rewards[slot].key.used) {
        if (memcmp(&s->rewards[slot].key, &key, sizeof(key)) == 0) {
            memcpy(out, s->rewards[slot].value, sizeof(double) * 4);
            return 0;
        }
        slot = (slot + 1) & (REWARDS - 1);
    }
    PyObject *captured = mask_tuple(b->captured, b->sides);
    PyObject *surs = PyList_New(b->sides);
    if (captured == NULL || surs == NULL) {
        Py_XDECREF(captured);
        Py_XDECREF(surs);
        return -1;
    }
    for (int k = 0; k < b->sides; k++) {
        PyObject *n = PyLong_FromLong(b->surs[k]);
        if (n == NULL) {
            Py_DECREF(captured);
            Py_DECREF(surs);
            return -1;
        }
        PyList_SET_ITEM(surs, k, n);
    }
    PyObject *got = PyObject_CallFunctionObjArgs(s->reward, captured, surs,
                                                 key.over ? Py_True : Py_False, NULL);
    Py_DECREF(captured);
    Py_DECREF(surs);
    if (got == NULL)
        return -1;
    PyObject *seq = PySequence_Fast(got, "a reward is a number per seat");
    Py_DECREF(got);
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != b->players) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "a reward is a number per seat");
        return -1;
    }
    for (int k = 0; k < 4; k++)
        out[k] = 0.0;
    for (int k = 0; k < b->players; k++) {
        out[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, k));
        if (out[k] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    if (s->reward_count < REWARDS / 2) {   /* (past half full, asked again each time) */
        s->rewards[slot].key = key;
        memcpy(s->rewards[slot].value, out, sizeof(double) * 4);
        s->reward_count++;
    }
    return 0;
}

static int read_seen(PyObject *evidence, Searcher *s)
{
    PyObject *seq = PySequence_Fast(evidence, "the evidence is a list of tuples");
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    s->seen = n ? PyMem_Calloc((size_t)n, sizeof(Seen)) : NULL;
    if (n && s->seen == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int who, index;
        unsigned long long table, taken, since;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, k), "iKiKK;an evidence entry is "
                              "(seat, table, card index, taken, cards played since)",
                              &who, &table, &index, &taken, &since)) {
            Py_DECREF(seq);
            return -1;
        }
        if (who < 0 || who >= s->root->players || index < 0 || index >= 52
            || (table | taken | since) & ~ALL_MASK) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "an evidence entry out of range");
            return -1;
        }
        s->seen[k] = (Seen){who, index, (ct_mask)table, (ct_mask)taken, (ct_mask)since};
    }
    s->seen_count = n;
    Py_DECREF(seq);
    return 0;
}

static void searcher_free(Searcher *s)
{
    if (s->work != NULL) {
        free(s->work->legal.items);
        free(s->work->scratch.items);
        PyMem_Free(s->work);
    }
    PyMem_Free(s->rewards);
    PyMem_Free(s->seen);
    free(s->nodes);
    free(s->walk.items);
    memset(s, 0, sizeof(*s));
}

/* What a search or a sample of ``b`` for ``seat`` needs: the cards the seat cannot see
 * (in card order: a deal depends on nothing the seat has not seen), the work board, the
 * evidence (None: none). */
static int searcher_init(Searcher *s, Board *b, int seat, PyObject *evidence)
{
    memset(s, 0, sizeof(*s));
    s->root = b;
    s->seat = seat;
    s->counted = ALL_MASK;
    ct_mask pool = 0;
    for (int other = 0; other < b->players; other++)
        if (other != seat)
            pool |= b->held[other];
    for (long round = 0; round < b->rounds - b->base; round++)
        for (int other = 0; other < b->players; other++)
            pool |= b->deals[round][other];
    for (; pool; pool &= pool - 1)
        s->pool[s->pool_size++] = (uint8_t)ct_low(pool);
    s->work = PyMem_Calloc(1, sizeof(Board));
    s->rewards = PyMem_Calloc(REWARDS, sizeof(RewardEntry));
    if (s->work == NULL || s->rewards == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(&s->work->setting, &b->setting, sizeof(Setting));
    if (evidence != NULL && evidence != Py_None && read_seen(evidence, s) < 0)
        return -1;
    return 0;
}

/* One iteration from the work board (dealt), below ``node`` at ``path[0..length)``: the
 * walk down the tree by UCB, one new move, the playout, and the rewards credited. */
static int iterate(Searcher *s, Py_ssize_t node, Py_ssize_t *path, int length, int depth,
                   double c, int policy, double variety, long stop_round, ct_rng *luck)
{
    Board *b = s->work;
    while (length < depth) {
        int mover = b->to_move;
        if (mover < 0)
            break;
        if (board_legal(b) < 0)
            return -1;
        s->walk.size = 0;
        for (Py_ssize_t k = 0; k < b->legal.size; k++)
            if (masks_add(&s->walk, b->legal.items[k]) < 0)
                return -1;
        Py_ssize_t n = s->walk.size, fresh = 0;
        /* the moves not yet in the tree are moved to the front of walk's room past n */
        ct_mask first_fresh[256];
        ct_mask *freshes = n <= 256 ? first_fresh : malloc((size_t)n * sizeof(ct_mask));
        if (freshes == NULL)
            return -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t child = tree_child(s, node, s->walk.items[k]);
            if (child < 0)
                freshes[fresh++] = s->walk.items[k];
            else
                s->nodes[child].avail += 1;
        }
        if (fresh) {
            ct_mask move = fresh > 1 ? freshes[ct_below(luck, (uint32_t)fresh)] : freshes[0];
            if (freshes != first_fresh)
                free(freshes);
            Py_ssize_t child = tree_new_child(s, node, move, mover);
            if (child < 0)
                return -1;
            s->nodes[child].avail = 1;
            board_play(b, (int)(move >> 56), move & ALL_MASK);
            path[length++] = child;
            break;
        }
        if (freshes != first_fresh)
            free(freshes);
        Py_ssize_t best = -1;
        double best_score = -INFINITY;
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t child = tree_child(s, node, s->walk.items[k]);
            const TreeNode *t = &s->nodes[child];
            double score = t->total / t->visits + c * sqrt(log((double)t->avail) / t->visits);
            if (best < 0 || score > best_score) {
                best = child;
                best_score = score;
            }
        }
        ct_mask move = s->nodes[best].move;
        board_play(b, (int)(move >> 56), move & ALL_MASK);
        path[length++] = best;
        node = best;
    }
    while (b->to_move >= 0 && b->round <= stop_round && b->depth < MAX_STACK) {
        Py_ssize_t chosen;
        if (board_legal(b) < 0 || choose(b, policy, variety, luck, &chosen) < 0)
            return -1;
        ct_mask move = b->legal.items[chosen];
        board_play(b, (int)(move >> 56), move & ALL_MASK);
    }
    double reward[4];
    if (board_reward(s, reward) < 0)
        return -1;
    for (int k = 0; k < length; k++) {
        TreeNode *t = &s->nodes[path[k]];
        t->visits += 1;
        t->total += reward[t->player];
    }
    return 0;
}

static PyObject *Board_search(Board *b, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"seat", "iterations", "seed", "reward", "deadline", "c",
                            "policy", "depth", "paired", "stop_round", "counted",
                            "evidence", "variety", NULL};
    int seat, depth = 0, paired = 0;
    long long limit;
    unsigned long long seed, counted = ALL_MASK;
    PyObject *reward, *evidence = NULL;
    double deadline = INFINITY, c = 0.7, variety = 0.05;
    const char *policy_name = "basic";
    long stop_round = LONG_MAX;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iLKO|ddsiplKOd:search", names, &seat,
                                     &limit, &seed, &reward, &deadline, &c, &policy_name,
                                     &depth, &paired, &stop_round, &counted, &evidence,
                                     &variety))
        return NULL;
    int policy;
    if (strcmp(policy_name, "random") == 0)
        policy = POLICY_RANDOM;
    else if (strcmp(policy_name, "basic") == 0)
        policy = POLICY_BASIC;
    else {
        PyErr_Format(PyExc_ValueError, "the policy is 'random' or 'basic', not '%s'",
                     policy_name);
        return NULL;
    }
    if (seat < 0 || seat >= b->players || b->to_move != seat || b->depth != 0) {
        PyErr_SetString(PyExc_ValueError, "the search starts from a fresh board whose seat "
                        "is to move");
        return NULL;
    }
    if (limit < 1 || depth < 0 || !(c >= 0) || !PyCallable_Check(reward)
        || !(variety >= 0 && variety <= 1)) {
        PyErr_SetString(PyExc_ValueError, "iterations of 1 or more, a depth of 0 or more, "
                        "c of 0 or more, a callable reward and a variety from 0 to 1");
        return NULL;
    }
    Searcher s;
    Masks roots = {0};
    PyObject *out = NULL;
    if (searcher_init(&s, b, seat, evidence) < 0)
        goto done;
    s.counted = (ct_mask)counted;
    s.reward = reward;
    if (tree_add(&s, NO_MOVE, -1) < 0 || board_legal(b) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < b->legal.size; k++)
        if (masks_add(&roots, b->legal.items[k]) < 0) {
            PyErr_NoMemory();
            goto done;
        }
    ct_rng rng, paired_luck;
    ct_rng_seed(&rng, seed);
    int tree_depth = depth ? depth : INT_MAX;
    Py_ssize_t path[MAX_STACK + 1];
    Deal deal;
    Py_ssize_t group = 0;
    uint64_t draw = 0;
    long long done_count = 0;
    while (done_count < limit && (done_count == 0 || now() < deadline)) {
        int length = 0;
        Py_ssize_t node = 0;
        ct_rng *luck = &rng;
        if (paired) {
            /* one deal and one stream of random numbers for every move of the root */
            if (group == 0) {
                if (sample_deal(&s, &deal, &rng) < 0)
                    goto failed;
                group = roots.size;
                draw = ct_next(&rng);
            }
            ct_mask first = roots.items[--group];
            deal_board(&s, &deal);
            ct_rng_seed(&paired_luck, draw);
            luck = &paired_luck;
            node = tree_child(&s, 0, first);
            if (node < 0 && (node = tree_new_child(&s, 0, first, seat)) < 0)
                goto failed;
            board_play(s.work, (int)(first >> 56), first & ALL_MASK);
            path[length++] = node;
        } else {
            if (sample_deal(&s, &deal, &rng) < 0)
                goto failed;
            deal_board(&s, &deal);
        }
        if (iterate(&s, node, path, length, tree_depth, c, policy, variety, stop_round, luck) < 0)
            goto failed;
        done_count++;
        if (!(done_count & 255) && PyErr_CheckSignals() < 0)   /* (Ctrl-C stops a long search) */
            goto done;
    }
    PyObject *moves = PyList_New(0);
    if (moves == NULL)
        goto done;
    for (Py_ssize_t k = s.nodes[0].child; k >= 0; k = s.nodes[k].sibling) {
        const TreeNode *t = &s.nodes[k];
        PyObject *entry = Py_BuildValue("(iKid)", (int)(t->move >> 56),
                                        (unsigned long long)(t->move & ALL_MASK), t->visits,
                                        t->total);
        if (entry == NULL || PyList_Append(moves, entry) < 0) {
            Py_XDECREF(entry);
            Py_DECREF(moves);
            goto done;
        }
        Py_DECREF(entry);
    }
    out = Py_BuildValue("(LnN)", done_count, s.size - 1, moves);
    goto done;
failed:
    if (!PyErr_Occurred())
        PyErr_NoMemory();
done:
    searcher_free(&s);
    free(roots.items);
    return out;
}

static PyObject *Board_sample(Board *b, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"seat", "seed", "evidence", NULL};
    int seat;
    unsigned long long seed;
    PyObject *evidence = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iK|O:sample", names, &seat, &seed,
                                     &evidence))
        return NULL;
    if (seat < 0 || seat >= b->players || b->depth != 0) {
        PyErr_SetString(PyExc_ValueError, "a sample is dealt for a seat of a fresh board");
        return NULL;
    }
    Searcher s;
    PyObject *out = NULL;
    if (searcher_init(&s, b, seat, evidence) < 0)
        goto done;
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    Deal deal;
    double weight = 1.0;
    if (sample_deal(&s, &deal, &rng) < 0)
        goto done;
    deal_board(&s, &deal);
    if (s.seen_count && seen_weight(&s, &weight) < 0)
        goto done;
    PyObject *held = mask_tuple(deal.held, b->players);
    PyObject *deals = PyList_New(0);
    if (held == NULL || deals == NULL) {
        Py_XDECREF(held);
        Py_XDECREF(deals);
        goto done;
    }
    for (long round = 0; round < b->rounds - b->base; round++) {
        PyObject *row = mask_tuple(deal.deals[round], b->players);
        if (row == NULL || PyList_Append(deals, row) < 0) {
            Py_XDECREF(row);
            Py_DECREF(held);
            Py_DECREF(deals);
            goto done;
        }
        Py_DECREF(row);
    }
    out = Py_BuildValue("(NNd)", held, deals, weight);
done:
    if (out == NULL && !PyErr_Occurred())
        PyErr_NoMemory();
    searcher_free(&s);
    return out;
}

/* A board dealt from a sample: this (fresh) board with the cards ``seat`` cannot see dealt
 * afresh, as ``sample`` deals them (uniform, or with the inference's ``evidence`` by
 * rejection), returned as a new board to play on.  The analysis's judge deals thousands of
 * these a move: one call instead of a determinized Python hand read into a board. */
static PyObject *Board_dealt(Board *b, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"seat", "seed", "evidence", NULL};
    int seat;
    unsigned long long seed;
    PyObject *evidence = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iK|O:dealt", names, &seat, &seed,
                                     &evidence))
        return NULL;
    if (seat < 0 || seat >= b->players || b->depth != 0) {
        PyErr_SetString(PyExc_ValueError, "a board is dealt for a seat of a fresh board");
        return NULL;
    }
    Board *out = (Board *)BoardType.tp_alloc(&BoardType, 0);
    if (out == NULL)
        return NULL;
    Searcher s;
    memset(&s, 0, sizeof(s));
    s.root = b;
    s.seat = seat;
    s.work = out;   /* the inference weighs each deal on the board it returns */
    memcpy(&out->setting, &b->setting, sizeof(Setting));
    ct_mask pool = 0;
    for (int other = 0; other < b->players; other++)
        if (other != seat)
            pool |= b->held[other];
    for (long round = 0; round < b->rounds - b->base; round++)
        for (int other = 0; other < b->players; other++)
            pool |= b->deals[round][other];
    for (; pool; pool &= pool - 1)
        s.pool[s.pool_size++] = (uint8_t)ct_low(pool);
    int status = 0;
    if (evidence != NULL && evidence != Py_None)
        status = read_seen(evidence, &s);
    Deal deal;
    if (status == 0) {
        ct_rng rng;
        ct_rng_seed(&rng, seed);
        status = sample_deal(&s, &deal, &rng);
    }
    PyMem_Free(s.seen);
    if (status < 0) {
        Py_DECREF(out);
        return NULL;
    }
    deal_board(&s, &deal);
    return (PyObject *)out;
}

static PyObject *Board_get_to_move(Board *b, void *Py_UNUSED(closure))
{
    if (b->to_move < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(b->to_move);
}

static PyObject *Board_get_depth(Board *b, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(b->depth);
}

static PyMethodDef Board_methods[] = {
    {"legal", (PyCFunction)Board_legal, METH_NOARGS,
     "The legal moves as (card index, mask taken), in Hand.legal_moves's order."},
    {"push", (PyCFunction)Board_push, METH_VARARGS,
     "push(index, taken): play a legal move (ValueError if it is not one)."},
    {"pop", (PyCFunction)Board_pop, METH_NOARGS, "Undo the last move; return it."},
    {"state", (PyCFunction)Board_state, METH_NOARGS, "The board's fields, as a dict."},
    {"score", (PyCFunction)Board_score, METH_NOARGS,
     "(captured masks, surs, over): what a playout's reward reads."},
    {"moves", (PyCFunction)Board_moves, METH_NOARGS,
     "(seat, index, taken, sur) for each move played on the board."},
    {"copy", (PyCFunction)Board_copy, METH_NOARGS, "An independent copy."},
    {"solve", (PyCFunction)(void (*)(void))Board_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(value, mine, max_nodes, deadline=inf, low=-1, high=1): the exact search of "
     "cardtable.bots.solver.Solver (value(captured, surs) of a finished hand for the "
     "searching seat; mine: the maximising seats as bits): (value, (index, taken), nodes), "
     "or (None, None, nodes) past max_nodes positions or the perf_counter deadline."},
    {"search", (PyCFunction)(void (*)(void))Board_search, METH_VARARGS | METH_KEYWORDS,
     "search(seat, iterations, seed, reward, deadline=inf, c=0.7, policy='basic', depth=0, "
     "paired=False, stop_round=None, counted=all, evidence=None): ISMCTS from this board "
     "for seat (cardtable.bots.ismcts's search; the hidden cards dealt afresh each "
     "iteration, by the inference's rejection where evidence lists the other seats' moves "
     "this round as (seat, table, index, taken, played since)); reward(captured, surs, "
     "over) gives each seat's reward.  Returns (iterations, nodes, [(index, taken, visits, "
     "total) for each root move tried])."},
    {"sample", (PyCFunction)(void (*)(void))Board_sample, METH_VARARGS | METH_KEYWORDS,
     "sample(seat, seed, evidence=None): one deal of the search's sampler: (each seat's "
     "cards, each later deal round's cards per seat, the inference's weight of the deal)."},
    {"dealt", (PyCFunction)(void (*)(void))Board_dealt, METH_VARARGS | METH_KEYWORDS,
     "dealt(seat, seed, evidence=None): a new board, this one with the cards the seat "
     "cannot see dealt afresh (as sample deals them)."},
    {"playout", (PyCFunction)(void (*)(void))Board_playout, METH_VARARGS | METH_KEYWORDS,
     "playout(policy, seed, stop_round=None, variety=0.05): play 'random' or 'basic' "
     "moves (basic: a uniform one with the chance variety) until the hand ends or the "
     "deal round passes stop_round; return how many moves it played."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Board_getset[] = {
    {"to_move", (getter)Board_get_to_move, NULL, "The seat to play (None: over).", NULL},
    {"depth", (getter)Board_get_depth, NULL, "Moves played on the board.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject BoardType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.pasur._core.Board",
    .tp_basicsize = sizeof(Board),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Pasur hand's play on masks, copied from a pasur.Hand.",
    .tp_new = Board_new,
    .tp_dealloc = (destructor)Board_dealloc,
    .tp_methods = Board_methods,
    .tp_getset = Board_getset,
};

static PyObject *core_options(PyObject *Py_UNUSED(module), PyObject *args)
{
    /* options(hand, index, table): card index's moves on table under hand's rules */
    PyObject *hand;
    int index;
    unsigned long long table;
    if (!PyArg_ParseTuple(args, "OiK:options", &hand, &index, &table))
        return NULL;
    if (index < 0 || index >= 52 || (table & ~ALL_MASK) || (table >> index & 1)) {
        PyErr_SetString(PyExc_ValueError, "a card index 0 to 51 not on a 52-bit table");
        return NULL;
    }
    Setting setting;
    if (read_setting(hand, &setting) < 0)
        return NULL;
    Masks out = {0};
    if (add_options(&setting, index, (ct_mask)table, &out) < 0) {
        free(out.items);
        return PyErr_NoMemory();
    }
    PyObject *list = PyList_New(out.size);
    for (Py_ssize_t k = 0; list != NULL && k < out.size; k++) {
        PyObject *item = PyLong_FromUnsignedLongLong(out.items[k]);
        if (item == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, k, item);
    }
    free(out.items);
    return list;
}

/* shuffle(rng, list): random.Random.shuffle, draw for draw (the same getrandbits calls on
 * the same generator), without the Python frames of each draw.  Only for a generator
 * whose shuffle is random.Random's own: the caller checks. */
static PyObject *core_shuffle(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *rng, *list;
    if (!PyArg_ParseTuple(args, "OO!:shuffle", &rng, &PyList_Type, &list))
        return NULL;
    PyObject *getrandbits = PyObject_GetAttrString(rng, "getrandbits");
    if (getrandbits == NULL)
        return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i >= 1; i--) {
        unsigned long long n = (unsigned long long)i + 1, r;
        int k = 64 - __builtin_clzll(n);
        PyObject *bits = PyLong_FromLong(k);
        if (bits == NULL) {
            Py_DECREF(getrandbits);
            return NULL;
        }
        do {
            PyObject *drawn = PyObject_CallOneArg(getrandbits, bits);
            if (drawn == NULL) {
                Py_DECREF(bits);
                Py_DECREF(getrandbits);
                return NULL;
            }
            r = PyLong_AsUnsignedLongLong(drawn);
            Py_DECREF(drawn);
            if (r == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(bits);
                Py_DECREF(getrandbits);
                return NULL;
            }
        } while (r >= n);
        Py_DECREF(bits);
        if (PyList_GET_SIZE(list) <= i) {   /* (getrandbits may be anything: stay in range) */
            Py_DECREF(getrandbits);
            PyErr_SetString(PyExc_RuntimeError, "the list changed size during the shuffle");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(list, i), *b = PyList_GET_ITEM(list, (Py_ssize_t)r);
        PyList_SET_ITEM(list, i, b);
        PyList_SET_ITEM(list, (Py_ssize_t)r, a);
    }
    Py_DECREF(getrandbits);
    Py_RETURN_NONE;
}

/* -- the research episode in C (cardtable/adapters/pasur.py) -------------------------------
 *
 * ``EpisodeCore`` is the base of the compiled ``PasurEpisode``: one hand dealt card by card
 * at chance nodes and decided in small ints, the whole of it in C.  It keeps what the
 * Python episode keeps (the cards dealt this round, the stock, the opening-table rule's
 * doings, each seat's deals, the chance nodes, the capture being chosen, the plays) and
 * builds each deal round's compiled hand itself, as Hand.from_masks does.  Its getters
 * give those fields under the Python episode's names, so the Python code reads them for
 * its strings, views and resampling; the Python episode (cardtable/adapters/pasur.py on
 * the pure engine) is the reference, and tests/adapters/test_core_episode.py holds the
 * two to each other action for action. */

enum { PH_DEAL = 0, PH_PLAY = 1, PH_OVER = 2 };
enum { JR_REPLACE = 0, JR_REPLACE_ONE = 1, JR_REDEAL = 2, JR_REDEAL_TABLE = 3, JR_STAY = 4 };
#define EP_TAKE 52
#define EP_STOP 104
#define EP_ACTIONS 105
#define EP_PLAYS 48

typedef struct {
    Py_ssize_t at;
    int seat, round, attempt;
} ChanceEntry;

typedef struct {
    PyObject_HEAD
    PyObject *history;          /* the episode's actions (a list of ints) */
    HandCore *hand;             /* this deal round's hand (NULL before the first) */
    HandCore *blank;            /* a blank hand under the episode's rules (each round's start) */
    int players, leader, rounds, four, order[4];
    int same, any_face, jack_rule;
    int phase, round;
    int dealt[20], ndealt;      /* this deal round's cards so far, in deal order */
    ct_mask pool, exclude, returned, opening;
    int slot, replaced, redeals;
    ct_mask *tables;            /* opening tables dealt again */
    Py_ssize_t ntables, room_tables;
    ct_mask deals[4][MAX_ROUNDS];
    ct_mask held[4];
    ChanceEntry *chance;
    Py_ssize_t nchance, room_chance;
    int pending;
    ct_mask picked;
    int nplays, play_seat[EP_PLAYS], play_index[EP_PLAYS];
    ct_mask play_taken[EP_PLAYS];
    long long obs_at[O_STARTS];  /* the observation's layout (_layout): its pieces' starts */
    Py_ssize_t obs_size;         /* and its size (0: not given) */
} EpisodeCore;

static PyTypeObject EpisodeCoreType;
static PyObject *CARD_OBJECTS;   /* the 52 Card objects by index (bind_episode) */
static PyObject *NO_ARGS;

static void ep_reset(EpisodeCore *e)
{
    e->phase = PH_DEAL;
    e->round = 1;
    e->ndealt = 0;
    e->pool = ALL_MASK;
    e->exclude = e->returned = e->opening = 0;
    e->slot = -1;
    e->replaced = e->redeals = 0;
    e->ntables = e->nchance = 0;
    memset(e->deals, 0, sizeof e->deals);
    memset(e->held, 0, sizeof e->held);
    Py_CLEAR(e->hand);
    e->pending = -1;
    e->picked = 0;
    e->nplays = 0;
}

static PyObject *EpisodeCore_new(PyTypeObject *type, PyObject *Py_UNUSED(args),
                                 PyObject *Py_UNUSED(kwargs))
{
    EpisodeCore *e = (EpisodeCore *)type->tp_alloc(type, 0);
    if (e == NULL)
        return NULL;
    e->history = PyList_New(0);
    if (e->history == NULL) {
        Py_DECREF(e);
        return NULL;
    }
    ep_reset(e);
    return (PyObject *)e;
}

static void EpisodeCore_dealloc(EpisodeCore *e)
{
    Py_CLEAR(e->history);
    Py_CLEAR(e->hand);
    Py_CLEAR(e->blank);
    free(e->tables);
    free(e->chance);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

/* _setup(blank, leader, same, any_face, jack_rule): a fresh episode under the rules of
 * ``blank`` (a blank compiled hand, Hand._blank), led by ``leader``, with the opening-table
 * rule's settings (opening_same_face_redeal, opening_any_face_redeal, and opening_jacks as
 * 0 replace, 1 replace_one, 2 redeal, 3 redeal_table, 4 stay). */
static PyObject *EpisodeCore_setup(EpisodeCore *e, PyObject *args)
{
    PyObject *blank;
    int leader, same, any_face, jack_rule;
    if (!PyArg_ParseTuple(args, "O!iipi:_setup", &HandCoreType, &blank, &leader, &same,
                          &any_face, &jack_rule))
        return NULL;
    HandCore *h = (HandCore *)blank;
    int players = h->b.players;
    if (players < 2 || players > 4 || leader < 0 || leader >= players || jack_rule < 0
        || jack_rule > JR_STAY || h->b.depth != 0) {
        PyErr_SetString(PyExc_ValueError, "a blank hand of 2 to 4 players, a leader of them "
                        "and an opening rule");
        return NULL;
    }
    Py_XSETREF(e->blank, (HandCore *)Py_NewRef(blank));
    e->players = players;
    e->leader = leader;
    e->four = 4 * players;
    e->rounds = 48 / e->four;
    for (int k = 0; k < players; k++)
        e->order[k] = (leader + k) % players;
    e->same = same;
    e->any_face = any_face;
    e->jack_rule = jack_rule;
    ep_reset(e);
    Py_RETURN_NONE;
}

static int ep_grow(void **items, Py_ssize_t *room, Py_ssize_t need, size_t size)
{
    if (need <= *room)
        return 0;
    Py_ssize_t more = *room ? 2 * *room : 64;
    while (more < need)
        more *= 2;
    void *grown = realloc(*items, (size_t)more * size);
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *items = grown;
    *room = more;
    return 0;
}

/* The deal round is complete: its hand, placed as Hand.from_masks places it. */
static int ep_start_round(EpisodeCore *e)
{
    ct_mask held[4] = {0};
    for (int k = 0; k < e->four; k++)
        held[e->order[k / 4]] |= 1ULL << e->dealt[k];
    HandCore *h = (HandCore *)HandCore_copy(e->blank, NO_ARGS, NULL);
    if (h == NULL)
        return -1;
    if (e->round == 1) {
        ct_mask table = 0;
        for (int k = e->four; k < e->ndealt; k++)
            table |= 1ULL << e->dealt[k];
        hand_place(h, held, table, e->pool, 1, NULL, NULL, -1);
    } else {
        const Board *prev = &e->hand->b;
        hand_place(h, held, prev->table, e->pool, e->round, prev->captured, prev->surs,
                   prev->last);
    }
    Py_XSETREF(e->hand, h);
    memcpy(e->held, held, sizeof held);
    e->ndealt = 0;
    e->phase = PH_PLAY;
    return 0;
}

/* The opening-table rule (pasur.deal.opening_step) on the 4 table cards just dealt. */
static int ep_check_opening(EpisodeCore *e)
{
    const int *table = e->dealt + e->four;
    int jacks = 0, queens = 0, kings = 0, first_jack = -1;
    for (int k = 0; k < 4; k++) {
        int rank = table[k] / 4 + 1;
        if (rank == 11 && first_jack < 0)
            first_jack = k;
        jacks += rank == 11;
        queens += rank == 12;
        kings += rank == 13;
    }
    if ((e->same && (queens >= e->same || kings >= e->same))
        || (e->any_face && jacks + queens + kings)
        || (jacks && e->jack_rule == JR_REDEAL)
        || (jacks && e->jack_rule == JR_REPLACE_ONE && (jacks > 1 || e->replaced))) {
        e->redeals += 1;
        e->pool = ALL_MASK;
        e->ndealt = 0;
        e->replaced = 0;
        e->returned = 0;
        e->ntables = 0;
        for (int s = 0; s < e->players; s++)
            e->deals[s][0] = 0;
        return 0;
    }
    ct_mask mask = 0;
    for (int k = 0; k < 4; k++)
        mask |= 1ULL << table[k];
    if (!jacks || e->jack_rule == JR_STAY) {
        e->opening = mask;
        return ep_start_round(e);
    }
    if (e->jack_rule == JR_REDEAL_TABLE) {
        if (ep_grow((void **)&e->tables, &e->room_tables, e->ntables + 1, sizeof(ct_mask)) < 0)
            return -1;
        e->tables[e->ntables++] = mask;
        e->pool |= mask;
        e->returned |= mask;
        e->ndealt = e->four;
        return 0;
    }
    ct_mask jack = 1ULL << table[first_jack];
    e->pool |= jack;
    e->exclude = jack;
    e->returned |= jack;
    e->slot = first_jack;
    return 0;
}

/* A chance node deals card ``index``: 0 done, 1 refused (nothing changed), -1 an error. */
static int ep_deal(EpisodeCore *e, long long index)
{
    if (index < 0 || index >= 52 || !((e->pool & ~e->exclude) >> index & 1))
        return 1;
    if (ep_grow((void **)&e->chance, &e->room_chance, e->nchance + 1, sizeof(ChanceEntry)) < 0)
        return -1;
    ct_mask bit = 1ULL << index;
    e->pool ^= bit;
    int seat = -1;
    if (e->slot >= 0) {
        e->dealt[e->four + e->slot] = (int)index;
        e->slot = -1;
        e->exclude = 0;
        e->replaced = 1;
    } else {
        int k = e->ndealt++;
        e->dealt[k] = (int)index;
        if (k < e->four) {
            seat = e->order[k / 4];
            e->deals[seat][e->round - 1] |= bit;
        }
    }
    ChanceEntry *entry = &e->chance[e->nchance++];
    entry->at = PyList_GET_SIZE(e->history);
    entry->seat = seat;
    entry->round = e->round;
    entry->attempt = e->redeals;
    if (e->round == 1) {
        if (e->ndealt == e->four + 4 && e->slot < 0)
            return ep_check_opening(e);
    } else if (e->ndealt == e->four) {
        return ep_start_round(e);
    }
    return 0;
}

/* The hand's legal moves listed in b.legal; -1 (MemoryError) when they cannot be. */
static int ep_list(EpisodeCore *e)
{
    if (board_legal(&e->hand->b) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* What one card can take, ascending (the episode's moves of that card).  They live on the
 * stack while they are few; a card that has more (the multicapture rules give one card more
 * than 64 captures of a full table) gets room on the heap for the whole legal list. */
typedef struct {
    ct_mask *items;
    int size;
    ct_mask few[64];
} CardMoves;

/* Fill ``out`` with card ``index``'s moves: 0, or -1 (MemoryError set).  Close it after. */
static int ep_moves_of(const EpisodeCore *e, int index, CardMoves *out)
{
    const Masks *legal = &e->hand->b.legal;
    out->items = out->few;
    out->size = 0;
    if (legal->size > 64) {
        out->items = PyMem_Malloc((size_t)legal->size * sizeof(ct_mask));
        if (out->items == NULL) {
            out->items = out->few;
            PyErr_NoMemory();
            return -1;
        }
    }
    ct_mask *moves = out->items;
    int m = 0;
    for (Py_ssize_t k = 0; k < legal->size; k++) {
        ct_mask item = legal->items[k];
        if ((int)(item >> 56) != index)
            continue;
        ct_mask x = item & ALL_MASK;
        int j = m++;
        while (j > 0 && moves[j - 1] > x) {
            moves[j] = moves[j - 1];
            j--;
        }
        moves[j] = x;
    }
    out->size = m;
    return 0;
}

static void ep_moves_close(CardMoves *moves)
{
    if (moves->items != moves->few)
        PyMem_Free(moves->items);
    moves->items = moves->few;
}

/* Whether a capture starts with the cards named so far (named lowest first). */
static inline int ep_consistent(ct_mask taken, ct_mask picked)
{
    if (!picked)
        return 1;
    ct_mask below = (1ULL << (64 - __builtin_clzll(picked))) - 1;
    return (taken & below) == picked;
}

static int ep_push(EpisodeCore *e, int index, ct_mask taken)
{
    HandCore *h = e->hand;
    Board *b = &h->b;
    int seat = b->to_move;
    long before = b->round;
    if (b->depth >= MAX_STACK || e->nplays >= EP_PLAYS) {
        PyErr_SetString(PyExc_RuntimeError, "the hand's undo stack is full");
        return -1;
    }
    PyObject *move = interned_move(index, taken);
    if (move == NULL)
        return -1;
    h->moves[b->depth] = move;
    board_play(b, index, taken);
    hand_forget_legal(h);
    e->held[seat] &= ~(1ULL << index);
    e->play_seat[e->nplays] = seat;
    e->play_index[e->nplays] = index;
    e->play_taken[e->nplays++] = taken;
    e->pending = -1;
    e->picked = 0;
    if (b->to_move < 0) {
        e->phase = PH_OVER;
    } else if (b->round != before) {
        e->phase = PH_DEAL;
        e->round += 1;
    }
    return 0;
}

/* A seat's decision, once its card's moves are listed: 0 done, 1 refused, -1 an error. */
static int ep_decide_among(EpisodeCore *e, long long action, const CardMoves *card)
{
    const ct_mask *moves = card->items;
    int m = card->size;
    if (e->pending < 0) {
        if (m == 0)
            return 1;
        if (m == 1)
            return ep_push(e, (int)action, moves[0]);
        e->pending = (int)action;
        e->picked = 0;
        return 0;
    }
    ct_mask picked = e->picked;
    if (action == EP_STOP) {
        for (int k = 0; k < m; k++)
            if (moves[k] == picked)
                return ep_push(e, e->pending, picked);
        return 1;
    }
    if (action < EP_TAKE || action >= EP_STOP)
        return 1;
    ct_mask bit = 1ULL << (action - EP_TAKE), next = 0;
    for (int k = 0; k < m; k++) {
        ct_mask rest = moves[k] & ~picked;
        if (rest && ep_consistent(moves[k], picked))
            next |= rest & -rest;
    }
    if (!(next & bit))
        return 1;
    picked |= bit;
    int left = 0;
    ct_mask only = 0;
    for (int k = 0; k < m; k++)
        if (ep_consistent(moves[k], picked)) {
            left += 1;
            only = moves[k];
        }
    if (left == 1)
        return ep_push(e, e->pending, only);
    e->picked = picked;
    return 0;
}

/* A seat's decision: 0 done, 1 refused (nothing changed), -1 an error. */
static int ep_decide(EpisodeCore *e, long long action)
{
    if (ep_list(e) < 0)
        return -1;
    if (e->pending < 0 && (action < 0 || action >= 52))
        return 1;
    CardMoves card;
    if (ep_moves_of(e, e->pending < 0 ? (int)action : e->pending, &card) < 0)
        return -1;
    int done = ep_decide_among(e, action, &card);
    ep_moves_close(&card);
    return done;
}

/* One action (a card dealt or a decision), put in the history: 0, 1 refused, -1 error. */
static int ep_step(EpisodeCore *e, long long action)
{
    int done = e->phase == PH_DEAL ? ep_deal(e, action)
             : e->phase == PH_PLAY ? ep_decide(e, action) : 1;
    if (done != 0)
        return done;
    PyObject *number = PyLong_FromLongLong(action);
    if (number == NULL || PyList_Append(e->history, number) < 0) {
        Py_XDECREF(number);
        return -1;
    }
    Py_DECREF(number);
    return 0;
}

/* apply(action): PasurEpisode.apply.  An action refused goes to the Python episode's
 * ``_refuse``, which raises the reference's IllegalMove saying why. */
static PyObject *EpisodeCore_apply(EpisodeCore *e, PyObject *arg)
{
    PyObject *number = PyLong_CheckExact(arg) ? Py_NewRef(arg) : PyNumber_Long(arg);
    if (number == NULL)
        return NULL;
    int overflow;
    long long action = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (action == -1 && PyErr_Occurred()) {
        Py_DECREF(number);
        return NULL;
    }
    int done = 1;
    if (!overflow && e->blank != NULL) {
        done = ep_step(e, action);
        if (done < 0) {
            Py_DECREF(number);
            return NULL;
        }
    }
    if (done == 0) {
        Py_DECREF(number);
        Py_RETURN_NONE;
    }
    PyObject *refused = PyObject_CallMethod((PyObject *)e, "_refuse", "O", number);
    Py_DECREF(number);
    if (refused != NULL) {
        Py_DECREF(refused);
        PyErr_SetString(PyExc_RuntimeError, "the core refused an action the reference took");
    }
    return NULL;
}

/* The legal actions now, ascending, into out (at most EP_ACTIONS): their count, or -1. */
static int ep_legal_actions(EpisodeCore *e, int *out)
{
    int n = 0;
    if (e->phase == PH_DEAL) {
        for (ct_mask rest = e->pool & ~e->exclude; rest; rest &= rest - 1)
            out[n++] = ct_low(rest);
        return n;
    }
    if (e->phase != PH_PLAY)
        return 0;
    if (ep_list(e) < 0)
        return -1;
    const Masks *legal = &e->hand->b.legal;
    if (e->pending < 0) {
        ct_mask cards = 0;
        for (Py_ssize_t k = 0; k < legal->size; k++)
            cards |= 1ULL << (int)(legal->items[k] >> 56);
        for (; cards; cards &= cards - 1)
            out[n++] = ct_low(cards);
        return n;
    }
    ct_mask next = 0, picked = e->picked;
    int stop = 0;
    for (Py_ssize_t k = 0; k < legal->size; k++) {
        ct_mask item = legal->items[k];
        if ((int)(item >> 56) != e->pending)
            continue;
        ct_mask taken = item & ALL_MASK, rest = taken & ~picked;
        if (rest && ep_consistent(taken, picked))
            next |= rest & -rest;
        stop |= taken == picked;
    }
    for (; next; next &= next - 1)
        out[n++] = EP_TAKE + ct_low(next);
    if (stop)
        out[n++] = EP_STOP;
    return n;
}

static PyObject *int_list(const int *values, int n)
{
    PyObject *out = PyList_New(n);
    for (int k = 0; out != NULL && k < n; k++) {
        PyObject *item = PyLong_FromLong(values[k]);
        if (item == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, item);
    }
    return out;
}

static PyObject *EpisodeCore_legal_actions(EpisodeCore *e, PyObject *Py_UNUSED(ignored))
{
    int out[EP_ACTIONS];
    int n = ep_legal_actions(e, out);
    return n < 0 ? NULL : int_list(out, n);
}

static PyObject *EpisodeCore_chance_outcomes(EpisodeCore *e, PyObject *Py_UNUSED(ignored))
{
    if (e->phase != PH_DEAL)
        return PyList_New(0);
    ct_mask rest = e->pool & ~e->exclude;
    int n = ct_count(rest);
    PyObject *out = PyList_New(n);
    PyObject *p = out ? PyFloat_FromDouble(n ? 1.0 / n : 0.0) : NULL;
    for (int k = 0; p != NULL && k < n; k++, rest &= rest - 1) {
        PyObject *pair = Py_BuildValue("(iO)", ct_low(rest), p);
        if (pair == NULL)
            Py_CLEAR(p);
        else
            PyList_SET_ITEM(out, k, pair);
    }
    if (p == NULL) {
        Py_XDECREF(out);
        return NULL;
    }
    Py_DECREF(p);
    return out;
}

static PyObject *EpisodeCore_current_player(EpisodeCore *e, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(e->phase == PH_PLAY ? e->hand->b.to_move
                           : e->phase == PH_DEAL ? -1 : -4);
}

static PyObject *EpisodeCore_is_terminal(EpisodeCore *e, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(e->phase == PH_OVER);
}

static PyObject *EpisodeCore_is_chance_node(EpisodeCore *e, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(e->phase == PH_DEAL);
}

static int read_starts(PyObject *starts, long long *at)
{
    if (!PyTuple_Check(starts) || PyTuple_GET_SIZE(starts) != O_STARTS) {
        PyErr_SetString(PyExc_ValueError, "one start per piece of the observation");
        return -1;
    }
    for (int i = 0; i < O_STARTS; i++) {
        at[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(starts, i));
        if (at[i] == -1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

/* The observation once the first deal round is complete (seats play, or the hand is
 * over): what PasurEpisode.pieces gives, the reference. */
static void ep_observation(const EpisodeCore *e, ct_tensor *t, int seat, const long long *at)
{
    write_observation(&e->hand->b, t, seat, at, e->pending, e->picked, e->round,
                      ct_count(e->pool));
}

/* _tensor(out, seat, starts): a seat's observation while seats play or once the hand is
 * over, into the float32 buffer ``out`` (None back) or a new list when ``out`` is the
 * size; NotImplemented while cards are dealt (the Python pieces write it then). */
static PyObject *EpisodeCore_tensor(EpisodeCore *e, PyObject *args)
{
    PyObject *out, *starts;
    int seat;
    if (!PyArg_ParseTuple(args, "OiO:_tensor", &out, &seat, &starts))
        return NULL;
    if (e->phase == PH_DEAL || e->hand == NULL)
        Py_RETURN_NOTIMPLEMENTED;
    long long at[O_STARTS];
    if (seat < 0 || seat >= e->players) {
        PyErr_SetString(PyExc_ValueError, "a seat of the hand");
        return NULL;
    }
    if (read_starts(starts, at) < 0)
        return NULL;
    ct_tensor t;
    if (ct_tensor_open(out, &t) < 0)
        return NULL;
    ep_observation(e, &t, seat, at);
    return ct_tensor_close(&t);
}

/* _layout(starts, size): the observation's layout, kept for _observation_list. */
static PyObject *EpisodeCore_layout(EpisodeCore *e, PyObject *args)
{
    PyObject *starts;
    Py_ssize_t size;
    long long at[O_STARTS];
    if (!PyArg_ParseTuple(args, "On:_layout", &starts, &size) || read_starts(starts, at) < 0)
        return NULL;
    if (size <= 0 || size > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "an observation's size is 1 to 2**20");
        return NULL;
    }
    memcpy(e->obs_at, at, sizeof at);
    e->obs_size = size;
    Py_RETURN_NONE;
}

/* _observation_list(seat): the observation of ``seat`` (an int, a seat of the hand) as a
 * list of floats (pyspiel's form) in one call, by the layout given to _layout; or
 * NotImplemented (while cards are dealt, with no layout given, or any other seat: the
 * Python episode answers, or says why not). */
static PyObject *EpisodeCore_observation_list(EpisodeCore *e, PyObject *arg)
{
    if (e->phase == PH_DEAL || e->hand == NULL || e->obs_size == 0 || !PyLong_CheckExact(arg))
        Py_RETURN_NOTIMPLEMENTED;
    long seat = PyLong_AsLong(arg);
    if (seat < 0 || seat >= e->players) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *size = PyLong_FromSsize_t(e->obs_size);
    if (size == NULL)
        return NULL;
    ct_tensor t;
    int opened = ct_tensor_open(size, &t);
    Py_DECREF(size);
    if (opened < 0)
        return NULL;
    ep_observation(e, &t, (int)seat, e->obs_at);
    return ct_tensor_close(&t);
}

/* _copy_into(other): ``other`` (a new episode of the same class, its dict already copied)
 * made an independent copy of this one. */
static PyObject *EpisodeCore_copy_into(EpisodeCore *e, PyObject *arg)
{
    if (!PyObject_TypeCheck(arg, &EpisodeCoreType)) {
        PyErr_SetString(PyExc_TypeError, "a copy goes into another episode");
        return NULL;
    }
    EpisodeCore *o = (EpisodeCore *)arg;
    PyObject *history = PyList_GetSlice(e->history, 0, PyList_GET_SIZE(e->history));
    if (history == NULL)
        return NULL;
    HandCore *hand = NULL;
    if (e->hand != NULL && (hand = (HandCore *)HandCore_copy(e->hand, NO_ARGS, NULL)) == NULL) {
        Py_DECREF(history);
        return NULL;
    }
    ct_mask *tables = NULL;
    ChanceEntry *chance = NULL;
    if ((e->room_tables && (tables = malloc((size_t)e->room_tables * sizeof *tables)) == NULL)
        || (e->room_chance
            && (chance = malloc((size_t)e->room_chance * sizeof *chance)) == NULL)) {
        free(tables);
        Py_DECREF(history);
        Py_XDECREF(hand);
        return PyErr_NoMemory();
    }
    if (e->ntables)
        memcpy(tables, e->tables, (size_t)e->ntables * sizeof *tables);
    if (e->nchance)
        memcpy(chance, e->chance, (size_t)e->nchance * sizeof *chance);
    Py_XDECREF(o->history);
    Py_XDECREF(o->hand);
    Py_XDECREF(o->blank);
    free(o->tables);
    free(o->chance);
    size_t head = offsetof(EpisodeCore, players);
    memcpy((char *)o + head, (char *)e + head, sizeof(EpisodeCore) - head);
    o->history = history;
    o->hand = hand;
    o->blank = e->blank ? (HandCore *)Py_NewRef(e->blank) : NULL;
    o->tables = tables;
    o->chance = chance;
    Py_RETURN_NONE;
}

/* -- the fields under the Python episode's names -- */

static PyObject *Ep_get_history(EpisodeCore *e, void *Py_UNUSED(c))
{
    return Py_NewRef(e->history);
}

static int Ep_set_history(EpisodeCore *e, PyObject *value, void *Py_UNUSED(c))
{
    if (value == NULL || !PyList_CheckExact(value)) {
        PyErr_SetString(PyExc_TypeError, "an episode's history is a list of actions");
        return -1;
    }
    Py_SETREF(e->history, Py_NewRef(value));
    return 0;
}

#define EP_INT_GETTER(name, expr) \
    static PyObject *Ep_get_##name(EpisodeCore *e, void *Py_UNUSED(c)) \
    { return PyLong_FromLongLong((long long)(expr)); }
EP_INT_GETTER(phase, e->phase)
EP_INT_GETTER(round, e->round)
EP_INT_GETTER(pool, e->pool)
EP_INT_GETTER(exclude, e->exclude)
EP_INT_GETTER(slot, e->slot)
EP_INT_GETTER(returned, e->returned)
EP_INT_GETTER(redeals, e->redeals)
EP_INT_GETTER(opening, e->opening)
EP_INT_GETTER(pending, e->pending)
EP_INT_GETTER(picked, e->picked)

static PyObject *Ep_get_replaced(EpisodeCore *e, void *Py_UNUSED(c))
{
    return PyBool_FromLong(e->replaced);
}

static PyObject *Ep_get_dealt(EpisodeCore *e, void *Py_UNUSED(c))
{
    if (CARD_OBJECTS == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the pasur core is not bound to its cards");
        return NULL;
    }
    PyObject *out = PyList_New(e->ndealt);
    for (int k = 0; out != NULL && k < e->ndealt; k++)
        PyList_SET_ITEM(out, k, Py_NewRef(PyTuple_GET_ITEM(CARD_OBJECTS, e->dealt[k])));
    return out;
}

static PyObject *Ep_get_tables(EpisodeCore *e, void *Py_UNUSED(c))
{
    return list_of_masks(e->tables, (int)e->ntables);
}

static PyObject *Ep_get_held(EpisodeCore *e, void *Py_UNUSED(c))
{
    return list_of_masks(e->held, e->players);
}

static PyObject *Ep_get_deals(EpisodeCore *e, void *Py_UNUSED(c))
{
    PyObject *out = PyList_New(e->players);
    for (int s = 0; out != NULL && s < e->players; s++) {
        PyObject *row = list_of_masks(e->deals[s], e->rounds);
        if (row == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, s, row);
    }
    return out;
}

static PyObject *Ep_get_chance(EpisodeCore *e, void *Py_UNUSED(c))
{
    PyObject *out = PyList_New(e->nchance);
    for (Py_ssize_t k = 0; out != NULL && k < e->nchance; k++) {
        const ChanceEntry *c = &e->chance[k];
        PyObject *entry = Py_BuildValue("(niii)", c->at, c->seat, c->round, c->attempt);
        if (entry == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, entry);
    }
    return out;
}

static PyObject *Ep_get_hand(EpisodeCore *e, void *Py_UNUSED(c))
{
    return Py_NewRef(e->hand ? (PyObject *)e->hand : Py_None);
}

static PyObject *Ep_get_by_card(EpisodeCore *e, void *Py_UNUSED(c))
{
    if (e->phase != PH_PLAY)
        return PyDict_New();
    return HandCore_by_card(e->hand, NULL);
}

static PyObject *Ep_get_plays(EpisodeCore *e, void *Py_UNUSED(c))
{
    PyObject *out = PyList_New(e->nplays);
    for (int k = 0; out != NULL && k < e->nplays; k++) {
        PyObject *move = interned_move(e->play_index[k], e->play_taken[k]);
        PyObject *entry = move ? Py_BuildValue("(iN)", e->play_seat[k], move) : NULL;
        if (entry == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, entry);
    }
    return out;
}

static PyGetSetDef EpisodeCore_getset[] = {
    {"history", (getter)Ep_get_history, (setter)Ep_set_history, "The actions so far.", NULL},
    {"_phase", (getter)Ep_get_phase, NULL, "0 dealing, 1 a seat decides, 2 over.", NULL},
    {"_round", (getter)Ep_get_round, NULL, "The deal round (from 1).", NULL},
    {"_dealt", (getter)Ep_get_dealt, NULL, "This deal round's cards so far.", NULL},
    {"_pool", (getter)Ep_get_pool, NULL, "The cards not dealt yet.", NULL},
    {"_exclude", (getter)Ep_get_exclude, NULL, "A returned jack being replaced.", NULL},
    {"_slot", (getter)Ep_get_slot, NULL, "The table slot being refilled (-1: none).", NULL},
    {"_replaced", (getter)Ep_get_replaced, NULL, "Whether a jack was replaced.", NULL},
    {"_returned", (getter)Ep_get_returned, NULL, "Cards seen going back to the stock.", NULL},
    {"_redeals", (getter)Ep_get_redeals, NULL, "Redeals so far.", NULL},
    {"_tables", (getter)Ep_get_tables, NULL, "Opening tables dealt again.", NULL},
    {"_opening", (getter)Ep_get_opening, NULL, "The opening table kept.", NULL},
    {"_deals", (getter)Ep_get_deals, NULL, "Each seat's cards per deal round.", NULL},
    {"_held", (getter)Ep_get_held, NULL, "Each seat's cards while seats play.", NULL},
    {"_chance", (getter)Ep_get_chance, NULL, "(history index, seat, round, attempt).", NULL},
    {"_hand", (getter)Ep_get_hand, NULL, "This deal round's hand.", NULL},
    {"_by_card", (getter)Ep_get_by_card, NULL, "The legal moves by card.", NULL},
    {"_pending", (getter)Ep_get_pending, NULL, "The card being played (-1: none).", NULL},
    {"_picked", (getter)Ep_get_picked, NULL, "The cards named so far.", NULL},
    {"_plays", (getter)Ep_get_plays, NULL, "(seat, move) for every move made.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef EpisodeCore_methods[] = {
    {"_setup", (PyCFunction)EpisodeCore_setup, METH_VARARGS,
     "_setup(blank, leader, same, any_face, jack_rule): a fresh episode."},
    {"apply", (PyCFunction)EpisodeCore_apply, METH_O,
     "Play one action (a card dealt, or a decision)."},
    {"legal_actions", (PyCFunction)EpisodeCore_legal_actions, METH_NOARGS,
     "The legal actions, ascending (chance: the cards to deal)."},
    {"chance_outcomes", (PyCFunction)EpisodeCore_chance_outcomes, METH_NOARGS,
     "[(card, probability)] at a chance node, else []."},
    {"current_player", (PyCFunction)EpisodeCore_current_player, METH_NOARGS,
     "The seat to decide; -1 at a chance node, -4 at the end."},
    {"is_terminal", (PyCFunction)EpisodeCore_is_terminal, METH_NOARGS, "Whether it is over."},
    {"is_chance_node", (PyCFunction)EpisodeCore_is_chance_node, METH_NOARGS,
     "Whether a card is being dealt."},
    {"_tensor", (PyCFunction)EpisodeCore_tensor, METH_VARARGS,
     "_tensor(out, seat, starts): a seat's observation (NotImplemented while dealing)."},
    {"_layout", (PyCFunction)EpisodeCore_layout, METH_VARARGS,
     "_layout(starts, size): the observation's layout, for _observation_list."},
    {"_observation_list", (PyCFunction)EpisodeCore_observation_list, METH_O,
     "_observation_list(seat): a seat's observation as a list (NotImplemented: ask Python)."},
    {"_copy_into", (PyCFunction)EpisodeCore_copy_into, METH_O,
     "_copy_into(other): make other an independent copy of this episode."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject EpisodeCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.pasur._core.EpisodeCore",
    .tp_doc = "A Pasur research episode in C: the compiled PasurEpisode's base.",
    .tp_basicsize = sizeof(EpisodeCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_new = EpisodeCore_new,
    .tp_dealloc = (destructor)EpisodeCore_dealloc,
    .tp_methods = EpisodeCore_methods,
    .tp_getset = EpisodeCore_getset,
};

/* bind_episode(cards): the 52 Card objects, by index, that the episode's _dealt holds. */
static PyObject *core_bind_episode(PyObject *Py_UNUSED(module), PyObject *cards)
{
    if (!PyTuple_Check(cards) || PyTuple_GET_SIZE(cards) != 52) {
        PyErr_SetString(PyExc_ValueError, "bind_episode takes the 52 cards as a tuple");
        return NULL;
    }
    Py_XSETREF(CARD_OBJECTS, Py_NewRef(cards));
    Py_RETURN_NONE;
}

/* The actions that make a move (card ``index`` taking ``taken``) from a decision node with
 * nothing chosen yet (PasurEpisode.actions_for): their count, into out (at most 54: the
 * card, each card taken, the stop), or -1 (MemoryError set). */
static int ep_actions_for(EpisodeCore *e, int index, ct_mask taken, int *out)
{
    CardMoves card;
    if (ep_moves_of(e, index, &card) < 0)
        return -1;
    int n = 0;
    out[n++] = index;
    if (card.size == 1) {
        ep_moves_close(&card);
        return n;
    }
    ct_mask picked = 0;
    for (ct_mask rest = taken; rest; rest &= rest - 1) {
        ct_mask bit = rest & -rest;
        picked |= bit;
        out[n++] = EP_TAKE + ct_low(bit);
        int left = 0;
        for (int k = 0; k < card.size; k++)
            left += ep_consistent(card.items[k], picked);
        if (left == 1) {
            ep_moves_close(&card);
            return n;
        }
    }
    ep_moves_close(&card);
    out[n++] = EP_STOP;
    return n;
}

/* episode_steps(envs, actions, observations, masks, status, seat, starts): a vector of
 * Pasur episodes stepped in one call, for cardtable.adapters.vector.  Each environment is
 * a tuple (episode, rng): a compiled PasurEpisode and a bytearray of 32 bytes holding the
 * state of the generator its chance nodes and random opponents draw from.  For
 * environment i, ``actions[i]`` is the learner's action (-1: none, only chance and the
 * opponents move; -2: leave this environment alone).  The learner's action is played; then
 * chance nodes deal a card uniformly from those they may deal, and every other seat plays
 * a move drawn uniformly from its legal moves, as the actions that make it
 * (``actions_for``), until the learner ``seat`` decides or the hand ends; every action
 * goes into the history as the episode's own steps put it.  Row i of ``observations``
 * (float32, the observation a row, its pieces at ``starts``) then holds the learner's
 * observation, row i of ``masks`` (int8, a byte an action) its legal actions, and
 * ``status[i]`` (int8) 0 (the learner decides), 1 (the hand is over) or 3 (the learner's
 * action is not legal: nothing played, the row rewritten). */
static PyObject *core_episode_steps(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *envs, *actions, *obs_object, *mask_object, *status_object, *starts;
    int seat;
    if (!PyArg_ParseTuple(args, "O!O!OOOiO!:episode_steps", &PyList_Type, &envs, &PyList_Type,
                          &actions, &obs_object, &mask_object, &status_object, &seat,
                          &PyTuple_Type, &starts))
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(envs);
    long long at[O_STARTS];
    if (PyList_GET_SIZE(actions) != count) {
        PyErr_SetString(PyExc_ValueError, "one action per environment");
        return NULL;
    }
    if (read_starts(starts, at) < 0)
        return NULL;
    ct_step_rows rows;
    if (ct_step_rows_open(&rows, obs_object, mask_object, status_object, count,
                          EP_ACTIONS) < 0)
        return NULL;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *env = PyList_GET_ITEM(envs, i);
        long action = PyLong_AsLong(PyList_GET_ITEM(actions, i));
        if (action == -1 && PyErr_Occurred())
            goto done;
        if (action == -2)
            continue;
        if (!PyTuple_Check(env) || PyTuple_GET_SIZE(env) != 2
            || !PyObject_TypeCheck(PyTuple_GET_ITEM(env, 0), &EpisodeCoreType)) {
            PyErr_SetString(PyExc_ValueError, "each environment is (episode, rng)");
            goto done;
        }
        EpisodeCore *e = (EpisodeCore *)PyTuple_GET_ITEM(env, 0);
        if (e->blank == NULL || seat < 0 || seat >= e->players) {
            PyErr_SetString(PyExc_ValueError, "the learner's seat is not one of the hand's");
            goto done;
        }
        Py_buffer state;
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(env, 1), &state, PyBUF_WRITABLE) < 0)
            goto done;
        if (state.len != 32) {
            PyBuffer_Release(&state);
            PyErr_SetString(PyExc_ValueError, "a generator's state is 32 bytes");
            goto done;
        }
        ct_rng rng;
        memcpy(rng.s, state.buf, 32);
        int8_t code = 0;
        int failed = 0;
        if (action >= 0) {
            if (e->phase != PH_PLAY || e->hand->b.to_move != seat)
                code = 3;
            else {
                int done = ep_step(e, action);
                failed = done < 0;
                code = done == 1 ? 3 : 0;
            }
        }
        while (code == 0 && !failed) {
            if (e->phase == PH_OVER) {
                code = 1;
                break;
            }
            if (e->phase == PH_DEAL) {
                ct_mask cards = e->pool & ~e->exclude;
                uint32_t k = ct_below(&rng, (uint32_t)ct_count(cards));
                while (k--)
                    cards &= cards - 1;
                failed = ep_step(e, ct_low(cards)) != 0;
                continue;
            }
            if (e->hand->b.to_move == seat)
                break;
            if (ep_list(e) < 0 || e->hand->b.legal.size == 0) {
                failed = 1;
                break;
            }
            const Masks *legal = &e->hand->b.legal;
            ct_mask item = legal->items[ct_below(&rng, (uint32_t)legal->size)];
            int steps[64];
            int n = ep_actions_for(e, (int)(item >> 56), item & ALL_MASK, steps);
            if (n < 0) {
                failed = 1;
                break;
            }
            for (int k = 0; k < n && !failed; k++)
                failed = ep_step(e, steps[k]) != 0;
        }
        memcpy(state.buf, rng.s, 32);
        PyBuffer_Release(&state);
        if (failed) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_RuntimeError, "the core refused its own move");
            goto done;
        }
        ct_tensor t = {.data = rows.obs + i * rows.row, .size = rows.row};
        memset(t.data, 0, (size_t)rows.row * 4);
        if (e->phase != PH_DEAL)
            ep_observation(e, &t, seat, at);
        if (t.bad) {
            PyErr_SetString(PyExc_ValueError, "a piece falls outside the tensor");
            goto done;
        }
        int8_t *mask = rows.masks + i * EP_ACTIONS;
        memset(mask, 0, EP_ACTIONS);
        if (e->phase == PH_PLAY && e->hand->b.to_move == seat) {
            int legal[EP_ACTIONS];
            int n = ep_legal_actions(e, legal);
            if (n < 0)
                goto done;
            for (int k = 0; k < n; k++)
                mask[legal[k]] = 1;
        }
        rows.status[i] = code;
    }
    result = Py_NewRef(Py_None);
done:
    ct_step_rows_close(&rows);
    return result;
}

static PyMethodDef core_methods[] = {
    {"bind_hand", core_bind_hand, METH_O,
     "bind_hand(move_of): the function the compiled hand interns its moves with."},
    {"shuffled", core_shuffled, METH_VARARGS,
     "shuffled(rng, plain=False): cardtable.pasur.deal.shuffled(rng), as bytes (plain: rng "
     "is a random.Random itself, whose 52 draws are made in one call)."},
    {"shuffle", core_shuffle, METH_VARARGS,
     "shuffle(rng, list): rng.shuffle(list) as random.Random does it, draw for draw."},
    {"bind_episode", core_bind_episode, METH_O,
     "bind_episode(cards): the 52 Card objects the research episode's fields hold."},
    {"episode_steps", core_episode_steps, METH_VARARGS,
     "A vector of Pasur research episodes stepped in one call (cardtable.adapters.vector)."},
    {"options", core_options, METH_VARARGS,
     "options(rules_holder, index, table): the masks card index can take (0: it stays), "
     "read off an object with the option memory's fields (a Hand's _memory's owner)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.pasur._core",
    .m_doc = "The compiled core of Pasur: a hand's play on masks and playouts in C "
             "(READY: it matches the pure engine in the differential test).",
    .m_size = -1,
    .m_methods = core_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&BoardType) < 0 || PyType_Ready(&HandCoreType) < 0
        || PyType_Ready(&EpisodeCoreType) < 0)
        return NULL;
    if (NO_ARGS == NULL && (NO_ARGS = PyTuple_New(0)) == NULL)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Board", (PyObject *)&BoardType) < 0
        || PyModule_AddObjectRef(module, "HandCore", (PyObject *)&HandCoreType) < 0
        || PyModule_AddObjectRef(module, "EpisodeCore", (PyObject *)&EpisodeCoreType) < 0
        || PyModule_AddObjectRef(module, "READY", Py_True) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
