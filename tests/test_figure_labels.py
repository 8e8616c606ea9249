"""Edge labels and groups: drawn from their edges' routes and their members' boxes, in
every language, said in the text alternative, their mistakes stopping the build with
file and line; and the geometry they promise (hypothesis): a label avoids every node,
group title and other label and stays beside its route (clear of other routes where
there is room); a frame holds its members and no other node; `figure fit`'s moves never
make two boxes overlap."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import (
    check,
    failed_build,
    fixture_site,
    line_of,
    need_browser,
    problems,
    run_build,
    set_text,
    soup,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from articlesite.figures.fitting import grow
from articlesite.figures.routing import route_answer
from articlesite.geometry.frames import frame_of, overlaps
from articlesite.geometry.labels import crosses, place_labels
from articlesite.geometry.route import Ends, route_edges
from articlesite.load.figures import FigureFile, load_figure
from articlesite.load.sourcefiles import digest
from articlesite.problems import Problems

SPEC = "figures/steps.yaml"
TEXTS = {"score": {"en": "Score R_t", "zh": "得分 R_t", "ja": "スコア R_t"},
         "again": {"en": "Next batch", "zh": "下一批", "ja": "次のバッチ"},
         "stage": {"en": "A · Acting", "zh": "A · 行动", "ja": "A · 行動"}}
LABELLED = """title: steps-title
caption: steps-caption
width: 460
height: 260
nodes:
  - id: act
    box: [40, 60, 140, 60]
    text: act
  - id: learn
    box: [280, 160, 140, 60]
    text: learn
edges:
  - {from: act, to: learn, label: score, label_box: [80, 24]}
  - {from: learn.left, to: act.bottom, class: feedback, label: again, label_box: [90, 24]}
groups:
  - {id: acting, title: stage, title_box: [90, 22], nodes: [act]}
"""
SENTENCE = {"en": "from “{}” to “{}”: {}", "zh": "从“{}”到“{}”：{}", "ja": "「{}」から「{}」へ：{}"}


def labelled_site(root: Path, spec: str = LABELLED) -> Path:
    fixture_site("sources", root)
    texts = root / "figures" / "figure-texts.json"
    data = json.loads(texts.read_text(encoding="utf-8"))
    texts.write_text(json.dumps({**data, **TEXTS}, ensure_ascii=False, indent=1),
                     encoding="utf-8")
    (root / SPEC).write_text(spec, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = labelled_site(tmp_path_factory.mktemp("labels") / "project")
    result = run_build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"


def box_of(style: str) -> tuple[float, ...]:
    values = dict(part.split(":") for part in style.split(";") if part)
    return tuple(float(values[k].removesuffix("px")) for k in ("left", "top", "width", "height"))


@pytest.mark.parametrize("code", ["zh", "en", "ja"])
def test_edge_labels_and_groups_are_drawn_with_their_texts(site: Path, code: str):
    figure = soup(site / code / "loop.html").select_one("#figure-steps")
    labels = figure.select(".edge-label")
    assert [label["data-edge"] for label in labels] == ["0", "1"]
    assert labels[0].get_text() == TEXTS["score"][code].replace("R_t", "Rt")
    assert labels[0].select_one("sub").get_text() == "t"       # a figure text's markup
    nodes = {n["data-node"]: box_of(n["style"]) for n in figure.select("[data-node]")}
    boxes = [box_of(label["style"]) for label in labels]
    assert [b[2:] for b in boxes] == [(80, 24), (90, 24)]
    group = figure.select_one('[data-group="acting"]')
    frame = box_of(group["style"])
    title = group.select_one(".group-title")
    assert title.get_text() == TEXTS["stage"][code]
    # The frame holds its member with room for the title above it; the title and the
    # labels lie on no node and on no other label.
    assert frame[0] < nodes["act"][0] and frame[1] + 22 < nodes["act"][1]
    assert frame[0] + frame[2] > nodes["act"][0] + nodes["act"][2]
    title_box = (frame[0] + box_of(title["style"])[0], frame[1] + box_of(title["style"])[1],
                 90, 22)
    for box in [*boxes, title_box]:
        assert not any(overlaps(box, node) for node in nodes.values())
    assert not overlaps(boxes[0], boxes[1]) and not any(overlaps(b, title_box) for b in boxes)


@pytest.mark.parametrize("code", ["zh", "en", "ja"])
def test_the_text_alternative_says_what_flows_along_an_edge(site: Path, code: str):
    figure = soup(site / code / "loop.html").select_one("#figure-steps")
    act = figure.select_one('[data-node="act"] strong').get_text()
    learn = figure.select_one('[data-node="learn"] strong').get_text()
    found = [li.get_text() for li in figure.select(".visually-hidden li")]
    assert found == [SENTENCE[code].format(act, learn, TEXTS["score"][code].replace("R_t", "Rt")),
                     SENTENCE[code].format(learn, act, TEXTS["again"][code])]


def test_mistaken_groups_and_labels_are_listed_at_once_with_their_lines(tmp_path: Path):
    spec = LABELLED.replace("groups:\n", """  - {points: [[40, 20], [90, 20]], label: score}
  - {from: act, to: learn, label: again}
