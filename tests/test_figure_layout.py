"""A first draft of a figure: `figure new`, draft nodes, the layered layout (with the router
of geometry/route.py, every edge routable), `figure layout`, and `check --stretch`."""

from __future__ import annotations

import difflib
import json
import random
from itertools import combinations

import pytest
import yaml
from conftest import opened_view, run_build, soup
from filesite import make_site

from articlesite.check.stretch import stretched
from articlesite.cli import main
from articlesite.figures.new import add_entries
from articlesite.geometry.layout import GAP, GRID, extent_of, layout
from articlesite.geometry.route import Ends, route_edges

ARTICLE = '---\ntitle: "Demo {code}"\ndescription: "demo"\n---\n\n## Intro {{#intro}}\n\n' \
          '```{{figure}} pipeline\n```\n'


def random_graph(seed: int) -> tuple[list[str], dict, list[tuple[str, str]]]:
    rng = random.Random(seed)
    nodes = [f"n{i}" for i in range(rng.randint(4, 20))]
    sizes = {node: (rng.randint(80, 260), rng.randint(50, 110)) for node in nodes}
    edges = {(rng.choice(nodes[:i]), node) for i, node in enumerate(nodes) if i}   # a tree
    for _ in range(rng.randint(0, len(nodes))):   # more, some of them back or across
        a, b = rng.sample(nodes, 2)
        edges.add((a, b))
    return nodes, sizes, sorted(edges)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("direction", ["right", "down", "left", "up"])
def test_drafts_are_placed_apart_on_the_grid_and_every_edge_routes(seed, direction):
    nodes, sizes, edges = random_graph(seed)
    boxes = layout(nodes, sizes, edges, direction)
    assert sorted(boxes) == sorted(nodes)
    for node, (x, y, w, h) in boxes.items():
        assert all(v % GRID == 0 for v in (x, y, w, h)), (node, boxes[node])
        assert w >= sizes[node][0] and h >= sizes[node][1]
    for (a, (ax, ay, aw, ah)), (b, (bx, by, bw, bh)) in combinations(boxes.items(), 2):
        apart = max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh))
        assert apart >= GAP, (a, b)
    width, height = extent_of(list(boxes.values()))
    routes = route_edges(boxes, [Ends(a, b) for a, b in edges], bounds=(0, 0, width, height))
    assert [route.error for route in routes if route.error] == []


def test_a_chain_is_straight_and_a_loop_runs_back():
    sizes = {"a": (100, 60), "b": (150, 90), "c": (120, 60)}
    boxes = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c")], "right")
    centres = {n: y + h / 2 for n, (x, y, w, h) in boxes.items()}
    assert len(set(centres.values())) == 1
    loop = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c"), ("c", "a")], "right")
    assert loop["a"][0] < loop["b"][0] < loop["c"][0]   # c -> a runs back
    down = layout(["a", "b", "c"], sizes, [("a", "b"), ("b", "c")], "up")
    assert down["a"][1] > down["b"][1] > down["c"][1]


def test_new_keys_are_appended_in_the_dictionary_s_own_style():
    text = '{\n  "a": {\n    "zh": "甲",\n    "en": "A"\n  }\n}\n'
    new = add_entries(text, {"b": {"zh": "乙", "en": "B"}})
    assert new == text[:-3] + ',\n  "b": {\n    "zh": "乙",\n    "en": "B"\n  }\n}\n'
    assert json.loads(add_entries("{}\n", {"b": {"en": "B"}})) == {"b": {"en": "B"}}


