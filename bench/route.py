"""CPU time to route a figure's edges by their ends (geometry/route.py), on the first
article's overview figure: its 15 nodes, and its 20 edges given by the nodes and sides
their drawn points touch. Obstacles: the stage labels (the other labels annotate the
drawn edges, in the channels a route would take; `--all-labels` keeps them, and then
the edges with no route show what a failed search costs).

    python bench/route.py [--all-labels] [ROUNDS]

Prints the routes, then the median CPU time of a whole figure over ROUNDS (default 50)
and per edge. Target (issue 19): at most 20 ms for 20 edges.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import yaml

from articlesite.geometry.route import Ends, forget, route_edges
from articlesite.load.figures import LABEL_HEIGHT

SPEC = Path(__file__).resolve().parent.parent / "figures" / "training-overview.yaml"


def touched(point: list[float], nodes: dict) -> tuple[str, str]:
    """The node and side whose border a drawn edge's end lies on."""
    x, y = point
    for node, (left, top, w, h) in nodes.items():
        right, bottom = left + w, top + h
        if left <= x <= right and top <= y <= bottom:
            gaps = {"left": x - left, "right": right - x, "top": y - top,
                    "bottom": bottom - y}
            return node, min(gaps, key=gaps.get)
    raise SystemExit(f"{SPEC.name}: an edge end at {point} touches no node")


def figure(all_labels: bool):
    spec = yaml.safe_load(SPEC.read_text(encoding="utf-8"))
    nodes = {n["id"]: tuple(n["box"]) for n in spec["nodes"]}
    labels = [(*label["box"], LABEL_HEIGHT[label.get("class")]) for label in spec["labels"]
              if all_labels or label.get("class") == "stage"]
    edges = []
    for edge in spec["edges"]:
        (source, source_side), (target, target_side) = (
            touched(edge["points"][0], nodes), touched(edge["points"][-1], nodes))
        edges.append(Ends(source, target, source_side, target_side))
    return nodes, labels, edges, (0, 0, spec["width"], spec["height"])


def main() -> None:
    args = sys.argv[1:]
    all_labels = "--all-labels" in args
    rounds = int(next((a for a in args if a.isdigit()), 50))
    nodes, labels, edges, bounds = figure(all_labels)
    routes = route_edges(nodes, edges, labels, bounds=bounds)
    for ends, route in zip(edges, routes):
        where = f"{ends.source}.{route.source_side} -> {ends.target}.{route.target_side}"
        print(f"{where:42} {route.error or ' '.join(f'{x:g},{y:g}' for x, y in route.points)}")
    times = []
    for _ in range(rounds):
        forget()    # routed anew each round (the router remembers its last calls)
        started = time.process_time()
        route_edges(nodes, edges, labels, bounds=bounds)
        times.append((time.process_time() - started) * 1000)
    median = statistics.median(times)
    routed = sum(route.ok for route in routes)
    print(f"\n{len(nodes)} nodes, {len(labels)} obstacles, {len(edges)} edges "
          f"({routed} routed): {median:.2f} ms CPU a figure (median of {rounds}; "
          f"min {min(times):.2f}, max {max(times):.2f}), {median / len(edges):.3f} ms an edge")


if __name__ == "__main__":
    main()
