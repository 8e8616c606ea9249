"""The figure editor's server side (figures/editor.py), asked as a page asks it: each
refusal names a key of the theme's `editor-server-` strings, present in every language
the theme has, with the arguments its text needs; `segment` gives the build's own phrase
breaks; a save of a new group and an edge label changes only their lines, and so does a
save of an edge given by its points that the editor made an edge by its ends."""

from __future__ import annotations

import difflib
import json
import re
from http import HTTPStatus
from pathlib import Path

import pytest
import yaml
from conftest import TEXTS, fixture_site

from articlesite.figures.editor import PREFIX, FigureEditor
from articlesite.load.phrases import breaks
from articlesite.load.theme import theme_strings
from articlesite.translate.editor import HEADER, Editor

SPEC = "figures/steps.yaml"
HOST = "127.0.0.1:8123"


@pytest.fixture(scope="module")
def editor(tmp_path_factory):
    root = fixture_site("sources", tmp_path_factory.mktemp("figure-server") / "project")
    return FigureEditor(Editor(root, "127.0.0.1", 8123))


def ask(editor, action: str, body: dict, **headers) -> tuple[HTTPStatus, dict]:
    sent = {"Host": HOST, "Origin": f"http://{HOST}", HEADER: editor.guard.token,
            "Content-Type": "application/json", **headers}
    return editor.handle(PREFIX + action, sent, json.dumps(body).encode("utf-8"))


def said(answer: dict, language: str) -> str:
    """The text the page shows for an answer, as editor.js's told() makes it."""
    text = theme_strings()["editor-server-" + answer["key"]][language]
    missing = set(re.findall(r"\{(\w+)\}", text)) - set(answer["args"])
    assert not missing, (answer, missing)
    return text.format(**answer["args"])


def test_every_refusal_names_a_string_the_theme_has_in_every_language(editor):
    opened = ask(editor, "open", {"figure": "steps"})[1]
    refusals = [
        ask(editor, "open", {"figure": "steps"}, **{HEADER: "wrong"}),
        ask(editor, "open", {"figure": "Not an id"}),
        ask(editor, "open", {"figure": "missing"}),
        ask(editor, "nowhere", {}),
        ask(editor, "save", {"figure": "steps", "base": {"spec": "x", "texts": "y"},
                             "spec": opened["spec"]}),
        ask(editor, "save", {"figure": "steps", "base": opened["base"],
                             "spec": {**opened["spec"], "nodes": [
                                 *opened["spec"]["nodes"], {"id": "Bad id", "box": [1, 1, 9, 9],
                                                            "text": "act"}]}}),
        ask(editor, "save", {"figure": "steps", "base": opened["base"],
                             "spec": {**opened["spec"], "groups": [
                                 {"id": "g", "title": "act", "title_box": [40, 20],
                                  "nodes": ["nowhere"]}]}}),
    ]
    statuses = [status for status, _ in refusals]
    assert statuses == [403, 400, 404, 404, 409, 422, 422]
    keys = [answer["key"] for _, answer in refusals]
    assert keys == ["forbidden", "bad-request", "no-figure", "no-action", "changed",
                    "id-invalid", "not-saved"]
    strings = theme_strings()
    for _, answer in refusals:
        assert set(strings["editor-server-" + answer["key"]]) == {"zh", "en", "ja", "ko"}
    assert said(refusals[4][1], "ja").startswith(
        "figures/steps.yaml はエディターが読み込んだ後にディスク上で変更されました")
    assert said(refusals[5][1], "zh") == ("什么都没有保存：“Bad id”不能作为 ID"
                                          "（只能用小写字母、数字和连字符）。")
    # The build's own message goes with a refused save, as it is.
    assert "group 'g' names node 'nowhere'" in refusals[6][1]["problems"][0]


def test_segment_gives_the_builds_phrase_breaks(editor):
    texts = [{"text": "アドバンテージ推定と報酬モデルの学習", "lang": "ja"},
             {"text": "强化学习的奖励信号", "lang": "zh-CN"},
             {"text": "Human demonstrations", "lang": "en"}]
    status, answer = ask(editor, "segment", {"texts": texts})
    assert status == 200
    assert answer["breaks"] == [breaks(t["text"], t["lang"]) for t in texts]
    assert answer["breaks"][0] == [10, 16] and answer["breaks"][2] == []
    assert ask(editor, "segment", {"texts": "not a list"})[0] == 400


