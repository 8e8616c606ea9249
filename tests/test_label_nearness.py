"""An edge label reads as its own edge's: moved further out from its route for want of
room, it is not put where another route lies nearer it than its own (a reader would
take it for that edge's label); beside its own route on a frame's border is better."""

from __future__ import annotations

from articlesite.geometry.labels import GAP, place_labels

OWN = [(100.0, 0.0), (100.0, 200.0)]       # the labelled edge, straight down
OTHER = [(205.0, 0.0), (205.0, 200.0)]     # another edge, 105 px to its right
LEFT = (30.0, -20.0, 66.0, 240.0)          # a node hard left of OWN: no room on that side
BORDER = ((130.0, -50.0), (130.0, 250.0))  # a frame's border 30 px right of OWN


def _gap(box: tuple[float, float, float, float], x: float) -> float:
    """How far the vertical line at `x` lies from the box (0: it meets it)."""
    return max(0.0, box[0] - x, x - box[0] - box[2])


def test_a_label_pushed_out_does_not_sit_beside_another_edge():
    box = place_labels([OWN, OTHER], [(60.0, 20.0), None], [LEFT], lines=[BORDER])[0]
    assert box is not None
    mine, theirs = _gap(box, 100.0), _gap(box, 205.0)
    assert mine <= GAP and mine < theirs, (box, mine, theirs)


def test_with_room_the_label_stays_beside_its_edge_off_the_border():
    """The rule leaves a label that has room where it was: GAP px from its route."""
    box = place_labels([OWN, OTHER], [(20.0, 20.0), None], [LEFT], lines=[BORDER])[0]
    assert box is not None and _gap(box, 100.0) == GAP and box[0] + box[2] < 130.0
