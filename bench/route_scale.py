"""CPU time to route many edges by their ends at once (geometry/route.py), as a figure
of a few hundred edges would ask under the figure editor's lock: a square of boxes
120 × 60 px, 80 px apart, each joined to its right and lower neighbours, every fourth
edge to a box anywhere in the figure instead (seeded: the same each run), the first N.

    python bench/route_scale.py [N ...]     (default: 25 100 400)

Prints, for each N, the boxes, the edges routed and the CPU time (one run each); routing
should grow about linearly with the edges (issue 34: 100 edges took 10.8 s, 400 over
two minutes).
"""

from __future__ import annotations

import math
import random
import sys
import time

from articlesite.geometry.route import Ends, route_edges


def figure(wanted: int) -> tuple[dict, list[Ends], tuple]:
    side = max(2, math.ceil(math.sqrt(wanted / 2.3)) + 1)
    nodes = {f"n{r}-{c}": (40 + c * 200, 40 + r * 140, 120, 60)
             for r in range(side) for c in range(side)}
    edges = []
    for r in range(side):
        for c in range(side):
            if c + 1 < side:
                edges.append(Ends(f"n{r}-{c}", f"n{r}-{c + 1}"))
            if r + 1 < side:
                edges.append(Ends(f"n{r}-{c}", f"n{r + 1}-{c}"))
    rng = random.Random(wanted)
    names = sorted(nodes)
    mixed = []
    for k, ends in enumerate(edges):   # every fourth edge to any box of the figure
        mixed.append(Ends(ends.source, rng.choice([n for n in names if n != ends.source]))
                     if k % 4 == 3 else ends)
    return nodes, mixed[:wanted], (0, 0, 80 + side * 200, 80 + side * 140)


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [25, 100, 400]
    for wanted in sizes:
        nodes, edges, bounds = figure(wanted)
        started = time.process_time()
        routes = route_edges(nodes, edges, bounds=bounds)
        took = time.process_time() - started
        print(f"{len(nodes):4} boxes, {len(edges):4} edges ({sum(r.ok for r in routes)} routed): "
              f"{took * 1000:9.1f} ms CPU, {took * 1000 / len(edges):.2f} ms an edge")


if __name__ == "__main__":
    main()
