"""A first draft of a figure: boxes placed in layers that follow the edges (pure geometry).

The classic layered method (Sugiyama et al. 1981, as in Graphviz dot, dagre and ELK's
layered algorithm):

1. cycles and 2. layers (geometry/layers.py): feedback edges turned round, each node one
   layer after its furthest predecessor, a placeholder in each layer a long edge passes;
3. order within each layer (geometry/order.py): weighted medians and transpositions
   from several starts, the order with the fewest crossings kept; a group's members
   together, feedback edges round the outside;
4. sizes: the boxes of one layer share their size along the direction (a column's
   width, a row's height) and those of a chain their size across, where that grows a box
   by at most SHARE times (never below what its text needs);
5. coordinates: layers one after another along the direction (right, down, left or up),
   LAYER_GAP apart or more where an edge label or a group's frame needs room; across,
   each box lined up with the boxes it joins (geometry/across.py), every coordinate on a
   GRID px grid, every size on twice that (a box centred on another stays on the grid);
6. the page: a drawing along `right` or `left` wider than `max_width` folds into rows,
   each along the direction, stacked with ROW_GAP between for the edges from one to the
   next (of the few cut sets allowed, the one whose first routes cross fewest); along
   `down` or `up` a layer too wide for it gives nodes to the next layer. A drawing
   leftwards (upwards) is the one rightwards (downwards) mirrored: a fold's first row
   at the top, each row read from the right.

`layout(...)` places the nodes it is given sizes for; it knows nothing of texts (the
caller measures them); geometry/route.py draws the edges afterwards (layout routes them
only to choose a fold). A layout asked for a `lean` of the graph laid out just before
(`figure layout` lays a fold out again leaning the other way) takes steps 1 to 4 from
that one, as they do not depend on the lean.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise

from . import PAGE_WIDTH
from .across import GAP, NARROW, Across
from .crossings import count
from .layers import Item, Layered, layered
from .order import FIRST, LAST, Orderer, _units, order_layers, parts
from .ports import choose_sides
from .route import Ends, route_edges

__all__ = ["DIRECTIONS", "GAP", "GRID", "LAYER_GAP", "MARGIN", "Box", "Boxes", "beside",
           "extent_of", "layout", "sides_along", "sides_between_rows", "snap"]

GRID = 5.0
LAYER_GAP = 60.0    # px between two layers: room for the edges' bends and arrows
ROW_GAP = 80.0      # px between two rows of a folded drawing, at least
MARGIN = 30.0       # px around the drawing
PLACEHOLDER = 10.0  # px across: the corridor kept for an edge that passes a layer
LABEL_ROOM = 20.0   # px kept on each side of an edge label, along
LABEL_PAD = 5.0     # px kept on each side of an edge label between two frames
JOG_ROOM = 18.0     # px more between two frames for each other labelled edge that bends there:
#                     a label between two of their bends, or a bend and a frame, reads as its own
GROUP_ROOM = 20.0   # px between a group's frame and the next layer's boxes or frames
SHARE = 1.6         # a box grows to its neighbours' size only up to this many times its own
DIRECTIONS = ("right", "down", "left", "up")
TRIAL_SHUFFLES = 4     # shuffled starts when a feedback edge is tried on the other outside
TRIAL_NODES = 16       # feedback edges are tried on the other outside in graphs this small
# (at 14, the overview of examples/training-overview, 15 nodes, got 3 crossings, not 0)
FEEDBACK_CHOICES = 2   # feedback edges whose outside (first or last) is chosen
FOLD_TRIES = 3         # other cut sets of a folded drawing routed to choose among
TIES = 8               # _cut_sets: how many times `most` cut sets kept, ties included
OUTSIDE = 3            # a route round the outside weighs as 3 crossings in choosing a fold
REPLANS = 8            # a drawing down or up the page wider than it is planned again so often,
REPLANNED = 60         # if it has at most this many nodes (within the time a layout may take)
SHORTEST = 2           # no row of a fold but the last shorter than the page over this (as rows_of)

# The last layout's graph (what `layout` was given), its plan and the plan's order before
# a fold: a layout of the same graph asked for a lean (`figure layout`'s second look, the
# other lean) goes on from there; steps 1 to 4 take half of a layout's time.
_PLANNED: list = []

Box = tuple[float, float, float, float]   # x, y, width, height
Groups = Mapping[str, tuple[Sequence[str], tuple[float, float, float, float]]]


def snap(value: float, grid: float = GRID) -> float:
    """`value` rounded up to the grid."""
    return math.ceil(value / grid - 1e-9) * grid


class Plan:
    """A layered, ordered graph and what its coordinates need: each node's size along
    and across the direction, groups' margins, the gaps labels ask for."""

    def __init__(self, nodes: list[str], sizes: Mapping[str, tuple[float, float]],
                 edges: list[tuple[str, str]], direction: str, feedback, groups: Groups,
                 labels: Mapping[int, tuple[float, float]], least: Mapping[str, int],
                 outer: Mapping[int, int] = {}):
        self.direction, self.along_x = direction, direction in ("right", "left")
        self.result: Layered = layered(nodes, edges, feedback, least)
        self.group_of: dict[Item, str] = {m: g for g, (members, _) in sorted(groups.items())
                                          for m in members if m in sizes}
        for a, b, number in self.result.edges:   # a group's own long edges stay inside it
            ends = edges[number]
            if self.group_of.get(ends[0]) is not None and \
                    self.group_of.get(ends[0]) == self.group_of.get(ends[1]):
                for item in (a, b):
                    if isinstance(item, tuple):
                        self.group_of[item] = self.group_of[ends[0]]
        self.pinned = {item: outer.get(number, LAST) for a, b, number in self.result.edges
                       for item in (a, b) if isinstance(item, tuple)
                       and number in self.result.reversed and item not in self.group_of}
        self.order = [list(layer) for layer in self.result.layers]
        self.extent = {n: self._extent(sizes[n]) for n in nodes}
        self.margins = {g: self._margins(m) for g, (_, m) in groups.items()}
        self.labels = {n: (w if self.along_x else h) for n, (w, h) in labels.items()}
        self.thick = {n: (h if self.along_x else w) for n, (w, h) in labels.items()}  # across
        self.across_margins = {g: m["across"] for g, m in self.margins.items()}
        self.lean = 1   # how a fold's layers lean toward its rows (_fold)
        self.least = least   # the layer each node asked for lies in at least

    def arrange(self, shuffles: int | None = None) -> Plan:
        """Step 3 and 4: the order within each layer, then the sizes shared."""
        self.order = order_layers(self.result, self.group_of, self.pinned, shuffles)
        self._share_sizes()
        return self

    def _extent(self, size: tuple[float, float]) -> tuple[float, float]:
        """(along, across) the direction, each on twice the grid."""
        w, h = (snap(v, 2 * GRID) for v in size)
        return (w, h) if self.along_x else (h, w)

    def _margins(self, margins: tuple[float, float, float, float]) -> dict[str, float]:
        left, top, right, bottom = (snap(v) for v in margins)
        if self.along_x:
            return {"before": left, "after": right, "across": (top, bottom)}
        return {"before": top, "after": bottom, "across": (left, right)}

    def size(self, item) -> float:
        """An item's size across."""
        return PLACEHOLDER if isinstance(item, tuple) else self.extent[item][1]

    def _share_sizes(self) -> None:
        """Step 4: one size along in a layer, one size across along a chain, where no
        box grows more than SHARE times."""
        for layer in self.order:
            real = [n for n in layer if not isinstance(n, tuple)]
            most = max((self.extent[n][0] for n in real), default=0.0)
            for n in real:
                if most <= SHARE * self.extent[n][0]:
                    self.extent[n] = (most, self.extent[n][1])
        chain: dict[str, str] = {}

        def root(n: str) -> str:
            while chain.get(n, n) != n:
                n = chain[n]
            return n
        for a, b in self._links():
            chain[root(b)] = root(a)
        members: dict[str, list[str]] = {}
        for n in self.extent:
            members.setdefault(root(n), []).append(n)
        for same in members.values():
            most = max(self.extent[n][1] for n in same)
            for n in same:
                if most <= SHARE * self.extent[n][1]:
                    self.extent[n] = (self.extent[n][0], most)

    def _links(self) -> list[tuple[str, str]]:
        """Edges between two boxes in neighbouring layers, each the other's only
        neighbour on that side: the links of a chain."""
        down: dict[Item, list[Item]] = {}
        up: dict[Item, list[Item]] = {}
        for a, b, _ in self.result.edges:
            down.setdefault(a, []).append(b)
            up.setdefault(b, []).append(a)
        return [(a, b) for a, b, _ in self.result.edges
                if not isinstance(a, tuple) and not isinstance(b, tuple)
                and len(set(down[a])) == 1 and len(set(up[b])) == 1]

    def gaps(self, screen: list[int]) -> list[float]:
        """The gap after each layer (in screen order, `screen` the layers' numbers):
        LAYER_GAP, or more for a label on an edge out of it or a frame that ends or
        starts there (and room for the label between the frames' borders, JOG_ROOM more
        for each other labelled edge out of it: their routes bend there, each at its own
        height, and a label finds room beside its own only between them): down or up
        the page twice the label's height, as its route may bend halfway; across it
        its width once, as twice makes rows too long for the page (a label left with no
        free place gets room from `figure layout` after: figures/label_room.py)."""
        where = {layer: k for k, layer in enumerate(screen)}
        gaps = [LAYER_GAP] * len(screen)
        label_room = [0.0] * len(screen)
        labelled = [0] * len(screen)
        for number, room in self.labels.items():
            if number in self.result.span:
                first, last = self.result.span[number]
                k = min(where[first], where[last])
                gaps[k] = max(gaps[k], room + 2 * LABEL_ROOM)
                label_room[k] = max(label_room[k], (1 if self.along_x else 2)
                                    * (room + LABEL_PAD))
                labelled[k] += 1
        for k, many in enumerate(labelled):   # the others' bends, between the frames
            label_room[k] += JOG_ROOM * max(0, many - 1)
        first_of: dict[str, int] = {}
        last_of: dict[str, int] = {}
        for layer in screen:
            for item in self.order[layer]:
                if item in self.group_of and not isinstance(item, tuple):
                    g = self.group_of[item]
                    first_of.setdefault(g, where[layer])
                    last_of[g] = where[layer]
        after = [0.0] * len(screen)
        before = [0.0] * len(screen)
        for g, first in first_of.items():
            after[last_of[g]] = max(after[last_of[g]], self.margins[g]["after"])
            before[first] = max(before[first], self.margins[g]["before"])
        for k in range(len(screen) - 1):
            if after[k] or before[k + 1]:   # a label between frames, off their borders
                gaps[k] = max(gaps[k], after[k] + before[k + 1]
                              + max(GROUP_ROOM, label_room[k]))
        return gaps

    def across(self, layers: list[int], limit: float | None = None) -> dict:
        """Where each element of these layers starts across (geometry/across.py). A long
        edge with one end in these layers (a folded drawing's row) and the other in
        another row runs between the rows, not along this one: its placeholders here are
        left out (they would push the row's boxes off their line)."""
        def kept(item) -> bool:
            if not isinstance(item, tuple):
                return True
            ends = [first <= end <= last for end in self.result.span[item[1]]]
            return ends[0] == ends[1]
        first, last = min(layers), max(layers)
        order = [[item for item in self.order[i] if kept(item)] for i in layers]
        inside = {item for layer in order for item in layer}
        edges = [e for e in self.result.edges if e[0] in inside and e[1] in inside]
        return Across(order, self.size, self.group_of,
                      self.across_margins, edges, limit).place()


