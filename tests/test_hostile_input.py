"""Hostile input: markup in any source shows as text, links cannot run script, and no
source can make the build write outside site/ (and its cache, whose files are named by
their digests). On the small fixture site (tests/fixtures/sources): every kind of source
file, in three languages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from conftest import REPO, edit, failed_build, fixture_site, run_build, soup

from articlesite.translate.view import view_script

ARTICLE = "content/loop"
SCRIPT = "<script>alert(1)</script>"
BREAKOUT = '"><img src=x onerror=alert(2)>'
HOSTILE = SCRIPT + BREAKOUT
# The inline scripts pages carry: templates/head.js and page.js, and the translator's
# view's measure.js and view.js from the package (one script: translate/view.py's view_script).
OWN_SCRIPTS = {path.read_text(encoding="utf-8").strip() for path in
               [*(REPO / "src/articlesite").rglob("*.js")]}
OWN_SCRIPTS.add(view_script().strip())
DATA_SCRIPTS = ["application/ld+json", "application/json"]   # data, never run
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "data")
# The theme's own icon, an inline image (theme/favicon.html): the one data: URL allowed.
ICON = re.search(r'href="(data:[^"]*)"', (REPO / "src/articlesite/theme/favicon.html")
                 .read_text(encoding="utf-8")).group(1)


def assert_inert(site: Path) -> None:
    """No page holds a script, element or attribute that the templates did not put there."""
    for page in site.rglob("*.html"):
        html = soup(page)
        scripts = {s.get_text().strip() for s in html.find_all("script")
                   if s.get("type") not in DATA_SCRIPTS}
        assert scripts <= OWN_SCRIPTS, page
        for data in html.find_all("script", type=DATA_SCRIPTS):   # JSON-LD, the view's index
            json.loads(data.string)
            assert "<" not in data.string, page   # no text can close the script element
        # The forms are the templates' search boxes (the pages', the view's), submitting nowhere.
        assert all((form.get("class") == ["search"] or form.get("id") == "find")
                   and not form.get("action")
                   for form in html.find_all("form")), page
        assert not html.find(["img", "iframe", "object", "embed", "base"]), page
        assert not html.find("meta", attrs={"http-equiv": True}), page
        for element in html.find_all(True):
            for name, value in element.attrs.items():
                assert not name.startswith("on"), (page, element.name, name)
                if name in URL_ATTRIBUTES and not (element.name == "link" and value == ICON):
                    target = re.sub(r"[\s\x00-\x1f]", "", str(value)).lower()
                    assert not target.startswith(("javascript:", "data:", "vbscript:")), (
                        page, element.name, value)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


def built(root: Path) -> Path:
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


def test_front_matter_shows_as_text(project: Path):
    front = yaml.safe_dump({"title": "T " + HOSTILE, "description": "D " + HOSTILE},
                           allow_unicode=True)
    path = project / ARTICLE / "en.md"
    body = path.read_text(encoding="utf-8").split("---\n", 2)[2]
    path.write_text(f"---\n{front}---\n{body}", encoding="utf-8")
    site = built(project)
    page = soup(site / "en/loop.html")
    assert page.h1.get_text() == "T " + HOSTILE
    assert page.title.get_text().startswith("T " + HOSTILE)
    assert page.find("meta", attrs={"name": "description"})["content"] == "D " + HOSTILE
    index = soup(site / "en/index.html")
    assert index.select_one(".article-title").get_text() == "T " + HOSTILE
    assert_inert(site)


def test_figure_texts_show_as_text_everywhere_they_appear(project: Path):
    # Node text (also named in the figure's text alternative), heading and caption.
    path = project / "figures/figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    for key in ("act", "steps-title", "steps-caption"):
        texts[key]["zh"] = HOSTILE
    path.write_text(json.dumps(texts, ensure_ascii=False), encoding="utf-8")
    site = built(project)
    figure = soup(site / "zh/loop.html").select_one("#figure-steps")
    assert figure.select_one("[data-node=act] strong").get_text() == HOSTILE
    assert figure.select_one(".figure-heading").get_text() == HOSTILE
    assert figure.figcaption.get_text() == HOSTILE
    assert f"从“{HOSTILE}”到“{texts['learn']['zh']}”" in [li.get_text()
                                                     for li in figure.select("li")]
    assert_inert(site)


def test_site_configuration_and_bibliography_show_as_text(project: Path):
    edit(project, "content/site.yaml", "title: Notes", f"title: '{HOSTILE}'")
    edit(project, f"{ARTICLE}/references.yaml", "authors: Schulman et al.",
         f"authors: '{HOSTILE}'")
    site = built(project)
    page = soup(site / "en/loop.html")
    assert page.select_one(".site-title").get_text() == HOSTILE
    assert page.select_one("#ref-gae").get_text().startswith(HOSTILE + ",")
    assert_inert(site)


@pytest.mark.parametrize("markdown", [
    "[click me](javascript:alert(1))",
    "[click me](JaVaScRiPt:alert(1))",
    "[click me](  javascript:alert(1)  )",
    "<javascript:alert(1)>",
    "![click me](javascript:alert(1))",
    "[click me](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[click me][x]\n\n[x]: javascript:alert(1)",
    SCRIPT,
    BREAKOUT,
])
def test_markdown_links_cannot_run_script(project: Path, markdown: str):
    edit(project, f"{ARTICLE}/ja.md", "\n## ", f"\n{markdown}\n\n## ")
    site = built(project)
    assert_inert(site)
    text = soup(site / "ja/loop.html").article.get_text()
    assert ("click me" if "click me" in markdown else "alert(") in text


@pytest.mark.parametrize("latex", [
    r"\href{javascript:alert(1)}{x}",
    r"\style{position:fixed;inset:0}{x}",
    r"\htmlClass{x}{y}",
])
def test_a_formula_cannot_smuggle_markup(project: Path, latex: str):
    edit(project, f"{ARTICLE}/en.md", "\n## ", f"\n$${latex}$$\n\n## ")
    message = failed_build(project)
    assert f"{ARTICLE}/en.md:" in message and "formula" in message


@pytest.mark.parametrize("latex, shown", [
    (r"\text{<script>alert(1)</script>}", "<script>alert(1)</script>"),
    (r"\text{x<img src=x onerror=alert(1)>}", "x<img src=x onerror=alert(1)>"),
])
def test_markup_in_a_formula_text_is_shown_as_text(project: Path, latex: str, shown: str):
    edit(project, f"{ARTICLE}/en.md", "\n## ", f"\n$${latex}$$\n\n## ")
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    assert_inert(project / "site")
    page = soup(project / "site" / "en" / "loop.html")
    assert shown in [t.get_text().replace("\xa0", " ") for t in page.find_all("mtext")]


def test_a_bibliography_url_must_be_http(project: Path):
    edit(project, f"{ARTICLE}/references.yaml", "url: https://arxiv.org/abs/1506.02438",
         "url: javascript:alert(1)")
    assert "'url' must start with http:// or https://" in failed_build(project)


@pytest.mark.parametrize("link", ["javascript:alert(1)", "'#collect'", "../../etc/passwd",
                                  "references", "toc-title"])
def test_a_node_links_only_to_a_section_of_the_article(project: Path, link: str):
    edit(project, "figures/steps.yaml", "link: learn", f"link: {link}")
    assert "figures/steps.yaml:" in failed_build(project)


def outside(root: Path) -> set[str]:
    """Every file beside and inside the project, except in its site/ and the build cache."""
    return {p.relative_to(root.parent).as_posix() for p in root.parent.rglob("*")
            if p.is_file() and not p.is_relative_to(root / "site")
            and not p.is_relative_to(root / ".articlesite-cache")}


@pytest.mark.parametrize("name", ["UPPER", "a.b", "-lead", "a b", "über"])
def test_an_article_folder_must_be_a_plain_slug(project: Path, name: str):
    # The folder name becomes the page's path: site/<language>/<slug>.html.
    (project / "content" / name).mkdir()
    (project / "content" / name / "en.md").write_text("---\ntitle: x\ndescription: y\n---\n",
                                                     encoding="utf-8")
    assert f"article folder '{name}' must be named with lower-case" in failed_build(project)


@pytest.mark.parametrize("figure_id", ["../../../outside", "/tmp/x", "steps/..", "STEPS"])
def test_a_figure_directive_names_a_figure_not_a_path(project: Path, figure_id: str):
    edit(project, f"{ARTICLE}/en.md", "```{figure} steps",
         f"```{{figure}} {figure_id}")
    before = outside(project)
    message = failed_build(project)
    assert f"unknown figure '{figure_id}'" in message
    assert outside(project) == before


def test_a_figure_spec_file_name_must_be_a_plain_id(project: Path):
    spec = project / "figures/steps.yaml"
    (project / "figures/Bad Name.yaml").write_text(spec.read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    assert "figure id 'Bad Name' must be lower-case" in failed_build(project)
