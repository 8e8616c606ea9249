"""Steps 1 and 2 of the layered layout (geometry/layout.py): the edges that close a cycle
turned round, each node in a layer, and a placeholder in every layer a long edge passes.

1. cycles: the edges marked feedback, and those that still close a cycle (found by a
   depth-first search from the nodes no edge enters, in the nodes' order), are reversed
   for the layering only, so that a loop's feedback edge runs back;
2. layers: each node one layer after its furthest predecessor (longest path), a node no
   edge enters pulled forward to just before its nearest successor (no long edge out of
   a source), and no node before the layer `least` asks of it (the caller's way to make a
   layer narrower). An edge that spans several layers gets a placeholder in each layer
   between, which keeps a corridor free for its route.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

Item = str | tuple   # a node's id, or a placeholder ("edge", edge number, layer)


@dataclass
class Layered:
    """The nodes in layers, with the placeholders of long edges; `edges` join items of
    neighbouring layers (each with the number of the edge it belongs to), `back` the
    edges turned round, `span` each edge's (first layer, last layer)."""

    layers: list[list[Item]] = field(default_factory=list)
    edges: list[tuple[Item, Item, int]] = field(default_factory=list)
    back: list[tuple[str, str]] = field(default_factory=list)
    span: dict[int, tuple[int, int]] = field(default_factory=dict)
    reversed: set[int] = field(default_factory=set)   # edge numbers turned round
    ends: dict[int, tuple[str, str]] = field(default_factory=dict)   # as laid out
    layer: dict[str, int] = field(default_factory=dict)              # each node's
    given: dict[str, int] = field(default_factory=dict)   # each node's place in the input


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


def assign_layers(nodes: list[str], edges: list[tuple[str, str]],
                  least: Mapping[str, int] | None = None) -> dict[str, int]:
    """Longest path from the sources on an acyclic graph, no node before `least[node]`;
    then each source moved up to the layer before its nearest successor."""
    before: dict[str, list[str]] = {node: [] for node in nodes}
    after: dict[str, list[str]] = {node: [] for node in nodes}
    for a, b in edges:
        before[b].append(a)
        after[a].append(b)
    least = least or {}
    layer: dict[str, int] = {}
    for node in nodes:
        stack = [node]
        while stack:
            top = stack[-1]
            if top in layer:
                stack.pop()
                continue
            waiting = [p for p in before[top] if p not in layer]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            layer[top] = max([layer[p] + 1 for p in before[top]] + [least.get(top, 0)])
    for node in nodes:
        if not before[node] and after[node]:
            layer[node] = max(layer[node], min(layer[b] for b in after[node]) - 1)
    return layer


def layered(nodes: list[str], edges: list[tuple[str, str]],
            feedback: set[tuple[str, str]] = frozenset(),
            least: Mapping[str, int] | None = None) -> Layered:
    """Steps 1 and 2. `edges` keep their numbers (their place in the list); the
    `feedback` edges (the author's word: `class: feedback`) run back, as do the edges
    that close a cycle once those are turned round. Loops (a -> a) are left out."""
    turned = [(b, a) if (a, b) in feedback else (a, b) for a, b in edges]
    back = back_edges(nodes, [(a, b) for a, b in turned if a != b])
    forward = [(b, a) if (a, b) in back else (a, b) for a, b in turned]
    layer = assign_layers(nodes, [(a, b) for a, b in forward if a != b], least)
    result = Layered([[] for _ in range(max(layer.values(), default=-1) + 1)],
                     back=sorted(back), layer=layer,
                     given={node: k for k, node in enumerate(nodes)})
    for node in nodes:
        result.layers[layer[node]].append(node)
    for number, ((a, b), given) in enumerate(zip(forward, edges, strict=True)):
        if a == b:
            continue
        if (a, b) != given:
            result.reversed.add(number)
        result.span[number] = (layer[a], layer[b])
        result.ends[number] = (a, b)
        previous: Item = a
        for passed in range(layer[a] + 1, layer[b]):
            placeholder = ("edge", number, passed)
            result.layers[passed].append(placeholder)
            result.edges.append((previous, placeholder, number))
            previous = placeholder
        result.edges.append((previous, b, number))
    return result
