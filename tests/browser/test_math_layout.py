"""Formulas as Chromium lays them out (tests/fixtures/math-article built in every language):
function names spaced from their argument, accents on their base, aligned rows aligned at
`=`, equation numbers beside their formula, `\\eqref` links that reach it. Screenshots of
each language, light and dark, go to test-artifacts/ for a person to look at."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, copy_project, run_build

from .pages import screenshot

LANGUAGES = ("en", "zh", "ja")


@pytest.fixture(scope="module")
def math_site(tmp_path_factory) -> Path:
    root = copy_project(tmp_path_factory.mktemp("math") / "project")
    shutil.copytree(REPO / "tests" / "fixtures" / "math-article", root / "content" / "formulas")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.fixture
def open_formulas(chromium, math_site: Path):
    contexts, troubles = [], []

    def open_page(code: str, scheme: str = "light"):
        context = chromium.new_context(viewport={"width": 1000, "height": 900},
                                      color_scheme=scheme)
        contexts.append(context)
        page = context.new_page()
        page.on("request", lambda r: r.url.startswith("file://") or troubles.append(r.url))
        page.on("console", lambda m: m.type == "error" and troubles.append(m.text))
        page.goto((math_site / code / "formulas.html").as_uri())
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert troubles == []


MEASURE = """() => {
  const box = e => e.getBoundingClientRect();
  const em = parseFloat(getComputedStyle(document.querySelector("main math")).fontSize);
  const log = [...document.querySelectorAll("main p math mi")].find(e => e.textContent === "log");
  let next = log.closest("mrow").nextElementSibling;
  while (next && next.textContent.trim() === "\\u2061") next = next.nextElementSibling;
  const accents = [...document.querySelectorAll('main mover[accent="true"]')].map(m => {
    const base = box(m.children[0]), mark = box(m.children[1]);
    return {centre: (mark.left + mark.right) / 2 - (base.left + base.right) / 2,
            width: base.width, gap: base.top - mark.bottom};
  });
  const aligned = document.querySelectorAll("main .math-display")[2].querySelector("mtable");
  const equals = [...aligned.querySelectorAll("mtr")].map(r =>
    box([...r.querySelectorAll("mo")].find(o => o.textContent === "=")).left);
  const numbers = [...document.querySelectorAll("main .math-display.numbered")].map(d => {
    const math = box(d.querySelector("math")), no = box(d.querySelector(".eqno"));
    return {after: no.left - math.right, middle: Math.abs((no.top + no.bottom) / 2 -
            (math.top + math.bottom) / 2), height: math.height};
  });
  return {em, gap: box(next).left - box(log).right, accents, equals, numbers};
}"""


@pytest.mark.parametrize("code", LANGUAGES)
def test_formulas_are_typeset_as_tex_would_reached_by_eqref_and_keep_their_punctuation(
        open_formulas, code: str):
    """Each language's page, loaded once (a load costs more than each look at it): laid
    out as TeX would, its ink seen on its background, its `\\eqref` reaching the
    equation, then at every width no punctuation torn from its formula."""
    page = open_formulas(code)
    typeset_as_tex_would(page)
    ink_differs_from_background(page, code, "light")
    eqref_takes_the_reader_to_the_equation(page)
    no_line_starts_with_the_punctuation_after_a_formula(page)


def typeset_as_tex_would(page) -> None:
    found = page.evaluate(MEASURE)
    em = found["em"]
    assert found["gap"] > 0.1 * em, found["gap"]   # O(n log n): "log n", never "logn"
    assert len(found["accents"]) >= 8
    for accent in found["accents"]:               # on its base: centred, close above it
        assert abs(accent["centre"]) < max(0.25 * em, accent["width"] / 2), accent
        assert -0.3 * em < accent["gap"] < 0.3 * em, accent
    assert max(found["equals"]) - min(found["equals"]) < 1   # aligned at "="
    assert len(found["numbers"]) == 4
    for number in found["numbers"]:               # right of its formula, level with it
        assert number["after"] > 0 and number["middle"] < number["height"] / 2, number


def eqref_takes_the_reader_to_the_equation(page) -> None:
    page.click("main a.eqref >> nth=0")
    assert page.evaluate("location.hash") == "#eq-eq-clip"
    top = page.evaluate("document.getElementById('eq-eq-clip').getBoundingClientRect().top")
    assert 0 <= top < 900


def ink_differs_from_background(page, code: str, scheme: str) -> None:
    screenshot(page, f"math-{code}-{scheme}.png", full_page=True)
    ink = page.evaluate("getComputedStyle(document.querySelector('main math')).color")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert ink != background


def test_the_formula_pages_in_the_dark_theme(open_formulas):
    for code in LANGUAGES:   # the light theme: in the test above
        ink_differs_from_background(open_formulas(code, "dark"), code, "dark")


# Punctuation that must not start a line, and brackets that must not end one.
CLOSING, OPENING = "。，、；：！？）」,.;:)", "（「("


def no_line_starts_with_the_punctuation_after_a_formula(page) -> None:
    """A browser may break on either side of an inline formula: the full stop after it
    must stay on its line (and an opening bracket with it), at any width."""
    separated = set()
    for width in range(300, 701, 20):
        page.set_viewport_size({"width": width, "height": 900})
        separated |= set(page.evaluate("""([closing, opening]) => {
            const found = [];
            const top = node => { const r = document.createRange(); r.selectNode(node);
                                  return r.getClientRects()[0].top; };
            for (const math of document.querySelectorAll('main p math')) {
                // The punctuation written next to it: in the same span, or just after.
                const after = math.nextSibling, before = math.previousSibling;
                for (const [node, chars, at] of [[after, closing, 0], [before, opening, -1]]) {
                    if (!node || node.nodeType !== Node.TEXT_NODE || !node.data) continue;
                    const index = at < 0 ? node.data.length - 1 : 0;
                    if (!chars.includes(node.data[index])) continue;
                    const r = document.createRange(); r.setStart(node, index);
                    r.setEnd(node, index + 1);
                    if (Math.abs(r.getClientRects()[0].top - top(math)) > 8)
                        found.push(math.textContent + ' | ' + node.data[index]);
                }
            }
            return found; }""", [CLOSING, OPENING]))
    assert separated == set()
