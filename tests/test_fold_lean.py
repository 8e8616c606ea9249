"""`figure layout` on a folded draft whose edges still cross once their sides are chosen
also lays it out with its layers leaning toward the rows the other way, and keeps the
layout that crosses less: the RLHF loop of bench/layout_drafts.py (two stages a fold may
not cut), drawn leftwards, is left with 11 crossings, not the 15 of the first layout."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import REPO, run_build

sys.path.insert(0, str(REPO / "bench"))
from layout_labelled import write_draft


def draft_project(root: Path, name: str, every: int = 0) -> Path:
    """A new site whose figure 'hello-flow' is the benchmark's draft `name`, every
    `every`th edge labelled (bench/layout_labelled.py; 0: none)."""
    assert run_build(REPO, "init", str(root)).returncode == 0
    write_draft(root, name, every)
    return root


def test_a_folded_draft_keeps_the_layout_that_crosses_less(tmp_path: Path):
    root = draft_project(tmp_path / "site", "rlhf-loop")
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text(spec.read_text("utf-8").replace("direction: right", "direction: left"),
                    "utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "11 edge crossings left" in laid.stdout
    checked = run_build(root, "check", "--no-browser", "--format", "json")
    assert json.loads(checked.stdout)["crossings"] == 11
