"""Step 4 of the layered layout (geometry/layout.py), across the layers: where each item
of a layer starts, its order kept, as a designer lines boxes up.

Each layer is a row of elements: its items (nodes, and the thin placeholders of long
edges) and, for each group it meets, two markers round the group's items: the edges of
the group's frame across, margins included, in every layer from the group's first to its
last. Neighbouring elements keep their distance (GAP between boxes, the frame's margins
inside a frame). Sweeps down and up the layers move each element toward where its
neighbours in the layer just fixed lie (the weighted mean of their centres, a long
edge's placeholders weighing most so that it runs straight; a frame's markers toward
where the group's frame lies in its other layers), solved per layer exactly as a least
squares fit under the distances (pool-adjacent-violators). Then each chain is put on one
line where its layers leave room (pulled toward the means of their neighbours, its items
stood in steps): a chain that hangs from one item (a gateway above a router that fans
out) on that item's line, a chain between two (a tokenizer under two models, a GPU, logs
over two readers) halfway between theirs. Last, the markers of a group are pushed to one
place in all its layers and every element after them along, so that each frame is one
rectangle no other box enters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import pairwise

from .layers import Item

GRID = 5.0          # every start on this grid (the distances are multiples of it)
GAP = 40.0          # px between two boxes of a layer
NARROW = 20.0       # px between a placeholder and its neighbours
SWEEPS = 8

Element = Item | tuple   # an item, or ("open" or "close", group, layer): a frame's edge


def _is_marker(element) -> bool:
    return isinstance(element, tuple) and element[0] in ("open", "close")


def _is_placeholder(element) -> bool:
    return isinstance(element, tuple) and element[0] == "edge"


class Across:
    """The elements of each layer, their sizes across and the distances between them."""

    def __init__(self, order: list[list[Item]], size: Callable[[Item], float],
                 group_of: Mapping[Item, str], margins: Mapping[str, tuple[float, float]],
                 edges: list[tuple[Item, Item, int]], limit: float | None = None):
        self.size, self.group_of, self.margins, self.gap = size, group_of, margins, GAP
        self.limit = limit
        span: dict[str, list[int]] = {}
        for i, layer in enumerate(order):
            for item in layer:
                if item in group_of:
                    span.setdefault(group_of[item], []).append(i)
        self.markers: dict[tuple, list[tuple]] = {}
        where: dict[str, list[float]] = {}   # the groups' order (as geometry/order.py's)
        for layer in order:
            for j, item in enumerate(layer):
                if item in group_of:
                    where.setdefault(group_of[item], []).append(j / max(len(layer), 1))
        self.rank = {g: (sum(v) / len(v), g) for g, v in where.items()}
        self.before: set[tuple[str, str]] = set()   # (g, h): g's items before h's in a layer
        for layer in order:
            groups = list(dict.fromkeys(group_of[item] for item in layer if item in group_of))
            self.before.update((g, h) for k, g in enumerate(groups) for h in groups[k + 1:])
        self.rows = [self._row(i, layer, span) for i, layer in enumerate(order)]
        # each element's (layer, place in its row)
        self.where = {e: (i, k) for i, row in enumerate(self.rows) for k, e in enumerate(row)}
        self.offsets: dict[int, list[float]] = {}   # _fit's: each row's, packed from 0
        self.pulls: dict[Element, tuple] = {}   # _wanted's: its links, their weight, half it
        self.links: dict[Item, list[tuple[Item, float]]] = {}
        for a, b, _ in edges:
            weight = 1.0 + 3.0 * _is_placeholder(a) + 3.0 * _is_placeholder(b)
            self.links.setdefault(a, []).append((b, weight))
            self.links.setdefault(b, []).append((a, weight))

    def _row(self, i: int, layer: list[Item], span: dict[str, list[int]]) -> list[Element]:
        """The layer's items with the markers of the groups it meets (a group with no
        item here but items before and after gets its two markers after the items)."""
        row: list[Element] = []
        for item in layer:
            group = self.group_of.get(item)
            if group is not None and row and row[-1] == ("close", group, i):
                row.insert(len(row) - 1, item)
            elif group is not None:
                row.extend([("open", group, i), item, ("close", group, i)])
            else:
                row.append(item)
        for group, layers in sorted(span.items(), key=lambda g: self.rank[g[0]]):
            if ("open", group, i) not in row and min(layers) < i < max(layers):
                ahead = [k for k, e in enumerate(row) if _is_marker(e) and e[0] == "close"
                         and self._precedes(e[1], group)]
                behind = [k for k, e in enumerate(row) if _is_marker(e) and e[0] == "open"
                          and self._precedes(group, e[1])]
                at = ahead[-1] + 1 if ahead else behind[0] if behind else len(row)
                row[at:at] = [("open", group, i), ("close", group, i)]
        for element in row:
            if _is_marker(element):
                self.markers.setdefault(element[:2], []).append(element)
        return row

    def _precedes(self, g: str, h: str) -> bool:
        """Whether group g's frame goes before h's: as their items go in the layers that
        hold both (a frame passing a layer keeps the side it has where both have items,
        or the frames would overlap there), else by their rank."""
        if ((g, h) in self.before) != ((h, g) in self.before):
            return (g, h) in self.before
        return self.rank[g] < self.rank[h]

    def distance(self, a: Element, b: Element) -> float:
        """How far `b` starts after `a` starts, at least."""
        if _is_marker(a) and a[0] == "open":
            return 0.0 if b[:2] == ("close", a[1]) else self.margins[a[1]][0]
        if _is_marker(b) and b[0] == "close":
            return self.size(a) + self.margins[b[1]][1]
        size = 0.0 if _is_marker(a) else self.size(a)
        narrow = _is_placeholder(a) or _is_placeholder(b)
        return size + (NARROW if narrow else self.gap)

    def packed(self) -> dict[Element, float]:
        """Each layer's elements one after another from 0."""
        start: dict[Element, float] = {}
        for row in self.rows:
            for k, element in enumerate(row):
                start[element] = 0.0 if k == 0 else start[row[k - 1]] + \
                    self.distance(row[k - 1], element)
        return start

    def width(self) -> float:
        """How wide the widest layer is, packed."""
        start = self.packed()
        return max((start[row[-1]] + (0.0 if _is_marker(row[-1]) else self.size(row[-1]))
                    for row in self.rows if row), default=0.0)

    def place(self) -> dict[Element, float]:
        """Where each element starts: aligned by the sweeps, then the frames made
        rectangles, everything from 0 on."""
        start = self.packed()
        for sweep in range(SWEEPS):
            indexes = range(len(self.rows)) if sweep % 2 == 0 else \
                range(len(self.rows) - 1, -1, -1)
            for i in indexes:
                self._fit(i, start)
        self._straighten(start)
        self._columns(start)
        for element, value in start.items():
            start[element] = round(value / GRID) * GRID
        self._rectangles(start)
        if self.limit is not None and not self.markers and self.width_of(start) > self.limit:
            least = min(start.values())
            for row in self.rows:   # (the chains put on one line pushed a row past it)
                places = [start[e] - least for e in row]
                self._within(row, places)
                start.update(zip(row, places))
        least = min(start.values(), default=0.0)   # (within a limit, from 0 on too)
        if self.limit is not None:   # a drawing the limit cannot hold grows past it,
            least = min(least, 0.0)  # not out of the canvas on the other side
        return {e: v - least for e, v in start.items()}

    def _straighten(self, start: dict) -> None:
        """A chain (items in successive layers, each the only one linked to the next
        that way) on one line, where its layers leave room: the sweeps pull each item
        toward the mean of its neighbours, which leaves a chain in steps. A chain that
        hangs from one item (none but it linked to anything else) on that item's line; a
        chain between two (its first linked to others above, its last below: a
        tokenizer under two models, a GPU, logs over two readers) halfway between
        their lines."""
        where = self.where

        def linked(item: Item, step: int) -> list[Item]:
            return [n for n, _ in self.links.get(item, ())
                    if where[n][0] == where[item][0] + step]
        for chain in self._chains(linked):
            anchors = [m for k, m in enumerate(chain)
                       if len(self.links.get(m, ())) > (k > 0) + (k < len(chain) - 1)]
            centres = [start[m] + self.size(m) / 2 for m in anchors or chain[:1]]
            centre = sum(centres) / len(centres)
            if all(self._fits(m, centre - self.size(m) / 2, start, where) for m in chain):
                for m in chain:
                    start[m] = centre - self.size(m) / 2

    def _columns(self, start: dict) -> None:
        """The leaves of one box wrapped under it in the layers after it (layout.py's
        step 6), those alone in their layer from the first on, centred on the first
        one's line where their layers leave room: the sweeps leave them in steps."""
        where = self.where

        def up(item: Item) -> Item | None:
            """The item its one link leads to in an earlier layer, if it has one."""
            above = [n for n, _ in self.links.get(item, ()) if where[n][0] < where[item][0]]
            return above[0] if len(above) == 1 else None
        families: dict[Item, list[Item]] = {}
        for row in self.rows:
            for item in row:   # (a leaf: one link, up)
                if _is_marker(item) or _is_placeholder(item) or len(self.links.get(item, ())) != 1:
                    continue
                source = up(item)
                while _is_placeholder(source) and (higher := up(source)) is not None:
                    source = higher
                if source is not None:
                    families.setdefault(source, []).append(item)
        for family in families.values():
            leaves = []   # (one a layer, from the first layer on)
            shared = Counter(where[leaf][0] for leaf in family)
            for leaf in family:
                layer = where[leaf][0]
                if shared[layer] > 1 or leaves and layer != where[leaves[-1]][0] + 1:
                    break
                leaves.append(leaf)
            if len(leaves) < 2:
                continue
            centre = start[leaves[0]] + self.size(leaves[0]) / 2
            spots = {leaf: centre - self.size(leaf) / 2 for leaf in leaves}
            if all(self._fits(leaf, spots[leaf], start, where) for leaf in leaves):
                start.update(spots)

    def _chains(self, linked: Callable[[Item, int], list[Item]]) -> list[list[Item]]:
        """The chains of two items or more (see _straighten), each from its first."""
        found = []
        for row in self.rows:
            for item in row:
                above = [] if _is_marker(item) else linked(item, -1)
                if _is_marker(item) or len(above) == 1 and linked(above[0], 1) == [item]:
                    continue    # (in the chain of the item above)
                chain = [item]
                while len(below := linked(chain[-1], 1)) == 1 and \
                        linked(below[0], -1) == [chain[-1]]:
                    chain.append(below[0])
                if len(chain) > 1:
                    found.append(chain)
        return found

    def _fits(self, element: Element, at: float, start: dict, where: dict) -> bool:
        """Whether the element may start at `at`, the other items of its layer where
        they are (a frame's markers follow later: _rectangles)."""
        row = [e for e in self.rows[where[element][0]] if not _is_marker(e)]
        k = row.index(element)
        return (k == 0 or at >= start[row[k - 1]] + self.distance(row[k - 1], element)) and \
            (k == len(row) - 1 or start[row[k + 1]] >= at + self.distance(element, row[k + 1]))

    def _wanted(self, element: Element, start: dict) -> tuple[float, float]:
        """Where an element would like to start, and how much that weighs."""
        if _is_marker(element):
            mates = [start[m] for m in self.markers[element[:2]] if m != element]
            return (sum(mates) / len(mates), 2.0) if mates else (start[element], 0.01)
        if element not in self.pulls:     # (the same at each sweep)
            linked = [(n, self.size(n) / 2, w) for n, w in self.links.get(element, ())]
            self.pulls[element] = (linked, sum(w for *_, w in linked),
                                   self.size(element) / 2)
        linked, weight, half = self.pulls[element]
        if not linked:
            return start[element], 0.01
        return sum((start[n] + middle) * w for n, middle, w in linked) / weight - half, weight

    def _fit(self, i: int, start: dict) -> None:
        row = self.rows[i]
        if not row:
            return
        if i not in self.offsets:     # (the same at each sweep)
            self.offsets[i] = [0.0]
            for k in range(1, len(row)):
                self.offsets[i].append(self.offsets[i][-1] + self.distance(row[k - 1], row[k]))
        offsets = self.offsets[i]
        wanted = [self._wanted(e, start) for e in row]
        fitted = isotonic([w - o for (w, _), o in zip(wanted, offsets, strict=True)],
                          [weight for _, weight in wanted])
        places = [value + offset for value, offset in zip(fitted, offsets, strict=True)]
        if self.limit is not None:
            self._within(row, places)
        for element, value in zip(row, places, strict=True):
            start[element] = value

    def _within(self, row: list[Element], places: list[float]) -> None:
        """The places moved back inside 0 to `limit`, their distances kept (the row
        fits if it is no wider packed)."""
        ends = [0.0 if _is_marker(e) else self.size(e) for e in row]
        last = len(row) - 1
        places[last] = min(places[last], self.limit - ends[last])
        for k in range(last - 1, -1, -1):
            places[k] = min(places[k], places[k + 1] - self.distance(row[k], row[k + 1]))
        places[0] = max(places[0], 0.0)
        for k in range(1, len(row)):
            places[k] = max(places[k], places[k - 1] + self.distance(row[k - 1], row[k]))

    def _rectangles(self, start: dict) -> None:
        """Each group's markers at one place in all its layers, the elements after them
        pushed along: repeated until nothing moves (the groups keep one order from
        layer to layer, so this ends). Past `limit`, the same backwards from it."""
        self._settle(start, forward=True)
        if self.limit is not None and self.width_of(start) > self.limit:
            self._settle(start, forward=False)

    def _settle(self, start: dict, forward: bool) -> None:
        pick = max if forward else min
        for _ in range(4 * len(self.markers) + 2):
            moved = False
            for same in self.markers.values():
                chosen = pick(start[m] for m in same)
                for m in same:
                    moved |= start[m] != chosen
                    start[m] = chosen
            for row in self.rows:
                if forward:
                    for a, b in pairwise(row):
                        least = start[a] + self.distance(a, b)
                        if start[b] < least:
                            start[b], moved = least, True
                    continue
                last = row[-1] if row else None
                if last is not None:
                    end = self.limit - (0.0 if _is_marker(last) else self.size(last))
                    if start[last] > end:
                        start[last], moved = end, True
                for a, b in reversed(list(pairwise(row))):
                    most = start[b] - self.distance(a, b)
                    if start[a] > most:
                        start[a], moved = most, True
            if not moved:
                return

    def width_of(self, start: dict) -> float:
        return max((start[row[-1]] + (0.0 if _is_marker(row[-1]) else self.size(row[-1]))
                    for row in self.rows if row), default=0.0) - min(start.values(),
                                                                    default=0.0)


def isotonic(values: list[float], weights: list[float]) -> list[float]:
    """The non-decreasing sequence closest to `values` in weighted least squares (pool
    adjacent violators)."""
    blocks: list[list[float]] = []   # [mean, weight, count]
    for value, weight in zip(values, weights, strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean2, weight2, count2 = blocks.pop()
            mean1, weight1, count1 = blocks[-1]
            total = weight1 + weight2
            blocks[-1] = [(mean1 * weight1 + mean2 * weight2) / total, total, count1 + count2]
    result: list[float] = []
    for mean, _, count in blocks:
        result.extend([mean] * int(count))
    return result
