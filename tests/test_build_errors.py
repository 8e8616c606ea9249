"""Bad input: the build stops with exit code 1, lists every problem with its file, line,
key and language, prints no traceback, and leaves the last good site/ untouched. On the
small fixture site (tests/fixtures/sources: one article `loop` in en, zh and ja, one
figure `steps`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import edit, failed_build, fixture_site, line_of, run_build, snapshot

import articlesite

ARTICLE = "content/loop"
SPEC = "figures/steps.yaml"
TEXTS = "figures/figure-texts.json"
FORMULA = r"\hat{G}_t = A_t + V_t"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return fixture_site("sources", tmp_path / "project")


def add_formula(root: Path) -> None:
    """The fixture has no formula: a display formula at the end of the English article."""
    path = root / ARTICLE / "en.md"
    path.write_text(path.read_text(encoding="utf-8") + f"\n$${FORMULA}$$\n", encoding="utf-8")


def test_invalid_json_names_file_and_line(root: Path):
    edit(root, TEXTS, '"act": {', '"act" {')
    line = line_of(root, TEXTS, '"act" {')
    assert f"{TEXTS}:{line}: invalid JSON" in failed_build(root)


def test_invalid_yaml_in_a_spec_names_file_and_line(root: Path):
    edit(root, SPEC, "nodes:", "nodes: [")
    message = failed_build(root)
    assert re.search(r"figures/steps\.yaml:\d+: invalid YAML", message)


def test_invalid_front_matter_names_file_and_line(root: Path):
    edit(root, f"{ARTICLE}/ja.md", "title: ", "title: [")
    assert re.search(r"content/loop/ja\.md:\d+: invalid YAML", failed_build(root))


@pytest.mark.parametrize("change", ["missing", "empty"])
def test_dictionary_key_missing_or_empty_in_one_language(root: Path, change: str):
    path = root / TEXTS
    texts = json.loads(path.read_text(encoding="utf-8"))
    if change == "missing":
        del texts["act"]["ja"]
    else:
        texts["act"]["ja"] = "  "
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    line = line_of(root, TEXTS, '"act":')
    assert (f"{TEXTS}:{line}: translation {change} for language 'ja' "
            "[key 'act', language 'ja']") in failed_build(root)


def test_spec_naming_a_key_the_dictionary_lacks(root: Path):
    edit(root, SPEC, "text: act", "text: ac")
    line = line_of(root, SPEC, "- id: act")
    assert (f"{SPEC}:{line}: node act uses a key that "
            "figure-texts.json lacks (did you mean 'act'?) [key 'ac']") in failed_build(root)


def test_directive_naming_an_unknown_figure(root: Path):
    edit(root, f"{ARTICLE}/ja.md", "{figure} steps", "{figure} stepz")
    line = line_of(root, f"{ARTICLE}/ja.md", "stepz")
    message = failed_build(root)
    assert f"{ARTICLE}/ja.md:{line}: unknown figure 'stepz'" in message
    assert "[key 'stepz', language 'ja']" in message


def test_citation_without_bibliography_entry(root: Path):
    edit(root, f"{ARTICLE}/zh.md", "[@gae]", "[@gae2]")
    line = line_of(root, f"{ARTICLE}/zh.md", "[@gae2]")
    assert (f"{ARTICLE}/zh.md:{line}: citation '@gae2' has no entry in the "
            "bibliography") in failed_build(root)


@pytest.mark.parametrize("reason", [
    r"\hut{G}_t = A_t + V_t",
    r"\hat{G}_t = A_t + V_t}",
    r"\hat{G}_t &= A_t + V_t",
])
def test_formula_the_converter_cannot_render(root: Path, reason: str):
    add_formula(root)
    edit(root, f"{ARTICLE}/en.md", FORMULA, reason)
    line = line_of(root, f"{ARTICLE}/en.md", reason)
    message = failed_build(root)
    assert f"{ARTICLE}/en.md:{line}: formula" in message
    assert "[language 'en']" in message


def test_unknown_key_in_site_yaml(root: Path):
    edit(root, "content/site.yaml", "default_language: en", "default_language: en\ntheme: x")
    line = line_of(root, "content/site.yaml", "theme: x")
    assert f"content/site.yaml:{line}: unknown field 'theme' in site.yaml" in failed_build(
        root)


def test_all_problems_are_listed_at_once(root: Path):
    edit(root, f"{ARTICLE}/zh.md", "[@gae]", "[@gae2]")
    edit(root, f"{ARTICLE}/ja.md", "{figure} steps", "{figure} stepz")
    edit(root, SPEC, "text: learn", "text: lern")
    message = failed_build(root)
    assert "Build failed: 3 problems" in message
    assert "@gae2" in message and "stepz'" in message and "lern" in message


def test_failed_build_leaves_the_last_good_site_untouched(root: Path):
    assert run_build(root).returncode == 0
    before = snapshot(root / "site")
    edit(root, f"{ARTICLE}/en.md", "The policy acts", "The policy NEW acts")
    edit(root, TEXTS, '"act": {', '"act" {')
    failed_build(root)
    assert snapshot(root / "site") == before
    assert sorted(p.name for p in root.iterdir()) == [".articlesite-cache", "content",
                                                       "figures", "site", "templates"]


def test_node_linking_to_a_section_the_article_lacks(root: Path):
    edit(root, SPEC, "link: collect", "link: nowhere")
    assert "node 'act' links to '#nowhere', which is not a section" in failed_build(root)


def test_two_builds_are_byte_identical(root: Path, tmp_path: Path):
    add_formula(root)  # MathML too
    assert run_build(root).returncode == 0
    first = snapshot(root / "site")
    assert run_build(root, "build", "--out", str(tmp_path / "again")).returncode == 0
    assert snapshot(tmp_path / "again") == first
    assert run_build(root).returncode == 0
    assert snapshot(root / "site") == first


@pytest.mark.parametrize("mistake, message", [
    ("{{ (site.languages | length) / 0 }}", "ZeroDivisionError: division by zero"),
    ("{{ article_path() }}", "TypeError:"),
    ("{% for %}", "template error: Expected an expression"),
])
def test_a_template_mistake_names_the_template_and_line(root: Path, mistake: str,
                                                         message: str):
    path = root / "templates" / "index.html"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{% block main %}", "{% block main %}\n" + mistake, 1),
                    encoding="utf-8")
    line = line_of(root, "templates/index.html", mistake)
    errors = failed_build(root)
    assert f"templates/index.html:{line}: template error: " in errors
    assert message in errors


@pytest.mark.parametrize("clean", [True, False])
def test_a_mistake_outside_the_figure_macro_names_its_file_and_line(root: Path, clean: bool):
    """figure.html's top level runs as its macro is defined: a mistake there is the
    template's, reported as one (a cold build compiles it ahead, beside the workers)."""
    if not clean:
        assert run_build(root).returncode == 0
    path = root / "templates" / "figure.html"
    theme = Path(articlesite.__file__).parent / "theme" / "figure.html"
    path.write_text("{% set broken = 1 / 0 %}\n" + theme.read_text(encoding="utf-8"),
                    encoding="utf-8")
    errors = failed_build(root)
    assert "templates/figure.html:1: template error: ZeroDivisionError" in errors
