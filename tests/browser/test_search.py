"""Search over HTTP, in the page's language only, with Chinese and Japanese segmented
into words; from a file, the box says search needs a web server; after an edit (a build,
or serve's quick rebuild) the index finds the new text."""

from __future__ import annotations

import functools
import threading
from pathlib import Path

import pytest
from conftest import edit
from readers_site import readers_site

from articlesite.build import build
from articlesite.cache import Cache
from browser.conftest import _QuietHandler, _QuietServer
from browser.test_axe import axe, violations

ARTICLE = "ppo-long-horizon"


def search(page, query: str) -> list[str]:
    """The links the results show for `query`, each path with its #section."""
    page.fill("#search-input", query)
    page.wait_for_selector(".search-results li, .search-results p", timeout=20000)
    return page.eval_on_selector_all(".search-results a", "as => as.map(a => a.pathname + a.hash)")


@pytest.mark.parametrize("code, query", [
    ("ja", "報酬モデル"),     # a Japanese word, as the segmenter cuts it
    ("zh", "奖励模型"),       # a Chinese phrase
    ("en", "reward model"),
])
def test_search_finds_the_article_in_the_page_language_only(visit, code: str, query: str):
    page = visit(f"{code}/index.html")
    found = search(page, query)
    assert f"/{code}/{ARTICLE}.html" in found
    assert all(link.startswith(f"/{code}/") for link in found), found
    assert any("#" in link for link in found)   # results link to the sections
    section = next(link for link in found if "#" in link)
    page.locator(f".search-results a[href$='{section.split('/')[-1]}']").first.click()
    page.wait_for_url(f"**{section}")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_violation_in_the_search_results(visit, theme: str):
    page = visit(f"ja/{ARTICLE}.html", color_scheme=theme)
    assert search(page, "報酬モデル")
    assert violations(axe(page, "{include: [['.bar']]}")) == []


@pytest.mark.parametrize("code", ["zh", "en", "ja"])
def test_from_a_file_the_box_says_search_needs_a_web_server(visit, code: str):
    page = visit(f"{code}/{ARTICLE}.html", from_disk=True, width=1400)
    notice = page.locator(".search-notice")
    assert notice.is_visible() and "python build.py serve" in notice.inner_text()
    assert page.locator("#search-input").is_disabled()
    # One line in the header at desktop width, all of it shown (not cut or ellipsed).
    lines, cut = page.evaluate("""() => {
        const n = document.querySelector('.search-notice');
        return [Math.round(n.getBoundingClientRect().height
                           / parseFloat(getComputedStyle(n).lineHeight)),
                n.scrollWidth > n.clientWidth]; }""")
    assert (lines, cut) == (1, False)


def test_search_box_is_reachable_at_390_px(visit):
    page = visit(f"zh/{ARTICLE}.html", width=390, height=844)
    page.locator(".menu summary").click()
    assert f"/zh/{ARTICLE}.html" in search(page, "奖励模型")


def test_the_index_follows_builds_and_quick_rebuilds(chromium, tmp_path: Path):
    root = readers_site(tmp_path / "project", search=True).resolve()
    cache = Cache(root)
    last = build(root, cache=cache)
    handler = functools.partial(_QuietHandler, directory=str(root / "site"))
    httpd = _QuietServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    context = chromium.new_context()
    try:
        def find(query: str) -> list[str]:
            page = context.new_page()
            page.goto(base + "ja/attention.html")
            found = search(page, query)
            page.close()
            return found

        assert find("ブロック") and not find("ゼロコピー")
        # A quick rebuild (serve's, after a save) puts the new index in place.
        edit(root, "content/attention/ja.md", "ブロックごとに", "ゼロコピーとブロックごとに")
        after = Cache(root, after=cache)
        assert build(root, cache=after, previous=last,
                     changed=[root / "content/attention/ja.md"]).incremental
        assert "/ja/attention.html" in find("ゼロコピー")
        # And a build from the command line.
        edit(root, "content/attention/ja.md", "ゼロコピーと", "デカップリングと")
        build(root)
        assert "/ja/attention.html" in find("デカップリング") and not find("ゼロコピー")
    finally:
        context.close()
        httpd.shutdown()
        httpd.server_close()
