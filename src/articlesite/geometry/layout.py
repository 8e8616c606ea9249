"""A first draft of a figure: boxes placed in layers that follow the edges (pure geometry).

The classic layered method (Sugiyama et al. 1981, as in Graphviz dot, dagre and ELK's
layered algorithm), in four steps:

1. cycles: the edges marked feedback, and those that still close a cycle (found by a
   depth-first search from the nodes no edge enters, in the nodes' order), are reversed
   for the layering only, so that a loop's feedback edge runs back;
2. layers: each node one layer after its furthest predecessor (longest path); an edge
   that spans several layers gets a thin placeholder in each layer between, which keeps
   a corridor free for its route;
3. order within each layer: barycenter sweeps, down and up, keeping the order with the
   fewest crossings found;
4. coordinates: layers one after another along the direction (right, down, left or up),
   `LAYER_GAP` apart; in a layer the boxes in their order, `GAP` apart, each layer
   shifted across to line its boxes up with those they join in the layer before; every
   coordinate on a GRID px grid, every size on twice that (so that a box centred on
   another stays on the grid and their edge straight).

`layout(...)` places the nodes it is given sizes for; it knows nothing of texts (the
caller measures them) nor of routes (geometry/route.py draws the edges afterwards).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

GRID = 5.0
GAP = 40.0          # px between two boxes of a layer
LAYER_GAP = 80.0    # px between two layers: room for the edges' bends and arrows
MARGIN = 30.0       # px around the drawing
PLACEHOLDER = 10.0  # px across: the corridor kept for an edge that passes a layer
SWEEPS = 12
DIRECTIONS = ("right", "down", "left", "up")

Box = tuple[float, float, float, float]   # x, y, width, height


def snap(value: float, grid: float = GRID) -> float:
    """`value` rounded up to the grid."""
    return math.ceil(value / grid - 1e-9) * grid


@dataclass
class Layered:
    """The nodes in layers, in order, with the placeholders of long edges (None ids)."""

    layers: list[list[str | tuple]] = field(default_factory=list)
    edges: list[tuple[str | tuple, str | tuple]] = field(default_factory=list)
    back: list[tuple[str, str]] = field(default_factory=list)   # reversed to layer


def back_edges(nodes: list[str], edges: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Edges that close a cycle, found by a depth-first search from the nodes no edge
    enters, then from the others, each in the nodes' order."""
    following: dict[str, list[str]] = {node: [] for node in nodes}
    entered = {b for _, b in edges}
    for a, b in edges:
        following[a].append(b)
    state: dict[str, int] = {}   # 1: on the search's path, 2: done
    back: set[tuple[str, str]] = set()
    for start in [n for n in nodes if n not in entered] + nodes:
        if start in state:
            continue
        stack = [(start, iter(following[start]))]
        state[start] = 1
        while stack:
            node, rest = stack[-1]
            nxt = next(rest, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                back.add((node, nxt))
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(following[nxt])))
    return back


def assign_layers(nodes: list[str], edges: list[tuple[str, str]]) -> dict[str, int]:
    """Longest path from the sources, on an acyclic graph."""
    before: dict[str, list[str]] = {node: [] for node in nodes}
    for a, b in edges:
        before[b].append(a)
    layer: dict[str, int] = {}

    def depth(node: str) -> int:
        stack = [node]
        while stack:
            top = stack[-1]
            waiting = [p for p in before[top] if p not in layer]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            layer[top] = max((layer[p] + 1 for p in before[top]), default=0)
        return layer[node]

    for node in nodes:
        if node not in layer:
            depth(node)
    return layer


