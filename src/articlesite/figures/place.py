"""`python build.py figure layout ID`: place a spec's draft nodes (those without `box`).

Each draft gets a box as large as its longest text in any language and either diagram
style (figures/sizes.py), placed by the layered layout (geometry/layout.py) along the
edges that name their ends (`{from: a, to: b}`) and the spec's `direction`. Boxes already
placed stay; the drafts go beside them. A spec without `width` and `height` gets the
canvas that holds every box. The boxes are written into the spec through the spec writer
(figures/spec_edit.py): only the drafts' lines, and the canvas size, change.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..geometry.crossings import count
from ..geometry.layout import beside, extent_of, layout, sides_between_rows
from ..geometry.route import Ends, route_edges
from ..load.config import load_site
from ..load.edge_ends import split_end
from ..load.figures import FIGURE_ID, LABEL_HEIGHT, FigureFile, check_keys, load_figure
from ..load.sourcefiles import parse_yaml, read_source
from ..load.theme import load_figure_texts, load_templates
from ..problems import Problems, UsageError, command
from .sizes import Texts, box_sizes
from .spec_edit import Set, edit_file, intended

UNPLACED = "not placed yet (no 'box')"


@dataclass
class Placed:
    """What `figure layout` did, for the message it prints."""

    path: Path
    boxes: dict[str, tuple[float, float, float, float]]
    canvas: tuple[float, float] | None   # set by the command, or None (the spec's own)
    measured: str                        # how the texts were measured
    outside: tuple[float, float] | None = None   # where the boxes reach, beyond the canvas
    crossings: int = 0                           # edges that cross, routed as the build does


def spec_path(root: Path, figure_id: str) -> Path:
    if not FIGURE_ID.match(figure_id):
        raise UsageError(f"'{figure_id}' is not a valid figure id: use lower-case letters, "
                         "digits and hyphens, starting with a letter or digit")
    return root / "figures" / f"{figure_id}.yaml"


def end_of(value: Any) -> str | None:
    """The node an edge's end names: `actor` or `actor.right`."""
    return value.split(".", 1)[0] if isinstance(value, str) else None


def load_spec(root: Path, figure_id: str) -> tuple[str, dict, Any, Any]:
    """The spec's text and data, the site and the dictionary, refusing a spec with any
    problem other than its drafts (BuildError)."""
    path = spec_path(root, figure_id)
    if not path.is_file():
        raise UsageError(f"figures/{figure_id}.yaml not found: `{command()} figure new "
                         f"{figure_id}` starts one")
    problems = Problems(root)
    site = load_site(root, problems)
    dictionary = None if site is None else load_figure_texts(
        root, site.codes, problems, in_progress=site.in_progress,
        fallback=site.source_language)
    source = read_source(path, problems)
    problems.raise_if_any()
    text, data = source[0], parse_yaml(source[0], path, problems)
    found = Problems(root)
    figure = load_figure(FigureFile(figure_id, path, source[1]), found)
    if figure is not None:
        check_keys(figure, dictionary, found)
    for problem in found:
        if UNPLACED not in problem.message and "missing the field 'width'" not in \
                problem.message and "missing the field 'height'" not in problem.message:
            problems.add(path, problem.line, problem.message, key=problem.key,
                         language=problem.language)
    problems.raise_if_any()
    return text, data, site, dictionary


