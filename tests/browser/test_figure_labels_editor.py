"""Edge labels and groups in the figure editor, in Chromium through `serve`: "Fit to
texts" after a Japanese text made longer than its box changes the spec by that box's line
alone (nothing lies beyond it), and the page reloads with the text fitting; a node dragged
in the editor takes its group's frame and its edge's label along; a label dragged slides
along its route, a group dragged by its title moves its members, and the save changes
those two lines; an overflowing label and title are marked; a label's text is edited in
the bar (its edge selected) and saved into the dictionary, its box grown to hold it; a
feedback edge routed round another edge, as the build routes it."""

from __future__ import annotations

import json

import pytest
from conftest import TEXTS, fixture_site, save
from test_feedback_routes import LOOP
from test_serve import Server, poll

from articlesite.geometry.crossings import count
from browser.test_figure_editor import DEADLINE_MS, open_page, settled


def said(figure) -> str:
    """What the editor's message line says, if the editor is still open (for a failure)."""
    message = figure.locator(".fe-message")
    return f"the editor said: {message.inner_text()!r}" if message.count() else "no editor"

SPEC = "figures/steps.yaml"
# note sits under learn, narrower than it: grown up to learn's width, it pushes nothing.
STEPS = """\
title: steps-title
caption: steps-caption
width: 500
height: 220
nodes:
  - {id: act, box: [20, 30, 140, 60], text: act}
  - {id: learn, box: [240, 30, 240, 60], text: learn}
  - {id: note, box: [240, 140, 100, 60], text: note}
edges:
  - {from: act, to: learn}
"""


# Whether a node's text runs out of its padding box (the text is centred: it overflows
# above and below, which scrollHeight does not count).
OVERFLOWS = """el => { const box = el.getBoundingClientRect(), cs = getComputedStyle(el);
  const text = el.querySelector('strong').getBoundingClientRect();
  return text.top < box.top + parseFloat(cs.borderTopWidth) - 0.5
      || text.bottom > box.bottom - parseFloat(cs.borderBottomWidth) + 0.5
      || el.scrollWidth > el.clientWidth; }"""


@pytest.fixture
def project(tmp_path):
    root = fixture_site("sources", tmp_path / "project")
    (root / SPEC).write_text(STEPS, encoding="utf-8")
    texts = json.loads((root / TEXTS).read_text(encoding="utf-8"))
    texts["note"] = {"en": "A note", "zh": "注释", "ja": "メモ"}
    (root / TEXTS).write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                              encoding="utf-8")
    return root


def test_fit_to_texts_after_a_longer_japanese_text_changes_one_line(chromium, project):
    with Server(project, "--port", "0") as served:
        origin = f"http://{served.host}:{served.port}/"
        context, page, troubles = open_page(chromium, served)
        texts = json.loads((project / TEXTS).read_text(encoding="utf-8"))
        # its first phrase, 7 × 18 px, is wider than the box: it widens (one line, 10 × 18 px)
        texts["note"]["ja"] = "メモランダムの文です"
        save(project, project / TEXTS, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")
        page.goto(origin + "ja/loop.html")
        note = page.locator('#figure-steps [data-node="note"]')
        # (the text's phrases are joined by zero-width spaces, where a line may break)
        page.wait_for_function("() => document.querySelector('#figure-steps [data-node=note]')"
                               ".textContent.replaceAll('\u200b', '')"
                               ".includes('メモランダムの文です')", timeout=DEADLINE_MS)
        assert note.evaluate(OVERFLOWS)   # the longer text does not fit
        before = (project / SPEC).read_text(encoding="utf-8")
        # (the button speaks the page's language)
        page.locator("#figure-steps").get_by_role("button", name="文字に合わせる").click()
        # (the spec read from the file: the page may reload with the rebuild before the
        # button's message is seen)
        assert poll(lambda: (project / SPEC).read_text(encoding="utf-8") != before), \
            said(page.locator("#figure-steps"))
        after = (project / SPEC).read_text(encoding="utf-8")
        changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines(),
                                                  strict=True) if old != new]
        assert len(changed) == 1 and changed[0][0] == "  - {id: note, box: [240, 140, 100, 60], " \
            "text: note}", changed
        width = float(changed[0][1].split("[240, 140, ")[1].split(",")[0])
        assert 100 < width <= 240
        # serve rebuilds; the page reloads with the wider box, which the text fits.
        page.wait_for_function("w => document.querySelector('#figure-steps [data-node=note]')"
                               "?.style.width === w + 'px'", arg=f"{width:g}",
                               timeout=DEADLINE_MS)
        assert not note.evaluate(OVERFLOWS)
        context.close()
        assert not troubles


