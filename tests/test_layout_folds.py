"""A drawing too long for the page folds into rows; the fold chosen and the order of the
rows' layers are those whose routes cross fewest (geometry/layout.py `_fold`)."""

from __future__ import annotations

from articlesite.geometry.crossings import count
from articlesite.geometry.layout import extent_of, layout, sides_between_rows
from articlesite.geometry.route import Ends, route_edges
from articlesite.geometry.untangle import untangle

# bench/layout_drafts.py's training pipeline: data stages, pretraining, alignment, evals
# with a feedback edge back to the data and a long edge from pretraining to the evals
SIZES = {"crawl": (172, 60), "books": (225, 60), "clean": (225, 60), "tok": (154, 60),
         "pre": (169, 60), "sft": (298, 60), "demo": (269, 60), "prefs": (225, 60),
         "rm": (180, 60), "ppo": (100, 60), "evals": (158, 60), "ship": (124, 60)}
EDGES = [("crawl", "clean"), ("books", "clean"), ("clean", "tok"), ("tok", "pre"),
         ("pre", "sft"), ("demo", "sft"), ("sft", "rm"), ("prefs", "rm"), ("sft", "ppo"),
         ("rm", "ppo"), ("ppo", "evals"), ("evals", "ship"), ("evals", "clean"),
         ("pre", "evals")]
FEEDBACK = {("evals", "clean")}
GROUPS = {"data": (["crawl", "books", "clean", "tok"], (10.0, 30.0, 10.0, 10.0)),
          "align": (["sft", "rm", "ppo"], (10.0, 30.0, 10.0, 10.0))}


def test_a_folded_pipeline_is_drawn_with_no_crossing_within_the_page():
    """As `figure layout` lays it out: boxes, the sides between rows and round the
    outside, then the side choice. The greedy fold (pretraining above the
    demonstrations, its edge to the evals round the outside) left a crossing."""
    boxes = layout(list(SIZES), dict(SIZES), EDGES, "right", FEEDBACK, GROUPS)
    width, height = extent_of(list(boxes.values()))
    assert width <= 1240 and len(set(boxes.row.values())) > 1
    start = {**boxes.outer, **sides_between_rows(boxes, boxes.row, EDGES, "right")}
    feedback = frozenset(k for k, edge in enumerate(EDGES) if edge in FEEDBACK)
    sides = untangle(boxes, [Ends(a, b) for a, b in EDGES], bounds=(0, 0, width, height),
                     outside_ok=feedback, start=start)
    routes = route_edges(boxes, [Ends(a, b, *sides.get(k, (None, None)))
                                 for k, (a, b) in enumerate(EDGES)],
                         bounds=(0, 0, width, height))
    assert all(route.ok for route in routes)
    assert count([route.points for route in routes]) == 0
