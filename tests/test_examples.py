"""examples/build-pipeline: the figure made with `figure new`, `figure layout` and the
editor alone builds, every edge routed from its named ends, in zh, en and ja, and `check`
finds no problem (every text fits in every language and both diagram styles); it warns
of the two crossings the figure's named sides make, and counts them;
examples/training-overview, the first article's overview as a draft laid out by
`figure layout`, builds with its edge labels and groups, and every text fits."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import REPO, need_browser, run_build, soup, without_search

EXAMPLE = REPO / "examples" / "build-pipeline"


def built(example: Path, root: Path) -> Path:
    """A copy of the example in `root`, built without its search index."""
    need_browser()
    shutil.copytree(example, root, ignore=shutil.ignore_patterns("site", ".articlesite-cache",
                                                                "screenshots"))
    without_search(root)
    assert run_build(root).returncode == 0
    return root


def test_the_drawn_figure_builds_routed_and_fits_in_every_language(tmp_path: Path):
    root = built(EXAMPLE, tmp_path / "example")
    for code, load in (("zh", "load · 读取"), ("en", "load"), ("ja", "load · 読み込み")):
        figure = soup(root / "site" / code / "build-pipeline.html").select_one(
            "#figure-build-pipeline")
        assert len(figure.select("[data-node]")) == 9
        assert figure.select_one('[data-node="step"]').get_text(" ", strip=True).startswith(load)
        assert len(figure.select(".edge.arrow")) == 10   # one arrowhead an edge
    checked = run_build(root, "check")   # text fit measured in Chromium
    assert checked.returncode == 0, checked.stdout
    assert "Clean: no problems, 2 warnings." in checked.stdout
    # The two crossings its named sides make (the feedback edge from node-5 up to step
    # crosses node-3 -> node-4 and node-2 -> node-4): warnings at the first edge's line.
    warned = [line for line in checked.stdout.splitlines() if "crosses" in line]
    assert [line.split(": ", 1)[0].strip() for line in warned] == [
        "figures/build-pipeline.yaml:25", "figures/build-pipeline.yaml:27"]
    assert "edge 9 (from 'node-5' to 'step') crosses edge 10 (from 'node-2' to 'node-4')" \
        in warned[1]
    counted = run_build(root, "check", "--no-browser", "--format", "json")
    assert json.loads(counted.stdout)["crossings"] == 2


OVERVIEW = REPO / "examples" / "training-overview"


def test_the_overview_draft_builds_with_its_edge_labels_and_groups_and_fits(tmp_path: Path):
    root = built(OVERVIEW, tmp_path / "overview")
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
    assert report["crossings"] <= 2   # the hand-drawn original has 2; figure layout left 0
    # every edge label beside its own route, on no other edge: figure layout made room
    assert [f["message"] for f in report["findings"] if f["check"] == "geometry"] == []


def stripped(spec: str) -> str:
    """A laid-out spec back to its draft: no box, no canvas, no sizes, no chosen sides."""
    spec = re.sub(r"^(width|height): .*\n", "", spec, flags=re.MULTILINE)
    spec = re.sub(r" box: \[[^\]]*\],", "", spec)
    spec = re.sub(r", (label_box|title_box): \[[^\]]*\]", "", spec)
    return re.sub(r"((?:from|to): [\w-]+)\.(?:left|right|top|bottom)", r"\1", spec)


def test_the_overview_draft_is_laid_out_as_committed(tmp_path: Path):
    """The committed spec is what `figure layout` makes of the draft today, box for box
    and side for side: a change to the layout that changes it shows here."""
    need_browser()
    root = tmp_path / "overview"
    shutil.copytree(OVERVIEW, root, ignore=shutil.ignore_patterns("site", "screenshots"))
    spec = root / "figures" / "training-overview.yaml"
    committed = spec.read_text(encoding="utf-8")
    spec.write_text(stripped(committed), encoding="utf-8")
    assert run_build(root, "figure", "layout", "training-overview").returncode == 0
    laid = spec.read_text(encoding="utf-8").splitlines()
    comment = [n for n, line in enumerate(laid) if line.startswith("#")]
    assert [line for n, line in enumerate(laid) if n not in comment] == [
        line for n, line in enumerate(committed.splitlines()) if n not in comment]


POSITIONAL = REPO / "examples" / "positional-encoding"


def test_the_positional_encoding_figure_builds_as_written_and_checks_clean(tmp_path: Path):
    root = built(POSITIONAL, tmp_path / "positional")
    for code in ("zh", "en", "ja"):
        figure = soup(root / "site" / code / "positional-encoding.html").select_one(
            "#figure-positional-encoding")
        assert len(figure.select("[data-node]")) == 11
        tokens = figure.select_one('[data-node="tokens"]')
        assert "(batch_size, num_steps, num_hiddens)" in tokens.get_text()   # as written
        assert not tokens.select("sub")
        assert len(figure.select(".figure-label")) == 2
        assert len(figure.select(".figure-divider")) == len(figure.select(".figure-lifeline")) == 1
        assert [g["data-group"] for g in figure.select("[data-group]")] == ["init"]
    checked = run_build(root, "check")   # text fit and line breaks measured in Chromium
    assert checked.returncode == 0 and "Clean: no problems." in checked.stdout, checked.stdout
