"""`figure layout` on a folded draft whose edges still cross once their sides are chosen
also lays it out with its layers leaning toward the rows the other way, and keeps the
layout that crosses less: the RLHF loop of bench/layout_drafts.py (two stages a fold may
not cut) is left with 5 crossings, not the 7 of the first layout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import REPO, run_build

sys.path.insert(0, str(REPO / "bench"))
from layout_drafts import DRAFTS


def draft_project(root: Path, name: str) -> Path:
    """A new site whose figure 'hello-flow' is the benchmark's draft `name`."""
    assert run_build(REPO, "init", str(root)).returncode == 0
    direction, texts, written, groups = DRAFTS[name]
    path = root / "figures" / "figure-texts.json"
    dictionary = json.loads(path.read_text(encoding="utf-8"))
    lines = ["title: hello-flow-title", "caption: hello-flow-caption",
             f"direction: {direction}", "nodes:"]
    for node, text in texts.items():
        dictionary[f"d-{node}"] = dict(zip(("en", "zh", "ja"), text.split(" | "), strict=True))
        lines.append(f"  - {{id: {node}, text: d-{node}}}")
    lines.append("groups:")
    for group, members in groups.items():
        dictionary[f"g-{group}"] = {code: group.capitalize() for code in ("en", "zh", "ja")}
        lines.append(f"  - {{id: {group}, title: g-{group}, nodes: [{', '.join(members)}]}}")
    lines.append("edges:")
    for edge in written:
        a, b = edge.rstrip("!").split(">")
        lines.append(f"  - {{from: {a}, to: {b}" + (", class: feedback}" if edge.endswith("!")
                                                     else "}"))
    (root / "figures" / "hello-flow.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")
    return root


def test_a_folded_draft_keeps_the_layout_that_crosses_less(tmp_path: Path):
    root = draft_project(tmp_path / "site", "rlhf-loop")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "5 edge crossings left" in laid.stdout
    checked = run_build(root, "check", "--no-browser", "--format", "json")
    assert json.loads(checked.stdout)["crossings"] == 5
