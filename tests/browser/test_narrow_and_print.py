"""A phone (390 px wide) scrolls only inside the figure boxes; print shows each figure
whole, without its scroll box."""

from __future__ import annotations

import pytest

from browser.pages import ARTICLE_PAGES, READER_PAGES

# What reaches past the window's right edge and is not inside a box that scrolls or clips
# (figures, wide formulas and tables scroll; the figures' text alternative is clipped).
STICKING_OUT = """() => {
    const width = document.documentElement.clientWidth;
    const contained = el => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
            if (getComputedStyle(up).overflowX !== "visible") return true;
        return false;
    };
    return [...document.querySelectorAll("body *")]
        .filter(el => el.getBoundingClientRect().right > width + 0.5 && !contained(el))
        .map(el => el.tagName + "." + el.className);
}"""


@pytest.mark.parametrize("path", READER_PAGES)
def test_no_horizontal_scroll_at_390_px(visit, path: str):
    page = visit(path, width=390, height=844)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(STICKING_OUT) == []


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_figures_scroll_inside_their_box_at_390_px(visit, path: str):
    page = visit(path, width=390, height=844)
    for box in page.locator(".figure-scroll").all():
        assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # wider than a phone
        assert box.evaluate("b => getComputedStyle(b).overflowX") == "auto"


# The width a figure must fit in print: A4 or Letter, portrait, with the 15 mm margins
# style.css asks for (A4: 180 mm = 680 px).
PRINT_WIDTH = 680


@pytest.mark.parametrize("path", ARTICLE_PAGES)
def test_print_shows_each_figure_whole_without_scroll_box(visit, path: str):
    page = visit(path, width=PRINT_WIDTH)
    page.emulate_media(media="print")
    for box in page.locator(".figure-scroll").all():
        shown = box.evaluate("""box => {
            const style = getComputedStyle(box), outer = box.getBoundingClientRect();
            const canvas = box.querySelector(".canvas").getBoundingClientRect();
            return {overflow: style.overflowX + " " + style.overflowY, maxHeight: style.maxHeight,
                    clipsX: box.scrollWidth > box.clientWidth + 1,
                    clipsY: box.scrollHeight > box.clientHeight + 1,
                    left: canvas.left, right: canvas.right,
                    inside: canvas.top >= outer.top - 1 && canvas.bottom <= outer.bottom + 1};
        }""")
        assert shown["overflow"] == "visible visible" and shown["maxHeight"] == "none"
        assert not shown["clipsX"] and not shown["clipsY"] and shown["inside"], shown
        assert 0 <= shown["left"] and shown["right"] <= PRINT_WIDTH + 0.5, shown


# Where a figure's heading, canvas (or its scroll box, when it scrolls) and caption
# start and end on the screen.
ALIGNED = """() => [...document.querySelectorAll("figure.figure")].map(figure => {
    const box = el => el.getBoundingClientRect(), scroll = figure.querySelector(".figure-scroll");
    const canvas = box(figure.querySelector(".canvas")), frame = box(scroll);
    const shown = [Math.max(canvas.left, frame.left), Math.min(canvas.right, frame.right)];
    return [figure.id, shown.map(Math.round),
            [".figure-heading", "figcaption"].map(
                s => Math.round(box(figure.querySelector(s)).left))];
})"""


@pytest.mark.parametrize(("width", "media"), [(1280, "screen"), (390, "screen"),
                                              (PRINT_WIDTH, "print")])
def test_a_figure_heading_and_caption_start_where_its_canvas_does(visit, width, media):
    page = visit(ARTICLE_PAGES[0], width=width)
    page.emulate_media(media=media)
    found = page.evaluate(ALIGNED)
    assert found
    for figure, (left, _), starts in found:
        assert starts == [left, left], (figure, left, starts)
