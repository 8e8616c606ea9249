"""Edge labels across the page leave room for their width once, not twice: twice made
the delivery pipeline of bench/layout_drafts.py, labelled on every second edge, too long
for a row that holds its checks and the package they feed, and the cut between them
left 3 crossings and a label on another edge."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_build
from test_fold_lean import draft_project


def test_a_labelled_pipeline_folds_after_the_fan_in_and_crosses_nothing(tmp_path: Path):
    root = draft_project(tmp_path / "site", "delivery-pipeline", every=2)
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "No edge crosses another." in laid.stdout
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    assert checked["crossings"] == 0
    assert [f["message"] for f in checked["findings"]
            if f["file"] == "figures/hello-flow.yaml"] == []
    spec = (root / "figures" / "hello-flow.yaml").read_text(encoding="utf-8")
    width = int(spec.split("\nwidth: ", 1)[1].split("\n", 1)[0])
    assert width <= 1240


def test_a_labelled_drawing_down_the_page_fits_it_though_a_stage_spans_two_layers(
        tmp_path: Path):
    """Down the page, web-services with every edge labelled came out 1290 px wide: each
    layer fits the page alone, but the stage's frame over two layers pushed the boxes
    after it along in both. Boxes now go on to later layers until the drawing fits."""
    root = draft_project(tmp_path / "site", "web-services", every=1)
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert "a page shows" not in laid.stdout
    spec = (root / "figures" / "hello-flow.yaml").read_text(encoding="utf-8")
    assert int(spec.split("\nwidth: ", 1)[1].split("\n", 1)[0]) <= 1240
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    assert [f["message"] for f in checked["findings"] if f["file"] == "figures/hello-flow.yaml"
            and f["severity"] == "problem"] == []


# An identifier no line may break, wider than the page
LONG = ("torch.nn.parallel.DistributedDataParallel.register_comm_hook.default_hooks"
        ".allreduce_hook.bf16_compress_wrapper")


def test_a_drawing_too_wide_for_the_page_grows_past_it_not_out_of_its_canvas(
        tmp_path: Path):
    """A box wider than the page: a box was put at x = -20, out of the canvas (`check`:
    a problem). It starts inside, the canvas grows past the page, and the message says
    what may help."""
    root = draft_project(tmp_path / "site", "web-services")
    texts = root / "figures" / "figure-texts.json"
    dictionary = json.loads(texts.read_text(encoding="utf-8"))
    dictionary["w-long"] = {"en": LONG, "zh": LONG, "ja": LONG}
    texts.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")
    (root / "figures" / "hello-flow.yaml").write_text(
        "title: hello-flow-title\ncaption: hello-flow-caption\ndirection: down\nnodes:\n"
        "  - {id: a, text: d-client}\n  - {id: long, text: w-long}\n"
        "  - {id: b, text: d-cdn}\n  - {id: c, text: d-gw}\nedges:\n"
        "  - {from: a, to: long}\n  - {from: a, to: b}\n  - {from: long, to: c}\n"
        "  - {from: b, to: c}\n", encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    assert [f["message"] for f in checked["findings"] if f["file"] == "figures/hello-flow.yaml"
            and f["severity"] == "problem"] == []
    assert "more than the 1240 px a page shows" in laid.stdout
    assert "Shorter texts or edge labels let `python build.py figure layout hello-flow " \
        "--again` fit it to the page." in laid.stdout
