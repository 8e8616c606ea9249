"""Groups and edge labels in the figure editor of `serve`, in Chromium, with the mouse
and keys as a person would: a group dragged by its title moves its members; a member
added and taken out in the bar; a group made from two selected nodes, titled in
Japanese, saved as its own lines in the YAML and the JSON; an edge's label dragged along
its edge, a label given to an edge and taken from another in the bar; a Japanese text
typed in a node broken where the build breaks it (serve's BudouX); a refusal of the
server said in Japanese on the ja page; axe clean with a group selected. One serve
process and one page for the module."""

from __future__ import annotations

import difflib
import json
import os

import pytest
from conftest import TEXTS, fixture_site, save
from test_serve import Server, poll

from articlesite.load.phrases import breaks
from browser.test_figure_editor import (
    DEADLINE_MS,
    box_of,
    centre,
    diagnosis,
    drag,
    message,
    open_page,
    save_accepted,
    spec_of,
)

FIGURE = "#figure-steps"
SPEC = "figures/steps.yaml"
STEPS = """\
title: steps-title
caption: steps-caption
width: 640
height: 340
nodes:
  - {id: act, box: [40, 80, 140, 60], text: act}
  - {id: learn, box: [320, 80, 140, 60], text: learn}
  - {id: note, box: [320, 240, 140, 50], text: note}
  - {id: draft, box: [40, 240, 140, 50], text: steps-draft}
edges:
  - {from: act, to: learn, label: edge-note, label_box: [60, 24]}
  - {from: learn, to: note}
groups:
  - {id: acting, title: acting-title, title_box: [70, 22], nodes: [act]}
"""
# A folder to keep screenshots of the editor in, when given (to look at them).
SHOTS = os.environ.get("ARTICLESITE_SCREENSHOTS")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = fixture_site("sources", tmp_path_factory.mktemp("groups-editor") / "project")
    (root / SPEC).write_text(STEPS, encoding="utf-8")
    texts = json.loads((root / TEXTS).read_text(encoding="utf-8"))
    texts["note"] = {"en": "A note", "zh": "注释", "ja": "メモ"}
    texts["steps-draft"] = {"en": "Draft", "zh": "草稿", "ja": "下書き"}
    texts["edge-note"] = {"en": "sends", "zh": "发送", "ja": "送る"}
    texts["acting-title"] = {"en": "Acting", "zh": "行动", "ja": "行動"}
    (root / TEXTS).write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                              encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def served(project):
    with Server(project, "--port", "0") as server:
        yield server


@pytest.fixture(scope="module")
def page(chromium, served):
    context, page, troubles = open_page(chromium, served)
    yield page
    context.close()
    assert not troubles


def open_editor(page, language: str = "en"):
    page.goto(f"{page.origin}{language}/loop.html")
    figure = page.locator(FIGURE)
    figure.locator(".fe-open").click()
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    page.wait_for_function("() => document.querySelectorAll('#figure-steps .fe-edges .edge')"
                           ".length > 0", timeout=DEADLINE_MS)   # routed
    return figure


def style_box(locator) -> list[float]:
    return [float(v.removesuffix("px")) for v in locator.evaluate(
        "el => [el.style.left, el.style.top, el.style.width, el.style.height]")]


def counted(page, selector: str, count: int) -> None:
    page.wait_for_function("([sel, n]) => document.querySelectorAll(sel).length === n",
                           arg=[selector, count], timeout=DEADLINE_MS)


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_a_divider_added_is_placed_clear_of_a_group_frame(page):
    figure = open_editor(page)
    drag(page, centre(figure.locator(".group-title")), (0, -20))   # the frame near the top
    figure.get_by_role("button", name="Add divider").click()
    x, y, w = spec_of(page)["dividers"][0]["box"]
    left, top, width, height = style_box(figure.locator('[data-group="acting"]'))
    assert x >= left + width or x + w <= left or y >= top + height or y <= top, \
        ((x, y, w), (left, top, width, height))
    page.keyboard.press("Control+z")
    counted(page, f"{FIGURE} .figure-divider", 0)
    page.keyboard.press("Control+z")
    page.wait_for_function("() => window.articlesiteFigureEditor.current.request().spec"
                           ".nodes[0].box[1] === 80", timeout=DEADLINE_MS)


