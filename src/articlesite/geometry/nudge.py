"""Routes moved into the middle of their channels, and spread apart where they share one.

The router's grid puts a route's inner segments on the first free line: right beside a
box, and on the same line as another route's. Here each inner segment (one with a bend
at both ends, the ends at the ports stay) slides across, keeping its bends, within the
channel it is free to move in: as far as no box (grown by the margin) is crossed, the
neighbouring segments keep at least `margin` px, and no run out of another route's port
(which stays) comes nearer than `margin` px alongside it (two routes that close read as
one line). Segments whose channels overlap and whose extents overlap, or that share one
channel and whose extents come within two margins of each other along (two runs on one
line, a few px apart, read as one line too), are spread evenly across the channel they
share, in the order that crosses (or comes within `margin` px of crossing) fewest of
each other's neighbouring segments; a lone segment goes to its channel's middle.
Segments whose channels do not all overlap go each to the middle of its own, or one
above the other in the order that crosses fewest (by where their channels lie, then
neighbours swapped as above), as far apart as their channels let them (at most three
margins), where that leaves their routes crossing the others fewer times.
Vertical segments move first, then horizontal ones. Pure and deterministic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cmp_to_key

from .crossings import between, crossed, segments
from .grid import Box, Point

NEAR = 2.0   # margins between two runs one after the other on one line that read as one
GAPS = (3, 2, 1)   # margins between pieces whose rooms do not all overlap, widest first


@dataclass
class _Piece:
    """An inner segment of route `route`, from point `k` to `k + 1`, across the axis."""

    route: int
    k: int
    at: float                      # its coordinate across (x of a vertical segment)
    span: tuple[float, float]      # its extent along
    room: tuple[float, float]      # how far it may move across
    before: tuple[float, float]    # neighbours: (where along, toward which side across)
    after: tuple[float, float]


def nudge(routes: list[list[Point]], boxes: list[Box], margin: float,
          limits: Box | None = None) -> list[list[Point]]:
    """The routes (lists of points, changed in place and returned) with their inner
    segments centred and spread; `boxes` are every node and obstacle, `limits` the
    (left, top, right, bottom) no segment moves beyond."""
    grown = [(b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin) for b in boxes]
    for axis in (0, 1):          # 0: vertical segments move in x; 1: horizontal, in y
        pieces = [piece for number, points in enumerate(routes)
                  for piece in _pieces(number, points, axis, grown, margin)]
        ends = _end_runs(routes, axis)
        for piece in pieces:
            _keep_off(piece, [run for run in ends if run[0] != piece.route], margin, routes,
                      axis)
            if limits is not None:
                piece.room = (max(piece.room[0], min(limits[axis], piece.at)),
                              min(piece.room[1], max(limits[axis + 2], piece.at)))
        for group in _groups(pieces, margin):
            _spread(group, routes, axis, margin)
    return routes


def _end_runs(routes: list[list[Point]], axis: int) -> list[tuple[int, float, tuple]]:
    """The runs out of each route's ports (they never move) that lie across `axis` (at
    one x, for axis 0): (route, where across, extent along)."""
    found = []
    for number, points in enumerate(routes):
        for a, b in ((points[0], points[1]), (points[-2], points[-1]))[:len(points) - 1]:
            if a[axis] == b[axis]:
                found.append((number, a[axis], tuple(sorted((a[1 - axis], b[1 - axis])))))
    return sorted(found)


def _keep_off(piece: _Piece, runs: list, margin: float, routes: list[list[Point]],
              axis: int) -> None:
    """Narrow the piece's room so that it keeps `margin` px from the port runs of other
    routes alongside it (where their extents overlap), on the side of each where it
    crosses that run's route fewer times (where it is, or where it has more room, on a
    tie; on the side its room lies on, if it lies on one side); where it cannot keep
    `margin` from what lies on both sides of it, it goes halfway between them, as far
    as its room (clear of the boxes) lets it."""
    low, high = piece.room
    if low == high:
        return                          # inside a grown box: it stays
    below, above = [], []
    for route, at, span in runs:
        if _along(span, piece.span):
            side = _side(piece, routes, axis, route, at, margin)
            (below if side < 0 else above).append(at)
    if not below and not above:
        return
    floor = max([low - margin, *below])       # the nearest thing on either side
    ceiling = min([high + margin, *above])
    if floor + margin <= ceiling - margin:
        piece.room = (floor + margin, ceiling - margin)
    else:
        middle = round(floor + ceiling) / 2      # on a whole or half pixel, as _move puts it
        middle = min(max(middle, low), high)
        piece.room = (middle, middle)


def _side(piece: _Piece, routes: list[list[Point]], axis: int, other: int, at: float,
          margin: float) -> int:
    """Which side of another route's run at `at` the piece goes: -1 if the run lies
    below it (the piece above the run), 1 if above; the side where the piece's route
    crosses the other route fewer times, else the side it is on."""
    low, high = piece.room
    if at <= low or at >= high:
        return -1 if at <= low else 1   # the room lies on one side only
    if at == piece.at:                  # on it: the side with more room
        where = -1 if high - at >= at - low else 1
    else:
        where = -1 if at < piece.at else 1
    points = routes[piece.route]
    crossed = []
    for to in (at + margin / 2, at - margin / 2):     # the piece above the run, below it
        moved = list(points)
        for n in (piece.k, piece.k + 1):
            moved[n] = (to, moved[n][1]) if axis == 0 else (moved[n][0], to)
        crossed.append(between(moved, routes[other]))
    if crossed[0] != crossed[1]:
        return -1 if crossed[0] < crossed[1] else 1
    return where


def _along(a: tuple[float, float], b: tuple[float, float], slack: float = 0.0) -> bool:
    """Whether two extents along overlap, or come within `slack` px of each other."""
    return a[0] < b[1] + slack and b[0] < a[1] + slack


def _pieces(number: int, points: list[Point], axis: int, grown: list[Box],
            margin: float) -> list[_Piece]:
    found = []
    along = 1 - axis
    for k in range(1, len(points) - 2):
        a, b = points[k], points[k + 1]
        if a[axis] != b[axis]:
            continue                                   # not across this axis
        at = a[axis]
        span = (min(a[along], b[along]), max(a[along], b[along]))
        low, high = _room(at, span, axis, grown)
        for neighbour in (points[k - 1], points[k + 2]):
            if neighbour[axis] < at:
                low = max(low, neighbour[axis] + margin)
            else:
                high = min(high, neighbour[axis] - margin)
        low, high = min(low, at), max(high, at)
        before = (a[along], math.copysign(1.0, points[k - 1][axis] - at))
        after = (b[along], math.copysign(1.0, points[k + 2][axis] - at))
        found.append(_Piece(number, k, at, span, (low, high), before, after))
    return found


def _room(at: float, span: tuple[float, float], axis: int,
          grown: list[Box]) -> tuple[float, float]:
    """How far a segment at `at` across, spanning `span` along, may move before it
    meets a grown box."""
    low, high = -math.inf, math.inf
    along = 1 - axis
    for box in grown:
        if box[along] < span[1] and box[along + 2] > span[0]:
            if box[axis + 2] <= at:
                low = max(low, box[axis + 2])
            elif box[axis] >= at:
                high = min(high, box[axis])
            else:
                return at, at                          # already inside: stays
    return low, high


def _groups(pieces: list[_Piece], margin: float) -> list[list[_Piece]]:
    """Pieces that could meet (`_meet`), transitively."""
    pieces = sorted(pieces, key=lambda p: (p.room, p.span, p.route, p.k))
    groups: list[list[_Piece]] = []
    for piece in pieces:
        joined = [g for g in groups if any(_meet(piece, other, margin) for other in g)]
        merged = [piece]
        for group in joined:
            merged.extend(group)
            groups.remove(group)
        groups.append(merged)
    return groups


def _meet(p: _Piece, q: _Piece, margin: float) -> bool:
    """Whether two pieces could meet: their rooms overlap and so do their spans; or they
    share one channel (the same room) and their spans come within NEAR margins (one
    after the other on one line, they would read as one)."""
    if not (p.room[0] < q.room[1] and q.room[0] < p.room[1]):
        return False
    return _along(p.span, q.span) or (p.room == q.room and _along(p.span, q.span, NEAR * margin))


def _spread(group: list[_Piece], routes: list[list[Point]], axis: int,
            margin: float) -> None:
    """Spread a group evenly across the room its pieces share; a lone piece goes to the
    middle of its room. Room that is open on one side (a route round the outside of
    the figure) is taken `margin` px a piece on that side."""
    low = max(p.room[0] for p in group)
    high = min(p.room[1] for p in group)
    if len(group) == 1 and not (math.isfinite(low) and math.isfinite(high)):
        return                          # a lone detour stays as close as it can
    if not math.isfinite(low):
        low = min(high, min(p.at for p in group)) - margin * (len(group) + 1) \
            if math.isfinite(high) else min(p.at for p in group) - margin * len(group)
    if not math.isfinite(high):
        high = max(low, max(p.at for p in group)) + margin * (len(group) + 1)
    if low >= high:     # rooms that do not all overlap
        _apart(group, routes, axis, margin)
        return
    ordered = sorted(group, key=cmp_to_key(lambda p, q: _order(p, q, margin)))
    for n, piece in enumerate(ordered):
        _move(piece, low + (high - low) * (n + 1) / (len(ordered) + 1), routes, axis)


def _apart(group: list[_Piece], routes: list[list[Point]], axis: int, margin: float) -> None:
    """Pieces whose rooms do not all overlap: each to the middle of its own room, or
    rising in an order that crosses less (`_room_order`, `_in_order`) where that leaves
    their routes crossing the others fewer times."""
    own = [(piece, (piece.room[0] + piece.room[1]) / 2) for piece in group
           if math.isfinite(piece.room[0]) and math.isfinite(piece.room[1])]
    ordered = _room_order(group, margin)
    places = _in_order(ordered, margin)
    if places is None:
        for piece, to in own:
            _move(piece, to, routes, axis)
        return
    mine = sorted({piece.route for piece in group})
    kept = {number: list(routes[number]) for number in mine}

    def placed(moves: list) -> None:
        """The moves made, from where the routes were."""
        for number in mine:
            routes[number][:] = kept[number]
        for piece, to in moves:
            _move(piece, to, routes, axis)

    def crossings() -> int:
        """How often the group's routes cross the others."""
        split = [segments(route) for route in routes]   # (each route's segments, once)
        return sum(crossed(split[number], other) for number in mine
                   for n, other in enumerate(split) if n != number)
    placed(own)
    apart = crossings()
    placed(list(zip(ordered, places, strict=True)))
    if apart <= crossings():
        placed(own)


