"""Search over an index in shards (search_shards.py), in Chromium: the search box merges
the language's shards, so a query on the ja, zh and en pages finds pages of several
shards; over a static server and through `serve`, where an edit is found once its shard
is indexed again. No request leaves the site."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from conftest import REPO, edit
from search_sites import NOTES, WORDS, built_sharded_site, shard_of
from test_serve import Server, poll

from articlesite.search_shards import PAGES_VARIABLE
from browser.conftest import serving


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    return built_sharded_site(tmp_path_factory.mktemp("shards") / "project")


def found(chromium, base: str, code: str, query: str) -> list[str]:
    """The result links the search box of `code`'s index page shows for `query` (paths),
    failing on a console error or a request to anywhere but `base`."""
    troubles, page = [], chromium.new_page()
    page.on("request", lambda request: request.url.startswith(base) or
            troubles.append(request.url))
    page.on("console", lambda message: message.type == "error" and
            troubles.append(message.text))
    try:
        page.goto(f"{base}{code}/index.html")
        page.fill("#search-input", query)
        page.wait_for_selector(".search-results li, .search-results p", timeout=20000)
        links = page.eval_on_selector_all(".search-results a.search-title",
                                          "as => as.map(a => a.pathname)")
    finally:
        page.close()
    assert troubles == []
    return links


@pytest.mark.parametrize("code", ["ja", "zh", "en"])
def test_a_query_finds_pages_of_several_shards(chromium, project: Path, code: str):
    with serving(project / "site") as base:
        links = found(chromium, base, code, WORDS[code][0])
    notes = [link for link in links if link.startswith(f"/{code}/note-")]
    assert len(notes) == min(NOTES, 8) and all(link.startswith(f"/{code}/") for link in links)
    assert len({shard_of(project / "site", link[1:]) for link in notes}) > 1


def test_serve_searches_the_shards_and_indexes_an_edit(chromium, project: Path):
    env = dict(os.environ, **{PAGES_VARIABLE: "1"})
    with Server(project, "--port", "0", command=[sys.executable, str(REPO / "build.py")],
                env=env) as server:
        base = f"http://{server.host}:{server.port}/"
        assert len(found(chromium, base, "ja", "格子")) >= NOTES
        edit(project, "content/note-5/ja.md", "ノート5:", "ノート5 鉱物:")
        assert poll(lambda: "/ja/note-5.html" in found(chromium, base, "ja", "鉱物"), 60)
    assert "/ja/note-5.html" in found_static(chromium, project)


def found_static(chromium, project: Path) -> list[str]:
    with serving(project / "site") as base:
        return found(chromium, base, "ja", "鉱物")
