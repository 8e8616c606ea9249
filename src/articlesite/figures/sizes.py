"""How big a node's box must be for its texts: the widest and tallest of its text and
subtitle in every language and both diagram styles, as the figure's CSS draws them.

Measured exactly in headless Chromium when it is there (Debian's `chromium` through
Playwright, as `check` measures text fit, check/fit.py): each node is drawn with the
theme's `figure.css` (or the project's override) at its natural size
(`width: max-content`), in each language's `lang` (its fonts) and each diagram style.
Without Chromium the size is estimated from the CSS's font sizes and line heights, a
full-width (CJK) character counting 1 em and any other 0.62 em (wider than Arial's
average, so that the estimate errs on the large side); `check` then measures the real
fit.

A placed box is measured at its own width too (`data-width`): the least width that holds
its longest word or phrase, and how tall its texts are there, wrapped as the page wraps
them (in Japanese and Chinese between phrases only: rich_text's breaks and the figure's
`word-break: keep-all`); without Chromium the same lines are filled word by word, phrase
by phrase, from the estimated widths.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from markupsafe import Markup

from ..check.fit import BrowserUnavailable, evaluate
from ..load.markup import plain_text, rich_text
from ..load.phrases import phrases

STYLES = ("blog", "engineering")
SPARE = 10.0          # px on each side beyond the text's own padding: room to breathe
MIN_SIZE = (100.0, 60.0)
# The theme's figure.css: .node padding 10px 12px, border 1px, gap 4px; the text 18px with
# line height 1.4, the subtitle 13px with 1.45.
PADDING = (2 * 12 + 2, 2 * 10 + 2)
TEXT, SUB, GAP = (18.0, 1.4), (13.0, 1.45), 4.0
WIDE_EM, NARROW_EM = 1.0, 0.62


@dataclass(frozen=True)
class Texts:
    """What a node shows, in one language."""

    node: str
    language: str     # the HTML lang, which chooses the fonts
    text: str
    sub: str | None
    cls: str | None
    kind: str = "node"   # or "edge-label", "group-title", "label": an edge's label, a
    #                      group's title, a free label (of class `cls`)


# Edge labels and group titles (figure.css: .edge-label 13px, line height 1.45, padding
# 2px 4px; .group-title 15px, 1.45, no padding): their font and padding (w, h).
OTHER = {"edge-label": ((13.0, 1.45), (8.0, 4.0)), "group-title": ((15.0, 1.45), (0.0, 0.0))}
# Free labels by class (.figure-label 13px, 1.45, padding 3px 4px; .stage 15px and
# .task-title 17px without left padding; .math-label 18px).
FREE = {None: ((13.0, 1.45), (8.0, 6.0)), "stage": ((15.0, 1.45), (4.0, 6.0)),
        "task-title": ((17.0, 1.45), (4.0, 6.0)), "math": ((18.0, 1.45), (8.0, 6.0))}


def label_class(cls: str | None) -> str:
    """A free label's classes, as figure.html writes them."""
    return "label figure-label" + (" math-label" if cls == "math" else f" {cls}" if cls
                                   else "")
LABEL_SPARE = 4.0    # px added to an edge label's or group title's width


def estimate(item: Texts) -> tuple[float, float]:
    """The natural size of a node's box, from the font sizes (no browser)."""
    def width(text: str, size: float) -> float:
        return max(sum(WIDE_EM if unicodedata.east_asian_width(c) in "WF" else NARROW_EM
                       for c in plain_text(line)) for line in text.split("\n")) * size

    def height(text: str, font: tuple[float, float]) -> float:
        return (text.count("\n") + 1) * font[0] * font[1]

    if item.kind != "node":
        font, padding = FREE[item.cls] if item.kind == "label" else OTHER[item.kind]
        return width(item.text, font[0]) + padding[0], height(item.text, font) + padding[1]
    w = width(item.text, TEXT[0])
    h = height(item.text, TEXT)
    if item.sub:
        w = max(w, width(item.sub, SUB[0]))
        h += GAP + height(item.sub, SUB)
    return w + PADDING[0], h + PADDING[1]


