"""The grid a figure's routes run on, and the search for one route on it
(geometry/route.py says what a route is; this is how it is found).

The grid's lines are every box's borders pushed out by the margin and the lines through
the ports; the segments the grown boxes block and the free grid's connected parts are
found once per figure. A route is an A* search over (grid point, heading): a step costs
its length (SHARED times more along a segment another route runs on), a bend BEND; the
heuristic is the Manhattan distance plus BEND times the fewest bends still needed, from
a table (_BENDS) of what depends only on the heading and the side of the goal one is on.
"""

from __future__ import annotations

import heapq
import math
from bisect import bisect_left, bisect_right
from itertools import pairwise

BEND = 30.0     # what a bend costs, in px of length
SHARED = 2.0    # a segment already used by another edge costs this much more per px
CROSS = 80.0    # what crossing another edge's route costs, in px of length
WINDOW = 120.0  # px: a search stays this close to its ends' box first (see Grid.route)

Point = tuple[float, float]
Rect = tuple[float, float, float, float]        # x, y, width, height (as in a spec)
Box = tuple[float, float, float, float]         # left, top, right, bottom

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
        limits = box_of(bounds) if bounds is not None else None
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
        self._parts: list[int] | None = None
        self._ways: tuple | None = None

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

    def parts(self) -> list[int]:
        """For each grid point, the number of the part of the free grid it lies in
        (found once, when first needed): a search between two parts is not started."""
        if self._parts is None:
            nx, count = self.nx, len(self.blocked_h)
            parts = [-1] * count
            for seed in range(count):
                if parts[seed] >= 0:
                    continue
                parts[seed], todo = seed, [seed]
                while todo:
                    point = todo.pop()
                    i = point % nx
                    for step, free in ((point + 1, i + 1 < nx and not self.blocked_h[point]),
                                       (point - 1, i > 0 and not self.blocked_h[point - 1]),
                                       (point + nx, point + nx < count
                                        and not self.blocked_v[point]),
                                       (point - nx, point >= nx
                                        and not self.blocked_v[point - nx])):
                        if free and parts[step] < 0:
                            parts[step] = seed
                            todo.append(step)
            self._parts = parts
        return self._parts

    def route(self, a: Point, out_a: int, b: Point, out_b: int, own: tuple[int, int],
              mark: bool = True, limit: float = math.inf) -> tuple[Point, ...] | None:
        """The route from port `a` (leaving along heading `out_a`) to port `b` (entered
        against its outward heading `out_b`), or None (also if none costs less than
        `limit`); `mark`: later routes pay to share its segments or cross it.

        The search first keeps within WINDOW px of the box its two ends span, then four
        times that, then the whole grid: a route that leaves that box by d px is at least
        2 d longer than the ends' Manhattan distance, so a route found within it that
        costs less than that bound is the cheapest of all; else the next window is
        searched. The routes are those of a search of the whole grid."""
        if self._straight(a, out_a, b, out_b, own):
            points: tuple[Point, ...] = (a, b)
        else:
            start, goal = self._escape(a, out_a), self._escape(b, out_b)
            if start is None or goal is None or self.parts()[start] != self.parts()[goal]:
                return None
            path = self._windowed(start, out_a, goal, (out_b + 2) % 4, limit)
            if path is None:
                return None
            points = _simplify([a] + [(self.xs[p % self.nx], self.ys[p // self.nx])
                                      for p in path] + [b])
        if mark:
            self.use(points)
        return points

    def _windowed(self, start: int, out_a: int, goal: int, arrive: int,
                  limit: float) -> list[int] | None:
        _, _, px, py = self._moves()
        low = (min(px[start], px[goal]), min(py[start], py[goal]))
        high = (max(px[start], px[goal]), max(py[start], py[goal]))
        distance = high[0] - low[0] + high[1] - low[1]
        for pad in (WINDOW, 4 * WINDOW, math.inf):
            window = None if pad == math.inf else (
                bisect_left(self.xs, low[0] - pad), bisect_right(self.xs, high[0] + pad) - 1,
                bisect_left(self.ys, low[1] - pad), bisect_right(self.ys, high[1] + pad) - 1)
            if window is not None and window[0] == 0 and window[2] == 0 and \
                    window[1] == self.nx - 1 and window[3] == len(self.ys) - 1:
                window = None   # the whole grid: no route lies beyond
            bound = limit if window is None else min(limit, distance + 2 * pad)
            found = self._search(start, out_a, goal, arrive, bound, window)
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
                    first = bisect_left(xs, min(x1, x2))
                    self._count([(j * nx + i) * 2 for i in range(
                        first, bisect_left(xs, max(x1, x2)))], 0, by)
            else:
                i = bisect_left(xs, x1)
                if i < nx and xs[i] == x1:
                    first = bisect_left(ys, min(y1, y2))
                    self._count([(j * nx + i) * 2 + 1 for j in range(
                        first, bisect_left(ys, max(y1, y2)))], 1, by)

    def _count(self, keys: list[int], axis: int, by: int) -> None:
        runs = self.runs[axis]
        for k, key in enumerate(keys):
            self.used[key] = self.used.get(key, 0) + by
            if k:
                point = key >> 1
                runs[point] = max(0, min(255, runs[point] + by))

    def _escape(self, port: Point, out: int) -> int | None:
        """The grid point `margin` px out from a port, if nothing is in the way."""
        dx, dy = STEP[out]
        x, y = half(port[0] + dx * self.margin), half(port[1] + dy * self.margin)
        i, j = bisect_left(self.xs, x), bisect_left(self.ys, y)
        if i == self.nx or j == len(self.ys) or self.xs[i] != x or self.ys[j] != y:
            return None   # outside the bounds
        if any(_crosses(port, (x, y), box) for box in self.boxes):
            return None
        return j * self.nx + i

    def _straight(self, a: Point, out_a: int, b: Point, out_b: int,
                  own: tuple[int, int]) -> bool:
        """Whether one segment joins the ports: they face each other on one line."""
        dx, dy = STEP[out_a]
        if out_b != (out_a + 2) % 4 or (b[0] - a[0]) * dy != (b[1] - a[1]) * dx \
                or (b[0] - a[0]) * dx + (b[1] - a[1]) * dy <= 0:
            return False
        m = self.margin
        return not any(_crosses(a, b, box) or (number not in own and _crosses(
            a, b, (box[0] - m, box[1] - m, box[2] + m, box[3] + m)))
            for number, box in enumerate(self.boxes))

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
            ys = [y for y in self.ys for _ in range(nx)]
            self._ways = ((right, down, left, up), (1, nx, -1, -nx), xs, ys)
        return self._ways

    def _search(self, start: int, heading: int, goal: int, arrive: int,
                limit: float = math.inf, window: tuple | None = None) -> list[int] | None:
        """A* over (point, heading) from `start` (reached along `heading`) to `goal`
        reached along `arrive`: the grid points of the cheapest path that costs less
        than `limit` and keeps within `window` (first and last column, first and last
        row), or None. A state is point * 4 + heading; a segment's key in `used` is its
        first point * 2 + (1 for a vertical one). Stepping onto a point another route
        runs through across the step costs CROSS."""
        free, offset, px, py = self._moves()
        used, table = self.used, _BENDS[arrive]
        inside = self._inside(window)
        gx, gy = px[goal], py[goal]
        first = start * 4 + heading
        best = {first: 0.0}
        came: dict[int, int] = {}
        todo = [(_lower_bound(gx, gy, arrive)(px[start], py[start], heading), -0.0, first)]
        back = (arrive + 2) % 4
        pop, push, get = heapq.heappop, heapq.heappush, best.get
        turns = ((0, 1, 3), (1, 2, 0), (2, 3, 1), (3, 0, 2))
        crossed = (self.runs[1], self.runs[0])     # runs across a step of each axis
        while todo:
            bound, cost, state = pop(todo)
            if bound >= limit:
                return None
            cost = -cost
            if state < 0:                    # the goal, turned into if need be
                return _path(came, -1 - state)
            if cost > best[state]:
                continue
            point, d = state >> 2, state & 3
            cx, cy = px[point], py[point]
            for turn in turns[d]:
                if not free[turn][point]:
                    continue
                step = point + offset[turn]
                if inside is not None and not inside[step]:
                    continue
                x, y = px[step], py[step]
                length = x - cx + y - cy if turn < 2 else cx - x + cy - y
                if used:
                    length *= 1 + SHARED * used.get((point if turn < 2 else step) * 2
                                                    + (turn & 1), 0)
                    if crossed[turn & 1][step]:
                        length += CROSS
                new = cost + length + (BEND if turn != d else 0.0)
                state2 = step * 4 + turn
                if new < get(state2, _INF):
                    best[state2] = new
                    came[state2] = state
                    dx, dy = gx - x, gy - y
                    push(todo, (new + (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
                                + table[turn * 9 + ((dx > 0) - (dx < 0) + 1) * 3
                                        + (dy > 0) - (dy < 0) + 1], -new, state2))
                    if step == goal and turn != back:
                        done = new + (BEND if turn != arrive else 0.0)
                        push(todo, (done, -done, -1 - state2))
        return None

    def _inside(self, window: tuple | None) -> bytearray | None:
        """For each grid point, whether it lies within `window` (None: no window)."""
        if window is None:
            return None
        i0, i1, j0, j1 = window
        nx = self.nx
        inside = bytearray(nx * len(self.ys))
        row = b"\x01" * (i1 - i0 + 1)
        for j in range(j0, j1 + 1):
            inside[j * nx + i0:j * nx + i1 + 1] = row
        return inside


def _lower_bound(gx: float, gy: float, arrive: int):
    """The heuristic: from (x, y) heading `d`, the Manhattan distance to the goal plus
    BEND for each bend still needed to arrive along heading `arrive` (_BENDS)."""
    table = _BENDS[arrive]

    def lower(x: float, y: float, d: int) -> float:
        dx, dy = gx - x, gy - y
        return abs(dx) + abs(dy) + table[d * 9 + ((dx > 0) - (dx < 0) + 1) * 3
                                         + (dy > 0) - (dy < 0) + 1]
    return lower


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
_INF = float("inf")


def _path(came: dict[int, int], state: int) -> list[int]:
    points = [state // 4]
    while state in came:
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


def _crosses(a: Point, b: Point, box: Box) -> bool:
    """Whether the axis-parallel segment a-b passes through the inside of `box`."""
    return (_meets(a[0], b[0], box[0], box[2]) and _meets(a[1], b[1], box[1], box[3]))


def _meets(u: float, v: float, low: float, high: float) -> bool:
    """Whether the span u-v (or the point u, if u == v) meets the open span low-high."""
    if u == v:
        return low < u < high
    return min(u, v) < high and max(u, v) > low


def _lines(borders: list[float], ports: list[float],
           limits: tuple[float, float] | None) -> list[float]:
    """The grid's lines on one axis: the borders pushed out by the margin and the
    ports', within the limits."""
    found = sorted({half(v) for v in borders} | {half(v) for v in ports})
    if limits is not None:
        found = [v for v in found if limits[0] <= v <= limits[1]]
    return found
