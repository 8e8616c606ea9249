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

from ..problems import Problems
from .sourcefiles import (
    CHANGED,
    SourceChanged,
    check_fields,
    line_of,
    parse_yaml,
    read_again,
    read_source,
)
from .texts import Dictionary

FIGURE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# The narrowest width a printed figure must fit: A4 portrait with the 15 mm margins that
# style.css sets (180 mm = 680 CSS px); Letter is wider.
PRINT_WIDTH = 680.0
NODE_CLASSES = ("soft", "accent")
EDGE_CLASSES = ("cache", "feedback")
LABEL_CLASSES = ("stage", "task-title", "math")


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
    key_lines: dict[str, int | None] = field(default_factory=dict)
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
        return used


# Transforms ---------------------------------------------------------------------------

def narrow(figure: Figure, ratio: float) -> Figure:
    """Scale every x and every horizontal length by `ratio`; vertical lengths stay."""
    def sx(x: float) -> float:
        return x * ratio
    return _map(figure, sx, lambda y: y, width=figure.width * ratio, height=figure.height,
                scale_w=ratio)


def remove_bands(figure: Figure, bands: list[tuple[float, float]]) -> Figure:
    """Remove empty horizontal bands: everything below a band moves up by its height."""
    def sy(y: float) -> float:
        return y - sum(max(0.0, min(y, end) - start) for start, end in bands)
    return _map(figure, lambda x: x, sy, width=figure.width, height=sy(figure.height),
                scale_w=1.0)


def _map(figure: Figure, sx: Callable[[float], float], sy: Callable[[float], float], *,
         width: float, height: float, scale_w: float) -> Figure:
    nodes = [replace(n, x=sx(n.x), y=sy(n.y), w=n.w * scale_w) for n in figure.nodes]
    edges = [replace(e, points=tuple((sx(x), sy(y)) for x, y in e.points))
             for e in figure.edges]
    labels = [replace(lb, x=sx(lb.x), y=sy(lb.y), w=lb.w * scale_w) for lb in figure.labels]
    rules = [replace(r, x=sx(r.x), y=sy(r.y), length=sy(r.y + r.length) - sy(r.y)
                     if r.vertical else r.length * scale_w) for r in figure.rules]
    return replace(figure, width=width, height=height, nodes=nodes, edges=edges,
                   labels=labels, rules=rules)


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


def scan_figures(root: Path, problems: Problems) -> dict[str, FigureFile]:
    files = {}
    for path in sorted((root / "figures").glob("*.yaml"), key=lambda p: p.name):
        if not FIGURE_ID.match(path.stem):
            problems.add(path, None, f"figure id '{path.stem}' must be lower-case letters, "
                         "digits and hyphens")
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
                         f"{dictionary.path.name} lacks", key=key)


def load_figure(file: FigureFile, problems: Problems) -> Figure | None:
    path = file.path
    data = parse_yaml(file.text, path, problems)
    if data is None:
        return None
    if not check_fields(data, path, problems, what="figure spec",
                        required=("title", "caption", "width", "height"),
                        optional=("transforms", "nodes", "edges", "labels", "dividers",
                                  "lifelines")):
        return None
    reader = _Reader(path, problems)
    figure = Figure(
        id=file.id, path=path,
        title=reader.key(data, "title"), caption=reader.key(data, "caption"),
        width=reader.number(data, "width", positive=True),
        height=reader.number(data, "height", positive=True),
        key_lines={"title": line_of(data, "title"), "caption": line_of(data, "caption")},
    )
    seen: set[str] = set()
    for item in reader.items(data, "nodes"):
        if not check_fields(item, path, problems, what="a node", required=("id", "box", "text"),
                            optional=("sub", "class", "link")):
            continue
        node_id = str(item["id"])
        if node_id in seen:
            problems.add(path, line_of(item), f"node id '{node_id}' is used twice")
        seen.add(node_id)
        x, y, w, h = reader.box(item, 4)
        figure.nodes.append(Node(node_id, x, y, w, h, reader.key(item, "text"),
                                 reader.key(item, "sub", optional=True),
                                 reader.choice(item, "class", NODE_CLASSES),
                                 reader.link(item), line_of(item)))
    for item in reader.items(data, "edges"):
        if not check_fields(item, path, problems, what="an edge", required=("points",),
                            optional=("class", "arrow")):
            continue
        points = reader.points(item)
        arrow = item.get("arrow", True)
        if not isinstance(arrow, bool):
            problems.add(path, line_of(item, "arrow"), "'arrow' must be true or false")
        figure.edges.append(Edge(points, reader.choice(item, "class", EDGE_CLASSES),
                                 arrow is not False, line_of(item)))
    for item in reader.items(data, "labels"):
        if not check_fields(item, path, problems, what="a label", required=("text", "box"),
                            optional=("class",)):
            continue
        x, y, w = reader.box(item, 3)
        figure.labels.append(Label(x, y, w, reader.key(item, "text"),
                                   reader.choice(item, "class", LABEL_CLASSES), line_of(item)))
    for name, vertical in (("dividers", False), ("lifelines", True)):
        for item in reader.items(data, name):
            if check_fields(item, path, problems, what=f"an entry of {name}", required=("box",)):
                x, y, length = reader.box(item, 3)
                figure.rules.append(Rule(x, y, length, vertical, line_of(item)))
    for step in reader.items(data, "transforms"):
        figure = _apply(figure, step, reader)
    return figure


