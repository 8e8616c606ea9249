"""Edge labels placed beside their routes (pure geometry).

    place_labels(routes, sizes, obstacles, at=(), bounds=None) -> list[Rect | None]
    facing(route, box) -> "left" | "right" | "center"   (the text's alignment in its box)

- `routes`: every routed edge's points, in the figure's order (those without a label
  too: no label may lie on another edge);
- `sizes`: per route, its label's (width, height), or None for an edge without one;
- `obstacles`: the boxes no label may lie on: nodes, free labels, group titles;
- `at`: per route, None, or where along the route (0: its start, 1: its end, by length)
  the author slid the label (the figure editor's drag): it is put there, on the first
  side that is free (or the first side, if none is: `check` reports it);
- `bounds`: the canvas (x, y, width, height) a label stays inside, or None.

- `lines`: segments a label keeps off where it can (the group frames' borders).

Labels are placed one after another in the routes' order, each clear of the obstacles,
of every label placed before it, of every route (its own included) by CLEAR px, and
inside the bounds. Where: beside the route's longest straight run that holds the label,
GAP px from it, from the run's middle outwards (STEP px at a time), on the run's upper
or right side first, a horizontal run before a vertical one for a label wider than
high (a line of text reads as its edge's along the line, not sticking out sideways from
a long vertical one, its far end far from it);
else on that run, centred on the line (which it then breaks, as its background hides
it); else next to the end the edge names first (its source); else further out beside
any run, but not where another route lies nearer the label than its own (it would read
as that edge's label). The first place that meets nothing is taken, and one that also keeps off
`lines` is preferred (of any kind: a label breaking its line rather than one on a
frame's border), and, of those, one whose own route is nearer it than any other route
or line by LEAD px (a label between two runs, or just under a frame's border, reads as
either's: it is taken only if no place reads as its own alone, and then the one whose
nearest other route or line lies furthest, slid along its run to halfway between them;
not for a label the author slid); a label no free place is found for goes where it meets least
(a line crossed rather than a box: `check` reports either). The same input gives the same boxes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise

from .frames import overlaps

Point = tuple[float, float]
Rect = tuple[float, float, float, float]   # x, y, width, height

GAP = 4.0      # px between a route and its label
CLEAR = 3.0    # px a label keeps from every other thing
STEP = 10.0    # px between the places tried along a run
END_CLEAR = 12.0   # px a label keeps from its run's ends (bends, arrow heads) if it can
FURTHER = (14.0, 28.0, 42.0)   # px further out, tried last
BOX_HIT = 10   # with no free place: a box met weighs as much as this many lines crossed
FALLBACK = 400   # with no free place: how many of the best places are weighed
AMBIGUOUS = 2   # with no free place: a place nearer another route weighs as 2 lines crossed
LEAD = 8.0     # px by which its own route must be nearer a label than any other, if it can


def place_labels(routes: Sequence[Sequence[Point]], sizes: Sequence[tuple[float, float] | None],
                 obstacles: Sequence[Rect], at: Sequence[float | None] = (),
                 bounds: Rect | None = None,
                 lines: Sequence[tuple[Point, Point]] = ()) -> list[Rect | None]:
    """Each label's box (see the module's docstring)."""
    taken = list(obstacles)
    segments = [list(pairwise(points)) for points in routes]
    extents = [[_extent(s) for s in route] for route in segments]
    borders = [_extent(s) for s in lines]
    placed: list[Rect | None] = []
    for number, size in enumerate(sizes):
        if size is None or len(routes[number]) < 2:
            placed.append(None)
            continue
        others = [s for i, route in enumerate(extents) if i != number for s in route]
        slid = at[number] if number < len(at) else None
        tries = list(((box, False, 0) for box in _slid(routes[number], size, slid))
                     if slid is not None else _candidates(segments[number], size))
        box = _best(tries, taken, others, extents[number], borders, bounds, slid is None)
        placed.append(box)
        taken.append(box)
    return placed


def _best(tries: list[tuple[Rect, bool, int]], taken: list[Rect], others: list, own: list,
          lines: Sequence, bounds: Rect | None, lead: bool = True) -> Rect:
    """The first place that meets nothing, not even `lines`, and lies nearer its own
    route than any other route or line, by LEAD px (`lead`; else nearer); else, of the
    places that meet nothing, not even `lines`, and lie nearer their own route, the one
    whose nearest other route or line lies furthest beyond its own (the first on a tie:
    a label between two runs, or between a run and a frame's border, halfway rather
    than hard by either); else the first that meets nothing else and is as near its
    own; else the one that meets fewest things, a place nearer another route counting
    as AMBIGUOUS things met (the first such)."""
    fallback = None
    every = others + own
    near = others + list(lines)
    for box, on_route, _ in tries:
        if _free(box, taken, others if on_route else every, bounds) and _own(box, own, others):
            if not lines or _free(box, [], lines, None):
                if not lead:
                    return box
                lead_by = _lead(box, own, near)
                if lead_by > LEAD:
                    return box
                if fallback is None or fallback[0] or lead_by > fallback[2]:
                    fallback = (0, box, lead_by)
            elif fallback is None:
                fallback = (1, box, 0.0)
    if fallback is not None and fallback[0] == 0:
        return _centred(fallback[1], taken, every, own, near, bounds, lines)
    if fallback is not None:
        return fallback[1]
    return min(tries[:FALLBACK], key=lambda t: _hits(t[0], taken, others if t[1] else every,
                                                     bounds)
               + AMBIGUOUS * (not _own(t[0], own, others)))[0]


def _centred(box: Rect, taken: list[Rect], every: list, own: list, near: list,
              bounds: Rect | None, lines: Sequence) -> Rect:
    """The box slid along its route, up to STEP / 2 px either way in half pixels (the
    places tried lie STEP px apart), to where its nearest other route or line lies
    furthest beyond its own route, still meeting nothing and as far from its own route:
    halfway between what lies on either side of it."""
    best, most = box, _lead(box, own, near)
    mine = min(_distance(box, s) for s in own)
    for axis in (0, 1):
        for k in range(-int(STEP), int(STEP) + 1):
            x, y = (box[0] + k / 2, box[1]) if axis == 0 else (box[0], box[1] + k / 2)
            moved = (x, y, box[2], box[3])
            lead = _lead(moved, own, near)
            if lead > most and min(_distance(moved, s) for s in own) == mine and \
                    _free(moved, taken, every, bounds) and \
                    (not lines or _free(moved, [], lines, None)):
                best, most = moved, lead
    return best


def _lead(box: Rect, own: list, others: list) -> float:
    """By how much the nearest other route, or frame's border (`others`), lies further
    from `box` than its own route: more than LEAD px, and it reads as its own route's
    label alone (a label between two runs reads as either's; one just under a frame's
    border, as the frame's)."""
    mine = min(_distance(box, s) for s in own)
    return min((_distance(box, s) for s in others), default=float("inf")) - mine


def _own(box: Rect, own: list, others: list) -> bool:
    """Whether `box` reads as its own route's label: it lies GAP px from it (or on it),
    or, further out, no other route comes nearer it than its own (a label moved out
    beside another edge reads as that one's)."""
    mine = min(_distance(box, s) for s in own)
    return mine <= GAP + 0.5 or all(_distance(box, s) >= mine for s in others)


def _distance(box: Rect, s: Extent) -> float:
    """How far a horizontal or vertical segment lies from `box` (0: they meet)."""
    x, y, w, h = box
    dx = max(0.0, x - s[2], s[0] - x - w)
    dy = max(0.0, y - s[3], s[1] - y - h)
    return (dx * dx + dy * dy) ** 0.5


def _candidates(route: list[tuple[Point, Point]], size: tuple[float, float]
                ) -> Iterator[tuple[Rect, bool, int]]:
    """The places to try, best first, each with whether it lies on its own route, and
    its kind (0: beside a run, 1: on it, 2: by the start, 3 and on: further out)."""
    runs = sorted(range(len(route)), key=lambda i: (-_length(route[i]), i))
    roomy = [i for i in runs if _length(route[i]) >= _along(route[i], size) + 2 * END_CLEAR]
    if size[0] > size[1]:   # a line of text reads as its edge's along a horizontal run
        roomy = [i for i in roomy if _flat(route[i])] + [i for i in roomy if not _flat(route[i])]
    for i in roomy:
        yield from ((box, False, 0) for box in _beside(route[i], size, GAP, END_CLEAR))
    for i in roomy:   # on the run itself, the line broken by the label
        yield from ((box, True, 1) for box in _beside(route[i], size, None, END_CLEAR))
    yield from ((box, False, 2) for box in _near_start(route[0], size))
    for kind, offset in enumerate((GAP, *FURTHER), start=3):
        for i in runs:
            yield from ((box, False, kind) for box in _beside(route[i], size, offset, 0.0))


def _slid(points: Sequence[Point], size: tuple[float, float], t: float) -> Iterator[Rect]:
    """Beside the point `t` of the way along the route, either side."""
    route = list(pairwise(points))
    total = sum(_length(s) for s in route) or 1.0
    left = max(0.0, min(1.0, t)) * total
    for a, b in route:
        if left <= _length((a, b)) or (a, b) == route[-1]:
            k = min(1.0, left / (_length((a, b)) or 1.0))
            point = (a[0] + (b[0] - a[0]) * k, a[1] + (b[1] - a[1]) * k)
            yield from _sides((a, b), point, size, GAP)
            return
        left -= _length((a, b))


def _beside(segment: tuple[Point, Point], size: tuple[float, float], offset: float | None,
            keep: float) -> Iterator[Rect]:
    """Beside a run, `offset` px from it (None: centred on it), from its middle outwards
    in STEP px."""
    (ax, ay), (bx, by) = segment
    length, along = _length(segment), _along(segment, size)
    room = max(0.0, (length - along) / 2 - keep)
    steps = [0.0]
    k = STEP
    while k <= room:
        steps += [-k, k]
        k += STEP
    mid = ((ax + bx) / 2, (ay + by) / 2)
    horizontal = abs(by - ay) <= abs(bx - ax)
    for d in steps:
        point = (mid[0] + d, mid[1]) if horizontal else (mid[0], mid[1] + d)
        yield from _sides(segment, point, size, offset)


def _sides(segment: tuple[Point, Point], point: Point, size: tuple[float, float],
           offset: float | None) -> Iterator[Rect]:
    """A label centred along the run at `point`, above then below it (a horizontal run),
    or right then left of it (a vertical one)."""
    (ax, ay), (bx, by) = segment
    w, h = size
    if offset is None:
        yield point[0] - w / 2, point[1] - h / 2, w, h
        return
    if abs(by - ay) <= abs(bx - ax):
        yield point[0] - w / 2, point[1] - offset - h, w, h
        yield point[0] - w / 2, point[1] + offset, w, h
    else:
        yield point[0] + offset, point[1] - h / 2, w, h
        yield point[0] - offset - w, point[1] - h / 2, w, h


def _near_start(first: tuple[Point, Point], size: tuple[float, float]) -> Iterator[Rect]:
    """Next to the route's start, beside its first run, the label's near end at the
    start: the four corners round the start point."""
    (ax, ay), (bx, by) = first
    w, h = size
    sx = 1.0 if bx >= ax else -1.0
    sy = 1.0 if by >= ay else -1.0
    x = ax + GAP if sx > 0 else ax - GAP - w
    y = ay + GAP if sy > 0 else ay - GAP - h
    if abs(by - ay) <= abs(bx - ax):
        yield x, ay - GAP - h, w, h
        yield x, ay + GAP, w, h
    else:
        yield ax + GAP, y, w, h
        yield ax - GAP - w, y, w, h


def _flat(segment: tuple[Point, Point]) -> bool:
    """Whether a run is horizontal."""
    (ax, ay), (bx, by) = segment
    return abs(by - ay) <= abs(bx - ax)


def _length(segment: tuple[Point, Point]) -> float:
    (ax, ay), (bx, by) = segment
    return abs(bx - ax) + abs(by - ay)


def _along(segment: tuple[Point, Point], size: tuple[float, float]) -> float:
    """The label's extent along the run."""
    (ax, ay), (bx, by) = segment
    return size[0] if abs(by - ay) <= abs(bx - ax) else size[1]


Extent = tuple[float, float, float, float, Point, Point]   # a segment's box, and its ends


def _extent(segment: tuple[Point, Point]) -> Extent:
    (ax, ay), (bx, by) = segment
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by), segment[0], segment[1]


