"""Feeds, sitemap, robots.txt, head metadata and the 404 page of a dated fixture site,
read as feed readers, crawlers and link previews read them, and checked against the
front matter the author wrote."""

from __future__ import annotations

import datetime as dt
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import feedparser
import pytest
from conftest import run_build, soup
from readers_site import front_matter, readers_site

BASE = "https://example.org/notes/"
ATOM = "{http://www.w3.org/2005/Atom}"
SM = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
LANGS = {"zh": "zh-CN", "en": "en", "ja": "ja"}
RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = readers_site(tmp_path_factory.mktemp("readers") / "project")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root


def published(root: Path) -> dict[str, dict]:
    """Every published article page, by its path in site/: its front matter."""
    pages = {}
    for source in sorted((root / "content").glob("*/*.md")):
        meta = front_matter(root, source.parent.name, source.stem)
        if not meta.get("draft"):
            pages[f"{source.stem}/{source.parent.name}.html"] = meta
    return pages


def headers(url: str) -> dict:
    """What a server sends with a feed: its address (for relative links) and type."""
    return {"content-location": url, "content-type": "application/atom+xml"}


def moment(value) -> dt.datetime:
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(), tzinfo=dt.UTC)
    raise TypeError(value)


def test_one_atom_feed_per_language_newest_first(site: Path):
    pages = published(site)
    for code, lang in LANGS.items():
        url = f"{BASE}{code}/feed.xml"
        data = (site / "site" / code / "feed.xml").read_bytes()
        feed = feedparser.parse(data, response_headers=headers(url))
        assert not feed.bozo, feed.get("bozo_exception")
        assert feed.version == "atom10"
        assert feed.feed.language == lang
        assert feed.feed.link == f"{BASE}{code}/index.html"
        expected = sorted(((path, meta) for path, meta in pages.items()
                           if path.startswith(f"{code}/") and meta.get("date")),
                          key=lambda item: moment(item[1]["date"]), reverse=True)
        assert [entry.link for entry in feed.entries] == [BASE + path for path, _ in expected]
        for entry, (path, meta) in zip(feed.entries, expected, strict=True):
            assert entry.title == meta["title"]
            assert entry.summary == meta["description"]
            assert entry.id == BASE + path
            published_at = moment(meta["date"])
            updated_at = moment(meta.get("updated", meta["date"]))
            assert dt.datetime(*entry.published_parsed[:6], tzinfo=dt.UTC) == published_at
            assert dt.datetime(*entry.updated_parsed[:6], tzinfo=dt.UTC) == updated_at
            authors = meta.get("authors", [])
            authors = [authors] if isinstance(authors, str) else authors
            assert [a.name for a in entry.get("authors", [])] == authors or not authors
            tags = meta.get("tags", [])
            assert [t.term for t in entry.get("tags", [])] == (
                [tags] if isinstance(tags, str) else tags)
            assert (site / "site" / path).is_file()


def test_feeds_meet_the_atom_specification(site: Path):
    """What RFC 4287 requires, element by element (feedparser forgives much of it)."""
    for code in LANGS:
        feed = ET.parse(site / "site" / code / "feed.xml").getroot()
        assert feed.tag == f"{ATOM}feed"
        for parent in [feed, *feed.findall(f"{ATOM}entry")]:
            for required in ("id", "title", "updated"):
                assert len(parent.findall(f"{ATOM}{required}")) == 1, (code, required)
            for stamp in (*parent.findall(f"{ATOM}updated"),
                          *parent.findall(f"{ATOM}published")):
                assert RFC3339.match(stamp.text), stamp.text
        assert feed.find(f"{ATOM}author/{ATOM}name").text   # covers entries without one
        assert feed.find(f"{ATOM}link[@rel='self']").get("href") == f"{BASE}{code}/feed.xml"
        ids = [e.find(f"{ATOM}id").text for e in feed.findall(f"{ATOM}entry")]
        assert len(ids) == len(set(ids))