def thickness(plan: Plan, layer: int) -> float:
    return max((plan.extent[n][0] for n in plan.order[layer] if not isinstance(n, tuple)),
               default=0.0)


def rows_of(plan: Plan, screen: list[int], gaps: list[float], width: float) -> list[list[int]]:
    """The layers (in screen order) cut into rows no longer than `width` along: each row
    ends, among the places that leave it at least half that long, where the fewest
    edges pass to the next row and no group's frame is cut (the latest such place; a
    shorter row rather than a group cut); a group too long for one row starts a row and
    ends one (rows of its own)."""
    member = _members(plan, screen)
    passing = _passing(plan, screen)
    rows, start = [], 0
    bounds = _long_groups(plan, screen, gaps, width)
    while start < len(screen):
        end = start + 1
        while end < len(screen) and end not in bounds and _length(
                plan, screen[start:end + 1], screen, gaps) <= width:
            end += 1
        if end in bounds:
            rows.append(screen[start:end])
            start = end
            continue
        if end == len(screen):
            rows.append(screen[start:])
            break
        cuts = [c for c in range(start + 1, end + 1)
                if _length(plan, screen[start:c], screen, gaps) >= width / 2] or [end]
        whole = [c for c in range(start + 1, end + 1) if not member[c - 1] & member[c]]
        if whole and not any(c in whole for c in cuts):   # a shorter row, no group cut
            cuts = whole
        cut = min(cuts, key=lambda c: (passing[c - 1] + 1000 * len(member[c - 1] & member[c])
                                       if c < len(screen) else 0, -c))
        rows.append(screen[start:cut])
        start = cut
    return rows