def _node_html(item: Texts, number: int, width: float | None = None) -> Markup:
    """The item's box at its natural size (a placed box's `width` given as data-width,
    to be measured at it too)."""
    at = Markup(' data-width="{}"').format(width) if width is not None else ""
    if item.kind != "node":
        return Markup('<div class="canvas" lang="{lang}" style="position:relative">'
                      '<div class="{kind}" data-measure="{n}"{at} style="position:absolute;'
                      'left:0;top:0;width:max-content;height:auto">{text}</div></div>'
                      ).format(lang=item.language, n=number, at=at,
                           kind=label_class(item.cls) if item.kind == "label" else item.kind,
                               text=rich_text(item.text, item.language))
    sub = Markup('<span class="sub">{}</span>').format(rich_text(item.sub, item.language)) \
        if item.sub else ""
    return Markup('<div class="canvas" lang="{lang}" style="position:relative">'
                  '<div class="node{cls}" data-measure="{n}"{at} style="position:absolute;'
                  'left:0;top:0;width:max-content;height:auto"><strong>{text}</strong>{sub}'
                  '</div></div>').format(lang=item.language,
                                         cls=f" {item.cls}" if item.cls else "", n=number,
                                         at=at, text=rich_text(item.text, item.language),
                                         sub=sub)


MEASURE = """(styles) => {
  const out = {};
  for (const style of styles) {
    document.querySelector(".figure").setAttribute("data-diagram-style", style);
    document.querySelectorAll("[data-measure]").forEach((el) => {
      const r = el.getBoundingClientRect(), n = el.getAttribute("data-measure");
      el.style.width = "min-content";   // as narrow as the longest word or phrase allows
      const narrowest = el.getBoundingClientRect().width;
      let at = r.height;                // how tall at the placed box's width, wrapped
      if (el.dataset.width) {
        el.style.width = el.dataset.width + "px";
        at = el.getBoundingClientRect().height;
      }
      el.style.width = "max-content";
      const [w, h, least, tall] = out[n] || [0, 0, 0, 0];
      out[n] = [Math.max(w, r.width), Math.max(h, r.height), Math.max(least, narrowest),
                Math.max(tall, at)];
    });
  }
  return out;
}"""


def measure_in_chromium(items: list[Texts], css: str, widths: list[float | None]
                        ) -> list[tuple[float, ...]]:
    """The natural size of each item's box, the least width that holds its longest
    word or phrase, and its height at its width in `widths` (None: its natural height),
    measured in Chromium (BrowserUnavailable)."""
    body = Markup("").join(_node_html(item, n, width)
                           for n, (item, width) in enumerate(zip(items, widths, strict=True)))
    html = Markup('<!doctype html><html><head><meta charset="utf-8"><style>{}</style></head>'
                  '<body><figure class="figure" data-diagram-style="blog">{}</figure>'
                  '</body></html>').format(Markup(css), body)
    found = evaluate(str(html), MEASURE, list(STYLES))
    return [tuple(found[str(n)]) for n in range(len(items))]


def _ems(text: str) -> float:
    return sum(WIDE_EM if unicodedata.east_asian_width(c) in "WF" else NARROW_EM for c in text)


def _lines_of_units(text: str, language: str) -> list[list[tuple[float, bool]]]:
    """Each line of a text (as written) in the units a line may break between: its words,
    and in Japanese and Chinese its phrases; each unit's width in em and whether a space
    comes before it."""
    lines = []
    for line in plain_text(text, newlines=True).split("\n"):
        parts = re.split(r"([\s\u200b]+)", "\u200b".join(phrases(line, language)))
        units, spaced = [], False
        for number, part in enumerate(parts):
            if number % 2:
                spaced = bool(part.strip("\u200b"))
            elif part:
                units.append((_ems(part), spaced))
        lines.append(units or [(0.0, False)])
    return lines


def least_width(item: Texts) -> float:
    """The narrowest box for an item's texts, estimated from the font sizes: its longest
    word, or in Japanese and Chinese its longest phrase, unbroken."""
    def widest(text: str, size: float) -> float:
        return max(w for line in _lines_of_units(text, item.language) for w, _ in line) * size
    width = widest(item.text, TEXT[0])
    if item.sub:
        width = max(width, widest(item.sub, SUB[0]))
    return width + PADDING[0]


