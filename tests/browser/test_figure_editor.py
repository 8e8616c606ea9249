"""The figure editor of `python build.py serve`, in Chromium, driven with the mouse and
keys as a person would: a node dragged, its edge follows (routed by the build's router);
a node resized until its Japanese text overflows, shown on the box before any save; a
spec changed on disk refuses the save and keeps the edits; a save changes exactly the
moved node's line of the YAML and the open page reloads with it; requests without the
token or from another origin change nothing; an edge given by its points, once a node
at its end is dragged, is saved by its ends. One serve process and one page for the
module, on the small fixture site (tests/fixtures/sources) whose figure `steps` is given
a third node and a label here. Every wait polls with a deadline; nothing is timed."""

from __future__ import annotations

import difflib
import http.client
import json
import math
import re
import time

import pytest
from conftest import TEXTS, fixture_site, save
from test_serve import Server, poll

ARTICLE = "en/loop.html"
FIGURE = "#figure-steps"
SPEC = "figures/steps.yaml"
DEADLINE_MS = 60_000
STEPS = """\
# The editor's fixture: two steps and a note.
title: steps-title
caption: steps-caption
width: 640
height: 220

nodes:
  - id: act
    box: [20, 30, 140, 60]
    text: act
    link: collect
  - id: learn
    box: [240, 30, 140, 60]
    text: learn
    link: learn
  - id: note
    box: [240, 140, 140, 50]
    text: note
  - id: draft
    box: [500, 140, 100, 50]
    text: steps-draft
edges:
  - points: [[160, 60], [240, 60]]
  - {from: note.right, to: draft.left}
labels:
  - text: note-label
    box: [20, 150, 120]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = fixture_site("sources", tmp_path_factory.mktemp("figure-editor") / "project")
    (root / SPEC).write_text(STEPS, encoding="utf-8")
    texts = json.loads((root / TEXTS).read_text(encoding="utf-8"))
    texts["act"]["ja"] = "行動する方策と環境"   # two lines fit at 140 px, three at 80 px do not
    texts["note"] = {"en": "A note", "zh": "注释", "ja": "メモ"}
    texts["note-label"] = {"en": "aside", "zh": "旁注", "ja": "余談"}
    texts["steps-draft"] = {"en": "Draft", "zh": "草稿", "ja": "下書き"}
    (root / TEXTS).write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                              encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def served(project):
    with Server(project, "--port", "0") as server:
        yield server


def open_page(chromium, served) -> tuple:
    """A page of its own on `served` (its address in `page.origin`), a context, and the
    troubles seen: an uncaught error, or a request to anywhere but the server (aborted)."""
    origin = f"http://{served.host}:{served.port}/"
    # serve's first build done: a page opened before it ends reloads when it does, its
    # editor opened again on the spec as saved, and what a test did in it is gone.
    events = served.events()
    if events.last["version"].endswith("-0"):
        events.until(lambda outcome: not outcome["version"].endswith("-0"))
    events.close()
    context = chromium.new_context(viewport={"width": 1300, "height": 900})
    troubles: list[str] = []
    # Only a request leaving the server is routed (matched by the driver, not here): a
    # routed request waits until this thread next calls into Playwright, and a test that
    # clicks Save and then polls a file would hold the save back until its deadline.
    context.route(re.compile(f"^(?!{re.escape(origin)})"),
                  lambda route: (troubles.append(route.request.url), route.abort()))
    context.add_init_script(TRAIL_SCRIPT)
    page = context.new_page()
    page.on("pageerror", lambda error: troubles.append(f"uncaught: {error}"))
    page.origin = origin
    follow(page)
    return context, page, troubles


# What a page did, for a failed save to show (diagnosis): each press, release and click
# with its target and where it was, each load, each request to serve's editor and its
# answer, in order, with the seconds since the page was opened. (A button that moves
# between the press and the release is not clicked, and Playwright does not notice.)
TRAIL_SCRIPT = """(() => {
  const said = e => { const t = e.target; if (!t || !t.tagName) return String(t);
    const a = t.getAttribute("data-action") || t.getAttribute("data-node") || t.className;
    const text = (t.textContent || "").replace(/\\s+/g, " ").trim().slice(0, 24);
    return t.tagName + (a ? "[" + a + "]" : "") + " " + text; };
  for (const type of ["pointerdown", "pointerup", "click"])
    window.addEventListener(type, e => console.debug("trail: " + type + " at " +
      Math.round(e.clientX) + "," + Math.round(e.clientY) + " on " + said(e)), true);
})();"""


def follow(page) -> None:
    """Keep the page's trail (TRAIL_SCRIPT) in `page.trail`."""
    start, page.trail = time.monotonic(), []

    def note(what: str) -> None:
        page.trail.append(f"{time.monotonic() - start:8.3f} {what}")
        del page.trail[:-80]

    def editor(request) -> bool:
        return "/__articlesite/" in request.url and "/events" not in request.url

    page.on("console", lambda m: m.text.startswith("trail: ") and note(m.text[7:]))
    page.on("framenavigated", lambda frame: frame == page.main_frame and note(
        f"load {frame.url}"))
    page.on("request", lambda r: editor(r) and note(f"{r.method} {r.url.split('/')[-1]}"))
    page.on("response", lambda r: editor(r.request) and note(
        f"{r.status} {r.url.split('/')[-1]}"))
    page.on("requestfailed", lambda r: editor(r) and note(
        f"failed {r.url.split('/')[-1]}: {r.failure}"))