def _free(box: Rect, taken: list[Rect], segments: Sequence[Extent],
          bounds: Rect | None) -> bool:
    """Whether `box` (grown by CLEAR) meets nothing and lies inside the bounds."""
    x, y, w, h = box
    if bounds is not None and (x < bounds[0] or y < bounds[1] or x + w > bounds[0] + bounds[2]
                               or y + h > bounds[1] + bounds[3]):
        return False
    grown = (x - CLEAR, y - CLEAR, x + w + CLEAR, y + h + CLEAR)
    for ox, oy, ow, oh in taken:
        if grown[0] < ox + ow and ox < grown[2] and grown[1] < oy + oh and oy < grown[3]:
            return False
    return not any(_meets(s, grown) for s in segments)


def _meets(s: Extent, box: tuple[float, float, float, float]) -> bool:
    """Whether a segment meets the inside of `box`: for a horizontal or vertical one (a
    route's), whether their extents overlap; else by clipping."""
    if s[2] <= box[0] or s[0] >= box[2] or s[3] <= box[1] or s[1] >= box[3]:
        return False
    return s[0] == s[2] or s[1] == s[3] or crosses(s[4], s[5], box)


def _hits(box: Rect, taken: list[Rect], segments: list[Extent],
          bounds: Rect | None) -> int:
    """How much `box` meets: BOX_HIT for each box it overlaps (a label on a node hides a
    text), 1 for each box it comes within CLEAR of and each segment it meets, grown by
    CLEAR (it hides a stretch of line); leaving the bounds counts as much as anything."""
    x, y, w, h = box
    if bounds is not None and (x < bounds[0] or y < bounds[1] or x + w > bounds[0] + bounds[2]
                               or y + h > bounds[1] + bounds[3]):
        return 1_000
    grown = (x - CLEAR, y - CLEAR, w + 2 * CLEAR, h + 2 * CLEAR)
    hits = sum(BOX_HIT if overlaps(box, other, 0.0) else 1
               for other in taken if overlaps(grown, other, 0.0))
    edges = (grown[0], grown[1], grown[0] + grown[2], grown[1] + grown[3])
    return hits + sum(1 for s in segments if _meets(s, edges))


