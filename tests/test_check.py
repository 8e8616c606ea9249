"""`python build.py check`: each kind of problem, broken on purpose in a copy of the real
project, is reported with its key, language and location, and the check exits 1; the
real content is clean apart from warnings (exit 0): the two unconfirmed references and its
two translations, never confirmed section by section (test_sections.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TEXTS, check, edit, line_of, problems, run_build, set_text

from articlesite.cli import main

ARTICLE = "content/ppo-long-horizon"


def only(report: dict, check_name: str) -> dict:
    found = problems(report, check_name)
    assert len(found) == 1, found
    return found[0]


def key_line(root: Path, key: str) -> int:
    return line_of(root, TEXTS, f'"{key}":')


# The real content ---------------------------------------------------------------------

def test_real_content_is_clean_apart_from_two_unconfirmed_references(project, capsys):
    code, report = check(project, capsys)
    assert code == 0 and report["ok"] and report["problems"] == 0
    warnings = [(f["file"], f["line"], f["key"]) for f in report["findings"]
                if f["check"] == "bibliography"]
    references = f"{ARTICLE}/references.yaml"
    assert warnings == [(references, line_of(project, references, "id: sutton-barto"),
                         "sutton-barto"),
                        (references, line_of(project, references, "id: secrets-rlhf"),
                         "secrets-rlhf")]
    assert all(f["severity"] == "warning" for f in report["findings"])
    assert len(report["findings"]) == 4


def test_human_report_is_short_and_says_clean(project):
    result = run_build(project, "check", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("Clean: no problems, 4 warnings.")
    assert "Text fit was not measured (--no-browser)." in result.stdout
    assert len(result.stdout.splitlines()) < 14


# Translations -------------------------------------------------------------------------

@pytest.mark.parametrize("value, word", [(None, "missing"), ("  ", "empty")])
def test_missing_or_empty_translation(project, capsys, value, word):
    set_text(project, "sft", "ja", value)
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "build")
    assert (found["file"], found["line"], found["key"], found["language"]) == (
        TEXTS, key_line(project, "sft"), "sft", "ja")
    assert word in found["message"]


def test_key_no_figure_uses(project, capsys):
    set_text(project, "orphan", "zh", "孤儿")
    set_text(project, "orphan", "en", "Orphan")
    set_text(project, "orphan", "ja", "孤児")
    check(project, capsys, "--confirm", "orphan")  # confirmed, so only 'unused' remains
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "translations")
    assert (found["file"], found["line"], found["key"], found["language"]) == (
        TEXTS, key_line(project, "orphan"), "orphan", None)
    assert "no figure uses" in found["message"]


def test_key_a_spec_uses_but_the_dictionary_lacks(project, capsys):
    edit(project, "figures/ppo-update.yaml", "text: clip-loss", "text: clip-los")
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "build")
    assert (found["file"], found["key"]) == ("figures/ppo-update.yaml", "clip-los")
    assert found["line"] == line_of(project, "figures/ppo-update.yaml", "text: clip-los") - 2


def test_value_identical_to_the_source_language(project, capsys):
    texts = json.loads((project / TEXTS).read_text(encoding="utf-8"))
    set_text(project, "demos", "ja", texts["demos"]["zh"])
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "translations")
    assert (found["line"], found["key"], found["language"]) == (
        key_line(project, "demos"), "demos", "ja")
    assert "same as the zh text" in found["message"]
    # Meant to be the same: confirming it by name accepts it.
    code, report = check(project, capsys, "--confirm", "demos:ja")
    assert code == 0, report


def test_source_text_changed_makes_translations_stale(project, capsys):
    set_text(project, "prefs", "zh", "成对偏好数据")
    code, report = check(project, capsys)
    assert code == 1
    found = problems(report, "translations")
    assert [(f["line"], f["key"], f["language"]) for f in found] == [
        (key_line(project, "prefs"), "prefs", "en"), (key_line(project, "prefs"), "prefs", "ja")]
    assert all("stale" in f["message"] and "'成对偏好'" in f["message"] for f in found)
    # The translator updates ja and confirms it; en stays stale until confirmed too.
    set_text(project, "prefs", "ja", "選好ペアのデータ")
    code, report = check(project, capsys, "--confirm", "prefs:ja")
    assert code == 1
    assert [(f["key"], f["language"]) for f in problems(report, "translations")] == [
        ("prefs", "en")]
    code, report = check(project, capsys, "--confirm-all")
    assert code == 0
    record = json.loads((project / "figures/figure-texts.confirmed.json").read_text("utf-8"))
    assert record["prefs"] == {"en": {"source": "成对偏好数据", "text": "Preference pairs"},
                               "ja": {"source": "成对偏好数据", "text": "選好ペアのデータ"}}


def test_confirm_all_leaves_identical_values_to_be_named(project, capsys):
    (project / "figures/figure-texts.confirmed.json").unlink()
    code, _ = check(project, capsys, "--confirm-all")
    assert code == 1  # 'copies', 'actor', … are the same in every language: name them
    code = main(["--root", str(project), "check", "--no-browser", "--confirm-all"])
    out = capsys.readouterr().out
    assert "identical to the zh text" in out and "copies:en" in out and code == 1


@pytest.mark.parametrize("argument, message", [
    ("no-such-key", "'no-such-key' is not a key of figure-texts.json"),
    ("sft:zh", "'zh' is not a language to confirm"),
    ("sft:xx", "'xx' is not a language to confirm"),
])
def test_confirming_something_that_does_not_exist(project, capsys, argument, message):
    code = main(["--root", str(project), "check", "--no-browser", "--confirm", argument])
    assert code == 2
    assert message in capsys.readouterr().err


# Article parity -----------------------------------------------------------------------

def test_section_id_differs_in_one_language(project, capsys):
    edit(project, f"{ARTICLE}/ja.md", "{#long-trajectories}", "{#long-trajectory}")
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["file"], found["line"], found["language"]) == (
        f"{ARTICLE}/ja.md", line_of(project, f"{ARTICLE}/ja.md", "{#long-trajectory}"), "ja")
    assert "missing 'long-trajectories', extra 'long-trajectory'" in found["message"]


def test_sections_in_another_order(project, capsys):
    path = project / f"{ARTICLE}/en.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("## What long trajectories make difficult")
    middle = text.index("## What GRPO and DPO change")
    path.write_text(text[:start] + text[middle:].rstrip("\n") + "\n\n" + text[start:middle],
                    encoding="utf-8")
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["language"], found["line"]) == (
        "en", line_of(project, f"{ARTICLE}/en.md", "{#grpo-dpo}"))
    assert "not in the order of zh" in found["message"]


def test_figure_in_another_section(project, capsys):
    path = project / f"{ARTICLE}/en.md"
    text = path.read_text(encoding="utf-8").replace("```{figure} ppo-update\n```\n", "")
    text = text.replace("{#long-trajectories}\n", "{#long-trajectories}\n\n```{figure} "
                        "ppo-update\n```\n")
    path.write_text(text, encoding="utf-8")
    code, report = check(project, capsys)
    assert code == 1
    found = problems(report, "parity")
    assert [(f["key"], f["language"], f["line"]) for f in found] == [
        ("optimization", "en", line_of(project, f"{ARTICLE}/en.md", "{#optimization}")),
        ("long-trajectories", "en",
         line_of(project, f"{ARTICLE}/en.md", "{#long-trajectories}"))]
    assert "shows figures none, in zh 'ppo-update'" in found[0]["message"]


def test_display_formula_missing_in_one_language(project, capsys):
    path = project / f"{ARTICLE}/ja.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("$$", text.index("{#reward-model}"))
    end = text.index("$$", start + 2) + 2
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["key"], found["language"], found["line"]) == (
        "reward-model", "ja", line_of(project, f"{ARTICLE}/ja.md", "{#reward-model}"))
    assert "has 0 display formulas, in zh 1" in found["message"]


def test_citation_missing_in_one_language(project, capsys):
    edit(project, f"{ARTICLE}/en.md", "parameter update. [@ppo]", "parameter update.")
    code, report = check(project, capsys)
    found = only(report, "parity")
    assert code == 1
    assert (found["key"], found["language"]) == ("optimization", "en")
    assert "missing '@ppo'" in found["message"]


# Bibliography -------------------------------------------------------------------------

def test_reference_no_language_cites(project, capsys):
    path = project / f"{ARTICLE}/references.yaml"
    path.write_text(path.read_text(encoding="utf-8") + (
        "- id: unused-book\n  authors: Nobody\n  title: Never cited\n  venue: Press\n"
        "  year: 2020\n"), encoding="utf-8")
    code, report = check(project, capsys)
    assert code == 1
    found = only(report, "bibliography")
    assert (found["file"], found["line"], found["key"]) == (
        f"{ARTICLE}/references.yaml", line_of(project, f"{ARTICLE}/references.yaml",
                                              "id: unused-book"), "unused-book")


# Geometry -----------------------------------------------------------------------------

SPEC = "figures/reward-value-training.yaml"


def geometry(project, capsys) -> list[dict]:
    code, report = check(project, capsys)
    assert code == 1
    return problems(report, "geometry")


def test_overlapping_nodes(project, capsys):
    edit(project, SPEC, "box: [735, 140, 150, 105]", "box: [600, 140, 150, 105]")
    found = [f for f in geometry(project, capsys) if "overlaps" in f["message"]]
    assert [(f["element"], f["key"], f["line"]) for f in found] == [
        ("node pair-scores", "pair-scores", line_of(project, SPEC, "id: pair-scores"))]
    assert "overlaps node 'shared-rm' (50 × 105 px)" in found[0]["message"]


def test_node_outside_the_canvas(project, capsys):
    edit(project, SPEC, "box: [935, 140, 190, 105]", "box: [935, 140, 250, 105]")
    found = [f for f in geometry(project, capsys) if "out of the canvas" in f["message"]]
    assert [(f["element"], f["line"], f["overflow_px"]) for f in found] == [
        ("node pair-loss", line_of(project, SPEC, "id: pair-loss"), 35)]


def test_edge_end_touching_nothing(project, capsys):
    edit(project, SPEC, "points: [[650, 193], [735, 193]]", "points: [[650, 193], [705, 193]]")
    found = geometry(project, capsys)
    assert [(f["element"], f["line"]) for f in found] == [
        ("edge 3", line_of(project, SPEC, "points: [[650, 193], [705, 193]]"))]
    assert "ends at (705, 193), touching neither" in found[0]["message"]


def test_label_on_a_node(project, capsys):
    edit(project, SPEC, "box: [595, 355, 410]", "box: [595, 230, 410]")
    found = geometry(project, capsys)
    line = line_of(project, SPEC, "box: [595, 230, 410]") - 1
    assert [(f["element"], f["key"], f["line"]) for f in found] == [
        ("label rm-gradient", "rm-gradient", line)] * 3
    assert [f["message"].split(" (")[0] for f in found] == [
        f"label 'rm-gradient' lies on node '{node}'"
        for node in ("pair-loss", "pair-scores", "shared-rm")]


def test_geometry_is_checked_after_the_transforms(project, capsys):
    # critic-training is narrowed to 0.9: the node [985, 465, 320, 86] ends at 1174.5 px on a
    # 1161 px canvas, 99 px out, not the 110 px of the untransformed spec.
    spec = "figures/critic-training.yaml"
    edit(project, spec, "box: [985, 465, 230, 86]", "box: [985, 465, 320, 86]")
    found = [f for f in geometry(project, capsys) if "out of the canvas" in f["message"]]
    assert [(f["element"], f["overflow_px"]) for f in found] == [("node return-target", 13.5)]
