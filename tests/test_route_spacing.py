"""Routes of different edges kept apart as a designer keeps them (issue 32): two runs
side by side closer than about 8 px read as one line, and so do two runs one after the
other on one line a few px apart. The fixture is the first article's overview in
miniature: five edges leave a record's bottom for four boxes below it (the second row
under a group's title) and the box under those, and two edges join those boxes to it.
Then the overview itself (examples/training-overview) as the build routes it: its runs
apart, and its labels each nearer their own route than any other."""

from __future__ import annotations

from itertools import pairwise

from conftest import REPO

from articlesite.geometry.labels import LEAD, _distance, _extent
from articlesite.geometry.route import MARGIN, Ends, route_edges
from articlesite.load.figures import load_figure, scan_figures
from articlesite.problems import Problems

READABLE = 8.0   # px between two runs of different edges that a reader tells apart

NODES = {"record": (635.0, 395.0, 220.0, 90.0), "rm": (490.0, 675.0, 130.0, 90.0),
         "reference": (660.0, 675.0, 130.0, 90.0), "critic": (830.0, 675.0, 200.0, 90.0),
         "rewards": (490.0, 825.0, 210.0, 90.0), "update": (180.0, 1225.0, 200.0, 90.0)}
EDGES = [Ends("record", "update"), Ends("record", "rm"), Ends("record", "reference"),
         Ends("record", "critic"), Ends("record", "rewards"), Ends("reference", "rewards"),
         Ends("rm", "rewards")]
TITLE = (481.0, 609.0, 198.0, 22.0)   # the group's title over rm and reference


def routes() -> list[tuple]:
    found = route_edges(NODES, EDGES, [TITLE], bounds=(0.0, 0.0, 1075.0, 1400.0))
    assert all(route.ok for route in found)
    return [route.points for route in found]


def runs(points) -> list[tuple[int, float, float, float]]:
    """A route's runs: (axis they lie across: 0 for a vertical one, where across, from,
    to along)."""
    found = []
    for a, b in pairwise(points):
        axis = 0 if a[0] == b[0] else 1
        low, high = sorted((a[1 - axis], b[1 - axis]))
        found.append((axis, a[axis], low, high))
    return found


def pairs(found: list[tuple]):
    """Every two runs of different routes that lie the same way."""
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            for p in runs(found[i]):
                for q in runs(found[j]):
                    if p[0] == q[0]:
                        yield (i, j), p, q


def test_runs_of_different_edges_side_by_side_keep_a_readable_distance():
    """Where two routes run alongside each other (their runs overlap along), they are
    READABLE px apart or more: the nudging that centres an edge's inner run in its
    channel keeps it off the runs out of other edges' ports too."""
    found = routes()
    for which, p, q in pairs(found):
        if min(p[3], q[3]) > max(p[2], q[2]):
            assert abs(p[1] - q[1]) >= READABLE, (which, p, q, found)


def test_two_edges_do_not_continue_each_other_on_one_line():
    """Two runs on one line (or nearly), one after the other with a gap of less than
    two margins between their ends, read as one edge's line: they lie apart."""
    found = routes()
    for which, p, q in pairs(found):
        gap = max(p[2], q[2]) - min(p[3], q[3])
        if 0.0 <= gap < 2 * MARGIN:
            assert abs(p[1] - q[1]) >= READABLE, (which, p, q, found)


def overview():
    root = REPO / "examples" / "training-overview"
    problems = Problems(root)
    figure = load_figure(scan_figures(root, problems)["training-overview"], problems)
    assert not list(problems)
    return figure


def test_the_overview_keeps_its_routes_apart():
    found = [edge.points for edge in overview().edges]
    for which, p, q in pairs(found):
        gap = max(p[2], q[2]) - min(p[3], q[3])
        if gap < 2 * MARGIN:
            assert abs(p[1] - q[1]) >= READABLE, (which, p, q)


def test_the_overview_labels_lie_nearer_their_own_routes_than_any_other():
    """Every label's own route lies LEAD px nearer it than any other route, but that of
    'Saved log' (old-probs), which finds no free place (`check` warns of it); and
    'Complete execution' (complete) as far from stage C's border."""
    figure = overview()
    runs_of = [[_extent(s) for s in pairwise(edge.points)] for edge in figure.edges]
    for label in figure.edge_labels:
        if label.text == "old-probs":
            continue
        box = (label.x, label.y, label.w, label.h)
        mine = min(_distance(box, s) for s in runs_of[label.edge])
        theirs = min(_distance(box, s) for n, runs in enumerate(runs_of)
                     if n != label.edge for s in runs)
        assert theirs >= mine + LEAD, (label.text, mine, theirs)
        if label.text == "complete":
            stage = next(g for g in figure.groups if g.id == "targets")
            assert stage.box[1] - (label.y + label.h) >= mine + LEAD, (box, stage.box)
