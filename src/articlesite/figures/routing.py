"""The figure editor's routes: the geometry a page posts while something is dragged,
routed by the build's router (geometry/route.py) with the build's inputs (load/figures.py
and load/edge_ends.py: each label as high as its class's LABEL_HEIGHT, the canvas as the
bounds, the ends read as a spec's `NODE` or `NODE.SIDE`), so that the editor draws what
the build will draw. Given every edge that names its ends, in the spec's order, the
answer is the build's routes, point for point."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from ..check.annotations import lying_on
from ..geometry.frames import frame_of
from ..geometry.route import Ends, route_edges
from ..load.edge_ends import is_feedback, split_end
from ..load.edge_labels import edge_labels
from ..load.figures import LABEL_HEIGHT, Edge
from ..load.groups import Group, holding_labels
from ..load.schema import is_number
from ..translate.editor import Refused

MAX_BOXES = 2_000


def _box(value: Any, size: int = 4) -> tuple[float, ...]:
    if (not isinstance(value, list) or len(value) != size
            or not all(is_number(v) and abs(v) <= 100_000 for v in value)):
        raise Refused(HTTPStatus.BAD_REQUEST, "a box must be [x, y, width, height]")
    return tuple(float(v) for v in value)


def ends(value: Any, ids: dict) -> tuple[str, str | None]:
    """An edge's end as a spec writes it: 'node' or 'node.side' (as load/edge_ends.py
    reads it: a node id with a dot in it is a node)."""
    if not isinstance(value, str) or not value:
        raise Refused(HTTPStatus.BAD_REQUEST, "an edge's end must be NODE or NODE.SIDE")
    return split_end(value, ids)


def _list(request: dict, name: str) -> list:
    items = request.get(name, [])
    if not isinstance(items, list) or len(items) > MAX_BOXES or not all(
            isinstance(item, dict) for item in items):
        raise Refused(HTTPStatus.BAD_REQUEST, f"'{name}' must be a list of objects")
    return items


def _framed(groups: list, nodes: dict) -> list:
    """(index, group, frame) for each of a spec's groups (its `groups` as loaded: id,
    title_box, nodes) the build frames: round the nodes' boxes as given (geometry/
    frames.py)."""
    found = []
    for i, group in enumerate(groups):
        members = [nodes[n] for n in group.get("nodes") or [] if n in nodes]
        size = group.get("title_box")
        if members and isinstance(size, list) and len(size) == 2:
            found.append((i, group, frame_of(members, tuple(size))))
    return found


def _size(value: Any) -> tuple[float, float] | None:
    if value is None:
        return None
    return _box(value, 2)


def _at(value: Any) -> float | None:
    if value is None:
        return None
    if not is_number(value) or not 0 <= value <= 1:
        raise Refused(HTTPStatus.BAD_REQUEST, "'label_at' must be a number from 0 to 1")
    return float(value)


def route_answer(request: dict, groups: list = ()) -> dict:
    """{"edges": [{points, problem, no_route}], "groups": []} for the request
    (`no_route`: [from, its side, to, its side] of an edge the router found no way for).
    Asked with `"place": true`, each edge's `label` ([x, y, width, height, align, on], or
    None; `on`: what it lies on, as `check` finds it, [kind, name] (a "node" by its id,
    an "edge-label" or free "label" by its number from 1, a "group-title" by its group's
    id), or None) and each group's frame (`groups`, in their order: [x, y, width,
    height], or None for one the build does not frame), as the build places and draws
    them."""
    nodes = {}
    for node in _list(request, "nodes"):
        if not isinstance(node.get("id"), str):
            raise Refused(HTTPStatus.BAD_REQUEST, "a node needs its 'id'")
        nodes[node["id"]] = _box(node.get("box"))
    labels = [(*_box(label.get("box"), 3), LABEL_HEIGHT.get(label.get("class"),
                                                             LABEL_HEIGHT[None]))
              for label in _list(request, "labels")]
    free, framed = len(labels), _framed(list(groups), nodes)
    labels += [frame.title for _, _, frame in framed]
    wanted = []
    for edge in _list(request, "edges"):
        (source, source_side), (target, target_side) = (ends(edge.get("from"), nodes),
                                                        ends(edge.get("to"), nodes))
        wanted.append(Ends(source, target, source_side, target_side, is_feedback(edge)))
    width, height = request.get("width"), request.get("height")
    bounds = ((0.0, 0.0, float(width), float(height))
              if is_number(width) and is_number(height) else None)
    routes = route_edges(nodes, wanted, labels, bounds=bounds)
    answer = [{"points": [list(p) for p in route.points], "problem": route.error,
               "no_route": [ends.source, route.source_side, ends.target, route.target_side]
               if route.error and route.source_side else None}   # (for the page's language)
              for route, ends in zip(routes, wanted, strict=True)]
    frames: list = []
    if request.get("place") is True and bounds is not None:
        frames = _placed(request, answer, routes, wanted, (nodes, labels, free, framed),
                         bounds, len(groups))
    return {"edges": answer, "groups": frames}


def _placed(request: dict, answer: list, routes: list, wanted: list, boxes: tuple,
            bounds: tuple, many: int) -> list:
    """Each edge's label placed as the build places it, into `answer`, with what it lies
    on as `check` finds it; and each of the `many` groups' frames as the build draws it
    (None for one it does not frame). `boxes`: the nodes, the labels and group titles the
    routes avoid, how many of those are free labels, and the groups framed."""
    nodes, labels, free, framed = boxes
    for found in answer:
        found["label"] = None
    asked = _list(request, "edges")
    edges = [Edge(tuple(route.points), source=end.source, target=end.target,
                  label="label" if size else None, label_size=size,
                  label_at=_at(edge.get("label_at")))
             for edge, end, route, size in zip(asked, wanted, routes,
                                               (_size(e.get("label_box")) for e in asked),
                                               strict=True)]
    edges += [Edge(line) for line in _lines(request)]
    groups = {i: Group(str(i), "", tuple(group["nodes"]), frame.box, frame.title)
              for i, group, frame in framed}
    placed = edge_labels(edges, list(nodes.values()) + labels, bounds[2:],
                         [group.box for group in groups.values()])
    near = ([(["node", name], box) for name, box in nodes.items()]
            + [(["label", str(i + 1)], box) for i, box in enumerate(labels[:free])]
            + [(["group-title", str(group.get("id", i + 1))], frame.title)
               for i, group, frame in framed])
    for label in placed:
        if label.edge < len(routes) and routes[label.edge].points:
            box = (label.x, label.y, label.w, label.h)
            answer[label.edge]["label"] = [*box, label.align, next(iter(lying_on(box, near)),
                                                                   None)]
            near.append((["edge-label", str(label.edge + 1)], box))
    held = dict(zip(groups, holding_labels(list(groups.values()), edges, placed, nodes,
                                           bounds), strict=True))
    return [list(held[i].box) if i in held else None for i in range(many)]


def _lines(request: dict) -> list[tuple[tuple[float, float], ...]]:
    """The routes of the edges given by their points (`lines`), which no label may lie
    on."""
    lines = request.get("lines", [])
    if not isinstance(lines, list) or len(lines) > MAX_BOXES or not all(
            isinstance(line, list) and all(
                isinstance(p, list) and len(p) == 2 and all(is_number(v) for v in p)
                for p in line) for line in lines):
        raise Refused(HTTPStatus.BAD_REQUEST, "'lines' must be a list of routes [[x, y], ...]")
    return [tuple((float(x), float(y)) for x, y in line) for line in lines]
