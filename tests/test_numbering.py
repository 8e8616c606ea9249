"""Section numbers: on by default, off with `numbering: false` (site.yaml or front
matter), and not added to headings that carry their own numbers (said once, as a note)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_build, soup, without_search

from articlesite.load.numbering import own_numbers
from articlesite.starter import init_project

NUMBERED = {
    "zh": ("## 1. 数据格式 {#data}\n\n文字。\n\n## 2. 训练 {#train}\n\n文字。\n"),
    "en": ("## 1. Data format {#data}\n\nText.\n\n## 2. Training {#train}\n\nText.\n"),
    "ja": ("## 第一章 データ {#data}\n\n本文。\n\n## 第二章 学習 {#train}\n\n本文。\n"),
}


def write_article(root: Path, slug: str, bodies: dict[str, str], meta: str = "") -> None:
    folder = root / "content" / slug
    folder.mkdir()
    for code, body in bodies.items():
        (folder / f"{code}.md").write_text(
            f"---\ntitle: T {code}\ndescription: D.\n{meta}---\n\n{body}", encoding="utf-8")


def heading_texts(page: Path) -> tuple[list[str], list[str]]:
    """The `##` headings of a page as shown, and whether its contents list is numbered."""
    html = soup(page)
    toc = html.select_one("nav.toc ol")
    return ([h.get_text(" ", strip=True) for h in html.select("article h2[id]")
             if h.get("id") != "toc-title" and h.get("id") != "references"],
            "unnumbered" not in (toc.get("class") or []))


@pytest.fixture(scope="module")
def numbered_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("numbering") / "project"
    init_project(root, ["zh", "en", "ja"], "zh")
    without_search(root)
    write_article(root, "own", NUMBERED)
    write_article(root, "off", {"zh": "## 数据 {#data}\n\n文字。\n"}, "numbering: false\n")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root


def test_headings_with_their_own_numbers_get_none_added(numbered_site):
    site = numbered_site / "site"
    assert heading_texts(site / "zh" / "own.html") == (["1. 数据格式", "2. 训练"], False)
    assert heading_texts(site / "ja" / "own.html") == (["第一章 データ", "第二章 学習"], False)
    # an article with unnumbered headings keeps the generated numbers
    assert heading_texts(site / "zh" / "hello.html") == (["1 写作", "2 翻译"], True)


def test_the_note_is_said_once_per_article(numbered_site):
    result = run_build(numbered_site, "--clean")
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert len(notes) == 1, result.stderr
    assert "content/own/" in notes[0] and "numbering: true" in notes[0]


def test_front_matter_turns_numbers_off(numbered_site):
    assert heading_texts(numbered_site / "site" / "zh" / "off.html") == (["数据"], False)


def test_site_yaml_turns_numbers_off_and_front_matter_on_again(tmp_path):
    root = tmp_path / "project"
    init_project(root, ["en"], "en")
    without_search(root)
    config = root / "content" / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "numbering: false\n",
                      encoding="utf-8")
    write_article(root, "on", {"en": "## Data {#data}\n\nText.\n"}, "numbering: true\n")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    assert heading_texts(root / "site" / "en" / "hello.html")[1] is False
    assert heading_texts(root / "site" / "en" / "on.html") == (["1 Data"], True)
    assert "note:" not in result.stderr


@pytest.mark.parametrize("titles", [["1. 数据格式", "2. 训练"], ["2.1 Loss", "2.2 Gain"],
                                    ["一、数据", "二、训练"], ["第一章 はじめに"],
                                    ["(1) A", "(2) B"], ["IV. Results"], ["제1장 데이터"]])
def test_own_numbers_are_recognised(titles):
    assert own_numbers(titles)


@pytest.mark.parametrize("titles", [[], ["1. A", "Summary"], ["A · Prepare"],
                                    ["The complete training loop"], ["一个例子"],
                                    ["GRPO 与 DPO"], ["2024 in review"]])
def test_unnumbered_headings_are_not(titles):
    assert not own_numbers(titles)
