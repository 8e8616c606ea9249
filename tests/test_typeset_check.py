"""`check` on figure texts as typeset: a word or a phrase wider than its box, a line
broken inside a phrase or against the kinsoku rules, a text that reads two ways."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from conftest import REPO, check, fixture_site, line_of, run_build
from test_fit import measured_check

from articlesite.load.phrases import NO_END, NO_START

SPEC = "figures/typeset.yaml"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, int, dict]:
    """`check` on the typeset fixture, with a project figure.css that lets one box break
    Japanese and Chinese anywhere, as a theme without the phrase rules would."""
    root = fixture_site("typeset", tmp_path_factory.mktemp("typeset") / "project")
    with (root / "templates" / "figure.css").open("a", encoding="utf-8") as css:
        css.write(".figure .canvas .node[data-node=loose]"
                  "{word-break:normal;line-break:anywhere}\n")
    code, found = measured_check(root)
    return root, code, found


def fit(found: dict) -> list[dict]:
    return [f for f in found["findings"] if f["check"] == "fit"]


def test_a_word_wider_than_its_box_overflows_it(report):
    root, code, found = report
    assert code == 1
    word = [f for f in fit(found) if f["element"] == "node long-word"]
    assert [(f["file"], f["line"], f["language"], f["key"]) for f in word] == [
        (SPEC, line_of(root, SPEC, "id: long-word"), "en", "demonstrations")]
    assert "the en text overflows its box by" in word[0]["message"]


def test_breaks_inside_a_phrase_and_against_kinsoku_are_reported(report):
    root, _, found = report
    loose = sorted((f["language"], f["message"]) for f in fit(found)
                   if f["element"] == "node loose")
    line = line_of(root, SPEC, "id: loose")
    assert all(f["line"] == line and f["figure"] == "typeset"
               for f in fit(found) if f["element"] == "node loose")
    assert loose == [
        ("ja", ("node 'loose': the ja text breaks before “ー”, which may not start a line: "
               "“アドバンテ” | “ージ推定” (blog and engineering styles); widen the box or "
               "shorten the text")),
        ("zh", ("node 'loose': the zh text breaks inside a phrase: “计与回报目” | “标” "
               "(blog and engineering styles); widen the box or shorten the text")),
        ("zh", ("node 'loose': the zh text breaks inside a phrase: “计算优势估” | “计与回报目” "
               "(blog and engineering styles); widen the box or shorten the text"))]


def test_texts_broken_between_phrases_are_not_reported(report):
    _, _, found = report
    assert {f["element"] for f in fit(found)} == {"node long-word", "node loose"}


def test_a_text_that_reads_two_ways_is_a_warning_naming_both(tmp_path, capsys):
    root = fixture_site("typeset", tmp_path / "project")
    path = root / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    texts["collect-data"]["en"] = "Scale by kl_coef, sum_i and max_len"
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    _, found = check(root, capsys)
    warned = [f["message"] for f in found["findings"]
              if f["check"] == "markup" and f["key"] == "collect-data"]
    assert warned == [
        ("the text “Scale by kl_coef, sum_i and max_len”: 'kl_coef' could be meant two ways: "
        "the identifier kl_coef, or kl with the subscript coef; it is shown as a subscript. "
        "Say which: `kl_coef` in backticks (code) or kl\\_coef (as written), or kl_{coef} "
        "(a subscript)"),
        ("the text “Scale by kl_coef, sum_i and max_len”: 'sum_i' could be meant two ways: "
        "the identifier sum_i, or sum with the subscript i; it is shown as written. Say "
        "which: `sum_i` in backticks (code) or sum\\_i (as written), or sum_{i} (a "
        "subscript)")]
    assert all(f["severity"] == "warning" for f in found["findings"] if f["check"] == "markup")


def test_the_first_article_has_no_text_that_reads_two_ways(project, capsys):
    _, found = check(project, capsys)
    assert [f for f in found["findings"] if f["check"] == "markup"] == []


def test_figure_layout_sizes_a_box_for_the_identifier_as_written(tmp_path):
    root = fixture_site("typeset", tmp_path / "project")
    spec = root / SPEC
    spec.write_text(spec.read_text(encoding="utf-8").replace(
        "    box: [480, 20, 260, 70]\n", ""), encoding="utf-8")
    result = run_build(root, "figure", "layout", "typeset", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    box = re.search(r"id: identifier\n    box: \[[\d.]+, [\d.]+, ([\d.]+),",
                    spec.read_text(encoding="utf-8"))
    # The 20 characters as written, of 18 px at 0.62 em, the padding (26 px) and the
    # room on both sides (20 px); "batched" with the subscript "forward" would be 19.
    assert float(box[1]) == math.ceil(20 * 18 * 0.62 + 26) + 20


@pytest.mark.parametrize("script", ["translate/measure.js", "translate/richtext.js"])
def test_the_browser_knows_the_same_line_breaking_rules(script):
    text = (REPO / "src/articlesite" / script).read_text(encoding="utf-8")
    start = re.search(r'var NO_START = ((?:"[^"]*"\s*\+?\s*)+);', text)[1]
    end = re.search(r'var NO_END = "([^"]*)";', text)[1]
    assert set("".join(re.findall(r'"([^"]*)"', start))) == NO_START
    assert set(end) == NO_END


def test_figure_layout_says_which_placed_box_a_word_overflows(tmp_path):
    root = fixture_site("typeset", tmp_path / "project")
    result = run_build(root, "figure", "layout", "typeset", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    said = [line for line in result.stdout.splitlines() if "narrower than" in line]
    # Estimated: "demonstrations", 14 characters of 0.62 em at 18 px, and アドバンテージ推定,
    # one phrase of 9 characters of 1 em, each with the box's padding (26 px).
    assert said == [
        (f"{SPEC}: node 'long-word': its box is 120 px wide, narrower than the 183 px the "
        "longest word or phrase of its en text needs: that text overflows it; widen the box"),
        (f"{SPEC}: node 'loose': its box is 121 px wide, narrower than the 188 px the "
        "longest word or phrase of its ja text needs: that text overflows it; widen the box")]
