"""Edges that name their ends (`from: actor.right`, `to: env`): read, checked, and routed
by geometry/route.py, once per figure, in the spec's own coordinates.

Routing comes before the spec's transforms (remove_bands, narrow), as the figure editor
works: in the coordinates the author writes. The transforms map x and y each on its own
and keep their order, so a routed edge stays horizontal and vertical, on the same
borders, clear of the same boxes; only its lengths change with the figure's, as an edge
given by its points does. Routes do not depend on the language: a figure is loaded
once for all of them.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..geometry.route import MARGIN, SIDES, Ends, Rect, route_edges
from ..problems import Problems
from .schema import Checked

Points = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class EdgeGeometry:
    """An edge's points, as given or as routed, and the nodes it names (if it does)."""

    points: Points
    source: str | None = None
    target: str | None = None


def edge_geometry(edges: Sequence[Checked], nodes: Mapping[str, Rect], ids: set[str],
                  labels: Sequence[Rect], canvas: tuple[float, float], path: Path,
                  problems: Problems) -> list[EdgeGeometry | None]:
    """Each edge's geometry, in spec order; None for an edge with a problem (reported).
    `nodes` are the boxes of the nodes that loaded, `ids` every node id the spec has
    (a node with a problem of its own is not named again)."""
    found, asked = _read(edges, nodes, ids, path, problems)
    # (Routing builds a grid of the whole canvas: not for a figure whose edges give
    # their points, as most do.)
    routes = route_edges(nodes, [ends for _, ends in asked], labels,
                         bounds=(0.0, 0.0, *canvas)) if asked else []
    for (place, ends), route in zip(asked, routes):
        if route.ok:
            found[place] = EdgeGeometry(route.points, ends.source, ends.target)
        else:
            edge = edges[place]
            named = ends.source_side is not None or ends.target_side is not None
            problems.add(path, edge.line, f"edge {place + 1} from '{ends.source}' "
                         f"({route.source_side}) to '{ends.target}' ({route.target_side}): "
                         f"no route keeps {MARGIN:g} px from every other node and label "
                         "inside the canvas" + ("; move the boxes apart or name other sides"
                                                if named else ", from any of their sides; "
                                                "move the boxes apart"))
    return found


def check_ends(edges: Sequence[Checked], ids: set[str], path: Path, problems: Problems) -> None:
    """The edges' ends checked as edge_geometry checks them (a node named that the spec
    lacks, an unknown side, an edge from a node to itself), for a figure with nodes not
    placed yet: `figure layout` says so before it places them, as the build would after."""
    _read(edges, {}, ids, path, problems)


def _read(edges: Sequence[Checked], nodes: Mapping[str, Rect], ids: set[str], path: Path,
          problems: Problems) -> tuple[list[EdgeGeometry | None], list[tuple[int, Ends]]]:
    """Each edge's geometry if it gives its points (None if not, or if wrong: reported),
    and the edges to route: (their place, their ends)."""
    found: list[EdgeGeometry | None] = []
    asked: list[tuple[int, Ends]] = []
    for number, edge in enumerate(edges, start=1):
        if not edge.ok:
            found.append(None)
            continue
        if edge.get("points") is not None:
            if edge.get("from") is not None or edge.get("to") is not None:
                problems.add(path, edge.line, f"edge {number} has both 'points' and "
                             "'from'/'to': give its points, or its ends for the build to "
                             "route")
                found.append(None)
            else:
                found.append(EdgeGeometry(edge["points"]))
            continue
        ends = _ends(number, edge, nodes, ids, path, problems)
        if ends is not None:
            asked.append((len(found), ends))
        found.append(None)
    return found, asked


def _ends(number: int, edge: Checked, nodes: Mapping[str, Rect], ids: set[str],
          path: Path, problems: Problems) -> Ends | None:
    """The ends an edge names, or None if they are wrong (reported) or name a node
    that did not load (its problem is reported already)."""
    named = {key: edge.get(key) for key in ("from", "to")}
    missing = [key for key, value in named.items() if value is None]
    if len(missing) == 2:
        problems.add(path, edge.line, f"edge {number} has neither 'points' nor 'from' "
                     "and 'to'")
        return None
    if missing:
        given = "to" if missing == ["from"] else "from"
        problems.add(path, edge.line, f"edge {number} has '{given}' but no "
                     f"'{missing[0]}': an edge names both its ends", missing[0])
        return None
    ends = [_end(number, key, value, ids, path, edge.line_of(key), problems)
            for key, value in named.items()]
    if None in ends:
        return None
    (source, source_side), (target, target_side) = ends
    if source == target:
        problems.add(path, edge.line, f"edge {number} goes from node '{source}' to "
                     "itself: an edge joins two nodes")
        return None
    if source not in nodes or target not in nodes:
        return None
    return Ends(source, target, source_side, target_side, is_feedback(edge))


def is_feedback(edge: Mapping) -> bool:
    """Whether a spec's edge runs back against the direction (`class: feedback`): its
    route goes round rather than across another (Ends.around)."""
    return edge.get("class") == "feedback"


def split_end(value: str, ids) -> tuple[str, str | None]:
    """NODE or NODE.SIDE as a spec writes an end: the node and the side named (None:
    none). A node id that holds a dot is a node."""
    if value in ids or "." not in value:
        return value, None
    node, side = value.rsplit(".", 1)
    return node, side


def _end(number: int, key: str, value: str, ids: set[str], path: Path, line: int | None,
         problems: Problems) -> tuple[str, str | None] | None:
    """NODE or NODE.SIDE: the node and side (None: the side facing the other end)."""
    node, side = split_end(value, ids)
    if side is not None and side not in SIDES:
        problems.add(path, line, f"edge {number}: '{key}: {value}' names an unknown "
                     f"side '{side}' (sides: {', '.join(SIDES)})", key)
        return None
    if node not in ids:
        nearest = difflib.get_close_matches(node, sorted(ids), n=1, cutoff=0.6)
        hint = f"did you mean '{nearest[0]}'? " if nearest else ""
        problems.add(path, line, f"edge {number}: '{key}: {value}' names no node ("
                     f"{hint}nodes: {', '.join(sorted(ids)) or 'none'})", key)
        return None
    return node, side
