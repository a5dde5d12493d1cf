/* The compiled core of Transfer Durak: the state as card masks in one C struct, the legal
 * moves from masks, push and pop (a saved copy of the struct per move), copy, and playouts
 * to the end of a game with the core's own generator.
 *
 * It is the pure engine (game.py, state.py) written again move for move: the same legal
 * moves in the same order, the same turn order, drawing and end of game.  Everything cold
 * (views, outcomes, why a move is refused, reading a move's text, dealing) stays in Python
 * (compiled.py), which reads this state through the same field names the pure engine has.
 *
 * Moves are numbered as the research adapters number actions (adapters/durak.py): 0 take,
 * 1 pass, 2 + 15 * rank + (suits - 1) an attack, 197 + ... a transfer, 392 + card a
 * passport transfer, 444 + card an exchange, 496 + 52 * attack + beater a defence.  The
 * Move objects themselves are the pure engine's (``bind`` hands them over), so a move the
 * core finds is the very object the pure engine would find.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <string.h>
#include <time.h>
#include "../_native.h"

#define DK_TAKE 0
#define DK_PASS 1
#define DK_ATTACK 2
#define DK_TRANSFER 197
#define DK_SHOW 392
#define DK_EXCHANGE 444
#define DK_DEFEND 496
#define DK_MOVES (DK_DEFEND + 52 * 52)

enum { LEAD, DEFEND, THROW, TAKING, OVER };

#define HAND_SIZE 6
#define ROUND_LIMIT 6
#define MAX_SEATS 6
#define MAX_TABLE 8     /* attack cards on the table: at most six */
#define MAX_LEGAL 512   /* six open cards times 51 beaters, and a few more */

#define GROUP(rank) ((ct_mask)15 << (4 * (rank)))
#define SUIT_MASK(suit) ((ct_mask)0x1111111111111ULL << (suit))
#define BIT(card) ((ct_mask)1 << (card))

/* The fixed facts of a game: its rules and seating, and (once dealt) trump. */
typedef struct {
    int players, teams;
    int8_t team[MAX_SEATS];
    int nb_only, passport, late, first_transfer, exchange, simple_throw, first_round_limit;
    long long max_rounds;
    int trump, lowest;
    ct_mask pack_mask;
    ct_mask beaters[52];
} dk_rules;

/* What the moves change: ``pop`` restores a saved copy. */
typedef struct {
    ct_mask hands[MAX_SEATS], known[MAX_SEATS];
    ct_mask discard, open, tmask, tranks, shown;
    long long round;
    int8_t stock[52];
    int8_t stock_len, drawn, trump_card;   /* trump_card: -1 for a position without one */
    int8_t out, loser, phase;              /* loser: -1 for none */
    int8_t attacker, defender, orig, to_move, cap_now, limit, passed;
    int8_t natt, nbeats;
    int8_t att[MAX_TABLE], beat_a[MAX_TABLE], beat_d[MAX_TABLE];
} dk_state;

/* Non-empty subsets of each 4-bit group, fewest cards first, then by value (the order of
 * tables.py's _SUBSETS). */
static uint8_t SUBS[16][15];
static uint8_t SUBS_N[16];

static PyObject *CARDS = NULL;   /* the 52 Card objects, by index */
static PyObject *MOVES = NULL;   /* the Move objects, by move number (None where none) */

static inline int strength(int card) { int r = card >> 2; return r == 0 ? 14 : r + 1; }

/* -- the rules ------------------------------------------------------------------------ */

static void set_trump(dk_rules *r, int trump)
{
    r->trump = trump;
    for (int c = 0; c < 52; c++) {
        ct_mask higher = 0;
        for (int o = 0; o < 52; o++)
            if ((o & 3) == (c & 3) && strength(o) > strength(c))
                higher |= BIT(o);
        r->beaters[c] = higher | ((c & 3) != trump ? SUIT_MASK(trump) : 0);
    }
}

static int defender_after(const dk_rules *r, const dk_state *s, int seat)
{
    int n = r->players, mine = r->team[seat];
    for (int k = 1; k < n; k++) {
        int other = (seat + k) % n;
        if (s->hands[other] && r->team[other] != mine)
            return other;
    }
    return -1;
}

static int transfer_rank(const dk_rules *r, const dk_state *s)
{
    if (s->round == 1 && !r->first_transfer)
        return -1;
    if (!s->nbeats)
        return s->att[0] >> 2;
    ct_mask open = s->open;
    if (!r->late || !open)
        return -1;
    int rank = ct_low(open) >> 2;
    return (open & ~GROUP(rank)) ? -1 : rank;
}

static int throwers(const dk_rules *r, const dk_state *s)
{
    int n = r->players, dteam = r->team[s->defender], allowed = 0;
    for (int seat = 0; seat < n; seat++)
        if (s->hands[seat] && r->team[seat] != dteam)
            allowed |= 1 << seat;
    if (r->nb_only) {
        int near = 1 << s->attacker;
        for (int step = 1; step >= -1; step -= 2) {
            int seat = s->defender;
            for (int k = 0; k < n - 1; k++) {
                seat = ((seat + step) % n + n) % n;
                if (!(s->out >> seat & 1)) {
                    near |= 1 << seat;
                    break;
                }
            }
        }
        allowed &= near;
    }
    return allowed;
}

/* -- legal moves ------------------------------------------------------------------------ */

static int add_groups(int16_t *out, int n, ct_mask mask, int room, int base)
{
    if (room > 6)
        room = 6;
    for (int rank = 0; rank < 13 && mask; rank++) {
        int group = (int)(mask >> (4 * rank) & 15);
        if (!group)
            continue;
        for (int k = 0; k < SUBS_N[group]; k++) {
            int sub = SUBS[group][k];
            if (__builtin_popcount(sub) > room)
                break;
            out[n++] = (int16_t)(base + 15 * rank + sub - 1);
        }
    }
    return n;
}

static int add_exchange(const dk_rules *r, const dk_state *s, int16_t *out, int n,
                        ct_mask hand)
{
    if (s->stock_len - s->drawn < 2 || s->trump_card < 0)
        return n;
    int card = (r->lowest - 1) * 4 + r->trump;
    if (card != s->trump_card && (hand & BIT(card)))
        out[n++] = (int16_t)(DK_EXCHANGE + card);
    return n;
}

static int gen_legal(const dk_rules *r, const dk_state *s, int16_t *out)
{
    int n = 0, phase = s->phase;
    if (phase == OVER)
        return 0;
    int seat = s->to_move;
    ct_mask hand = s->hands[seat];
    if (phase == DEFEND) {
        ct_mask open = s->open;
        while (open) {
            int a = ct_low(open);
            open &= open - 1;
            ct_mask m = hand & r->beaters[a];
            while (m) {
                out[n++] = (int16_t)(DK_DEFEND + 52 * a + ct_low(m));
                m &= m - 1;
            }
        }
        ct_mask same;
        if (!s->nbeats) {
            same = hand & s->tranks;
            if (same && s->round == 1 && !r->first_transfer)
                same = 0;
        } else if (r->late) {
            int rank = transfer_rank(r, s);
            same = rank >= 0 ? hand & GROUP(rank) : 0;
        } else {
            same = 0;
        }
        if (same) {
            int nd = defender_after(r, s, seat);
            if (nd >= 0) {
                int room = ct_count(s->hands[nd]) - ct_count(s->open);
                int cap_room = s->cap_now - s->natt;
                if (cap_room < room)
                    room = cap_room;
                if (room > 0) {
                    int rank = ct_low(same) >> 2;
                    n = add_groups(out, n, same & GROUP(rank), room, DK_TRANSFER);
                }
                if (r->passport && room >= 0) {
                    ct_mask card = same & SUIT_MASK(r->trump);
                    if (card && !(s->shown & card))
                        out[n++] = (int16_t)(DK_SHOW + 63 - __builtin_clzll(card));
                }
            }
        }
        out[n++] = DK_TAKE;
    } else if (phase == LEAD) {
        int room = ct_count(s->hands[s->defender]);
        if (room > s->cap_now)
            room = s->cap_now;
        n = add_groups(out, n, hand, room, DK_ATTACK);
    } else {
        ct_mask candidates = hand & s->tranks;
        if (candidates)
            n = add_groups(out, n, candidates, s->limit - s->natt, DK_ATTACK);
        out[n++] = DK_PASS;
    }
    if (r->exchange)
        n = add_exchange(r, s, out, n, hand);
    return n;
}

/* -- the end of a round ----------------------------------------------------------------- */

static int finished(const dk_rules *r, dk_state *s)
{
    int n = r->players, count = 0;
    if (r->teams == n) {
        for (int seat = 0; seat < n; seat++)
            count += s->hands[seat] != 0;
        if (count > 1)
            return 0;
    }
    int team = -1;
    for (int seat = 0; seat < n; seat++)
        if (s->hands[seat]) {
            if (team >= 0 && r->team[seat] != team)
                return 0;
            team = r->team[seat];
        }
    s->phase = OVER;
    int loser = -1, most = -1;
    for (int seat = 0; seat < n; seat++)   /* the most cards; ties: the lowest seat */
        if (s->hands[seat] && ct_count(s->hands[seat]) > most) {
            most = ct_count(s->hands[seat]);
            loser = seat;
        }
    s->loser = (int8_t)loser;
    return 1;
}

static ct_mask stock_between(const dk_state *s, int from, int to)
{
    ct_mask mask = 0;
    for (int i = from; i < to; i++)
        mask |= BIT(s->stock[i]);
    return mask;
}

static void close_round(const dk_rules *r, dk_state *s, int taken)
{
    int defender = s->defender, orig = s->orig, n = r->players;
    if (taken) {
        s->hands[defender] |= s->tmask;
        s->known[defender] |= s->tmask;
    } else {
        s->discard |= s->tmask;
    }
    s->natt = s->nbeats = 0;
    s->open = s->tmask = s->tranks = 0;
    s->limit = 0;
    s->passed = 0;
    s->shown = 0;
    int drawn = s->drawn, size = s->stock_len;
    if (n == 2) {
        if (drawn < size) {
            int seat = orig;
            for (int k = 0; k < 2; k++) {
                int need = HAND_SIZE - ct_count(s->hands[seat]);
                if (need > 0) {
                    int end = drawn + need;
                    if (end >= size) {
                        s->hands[seat] |= stock_between(s, drawn, size);
                        s->known[seat] |= BIT(s->stock[size - 1]);
                        drawn = size;
                        break;
                    }
                    s->hands[seat] |= stock_between(s, drawn, end);
                    drawn = end;
                }
                seat = 1 - seat;
            }
            s->drawn = (int8_t)drawn;
        }
        if (!(s->hands[0] && s->hands[1])) {
            s->out |= (s->hands[0] ? 0 : 1) | (s->hands[1] ? 0 : 2);
            finished(r, s);
            return;
        }
        if (s->round >= r->max_rounds) {
            s->phase = OVER;
            s->loser = -1;
            return;
        }
        int leader = !taken ? defender : 1 - defender;
        s->round += 1;
        s->cap_now = ROUND_LIMIT;
        s->phase = LEAD;
        s->attacker = s->orig = s->to_move = (int8_t)leader;
        s->defender = (int8_t)(1 - leader);
        return;
    }
    int out = s->out;
    if (drawn < size) {
        int seat = orig;
        for (int step = 0; step <= n; step++) {
            if (step == n) {
                if (defender == orig)
                    break;
                seat = defender;
            } else if (step && (seat == defender || (out >> seat & 1))) {
                seat = seat + 1 < n ? seat + 1 : 0;
                continue;
            }
            int need = HAND_SIZE - ct_count(s->hands[seat]);
            if (need > 0) {
                int end = drawn + need < size ? drawn + need : size;
                s->hands[seat] |= stock_between(s, drawn, end);
                if (end == size) {
                    s->known[seat] |= BIT(s->stock[size - 1]);
                    drawn = end;
                    break;
                }
                drawn = end;
            }
            seat = seat + 1 < n ? seat + 1 : 0;
        }
        s->drawn = (int8_t)drawn;
    }
    int holding;
    if (drawn < size) {
        holding = n - __builtin_popcount(out);
    } else {
        holding = 0;
        for (int seat = 0; seat < n; seat++) {
            if (s->hands[seat])
                holding++;
            else
                out |= 1 << seat;
        }
        s->out = (int8_t)out;
    }
    if ((holding < 2 || r->teams != n) && finished(r, s))
        return;
    if (s->round >= r->max_rounds) {
        s->phase = OVER;
        s->loser = -1;
        return;
    }
    int leader = defender;
    if (taken || !s->hands[defender]) {
        for (int k = 1; k < n; k++) {
            leader = (defender + k) % n;
            if (s->hands[leader])
                break;
        }
    }
    s->round += 1;
    s->cap_now = ROUND_LIMIT;
    s->phase = LEAD;
    s->attacker = s->orig = s->to_move = (int8_t)leader;
    int mine = r->team[leader];
    for (int k = 1; k < n; k++) {
        int other = (leader + k) % n;
        if (s->hands[other] && r->team[other] != mine) {
            s->defender = (int8_t)other;
            break;
        }
    }
}

/* -- playing a move ----------------------------------------------------------------------- */

/* The cards of a group move (attack or transfer) in index order; returns how many. */
static int group_cards(int number, int base, int8_t *cards, ct_mask *mask)
{
    int rank = (number - base) / 15, sub = (number - base) % 15 + 1, k = 0;
    *mask = 0;
    for (int suit = 0; suit < 4; suit++)
        if (sub >> suit & 1) {
            cards[k++] = (int8_t)(4 * rank + suit);
            *mask |= BIT(4 * rank + suit);
        }
    return k;
}

