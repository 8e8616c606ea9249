"""`figure layout` on a folded draft whose edges still cross once their sides are chosen
also lays it out with its layers leaning toward the rows the other way, and keeps the
layout that crosses less: a draft of ten steps and thirteen edges (bench/layout_breadth.py's
random graph 0) is left with 3 crossings, not the 6 of the first layout. And a fold
leftwards reads as one rightwards mirrored: its first row at the top, each row from the
right (the RLHF loop of bench/layout_drafts.py ran from the bottom row up, with 11
crossings where rightwards it has 3)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml
from conftest import REPO, run_build

sys.path.insert(0, str(REPO / "bench"))
from layout_labelled import write_draft


def draft_project(root: Path, name: str, every: int = 0) -> Path:
    """A new site whose figure 'hello-flow' is the benchmark's draft `name`, every
    `every`th edge labelled (bench/layout_labelled.py; 0: none)."""
    assert run_build(REPO, "init", str(root)).returncode == 0
    write_draft(root, name, every)
    return root


STEPS = {"n0": 220, "n1": 160, "n2": 220, "n3": 160, "n4": 160, "n5": 120, "n6": 120,
         "n7": 120, "n8": 300, "n9": 300}   # the width each step's box had in the graph
EDGES = ["n0>n1", "n0>n3", "n0>n4", "n0>n8", "n1>n2", "n1>n6", "n1>n8", "n2>n5", "n3>n5",
         "n3>n6", "n4>n7", "n5>n9", "n7>n8"]


def test_a_folded_draft_keeps_the_layout_that_crosses_less(tmp_path: Path):
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    texts = root / "figures" / "figure-texts.json"
    dictionary = json.loads(texts.read_text(encoding="utf-8"))
    dictionary.update({f"t-{n}": dict.fromkeys(("en", "zh", "ja"), f"Step {n} " + "x" * (w // 12))
                       for n, w in STEPS.items()})
    texts.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")
    (root / "figures" / "hello-flow.yaml").write_text(
        "title: hello-flow-title\ncaption: hello-flow-caption\ndirection: right\nnodes:\n"
        + "".join(f"  - {{id: {n}, text: t-{n}}}\n" for n in STEPS) + "edges:\n"
        + "".join("  - {{from: {}, to: {}}}\n".format(*e.split(">")) for e in EDGES),
        encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "3 edge crossings left" in laid.stdout
    checked = run_build(root, "check", "--no-browser", "--format", "json")
    assert json.loads(checked.stdout)["crossings"] == 3


def test_a_fold_leftwards_starts_at_the_top_right_and_crosses_as_rightwards(tmp_path: Path):
    boxes, crossings = {}, {}
    for direction in ("right", "left"):
        root = draft_project(tmp_path / direction, "rlhf-loop")
        spec = root / "figures" / "hello-flow.yaml"
        spec.write_text(spec.read_text("utf-8").replace("direction: right",
                                                        f"direction: {direction}"), "utf-8")
        laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
        assert laid.returncode == 0, laid.stderr
        crossings[direction] = json.loads(run_build(
            root, "check", "--no-browser", "--format", "json").stdout)["crossings"]
        data = yaml.safe_load(spec.read_text("utf-8"))
        boxes[direction] = ({n["id"]: n["box"] for n in data["nodes"]}, data["width"])
    right, (left, width) = boxes["right"][0], boxes["left"]
    # mirrored: the same boxes, the same rows, about one vertical line
    assert {n: box[1:] for n, box in left.items()} == {n: box[1:] for n, box in right.items()}
    assert len({left[n][0] + w + x for n, (x, _, w, _) in right.items()}) == 1
    first, last = left["prompts"], left["vupdate"]   # the loop's first and last steps
    assert first[1] < last[1] and first[0] > width / 2
    assert crossings["left"] <= crossings["right"] + 1
