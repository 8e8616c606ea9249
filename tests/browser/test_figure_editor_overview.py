"""The figure editor on examples/training-overview (15 nodes, 20 edges with labels, 4
groups), in Chromium through `serve`, as an author uses it: what the editor shows once a
drag ends is what the build draws from the spec it saves, edge labels included. One
serve process for the module, on a copy of the example."""

from __future__ import annotations

import re
import shutil
import time

import pytest
from conftest import REPO, save
from test_serve import Server, poll

from browser.test_figure_editor import DEADLINE_MS, drag, open_page, save_accepted, settled

EXAMPLE = REPO / "examples" / "training-overview"
FIGURE = "#figure-training-overview"

LABELS = ("() => Object.fromEntries([...document.querySelectorAll("
          "'#figure-training-overview .edge-label')].map(el => [el.dataset.edge, "
          "[el.style.left, el.style.top, el.style.width, el.style.height]"
          ".map(v => Math.round(parseFloat(v) * 2) / 2)]))")

FRAMES = ("() => Object.fromEntries([...document.querySelectorAll("
          "'#figure-training-overview .figure-group')].map(el => [el.dataset.group, "
          "[el.style.left, el.style.top, el.style.width, el.style.height]"
          ".map(v => Math.round(parseFloat(v) * 2) / 2)]))")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("overview-editor") / "project"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("screenshots"))
    return root


@pytest.fixture(scope="module")
def served(project):
    with Server(project, "--port", "0") as server:
        yield server


def reading(page, script: str, enough):
    """What `script` gives in the page if `enough(it)`, else None; None too while the
    page reloads (serve's rebuild after a save or a fit)."""
    from playwright.sync_api import Error

    try:
        found = page.evaluate(script)
    except Error:
        return None
    return found if enough(found) else None


def quiet(served) -> None:
    """Wait until serve's build state has not changed for a second: the rebuild after a
    test put the example's files back would reload the next test's page, and close its
    editor."""
    last, since = None, time.monotonic()
    while time.monotonic() - since < 1.0:
        now = served.status()
        if now != last:
            last, since = now, time.monotonic()
        time.sleep(0.1)


def open_editor(page, language: str):
    page.goto(f"{page.origin}{language}/overview.html")
    figure = page.locator(FIGURE)
    figure.locator(".fe-open").click()
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    page.wait_for_function(f"() => document.querySelectorAll('{FIGURE} .fe-edges .edge')"
                           ".length > 0", timeout=DEADLINE_MS)
    settled(page)
    return figure


def node_dragged(chromium, served, language: str, node: str, to) -> tuple:
    """A page of its own with the editor open in `language`, `node`'s centre dragged by
    `to(its box, the figure)` (dx, dy): the context, the page, its troubles and the
    figure."""
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    figure = open_editor(page, language)
    moved = figure.locator(f'[data-node="{node}"]')
    moved.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
    box = moved.bounding_box()
    drag(page, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2), to(box, figure))
    settled(page)
    return context, page, troubles, figure


@pytest.mark.parametrize(("language", "node", "by", "save"),
                         [("ja", "trajectory", (-60, 30), "保存"), ("zh", "env", (80, 20), "保存"),
                          ("en", "rm", (0, -40), "Save")])
def test_labels_and_frames_shown_after_a_drop_are_where_the_build_puts_them(
        chromium, served, project, language, node, by, save):
    # ja: the label of 'old-probs' was left on the trajectory node; zh: the frame of
    # 'collect' kept the room its labels had needed on its left, moved away with env.
    spec = (project / "figures" / "training-overview.yaml").read_text(encoding="utf-8")
    context, page, troubles, figure = node_dragged(chromium, served, language, node,
                                                   lambda box, figure: by)
    shown = page.evaluate(LABELS), page.evaluate(FRAMES)
    save_accepted(page, figure, save)
    # The page reloads with the saved figure, its editor open again on the build's own
    # elements: where the build placed each label.
    page.wait_for_function("() => { var c = (window.articlesiteFigureEditor || {}).current;"
                           " return c && !c.dirty() && !c.history[1]; }", timeout=DEADLINE_MS)
    settled(page)
    built = page.evaluate(LABELS), page.evaluate(FRAMES)
    context.close()
    (project / "figures" / "training-overview.yaml").write_text(spec, encoding="utf-8")
    assert shown == built
    assert not troubles


