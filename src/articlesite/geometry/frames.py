"""A group's frame, from its members' boxes (pure geometry).

A group (`groups: [{id, title, nodes: [...]}]` in a spec) has no coordinates of its own:
its frame is the bounding box of its members pushed out by PADDING on the left, right
and bottom, and on top by the title band: the title (its measured size, `title_box`)
sits TITLE_INSET px inside the frame's top-left corner, and TITLE_GAP px of space lies
between it and the highest member: room for a route between the two (an edge into the
top of a member below the title), as the router keeps 10 px from each, with 24 px to
spare: one route runs in the middle, 22 px under the title, two are spread 8 px apart,
18 px and more under it, and none reads as the title's underline. A title wider than
the members makes the frame wider.

    margins((w, h), labels, direction)     -> (left, top, right, bottom) round the members
    frame_of([box, ...], (w, h))           -> Frame(box, title)
    holding(frame, labels, keep, routes, bounds) -> the frame grown to hold its labels

Layout (geometry/layout.py) is given `margins` per group to leave room for the frame
and for the labels of the edges between its members; the build draws `frame_of`, the
router is given the title's box as an obstacle, and once the edge labels are placed
(geometry/labels.py) the build grows each frame to hold its own edges' labels
(`holding`) where that meets nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

Rect = tuple[float, float, float, float]   # x, y, width, height

PADDING = 15.0       # px between the members' bounding box and the frame
TITLE_INSET = 6.0    # px from the frame's top-left corner to the title's box
TITLE_GAP = 44.0     # px between the title's box and the highest member (routes pass there)
LABEL_ROOM = 6.0     # px between a member edge's label and the frame grown to hold it


@dataclass(frozen=True)
class Frame:
    box: Rect     # the frame: x, y, width, height
    title: Rect   # the title's box inside it


def margins(title: tuple[float, float], labels: Sequence[tuple[float, float]] = (),
            direction: str = "right") -> tuple[float, float, float, float]:
    """What a frame needs round its members' bounding box: left, top (the title band
    included), right, bottom; with the sizes of the labels of the edges between its
    members, room for them beside the edges' runs (across the direction), as the
    build grows the frame to hold them (`holding`): half the widest label beyond its
    edge's port on either side (down or up), or half the highest below (right or left)."""
    side = bottom = PADDING
    if labels and direction in ("down", "up"):
        side = max(PADDING, max(w for w, _ in labels) / 2 + LABEL_ROOM + PADDING)
    elif labels:
        bottom = max(PADDING, max(h for _, h in labels) / 2 + LABEL_ROOM + PADDING)
    return side, TITLE_INSET + title[1] + TITLE_GAP, side, bottom


def bounding(boxes: Sequence[Rect]) -> Rect:
    """The smallest box that holds all of `boxes` (at least one)."""
    left = min(x for x, _, _, _ in boxes)
    top = min(y for _, y, _, _ in boxes)
    right = max(x + w for x, _, w, _ in boxes)
    bottom = max(y + h for _, y, _, h in boxes)
    return left, top, right - left, bottom - top


def frame_of(members: Sequence[Rect], title: tuple[float, float]) -> Frame:
    """The frame round `members` (at least one box) with a title of size `title`."""
    x, y, w, h = bounding(members)
    left, top, right, bottom = margins(title)
    width = max(w + left + right, title[0] + 2 * TITLE_INSET)
    frame = (x - left, y - top, width, h + top + bottom)
    return Frame(frame, (frame[0] + TITLE_INSET, frame[1] + TITLE_INSET, title[0], title[1]))


