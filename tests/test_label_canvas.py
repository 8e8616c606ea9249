"""Edge labels near the canvas's edges: down a single column of boxes, `figure layout` set
a canvas as wide as the boxes, and the build's label beside the edge stuck out of it by
206 px (`check`: a problem, cut off on the page). The canvas now grows to hold it; `figure
fit` does the same for a label a translation lengthened. A long edge on the left of a
drawing whose label had no room between it and the canvas's edge was drawn across its
line, under the next label: the boxes now move right to make room."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import REPO, need_browser, run_build, set_text

LONG = {"en": "A rather long edge label text here", "zh": "一个相当长的边标签文本",
        "ja": "かなり長いエッジのラベルテキスト"}
COLUMN = """title: hello-flow-title
caption: hello-flow-caption
direction: down
nodes:
  - {id: write, text: write}
  - {id: build, text: build}
  - {id: read, text: read}
edges:
  - {from: write, to: build, label: long}
  - {from: build, to: read}
"""


def column(root: Path) -> Path:
    """A new site whose figure 'hello-flow' is the column's draft: its spec."""
    assert run_build(REPO, "init", str(root)).returncode == 0
    texts = root / "figures" / "figure-texts.json"
    dictionary = json.loads(texts.read_text(encoding="utf-8"))
    dictionary["long"] = LONG
    texts.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text(COLUMN, encoding="utf-8")
    return spec


def geometry(root: Path) -> list[str]:
    checked = json.loads(run_build(root, "check", "--no-browser", "--format", "json").stdout)
    return [f["message"] for f in checked["findings"] if f["check"] == "geometry"]


def canvas(spec: Path) -> tuple[int, int]:
    text = spec.read_text(encoding="utf-8")
    return tuple(int(text.split(f"\n{side}: ", 1)[1].split("\n", 1)[0])
                 for side in ("width", "height"))


def test_figure_layout_grows_the_canvas_to_hold_a_long_label(tmp_path: Path):
    root = tmp_path / "site"
    spec = column(root)
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert geometry(root) == []
    width, _ = canvas(spec)
    assert 300 < width <= 1240   # the boxes alone: 170 px


def test_figure_fit_grows_the_canvas_for_a_lengthened_label_and_says_so(tmp_path: Path):
    need_browser()
    root = tmp_path / "site"
    spec = column(root)
    set_text(root, "long", "en", "Short")
    set_text(root, "long", "zh", "短")
    set_text(root, "long", "ja", "短い")
    assert run_build(root, "figure", "layout", "hello-flow").returncode == 0
    assert geometry(root) == []
    before = canvas(spec)
    set_text(root, "long", "ja", LONG["ja"])
    fitted = run_build(root, "figure", "fit", "hello-flow")
    assert fitted.returncode == 0, fitted.stderr
    after = canvas(spec)
    assert after[0] > before[0]
    assert f"Made room for edge 1's label: grew the canvas to {after[0]} × {after[1]} px." \
        in fitted.stdout
    assert geometry(root) == []


LEFT = """title: hello-flow-title
caption: hello-flow-caption
direction: down
nodes:
  - {id: n0, text: t-n0}
  - {id: n1, text: t-n1}
  - {id: n2, text: t-n2}
  - {id: n3, text: t-n3}
edges:
  - {from: n0, to: n1, label: l0}
  - {from: n0, to: n2}
  - {from: n1, to: n3, label: l2}
  - {from: n2, to: n3, label: l3}
  - {from: n2, to: n1, class: feedback}
"""
LEFT_TEXTS = {"t-n0": "batch", "t-n1": "Tokens 値", "t-n2": "梯度 Tokens",
              "t-n3": "gradient KL penalty term batch Tokens", "l0": "reward model output 梯度",
              "l2": "reply 梯度 replay buffer", "l3": "replay buffer batch KL penalty term"}


def test_figure_layout_moves_the_boxes_right_for_a_label_the_left_edge_left_no_room(
        tmp_path: Path):
    root = tmp_path / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    texts = root / "figures" / "figure-texts.json"
    dictionary = json.loads(texts.read_text(encoding="utf-8"))
    dictionary.update({key: dict.fromkeys(("en", "zh", "ja"), text)
                       for key, text in LEFT_TEXTS.items()})
    texts.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")
    spec = root / "figures" / "hello-flow.yaml"
    spec.write_text(LEFT, encoding="utf-8")
    laid = run_build(root, "figure", "layout", "hello-flow", "--no-browser")
    assert laid.returncode == 0, laid.stderr
    assert geometry(root) == []