static void apply(const dk_rules *r, dk_state *s, int move)
{
    int seat = s->to_move, start;
    int8_t cards[4];
    ct_mask own;
    if (move >= DK_ATTACK && move < DK_TRANSFER) {
        int count = group_cards(move, DK_ATTACK, cards, &own);
        s->hands[seat] ^= own;
        s->known[seat] &= ~own;
        int phase = s->phase;
        int room = MAX_TABLE - (phase == LEAD ? 0 : s->natt);
        if (count > room)
            count = room;   /* never: the limits keep the table within six cards */
        if (phase == LEAD) {
            memcpy(s->att, cards, (size_t)count);
            s->natt = (int8_t)count;
            s->open = s->tmask = own;
            s->tranks = GROUP(cards[0] >> 2);
            s->phase = DEFEND;
            s->to_move = s->defender;
            return;
        }
        memcpy(s->att + s->natt, cards, (size_t)count);
        s->natt = (int8_t)(s->natt + count);
        s->open |= own;
        s->tmask |= own;
        s->tranks |= GROUP(cards[0] >> 2);
        if (phase == THROW) {
            s->phase = DEFEND;
            s->to_move = s->defender;
            return;
        }
        s->passed = 0;
        if (s->hands[seat] && s->limit > s->natt)
            return;
        start = seat + 1;
    } else if (move == DK_PASS) {
        if (r->players == 2) {
            close_round(r, s, s->phase == TAKING);
            return;
        }
        s->passed = (int8_t)(s->passed | 1 << seat);
        start = seat + 1;
    } else if (move >= DK_DEFEND) {
        int a = (move - DK_DEFEND) / 52, d = (move - DK_DEFEND) % 52;
        if (!s->limit) {
            int limit = s->nbeats + ct_count(s->hands[seat]);
            s->limit = (int8_t)(limit < s->cap_now ? limit : s->cap_now);
        }
        s->hands[seat] ^= BIT(d);
        s->known[seat] &= ~BIT(d);
        if (s->nbeats < MAX_TABLE) {
            s->beat_a[s->nbeats] = (int8_t)a;
            s->beat_d[s->nbeats] = (int8_t)d;
            s->nbeats++;
        }
        s->open ^= BIT(a);
        s->tmask |= BIT(d);
        s->tranks |= GROUP(d >> 2);
        if (s->open)
            return;
        s->phase = THROW;
        s->passed = 0;
        start = s->attacker;
    } else if (move == DK_TAKE) {
        if (!s->limit) {
            int limit = s->nbeats + ct_count(s->hands[seat]);
            s->limit = (int8_t)(limit < s->cap_now ? limit : s->cap_now);
        }
        s->phase = TAKING;
        s->passed = 0;
        start = s->attacker;
    } else if (move >= DK_TRANSFER && move < DK_SHOW) {
        int count = group_cards(move, DK_TRANSFER, cards, &own);
        s->hands[seat] ^= own;
        s->known[seat] &= ~own;
        if (count > MAX_TABLE - s->natt)
            count = MAX_TABLE - s->natt;   /* never, as above */
        memcpy(s->att + s->natt, cards, (size_t)count);
        s->natt = (int8_t)(s->natt + count);
        s->open |= own;
        s->tmask |= own;
        s->attacker = (int8_t)seat;
        s->defender = s->to_move = (int8_t)defender_after(r, s, seat);
        s->limit = 0;
        return;
    } else if (move >= DK_SHOW && move < DK_EXCHANGE) {
        ct_mask mask = BIT(move - DK_SHOW);
        s->shown |= mask;
        s->known[seat] |= mask;
        s->attacker = (int8_t)seat;
        s->defender = s->to_move = (int8_t)defender_after(r, s, seat);
        s->limit = 0;
        return;
    } else {   /* an exchange */
        int card = move - DK_EXCHANGE;
        ct_mask old = BIT(s->trump_card);
        s->hands[seat] ^= BIT(card) | old;
        s->known[seat] = (s->known[seat] & ~BIT(card)) | old;
        int left = s->stock_len - s->drawn;
        memmove(s->stock, s->stock + s->drawn, (size_t)left);
        s->stock[left - 1] = (int8_t)card;
        s->stock_len = (int8_t)left;
        s->drawn = 0;
        s->trump_card = (int8_t)card;
        return;
    }
    /* the next thrower clockwise from ``start`` who has not passed, or the round's close */
    int n = r->players;
    if (s->limit > s->natt) {
        if (n == 2) {
            int other = 1 - s->defender;
            if (s->hands[other] && !s->passed) {
                s->to_move = (int8_t)other;
                return;
            }
        } else if (r->simple_throw) {
            int skip = s->passed | 1 << s->defender;
            for (int k = 0; k < n; k++) {
                int other = (start + k) % n;
                if (!(skip >> other & 1) && s->hands[other]) {
                    s->to_move = (int8_t)other;
                    return;
                }
            }
        } else {
            int allowed = throwers(r, s) & ~s->passed;
            if (allowed)
                for (int k = 0; k < n; k++) {
                    int other = (start + k) % n;
                    if (allowed >> other & 1) {
                        s->to_move = (int8_t)other;
                        return;
                    }
                }
        }
    }
    close_round(r, s, s->phase == TAKING);
}

/* -- the Python type ----------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    dk_rules r;
    dk_state s;
    int16_t legal[MAX_LEGAL];
    int nlegal;          /* -1: not worked out since the last push or pop */
    int16_t *moves;      /* the moves played (numbers) */
    dk_state *saved;     /* saved[i]: the state before moves[i] */
    Py_ssize_t nmoves, capacity;
    PyObject *rules, *deck, *dealer, *previous_loser;
} Core;

static inline void ensure_legal(Core *self)
{
    if (self->nlegal < 0)
        self->nlegal = gen_legal(&self->r, &self->s, self->legal);
}

static int long_field(PyObject *obj, const char *name, long long *out)
{
    PyObject *value = PyObject_GetAttrString(obj, name);
    if (value == NULL)
        return -1;
    *out = PyLong_AsLongLong(value);
    if (*out == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {   /* a huge round limit */
            PyErr_Clear();
            *out = LLONG_MAX;
        } else {
            Py_DECREF(value);
            return -1;
        }
    }
    Py_DECREF(value);
    return 0;
}

static int bool_field(PyObject *obj, const char *name, int *out)
{
    PyObject *value = PyObject_GetAttrString(obj, name);
    if (value == NULL)
        return -1;
    *out = PyObject_IsTrue(value);
    Py_DECREF(value);
    return *out < 0 ? -1 : 0;
}

static int Core_init(Core *self, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"rules", "players", NULL};
    PyObject *rules;
    int players;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Oi", names, &rules, &players))
        return -1;
    if (players < 2 || players > MAX_SEATS) {
        PyErr_Format(PyExc_ValueError, "the compiled core seats 2 to 6 players, not %d",
                     players);
        return -1;
    }
    long long pack, first_limit, max_rounds;
    int partners;
    dk_rules *r = &self->r;
    memset(r, 0, sizeof *r);
    if (long_field(rules, "pack_size", &pack) < 0
        || long_field(rules, "first_round_limit", &first_limit) < 0
        || long_field(rules, "max_rounds", &max_rounds) < 0
        || bool_field(rules, "partners", &partners) < 0
        || bool_field(rules, "neighbours_only", &r->nb_only) < 0
        || bool_field(rules, "passport", &r->passport) < 0
        || bool_field(rules, "late_transfer", &r->late) < 0
        || bool_field(rules, "first_round_transfer", &r->first_transfer) < 0
        || bool_field(rules, "trump_six_exchange", &r->exchange) < 0)
        return -1;
    if (pack != 24 && pack != 36 && pack != 52) {
        PyErr_Format(PyExc_ValueError, "no pack of %lld cards", pack);
        return -1;
    }
    r->players = players;
    r->teams = partners ? players / 2 : players;
    for (int seat = 0; seat < players; seat++)
        r->team[seat] = (int8_t)(seat % r->teams);
    r->simple_throw = !(r->nb_only || partners);
    r->first_round_limit = (int)first_limit;
    r->max_rounds = max_rounds;
    r->lowest = pack == 24 ? 9 : pack == 36 ? 6 : 2;
    for (int card = 0; card < 52; card++)
        if (strength(card) >= r->lowest)
            r->pack_mask |= BIT(card);
    set_trump(r, 0);
    memset(&self->s, 0, sizeof self->s);
    self->s.phase = OVER;
    self->s.loser = -1;
    self->s.trump_card = -1;
    self->nlegal = -1;
    self->nmoves = 0;
    Py_INCREF(rules);
    Py_XSETREF(self->rules, rules);
    Py_XSETREF(self->deck, Py_NewRef(Py_None));
    Py_XSETREF(self->dealer, Py_NewRef(Py_None));
    Py_XSETREF(self->previous_loser, Py_NewRef(Py_None));
    return 0;
}

