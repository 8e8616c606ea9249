"""End to end: the real article, built, as a reader finds it in each language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml
from conftest import REPO, soup

LANGUAGES = {"zh": "zh-CN", "en": "en", "ja": "ja"}
ARTICLE = "ppo-long-horizon"
FIGURES = ["training-overview", "reward-value-training", "trajectory-models",
           "critic-training", "ppo-update"]
SECTIONS = ["training-loop", "reward-model", "rollout", "advantages", "optimization",
            "long-trajectories", "grpo-dpo"]
ORACLE = json.loads((REPO / "tests/data/seed_geometry.json").read_text(encoding="utf-8"))
TEXTS = json.loads((REPO / "figures/figure-texts.json").read_text(encoding="utf-8"))


def page(site: Path, code: str):
    return soup(site / code / f"{ARTICLE}.html")


def style_numbers(element, *names: str) -> list[float]:
    style = dict(part.split(":", 1) for part in element["style"].split(";") if part)
    out = []
    for name in names:
        value = style[name]
        if name == "transform":
            value = re.match(r"rotate\((-?[\d.]+)deg\)", value).group(1)
        out.append(float(value.removesuffix("px")))
    return out


def test_every_page_is_written(built_site: Path):
    written = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*")
                     if p.is_file() and "pagefind" not in p.relative_to(built_site).parts)
    # No sitemap.xml nor robots.txt: the real site has no base_url.
    # .articlesite-output: the mark of a folder a build wrote, which the next may replace
    assert written == sorted([".articlesite-output", "index.html", "translations.html",
                              "404.html",   # and the translator's view's files:
                              f"translations/article-{ARTICLE}.js", "translations/keys-0.js"]
                             + [f"{c}/index.html" for c in LANGUAGES]
                             + [f"{c}/feed.xml" for c in LANGUAGES]
                             + [f"{c}/{ARTICLE}.html" for c in LANGUAGES])
    assert (built_site / "pagefind" / "pagefind.js").is_file()   # the search index


@pytest.mark.parametrize("code", LANGUAGES)
def test_head_names_the_language_and_its_alternates(built_site: Path, code: str):
    html = page(built_site, code)
    assert html.html["lang"] == LANGUAGES[code]
    front = (REPO / f"content/{ARTICLE}/{code}.md").read_text(encoding="utf-8")
    title = re.search(r'^title: "(.*)"$', front, re.MULTILINE).group(1)
    assert html.title.string.startswith(title)
    assert html.h1.get_text() == title
    assert html.find("meta", attrs={"name": "description"})["content"]
    alternates = {link["hreflang"]: link["href"]
                  for link in html.find_all("link", rel="alternate", hreflang=True)}
    assert alternates == {"zh-CN": f"../zh/{ARTICLE}.html", "en": f"../en/{ARTICLE}.html",
                          "ja": f"../ja/{ARTICLE}.html", "x-default": f"../en/{ARTICLE}.html"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_page_is_standalone(built_site: Path, code: str):
    html = page(built_site, code)
    assert not html.find("link", rel="stylesheet")
    assert not html.find("script", src=True)
    assert not html.find(["img", "iframe", "object", "embed"])
    assert "@import" not in html.style.get_text() and "url(" not in html.style.get_text()


@pytest.mark.parametrize("code", LANGUAGES)
def test_sections_are_numbered_with_a_table_of_contents(built_site: Path, code: str):
    html = page(built_site, code)
    sections = [h for h in html.select("article h2[id]") if h["id"] != "toc-title"]
    assert [h["id"] for h in sections] == SECTIONS + ["references"]
    assert [h.select_one(".secno").get_text() for h in sections[:-1]] == [
        str(n) for n in range(1, 8)]
    toc = [a["href"] for a in html.select("nav.toc a")]
    assert toc == [f"#{s}" for s in SECTIONS]


@pytest.mark.parametrize("code", LANGUAGES)
def test_formulas_are_mathml_built_at_build_time(built_site: Path, code: str):
    html = page(built_site, code)
    formulas = html.find_all("math")
    assert len(formulas) == 31
    assert len([m for m in formulas if m.get("display") == "block"]) == 8
    for formula in formulas:
        assert not formula.find("merror")
        assert "\\" not in formula.get_text()
    assert "$" not in html.article.get_text()


@pytest.mark.parametrize("code", LANGUAGES)
def test_citations_link_to_the_bibliography_and_back(built_site: Path, code: str):
    html = page(built_site, code)
    ids = {tag["id"] for tag in html.find_all(id=True)}
    cites = html.select(".cite a")
    assert len(cites) == 10
    for cite in cites:
        assert cite["href"].removeprefix("#") in ids
    entries = html.select(".references li")
    assert [e["id"] for e in entries] == [
        "ref-instructgpt", "ref-gae", "ref-sutton-barto", "ref-ppo", "ref-secrets-rlhf",
        "ref-deepseekmath", "ref-dpo"]
    assert [bool(e.select(".unconfirmed")) for e in entries] == [
        False, False, True, False, True, False, False]
    for entry in entries:
        backs = entry.select("a.backref")
        assert backs, f"{entry['id']} is cited nowhere"
        assert all(b["href"].removeprefix("#") in ids for b in backs)
    # [3] is cited before [2], as in the seed: numbers follow the bibliography.
    numbers = [c.get_text() for c in cites]
    assert numbers == ["1", "1", "1", "3", "1", "2", "4", "5", "6", "7"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_figures_are_in_place_with_translated_captions(built_site: Path, code: str):
    html = page(built_site, code)
    figures = html.select("figure.figure")
    assert [f["id"] for f in figures] == [f"figure-{f}" for f in FIGURES]
    placed_in = [f.find_previous("h2")["id"] for f in figures]
    assert placed_in == ["training-loop", "reward-model", "rollout", "advantages",
                         "optimization"]
    for figure in figures:
        caption = figure.figcaption.get_text()
        assert caption in {TEXTS[k][code] for k in TEXTS if k.endswith("-caption")}
    assert figures[0].figcaption.get_text() == TEXTS["overview-caption"][code]


def test_japanese_page_shows_japanese_node_text_in_the_seed_box(built_site: Path):
    node = page(built_site, "ja").select_one("#figure-training-overview [data-node=sft]")
    assert node.strong.get_text() == "教師あり学習 SFT"
    assert node.name == "a" and node["href"] == "#reward-model"
    box = style_numbers(node, "left", "top", "width", "height")
    assert box == ORACLE["training-overview"]["nodes"][1] == [215, 48, 170, 62]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("figure_id", FIGURES)
def test_figure_geometry_matches_the_seed(built_site: Path, code: str, figure_id: str):
    figure = page(built_site, code).select_one(f"#figure-{figure_id}")
    expected = ORACLE[figure_id]
    canvas = figure.select_one(".canvas")
    assert style_numbers(canvas, "width", "height") == pytest.approx(expected["canvas"], abs=1)
    nodes = [style_numbers(n, "left", "top", "width", "height") for n in figure.select(".node")]
    assert len(nodes) == len(expected["nodes"])
    for got, want in zip(nodes, expected["nodes"]):
        assert got == pytest.approx(want, abs=1)
    edges = figure.select(".edge")
    assert len(edges) == len(expected["edges"])
    for edge, want in zip(edges, expected["edges"]):
        assert style_numbers(edge, "left", "top", "width", "transform") == pytest.approx(
            want, abs=1)
    # One arrowhead per edge of the spec, on the segment that ends the polyline.
    spec = yaml.safe_load((REPO / f"figures/{figure_id}.yaml").read_text(encoding="utf-8"))
    arrows = [e for e in edges if "arrow" in e["class"]]
    assert len(arrows) == len(spec["edges"])


@pytest.mark.parametrize("code", LANGUAGES)
def test_subscripts_are_real_text(built_site: Path, code: str):
    node = page(built_site, code).select_one("#figure-training-overview [data-node=actor]")
    assert node.select_one(".sub sub").get_text() == "old"
    assert "π" in node.select_one(".sub").get_text()


@pytest.mark.parametrize("code", LANGUAGES)
def test_nodes_link_to_sections_of_the_same_page(built_site: Path, code: str):
    html = page(built_site, code)
    ids = {tag["id"] for tag in html.find_all(id=True)}
    links = html.select("a.node")
    assert len(links) == 15
    assert {a["href"].removeprefix("#") for a in links} <= ids


def test_every_link_in_the_site_leads_somewhere(built_site: Path):
    pages = {path: soup(path) for path in built_site.rglob("*.html")}
    ids = {path: {tag["id"] for tag in html.find_all(id=True)} for path, html in pages.items()}
    for path, html in pages.items():
        for link in html.find_all(["a", "link"], href=True):
            href = link["href"]
            parts = urlsplit(href)
            if parts.scheme in ("http", "https"):
                assert link.name == "a" and "arxiv.org" in href, href
                continue
            if parts.scheme == "data":   # the site's icon, inline (theme/favicon.html)
                assert link.name == "link" and link["rel"] == ["icon"], href
                continue
            # The 404 page's links start from the host's root (it is served at any depth).
            base = built_site if parts.path.startswith("/") else path.parent
            target = (base / unquote(parts.path).lstrip("/")).resolve() if parts.path \
                else path
            assert target.is_file(), f"{path}: {href}"
            if parts.fragment:
                assert parts.fragment in ids[target], f"{path}: {href}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_switcher_reaches_the_same_article_in_the_other_languages(built_site: Path, code):
    html = page(built_site, code)
    links = html.select("nav.switcher a")
    targets = {a["lang"]: a["href"] for a in links}
    assert targets[LANGUAGES[code]] == f"{ARTICLE}.html"
    for other, lang in LANGUAGES.items():
        if other != code:
            assert targets[lang] == f"../{other}/{ARTICLE}.html"
            assert (built_site / other / f"{ARTICLE}.html").is_file()


def test_root_page_lets_the_reader_choose_a_language(built_site: Path):
    html = soup(built_site / "index.html")
    choices = {a["lang"]: a["href"] for a in html.select(".choose-language a")}
    assert choices == {"zh-CN": "zh/index.html", "en": "en/index.html", "ja": "ja/index.html"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_language_index_lists_the_article(built_site: Path, code: str):
    html = soup(built_site / code / "index.html")
    assert html.html["lang"] == LANGUAGES[code]
    assert html.select_one("a.article-title")["href"] == f"{ARTICLE}.html"
    read_in = [a["lang"] for a in html.select(".read-in a")]
    assert read_in == list(LANGUAGES.values())
