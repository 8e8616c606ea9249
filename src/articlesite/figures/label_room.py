"""Room for the edge labels `figure layout` left none: the spec as it will be written is
built (its routes and labels placed as the build places them) and checked as `check`
checks it; for a label that lies on a box, a title or another edge, the boxes beyond
one of its route's runs are moved away from it (geometry/widen.py), or for one that
sticks out of the canvas on the right or at the bottom the canvas grown, and the first way
that leaves fewer such labels, no more crossings and the canvas within the page is
kept. Then the next, up to TRIES ways in all."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import NamedTuple

from ..check.annotations import check_annotations
from ..check.geometry import check_crossings
from ..geometry.frames import overlaps
from ..geometry.layout import PAGE_WIDTH, extent_of
from ..geometry.widen import widenings
from ..load.figures import Figure, load_figure
from ..problems import Findings
from .spec_edit import Set, apply_edits

TRIES = 24   # ways tried, at most (each builds the figure: some 30 ms)


@dataclass(frozen=True)
class _Spec:
    """A spec's text as `figure layout` would write it, for load_figure."""

    id: str
    path: Path
    text: str


def _assessed(spec: _Spec, root: Path) -> tuple[tuple[int, int], Figure | None, list[int]]:
    """((what `check` finds of its labels and frames, crossings), the figure as
    built, the edges of the labels with no room)."""
    findings = Findings(root)
    figure = load_figure(spec, findings)
    if figure is None or findings:
        return (1 << 30, 1 << 30), None, []
    crossed = check_crossings(figure, findings)
    findings.clear()
    check_annotations(figure, findings)
    crowded = sorted({int(f.element.split()[1]) - 1 for f in findings
                      if f.element and f.element.startswith("edge-label ")})
    return (len(findings), crossed), figure, crowded


def crowded_labels(figure_id: str, path: Path, text: str, root: Path) -> list[int]:
    """The edges (by index) whose labels the build of the spec `text` puts on a box, a
    title, another label or another edge (as `check` finds them)."""
    return _assessed(_Spec(figure_id, path, text), root)[2]


class Room(NamedTuple):
    """What `figure layout` writes: its edits, the nodes' boxes and the canvas they set;
    and, as with_room leaves them, the edges whose labels still have no room."""

    edits: list
    boxes: dict[str, tuple]
    canvas: tuple[float, float]
    crowded: tuple[int, ...] = ()


def with_room(figure_id: str, path: Path, text: str, laid: Room, root: Path) -> Room:
    """`laid` (the boxes `figure layout` placed, the canvas, the sides, as edits), with
    boxes moved where that gives a crowded label room (see the module's docstring)."""
    def assessed(edits: list):
        return _assessed(_Spec(figure_id, path, apply_edits(text, edits)), root)

    best, figure, crowded = assessed(laid.edits)
    left = TRIES
    while crowded and figure is not None:
        step = None
        for trial in islice(_trials(figure, crowded, laid.edits), left):
            left -= 1
            found = assessed(trial.edits)
            score, built = found[:2]
            if score[0] < best[0] and score[1] <= best[1] and built is not None \
                    and built.width <= PAGE_WIDTH:
                step = trial, found
                break
        if step is None:
            break
        laid, (best, figure, crowded) = step
    return laid._replace(crowded=tuple(crowded))


def _trials(figure: Figure, crowded: list[int], edits: list) -> Iterator[Room]:
    """Each way of making room for each crowded label, as what `figure layout` would
    then write: first the canvas grown to the right and down to hold the labels that
    stick out there (a label beside a narrow column of boxes), then the boxes moved."""
    nodes = {node.id: (node.x, node.y, node.w, node.h) for node in figure.nodes}
    out = [(label.x, label.y, label.w, label.h) for label in figure.edge_labels
           if label.edge in crowded and (label.x + label.w > figure.width
                                         or label.y + label.h > figure.height)]
    if out:
        reach = extent_of(out)
        canvas = (max(figure.width, reach[0]), max(figure.height, reach[1]))
        yield Room(_moved(edits, {}, canvas), nodes, canvas)
    before = extent_of(list(nodes.values()))
    given_room = _and_beneath(figure, crowded)
    for label in figure.edge_labels:
        if label.edge in given_room:
            for way in widenings(nodes, figure.edges[label.edge].points, (label.w, label.h)):
                after = extent_of(list(way.values()))
                canvas = (figure.width + max(0.0, after[0] - before[0]),
                          figure.height + max(0.0, after[1] - before[1]))
                yield Room(_moved(edits, way, canvas), way, canvas)


def _and_beneath(figure: Figure, crowded: list[int]) -> set[int]:
    """The crowded labels' edges, and those of the labels they lie on (`check` names the
    later of two labels that overlap; the earlier may be the one with no room)."""
    box = {label.edge: (label.x, label.y, label.w, label.h) for label in figure.edge_labels}
    return set(crowded) | {edge for edge in box for c in crowded
                           if c in box and edge != c and overlaps(box[edge], box[c])}


def _moved(edits: list, boxes: dict, canvas: tuple[float, float]) -> list:
    """`edits` with the nodes' boxes and the canvas set to these."""
    size = {"width": canvas[0], "height": canvas[1]}
    result = []
    for edit in edits:
        if isinstance(edit, Set) and edit.field == "box" and edit.section == "nodes" \
                and edit.element in boxes:
            edit = Set("box", list(boxes[edit.element]), "nodes", edit.element)
        elif isinstance(edit, Set) and edit.section is None and edit.field in size:
            edit = Set(edit.field, size[edit.field])
        result.append(edit)
    return result