def _members(plan: Plan, screen: list[int]) -> list[set[str]]:
    """The groups each layer (in screen order) lies within: from a group's first layer
    with a member to its last (a layer between with none of its members, even none at
    all, is still inside its frame: a row cut there cut the group)."""
    spans: dict[str, list[int]] = {}
    for k, layer in enumerate(screen):
        for n in plan.order[layer]:
            if n in plan.group_of:
                spans.setdefault(plan.group_of[n], []).append(k)
    return [{g for g, ks in spans.items() if min(ks) <= k <= max(ks)}
            for k in range(len(screen))]


def _passing(plan: Plan, screen: list[int]) -> list[int]:
    """How many edges pass from each layer (in screen order) to the next."""
    passing = [0] * len(screen)
    where = {layer: k for k, layer in enumerate(screen)}
    for a, b, _ in plan.result.edges:
        passing[min(where[_layer_of(plan, a)], where[_layer_of(plan, b)])] += 1
    return passing


def _long_groups(plan: Plan, screen: list[int], gaps: list[float], width: float) -> set[int]:
    """Where (in screen order) a group too long for one row starts, and just after it
    ends: rows_of cuts there."""
    where = {layer: k for k, layer in enumerate(screen)}
    spans: dict[str, list[int]] = {}
    for n, g in plan.group_of.items():
        if not isinstance(n, tuple):
            spans.setdefault(g, []).append(where[plan.result.layer[n]])
    cuts = set()
    for ks in spans.values():
        first, last = min(ks), max(ks)
        if _length(plan, screen[first:last + 1], screen, gaps) > width:
            cuts |= {first, last + 1} - {0, len(screen)}
    return cuts


def _layer_of(plan: Plan, item: Item) -> int:
    if isinstance(item, tuple):
        return item[2]
    return plan.result.layer[item]


def _length(plan: Plan, row: list[int], screen: list[int], gaps: list[float]) -> float:
    return sum(thickness(plan, layer) for layer in row) + sum(
        gaps[screen.index(layer)] for layer in row[:-1])


class Boxes(dict):
    """What `layout` returns: node id -> Box, and `row`: node id -> the row it lies in
    (all 0 but in a drawing folded into rows)."""

    row: dict[str, int]
    outer: dict[int, tuple[str, str]]   # feedback edges: the sides facing their outside
    lean: int = 1   # how a folded drawing's layers lean toward its rows (see _fold)


def place_rows(plan: Plan, rows: list[list[int]], screen: list[int], gaps: list[float],
               limit: float | None = None, width: float | None = None) -> Boxes:
    """Boxes for the nodes of each row: along from MARGIN (a folded row shifted along,
    within `width`, to hang under the row before: _hung), across after the rows before
    and ROW_GAP (more for the edges and labels between two rows)."""
    boxes = Boxes()
    boxes.row = {n: r for r, row in enumerate(rows) for layer in row for n in plan.order[layer]
                 if not isinstance(n, tuple)}
    along_of = _along(plan, rows, screen, gaps)
    if width is not None and len(rows) > 1:
        along_of = _hung(plan, rows, boxes.row, screen, gaps, along_of, width)
    offset = MARGIN
    for r, row in enumerate(rows):
        start = plan.across(row, limit)
        for layer in row:
            for n in plan.order[layer]:
                if isinstance(n, tuple):
                    continue
                size_along, size_across = plan.extent[n]
                at, cross = along_of[n], offset + start[n]
                boxes[n] = ((at, cross, size_along, size_across) if plan.along_x
                            else (cross, at, size_across, size_along))
        reach = max((v + (plan.size(e) if not isinstance(e, tuple) or e[0] == "edge"
                          else 0.0) for e, v in start.items()), default=0.0)
        offset += reach + _row_gap(plan, row, rows[r + 1] if r + 1 < len(rows) else [])
    return boxes


def _along(plan: Plan, rows: list[list[int]], screen: list[int], gaps: list[float]
           ) -> dict[str, float]:
    """Where each node starts along its row, the row's first layer at MARGIN: each
    layer as thick as its thickest box, the boxes centred in it."""
    along_of = {}
    for row in rows:
        along = MARGIN
        for layer in row:
            thick = thickness(plan, layer)
            for n in plan.order[layer]:
                if not isinstance(n, tuple):
                    along_of[n] = along + snap((thick - plan.extent[n][0]) / 2)
            along += thick + gaps[screen.index(layer)]
    return along_of


def _hung(plan: Plan, rows: list[list[int]], row_of: Mapping[str, int], screen: list[int],
          gaps: list[float], along_of: dict[str, float], width: float) -> dict[str, float]:
    """The rows of a fold shifted along, each after the one before: a row joined to the
    others by one edge alone (feedback edges aside), from the row just before, hangs under
    that edge's source (the two boxes centred on one line: the edge runs straight down,
    not back across the page), if it then stays within `width`. A designer does so with
    a short last row: its box hangs under the box before it. (A row more edges join
    stays: shifted to straighten one, it sends the others further across the page.)"""
    ends = [pair for number, pair in plan.result.ends.items()
            if number not in plan.result.reversed]   # (not a feedback edge's)
    shifted = dict(along_of)
    for r, row in enumerate(rows[1:], start=1):
        joining = [(a, b) for pair in ends
                   for a, b in (pair, pair[::-1]) if row_of[a] != r == row_of[b]]
        if len(joining) != 1 or row_of[joining[0][0]] != r - 1:
            continue
        (a, b), = joining
        shift = snap(shifted[a] + plan.extent[a][0] / 2 - along_of[b] - plan.extent[b][0] / 2)
        if 0 < shift <= width - _length(plan, row, screen, gaps):
            shifted.update((n, along_of[n] + shift) for n, at in row_of.items() if at == r)
    return shifted


