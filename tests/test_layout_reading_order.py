"""Reading order in `figure layout`'s drafts (geometry/layout.py, geometry/order.py): parts
of a figure that no edge joins lie side by side in the order the author wrote them (the
first article's overview: stage A, on its own, before stage B, not after it)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from articlesite.geometry.layout import layout

EXAMPLES = settings(max_examples=40, deadline=None, derandomize=True)
MARGINS = (10.0, 30.0, 10.0, 10.0)


def test_the_overview_stage_written_first_comes_first_across():
    """The overview's graph (examples/training-overview): stage A, joined to nothing, is
    left of stage B in the layers they share, as a reader meets them."""
    nodes = ["demos", "sft", "copies", "prefs", "rm-training", "actor", "env", "trajectory",
             "rm", "reference", "critic", "rewards", "gae", "actor-update", "critic-update"]
    edges = [("demos", "sft"), ("sft", "copies"), ("prefs", "rm-training"),
             ("actor", "trajectory"), ("actor", "env"), ("env", "actor"),
             ("env", "trajectory"), ("trajectory", "rm"), ("trajectory", "reference"),
             ("trajectory", "critic"), ("rm", "rewards"), ("reference", "rewards"),
             ("rewards", "gae"), ("critic", "gae"), ("gae", "actor-update"),
             ("gae", "critic-update"), ("trajectory", "actor-update"),
             ("actor-update", "actor"), ("critic-update", "critic"), ("trajectory", "rewards")]
    feedback = {("actor-update", "actor"), ("critic-update", "critic")}
    groups = {"prep": (nodes[:5], MARGINS), "collect": (nodes[5:8], MARGINS),
              "targets": (nodes[8:13], MARGINS), "update": (nodes[13:], MARGINS)}
    sizes = {n: (200.0, 90.0) for n in nodes}
    boxes = layout(nodes, sizes, edges, "down", feedback, groups)
    prep_right = max(boxes[n][0] + boxes[n][2] for n in nodes[:5])
    assert prep_right < min(boxes[n][0] for n in nodes[5:8])


@st.composite
def two_parts(draw):
    """Two trees that no edge joins, the nodes of the one written first named "a…", the
    other's "b…", each with a feedback edge or not (from its last node back to its first:
    round the outside); the edges given in any order."""
    edges, feedback = [], set()
    for name in ("a", "b"):
        count = draw(st.integers(2, 6))
        for k in range(1, count):
            edges.append((f"{name}{draw(st.integers(0, k - 1))}", f"{name}{k}"))
        if count > 2 and draw(st.booleans()):
            feedback.add((f"{name}{count - 1}", f"{name}0"))
            edges.append((f"{name}{count - 1}", f"{name}0"))
    sizes = {n: (draw(st.integers(60, 200)), draw(st.integers(40, 90)))
             for edge in edges for n in edge}
    nodes = sorted(sizes, key=lambda n: (n[0], int(n[1:])))
    return nodes, sizes, draw(st.permutations(edges)), feedback


@EXAMPLES
@given(two_parts(), st.sampled_from(["right", "down", "left", "up"]))
def test_parts_no_edge_joins_keep_the_order_they_were_written_in(case, direction):
    nodes, sizes, edges, feedback = case
    boxes = layout(nodes, sizes, edges, direction, feedback)
    across = 0 if direction in ("down", "up") else 1   # x across the layers, or y
    for a in (n for n in nodes if n[0] == "a"):
        for b in (n for n in nodes if n[0] == "b"):
            along = 1 - across
            if boxes[a][along] == boxes[b][along]:   # in one layer
                assert boxes[a][across] < boxes[b][across], (a, b)
