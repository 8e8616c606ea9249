"""Where the routed edges of a figure cross one another (pure geometry).

Two edges cross where a horizontal segment of one and a vertical segment of the other
meet at a point inside both (not at either's end or bend): a route that touches another
at a corner, runs along it, or ends on it does not cross it. `figure layout` prints how
many crossings it left, `check` lists them.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from itertools import pairwise

Point = tuple[float, float]


def crossings(routes: Sequence[Sequence[Point]]) -> list[tuple[int, int, Point]]:
    """Every crossing as (the lower route's number, the higher one's, the point), in the
    order of the routes' numbers, then of the point."""
    horizontal: list[tuple[float, float, float, int]] = []   # y, x from, x to, route
    vertical: list[tuple[float, float, float, int]] = []     # x, y from, y to, route
    for number, points in enumerate(routes):
        for (x1, y1), (x2, y2) in pairwise(points):
            if y1 == y2 and x1 != x2:
                horizontal.append((y1, min(x1, x2), max(x1, x2), number))
            elif x1 == x2 and y1 != y2:
                vertical.append((x1, min(y1, y2), max(y1, y2), number))
    vertical.sort()
    xs = [v[0] for v in vertical]
    found = []
    for y, left, right, a in horizontal:
        for k in range(bisect_right(xs, left), bisect_left(xs, right)):
            x, top, bottom, b = vertical[k]
            if a != b and top < y < bottom:
                found.append((min(a, b), max(a, b), (x, y)))
    return sorted(set(found))


def count(routes: Sequence[Sequence[Point]]) -> int:
    """How many crossings the routes have."""
    return len(crossings(routes))


def between(one: Sequence[Point], other: Sequence[Point]) -> int:
    """How many times two routes cross each other (as `crossings` counts them)."""
    return crossed(segments(one), segments(other))


Segments = tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]


def segments(points: Sequence[Point]) -> Segments:
    """A route's horizontal segments (y, x from, x to) and vertical ones (x, y from,
    y to), for `crossed`."""
    horizontal, vertical = [], []
    for (x1, y1), (x2, y2) in pairwise(points):
        if y1 == y2 and x1 != x2:
            horizontal.append((y1, min(x1, x2), max(x1, x2)))
        elif x1 == x2 and y1 != y2:
            vertical.append((x1, min(y1, y2), max(y1, y2)))
    return horizontal, vertical


def crossed(one: Segments, other: Segments) -> int:
    """How many times two routes, as `segments` gives them, cross each other (each
    point once)."""
    found = {(x, y) for (across, _), (_, down) in ((one, other), (other, one))
             for y, left, right in across for x, top, bottom in down
             if left < x < right and top < y < bottom}
    return len(found)