def _row_gap(plan: Plan, row: list[int], following: list[int]) -> float:
    """ROW_GAP, more for each edge beyond two that runs from this row to the next, and
    for the labels on them: their size across the page (between the rows such an edge
    runs along the page, its label lies along that run)."""
    if not following:
        return 0.0
    last, first = set(row), set(following)
    between = [number for number, (a, b) in plan.result.span.items()
               if (a in last and b in first) or (b in last and a in first)]
    return snap(max([ROW_GAP + 10.0 * max(0, len(between) - 2)]
                    + [plan.thick[n] + 2 * LABEL_ROOM for n in between
                       if n in plan.thick]))


def layout(nodes: list[str], sizes: dict[str, tuple[float, float]],
           edges: list[tuple[str, str]], direction: str = "right",
           feedback: set[tuple[str, str]] = frozenset(), groups: Groups = {},  # noqa: B006
           labels: Mapping[int, tuple[float, float]] = {},
           max_width: float = PAGE_WIDTH, lean: int | None = None) -> Boxes:
    """A box for each node (x, y, width, height), by the layered method. `edges` name
    their ends' ids (an edge to a node not in `nodes` is left out); those in `feedback`
    run back against the direction. `groups`: id -> (its members, the margins (left,
    top, right, bottom) its frame needs round them): members kept together, no other box
    in a frame, frames apart. `labels`: an edge's number in `edges` -> its label's
    (width, height): room is left for it. The drawing is at most `max_width` wide.
    `lean`: how a folded drawing's layers lean toward its rows (1 or 2, see _fold),
    whatever its routes' first guess says; None: as that guess says. The boxes' `lean`
    says which."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}")
    if not any(n in sizes for n in nodes):
        empty = Boxes()
        empty.row, empty.outer = {}, {}
        return empty
    if direction in ("left", "up"):   # the drawing rightwards (downwards), reflected
        return _reflected(layout(nodes, sizes, edges, _FORWARD[direction], feedback, {
            g: (members, _reflected_margins(margins, direction))
            for g, (members, margins) in groups.items()}, labels, max_width, lean), direction)
    known = set(nodes)
    kept = [k for k, (a, b) in enumerate(edges) if a in known and b in known]
    renumber = {k: j for j, k in enumerate(kept)}
    args = ([edges[k] for k in kept], direction, feedback, groups,
            {renumber[k]: v for k, v in labels.items() if k in renumber})
    budget = max_width - 2 * MARGIN
    asked = (list(nodes), {n: tuple(sizes[n]) for n in nodes if n in sizes}, args[0],
             direction, set(feedback), {g: (list(m), tuple(v)) for g, (m, v) in groups.items()},
             args[4], budget)
    if lean is not None and _PLANNED and _PLANNED[0] == asked:
        plan = _PLANNED[1]       # the same graph laid out just before, another lean asked
        plan.order, plan.lean = [list(layer) for layer in _PLANNED[2]], 1
    else:
        plan = _planned(nodes, sizes, args, budget, {})
        _PLANNED[:] = [asked, plan, [list(layer) for layer in plan.order]]
    boxes = _boxes(plan, budget, args[0], lean)
    if not plan.along_x:   # (a fold's rows fit the page)
        plan, boxes = _within_page(plan, boxes, budget, lambda least, cheap=False: _planned(
            nodes, sizes, args, budget, least, cheap))
    boxes.lean = plan.lean
    boxes.outer = _outer_sides(plan, edges, kept)
    return boxes


_FORWARD = {"left": "right", "up": "down"}


def _reflected_margins(margins: tuple[float, float, float, float], direction: str
                       ) -> tuple[float, float, float, float]:
    """A frame's margins (left, top, right, bottom) for the drawing to be reflected."""
    left, top, right, bottom = margins
    return (right, top, left, bottom) if direction == "left" else (left, bottom, right, top)


def _reflected(boxes: Boxes, direction: str) -> Boxes:
    """A drawing leftwards (upwards): the one rightwards (downwards) mirrored, so that a
    fold's first row is at the top as it is rightwards, each row read from the right;
    the feedback edges' outer sides mirrored too."""
    axis = 0 if direction == "left" else 1
    far = max((box[axis] + box[axis + 2] for box in boxes.values()), default=0.0) + MARGIN
    reflected = Boxes()
    for n, box in boxes.items():
        moved = list(box)
        moved[axis] = far - box[axis] - box[axis + 2]
        reflected[n] = tuple(moved)
    swap = {"left": "right", "right": "left"} if axis == 0 else {"top": "bottom",
                                                                "bottom": "top"}
    reflected.row, reflected.lean = boxes.row, boxes.lean
    reflected.outer = {k: (swap.get(a, a), swap.get(b, b)) for k, (a, b) in boxes.outer.items()}
    return reflected


def _within_page(plan: Plan, boxes: Boxes, budget: float, again) -> tuple[Plan, Boxes]:
    """A drawing down or up the page planned `again` (given the layers its nodes ask
    for) while wider than `budget` (_beyond), at most REPLANS times (none for more than
    REPLANNED nodes), each plan ordered once (`cheap`), the one that fits then as a
    plan is (if it still fits); as first planned if none fits (boxes sent on to later
    layers cross more: only worth it for the page)."""
    def fits(boxes: Boxes) -> bool:
        return _excess(boxes, budget) <= 0
    first = plan, boxes
    for _ in range(REPLANS if len(plan.extent) <= REPLANNED else 0):
        if not _beyond(plan, boxes, budget):
            break
        plan = again(plan.least, cheap=True)
        boxes = _boxes(plan, budget, [])
    if plan is first[0] or not fits(boxes):
        return first
    whole = again(plan.least)
    placed = _boxes(whole, budget, [])
    return (whole, placed) if fits(placed) else (plan, boxes)