def facing(points: Sequence[Point], box: Rect) -> str:
    """How a label's text lines up in its box (sized to its longest language) so that
    a shorter one stays beside its route: "left" for a box right of the vertical run
    nearest it, "right" for one left of it, else "center" (beside a horizontal run, or
    on the route)."""
    x, w = box[0], box[2]
    (ax, ay), (bx, by) = min(pairwise(points), key=lambda s: _distance(box, _extent(s)))
    if ax != bx or ay == by:   # a horizontal run (or a point)
        return "center"
    if x >= ax:
        return "left"
    return "right" if x + w <= ax else "center"


def crosses(a: Point, b: Point, box: tuple[float, float, float, float],
            closed: bool = False) -> bool:
    """Whether the segment a–b meets the inside of `box` (left, top, right, bottom)
    (Liang–Barsky clipping); `closed`: a segment lying along a side meets it too."""
    low, high = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - box[0]), (dx, box[2] - a[0]), (-dy, a[1] - box[1]),
                 (dy, box[3] - a[1])):
        if p == 0:
            if q < 0 or (q == 0 and not closed):
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
    return low < high


def faults(routes: Sequence[Sequence[Point]], boxes: Sequence[Rect | None],
           obstacles: Sequence[Rect], lines: Sequence[tuple[Point, Point]] = ()) -> list[int]:
    """The routes whose placed label (`boxes`, as place_labels gives them) meets an
    obstacle, another label, another route or one of `lines`: each such route's number
    once (geometry/untangle.py weighs them)."""
    segments = [[_extent(s) for s in pairwise(points)] for points in routes]
    borders = [_extent(s) for s in lines]
    found = []
    for number, box in enumerate(boxes):
        if box is None:
            continue
        others = [s for i, route in enumerate(segments) if i != number for s in route]
        labels = [b for i, b in enumerate(boxes) if b is not None and i != number]
        if not _free(box, list(obstacles) + labels, others + borders, None):
            found.append(number)
    return found
