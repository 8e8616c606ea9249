"""Front matter: dates shown per language in <time>, authors, tags, drafts left out unless
asked for, indexes newest first, and every mistake reported at once with the known
fields."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import failed_build, run_build, soup
from readers_site import readers_site

from articlesite.build import build


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return readers_site(tmp_path / "project")


def test_dates_are_shown_in_each_language_in_time_elements(site: Path):
    assert run_build(site).returncode == 0
    expected = {"zh": ("2024年3月10日", "更新于 2024年4月2日", "李明和佐藤花子"),
                "en": ("March 10, 2024", "Updated April 2, 2024", "Li Ming and Hanako Sato"),
                "ja": ("2024年3月10日", "2024年4月2日 更新", "李明、佐藤花子")}
    for code, (published, updated, authors) in expected.items():
        page = soup(site / "site" / code / "attention.html")
        line = page.select_one("article .dateline")
        times = line.find_all("time")
        assert [t["datetime"] for t in times] == ["2024-03-10", "2024-04-02"]
        assert times[0].get_text() == published
        assert line.select_one(".updated").get_text() == updated
        assert line.select_one(".authors").get_text() == authors
        assert len(page.select(".tags li")) == 2
        index = soup(site / "site" / code / "index.html")
        item = next(li for li in index.select(".articles > li")
                    if li.select_one("a.article-title[href='attention.html']"))
        assert item.select_one("time")["datetime"] == "2024-03-10"
        assert item.select_one("time").get_text() == published


def test_indexes_list_articles_newest_first_undated_last(site: Path):
    assert run_build(site).returncode == 0
    order = {code: [li.select_one(".read-in a")["href"].rsplit("/", 1)[1]
                    for li in soup(site / "site" / code / "index.html").select(".articles > li")]
             for code in ("zh", "en", "ja")}
    # An article missing in a language (kv-cache in ja, the draft wip in en) is listed by
    # the date of the version shown.
    assert order["en"] == ["wip.html", "kv-cache.html", "attention.html", "undated.html"]
    assert order["zh"] == order["en"]
    assert order["ja"] == ["wip.html", "kv-cache.html", "attention.html", "undated.html"]


def test_drafts_are_left_out_unless_asked_for(site: Path):
    assert run_build(site).returncode == 0
    assert not (site / "site/en/wip.html").exists()
    assert (site / "site/ja/wip.html").is_file()   # draft is per language: ja is not one
    assert "wip.html" not in (site / "site/en/index.html").read_text(encoding="utf-8") \
        .replace("../ja/wip.html", "")

    assert run_build(site, "--drafts").returncode == 0
    page = soup(site / "site/en/wip.html")
    assert page.select_one(".dateline .draft-badge").get_text() == "Draft"
    assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"
    item = next(li for li in soup(site / "site/en/index.html").select(".articles > li")
                if "Work in progress" in li.get_text())
    assert item.select_one(".draft-badge") is not None


def test_serve_builds_with_drafts(site: Path):
    build(site, drafts=True)   # what serve does (serve --no-drafts: drafts=False)
    assert (site / "site/en/wip.html").is_file()


def test_extra_is_handed_to_the_templates(site: Path):
    template = site / "templates/article.html"
    template.write_text(template.read_text(encoding="utf-8").replace(
        "<article data-pagefind-body>",
        "<article data-pagefind-body data-series=\"{{ extra.get('series', '') }}\">"),
        encoding="utf-8")
    assert run_build(site).returncode == 0
    assert soup(site / "site/ja/attention.html").article["data-series"] == "推論の基礎"


def test_every_front_matter_mistake_is_reported_at_once(site: Path):
    (site / "content/attention/ja.md").write_text(
        "---\ntitle: T\ndescription: D\ndate: 2024-02-30x\nupdated: 2024-01-01\n"
        "author: X\nauthors: [1]\ntags: {a: b}\ndraft: 'yes'\nimage: ../x.png\n"
        "extra: [1]\n---\n\n## Cost {#cost}\n\n## Memory {#memory}\n", encoding="utf-8")
    (site / "content/kv-cache/en.md").write_text(
        "---\ntitle: T\ndescription: D\ndate: 2024-05-02\nupdated: 2024-05-01\n"
        "---\n\n## What {#what}\n", encoding="utf-8")
    undated = site / "content/undated/en.md"
    undated.write_text(undated.read_text(encoding="utf-8").replace(
        "title:", "image: missing.png\ntitle:"), encoding="utf-8")
    message = failed_build(site)
    ja, en = "content/attention/ja.md", "content/kv-cache/en.md"
    for line, key in [(4, "date"), (7, "authors"), (8, "tags"), (9, "draft"),
                      (10, "image"), (11, "extra")]:
        assert f"{ja}:{line}: '{key}' must be" in message
        assert f"[key '{key}', language 'ja']" in message
    assert (f"{ja}:6: unknown field 'author' in front matter (did you mean 'authors'? "
            "known fields: title, "
            "description, date, updated, authors, tags, draft, image, extra, numbering) "
            "[key 'author', language 'ja']") in message
    assert f"{en}:5: 'updated' (2024-05-01) is before 'date' (2024-05-02)" in message
    assert ("content/undated/en.md:2: the front matter's image 'missing.png' is not a file "
            "in undated/ [key 'image', language 'en']") in message


@pytest.mark.parametrize("value, shown", [
    ("2024-05-01 10:00:00", "May 1, 2024"),            # YAML's own timestamp, no offset: UTC
    ("'2024-05-01T23:30:00+09:00'", "May 1, 2024"),  # as written, in its own offset
    ("2024-05-01T12:00:00Z", "May 1, 2024"),
])
def test_dates_with_times(site: Path, value: str, shown: str):
    path = site / "content/undated/en.md"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "description:", f"date: {value}\ndescription:"), encoding="utf-8")
    assert run_build(site).returncode == 0
    time = soup(site / "site/en/undated.html").select_one(".dateline time")
    assert time.get_text() == shown
    assert time["datetime"].startswith("2024-05-01T")