def _planned(nodes: list[str], sizes: Mapping[str, tuple[float, float]], args: tuple,
             budget: float, least: dict[str, int], cheap: bool = False) -> Plan:
    """Steps 1 to 4: the layers, their order and sizes, before any fold (`least`: the
    layer each node asked for lies in at least, added to as layers are too long;
    `cheap`: ordered once, not as _outside orders)."""
    for _ in range(4 * len(nodes) + 1):
        plan = Plan(nodes, sizes, *args, least)
        if _joined(plan, least):
            continue
        if plan.along_x and not _in_sequence(plan, budget, least):
            break
        if not plan.along_x and not _narrower(plan, budget, least):
            break
    if cheap:
        return plan.arrange(0)
    return _outside(plan, lambda outer: Plan(nodes, sizes, *args, least, outer))


def _outside(plan: Plan, again) -> Plan:
    """The plan arranged with its feedback edges round the outside after their layers'
    other items (last), or with one of them (up to FEEDBACK_CHOICES, each in turn)
    round the outside before them (first), each arranged anew with TRIAL_SHUFFLES
    shuffled starts, in a graph of at most TRIAL_NODES nodes: the arrangement that
    crosses fewest edges (all last on a tie)."""
    turned = sorted(plan.result.reversed)[:FEEDBACK_CHOICES]
    if len(plan.extent) > TRIAL_NODES:   # within the time a layout may take
        turned = []
    best, fewest = None, None
    for k in range(len(turned) + 1):
        trial = plan if k == 0 else again({turned[k - 1]: FIRST})
        trial.arrange(None if k == 0 else TRIAL_SHUFFLES)
        crossed = Orderer(trial.result, trial.group_of, trial.pinned).count(trial.order)
        if fewest is None or crossed < fewest:
            best, fewest = trial, crossed
        if fewest == 0:
            break
    return best


def _outer_sides(plan: Plan, edges: list[tuple[str, str]], kept: list[int]
                 ) -> dict[int, tuple[str, str]]:
    """For each feedback edge (by its number in the caller's edges) that passes a layer,
    the sides of its ends that face the outside its placeholders keep to."""
    first, last = ("top", "bottom") if plan.along_x else ("left", "right")
    found = {}
    for j in plan.result.reversed:
        where = {plan.pinned[item] for a, b, number in plan.result.edges if number == j
                 for item in (a, b) if item in plan.pinned}
        if len(where) == 1:
            side = first if where.pop() == FIRST else last
            found[kept[j]] = (side, side)
    return found


def _joined(plan: Plan, least: dict[str, int]) -> bool:
    """A group's boxes with no edge (which the layers put first) asked to the first
    layer of its boxes with edges, beside them: left first, they stretched the group's
    frame over the layers between, round other groups' boxes. True if one was asked."""
    linked = {n for a, b in plan.result.ends.values() for n in (a, b)}
    first: dict[str, int] = {}
    for n, g in plan.group_of.items():
        if n in linked:
            first[g] = min(first.get(g, len(plan.order)), plan.result.layer[n])
    asked = False
    for n, g in plan.group_of.items():
        if not isinstance(n, tuple) and n not in linked and g in first \
                and plan.result.layer[n] < first[g]:
            least[n] = first[g]
            asked = True
    return asked


def _in_sequence(plan: Plan, budget: float, least: dict[str, int]) -> bool:
    """A drawing along `right`/`left` too long for one row, whose groups share layers:
    each group moved after the groups that start before it (its members no earlier than
    the layer after their last), as stages follow one another, so that rows can be cut
    between groups; not a group from which an edge path leads back into one of those
    (moved, it would push that group's member after it again, and so on). True if a
    member was moved."""
    screen = list(range(len(plan.order)))
    if not plan.margins or _length(plan, screen, screen, plan.gaps(screen)) <= budget:
        return False
    layer = plan.result.layer
    members: dict[str, list[str]] = {}
    for n, g in plan.group_of.items():
        if not isinstance(n, tuple):
            members.setdefault(g, []).append(n)
    given = list(plan.margins)   # the groups' own order breaks ties
    spans = sorted((min(layer[m] for m in ms), given.index(g), max(layer[m] for m in ms), g)
                   for g, ms in members.items())
    end, before, after = -1, set(), _after(plan)
    for first, _, last, g in spans:
        if first <= end and not _reach(after, members[g]) & before:
            shift = end + 1 - first
            for m in members[g]:
                least[m] = max(least.get(m, 0), layer[m] + shift)
            return True
        end = max(end, last)
        before |= set(members[g])
    return _rows_of_its_own(plan, budget, least, spans, members, after)


def _after(plan: Plan, back: bool = False) -> dict[str, list[str]]:
    """Each node's successors, as laid out (feedback edges turned); with `back`, its
    predecessors."""
    after: dict[str, list[str]] = {}
    for a, b in plan.result.ends.values():
        after.setdefault(b if back else a, []).append(a if back else b)
    return after


def _reach(after: Mapping[str, list[str]], start: list[str]) -> set[str]:
    """The nodes an edge path leads to from these (`after`: each node's successors)."""
    found, todo = set(), list(start)
    while todo:
        for b in after.get(todo.pop(), ()):
            if b not in found:
                found.add(b)
                todo.append(b)
    return found


def _rows_of_its_own(plan: Plan, budget: float, least: dict[str, int], spans: list,
                     members: dict[str, list[str]], after: dict[str, list[str]]) -> bool:
    """A group too long for one row gets rows of its own (rows_of cuts before and after
    it): the other nodes of its layers moved after it, so that its frame round the
    rows it spans holds no other box; but where an edge path leads from such a node
    into the group (and none back), the group's members move after that node instead
    (moved after the group, it pushed the members it leads to after it, and so on until
    the layout gave up). True if one was moved. (`members`: each group's nodes;
    `after`: each node's successors.)"""
    screen = list(range(len(plan.order)))
    gaps = plan.gaps(screen)
    layer, before = plan.result.layer, _after(plan, back=True)
    for first, _, last, g in spans:
        if _length(plan, screen[first:last + 1], screen, gaps) <= budget:
            continue
        others = [n for i in range(first, last + 1) for n in plan.order[i]
                  if not isinstance(n, tuple) and plan.group_of.get(n) != g]
        into = _reach(before, members[g])   # (the nodes a path leads in from)
        reached = _reach(after, members[g])
        leading = [n for n in others if n in into and n not in reached]
        start = max((layer[n] + 1 for n in leading), default=first)
        moved = [m for m in members[g] if layer[m] < start]
        for m in moved:
            least[m] = max(least.get(m, 0), start)
        others = [n for n in others if n not in leading]
        for n in others:
            least[n] = max(least.get(n, 0), last + 1)
        if moved or others:
            return True
    return False


