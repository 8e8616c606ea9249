"""The grid a figure's routes run on, and the search for one route on it
(geometry/route.py says what a route is; this is how it is found).

The grid's lines are every box's borders pushed out by the margin and the lines through
the ports; the segments the grown boxes block and the free grid's connected parts are
found once per figure. A route is an A* search over (grid point, heading): a step costs
its length (SHARED times more along a segment another route runs on), a bend BEND; the
heuristic is the Manhattan distance plus BEND times the fewest bends still needed, from
a table (_BENDS) of what depends only on the heading and the side of the goal one is on.

For speed (the same routes): what each step costs is kept in a table per heading, made
once a grid and changed where a route is counted; the heuristic is taken by column and
by row; a search in a larger window goes on from where the smaller window's stopped;
the free grid's parts are found only for a search of the whole grid, and only
where grown boxes overlap or cross the bounds (else it is all one part). The search's
loop and the upkeep of the step costs also exist in C (_search.c, which pip builds
where a C compiler is): the same states in the same order, so the same routes, the
search some 20 times faster; where it was not built, the loops here run (its costs
and states are then lists, not arrays the C reads in place).
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_left, bisect_right
from itertools import accumulate, compress, pairwise

BEND = 30.0     # what a bend costs, in px of length
SHARED = 2.0    # a segment already used by another edge costs this much more per px
CROSS = 80.0    # what crossing another edge's route costs, in px of length
AROUND = 300.0  # what it costs a feedback edge's route more (it may run round the outside)
WINDOW = 120.0  # px: a search stays this close to its ends' box first (see Grid.route)

Point = tuple[float, float]
Rect = tuple[float, float, float, float]        # x, y, width, height (as in a spec)
Box = tuple[float, float, float, float]         # left, top, right, bottom

_INF = float("inf")   # what a step that cannot be taken costs

try:   # the search's loop and step costs, compiled (geometry/_search.c), where it was built
    from articlesite.geometry._search import recost as _recompiled
    from articlesite.geometry._search import search as _compiled
except ImportError:   # (no C compiler when the package was installed: the same loops here)
    _compiled = _recompiled = None

# Headings: 0 right (+x), 1 down (+y), 2 left, 3 up. A side's outward heading:
OUT = {"right": 0, "bottom": 1, "left": 2, "top": 3}
STEP = ((1, 0), (0, 1), (-1, 0), (0, -1))


def box_of(rect: Rect) -> Box:
    x, y, w, h = (float(v) for v in rect)
    return (x, y, x + w, y + h)


def half(value: float) -> float:
    """A coordinate on the half-pixel grid every route lies on."""
    return round(value * 2) / 2


class Grid:
    """The lines routes may run along, and which of their segments each box blocks."""

    def __init__(self, boxes: list[Box], margin: float, bounds: Rect | None,
                 ports: list[Point]):
        self.boxes, self.margin = boxes, margin
        grown = [(b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin) for b in boxes]
        self.grown = grown
        limits = box_of(bounds) if bounds is not None else None
        self.limits = limits
        self.xs = _lines([g[k] for g in grown for k in (0, 2)], [p[0] for p in ports],
                         limits and (limits[0], limits[2]))
        self.ys = _lines([g[k] for g in grown for k in (1, 3)], [p[1] for p in ports],
                         limits and (limits[1], limits[3]))
        self.nx = len(self.xs)
        # Segment s of a horizontal line: from point s to s + 1; of a vertical: s to s + nx.
        count = self.nx * len(self.ys)
        self.blocked_h, self.blocked_v = bytearray(count), bytearray(count)
        for box in grown:
            self._block(box)
        self.used: dict[int, int] = {}   # segment (see _search): how many edges run on it
        # For each grid point, how many routes run through it horizontally ([0]) and
        # vertically ([1]) (a bend there is no run through).
        self.runs = (bytearray(count), bytearray(count))
        self._parts: tuple | None = None
        self._apart: bool | None = None        # _one_part's
        self._ways: tuple | None = None
        self._costs: tuple[list[float], ...] | None = None
        self._dear: tuple[list[float], ...] | None = None   # _costs, AROUND a crossing more
        self._escapes: dict[tuple[Point, int], int | None] = {}
        self._goals: dict[int, tuple] = {}     # _toward's, by goal
        self._steps: dict[bool, tuple] = {}    # _turns', for a feedback edge or not
        self._states: list[int] | None = None  # _came's

    def _block(self, box: Box) -> None:
        """Mark the segments whose inside crosses the inside of `box`."""
        xs, ys, nx = self.xs, self.ys, self.nx
        left, top, right, bottom = box
        rows = range(bisect_right(ys, top), bisect_left(ys, bottom))
        columns = range(max(bisect_right(xs, left) - 1, 0), min(bisect_left(xs, right),
                                                                 nx - 1))
        for j in rows:                       # horizontal segments inside the box
            self.blocked_h[j * nx + columns.start:j * nx + columns.stop] = \
                b"\x01" * len(columns)
        rows = range(max(bisect_right(ys, top) - 1, 0), min(bisect_left(ys, bottom),
                                                            len(ys) - 1))
        columns = range(bisect_right(xs, left), bisect_left(xs, right))
        for j in rows:                       # vertical segments inside the box
            self.blocked_v[j * nx + columns.start:j * nx + columns.stop] = \
                b"\x01" * len(columns)

    def part(self, point: int) -> int:
        """The number of the part of the free grid a point lies in (the parts found once,
        when first needed): no search of the whole grid between two parts is started
        (a window's may be: it stays small). Found by runs:
        the points of a row that free horizontal segments join are one run; a run meets
        the runs of the next row where free vertical segments join them (between two
        breaks of either row, one pair of runs)."""
        if self._parts is None:
            self._parts = self._runs()
        starts, firsts, root = self._parts
        j, i = divmod(point, self.nx)
        k = firsts[j] + bisect_right(starts[j], i) - 1
        while root[k] != k:
            k = root[k]
        return k

    def _one_part(self) -> bool:
        """Whether the free grid is surely one part, so that `part` need not be found
        (found once): no two grown boxes overlap (they may touch) and none crosses the
        bounds. The grid has lines along every grown box's borders, so a route can go
        round each box and from any free point reach any other. (Were it wrong, a
        search between two parts would find nothing still, only later.)"""
        if self._apart is None:
            self._apart = _apart(self.grown, self.limits)
        return self._apart

    def _runs(self) -> tuple[list[list[int]], list[int], list[int]]:
        """Each row's runs (where each starts), each row's first run's number, and each
        run's root in a union-find of the runs that meet."""
        nx, ny = self.nx, len(self.ys)
        root: list[int] = []

        def find(k: int) -> int:
            while root[k] != k:
                root[k] = root[root[k]]
                k = root[k]
            return k
        starts: list[list[int]] = []
        firsts: list[int] = []
        for j in range(ny):
            pieces = self.blocked_h[j * nx:j * nx + nx - 1].split(b"\x01")
            begun = [0, *accumulate(len(piece) + 1 for piece in pieces[:-1])]
            firsts.append(len(root))
            root.extend(range(len(root), len(root) + len(begun)))
            starts.append(begun)
        for j in range(ny - 1):
            column = self.blocked_v[j * nx:j * nx + nx]
            upper, lower = starts[j], starts[j + 1]
            breaks = sorted(set(upper) | set(lower))
            at = column.find(0)
            while at >= 0:        # a stretch of free vertical segments: at .. end - 1
                end = column.find(1, at)
                end = nx if end < 0 else end
                k = bisect_right(breaks, at) - 1
                here = at
                while here < end:
                    a = find(firsts[j] + bisect_right(upper, here) - 1)
                    b = find(firsts[j + 1] + bisect_right(lower, here) - 1)
                    if a != b:
                        root[max(a, b)] = min(a, b)
                    k += 1
                    here = breaks[k] if k < len(breaks) else end
                at = column.find(0, end) if end < nx else -1
        return starts, firsts, root

    def route(self, a: Point, out_a: int, b: Point, out_b: int, own: tuple[int, int],
              mark: bool = True, limit: float = math.inf, around: bool = False
              ) -> tuple[Point, ...] | None:
        """The route from port `a` (leaving along heading `out_a`) to port `b` (entered
        against its outward heading `out_b`), or None (also if none costs less than
        `limit`); `mark`: later routes pay to share its segments or cross it; `around`:
        a feedback edge's (a crossing costs it AROUND more).

        The search first keeps within WINDOW px of the box its two ends span, then four
        times that, then the whole grid: a route that leaves that box by d px is at least
        2 d longer than the ends' Manhattan distance, so a route found within it that
        costs less than that bound is the cheapest of all; else the next window is
        searched. The routes are those of a search of the whole grid."""
        if self._straight(a, out_a, b, out_b, own):
            points: tuple[Point, ...] = (a, b)
        else:
            start, goal = self._escape(a, out_a), self._escape(b, out_b)
            if start is None or goal is None:
                return None
            # A search whose first bound is `limit` or more finds nothing: not begun
            # (routes tried against a limit often are, as the side choice's).
            path = None if self._least(start, out_a, goal, (out_b + 2) % 4) >= limit else \
                self._windowed(start, out_a, goal, (out_b + 2) % 4, limit, around)
            if path is None:
                return None
            points = _simplify([a] + [(self.xs[p % self.nx], self.ys[p // self.nx])
                                      for p in path] + [b])
        if mark:
            self.use(points)
        return points

    def _windowed(self, start: int, out_a: int, goal: int, arrive: int,
                  limit: float, around: bool) -> list[int] | None:
        px, py = self._moves()[2:4]
        low = (min(px[start], px[goal]), min(py[start], py[goal]))
        high = (max(px[start], px[goal]), max(py[start], py[goal]))
        distance = high[0] - low[0] + high[1] - low[1]
        saved: dict = {}   # a window's search, for the next one to go on from
        return self._widening(start, out_a, goal, arrive, limit, low, high, distance,
                              saved, self._found(), around)

    def _widening(self, start: int, out_a: int, goal: int, arrive: int, limit: float,
                  low: tuple, high: tuple, distance: float, saved: dict,
                  best: list[float], around: bool) -> list[int] | None:
        """The searches of _windowed, in ever larger windows."""
        for pad in (WINDOW, 4 * WINDOW, math.inf):
            window = None if pad == math.inf else (
                bisect_left(self.xs, low[0] - pad), bisect_right(self.xs, high[0] + pad) - 1,
                bisect_left(self.ys, low[1] - pad), bisect_right(self.ys, high[1] + pad) - 1)
            if window is not None and window[0] == 0 and window[2] == 0 and \
                    window[1] == self.nx - 1 and window[3] == len(self.ys) - 1:
                window = None   # the whole grid: no route lies beyond
            if window is None and not self._one_part() and self.part(start) != self.part(goal):
                return None   # (a window's search finds nothing there either)
            bound = limit if window is None else min(limit, distance + 2 * pad)
            found = self._search(start, out_a, goal, arrive, bound, window, saved, best,
                                 around)
            if found is not None or window is None or bound >= limit:
                return found
        return None

    def use(self, points: tuple[Point, ...], by: int = 1) -> None:
        """Count the grid segments a route runs along and the points it runs through
        (later routes pay to share or cross them); `by=-1` takes a route away."""
        xs, ys, nx = self.xs, self.ys, self.nx
        for (x1, y1), (x2, y2) in pairwise(points):
            if y1 == y2:
                j = bisect_left(ys, y1)
                if j < len(ys) and ys[j] == y1:
                    row = j * nx
                    self._count(range(row + bisect_left(xs, min(x1, x2)),
                                      row + bisect_left(xs, max(x1, x2))), 0, by)
            else:
                i = bisect_left(xs, x1)
                if i < nx and xs[i] == x1:
                    self._count(range(bisect_left(ys, min(y1, y2)) * nx + i,
                                      bisect_left(ys, max(y1, y2)) * nx + i, nx), 1, by)

    def _count(self, firsts: range, axis: int, by: int) -> None:
        """Count a run of grid segments of one line (`firsts`: the first point of each,
        in order; `axis` 1 for a vertical line); the points between them are run
        through. Segment s's key in `used` is s * 2 + axis."""
        runs, used = self.runs[axis], self.used
        for point in firsts:
            key = point * 2 + axis
            used[key] = used.get(key, 0) + by
        inner = firsts[1:]     # the points it runs through: steps onto them cross it
        for point in inner:
            count = runs[point] + by
            runs[point] = count if 0 <= count <= 255 else 0 if count < 0 else 255
        if self._costs is not None:
            nx = self.nx
            if axis:
                self._recost(1, firsts, 3, _shifted(firsts, nx))
                self._recost(0, _shifted(inner, -1), 2, _shifted(inner, 1))
            else:
                self._recost(0, firsts, 2, _shifted(firsts, 1))
                self._recost(1, _shifted(inner, -nx), 3, _shifted(inner, nx))

    def _step_costs(self) -> tuple[list[float], ...]:
        """For each heading, what a step from each point costs (see _search): its length,
        SHARED times more for each route on its segment, CROSS more where a route runs
        through the point it reaches across it; infinite where no step can be taken.
        Made once a grid, kept up to date as routes are counted."""
        if self._costs is None:
            self._costs = tuple(list(costs) for costs in self._moves()[4])
            nx = self.nx
            for vertical in (0, 1):
                firsts = [key >> 1 for key in self.used if key & 1 == vertical]
                if vertical:
                    self._recost(1, firsts, 3, [p + nx for p in firsts])
                else:
                    self._recost(0, firsts, 2, [p + 1 for p in firsts])
            through = list(compress(range(len(self.runs[0])), self.runs[0]))
            self._recost(1, [p - nx for p in through], 3, [p + nx for p in through])
            through = list(compress(range(len(self.runs[1])), self.runs[1]))
            self._recost(0, [p - 1 for p in through], 2, [p + 1 for p in through])
        return self._costs

    def _recost(self, *turns_points) -> None:
        """The cost of each step that can be taken, anew: the steps along heading `turn`
        from each of `points`, for each pair (turn, points) given."""
        _, offset, _, _, lengths, _ = self._moves()
        used, size = self.used, len(self.blocked_h)
        for turn, points in zip(turns_points[0::2], turns_points[1::2], strict=True):
            costs, base, ahead = self._costs[turn], lengths[turn], offset[turn]
            dear = self._dear[turn] if self._dear is not None else None
            runs, vertical, forward = self.runs[1 - (turn & 1)], turn & 1, turn < 2
            if _recompiled is not None:
                _recompiled(costs, dear, base, points, ahead, used, runs, vertical, forward,
                            SHARED, CROSS, AROUND)
                continue
            for point in points:
                if 0 <= point < size:   # (not off the grid: a route given, not found on it)
                    length = base[point]
                    if length != _INF:
                        step = point + ahead
                        shared = used.get((point if forward else step) * 2 + vertical, 0)
                        if shared:
                            length *= 1 + SHARED * shared
                        if runs[step]:
                            length += CROSS
                            if dear is not None:
                                dear[point] = length + AROUND
                        elif dear is not None:
                            dear[point] = length
                        costs[point] = length

    def _dear_costs(self) -> tuple[list[float], ...]:
        """_step_costs with AROUND more for each step that crosses a route: what a
        feedback edge's route pays (made when one is first routed, then kept up to date
        with the other). Copied, then changed only where a step reaches a point some
        route runs through (few of a grid's points: not each point looked at)."""
        if self._dear is None:
            costs, offset = self._step_costs(), (1, self.nx, -1, -self.nx)
            size, dear = len(self.blocked_h), []
            for turn in range(4):
                mine = list(costs[turn])
                for step in compress(range(size), self.runs[1 - (turn & 1)]):
                    point = step - offset[turn]
                    if 0 <= point < size and mine[point] != _INF:
                        mine[point] += AROUND
                dear.append(mine)
            self._dear = tuple(dear)
        return self._dear

    def _escape(self, port: Point, out: int) -> int | None:
        """The grid point `margin` px out from a port, if nothing is in the way (found
        once a port and heading)."""
        if (port, out) not in self._escapes:
            self._escapes[port, out] = self._escaped(port, out)
        return self._escapes[port, out]

    def _escaped(self, port: Point, out: int) -> int | None:
        dx, dy = STEP[out]
        x, y = half(port[0] + dx * self.margin), half(port[1] + dy * self.margin)
        i, j = bisect_left(self.xs, x), bisect_left(self.ys, y)
        if i == self.nx or j == len(self.ys) or self.xs[i] != x or self.ys[j] != y:
            return None   # outside the bounds
        if _any_crossed(port, (x, y), self.boxes):
            return None
        return j * self.nx + i

    def _straight(self, a: Point, out_a: int, b: Point, out_b: int,
                  own: tuple[int, int]) -> bool:
        """Whether one segment joins the ports: they face each other on one line."""
        dx, dy = STEP[out_a]
        if out_b != (out_a + 2) % 4 or (b[0] - a[0]) * dy != (b[1] - a[1]) * dx \
                or (b[0] - a[0]) * dx + (b[1] - a[1]) * dy <= 0:
            return False
        return not _any_crossed(a, b, self.boxes) and not _any_crossed(
            a, b, [box for number, box in enumerate(self.grown) if number not in own])

    def _moves(self) -> tuple:
        """For each heading, which points a step can be taken from (inside the grid, not
        blocked), the step's offset, and each point's coordinates: made once a grid."""
        if self._ways is None:
            nx, count = self.nx, len(self.blocked_h)
            flip = bytes.maketrans(b"\x00\x01", b"\x01\x00")
            right = bytearray(self.blocked_h.translate(flip))
            right[nx - 1::nx] = bytes(len(right[nx - 1::nx]))       # the last column
            down = bytearray(self.blocked_v.translate(flip))
            down[count - nx:] = bytes(nx)                             # the last row
            left = bytearray(b"\x00") + right[:-1]
            left[0::nx] = bytes(len(left[0::nx]))                     # the first column
            up = bytearray(nx) + down[:-nx]
            xs = self.xs * len(self.ys)
            ys: list[float] = []
            for y in self.ys:
                ys += [y] * nx
            free, offset = (right, down, left, up), (1, nx, -1, -nx)
            across = [b - a for a, b in pairwise(self.xs)]
            along = [b - a for a, b in pairwise(self.ys)]
            down_lengths = []
            for d in along:
                down_lengths += [d] * nx
            down_lengths += [_INF] * nx
            rightward = _masked((across + [_INF]) * len(self.ys), right)
            downward = _masked(down_lengths, down)
            # A step left (up) from a point is the step right (down) from the point
            # before it, which cannot be taken from the last column (row) either.
            lengths = (rightward, downward, [_INF] + rightward[:-1],
                       [_INF] * nx + downward[:-nx])
            rows: list[int] = []
            for j in range(len(self.ys)):
                rows += [j] * nx
            where = (list(range(nx)) * len(self.ys), rows)
            self._ways = (free, offset, xs, ys, lengths, where)
        return self._ways

    def _toward(self, goal: int) -> tuple[list[float], list[float], list[int], list[int]]:
        """The heuristic toward a goal, by column and by row: the distance to the goal's,
        and the side of it (times 3 across, for the bends table); found once a goal."""
        if goal not in self._goals:
            i, j = goal % self.nx, goal // self.nx
            self._goals[goal] = (_distances(self.xs, i), _distances(self.ys, j),
                                 [3] * i + [0] + [-3] * (self.nx - i - 1),
                                 [1] * j + [0] + [-1] * (len(self.ys) - j - 1))
        return self._goals[goal]

    def _turns(self, around: bool = False) -> tuple:
        """From each heading: the headings a step may take (on, then the two turns), each
        with what it costs from each point (infinite: none can be taken; the step costs'
        own lists, kept up to date; `around`: a feedback edge's, _dear_costs), its bend,
        how far the state moves (a state is point * 4 + heading: the search finds the
        next one by one addition) and its row of the bends table. Made once a grid."""
        if around not in self._steps:
            costs = self._dear_costs() if around else self._step_costs()
            offset = (1, self.nx, -1, -self.nx)
            self._steps[around] = tuple(tuple((costs[turn], 0.0 if turn == d else BEND,
                                               4 * offset[turn] + turn - d, turn * 9 + 4)
                                              for turn in (d, (d + 1) % 4, (d + 3) % 4))
                                        for d in range(4))
        return self._steps[around]

    def _came(self) -> list[int]:
        """For each state (see _search), the state it was reached from: a list, not a
        dict (the search writes it at each state it reaches), made once a grid and
        written over by each search: the path back from the goal goes only through
        states that search itself reached."""
        if self._states is None:
            size = 4 * len(self.blocked_h)
            self._states = [0] * size if _compiled is None else array("q", bytes(8 * size))
        return self._states

    def _found(self) -> list[float]:
        """What the searches of one route have found each state costs, negated (see
        _search), with nothing found yet (minus infinity): a new list for each route,
        made at once, cheaper than noting each state a search writes (some hundreds)
        to unwrite it after. A list, not a dict: the search looks a state up at each
        step. It runs 4 * nx states past the last one, so that a step off the grid
        (which costs infinity, and is never taken) may be looked up too, from either
        end."""
        size = 4 * (len(self.blocked_h) + self.nx + 1)
        return [-_INF] * size if _compiled is None else array("d", [-_INF]) * size

    def _least(self, start: int, heading: int, goal: int, arrive: int) -> float:
        """What a path from `start` (reached along `heading`) to `goal` (reached along
        `arrive`) costs at least: the search's heuristic at its start."""
        px, py = self._moves()[2:4]
        dx, dy = px[goal] - px[start], py[goal] - py[start]
        return abs(dx) + abs(dy) + _BENDS[arrive][heading * 9 + 4 + ((dx > 0) - (dx < 0)) * 3
                                                  + (dy > 0) - (dy < 0)]

    def _search(self, start: int, heading: int, goal: int, arrive: int,
                limit: float, window: tuple | None, saved: dict,
                best: list[float], around: bool = False) -> list[int] | None:
        """A* over (point, heading) from `start` (reached along `heading`) to `goal`
        reached along `arrive`: the grid points of the cheapest path that costs less
        than `limit` and keeps within `window` (first and last column, first and last
        row), or None. A state is point * 4 + heading; a segment's key in `used` is its
        first point * 2 + (1 for a vertical one). Stepping onto a point another route
        runs through across the step costs CROSS. Costs are kept negated, as the queue
        orders its entries (bound, -cost, state): on a tie, the dearer cost first.

        `saved`: where a search that finds nothing leaves what it found, and one in a
        larger window of the same ends goes on from (as _windowed searches). Every
        state beyond a window costs more than that window's search may, so the search
        in the larger one would have taken the same states first in the same order;
        it goes on from there, once the steps out of the smaller window it skipped are
        taken, in the order they came. `best`: what the searches of this route have
        found each state costs (see _found). `around`: a feedback edge's search (see
        _turns)."""
        table = _BENDS[arrive]
        column, row_of = self._moves()[5]
        came = self._came()
        windowed = window is not None
        i0, i1, j0, j1 = window if windowed else (0, self.nx, 0, len(self.ys))
        if saved:
            todo, first, beyond = saved["todo"], saved["first"], saved["beyond"]
            todo += saved["later"]     # (the entries that cost too much for that window)
            heapq.heapify(todo)
            saved["beyond"] = skipped = []
            saved["later"] = later = []
            for entry, state in beyond:
                step = entry[2] >> 2
                if not (i0 <= column[step] <= i1 and j0 <= row_of[step] <= j1):
                    skipped.append((entry, state))
                elif entry[1] > best[entry[2]]:
                    best[entry[2]] = entry[1]
                    came[entry[2]] = state
                    heapq.heappush(todo, entry)
        else:
            first = start * 4 + heading
            best[first] = 0.0
            todo = [(self._least(start, heading, goal, arrive), 0.0, first)]
            skipped, later = [], []
            if saved is not None and window is not None:
                saved.update(todo=todo, first=first, beyond=skipped, later=later)
        if window is None or saved is None:
            skipped = later = None
        back = (arrive + 2) % 4
        pop, push, replace = heapq.heappop, heapq.heappush, heapq.heapreplace
        far_x, far_y, side_x, side_y = self._toward(goal)
        near_x, near_y = (_within(far_x, i0, i1), _within(far_y, j0, j1)) if windowed \
            else (far_x, far_y)
        moves = self._turns(around)
        if _compiled is not None:
            found = _compiled(todo, best, came, moves, table, self.nx, len(self.ys), near_x,
                              near_y, far_x, far_y, side_x, side_y, limit, goal, back,
                              arrive, BEND, skipped, later)
            return None if found is None else _path(came, found, first)
        # A state's entry stays at the head of the queue while the states it steps to
        # are reached: the first of them to enter the queue takes its place (one sift
        # instead of two: the queue's entries are all different, so it gives them in
        # the same order as taking the entry out first would), at once where it comes
        # before the head's two children, as a state just taken often does (deeper on
        # the same bound): written out here, not called, as this runs at each step.
        while todo:
            bound, cost, state = todo[0]
            if bound >= limit:
                entry = pop(todo)
                if later is not None:
                    later.append(entry)
                return None
            if state < 0:                    # the goal, turned into if need be
                return _path(came, -1 - state, first)
            if cost < best[state]:
                pop(todo)
                continue
            at_head = True                   # (its entry still heads the queue)
            point = state >> 2
            for paid, bend, moved, row in moves[state & 3]:
                new = cost - paid[point] - bend
                state2 = state + moved
                if new > best[state2]:
                    step = state2 >> 2
                    i, j = column[step], row_of[step]
                    turns = table[row + side_x[i] + side_y[j]]
                    bound = near_x[i] - new + near_y[j] + turns
                    if bound < limit:
                        best[state2] = new
                        came[state2] = state
                        if at_head:
                            entry, size = (bound, new, state2), len(todo)
                            if (size < 2 or entry < todo[1]) and (size < 3 or entry < todo[2]):
                                todo[0] = entry
                            else:
                                replace(todo, entry)
                            at_head = False
                        else:
                            push(todo, (bound, new, state2))
                    elif bound == _INF:        # beyond the window: for a larger one
                        if skipped is not None:
                            skipped.append(((far_x[i] - new + far_y[j] + turns, new, state2),
                                            state))
                        continue
                    else:
                        best[state2] = new
                        came[state2] = state
                        if later is not None:     # (popped, it would end this search)
                            later.append((bound, new, state2))
                    if step == goal and (turn := state2 & 3) != back:
                        done = (BEND if turn != arrive else 0.0) - new
                        if done < limit:
                            if at_head:
                                replace(todo, (done, -done, -1 - state2))
                                at_head = False
                            else:
                                push(todo, (done, -done, -1 - state2))
                        elif later is not None:
                            later.append((done, -done, -1 - state2))
            if at_head:
                pop(todo)
        return None


def _apart(boxes: list[Box], limits: Box | None) -> bool:
    """Whether no two of the boxes overlap (they may touch) and none crosses `limits`."""
    if limits is not None and not all(
            limits[0] <= left and limits[1] <= top and right <= limits[2]
            and bottom <= limits[3] for left, top, right, bottom in boxes):
        return False
    boxes = sorted(boxes)
    for k, (_, top, right, bottom) in enumerate(boxes):
        for other in boxes[k + 1:]:
            if other[0] >= right:    # (by left: none after it overlaps this one either)
                break
            if other[1] < bottom and other[3] > top:
                return False
    return True


def _distances(lines: list[float], k: int) -> list[float]:
    """How far each of the (sorted, distinct) lines lies from line k."""
    at = lines[k]
    return list(map(at.__sub__, lines[:k])) + list(map(at.__rsub__, lines[k:]))


def _within(distances: list[float], first: int, last: int) -> list[float]:
    """The distances of the columns (or rows) first to last, infinite beyond: a
    search in a window takes its bound from these, so that one test tells a state that
    costs too much or lies beyond the window (infinite) from one it takes."""
    return [_INF] * first + distances[first:last + 1] + [_INF] * (len(distances) - last - 1)


def _shifted(points: range, by: int) -> range:
    """The points of a run, each moved by `by`."""
    return range(points.start + by, points.stop + by, points.step)


def _bend_table(arrive: int) -> list[float]:
    """BEND times the fewest bends from each heading to a goal reached along `arrive`,
    or reached sideways and turned into there, by which side of the goal one is on: they
    depend on nothing else."""
    sideways = ((arrive + 1) % 4, (arrive + 3) % 4)
    table = [0.0] * 36
    for d in range(4):
        for sx in (-1, 0, 1):
            for sy in (-1, 0, 1):
                fewest = _bends(sx, sy, d, arrive)
                if fewest > 1:
                    fewest = min(fewest, 1 + min(_bends(sx, sy, d, s) for s in sideways))
                table[d * 9 + (sx + 1) * 3 + sy + 1] = BEND * fewest
    return table


def _bends(dx: float, dy: float, d: int, last: int) -> int:
    """The fewest bends from heading `d` to a goal (dx, dy) away, reached along `last`."""
    vx, vy = STEP[d]
    ahead, aside = dx * vx + dy * vy, dx * vy - dy * vx
    if d == last:
        return 0 if aside == 0 and ahead >= 0 else 2 if ahead > 0 else 4
    if d == (last + 2) % 4:
        return 2 if aside != 0 else 4
    lx, ly = STEP[last]
    return 1 if ahead >= 0 and dx * lx + dy * ly > 0 else 3


_BENDS = [_bend_table(arrive) for arrive in range(4)]


def _path(came: list[int], state: int, first: int) -> list[int]:
    """The points of the path from state `first` to `state`, by the states each was
    reached from."""
    points = [state // 4]
    while state != first:
        state = came[state]
        points.append(state // 4)
    return points[::-1]


def _simplify(points: list[Point]) -> tuple[Point, ...]:
    """The corners only: points on a straight run between two others are left out."""
    kept = [points[0]]
    for point, after in zip(points[1:], points[2:] + [None]):
        if point == kept[-1]:
            continue
        if after is not None and (kept[-1][0] == point[0] == after[0]
                                  or kept[-1][1] == point[1] == after[1]):
            continue
        kept.append(point)
    return tuple(kept)


def _any_crossed(a: Point, b: Point, boxes: list[Box]) -> bool:
    """Whether the axis-parallel segment a-b (or the point a, if b is a) passes through
    the inside of any of the boxes: meets the open span of each axis."""
    x1, x2 = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
    y1, y2 = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
    if x1 == x2:
        if y1 == y2:
            return any(left < x1 < right and top < y1 < bottom
                       for left, top, right, bottom in boxes)
        return any(left < x1 < right and y1 < bottom and y2 > top
                   for left, top, right, bottom in boxes)
    if y1 == y2:
        return any(x1 < right and x2 > left and top < y1 < bottom
                   for left, top, right, bottom in boxes)
    return any(x1 < right and x2 > left and y1 < bottom and y2 > top
               for left, top, right, bottom in boxes)


def _masked(lengths: list[float], free: bytearray) -> list[float]:
    """The lengths where `free` says a step can be taken, infinite elsewhere."""
    found = [_INF] * len(free)
    at = free.find(1)
    while at >= 0:
        end = free.find(0, at)
        end = len(free) if end < 0 else end
        found[at:end] = lengths[at:end]
        at = free.find(1, end)
    return found


def _lines(borders: list[float], ports: list[float],
           limits: tuple[float, float] | None) -> list[float]:
    """The grid's lines on one axis: the borders pushed out by the margin and the
    ports', within the limits."""
    found = sorted({round(v * 2) / 2 for v in borders} | {round(v * 2) / 2 for v in ports})
    if limits is not None:
        found = [v for v in found if limits[0] <= v <= limits[1]]
    return found