static PyObject *Core_new(PyTypeObject *type, PyObject *Py_UNUSED(args), PyObject *Py_UNUSED(kwds))
{
    Core *self = (Core *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->s.phase = OVER;   /* until _setup: no move, nothing to play */
    self->s.loser = -1;
    self->s.trump_card = -1;
    self->nlegal = -1;
    return (PyObject *)self;
}

static void Core_dealloc(Core *self)
{
    PyMem_Free(self->moves);
    PyMem_Free(self->saved);
    Py_XDECREF(self->rules);
    Py_XDECREF(self->deck);
    Py_XDECREF(self->dealer);
    Py_XDECREF(self->previous_loser);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int reserve(Core *self, Py_ssize_t need)
{
    if (need <= self->capacity)
        return 0;
    Py_ssize_t capacity = self->capacity ? self->capacity : 64;
    while (capacity < need)
        capacity *= 2;
    int16_t *moves = PyMem_Realloc(self->moves, (size_t)capacity * sizeof *moves);
    if (moves == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->moves = moves;
    dk_state *saved = PyMem_Realloc(self->saved, (size_t)capacity * sizeof *saved);
    if (saved == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    self->saved = saved;
    self->capacity = capacity;
    return 0;
}

static PyObject *move_object(int number)
{
    return Py_NewRef(PyTuple_GET_ITEM(MOVES, number));
}

static int check_bound(void)
{
    if (CARDS == NULL || MOVES == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the durak core has not been bound to its moves");
        return -1;
    }
    return 0;
}

/* A mask from a Python int, refused unless it holds cards of the pack alone. */
static int read_mask(PyObject *value, const dk_rules *r, ct_mask *out)
{
    unsigned long long mask = PyLong_AsUnsignedLongLong(value);
    if (mask == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    if (mask & ~r->pack_mask) {
        PyErr_SetString(PyExc_ValueError, "a mask holds cards outside the pack");
        return -1;
    }
    *out = mask;
    return 0;
}

static int read_card(PyObject *card, int *out)
{
    PyObject *index = PyObject_GetAttrString(card, "index");
    if (index == NULL)
        return -1;
    long value = PyLong_AsLong(index);
    Py_DECREF(index);
    if (value == -1 && PyErr_Occurred())
        return -1;
    if (value < 0 || value >= 52) {
        PyErr_SetString(PyExc_ValueError, "no such card");
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* hands and known (lists of masks), the stock (Cards, top first), a list of seats */
static int read_hands(Core *self, PyObject *hands, PyObject *known, PyObject *stock)
{
    int n = self->r.players;
    dk_state *s = &self->s;
    if (!PyList_Check(hands) || PyList_GET_SIZE(hands) != n
        || (known != NULL && (!PyList_Check(known) || PyList_GET_SIZE(known) != n))
        || !PyTuple_Check(stock) || PyTuple_GET_SIZE(stock) > 52) {
        PyErr_SetString(PyExc_ValueError, "hands and known: a list a seat; stock: a tuple");
        return -1;
    }
    for (int seat = 0; seat < n; seat++) {
        if (read_mask(PyList_GET_ITEM(hands, seat), &self->r, &s->hands[seat]) < 0)
            return -1;
        if (known != NULL
            && read_mask(PyList_GET_ITEM(known, seat), &self->r, &s->known[seat]) < 0)
            return -1;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(stock);
    for (Py_ssize_t i = 0; i < size; i++) {
        int card;
        if (read_card(PyTuple_GET_ITEM(stock, i), &card) < 0)
            return -1;
        s->stock[i] = (int8_t)card;
    }
    s->stock_len = (int8_t)size;
    s->drawn = 0;
    return 0;
}

/* _start(hands, known, stock, trump, trump_card, discard, leader, round_number): the state
 * before the first round of a deal or a position (``Game._setup``). */
static PyObject *Core_setup(Core *self, PyObject *args)
{
    PyObject *hands, *known, *stock, *trump_card, *discard;
    int trump, leader;
    long long round_number;
    if (check_bound() < 0)
        return NULL;
    if (!PyArg_ParseTuple(args, "OOOiOOiL", &hands, &known, &stock, &trump, &trump_card,
                          &discard, &leader, &round_number))
        return NULL;
    dk_state *s = &self->s;
    dk_rules *r = &self->r;
    int n = r->players;
    if (trump < 0 || trump > 3 || leader < 0 || leader >= n || round_number < 1) {
        PyErr_SetString(PyExc_ValueError, "no such trump, leader or round");
        return NULL;
    }
    memset(s, 0, sizeof *s);
    if (read_hands(self, hands, known, stock) < 0 || read_mask(discard, r, &s->discard) < 0)
        return NULL;
    int card = -1;
    if (trump_card != Py_None && read_card(trump_card, &card) < 0)
        return NULL;
    set_trump(r, trump);
    s->trump_card = (int8_t)card;
    s->round = round_number;
    s->cap_now = (int8_t)(round_number == 1 ? r->first_round_limit : ROUND_LIMIT);
    for (int seat = 0; seat < n; seat++)
        if (!s->hands[seat])
            s->out |= 1 << seat;
    s->loser = -1;
    s->phase = LEAD;
    s->attacker = s->orig = s->to_move = s->defender = (int8_t)leader;
    self->nmoves = 0;
    self->nlegal = -1;
    if (!finished(r, s)) {
        int defender = defender_after(r, s, leader);
        if (defender < 0) {
            PyErr_Format(PyExc_ValueError, "seat %d has no one to attack", leader);
            return NULL;
        }
        s->defender = (int8_t)defender;
    }
    Py_RETURN_NONE;
}

/* _redeal(hands, stock): the hidden cards dealt afresh (``determinize``); no undo past it */
static PyObject *Core_redeal(Core *self, PyObject *args)
{
    PyObject *hands, *stock;
    if (!PyArg_ParseTuple(args, "OO", &hands, &stock))
        return NULL;
    dk_state saved = self->s;
    if (read_hands(self, hands, NULL, stock) < 0) {
        self->s = saved;
        return NULL;
    }
    self->nmoves = 0;
    self->nlegal = -1;
    Py_RETURN_NONE;
}

static PyObject *Core_legal_moves(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (check_bound() < 0)
        return NULL;
    ensure_legal(self);
    PyObject *list = PyList_New(self->nlegal);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < self->nlegal; i++)
        PyList_SET_ITEM(list, i, move_object(self->legal[i]));
    return list;
}

/* _legal_numbered(): {move number: Move} for the legal moves, in their order (the
 * research adapters' action numbers are the core's move numbers). */
static PyObject *Core_legal_numbered(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (check_bound() < 0)
        return NULL;
    ensure_legal(self);
    PyObject *out = PyDict_New();
    for (int i = 0; out != NULL && i < self->nlegal; i++) {
        PyObject *number = PyLong_FromLong(self->legal[i]);
        if (number == NULL
            || PyDict_SetItem(out, number, PyTuple_GET_ITEM(MOVES, self->legal[i])) < 0)
            Py_CLEAR(out);
        Py_XDECREF(number);
    }
    return out;
}

/* _pieces(seat, starts, playing): a seat's view once the deal is over, as the research
 * adapters' flat (offset, mask) and (offset, value) tuples, read from the state in one
 * call (cardtable/adapters/durak.py, DurakEpisode._playing_pieces: ``starts`` holds the
 * pieces' offsets in its _PLAYING order; ``playing``: the episode still asks a seat to
 * move, so the mover is shown). */
enum { P_PLAYER, P_TO_MOVE, P_HAND, P_UNBEATEN, P_BEATEN, P_DEFENCES, P_DISCARD, P_PHASE,
       P_SHOWN, P_PASSED, P_OUT, P_TRUMP_SUIT, P_TRUMP_CARD, P_KNOWN, P_ATTACKER,
       P_DEFENDER, P_ORIGINAL, P_HAND_SIZES, P_IN_STOCK, P_STOCK, P_LIMIT, P_FIRST_ROUND,
       P_STARTS };

static PyObject *Core_pieces(Core *self, PyObject *args)
{
    int seat, playing;
    PyObject *starts;
    if (!PyArg_ParseTuple(args, "iO!p", &seat, &PyTuple_Type, &starts, &playing))
        return NULL;
    const dk_state *s = &self->s;
    int players = self->r.players;
    if (seat < 0 || seat >= players || PyTuple_GET_SIZE(starts) != P_STARTS) {
        PyErr_SetString(PyExc_ValueError, "a seat of the game, and one start per piece");
        return NULL;
    }
    long long at[P_STARTS];
    for (int i = 0; i < P_STARTS; i++) {
        at[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(starts, i));
        if (at[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    ct_mask played = 0, beaten = 0, defences = 0;
    for (int i = 0; i < s->natt; i++)
        played |= BIT(s->att[i]);
    for (int i = 0; i < s->nbeats; i++) {
        beaten |= BIT(s->beat_a[i]);
        defences |= BIT(s->beat_d[i]);
    }
    ct_mask seats = ((ct_mask)1 << players) - 1;
    long long pairs[2 * (P_STARTS + 2 * MAX_SEATS)];
    int n = 0;
#define PIECE(start, mask) (pairs[n++] = (start), pairs[n++] = (long long)(mask))
    PIECE(at[P_PLAYER], (ct_mask)1 << seat);
    PIECE(at[P_HAND], s->hands[seat]);
    PIECE(at[P_UNBEATEN], played & ~beaten);
    PIECE(at[P_BEATEN], beaten);
    PIECE(at[P_DEFENCES], defences);
    PIECE(at[P_DISCARD], s->discard);
    PIECE(at[P_PHASE], (ct_mask)1 << s->phase);
    PIECE(at[P_SHOWN], s->shown);
    PIECE(at[P_PASSED], (ct_mask)s->passed & seats);
    PIECE(at[P_OUT], (ct_mask)s->out & seats);
    if (playing && s->phase != OVER && s->to_move >= 0)
        PIECE(at[P_TO_MOVE], (ct_mask)1 << s->to_move);
    if (s->trump_card >= 0) {
        PIECE(at[P_TRUMP_SUIT], (ct_mask)1 << (s->trump_card % 4));
        PIECE(at[P_TRUMP_CARD], BIT(s->trump_card));
    }
    for (int i = 0; i < players; i++)
        PIECE(at[P_KNOWN] + 52 * i, s->known[i]);
    if (s->phase != OVER) {
        if (s->attacker >= 0)
            PIECE(at[P_ATTACKER], (ct_mask)1 << s->attacker);
        if (s->defender >= 0)
            PIECE(at[P_DEFENDER], (ct_mask)1 << s->defender);
        if (s->orig >= 0)
            PIECE(at[P_ORIGINAL], (ct_mask)1 << s->orig);
    }
#undef PIECE
    int stock = s->stock_len - s->drawn;
    PyObject *masks = PyTuple_New(n);
    PyObject *values = PyTuple_New(2 * (4 + players));
    if (masks == NULL || values == NULL)
        goto fail;
    for (int i = 0; i < n; i++) {
        PyObject *item = (i % 2) ? PyLong_FromUnsignedLongLong((unsigned long long)pairs[i])
                                 : PyLong_FromLongLong(pairs[i]);
        if (item == NULL)
            goto fail;
        PyTuple_SET_ITEM(masks, i, item);
    }
    long long value_pairs[2 * (4 + MAX_SEATS)] = {
        at[P_IN_STOCK], stock > 0, at[P_STOCK], stock, at[P_LIMIT], s->limit,
        at[P_FIRST_ROUND], s->round == 1};
    for (int i = 0; i < players; i++) {
        value_pairs[8 + 2 * i] = at[P_HAND_SIZES] + i;
        value_pairs[9 + 2 * i] = __builtin_popcountll(s->hands[i]);
    }
    for (int i = 0; i < 2 * (4 + players); i++) {
        PyObject *item = PyLong_FromLongLong(value_pairs[i]);
        if (item == NULL)
            goto fail;
        PyTuple_SET_ITEM(values, i, item);
    }
    return Py_BuildValue("(NN)", masks, values);
fail:
    Py_XDECREF(masks);
    Py_XDECREF(values);
    return NULL;
}

static int find_legal(Core *self, PyObject *move)
{
    ensure_legal(self);
    for (int i = 0; i < self->nlegal; i++)
        if (PyTuple_GET_ITEM(MOVES, self->legal[i]) == move)
            return self->legal[i];
    return -1;
}

static int play(Core *self, int number)
{
    if (reserve(self, self->nmoves + 1) < 0)
        return -1;
    self->saved[self->nmoves] = self->s;
    self->moves[self->nmoves++] = (int16_t)number;
    apply(&self->r, &self->s, number);
    self->nlegal = -1;
    return 0;
}

/* push(move, *, seat=None): a legal Move is played here; anything else (text, a seat to
 * check, a move not legal now) goes through Python's ``_refused``, which raises what the
 * pure engine raises or returns the legal move the text names. */
static PyObject *Core_push(Core *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    PyObject *move = NULL, *seat = Py_None;
    if (check_bound() < 0)
        return NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs == 1)
        move = args[0];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "seat") == 0)
            seat = args[nargs + i];
        else if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, "move") == 0
                 && move == NULL)
            move = args[nargs + i];
        else
            move = NULL, nargs = -1;
    }
    if (move == NULL || nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "push() takes a move and, by keyword, a seat");
        return NULL;
    }
    int number = seat == Py_None ? find_legal(self, move) : -1;
    if (number < 0) {
        PyObject *checked = PyObject_CallMethod((PyObject *)self, "_refused", "OO", move, seat);
        if (checked == NULL)
            return NULL;
        number = find_legal(self, checked);
        if (number < 0) {
            PyObject *error = PyObject_GetAttrString((PyObject *)self, "_not_a_move");
            if (error != NULL) {
                PyObject *result = PyObject_CallOneArg(error, checked);
                Py_XDECREF(result);
                Py_DECREF(error);
            }
            Py_DECREF(checked);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "not a Durak move");
            return NULL;
        }
        Py_DECREF(checked);
    }
    if (play(self, number) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* -- the research episode's step and tensor (cardtable/adapters/durak.py) ------------------ */

/* The cards on the table: every attack card and every beater. */
static ct_mask table_cards(const dk_state *s)
{
    ct_mask mask = 0;
    for (int i = 0; i < s->natt; i++)
        mask |= BIT(s->att[i]);
    for (int i = 0; i < s->nbeats; i++)
        mask |= BIT(s->beat_d[i]);
    return mask;
}

/* list[i] |= mask (a list of ints, one per seat): 0, or -1 with an error. */
static int or_into(PyObject *list, int i, ct_mask mask)
{
    if (!mask)
        return 0;
    unsigned long long now = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, i));
    if (now == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    PyObject *value = PyLong_FromUnsignedLongLong(now | mask);
    if (value == NULL)
        return -1;
    PyList_SetItem(list, i, value);
    return 0;
}

static int set_mask(PyObject *list, int i, ct_mask mask)
{
    PyObject *value = PyLong_FromUnsignedLongLong(mask);
    if (value == NULL)
        return -1;
    PyList_SetItem(list, i, value);
    return 0;
}

/* _legal_actions(): the legal moves' numbers (the research actions), ascending. */
static PyObject *Core_legal_actions(Core *self, PyObject *Py_UNUSED(ignored))
{
    ensure_legal(self);
    int16_t sorted[MAX_LEGAL];
    int n = self->nlegal;
    for (int i = 0; i < n; i++) {   /* insertion sort: the list is short and nearly sorted */
        int16_t x = self->legal[i];
        int k = i;
        while (k > 0 && sorted[k - 1] > x) {
            sorted[k] = sorted[k - 1];
            k--;
        }
        sorted[k] = x;
    }
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *item = PyLong_FromLong(sorted[i]);
        if (item == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *episode_play(Core *self, int action, PyObject *played, PyObject *taken,
                              PyObject *drawn, PyObject *hands);

/* _episode_push(action, played, taken, drawn, hands): the Durak episode's step (what
 * DurakEpisode._push does with a Move, the reference) in one call.  Plays the legal move
 * numbered ``action`` and keeps the episode's per-seat lists of masks: the cards each seat
 * played, took from the table and drew, and each hand.  Returns the episode's log entry
 * (seat, move, draws): draws is () unless the move closed a round or exchanged a trump,
 * then each seat's drawn cards.  None, with nothing changed, for an action not legal now. */
static PyObject *Core_episode_push(Core *self, PyObject *args)
{
    int action;
    PyObject *played, *taken, *drawn, *hands;
    if (!PyArg_ParseTuple(args, "iO!O!O!O!", &action, &PyList_Type, &played, &PyList_Type,
                          &taken, &PyList_Type, &drawn, &PyList_Type, &hands))
        return NULL;
    if (check_bound() < 0)
        return NULL;
    int n = self->r.players;
    if (PyList_GET_SIZE(played) != n || PyList_GET_SIZE(taken) != n
        || PyList_GET_SIZE(drawn) != n || PyList_GET_SIZE(hands) != n) {
        PyErr_SetString(PyExc_ValueError, "one mask per seat in each list");
        return NULL;
    }
    ensure_legal(self);
    int found = 0;
    for (int i = 0; i < self->nlegal && !found; i++)
        found = self->legal[i] == action;
    if (!found)
        Py_RETURN_NONE;
    return episode_play(self, action, played, taken, drawn, hands);
}

/* Play the legal move ``action`` and keep the episode's lists (Core._episode_push, after
 * its checks): the log entry, or NULL with an error. */
static PyObject *episode_play(Core *self, int action, PyObject *played, PyObject *taken,
                              PyObject *drawn, PyObject *hands)
{
    int n = self->r.players;
    int seat = self->s.to_move;
    if (play(self, action) < 0)
        return NULL;
    const dk_state *b = &self->saved[self->nmoves - 1], *s = &self->s;
    ct_mask own = 0;
    int8_t cards[4];
    if (action >= DK_ATTACK && action < DK_TRANSFER)
        group_cards(action, DK_ATTACK, cards, &own);
    else if (action >= DK_TRANSFER && action < DK_SHOW)
        group_cards(action, DK_TRANSFER, cards, &own);
    else if (action >= DK_DEFEND)
        own = BIT((action - DK_DEFEND) % 52);
    if (or_into(played, seat, own) < 0 || set_mask(hands, seat, s->hands[seat]) < 0)
        return NULL;
    PyObject *draws;
    ct_mask table_before = table_cards(b);
    int exchange = action >= DK_EXCHANGE && action < DK_DEFEND;
    if (exchange || (table_before && (s->phase == LEAD || s->phase == OVER))) {
        ct_mask left_stock = stock_between(b, b->drawn, b->stock_len)
                             & ~stock_between(s, s->drawn, s->stock_len);
        draws = PyTuple_New(n);
        if (draws == NULL)
            return NULL;
        for (int other = 0; other < n; other++) {
            ct_mask before = b->hands[other] & ~(other == seat ? own : 0);
            ct_mask gained = s->hands[other] & ~before;
            ct_mask got = gained & left_stock;
            PyObject *item = PyLong_FromUnsignedLongLong(got);
            if (item == NULL || or_into(taken, other, gained & table_before) < 0
                || or_into(drawn, other, got) < 0 || set_mask(hands, other, s->hands[other]) < 0) {
                Py_XDECREF(item);
                Py_DECREF(draws);
                return NULL;
            }
            PyTuple_SET_ITEM(draws, other, item);
        }
    } else {
        draws = PyTuple_New(0);
        if (draws == NULL)
            return NULL;
    }
    return Py_BuildValue("(iON)", seat, PyTuple_GET_ITEM(MOVES, action), draws);
}

static void write_view(const Core *self, ct_tensor *t, int seat, const long long *at,
                       int playing, const long long *recall_at,
                       ct_mask recall_masks[3][MAX_SEATS]);

/* _tensor(out, seat, starts, playing, recall): a seat's view once the deal is over (the
 * pieces ``_pieces`` gives) written in one call: into ``out``, a float32 buffer (None back),
 * or, when ``out`` is a size, into a new list of floats.  ``recall`` is None for the
 * observation, or for the information state (played, taken, drawn starts, then the
 * episode's played, taken and drawn lists of masks). */
static PyObject *Core_tensor(Core *self, PyObject *args)
{
    int seat, playing;
    PyObject *out, *starts, *recall;
    if (!PyArg_ParseTuple(args, "OiO!pO", &out, &seat, &PyTuple_Type, &starts, &playing,
                          &recall))
        return NULL;
    int players = self->r.players;
    if (seat < 0 || seat >= players || PyTuple_GET_SIZE(starts) != P_STARTS
        || (recall != Py_None && (!PyTuple_Check(recall) || PyTuple_GET_SIZE(recall) != 6))) {
        PyErr_SetString(PyExc_ValueError, "a seat of the game, one start per piece, and the "
                        "recall as None or six items");
        return NULL;
    }
    long long at[P_STARTS], recall_at[3] = {0, 0, 0};
    ct_mask recall_masks[3][MAX_SEATS];
    for (int i = 0; i < P_STARTS; i++) {
        at[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(starts, i));
        if (at[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    if (recall != Py_None)
        for (int k = 0; k < 3; k++) {
            recall_at[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(recall, k));
            PyObject *list = PyTuple_GET_ITEM(recall, 3 + k);
            if (!PyList_Check(list) || PyList_GET_SIZE(list) != players) {
                PyErr_SetString(PyExc_ValueError, "one recall mask per seat");
                return NULL;
            }
            for (int i = 0; i < players; i++)
                recall_masks[k][i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(list, i));
            if (PyErr_Occurred())
                return NULL;
        }
    ct_tensor t;
    if (ct_tensor_open(out, &t) < 0)
        return NULL;
    write_view(self, &t, seat, at, playing, recall != Py_None ? recall_at : NULL, recall_masks);
    return ct_tensor_close(&t);
}

/* Write a seat's view (Core._tensor) into a zeroed tensor; recall_at NULL for the
 * observation. */
static void write_view(const Core *self, ct_tensor *t, int seat, const long long *at,
                       int playing, const long long *recall_at,
                       ct_mask recall_masks[3][MAX_SEATS])
{
    const dk_state *s = &self->s;
    int players = self->r.players;
    ct_mask played = 0, beaten = 0, defences = 0;
    for (int i = 0; i < s->natt; i++)
        played |= BIT(s->att[i]);
    for (int i = 0; i < s->nbeats; i++) {
        beaten |= BIT(s->beat_a[i]);
        defences |= BIT(s->beat_d[i]);
    }
    ct_mask seats = ((ct_mask)1 << players) - 1;
    ct_tensor_bits(t, at[P_PLAYER], (ct_mask)1 << seat);
    ct_tensor_bits(t, at[P_HAND], s->hands[seat]);
    ct_tensor_bits(t, at[P_UNBEATEN], played & ~beaten);
    ct_tensor_bits(t, at[P_BEATEN], beaten);
    ct_tensor_bits(t, at[P_DEFENCES], defences);
    ct_tensor_bits(t, at[P_DISCARD], s->discard);
    ct_tensor_bits(t, at[P_PHASE], (ct_mask)1 << s->phase);
    ct_tensor_bits(t, at[P_SHOWN], s->shown);
    ct_tensor_bits(t, at[P_PASSED], (ct_mask)s->passed & seats);
    ct_tensor_bits(t, at[P_OUT], (ct_mask)s->out & seats);
    if (playing && s->phase != OVER && s->to_move >= 0)
        ct_tensor_bits(t, at[P_TO_MOVE], (ct_mask)1 << s->to_move);
    if (s->trump_card >= 0) {
        ct_tensor_bits(t, at[P_TRUMP_SUIT], (ct_mask)1 << (s->trump_card % 4));
        ct_tensor_bits(t, at[P_TRUMP_CARD], BIT(s->trump_card));
    }
    for (int i = 0; i < players; i++)
        ct_tensor_bits(t, at[P_KNOWN] + 52 * i, s->known[i]);
    if (s->phase != OVER) {
        if (s->attacker >= 0)
            ct_tensor_bits(t, at[P_ATTACKER], (ct_mask)1 << s->attacker);
        if (s->defender >= 0)
            ct_tensor_bits(t, at[P_DEFENDER], (ct_mask)1 << s->defender);
        if (s->orig >= 0)
            ct_tensor_bits(t, at[P_ORIGINAL], (ct_mask)1 << s->orig);
    }
    int stock = s->stock_len - s->drawn;
    ct_tensor_set(t, at[P_IN_STOCK], stock > 0);
    ct_tensor_set(t, at[P_STOCK], stock);
    ct_tensor_set(t, at[P_LIMIT], s->limit);
    ct_tensor_set(t, at[P_FIRST_ROUND], s->round == 1);
    for (int i = 0; i < players; i++)
        ct_tensor_set(t, at[P_HAND_SIZES] + i, __builtin_popcountll(s->hands[i]));
    if (recall_at != NULL) {
        for (int i = 0; i < players; i++) {
            ct_tensor_bits(t, recall_at[0] + 52 * i, recall_masks[0][i]);
            ct_tensor_bits(t, recall_at[1] + 52 * i, recall_masks[1][i]);
        }
        ct_tensor_bits(t, recall_at[2], recall_masks[2][seat]);
    }
}

static PyObject *Core_pop(Core *self, PyObject *Py_UNUSED(ignored))
{
    if (check_bound() < 0)
        return NULL;
    if (!self->nmoves) {
        PyErr_SetString(PyExc_IndexError, "no move to undo");
        return NULL;
    }
    self->nmoves--;
    self->s = self->saved[self->nmoves];
    self->nlegal = -1;
    return move_object(self->moves[self->nmoves]);
}

static PyObject *Core_copy(Core *self, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames)
{
    int stack = 1;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs != 0 || nkw > 1 || (nkw == 1 && PyUnicode_CompareWithASCIIString(
                                      PyTuple_GET_ITEM(kwnames, 0), "stack") != 0)) {
        PyErr_SetString(PyExc_TypeError, "copy() takes only the keyword stack");
        return NULL;
    }
    if (nkw == 1 && (stack = PyObject_IsTrue(args[0])) < 0)
        return NULL;
    PyTypeObject *type = Py_TYPE(self);
    Core *other = (Core *)type->tp_alloc(type, 0);
    if (other == NULL)
        return NULL;
    other->r = self->r;
    other->s = self->s;
    other->nlegal = self->nlegal;
    memcpy(other->legal, self->legal, sizeof self->legal);
    other->rules = Py_XNewRef(self->rules);
    other->deck = Py_XNewRef(self->deck);
    other->dealer = Py_XNewRef(self->dealer);
    other->previous_loser = Py_XNewRef(self->previous_loser);
    if (stack && self->nmoves) {
        if (reserve(other, self->nmoves) < 0) {
            Py_DECREF(other);
            return NULL;
        }
        memcpy(other->moves, self->moves, (size_t)self->nmoves * sizeof *self->moves);
        memcpy(other->saved, self->saved, (size_t)self->nmoves * sizeof *self->saved);
        other->nmoves = self->nmoves;
    }
    return (PyObject *)other;
}

/* -- pickling: the struct as bytes (the same build at both ends, as a worker process) -- */

static int state_ok(const dk_rules *r, const dk_state *s)
{
    int n = r->players;
    if (s->phase < LEAD || s->phase > OVER || s->natt < 0 || s->natt > MAX_TABLE
        || s->nbeats < 0 || s->nbeats > MAX_TABLE || s->stock_len < 0 || s->stock_len > 52
        || s->drawn < 0 || s->drawn > s->stock_len || s->trump_card < -1 || s->trump_card > 51
        || s->cap_now < 0 || s->cap_now > ROUND_LIMIT || s->loser < -1 || s->loser >= n)
        return 0;
    const int8_t seats[] = {s->attacker, s->defender, s->orig, s->to_move};
    for (int i = 0; i < 4; i++)
        if (seats[i] < 0 || seats[i] >= n)
            return 0;
    for (int i = 0; i < s->natt; i++)
        if (s->att[i] < 0 || s->att[i] > 51)
            return 0;
    for (int i = 0; i < s->nbeats; i++)
        if (s->beat_a[i] < 0 || s->beat_a[i] > 51 || s->beat_d[i] < 0 || s->beat_d[i] > 51)
            return 0;
    for (int i = 0; i < s->stock_len; i++)
        if (s->stock[i] < 0 || s->stock[i] > 51)
            return 0;
    return 1;
}

static int rules_ok(const dk_rules *r)
{
    if (r->players < 2 || r->players > MAX_SEATS || r->teams < 1 || r->teams > r->players
        || r->trump < 0 || r->trump > 3 || (r->lowest != 2 && r->lowest != 6 && r->lowest != 9))
        return 0;
    for (int seat = 0; seat < r->players; seat++)
        if (r->team[seat] < 0 || r->team[seat] >= r->teams)
            return 0;
    return 1;
}

static PyObject *Core_getstate(Core *self, PyObject *Py_UNUSED(ignored))
{
    size_t head = sizeof self->r + sizeof self->s, each = sizeof(int16_t) + sizeof(dk_state);
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(head + each * (size_t)self->nmoves));
    if (out == NULL)
        return NULL;
    char *at = PyBytes_AS_STRING(out);
    memcpy(at, &self->r, sizeof self->r);
    memcpy(at + sizeof self->r, &self->s, sizeof self->s);
    at += head;
    if (self->nmoves) {
        memcpy(at, self->moves, sizeof(int16_t) * (size_t)self->nmoves);
        memcpy(at + sizeof(int16_t) * (size_t)self->nmoves, self->saved,
               sizeof(dk_state) * (size_t)self->nmoves);
    }
    return out;
}

static PyObject *Core_setstate(Core *self, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "a pickled durak game's state is bytes");
        return NULL;
    }
    size_t head = sizeof self->r + sizeof self->s, each = sizeof(int16_t) + sizeof(dk_state);
    size_t size = (size_t)PyBytes_GET_SIZE(arg);
    if (size < head || (size - head) % each) {
        PyErr_SetString(PyExc_ValueError, "not a durak game's state (pickled by another build?)");
        return NULL;
    }
    Py_ssize_t nmoves = (Py_ssize_t)((size - head) / each);
    const char *at = PyBytes_AS_STRING(arg);
    dk_rules r;
    dk_state s;
    memcpy(&r, at, sizeof r);
    memcpy(&s, at + sizeof r, sizeof s);
    at += head;
    int ok = rules_ok(&r) && state_ok(&r, &s);
    for (Py_ssize_t i = 0; ok && i < nmoves; i++) {
        int16_t move;
        dk_state saved;
        memcpy(&move, at + sizeof(int16_t) * (size_t)i, sizeof move);
        memcpy(&saved, at + sizeof(int16_t) * (size_t)nmoves + sizeof saved * (size_t)i,
               sizeof saved);
        ok = move >= 0 && move < DK_MOVES && state_ok(&r, &saved);
    }
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a durak game's state (pickled by another build?)");
        return NULL;
    }
    if (reserve(self, nmoves) < 0)
        return NULL;
    self->r = r;
    self->s = s;
    if (nmoves) {
        memcpy(self->moves, at, sizeof(int16_t) * (size_t)nmoves);
        memcpy(self->saved, at + sizeof(int16_t) * (size_t)nmoves,
               sizeof(dk_state) * (size_t)nmoves);
    }
    self->nmoves = nmoves;
    self->nlegal = -1;
    Py_RETURN_NONE;
}

/* -- the bots' playout policy ------------------------------------------------------------ */

/* The Durak kit's ``tactics`` (cardtable/bots/durak_kit.py) written again move for move:
 * lead low cards, low pairs together and trumps last; transfer with a plain card; beat the
 * whole attack as cheaply as possible, but take when that costs a trump too dear while the
 * stock lasts; throw in low plain cards.  The kit's tests compare the two on many positions. */

#define SHED 9

static int VALUE[4][52];   /* how much a card is worth holding: trumps above plain cards */
static int PLACE[4][52];   /* a card's place in the hand order, cheapest first */

static void tactics_tables(void)
{
    for (int trump = 0; trump < 4; trump++) {
        for (int c = 0; c < 52; c++)
            VALUE[trump][c] = strength(c) + ((c & 3) == trump ? 7 : 0);
        for (int c = 0; c < 52; c++) {   /* by (value, is trump, strength, suit) */
            int place = 0;
            for (int o = 0; o < 52; o++) {
                int vo = VALUE[trump][o], vc = VALUE[trump][c];
                int to = (o & 3) == trump, tc = (c & 3) == trump;
                if (vo < vc || (vo == vc && (to < tc || (to == tc && (strength(o) < strength(c)
                    || (strength(o) == strength(c) && (o & 3) < (c & 3)))))))
                    place++;
            }
            PLACE[trump][c] = place;
        }
    }
}

static inline int is_attack(int m) { return m >= DK_ATTACK && m < DK_TRANSFER; }
static inline int is_transfer(int m) { return m >= DK_TRANSFER && m < DK_SHOW; }

static double lead_cost(int move, const int *value, int trump, int stock)
{
    int8_t cards[4];
    ct_mask mask;
    int n = group_cards(move, DK_ATTACK, cards, &mask), sum = 0, trumps = 0;
    for (int i = 0; i < n; i++) {
        sum += value[cards[i]];
        trumps |= (cards[i] & 3) == trump;
    }
    double cost = (double)sum / n;
    if (trumps)
        cost += stock ? 8 : 2;
    else if (cost <= 11 || !stock)
        cost -= 2.5 * (n - 1);
    else
        cost += 1.5 * (n - 1);
    return cost;
}

typedef struct {
    int attacks[MAX_TABLE], options[MAX_TABLE][52], noptions[MAX_TABLE];
    int count, best_cost, best_plan[MAX_TABLE], plan[MAX_TABLE];
    const int *value;
} dk_cover;

static void cover_walk(dk_cover *c, int k, ct_mask used, int cost)
{
    if (cost >= c->best_cost)
        return;
    if (k == c->count) {
        c->best_cost = cost;
        memcpy(c->best_plan, c->plan, sizeof c->plan);
        return;
    }
    for (int i = 0; i < c->noptions[k]; i++) {
        int beater = c->options[k][i];
        if (!(used & BIT(beater))) {
            c->plan[k] = beater;
            cover_walk(c, k + 1, used | BIT(beater), cost + c->value[beater] - SHED);
        }
    }
}

/* ``_cheapest_cover``: the cheapest way to beat every unbeaten card; returns 0 if there is
 * none, else fills the first (attack, beater) of the plan and its dearest beater's worth. */
static int cheapest_cover(const dk_state *s, ct_mask hand, const dk_rules *r, const int *value,
                          int *first_attack, int *first_beater, int *dearest)
{
    dk_cover c;
    c.count = 0;
    c.value = value;
    for (int i = 0; i < s->natt; i++)
        if (s->open & BIT(s->att[i])) {   /* a stable sort by worth, dearest first */
            int a = s->att[i], k = c.count++;
            while (k > 0 && value[c.attacks[k - 1]] < value[a]) {
                c.attacks[k] = c.attacks[k - 1];
                k--;
            }
            c.attacks[k] = a;
        }
    const int *place = PLACE[r->trump];
    for (int k = 0; k < c.count; k++) {
        ct_mask mask = hand & r->beaters[c.attacks[k]];
        if (!mask)
            return 0;
        int n = 0;
        while (mask) {   /* insertion by place: cheapest first */
            int card = ct_low(mask), j = n++;
            mask &= mask - 1;
            while (j > 0 && place[c.options[k][j - 1]] > place[card]) {
                c.options[k][j] = c.options[k][j - 1];
                j--;
            }
            c.options[k][j] = card;
        }
        c.noptions[k] = n;
    }
    if (c.count == 2) {
        int best_cost = INT_MAX, one_best = -1, two_best = -1;
        int floor = value[c.options[1][0]];
        for (int i = 0; i < c.noptions[0]; i++) {
            int one = c.options[0][i], cost = value[one];
            if (cost + floor >= best_cost)
                break;
            int two = c.options[1][0] != one ? c.options[1][0]
                      : c.noptions[1] > 1 ? c.options[1][1] : -1;
            if (two >= 0 && cost + value[two] < best_cost) {
                best_cost = cost + value[two];
                one_best = one;
                two_best = two;
            }
        }
        if (one_best < 0)
            return 0;
        *first_attack = c.attacks[0];
        *first_beater = one_best;
        *dearest = value[one_best] > value[two_best] ? value[one_best] : value[two_best];
        return 1;
    }
    c.best_cost = INT_MAX;
    cover_walk(&c, 0, 0, 0);
    if (c.best_cost == INT_MAX)
        return 0;
    *first_attack = c.attacks[0];
    *first_beater = c.best_plan[0];
    *dearest = 0;
    for (int k = 0; k < c.count; k++)
        if (value[c.best_plan[k]] > *dearest)
            *dearest = value[c.best_plan[k]];
    return 1;
}

static int defend_fast(const dk_rules *r, const dk_state *s, const int16_t *moves, int n,
                       const int *value, int stock, int dear)
{
    int trump = r->trump, transfer = -1, transfer_len = 99, transfer_value = 99;
    int take = moves[n - 1], cheapest = -1, cheapest_value = 999;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        if (m >= DK_DEFEND) {
            int beater = (m - DK_DEFEND) % 52;
            int v = 2 * value[beater] + ((beater & 3) == trump);
            if (v < cheapest_value) {
                cheapest = m;
                cheapest_value = v;
            }
        } else if (m >= DK_SHOW && m < DK_EXCHANGE) {
            return m;   /* a free gain: the attack passed on, the card kept */
        } else if (is_transfer(m)) {
            int8_t cards[4];
            ct_mask mask;
            int count = group_cards(m, DK_TRANSFER, cards, &mask);
            if (!(mask & SUIT_MASK(trump))) {
                int v = value[cards[0]];
                if (count < transfer_len || (count == transfer_len && v < transfer_value)) {
                    transfer = m;
                    transfer_len = count;
                    transfer_value = v;
                }
            }
        } else if (m == DK_TAKE) {
            take = m;
        }
    }
    if (transfer >= 0)
        return transfer;
    int plan_value = -1;
    ct_mask open = s->open;
    if (cheapest < 0) {
        plan_value = -1;
    } else if ((open & (open - 1)) == 0) {
        plan_value = cheapest_value / 2;
    } else {
        int attack, beater, dearest;
        if (cheapest_cover(s, s->hands[s->to_move], r, value, &attack, &beater, &dearest)) {
            plan_value = dearest;
            cheapest = DK_DEFEND + 52 * attack + beater;
        } else {
            plan_value = -1;
        }
    }
    if (plan_value < 0 || cheapest < 0) {
        if (stock == 0) {
            int best = -1, best_value = 0;
            for (int i = 0; i < n; i++) {
                int m = moves[i];
                if (is_transfer(m) || (m >= DK_SHOW && m < DK_EXCHANGE)) {
                    int first = is_transfer(m) ? 4 * ((m - DK_TRANSFER) / 15)
                                + __builtin_ctz((unsigned)((m - DK_TRANSFER) % 15 + 1))
                                : m - DK_SHOW;
                    if (best < 0 || value[first] < best_value) {
                        best = m;
                        best_value = value[first];
                    }
                }
            }
            if (best >= 0)
                return best;
        }
        return take;
    }
    if (stock && plan_value > dear + (stock < 6 ? 2 : 0))
        return take;
    return cheapest;
}

/* The kit's ``tactics``: the move it plays here (no randomness). */
static int tactics(const dk_rules *r, const dk_state *s, const int16_t *moves, int n, int dear)
{
    int last = moves[n - 1];
    if (n == 1 || (last >= DK_EXCHANGE && last < DK_DEFEND))
        return last;
    int trump = r->trump;
    const int *value = VALUE[trump];
    int stock = s->stock_len - s->drawn;
    if (s->phase == LEAD) {
        int best = moves[0];
        double best_cost = HUGE_VAL;
        for (int i = 0; i < n; i++) {
            if (!is_attack(moves[i]))
                continue;
            double cost = lead_cost(moves[i], value, trump, stock);
            if (cost < best_cost) {
                best = moves[i];
                best_cost = cost;
            }
        }
        return best;
    }
    if (s->phase == DEFEND)
        return defend_fast(r, s, moves, n, value, stock, dear);
    int limit = stock > 10 ? 10 : stock ? 12 : 14;
    int taking = s->phase == TAKING, held = ct_count(s->hands[s->to_move]);
    int best = last, best_len = -1, best_worst = 0;
    for (int i = 0; i < n; i++)
        if (moves[i] == DK_PASS) {
            best = DK_PASS;
            break;
        }
    for (int i = 0; i < n; i++) {
        if (!is_attack(moves[i]))
            continue;
        int8_t cards[4];
        ct_mask mask;
        int count = group_cards(moves[i], DK_ATTACK, cards, &mask), worst = 0;
        for (int k = 0; k < count; k++)
            if (value[cards[k]] > worst)
                worst = value[cards[k]];
        if (mask & SUIT_MASK(trump)) {
            if (!(stock == 0 && held <= count + 1 && !taking))
                continue;
        } else if (worst > limit) {
            continue;
        }
        /* key (count, -worst): more cards first, then the cheaper */
        if (best_len < 0 || count > best_len || (count == best_len && -worst > -best_worst)) {
            best = moves[i];
            best_len = count;
            best_worst = worst;
        }
    }
    return best;
}

/* -- playouts ------------------------------------------------------------------------------ */

#define PLAYOUT_MOVES 1000000   /* never reached: max_rounds ends a game first */

enum { POLICY_RANDOM, POLICY_TACTICS };

/* One move of a playout policy (the random one, or the kit's: tactics and now and then a
 * uniform move, as DurakKit.playout). */
static int choose(const dk_rules *r, const dk_state *s, const int16_t *legal, int n,
                  int policy, int dear, ct_rng *rng)
{
    if (policy == POLICY_RANDOM || ct_unit(rng) < 0.05)
        return legal[ct_below(rng, (uint32_t)n)];
    return tactics(r, s, legal, n, dear);
}

/* Play ``s`` out (to the end, ``limit`` moves, or the start of a round past
 * ``last_round`` when that is 0 or more); returns the moves played. */
static long play_out(const dk_rules *r, dk_state *s, int policy, long limit, int dear,
                     long long last_round, ct_rng *rng)
{
    int16_t legal[MAX_LEGAL];
    long moves = 0;
    while (s->phase != OVER && moves < limit && (last_round < 0 || s->round <= last_round)) {
        int n = gen_legal(r, s, legal);
        apply(r, s, choose(r, s, legal, n, policy, dear, rng));
        moves++;
    }
    return moves;
}

/* playout(seed, policy=0, limit=0, dear=19): play from this state to the end of the game
 * (or ``limit`` moves) all in C, leaving this game unchanged: (the durak or None, moves
 * played, over).  Policy 0 is uniform random, 1 the Durak kit's playout policy. */
static PyObject *Core_playout(Core *self, PyObject *args)
{
    unsigned long long seed;
    int policy = POLICY_RANDOM, dear = 19;
    long limit = 0;
    if (!PyArg_ParseTuple(args, "K|ili", &seed, &policy, &limit, &dear))
        return NULL;
    if (policy != POLICY_RANDOM && policy != POLICY_TACTICS) {
        PyErr_Format(PyExc_ValueError, "no playout policy %d", policy);
        return NULL;
    }
    dk_state s = self->s;
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    long moves = play_out(&self->r, &s, policy, limit > 0 ? limit : PLAYOUT_MOVES, dear, -1,
                          &rng);
    PyObject *loser = s.phase == OVER && s.loser >= 0 ? PyLong_FromLong(s.loser)
                                                      : Py_NewRef(Py_None);
    return Py_BuildValue("NlO", loser, moves, s.phase == OVER ? Py_True : Py_False);
}

/* _play_out(seed, policy, limit, dear, last_round): ``playout`` played on this game itself
 * (a copy the search made), stopping also at the start of a round past ``last_round`` if
 * that is 0 or more, so that Python values where it stopped; it cannot undo past here. */
static PyObject *Core_play_out_here(Core *self, PyObject *args)
{
    unsigned long long seed;
    int policy, dear;
    long limit;
    long long last_round;
    if (!PyArg_ParseTuple(args, "KiliL", &seed, &policy, &limit, &dear, &last_round))
        return NULL;
    if (policy != POLICY_RANDOM && policy != POLICY_TACTICS) {
        PyErr_Format(PyExc_ValueError, "no playout policy %d", policy);
        return NULL;
    }
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    long moves = play_out(&self->r, &self->s, policy, limit > 0 ? limit : PLAYOUT_MOVES, dear,
                          last_round, &rng);
    self->nmoves = 0;
    self->nlegal = -1;
    return PyLong_FromLong(moves);
}

/* The kit's tactics move here (no randomness), for the tests that hold it to the kit. */
static PyObject *Core_tactics(Core *self, PyObject *args)
{
    int dear = 19;
    if (!PyArg_ParseTuple(args, "|i", &dear) || check_bound() < 0)
        return NULL;
    ensure_legal(self);
    if (!self->nlegal)
        Py_RETURN_NONE;
    return move_object(tactics(&self->r, &self->s, self->legal, self->nlegal, dear));
}

/* playouts(seed, games, policy=0): many playouts from here, without the GIL:
 * (games, decisions, losses by seat, draws). */
static PyObject *Core_playouts(Core *self, PyObject *args)
{
    unsigned long long seed;
    long games;
    int policy = POLICY_RANDOM;
    if (!PyArg_ParseTuple(args, "Kl|i", &seed, &games, &policy))
        return NULL;
    if (policy != POLICY_RANDOM && policy != POLICY_TACTICS) {
        PyErr_Format(PyExc_ValueError, "no playout policy %d", policy);
        return NULL;
    }
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    long long decisions = 0, lost[MAX_SEATS] = {0}, draws = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long g = 0; g < games; g++) {
        dk_state s = self->s;
        decisions += play_out(&self->r, &s, policy, PLAYOUT_MOVES, 19, -1, &rng);
        if (s.phase == OVER && s.loser >= 0)
            lost[(int)s.loser]++;
        else
            draws++;
    }
    Py_END_ALLOW_THREADS
    PyObject *losses = PyTuple_New(self->r.players);
    if (losses == NULL)
        return NULL;
    for (int seat = 0; seat < self->r.players; seat++)
        PyTuple_SET_ITEM(losses, seat, PyLong_FromLongLong(lost[seat]));
    return Py_BuildValue("lLNL", games, decisions, losses, draws);
}

/* -- the judge's deals and rewards (cardtable.bots.durak_kit: fast_dealer, rewards) ----------- */

#define EVAL_FEATURES 15
static double EVAL_WEIGHTS[EVAL_FEATURES];   /* cardtable.durak.evaluation's, by ``weights`` */
static int EVAL_BOUND = 0;
static ct_mask EVAL_HIGH, EVAL_ACES_KINGS, EVAL_LOW;   /* evaluation.py's _HIGH, ... */

static void evaluation_tables(void)
{
    for (int card = 0; card < 52; card++) {
        int k = strength(card);
        if (k >= 11)
            EVAL_HIGH |= BIT(card);
        if (k >= 13)
            EVAL_ACES_KINGS |= BIT(card);
        if (k <= 8)
            EVAL_LOW |= BIT(card);
    }
}

/* The kit's rewards where a playout stopped (``DurakKit.rewards``), into ``out``: a game
 * over is +1 for every side but the durak's, -1 for the durak's (0 for all in a draw); a
 * game still on is 0 for all unless ``cut`` (a playout stopped at its horizon), and then
 * 1 - 2 x the side's chance of being the durak by the evaluation
 * (``evaluation.durak_chances``, the same sums in the same order, so the same doubles). */
static void dk_rewards(const dk_rules *r, const dk_state *s, int cut, double *out)
{
    int n = r->players;
    if (s->phase == OVER) {
        for (int seat = 0; seat < n; seat++)
            out[seat] = s->loser < 0 ? 0.0 : r->team[seat] == r->team[(int)s->loser] ? -1.0
                                                                                    : 1.0;
        return;
    }
    if (!cut) {
        for (int seat = 0; seat < n; seat++)
            out[seat] = 0.0;
        return;
    }
    const double *w = EVAL_WEIGHTS;
    int stock = s->stock_len - s->drawn;
    double empty = stock == 0 ? 1.0 : 0.0, share = stock / 24.0;
    ct_mask trumps_mask = SUIT_MASK(r->trump);
    double score[MAX_SEATS], chance[MAX_SEATS];
    int live[MAX_SEATS], any = 0;
    double top = 0.0;
    for (int seat = 0; seat < n; seat++) {
        ct_mask hand = s->hands[seat];
        live[seat] = hand || stock;
        if (!live[seat])
            continue;
        int cards = ct_count(hand);
        ct_mask trumps = hand & trumps_mask;
        int high = ct_count(trumps & EVAL_HIGH);
        int low = ct_count(trumps) - high;
        ct_mask plain = hand & ~trumps_mask;
        int aces_kings = ct_count(plain & EVAL_ACES_KINGS);
        int small = ct_count(plain & EVAL_LOW);
        double leads = seat == s->attacker ? 1.0 : 0.0;
        double x[EVAL_FEATURES] = {
            (double)cards, cards * empty, (double)(cards > 6 ? cards - 6 : 0), cards * share,
            (double)high, high * empty, (double)low, low * empty, (double)aces_kings,
            aces_kings * empty, (double)small, small * empty,
            seat == s->defender ? 1.0 : 0.0, leads, leads * empty};
        double sum = 0.0;
        for (int i = 0; i < EVAL_FEATURES; i++)
            sum += w[i] * x[i];
        score[seat] = sum;
        if (!any || sum > top)
            top = sum;
        any = 1;
    }
    double total = 0.0;
    for (int seat = 0; seat < n; seat++) {
        chance[seat] = any && live[seat] ? exp(score[seat] - top) : 0.0;
        total += chance[seat];
    }
    for (int seat = 0; seat < n; seat++)
        if (any)
            chance[seat] /= total;
    for (int me = 0; me < n; me++) {
        double side = 0.0;
        for (int seat = 0; seat < n; seat++)
            if (r->team[seat] == r->team[me])
                side += chance[seat];
        out[me] = 1.0 - 2.0 * side;
    }
}

static PyObject *rewards_tuple(const double *values, int n)
{
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (int seat = 0; seat < n; seat++) {
        PyObject *value = PyFloat_FromDouble(values[seat]);
        if (value == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, seat, value);
    }
    return out;
}

static int check_weighed(int cut)
{
    if (cut && !EVAL_BOUND) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the durak core has not been given the evaluation's weights");
        return -1;
    }
    return 0;
}