def place_drafts(root: Path, figure_id: str, browser: bool = True) -> Placed:
    """Place the drafts of figures/ID.yaml and write their boxes into it."""
    text, data, site, dictionary = load_spec(root, figure_id)
    path = spec_path(root, figure_id)
    nodes = [node for node in data.get("nodes") or [] if isinstance(node, dict)]
    drafts = [node for node in nodes if node.get("box") is None]
    placed = [tuple(node["box"]) for node in nodes if node.get("box") is not None]
    items = [Texts(node["id"], language.lang, dictionary.texts[node["text"]][language.code],
                   dictionary.texts[node["sub"]][language.code] if node.get("sub") else None,
                   node.get("class"))
             for node in drafts for language in site.languages]
    sizes, measured = box_sizes(items, css_of(root), browser) if items else ({}, "")
    edges = [edge for edge in data.get("edges") or [] if isinstance(edge, dict)]
    ends = [(end_of(edge.get("from")), end_of(edge.get("to"))) for edge in edges]
    feedback = {end for end, edge in zip(ends, edges) if edge.get("class") == "feedback"}
    direction = data.get("direction") or "right"
    laid = layout([node["id"] for node in drafts], sizes, ends, direction, feedback)
    boxes = beside(laid, placed, direction)
    edits = [Set("box", [_number(v) for v in box], "nodes", name) for name, box in boxes.items()]
    edits += _side_edits(edges, ends, sides_between_rows(laid, laid.row, ends, direction))
    reach = extent_of(placed + list(boxes.values()))
    canvas = None
    if data.get("width") is None or data.get("height") is None:
        canvas = (data.get("width") or reach[0], data.get("height") or reach[1])
        edits += [Set("width", _number(canvas[0])), Set("height", _number(canvas[1]))]
    if edits:
        edit_file(path, edits, expected=text, aside=root)
    width, height = canvas or (data["width"], data["height"])
    result = Placed(path, boxes, canvas, measured,
                    crossings=crossings_left(intended(data, edits), boxes, (width, height)))
    right = max(x + w for x, _, w, _ in placed + list(boxes.values()))
    bottom = max(y + h for _, y, _, h in placed + list(boxes.values()))
    if right > width or bottom > height:
        result.outside = (right, bottom)
    return result


def _side_edits(edges: list[dict], ends: list, sides: dict[int, tuple[str, str]]) -> list[Set]:
    """Edges between two rows of a folded draft, whose ends name no side, get the
    sides `sides_between_rows` gives (the facing side would lead across a row)."""
    edits = []
    for number, (side_a, side_b) in sorted(sides.items()):
        edge = edges[number]
        if edge.get("points") is None and edge.get("from") == ends[number][0] \
                and edge.get("to") == ends[number][1]:
            edits += [Set("from", f"{ends[number][0]}.{side_a}", "edges", number),
                      Set("to", f"{ends[number][1]}.{side_b}", "edges", number)]
    return edits


def crossings_left(data: dict, boxes: dict, canvas: tuple[float, float]) -> int:
    """How many times the spec's edges cross once the build routes those that name
    their ends (with the boxes placed, the labels as obstacles, inside the canvas)."""
    nodes = {node["id"]: tuple(boxes.get(node["id"]) or node["box"])
             for node in data.get("nodes") or [] if isinstance(node, dict)
             and (node.get("id") in boxes or node.get("box") is not None)}
    labels = [(*label["box"], LABEL_HEIGHT.get(label.get("class"), LABEL_HEIGHT[None]))
              for label in data.get("labels") or [] if isinstance(label, dict)]
    edges = [edge for edge in data.get("edges") or [] if isinstance(edge, dict)]
    asked = []
    for edge in edges:
        if edge.get("points") is None and edge.get("from") and edge.get("to"):
            (source, source_side), (target, target_side) = (
                split_end(str(edge["from"]), nodes), split_end(str(edge["to"]), nodes))
            if source in nodes and target in nodes:
                asked.append(Ends(source, target, source_side, target_side))
    routes = [route.points for route in route_edges(nodes, asked, labels,
                                                    bounds=(0.0, 0.0, *canvas)) if route.ok]
    given = [edge["points"] for edge in edges if edge.get("points") is not None]
    return count([tuple(map(tuple, points)) for points in given] + list(routes))


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def css_of(root: Path) -> str:
    """The figures' CSS: the theme's figure.css, or the project's templates/ override."""
    problems = Problems(root)
    css = load_templates(root, problems).get("figure.css")
    if css is None:
        raise UsageError("figure.css cannot be read: " + "; ".join(map(str, problems)))
    return css