def test_sitemap_lists_every_published_page_with_its_languages(site: Path):
    pages = published(site)
    urlset = ET.parse(site / "site" / "sitemap.xml").getroot()
    listed = {}
    for url in urlset.findall(f"{SM}url"):
        loc = url.find(f"{SM}loc").text
        assert loc.startswith(BASE)
        path = loc.removeprefix(BASE)
        assert (site / "site" / path).is_file()
        lastmod = url.find(f"{SM}lastmod")
        alternates = {link.get("hreflang"): link.get("href")
                      for link in url.findall(f"{XHTML}link")}
        listed[path] = (lastmod.text if lastmod is not None else None, alternates)
    html = {p.relative_to(site / "site").as_posix() for p in (site / "site").rglob("*.html")}
    assert set(listed) == html - {"404.html", "translations.html"}
    for path, meta in pages.items():
        lastmod, alternates = listed[path]
        newest = meta.get("updated") or meta.get("date")
        assert (moment(lastmod) if lastmod else None) == (moment(newest) if newest else None)
        slug = path.split("/")[1]
        languages = [p.split("/")[0] for p in pages if p.endswith(f"/{slug}")]
        assert alternates == {LANGS[c]: f"{BASE}{c}/{slug}" for c in languages} | {
            "x-default": f"{BASE}{'en' if 'en' in languages else languages[0]}/{slug}"}
    # The draft en/wip.html is not published, so ja/wip.html has no en alternate.
    assert set(listed["ja/wip.html"][1]) == {"ja", "x-default"}
    robots = (site / "site" / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {BASE}sitemap.xml" in robots.splitlines()


def test_head_metadata_matches_the_front_matter(site: Path):
    for path, meta in published(site).items():
        code, slug = path.split("/")[0], path.split("/")[1].removesuffix(".html")
        page = soup(site / "site" / path)
        og = {tag["property"]: tag["content"] for tag in page.find_all("meta", property=True)
              if not tag["property"].startswith(("og:locale:alternate", "article:author",
                                                 "article:tag"))}
        twitter = {tag["name"]: tag["content"] for tag in page.find_all("meta")
                   if tag.get("name", "").startswith("twitter:")}
        assert page.find("link", rel="canonical")["href"] == BASE + path
        assert og["og:title"] == twitter["twitter:title"] == meta["title"]
        assert og["og:description"] == twitter["twitter:description"] == meta["description"]
        assert og["og:url"] == BASE + path
        assert og["og:type"] == "article"
        assert og["og:locale"] == {"zh": "zh_CN", "en": "en_US", "ja": "ja_JP"}[code]
        others = [c for c in LANGS if c != code and f"{c}/{slug}.html" in published(site)]
        assert [t["content"] for t in page.find_all("meta", property="og:locale:alternate")] \
            == [{"zh": "zh_CN", "en": "en_US", "ja": "ja_JP"}[c] for c in others]
        authors = meta.get("authors", [])
        authors = [authors] if isinstance(authors, str) else authors
        assert [t["content"] for t in page.find_all("meta", property="article:author")] \
            == authors
        data = json.loads(page.find("script", type="application/ld+json").string)
        assert data["@type"] == "Article"
        assert data["headline"] == meta["title"]
        assert data["inLanguage"] == LANGS[code]
        assert [a["name"] for a in data.get("author", [])] == authors
        if meta.get("date"):
            assert moment(data["datePublished"]) == moment(meta["date"])
            assert moment(data["dateModified"]) == moment(meta.get("updated", meta["date"]))
            assert moment(og["article:published_time"]) == moment(meta["date"])
        else:
            assert "datePublished" not in data and "article:published_time" not in og
        if meta.get("image"):
            image = f"{BASE}assets/{slug}/{meta['image']}"
            assert og["og:image"] == twitter["twitter:image"] == data["image"] == image
            # the body shows no cover: the preview image is published all the same
            assert (site / "site" / image.removeprefix(BASE)).is_file()
            assert twitter["twitter:card"] == "summary_large_image"
        else:
            assert "og:image" not in og and twitter["twitter:card"] == "summary"


def test_preview_image_is_published_per_language_and_checked(tmp_path: Path):
    """`image:` is published whether the body shows it or not, its variant for a language
    first (cover.ja.png); a missing file or one that is no image stops the build, named
    with its file, line, key and language."""
    root = readers_site(tmp_path / "project")
    folder = root / "content" / "attention"
    (folder / "cover.ja.png").write_bytes((folder / "cover.png").read_bytes()[:-1] + b"\0")
    assert run_build(root).returncode == 0
    for code, name in (("ja", "cover.ja.png"), ("zh", "cover.png"), ("en", "cover.png")):
        page = soup(root / "site" / code / "attention.html")
        url = page.find("meta", property="og:image")["content"]
        assert url == f"{BASE}assets/attention/{name}"
        published_file = root / "site" / url.removeprefix(BASE)
        assert published_file.read_bytes() == (folder / name).read_bytes()
        assert "cover" not in str(page.find("article"))
    source = folder / "ja.md"
    source.write_text(source.read_text(encoding="utf-8").replace(
        "image: cover.png", "image: covers/missing.png"), encoding="utf-8")
    (folder / "notes.txt").write_text("not an image\n", encoding="utf-8")
    source = folder / "zh.md"
    source.write_text(source.read_text(encoding="utf-8").replace(
        "image: cover.png", "image: notes.txt"), encoding="utf-8")
    result = run_build(root)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert re.search(r"content/attention/ja\.md:8: .*'covers/missing\.png' is not a file"
                     r".*\[key 'image', language 'ja'\]", result.stderr), result.stderr
    assert re.search(r"content/attention/zh\.md:8: .*'notes\.txt' is not an image a browser"
                     r" shows.*\[language 'zh'\]", result.stderr), result.stderr


def test_in_progress_language_is_listed_by_no_finished_page(tmp_path: Path):
    """Korean, `status: in-progress` (README, "Adding a language"): its pages are built
    but the sitemap, the other languages' feeds and the root page do not name them."""
    root = readers_site(tmp_path / "project")
    with (root / "content" / "site.yaml").open("a", encoding="utf-8") as file:
        file.write("  - {code: ko, name: 한국어, lang: ko, title: 기술 노트, "
                   "status: in-progress}\n")
    attention = root / "content" / "attention"
    (attention / "ko.md").write_text((attention / "en.md").read_text(encoding="utf-8")
                                     .replace("What attention costs", "어텐션의 비용"),
                                     encoding="utf-8")
    (root / "content" / "only-ko").mkdir()
    (root / "content" / "only-ko" / "ko.md").write_text(
        '---\ntitle: "한국어만"\ndescription: "x"\ndate: 2025-01-01\n---\n\n'
        "## 하나 {#one}\n\n텍스트.\n", encoding="utf-8")
    assert run_build(root).returncode == 0
    out = root / "site"
    assert (out / "ko" / "attention.html").is_file()
    assert "only-ko.html" in (out / "ko" / "index.html").read_text(encoding="utf-8")
    for code in LANGS:
        assert "only-ko" not in (out / code / "index.html").read_text(encoding="utf-8")
    sitemap = (out / "sitemap.xml").read_text(encoding="utf-8")
    assert "ko/" not in sitemap and 'hreflang="ko"' not in sitemap
    urlset = ET.fromstring(sitemap)
    for url in urlset.findall(f"{SM}url"):
        hreflangs = {link.get("hreflang") for link in url.findall(f"{XHTML}link")}
        assert hreflangs <= {"zh-CN", "en", "ja", "x-default"}
    for code in LANGS:
        feed = feedparser.parse((out / code / "feed.xml").read_bytes(),
                                response_headers=headers(f"{BASE}{code}/feed.xml"))
        assert not feed.bozo and feed.entries
        assert all(e.link.startswith(f"{BASE}{code}/") for e in feed.entries)
    korean = feedparser.parse((out / "ko" / "feed.xml").read_bytes(),
                              response_headers=headers(f"{BASE}ko/feed.xml"))
    assert [e.title for e in korean.entries] == ["한국어만", "어텐션의 비용"]
    assert "ko/" not in (out / "index.html").read_text(encoding="utf-8")
    assert "한국어" not in soup(out / "index.html").get_text()


def test_404_page_links_every_language(site: Path):
    page = soup(site / "site" / "404.html")
    assert page.html["lang"] == "en"
    assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"
    links = [a["href"] for a in page.select("main a")]
    assert links == [f"{BASE}{code}/index.html" for code in LANGS]


def test_without_base_url(tmp_path: Path):
    """No sitemap or robots.txt (both need absolute URLs), no canonical link, og:url or
    preview image; the feeds still work, their links relative to the feed."""
    root = readers_site(tmp_path / "project")
    config = root / "content" / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        f"base_url: {BASE}\n", ""), encoding="utf-8")
    assert run_build(root).returncode == 0
    out = root / "site"
    assert not (out / "sitemap.xml").exists() and not (out / "robots.txt").exists()
    page = soup(out / "ja" / "attention.html")
    assert page.find("link", rel="canonical") is None
    assert page.find("meta", property="og:url") is None
    assert page.find("meta", property="og:image") is None
    assert page.find("meta", property="og:title")["content"] == "アテンションの計算コスト"
    served_at = "http://localhost:8000/ja/feed.xml"
    feed = feedparser.parse((out / "ja" / "feed.xml").read_bytes(),
                            response_headers=headers(served_at))
    assert not feed.bozo
    assert [e.link for e in feed.entries] == [urljoin(served_at, "wip.html"),
                                             urljoin(served_at, "attention.html")]
    assert all(e.id.startswith("urn:uuid:") for e in feed.entries)
    # Served in place of a missing page at any depth: links from the host's root.
    assert [a["href"] for a in soup(out / "404.html").select("main a")] == [
        "/zh/index.html", "/en/index.html", "/ja/index.html"]
