"""Adding a language gradually: Korean, marked `status: in-progress`, builds with the
source language's texts standing in for what it lacks (marked in serve, listed by
check), and no other language lists it until it is finished; finished, a missing text
stops the build as before."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import TEXTS, check, failed_build, line_of, run_build, set_text, soup
from test_serve import Server, poll

ARTICLE = "content/ppo-long-horizon"
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
    shutil.copy(root / ARTICLE / "zh.md", root / ARTICLE / "ko.md")
    set_text(root, "demos", "ko", "작업 시연")
    set_text(root, "sft", "ko", "지도 미세조정 SFT")


@pytest.fixture
def korean(project: Path) -> Path:
    add_korean(project)
    return project


def test_in_progress_language_builds_with_marked_fallbacks(korean):
    result = run_build(korean)
    assert result.returncode == 0, result.stderr
    page = soup(korean / "site" / "ko" / "ppo-long-horizon.html")
    assert page.html["lang"] == "ko"
    demos = page.select_one('#figure-training-overview [data-node="demos"] strong')
    assert demos.get_text() == "작업 시연" and demos.select_one("[data-fallback]") is None
    prefs = page.select_one('#figure-training-overview [data-node="prefs"] strong')
    fallback = prefs.select_one("[data-fallback]")
    assert (fallback.get_text(), fallback["lang"]) == ("成对偏好", "zh-CN")
    # Interface strings fall back too (no Korean strings at all).
    assert page.select_one("#toc-title").get_text() == "目录"
    # It lists itself and the finished languages.
    switcher = [a.get_text() for a in page.select(".switcher a")]
    assert switcher == ["中文", "English", "日本語", "한국어"]


@pytest.mark.parametrize("path", ["index.html", "en/index.html", "ja/index.html",
                                  "zh/ppo-long-horizon.html", "en/ppo-long-horizon.html"])
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
    prefs = next(f for f in found if f["key"] == "prefs")
    assert (prefs["file"], prefs["line"], prefs["check"]) == (
        TEXTS, line_of(korean, TEXTS, '"prefs":'), "translations")
    assert "the ko pages show the zh text (ko is in progress)" in prefs["message"]
    translated = {f["key"]: f["message"] for f in found if f["key"] in ("demos", "sft")}
    assert all("never confirmed" in message for message in translated.values())
    strings = {f["key"] for f in found if f["file"] == "templates/strings.yaml"}
    assert {"contents", "references", "section-stale"} <= strings


def test_finished_language_with_a_missing_text_fails_as_before(korean):
    site = korean / "content" / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace("    status: in-progress\n", ""),
                    encoding="utf-8")
    problems = failed_build(korean)
    line = line_of(korean, TEXTS, '"prefs":')
    assert (f"{TEXTS}:{line}: translation missing for language 'ko' [key 'prefs', "
            "language 'ko']") in problems
    assert not (korean / "site").exists()


def test_serve_marks_the_fallbacks_on_the_language_s_pages(korean):
    set_text(korean, "prefs", "ko", "선호 쌍")
    server = Server(korean, "--port", "0")
    try:
        status, _, body = server.get("/ko/ppo-long-horizon.html")
        assert status == 200
        page = soup_text(body)
        bar = page.select_one("#articlesite-in-progress")
        assert bar is not None and "ko is in progress" in bar.get_text()
        assert "[data-fallback]{outline" in body
        assert "109 figure texts (outlined)" in bar.get_text()
        set_text(korean, "rm-training", "ko", "RM 학습")   # the bar follows the sources
        assert poll(lambda: "108 figure texts (outlined)" in server.get(
            "/ko/ppo-long-horizon.html")[2])
        _, _, english = server.get("/en/ppo-long-horizon.html")
        assert "articlesite-in-progress" not in english
    finally:
        assert server.stop() == 0


def soup_text(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


def test_x_default_never_points_to_a_language_in_progress(project):
    # Korean listed first, and the article only in Korean and Japanese: the Japanese
    # page's x-default is its own page, not the Korean one it does not list.
    config = project / "content" / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "languages:\n", "languages:\n" + KOREAN, 1), encoding="utf-8")
    shutil.copy(project / ARTICLE / "zh.md", project / ARTICLE / "ko.md")
    (project / ARTICLE / "zh.md").unlink()
    (project / ARTICLE / "en.md").unlink()
    assert run_build(project).returncode == 0, "build failed"
    page = soup(project / "site" / "ja" / "ppo-long-horizon.html")
    assert page.select_one('link[hreflang="x-default"]')["href"] == "../ja/ppo-long-horizon.html"
    korean = soup(project / "site" / "ko" / "ppo-long-horizon.html")
    assert korean.select_one('link[hreflang="x-default"]')["href"] == "../ja/ppo-long-horizon.html"
