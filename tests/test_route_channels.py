"""Routes whose channels do not all overlap are moved apart in the order that crosses
least (geometry/nudge.py): a long edge entering a box from above passes below another
edge's run, not above it across that edge twice."""

from __future__ import annotations

from articlesite.geometry.crossings import between
from articlesite.geometry.route import Ends, route_edges

# figure layout's first layout of bench/layout_drafts.py's RLHF loop, its sides chosen
BOXES = {"prompts": (35, 215, 180, 60), "policy": (275, 215, 140, 60),
         "answers": (475, 215, 220, 60), "ref": (35, 660, 220, 60), "kl": (315, 660, 170, 60),
         "rm": (35, 760, 220, 60), "score": (545, 660, 130, 60), "value": (35, 885, 220, 60),
         "gae": (35, 1155, 240, 60), "buffer": (335, 1110, 230, 60),
         "loss": (625, 1065, 180, 60), "update": (865, 1165, 200, 60),
         "vloss": (625, 1165, 180, 60), "vupdate": (865, 1265, 200, 60),
         "log": (475, 30, 220, 60)}
EDGES = ["prompts policy", "policy answers", "answers.bottom ref.top",
         "answers.bottom rm.right", "ref kl", "policy.bottom kl.top", "rm score", "kl score",
         "score.bottom gae.top", "answers.bottom value.top", "value.bottom gae.top",
         "gae buffer", "policy log", "log.right buffer.top", "buffer loss", "loss update",
         "buffer vloss", "vloss vupdate", "update.left policy.left", "vupdate.left value.left"]
TITLES = [(26.0, 149.0, 60, 22), (26.0, 594.0, 51, 22)]   # the two groups' titles


def ends(edge: str) -> Ends:
    (source, *source_side), (target, *target_side) = (end.split(".") for end in edge.split())
    return Ends(source, target, *(source_side or [None]), *(target_side or [None]))


def test_a_long_edge_passes_below_the_run_it_would_cross_twice_above():
    routes = route_edges(BOXES, [ends(edge) for edge in EDGES], TITLES,
                         bounds=(0, 0, 1095, 1355))
    assert all(route.ok for route in routes)
    score_to_gae, log_to_buffer = routes[8].points, routes[13].points
    # before: the log's run left at y 892.5, above the score's at 1020: two crossings
    assert between(score_to_gae, log_to_buffer) == 0
