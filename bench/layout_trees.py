"""Trees down the page and rightwards: what `figure layout` weighs before it offers
`--direction right` for a drawing down the page that crosses.

Twenty seeded taxonomies of 13 to 43 boxes (a root; 3 to 5 categories; 2 to 6 items
each, some items with 2 or 3 of their own), boxes 110 to 180 px wide; and 60 random
trees (each box's parent drawn among the boxes before it) of 20 to 40 boxes, 100 to
160 px wide. Each is laid out and its sides chosen as `figure layout` does (without the
second lean), then routed as the build routes it, down the page and rightwards.

    python bench/layout_trees.py

prints, per set and direction, the crossings in all, the trees that cross, the widest
canvas and the CPU time in all.
"""

from __future__ import annotations

import random
import time

from articlesite.geometry.crossings import count
from articlesite.geometry.layout import (
    extent_of,
    layout,
    sides_along,
    sides_between_rows,
)
from articlesite.geometry.route import Ends, forget, route_edges
from articlesite.geometry.untangle import untangle

TREES = 20


def tree(seed: int) -> tuple[list[str], list[tuple[str, str]], dict]:
    rnd = random.Random(seed)
    nodes, edges = ["root"], []
    for c in range(rnd.randint(3, 5)):
        category = f"c{c}"
        nodes.append(category)
        edges.append(("root", category))
        for i in range(rnd.randint(2, 6)):
            item = f"{category}i{i}"
            nodes.append(item)
            edges.append((category, item))
            if rnd.random() < 0.15:
                for k in range(rnd.randint(2, 3)):
                    nodes.append(f"{item}s{k}")
                    edges.append((item, f"{item}s{k}"))
    sizes = {n: (float(rnd.choice([110, 130, 150, 180])), 60.0) for n in nodes}
    return nodes, edges, sizes


def random_tree(seed: int) -> tuple[list[str], list[tuple[str, str]], dict]:
    many = 20 + 5 * (seed % 5)
    rnd = random.Random(seed // 5 * 1000 + many)
    nodes = [f"n{i}" for i in range(many)]
    edges = [(f"n{rnd.randrange(i)}", f"n{i}") for i in range(1, many)]
    return nodes, edges, {n: (float(rnd.choice([100, 120, 130, 160])), 60.0) for n in nodes}


def crossings(nodes: list[str], edges: list, sizes: dict, direction: str
              ) -> tuple[int, tuple[float, float]]:
    laid = layout(nodes, sizes, edges, direction)
    boxes = dict(laid)
    start = {**sides_along(laid, edges, direction, set()), **laid.outer,
             **sides_between_rows(laid, laid.row, edges, direction)}
    width, height = extent_of(list(boxes.values()))
    bounds = (0, 0, width, height)
    chosen = untangle(boxes, [Ends(a, b) for a, b in edges], bounds=bounds, start=start)
    routes = route_edges(boxes, [Ends(a, b, *chosen.get(k, (None, None)))
                                 for k, (a, b) in enumerate(edges)], bounds=bounds)
    return count([r.points for r in routes if r.ok]), (width, height)


def main() -> None:
    for name, made, many in (("taxonomies", tree, TREES), ("random trees", random_tree, 60)):
        for direction in ("down", "right"):
            total, crossing, widest, cpu = 0, 0, 0.0, 0.0
            for seed in range(many):
                nodes, edges, sizes = made(seed)
                forget()
                started = time.process_time()
                crossed, canvas = crossings(nodes, edges, sizes, direction)
                cpu += time.process_time() - started
                total, crossing = total + crossed, crossing + (crossed > 0)
                widest = max(widest, canvas[0])
            print(f"{name:12}  {direction:5}  crossings {total:4}  trees that cross "
                  f"{crossing:2} of {many}  widest canvas {widest:g} px  CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()