def fit_shown(page, context, project, files: dict) -> tuple[list, str]:
    """Once "Fit to texts" was clicked: the messages it showed (kept in sessionStorage, as
    the page reloads) and the spec as written; then the page closed and `files` (path ->
    text) put back."""
    spec_path = project / "figures" / "training-overview.yaml"
    assert poll(lambda: spec_path.read_text(encoding="utf-8") != files[spec_path])
    written = spec_path.read_text(encoding="utf-8")
    shown = poll(lambda: reading(page, "() => JSON.parse(sessionStorage.getItem('fit') "
                                       "|| '[]')", lambda seen: len(seen) > 1))
    context.close()
    for path, text in files.items():
        save(project, path, text)
    return shown, written


@pytest.mark.parametrize(("language", "said"), [("ja", "ノード trajectory を移動しました"),
                                                ("zh", "节点 trajectory 已移动"),
                                                ("en", "Node trajectory moved")])
def test_a_message_keeps_a_space_between_an_id_and_chinese_or_japanese(chromium, served,
                                                                        language, said):
    # As the editor's other messages write it ("prefs をグループ prep から外しました"),
    # not "ノード trajectoryを移動しました".
    context, _, troubles, figure = node_dragged(chromium, served, language, "trajectory",
                                                lambda box, figure: (0, 20))
    assert figure.locator(".fe-message").inner_text() == said
    context.close()
    assert not troubles


@pytest.mark.parametrize(("language", "said"), [
    ("ja", "ノード critic がノード reference と重なっています（check が問題として報告します）。"),
    ("en", "Node critic overlaps node reference (check reports it as a problem).")])
def test_a_node_dropped_on_another_is_marked_and_said_at_once(chromium, served, language,
                                                              said):
    # check refuses two boxes that overlap; the editor let one be dropped on another and
    # saved it without a word.
    def onto_reference(box: dict, figure) -> tuple[float, float]:   # its right edge
        target = figure.locator('[data-node="reference"]').bounding_box()
        return (target["x"] + target["width"] - box["x"] - box["width"] / 2,
                target["y"] + target["height"] / 2 - box["y"] - box["height"] / 2)
    context, page, troubles, figure = node_dragged(chromium, served, language, "critic",
                                                   onto_reference)
    message = figure.locator(".fe-message").inner_text()
    marked = [el.get_attribute("data-node") for el in figure.locator(".node.fe-overlap").all()]
    page.keyboard.press("Control+z")
    unmarked = figure.locator(".node.fe-overlap").count()
    context.close()
    assert message.endswith(said)
    assert sorted(marked) == ["critic", "reference"]
    assert unmarked == 0
    assert not troubles


@pytest.mark.parametrize(("language", "said"), [
    ("ja", ("critic-update（右辺）から critic（右辺）へ、"
            "ほかの枠から 10 px 離れて通る道がありません")),
    ("zh", "从 critic-update（右边）到 critic（右边）找不到与其他框都保持 10 px 的路线")])
def test_an_edge_with_no_route_is_said_in_the_page_s_language(chromium, served, language,
                                                               said):
    # Critic pushed against the canvas's right edge: the feedback edge into its right side
    # has no way there. The router's English sentence was shown on every page.
    context, _, troubles, figure = node_dragged(chromium, served, language, "critic",
                                                lambda box, figure: (200, 0))
    message = figure.locator(".fe-message").inner_text()
    context.close()
    assert message == said
    assert not troubles


@pytest.mark.parametrize(("language", "button", "said"), [
    ("zh", "将所选节点编为一组", "critic、rm 已在分组 targets 中：一个节点最多属于一个分组。"),
    ("en", "Make a group", "critic, rm already in group targets: a node is in one group at most.")])
def test_a_list_of_ids_is_written_as_the_page_s_language_lists(chromium, served, language,
                                                               button, said):
    # zh and ja list with "、"; the ids were joined with ", " on every page.
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    figure = open_editor(page, language)
    figure.locator('[data-node="critic"]').click()
    figure.locator('[data-node="rm"]').click(modifiers=["Shift"])
    figure.get_by_role("button", name=button).click()
    message = figure.locator(".fe-message").inner_text()
    context.close()
    assert message == said
    assert not troubles


