"""Room made for an edge label that finds none beside its route (geometry/widen.py, used
by `figure layout`, figures/label_room.py): the boxes beyond one of the route's runs
move away from it by the label's size and ROOM, on the grid, and never onto another box."""

from __future__ import annotations

from articlesite.geometry.widen import ROOM, widenings

# a | b, c: a vertical run at x = 200 between a (left) and b, c (right); d far below,
# left of the run
NODES = {"a": (50.0, 100.0, 130.0, 90.0), "b": (220.0, 100.0, 130.0, 90.0),
         "c": (400.0, 300.0, 100.0, 90.0), "d": (50.0, 500.0, 130.0, 90.0)}
RUN = [(200.0, 50.0), (200.0, 250.0)]


def test_a_gap_is_opened_across_the_drawing_beyond_the_run():
    ways = widenings(NODES, RUN, (95.0, 23.0))
    shift = 120.0   # 95 + ROOM, up to the 10 px grid
    assert shift >= 95.0 + ROOM
    assert ways[0] == {**NODES, "b": (220.0 + shift, 100.0, 130.0, 90.0),
                       "c": (400.0 + shift, 300.0, 100.0, 90.0)}


def test_where_a_box_straddles_the_line_only_those_beside_the_run_move():
    nodes = {**NODES, "d": (150.0, 500.0, 130.0, 90.0)}   # d straddles x = 200
    ways = widenings(nodes, RUN, (95.0, 23.0))
    assert ways == [{**nodes, "b": (340.0, 100.0, 130.0, 90.0)}, longer(nodes)]


def longer(nodes: dict) -> dict:
    """The way that makes RUN longer: c and d, below its lower end (y = 250), moved down
    by the label's height and ROOM (23 + 20, up to the 10 px grid)."""
    return {n: (x, y + 50.0 * (y >= 250.0), w, h) for n, (x, y, w, h) in nodes.items()}


def test_no_box_is_moved_onto_another():
    nodes = {**NODES, "d": (150.0, 500.0, 130.0, 90.0),   # straddles: not across
             "e": (460.0, 180.0, 60.0, 100.0)}   # below the run's stretch, where b lands
    assert widenings(nodes, [(200.0, 50.0), (200.0, 150.0)], (95.0, 23.0)) == []


def test_a_horizontal_run_opens_a_band_below_it():
    run = [(100.0, 250.0), (380.0, 250.0)]
    ways = widenings(NODES, run, (95.0, 23.0))
    assert ways[0] == {**NODES, "c": (400.0, 350.0, 100.0, 90.0),
                       "d": (50.0, 550.0, 130.0, 90.0)}


def test_where_a_box_straddles_the_line_those_lined_up_beside_the_run_move_with_it():
    """A box beyond the line in the column of one beside the run moves with it (first),
    so that the column stays one; else only the one beside the run."""
    nodes = {**NODES, "d": (150.0, 500.0, 130.0, 90.0),   # straddles: not across
             "f": (220.0, 600.0, 130.0, 90.0)}            # b's column, below the run
    ways = widenings(nodes, RUN, (95.0, 23.0))
    assert ways == [{**nodes, "b": (340.0, 100.0, 130.0, 90.0), "f": (340.0, 600.0, 130.0, 90.0)},
                    {**nodes, "b": (340.0, 100.0, 130.0, 90.0)}, longer(nodes)]


def test_a_run_between_two_layers_is_made_longer_last():
    """A labelled run from a box of one layer to one of the next (a tree down the
    page), no room beside it (p and q straddle its line): every box below the layer
    moves down, a taller gap opened from edge to edge, where labels of runs side by
    side find room at different heights."""
    nodes = {"p": (100.0, 50.0, 200.0, 60.0), "q": (60.0, 170.0, 100.0, 60.0),
             "r": (240.0, 170.0, 100.0, 60.0)}
    ways = widenings(nodes, [(150.0, 110.0), (150.0, 170.0)], (64.0, 23.0))
    assert ways == [{**nodes, "q": (60.0, 220.0, 100.0, 60.0),
                     "r": (240.0, 220.0, 100.0, 60.0)}]


def test_a_run_is_not_made_longer_by_moving_every_box():
    # RUN's upper end (y = 50) lies above every box: moving all of them down would make
    # no room; its lower end's way moves c and d only.
    assert longer(NODES) in widenings(NODES, RUN, (95.0, 23.0))
    assert {n: (x, y + 50.0, w, h) for n, (x, y, w, h) in NODES.items()} \
        not in widenings(NODES, RUN, (95.0, 23.0))


def test_a_run_too_near_the_left_edge_first_moves_every_box_right():
    """A label as wide as the room between its run and the canvas's left edge, or wider,
    fits there once every box moves right by what it lacks (on the grid)."""
    run = [(70.0, 200.0), (70.0, 400.0)]
    ways = widenings(NODES, run, (95.0, 23.0))
    shift = 50.0    # 95 + ROOM - 70, up to the 10 px grid
    assert ways[0] == {n: (x + shift, y, w, h) for n, (x, y, w, h) in NODES.items()}
    assert all(way != ways[0] for way in widenings(NODES, RUN, (95.0, 23.0)))
