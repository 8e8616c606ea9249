"""Rip up and route again: the sides of the edges that cross, changed one edge at a time
where that leaves fewer crossings (pure geometry; `figure layout` writes the sides it
chose into the spec, as the figure editor's edge-end handles would).

The router (geometry/route.py) takes, for an end that names no side, the side facing the
other end; a route that must then cross others may cross none from another side (round
a box, into the side that faces away). Here every edge to blame (in a crossing, round
the outside of the drawing, or with a label that finds no free place), most blamed
first, tries each pair of sides its free ends allow; the pair that scores best is kept:
first the fewest crossings, a route round the outside (not a feedback edge's) counting
as OUTSIDE crossings; then labels with no free place (LABEL each) and bends (BENDS
each); then the shortest routes. The edges still to blame are tried again, up to ROUNDS
times and at most TRIES routings in all (each routes every edge: ports on a shared side
depend on all of them). Deterministic: the same input gives the same sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise, product

from .crossings import crossings
from .frames import detours
from .labels import faults, place_labels
from .route import SIDES, Ends, Rect, route_edges

ROUNDS = 3
TRIES = 150
BENDS = 0.6     # a bend weighs as much as this many labels with no free place
LABEL = 1       # a label with no free place (weighed after the crossings)
OUTSIDE = 3     # a route round the outside of the drawing weighs as much as 3 crossings
DETOUR = 0.6    # a frame's border crossed beyond what a route's ends ask weighs as a bend


def untangle(nodes: Mapping[str, Rect], edges: Sequence[Ends], obstacles: Sequence[Rect] = (),
             bounds: Rect | None = None, outside_ok: frozenset[int] = frozenset(),
             start: Mapping[int, tuple[str, str]] = {},
             labels: Sequence[tuple[float, float] | None] = (), frames: Sequence[Rect] = ()
             ) -> dict[int, tuple[str, str]]:
    """Edge number -> the (source side, target side) it should name, for the edges whose
    sides are better named; `edges`' named sides are kept. `start`: sides to begin
    with for the ends that name none (kept unless others do better). `outside_ok`: edges
    (the feedback ones) that may run round the outside of the drawing. `labels`: each
    edge's label size or None; a label the build could place only on a box, another
    label or route, or the border of one of `frames`, weighs LABEL crossings."""
    search = _Search(nodes, list(edges), obstacles, bounds, outside_ok)
    search.labels = list(labels) + [None] * (len(edges) - len(labels))
    search.frames = list(frames)
    search.borders = [((x1, y1), (x2, y2)) for x, y, w, h in frames
                      for x1, y1, x2, y2 in ((x, y, x + w, y), (x + w, y, x + w, y + h),
                                             (x, y + h, x + w, y + h), (x, y, x, y + h))]
    first = list(edges)
    for i, (side_a, side_b) in start.items():
        ends = edges[i]
        first[i] = Ends(ends.source, ends.target, ends.source_side or side_a,
                        ends.target_side or side_b)
    if search.score(first)[0] < search.score(list(edges))[0]:
        search.current = first
    search.run()
    return {i: (ends.source_side, ends.target_side) for i, ends in enumerate(search.current)
            if ends != edges[i]}


class _Search:
    def __init__(self, nodes, edges, obstacles, bounds, outside_ok):
        self.nodes, self.edges, self.obstacles, self.bounds = nodes, edges, obstacles, bounds
        self.current = list(edges)
        self.outside_ok, self.tries = outside_ok, 0
        self.labels: list = []
        self.borders: list = []
        self.frames: list = []
        boxes = list(nodes.values())
        self.hull = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                     max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)) \
            if boxes else (0.0, 0.0, 0.0, 0.0)

    def score(self, edges: list[Ends]) -> tuple[tuple, list]:
        """(routes failed, crossings and OUTSIDE for each route round the outside, LABEL
        for each label with no free place and BENDS for each bend, length) and the edges
        to blame: each crossing's two, each one outside OUTSIDE times, each label's
        LABEL times."""
        self.tries += 1
        routes = route_edges(self.nodes, edges, self.obstacles, bounds=self.bounds)
        found = crossings([r.points if r.ok else () for r in routes])
        outside = [i for i, r in enumerate(routes) if r.ok and i not in self.outside_ok
                   and any(not self._within(p) for p in r.points)]
        length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for r in routes if r.ok
                     for a, b in pairwise(r.points))
        bad = [i for a, b, _ in found for i in (a, b)] + outside * OUTSIDE
        misplaced = self._misplaced([r.points if r.ok else () for r in routes])
        bad += misplaced * LABEL
        bends = sum(len(r.points) - 2 for r in routes if r.ok)
        detoured = [i for i, r in enumerate(routes) if r.ok
                    for _ in range(detours(r.points, self.frames))]
        bad += detoured
        return (sum(not r.ok for r in routes), len(found) + OUTSIDE * len(outside),
                LABEL * len(misplaced) + BENDS * bends + DETOUR * len(detoured), length), bad

    def _misplaced(self, routes: list) -> list[int]:
        """The edges whose labels find no free place."""
        if not any(self.labels):
            return []
        sizes = [size if points else None for size, points in zip(self.labels, routes)]
        taken = list(self.nodes.values()) + list(self.obstacles)
        boxes = place_labels(routes, sizes, taken, bounds=self.bounds, lines=self.borders)
        return faults(routes, boxes, taken, self.borders)

    def _within(self, point) -> bool:
        left, top, right, bottom = self.hull
        return left <= point[0] <= right and top <= point[1] <= bottom

    def run(self) -> None:
        best, found = self.score(self.current)
        for _ in range(ROUNDS):
            better = False
            for i, _ in sorted(Counter(found).items(), key=lambda item: (-item[1], item[0])):
                if not found or self.tries >= TRIES:
                    break
                if i not in found:
                    continue
                trial = self._try(i, best)
                if trial is not None:
                    (best, found), better = trial, True
            if not better:
                break

    def _try(self, i: int, best: tuple):
        """The best change of edge i's sides, if one scores better than `best`."""
        ends = self.edges[i]
        pairs = product([ends.source_side] if ends.source_side else SIDES,
                        [ends.target_side] if ends.target_side else SIDES)
        result, kept = None, None
        for side_a, side_b in pairs:
            if self.tries >= TRIES:
                break
            edges = list(self.current)
            edges[i] = Ends(ends.source, ends.target, side_a, side_b)
            trial = self.score(edges)
            if trial[0] < (result[0] if result else best):
                result, kept = trial, (side_a, side_b)
        if result is not None:
            self.current[i] = Ends(ends.source, ends.target, *kept)
        return result
