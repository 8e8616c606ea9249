"""`python build.py figure layout ID`: place a spec's draft nodes (those without `box`).

Each draft gets a box as large as its longest text in any language and either diagram
style (figures/sizes.py), placed by the layered layout (geometry/layout.py) along the
edges that name their ends (`{from: a, to: b}`) and the spec's `direction`. Boxes already
placed stay; the drafts go beside them. A spec without `width` and `height` gets the
canvas that holds every box. The boxes are written into the spec through the spec writer
(figures/spec_edit.py): only the drafts' lines, and the canvas size, change.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..geometry import PAGE_WIDTH
from ..geometry.crossings import count
from ..geometry.frames import frame_of, margins
from ..geometry.layout import (
    beside,
    extent_of,
    layout,
    sides_along,
    sides_between_rows,
    snap,
)
from ..geometry.route import Ends, route_edges
from ..geometry.untangle import untangle
from ..load.config import load_site
from ..load.edge_ends import is_feedback, split_end
from ..load.figures import FIGURE_ID, LABEL_HEIGHT, FigureFile, check_keys, load_figure
from ..load.sourcefiles import parse_yaml, read_source
from ..load.theme import load_figure_texts, load_templates
from ..problems import Problems, UsageError, command, did_you_mean, hint
from ..translate.dictionary_file import add_entries, write_atomically
from .label_room import Room, with_room
from .room import Draft, place_rules
from .sizes import Texts, box_sizes
from .spec_edit import Set, edit_file, intended

UNPLACED = "not placed yet (no 'box')"
UNSIZED = "not sized yet (no 'label_box' or 'title_box')"
NO_ROUTE = "no route keeps"
FRAME_MARGIN = 20.0   # px at least between a group's frame and the canvas's top and left
FEW = 3   # crossings a fold may keep without its other lean being tried (_fewer_crossings)


@dataclass
class Placed:
    """What `figure layout` did, for the message it prints."""

    path: Path
    boxes: dict[str, tuple[float, float, float, float]]
    canvas: tuple[float, float] | None   # set by the command, or None (the spec's own)
    measured: str                        # how the texts were measured
    outside: tuple[float, float] | None = None   # where the boxes reach, beyond the canvas
    narrow: list = field(default_factory=list)   # placed boxes a word overflows (sizes.py)
    sized: int = 0                       # edge labels and group titles sized
    crossings: int = 0                   # edges that cross, routed as the build does
    crowded: list = field(default_factory=list)   # edges (from 1) whose labels found no room
    sideways: tuple | None = None        # (direction, crossings, canvas): the other way, if fewer
    turned: int | None = None            # the direction set: how many named sides dropped
    pointed: list = field(default_factory=list)   # laid out anew: the edges given by points
    keyed: list = field(default_factory=list)   # the text keys given to draft nodes
    added: list = field(default_factory=list)   # …of them added to the dictionary
    direction: str = "right"             # the spec's direction
    rules: list = field(default_factory=list)   # the draft labels, dividers and lifelines
    #                                              placed, as the message names them


def too_wide(width: float) -> str:
    """What a canvas wider than a page shows (the theme's figure.css) means."""
    return (f"The canvas is {width:g} px wide, more than the {PAGE_WIDTH:g} px a page shows: "
            "it will scroll sideways.")


def spec_path(root: Path, figure_id: str) -> Path:
    if not FIGURE_ID.match(figure_id):
        raise UsageError(f"'{figure_id}' is not a valid figure id: use lower-case letters, "
                         "digits and hyphens, starting with a letter or digit")
    return root / "figures" / f"{figure_id}.yaml"


def end_of(value: Any) -> str | None:
    """The node an edge's end names: `actor` or `actor.right`."""
    return value.split(".", 1)[0] if isinstance(value, str) else None


def load_spec(root: Path, figure_id: str, again: bool = False
              ) -> tuple[str, dict, Any, Any]:
    """The spec's text and data, the site and the dictionary, refusing a spec with any
    problem other than its drafts (BuildError); with `again` (the boxes are to be
    placed anew), edges without a route too."""
    path = spec_path(root, figure_id)
    if not path.is_file():
        known = [spec.stem for spec in path.parent.glob("*.yaml")]
        raise UsageError(f"figures/{figure_id}.yaml not found"
                         f"{hint(did_you_mean(figure_id, known))}: `{command()} figure new "
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
        if again and NO_ROUTE in problem.message:
            continue
        if UNPLACED not in problem.message and UNSIZED not in problem.message and \
                "missing the field 'width'" not in \
                problem.message and "missing the field 'height'" not in problem.message:
            problems.add(path, problem.line, problem.message,
                         key=problem.key, language=problem.language)
    problems.raise_if_any()
    return text, data, site, dictionary


def texts_of(site, dictionary, nodes: list[dict], edges: dict[int, dict],
             groups: list[dict]) -> list[Texts]:
    """What each box shows in each language: the nodes' texts, the edges' labels (by
    ("edge", index)) and the groups' titles (by ("group", id))."""
    def text(key: str, code: str) -> str:
        return dictionary.texts[key][code]
    items = [Texts(node["id"], language.lang, text(node["text"], language.code),
                   text(node["sub"], language.code) if node.get("sub") else None,
                   node.get("class"))
             for node in nodes for language in site.languages]
    items += [Texts(("edge", i), language.lang, text(edge["label"], language.code), None, None,
                    "edge-label") for i, edge in edges.items() for language in site.languages]
    items += [Texts(("group", group["id"]), language.lang, text(group["title"], language.code),
                    None, None, "group-title")
              for group in groups for language in site.languages]
    return items


def place_drafts(root: Path, figure_id: str, browser: bool = True,
                 again: bool = False, direction: str | None = None) -> Placed:
    """Place the drafts of figures/ID.yaml and write their boxes into it; with `again`,
    every node is a draft and the canvas is set anew; `direction` (with `again`): the
    spec's direction set to it, the sides its edges' ends name dropped."""
    text, data, site, dictionary = load_spec(root, figure_id, again)
    turned = _turned(data, direction) if direction is not None else []
    path = spec_path(root, figure_id)
    nodes = [node for node in data.get("nodes") or [] if isinstance(node, dict)]
    drafts = [node for node in nodes if again or node.get("box") is None]
    placed = [tuple(node["box"]) for node in nodes if node not in drafts]
    edges = [edge for edge in data.get("edges") or [] if isinstance(edge, dict)]
    groups = [group for group in data.get("groups") or [] if isinstance(group, dict)]
    labelled = {i: edge for i, edge in enumerate(edges) if isinstance(edge.get("label"), str)
                and (again or edge.get("label_box") is None)}
    titled = [group for group in groups if again or group.get("title_box") is None]
    keyed, entries = draft_keys(figure_id, drafts, dictionary, site.codes)
    sizes, measured, narrow = measure(root, site, dictionary, data, drafts,
                                      (labelled, titled), browser)
    ends = [(end_of(edge.get("from")), end_of(edge.get("to"))) for edge in edges]
    feedback = {end for end, edge in zip(ends, edges) if is_feedback(edge)}
    direction = data.get("direction") or "right"
    label_sizes = {i: tuple(sizes.get(("edge", i)) or edge["label_box"])
                   for i, edge in enumerate(edges) if isinstance(edge.get("label"), str)}
    title_sizes = {group["id"]: tuple(sizes.get(("group", group["id"])) or group["title_box"])
                   for group in groups}
    job = _Job(data, [node["id"] for node in drafts], placed, _placed_boxes(nodes), edges,
               groups, ends, direction, feedback, sizes, label_sizes, title_sizes, again)
    sized = keyed + turned + _size_edits(sizes, labelled, titled)
    chosen = _arranged(job)
    if not placed and direction in ("right", "left"):
        chosen = _fewer_crossings(job, sized, chosen)
    edits, boxes, canvas, rules = _edits(job, chosen, sized), chosen.boxes, chosen.canvas, \
        chosen.rules
    crowded: tuple[int, ...] = ()
    if not placed and canvas is not None and label_sizes and not rules:   # rules span it
        edits, boxes, canvas, crowded = with_room(figure_id, path, text,
                                                  Room(edits, boxes, canvas), root)
    every = placed + list(boxes.values())
    titles = [frame.title for frame in frames(groups, {**dict(job.placed_boxes), **boxes},
                                              title_sizes)]
    width, height = canvas or (data["width"], data["height"])
    if edits:
        edit_file(path, edits, expected=text, aside=root)
    if entries:   # after the spec: a spec refused leaves the dictionary as it was
        write_atomically(dictionary.path, add_entries(dictionary.source or "{}\n", entries),
                         root)
    result = Placed(path, boxes, canvas, measured, narrow=narrow, direction=direction,
                    sized=len(labelled) + len(titled), added=list(entries),
                    keyed=[edit.value for edit in keyed if edit.field == "text"],
                    rules=[named(edit, data) for edit in rules if edit.field == "box"],
                    crossings=crossings_left(intended(data, edits), boxes, (width, height),
                                             titles),
                    crowded=[number + 1 for number in crowded])
    result.outside = outside(every, (width, height))
    result.turned = len(turned) - 1 if turned else None
    result.pointed = [number + 1 for number, edge in enumerate(edges)
                      if again and edge.get("points") is not None]
    if not placed and result.crossings:
        result.sideways = _sideways(job, sized, result.crossings)
    return result


def _turned(data: dict, direction: str) -> list[Set]:
    """The edits that set the spec's direction and drop the sides its edges' ends name
    (a side chosen for one direction means nothing along another), made in `data` too."""
    data["direction"] = direction
    edits = [Set("direction", direction)]
    for number, edge in enumerate(data.get("edges") or []):
        for key in ("from", "to"):
            if isinstance(edge, dict) and isinstance(edge.get(key), str) and "." in edge[key]:
                edge[key] = edge[key].split(".", 1)[0]
                edits.append(Set(key, edge[key], "edges", number))
    return edits


def _sideways(job: _Job, sized: list[Set], crossed: int) -> tuple | None:
    """A drawing whose edges cross laid out along the other axis, rightwards if it runs
    down or up the page, else down it: that direction, its crossings and canvas, if
    fewer cross. (A tree too wide for the page down it sends boxes to later layers,
    away from their parents, where rightwards its layers are columns; a graph folded
    into rows rightwards has edges from row to row, where down the page it may need no
    fold: rlhf-loop of bench/layout_drafts.py, 3 crossings rightwards, 1 down.)"""
    other = "right" if job.direction in ("down", "up") else "down"
    turned = replace(job, direction=other)
    arranged = _arranged(turned)
    if other == "right":
        arranged = _fewer_crossings(turned, sized, arranged)
    fewer = _crossed(turned, sized, arranged)
    canvas = arranged.canvas or extent_of(list(arranged.boxes.values())
                                          + [frame.box for frame in arranged.frames])
    return (other, fewer, canvas) if fewer < crossed else None


@dataclass(frozen=True)
class _Job:
    """What `figure layout` lays out: the spec, its drafts' ids and sizes, the boxes
    already placed, and what the layout is given of the edges and groups."""

    data: dict
    drafts: list[str]
    placed: list[tuple]
    placed_boxes: list[tuple[str, tuple]]
    edges: list[dict]
    groups: list[dict]
    ends: list[tuple]
    direction: str
    feedback: set
    sizes: dict
    label_sizes: dict
    title_sizes: dict
    again: bool

    @property
    def framing(self) -> dict:
        """Each group's members and the margins its frame needs round them, along the
        job's direction."""
        return {group["id"]: (group.get("nodes") or [], margins(
            self.title_sizes[group["id"]], _inner_labels(group, self.ends, self.label_sizes),
            self.direction)) for group in self.groups}


@dataclass(frozen=True)
class _Arranged:
    """A layout of a job's drafts: their boxes, the groups' frames, the canvas to set
    (None: the spec's own), the draft rules' edits and the sides chosen."""

    boxes: dict[str, tuple]
    frames: list
    canvas: tuple[float, float] | None
    rules: list
    sides: dict[int, tuple[str, str]]
    lean: int   # how a fold's layers lean toward its rows (geometry/layout.py)


def _arranged(job: _Job, lean: int | None = None, other_than: dict | None = None
              ) -> _Arranged | None:
    """The drafts laid out (geometry/layout.py, `lean` for a fold's rows), beside the
    boxes placed before, and the sides of their edges chosen; None if the boxes are
    `other_than` (their sides would be chosen as they were: not chosen again)."""
    laid = layout(job.drafts, job.sizes, job.ends, job.direction, job.feedback,
                  groups=job.framing, labels=job.label_sizes, lean=lean)
    boxes = clear_of_frames(beside(laid, job.placed, job.direction), job.placed, job.groups,
                            job.title_sizes)
    if boxes == other_than:
        return None
    every_box = {**dict(job.placed_boxes), **boxes}
    found = frames(job.groups, every_box, job.title_sizes)
    canvas, rules = canvas_and_rules(job.data, job.again, job.placed + list(boxes.values())
                                     + [frame.box for frame in found], job.sizes)
    rows = sides_between_rows(laid, laid.row, job.ends, job.direction)
    sides = rows if job.placed else untangled(
        job.data, every_box, canvas or (job.data["width"], job.data["height"]), found,
        job.label_sizes, {**sides_along(laid, job.ends, job.direction, job.feedback),
                          **laid.outer, **rows})
    return _Arranged(boxes, found, canvas, rules, sides, laid.lean)


def _edits(job: _Job, chosen: _Arranged, sized: list[Set]) -> list[Set]:
    """The spec's edits for a layout: the boxes, `sized` (keys and sizes given), the
    draft rules, the canvas and the sides."""
    edits = [Set("box", [_number(v) for v in box], "nodes", name)
             for name, box in chosen.boxes.items()]
    edits += sized + chosen.rules
    if chosen.canvas is not None:
        edits += [Set("width", _number(chosen.canvas[0])),
                  Set("height", _number(chosen.canvas[1]))]
    sides = _side_edits(job.edges, chosen.sides)
    chosen_ends = {(edit.element, edit.field) for edit in sides}
    return [edit for edit in edits if edit.section != "edges"   # (a side dropped: chosen)
            or (edit.element, edit.field) not in chosen_ends] + sides


def _fewer_crossings(job: _Job, sized: list[Set], chosen: _Arranged) -> _Arranged:
    """A folded layout whose edges still cross more than FEW times once their sides are
    chosen, against the same fold with its layers leaning toward the rows the other way
    (geometry/layout.py `lean`: with 2, a box with an edge of its own to a later row
    last in its layer): the one whose routes cross fewer (the layout guesses from routes
    before the sides are chosen, and misses some). Where leaning the other way gives the
    same boxes, their sides are not chosen again. A fold left with FEW crossings or
    fewer is kept as it is, for half the time: of 17 such (bench/layout_leans.py), the
    other lean crossed fewer in 2, by one each; of 85 with more, in 27, by 78 in all."""
    first = _crossed(job, sized, chosen)
    if first <= FEW:
        return chosen
    other = _arranged(job, lean=3 - chosen.lean, other_than=chosen.boxes)
    return other if other is not None and _crossed(job, sized, other) < first else chosen


def _crossed(job: _Job, sized: list[Set], arranged: _Arranged) -> int:
    """How many times the edges of a layout cross, routed as the build routes them."""
    canvas = arranged.canvas or (job.data["width"], job.data["height"])
    return crossings_left(intended(job.data, _edits(job, arranged, sized)),
                          arranged.boxes, canvas, [f.title for f in arranged.frames])


def outside(boxes: list[tuple], canvas: tuple[float, float]) -> tuple[float, float] | None:
    """Where the boxes reach, if beyond the canvas."""
    right = max((x + w for x, _, w, _ in boxes), default=0)
    bottom = max((y + h for _, y, _, h in boxes), default=0)
    return (right, bottom) if right > canvas[0] or bottom > canvas[1] else None


def measure(root: Path, site, dictionary, data: dict, drafts: list[dict],
            labelled_titled: tuple[dict, list], browser: bool) -> tuple[dict, str, list]:
    """The sizes of the drafts' boxes, the edge labels and group titles to size, and the
    draft labels (by key as texts_of and label_texts name them); how they were measured;
    and the placed nodes a word or phrase of theirs overflows."""
    nodes = [node for node in data.get("nodes") or [] if isinstance(node, dict)]
    items = texts_of(site, dictionary, drafts, *labelled_titled)
    items += label_texts(site, dictionary, data)
    placed_texts = tuple((item, float(node["box"][2]), language.code)
                         for node in nodes if node not in drafts
                         for item, language in zip(texts_of(site, dictionary, [node], {}, []),
                                                   site.languages, strict=True))
    return box_sizes(items, css_of(root), browser, placed_texts) \
        if items or placed_texts else ({}, "", [])


def canvas_and_rules(data: dict, again: bool, solid: list[tuple], sizes: dict
                     ) -> tuple[tuple[float, float] | None, list[Set]]:
    """The canvas to set (None: the spec's own holds everything) and the edits placing
    the draft labels, dividers and lifelines among the `solid` boxes."""
    reach = extent_of(solid)
    canvas = None
    if again or data.get("width") is None or data.get("height") is None:
        canvas = reach if again else (data.get("width") or reach[0],
                                      data.get("height") or reach[1])
    rules, grown = rule_edits(data, solid, sizes, canvas or (data["width"], data["height"]))
    return (grown if grown is not None else canvas), rules


def draft_keys(figure_id: str, drafts: list[dict], dictionary, codes: list[str]
               ) -> tuple[list[Set], dict[str, dict[str, str]]]:
    """A draft node without `text` gets the key FIGURE-ID (and `sub: FIGURE-ID-sub` if the
    dictionary has that key): the spec's edits, and the dictionary's new entries (for a
    key it lacks: the node's id in every language, a placeholder not yet translated).
    The drafts and the dictionary are given the keys in memory too, to be measured."""
    edits, entries = [], {}
    for node in drafts:
        if node.get("text") is not None or not isinstance(node.get("id"), str):
            continue
        key = node["text"] = f"{figure_id}-{node['id']}"
        edits.append(Set("text", key, "nodes", node["id"]))
        if key not in dictionary.texts:
            entries[key] = {code: node["id"] for code in codes}
            dictionary.texts[key] = dict(entries[key])
        if node.get("sub") is None and f"{key}-sub" in dictionary.texts:
            node["sub"] = f"{key}-sub"
            edits.append(Set("sub", node["sub"], "nodes", node["id"]))
    return edits, entries


def label_texts(site, dictionary, data: dict, every: bool = False) -> list[Texts]:
    """The texts of the draft labels (those without `box`; `every`: all the labels), by
    ("label", index)."""
    return [Texts(("label", i), language.lang, dictionary.texts[label["text"]][language.code],
                  None, label.get("class"), "label")
            for i, label in enumerate(data.get("labels") or [])
            if isinstance(label, dict) and (every or label.get("box") is None)
            for language in site.languages]


def rule_edits(data: dict, solid: list[tuple], sizes: dict, canvas: tuple[float, float]
               ) -> tuple[list[Set], tuple[float, float] | None]:
    """The boxes of the draft labels, dividers and lifelines (figures/room.py), and the
    canvas grown to hold them (None if it holds them already)."""
    drafts = [Draft(name, i, (sizes[("label", i)][0], LABEL_HEIGHT.get(
                    entry.get("class"), LABEL_HEIGHT[None])) if name == "labels" else (0, 0))
              for name in ("labels", "dividers", "lifelines")
              for i, entry in enumerate(data.get(name) or [])
              if isinstance(entry, dict) and entry.get("box") is None]
    if not drafts:
        return [], None
    def given(name: str) -> list[tuple[list, Any]]:
        return [(entry["box"], entry.get("class")) for entry in data.get(name) or []
                if isinstance(entry, dict) and isinstance(entry.get("box"), list)]
    solid = solid + [(x, y, w, LABEL_HEIGHT.get(cls, LABEL_HEIGHT[None]))
                     for (x, y, w), cls in given("labels")]
    rules = {"dividers": [(x, y - 5, w, 10) for (x, y, w), _ in given("dividers")],
             "lifelines": [(x - 5, y, 10, h) for (x, y, h), _ in given("lifelines")]}
    boxes, grown = place_rules(drafts, solid, rules, canvas)
    edits = [Set("box", [_number(v) for v in box], section, index)
             for (section, index), box in boxes.items()]
    return edits, (grown if grown != tuple(canvas) else None)


def named(edit: Set, data: dict) -> str:
    """How `figure layout`'s message names a label, divider or lifeline it placed."""
    if edit.section == "labels":
        return f"label '{data['labels'][edit.element]['text']}'"
    return f"{edit.section[:-1]} {edit.element + 1}"


def _size_edits(sizes: dict, labelled: dict, titled: list[dict]) -> list[Set]:
    """The measured sizes of the edge labels and group titles that had none."""
    edits = [Set("label_box", [_number(v) for v in sizes[("edge", i)]], "edges", i)
             for i in labelled]
    return edits + [Set("title_box", [_number(v) for v in sizes[("group", group["id"])]],
                        "groups", group["id"]) for group in titled]


def _placed_boxes(nodes: list[dict]) -> list[tuple[str, tuple]]:
    return [(node["id"], tuple(node["box"])) for node in nodes
            if isinstance(node.get("box"), list)]


def frames(groups: list[dict], boxes: dict[str, tuple], titles: dict[str, tuple]
           ) -> list:
    """The frames of the groups whose members all have boxes."""
    found = []
    for group in groups:
        members = [boxes[n] for n in group.get("nodes") or [] if n in boxes]
        if members and len(members) == len(group.get("nodes") or []):
            found.append(frame_of(members, titles[group["id"]]))
    return found


def clear_of_frames(boxes: dict[str, tuple], placed: list, groups: list[dict],
                    titles: dict[str, tuple]) -> dict[str, tuple]:
    """The new boxes moved right and down as far as their groups' frames need to stay
    FRAME_MARGIN px inside the canvas (when no box was placed before)."""
    if placed or not boxes:
        return boxes
    found = [frame.box for frame in frames(groups, boxes, titles)]
    dx = max(0.0, FRAME_MARGIN - min((x for x, *_ in found), default=FRAME_MARGIN))
    dy = max(0.0, FRAME_MARGIN - min((y for _, y, *_ in found), default=FRAME_MARGIN))
    return {n: (snap(x + dx), snap(y + dy), w, h) for n, (x, y, w, h) in boxes.items()}


def _side_edits(edges: list[dict], sides: dict[int, tuple[str, str]]) -> list[Set]:
    """The edges' ends that name no side, given the side chosen for them (by
    `untangled`, or between the rows of a folded draft `sides_between_rows`)."""
    edits = []
    for number, chosen in sorted(sides.items()):
        edge = edges[number]
        if edge.get("points") is not None:
            continue
        for key, side in zip(("from", "to"), chosen, strict=True):
            if side is not None and isinstance(edge.get(key), str) and "." not in edge[key]:
                edits.append(Set(key, f"{edge[key]}.{side}", "edges", number))
    return edits


def _asked(data: dict, nodes: dict) -> tuple[list[int], list[Ends]]:
    """The spec's edges that the build routes (they name their ends, no points), by
    their number, and their ends."""
    numbers, asked = [], []
    for number, edge in enumerate(data.get("edges") or []):
        if isinstance(edge, dict) and edge.get("points") is None and edge.get("from") \
                and edge.get("to"):
            (source, source_side), (target, target_side) = (
                split_end(str(edge["from"]), nodes), split_end(str(edge["to"]), nodes))
            if source in nodes and target in nodes:
                numbers.append(number)
                asked.append(Ends(source, target, source_side, target_side,
                                  is_feedback(edge)))
    return numbers, asked


def untangled(data: dict, boxes: dict, canvas: tuple[float, float], found: list,
              label_sizes: dict, start: dict[int, tuple[str, str]]
              ) -> dict[int, tuple[str, str]]:
    """The sides for the ends that name none that leave the fewest crossings, routes
    round the outside and labels with no free place (geometry/untangle.py), beginning
    from `start`'s (by edge number); `found`: the groups' frames, `label_sizes`: edge
    number -> its label's size."""
    nodes = {node["id"]: tuple(boxes.get(node["id"]) or node["box"])
             for node in data.get("nodes") or [] if isinstance(node, dict)
             and (node.get("id") in boxes or node.get("box") is not None)}
    labels = [(*label["box"], LABEL_HEIGHT.get(label.get("class"), LABEL_HEIGHT[None]))
              for label in data.get("labels") or [] if isinstance(label, dict)]
    numbers, asked = _asked(data, nodes)
    feedback = frozenset(k for k, ends in enumerate(asked) if ends.around)
    chosen = untangle(nodes, asked, labels + [tuple(frame.title) for frame in found],
                      bounds=(0.0, 0.0, *canvas), outside_ok=feedback,
                      start={numbers.index(n): v for n, v in start.items() if n in numbers},
                      labels=[label_sizes.get(n) for n in numbers],
                      frames=[frame.box for frame in found])
    return {numbers[k]: sides for k, sides in chosen.items()}


def crossings_left(data: dict, boxes: dict, canvas: tuple[float, float],
                   titles: list = ()) -> int:
    """How many times the spec's edges cross once the build routes those that name
    their ends (with the boxes placed, the labels and the groups' titles as obstacles,
    inside the canvas)."""
    nodes = {node["id"]: tuple(boxes.get(node["id"]) or node["box"])
             for node in data.get("nodes") or [] if isinstance(node, dict)
             and (node.get("id") in boxes or node.get("box") is not None)}
    labels = [(*label["box"], LABEL_HEIGHT.get(label.get("class"), LABEL_HEIGHT[None]))
              for label in data.get("labels") or [] if isinstance(label, dict)]
    labels += [tuple(title) for title in titles]
    edges = [edge for edge in data.get("edges") or [] if isinstance(edge, dict)]
    _, asked = _asked(data, nodes)
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


def _inner_labels(group: dict, ends: list, label_sizes: dict) -> list:
    """The label sizes of the edges between the group's members (geometry/frames.py
    `margins` leaves room for them)."""
    members = set(group.get("nodes") or [])
    return [size for i, size in label_sizes.items()
            if ends[i][0] in members and ends[i][1] in members]