def wrapped_height(item: Texts, width: float) -> float:
    """A node's height in a box `width` px wide, estimated from the font sizes: each line
    filled with as many words or phrases as it holds (a space counted NARROW_EM)."""
    def lines(text: str, size: float) -> int:
        room, count = (width - PADDING[0]) / size, 0
        for units in _lines_of_units(text, item.language):
            count, used = count + 1, 0.0
            for w, spaced in units:
                gap = NARROW_EM if spaced and used else 0.0
                if used and used + gap + w > room + 1e-9:
                    count, used = count + 1, w
                else:
                    used += gap + w
        return count
    if item.kind != "node":
        return estimate(item)[1]
    height = lines(item.text, TEXT[0]) * TEXT[0] * TEXT[1]
    if item.sub:
        height += GAP + lines(item.sub, SUB[0]) * SUB[0] * SUB[1]
    return height + PADDING[1]


@dataclass(frozen=True)
class AtWidth:
    """A placed box's texts in one language at the box's width: the least width that
    holds their longest word or phrase, and the height their box needs there (with
    SPARE, at least MIN_SIZE), their lines broken where the page breaks them."""

    node: str
    language: str
    need: float     # the least width, in px
    width: float    # the box's
    height: float   # the box's height its texts need at that width, in px

    @property
    def narrow(self) -> bool:
        """A word or phrase overflows the box's width (a word is never cut, nor a
        phrase)."""
        return self.need > self.width + 0.5

    def __str__(self) -> str:   # (said of a narrow one)
        return (f"node '{self.node}': its box is {self.width:g} px wide, narrower than the "
                f"{math.ceil(self.need):g} px the longest word or phrase of its "
                f"{self.language} text needs: that text overflows it; widen the box")


def natural_sizes(items: list[Texts], css: str, browser: bool = True,
                  widths: list[float | None] | None = None
                  ) -> tuple[list[tuple[float, ...]], str]:
    """Each item's natural size, least width and height at its width in `widths` (None
    or no `widths`: its natural height), and how they were found ("measured in
    Chromium" or why they were estimated)."""
    widths = widths or [None] * len(items)
    if not browser:
        how = "estimated from the font sizes (--no-browser)"
    else:
        try:
            return measure_in_chromium(items, css, widths), "measured in Chromium"
        except BrowserUnavailable as exc:
            how = f"estimated from the font sizes ({exc})"
    found = []
    for item, width in zip(items, widths, strict=True):
        w, h = estimate(item)
        found.append((w, h, least_width(item), h if width is None else wrapped_height(item, width)))
    return found, how


def sizes_at_widths(items: list[Texts], css: str, browser: bool = True,
                    placed: tuple[tuple[Texts, float, str], ...] = ()
                    ) -> tuple[dict[str, tuple[float, float]], str, list[AtWidth]]:
    """Each node's box size (the largest of its items, with SPARE, at least MIN_SIZE),
    how it was found, and each of the `placed` boxes (texts, box width, language code)
    measured at its width."""
    natural, how = natural_sizes([*items, *(texts for texts, _, _ in placed)], css, browser,
                                 [None] * len(items) + [width for _, width, _ in placed])
    sizes: dict[str, tuple[float, float]] = {}
    for item, (w, h, *_) in zip(items, natural, strict=False):
        if item.kind == "node":
            w = max(MIN_SIZE[0], math.ceil(w) + 2 * SPARE)
            h = max(MIN_SIZE[1], math.ceil(h) + SPARE)
        else:
            w, h = math.ceil(w) + LABEL_SPARE, math.ceil(h)
        old = sizes.get(item.node, (0.0, 0.0))
        sizes[item.node] = (max(old[0], w), max(old[1], h))
    at = [AtWidth(texts.node, code, need, width, max(MIN_SIZE[1], math.ceil(tall) + SPARE))
          for (texts, width, code), (_, _, need, tall) in zip(placed, natural[len(items):],
                                                              strict=True)]
    return sizes, how, at


def box_sizes(items: list[Texts], css: str, browser: bool = True,
              placed: tuple[tuple[Texts, float, str], ...] = ()
              ) -> tuple[dict[str, tuple[float, float]], str, list[AtWidth]]:
    """Each node's box size, how it was found (sizes_at_widths), and the `placed` boxes
    too narrow for a word or phrase of theirs."""
    sizes, how, at = sizes_at_widths(items, css, browser, placed)
    return sizes, how, [a for a in at if a.narrow]
