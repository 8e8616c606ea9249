"""A first draft of a figure: `figure new`, draft nodes, the layered layout (with the router
of geometry/route.py, every edge routable), `figure layout`, and `check --stretch`."""

from __future__ import annotations

import difflib
import json
import random
import re
import shutil
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from conftest import REPO, opened_view, run_build, soup
from filesite import make_site

from articlesite.check.stretch import stretched
from articlesite.cli import main
from articlesite.figures.new import add_entries
from articlesite.geometry.crossings import count
from articlesite.geometry.layout import GAP, GRID, extent_of, layout, sides_along
from articlesite.geometry.route import Ends, route_edges
from articlesite.geometry.untangle import untangle

ARTICLE = '---\ntitle: "Demo {code}"\ndescription: "demo"\n---\n\n## Intro {{#intro}}\n\n' \
          '```{{figure}} pipeline\n```\n'


def random_graph(seed: int) -> tuple[list[str], dict, list[tuple[str, str]]]:
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(rng.randint(4, 20))]
    sizes = {node: (rng.randint(80, 260), rng.randint(50, 110)) for node in nodes}
    edges = {(rng.choice(nodes[:i]), node) for i, node in enumerate(nodes) if i}   # a tree
    for _ in range(rng.randint(0, len(nodes))):   # more, some of them back or across
        a, b = rng.sample(nodes, 2)
        edges.add((a, b))
    return nodes, sizes, sorted(edges)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("direction", ["right", "down", "left", "up"])
def test_drafts_are_placed_apart_on_the_grid_and_every_edge_routes(seed, direction):
    nodes, sizes, edges = random_graph(seed)
    boxes = layout(nodes, sizes, edges, direction)
    assert sorted(boxes) == sorted(nodes)
    for node, (x, y, w, h) in boxes.items():
        assert all(v % GRID == 0 for v in (x, y, w, h)), (node, boxes[node])
        assert w >= sizes[node][0] and h >= sizes[node][1]
    for (a, (ax, ay, aw, ah)), (b, (bx, by, bw, bh)) in combinations(boxes.items(), 2):
        apart = max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh))
        assert apart >= GAP, (a, b)
    width, height = extent_of(list(boxes.values()))
    routes = route_edges(boxes, [Ends(a, b) for a, b in edges], bounds=(0, 0, width, height))
    assert [route.error for route in routes if route.error] == []


def test_a_chain_is_straight_and_a_loop_runs_back():
    sizes = {"a": (100, 60), "b": (150, 90), "c": (120, 60)}
    boxes = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c")], "right")
    centres = {n: y + h / 2 for n, (x, y, w, h) in boxes.items()}
    assert len(set(centres.values())) == 1
    loop = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c"), ("c", "a")], "right")
    assert loop["a"][0] < loop["b"][0] < loop["c"][0]   # c -> a runs back
    down = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c")], "up")
    assert down["a"][1] > down["b"][1] > down["c"][1]


# A model server: client -> gateway -> auth -> router, which fans out to three and is
# pulled aside by them and by a loop back into it; two models into a tokenizer, a GPU,
# logs read by two.
SERVER = {n: (float(w), 60.0) for n, w in (
    ("client", 210), ("gateway", 210), ("auth", 210), ("router", 210), ("small", 200),
    ("large", 210), ("cache", 270), ("tokenizer", 250), ("gpu", 250), ("logs", 250),
    ("metrics", 270), ("eval", 190))}
SERVER_EDGES = [("client", "gateway"), ("gateway", "auth"), ("auth", "router"),
                ("router", "cache"), ("router", "small"), ("router", "large"),
                ("small", "tokenizer"), ("large", "tokenizer"), ("tokenizer", "gpu"),
                ("gpu", "logs"), ("logs", "metrics"), ("logs", "eval"), ("eval", "router")]
SERVER_LOOP = {("eval", "router")}


def test_a_chain_hanging_from_a_box_runs_straight_down_to_it():
    # The chain above the router stood in steps (the sweeps pull each box toward the
    # mean of its neighbours); now it lies on the router's line.
    boxes = layout(list(SERVER), SERVER, SERVER_EDGES, "down", SERVER_LOOP)
    centres = {n: x + w / 2 for n, (x, _, w, _) in boxes.items()}
    assert {centres[n] for n in ("client", "gateway", "auth")} == {centres["router"]}
    assert centres["router"] != centres["large"]   # (not a chain: it fans out)
    # tokenizer -> gpu -> logs, between two models above and two readers below, stood
    # in steps too (295, 350, 415): one line, halfway between the two ends' own
    assert len({centres[n] for n in ("tokenizer", "gpu", "logs")}) == 1