groups:
  - {id: empty, title: stage, title_box: [90, 22], nodes: []}
  - {id: twice, title: stage, title_box: [90, 22], nodes: [act, lern]}
""")
    root = labelled_site(tmp_path / "project", spec)
    listed = failed_build(root)
    at = {needle: line_of(root, SPEC, needle) for needle in
          ("id: empty", "id: twice", "id: acting", "points: [[40", "label: again}")}
    assert (f"{SPEC}:{at['id: empty']}: group 'empty' frames no node: give it its nodes or "
            "remove it [key 'nodes']") in listed
    assert (f"{SPEC}:{at['id: twice']}: group 'twice' names node 'lern', which the spec "
            "lacks (nodes: act, learn) [key 'nodes']") in listed
    assert (f"{SPEC}:{at['id: acting']}: node 'act' is in two groups, 'twice' and "
            "'acting': a node is in one group at most [key 'nodes']") in listed
    assert f"{SPEC}:{at['points: [[40']}: edge 3 has a label but gives its points" in listed
    assert (f"{SPEC}: the label of edge 4 (line {at['label: again}']}) not sized yet (no "
            "'label_box' or 'title_box'): `") in listed and "figure layout steps` sizes" in listed
    assert listed.count(f"\n  {SPEC}") == 5


def test_check_finds_a_frame_round_another_node_and_frames_that_overlap(tmp_path: Path,
                                                                        capsys):
    spec = LABELLED.replace("nodes: [act]}", "nodes: [act]}\n  - {id: both, title: stage, "
                            "title_box: [90, 22], nodes: [learn]}").replace(
        "[280, 160, 140, 60]", "[120, 100, 140, 60]").replace(
        "from: learn.left, to: act.bottom", "from: learn.right, to: act.top")
    root = labelled_site(tmp_path / "project", spec)
    code, report = check(root, capsys)
    found = {(f["line"], f["message"]) for f in problems(report, "geometry")}
    assert code == 1
    framed = ("group 'acting' frames node 'learn', which is not one of its nodes: move it "
              "out, or add it to the group")
    assert (line_of(root, SPEC, "id: acting"), framed) in found
    overlap = "the frames of groups 'acting' and 'both' overlap"
    assert (line_of(root, SPEC, "id: both"), overlap) in found


# The geometry, on random figures -------------------------------------------------------

CELL = (260.0, 200.0)   # a grid cell: room for a node, its frame and the routes between


@st.composite
def figures(draw):
    """Nodes in some cells of a grid, groups of neighbouring cells, random edges with
    random label sizes."""
    columns, rows = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    cells = draw(st.lists(st.tuples(st.integers(0, columns - 1), st.integers(0, rows - 1)),
                          min_size=2, max_size=columns * rows, unique=True))
    nodes = {}
    for i, (c, r) in enumerate(cells):
        w, h = draw(st.integers(80, 150)), draw(st.integers(40, 80))
        nodes[f"n{i}"] = (60 + c * CELL[0], 70 + r * CELL[1], float(w), float(h))
    names = sorted(nodes)
    pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(
        lambda p: p[0] != p[1]), max_size=6, unique=True))
    sizes = [(float(draw(st.integers(20, 120))), float(draw(st.integers(18, 40))))
             if draw(st.booleans()) else None for _ in pairs]
    column = draw(st.integers(0, columns - 1))   # a group: the nodes of one column
    members = [f"n{i}" for i, (c, _) in enumerate(cells) if c == column]
    return nodes, pairs, sizes, members, (60 + columns * CELL[0], 70 + rows * CELL[1])


@settings(max_examples=60, deadline=None)
@given(figures())
def test_labels_and_frames_avoid_every_node_and_other_label(figure):
    nodes, pairs, sizes, members, canvas = figure
    titles = []
    if members:
        frame = frame_of([nodes[m] for m in members], (120.0, 22.0))
        titles.append(frame.title)
        for name, box in nodes.items():   # the frame holds its members and no other node
            inside = overlaps(frame.box, box)
            assert inside == (name in members), (name, frame)
        assert not any(overlaps(frame.title, nodes[m]) for m in members)
    routes = route_edges(nodes, [Ends(a, b) for a, b in pairs], titles,
                         bounds=(0, 0, *canvas))
    kept = [(route.points, size) for route, size in zip(routes, sizes) if route.ok]
    placed = place_labels([points for points, _ in kept], [size for _, size in kept],
                          [*nodes.values(), *titles], bounds=(0, 0, *canvas))
    boxes = [(box, number) for number, box in enumerate(placed) if box is not None]
    assert len(boxes) == sum(size is not None for _, size in kept)
    for box, number in boxes:
        assert not any(overlaps(box, other, 0.0) for other in [*nodes.values(), *titles])
        assert not any(overlaps(box, other, 0.0) for other, n in boxes if n != number)
        # Beside its own route: within reach of one of its segments.
        grown = (box[0] - 60, box[1] - 60, box[0] + box[2] + 60, box[1] + box[3] + 60)
        assert any(crosses(a, b, grown) or _inside(a, grown)
                   for a, b in pairwise(kept[number][0]))


def _inside(point, box) -> bool:
    return box[0] < point[0] < box[2] and box[1] < point[1] < box[3]


def test_a_label_keeps_off_other_routes_where_there_is_room():
    # Two parallel routes 60 px apart: the label of the first goes above it, clear of both.
    routes = [((0.0, 100.0), (300.0, 100.0)), ((0.0, 160.0), (300.0, 160.0))]
    placed = place_labels(routes, [(80.0, 20.0), (80.0, 20.0)], [], bounds=(0, 0, 400, 300))
    assert placed == [(110.0, 76.0, 80.0, 20.0), (110.0, 136.0, 80.0, 20.0)]
    # A third route through the space above the first: its label goes below it instead.
    routes.append(((150.0, 0.0), (150.0, 99.0)))
    placed = place_labels(routes, [(80.0, 20.0), None, None], [], bounds=(0, 0, 400, 300))
    box = placed[0]
    assert box[1] > 100 or box[0] > 150 or box[0] + box[2] < 150
    assert not any(crosses(a, b, (box[0], box[1], box[0] + box[2], box[1] + box[3]))
                   for route in routes[1:] for a, b in pairwise(route))


@st.composite
def apart(draw):
    """Boxes that do not overlap (in the cells of a grid, each smaller than its cell),
    and new, larger sizes for some of them."""
    cells = draw(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=2,
                          max_size=12, unique=True))
    boxes, sizes = {}, {}
    for i, (c, r) in enumerate(cells):
        x, y = c * 100 + draw(st.integers(0, 30)), r * 100 + draw(st.integers(0, 30))
        w, h = draw(st.integers(10, 70 - (x % 100))), draw(st.integers(10, 70 - (y % 100)))
        boxes[i] = (float(x), float(y), float(w), float(h))
        if draw(st.booleans()):
            sizes[i] = (w + float(draw(st.integers(0, 200))), h + float(draw(st.integers(0, 90))))
    return boxes, sizes


@settings(max_examples=200, deadline=None)
@given(apart())
def test_fitting_never_makes_two_boxes_overlap_and_keeps_every_gap(case):
    boxes, sizes = case
    grown = grow(boxes, sizes)
    for i in boxes:
        assert grown[i][2:] == sizes.get(i, boxes[i][2:])
        for j in boxes:
            if i < j:
                assert not overlaps(grown[i], grown[j], 0.0), (boxes[i], boxes[j])
            a, b, na, nb = boxes[i], boxes[j], grown[i], grown[j]
            if a[0] + a[2] <= b[0]:   # b lay right of a: it still does, as far at least
                assert nb[0] - (na[0] + na[2]) >= b[0] - (a[0] + a[2]) - 1e-9
            if a[1] + a[3] <= b[1]:
                assert nb[1] - (na[1] + na[3]) >= b[1] - (a[1] + a[3]) - 1e-9


# figure fit and figure layout --again, as a user runs them ------------------------------

def fit_findings(root: Path) -> list[dict]:
    result = run_build(root, "check", "--format", "json")   # text fit in Chromium
    return [f for f in json.loads(result.stdout)["findings"] if f["check"] == "fit"]


def test_figure_fit_grows_what_a_translation_outgrew_and_moves_what_lies_beyond(
        tmp_path: Path):
    need_browser()
    root = labelled_site(tmp_path / "project")
    set_text(root, "score", "ja", "とても長いスコアのラベル R_t")
    set_text(root, "act", "ja", "アクターネットワークの名前")   # a phrase wider than act
    found = fit_findings(root)
    assert {(f["element"], f["language"], f["line"]) for f in found} == {
        ("edge-label 1", "ja", line_of(root, SPEC, "label: score")),
        ("node act", "ja", line_of(root, SPEC, "id: act"))}
    assert all("figure fit steps` sizes every box to its texts" in f["message"]
               for f in found)
    before = (root / SPEC).read_text(encoding="utf-8").splitlines()
    result = run_build(root, "figure", "fit", "steps")
    assert result.returncode == 0, result.stdout + result.stderr
    after = (root / SPEC).read_text(encoding="utf-8").splitlines()
    changed = {b: a for b, a in zip(before, after, strict=True) if a != b}
    # act grew to the right as far as its first phrase needs (アクターネットワークの),
    # not to its text on one line (13 characters of 18 px and the box's padding: 280 px),
    # and down by the line its last phrase (名前) wraps to; learn, right of it and below
    # it, moved by as much; the canvas grew as much; the label's size; nothing else.
    act, learn = changed["    box: [40, 60, 140, 60]"], changed["    box: [280, 160, 140, 60]"]
    x, y, w, h = (float(v) for v in act.split("[")[1][:-1].split(", "))
    assert (x, y) == (40, 60) and 140 < w < 280 and h > 60
    assert learn == f"    box: [{280 + w - 140:g}, {160 + h - 60:g}, 140, 60]"
    assert changed["width: 460"] == f"width: {460 + w - 140:g}"
    assert changed["height: 260"] == f"height: {260 + h - 60:g}"
    assert [line for line in changed if "label: score" in line]
    assert len(changed) == 5, changed
    assert fit_findings(root) == []
    assert "nothing changed" in run_build(root, "figure", "fit", "steps").stdout


def test_figure_fit_without_a_browser_widens_a_box_only_to_its_longest_phrase(
        tmp_path: Path):
    # Estimated from the font sizes: アクターネットワークの (11 em of 18 px and the box's
    # padding, 224 px) overflows act's 140 px; act grows to hold it with room to breathe,
    # on the 10 px grid, and 名前 wraps to a second line.
    root = labelled_site(tmp_path / "project")
    set_text(root, "act", "ja", "アクターネットワークの名前")
    result = run_build(root, "figure", "fit", "steps", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    spec = (root / SPEC).read_text(encoding="utf-8")
    assert "    box: [40, 60, 250, 90]" in spec, spec


@pytest.mark.parametrize(("language", "longer"), [
    ("ja", "行動するための長い長い名前"),          # phrases of 2 to 4 characters
    ("zh", "执行动作并观察环境返回的新状态")])
@pytest.mark.parametrize("browser", [True, False])
def test_figure_fit_makes_a_box_whose_text_wraps_taller_not_wider(tmp_path: Path, language,
                                                                   longer, browser):
    # Every phrase fits act's 140 px; the text wraps to more lines than its 60 px hold.
    # Fit keeps act's width and makes it as tall as its lines (measured at its width, or
    # estimated so); learn, below it, moves down as much; nothing moves sideways.
    if browser:
        need_browser()
    root = labelled_site(tmp_path / "project")
    set_text(root, "act", language, longer)
    before = (root / SPEC).read_text(encoding="utf-8").splitlines()
    result = run_build(root, "figure", "fit", "steps", *([] if browser else ["--no-browser"]))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "grew node act" in result.stdout
    after = (root / SPEC).read_text(encoding="utf-8").splitlines()
    changed = {b: a for b, a in zip(before, after, strict=True) if a != b}
    act = [float(v) for v in changed["    box: [40, 60, 140, 60]"].split("[")[1][:-1].split(",")]
    learn = changed["    box: [280, 160, 140, 60]"]
    assert act[:3] == [40, 60, 140] and act[3] > 60
    assert learn == f"    box: [280, {160 + act[3] - 60:g}, 140, 60]"
    assert changed["height: 260"] == f"height: {260 + act[3] - 60:g}"
    assert "width: 460" in after
    if browser:
        assert [f for f in fit_findings(root) if f["element"] == "node act"] == []


def test_figure_fit_widens_a_free_label_where_it_is_and_moves_nothing(tmp_path: Path):
    root = labelled_site(tmp_path / "project",
                         LABELLED + "labels:\n  - {text: again, box: [300, 230, 40]}\n")
    before = (root / SPEC).read_text(encoding="utf-8").splitlines()
    result = run_build(root, "figure", "fit", "steps", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "grew label again" in result.stdout
    after = (root / SPEC).read_text(encoding="utf-8").splitlines()
    changed = [(b, a) for b, a in zip(before, after, strict=True) if a != b]
    # (estimated: the edge label and group title grow too; no node moves)
    label = dict(changed)["  - {text: again, box: [300, 230, 40]}"]
    assert all("_box" in b for b, _ in changed if "text: again" not in b), changed
    width = float(label.split(", ")[-1].removesuffix("]}"))
    assert width % 10 == 0 and width >= len("Next batch") * 13 * 0.62   # en, on one line


def test_figure_layout_again_places_every_box_anew(tmp_path: Path):
    spec = LABELLED.replace("[40, 60, 140, 60]", "[300, 60, 100, 60]").replace(
        "[280, 160, 140, 60]", "[40, 160, 100, 60]")
    root = labelled_site(tmp_path / "project", spec)
    result = run_build(root, "figure", "layout", "steps", "--again", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Placed 2 nodes" in result.stdout
    text = (root / SPEC).read_text(encoding="utf-8")
    assert "[300, 60, 100, 60]" not in text and "[40, 160, 100, 60]" not in text
    assert run_build(root).returncode == 0
    figure = soup(root / "site" / "en" / "loop.html").select_one("#figure-steps")
    nodes = {n["data-node"]: box_of(n["style"]) for n in figure.select("[data-node]")}
    assert nodes["act"][0] + nodes["act"][2] < nodes["learn"][0]   # act → learn, rightwards


def test_the_editor_routes_round_group_titles_as_the_build_does(tmp_path: Path):
    spec = tmp_path / "figures" / "stack.yaml"
    spec.parent.mkdir()
    spec.write_text("""title: t
caption: c
width: 300
height: 320
nodes:
  - {id: a, box: [40, 40, 100, 60], text: t}
  - {id: b, box: [40, 200, 100, 60], text: t}
edges:
  - {from: a.bottom, to: b.top}
groups:
  - {id: g, title: t, title_box: [100, 22], nodes: [b]}
""", encoding="utf-8")
    found = Problems(tmp_path)
    figure = load_figure(FigureFile("stack", spec, digest(spec.read_bytes())), found)
    assert not found
    built = [list(point) for point in figure.edges[0].points]
    assert len(built) > 2   # the straight way down runs through the title: it goes round
    request = {"width": 300, "height": 320, "labels": [],
               "nodes": [{"id": "a", "box": [40, 40, 100, 60]},
                         {"id": "b", "box": [40, 200, 100, 60]}],
               "edges": [{"from": "a.bottom", "to": "b.top"}]}
    groups = [{"id": "g", "title": "t", "title_box": [100, 22], "nodes": ["b"]}]
    assert route_answer(request, groups)["edges"][0]["points"] == built
    assert route_answer(request)["edges"][0]["points"] != built
