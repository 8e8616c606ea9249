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


# bench/layout_drafts.py's RLHF loop: sampling and scoring stages, two feedback edges
LOOP = {"prompts": (172, 60), "policy": (135, 60), "answers": (146, 60), "ref": (213, 60),
        "kl": (169, 60), "rm": (180, 60), "score": (124, 60), "value": (169, 60),
        "gae": (239, 60), "buffer": (226, 60), "loss": (180, 60), "update": (191, 60),
        "vloss": (158, 60), "vupdate": (180, 60), "log": (218, 60)}
LOOP_EDGES = [("prompts", "policy"), ("policy", "answers"), ("answers", "ref"),
              ("answers", "rm"), ("ref", "kl"), ("policy", "kl"), ("rm", "score"),
              ("kl", "score"), ("score", "gae"), ("answers", "value"), ("value", "gae"),
              ("gae", "buffer"), ("policy", "log"), ("log", "buffer"), ("buffer", "loss"),
              ("loss", "update"), ("buffer", "vloss"), ("vloss", "vupdate"),
              ("update", "policy"), ("vupdate", "value")]
LOOP_FEEDBACK = {("update", "policy"), ("vupdate", "value")}
LOOP_GROUPS = {"sample": (["prompts", "policy", "answers"], (10.0, 30.0, 10.0, 10.0)),
               "score": (["ref", "kl", "rm", "score"], (10.0, 30.0, 10.0, 10.0))}


def laid_out(sizes, edges, feedback, groups) -> int:
    """The crossings of a drawing as `figure layout` lays it out: boxes, the sides
    between rows and round the outside, then the side choice; routed as the build
    routes it. Folded, within the page."""
    boxes = layout(list(sizes), dict(sizes), edges, "right", feedback, groups)
    width, height = extent_of(list(boxes.values()))
    assert width <= 1240 and len(set(boxes.row.values())) > 1
    start = {**boxes.outer, **sides_between_rows(boxes, boxes.row, edges, "right")}
    turned = frozenset(k for k, edge in enumerate(edges) if edge in feedback)
    sides = untangle(boxes, [Ends(a, b) for a, b in edges], bounds=(0, 0, width, height),
                     outside_ok=turned, start=start)
    routes = route_edges(boxes, [Ends(a, b, *sides.get(k, (None, None)))
                                 for k, (a, b) in enumerate(edges)],
                         bounds=(0, 0, width, height))
    assert all(route.ok for route in routes)
    return count([route.points for route in routes])


def test_a_folded_pipeline_is_drawn_with_no_crossing_within_the_page():
    """The greedy fold (pretraining above the demonstrations, its edge to the evals
    round the outside) left a crossing."""
    assert laid_out(SIZES, EDGES, FEEDBACK, GROUPS) == 0


def test_a_folded_loop_is_cut_where_its_routes_cross_least():
    """The greedy fold (rows of 3, 4 and 3 layers) left 7 crossings; cut right after
    the scoring stage instead (3, 3 and 4), 4 (`dot`, 2720 px wide: 2)."""
    assert laid_out(LOOP, LOOP_EDGES, LOOP_FEEDBACK, LOOP_GROUPS) <= 4


def rows(boxes) -> list[list[str]]:
    """The nodes of each row, left to right."""
    found: dict[int, list[str]] = {}
    for node in sorted(boxes, key=lambda n: boxes[n][0]):
        found.setdefault(boxes.row[node], []).append(node)
    return [found[r] for r in sorted(found)]


def test_a_chain_of_wide_boxes_folds_into_balanced_rows():
    """Four boxes 300 px wide (three fit a row) folded 3 + 1 left the last one alone
    at the start of the second row, under the first, with the edge into it running
    back across the whole page; a designer balances the rows: 2 + 2."""
    wide = {n: (300, 60) for n in "abcd"}
    boxes = layout(list(wide), wide, [("a", "b"), ("b", "c"), ("c", "d")], "right")
    assert rows(boxes) == [["a", "b"], ["c", "d"]]
    assert extent_of(list(boxes.values()))[0] <= 1240
    # seven: 3 + 2 + 2 (the longer row first, as a page is filled), not 3 + 3 + 1
    seven = {n: (300, 60) for n in "abcdefg"}
    boxes = layout(list(seven), seven, list(zip("abcdef", "bcdefg")), "right")
    assert rows(boxes) == [["a", "b", "c"], ["d", "e"], ["f", "g"]]
    # six of 200 px (four fit a row): 3 + 3, not 4 + 2
    six = {n: (200, 60) for n in "abcdef"}
    boxes = layout(list(six), six, list(zip("abcde", "bcdef")), "right")
    assert rows(boxes) == [["a", "b", "c"], ["d", "e", "f"]]


