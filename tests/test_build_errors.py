"""Bad input: the build stops with exit code 1, lists every problem with its file, line,
key and language, prints no traceback, and leaves the last good site/ untouched."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import edit, failed_build, line_of, run_build, snapshot

ARTICLE = "content/ppo-long-horizon"


def test_invalid_json_names_file_and_line(project: Path):
    edit(project, "figures/figure-texts.json", '"sft": {', '"sft" {')
    line = line_of(project, "figures/figure-texts.json", '"sft" {')
    assert f"figures/figure-texts.json:{line}: invalid JSON" in failed_build(project)


def test_invalid_yaml_in_a_spec_names_file_and_line(project: Path):
    edit(project, "figures/ppo-update.yaml", "nodes:", "nodes: [")
    message = failed_build(project)
    assert re.search(r"figures/ppo-update\.yaml:\d+: invalid YAML", message)


def test_invalid_front_matter_names_file_and_line(project: Path):
    edit(project, f"{ARTICLE}/ja.md", "title: ", "title: [")
    assert re.search(r"content/ppo-long-horizon/ja\.md:\d+: invalid YAML", failed_build(project))


@pytest.mark.parametrize("change", ["missing", "empty"])
def test_dictionary_key_missing_or_empty_in_one_language(project: Path, change: str):
    path = project / "figures/figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    if change == "missing":
        del texts["sft"]["ja"]
    else:
        texts["sft"]["ja"] = "  "
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=2), encoding="utf-8")
    line = line_of(project, "figures/figure-texts.json", '"sft":')
    assert (f"figures/figure-texts.json:{line}: translation {change} for language 'ja' "
            "[key 'sft', language 'ja']") in failed_build(project)


def test_spec_naming_a_key_the_dictionary_lacks(project: Path):
    edit(project, "figures/ppo-update.yaml", "text: clip-loss", "text: clip-los")
    line = line_of(project, "figures/ppo-update.yaml", "text: clip-los")
    assert (f"figures/ppo-update.yaml:{line - 2}: node clip-loss uses a key that "
            "figure-texts.json lacks [key 'clip-los']") in failed_build(project)


def test_directive_naming_an_unknown_figure(project: Path):
    edit(project, f"{ARTICLE}/ja.md", "{figure} critic-training", "{figure} critic-trainng")
    line = line_of(project, f"{ARTICLE}/ja.md", "critic-trainng")
    message = failed_build(project)
    assert (f"content/ppo-long-horizon/ja.md:{line}: unknown figure 'critic-trainng'") in message
    assert "[key 'critic-trainng', language 'ja']" in message


def test_citation_without_bibliography_entry(project: Path):
    edit(project, f"{ARTICLE}/zh.md", "[@dpo]", "[@dpo2]")
    line = line_of(project, f"{ARTICLE}/zh.md", "[@dpo2]")
    assert (f"content/ppo-long-horizon/zh.md:{line}: citation '@dpo2' has no entry in the "
            "bibliography") in failed_build(project)


@pytest.mark.parametrize("formula, reason", [
    (r"\hat{G}_t = A_t + V_t", r"\hut{G}_t = A_t + V_t"),
    (r"\hat{G}_t = A_t + V_t", r"\hat{G}_t = A_t + V_t}"),
    (r"\hat{G}_t = A_t + V_t", r"\hat{G}_t &= A_t + V_t"),
])
def test_formula_the_converter_cannot_render(project: Path, formula: str, reason: str):
    edit(project, f"{ARTICLE}/en.md", formula, reason)
    line = line_of(project, f"{ARTICLE}/en.md", reason)
    message = failed_build(project)
    assert f"content/ppo-long-horizon/en.md:{line}: formula" in message
    assert "[language 'en']" in message


def test_unknown_key_in_site_yaml(project: Path):
    edit(project, "content/site.yaml", "default_language: en", "default_language: en\ntheme: x")
    line = line_of(project, "content/site.yaml", "theme: x")
    assert f"content/site.yaml:{line}: unknown field 'theme' in site.yaml" in failed_build(
        project)


def test_all_problems_are_listed_at_once(project: Path):
    edit(project, f"{ARTICLE}/zh.md", "[@dpo]", "[@dpo2]")
    edit(project, f"{ARTICLE}/ja.md", "{figure} ppo-update", "{figure} ppo-updat")
    edit(project, "figures/critic-training.yaml", "text: critic-loss", "text: critic-lost")
    message = failed_build(project)
    assert "Build failed: 3 problems" in message
    assert "@dpo2" in message and "ppo-updat'" in message and "critic-lost" in message


def test_failed_build_leaves_the_last_good_site_untouched(project: Path):
    assert run_build(project).returncode == 0
    before = snapshot(project / "site")
    edit(project, f"{ARTICLE}/en.md", "Its actions", "Its NEW actions")
    edit(project, "figures/figure-texts.json", '"sft": {', '"sft" {')
    failed_build(project)
    assert snapshot(project / "site") == before
    assert sorted(p.name for p in project.iterdir()) == [".articlesite-cache", "content",
                                                          "figures", "site", "templates"]


def test_node_linking_to_a_section_the_article_lacks(project: Path):
    edit(project, "figures/ppo-update.yaml", "  - id: batch", "  - id: batch\n    link: nowhere")
    assert "node 'batch' links to '#nowhere', which is not a section" in failed_build(project)


def test_two_builds_are_byte_identical(project: Path, tmp_path: Path):
    assert run_build(project).returncode == 0
    first = snapshot(project / "site")
    assert run_build(project, "build", "--out", str(tmp_path / "again")).returncode == 0
    assert snapshot(tmp_path / "again") == first
    assert run_build(project).returncode == 0
    assert snapshot(project / "site") == first


@pytest.mark.parametrize("mistake, message", [
    ("{{ (site.languages | length) / 0 }}", "ZeroDivisionError: division by zero"),
    ("{{ article_path() }}", "TypeError:"),
    ("{% for %}", "template error: Expected an expression"),
])
def test_a_template_mistake_names_the_template_and_line(project: Path, mistake: str,
                                                         message: str):
    path = project / "templates" / "index.html"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{% block main %}", "{% block main %}\n" + mistake, 1),
                    encoding="utf-8")
    line = line_of(project, "templates/index.html", mistake)
    errors = failed_build(project)
    assert f"templates/index.html:{line}: template error: " in errors
    assert message in errors