def _room_order(group: list[_Piece], margin: float) -> list[_Piece]:
    """Pieces whose rooms do not all overlap, by the middle of their rooms, then two
    neighbours whose spans overlap swapped where the other order crosses less."""
    ordered = sorted(group, key=lambda p: ((p.room[0] + p.room[1]) / 2, p.route, p.k))
    for _ in range(len(ordered)):
        swapped = False
        for n in range(len(ordered) - 1):
            p, q = ordered[n], ordered[n + 1]
            if _along(p.span, q.span) and _order(q, p, margin) < 0:
                ordered[n], ordered[n + 1], swapped = q, p, True
        if not swapped:
            break
    return ordered


def _in_order(ordered: list[_Piece], margin: float) -> list[float] | None:
    """Places for pieces whose rooms do not all overlap, rising in this order, each in its
    own room and GAPS[k] margins past the one before (the widest gap that fits), each in
    the middle of what the others leave it; None if even `margin` px apart they do not
    fit (or a room is open on a side)."""
    if not all(math.isfinite(v) for piece in ordered for v in piece.room):
        return None
    for gap in (margin * k for k in GAPS):
        lows, highs = [], []
        for piece in ordered:
            lows.append(max(piece.room[0], lows[-1] + gap) if lows else piece.room[0])
        for piece in reversed(ordered):
            highs.append(min(piece.room[1], highs[-1] - gap) if highs else piece.room[1])
        highs.reverse()
        if all(low <= high for low, high in zip(lows, highs, strict=True)):
            return [(low + high) / 2 for low, high in zip(lows, highs, strict=True)]
    return None


