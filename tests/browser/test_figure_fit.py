"""The figure editor's "Fit to texts", in Chromium through `serve`: a Japanese text made
longer than its box, one click, and the spec changes by that box's line alone (nothing
lies beyond it); the page reloads with the box wide enough, and the text fits."""

from __future__ import annotations

import json

import pytest
from conftest import TEXTS, fixture_site, save
from test_serve import Server

SPEC = "figures/steps.yaml"
DEADLINE_MS = 60_000
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
        context = chromium.new_context(viewport={"width": 1300, "height": 900})
        troubles: list[str] = []
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
            origin) else (troubles.append(route.request.url), route.abort()))
        page = context.new_page()
        page.on("pageerror", lambda error: troubles.append(f"uncaught: {error}"))
        texts = json.loads((project / TEXTS).read_text(encoding="utf-8"))
        texts["note"]["ja"] = "長めのメモの文です"   # three lines at 100 px; 9 × 18 px in one
        save(project, project / TEXTS, json.dumps(texts, ensure_ascii=False, indent=2) + "\n")
        page.goto(origin + "ja/loop.html")
        note = page.locator('#figure-steps [data-node="note"]')
        page.wait_for_function("() => document.querySelector('#figure-steps [data-node=note]')"
                               ".textContent.includes('長めのメモの文です')", timeout=DEADLINE_MS)
        assert note.evaluate(OVERFLOWS)   # the longer text does not fit
        before = (project / SPEC).read_text(encoding="utf-8")
        page.locator("#figure-steps").get_by_role("button", name="Fit to texts").click()
        page.wait_for_function("() => /^Fitted: grew node note\\./.test(document.querySelector("
                               "'#figure-steps .fe-fit-message')?.textContent || '')",
                               timeout=DEADLINE_MS)
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