EDITOR_STATE = """() => { var F = window.articlesiteFigureEditor || {}, c = F.current,
  L = window.articlesiteLive || {}, save = document.querySelector('.fe-bar [data-action=save]');
  return {url: location.href, ready: document.readyState, scroll: [scrollX, scrollY],
    live: {version: L.version, pending: !!L.pending}, segments: F.segments || null,
    editor: c ? {dirty: c.dirty(), saving: !!c.saving, saved: !!c.saved, steps: c.history.length,
                 routing: c.routing.busy, fitting: !!c.fitTimer,
                 message: c.message && c.message.textContent} : null,
    save: save && {disabled: save.disabled, box: save.getBoundingClientRect().toJSON()},
    focus: document.activeElement && document.activeElement.outerHTML.slice(0, 100)}; }"""


def diagnosis(page, log=lambda: "") -> str:
    """What a failed save shows: the editor's state, the page's trail, and `log()`
    (serve's output)."""
    try:
        state = json.dumps(page.evaluate(EDITOR_STATE), ensure_ascii=False)
    except Exception as error:   # noqa: BLE001 - a page reloading, closed: said as it is
        state = f"(not read: {error})"
    trail = "\n".join(getattr(page, "trail", []))
    return f"\neditor: {state}\ntrail:\n{trail}\nserve:\n{log()}"


@pytest.fixture(scope="module")
def page(chromium, served):
    """One page for the module, which may reach this server only."""
    context, page, troubles = open_page(chromium, served)
    yield page
    context.close()
    assert not troubles


def open_editor(page):
    page.goto(page.origin + ARTICLE)
    page.locator(FIGURE).get_by_role("button", name="Edit figure").click()
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    return page.locator(FIGURE)


def centre(locator) -> tuple[float, float]:
    """Where the element's centre is on the screen, once scrolled to the middle of it."""
    locator.evaluate("el => el.scrollIntoView({block: 'center', behavior: 'instant'})")
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page, start: tuple[float, float], by: tuple[float, float], steps: int = 12) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for i in range(1, steps + 1):
        page.mouse.move(start[0] + by[0] * i / steps, start[1] + by[1] * i / steps)
    page.mouse.up()


def box_of(figure, node: str) -> list[float]:
    style = figure.locator(f'[data-node="{node}"]').evaluate(
        "el => [el.style.left, el.style.top, el.style.width, el.style.height]")
    return [float(value.removesuffix("px")) for value in style]