def test_down_the_page_an_edge_enters_a_box_below_by_its_top():
    """The router's edge to the small model, far to its left and below, entered the
    model by its right flank (the side facing the router); as `figure layout` chooses
    the sides now, it leaves the router's left and enters the model's top, and every
    edge to a box below enters it so."""
    boxes = layout(list(SERVER), SERVER, SERVER_EDGES, "down", SERVER_LOOP)
    width, height = extent_of(list(boxes.values()))
    loop = frozenset(k for k, edge in enumerate(SERVER_EDGES) if edge in SERVER_LOOP)
    ends = [Ends(a, b, around=(a, b) in SERVER_LOOP) for a, b in SERVER_EDGES]
    start = {**sides_along(boxes, SERVER_EDGES, "down", SERVER_LOOP), **boxes.outer}
    assert start[SERVER_EDGES.index(("router", "small"))] == (None, "top")
    sides = untangle(boxes, ends, bounds=(0, 0, width, height), outside_ok=loop, start=start)
    routes = route_edges(boxes, [Ends(a, b, *sides.get(k, (None, None)), (a, b) in SERVER_LOOP)
                                 for k, (a, b) in enumerate(SERVER_EDGES)],
                         bounds=(0, 0, width, height))
    assert all(route.ok for route in routes)
    assert {route.target_side for (a, b), route in zip(SERVER_EDGES, routes, strict=True)
            if (a, b) not in SERVER_LOOP} == {"top"}


@pytest.mark.parametrize(("many", "seed"), [(25, 1), (30, 0), (30, 1), (35, 0)])
def test_a_tree_of_more_than_24_boxes_down_the_page_stays_within_the_page(many, seed):
    """Random trees of 25 to 35 boxes down the page came out 1250 to 1330 px wide: each
    layer fitted the page alone, but once ordered (a long edge's placeholder between two
    boxes) or once chains were lined up, wider; and drawings of more than 24 boxes were
    not planned again. Up too."""
    rnd = random.Random(seed * 1000 + many)
    nodes = [f"n{i}" for i in range(many)]
    edges = [(f"n{rnd.randrange(i)}", f"n{i}") for i in range(1, many)]
    sizes = {n: (float(rnd.choice([100, 120, 130, 160])), 60.0) for n in nodes}
    for direction in ("down", "up"):
        boxes = layout(nodes, sizes, edges, direction)
        assert extent_of(list(boxes.values()))[0] <= 1240, direction
        assert not any(a != b and _overlap(boxes[a], boxes[b])
                       for a, b in combinations(nodes, 2))


def test_a_taxonomy_too_wide_for_the_page_wraps_each_category_s_items_under_it():
    """Four categories of five items, 150 px boxes, down the page: a layer of twenty
    items, sent to later layers from the last one on, was packed left to right in
    reading order: the last category's items ended up under the first (625 px from
    their category), and its routes crossed 4 times. Each category's leaves now wrap
    under it, its last first, those alone in their layers on one line: none cross."""
    nodes, edges = _taxonomy(4, 5)
    boxes = layout(nodes, {n: (150.0, 60.0) for n in nodes}, edges, "down")
    assert extent_of(list(boxes.values()))[0] <= 1240

    def centre(n: str) -> float:
        return boxes[n][0] + boxes[n][2] / 2
    far = {item: round(abs(centre(item) - centre(category))) for category, item in edges[4:]}
    assert max(far.values()) <= 300, far
    # the leaves alone in their layers under a category on one line (they stood in steps)
    assert centre("c0i0") == centre("c0i1")
    routes = _routed(boxes, edges, "down")
    assert count([route.points for route in routes]) == 0   # (4 before; 1 in steps)


def test_rightwards_a_tree_s_edges_enter_each_box_by_its_left_side():
    """A taxonomy laid out rightwards: an item far above or below its category was
    entered by its bottom or top (the side facing the category), reached round a
    corner from the category's top or bottom; every edge now enters its box by the
    left side, as down the page one enters by the top."""
    nodes, edges = _taxonomy(3, 5)
    boxes = layout(nodes, {n: (150.0, 40.0) for n in nodes}, edges, "right")
    routes = _routed(boxes, edges, "right")
    assert count([route.points for route in routes]) == 0
    assert {route.target_side for route in routes} == {"left"}


def test_a_taxonomy_whose_items_have_items_crosses_half_as_often():
    """A 43-box taxonomy (bench/layout_trees.py's fifth: five categories, three items
    with items of their own) down the page: a layer too wide sent a category's last
    item away before an item with items of its own, and its edges crossed 26 times, the
    drawing 1680 px tall; the items with items of their own now go first."""
    rnd = random.Random(5)
    nodes, edges = ["root"], []
    for c in range(rnd.randint(3, 5)):
        nodes.append(f"c{c}")
        edges.append(("root", f"c{c}"))
        for i in range(rnd.randint(2, 6)):
            nodes.append(f"c{c}i{i}")
            edges.append((f"c{c}", f"c{c}i{i}"))
            if rnd.random() < 0.15:
                for k in range(rnd.randint(2, 3)):
                    nodes.append(f"c{c}i{i}s{k}")
                    edges.append((f"c{c}i{i}", f"c{c}i{i}s{k}"))
    sizes = {n: (float(rnd.choice([110, 130, 150, 180])), 60.0) for n in nodes}
    boxes = layout(nodes, sizes, edges, "down")
    width, height = extent_of(list(boxes.values()))
    assert len(nodes) == 43 and width <= 1240 and height <= 1200
    assert count([route.points for route in _routed(boxes, edges, "down")]) <= 14


