"""Orthogonal edge routing: each edge names its two boxes (and, if it likes, their sides)
and gets a polyline of horizontal and vertical segments between them.

Interface (stable: the build, `figure layout` and the figure editor call it)
---------------------------------------------------------------------------
    route_edges(nodes, edges, obstacles=(), *, bounds=None, margin=MARGIN) -> list[Route]

- `nodes`: {node id: (x, y, width, height)}, the boxes edges attach to, in any one
  coordinate system (the build uses the spec's own, before its transforms).
- `edges`: a sequence of `Ends(source, target, source_side=None, target_side=None,
  around=False)` (`around`: a feedback edge, load/edge_ends.py); a side is one of
  SIDES ("top", "right", "bottom", "left") or None: then the side of the box that
  faces the other end is taken; if no route starts there, or only one that bends
  DETOUR times or more (back across the figure), the box's other sides are tried too
  and the cheapest route kept (then every side's ports are spread again).
- `obstacles`: other boxes (x, y, width, height) no edge may cross: the labels.
- `bounds`: (x, y, width, height) the routes stay inside (the canvas), or None.
- `margin`: how far (px) a route keeps from every box it does not connect.

The build (load/edge_ends.py) passes the spec's nodes (`box`), its labels as
(x, y, width, LABEL_HEIGHT[class]) (load/figures.py), bounds (0, 0, width, height) and
the default margin, before the spec's transforms; a caller that wants the build's
routes passes the same. Call it with every routed edge of a figure at once: ports on a
shared side and the spreading depend on all of them.

It returns one `Route` per edge, in the same order: `route.points`, a tuple of (x, y)
from the source's border to the target's, every coordinate a whole or half pixel, or
`route.error`, a sentence saying why there is none (the caller makes it a problem); the
sides used are `route.source_side` and `route.target_side`. Nothing is raised for bad
input: an end naming no node, an edge from a node to itself or an unknown side is a
Route with an error.

What a route is: it leaves the source at a right angle to its side and enters the target
at a right angle to its side, both on the border; in between it keeps `margin` px away
from every node and every obstacle (its own boxes too, but for the segment out of each
port; two boxes closer than twice the margin are joined only by one straight segment
between sides that face each other, and bounds closer than the margin leave no way
round a box on that side). Ends that share
a side are spread evenly along it, ordered by where their other end lies (then by edge
order), so that they do not overlap; where two facing sides hold only the edges between
them, those are spread over the stretch both sides share, each one straight across, and
the only end on a side that faces the other end's side moves along it to make one
straight line where it can. Among the routes that do
this, the one found has the least length plus BEND px for each bend; a segment another
edge already runs along costs SHARED times its length more, crossing another edge's route
CROSS px (an edge with `around`, a feedback edge, AROUND px more: grid.py). Inner
segments are then moved to the middle of the gap they run through, or spread across it
(nudge.py). If some routes then cross, the RIPPED edges in most crossings are routed
again, each among all the other routes (those found after it too), and kept where fewer
routes cross (rip up and reroute, as routers of circuit boards do); then every edge is
routed once more with the ports of each shared side ordered by where the routes head
(ports.headings; the routes before the first edge whose ports that moves are the first
routing's, not searched again), and the routes that cross fewer times are kept. The same
arguments give the same points, byte for byte (no randomness, no set order, ties broken
by a fixed order of the grid's points).

How: as diagram editors do it (libavoid; ELK's orthogonal router): the sides and ports
first (ports.py), then a sparse grid of the lines through every box's borders pushed out
by the margin and through the ports, with the segments the boxes block and the free
grid's connected parts found once per call, and an A* search per edge over (grid point,
heading) with the cost above and, as heuristic, the Manhattan distance plus BEND times
the fewest bends still needed (grid.py); last, the inner segments moved into the middle
of their gaps (nudge.py). A figure of 15 nodes and 20 edges takes about 3 ms of CPU
(bench/route.py).

The last REMEMBERED calls' routes are kept: a call with the same arguments (as
`figure layout` makes when it chooses a fold, then the sides, then counts what crosses)
gets them without routing again; `forget()` drops them (for a benchmark).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from .crossings import count, crossings
from .grid import BEND, OUT, SHARED, Grid, Point, Rect, box_of
from .nudge import nudge
from .ports import SIDES, Ends, choose_sides, free_port, headings, place_ports

__all__ = ["BEND", "MARGIN", "SHARED", "SIDES", "Ends", "Point", "Rect", "Route", "forget",
           "route_edges"]

MARGIN = 10.0   # px kept from every box an edge does not connect
DETOUR = 4      # bends from which an edge with an unnamed end tries the other sides
REMEMBERED = 16  # the last calls' routes kept: the same arguments are not routed again
RIPPED = 2      # edges in most crossings routed again among all the others (_ripped)

_ROUTED: dict[tuple, tuple[Route, ...]] = {}


@dataclass(frozen=True)
class Route:
    points: tuple[Point, ...] = ()
    error: str | None = None
    source_side: str | None = None
    target_side: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def forget() -> None:
    """Forget the routes remembered (for a benchmark that times routing anew)."""
    _ROUTED.clear()


def route_edges(nodes: Mapping[str, Rect], edges: Sequence[Ends],
                obstacles: Sequence[Rect] = (), *, bounds: Rect | None = None,
                margin: float = MARGIN) -> list[Route]:
    """Every edge's route, or why it has none (see the module's docstring)."""
    try:
        key = (tuple((node, tuple(map(float, rect))) for node, rect in nodes.items()),
               tuple(edges), tuple(tuple(map(float, rect)) for rect in obstacles),
               None if bounds is None else tuple(map(float, bounds)), float(margin))
        hash(key)
    except (TypeError, ValueError):
        return _route_edges(nodes, edges, obstacles, bounds, margin)
    if key not in _ROUTED:
        if len(_ROUTED) >= REMEMBERED:
            _ROUTED.pop(next(iter(_ROUTED), None), None)
        _ROUTED[key] = tuple(_route_edges(nodes, edges, obstacles, bounds, margin))
    return list(_ROUTED[key])


def _route_edges(nodes: Mapping[str, Rect], edges: Sequence[Ends], obstacles: Sequence[Rect],
                 bounds: Rect | None, margin: float) -> list[Route]:
    ids = sorted(nodes)
    index = {node: i for i, node in enumerate(ids)}
    boxes = [box_of(nodes[node]) for node in ids] + [box_of(rect) for rect in obstacles]
    errors = [_refused(ends, nodes) for ends in edges]
    good = [i for i, error in enumerate(errors) if error is None]
    grid_of = (boxes, margin, bounds)
    sides = {i: choose_sides(edges[i], nodes) for i in good}
    found, ports, grid = _route_all(good, edges, sides, nodes, index, grid_of)
    retry = [i for i in good if (edges[i].source_side is None or edges[i].target_side is None)
             and (i not in found or len(found[i]) - 2 >= DETOUR)]
    if retry:
        tried = _other_sides(retry, edges, sides, ports, found, nodes, index, grid_of)
        if tried:   # the ports of every side spread again, with the new sides
            new_sides = {**sides, **{i: chosen[0] for i, chosen in tried.items()}}
            again, again_ports, again_grid = _route_all(good, edges, new_sides, nodes,
                                                        index, grid_of)
            if set(again) >= set(found) | set(tried):
                sides, found, ports, grid = new_sides, again, again_ports, again_grid
            else:    # lost one: the routes as tried
                sides, ports = new_sides, None
                found.update({i: chosen[1] for i, chosen in tried.items()})
    for i in good:
        if i not in found:
            (side_a, side_b), auto = sides[i], edges[i].source_side is None or \
                edges[i].target_side is None
            errors[i] = (f"no route from '{edges[i].source}' ({side_a}) to "
                         f"'{edges[i].target}' ({side_b}) keeps {margin:g} px from every "
                         "other box" + (", nor from any other side" if auto else ""))
    found = _reordered(good, edges, sides, nodes, index, grid_of, found,
                       None if ports is None else (ports, grid))
    return [Route(error=errors[i]) if i not in sides else
            Route(tuple(found.get(i, ())), errors[i], *sides[i]) for i in range(len(edges))]


def _reordered(good: list[int], edges: Sequence[Ends], sides: dict, nodes: Mapping[str, Rect],
               index: dict, grid_of: tuple, found: dict, routed: tuple[dict, Grid] | None
               ) -> dict:
    """The routes nudged; if some cross, the RIPPED edges in most crossings routed again
    among all the others, each kept where fewer cross (_ripped), those routes kept if
    fewer cross once nudged; and routed again with the ports of each shared side
    ordered by where the first routes head (headings), nudged too: those of the two
    that cross fewer times (the first on a tie; the second must route every edge the
    first did). `routed`: the ports `found` was routed from by _route_all with these
    sides and the grid it marked them on (None if it was not): where the headings leave
    the ports as they are, routing again would find `found`."""
    first = _nudged(found, grid_of)
    crossed = count([first[i] for i in sorted(first)])
    if crossed and routed is not None:
        ripped = _ripped(edges, sides, routed, found, index)
        if ripped is not found:
            again = _nudged(ripped, grid_of)
            if (fewer := count([again[i] for i in sorted(again)])) < crossed:
                first, found, crossed = again, ripped, fewer
    if not crossed:
        return first
    ports = routed[0] if routed is not None else None
    heading = headings(first, sides)
    if ports is not None and place_ports({i: edges[i] for i in good}, sides, nodes,
                                         heading) == ports:
        return first
    again, _, _ = _route_all(good, edges, sides, nodes, index, grid_of, heading,
                             (found, ports) if ports is not None else None)
    if not set(again) >= set(first) or again == found:
        return first
    again = _nudged(again, grid_of)
    if count([again[i] for i in sorted(again)]) < crossed:
        return again
    return first


def _nudged(found: dict, grid_of: tuple) -> dict:
    """Copies of the routes, nudged (nudge.py)."""
    boxes, margin, bounds = grid_of
    nudged = {i: list(points) for i, points in found.items()}
    nudge([nudged[i] for i in sorted(nudged)], boxes, margin,
          box_of(bounds) if bounds is not None else None)
    return nudged


def _route_all(good: list[int], edges: Sequence[Ends], sides: dict, nodes: Mapping[str, Rect],
               index: dict, grid_of: tuple, heading: Mapping = {},
               known: tuple[dict, dict] | None = None) -> tuple[dict, dict, Grid]:
    """The routes found from these sides, by edge, in edge order, every edge's ports
    (ordered on a shared side by `heading`, where one is given: ports.place_ports) and
    the grid the routes are marked on.
    `known`: the routes and ports of a routing from these sides (_reordered's first).
    Where the ports are the same points (the order on some sides changed), so is the
    grid, and so is each route up to the first edge whose ports moved: taken from
    `known`, counted on the grid as if found, not searched again."""
    ports = place_ports({i: edges[i] for i in good}, sides, nodes, heading)
    points_of = [p for pair in ports.values() for p in pair]
    grid = Grid(*grid_of, points_of)
    found: dict[int, list[Point]] = {}
    same = known is not None and set(points_of) == {p for ends in known[1].values()
                                                    for p in ends}
    for i in good:
        (a, b), (side_a, side_b) = ports[i], sides[i]
        if same and ports[i] == known[1][i]:
            if i in known[0]:
                found[i] = list(known[0][i])
                grid.use(tuple(found[i]))
            continue
        same = False
        points = grid.route(a, OUT[side_a], b, OUT[side_b],
                            (index[edges[i].source], index[edges[i].target]),
                            around=edges[i].around)
        if points is not None:
            found[i] = list(points)
    return found, ports, grid


def _ripped(edges: Sequence[Ends], sides: dict, routed: tuple[dict, Grid], found: dict,
            index: dict) -> dict:
    """Rip up and route again: the RIPPED edges in most crossings (before nudging; then
    the first), each taken off the grid its routes are marked on and routed again from
    its ports among all the others, the edges routed after it too, kept where fewer
    routes cross then. `found` itself if none is kept. (The grid is changed.)"""
    order = sorted(found)
    pairs = crossings([found[i] for i in order])
    blame = Counter(order[k] for a, b, _ in pairs for k in (a, b))
    ports, grid = routed
    kept, crossed = found, len(pairs)
    for i, _ in sorted(blame.items(), key=lambda item: (-item[1], item[0]))[:RIPPED]:
        grid.use(tuple(kept[i]), -1)
        (a, b), (side_a, side_b) = ports[i], sides[i]
        new = grid.route(a, OUT[side_a], b, OUT[side_b],
                         (index[edges[i].source], index[edges[i].target]), mark=False,
                         around=edges[i].around)
        if new is not None:
            trial = {**kept, i: list(new)}
            if (fewer := count([trial[k] for k in order])) < crossed:
                kept, crossed = trial, fewer
        grid.use(tuple(kept[i]))
    return kept


def _cost(points: Sequence[Point]) -> float:
    return sum(abs(b[0] - a[0]) + abs(b[1] - a[1]) for a, b in pairwise(points)) \
        + BEND * (len(points) - 2)


def _other_sides(retry: list[int], edges: Sequence[Ends], sides: dict, ports: dict,
                 found: dict, nodes: Mapping[str, Rect], index: dict,
                 grid_of: tuple) -> dict[int, tuple[tuple[str, str], list[Point]]]:
    """The edges with no route from the sides that face each other, or one that bends
    DETOUR times or more, try the other sides of their ends that name none, from a port
    in the middle of the side (or a quarter along it, if that is taken), on a grid with
    those ports' lines: the sides and route that cost least (length plus BEND a bend;
    the route found first on a tie), for each edge whose sides change (a feedback
    edge's search paying AROUND more for a crossing, as its others do)."""
    taken = {p for pair in ports.values() for p in pair}
    tries = {}
    for i in retry:
        ends = edges[i]
        choices = []
        for a in [ends.source_side] if ends.source_side else SIDES:
            for b in [ends.target_side] if ends.target_side else SIDES:
                if (a, b) != sides[i]:
                    pa = free_port(nodes[ends.source], a, taken)
                    pb = free_port(nodes[ends.target], b, taken)
                    choices.append((abs(pa[0] - pb[0]) + abs(pa[1] - pb[1]), SIDES.index(a),
                                    SIDES.index(b), (a, b), (pa, pb)))
        tries[i] = sorted(choices)
    grid = Grid(*grid_of, [p for pair in ports.values() for p in pair]
                + [p for choices in tries.values() for c in choices for p in c[4]])
    for i, points in found.items():
        if i not in tries:
            grid.use(tuple(points))
    chosen = {}
    for i in retry:
        own = (index[edges[i].source], index[edges[i].target])
        best = (_cost(found[i]), sides[i], found[i]) if i in found else None
        for *_, (a, b), (pa, pb) in tries[i]:
            points = grid.route(pa, OUT[a], pb, OUT[b], own, mark=False,
                                limit=best[0] if best is not None else math.inf,
                                around=edges[i].around)
            if points is not None and (best is None or _cost(points) < best[0]):
                best = (_cost(points), (a, b), list(points))
        if best is not None:
            grid.use(tuple(best[2]))
            if best[1] != sides[i]:
                chosen[i] = (best[1], best[2])
    return chosen


def _refused(ends: Ends, nodes: Mapping[str, Rect]) -> str | None:
    for node in (ends.source, ends.target):
        if node not in nodes:
            return f"'{node}' names no node"
    for side in (ends.source_side, ends.target_side):
        if side is not None and side not in SIDES:
            return f"unknown side '{side}' (sides: {', '.join(SIDES)})"
    if ends.source == ends.target:
        return f"an edge from node '{ends.source}' to itself"
    return None
