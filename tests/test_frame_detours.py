"""geometry/frames.py's detours: the frame borders a route crosses beyond what its ends
ask, which geometry/untangle.py weighs like a bend (a route that leaves its stage and
comes back, or runs through a stage it has nothing to do with)."""

from __future__ import annotations

from articlesite.geometry.frames import detours

FRAME = (100.0, 100.0, 200.0, 300.0)   # x 100..300, y 100..400
OTHER = (400.0, 100.0, 200.0, 300.0)


def test_a_route_inside_its_frame_or_out_of_it_once_is_no_detour():
    assert detours([(150, 150), (150, 300)], [FRAME]) == 0          # within
    assert detours([(150, 150), (150, 500)], [FRAME]) == 0          # leaves once
    assert detours([(500, 450), (150, 450), (150, 350)], [FRAME, OTHER]) == 0   # enters once


def test_a_route_that_leaves_its_frame_and_comes_back_detours_twice():
    assert detours([(250, 150), (350, 150), (350, 350), (250, 350)], [FRAME]) == 2


def test_a_route_through_a_frame_it_neither_starts_nor_ends_in_detours_twice():
    assert detours([(50, 250), (700, 250)], [FRAME, OTHER]) == 4
