"""Images of an article's folder in Chromium: every image loads (no broken image), from
the site itself only, at its size, in light and dark, wide and on a phone, from HTTP and
from disk, with no axe-core violation; screenshots for a person to look at."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest
from conftest import run_build
from filesite import add_image, make_site, write_article

from browser.pages import THEMES, screenshot
from browser.test_axe import axe, violations

BODIES = {
    "zh": """## 图与数据 {#figures}

训练曲线如下图所示，日文页面显示它自己的版本。

![训练过程中的奖励曲线](chart.assets/chart.png "奖励随步数变化")

![实验装置的照片](photo.jpg) ![数据流示意图](flow.svg) \
![图标](icon.gif) ![WebP 格式的示意图](diagram.webp)

![比页面更宽的图](wide.png)

可以下载[数据表](data/table.csv)，或阅读[另一篇文章](../notes/#method)。
""",
    "en": """## Figures and data {#figures}

The training curve is below; the Japanese page shows its own version of it.

![The reward curve during training](chart.assets/chart.png "Reward over steps")

![A photo of the rig](photo.jpg) ![The data flow](flow.svg) \
![An icon](icon.gif) ![A diagram in WebP](diagram.webp)

![A picture wider than the page](wide.png)

Download [the table](data/table.csv), or read [the other article](../notes/#method).
""",
    "ja": """## 図とデータ {#figures}

学習曲線は下の図のとおりです。日本語のページには日本語版の図が表示されます。

![学習中の報酬の推移](chart.assets/chart.png "ステップごとの報酬")

![実験装置の写真](photo.jpg) ![データの流れ](flow.svg) \
![アイコン](icon.gif) ![WebP 形式の図](diagram.webp)

![ページより広い画像](wide.png)

[データ表](data/table.csv)をダウンロードするか、[もう一つの記事](../notes/#method)を読んでください。
""",
}
PAGES = [f"{code}/gallery.html" for code in BODIES]
WIDTHS = (1400, 390)


@pytest.fixture(scope="module")
def gallery(tmp_path_factory) -> Path:
    """The fixture site, built; returns site/."""
    root = make_site(tmp_path_factory.mktemp("images") / "project")
    config = root / "content" / "site.yaml"   # flow.svg is published only when allowed
    config.write_text(config.read_text("utf-8") + "publish_html_and_svg: true\n", "utf-8")
    folder = write_article(root, "gallery", BODIES)
    add_image(folder, "chart.png", "chart.assets/chart.png")
    add_image(folder, "chart.ja.png", "chart.assets/chart.ja.png")
    for name in ("photo.jpg", "flow.svg", "icon.gif", "diagram.webp", "wide.png"):
        add_image(folder, name)
    (folder / "data").mkdir()
    (folder / "data" / "table.csv").write_text("step,reward\n1,0.5\n", encoding="utf-8")
    write_article(root, "notes", {"zh": "## 方法 {#method}\n\n只有中文版。\n"})
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return root / "site"


@pytest.fixture(scope="module")
def origin(gallery: Path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(gallery))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def open_page(chromium, url: str, own: str, troubles: list, **options):
    context = chromium.new_context(reduced_motion="reduce", **options)

    def guard(route) -> None:
        if route.request.url.startswith(own):
            route.continue_()
        else:
            troubles.append(f"request to {route.request.url}")
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and troubles.append(m.text))
    page.on("pageerror", lambda e: troubles.append(str(e)))
    page.on("requestfailed", lambda r: troubles.append(f"failed: {r.url}"))
    page.goto(url)
    return context, page


def images_loaded(page) -> list[dict]:
    """Each image of the article, scrolled into view (they load lazily) and decoded."""
    found = []
    for image in page.locator("main img").all():
        image.scroll_into_view_if_needed()
        image.evaluate("img => img.decode()")
        found.append(image.evaluate(
            "img => ({src: img.currentSrc, complete: img.complete, natural: img.naturalWidth,"
            " shown: img.getBoundingClientRect().width, ratio: img.width / img.height,"
            " column: img.parentElement.getBoundingClientRect().width,"
            " attribute: +img.getAttribute('width'),"
            " attributes: +img.getAttribute('width') / +img.getAttribute('height')})"))
    return found


@pytest.fixture(scope="module")
def language_pages(chromium, origin: str):
    """A page of its own for each language's gallery, in a context of its own, kept for the
    file's tests, each in its theme and width, and loading the page again: a new context
    costs about 0.2 s. Its route (every request must go to the site) keeps the HTTP cache
    off, so each image is fetched again on each load. page -> (page, its troubles)."""
    pages: dict[str, tuple] = {}
    yield pages
    for page, _ in pages.values():
        page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("path", PAGES)
def test_images_load_from_the_site_and_pass_axe(chromium, origin: str, language_pages: dict,
                                                path: str, theme: str, width: int):
    viewport = {"width": width, "height": 900}
    if path not in language_pages:
        troubles: list[str] = []
        language_pages[path] = open_page(chromium, "about:blank", origin, troubles,
                                         viewport=viewport, color_scheme=theme)[1], troubles
    page, troubles = language_pages[path]
    page.goto("about:blank")   # whatever the last test's page still had running, ended
    troubles.clear()
    page.set_viewport_size(viewport)
    page.emulate_media(color_scheme=theme)
    page.goto(origin + path)
    try:
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == \
            (theme == "dark")
        images = images_loaded(page)
        assert len(images) == 6
        for image in images:
            assert image["src"].startswith(f"{origin}assets/gallery/")
            assert image["complete"] and image["natural"] > 0, image
            # At its own size, or the column's width if it is wider, in proportion.
            assert image["shown"] == min(image["attribute"], image["column"]), image
            assert image["ratio"] == pytest.approx(image["attributes"], rel=0.01), image
        assert images[-1]["shown"] < 1200
        expected = "chart.ja.png" if path.startswith("ja/") else "chart.png"
        assert images[0]["src"].endswith(f"/chart.assets/{expected}")
        # The link to an article that exists only in Chinese says so, except in Chinese.
        tag = page.locator("main a .link-lang")
        assert tag.count() == (0 if path.startswith("zh/") else 1)
        assert violations(axe(page)) == []
        page.locator("#figures").scroll_into_view_if_needed()
        screenshot(page, f"images-{path.split('/')[0]}-{theme}-{width}.png", full_page=True)
        assert troubles == []
    except BaseException:   # the next test of this page starts from a new context
        del language_pages[path]
        page.context.close()
        raise


def test_images_and_downloads_load_from_disk(chromium, gallery: Path):
    troubles: list[str] = []
    own = gallery.as_uri() + "/"
    context, page = open_page(chromium, own + "en/gallery.html", own, troubles)
    try:
        assert all(image["natural"] > 0 for image in images_loaded(page))
        href = page.locator("main a", has_text="the table").evaluate("a => a.href")
        assert href == own + "assets/gallery/data/table.csv"
        assert (gallery / "assets" / "gallery" / "data" / "table.csv").is_file()
        assert troubles == []
    finally:
        context.close()
