"""An article written in only some languages: no page is invented for the others."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from conftest import run_build, soup


def add_english_only_article(root: Path) -> None:
    folder = root / "content" / "draft-notes"
    folder.mkdir()
    (folder / "en.md").write_text(
        '---\ntitle: "Draft notes"\ndescription: "Written in English first."\n---\n\n'
        "## First section {#first}\n\nSome text with $x_1$.\n", encoding="utf-8")


def test_missing_languages_are_shown_as_not_available(project: Path):
    add_english_only_article(project)
    result = run_build(project)
    assert result.returncode == 0, result.stderr
    site = project / "site"
    assert (site / "en" / "draft-notes.html").is_file()
    assert not (site / "zh" / "draft-notes.html").exists()
    assert not (site / "ja" / "draft-notes.html").exists()

    page = soup(site / "en" / "draft-notes.html")
    unavailable = page.select("nav.switcher .unavailable")
    assert sorted(u["lang"] for u in unavailable) == ["ja", "zh-CN"]
    assert [a["lang"] for a in page.select("nav.switcher a")] == ["en"]
    alternates = {link["hreflang"] for link in page.find_all("link", rel="alternate",
                                                             hreflang=True)}
    assert alternates == {"en", "x-default"}

    for code in ("zh", "en", "ja"):
        index = soup(site / code / "index.html")
        item = next(li for li in index.select(".articles > li")
                    if "Draft notes" in li.get_text())
        assert [a["lang"] for a in item.select(".read-in a")] == ["en"]
        for link in index.find_all("a", href=True):
            path = urlsplit(link["href"]).path
            if path and not link["href"].startswith("http"):
                assert (site / code / path).resolve().is_file(), link["href"]
