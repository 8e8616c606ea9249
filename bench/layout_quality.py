"""How good `figure layout`'s drafts are: for each draft of bench/layout_drafts.py (8 to 20
nodes, texts in en, zh and ja), the boxes sized to their longest text in any language
(figures/sizes.py's estimate, as `figure layout --no-browser` does), laid out by
geometry/layout.py as `figure layout` lays them out (the groups framed with their titles)
and, beside it, by Graphviz `dot` (the same graph, the same box sizes,
the same gaps: nodesep 40 px, ranksep 80 px), both routed by the build's router
(geometry/route.py; ours with the sides `figure layout` names: between the rows of a
folded draft, round the outside for feedback edges, and those geometry/untangle.py
chose) and measured alike:

- crossings: points where two routed edges cross (geometry/crossings.py);
- bends: corners of all routes;
- canvas: width × height in px (the boxes with a 30 px margin);
- wasted: the share of the canvas no box covers;
- ms: CPU time of our whole layout (median of RUNS): the boxes placed, then the sides
  chosen (geometry/untangle.py), and for a folded drawing whose edges still cross more
  than FEW times (figures/place.py) the same with its layers leaning the other way
  (its sides chosen only if its boxes differ), the one crossing less kept, as `figure
  layout` does once the texts are measured (the routes measured included).

    python bench/layout_quality.py [--markdown] [--python]

`--python`: the route search in Python (geometry/grid.py's own loops), as it runs where
the package was installed without a C compiler (the same drawings, slower).

Needs Graphviz's `dot` on the PATH (Debian: apt-get install graphviz) for the comparison
columns; without it they show "-". `dot` is used here only, never by articlesite.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layout_drafts import DRAFTS

from articlesite.figures.place import FEW, clear_of_frames
from articlesite.figures.sizes import MIN_SIZE, SPARE, Texts, estimate
from articlesite.geometry import grid
from articlesite.geometry.crossings import count
from articlesite.geometry.frames import frame_of, margins
from articlesite.geometry.layout import (
    MARGIN,
    extent_of,
    layout,
    sides_along,
    sides_between_rows,
)
from articlesite.geometry.route import Ends, forget, route_edges
from articlesite.geometry.untangle import untangle

LANGUAGES = ("en", "zh", "ja")
RUNS = 5    # layouts timed per draft (the median is shown)
PX = 72.0   # dot's points per inch


def draft(name: str):
    direction, texts, written, groups = DRAFTS[name]
    sizes = {}
    for node, text in texts.items():
        sizes[node] = (0.0, 0.0)
        for language, value in zip(LANGUAGES, text.split(" | "), strict=True):
            w, h = estimate(Texts(node, language, value, None, None))
            old = sizes[node]
            sizes[node] = (max(old[0], MIN_SIZE[0], w + 2 * SPARE),
                           max(old[1], MIN_SIZE[1], h + SPARE))
    edges = [tuple(e.rstrip("!").split(">")) for e in written]
    feedback = {edge for edge, e in zip(edges, written, strict=True) if e.endswith("!")}
    return direction, list(texts), sizes, edges, feedback, groups


def title_size(group: str) -> tuple[float, float]:
    """A group's title (its id, capitalised), as figure layout sizes one."""
    return estimate(Texts(("group", group), "en", group.capitalize(), None, None,
                          "group-title"))


def framed(boxes: dict, groups: dict) -> list:
    """The groups' frames round their members, as the build draws them."""
    return [frame_of([boxes[m] for m in members], title_size(g))
            for g, members in groups.items()]


def measure(boxes: dict, edges: list, sides: dict | None = None,
            groups: dict | None = None, feedback: set | frozenset = frozenset()) -> dict:
    """The drawing's measures, its edges routed as the build routes them (the groups'
    titles kept clear of, the `feedback` edges' routes round rather than across)."""
    frames = framed(boxes, groups or {})
    width, height = extent_of(list(boxes.values()) + [f.box for f in frames])
    sides = sides or {}
    ends = [Ends(a, b, *sides.get(k, (None, None)), (a, b) in feedback)
            for k, (a, b) in enumerate(edges)]
    routes = route_edges(boxes, ends, [f.title for f in frames], bounds=(0, 0, width, height))
    points = [r.points for r in routes if r.ok]
    covered = sum(w * h for _, _, w, h in boxes.values())
    return {"crossings": count(points), "bends": sum(len(p) - 2 for p in points),
            "canvas": (width, height), "wasted": 1 - covered / (width * height),
            "failed": sum(not r.ok for r in routes)}