def _boxes(plan: Plan, budget: float, edges: list[tuple[str, str]],
           lean: int | None = None) -> Boxes:
    screen = list(range(len(plan.order)))
    gaps = plan.gaps(screen)
    if plan.along_x:
        return place_rows(plan, _fold(plan, screen, gaps, budget, edges, lean), screen, gaps,
                          width=budget)
    return place_rows(plan, [screen], screen, gaps, budget)


def _fold(plan: Plan, screen: list[int], gaps: list[float], width: float,
          edges: list[tuple[str, str]], lean: int | None = None) -> list[list[int]]:
    """The rows of a drawing too long for one: rows_of's, or another cut set into as
    many rows that rows_of would also accept (no group cut, each row but the last at
    least `width` / SHORTEST), FOLD_TRIES + 1 of them, those fewest edges pass first,
    then the balanced ones (_balance: the narrowest, then the one whose shortest row is
    longest, then the longer rows first: a chain of four wide boxes folds 2 + 2, not
    3 + 1 with the last box alone under the first and a long edge back to it),
    rows_of's first on a tie. Of those, the one whose routes (geometry/route.py, from
    the sides `figure layout` starts from) cross fewest (_crossed), the first on a tie;
    then, if they cross, its layers ordered toward the rows the other way
    (_toward_rows' `lean` 2) if that crosses fewer (`lean` None), or as `lean` says.
    The layers are left in the order chosen, plan.lean says which lean."""
    first = rows_of(plan, screen, gaps, width)
    if len(first) <= 1:
        return first
    passing = _passing(plan, screen)
    options = [first] + [rows for rows in _cut_sets(plan, screen, gaps, width, len(first),
                                                    FOLD_TRIES + 1) if rows != first]
    options = sorted(options, key=lambda rows: (
        sum(passing[screen.index(row[-1])] for row in rows[:-1]),
        _balance(plan, rows, screen, gaps)))[:FOLD_TRIES + 1]
    order = plan.order
    best = None
    for rows in options:
        tried = _tried(plan, order, rows, 1, screen, gaps, edges)
        best = tried if best is None or tried[0] < best[0] else best
        if not best[0]:
            break
    if lean != 1 and (best[0] or lean == 2):
        other = _tried(plan, order, best[1], 2, screen, gaps, edges)
        if other[0] < best[0] or (lean == 2 and other[0] < math.inf):
            best, plan.lean = other, 2
    plan.order = best[2]
    return best[1]


def _balance(plan: Plan, rows: list[list[int]], screen: list[int], gaps: list[float]
             ) -> tuple:
    """How unbalanced a fold's rows are, to sort by: its longest row's length (the
    drawing's width), then its shortest row's, negated; then the longer rows first (as
    a page is filled)."""
    lengths = [_length(plan, row, screen, gaps) for row in rows]
    return max(lengths), -min(lengths), [-length for length in lengths]


def _tried(plan: Plan, order: list[list[Item]], rows: list[list[int]], lean: int,
           screen: list[int], gaps: list[float], edges: list[tuple[str, str]]
           ) -> tuple[float, list[list[int]], list[list[Item]]]:
    """(_crossed, the rows, the layers' order) of a fold, its layers in `order`
    ordered toward its rows (math.inf for `lean` 2 if that orders them as 1 does)."""
    plan.order = [list(layer) for layer in order]
    _toward_rows(plan, rows, lean)
    if lean != 1:
        plan.order, other = [list(layer) for layer in order], plan.order
        _toward_rows(plan, rows, 1)
        if plan.order == other:   # no other order: nothing to route
            return math.inf, rows, other
        plan.order = other
    return _crossed(plan, place_rows(plan, rows, screen, gaps), edges), rows, plan.order


def _cut_sets(plan: Plan, screen: list[int], gaps: list[float], width: float,
              many: int, most: int) -> list[list[list[int]]]:
    """The first `most` of the cuts of `screen` into `many` rows that rows_of's rules
    allow, fewest edges passing the cuts first, and those that tie with the last of
    them (at most TIES * `most` in all), for _fold to weigh their balance. Found
    best first, cut by cut, each after the last, knowing the fewest edges the cuts still
    to make can pass (`fewest`): a row's length only grows with its next layer, so no
    cut past one that makes the row too long, nor past a group's bound, is tried."""
    member = _members(plan, screen)
    passing = _passing(plan, screen)
    bounds = sorted(_long_groups(plan, screen, gaps, width))
    thick = [thickness(plan, layer) for layer in screen]
    lengths: dict[tuple[int, int], float] = {}

    def length(a: int, b: int) -> float:     # as _length measures screen[a:b]
        if (a, b) not in lengths:
            lengths[a, b] = sum(thick[a:b]) + sum(gaps[a:b - 1])
        return lengths[a, b]

    def after(start: int) -> list[int]:
        """Where the row from `start` may end, another row after it."""
        ends = []
        for c in range(start + 1, len(screen)):
            if any(start < b < c for b in bounds) or length(start, c) > width:
                break
            if not member[c - 1] & member[c] and length(start, c) >= width / SHORTEST:
                ends.append(c)
        return ends
    least: dict[tuple[int, int], float] = {}

    def fewest(start: int, left: int) -> float:
        """The fewest edges `left` more cuts after `start` can pass (inf: none fit)."""
        if (start, left) not in least:
            if not left:
                least[start, left] = 0 if length(start, len(screen)) <= width and all(
                    b <= start for b in bounds) else math.inf
            else:
                least[start, left] = min((passing[c - 1] + fewest(c, left - 1)
                                          for c in after(start)), default=math.inf)
        return least[start, left]
    found: list[list[list[int]]] = []
    todo, enough = [(fewest(0, many - 1), (), 0)], math.inf
    while todo and todo[0][0] <= enough and len(found) < TIES * most:
        bound, cuts, passed = heapq.heappop(todo)
        if bound == math.inf:
            break
        if len(cuts) == many - 1:
            ends = [0, *cuts, len(screen)]
            found.append([screen[a:b] for a, b in pairwise(ends)])
            enough = bound if len(found) == most else enough
            continue
        for c in after(cuts[-1] if cuts else 0):
            rest = fewest(c, many - 2 - len(cuts))
            if rest < math.inf:
                heapq.heappush(todo, (passed + passing[c - 1] + rest, (*cuts, c),
                                      passed + passing[c - 1]))
    return found