def test_a_chain_that_fits_one_row_is_not_folded():
    fits = {n: (250, 60) for n in "abcd"}
    boxes = layout(list(fits), fits, [("a", "b"), ("b", "c"), ("c", "d")], "right")
    assert rows(boxes) == [["a", "b", "c", "d"]]


def test_an_edge_back_up_leaves_a_box_with_none_below_it_by_its_bottom():
    """Between rows: down from bottom to top; back up round the outside from the side
    the rows start from, or from the bottom where no box lies below the source (its
    left side takes the edges into it from its row: leaving there crosses them)."""
    boxes = {"a": (30.0, 30.0, 100.0, 60.0), "b": (190.0, 30.0, 100.0, 60.0),
             "c": (30.0, 200.0, 100.0, 60.0), "d": (190.0, 200.0, 100.0, 60.0),
             "e": (190.0, 300.0, 100.0, 60.0)}
    row = {"a": 0, "b": 0, "c": 1, "d": 1, "e": 1}
    edges = [("b", "c"), ("c", "d"), ("d", "a"), ("e", "b")]
    assert sides_between_rows(boxes, row, edges, "right") == {
        0: ("bottom", "top"), 2: ("left", "left"), 3: ("bottom", "left")}


# A code review: branch -> commit -> push, on to the checks and the review in later
# rows, "changes requested" back to commit, approve on to merge and deploy.
REVIEW = {n: (float(w), 60.0) for n, w in (
    ("branch", 180), ("commit", 210), ("push", 250), ("ci", 270), ("lint", 250),
    ("tests", 250), ("review", 250), ("changes", 210), ("approve", 130), ("merge", 200),
    ("deploy", 250))}
REVIEW_EDGES = [("branch", "commit"), ("commit", "push"), ("push", "ci"), ("ci", "lint"),
                ("ci", "tests"), ("lint", "review"), ("tests", "review"),
                ("review", "changes"), ("changes", "commit"), ("review", "approve"),
                ("approve", "merge"), ("merge", "deploy")]


def test_a_row_s_chain_runs_straight_though_a_loop_leaves_it_for_a_later_row():
    # The loop runs between the rows, not along the first one: push is not moved off
    # the chain's line to leave it a lane.
    boxes = layout(list(REVIEW), REVIEW, REVIEW_EDGES, "right", {("changes", "commit")})
    assert len(set(boxes.row.values())) > 1
    assert {boxes[n][1] for n in ("branch", "commit", "push")} == {boxes["branch"][1]}


def test_a_stage_s_boxes_face_the_rows_their_edges_go_to():
    """In the human review stage, approve (on to merge, in the next row) lay above
    "changes requested" (back to commit, in the row above): their edges crossed. A
    stage keeps its boxes together, and orders them as a row's others: the one whose
    edge goes back first, the one whose edge goes on last."""
    margin = (10.0, 30.0, 10.0, 10.0)
    stages = {"local": (["branch", "commit", "push"], margin),
              "checks": (["ci", "lint", "tests"], margin),
              "human": (["review", "changes", "approve"], margin)}
    boxes = layout(list(REVIEW), REVIEW, REVIEW_EDGES, "right", {("changes", "commit")},
                   stages)
    assert boxes.row["changes"] == boxes.row["approve"] < boxes.row["merge"]
    assert boxes["changes"][1] < boxes["approve"][1]


def centre(box) -> float:
    return box[0] + box[2] / 2


