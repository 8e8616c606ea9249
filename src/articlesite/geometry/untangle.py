"""Rip up and route again: the sides of the edges that cross, changed one edge at a time
where that leaves fewer crossings (pure geometry; `figure layout` writes the sides it
chose into the spec, as the figure editor's edge-end handles would).

The router (geometry/route.py) takes, for an end that names no side, the side facing the
other end; a route that must then cross others may cross none from another side (round
a box, into the side that faces away). A figure's sides are scored by routing it whole
(as the build does): first the routes that fail, then the crossings, a route round the
outside (not a feedback edge's) counting as OUTSIDE crossings; then labels with no free
place (LABEL each), sides of boxes that one edge enters and another leaves (MIXED each:
the arrows on one side read as one flow; but a call and its answer, drawn side by side)
and bends (BENDS each); then the length of the routes.

From the whole figure's routes, the edges to blame (in a crossing, round the outside
of the drawing, with a label that finds no free place, or entering a side another leaves:
a feedback edge there before the other), the MOST most blamed, are routed
again alone from each pair of sides its free ends allow, the other routes kept where
they are (geometry/reroute.py): the pair whose route crosses fewest of them (then goes
round the outside least, bends least and, once nothing crosses, takes fewest sides the
others take the other way; then is shortest) is kept if it beats the edge's
route now, and the next edge is tried against that. The sides so changed are then
scored whole: kept if the figure scores better; else, edge by edge, the TOP pairs that
did best alone are scored whole on their own, the first that does better kept. An edge
is routed alone so once against the same routes: a round that finds nothing better
goes on to the edges to blame not yet tried against them, those never tried first on
a tie of blame (by the edges' order alone, the last ones, often the feedback edges,
were never tried). Up to ROUNDS such rounds, while they find something better or an
edge to try; then, while whole scorings are
left (at most ROUTED edges routed by them in all: many for a small figure, few for a
large one), each edge still to blame scored whole with each pair of its sides, as the
light look may miss a pair: at most EVERY edges routed so (what a small figure can
afford), and only in a figure small enough for two such scorings (one scores only the
first pair of the edge most to blame; of the 112 layouts of the drafts of
bench/layout_quality.py in four directions at two widths and of random graphs, none
changed without it, and it cost rlhf-loop a fifth of its side choice).
Last, if the edges' own sides scored better than the layout's (`start`) at first, the
edges not to blame take the layout's sides back (all at once, else one box's at a time),
kept where no more routes fail or cross and no more labels are crowded (`_in_flow`: the
own sides were taken for every edge, for a knot's sake). Deterministic: the same input
gives the same sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import pairwise, product

from .crossings import crossings
from .frames import detours
from .labels import faults, place_labels
from .ports import meeting
from .reroute import SWAPPED, Rerouter
from .route import MARGIN, SIDES, Ends, Rect, Route, route_edges

ROUNDS = 3
ROUTED = 200    # edges routed by whole scorings (the figure routed as the build does), at most
EVERY = 20      # edges routed by the every-pair scorings at the end, at most
MOST = 4        # edges to blame tried alone in one round, at most
TOP = 2         # pairs of sides of one edge scored whole when all together did no better
BENDS = 0.6     # a bend weighs as much as this many labels with no free place
LABEL = 1       # a label with no free place (weighed after the crossings)
OUTSIDE = 3     # a route round the outside of the drawing weighs as much as 3 crossings
DETOUR = 0.6    # a frame's border crossed beyond what a route's ends ask weighs as a bend
MIXED = 1.0     # a side that edges both enter and leave weighs as this many labels
FLOW = 3        # boxes whose edges _in_flow gives the layout's sides back one box at a time


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
    search.run([_started(edges, start)] if start else [])
    return {i: (ends.source_side, ends.target_side) for i, ends in enumerate(search.current)
            if ends != edges[i]}


def mixed_sides(edges: Sequence[Ends], routes: Sequence[Route]) -> set[tuple[str, str]]:
    """The sides of boxes that one edge enters and another leaves (ports.meeting)."""
    return {(edges[i].target, routes[i].target_side) for i, _ in _meeting(edges, routes)}


def _meeting(edges: Sequence[Ends], routes: Sequence[Route]) -> list[tuple[int, int]]:
    """ports.meeting, of the sides the routes take."""
    return meeting(edges, {i: (r.source_side, r.target_side) for i, r in enumerate(routes)
                           if r.ok})


def _sided(ends: Ends, sides: tuple[str | None, str | None]) -> Ends:
    """The edge with these sides."""
    return replace(ends, source_side=sides[0], target_side=sides[1])


def _started(edges: Sequence[Ends], start: Mapping[int, tuple[str, str]]) -> list[Ends]:
    """The edges with `start`'s sides for their ends that name none."""
    first = list(edges)
    for i, (side_a, side_b) in start.items():
        ends = edges[i]
        first[i] = _sided(ends, (ends.source_side or side_a, ends.target_side or side_b))
    return first


