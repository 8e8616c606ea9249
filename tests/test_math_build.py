"""Math in a built site: numbered equations linked per language, and formulas that cannot
be shown stopping the build with one clear message."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, copy_project, edit, failed_build, line_of, run_build, soup

FIXTURE = REPO / "tests" / "fixtures" / "math-article"
ARTICLE = "content/formulas"
REFERENCE = {"en": "Eq. ({})", "zh": "式 ({})", "ja": "式({})"}


@pytest.fixture
def math_project(project: Path) -> Path:
    shutil.copytree(FIXTURE, project / ARTICLE)
    return project


@pytest.fixture(scope="module")
def math_site(tmp_path_factory) -> Path:
    """The project with the fixture article, built once for the tests that only read it
    (test_validators checks its pages under the Nu Html Checker)."""
    return built_math_site(tmp_path_factory.mktemp("math") / "project")


def built_math_site(root: Path) -> Path:
    copy_project(root)
    shutil.copytree(FIXTURE, root / ARTICLE)
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.mark.parametrize("code", ["en", "zh", "ja"])
def test_eqref_links_to_the_numbered_equation_in_the_page_language(math_site: Path, code):
    page = soup(math_site / code / "formulas.html")
    links = {a["href"]: a.get_text() for a in page.select("main a.eqref")}
    assert links == {"#eq-eq-clip": REFERENCE[code].format(2),
                     "#eq-eq-ratio": REFERENCE[code].format(1),
                     "#eq-eq-value": REFERENCE[code].format(3),
                     "#eq-bayes": REFERENCE[code].format("B")}
    for href in links:
        target = page.find(id=href[1:])
        assert target is not None and "math-display" in target["class"]
        assert target.math is not None
    numbers = [(div.get("id"), div.select_one(".eqno").get_text())
               for div in page.select("main .math-display.numbered")]
    assert numbers == [("eq-eq-ratio", "(1)"), ("eq-eq-clip", "(2)"), ("eq-eq-value", "(3)"),
                       ("eq-bayes", "(B)")]
    # Every display formula's box can take keyboard focus (a wide one scrolls sideways)
    # and is named in the page's language, with its number where it has one.
    name = {"en": "Formula", "zh": "公式", "ja": "数式"}[code]
    boxes = page.select("main .math-display")
    assert all(box.get("tabindex") == "0" and box.get("role") == "group" for box in boxes)
    assert [box["aria-label"] for box in boxes if "numbered" in box["class"]] == [
        f"{name} ({n})" for n in ("1", "2", "3", "B")]
    assert {box["aria-label"] for box in boxes if "numbered" not in box["class"]} == {name}
    text = page.main.get_text()
    assert "\\label" not in text and "\\tag" not in text and "\\eqref" not in text


def test_the_fixture_page_has_the_structure_the_tex_asks_for(math_site: Path):
    page = soup(math_site / "en" / "formulas.html")
    inline = page.select("main p math")
    assert any(mo.get_text() == "∼" for m in inline for mo in m.find_all("mo"))
    sorting = inline[0]   # O(n \log n): log, then space, then n
    log = sorting.find("mi", string="log")
    assert log is not None
    apply = log.find_parent("mrow").find_next_sibling("mo")
    assert apply.get_text() == "\u2061" and apply["lspace"] == "0.1667em"
    displays = page.select("main .math-display math")
    value = displays[2]   # aligned: two rows of two columns
    rows = value.find("mtable").find_all("mtr", recursive=False)
    assert [len(r.find_all("mtd", recursive=False)) for r in rows] == [2, 2]
    argmax = displays[4].find("munder")
    assert argmax is not None and "arg" in argmax.contents[0].get_text()
    assert "*" not in displays[4].get_text()
    tables = displays[5].find_all("mtable")
    assert len(tables) == 4   # cases, pmatrix, bmatrix, vmatrix
    breaks = displays[7].find("mtable")
    assert len(breaks.find_all("mtr", recursive=False)) == 3   # \\ and \newline


def test_a_formula_refused_in_every_language_is_reported_once(math_project: Path):
    needle = r"\lim_{n \to \infty} \frac{1}{n} = 0"
    for code in ("en", "zh", "ja"):
        edit(math_project, f"{ARTICLE}/{code}.md", needle, r"\limes_{n} \frac{1}{n} = 0")
    lines = {code: line_of(math_project, f"{ARTICLE}/{code}.md", r"\limes") for code in
             ("en", "zh", "ja")}
    message = failed_build(math_project)
    assert message.startswith("Build failed: 1 problem;"), message
    assert (f"content/formulas/en.md:{lines['en']}: formula $\\theta^* = "
            "\\operatorname*{arg\\,max}_{\\theta \\in \\Theta}") in message
    assert 'Unknown command "\\limes"' in message
    assert f"(the same formula in ja.md:{lines['ja']}, zh.md:{lines['zh']})" in message
    assert "[languages en, ja, zh]" in message


def test_every_refused_formula_is_listed_with_file_line_and_reason(math_project: Path):
    edit(math_project, f"{ARTICLE}/ja.md", r"$\eqref{bayes}$", r"$\eqref{bayse}$")
    edit(math_project, f"{ARTICLE}/zh.md", r"$p \mid q$", r"$p \mid q \tag{9}$")
    edit(math_project, f"{ARTICLE}/en.md", r"\label{eq:clip}", r"\label{eq:ratio}")
    edit(math_project, f"{ARTICLE}/en.md", r"\dot{x}", r"\cancel{x}")
    message = failed_build(math_project)
    # the fifth: en's $\eqref{eq:clip}$ now refers to no formula
    assert message.startswith("Build failed: 5 problems;"), message
    assert "formula $\\eqref{eq:clip}$: no display formula on this page" in message
    ja = line_of(math_project, f"{ARTICLE}/ja.md", r"\eqref{bayse}")
    assert (f"content/formulas/ja.md:{ja}: formula $\\eqref{{bayse}}$: no display formula on "
            "this page has \\label{bayse} (labels: bayes, eq:clip, eq:ratio, eq:value) "
            "[language 'ja']") in message
    zh = line_of(math_project, f"{ARTICLE}/zh.md", r"\tag{9}")
    assert (f"content/formulas/zh.md:{zh}: formula $p \\mid q \\tag{{9}}$: \\tag and \\label "
            "number display formulas only ($$…$$) [language 'zh']") in message
    assert "\\label{eq:ratio} is used by another display formula of this page" in message
    assert "browsers draw no 'updiagonalstrike'" in message


def test_a_formula_with_markup_in_its_text_shows_it_as_text(math_project: Path):
    edit(math_project, f"{ARTICLE}/en.md", r"\text{otherwise}",
         r"\text{<img src=x onerror=alert(1)>}")
    result = run_build(math_project)
    assert result.returncode == 0, result.stderr
    page = soup(math_project / "site" / "en" / "formulas.html")
    assert page.find("img") is None
    shown = [t.get_text().replace("\xa0", " ") for t in page.find_all("mtext")]
    assert "<img src=x onerror=alert(1)>" in shown


@pytest.mark.parametrize("tex, side", [(r"\overline{AB}", "top"), (r"\underline{x+1}", "bottom"),
                                       (r"\overline{x}^2", "top")])
def test_overline_and_underline_are_rules_not_combining_characters(tex, side):
    """U+0332 alone in an <mo> is a text run starting with a composing character, which
    HTML's validator reports; the rule is a menclose's border, as TeX draws it."""
    import unicodedata

    from articlesite.render.mathml import convert

    mathml = convert(tex, True).mathml
    assert f'<menclose notation="{side}" style="border-{side}:0.06em solid;' in mathml
    assert not any(unicodedata.combining(c) for c in mathml)