# Every text "Fit to texts" shows, kept across the reload that follows it.
FIT_MESSAGES = """new MutationObserver(() => {
  const el = document.querySelector('.fe-fit-message');
  if (!el || !el.textContent) return;
  const seen = JSON.parse(sessionStorage.getItem('fit') || '[]');
  if (seen[seen.length - 1] !== el.textContent) seen.push(el.textContent);
  sessionStorage.setItem('fit', JSON.stringify(seen));
}).observe(document, {subtree: true, childList: true, characterData: true});"""


def retexted(chromium, served, project, language: str, old: str, new: str) -> tuple:
    """The overview's text `old` in `language` made `new` in the dictionary, and a page
    in that language opened that keeps what "Fit to texts" shows: (context, page,
    troubles, the files to put back as they were)."""
    texts_path = project / "figures" / "figure-texts.json"
    spec_path = project / "figures" / "training-overview.yaml"
    files = {path: path.read_text(encoding="utf-8") for path in (texts_path, spec_path)}
    entry = f'"{language}": "{old}"'
    assert entry in files[texts_path]
    save(project, texts_path, files[texts_path].replace(entry, f'"{language}": "{new}"'))
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    page.context.add_init_script(FIT_MESSAGES)
    page.goto(f"{page.origin}{language}/overview.html")
    return context, page, troubles, files


# env's longer text wraps within its 200 px: env grows taller, the 9 boxes below it move
# down.
@pytest.mark.parametrize(("language", "longer", "button", "said"), [
    ("ja", "ツール環境とサンドボックスで実行された結果の一覧", "文字に合わせる",
     "合わせました：ノード env を広げ、ほかの枠を 9 個動かしました。"),
    ("zh", "工具环境与沙箱中执行后返回的结果列表", "按文字调整大小",
     "已调整：放大了节点 env，移动了另外 9 个框。")])
def test_fit_to_texts_names_what_grew_in_the_page_s_language(chromium, served, project,
                                                             language, longer, button, said):
    texts_path = project / "figures" / "figure-texts.json"
    spec_path = project / "figures" / "training-overview.yaml"
    texts, spec = (p.read_text(encoding="utf-8") for p in (texts_path, spec_path))
    entry = {"ja": '"ja": "ツール環境"}', "zh": '{"zh": "工具环境",'}[language]
    save(project, texts_path, texts.replace(
        entry, entry.replace("ツール環境" if language == "ja" else "工具环境", longer)))
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    page.context.add_init_script(FIT_MESSAGES)
    page.goto(f"{page.origin}{language}/overview.html")
    page.wait_for_function("t => document.querySelector('[data-node=env]').textContent"
                           ".replaceAll('\u200b', '').includes(t)", arg=longer,
                           timeout=DEADLINE_MS)
    page.locator(FIGURE).get_by_role("button", name=button).click()
    shown, _ = fit_shown(page, context, project, {texts_path: texts, spec_path: spec})
    assert shown[1:] == [said]
    assert not troubles


@pytest.mark.parametrize(("language", "old", "longer", "said"), [
    ("ja", "保存した log π_old", "保存した log π_old をさらに長くした説明文",
     ("合わせました：辺 20 のラベルを広げました。"
      "辺 20 のラベルの場所を空けました：枠を 4 個動かしました。")),
    ("en", "Saved log π_old", "Saved log π_old, kept for the ratio",
     "Fitted: grew edge 20's label. Made room for edge 20's label: moved 4 boxes.")])
def test_fit_to_texts_makes_room_for_a_lengthened_label_and_says_so(chromium, served, project,
                                                                    language, old, longer,
                                                                    said):
    # Grown alone, the label of trajectory -> rewards would lie over another edge: the
    # button moves the boxes below it down, and says so in the page's language.
    context, page, troubles, files = retexted(chromium, served, project, language, old,
                                              longer)
    page.wait_for_function("t => document.querySelector('[data-edge=\"19\"].edge-label')"
                           ".textContent.replaceAll('\u200b', '').includes(t)",
                           arg=longer.split("π_old")[1], timeout=DEADLINE_MS)   # π<sub>old
    page.locator(FIGURE).locator(".fe-fit-button").click()
    shown, written = fit_shown(page, context, project, files)
    assert shown[1:] == [said]
    assert "box: [490, 910, 210, 90]" in written   # rewards, moved down
    assert not troubles