def layered(nodes: list[str], edges: list[tuple[str, str]],
            feedback: set[tuple[str, str]] = frozenset()) -> Layered:
    """Steps 1 and 2: layers, with a placeholder per edge and layer it passes. The
    `feedback` edges (the author's word: `class: feedback`) run back, as do the edges
    that close a cycle once those are turned round."""
    turned = [(b, a) if (a, b) in feedback else (a, b) for a, b in edges if a != b]
    back = back_edges(nodes, turned)
    forward = [(b, a) if (a, b) in back else (a, b) for a, b in turned]
    layer = assign_layers(nodes, forward)
    result = Layered([[] for _ in range(max(layer.values(), default=-1) + 1)],
                     back=sorted(back))
    for node in nodes:
        result.layers[layer[node]].append(node)
    for number, (a, b) in enumerate(forward):
        previous: str | tuple = a
        for passed in range(layer[a] + 1, layer[b]):
            placeholder = ("edge", number, passed)
            result.layers[passed].append(placeholder)
            result.edges.append((previous, placeholder))
            previous = placeholder
        result.edges.append((previous, b))
    return result


def crossings(layers: list[list], edges: list[tuple]) -> int:
    """How many pairs of edges cross between neighbouring layers."""
    position = {node: (i, j) for i, layer in enumerate(layers) for j, node in enumerate(layer)}
    between: dict[int, list[tuple[int, int]]] = {}
    for a, b in edges:
        (la, pa), (lb, pb) = position[a], position[b]
        if la > lb:
            (la, pa), (lb, pb) = (lb, pb), (la, pa)
        between.setdefault(la, []).append((pa, pb))
    return sum(1 for pairs in between.values()
               for i, (a1, b1) in enumerate(pairs) for a2, b2 in pairs[i + 1:]
               if (a1 - a2) * (b1 - b2) < 0)


def order_layers(result: Layered) -> list[list]:
    """Step 3: barycenter sweeps; the order with the fewest crossings."""
    layers = [list(layer) for layer in result.layers]
    neighbours: dict = {}
    for a, b in result.edges:
        neighbours.setdefault(b, {"up": [], "down": []})["up"].append(a)
        neighbours.setdefault(a, {"up": [], "down": []})["down"].append(b)
    best, fewest = [list(layer) for layer in layers], crossings(layers, result.edges)
    for sweep in range(SWEEPS):
        downwards = sweep % 2 == 0
        indexes = range(1, len(layers)) if downwards else range(len(layers) - 2, -1, -1)
        for i in indexes:
            fixed = layers[i - 1] if downwards else layers[i + 1]
            layers[i] = _by_barycenter(layers[i], fixed, neighbours, "up" if downwards
                                       else "down")
        count = crossings(layers, result.edges)
        if count < fewest:
            best, fewest = [list(layer) for layer in layers], count
    return best


def _by_barycenter(layer: list, fixed: list, neighbours: dict, side: str) -> list:
    """The layer's nodes sorted by the mean place of their neighbours in `fixed`; a node
    with none keeps its place."""
    place = {node: j for j, node in enumerate(fixed)}

    def barycenter(item: tuple[int, object]) -> tuple[float, int]:
        j, node = item
        linked = [place[n] for n in neighbours.get(node, {}).get(side, ()) if n in place]
        return (sum(linked) / len(linked) if linked else j), j

    return [node for _, node in sorted(enumerate(layer), key=barycenter)]


def coordinates(layers: list[list], sizes: dict[str, tuple[float, float]],
                direction: str, edges: list[tuple] = ()) -> dict[str, Box]:
    """Step 4: boxes on the grid, layers along `direction`, each layer's boxes GAP apart
    and the layer shifted across to line its boxes up with those they join."""
    along_x = direction in ("right", "left")

    def extent(node) -> tuple[float, float]:   # (along the layers, across them)
        if isinstance(node, tuple):
            return 0.0, PLACEHOLDER
        w, h = (snap(v, 2 * GRID) for v in sizes[node])   # centred, still on the grid
        return (w, h) if along_x else (h, w)

    across = _across(layers, lambda node: extent(node)[1], edges)
    thickness = [max((extent(n)[0] for n in layer), default=0.0) for layer in layers]
    if direction in ("left", "up"):
        layers, thickness = layers[::-1], thickness[::-1]
    boxes: dict[str, Box] = {}
    start = MARGIN
    for layer, thick in zip(layers, thickness, strict=True):
        for node in layer:
            size_along, size_across = extent(node)
            if not isinstance(node, tuple):
                at = start + snap((thick - size_along) / 2)
                w, h = (size_along, size_across) if along_x else (size_across, size_along)
                boxes[node] = (at, across[node], w, h) if along_x else (across[node], at, w, h)
        start += thick + LAYER_GAP
    return boxes


