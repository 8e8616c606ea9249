"""The translator's view, site/translations.html: every key, where it is used, its text in
every language side by side and its status, linked from nothing a reader sees."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO, TEXTS, opened_view, run_build, set_text, soup

LANGUAGES = ("zh", "en", "ja")


def view(root: Path):
    result = run_build(root)
    assert result.returncode == 0, result.stderr
    return opened_view(root / "site")


def row(page, key: str):
    found = page.find("tr", id=f"key-{key}")
    assert found is not None, key
    return found


def statuses(page, key: str) -> list[str]:
    return [cell.select_one(".status").get_text() for cell in row(page, key).find_all("td")[1:]]


def test_every_key_with_its_texts_uses_and_links(built_site: Path):
    page = opened_view(built_site)
    texts = json.loads((REPO / TEXTS).read_text(encoding="utf-8"))
    assert [tr["id"].removeprefix("key-") for tr in page.select("#keys tbody tr")] == list(texts)
    sft = row(page, "sft")
    cells = sft.find_all("td")
    assert [c.select_one(".text").get_text() for c in cells[1:]] == [
        texts["sft"][code] for code in LANGUAGES]
    assert [c.select_one(".text")["lang"] for c in cells[1:]] == ["zh-CN", "en", "ja"]
    uses = cells[0]
    assert uses.get_text(" ", strip=True).startswith("training-overview · node sft")
    assert [a["href"] for a in uses.find_all("a")] == [
        f"{code}/ppo-long-horizon.html#figure-training-overview" for code in LANGUAGES]
    fixed = row(page, "fixed").find_all("td")[0].find_all("div")
    assert [d.get_text(" ", strip=True).split(" zh")[0] for d in fixed] == [
        "critic-training · node rm subtitle", "training-overview · node rm subtitle",
        "training-overview · node reference subtitle"]


def test_real_content_is_all_ok(built_site: Path):
    page = opened_view(built_site)
    assert {s.get_text() for s in page.select("#keys td .status")} == {"ok"}
    assert not page.select("tr[data-problem]")


def test_linked_from_nothing_a_reader_sees_and_not_indexed(built_site: Path):
    for path in built_site.rglob("*.html"):
        if path.name != "translations.html":
            assert "translations.html" not in path.read_text(encoding="utf-8"), path
    page = soup(built_site / "translations.html")
    assert page.find("meta", attrs={"name": "robots"})["content"] == "noindex"


def test_published_pages_carry_no_measuring_markup(built_site: Path):
    for code in LANGUAGES:
        html = (built_site / code / "ppo-long-horizon.html").read_text(encoding="utf-8")
        assert "data-key=" not in html and "articlesiteMeasure" not in html


def test_stale_untranslated_and_unused_are_shown(project: Path):
    set_text(project, "prefs", "zh", "成对偏好数据")      # en and ja become stale
    texts = json.loads((project / TEXTS).read_text(encoding="utf-8"))
    set_text(project, "demos", "en", texts["demos"]["zh"])  # untranslated
    for code, text in zip(LANGUAGES, ("孤儿", "Orphan", "孤児")):
        set_text(project, "orphan", code, text)              # no figure uses it
    page = view(project)
    assert statuses(page, "prefs") == ["ok", "stale", "stale"]
    assert "confirmed against: 成对偏好" in row(page, "prefs").get_text()
    assert statuses(page, "demos") == ["ok", "untranslated", "ok"]
    assert row(page, "orphan").select_one(".status.unused") is not None
    assert "never confirmed" in row(page, "orphan").get_text()
    for key in ("prefs", "demos", "orphan"):
        assert row(page, key).has_attr("data-problem")
    assert not row(page, "sft").has_attr("data-problem")


def test_a_view_rendered_beside_the_pages_that_did_not_hold_is_rendered_again(
        tmp_path: Path, monkeypatch):
    """A full build renders the view beside the pages, its links to the figures taken
    from the sources' outlines. Should the pages place other figures than that, the view
    published is the one rendered after them, with the links the pages have."""
    from conftest import fixture_site

    from articlesite import build as stages
    from articlesite import plan as plans

    root = fixture_site("sources", tmp_path / "project")
    build = stages.build(root, tmp_path / "right", clean=True)
    assert build.rendered
    right = view_files(tmp_path / "right")
    assert "loop.html#figure-steps" in right["translations/keys-0.js"]
    early = stages.plan_view_early

    def wrong(sources, cache, plan):   # as if the outlines placed no figure
        with monkeypatch.context() as patch:
            patch.setattr(plans, "figure_links", lambda articles, placed: {})
            return early(sources, cache, plan)

    monkeypatch.setattr(stages, "plan_view_early", wrong)
    stages.build(root, tmp_path / "again", clean=True)
    assert view_files(tmp_path / "again") == right


def view_files(site: Path) -> dict[str, str]:
    """The translator's view's page and the files beside it."""
    return {path.relative_to(site).as_posix(): path.read_text(encoding="utf-8")
            for path in [site / "translations.html", *(site / "translations").iterdir()]}
