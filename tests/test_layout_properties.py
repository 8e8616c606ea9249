"""Properties of the layered layout (geometry/layout.py) on random graphs: a graph that can
be drawn without crossings is; no two boxes meet; no group's frame holds another box or
meets another frame (a group too long for one row of a folded drawing included); nothing
is wider than the page; and the count of routed crossings (geometry/crossings.py)."""

from __future__ import annotations

from itertools import combinations, pairwise

from hypothesis import example, given, settings
from hypothesis import strategies as st

from articlesite.geometry.crossings import crossings
from articlesite.geometry.layout import GAP, PAGE_WIDTH, extent_of, layout

EXAMPLES = settings(max_examples=60, deadline=None, derandomize=True)
DIRECTIONS = st.sampled_from(["right", "down", "left", "up"])
MARGINS = (10.0, 30.0, 10.0, 10.0)


@st.composite
def planar_layers(draw):
    """Layers of nodes and, between each two, a staircase of edges that covers both
    layers' nodes and crosses nowhere in the drawn order; the nodes given shuffled."""
    sizes_of = [draw(st.integers(1, 4)) for _ in range(draw(st.integers(2, 6)))]
    layers = [[f"n{i}-{j}" for j in range(size)] for i, size in enumerate(sizes_of)]
    edges = []
    for upper, lower in pairwise(layers):
        i = j = 0
        edges.append((upper[0], lower[0]))
        while i < len(upper) - 1 or j < len(lower) - 1:
            step = draw(st.sampled_from(["i", "j", "both"]))
            if step in ("i", "both") and i < len(upper) - 1:
                i += 1
            if step in ("j", "both") and j < len(lower) - 1:
                j += 1
            if edges[-1] != (upper[i], lower[j]):
                edges.append((upper[i], lower[j]))
    nodes = draw(st.permutations([n for layer in layers for n in layer]))
    edges = draw(st.permutations(edges))
    sizes = {n: (draw(st.integers(60, 240)), draw(st.integers(40, 100))) for n in nodes}
    return list(nodes), sizes, list(edges)


@st.composite
def graphs(draw):
    """Any graph of 2 to 20 nodes (cycles too), some nodes in groups."""
    count = draw(st.integers(2, 20))
    nodes = [f"n{i}" for i in range(count)]
    pairs = st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)).filter(
        lambda p: p[0] != p[1])
    edges = draw(st.lists(pairs, max_size=2 * count, unique=True))
    sizes = {n: (draw(st.integers(60, 260)), draw(st.integers(40, 110))) for n in nodes}
    grouped = draw(st.lists(st.integers(-1, 2), min_size=count, max_size=count))
    groups = {f"g{g}": ([n for n, k in zip(nodes, grouped, strict=True) if k == g], MARGINS)
              for g in set(grouped) - {-1}}
    return nodes, sizes, edges, groups


def centre_crossings(boxes: dict, edges: list) -> int:
    """Crossings of the edges drawn straight between box centres, layer to layer: two
    edges between the same two layers cross where their ends' order flips."""
    centre = {n: (x + w / 2, y + h / 2) for n, (x, y, w, h) in boxes.items()}
    count = 0
    for (a, b), (c, d) in combinations(edges, 2):
        for axis in (0, 1):
            along = 1 - axis
            if centre[a][along] == centre[c][along] and centre[b][along] == centre[d][along]:
                count += (centre[a][axis] - centre[c][axis]) * \
                    (centre[b][axis] - centre[d][axis]) < 0
    return count


@EXAMPLES
@given(planar_layers(), DIRECTIONS)
def test_a_graph_drawable_without_crossings_is_drawn_without(graph, direction):
    nodes, sizes, edges = graph
    boxes = layout(nodes, sizes, edges, direction, max_width=100_000)
    assert centre_crossings(boxes, edges) == 0


def frame(boxes: dict, members: list[str]) -> tuple[float, float, float, float]:
    left, top, right, bottom = MARGINS
    return (min(boxes[m][0] for m in members) - left,
            min(boxes[m][1] for m in members) - top,
            max(boxes[m][0] + boxes[m][2] for m in members) + right,
            max(boxes[m][1] + boxes[m][3] for m in members) + bottom)


def closed(members: list[str], edges: list) -> bool:
    """Whether no path leads from a member through other nodes back to a member."""
    inside = set(members)
    reached = {b for a, b in edges if a in inside and b not in inside}
    while True:
        more = {b for a, b in edges if a in reached and b not in inside} - reached
        if not more:
            return not any(a in reached and b in inside for a, b in edges)
        reached |= more


