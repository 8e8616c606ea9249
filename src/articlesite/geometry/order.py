"""Step 3 of the layered layout (geometry/layout.py): the order of the items within each
layer that crosses as few edges as it can, as Graphviz dot's mincross and ELK Layered do.

From several starting orders (the nodes' own order, reversed, and a few shuffles with
fixed seeds: the same input gives the same order), sweeps down and up the layers sort
each layer by the weighted median of where its items' neighbours lie in the layer just
fixed (an item with none keeps its place), then transpositions swap neighbours in a
layer while that removes crossings. The order with the fewest crossings found is kept.
The starts soon meet: a sweep from an order one has already made is not made again.

Constraints: the items of one group (a node's group; a placeholder's when both ends of
its edge are in that group) stay together in each layer, and groups that share layers
keep one order from layer to layer (so that their frames can be rectangles that do not
overlap); `pinned` items (the placeholders of edges turned round) stay first or last in
their layer, as `pinned` says: a feedback edge runs round the outside of the drawing.
Parts of the graph that no edge joins lie side by side in the order of their first node
in the input (a reader meets them in the order the author wrote them), each part's
pinned items first or last within its part.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping
from itertools import repeat

from .layers import Item, Layered

FIRST, LAST = 0, 2   # where a pinned item stays in its layer (others sort as 1)
ITERATIONS = 24   # sweeps at most from one start
PATIENCE = 3      # sweeps without fewer crossings before a start is given up


class Orderer:
    """The crossing minimisation of one layered graph."""

    def __init__(self, result: Layered, group_of: Mapping[Item, str],
                 pinned: Mapping[Item, int]):
        self.layers = result.layers
        self.group_of = group_of
        self.pinned = pinned if isinstance(pinned, Mapping) else dict.fromkeys(pinned, LAST)
        self.up: dict[Item, dict[Item, int]] = {}     # neighbour in the layer before: weight
        self.down: dict[Item, dict[Item, int]] = {}
        for a, b, _ in result.edges:
            self.down.setdefault(a, {}).setdefault(b, 0)
            self.down[a][b] += 1
            self.up.setdefault(b, {}).setdefault(a, 0)
            self.up[b][a] += 1
        self.part = parts(result, group_of)
        self.sweeps: dict[tuple, tuple[tuple, int]] = {}   # see _swept
        # Each item's neighbours in the layer before and after, each as many times as
        # its edges (for _seen).
        self.linked = {item: tuple([n for n, w in side.get(item, {}).items() for _ in range(w)]
                                   for side in (self.up, self.down))
                       for layer in self.layers for item in layer}

    def block(self, order: list[list[Item]]) -> list[list[Item]]:
        """Each layer's items by their part (geometry/order.py's parts), in their order
        within it."""
        return [sorted(layer, key=lambda item: self.part.get(item, 0)) for layer in order]

    def best_order(self, shuffles: int | None = None) -> list[list[Item]]:
        """From the starts (and `shuffles` seeded shuffles, or as many as suit the
        graph's size), the order with the fewest crossings."""
        size = sum(len(layer) for layer in self.layers)
        starts = [[list(layer) for layer in self.layers], self.depth_first(),
                  [layer[::-1] for layer in self.layers]]
        rng = random.Random(size)
        if shuffles is None:
            shuffles = max(8, 320 // max(size, 1)) if size <= 40 else 4 if size <= 80 else 1
        for _ in range(shuffles):
            starts.append([rng.sample(layer, len(layer)) for layer in self.layers])
        best, fewest = None, None
        for start in starts:
            order, count = self.minimise([self.tidy(layer) for layer in start])
            if fewest is None or count < fewest:
                best, fewest = order, count
            if fewest == 0:
                break
        return self.block(best)

    def depth_first(self) -> list[list[Item]]:
        """Each layer in the order a depth-first walk along the edges (down, then up)
        meets its items, from the first layer's items in their order: as dot starts."""
        layer_of = {item: i for i, layer in enumerate(self.layers) for item in layer}
        order: list[list[Item]] = [[] for _ in self.layers]
        seen: set = set()
        for root in [item for layer in self.layers for item in layer]:
            stack = [root]
            while stack:
                item = stack.pop()
                if item in seen:
                    continue
                seen.add(item)
                order[layer_of[item]].append(item)
                linked = list(self.down.get(item, {})) + list(self.up.get(item, {}))
                stack.extend(reversed([n for n in linked if n not in seen]))
        return order

    def minimise(self, order: list[list[Item]]) -> tuple[list[list[Item]], int]:
        order = self._consistent(order)
        best, fewest = [list(layer) for layer in order], self.count(order)
        stale = 0
        for sweep in range(ITERATIONS):
            if fewest == 0 or stale >= PATIENCE:
                break
            order, count = self._swept(order, sweep % 4)
            if count < fewest:
                best, fewest, stale = [list(layer) for layer in order], count, 0
            else:
                stale += 1
        return best, fewest

    def _swept(self, order: list[list[Item]], sweep: int) -> tuple[list[list[Item]], int]:
        """One sweep (down for an even `sweep`, up for an odd one, with sifting for the
        fourth) from `order`, and its crossings; a sweep from an order met before (the
        starts soon meet) is taken from `self.sweeps`."""
        key = (sweep % 2, sweep == 3, tuple(map(tuple, order)))   # sweeps 0 and 2 alike
        if key not in self.sweeps:
            order = [list(layer) for layer in order]
            downwards = sweep % 2 == 0
            indexes = range(1, len(order)) if downwards else range(len(order) - 2, -1, -1)
            for i in indexes:
                fixed = order[i - 1] if downwards else order[i + 1]
                order[i] = self._by_median(order[i], fixed, self.up if downwards else self.down)
            order = self._consistent(order)
            self._transpose(order)
            if sweep == 3:
                self._sift(order)
            self.sweeps[key] = (tuple(map(tuple, order)), self.count(order))
        swept, count = self.sweeps[key]
        return [list(layer) for layer in swept], count

    def count(self, order: list[list[Item]]) -> int:
        """The crossings between neighbouring layers (each edge as many times as it is
        given)."""
        place = {item: j for layer in order for j, item in enumerate(layer)}
        total = 0
        for layer in order[:-1]:
            pairs = sorted((place[a], place[b], w) for a in layer
                           for b, w in self.down.get(a, {}).items())
            for k, (a1, b1, w1) in enumerate(pairs):
                for a2, b2, w2 in pairs[k + 1:]:
                    if a2 > a1 and b2 < b1:
                        total += w1 * w2
        return total

    def tidy(self, layer: list[Item]) -> list[Item]:
        """The layer with each group's items together (where the first one was) and the
        pinned items last."""
        first: dict = {}
        for j, item in enumerate(layer):
            first.setdefault(self.group_of.get(item, item), j)
        return sorted(layer, key=lambda item: (self.part.get(item, 0), self.pinned.get(item, 1),
                                               first[self.group_of.get(item, item)]))

    def _by_median(self, layer: list[Item], fixed: list[Item],
                   side: dict[Item, dict[Item, int]]) -> list[Item]:
        """The layer sorted by the weighted median place of each item's neighbours in
        `fixed` (its own place if it has none), a group by the mean of its items'; `side`:
        self.up or self.down."""
        place = {item: j for j, item in enumerate(fixed)}
        scale = (len(fixed) - 1) / (len(layer) - 1) if len(layer) > 1 else 0.0
        key: dict[Item, float] = {}
        which, no = (0 if side is self.up else 1), ((), ())
        for j, item in enumerate(layer):
            linked = sorted(map(place.__getitem__, self.linked.get(item, no)[which]))
            key[item] = _median(linked) if linked else j * scale
        unit: dict = {}
        for item in layer:
            unit.setdefault(self.group_of.get(item, item), []).append(key[item])
        place_of_unit = {name: sum(keys) / len(keys) for name, keys in unit.items()}
        current = {item: j for j, item in enumerate(layer)}
        return sorted(layer, key=lambda item: (
            self.part.get(item, 0), self.pinned.get(item, 1),
            place_of_unit[self.group_of.get(item, item)],
            self.group_of.get(item, "") if item in self.group_of else "", key[item],
            current[item]))

    def _consistent(self, order: list[list[Item]]) -> list[list[Item]]:
        """Groups that share layers in one order in all of them: each group ranked by
        the mean of where it lies in its layers (0 to 1), and in each layer the places
        the groups take given to them in that rank."""
        where: dict[str, list[float]] = {}
        for layer in order:
            for j, item in enumerate(layer):
                if item in self.group_of:
                    where.setdefault(self.group_of[item], []).append(j / max(len(layer), 1))
        if len(where) < 2:
            return order
        part = {self.group_of[item]: self.part.get(item, 0) for item in self.group_of}
        rank = {g: (part.get(g, 0), sum(v) / len(v), g) for g, v in where.items()}
        result = []
        for layer in order:
            units = _units(layer, self.group_of)
            slots = [k for k, unit in enumerate(units) if unit[0] in self.group_of]
            grouped = sorted((units[k] for k in slots),
                             key=lambda unit: rank[self.group_of[unit[0]]])
            for k, unit in zip(slots, grouped, strict=True):
                units[k] = unit
            result.append([item for unit in units for item in unit])
        return result

    def _transpose(self, order: list[list[Item]]) -> None:
        """Swap neighbouring units of a layer (a group's items, or an item alone), then
        neighbouring items within a group, while a swap removes crossings. Groups keep
        their order from layer to layer: two groups are not swapped."""
        for _ in range(4):
            better = False
            place = {item: j for layer in order for j, item in enumerate(layer)}
            for i, layer in enumerate(order):
                seen = {item: self._seen(item, place) for item in layer}
                units = _units(layer, self.group_of)
                for k in range(len(units) - 1):
                    u, v = units[k], units[k + 1]
                    if (u[0] in self.pinned or v[0] in self.pinned
                            or self.part.get(u[0]) != self.part.get(v[0])
                            or (u[0] in self.group_of and v[0] in self.group_of)):
                        continue
                    if _cross(v, u, seen) < _cross(u, v, seen):
                        units[k], units[k + 1] = v, u
                        better = True
                for unit in units:
                    for k in range(len(unit) - 1):
                        pair = unit[k:k + 2]
                        if _cross(pair[::-1], pair, seen) < _cross(pair, pair[::-1], seen):
                            unit[k], unit[k + 1] = unit[k + 1], unit[k]
                            better = True
                order[i] = [item for unit in units for item in unit]
                for j, item in enumerate(order[i]):
                    place[item] = j
            if not better:
                return

    def _sift(self, order: list[list[Item]]) -> None:
        """Each unit of each layer moved to the place in its layer where it crosses
        fewest edges (a group not past another group, nothing past a pinned item)."""
        place = {item: j for layer in order for j, item in enumerate(layer)}
        for i, layer in enumerate(order):
            seen = {item: self._seen(item, place) for item in layer}
            units = _units(layer, self.group_of)
            for unit in list(units):
                if unit[0] in self.pinned:
                    continue
                k = units.index(unit)
                others = units[:k] + units[k + 1:]
                low, high = self._room(unit, others, k)
                after = [_cross(unit, v, seen) for v in others]    # unit before v
                before = [_cross(v, unit, seen) for v in others]   # v before unit
                costs = {p: sum(before[:p]) + sum(after[p:]) for p in range(low, high + 1)}
                best = min(costs, key=lambda p: (costs[p], p != k, p))
                if costs[best] < costs.get(k, costs[best] + 1):
                    units = others[:best] + [unit] + others[best:]
            order[i] = [item for unit in units for item in unit]
            for j, item in enumerate(order[i]):
                place[item] = j

    def _room(self, unit: list[Item], others: list[list[Item]], k: int) -> tuple[int, int]:
        """Where among `others` a unit (at k) may go: within its part, after the pinned
        FIRST and before the pinned LAST items, a group not past another group."""
        mine = self.part.get(unit[0])
        low = max([j + 1 for j, v in enumerate(others) if j < k and (
            self.part.get(v[0]) != mine or self.pinned.get(v[0]) == FIRST)] + [0])
        high = min([j for j, v in enumerate(others) if j >= k and (
            self.part.get(v[0]) != mine or self.pinned.get(v[0]) == LAST)] + [len(others)])
        if unit[0] in self.group_of:
            fences = [j for j, v in enumerate(others) if v[0] in self.group_of]
            low = max([j + 1 for j in fences if j < k] + [low])
            high = min([j for j in fences if j >= k] + [high])
        return low, high

    def _seen(self, item: Item, place: dict[Item, int]) -> tuple[list[int], list[int]]:
        """Where an item's neighbours lie in the layer before and after, sorted, each as
        many times as its edges."""
        before, after = self.linked.get(item) or ((), ())
        return sorted(map(place.__getitem__, before)), sorted(map(place.__getitem__, after))


def _cross(first: list[Item], then: list[Item], seen: dict) -> int:
    """Crossings between the edges of `first` and those of `then` when `first` lies
    just before `then`, with both neighbouring layers."""
    if len(first) == 1 and len(then) == 1:     # (most often: two items alone)
        (before, after), (later_before, later_after) = seen[first[0]], seen[then[0]]
        return (sum(map(bisect_left, repeat(later_before), before))
                if before and later_before else 0) + \
            (sum(map(bisect_left, repeat(later_after), after)) if after and later_after else 0)
    total = 0
    for side in (0, 1):
        later = seen[then[0]][side] if len(then) == 1 else \
            sorted(y for b in then for y in seen[b][side])
        if later:
            for a in first:
                total += sum(map(bisect_left, repeat(later), seen[a][side]))
    return total


def parts(result: Layered, group_of: Mapping[Item, str]) -> dict[Item, int]:
    """Each item's part of the graph (the items edges join, directly or not, and the
    members of a group), the parts numbered in the order of their first node in the
    input."""
    root: dict[Item, Item] = {}

    def find(item: Item) -> Item:
        while root.get(item, item) != item:
            item = root[item]
        return item
    for a, b, _ in result.edges:
        ra, rb = find(a), find(b)
        if ra != rb:
            root[rb] = ra
    first_member: dict[str, Item] = {}
    for item, group in group_of.items():
        ra, rb = find(first_member.setdefault(group, item)), find(item)
        if ra != rb:
            root[rb] = ra
    items = [item for layer in result.layers for item in layer]
    first: dict[Item, int] = {}
    for item in items:
        if not isinstance(item, tuple):
            r = find(item)
            first[r] = min(first.get(r, len(result.given)), result.given.get(item, 0))
    number = {r: k for k, r in enumerate(sorted(first, key=first.get))}
    return {item: number.get(find(item), 0) for item in items}


def _units(layer: list[Item], group_of: Mapping[Item, str]) -> list[list[Item]]:
    units: list[list[Item]] = []
    for item in layer:
        group = group_of.get(item)
        if units and group is not None and group_of.get(units[-1][0]) == group:
            units[-1].append(item)
        else:
            units.append([item])
    return units


def _median(places: list[int]) -> float:
    """dot's weighted median: the middle place, or between the two middle ones weighted
    toward the side where the places lie closer together."""
    n = len(places)
    middle = n // 2
    if n % 2:
        return float(places[middle])
    if n == 2:
        return (places[0] + places[1]) / 2
    left = places[middle - 1] - places[0]
    right = places[-1] - places[middle]
    if left + right == 0:
        return (places[middle - 1] + places[middle]) / 2
    return (places[middle - 1] * right + places[middle] * left) / (left + right)


def order_layers(result: Layered, group_of: Mapping[Item, str] | None = None,
                 pinned: Mapping[Item, int] | set[Item] | None = None,
                 shuffles: int | None = None) -> list[list[Item]]:
    """Step 3: the layers' orders with the fewest crossings found; `pinned`: item ->
    FIRST or LAST (a set: all LAST); `shuffles`: how many shuffled starts (None: as
    suits the graph's size)."""
    return Orderer(result, group_of or {}, pinned or {}).best_order(shuffles)