def _across(layers: list[list], size, edges: list[tuple]) -> dict:
    """Where each node starts across the layers. A layer's nodes follow one another GAP
    apart; the first layer starts at 0, each next one is shifted by the mean of how far
    its boxes' centres lie from those they join in the layer before (boxes only, if
    any join boxes): a chain runs straight, children sit centred under their parent.
    Then all start at MARGIN or later."""
    offset: dict = {}
    for layer in layers:
        position = 0.0
        for node in layer:
            offset[node] = position
            position += size(node) + GAP
    layer_of = {node: i for i, layer in enumerate(layers) for node in layer}
    start = [0.0] * len(layers)

    def centre(node) -> float:
        return start[layer_of[node]] + offset[node] + size(node) / 2

    for i in range(1, len(layers)):
        pairs = [(a, b) if layer_of[a] == i - 1 else (b, a) for a, b in edges
                 if {layer_of[a], layer_of[b]} == {i - 1, i}]
        boxes_only = [(a, b) for a, b in pairs if not isinstance(a, tuple)
                      and not isinstance(b, tuple)]
        gaps = [centre(a) - centre(b) for a, b in boxes_only or pairs]
        if gaps:
            start[i] = round(sum(gaps) / len(gaps) / GRID) * GRID
    least = min(start, default=0.0)
    return {node: MARGIN + start[layer_of[node]] - least + offset[node] for node in offset}


def layout(nodes: list[str], sizes: dict[str, tuple[float, float]],
           edges: list[tuple[str, str]], direction: str = "right",
           feedback: set[tuple[str, str]] = frozenset(),
           groups: Mapping[str, tuple[Sequence[str], tuple[float, float, float, float]]] = {},
           labels: Mapping[int, tuple[float, float]] = {},
           max_width: float = 1240) -> dict[str, Box]:
    """A box for each node (x, y, width, height), by the layered method. `edges` name
    their ends' ids (an edge to a node not in `nodes` is left out); those in `feedback`
    run back against the direction. `groups`, `labels` and `max_width` are taken and
    not yet used (a stand-in for the layout that keeps groups together, leaves room for
    edge labels and folds to the page's width)."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}")
    known = set(nodes)
    edges = [(a, b) for a, b in edges if a in known and b in known]
    result = layered(nodes, edges, feedback)
    return coordinates(order_layers(result), sizes, direction, result.edges)


def extent_of(boxes: list[Box]) -> tuple[float, float]:
    """The canvas that holds these boxes with MARGIN to spare, on the grid."""
    right = max((x + w for x, _, w, _ in boxes), default=0.0)
    bottom = max((y + h for _, y, _, h in boxes), default=0.0)
    return snap(right + MARGIN), snap(bottom + MARGIN)


def beside(boxes: dict[str, Box], placed: list[Box], direction: str) -> dict[str, Box]:
    """The drafts' boxes moved clear of the boxes already placed: below them when the
    layers run sideways, to their right when they run up or down."""
    if not placed or not boxes:
        return boxes
    right, bottom = extent_of(placed)
    if direction in ("right", "left"):
        return {n: (x, y + bottom - MARGIN, w, h) for n, (x, y, w, h) in boxes.items()}
    return {n: (x + right - MARGIN, y, w, h) for n, (x, y, w, h) in boxes.items()}