def holding(frame: Frame, labels: Sequence[Rect], keep: Sequence[Rect] = (),
            routes: Sequence[Sequence[tuple[float, float]]] = (),
            bounds: Rect | None = None) -> Frame:
    """The frame grown to hold `labels` (those of the edges between its members)
    LABEL_ROOM px inside its border, its title moved with its top-left corner; or the
    frame as it was if the grown one would meet one of `keep` (other frames, the nodes
    outside it), leave `bounds` (the canvas) or bring a border, or the title, onto one
    of `routes`."""
    x, y, w, h = frame.box
    left = min([x] + [b[0] - LABEL_ROOM for b in labels])
    top = min([y] + [b[1] - LABEL_ROOM for b in labels])
    right = max([x + w] + [b[0] + b[2] + LABEL_ROOM for b in labels])
    bottom = max([y + h] + [b[1] + b[3] + LABEL_ROOM for b in labels])
    box = (left, top, right - left, bottom - top)
    if box == frame.box:
        return frame
    title = (left + TITLE_INSET, top + TITLE_INSET, frame.title[2], frame.title[3])
    if any(overlaps(box, other, 0.0) for other in keep) or _near_border(box, frame.box, routes):
        return frame
    if bounds is not None and not (bounds[0] <= left and bounds[1] <= top and
                                   right <= bounds[0] + bounds[2] and
                                   bottom <= bounds[1] + bounds[3]):
        return frame
    if any(_meets(a, b, title) for points in routes for a, b in pairwise(points)):
        return frame
    return Frame(box, title)


def _near_border(box: Rect, old: Rect, routes: Sequence[Sequence[tuple[float, float]]]) -> bool:
    """Whether a moved border of `box` (one not where `old` has it) runs along a route's
    run, within LABEL_ROOM px of it: the two lines would read as one."""
    x, y, w, h = box
    sides = [(0, x, y, y + h), (0, x + w, y, y + h), (1, y, x, x + w), (1, y + h, x, x + w)]
    before = [old[0], old[0] + old[2], old[1], old[1] + old[3]]
    for (axis, at, low, high), was in zip(sides, before, strict=True):
        if at == was:
            continue
        for points in routes:
            for a, b in pairwise(points):
                span = sorted((a[1 - axis], b[1 - axis]))
                if a[axis] == b[axis] and abs(a[axis] - at) < LABEL_ROOM and \
                        span[0] < high and span[1] > low:
                    return True
    return False


def _meets(a: tuple[float, float], b: tuple[float, float], box: Rect) -> bool:
    """Whether a horizontal or vertical run from a to b meets `box`."""
    x, y, w, h = box
    return (min(a[0], b[0]) < x + w and max(a[0], b[0]) > x
            and min(a[1], b[1]) < y + h and max(a[1], b[1]) > y)


def overlaps(a: Rect, b: Rect, slack: float = 0.5) -> bool:
    """Whether two boxes share more than `slack` px each way."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return w > slack and h > slack


def detours(points: Sequence[tuple[float, float]], frames: Sequence[Rect]) -> int:
    """How many times a route (horizontal and vertical runs) crosses the frames' borders
    beyond what its ends ask: a route between two members of one frame that leaves it
    and comes back, or one through a frame it neither starts nor ends in, crosses
    borders a designer would not (it runs round a stage, or across one)."""
    total = 0
    for x, y, w, h in frames:
        crossed = sum(_crosses(a, b, (x, y, x + w, y + h)) for a, b in pairwise(points))
        ends = [x < p[0] < x + w and y < p[1] < y + h for p in points[:1] + points[-1:]]
        total += max(0, crossed - (len(ends) == 2 and ends[0] != ends[1]))
    return total


def _crosses(a: tuple[float, float], b: tuple[float, float],
             box: tuple[float, float, float, float]) -> int:
    """How many of the box's (left, top, right, bottom) borders a horizontal or vertical
    run from a to b crosses."""
    left, top, right, bottom = box
    if a[1] == b[1]:   # horizontal
        if not top < a[1] < bottom:
            return 0
        low, high = sorted((a[0], b[0]))
        return (low < left < high) + (low < right < high)
    if not left < a[0] < right:
        return 0
    low, high = sorted((a[1], b[1]))
    return (low < top < high) + (low < bottom < high)
