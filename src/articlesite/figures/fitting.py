"""`python build.py figure fit ID`: every placed box sized to its texts, the rest moved.

Each node, edge label and group title is measured as `figure layout` measures a draft
(figures/sizes.py: its longest text in every language and both diagram styles, in
Chromium). A box its texts need more room than grows to the right and downwards (a box
larger than its texts stays as it is). A node whose words and phrases all fit its width
keeps it and grows only as tall as its texts are at that width, wrapped as the page
wraps them (sizes.py measures each node at its own width too); one a word or phrase of
which overflows grows to its texts' size on one line where that moves nothing else and
keeps within the drawing's width; elsewhere only as wide as its longest word or phrase
needs (with room to breathe, as `figure layout` sizes a box), measured again there, and
as tall as its lines are at that width. Whatever lies beyond a grown
box, to its right or below it, moves by as much as it grew, so that every gap stays as
it was and no two boxes that did not overlap come to overlap (`grow`); the canvas grows
by as much as the boxes reach further. A group's frame counts as a box (a wider title
widens it). Routes follow, as the build draws them
from the boxes. Only the changed `box`, `label_box`, `title_box`, `width` and `height`
lines of the spec change (figures/spec_edit.py).

An edge label (grown or not) that the build then can place nowhere free is given room as
`figure layout` gives a draft's (figures/label_room.py: boxes beyond one of its edge's
runs moved away; `_room`), and fit says which labels still have none.

Edges given by their points, dividers and lifelines are not moved; free labels are, and
a free label narrower than its longest text on one line widens where it is (pushing
nothing).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..geometry.frames import TITLE_INSET, frame_of, overlaps
from ..geometry.layout import GRID, PAGE_WIDTH, snap
from ..load.figures import LABEL_HEIGHT
from ..problems import UsageError, command
from .label_room import Room, crowded_labels, with_room
from .place import css_of, label_texts, load_spec, spec_path, texts_of, too_wide
from .sizes import SPARE, AtWidth, sizes_at_widths
from .spec_edit import Set, apply_edits, edit_file

Rect = tuple[float, float, float, float]


@dataclass
class Fitted:
    """What `figure fit` changed, for its message."""

    path: Path
    grown: list[str] = field(default_factory=list)   # what grew, as the message names it
    # the same, for the figure editor to name in the page's language: (kind, name), kind
    # "node", "edge-label" (name: the edge's number), "group-title" or "label"
    grown_items: list[tuple[str, str]] = field(default_factory=list)
    moved: int = 0
    canvas: tuple[float, float] | None = None
    measured: str = ""
    roomed: list[int] = field(default_factory=list)   # edges whose labels got room
    room_moved: int = 0     # nodes moved for them
    crowded: list[int] = field(default_factory=list)  # edges whose labels still have none


def grow(boxes: Mapping[Hashable, Rect], sizes: Mapping[Hashable, tuple[float, float]]
         ) -> dict[Hashable, Rect]:
    """Each box at its new size (`sizes`, for those that change), moved right by as much as
    every box wholly to its left grew (and was moved) and down likewise: a box keeps
    its gap to each box before it, along x and along y."""
    def shifts(axis: int) -> dict[Hashable, float]:
        size = axis + 2
        order = sorted(boxes, key=lambda k: (boxes[k][axis], str(k)))
        shift: dict[Hashable, float] = {}
        for key in order:
            start = boxes[key][axis]
            shift[key] = max((shift[other] + _grew(boxes, sizes, other, size)
                              for other in shift
                              if boxes[other][axis] + boxes[other][size] <= start + 1e-6),
                             default=0.0)
        return shift

    dx, dy = shifts(0), shifts(1)
    return {key: (x + dx[key], y + dy[key], *sizes.get(key, (w, h)))
            for key, (x, y, w, h) in boxes.items()}


def _grew(boxes: Mapping, sizes: Mapping, key: Hashable, size: int) -> float:
    return max(0.0, sizes[key][size - 2] - boxes[key][size]) if key in sizes else 0.0


def needed(current: Rect, measured: tuple[float, float], node: bool) -> tuple[float, float]:
    """The size a box needs: its own where its texts fit, else the measured size (a
    node's on twice the layout's grid, as layout sizes boxes)."""
    w, h = (snap(v, 2 * GRID) for v in measured) if node else measured
    return max(current[2], w), max(current[3], h)


def node_needs(current: Rect, measured: tuple[float, float], at_width: list[AtWidth]
               ) -> tuple[float, float]:
    """The size a node's box needs: where every word and phrase of its texts fits the
    width they were measured at (its own, or `_at_widened`'s) in every language, that width
    and the height its texts take there (a text that wraps to one more line makes the
    box taller, not wider: a column's boxes keep one width); else, as for any box, its
    texts on one line (`needed`)."""
    if not at_width or any(a.narrow for a in at_width):
        return needed(current, measured, True)
    return max(current[2], *(a.width for a in at_width)), \
        max(current[3], snap(max(a.height for a in at_width), 2 * GRID))


def fit_figure(root: Path, figure_id: str, browser: bool = True) -> Fitted:
    """Size every box of figures/ID.yaml to its texts and write what changed into it."""
    text, data, site, dictionary = load_spec(root, figure_id)
    nodes = [n for n in data.get("nodes") or [] if isinstance(n, dict)]
    if any(not isinstance(n.get("box"), list) for n in nodes):
        raise UsageError(f"figures/{figure_id}.yaml has nodes without a box: `{command()} "
                         f"figure layout {figure_id}` places them first")
    edges = {i: e for i, e in enumerate(data.get("edges") or [])
             if isinstance(e, dict) and isinstance(e.get("label"), str)}
    groups = [g for g in data.get("groups") or [] if isinstance(g, dict)]
    labels = [lb for lb in data.get("labels") or [] if isinstance(lb, dict)]
    placed = tuple((item, float(node["box"][2]), language.code) for node in nodes
                   for item, language in zip(texts_of(site, dictionary, [node], {}, []),
                                             site.languages, strict=True))
    sizes, measured, at = sizes_at_widths(texts_of(site, dictionary, nodes, edges, groups)
                                          + label_texts(site, dictionary, data, every=True),
                                          css_of(root), browser, placed)
    boxes: dict[Hashable, Rect] = {n["id"]: tuple(n["box"]) for n in nodes}
    boxes.update({("label", i): (*lb["box"], LABEL_HEIGHT[lb.get("class")])
                  for i, lb in enumerate(labels)})
    at = _at_widened(at, boxes, sizes, placed, css_of(root), browser)
    new = {node["id"]: size for node in nodes
           if (size := node_needs(boxes[node["id"]], sizes[node["id"]],
                                  [a for a in at if a.node == node["id"]]))
           != tuple(boxes[node["id"]][2:])}
    titles = _titles(groups, boxes, sizes, new)
    moved = grow(boxes, new)
    result = Fitted(spec_path(root, figure_id), measured=measured)
    edits = _box_edits(nodes, labels, boxes, moved, result)
    edits = _label_widths(edits, labels, moved, sizes, result)
    edits += _text_box_edits(edges, groups, sizes, titles, result)
    grown_by = tuple(max(0.0, max(b[i] + b[i + 2] for b in moved.values())
                         - max(b[i] + b[i + 2] for b in boxes.values())) for i in (0, 1))
    if any(grown_by) and data.get("width") and data.get("height"):
        result.canvas = (snap(data["width"] + grown_by[0]), snap(data["height"] + grown_by[1]))
        edits += [Set("width", _number(result.canvas[0])),
                  Set("height", _number(result.canvas[1]))]
    if edges and data.get("width") and data.get("height"):
        edits = _room(_Spec(figure_id, result.path, text, data), nodes, moved, edits, root,
                      result)
    if edits:
        edit_file(result.path, edits, expected=text, aside=root)
    return result


def _at_widened(at: list[AtWidth], boxes: dict, sizes: dict, placed: tuple, css: str,
                browser: bool) -> list[AtWidth]:
    """`at`, but each node a word or phrase of which overflows its box, and which on one
    line would push other boxes or the canvas's edge (`_pushes`), measured again at the
    width that holds its longest word or phrase with SPARE on each side (no wider than
    its texts on one line), as a designer widens a box: its lines wrap there, and it
    grows as tall as they need (a second look in Chromium, only where a box is too
    narrow). One with room to its right grows to its texts on one line (`node_needs`)."""
    wider = {}
    for node in {a.node for a in at if a.narrow}:
        one_line = needed(boxes[node], sizes[node], True)[0]
        if _pushes(boxes, node, one_line):
            least = snap(max(a.need for a in at if a.node == node) + 2 * SPARE, 2 * GRID)
            wider[node] = max(boxes[node][2], min(least, one_line))
    if not wider:
        return at
    again = tuple((item, wider[item.node], code) for item, _, code in placed
                  if item.node in wider)
    return [a for a in at if a.node not in wider] + sizes_at_widths([], css, browser, again)[2]


def _pushes(boxes: dict, node: str, width: float) -> bool:
    """Whether a node grown to `width` would move another box (one lies to its right:
    `grow`) or reach further right than every other box."""
    x, _, w, _ = boxes[node]
    others = [box for key, box in boxes.items() if key != node]
    return any(box[0] >= x + w for box in others) or \
        x + width > max((box[0] + box[2] for box in others), default=0.0)


def _text_box_edits(edges: dict[int, dict], groups: list[dict], sizes: dict, titles: dict,
                    result: Fitted) -> list[Set]:
    """The edits growing each edge label's and group title's box its texts outgrew."""
    edits = []
    for i, edge in edges.items():
        old = tuple(edge.get("label_box") or (0, 0))
        size = needed((0, 0, *old), sizes[("edge", i)], False)
        if size != old:
            edits.append(Set("label_box", [_number(v) for v in size], "edges", i))
            result.grown.append(f"edge {i + 1}'s label")
            result.grown_items.append(("edge-label", str(i + 1)))
    for group in groups:
        if titles[group["id"]] != tuple(group.get("title_box") or (0, 0)):
            edits.append(Set("title_box", [_number(v) for v in titles[group["id"]]], "groups",
                             group["id"]))
            result.grown.append(f"group {group['id']}'s title")
            result.grown_items.append(("group-title", str(group["id"])))
    return edits


@dataclass(frozen=True)
class _Spec:
    """The spec being fitted: its id, file, text as read and data."""

    id: str
    path: Path
    text: str
    data: dict


def _room(spec: _Spec, nodes: list[dict], moved: dict, edits: list[Set], root: Path,
          result: Fitted) -> list[Set]:
    """`edits` with the nodes moved where that gives an edge label the build can place
    nowhere free room beside its route, as `figure layout` does for a draft
    (label_room.with_room: kept only if fewer labels are crowded, no more edges cross,
    the canvas stays within the page, and no node comes onto a free label). Edges given
    by their points, dividers and lifelines would not follow the nodes: a figure with
    them is left as it is. The labels given room and those still without are noted in
    `result`."""
    data = spec.data
    if any(isinstance(e, dict) and e.get("points") for e in data.get("edges") or []) \
            or data.get("dividers") or data.get("lifelines"):
        return edits
    crowded = crowded_labels(spec.id, spec.path, apply_edits(spec.text, edits), root)
    if not crowded:
        return edits
    boxes = {node["id"]: moved[node["id"]] for node in nodes}
    canvas = result.canvas or (data["width"], data["height"])
    laid = _but_boxes(edits) + [Set("box", list(box), "nodes", node)
                                for node, box in boxes.items()]
    laid += [Set("width", canvas[0]), Set("height", canvas[1])]
    roomed = with_room(spec.id, spec.path, spec.text, Room(laid, boxes, canvas), root)
    # free labels stay where they are (with_room knows only the nodes): a node moved onto
    # one would trade one overlap for another
    free = [box for key, box in moved.items() if isinstance(key, tuple) and key[0] == "label"]
    if any(overlaps(roomed.boxes[n], label, 0.0) and not overlaps(boxes[n], label, 0.0)
           for n in boxes for label in free):
        roomed = Room(laid, boxes, canvas)
    same = roomed.boxes == boxes and tuple(roomed.canvas) == tuple(canvas)
    left = crowded if same else roomed.crowded
    result.crowded = [i + 1 for i in left]
    if same:
        return edits
    result.roomed = [i + 1 for i in crowded if i not in left]
    result.room_moved = sum(roomed.boxes[n] != boxes[n] for n in boxes)
    if tuple(roomed.canvas) != tuple(canvas):
        result.canvas = (roomed.canvas[0], roomed.canvas[1])
    given = {node["id"]: [_number(v) for v in node["box"]] for node in nodes}
    kept = _but_boxes(edits)
    kept += [Set("box", [_number(v) for v in box], "nodes", node)
             for node, box in roomed.boxes.items() if [_number(v) for v in box] != given[node]]
    if result.canvas:
        kept += [Set(name, _number(value)) for name, value in zip(
            ("width", "height"), result.canvas, strict=True) if _number(value) != data[name]]
    return kept


def _but_boxes(edits: list[Set]) -> list[Set]:
    """The edits but those of the nodes' boxes and of the canvas's size."""
    return [e for e in edits if not (e.field == "box" and e.section == "nodes")
            and not (e.section is None and e.field in ("width", "height"))]


def _titles(groups: list[dict], boxes: dict, sizes: dict, new: dict) -> dict[str, tuple]:
    """Each group's title size (its own, or the measured one if larger); a frame whose
    title grew is added to `boxes` (as ("frame", id)) with its new size in `new`, so that
    what lies beyond it moves."""
    titles = {}
    for group in groups:
        old = tuple(group.get("title_box") or (0, 0))
        title = needed((0, 0, *old), sizes[("group", group["id"])], False)
        titles[group["id"]] = title
        members = [boxes[n] for n in group.get("nodes") or [] if n in boxes]
        if not members or title == old:
            continue
        before = frame_of(members, old).box
        after = frame_of(members, title).box
        boxes[("frame", group["id"])] = before
        # The frame grows to the right (a wider title) and its members move down by as
        # much as the title grew taller: the title band is a box above them.
        new[("frame", group["id"])] = (after[2], before[3])
        band = (before[0], before[1], before[2], TITLE_INSET + old[1])
        boxes[("band", group["id"])] = band
        new[("band", group["id"])] = (band[2], band[3] + title[1] - old[1])
    return titles


def _box_edits(nodes: list[dict], labels: list[dict], boxes: dict, moved: dict,
               result: Fitted) -> list[Set]:
    edits = []
    for node in nodes:
        box = moved[node["id"]]
        if box != boxes[node["id"]]:
            edits.append(Set("box", [_number(v) for v in box], "nodes", node["id"]))
            if box[2:] != boxes[node["id"]][2:]:
                result.grown.append(f"node {node['id']}")
                result.grown_items.append(("node", str(node["id"])))
            else:
                result.moved += 1
    for i in range(len(labels)):
        box = moved[("label", i)]
        if box[:2] != boxes[("label", i)][:2]:
            edits.append(Set("box", [_number(v) for v in box[:3]], "labels", i))
            result.moved += 1
    return edits


def _label_widths(edits: list[Set], labels: list[dict], moved: dict, sizes: dict,
                  result: Fitted) -> list[Set]:
    """`edits` with each free label narrower than its longest text on one line widened to
    the right (on the 10 px grid), where it is: what lies beyond it does not move (a label
    stands aside, over the drawing's gaps). Its height follows its text."""
    for i, label in enumerate(labels):
        x, y, w, _ = moved[("label", i)]
        need = math.ceil(sizes[("label", i)][0] / (2 * GRID)) * 2 * GRID
        if need > w:
            edits = [e for e in edits if (e.section, e.element) != ("labels", i)]
            edits.append(Set("box", [_number(v) for v in (x, y, need)], "labels", i))
            result.grown.append(f"label {label.get('text')}")
            result.grown_items.append(("label", str(label.get("text"))))
    return edits


def _number(value: float) -> int | float:
    value = round(value, 1)
    return int(value) if float(value).is_integer() else value


def room_said(fitted: Fitted) -> str:
    """What `figure fit` did for the edge labels with no free place, in English."""
    def edges(numbers: list[int]) -> str:
        return ", ".join(f"edge {n}'s label" for n in numbers)
    said = ""
    if fitted.roomed and not fitted.room_moved and fitted.canvas:
        said += (f" Made room for {edges(fitted.roomed)}: grew the canvas to "
                 f"{_number(fitted.canvas[0])} × {_number(fitted.canvas[1])} px.")
    elif fitted.roomed:
        said += (f" Made room for {edges(fitted.roomed)}: moved {fitted.room_moved} "
                 f"box{'es' * (fitted.room_moved != 1)}.")
    if fitted.crowded:
        said += (f" Still no free place for {edges(fitted.crowded)}: move the boxes apart, "
                 "or slide it along its edge (label_at).")
    return said


def too_wide_now(fitted: Fitted) -> float | None:
    """The canvas's new width, if fit made it wider than a page."""
    return fitted.canvas[0] if fitted.canvas and fitted.canvas[0] > PAGE_WIDTH else None


def wide_said(fitted: Fitted) -> str:
    """What `figure fit` says of a canvas it made wider than a page, in English."""
    width = too_wide_now(fitted)
    return "" if width is None else (f" {too_wide(width)} Shorter texts, or boxes moved in "
                                     "the figure editor where there is room, narrow it.")


def report_fit(root: Path, fitted: Fitted) -> int:
    where = fitted.path.relative_to(root)
    room = room_said(fitted)
    if not fitted.grown and not fitted.roomed:
        print(f"{where}: every box fits its texts already (texts {fitted.measured}); "
              f"nothing changed.{room}")
        return 0
    moved = f", moved {fitted.moved} other box{'es' * (fitted.moved != 1)}" \
        if fitted.moved else ""
    canvas = (f"; canvas now {fitted.canvas[0]:g} × {fitted.canvas[1]:g}"
              if fitted.canvas else "")
    grew = f": grew {', '.join(fitted.grown)}{moved}" if fitted.grown else ""
    print(f"Fitted {where} to its texts (texts {fitted.measured}){grew}{canvas}.{room}")
    if wide := wide_said(fitted):
        print(wide.lstrip())
    print(f"Next: `{command()} check` measures that every text fits.")
    return 0
