/* The A* loop of geometry/grid.py's Grid._search, compiled: the same states taken in the
 * same order, so the same routes, some 20 times faster; and its Grid._recost, which
 * keeps the step costs up to date as routes are counted. grid.py keeps the loop in Python
 * too, used where this module was not built (no C compiler when the package was
 * installed); tests/test_search_compiled.py holds the two to the same routes.
 *
 * The queue's entries are (bound, cost, state) as in grid.py, ordered as Python orders
 * those tuples. No two entries are equal (a state enters the queue only with a cost
 * dearer than any it had), so any heap gives them in the same order as heapq. Costs are
 * negated, as in grid.py. The arguments are grid.py's own tables (see its _search). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

typedef struct {
    double bound, cost;
    long long state;
} Entry;

typedef struct {
    Entry *at;
    Py_ssize_t size, room;
} Queue;

static int
before(const Entry *a, const Entry *b)
{
    if (a->bound != b->bound)
        return a->bound < b->bound;
    if (a->cost != b->cost)
        return a->cost < b->cost;
    return a->state < b->state;
}

static int
push(Queue *q, double bound, double cost, long long state)
{
    if (q->size == q->room) {
        Py_ssize_t room = q->room ? 2 * q->room : 256;
        Entry *at = PyMem_Realloc(q->at, (size_t)room * sizeof(Entry));
        if (at == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        q->at = at;
        q->room = room;
    }
    Entry entry = {bound, cost, state};
    Py_ssize_t k = q->size++;
    while (k > 0) {
        Py_ssize_t parent = (k - 1) / 2;
        if (!before(&entry, &q->at[parent]))
            break;
        q->at[k] = q->at[parent];
        k = parent;
    }
    q->at[k] = entry;
    return 0;
}

static void
pop(Queue *q)
{
    Entry last = q->at[--q->size];
    Py_ssize_t k = 0, n = q->size;
    for (;;) {
        Py_ssize_t child = 2 * k + 1;
        if (child >= n)
            break;
        if (child + 1 < n && before(&q->at[child + 1], &q->at[child]))
            child++;
        if (!before(&q->at[child], &last))
            break;
        q->at[k] = q->at[child];
        k = child;
    }
    if (n > 0)
        q->at[k] = last;
}

static PyObject *
entry_tuple(double bound, double cost, long long state)
{
    return Py_BuildValue("(ddL)", bound, cost, state);
}

static int
append(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return -1;
    int failed = PyList_Append(list, item);
    Py_DECREF(item);
    return failed;
}

/* A list of numbers as doubles, checked to hold `count`. */
static int
doubles(PyObject *list, double *out, Py_ssize_t count)
{
    if (!PyList_Check(list) || PyList_GET_SIZE(list) != count) {
        PyErr_SetString(PyExc_ValueError, "a table of the wrong size");
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        out[k] = PyFloat_AsDouble(PyList_GET_ITEM(list, k));
        if (out[k] == -1.0 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

typedef struct {       /* a step from a heading: grid.py's _turns */
    PyObject *paid;    /* the step's cost from each point (a list of floats) */
    double bend;
    long moved, row;
} Move;

static int
read_moves(PyObject *moves, Move out[4][3], Py_ssize_t points)
{
    if (!PyTuple_Check(moves) || PyTuple_GET_SIZE(moves) != 4)
        goto wrong;
    for (int d = 0; d < 4; d++) {
        PyObject *three = PyTuple_GET_ITEM(moves, d);
        if (!PyTuple_Check(three) || PyTuple_GET_SIZE(three) != 3)
            goto wrong;
        for (int k = 0; k < 3; k++) {
            PyObject *move = PyTuple_GET_ITEM(three, k);
            if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 4)
                goto wrong;
            Move *m = &out[d][k];
            m->paid = PyTuple_GET_ITEM(move, 0);
            if (!PyList_Check(m->paid) || PyList_GET_SIZE(m->paid) < points)
                goto wrong;
            m->bend = PyFloat_AsDouble(PyTuple_GET_ITEM(move, 1));
            m->moved = PyLong_AsLong(PyTuple_GET_ITEM(move, 2));
            m->row = PyLong_AsLong(PyTuple_GET_ITEM(move, 3));
            if (PyErr_Occurred())
                return -1;
            if (m->row < 4 || m->row > 31)
                goto wrong;
        }
    }
    return 0;
wrong:
    PyErr_SetString(PyExc_ValueError, "moves are not grid.py's _turns");
    return -1;
}

static inline double
number(PyObject *item)   /* a float of a cost list (they hold floats only) */
{
    return PyFloat_CheckExact(item) ? PyFloat_AS_DOUBLE(item) : PyFloat_AsDouble(item);
}

/* Load the queue from `todo` (a list of (bound, cost, state)). */
static int
load(Queue *q, PyObject *todo)
{
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(todo); k++) {
        PyObject *entry = PyList_GET_ITEM(todo, k);
        double bound, cost;
        long long state;
        if (!PyArg_ParseTuple(entry, "ddL", &bound, &cost, &state))
            return -1;
        if (push(q, bound, cost, state) < 0)
            return -1;
    }
    return 0;
}

/* Put what is left in the queue back into `todo`, for a search in a larger window. */
static int
unload(Queue *q, PyObject *todo)
{
    PyObject *left = PyList_New(q->size);
    if (left == NULL)
        return -1;
    for (Py_ssize_t k = 0; k < q->size; k++) {
        PyObject *entry = entry_tuple(q->at[k].bound, q->at[k].cost, q->at[k].state);
        if (entry == NULL) {
            Py_DECREF(left);
            return -1;
        }
        PyList_SET_ITEM(left, k, entry);
    }
    int failed = PyList_SetSlice(todo, 0, PyList_GET_SIZE(todo), left);
    Py_DECREF(left);
    return failed;
}

typedef struct {
    PyObject *todo, *skipped, *later;   /* skipped and later: lists or None */
    Move moves[4][3];
    double table[36], limit, bend;
    double *near_x, *near_y, *far_x, *far_y;
    double *side_x, *side_y;   /* (whole numbers: rows of the bends table) */
    Py_ssize_t nx, ny, goal, states;
    int back, arrive;
    double *best;
    long long *came;
} Search;

/* The loop; returns the goal state reached (>= 0), -1 for none, -2 on an error. */
static long long
run(Search *s, Queue *q)
{
    const int keep_later = s->later != Py_None, keep_skipped = s->skipped != Py_None;
    double *best = s->best;
    long long *came = s->came;
    while (q->size) {
        Entry head = q->at[0];
        if (head.bound >= s->limit) {
            pop(q);
            if (keep_later && append(s->later, entry_tuple(head.bound, head.cost,
                                                           head.state)) < 0)
                return -2;
            return -1;
        }
        if (head.state < 0)
            return -1 - head.state;
        long long state = head.state;
        if (state >= s->states) {
            PyErr_SetString(PyExc_ValueError, "a state off the grid");
            return -2;
        }
        double cost = head.cost;
        pop(q);
        if (cost < best[state])
            continue;
        Py_ssize_t point = (Py_ssize_t)(state >> 2);
        const Move *three = s->moves[state & 3];
        for (int k = 0; k < 3; k++) {
            const Move *m = &three[k];
            double new = cost - number(PyList_GET_ITEM(m->paid, point)) - m->bend;
            long long state2 = state + m->moved;
            if (state2 < 0 || state2 >= s->states || !(new > best[state2]))
                continue;   /* (off the grid a step costs infinity: never taken) */
            Py_ssize_t step = (Py_ssize_t)(state2 >> 2), i = step % s->nx, j = step / s->nx;
            if (j >= s->ny)
                continue;
            double turns = s->table[m->row + (long)s->side_x[i] + (long)s->side_y[j]];
            double bound = s->near_x[i] - new + s->near_y[j] + turns;
            if (bound < s->limit) {
                best[state2] = new;
                came[state2] = state;
                if (push(q, bound, new, state2) < 0)
                    return -2;
            } else if (bound == INFINITY) {     /* beyond the window: for a larger one */
                if (keep_skipped) {
                    PyObject *item = Py_BuildValue(
                        "((ddL)L)", s->far_x[i] - new + s->far_y[j] + turns, new, state2,
                        state);
                    if (append(s->skipped, item) < 0)
                        return -2;
                }
                continue;
            } else {
                best[state2] = new;
                came[state2] = state;
                if (keep_later && append(s->later, entry_tuple(bound, new, state2)) < 0)
                    return -2;
            }
            int turn = (int)(state2 & 3);
            if (step == s->goal && turn != s->back) {
                double done = (turn != s->arrive ? s->bend : 0.0) - new;
                if (done < s->limit) {
                    if (push(q, done, -done, -1 - state2) < 0)
                        return -2;
                } else if (keep_later &&
                           append(s->later, entry_tuple(done, -done, -1 - state2)) < 0) {
                    return -2;
                }
            }
        }
    }
    return -1;
}

static PyObject *
search(PyObject *module, PyObject *args)
{
    PyObject *todo, *moves, *table, *near_x, *near_y, *far_x, *far_y, *side_x, *side_y;
    Py_buffer best = {0}, came = {0};
    Search s;
    Queue q = {NULL, 0, 0};
    PyObject *result = NULL;
    void *tables = NULL;
    if (!PyArg_ParseTuple(args, "O!w*w*OO!nnO!O!O!O!O!O!dniidOO", &PyList_Type, &todo,
                          &best, &came, &moves, &PyList_Type, &table, &s.nx, &s.ny,
                          &PyList_Type, &near_x, &PyList_Type, &near_y,
                          &PyList_Type, &far_x, &PyList_Type, &far_y,
                          &PyList_Type, &side_x, &PyList_Type, &side_y, &s.limit,
                          &s.goal, &s.back, &s.arrive, &s.bend, &s.skipped, &s.later))
        return NULL;
    s.todo = todo;
    Py_ssize_t points = s.nx * s.ny;
    s.states = best.len / (Py_ssize_t)sizeof(double);
    if (best.itemsize != sizeof(double) || came.itemsize != sizeof(long long)
            || s.nx <= 0 || s.ny <= 0 || s.states < 4 * points
            || came.len / (Py_ssize_t)sizeof(long long) < 4 * points) {
        PyErr_SetString(PyExc_ValueError, "best or came do not fit the grid");
        goto done;
    }
    if (s.states > 4 * points)
        s.states = 4 * points;   /* (the rest is grid.py's room for steps off the grid) */
    s.best = best.buf;
    s.came = came.buf;
    tables = PyMem_Malloc((size_t)(s.nx + s.ny) * 3 * sizeof(double));
    if (tables == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    s.near_x = tables;
    s.near_y = s.near_x + s.nx;
    s.far_x = s.near_y + s.ny;
    s.far_y = s.far_x + s.nx;
    s.side_x = s.far_y + s.ny;
    s.side_y = s.side_x + s.nx;
    if (doubles(table, s.table, 36) < 0 || doubles(near_x, s.near_x, s.nx) < 0
            || doubles(near_y, s.near_y, s.ny) < 0 || doubles(far_x, s.far_x, s.nx) < 0
            || doubles(far_y, s.far_y, s.ny) < 0 || doubles(side_x, s.side_x, s.nx) < 0
            || doubles(side_y, s.side_y, s.ny) < 0 || read_moves(moves, s.moves, points) < 0
            || load(&q, todo) < 0)
        goto done;
    for (Py_ssize_t k = 0; k < s.nx + s.ny; k++) {   /* (rows of the bends table, within it) */
        double side = k < s.nx ? s.side_x[k] / 3 : s.side_y[k - s.nx];
        if (side != -1.0 && side != 0.0 && side != 1.0) {
            PyErr_SetString(PyExc_ValueError, "a side of the goal is not -1, 0 or 1");
            goto done;
        }
    }
    long long found = run(&s, &q);
    if (found == -2)
        goto done;
    if (found >= 0) {
        result = PyLong_FromLongLong(found);
    } else if (s.later != Py_None && unload(&q, todo) < 0) {
        goto done;
    } else {
        result = Py_NewRef(Py_None);
    }
done:
    PyMem_Free(q.at);
    PyMem_Free(tables);
    PyBuffer_Release(&best);
    PyBuffer_Release(&came);
    return result;
}

static int
set_float(PyObject *list, Py_ssize_t k, double value)
{
    PyObject *number = PyFloat_FromDouble(value);
    return number == NULL ? -1 : PyList_SetItem(list, k, number);   /* (steals it) */
}

/* grid.py's Grid._recost for one heading: the cost of the step from each of `points`
 * anew, in `costs` (and `dear`, a feedback edge's costs, unless None). */
static PyObject *
recost(PyObject *module, PyObject *args)
{
    PyObject *costs, *dear, *base, *points, *used;
    Py_buffer runs = {0};
    Py_ssize_t ahead;
    int vertical, forward;
    double shared_cost, cross, around;
    if (!PyArg_ParseTuple(args, "O!OO!OnO!y*ppddd", &PyList_Type, &costs, &dear,
                          &PyList_Type, &base, &points, &ahead, &PyDict_Type, &used, &runs,
                          &vertical, &forward, &shared_cost, &cross, &around))
        return NULL;
    Py_ssize_t size = PyList_GET_SIZE(costs);
    const unsigned char *through = runs.buf;
    PyObject *result = NULL, *iterator = NULL, *item;
    if (PyList_GET_SIZE(base) != size || runs.len != size
            || (dear != Py_None && (!PyList_Check(dear) || PyList_GET_SIZE(dear) != size))) {
        PyErr_SetString(PyExc_ValueError, "cost tables of different sizes");
        goto done;
    }
    iterator = PyObject_GetIter(points);
    if (iterator == NULL)
        goto done;
    while ((item = PyIter_Next(iterator)) != NULL) {
        Py_ssize_t point = PyLong_AsSsize_t(item);
        Py_DECREF(item);
        if (point == -1 && PyErr_Occurred())
            goto done;
        if (point < 0 || point >= size)
            continue;   /* (off the grid: a route given, not found on it) */
        double length = number(PyList_GET_ITEM(base, point));
        if (length == INFINITY)
            continue;
        Py_ssize_t step = point + ahead;
        if (step < 0 || step >= size) {
            PyErr_SetString(PyExc_ValueError, "a step off the grid costs less than infinity");
            goto done;
        }
        PyObject *key = PyLong_FromSsize_t((forward ? point : step) * 2 + vertical);
        if (key == NULL)
            goto done;
        PyObject *count = PyDict_GetItemWithError(used, key);
        Py_DECREF(key);
        if (count == NULL && PyErr_Occurred())
            goto done;
        long shared = count == NULL ? 0 : PyLong_AsLong(count);
        if (shared == -1 && PyErr_Occurred())
            goto done;
        if (shared)
            length *= 1 + shared_cost * (double)shared;
        double feedback = length;
        if (through[step]) {
            length += cross;
            feedback = length + around;
        }
        if ((dear != Py_None && set_float(dear, point, feedback) < 0)
                || set_float(costs, point, length) < 0)
            goto done;
    }
    if (!PyErr_Occurred())
        result = Py_NewRef(Py_None);
done:
    Py_XDECREF(iterator);
    PyBuffer_Release(&runs);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(todo, best, came, moves, table, nx, ny, near_x, near_y, far_x, far_y, "
     "side_x, side_y, limit, goal, back, arrive, bend, skipped, later) -> goal state "
     "or None: grid.py's A* loop (see Grid._search)."},
    {"recost", recost, METH_VARARGS,
     "recost(costs, dear, base, points, ahead, used, runs, vertical, forward, shared, "
     "cross, around): grid.py's Grid._recost for one heading."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef definition = {
    PyModuleDef_HEAD_INIT, "_search", "geometry/grid.py's A* loop, compiled.", -1, methods,
};

PyMODINIT_FUNC
PyInit__search(void)
{
    return PyModule_Create(&definition);
}