@pytest.fixture(scope="module")
def drafted(tmp_path_factory) -> dict:
    """A small site; `figure new pipeline`, a build (refused: drafts), `figure layout`,
    a build: what each printed and the spec before and after."""
    root = make_site(tmp_path_factory.mktemp("drafted") / "site")
    (root / "content" / "demo").mkdir()
    for code in ("zh", "en", "ja"):
        (root / "content" / "demo" / f"{code}.md").write_text(ARTICLE.format(code=code),
                                                             encoding="utf-8")
    seen = {"root": root, "new": main(["--root", str(root), "figure", "new", "pipeline"])}
    seen["draft"] = (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8")
    seen["refused"] = run_build(root)
    # In a process of its own, as `check` below: it measures the boxes in Chromium, and
    # Playwright's sync API runs once per process at a time (the browser tests' may run).
    seen["layout"] = run_build(root, "figure", "layout", "pipeline")
    seen["placed"] = (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8")
    seen["built"] = run_build(root)
    return seen


def test_figure_new_writes_drafts_and_untranslated_texts(drafted):
    assert drafted["new"] == 0
    root = drafted["root"]
    spec = yaml.safe_load(drafted["draft"])
    assert all("box" not in node for node in spec["nodes"])
    assert {"from": "check", "to": "step", "class": "feedback"} in spec["edges"]
    texts = json.loads((root / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    assert set(texts) == {f"pipeline-{k}" for k in ("title", "caption", "input", "step",
                                                     "step-sub", "check", "output")}
    assert all(len(set(t.values())) == 1 and set(t) == {"zh", "en", "ja"}
               for t in texts.values())   # the source text everywhere: untranslated
    view = opened_view(root / "site").get_text(" ")
    assert view.count("untranslated") >= 14


def test_a_build_refuses_drafts_naming_them_and_the_command(drafted):
    refused = drafted["refused"]
    assert refused.returncode == 1
    assert ("figures/pipeline.yaml:7: 4 nodes not placed yet (no 'box'): 'input' (line 7), "
            "'step' (line 8), 'check' (line 9), 'output' (line 10); `python build.py "
            "figure layout pipeline` places them") in refused.stderr
    assert refused.stderr.count("problem") == 1 and "width" not in refused.stderr


def test_figure_layout_writes_only_the_drafts_lines_and_the_canvas(drafted):
    assert drafted["layout"].returncode == 0, drafted["layout"].stdout
    changed = [line for line in difflib.unified_diff(drafted["draft"].splitlines(),
                                                     drafted["placed"].splitlines(), n=0)
               if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert len(changed) == 4 + 4 + 2, changed   # 4 lines out, 4 with their box, the canvas
    assert all("box: [" in line for line in changed if line.startswith("+  - "))
    spec = yaml.safe_load(drafted["placed"])
    assert spec["width"] % 5 == 0 and spec["height"] % 5 == 0
    built = drafted["built"]
    assert built.returncode == 0, built.stderr
    page = soup(drafted["root"] / "site" / "en" / "demo.html")
    figure = page.select_one("figure#figure-pipeline")
    assert len(figure.select(".node")) == 4 and len(figure.select(".edge")) >= 4


def test_layout_again_changes_nothing_and_a_bad_id_is_refused(drafted, capsys):
    root = drafted["root"]
    # (in a process of its own: it measures the placed boxes' words in Chromium)
    again = run_build(root, "figure", "layout", "pipeline")
    assert again.returncode == 0 and "nothing to place" in again.stdout, again.stderr
    assert (root / "figures" / "pipeline.yaml").read_text(encoding="utf-8") == drafted["placed"]
    assert main(["--root", str(root), "figure", "new", "pipeline"]) == 2
    assert main(["--root", str(root), "figure", "new", "Bad_Id"]) == 2
    assert "already exists" in capsys.readouterr().err


def test_a_draft_label_is_refused_saying_what_places_it(drafted, capsys):
    path = drafted["root"] / "figures" / "pipeline.yaml"
    path.write_text(drafted["placed"] + "labels:\n  - {text: pipeline-title}\n",
                    encoding="utf-8")
    try:
        assert main(["--root", str(drafted["root"]), "figure", "layout", "pipeline"]) == 1
    finally:
        path.write_text(drafted["placed"], encoding="utf-8")
    err = capsys.readouterr().err
    assert err.startswith("`figure layout` failed: 1 problem; nothing was written.")
    assert "a label is missing the field 'box' (`python build.py figure layout` places " \
        "nodes only: add labels, dividers and lifelines with the buttons of " in err
    assert "Build failed" not in err


def test_stretched_texts_are_longer_by_their_own_characters():
    assert stretched("Actor", 1.3) == "ActorAc"
    assert stretched("策略\nr_t", 1.5) == "策略策\nr_trt"
    assert stretched("", 1.3) == ""


def test_stretch_exits_1_when_a_box_would_overflow(drafted):
    fits = run_build(drafted["root"], "check", "--stretch", "1.3")
    assert fits.returncode == 0, fits.stdout + fits.stderr
    assert "Every box would still fit with every figure text 30 % longer" in fits.stdout
    overflows = run_build(drafted["root"], "check", "--stretch", "3")
    assert overflows.returncode == 1, overflows.stdout + overflows.stderr
    assert "figures/pipeline.yaml:10: figure 'pipeline', node 'step': would overflow" \
        in overflows.stdout


def test_placed_boxes_stay_and_a_spec_with_problems_is_left_alone(tmp_path, capsys):
    root = make_site(tmp_path / "site")
    assert main(["--root", str(root), "figure", "new", "f"]) == 0
    path = root / "figures" / "f.yaml"
    spec = ("title: f-title\ncaption: f-caption\nwidth: 300\nheight: 300\nnodes:\n"
            "  - {id: a, box: [20, 20, 300, 150], text: f-input}\n"
            "  - {id: b, text: f-step}\n  - {id: c, text: f-check}\n"
            "edges:\n  - {from: a, to: b}\n  - {from: b, to: c}\n")
    path.write_text(spec, encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "f", "--no-browser"]) == 0
    out = capsys.readouterr().out
    assert "estimated from the font sizes" in out and "beyond the spec's width" in out
    assert "No edge crosses another." in out
    placed = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert placed["nodes"][0]["box"] == [20, 20, 300, 150] and placed["width"] == 300
    b, c = (node["box"] for node in placed["nodes"][1:])
    assert b[1] >= 170 and c[1] >= 170 and c[0] > b[0] + b[2]   # below a, b before c
    wrong = spec.replace("width: 300", "colour: red")
    path.write_text(wrong, encoding="utf-8")
    assert main(["--root", str(root), "figure", "layout", "f", "--no-browser"]) == 1
    assert "figures/f.yaml:3: unknown field 'colour'" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == wrong


def test_an_edge_marked_feedback_runs_back():
    sizes = dict.fromkeys("abcd", (100, 60))
    edges = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]
    assert layout(list("abcd"), sizes, edges, "down")["d"][1] > layout(
        list("abcd"), sizes, edges, "down")["b"][1]   # d -> b closes the cycle: back
    turned = layout(list("abcd"), sizes, edges, "down", feedback={("b", "c")})
    assert turned["c"][1] < turned["b"][1]   # the author says b -> c runs back


def test_figure_new_starts_the_dictionary_of_a_project_without_figures(tmp_path):
    (tmp_path / "content").mkdir()
    (tmp_path / "content" / "site.yaml").write_text(
        "default_language: en\nsource_language: en\nlanguages:\n"
        "  - {code: en, name: English, lang: en, title: T}\n", encoding="utf-8")
    assert main(["--root", str(tmp_path), "figure", "new", "first"]) == 0
    texts = json.loads((tmp_path / "figures" / "figure-texts.json").read_text(encoding="utf-8"))
    assert texts["first-input"] == {"en": "Input"} and len(texts) == 7
