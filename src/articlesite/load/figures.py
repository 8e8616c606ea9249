"""Figures: coordinate specs (`figures/<id>.yaml`) loaded into geometry, then transformed.

A spec gives the canvas size, nodes, edges (polylines), labels, dividers and lifelines
in the author's coordinates, and declarative transforms. Transforms are functions on
coordinates, applied once at load time; rendering only places what it is given.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from ..problems import Problems, command, did_you_mean, hint
from .edge_ends import check_ends, edge_geometry
from .edge_labels import EdgeLabel, edge_labels
from .groups import Group, check_groups, framed, holding_labels
from .schema import (
    Context,
    ListOf,
    Record,
    Refused,
    Value,
    all_numbers,
    choice,
    flag,
    is_number,
    positive,
)
from .sourcefiles import CHANGED, SourceChanged, parse_yaml, read_again, read_source
from .texts import Dictionary

FIGURE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*\Z")
# The narrowest width a printed figure must fit: A4 portrait with the 15 mm margins that
# style.css sets (180 mm = 680 CSS px); Letter is wider.
PRINT_WIDTH = 680.0
NODE_CLASSES = ("soft", "accent")
DIRECTIONS = ("right", "down", "left", "up")   # where a first draft's edges point
EDGE_CLASSES = ("cache", "feedback")
LABEL_CLASSES = ("stage", "task-title", "math")
# A label's height: one line of its class as templates/figure.css sets it (font size ×
# line height 1.45 + 6 px padding); what a label covers for the checks and the router.
LABEL_HEIGHT = {None: 25.0, "stage": 28.0, "task-title": 31.0, "math": 32.0}


@dataclass(frozen=True)
class Node:
    id: str
    x: float
    y: float
    w: float
    h: float
    text: str                 # dictionary key
    sub: str | None = None    # dictionary key
    cls: str | None = None
    link: str | None = None   # section id
    line: int | None = None


@dataclass(frozen=True)
class Segment:
    """One straight piece of an edge, from (x1, y1) to (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float
    cls: str | None = None
    arrow: bool = False

    @property
    def length(self) -> float:
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def angle(self) -> float:
        return math.degrees(math.atan2(self.y2 - self.y1, self.x2 - self.x1))


@dataclass(frozen=True)
class Edge:
    points: tuple[tuple[float, float], ...]
    cls: str | None = None
    arrow: bool = True
    line: int | None = None
    # The nodes an edge names (`from`, `to`), whose points the build routed; None when
    # the spec gives the points.
    source: str | None = None
    target: str | None = None
    # Its label (a dictionary key), the label's size and where along the route it sits
    # (None: where geometry/labels.py finds room); placed in Figure.edge_labels.
    label: str | None = None
    label_size: tuple[float, float] | None = None
    label_at: float | None = None

    @cached_property
    def segments(self) -> list[Segment]:
        pairs = list(zip(self.points, self.points[1:]))
        return [Segment(a[0], a[1], b[0], b[1], self.cls, self.arrow and i == len(pairs) - 1)
                for i, (a, b) in enumerate(pairs)]


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    w: float
    text: str
    cls: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class Rule:
    """A divider (horizontal, `length` is its width) or a lifeline (vertical)."""

    x: float
    y: float
    length: float
    vertical: bool
    line: int | None = None


@dataclass
class Figure:
    id: str
    path: Path
    title: str                # dictionary key
    caption: str              # dictionary key
    width: float
    height: float
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    edge_labels: list[EdgeLabel] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    key_lines: dict[str, int | None] = field(default_factory=dict)
    direction: str = "right"   # where a first draft's edges point (figures/layout)
    # the keys of what is not drawn yet: nodes with no box, edges not routed (key, element, line)
    drafted: list[tuple[str, str, int | None]] = field(default_factory=list)
    # What its edges join, found when first rendered (render/connections.py: connections_of).
    connections: list | None = field(default=None, repr=False, compare=False)

    @property
    def print_scale(self) -> float:
        """How much the canvas shrinks in print so that it fits the paper whole."""
        return min(1.0, PRINT_WIDTH / self.width)

    def used_keys(self) -> list[tuple[str, str, int | None]]:
        """Every dictionary key the figure uses: (key, element, line)."""
        used = [(self.title, "title", self.key_lines.get("title")),
                (self.caption, "caption", self.key_lines.get("caption"))]
        for node in self.nodes:
            used.append((node.text, f"node {node.id}", node.line))
            if node.sub:
                used.append((node.sub, f"node {node.id} subtitle", node.line))
        used.extend((label.text, f"label {label.text}", label.line) for label in self.labels)
        used.extend((edge.label, f"edge {number} label", edge.line)
                    for number, edge in enumerate(self.edges, start=1) if edge.label)
        used.extend((group.title, f"group {group.id}", group.line) for group in self.groups)
        return used + self.drafted


# Transforms ---------------------------------------------------------------------------

def narrow(figure: Figure, ratio: float) -> Figure:
    """Scale every x and every horizontal length by `ratio`; vertical lengths stay."""
    def sx(x: float) -> float:
        return x * ratio
    return _map(figure, sx, _same, width=figure.width * ratio, height=figure.height,
                scale_w=ratio)


def remove_bands(figure: Figure, bands: list[tuple[float, float]]) -> Figure:
    """Remove empty horizontal bands: everything below a band moves up by its height."""
    def sy(y: float) -> float:
        removed = 0.0
        for start, end in bands:
            if y > start:
                removed += min(end, y) - start
        return y - removed
    return _map(figure, _same, sy, width=figure.width, height=sy(figure.height),
                scale_w=1.0)


def _same(value: float) -> float:
    return value


def _map(figure: Figure, sx: Callable[[float], float], sy: Callable[[float], float], *,
         width: float, height: float, scale_w: float) -> Figure:
    """The figure with every coordinate mapped. (Each element is made anew, field by
    field: dataclasses.replace is several times slower, and a figure has tens.)"""
    nodes = [Node(n.id, sx(n.x), sy(n.y), n.w * scale_w, n.h, n.text, n.sub, n.cls, n.link,
                  n.line) for n in figure.nodes]
    edges = [Edge(tuple([(sx(x), sy(y)) for x, y in e.points]), e.cls, e.arrow, e.line,
                  e.source, e.target, e.label, e.label_size, e.label_at)
             for e in figure.edges]
    labels = [Label(sx(lb.x), sy(lb.y), lb.w * scale_w, lb.text, lb.cls, lb.line)
              for lb in figure.labels]
    rules = [Rule(sx(r.x), sy(r.y), sy(r.y + r.length) - sy(r.y) if r.vertical
                  else r.length * scale_w, r.vertical, r.line) for r in figure.rules]
    return replace(figure, width=width, height=height, nodes=nodes, edges=edges,
                   labels=labels, rules=rules,
                   edge_labels=[lb.moved(sx, sy, scale_w) for lb in figure.edge_labels],
                   groups=[group.moved(sx, sy, scale_w) for group in figure.groups])


# Loading ------------------------------------------------------------------------------

@dataclass(frozen=True)
class FigureFile:
    """A spec as found on disk: read again and parsed only when a page or the check needs
    it (the text is not held in memory meanwhile, only its digest)."""

    id: str
    path: Path
    digest: str

    @property
    def text(self) -> str:
        return read_again(self.path, self.digest)


def scan_figures(root: Path, problems: Problems,
                 trusted: dict[str, str] | None = None) -> dict[str, FigureFile]:
    """The spec files, each with its digest (`trusted`: those of files unchanged since a
    build hashed them, by path: not read again)."""
    files = {}
    for path in sorted((root / "figures").glob("*.yaml"), key=lambda p: p.name):
        if not FIGURE_ID.match(path.stem):
            problems.add(path, None, f"figure id '{path.stem}' must be lower-case letters, "
                         "digits and hyphens")
            continue
        known = trusted.get(str(path)) if trusted else None
        if known is not None:
            files[path.stem] = FigureFile(path.stem, path, known)
            continue
        source = read_source(path, problems)
        if source is not None:
            files[path.stem] = FigureFile(path.stem, path, source[1])
    return files


class FigureLibrary:
    """The figures by id, each parsed and checked against the dictionary when first asked
    for. Problems go to `problems`; `clean` maps the digest of every spec that loaded
    without one to the dictionary keys it uses. Keeps the `keep` most recent figures."""

    def __init__(self, files: dict[str, FigureFile], dictionary: Dictionary,
                 problems: Problems, keep: int = 16):
        self.files, self.dictionary, self.problems = files, dictionary, problems
        self.clean: dict[str, tuple[str, ...]] = {}
        self._loaded: OrderedDict[str, Figure | None] = OrderedDict()
        self._keep = keep

    def __contains__(self, figure_id: str) -> bool:
        return figure_id in self.files

    def get(self, figure_id: str) -> Figure | None:
        """The figure, or None if its spec has problems (already reported)."""
        if figure_id in self._loaded:
            self._loaded.move_to_end(figure_id)
            return self._loaded[figure_id]
        file = self.files[figure_id]
        found = len(self.problems)
        try:
            figure = load_figure(file, self.problems)
        except SourceChanged:
            self.problems.add(file.path, None, CHANGED)
            figure = None
        if figure is not None:
            check_keys(figure, self.dictionary, self.problems)
        if len(self.problems) == found and figure is not None:
            self.clean[file.digest] = tuple(key for key, _, _ in figure.used_keys())
        self._loaded[figure_id] = figure
        if len(self._loaded) > self._keep:
            self._loaded.popitem(last=False)
        return figure

    def every(self) -> dict[str, Figure]:
        """Every figure whose spec loads, by id."""
        return {figure_id: figure for figure_id in self.files
                if (figure := self.get(figure_id)) is not None}


def check_keys(figure: Figure, dictionary: Dictionary, problems: Problems) -> None:
    for key, element, line in figure.used_keys():
        if key and key not in dictionary:
            problems.add(figure.path, line, f"{element} uses a key that "
                         f"{dictionary.path.name} lacks"
                         f"{hint(did_you_mean(key, dictionary.texts))}", key=key)


# The spec, declared ---------------------------------------------------------------------

def _key(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError
    return value


def _box(size: int) -> Callable[[Any], tuple[float, ...]]:
    def box(value: Any) -> tuple[float, ...]:
        if (not isinstance(value, list) or len(value) != size or not all_numbers(value)
                or not all(v > 0 for v in value[2:])):
            raise ValueError
        return tuple(map(float, value))
    return box


def _points(value: Any) -> tuple[tuple[float, float], ...]:
    if (not isinstance(value, list) or len(value) < 2 or not all(
            isinstance(p, list) and len(p) == 2 and all_numbers(p) for p in value)):
        raise ValueError
    return tuple((float(p[0]), float(p[1])) for p in value)


def _fraction(value: Any) -> float:
    if not is_number(value) or not 0 <= value <= 1:
        raise ValueError
    return float(value)


def _ids(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError
    return tuple(value)


def _link(value: Any) -> str:
    if not isinstance(value, str) or not FIGURE_ID.match(value):
        raise ValueError
    return value


def _transform(step: Any) -> tuple[str, Any]:
    """One transform: ("narrow", ratio) or ("remove_bands", [(y1, y2), …])."""
    if not isinstance(step, dict) or len(step) != 1:
        raise Refused("a transform is one of 'narrow: RATIO' or 'remove_bands: [[Y1, Y2], …]'")
    (name, value), = step.items()
    if name == "narrow":
        if not is_number(value) or not 0 < value <= 1:
            raise Refused("'narrow' takes a ratio between 0 and 1")
        return name, float(value)
    if name == "remove_bands":
        bands = []
        for band in value if isinstance(value, list) else [None]:
            if (not isinstance(band, list) or len(band) != 2
                    or not all(is_number(v) for v in band) or band[0] >= band[1]):
                raise Refused("'remove_bands' takes a list of [Y1, Y2] with Y1 < Y2")
            bands.append((float(band[0]), float(band[1])))
        return name, bands
    raise Refused(f"unknown transform '{name}' (known: narrow, remove_bands)")


KEY = "'{key}' must be a dictionary key"
BOX = "'box' must be [x, y, width, height] with positive sizes"
LENGTH_BOX = "'box' must be [x, y, length] with positive sizes"
NODE = Record(
    "a node", id=Value(str), box=Value(_box(4), BOX, required=False),
    text=Value(_key, KEY, required=False),   # a draft's is given by `figure layout`
    sub=Value(_key, KEY, required=False),
    **{"class": choice(*NODE_CLASSES, required=False)},
    link=Value(_link, "'link' must be the id of a section of the article", required=False))
END = "'{key}' must be a node id, or a node id and a side: NODE or NODE.SIDE"
SIZE = "'{key}' must be [width, height], both positive"
EDGE = Record(
    "an edge",
    points=Value(_points, "'points' must be a list of at least two [x, y]", required=False),
    **{"from": Value(_key, END, required=False), "to": Value(_key, END, required=False),
       "label": Value(_key, KEY, required=False),
       "label_box": Value(_box(2), SIZE, required=False),
       "label_at": Value(_fraction, "'label_at' must be a number from 0 to 1", required=False),
       "class": choice(*EDGE_CLASSES, required=False)},
    arrow=Value(flag, "'arrow' must be true or false", required=False, default=True))
GROUP = Record(
    "a group", id=Value(_key, "'id' must be a group id"), title=Value(_key, KEY),
    title_box=Value(_box(2), SIZE, required=False),
    nodes=Value(_ids, "'nodes' must be a list of node ids"))
LABEL = Record("a label", text=Value(_key, KEY),
               box=Value(_box(3), LENGTH_BOX, required=False),
               **{"class": choice(*LABEL_CLASSES, required=False)})
SPEC = Record(
    "figure spec",
    title=Value(_key, KEY), caption=Value(_key, KEY),
    width=Value(positive, "'{key}' must be a positive number", required=False),
    height=Value(positive, "'{key}' must be a positive number", required=False),
    direction=choice(*DIRECTIONS, required=False, default="right"),
    transforms=ListOf(Value(_transform), required=False, default=()),
    nodes=ListOf(NODE, required=False, default=()),
    edges=ListOf(EDGE, required=False, default=()),
    groups=ListOf(GROUP, required=False, default=()),
    labels=ListOf(LABEL, required=False, default=()),
    **{name: ListOf(Record(f"an entry of {name}",
                           box=Value(_box(3), LENGTH_BOX, required=False)),
                    required=False, default=()) for name in ("dividers", "lifelines")})


def check_placed(figure_id: str, spec: Any, data: dict, context: Context) -> bool:
    """A node without `box` is a draft: the build refuses it until `figure layout` places
    it (and, if the spec has none, sets the canvas size); a placed figure needs both.
    Whether every node is placed (else edges are not routed: their ends are unknown)."""
    rules = unplaced_rules(spec)
    if rules:
        context.add(rules[0][0], f"{', '.join(what for _, what in rules)} not placed yet "
                    f"(no 'box'): `{command()} figure layout {figure_id}` places "
                    f"{'them' if len(rules) > 1 else 'it'} where there is room", "box")
    drafts = [node for node in spec.get("nodes", ()) if node.ok and node["box"] is None]
    if drafts:
        named = ", ".join(f"'{node['id']}' (line {node.line})" for node in drafts)
        context.add(drafts[0].line, f"{len(drafts)} node{'s' * (len(drafts) > 1)} not placed "
                    f"yet (no 'box'): {named}; `{command()} figure layout {figure_id}` "
                    "places them", "box")
        return False
    unsized = [f"the label of edge {number} (line {edge.line})"
               for number, edge in enumerate(spec.get("edges", ()), start=1)
               if edge.ok and edge["label"] and edge["label_box"] is None
               and edge["points"] is None]
    unsized += [f"the title of group '{group['id']}' (line {group.line})"
                for group in spec.get("groups", ()) if group.ok and group["title_box"] is None]
    if unsized:
        context.add(None, f"{', '.join(unsized)} not sized yet (no 'label_box' or "
                    f"'title_box'): `{command()} figure layout {figure_id}` sizes "
                    "them to their texts")
    for name in ("width", "height"):   # required once every node is placed
        if name not in data:
            context.add(spec.line, f"figure spec is missing the field '{name}'", name)
        elif data[name] is None:
            context.add(spec.line_of(name), f"'{name}' must be a positive number", name)
    return True


RULE_NAMES = {"labels": "label", "dividers": "divider", "lifelines": "lifeline"}


def unplaced_rules(spec: Any) -> list[tuple[int | None, str]]:
    """The labels, dividers and lifelines without `box` (drafts `figure layout` places),
    each with its line and how a message names it: "label 'KEY' (line 9)"."""
    found = []
    for name, what in RULE_NAMES.items():
        for entry in spec.get(name, ()):
            if entry.ok and entry["box"] is None:
                text = f" '{entry['text']}'" if name == "labels" else ""
                found.append((entry.line, f"{what}{text} (line {entry.line})"))
    return found


def _edges(figure: Figure, edges: list, ids: set, problems: Problems) -> list[Edge]:
    """The edges, those that name their ends routed (load/edge_ends.py) clear of the
    labels and group titles; then their labels placed (load/edge_labels.py)."""
    nodes = {node.id: (node.x, node.y, node.w, node.h) for node in figure.nodes}
    labels = [(label.x, label.y, label.w, LABEL_HEIGHT[label.cls]) for label in figure.labels]
    labels += [group.title_box for group in figure.groups]
    found = edge_geometry(edges, nodes, {i for i in ids if isinstance(i, str)}, labels,
                          (figure.width, figure.height), figure.path, problems)
    for number, edge in enumerate(edges, start=1):
        if edge.ok and edge["label"] and edge.get("points") is not None:
            problems.add(figure.path, edge.line_of("label"), f"edge {number} has a label "
                         "but gives its points: only an edge that names its ends ('from', "
                         "'to') has a label; a free label (`labels:`) can stand beside it")
    routed = [Edge(geometry.points, edge["class"], edge["arrow"], edge.line, geometry.source,
                   geometry.target, edge["label"], edge["label_box"], edge["label_at"])
              for edge, geometry in zip(edges, found) if geometry]
    figure.edge_labels = edge_labels(routed, list(nodes.values()) + labels,
                                     (figure.width, figure.height),
                                     [group.box for group in figure.groups])
    figure.groups = holding_labels(figure.groups, routed, figure.edge_labels, nodes,
                                   (0.0, 0.0, figure.width, figure.height))
    return routed


def load_figure(file: FigureFile, problems: Problems) -> Figure | None:
    """The figure of a spec, transformed. A spec with problems still gives a figure
    (the wrong values replaced), so that the build lists what else is wrong with it."""
    path = file.path
    data = parse_yaml(file.text, path, problems)
    if data is None:
        return None
    spec = Context(path, problems).read(SPEC, data)
    if spec is None:
        return None
    lines = spec.key_lines or {}
    placed = check_placed(file.id, spec, data, Context(path, problems))
    figure = Figure(
        id=file.id, path=path, title=spec.get("title", ""), caption=spec.get("caption", ""),
        width=spec.get("width") or 1.0, height=spec.get("height") or 1.0,
        key_lines={key: lines.get(key) for key in ("title", "caption", "width")},
        direction=spec.get("direction") or "right")
    seen: set[str] = set()
    for node in spec.get("nodes", ()):
        if "id" in node and node["id"] in seen:
            problems.add(path, node.line, f"node id '{node['id']}' is used twice")
        seen.add(node.get("id"))
        if node.ok and node["box"] is not None and node["text"] is None:
            problems.add(path, node.line, f"node '{node['id']}' has no 'text': give the "
                         "dictionary key of its text", "text")
        elif node.ok and node["box"] is not None:
            x, y, w, h = node["box"]
            figure.nodes.append(Node(node["id"], x, y, w, h, node["text"], node["sub"],
                                     node["class"], node["link"], node.line))
        elif node.ok:   # a draft: its keys are the figure's too
            for key, element in ((node["text"], f"node {node['id']}"),
                                 (node["sub"], f"node {node['id']} subtitle")):
                if key:
                    figure.drafted.append((key, element, node.line))
    figure.labels = [Label(*label["box"], label["text"], label["class"], label.line)
                     for label in spec.get("labels", ()) if label.ok and label["box"]]
    check_groups(spec.get("groups", ()), {i for i in seen if isinstance(i, str)}, path,
                 problems)
    figure.groups = framed(spec.get("groups", ()),
                           {node.id: (node.x, node.y, node.w, node.h) for node in figure.nodes})
    if placed:
        figure.edges = _edges(figure, spec.get("edges", ()), seen, problems)
    else:   # (drafts: no route yet, but an edge's wrong end or label key is said now)
        check_ends(spec.get("edges", ()), {i for i in seen if isinstance(i, str)}, path,
                   problems)
        figure.drafted += [(edge["label"], f"edge {number} label", edge.line)
                           for number, edge in enumerate(spec.get("edges", ()), start=1)
                           if edge.ok and edge["label"]]
    figure.rules = [Rule(*rule["box"], name == "lifelines", rule.line)
                    for name in ("dividers", "lifelines")
                    for rule in spec.get(name, ()) if rule.ok and rule["box"]]
    for name, value in spec.get("transforms", ()):
        if name == "narrow":
            figure = narrow(figure, value)
        else:
            for node in figure.nodes:
                for start, end in value:
                    if node.y < end and node.y + node.h > start:
                        problems.add(path, node.line, f"node '{node.id}' lies in the removed "
                                     f"band {start:g}–{end:g}: the band is not empty")
            figure = remove_bands(figure, value)
    return figure