class _Search:
    def __init__(self, nodes, edges, obstacles, bounds, outside_ok):
        self.nodes, self.edges, self.obstacles, self.bounds = nodes, edges, obstacles, bounds
        self.current = list(edges)
        self.outside_ok, self.tries, self.routed, self.budget = outside_ok, 0, 0, ROUTED
        self.labels: list = []
        self.borders: list = []
        self.frames: list = []
        self.proposed: dict[int, tuple] = {}   # edge -> the score it was routed alone at
        boxes = list(nodes.values())
        self.hull = (min(b[0] for b in boxes), min(b[1] for b in boxes),
                     max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)) \
            if boxes else (0.0, 0.0, 0.0, 0.0)

    def score(self, edges: list[Ends]) -> tuple[tuple, list]:
        """(routes failed, crossings and OUTSIDE for each route round the outside, LABEL
        for each label with no free place and BENDS for each bend, length) and the edges
        to blame: each crossing's two, each one outside OUTSIDE times, each label's
        LABEL times."""
        return self.scored(edges)[:2]

    def scored(self, edges: list[Ends]) -> tuple[tuple, list, list[Route], int]:
        """`score`, the routes scored (the figure routed whole, as the build does) and
        how many labels find no free place."""
        self.tries += 1
        self.routed += len(edges)
        routes = route_edges(self.nodes, edges, self.obstacles, bounds=self.bounds)
        found = crossings([r.points if r.ok else () for r in routes])
        outside = [i for i, r in enumerate(routes) if r.ok and self._outside(i, r.points)]
        length = sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for r in routes if r.ok
                     for a, b in pairwise(r.points))
        bad = [i for a, b, _ in found for i in (a, b)] + outside * OUTSIDE
        misplaced = self._misplaced([r.points if r.ok else () for r in routes])
        bad += misplaced * LABEL
        bends = sum(len(r.points) - 2 for r in routes if r.ok)
        detoured = [i for i, r in enumerate(routes) if r.ok
                    for _ in range(detours(r.points, self.frames))]
        bad += detoured
        meeting = _meeting(edges, routes)   # each side's blamed on a feedback edge there
        mixed = {(edges[i].target, routes[i].target_side) for i, _ in meeting}
        bad += [j if edges[j].around and not edges[i].around else i for i, j in meeting]
        return (sum(not r.ok for r in routes), len(found) + OUTSIDE * len(outside),
                LABEL * len(misplaced) + BENDS * bends + DETOUR * len(detoured)
                + MIXED * len(mixed), length), bad, routes, len(misplaced)

    def _misplaced(self, routes: list) -> list[int]:
        """The edges whose labels find no free place."""
        if not any(self.labels):
            return []
        sizes = [size if points else None for size, points in zip(self.labels, routes)]
        taken = list(self.nodes.values()) + list(self.obstacles)
        boxes = place_labels(routes, sizes, taken, bounds=self.bounds, lines=self.borders)
        return faults(routes, boxes, taken, self.borders)

    def _outside(self, i: int, points) -> bool:
        """Whether edge i's route runs round the outside of the drawing (and may not)."""
        left, top, right, bottom = self.hull
        return i not in self.outside_ok and any(
            not (left <= x <= right and top <= y <= bottom) for x, y in points)

    def run(self, starts: Sequence[list[Ends]] = ()) -> None:
        """The best sides found (see the module's docstring), from the edges' own or
        those of `starts` that score best."""
        best = self.scored(self.current)
        own = True    # the edges' own sides scored best (their ends face each other)
        for first in starts:
            trial = self.scored(first)
            if trial[0] < best[0]:
                self.current, best, own = first, trial, False
        for _ in range(ROUNDS):
            if not best[1] or self._spent():
                break
            proposal, ranked = self._propose(best)
            if proposal is None:
                if self._untried(best):
                    continue
                break
            trial = self.scored(proposal)
            if trial[0] < best[0]:
                self.current, best = proposal, trial
                continue
            kept = self._one_by_one(ranked, best)
            if kept is None:
                if self._untried(best):
                    continue
                break
            best = kept
        if 2 * len(self.edges) <= EVERY:
            self.budget = min(ROUTED, self.routed + EVERY)
            best = self._every_pair(best)
        if own and starts:
            self._in_flow(best, starts[0])

    def _in_flow(self, best: tuple, start: list[Ends]) -> None:
        """Where the edges' own sides did better than the layout's (`start`, the flow's:
        a tree down the page leaves its boxes' bottoms), every edge not to blame given
        the layout's sides back at once, kept if no more routes fail or cross and no more
        labels find no free place (the own sides of the edges in a knot took along others
        that had no need to: a box's children below left by its flank); else the edges
        out of one box at a time (the box with most such edges first, FLOW boxes at
        most)."""
        blamed = set(best[1])
        back = [i for i, ends in enumerate(self.current)
                if i not in blamed and ends != start[i]]
        if not back:
            return
        by_box = Counter(self.edges[i].source for i in back)
        for group in [back] + [[i for i in back if self.edges[i].source == box]
                               for box, many in by_box.most_common(FLOW) if many < len(back)]:
            edges = [start[i] if i in group else ends for i, ends in enumerate(self.current)]
            trial = self.scored(edges)
            if trial[0][:2] <= best[0][:2] and trial[3] <= best[3]:
                self.current, best = edges, trial
                if group is back:
                    return

    def _spent(self) -> bool:
        return self.routed + len(self.edges) > self.budget

    def _every_pair(self, best: tuple) -> tuple:
        """While whole scorings are left: each edge to blame, most blamed first, scored
        whole with each pair of sides its free ends allow; the best pair kept if better
        (what a small figure can afford, and the light look may miss). The best score
        then."""
        for i, _ in sorted(Counter(best[1]).items(), key=lambda item: (-item[1], item[0])):
            ends = self.edges[i]
            for pair in product([ends.source_side] if ends.source_side else SIDES,
                                [ends.target_side] if ends.target_side else SIDES):
                if self._spent() or not best[1]:
                    return best
                edges = list(self.current)
                edges[i] = _sided(ends, pair)
                if edges[i] != self.current[i]:
                    trial = self.scored(edges)
                    if trial[0] < best[0]:
                        self.current, best = edges, trial
        return best

    def _one_by_one(self, ranked: list, best: tuple) -> tuple | None:
        """Each edge's pairs of sides that did better alone (`ranked`), scored whole on
        their own, in turn (at most TOP an edge), the first that does better kept: the
        best score then, or None if none did."""
        kept = None
        for i, pairs in ranked:
            ends = self.edges[i]
            for _, pair in pairs[:TOP]:
                if self._spent():
                    return kept
                edges = list(self.current)
                edges[i] = _sided(ends, pair)
                trial = self.scored(edges)
                if trial[0] < best[0]:
                    self.current, best, kept = edges, trial, trial
                    break
        return kept

    def _propose(self, best: tuple) -> tuple[list[Ends] | None, list]:
        """The sides each edge to blame (the MOST most blamed) would rather take,
        routed alone against the others' routes (geometry/reroute.py), or None if none
        would; and, by edge, the pairs of sides that did better alone, best first."""
        _, bad, routes, _ = best
        free = [i for i in self._blamed(bad) if self.proposed.get(i) != best[0]][:MOST]
        self.proposed.update((i, best[0]) for i in free)
        routed = {i: r.points for i, r in enumerate(routes) if r.ok}
        sides = {i: (r.source_side, r.target_side) for i, r in enumerate(routes) if r.ok}
        tidy = not best[0][1]   # no crossing left: the sides both entered and left weigh
        again = Rerouter(self.nodes, self.edges, routed, sides, self.obstacles, self.bounds,
                         MARGIN, free, SWAPPED if tidy else 0.0)
        proposal, ranked = list(self.current), []
        for i in free:
            ends = self.edges[i]
            pairs = product([ends.source_side] if ends.source_side else SIDES,
                            [ends.target_side] if ends.target_side else SIDES)
            better = again.tried(i, pairs, lambda points, sides, i=i: self._light(
                i, points, sides, again, tidy))
            if better:
                proposal[i] = _sided(ends, better[0][1])
                ranked.append((i, better))
        return (proposal if ranked else None), ranked

    def _blamed(self, bad: list[int]) -> list[int]:
        """The edges to blame with an end free to change, most blamed first, then
        those never routed alone before those that were."""
        return [i for i, _ in sorted(Counter(bad).items(),
                                     key=lambda item: (-item[1], item[0] in self.proposed,
                                                       item[0]))
                if self.edges[i].source_side is None or self.edges[i].target_side is None]

    def _untried(self, best: tuple) -> bool:
        """Whether some edge to blame has not been routed alone yet against these
        routes."""
        return any(self.proposed.get(i) != best[0] for i in self._blamed(best[1]))

    def _light(self, i: int, points, sides: tuple[str, str], again: Rerouter,
               tidy: bool) -> tuple:
        """How good a route for edge i is among the others' (crossings, and OUTSIDE if
        round the outside; BENDS a bend, and if `tidy` MIXED for each end on a side the
        others' edges take the other way; length)."""
        return (again.crossed(i, points) + OUTSIDE * self._outside(i, points),
                BENDS * (len(points) - 2) + (MIXED * again.mixed(i, sides) if tidy else 0),
                sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in pairwise(points)))