/* _rewards(cut): the kit's rewards of this state, a float a seat (``dk_rewards``). */
static PyObject *Core_rewards(Core *self, PyObject *arg)
{
    int cut = PyObject_IsTrue(arg);
    if (cut < 0 || check_weighed(cut) < 0)
        return NULL;
    double values[MAX_SEATS];
    dk_rewards(&self->r, &self->s, cut, values);
    return rewards_tuple(values, self->r.players);
}

/* The cards ``seat`` has not seen in ``s`` dealt afresh into ``out`` from a generator
 * seeded with ``seed``, as ``game.deal_unseen`` deals them: the cards known to be in a hand
 * stay there, every hand keeps its size, the stock's face-up bottom card stays last, and
 * the rest (the unseen cards, in a uniformly random order: Fisher-Yates) fill the hands
 * seat by seat, then the stock.  -1 (an AssertionError set) if the cards do not add up. */
static int deal_unseen_into(const dk_rules *r, const dk_state *s, int seat,
                            unsigned long long seed, dk_state *out)
{
    int remaining = s->stock_len - s->drawn;
    int bottom = remaining ? s->stock[s->stock_len - 1] : -1;
    ct_mask fixed = s->tmask | s->discard | s->hands[seat] | (bottom >= 0 ? BIT(bottom) : 0);
    for (int other = 0; other < r->players; other++)
        if (other != seat)
            fixed |= s->known[other] & s->hands[other];
    int8_t unseen[52];
    int count = 0;
    for (ct_mask rest = r->pack_mask & ~fixed; rest; rest &= rest - 1)
        unseen[count++] = (int8_t)ct_low(rest);
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    for (int i = count - 1; i > 0; i--) {
        int j = (int)ct_below(&rng, (uint32_t)(i + 1));
        int8_t card = unseen[i];
        unseen[i] = unseen[j];
        unseen[j] = card;
    }
    *out = *s;
    int at = 0;
    for (int other = 0; other < r->players; other++) {
        if (other == seat)
            continue;
        ct_mask kept = s->known[other] & s->hands[other];
        int need = ct_count(s->hands[other]) - ct_count(kept);
        for (int k = 0; k < need && at < count; k++)
            kept |= BIT(unseen[at++]);
        out->hands[other] = kept;
    }
    int size = 0;
    while (at < count && size < 52)
        out->stock[size++] = unseen[at++];
    if (bottom >= 0 && size < 52)
        out->stock[size++] = (int8_t)bottom;
    if (size != remaining || at != count) {   /* a broken invariant, not a state */
        PyErr_SetString(PyExc_AssertionError, "the deal lost track of the unseen cards");
        return -1;
    }
    out->stock_len = (int8_t)size;
    out->drawn = 0;
    return 0;
}

