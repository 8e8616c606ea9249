"""Every kind of source file is checked against its declared schema (load/schema.py):
a small valid fixture site (tests/fixtures/sources) with one file replaced by a mistaken
one stops the build with every problem of that file at once, each at its line and
naming its key and language."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, THEME, run_build

from articlesite.build import build
from articlesite.problems import BuildError

FIXTURE = REPO / "tests" / "fixtures" / "sources"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURE, root)
    shutil.copytree(THEME, root / "templates")
    return root


def problems_of(root: Path) -> list[str]:
    with pytest.raises(BuildError) as failed:
        build(root)
    return [str(problem) for problem in failed.value.problems]


def test_the_fixture_site_builds(site: Path):
    result = run_build(site)
    assert result.returncode == 0, result.stderr
    assert (site / "site/ja/loop.html").is_file()

SITE = """\
default_language: en
source_language: fr
theme: dark
languages:
  - code: en
    name: English
    lang: en
    title: Notes
  - code: EN
    name: x
    lang: x
    title: x
  - code: zh
    name: 中文
    title: 笔记
  - code: ja
    name: 日本語
    lang: ja
    title: ノート
    status: done
  - English
"""
REFERENCES = """\
- id: sutton
  authors: Sutton & Barto
  title: "Reinforcement Learning: An Introduction"
  kind: novel
  venue: MIT Press
  year: 2018
  pages: 552
- id: gae
  authors: Schulman et al.
  venue: ICLR
  year: [2016]
  url: ftp://example.org/gae
- id: Bad_Id
  authors: x
  title: x
  venue: x
  year: 2000
- id: sutton
  authors: again
  title: again
  venue: again
  year: 2019
"""
DICTIONARY = """\
{
  "steps-title": {"en": "Two steps", "zh": "两个阶段", "ja": "二つの段階", "fr": "Deux"},
  "steps-caption": "Acting, then learning.",
  "act": {"en": "Act", "zh": " ", "ja": 3},
  "learn": {"en": "Learn", "zh": "学习"}
}
"""
SPEC = """\
title: steps-title
caption: steps-caption
width: 0
height: 120
colour: blue
transforms:
  - narrow: 2
  - squash: 1
nodes:
  - id: act
    box: [20, 30, 140]
    text: act
  - id: act
    box: [240, 30, 140, 60]
    text: learn
    class: loud
  - learn
edges:
  - points: [[160, 60]]
    arrow: maybe
labels: {text: x}
"""


@pytest.mark.parametrize(("relative", "text", "expected"), [
    ("content/site.yaml", SITE, [
        ("content/site.yaml:2: source_language 'fr' is not one of the languages (en) "
        "[key 'source_language', language 'fr']"),
        ("content/site.yaml:3: unknown field 'theme' in site.yaml (known fields: languages, "
        "default_language, source_language, base_url, search, numbering, admonitions, "
        "link_base, publish_html_and_svg) [key 'theme']"),
        "content/site.yaml:4: a language must be a mapping, found str [key 'languages']",
        ("content/site.yaml:9: language code 'EN' must be lower-case letters, e.g. 'en' or "
        "'zh' [key 'code', language 'EN']"),
        ("content/site.yaml:13: a language is missing the field 'lang' "
        "[key 'lang', language 'zh']"),
        ("content/site.yaml:20: status 'done' must be one of finished, in-progress "
        "[key 'status', language 'ja']")]),
    ("content/loop/references.yaml", REFERENCES, [
        # the entry without a title is left out: its citations have no entry
        *(f"content/loop/{code}.md:16: citation '@gae' has no entry in the bibliography "
          f"(references.yaml) [language '{code}']" for code in ("en", "ja")),
        "content/loop/references.yaml:4: 'kind' must be article or book [key 'sutton']",
        ("content/loop/references.yaml:7: unknown field 'pages' in a bibliography entry "
        "(known fields: id, authors, title, venue, year, kind, url, note, unconfirmed) "
        "[key 'sutton']"),
        ("content/loop/references.yaml:8: a bibliography entry is missing the field 'title' "
        "[key 'gae']"),
        ("content/loop/references.yaml:11: 'year' must be a year (a number, or text such as "
        "'in press') [key 'gae']"),
        ("content/loop/references.yaml:12: 'url' must start with http:// or https:// "
        "[key 'gae']"),
        ("content/loop/references.yaml:13: reference id 'Bad_Id' must be lower-case "
        "letters, digits and hyphens [key 'Bad_Id']"),
        "content/loop/references.yaml:18: reference 'sutton' is listed twice [key 'sutton']",
        ("content/loop/zh.md:16: citation '@gae' has no entry in the bibliography "
        "(references.yaml) [language 'zh']")]),
    ("figures/figure-texts.json", DICTIONARY, [
        ("figures/figure-texts.json:2: unknown language 'fr' (languages: en, zh, ja) "
        "[key 'steps-title', language 'fr']"),
        ("figures/figure-texts.json:3: value must map language codes to texts "
        "[key 'steps-caption']"),
        ("figures/figure-texts.json:4: translation empty for language 'zh' "
        "[key 'act', language 'zh']"),
        "figures/figure-texts.json:4: translation must be text [key 'act', language 'ja']",
        ("figures/figure-texts.json:5: translation missing for language 'ja' "
        "[key 'learn', language 'ja']"),
        ("figures/steps.yaml:2: caption uses a key that figure-texts.json lacks "
        "[key 'steps-caption']")]),
    ("figures/steps.yaml", SPEC, [
        "figures/steps.yaml:3: 'width' must be a positive number [key 'width']",
        ("figures/steps.yaml:5: unknown field 'colour' in figure spec (known fields: title, "
        "caption, width, height, direction, transforms, nodes, edges, groups, labels, "
        "dividers, lifelines) "
        "[key 'colour']"),
        "figures/steps.yaml:7: 'narrow' takes a ratio between 0 and 1 [key 'transforms']",
        ("figures/steps.yaml:8: unknown transform 'squash' (known: narrow, remove_bands) "
        "[key 'transforms']"),
        "figures/steps.yaml:9: a node must be a mapping, found str [key 'nodes']",
        ("figures/steps.yaml:11: 'box' must be [x, y, width, height] with positive sizes "
        "[key 'box']"),
        "figures/steps.yaml:13: node id 'act' is used twice",
        "figures/steps.yaml:16: 'class' must be one of soft, accent [key 'class']",
        ("figures/steps.yaml:19: 'points' must be a list of at least two [x, y] "
        "[key 'points']"),
        "figures/steps.yaml:20: 'arrow' must be true or false [key 'arrow']",
        "figures/steps.yaml:21: 'labels' must be a list [key 'labels']"]),
], ids=["site", "references", "dictionary", "figure-spec"])
def test_every_mistake_of_a_file_is_listed_at_its_line(site: Path, relative: str, text: str,
                                                        expected: list[str]):
    (site / relative).write_text(text, encoding="utf-8")
    assert problems_of(site) == expected


def test_a_null_optional_field_is_as_if_left_out(site: Path):
    spec = site / "figures/steps.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace(
        "    link: collect\n", "    link:\n    sub: ~\n"), encoding="utf-8")
    build(site)