def test_a_new_group_and_an_edge_label_are_saved_as_their_own_lines(editor):
    root = editor.root
    before = (root / SPEC).read_text(encoding="utf-8")
    opened = ask(editor, "open", {"figure": "steps"})[1]
    spec = json.loads(json.dumps(opened["spec"]))
    ids = [node["id"] for node in spec["nodes"]]
    for i, item in enumerate(spec["nodes"]):
        item["origin"] = i
    for i, item in enumerate(spec["edges"]):
        item["origin"] = i
    spec["groups"] = [{"origin": None, "id": "group-1", "title": "steps-group-1-title",
                       "title_box": [64, 22], "nodes": ids[:1]}]
    texts = [{"key": "steps-group-1-title", "language": "en", "text": "Acting"}]
    status, answer = ask(editor, "save", {"figure": "steps", "base": opened["base"],
                                          "spec": spec, "texts": texts})
    assert status == 200, answer
    after = (root / SPEC).read_text(encoding="utf-8")
    assert after.startswith(before.rstrip("\n"))
    added = after[len(before.rstrip("\n")):].strip("\n").splitlines()
    # (in the block style of the spec's other sections)
    assert added == ["groups:", "  - id: group-1", "    title: steps-group-1-title",
                     "    title_box: [64, 22]", f"    nodes: [{ids[0]}]"], added
    assert yaml.safe_load(after)["groups"][0]["nodes"] == ids[:1]
    entry = json.loads((root / TEXTS).read_text(encoding="utf-8"))["steps-group-1-title"]
    assert set(entry.values()) == {"Acting"}   # not translated yet: the source's text