def test_a_group_moves_by_its_title_and_takes_members_in_and_out_in_the_bar(page):
    figure = open_editor(page)
    frame = figure.locator('[data-group="acting"]')
    before = style_box(frame)
    title = figure.locator(".group-title")
    drag(page, centre(title), (0, 40))
    assert box_of(figure, "act")[:2] == [40, 120]       # the member moved with the title
    assert style_box(frame)[1] == before[1] + 40         # and the frame with it
    assert box_of(figure, "learn")[:2] == [320, 80]      # not a member: stays
    title.click()                                        # the group selected: its fields
    assert figure.locator(".fe-member").all_inner_texts() == ["act ×"]
    figure.locator(".fe-add-member").select_option("draft")
    assert spec_of(page)["groups"][0]["nodes"] == ["act", "draft"]
    assert message(figure) == "draft added to group acting."
    # The frame now holds both: from act's top to draft's bottom.
    frame_box = style_box(frame)
    assert frame_box[1] + frame_box[3] == 240 + 50 + 15
    figure.get_by_role("button", name="Take act out of the group").click()
    assert spec_of(page)["groups"][0]["nodes"] == ["draft"]
    page.keyboard.press("Control+z")
    assert spec_of(page)["groups"][0]["nodes"] == ["act", "draft"]
    # With the group selected, Shift+click a node: the bar adds it.
    figure.locator('[data-node="note"]').click(modifiers=["Shift"])
    figure.get_by_role("button", name="Add note to group acting").click()
    assert spec_of(page)["groups"][0]["nodes"] == ["act", "draft", "note"]
    title.click()                                        # the group alone
    figure.get_by_role("button", name="Delete").click()   # the group, not its members
    spec = spec_of(page)
    assert spec["groups"] == [] and {n["id"] for n in spec["nodes"]} == {
        "act", "learn", "note", "draft"}
    counted(page, f'{FIGURE} [data-group="acting"]', 0)


def test_an_edge_label_slides_along_its_edge_and_labels_come_and_go_in_the_bar(page):
    figure = open_editor(page)
    label = figure.locator(".edge-label")
    before = style_box(label)
    drag(page, centre(label), (30, 0), steps=6)
    after = style_box(label)
    assert after[0] > before[0] + 20 and after[1] == before[1]
    assert 0.5 < spec_of(page)["edges"][0]["label_at"] <= 1
    assert message(figure).startswith("Edge label moved to ")
    page.mouse.click(*centre(label))      # the label's edge selected: its text in the bar
    area = figure.locator('.fe-texts textarea[data-field="label"]')
    assert area.input_value() == "sends"
    at = spec_of(page)["edges"][0]["label_at"]
    page.keyboard.press("ArrowLeft")      # the keyboard slides it too
    assert spec_of(page)["edges"][0]["label_at"] == round(at - 0.02, 2)
    figure.get_by_role("button", name="Remove the edge's label").click()
    assert "label" not in spec_of(page)["edges"][0]
    counted(page, f"{FIGURE} .edge-label", 0)      # (drawn at the next frame)
    page.keyboard.press("Control+z")
    assert spec_of(page)["edges"][0]["label"] == "edge-note"
    counted(page, f"{FIGURE} .edge-label", 1)
    # The second edge (learn → note) is given a label: its text typed in the bar.
    figure.locator('.fe-edges .edge[data-edge]').last.click()
    figure.get_by_role("button", name="Add a label to the edge").click()
    page.keyboard.type("then")
    page.keyboard.press("Tab")
    edge = spec_of(page)["edges"][1]
    assert edge["label"] == "steps-learn-note" and edge["label_box"][0] >= 20, edge
    new = figure.locator('.edge-label[data-edge="1"]')
    page.wait_for_function("sel => document.querySelector(sel)?.textContent === 'then'",
                           arg=f'{FIGURE} .edge-label[data-edge="1"]', timeout=DEADLINE_MS)
    box = style_box(new)              # beside the vertical run from learn down to note
    assert 390 - 4 <= box[0] <= 390 + 8 and 140 < box[1] < 240, box


