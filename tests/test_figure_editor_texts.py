"""Serve's figure editor and a dictionary text written once under "*" (the same in every
language): shown in each language without its own when a figure opens, and a save of
that figure is not refused for it."""

from __future__ import annotations

import json
from types import SimpleNamespace

from conftest import fixture_site

from articlesite.figures.editor import FigureEditor


def test_a_text_written_once_for_every_language_is_given_in_each_and_saved(tmp_path):
    root = fixture_site("sources", tmp_path / "project")
    path = root / "figures" / "figure-texts.json"
    texts = json.loads(path.read_text(encoding="utf-8"))
    spec = (root / "figures" / "steps.yaml").read_text(encoding="utf-8")
    key = next(k for k in texts if f"text: {k}\n" in spec)
    texts[key] = {"*": "ppo_trainer.step()", "ja": "ステップ"}
    path.write_text(json.dumps(texts, ensure_ascii=False, indent=1), encoding="utf-8")
    guard = SimpleNamespace(root=root, dictionary_path=path)
    opened = FigureEditor(guard).open({"figure": "steps"})
    assert opened["texts"][key] == {"zh": "ppo_trainer.step()", "en": "ppo_trainer.step()",
                                    "ja": "ステップ"}
    # the save's check, as the build loads the dictionary: nothing is missing
    editor = FigureEditor(guard)
    editor.validate(root / "figures" / "steps.yaml", spec, path.read_text(encoding="utf-8"))
