"""The figure editor of `python build.py serve`, in Chromium, driven with the mouse and
keys as a person would: a node dragged, its edge follows (routed by the build's router);
a node resized until its Japanese text overflows, shown on the box before any save; a
spec changed on disk refuses the save and keeps the edits; a save changes exactly the
moved node's line of the YAML and the open page reloads with it; requests without the
token or from another origin change nothing. One serve process and one page for the
module, on the small fixture site (tests/fixtures/sources) whose figure `steps` is given
a third node and a label here. Every wait polls with a deadline; nothing is timed."""

from __future__ import annotations

import http.client
import json
import math
import re

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
width: 520
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
edges:
  - points: [[160, 60], [240, 60]]
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
    (root / TEXTS).write_text(json.dumps(texts, ensure_ascii=False, indent=2) + "\n",
                              encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def served(project):
    with Server(project, "--port", "0") as server:
        yield server


@pytest.fixture(scope="module")
def page(chromium, served):
    """One page for the module, which may reach this server only."""
    origin = f"http://{served.host}:{served.port}/"
    troubles: list[str] = []
    context = chromium.new_context(viewport={"width": 1300, "height": 900})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
        origin) else (troubles.append(route.request.url), route.abort()))
    page = context.new_page()
    page.on("pageerror", lambda error: troubles.append(f"uncaught: {error}"))
    page.origin = origin
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


def edge_ends(figure) -> list[tuple[float, float]]:
    """The start of the first drawn segment and the end of the last, in canvas px."""
    segments = figure.locator(".canvas .edge").evaluate_all(
        "els => els.map(el => [el.style.left, el.style.top, el.style.width, el.style.transform])")
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
        "sel => document.querySelectorAll(sel + ' .canvas .edge').length > 1", arg=FIGURE,
        timeout=DEADLINE_MS)   # routed again: act's right side to learn's left, with bends
    start, end = edge_ends(figure)
    assert start[0] == 160 and 30 <= start[1] <= 90          # still leaves act's right side
    assert abs(end[0] - x) < 0.5 and y <= end[1] <= y + h     # and enters learn's left side
    assert all(figure.locator(f'[data-node="{n}"]').count() == 1 for n in ("act", "learn", "note"))
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
    figure.get_by_role("button", name="Save").click()
    page.wait_for_function("sel => /^Saved figures\\/steps.yaml\\./.test(document.querySelector"
                           "(sel)?.textContent || '')", arg=f"{FIGURE} .fe-message",
                           timeout=DEADLINE_MS)
    after = (project / SPEC).read_text(encoding="utf-8")
    changed = [(old, new) for old, new in zip(before.splitlines(), after.splitlines())
               if old != new]
    assert len(before.splitlines()) == len(after.splitlines())
    assert changed == [("    box: [240, 140, 140, 50]", f"    box: [{x:g}, {y:g}, {w:g}, {h:g}]")]
    # The page reloads after the rebuild, with the figure as built (and its editor open
    # again, on the saved spec).
    page.wait_for_function(
        "([sel, x]) => { var n = document.querySelector(sel + ' [data-node=note]');"
        " return n && n.style.left === x + 'px' && !window.articlesiteFigureEditor.current"
        "?.dirty(); }", arg=[FIGURE, x], timeout=DEADLINE_MS)


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