static int check_seat(const dk_rules *r, int seat)
{
    if (seat < 0 || seat >= r->players) {
        PyErr_Format(PyExc_ValueError, "no seat %d: seats are 0 to %d", seat, r->players - 1);
        return -1;
    }
    return 0;
}

/* _dealt(seat, seed): a game like this one (no undo, no deck) with the cards ``seat`` has
 * not seen dealt afresh (``deal_unseen_into``). */
static PyObject *Core_dealt(Core *self, PyObject *args)
{
    int seat;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iK", &seat, &seed) || check_seat(&self->r, seat) < 0)
        return NULL;
    dk_state dealt;
    if (deal_unseen_into(&self->r, &self->s, seat, seed, &dealt) < 0)
        return NULL;
    PyTypeObject *type = Py_TYPE(self);
    Core *other = (Core *)type->tp_alloc(type, 0);
    if (other == NULL)
        return NULL;
    other->r = self->r;
    other->s = dealt;
    other->nlegal = self->nlegal;   /* the seat to move and its hand are as they were */
    memcpy(other->legal, self->legal, sizeof self->legal);
    other->rules = Py_XNewRef(self->rules);
    other->deck = Py_NewRef(Py_None);
    other->dealer = Py_XNewRef(self->dealer);
    other->previous_loser = Py_XNewRef(self->previous_loser);
    return (PyObject *)other;
}