def _apply(figure: Figure, step: Any, reader: _Reader) -> Figure:
    path, problems = reader.path, reader.problems
    if not isinstance(step, dict) or len(step) != 1:
        problems.add(path, line_of(step), "a transform is one of 'narrow: RATIO' or "
                     "'remove_bands: [[Y1, Y2], …]'")
        return figure
    (name, value), = step.items()
    if name == "narrow":
        if not _is_number(value) or not 0 < value <= 1:
            problems.add(path, line_of(step), "'narrow' takes a ratio between 0 and 1")
            return figure
        return narrow(figure, float(value))
    if name == "remove_bands":
        bands = []
        for band in value if isinstance(value, list) else [None]:
            if (not isinstance(band, list) or len(band) != 2
                    or not all(_is_number(v) for v in band) or band[0] >= band[1]):
                problems.add(path, line_of(step), "'remove_bands' takes a list of [Y1, Y2] "
                             "with Y1 < Y2")
                return figure
            bands.append((float(band[0]), float(band[1])))
        for node in figure.nodes:
            for start, end in bands:
                if node.y < end and node.y + node.h > start:
                    problems.add(path, node.line, f"node '{node.id}' lies in the removed band "
                                 f"{start:g}–{end:g}: the band is not empty")
        return remove_bands(figure, bands)
    problems.add(path, line_of(step), f"unknown transform '{name}' (known: narrow, "
                 "remove_bands)")
    return figure


class _Reader:
    """Reads typed fields of a spec, reporting problems with their lines."""

    def __init__(self, path: Path, problems: Problems):
        self.path, self.problems = path, problems

    def _bad(self, item: Any, key: str, message: str) -> None:
        self.problems.add(self.path, line_of(item, key), message, key=key)

    def items(self, data: dict, key: str) -> list:
        value = data.get(key) or []
        if not isinstance(value, list):
            self._bad(data, key, f"'{key}' must be a list")
            return []
        return value

    def key(self, item: dict, field_name: str, optional: bool = False) -> Any:
        value = item.get(field_name)
        if value is None and optional:
            return None
        if not isinstance(value, str) or not value:
            self._bad(item, field_name, f"'{field_name}' must be a dictionary key")
            return ""
        return value

    def number(self, item: dict, field_name: str, positive: bool = False) -> float:
        value = item.get(field_name)
        if not _is_number(value) or (positive and value <= 0):
            self._bad(item, field_name, f"'{field_name}' must be a "
                      f"{'positive ' if positive else ''}number")
            return 1.0
        return float(value)

    def box(self, item: dict, size: int) -> tuple[float, ...]:
        value = item.get("box")
        if (not isinstance(value, list) or len(value) != size
                or not all(_is_number(v) for v in value)
                or not all(v > 0 for v in value[2:])):
            shape = "[x, y, width, height]" if size == 4 else "[x, y, length]"
            self._bad(item, "box", f"'box' must be {shape} with positive sizes")
            return (0.0,) * (size - 1) + (1.0,)
        return tuple(float(v) for v in value)

    def points(self, item: dict) -> tuple[tuple[float, float], ...]:
        value = item.get("points")
        if (not isinstance(value, list) or len(value) < 2 or not all(
                isinstance(p, list) and len(p) == 2 and all(_is_number(v) for v in p)
                for p in value)):
            self._bad(item, "points", "'points' must be a list of at least two [x, y]")
            return ((0.0, 0.0), (1.0, 0.0))
        return tuple((float(p[0]), float(p[1])) for p in value)

    def choice(self, item: dict, field_name: str, allowed: tuple[str, ...]) -> str | None:
        value = item.get(field_name)
        if value is not None and value not in allowed:
            self._bad(item, field_name, f"'{field_name}' must be one of {', '.join(allowed)}")
            return None
        return value

    def link(self, item: dict) -> str | None:
        value = item.get("link")
        if value is not None and (not isinstance(value, str) or not FIGURE_ID.match(value)):
            self._bad(item, "link", "'link' must be the id of a section of the article")
            return None
        return value


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(
        value)
