"""geometry/untangle.py within its budget (ROUTED, EVERY, reroute.SAVED): a folded
draft whose sides it chooses cross nothing, as `figure layout` lays it out."""

from __future__ import annotations

from articlesite.geometry.crossings import count
from articlesite.geometry.route import Ends, route_edges
from articlesite.geometry.untangle import untangle


def test_the_folded_training_pipeline_draft_is_left_with_no_crossing():
    # bench/layout_drafts.py's training-pipeline draft as geometry/layout.py folded it
    # into three rows, with the sides `figure layout` starts from (between the rows;
    # evals -> clean is the feedback edge, round the outside): the side choice must not
    # trade a crossing for fewer bends (with a tried pair allowed 400 px a crossing
    # saved, it left one).
    nodes = {"crawl": (30, 60, 230, 60), "books": (30, 160, 230, 60),
             "clean": (320, 140, 230, 60), "tok": (610, 105, 160, 60),
             "pre": (30, 340, 270, 60), "demo": (30, 440, 270, 60),
             "sft": (360, 410, 300, 60), "prefs": (360, 565, 300, 60),
             "rm": (720, 455, 180, 60), "ppo": (960, 410, 100, 60),
             "evals": (30, 735, 160, 60), "ship": (250, 735, 130, 60)}
    pairs = ["crawl clean", "books clean", "clean tok", "tok pre", "pre sft", "demo sft",
             "sft rm", "prefs rm", "sft ppo", "rm ppo", "ppo evals", "evals ship",
             "evals clean", "pre evals"]
    edges = [Ends(*pair.split()) for pair in pairs]
    start = {12: ("left", "left"), 3: ("bottom", "top"), 10: ("bottom", "top"),
             13: ("bottom", "top")}
    bounds = (0, 0, 1090, 825)
    sides = untangle(nodes, edges, bounds=bounds, outside_ok=frozenset({12}), start=start)
    ends = [Ends(e.source, e.target, *sides.get(i, (None, None))) for i, e in enumerate(edges)]
    routes = route_edges(nodes, ends, bounds=bounds)
    assert all(r.ok for r in routes)
    assert count([r.points for r in routes]) == 0
    assert sides[12] == ("left", "left")      # the feedback edge still round the outside
