"""An edge label placed as a designer places it (issue 32): a line of text along a
horizontal run of its edge rather than sticking out sideways from a longer vertical
one; not between its run and another edge's run close by, nor just under a frame's
border, where it would read as theirs, if another free place reads as its own alone;
and a route that turns under a group's title keeps well clear of it."""

from __future__ import annotations

from articlesite.geometry.frames import frame_of
from articlesite.geometry.labels import GAP, LEAD, place_labels
from articlesite.geometry.route import Ends, route_edges

# down 300 px, right 200 px, down 40 px: the longest run vertical, a horizontal one
# that holds a 120 px label
ROUTE = [(100.0, 0.0), (100.0, 300.0), (300.0, 300.0), (300.0, 340.0)]


def test_a_wide_label_lies_along_a_horizontal_run_that_holds_it():
    [box] = place_labels([ROUTE], [(120.0, 20.0)], [])
    x, y, w, h = box
    assert 100.0 < x and x + w < 300.0                # along the horizontal run
    assert y + h == 300.0 - GAP or y == 300.0 + GAP    # beside it, above or below


def test_a_label_no_horizontal_run_holds_lies_beside_the_vertical_one():
    [box] = place_labels([ROUTE], [(240.0, 20.0)], [])
    x, _, w, _ = box
    assert x == 100.0 + GAP or x + w == 100.0 - GAP


def test_a_label_is_not_put_between_its_run_and_another_close_by():
    """Another edge runs 12 px above the labelled one's left half: the label goes
    where only its own edge is near it (below, or further right above)."""
    own = [(0.0, 100.0), (400.0, 100.0)]
    other = [(0.0, 70.0), (200.0, 70.0), (200.0, 0.0)]
    box = place_labels([own, other], [(100.0, 20.0), None], [])[0]
    x, y, _, h = box
    mine = 100.0 - (y + h) if y + h <= 100.0 else y - 100.0
    assert mine == GAP
    theirs = max(0.0, 70.0 - (y + h), y - 70.0) if x < 200.0 else max(0.0, x - 200.0)
    assert theirs > mine + LEAD, box


def test_a_label_keeps_off_just_under_a_frame_border_where_it_can():
    """A frame's border 30 px above a horizontal run: a label above the run (the first
    side tried) would lie 6 px under the border, free but reading as the frame's; it
    goes below the run."""
    own = [(0.0, 100.0), (400.0, 100.0)]
    border = ((-50.0, 70.0), (450.0, 70.0))
    [box] = place_labels([own], [(100.0, 20.0)], [], lines=[border])
    assert box[1] == 100.0 + GAP, box


def test_a_route_under_a_group_title_keeps_clear_of_it():
    """An edge from above into the top of a member that lies under its group's title
    turns under the title 18 px or more below it (not as its underline)."""
    member = (100.0, 200.0, 120.0, 60.0)
    source = (400.0, 20.0, 120.0, 60.0)
    frame = frame_of([member], (200.0, 22.0))
    title = frame.title
    assert title[0] < 160.0 < title[0] + title[2]       # the member's middle under it
    [route] = route_edges({"a": source, "b": member}, [Ends("a", "b", "bottom", "top")],
                          [title], bounds=(0.0, 0.0, 600.0, 400.0))
    assert route.ok
    under = [a[1] for a, b in zip(route.points, route.points[1:])
             if a[1] == b[1] and min(a[0], b[0]) < title[0] + title[2]]
    assert under and all(y - (title[1] + title[3]) >= 18.0 for y in under), route.points


def test_two_stages_leave_room_between_them_for_each_labelled_edge_that_bends_there():
    """Three labelled edges from one stage into the next: their routes bend between the
    frames, each at its own height, and a label finds room beside its own only between
    them: `figure layout` leaves JOG_ROOM more for each one after the first."""
    from articlesite.geometry.frames import margins
    from articlesite.geometry.layout import JOG_ROOM, layout
    nodes = ["s", "a", "b", "c"]
    sizes = {n: (120, 60) for n in nodes}
    edges = [("s", "a"), ("s", "b"), ("s", "c")]
    groups = {"one": (["s"], margins((80, 22), (), "down")),
              "two": (["a", "b", "c"], margins((80, 22), (), "down"))}
    gaps = []
    for labelled in (1, 3):
        boxes = layout(nodes, sizes, edges, "down", groups=groups,
                       labels={i: (100.0, 23.0) for i in range(labelled)})
        gaps.append(boxes["a"][1] - (boxes["s"][1] + boxes["s"][3]))
    assert gaps[1] - gaps[0] >= 2 * JOG_ROOM


def test_a_label_with_no_clear_place_lies_halfway_between_what_hems_it_in():
    """Beside a vertical run, the only free places lie between another edge's run 57 px
    down and a frame's border at 100 px: none keeps LEAD px more from both than from
    its own run, so the label lies halfway between them (10 px from each), not 3 px
    nearer one (the places tried lie STEP px apart)."""
    own = [(100.0, 0.0), (100.0, 200.0)]
    other = [(60.0, 0.0), (60.0, 57.0), (-100.0, 57.0)]
    border = ((-200.0, 100.0), (300.0, 100.0))
    walls = [(103.0, 0.0, 100.0, 200.0), (-300.0, 104.0, 400.0, 200.0)]   # right, below
    box = place_labels([own, other], [(120.0, 23.0), None], walls, lines=[border])[0]
    x, y, w, h = box
    assert x + w == 100.0 - GAP, box                  # beside its run, on the left
    above, below = y - 57.0, 100.0 - (y + h)
    assert abs(above - below) <= 0.5 and min(above, below) > GAP, box
