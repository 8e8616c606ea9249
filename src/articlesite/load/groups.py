"""A figure's groups (`groups: [{id, title, title_box, nodes: [...]}]`): read, checked,
and framed from their members' boxes (geometry/frames.py), in the spec's coordinates.

A group names the nodes it frames; its title is a dictionary key, `title_box` the
title's size ([width, height], set by `figure layout` and `figure fit` from its texts).
A node in two groups, a node the spec lacks and a group of no node are errors.
Once the edge labels are placed, a frame grows to hold the labels of the edges between
its members (`holding`), where that meets no other frame, node or route.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..geometry.frames import Frame, frame_of, holding
from ..problems import Problems
from .schema import Checked

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Group:
    id: str
    title: str                 # dictionary key
    members: tuple[str, ...]
    box: Rect                  # the frame: x, y, width, height
    title_box: Rect            # the title's box, inside the frame's top
    line: int | None = None

    def moved(self, sx: Callable[[float], float], sy: Callable[[float], float],
              scale_w: float) -> Group:
        """The group with its frame and title mapped as a transform maps boxes."""
        def rect(r: Rect) -> Rect:
            return sx(r[0]), sy(r[1]), r[2] * scale_w, sy(r[1] + r[3]) - sy(r[1])
        return Group(self.id, self.title, self.members, rect(self.box), rect(self.title_box),
                     self.line)


def check_groups(groups: Sequence[Checked], ids: set, path: Path, problems: Problems) -> None:
    """Every group's members known, in one group only; groups not empty, ids unique."""
    owner: dict[str, str] = {}
    seen: set[str] = set()
    for group in groups:
        if not group.ok:
            continue
        name = group["id"]
        line = group.line_of("nodes")
        if name in seen:
            problems.add(path, group.line, f"group id '{name}' is used twice", "id")
        seen.add(name)
        if not group["nodes"]:
            problems.add(path, line, f"group '{name}' frames no node: give it its nodes "
                         "or remove it", "nodes")
        for node in group["nodes"]:
            if node not in ids:
                problems.add(path, line, f"group '{name}' names node '{node}', which the "
                             f"spec lacks (nodes: {', '.join(sorted(ids)) or 'none'})",
                             "nodes")
            elif node in owner and owner[node] != name:
                problems.add(path, line, f"node '{node}' is in two groups, '{owner[node]}' "
                             f"and '{name}': a node is in one group at most", "nodes")
            else:
                owner[node] = name


def framed(groups: Sequence[Checked], boxes: Mapping[str, Rect]) -> list[Group]:
    """The groups whose members are all placed and whose title has its size, framed."""
    found = []
    for group in groups:
        if not group.ok or group["title_box"] is None or not group["nodes"]:
            continue
        members = [boxes[node] for node in group["nodes"] if node in boxes]
        if len(members) != len(group["nodes"]):
            continue
        frame = frame_of(members, group["title_box"])
        found.append(Group(group["id"], group["title"], tuple(group["nodes"]), frame.box,
                           frame.title, group.line))
    return found


ROUTE_ROOM = 6.0   # px more than a label's room between a route and the frame grown for it


def holding_labels(groups: Sequence[Group], edges: Sequence, labels: Sequence,
                   nodes: Mapping[str, Rect], canvas: Rect | None = None) -> list[Group]:
    """The groups, each frame grown to hold the labels (load/edge_labels.py's, by their
    edge's index in `edges`) and the routes of the edges between its members (a
    member's loop round another does not leave its stage), where it can
    (geometry/frames.py `holding`): clear of the other frames, the other nodes and
    the routes, inside `canvas`."""
    routes = [edge.points for edge in edges]
    found = list(groups)
    for i, group in enumerate(found):
        members = set(group.members)
        own = [n for n, edge in enumerate(edges)
               if edge.source in members and edge.target in members]
        inside = [(label.x, label.y, label.w, label.h) for label in labels if label.edge in own]
        inside += [_around(edges[n].points) for n in own]
        if not inside:
            continue
        keep = [g.box for j, g in enumerate(found) if j != i]
        keep += [box for node, box in nodes.items() if node not in members]
        frame = holding(Frame(group.box, group.title_box), inside, keep, routes, canvas)
        found[i] = Group(group.id, group.title, group.members, frame.box, frame.title,
                         group.line)
    return found


def _around(points: Sequence[tuple[float, float]]) -> Rect:
    """A route's bounding box, ROUTE_ROOM px out."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs) - ROUTE_ROOM, min(ys) - ROUTE_ROOM, max(xs) - min(xs) + 2 * ROUTE_ROOM,
            max(ys) - min(ys) + 2 * ROUTE_ROOM)