def meets(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# Found by hypothesis: g2's n1 lies on a path between g0's members (n0 -> n1 -> n2), so
# the stages could not follow one another; each was pushed after the other until the
# layout gave up, with g2's members in two rows and its frame round one of g0's boxes.
STAGES_INTERLEAVED = (
    [f"n{i}" for i in range(13)],
    {"n0": (251, 40), "n1": (201, 40), "n2": (60, 40), "n3": (151, 40), "n4": (60, 40),
     "n5": (121, 40), "n6": (251, 40), "n7": (191, 40), **{f"n{i}": (60, 40) for i in
                                                           (8, 9, 10, 11, 12)}},
    [("n0", "n1"), ("n0", "n2"), ("n0", "n5"), ("n1", "n2"), ("n2", "n3"), ("n4", "n0")],
    {"g0": (["n0", "n2", "n3", "n4", "n5", "n6", "n8", "n9", "n10", "n11", "n12"], MARGINS),
     "g2": (["n1", "n7"], MARGINS)})


# Found by hypothesis (6.170): down the page, 17 boxes of three groups in one layer, too
# wide for the page, some sent on to later layers. g1 then passed through a layer that
# held only g0's boxes, and its frame was put after them there, where in the first layer
# it came before g0's: g0's frame covered three of g1's boxes.
GROUPS_SENT_ON = (
    [f"n{i}" for i in range(18)],
    {**{f"n{i}": (60, 40) for i in range(18)}, "n0": (60, 41), "n7": (61, 40),
     "n9": (61, 40), "n10": (110, 40), "n11": (139, 40), "n12": (71, 40), "n13": (80, 40),
     "n15": (111, 40), "n16": (61, 40), "n17": (192, 85)},
    [("n5", "n6")],
    {"g0": (["n2", "n5", "n6", "n8", "n9", "n10", "n13", "n15", "n16"], MARGINS),
     "g1": (["n1", "n7", "n11", "n12", "n14", "n17"], MARGINS),
     "g2": (["n0", "n3", "n4"], MARGINS)})


# Found by hypothesis (random runs): rightwards, g1 moved after g0 left a layer with no
# box between its two members; a row was cut there (it seemed to cut no group), and g1's
# frame, over both rows, held a box of g0.
CUT_INSIDE_A_GROUP = (
    [f"n{i}" for i in range(17)],
    {**{f"n{i}": (60, 40) for i in range(17)}, "n0": (251, 40), "n1": (191, 40),
     "n2": (231, 40), "n8": (151, 40), "n10": (81, 40)},
    [("n0", "n1"), ("n0", "n7"), ("n1", "n8"), ("n2", "n0"), ("n8", "n10")],
    {"g0": ([f"n{i}" for i in range(17) if i not in (7, 10)], MARGINS),
     "g1": (["n7", "n10"], MARGINS)})


@EXAMPLES
@given(graphs(), DIRECTIONS)
@example(STAGES_INTERLEAVED, "right")
@example(GROUPS_SENT_ON, "down")
@example(CUT_INSIDE_A_GROUP, "right")
def test_boxes_and_frames_stay_apart_and_within_the_page(graph, direction):
    nodes, sizes, edges, groups = graph
    boxes = layout(nodes, sizes, edges, direction, groups=groups)
    assert sorted(boxes) == sorted(nodes)
    for node, (x, y, w, h) in boxes.items():
        assert w >= sizes[node][0] and h >= sizes[node][1]
    for (x1, y1, w1, h1), (x2, y2, w2, h2) in combinations(boxes.values(), 2):
        assert max(x2 - (x1 + w1), x1 - (x2 + w2), y2 - (y1 + h1), y1 - (y2 + h2)) >= GAP / 2
    # A group too long for one row spans rows of its own: its frame too holds no other
    # box, unless a path from one of its members to another leaves it (then a node on that
    # path lies between them along the direction: a group in one row is held to it still).
    frames = {g: frame(boxes, members) for g, (members, _) in groups.items() if members and (
        len({boxes.row[m] for m in members}) == 1 or closed(members, edges))}
    for g, box in frames.items():
        for node, (x, y, w, h) in boxes.items():
            if node not in groups[g][0]:
                assert not meets(box, (x, y, x + w, y + h)), (g, node)
    for a, b in combinations(frames.values(), 2):
        assert not meets(a, b)
    assert all(x >= 0 and y >= 0 for x, y, _, _ in boxes.values())   # inside the canvas
    # Down or up the page, a frame spanning layers pushes what lies beside it in one of
    # them aside: such a drawing may grow past the page (`figure layout` says so), never
    # out of its canvas on the left (it once started boxes at x < 0 to seem narrower).
    if not groups or direction in ("right", "left"):
        assert extent_of(list(boxes.values()))[0] <= PAGE_WIDTH


def test_crossings_are_counted_where_segments_cross_inside_both():
    plus = [((0, 5), (10, 5)), ((5, 0), (5, 10))]
    assert crossings(plus) == [(0, 1, (5, 5))]
    touching = [((0, 5), (10, 5)), ((10, 0), (10, 10)), ((0, 5), (0, 9))]
    assert crossings(touching) == []   # an end on a route, a shared end: no crossing
    assert crossings([((0, 5), (10, 5)), ((5, 0), (5, 5), (8, 5))]) == []   # a T, a bend
    along = [((0, 5), (10, 5)), ((2, 5), (8, 5))]
    assert crossings(along) == []
    twice = [((0, 5), (20, 5)), ((5, 0), (5, 10), (15, 10), (15, 0))]
    assert [point for *_, point in crossings(twice)] == [(5, 5), (15, 5)]


def test_an_edge_label_widens_the_gap_it_sits_in():
    sizes = dict.fromkeys("abc", (100, 60))
    edges = [("a", "b"), ("b", "c")]
    plain = layout(list("abc"), sizes, edges, "right")
    labelled = layout(list("abc"), sizes, edges, "right", labels={1: (230, 24)})
    gap = labelled["c"][0] - (labelled["b"][0] + labelled["b"][2])
    assert gap >= 230 + 2 * 20
    assert plain["b"][0] == labelled["b"][0]   # the other gap stays
    down = layout(list("abc"), sizes, edges, "down", labels={0: (230, 70)})
    assert down["b"][1] - (down["a"][1] + down["a"][3]) >= 70 + 2 * 20   # its height


def test_a_group_s_members_stay_together_in_their_layer():
    sizes = dict.fromkeys("sabcd", (100, 60))
    edges = [("s", n) for n in "abcd"]
    boxes = layout(list("sabcd"), sizes, edges, "right",
                   groups={"g": (["a", "c"], MARGINS)})
    across = sorted("abcd", key=lambda n: boxes[n][1])
    assert abs(across.index("a") - across.index("c")) == 1


@st.composite
def stages(draw):
    """Stages one after another, each a group whose chain of boxes may be longer than a
    row, with loose nodes fed by any node or feeding a stage's first node."""
    nodes, edges, groups, sizes, firsts = [], [], {}, {}, []
    for s in range(draw(st.integers(1, 4))):
        chain = [f"s{s}-{k}" for k in range(draw(st.integers(1, 8)))]
        edges += list(pairwise(chain))
        if nodes:
            edges.append((draw(st.sampled_from(nodes)), chain[0]))
        groups[f"g{s}"] = (chain, MARGINS)
        nodes += chain
        firsts.append(chain[0])
    for k in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            edges.append((f"loose{k}", draw(st.sampled_from(firsts))))
        else:
            edges.append((draw(st.sampled_from(nodes)), f"loose{k}"))
        nodes.append(f"loose{k}")
    for n in nodes:
        sizes[n] = (draw(st.integers(100, 260)), draw(st.integers(40, 90)))
    return nodes, sizes, edges, groups


@EXAMPLES
@given(stages(), st.sampled_from(["right", "left"]))
def test_a_stage_longer_than_a_row_takes_rows_of_its_own(graph, direction):
    nodes, sizes, edges, groups = graph
    boxes = layout(nodes, sizes, edges, direction, groups=groups)
    for g, (members, _) in groups.items():
        box = frame(boxes, members)
        for node, (x, y, w, h) in boxes.items():
            if node not in members:
                assert not meets(box, (x, y, x + w, y + h)), (g, node)
    assert extent_of(list(boxes.values()))[0] <= PAGE_WIDTH


def test_two_feedback_edges_that_would_cross_take_opposite_outsides():
    # d1 -> a and d2 -> b both round the right would cross (d1 left of d2 under c, or
    # c -> d1 crossing d2's edge); one round the left crosses nothing.
    nodes = ["a", "b", "c", "d1", "d2"]
    edges = [("a", "b"), ("b", "c"), ("c", "d1"), ("c", "d2"), ("d1", "a"), ("d2", "b")]
    boxes = layout(nodes, {n: (120, 50) for n in nodes}, edges, "down",
                   {("d1", "a"), ("d2", "b")})
    assert {boxes.outer[4], boxes.outer[5]} == {("left", "left"), ("right", "right")}
