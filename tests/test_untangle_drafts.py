"""geometry/untangle.py within its budget (ROUTED, EVERY, reroute.SAVED): a folded
draft whose sides it chooses cross nothing, as `figure layout` lays it out; edges clear
of a knot keep the layout's sides where that crosses and crowds no more."""

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


def test_edges_clear_of_a_knot_keep_the_sides_of_the_flow():
    # bench/layout_drafts.py's request-path, down the page as `figure layout` lays it
    # out: its web tier (three web servers, each to sessions and the app server) crosses
    # less with the edges' own sides (those that face the other end) than with the
    # layout's (bottom to top), so those were taken for every edge: the app server's
    # edges to the cache, the object store and the job queue, below and aside, left by
    # its flank and ran down one line beside sessions. Only the edges in the knot keep
    # their own sides now; the others leave by the bottom, as a tree's do.
    import sys

    from conftest import REPO
    sys.path.insert(0, str(REPO / "bench"))
    from layout_quality import arranged, draft
    _, _, _, pairs, _, _ = draft("request-path")
    boxes, sides, _ = arranged("request-path")
    ends = [Ends(a, b, *sides.get(k, (None, None))) for k, (a, b) in enumerate(pairs)]
    width, height = (max(b[i] + b[i + 2] for b in boxes.values()) + 30 for i in (0, 1))
    routes = route_edges(boxes, ends, bounds=(0, 0, width, height))
    left = {b: route.source_side for (a, b), route in zip(pairs, routes, strict=True)
            if a == "app"}
    assert [left[b] for b in ("rcache", "blob", "jobs", "metrics")] == ["bottom"] * 4
    assert count([r.points for r in routes]) <= 1


def test_where_all_edges_back_at_once_cross_more_one_box_s_go_back():
    # bench/layout_breadth.py's random graph 29 at 700 px: giving every edge not to blame
    # the layout's sides back at once crosses more; giving back those of one box does not,
    # and its routes cross once less (9 before).
    import sys

    from conftest import REPO
    sys.path.insert(0, str(REPO / "bench"))
    from layout_breadth import measured, random_graph
    nodes, sizes, edges, direction, feedback, groups, labels = random_graph(29)
    assert measured(nodes, sizes, edges, direction, feedback, groups, 700.0, labels)[0] <= 8


def test_edges_given_the_layout_s_sides_back_leave_no_more_labels_crowded(tmp_path):
    # request-path, every other edge labelled: the app server's edges given the layout's
    # sides back (from its bottom) would leave one more label with no free place; they
    # keep the sides that leave two.
    from conftest import run_build
    from test_fold_lean import draft_project
    root = draft_project(tmp_path / "site", "request-path", 2)
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "No edge crosses another." in laid.stdout
    assert "The labels of edges 9, 13 found no free place" in laid.stdout
