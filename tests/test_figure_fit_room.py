"""`figure fit` after a translation lengthened an edge label: the label's box grows, and
where the build then finds no free place for it beside its edge, fit moves boxes to open
one (as `figure layout` does for a draft), or says that none was found."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from conftest import REPO, need_browser, run_build, set_text

OVERVIEW = REPO / "examples" / "training-overview"
SPEC = "figures/training-overview.yaml"
LONGER = "保存した log π_old をさらに長くした説明文"   # ja, the label of trajectory -> rewards


def overview(root: Path) -> Path:
    shutil.copytree(OVERVIEW, root, ignore=shutil.ignore_patterns("site", "screenshots"))
    return root


def crowded(root: Path) -> list[str]:
    """What `check` finds of edge labels the build put on something."""
    result = run_build(root, "check", "--format", "json")
    return [f["element"] for f in json.loads(result.stdout)["findings"]
            if f["check"] == "geometry" and (f.get("element") or "").startswith("edge-label")]


def changed_lines(before: list[str], after: list[str]) -> dict[str, str]:
    return {b: a for b, a in zip(before, after, strict=True) if a != b}


def fitted(tmp_path: Path, key: str, ja: str) -> tuple[Path, list[str], object]:
    """A copy of the overview with the ja text of `key` set to `ja`, fitted: the project,
    its spec's lines before, and what `figure fit` did."""
    need_browser()
    root = overview(tmp_path / "project")
    set_text(root, key, "ja", ja)
    before = (root / SPEC).read_text(encoding="utf-8").splitlines()
    result = run_build(root, "figure", "fit", "training-overview")
    assert result.returncode == 0, result.stdout + result.stderr
    return root, before, result


def test_fit_moves_boxes_to_give_a_lengthened_label_a_free_place(tmp_path: Path):
    # ja: the label of trajectory -> rewards (edge 20), twice as long. Grown alone, the
    # build can put it only over edge 9's route; fit moves the boxes below it down.
    root, before, result = fitted(tmp_path, "old-probs", LONGER)
    assert "grew edge 20's label" in result.stdout
    assert "Made room for edge 20's label: moved" in result.stdout
    after = (root / SPEC).read_text(encoding="utf-8").splitlines()
    changed = changed_lines(before, after)
    # only the label's size, some nodes' boxes and the canvas's height changed
    assert [b for b in changed if "label_box" in b] == [
        b for b in before if "label: old-probs" in b]
    nodes = [b for b in changed if b.startswith("  - {id: ")]
    assert nodes and all(" box: [" in b for b in nodes)
    assert set(changed) - set(nodes) == {b for b in before if "label: old-probs" in b} | {
        "height: 1400"}
    assert crowded(root) == []
    build = run_build(root)
    assert build.returncode == 0, build.stdout + build.stderr


def test_fit_says_which_label_still_has_no_free_place(tmp_path: Path):
    # ja: the label of actor -> env (edge 5), beside env -> actor's (edge 6) in the one gap
    # between the two boxes, 194 px wide: no box moved sideways makes room there. Fit
    # grows it, makes the gap taller (every box below actor moved down: edge 6's label
    # then finds a place above edge 5's) and says which label still lies on something.
    root, before, result = fitted(tmp_path, "command", "ツールを呼び出して結果を待つ")
    assert "Made room for edge 6's label: moved 12 boxes." in result.stdout
    assert "Still no free place for edge 5's label:" in result.stdout
    after = (root / SPEC).read_text(encoding="utf-8").splitlines()
    changed = changed_lines(before, after)
    assert [b for b in changed if "label: command" in b] == [
        b for b in before if "label: command" in b]
    moved = [(b, a) for b, a in changed.items() if "box: [" in b and "label" not in b]
    assert len(moved) == 12 and all(
        a.split("box: [")[1].split(",")[0] == b.split("box: [")[1].split(",")[0]
        for b, a in moved)   # down, not sideways
    assert crowded(root) == ["edge-label 5"]


def test_fit_moves_no_box_onto_a_free_label_to_make_room(tmp_path: Path):
    # As in the first test, but a free label stands where rewards would move to: the
    # boxes stay (a free label does not move with them), and fit says the label has none.
    need_browser()
    root = overview(tmp_path / "project")
    spec = root / SPEC
    spec.write_text(spec.read_text(encoding="utf-8")
                    + "labels:\n  - {text: fixed, box: [500, 960, 60]}\n", encoding="utf-8")
    set_text(root, "old-probs", "ja", LONGER)
    result = run_build(root, "figure", "fit", "training-overview")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Made room" not in result.stdout
    assert "Still no free place for edge 20's label" in result.stdout
    assert "  - {id: rewards, box: [490, 860, 210, 90], text: rewards, sub: reward-sub}" \
        in spec.read_text(encoding="utf-8").splitlines()


def test_fit_and_check_say_when_the_canvas_grew_wider_than_a_page(tmp_path: Path):
    """A node at the right edge of a canvas 1220 px wide, its text lengthened: fit grew
    the box and the canvas past the 1240 px a page shows and said only the new size;
    `check` said nothing of it. Both now say the figure will scroll sideways (check as a
    warning, at the spec's `width:` line: a wide figure is not certainly a mistake)."""
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    spec = root / "figures" / "hello-flow.yaml"
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("width: 520", "width: 1220").replace(
        "box: [20, 30, 140, 60]", "box: [1060, 30, 140, 60]"), encoding="utf-8")
    set_text(root, "write", "en", "write_every_section_of_the_article_once_more")   # (one word)
    fitted = run_build(root, "figure", "fit", "hello-flow", "--no-browser")
    assert fitted.returncode == 0, fitted.stdout + fitted.stderr
    width = int(re.search(r"canvas now (\d+) ×", fitted.stdout).group(1))
    assert width > 1240
    assert (f"The canvas is {width} px wide, more than the 1240 px a page shows: it will "
            "scroll sideways.") in fitted.stdout
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    wide = [f for f in checked["findings"] if f.get("element") == "canvas"]
    assert len(wide) == 1 and wide[0]["severity"] == "warning" and wide[0]["line"] == 5
    assert f"figure 'hello-flow' is {width} px wide" in wide[0]["message"]
