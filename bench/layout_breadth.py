"""Crossings and CPU time of the layout over many graphs, to tell whether a change to
geometry/ (layout, side choice, router) helps more figures than it harms: the nine
drafts of bench/layout_drafts.py in all four directions at two page widths (1240 and
900 px), and 40 random layered graphs (4 to 16 nodes, some with feedback edges, a group
or two, edge labels) at 1240 and 700 px: 152 layouts. Each is laid out and its sides
chosen as bench/layout_quality.py does (without the second lean), then routed.

    python bench/layout_breadth.py [--save FILE] [--against FILE] [--python]

prints the crossings and bends in all, the CPU time in all and the slowest layout;
`--save` writes each layout's crossings, ms and bends to FILE (JSON), `--against` names
the layouts that cross more or fewer times than in a FILE saved before (from another
commit, say); `--python`: the route search in Python, not compiled (as
bench/layout_quality.py).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layout_drafts import DRAFTS
from layout_quality import draft, python_search

from articlesite.geometry.crossings import count
from articlesite.geometry.frames import frame_of
from articlesite.geometry.layout import extent_of, layout, sides_along, sides_between_rows
from articlesite.geometry.route import Ends, forget, route_edges
from articlesite.geometry.untangle import mixed_sides, untangle

DIRECTIONS = ("right", "down", "left", "up")
TITLE = (60.0, 22.0)   # a group title's size


def laid_out(nodes, sizes, edges, direction, feedback, groups, width, labels=None,
             lean=None):
    """geometry/layout.py's boxes of one graph, its groups framed as a title needs."""
    framing = {g: (members, (10.0, 30.0, 10.0, 10.0)) for g, members in groups.items()}
    return layout(nodes, sizes, edges, direction, feedback, framing, labels=labels or {},
                  max_width=width, lean=lean)


def measured(nodes, sizes, edges, direction, feedback, groups, width, labels=None,
             lean=None):
    """(crossings, CPU ms, bends, sides both entered and left) of one layout: boxes,
    sides, routes; `lean`: a fold's, as geometry/layout.py's `layout` takes it."""
    forget()
    started = time.process_time()
    boxes = laid_out(nodes, sizes, edges, direction, feedback, groups, width, labels, lean)
    start = {**sides_along(boxes, edges, direction, feedback), **boxes.outer,
             **sides_between_rows(boxes, boxes.row, edges, direction)}
    frames = [frame_of([boxes[m] for m in members], TITLE) for members in groups.values()]
    w, h = extent_of(list(boxes.values()) + [frame.box for frame in frames])
    turned = frozenset(k for k, edge in enumerate(edges) if edge in feedback)
    label_sizes = [(labels or {}).get(k) for k in range(len(edges))]
    sides = untangle(boxes, [Ends(a, b, around=(a, b) in feedback) for a, b in edges],
                     [f.title for f in frames],
                     bounds=(0, 0, w, h), outside_ok=turned, start=start,
                     labels=label_sizes if labels else (), frames=[f.box for f in frames])
    ends = [Ends(a, b, *sides.get(k, (None, None)), (a, b) in feedback)
            for k, (a, b) in enumerate(edges)]
    routes = route_edges(boxes, ends, [f.title for f in frames], bounds=(0, 0, w, h))
    points = [route.points for route in routes if route.ok]
    return count(points), (time.process_time() - started) * 1000, \
        sum(len(p) - 2 for p in points), len(mixed_sides(ends, routes))


def random_graph(seed: int):
    """A layered graph: a tree of 4 to 16 nodes plus some edges forward, feedback edges
    (two seeds in three), a group (one in four), two labelled edges (one in five)."""
    rnd = random.Random(seed)
    n = rnd.randint(4, 16)
    nodes = [f"n{i}" for i in range(n)]
    sizes = {v: (rnd.choice([80, 120, 160, 220, 300]), rnd.choice([40, 50, 70]))
             for v in nodes}
    edges = {(nodes[rnd.randrange(i)], nodes[i]) for i in range(1, n)}
    for _ in range(rnd.randint(0, n)):
        a, b = sorted(rnd.sample(range(n), 2))
        edges.add((nodes[a], nodes[b]))
    edges, feedback = sorted(edges), set()
    for _ in range(rnd.randint(1, 3) if seed % 3 else 0):
        a, b = sorted(rnd.sample(range(n), 2))
        if (nodes[a], nodes[b]) not in edges and (nodes[b], nodes[a]) not in edges:
            edges.append((nodes[b], nodes[a]))
            feedback.add((nodes[b], nodes[a]))
    groups = {"g1": nodes[1:4]} if seed % 4 == 1 and n >= 6 else {}
    if seed % 8 == 5 and n >= 10:
        groups["g2"] = nodes[6:9]
    labels = {k: (rnd.choice([40, 80]), 20.0) for k in rnd.sample(range(len(edges)), 2)} \
        if seed % 5 == 2 else None
    return nodes, sizes, edges, rnd.choice(DIRECTIONS), feedback, groups, labels


def cases():
    """Each layout's name and `measured`'s arguments."""
    for name in DRAFTS:
        _, nodes, sizes, edges, feedback, groups = draft(name)
        for direction in DIRECTIONS:
            for width in (1240.0, 900.0):
                yield f"{name}/{direction}/{width:g}", (
                    nodes, sizes, edges, direction, feedback, groups, width)
    for seed in range(40):
        nodes, sizes, edges, direction, feedback, groups, labels = random_graph(seed)
        for width in (1240.0, 700.0):
            yield f"random{seed}/{width:g}", (
                nodes, sizes, edges, direction, feedback, groups, width, labels)


def every_layout() -> dict[str, tuple[int, float, int, int]]:
    return {name: measured(*args) for name, args in cases()}


def main() -> None:
    python_search()
    found = every_layout()
    slowest = max(found, key=lambda name: found[name][1])
    print(f"{len(found)} layouts: {sum(c for c, *_ in found.values())} crossings, "
          f"{sum(bends for _, _, bends, _ in found.values())} bends, "
          f"{sum(both for *_, both in found.values())} sides both entered and left, "
          f"{sum(ms for _, ms, *_ in found.values()) / 1000:.1f} s CPU; slowest {slowest} "
          f"{found[slowest][1]:.0f} ms")
    if "--save" in sys.argv:
        Path(sys.argv[sys.argv.index("--save") + 1]).write_text(json.dumps(found, indent=1))
    if "--against" in sys.argv:
        before = json.loads(Path(sys.argv[sys.argv.index("--against") + 1]).read_text())
        for word, better in (("more", False), ("fewer", True)):
            changed = [f"{name} {before[name][0]}→{c}" for name, (c, *_) in found.items()
                       if name in before and (c < before[name][0]) == better
                       and c != before[name][0]]
            print(f"crossing {word} than before ({len(changed)}): " + ", ".join(changed))


if __name__ == "__main__":
    main()
