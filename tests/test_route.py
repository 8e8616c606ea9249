"""The orthogonal edge router (geometry/route.py), on random box layouts: every segment
horizontal or vertical, clear of every box it does not connect, the ends on the named
sides at right angles, the same points for the same figure, and a route whenever a
corridor exists."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from articlesite.geometry.crossings import count
from articlesite.geometry.grid import Grid
from articlesite.geometry.route import MARGIN, SIDES, Ends, route_edges

CELL = 160      # layouts are boxes in the cells of a grid, one box a cell at most
ROUTES = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def layouts(draw):
    """Boxes in distinct cells of a 4 × 4 grid, each leaving at least 2 × MARGIN + 4 px
    to its cell's border: around every box runs a corridor to every other. Some boxes
    are obstacles (labels); the others are nodes, with edges between them."""
    cells = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2,
                          max_size=9, unique=True))
    boxes = []
    for column, row in cells:
        room = CELL - 2 * (MARGIN + 2)
        w = draw(st.integers(20, int(room)))
        h = draw(st.integers(20, int(room)))
        x = column * CELL + MARGIN + 2 + draw(st.integers(0, int(room) - w))
        y = row * CELL + MARGIN + 2 + draw(st.integers(0, int(room) - h))
        boxes.append((float(x), float(y), float(w), float(h)))
    obstacles = draw(st.integers(0, len(boxes) - 2))
    nodes = {f"n{i}": box for i, box in enumerate(boxes[obstacles:])}
    ids = sorted(nodes)
    side = st.none() | st.sampled_from(SIDES)
    pairs = st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids), side, side)
                     .filter(lambda e: e[0] != e[1]), min_size=1, max_size=8)
    edges = [Ends(*e) for e in draw(pairs)]
    return nodes, boxes[:obstacles], edges


def inside(a, b, box, grow: float) -> bool:
    """Whether segment a-b passes through the inside of `box` grown by `grow` (less a
    rounding allowance)."""
    x, y, w, h = box
    left, top, right, bottom = x - grow + 0.01, y - grow + 0.01, x + w + grow - 0.01, \
        y + h + grow - 0.01
    return (min(a[0], b[0]) < right and max(a[0], b[0]) > left
            and min(a[1], b[1]) < bottom and max(a[1], b[1]) > top)


def on_side(point, box, side: str) -> bool:
    x, y, w, h = box
    px, py = point
    if side in ("top", "bottom"):
        return py == (y if side == "top" else y + h) and x < px < x + w
    return px == (x if side == "left" else x + w) and y < py < y + h


OUTWARD = {"top": (0, -1), "bottom": (0, 1), "left": (-1, 0), "right": (1, 0)}


def leaves(points, side: str) -> bool:
    """Whether the first segment of `points` goes straight out of `side`."""
    (x1, y1), (x2, y2) = points[0], points[1]
    dx, dy = OUTWARD[side]
    return (x2 - x1) * dy == (y2 - y1) * dx and (x2 - x1) * dx + (y2 - y1) * dy > 0


@ROUTES
@given(layouts())
def test_routes_are_orthogonal_clear_of_other_boxes_and_on_their_sides(layout):
    nodes, obstacles, edges = layout
    routes = route_edges(nodes, edges, obstacles)
    for ends, route in zip(edges, routes):
        assert route.ok, (route.error, nodes, obstacles, edges)   # a corridor exists
        points = route.points
        assert all(p[0] * 2 == int(p[0] * 2) and p[1] * 2 == int(p[1] * 2) for p in points)
        for a, b in pairwise(points):
            assert (a[0] == b[0]) != (a[1] == b[1]), points   # one axis, never a point
            for node, box in nodes.items():
                own = node in (ends.source, ends.target)
                assert not inside(a, b, box, 0.0 if own else MARGIN), (node, points)
            for box in obstacles:
                assert not inside(a, b, box, MARGIN), (box, points)
        for node, side, named, tip in ((ends.source, route.source_side, ends.source_side,
                                        points), (ends.target, route.target_side,
                                                  ends.target_side, points[::-1])):
            assert named in (None, side)
            assert on_side(tip[0], nodes[node], side), (node, side, points)
            assert leaves(tip, side), (node, side, points)
    ports = [p for route in routes for p in (route.points[0], route.points[-1])]
    assert len(set(ports)) == len(ports), ports   # ends sharing a side are spread


@ROUTES
@given(layouts())
def test_the_same_figure_gives_the_same_points(layout):
    nodes, obstacles, edges = layout
    first = route_edges(nodes, edges, obstacles)
    reordered = dict(reversed(list(nodes.items())))     # the spec's node order is not used
    assert route_edges(reordered, edges, obstacles) == first
    assert repr(route_edges(nodes, edges, obstacles)) == repr(first)


def test_ends_on_one_side_are_spread_in_the_order_of_their_other_ends():
    nodes = {"a": (200, 0, 100, 40), "left": (0, 200, 60, 40), "mid": (220, 200, 60, 40),
             "right": (440, 200, 60, 40)}
    edges = [Ends("a", "right", "bottom"), Ends("a", "left", "bottom"),
             Ends("a", "mid", "bottom")]
    starts = [route.points[0] for route in route_edges(nodes, edges)]
    assert starts == [(275.0, 40.0), (225.0, 40.0), (250.0, 40.0)]


def test_facing_boxes_on_one_line_get_one_straight_segment():
    # Closer than twice the margin: one segment is the only way.
    routes = route_edges({"a": (0, 0, 50, 30), "b": (65, 0, 50, 30)}, [Ends("a", "b")])
    assert routes[0].points == ((50.0, 15.0), (65.0, 15.0))
    assert (routes[0].source_side, routes[0].target_side) == ("right", "left")


def test_a_lone_end_lines_up_with_the_end_it_faces():
    # b is lower and taller than a: b's left side has one end, which meets a's on its line;
    # a's right side has two, spread (30 and 50), so that c's is not moved either.
    nodes = {"a": (0, 20, 50, 60), "b": (150, 30, 50, 120), "c": (150, 160, 50, 40)}
    routes = route_edges(nodes, [Ends("a", "b"), Ends("a", "c", "right", "left")])
    assert routes[0].points == ((50.0, 40.0), (150.0, 40.0))
    assert routes[1].points[0] == (50.0, 60.0) and routes[1].points[-1] == (150.0, 180.0)
    alone = route_edges({"a": (0, 0, 50, 60), "b": (150, 30, 50, 60)}, [Ends("a", "b")])
    assert alone[0].points == ((50.0, 45.0), (150.0, 45.0))   # the middle of 40-50


def test_edges_both_ways_between_facing_sides_run_straight_side_by_side():
    # step's right side and check's left hold only these two edges: over what the sides
    # share (45-105, less 10 px at each end), a third and two thirds along.
    nodes = {"step": (210, 30, 160, 90), "check": (450, 45, 100, 60)}
    there, back = route_edges(nodes, [Ends("step", "check"), Ends("check", "step")])
    assert there.points == ((370.0, 68.5), (450.0, 68.5))
    assert back.points == ((450.0, 81.5), (370.0, 81.5))


def test_a_route_goes_round_a_box_in_the_way():
    nodes = {"a": (0, 100, 50, 30), "b": (300, 100, 50, 30), "wall": (120, 40, 60, 150)}
    points = route_edges(nodes, [Ends("a", "b", "right", "left")])[0].points
    assert len(points) > 2
    assert not any(inside(p, q, nodes["wall"], MARGIN) for p, q in pairwise(points))


def test_a_box_walled_in_has_no_route_and_says_so():
    walls = [(-40, -40, 160, 20), (-40, 80, 160, 20), (-40, -40, 20, 140), (100, -40, 20, 140)]
    routes = route_edges({"a": (20, 20, 40, 40), "b": (300, 20, 40, 40)}, [Ends("a", "b")],
                         walls)
    assert not routes[0].ok and routes[0].points == ()
    assert routes[0].error == ("no route from 'a' (right) to 'b' (left) keeps 10 px from "
                               "every other box, nor from any other side")


def test_a_side_blocked_close_by_leaves_by_another_side():
    # A wall 5 px from a's right side: no way out there; a's ends are not named.
    nodes = {"a": (0, 100, 50, 30), "b": (200, 100, 50, 30)}
    wall = [(55, 60, 10, 110)]
    routed = route_edges(nodes, [Ends("a", "b"), Ends("a", "b", "right")], wall)
    assert routed[0].ok and routed[0].source_side in ("top", "bottom"), routed[0]
    assert len(routed[0].points) == 4   # over (or under) the wall and down (up) into b
    assert not routed[1].ok    # named, the right side is kept, and has no way out


def test_an_edge_that_would_run_round_the_figure_takes_shorter_sides():
    # Back from the last box to the first: from the facing sides (output's left, input's
    # right) it would wind round two boxes with 4 bends, crossing check -> output; over
    # the top it bends twice and crosses nothing. The edges along the row stay straight.
    nodes = {"input": (30, 45, 100, 60), "step": (210, 30, 160, 90),
             "check": (450, 45, 100, 60), "output": (630, 45, 110, 60)}
    edges = [Ends("input", "step"), Ends("step", "check"), Ends("check", "output"),
             Ends("output", "input")]
    *row, back = route_edges(nodes, edges, bounds=(0, 0, 770, 200))
    assert [len(route.points) for route in row] == [2, 2, 2]
    assert (back.source_side, back.target_side) == ("top", "top")
    assert len(back.points) == 4
    named = route_edges(nodes, edges[:3] + [Ends("output", "input", "left", "right")],
                        bounds=(0, 0, 770, 200))[3]
    assert len(named.points) == 6          # named sides are kept, however far round


def test_bad_ends_are_errors_of_their_edge_only():
    nodes = {"a": (0, 0, 40, 40), "b": (100, 0, 40, 40)}
    routes = route_edges(nodes, [Ends("a", "c"), Ends("a", "a"), Ends("a", "b", "up"),
                                 Ends("a", "b")])
    assert [r.error for r in routes[:3]] == [
        "'c' names no node", "an edge from node 'a' to itself",
        "unknown side 'up' (sides: top, right, bottom, left)"]
    assert routes[3].ok


def test_routes_stay_inside_the_bounds():
    nodes = {"a": (10, 10, 40, 40), "b": (110, 10, 40, 40)}
    inside_bounds = route_edges(nodes, [Ends("a", "b", "top", "top")],
                                bounds=(0, 5, 200, 100))
    assert not inside_bounds[0].ok          # 10 px over their tops is outside
    free = route_edges(nodes, [Ends("a", "b", "top", "top")])
    assert free[0].ok and min(y for _, y in free[0].points) == 0.0


@st.composite
def anything_goes(draw):
    """Boxes anywhere, overlapping, outside the bounds, as a drag in the editor leaves
    them; edges between any of them."""
    coordinate = st.integers(-50, 400)
    size = st.integers(1, 150)
    boxes = draw(st.lists(st.tuples(coordinate, coordinate, size, size), min_size=2,
                          max_size=8))
    nodes = {f"n{i}": tuple(map(float, box)) for i, box in enumerate(boxes)}
    side = st.none() | st.sampled_from(SIDES)
    edges = draw(st.lists(st.builds(Ends, st.sampled_from(sorted(nodes)),
                                    st.sampled_from(sorted(nodes)), side, side), max_size=8))
    return nodes, edges


@ROUTES
@given(anything_goes())
def test_any_layout_gives_routes_or_reasons_and_routes_stay_clear(layout):
    nodes, edges = layout
    routes = route_edges(nodes, edges, bounds=(0, 0, 400, 400))
    assert len(routes) == len(edges)
    for ends, route in zip(edges, routes):
        assert route.ok != bool(route.error) and bool(route.points) == route.ok
        for a, b in pairwise(route.points):
            assert (a[0] == b[0]) != (a[1] == b[1]), route.points
        for node, box in nodes.items():   # no route enters a box, its own neither
            assert not any(inside(a, b, box, 0.0) for a, b in pairwise(route.points))
            if node not in (ends.source, ends.target):
                assert not any(inside(a, b, box, MARGIN)
                               for a, b in beyond_stubs(route.points)), (node, route)


def beyond_stubs(points):
    """The segments of a route less the first and last MARGIN px: out of its ports, a
    route may pass another box's margin (never the box) where boxes lie that close."""
    segments = list(pairwise(points))
    if not segments:
        return []
    (a, b), (c, d) = segments[0], segments[-1]
    if len(segments) == 1:
        return [(toward(a, b, MARGIN), toward(b, a, MARGIN))] \
            if abs(b[0] - a[0]) + abs(b[1] - a[1]) > 2 * MARGIN else []
    return [(toward(a, b, MARGIN), b)] + segments[1:-1] + [(c, toward(d, c, MARGIN))]