/* ``number`` played on a copy of ``s``, the rest played out (``play_out``), and the kit's
 * rewards where it stopped into ``out`` (cut where ``last_round`` is 0 or more). */
static void judge_move(const dk_rules *r, const dk_state *s, int number,
                       unsigned long long seed, int policy, long limit, int dear,
                       long long last_round, double *out)
{
    dk_state played = *s;
    apply(r, &played, number);
    ct_rng rng;
    ct_rng_seed(&rng, seed);
    play_out(r, &played, policy, limit > 0 ? limit : PLAYOUT_MOVES, dear, last_round, &rng);
    dk_rewards(r, &played, last_round >= 0, out);
}

static int check_policy(int policy)
{
    if (policy != POLICY_RANDOM && policy != POLICY_TACTICS) {
        PyErr_Format(PyExc_ValueError, "no playout policy %d", policy);
        return -1;
    }
    return 0;
}

/* _judged(move, seed, policy, limit, dear, last_round): ``move`` (a legal Move) played on
 * a copy of this game's state, the rest played out as ``_play_out`` plays it (stopping at
 * the start of a round past ``last_round`` when that is 0 or more), and the kit's rewards
 * there (``dk_rewards``, cut where ``last_round`` is 0 or more), this game unchanged: the
 * judge's playout of one move on one deal, with no Python object made but the rewards. */
static PyObject *Core_judged(Core *self, PyObject *args)
{
    PyObject *move;
    unsigned long long seed;
    int policy, dear;
    long limit;
    long long last_round;
    if (!PyArg_ParseTuple(args, "OKiliL", &move, &seed, &policy, &limit, &dear, &last_round)
        || check_bound() < 0 || check_weighed(last_round >= 0) < 0 || check_policy(policy) < 0)
        return NULL;
    int number = find_legal(self, move);
    if (number < 0) {
        PyErr_Format(PyExc_ValueError, "%R is not a legal move here", move);
        return NULL;
    }
    double values[MAX_SEATS];
    judge_move(&self->r, &self->s, number, seed, policy, limit, dear, last_round, values);
    return rewards_tuple(values, self->r.players);
}

/* _judged_deals(seat, seeds, moves, policy, limit, dear, last_round): for each pair of
 * seeds (deal, playout) in turn, the cards ``seat`` has not seen dealt as ``_dealt`` deals
 * them with the first, and each of ``moves`` (legal Moves here) valued on that deal as
 * ``_judged`` values it with the second: a list a move of ``seat``'s rewards, a float a
 * deal.  The same numbers as ``_dealt`` and ``_judged`` deal by deal, in one call. */
static PyObject *Core_judged_deals(Core *self, PyObject *args)
{
    int seat, policy, dear;
    PyObject *seeds, *moves;
    long limit;
    long long last_round;
    if (!PyArg_ParseTuple(args, "iO!O!iliL", &seat, &PyList_Type, &seeds, &PyTuple_Type,
                          &moves, &policy, &limit, &dear, &last_round)
        || check_bound() < 0 || check_seat(&self->r, seat) < 0
        || check_weighed(last_round >= 0) < 0 || check_policy(policy) < 0)
        return NULL;
    Py_ssize_t nseeds = PyList_GET_SIZE(seeds), nmoves = PyTuple_GET_SIZE(moves);
    if (nseeds % 2 || nmoves > MAX_LEGAL) {
        PyErr_SetString(PyExc_ValueError, "seeds come in pairs (deal, playout), moves are legal");
        return NULL;
    }
    int numbers[MAX_LEGAL];
    for (Py_ssize_t i = 0; i < nmoves; i++) {
        numbers[i] = find_legal(self, PyTuple_GET_ITEM(moves, i));
        if (numbers[i] < 0) {
            PyErr_Format(PyExc_ValueError, "%R is not a legal move here",
                         PyTuple_GET_ITEM(moves, i));
            return NULL;
        }
    }
    Py_ssize_t deals = nseeds / 2;
    unsigned long long *drawn = PyMem_Malloc((size_t)(nseeds ? nseeds : 1) * sizeof *drawn);
    PyObject *out = PyTuple_New(nmoves);
    if (drawn == NULL || out == NULL) {
        PyMem_Free(drawn);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < nseeds; i++) {
        drawn[i] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(seeds, i));
        if (drawn[i] == (unsigned long long)-1 && PyErr_Occurred())
            goto fail;
    }
    for (Py_ssize_t m = 0; m < nmoves; m++) {
        PyObject *list = PyList_New(deals);
        if (list == NULL)
            goto fail;
        PyTuple_SET_ITEM(out, m, list);
    }
    for (Py_ssize_t d = 0; d < deals; d++) {
        dk_state dealt;
        if (deal_unseen_into(&self->r, &self->s, seat, drawn[2 * d], &dealt) < 0)
            goto fail;
        for (Py_ssize_t m = 0; m < nmoves; m++) {
            double values[MAX_SEATS];
            judge_move(&self->r, &dealt, numbers[m], drawn[2 * d + 1], policy, limit, dear,
                       last_round, values);
            PyObject *value = PyFloat_FromDouble(values[seat]);
            if (value == NULL)
                goto fail;
            PyList_SET_ITEM(PyTuple_GET_ITEM(out, m), d, value);
        }
    }
    PyMem_Free(drawn);
    return out;
fail:
    PyMem_Free(drawn);
    Py_DECREF(out);
    return NULL;
}

/* weights(values): the evaluation's weights (``cardtable.durak.evaluation.FEATURES``'
 * order) the core's rewards read. */
static PyObject *weights(PyObject *Py_UNUSED(module), PyObject *arg)
{
    PyObject *values = PySequence_Fast(arg, "weights takes a sequence of floats");
    if (values == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(values) != EVAL_FEATURES) {
        Py_DECREF(values);
        PyErr_Format(PyExc_ValueError, "weights takes %d floats", EVAL_FEATURES);
        return NULL;
    }
    double read[EVAL_FEATURES];
    for (int i = 0; i < EVAL_FEATURES; i++) {
        read[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(values, i));
        if (read[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(values);
            return NULL;
        }
    }
    Py_DECREF(values);
    memcpy(EVAL_WEIGHTS, read, sizeof read);
    EVAL_BOUND = 1;
    Py_RETURN_NONE;
}

/* -- the fields, read as the pure engine holds them ------------------------------------------ */

/* -- the exact endgame search (cardtable.bots.solver.Solver with the Durak kit's key and
 * move order, step for step) ------------------------------------------------------------ */

/* What decides the rest of a game once nothing is hidden: the kit's ``key``. */
typedef struct {
    ct_mask hands[MAX_SEATS];
    int8_t att[MAX_TABLE], def[MAX_TABLE];
    int8_t natt, phase, to_move, attacker, defender, limit, first, stock_len;
} dk_key;

typedef struct {
    dk_key key;
    double low, high;
    int16_t best;        /* -1: none */
    uint8_t used;
} dk_entry;

typedef struct {
    const dk_rules *r;
    int seat;
    long long max_nodes, nodes;
    double deadline;
    dk_entry *table;
    size_t room, used;
    dk_key *line;
    int nline, line_room;
    int out;             /* 0: going on; 1: out of budget; -1: no memory */
} dk_solver;

static double dk_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);   /* time.perf_counter's clock on Linux */
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void dk_key_of(const dk_rules *r, const dk_state *s, dk_key *key)
{
    memset(key, 0, sizeof *key);
    for (int seat = 0; seat < r->players; seat++)
        key->hands[seat] = s->hands[seat];
    key->natt = s->natt;
    for (int i = 0; i < s->natt; i++) {
        key->att[i] = s->att[i];
        key->def[i] = -1;
        for (int j = 0; j < s->nbeats; j++)
            if (s->beat_a[j] == s->att[i])
                key->def[i] = s->beat_d[j];
    }
    key->phase = s->phase;
    key->to_move = s->to_move;
    key->attacker = s->attacker;
    key->defender = s->defender;
    key->limit = s->limit;
    key->first = s->round == 1;
    key->stock_len = s->stock_len;
}

