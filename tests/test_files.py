"""Images and other files an article references, and links between articles: published
beside the pages, sized, per-language variants, and every mistake reported with its file,
line and language."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import assert_same_as_clean_build, check, failed_build, run_build, soup
from filesite import IMAGES, add_image, make_site, write_article

from articlesite.build import build
from articlesite.render.assets import svg_size

GALLERY = """## Figures {#figures}

![The training curve](chart.assets/chart.png "Reward over steps")

![A photo of the rig](photo.jpg) ![The data flow](flow.svg)

![An icon](icon.gif) ![A WebP diagram](diagram.webp)

Download [the table](data/table.csv) or read [the figures](#figures).
"""


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = make_site(tmp_path / "project")
    config = root / "content" / "site.yaml"   # its SVG is the author's own: published
    config.write_text(config.read_text("utf-8") + "publish_html_and_svg: true\n", "utf-8")
    folder = write_article(root, "gallery", dict.fromkeys(("zh", "en", "ja"), GALLERY))
    add_image(folder, "chart.png", "chart.assets/chart.png")
    add_image(folder, "chart.ja.png", "chart.assets/chart.ja.png")
    for name in ("photo.jpg", "flow.svg", "icon.gif", "diagram.webp"):
        add_image(folder, name)
    (folder / "data").mkdir()
    (folder / "data" / "table.csv").write_text("step,reward\n1,0.5\n", encoding="utf-8")
    return root


def target_of(page: Path, url: str) -> Path:
    """The file a relative URL of a page leads to."""
    return (page.parent / unquote(urlsplit(url).path)).resolve()


def test_images_are_published_once_beside_the_pages_with_their_size(site: Path):
    result = run_build(site)
    assert result.returncode == 0, result.stderr
    # root, 3 indexes, 3 articles, the view, 404.html and 3 feeds; the 7 images once each
    assert "12 pages and 7 files" in result.stdout
    published = site / "site" / "assets" / "gallery"
    source = site / "content" / "gallery"
    # One copy of each file for every language, byte for byte the author's.
    assert sorted(p.relative_to(published).as_posix() for p in published.rglob("*")
                  if p.is_file()) == ["chart.assets/chart.ja.png", "chart.assets/chart.png",
                                      "data/table.csv", "diagram.webp", "flow.svg",
                                      "icon.gif", "photo.jpg"]
    for path in published.rglob("*"):
        if path.is_file():
            assert path.read_bytes() == (source / path.relative_to(published)).read_bytes()
    sizes = {"chart.png": (80, 50), "chart.ja.png": (90, 56), "photo.jpg": (48, 32),
             "flow.svg": (120, 60), "icon.gif": (24, 20), "diagram.webp": (64, 40)}
    for code in ("zh", "en", "ja"):
        page = site / "site" / code / "gallery.html"
        images = soup(page).select("main img")
        assert len(images) == 5
        for image in images:
            file = target_of(page, image["src"])
            assert file.is_file() and file.is_relative_to(published)
            assert (int(image["width"]), int(image["height"])) == sizes[file.name]
            assert image["loading"] == "lazy" and image["decoding"] == "async"
            assert image["alt"]
        chart = images[0]
        assert chart["title"] == "Reward over steps"
        # The Japanese page shows its own variant; the others the shared file.
        expected = "chart.ja.png" if code == "ja" else "chart.png"
        assert target_of(page, chart["src"]).name == expected
        table = soup(page).find("a", string="the table")
        assert target_of(page, table["href"]) == (published / "data" / "table.csv").resolve()
        assert soup(page).find("a", string="the figures")["href"] == "#figures"


def test_a_variant_without_a_shared_file_serves_its_language_only(site: Path):
    folder = site / "content" / "gallery"
    add_image(folder, "chart.png", "only.zh.png")
    for code in ("zh", "en", "ja"):
        path = folder / f"{code}.md"
        path.write_text(path.read_text(encoding="utf-8") + "\n![Only in Chinese](only.png)\n",
                        encoding="utf-8")
    errors = failed_build(site)
    # zh has its variant; en and ja have neither a variant nor the shared file.
    assert "zh.md" not in errors
    assert ("content/gallery/en.md:16: file 'only.png' not found: no "
            "content/gallery/only.png (the same file in ja.md:16) [languages en, ja]") in errors


def test_missing_and_misplaced_files_stop_the_build_with_file_line_and_language(tmp_path):
    root = make_site(tmp_path / "project")
    write_article(root, "other", {"en": "## A {#a}\n\nText.\n"})
    folder = write_article(root, "broken", {"en": (
        "## Broken {#broken}\n\n"
        "![Gone](gone.png)\n\n"                      # line 8
        "![Next door](../other/x.png)\n\n"           # line 10
        "![Root](/logo.png) [up](../../secret.txt)\n\n"  # line 12
        "![Not an image](notes.txt)\n\n"             # line 14
        "A [missing file](data/missing.csv) and\n"   # line 16
        "a [missing article](../nowhere/).\n")})     # line 17
    (folder / "notes.txt").write_text("text", encoding="utf-8")
    (root / "site").mkdir()
    (root / "site" / "keep.html").write_text("last good site", encoding="utf-8")
    errors = failed_build(root).splitlines()
    where = "content/broken/en.md"
    expected = [
        (f"{where}:8: file 'gone.png' not found: no content/broken/gone.png (nor "
         "content/broken/gone.en.png)"),
        f"{where}:10: image '../other/x.png' is outside the article's folder content/broken/",
        f"{where}:12: '/logo.png' is an absolute path",
        f"{where}:12: '../../secret.txt' leads out of content/",
        f"{where}:14: 'notes.txt' is not an image a browser shows",
        f"{where}:16: file 'data/missing.csv' not found",
        f"{where}:17: link '../nowhere/': there is no article 'nowhere'",
    ]
    for start in expected:
        assert any(line.strip().startswith(start) and line.endswith("[language 'en']")
                   for line in errors), (start, errors)
    assert errors[0] == f"Build failed: {len(expected)} problems; site/ was left as it was."
    assert (root / "site" / "keep.html").read_text(encoding="utf-8") == "last good site"


LINKS = """## Links {#links}

[Same folder](../target/) and [bare](../target) and [index](../target/index.md)
and [a source](../target/en.md#second) and [here](#links).
"""


@pytest.mark.parametrize(("languages", "expected"), [
    # in every language: the page's own
    (("zh", "en", "ja"), {"zh": "zh", "en": "en", "ja": "ja"}),
    # only zh and en: ja falls back to the source language, zh
    (("zh", "en"), {"zh": "zh", "en": "en", "ja": "zh"}),
    # only en and ja: zh falls back to the default language, en
    (("en", "ja"), {"zh": "en", "en": "en", "ja": "ja"}),
    # only ja: the only one there is
    (("ja",), {"zh": "ja", "en": "ja", "ja": "ja"}),
])
def test_links_to_an_article_choose_the_best_language(tmp_path: Path, languages, expected):
    root = make_site(tmp_path / "project")
    write_article(root, "target", {code: "## First {#first}\n\n## Second {#second}\n"
                                   for code in languages})
    write_article(root, "source", dict.fromkeys(("zh", "en", "ja"), LINKS))
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    names = {"zh": ("中文", "zh-CN"), "en": ("English", "en"), "ja": ("日本語", "ja")}
    for code, chosen in expected.items():
        page = root / "site" / code / "source.html"
        links = soup(page).select("main p a")
        assert [a.get_text(" ", strip=True).split(" ")[0] for a in links] == \
            ["Same", "bare", "index", "a", "here"]
        for link in links[:4]:
            assert target_of(page, link["href"]) == \
                (root / "site" / chosen / "target.html").resolve()
            tag = link.select_one(".link-lang")
            if chosen == code:
                assert not link.has_attr("hreflang") and tag is None
            else:
                assert link["hreflang"] == chosen
                name, lang = names[chosen]  # "(English)" read aloud; a tag on screen
                assert (tag.get_text(), tag["lang"]) == (f" ({name})", lang)
        assert links[3]["href"].endswith("target.html#second")
        assert links[4]["href"] == "#links"


def test_check_reports_images_without_alt_outside_images_and_missing_ids(site: Path,
                                                                        capsys):
    path = site / "content" / "gallery" / "ja.md"
    path.write_text(path.read_text(encoding="utf-8") + (
        "\n![](photo.jpg)\n\n"                          # line 16
        "![Logo](https://example.org/logo.png)\n\n"     # line 18
        "See [nowhere](#no-such-section).\n\n"         # line 20
        "And [a section](../notes/#method), [another](../notes/#none).\n"),  # line 22
        encoding="utf-8")
    write_article(site, "notes", {"zh": "## 方法 {#method}\n"})
    assert run_build(site).returncode == 0  # none of these stops the build
    page = soup(site / "site" / "ja" / "gallery.html")
    # The outside image is not loaded: a link to it instead.
    assert not page.select('img[src^="https:"]')
    assert page.find("a", class_="external-image")["href"] == "https://example.org/logo.png"
    code, report = check(site, capsys)
    assert code == 1
    found = {(f["file"], f["line"], f["language"], f["check"], f["message"].split(":")[0])
             for f in report["findings"] if f["check"] == "links"}
    where = "content/gallery/ja.md"
    assert found == {
        (where, 16, "ja", "links", "image 'photo.jpg' has no alt text"),
        (where, 18, "ja", "links", "image 'https"),
        (where, 20, "ja", "links", "link to '#no-such-section'"),
        (where, 22, "ja", "links", "link to '../notes/#none'"),
    }
    assert any(f["message"] == "link to '../notes/#none': the article's page in 'zh' has "
               "no such id" for f in report["findings"])


def test_check_is_never_clean_with_a_broken_image(site: Path, capsys):
    from articlesite.cli import main

    path = site / "content" / "gallery" / "en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("photo.jpg", "fhoto.jpg"),
                    encoding="utf-8")
    assert main(["--root", str(site), "check", "--no-browser"]) == 1
    out = capsys.readouterr().out
    assert "Clean" not in out
    assert "content/gallery/en.md:10: file 'fhoto.jpg' not found" in out


def test_svg_sizes_from_width_height_and_viewbox():
    def svg(attributes: str) -> bytes:
        return (f'<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns='
                f'"http://www.w3.org/2000/svg" {attributes}><rect width="5" height="5"/>'
                "</svg>").encode()

    assert svg_size(svg('width="300" height="150"')) == (300, 150)
    assert svg_size(svg('width="300px" height="2in"')) == (300, 192)
    assert svg_size(svg('viewBox="0 0 640 480"')) == (640, 480)
    assert svg_size(svg('width="100%" viewBox="0,0,640,480"')) == (640, 480)
    assert svg_size(svg('width="320" viewBox="0 0 640 480"')) == (320, 240)
    assert svg_size(svg('height="10cm" viewBox="0 0 2 1"')) == (756, 378)
    # No size at all (only the inner rectangle's): unknown, never the rectangle's.
    assert svg_size(svg("")) is None
    assert svg_size(b"<html><svg width='1' height='1'/></html>") is None


# Incremental builds --------------------------------------------------------------------
def test_replacing_an_image_renders_the_pages_that_show_it(site: Path, tmp_path: Path):
    build(site)
    assert build(site).rendered == []
    # The shared chart: shown on zh and en (ja shows its variant).
    add_image(site / "content" / "gallery", "photo.jpg", "chart.assets/chart.png")
    assert build(site).rendered == ["en/gallery.html", "zh/gallery.html"]
    chart = soup(site / "site" / "en" / "gallery.html").select_one("main img")
    assert (chart["width"], chart["height"]) == ("48", "32")
    assert (site / "site" / "assets" / "gallery" / "chart.assets" / "chart.png").read_bytes() \
        == (IMAGES / "photo.jpg").read_bytes()
    assert_same_as_clean_build(site, tmp_path)


def test_adding_and_removing_a_variant_renders_that_language(site: Path, tmp_path: Path):
    build(site)
    folder = site / "content" / "gallery"
    add_image(folder, "icon.gif", "photo.zh.jpg")  # any bytes: sniffed, not by name
    assert build(site).rendered == ["zh/gallery.html"]
    assert (site / "site" / "assets" / "gallery" / "photo.zh.jpg").is_file()
    assert_same_as_clean_build(site, tmp_path / "one")
    (folder / "photo.zh.jpg").unlink()
    (folder / "chart.assets" / "chart.ja.png").unlink()
    assert build(site).rendered == ["ja/gallery.html", "zh/gallery.html"]
    assert not (site / "site" / "assets" / "gallery" / "photo.zh.jpg").exists()
    assert_same_as_clean_build(site, tmp_path / "two")


def test_a_linked_article_in_a_new_language_renders_the_pages_linking_to_it(tmp_path):
    root = make_site(tmp_path / "project")
    write_article(root, "target", {"zh": "## A {#a}\n"})
    write_article(root, "source", dict.fromkeys(("zh", "en", "ja"), LINKS))
    build(root)
    write_article(root, "target", {"en": "## A {#a}\n"})
    rendered = build(root).rendered
    # en now links to its own language; ja still to zh, but it shows the article's
    # languages only through the link: it is rendered too, and so are the indexes.
    assert {"en/source.html", "ja/source.html", "zh/source.html"} <= set(rendered)
    link = soup(root / "site" / "en" / "source.html").select_one("main p a")
    assert link["href"] == "../en/target.html" and not link.has_attr("hreflang")
    assert_same_as_clean_build(root, tmp_path)


# Symbolic links ------------------------------------------------------------------------
def test_symlinks_out_of_the_project_are_refused_naming_the_link(site: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes((IMAGES / "chart.png").read_bytes())
    (outside / "en.md").write_text('---\ntitle: "x"\ndescription: "y"\n---\n',
                                   encoding="utf-8")
    folder = site / "content" / "gallery"
    (folder / "photo.jpg").unlink()
    os.symlink(outside / "secret.png", folder / "photo.jpg")
    os.symlink(outside, site / "content" / "elsewhere")
    os.symlink(outside / "secret.png", site / "templates" / "logo.png")
    os.symlink(outside / "en.md", site / "figures" / "borrowed.yaml")
    os.symlink(tmp_path / "nothing-here", folder / "dangling.png")
    errors = failed_build(site)
    for link in ("content/gallery/photo.jpg", "content/elsewhere", "templates/logo.png",
                 "figures/borrowed.yaml"):
        assert f"  {link}: symbolic link to '{outside}" in errors, errors
        assert f"outside the project ({site})" in errors
    assert "  content/gallery/dangling.png: symbolic link to" in errors
    assert "cannot be followed" in errors
    assert not (site / "site").exists()


def test_symlinks_inside_the_project_are_followed(site: Path):
    shared = site / "shared"
    shared.mkdir()
    add_image(shared, "icon.gif", "logo.gif")
    folder = site / "content" / "gallery"
    os.symlink(os.path.relpath(shared / "logo.gif", folder), folder / "logo.gif")
    os.symlink(os.path.relpath(shared, folder), folder / "common")
    for code in ("zh", "en", "ja"):
        path = folder / f"{code}.md"
        path.write_text(path.read_text(encoding="utf-8")
                        + "\n![Logo](logo.gif) ![Again](common/logo.gif)\n", encoding="utf-8")
    result = run_build(site)
    assert result.returncode == 0, result.stderr
    published = site / "site" / "assets" / "gallery"
    for name in ("logo.gif", "common/logo.gif"):
        assert (published / name).read_bytes() == (IMAGES / "icon.gif").read_bytes()
        assert not (published / name).is_symlink()


# serve -----------------------------------------------------------------------------------
def test_serve_reloads_the_open_pages_when_an_image_is_replaced(site: Path, chromium):
    from test_serve import DEADLINE, Server, poll

    server = Server(site, "--port", "0")
    try:
        origin = f"http://{server.host}:{server.port}/"
        page = chromium.new_page()
        outside = []
        page.on("request", lambda request: request.url.startswith(origin)
                or outside.append(request.url))
        page.goto(f"{origin}en/gallery.html")
        chart = "document.querySelector('main img')?"
        page.wait_for_function(f"{chart}.complete && {chart}.naturalWidth === 80")
        page.evaluate("window.sentinel = 1")  # gone when the page reloads
        before = server.output().count("\nBuilt ")
        replacement = site / ".chart.tmp"
        replacement.write_bytes((IMAGES / "photo.jpg").read_bytes())
        os.replace(replacement, site / "content" / "gallery" / "chart.assets" / "chart.png")
        page.wait_for_function(f"!window.sentinel && {chart}.complete && "
                               f"{chart}.naturalWidth === 48", timeout=DEADLINE * 1000)
        assert (page.evaluate(f"[{chart}.width, {chart}.height]")) == [48, 32]
        assert poll(lambda: server.output().count("\nBuilt ") > before), server.output()
        assert "chart.assets/chart.png changed" in server.output()
        assert outside == []
        page.close()
    finally:
        assert server.stop() == 0


def test_a_rebuild_on_the_last_one_publishes_new_files(site: Path, tmp_path: Path):
    from articlesite.cache import Cache

    root = site.resolve()
    cache = Cache(root)
    last = build(root, cache=cache)
    page = root / "content" / "gallery" / "ja.md"
    # An image the page already shows, shown again: only that page is replaced.
    page.write_text(page.read_text(encoding="utf-8") + "\n![Again](icon.gif)\n",
                    encoding="utf-8")
    cache = Cache(root, after=cache)
    last = build(root, cache=cache, previous=last, changed=[page])
    # The index too: it shows the article's word count, which the alt text changes.
    assert last.incremental and last.rendered == ["ja/gallery.html", "ja/index.html"]
    assert_same_as_clean_build(root, tmp_path / "one")
    # A file no page showed yet must be published: the site is assembled anew.
    add_image(root / "content" / "gallery", "wide.png")
    page.write_text(page.read_text(encoding="utf-8") + "\n![Wide](wide.png)\n",
                    encoding="utf-8")
    last = build(root, cache=Cache(root, after=cache), previous=last, changed=[page])
    assert last.rendered == ["ja/gallery.html", "ja/index.html"] and not last.incremental
    assert (root / "site" / "assets" / "gallery" / "wide.png").is_file()
    assert_same_as_clean_build(root, tmp_path / "two")


def test_file_names_with_spaces_and_cjk_characters(tmp_path: Path):
    root = make_site(tmp_path / "project")
    folder = write_article(root, "names", {"zh": (
        "## 图 {#figure}\n\n![第一张图](<图表 1.png>) 和 ![第二张](图表%202.png)\n")})
    add_image(folder, "chart.png", "图表 1.png")
    add_image(folder, "icon.gif", "图表 2.png")
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    page = root / "site" / "zh" / "names.html"
    first, second = soup(page).select("main img")
    assert first["src"] == "../assets/names/%E5%9B%BE%E8%A1%A8%201.png"
    assert target_of(page, first["src"]).read_bytes() == (IMAGES / "chart.png").read_bytes()
    assert target_of(page, second["src"]).read_bytes() == (IMAGES / "icon.gif").read_bytes()


def test_a_published_file_edited_in_site_is_put_right_by_the_next_build(site: Path,
                                                                       tmp_path: Path):
    build(site)
    published = site / "site" / "assets" / "gallery" / "photo.jpg"
    with published.open("r+b") as file:  # in place: the same inode as the cache's copy
        file.write(b"garbage")
    build(site)
    assert published.read_bytes() == (IMAGES / "photo.jpg").read_bytes()
    assert_same_as_clean_build(site, tmp_path)


def test_a_link_to_a_draft_article_stops_the_build_unless_drafts_are_built(tmp_path: Path):
    root = make_site(tmp_path / "project")
    folder = write_article(root, "unfinished", {"en": "## A {#a}\n"})
    path = folder / "en.md"
    path.write_text(path.read_text(encoding="utf-8").replace("---\n\n", "draft: true\n---\n\n"),
                    encoding="utf-8")
    write_article(root, "source", {"en": "## Links {#links}\n\nSee [it](../unfinished/).\n"})
    errors = failed_build(root)
    assert ("content/source/en.md:8: link '../unfinished/': article 'unfinished' has no page "
            "in this build (a draft in every language") in errors
    build(root, drafts=True)
    link = soup(root / "site" / "en" / "source.html").select_one("main p a")
    assert link["href"] == "../en/unfinished.html"


def test_images_and_links_in_a_heading_are_text_in_the_table_of_contents(tmp_path: Path):
    root = make_site(tmp_path / "project")
    folder = write_article(root, "heading", {"en": (
        "## The ![icon](icon.gif) of [the notes](../notes/) {#icon}\n\nText.\n")})
    add_image(folder, "icon.gif")
    write_article(root, "notes", {"en": "## A {#a}\n"})
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    page = soup(root / "site" / "en" / "heading.html")
    entry = page.select_one('main a[href="#icon"]')
    assert entry.get_text() == "The icon of the notes"
    assert not entry.select("a, img")
    heading = page.select_one("h2#icon")
    assert heading.select_one("img")["src"] == "../assets/heading/icon.gif"
    assert heading.select_one("a")["href"] == "../en/notes.html"