def arranged(name: str, lean: int | None = None, other_than: dict | None = None
             ) -> tuple[dict, dict, int] | None:
    """A draft's boxes and sides, as `figure layout` lays it out and chooses them, and
    how its layers lean toward its rows; None if the boxes are `other_than` (figure
    layout does not choose their sides again)."""
    direction, nodes, sizes, edges, feedback, groups = draft(name)
    margined = {g: (members, margins(title_size(g), (), direction))
                for g, members in groups.items()}
    feedback_numbers = frozenset(k for k, e in enumerate(edges) if e in feedback)
    laid = layout(nodes, sizes, edges, direction, feedback, margined, lean=lean)
    boxes = clear_of_frames(laid, [], [{"id": g, "nodes": m} for g, m in groups.items()],
                            {g: title_size(g) for g in groups})
    if boxes == other_than:
        return None
    frames = framed(boxes, groups)
    sides = {**sides_along(laid, edges, direction, feedback), **laid.outer,
             **sides_between_rows(laid, laid.row, edges, direction)}
    width, height = extent_of(list(boxes.values()) + [f.box for f in frames])
    ends = [Ends(a, b, around=(a, b) in feedback) for a, b in edges]
    return boxes, untangle(boxes, ends, [f.title for f in frames],
                           bounds=(0, 0, width, height), outside_ok=feedback_numbers,
                           start=sides, frames=[f.box for f in frames]), laid.lean


def ours(name: str) -> tuple[dict, float]:
    """Our layout's measures, and the CPU time (ms, median of RUNS) of the whole layout:
    the boxes placed and the sides chosen, and for a folded drawing whose edges still
    cross more than FEW times, the same with its layers leaning the other way (as
    figure layout does)."""
    direction, _, _, edges, feedback, groups = draft(name)
    whole = []
    for _ in range(RUNS):
        forget()    # each run routes anew (the router remembers its last calls)
        started = time.process_time()
        boxes, sides, lean = arranged(name)
        result = measure(boxes, edges, sides, groups, feedback)
        leaning = arranged(name, lean=3 - lean, other_than=boxes) \
            if result["crossings"] > FEW and direction in ("right", "left") else None
        if leaning is not None:
            other = measure(leaning[0], edges, leaning[1], groups, feedback)
            result = other if other["crossings"] < result["crossings"] else result
        whole.append((time.process_time() - started) * 1000)
    return result, statistics.median(whole)


def by_dot(name: str) -> dict | None:
    if shutil.which("dot") is None:
        return None
    direction, nodes, sizes, edges, feedback, groups = draft(name)
    rankdir = {"right": "LR", "left": "RL", "down": "TB", "up": "BT"}[direction]
    head = (f"digraph g {{ rankdir={rankdir}; nodesep={40 / PX:.3f}; "
            f"ranksep={80 / PX:.3f}; node [shape=box, fixedsize=true, label=\"\"];")
    lines = [head]
    for node in nodes:
        w, h = sizes[node]
        lines.append(f'"{node}" [width={w / PX:.4f}, height={h / PX:.4f}];')
    for number, (group, members) in enumerate(groups.items()):
        lines.append(f"subgraph cluster_{number} {{ label=\"{group}\"; "
                     + " ".join(f'"{m}";' for m in members) + " }")
    for a, b in edges:
        extra = " [dir=back]" if (a, b) in feedback else ""
        lines.append(f'"{b}" -> "{a}"{extra};' if (a, b) in feedback else f'"{a}" -> "{b}";')
    lines.append("}")
    plain = subprocess.run(["dot", "-Tplain"], input="\n".join(lines), text=True,
                           capture_output=True, check=True).stdout
    boxes, top = {}, 0.0
    for line in plain.splitlines():
        parts = line.split()
        if parts[0] == "graph":
            top = float(parts[3]) * PX
        elif parts[0] == "node":
            node = parts[1].strip('"')
            x, y = float(parts[2]) * PX, top - float(parts[3]) * PX
            w, h = sizes[node]
            boxes[node] = (round(x - w / 2 + MARGIN), round(y - h / 2 + MARGIN), w, h)
    return measure(boxes, edges, feedback=feedback)


def cells(result: dict | None) -> list[str]:
    if result is None:
        return ["-"] * 4
    w, h = result["canvas"]
    return [str(result["crossings"]), str(result["bends"]), f"{w:g} × {h:g}",
            f"{result['wasted']:.0%}"]


def python_search() -> None:
    """With `--python`: search in Python, not in the compiled module."""
    if "--python" in sys.argv:
        grid._compiled = grid._recompiled = None


def main() -> None:
    python_search()
    head = ["draft", "nodes", "edges", "dir", "crossings", "bends", "canvas", "wasted", "ms",
            "dot crossings", "dot bends", "dot canvas", "dot wasted"]
    rows = []
    for name in DRAFTS:
        direction, nodes, _, edges, _, _ = draft(name)
        mine, ms = ours(name)
        rows.append([name, str(len(nodes)), str(len(edges)), direction, *cells(mine),
                     f"{ms:.1f}", *cells(by_dot(name))])
    if "--markdown" in sys.argv:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for row in rows:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    for row in [head, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
