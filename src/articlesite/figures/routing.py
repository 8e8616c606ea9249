"""The figure editor's routes: the geometry a page posts while something is dragged,
routed by the build's router (geometry/route.py) with the build's inputs (load/figures.py
and load/edge_ends.py: each label as high as its class's LABEL_HEIGHT, the canvas as the
bounds, the ends read as a spec's `NODE` or `NODE.SIDE`), so that the editor draws what
the build will draw. Given every edge that names its ends, in the spec's order, the
answer is the build's routes, point for point."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from ..geometry.frames import frame_of
from ..geometry.route import Ends, route_edges
from ..load.edge_ends import split_end
from ..load.figures import LABEL_HEIGHT
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


def group_titles(groups: list, nodes: dict) -> list[tuple[float, ...]]:
    """The title boxes of a spec's groups (its `groups` as loaded: id, title_box, nodes)
    framed round the nodes' boxes as given, as the build gives them to the router."""
    titles = []
    for group in groups:
        members = [nodes[n] for n in group.get("nodes") or [] if n in nodes]
        size = group.get("title_box")
        if members and isinstance(size, list) and len(size) == 2:
            titles.append(frame_of(members, tuple(size)).title)
    return titles


def route_request(request: dict, groups: list = ()) -> list[dict]:
    """[{points, problem}] for each edge of the request, in its order; `groups`: the
    spec's groups, whose titles the routes keep clear of."""
    nodes = {}
    for node in _list(request, "nodes"):
        if not isinstance(node.get("id"), str):
            raise Refused(HTTPStatus.BAD_REQUEST, "a node needs its 'id'")
        nodes[node["id"]] = _box(node.get("box"))
    labels = [(*_box(label.get("box"), 3), LABEL_HEIGHT.get(label.get("class"),
                                                             LABEL_HEIGHT[None]))
              for label in _list(request, "labels")]
    labels += group_titles(list(groups), nodes)
    wanted = []
    for edge in _list(request, "edges"):
        (source, source_side), (target, target_side) = (ends(edge.get("from"), nodes),
                                                        ends(edge.get("to"), nodes))
        wanted.append(Ends(source, target, source_side, target_side))
    width, height = request.get("width"), request.get("height")
    bounds = ((0.0, 0.0, float(width), float(height))
              if is_number(width) and is_number(height) else None)
    return [{"points": [list(p) for p in route.points], "problem": route.error}
            for route in route_edges(nodes, wanted, labels, bounds=bounds)]