static uint64_t dk_key_hash(const dk_key *key)
{
    uint64_t h = 1469598103934665603ULL;
    const unsigned char *bytes = (const unsigned char *)key;
    for (size_t k = 0; k < sizeof *key; k++)
        h = (h ^ bytes[k]) * 1099511628211ULL;
    return h;
}

/* The entry of ``key`` (NULL if absent and not ``add``, or out of memory: sv->out). */
static dk_entry *dk_find(dk_solver *sv, const dk_key *key, int add)
{
    if (add && 2 * (sv->used + 1) > sv->room) {
        size_t room = sv->room ? 2 * sv->room : 4096;
        dk_entry *table = calloc(room, sizeof *table);
        if (table == NULL) {
            sv->out = -1;
            return NULL;
        }
        for (size_t k = 0; k < sv->room; k++)
            if (sv->table[k].used) {
                size_t slot = (size_t)dk_key_hash(&sv->table[k].key) & (room - 1);
                while (table[slot].used)
                    slot = (slot + 1) & (room - 1);
                table[slot] = sv->table[k];
            }
        free(sv->table);
        sv->table = table;
        sv->room = room;
    }
    if (sv->room == 0)
        return NULL;
    size_t slot = (size_t)dk_key_hash(key) & (sv->room - 1);
    while (sv->table[slot].used) {
        if (memcmp(&sv->table[slot].key, key, sizeof *key) == 0)
            return &sv->table[slot];
        slot = (slot + 1) & (sv->room - 1);
    }
    if (!add)
        return NULL;
    dk_entry *entry = &sv->table[slot];
    entry->key = *key;
    entry->used = 1;
    entry->low = -INFINITY;
    entry->high = INFINITY;
    entry->best = -1;
    sv->used++;
    return entry;
}

/* The kit's ``order``: a defender beats only the first unbeaten attack card; transfers
 * first (a trump shown too), then attacks and defences by the worth of the card spent, then
 * passing, then the rest (taking, exchanging), each kind in the engine's order (a stable
 * sort). */
static int dk_order(const dk_rules *r, const dk_state *s, int16_t *moves, int n)
{
    if (s->phase == DEFEND) {
        int first = -1;
        for (int i = 0; i < s->natt && first < 0; i++)
            if (s->open & BIT(s->att[i]))
                first = s->att[i];
        int kept = 0;
        for (int k = 0; k < n; k++) {
            int m = moves[k];
            if (m < DK_DEFEND || (m - DK_DEFEND) / 52 == first)
                moves[kept++] = moves[k];
        }
        n = kept;
    }
    const int *value = VALUE[r->trump];
    int major[MAX_LEGAL], minor[MAX_LEGAL];
    for (int k = 0; k < n; k++) {
        int m = moves[k];
        if (m >= DK_TRANSFER && m < DK_EXCHANGE) {   /* (a shown trump is a transfer) */
            major[k] = 0;
            minor[k] = 0;
        } else if (m >= DK_ATTACK && m < DK_TRANSFER) {
            int rank = (m - DK_ATTACK) / 15, suits = (m - DK_ATTACK) % 15 + 1;
            major[k] = 1;
            minor[k] = value[4 * rank + __builtin_ctz((unsigned)suits)]
                       - 3 * __builtin_popcount((unsigned)suits);
        } else if (m >= DK_DEFEND) {
            major[k] = 1;
            minor[k] = value[(m - DK_DEFEND) % 52];
        } else if (m == DK_PASS) {
            major[k] = 2;
            minor[k] = 0;
        } else {
            major[k] = 3;
            minor[k] = 0;
        }
    }
    for (int k = 1; k < n; k++) {
        int16_t m = moves[k];
        int a = major[k], b = minor[k], j = k;
        while (j > 0 && (major[j - 1] > a || (major[j - 1] == a && minor[j - 1] > b))) {
            moves[j] = moves[j - 1];
            major[j] = major[j - 1];
            minor[j] = minor[j - 1];
            j--;
        }
        moves[j] = m;
        major[j] = a;
        minor[j] = b;
    }
    return n;
}

static double dk_search(dk_solver *sv, const dk_state *s, double alpha, double beta)
{
    const dk_rules *r = sv->r;
    sv->nodes++;
    if (sv->nodes > sv->max_nodes || (!(sv->nodes & 1023) && dk_now() > sv->deadline)) {
        sv->out = 1;
        return 0.0;
    }
    if (s->phase == OVER) {
        if (s->loser < 0)
            return 0.0;
        return r->team[s->loser] == r->team[sv->seat] ? -1.0 : 1.0;
    }
    dk_key key;
    dk_key_of(r, s, &key);
    for (int k = 0; k < sv->nline; k++)
        if (memcmp(&sv->line[k], &key, sizeof key) == 0)
            return 0.0;   /* met again on this line: a draw (the solver's repeat) */
    double low = -INFINITY, high = INFINITY;
    int best_move = -1;
    dk_entry *entry = dk_find(sv, &key, 0);
    if (entry != NULL) {
        low = entry->low;
        high = entry->high;
        best_move = entry->best;
    }
    double decided;
    if (ct_ab_window(low, high, &alpha, &beta, &decided))
        return decided;
    double alpha0 = alpha, beta0 = beta;
    int16_t moves[MAX_LEGAL];
    int n = dk_order(r, s, moves, gen_legal(r, s, moves));
    if (best_move >= 0)
        for (int k = 0; k < n; k++)
            if (moves[k] == best_move) {
                memmove(moves + 1, moves, (size_t)k * sizeof *moves);
                moves[0] = (int16_t)best_move;
                break;
            }
    int maximise = r->team[s->to_move] == r->team[sv->seat];
    double best = maximise ? -INFINITY : INFINITY;
    int chosen = moves[0];
    if (sv->nline >= 1000) {   /* (a line this long: left to sampling, as past the budget) */
        sv->out = 1;
        return 0.0;
    }
    if (sv->nline == sv->line_room) {
        int room = sv->line_room ? 2 * sv->line_room : 64;
        dk_key *line = realloc(sv->line, (size_t)room * sizeof *line);
        if (line == NULL) {
            sv->out = -1;
            return 0.0;
        }
        sv->line = line;
        sv->line_room = room;
    }
    sv->line[sv->nline++] = key;
    for (int k = 0; k < n; k++) {
        dk_state child = *s;
        apply(r, &child, moves[k]);
        double score = dk_search(sv, &child, alpha, beta);
        if (sv->out) {
            sv->nline--;
            return 0.0;
        }
        if (ct_ab_take(maximise, score, &best, &alpha, &beta))
            chosen = moves[k];
        if (alpha >= beta)
            break;
    }
    sv->nline--;
    entry = dk_find(sv, &key, 1);
    if (entry == NULL)
        return 0.0;   /* (out of memory: sv->out says so) */
    ct_ab_store(best, alpha0, beta0, low, high, &entry->low, &entry->high);
    entry->best = (int16_t)chosen;
    return best;
}

/* _solve(seat, max_nodes, deadline): (value, move, positions searched) for seat, or
 * (None, None, positions) past the budget. */
static PyObject *Core_solve(Core *self, PyObject *args)
{
    int seat;
    long long max_nodes;
    double deadline = INFINITY;
    if (!PyArg_ParseTuple(args, "iL|d:_solve", &seat, &max_nodes, &deadline)
        || check_bound() < 0)
        return NULL;
    if (seat < 0 || seat >= self->r.players || self->s.phase == OVER) {
        PyErr_SetString(PyExc_ValueError, "a seat of a game still on");
        return NULL;
    }
    dk_solver sv;
    memset(&sv, 0, sizeof sv);
    sv.r = &self->r;
    sv.seat = seat;
    sv.max_nodes = max_nodes;
    sv.deadline = deadline;
    double value = dk_search(&sv, &self->s, -1.0, 1.0);
    PyObject *out = NULL;
    if (sv.out < 0) {
        PyErr_NoMemory();
    } else if (sv.out > 0) {
        out = Py_BuildValue("(OOL)", Py_None, Py_None, sv.nodes);
    } else {
        dk_key key;
        dk_key_of(&self->r, &self->s, &key);
        dk_entry *entry = dk_find(&sv, &key, 0);
        if (entry == NULL)
            PyErr_SetString(PyExc_RuntimeError, "the search stored no move for its root");
        else
            out = Py_BuildValue("(dNL)", value, move_object(entry->best), sv.nodes);
    }
    free(sv.table);
    free(sv.line);
    return out;
}

static PyObject *card_object(int card) { return Py_NewRef(PyTuple_GET_ITEM(CARDS, card)); }

static PyObject *masks_list(const ct_mask *masks, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromUnsignedLongLong(masks[i]);
        if (value == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

static PyObject *cards_tuple(const int8_t *cards, int n)
{
    if (check_bound() < 0)
        return NULL;
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < n; i++)
        PyTuple_SET_ITEM(tuple, i, card_object(cards[i]));
    return tuple;
}

static PyObject *int_or_none(int value)
{
    if (value < 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(value);
}

static PyObject *get_hands(Core *self, void *Py_UNUSED(c)) { return masks_list(self->s.hands, self->r.players); }
static PyObject *get_known(Core *self, void *Py_UNUSED(c)) { return masks_list(self->s.known, self->r.players); }
static PyObject *get_stock(Core *self, void *Py_UNUSED(c)) { return cards_tuple(self->s.stock, self->s.stock_len); }
static PyObject *get_att(Core *self, void *Py_UNUSED(c)) { return cards_tuple(self->s.att, self->s.natt); }

static PyObject *get_beats(Core *self, void *Py_UNUSED(c))
{
    if (check_bound() < 0)
        return NULL;
    PyObject *tuple = PyTuple_New(self->s.nbeats);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < self->s.nbeats; i++) {
        PyObject *pair = PyTuple_Pack(2, PyTuple_GET_ITEM(CARDS, self->s.beat_a[i]),
                                      PyTuple_GET_ITEM(CARDS, self->s.beat_d[i]));
        if (pair == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, pair);
    }
    return tuple;
}

static PyObject *get_trump_card(Core *self, void *Py_UNUSED(c))
{
    if (self->s.trump_card < 0)
        Py_RETURN_NONE;
    if (check_bound() < 0)
        return NULL;
    return card_object(self->s.trump_card);
}

static PyObject *get_moves(Core *self, void *Py_UNUSED(c))
{
    if (check_bound() < 0)
        return NULL;
    PyObject *list = PyList_New(self->nmoves);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < self->nmoves; i++)
        PyList_SET_ITEM(list, i, move_object(self->moves[i]));
    return list;
}

static PyObject *get_team(Core *self, void *Py_UNUSED(c))
{
    PyObject *tuple = PyTuple_New(self->r.players);
    if (tuple == NULL)
        return NULL;
    for (int i = 0; i < self->r.players; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(self->r.team[i]));
    return tuple;
}

static PyObject *get_to_move(Core *self, void *Py_UNUSED(c))
{
    return self->s.phase == OVER ? Py_NewRef(Py_None) : PyLong_FromLong(self->s.to_move);
}

#define INT_GETTER(name, expr) \
    static PyObject *get_##name(Core *self, void *Py_UNUSED(c)) { return PyLong_FromLongLong(expr); }
INT_GETTER(drawn, self->s.drawn)
INT_GETTER(discard, self->s.discard)
INT_GETTER(round, self->s.round)
INT_GETTER(out, self->s.out)
INT_GETTER(phase, self->s.phase)
INT_GETTER(attacker, self->s.attacker)
INT_GETTER(defender, self->s.defender)
INT_GETTER(orig, self->s.orig)
INT_GETTER(raw_to_move, self->s.to_move)
INT_GETTER(cap_now, self->s.cap_now)
INT_GETTER(open, self->s.open)
INT_GETTER(tmask, self->s.tmask)
INT_GETTER(tranks, self->s.tranks)
INT_GETTER(limit, self->s.limit)
INT_GETTER(passed, self->s.passed)
INT_GETTER(shown, self->s.shown)
INT_GETTER(trump, self->r.trump)
INT_GETTER(lowest, self->r.lowest)
INT_GETTER(teams, self->r.teams)
INT_GETTER(pack_mask, self->r.pack_mask)
INT_GETTER(players, self->r.players)

static PyObject *get_loser(Core *self, void *Py_UNUSED(c)) { return int_or_none(self->s.loser); }
static PyObject *get_late(Core *self, void *Py_UNUSED(c)) { return PyBool_FromLong(self->r.late); }
static PyObject *get_passport(Core *self, void *Py_UNUSED(c)) { return PyBool_FromLong(self->r.passport); }

static PyObject *Core_is_over(Core *self, PyObject *Py_UNUSED(ignored))
{
    return PyBool_FromLong(self->s.phase == OVER);
}

static PyObject *Core_transfer_rank(Core *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromLong(transfer_rank(&self->r, &self->s));
}

static PyObject *Core_defender_after(Core *self, PyObject *arg)
{
    long seat = PyLong_AsLong(arg);
    if (seat == -1 && PyErr_Occurred())
        return NULL;
    if (seat < 0 || seat >= self->r.players) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    return int_or_none(defender_after(&self->r, &self->s, (int)seat));
}