LABELLED = """\
title: steps-title
caption: steps-caption
width: 520
height: 300
nodes:
  - {id: act, box: [40, 60, 140, 60], text: act}
  - {id: learn, box: [320, 60, 140, 60], text: learn}
edges:
  - {from: act, to: learn, label: note, label_box: [60, 24]}
groups:
  - {id: acting, title: note, title_box: [60, 22], nodes: [act]}
"""


def editing(chromium, served: Server):
    """The fixture's article open in a new context, its figure's editor open: the
    context, the page, the troubles open_page collects, and the figure."""
    context, page, troubles = open_page(chromium, served)
    page.goto(f"http://{served.host}:{served.port}/en/loop.html")
    figure = page.locator("#figure-steps")
    figure.get_by_role("button", name="Edit figure").click()
    page.wait_for_selector("#figure-steps .fe-bar", timeout=DEADLINE_MS)
    return context, page, troubles, figure


def style_box(locator) -> list[float]:
    return [float(v.removesuffix("px")) for v in locator.evaluate(
        "el => [el.style.left, el.style.top, el.style.width, el.style.height]")]


def test_a_dragged_node_takes_its_edge_label_and_its_group_frame_along(chromium, project):
    (project / SPEC).write_text(LABELLED, encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, troubles = open_page(chromium, served)
        page.goto(f"http://{served.host}:{served.port}/en/loop.html")
        figure = page.locator("#figure-steps")
        label, frame = figure.locator(".edge-label"), figure.locator('[data-group="acting"]')
        before_label, before_frame = style_box(label), style_box(frame)
        figure.get_by_role("button", name="Edit figure").click()
        page.wait_for_selector("#figure-steps .fe-bar", timeout=DEADLINE_MS)
        node = figure.locator('[data-node="act"]')
        node.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
        box = node.bounding_box()
        start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.move(*start)
        page.mouse.down()
        for i in range(1, 13):
            page.mouse.move(start[0], start[1] + 120 * i / 12)
        page.mouse.up()
        moved = style_box(node)[1] - 60
        assert moved >= 100
        # The frame follows its member; the label stays beside its edge's rerouted run.
        page.wait_for_function("([sel, top]) => parseFloat(document.querySelector(sel).style.top)"
                               " === top", arg=['#figure-steps [data-group="acting"]',
                                                before_frame[1] + moved], timeout=DEADLINE_MS)
        assert style_box(frame)[0] == before_frame[0]
        page.wait_for_function("([sel, top]) => parseFloat(document.querySelector(sel).style.top)"
                               " !== top", arg=["#figure-steps .edge-label", before_label[1]],
                               timeout=DEADLINE_MS)
        ends = figure.locator(".fe-edges .edge").evaluate_all(
            "els => els.map(el => [parseFloat(el.style.left), parseFloat(el.style.top)])")
        label_box = style_box(label)
        ys = [y for _, y in ends]
        assert min(ys) - 40 <= label_box[1] <= max(ys) + 40   # still beside its route
        context.close()
        assert not troubles


def test_a_label_slides_along_its_route_and_a_group_moves_by_its_title(chromium, project):
    (project / SPEC).write_text(LABELLED, encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, troubles, figure = editing(chromium, served)
        label = figure.locator(".edge-label")
        page.wait_for_function("() => document.querySelectorAll('#figure-steps .fe-edges "
                               ".edge').length > 0", timeout=DEADLINE_MS)   # routed
        figure.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
        before = style_box(label)
        box = label.bounding_box()
        start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.move(*start)
        page.mouse.down()
        for i in range(1, 9):    # towards the route's end, at learn (320, 90)
            page.mouse.move(start[0] + 90 * i / 8, start[1])
        page.mouse.up()
        after = style_box(label)
        assert after[0] > before[0] + 40
        title = figure.locator(".group-title")
        box = title.bounding_box()
        start = (box["x"] + 10, box["y"] + box["height"] / 2)
        page.mouse.move(*start)
        page.mouse.down()
        for i in range(1, 9):
            page.mouse.move(start[0], start[1] + 80 * i / 8)
        page.mouse.up()
        assert style_box(figure.locator('[data-node="act"]'))[1] == 140   # 60 + 80
        before_text = (project / SPEC).read_text(encoding="utf-8")
        settled(page)
        figure.get_by_role("button", name="Save").click()
        assert poll(lambda: (project / SPEC).read_text(encoding="utf-8") != before_text), \
            said(figure)
        after_text = (project / SPEC).read_text(encoding="utf-8")
        changed = [(a, b) for a, b in zip(before_text.splitlines(), after_text.splitlines(),
                                          strict=True) if a != b]
        assert [a for a, _ in changed] == [
            "  - {id: act, box: [40, 60, 140, 60], text: act}",
            "  - {from: act, to: learn, label: note, label_box: [60, 24]}"]
        assert changed[0][1] == "  - {id: act, box: [40, 140, 140, 60], text: act}"
        at = float(changed[1][1].split("label_at: ")[1].rstrip("}"))
        assert 0.5 < at <= 1
        context.close()
        assert not troubles


def test_the_editor_marks_an_edge_label_and_a_title_their_japanese_text_overflows(
        chromium, project):
    (project / SPEC).write_text(LABELLED, encoding="utf-8")
    texts = json.loads((project / TEXTS).read_text(encoding="utf-8"))
    texts["note"]["ja"] = "とても長い日本語のメモの文章"   # the label's and the title's text
    (project / TEXTS).write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                                 encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, _ = open_page(chromium, served)
        page.goto(f"http://{served.host}:{served.port}/en/loop.html")
        figure = page.locator("#figure-steps")
        figure.get_by_role("button", name="Edit figure").click()
        page.wait_for_selector("#figure-steps .edge-label.fe-label-over", timeout=DEADLINE_MS)
        for element in (figure.locator(".edge-label"), figure.locator(".group-title")):
            title = element.get_attribute("title")
            assert title.startswith("ja: overflowing by ") and "en:" not in title, title
        context.close()


def edit_the_label(page, figure, text: str) -> None:
    """Type `text` as the edge label's, in the bar (its edge selected), and see it drawn."""
    figure.locator(".edge-label").click()     # its edge selected: the label's text
    area = figure.locator('.fe-texts textarea[data-field="label"]')
    assert area.input_value() == "A note"
    area.fill(text)
    area.blur()
    # (annotations.js draws the labels from the model on the next animation frame)
    page.wait_for_function("([sel, text]) => document.querySelector(sel)?.innerText === text",
                           arg=["#figure-steps .edge-label", text], timeout=DEADLINE_MS)


def test_an_edge_labels_text_is_edited_in_the_bar_and_saved(chromium, project):
    (project / SPEC).write_text(LABELLED, encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, _, figure = editing(chromium, served)
        edit_the_label(page, figure, "A longer note")
        spec = (project / SPEC).read_text(encoding="utf-8")
        settled(page)
        figure.get_by_role("button", name="Save").click()
        # (read from the file: the page may reload with the rebuild before the message
        # of the save is seen)
        assert poll(lambda: json.loads((project / TEXTS).read_text(encoding="utf-8"))
                    ["note"]["en"] == "A longer note"), (
            said(figure), json.loads((project / TEXTS).read_text(encoding="utf-8"))["note"],
            served.output()[-3000:])
        # The label's box grew to hold the longer text: that line alone changed.
        after = (project / SPEC).read_text(encoding="utf-8")
        changed = [(a, b) for a, b in zip(spec.splitlines(), after.splitlines(), strict=True)
                   if a != b]
        assert [a for a, _ in changed] == [
            "  - {from: act, to: learn, label: note, label_box: [60, 24]}"], changed
        width = float(changed[0][1].split("label_box: [")[1].split(",")[0])
        assert width > 60
        context.close()


def test_a_save_reaches_serve_while_the_test_only_reads_the_file(chromium, project):
    """The page's requests to serve wait for nothing in the test: Save pressed in the page
    after the test's last call into Playwright (which a click under load may look like)
    writes the dictionary while the test only reads the file."""
    (project / SPEC).write_text(LABELLED, encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, troubles, figure = editing(chromium, served)
        edit_the_label(page, figure, "A note saved")
        settled(page)
        page.evaluate("() => setTimeout(() => document.querySelector("
                      "'#figure-steps .fe-bar [data-action=save]').click(), 200)")
        assert poll(lambda: json.loads((project / TEXTS).read_text(encoding="utf-8"))
                    ["note"]["en"] == "A note saved"), (said(figure), served.output()[-3000:])
        context.close()
        assert not troubles


def test_the_editor_routes_a_feedback_edge_round_as_the_build_does(chromium, project):
    # (the loop back from r would cross t's edge down to u: the build sends it round)
    (project / SPEC).write_text(LOOP, encoding="utf-8")
    with Server(project, "--port", "0") as served:
        context, page, troubles, figure = editing(chromium, served)
        settled(page)
        figure.locator('[data-node="u"]').click()
        page.keyboard.press("ArrowRight")    # u moves 1 px: every edge routed again
        page.wait_for_function("() => window.articlesiteFigureEditor.current.model.edges"
                               ".every(e => e.shown)", timeout=DEADLINE_MS)
        settled(page)
        routes = page.evaluate("() => window.articlesiteFigureEditor.current.model.edges"
                               ".map(e => e.shown)")
        assert count(routes) == 0 and len(routes[1]) > 4, routes   # round t, not across
        context.close()
        assert not troubles