def toward(a, b, length):
    """The point `length` px from a toward b (b itself if nearer)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    total = abs(dx) + abs(dy)
    t = min(1.0, length / total) if total else 0.0
    return (a[0] + dx * t, a[1] + dy * t)


@st.composite
def grids(draw):
    """A grid of a few boxes anywhere (apart, touching or overlapping), a margin,
    bounds or none, and ports."""
    def corner():
        return draw(st.integers(0, 80)) * 5.0
    boxes = []
    for _ in range(draw(st.integers(1, 8))):
        x, y = corner(), corner()
        boxes.append((x, y, x + draw(st.integers(1, 24)) * 5.0,
                      y + draw(st.integers(1, 24)) * 5.0))
    bounds = draw(st.sampled_from([None, (0.0, 0.0, 520.0, 520.0), (20.0, 10.0, 430.0, 480.0)]))
    ports = draw(st.lists(st.tuples(st.integers(0, 104), st.integers(0, 104)), max_size=4))
    return Grid(boxes, draw(st.sampled_from([0.0, 5.0, 10.0])), bounds,
                [(x * 5.0, y * 5.0) for x, y in ports])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(grids())
def test_a_grid_whose_grown_boxes_are_apart_is_one_part(grid):
    """Grid._one_part lets the search skip finding the grid's parts: it must say so
    only when every point on a free segment lies in one part."""
    nx, ny = grid.nx, len(grid.ys)
    if not grid._one_part():
        return
    parts = set()
    for point in range(nx * ny):
        i, j = point % nx, point // nx
        if (i + 1 < nx and not grid.blocked_h[point]) or (i and not grid.blocked_h[point - 1]) \
                or (j + 1 < ny and not grid.blocked_v[point]) \
                or (j and not grid.blocked_v[point - nx]):
            parts.add(grid.part(point))
    assert len(parts) <= 1


def test_a_route_found_first_in_the_way_of_a_later_one_is_routed_again():
    # a -> b, found first, runs down past c and across under it; c's edge from b then
    # had to cross it. Routed again with c's edge on the grid, it runs across the top
    # and down to b instead: no crossing, the same length.
    nodes = {"a": (20, 20, 80, 40), "b": (470, 260, 80, 40), "c": (170, 140, 80, 40)}
    first, then = route_edges(nodes, [Ends("a", "b"), Ends("b", "c")],
                              bounds=(0, 0, 640, 400))
    assert count([first.points, then.points]) == 0
    assert first.points[1][1] == first.points[0][1]   # along the top first


@pytest.mark.parametrize("side", ["right", "left"])
def test_ends_level_on_a_side_nest_rather_than_cross(side):
    """Two edges out of a box's right side to boxes level with each other below it: the
    nearer one took the upper port (by edge order), and its route, turning down first,
    crossed the other's. The further one now takes the upper port; leftwards the same."""
    flip = (lambda x, w: x) if side == "right" else (lambda x, w: 600 - x - w)
    nodes = {"a": (flip(20, 100), 20, 100, 60), "near": (flip(200, 80), 200, 80, 40),
             "far": (flip(400, 80), 200, 80, 40)}
    routes = route_edges(nodes, [Ends("a", "near", side, "top"), Ends("a", "far", side, "top")],
                         bounds=(0, 0, 600, 300))
    near, far = (route.points for route in routes)
    assert far[0][1] < near[0][1]
    assert count([near, far]) == 0
