"""Article translations, section by section: confirm a translation, change a section of
the source language, and `check`, the published pages and the translator's view say
which translated sections are out of date, until they are confirmed again. On the small
fixture site (tests/fixtures/sources: article `loop`, sections `collect` and `learn`, en
the source language, zh and ja its translations)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import check, edit, fixture_site, line_of, opened_view, run_build, snapshot, soup

SLUG = "loop"
ARTICLE = f"content/{SLUG}"
RECORD = f"{ARTICLE}/sections.confirmed.json"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The fixture site with its translations never confirmed section by section."""
    root = fixture_site("sources", tmp_path / "project")
    (root / RECORD).unlink()
    return root


def stale_findings(report: dict) -> list[tuple]:
    return [(f["file"], f["line"], f["key"], f["language"]) for f in report["findings"]
            if f["check"] == "translations" and f["severity"] == "problem"]


def notices(root, language: str) -> list[tuple[str, str, str]]:
    """(section before the notice, its text, its link) of each notice on a page."""
    page = soup(root / "site" / language / f"{SLUG}.html")
    found = []
    for notice in page.select("p.stale-notice"):
        heading = notice.find_previous_sibling("h2")
        found.append((heading["id"], notice.get_text(" ", strip=True), notice.a["href"]))
    return found


def test_unconfirmed_article_is_a_warning_and_shows_no_notice(root, capsys):
    code, report = check(root, capsys)
    assert code == 0
    warnings = [(f["file"], f["language"]) for f in report["findings"]
                if f["check"] == "translations"]
    assert warnings == [(f"{ARTICLE}/ja.md", "ja"), (f"{ARTICLE}/zh.md", "zh")]
    assert all(f["severity"] == "warning" for f in report["findings"])
    assert run_build(root).returncode == 0
    for language in ("en", "zh", "ja"):
        assert not soup(root / "site" / language / f"{SLUG}.html").select(".stale-notice")


def test_an_article_without_sections_is_not_said_to_have_0_unconfirmed(root, capsys):
    for code in ("zh", "en", "ja"):   # no '##' heading: nothing to confirm section by section
        (root / "content" / "short").mkdir(exist_ok=True)
        (root / "content" / "short" / f"{code}.md").write_text(
            f'---\ntitle: "Short {code}"\ndescription: "One paragraph."\n---\n\nOne.\n',
            encoding="utf-8")
    code, report = check(root, capsys)
    assert [f["message"] for f in report["findings"] if "content/short" in f["file"]] == []


def test_changed_source_section_is_stale_until_confirmed(root, capsys):
    result = run_build(root, "translations", "confirm", SLUG)
    assert result.returncode == 0, result.stdout
    assert f"Confirmed 4 sections of {SLUG}" in result.stdout
    record = json.loads((root / RECORD).read_text())
    assert list(record) == ["zh", "ja"] and "collect" in record["ja"]
    assert run_build(root).returncode == 0
    assert notices(root, "ja") == notices(root, "zh") == []

    edit(root, f"{ARTICLE}/en.md", "The policy acts, the environment answers",
         "The policy acts and the environment answers")
    code, report = check(root, capsys)
    assert code == 1
    assert stale_findings(report) == [
        (f"{ARTICLE}/{language}.md", line_of(root, f"{ARTICLE}/{language}.md",
                                             "{#collect}"), "collect", language)
        for language in ("ja", "zh")]
    assert run_build(root).returncode == 0
    assert notices(root, "ja") == [(
        "collect", ("この節は翻訳後に原文が更新されたため、内容が古い可能性があります。"
                    " 原文を読む ( English )"),
        f"../en/{SLUG}.html#collect")]
    assert notices(root, "zh")[0][1].startswith("本节的原文已更新")
    assert notices(root, "en") == []
    view = opened_view(root / "site")
    row = view.select_one(f"#article-{SLUG}").find("code", string="collect").find_parent("tr")
    assert [s.get_text() for s in row.select(".status")] == ["stale", "stale"]
    assert [a["href"] for a in row.select("a")] == [
        f"{language}/{SLUG}.html#collect" for language in ("en", "zh", "ja")]
    # An incremental build is the clean build, byte for byte.
    incremental = snapshot(root / "site")
    assert run_build(root, "--clean").returncode == 0
    assert snapshot(root / "site") == incremental

    result = run_build(root, "translations", "confirm", f"{SLUG}#collect:ja")
    assert f"Confirmed 1 section of {SLUG}" in result.stdout
    assert check(root, capsys)[0] == 1   # zh is still stale
    result = run_build(root, "translations", "confirm", f"{SLUG}#collect")
    assert result.returncode == 0, result.stdout
    assert check(root, capsys)[0] == 0
    assert run_build(root).returncode == 0
    assert notices(root, "ja") == notices(root, "zh") == []
    view = opened_view(root / "site")
    assert {s.get_text() for s in view.select(f"#article-{SLUG} .status")} == {"ok"}


def test_confirming_what_does_not_exist_is_a_usage_error(root):
    for target, message in ((f"{SLUG}#no-such-section", "has no section 'no-such-section'"),
                            ("no-such-article#x", "'no-such-article' is not an article"),
                            (f"{SLUG}:en", "'en' is not a translation of")):
        result = run_build(root, "translations", "confirm", target)
        assert result.returncode == 2 and message in result.stderr
        assert "Traceback" not in result.stderr
    assert not (root / RECORD).exists()
