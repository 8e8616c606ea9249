"""Article translations, section by section: confirm a translation, change a section of
the source language, and `check`, the published pages and the translator's view say
which translated sections are out of date, until they are confirmed again."""

from __future__ import annotations

import json

from conftest import check, edit, line_of, run_build, snapshot, soup

ARTICLE = "content/ppo-long-horizon"
SLUG = "ppo-long-horizon"


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


def test_real_article_is_unconfirmed_section_by_section_and_shows_no_notice(
        project, capsys, built_site):
    code, report = check(project, capsys)
    assert code == 0
    warnings = [(f["file"], f["language"]) for f in report["findings"]
                if f["check"] == "translations"]
    assert warnings == [(f"{ARTICLE}/en.md", "en"), (f"{ARTICLE}/ja.md", "ja")]
    assert all(f["severity"] == "warning" for f in report["findings"])
    for language in ("zh", "en", "ja"):
        assert not soup(built_site / language / f"{SLUG}.html").select(".stale-notice")


def test_changed_source_section_is_stale_until_confirmed(project, capsys):
    result = run_build(project, "check", "--no-browser", "--confirm", SLUG)
    assert result.returncode == 0, result.stdout
    assert "Confirmed 14 sections of ppo-long-horizon" in result.stdout
    record = json.loads((project / ARTICLE / "sections.confirmed.json").read_text())
    assert list(record) == ["en", "ja"] and "rollout" in record["ja"]
    assert run_build(project).returncode == 0
    assert notices(project, "ja") == notices(project, "en") == []

    edit(project, f"{ARTICLE}/zh.md", "原脚本把金额转成 float 后求和",
         "原脚本把金额字符串转成 float 后逐行求和")
    code, report = check(project, capsys)
    assert code == 1
    assert stale_findings(report) == [
        (f"{ARTICLE}/{language}.md", line_of(project, f"{ARTICLE}/{language}.md",
                                             "{#rollout}"), "rollout", language)
        for language in ("en", "ja")]
    assert run_build(project).returncode == 0
    assert notices(project, "ja") == [(
        "rollout", "この節は翻訳後に原文が更新されたため、内容が古い可能性があります。 原文を読む ( 中文 )",
        f"../zh/{SLUG}.html#rollout")]
    assert notices(project, "en")[0][1].startswith("The original of this section has changed")
    assert notices(project, "zh") == []
    view = soup(project / "site" / "translations.html")
    row = view.select_one(f"#article-{SLUG}").find("code", string="rollout").find_parent("tr")
    assert [s.get_text() for s in row.select(".status")] == ["stale", "stale"]
    assert [a["href"] for a in row.select("a")] == [
        f"{language}/{SLUG}.html#rollout" for language in ("zh", "en", "ja")]
    # An incremental build is the clean build, byte for byte.
    incremental = snapshot(project / "site")
    assert run_build(project, "--clean").returncode == 0
    assert snapshot(project / "site") == incremental

    result = run_build(project, "check", "--no-browser", "--confirm", f"{SLUG}#rollout:ja")
    assert "Confirmed 1 section of ppo-long-horizon" in result.stdout
    assert result.returncode == 1   # en is still stale
    result = run_build(project, "check", "--no-browser", "--confirm", f"{SLUG}#rollout")
    assert result.returncode == 0, result.stdout
    assert run_build(project).returncode == 0
    assert notices(project, "ja") == notices(project, "en") == []
    view = soup(project / "site" / "translations.html")
    assert {s.get_text() for s in view.select(f"#article-{SLUG} .status")} == {"ok"}


def test_confirming_what_does_not_exist_is_a_usage_error(project):
    for target, message in ((f"{SLUG}#no-such-section", "has no section 'no-such-section'"),
                            ("no-such-article#x", "'no-such-article' is not an article"),
                            (f"{SLUG}:zh", "'zh' is not a translation of")):
        result = run_build(project, "check", "--no-browser", "--confirm", target)
        assert result.returncode == 2 and message in result.stderr
        assert "Traceback" not in result.stderr
    assert not (project / ARTICLE / "sections.confirmed.json").exists()