def test_each_category_keeps_an_item_under_it_when_its_items_wrap():
    """Four categories of 3 to 6 items, two items with items of their own: each item
    sent on to the next layer leaves its edge passing the layer, a corridor that the
    boxes to send on were counted without, so the layer was asked again and again and
    the last category's first item ended four layers below it (routes: 5 crossings).
    Every category now keeps an item in the layer under it, and 1 crossing is left."""
    spec = {"c0": [3, 0, 0], "c1": [0] * 6, "c2": [0, 2, 0, 0], "c3": [0] * 5}
    nodes, edges = ["root"], []
    for category, items in spec.items():
        nodes.append(category)
        edges.append(("root", category))
        for i, subs in enumerate(items):
            nodes.append(f"{category}i{i}")
            edges.append((category, f"{category}i{i}"))
            for k in range(subs):
                nodes.append(f"{category}i{i}s{k}")
                edges.append((f"{category}i{i}", f"{category}i{i}s{k}"))
    boxes = layout(nodes, {n: (150.0, 60.0) for n in nodes}, edges, "down")
    under = boxes["c0"][1] + 60 + 60
    assert {c: min(boxes[f"{c}i{i}"][1] for i in range(len(items)))
            for c, items in spec.items()} == dict.fromkeys(spec, under)
    assert count([route.points for route in _routed(boxes, edges, "down")]) <= 1


# A machine-learning taxonomy: its boxes as Chromium measured their zh, en and ja texts.
TAXONOMY = {"ml": 190, "sup": 210, "sup0": 160, "sup1": 140, "sup2": 140, "sup3": 220,
            "sup4": 200, "uns": 230, "uns0": 180, "uns1": 250, "uns2": 200, "uns3": 200,
            "rl": 240, "rl0": 210, "rl1": 230, "rl2": 190, "rl3": 210, "rl4": 280,
            "rl5": 140, "ssl": 240, "ssl0": 210, "ssl1": 230, "ssl2": 220}


def test_a_real_taxonomy_down_the_page_crosses_nowhere():
    """Four kinds of learning and their 18 methods, down the page: the methods were
    packed in reading order across four layers, reinforcement learning's in a row at
    the bottom left, and the edges crossed 6 times. Each kind's methods now wrap under
    it and nothing crosses."""
    sizes = {n: (float(w), 60.0) for n, w in TAXONOMY.items()}
    edges = [(n.rstrip("0123456789") if n[-1].isdigit() else "ml", n)
             for n in TAXONOMY if n != "ml"]
    boxes = layout(list(TAXONOMY), sizes, edges, "down")
    assert extent_of(list(boxes.values()))[0] <= 1240
    assert count([route.points for route in _routed(boxes, edges, "down")]) == 0


FIVE_KINDS = {"root": 110, "c0": 150, "c0i0": 180, "c0i1": 150, "c1": 180, "c1i0": 110,
              "c1i0s0": 130, "c1i0s1": 150, "c1i0s2": 110, "c1i1": 110, "c2": 130,
              "c2i0": 150, "c2i1": 180, "c2i1s0": 130, "c2i1s1": 110, "c2i1s2": 150,
              "c2i2": 130, "c2i3": 180, "c3": 150, "c3i0": 150, "c3i1": 110, "c3i2": 110,
              "c3i2s0": 130, "c3i2s1": 110, "c3i2s2": 150, "c3i3": 150, "c3i4": 130,
              "c4": 180, "c4i0": 180, "c4i1": 130}


def test_a_tree_down_the_page_fans_out_below_a_layer_not_through_it():
    """A taxonomy of 30 boxes (bench/layout_trees.py's seventh) down the page: the edges
    from a category to its items below and aside left it by the flank, ran along the
    categories' layer between their boxes, and crossed 4 times. Where the flank leads
    past another box of the layer, they now leave by the bottom, and nothing crosses."""
    sizes = {n: (float(w), 60.0) for n, w in FIVE_KINDS.items()}
    edges = [(n[:-2] if len(n) > 2 else "root", n) for n in FIVE_KINDS if n != "root"]
    boxes = layout(list(FIVE_KINDS), sizes, edges, "down")
    assert count([route.points for route in _routed(boxes, edges, "down")]) == 0