FIRST_EDGE = ("els => els.filter(el => el.dataset.edge === els[0].dataset.edge)"
              ".map(el => [el.style.left, el.style.top, el.style.width, el.style.transform])")


def edge_ends(figure) -> list[tuple[float, float]]:
    """The start of the first edge's first drawn segment and the end of its last, in
    canvas px."""
    segments = figure.locator(".canvas .edge").evaluate_all(FIRST_EDGE)
    ends = []
    for left, top, width, transform in segments:
        x, y, length = (float(v.removesuffix("px")) for v in (left, top, width))
        angle = math.radians(float(re.search(r"rotate\(([-\d.]+)deg\)", transform).group(1)))
        ends.append(((x, y), (x + length * math.cos(angle), y + length * math.sin(angle))))
    return [ends[0][0], ends[-1][1]]


def message(figure) -> str:
    return figure.locator(".fe-message").inner_text()


def test_a_dragged_node_takes_its_edge_along(page, project):
    figure = open_editor(page)
    before = (project / SPEC).read_text(encoding="utf-8")
    assert edge_ends(figure) == [(160, 60), (240, 60)]
    drag(page, centre(figure.locator('[data-node="learn"]')), (0, 70))
    x, y, _, h = box_of(figure, "learn")
    assert (x, y) != (240, 30)
    page.wait_for_function(
        "sel => { var all = [...document.querySelectorAll(sel + ' .canvas .edge')];"
        " return all.filter(el => el.dataset.edge === all[0].dataset.edge).length > 1; }",
        arg=FIGURE, timeout=DEADLINE_MS)   # routed again: act's right side to learn's left,
    # with bends
    start, end = edge_ends(figure)
    assert start[0] == 160 and 30 <= start[1] <= 90          # still leaves act's right side
    assert abs(end[0] - x) < 0.5 and y <= end[1] <= y + h     # and enters learn's left side
    assert all(figure.locator(f'[data-node="{n}"]').count() == 1
               for n in ("act", "learn", "note", "draft"))
    assert (project / SPEC).read_text(encoding="utf-8") == before   # nothing saved


def test_a_node_narrowed_until_its_japanese_text_overflows_says_so_before_saving(page, project):
    figure = open_editor(page)
    files = {name: (project / name).read_bytes() for name in (SPEC, TEXTS)}
    badge = figure.locator('.fe-fit[data-fit="node act"]')
    page.wait_for_function("sel => document.querySelector(sel)", arg=f"{FIGURE} .fe-fit",
                           timeout=DEADLINE_MS)
    assert "fe-fits" in badge.get_attribute("class")
    figure.locator('[data-node="act"]').click()
    drag(page, centre(figure.locator('.fe-handle[data-handle="e"]')), (-60, 0))
    assert box_of(figure, "act")[2] == 80
    page.wait_for_function("sel => /ja \\+[\\d.]+ px/.test(document.querySelector(sel)"
                           ".textContent)", arg=f'{FIGURE} .fe-fit[data-fit="node act"]',
                           timeout=DEADLINE_MS)
    assert "en" not in badge.inner_text() and "zh" not in badge.inner_text()
    assert "ja: overflowing by" in badge.get_attribute("title")
    assert {name: (project / name).read_bytes() for name in files} == files


def test_a_spec_changed_on_disk_refuses_the_save_and_the_edits_stay(page, project, served):
    figure = open_editor(page)
    built = served.output().count("steps.yaml changed")
    figure.locator('[data-node="note"]').click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    assert box_of(figure, "note")[:2] == [243, 150]
    other = STEPS.replace("# The editor's fixture", "# Changed by another hand. The editor's")
    save(project, project / SPEC, other)
    figure.get_by_role("button", name="Save").click()
    page.wait_for_function("sel => /nothing was saved/.test(document.querySelector(sel)"
                           ".textContent)", arg=f"{FIGURE} .fe-message", timeout=DEADLINE_MS)
    assert "figures/steps.yaml changed on disk since the editor loaded it" in message(figure)
    assert box_of(figure, "note")[:2] == [243, 150]         # the edit is still there
    assert (project / SPEC).read_text(encoding="utf-8") == other
    # The build of that change ends before the next test opens the page: the page reloads
    # then, which would close an editor opened before.
    assert poll(lambda: served.output().count("steps.yaml changed") > built), served.output()