def test_a_group_made_of_two_nodes_titled_in_japanese_saves_only_its_lines(page, project,
                                                                         served):
    figure = open_editor(page, "ja")
    before = {name: (project / name).read_text(encoding="utf-8") for name in (SPEC, TEXTS)}
    figure.locator('[data-node="learn"]').click()
    figure.locator('[data-node="note"]').click(modifiers=["Shift"])
    figure.get_by_role("button", name="選択したノードをグループに").click()
    assert message(figure) == "2 個のノードでグループ group-1 を作りました。"
    page.keyboard.type("学習の段階")      # the new title's field has the focus
    page.keyboard.press("Tab")
    page.wait_for_function("sel => document.querySelector(sel)?.textContent === '学習の段階'",
                           arg=f'{FIGURE} [data-group="group-1"] .group-title',
                           timeout=DEADLINE_MS)   # (drawn at the next frame)
    # The title's box holds its longest text (the placeholder "Group 1" in en and zh).
    spec = spec_of(page)
    assert spec["groups"][1]["nodes"] == ["learn", "note"]
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/groupsui-ja-group.png")
    def log() -> str:
        return served.output()[-3000:]

    def changed(name: str) -> bool:
        return (project / name).read_text(encoding="utf-8") != before[name]

    save_accepted(page, figure, "保存", log)
    assert poll(lambda: changed(SPEC)), f"{SPEC} unchanged" + diagnosis(page, log)
    assert poll(lambda: changed(TEXTS)), f"{TEXTS} unchanged" + diagnosis(page, log)
    spec_diff = changed_lines(before[SPEC], (project / SPEC).read_text(encoding="utf-8"))
    size = spec["groups"][1]["title_box"]
    assert spec_diff == [(f"+  - {{id: group-1, title: steps-group-1-title, title_box: "
                          f"[{size[0]:g}, {size[1]:g}], nodes: [learn, note]}}")], spec_diff
    texts_diff = changed_lines(before[TEXTS], (project / TEXTS).read_text(encoding="utf-8"))
    assert all(line.startswith("+") for line in texts_diff), texts_diff
    entry = json.loads((project / TEXTS).read_text(encoding="utf-8"))["steps-group-1-title"]
    assert entry == {"en": "Group 1", "zh": "Group 1", "ja": "学習の段階"}
    page.wait_for_function("() => { var c = (window.articlesiteFigureEditor || {}).current;"
                           " return c && !c.dirty() && !c.history[1] && c.model.groups.length"
                           " === 2; }", timeout=DEADLINE_MS)   # reloaded, reopened


def test_japanese_typed_in_a_node_breaks_where_the_build_breaks_it(page):
    figure = page.locator(FIGURE)    # the editor reopened on the ja page after the save
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    figure.locator('[data-node="draft"]').click()
    area = figure.locator('.fe-texts textarea[data-field="text"]')
    # (Intl.Segmenter's words alone would break after アドバンテージ too)
    text = "アドバンテージ推定と報酬モデルの学習"
    asked = page.evaluate("() => window.articlesiteFigureEditor.segments.answered")
    area.fill(text)
    page.wait_for_function("n => window.articlesiteFigureEditor.segments.answered > n",
                           arg=asked, timeout=DEADLINE_MS)
    wanted = breaks(text, "ja")
    page.wait_for_function(
        "([sel, wanted]) => { const el = document.querySelector(sel); let at = 0, found = [];"
        " for (const n of el.childNodes) { if (n.nodeName === 'WBR') found.push(at);"
        " else at += n.textContent.length; } return JSON.stringify(found) ==="
        " JSON.stringify(wanted); }", arg=[f'{FIGURE} [data-node="draft"] strong', wanted],
        timeout=DEADLINE_MS)
    page.keyboard.press("Control+z")


def test_a_refusal_of_the_server_is_said_in_japanese_and_axe_finds_nothing(
        page, project, served):
    from browser.test_axe import axe, violations

    figure = page.locator(FIGURE)
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    figure.locator('[data-group="group-1"] .group-title').click()
    assert figure.locator(".fe-member").all_inner_texts() == ["learn ×", "note ×"]
    assert violations(axe(page, "{include: [['" + FIGURE + "']]}")) == []
    page.keyboard.press("ArrowDown")                    # the group's members move
    built = served.output().count("steps.yaml changed")
    text = (project / SPEC).read_text(encoding="utf-8")
    save(project, project / SPEC, "# Changed by another hand.\n" + text)
    figure.get_by_role("button", name="保存").click()
    page.wait_for_function("sel => /何も保存していません/.test(document.querySelector(sel)"
                           ".textContent)", arg=f"{FIGURE} .fe-message", timeout=DEADLINE_MS)
    assert message(figure).startswith("figures/steps.yaml はエディターが読み込んだ後に")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/groupsui-ja-refusal.png")
    assert poll(lambda: served.output().count("steps.yaml changed") > built), served.output()