def _overlap(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _routed(boxes, edges: list[tuple[str, str]], direction: str) -> list:
    """The edges' routes as `figure layout` chooses their sides and the build routes
    them (every one found)."""
    width, height = extent_of(list(boxes.values()))
    sides = untangle(boxes, [Ends(a, b) for a, b in edges], bounds=(0, 0, width, height),
                     start={**sides_along(boxes, edges, direction), **boxes.outer})
    routes = route_edges(boxes, [Ends(a, b, *sides.get(k, (None, None)))
                                 for k, (a, b) in enumerate(edges)], bounds=(0, 0, width, height))
    assert all(route.ok for route in routes)
    return routes


def _taxonomy(categories: int, items: int) -> tuple[list[str], list[tuple[str, str]]]:
    nodes = ["root"] + [f"c{c}" for c in range(categories)] + [
        f"c{c}i{i}" for c in range(categories) for i in range(items)]
    return nodes, [("root", f"c{c}") for c in range(categories)] + [
        (f"c{c}", f"c{c}i{i}") for c in range(categories) for i in range(items)]


def test_down_the_page_an_edge_that_skips_a_layer_leaves_its_source_by_the_bottom():
    """An edge from a parent to a child two layers below, far aside (a child sent on by a
    layer too wide for the page): left to the router, it left the parent's flank and,
    in a tree of 22 nodes, went up and over a sibling; it now starts from the parent's
    bottom. An edge to the next layer keeps its source's side free, unless that side
    would take it past a box beside its source: then it too leaves by the bottom."""
    boxes = {"parent": (30, 30, 120, 60), "child": (200, 150, 120, 60),
             "skipped": (500, 270, 120, 60), "next": (500, 150, 120, 60)}
    edges = [("parent", "child"), ("parent", "skipped"), ("parent", "next")]
    start = sides_along(boxes, edges, "down")
    assert start[1] == ("bottom", "top")
    assert start[2] == (None, "top")
    assert sides_along({n: (x, 400 - y - h, w, h) for n, (x, y, w, h) in boxes.items()},
                       edges, "up")[1] == ("top", "bottom")
    beside = sides_along({**boxes, "uncle": (300, 30, 120, 60)}, edges, "down")
    assert beside[2] == ("bottom", "top")


def test_new_keys_are_appended_in_the_dictionary_s_own_style():
    text = '{\n  "a": {\n    "zh": "甲",\n    "en": "A"\n  }\n}\n'
    new = add_entries(text, {"b": {"zh": "乙", "en": "B"}})
    assert new == text[:-3] + ',\n  "b": {\n    "zh": "乙",\n    "en": "B"\n  }\n}\n'
    assert json.loads(add_entries("{}\n", {"b": {"en": "B"}})) == {"b": {"en": "B"}}


def test_new_keys_are_appended_on_one_line_in_a_dictionary_of_one_line_entries():
    # The examples' dictionaries write each key on one line: a key added (a group made
    # in the figure editor) is written likewise, not opened on one line and closed on
    # the next.
    text = '{\n  "a": {"zh": "甲", "en": "A"},\n  "c": {"zh": "丙", "en": "C"}\n}\n'
    new = add_entries(text, {"b": {"zh": "乙", "en": "B"}})
    assert new == text[:-3] + ',\n  "b": {"zh": "乙", "en": "B"}\n}\n'


def test_a_key_added_after_entries_of_one_member_is_written_in_their_style():
    one_line = '{\n  "a": {"en": "A"}\n}\n'
    assert add_entries(one_line, {"b": {"zh": "乙", "en": "B"}}) == \
        one_line[:-3] + ',\n  "b": {"zh": "乙", "en": "B"}\n}\n'
    own_lines = '{\n  "a": {\n    "en": "A"\n  }\n}\n'
    assert add_entries(own_lines, {"b": {"zh": "乙", "en": "B"}}) == \
        own_lines[:-3] + ',\n  "b": {\n    "zh": "乙",\n    "en": "B"\n  }\n}\n'


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> dict:
    """A small site; `figure new pipeline`, a build (refused: drafts), `figure layout`,
    a build: what each printed and the spec before and after."""
    root = make_site(tmp_path_factory.mktemp("drafted") / "site")
    (root / "content" / "demo").mkdir()
    for code in ("zh", "en", "ja"):
        (root / "content" / "demo" / f"{code}.md").write_text(ARTICLE.format(code=code),
                                                             encoding="utf-8")
    seen = {"root": root, "new": main(["--root", str(root), "figure", "new", "pipeline"])}
    seen["draft"] = (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8")
    seen["refused"] = run_build(root)
    # In a process of its own, as `check` below: it measures the boxes in Chromium, and
    # Playwright's sync API runs once per process at a time (the browser tests' may run).
    seen["layout"] = run_build(root, "figure", "layout", "pipeline")
    seen["placed"] = (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8")
    seen["built"] = run_build(root)
    return seen


def test_figure_new_writes_drafts_and_untranslated_texts(drafted):
    assert drafted["new"] == 0
    root = drafted["root"]
    spec = yaml.safe_load(drafted["draft"])
    assert all("box" not in node for node in spec["nodes"])
    assert {"from": "check", "to": "step", "class": "feedback"} in spec["edges"]
    texts = json.loads((root / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    assert set(texts) == {f"pipeline-{k}" for k in ("title", "caption", "input", "step",
                                                     "step-sub", "check", "output")}
    assert all(len(set(t.values())) == 1 and set(t) == {"zh", "en", "ja"}
               for t in texts.values())   # the source text everywhere: untranslated
    view = opened_view(root / "site").get_text(" ")
    assert view.count("untranslated") >= 14


def test_a_build_refuses_drafts_naming_them_and_the_command(drafted):
    refused = drafted["refused"]
    assert refused.returncode == 1
    assert ("figures/pipeline.yaml:7: 4 nodes not placed yet (no 'box'): 'input' (line 7), "
            "'step' (line 8), 'check' (line 9), 'output' (line 10); `python build.py "
            "figure layout pipeline` places them") in refused.stderr
    assert refused.stderr.count("problem") == 1 and "width" not in refused.stderr


def test_figure_layout_writes_only_the_drafts_lines_and_the_canvas(drafted):
    assert drafted["layout"].returncode == 0, drafted["layout"].stdout
    changed = [line for line in difflib.unified_diff(drafted["draft"].splitlines(),
                                                     drafted["placed"].splitlines(), n=0)
               if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    # 4 lines out, 4 with their box, the canvas; and the loop back from check to step,
    # which ran between the two boxes against the edge from step to check (their
    # sides both entered and left), round over them from top to top
    assert len(changed) == 4 + 4 + 2 + 2, changed
    assert all("box: [" in line for line in changed if line.startswith("+  - {id"))
    assert "+  - {from: check.top, to: step.top, class: feedback}" in changed
    spec = yaml.safe_load(drafted["placed"])
    assert spec["width"] % 5 == 0 and spec["height"] % 5 == 0
    built = drafted["built"]
    assert built.returncode == 0, built.stderr
    page = soup(drafted["root"] / "site" / "en" / "demo.html")
    figure = page.select_one("figure#figure-pipeline")
    assert len(figure.select(".node")) == 4 and len(figure.select(".edge")) >= 4


def test_layout_again_changes_nothing_and_a_bad_id_is_refused(drafted, capsys):
    root = drafted["root"]
    # (in a process of its own: it measures the placed boxes' words in Chromium)
    again = run_build(root, "figure", "layout", "pipeline")
    assert again.returncode == 0 and "nothing to place" in again.stdout, again.stderr
    assert (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8") == drafted["placed"]
    assert main(["--root", str(root), "figure", "new", "pipeline"]) == 2
    assert main(["--root", str(root), "figure", "new", "Bad_Id"]) == 2
    assert "already exists" in capsys.readouterr().err


def test_draft_labels_dividers_and_lifelines_are_placed_where_there_is_room(drafted, capsys):
    root = drafted["root"]
    path = root / "figures" / "pipeline.yaml"
    draft = (drafted["placed"] + "labels:\n  - {text: pipeline-title, class: stage}\n"
             "dividers:\n  - {}\nlifelines:\n  - {}\n")
    path.write_text(draft, encoding="utf-8")
    try:
        refused = run_build(root)
        assert main(["--root", str(root), "figure", "layout", "pipeline", "--no-browser"]) == 0
        out = capsys.readouterr().out
        placed = path.read_text(encoding="utf-8")
        built = run_build(root)
    finally:
        path.write_text(drafted["placed"], encoding="utf-8")
    line = drafted["placed"].count("\n") + 2
    assert (f"figures/pipeline.yaml:{line}: label 'pipeline-title' (line {line}), divider "
            f"(line {line + 2}), lifeline (line {line + 4}) not placed yet (no 'box'): "
            "`python build.py figure layout pipeline` places them where there is room"
            ) in refused.stderr, refused.stderr
    assert "Placed label 'pipeline-title', divider 1, lifeline 1 in figures/pipeline.yaml " \
        "where there was room" in out
    assert built.returncode == 0, built.stderr
    changed = [line for line in difflib.unified_diff(draft.splitlines(), placed.splitlines(),
                                                     n=0)
               if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert len(changed) == 6 + 2 and changed[0].startswith("-height"), changed
    #                         the three drafts, and the canvas grown below for them
    spec = yaml.safe_load(placed)
    nodes = [node["box"] for node in spec["nodes"]]
    (x, y, w), = [label["box"] for label in spec["labels"]]
    assert w >= 100 and x + w <= spec["width"] and y + 28 <= spec["height"]
    assert all(x + w + 10 <= nx or nx + nw + 10 <= x or y + 28 + 10 <= ny or ny + nh + 10 <= y
               for nx, ny, nw, nh in nodes)   # clear of every node
    (dx, dy, dw), = [rule["box"] for rule in spec["dividers"]]
    (lx, ly, lh), = [rule["box"] for rule in spec["lifelines"]]
    left, right = min(n[0] for n in nodes), max(n[0] + n[2] for n in nodes)
    assert (dx, dw) == (left, right - left)   # across the drawing, below it (one row)
    assert dy > max(n[1] + n[3] for n in nodes)
    assert (ly, lh) == (min(n[1] for n in nodes),
                        max(n[1] + n[3] for n in nodes) - min(n[1] for n in nodes))
    xs = sorted(n[0] for n in nodes)   # between two layers of the row
    assert any(nx + nw < lx < mx for (nx, _, nw, _), mx in zip(sorted(nodes), xs[1:]))


def test_stretched_texts_are_longer_by_their_own_characters():
    assert stretched("Actor", 1.3) == "ActorAc"
    assert stretched("策略\nr_t", 1.5) == "策略策\nr_trt"
    assert stretched("", 1.3) == ""


def test_stretch_exits_1_when_a_box_would_overflow(drafted):
    fits = run_build(drafted["root"], "check", "--stretch", "1.3")
    assert fits.returncode == 0, fits.stdout + fits.stderr
    assert "Every box would still fit with every figure text 30 % longer" in fits.stdout
    overflows = run_build(drafted["root"], "check", "--stretch", "3")
    assert overflows.returncode == 1, overflows.stdout + overflows.stderr
    assert "figures/pipeline.yaml:10: figure 'pipeline', node 'step': would overflow" \
        in overflows.stdout


def test_placed_boxes_stay_and_a_spec_with_problems_is_left_alone(tmp_path, capsys):
    root = make_site(tmp_path / "site")
    assert main(["--root", str(root), "figure", "new", "f"]) == 0
    path = root / "figures" / "f.yaml"
    spec = ("title: f-title\ncaption: f-caption\nwidth: 300\nheight: 300\nnodes:\n"
            "  - {id: a, box: [20, 20, 300, 150], text: f-input}\n"
            "  - {id: b, text: f-step}\n  - {id: c, text: f-check}\n"
            "edges:\n  - {from: a, to: b}\n  - {from: b, to: c}\n")
    path.write_text(spec, encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "f", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert "estimated from the font sizes" in out and "beyond the spec's width" in out
    assert "No edge crosses another." in out
    placed = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert placed["nodes"][0]["box"] == [20, 20, 300, 150] and placed["width"] == 300
    b, c = (node["box"] for node in placed["nodes"][1:])
    assert b[1] >= 170 and c[1] >= 170 and c[0] > b[0] + b[2]   # below a, b before c
    wrong = spec.replace("width: 300", "colour: red")
    path.write_text(wrong, encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "f", "--no-browser"]) == 1
    assert "figures/f.yaml:3: unknown field 'colour'" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == wrong


def test_an_edge_marked_feedback_runs_back():
    sizes = dict.fromkeys("abcd", (100, 60))
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]
    assert layout(list("abcd"), sizes, edges, "down")["d"][1] > layout(
        list("abcd"), sizes, edges, "down")["b"][1]   # d -> b closes the cycle: back
    turned = layout(list("abcd"), sizes, edges, "down", feedback={("b", "c")})
    assert turned["c"][1] < turned["b"][1]   # the author says b -> c runs back


def test_figure_new_starts_the_dictionary_of_a_project_without_figures(tmp_path):
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "site.yaml").write_text(
        "default_language: en\nsource_language: en\nlanguages:\n"
        "  - {code: en, name: English, lang: en, title: T}\n", encoding="utf-8")
    assert main(["--root", str(tmp_path), "figure", "new", "first"]) == 0
    texts = json.loads((tmp_path / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    assert texts["first-input"] == {"en": "Input"} and len(texts) == 7


def test_a_draft_node_without_text_is_given_its_key_and_the_dictionary_an_entry(tmp_path,
                                                                                capsys):
    root = make_site(tmp_path / "site")
    assert main(["--root", str(root), "figure", "new", "f"]) == 0
    texts_path = root / "figures" / "figure-texts.json"
    texts = json.loads(texts_path.read_text(encoding="utf-8"))
    texts["f-embed-sub"] = {"*": "nn.Embedding"}   # written first, by its usual name
    texts_path.write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                          encoding="utf-8")
    path = root / "figures" / "f.yaml"
    path.write_text("title: f-title\ncaption: f-caption\nnodes:\n  - {id: input, text: f-input}"
                    "\n  - {id: embed}\nedges:\n  - {from: input, to: embed}\n",
                    encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "f", "--no-browser"]) == 0
    assert "Gave draft nodes their text keys: f-embed; added f-embed to " \
        "figures/figure-texts.json" in capsys.readouterr().out
    node = yaml.safe_load(path.read_text(encoding="utf-8"))["nodes"][1]
    assert (node["text"], node["sub"]) == ("f-embed", "f-embed-sub")
    after = json.loads(texts_path.read_text(encoding="utf-8"))
    assert after == {**texts, "f-embed": {code: "embed" for code in ("zh", "en", "ja")}}
    assert run_build(root).returncode == 0
    path.write_text(path.read_text(encoding="utf-8").replace("text: f-embed, ", ""),
                    encoding="utf-8")   # a placed node without a text is a mistake
    assert "node 'embed' has no 'text': give the dictionary key of its text" in \
        run_build(root).stderr


def test_rules_with_no_room_inside_go_below_or_right_and_the_canvas_grows():
    from articlesite.figures.room import Draft, place_rules

    node = (30.0, 30.0, 100.0, 60.0)   # one box filling its canvas: no gap, no free spot
    boxes, canvas = place_rules([Draft("labels", 0, (121.0, 28.0)), Draft("dividers", 0),
                                 Draft("lifelines", 0)], [node], {}, (160.0, 120.0))
    label, divider, lifeline = (boxes[(name, 0)] for name in ("labels", "dividers",
                                                                "lifelines"))
    assert label[1] >= 90 + 10 and label[2] == 130   # below the node, on the 10 px grid
    assert divider[1] > label[1] + 28 and divider[0::2] == [30.0, 100.0]
    assert lifeline[0] > 130 + 10 and lifeline[1:] == [30.0, 60.0]   # right, as tall
    assert canvas[0] >= lifeline[0] + 30 and canvas[1] >= divider[1] + 30


def test_a_failing_command_other_than_build_names_itself(tmp_path, capsys):
    root = make_site(tmp_path / "site")
    site = root / "content" / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace("source_language: zh",
                                                             "source_language: de"),
                    encoding="utf-8")
    assert main(["--root", str(root), "check", "--confirm-all"]) == 1
    err = capsys.readouterr().err
    assert "`check` failed: 1 problem; nothing was written." in err and "Build failed" not in err


@pytest.mark.parametrize("direction", ["down", "up", "left"])
def test_layout_of_a_placed_figure_down_the_page_places_nothing(tmp_path: Path, direction):
    """Every node placed, down (or up) the page: `figure layout` again ended in a Python
    traceback (the layout of no node), where rightwards it said there was nothing to do."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace(
        "height: 120\n", f"height: 120\ndirection: {direction}\n"), encoding="utf-8")
    before = spec.read_text(encoding="utf-8")
    again = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert again.returncode == 0 and "nothing to place" in again.stdout, again.stderr
    assert spec.read_text(encoding="utf-8") == before


def test_layout_again_says_that_edges_given_by_their_points_stay(tmp_path: Path):
    """`--again` places every box anew; an edge given by its points stayed where it was,
    off the moved boxes, and only `check` said so."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    again = run_build(root, "figure", "layout", "hello-flow", "--again", "--no-browser")
    assert again.returncode == 0, again.stderr
    assert ("Edges 1, 2 of figures/hello-flow.yaml give their points, which stay where they "
            "were: `from: NODE` and `to: NODE` in their place have the build route them to "
            "the boxes.") in again.stdout


def test_layout_names_a_wrong_edge_before_placing_anything(tmp_path: Path):
    """A draft with an edge to a node the spec lacks and one from a node to itself:
    `figure layout` placed the nodes and said nothing, and the next build stopped on both.
    It now lists them with the spec's other problems, and writes nothing."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text("title: hello-flow-title\ncaption: hello-flow-caption\nnodes:\n"
                    "  - {id: write, text: write}\n  - {id: build, text: build}\nedges:\n"
                    "  - {from: write, to: build}\n  - {from: build, to: bulid}\n"
                    "  - {from: write, to: write}\n", encoding="utf-8")
    before = spec.read_text(encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 1
    said = laid.stdout + laid.stderr
    assert ("figures/hello-flow.yaml:8: edge 2: 'to: bulid' names no node (did you mean "
            "'build'? nodes: build, write)") in said
    assert "figures/hello-flow.yaml:9: edge 3 goes from node 'write' to itself" in said
    assert "Traceback" not in said
    assert spec.read_text(encoding="utf-8") == before


def test_layout_names_a_draft_text_key_the_dictionary_lacks(tmp_path: Path):
    """A draft node's text and an edge label whose keys figure-texts.json lacks: `figure
    layout` ended in a Python traceback (KeyError); it now names both, file and line."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text("title: hello-flow-title\ncaption: hello-flow-caption\nnodes:\n"
                    "  - {id: write, text: write}\n  - {id: build, text: biuld}\nedges:\n"
                    "  - {from: write, to: build, label: no-such-label}\n", encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    said = laid.stdout + laid.stderr
    assert laid.returncode == 1 and "Traceback" not in said
    assert ("figures/hello-flow.yaml:5: node build uses a key that figure-texts.json lacks "
            "(did you mean 'build'?) [key 'biuld']") in said
    assert "figures/hello-flow.yaml:7: edge 1 label uses a key that figure-texts.json " \
        "lacks [key 'no-such-label']" in said


def test_a_tree_that_crosses_down_the_page_is_offered_and_turned_rightwards(tmp_path: Path):
    """A tree too wide for the page down it: its boxes sent to later layers, its edges
    cross (8 times when this was written, 2 now), and nothing said that rightwards none
    would cross.
    `figure layout` now says so and names the command; `--direction right` sets the
    direction, drops the sides chosen for the old one and lays the tree out anew."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    texts_path = root / "figures" / "figure-texts.json"
    texts = json.loads(texts_path.read_text(encoding="utf-8"))
    rnd = random.Random(7)
    lines = ["title: hello-flow-title", "caption: hello-flow-caption", "direction: down",
             "nodes:"]
    for i in range(30):
        texts[f"t{i}"] = {code: f"Step {i}" for code in ("zh", "en", "ja")}
        lines.append(f"  - {{id: n{i}, text: t{i}}}")
    lines += ["edges:"] + [f"  - {{from: n{a}, to: n{b}}}" for a, b in
                           sorted({(rnd.randrange(i), i) for i in range(1, 30)})]
    texts_path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text("\n".join(lines) + "\n", encoding="utf-8")
    down = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert down.returncode == 0, down.stderr
    crossed = re.search(r"(\d+) edge crossings? left", down.stdout)
    assert crossed and int(crossed[1]) > 0, down.stdout
    assert ("Laid out rightwards, no edge would cross (canvas about 940 × 1115): `python build.py "
            "figure layout hello-flow --direction right` lays it out so.") in down.stdout
    assert ".right" in spec.read_text(encoding="utf-8")   # a side chosen down the page
    turned = run_build(root, "figure", "layout", "hello-flow", "--no-browser",
                       "--direction", "right")
    assert turned.returncode == 0, turned.stderr
    assert "Set `direction: right` in figures/hello-flow.yaml and dropped the sides" \
        in turned.stdout
    assert "No edge crosses another." in turned.stdout and "rightwards" not in turned.stdout
    placed = yaml.safe_load(spec.read_text(encoding="utf-8"))
    assert placed["direction"] == "right" and (placed["width"], placed["height"]) == (940, 1115)
    # the sides chosen down the page dropped; rightwards, edges enter their boxes' left
    assert {edge["to"].partition(".")[2] for edge in placed["edges"]} == {"", "left"}
    assert all("." not in edge["from"] for edge in placed["edges"])
    assert run_build(root).returncode == 0


def test_direction_turns_a_figure_with_groups_labels_and_sides(tmp_path: Path):
    """The training overview (groups, edge labels, a feedback edge, sides named) turned
    rightwards: an end whose side was dropped and then chosen again ended `figure layout`
    in a Python traceback (two edits to one part of the spec). Rightwards it crosses more
    than down the page: the command says so."""
    root = tmp_path / "overview"
    shutil.copytree(REPO / "examples" / "training-overview", root)
    spec = root / "figures" / "training-overview.yaml"
    turned = run_build(root, "figure", "layout", "training-overview", "--no-browser",
                       "--direction", "right")
    assert turned.returncode == 0 and "Traceback" not in turned.stderr, turned.stderr
    placed = yaml.safe_load(spec.read_text(encoding="utf-8"))
    assert placed["direction"] == "right"
    assert "dropped the sides named on 6 edge ends" in turned.stdout
    # and down the page, as it was, it crosses less: said, with the command
    assert ("Laid out down the page, 2 edge crossings would be left (canvas about 1105 × 1400): "
            "`python build.py figure layout training-overview --direction down` lays it out "
            "so.") in turned.stdout
    assert run_build(root).returncode == 0


def test_layout_names_the_edge_labels_it_found_no_free_place_for(tmp_path: Path):
    """A chain down the page with three edges that skip layers, every edge labelled: the
    skip edges run side by side and their labels find no free place beside them. `figure
    layout` said only that no edge crossed; it now names those labels' edges, the same
    ones `check` then reports."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    nodes = "abcde"
    edges = ["a>b", "a>c", "a>d", "a>e", "b>c", "c>d", "d>e"]
    texts = json.loads((root / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    texts["flows"] = {"en": "Tokens and scores", "zh": "词元与分数", "ja": "トークンとスコア"}
    texts.update({f"n-{n}": {"en": n.upper(), "zh": n, "ja": n} for n in nodes})
    (root / "figures" / "figure-texts.json").write_text(json.dumps(texts, ensure_ascii=False),
                                                        encoding="utf-8")
    (root / "figures" / "hello-flow.yaml").write_text(
        "title: hello-flow-title\ncaption: hello-flow-caption\ndirection: down\nnodes:\n"
        + "".join(f"  - {{id: {n}, text: n-{n}}}\n" for n in nodes) + "edges:\n"
        + "".join(f"  - {{from: {e[0]}, to: {e[2]}, label: flows}}\n" for e in edges),
        encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stdout + laid.stderr
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    crowded = sorted({int(f["element"].split()[1]) for f in checked["findings"]
                      if (f.get("element") or "").startswith("edge-label")})
    assert crowded, "the fixture no longer crowds a label: give it one that does"
    said = re.search(r"The labels? of edges? ([\d, ]+) found no free place beside", laid.stdout)
    assert said is not None, laid.stdout
    assert [int(n) for n in said.group(1).split(", ")] == crowded
    assert "slide a label along its edge (label_at)" in laid.stdout
