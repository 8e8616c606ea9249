"""Moving around an article: a figure node takes the reader to its section, and the
language switcher lands on the same section in the other language."""

from __future__ import annotations

import itertools

import pytest

from browser.pages import ARTICLES, SPECS

ARTICLE = ARTICLES[0]
# The first heading below the sticky bar, and how far below it, as a reader sees it.
TOP_HEADING = """() => {
    const bar = document.querySelector(".bar").getBoundingClientRect().bottom;
    const below = [...document.querySelectorAll("main h2[id]")]
        .filter(h => h.getBoundingClientRect().top >= bar - 1);
    return below.length ? {id: below[0].id, gap: below[0].getBoundingClientRect().top - bar}
                        : null;
}"""


def figure_links() -> list[tuple[str, str, str]]:
    """(figure, node, section): the first node of each figure that links to each section."""
    links = {}
    for figure_id, spec in SPECS.items():
        for node in spec.nodes:
            if node.link:
                links.setdefault((figure_id, node.link), node.id)
    return [(figure, node, section) for (figure, section), node in links.items()]


@pytest.mark.parametrize("code", ARTICLE.languages)
def test_clicking_a_node_scrolls_to_its_section(visit, code: str):
    page = visit(f"{code}/{ARTICLE.slug}.html")
    links = figure_links()
    assert links
    for figure_id, node_id, section in links:
        page.evaluate("window.scrollTo(0, 0)")
        page.locator(f"#figure-{figure_id} a.node[data-node='{node_id}']").click()
        page.wait_for_url(f"**#{section}")
        heading = page.evaluate(TOP_HEADING)
        assert heading["id"] == section, (figure_id, node_id)
        assert heading["gap"] < 40


PAIRS = list(itertools.permutations(ARTICLE.languages, 2))


@pytest.mark.parametrize(("code", "other"), PAIRS)
def test_language_switcher_keeps_the_section(visit, code: str, other: str):
    page = visit(f"{code}/{ARTICLE.slug}.html")
    sections = page.eval_on_selector_all(".toc a", "all => all.map(a => a.hash.slice(1))")
    # A different section for each pair of languages, none of them the first.
    section = sections[1 + PAIRS.index((code, other)) % (len(sections) - 1)]
    page.locator(f"#{section}").evaluate("h => h.scrollIntoView()")
    # Click where the link is on screen, as a reader does (Playwright's own click would
    # first scroll the sticky bar's link "into view", moving the page).
    box = page.locator(f"nav.switcher a[href$='/{other}/{ARTICLE.slug}.html']").bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url(f"**/{other}/{ARTICLE.slug}.html#{section}")
    page.wait_for_load_state()
    heading = page.evaluate(TOP_HEADING)
    assert heading["id"] == section
    assert heading["gap"] < 40
