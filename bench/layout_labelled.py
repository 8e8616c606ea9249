"""The drafts of bench/layout_drafts.py as a user gets them, with edge labels: each draft
written as figure 'hello-flow' of a new project (`init`), every Nth edge but the
feedback ones labelled ("Tokens and scores" and "Logs" in turn, in en, zh and ja), laid
out by `python build.py figure layout hello-flow --no-browser`, then checked by `check
--no-browser`: the crossings, the edge labels `check` finds on something (a box, a
title, another label or edge) and the canvas, per draft.

    python bench/layout_labelled.py [EVERY ...]     # default: 0 (no label), 2, 1

Each draft takes about a second (two commands); nothing is timed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from layout_drafts import DRAFTS

BUILD = Path(__file__).resolve().parent.parent / "build.py"
LABELS = {"lab-a": {"en": "Tokens and scores", "zh": "词元与分数", "ja": "トークンとスコア"},
          "lab-b": {"en": "Logs", "zh": "日志", "ja": "ログ"}}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BUILD), *args], capture_output=True,
                          text=True, check=False)


def write_draft(root: Path, name: str, every: int) -> None:
    """Draft `name` as figure 'hello-flow' of the project at `root`, every `every`th
    edge labelled (0: none)."""
    direction, texts, written, groups = DRAFTS[name]
    path = root / "figures" / "figure-texts.json"
    dictionary = {**json.loads(path.read_text(encoding="utf-8")), **(LABELS if every else {})}
    lines = ["title: hello-flow-title", "caption: hello-flow-caption",
             f"direction: {direction}", "nodes:"]
    for node, text in texts.items():
        dictionary[f"d-{node}"] = dict(zip(("en", "zh", "ja"), text.split(" | "), strict=True))
        lines.append(f"  - {{id: {node}, text: d-{node}}}")
    if groups:
        lines.append("groups:")
    for group, members in groups.items():
        dictionary[f"g-{group}"] = {code: group.capitalize() for code in ("en", "zh", "ja")}
        lines.append(f"  - {{id: {group}, title: g-{group}, nodes: [{', '.join(members)}]}}")
    lines.append("edges:")
    plain = 0
    for edge in written:
        a, b = edge.rstrip("!").split(">")
        extra = ", class: feedback" if edge.endswith("!") else ""
        if not extra:
            if every and plain % every == 0:
                extra = f", label: lab-{'ab'[plain // every % 2]}"
            plain += 1
        lines.append(f"  - {{from: {a}, to: {b}{extra}}}")
    (root / "figures" / "hello-flow.yaml").write_text("\n".join(lines) + "\n",
                                                      encoding="utf-8")
    path.write_text(json.dumps(dictionary, ensure_ascii=False, indent=2), encoding="utf-8")


def measured(name: str, every: int) -> tuple[int, int, str]:
    """(crossings, crowded labels, canvas) of draft `name` laid out with labels."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "site"
        assert run("init", str(root)).returncode == 0
        write_draft(root, name, every)
        laid = run("--root", str(root), "figure", "layout", "hello-flow", "--no-browser")
        assert laid.returncode == 0, laid.stdout + laid.stderr
        checked = json.loads(run("--root", str(root), "check", "--no-browser",
                                 "--format", "json").stdout)
        spec = (root / "figures" / "hello-flow.yaml").read_text(encoding="utf-8")
    crowded = sum(1 for finding in checked["findings"]
                  if finding["file"] == "figures/hello-flow.yaml"
                  and (finding.get("element") or "").startswith("edge-label"))
    width, height = (spec.split(f"\n{key}: ", 1)[1].split("\n", 1)[0]
                     for key in ("width", "height"))
    return checked["crossings"], crowded, f"{width} × {height}"


def main() -> None:
    everies = [int(arg) for arg in sys.argv[1:]] or [0, 2, 1]
    print("| draft | " + " | ".join(f"{'no label' if e == 0 else f'every {e}'}: "
                                    "crossings, crowded labels, canvas" for e in everies)
          + " |")
    print("|---|" + "---|" * len(everies))
    totals = [[0, 0] for _ in everies]
    for name in DRAFTS:
        cells = []
        for k, every in enumerate(everies):
            crossings, crowded, canvas = measured(name, every)
            totals[k][0] += crossings
            totals[k][1] += crowded
            cells.append(f"{crossings}, {crowded}, {canvas}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| all | " + " | ".join(f"{c}, {n}" for c, n in totals) + " |")


if __name__ == "__main__":
    main()