def _crossed(plan: Plan, boxes: Boxes, edges: list[tuple[str, str]]) -> int:
    """How many times the routes of these boxes' edges cross, each edge from the sides
    `figure layout` gives it to start with, and OUTSIDE for each route but a feedback
    edge's that runs round the outside of the boxes (as geometry/untangle.py weighs it)."""
    sides = {**_outer_sides(plan, edges, list(range(len(edges)))),
             **sides_between_rows(boxes, boxes.row, edges, plan.direction)}
    ends = [Ends(a, b, *sides.get(k, (None, None)), around=k in plan.result.reversed)
            for k, (a, b) in enumerate(edges)]
    width, height = extent_of(list(boxes.values()))
    routes = route_edges(boxes, ends, bounds=(0, 0, width, height))
    left, top = (min(box[k] for box in boxes.values()) for k in (0, 1))
    right, bottom = (max(box[k] + box[k + 2] for box in boxes.values()) for k in (0, 1))
    outside = sum(1 for number, route in enumerate(routes)
                  if route.ok and number not in plan.result.reversed
                  and any(not (left <= x <= right and top <= y <= bottom)
                          for x, y in route.points))
    return count([route.points for route in routes if route.ok]) + OUTSIDE * outside


def sides_between_rows(boxes: Mapping[str, Box], row: Mapping[str, int],
                       edges: Sequence[tuple[str, str]], direction: str
                       ) -> dict[int, tuple[str, str]]:
    """In a drawing folded into rows (`row`: each node's, as `layout` gives it in
    `Boxes.row`), the sides for each edge (by its number) between two rows: down to a
    later row from the source's bottom to the target's top, back up to an earlier row
    round the outside, from and to the sides the rows start from (left for `right`),
    from the bottom of a source with no box below it.
    The side facing the other end would be the router's choice, often across the row."""
    start = "left" if direction == "right" else "right"
    sides = {}
    for number, (a, b) in enumerate(edges):
        if a in boxes and b in boxes and a in row and b in row and row[a] != row[b]:
            sides[number] = ("bottom", "top") if row[b] > row[a] else (
                "bottom" if _lowest(boxes, a) else start, start)
    return sides


def sides_along(boxes: Mapping[str, Box], edges: Sequence[tuple[str, str]],
                direction: str, feedback: set | frozenset = frozenset()
                ) -> dict[int, tuple[str | None, str]]:
    """Down (up) the page, each edge (but a feedback edge) to a box wholly below (above)
    its source enters it by its top (bottom), from the source's side facing that, where
    the side facing the other end (the router's) would enter it by its flank, as it does
    a box far aside; it leaves its source by the bottom (top) where that side would
    take it past another box of the source's layer (fanning out below the layer, not
    through the gaps between its boxes: bench/layout_trees.py's trees down the page
    cross 151 -> 133 times), or where it skips a layer (more than twice LAYER_GAP
    between its boxes), down the gap its layout kept. Rightwards (leftwards), an edge
    to a box wholly to the right (left) enters it by its left (right) side so: a tree's
    items far above or below their box, entered by their bottom or top, were reached
    round a corner (a layer's boxes are centred in it, so how far apart two boxes are
    does not tell whether an edge skips a layer)."""
    near, far = {"down": ("top", "bottom"), "up": ("bottom", "top"),
                 "right": ("left", "right"), "left": ("right", "left")}[direction]
    axis, forward = int(direction in ("down", "up")), direction in ("down", "right")
    sides = {}
    for number, (a, b) in enumerate(edges):
        if a in boxes and b in boxes and (a, b) not in feedback:
            start_a, size_a = boxes[a][axis], boxes[a][axis + 2]
            start_b, size_b = boxes[b][axis], boxes[b][axis + 2]
            beyond = start_b >= start_a + size_a if forward else start_b + size_b <= start_a
            if beyond and choose_sides(Ends(a, b), boxes)[1] != near:
                skips = max(start_b - start_a - size_a, start_a - start_b - size_b) \
                    > 2 * LAYER_GAP
                down = axis == 1 and (skips or _past_its_layer(boxes, a, b))
                sides[number] = (far if down else None, near)
    return sides


def _past_its_layer(boxes: Mapping[str, Box], a: str, b: str) -> bool:
    """Down or up the page: whether a route out of a's flank toward b would pass another
    box beside a (one that overlaps a's height, between a and the middle of b across)."""
    x, y, w, h = boxes[a]
    middle = boxes[b][0] + boxes[b][2] / 2
    low, high = (x + w, middle) if middle > x + w else (middle, x)
    return any(n not in (a, b) and by < y + h and by + bh > y and bx < high and bx + bw > low
               for n, (bx, by, bw, bh) in boxes.items())


def _lowest(boxes: Mapping[str, Box], node: str) -> bool:
    """Whether no box lies below this one (across its width): an edge back up from it
    leaves by its bottom, round the outside, clear of the edges into its row."""
    x, y, w, h = boxes[node]
    return not any(other != node and by >= y + h and bx < x + w and bx + bw > x
                   for other, (bx, by, bw, _) in boxes.items())


