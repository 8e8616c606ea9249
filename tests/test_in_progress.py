"""Adding a language gradually: Korean, marked `status: in-progress`, builds with the
source language's texts standing in for what it lacks (marked in serve, listed by
check), and no other language lists it until it is finished; finished, a missing text
stops the build as before. On the small fixture site (tests/fixtures/sources: article
`loop`, figure `steps` with keys steps-title, steps-caption, act and learn; en the source
language): Korean translates act and steps-title, and falls back for the other two."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import TEXTS, check, failed_build, fixture_site, line_of, run_build, set_text, soup
from test_serve import Server, poll

SLUG = "loop"
ARTICLE = f"content/{SLUG}"
KOREAN = """\
  - code: ko
    name: 한국어
    lang: ko
    title: 기술 문서
    status: in-progress
"""


def add_korean(root: Path) -> None:
    with (root / "content" / "site.yaml").open("a", encoding="utf-8") as file:
        file.write(KOREAN)
    shutil.copy(root / ARTICLE / "en.md", root / ARTICLE / "ko.md")
    set_text(root, "act", "ko", "행동")
    set_text(root, "steps-title", "ko", "두 단계")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


@pytest.fixture
def korean(root: Path) -> Path:
    add_korean(root)
    return root


def test_in_progress_language_builds_with_marked_fallbacks(korean):
    result = run_build(korean)
    assert result.returncode == 0, result.stderr
    page = soup(korean / "site" / "ko" / f"{SLUG}.html")
    assert page.html["lang"] == "ko"
    act = page.select_one('#figure-steps [data-node="act"] strong')
    assert act.get_text() == "행동" and act.select_one("[data-fallback]") is None
    learn = page.select_one('#figure-steps [data-node="learn"] strong')
    fallback = learn.select_one("[data-fallback]")
    assert (fallback.get_text(), fallback["lang"]) == ("Learn", "en")
    # The default theme has Korean interface strings.
    assert page.select_one("#toc-title").get_text() == "목차"
    # It lists itself and the finished languages.
    switcher = [a.get_text() for a in page.select(".switcher a")]
    assert switcher == ["English", "中文", "日本語", "한국어"]


@pytest.mark.parametrize("path", ["index.html", "en/index.html", "ja/index.html",
                                  f"zh/{SLUG}.html", f"en/{SLUG}.html"])
def test_no_finished_language_lists_it(korean, path):
    assert run_build(korean).returncode == 0
    page = soup(korean / "site" / path)
    assert not page.select('[hreflang="ko"]'), path
    assert not [a for a in page.select("a[href]") if "ko/" in a["href"]], path
    assert "한국어" not in page.get_text()


def test_check_lists_every_fallback_and_exits_1(korean, capsys):
    code, report = check(korean, capsys)
    assert code == 1
    found = [f for f in report["findings"] if f["language"] == "ko"
             and f["severity"] == "problem"]
    caption = next(f for f in found if f["key"] == "steps-caption")
    assert (caption["file"], caption["line"], caption["check"]) == (
        TEXTS, line_of(korean, TEXTS, '"steps-caption":'), "translations")
    assert "the ko pages show the en text (ko is in progress)" in caption["message"]
    translated = {f["key"]: f["message"] for f in found if f["key"] in ("act", "steps-title")}
    assert len(translated) == 2
    assert all("never confirmed" in message for message in translated.values())


def test_interface_strings_the_theme_lacks_fall_back_too(root, capsys):
    """Vietnamese, which the default theme has no strings for, in progress: its pages
    show the source language's strings, and check lists each."""
    with (root / "content" / "site.yaml").open("a", encoding="utf-8") as file:
        file.write(KOREAN.replace("ko", "vi").replace("한국어", "Tiếng Việt"))
    shutil.copy(root / ARTICLE / "en.md", root / ARTICLE / "vi.md")
    assert run_build(root).returncode == 0
    page = soup(root / "site" / "vi" / f"{SLUG}.html")
    assert page.select_one("#toc-title").get_text() == "Contents"
    code, report = check(root, capsys)
    strings = {f["key"] for f in report["findings"] if f["language"] == "vi"
               and f["file"] == "templates/strings.yaml"}
    assert code == 1 and {"contents", "references", "section-stale"} <= strings


def test_finished_language_with_a_missing_text_fails_as_before(korean):
    site = korean / "content" / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace("    status: in-progress\n", ""),
                    encoding="utf-8")
    problems = failed_build(korean)
    line = line_of(korean, TEXTS, '"steps-caption":')
    assert (f"{TEXTS}:{line}: translation missing for language 'ko' [key 'steps-caption', "
            "language 'ko']") in problems
    assert not (korean / "site").exists()


def test_serve_marks_the_fallbacks_on_the_language_s_pages(korean):
    set_text(korean, "steps-caption", "ko", "행동한 뒤 배운다.")
    server = Server(korean, "--port", "0")
    try:
        status, _, body = server.get(f"/ko/{SLUG}.html")
        assert status == 200
        page = soup_text(body)
        bar = page.select_one("#articlesite-in-progress")
        assert bar is not None and "ko is in progress" in bar.get_text()
        assert "[data-fallback]{outline" in body
        assert "1 figure text (outlined)" in bar.get_text()   # learn
        set_text(korean, "learn", "ko", "학습")   # the bar follows the sources
        assert poll(lambda: "0 figure texts (outlined)" in server.get(f"/ko/{SLUG}.html")[2])
        _, _, english = server.get(f"/en/{SLUG}.html")
        assert "articlesite-in-progress" not in english
    finally:
        assert server.stop() == 0


def soup_text(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


def test_x_default_never_points_to_a_language_in_progress(root):
    # Korean listed first, and the article only in Korean and Japanese: the Japanese
    # page's x-default is its own page, not the Korean one it does not list.
    config = root / "content" / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "languages:\n", "languages:\n" + KOREAN, 1), encoding="utf-8")
    shutil.copy(root / ARTICLE / "en.md", root / ARTICLE / "ko.md")
    (root / ARTICLE / "zh.md").unlink()
    (root / ARTICLE / "en.md").unlink()
    assert run_build(root).returncode == 0, "build failed"
    page = soup(root / "site" / "ja" / f"{SLUG}.html")
    assert page.select_one('link[hreflang="x-default"]')["href"] == f"../ja/{SLUG}.html"
    korean = soup(root / "site" / "ko" / f"{SLUG}.html")
    assert korean.select_one('link[hreflang="x-default"]')["href"] == f"../ja/{SLUG}.html"
