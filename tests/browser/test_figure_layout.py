"""Figures as the reader sees them: every node and label where its spec puts it (after
the spec's transforms), and no text spilling out of its box, in both diagram styles and
both themes."""

from __future__ import annotations

import itertools

import pytest

from browser.pages import ARTICLE_PAGES, SPECS, STYLES, THEMES, choose

# Boxes of every node and label, relative to the figure's canvas, and how far the text
# inside reaches past the box's inner edge (its padding box), in px.
MEASURE = """figure => {
    const canvas = figure.querySelector(".canvas").getBoundingClientRect();
    return [...figure.querySelectorAll(".canvas > .node, .canvas > .figure-label")].map(el => {
        const box = el.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(el);
        const text = range.getBoundingClientRect();
        const left = box.left + el.clientLeft, top = box.top + el.clientTop;
        return {
            node: el.dataset.node || null, text: el.textContent,
            x: box.left - canvas.left, y: box.top - canvas.top, w: box.width, h: box.height,
            overflow: Math.max(left - text.left, text.right - (left + el.clientWidth),
                               top - text.top, text.bottom - (top + el.clientHeight),
                               el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight),
        };
    });
}"""


def measure(page) -> dict[str, list[dict]]:
    return {f.get_attribute("id").removeprefix("figure-"): f.evaluate(MEASURE)
            for f in page.locator("figure.figure").all()}


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_every_node_and_label_is_at_its_spec_position(visit, path: str):
    figures = measure(visit(path))
    assert figures
    for figure_id, boxes in figures.items():
        spec = SPECS[figure_id]
        nodes = [b for b in boxes if b["node"]]
        labels = [b for b in boxes if not b["node"]]
        assert [b["node"] for b in nodes] == [n.id for n in spec.nodes]
        assert len(labels) == len(spec.labels)
        for shown, node in zip(nodes, spec.nodes):
            expected = (node.x, node.y, node.w, node.h)
            actual = (shown["x"], shown["y"], shown["w"], shown["h"])
            assert actual == pytest.approx(expected, abs=1), f"{figure_id} node {node.id}"
        for shown, label in zip(labels, spec.labels):
            actual = (shown["x"], shown["y"], shown["w"])
            assert actual == pytest.approx((label.x, label.y, label.w), abs=1), \
                f"{figure_id} label {label.text}"


@pytest.mark.parametrize(("style", "theme"), list(itertools.product(STYLES, THEMES)))
@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_no_text_overflows_its_box(visit, path: str, style: str, theme: str):
    page = visit(path)
    choose(page, theme=theme, style=style)
    assert page.locator("figure.figure").first.get_attribute(
        "data-diagram-style") == style
    spilled = [f"{figure_id}: {b['text']!r} by {b['overflow']:.1f}px"
               for figure_id, boxes in measure(page).items() for b in boxes
               if b["overflow"] > 1]
    assert spilled == []