def test_a_save_changes_the_moved_node_line_only_and_the_page_reloads(page, project):
    figure = open_editor(page)   # loads the spec as the other hand left it
    before = (project / SPEC).read_text(encoding="utf-8")
    drag(page, centre(figure.locator('[data-node="note"]')), (50, 20))
    x, y, w, h = box_of(figure, "note")
    save_accepted(page, figure)
    after = (project / SPEC).read_text(encoding="utf-8")
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines())
               if old != new]
    assert len(before.splitlines()) == len(after.splitlines())
    assert changed == [("    box: [240, 140, 140, 50]", f"    box: [{x:g}, {y:g}, {w:g}, {h:g}]")]
    # The page reloads after the rebuild, with the figure as built (and its editor open
    # again, on the saved spec).
    page.wait_for_function(
        "([sel, x]) => { var n = document.querySelector(sel + ' [data-node=note]');"
        " var F = window.articlesiteFigureEditor;"   # its scripts may not have run yet
        " return n && n.style.left === x + 'px' && F && F.current && !F.current.dirty(); }",
        arg=[FIGURE, x], timeout=DEADLINE_MS)


def post(served, path: str, body: bytes, headers: dict) -> int:
    connection = http.client.HTTPConnection(served.host, served.port, timeout=30)
    try:
        connection.request("POST", path, body=body, headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


def test_requests_without_the_token_or_from_elsewhere_change_nothing(page, project, served):
    _, _, html = served.get("/" + ARTICLE)
    token = json.loads(re.search(r"window\.articlesiteFigureEditor=(\{.*?\});\n",
                                 html).group(1))["token"]
    files = {name: (project / name).read_bytes() for name in (SPEC, TEXTS)}
    here = f"{served.host}:{served.port}"
    good = {"Content-Type": "application/json", "Origin": f"http://{here}",
            "X-Articlesite-Token": token, "Host": here}
    body = json.dumps({"figure": "steps", "base": {"spec": "x", "texts": "y"},
                       "spec": {"width": 10, "height": 10}}).encode()
    for headers, status in (({**good, "X-Articlesite-Token": ""}, 403),
                            ({**good, "Origin": "http://evil.example"}, 403),
                            ({k: v for k, v in good.items() if k != "Origin"}, 403),
                            ({**good, "Host": "evil.example"}, 403),
                            ({**good, "Content-Type": "text/plain"}, 415)):
        assert post(served, "/__articlesite/figure/save", body, headers) == status, headers
    assert post(served, "/__articlesite/figure/save", body, good) == 409   # stale digests
    # A page of another origin cannot send the token (its preflight is refused).
    page.goto("about:blank")
    sent = page.evaluate("""([url, token, body]) => fetch(url, {method: "POST", headers:
        {"Content-Type": "application/json", "X-Articlesite-Token": token}, body: body})
        .then(() => "sent", () => "blocked")""",
                         [f"http://{here}/__articlesite/figure/save", token, body.decode()])
    assert sent == "blocked"
    assert {name: (project / name).read_bytes() for name in files} == files
    # The site that `build` writes has no editor.
    built = (project / "site" / ARTICLE).read_text(encoding="utf-8")
    assert "articlesiteFigureEditor" not in built and "Edit figure" not in built


# Making every part of a figure ---------------------------------------------------------

def spec_of(page) -> dict:
    """The spec as the open editor would send it to be saved."""
    return page.evaluate("window.articlesiteFigureEditor.current.request().spec")


def settled(page) -> None:
    """Wait until the open editor is idle (no route, phrase breaks or fit measurement
    under way), so that nothing it draws moves the bar under the next click."""
    page.wait_for_function("() => { var F = window.articlesiteFigureEditor || {};"
                           " var c = F.current; return c && !c.routing.busy && !c.fitTimer"
                           " && (!F.segments || F.segments.asked === F.segments.answered); }",
                           timeout=DEADLINE_MS)


def save_accepted(page, figure, button: str = "Save", log=lambda: "") -> None:
    """Click Save once the editor is idle, and see serve accept the save (status 200);
    `log()`: what else a failure shows. (Its message "Saved …" may not last a frame:
    when the build the save started has ended before serve's answer came, the page
    reloads as soon as the answer is shown.)"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    settled(page)
    try:
        with page.expect_response(lambda response: response.url.endswith("/figure/save"),
                                  timeout=DEADLINE_MS) as answer:
            figure.get_by_role("button", name=button).click()
        status = answer.value.status
    except PlaywrightTimeout:
        status = None   # no answer within the deadline, or no request at all
    assert status == 200, f"save answered {status}" + diagnosis(page, log)


def saved(page, figure) -> None:
    """Save (save_accepted), and wait until the page has reloaded with the saved figure
    (its editor open again, with nothing to save)."""
    save_accepted(page, figure)
    page.wait_for_function("() => { var c = (window.articlesiteFigureEditor || {}).current;"
                           " return c && !c.dirty() && !c.history[1]; }", timeout=DEADLINE_MS)


def added_lines(before: str, after: str) -> list[str]:
    """The lines of `after` that `before` lacks, once `before`'s lines are all kept in
    order (else the lines that changed or went, marked '-')."""
    diff = difflib.ndiff(before.splitlines(), after.splitlines())
    return [line[2:] if line[0] == "+" else line for line in diff if line[0] in "+-"]


def test_a_label_a_divider_and_a_lifeline_are_added_and_saved_as_new_lines(page, project):
    figure = open_editor(page)
    before = {name: (project / name).read_text(encoding="utf-8") for name in (SPEC, TEXTS)}
    figure.get_by_role("button", name="Add label").click()
    page.keyboard.type("Side note")     # the new label's text field has the focus
    figure.get_by_label("Style").select_option("stage")
    label = figure.locator(".figure-label.stage")
    assert label.inner_text() == "Side note"
    start = spec_of(page)["labels"][-1]["box"]
    drag(page, centre(label), (0, 20))
    figure.get_by_role("button", name="Add divider").click()
    drag(page, centre(figure.locator('.fe-handle[data-handle="e"]')), (40, 0))
    figure.get_by_role("button", name="Add lifeline").click()
    drag(page, centre(figure.locator('.fe-handle[data-handle="s"]')), (0, -30))
    spec = spec_of(page)
    assert spec["labels"][-1]["text"] == "steps-label" and spec["labels"][-1]["class"] == "stage"
    assert spec["labels"][-1]["box"][1] > start[1] and spec["labels"][-1]["box"][2] == 120
    assert spec["dividers"][0]["box"][2] > 200 and spec["lifelines"][0]["box"][2] < 120
    saved(page, figure)
    after = {name: (project / name).read_text(encoding="utf-8") for name in (SPEC, TEXTS)}
    x, y, w = spec["labels"][-1]["box"]
    assert added_lines(before[SPEC], after[SPEC]) == [
        "  - text: steps-label", f"    box: [{x}, {y}, {w}]", "    class: stage",
        "dividers:", f"  - box: {spec['dividers'][0]['box']}".replace("'", ""),
        "lifelines:", f"  - box: {spec['lifelines'][0]['box']}".replace("'", "")]
    assert json.loads(after[TEXTS])["steps-label"] == {"en": "Side note", "zh": "Side note",
                                                       "ja": "Side note"}
    assert all(line.startswith("-") is False for line in added_lines(before[TEXTS],
                                                                   after[TEXTS]))
    assert figure.locator(".figure-divider").count() == 1
    assert figure.locator(".figure-lifeline").count() == 1


def test_a_renamed_node_takes_its_edges_and_keys_along_and_an_edge_end_moves(page, project):
    figure = open_editor(page)
    before = {name: (project / name).read_text(encoding="utf-8") for name in (SPEC, TEXTS)}
    figure.locator('[data-node="draft"]').click()
    field = figure.locator("input.fe-id")
    for refused, said in (("Bad_Id", "cannot be an id"), ("act", "is taken")):
        field.fill(refused)
        field.press("Enter")
        assert said in message(figure)
        assert figure.locator(".fe-message.fe-refused").count() == 1
        assert figure.locator('[data-node="draft"]').count() == 1
    field.fill("reward")
    field.press("Enter")
    assert message(figure) == "Node draft renamed reward; its edges follow"
    assert spec_of(page)["edges"][1] == {"origin": 1, "from": "note.right", "to": "reward.left"}
    link = figure.get_by_label("Link to")   # the article's sections
    assert link.locator("option").all_inner_texts() == ["(no link)", "Collect (#collect)",
                                                        "Learn (#learn)"]
    link.select_option("learn")
    assert message(figure) == "Node reward links to #learn"
    # The edge's end, dragged from reward's left side to its top.
    segment = figure.locator(f'.canvas .edge[data-edge="{edge_uid(page, 1)}"]').last
    segment.click()
    start = centre(figure.locator('.fe-end[data-end="1"]'))
    box = figure.locator('[data-node="reward"]').bounding_box()
    drag(page, start, (box["x"] + box["width"] / 2 - start[0], box["y"] + 3 - start[1]))
    assert spec_of(page)["edges"][1] == {"origin": 1, "from": "note.right", "to": "reward.top"}
    assert message(figure) == "The edge's end is now on reward, top side"
    saved(page, figure)
    after = {name: (project / name).read_text(encoding="utf-8") for name in (SPEC, TEXTS)}
    assert diff(before[SPEC], after[SPEC]) == [
        "-  - id: draft", "+  - id: reward",
        "-    text: steps-draft", "+    text: steps-reward", "+    link: learn",
        "-  - {from: note.right, to: draft.left}", "+  - {from: note.right, to: reward.top}"]
    assert diff(before[TEXTS], after[TEXTS]) == ['-  "steps-draft": {', '+  "steps-reward": {']


def edge_uid(page, index: int) -> str:
    return page.evaluate(f"window.articlesiteFigureEditor.current.model.edges[{index}].uid")


def diff(before: str, after: str) -> list[str]:
    """The lines `git diff` would show removed (-) and added (+)."""
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_undo_and_redo_a_resize_followed_at_once_by_arrow_presses(page):
    figure = open_editor(page)
    figure.locator('[data-node="note"]').click()
    original = box_of(figure, "note")
    drag(page, centre(figure.locator('.fe-handle[data-handle="e"]')), (-30, 0))
    resized = box_of(figure, "note")
    assert resized[2] < original[2] and message(figure) == "Node note resized"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")   # at once: each press is an operation of its own
    assert message(figure) == "Node note moved"
    moved = [resized[0] + 2, *resized[1:]]
    steps = [moved, [resized[0] + 1, *resized[1:]], resized, original]
    for shown, said in zip(steps[1:], ["moved", "moved", "resized"]):
        page.keyboard.press("Control+z")
        assert box_of(figure, "note") == shown
        assert message(figure) == f"Undone: Node note {said}"
    assert figure.locator('[data-action="undo"]').is_disabled()
    for shown in reversed(steps[:-1]):
        page.keyboard.press("Control+Shift+z")
        assert box_of(figure, "note") == shown
    assert message(figure) == "Redone: Node note moved"
    assert figure.locator('[data-action="redo"]').is_disabled()
    page.keyboard.press("Control+z")
    figure.get_by_role("button", name="Redo").click()   # redo after any undo
    assert box_of(figure, "note") == moved


def canvas_point(figure, x: float, y: float) -> tuple[float, float]:
    box = figure.locator(".canvas").bounding_box()
    return box["x"] + x, box["y"] + y


def test_several_selected_are_aligned_spaced_and_deleted_together(page):
    figure = open_editor(page)
    figure.locator('[data-node="act"]').click()
    figure.locator('[data-node="note"]').click(modifiers=["Shift"])
    figure.get_by_role("button", name="Align left").click()
    assert box_of(figure, "note")[0] == box_of(figure, "act")[0] == 20
    assert message(figure) == "2 elements: aligned left"
    # A band drawn on the empty canvas around learn and reward selects the two.
    learn, reward = box_of(figure, "learn"), box_of(figure, "reward")
    start = canvas_point(figure, learn[0] - 8, 8)
    end = canvas_point(figure, reward[0] + reward[2] + 5, reward[1] + reward[3] + 5)
    drag(page, start, (end[0] - start[0], end[1] - start[1]))
    assert figure.locator(".node.fe-selected").count() == 2
    figure.get_by_role("button", name="Align top").click()
    assert box_of(figure, "reward")[1] == learn[1] == 30
    page.keyboard.press("Shift+ArrowDown")   # both move
    assert box_of(figure, "learn")[1] == box_of(figure, "reward")[1] == 40
    page.keyboard.press("Delete")
    assert figure.locator('[data-node="learn"], [data-node="reward"]').count() == 0
    assert spec_of(page)["edges"] == []   # the edges of learn and reward went with them
    page.keyboard.press("Control+z")
    assert figure.locator('[data-node="learn"], [data-node="reward"]').count() == 2
    # Three nodes spaced evenly across: equal gaps, the outermost two staying. Selected
    # from the keyboard: Tab reaches each, Space keeps it selected while Tab goes on.
    figure.locator('[data-node="act"]').click()
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")          # act
    page.keyboard.press("Space")        # kept
    page.keyboard.press("Tab")          # learn, with act
    page.keyboard.press("Tab")          # note, with act
    page.keyboard.press("Space")        # note kept …
    page.keyboard.press("Space")        # … and no longer
    page.keyboard.press("Tab")          # reward
    assert [n.get_attribute("data-node") for n in figure.locator(".node.fe-selected").all()] \
        == ["act", "reward"]
    figure.locator('[data-node="learn"]').click(modifiers=["Shift"])
    figure.get_by_role("button", name="Space evenly across").click()
    (x1, _, w1, _), (x2, _, w2, _), (x3, _, _, _) = (box_of(figure, n)
                                                      for n in ("act", "learn", "reward"))
    assert x2 - (x1 + w1) == x3 - (x2 + w2) and (x1, x3) == (20, reward[0])


def test_the_editor_speaks_japanese_on_the_ja_page_and_works_from_the_keyboard(page):
    from browser.test_axe import axe, violations

    page.goto(page.origin + "ja/" + ARTICLE.removeprefix("en/"))
    figure = page.locator(FIGURE)
    figure.get_by_role("button", name="図を編集").click()
    page.wait_for_selector(f"{FIGURE} .fe-bar", timeout=DEADLINE_MS)
    buttons = figure.locator(".fe-bar button").all_inner_texts()
    assert buttons[:4] == ["ノードを追加", "ラベルを追加", "区切り線を追加", "ライフラインを追加"]
    assert {"元に戻す", "やり直す", "保存", "左揃え", "左右に等間隔"} <= set(buttons)
    assert "ドラッグで移動" in message(figure)
    # Tab goes through the elements once the canvas has the focus; E and Enter draw an
    # edge from the node selected to the one Tab reaches.
    figure.locator(".canvas").focus()
    page.keyboard.press("Tab")
    assert message(figure) == "ノード act" and box_of(figure, "act")
    page.keyboard.press("e")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert spec_of(page)["edges"][-1] == {"origin": None, "from": "act.right", "to": "learn.left"}
    assert message(figure) == "辺 act → learn を追加しました"
    page.keyboard.press("e")            # the new edge's end, moved to note
    for _ in range(3):
        page.keyboard.press("Tab")      # act, learn, note
    page.keyboard.press("Enter")
    edge = spec_of(page)["edges"][-1]
    assert edge["from"] == "act.right" and edge["to"].startswith("note."), edge
    assert message(figure).startswith("辺の終点を note の")
    page.keyboard.press("Tab")          # past the last element: out of the canvas
    assert figure.locator(".fe-selected").count() == 0
    page.keyboard.press("Shift+Tab")    # back to it
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    assert message(figure) == "ノード act を移動しました"
    page.keyboard.press("Escape")
    width = spec_of(page)["width"]
    page.keyboard.press("Alt+ArrowRight")   # nothing selected: the canvas grows
    assert spec_of(page)["width"] == width + 5
    assert violations(axe(page, "{include: [['" + FIGURE + "']]}")) == []


def test_a_narrow_figure_heading_and_caption_start_where_its_canvas_does(page):
    from browser.test_narrow_and_print import ALIGNED, PRINT_WIDTH

    page.goto(page.origin + ARTICLE)
    try:
        for width, media in ((1300, "screen"), (PRINT_WIDTH, "print")):
            page.set_viewport_size({"width": width, "height": 900})
            page.emulate_media(media=media)
            (_, (left, right), starts), = page.evaluate(ALIGNED)
            assert right - left == 640
            assert starts == [left, left], (width, media, left, starts)
            assert left > 300 or media == "print"   # narrower than the page: centred
    finally:
        page.set_viewport_size({"width": 1300, "height": 900})
        page.emulate_media(media="screen")


def test_an_edit_tried_while_a_save_is_under_way_is_not_taken_to_be_lost(page, project):
    """The page reloads with what a save sent once its build ends: an edit made between
    Save and that reload would be dropped without a word, so the editor takes none."""
    figure = open_editor(page)
    figure.locator('[data-node="note"]').click()
    page.keyboard.press("ArrowDown")
    sent = box_of(figure, "note")
    held: list = []
    page.route("**/figure/save", lambda route: held.append(route))   # sent once released
    try:
        settled(page)
        figure.get_by_role("button", name="Save").click()
        assert poll(lambda: held or page.wait_for_timeout(20)), diagnosis(page)
        page.keyboard.press("ArrowDown")          # while the save is under way
        assert box_of(figure, "note") == sent, diagnosis(page)
        assert message(figure) == "Saving…"
        held[0].continue_()
    finally:
        page.unroute("**/figure/save")
    page.wait_for_function(
        "([sel, top]) => { var c = (window.articlesiteFigureEditor || {}).current;"
        " var n = document.querySelector(sel + ' [data-node=note]');"
        " return c && !c.dirty() && n && n.style.top === top; }",
        arg=[FIGURE, f"{sent[1]:g}px"], timeout=DEADLINE_MS)   # reloaded, reopened
    x, y, w, h = sent
    assert f"    box: [{x:g}, {y:g}, {w:g}, {h:g}]" in (project / SPEC).read_text(
        encoding="utf-8").splitlines()


def test_an_edge_given_by_its_points_is_saved_by_its_ends_once_a_node_at_an_end_moves(
        page, project):
    """The spec's first edge is given by its points, from act's right side to learn's
    left: act dragged, the edge is routed by its ends, and the save writes it so, in
    place of its `points` line (not refused for leaving the edge empty of fields)."""
    figure = open_editor(page)
    before = (project / SPEC).read_text(encoding="utf-8")
    assert spec_of(page)["edges"][0] == {"origin": 0, "points": [[160, 60], [240, 60]]}
    drag(page, centre(figure.locator('[data-node="act"]')), (0, 20))
    x, y, w, h = box_of(figure, "act")
    assert y != 30
    assert spec_of(page)["edges"][0] == {"origin": 0, "from": "act.right", "to": "learn.left"}
    saved(page, figure)
    assert diff(before, (project / SPEC).read_text(encoding="utf-8")) == [
        "-    box: [20, 30, 140, 60]", f"+    box: [{x:g}, {y:g}, {w:g}, {h:g}]",
        "-  - points: [[160, 60], [240, 60]]", "+  - from: act.right", "+    to: learn.left"]