static PyGetSetDef Core_getset[] = {
    {"_hands", (getter)get_hands, NULL, "each seat's cards (a mask; a new list)", NULL},
    {"_known", (getter)get_known, NULL, "cards known to be in each hand (masks)", NULL},
    {"_stock", (getter)get_stock, NULL, "the stock, top first, from before _drawn", NULL},
    {"_att", (getter)get_att, NULL, "the attack cards, in the order played", NULL},
    {"_beats", (getter)get_beats, NULL, "(attack card, beating card), in order", NULL},
    {"_trump_card", (getter)get_trump_card, NULL, NULL, NULL},
    {"_moves", (getter)get_moves, NULL, "the moves played (a new list)", NULL},
    {"_team", (getter)get_team, NULL, NULL, NULL},
    {"_drawn", (getter)get_drawn, NULL, NULL, NULL},
    {"_discard", (getter)get_discard, NULL, NULL, NULL},
    {"_round", (getter)get_round, NULL, NULL, NULL},
    {"_out", (getter)get_out, NULL, NULL, NULL},
    {"_loser", (getter)get_loser, NULL, NULL, NULL},
    {"_phase", (getter)get_phase, NULL, NULL, NULL},
    {"_attacker", (getter)get_attacker, NULL, NULL, NULL},
    {"_defender", (getter)get_defender, NULL, NULL, NULL},
    {"_orig", (getter)get_orig, NULL, NULL, NULL},
    {"_to_move", (getter)get_raw_to_move, NULL, NULL, NULL},
    {"_cap_now", (getter)get_cap_now, NULL, NULL, NULL},
    {"_open", (getter)get_open, NULL, NULL, NULL},
    {"_tmask", (getter)get_tmask, NULL, NULL, NULL},
    {"_tranks", (getter)get_tranks, NULL, NULL, NULL},
    {"_limit", (getter)get_limit, NULL, NULL, NULL},
    {"_passed", (getter)get_passed, NULL, NULL, NULL},
    {"_shown", (getter)get_shown, NULL, NULL, NULL},
    {"_trump", (getter)get_trump, NULL, NULL, NULL},
    {"_lowest", (getter)get_lowest, NULL, NULL, NULL},
    {"_teams", (getter)get_teams, NULL, NULL, NULL},
    {"_pack_mask", (getter)get_pack_mask, NULL, NULL, NULL},
    {"_late", (getter)get_late, NULL, NULL, NULL},
    {"_passport", (getter)get_passport, NULL, NULL, NULL},
    {"players", (getter)get_players, NULL, "the number of seats", NULL},
    {"to_move", (getter)get_to_move, NULL, "the seat that decides now; None once over", NULL},
    {NULL}
};

static PyMemberDef Core_members[] = {
    {"rules", T_OBJECT, offsetof(Core, rules), READONLY, "the rules in force"},
    {"deck", T_OBJECT, offsetof(Core, deck), 0, "the deal order (None for a position)"},
    {"dealer", T_OBJECT, offsetof(Core, dealer), 0, NULL},
    {"previous_loser", T_OBJECT, offsetof(Core, previous_loser), 0, NULL},
    {NULL}
};

static PyMethodDef Core_methods[] = {
    {"_legal_numbered", (PyCFunction)Core_legal_numbered, METH_NOARGS,
     "{move number: Move} for the legal moves, in their order."},
    {"_pieces", (PyCFunction)Core_pieces, METH_VARARGS,
     "A seat's view as the research adapters' (offset, mask) and (offset, value) tuples."},
    {"_legal_actions", (PyCFunction)Core_legal_actions, METH_NOARGS,
     "The legal moves' numbers (the research actions), ascending."},
    {"_episode_push", (PyCFunction)Core_episode_push, METH_VARARGS,
     "The Durak research episode's step: play an action, keep its lists, give its log entry."},
    {"_tensor", (PyCFunction)Core_tensor, METH_VARARGS,
     "A seat's research tensor written into a float32 buffer, or as a list of floats."},
    {"legal_moves", (PyCFunction)Core_legal_moves, METH_NOARGS,
     "Every move the seat to move may make (empty once the game is over)."},
    {"push", (PyCFunction)(void (*)(void))Core_push, METH_FASTCALL | METH_KEYWORDS,
     "Play a move (a Move or its text); with seat, check it is that seat's turn."},
    {"pop", (PyCFunction)Core_pop, METH_NOARGS, "Undo the last move and return it."},
    {"copy", (PyCFunction)(void (*)(void))Core_copy, METH_FASTCALL | METH_KEYWORDS,
     "An independent game in the same state; without stack it cannot undo."},
    {"is_over", (PyCFunction)Core_is_over, METH_NOARGS, NULL},
    {"_start", (PyCFunction)Core_setup, METH_VARARGS, NULL},
    {"_redeal", (PyCFunction)Core_redeal, METH_VARARGS, NULL},
    {"_getstate", (PyCFunction)Core_getstate, METH_NOARGS, NULL},
    {"_setstate", (PyCFunction)Core_setstate, METH_O, NULL},
    {"_transfer_rank", (PyCFunction)Core_transfer_rank, METH_NOARGS, NULL},
    {"_defender_after", (PyCFunction)Core_defender_after, METH_O, NULL},
    {"playout", (PyCFunction)Core_playout, METH_VARARGS,
     "playout(seed, policy=0, limit=0, dear=19): play to the end in C, this game unchanged: "
     "(the durak or None, moves played, over)."},
    {"_play_out", (PyCFunction)Core_play_out_here, METH_VARARGS, NULL},
    {"_rewards", (PyCFunction)Core_rewards, METH_O,
     "_rewards(cut): the Durak kit's rewards here (by the evaluation where cut and not over)."},
    {"_dealt", (PyCFunction)Core_dealt, METH_VARARGS,
     "_dealt(seat, seed): this game with the cards seat has not seen dealt afresh."},
    {"_judged", (PyCFunction)Core_judged, METH_VARARGS,
     "_judged(move, seed, policy, limit, dear, last_round): a move played out on a copy, "
     "and the kit's rewards where it stopped."},
    {"_judged_deals", (PyCFunction)Core_judged_deals, METH_VARARGS,
     "_judged_deals(seat, seeds, moves, policy, limit, dear, last_round): _dealt and "
     "_judged for each pair of seeds: seat's rewards, a list a move."},
    {"tactics", (PyCFunction)Core_tactics, METH_VARARGS,
     "tactics(dear=19): the Durak kit's tactics move here."},
    {"_solve", (PyCFunction)Core_solve, METH_VARARGS,
     "_solve(seat, max_nodes, deadline=inf): the exact search of cardtable.bots.solver "
     "with the Durak kit's key and order for seat: (value, move, positions), or (None, "
     "None, positions) past max_nodes positions or the perf_counter deadline."},
    {"playouts", (PyCFunction)Core_playouts, METH_VARARGS,
     "playouts(seed, games, policy=0): playouts from here: (games, decisions, losses, draws)."},
    {NULL}
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtable.durak._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A game of Transfer Durak held in C (compiled.Game adds the cold half).",
    .tp_new = Core_new,
    .tp_init = (initproc)Core_init,
    .tp_dealloc = (destructor)Core_dealloc,
    .tp_methods = Core_methods,
    .tp_members = Core_members,
    .tp_getset = Core_getset,
};

/* bind(cards, moves): the pure engine's Card objects by index and Move objects by number */
static PyObject *bind(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *cards, *moves;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &cards, &PyTuple_Type, &moves))
        return NULL;
    if (PyTuple_GET_SIZE(cards) != 52 || PyTuple_GET_SIZE(moves) != DK_MOVES) {
        PyErr_Format(PyExc_ValueError, "bind takes 52 cards and %d moves", DK_MOVES);
        return NULL;
    }
    Py_INCREF(cards);
    Py_XSETREF(CARDS, cards);
    Py_INCREF(moves);
    Py_XSETREF(MOVES, moves);
    Py_RETURN_NONE;
}

/* episode_steps(envs, actions, observations, masks, status, seat, starts, max_moves): a
 * vector of Durak episodes stepped in one call, for cardtable.adapters.vector.  Each
 * environment is a tuple (core, played, taken, drawn, hands, history, log, rng): the
 * episode's core, its lists (Core._episode_push), its history and log, and a bytearray of
 * 32 bytes holding the state of the generator its random opponents draw from.  For
 * environment i, ``actions[i]`` is the learner's action (-1: none, only the opponents move;
 * -2: leave this environment alone).  The learner's action is played, then every other seat
 * moves uniformly at random among its legal moves (the core's generator) until the learner
 * ``seat`` is to move or the game ends (or reaches ``max_moves``, a draw cut short); each
 * move goes into the history and the log as the episode's own steps put it.  Row i of
 * ``observations`` (float32, one ``starts`` layout a row) then holds the learner's
 * observation, row i of ``masks`` (int8, one byte an action) its legal actions, and
 * ``status[i]`` (int8) 0 (the learner is to move), 1 (the game is over), 2 (cut short at
 * max_moves) or 3 (the learner's action is not legal: nothing played, the row rewritten). */
static PyObject *episode_steps(PyObject *Py_UNUSED(module), PyObject *args)
{
    PyObject *envs, *actions, *obs_object, *mask_object, *status_object, *starts;
    int seat;
    long long max_moves;
    if (!PyArg_ParseTuple(args, "O!O!OOOiO!L", &PyList_Type, &envs, &PyList_Type, &actions,
                          &obs_object, &mask_object, &status_object, &seat, &PyTuple_Type,
                          &starts, &max_moves))
        return NULL;
    if (check_bound() < 0)
        return NULL;
    Py_ssize_t count = PyList_GET_SIZE(envs);
    if (PyList_GET_SIZE(actions) != count || PyTuple_GET_SIZE(starts) != P_STARTS) {
        PyErr_SetString(PyExc_ValueError, "one action per environment, one start per piece");
        return NULL;
    }
    long long at[P_STARTS];
    for (int i = 0; i < P_STARTS; i++) {
        at[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(starts, i));
        if (at[i] == -1 && PyErr_Occurred())
            return NULL;
    }
    ct_step_rows rows;
    if (ct_step_rows_open(&rows, obs_object, mask_object, status_object, count,
                          DK_MOVES) < 0)
        return NULL;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *env = PyList_GET_ITEM(envs, i);
        long action = PyLong_AsLong(PyList_GET_ITEM(actions, i));
        if (action == -1 && PyErr_Occurred())
            goto done;
        if (action == -2)
            continue;
        Py_buffer state;
        if (!PyTuple_Check(env) || PyTuple_GET_SIZE(env) != 8
            || !PyObject_TypeCheck(PyTuple_GET_ITEM(env, 0), &CoreType)) {
            PyErr_SetString(PyExc_ValueError, "each environment is (core, played, taken, "
                            "drawn, hands, history, log, rng)");
            goto done;
        }
        Core *core = (Core *)PyTuple_GET_ITEM(env, 0);
        PyObject *lists[7];
        for (int k = 0; k < 6; k++) {
            lists[k] = PyTuple_GET_ITEM(env, 1 + k);
            if (!PyList_Check(lists[k])) {
                PyErr_SetString(PyExc_ValueError, "the episode's lists are lists");
                goto done;
            }
        }
        if (seat < 0 || seat >= core->r.players) {
            PyErr_SetString(PyExc_ValueError, "the learner's seat is not one of the game's");
            goto done;
        }
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(env, 7), &state, PyBUF_WRITABLE) < 0)
            goto done;
        if (state.len != 32) {
            PyBuffer_Release(&state);
            PyErr_SetString(PyExc_ValueError, "a generator's state is 32 bytes");
            goto done;
        }
        ct_rng rng;
        memcpy(rng.s, state.buf, 32);
        int8_t code = 0;
        PyObject *history = lists[4], *log = lists[5];
        if (action >= 0) {
            ensure_legal(core);
            int found = 0;
            for (int k = 0; k < core->nlegal && !found; k++)
                found = core->legal[k] == action;
            if (!found || core->s.phase == OVER || core->s.to_move != seat)
                code = 3;
        }
        int mover = action;
        while (code == 0) {
            if (mover == -1) {
                if (core->s.phase == OVER || core->s.to_move < 0) {
                    code = 1;
                    break;
                }
                if (core->s.to_move == seat)
                    break;
                ensure_legal(core);
                mover = core->legal[ct_below(&rng, (uint32_t)core->nlegal)];
            }
            PyObject *entry = episode_play(core, mover, lists[0], lists[1], lists[2],
                                           lists[3]);
            PyObject *number = entry ? PyLong_FromLong(mover) : NULL;
            if (number == NULL || PyList_Append(history, number) < 0
                || PyList_Append(log, entry) < 0) {
                Py_XDECREF(entry);
                Py_XDECREF(number);
                PyBuffer_Release(&state);
                goto done;
            }
            Py_DECREF(entry);
            Py_DECREF(number);
            mover = -1;
            if (core->s.phase == OVER || core->s.to_move < 0)
                code = 1;
            else if (PyList_GET_SIZE(log) >= max_moves)
                code = 2;
        }
        memcpy(state.buf, rng.s, 32);
        PyBuffer_Release(&state);
        ct_tensor t = {.data = rows.obs + i * rows.row, .size = rows.row};
        memset(t.data, 0, (size_t)rows.row * 4);
        write_view(core, &t, seat, at, code == 0 || code == 3, NULL, NULL);
        if (t.bad) {
            PyErr_SetString(PyExc_ValueError, "a piece falls outside the tensor");
            goto done;
        }
        int8_t *mask = rows.masks + i * DK_MOVES;
        memset(mask, 0, DK_MOVES);
        if (code == 0 || code == 3) {
            ensure_legal(core);
            if (core->s.phase != OVER && core->s.to_move == seat)
                for (int k = 0; k < core->nlegal; k++)
                    mask[core->legal[k]] = 1;
        }
        rows.status[i] = code;
    }
    result = Py_NewRef(Py_None);
done:
    ct_step_rows_close(&rows);
    return result;
}

static PyMethodDef module_methods[] = {
    {"bind", bind, METH_VARARGS, "Hand the core the Card and Move objects it returns."},
    {"episode_steps", episode_steps, METH_VARARGS,
     "A vector of Durak research episodes stepped in one call (cardtable.adapters.vector)."},
    {"weights", weights, METH_O,
     "Hand the core the evaluation's weights (cardtable.durak.evaluation) its rewards read."},
    {NULL}
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cardtable.durak._core",
    .m_doc = "The compiled core of Transfer Durak (see compiled.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__core(void)
{
    for (int group = 0; group < 16; group++) {
        int k = 0;
        for (int count = 1; count <= 4; count++)
            for (int sub = 1; sub < 16; sub++)
                if ((sub & group) == sub && __builtin_popcount(sub) == count)
                    SUBS[group][k++] = (uint8_t)sub;
        SUBS_N[group] = (uint8_t)k;
    }
    tactics_tables();
    evaluation_tables();
    if (PyType_Ready(&CoreType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddObjectRef(module, "Core", (PyObject *)&CoreType) < 0
        || PyModule_AddIntConstant(module, "MOVES", DK_MOVES) < 0
        || PyModule_AddObjectRef(module, "READY", Py_True) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