def _toward_rows(plan: Plan, rows: list[list[int]], lean: int = 1) -> None:
    """In a folded drawing, the items whose edges go on to the next row last in their
    layers (nearest the gap the edges take), those whose edges come from the row
    before first, so that those edges cross none of the row's own; with `lean` 2 an
    item with an edge of its own to a later row goes last whatever else it joins. A
    group's items stay together, ordered so among themselves too."""
    row_of = {layer: r for r, row in enumerate(rows) for layer in row}
    part = parts(plan.result, plan.group_of)
    layer_of = {item: i for i, layer in enumerate(plan.order) for item in layer}
    linked: dict[Item, list[Item]] = {}
    for a, b, _ in plan.result.edges:
        linked.setdefault(a, []).append(b)
        linked.setdefault(b, []).append(a)
    for r, row in enumerate(rows):
        later = {item for a, b, number in plan.result.edges for item in (a, b)
                 if max(row_of[k] for k in plan.result.span[number]) > r}
        on: set[Item] = set()
        back: set[Item] = set()
        for layer in reversed(row):
            on.update(item for item in plan.order[layer] if any(
                row_of[layer_of[n]] > r or n in on for n in linked.get(item, ())))
        for layer in row:
            back.update(item for item in plan.order[layer] if any(
                row_of[layer_of[n]] < r or n in back for n in linked.get(item, ())))
        ways = (on, back, later, lean)
        for layer in row:
            units = _units(plan.order[layer], plan.group_of)
            units.sort(key=lambda unit: (part.get(unit[0], 0),
                                         max(plan.pinned.get(i, 1) for i in unit),
                                         _facing(unit, *ways)))
            plan.order[layer] = [item for unit in units
                                 for item in sorted(unit, key=lambda i: (
                                     plan.pinned.get(i, 1), _facing([i], *ways)))]


def _facing(unit: list[Item], on: set, back: set, later: set, lean: int) -> int:
    """Where _toward_rows puts a unit of a layer: first (-1) if it has an edge from the
    row before, last if to the next row (with `lean` 2, 2 more if to a later one)."""
    return any(i in on for i in unit) - any(i in back for i in unit) \
        + 2 * (lean - 1) * any(i in later for i in unit)


def _narrower(plan: Plan, budget: float, least: dict[str, int]) -> bool:
    """Every layer wider than `budget` across (its boxes GAP apart) asks of its boxes
    enough to fit to go to the next layer (`least`): those whose edges out reach
    furthest first, then the last ones. True if one was asked."""
    asked = False
    for i, layer in enumerate(plan.order):
        first = {}
        for j, item in enumerate(layer):   # a group's members together
            first.setdefault(plan.group_of.get(item, item), j)
        layer = sorted(layer, key=lambda item: first[plan.group_of.get(item, item)])
        width = Across([layer], plan.size, plan.group_of, plan.across_margins, []).width()
        real = [n for n in layer if not isinstance(n, tuple)]
        if width <= budget or len(real) < 2:
            continue
        asked |= _ask(plan, i, real, width - budget, least)
    return asked


def _ask(plan: Plan, i: int, real: list[str], excess: float, least: dict[str, int]) -> bool:
    """Boxes of layer i (`real`, in their order) asked to go to the next layer (`least`)
    until `excess` px are freed (less a corridor for the edge into each, where it has
    one and is in no group: counted without, a layer of a wide tree was asked again and
    again, and a category's items ended layers below it): those whose edges out reach
    furthest first, then the last ones; never the last one left. True if one was
    asked."""
    slack = {n: min([plan.result.span[k][1] for k, (a, _) in plan.result.ends.items()
                     if a == n] + [len(plan.order)]) for n in real}
    into = Counter(b for _, b in plan.result.ends.values())
    single = {n for n in real if into[n] == 1 and n not in plan.group_of}   # one edge in
    asked = False
    for n in _leaves_first(plan, real, slack, single)[:-1]:
        least[n] = i + 1
        asked = True
        excess -= plan.size(n) + GAP
        if n in single:   # its edge in now passes the layer: a corridor beside the others
            excess += PLACEHOLDER + NARROW
        if excess <= 0:
            break
    return asked


def _leaves_first(plan: Plan, real: list[str], slack: dict[str, int], single: set[str]
                  ) -> list[str]:
    """The boxes of a layer in the order they are asked to go to the next: those whose
    edges out reach furthest first, then the last ones; but where a box has two leaves
    or more here (boxes with no edge out, of `single`: one edge in, from it, in no
    group), first the last leaf of the box with the most leaves left in the layer each
    time, so that each box's leaves wrap under it, not the last boxes' leaves under the
    first boxes; and each such box's first leaf last, after the boxes with edges of
    their own
    (bench/layout_trees.py's taxonomies: 142 crossings before, 95 so)."""
    ranked = sorted(real, key=lambda n: (slack[n], real.index(n)), reverse=True)
    parent = {b: a for a, b in plan.result.ends.values()}
    families: dict[str, list[str]] = {}
    for n in real:
        if slack[n] == len(plan.order) and n in single:
            families.setdefault(parent[n], []).append(n)
    if all(len(leaves) < 2 for leaves in families.values()):
        return ranked
    first = []
    while any(len(leaves) > 1 for leaves in families.values()):
        most = max(families, key=lambda f: (len(families[f]), real.index(families[f][-1])))
        first.append(families[most].pop())
    kept = {leaves[0] for leaves in families.values()}
    return first + [n for n in ranked if n not in first and n not in kept] + \
        [n for n in ranked if n in kept]


def _beyond(plan: Plan, boxes: Boxes, budget: float) -> bool:
    """Whether a drawing down or up the page, placed, is wider than `budget`, and if so
    the layer of two boxes or more whose box reaches furthest asks enough of its boxes
    to go to the next (_ask, in plan.least): each layer fits alone (_narrower), but a
    group's frame over several layers pushes the boxes after it in each along to where
    its widest layer ends."""
    excess = _excess(boxes, budget)
    if excess <= 0:
        return False
    right = {n: x + w for n, (x, _, w, _) in boxes.items()}
    for i in sorted(range(len(plan.order)), key=lambda i: -max(
            (right[n] for n in plan.order[i] if n in right), default=0.0)):
        real = [n for n in plan.order[i] if not isinstance(n, tuple)]
        if len(real) > 1:
            return _ask(plan, i, real, excess, plan.least)
    return False


def _excess(boxes: Boxes, budget: float) -> float:
    """How far (px) the boxes reach beyond `budget` from the left margin (0 or less: not)."""
    return max((x + w for x, _, w, _ in boxes.values()), default=0.0) - MARGIN - budget


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
