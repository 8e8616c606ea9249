"""`python build.py check`: each kind of problem, broken on purpose in a copy of the small
fixture site (tests/fixtures/sources: one article `loop` in en, zh and ja, en the source,
one figure `steps`), is reported with its key, language and location, and the check exits
1; a warning (an unconfirmed reference) is reported without changing the exit code. The
real content must check clean too (no problems; its warnings are its own business)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import (
    TEXTS,
    check,
    confirm,
    copy_project,
    edit,
    fixture_site,
    line_of,
    problems,
    run_build,
    set_text,
)

from articlesite.cli import main

ARTICLE = "content/loop"
REFERENCES = f"{ARTICLE}/references.yaml"
SPEC = "figures/steps.yaml"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


def only(report: dict, check_name: str) -> dict:
    found = problems(report, check_name)
    assert len(found) == 1, found
    return found[0]


def key_line(root: Path, key: str) -> int:
    return line_of(root, TEXTS, f'"{key}":')


def mark_unconfirmed(root: Path, reference: str) -> None:
    edit(root, REFERENCES, f"- id: {reference}\n", f"- id: {reference}\n  unconfirmed: true\n")


# A clean site, and a warning ----------------------------------------------------------

def test_fixture_is_clean_and_an_unconfirmed_reference_is_only_a_warning(root, capsys):
    code, report = check(root, capsys)
    assert code == 0 and report["ok"] and report["findings"] == []
    mark_unconfirmed(root, "gae")
    code, report = check(root, capsys)
    assert code == 0 and report["ok"] and report["problems"] == 0
    assert [(f["file"], f["line"], f["key"], f["check"], f["severity"])
            for f in report["findings"]] == [
        (REFERENCES, line_of(root, REFERENCES, "id: gae"), "gae", "bibliography", "warning")]


def test_real_content_has_no_problems(tmp_path, capsys):
    code, report = check(copy_project(tmp_path / "real"), capsys)
    assert code == 0 and report["ok"] and report["problems"] == 0, report


def test_human_report_is_short_and_says_clean(root):
    mark_unconfirmed(root, "gae")
    result = run_build(root, "check", "--no-browser")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("Clean: no problems, 1 warning.")
    assert "Text fit was not measured (--no-browser)." in result.stdout
    assert len(result.stdout.splitlines()) < 14


# Translations -------------------------------------------------------------------------

@pytest.mark.parametrize("value, word", [(None, "missing"), ("  ", "empty")])
def test_missing_or_empty_translation(root, capsys, value, word):
    set_text(root, "act", "ja", value)
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "build")
    assert (found["file"], found["line"], found["key"], found["language"]) == (
        TEXTS, key_line(root, "act"), "act", "ja")
    assert word in found["message"]


def test_key_no_figure_uses(root, capsys):
    set_text(root, "orphan", "en", "Orphan")
    set_text(root, "orphan", "zh", "孤儿")
    set_text(root, "orphan", "ja", "孤児")
    confirm(root, capsys, "orphan")  # confirmed, so only 'unused' remains
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "translations")
    assert (found["file"], found["line"], found["key"], found["language"]) == (
        TEXTS, key_line(root, "orphan"), "orphan", None)
    assert "no figure uses" in found["message"]


def test_key_a_spec_uses_but_the_dictionary_lacks(root, capsys):
    edit(root, SPEC, "text: act", "text: ac")
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "build")
    assert (found["file"], found["key"]) == (SPEC, "ac")
    assert found["line"] == line_of(root, SPEC, "- id: act")


def test_value_identical_to_the_source_language(root, capsys):
    texts = json.loads((root / TEXTS).read_text(encoding="utf-8"))
    set_text(root, "act", "ja", texts["act"]["en"])
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "translations")
    assert (found["line"], found["key"], found["language"]) == (
        key_line(root, "act"), "act", "ja")
    assert "same as the en text" in found["message"]
    # Meant to be the same: confirming it by name accepts it.
    assert confirm(root, capsys, "act:ja") == (
        0, "Confirmed 1 translation in figure-texts.confirmed.json.\n")
    code, report = check(root, capsys)
    assert code == 0, report


def test_source_text_changed_makes_translations_stale(root, capsys):
    set_text(root, "act", "en", "Act first")
    code, report = check(root, capsys)
    assert code == 1
    found = problems(report, "translations")
    assert [(f["line"], f["key"], f["language"]) for f in found] == [  # sorted by language
        (key_line(root, "act"), "act", "ja"), (key_line(root, "act"), "act", "zh")]
    assert all("stale" in f["message"] and "'Act'" in f["message"] for f in found)
    # The translator updates ja and confirms it; zh stays stale until confirmed too.
    set_text(root, "act", "ja", "まず行動")
    confirm(root, capsys, "act:ja")
    code, report = check(root, capsys)
    assert code == 1
    assert [(f["key"], f["language"]) for f in problems(report, "translations")] == [
        ("act", "zh")]
    assert confirm(root, capsys, "--all")[0] == 0
    code, report = check(root, capsys)
    assert code == 0
    record = json.loads((root / "figures/figure-texts.confirmed.json").read_text("utf-8"))
    assert record["act"] == {"zh": {"source": "Act first", "text": "行动"},
                             "ja": {"source": "Act first", "text": "まず行動"}}


def test_confirm_all_leaves_identical_values_to_be_named(root, capsys):
    (root / "figures/figure-texts.confirmed.json").unlink()
    set_text(root, "act", "ja", "Act")  # the same as en: it must be named
    code, out = confirm(root, capsys, "--all")
    assert "identical to the en text" in out and "act:ja" in out and code == 0
    assert check(root, capsys)[0] == 1


def test_check_confirm_is_an_alias_that_says_so(root, capsys):
    """`check --confirm` (and `--confirm-all`) still confirm, then check; each says which
    command confirms now."""
    set_text(root, "act", "ja", "Act")
    code = main(["--root", str(root), "check", "--no-browser", "--confirm", "act:ja"])
    out, err = capsys.readouterr()
    assert code == 0, out
    assert "Confirmed 1 translation in figure-texts.confirmed.json." in out
    assert "note: `check --confirm` is an alias of `python build.py translations confirm`" in err
    code = main(["--root", str(root), "check", "--no-browser", "--confirm-all"])
    assert "`check --confirm-all` is an alias of `python build.py translations confirm " \
        "--all`" in capsys.readouterr().err and code == 0


def test_confirm_without_a_target_is_a_usage_error(root, capsys):
    assert main(["--root", str(root), "translations", "confirm"]) == 2
    assert "name what to confirm (KEY[:LANG] or SLUG[#SECTION][:LANG]), or give --all" in \
        capsys.readouterr().err


@pytest.mark.parametrize("argument, message", [
    ("no-such-key", "'no-such-key' is not a key of figure-texts.json"),
    ("act:en", "'en' is not a language to confirm"),
    ("act:xx", "'xx' is not a language to confirm"),
])
def test_confirming_something_that_does_not_exist(root, capsys, argument, message):
    code = main(["--root", str(root), "translations", "confirm", argument])
    assert code == 2
    assert message in capsys.readouterr().err


# Article parity -----------------------------------------------------------------------

def test_section_id_differs_in_one_language(root, capsys):
    edit(root, f"{ARTICLE}/ja.md", "{#learn}", "{#learning}")
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["file"], found["line"], found["language"]) == (
        f"{ARTICLE}/ja.md", line_of(root, f"{ARTICLE}/ja.md", "{#learning}"), "ja")
    assert "missing 'learn', extra 'learning'" in found["message"]


def test_sections_in_another_order(root, capsys):
    path = root / f"{ARTICLE}/ja.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("## 収集")
    middle = text.index("## 学習")
    path.write_text(text[:start] + text[middle:].rstrip("\n") + "\n\n" + text[start:middle],
                    encoding="utf-8")
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["language"], found["line"]) == (
        "ja", line_of(root, f"{ARTICLE}/ja.md", "{#learn}"))
    assert "not in the order of en" in found["message"]


def test_figure_in_another_section(root, capsys):
    path = root / f"{ARTICLE}/ja.md"
    text = path.read_text(encoding="utf-8").replace("```{figure} steps\n```\n", "")
    text = text.replace("{#learn}\n", "{#learn}\n\n```{figure} steps\n```\n")
    path.write_text(text, encoding="utf-8")
    code, report = check(root, capsys)
    assert code == 1
    found = problems(report, "parity")
    assert [(f["key"], f["language"], f["line"]) for f in found] == [
        ("collect", "ja", line_of(root, f"{ARTICLE}/ja.md", "{#collect}")),
        ("learn", "ja", line_of(root, f"{ARTICLE}/ja.md", "{#learn}"))]
    assert "shows figures none, in en 'steps'" in found[0]["message"]


def test_display_formula_missing_in_one_language(root, capsys):
    # The fixture has no formula: the learn section gets one in en and zh, not in ja.
    for language in ("en", "zh"):
        path = root / f"{ARTICLE}/{language}.md"
        path.write_text(path.read_text(encoding="utf-8") + "\n$$\nA_t = G_t - V_t\n$$\n",
                        encoding="utf-8")
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "parity")
    assert (found["key"], found["language"], found["line"]) == (
        "learn", "ja", line_of(root, f"{ARTICLE}/ja.md", "{#learn}"))
    assert "has 0 display formulas, in en 1" in found["message"]


def test_citation_missing_in_one_language(root, capsys):
    edit(root, f"{ARTICLE}/ja.md", " [@gae]。", "。")
    code, report = check(root, capsys)
    found = only(report, "parity")
    assert code == 1
    assert (found["key"], found["language"]) == ("learn", "ja")
    assert "missing '@gae'" in found["message"]


# Bibliography -------------------------------------------------------------------------

def test_reference_no_language_cites(root, capsys):
    path = root / REFERENCES
    path.write_text(path.read_text(encoding="utf-8") + (
        "- id: unused-book\n  authors: Nobody\n  title: Never cited\n  venue: Press\n"
        "  year: 2020\n"), encoding="utf-8")
    code, report = check(root, capsys)
    assert code == 1
    found = only(report, "bibliography")
    assert (found["file"], found["line"], found["key"]) == (
        REFERENCES, line_of(root, REFERENCES, "id: unused-book"), "unused-book")


# Geometry -----------------------------------------------------------------------------
# steps: a 400 × 120 canvas, nodes act [20, 30, 140, 60] and learn [240, 30, 140, 60], one
# edge from (160, 60) to (240, 60).

def geometry(root, capsys) -> list[dict]:
    code, report = check(root, capsys)
    assert code == 1
    return problems(report, "geometry")


def test_overlapping_nodes(root, capsys):
    edit(root, SPEC, "box: [240, 30, 140, 60]", "box: [100, 30, 140, 60]")
    found = [f for f in geometry(root, capsys) if "overlaps" in f["message"]]
    assert [(f["element"], f["key"], f["line"]) for f in found] == [
        ("node learn", "learn", line_of(root, SPEC, "id: learn"))]
    assert "overlaps node 'act' (60 × 60 px)" in found[0]["message"]


def test_node_outside_the_canvas(root, capsys):
    edit(root, SPEC, "box: [240, 30, 140, 60]", "box: [240, 30, 180, 60]")
    found = [f for f in geometry(root, capsys) if "out of the canvas" in f["message"]]
    assert [(f["element"], f["line"], f["overflow_px"]) for f in found] == [
        ("node learn", line_of(root, SPEC, "id: learn"), 20)]


def test_edge_end_touching_nothing(root, capsys):
    edit(root, SPEC, "points: [[160, 60], [240, 60]]", "points: [[160, 60], [200, 60]]")
    found = geometry(root, capsys)
    assert [(f["element"], f["line"]) for f in found] == [
        ("edge 1", line_of(root, SPEC, "points: [[160, 60], [200, 60]]"))]
    assert "ends at (200, 60), touching neither" in found[0]["message"]


def test_label_on_a_node(root, capsys):
    # A label above the nodes (the fixture has none), then moved onto both of them.
    for language, text in (("en", "Note"), ("zh", "注"), ("ja", "注記")):
        set_text(root, "note", language, text)
    path = root / SPEC
    path.write_text(path.read_text(encoding="utf-8")
                    + "labels:\n  - text: note\n    box: [20, 4, 360]\n", encoding="utf-8")
    confirm(root, capsys, "note")
    code, report = check(root, capsys)
    assert code == 0, report  # in its place, the label is fine
    edit(root, SPEC, "box: [20, 4, 360]", "box: [20, 50, 360]")
    found = geometry(root, capsys)
    line = line_of(root, SPEC, "box: [20, 50, 360]") - 1
    assert [(f["element"], f["key"], f["line"]) for f in found] == [
        ("label note", "note", line)] * 2
    assert [f["message"].split(" (")[0] for f in found] == [
        f"label 'note' lies on node '{node}'" for node in ("act", "learn")]


def test_geometry_is_checked_after_the_transforms(root, capsys):
    # Narrowed to 0.9, the 400 px canvas is 360 px wide and a node [240, 30, 260, 60] ends
    # at 450 px: 90 px out, not the 100 px of the untransformed spec.
    edit(root, SPEC, "height: 120\n", "height: 120\ntransforms:\n  - narrow: 0.9\n")
    code, report = check(root, capsys)
    assert code == 0, report  # narrowed as it is, the figure is fine
    edit(root, SPEC, "box: [240, 30, 140, 60]", "box: [240, 30, 260, 60]")
    found = [f for f in geometry(root, capsys) if "out of the canvas" in f["message"]]
    assert [(f["element"], f["overflow_px"]) for f in found] == [("node learn", 90)]
