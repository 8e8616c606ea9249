"""A figure narrower than its title and serve's two buttons ("Fit to texts", "Edit
figure"): the buttons lay over the title at the right end of the heading, "Edit figure"
hiding it and "文字に合わせる" broken over three lines. They now go just right of the
figure's column, each on one line, and still work."""

from __future__ import annotations

import pytest
from conftest import REPO, run_build
from test_serve import Server

from browser.test_figure_editor import DEADLINE_MS, open_page

COLUMN = """title: hello-flow-title
caption: hello-flow-caption
width: 170
height: 365
direction: down
nodes:
  - {id: write, box: [30, 30, 110, 60], text: write}
  - {id: build, box: [30, 155, 110, 60], text: build}
  - {id: read, box: [30, 275, 110, 60], text: read}
edges:
  - {from: write, to: build}
  - {from: build, to: read}
"""

EXTENTS = """() => {
  const figure = document.querySelector('#figure-hello-flow');
  const range = document.createRange();
  range.selectNodeContents(figure.querySelector('.figure-heading'));
  const box = el => el.getBoundingClientRect();
  const fit = box(figure.querySelector('.fe-fit-button'));
  const edit = box(figure.querySelector('.fe-open'));
  return {title: range.getBoundingClientRect().right, fit: [fit.left, fit.right, fit.height],
          edit: [edit.left, edit.right, edit.height]};
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = tmp_path_factory.mktemp("narrow") / "site"
    assert run_build(REPO, "init", str(root)).returncode == 0
    (root / "figures" / "hello-flow.yaml").write_text(COLUMN, encoding="utf-8")
    with Server(root, "--port", "0") as server:
        yield server


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_buttons_of_a_narrow_figure_leave_its_title_readable(chromium, served, language):
    context, page, troubles = open_page(chromium, served)
    page.goto(f"{page.origin}{language}/hello.html")
    page.wait_for_selector("#figure-hello-flow .fe-fit-button", timeout=DEADLINE_MS)
    seen = page.evaluate(EXTENTS)
    assert seen["title"] + 8 <= seen["fit"][0] < seen["fit"][1] <= seen["edit"][0]
    assert seen["fit"][2] < 40 and seen["edit"][2] < 40    # one line each
    page.locator("#figure-hello-flow .fe-open").click()
    page.wait_for_selector("#figure-hello-flow .fe-bar", timeout=DEADLINE_MS)
    context.close()
    assert not troubles