def test_a_row_one_edge_joins_hangs_under_its_source():
    """A stage of three boxes (kept on one row) and a fourth box after it: the fourth,
    alone on the second row, stood at the start of the page, the edge into it running
    back across the page; it hangs under the stage's last box, the edge straight down,
    within the page. A row that more edges join stays at the start of the page."""
    wide = {n: (300, 60) for n in "abcd"}
    stage = {"build": (["a", "b", "c"], (10.0, 30.0, 10.0, 10.0))}
    chain = [("a", "b"), ("b", "c"), ("c", "d")]
    boxes = layout(list(wide), wide, chain, "right", groups=stage)
    assert rows(boxes) == [["a", "b", "c"], ["d"]]
    assert centre(boxes["d"]) == centre(boxes["c"])
    assert extent_of(list(boxes.values()))[0] <= 1240
    boxes = layout(list(wide), wide, chain + [("a", "d")], "right", groups=stage)
    assert boxes["d"][0] == boxes["a"][0]
    # a chain of four folded 2 + 2: the second row under the second box
    boxes = layout(list(wide), wide, chain, "right")
    assert rows(boxes) == [["a", "b"], ["c", "d"]]
    assert boxes["c"][0] == boxes["b"][0]


def test_a_label_between_rows_spaces_them_by_its_height_not_its_width():
    # Between two rows an edge runs across the page, and its label lies along that run:
    # the rows need room for the label's height. Its width (its length along the run)
    # once set them 170 px apart for a 130 px label, not 80.
    sizes = {n: (200.0, 60.0) for n in "abcdefgh"}
    edges = [(a, b) for a, b in zip("abcdefg", "bcdefgh", strict=True)]
    plain = layout(list(sizes), sizes, edges, "right")
    labelled = layout(list(sizes), sizes, edges, "right",
                      labels={k: (130.0, 23.0) for k in range(len(edges))})
    assert len(set(plain.row.values())) > 1
    rows = {r: min(box[1] for n, box in plain.items() if plain.row[n] == r)
            for r in set(plain.row.values())}
    assert [min(box[1] for n, box in labelled.items() if labelled.row[n] == r)
            for r in sorted(rows)] == [rows[r] for r in sorted(rows)]


def test_a_stage_too_long_for_a_row_is_not_chased_down_the_page():
    """Rightwards on a 700 px page, a stage (g1) too long for one row and a box of its
    layers with an edge path into it: the box was moved after the stage, which pushed
    the stage's boxes after it, and so on until the layout gave up: 12 rows, 3950 px
    tall. The stage's boxes now follow that box: 5 rows, some 1800 px."""
    sizes = {"n0": (160, 70), "n1": (160, 70), "n2": (300, 40), "n3": (220, 40),
             "n4": (80, 40), "n5": (80, 50), "n6": (220, 40), "n7": (220, 70),
             "n8": (80, 70), "n9": (120, 40), "n10": (120, 50), "n11": (160, 40),
             "n12": (220, 40)}
    edges = [("n0", "n1"), ("n0", "n2"), ("n0", "n7"), ("n0", "n8"), ("n1", "n5"),
             ("n1", "n6"), ("n2", "n11"), ("n2", "n12"), ("n2", "n3"), ("n3", "n10"),
             ("n3", "n4"), ("n3", "n5"), ("n3", "n9"), ("n8", "n10"), ("n6", "n4")]
    margins = (10.0, 30.0, 10.0, 10.0)
    groups = {"g1": (["n1", "n2", "n3"], margins), "g2": (["n6", "n7", "n8"], margins)}
    boxes = layout(list(sizes), sizes, edges, "right", {("n6", "n4")}, groups,
                   max_width=700)
    assert max(boxes.row.values()) <= 4
    assert extent_of(list(boxes.values()))[1] < 2000


def test_a_group_s_boxes_with_no_edge_stand_with_its_first_boxes_with_edges():
    """Down the page, a stage of a chain entered from two boxes outside it, and two boxes
    with no edge: those two stood in the first layer, beside the first box outside, and
    the stage's frame reached up round the layers between. They now stand beside the
    stage's first box."""
    sizes = {n: (120, 40) for n in ("x", "y", "a", "b", "lone1", "lone2")}
    edges = [("x", "y"), ("y", "a"), ("a", "b")]
    boxes = layout(list(sizes), sizes, edges, "down",
                   groups={"stage": (["a", "b", "lone1", "lone2"], (10.0, 30.0, 10.0, 10.0))})
    assert boxes["lone1"][1] == boxes["lone2"][1] == boxes["a"][1]
