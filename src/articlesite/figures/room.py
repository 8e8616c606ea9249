"""Where `figure layout` puts a spec's draft labels, dividers and lifelines (entries
without `box`): where there is room, then you drag them in serve's figure editor.

- A label is as wide as its longest text in every language and both diagram styles
  (measured with the nodes, figures/sizes.py) and goes to the first place, row by row
  from the top and from the drawing's left on the 10 px grid, where it keeps 10 px from
  every node, frame, label and rule, as the editor's **Add label** does; with none,
  below everything.
- A divider spans the drawing (the leftmost box's left to the rightmost's right) and
  goes in the widest horizontal gap that has boxes above and below it (between two
  rows of a folded layout, or two layers of `direction: down`); with none, below
  everything.
- A lifeline spans the drawing's height and goes in the widest vertical gap that has
  boxes on both sides (between two layers of `direction: right`); with none, to the
  right of everything.

The canvas grows to hold what had no room inside it.
"""

from __future__ import annotations

from dataclasses import dataclass

Rect = tuple[float, float, float, float]
CLEAR = 10.0     # px kept from every other box
GRID = 10.0
MARGIN = 30.0    # the layout's margin round the drawing


@dataclass(frozen=True)
class Draft:
    """A label, divider or lifeline to place: its list, its index there, and for a label
    its size (width, height)."""

    section: str
    index: int
    size: tuple[float, float] = (0.0, 0.0)


def _clear(box: Rect, others: list[Rect]) -> bool:
    x, y, w, h = box
    return all(x + w + CLEAR <= ox or ox + ow + CLEAR <= x or y + h + CLEAR <= oy
               or oy + oh + CLEAR <= y for ox, oy, ow, oh in others)


def _up(value: float) -> float:
    return -(-value // GRID) * GRID


def _spot(size: tuple[float, float], others: list[Rect], canvas: tuple[float, float],
          start: float) -> tuple[float, float] | None:
    w, h = size
    y = GRID
    while y + h <= canvas[1] - GRID:
        x = start
        while x + w <= canvas[0] - GRID:
            if _clear((x, y, w, h), others):
                return x, y
            x += GRID
        y += GRID
    return None


def _gap(others: list[Rect], axis: int) -> float | None:
    """The middle of the widest gap along `axis` (1: a horizontal band, 0: a vertical
    one) that no box crosses and that has boxes on both sides, on the 5 px grid."""
    spans = sorted((box[axis], box[axis] + box[axis + 2]) for box in others)
    best, reach = None, None
    for start, end in spans:
        if reach is not None and start - reach >= 2 * CLEAR + 1 and \
                (best is None or start - reach > best[1] - best[0]):
            best = (reach, start)
        reach = end if reach is None else max(reach, end)
    return None if best is None else round((best[0] + best[1]) / 10) * 5.0


def place_rules(drafts: list[Draft], solid: list[Rect], rules: dict[str, list[Rect]],
                canvas: tuple[float, float]
                ) -> tuple[dict[tuple[str, int], list[float]], tuple[float, float]]:
    """Each draft's `box` (by (section, index)) and the canvas that holds them all.
    `solid`: the nodes, frames and labels; `rules`: the dividers and lifelines already
    placed (as boxes 10 px thick), by section. A divider looks for its gap among the
    solid boxes and the other dividers only (a lifeline crosses every horizontal gap),
    and a lifeline likewise."""
    width, height = canvas
    rules = {name: list(rules.get(name, ())) for name in ("dividers", "lifelines")}
    left = min((x for x, *_ in solid), default=MARGIN)
    top = min((y for _, y, *_ in solid), default=MARGIN)
    right = max((x + w for x, _, w, _ in solid), default=left + 200)
    bottom = max((y + h for _, y, _, h in solid), default=top + 120)
    boxes: dict[tuple[str, int], list[float]] = {}
    for draft in drafts:
        every = solid + rules["dividers"] + rules["lifelines"]
        if draft.section == "labels":
            w, h = _up(draft.size[0]), draft.size[1]
            spot = _spot((w, h), every, (width, height), left)
            x, y = spot or (left, _up(max(b[1] + b[3] for b in every) + 2 * CLEAR)
                            if every else MARGIN)
            box, rect = [x, y, w], (x, y, w, h)
            solid = [*solid, rect]
        elif draft.section == "dividers":
            y = _gap(solid + rules["dividers"], 1)
            if y is None:
                y = _up(max(b[1] + b[3] for b in every) + 2 * CLEAR) if every else MARGIN
            box, rect = [left, y, right - left], (left, y - 5, right - left, 10)
            rules["dividers"].append(rect)
        else:
            x = _gap(solid + rules["lifelines"], 0)
            if x is None:
                x = _up(max(b[0] + b[2] for b in every) + 2 * CLEAR) if every else MARGIN
            box, rect = [x, top, bottom - top], (x - 5, top, 10, bottom - top)
            rules["lifelines"].append(rect)
        boxes[(draft.section, draft.index)] = box
        width = max(width, _up(rect[0] + rect[2] + MARGIN))
        height = max(height, _up(rect[1] + rect[3] + MARGIN))
    return boxes, (width, height)