def _order(p: _Piece, q: _Piece, margin: float) -> int:
    """Whether p goes before q (lower across) to cross fewer neighbouring segments."""
    difference = _crossings(p, q, margin) - _crossings(q, p, margin)
    if difference:
        return -1 if difference < 0 else 1
    return -1 if (p.at, p.route, p.k) < (q.at, q.route, q.k) else 1


def _crossings(low: _Piece, high: _Piece, margin: float) -> int:
    """Crossings between the neighbours of two pieces when `low` lies below `high` (a
    neighbour meeting the other piece, or passing within `margin` px of its end, counts:
    it would run along the other's neighbour)."""
    count = 0
    for where, toward in (low.before, low.after):
        count += toward > 0 and high.span[0] - margin < where < high.span[1] + margin
    for where, toward in (high.before, high.after):
        count += toward < 0 and low.span[0] - margin < where < low.span[1] + margin
    return count


def _move(piece: _Piece, to: float, routes: list[list[Point]], axis: int) -> None:
    """Move the piece, unless that would shorten a neighbouring segment to nothing or
    turn it round (its neighbour may have moved meanwhile)."""
    to = round(to * 2) / 2
    points = routes[piece.route]
    k = piece.k
    if not piece.room[0] <= to <= piece.room[1]:
        return
    for far, near in ((points[k - 1], points[k]), (points[k + 2], points[k + 1])):
        if (far[axis] - to) * (far[axis] - near[axis]) <= 0:
            return
    for n in (k, k + 1):
        x, y = points[n]
        points[n] = (to, y) if axis == 0 else (x, to)
