"""The figure editor's interface strings (the theme's `editor-` strings): a project's
templates/strings.yaml overrides them, a language the theme lacks gets the source
language's, and a build never asks for them (no page it writes uses them)."""

from __future__ import annotations

import yaml
from conftest import run_build

from articlesite.figures.editor import editor_strings
from articlesite.load.theme import EDITOR, theme_strings

SITE = """\
default_language: en
source_language: en
languages:
  - {code: en, name: English, lang: en, title: Notes}
  - {code: de, name: Deutsch, lang: de, title: Notizen}
"""


def test_a_project_overrides_the_editor_strings_and_needs_none_for_its_own_language(tmp_path):
    root = tmp_path / "project"
    (root / "content" / "note").mkdir(parents=True)
    (root / "content" / "site.yaml").write_text(SITE, encoding="utf-8")
    for code in ("en", "de"):
        (root / "content" / "note" / f"{code}.md").write_text(
            f"---\ntitle: Note {code}\ndescription: A note.\n---\n\n## One {{#one}}\n\nText.\n",
            encoding="utf-8")
    # German has every string of the pages, and of the editor's only one: Save.
    strings = {key: {"de": texts["en"]} for key, texts in theme_strings().items()
               if not key.startswith(EDITOR)}
    strings["editor-button-save"] = {"de": "Speichern", "en": "Store"}
    (root / "templates").mkdir()
    (root / "templates" / "strings.yaml").write_text(yaml.safe_dump(strings),
                                                     encoding="utf-8")
    result = run_build(root)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    found = editor_strings(root)
    assert found["codes"] == {"en": "en", "de": "de"}
    assert found["strings"]["de"]["button-save"] == "Speichern"
    assert found["strings"]["en"]["button-save"] == "Store"
    assert found["strings"]["de"]["button-undo"] == "Undo"   # the source language's
    assert found["strings"]["en"]["edit-figure"] == "Edit figure"