def test_an_edge_given_by_its_points_is_saved_by_its_ends_once_a_node_at_an_end_moves(
        tmp_path):
    # The fixture's one edge is `- points: [[160, 60], [240, 60]]`, from act's right side
    # to learn's left. Moving act, the page turns it into an edge by its ends (editor.js,
    # follow): every field of it changes, and the save writes it anew, in its place.
    editor = FigureEditor(Editor(fixture_site("sources", tmp_path / "project"),
                                 "127.0.0.1", 8123))
    before = (editor.root / SPEC).read_text(encoding="utf-8")
    opened = ask(editor, "open", {"figure": "steps"})[1]
    spec = json.loads(json.dumps(opened["spec"]))
    for name in ("nodes", "edges", "labels", "dividers", "lifelines", "groups"):
        for i, item in enumerate(spec.get(name) or []):
            item["origin"] = i
    spec["nodes"][0]["box"] = [20, 20, 140, 60]
    assert spec["edges"][0].pop("points") == [[160, 60], [240, 60]]
    spec["edges"][0].update({"from": "act.right", "to": "learn.left"})
    status, answer = ask(editor, "save", {"figure": "steps", "base": opened["base"],
                                          "spec": spec})
    assert status == 200, answer
    after = (editor.root / SPEC).read_text(encoding="utf-8")
    changed = [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                     lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ["-    box: [20, 30, 140, 60]", "+    box: [20, 20, 140, 60]",
                       "-  - points: [[160, 60], [240, 60]]",
                       "+  - from: act.right", "+    to: learn.left"], changed
    assert yaml.safe_load(after)["edges"] == [{"from": "act.right", "to": "learn.left"}]


def test_a_route_request_takes_the_pages_groups_and_refuses_a_wrong_one(editor):
    nodes = [{"id": "a", "box": [20, 80, 100, 40]}, {"id": "b", "box": [300, 80, 100, 40]},
             {"id": "c", "box": [160, 200, 100, 40]}]
    request = {"figure": "steps", "width": 500, "height": 300, "nodes": nodes,
               "labels": [], "edges": [{"from": "a.bottom", "to": "b.bottom"}]}
    free = ask(editor, "route", {**request, "groups": []})[1]["edges"][0]["points"]
    # A group round c: its title (in the page, not on disk) is in the straight way.
    framed = ask(editor, "route", {**request, "groups": [
        {"nodes": ["c"], "title_box": [200, 60]}]})[1]["edges"][0]["points"]
    assert framed != free
    for wrong in ("nope", [{"nodes": "c"}], [{"nodes": ["c"], "title_box": ["w", 1]}]):
        status, answer = ask(editor, "route", {**request, "groups": wrong})
        assert (status, answer["key"]) == (400, "bad-request"), wrong


def test_every_key_serve_answers_with_has_its_string_in_every_language():
    from articlesite.figures import editor as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    keys = set(re.findall(r'refused\(HTTPStatus\.\w+, "([\w-]+)"', source))
    keys |= set(re.findall(r'"key": "([\w-]+)"', source))
    keys |= set(re.findall(r'"key": "([\w-]+)" if', source)) | {"fitted", "fitted-moved",
                                                                   "fitted-moved-one"}
    keys |= set(module.GUARD_KEYS.values())
    assert {"changed", "id-invalid", "id-used", "forbidden", "fits-already"} <= keys
    strings = theme_strings()
    missing = [key for key in sorted(keys) if set(strings.get("editor-server-" + key, {}))
               != {"zh", "en", "ja", "ko"}]
    assert not missing


def test_a_route_request_asked_to_place_places_labels_and_frames_as_the_build_does(
        editor, tmp_path):
    # The example's overview with a node moved: each label and frame where the built
    # figure has it (the editor shows that once a drag ends), `label_at` taken as the
    # build takes it.
    from conftest import REPO

    from articlesite.load.figures import FigureFile, load_figure
    from articlesite.load.sourcefiles import digest
    from articlesite.problems import Problems

    text = (REPO / "examples" / "training-overview" / "figures" / "training-overview.yaml"
            ).read_text(encoding="utf-8").replace("box: [635, 395, 220, 90]",
                                                  "box: [575, 425, 220, 90]")
    text = text.replace("label: values, label_box: [67, 23]",
                        "label: values, label_box: [67, 23], label_at: 0.3")
    spec = yaml.safe_load(text)
    request = {"figure": "steps", "width": spec["width"], "height": spec["height"],
               "nodes": spec["nodes"], "labels": [], "groups": spec["groups"], "place": True,
               "edges": [{"from": e["from"], "to": e["to"], "label_box": e.get("label_box"),
                          "label_at": e.get("label_at")} for e in spec["edges"]]}
    status, answer = ask(editor, "route", request)
    assert status == 200
    path = tmp_path / "training-overview.yaml"
    path.write_text(text, encoding="utf-8")
    figure = load_figure(FigureFile("training-overview", path, digest(path.read_bytes())),
                         Problems(tmp_path))
    built = {label.edge: [label.x, label.y, label.w, label.h, label.align]
             for label in figure.edge_labels}
    assert {i: edge["label"][:5] for i, edge in enumerate(answer["edges"])
            if edge["label"]} == built
    # what a label lies on, as `check` finds it: none here (20 hides stretches of routes)
    assert [edge["label"][5] for edge in answer["edges"] if edge["label"]] == [None] * 15
    assert built[13][:2] != [768.25, 953]   # slid
    assert answer["groups"] == [list(group.box) for group in figure.groups]
    unasked = ask(editor, "route", {**request, "place": False})[1]
    assert all("label" not in edge for edge in unasked["edges"]) and unasked["groups"] == []


def test_fit_says_when_it_made_the_canvas_wider_than_a_page(tmp_path, monkeypatch):
    # act named by one long word: Fit to texts widens act as far as the word needs and
    # pushes learn and the canvas past the 1240 px a page shows; the answer says so, in
    # English and with what the page's language needs. (Sizes estimated: Playwright's
    # sync API runs once a process, and browser tests may share this one.)
    from functools import partial

    from conftest import set_text

    from articlesite.figures import editor as module
    monkeypatch.setattr(module, "fit_figure", partial(module.fit_figure, browser=False))
    root = fixture_site("sources", tmp_path / "project")
    set_text(root, "act", "en", "Act" + "ively" * 32)
    status, answer = ask(FigureEditor(Editor(root, "127.0.0.1", 8123)), "fit",
                         {"figure": "steps"})
    assert status == 200, answer
    width = answer["args"]["wide"]
    assert width > 1240 and f"width: {width:g}" in (root / SPEC).read_text(encoding="utf-8")
    assert f"The canvas is {width:g} px wide, more than the 1240 px a page shows" \
        in answer["message"]
    assert "moved 1 other box." in answer["message"]   # learn (not "1 other boxes")
    assert said(answer, "en") == "Fitted: grew node act, moved 1 other box."
    text = theme_strings()["editor-fit-too-wide"]
    assert set(text) == {"zh", "en", "ja", "ko"}
    assert text["ja"].format(width=f"{width:g}", page=f"{answer['args']['page']:g}").startswith(
        f"キャンバスの幅が {width:g} px になり、ページに収まる 1240 px を超えました")
