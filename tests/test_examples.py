"""examples/build-pipeline: the figure made with `figure new`, `figure layout` and the
editor alone builds, every edge routed from its named ends, in zh, en and ja, and `check`
finds nothing (every text fits in every language and both diagram styles);
examples/training-overview, the first article's overview as a draft laid out by
`figure layout`, builds with its edge labels and groups, and every text fits."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import REPO, need_browser, run_build, soup, without_search

EXAMPLE = REPO / "examples" / "build-pipeline"


def test_the_drawn_figure_builds_routed_and_fits_in_every_language(tmp_path: Path):
    need_browser()
    root = tmp_path / "example"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("site", ".articlesite-cache",
                                                                "screenshots"))
    without_search(root)
    assert run_build(root).returncode == 0
    for code, load in (("zh", "load · 读取"), ("en", "load"), ("ja", "load · 読み込み")):
        figure = soup(root / "site" / code / "build-pipeline.html").select_one(
            "#figure-build-pipeline")
        assert len(figure.select("[data-node]")) == 9
        assert figure.select_one('[data-node="step"]').get_text(" ", strip=True).startswith(load)
        assert len(figure.select(".edge.arrow")) == 10   # one arrowhead an edge
    checked = run_build(root, "check")   # text fit measured in Chromium
    assert checked.returncode == 0, checked.stdout
    assert "Clean: no problems." in checked.stdout


OVERVIEW = REPO / "examples" / "training-overview"


def test_the_overview_draft_builds_with_its_edge_labels_and_groups_and_fits(tmp_path: Path):
    need_browser()
    root = tmp_path / "overview"
    shutil.copytree(OVERVIEW, root, ignore=shutil.ignore_patterns("site", ".articlesite-cache"))
    without_search(root)
    assert run_build(root).returncode == 0
    for code, stage in (("zh", "A · 学习开始前"), ("en", "A · Before PPO"), ("ja", "A · PPO の前")):
        page = soup(root / "site" / code / "overview.html")
        figure = page.select_one("#figure-training-overview")
        assert len(figure.select("[data-node]")) == 15
        assert len(figure.select(".edge-label")) == 15
        assert [g["data-group"] for g in figure.select("[data-group]")] == [
            "prep", "collect", "targets", "update"]
        assert figure.select_one('[data-group="prep"] .group-title').get_text() == stage
        assert int(figure.select_one(".canvas")["style"].split("width:")[1].split("px")[0]) <= 1240
    checked = run_build(root, "check", "--format", "json")   # text fit measured in Chromium
    report = json.loads(checked.stdout)
    assert "text fit measured in Chromium" in report["checked"]
    assert [f for f in report["findings"] if f["check"] == "fit"] == []
