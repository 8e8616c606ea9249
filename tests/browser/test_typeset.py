"""Figure texts typeset as a reader of each language expects, in Chromium, on a fixture
site (tests/fixtures/typeset) with long texts in narrow boxes: Japanese and Chinese
broken only between phrases, identifiers shown as written, code in backticks unbroken;
and the editors' richtext.js reading a text's markup as the build does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, fixture_site, run_build

from articlesite.load.markup import pieces
from browser.conftest import serving, visitor

# The lines of a node's text as the browser broke them (characters grouped by the line
# their box is on; spaces and zero-width spaces left out).
LINES = """el => {
    const lines = [], range = document.createRange();
    let last = null;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        for (let i = 0; i < node.data.length; i++) {
            if (/\\s|\\u200b/.test(node.data[i])) continue;
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const box = range.getClientRects()[0];
            if (!last || (box.left < last.left - 1 && box.top > last.top + 2)) lines.push("");
            lines[lines.length - 1] += node.data[i];
            last = box;
        }
    }
    return lines;
}"""


@pytest.fixture(scope="module")
def typeset(chromium, tmp_path_factory):
    """The fixture site built and served: `open(path)` gives a page of it. One box, of
    the node 'loose', is let break anywhere."""
    root = fixture_site("typeset", tmp_path_factory.mktemp("typeset") / "project")
    with (root / "templates" / "figure.css").open("a", encoding="utf-8") as css:
        css.write(".figure .canvas .node[data-node=loose]"   # breaks anywhere, as a theme
                  "{word-break:normal;line-break:anywhere}\n")   # without phrases would
    result = run_build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    with serving(root / "site") as url, visitor(chromium, url, root / "site") as open_page:
        yield open_page


def lines(page, node: str) -> list[str]:
    return page.locator(f'[data-node="{node}"] strong').evaluate(LINES)


def test_japanese_breaks_between_phrases_only(typeset):
    page = typeset("ja/notes.html")
    # Character by character, the box would hold 報酬モデルの学 / 習データを集め / る.
    assert lines(page, "phrases-ja") == ["報酬モデルの", "学習データを", "集める"]


def test_chinese_breaks_between_phrases_only(typeset):
    page = typeset("zh/notes.html")
    # Character by character: 强化学习 / 的奖励信 / 号.
    assert lines(page, "phrases-zh") == ["强化", "学习的", "奖励信号"]


def test_a_word_wider_than_its_box_is_not_cut(typeset):
    page = typeset("en/notes.html")
    assert lines(page, "long-word") == ["Human", "demonstrations"]


@pytest.mark.parametrize("code", ["en", "zh", "ja"])
def test_identifier_as_written_and_code_in_backticks_monospace_and_unbroken(typeset, code):
    page = typeset(f"{code}/notes.html")   # one visit for both nodes
    strong = page.locator('[data-node="identifier"] strong')
    assert strong.inner_text() == "batched_forward_pass"
    assert strong.locator("sub, sup").count() == 0
    assert lines(page, "identifier") == ["batched_forward_pass"]

    shown = page.locator('[data-node="code"] code')
    assert shown.inner_text() == "ppo_trainer.step()"
    assert "`" not in page.locator('[data-node="code"] strong').inner_text()
    assert "monospace" in shown.evaluate("el => getComputedStyle(el).fontFamily")
    assert shown.evaluate("el => el.getClientRects().length") == 1


# Texts and how load/markup.py reads them; richtext.js must read each the same way.
TABLE = ["batched_forward_pass", "max_len", "ppo_trainer.step()", "_step_safety_checker",
         "π_old", "r_t", "V_{t+1}", "x^2", "x^{n}", "max\\_len", "a \\^ b", "\\`",
         "call `f(x_y)` now", "log π_old", "Ĝ_t = A_t + V_t", "mean (V_φ(h_t) − Ĝ_t)²",
         "价值V_t", "kl_coef and sum_i", "score_{max}", "a\nb", "x_é", "_t", "`a` and `b`",
         "r_A, r_B", "前缀 h_t · 已采样 token a_t", "abc_def_{x}", "a__b", "end_"]


def test_richtext_js_reads_every_text_as_the_build_does(typeset):
    page = typeset("en/notes.html")
    script = (REPO / "src/articlesite/translate/richtext.js").read_text(encoding="utf-8")
    page.add_script_tag(content=script)
    shown = page.evaluate("texts => texts.map(t => window.articlesiteRichText.pieces(t))",
                          TABLE)
    assert shown == [[[p.kind, p.text] for p in pieces(text)] for text in TABLE]


def test_the_editors_preview_breaks_japanese_between_phrases_too(typeset):
    page = typeset("ja/notes.html")
    script = (REPO / "src/articlesite/translate/richtext.js").read_text(encoding="utf-8")
    page.add_script_tag(content=script)
    strong = page.locator('[data-node="phrases-ja"] strong')
    strong.evaluate("el => window.articlesiteRichText.replace(el, "
                    + json.dumps("報酬モデルの学習データを集める") + ")")
    assert lines(page, "phrases-ja") == ["報酬モデルの", "学習データを", "集める"]
    assert strong.inner_text() == "報酬モデルの学習データを集める"   # <wbr>, no character


def test_first_article_texts_are_set_in_phrases_on_the_canvas_only(built_site: Path):
    html = (built_site / "ja" / "ppo-long-horizon.html").read_text(encoding="utf-8")
    assert "各時点までの\u200b履歴を\u200b読む" in html
    assert "\u200b" not in html.split('<figcaption', 1)[1].split("</figcaption>", 1)[0]
    assert "\u200b" not in (built_site / "en" / "ppo-long-horizon.html").read_text(
        encoding="utf-8")


def test_the_translators_view_shows_a_bad_break_in_its_cell(typeset):
    page = typeset("translations.html")
    cell = page.locator('[data-fit="advantage|ja"]')
    assert cell.inner_text() == ("breaks before “ー”, which may not start a line: アドバンテ | "
                                 "ージ推定 (typeset, node loose)")
    assert page.locator('[data-fit="advantage|en"]').inner_text() == ""
    assert page.locator("#fit-summary").inner_text().endswith(
        "1 overflowing, 3 broken where a line may not break.")