@pytest.mark.parametrize(("language", "said"), [
    ("ja", "キャンバスの幅が {} px になり、ページに収まる 1240 px を超えました")])
def test_fit_to_texts_says_when_it_made_the_canvas_wider_than_a_page(chromium, served,
                                                                     project, language, said):
    # Critic, at the canvas's right edge, named by one long word: fit widens it (as far
    # as the word needs) and the canvas with it, past the page; the page says so, in its
    # language, as `figure fit` and `check` do (the English page shows serve's own
    # message, which says it too).
    word = "CriticNetworkForEveryHistoryPrefix"
    context, page, troubles, files = retexted(chromium, served, project, language, "Critic",
                                              word)
    page.wait_for_function("t => document.querySelector('[data-node=critic]').textContent"
                           ".includes(t)", arg=word, timeout=DEADLINE_MS)
    page.locator(FIGURE).locator(".fe-fit-button").click()
    shown, written = fit_shown(page, context, project, files)
    width = int(re.search(r"^width: (\d+)$", written, re.MULTILINE)[1])
    assert width > 1240 and said.format(width) in shown[-1], shown
    assert not troubles


def test_the_canvas_outline_and_focus_ring_are_not_cut_at_the_bottom(chromium, served):
    # The box the canvas scrolls in hides what passes its bottom: the canvas's dashed
    # outline (1 px) and its focus ring (2 px, 3 px out) were cut there.
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    open_editor(page, "zh")
    room = page.evaluate(f"""() => {{
      const canvas = document.querySelector('{FIGURE} .canvas');
      return canvas.parentElement.getBoundingClientRect().bottom
             - canvas.getBoundingClientRect().bottom; }}""")
    context.close()
    assert room >= 5
    assert not troubles


def test_a_label_the_build_can_only_put_on_another_is_marked_and_said(chromium, served):
    # ja: the label of actor -> env made longer than the gap between the two edges holds:
    # the build puts the label of env -> actor on it (`check`: "the label of edge 6 lies
    # on the label of edge 5"); the editor outlines it, and its edge's bar says so.
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    figure = open_editor(page, "ja")
    label = figure.locator('.edge-label[data-edge="4"]')
    label.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
    label.click()
    area = figure.locator(".fe-bar textarea").first
    area.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("ツールを呼び出して結果を待つ", delay=10)
    page.keyboard.press("Tab")
    settled(page)
    page.wait_for_function(f"() => document.querySelector('{FIGURE} .edge-label[data-edge=\"5\"]')"
                           ".classList.contains('fe-label-on')", timeout=DEADLINE_MS)
    assert not label.evaluate("el => el.classList.contains('fe-label-on')")
    # The edge env -> actor selected by its line, under the labels.
    uid = page.evaluate("window.articlesiteFigureEditor.current.model.edges[5].uid")
    edge = figure.locator(f'.fe-edges .edge[data-edge="{uid}"]').first
    box = edge.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 8)
    note = figure.locator(".fe-label-on-note")
    assert note.inner_text() == ("このラベルを置く空きがありません：辺 5 のラベルに重なっています。"
                                 "枠を離すか、ラベルを辺に沿ってずらしてください。")
    context.close()
    assert not troubles


def test_the_style_menu_names_each_style_in_the_page_s_language(chromium, served):
    quiet(served)
    context, page, troubles = open_page(chromium, served)
    figure = open_editor(page, "ja")
    figure.locator('.fe-canvas [data-node="actor"], [data-node="actor"]').first.click()
    style = figure.locator("select").filter(has=page.locator('option[value="soft"]'))
    names = style.locator("option").all_text_contents()
    context.close()
    assert names == ["標準", "淡い塗り (soft)", "強調 (accent)"]
    assert not troubles
